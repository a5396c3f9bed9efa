//! Transports: how batches reach a backend and how replies and events come back.
//!
//! | kind | where the backend runs | data plane |
//! |---|---|---|
//! | `inproc` | the caller's thread, at flush | the archive buffer itself |
//! | `thread` | a render thread of this process | an SPSC ring of batch slots (`ring.rs`) |
//! | `shm[:PATH]` | a server process on this machine | memfd rings passed with `SCM_RIGHTS` (`shm.rs`) |
//! | `fork` | a private server process the client spawns | as `shm`, over a socketpair (`dial.rs`) |
//! | `unix:PATH` | a server process | frames on a unix socket (`stream.rs`) |
//! | `tcp://HOST:PORT` | a server process, here or elsewhere | frames on TCP, with a shared secret |
//!
//! Every transport carries the same archived batches; a backend cannot tell which one fed it
//! (the transport-parity test checks the bytes are identical). Steady-state frames never wait:
//! only replies, back-pressure (a full ring or send window) and probes block, and every such
//! wait is counted in [`TransportStats::blocking_waits`].
//!
//! ## Module map
//! - the process transports' client ends: `shm.rs`, `stream.rs`, `client.rs`, `dial.rs`;
//! - the server: `server.rs` (listeners, admission, caps, shutdown), `worker.rs` (the worker
//!   processes sessions run in, and the server's side of them), `registry.rs` (sessions on
//!   threads of one process), `session.rs` (one session's loop), `handshake.rs`, `peer.rs`
//!   (`SO_PEERCRED`), `secret.rs` (the TCP challenge);
//! - the data planes: `frame.rs` (framing, the batch message), `segment.rs` (memfds, the
//!   control page), `byte_ring.rs` (the shared-memory rings), `doorbell.rs` (parking);
//! - `sync.rs`: every atomic goes through it, so loom can model-check the ring and doorbell;
//! - `sys.rs`: the system calls, each with its safety argument.
//!
//! A dead peer is noticed without a timeout: the kernel closes a dead process's sockets,
//! every wait also waits on the socket, and each submit polls it. The client then latches
//! the loss; every later call fails at once with the same [`SessionLost`].
//!
//! ## Windows, out of band
//! In process (`inproc`, `thread`) the backend may present a surface into the program's
//! native window itself ([`Transport::attach_window`]). The window never travels in a
//! record: the transport hands it to the backend between batches, after every batch
//! submitted before the call (the caller submits the one that created the surface first)
//! and before any submitted after it. `inproc` calls the backend at once; `thread` queues
//! the request in the ring between two batches and waits for the render thread's answer.
//! The process transports decline: their frames are read back and shown by the client.

pub mod afr;
mod byte_ring;
mod client;
pub mod devices;
mod dial;
mod doorbell;
mod frame;
pub mod handshake;
pub mod heap;
mod inproc;
pub mod peer;
pub mod placement;
mod registry;
mod reply;
mod ring;
pub mod secret;
mod segment;
pub mod server;
mod session;
mod shm;
mod stream;
mod sync;
mod sys;
mod thread;
pub mod worker;

pub use dial::{
    DialError, DialOptions, Remote, control, default_socket_path, dial, server_binary, status,
};
pub use frame::{MAX_MESSAGE, decode_batch_message};
pub use handshake::ProbeSnapshot;
pub use inproc::Inproc;
pub use session::{BackendFactory, BackendRequest, ServerBackend, SessionDevice};
pub use shm::ShmTransport;
pub use stream::StreamTransport;
pub use thread::ThreadTransport;

use std::path::PathBuf;
use std::sync::Arc;

use crate::backend::{Backend, BatchView, Event, NativeTarget, Outbox, Reply, SessionError};
use crate::batch::{Archiver, Encoder, access_batch};
use crate::fence::FenceMark;
use crate::handle::SurfaceHandle;
use crate::record::ReplyId;

/// Which transport to use.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TransportKind {
    /// Apply in the calling thread at each flush.
    Inproc,
    /// Apply on a render thread.
    Thread,
    /// Shared memory with a server on this machine, reached through its unix socket (`None`:
    /// [`default_socket_path`]).
    Shm(Option<PathBuf>),
    /// Shared memory with a private server process this client spawns.
    Fork,
    /// Frames on a server's unix socket.
    Unix(PathBuf),
    /// Frames on TCP to a server.
    Tcp {
        /// `HOST:PORT`.
        addr: String,
        /// The shared secret's file (`None`: `TESSERA_SECRET_FILE`, or the dial options').
        secret: Option<PathBuf>,
    },
}

impl TransportKind {
    /// Parses a `TESSERA_TRANSPORT` value: `inproc`, `thread`, `shm`, `shm:PATH`, `fork`,
    /// `unix:PATH`, `tcp://HOST:PORT[?secret=FILE]`. Names are case-insensitive and have
    /// aliases (`direct`, `render-thread`, `spawn`, …); paths and addresses are kept as
    /// written. Unknown or incomplete values give `None`; the caller warns and falls back.
    pub fn parse(value: &str) -> Option<Self> {
        let value = value.trim();
        let lower = value.to_ascii_lowercase();
        let rest = |prefix: &str| value.get(prefix.len()..).filter(|r| !r.is_empty());
        if lower.starts_with("shm:") {
            return rest("shm:").map(|p| Self::Shm(Some(PathBuf::from(p))));
        }
        if lower.starts_with("unix:") {
            return rest("unix:")
                .map(|p| Self::Unix(PathBuf::from(p.strip_prefix("//").unwrap_or(p))));
        }
        if lower.starts_with("tcp://") || lower.starts_with("tcp:") {
            let r = rest(if lower.starts_with("tcp://") {
                "tcp://"
            } else {
                "tcp:"
            })?;
            let (addr, query) = r.split_once('?').unwrap_or((r, ""));
            if addr.is_empty() || !addr.contains(':') {
                return None;
            }
            let secret = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("secret="))
                .map(PathBuf::from);
            return Some(Self::Tcp {
                addr: addr.to_owned(),
                secret,
            });
        }
        match lower.as_str() {
            "inproc" | "in-process" | "direct" => Some(Self::Inproc),
            "thread" | "threaded" | "render-thread" => Some(Self::Thread),
            "shm" | "shared-memory" | "server" => Some(Self::Shm(None)),
            "fork" | "spawn" | "private" => Some(Self::Fork),
            _ => None,
        }
    }

    /// The canonical name of the kind (without its path or address).
    pub fn name(&self) -> &'static str {
        match self {
            Self::Inproc => "inproc",
            Self::Thread => "thread",
            Self::Shm(_) => "shm",
            Self::Fork => "fork",
            Self::Unix(_) => "unix",
            Self::Tcp { .. } => "tcp",
        }
    }

    /// Whether the backend runs in another process (reached with [`dial`]).
    pub fn is_remote(&self) -> bool {
        !matches!(self, Self::Inproc | Self::Thread)
    }

    /// Reads `TESSERA_TRANSPORT`, warning about an unknown value; `inproc` when unset.
    pub fn from_env() -> Self {
        match std::env::var("TESSERA_TRANSPORT") {
            Ok(v) => Self::parse(&v).unwrap_or_else(|| {
                log::warn!(
                    "TESSERA_TRANSPORT={v:?} is not one of inproc, thread, shm[:PATH], fork, \
                     unix:PATH, tcp://HOST:PORT; using inproc"
                );
                Self::Inproc
            }),
            Err(_) => Self::Inproc,
        }
    }
}

/// Counters a transport keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TransportStats {
    /// Batches submitted.
    pub batches: u64,
    /// Records submitted.
    pub records: u64,
    /// Archived record bytes submitted.
    pub record_bytes: u64,
    /// Stage bytes submitted.
    pub stage_bytes: u64,
    /// Times the client blocked waiting for the backend (replies, ring space, send window).
    pub blocking_waits: u64,
    /// Bytes that crossed a process boundary (batch messages with their framing; 0 for the
    /// in-process transports).
    pub wire_bytes: u64,
}

/// The session is over; every later call fails the same way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("session lost: {reason}")]
pub struct SessionLost {
    /// Why.
    pub reason: String,
}

/// The client's end of a session with a backend.
pub trait Transport: Send {
    /// Which transport this is.
    fn kind(&self) -> TransportKind;

    /// Hands the encoder's batch to the backend and leaves the encoder empty.
    fn submit(&mut self, encoder: &mut Encoder) -> Result<(), SessionLost>;

    /// Waits for reply `id` (its request must have been submitted).
    fn wait_reply(&mut self, id: ReplyId) -> Result<Reply, SessionLost>;

    /// Moves events the backend reported into `out`.
    fn take_events(&mut self, out: &mut Vec<Event>);

    /// The session's fence completion watermark (`crate::fence`): the transport publishes
    /// every [`Event::FencesCompleted`] the backend reports into it, and closes it when the
    /// session ends. Reading it needs neither the transport nor a round trip.
    fn fence_mark(&self) -> Arc<FenceMark>;

    /// Lets the backend look at its pending fences now, waiting up to `timeout_ns` for the
    /// oldest, where that costs no round trip, and returns whether the watermark moves
    /// without being asked: `inproc` asks its backend here, in the caller's thread; the
    /// render thread of `thread` looks on its own whenever it is idle with fences pending
    /// (this returns at once). The process transports return `false`: their server reports
    /// the watermark after each batch it applies, and a caller that needs to know sooner
    /// asks with a `WaitFence` record.
    fn poll_fences(&mut self, _timeout_ns: u64) -> bool {
        false
    }

    /// A block of the session's mapping heap for a persistent mapping of `len` bytes at
    /// `offset` into its buffer (`heap.rs`): memory the server reads itself, so what the
    /// program writes there never crosses the command ring. `None` (the default, every
    /// transport without shared memory, and a full heap): the mapping keeps client memory.
    fn heap_alloc(&mut self, _len: usize, _offset: u64) -> Option<heap::HeapBlock> {
        None
    }

    /// Gives back a block of [`Transport::heap_alloc`]'s, once the batch carrying its
    /// `DetachHeapRange` was submitted: it is reused after the server applied that batch.
    fn heap_free(&mut self, _block: heap::HeapBlock) {}

    /// A handle that waits for a reply without this transport, so its caller can wait
    /// holding no lock around the transport (a share group's): `thread`'s replies arrive in
    /// a queue the render thread fills. `None` (the default, and every transport whose
    /// replies must be read from a socket or that has them at once): wait with
    /// [`Transport::wait_reply`]. Counts as a blocking wait.
    fn reply_waiter(&mut self) -> Option<Box<dyn ReplyWaiter>> {
        None
    }

    /// Counters so far.
    fn stats(&self) -> TransportStats;

    /// What a capturing null backend in a server saw, with the batches it captured since the
    /// last call (`None` when the backend is in this process: use its own probe).
    fn probe(&mut self) -> Result<Option<ProbeSnapshot>, SessionLost> {
        Ok(None)
    }

    /// The calling thread stops using this session for now (an EGL context is released from
    /// it): a transport that applies batches on the caller's thread lets its backend release
    /// thread-bound resources ([`Backend::release_thread`]).
    fn release_thread(&mut self) {}

    /// Asks the backend to present `surface` into `window` itself from now on, with swap
    /// interval `interval` (`None`: stop; see [`Backend::attach_window`]). Returns whether
    /// it does; `false` (the default, and every process transport's answer) leaves showing
    /// frames to the client. The request reaches the backend after every batch submitted
    /// before the call and before any submitted after it: submit the batch that creates
    /// the surface first, and attach before the surface's next `Present`.
    fn attach_window(
        &mut self,
        _surface: SurfaceHandle,
        _window: Option<NativeTarget>,
        _interval: i32,
    ) -> bool {
        false
    }

    /// Whether the backend still presents `surface` into its window. It stops on its own
    /// when the window is lost or the surface destroyed; over `thread` that is known once
    /// the render thread has applied the batch where it happened.
    fn window_attached(&mut self, _surface: SurfaceHandle) -> bool {
        false
    }
}

/// Waits for replies of a session without its transport ([`Transport::reply_waiter`]).
pub trait ReplyWaiter: Send {
    /// Waits for reply `id` (its request must have been submitted); replies are kept for
    /// their callers as [`Transport::wait_reply`] keeps them.
    fn wait(&self, id: ReplyId) -> Result<Reply, SessionLost>;
}

/// Creates a transport of `kind` in front of `backend`, which runs in this process. For the
/// process kinds (`shm`, `fork`, `unix:`, `tcp://`) the session runs their data plane with
/// the server side on a thread, so an embedder's backend can be driven through the same
/// protocol; [`dial`] reaches a real server process. If that session cannot start, the
/// transport returned is already lost and says why.
pub fn connect(kind: &TransportKind, backend: Box<dyn Backend>) -> Box<dyn Transport> {
    match kind {
        TransportKind::Inproc => Box::new(Inproc::new(backend)),
        TransportKind::Thread => Box::new(ThreadTransport::new(backend)),
        _ => dial::loopback(kind, backend).unwrap_or_else(|e| {
            let reason = format!("the {} session could not start: {e}", kind.name());
            log::error!("tessera: {reason}");
            let mark = Arc::new(FenceMark::new());
            mark.close();
            Box::new(Failed {
                kind: kind.clone(),
                lost: SessionLost { reason },
                mark,
            })
        }),
    }
}

/// The server's decoder without a backend: splits and validates a batch message as
/// [`apply_message`] does, then decodes every record (tools, fuzzing).
pub fn decode_message(msg: &[u8]) -> Result<Vec<crate::Record>, SessionError> {
    let mut aligned = rkyv::util::AlignedVec::<16>::with_capacity(msg.len());
    aligned.extend_from_slice(msg);
    let (archive, stage) = decode_batch_message(&aligned)?;
    let batch = access_batch(archive, stage)?;
    batch
        .records
        .iter()
        .map(|r| crate::batch::decode_record(r).map_err(SessionError::from))
        .collect()
}

/// A transport whose session never started: every call fails with the reason.
struct Failed {
    kind: TransportKind,
    lost: SessionLost,
    mark: Arc<FenceMark>,
}

impl Transport for Failed {
    fn kind(&self) -> TransportKind {
        self.kind.clone()
    }

    fn submit(&mut self, encoder: &mut Encoder) -> Result<(), SessionLost> {
        let mut archive = Default::default();
        encoder.finish(&mut Archiver::default(), &mut archive, &mut Vec::new());
        Err(self.lost.clone())
    }

    fn wait_reply(&mut self, _id: ReplyId) -> Result<Reply, SessionLost> {
        Err(self.lost.clone())
    }

    fn take_events(&mut self, _out: &mut Vec<Event>) {}

    fn fence_mark(&self) -> Arc<FenceMark> {
        self.mark.clone()
    }

    fn stats(&self) -> TransportStats {
        TransportStats::default()
    }
}

/// The server's decoder: splits a received batch message (`frame.rs`), validates the archive
/// with bytecheck and its stage length, and applies it. Every process transport goes through
/// this one function; it never panics on any input (the fuzz test feeds it mutated batches).
/// `msg` is copied to 16-aligned memory first if it is not aligned.
pub fn apply_message(
    backend: &mut dyn Backend,
    msg: &[u8],
    out: &mut Outbox,
) -> Result<(), SessionError> {
    apply_message_with_heap(backend, msg, out, None)
}

/// [`apply_message`] for a session with a mapping heap (`shm`, `fork`: `heap.rs`).
pub fn apply_message_with_heap(
    backend: &mut dyn Backend,
    msg: &[u8],
    out: &mut Outbox,
    heap: Option<&heap::HeapView>,
) -> Result<(), SessionError> {
    if msg.as_ptr().align_offset(16) != 0 {
        let mut aligned = rkyv::util::AlignedVec::<16>::with_capacity(msg.len());
        aligned.extend_from_slice(msg);
        return apply_message_with_heap(backend, &aligned, out, heap);
    }
    let (archive, stage) = decode_batch_message(msg)?;
    apply_archived(backend, archive, stage, out, heap)
}

/// Applies one batch this process archived with [`Encoder::finish`](crate::batch::Encoder::finish)
/// (`inproc`, `thread`): [`apply_archived`] without validating the archive
/// ([`access_own_batch`](crate::batch::access_own_batch)).
///
/// # Safety
/// `bytes` are exactly what the encoder's archiver wrote, unchanged, 16-byte aligned.
pub(crate) unsafe fn apply_own_archived(
    backend: &mut dyn Backend,
    bytes: &[u8],
    stage: &[u8],
    out: &mut Outbox,
) -> Result<(), SessionError> {
    puffin::profile_scope!("apply_batch");
    // SAFETY: the caller's contract.
    let archived = unsafe { crate::batch::access_own_batch(bytes, stage) }?;
    backend.apply(
        BatchView {
            archived,
            bytes,
            stage,
            heap: None,
        },
        out,
    )
}

/// Validates one archived batch and applies it: the same code behind every transport.
pub(crate) fn apply_archived(
    backend: &mut dyn Backend,
    bytes: &[u8],
    stage: &[u8],
    out: &mut Outbox,
    heap: Option<&heap::HeapView>,
) -> Result<(), SessionError> {
    puffin::profile_scope!("apply_batch");
    let archived = access_batch(bytes, stage)?;
    backend.apply(
        BatchView {
            archived,
            bytes,
            stage,
            heap,
        },
        out,
    )
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::record::Record;
    use crate::state::SurfaceDesc;

    /// A backend that logs what reaches it, presents every live surface it is asked to, and
    /// stops presenting a surface when it is destroyed.
    struct Presenting {
        log: Arc<Mutex<Vec<String>>>,
        live: std::collections::HashSet<SurfaceHandle>,
    }

    impl Backend for Presenting {
        fn caps(&self) -> crate::Caps {
            crate::Caps::gl33_minimum("test")
        }

        fn poll_fences(
            &mut self,
            _timeout_ns: u64,
            _out: &mut Outbox,
        ) -> Result<bool, SessionError> {
            Ok(false)
        }

        fn apply(&mut self, batch: BatchView<'_>, out: &mut Outbox) -> Result<(), SessionError> {
            for r in batch.archived.records.iter() {
                let record = crate::batch::decode_record(r)?;
                let mut log = self.log.lock().unwrap();
                match record {
                    Record::CreateSurface { surface, .. } => {
                        self.live.insert(surface);
                        log.push(format!("create {}", surface.slot));
                    }
                    Record::DestroySurface { surface } => {
                        self.live.remove(&surface);
                        out.detached.push(surface);
                        log.push(format!("destroy {}", surface.slot));
                    }
                    Record::Present { surface } => log.push(format!("present {}", surface.slot)),
                    Record::Finish { reply } => out.replies.push((reply, Reply::Done)),
                    _ => {}
                }
            }
            Ok(())
        }

        fn attach_window(
            &mut self,
            surface: SurfaceHandle,
            window: Option<NativeTarget>,
            interval: i32,
        ) -> bool {
            let attached = window.is_some() && self.live.contains(&surface);
            self.log.lock().unwrap().push(format!(
                "attach {} interval {interval}: {attached}",
                surface.slot
            ));
            attached
        }
    }

    fn surface(slot: u32) -> SurfaceHandle {
        SurfaceHandle {
            slot,
            generation: 1,
        }
    }

    /// A window target that is never dereferenced (the test backend only compares it).
    fn target() -> NativeTarget {
        // SAFETY: the test backend never uses the connection.
        unsafe { NativeTarget::xcb(std::ptr::null_mut(), 0x20_0001, 0x21) }
    }

    /// The engine's order: the batch creating the surface is submitted, then the window is
    /// attached, then frames are presented; destroying the surface ends the presentation.
    fn attaches_in_order(kind: TransportKind) {
        let log = Arc::new(Mutex::new(Vec::new()));
        let backend = Presenting {
            log: log.clone(),
            live: Default::default(),
        };
        let mut t = connect(&kind, Box::new(backend));
        let mut enc = Encoder::new();
        // Asked before the surface exists: declined.
        assert!(!t.attach_window(surface(1), Some(target()), 1));
        enc.push(Record::CreateSurface {
            surface: surface(1),
            desc: SurfaceDesc {
                width: 1,
                height: 1,
                color: None,
                depth_stencil: None,
                samples: 1,
            },
        });
        t.submit(&mut enc).unwrap();
        assert!(t.attach_window(surface(1), Some(target()), 0));
        assert!(t.window_attached(surface(1)));
        enc.push(Record::Present {
            surface: surface(1),
        });
        t.submit(&mut enc).unwrap();
        enc.push(Record::DestroySurface {
            surface: surface(1),
        });
        let reply = enc.mint_reply();
        enc.push(Record::Finish { reply });
        t.submit(&mut enc).unwrap();
        t.wait_reply(reply).unwrap();
        assert!(!t.window_attached(surface(1)));
        // A window is never attached without one.
        assert!(!t.attach_window(surface(1), None, 1));
        assert_eq!(
            *log.lock().unwrap(),
            [
                "attach 1 interval 1: false",
                "create 1",
                "attach 1 interval 0: true",
                "present 1",
                "destroy 1",
                "attach 1 interval 1: false",
            ],
            "{}",
            kind.name()
        );
    }

    #[test]
    fn inproc_hands_a_window_to_the_backend_between_batches() {
        attaches_in_order(TransportKind::Inproc);
    }

    #[test]
    fn the_render_thread_hands_a_window_to_the_backend_between_batches() {
        attaches_in_order(TransportKind::Thread);
    }

    #[test]
    fn process_transports_never_attach_a_window() {
        let mut t = connect(
            &TransportKind::Fork,
            Box::new(crate::null::NullBackend::new(false).0),
        );
        assert!(!t.attach_window(surface(1), Some(target()), 1));
        assert!(!t.window_attached(surface(1)));
    }

    #[test]
    fn parses_aliases_and_rejects_unknown() {
        assert_eq!(TransportKind::parse("INPROC"), Some(TransportKind::Inproc));
        assert_eq!(
            TransportKind::parse(" thread "),
            Some(TransportKind::Thread)
        );
        assert_eq!(
            TransportKind::parse("render-thread"),
            Some(TransportKind::Thread)
        );
        assert_eq!(TransportKind::parse("carrier-pigeon"), None);
    }
}

//! One server session: the handshake, then batches in and replies out until the client goes.
//!
//! A session owns its backend (its own objects: nothing is shared between sessions), runs on
//! its own thread, and ends in exactly one of three ways, each logged with the session number
//! and peer:
//! - the client hung up (closed its socket, exited, or was killed — the kernel closes the
//!   socket of a dead process, which wakes the session wherever it waits);
//! - the client broke the protocol (a malformed frame or batch, a stale or forged handle, a
//!   span outside the stage, an oversized message, a ring cursor that moved backwards): the
//!   reason is sent to the client in an `Ended` frame and logged;
//! - the server is shutting down.
//!
//! Either way the backend is dropped when the session ends, which frees every object the
//! client created; then the backend's census (`crate::census`) says what it left in the
//! driver, which the end-of-session line reports (`...; 0 native objects left`). A panic
//! inside the backend is caught and ends only this session.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU8, Ordering as StdOrdering};

use rkyv::util::AlignedVec;

use super::byte_ring::{Reader, WriteError, Writer};
use super::doorbell::{self, EventSleeper, EventWaker, SocketReady};
use super::frame::{self, FrameError, FrameKind, MAX_HANDSHAKE_FRAME, MAX_MESSAGE};
use super::handshake::{self, DataPlane, Notice, ProbeSnapshot, Welcome};
use super::heap::HeapView;
use super::secret::Secret;
use super::segment::{self, clamp_ring};
use super::sync::Ordering;
use super::{apply_message_with_heap, sys};
use crate::backend::{Backend, Outbox, SessionError};
use crate::null::NullProbe;

/// A backend made for one session, and the null backend's probe when that is what it is.
pub struct ServerBackend {
    /// The backend.
    pub backend: Box<dyn Backend>,
    /// Its probe, when it is a capturing null backend.
    pub probe: Option<NullProbe>,
}

/// What a client asked the server to create.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendRequest {
    /// The backend's name (`null`, `gles`, `vulkan`).
    pub name: String,
    /// Whether to keep every batch for the probe (already reduced to what the server allows).
    pub capture: bool,
    /// The device placement chose (`placement.rs`); `None` when the server does not place
    /// sessions (or for `null`): the backend's own choice.
    pub device: Option<SessionDevice>,
}

/// The device a session was placed on, as its backend is made for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionDevice {
    /// Its index in the server's device list.
    pub index: usize,
    /// Its name.
    pub name: String,
    /// Its UUID (Vulkan's `deviceUUID`, or the topology's).
    pub uuid: [u8; 16],
    /// Described by a topology: the backend runs on its software driver (lavapipe for
    /// `vulkan`, llvmpipe for `gles`), not on a device of that UUID.
    pub synthetic: bool,
    /// The second device of a session with alternate-frame rendering (`afr.rs`): odd
    /// frames run there.
    pub alternate: Option<Box<SessionDevice>>,
}

impl SessionDevice {
    /// `index: name (uuid)`, as the Welcome and the log name it (with the alternate device
    /// of an alternate-frame session).
    pub fn describe(&self) -> String {
        let alternate = self
            .alternate
            .as_ref()
            .map(|a| format!(", alternating frames with {}", a.describe()))
            .unwrap_or_default();
        format!(
            "{}: {} ({}){alternate}",
            self.index,
            self.name,
            super::devices::uuid_text(&self.uuid)
        )
    }
}

/// Makes a backend by name: the seam where the GLES and Vulkan backends plug into a server.
pub type BackendFactory = dyn Fn(&BackendRequest) -> Result<ServerBackend, String> + Send + Sync;

/// How a session is to be run.
pub(crate) struct SessionPolicy<'a> {
    /// Number of the session in the log.
    pub id: u64,
    /// Who the peer is, for the log.
    pub peer: String,
    /// Whether the socket can carry descriptors (unix), so `shm` can be offered.
    pub can_share_memory: bool,
    /// The shared secret the client must prove (TCP).
    pub secret: Option<&'a Secret>,
    /// Whether sessions may capture batches for the probe.
    pub allow_capture: bool,
    /// Makes backends.
    pub factory: &'a BackendFactory,
    /// The device placement chose, and the backend to make on it (`auto` resolved).
    pub device: Option<(SessionDevice, String)>,
}

/// What the code that placed a session hears from it, and the debug hook that ends its process.
#[derive(Default)]
pub(crate) struct SessionHooks<'a> {
    /// Called once the client completed its part of the handshake (a worker tells its
    /// server, which counts the connection as authenticated from then on).
    pub on_authenticated: Option<&'a (dyn Fn() + Sync)>,
    /// Raise SIGSEGV in this process once this many batches were applied (a debug-only test
    /// hook: how the fault-isolation tests stand in for a native driver's fault).
    pub crash_after: Option<u64>,
    /// Hears how many batches the session applied so far and the device memory its backend
    /// holds now (bytes: [`crate::BackendCounters::device_memory`], 0 for a backend that
    /// does not count), at most every [`PROGRESS_EVERY`] while it applies any (the server's
    /// status turns the batches into frames per second — on the server a frame is what one
    /// flush of the client carried — and its placement weighs the memory).
    pub on_progress: Option<&'a (dyn Fn(u64, u64) + Sync)>,
}

/// How often a session reports its applied batches ([`SessionHooks::on_progress`]).
pub(crate) const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// Reports a session's applied batches and device memory, at most every [`PROGRESS_EVERY`].
struct Reporter<'a> {
    report: Option<&'a (dyn Fn(u64, u64) + Sync)>,
    last: std::time::Instant,
}

impl<'a> Reporter<'a> {
    fn new(report: Option<&'a (dyn Fn(u64, u64) + Sync)>) -> Self {
        Self {
            report,
            last: std::time::Instant::now(),
        }
    }

    /// `applied` batches so far: reported, with the memory `session`'s backend holds, if the
    /// last report is old enough (the backend is asked only then).
    fn applied(&mut self, applied: u64, session: &ServerBackend) {
        if let Some(report) = self.report {
            let now = std::time::Instant::now();
            if now.duration_since(self.last) >= PROGRESS_EVERY {
                self.last = now;
                let memory = session.backend.counters().map_or(0, |c| c.device_memory);
                report(applied, memory);
            }
        }
    }
}

/// Where a connection stands with the server's handshake deadline: shared by its session
/// thread (which marks it authenticated) and the accept loop (which expires it). Whichever
/// moves it out of `PENDING` first wins.
#[derive(Debug, Default)]
pub(crate) struct Admission(AtomicU8);

impl Admission {
    const PENDING: u8 = 0;
    const AUTHENTICATED: u8 = 1;
    const EXPIRED: u8 = 2;
    const GONE: u8 = 3;

    /// The client completed its part of the handshake; `false` if the deadline came first.
    pub fn authenticate(&self) -> bool {
        self.0
            .compare_exchange(
                Self::PENDING,
                Self::AUTHENTICATED,
                StdOrdering::AcqRel,
                StdOrdering::Acquire,
            )
            .is_ok()
    }

    /// The deadline passed; `true` if the connection was still pending (the caller closes it).
    pub fn expire(&self) -> bool {
        self.0
            .compare_exchange(
                Self::PENDING,
                Self::EXPIRED,
                StdOrdering::AcqRel,
                StdOrdering::Acquire,
            )
            .is_ok()
    }

    /// The session ended during its handshake: it no longer counts as waiting for one.
    pub fn end(&self) {
        let _ = self.0.compare_exchange(
            Self::PENDING,
            Self::GONE,
            StdOrdering::AcqRel,
            StdOrdering::Acquire,
        );
    }

    /// Still waiting for the client's handshake.
    pub fn is_pending(&self) -> bool {
        self.0.load(StdOrdering::Acquire) == Self::PENDING
    }

    /// Closed by the deadline.
    pub fn is_expired(&self) -> bool {
        self.0.load(StdOrdering::Acquire) == Self::EXPIRED
    }
}

/// How a session ended.
#[derive(Debug)]
pub(crate) enum Ending {
    /// The handshake refused the client.
    Refused(String),
    /// The client hung up.
    HungUp,
    /// The client broke the protocol, or the backend failed.
    Violation(SessionError),
}

impl From<FrameError> for Ending {
    fn from(e: FrameError) -> Self {
        match e {
            FrameError::HungUp => Ending::HungUp,
            FrameError::Io(e) if is_hangup(&e) => Ending::HungUp,
            other => Ending::Violation(SessionError::Transport(other.to_string())),
        }
    }
}

fn is_hangup(e: &std::io::Error) -> bool {
    use std::io::ErrorKind as K;
    matches!(
        e.kind(),
        K::BrokenPipe
            | K::ConnectionReset
            | K::ConnectionAborted
            | K::UnexpectedEof
            | K::NotConnected
    )
}

fn transport(what: impl std::fmt::Display) -> Ending {
    Ending::Violation(SessionError::Transport(what.to_string()))
}

/// Runs one session on `sock` to its end, logging how it ended.
pub(crate) fn run(sock: OwnedFd, policy: &SessionPolicy<'_>) {
    run_admitted(sock, policy, None, &SessionHooks::default());
}

/// [`run`], on the server's handshake clock `admission` (marked authenticated once the
/// client's part of the handshake is done; one the accept loop expired ends quietly, the
/// loop having logged why), with `hooks`.
pub(crate) fn run_admitted(
    sock: OwnedFd,
    policy: &SessionPolicy<'_>,
    admission: Option<&Admission>,
    hooks: &SessionHooks<'_>,
) {
    let id = policy.id;
    let peer = &policy.peer;
    let mut backend = None;
    let ending = serve(sock.as_fd(), policy, admission, hooks, &mut backend);
    if let Some(admission) = admission {
        admission.end();
    }
    let freed = match backend
        .as_ref()
        .and_then(|b: &ServerBackend| b.probe.as_ref())
    {
        Some(probe) => format!(
            "{} live objects freed",
            probe
                .stats()
                .live
                .iter()
                .map(|n| u64::from(*n))
                .sum::<u64>()
        ),
        None => "its objects were freed".to_owned(),
    };
    // Dropping the backend frees every object of the session; what its census still
    // counts afterwards was left in the driver.
    let census = backend.as_ref().and_then(|b| b.backend.native_census());
    let had_backend = backend.is_some();
    drop(backend);
    let freed = match census {
        Some(census) => format!("{freed}; {} left", census.live()),
        None => freed,
    };
    match &ending {
        // The accept loop closed it and logged why.
        _ if admission.is_some_and(Admission::is_expired) => {
            log::debug!("session {id} ({peer}): closed at the handshake deadline")
        }
        Ending::Refused(reason) => log::warn!("session {id} ({peer}): refused: {reason}"),
        Ending::HungUp if had_backend => {
            log::info!("session {id} ({peer}): ended: the client hung up; {freed}")
        }
        Ending::HungUp => {
            log::info!("session {id} ({peer}): the client hung up during the handshake")
        }
        Ending::Violation(e) => {
            let _ = frame::send(
                sock.as_fd(),
                FrameKind::Ended,
                &[e.to_string().as_bytes()],
                &[],
            );
            log::warn!("session {id} ({peer}): ended: {e}; {freed}");
        }
    }
}

fn serve(
    sock: BorrowedFd<'_>,
    policy: &SessionPolicy<'_>,
    admission: Option<&Admission>,
    hooks: &SessionHooks<'_>,
    slot: &mut Option<ServerBackend>,
) -> Ending {
    let accepted = match handshake::server_accept(sock, policy.secret) {
        Ok(a) => a,
        Err(handshake::HandshakeError::Refused(reason)) => return Ending::Refused(reason),
        Err(handshake::HandshakeError::Protocol(reason)) => return Ending::Refused(reason),
    };
    if admission.is_some_and(|a| !a.authenticate()) {
        return Ending::Refused("the handshake deadline passed".to_owned());
    }
    if let Some(authenticated) = hooks.on_authenticated {
        authenticated();
    }
    let hello = &accepted.hello;
    let request = BackendRequest {
        name: policy
            .device
            .as_ref()
            .map_or_else(|| hello.backend.clone(), |(_, backend)| backend.clone()),
        capture: hello.capture && policy.allow_capture,
        device: policy.device.as_ref().map(|(device, _)| device.clone()),
    };
    let made = match (policy.factory)(&request) {
        Ok(b) => b,
        Err(reason) => {
            handshake::refuse(sock, &reason);
            return Ending::Refused(reason);
        }
    };
    let data_plane = if hello.data_plane == DataPlane::Shm && policy.can_share_memory {
        DataPlane::Shm
    } else {
        DataPlane::Stream
    };
    let welcome = Welcome {
        build_id: handshake::build_id(),
        session: policy.id,
        caps: made.backend.caps(),
        data_plane,
        cmd_bytes: clamp_ring(hello.cmd_bytes),
        event_bytes: clamp_ring(hello.event_bytes),
        window_bytes: hello.window_bytes.clamp(1 << 20, MAX_MESSAGE),
        device: request.device.as_ref().map(SessionDevice::describe),
        proof: accepted.proof,
    };
    if let Err(e) = handshake::send_welcome(sock, &welcome) {
        return if is_hangup(&e) {
            Ending::HungUp
        } else {
            transport(e)
        };
    }
    log::info!(
        "session {} ({}): {} backend over {:?}{}",
        policy.id,
        policy.peer,
        request.name,
        data_plane,
        request
            .device
            .as_ref()
            .map(|d| format!(" on device {}", d.describe()))
            .unwrap_or_default()
    );
    let session = slot.insert(made);
    match data_plane {
        DataPlane::Shm => serve_shm(sock, &welcome, session, hooks).unwrap_or_else(|e| e),
        DataPlane::Stream => {
            serve_stream(sock, session, !policy.can_share_memory, hooks).unwrap_or_else(|e| e)
        }
    }
}

/// Ends the profiler's frame after each applied batch: on the server a frame is what one
/// flush of the client carried. One relaxed load when profiling is off.
#[inline]
fn end_profiler_frame() {
    if puffin::are_scopes_on() {
        puffin::GlobalProfiler::lock().new_frame();
    }
}

/// Applies one message, turning a backend panic into a session error.
fn apply_guarded(
    session: &mut ServerBackend,
    msg: &[u8],
    out: &mut Outbox,
    heap: Option<&HeapView>,
) -> Result<(), SessionError> {
    std::panic::catch_unwind(AssertUnwindSafe(|| {
        apply_message_with_heap(session.backend.as_mut(), msg, out, heap)
    }))
    .unwrap_or_else(|_| Err(SessionError::Backend("the backend panicked".to_owned())))
}

/// The session's probe: the server's CPU time and the backend's counters, and what a null
/// backend saw (with the batches it captured, when capturing).
fn snapshot(session: &ServerBackend) -> ProbeSnapshot {
    let (cpu_user_ns, cpu_sys_ns) = sys::process_cpu_ns();
    let backend = session.backend.counters();
    let Some(probe) = session.probe.as_ref() else {
        return ProbeSnapshot {
            cpu_user_ns,
            cpu_sys_ns,
            backend,
            ..ProbeSnapshot::default()
        };
    };
    let captured = probe.take_batches();
    let stats = probe.stats();
    ProbeSnapshot {
        cpu_user_ns,
        cpu_sys_ns,
        backend,
        batches: stats.batches,
        records: stats.records,
        by_name: stats
            .by_name
            .iter()
            .map(|(n, c)| ((*n).to_owned(), *c))
            .collect(),
        record_bytes: stats.record_bytes,
        stage_bytes: stats.stage_bytes,
        captured,
        live: stats.live.to_vec(),
    }
}

/// Handles one control frame that arrived while the session waited. `Ok(())` to go on.
fn control_frame(
    sock: BorrowedFd<'_>,
    session: &ServerBackend,
    payload: &mut AlignedVec<16>,
) -> Result<(), Ending> {
    let mut fds = Vec::new();
    match frame::recv(sock, MAX_HANDSHAKE_FRAME, payload, &mut fds)? {
        FrameKind::Probe => {
            let bytes = handshake::archive(&snapshot(session));
            frame::send(sock, FrameKind::ProbeReply, &[&bytes], &[]).map_err(transport_or_hangup)
        }
        other => Err(transport(format!(
            "unexpected {other:?} frame on the control socket"
        ))),
    }
}

/// The debug hook: raises SIGSEGV once `applied` reached `crash_after`.
fn crash_if_due(applied: u64, crash_after: Option<u64>) {
    if crash_after.is_some_and(|k| applied >= k) {
        log::warn!("TESSERA_DEBUG_CRASH: raising SIGSEGV after {applied} batches");
        sys::raise_segv();
    }
}

fn serve_shm(
    sock: BorrowedFd<'_>,
    welcome: &Welcome,
    session: &mut ServerBackend,
    hooks: &SessionHooks<'_>,
) -> Result<Ending, Ending> {
    let mut reporter = Reporter::new(hooks.on_progress);
    let mut payload = AlignedVec::new();
    let mut fds: Vec<OwnedFd> = Vec::new();
    let kind = frame::recv(sock, MAX_HANDSHAKE_FRAME, &mut payload, &mut fds)?;
    if kind != FrameKind::Segments || !(2..=3).contains(&fds.len()) {
        return Err(transport(format!(
            "expected the client's segments, got {kind:?} with {} descriptors",
            fds.len()
        )));
    }
    // The mapping heap (`heap.rs`) is optional: without it, persistent mappings send their
    // writes through the ring.
    let heap = match fds.len() {
        3 => {
            let fd = fds.pop().ok_or_else(|| transport("no mapping heap"))?;
            Some(HeapView::map(&fd).map_err(transport)?)
        }
        _ => None,
    };
    let client_bell = fds.pop().ok_or_else(|| transport("no doorbell"))?;
    let cmd_fd = fds.pop().ok_or_else(|| transport("no command segment"))?;
    let cmd =
        segment::map_command(&cmd_fd, welcome.cmd_bytes, welcome.event_bytes).map_err(transport)?;
    let (event_fd, event) = segment::create_event(welcome.event_bytes).map_err(transport)?;
    let bell = sys::eventfd().map_err(transport)?;
    frame::send(
        sock,
        FrameKind::Segments,
        &[],
        &[event_fd.as_fd(), bell.as_fd()],
    )
    .map_err(transport_or_hangup)?;
    drop((cmd_fd, event_fd));

    let page = cmd.page();
    let mut reader = Reader::new(segment::command_ring(&cmd));
    let mut writer = Writer::new(segment::event_ring(&cmd, &event));
    let waker = EventWaker(client_bell.as_fd());
    let notify_client = || doorbell::notify(&page.client_parked.0, &waker);
    let sleeper = EventSleeper {
        bell: bell.as_fd(),
        socket: sock,
    };
    let mut msg = AlignedVec::new();
    let mut out = Outbox::default();
    let mut applied = 0u64;
    loop {
        let complete = reader
            .poll(&mut msg, MAX_MESSAGE, &notify_client)
            .map_err(|e| Ending::Violation(SessionError::Transport(e.to_string())))?;
        if !complete {
            match doorbell::wait(&page.server_parked.0, &sleeper, reader.data_ready()) {
                Ok(_) => {}
                Err(SocketReady) => control_frame(sock, session, &mut payload)?,
            }
            continue;
        }
        let result = apply_guarded(session, &msg, &mut out, heap.as_ref());
        applied += 1;
        crash_if_due(applied, hooks.crash_after);
        reporter.applied(applied, session);
        end_profiler_frame();
        // Release: the batch's effects (replies written below) and its reads of the mapping
        // heap are ordered before it; pairs with the Acquire in `ShmTransport::heap_alloc`,
        // after which the client reuses the blocks this batch detached.
        page.server.0.applied.store(applied, Ordering::Release);
        send_descriptors(sock, &mut out, true)?;
        for bytes in archived_notices(&mut out) {
            let mut wait = |ready: &dyn Fn() -> bool| loop {
                match doorbell::wait(&page.server_parked.0, &sleeper, ready) {
                    Ok(_) => return Ok(()),
                    Err(SocketReady) => control_frame(sock, session, &mut payload)?,
                }
            };
            writer
                .write(&[&bytes], &mut wait, &notify_client)
                .map_err(|e| match e {
                    WriteError::Ring(e) => {
                        Ending::Violation(SessionError::Transport(e.to_string()))
                    }
                    WriteError::Wait(ending) => ending,
                })?;
        }
        result.map_err(Ending::Violation)?;
    }
}

/// Serves batches from frames on the socket. `compress`: large notices (read-backs, a
/// window's frames) go LZ4-compressed (a peer on another machine).
fn serve_stream(
    sock: BorrowedFd<'_>,
    session: &mut ServerBackend,
    compress: bool,
    hooks: &SessionHooks<'_>,
) -> Result<Ending, Ending> {
    let mut reporter = Reporter::new(hooks.on_progress);
    let mut msg = AlignedVec::new();
    let mut fds = Vec::new();
    let mut out = Outbox::default();
    let (mut applied, mut applied_bytes) = (0u64, 0u64);
    loop {
        match frame::recv(sock, MAX_MESSAGE, &mut msg, &mut fds)? {
            FrameKind::Batch => {
                let result = apply_guarded(session, &msg, &mut out, None);
                applied += 1;
                crash_if_due(applied, hooks.crash_after);
                reporter.applied(applied, session);
                applied_bytes += msg.len() as u64;
                end_profiler_frame();
                // Only a unix socket carries descriptors; TCP is the connection that compresses.
                send_descriptors(sock, &mut out, !compress)?;
                for bytes in archived_notices(&mut out) {
                    let sent = if compress && bytes.len() >= frame::COMPRESS_FROM {
                        let packed = frame::compress_notice(&bytes);
                        frame::send(sock, FrameKind::CompressedNotice, &[&packed], &[])
                    } else {
                        frame::send(sock, FrameKind::Notice, &[&bytes], &[])
                    };
                    sent.map_err(transport_or_hangup)?;
                }
                let mut progress = [0u8; 16];
                progress[..8].copy_from_slice(&applied.to_le_bytes());
                progress[8..].copy_from_slice(&applied_bytes.to_le_bytes());
                frame::send(sock, FrameKind::Progress, &[&progress], &[])
                    .map_err(transport_or_hangup)?;
                result.map_err(Ending::Violation)?;
            }
            FrameKind::Probe => {
                let bytes = handshake::archive(&snapshot(session));
                frame::send(sock, FrameKind::ProbeReply, &[&bytes], &[])
                    .map_err(transport_or_hangup)?;
            }
            other => return Err(transport(format!("unexpected {other:?} frame"))),
        }
        fds.clear();
    }
}

/// Sends the descriptor of each exported image among a batch's replies to the client ahead
/// of its reply (a `Descriptor` frame naming the reply, `SCM_RIGHTS`) and closes the
/// server's copy; the reply keeps no number (-1), which means nothing in the client's
/// process anyway (`client.rs` puts its own there). On a connection that cannot carry
/// descriptors (`can_pass` false: TCP, where the engine never asks for an export) every
/// such descriptor is closed and the session ends.
fn send_descriptors(sock: BorrowedFd<'_>, out: &mut Outbox, can_pass: bool) -> Result<(), Ending> {
    let mut result = Ok(());
    for (id, reply) in &mut out.replies {
        if let crate::backend::Reply::Exported(m) = reply {
            let fd = m.take_fd();
            m.fd = -1;
            if result.is_ok() {
                result = if can_pass {
                    let id = id.0.to_le_bytes();
                    frame::send(sock, FrameKind::Descriptor, &[&id], &[fd.as_fd()])
                        .map_err(transport_or_hangup)
                } else {
                    Err(transport(
                        "an export on a connection that cannot carry descriptors (tcp://)",
                    ))
                };
            }
        }
    }
    result
}

/// Empties a batch's outbox: each event, then each reply (in request order), archived as a
/// [`Notice`]. Events first, so a client that has a reply also has every event of its batch:
/// a fence watermark moved by work before a `glFinish` is known when the `Finish` returns,
/// and asking about that fence costs no round trip.
fn archived_notices(out: &mut Outbox) -> impl Iterator<Item = AlignedVec> + '_ {
    let events = out.events.drain(..).map(Notice::Event);
    let replies = out.replies.drain(..);
    let replies = replies.map(|(id, reply)| Notice::Reply { id, reply });
    events
        .chain(replies)
        .map(|notice| handshake::archive(&notice))
}

fn transport_or_hangup(e: std::io::Error) -> Ending {
    if is_hangup(&e) {
        Ending::HungUp
    } else {
        transport(e)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use std::os::unix::net::UnixStream;

    use super::*;
    use crate::null::NullBackend;
    use crate::transport::handshake::Hello;
    use crate::transport::sync::Ordering;

    /// Serves one session with a null backend on a thread; returns the client's socket.
    fn session() -> (OwnedFd, std::thread::JoinHandle<()>) {
        let (ours, theirs) = UnixStream::pair().unwrap();
        let thread = std::thread::spawn(move || {
            let factory = |_: &BackendRequest| -> Result<ServerBackend, String> {
                let (backend, probe) = NullBackend::new(false);
                Ok(ServerBackend {
                    backend: Box::new(backend),
                    probe: Some(probe),
                })
            };
            let policy = SessionPolicy {
                id: 9,
                peer: "test".to_owned(),
                can_share_memory: true,
                secret: None,
                allow_capture: false,
                factory: &factory,
                device: None,
            };
            run(OwnedFd::from(theirs), &policy);
        });
        (OwnedFd::from(ours), thread)
    }

    fn hello(plane: DataPlane) -> Hello {
        Hello {
            build_id: handshake::build_id(),
            same_build: true,
            data_plane: plane,
            cmd_bytes: 1 << 16,
            event_bytes: 1 << 16,
            window_bytes: 1 << 20,
            backend: "null".to_owned(),
            capture: false,
            device: None,
            nonce: [0; 16],
        }
    }

    /// Reads frames until `Ended`; returns its reason.
    fn ended(sock: BorrowedFd<'_>) -> String {
        let mut payload = AlignedVec::new();
        let mut fds = Vec::new();
        loop {
            match frame::recv(sock, MAX_MESSAGE, &mut payload, &mut fds) {
                Ok(FrameKind::Ended) => return String::from_utf8_lossy(&payload).into_owned(),
                Ok(_) => {}
                Err(e) => panic!("no Ended frame: {e}"),
            }
        }
    }

    #[test]
    fn a_malformed_batch_ends_the_session_with_its_reason() {
        let (sock, thread) = session();
        handshake::client(sock.as_fd(), &hello(DataPlane::Stream), None).unwrap();
        let garbage = [0x42u8; 48];
        frame::send(sock.as_fd(), FrameKind::Batch, &[&garbage], &[]).unwrap();
        assert!(ended(sock.as_fd()).contains("no batch magic"));
        thread.join().unwrap();
    }

    #[test]
    fn an_oversized_frame_is_refused_before_its_payload() {
        let (sock, thread) = session();
        handshake::client(sock.as_fd(), &hello(DataPlane::Stream), None).unwrap();
        // Only the header: the server must refuse without waiting for a gigabyte.
        let mut h = frame::header(FrameKind::Batch, 0);
        h[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        sys::send_all(sock.as_fd(), &[&h], &[]).unwrap();
        assert!(ended(sock.as_fd()).contains("exceeds"));
        thread.join().unwrap();
    }

    #[test]
    fn a_ring_cursor_that_jumps_ahead_ends_the_session() {
        let (sock, thread) = session();
        let welcome = handshake::client(sock.as_fd(), &hello(DataPlane::Shm), None).unwrap();
        assert_eq!(welcome.data_plane, DataPlane::Shm);
        let (cmd_fd, cmd) =
            segment::create_command(welcome.cmd_bytes, welcome.event_bytes).unwrap();
        let bell = sys::eventfd().unwrap();
        frame::send(
            sock.as_fd(),
            FrameKind::Segments,
            &[],
            &[cmd_fd.as_fd(), bell.as_fd()],
        )
        .unwrap();
        let mut payload = AlignedVec::new();
        let mut fds = Vec::new();
        assert_eq!(
            frame::recv(sock.as_fd(), MAX_MESSAGE, &mut payload, &mut fds).unwrap(),
            FrameKind::Segments
        );
        assert_eq!(fds.len(), 2);
        // A head more than one ring ahead of the tail cannot be honest.
        cmd.page()
            .client
            .0
            .cmd_head
            .store(1 << 40, Ordering::Release);
        sys::eventfd_ring(fds[1].as_fd());
        assert!(ended(sock.as_fd()).contains("ring protocol"));
        thread.join().unwrap();
    }

    #[test]
    fn a_wrong_fingerprint_in_the_welcome_is_refused_by_the_client() {
        let (ours, theirs) = UnixStream::pair().unwrap();
        let fake_server = std::thread::spawn(move || {
            let sock = OwnedFd::from(theirs);
            let mut payload = AlignedVec::new();
            let mut fds = Vec::new();
            assert_eq!(
                frame::recv(sock.as_fd(), MAX_MESSAGE, &mut payload, &mut fds).unwrap(),
                FrameKind::Hello
            );
            let mut welcome = (crate::FINGERPRINT ^ 0x10).to_le_bytes().to_vec();
            welcome.extend_from_slice(&[0; 40]);
            frame::send(sock.as_fd(), FrameKind::Welcome, &[&welcome], &[]).unwrap();
            let kind = frame::recv(sock.as_fd(), MAX_MESSAGE, &mut payload, &mut fds).unwrap();
            (kind, String::from_utf8_lossy(&payload).into_owned())
        });
        let sock = OwnedFd::from(ours);
        let err = handshake::client(sock.as_fd(), &hello(DataPlane::Stream), None).unwrap_err();
        assert!(
            matches!(&err, handshake::HandshakeError::Refused(r) if r.contains("fingerprint mismatch")),
            "{err}"
        );
        let (kind, reason) = fake_server.join().unwrap();
        assert_eq!(kind, FrameKind::Refuse, "the client tells the server why");
        assert!(reason.contains("fingerprint mismatch"));
    }
}

//! `shm` and `fork`: batches through a shared-memory command ring to a server process on the
//! same machine; replies and events back through the event ring.
//!
//! Submitting a batch copies the archive and stage bytes into the command ring (one copy:
//! the encoder's buffers are reused), Release-stores `cmd_head` and rings the server's
//! eventfd only if the server is parked. A steady-state frame therefore makes no system call
//! beyond the one `poll` that looks for a dead server, and never waits: only a full ring
//! (back-pressure), a reply (`wait_reply`) and a probe block, each counted in
//! `blocking_waits`. While it waits the client drains the event ring, so a server blocked on
//! a full event ring always makes progress.
//!
//! Segment layout, the control page and its watermarks are documented in `segment.rs`; the
//! ring format in `byte_ring.rs`; the doorbell in `doorbell.rs`.

use std::os::fd::{AsFd, OwnedFd};

use rkyv::util::AlignedVec;

use super::byte_ring::{Reader, WriteError, Writer};
use super::client::{Control, Inbox, ServerHandle};
use super::doorbell::{self, EventSleeper, EventWaker};
use super::frame::{self, FrameKind, MAX_HANDSHAKE_FRAME, MAX_MESSAGE};
use super::handshake::{ProbeSnapshot, Welcome};
use super::heap::{HeapBlock, SharedHeap};
use super::segment::{self, SharedCommand};
use super::sync::Ordering;
use super::{SessionLost, Transport, TransportKind, TransportStats, sys};
use crate::backend::{Event, Reply};
use crate::batch::{Archiver, Encoder, STAGE_ALIGN};
use crate::record::ReplyId;

/// What both closures of a ring write share: the command segment and the server's bell.
struct Link {
    cmd: SharedCommand,
    server_bell: OwnedFd,
}

impl Link {
    /// Rings the server if it may be parked (after a cursor store it may wait on).
    fn notify_server(&self) {
        doorbell::notify(
            &self.cmd.page().server_parked.0,
            &EventWaker(self.server_bell.as_fd()),
        );
    }
}

/// The receiving side of the client: control socket, own bell, event ring, inbox.
struct Back {
    control: Control,
    bell: OwnedFd,
    events: Reader,
    msg: AlignedVec<16>,
    inbox: Inbox,
}

impl Back {
    /// Moves every whole message of the event ring into the inbox.
    fn drain(&mut self, link: &Link) {
        loop {
            match self
                .events
                .poll(&mut self.msg, MAX_MESSAGE, &|| link.notify_server())
            {
                Ok(true) => self.inbox.notice(&self.msg),
                Ok(false) => return,
                Err(e) => return self.inbox.lose(format!("event ring: {e}")),
            }
        }
    }

    /// Parks until `ready()`, the event ring has data, or the control socket needs attention
    /// (which is then handled). Returns after one wake-up; callers loop.
    fn park(&mut self, link: &Link, ready: &dyn Fn() -> bool) {
        let sleeper = EventSleeper {
            bell: self.bell.as_fd(),
            socket: self.control.sock.as_fd(),
        };
        let events = &self.events;
        let woke = doorbell::wait(&link.cmd.page().client_parked.0, &sleeper, || {
            ready() || events.has_data()
        });
        if woke.is_err() {
            self.control.pump(&mut self.inbox, false);
        }
        self.drain(link);
    }
}

/// The client's end of an `shm` session.
pub struct ShmTransport {
    kind: TransportKind,
    link: Link,
    back: Back,
    writer: Writer,
    archiver: Archiver,
    archive: AlignedVec<STAGE_ALIGN>,
    stage: Vec<u8>,
    submitted: u64,
    stats: TransportStats,
    server: Option<ServerHandle>,
    /// The session's mapping heap (`heap.rs`), passed to the server with the command
    /// segment.
    heap: SharedHeap,
}

impl ShmTransport {
    /// Sets up the shared segments after a Welcome that chose `shm`: sends ours, receives the
    /// server's, maps them.
    pub(crate) fn establish(
        kind: TransportKind,
        sock: OwnedFd,
        welcome: &Welcome,
        server: Option<ServerHandle>,
    ) -> Result<Self, String> {
        let (cmd_fd, cmd) = segment::create_command(welcome.cmd_bytes, welcome.event_bytes)
            .map_err(|e| e.to_string())?;
        let bell = sys::eventfd().map_err(|e| e.to_string())?;
        let heap = SharedHeap::create().map_err(|e| e.to_string())?;
        frame::send(
            sock.as_fd(),
            FrameKind::Segments,
            &[],
            &[cmd_fd.as_fd(), bell.as_fd(), heap.fd().as_fd()],
        )
        .map_err(|e| e.to_string())?;
        drop(cmd_fd);
        let mut payload = AlignedVec::new();
        let mut fds = Vec::new();
        let kind_got = frame::recv(sock.as_fd(), MAX_HANDSHAKE_FRAME, &mut payload, &mut fds)
            .map_err(|e| e.to_string())?;
        if kind_got == FrameKind::Ended || kind_got == FrameKind::Refuse {
            return Err(String::from_utf8_lossy(&payload).into_owned());
        }
        if kind_got != FrameKind::Segments || fds.len() != 2 {
            return Err(format!(
                "expected the server's segments, got {kind_got:?} with {} descriptors",
                fds.len()
            ));
        }
        let server_bell = fds.pop().ok_or("no doorbell")?;
        let event_fd = fds.pop().ok_or("no event segment")?;
        let event = segment::map_event(&event_fd, welcome.event_bytes)?;
        let writer = Writer::new(segment::command_ring(&cmd));
        let events = Reader::new(segment::event_ring(&cmd, &event));
        Ok(Self {
            kind,
            link: Link { cmd, server_bell },
            back: Back {
                control: Control::new(sock),
                bell,
                events,
                msg: AlignedVec::new(),
                inbox: Inbox::default(),
            },
            writer,
            archiver: Archiver::default(),
            archive: AlignedVec::with_capacity(64 << 10),
            stage: Vec::new(),
            submitted: 0,
            stats: TransportStats::default(),
            server,
            heap,
        })
    }

    /// Looks for news without blocking: a dead server, an `Ended` reason, events.
    fn check(&mut self) {
        if sys::readable_now(self.back.control.sock.as_fd()) {
            self.back.control.pump(&mut self.back.inbox, false);
        }
        if self.back.events.has_data() {
            self.back.drain(&self.link);
        }
    }
}

impl Transport for ShmTransport {
    fn kind(&self) -> TransportKind {
        self.kind.clone()
    }

    fn submit(&mut self, encoder: &mut Encoder) -> Result<(), SessionLost> {
        let records = encoder.finish(&mut self.archiver, &mut self.archive, &mut self.stage);
        self.check();
        if self.back.inbox.lost.is_some() {
            return Err(self.back.inbox.lost_error());
        }
        let len = frame::batch_len(self.archive.len(), self.stage.len());
        if len > MAX_MESSAGE {
            self.back.inbox.lose(format!(
                "a batch of {len} bytes exceeds the {MAX_MESSAGE}-byte message cap"
            ));
            return Err(self.back.inbox.lost_error());
        }
        let header = frame::batch_header(self.archive.len(), self.stage.len());
        let parts = frame::batch_parts(&header, &self.archive, &self.stage);
        let (link, back) = (&self.link, &mut self.back);
        let mut wait = |ready: &dyn Fn() -> bool| -> Result<(), SessionLost> {
            loop {
                if ready() {
                    return Ok(());
                }
                if back.inbox.lost.is_some() {
                    return Err(back.inbox.lost_error());
                }
                back.park(link, ready);
            }
        };
        match self
            .writer
            .write(&parts, &mut wait, &|| link.notify_server())
        {
            Ok(waited) => self.stats.blocking_waits += u64::from(waited),
            Err(WriteError::Wait(lost)) => return Err(lost),
            Err(WriteError::Ring(e)) => {
                self.back.inbox.lose(format!("command ring: {e}"));
                return Err(self.back.inbox.lost_error());
            }
        }
        self.submitted += 1;
        // Relaxed: a diagnostic nobody waits on (see `segment.rs`).
        self.link
            .cmd
            .page()
            .client
            .0
            .submitted
            .store(self.submitted, Ordering::Relaxed);
        self.stats.batches += 1;
        self.stats.records += records as u64;
        self.stats.record_bytes += self.archive.len() as u64;
        self.stats.stage_bytes += self.stage.len() as u64;
        self.stats.wire_bytes += len;
        Ok(())
    }

    fn wait_reply(&mut self, id: ReplyId) -> Result<Reply, SessionLost> {
        self.stats.blocking_waits += 1;
        loop {
            self.back.drain(&self.link);
            if self.back.inbox.awaits_descriptor(id) {
                // Sent on the control socket before the reply went into the event ring: it
                // is there to read now.
                self.back.control.pump(&mut self.back.inbox, false);
            }
            if let Some(reply) = self.back.inbox.take_reply(id) {
                return Ok(reply);
            }
            if self.back.inbox.lost.is_some() {
                return Err(self.back.inbox.lost_error());
            }
            self.back.park(&self.link, &|| false);
        }
    }

    fn take_events(&mut self, out: &mut Vec<Event>) {
        self.check();
        out.append(&mut self.back.inbox.events);
    }

    fn fence_mark(&self) -> std::sync::Arc<crate::fence::FenceMark> {
        self.back.inbox.mark.clone()
    }

    fn heap_alloc(&mut self, len: usize, offset: u64) -> Option<HeapBlock> {
        // Acquire: the server's reads of the blocks it detached happened before it stored
        // `applied`; pairs with the Release store in `session::serve_shm`.
        let applied = self
            .link
            .cmd
            .page()
            .server
            .0
            .applied
            .load(Ordering::Acquire);
        self.heap.alloc(len, offset, applied)
    }

    fn heap_free(&mut self, block: HeapBlock) {
        // The caller submitted the batch carrying the block's detach: it is at most the
        // latest one.
        self.heap.free(block, self.submitted);
    }

    fn stats(&self) -> TransportStats {
        self.stats
    }

    fn probe(&mut self) -> Result<Option<ProbeSnapshot>, SessionLost> {
        if self.back.inbox.lost.is_some() {
            return Err(self.back.inbox.lost_error());
        }
        self.stats.blocking_waits += 1;
        if let Err(e) = frame::send(self.back.control.sock.as_fd(), FrameKind::Probe, &[], &[]) {
            self.back.inbox.lose(format!("control socket: {e}"));
        }
        loop {
            if let Some(p) = self.back.inbox.probe.take() {
                return Ok(Some(p));
            }
            if self.back.inbox.lost.is_some() {
                return Err(self.back.inbox.lost_error());
            }
            self.back.control.pump_blocking(&mut self.back.inbox, false);
        }
    }
}

impl Drop for ShmTransport {
    fn drop(&mut self) {
        // The server sees the hang-up, ends the session and frees its objects.
        sys::shutdown(self.back.control.sock.as_fd());
        if let Some(server) = self.server.take() {
            server.finish();
        }
    }
}

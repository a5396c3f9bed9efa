//! What both process transports do on the client: keep replies and events that arrived,
//! latch the loss of the session, and read the control socket without blocking.
//!
//! The client never runs a thread of its own for a session: it reads the socket when it has
//! to wait anyway, and at each submit only if `poll` says something arrived (one cheap system
//! call per batch). So the steady state costs no context switch, and a peer that died is seen
//! by the next submit: the kernel closes a dead process's sockets, which reads as end of
//! stream.

use std::collections::VecDeque;
use std::os::fd::{AsFd, OwnedFd};

use super::SessionLost;
use super::frame::{FrameKind, Inflow, MAX_MESSAGE};
use super::handshake::{self, Notice, ProbeSnapshot};
use crate::backend::{Event, Reply};
use crate::record::ReplyId;

/// Replies, events and the session's fate, as they arrived.
#[derive(Default)]
pub(crate) struct Inbox {
    /// Replies not yet taken, in arrival order.
    pub replies: VecDeque<(ReplyId, Reply)>,
    /// Events not yet taken.
    pub events: Vec<Event>,
    /// The server's probe, when one was asked for and arrived.
    pub probe: Option<ProbeSnapshot>,
    /// Set once the session is over.
    pub lost: Option<SessionLost>,
    /// The fence watermark, moved by the server's `FencesCompleted` events.
    pub mark: std::sync::Arc<crate::fence::FenceMark>,
}

impl Inbox {
    /// Latches the loss of the session (the first reason wins) and reports it as an event.
    pub(crate) fn lose(&mut self, reason: impl Into<String>) {
        if self.lost.is_none() {
            let reason = reason.into();
            log::error!("tessera: session lost: {reason}");
            self.events.push(Event::SessionEnded {
                reason: reason.clone(),
            });
            self.lost = Some(SessionLost { reason });
            self.mark.close();
        }
    }

    /// Takes in an archived [`Notice`] (validated: the server is another process).
    pub(crate) fn notice(&mut self, bytes: &[u8]) {
        match handshake::decode::<Notice>(bytes) {
            Ok(Notice::Reply { id, reply }) => self.replies.push_back((id, reply)),
            Ok(Notice::Event(Event::FencesCompleted { seq })) => self.mark.publish(seq),
            Ok(Notice::Event(event)) => self.events.push(event),
            Err(e) => self.lose(format!("malformed notice from the server: {e}")),
        }
    }

    /// Takes reply `id` if it arrived (see `super::reply`).
    pub(crate) fn take_reply(&mut self, id: ReplyId) -> Option<Reply> {
        super::reply::take(&mut self.replies, id)
    }

    /// The error every call returns once the session is lost.
    pub(crate) fn lost_error(&self) -> SessionLost {
        self.lost.clone().unwrap_or_else(|| SessionLost {
            reason: "the session ended".to_owned(),
        })
    }
}

/// The control socket and what has been read from it but not yet parsed.
pub(crate) struct Control {
    /// The socket.
    pub sock: OwnedFd,
    /// Bytes read, awaiting whole frames.
    pub inflow: Inflow,
    /// Progress the server reported (`stream`): batches and bytes applied.
    pub applied: (u64, u64),
}

impl Control {
    /// Wraps a connected socket.
    pub(crate) fn new(sock: OwnedFd) -> Self {
        Self {
            sock,
            inflow: Inflow::default(),
            applied: (0, 0),
        }
    }

    /// Reads what the socket has now and handles every whole frame. `stream` accepts the
    /// frames of the stream data plane (notices, progress) too.
    pub(crate) fn pump(&mut self, inbox: &mut Inbox, stream: bool) {
        if inbox.lost.is_some() {
            return;
        }
        match self.inflow.fill_now(self.sock.as_fd()) {
            Ok(true) => {}
            Ok(false) => {
                // Frames that arrived before the end are still handled (an `Ended` reason).
                self.handle(inbox, stream);
                inbox.lose("the server hung up");
                return;
            }
            Err(e) => {
                inbox.lose(format!("control socket: {e}"));
                return;
            }
        }
        self.handle(inbox, stream);
    }

    fn handle(&mut self, inbox: &mut Inbox, stream: bool) {
        loop {
            let (kind, payload) = match self.inflow.next(MAX_MESSAGE + 64) {
                Ok(Some(frame)) => frame,
                Ok(None) => return,
                Err(e) => return inbox.lose(format!("from the server: {e}")),
            };
            match kind {
                FrameKind::Ended => {
                    inbox.lose(format!(
                        "the server ended the session: {}",
                        String::from_utf8_lossy(&payload)
                    ));
                }
                FrameKind::ProbeReply => match handshake::decode::<ProbeSnapshot>(&payload) {
                    Ok(p) => inbox.probe = Some(p),
                    Err(e) => inbox.lose(format!("malformed probe from the server: {e}")),
                },
                FrameKind::Notice if stream => inbox.notice(&payload),
                FrameKind::CompressedNotice if stream => {
                    match super::frame::decompress_notice(&payload, MAX_MESSAGE) {
                        Ok(notice) => inbox.notice(&notice),
                        Err(e) => inbox.lose(format!("from the server: {e}")),
                    }
                }
                FrameKind::Progress if stream && payload.len() == 16 => {
                    let word = |i: usize| {
                        u64::from_le_bytes(payload[i..i + 8].try_into().unwrap_or_default())
                    };
                    let next = (word(0), word(8));
                    if next.0 < self.applied.0 || next.1 < self.applied.1 {
                        inbox.lose("the server's progress went backwards");
                    }
                    self.applied = next;
                }
                other => inbox.lose(format!("unexpected {other:?} frame from the server")),
            }
            if inbox.lost.is_some() {
                return;
            }
        }
    }

    /// Blocks until the socket has something, then handles it.
    pub(crate) fn pump_blocking(&mut self, inbox: &mut Inbox, stream: bool) {
        if let Err(e) = super::sys::wait_readable(self.sock.as_fd()) {
            return inbox.lose(format!("control socket: {e}"));
        }
        self.pump(inbox, stream);
    }
}

/// The server behind a client transport, when the client started it.
pub(crate) enum ServerHandle {
    /// A private server process (`fork`), reaped when the session ends.
    Process(std::process::Child),
    /// A session served on a thread of this process (the process data planes with an
    /// in-process backend), joined when the session ends.
    Thread(std::thread::JoinHandle<()>),
}

impl ServerHandle {
    /// Waits for the server to finish once the client closed its socket. A private server
    /// exits as soon as its only session ends; a process is reaped on a thread of its own so
    /// that a wedged server cannot hang the client.
    pub(crate) fn finish(self) {
        match self {
            ServerHandle::Process(mut child) => {
                let _ = std::thread::Builder::new()
                    .name("tessera-reap".to_owned())
                    .spawn(move || child.wait());
            }
            ServerHandle::Thread(thread) => {
                let _ = thread.join();
            }
        }
    }
}

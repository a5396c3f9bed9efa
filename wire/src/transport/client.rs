//! What both process transports do on the client: keep replies and events that arrived,
//! latch the loss of the session, and read the control socket without blocking.
//!
//! The client never runs a thread of its own for a session: it reads the socket when it has
//! to wait anyway, and at each submit only if `poll` says something arrived (one cheap system
//! call per batch). So the steady state costs no context switch, and a peer that died is seen
//! by the next submit: the kernel closes a dead process's sockets, which reads as end of
//! stream.
//!
//! ## Descriptors from the server
//! An exported image's reply (`Reply::Exported`) names a descriptor of the server's process.
//! The server sends the descriptor itself first, in a `Descriptor` frame on the control
//! socket (`SCM_RIGHTS`) naming the reply, and closes its copy; the reply's notice follows
//! (on the same socket for `unix:`, on the event ring for `shm` and `fork`). The client
//! keeps received descriptors by reply, and puts the descriptor's number in this process
//! into the reply when its caller takes it, so the engine sees the same reply as in
//! process. A reply without its descriptor, a `Descriptor` frame without exactly one, or a
//! descriptor no frame claims ends the session; every descriptor received is owned until
//! the reply's caller takes it, and closed if it never does.

use std::collections::VecDeque;
use std::os::fd::{AsFd, IntoRawFd, OwnedFd};

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
    /// Descriptors the server sent for replies (`Descriptor` frames), by reply, until the
    /// reply's caller takes them; at most [`super::reply::KEPT`] + 1, oldest dropped first.
    pub fds: VecDeque<(ReplyId, OwnedFd)>,
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

    /// Takes reply `id` if it arrived (see `super::reply`), with its descriptor: an exported
    /// image's reply gets the number of the descriptor the server sent for it. One whose
    /// descriptor did not come ends the session (and is not returned).
    pub(crate) fn take_reply(&mut self, id: ReplyId) -> Option<Reply> {
        let mut reply = super::reply::take(&mut self.replies, id)?;
        if let Reply::Exported(m) = &mut reply {
            match self.fds.iter().position(|(got, _)| *got == id) {
                Some(at) => {
                    let fd = self.fds.remove(at).map(|(_, fd)| fd)?;
                    m.fd = fd.into_raw_fd();
                }
                None => {
                    self.lose("the server's export reply came without its descriptor");
                    return None;
                }
            }
        }
        Some(reply)
    }

    /// Whether reply `id` arrived as an export whose descriptor was not received yet (on
    /// `shm` it is on the control socket, read next).
    pub(crate) fn awaits_descriptor(&self, id: ReplyId) -> bool {
        self.replies
            .iter()
            .any(|(got, r)| *got == id && matches!(r, Reply::Exported(_)))
            && !self.fds.iter().any(|(got, _)| *got == id)
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
                Ok(None) => {
                    // A descriptor arrives with its frame's first byte: once every byte
                    // received is in frames that were handled, none may be left over.
                    if self.inflow.is_drained() && !self.inflow.fds.is_empty() {
                        self.inflow.fds.clear();
                        inbox.lose("descriptors from the server that no frame claims");
                    }
                    return;
                }
                Err(e) => return inbox.lose(format!("from the server: {e}")),
            };
            match kind {
                FrameKind::Ended => {
                    inbox.lose(format!(
                        "the server ended the session: {}",
                        String::from_utf8_lossy(&payload)
                    ));
                }
                FrameKind::Descriptor => {
                    let id = payload
                        .first_chunk::<4>()
                        .map(|b| ReplyId(u32::from_le_bytes(*b)));
                    match (id, self.inflow.fds.pop_front()) {
                        (Some(id), Some(fd)) if payload.len() == 4 => {
                            inbox.fds.push_back((id, fd));
                            if inbox.fds.len() > super::reply::KEPT + 1 {
                                inbox.fds.pop_front();
                            }
                        }
                        _ => inbox.lose("a malformed descriptor frame from the server"),
                    }
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

#[cfg(all(test, not(loom)))]
mod tests {
    use std::io::Read;
    use std::os::fd::{AsFd, OwnedFd};
    use std::os::unix::net::UnixStream;

    use rkyv::util::AlignedVec;

    use super::*;
    use crate::backend::{ExportedImageInfo, ExportedMemory};
    use crate::transport::frame;

    /// A descriptor to send, and a way to see whether every copy of it was closed: the send
    /// end of a socket pair, whose other end reads end of stream only then.
    fn probe() -> (OwnedFd, UnixStream) {
        let (sent, kept) = UnixStream::pair().unwrap();
        kept.set_nonblocking(true).unwrap();
        (OwnedFd::from(sent), kept)
    }

    /// Whether every copy of the probe's descriptor, in this process, is closed.
    fn closed(kept: &mut UnixStream) -> bool {
        matches!(kept.read(&mut [0u8; 1]), Ok(0))
    }

    /// An export's reply as the server sends it, without a descriptor number.
    fn exported(id: u32) -> AlignedVec {
        let info = ExportedImageInfo {
            handle_type: 1,
            drm_fourcc: 0,
            drm_modifier: 0,
            vk_format: 37,
            extent: [4, 2],
            tiling: 1,
            usage: 0,
            layout: 1,
            allocation_size: 64,
            memory_type_bits: 1,
            offset: 0,
            row_pitch: 16,
            driver_uuid: [0; 16],
            device_uuid: [0; 16],
        };
        handshake::archive(&Notice::Reply {
            id: ReplyId(id),
            reply: Reply::Exported(ExportedMemory { fd: -1, info }),
        })
    }

    /// A client's control end and the server's socket.
    fn pair() -> (Control, Inbox, UnixStream) {
        let (client, server) = UnixStream::pair().unwrap();
        (
            Control::new(OwnedFd::from(client)),
            Inbox::default(),
            server,
        )
    }

    fn descriptor(server: &UnixStream, id: u32, fds: &[std::os::fd::BorrowedFd<'_>]) {
        let id = id.to_le_bytes();
        frame::send(server.as_fd(), FrameKind::Descriptor, &[&id], fds).unwrap();
    }

    #[test]
    fn an_exports_descriptor_reaches_its_reply_and_closes_with_it() {
        let (mut control, mut inbox, server) = pair();
        let (fd, mut kept) = probe();
        descriptor(&server, 7, &[fd.as_fd()]);
        drop(fd);
        frame::send(server.as_fd(), FrameKind::Notice, &[&exported(7)], &[]).unwrap();
        control.pump(&mut inbox, true);
        assert!(inbox.lost.is_none(), "{:?}", inbox.lost);
        assert!(!inbox.awaits_descriptor(ReplyId(7)));
        let Some(Reply::Exported(m)) = inbox.take_reply(ReplyId(7)) else {
            panic!("no export reply");
        };
        assert!(m.fd >= 0);
        let fd = m.take_fd();
        assert!(!closed(&mut kept), "the received descriptor is open");
        drop(fd);
        assert!(closed(&mut kept), "and closed with the reply's");
        assert!(inbox.fds.is_empty());
    }

    #[test]
    fn an_export_reply_without_its_descriptor_ends_the_session() {
        let (mut control, mut inbox, server) = pair();
        frame::send(server.as_fd(), FrameKind::Notice, &[&exported(3)], &[]).unwrap();
        control.pump(&mut inbox, true);
        assert!(inbox.awaits_descriptor(ReplyId(3)));
        assert!(inbox.take_reply(ReplyId(3)).is_none());
        let lost = inbox.lost.as_ref().expect("the session is lost");
        assert!(lost.reason.contains("without its descriptor"), "{lost:?}");
    }

    #[test]
    fn a_descriptor_frame_without_one_ends_the_session() {
        let (mut control, mut inbox, server) = pair();
        descriptor(&server, 1, &[]);
        control.pump(&mut inbox, false);
        let lost = inbox.lost.as_ref().expect("the session is lost");
        assert!(
            lost.reason.contains("malformed descriptor frame"),
            "{lost:?}"
        );
    }

    #[test]
    fn an_extra_descriptor_ends_the_session_and_every_one_is_closed() {
        let (mut control, mut inbox, server) = pair();
        let (a, mut kept_a) = probe();
        let (b, mut kept_b) = probe();
        descriptor(&server, 1, &[a.as_fd(), b.as_fd()]);
        // A frame that claims none, with one.
        let (c, mut kept_c) = probe();
        frame::send(
            server.as_fd(),
            FrameKind::Progress,
            &[&[0u8; 16]],
            &[c.as_fd()],
        )
        .unwrap();
        drop((a, b, c));
        control.pump(&mut inbox, true);
        let lost = inbox.lost.as_ref().expect("the session is lost");
        assert!(lost.reason.contains("no frame claims"), "{lost:?}");
        drop((control, inbox));
        assert!(closed(&mut kept_a) && closed(&mut kept_b) && closed(&mut kept_c));
    }
}

//! `unix:PATH` and `tcp://HOST:PORT`: batches as frames on a socket.
//!
//! Each batch is one `Batch` frame whose payload is the batch message (`frame.rs`), written
//! with one gathering `sendmsg` straight from the encoder's buffers. The server answers with
//! `Notice` frames (replies, events) and a `Progress` frame per batch (batches and bytes
//! applied): watermarks become messages. Run-ahead is bounded by the send window negotiated
//! in the handshake: when the bytes sent but not yet applied would exceed it, the client
//! waits for progress (counted in `blocking_waits`, like a socket too full to take the
//! frame). Sends never block with unread input pending: while a send cannot proceed the
//! client reads what arrived, so neither side can wedge the other with full buffers.

use std::os::fd::{AsFd, OwnedFd};

use rkyv::util::AlignedVec;

use super::client::{Control, Inbox, ServerHandle};
use super::frame::{self, FrameKind, MAX_MESSAGE};
use super::handshake::{ProbeSnapshot, Welcome};
use super::{SessionLost, Transport, TransportKind, TransportStats, sys};
use crate::backend::{Event, Reply};
use crate::batch::{Archiver, Encoder, STAGE_ALIGN};
use crate::record::ReplyId;

/// The client's end of a stream session.
pub struct StreamTransport {
    kind: TransportKind,
    control: Control,
    inbox: Inbox,
    archiver: Archiver,
    archive: AlignedVec<STAGE_ALIGN>,
    stage: Vec<u8>,
    /// Batch message bytes sent.
    sent_bytes: u64,
    /// Bytes that may be in flight.
    window: u64,
    stats: TransportStats,
    server: Option<ServerHandle>,
}

impl StreamTransport {
    /// A session on `sock` after a Welcome that chose `stream`.
    pub(crate) fn establish(
        kind: TransportKind,
        sock: OwnedFd,
        welcome: &Welcome,
        server: Option<ServerHandle>,
    ) -> Self {
        Self {
            kind,
            control: Control::new(sock),
            inbox: Inbox::default(),
            archiver: Archiver::default(),
            archive: AlignedVec::with_capacity(64 << 10),
            stage: Vec::new(),
            sent_bytes: 0,
            window: welcome.window_bytes,
            stats: TransportStats::default(),
            server,
        }
    }

    fn in_flight(&self) -> u64 {
        self.sent_bytes.saturating_sub(self.control.applied.1)
    }

    /// Sends one frame, reading whatever arrives while the socket is too full to take it.
    /// Returns whether it had to wait.
    fn send_frame(&mut self, kind: FrameKind, parts: &[&[u8]]) -> bool {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let header = frame::header(kind, len);
        let mut all: Vec<&[u8]> = Vec::with_capacity(parts.len() + 1);
        all.push(&header);
        all.extend_from_slice(parts);
        let total = len + header.len();
        let mut sent = 0;
        let mut waited = false;
        while sent < total {
            match sys::send_some(self.control.sock.as_fd(), &all, sent, &[], true) {
                Ok(0) => {
                    waited = true;
                    match sys::poll_read_write(self.control.sock.as_fd()) {
                        Ok((readable, _)) if readable => self.control.pump(&mut self.inbox, true),
                        Ok(_) => {}
                        Err(e) => self.inbox.lose(format!("socket: {e}")),
                    }
                }
                Ok(n) => sent += n,
                Err(e) => self.inbox.lose(format!("the server is gone: {e}")),
            }
            if self.inbox.lost.is_some() {
                break;
            }
        }
        waited
    }
}

impl Transport for StreamTransport {
    fn kind(&self) -> TransportKind {
        self.kind.clone()
    }

    fn submit(&mut self, encoder: &mut Encoder) -> Result<(), SessionLost> {
        let records = encoder.finish(&mut self.archiver, &mut self.archive, &mut self.stage);
        if sys::readable_now(self.control.sock.as_fd()) {
            self.control.pump(&mut self.inbox, true);
        }
        if self.inbox.lost.is_some() {
            return Err(self.inbox.lost_error());
        }
        let len = frame::batch_len(self.archive.len(), self.stage.len());
        if len > MAX_MESSAGE {
            self.inbox.lose(format!(
                "a batch of {len} bytes exceeds the {MAX_MESSAGE}-byte message cap"
            ));
            return Err(self.inbox.lost_error());
        }
        let mut waited = false;
        while self.in_flight() > 0
            && self.in_flight() + len > self.window
            && self.inbox.lost.is_none()
        {
            waited = true;
            self.control.pump_blocking(&mut self.inbox, true);
        }
        let header = frame::batch_header(self.archive.len(), self.stage.len());
        let archive = std::mem::take(&mut self.archive);
        let stage = std::mem::take(&mut self.stage);
        waited |= self.send_frame(
            FrameKind::Batch,
            &frame::batch_parts(&header, &archive, &stage),
        );
        self.stats.blocking_waits += u64::from(waited);
        self.stats.batches += 1;
        self.stats.records += records as u64;
        self.stats.record_bytes += archive.len() as u64;
        self.stats.stage_bytes += stage.len() as u64;
        self.stats.wire_bytes += len + frame::FRAME_HEADER as u64;
        self.sent_bytes += len;
        self.archive = archive;
        self.stage = stage;
        match &self.inbox.lost {
            Some(_) => Err(self.inbox.lost_error()),
            None => Ok(()),
        }
    }

    fn wait_reply(&mut self, id: ReplyId) -> Result<Reply, SessionLost> {
        self.stats.blocking_waits += 1;
        loop {
            if let Some(reply) = self.inbox.take_reply(id) {
                return Ok(reply);
            }
            if self.inbox.lost.is_some() {
                return Err(self.inbox.lost_error());
            }
            self.control.pump_blocking(&mut self.inbox, true);
        }
    }

    fn take_events(&mut self, out: &mut Vec<Event>) {
        if self.inbox.lost.is_none() && sys::readable_now(self.control.sock.as_fd()) {
            self.control.pump(&mut self.inbox, true);
        }
        out.append(&mut self.inbox.events);
    }

    fn fence_mark(&self) -> std::sync::Arc<crate::fence::FenceMark> {
        self.inbox.mark.clone()
    }

    fn stats(&self) -> TransportStats {
        self.stats
    }

    fn probe(&mut self) -> Result<Option<ProbeSnapshot>, SessionLost> {
        if self.inbox.lost.is_some() {
            return Err(self.inbox.lost_error());
        }
        self.stats.blocking_waits += 1;
        self.send_frame(FrameKind::Probe, &[]);
        loop {
            if let Some(p) = self.inbox.probe.take() {
                return Ok(Some(p));
            }
            if self.inbox.lost.is_some() {
                return Err(self.inbox.lost_error());
            }
            self.control.pump_blocking(&mut self.inbox, true);
        }
    }
}

impl Drop for StreamTransport {
    fn drop(&mut self) {
        sys::shutdown(self.control.sock.as_fd());
        if let Some(server) = self.server.take() {
            server.finish();
        }
    }
}

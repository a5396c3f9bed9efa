//! `inproc`: the backend runs in the caller's thread, at each flush.
//!
//! Fence watermark reports arrive with each applied batch; between batches a client that
//! looks at a fence lets the backend look too ([`Transport::poll_fences`]), in its thread.

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;

use rkyv::util::AlignedVec;

use super::{SessionLost, Transport, TransportKind, TransportStats, apply_own_archived};
use crate::backend::{Backend, Event, NativeTarget, Outbox, Reply, SessionError};
use crate::batch::{Archiver, Encoder, STAGE_ALIGN};
use crate::fence::FenceMark;
use crate::handle::SurfaceHandle;
use crate::record::ReplyId;

/// A backend applied synchronously at each submit.
pub struct Inproc {
    backend: Box<dyn Backend>,
    archiver: Archiver,
    archive: AlignedVec<STAGE_ALIGN>,
    stage: Vec<u8>,
    outbox: Outbox,
    replies: VecDeque<(ReplyId, Reply)>,
    events: Vec<Event>,
    lost: Option<SessionLost>,
    stats: TransportStats,
    /// Surfaces the backend presents into a window itself.
    attached: HashSet<SurfaceHandle>,
    mark: Arc<FenceMark>,
}

impl Inproc {
    /// Puts `backend` behind an in-process transport.
    pub fn new(backend: Box<dyn Backend>) -> Self {
        Self {
            backend,
            archiver: Archiver::default(),
            archive: AlignedVec::with_capacity(64 << 10),
            stage: Vec::new(),
            outbox: Outbox::default(),
            replies: VecDeque::new(),
            events: Vec::new(),
            lost: None,
            stats: TransportStats::default(),
            attached: HashSet::new(),
            mark: Arc::new(FenceMark::new()),
        }
    }

    /// Takes what the backend produced, and latches the end of the session on an error.
    fn take_outbox(&mut self, result: Result<(), SessionError>) -> Result<(), SessionLost> {
        self.replies.extend(self.outbox.replies.drain(..));
        let start = self.events.len();
        self.events.append(&mut self.outbox.events);
        self.mark.absorb(&mut self.events, start);
        for surface in self.outbox.detached.drain(..) {
            self.attached.remove(&surface);
        }
        if let Err(e) = result {
            let reason = e.to_string();
            log::error!("tessera: session ended: {reason}");
            self.events.push(Event::SessionEnded {
                reason: reason.clone(),
            });
            let lost = SessionLost { reason };
            self.lost = Some(lost.clone());
            self.mark.close();
            return Err(lost);
        }
        Ok(())
    }
}

impl Transport for Inproc {
    fn kind(&self) -> TransportKind {
        TransportKind::Inproc
    }

    fn submit(&mut self, encoder: &mut Encoder) -> Result<(), SessionLost> {
        if let Some(lost) = &self.lost {
            encoder.finish(&mut self.archiver, &mut self.archive, &mut self.stage);
            return Err(lost.clone());
        }
        let records = encoder.finish(&mut self.archiver, &mut self.archive, &mut self.stage);
        self.stats.batches += 1;
        self.stats.records += records as u64;
        self.stats.record_bytes += self.archive.len() as u64;
        self.stats.stage_bytes += self.stage.len() as u64;
        // SAFETY: `finish` just archived the batch into `archive`, an aligned buffer that
        // only it writes.
        let result = unsafe {
            apply_own_archived(
                self.backend.as_mut(),
                &self.archive,
                &self.stage,
                &mut self.outbox,
            )
        };
        self.take_outbox(result)
    }

    fn fence_mark(&self) -> Arc<FenceMark> {
        self.mark.clone()
    }

    fn poll_fences(&mut self, timeout_ns: u64) -> bool {
        if self.lost.is_none() {
            let result = self.backend.poll_fences(timeout_ns, &mut self.outbox);
            let _ = self.take_outbox(result.map(|_| ()));
        }
        true
    }

    fn wait_reply(&mut self, id: ReplyId) -> Result<Reply, SessionLost> {
        self.stats.blocking_waits += 1;
        if let Some(reply) = super::reply::take(&mut self.replies, id) {
            return Ok(reply);
        }
        Err(self.lost.clone().unwrap_or_else(|| SessionLost {
            reason: format!("the backend never answered request {}", id.0),
        }))
    }

    fn take_events(&mut self, out: &mut Vec<Event>) {
        out.append(&mut self.events);
    }

    fn release_thread(&mut self) {
        self.backend.release_thread();
    }

    fn stats(&self) -> TransportStats {
        self.stats
    }

    fn attach_window(
        &mut self,
        surface: SurfaceHandle,
        window: Option<NativeTarget>,
        interval: i32,
    ) -> bool {
        let attached = self.lost.is_none() && self.backend.attach_window(surface, window, interval);
        if attached {
            self.attached.insert(surface);
        } else {
            self.attached.remove(&surface);
        }
        attached
    }

    fn window_attached(&mut self, surface: SurfaceHandle) -> bool {
        self.attached.contains(&surface)
    }
}

//! `inproc`: the backend runs in the caller's thread, at each flush.

use std::collections::{HashSet, VecDeque};

use rkyv::util::AlignedVec;

use super::{SessionLost, Transport, TransportKind, TransportStats, apply_archived};
use crate::backend::{Backend, Event, NativeTarget, Outbox, Reply};
use crate::batch::{Archiver, Encoder, STAGE_ALIGN};
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
        }
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
        let result = apply_archived(
            self.backend.as_mut(),
            &self.archive,
            &self.stage,
            &mut self.outbox,
        );
        self.replies.extend(self.outbox.replies.drain(..));
        self.events.append(&mut self.outbox.events);
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
            return Err(lost);
        }
        Ok(())
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

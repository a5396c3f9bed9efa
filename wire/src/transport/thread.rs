//! `thread`: the backend runs on a render thread fed through the SPSC ring.
//!
//! Replies and events come back through a mutex-protected queue with a condition variable:
//! they are rare (read-backs, query results, finish), and only a reply wait blocks the client.
//!
//! The fence watermark (`crate::fence`) is published by the render thread itself, after
//! each batch and, while fences are pending and the ring is empty, after each look at them
//! (a native wait of at most a millisecond, then the ring is checked again), so a client
//! waiting on a fence sleeps on the watermark and never needs a reply.
//!
//! A window attached to a surface ([`Transport::attach_window`]) takes a slot of its own in
//! the ring, between the batches submitted before and after the call, so the render thread
//! hands it to the backend after the batch that created the surface and before any later
//! `Present`; the client waits for the answer (a round trip at make-current, resize and
//! swap-interval changes, never per frame). The surfaces the backend presents are kept
//! here: added by a successful attach, removed when the backend reports it stopped
//! ([`Outbox::detached`]).

use std::collections::{HashSet, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use super::ring::{self, Consumer, Producer, WindowRequest};
use super::{
    ReplyWaiter, SessionLost, Transport, TransportKind, TransportStats, apply_own_archived,
};
use crate::backend::{Backend, Event, NativeTarget, Outbox, Reply};
use crate::batch::{Archiver, Encoder};
use crate::fence::FenceMark;
use crate::handle::SurfaceHandle;
use crate::record::ReplyId;

#[derive(Default)]
struct Inbox {
    replies: VecDeque<(ReplyId, Reply)>,
    events: Vec<Event>,
    lost: Option<SessionLost>,
    /// The answer to the window request in the ring (at most one: the client waits for it).
    attach_answer: Option<bool>,
    /// Surfaces the backend presents into a window itself.
    attached: HashSet<SurfaceHandle>,
}

#[derive(Default)]
struct Back {
    inbox: Mutex<Inbox>,
    /// Notified whenever `inbox` gains a reply or an attach answer, or the session ends.
    arrived: Condvar,
    /// The fence watermark, published by the render thread.
    mark: Arc<FenceMark>,
}

impl Back {
    fn lock(&self) -> MutexGuard<'_, Inbox> {
        self.inbox.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait_reply(&self, id: ReplyId) -> Result<Reply, SessionLost> {
        let mut inbox = self.lock();
        loop {
            if let Some(reply) = super::reply::take(&mut inbox.replies, id) {
                return Ok(reply);
            }
            if let Some(lost) = &inbox.lost {
                return Err(lost.clone());
            }
            inbox = self
                .arrived
                .wait(inbox)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// Waits for the render thread's replies without the transport.
struct Waiter(Arc<Back>);

impl ReplyWaiter for Waiter {
    fn wait(&self, id: ReplyId) -> Result<Reply, SessionLost> {
        self.0.wait_reply(id)
    }
}

/// A backend on its own render thread.
pub struct ThreadTransport {
    producer: Option<Producer>,
    archiver: Archiver,
    back: Arc<Back>,
    render_thread: Option<JoinHandle<()>>,
    stats: TransportStats,
}

impl ThreadTransport {
    /// Starts a render thread that owns `backend`.
    pub fn new(backend: Box<dyn Backend>) -> Self {
        let (producer, consumer) = ring::ring();
        let back = Arc::new(Back::default());
        let render_back = back.clone();
        let render_thread = std::thread::Builder::new()
            .name("tessera-render".to_owned())
            .spawn(move || {
                render_loop(backend, consumer, &render_back);
                render_back.mark.close();
            })
            .expect("spawning the render thread");
        Self {
            producer: Some(producer),
            archiver: Archiver::default(),
            back,
            render_thread: Some(render_thread),
            stats: TransportStats::default(),
        }
    }

    fn lost(&self) -> SessionLost {
        self.back
            .lock()
            .lost
            .clone()
            .unwrap_or_else(|| SessionLost {
                reason: "the render thread stopped".to_owned(),
            })
    }
}

/// How long the idle render thread waits for its oldest pending fence before it looks at
/// the ring again: the most a batch published meanwhile waits for it.
const IDLE_FENCE_WAIT_NS: u64 = 1_000_000;

fn render_loop(mut backend: Box<dyn Backend>, mut consumer: Consumer, back: &Back) {
    let mut outbox = Outbox::default();
    // Whether fences may be pending: the render thread looks at them while idle, so the
    // watermark moves without the client asking.
    let mut fences_pending = false;
    loop {
        let mut result = Ok(());
        let mut answer = None;
        while fences_pending && !consumer.ready() {
            match std::panic::catch_unwind(AssertUnwindSafe(|| {
                backend.poll_fences(IDLE_FENCE_WAIT_NS, &mut outbox)
            })) {
                Ok(Ok(pending)) => fences_pending = pending,
                Ok(Err(e)) => {
                    result = Err(e);
                    break;
                }
                Err(_) => {
                    result = Err(crate::backend::SessionError::Backend(
                        "the backend panicked".to_owned(),
                    ));
                    break;
                }
            }
            back.mark.absorb(&mut outbox.events, 0);
        }
        let popped = if result.is_ok() {
            fences_pending = true;
            consumer.pop(|slot| {
                let panicked = || {
                    Err(crate::backend::SessionError::Backend(
                        "the backend panicked".to_owned(),
                    ))
                };
                if let Some(r) = slot.window.take() {
                    match std::panic::catch_unwind(AssertUnwindSafe(|| {
                        backend.attach_window(r.surface, r.window, r.interval)
                    })) {
                        Ok(attached) => answer = Some((r.surface, attached)),
                        Err(_) => result = panicked(),
                    }
                    return;
                }
                result = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    // SAFETY: a slot without a window request holds what the application
                    // thread's `Encoder::finish` archived into it (`submit`), in an aligned
                    // buffer that nothing else writes; the ring hands it over whole.
                    unsafe {
                        apply_own_archived(
                            backend.as_mut(),
                            &slot.archive,
                            &slot.stage,
                            &mut outbox,
                        )
                    }
                }))
                .unwrap_or_else(|_| panicked());
            })
        } else {
            Ok(())
        };
        if popped.is_err() {
            return;
        }
        back.mark.absorb(&mut outbox.events, 0);
        if outbox.is_empty() && result.is_ok() && answer.is_none() {
            continue;
        }
        let mut inbox = back.lock();
        inbox.replies.extend(outbox.replies.drain(..));
        inbox.events.append(&mut outbox.events);
        for surface in outbox.detached.drain(..) {
            inbox.attached.remove(&surface);
        }
        if let Some((surface, attached)) = answer {
            if attached {
                inbox.attached.insert(surface);
            } else {
                inbox.attached.remove(&surface);
            }
            inbox.attach_answer = Some(attached);
        }
        if let Err(e) = result {
            let reason = e.to_string();
            log::error!("tessera: session ended: {reason}");
            inbox.events.push(Event::SessionEnded {
                reason: reason.clone(),
            });
            inbox.lost = Some(SessionLost { reason });
            drop(inbox);
            consumer.close();
            back.arrived.notify_all();
            return;
        }
        drop(inbox);
        back.arrived.notify_all();
    }
}

impl Transport for ThreadTransport {
    fn kind(&self) -> TransportKind {
        TransportKind::Thread
    }

    fn submit(&mut self, encoder: &mut Encoder) -> Result<(), SessionLost> {
        let Some(producer) = self.producer.as_mut() else {
            return Err(self.lost());
        };
        let archiver = &mut self.archiver;
        let mut records = 0;
        let mut bytes = (0, 0);
        let pushed = producer.push(|slot| {
            slot.window = None;
            records = encoder.finish(archiver, &mut slot.archive, &mut slot.stage);
            bytes = (slot.archive.len(), slot.stage.len());
        });
        match pushed {
            Ok(waited) => {
                self.stats.batches += 1;
                self.stats.records += records as u64;
                self.stats.record_bytes += bytes.0 as u64;
                self.stats.stage_bytes += bytes.1 as u64;
                self.stats.blocking_waits += u64::from(waited);
                Ok(())
            }
            Err(ring::Closed) => {
                let mut scratch = Vec::new();
                let mut archive = Default::default();
                encoder.finish(&mut self.archiver, &mut archive, &mut scratch);
                Err(self.lost())
            }
        }
    }

    fn wait_reply(&mut self, id: ReplyId) -> Result<Reply, SessionLost> {
        self.stats.blocking_waits += 1;
        self.back.wait_reply(id)
    }

    fn reply_waiter(&mut self) -> Option<Box<dyn ReplyWaiter>> {
        self.stats.blocking_waits += 1;
        Some(Box::new(Waiter(self.back.clone())))
    }

    fn take_events(&mut self, out: &mut Vec<Event>) {
        out.append(&mut self.back.lock().events);
    }

    fn fence_mark(&self) -> Arc<FenceMark> {
        self.back.mark.clone()
    }

    fn poll_fences(&mut self, _timeout_ns: u64) -> bool {
        true
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
        let Some(producer) = self.producer.as_mut() else {
            return false;
        };
        let request = WindowRequest {
            surface,
            window,
            interval,
        };
        let pushed = producer.push(|slot| {
            slot.archive.clear();
            slot.stage.clear();
            slot.window = Some(request);
        });
        if pushed.is_err() {
            return false;
        }
        self.stats.blocking_waits += 1;
        let mut inbox = self.back.lock();
        loop {
            if let Some(attached) = inbox.attach_answer.take() {
                return attached;
            }
            if inbox.lost.is_some() {
                return false;
            }
            inbox = self
                .back
                .arrived
                .wait(inbox)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn window_attached(&mut self, surface: SurfaceHandle) -> bool {
        self.back.lock().attached.contains(&surface)
    }
}

impl Drop for ThreadTransport {
    fn drop(&mut self) {
        // Closing the ring lets the render thread apply what was published, then stop.
        self.producer = None;
        if let Some(thread) = self.render_thread.take() {
            let _ = thread.join();
        }
    }
}

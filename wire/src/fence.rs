//! The fence completion watermark: how a client learns that fences signalled without
//! asking the backend.
//!
//! Every `InsertFence` of a session carries a sequence number, increasing by one or more
//! per fence (the client mints them). The backend's dispatcher keeps the fences not yet
//! known to have signalled in sequence order and, after each batch it applies (and when a
//! transport asks it to look, [`Backend::poll_fences`](crate::Backend::poll_fences)),
//! checks them oldest first without waiting. The highest sequence up to which every live
//! fence signalled is the session's **completed** watermark; when it moves the backend
//! reports it as [`Event::FencesCompleted`](crate::Event::FencesCompleted), which the
//! client's transport takes out of the event stream and publishes in its [`FenceMark`].
//! A fence destroyed before it signalled stops holding the watermark back (nobody can ask
//! about it any more).
//!
//! The watermark only moves forward, so a client compares with `>=`: a fence with sequence
//! `s` signalled once `completed() >= s`. Reading it is one atomic load: `glGetSynciv(
//! SYNC_STATUS)` and `glClientWaitSync` with a zero timeout need no record and no round
//! trip. A waiter with a timeout sleeps on the mark ([`FenceMark::wait_past`]) without
//! holding any lock of the share group; whoever publishes wakes it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A session's fence completion watermark, shared by the transport (which publishes) and
/// the client's waiters.
#[derive(Debug, Default)]
pub struct FenceMark {
    completed: AtomicU64,
    /// Set once the session is over: waiters return at once.
    closed: AtomicBool,
    lock: Mutex<()>,
    moved: Condvar,
}

impl FenceMark {
    /// A watermark at 0 (no fence signalled yet; sequences start at 1).
    pub fn new() -> Self {
        Self::default()
    }

    /// The highest sequence up to which every live fence of the session signalled.
    #[inline]
    pub fn completed(&self) -> u64 {
        self.completed.load(Ordering::Acquire)
    }

    /// Whether the session is over.
    #[inline]
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// Moves the watermark to `seq` if that is forward, waking waiters.
    pub fn publish(&self, seq: u64) {
        if self.completed.fetch_max(seq, Ordering::AcqRel) < seq {
            // Taking the lock orders the store before a waiter's check-then-wait.
            drop(self.lock.lock().unwrap_or_else(PoisonError::into_inner));
            self.moved.notify_all();
        }
    }

    /// The session is over: wakes every waiter, and later waits return at once.
    pub fn close(&self) {
        self.closed.store(true, Ordering::Release);
        drop(self.lock.lock().unwrap_or_else(PoisonError::into_inner));
        self.moved.notify_all();
    }

    /// Waits until the watermark differs from `seen`, the session ends, or `timeout`
    /// passes; returns the watermark then.
    pub fn wait_past(&self, seen: u64, timeout: Duration) -> u64 {
        let deadline = Instant::now().checked_add(timeout);
        let mut guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            let now = self.completed();
            if now != seen || self.is_closed() {
                return now;
            }
            let left = match deadline {
                Some(d) => d.saturating_duration_since(Instant::now()),
                None => Duration::from_secs(3600),
            };
            if left.is_zero() {
                return now;
            }
            guard = self
                .moved
                .wait_timeout(guard, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Moves every [`Event::FencesCompleted`](crate::Event::FencesCompleted) from
    /// `events[start..]` into the watermark; the other events stay, in order.
    pub fn absorb(&self, events: &mut Vec<crate::Event>, start: usize) {
        let start = start.min(events.len());
        if !events[start..]
            .iter()
            .any(|e| matches!(e, crate::Event::FencesCompleted { .. }))
        {
            return;
        }
        let mut kept = start;
        for i in start..events.len() {
            if let crate::Event::FencesCompleted { seq } = events[i] {
                self.publish(seq);
            } else {
                events.swap(kept, i);
                kept += 1;
            }
        }
        events.truncate(kept);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::Event;

    #[test]
    fn the_mark_moves_forward_only_and_wakes_a_waiter() {
        let mark = Arc::new(FenceMark::new());
        mark.publish(3);
        mark.publish(2);
        assert_eq!(mark.completed(), 3);
        let waiter = {
            let mark = mark.clone();
            std::thread::spawn(move || mark.wait_past(3, Duration::from_secs(3600)))
        };
        mark.publish(5);
        assert_eq!(waiter.join().unwrap(), 5);
        assert_eq!(mark.wait_past(4, Duration::from_secs(3600)), 5);
        assert_eq!(mark.wait_past(5, Duration::ZERO), 5);
    }

    #[test]
    fn absorbing_keeps_other_events_in_order() {
        let mark = FenceMark::new();
        let other = |what: &str| Event::Unsupported { what: what.into() };
        let mut events = vec![
            other("a"),
            Event::FencesCompleted { seq: 4 },
            other("b"),
            Event::FencesCompleted { seq: 7 },
            other("c"),
        ];
        mark.absorb(&mut events, 1);
        assert_eq!(events, vec![other("a"), other("b"), other("c")]);
        assert_eq!(mark.completed(), 7);
    }

    #[test]
    fn a_closed_mark_lets_waiters_go() {
        let mark = FenceMark::new();
        mark.close();
        assert_eq!(mark.wait_past(0, Duration::from_secs(3600)), 0);
    }
}

//! A single-producer, single-consumer ring of reusable batch slots, and its doorbell.
//!
//! The client thread (the [`Producer`]) fills a slot with an archived batch and its stage
//! bytes and publishes it; the render thread (the [`Consumer`]) applies it and releases the
//! slot. Slots keep their allocations, so a steady frame allocates nothing. There are
//! [`SLOTS`] slots: one being filled, one being applied, the rest queued — enough run-ahead to
//! overlap a frame's recording with the previous frame's application without letting the
//! client race arbitrarily far ahead (gallium's threaded context makes the same trade with 10
//! batches).
//!
//! Cursors are monotonic counts of batches (`u64`, never wrapping in practice), each on its
//! own cache line; slot `i` of cursor `c` is `c % SLOTS`. A waiter spins briefly, then parks
//! using the two-fence doorbell protocol of `doorbell.rs`, and is rung only when it may be
//! parked. A producer that found the ring full waits until it is half empty ([`RESUME_AT`]),
//! and the consumer rings it only then: a client ahead of a slower render thread sleeps once
//! per half ring of batches instead of once per batch, and wakes to a consumer that still has
//! work queued. Every atomic comes from `sync.rs`, so
//! the protocol is model-checked with loom (the `loom_*` tests below).

use rkyv::util::AlignedVec;

use super::doorbell::ThreadBell;
use super::sync::{Arc, AtomicBool, AtomicU64, Ordering, UnsafeCell};
use crate::backend::NativeTarget;
use crate::batch::STAGE_ALIGN;
use crate::handle::SurfaceHandle;

/// Slots in the ring (two under loom, so a short model still wraps and fills the ring).
#[cfg(not(loom))]
pub(crate) const SLOTS: usize = 4;
/// Slots in the ring (two under loom, so a short model still wraps and fills the ring).
#[cfg(loom)]
pub(crate) const SLOTS: usize = 2;

/// Batches in flight at or below which a producer that found the ring full goes on (half the
/// ring; one slot under loom, where the ring has two).
pub(crate) const RESUME_AT: u64 = (SLOTS / 2) as u64;

/// One batch in flight, or a window handed to the backend between two batches.
#[derive(Default)]
pub(crate) struct Slot {
    /// Archived records.
    pub archive: AlignedVec<STAGE_ALIGN>,
    /// Stage bytes.
    pub stage: Vec<u8>,
    /// Instead of a batch: a window to attach (`Backend::attach_window`), taken by the
    /// consumer.
    pub window: Option<WindowRequest>,
}

/// The arguments of one `Backend::attach_window` call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WindowRequest {
    pub surface: SurfaceHandle,
    pub window: Option<NativeTarget>,
    pub interval: i32,
}

/// Keeps a value on its own cache line so the two cursors never share one.
#[repr(align(64))]
struct CachePadded<T>(T);

/// The ring's peer went away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Closed;

struct Shared {
    slots: [UnsafeCell<Slot>; SLOTS],
    /// Batches published. Single writer: the producer. Range: `tail ..= tail + SLOTS`.
    head: CachePadded<AtomicU64>,
    /// Batches released. Single writer: the consumer. Range: `head - SLOTS ..= head`.
    tail: CachePadded<AtomicU64>,
    /// Set once by either side when it goes away; never cleared.
    closed: AtomicBool,
    /// The producer waits here for space (the doorbell protocol is in `doorbell.rs`).
    producer_bell: ThreadBell,
    /// The consumer waits here for batches.
    consumer_bell: ThreadBell,
}

// SAFETY: `Shared` is shared between exactly one `Producer` and one `Consumer`, and the only
// non-`Sync` part, the slots, is accessed under the ring protocol: slot `c % SLOTS` belongs to
// the producer while `head <= c < tail + SLOTS` (it writes only slot `head % SLOTS`) and to the
// consumer while `tail <= c < head` (it reads only slot `tail % SLOTS`). A slot changes owner
// only through a Release store of a cursor observed by an Acquire load of the other side, so
// the two sides never access one slot at the same time. `Slot` itself is `Send`.
unsafe impl Sync for Shared {}

/// Creates a ring and returns its two ends.
pub(crate) fn ring() -> (Producer, Consumer) {
    let shared = Arc::new(Shared {
        slots: std::array::from_fn(|_| UnsafeCell::new(Slot::default())),
        head: CachePadded(AtomicU64::new(0)),
        tail: CachePadded(AtomicU64::new(0)),
        closed: AtomicBool::new(false),
        producer_bell: ThreadBell::new(),
        consumer_bell: ThreadBell::new(),
    });
    (
        Producer {
            shared: shared.clone(),
            head: 0,
        },
        Consumer { shared, tail: 0 },
    )
}

impl Shared {
    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.producer_bell.ring();
        self.consumer_bell.ring();
    }

    /// One side's turn with slot `at % SLOTS`: lets `use_slot` have it, then stores `at + 1`
    /// in the side's `cursor` (Release: the slot accesses happen before the other side's
    /// Acquire load sees the new cursor) and wakes the other side on `other` if it may be
    /// parked and `worth_waking()` holds (see `doorbell::notify_if`).
    ///
    /// # Safety
    /// The calling side owns the slot under the ring protocol, and is the only writer of
    /// `cursor`: no other reference to the slot exists while `use_slot` runs.
    unsafe fn take_turn(
        &self,
        at: u64,
        cursor: &CachePadded<AtomicU64>,
        other: &ThreadBell,
        use_slot: impl FnOnce(&mut Slot),
        worth_waking: impl FnOnce() -> bool,
    ) {
        let index = (at % SLOTS as u64) as usize;
        debug_assert!(index < SLOTS);
        // SAFETY: the caller owns the slot and nothing else references it (this function's
        // contract).
        self.slots[index].with_mut(|slot| unsafe { use_slot(&mut *slot) });
        cursor.0.store(at + 1, Ordering::Release);
        other.ring_if(worth_waking);
    }
}

/// The client's end. `Send`, not `Sync`: one thread at a time fills slots.
pub(crate) struct Producer {
    shared: Arc<Shared>,
    /// Local copy of `head` (this side is its only writer).
    head: u64,
}

impl Producer {
    /// Fills the next free slot with `fill` and publishes it. When the ring is full it waits
    /// until at most [`RESUME_AT`] batches are in flight. Returns whether it had to wait, or
    /// `Closed` if the consumer went away.
    pub(crate) fn push(&mut self, fill: impl FnOnce(&mut Slot)) -> Result<bool, Closed> {
        let shared = &*self.shared;
        let head = self.head;
        // Acquire: pairs with the Release store in `Consumer::pop`, so the consumer's reads
        // of the slot we are about to overwrite happened before our writes.
        let in_flight = || head - shared.tail.0.load(Ordering::Acquire);
        let mut waited = false;
        if in_flight() >= SLOTS as u64 {
            waited = true;
            shared
                .producer_bell
                .wait(|| in_flight() <= RESUME_AT || shared.closed.load(Ordering::Acquire));
        }
        if shared.closed.load(Ordering::Acquire) {
            return Err(Closed);
        }
        // SAFETY:
        // - `head - tail < SLOTS` (checked or waited for above, and `tail` only grows), so slot
        //   `head % SLOTS` is not in `tail..head`: the consumer does not own it.
        // - This is the only producer (`Producer` is not `Clone` and `push` takes `&mut`), so
        //   no other reference to the slot exists, and it alone writes `head`.
        // The new `head` publishes the slot's bytes to the Acquire load in `Consumer::pop`.
        unsafe { shared.take_turn(head, &shared.head, &shared.consumer_bell, fill, || true) };
        self.head = head + 1;
        Ok(waited)
    }
}

impl Drop for Producer {
    fn drop(&mut self) {
        self.shared.close();
    }
}

/// The render thread's end. `Send`, not `Sync`.
pub(crate) struct Consumer {
    shared: Arc<Shared>,
    /// Local copy of `tail` (this side is its only writer).
    tail: u64,
}

impl Consumer {
    /// Waits for the next batch, lets `apply` use its slot, then releases the slot. Returns
    /// `Closed` once the producer has gone away and every published batch was consumed.
    pub(crate) fn pop(&mut self, apply: impl FnOnce(&mut Slot)) -> Result<(), Closed> {
        let shared = &*self.shared;
        let tail = self.tail;
        // Acquire: pairs with the Release store in `Producer::push`, making the slot's bytes
        // visible before we read them.
        let has_batch = || shared.head.0.load(Ordering::Acquire) > tail;
        if !has_batch() {
            shared
                .consumer_bell
                .wait(|| has_batch() || shared.closed.load(Ordering::Acquire));
            if !has_batch() {
                return Err(Closed);
            }
        }
        // A parked producer waits for at most `RESUME_AT` batches in flight. `head` is loaded
        // after the doorbell's fence, so it is the parked producer's (whose `head` does not
        // move while it waits) or an older one, which can only ring needlessly; never below
        // `tail + 1`, which this thread already saw.
        let resume = || shared.head.0.load(Ordering::Acquire) - (tail + 1) <= RESUME_AT;
        // SAFETY:
        // - `tail < head` (checked above), so slot `tail % SLOTS` was published and the
        //   producer will not touch it until `tail` passes it.
        // - This is the only consumer, so no other reference to the slot exists, and it alone
        //   writes `tail`.
        // The new `tail` hands the slot back after our reads, to the Acquire load in
        // `Producer::push`.
        unsafe { shared.take_turn(tail, &shared.tail, &shared.producer_bell, apply, resume) };
        self.tail = tail + 1;
        Ok(())
    }

    /// Whether [`Consumer::pop`] would return without waiting: a batch is published, or
    /// the producer went away.
    pub(crate) fn ready(&self) -> bool {
        self.shared.head.0.load(Ordering::Acquire) > self.tail
            || self.shared.closed.load(Ordering::Acquire)
    }

    /// Stops accepting batches (the session ended); the producer sees `Closed`.
    pub(crate) fn close(&self) {
        self.shared.close();
    }
}

impl Drop for Consumer {
    fn drop(&mut self) {
        self.shared.close();
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn delivers_every_batch_in_order_across_wraps() {
        let (mut producer, mut consumer) = ring();
        let reader = std::thread::spawn(move || {
            let mut seen = Vec::new();
            while consumer
                .pop(|slot| seen.push(u32::from_le_bytes(slot.stage[..4].try_into().unwrap())))
                .is_ok()
            {}
            seen
        });
        for i in 0..10_000u32 {
            producer
                .push(|slot| {
                    slot.stage.clear();
                    slot.stage.extend_from_slice(&i.to_le_bytes());
                })
                .unwrap();
        }
        drop(producer);
        let seen = reader.join().unwrap();
        assert_eq!(seen, (0..10_000).collect::<Vec<_>>());
    }

    /// A producer that found the ring full goes on only once at most `RESUME_AT` batches
    /// are in flight, whichever side is faster: every batch it published after a wait
    /// follows at least `batch - RESUME_AT` releases.
    #[test]
    fn a_producer_that_waited_resumes_at_half_a_ring() {
        use std::sync::{Arc, Mutex};
        let (mut producer, mut consumer) = ring();
        // Positive: a release; negative: a batch published after a wait (minus one).
        let log = Arc::new(Mutex::new(Vec::<i64>::new()));
        let consumer_log = log.clone();
        let reader = std::thread::spawn(move || {
            // A consumer slower than the producer, so the ring fills and the producer parks.
            while consumer
                .pop(|_| {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                    consumer_log.lock().unwrap().push(1);
                })
                .is_ok()
            {}
        });
        let mut waits = 0;
        for batch in 0..64i64 {
            let mut waited_fill = false;
            let waited = producer.push(|_| waited_fill = true).unwrap();
            assert!(waited_fill);
            if waited {
                waits += 1;
                log.lock().unwrap().push(-(batch + 1));
            }
        }
        drop(producer);
        reader.join().unwrap();
        assert!(waits > 0, "the producer never found the ring full");
        let mut released = 0;
        for &entry in log.lock().unwrap().iter() {
            if entry > 0 {
                released += 1;
            } else {
                let batch = -entry - 1;
                assert!(
                    released >= batch - RESUME_AT as i64,
                    "batch {batch} published after {released} releases"
                );
            }
        }
    }

    #[test]
    fn producer_sees_a_closed_consumer() {
        let (mut producer, consumer) = ring();
        consumer.close();
        assert_eq!(producer.push(|_| {}), Err(Closed));
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use crate::transport::sync::thread;

    /// Three batches through a two-slot ring: the producer must wait for space once, both
    /// sides park and wake through the doorbells, and every batch arrives once, in order.
    #[test]
    fn loom_ring_delivers_in_order_and_never_deadlocks() {
        // Three preemptions cover the wrap, the full ring and both sides parking; the full
        // space takes minutes for no new kind of interleaving.
        let mut builder = loom::model::Builder::new();
        builder.preemption_bound = Some(3);
        builder.check(|| {
            let (mut producer, mut consumer) = ring();
            let reader = thread::spawn(move || {
                let mut seen = Vec::new();
                while consumer.pop(|slot| seen.push(slot.stage[0])).is_ok() {}
                seen
            });
            for i in 0..3u8 {
                producer
                    .push(|slot| {
                        slot.stage.clear();
                        slot.stage.push(i);
                    })
                    .unwrap();
            }
            drop(producer);
            assert_eq!(reader.join().unwrap(), vec![0, 1, 2]);
        });
    }

    /// A consumer that goes away wakes a producer waiting for space.
    #[test]
    fn loom_closing_wakes_a_waiting_producer() {
        loom::model(|| {
            let (mut producer, consumer) = ring();
            let closer = thread::spawn(move || drop(consumer));
            let mut result = Ok(false);
            for _ in 0..SLOTS + 1 {
                result = producer.push(|_| {});
                if result.is_err() {
                    break;
                }
            }
            closer.join().unwrap();
            assert!(producer.push(|_| {}).is_err());
            let _ = result;
        });
    }
}

//! The doorbell: how a waiter sleeps and a publisher wakes it, without lost wakeups.
//!
//! Every transport waits the same way: spin briefly on the condition, then *park*. The
//! protocol is Dekker's, and both of its fences are required:
//!
//! - **Waiter** ([`wait`]): spin; then store `parked = 1`; **fence A** (`SeqCst`); re-check
//!   the condition; sleep only if it still does not hold; loop.
//! - **Publisher** ([`notify`]): store the cursor or watermark the waiter waits on (a Release
//!   store); **fence B** (`SeqCst`); load `parked` and ring the sleeper only if it is set.
//!
//! Why both fences: the waiter's `parked` store and its re-check load, and the publisher's
//! cursor store and its `parked` load, form a store-buffer pattern. A Release store followed
//! by an Acquire or Relaxed load may be reordered (x86 keeps the store in its store buffer
//! while the load reads memory), so without fence A the waiter can read the old cursor while
//! its `parked = 1` is still invisible, and without fence B the publisher can read
//! `parked == 0` while its cursor store is still invisible: each side misses the other and the
//! waiter sleeps forever on a condition that already holds. With both fences, the two `SeqCst`
//! fences are totally ordered; whichever comes second sees the other side's store, so either
//! the waiter's re-check sees the new cursor or the publisher sees `parked == 1` and rings.
//! Making only the flag accesses `SeqCst` is not enough: the cursor accesses must be in the
//! total order too, which is what the fences provide.
//!
//! The sleeper must keep a ring that lands between the re-check and the sleep: a thread's
//! counter of rings ([`ThreadBell`]) and an eventfd's counter (the `shm` sleeper) both do. The
//! flag is written only by the waiter (set before sleeping, cleared once its condition
//! holds), so it has a single writer even when it lives in shared memory.
//!
//! A sleeper may also return early with an interruption (the `shm` sleeper does when the
//! peer's socket becomes readable or hangs up, which is how a dead peer is noticed without
//! any timeout); the waiter then returns that to its caller.

use super::sync::{AtomicU32, Condvar, Mutex, Ordering, SPINS, fence, spin_loop};

/// Blocks until woken; a wake delivered since the previous sleep makes it return at once.
pub(crate) trait Sleeper {
    /// Why a sleep ended without a wake (the peer hung up, a control message arrived).
    type Interrupt;

    /// Sleeps until a wake, or returns an interruption.
    fn sleep(&self) -> Result<(), Self::Interrupt>;
}

/// Wakes the peer's sleeper.
pub(crate) trait Waker {
    /// Rings. Spurious rings are harmless: the waiter re-checks its condition.
    fn wake(&self);
}

/// Waits until `ready()` holds: spins [`SPINS`] times, then parks on `parked` with `sleeper`.
/// Returns `Ok(true)` if it had to park, `Ok(false)` if spinning sufficed.
///
/// `ready` may have side effects (draining a reply ring while waiting); it is called until it
/// returns `true` once.
pub(crate) fn wait<S: Sleeper>(
    parked: &AtomicU32,
    sleeper: &S,
    mut ready: impl FnMut() -> bool,
) -> Result<bool, S::Interrupt> {
    for _ in 0..SPINS {
        if ready() {
            return Ok(false);
        }
        spin_loop();
    }
    loop {
        parked.store(1, Ordering::Relaxed);
        // Fence A: orders the `parked` store before the loads `ready` makes; pairs with
        // fence B in `notify`. See the module docs for why it cannot go.
        fence(Ordering::SeqCst);
        if ready() {
            parked.store(0, Ordering::Relaxed);
            return Ok(true);
        }
        if let Err(interrupt) = sleeper.sleep() {
            parked.store(0, Ordering::Relaxed);
            return Err(interrupt);
        }
    }
}

/// Rings `waker` if the waiter may be parked. Call it *after* the store the waiter waits on:
/// a fence orders only the accesses before it.
#[inline]
pub(crate) fn notify(parked: &AtomicU32, waker: &impl Waker) {
    // Fence B: orders the caller's cursor store before the `parked` load; pairs with fence A
    // in `wait`.
    fence(Ordering::SeqCst);
    if parked.load(Ordering::Relaxed) != 0 {
        waker.wake();
    }
}

/// Rings `waker` if the waiter may be parked and `worth_waking()` holds: for a waiter whose
/// condition needs more than the store just made (a producer that waits for half a ring,
/// not one slot). `worth_waking` runs after fence B, so a waiter parked before it is seen
/// with its cursors as they were when it re-checked: if the waiter's fence A comes first,
/// the loads in `worth_waking` see every store the waiter made before parking; if it comes
/// second, the waiter's re-check sees the caller's store. Either the waiter's own re-check
/// holds or this call sees that it now holds, as long as `worth_waking` errs towards `true`
/// (a stale cursor may only make it ring needlessly).
#[inline]
pub(crate) fn notify_if(
    parked: &AtomicU32,
    waker: &impl Waker,
    worth_waking: impl FnOnce() -> bool,
) {
    // Fence B, as in `notify`.
    fence(Ordering::SeqCst);
    if parked.load(Ordering::Relaxed) != 0 && worth_waking() {
        waker.wake();
    }
}

/// A doorbell between two threads of one process: the park flag, and a wake counter with a
/// condition variable — an in-process eventfd, so the `thread` transport parks exactly as
/// the process transports do, and loom checks the same sleeper the code runs.
pub(crate) struct ThreadBell {
    /// 1 while the waiter may be parked. Single writer: the waiter.
    pub(crate) parked: AtomicU32,
    /// Rings not yet consumed by a sleep (the eventfd counter).
    rings: Mutex<u64>,
    /// Signalled at every ring.
    rung: Condvar,
}

impl ThreadBell {
    /// A bell nobody waits on yet.
    pub(crate) fn new() -> Self {
        Self {
            parked: AtomicU32::new(0),
            rings: Mutex::new(0),
            rung: Condvar::new(),
        }
    }

    /// Waits until `ready()` holds (see [`wait`]). Returns whether it parked.
    pub(crate) fn wait(&self, ready: impl FnMut() -> bool) -> bool {
        match wait(&self.parked, self, ready) {
            Ok(parked) => parked,
            Err(never) => match never {},
        }
    }

    /// Wakes the waiter if it may be parked (see [`notify`]).
    pub(crate) fn ring(&self) {
        notify(&self.parked, self);
    }

    /// Wakes the waiter if it may be parked and `worth_waking()` holds (see [`notify_if`]).
    pub(crate) fn ring_if(&self, worth_waking: impl FnOnce() -> bool) {
        notify_if(&self.parked, self, worth_waking);
    }
}

impl Sleeper for ThreadBell {
    type Interrupt = std::convert::Infallible;

    fn sleep(&self) -> Result<(), Self::Interrupt> {
        // A ring since the last sleep is kept in the counter, so one that lands between the
        // waiter's re-check and here is not lost.
        let mut rings = self.rings.lock().unwrap_or_else(|e| e.into_inner());
        while *rings == 0 {
            rings = self.rung.wait(rings).unwrap_or_else(|e| e.into_inner());
        }
        *rings = 0;
        Ok(())
    }
}

impl Waker for ThreadBell {
    fn wake(&self) {
        *self.rings.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.rung.notify_one();
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use crate::transport::sync::{Arc, AtomicU64, thread};

    /// The waiter never sleeps through a publication: loom explores every interleaving of
    /// the two fences and reports a deadlock if the waiter can stay parked.
    #[test]
    fn loom_doorbell_never_loses_a_wakeup() {
        loom::model(|| {
            let bell = Arc::new(ThreadBell::new());
            let cursor = Arc::new(AtomicU64::new(0));
            let (b, c) = (bell.clone(), cursor.clone());
            let publisher = thread::spawn(move || {
                c.store(1, Ordering::Release);
                b.ring();
            });
            bell.wait(|| cursor.load(Ordering::Acquire) >= 1);
            publisher.join().unwrap();
        });
    }
}

/// The sleeper of a process transport: this side's eventfd, and the control socket, whose
/// readiness (a message, or the peer hanging up) interrupts the sleep. That is how a dead
/// peer is noticed while waiting, with no timeout: the kernel closes its socket when it dies.
pub(crate) struct EventSleeper<'a> {
    /// This side's eventfd, which the peer writes to ring.
    pub bell: std::os::fd::BorrowedFd<'a>,
    /// The control socket.
    pub socket: std::os::fd::BorrowedFd<'a>,
}

/// The control socket became readable (a message, or end of stream) during a wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SocketReady;

impl Sleeper for EventSleeper<'_> {
    type Interrupt = SocketReady;

    fn sleep(&self) -> Result<(), SocketReady> {
        match super::sys::poll2(self.bell, self.socket, -1) {
            Ok(polled) if polled.second => Err(SocketReady),
            Ok(_) => {
                // The counter keeps a ring that landed before the poll, so draining it after
                // waking loses nothing: the waiter re-checks its condition next.
                super::sys::eventfd_drain(self.bell);
                Ok(())
            }
            // poll failing on two valid descriptors means the process is out of resources;
            // treat it as the socket needing attention, whose read then reports the error.
            Err(_) => Err(SocketReady),
        }
    }
}

/// Rings the peer's eventfd.
pub(crate) struct EventWaker<'a>(pub std::os::fd::BorrowedFd<'a>);

impl Waker for EventWaker<'_> {
    fn wake(&self) {
        super::sys::eventfd_ring(self.0);
    }
}

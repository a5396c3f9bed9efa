//! The one door through which every transport atomic, lock and park passes.
//!
//! Under `--cfg loom` these names come from [loom](https://docs.rs/loom), which explores every
//! interleaving (and every weak-memory outcome it models) of a small test, so the ring and
//! doorbell protocols are model-checked rather than hoped correct:
//!
//! ```text
//! RUSTFLAGS="--cfg loom" cargo test -p tessera-wire --release loom
//! ```
//!
//! No other module of `transport/` imports `std::sync::atomic` or `std::cell::UnsafeCell`,
//! and the rings' doorbells take their `Mutex` and `Condvar` from here too; a new atomic
//! added elsewhere would escape the model.
//! Atomics that live in shared memory (the control page of `shm`) are the same types: an
//! `AtomicU64` has the size and alignment of a `u64`, so a `#[repr(C)]` page of them can be
//! mapped by two processes. Under loom the page lives on the heap instead.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering, fence};
#[cfg(loom)]
pub(crate) use loom::sync::{Arc, Condvar, Mutex};
/// Threads of loom's model (the loom tests spawn them).
#[cfg(loom)]
pub(crate) use loom::thread;

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering, fence};
#[cfg(not(loom))]
pub(crate) use std::sync::{Arc, Condvar, Mutex};

/// A hint inside a spin loop; under loom, a yield so the model can run the other thread.
#[inline]
pub(crate) fn spin_loop() {
    #[cfg(loom)]
    thread::yield_now();
    #[cfg(not(loom))]
    std::hint::spin_loop();
}

/// Spins a waiter makes before parking. Under loom a spin is a yield that multiplies the
/// interleavings to explore, and the parking path is the interesting one, so it is one.
#[cfg(not(loom))]
pub(crate) const SPINS: u32 = 200;
/// Spins a waiter makes before parking (one under loom: see the non-loom definition).
#[cfg(loom)]
pub(crate) const SPINS: u32 = 1;

/// An `UnsafeCell` whose accesses loom can track (`with_mut` hands out the raw pointer for
/// the duration of one access, so loom can flag two overlapping ones).
#[derive(Debug, Default)]
pub(crate) struct UnsafeCell<T>(
    #[cfg(loom)] loom::cell::UnsafeCell<T>,
    #[cfg(not(loom))] std::cell::UnsafeCell<T>,
);

impl<T> UnsafeCell<T> {
    /// Wraps `value`.
    #[cfg(not(loom))]
    pub(crate) fn new(value: T) -> Self {
        Self(std::cell::UnsafeCell::new(value))
    }

    /// Wraps `value`.
    #[cfg(loom)]
    pub(crate) fn new(value: T) -> Self {
        Self(loom::cell::UnsafeCell::new(value))
    }

    /// Runs `f` with a mutable pointer to the value. The caller upholds exclusivity.
    #[cfg(not(loom))]
    #[inline]
    pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        f(self.0.get())
    }

    /// Runs `f` with a mutable pointer to the value. The caller upholds exclusivity.
    #[cfg(loom)]
    pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        self.0.with_mut(f)
    }
}

//! Measuring the frontend: CPU time of the calling thread, and a backend that discards.

use tessera_wire::backend::{Backend, BatchView, Caps, Outbox, SessionError};

/// User and system CPU time of the calling thread, in nanoseconds.
pub fn thread_cpu_ns() -> (u64, u64) {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY:
    // - `usage` points to writable memory of the size of `rusage`;
    // - RUSAGE_THREAD is valid on Linux, the only platform this runs on;
    // - on success the kernel has initialised the whole struct (it was zeroed anyway).
    let usage = unsafe {
        if libc::getrusage(libc::RUSAGE_THREAD, usage.as_mut_ptr()) != 0 {
            return (0, 0);
        }
        usage.assume_init()
    };
    let ns = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1_000;
    (ns(usage.ru_utime), ns(usage.ru_stime))
}

/// A backend that accepts every (validated) batch and does nothing: what remains is the
/// frontend's own cost.
pub struct Sink;

impl Backend for Sink {
    fn caps(&self) -> Caps {
        Caps::gl33_minimum("sink")
    }

    fn apply(&mut self, _batch: BatchView<'_>, _out: &mut Outbox) -> Result<(), SessionError> {
        Ok(())
    }
}

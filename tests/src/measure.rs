//! Measuring the frontend: CPU time of the calling thread, and a backend that discards.

use tessera_wire::backend::{Backend, BatchView, Caps, Outbox, Reply, SessionError};
use tessera_wire::record::{ArchivedRecord, ReplyId};

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

/// Total CPU time of the calling thread in nanoseconds, at full clock resolution (the
/// user/system split of [`thread_cpu_ns`] is only as fine as the scheduler tick).
pub fn thread_cpu_total_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec and CLOCK_THREAD_CPUTIME_ID exists on Linux.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } != 0 {
        return 0;
    }
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// A backend that accepts every (validated) batch and does nothing but answer `Finish`: what
/// remains is the frontend's own cost. Any other record that asks for a reply ends the
/// session, so a benchmark can never measure a silently broken session.
pub struct Sink;

impl Backend for Sink {
    fn caps(&self) -> Caps {
        Caps::gl33_minimum("sink")
    }

    fn apply(&mut self, batch: BatchView<'_>, out: &mut Outbox) -> Result<(), SessionError> {
        for record in batch.archived.records.iter() {
            match record {
                ArchivedRecord::Finish { reply } => {
                    out.replies.push((ReplyId(reply.0.to_native()), Reply::Done));
                }
                ArchivedRecord::ReadBuffer { .. }
                | ArchivedRecord::ReadPixels { .. }
                | ArchivedRecord::QueryResult { .. }
                | ArchivedRecord::WaitFence { .. } => {
                    return Err(SessionError::Backend("the sink backend answers only Finish".to_owned()));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

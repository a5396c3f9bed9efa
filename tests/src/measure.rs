//! Measuring: CPU time of the calling thread and of the process, a backend that discards
//! (the frontend alone), and a wrapper that publishes a backend's native creation counters
//! while a transport owns it.

use std::sync::{Arc, Mutex, PoisonError};

use tessera_wire::backend::{
    Backend, BackendCounters, BatchView, Caps, Event, Outbox, Reply, SessionError,
};
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

/// User and system CPU time of the whole process (every thread: render threads, the native
/// driver's workers), in nanoseconds.
pub fn process_cpu_ns() -> (u64, u64) {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: as in `thread_cpu_ns`, with RUSAGE_SELF, which is valid everywhere.
    let usage = unsafe {
        if libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) != 0 {
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
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec and CLOCK_THREAD_CPUTIME_ID exists on Linux.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } != 0 {
        return 0;
    }
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Stops the calling process (SIGSTOP) until something sends it SIGCONT: a harness that
/// waits for every client to stop can measure the server with all of them at one point.
pub fn stop_self() {
    // SAFETY: raise has no preconditions; the process resumes where it stopped.
    unsafe { libc::raise(libc::SIGSTOP) };
}

/// A backend that accepts every (validated) batch and does nothing but answer `Finish` and
/// report each fence complete as it arrives (it has no work to wait for): what remains is the
/// frontend's own cost. Any other record that asks for a reply ends the session, so a
/// benchmark can never measure a silently broken session.
pub struct Sink;

impl Backend for Sink {
    fn caps(&self) -> Caps {
        Caps::gl33_minimum("sink")
    }

    /// Fences complete as their batch is applied: none is ever pending.
    fn poll_fences(&mut self, _timeout_ns: u64, _out: &mut Outbox) -> Result<bool, SessionError> {
        Ok(false)
    }

    fn counters(&self) -> Option<BackendCounters> {
        Some(BackendCounters::default())
    }

    fn apply(&mut self, batch: BatchView<'_>, out: &mut Outbox) -> Result<(), SessionError> {
        for record in batch.archived.records.iter() {
            match record {
                ArchivedRecord::Finish { reply } => {
                    out.replies
                        .push((ReplyId(reply.0.to_native()), Reply::Done));
                }
                ArchivedRecord::InsertFence { seq, .. } => {
                    out.events.push(Event::FencesCompleted {
                        seq: seq.to_native(),
                    });
                }
                ArchivedRecord::ReadBuffer { .. }
                | ArchivedRecord::ReadPixels { .. }
                | ArchivedRecord::QueryResult { .. }
                | ArchivedRecord::WaitFence { .. } => {
                    return Err(SessionError::Backend(
                        "the sink backend answers only Finish".to_owned(),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// CPU time at one instant: the calling thread's and the whole process's.
///
/// Totals are exact: the thread's comes from `CLOCK_THREAD_CPUTIME_ID`, the process's from
/// `getrusage(RUSAGE_SELF)`, which brings the calling thread's run time up to date first.
/// `getrusage(RUSAGE_THREAD)` does not (it lags by up to a scheduler tick, which is most of a
/// short measurement), so for the thread it only supplies the user/system split, which is
/// the scheduler's tick-sampled proportion either way.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuClock {
    thread_total: u64,
    thread: (u64, u64),
    process: (u64, u64),
}

/// CPU time spent between two [`CpuClock`] readings, in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuSpan {
    /// The calling thread, user.
    pub app_user: u64,
    /// The calling thread, system.
    pub app_sys: u64,
    /// The process's other threads (render thread, driver workers), user.
    pub rest_user: u64,
    /// The process's other threads, system.
    pub rest_sys: u64,
}

/// Splits `total` in the proportion `user : sys` (all user when both are zero).
fn split(total: u64, user: u64, sys: u64) -> (u64, u64) {
    if user + sys == 0 {
        return (total, 0);
    }
    let u = (u128::from(total) * u128::from(user) / u128::from(user + sys)) as u64;
    (u, total - u)
}

impl CpuClock {
    /// Reads the clocks.
    pub fn now() -> Self {
        Self {
            thread_total: thread_cpu_total_ns(),
            thread: thread_cpu_ns(),
            process: process_cpu_ns(),
        }
    }

    /// What was spent since `earlier`.
    pub fn since(&self, earlier: &CpuClock) -> CpuSpan {
        let app = self.thread_total.saturating_sub(earlier.thread_total);
        let (tu, ts) = (
            self.thread.0.saturating_sub(earlier.thread.0),
            self.thread.1.saturating_sub(earlier.thread.1),
        );
        let (pu, ps) = (
            self.process.0.saturating_sub(earlier.process.0),
            self.process.1.saturating_sub(earlier.process.1),
        );
        let (app_user, app_sys) = split(app, tu, ts);
        let rest = (pu + ps).saturating_sub(app);
        let (rest_user, rest_sys) = split(rest, pu.saturating_sub(tu), ps.saturating_sub(ts));
        CpuSpan {
            app_user,
            app_sys,
            rest_user,
            rest_sys,
        }
    }
}

/// Reads a backend's native creation counters while a transport owns the backend: what a
/// [`Counted`] backend published after its latest batch, or a backend's own shared counters.
#[derive(Clone)]
pub struct CountersProbe(Arc<dyn Fn() -> Option<BackendCounters> + Send + Sync>);

impl CountersProbe {
    /// A probe reading `read` (a backend's own shared counters).
    pub fn from_fn(read: impl Fn() -> Option<BackendCounters> + Send + Sync + 'static) -> Self {
        Self(Arc::new(read))
    }

    /// The backend's native creations now (`None`: it does not count them).
    pub fn get(&self) -> Option<BackendCounters> {
        (self.0)()
    }
}

/// A backend that forwards everything to another (every method of [`Backend`], so that it
/// behaves as the inner one does) and publishes its [`Backend::counters`] after every
/// batch, so the benchmark and tests can read them while a transport owns the backend (on
/// its render thread, for `thread`).
pub struct Counted {
    inner: Box<dyn Backend>,
    published: Arc<Mutex<Option<BackendCounters>>>,
}

impl Counted {
    /// Wraps `inner`; the probe reads what it publishes.
    pub fn new(inner: Box<dyn Backend>) -> (Self, CountersProbe) {
        let published = Arc::new(Mutex::new(inner.counters()));
        let read = published.clone();
        let probe =
            CountersProbe::from_fn(move || *read.lock().unwrap_or_else(PoisonError::into_inner));
        (Self { inner, published }, probe)
    }
}

impl Backend for Counted {
    fn caps(&self) -> Caps {
        self.inner.caps()
    }

    fn apply(&mut self, batch: BatchView<'_>, out: &mut Outbox) -> Result<(), SessionError> {
        let result = self.inner.apply(batch, out);
        *self
            .published
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = self.inner.counters();
        result
    }

    fn counters(&self) -> Option<BackendCounters> {
        self.inner.counters()
    }

    fn native_census(&self) -> Option<tessera_wire::census::NativeCensus> {
        self.inner.native_census()
    }

    fn release_thread(&mut self) {
        self.inner.release_thread();
    }

    /// The inner backend's own look at its fences: without it a client's fence wait over
    /// the in-process transport would see the watermark move only with the next batch,
    /// which a client that waits never sends, and wait out its whole timeout.
    fn poll_fences(&mut self, timeout_ns: u64, out: &mut Outbox) -> Result<bool, SessionError> {
        self.inner.poll_fences(timeout_ns, out)
    }

    fn attach_window(
        &mut self,
        surface: tessera_wire::handle::SurfaceHandle,
        window: Option<tessera_wire::backend::NativeTarget>,
        interval: i32,
    ) -> bool {
        self.inner.attach_window(surface, window, interval)
    }
}

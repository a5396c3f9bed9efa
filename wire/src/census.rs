//! Native object accounting: how many driver objects each backend holds, per kind.
//!
//! A backend counts what it creates in the native driver and what it releases, in a
//! [`NativeCensus`] of its own (one per backend, so one per server session). Every change
//! also moves the process-wide totals ([`process_live`]), so a server or a worker can tell
//! what all its sessions hold together. When a session ends the server drops its backend,
//! then reads the census: what is still counted then is what the session left in the
//! driver, logged as `session N ended: ...; 0 native objects left` (or the kinds left), and
//! the process's totals must come back to zero once no session is live.
//!
//! What each backend counts (see their `census` modules):
//! - GLES: every GL object created and deleted through the backend's GL function table
//!   (buffers, textures, renderbuffers, framebuffers, samplers, programs, shaders, vertex
//!   arrays, queries, syncs, transform feedbacks); before the native context is destroyed
//!   the backend asks the driver (`glIs*`) whether each object it still counts exists, and
//!   the ones it holds go with the context;
//! - Vulkan: the driver's own view, through the allocation callbacks given to
//!   `vkCreateInstance`: every host allocation the driver makes for an object (scope
//!   `OBJECT`) and every host allocation of any scope, counted live until the driver frees
//!   it. Once the instance is destroyed both must be zero: an object the backend never
//!   destroyed keeps its allocation.
//!
//! Counting where it happens most often (the Vulkan driver's allocations, several a recorded
//! draw) uses the calling thread's lane of the census ([`NativeCensus::here`]): each
//! thread that takes part owns one lane of every census for as long as it lives, and adds
//! to it with a plain load and store, not an atomic read-modify-write (which serializes
//! the core for some 20 cycles, several times a draw). A census's count is its shared
//! counter plus every lane, so reading it stays exact once the threads that counted are
//! done (joined, or their work waited for), and close while they run.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};

/// A kind of native object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum NativeKind {
    /// GL buffer objects.
    Buffer,
    /// GL textures.
    Texture,
    /// GL renderbuffers.
    Renderbuffer,
    /// GL framebuffers.
    Framebuffer,
    /// GL sampler objects.
    Sampler,
    /// GL programs.
    Program,
    /// GL shaders.
    Shader,
    /// GL vertex arrays.
    VertexArray,
    /// GL queries.
    Query,
    /// GL sync objects.
    Sync,
    /// GL transform feedback objects.
    TransformFeedback,
    /// Vulkan: host allocations the driver made for an object (scope `OBJECT`), live.
    DriverObject,
    /// Vulkan: host allocations of the driver of any scope, live.
    DriverAllocation,
}

impl NativeKind {
    /// Every kind, in order.
    pub const ALL: [NativeKind; KINDS] = [
        NativeKind::Buffer,
        NativeKind::Texture,
        NativeKind::Renderbuffer,
        NativeKind::Framebuffer,
        NativeKind::Sampler,
        NativeKind::Program,
        NativeKind::Shader,
        NativeKind::VertexArray,
        NativeKind::Query,
        NativeKind::Sync,
        NativeKind::TransformFeedback,
        NativeKind::DriverObject,
        NativeKind::DriverAllocation,
    ];

    /// The name used in logs, plural.
    pub fn name(self) -> &'static str {
        match self {
            NativeKind::Buffer => "buffers",
            NativeKind::Texture => "textures",
            NativeKind::Renderbuffer => "renderbuffers",
            NativeKind::Framebuffer => "framebuffers",
            NativeKind::Sampler => "samplers",
            NativeKind::Program => "programs",
            NativeKind::Shader => "shaders",
            NativeKind::VertexArray => "vertex arrays",
            NativeKind::Query => "queries",
            NativeKind::Sync => "syncs",
            NativeKind::TransformFeedback => "transform feedbacks",
            NativeKind::DriverObject => "driver object allocations",
            NativeKind::DriverAllocation => "driver host allocations",
        }
    }
}

/// Number of kinds.
pub const KINDS: usize = 13;

/// The process's live native objects of each kind, over every backend.
static PROCESS: Tally = Tally::new();

/// Threads that count on lanes at once; a thread beyond them counts with atomic additions.
const LANES: usize = 32;

/// One thread's counters of one tally: written by that thread alone.
#[repr(align(64))]
struct Lane([AtomicI64; KINDS]);

/// Live counts per kind: a shared counter any thread adds to atomically, and one lane per
/// counting thread.
struct Tally {
    shared: [AtomicI64; KINDS],
    lanes: [Lane; LANES],
}

impl Tally {
    const fn new() -> Self {
        Self {
            shared: [const { AtomicI64::new(0) }; KINDS],
            lanes: [const { Lane([const { AtomicI64::new(0) }; KINDS]) }; LANES],
        }
    }

    fn add(&self, kind: NativeKind, n: i64) {
        self.shared[kind as usize].fetch_add(n, Ordering::Relaxed);
    }

    /// Adds `n` on lane `lane`, which the calling thread owns ([`lane::index`]).
    #[inline]
    fn add_on(&self, lane: usize, kind: NativeKind, n: i64) {
        if let Some(l) = self.lanes.get(lane) {
            let c = &l.0[kind as usize];
            // The calling thread is the lane's only writer: no read-modify-write needed.
            c.store(c.load(Ordering::Relaxed).wrapping_add(n), Ordering::Relaxed);
        } else {
            self.add(kind, n);
        }
    }

    fn get(&self, kind: NativeKind) -> i64 {
        let lanes = self
            .lanes
            .iter()
            .map(|l| l.0[kind as usize].load(Ordering::Relaxed));
        self.shared[kind as usize].load(Ordering::Relaxed) + lanes.sum::<i64>()
    }
}

impl Default for Tally {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        NativeCounts(std::array::from_fn(|i| self.get(NativeKind::ALL[i]))).fmt(f)
    }
}

/// The lane each counting thread owns.
mod lane {
    use super::{AtomicU32, LANES, Ordering};

    /// Lanes owned by a live thread, one bit each.
    static TAKEN: AtomicU32 = AtomicU32::new(0);
    const _: () = assert!(LANES <= 32);

    /// A thread's lane, given back when the thread ends.
    struct Claim(Option<usize>);

    impl Claim {
        fn take() -> Self {
            let mut taken = TAKEN.load(Ordering::Relaxed);
            loop {
                let free = !taken;
                if free == 0 {
                    return Self(None);
                }
                let i = free.trailing_zeros();
                // Acquire: what the lane's last owner wrote before giving it back is seen
                // (its Release below), so this thread's plain additions continue from it.
                match TAKEN.compare_exchange_weak(
                    taken,
                    taken | 1 << i,
                    Ordering::Acquire,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => return Self(Some(i as usize)),
                    Err(now) => taken = now,
                }
            }
        }
    }

    impl Drop for Claim {
        fn drop(&mut self) {
            if let Some(i) = self.0 {
                TAKEN.fetch_and(!(1 << i), Ordering::Release);
            }
        }
    }

    thread_local! {
        static CLAIM: Claim = Claim::take();
    }

    /// The calling thread's lane; `None` when every lane is owned, or the thread is ending.
    #[inline]
    pub(super) fn index() -> Option<usize> {
        CLAIM.try_with(|c| c.0).ok().flatten()
    }
}

/// Counts of live native objects per kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NativeCounts(pub [i64; KINDS]);

impl NativeCounts {
    /// Objects of every kind together. `DriverAllocation` is left out when the census
    /// also counts `DriverObject`s (they are the same allocations, counted twice), unless
    /// it is the only kind left: a host allocation the driver kept past its instance.
    pub fn total(&self) -> i64 {
        let objects = self.0[NativeKind::DriverObject as usize];
        let all = self.0[NativeKind::DriverAllocation as usize];
        let named: i64 = self.0[..NativeKind::DriverObject as usize].iter().sum();
        named + objects.max(all)
    }

    /// The count of `kind`.
    pub fn get(&self, kind: NativeKind) -> i64 {
        self.0[kind as usize]
    }

    /// Whether nothing is counted.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|n| *n == 0)
    }
}

impl std::fmt::Display for NativeCounts {
    /// `0 native objects` or `3 native objects (2 buffers, 1 textures)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} native objects", self.total())?;
        let kinds: Vec<String> = NativeKind::ALL
            .iter()
            .filter(|k| self.get(**k) != 0)
            .map(|k| format!("{} {}", self.get(*k), k.name()))
            .collect();
        if !kinds.is_empty() {
            write!(f, " ({})", kinds.join(", "))?;
        }
        Ok(())
    }
}

/// One backend's live native objects per kind; cloned handles count into the same totals.
#[derive(Clone, Debug, Default)]
pub struct NativeCensus(Arc<Tally>);

impl NativeCensus {
    /// A census with nothing counted.
    pub fn new() -> Self {
        Self::default()
    }

    /// `n` objects of `kind` were created (negative: released).
    #[inline]
    pub fn add(&self, kind: NativeKind, n: i64) {
        self.0.add(kind, n);
        PROCESS.add(kind, n);
    }

    /// The calling thread's lane of this census, to count on without atomic
    /// read-modify-writes (see the module's docs).
    #[inline]
    pub fn here(&self) -> Here<'_> {
        Here {
            census: &self.0,
            lane: lane::index().unwrap_or(LANES),
            _thread: std::marker::PhantomData,
        }
    }

    /// One object of `kind` was created.
    #[inline]
    pub fn created(&self, kind: NativeKind) {
        self.add(kind, 1);
    }

    /// One object of `kind` was released.
    #[inline]
    pub fn released(&self, kind: NativeKind) {
        self.add(kind, -1);
    }

    /// Every object of `kind` went at once (with the context that held them).
    pub fn release_all(&self, kind: NativeKind) {
        let n = self.0.get(kind);
        self.add(kind, -n);
    }

    /// What is live now.
    pub fn live(&self) -> NativeCounts {
        NativeCounts(std::array::from_fn(|i| self.0.get(NativeKind::ALL[i])))
    }
}

/// A census seen from the thread that made it ([`NativeCensus::here`]); it does not leave
/// that thread.
pub struct Here<'a> {
    census: &'a Tally,
    /// The thread's lane; [`LANES`] when it has none (atomic additions then).
    lane: usize,
    /// Neither `Send` nor `Sync`: the lane has one writer, the thread that owns it.
    _thread: std::marker::PhantomData<*const ()>,
}

impl Here<'_> {
    /// `n` objects of `kind` were created (negative: released).
    #[inline]
    pub fn add(&self, kind: NativeKind, n: i64) {
        self.census.add_on(self.lane, kind, n);
        PROCESS.add_on(self.lane, kind, n);
    }
}

/// The live native objects of every backend of this process.
pub fn process_live() -> NativeCounts {
    NativeCounts(std::array::from_fn(|i| PROCESS.get(NativeKind::ALL[i])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_backend_and_per_process() {
        let before = process_live();
        let a = NativeCensus::new();
        let b = a.clone();
        a.created(NativeKind::Buffer);
        b.created(NativeKind::Buffer);
        a.created(NativeKind::Texture);
        assert_eq!(a.live().get(NativeKind::Buffer), 2);
        assert_eq!(a.live().total(), 3);
        assert_eq!(
            a.live().to_string(),
            "3 native objects (2 buffers, 1 textures)"
        );
        a.released(NativeKind::Texture);
        a.release_all(NativeKind::Buffer);
        assert!(a.live().is_zero());
        assert_eq!(a.live().to_string(), "0 native objects");
        // Other tests of the process may count meanwhile; this one's share is gone.
        let _ = before;
    }

    /// Counts made on lanes, by more threads at once than there are lanes (the rest count
    /// atomically) and by threads that reuse the lanes of ended ones, add up exactly.
    #[test]
    fn counts_on_lanes_add_up_across_threads() {
        let census = NativeCensus::new();
        for _round in 0..2 {
            let threads = LANES + 8;
            let barrier = std::sync::Barrier::new(threads);
            std::thread::scope(|s| {
                for t in 0..threads {
                    let (census, barrier) = (&census, &barrier);
                    s.spawn(move || {
                        // All alive at once: some find no lane.
                        barrier.wait();
                        let here = census.here();
                        for _ in 0..1000 {
                            here.add(NativeKind::DriverAllocation, 1);
                        }
                        here.add(NativeKind::DriverObject, t as i64);
                    });
                }
            });
        }
        let live = census.live();
        let threads = (LANES + 8) as i64;
        assert_eq!(live.get(NativeKind::DriverAllocation), 2 * 1000 * threads);
        assert_eq!(live.get(NativeKind::DriverObject), threads * (threads - 1));
        census.release_all(NativeKind::DriverAllocation);
        census.add(NativeKind::DriverObject, -threads * (threads - 1));
        assert!(census.live().is_zero(), "{}", census.live());
    }

    #[test]
    fn driver_allocations_are_not_counted_twice() {
        let mut c = NativeCounts::default();
        c.0[NativeKind::DriverObject as usize] = 2;
        c.0[NativeKind::DriverAllocation as usize] = 5;
        assert_eq!(c.total(), 5);
        c.0[NativeKind::DriverAllocation as usize] = 0;
        assert_eq!(c.total(), 2);
    }
}

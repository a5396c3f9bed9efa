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

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

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
static PROCESS: [AtomicI64; KINDS] = [const { AtomicI64::new(0) }; KINDS];

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
pub struct NativeCensus(Arc<[AtomicI64; KINDS]>);

impl NativeCensus {
    /// A census with nothing counted.
    pub fn new() -> Self {
        Self::default()
    }

    /// `n` objects of `kind` were created (negative: released).
    #[inline]
    pub fn add(&self, kind: NativeKind, n: i64) {
        self.0[kind as usize].fetch_add(n, Ordering::Relaxed);
        PROCESS[kind as usize].fetch_add(n, Ordering::Relaxed);
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
        let n = self.0[kind as usize].swap(0, Ordering::Relaxed);
        PROCESS[kind as usize].fetch_sub(n, Ordering::Relaxed);
    }

    /// What is live now.
    pub fn live(&self) -> NativeCounts {
        NativeCounts(std::array::from_fn(|i| self.0[i].load(Ordering::Relaxed)))
    }
}

/// The live native objects of every backend of this process.
pub fn process_live() -> NativeCounts {
    NativeCounts(std::array::from_fn(|i| PROCESS[i].load(Ordering::Relaxed)))
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

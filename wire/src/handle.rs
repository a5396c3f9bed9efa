//! Wire handles: `{slot, gen}` pairs minted by the client.
//!
//! A handle names one object of one kind for the lifetime of a session. The client allocates
//! `slot`s densely and reuses a freed slot with `gen + 1`, so creating an object needs no round
//! trip and a backend can keep every kind in a dense table indexed by `slot`. A record whose
//! handle `gen` does not match the live object in that slot is a protocol error for the
//! session, never undefined behaviour: the backend refuses the batch and reports it.
//!
//! Handles are never GL names and never addresses: GL names are recycled by the application
//! at will, addresses by the allocator, and a cache keyed by either serves stale objects (ABA).

use rkyv::{Archive, Deserialize, Serialize};

/// What kind of object a handle names; each kind has its own slot space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ObjectKind {
    /// A buffer object (vertex, index, uniform, pixel, texture buffer storage).
    Buffer,
    /// A texture object of any target.
    Texture,
    /// A renderbuffer.
    Renderbuffer,
    /// A framebuffer object (the default framebuffer is a [`ObjectKind::Surface`]).
    Framebuffer,
    /// A linked program.
    Program,
    /// A query object.
    Query,
    /// A fence (sync object).
    Fence,
    /// A surface: the images behind a default framebuffer.
    Surface,
    /// A blend-state CSO.
    BlendState,
    /// A depth-stencil-state CSO.
    DepthStencilState,
    /// A rasterizer-state CSO.
    RasterState,
    /// A sampler-state CSO.
    SamplerState,
    /// A vertex-layout CSO.
    VertexLayout,
    /// A transform feedback object: its capture's bindings and write positions.
    TransformFeedback,
}

impl ObjectKind {
    /// Number of kinds (for per-kind tables).
    pub const COUNT: usize = 14;

    /// Every kind, in declaration order.
    pub const ALL: [ObjectKind; Self::COUNT] = [
        ObjectKind::Buffer,
        ObjectKind::Texture,
        ObjectKind::Renderbuffer,
        ObjectKind::Framebuffer,
        ObjectKind::Program,
        ObjectKind::Query,
        ObjectKind::Fence,
        ObjectKind::Surface,
        ObjectKind::BlendState,
        ObjectKind::DepthStencilState,
        ObjectKind::RasterState,
        ObjectKind::SamplerState,
        ObjectKind::VertexLayout,
        ObjectKind::TransformFeedback,
    ];

    /// Index of this kind in per-kind tables.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A handle whose kind is only known at run time (used in errors and counters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RawHandle {
    /// Dense slot index.
    pub slot: u32,
    /// Generation of the slot; starts at 1, so `{0, 0}` is never a live handle.
    pub generation: u32,
}

impl std::fmt::Display for RawHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}v{}", self.slot, self.generation)
    }
}

/// Implemented by every typed handle.
pub trait Handle: Copy + Eq + std::fmt::Debug {
    /// The slot space this handle lives in.
    const KIND: ObjectKind;
    /// Builds the handle from its parts.
    fn from_raw(raw: RawHandle) -> Self;
    /// The handle's parts.
    fn raw(self) -> RawHandle;
}

macro_rules! handles {
    ($($(#[$doc:meta])* $name:ident => $kind:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[rkyv(derive(Debug, PartialEq, Eq, Hash), compare(PartialEq))]
        pub struct $name {
            /// Dense slot index.
            pub slot: u32,
            /// Generation of the slot.
            pub generation: u32,
        }

        impl Handle for $name {
            const KIND: ObjectKind = ObjectKind::$kind;
            fn from_raw(raw: RawHandle) -> Self {
                Self { slot: raw.slot, generation: raw.generation }
            }
            fn raw(self) -> RawHandle {
                RawHandle { slot: self.slot, generation: self.generation }
            }
        }

        impl $name {
            /// The handle as read from an archive.
            pub fn from_archived(a: &<Self as Archive>::Archived) -> Self {
                Self { slot: a.slot.to_native(), generation: a.generation.to_native() }
            }
        }
    )*};
}

handles! {
    /// A buffer object.
    BufferHandle => Buffer;
    /// A texture object.
    TextureHandle => Texture;
    /// A renderbuffer.
    RenderbufferHandle => Renderbuffer;
    /// A framebuffer object.
    FramebufferHandle => Framebuffer;
    /// A linked program.
    ProgramHandle => Program;
    /// A query object.
    QueryHandle => Query;
    /// A fence.
    FenceHandle => Fence;
    /// A surface (the images of a default framebuffer).
    SurfaceHandle => Surface;
    /// A blend-state CSO.
    BlendHandle => BlendState;
    /// A depth-stencil-state CSO.
    DepthStencilHandle => DepthStencilState;
    /// A rasterizer-state CSO.
    RasterHandle => RasterState;
    /// A sampler-state CSO.
    SamplerHandle => SamplerState;
    /// A vertex-layout CSO.
    VertexLayoutHandle => VertexLayout;
    /// A transform feedback object.
    TransformFeedbackHandle => TransformFeedback;
}

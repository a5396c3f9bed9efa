//! Dirty bits: one per setter group, in the order the validation systems run.
//!
//! A setter compares with the current value, stores, and sets one bit; it never hashes,
//! allocates or emits. At a verb the systems run over `dirty & verb_mask`, each turning its
//! group into records, then clear the bits they handled. The order of the flags is the order
//! of the systems: a group may depend only on groups before it (the framebuffer before the
//! draw-buffer mapping, the program before uniforms and textures).

use bitflags::bitflags;

bitflags! {
    /// Groups of context state whose records are out of date.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct Dirty: u32 {
        /// The bound draw framebuffer, or the attachments of the bound one.
        const FRAMEBUFFER = 1 << 0;
        /// The draw-buffer mapping of the bound draw framebuffer.
        const DRAW_BUFFERS = 1 << 1;
        /// Viewport and depth range.
        const VIEWPORT = 1 << 2;
        /// Scissor rectangle.
        const SCISSOR = 1 << 3;
        /// Inputs of the blend CSO (enables, functions, equations, colour masks, logic op,
        /// alpha-to-coverage).
        const BLEND = 1 << 4;
        /// Constant blend colour.
        const BLEND_COLOR = 1 << 5;
        /// Inputs of the depth-stencil CSO.
        const DEPTH_STENCIL = 1 << 6;
        /// Stencil reference values.
        const STENCIL_REF = 1 << 7;
        /// Inputs of the rasterizer CSO.
        const RASTER = 1 << 8;
        /// Polygon offset factor and units.
        const DEPTH_BIAS = 1 << 9;
        /// Line width.
        const LINE_WIDTH = 1 << 10;
        /// Point size.
        const POINT_SIZE = 1 << 11;
        /// Sample coverage and sample mask.
        const SAMPLE_MASK = 1 << 12;
        /// Primitive restart enable and index.
        const PRIMITIVE_RESTART = 1 << 13;
        /// The bound program.
        const PROGRAM = 1 << 14;
        /// Values of the bound program's default uniform block.
        const UNIFORMS = 1 << 15;
        /// Indexed uniform buffer bindings.
        const UNIFORM_BUFFERS = 1 << 16;
        /// Texture units (see `Context::dirty_units` for which).
        const TEXTURES = 1 << 17;
        /// The vertex layout of the bound vertex array.
        const VERTEX_LAYOUT = 1 << 18;
        /// Buffers and offsets of the bound vertex array's attributes.
        const VERTEX_BUFFERS = 1 << 19;
        /// The bound vertex array's element buffer.
        const INDEX_BUFFER = 1 << 20;
        /// Generic vertex attribute values.
        const GENERIC_ATTRIBS = 1 << 21;
        /// Something the cached draw-time error check depends on.
        const DRAW_CHECK = 1 << 22;
        /// Indexed shader storage buffer bindings.
        const STORAGE_BUFFERS = 1 << 23;
        /// Image units (`glBindImageTexture`) and the program's image uniforms.
        const IMAGES = 1 << 29;
        /// `PATCH_VERTICES`.
        const PATCH_VERTICES = 1 << 30;
    }
}

impl Dirty {
    /// Groups a draw needs up to date.
    pub const DRAW: Dirty = Dirty::all();
    /// Groups a clear needs: the target, its mapping, the scissor, and the masks (which live
    /// in the blend and depth-stencil CSOs), and the rasterizer state (scissor enable).
    pub const CLEAR: Dirty = Dirty::FRAMEBUFFER
        .union(Dirty::DRAW_BUFFERS)
        .union(Dirty::SCISSOR)
        .union(Dirty::BLEND)
        .union(Dirty::DEPTH_STENCIL)
        .union(Dirty::RASTER);
    /// Groups a blit needs: the destination and its mapping, scissor state.
    pub const BLIT: Dirty = Dirty::FRAMEBUFFER
        .union(Dirty::DRAW_BUFFERS)
        .union(Dirty::SCISSOR)
        .union(Dirty::RASTER);
    /// Groups a compute dispatch needs: the program and the resources it reads.
    pub const DISPATCH: Dirty = Dirty::PROGRAM
        .union(Dirty::UNIFORMS)
        .union(Dirty::UNIFORM_BUFFERS)
        .union(Dirty::TEXTURES)
        .union(Dirty::STORAGE_BUFFERS)
        .union(Dirty::IMAGES);
}

//! Contexts and verbs (`DrawPipe`): each Tessera context's *desired* state, and its
//! reconciliation with the native state at each verb.
//!
//! `Bind*` and `Set*` records only store values in the current [`GlesContext`] (the
//! dispatcher its `DesiredState`, `queue.rs` the bound CSOs' values) and set a dirty bit
//! ([`dirty`]). A verb (`Draw`, `DrawIndexed`, `Clear`, `ClearBuffer`, `Blit`,
//! `ReadPixels`, `CopyTexture`) reconciles the groups it depends on that are dirty, through
//! the [`NativeState`](crate::shadow::NativeState), which calls GL only for values that differ. All
//! Tessera contexts share the one native context: switching contexts marks every group dirty,
//! and native work done outside a reconcile (uploads binding textures, reads binding
//! framebuffers) marks the groups it touched in `GlesPipe::disturbed`.
//!
//! No `glGet*` or `glGetError` on any of these paths.

use glow::HasContext;
use tessera_wire::SessionError;
use tessera_wire::backend::bad_value;
use tessera_wire::context::DesiredState;
use tessera_wire::dispatch::{
    BlitArgs, ClearArgs, DrawArgs, DrawIndexedArgs, DrawIndirectArgs, DrawPipe, MultiDrawArgs, R,
};
use tessera_wire::format::{AttribType, FormatClass, IndexType, VertexFormat};
use tessera_wire::handle::{
    BufferHandle, Handle, ProgramHandle, QueryHandle, RawHandle, SurfaceHandle,
};
use tessera_wire::record::{ClearValue, DRAW_BUFFER_NONE, FramebufferRef, clear_mask};
use tessera_wire::state::{
    BlendState, DepthStencilState, MAX_DRAW_BUFFERS, MAX_STORAGE_BUFFER_BINDINGS,
    MAX_TEXTURE_UNITS, MAX_UNIFORM_BUFFER_BINDINGS, MAX_VERTEX_ATTRIBS, RasterState, VertexLayout,
};

use crate::conv;
use crate::device::{Features, GlesPipe, Missing};
use crate::program::{Flat, VertexInputs};
use crate::shadow::{AttribClass, Cap, NativeState, StencilNative};

/// Dirty groups of a context (and of `GlesPipe::disturbed`).
pub(crate) mod dirty {
    pub const FRAMEBUFFER: u32 = 1 << 0;
    pub const VIEWPORT: u32 = 1 << 1;
    pub const SCISSOR: u32 = 1 << 2;
    pub const BLEND: u32 = 1 << 3;
    pub const DEPTH_STENCIL: u32 = 1 << 4;
    pub const RASTER: u32 = 1 << 5;
    pub const PROGRAM: u32 = 1 << 6;
    pub const UNIFORMS: u32 = 1 << 7;
    pub const TEXTURES: u32 = 1 << 8;
    pub const UNIFORM_BUFFERS: u32 = 1 << 9;
    pub const VERTEX: u32 = 1 << 10;
    pub const STORAGE_BUFFERS: u32 = 1 << 11;
    pub const IMAGES: u32 = 1 << 12;
    pub const ALL: u32 = (1 << 13) - 1;
    /// What a compute dispatch depends on: the program and the resources it reads.
    pub const DISPATCH: u32 =
        PROGRAM | UNIFORMS | TEXTURES | UNIFORM_BUFFERS | STORAGE_BUFFERS | IMAGES;
    /// What a clear depends on: target, masks, scissor.
    pub const CLEAR: u32 = FRAMEBUFFER | SCISSOR | BLEND | DEPTH_STENCIL | RASTER;
}

/// What the native VAO of a context has at one attribute.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct VaoAttrib {
    enabled: bool,
    /// (buffer, offset, format, stride) of the pointer set.
    pointer: Option<(RawHandle, u64, VertexFormat, u32)>,
    divisor: u32,
}

/// A blend CSO with its factors and equations as the native calls take them, converted once
/// when the CSO is created rather than at every draw that binds it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NativeBlend {
    pub state: BlendState,
    /// Per draw buffer: source and destination factors of colour, then of alpha.
    pub funcs: [[u32; 4]; MAX_DRAW_BUFFERS],
    /// Per draw buffer: the colour and the alpha equation.
    pub equations: [[u32; 2]; MAX_DRAW_BUFFERS],
    /// A dual-source factor the native driver lacks was replaced by `ONE`.
    pub dual_source_missing: bool,
}

impl NativeBlend {
    pub fn new(state: BlendState, features: &Features) -> Self {
        let mut dual_source_missing = false;
        let mut factor = |f| {
            conv::map_blend_factor(f, features).unwrap_or_else(|| {
                dual_source_missing = true;
                glow::ONE
            })
        };
        let funcs = state.funcs.map(|f| {
            [
                factor(f.src_rgb),
                factor(f.dst_rgb),
                factor(f.src_alpha),
                factor(f.dst_alpha),
            ]
        });
        let equations = state
            .funcs
            .map(|f| [conv::map_blend_op(f.op_rgb), conv::map_blend_op(f.op_alpha)]);
        Self {
            state,
            funcs,
            equations,
            dual_source_missing,
        }
    }
}

/// The state one Tessera context wants: what its records set, and what this backend keeps
/// to reconcile it (the CSO values, the context's native VAO).
pub(crate) struct GlesContext {
    pub dirty: u32,
    pub desired: DesiredState,
    pub blend: NativeBlend,
    pub depth_stencil: DepthStencilState,
    pub raster: RasterState,
    /// Where `desired.uniforms` was last uploaded: (ring epoch, offset, size).
    uniform_upload: Option<(u64, i32, i32)>,
    pub layout: VertexLayout,
    /// Whether `layout` has attributes read from converted copies (`GL_BGRA` and packed
    /// floats: `vertex.rs`).
    pub bgra: bool,
    /// Bit `i`: `layout` enables attribute `i` (it has components).
    pub layout_attribs: u16,
    /// The context's native vertex array object.
    pub vao: glow::VertexArray,
    vao_attribs: [VaoAttrib; MAX_VERTEX_ATTRIBS],
    /// Bit `i`: `vao_attribs[i].enabled`.
    vao_enabled: u16,
    vao_index: Option<RawHandle>,
    /// The device epoch this context's framebuffer attachments were checked at.
    seen_epoch: u64,
    /// `GlesPipe::validity` when a draw's reconcile last left every group clean with a
    /// framebuffer and a usable program bound (and no `GL_BGRA` attribute to re-check); 0
    /// when it did not. While it matches and nothing is dirty, a draw has nothing to
    /// reconcile ([`GlesPipe::prepare`]).
    ready_at: u64,
    /// The transform feedback capture this context began (`xfb.rs`).
    pub xfb: Option<tessera_wire::handle::TransformFeedbackHandle>,
    /// The bound program has storage blocks: its draws may write buffers.
    writes_storage: bool,
    /// A conditional render whose condition failed is active: draws, clears, blits and
    /// dispatches do nothing (`condition.rs`).
    pub discarding: bool,
}

impl GlesContext {
    /// A context at GL's initial state, with its own native VAO.
    pub fn new(vao: glow::VertexArray) -> Self {
        Self {
            dirty: dirty::ALL,
            desired: DesiredState::default(),
            blend: NativeBlend::new(BlendState::default(), &Features::default()),
            depth_stencil: DepthStencilState::default(),
            raster: RasterState::default(),
            uniform_upload: None,
            layout: VertexLayout::default(),
            bgra: false,
            layout_attribs: 0,
            vao,
            vao_attribs: [VaoAttrib::default(); MAX_VERTEX_ATTRIBS],
            vao_enabled: 0,
            vao_index: None,
            seen_epoch: 0,
            ready_at: 0,
            xfb: None,
            writes_storage: false,
            discarding: false,
        }
    }

    /// `SetUniforms` gave the bound program new bytes (in `desired.uniforms`): they must
    /// be uploaded again.
    pub fn uniforms_changed(&mut self) {
        self.uniform_upload = None;
    }
}

/// The streaming buffer the default uniform blocks that are not plain uniforms
/// (`program.rs`'s `PlainUniforms`) live in: written front to back in
/// `UNIFORM_BUFFER_OFFSET_ALIGNMENT` steps, orphaned (`glBufferData(NULL)`) when it wraps so
/// that the driver never waits for draws still reading the old contents.
pub(crate) struct UniformRing {
    buffer: glow::Buffer,
    size: u32,
    head: u32,
    /// Moves at each orphaning: uploads of an older epoch are gone.
    epoch: u64,
    scratch: Vec<u8>,
}

const RING_INITIAL: u32 = 256 << 10;

impl UniformRing {
    fn new(dev: &mut GlesPipe) -> Result<Self, SessionError> {
        // SAFETY: context current; glGenBuffers has no preconditions.
        let buffer = unsafe { dev.gl.create_buffer() }
            .map_err(|e| SessionError::Backend(format!("uniform ring: {e}")))?;
        let mut ring = Self {
            buffer,
            size: 0,
            head: 0,
            epoch: 0,
            scratch: Vec::new(),
        };
        ring.orphan(&mut dev.shadow, &dev.gl, RING_INITIAL);
        Ok(ring)
    }

    #[cold]
    fn orphan(&mut self, shadow: &mut NativeState, gl: &glow::Context, size: u32) {
        shadow.bind_buffer(gl, glow::COPY_WRITE_BUFFER, Some(self.buffer));
        // SAFETY: context current; the ring is bound to COPY_WRITE_BUFFER; a size that fits
        // GLsizeiptr, no data.
        unsafe { gl.buffer_data_size(glow::COPY_WRITE_BUFFER, size as i32, glow::STREAM_DRAW) };
        self.size = size;
        self.head = 0;
        self.epoch += 1;
    }

    /// Writes `data`, zero-padded or cut to `size` bytes; returns the offset.
    fn push(
        &mut self,
        shadow: &mut NativeState,
        gl: &glow::Context,
        align: u32,
        data: &[u8],
        size: u32,
    ) -> i32 {
        if size > self.size / 4 {
            let grown = (size * 4).next_power_of_two().max(RING_INITIAL);
            self.orphan(shadow, gl, grown);
        } else if self.head + size > self.size {
            let current = self.size;
            self.orphan(shadow, gl, current);
        }
        let offset = self.head;
        let bytes = match data.get(..size as usize) {
            Some(bytes) => bytes,
            None => {
                self.scratch.clear();
                self.scratch.extend_from_slice(data);
                self.scratch.resize(size as usize, 0);
                &self.scratch
            }
        };
        shadow.bind_buffer(gl, glow::COPY_WRITE_BUFFER, Some(self.buffer));
        // SAFETY: context current; the ring is bound to COPY_WRITE_BUFFER; offset + size <=
        // the ring's size (ensured above).
        unsafe { gl.buffer_sub_data_u8_slice(glow::COPY_WRITE_BUFFER, offset as i32, bytes) };
        self.head = (offset + size).next_multiple_of(align);
        offset as i32
    }
}

/// Counts (or offsets) as GL's `GLsizei`/`GLint`; `BadValue` beyond 31 bits.
#[inline]
fn gl_counts<T: Copy, const N: usize>(
    record: &'static str,
    values: [T; N],
) -> Result<[i32; N], SessionError>
where
    i32: TryFrom<T>,
{
    let mut out = [0; N];
    for (o, v) in out.iter_mut().zip(values) {
        match i32::try_from(v) {
            Ok(v) => *o = v,
            Err(_) => return Err(counts_too_large(record)),
        }
    }
    Ok(out)
}

#[cold]
#[inline(never)]
fn counts_too_large(record: &'static str) -> SessionError {
    bad_value(record, "counts beyond 31 bits")
}

/// What a reconcile takes from the bound program (copied out of its table entry).
#[derive(Clone)]
struct Bound {
    handle: ProgramHandle,
    native: glow::Program,
    block_size: u32,
    /// Where the default block's scalars move when its doubles are narrowed (`narrow.rs`).
    repack: Option<std::sync::Arc<crate::narrow::Repack>>,
    /// Where the default block's bytes go as plain uniforms (`program.rs`).
    plain: Option<std::sync::Arc<crate::program::PlainUniforms>>,
    samplers: usize,
    blocks: usize,
    storage_blocks: usize,
    images: usize,
    inputs: VertexInputs,
    lod_bias: Option<glow::UniformLocation>,
    texture_queries: Option<crate::texture_query::Locations>,
    point_origin: Option<glow::UniformLocation>,
}

/// The first and last of elements `start..end` that a stage reads, where bit `e` of `reads`
/// says whether it reads element `e` and elements from 64 on are always read; `None` if it
/// reads none of them.
fn read_span(reads: u64, start: usize, end: usize) -> Option<(usize, usize)> {
    let low_end = end.min(64);
    let low = if start < low_end {
        reads & (u64::MAX >> (64 - (low_end - start))) << start
    } else {
        0
    };
    let first = match (low, end > 64) {
        (0, false) => return None,
        (0, true) => start.max(64),
        _ => low.trailing_zeros() as usize,
    };
    let last = if end > 64 {
        end - 1
    } else {
        63 - low.leading_zeros() as usize
    };
    Some((first, last))
}

impl GlesPipe {
    /// Reconciles the groups of `mask` that are dirty. `false`: the verb has nothing to do
    /// (no framebuffer, or no usable program for a draw).
    ///
    /// The common case is inline: nothing of `mask` is dirty, and the context's last draw
    /// found a framebuffer and a usable program that nothing has invalidated since
    /// (`ready_at`), so there is nothing to call. Everything else is [`Self::reconcile`].
    #[inline]
    pub(crate) fn prepare(
        &mut self,
        record: &'static str,
        ctx: &mut GlesContext,
        mask: u32,
    ) -> Result<bool, SessionError> {
        if (ctx.dirty | self.disturbed) & mask == 0
            && ctx.ready_at == self.validity
            && ctx.seen_epoch == self.epoch
        {
            self.storage_written |= ctx.writes_storage;
            return Ok(true);
        }
        let ready = self.reconcile(record, ctx, mask)?;
        self.storage_written |= ready && ctx.writes_storage;
        Ok(ready)
    }

    /// Orders the storage-buffer writes of earlier draws and dispatches before a read or
    /// copy of buffer bytes, as GL drivers do for programs that read without
    /// `glMemoryBarrier` (llvmpipe's GLES leaves a fragment stage's writes unflushed
    /// otherwise).
    pub(crate) fn storage_barrier(&mut self) {
        if std::mem::take(&mut self.storage_written) {
            // SAFETY: context current; ALL_BARRIER_BITS is valid on GLES 3.1 (a backend
            // whose programs have storage blocks has it).
            unsafe { self.gl.memory_barrier(glow::ALL_BARRIER_BITS) };
        }
    }

    /// [`Self::prepare`] when something may need native calls.
    #[inline(never)]
    fn reconcile(
        &mut self,
        record: &'static str,
        ctx: &mut GlesContext,
        mask: u32,
    ) -> Result<bool, SessionError> {
        ctx.ready_at = 0;
        if ctx.seen_epoch != self.epoch {
            ctx.seen_epoch = self.epoch;
            ctx.dirty |= dirty::FRAMEBUFFER | dirty::TEXTURES;
        }
        let todo = mask & (ctx.dirty | self.disturbed);
        if ctx.desired.framebuffer == FramebufferRef::None {
            self.shadow.bind_draw_framebuffer(&self.gl, None);
            return Ok(false);
        }
        if todo & dirty::FRAMEBUFFER != 0 && !self.sync_draw_framebuffer(record, ctx)? {
            // The bound framebuffer was destroyed: nothing to draw into until rebound.
            return Ok(false);
        }
        if todo & dirty::VIEWPORT != 0 {
            let v = &ctx.desired.viewports;
            if self.extra.viewport_arrays.is_none() && v.iter().any(|x| x != &v[0]) {
                self.report(
                    Missing::ViewportArray,
                    "viewport arrays need OES_viewport_array: viewport 0 applies to all",
                );
            }
            self.shadow.viewports(&self.gl, v);
        }
        if todo & dirty::SCISSOR != 0 {
            let s = &ctx.desired.scissors;
            if self.extra.viewport_arrays.is_none() && s.iter().any(|x| x != &s[0]) {
                self.report(
                    Missing::ViewportArray,
                    "viewport arrays need OES_viewport_array: scissor rectangle 0 applies to all",
                );
            }
            let rects = s.map(|r| [r.x, r.y, r.width, r.height]);
            self.shadow.scissors(&self.gl, &rects);
        }
        if todo & dirty::BLEND != 0 {
            self.apply_blend(ctx);
        }
        if todo & dirty::DEPTH_STENCIL != 0 {
            self.apply_depth_stencil(ctx);
        }
        if todo & dirty::RASTER != 0 {
            self.apply_raster(ctx);
        }
        const FIXED: u32 = dirty::FRAMEBUFFER
            | dirty::VIEWPORT
            | dirty::SCISSOR
            | dirty::BLEND
            | dirty::DEPTH_STENCIL
            | dirty::RASTER;
        ctx.dirty &= !(todo & FIXED);
        self.disturbed &= !(todo & FIXED);
        if mask & dirty::PROGRAM == 0 {
            return Ok(true);
        }
        let Some(program) = self.bound_program(record, ctx) else {
            return Ok(false);
        };
        if todo & dirty::PROGRAM != 0 {
            self.shadow.use_program(&self.gl, Some(program.native));
        }
        ctx.writes_storage = program.storage_blocks > 0 || program.images > 0;
        if todo & (dirty::PROGRAM | dirty::UNIFORMS) != 0
            || ctx
                .uniform_upload
                .is_some_and(|u| self.ring.as_ref().is_some_and(|r| r.epoch != u.0))
        {
            self.apply_uniforms(ctx, &program)?;
        }
        if todo & (dirty::PROGRAM | dirty::TEXTURES) != 0 {
            self.apply_textures(record, ctx, &program)?;
        }
        // Checked at every reconcile, not only with RASTER dirty: a clear reconciles (and
        // clears) RASTER without the program.
        if let Some(location) = program.point_origin {
            let lower_left = ctx.raster.point_origin_lower_left;
            self.apply_point_origin((location, program.native), lower_left);
        }
        if todo & (dirty::PROGRAM | dirty::UNIFORM_BUFFERS) != 0 {
            self.apply_uniform_buffers(record, ctx, program.blocks)?;
        }
        if todo & (dirty::PROGRAM | dirty::STORAGE_BUFFERS) != 0 {
            self.apply_storage_buffers(record, ctx, program.storage_blocks)?;
        }
        if todo & (dirty::PROGRAM | dirty::IMAGES) != 0 {
            self.apply_images(record, ctx, program.images)?;
        }
        // BGRA attributes read copies that a buffer write makes stale without any record
        // of the context's: their check runs at every draw.
        if todo & (dirty::PROGRAM | dirty::VERTEX) != 0 || ctx.bgra {
            self.apply_vertex(record, ctx, &program.inputs)?;
        }
        ctx.dirty &= !todo;
        self.disturbed &= !todo;
        if mask == dirty::ALL && !ctx.bgra {
            ctx.ready_at = self.validity;
        }
        Ok(true)
    }

    /// The bound program's values, if it can draw: `None` for no program, a dangling
    /// binding (destroyed since: it draws nothing, as no program does) or a program the
    /// driver refused.
    fn bound_program(&self, record: &'static str, ctx: &GlesContext) -> Option<Bound> {
        let handle = ctx.desired.program?;
        let program = self.programs.get(record, handle).ok()?;
        Some(Bound {
            handle,
            native: program.native?,
            block_size: program.default_block_size,
            repack: program.repack.clone(),
            plain: program.plain.clone(),
            samplers: program.sampler_targets.len(),
            blocks: program.uniform_blocks.len(),
            storage_blocks: program.storage_blocks,
            images: program.images,
            inputs: program.inputs,
            lod_bias: program.lod_bias,
            texture_queries: program.texture_queries,
            point_origin: program.point_origin,
        })
    }

    fn apply_blend(&mut self, ctx: &GlesContext) {
        let native = &ctx.blend;
        let b = &native.state;
        let buffers = self.limits.draw_buffers;
        if b.logic_op.is_some() {
            self.report(
                Missing::LogicOp,
                "GLES has no colour logic operations: blending state used instead",
            );
        }
        if b.alpha_to_one {
            self.report(
                Missing::AlphaToOne,
                "GLES has no SAMPLE_ALPHA_TO_ONE: ignored",
            );
        }
        if !self.features.draw_buffers_indexed
            && b.enable_mask != 0
            && b.enable_mask != 0xff
            && b.enable_mask != 1
        {
            self.report(Missing::IndexedBlend, "per-draw-buffer blend enables need ES 3.2 or OES_draw_buffers_indexed: draw buffer 0's applies to all");
        }
        if native.dual_source_missing {
            self.report(
                Missing::DualSourceBlend,
                "dual-source blend factors need EXT_blend_func_extended: ONE instead",
            );
        }
        if !self.features.draw_buffers_indexed
            && b.funcs[..buffers.clamp(1, 8)]
                .iter()
                .enumerate()
                .any(|(i, f)| b.enable_mask & (1 << i) != 0 && *f != b.funcs[0])
        {
            self.report(Missing::IndexedBlend, "per-draw-buffer blend functions need ES 3.2 or OES_draw_buffers_indexed: draw buffer 0's applies to all");
        }
        let gl = &self.gl;
        self.shadow.blend_enables(gl, b.enable_mask, buffers);
        self.shadow
            .blend_funcs(gl, &native.funcs, &native.equations, b.enable_mask, buffers);
        self.shadow.blend_color(gl, ctx.desired.blend_color);
        self.shadow.color_masks(gl, b.color_write_mask, buffers);
        self.shadow
            .enable(gl, Cap::AlphaToCoverage, b.alpha_to_coverage);
    }

    fn apply_depth_stencil(&mut self, ctx: &GlesContext) {
        let d = ctx.depth_stencil;
        let gl = &self.gl;
        self.shadow.enable(gl, Cap::DepthTest, d.depth_test);
        self.shadow
            .depth(gl, conv::map_compare_func(d.depth_func), d.depth_write);
        self.shadow.enable(gl, Cap::StencilTest, d.stencil_test);
        let face = |f: &tessera_wire::state::StencilFace, reference: u8| StencilNative {
            func: conv::map_compare_func(f.func),
            reference: i32::from(reference),
            read_mask: u32::from(f.read_mask),
            ops: [
                conv::map_stencil_op(f.fail),
                conv::map_stencil_op(f.depth_fail),
                conv::map_stencil_op(f.pass),
            ],
            write_mask: u32::from(f.write_mask),
        };
        let faces = [
            face(&d.front, ctx.desired.stencil_ref.0),
            face(&d.back, ctx.desired.stencil_ref.1),
        ];
        self.shadow.stencil(gl, faces);
    }

    fn apply_raster(&mut self, ctx: &GlesContext) {
        let r: RasterState = ctx.raster;
        use tessera_wire::format::{CullMode, PolygonMode};
        if r.polygon_mode != PolygonMode::Fill {
            self.report(
                Missing::PolygonMode,
                "GLES has no polygon mode: polygons are filled",
            );
        }
        if r.offset_enable & 0b110 != 0 {
            self.report(
                Missing::PolygonOffsetLinePoint,
                "GLES has no POLYGON_OFFSET_LINE/POINT: ignored",
            );
        }
        if r.depth_clamp && !self.features.depth_clamp {
            self.report(
                Missing::DepthClamp,
                "no EXT_depth_clamp: depth is clipped, not clamped",
            );
        }
        if !r.multisample {
            self.report(
                Missing::MultisampleOff,
                "GLES cannot disable multisampling: MULTISAMPLE stays on",
            );
        }
        if r.line_smooth {
            self.report(Missing::LineSmooth, "GLES has no LINE_SMOOTH: ignored");
        }
        if r.polygon_smooth {
            self.report(
                Missing::PolygonSmooth,
                "GLES has no POLYGON_SMOOTH: ignored",
            );
        }
        if r.sample_shading && self.extra.min_sample_shading.is_none() {
            self.report(
                Missing::SampleShading,
                "per-sample shading needs ES 3.2 or OES_sample_shading: shaded per pixel",
            );
        }
        if r.clip_distance_mask != 0 && !self.features.clip_distance {
            self.report(
                Missing::ClipDistance,
                "no EXT_clip_cull_distance: clip distances ignored",
            );
        }
        if self.extra.viewport_arrays.is_none() && r.scissor != 0 && r.scissor != u16::MAX {
            self.report(
                Missing::ViewportArray,
                "per-viewport scissor tests need OES_viewport_array: index 0's applies to all",
            );
        }
        let gl = &self.gl;
        let sh = &mut self.shadow;
        sh.enable(gl, Cap::CullFace, r.cull != CullMode::None);
        let cull = match r.cull {
            CullMode::Front => glow::FRONT,
            CullMode::FrontAndBack => glow::FRONT_AND_BACK,
            CullMode::Back | CullMode::None => glow::BACK,
        };
        sh.cull(gl, cull, if r.front_ccw { glow::CCW } else { glow::CW });
        sh.enable(gl, Cap::PolygonOffsetFill, r.offset_enable & 1 != 0);
        let (factor, units, clamp) = ctx.desired.depth_bias;
        sh.polygon_offset(gl, factor, units, clamp, self.extra.polygon_offset_clamp);
        if self.features.depth_clamp {
            sh.enable(gl, Cap::DepthClamp, r.depth_clamp);
        }
        if self.features.srgb_write_control {
            sh.enable(gl, Cap::FramebufferSrgb, r.framebuffer_srgb);
        }
        sh.enable(gl, Cap::RasterizerDiscard, r.rasterizer_discard);
        sh.scissor_enables(gl, r.scissor);
        sh.enable(gl, Cap::Dither, r.dither);
        if let Some(f) = self.extra.min_sample_shading {
            sh.enable(gl, Cap::SampleShading, r.sample_shading);
            sh.min_sample_shading(f32::from_bits(r.min_sample_shading), f);
        }
        sh.line_width(gl, ctx.desired.line_width);
        if self.features.tessellation.is_some() {
            sh.patch_vertices(gl, ctx.desired.patch_vertices);
        }
        if let Some(f) = self.extra.clip_control {
            let origin = if r.clip_upper_left {
                glow::UPPER_LEFT
            } else {
                glow::LOWER_LEFT
            };
            let depth = if r.clip_zero_to_one {
                glow::ZERO_TO_ONE
            } else {
                glow::NEGATIVE_ONE_TO_ONE
            };
            sh.clip_control(origin, depth, f);
        }
        let (coverage, invert, mask) = ctx.desired.sample_mask;
        sh.enable(gl, Cap::SampleCoverage, coverage.is_some());
        if let Some(v) = coverage {
            sh.sample_coverage(gl, v, invert);
        }
        if self.features.minor >= 1 {
            sh.enable(gl, Cap::SampleMask, mask.is_some());
            if let Some(m) = mask {
                sh.sample_mask(m, self.extra.sample_maski);
            }
        }
    }

    /// Gives the bound program its default block (its doubles narrowed to floats on the
    /// way where it has a `repack`): the elements of its plain uniform arrays that differ
    /// from what the native program holds, and a range of the uniform ring for the stages
    /// that read it as a uniform block (`program.rs`'s `PlainUniforms`).
    fn apply_uniforms(
        &mut self,
        ctx: &mut GlesContext,
        program: &Bound,
    ) -> Result<(), SessionError> {
        let size = program.block_size;
        if size == 0 {
            return Ok(());
        }
        let narrowed = program.repack.as_deref().map(|r| {
            let block = &ctx.desired.uniforms;
            let mut bytes = Vec::new();
            r.apply(&block[..(size as usize).min(block.len())], &mut bytes);
            bytes
        });
        let (bytes, size) = match &narrowed {
            Some(b) => (&b[..], b.len() as u32),
            None => (&ctx.desired.uniforms[..], size),
        };
        if let Some(plain) = &program.plain {
            let bytes = &bytes[..(size as usize).min(bytes.len())];
            self.apply_plain_uniforms(program.native, plain, bytes);
            if !plain.ring {
                return Ok(());
            }
        }
        if self.ring.is_none() {
            self.ring = Some(UniformRing::new(self)?);
        }
        let Some(ring) = self.ring.as_mut() else {
            crate::device::backend_bug("the uniform ring was just made")
        };
        let upload = match ctx.uniform_upload {
            Some((epoch, offset, len)) if epoch == ring.epoch && len == size as i32 => {
                (offset, len)
            }
            _ => {
                let epoch = ring.epoch;
                let align = self.limits.uniform_align;
                let offset = ring.push(&mut self.shadow, &self.gl, align, bytes, size);
                if ring.epoch != epoch {
                    // Other contexts' uploads are gone with the old storage.
                    self.validity += 1;
                }
                ctx.uniform_upload = Some((ring.epoch, offset, size as i32));
                (offset, size as i32)
            }
        };
        let buffer = ring.buffer;
        self.shadow
            .bind_uniform_range(&self.gl, 0, Some((buffer, upload.0, upload.1)));
        Ok(())
    }

    /// Sets the elements of `native`'s plain uniform arrays whose words differ from
    /// `bytes` (missing bytes read as zeros): one `glUniform4*v` per run of changed
    /// elements and array. `native` is current. Allocates only the first time.
    fn apply_plain_uniforms(
        &mut self,
        native: glow::Program,
        plain: &crate::program::PlainUniforms,
        bytes: &[u8],
    ) {
        let count = plain.vec4s as usize;
        let held = self.program_cache.plain_held.entry(native).or_default();
        // Not set yet: every element differs (from zeros, the held value, so it must be
        // compared with anything but the bytes).
        let fresh = held.len() != count;
        if fresh {
            held.clear();
            held.resize(count, [0; 4]);
        }
        // Element `e` of `bytes` and of `held` as one number, compared at once (missing
        // bytes read as zeros).
        let wanted = |e: usize| -> u128 {
            match bytes
                .get(16 * e..16 * e + 16)
                .and_then(|b| <[u8; 16]>::try_from(b).ok())
            {
                Some(b) => u128::from_le_bytes(b),
                None => {
                    let mut block = [0u8; 16];
                    let from = bytes.len().min(16 * e);
                    block[..bytes.len() - from].copy_from_slice(&bytes[from..]);
                    u128::from_le_bytes(block)
                }
            }
        };
        let number = |words: [u32; 4]| {
            let [a, b, c, d] = words.map(u128::from);
            a | b << 32 | c << 64 | d << 96
        };
        let words = |v: u128| std::array::from_fn(|k| (v >> (32 * k)) as u32);
        let mut element = 0;
        while element < count {
            let value = wanted(element);
            if !fresh && number(held[element]) == value {
                element += 1;
                continue;
            }
            // A run of changed elements: `start..element`.
            let start = element;
            held[element] = words(value);
            element += 1;
            while element < count {
                let value = wanted(element);
                if !fresh && number(held[element]) == value {
                    break;
                }
                held[element] = words(value);
                element += 1;
            }
            for array in &plain.arrays {
                // Elements this stage does not read stay as they are.
                let end = element.min(array.len as usize);
                let Some((first, last)) = read_span(array.reads, start, end) else {
                    continue;
                };
                let end = last + 1;
                let (from, location) = if array.consecutive {
                    let l = array.location.0 + first as u32;
                    (first, glow::NativeUniformLocation(l))
                } else {
                    (0, array.location)
                };
                let values = held[from..end].as_flattened();
                // SAFETY: context current; `native` is current (prepare made it so) and
                // `location` is element `from` of its array of `array.len` elements of
                // `array.kind`, given `end - from` elements within it. Floats are set from
                // their bits: `f32` and `u32` have one size and alignment.
                unsafe {
                    match array.kind {
                        glow::INT_VEC4 => {
                            let v = std::slice::from_raw_parts(
                                values.as_ptr().cast::<i32>(),
                                values.len(),
                            );
                            self.gl.uniform_4_i32_slice(Some(&location), v);
                        }
                        glow::UNSIGNED_INT_VEC4 => {
                            self.gl.uniform_4_u32_slice(Some(&location), values);
                        }
                        _ => {
                            let v = std::slice::from_raw_parts(
                                values.as_ptr().cast::<f32>(),
                                values.len(),
                            );
                            self.gl.uniform_4_f32_slice(Some(&location), v);
                        }
                    }
                }
            }
        }
    }

    fn apply_textures(
        &mut self,
        record: &'static str,
        ctx: &GlesContext,
        program: &Bound,
    ) -> Result<(), SessionError> {
        let count = program.samplers;
        let units = self.limits.texture_units.min(MAX_TEXTURE_UNITS);
        if count > units {
            self.report(Missing::TextureUnits, "the program has more samplers than native texture units: the extra ones read nothing");
        }
        for s in 0..count.min(units) {
            let (texture, sampler) = ctx.desired.textures[s];
            // Bindings left dangling by a destroy read as unbound.
            let live = texture.and_then(|h| self.textures.get(record, h).ok());
            let (tex_target, name) = match live {
                Some(t) => (t.target, Some(t.name)),
                None => {
                    let target = self.programs.get(record, program.handle)?.sampler_targets[s];
                    (target, self.placeholder(target))
                }
            };
            self.shadow.bind_texture(&self.gl, s, tex_target, name);
            let sampler = sampler.and_then(|h| self.samplers.get(record, h).ok().map(|s| s.name));
            self.shadow.bind_sampler(&self.gl, s, sampler);
        }
        if let Some(location) = program.lod_bias {
            self.apply_lod_biases(record, ctx, (location, program.native), count);
        }
        if let Some(locations) = program.texture_queries {
            self.apply_texture_queries(record, ctx, (locations, program.native), count);
        }
        Ok(())
    }

    fn apply_uniform_buffers(
        &mut self,
        record: &'static str,
        ctx: &GlesContext,
        blocks: usize,
    ) -> Result<(), SessionError> {
        for i in 0..blocks.min(MAX_UNIFORM_BUFFER_BINDINGS) {
            let (buffer, offset, size) = ctx.desired.uniform_buffers[i];
            // A dangling binding, or a range the buffer no longer holds (respecified
            // smaller), binds nothing: GL leaves such reads undefined, the driver must not
            // read past the storage.
            let range = buffer.and_then(|h| {
                let whole = self.buffers.get(record, h).ok()?.size;
                let size = if size == 0 {
                    whole.saturating_sub(offset)
                } else {
                    size
                };
                let name = self.buffers.get_range(record, h, offset, size).ok()?.name;
                Some((name, i32::try_from(offset).ok()?, i32::try_from(size).ok()?))
            });
            self.shadow.bind_uniform_range(&self.gl, 1 + i, range);
        }
        Ok(())
    }

    /// Binds the ranges of the program's shader storage blocks: slot `k` at native binding
    /// `k` (program.rs).
    fn apply_storage_buffers(
        &mut self,
        record: &'static str,
        ctx: &GlesContext,
        blocks: usize,
    ) -> Result<(), SessionError> {
        for k in 0..blocks.min(MAX_STORAGE_BUFFER_BINDINGS) {
            let (buffer, offset, size) = ctx.desired.storage_buffers[k];
            // As for uniform buffers: a dangling binding or a range past the storage binds
            // nothing.
            let range = buffer.and_then(|h| {
                let whole = self.buffers.get(record, h).ok()?.size;
                let size = if size == 0 {
                    whole.saturating_sub(offset)
                } else {
                    size
                };
                let name = self.buffers.get_range(record, h, offset, size).ok()?.name;
                Some((name, i32::try_from(offset).ok()?, i32::try_from(size).ok()?))
            });
            // SAFETY: context current; `k` < MAX_STORAGE_BUFFER_BINDINGS, which the engine
            // reports only within the driver's MAX_SHADER_STORAGE_BUFFER_BINDINGS
            // (device.rs); the range lies in the buffer (checked above) and its offset
            // meets the driver's alignment (the engine reports it).
            unsafe {
                match range {
                    Some((name, offset, size)) => self.gl.bind_buffer_range(
                        glow::SHADER_STORAGE_BUFFER,
                        k as u32,
                        Some(name),
                        offset,
                        size,
                    ),
                    None => self
                        .gl
                        .bind_buffer_base(glow::SHADER_STORAGE_BUFFER, k as u32, None),
                }
            }
        }
        Ok(())
    }

    /// Reconciles what a compute dispatch reads (the program and its resources; no
    /// framebuffer). `false`: no usable compute program is bound.
    pub(crate) fn prepare_dispatch(
        &mut self,
        record: &'static str,
        ctx: &mut GlesContext,
    ) -> Result<bool, SessionError> {
        // A draw's fast path must reconcile again after what this changes natively.
        ctx.ready_at = 0;
        if ctx.seen_epoch != self.epoch {
            ctx.seen_epoch = self.epoch;
            ctx.dirty |= dirty::FRAMEBUFFER | dirty::TEXTURES;
        }
        let todo = dirty::DISPATCH & (ctx.dirty | self.disturbed);
        let Some(program) = self.bound_program(record, ctx) else {
            return Ok(false);
        };
        if todo & dirty::PROGRAM != 0 {
            self.shadow.use_program(&self.gl, Some(program.native));
        }
        if todo & (dirty::PROGRAM | dirty::UNIFORMS) != 0
            || ctx
                .uniform_upload
                .is_some_and(|u| self.ring.as_ref().is_some_and(|r| r.epoch != u.0))
        {
            self.apply_uniforms(ctx, &program)?;
        }
        if todo & (dirty::PROGRAM | dirty::TEXTURES) != 0 {
            self.apply_textures(record, ctx, &program)?;
        }
        if todo & (dirty::PROGRAM | dirty::UNIFORM_BUFFERS) != 0 {
            self.apply_uniform_buffers(record, ctx, program.blocks)?;
        }
        if todo & (dirty::PROGRAM | dirty::STORAGE_BUFFERS) != 0 {
            self.apply_storage_buffers(record, ctx, program.storage_blocks)?;
        }
        if todo & (dirty::PROGRAM | dirty::IMAGES) != 0 {
            self.apply_images(record, ctx, program.images)?;
        }
        ctx.dirty &= !todo;
        self.disturbed &= !todo;
        self.storage_written |= program.storage_blocks > 0 || program.images > 0;
        Ok(true)
    }

    /// Reconciles the context's VAO and the generic attribute values with its vertex
    /// layout, buffers and generic values, for a program that reads `inputs`. Only the
    /// attributes that can matter are visited: those the layout enables, those enabled
    /// natively (to disable them) and those the program reads (their generic values).
    /// The others hold nothing natively and are read by nothing.
    fn apply_vertex(
        &mut self,
        record: &'static str,
        ctx: &mut GlesContext,
        inputs: &VertexInputs,
    ) -> Result<(), SessionError> {
        self.shadow.bind_vao(&self.gl, Some(ctx.vao));
        let mut visit =
            (ctx.layout_attribs | ctx.vao_enabled | inputs.reads) & self.limits.attrib_mask;
        while visit != 0 {
            let i = visit.trailing_zeros() as usize;
            visit &= visit - 1;
            self.apply_attrib(record, ctx, i, inputs.classes[i])?;
        }
        let want = ctx.desired.index_buffer.map(|h| h.raw());
        if ctx.vao_index != want {
            let name = ctx
                .desired
                .index_buffer
                .and_then(|h| self.buffers.get(record, h).ok().map(|b| b.name));
            // SAFETY: context current; the context's VAO is bound (ELEMENT_ARRAY_BUFFER is
            // its state); a live buffer or None.
            unsafe { self.gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, name) };
            ctx.vao_index = want;
        }
        Ok(())
    }

    /// Attribute `i` of [`Self::apply_vertex`], read by the program as `class`.
    #[inline]
    fn apply_attrib(
        &mut self,
        record: &'static str,
        ctx: &mut GlesContext,
        i: usize,
        class: AttribClass,
    ) -> Result<(), SessionError> {
        let a = ctx.layout.attribs[i];
        let (buffer, offset) = ctx.desired.vertex_buffers[i];
        let mut native = ctx.vao_attribs[i];
        // A dangling buffer binding reads as no array (the generic value).
        let live = buffer.and_then(|h| self.buffers.get(record, h).ok().map(|b| (h, b.name)));
        let enabled = a.format.components > 0 && live.is_some();
        // Packed floats are read as three floats from a converted copy (vertex.rs).
        let packed_float = a.format.ty == AttribType::U10f11f11fRev;
        let ty = if packed_float {
            Some(glow::FLOAT)
        } else {
            conv::map_attrib_type(a.format.ty)
        };
        if enabled && ty.is_none() {
            self.report(
                Missing::AttribType,
                "GLES has no double vertex attributes: such arrays read the generic value",
            );
        }
        if let (true, Some((h, name)), Some(ty)) = (enabled, live, ty) {
            // GLES has no BGRA or packed-float attributes: they read a converted copy
            // (vertex.rs), which is checked at every draw. The copy's name is stable, so
            // the pointer key (with its format) still says what the VAO has.
            let name = if a.format.bgra || packed_float {
                self.converted_buffer(record, i, h, offset, a.stride, a.format)?
            } else {
                name
            };
            let pointer = Some((h.raw(), offset, a.format, a.stride));
            // A packed-float copy holds element k as three floats at 12k.
            let (offset, native_stride, size, normalized) = if packed_float {
                let stride = if a.stride == 0 {
                    0
                } else {
                    crate::vertex::PACKED_FLOAT_BYTES
                };
                (0, stride, 3, false)
            } else {
                (
                    offset,
                    a.stride,
                    i32::from(a.format.components.min(4)),
                    a.format.normalized,
                )
            };
            if native.pointer != pointer {
                let (Ok(offset32), Ok(stride)) =
                    (i32::try_from(offset), i32::try_from(native_stride))
                else {
                    return Err(bad_value(record, "vertex offset or stride beyond 31 bits"));
                };
                if a.stride == 0 && self.features.minor >= 1 {
                    // A stride of 0 reads one element for every vertex: GLES's pointers
                    // take 0 as tightly packed, so it is set through the ES 3.1 binding
                    // point of the attribute's own index, which a later pointer resets.
                    // SAFETY: context current; the context's VAO is bound; `name` is a
                    // live buffer; type from conv::map_attrib_type, 1..=4 components;
                    // binding `i` < MAX_VERTEX_ATTRIB_BINDINGS (one per attribute).
                    unsafe {
                        if a.format.integer {
                            self.gl.vertex_attrib_format_i32(i as u32, size, ty, 0);
                        } else {
                            self.gl
                                .vertex_attrib_format_f32(i as u32, size, ty, normalized, 0);
                        }
                        self.gl.vertex_attrib_binding(i as u32, i as u32);
                        self.gl
                            .bind_vertex_buffer(i as u32, Some(name), offset32, 0);
                    }
                } else {
                    self.shadow
                        .bind_buffer(&self.gl, glow::ARRAY_BUFFER, Some(name));
                    // SAFETY: context current; the context's VAO is bound; `name` is a
                    // live buffer bound to ARRAY_BUFFER; type from conv::map_attrib_type,
                    // 1..=4 components; the offset is a byte offset into the buffer (no
                    // client pointer: a buffer is bound).
                    unsafe {
                        if a.format.integer {
                            self.gl
                                .vertex_attrib_pointer_i32(i as u32, size, ty, stride, offset32);
                        } else {
                            self.gl.vertex_attrib_pointer_f32(
                                i as u32, size, ty, normalized, stride, offset32,
                            );
                        }
                    }
                }
                native.pointer = pointer;
            }
            if !native.enabled {
                // SAFETY: context current; `i` < MAX_VERTEX_ATTRIBS.
                unsafe { self.gl.enable_vertex_attrib_array(i as u32) };
                native.enabled = true;
                ctx.vao_enabled |= 1 << i;
            }
            // On ES 3.0 a stride of 0 is a tightly packed pointer whose every instance
            // reads element 0 (the base instance moves no such array:
            // `Self::base_instance`); every vertex reads it too with the largest divisor.
            let divisor = if a.stride == 0 && self.features.minor == 0 {
                u32::MAX
            } else {
                a.divisor
            };
            if native.divisor != divisor {
                // SAFETY: context current; `i` < MAX_VERTEX_ATTRIBS.
                unsafe { self.gl.vertex_attrib_divisor(i as u32, divisor) };
                native.divisor = divisor;
            }
        } else {
            if native.enabled {
                // SAFETY: context current; `i` < MAX_VERTEX_ATTRIBS.
                unsafe { self.gl.disable_vertex_attrib_array(i as u32) };
                native.enabled = false;
                ctx.vao_enabled &= !(1 << i);
            }
            self.shadow
                .generic_attrib(&self.gl, i, class, ctx.desired.generic[i]);
        }
        ctx.vao_attribs[i] = native;
        Ok(())
    }

    /// The `bytes` bytes of indices of type `ty` at `offset` of `buffer`, read back and
    /// widened to 32 bits with `restart` (when some) turned into 0xFFFFFFFF, the index at
    /// which GLES restarts 32-bit strips, and every other index moved by `base_vertex` (GL
    /// compares with the restart index before adding the base vertex). A widened 8- or
    /// 16-bit index never equals 0xFFFFFFFF; a 32-bit one that did (or an index moved out of
    /// range, which GL leaves undefined) would address vertex 2^32 - 1, which no buffer holds.
    #[expect(
        clippy::too_many_arguments,
        reason = "the index range, its restart index and base vertex"
    )]
    fn rewrite_indices(
        &mut self,
        record: &'static str,
        buffer: BufferHandle,
        ty: IndexType,
        offset: u64,
        bytes: u64,
        restart: Option<u32>,
        base_vertex: i32,
    ) -> Result<Vec<u8>, SessionError> {
        let src = self.read_buffer_as(record, buffer, offset, bytes)?;
        let size = ty.size() as usize;
        Ok(src
            .chunks_exact(size)
            .map(|c| match *c {
                [a] => u32::from(a),
                [a, b] => u32::from(u16::from_ne_bytes([a, b])),
                [a, b, c, d] => u32::from_ne_bytes([a, b, c, d]),
                _ => unreachable!("index sizes are 1, 2 or 4"),
            })
            .map(|i| {
                if Some(i) == restart {
                    u32::MAX
                } else {
                    i.wrapping_add_signed(base_vertex)
                }
            })
            .flat_map(u32::to_ne_bytes)
            .collect())
    }

    /// The class of the colour attachment draw buffer `i` writes (Float when unknown).
    fn draw_buffer_class(&self, ctx: &GlesContext, i: usize) -> FormatClass {
        let b = ctx.desired.draw_buffers[i];
        let format = match ctx.desired.framebuffer {
            FramebufferRef::Object(h)
                if b != DRAW_BUFFER_NONE && usize::from(b) < MAX_DRAW_BUFFERS =>
            {
                self.framebuffers
                    .get("", h)
                    .ok()
                    .and_then(|fb| self.attachment_format(&fb.state.colors[usize::from(b)]).0)
            }
            FramebufferRef::Surface(h) => self.surfaces.get("", h).ok().and_then(|s| s.desc.color),
            _ => None,
        };
        format.map_or(FormatClass::Float, |f| f.info().class)
    }

    /// Whether a draw of `mode` under `FIRST_VERTEX_CONVENTION` must draw the list of
    /// [`conv::first_vertex_list`] to give its primitives GL's flat values (GLES has no
    /// provoking-vertex control: flat values come from each primitive's last vertex).
    /// Where that cannot help — flat values from a geometry stage, whose output the backend
    /// cannot reorder, or a draw that transform feedback captures in its vertex order — the
    /// draw goes as it is, and the difference is reported.
    #[cold]
    pub(crate) fn first_vertex_list_needed(&mut self, ctx: &GlesContext, mode: u32) -> bool {
        let flat = ctx
            .desired
            .program
            .and_then(|h| self.programs.get("", h).ok())
            .map_or(Flat::None, |p| p.flat);
        let listed = !matches!(
            mode,
            glow::POINTS
                | glow::LINES_ADJACENCY
                | glow::LINE_STRIP_ADJACENCY
                | glow::TRIANGLES_ADJACENCY
                | glow::TRIANGLE_STRIP_ADJACENCY
        );
        match flat {
            Flat::None => false,
            _ if !listed => false,
            Flat::FromVertices if ctx.xfb.is_none() => true,
            Flat::FromVertices | Flat::FromGeometry => {
                self.report(
                    Missing::ProvokingVertex,
                    "GLES has no provoking-vertex control: under FIRST_VERTEX_CONVENTION, flat values from a geometry stage or in a draw captured by transform feedback come from the last vertex",
                );
                false
            }
        }
    }

    /// A temporary element buffer holding `words`, bound to the context's vertex array in
    /// place of its own until [`Self::drop_scratch_indices`].
    fn scratch_indices(
        &mut self,
        record: &'static str,
        words: &[u8],
    ) -> Result<glow::Buffer, SessionError> {
        // SAFETY: context current; the context's VAO is bound, so the new buffer becomes
        // its element buffer until `drop_scratch_indices` binds `ctx.vao_index`'s back.
        unsafe {
            let name = self
                .gl
                .create_buffer()
                .map_err(|e| Self::native_error(record, e))?;
            self.gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(name));
            self.gl
                .buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, words, glow::STREAM_DRAW);
            Ok(name)
        }
    }

    /// Puts the context's element buffer back on its vertex array and deletes `name`.
    fn drop_scratch_indices(
        &mut self,
        record: &'static str,
        ctx: &GlesContext,
        name: glow::Buffer,
    ) {
        let original = ctx
            .desired
            .index_buffer
            .and_then(|h| self.buffers.get(record, h).ok().map(|b| b.name));
        // SAFETY: context current; puts the context's element buffer (what `ctx.vao_index`
        // records) back on its VAO, then deletes the temporary buffer, which nothing
        // references any more.
        unsafe {
            self.gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, original);
            self.gl.delete_buffer(name);
        }
    }

    /// `Draw` under `FIRST_VERTEX_CONVENTION` with flat values from the vertex stage: the
    /// draw's vertices as the rotated list of [`conv::first_vertex_list`], drawn indexed.
    #[cold]
    fn draw_first_vertex_list(
        &mut self,
        record: &'static str,
        ctx: &GlesContext,
        mode: u32,
        [first, count, instances]: [i32; 3],
        base_instance: u32,
    ) -> R {
        let vertices: Vec<u32> = (first as u32..).take(count as usize).collect();
        let Some((mode, list)) = conv::first_vertex_list(mode, &vertices) else {
            return Ok(());
        };
        if list.is_empty() {
            return Ok(());
        }
        let words: Vec<u8> = list.iter().flat_map(|i| i.to_ne_bytes()).collect();
        let [count] = gl_counts(record, [list.len() as u64])?;
        let name = self.scratch_indices(record, &words)?;
        // SAFETY: context current; state reconciled; the scratch element buffer holds
        // `count` indices, each a vertex of the original draw.
        unsafe {
            if base_instance != 0 {
                self.gl.draw_elements_instanced_base_vertex_base_instance(
                    mode,
                    count,
                    glow::UNSIGNED_INT,
                    0,
                    instances,
                    0,
                    base_instance,
                );
            } else if instances == 1 {
                self.gl.draw_elements(mode, count, glow::UNSIGNED_INT, 0);
            } else {
                self.gl
                    .draw_elements_instanced(mode, count, glow::UNSIGNED_INT, 0, instances);
            }
        }
        self.drop_scratch_indices(record, ctx, name);
        Ok(())
    }

    /// The base instance a draw passes to the driver: its own with `GL_EXT_base_instance`.
    /// Without it, 0, and the draw's instanced arrays start `base_instance` elements later
    /// instead: their native pointers move by that many strides (GL fetches element
    /// `instance / divisor + base_instance`), and the vertex group is marked so that the
    /// next draw puts them back. `gl_InstanceID` never counted the base instance.
    pub(crate) fn base_instance(
        &mut self,
        record: &'static str,
        ctx: &mut GlesContext,
        base_instance: u32,
    ) -> Result<u32, SessionError> {
        // ES 3.0 draws a stride of 0 with a divisor that the driver's base instance would
        // still move (`Self::apply_attrib`): such draws move the other arrays instead.
        let zero_stride = self.features.minor == 0
            && (0..MAX_VERTEX_ATTRIBS)
                .any(|i| ctx.vao_enabled >> i & 1 != 0 && ctx.layout.attribs[i].stride == 0);
        if base_instance == 0 || self.features.base_instance && !zero_stride {
            return Ok(base_instance);
        }
        let mut left = ctx.vao_enabled;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            let divisor = ctx.layout.attribs[i].divisor;
            if ctx.layout.attribs[i].stride == 0 {
                // Every instance reads the first element.
                continue;
            }
            let (Some((raw, offset, format, stride)), Some(h)) =
                (ctx.vao_attribs[i].pointer, ctx.desired.vertex_buffers[i].0)
            else {
                continue;
            };
            if divisor == 0 {
                continue;
            }
            if format.bgra || format.ty == AttribType::U10f11f11fRev {
                self.report(
                    Missing::BaseInstance,
                    "a base instance moves no instanced BGRA or packed-float array without GL_EXT_base_instance: it starts at its first element",
                );
                continue;
            }
            let step = if stride == 0 {
                conv::attrib_bytes(format)
            } else {
                stride
            };
            let moved = offset + u64::from(base_instance) * u64::from(step);
            let (Ok(offset32), Ok(stride32)) = (i32::try_from(moved), i32::try_from(stride)) else {
                return Err(bad_value(
                    record,
                    "instanced attribute offset beyond 31 bits",
                ));
            };
            let name = self.buffers.get(record, h)?.name;
            let (Some(ty), size) = (
                conv::map_attrib_type(format.ty),
                i32::from(format.components.min(4)),
            ) else {
                continue;
            };
            self.shadow
                .bind_buffer(&self.gl, glow::ARRAY_BUFFER, Some(name));
            // SAFETY: context current; the context's VAO is bound (reconciled by the draw's
            // prepare); `name` is a live buffer bound to ARRAY_BUFFER; the type and size are
            // those the pointer was set with; the offset is a byte offset into the buffer.
            unsafe {
                if format.integer {
                    self.gl
                        .vertex_attrib_pointer_i32(i as u32, size, ty, stride32, offset32);
                } else {
                    self.gl.vertex_attrib_pointer_f32(
                        i as u32,
                        size,
                        ty,
                        format.normalized,
                        stride32,
                        offset32,
                    );
                }
            }
            ctx.vao_attribs[i].pointer = Some((raw, moved, format, stride));
            ctx.dirty |= dirty::VERTEX;
        }
        Ok(0)
    }

    /// A draw of an adjacency topology the driver cannot draw: reported, skipped.
    #[cold]
    pub(crate) fn skip_adjacency(&mut self) {
        self.report(
            Missing::AdjacencyTopology,
            "adjacency topologies need ES 3.2 or *_geometry_shader: draws skipped",
        );
    }

    fn clear_color(&mut self, ctx: &GlesContext, i: usize, value: ClearValue) {
        let gl = &self.gl;
        let class = self.draw_buffer_class(ctx, i);
        let i = i as u32;
        // SAFETY: context current; the draw framebuffer is bound with draw buffer `i` <
        // MAX_DRAW_BUFFERS; four values per colour clear, one for depth or stencil.
        unsafe {
            match (value, class) {
                (ClearValue::Float(c), FormatClass::Int) => {
                    gl.clear_buffer_i32_slice(glow::COLOR, i, &c.map(|v| v as i32))
                }
                (ClearValue::Float(c), FormatClass::Uint) => {
                    gl.clear_buffer_u32_slice(glow::COLOR, i, &c.map(|v| v as u32))
                }
                (ClearValue::Float(c), _) => gl.clear_buffer_f32_slice(glow::COLOR, i, &c),
                (ClearValue::Int(c), _) => gl.clear_buffer_i32_slice(glow::COLOR, i, &c),
                (ClearValue::Uint(c), _) => gl.clear_buffer_u32_slice(glow::COLOR, i, &c),
                (ClearValue::Depth(d), _) => gl.clear_buffer_f32_slice(glow::DEPTH, 0, &[d]),
                (ClearValue::Stencil(s), _) => {
                    gl.clear_buffer_i32_slice(glow::STENCIL, 0, &[i32::from(s)])
                }
                (ClearValue::DepthStencil(d, s), _) => {
                    gl.clear_buffer_depth_stencil(glow::DEPTH_STENCIL, 0, d, i32::from(s))
                }
            }
        }
    }
}

impl DrawPipe for GlesPipe {
    /// `Draw`. A draw with nothing to reconcile is a few compares and the call.
    #[inline]
    fn draw(&mut self, ctx: &mut GlesContext, draw: DrawArgs) -> R {
        const N: &str = "Draw";
        if self.faults.misrender() || ctx.discarding {
            return Ok(());
        }
        let (topology, first) = (draw.topology, draw.first);
        let (count, instances) = (draw.count, draw.instances);
        let Some(mode) = conv::map_topology(topology, &self.features) else {
            self.skip_adjacency();
            return Ok(());
        };
        if count == 0 || instances == 0 || !self.prepare(N, ctx, dirty::ALL)? {
            return Ok(());
        }
        let [first, count, instances] = gl_counts(N, [first, count, instances])?;
        let base_instance = self.base_instance(N, ctx, draw.base_instance)?;
        if !ctx.raster.flatshade_last && self.first_vertex_list_needed(ctx, mode) {
            return self.draw_first_vertex_list(
                N,
                ctx,
                mode,
                [first, count, instances],
                base_instance,
            );
        }
        if ctx.xfb.is_some() {
            self.xfb_before_draw(ctx);
        }
        let call = |gl: &glow::Context| {
            // SAFETY: context current; state reconciled (program linked and current, VAO
            // bound with buffer-backed attributes); mode from conv::map_topology;
            // non-negative counts; a nonzero base instance only with GL_EXT_base_instance
            // (`base_instance`).
            unsafe {
                if base_instance != 0 {
                    gl.draw_arrays_instanced_base_instance(
                        mode,
                        first,
                        count,
                        instances,
                        base_instance,
                    );
                } else if instances == 1 {
                    gl.draw_arrays(mode, first, count);
                } else {
                    gl.draw_arrays_instanced(mode, first, count, instances);
                }
            }
        };
        call(&self.gl);
        if ctx.xfb.is_some() {
            self.xfb_after_draw(ctx);
        }
        if let Some(streams) = self.observed_streams(ctx) {
            self.draw_streams(ctx, &streams, &call);
        }
        Ok(())
    }

    /// `DrawIndexed`.
    fn draw_indexed(&mut self, ctx: &mut GlesContext, draw: DrawIndexedArgs) -> R {
        const N: &str = "DrawIndexed";
        if self.faults.misrender() || ctx.discarding {
            return Ok(());
        }
        let (topology, index_type, offset) = (draw.topology, draw.index_type, draw.offset);
        let (count, instances, base_vertex) = (draw.count, draw.instances, draw.base_vertex);
        let Some(mode) = conv::map_topology(topology, &self.features) else {
            self.skip_adjacency();
            return Ok(());
        };
        // Indices are read by the native driver: a range outside the buffer (or no buffer)
        // must never reach it. GL leaves such a draw undefined; it draws nothing here.
        let bytes = u64::from(count) * u64::from(index_type.size());
        let in_range = ctx
            .desired
            .index_buffer
            .is_some_and(|b| self.buffers.get_range(N, b, offset, bytes).is_ok());
        if !in_range {
            log::warn!(
                "tessera-backend-gles: DrawIndexed reads indices outside its index buffer: skipped"
            );
            return Ok(());
        }
        if count == 0 || instances == 0 || !self.prepare(N, ctx, dirty::ALL)? {
            return Ok(());
        }
        let (enabled, index) = ctx.desired.restart(index_type);
        // GLES restarts only at the index type's maximum. A restart index above it matches no
        // index (nothing restarts); one below it is emulated by drawing rewritten indices from
        // a temporary buffer (see `rewrite_indices`).
        let max = conv::max_index(index_type);
        let restart_low = enabled && index < max;
        if restart_low {
            self.report(Missing::RestartIndex, "GLES restarts primitives only at the index type's maximum: draws with a smaller restart index read their indices back and draw a rewritten copy (slow)");
        }
        // Without a base-vertex entry point the base vertex is added to a rewritten copy of
        // the indices (per-instance attributes, which a moved attribute pointer would also
        // move, are untouched).
        let emulate_base = base_vertex != 0 && !self.features.base_vertex;
        if emulate_base {
            self.report(
                Missing::BaseVertex,
                "base vertex needs ES 3.2 or *_draw_elements_base_vertex: draws with one read their indices back and draw a rewritten copy (slow)",
            );
        }
        self.shadow
            .enable(&self.gl, Cap::PrimitiveRestart, enabled && index <= max);
        // Under FIRST_VERTEX_CONVENTION, flat values from the vertex stage need each
        // primitive's first vertex last: the indices are rewritten into a rotated list.
        let rotate = !ctx.raster.flatshade_last && self.first_vertex_list_needed(ctx, mode);
        let mut scratch = None;
        let (mut index_type, mut offset, mut base_vertex) = (index_type, offset, base_vertex);
        let (mut mode, mut count) = (mode, count);
        if (restart_low || emulate_base || rotate)
            && let Some(ib) = ctx.desired.index_buffer
        {
            let restart = (enabled && index <= max).then_some(index);
            let moved = if emulate_base { base_vertex } else { 0 };
            let mut words =
                self.rewrite_indices(N, ib, index_type, offset, bytes, restart, moved)?;
            if rotate {
                let indices: Vec<u32> = words
                    .chunks_exact(4)
                    .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                if let Some((list_mode, list)) = conv::first_vertex_list(mode, &indices) {
                    if list.is_empty() {
                        return Ok(());
                    }
                    mode = list_mode;
                    count = u32::try_from(list.len()).unwrap_or(u32::MAX);
                    words = list.iter().flat_map(|i| i.to_ne_bytes()).collect();
                }
            }
            scratch = Some(self.scratch_indices(N, &words)?);
            (index_type, offset) = (IndexType::U32, 0);
            base_vertex -= moved;
        }
        let [count, instances] = gl_counts(N, [count, instances])?;
        let [offset] = gl_counts(N, [offset])?;
        let ty = conv::map_index_type(index_type);
        if ctx.xfb.is_some() {
            self.xfb_before_draw(ctx);
        }
        let base_instance = self.base_instance(N, ctx, draw.base_instance)?;
        let call = |gl: &glow::Context| {
            // SAFETY: context current; state reconciled; the index range lies inside the
            // bound index buffer (checked above); base-vertex and base-instance entry points
            // exist when used.
            unsafe {
                if base_instance != 0 {
                    gl.draw_elements_instanced_base_vertex_base_instance(
                        mode,
                        count,
                        ty,
                        offset,
                        instances,
                        base_vertex,
                        base_instance,
                    );
                } else {
                    match (instances, base_vertex) {
                        (1, 0) => gl.draw_elements(mode, count, ty, offset),
                        (_, 0) => gl.draw_elements_instanced(mode, count, ty, offset, instances),
                        (1, b) => gl.draw_elements_base_vertex(mode, count, ty, offset, b),
                        (_, b) => gl.draw_elements_instanced_base_vertex(
                            mode, count, ty, offset, instances, b,
                        ),
                    }
                }
            }
        };
        call(&self.gl);
        if ctx.xfb.is_some() {
            self.xfb_after_draw(ctx);
        }
        if let Some(streams) = self.observed_streams(ctx) {
            self.draw_streams(ctx, &streams, &call);
        }
        if let Some(name) = scratch {
            self.drop_scratch_indices(N, ctx, name);
        }
        Ok(())
    }

    /// `MultiDraw` and `MultiDrawIndexed` (`multi_draw.rs`).
    fn multi_draw(&mut self, ctx: &mut GlesContext, draw: MultiDrawArgs<'_>) -> R {
        self.draw_multi(ctx, draw)
    }

    /// `DrawIndirect` and `DrawIndexedIndirect` (`indirect.rs`).
    fn draw_indirect(&mut self, ctx: &mut GlesContext, draw: DrawIndirectArgs) -> R {
        if ctx.discarding {
            return Ok(());
        }
        self.draw_from_buffer(ctx, draw)
    }

    /// `Clear`: per draw buffer, honouring masks and scissor.
    fn clear(&mut self, ctx: &mut GlesContext, clear: ClearArgs) -> R {
        if ctx.discarding {
            return Ok(());
        }
        let (mask, color, depth, stencil) = (clear.mask, clear.color, clear.depth, clear.stencil);
        if !self.prepare("Clear", ctx, dirty::CLEAR)? {
            return Ok(());
        }
        let buffers = match ctx.desired.framebuffer {
            FramebufferRef::Surface(_) => 1,
            _ => self.limits.draw_buffers,
        };
        for i in 0..buffers {
            if mask & (1 << i) != 0 && ctx.desired.draw_buffers[i] != DRAW_BUFFER_NONE {
                self.clear_color(ctx, i, ClearValue::Float(color));
            }
        }
        let depth = depth.clamp(0.0, 1.0);
        match (
            mask & clear_mask::DEPTH != 0,
            mask & clear_mask::STENCIL != 0,
        ) {
            (true, true) => self.clear_color(ctx, 0, ClearValue::DepthStencil(depth, stencil)),
            (true, false) => self.clear_color(ctx, 0, ClearValue::Depth(depth)),
            (false, true) => self.clear_color(ctx, 0, ClearValue::Stencil(stencil)),
            (false, false) => {}
        }
        Ok(())
    }

    /// `ClearBuffer`.
    fn clear_buffer(&mut self, ctx: &mut GlesContext, draw_buffer: u8, value: ClearValue) -> R {
        if ctx.discarding {
            return Ok(());
        }
        if !self.prepare("ClearBuffer", ctx, dirty::CLEAR)? {
            return Ok(());
        }
        let i = usize::from(draw_buffer);
        let colour = matches!(
            value,
            ClearValue::Float(_) | ClearValue::Int(_) | ClearValue::Uint(_)
        );
        if colour
            && (i >= self.limits.draw_buffers || ctx.desired.draw_buffers[i] == DRAW_BUFFER_NONE)
        {
            return Ok(());
        }
        let value = match value {
            ClearValue::Depth(d) => ClearValue::Depth(d.clamp(0.0, 1.0)),
            ClearValue::DepthStencil(d, s) => ClearValue::DepthStencil(d.clamp(0.0, 1.0), s),
            v => v,
        };
        self.clear_color(ctx, i, value);
        Ok(())
    }

    /// `BeginConditionalRender` (`condition.rs`).
    fn begin_conditional_render(
        &mut self,
        ctx: &mut GlesContext,
        query: QueryHandle,
        inverted: bool,
    ) -> R {
        self.begin_condition(ctx, query, inverted)
    }

    /// `EndConditionalRender`.
    fn end_conditional_render(&mut self, ctx: &mut GlesContext) -> R {
        ctx.discarding = false;
        Ok(())
    }

    /// `Blit`: from a read source into the context's draw framebuffer.
    fn blit(&mut self, ctx: &mut GlesContext, blit: BlitArgs) -> R {
        const N: &str = "Blit";
        if ctx.discarding {
            return Ok(());
        }
        let (src, regions, mask, linear) = (blit.src, blit.regions, blit.mask, blit.linear);
        if !self.prepare(N, ctx, dirty::FRAMEBUFFER | dirty::SCISSOR | dirty::RASTER)? {
            return Ok(());
        }
        let Some(info) = self.bind_read_source(N, &src)? else {
            return Ok(());
        };
        use tessera_wire::record::blit_mask;
        let [s, d] = regions;
        let resolved = if mask == blit_mask::COLOR {
            self.resolve_blit_source(&info, src.image, s)?
        } else {
            None
        };
        if resolved.is_some() {
            // The resolve bound the scratch framebuffer for drawing and lifted the scissor
            // and rasterizer discard: the context's own come back for the blit itself.
            self.prepare(N, ctx, dirty::FRAMEBUFFER | dirty::SCISSOR | dirty::RASTER)?;
        }
        let mut bits = 0;
        for (bit, gl_bit) in [
            (blit_mask::COLOR, glow::COLOR_BUFFER_BIT),
            (blit_mask::DEPTH, glow::DEPTH_BUFFER_BIT),
            (blit_mask::STENCIL, glow::STENCIL_BUFFER_BIT),
        ] {
            if mask & bit != 0 {
                bits |= gl_bit;
            }
        }
        // SAFETY: context current; both framebuffers bound; a mask and filter GL accepts
        // (an incompatible combination is a GL error, not UB).
        unsafe {
            self.gl.blit_framebuffer(
                s.x0,
                s.y0,
                s.x1,
                s.y1,
                d.x0,
                d.y0,
                d.x1,
                d.y1,
                bits,
                if linear { glow::LINEAR } else { glow::NEAREST },
            )
        };
        if let Some(rb) = resolved {
            // SAFETY: context current; the temporary renderbuffer, deleted once (GL detaches
            // it from the scratch framebuffer).
            unsafe { self.gl.delete_renderbuffer(rb) };
        }
        Ok(())
    }

    /// `Flush`.
    fn flush(&mut self) -> R {
        // SAFETY: context current; glFlush has no preconditions.
        unsafe { self.gl.flush() };
        Ok(())
    }

    /// `Finish`: glFinish returns once all work completed.
    fn finish(&mut self) -> R {
        // SAFETY: context current; glFinish has no preconditions.
        unsafe { self.gl.finish() };
        Ok(())
    }

    /// `Present`: into the surface's window when the backend presents it (`present.rs`);
    /// otherwise the surface is offscreen: submit what was recorded.
    fn present(&mut self, surface: SurfaceHandle) -> R {
        self.present_window(surface)
    }
}

#[cfg(test)]
mod tests {
    use super::read_span;

    #[test]
    fn read_span_finds_the_first_and_last_element_read() {
        assert_eq!(read_span(0b1010, 0, 4), Some((1, 3)));
        assert_eq!(read_span(0b1010, 2, 3), None);
        assert_eq!(read_span(0b1010, 3, 3), None);
        assert_eq!(read_span(u64::MAX, 0, 64), Some((0, 63)));
        assert_eq!(read_span(1 << 63, 10, 64), Some((63, 63)));
        // Elements from 64 on are always read.
        assert_eq!(read_span(0, 60, 70), Some((64, 69)));
        assert_eq!(read_span(1 << 61, 60, 70), Some((61, 69)));
        assert_eq!(read_span(0, 64, 65), Some((64, 64)));
        assert_eq!(read_span(0, 66, 70), Some((66, 69)));
    }
}

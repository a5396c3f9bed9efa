//! The device: the native context's capabilities, the per-kind object tables, and the
//! records of buffers (`BufferPipe`) and sampler objects (called from the `CsoPipe` in
//! `queue.rs`). The other domains implement their traits in their own files: textures in
//! `texture.rs`, surfaces, framebuffers and renderbuffers in `framebuffer.rs`, programs in
//! `program.rs`, queries and fences in `query.rs`, verbs in `command.rs`.
//!
//! ## Tables
//! Every kind has a dense table indexed by handle slot ([`SlotTable`]). The dispatcher has
//! checked every handle before a record gets here; the lookups that fetch an object check
//! it again, so a stale handle is a [`SessionError`] (the session ends, nothing panics).
//!
//! ## Capabilities
//! [`Features`] are read once at creation from the ES version and the extension string, and
//! chosen between there, never per draw. What a record asks for that the driver lacks is
//! reported once as [`Event::Unsupported`] and replaced by the nearest stand-in.

use std::collections::HashSet;

use glow::HasContext;
use tessera_wire::dispatch::{BufferPipe, BufferWrite, Bytes, R};
use tessera_wire::handle::{
    BlendHandle, BufferHandle, DepthStencilHandle, FenceHandle, FramebufferHandle, ProgramHandle,
    QueryHandle, RasterHandle, RenderbufferHandle, SamplerHandle, SurfaceHandle, TextureHandle,
    VertexLayoutHandle,
};
use tessera_wire::record::{BufferCopy, BufferRange};
use tessera_wire::state::{
    DepthStencilState, MAX_DRAW_BUFFERS, MAX_VERTEX_ATTRIBS, MAX_VIEWPORTS, RasterState,
    SamplerState, VertexLayout,
};
use tessera_wire::table::{ByteSized, SlotTable};
use tessera_wire::{Caps, ComputeCaps, Event, SessionError, TessellationCaps};

use crate::command::NativeBlend;
use crate::conv;
use crate::framebuffer::{Framebuffer, Renderbuffer, Surface};
use crate::program::{Program, ProgramCache, SpirvCross};
use crate::query::{Fence, Query};
use crate::shadow::NativeState;
use crate::texture::Texture;

/// `glSampleMaski` (ES 3.1), which glow does not wrap.
pub(crate) type SampleMaski = unsafe extern "C" fn(u32, u32);
/// `glFramebufferParameteri` (ES 3.1), which glow does not wrap.
pub(crate) type FramebufferParameteri = unsafe extern "C" fn(u32, u32, i32);
/// `glTexBufferRange` (ES 3.2 / `*_texture_buffer`).
pub(crate) type TexBufferRange = unsafe extern "C" fn(u32, u32, u32, isize, isize);
/// `glTexStorage3DMultisample` (ES 3.2 / `OES_texture_storage_multisample_2d_array`).
pub(crate) type TexStorage3DMultisample = unsafe extern "C" fn(u32, i32, u32, i32, i32, i32, u8);

/// `glTextureViewOES` (`OES_texture_view`; `EXT_texture_view`'s has the same signature).
pub(crate) type TextureViewFn = unsafe extern "C" fn(u32, u32, u32, u32, u32, u32, u32, u32);

/// `glMinSampleShading` (ES 3.2 / `OES_sample_shading`), which glow does not wrap.
pub(crate) type MinSampleShading = unsafe extern "C" fn(f32);

/// `glViewportArrayvOES` and `glDepthRangeArrayfvOES` (`OES_viewport_array`): first, count,
/// `count` groups of floats.
pub(crate) type FloatArrayFn = unsafe extern "C" fn(u32, i32, *const f32);
/// `glScissorArrayvOES` (`OES_viewport_array`).
pub(crate) type ScissorArrayFn = unsafe extern "C" fn(u32, i32, *const i32);

/// `OES_viewport_array`'s array calls, which glow does not wrap under their ES names.
#[derive(Clone, Copy)]
pub(crate) struct ViewportArrayFns {
    pub viewports: FloatArrayFn,
    pub depth_ranges: FloatArrayFn,
    pub scissors: ScissorArrayFn,
}

/// `glClipControlEXT` (`GL_EXT_clip_control`), which glow does not wrap.
pub(crate) type ClipControlFn = unsafe extern "C" fn(u32, u32);

/// `glPolygonOffsetClampEXT` (`GL_EXT_polygon_offset_clamp`), which glow does not wrap.
pub(crate) type PolygonOffsetClampFn = unsafe extern "C" fn(f32, f32, f32);

/// `glMultiDrawArraysEXT` (`GL_EXT_multi_draw_arrays`), which glow does not wrap.
pub(crate) type MultiDrawArraysFn = unsafe extern "C" fn(u32, *const i32, *const i32, i32);

/// `glMultiDrawElementsEXT` (`GL_EXT_multi_draw_arrays`).
pub(crate) type MultiDrawElementsFn =
    unsafe extern "C" fn(u32, *const i32, u32, *const *const std::ffi::c_void, i32);

/// `glMultiDrawElementsBaseVertexEXT` (`*_draw_elements_base_vertex` with
/// `GL_EXT_multi_draw_arrays`).
pub(crate) type MultiDrawElementsBaseVertexFn =
    unsafe extern "C" fn(u32, *const i32, u32, *const *const std::ffi::c_void, i32, *const i32);

/// `GL_EXT_multi_draw_arrays`' calls: a multi-draw as one driver call (`multi_draw.rs`).
#[derive(Clone, Copy)]
pub(crate) struct MultiDrawFns {
    pub arrays: MultiDrawArraysFn,
    pub elements: MultiDrawElementsFn,
    /// Where the driver also has base vertices.
    pub elements_base_vertex: Option<MultiDrawElementsBaseVertexFn>,
}

/// Entry points glow does not wrap, resolved with the same loader.
#[derive(Clone, Copy, Default)]
pub(crate) struct ExtraFns {
    pub sample_maski: Option<SampleMaski>,
    /// `glFramebufferParameteri`: the default size of a framebuffer without attachments.
    pub framebuffer_parameteri: Option<FramebufferParameteri>,
    pub tex_buffer_range: Option<TexBufferRange>,
    pub tex_storage_3d_multisample: Option<TexStorage3DMultisample>,
    /// `glTextureViewOES` / `glTextureViewEXT` (`*_texture_view`).
    pub texture_view: Option<TextureViewFn>,
    /// `glMinSampleShading` / `glMinSampleShadingOES`.
    pub min_sample_shading: Option<MinSampleShading>,
    /// `OES_viewport_array`'s array calls (with ES 3.2's or `*_draw_buffers_indexed`'s
    /// `glEnablei` for the per-viewport scissor test).
    pub viewport_arrays: Option<ViewportArrayFns>,
    /// `glClipControlEXT`: GL's clip origin and depth mode, carried out by the driver.
    pub clip_control: Option<ClipControlFn>,
    /// `glPolygonOffsetClampEXT`: the polygon offset with a clamp of its magnitude.
    pub polygon_offset_clamp: Option<PolygonOffsetClampFn>,
    /// `GL_EXT_multi_draw_arrays`' calls.
    pub multi_draw: Option<MultiDrawFns>,
}

/// The largest read-back the backend answers (a reply is one allocation on each side).
pub(crate) const MAX_READBACK: usize = 1 << 30;

/// The largest block of zeros the backend allocates to give new storage defined contents.
const ZERO_CHUNK: usize = 1 << 20;

/// `GL_CONTEXT_ROBUST_ACCESS` (ES 3.2, `GL_KHR_robustness`), which glow does not name.
const CONTEXT_ROBUST_ACCESS: u32 = 0x90F3;

/// Bytes of `count` pixels of `layout`, if a read-back of that size is answerable.
pub(crate) fn readback_size(
    count: usize,
    layout: tessera_wire::format::PixelLayout,
) -> Option<usize> {
    count
        .checked_mul(tessera_wire::pixel::pixel_size(layout.format, layout.ty))
        .filter(|&n| n <= MAX_READBACK)
}

/// The sample counts the driver gives an RGBA8 renderbuffer, as [`Caps::sample_counts`]
/// encodes them (bit `k`, of value `2^k`, for `2^k` samples; counts that are not powers of
/// two are left out, which only makes the engine round further up).
///
/// # Safety
/// The context is current on this thread.
unsafe fn renderbuffer_sample_counts(gl: &glow::Context) -> u32 {
    let mut n = [0i32];
    // SAFETY: current context (caller); ES 3.0's glGetInternalformativ with a valid target,
    // a colour-renderable format and room for NUM_SAMPLE_COUNTS's one value.
    unsafe {
        gl.get_internal_format_i32_slice(
            glow::RENDERBUFFER,
            glow::RGBA8,
            glow::NUM_SAMPLE_COUNTS,
            &mut n,
        )
    };
    let mut counts = vec![0i32; n[0].clamp(0, 32) as usize];
    if !counts.is_empty() {
        // SAFETY: as above, with room for the NUM_SAMPLE_COUNTS values SAMPLES writes.
        unsafe {
            gl.get_internal_format_i32_slice(
                glow::RENDERBUFFER,
                glow::RGBA8,
                glow::SAMPLES,
                &mut counts,
            )
        };
    }
    counts
        .iter()
        .filter(|&&c| c > 0 && (c as u32).is_power_of_two() && c <= 64)
        .fold(1, |m, &c| m | c as u32)
}

/// A broken invariant of this backend (never a user or protocol error).
#[cold]
#[track_caller]
pub(crate) fn backend_bug(what: &str) -> ! {
    panic!("tessera-backend-gles bug: {what}")
}

/// What the native context can do beyond ES 3.0, decided once.
#[derive(Clone, Debug, Default)]
pub(crate) struct Features {
    /// ES 3.x minor version.
    pub minor: u8,
    pub draw_buffers_indexed: bool,
    pub base_vertex: bool,
    pub geometry: bool,
    /// Tessellation stages (ES 3.2, or `GL_OES/EXT_tessellation_shader`), with the
    /// extension that ESSL below 3.20 enables for them, if one is needed.
    pub tessellation: Option<&'static str>,
    /// The extension that lets the tessellation stages write `gl_PointSize`, if any.
    pub tessellation_point_size: Option<&'static str>,
    /// The extension that lets a geometry shader write `gl_PointSize`, if any.
    pub geometry_point_size: Option<&'static str>,
    pub texture_buffer: bool,
    pub multisample_texture: bool,
    pub multisample_array: bool,
    /// Cube map array textures and `samplerCubeArray` (ES 3.2; the `*_texture_cube_map_array`
    /// extensions are not used, since the translated shaders would need them enabled).
    pub cube_map_array: bool,
    pub norm16: bool,
    pub rgtc: bool,
    /// BPTC's compressed formats (`EXT_texture_compression_bptc`).
    pub bptc: bool,
    pub border_clamp: bool,
    pub mirror_clamp: bool,
    /// `glPolygonOffsetClampEXT` (`GL_EXT_polygon_offset_clamp`).
    pub polygon_offset_clamp: bool,
    pub anisotropy: bool,
    pub depth_clamp: bool,
    pub clip_distance: bool,
    /// `glClipControl`'s origins and depth modes (`GL_EXT_clip_control`).
    pub clip_control: bool,
    pub srgb_write_control: bool,
    pub blend_func_extended: bool,
    pub read_depth: bool,
    pub read_stencil: bool,
    pub read_depth_stencil: bool,
    pub timer_query: bool,
    pub texture_stencil8: bool,
    /// `glDrawArraysIndirect`/`glDrawElementsIndirect` (ES 3.1).
    pub draw_indirect: bool,
    /// Base instances in draws and indirect commands (`GL_EXT_base_instance`).
    pub base_instance: bool,
    /// Texture views (`GL_OES_texture_view` or `GL_EXT_texture_view`), by the entry point's
    /// name.
    pub texture_view: Option<&'static str>,
    /// Per-sample shading: `SAMPLE_SHADING` and `glMinSampleShading` (ES 3.2 or
    /// `GL_OES_sample_shading`).
    pub sample_shading: bool,
    /// GL's viewport arrays: `GL_OES_viewport_array`, with `glEnablei` (ES 3.2 or
    /// `*_draw_buffers_indexed`) for the per-viewport scissor test. (`NV_viewport_array`
    /// is not used: its indexed enables have names of their own.)
    pub viewport_array: bool,
    /// GL's image load and store: ES 3.1's images with image atomics (ES 3.2 or
    /// `GL_OES_shader_image_atomic`) and GL's other image formats (`GL_NV_image_formats`,
    /// with `GL_EXT_texture_norm16` for the 16-bit normalized ones); `image_lowering.rs`
    /// rewrites the rest.
    pub image_load_store: bool,
    /// `GL_CONTEXT_ROBUST_ACCESS` can be asked (ES 3.2, `GL_KHR_robustness` or
    /// `GL_EXT_robustness`).
    pub robustness: bool,
}

impl Features {
    /// The features of an ES 3.`minor` context with these extensions.
    pub fn detect(minor: u8, ext: &HashSet<String>) -> Self {
        let has = |e: &str| ext.contains(e);
        let es32 = minor >= 2;
        Self {
            minor,
            sample_shading: es32 || has("GL_OES_sample_shading"),
            image_load_store: minor >= 1
                && (es32 || has("GL_OES_shader_image_atomic"))
                && has("GL_NV_image_formats")
                && has("GL_EXT_texture_norm16"),
            viewport_array: has("GL_OES_viewport_array")
                && (es32
                    || has("GL_OES_draw_buffers_indexed")
                    || has("GL_EXT_draw_buffers_indexed")),
            draw_buffers_indexed: es32
                || has("GL_OES_draw_buffers_indexed")
                || has("GL_EXT_draw_buffers_indexed"),
            base_vertex: es32
                || has("GL_OES_draw_elements_base_vertex")
                || has("GL_EXT_draw_elements_base_vertex"),
            geometry: es32 || has("GL_OES_geometry_shader") || has("GL_EXT_geometry_shader"),
            tessellation: if es32 {
                Some("")
            } else {
                ["GL_OES_tessellation_shader", "GL_EXT_tessellation_shader"]
                    .into_iter()
                    .find(|e| has(e))
            },
            tessellation_point_size: [
                "GL_EXT_tessellation_point_size",
                "GL_OES_tessellation_point_size",
            ]
            .into_iter()
            .find(|e| has(e)),
            geometry_point_size: ["GL_EXT_geometry_point_size", "GL_OES_geometry_point_size"]
                .into_iter()
                .find(|e| has(e)),
            texture_buffer: es32 || has("GL_OES_texture_buffer") || has("GL_EXT_texture_buffer"),
            multisample_texture: minor >= 1,
            multisample_array: es32 || has("GL_OES_texture_storage_multisample_2d_array"),
            cube_map_array: es32,
            norm16: has("GL_EXT_texture_norm16"),
            rgtc: has("GL_EXT_texture_compression_rgtc"),
            bptc: has("GL_EXT_texture_compression_bptc"),
            border_clamp: es32
                || has("GL_OES_texture_border_clamp")
                || has("GL_EXT_texture_border_clamp"),
            mirror_clamp: has("GL_EXT_texture_mirror_clamp_to_edge"),
            polygon_offset_clamp: has("GL_EXT_polygon_offset_clamp"),
            anisotropy: has("GL_EXT_texture_filter_anisotropic"),
            depth_clamp: has("GL_EXT_depth_clamp"),
            clip_distance: has("GL_EXT_clip_cull_distance"),
            clip_control: has("GL_EXT_clip_control"),
            srgb_write_control: has("GL_EXT_sRGB_write_control"),
            blend_func_extended: has("GL_EXT_blend_func_extended"),
            read_depth: has("GL_NV_read_depth"),
            read_stencil: has("GL_NV_read_stencil"),
            read_depth_stencil: has("GL_NV_read_depth_stencil"),
            timer_query: has("GL_EXT_disjoint_timer_query"),
            texture_stencil8: es32 || has("GL_OES_texture_stencil8"),
            draw_indirect: minor >= 1,
            base_instance: has("GL_EXT_base_instance"),
            robustness: es32 || has("GL_KHR_robustness") || has("GL_EXT_robustness"),
            texture_view: if has("GL_OES_texture_view") {
                Some("glTextureViewOES")
            } else if has("GL_EXT_texture_view") {
                Some("glTextureViewEXT")
            } else {
                None
            },
        }
    }
}

/// Native limits the backend needs on its own paths.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub texture_units: usize,
    pub uniform_bindings: usize,
    pub uniform_align: u32,
    pub vertex_attribs: usize,
    /// Bit `i`: attribute `i` exists natively (`i < vertex_attribs`, at most
    /// `MAX_VERTEX_ATTRIBS`).
    pub attrib_mask: u16,
    pub draw_buffers: usize,
}

/// Something the driver lacks, reported once per session (bits of `GlesPipe::reported`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Missing {
    PolygonMode,
    PolygonOffsetLinePoint,
    ProvokingVertex,
    DepthClamp,
    LogicOp,
    AlphaToOne,
    LineSmooth,
    PolygonSmooth,
    MultisampleOff,
    ClipDistance,
    DualSourceBlend,
    IndexedBlend,
    RestartIndex,
    BaseVertex,
    AdjacencyTopology,
    AttribType,
    SamplesPassed,
    Query,
    TextureBuffer,
    CompressedFormat,
    MultisampleTexture,
    LayeredAttachment,
    WrapMode,
    Anisotropy,
    BorderColor,
    ReadDepthStencil,
    DrawBufferCount,
    TextureUnits,
    StencilTexture,
    BaseInstance,
    TextureView,
    SampleShading,
    ViewportArray,
    FramebufferDefaults,
}

/// A buffer object.
pub(crate) struct Buffer {
    pub name: glow::Buffer,
    pub size: u64,
    /// Bumped (from [`GlesPipe::buffer_writes`]) by every write of its contents, so copies
    /// made from it (`vertex.rs`) know when they are stale.
    pub version: u64,
}

impl ByteSized for Buffer {
    fn byte_size(&self) -> u64 {
        self.size
    }
}

/// A sampler CSO.
pub(crate) struct Sampler {
    pub name: glow::Sampler,
    /// `TEXTURE_LOD_BIAS`, which GLES samplers lack: programs add it (`spirv.rs`).
    pub lod_bias: f32,
    /// What `textureQueryLod` reads of it (`texture_query.rs`).
    pub lod_query: [f32; 4],
}

/// The session's side of the native driver: it carries out records on the GL context (it
/// is the backend's [`Pipe`](tessera_wire::dispatch::Pipe), one domain trait per file), owns
/// every native object of the session with its table, the caches (programs, placeholders,
/// the uniform ring) and the `NativeState` of native state (`shadow.rs`).
pub(crate) struct GlesPipe {
    pub gl: crate::census::CountedGl,
    pub features: Features,
    pub limits: Limits,
    pub caps: Caps,
    pub extra: ExtraFns,
    pub shadow: NativeState,
    pub buffers: SlotTable<BufferHandle, Buffer>,
    pub textures: SlotTable<TextureHandle, Texture>,
    pub renderbuffers: SlotTable<RenderbufferHandle, Renderbuffer>,
    pub framebuffers: SlotTable<FramebufferHandle, Framebuffer>,
    pub surfaces: SlotTable<SurfaceHandle, Surface>,
    pub blends: SlotTable<BlendHandle, NativeBlend>,
    pub depth_stencils: SlotTable<DepthStencilHandle, DepthStencilState>,
    pub rasters: SlotTable<RasterHandle, RasterState>,
    pub samplers: SlotTable<SamplerHandle, Sampler>,
    pub layouts: SlotTable<VertexLayoutHandle, Box<VertexLayout>>,
    pub programs: SlotTable<ProgramHandle, Program>,
    pub queries: SlotTable<QueryHandle, Query>,
    pub xfbs: SlotTable<tessera_wire::handle::TransformFeedbackHandle, crate::xfb::XfbObject>,
    /// The program's `TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN` query while it is active, split
    /// around each captured draw (`query.rs`).
    pub xfb_written_query: Option<QueryHandle>,
    /// The program's stream-0 `PRIMITIVES_GENERATED` query while it is active, split around
    /// the passes of other vertex streams (`streams.rs`).
    pub generated_query: Option<QueryHandle>,
    /// The active queries of vertex streams 1 to 3, by stream and kind (`streams.rs`: they
    /// count the streams' passes, no native query of their own is active).
    pub stream_queries: [[Option<QueryHandle>; 2]; crate::streams::STREAMS - 1],
    pub fences: SlotTable<FenceHandle, Fence>,
    pub program_cache: ProgramCache,
    /// The per-draw arrays of the last multi-draw, reused (`multi_draw.rs`).
    pub multi_draw_lists: crate::multi_draw::Lists,
    pub spirv_cross: SpirvCross,
    /// 1x1 (0, 0, 0, 1) textures for unbound sampler slots, by target index.
    pub placeholders: [Option<glow::Texture>; crate::shadow::TARGET_COUNT],
    /// A framebuffer for resolves and reads of images no FBO holds.
    pub scratch_fbo: Option<glow::Framebuffer>,
    /// The streaming buffer of default uniform blocks, made on first use.
    pub ring: Option<crate::command::UniformRing>,
    /// Events produced while applying the current batch.
    pub events: Vec<Event>,
    /// Refusals to inject (`tessera_wire::fault`; tests only).
    pub faults: tessera_wire::fault::Faults,
    /// `glGetError` after every record, reported as events ([`crate::GlesOptions::debug`]).
    pub debug: bool,
    /// Doubles are narrowed to floats ([`crate::GlesOptions::narrow_fp64`]).
    pub narrow_fp64: bool,
    /// Default uniform blocks become plain uniforms where they can
    /// ([`crate::GlesOptions::uniform_buffer`] off).
    pub plain_uniforms: bool,
    reported: u64,
    /// Native state changed outside `command.rs`'s reconcile (command::dirty bits).
    pub disturbed: u32,
    /// A draw or dispatch of a program with storage blocks ran since the last barrier:
    /// buffer reads and copies order after it first (`GlesPipe::storage_barrier`).
    pub storage_written: bool,
    /// The windows the backend presents into (`present.rs`).
    pub presenters: crate::present::Presenters,
    /// How textures become `EGLImage`s and back (`egl_image.rs`; `None`: the driver cannot).
    pub egl_images: Option<crate::egl_image::ImageEgl>,
    /// Bumped whenever a texture's native name changes (immutable storage recreated), so
    /// framebuffers re-check their attachments.
    pub epoch: u64,
    /// Bumped by what can make a context's last reconcile stale without a dirty bit (a
    /// destroyed program, an orphaned uniform ring): a context whose `ready_at` differs
    /// reconciles in full at its next draw (`command.rs`).
    pub validity: u64,
    /// Buffer writes so far: the source of [`Buffer::version`].
    pub buffer_writes: u64,
    /// Bytes of the buffers and texture images this backend created, live now: an estimate
    /// of the device memory it holds (GLES tells no allocation's size; a driver pads and
    /// may keep more), kept as they are created and destroyed
    /// ([`tessera_wire::BackendCounters::device_memory`]).
    pub memory: u64,
    /// Converted copies read by `GL_BGRA` attributes, per attribute index (`vertex.rs`).
    pub bgra: [Option<crate::vertex::BgraCopy>; MAX_VERTEX_ATTRIBS],
}

impl GlesPipe {
    /// Queries limits and caps, and sets the context-wide state the backend never changes.
    pub fn new(
        gl: crate::census::CountedGl,
        features: Features,
        extra: ExtraFns,
        renderer: String,
        spirv_cross: SpirvCross,
    ) -> Self {
        // SAFETY: the context is current on this thread (GlesBackend::new made it so); these
        // are ES 3.0 queries of single integers (two for MAX_VIEWPORT_DIMS; the geometry
        // stage's only where the context has one) into correctly sized outputs, and
        // pixel-store settings with valid values.
        let (caps, limits) = unsafe {
            let int = |p: u32| gl.get_parameter_i32(p).max(0) as u32;
            let mut viewport = [0i32; 2];
            gl.get_parameter_i32_slice(glow::MAX_VIEWPORT_DIMS, &mut viewport);
            let caps = Caps {
                backend: "gles".to_owned(),
                device: renderer,
                max_texture_size: int(glow::MAX_TEXTURE_SIZE),
                max_3d_texture_size: int(glow::MAX_3D_TEXTURE_SIZE),
                max_array_layers: int(glow::MAX_ARRAY_TEXTURE_LAYERS),
                max_cube_size: int(glow::MAX_CUBE_MAP_TEXTURE_SIZE),
                max_renderbuffer_size: int(glow::MAX_RENDERBUFFER_SIZE),
                max_samples: int(glow::MAX_SAMPLES),
                sample_counts: renderbuffer_sample_counts(&gl),
                max_viewport_size: viewport[0].min(viewport[1]).max(0) as u32,
                // ES 3.2's (EXT_texture_buffer's) query; GL 4.3's largest value without
                // buffer textures.
                texture_buffer_offset_alignment: if features.texture_buffer {
                    int(glow::TEXTURE_BUFFER_OFFSET_ALIGNMENT).max(1)
                } else {
                    256
                },
                // A 64-bit query: 2^32 - 1 does not fit an int.
                max_element_index: gl
                    .get_parameter_i64(glow::MAX_ELEMENT_INDEX)
                    .clamp(0, i64::from(u32::MAX)) as u32,
                max_vertex_output_components: int(glow::MAX_VERTEX_OUTPUT_COMPONENTS),
                // ES 3.2's (EXT/OES_geometry_shader's) query; without geometry shaders the
                // vertex outputs are what a geometry stage would read.
                max_geometry_input_components: if features.geometry {
                    int(glow::MAX_GEOMETRY_INPUT_COMPONENTS)
                } else {
                    int(glow::MAX_VERTEX_OUTPUT_COMPONENTS)
                },
                texture_views: features.texture_view.is_some(),
                bptc: features.bptc,
                indexed_blend: features.draw_buffers_indexed,
                sample_shading: features.sample_shading,
                // OpenGL ES has no doubles; narrowing them to floats is not carried out yet.
                fp64: false,
                fp64_narrowed: false,
                vertex_attrib_64bit: false,
                // What GLSL ES 3.10 refuses of GL's images, image_lowering.rs rewrites.
                image_load_store: features.image_load_store,
                // GLSL ES has no textureQueryLod or textureQueryLevels: programs read
                // uniforms and compute the level of detail instead (texture_query.rs).
                texture_level_queries: true,
                // GLSL ES 3.20 declares gl_Layer in fragment shaders.
                fragment_layer: features.minor >= 2,
                // GLES has one vertex stream; a program's others are passes of their own
                // (streams.rs), where geometry shaders exist.
                max_vertex_streams: if features.geometry { 4 } else { 1 },
                clip_control: extra.clip_control.is_some(),
                draw_parameters: false,
                // EXT_clip_cull_distance's minimum limits, which every driver with it has:
                // Mesa 22's ES contexts raise INVALID_ENUM for the two queries.
                max_cull_distances: if features.clip_distance { 8 } else { 0 },
                max_combined_clip_and_cull_distances: if features.clip_distance { 8 } else { 0 },
                // The driver samples a texture a draw renders to (GL ES leaves what it reads
                // undefined; Mesa reads the texels, which ES 3.1's glMemoryBarrier makes
                // current).
                texture_barrier: features.minor >= 1,
                texture_buffer_rgb32: features.texture_buffer,
                stencil_texturing: features.minor >= 1,
                texture_stencil8: features.texture_stencil8,
                mirror_clamp_to_edge: features.mirror_clamp,
                polygon_offset_clamp: extra.polygon_offset_clamp.is_some(),
                // GLES has no such vertex type: the array is read from a converted copy
                // (vertex.rs).
                vertex_10f_11f_11f: true,
                // ES has no pipeline statistics queries.
                pipeline_statistics: false,
                // Not carried out: the written and generated counts of each stream would
                // have to be compared per draw.
                transform_feedback_overflow: false,
                // The context was made robust where the driver offers it (egl.rs).
                // SPIRV-Cross writes no `component` qualifier in GLSL ES.
                enhanced_layouts: false,
                // Textures go out as EGL images, never as Vulkan memory.
                memory_export: false,
                device_uuids: [[0; 16]; 2],
                host_images: false,
                semaphore_fd: false,
                sync_fd_export: false,
                // Set once the backend knows whether it joined a host's context (lib.rs).
                host_textures: false,
                // Set once the backend knows its EGL (lib.rs).
                egl_images: false,
                robust_buffer_access: features.robustness
                    && gl.get_parameter_i32(CONTEXT_ROBUST_ACCESS) != 0,
                max_anisotropy: if features.anisotropy {
                    gl.get_parameter_f32(glow::MAX_TEXTURE_MAX_ANISOTROPY) as u32
                } else {
                    0
                },
                // GL's 16 viewports, where the driver has as many (MAX_VIEWPORTS_OES).
                viewport_arrays: features.viewport_array
                    && int(glow::MAX_VIEWPORTS) >= MAX_VIEWPORTS as u32,
                cube_map_arrays: features.cube_map_array,
                // ES 3.1's gathers and its queries of GL's names; variable offsets and
                // `textureGatherOffsets` are GLSL ES 3.20's.
                gather: (features.minor >= 1).then(|| tessera_wire::GatherCaps {
                    min_offset: gl.get_parameter_i32(glow::MIN_PROGRAM_TEXTURE_GATHER_OFFSET),
                    max_offset: gl.get_parameter_i32(glow::MAX_PROGRAM_TEXTURE_GATHER_OFFSET),
                    extended: features.minor >= 2,
                }),
                // GLSL ES 3.20 has what GLSL 4.00's gpu_shader5 adds.
                gpu_shader5: (features.minor >= 2).then(|| tessera_wire::Shader5Caps {
                    max_geometry_invocations: int(glow::MAX_GEOMETRY_SHADER_INVOCATIONS),
                }),
                packing: features.minor >= 1,
                tessellation: if features.tessellation.is_some() {
                    // ES 3.2's (EXT/OES_tessellation_shader's) queries of GL's names.
                    TessellationCaps {
                        max_patch_vertices: int(glow::MAX_PATCH_VERTICES),
                        max_gen_level: int(glow::MAX_TESS_GEN_LEVEL),
                        max_control_input_components: int(glow::MAX_TESS_CONTROL_INPUT_COMPONENTS),
                        max_control_output_components: int(
                            glow::MAX_TESS_CONTROL_OUTPUT_COMPONENTS,
                        ),
                        max_patch_components: int(glow::MAX_TESS_PATCH_COMPONENTS),
                        max_control_total_output_components: int(
                            glow::MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS,
                        ),
                        max_evaluation_input_components: int(
                            glow::MAX_TESS_EVALUATION_INPUT_COMPONENTS,
                        ),
                        max_evaluation_output_components: int(
                            glow::MAX_TESS_EVALUATION_OUTPUT_COMPONENTS,
                        ),
                    }
                } else {
                    TessellationCaps::none()
                },
                compute: if features.minor >= 1 {
                    // GLES 3.1's compute shaders and storage buffers, queried by GL's
                    // names (the indexed ones per dimension).
                    let dims = |p: u32| {
                        [0, 1, 2].map(|i| gl.get_parameter_indexed_i32(p, i).max(0) as u32)
                    };
                    ComputeCaps {
                        max_work_group_count: dims(glow::MAX_COMPUTE_WORK_GROUP_COUNT),
                        max_work_group_size: dims(glow::MAX_COMPUTE_WORK_GROUP_SIZE),
                        max_work_group_invocations: int(glow::MAX_COMPUTE_WORK_GROUP_INVOCATIONS),
                        max_shared_memory_size: int(glow::MAX_COMPUTE_SHARED_MEMORY_SIZE),
                        // The compute and fragment stages' (ES may give the vertex stage
                        // none; the engine reports one number for every stage).
                        max_storage_blocks: int(glow::MAX_COMPUTE_SHADER_STORAGE_BLOCKS)
                            .min(int(glow::MAX_FRAGMENT_SHADER_STORAGE_BLOCKS))
                            .min(int(glow::MAX_SHADER_STORAGE_BUFFER_BINDINGS)),
                        max_storage_block_size: int(glow::MAX_SHADER_STORAGE_BLOCK_SIZE),
                        storage_offset_alignment: int(glow::SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT)
                            .max(1),
                    }
                } else {
                    ComputeCaps::none()
                },
            };
            let limits = Limits {
                texture_units: int(glow::MAX_COMBINED_TEXTURE_IMAGE_UNITS) as usize,
                uniform_bindings: int(glow::MAX_UNIFORM_BUFFER_BINDINGS) as usize,
                uniform_align: int(glow::UNIFORM_BUFFER_OFFSET_ALIGNMENT).max(1),
                vertex_attribs: int(glow::MAX_VERTEX_ATTRIBS) as usize,
                attrib_mask: (0..int(glow::MAX_VERTEX_ATTRIBS).min(MAX_VERTEX_ATTRIBS as u32))
                    .fold(0, |m, i| m | 1 << i),
                draw_buffers: int(glow::MAX_DRAW_BUFFERS).min(MAX_DRAW_BUFFERS as u32) as usize,
            };
            // Records carry tightly packed rows: set once, never changed.
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
            (caps, limits)
        };
        let shadow = NativeState::new(
            limits.texture_units,
            limits.uniform_bindings,
            limits.vertex_attribs,
            features.draw_buffers_indexed,
            extra.viewport_arrays,
        );
        Self {
            gl,
            features,
            limits,
            caps,
            extra,
            shadow,
            buffers: SlotTable::new(),
            textures: SlotTable::new(),
            renderbuffers: SlotTable::new(),
            framebuffers: SlotTable::new(),
            surfaces: SlotTable::new(),
            blends: SlotTable::new(),
            depth_stencils: SlotTable::new(),
            rasters: SlotTable::new(),
            samplers: SlotTable::new(),
            layouts: SlotTable::new(),
            programs: SlotTable::new(),
            queries: SlotTable::new(),
            xfbs: SlotTable::new(),
            xfb_written_query: None,
            generated_query: None,
            stream_queries: [[None; 2]; crate::streams::STREAMS - 1],
            fences: SlotTable::new(),
            program_cache: ProgramCache::default(),
            multi_draw_lists: Default::default(),
            spirv_cross,
            placeholders: [None; crate::shadow::TARGET_COUNT],
            scratch_fbo: None,
            ring: None,
            buffer_writes: 0,
            memory: 0,
            bgra: std::array::from_fn(|_| None),
            events: Vec::new(),
            faults: tessera_wire::fault::Faults::from_env(),
            debug: false,
            narrow_fp64: false,
            plain_uniforms: true,
            reported: 0,
            disturbed: 0,
            storage_written: false,
            presenters: crate::present::Presenters::new(None),
            egl_images: None,
            epoch: 0,
            validity: 1,
        }
    }

    /// Reports once that the driver lacks `what`.
    #[cold]
    pub fn report(&mut self, missing: Missing, what: &str) {
        let bit = 1u64 << missing as u8;
        if self.reported & bit == 0 {
            self.reported |= bit;
            log::warn!("tessera-backend-gles: {what}");
            self.events.push(Event::Unsupported {
                what: what.to_owned(),
            });
        }
    }

    /// Debug mode: drains glGetError after a record and reports what it found.
    #[cold]
    #[inline(never)]
    pub fn check_errors(&mut self, name: &str) {
        loop {
            // SAFETY: context current; glGetError has no preconditions.
            let error = unsafe { self.gl.get_error() };
            if error == glow::NO_ERROR {
                break;
            }
            self.events.push(Event::NativeError {
                what: format!("{name}: GL error {error:#06x}"),
            });
        }
    }

    pub(crate) fn native_error(what: &str, e: String) -> SessionError {
        SessionError::Backend(format!("{what}: {e}"))
    }

    // ---- Buffers ----

    /// Marks a live buffer's contents as changed.
    fn wrote_buffer(&mut self, handle: BufferHandle) {
        self.buffer_writes += 1;
        let version = self.buffer_writes;
        if let Ok(b) = self.buffers.get_mut("", handle) {
            b.version = version;
        }
    }

    /// Reads a buffer range back, for `record` (`ReadBuffer`, uploads from buffers, index
    /// rewrites).
    pub fn read_buffer_as(
        &mut self,
        record: &'static str,
        handle: BufferHandle,
        offset: u64,
        size: u64,
    ) -> Result<Vec<u8>, SessionError> {
        let name = self.buffers.get_range(record, handle, offset, size)?.name;
        let mut out = vec![0u8; size as usize];
        if size == 0 {
            return Ok(out);
        }
        self.storage_barrier();
        self.shadow
            .bind_buffer(&self.gl, glow::COPY_READ_BUFFER, Some(name));
        // SAFETY: context current; the buffer is bound to COPY_READ_BUFFER and the range lies
        // inside it. glMapBufferRange returns NULL or a pointer to `size` readable bytes,
        // valid until glUnmapBuffer, and nothing else writes the buffer meanwhile.
        unsafe {
            let p = self.gl.map_buffer_range(
                glow::COPY_READ_BUFFER,
                offset as i32,
                size as i32,
                glow::MAP_READ_BIT,
            );
            if p.is_null() {
                return Err(SessionError::Backend(
                    "glMapBufferRange for reading returned NULL".to_owned(),
                ));
            }
            std::ptr::copy_nonoverlapping(p, out.as_mut_ptr(), out.len());
            self.gl.unmap_buffer(glow::COPY_READ_BUFFER);
        }
        Ok(out)
    }

    // ---- CSOs ----

    /// `CreateSamplerState`: a native sampler object.
    pub fn create_sampler(
        &mut self,
        handle: SamplerHandle,
        s: &SamplerState,
    ) -> Result<(), SessionError> {
        const N: &str = "CreateSamplerState";
        // SAFETY: context current; glGenSamplers has no preconditions.
        let name = unsafe { self.gl.create_sampler() }.map_err(|e| Self::native_error(N, e))?;
        let wraps = s.wrap.map(|w| conv::map_wrap(w, &self.features));
        if wraps.iter().any(|w| w.1) {
            self.report(Missing::WrapMode, "CLAMP_TO_BORDER / MIRROR_CLAMP_TO_EDGE without the GLES extension: CLAMP_TO_EDGE instead");
        }
        if s.max_anisotropy > 1.0 && !self.features.anisotropy {
            self.report(
                Missing::Anisotropy,
                "no EXT_texture_filter_anisotropic: anisotropy ignored",
            );
        }
        let gl = &self.gl;
        // SAFETY: context current; `name` is a new sampler; every parameter is an ES 3.0
        // sampler parameter (or one of an extension checked in `features`) with a value from
        // conv's maps.
        unsafe {
            gl.sampler_parameter_i32(
                name,
                glow::TEXTURE_MAG_FILTER,
                conv::map_mag_filter(s.mag_filter) as i32,
            );
            gl.sampler_parameter_i32(
                name,
                glow::TEXTURE_MIN_FILTER,
                conv::map_min_filter(s.min_filter, s.mip_filter) as i32,
            );
            gl.sampler_parameter_i32(name, glow::TEXTURE_WRAP_S, wraps[0].0 as i32);
            gl.sampler_parameter_i32(name, glow::TEXTURE_WRAP_T, wraps[1].0 as i32);
            gl.sampler_parameter_i32(name, glow::TEXTURE_WRAP_R, wraps[2].0 as i32);
            gl.sampler_parameter_f32(name, glow::TEXTURE_MIN_LOD, s.min_lod);
            gl.sampler_parameter_f32(name, glow::TEXTURE_MAX_LOD, s.max_lod);
            match s.compare {
                Some(func) => {
                    gl.sampler_parameter_i32(
                        name,
                        glow::TEXTURE_COMPARE_MODE,
                        glow::COMPARE_REF_TO_TEXTURE as i32,
                    );
                    gl.sampler_parameter_i32(
                        name,
                        glow::TEXTURE_COMPARE_FUNC,
                        conv::map_compare_func(func) as i32,
                    );
                }
                None => {
                    gl.sampler_parameter_i32(name, glow::TEXTURE_COMPARE_MODE, glow::NONE as i32)
                }
            }
            if self.features.anisotropy && s.max_anisotropy > 1.0 {
                gl.sampler_parameter_f32(name, glow::TEXTURE_MAX_ANISOTROPY, s.max_anisotropy);
            }
            if self.features.border_clamp && s.border_color != [0; 4] {
                if s.border_is_integer {
                    // Integer border colours need glSamplerParameterIiv, which glow lacks;
                    // the float path keeps normalized colours right.
                } else {
                    let c = s.border_color.map(f32::from_bits);
                    gl.sampler_parameter_f32_slice(name, glow::TEXTURE_BORDER_COLOR, &c);
                }
            }
        }
        if s.border_is_integer && s.border_color != [0; 4] {
            self.report(
                Missing::BorderColor,
                "integer border colours are not set on GLES samplers",
            );
        }
        self.samplers.insert(
            N,
            handle,
            Sampler {
                name,
                lod_bias: s.lod_bias,
                lod_query: crate::texture_query::lod_sampler(s),
            },
        )
    }

    /// `DestroySamplerState`.
    pub fn destroy_sampler(&mut self, handle: SamplerHandle) -> Result<(), SessionError> {
        let s = self.samplers.remove("DestroySamplerState", handle)?;
        self.shadow.delete_sampler(&self.gl, s.name);
        Ok(())
    }

    /// The placeholder 1x1 (0, 0, 0, 1) texture of a target, made on first use; `None` for
    /// targets that cannot hold one (multisample, buffer: GL reads (0, 0, 0, 1) from an
    /// incomplete texture there too).
    pub fn placeholder(&mut self, target: u32) -> Option<glow::Texture> {
        let index = conv::target_index(target);
        if let Some(t) = self.placeholders[index] {
            return Some(t);
        }
        if !matches!(
            target,
            glow::TEXTURE_2D | glow::TEXTURE_3D | glow::TEXTURE_2D_ARRAY | glow::TEXTURE_CUBE_MAP
        ) {
            return None;
        }
        // SAFETY: context current; glGenTextures has no preconditions.
        let tex = unsafe { self.gl.create_texture() }.ok()?;
        let unit = self.scratch_unit();
        self.shadow.bind_texture(&self.gl, unit, target, Some(tex));
        self.disturbed |= crate::command::dirty::TEXTURES;
        let black = [0u8, 0, 0, 255];
        let data = glow::PixelUnpackData::Slice(Some(&black));
        // SAFETY: context current; `tex` is bound to `target` on the active unit; one RGBA8
        // texel per image, matching `black`'s 4 bytes (6 faces for a cube, each 1x1).
        unsafe {
            let gl = &self.gl;
            let internal = glow::RGBA8 as i32;
            match target {
                glow::TEXTURE_2D => gl.tex_image_2d(
                    target,
                    0,
                    internal,
                    1,
                    1,
                    0,
                    glow::RGBA,
                    glow::UNSIGNED_BYTE,
                    data,
                ),
                glow::TEXTURE_CUBE_MAP => {
                    for face in 0..6 {
                        gl.tex_image_2d(
                            glow::TEXTURE_CUBE_MAP_POSITIVE_X + face,
                            0,
                            internal,
                            1,
                            1,
                            0,
                            glow::RGBA,
                            glow::UNSIGNED_BYTE,
                            glow::PixelUnpackData::Slice(Some(&black)),
                        );
                    }
                }
                _ => gl.tex_image_3d(
                    target,
                    0,
                    internal,
                    1,
                    1,
                    1,
                    0,
                    glow::RGBA,
                    glow::UNSIGNED_BYTE,
                    data,
                ),
            }
            gl.tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, 0);
        }
        self.placeholders[index] = Some(tex);
        Some(tex)
    }

    /// The texture unit uploads and other non-draw texture work bind on: the last one, so
    /// that it rarely disturbs a draw's bindings.
    pub fn scratch_unit(&self) -> usize {
        self.limits.texture_units.saturating_sub(1)
    }

    /// The scratch framebuffer, made on first use.
    pub fn scratch_framebuffer(&mut self) -> Result<glow::Framebuffer, SessionError> {
        if let Some(f) = self.scratch_fbo {
            return Ok(f);
        }
        // SAFETY: context current; glGenFramebuffers has no preconditions.
        let f = unsafe { self.gl.create_framebuffer() }
            .map_err(|e| Self::native_error("scratch framebuffer", e))?;
        self.scratch_fbo = Some(f);
        Ok(f)
    }
}

impl BufferPipe for GlesPipe {
    /// `CreateBuffer`: (re)allocates zeroed storage. Storage the driver cannot give (a size
    /// past GLES's 31 bits, or a refusal) is reported as [`Event::OutOfMemory`], which the
    /// program sees as `GL_OUT_OF_MEMORY`, and the buffer stands in with no storage: a later
    /// use of bytes it lacks ends the session, which the program sees as a context reset.
    fn create_buffer(&mut self, handle: BufferHandle, size: u64) -> R {
        const N: &str = "CreateBuffer";
        let len = match i32::try_from(size) {
            Ok(_) if size > 0 && self.faults.refuse(N) => Err("refused by the driver"),
            Ok(len) => Ok(len),
            Err(_) => Err("GLES sizes are 31-bit"),
        };
        let len = match len {
            Ok(len) => len,
            Err(why) => {
                let what = format!("a {size}-byte buffer ({why})");
                self.events.push(Event::OutOfMemory { what });
                return self.create_buffer(handle, 0);
            }
        };
        self.buffer_writes += 1;
        let version = self.buffer_writes;
        let name = if let Ok(b) = self.buffers.get_mut(N, handle) {
            self.memory = self.memory.saturating_sub(b.size) + size;
            b.size = size;
            b.version = version;
            b.name
        } else {
            // SAFETY: context current; glGenBuffers has no preconditions.
            let name = unsafe { self.gl.create_buffer() }.map_err(|e| Self::native_error(N, e))?;
            self.memory += size;
            self.buffers.insert(
                N,
                handle,
                Buffer {
                    name,
                    size,
                    version,
                },
            )?;
            name
        };
        self.shadow
            .bind_buffer(&self.gl, glow::COPY_WRITE_BUFFER, Some(name));
        // New storage reads as zeros (the record's contract): filled in bounded chunks, so a
        // big buffer never needs a big host allocation.
        let zeros = vec![0u8; (len as usize).min(ZERO_CHUNK)];
        // SAFETY: context current; the buffer is bound to COPY_WRITE_BUFFER (just above);
        // glBufferData(NULL) allocates `len` bytes and every glBufferSubData below writes a
        // range inside them.
        unsafe {
            self.gl
                .buffer_data_size(glow::COPY_WRITE_BUFFER, len, glow::DYNAMIC_DRAW);
            let mut offset = 0usize;
            while offset < len as usize {
                let n = zeros.len().min(len as usize - offset);
                self.gl.buffer_sub_data_u8_slice(
                    glow::COPY_WRITE_BUFFER,
                    offset as i32,
                    &zeros[..n],
                );
                offset += n;
            }
        }
        Ok(())
    }

    /// `DestroyBuffer`.
    fn destroy_buffer(&mut self, handle: BufferHandle) -> R {
        let buffer = self.buffers.remove("DestroyBuffer", handle)?;
        self.memory = self.memory.saturating_sub(buffer.size);
        self.shadow.delete_buffer(&self.gl, buffer.name);
        Ok(())
    }

    /// `WriteBuffer`, and read-backs into a pack buffer: `record` names which.
    fn write_buffer(&mut self, record: &'static str, write: BufferWrite<'_>) -> R {
        let (handle, offset, data) = (write.buffer, write.offset, write.bytes);
        let name = self
            .buffers
            .get_range(record, handle, offset, data.len() as u64)?
            .name;
        if data.is_empty() {
            return Ok(());
        }
        self.wrote_buffer(handle);
        self.shadow
            .bind_buffer(&self.gl, glow::COPY_WRITE_BUFFER, Some(name));
        // SAFETY: context current; the buffer is bound to COPY_WRITE_BUFFER and the range
        // lies inside its storage (checked above; sizes fit i32, see create_buffer).
        unsafe {
            self.gl
                .buffer_sub_data_u8_slice(glow::COPY_WRITE_BUFFER, offset as i32, data)
        };
        Ok(())
    }

    /// `CopyBuffer`.
    fn copy_buffer(&mut self, src: BufferHandle, dst: BufferHandle, region: BufferCopy) -> R {
        const N: &str = "CopyBuffer";
        let (src_offset, dst_offset, size) = (region.src_offset, region.dst_offset, region.size);
        let (from, to) = self.buffers.copy_ranges(N, src, dst, region)?;
        let (from, to) = (from.name, to.name);
        if size == 0 {
            return Ok(());
        }
        self.storage_barrier();
        self.wrote_buffer(dst);
        self.shadow
            .bind_buffer(&self.gl, glow::COPY_READ_BUFFER, Some(from));
        self.shadow
            .bind_buffer(&self.gl, glow::COPY_WRITE_BUFFER, Some(to));
        // SAFETY: context current; both ranges lie inside their buffers (checked above), the
        // buffers are bound to the copy targets, and same-buffer ranges do not overlap.
        unsafe {
            self.gl.copy_buffer_sub_data(
                glow::COPY_READ_BUFFER,
                glow::COPY_WRITE_BUFFER,
                src_offset as i32,
                dst_offset as i32,
                size as i32,
            )
        };
        Ok(())
    }

    /// `ReadBuffer`: maps the range for reading and copies it out.
    fn read_buffer(&mut self, handle: BufferHandle, range: BufferRange) -> Bytes {
        self.read_buffer_as("ReadBuffer", handle, range.offset, range.size)
    }
}

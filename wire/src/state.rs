//! State structs split by pipeline stage, as gallium splits them.
//!
//! The constant state objects (`BlendState`, `DepthStencilState`, `RasterState`,
//! `SamplerState`, `VertexLayout`) are content-addressed: the client keeps one CSO per distinct
//! value, so every struct here is canonical — a field that cannot matter is zeroed by the
//! engine (an unused draw buffer's blend bits, a disabled attribute's format), so two states
//! that behave the same compare equal. State a backend can set dynamically (viewport, scissor,
//! blend colour, stencil reference, depth bias, line width, point size, sample coverage) is
//! never part of a CSO; it travels in `Set*` records.

use rkyv::{Archive, Deserialize, Serialize};

use crate::format::{
    BlendFactor, BlendOp, CompareFunc, CullMode, Filter, Format, LogicOp, MipFilter, PolygonMode,
    StencilOp, Swizzle, VertexFormat, Wrap,
};
use crate::handle::{RenderbufferHandle, TextureHandle};

/// Draw buffers a framebuffer can have (`GL_MAX_DRAW_BUFFERS`, `GL_MAX_COLOR_ATTACHMENTS`):
/// 8 is what GL 3.3 requires and what every Vulkan and GLES 3 driver of interest offers.
pub const MAX_DRAW_BUFFERS: usize = 8;
/// Vertex attributes (`GL_MAX_VERTEX_ATTRIBS`): GL 3.3's minimum and Vulkan's common floor.
pub const MAX_VERTEX_ATTRIBS: usize = 16;
/// Texture units across all stages (`GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS`): 3 stages x 16.
pub const MAX_TEXTURE_UNITS: usize = 48;
/// Uniform buffer binding points (`GL_MAX_UNIFORM_BUFFER_BINDINGS`): 3 stages x 12, GL's minimum.
pub const MAX_UNIFORM_BUFFER_BINDINGS: usize = 36;
/// Shader storage buffer binding points (`GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS`), and the
/// storage blocks a program may have: GL 4.3's minimum is 8; 16 is what lavapipe and
/// llvmpipe give one stage (`maxPerStageDescriptorStorageBuffers`,
/// `MAX_COMPUTE_SHADER_STORAGE_BLOCKS`).
pub const MAX_STORAGE_BUFFER_BINDINGS: usize = 16;
/// Image slots a program may have (`GL_ARB_shader_image_load_store`): llvmpipe's 192
/// image uniforms of all stages together (`MAX_COMBINED_IMAGE_UNIFORMS`; 32 in one stage).
/// The engine's image units are client state only: it binds each image uniform of the
/// program to its own slot.
pub const MAX_IMAGE_SLOTS: usize = 192;
/// Viewports, scissor rectangles and depth ranges a context has (`GL_MAX_VIEWPORTS`, GL 4.1's
/// viewport arrays): GL's minimum of 16, which native llvmpipe and lavapipe give too.
pub const MAX_VIEWPORTS: usize = 16;

/// One draw buffer's blend factors and equations.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct BlendFunc {
    /// Source factor for RGB.
    pub src_rgb: BlendFactor,
    /// Destination factor for RGB.
    pub dst_rgb: BlendFactor,
    /// Source factor for alpha.
    pub src_alpha: BlendFactor,
    /// Destination factor for alpha.
    pub dst_alpha: BlendFactor,
    /// RGB equation.
    pub op_rgb: BlendOp,
    /// Alpha equation.
    pub op_alpha: BlendOp,
}

impl Default for BlendFunc {
    fn default() -> Self {
        Self {
            src_rgb: BlendFactor::One,
            dst_rgb: BlendFactor::Zero,
            src_alpha: BlendFactor::One,
            dst_alpha: BlendFactor::Zero,
            op_rgb: BlendOp::Add,
            op_alpha: BlendOp::Add,
        }
    }
}

/// Blend and colour-output state (gallium `pipe_blend_state`).
///
/// Enables, blend functions and equations (`ARB_draw_buffers_blend`, GL 4.0) and colour write
/// masks are per draw buffer.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct BlendState {
    /// Bit `i`: blending enabled for draw buffer `i`.
    pub enable_mask: u8,
    /// Factors and equations per draw buffer (`ARB_draw_buffers_blend`); a buffer whose
    /// enable bit is clear keeps the default, so equal output gives equal keys.
    pub funcs: [BlendFunc; MAX_DRAW_BUFFERS],
    /// Colour logic operation, `None` when `COLOR_LOGIC_OP` is disabled (it overrides blending).
    pub logic_op: Option<LogicOp>,
    /// `SAMPLE_ALPHA_TO_COVERAGE`.
    pub alpha_to_coverage: bool,
    /// `SAMPLE_ALPHA_TO_ONE`.
    pub alpha_to_one: bool,
    /// Four bits per draw buffer (bit 0 red .. bit 3 alpha), buffer `i` at bits `4i..4i+4`.
    pub color_write_mask: u32,
}

impl Default for BlendState {
    fn default() -> Self {
        Self {
            enable_mask: 0,
            funcs: [BlendFunc::default(); MAX_DRAW_BUFFERS],
            logic_op: None,
            alpha_to_coverage: false,
            alpha_to_one: false,
            color_write_mask: u32::MAX,
        }
    }
}

/// Stencil state of one face.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct StencilFace {
    /// Comparison of reference and buffer value.
    pub func: CompareFunc,
    /// Operation when the stencil test fails.
    pub fail: StencilOp,
    /// Operation when the stencil test passes and the depth test fails.
    pub depth_fail: StencilOp,
    /// Operation when both pass.
    pub pass: StencilOp,
    /// Mask applied to reference and buffer value before comparing (low 8 bits: stencil
    /// buffers have at most 8 bits here).
    pub read_mask: u8,
    /// Bits of the stencil buffer that may be written.
    pub write_mask: u8,
}

impl Default for StencilFace {
    fn default() -> Self {
        Self {
            func: CompareFunc::Always,
            fail: StencilOp::Keep,
            depth_fail: StencilOp::Keep,
            pass: StencilOp::Keep,
            read_mask: 0xff,
            write_mask: 0xff,
        }
    }
}

/// Depth and stencil state (gallium `pipe_depth_stencil_alpha_state`, without alpha test,
/// which core GL does not have).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct DepthStencilState {
    /// `DEPTH_TEST` enabled. When disabled, depth is neither tested nor written.
    pub depth_test: bool,
    /// `glDepthMask`.
    pub depth_write: bool,
    /// `glDepthFunc` (`Less` when the test is off, canonical).
    pub depth_func: CompareFunc,
    /// `STENCIL_TEST` enabled.
    pub stencil_test: bool,
    /// Front-face stencil state (default values when the test is off).
    pub front: StencilFace,
    /// Back-face stencil state.
    pub back: StencilFace,
}

impl Default for DepthStencilState {
    fn default() -> Self {
        Self {
            depth_test: false,
            depth_write: true,
            depth_func: CompareFunc::Less,
            stencil_test: false,
            front: StencilFace::default(),
            back: StencilFace::default(),
        }
    }
}

/// Rasterizer state (gallium `pipe_rasterizer_state`).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct RasterState {
    /// Faces culled (`None` when `CULL_FACE` is disabled).
    pub cull: CullMode,
    /// Counter-clockwise polygons are front-facing (`glFrontFace(GL_CCW)`).
    pub front_ccw: bool,
    /// `glPolygonMode` (GL 3.3 core has one mode for both faces).
    pub polygon_mode: PolygonMode,
    /// `POLYGON_OFFSET_FILL` / `_LINE` / `_POINT` as bits 0, 1, 2.
    pub offset_enable: u8,
    /// The last vertex of a primitive provides flat-shaded values (`LAST_VERTEX_CONVENTION`).
    pub flatshade_last: bool,
    /// `DEPTH_CLAMP`.
    pub depth_clamp: bool,
    /// `RASTERIZER_DISCARD`.
    pub rasterizer_discard: bool,
    /// `MULTISAMPLE`.
    pub multisample: bool,
    /// `SCISSOR_TEST` per viewport index, bit `i` for scissor rectangle `i` (clears and
    /// blits use bit 0 only).
    pub scissor: u16,
    /// `LINE_SMOOTH`.
    pub line_smooth: bool,
    /// `POLYGON_SMOOTH`.
    pub polygon_smooth: bool,
    /// `PROGRAM_POINT_SIZE`: the vertex stage writes `gl_PointSize`.
    pub program_point_size: bool,
    /// `POINT_SPRITE_COORD_ORIGIN` is `LOWER_LEFT` (else `UPPER_LEFT`).
    pub point_origin_lower_left: bool,
    /// `CLIP_DISTANCEi` enables, bit `i`.
    pub clip_distance_mask: u8,
    /// `FRAMEBUFFER_SRGB`.
    pub framebuffer_srgb: bool,
    /// `DITHER`.
    pub dither: bool,
    /// `SAMPLE_SHADING` (GL 4.0): shade at least [`Self::min_sample_shading`] of the samples
    /// on their own.
    pub sample_shading: bool,
    /// `MIN_SAMPLE_SHADING_VALUE`, in [0, 1], as the bits of an `f32` (the key is hashed).
    pub min_sample_shading: u32,
    /// `CLIP_ORIGIN` is `UPPER_LEFT` (GL 4.5): clip-space y maps to window y negated, and
    /// [`Self::front_ccw`] is inverted with it (as Mesa does), so facing is unchanged.
    pub clip_upper_left: bool,
    /// `CLIP_DEPTH_MODE` is `ZERO_TO_ONE` (GL 4.5): clip-space depth is [0, w] and maps to
    /// the depth range as `n + (f - n) z`, Vulkan's own mapping.
    pub clip_zero_to_one: bool,
}

impl Default for RasterState {
    fn default() -> Self {
        Self {
            cull: CullMode::None,
            front_ccw: true,
            polygon_mode: PolygonMode::Fill,
            offset_enable: 0,
            flatshade_last: true,
            depth_clamp: false,
            rasterizer_discard: false,
            multisample: true,
            scissor: 0,
            line_smooth: false,
            polygon_smooth: false,
            program_point_size: false,
            point_origin_lower_left: false,
            clip_distance_mask: 0,
            framebuffer_srgb: false,
            dither: true,
            sample_shading: false,
            min_sample_shading: 0,
            clip_upper_left: false,
            clip_zero_to_one: false,
        }
    }
}

/// Sampler state (gallium `pipe_sampler_state`), from a sampler object or from the sampling
/// parameters of the bound texture. Floats are compared by bits.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[rkyv(derive(Debug))]
pub struct SamplerState {
    /// Filter when magnifying.
    pub mag_filter: Filter,
    /// Filter within a level when minifying.
    pub min_filter: Filter,
    /// Filter between levels when minifying.
    pub mip_filter: MipFilter,
    /// Wrap of s, t and r.
    pub wrap: [Wrap; 3],
    /// Depth comparison (`TEXTURE_COMPARE_MODE = COMPARE_REF_TO_TEXTURE`), else `None`.
    pub compare: Option<CompareFunc>,
    /// `TEXTURE_MIN_LOD`.
    pub min_lod: f32,
    /// `TEXTURE_MAX_LOD`.
    pub max_lod: f32,
    /// `TEXTURE_LOD_BIAS`.
    pub lod_bias: f32,
    /// `TEXTURE_MAX_ANISOTROPY` (1 = off).
    pub max_anisotropy: f32,
    /// `TEXTURE_BORDER_COLOR` as raw 32-bit words: floats by their bits, or integers when
    /// `border_is_integer`.
    pub border_color: [u32; 4],
    /// The border colour was set with `tex_parameter_i(u)iv`.
    pub border_is_integer: bool,
}

impl SamplerState {
    fn words(&self) -> [u32; 9] {
        let enums = (self.mag_filter as u32)
            | (self.min_filter as u32) << 2
            | (self.mip_filter as u32) << 4
            | (self.wrap[0] as u32) << 6
            | (self.wrap[1] as u32) << 9
            | (self.wrap[2] as u32) << 12
            | self.compare.map_or(0, |f| f as u32 + 1) << 15
            | u32::from(self.border_is_integer) << 19;
        [
            enums,
            self.min_lod.to_bits(),
            self.max_lod.to_bits(),
            self.lod_bias.to_bits(),
            self.max_anisotropy.to_bits(),
            self.border_color[0],
            self.border_color[1],
            self.border_color[2],
            self.border_color[3],
        ]
    }
}

impl Eq for SamplerState {}

impl std::hash::Hash for SamplerState {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.words().hash(state);
    }
}

impl Default for SamplerState {
    fn default() -> Self {
        Self {
            mag_filter: Filter::Linear,
            min_filter: Filter::Nearest,
            mip_filter: MipFilter::Linear,
            wrap: [Wrap::Repeat; 3],
            compare: None,
            min_lod: -1000.0,
            max_lod: 1000.0,
            lod_bias: 0.0,
            max_anisotropy: 1.0,
            border_color: [0; 4],
            border_is_integer: false,
        }
    }
}

/// One vertex attribute of a [`VertexLayout`].
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[rkyv(derive(Debug))]
pub struct VertexAttrib {
    /// Format ([`VertexFormat::DISABLED`] when the array is disabled).
    pub format: VertexFormat,
    /// Byte distance between consecutive elements (the effective stride:
    /// `glVertexAttribPointer`'s 0 is resolved to the packed size by the engine). 0 is a
    /// `glBindVertexBuffer` stride of 0: every vertex and instance reads the first element.
    pub stride: u32,
    /// Instance divisor (0 = per vertex).
    pub divisor: u32,
}

/// Vertex input layout (gallium `pipe_vertex_element` array): attribute `i` reads vertex
/// buffer slot `i`, whose buffer and offset are set with `SetVertexBuffer`.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[rkyv(derive(Debug))]
pub struct VertexLayout {
    /// Per attribute; disabled attributes take the generic value set with
    /// `SetGenericAttrib`.
    pub attribs: [VertexAttrib; MAX_VERTEX_ATTRIBS],
}

/// What a framebuffer attachment point refers to.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[rkyv(derive(Debug))]
pub enum Attachment {
    /// Nothing attached.
    #[default]
    None,
    /// A level (and layer or cube face) of a texture.
    Texture {
        /// The texture.
        texture: TextureHandle,
        /// Mip level.
        level: u8,
        /// Layer of an array or 3D texture, or face (0..6) of a cube map; [`LAYERED`] for a
        /// layered attachment.
        layer: u32,
    },
    /// A renderbuffer.
    Renderbuffer(RenderbufferHandle),
}

/// [`Attachment::Texture`] `layer` of a layered attachment.
pub const LAYERED: u32 = u32::MAX;

/// The attachments of a framebuffer object.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[rkyv(derive(Debug))]
pub struct FramebufferState {
    /// `COLOR_ATTACHMENTi`.
    pub colors: [Attachment; MAX_DRAW_BUFFERS],
    /// `DEPTH_ATTACHMENT`.
    pub depth: Attachment,
    /// `STENCIL_ATTACHMENT`.
    pub stencil: Attachment,
    /// The size a framebuffer without attachments rasterizes at (`glFramebufferParameteri`,
    /// GL 4.3): ignored while anything is attached.
    pub defaults: DefaultGeometry,
}

/// `FRAMEBUFFER_DEFAULT_WIDTH/HEIGHT/LAYERS/SAMPLES` of a framebuffer object; a framebuffer
/// without attachments is complete only with a width and a height.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[rkyv(derive(Debug))]
pub struct DefaultGeometry {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Layers (0 and 1: one).
    pub layers: u32,
    /// Samples (0: single-sampled), as the engine rounds an image's.
    pub samples: u8,
}

/// The images of a surface (a default framebuffer), owned by the backend.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct SurfaceDesc {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Colour format (`None`: a surface without colour, which EGL does not make).
    pub color: Option<Format>,
    /// Depth and/or stencil format.
    pub depth_stencil: Option<Format>,
    /// Samples per pixel (0 = single-sampled).
    pub samples: u8,
}

/// Texture swizzle and level range: the parts of a texture's parameters that shape its view
/// rather than its sampling.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct TextureView {
    /// `TEXTURE_BASE_LEVEL`.
    pub base_level: u32,
    /// `TEXTURE_MAX_LEVEL`.
    pub max_level: u32,
    /// `TEXTURE_SWIZZLE_R/G/B/A`.
    pub swizzle: [Swizzle; 4],
    /// Samples the stencil of a depth-stencil format as an unsigned integer `(s, 0, 0, 1)`
    /// (`DEPTH_STENCIL_TEXTURE_MODE` = `STENCIL_INDEX`, GL 4.3), not its depth; false for
    /// other formats.
    pub stencil: bool,
}

impl Default for TextureView {
    fn default() -> Self {
        Self {
            base_level: 0,
            max_level: 1000,
            swizzle: [Swizzle::Red, Swizzle::Green, Swizzle::Blue, Swizzle::Alpha],
            stencil: false,
        }
    }
}

/// An integer rectangle in window coordinates (origin lower left, as GL).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[rkyv(derive(Debug))]
pub struct Rect {
    /// Left.
    pub x: i32,
    /// Bottom.
    pub y: i32,
    /// Width (never negative).
    pub width: i32,
    /// Height (never negative).
    pub height: i32,
}

/// A rectangle whose corners may be flipped (blit source and destination).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[rkyv(derive(Debug))]
pub struct Region {
    /// First corner x.
    pub x0: i32,
    /// First corner y.
    pub y0: i32,
    /// Second corner x.
    pub x1: i32,
    /// Second corner y.
    pub y1: i32,
}

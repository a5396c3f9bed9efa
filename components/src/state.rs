//! Per-context GL state in GL's own terms (enums as the application gave them), with the
//! initial values of the OpenGL 3.3 core specification (tables 6.x). `glGet*` reads it back
//! as stored; the validation systems derive wire state from it.

use bevy_ecs::entity::Entity;

use crate::gl::*;
use tessera_wire::state::{
    MAX_DRAW_BUFFERS, MAX_TEXTURE_UNITS, MAX_UNIFORM_BUFFER_BINDINGS, MAX_VERTEX_ATTRIBS,
    MAX_VIEWPORTS,
};

/// `SHADER_STORAGE_BUFFER` binding points (`MAX_SHADER_STORAGE_BUFFER_BINDINGS`): native
/// Mesa's 80. They are client state only: a draw or dispatch binds each storage block of
/// the program by its slot (at most the wire's `MAX_STORAGE_BUFFER_BINDINGS` blocks) to
/// the range of the block's binding point, so their number costs no backend anything.
pub const STORAGE_BUFFER_BINDINGS: usize = 80;

/// `ATOMIC_COUNTER_BUFFER` binding points (`MAX_ATOMIC_COUNTER_BUFFER_BINDINGS`): native
/// Mesa llvmpipe's 16. Client state only, as the storage buffer binding points: a draw or
/// dispatch binds each atomic counter buffer of the program to the storage slot its lowered
/// counters use (`tessera_shader::atomic_counter`).
pub const ATOMIC_COUNTER_BUFFER_BINDINGS: usize = 16;

/// Texture targets a unit has a binding for, in the order of [`TextureTarget`].
pub const TEXTURE_TARGETS: usize = 11;

/// A texture binding target (GL 3.3 core).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TextureTarget {
    /// `TEXTURE_1D`.
    D1,
    /// `TEXTURE_2D`.
    D2,
    /// `TEXTURE_3D`.
    D3,
    /// `TEXTURE_1D_ARRAY`.
    D1Array,
    /// `TEXTURE_2D_ARRAY`.
    D2Array,
    /// `TEXTURE_RECTANGLE`.
    Rectangle,
    /// `TEXTURE_CUBE_MAP`.
    Cube,
    /// `TEXTURE_BUFFER`.
    Buffer,
    /// `TEXTURE_2D_MULTISAMPLE`.
    D2Multisample,
    /// `TEXTURE_2D_MULTISAMPLE_ARRAY`.
    D2MultisampleArray,
    /// `TEXTURE_CUBE_MAP_ARRAY` (GL 4.0, `GL_ARB_texture_cube_map_array`).
    CubeArray,
}

impl TextureTarget {
    /// Every target, in binding-table order.
    pub const ALL: [TextureTarget; TEXTURE_TARGETS] = [
        TextureTarget::D1,
        TextureTarget::D2,
        TextureTarget::D3,
        TextureTarget::D1Array,
        TextureTarget::D2Array,
        TextureTarget::Rectangle,
        TextureTarget::Cube,
        TextureTarget::Buffer,
        TextureTarget::D2Multisample,
        TextureTarget::D2MultisampleArray,
        TextureTarget::CubeArray,
    ];

    /// The target of a `glBindTexture` enum.
    pub fn from_gl(target: GLenum) -> Option<Self> {
        Some(match target {
            TEXTURE_1D => Self::D1,
            TEXTURE_2D => Self::D2,
            TEXTURE_3D => Self::D3,
            TEXTURE_1D_ARRAY => Self::D1Array,
            TEXTURE_2D_ARRAY => Self::D2Array,
            TEXTURE_RECTANGLE => Self::Rectangle,
            TEXTURE_CUBE_MAP => Self::Cube,
            TEXTURE_BUFFER => Self::Buffer,
            TEXTURE_2D_MULTISAMPLE => Self::D2Multisample,
            TEXTURE_2D_MULTISAMPLE_ARRAY => Self::D2MultisampleArray,
            TEXTURE_CUBE_MAP_ARRAY => Self::CubeArray,
            _ => return None,
        })
    }

    /// The GL enum.
    pub fn to_gl(self) -> GLenum {
        match self {
            Self::D1 => TEXTURE_1D,
            Self::D2 => TEXTURE_2D,
            Self::D3 => TEXTURE_3D,
            Self::D1Array => TEXTURE_1D_ARRAY,
            Self::D2Array => TEXTURE_2D_ARRAY,
            Self::Rectangle => TEXTURE_RECTANGLE,
            Self::Cube => TEXTURE_CUBE_MAP,
            Self::Buffer => TEXTURE_BUFFER,
            Self::D2Multisample => TEXTURE_2D_MULTISAMPLE,
            Self::D2MultisampleArray => TEXTURE_2D_MULTISAMPLE_ARRAY,
            Self::CubeArray => TEXTURE_CUBE_MAP_ARRAY,
        }
    }

    /// The `TEXTURE_BINDING_*` query enum of this target.
    pub fn binding_query(self) -> GLenum {
        match self {
            Self::D1 => TEXTURE_BINDING_1D,
            Self::D2 => TEXTURE_BINDING_2D,
            Self::D3 => TEXTURE_BINDING_3D,
            Self::D1Array => TEXTURE_BINDING_1D_ARRAY,
            Self::D2Array => TEXTURE_BINDING_2D_ARRAY,
            Self::Rectangle => TEXTURE_BINDING_RECTANGLE,
            Self::Cube => TEXTURE_BINDING_CUBE_MAP,
            Self::Buffer => TEXTURE_BINDING_BUFFER,
            Self::D2Multisample => TEXTURE_BINDING_2D_MULTISAMPLE,
            Self::D2MultisampleArray => TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY,
            Self::CubeArray => TEXTURE_BINDING_CUBE_MAP_ARRAY,
        }
    }
}

/// A buffer binding target (GL 3.3 core).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum BufferTarget {
    /// `ARRAY_BUFFER`.
    Array,
    /// `ELEMENT_ARRAY_BUFFER` (state of the bound vertex array).
    ElementArray,
    /// `COPY_READ_BUFFER`.
    CopyRead,
    /// `COPY_WRITE_BUFFER`.
    CopyWrite,
    /// `PIXEL_PACK_BUFFER`.
    PixelPack,
    /// `PIXEL_UNPACK_BUFFER`.
    PixelUnpack,
    /// `TEXTURE_BUFFER`.
    Texture,
    /// `TRANSFORM_FEEDBACK_BUFFER`.
    TransformFeedback,
    /// `UNIFORM_BUFFER`.
    Uniform,
    /// `SHADER_STORAGE_BUFFER` (GL 4.3).
    ShaderStorage,
    /// `DISPATCH_INDIRECT_BUFFER` (GL 4.3).
    DispatchIndirect,
    /// `DRAW_INDIRECT_BUFFER` (GL 4.0).
    DrawIndirect,
    /// `ATOMIC_COUNTER_BUFFER` (GL 4.2).
    AtomicCounter,
    /// `QUERY_BUFFER` (GL 4.4): where `glGetQueryObject*` writes while a buffer is bound.
    Query,
    /// `PARAMETER_BUFFER` (GL 4.6): where `glMultiDraw*IndirectCount` read their draw count.
    Parameter,
}

impl BufferTarget {
    /// Every target.
    pub const ALL: [BufferTarget; 15] = [
        BufferTarget::Array,
        BufferTarget::ElementArray,
        BufferTarget::CopyRead,
        BufferTarget::CopyWrite,
        BufferTarget::PixelPack,
        BufferTarget::PixelUnpack,
        BufferTarget::Texture,
        BufferTarget::TransformFeedback,
        BufferTarget::Uniform,
        BufferTarget::ShaderStorage,
        BufferTarget::DispatchIndirect,
        BufferTarget::DrawIndirect,
        BufferTarget::AtomicCounter,
        BufferTarget::Query,
        BufferTarget::Parameter,
    ];

    /// The target of a `glBindBuffer` enum.
    pub fn from_gl(target: GLenum) -> Option<Self> {
        Some(match target {
            ARRAY_BUFFER => Self::Array,
            ELEMENT_ARRAY_BUFFER => Self::ElementArray,
            COPY_READ_BUFFER => Self::CopyRead,
            COPY_WRITE_BUFFER => Self::CopyWrite,
            PIXEL_PACK_BUFFER => Self::PixelPack,
            PIXEL_UNPACK_BUFFER => Self::PixelUnpack,
            TEXTURE_BUFFER => Self::Texture,
            TRANSFORM_FEEDBACK_BUFFER => Self::TransformFeedback,
            UNIFORM_BUFFER => Self::Uniform,
            SHADER_STORAGE_BUFFER => Self::ShaderStorage,
            DISPATCH_INDIRECT_BUFFER => Self::DispatchIndirect,
            DRAW_INDIRECT_BUFFER => Self::DrawIndirect,
            ATOMIC_COUNTER_BUFFER => Self::AtomicCounter,
            QUERY_BUFFER => Self::Query,
            PARAMETER_BUFFER => Self::Parameter,
            _ => return None,
        })
    }

    /// The `*_BUFFER_BINDING` query enum of this target.
    pub fn binding_query(self) -> GLenum {
        match self {
            Self::Array => ARRAY_BUFFER_BINDING,
            Self::ElementArray => ELEMENT_ARRAY_BUFFER_BINDING,
            Self::CopyRead => COPY_READ_BUFFER,
            Self::CopyWrite => COPY_WRITE_BUFFER,
            Self::PixelPack => PIXEL_PACK_BUFFER_BINDING,
            Self::PixelUnpack => PIXEL_UNPACK_BUFFER_BINDING,
            Self::Texture => TEXTURE_BUFFER,
            Self::TransformFeedback => TRANSFORM_FEEDBACK_BUFFER_BINDING,
            Self::Uniform => UNIFORM_BUFFER_BINDING,
            Self::ShaderStorage => SHADER_STORAGE_BUFFER_BINDING,
            Self::DispatchIndirect => DISPATCH_INDIRECT_BUFFER_BINDING,
            Self::DrawIndirect => DRAW_INDIRECT_BUFFER_BINDING,
            Self::AtomicCounter => ATOMIC_COUNTER_BUFFER_BINDING,
            Self::Query => QUERY_BUFFER_BINDING,
            Self::Parameter => PARAMETER_BUFFER_BINDING,
        }
    }
}

/// Image units (`MAX_IMAGE_UNITS`): native Mesa's 192. Client state only: the systems bind
/// each image uniform of the program to a wire slot of its own with its unit's image.
pub const IMAGE_UNITS: usize = 192;

/// What `glBindImageTexture` bound to an image unit (`IMAGE_BINDING_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageUnit {
    /// `IMAGE_BINDING_NAME`.
    pub name: u32,
    /// The texture object (`None`: no name, or a name generated but never bound).
    pub texture: Option<Entity>,
    /// `IMAGE_BINDING_LEVEL`.
    pub level: i32,
    /// `IMAGE_BINDING_LAYERED`.
    pub layered: bool,
    /// `IMAGE_BINDING_LAYER`.
    pub layer: i32,
    /// `IMAGE_BINDING_ACCESS`.
    pub access: GLenum,
    /// `IMAGE_BINDING_FORMAT`.
    pub format: GLenum,
}

impl Default for ImageUnit {
    /// GL 4.2's initial state of a unit: nothing, level and layer 0, `READ_ONLY`, `R8`.
    fn default() -> Self {
        Self {
            name: 0,
            texture: None,
            level: 0,
            layered: false,
            layer: 0,
            access: READ_ONLY,
            format: R8,
        }
    }
}

/// A buffer range bound to an indexed binding point (`bind_buffer_base/range`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct IndexedBuffer {
    /// The buffer (`None` = 0).
    pub buffer: Option<Entity>,
    /// Start of the range.
    pub offset: i64,
    /// Size of the range; 0 for `bind_buffer_base` (the whole buffer).
    pub size: i64,
}

/// Stencil state of one face, as GL stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StencilFaceGl {
    /// `STENCIL_FUNC`.
    pub func: GLenum,
    /// `STENCIL_REF` (unclamped, as specified).
    pub reference: GLint,
    /// `STENCIL_VALUE_MASK`.
    pub value_mask: GLuint,
    /// `STENCIL_FAIL`.
    pub fail: GLenum,
    /// `STENCIL_PASS_DEPTH_FAIL`.
    pub depth_fail: GLenum,
    /// `STENCIL_PASS_DEPTH_PASS`.
    pub depth_pass: GLenum,
    /// `STENCIL_WRITEMASK`.
    pub write_mask: GLuint,
}

impl Default for StencilFaceGl {
    fn default() -> Self {
        Self {
            func: ALWAYS,
            reference: 0,
            value_mask: u32::MAX,
            fail: KEEP,
            depth_fail: KEEP,
            depth_pass: KEEP,
            write_mask: u32::MAX,
        }
    }
}

/// Pixel storage parameters of one direction (`PACK_*` or `UNPACK_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelStore {
    /// `*_SWAP_BYTES`.
    pub swap_bytes: bool,
    /// `*_LSB_FIRST`.
    pub lsb_first: bool,
    /// `*_ROW_LENGTH`.
    pub row_length: GLint,
    /// `*_IMAGE_HEIGHT`.
    pub image_height: GLint,
    /// `*_SKIP_ROWS`.
    pub skip_rows: GLint,
    /// `*_SKIP_PIXELS`.
    pub skip_pixels: GLint,
    /// `*_SKIP_IMAGES`.
    pub skip_images: GLint,
    /// `*_ALIGNMENT` (1, 2, 4 or 8).
    pub alignment: GLint,
    /// `*_COMPRESSED_BLOCK_WIDTH`, `_HEIGHT`, `_DEPTH` and `_SIZE` (GL 4.2's
    /// `ARB_compressed_texture_pixel_storage`): the block the row length and skips of a
    /// compressed image count in; 0 leaves them unused.
    pub compressed_block: [GLint; 4],
}

impl Default for PixelStore {
    fn default() -> Self {
        Self {
            swap_bytes: false,
            lsb_first: false,
            row_length: 0,
            image_height: 0,
            skip_rows: 0,
            skip_pixels: 0,
            skip_images: 0,
            alignment: 4,
            compressed_block: [0; 4],
        }
    }
}

/// How a generic attribute value was last specified (it decides how `get_vertex_attrib`
/// converts it and how the shader reads it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GenericKind {
    /// `vertex_attrib*f` and friends.
    #[default]
    Float,
    /// `vertex_attrib_i*`.
    Int,
    /// `vertex_attrib_i*ui`.
    Uint,
    /// `vertex_attrib_l*d` (GL 4.1): four doubles, `bits` holding the first two and `wide`
    /// the last two.
    Double,
}

/// A generic vertex attribute value (`CURRENT_VERTEX_ATTRIB`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenericAttrib {
    /// Raw bits of the four components (of a double value's `x` and `y`).
    pub bits: [u32; 4],
    /// Raw bits of a double value's `z` and `w`, which a `dvec3` or `dvec4` input reads
    /// through its second location; zeros for the other kinds.
    pub wide: [u32; 4],
    /// How they are to be read.
    pub kind: GenericKind,
}

impl Default for GenericAttrib {
    fn default() -> Self {
        Self {
            bits: [0, 0, 0, 1.0f32.to_bits()],
            wide: [0; 4],
            kind: GenericKind::Float,
        }
    }
}

/// The capabilities of `glEnable`/`glDisable`, as bits of [`Capabilities`].
pub mod cap {
    /// `CLIP_DISTANCE0..7` occupy bits 0..8.
    pub const CLIP_DISTANCE0: u32 = 0;
    /// `COLOR_LOGIC_OP`.
    pub const COLOR_LOGIC_OP: u32 = 8;
    /// `CULL_FACE`.
    pub const CULL_FACE: u32 = 9;
    /// `DEPTH_CLAMP`.
    pub const DEPTH_CLAMP: u32 = 10;
    /// `DEPTH_TEST`.
    pub const DEPTH_TEST: u32 = 11;
    /// `DITHER`.
    pub const DITHER: u32 = 12;
    /// `FRAMEBUFFER_SRGB`.
    pub const FRAMEBUFFER_SRGB: u32 = 13;
    /// `LINE_SMOOTH`.
    pub const LINE_SMOOTH: u32 = 14;
    /// `MULTISAMPLE`.
    pub const MULTISAMPLE: u32 = 15;
    /// `POLYGON_OFFSET_FILL`.
    pub const POLYGON_OFFSET_FILL: u32 = 16;
    /// `POLYGON_OFFSET_LINE`.
    pub const POLYGON_OFFSET_LINE: u32 = 17;
    /// `POLYGON_OFFSET_POINT`.
    pub const POLYGON_OFFSET_POINT: u32 = 18;
    /// `POLYGON_SMOOTH`.
    pub const POLYGON_SMOOTH: u32 = 19;
    /// `PRIMITIVE_RESTART`.
    pub const PRIMITIVE_RESTART: u32 = 20;
    /// `PROGRAM_POINT_SIZE`.
    pub const PROGRAM_POINT_SIZE: u32 = 21;
    /// `RASTERIZER_DISCARD`.
    pub const RASTERIZER_DISCARD: u32 = 22;
    /// `SAMPLE_ALPHA_TO_COVERAGE`.
    pub const SAMPLE_ALPHA_TO_COVERAGE: u32 = 23;
    /// `SAMPLE_ALPHA_TO_ONE`.
    pub const SAMPLE_ALPHA_TO_ONE: u32 = 24;
    /// `SAMPLE_COVERAGE`.
    pub const SAMPLE_COVERAGE: u32 = 25;
    /// `SAMPLE_MASK`.
    pub const SAMPLE_MASK: u32 = 26;
    /// Unused: `SCISSOR_TEST` is per viewport index ([`GlState::scissor_enable`]).
    pub const SCISSOR_TEST: u32 = 27;
    /// `STENCIL_TEST`.
    pub const STENCIL_TEST: u32 = 28;
    /// `TEXTURE_CUBE_MAP_SEAMLESS`.
    pub const TEXTURE_CUBE_MAP_SEAMLESS: u32 = 29;
    /// `SAMPLE_SHADING` (GL 4.0).
    pub const SAMPLE_SHADING: u32 = 30;
    /// `PRIMITIVE_RESTART_FIXED_INDEX` (GL 4.3): restart at each draw's index type's
    /// maximum, taking precedence over `PRIMITIVE_RESTART`.
    pub const PRIMITIVE_RESTART_FIXED_INDEX: u32 = 31;
}

/// Enabled capabilities, one bit each (see [`cap`]); `BLEND` is per draw buffer and lives in
/// [`GlState::blend_enable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities(pub u32);

impl Capabilities {
    /// Whether capability bit `bit` is enabled.
    #[inline]
    pub fn has(self, bit: u32) -> bool {
        self.0 & (1 << bit) != 0
    }
}

impl Default for Capabilities {
    fn default() -> Self {
        // DITHER and MULTISAMPLE start enabled; everything else disabled.
        Capabilities(1 << cap::DITHER | 1 << cap::MULTISAMPLE)
    }
}

/// Hints (`glHint`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hints {
    /// `LINE_SMOOTH_HINT`.
    pub line_smooth: GLenum,
    /// `POLYGON_SMOOTH_HINT`.
    pub polygon_smooth: GLenum,
    /// `TEXTURE_COMPRESSION_HINT`.
    pub texture_compression: GLenum,
    /// `FRAGMENT_SHADER_DERIVATIVE_HINT`.
    pub fragment_shader_derivative: GLenum,
}

impl Default for Hints {
    fn default() -> Self {
        Self {
            line_smooth: DONT_CARE,
            polygon_smooth: DONT_CARE,
            texture_compression: DONT_CARE,
            fragment_shader_derivative: DONT_CARE,
        }
    }
}

/// Query targets that can be active at once (`begin_query`): six targets, and
/// `PRIMITIVES_GENERATED` and `TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN` of vertex streams 1 to 3
/// (`glBeginQueryIndexed`).
pub const QUERY_TARGETS: usize = 28;

/// Everything a context binds and sets, with the specification's initial values.
#[derive(Clone, Debug)]
pub struct GlState {
    // ---- Buffer bindings ----
    /// Non-indexed buffer bindings by [`BufferTarget`] (the element array entry is unused:
    /// it is state of the bound vertex array).
    pub buffers: [Option<Entity>; BufferTarget::ALL.len()],
    /// `UNIFORM_BUFFER` indexed bindings.
    pub uniform_buffers: [IndexedBuffer; MAX_UNIFORM_BUFFER_BINDINGS],
    /// `SHADER_STORAGE_BUFFER` indexed bindings.
    pub storage_buffers: [IndexedBuffer; STORAGE_BUFFER_BINDINGS],
    /// `ATOMIC_COUNTER_BUFFER` indexed bindings.
    pub atomic_counter_buffers: [IndexedBuffer; ATOMIC_COUNTER_BUFFER_BINDINGS],
    /// Image units (`glBindImageTexture`).
    pub image_units: [ImageUnit; IMAGE_UNITS],
    /// `TRANSFORM_FEEDBACK_BUFFER` indexed bindings.
    pub transform_feedback_buffers: [IndexedBuffer; 4],
    /// `TRANSFORM_FEEDBACK_ACTIVE`: the primitive mode `glBeginTransformFeedback` was given
    /// (`POINTS`, `LINES` or `TRIANGLES`), `None` while inactive.
    pub transform_feedback_mode: Option<GLenum>,
    /// The bound vertex array (`None` = 0, which core profile cannot draw with).
    pub vertex_array: Option<Entity>,

    // ---- Textures and samplers ----
    /// `ACTIVE_TEXTURE` as a unit index.
    pub active_texture: u32,
    /// Texture bindings per unit and [`TextureTarget`].
    pub textures: [[Option<Entity>; TEXTURE_TARGETS]; MAX_TEXTURE_UNITS],
    /// Sampler object bindings per unit.
    pub samplers: [Option<Entity>; MAX_TEXTURE_UNITS],

    // ---- Program ----
    /// `CURRENT_PROGRAM`.
    pub program: Option<Entity>,
    /// `PROGRAM_PIPELINE_BINDING`: the bound program pipeline object, whose stages draw
    /// while no program is current (`glUseProgram`'s program wins).
    pub pipeline: Option<Entity>,
    /// The program the bound pipeline's stages resolve to at the last draw (one of its
    /// programs, or a program the engine made of the stages of several): what the systems
    /// emit while no program is current. See [`GlState::executable`].
    pub stage_set: Option<Entity>,

    // ---- Framebuffers ----
    /// `DRAW_FRAMEBUFFER_BINDING` (`None` = the default framebuffer).
    pub draw_framebuffer: Option<Entity>,
    /// `READ_FRAMEBUFFER_BINDING`.
    pub read_framebuffer: Option<Entity>,
    /// `RENDERBUFFER_BINDING`.
    pub renderbuffer: Option<Entity>,
    /// `DRAW_BUFFER0` of the default framebuffer.
    pub default_draw_buffer: GLenum,
    /// `READ_BUFFER` of the default framebuffer.
    pub default_read_buffer: GLenum,

    // ---- Queries ----
    /// Active query per query target.
    pub active_queries: [Option<Entity>; QUERY_TARGETS],

    // ---- Enables ----
    /// Enabled capabilities other than blending.
    pub caps: Capabilities,
    /// `BLEND` per draw buffer, bit `i`.
    pub blend_enable: u8,

    // ---- Blend and colour output ----
    /// `BLEND_SRC_RGB` per draw buffer (`ARB_draw_buffers_blend`; the non-indexed query
    /// returns draw buffer 0's).
    pub blend_src_rgb: [GLenum; MAX_DRAW_BUFFERS],
    /// `BLEND_DST_RGB` per draw buffer.
    pub blend_dst_rgb: [GLenum; MAX_DRAW_BUFFERS],
    /// `BLEND_SRC_ALPHA` per draw buffer.
    pub blend_src_alpha: [GLenum; MAX_DRAW_BUFFERS],
    /// `BLEND_DST_ALPHA` per draw buffer.
    pub blend_dst_alpha: [GLenum; MAX_DRAW_BUFFERS],
    /// `BLEND_EQUATION_RGB` per draw buffer.
    pub blend_equation_rgb: [GLenum; MAX_DRAW_BUFFERS],
    /// `BLEND_EQUATION_ALPHA` per draw buffer.
    pub blend_equation_alpha: [GLenum; MAX_DRAW_BUFFERS],
    /// `BLEND_COLOR`.
    pub blend_color: [f32; 4],
    /// `COLOR_WRITEMASK` per draw buffer, bit 0 red .. bit 3 alpha.
    pub color_mask: [u8; MAX_DRAW_BUFFERS],
    /// `LOGIC_OP_MODE`.
    pub logic_op: GLenum,

    // ---- Depth and stencil ----
    /// `DEPTH_FUNC`.
    pub depth_func: GLenum,
    /// `DEPTH_WRITEMASK`.
    pub depth_mask: bool,
    /// `DEPTH_RANGE` per viewport index (GL 4.1), each clamped to [0, 1].
    pub depth_ranges: [[f64; 2]; MAX_VIEWPORTS],
    /// Front and back stencil state.
    pub stencil: [StencilFaceGl; 2],

    // ---- Rasterization ----
    /// `CULL_FACE_MODE`.
    pub cull_face: GLenum,
    /// `FRONT_FACE`.
    pub front_face: GLenum,
    /// `POLYGON_MODE` (front and back are the same in core).
    pub polygon_mode: GLenum,
    /// `POLYGON_OFFSET_FACTOR`.
    pub polygon_offset_factor: f32,
    /// `POLYGON_OFFSET_UNITS`.
    pub polygon_offset_units: f32,
    /// `POLYGON_OFFSET_CLAMP` (`glPolygonOffsetClamp`; 0 and NaN clamp nothing).
    pub polygon_offset_clamp: f32,
    /// `LINE_WIDTH`.
    pub line_width: f32,
    /// `POINT_SIZE`.
    pub point_size: f32,
    /// `PATCH_VERTICES`.
    pub patch_vertices: i32,
    /// `PATCH_DEFAULT_OUTER_LEVEL`.
    pub patch_default_outer_level: [f32; 4],
    /// `PATCH_DEFAULT_INNER_LEVEL`.
    pub patch_default_inner_level: [f32; 2],
    /// `POINT_FADE_THRESHOLD_SIZE`.
    pub point_fade_threshold: f32,
    /// `POINT_SPRITE_COORD_ORIGIN`.
    pub point_sprite_coord_origin: GLenum,
    /// `PROVOKING_VERTEX`.
    pub provoking_vertex: GLenum,
    /// `CLIP_ORIGIN` (GL 4.5, `glClipControl`): `LOWER_LEFT` or `UPPER_LEFT`.
    pub clip_origin: GLenum,
    /// `CLIP_DEPTH_MODE` (GL 4.5, `glClipControl`): `NEGATIVE_ONE_TO_ONE` or `ZERO_TO_ONE`.
    pub clip_depth_mode: GLenum,
    /// `SAMPLE_COVERAGE_VALUE`.
    pub sample_coverage_value: f32,
    /// `SAMPLE_COVERAGE_INVERT`.
    pub sample_coverage_invert: bool,
    /// `SAMPLE_MASK_VALUE` (word 0; GL 3.3 allows one word).
    pub sample_mask_value: u32,
    /// `MIN_SAMPLE_SHADING_VALUE` (GL 4.0), in [0, 1].
    pub min_sample_shading: f32,
    /// `PRIMITIVE_RESTART_INDEX`.
    pub primitive_restart_index: u32,

    // ---- Viewport and scissor ----
    /// `VIEWPORT` per viewport index (x, y, width, height; floats since GL 4.1's viewport
    /// arrays, as Mesa keeps them).
    pub viewports: [[f32; 4]; MAX_VIEWPORTS],
    /// `SCISSOR_BOX` per viewport index.
    pub scissors: [[GLint; 4]; MAX_VIEWPORTS],
    /// `SCISSOR_TEST` per viewport index, bit `i` for index `i` (`glEnable` sets them all).
    pub scissor_enable: u16,

    // ---- Clear values ----
    /// `COLOR_CLEAR_VALUE`.
    pub clear_color: [f32; 4],
    /// `DEPTH_CLEAR_VALUE`.
    pub clear_depth: f64,
    /// `STENCIL_CLEAR_VALUE`.
    pub clear_stencil: GLint,

    // ---- Pixel transfer ----
    /// `PACK_*`.
    pub pack: PixelStore,
    /// `UNPACK_*`.
    pub unpack: PixelStore,

    // ---- Vertex attributes ----
    /// `CURRENT_VERTEX_ATTRIB` per attribute.
    pub generic_attribs: [GenericAttrib; MAX_VERTEX_ATTRIBS],

    // ---- Hints ----
    /// `glHint` values.
    pub hints: Hints,
}

impl GlState {
    /// The program draws run: the current program, else what the bound program pipeline
    /// resolved to (GL 4.1 §7.3: a program made current with `glUseProgram` is used for
    /// every stage).
    #[inline]
    pub fn executable(&self) -> Option<Entity> {
        self.program.or(self.stage_set)
    }

    /// A fresh context's state, with the viewport and scissor of a `width` x `height` default
    /// framebuffer (0 x 0 without one).
    pub fn new(width: i32, height: i32, has_back_buffer: bool) -> Self {
        let draw = if has_back_buffer { BACK } else { NONE };
        Self {
            buffers: [None; BufferTarget::ALL.len()],
            storage_buffers: [IndexedBuffer::default(); STORAGE_BUFFER_BINDINGS],
            atomic_counter_buffers: [IndexedBuffer::default(); ATOMIC_COUNTER_BUFFER_BINDINGS],
            image_units: [ImageUnit::default(); IMAGE_UNITS],
            uniform_buffers: [IndexedBuffer::default(); MAX_UNIFORM_BUFFER_BINDINGS],
            transform_feedback_buffers: [IndexedBuffer::default(); 4],
            transform_feedback_mode: None,
            vertex_array: None,
            active_texture: 0,
            textures: [[None; TEXTURE_TARGETS]; MAX_TEXTURE_UNITS],
            samplers: [None; MAX_TEXTURE_UNITS],
            program: None,
            pipeline: None,
            stage_set: None,
            draw_framebuffer: None,
            read_framebuffer: None,
            renderbuffer: None,
            default_draw_buffer: draw,
            default_read_buffer: draw,
            active_queries: [None; QUERY_TARGETS],
            caps: Capabilities::default(),
            blend_enable: 0,
            blend_src_rgb: [ONE; MAX_DRAW_BUFFERS],
            blend_dst_rgb: [ZERO; MAX_DRAW_BUFFERS],
            blend_src_alpha: [ONE; MAX_DRAW_BUFFERS],
            blend_dst_alpha: [ZERO; MAX_DRAW_BUFFERS],
            blend_equation_rgb: [FUNC_ADD; MAX_DRAW_BUFFERS],
            blend_equation_alpha: [FUNC_ADD; MAX_DRAW_BUFFERS],
            blend_color: [0.0; 4],
            color_mask: [0xf; MAX_DRAW_BUFFERS],
            logic_op: COPY,
            depth_func: LESS,
            depth_mask: true,
            depth_ranges: [[0.0, 1.0]; MAX_VIEWPORTS],
            stencil: [StencilFaceGl::default(); 2],
            cull_face: BACK,
            front_face: CCW,
            polygon_mode: FILL,
            polygon_offset_factor: 0.0,
            polygon_offset_units: 0.0,
            polygon_offset_clamp: 0.0,
            line_width: 1.0,
            point_size: 1.0,
            patch_vertices: 3,
            patch_default_outer_level: [1.0; 4],
            patch_default_inner_level: [1.0; 2],
            point_fade_threshold: 1.0,
            point_sprite_coord_origin: UPPER_LEFT,
            provoking_vertex: LAST_VERTEX_CONVENTION,
            clip_origin: LOWER_LEFT,
            clip_depth_mode: NEGATIVE_ONE_TO_ONE,
            sample_coverage_value: 1.0,
            sample_coverage_invert: false,
            sample_mask_value: u32::MAX,
            min_sample_shading: 0.0,
            primitive_restart_index: 0,
            viewports: [[0.0, 0.0, width as f32, height as f32]; MAX_VIEWPORTS],
            scissors: [[0, 0, width, height]; MAX_VIEWPORTS],
            scissor_enable: 0,
            clear_color: [0.0; 4],
            clear_depth: 1.0,
            clear_stencil: 0,
            pack: PixelStore::default(),
            unpack: PixelStore::default(),
            generic_attribs: [GenericAttrib::default(); MAX_VERTEX_ATTRIBS],
            hints: Hints::default(),
        }
    }

    /// The buffer bound to a non-indexed target (not the element array: see the vertex
    /// array).
    #[inline]
    pub fn buffer(&self, target: BufferTarget) -> Option<Entity> {
        self.buffers[target as usize]
    }

    /// The texture bound to `target` of the active unit.
    #[inline]
    pub fn active_texture_binding(&self, target: TextureTarget) -> Option<Entity> {
        self.textures[self.active_texture as usize][target as usize]
    }
}

//! State queries: `glGet*`, `glIsEnabled` values, `glGetString(i)`.
//!
//! Every query resolves to one [`Value`] through [`Context::state_value`], which asks each
//! domain in turn (render state and bindings here; textures, framebuffers, programs, pixel
//! store and queries in their modules). The typed entry points convert as GL §2.2.1 says:
//! integers to floats exactly, floats to integers by rounding, colours and depths linearly
//! (full range), anything non-zero to `TRUE`.

use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::object::{Framebuffer, Life, STENCIL_ATTACHMENT_INDEX, VertexArray};
use tessera_components::state::{BufferTarget, TextureTarget};
use tessera_wire::state::MAX_DRAW_BUFFERS as DRAW_BUFFER_COUNT;
use tessera_wire::state::MAX_VIEWPORTS as MAX_VIEWPORTS_COUNT;

use crate::context::Context;
use crate::framebuffer::status::attached_image;
use crate::limits;
use crate::render_state::{Capability, VIEWPORT_BOUNDS, capability};
use crate::share::Shared;

/// Most values one query returns (`COMPRESSED_TEXTURE_FORMATS` aside, which has its own
/// entry).
pub const MAX_VALUES: usize = 16;

/// How a state value converts for the typed queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Integer or enum state.
    Int,
    /// Boolean state.
    Bool,
    /// Floating-point state: rounded for integer queries.
    Float,
    /// Colour or depth state: mapped linearly to the integer range for integer queries.
    Norm,
}

/// A state value: up to [`MAX_VALUES`] numbers of one kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    /// How to convert.
    pub kind: Kind,
    /// Integer values (for `Int` and `Bool`).
    pub ints: [i64; MAX_VALUES],
    /// Float values (for `Float` and `Norm`).
    pub floats: [f64; MAX_VALUES],
    /// How many values.
    pub len: usize,
}

impl Value {
    /// One integer or enum.
    pub fn int(v: i64) -> Self {
        Self::ints(&[v])
    }

    /// Integers.
    pub fn ints(v: &[i64]) -> Self {
        let mut ints = [0; MAX_VALUES];
        ints[..v.len()].copy_from_slice(v);
        Self {
            kind: Kind::Int,
            ints,
            floats: [0.0; MAX_VALUES],
            len: v.len(),
        }
    }

    /// One boolean.
    pub fn boolean(b: bool) -> Self {
        Self::bools(&[b])
    }

    /// Booleans.
    pub fn bools(v: &[bool]) -> Self {
        let mut ints = [0; MAX_VALUES];
        for (o, b) in ints.iter_mut().zip(v) {
            *o = i64::from(*b);
        }
        Self {
            kind: Kind::Bool,
            ints,
            floats: [0.0; MAX_VALUES],
            len: v.len(),
        }
    }

    /// One float.
    pub fn float(v: f64) -> Self {
        Self::floats(&[v])
    }

    /// Floats.
    pub fn floats(v: &[f64]) -> Self {
        let mut floats = [0.0; MAX_VALUES];
        floats[..v.len()].copy_from_slice(v);
        Self {
            kind: Kind::Float,
            ints: [0; MAX_VALUES],
            floats,
            len: v.len(),
        }
    }

    /// Colour or depth values.
    pub fn norms(v: &[f64]) -> Self {
        Self {
            kind: Kind::Norm,
            ..Self::floats(v)
        }
    }

    /// The values as integers.
    pub fn as_i64(&self, i: usize) -> i64 {
        match self.kind {
            Kind::Int | Kind::Bool => self.ints[i],
            Kind::Float => self.floats[i].round() as i64,
            // GL §2.2.1: [-1, 1] maps linearly onto the signed integer range (Mesa truncates).
            Kind::Norm => (self.floats[i].clamp(-1.0, 1.0) * 2_147_483_647.0) as i64,
        }
    }

    /// The values as floats.
    pub fn as_f64(&self, i: usize) -> f64 {
        match self.kind {
            Kind::Int | Kind::Bool => self.ints[i] as f64,
            Kind::Float | Kind::Norm => self.floats[i],
        }
    }

    /// The values as booleans.
    pub fn as_bool(&self, i: usize) -> bool {
        match self.kind {
            Kind::Int | Kind::Bool => self.ints[i] != 0,
            Kind::Float | Kind::Norm => self.floats[i] != 0.0,
        }
    }
}

/// The name of the object an entity is, 0 for none.
pub(crate) fn name_of(sh: &Shared, e: Option<Entity>) -> i64 {
    e.and_then(|e| sh.world.get::<Life>(e))
        .map_or(0, |l| i64::from(l.name))
}

/// Extensions advertised: the ARB/EXT names of what GL 3.3 core includes (the ones native
/// Mesa advertises in its core contexts too), each with its entry points (the EXT names of
/// core functions, `capi::gl::BEYOND_3_3`) and state (`RGBA_INTEGER_MODE_EXT`,
/// `glClearColorI*EXT`'s integer clear colour; `PROVOKING_VERTEX_EXT` is core's enum), and
/// those of later features each backend carries out in full, tested against the native
/// driver (`GL_ARB_draw_indirect`, `GL_ARB_multi_draw_indirect`, `GL_ARB_base_instance`,
/// `GL_ARB_get_program_binary`, ...).
pub const EXTENSION_NAMES: &[&str] = &[
    "GL_ARB_ES2_compatibility",
    "GL_ARB_ES3_compatibility",
    "GL_ARB_ES3_1_compatibility",
    "GL_ARB_arrays_of_arrays",
    "GL_ARB_base_instance",
    "GL_ARB_blend_func_extended",
    "GL_ARB_buffer_storage",
    "GL_ARB_clear_buffer_object",
    "GL_ARB_clear_texture",
    "GL_ARB_clip_control",
    "GL_ARB_color_buffer_float",
    "GL_ARB_compressed_texture_pixel_storage",
    "GL_ARB_compute_shader",
    "GL_ARB_conditional_render_inverted",
    "GL_ARB_conservative_depth",
    "GL_ARB_copy_buffer",
    "GL_ARB_copy_image",
    "GL_ARB_cull_distance",
    "GL_ARB_depth_buffer_float",
    "GL_ARB_depth_clamp",
    "GL_ARB_derivative_control",
    "GL_ARB_direct_state_access",
    "GL_ARB_draw_buffers",
    "GL_ARB_draw_buffers_blend",
    "GL_ARB_draw_elements_base_vertex",
    "GL_ARB_draw_indirect",
    "GL_ARB_draw_instanced",
    "GL_ARB_enhanced_layouts",
    "GL_ARB_explicit_attrib_location",
    "GL_ARB_explicit_uniform_location",
    "GL_ARB_fragment_coord_conventions",
    "GL_ARB_fragment_layer_viewport",
    "GL_ARB_framebuffer_no_attachments",
    "GL_ARB_framebuffer_object",
    "GL_ARB_framebuffer_sRGB",
    "GL_ARB_get_program_binary",
    "GL_ARB_get_texture_sub_image",
    "GL_ARB_gl_spirv",
    "GL_ARB_gpu_shader5",
    "GL_ARB_gpu_shader_fp64",
    "GL_ARB_half_float_pixel",
    "GL_ARB_half_float_vertex",
    "GL_ARB_indirect_parameters",
    "GL_ARB_instanced_arrays",
    "GL_ARB_internalformat_query",
    "GL_ARB_internalformat_query2",
    "GL_ARB_invalidate_subdata",
    "GL_ARB_map_buffer_alignment",
    "GL_ARB_map_buffer_range",
    "GL_ARB_multi_bind",
    "GL_ARB_multi_draw_indirect",
    "GL_ARB_occlusion_query",
    "GL_ARB_occlusion_query2",
    "GL_ARB_pipeline_statistics_query",
    "GL_ARB_polygon_offset_clamp",
    "GL_ARB_program_interface_query",
    "GL_ARB_provoking_vertex",
    "GL_ARB_query_buffer_object",
    "GL_ARB_robust_buffer_access_behavior",
    "GL_ARB_robustness",
    "GL_ARB_sample_shading",
    "GL_ARB_sampler_objects",
    "GL_ARB_seamless_cube_map",
    "GL_ARB_separate_shader_objects",
    "GL_ARB_shader_atomic_counter_ops",
    "GL_ARB_shader_atomic_counters",
    "GL_ARB_shader_bit_encoding",
    "GL_ARB_shader_draw_parameters",
    "GL_ARB_shader_group_vote",
    "GL_ARB_shader_image_load_store",
    "GL_ARB_shader_image_size",
    "GL_ARB_shading_language_420pack",
    "GL_ARB_shading_language_packing",
    "GL_ARB_stencil_texturing",
    "GL_ARB_shader_storage_buffer_object",
    "GL_ARB_shader_subroutine",
    "GL_ARB_spirv_extensions",
    "GL_ARB_shader_texture_image_samples",
    "GL_ARB_sync",
    "GL_ARB_tessellation_shader",
    "GL_ARB_texture_barrier",
    "GL_ARB_texture_buffer_object",
    "GL_ARB_texture_buffer_object_rgb32",
    "GL_ARB_texture_buffer_range",
    "GL_ARB_texture_compression_bptc",
    "GL_ARB_texture_compression_rgtc",
    "GL_ARB_texture_cube_map_array",
    "GL_ARB_texture_filter_anisotropic",
    "GL_ARB_texture_float",
    "GL_ARB_texture_gather",
    "GL_ARB_texture_mirror_clamp_to_edge",
    "GL_ARB_texture_multisample",
    "GL_ARB_texture_query_levels",
    "GL_ARB_texture_query_lod",
    "GL_ARB_texture_rectangle",
    "GL_ARB_texture_rg",
    "GL_ARB_texture_rgb10_a2ui",
    "GL_ARB_texture_stencil8",
    "GL_ARB_texture_storage",
    "GL_ARB_texture_storage_multisample",
    "GL_ARB_texture_swizzle",
    "GL_ARB_texture_view",
    "GL_ARB_timer_query",
    "GL_ARB_transform_feedback2",
    "GL_ARB_transform_feedback3",
    "GL_ARB_transform_feedback_instanced",
    "GL_ARB_transform_feedback_overflow_query",
    "GL_ARB_uniform_buffer_object",
    "GL_ARB_vertex_array_bgra",
    "GL_ARB_vertex_array_object",
    "GL_ARB_vertex_attrib_64bit",
    "GL_ARB_vertex_attrib_binding",
    "GL_ARB_vertex_type_10f_11f_11f_rev",
    "GL_ARB_vertex_type_2_10_10_10_rev",
    "GL_ARB_viewport_array",
    "GL_EXT_memory_object",
    "GL_EXT_memory_object_fd",
    "GL_EXT_polygon_offset_clamp",
    "GL_EXT_provoking_vertex",
    "GL_EXT_semaphore",
    "GL_EXT_semaphore_fd",
    "GL_EXT_texture_array",
    "GL_EXT_texture_filter_anisotropic",
    "GL_EXT_texture_integer",
    "GL_EXT_texture_swizzle",
    "GL_KHR_debug",
    "GL_KHR_no_error",
    "GL_KHR_robustness",
    "GL_NV_conditional_render",
    "GL_OES_EGL_image",
];

/// `GL_VENDOR`.
pub const VENDOR_STRING: &str = "Tessera";

/// Compressed formats listed by `COMPRESSED_TEXTURE_FORMATS`: the ETC2/EAC formats
/// `ARB_ES3_compatibility` adds, in Mesa's order and without the three sRGB ones, which
/// Mesa lists only in ES contexts (the RGTC and BPTC formats are not general-purpose
/// formats the query lists).
const COMPRESSED_FORMATS: &[i64] = &[
    COMPRESSED_RGB8_ETC2 as i64,
    COMPRESSED_RGBA8_ETC2_EAC as i64,
    COMPRESSED_R11_EAC as i64,
    COMPRESSED_RG11_EAC as i64,
    COMPRESSED_SIGNED_R11_EAC as i64,
    COMPRESSED_SIGNED_RG11_EAC as i64,
    COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2 as i64,
];

impl Context {
    /// The extensions advertised to this context: [`EXTENSION_NAMES`] less those its backend
    /// cannot carry out (texture views, on a GLES driver without them; tessellation, on one
    /// without its stages; per-draw-buffer blending, on one without indexed blend calls; cube
    /// map arrays, on one below ES 3.2; viewport arrays, on one without
    /// `OES_viewport_array`; image load and store, and texture level queries, on a GLES
    /// driver; the fragment stage's layer and viewport, on one below ES 3.2; the
    /// `MIRROR_CLAMP_TO_EDGE` wrap mode, anisotropic filtering, the polygon offset clamp and
    /// stencil-only textures, on a backend without them).
    fn extension_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        let views = self.local.limits.texture_views;
        let bptc = self.local.limits.bptc;
        let indexed_blend = self.local.limits.indexed_blend;
        let tessellation = self.local.limits.has_tessellation();
        let cube_arrays = self.local.limits.cube_map_arrays;
        let sample_shading = self.local.limits.sample_shading;
        let viewport_arrays = self.local.limits.viewport_arrays;
        let fp64 = self.local.limits.fp64;
        let attrib_64bit = self.local.limits.vertex_attrib_64bit;
        let gather = self.local.limits.gather.is_some();
        let gpu_shader5 = self.local.limits.gpu_shader5.is_some()
            && self.local.limits.gather.is_some_and(|g| g.extended);
        let packing = self.local.limits.packing;
        let images = self.local.limits.image_load_store;
        let rgb32 = self.local.limits.texture_buffer_rgb32;
        let stencil_texturing = self.local.limits.stencil_texturing;
        let stencil8 = self.local.limits.texture_stencil8;
        let mirror_clamp = self.local.limits.mirror_clamp_to_edge;
        let anisotropic = self.local.limits.anisotropic;
        let offset_clamp = self.local.limits.polygon_offset_clamp;
        let packed_float = self.local.limits.vertex_10f_11f_11f;
        let level_queries = self.local.limits.texture_level_queries;
        let fragment_layer = self.local.limits.fragment_layer && self.local.limits.viewport_arrays;
        // Framebuffers without attachments need ES 3.1's glFramebufferParameteri on a GLES
        // backend, which one with compute stages (ES 3.1 too) has; Vulkan always has them.
        let no_attachments = self.local.limits.has_compute();
        // Compute stages and storage buffers both come with ES 3.1 on a GLES backend (and
        // atomic counters and their operations, which are storage-buffer atomics there, and
        // group votes, which need compute stages).
        let compute = self.local.limits.has_compute();
        let clip_control = self.local.limits.clip_control;
        let draw_parameters = self.local.limits.draw_parameters;
        let cull_distance = self.local.limits.cull_distances[0] > 0;
        let texture_barrier = self.local.limits.texture_barrier;
        let memory_objects = self.local.limits.memory_objects;
        let semaphores = self.local.limits.semaphores;
        let pipeline_statistics = self.local.limits.pipeline_statistics;
        let xfb_overflow = self.local.limits.transform_feedback_overflow;
        let robust = self.local.limits.robust_buffer_access;
        let enhanced_layouts = self.local.limits.enhanced_layouts;
        let egl_images = self.local.limits.egl_images;
        EXTENSION_NAMES
            .iter()
            .copied()
            .filter(move |e| views || *e != "GL_ARB_texture_view")
            .filter(move |e| bptc || *e != "GL_ARB_texture_compression_bptc")
            .filter(move |e| indexed_blend || *e != "GL_ARB_draw_buffers_blend")
            .filter(move |e| tessellation || *e != "GL_ARB_tessellation_shader")
            .filter(move |e| cube_arrays || *e != "GL_ARB_texture_cube_map_array")
            .filter(move |e| sample_shading || *e != "GL_ARB_sample_shading")
            .filter(move |e| viewport_arrays || *e != "GL_ARB_viewport_array")
            .filter(move |e| fp64 || *e != "GL_ARB_gpu_shader_fp64")
            .filter(move |e| attrib_64bit || *e != "GL_ARB_vertex_attrib_64bit")
            .filter(move |e| gather || *e != "GL_ARB_texture_gather")
            .filter(move |e| gpu_shader5 || *e != "GL_ARB_gpu_shader5")
            .filter(move |e| packing || *e != "GL_ARB_shading_language_packing")
            .filter(move |e| {
                images
                    || !matches!(
                        *e,
                        "GL_ARB_shader_image_load_store" | "GL_ARB_shader_image_size"
                    )
            })
            .filter(move |e| rgb32 || *e != "GL_ARB_texture_buffer_object_rgb32")
            .filter(move |e| stencil_texturing || *e != "GL_ARB_stencil_texturing")
            .filter(move |e| stencil8 || *e != "GL_ARB_texture_stencil8")
            .filter(move |e| mirror_clamp || *e != "GL_ARB_texture_mirror_clamp_to_edge")
            .filter(move |e| packed_float || *e != "GL_ARB_vertex_type_10f_11f_11f_rev")
            .filter(move |e| {
                offset_clamp
                    || !matches!(
                        *e,
                        "GL_ARB_polygon_offset_clamp" | "GL_EXT_polygon_offset_clamp"
                    )
            })
            .filter(move |e| {
                anisotropic
                    || !matches!(
                        *e,
                        "GL_ARB_texture_filter_anisotropic" | "GL_EXT_texture_filter_anisotropic"
                    )
            })
            .filter(move |e| {
                level_queries
                    || !matches!(
                        *e,
                        "GL_ARB_texture_query_lod" | "GL_ARB_texture_query_levels"
                    )
            })
            .filter(move |e| fragment_layer || *e != "GL_ARB_fragment_layer_viewport")
            .filter(move |e| no_attachments || *e != "GL_ARB_framebuffer_no_attachments")
            .filter(move |e| clip_control || *e != "GL_ARB_clip_control")
            .filter(move |e| draw_parameters || *e != "GL_ARB_shader_draw_parameters")
            .filter(move |e| cull_distance || *e != "GL_ARB_cull_distance")
            .filter(move |e| texture_barrier || *e != "GL_ARB_texture_barrier")
            .filter(move |e| memory_objects || !e.starts_with("GL_EXT_memory_object"))
            .filter(move |e| semaphores || !e.starts_with("GL_EXT_semaphore"))
            .filter(move |e| egl_images || *e != "GL_OES_EGL_image")
            .filter(move |e| pipeline_statistics || *e != "GL_ARB_pipeline_statistics_query")
            .filter(move |e| xfb_overflow || *e != "GL_ARB_transform_feedback_overflow_query")
            .filter(move |e| robust || *e != "GL_ARB_robust_buffer_access_behavior")
            .filter(move |e| enhanced_layouts || *e != "GL_ARB_enhanced_layouts")
            // GLSL ES 3.10 has compute shaders, storage blocks and images.
            .filter(move |e| (compute && images) || *e != "GL_ARB_ES3_1_compatibility")
            .filter(move |e| {
                compute
                    || !matches!(
                        *e,
                        "GL_ARB_compute_shader"
                            | "GL_ARB_shader_storage_buffer_object"
                            | "GL_ARB_shader_atomic_counters"
                            | "GL_ARB_shader_atomic_counter_ops"
                            | "GL_ARB_shader_group_vote"
                    )
            })
    }

    /// Whether the backend keeps buffer reads inside their buffers, which a robust-access
    /// context needs (`crate::robustness`).
    pub fn robust_buffer_access(&self) -> bool {
        self.local.limits.robust_buffer_access
    }

    /// Whether the context advertises the extension `name`.
    pub(crate) fn advertises(&self, name: &str) -> bool {
        self.extension_names().any(|e| e == name)
    }

    /// The value of a state variable, or `None` if `pname` names none (the caller raises
    /// `INVALID_ENUM`).
    ///
    /// `sh` is mutable for the few values that need the backend (`TIMESTAMP`).
    pub(crate) fn state_value(&self, sh: &mut Shared, pname: GLenum) -> Option<Value> {
        self.render_state_value(pname)
            .or_else(|| match pname {
                STENCIL_REF => self.stencil_ref_value(sh, self.local.st.stencil[0].reference),
                STENCIL_BACK_REF => self.stencil_ref_value(sh, self.local.st.stencil[1].reference),
                _ => None,
            })
            .or_else(|| self.binding_value(sh, pname))
            .or_else(|| self.limit_value(sh, pname))
            .or_else(|| self.texture_state_value(sh, pname))
            .or_else(|| self.framebuffer_state_value(sh, pname))
            .or_else(|| self.program_state_value(sh, pname))
            .or_else(|| self.pixel_store_value(pname))
            .or_else(|| self.query_state_value(sh, pname))
    }

    /// Stencil bits of the draw framebuffer: 0 without a stencil image.
    fn draw_stencil_bits(&self, sh: &Shared) -> u32 {
        let format = match self.local.st.draw_framebuffer {
            None => self.local.surface.and_then(|s| s.desc.depth_stencil),
            Some(fb) => sh.world.get::<Framebuffer>(fb).and_then(|f| {
                attached_image(&sh.world, &f.attachments[STENCIL_ATTACHMENT_INDEX])
                    .and_then(|i| i.format)
            }),
        };
        format.map_or(0, |f| u32::from(f.info().stencil_bits))
    }

    /// `STENCIL_REF` as queried: GL 3.3 §4.1.5 clamps the reference to `[0, 2^s - 1]` for
    /// queries too, `s` being the draw framebuffer's stencil bits.
    fn stencil_ref_value(&self, sh: &Shared, reference: GLint) -> Option<Value> {
        let max = (1i64 << self.draw_stencil_bits(sh)) - 1;
        Some(Value::int(i64::from(reference).clamp(0, max)))
    }

    fn render_state_value(&self, pname: GLenum) -> Option<Value> {
        let st = &self.local.st;
        if let Some(c) = capability(pname) {
            return Some(Value::boolean(match c {
                Capability::Blend => st.blend_enable & 1 != 0,
                Capability::Scissor => st.scissor_enable & 1 != 0,
                Capability::Bit(bit, _) => st.caps.has(bit),
            }));
        }
        let e = |v: GLenum| Some(Value::int(i64::from(v)));
        let front = &st.stencil[0];
        let back = &st.stencil[1];
        match pname {
            BLEND_SRC_RGB => e(st.blend_src_rgb[0]),
            BLEND_SRC_ALPHA => e(st.blend_src_alpha[0]),
            BLEND_DST_RGB => e(st.blend_dst_rgb[0]),
            BLEND_DST_ALPHA => e(st.blend_dst_alpha[0]),
            BLEND_EQUATION_RGB => e(st.blend_equation_rgb[0]),
            BLEND_EQUATION_ALPHA => e(st.blend_equation_alpha[0]),
            BLEND_COLOR => Some(Value::norms(&st.blend_color.map(f64::from))),
            COLOR_WRITEMASK => {
                let m = st.color_mask[0];
                Some(Value::bools(&[
                    m & 1 != 0,
                    m & 2 != 0,
                    m & 4 != 0,
                    m & 8 != 0,
                ]))
            }
            LOGIC_OP_MODE => e(st.logic_op),
            DEPTH_FUNC => e(st.depth_func),
            DEPTH_WRITEMASK => Some(Value::boolean(st.depth_mask)),
            DEPTH_RANGE => Some(Value::norms(&st.depth_ranges[0])),
            DEPTH_CLEAR_VALUE => Some(Value::norms(&[st.clear_depth])),
            STENCIL_FUNC => e(front.func),
            STENCIL_VALUE_MASK => Some(Value::int(i64::from(front.value_mask))),
            STENCIL_FAIL => e(front.fail),
            STENCIL_PASS_DEPTH_FAIL => e(front.depth_fail),
            STENCIL_PASS_DEPTH_PASS => e(front.depth_pass),
            STENCIL_WRITEMASK => Some(Value::int(i64::from(front.write_mask))),
            STENCIL_BACK_FUNC => e(back.func),
            STENCIL_BACK_VALUE_MASK => Some(Value::int(i64::from(back.value_mask))),
            STENCIL_BACK_FAIL => e(back.fail),
            STENCIL_BACK_PASS_DEPTH_FAIL => e(back.depth_fail),
            STENCIL_BACK_PASS_DEPTH_PASS => e(back.depth_pass),
            STENCIL_BACK_WRITEMASK => Some(Value::int(i64::from(back.write_mask))),
            STENCIL_CLEAR_VALUE => Some(Value::int(i64::from(st.clear_stencil))),
            CULL_FACE_MODE => e(st.cull_face),
            FRONT_FACE => e(st.front_face),
            POLYGON_MODE => Some(Value::ints(&[
                i64::from(st.polygon_mode),
                i64::from(st.polygon_mode),
            ])),
            POLYGON_OFFSET_FACTOR => Some(Value::float(f64::from(st.polygon_offset_factor))),
            POLYGON_OFFSET_UNITS => Some(Value::float(f64::from(st.polygon_offset_units))),
            POLYGON_OFFSET_CLAMP if self.local.limits.polygon_offset_clamp => {
                Some(Value::float(f64::from(st.polygon_offset_clamp)))
            }
            LINE_WIDTH => Some(Value::float(f64::from(st.line_width))),
            POINT_SIZE => Some(Value::float(f64::from(st.point_size))),
            POINT_FADE_THRESHOLD_SIZE => Some(Value::float(f64::from(st.point_fade_threshold))),
            POINT_SPRITE_COORD_ORIGIN => e(st.point_sprite_coord_origin),
            SAMPLE_COVERAGE_VALUE => Some(Value::float(f64::from(st.sample_coverage_value))),
            SAMPLE_COVERAGE_INVERT => Some(Value::boolean(st.sample_coverage_invert)),
            MIN_SAMPLE_SHADING_VALUE => Some(Value::float(f64::from(st.min_sample_shading))),
            VIEWPORT => Some(Value::floats(&st.viewports[0].map(f64::from))),
            SCISSOR_BOX => Some(Value::ints(&st.scissors[0].map(i64::from))),
            COLOR_CLEAR_VALUE => Some(Value::norms(&st.clear_color.map(f64::from))),
            // Unsigned state read back by bit pattern (0xFFFF_FFFF reads as -1), as Mesa does:
            // applications save and restore it through the signed queries.
            PRIMITIVE_RESTART_INDEX => {
                Some(Value::int(i64::from(st.primitive_restart_index as i32)))
            }
            PROVOKING_VERTEX => e(st.provoking_vertex),
            CLIP_ORIGIN if self.local.limits.clip_control => e(st.clip_origin),
            CLIP_DEPTH_MODE if self.local.limits.clip_control => e(st.clip_depth_mode),
            LINE_SMOOTH_HINT => e(st.hints.line_smooth),
            POLYGON_SMOOTH_HINT => e(st.hints.polygon_smooth),
            TEXTURE_COMPRESSION_HINT => e(st.hints.texture_compression),
            FRAGMENT_SHADER_DERIVATIVE_HINT => e(st.hints.fragment_shader_derivative),
            _ => None,
        }
    }

    fn binding_value(&self, sh: &Shared, pname: GLenum) -> Option<Value> {
        let st = &self.local.st;
        let name = |e: Option<Entity>| Some(Value::int(name_of(sh, e)));
        for t in BufferTarget::ALL {
            if t.binding_query() == pname && t != BufferTarget::ElementArray {
                return name(st.buffer(t));
            }
        }
        for t in TextureTarget::ALL {
            if t.binding_query() == pname {
                return name(st.active_texture_binding(t));
            }
        }
        match pname {
            // The bound array's, or the context's slot when none is bound (buffer.rs).
            ELEMENT_ARRAY_BUFFER_BINDING => name(match st.vertex_array {
                Some(v) => sh
                    .world
                    .get::<VertexArray>(v)
                    .and_then(|v| v.element_buffer),
                None => st.buffer(BufferTarget::ElementArray),
            }),
            VERTEX_ARRAY_BINDING => name(st.vertex_array),
            CURRENT_PROGRAM => name(st.program),
            PROGRAM_PIPELINE_BINDING => Some(Value::int(i64::from(self.pipeline_binding(sh)))),
            ACTIVE_TEXTURE => Some(Value::int(i64::from(TEXTURE0 + st.active_texture))),
            SAMPLER_BINDING => name(st.samplers[st.active_texture as usize]),
            DRAW_FRAMEBUFFER_BINDING => name(st.draw_framebuffer),
            READ_FRAMEBUFFER_BINDING => name(st.read_framebuffer),
            RENDERBUFFER_BINDING => name(st.renderbuffer),
            // GL 4.0 (ARB_transform_feedback2): the bound object and its capture.
            TRANSFORM_FEEDBACK_BINDING => Some(Value::int(i64::from(self.local.xfb.bound))),
            TRANSFORM_FEEDBACK_ACTIVE => Some(Value::boolean(st.transform_feedback_mode.is_some())),
            TRANSFORM_FEEDBACK_PAUSED => Some(Value::boolean(self.local.xfb.paused)),
            _ => None,
        }
    }

    fn limit_value(&self, sh: &Shared, pname: GLenum) -> Option<Value> {
        let l = &self.local.limits;
        let i = |v: i32| Some(Value::int(i64::from(v)));
        match pname {
            MAJOR_VERSION => i(self.gl_version().major.into()),
            MINOR_VERSION => i(self.gl_version().minor.into()),
            CONTEXT_FLAGS => i(self.local.context_flags as i32),
            RESET_NOTIFICATION_STRATEGY => i(self.local.reset_strategy as i32),
            // Granted to robust-access contexts on a robust backend (`crate::robustness`).
            CONTEXT_ROBUST_ACCESS => Some(Value::boolean(
                self.local.context_flags & CONTEXT_FLAG_ROBUST_ACCESS_BIT != 0,
            )),
            DEBUG_OUTPUT
            | DEBUG_OUTPUT_SYNCHRONOUS
            | MAX_DEBUG_MESSAGE_LENGTH
            | MAX_DEBUG_LOGGED_MESSAGES
            | MAX_DEBUG_GROUP_STACK_DEPTH
            | MAX_LABEL_LENGTH
            | DEBUG_LOGGED_MESSAGES
            | DEBUG_NEXT_LOGGED_MESSAGE_LENGTH
            | DEBUG_GROUP_STACK_DEPTH => self.local.debug.value(pname).map(Value::int),
            CONTEXT_PROFILE_MASK => i(CONTEXT_CORE_PROFILE_BIT as i32),
            // GL 4.5 (KHR_context_flush_control), answered as Mesa does in 3.3 contexts:
            // releasing a context flushes its batch (`Context::release_thread`).
            CONTEXT_RELEASE_BEHAVIOR => i(CONTEXT_RELEASE_BEHAVIOR_FLUSH as i32),
            NUM_EXTENSIONS => i(self.extension_names().count() as i32),
            NUM_SHADING_LANGUAGE_VERSIONS => i(self.glsl_versions().count() as i32),
            NUM_COMPRESSED_TEXTURE_FORMATS => i(COMPRESSED_FORMATS.len() as i32),
            COMPRESSED_TEXTURE_FORMATS => Some(Value::ints(COMPRESSED_FORMATS)),
            // GL 4.1 (ARB_ES2_compatibility): no format is listed, so SHADER_BINARY_FORMATS
            // has no value to write; glShaderBinary takes SPIR-V (`gl_spirv`) unlisted, as
            // native llvmpipe does.
            NUM_SHADER_BINARY_FORMATS => i(0),
            SHADER_BINARY_FORMATS => Some(Value::ints(&[])),
            NUM_SPIR_V_EXTENSIONS => i(self.spirv_extension_names().count() as i32),
            NUM_PROGRAM_BINARY_FORMATS => i(1),
            PROGRAM_BINARY_FORMATS => {
                Some(Value::ints(&[i64::from(crate::program::binary::FORMAT)]))
            }
            MAX_TEXTURE_SIZE => i(l.max_texture_size),
            MAX_3D_TEXTURE_SIZE => i(l.max_3d_texture_size),
            MAX_ARRAY_TEXTURE_LAYERS => i(l.max_array_layers),
            MAX_CUBE_MAP_TEXTURE_SIZE => i(l.max_cube_size),
            MAX_RECTANGLE_TEXTURE_SIZE => i(l.max_rectangle_size),
            MAX_RENDERBUFFER_SIZE => i(l.max_renderbuffer_size),
            // GL 4.3 (ARB_framebuffer_no_attachments): `framebuffer::defaults`.
            MAX_FRAMEBUFFER_WIDTH
            | MAX_FRAMEBUFFER_HEIGHT
            | MAX_FRAMEBUFFER_LAYERS
            | MAX_FRAMEBUFFER_SAMPLES => self.max_framebuffer(pname).and_then(i),
            MAX_SAMPLES
            | MAX_COLOR_TEXTURE_SAMPLES
            | MAX_DEPTH_TEXTURE_SAMPLES
            | MAX_INTEGER_SAMPLES => i(l.max_samples),
            MAX_VIEWPORT_DIMS => Some(Value::ints(&[
                i64::from(l.max_viewport),
                i64::from(l.max_viewport),
            ])),
            MAX_TEXTURE_BUFFER_SIZE => i(l.max_texture_buffer_size),
            TEXTURE_BUFFER_OFFSET_ALIGNMENT => i(l.texture_buffer_offset_alignment),
            MAX_TEXTURE_LOD_BIAS => Some(Value::float(f64::from(l.max_lod_bias))),
            MAX_TEXTURE_MAX_ANISOTROPY if l.anisotropic => {
                Some(Value::float(f64::from(l.max_anisotropy)))
            }
            MAX_DRAW_BUFFERS | MAX_COLOR_ATTACHMENTS => i(limits::COLOR_ATTACHMENTS),
            MAX_DUAL_SOURCE_DRAW_BUFFERS => i(1),
            MAX_VERTEX_ATTRIBS => i(limits::VERTEX_ATTRIBS),
            MAX_TEXTURE_IMAGE_UNITS
            | MAX_VERTEX_TEXTURE_IMAGE_UNITS
            | MAX_GEOMETRY_TEXTURE_IMAGE_UNITS => i(limits::STAGE_UNITS),
            MAX_COMBINED_TEXTURE_IMAGE_UNITS => i(limits::COMBINED_UNITS),
            MAX_UNIFORM_BUFFER_BINDINGS => i(limits::UBO_BINDINGS),
            MAX_UNIFORM_BLOCK_SIZE => i(l.max_uniform_block_size),
            MAX_VERTEX_UNIFORM_BLOCKS
            | MAX_GEOMETRY_UNIFORM_BLOCKS
            | MAX_FRAGMENT_UNIFORM_BLOCKS => i(limits::STAGE_UNIFORM_BLOCKS),
            MAX_COMBINED_UNIFORM_BLOCKS => i(3 * limits::STAGE_UNIFORM_BLOCKS),
            UNIFORM_BUFFER_OFFSET_ALIGNMENT => i(limits::UBO_OFFSET_ALIGNMENT),
            // Compute shaders and shader storage buffers (GL 4.3), which the context can run.
            MAX_COMPUTE_WORK_GROUP_INVOCATIONS => i(l.max_compute_work_group_invocations),
            MAX_COMPUTE_SHARED_MEMORY_SIZE => i(l.max_compute_shared_memory_size),
            MAX_VERTEX_SHADER_STORAGE_BLOCKS
            | MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS
            | MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS
            | MAX_GEOMETRY_SHADER_STORAGE_BLOCKS
            | MAX_FRAGMENT_SHADER_STORAGE_BLOCKS
            | MAX_COMPUTE_SHADER_STORAGE_BLOCKS
            | MAX_COMBINED_SHADER_STORAGE_BLOCKS => i(l.max_storage_blocks),
            MAX_SHADER_STORAGE_BUFFER_BINDINGS => i(limits::SSBO_BINDINGS),
            MAX_SHADER_STORAGE_BLOCK_SIZE => Some(Value::int(l.max_storage_block_size)),
            SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT => i(l.storage_offset_alignment as i32),
            MAX_COMPUTE_UNIFORM_BLOCKS => i(limits::STAGE_UNIFORM_BLOCKS),
            // Atomic counters (GL 4.2): storage-buffer atomics, whose buffers take storage
            // slots of the program (so as many buffers as storage blocks), counters and
            // buffer size as native llvmpipe's.
            MAX_VERTEX_ATOMIC_COUNTER_BUFFERS
            | MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS
            | MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS
            | MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS
            | MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS
            | MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS => i(l.max_storage_blocks),
            // Mesa's sum over the graphics stages (80 on llvmpipe: 16 in each of 5). A
            // program never has more than the 16 binding points' buffers, which the link
            // fits into its storage slots.
            MAX_COMBINED_ATOMIC_COUNTER_BUFFERS => {
                let stages = if l.has_tessellation() { 5 } else { 3 };
                i(l.max_storage_blocks.saturating_mul(stages))
            }
            MAX_VERTEX_ATOMIC_COUNTERS
            | MAX_TESS_CONTROL_ATOMIC_COUNTERS
            | MAX_TESS_EVALUATION_ATOMIC_COUNTERS
            | MAX_GEOMETRY_ATOMIC_COUNTERS
            | MAX_FRAGMENT_ATOMIC_COUNTERS
            | MAX_COMPUTE_ATOMIC_COUNTERS
            | MAX_COMBINED_ATOMIC_COUNTERS => i(limits::ATOMIC_COUNTERS),
            MAX_ATOMIC_COUNTER_BUFFER_SIZE => i(limits::ATOMIC_COUNTER_BUFFER_SIZE),
            MAX_ATOMIC_COUNTER_BUFFER_BINDINGS => i(limits::ACB_BINDINGS),
            // Subroutines (GL 4.0), Mesa's limits.
            MAX_SUBROUTINES => i(crate::program::subroutine::MAX_SUBROUTINES),
            MAX_SUBROUTINE_UNIFORM_LOCATIONS => {
                i(crate::program::subroutine::MAX_SUBROUTINE_UNIFORM_LOCATIONS)
            }
            // Explicit uniform locations (GL 4.3), native llvmpipe's limit.
            MAX_UNIFORM_LOCATIONS => i(tessera_shader::MAX_UNIFORM_LOCATIONS),
            // Image load and store (GL 4.2), which the context can run.
            MAX_IMAGE_UNITS => i(crate::image::IMAGE_UNITS),
            MAX_VERTEX_IMAGE_UNIFORMS
            | MAX_TESS_CONTROL_IMAGE_UNIFORMS
            | MAX_TESS_EVALUATION_IMAGE_UNIFORMS
            | MAX_GEOMETRY_IMAGE_UNIFORMS
            | MAX_FRAGMENT_IMAGE_UNIFORMS
            | MAX_COMPUTE_IMAGE_UNIFORMS => i(crate::image::STAGE_IMAGE_UNIFORMS),
            MAX_COMBINED_IMAGE_UNIFORMS => i(crate::image::COMBINED_IMAGE_UNIFORMS),
            MAX_COMBINED_IMAGE_UNITS_AND_FRAGMENT_OUTPUTS => {
                i(crate::image::IMAGE_UNITS_AND_FRAGMENT_OUTPUTS)
            }
            MAX_IMAGE_SAMPLES => i(crate::image::IMAGE_SAMPLES),
            MAX_COMPUTE_TEXTURE_IMAGE_UNITS => i(limits::STAGE_UNITS),
            MAX_COMPUTE_UNIFORM_COMPONENTS => i(limits::STAGE_UNIFORM_COMPONENTS),
            MAX_VERTEX_UNIFORM_COMPONENTS
            | MAX_FRAGMENT_UNIFORM_COMPONENTS
            | MAX_GEOMETRY_UNIFORM_COMPONENTS => i(limits::STAGE_UNIFORM_COMPONENTS),
            MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS
            | MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS
            | MAX_COMBINED_GEOMETRY_UNIFORM_COMPONENTS
            | MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS => Some(Value::int(
                i64::from(limits::STAGE_UNIFORM_COMPONENTS)
                    + i64::from(limits::STAGE_UNIFORM_BLOCKS) * i64::from(l.max_uniform_block_size)
                        / 4,
            )),
            MAX_VARYING_COMPONENTS => i(limits::VARYING_COMPONENTS),
            // Tessellation (GL 4.0), which the context runs where the backend has it.
            PATCH_VERTICES
            | PATCH_DEFAULT_OUTER_LEVEL
            | PATCH_DEFAULT_INNER_LEVEL
            | MAX_PATCH_VERTICES
            | MAX_TESS_GEN_LEVEL
            | MAX_TESS_CONTROL_UNIFORM_COMPONENTS
            | MAX_TESS_EVALUATION_UNIFORM_COMPONENTS
            | MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS
            | MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS
            | MAX_TESS_CONTROL_UNIFORM_BLOCKS
            | MAX_TESS_EVALUATION_UNIFORM_BLOCKS
            | MAX_TESS_CONTROL_INPUT_COMPONENTS
            | MAX_TESS_CONTROL_OUTPUT_COMPONENTS
            | MAX_TESS_PATCH_COMPONENTS
            | MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS
            | MAX_TESS_EVALUATION_INPUT_COMPONENTS
            | MAX_TESS_EVALUATION_OUTPUT_COMPONENTS
            | MAX_COMBINED_TESS_CONTROL_UNIFORM_COMPONENTS
            | MAX_COMBINED_TESS_EVALUATION_UNIFORM_COMPONENTS
                if l.has_tessellation() =>
            {
                let st = &self.local.st;
                let t = &l.tess;
                let n = |v: u32| i(v.min(i32::MAX as u32) as i32);
                match pname {
                    PATCH_VERTICES => i(st.patch_vertices),
                    PATCH_DEFAULT_OUTER_LEVEL => {
                        Some(Value::floats(&st.patch_default_outer_level.map(f64::from)))
                    }
                    PATCH_DEFAULT_INNER_LEVEL => {
                        Some(Value::floats(&st.patch_default_inner_level.map(f64::from)))
                    }
                    MAX_PATCH_VERTICES => i(l.max_patch_vertices),
                    MAX_TESS_GEN_LEVEL => i(l.max_tess_gen_level),
                    MAX_TESS_CONTROL_UNIFORM_COMPONENTS
                    | MAX_TESS_EVALUATION_UNIFORM_COMPONENTS => i(limits::STAGE_UNIFORM_COMPONENTS),
                    MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS
                    | MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS => i(limits::STAGE_UNITS),
                    MAX_TESS_CONTROL_UNIFORM_BLOCKS | MAX_TESS_EVALUATION_UNIFORM_BLOCKS => {
                        i(limits::STAGE_UNIFORM_BLOCKS)
                    }
                    MAX_TESS_CONTROL_INPUT_COMPONENTS => n(t.max_control_input_components),
                    MAX_TESS_CONTROL_OUTPUT_COMPONENTS => n(t.max_control_output_components),
                    MAX_TESS_PATCH_COMPONENTS => n(t.max_patch_components),
                    MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS => {
                        n(t.max_control_total_output_components)
                    }
                    MAX_TESS_EVALUATION_INPUT_COMPONENTS => n(t.max_evaluation_input_components),
                    MAX_TESS_EVALUATION_OUTPUT_COMPONENTS => n(t.max_evaluation_output_components),
                    _ => Some(Value::int(
                        i64::from(limits::STAGE_UNIFORM_COMPONENTS)
                            + i64::from(limits::STAGE_UNIFORM_BLOCKS)
                                * i64::from(l.max_uniform_block_size)
                                / 4,
                    )),
                }
            }
            // GL 4.1's (ARB_ES2_compatibility's) vec4 forms of the limits above, which Mesa
            // answers in 3.3 core contexts too: the same limits, counted in vec4s.
            MAX_VERTEX_UNIFORM_VECTORS | MAX_FRAGMENT_UNIFORM_VECTORS => {
                i(limits::STAGE_UNIFORM_COMPONENTS / 4)
            }
            MAX_VARYING_VECTORS => i(limits::VARYING_COMPONENTS / 4),
            // GL 4.1 (ARB_ES2_compatibility): every Tessera context compiles shaders.
            SHADER_COMPILER => Some(Value::boolean(true)),
            MAX_VERTEX_OUTPUT_COMPONENTS => i(l.max_vertex_output_components),
            MAX_GEOMETRY_INPUT_COMPONENTS => i(l.max_geometry_input_components),
            MAX_GEOMETRY_OUTPUT_COMPONENTS | MAX_FRAGMENT_INPUT_COMPONENTS => {
                i(*limits::STAGE_IO_COMPONENTS.end())
            }
            MAX_GEOMETRY_OUTPUT_VERTICES => i(256),
            MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS => i(1024),
            MAX_CLIP_DISTANCES => i(8),
            MAX_CULL_DISTANCES if l.cull_distances[0] > 0 => i(l.cull_distances[0] as i32),
            MAX_COMBINED_CLIP_AND_CULL_DISTANCES if l.cull_distances[0] > 0 => {
                i(l.cull_distances[1] as i32)
            }
            MAX_ELEMENTS_VERTICES | MAX_ELEMENTS_INDICES => i(1 << 20),
            MAX_ELEMENT_INDEX => Some(Value::int(l.max_element_index)),
            // GL 4.2 (ARB_map_buffer_alignment): every mapping is placed so (`MappedBytes`).
            MIN_MAP_BUFFER_ALIGNMENT => i(tessera_components::object::MAP_ALIGNMENT as i32),
            MAX_VERTEX_ATTRIB_STRIDE => i(limits::MAX_VERTEX_ATTRIB_STRIDE),
            MAX_VERTEX_ATTRIB_RELATIVE_OFFSET => Some(Value::int(i64::from(
                limits::MAX_VERTEX_ATTRIB_RELATIVE_OFFSET,
            ))),
            MAX_VERTEX_ATTRIB_BINDINGS => i(limits::VERTEX_ATTRIB_BINDINGS),
            MAX_PROGRAM_TEXEL_OFFSET => i(7),
            MIN_PROGRAM_TEXEL_OFFSET => i(-8),
            // ARB_texture_gather (GL 4.0): every component of a texel is gathered, at
            // offsets the backend takes.
            MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS_ARB if l.gather.is_some() => i(4),
            MIN_PROGRAM_TEXTURE_GATHER_OFFSET => l.gather.and_then(|g| i(g.min_offset)),
            MAX_PROGRAM_TEXTURE_GATHER_OFFSET => l.gather.and_then(|g| i(g.max_offset)),
            // ARB_gpu_shader5 (GL 4.0): the backend's geometry invocations; interpolation
            // offsets in GL's own range, in sixteenths of a pixel (native Mesa's values,
            // which Vulkan's minimums and GLES 3.2's cover).
            MAX_GEOMETRY_SHADER_INVOCATIONS => l
                .gpu_shader5
                .and_then(|g| i(g.max_geometry_invocations.min(i32::MAX as u32) as i32)),
            MIN_FRAGMENT_INTERPOLATION_OFFSET if l.gpu_shader5.is_some() => {
                Some(Value::float(-0.5))
            }
            MAX_FRAGMENT_INTERPOLATION_OFFSET if l.gpu_shader5.is_some() => Some(Value::float(0.5)),
            FRAGMENT_INTERPOLATION_OFFSET_BITS if l.gpu_shader5.is_some() => i(4),
            MAX_SAMPLE_MASK_WORDS => i(1),
            MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS => i(64),
            MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS => i(4),
            MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS => i(4),
            MAX_TRANSFORM_FEEDBACK_BUFFERS => i(4),
            // ARB_transform_feedback3 (GL 4.0): the backend's vertex streams.
            MAX_VERTEX_STREAMS => i(l.max_vertex_streams as i32),
            // EXT_memory_object: the backend's one Vulkan device (memory_object).
            NUM_DEVICE_UUIDS_EXT if l.memory_objects => i(1),
            MAX_SERVER_WAIT_TIMEOUT => Some(Value::int(i64::MAX)),
            SUBPIXEL_BITS => i(4),
            // ARB_viewport_array (GL 4.1), with native llvmpipe's values.
            MAX_VIEWPORTS => i(MAX_VIEWPORTS_COUNT as i32),
            VIEWPORT_SUBPIXEL_BITS => i(0),
            VIEWPORT_BOUNDS_RANGE => Some(Value::floats(&VIEWPORT_BOUNDS.map(f64::from))),
            ALIASED_LINE_WIDTH_RANGE => Some(Value::floats(&[1.0, 1.0])),
            SMOOTH_LINE_WIDTH_RANGE => Some(Value::floats(&[1.0, 1.0])),
            SMOOTH_LINE_WIDTH_GRANULARITY => Some(Value::float(0.125)),
            POINT_SIZE_RANGE => Some(Value::floats(&[1.0, 255.0])),
            POINT_SIZE_GRANULARITY => Some(Value::float(0.125)),
            LAYER_PROVOKING_VERTEX | VIEWPORT_INDEX_PROVOKING_VERTEX => i(UNDEFINED_VERTEX as i32),
            DOUBLEBUFFER => Some(Value::boolean(false)),
            STEREO => Some(Value::boolean(false)),
            _ => {
                let _ = sh;
                None
            }
        }
    }

    /// The value of `pname` for the `glGet*v` queries, or the error they raise:
    /// `INVALID_ENUM` when it names no state variable, or the error the variable's own rules
    /// give in the current state (`IMPLEMENTATION_COLOR_READ_*` without a colour read
    /// buffer).
    pub(crate) fn query_value(&self, sh: &mut Shared, pname: GLenum) -> Result<Value, GLenum> {
        if let Some(e) = self.framebuffer_query_error(sh, pname) {
            return Err(e);
        }
        self.state_value(sh, pname).ok_or(INVALID_ENUM)
    }

    fn query<T>(&mut self, pname: GLenum, out: &mut [T], convert: impl Fn(&Value, usize) -> T) {
        let value = {
            let mut sh = self.group.lock_for(self.local.id);
            self.query_value(&mut sh, pname)
        };
        match value {
            Ok(v) => {
                for (i, o) in out.iter_mut().enumerate().take(v.len) {
                    *o = convert(&v, i);
                }
            }
            Err(e) => self.error(e),
        }
    }

    /// `glGetIntegerv`.
    pub fn get_integerv(&mut self, pname: GLenum, data: &mut [GLint]) {
        self.query(pname, data, |v, i| {
            v.as_i64(i).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
        });
    }

    /// `glGetInteger64v`.
    pub fn get_integer64v(&mut self, pname: GLenum, data: &mut [GLint64]) {
        self.query(pname, data, |v, i| v.as_i64(i));
    }

    /// `glGetFloatv`.
    pub fn get_floatv(&mut self, pname: GLenum, data: &mut [GLfloat]) {
        self.query(pname, data, |v, i| v.as_f64(i) as f32);
    }

    /// `glGetDoublev`.
    pub fn get_doublev(&mut self, pname: GLenum, data: &mut [GLdouble]) {
        self.query(pname, data, |v, i| v.as_f64(i));
    }

    /// `glGetBooleanv`.
    pub fn get_booleanv(&mut self, pname: GLenum, data: &mut [GLboolean]) {
        self.query(pname, data, |v, i| v.as_bool(i) as GLboolean);
    }

    /// Convenience: one integer state value.
    pub fn get_integer(&mut self, pname: GLenum) -> GLint {
        let mut v = [0; MAX_VALUES];
        self.get_integerv(pname, &mut v);
        v[0]
    }

    /// The value of an indexed state variable, or `None` after raising the error.
    fn indexed_value(&mut self, target: GLenum, index: GLuint) -> Option<Value> {
        let sh = self.group.lock();
        let st = &self.local.st;
        let i = index as usize;
        let result = match target {
            UNIFORM_BUFFER_BINDING | UNIFORM_BUFFER_START | UNIFORM_BUFFER_SIZE => st
                .uniform_buffers
                .get(i)
                .map(|b| match target {
                    UNIFORM_BUFFER_BINDING => Value::int(name_of(&sh, b.buffer)),
                    UNIFORM_BUFFER_START => Value::int(b.offset),
                    _ => Value::int(b.size),
                })
                .ok_or(INVALID_VALUE),
            ATOMIC_COUNTER_BUFFER_BINDING
            | ATOMIC_COUNTER_BUFFER_START
            | ATOMIC_COUNTER_BUFFER_SIZE => st
                .atomic_counter_buffers
                .get(i)
                .map(|b| match target {
                    ATOMIC_COUNTER_BUFFER_BINDING => Value::int(name_of(&sh, b.buffer)),
                    ATOMIC_COUNTER_BUFFER_START => Value::int(b.offset),
                    _ => Value::int(b.size),
                })
                .ok_or(INVALID_VALUE),
            SHADER_STORAGE_BUFFER_BINDING
            | SHADER_STORAGE_BUFFER_START
            | SHADER_STORAGE_BUFFER_SIZE => st
                .storage_buffers
                .get(i)
                .map(|b| match target {
                    SHADER_STORAGE_BUFFER_BINDING => Value::int(name_of(&sh, b.buffer)),
                    SHADER_STORAGE_BUFFER_START => Value::int(b.offset),
                    _ => Value::int(b.size),
                })
                .ok_or(INVALID_VALUE),
            IMAGE_BINDING_NAME
            | IMAGE_BINDING_LEVEL
            | IMAGE_BINDING_LAYERED
            | IMAGE_BINDING_LAYER
            | IMAGE_BINDING_ACCESS
            | IMAGE_BINDING_FORMAT => self.image_binding_value(target, index).map(|v| {
                if target == IMAGE_BINDING_LAYERED {
                    Value::boolean(v != 0)
                } else {
                    Value::int(v)
                }
            }),
            MAX_COMPUTE_WORK_GROUP_COUNT => self
                .local
                .limits
                .max_compute_work_group_count
                .get(i)
                .map(|&n| Value::int(i64::from(n)))
                .ok_or(INVALID_VALUE),
            MAX_COMPUTE_WORK_GROUP_SIZE => self
                .local
                .limits
                .max_compute_work_group_size
                .get(i)
                .map(|&n| Value::int(i64::from(n)))
                .ok_or(INVALID_VALUE),
            TRANSFORM_FEEDBACK_BUFFER_BINDING
            | TRANSFORM_FEEDBACK_BUFFER_START
            | TRANSFORM_FEEDBACK_BUFFER_SIZE => st
                .transform_feedback_buffers
                .get(i)
                .map(|b| match target {
                    TRANSFORM_FEEDBACK_BUFFER_BINDING => Value::int(name_of(&sh, b.buffer)),
                    TRANSFORM_FEEDBACK_BUFFER_START => Value::int(b.offset),
                    _ => Value::int(b.size),
                })
                .ok_or(INVALID_VALUE),
            COLOR_WRITEMASK => st
                .color_mask
                .get(i)
                .map(|m| Value::bools(&[m & 1 != 0, m & 2 != 0, m & 4 != 0, m & 8 != 0]))
                .ok_or(INVALID_VALUE),
            BLEND_SRC | BLEND_SRC_RGB | BLEND_SRC_ALPHA | BLEND_DST | BLEND_DST_RGB
            | BLEND_DST_ALPHA | BLEND_EQUATION_RGB | BLEND_EQUATION_ALPHA => {
                // `ARB_draw_buffers_blend`: one draw buffer's factor or equation (Mesa takes
                // BLEND_SRC and BLEND_DST here as the RGB factors).
                let per_buffer = match target {
                    BLEND_SRC | BLEND_SRC_RGB => &st.blend_src_rgb,
                    BLEND_SRC_ALPHA => &st.blend_src_alpha,
                    BLEND_DST | BLEND_DST_RGB => &st.blend_dst_rgb,
                    BLEND_DST_ALPHA => &st.blend_dst_alpha,
                    BLEND_EQUATION_RGB => &st.blend_equation_rgb,
                    _ => &st.blend_equation_alpha,
                };
                per_buffer
                    .get(i)
                    .map(|&v| Value::int(i64::from(v)))
                    .ok_or(INVALID_VALUE)
            }
            BLEND => {
                if i < DRAW_BUFFER_COUNT {
                    Ok(Value::boolean(st.blend_enable >> i & 1 != 0))
                } else {
                    Err(INVALID_VALUE)
                }
            }
            VERTEX_BINDING_BUFFER
            | VERTEX_BINDING_OFFSET
            | VERTEX_BINDING_STRIDE
            | VERTEX_BINDING_DIVISOR => self
                .vertex_binding_value(&sh, target, index)
                .map(Value::int),
            // ARB_viewport_array (GL 4.1): one viewport's rectangle, scissor box or depth
            // range (integer queries round the floats, as Mesa does).
            VIEWPORT => st
                .viewports
                .get(i)
                .map(|r| Value::floats(&r.map(f64::from)))
                .ok_or(INVALID_VALUE),
            SCISSOR_BOX => st
                .scissors
                .get(i)
                .map(|r| Value::ints(&r.map(i64::from)))
                .ok_or(INVALID_VALUE),
            DEPTH_RANGE => st
                .depth_ranges
                .get(i)
                .map(|r| Value::floats(r))
                .ok_or(INVALID_VALUE),
            SAMPLE_MASK_VALUE => {
                if i == 0 {
                    // By bit pattern, like PRIMITIVE_RESTART_INDEX.
                    Ok(Value::int(i64::from(st.sample_mask_value as i32)))
                } else {
                    Err(INVALID_VALUE)
                }
            }
            _ => Err(INVALID_ENUM),
        };
        drop(sh);
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                self.error(e);
                None
            }
        }
    }

    /// `glGetIntegeri_v`.
    pub fn get_integeri_v(&mut self, target: GLenum, index: GLuint, data: &mut [GLint]) {
        if let Some(v) = self.indexed_value(target, index) {
            for (i, o) in data.iter_mut().enumerate().take(v.len) {
                *o = v.as_i64(i).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            }
        }
    }

    /// `glGetInteger64i_v`.
    pub fn get_integer64i_v(&mut self, target: GLenum, index: GLuint, data: &mut [GLint64]) {
        if let Some(v) = self.indexed_value(target, index) {
            for (i, o) in data.iter_mut().enumerate().take(v.len) {
                *o = v.as_i64(i);
            }
        }
    }

    /// `glGetFloati_v` (GL 4.1): any indexed state, as floats.
    pub fn get_floati_v(&mut self, target: GLenum, index: GLuint, data: &mut [GLfloat]) {
        if let Some(v) = self.indexed_value(target, index) {
            for (i, o) in data.iter_mut().enumerate().take(v.len) {
                *o = v.as_f64(i) as f32;
            }
        }
    }

    /// `glGetDoublei_v` (GL 4.1): any indexed state, as doubles.
    pub fn get_doublei_v(&mut self, target: GLenum, index: GLuint, data: &mut [GLdouble]) {
        if let Some(v) = self.indexed_value(target, index) {
            for (i, o) in data.iter_mut().enumerate().take(v.len) {
                *o = v.as_f64(i);
            }
        }
    }

    /// `glGetBooleani_v`.
    pub fn get_booleani_v(&mut self, target: GLenum, index: GLuint, data: &mut [GLboolean]) {
        if let Some(v) = self.indexed_value(target, index) {
            for (i, o) in data.iter_mut().enumerate().take(v.len) {
                *o = v.as_bool(i) as GLboolean;
            }
        }
    }

    /// `glGetPointerv`: the debug callback's pointers (`DEBUG_CALLBACK_FUNCTION`,
    /// `DEBUG_CALLBACK_USER_PARAM`, `KHR_debug`); every other `pname` is `INVALID_ENUM` (the
    /// client array pointers it once returned are compatibility state).
    pub fn get_pointerv(&mut self, pname: GLenum) -> usize {
        match self.debug_pointer(pname) {
            Some(p) => p,
            None => {
                self.error(INVALID_ENUM);
                0
            }
        }
    }

    /// `glGetString`.
    pub fn get_string(&mut self, name: GLenum) -> Option<String> {
        match name {
            VENDOR => Some(VENDOR_STRING.to_owned()),
            RENDERER => {
                let sh = self.group.lock();
                Some(format!(
                    "Tessera ({} backend on {})",
                    sh.caps.backend, sh.caps.device
                ))
            }
            // A context whose doubles are floats says so (`GlVersion::string_narrowed`).
            VERSION if self.local.limits.fp64_narrowed => Some(self.gl_version().string_narrowed()),
            VERSION => Some(self.gl_version().string()),
            SHADING_LANGUAGE_VERSION => Some(self.gl_version().glsl()),
            _ => {
                self.error(INVALID_ENUM);
                None
            }
        }
    }

    /// `glGetStringi`.
    pub fn get_stringi(&mut self, name: GLenum, index: GLuint) -> Option<String> {
        match name {
            EXTENSIONS => {
                let extension = self.extension_names().nth(index as usize);
                if extension.is_none() {
                    self.error(INVALID_VALUE);
                }
                extension.map(str::to_owned)
            }
            SPIR_V_EXTENSIONS => {
                let extension = self.spirv_extension_names().nth(index as usize);
                if extension.is_none() {
                    self.error(INVALID_VALUE);
                }
                extension.map(str::to_owned)
            }
            SHADING_LANGUAGE_VERSION => {
                let version = self.glsl_versions().nth(index as usize);
                if version.is_none() {
                    self.error(INVALID_VALUE);
                }
                version
            }
            _ => {
                self.error(INVALID_ENUM);
                None
            }
        }
    }
}

//! Implementation limits reported by `glGet*`: GL 3.3's minimums, raised where the backend
//! reports more.

use tessera_components::state::STORAGE_BUFFER_BINDINGS;
use tessera_wire::Caps;
use tessera_wire::state::{
    MAX_DRAW_BUFFERS, MAX_STORAGE_BUFFER_BINDINGS, MAX_TEXTURE_UNITS, MAX_UNIFORM_BUFFER_BINDINGS,
    MAX_VERTEX_ATTRIBS,
};

/// Limits of a context.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// `MAX_TEXTURE_SIZE`.
    pub max_texture_size: i32,
    /// `MAX_3D_TEXTURE_SIZE`.
    pub max_3d_texture_size: i32,
    /// `MAX_ARRAY_TEXTURE_LAYERS`.
    pub max_array_layers: i32,
    /// `MAX_CUBE_MAP_TEXTURE_SIZE`.
    pub max_cube_size: i32,
    /// `MAX_RECTANGLE_TEXTURE_SIZE`.
    pub max_rectangle_size: i32,
    /// `MAX_RENDERBUFFER_SIZE`.
    pub max_renderbuffer_size: i32,
    /// `MAX_SAMPLES` (and colour/depth/integer sample limits).
    pub max_samples: i32,
    /// The sample counts the backend gives multisampled images ([`Caps::sample_counts`]:
    /// bit `k` for `2^k` samples): see [`Limits::allocated_samples`].
    pub sample_counts: u32,
    /// `MAX_VIEWPORT_DIMS`.
    pub max_viewport: i32,
    /// `MAX_TEXTURE_BUFFER_SIZE` in texels.
    pub max_texture_buffer_size: i32,
    /// `TEXTURE_BUFFER_OFFSET_ALIGNMENT`: the backend's ([`Caps::texture_buffer_offset_alignment`]),
    /// a power of two from 1 to GL 4.3's largest, 256.
    pub texture_buffer_offset_alignment: i32,
    /// `MAX_ELEMENT_INDEX` (GL 4.3, answered as Mesa does in 3.3 contexts): the backend's
    /// ([`Caps::max_element_index`]), at least OpenGL ES 3.0's and Vulkan's 2^24 - 1.
    pub max_element_index: i64,
    /// `MAX_UNIFORM_BLOCK_SIZE`.
    pub max_uniform_block_size: i32,
    /// `MAX_VERTEX_OUTPUT_COMPONENTS`: see [`STAGE_IO_COMPONENTS`].
    pub max_vertex_output_components: i32,
    /// `MAX_GEOMETRY_INPUT_COMPONENTS`: see [`STAGE_IO_COMPONENTS`].
    pub max_geometry_input_components: i32,
    /// `MAX_TEXTURE_LOD_BIAS`.
    pub max_lod_bias: f32,
    /// `MAX_TEXTURE_MAX_ANISOTROPY`.
    pub max_anisotropy: f32,
    /// `MAX_COMPUTE_WORK_GROUP_COUNT` (x, y, z).
    pub max_compute_work_group_count: [i32; 3],
    /// `MAX_COMPUTE_WORK_GROUP_SIZE` (x, y, z).
    pub max_compute_work_group_size: [i32; 3],
    /// `MAX_COMPUTE_WORK_GROUP_INVOCATIONS`.
    pub max_compute_work_group_invocations: i32,
    /// `MAX_COMPUTE_SHARED_MEMORY_SIZE`.
    pub max_compute_shared_memory_size: i32,
    /// `MAX_{VERTEX,GEOMETRY,FRAGMENT,COMPUTE}_SHADER_STORAGE_BLOCKS` and
    /// `MAX_COMBINED_SHADER_STORAGE_BLOCKS`: see [`STORAGE_BLOCK_SLOTS`].
    pub max_storage_blocks: i32,
    /// `MAX_SHADER_STORAGE_BLOCK_SIZE`.
    pub max_storage_block_size: i64,
    /// `SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT`.
    pub storage_offset_alignment: u32,
    /// `MAX_PATCH_VERTICES` (0: the backend has no tessellation stages).
    pub max_patch_vertices: i32,
    /// `MAX_TESS_GEN_LEVEL`.
    pub max_tess_gen_level: i32,
    /// The tessellation stages' interface limits, as [`tessera_wire::TessellationCaps`]
    /// names them.
    pub tess: tessera_wire::TessellationCaps,
    /// Whether the backend carries out texture views: `GL_ARB_texture_view` is advertised
    /// only then.
    pub texture_views: bool,
    /// Whether the backend samples BPTC blocks: `GL_ARB_texture_compression_bptc` is
    /// advertised only then.
    pub bptc: bool,
    /// Whether the backend blends each draw buffer its own way: `GL_ARB_draw_buffers_blend`
    /// is advertised only then.
    pub indexed_blend: bool,
    /// Whether the backend has cube map arrays: `GL_ARB_texture_cube_map_array` is
    /// advertised, and `TEXTURE_CUBE_MAP_ARRAY` a target, only then.
    pub cube_map_arrays: bool,
    /// Whether the backend shades per sample: `GL_ARB_sample_shading` is advertised only
    /// then.
    pub sample_shading: bool,
    /// Whether shaders may use doubles: `GL_ARB_gpu_shader_fp64` is advertised only then,
    /// and without it a program with doubles fails to link.
    pub fp64: bool,
    /// Whether the backend has GL's 16 viewports chosen per primitive:
    /// `GL_ARB_viewport_array` is advertised only then (the engine keeps all 16 anyway).
    pub viewport_arrays: bool,
    /// Whether the backend computes doubles as floats: doubles in buffer-backed blocks and
    /// transform feedback fail the link.
    pub fp64_narrowed: bool,
    /// Whether double vertex arrays reach double inputs: `GL_ARB_vertex_attrib_64bit` is
    /// advertised only then (and with [`Limits::fp64`]).
    pub vertex_attrib_64bit: bool,
    /// Whether buffer textures take `RGB32F`, `RGB32I` and `RGB32UI`:
    /// `GL_ARB_texture_buffer_object_rgb32` is advertised, and `glTexBuffer*` accepts the
    /// three, only then.
    pub texture_buffer_rgb32: bool,
    /// Whether depth-stencil textures can be sampled for their stencil:
    /// `GL_ARB_stencil_texturing` is advertised, and `DEPTH_STENCIL_TEXTURE_MODE` a texture
    /// parameter, only then.
    pub stencil_texturing: bool,
    /// Whether textures take `STENCIL_INDEX8` (and the other stencil-only internal formats):
    /// `GL_ARB_texture_stencil8` is advertised, and `glTexImage*`/`glTexStorage*` accept
    /// them, only then.
    pub texture_stencil8: bool,
    /// Whether samplers take `MIRROR_CLAMP_TO_EDGE`: `GL_ARB_texture_mirror_clamp_to_edge`
    /// is advertised, and the wrap mode accepted, only then.
    pub mirror_clamp_to_edge: bool,
    /// Whether the backend clamps the depth bias: `GL_ARB_polygon_offset_clamp` is
    /// advertised only then.
    pub polygon_offset_clamp: bool,
    /// Whether samplers filter anisotropically: `GL_ARB_texture_filter_anisotropic` and
    /// `GL_EXT_texture_filter_anisotropic` are advertised, and `TEXTURE_MAX_ANISOTROPY` a
    /// sampling parameter, only then.
    pub anisotropic: bool,
    /// Whether vertex arrays take `UNSIGNED_INT_10F_11F_11F_REV`:
    /// `GL_ARB_vertex_type_10f_11f_11f_rev` is advertised, and the type accepted, only then.
    pub vertex_10f_11f_11f: bool,
    /// Whether queries count the pipeline's work: `GL_ARB_pipeline_statistics_query` is
    /// advertised, and its eleven targets accepted, only then.
    pub pipeline_statistics: bool,
    /// Whether queries tell a captured stream's overflow:
    /// `GL_ARB_transform_feedback_overflow_query` is advertised, and its two targets
    /// accepted, only then.
    pub transform_feedback_overflow: bool,
    /// Whether the backend keeps buffer reads inside their buffers: robust-access contexts
    /// are granted, and `GL_ARB_robust_buffer_access_behavior` advertised, only then.
    pub robust_buffer_access: bool,
    /// Whether the backend carries out enhanced layouts' components, offsets and declared
    /// transform feedback: `GL_ARB_enhanced_layouts` is advertised only then (the front end
    /// compiles them everywhere).
    pub enhanced_layouts: bool,
    /// Whether the session makes and takes `EGLImage`s of textures (the GLES backend in
    /// process, not captured): `GL_OES_EGL_image` is advertised only then (`egl::image`).
    pub egl_images: bool,
    /// The backend's texture gathers: `GL_ARB_texture_gather` is advertised, and its limits
    /// answered, only where it has them.
    pub gather: Option<tessera_wire::GatherCaps>,
    /// The backend's `GL_ARB_gpu_shader5` beyond gathers: the extension is advertised, and
    /// its limits answered, only where it has all of it, four vertex streams included (the
    /// extension's minimum `MAX_VERTEX_STREAMS`; a GLES driver has one, so a GLES backend
    /// never advertises it, though its shaders compile GLSL 4.00's functions anyway).
    pub gpu_shader5: Option<tessera_wire::Shader5Caps>,
    /// Whether shaders have GLSL 4.20's packing functions: `GL_ARB_shading_language_packing`
    /// is advertised only then.
    pub packing: bool,
    /// Whether the backend carries out image load and store in full:
    /// `GL_ARB_shader_image_load_store` and `GL_ARB_shader_image_size` are advertised only
    /// then (image units work on every backend anyway).
    pub image_load_store: bool,
    /// Whether shaders may query textures' levels of detail and level counts:
    /// `GL_ARB_texture_query_lod` and `GL_ARB_texture_query_levels` are advertised only then.
    pub texture_level_queries: bool,
    /// Whether fragment shaders read `gl_Layer`: `GL_ARB_fragment_layer_viewport` is
    /// advertised only then (and with [`Limits::viewport_arrays`]).
    pub fragment_layer: bool,
    /// Whether the backend carries out `glClipControl`'s origins and depth modes:
    /// `GL_ARB_clip_control` is advertised, and the call and its two queries accepted, only
    /// then.
    pub clip_control: bool,
    /// Whether `GL_ARB_shader_draw_parameters` is advertised.
    pub draw_parameters: bool,
    /// `MAX_CULL_DISTANCES` and `MAX_COMBINED_CLIP_AND_CULL_DISTANCES`:
    /// `GL_ARB_cull_distance` is advertised, and the two answered, only where the first is
    /// not 0.
    pub cull_distances: [u32; 2],
    /// Whether `GL_ARB_texture_barrier` is advertised (`glTextureBarrier` is accepted
    /// everywhere, as GL 4.5 core).
    pub texture_barrier: bool,
    /// `MAX_VERTEX_STREAMS`: the streams transform feedback captures, draws from
    /// (`glDrawTransformFeedbackStream`) and counts per stream (`glBeginQueryIndexed`).
    pub max_vertex_streams: u32,
    /// Whether `GL_EXT_memory_object` and `GL_EXT_memory_object_fd` are advertised and their
    /// calls accepted: a backend that imports Vulkan memory (`Caps::memory_export`), in
    /// process (`memory_object`).
    pub memory_objects: bool,
    /// Whether `GL_EXT_semaphore` and `GL_EXT_semaphore_fd` are advertised and their calls
    /// accepted: a backend that imports Vulkan semaphores (`Caps::semaphore_fd`), in
    /// process (`semaphore`).
    pub semaphores: bool,
}

/// Colour attachments and draw buffers.
pub const COLOR_ATTACHMENTS: i32 = MAX_DRAW_BUFFERS as i32;
/// Generic vertex attributes.
pub const VERTEX_ATTRIBS: i32 = MAX_VERTEX_ATTRIBS as i32;
/// Texture units of all stages together.
pub const COMBINED_UNITS: i32 = MAX_TEXTURE_UNITS as i32;
/// Texture units one stage can use.
pub const STAGE_UNITS: i32 = 16;
/// Indexed uniform buffer binding points.
pub const UBO_BINDINGS: i32 = MAX_UNIFORM_BUFFER_BINDINGS as i32;
/// Uniform blocks one stage can use.
pub const STAGE_UNIFORM_BLOCKS: i32 = 12;
/// `MAX_VERTEX_UNIFORM_COMPONENTS` (and the fragment and geometry stages'): GL 3.3's
/// minimum for the default uniform block of one stage.
pub const STAGE_UNIFORM_COMPONENTS: i32 = 1024;
/// `MAX_VARYING_COMPONENTS`: GL 3.1's minimum (3.2 lowered it to 60), which piglit expects of
/// every context that can stand in for a 3.1 one; the GLSL front end enforces the same.
pub const VARYING_COMPONENTS: i32 = 64;
/// The range of `MAX_VERTEX_OUTPUT_COMPONENTS` and `MAX_GEOMETRY_INPUT_COMPONENTS`: GL 3.3's
/// minimum, 64, up to 128, the `MAX_GEOMETRY_OUTPUT_COMPONENTS` and
/// `MAX_FRAGMENT_INPUT_COMPONENTS` every context reports (what a vertex stage writes is read
/// by the next stage, which takes at most that). Within it, the backend's own limit
/// (Vulkan's `maxVertexOutputComponents`/`maxGeometryInputComponents`, the GLES driver's
/// queries of the same names).
pub const STAGE_IO_COMPONENTS: std::ops::RangeInclusive<i32> = 64..=128;
/// `MAX_SHADER_STORAGE_BUFFER_BINDINGS`: the context's binding points, client state only
/// (`tessera_components::state::STORAGE_BUFFER_BINDINGS`, native Mesa's 80); a block whose
/// `layout(binding)` is past them fails the link.
pub const SSBO_BINDINGS: i32 = STORAGE_BUFFER_BINDINGS as i32;

/// `MAX_ATOMIC_COUNTER_BUFFER_BINDINGS`: the context's `ATOMIC_COUNTER_BUFFER` binding
/// points.
pub const ACB_BINDINGS: i32 = tessera_components::state::ATOMIC_COUNTER_BUFFER_BINDINGS as i32;
/// `MAX_*_ATOMIC_COUNTERS`: native llvmpipe's 4,096 (a counter is 4 bytes of a storage
/// buffer, so no backend limits them further).
pub const ATOMIC_COUNTERS: i32 = 4096;
/// `MAX_ATOMIC_COUNTER_BUFFER_SIZE`: native llvmpipe's 16,384 bytes.
pub const ATOMIC_COUNTER_BUFFER_SIZE: i32 = 16384;
/// The storage blocks a program may use at most: the wire's slots (each block of the
/// program binds its binding point's range to its own slot). The blocks a stage (and the
/// whole program) may use are as many, or fewer where the backend binds fewer to one stage;
/// a program's blocks all bind at once, so the combined limit is the same.
pub const STORAGE_BLOCK_SLOTS: i32 = MAX_STORAGE_BUFFER_BINDINGS as i32;
/// `UNIFORM_BUFFER_OFFSET_ALIGNMENT`: 256 covers every Vulkan and GLES driver of interest.
pub const UBO_OFFSET_ALIGNMENT: i32 = 256;
/// `MAX_VERTEX_ATTRIB_STRIDE` (GL 4.4, answered as Mesa does in 3.3 contexts): the largest
/// stride every backend honours, OpenGL ES 3.1's and Vulkan's `maxVertexInputBindingStride`
/// minimum (GL 4.4's minimum too).
pub const MAX_VERTEX_ATTRIB_STRIDE: i32 = 2048;
/// `MAX_VERTEX_ATTRIB_RELATIVE_OFFSET` (GL 4.3): Mesa's 2047 (GL's minimum). The wire
/// carries an attribute's relative offset inside its buffer offset, so no backend limit
/// applies.
pub const MAX_VERTEX_ATTRIB_RELATIVE_OFFSET: u32 = 2047;
/// `MAX_VERTEX_ATTRIB_BINDINGS` (GL 4.3): one binding point per attribute, as in Mesa.
pub const VERTEX_ATTRIB_BINDINGS: i32 =
    tessera_components::object::MAX_VERTEX_ATTRIB_BINDINGS as i32;

impl Limits {
    /// The samples an image asked for with `samples` (at most `max_samples`) gets, which
    /// `TEXTURE_SAMPLES`, `RENDERBUFFER_SAMPLES` and a framebuffer's `SAMPLES` report: the
    /// fewest the backend supports that are at least as many, as GL lets an implementation
    /// give more than asked (and as the backends allocate). Like Mesa, a request for one
    /// sample gets real multisampling (two or more) where the backend has it; 0 stays 0.
    pub fn allocated_samples(&self, samples: i32) -> i32 {
        if samples <= 0 {
            return 0;
        }
        let least = if self.max_samples > 1 {
            samples.max(2)
        } else {
            samples
        };
        (0..31)
            .map(|k| 1i32 << k)
            .find(|&n| n >= least && self.sample_counts & n as u32 != 0)
            .unwrap_or((least as u32).next_power_of_two() as i32)
            .min(self.max_samples.max(1))
    }

    /// Whether the backend has a compute stage ([`ComputeCaps::none`] says it has not).
    ///
    /// [`ComputeCaps::none`]: tessera_wire::ComputeCaps::none
    pub fn has_compute(&self) -> bool {
        self.max_compute_work_group_invocations > 0
    }

    /// Whether the backend has tessellation stages ([`TessellationCaps::none`] says it has
    /// not).
    ///
    /// [`TessellationCaps::none`]: tessera_wire::TessellationCaps::none
    pub fn has_tessellation(&self) -> bool {
        self.max_patch_vertices > 0
    }

    /// The limits of a backend.
    pub fn from_caps(caps: &Caps) -> Self {
        let clamp = |v: u32| v.min(i32::MAX as u32) as i32;
        let stage_io =
            |v: u32| clamp(v).clamp(*STAGE_IO_COMPONENTS.start(), *STAGE_IO_COMPONENTS.end());
        Self {
            max_texture_size: clamp(caps.max_texture_size),
            max_3d_texture_size: clamp(caps.max_3d_texture_size),
            max_array_layers: clamp(caps.max_array_layers),
            max_cube_size: clamp(caps.max_cube_size),
            max_rectangle_size: clamp(caps.max_texture_size),
            max_renderbuffer_size: clamp(caps.max_renderbuffer_size),
            max_samples: clamp(caps.max_samples),
            sample_counts: caps.sample_counts | 1,
            max_viewport: clamp(caps.max_viewport_size),
            max_texture_buffer_size: 65536,
            texture_buffer_offset_alignment: caps
                .texture_buffer_offset_alignment
                .clamp(1, 256)
                .next_power_of_two() as i32,
            max_element_index: i64::from(caps.max_element_index.max((1 << 24) - 1)),
            max_uniform_block_size: 16384,
            max_vertex_output_components: stage_io(caps.max_vertex_output_components),
            max_geometry_input_components: stage_io(caps.max_geometry_input_components),
            max_lod_bias: 2.0,
            // Mesa's own limit is 16; a backend without anisotropic filtering has none
            // (`Limits::anisotropic`).
            max_anisotropy: caps.max_anisotropy.clamp(1, 16) as f32,
            max_compute_work_group_count: caps.compute.max_work_group_count.map(clamp),
            max_compute_work_group_size: caps.compute.max_work_group_size.map(clamp),
            max_compute_work_group_invocations: clamp(caps.compute.max_work_group_invocations),
            max_compute_shared_memory_size: clamp(caps.compute.max_shared_memory_size),
            max_storage_blocks: clamp(caps.compute.max_storage_blocks).min(STORAGE_BLOCK_SLOTS),
            max_storage_block_size: i64::from(caps.compute.max_storage_block_size),
            // A power of two, at least 4 (GL allows no less for std430 words).
            storage_offset_alignment: caps
                .compute
                .storage_offset_alignment
                .next_power_of_two()
                .max(4),
            texture_views: caps.texture_views,
            bptc: caps.bptc,
            indexed_blend: caps.indexed_blend,
            cube_map_arrays: caps.cube_map_arrays,
            sample_shading: caps.sample_shading,
            viewport_arrays: caps.viewport_arrays,
            fp64: caps.fp64,
            fp64_narrowed: caps.fp64 && caps.fp64_narrowed,
            vertex_attrib_64bit: caps.fp64 && caps.vertex_attrib_64bit,
            texture_buffer_rgb32: caps.texture_buffer_rgb32,
            stencil_texturing: caps.stencil_texturing,
            texture_stencil8: caps.texture_stencil8,
            mirror_clamp_to_edge: caps.mirror_clamp_to_edge,
            polygon_offset_clamp: caps.polygon_offset_clamp,
            anisotropic: caps.max_anisotropy >= 2,
            vertex_10f_11f_11f: caps.vertex_10f_11f_11f,
            pipeline_statistics: caps.pipeline_statistics,
            transform_feedback_overflow: caps.transform_feedback_overflow,
            robust_buffer_access: caps.robust_buffer_access,
            enhanced_layouts: caps.enhanced_layouts,
            egl_images: caps.egl_images,
            gather: caps.gather,
            gpu_shader5: caps.gpu_shader5.filter(|_| caps.max_vertex_streams >= 4),
            packing: caps.packing,
            image_load_store: caps.image_load_store,
            texture_level_queries: caps.texture_level_queries,
            fragment_layer: caps.fragment_layer,
            clip_control: caps.clip_control,
            draw_parameters: caps.draw_parameters,
            cull_distances: [
                caps.max_cull_distances.min(8),
                caps.max_combined_clip_and_cull_distances.min(8),
            ],
            texture_barrier: caps.texture_barrier,
            memory_objects: caps.memory_export,
            semaphores: caps.semaphore_fd,
            max_vertex_streams: caps.max_vertex_streams.clamp(1, 4),
            // GL's patches hold at most 32 vertices whatever the backend says (the wire's
            // SetPatchVertices carries no more).
            max_patch_vertices: clamp(caps.tessellation.max_patch_vertices).min(32),
            max_tess_gen_level: clamp(caps.tessellation.max_gen_level),
            tess: caps.tessellation,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backend_without_compute_has_no_compute_stage() {
        let mut caps = Caps::gl33_minimum("test");
        assert!(Limits::from_caps(&caps).has_compute());
        caps.compute = tessera_wire::ComputeCaps::none();
        let l = Limits::from_caps(&caps);
        assert!(!l.has_compute());
        assert_eq!(l.max_storage_blocks, 0);
        assert_eq!(l.storage_offset_alignment, 4);
    }
}

//! The device: limits, the format table, the per-kind object tables, the interned CSOs, the
//! counters, and the records that create, fill and destroy buffers and samplers (textures
//! are in `texture.rs`, framebuffers in `framebuffer.rs`, programs in `program.rs`).
//!
//! ## Tables
//! Every kind has a dense table indexed by handle slot ([`SlotTable`]), with the handle
//! rules of `tessera_wire::table` that the null backend checks too: a stale handle or a bad
//! create is a [`SessionError`] (the session ends, nothing panics).
//!
//! ## Interned CSOs
//! Blend, depth-stencil, raster and vertex-layout CSOs are interned by content into small
//! ids that are never reused. Pipelines are keyed by those ids, so a CSO the client destroys
//! and recreates (its LRU) finds its pipelines again, and a pipeline key is a few words.
//!
//! ## Destruction
//! Vulkan objects a destroyed GL object owned may still be read by submitted work: they go
//! to the current submission's garbage and die when it retires (`frame.rs`).

use std::collections::HashMap;
use std::hash::Hash;
use std::mem::ManuallyDrop;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

use ash::vk;
use tessera_wire::backend::bad_value;
use tessera_wire::dispatch::{BufferPipe, BufferWrite, Bytes, R};
use tessera_wire::format::Format;
use tessera_wire::handle::{
    BlendHandle, BufferHandle, DepthStencilHandle, FenceHandle, FramebufferHandle, ProgramHandle,
    QueryHandle, RasterHandle, RenderbufferHandle, SamplerHandle, SurfaceHandle, TextureHandle,
    VertexLayoutHandle,
};
use tessera_wire::record::{BufferCopy, BufferRange};
use tessera_wire::state::{
    BlendState, DepthStencilState, MAX_VIEWPORTS, RasterState, SamplerState, VertexLayout,
};
use tessera_wire::table::{ByteSized, Keyed, SlotTable};
use tessera_wire::{Caps, Event, SessionError};

use crate::command::VertexFetch;
use crate::conv::{self, NativeFormat};
use crate::frame::Garbage;
use crate::framebuffer::{Framebuffer, Renderbuffer, Surface};
use crate::instance::{CoreFeatures, Gpu, Tiers};
use crate::memory::{self, Owned};
use crate::program::Program;
use crate::query::{Fence, Query};
use crate::texture::Texture;

/// The largest read-back the backend answers (a reply is one allocation on each side).
pub(crate) const MAX_READBACK: usize = 1 << 30;

/// A broken invariant of this backend (never a user or protocol error).
#[cold]
#[track_caller]
pub(crate) fn backend_bug(what: &str) -> ! {
    panic!("tessera-backend-vk bug: {what}")
}

/// A `SessionError` for a failed Vulkan call.
pub(crate) fn vk_error(call: &str, r: vk::Result) -> SessionError {
    SessionError::Backend(format!("{call}: {r}"))
}

/// Counters of what the backend created and did, readable from any thread.
///
/// Each field has one writer (the thread applying batches) and is read by the probe's owner;
/// `Relaxed` is enough: a reader only needs some recent value, and a test reads after a reply
/// that orders it after the writes anyway.
#[derive(Debug)]
pub(crate) struct StatCells {
    pub pipelines: AtomicU64,
    pub descriptor_set_layouts: AtomicU64,
    pub pipeline_layouts: AtomicU64,
    pub shader_modules: AtomicU64,
    pub render_passes: AtomicU64,
    pub pass_instances: AtomicU64,
    pub framebuffers: AtomicU64,
    pub descriptor_sets: AtomicU64,
    pub submits: AtomicU64,
    pub draws: AtomicU64,
    pub dispatches: AtomicU64,
    pub validation_messages: AtomicU64,
    pub swapchains: AtomicU64,
    pub window_presents: AtomicU64,
    /// The present mode of the last swapchain made (`NO_PRESENT_MODE`: none yet).
    pub present_mode: AtomicI32,
}

/// `StatCells::present_mode` before any swapchain.
const NO_PRESENT_MODE: i32 = -1;

impl Default for StatCells {
    fn default() -> Self {
        Self {
            pipelines: AtomicU64::new(0),
            descriptor_set_layouts: AtomicU64::new(0),
            pipeline_layouts: AtomicU64::new(0),
            shader_modules: AtomicU64::new(0),
            render_passes: AtomicU64::new(0),
            pass_instances: AtomicU64::new(0),
            framebuffers: AtomicU64::new(0),
            descriptor_sets: AtomicU64::new(0),
            submits: AtomicU64::new(0),
            draws: AtomicU64::new(0),
            dispatches: AtomicU64::new(0),
            validation_messages: AtomicU64::new(0),
            swapchains: AtomicU64::new(0),
            window_presents: AtomicU64::new(0),
            present_mode: AtomicI32::new(NO_PRESENT_MODE),
        }
    }
}

impl StatCells {
    /// Keeps the present mode of the swapchain just made.
    pub fn set_present_mode(&self, mode: vk::PresentModeKHR) {
        self.present_mode.store(mode.as_raw(), Ordering::Relaxed);
    }
}

/// A snapshot of the backend's counters (totals since creation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VkStats {
    /// `vkCreateGraphicsPipelines` and `vkCreateComputePipelines` calls that made a
    /// pipeline.
    pub pipelines: u64,
    /// Descriptor set layouts created.
    pub descriptor_set_layouts: u64,
    /// Pipeline layouts created.
    pub pipeline_layouts: u64,
    /// Shader modules created.
    pub shader_modules: u64,
    /// Render passes created.
    pub render_passes: u64,
    /// Render pass instances begun for draws (`vkCmdBeginRenderPass`): each one ended early,
    /// by a transfer or a barrier the draws between needed, costs a driver a flush.
    pub pass_instances: u64,
    /// Framebuffers created.
    pub framebuffers: u64,
    /// Descriptor sets allocated or pushed.
    pub descriptor_sets: u64,
    /// Queue submissions.
    pub submits: u64,
    /// Draw calls recorded.
    pub draws: u64,
    /// Compute dispatches recorded.
    pub dispatches: u64,
    /// Messages the validation layer (debug-utils messenger) reported.
    pub validation_messages: u64,
    /// Swapchains made for surfaces presented into windows (`present.rs`).
    pub swapchains: u64,
    /// Frames presented into windows through a swapchain.
    pub window_presents: u64,
}

/// A shared view of a Vulkan backend's counters.
#[derive(Clone, Debug, Default)]
pub struct VkProbe(pub(crate) Arc<StatCells>);

impl VkProbe {
    /// The counters now.
    pub fn stats(&self) -> VkStats {
        let c = &self.0;
        let r = |a: &AtomicU64| a.load(Ordering::Relaxed);
        VkStats {
            pipelines: r(&c.pipelines),
            descriptor_set_layouts: r(&c.descriptor_set_layouts),
            pipeline_layouts: r(&c.pipeline_layouts),
            shader_modules: r(&c.shader_modules),
            render_passes: r(&c.render_passes),
            pass_instances: r(&c.pass_instances),
            framebuffers: r(&c.framebuffers),
            descriptor_sets: r(&c.descriptor_sets),
            submits: r(&c.submits),
            draws: r(&c.draws),
            dispatches: r(&c.dispatches),
            validation_messages: r(&c.validation_messages),
            swapchains: r(&c.swapchains),
            window_presents: r(&c.window_presents),
        }
    }

    /// The present mode of the swapchain made last for a surface presented into a window
    /// (`None`: none was made): `IMMEDIATE` or `MAILBOX` for swap interval 0 where the
    /// window offers them, `FIFO` otherwise.
    pub fn present_mode(&self) -> Option<vk::PresentModeKHR> {
        match self.0.present_mode.load(Ordering::Relaxed) {
            NO_PRESENT_MODE => None,
            mode => Some(vk::PresentModeKHR::from_raw(mode)),
        }
    }
}

/// Adds one to a counter (single writer: the applying thread).
pub(crate) fn count(cell: &AtomicU64) {
    cell.fetch_add(1, Ordering::Relaxed);
}

/// An object a `vkCreate*` call returned, counted in `cell`; the call's error otherwise.
pub(crate) fn created<T>(
    call: &str,
    cell: &AtomicU64,
    result: Result<T, vk::Result>,
) -> Result<T, SessionError> {
    let object = result.map_err(|e| vk_error(call, e))?;
    count(cell);
    Ok(object)
}

/// Content-addressed ids of CSO values; an id is never reused.
pub(crate) struct Interner<T> {
    ids: HashMap<T, u32>,
    values: Vec<T>,
}

impl<T> Default for Interner<T> {
    fn default() -> Self {
        Self {
            ids: HashMap::new(),
            values: Vec::new(),
        }
    }
}

impl<T: Hash + Eq + Clone> Interner<T> {
    /// The id of `value`, minted on first sight.
    pub fn intern(&mut self, value: &T) -> u32 {
        if let Some(&id) = self.ids.get(value) {
            return id;
        }
        let id = self.values.len() as u32;
        self.values.push(value.clone());
        self.ids.insert(value.clone(), id);
        id
    }

    /// The value of an id minted here.
    pub fn value(&self, id: u32) -> &T {
        match self.values.get(id as usize) {
            Some(v) => v,
            None => backend_bug("an interned id this interner never minted"),
        }
    }
}

/// The interned CSOs.
#[derive(Default)]
pub(crate) struct Interned {
    pub blend: Interner<BlendState>,
    pub depth_stencil: Interner<DepthStencilState>,
    pub raster: Interner<RasterState>,
    /// Vertex layouts: intern them with [`Interned::intern_layout`].
    pub layout: Interner<VertexLayout>,
    /// What each interned vertex layout means to vertex fetch, by id.
    fetch: Vec<VertexFetch>,
}

impl Interned {
    /// The id of a vertex layout, minted (with its [`VertexFetch`]) on first sight.
    pub fn intern_layout(&mut self, layout: &VertexLayout) -> u32 {
        let id = self.layout.intern(layout);
        if id as usize == self.fetch.len() {
            self.fetch.push(VertexFetch::of(layout));
        }
        id
    }

    /// What vertex layout `id` means to vertex fetch.
    #[inline]
    pub fn fetch(&self, id: u32) -> VertexFetch {
        match self.fetch.get(id as usize) {
            Some(f) => *f,
            None => backend_bug("a vertex layout id this interner never minted"),
        }
    }
}

/// Native limits the backend's own paths need.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub ubo_align: u64,
    pub max_ubo_range: u64,
    pub ssbo_align: u64,
    pub max_ssbo_range: u64,
    pub texel_buffer_align: u64,
    pub color_samples: vk::SampleCountFlags,
    /// `framebufferNoAttachmentsSampleCounts`: a pass without attachments rasterizes with one
    /// of these (GL's framebuffers without attachments).
    pub no_attachment_samples: vk::SampleCountFlags,
    pub max_lod_bias: f32,
    pub max_anisotropy: f32,
    pub timestamp_period: f32,
    pub timestamps: bool,
    pub line_width: [f32; 2],
    pub point_size: [f32; 2],
    pub max_color_attachments: usize,
    /// Descriptors one push may write (0 without push descriptors).
    pub max_push_descriptors: u32,
    /// Locations carried into a geometry stage, and into a fragment stage (the least of the
    /// limits of the stages that may feed it): `spirv/pack.rs`.
    pub geometry_input_locations: u32,
    pub fragment_input_locations: u32,
    /// Viewports and scissors every pipeline has: GL's 16 with `multiViewport` and
    /// `maxViewports` of at least 16, else 1.
    pub viewports: u32,
    /// `viewportBoundsRange`: where a viewport may lie.
    pub viewport_bounds: [f32; 2],
}

/// Something the device lacks, reported once per session (bits of `VkPipe::reported`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Missing {
    Format,
    PolygonMode,
    WideLines,
    LogicOp,
    DualSource,
    IndependentBlend,
    DepthClamp,
    AlphaToOne,
    ProvokingVertex,
    Divisor,
    AttribFormat,
    BorderColor,
    MirrorClamp,
    Query,
    Blit,
    Rectangle,
    Misaligned,
    Smooth,
    TransformFeedback,
    DrawParameters,
}

/// A buffer object.
pub(crate) struct Buffer {
    pub owned: Owned,
    /// Size the engine asked for (the Vulkan buffer is at least 4 bytes).
    pub size: u64,
    /// Serial of the last submission with a transfer into the buffer (0: none). Until it
    /// retires, unsynchronized writes too go through transfers, which keep command order.
    pub copied: u64,
}

impl ByteSized for Buffer {
    fn byte_size(&self) -> u64 {
        self.size
    }
}

/// A sampler CSO: its sampler, and a NEAREST variant for formats that cannot be filtered.
pub(crate) struct Sampler {
    pub state: SamplerState,
    pub raw: vk::Sampler,
    pub nearest: Option<vk::Sampler>,
}

/// The session's side of the Vulkan device: it carries out records (it is the backend's
/// [`Pipe`](tessera_wire::dispatch::Pipe)) by recording and submitting command buffers, and
/// owns every object of the session with its table, the caches (pipelines, descriptor sets,
/// interned CSOs) and the frames in flight. The device itself is [`Gpu`].
pub(crate) struct VkPipe {
    /// The device's functions (shared, so that a method can hold them while it borrows
    /// tables mutably).
    pub raw: Arc<ash::Device>,
    pub alloc: ManuallyDrop<vk_mem::Allocator>,
    pub tiers: Tiers,
    pub core: CoreFeatures,
    pub limits: Limits,
    pub caps: Caps,
    pub(crate) formats: Vec<Option<NativeFormat>>,
    pub buffers: SlotTable<BufferHandle, Buffer>,
    pub textures: SlotTable<TextureHandle, Texture>,
    pub renderbuffers: SlotTable<RenderbufferHandle, Renderbuffer>,
    pub framebuffers: SlotTable<FramebufferHandle, Framebuffer>,
    pub surfaces: SlotTable<SurfaceHandle, Surface>,
    pub blends: SlotTable<BlendHandle, u32>,
    pub depth_stencils: SlotTable<DepthStencilHandle, u32>,
    pub rasters: SlotTable<RasterHandle, u32>,
    pub layouts: SlotTable<VertexLayoutHandle, u32>,
    pub samplers: SlotTable<SamplerHandle, Sampler>,
    pub interned: Interned,
    pub programs: SlotTable<ProgramHandle, Program>,
    pub queries: SlotTable<QueryHandle, Query>,
    pub xfbs: SlotTable<tessera_wire::handle::TransformFeedbackHandle, crate::xfb::XfbObject>,
    pub fences: SlotTable<FenceHandle, Fence>,
    pub pipes: crate::pipeline::Caches,
    pub clears: crate::clear::ClearCache,
    pub frames: crate::frame::Frames,
    pub rec: crate::command::Recording,
    /// Conditional rendering's predicates (`condition.rs`).
    pub conditions: crate::condition::Predicates,
    pub placeholders: crate::image::Placeholders,
    /// The layout of an image a draw samples while it renders to it (`image.rs`).
    pub feedback_layout: vk::ImageLayout,
    /// 64 KiB of zeros: the uniform buffer of unbound block slots.
    pub zeros: Option<Owned>,
    /// 64 KiB the storage buffer of unbound storage block slots reads and writes (GL
    /// leaves what they read undefined; their writes must land somewhere harmless).
    pub sink: Option<Owned>,
    /// A scratch image (multisample resolves for reading).
    pub temp: Option<crate::image::Storage>,
    /// The draws of a multi-draw command, where the record's bytes cannot be passed as
    /// they lie (`multi_draw.rs`): kept between calls, so a steady frame allocates nothing.
    pub multi_draws: crate::multi_draw::Scratch,
    pub stats: Arc<StatCells>,
    /// Events produced while applying the current batch.
    pub events: Vec<Event>,
    /// Refusals to inject (`tessera_wire::fault`; tests only).
    pub faults: tessera_wire::fault::Faults,
    reported: u64,
    /// Moves whenever an image a framebuffer may hold changes (recreated storage, new
    /// attachments, a destroyed object): cached framebuffers and passes are re-checked.
    pub epoch: u64,
    /// Moves after every record but draws and state records (any of them may change an
    /// object): what draws cache from objects (a texture's sampled view) is derived again.
    pub changes: u64,
    /// The buffer the last `CreateBuffer` made, while only writes into buffers followed it:
    /// no recorded command can use it yet, so writes into it may land in its memory at once
    /// (`write_buffer`), as the writes of `glBufferData` with data do.
    pub fresh_buffer: Option<BufferHandle>,
    /// Contexts created so far (the next one's id).
    pub contexts: u64,
    /// Surfaces presented into windows, with their swapchains (`present.rs`).
    pub presenters: HashMap<SurfaceHandle, crate::present::Presenter>,
    /// Surfaces no longer presented into their window, for the batch's outbox.
    pub detached: Vec<SurfaceHandle>,
    // Declared last: dropped after everything above (VkPipe::drop frees the objects first).
    pub gpu: Gpu,
}

impl VkPipe {
    /// Sets up the allocator, limits, formats and the first submission.
    pub fn new(gpu: Gpu) -> Result<Self, crate::CreateBackendError> {
        let mut info = vk_mem::AllocatorCreateInfo::new(&gpu.instance, &gpu.device, gpu.phys);
        info.vulkan_api_version = gpu.tiers.api_version;
        // SAFETY: the instance, device and physical device are live and outlive the
        // allocator (it is dropped in VkPipe::drop, before `gpu`).
        let alloc = unsafe { vk_mem::Allocator::new(info) }.map_err(|e| {
            crate::CreateBackendError::Vulkan {
                call: "vmaCreateAllocator",
                result: e,
            }
        })?;
        let p = &gpu.props.limits;
        let limits = Limits {
            ubo_align: p.min_uniform_buffer_offset_alignment.max(1),
            max_ubo_range: u64::from(p.max_uniform_buffer_range),
            ssbo_align: p.min_storage_buffer_offset_alignment.max(1),
            max_ssbo_range: u64::from(p.max_storage_buffer_range),
            texel_buffer_align: p.min_texel_buffer_offset_alignment.max(1),
            color_samples: p.framebuffer_color_sample_counts & p.framebuffer_depth_sample_counts,
            no_attachment_samples: p.framebuffer_no_attachments_sample_counts,
            max_lod_bias: p.max_sampler_lod_bias,
            max_anisotropy: p.max_sampler_anisotropy,
            timestamp_period: p.timestamp_period,
            timestamps: p.timestamp_compute_and_graphics == vk::TRUE,
            line_width: p.line_width_range,
            point_size: p.point_size_range,
            geometry_input_locations: p
                .max_vertex_output_components
                .min(p.max_geometry_input_components)
                / 4,
            fragment_input_locations: p
                .max_vertex_output_components
                .min(p.max_geometry_output_components)
                .min(p.max_fragment_input_components)
                / 4,
            viewports: if gpu.core.multi_viewport && p.max_viewports >= MAX_VIEWPORTS as u32 {
                MAX_VIEWPORTS as u32
            } else {
                1
            },
            viewport_bounds: p.viewport_bounds_range,
            max_color_attachments: (p.max_color_attachments as usize)
                .min(tessera_wire::state::MAX_DRAW_BUFFERS),
            max_push_descriptors: if gpu.tiers.push_descriptors {
                let mut push = vk::PhysicalDevicePushDescriptorPropertiesKHR::default();
                let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut push);
                // SAFETY: a physical device of this instance; the chained struct belongs to
                // VK_KHR_push_descriptor, which the device has (the tier is on).
                unsafe {
                    gpu.instance
                        .get_physical_device_properties2(gpu.phys, &mut props)
                };
                push.max_push_descriptors
            } else {
                0
            },
        };
        let max_samples = (0..7)
            .rev()
            .map(|s| 1u32 << s)
            .find(|&n| {
                limits
                    .color_samples
                    .contains(vk::SampleCountFlags::from_raw(n))
            })
            .unwrap_or(1);
        let caps = Caps {
            backend: "vulkan".to_owned(),
            device: gpu.name.clone(),
            max_texture_size: p.max_image_dimension2_d.min(16384),
            max_3d_texture_size: p.max_image_dimension3_d.min(2048),
            max_array_layers: p.max_image_array_layers.min(2048),
            max_cube_size: p.max_image_dimension_cube.min(16384),
            max_renderbuffer_size: p
                .max_framebuffer_width
                .min(p.max_framebuffer_height)
                .min(16384),
            max_samples,
            sample_counts: limits.color_samples.as_raw() | 1,
            max_viewport_size: p.max_viewport_dimensions[0]
                .min(p.max_viewport_dimensions[1])
                .min(16384),
            texture_buffer_offset_alignment: p.min_texel_buffer_offset_alignment.max(1) as u32,
            max_element_index: p.max_draw_indexed_index_value,
            max_vertex_output_components: p.max_vertex_output_components,
            max_geometry_input_components: p.max_geometry_input_components,
            texture_views: true,
            bptc: false,
            indexed_blend: gpu.core.independent_blend,
            cube_map_arrays: gpu.core.image_cube_array,
            gather: Some(tessera_wire::GatherCaps {
                min_offset: p.min_texel_gather_offset,
                max_offset: p.max_texel_gather_offset as i32,
                extended: gpu.core.image_gather_extended,
            }),
            // Interpolation functions need sampleRateShading (SPIR-V's
            // InterpolationFunction capability), invocations a geometry stage, block arrays
            // indexed by variables the buffers' dynamic indexing (sampler arrays need no
            // feature: instance.rs `array_dynamic_indexing`).
            gpu_shader5: (gpu.core.geometry_shader
                && gpu.core.sample_rate_shading
                && gpu.core.image_gather_extended
                && gpu.core.array_dynamic_indexing)
                .then_some(tessera_wire::Shader5Caps {
                    max_geometry_invocations: p.max_geometry_shader_invocations,
                }),
            packing: true,
            sample_shading: gpu.core.sample_rate_shading,
            fp64: gpu.core.shader_float64,
            fp64_narrowed: false,
            // Double arrays are fetched as 32-bit words (spirv/double_attrib.rs), the last two
            // doubles of a dvec3 or dvec4 at location 16 + its GL location: 32 locations.
            vertex_attrib_64bit: gpu.core.shader_float64
                && p.max_vertex_input_attributes >= 2 * crate::pipeline::WIDE,
            image_load_store: gpu.tiers.view_2d_of_3d,
            // OpImageQueryLod and OpImageQueryLevels need only the ImageQuery capability,
            // which every Vulkan device has.
            texture_level_queries: true,
            // A fragment input decorated Layer needs the Geometry capability.
            fragment_layer: gpu.core.geometry_shader,
            max_vertex_streams: gpu.tiers.vertex_streams,
            // [0, 1] clip-space depth needs a pipeline's depth mode of its own, which only
            // VK_EXT_depth_clip_control gives (the SPIR-V patch fixes [-1, 1] per program).
            clip_control: gpu.tiers.depth_clip_control,
            // DrawIndex, BaseVertex and BaseInstance (spirv/draw_param.rs).
            draw_parameters: gpu.tiers.draw_parameters,
            max_cull_distances: if gpu.core.shader_cull_distance {
                p.max_cull_distances
            } else {
                0
            },
            max_combined_clip_and_cull_distances: if gpu.core.shader_cull_distance {
                p.max_combined_clip_and_cull_distances
            } else {
                0
            },
            // A texture sampled while attached is in the feedback-loop layout in the pass and
            // the descriptor alike, which only the extension defines (image.rs); MemoryBarrier
            // ends the pass.
            texture_barrier: gpu.tiers.feedback_loop,
            mirror_clamp_to_edge: gpu.tiers.mirror_clamp,
            polygon_offset_clamp: gpu.core.depth_bias_clamp,
            // Packed floats are fetched in their own format, which Vulkan does not require
            // for vertex buffers (lavapipe has it).
            pipeline_statistics: gpu.core.pipeline_statistics_query,
            transform_feedback_overflow: gpu.tiers.transform_feedback,
            robust_buffer_access: gpu.core.robust_buffer_access,
            // Components, offsets and transform feedback are SPIR-V decorations.
            enhanced_layouts: true,
            memory_export: gpu.tiers.memory_export,
            device_uuids: crate::export::device_uuids(&gpu),
            host_images: !gpu.owned,
            semaphore_fd: gpu.tiers.semaphore_fd,
            sync_fd_export: gpu.tiers.sync_fd_export && gpu.tiers.memory_export,
            host_textures: false,
            // Sharing with another session goes through exported memory (a later import).
            egl_images: false,
            vertex_10f_11f_11f: {
                // SAFETY: a physical device of this instance; any format value.
                unsafe {
                    gpu.instance.get_physical_device_format_properties(
                        gpu.phys,
                        vk::Format::B10G11R11_UFLOAT_PACK32,
                    )
                }
                .buffer_features
                .contains(vk::FormatFeatureFlags::VERTEX_BUFFER)
            },
            max_anisotropy: if gpu.core.sampler_anisotropy {
                p.max_sampler_anisotropy as u32
            } else {
                0
            },
            // Buffer textures of RGB32F/I/UI are viewed in their own three-component
            // formats (texture.rs `texel_view`), which Vulkan does not require for texel
            // buffers: lavapipe has them.
            texture_buffer_rgb32: [
                vk::Format::R32G32B32_SFLOAT,
                vk::Format::R32G32B32_SINT,
                vk::Format::R32G32B32_UINT,
            ]
            .iter()
            .all(|&f| {
                // SAFETY: a physical device of this instance; any format value.
                unsafe {
                    gpu.instance
                        .get_physical_device_format_properties(gpu.phys, f)
                }
                .buffer_features
                .contains(vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER)
            }),
            viewport_arrays: gpu.core.multi_viewport && p.max_viewports >= MAX_VIEWPORTS as u32,
            // Sampled views of a depth-stencil image's stencil aspect (texture.rs).
            stencil_texturing: true,
            // Stencil-only textures are S8_UINT images (conv.rs), sampled through a
            // stencil-aspect view and attached for stencil tests.
            texture_stencil8: {
                // SAFETY: a physical device of this instance; any format value.
                unsafe {
                    gpu.instance
                        .get_physical_device_format_properties(gpu.phys, vk::Format::S8_UINT)
                }
                .optimal_tiling_features
                .contains(
                    vk::FormatFeatureFlags::SAMPLED_IMAGE
                        | vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT,
                )
            },
            tessellation: if gpu.core.tessellation_shader {
                tessera_wire::TessellationCaps {
                    max_patch_vertices: p.max_tessellation_patch_size,
                    max_gen_level: p.max_tessellation_generation_level,
                    max_control_input_components: p
                        .max_tessellation_control_per_vertex_input_components,
                    max_control_output_components: p
                        .max_tessellation_control_per_vertex_output_components,
                    max_patch_components: p.max_tessellation_control_per_patch_output_components,
                    max_control_total_output_components: p
                        .max_tessellation_control_total_output_components,
                    max_evaluation_input_components: p.max_tessellation_evaluation_input_components,
                    max_evaluation_output_components: p
                        .max_tessellation_evaluation_output_components,
                }
            } else {
                tessera_wire::TessellationCaps::none()
            },
            compute: tessera_wire::ComputeCaps {
                max_work_group_count: p.max_compute_work_group_count,
                max_work_group_size: p.max_compute_work_group_size,
                max_work_group_invocations: p.max_compute_work_group_invocations,
                max_shared_memory_size: p.max_compute_shared_memory_size,
                // The program's blocks share one stage's descriptors at worst.
                max_storage_blocks: p.max_per_stage_descriptor_storage_buffers,
                max_storage_block_size: p.max_storage_buffer_range,
                storage_offset_alignment: p.min_storage_buffer_offset_alignment as u32,
            },
        };
        let formats = Format::ALL
            .iter()
            .map(|&f| {
                conv::choose_format(f, &mut |v| {
                    // SAFETY: a physical device of this instance; any format value.
                    unsafe {
                        gpu.instance
                            .get_physical_device_format_properties(gpu.phys, v)
                    }
                    .optimal_tiling_features
                })
            })
            .collect::<Vec<_>>();
        // BPTC is there when each of its formats is natively BC7 or BC6H.
        let mut caps = caps;
        caps.bptc = [
            Format::BptcRgba,
            Format::BptcSrgbAlpha,
            Format::BptcRgbSfloat,
            Format::BptcRgbUfloat,
        ]
        .iter()
        .all(|&f| formats[f as usize].as_ref().is_some_and(|n| n.compressed));
        let frames = crate::frame::Frames::new(&gpu.device, gpu.family)?;
        let mut dev = Self {
            raw: Arc::new(gpu.device.clone()),
            alloc: ManuallyDrop::new(alloc),
            tiers: gpu.tiers.clone(),
            core: gpu.core,
            limits,
            caps,
            formats,
            buffers: SlotTable::new(),
            textures: SlotTable::new(),
            renderbuffers: SlotTable::new(),
            framebuffers: SlotTable::new(),
            surfaces: SlotTable::new(),
            blends: SlotTable::new(),
            depth_stencils: SlotTable::new(),
            rasters: SlotTable::new(),
            layouts: SlotTable::new(),
            samplers: SlotTable::new(),
            interned: Interned::default(),
            programs: SlotTable::new(),
            queries: SlotTable::new(),
            xfbs: SlotTable::new(),
            fences: SlotTable::new(),
            pipes: crate::pipeline::Caches::new(&gpu.device, &gpu.props, gpu.tiers.api_version)?,
            clears: crate::clear::ClearCache::default(),
            frames,
            rec: crate::command::Recording::default(),
            conditions: crate::condition::Predicates::default(),
            placeholders: crate::image::Placeholders::default(),
            feedback_layout: if gpu.tiers.feedback_loop {
                vk::ImageLayout::ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT
            } else {
                vk::ImageLayout::GENERAL
            },
            zeros: None,
            sink: None,
            temp: None,
            multi_draws: crate::multi_draw::Scratch::default(),
            stats: Arc::new(StatCells::default()),
            events: Vec::new(),
            faults: tessera_wire::fault::Faults::from_env(),
            reported: 0,
            epoch: 1,
            changes: 1,
            fresh_buffer: None,
            contexts: 0,
            presenters: HashMap::new(),
            detached: Vec::new(),
            gpu,
        };
        dev.begin_frame()
            .map_err(|e| crate::CreateBackendError::Setup {
                reason: e.to_string(),
            })?;
        let zeros = memory::device_buffer(
            &dev.alloc,
            1 << 16,
            memory::object_usage(dev.tiers.transform_feedback),
        )
        .map_err(|e| crate::CreateBackendError::Vulkan {
            call: "vmaCreateBuffer",
            result: e,
        })?;
        // SAFETY: recording; outside any render pass (nothing recorded yet); the buffer is
        // new with TRANSFER_DST usage.
        unsafe {
            dev.raw
                .cmd_fill_buffer(dev.rec.cmd, zeros.buffer, 0, vk::WHOLE_SIZE, 0)
        };
        let sink = memory::device_buffer(
            &dev.alloc,
            1 << 16,
            memory::object_usage(dev.tiers.transform_feedback),
        )
        .map_err(|e| crate::CreateBackendError::Vulkan {
            call: "vmaCreateBuffer",
            result: e,
        })?;
        dev.rec.dirty_mem = true;
        dev.zeros = Some(zeros);
        dev.sink = Some(sink);
        Ok(dev)
    }

    /// The native format of a wire format, if the device has any candidate.
    pub fn format(&mut self, format: Format) -> Option<NativeFormat> {
        let f = self.formats.get(format as usize).copied().flatten();
        if f.is_none() {
            self.report(
                Missing::Format,
                &format!(
                    "the device has no usable format for {format:?}: such images are not created"
                ),
            );
        }
        f
    }

    /// Reports once per session that the device lacks `what`.
    pub fn report(&mut self, what: Missing, text: &str) {
        let bit = 1u64 << (what as u8);
        if self.reported & bit == 0 {
            self.reported |= bit;
            self.events.push(Event::Unsupported {
                what: text.to_owned(),
            });
        }
    }

    /// Moves validation messages into events (and the counter).
    pub fn drain_messages(&mut self) {
        for m in self.gpu.take_messages() {
            count(&self.stats.validation_messages);
            self.events.push(Event::NativeError {
                what: format!("validation: {m}"),
            });
        }
    }

    /// Defers the destruction of `g` until the current submission retires.
    pub fn defer(&mut self, g: Garbage) {
        self.frames.current.garbage.push(g);
    }

    /// Notes a transfer into buffer `handle` recorded in the current submission.
    pub fn copied_into(&mut self, handle: BufferHandle) {
        let serial = self.serial();
        if let Ok(b) = self.buffers.get_mut("", handle) {
            b.copied = serial;
        }
    }

    /// Ends the open pass (running pending clears) while the images it names still exist,
    /// then moves the epoch: an image a framebuffer may hold is about to change.
    pub fn invalidate_targets(&mut self) {
        if let Err(e) = self.end_pass() {
            log::error!("tessera-backend-vk: ending a render pass failed: {e}");
        }
        self.epoch += 1;
    }

    /// Takes an object a render target may name out of `table`, ending the pass that may
    /// use it (and moving the epoch) first; a stale handle changes nothing.
    pub fn remove_target_object<H: Keyed, T>(
        &mut self,
        record: &'static str,
        handle: H,
        table: fn(&mut Self) -> &mut SlotTable<H, T>,
    ) -> Result<T, SessionError> {
        table(self).get(record, handle)?;
        self.invalidate_targets();
        table(self).remove(record, handle)
    }

    /// The 64 KiB zero buffer.
    pub fn sink_buffer(&self) -> vk::Buffer {
        match &self.sink {
            Some(s) => s.buffer,
            None => backend_bug("the sink buffer is made at creation"),
        }
    }

    pub fn zero_buffer(&self) -> vk::Buffer {
        match &self.zeros {
            Some(z) => z.buffer,
            None => backend_bug("the zero buffer is made at creation"),
        }
    }

    // ---- Buffers ----

    /// Reads a buffer range back for `record` (submits and waits).
    pub fn read_buffer_range(
        &mut self,
        record: &'static str,
        handle: BufferHandle,
        offset: u64,
        size: u64,
    ) -> Result<Vec<u8>, SessionError> {
        let src = self
            .buffers
            .get_range(record, handle, offset, size)?
            .owned
            .buffer;
        if size == 0 {
            return Ok(Vec::new());
        }
        if size as usize > MAX_READBACK {
            return Err(bad_value(
                record,
                format!("a {size}-byte read-back is too large"),
            ));
        }
        let staging =
            memory::host_buffer(&self.alloc, size, vk::BufferUsageFlags::TRANSFER_DST, true)
                .map_err(|e| vk_error("vmaCreateBuffer", e))?;
        self.transfer_begin();
        let region = vk::BufferCopy {
            src_offset: offset,
            dst_offset: 0,
            size,
        };
        // SAFETY: recording, outside a render pass; the range lies inside the source and
        // the staging buffer holds `size` bytes.
        unsafe {
            self.raw
                .cmd_copy_buffer(self.rec.cmd, src, staging.buffer, &[region])
        };
        self.rec.dirty_mem = true;
        self.finish_readback()?;
        let mut out = vec![0u8; size as usize];
        // SAFETY: the copy completed (finish_readback waited for the submission); the
        // mapping holds `size` bytes that no one else writes.
        unsafe { std::ptr::copy_nonoverlapping(staging.ptr, out.as_mut_ptr(), out.len()) };
        memory::free_buffer(&self.alloc, staging);
        Ok(out)
    }

    // ---- Samplers ----

    fn make_sampler(
        &mut self,
        s: &SamplerState,
        nearest: bool,
    ) -> Result<vk::Sampler, SessionError> {
        let mut wrap = s.wrap.map(conv::map_wrap);
        for w in &mut wrap {
            if *w == vk::SamplerAddressMode::MIRROR_CLAMP_TO_EDGE && !self.tiers.mirror_clamp {
                self.report(
                    Missing::MirrorClamp,
                    "MIRROR_CLAMP_TO_EDGE needs VK_KHR_sampler_mirror_clamp_to_edge: MIRRORED_REPEAT instead",
                );
                *w = vk::SamplerAddressMode::MIRRORED_REPEAT;
            }
        }
        let (mag, min, mip) = if nearest {
            (
                vk::Filter::NEAREST,
                vk::Filter::NEAREST,
                vk::SamplerMipmapMode::NEAREST,
            )
        } else {
            (
                conv::map_filter(s.mag_filter),
                conv::map_filter(s.min_filter),
                conv::map_mip_filter(s.mip_filter),
            )
        };
        // GL's "no mipmapping" reads the base level only: Vulkan clamps the LOD instead.
        let (min_lod, max_lod) = if s.mip_filter == tessera_wire::format::MipFilter::None {
            (0.0, 0.25)
        } else {
            (s.min_lod.max(0.0), s.max_lod.max(s.min_lod.max(0.0)))
        };
        let border = conv::map_border_color(s.border_color, s.border_is_integer);
        let uses_border = wrap.contains(&vk::SamplerAddressMode::CLAMP_TO_BORDER);
        let mut custom = vk::SamplerCustomBorderColorCreateInfoEXT::default();
        let border_color = match border {
            Some(b) => b,
            None if uses_border && self.tiers.custom_border_color => {
                let mut value = vk::ClearColorValue::default();
                if s.border_is_integer {
                    value.uint32 = s.border_color;
                } else {
                    value.float32 = s.border_color.map(f32::from_bits);
                }
                custom = custom.custom_border_color(value);
                if s.border_is_integer {
                    vk::BorderColor::INT_CUSTOM_EXT
                } else {
                    vk::BorderColor::FLOAT_CUSTOM_EXT
                }
            }
            None => {
                if uses_border {
                    self.report(
                        Missing::BorderColor,
                        "border colours other than transparent/opaque black and white need VK_EXT_custom_border_color: transparent black instead",
                    );
                }
                vk::BorderColor::FLOAT_TRANSPARENT_BLACK
            }
        };
        let anisotropy = self.core.sampler_anisotropy && s.max_anisotropy > 1.0 && !nearest;
        let mut info = vk::SamplerCreateInfo::default()
            .mag_filter(mag)
            .min_filter(min)
            .mipmap_mode(mip)
            .address_mode_u(wrap[0])
            .address_mode_v(wrap[1])
            .address_mode_w(wrap[2])
            .mip_lod_bias(
                s.lod_bias
                    .clamp(-self.limits.max_lod_bias, self.limits.max_lod_bias),
            )
            .anisotropy_enable(anisotropy)
            .max_anisotropy(
                s.max_anisotropy
                    .clamp(1.0, self.limits.max_anisotropy.max(1.0)),
            )
            .compare_enable(s.compare.is_some())
            .compare_op(conv::map_compare_func(
                s.compare
                    .unwrap_or(tessera_wire::format::CompareFunc::Always),
            ))
            .min_lod(min_lod)
            .max_lod(max_lod)
            .border_color(border_color);
        if matches!(
            border_color,
            vk::BorderColor::INT_CUSTOM_EXT | vk::BorderColor::FLOAT_CUSTOM_EXT
        ) {
            info = info.push_next(&mut custom);
        }
        // SAFETY: a valid create info: filters and modes from conv, anisotropy only with the
        // enabled feature and clamped to the limit, the LOD bias clamped, a custom border
        // colour only with the enabled extension (format-less, its feature checked).
        unsafe { self.raw.create_sampler(&info, None) }.map_err(|e| vk_error("vkCreateSampler", e))
    }

    /// `CreateSamplerState`.
    pub fn create_sampler(
        &mut self,
        handle: SamplerHandle,
        s: &SamplerState,
    ) -> Result<(), SessionError> {
        const N: &str = "CreateSamplerState";
        self.samplers.check_create(N, handle)?;
        let raw = self.make_sampler(s, false)?;
        self.samplers.insert(
            N,
            handle,
            Sampler {
                state: *s,
                raw,
                nearest: None,
            },
        )
    }

    /// The sampler to use with a format that cannot be filtered linearly.
    pub fn nearest_sampler(&mut self, handle: SamplerHandle) -> Option<vk::Sampler> {
        let s = self.samplers.live(handle)?;
        if let Some(n) = s.nearest {
            return Some(n);
        }
        let state = s.state;
        let n = self.make_sampler(&state, true).ok()?;
        if let Ok(s) = self.samplers.get_mut("", handle) {
            s.nearest = Some(n);
        }
        Some(n)
    }

    /// `DestroySamplerState`.
    pub fn destroy_sampler(&mut self, handle: SamplerHandle) -> Result<(), SessionError> {
        let s = self.samplers.remove("DestroySamplerState", handle)?;
        self.defer(Garbage::Sampler(s.raw));
        if let Some(n) = s.nearest {
            self.defer(Garbage::Sampler(n));
        }
        Ok(())
    }
}

impl BufferPipe for VkPipe {
    /// `CreateBuffer`: (re)allocates zeroed storage. Storage the driver refuses is reported
    /// as [`Event::OutOfMemory`], which the program sees as `GL_OUT_OF_MEMORY`, and the
    /// buffer stands in with 4 bytes (its size says so): a later use of bytes it lacks ends
    /// the session, which the program sees as a context reset.
    fn create_buffer(&mut self, handle: BufferHandle, size: u64) -> R {
        const N: &str = "CreateBuffer";
        if self.buffers.live(handle).is_none() {
            self.buffers.check_create(N, handle)?;
        }
        let usage = memory::object_usage(self.tiers.transform_feedback);
        let made = if size > 0 && self.faults.refuse(N) {
            Err(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)
        } else {
            memory::object_buffer(&self.alloc, size, usage, self.tiers.mapped_buffers)
        };
        let (owned, size) = match made {
            Ok(o) => (o, size),
            Err(e) => {
                let what = format!("a {size}-byte buffer ({e})");
                self.events.push(Event::OutOfMemory { what });
                let stand_in = memory::object_buffer(&self.alloc, 4, usage, false)
                    .map_err(|e| vk_error("vmaCreateBuffer", e))?;
                (stand_in, 4)
            }
        };
        let copied = if owned.ptr.is_null() {
            self.transfer_begin();
            // SAFETY: recording, outside a render pass (transfer_begin ended it); a new
            // buffer with TRANSFER_DST usage; WHOLE_SIZE fills to the end.
            unsafe {
                self.raw
                    .cmd_fill_buffer(self.rec.cmd, owned.buffer, 0, vk::WHOLE_SIZE, 0)
            };
            self.rec.dirty_mem = true;
            self.serial()
        } else {
            // SAFETY: the mapping covers the whole buffer (at least 4 bytes), which no
            // command uses yet; host writes before a submission are visible to it.
            unsafe { std::ptr::write_bytes(owned.ptr, 0, owned.size.max(4) as usize) };
            0
        };
        let buffer = Buffer {
            owned,
            size,
            copied,
        };
        self.fresh_buffer = Some(handle);
        if let Ok(b) = self.buffers.get_mut(N, handle) {
            let old = std::mem::replace(b, buffer);
            self.defer(Garbage::Buffer(old.owned));
            Ok(())
        } else {
            self.buffers.insert(N, handle, buffer)
        }
    }

    /// `DestroyBuffer`.
    fn destroy_buffer(&mut self, handle: BufferHandle) -> R {
        let b = self.buffers.remove("DestroyBuffer", handle)?;
        self.defer(Garbage::Buffer(b.owned));
        Ok(())
    }

    /// `WriteBuffer` (or a read-back into a pack buffer, `record`): stage bytes into the
    /// arena, then a transfer. An unsynchronized write into a mapped buffer with no
    /// transfer pending, or a write into the buffer just made ([`VkPipe::fresh_buffer`]), is
    /// copied into its memory at once, and the render pass stays open.
    fn write_buffer(&mut self, record: &'static str, write: BufferWrite<'_>) -> R {
        let BufferWrite {
            buffer: handle,
            offset,
            bytes: data,
            unsynchronized,
        } = write;
        let dst = self
            .buffers
            .get_range(record, handle, offset, data.len() as u64)?;
        let (ptr, copied) = (dst.owned.ptr, dst.copied);
        let dst = dst.owned.buffer;
        if data.is_empty() {
            return Ok(());
        }
        let unused = self.fresh_buffer == Some(handle);
        if (unsynchronized || unused) && !ptr.is_null() && copied <= self.frames.completed {
            // SAFETY: the range lies inside the buffer (checked above), which stays mapped
            // for its life; no transfer into it is pending, and no pending command uses
            // these bytes (the program promised it, or no command used the buffer since it
            // was made). Host writes before a submission are visible to it (coherent
            // memory).
            unsafe {
                std::ptr::copy_nonoverlapping(data.as_ptr(), ptr.add(offset as usize), data.len())
            };
            return Ok(());
        }
        let src = self.arena(data.len() as u64, 4)?;
        src.write(data);
        self.transfer_begin();
        let region = vk::BufferCopy {
            src_offset: src.offset,
            dst_offset: offset,
            size: data.len() as u64,
        };
        // SAFETY: recording, outside a render pass; both ranges lie inside their buffers
        // (checked above; the arena slice holds data.len() bytes).
        unsafe {
            self.raw
                .cmd_copy_buffer(self.rec.cmd, src.buffer, dst, &[region])
        };
        self.rec.dirty_mem = true;
        self.copied_into(handle);
        Ok(())
    }

    /// `FillBuffer`: one `vkCmdFillBuffer` where the pattern is a 32-bit word (or a byte or
    /// two repeated into one) and the range is word-aligned, else the pattern repeated and
    /// staged as a `WriteBuffer` is.
    fn fill_buffer(&mut self, handle: BufferHandle, range: BufferRange, pattern: &[u8]) -> R {
        const N: &str = "FillBuffer";
        let word = match *pattern {
            [a] => Some([a; 4]),
            [a, b] => Some([a, b, a, b]),
            [a, b, c, d] => Some([a, b, c, d]),
            _ => None,
        };
        let aligned = range.offset.is_multiple_of(4) && range.size.is_multiple_of(4);
        let Some(word) = word.filter(|_| aligned) else {
            let bytes = tessera_wire::pixel::repeat_pattern(pattern, range.size);
            let write = BufferWrite {
                buffer: handle,
                offset: range.offset,
                bytes: &bytes,
                unsynchronized: false,
            };
            return self.write_buffer(N, write);
        };
        let dst = self
            .buffers
            .get_range(N, handle, range.offset, range.size)?
            .owned
            .buffer;
        if range.size == 0 {
            return Ok(());
        }
        self.transfer_begin();
        // SAFETY: recording, outside a render pass; the range lies inside the buffer
        // (checked above), its offset and size are multiples of 4.
        unsafe {
            self.raw.cmd_fill_buffer(
                self.rec.cmd,
                dst,
                range.offset,
                range.size,
                u32::from_ne_bytes(word),
            )
        };
        self.rec.dirty_mem = true;
        self.copied_into(handle);
        Ok(())
    }

    /// `CopyBuffer`.
    fn copy_buffer(&mut self, src: BufferHandle, dst: BufferHandle, region: BufferCopy) -> R {
        const N: &str = "CopyBuffer";
        let BufferCopy {
            src_offset,
            dst_offset,
            size,
        } = region;
        let (from, to) = self.buffers.copy_ranges(N, src, dst, region)?;
        let (from, to) = (from.owned.buffer, to.owned.buffer);
        if size == 0 {
            return Ok(());
        }
        self.transfer_begin();
        let region = vk::BufferCopy {
            src_offset,
            dst_offset,
            size,
        };
        // SAFETY: recording, outside a render pass; both ranges inside their buffers and
        // not overlapping (checked above).
        unsafe { self.raw.cmd_copy_buffer(self.rec.cmd, from, to, &[region]) };
        self.rec.dirty_mem = true;
        self.copied_into(dst);
        Ok(())
    }

    /// `ReadBuffer`: the range read back (submits and waits).
    fn read_buffer(&mut self, buffer: BufferHandle, range: BufferRange) -> Bytes {
        self.read_buffer_range("ReadBuffer", buffer, range.offset, range.size)
    }
}

impl VkPipe {
    /// Bytes of device memory this backend's allocator holds now: every `VkDeviceMemory`
    /// block it took, over all heaps (VMA keeps the totals as it allocates, so this walks
    /// no object; arena chunks and free space inside blocks count, as the device holds them).
    pub fn device_memory(&self) -> u64 {
        self.alloc
            .get_heap_budgets()
            .map(|heaps| heaps.iter().map(|h| h.statistics.blockBytes).sum())
            .unwrap_or(0)
    }
}

impl Drop for VkPipe {
    fn drop(&mut self) {
        // Waiting for idle first means no submitted work reads anything below; each object
        // is destroyed once, then the allocator (whose allocations are all freed by then),
        // before `gpu` destroys the device (Tessera's own; a host's stays).
        self.gpu.wait_idle();
        self.retire_all();
        self.destroy_presenters();
        let alloc: &vk_mem::Allocator = &self.alloc;
        let raw = &self.raw;
        for b in self.buffers.drain() {
            memory::free_buffer(alloc, b.owned);
        }
        for t in self.textures.drain() {
            t.destroy(raw, alloc);
        }
        for r in self.renderbuffers.drain() {
            r.destroy(raw, alloc);
        }
        for s in self.surfaces.drain() {
            s.destroy(raw, alloc);
        }
        for f in self.framebuffers.drain() {
            f.destroy(raw);
        }
        for s in self.samplers.drain() {
            // SAFETY: see the block comment above.
            unsafe {
                raw.destroy_sampler(s.raw, None);
                if let Some(n) = s.nearest {
                    raw.destroy_sampler(n, None);
                }
            }
        }
        for p in self.programs.drain() {
            p.destroy(raw);
        }
        for q in self.queries.drain() {
            q.destroy(raw);
        }
        self.placeholders.destroy(raw, alloc);
        if let Some(t) = self.temp.take() {
            t.destroy_now(raw, alloc);
        }
        if let Some(z) = self.zeros.take() {
            memory::free_buffer(alloc, z);
        }
        if let Some(s) = self.sink.take() {
            memory::free_buffer(alloc, s);
        }
        self.conditions.destroy(alloc);
        self.clears.destroy(raw);
        self.pipes.destroy(raw);
        self.frames.destroy(raw, alloc);
        // SAFETY: every allocation was freed above; the device is still alive.
        unsafe { ManuallyDrop::drop(&mut self.alloc) };
    }
}

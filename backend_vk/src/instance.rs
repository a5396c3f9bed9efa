//! Loading Vulkan, the instance (with the Khronos validation layer and a debug-utils
//! messenger when asked), choosing the physical device, and creating the logical device with
//! the optional tiers decided **once**, here.
//!
//! ## Choosing the device
//! `TESSERA_VK_DEVICE` (or [`VkOptions::device`](crate::VkOptions::device)) names a device
//! by index (in enumeration order), by UUID (32 hex digits, dashes allowed), or by a
//! case-insensitive substring of its name. Otherwise the best one wins: discrete, then
//! integrated, virtual, CPU; then the newest API version. Devices below Vulkan 1.1 or
//! without a graphics queue are never chosen.
//!
//! ## Tiers
//! Vulkan 1.1 is the floor. Extensions that remove a workaround are enabled when present:
//! `VK_KHR_push_descriptor` (descriptors without set allocation), `VK_EXT_depth_clip_control`
//! (GL clip-space depth without patching the SPIR-V), `VK_EXT_provoking_vertex` (GL's last
//! vertex convention), `VK_EXT_custom_border_color`, `VK_EXT_index_type_uint8`,
//! `VK_EXT_primitive_topology_list_restart`, `VK_KHR_sampler_mirror_clamp_to_edge`,
//! `VK_EXT_vertex_attribute_divisor` and `VK_EXT_multi_draw` (a `glMultiDraw*` call as one
//! command). Dynamic rendering, extended dynamic state 1-3, vertex
//! input dynamic state and graphics pipeline libraries are detected and reported in
//! [`Tiers`], not used yet: pipelines are keyed so that steady frames never compile one
//! without them.
//!
//! Presenting to X11 windows (`present.rs`) needs `VK_KHR_surface` and `VK_KHR_xcb_surface`
//! on the instance and `VK_KHR_swapchain` on the device; they are enabled where the loader
//! and the device have them, and without them the backend works the same, offscreen (the
//! client shows its frames). `VK_KHR_present_id` with `VK_KHR_present_wait` lets a swap at
//! interval 1 wait until its frame is shown.

use std::ffi::{CStr, CString, c_void};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use ash::vk;

use crate::{CreateBackendError, VkOptions};

/// The optional Vulkan capabilities, as detected and as used (chosen once at device
/// creation; no draw ever checks a capability again).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tiers {
    /// Vulkan version of the device (`VK_MAKE_API_VERSION` encoding), capped at 1.3.
    pub api_version: u32,
    /// Descriptors are pushed (`VK_KHR_push_descriptor`), not allocated from pools.
    pub push_descriptors: bool,
    /// GL clip-space depth through `VK_EXT_depth_clip_control` (else patched SPIR-V).
    pub depth_clip_control: bool,
    /// GL's last-vertex convention through `VK_EXT_provoking_vertex`.
    pub provoking_vertex: bool,
    /// Arbitrary border colours (`VK_EXT_custom_border_color`).
    pub custom_border_color: bool,
    /// 8-bit indices (`VK_EXT_index_type_uint8`).
    pub index_u8: bool,
    /// Primitive restart in list topologies (`VK_EXT_primitive_topology_list_restart`).
    pub list_restart: bool,
    /// `MIRROR_CLAMP_TO_EDGE` addressing.
    pub mirror_clamp: bool,
    /// Instance divisors above 1 (`VK_EXT_vertex_attribute_divisor`).
    pub vertex_divisor: bool,
    /// Triangle fans are drawn natively (false on portability-subset devices).
    pub triangle_fans: bool,
    /// Shaders vote over subgroups in every stage (`VK_EXT_shader_subgroup_vote`:
    /// `GL_ARB_shader_group_vote`; without it each invocation votes alone, `spirv/vote.rs`).
    pub subgroup_vote: bool,
    /// Detected, not used: dynamic rendering.
    pub dynamic_rendering: bool,
    /// Detected, not used: extended dynamic state 1, 2 and 3.
    pub extended_dynamic_state: [bool; 3],
    /// Detected, not used: vertex input dynamic state.
    pub vertex_input_dynamic_state: bool,
    /// Detected, not used: graphics pipeline libraries.
    pub graphics_pipeline_library: bool,
    /// Buffer objects live in mapped memory: every device-local memory type is also
    /// host-visible and coherent (integrated GPUs, CPU devices such as lavapipe; off with the
    /// floor). A new buffer's zeros and unsynchronized writes then go straight to its memory
    /// instead of through transfers, which would end the render pass.
    pub mapped_buffers: bool,
    /// Surfaces are presented to X11 windows through swapchains (`VK_KHR_xcb_surface` on
    /// the instance, `VK_KHR_swapchain` on the device).
    pub present: bool,
    /// A presented frame can be waited for (`VK_KHR_present_id` and `VK_KHR_present_wait`).
    pub present_wait: bool,
    /// Transform feedback capture and its primitives-written query
    /// (`VK_EXT_transform_feedback`, with `transformFeedbackQueries`, and
    /// `transformFeedbackDraw` for draws from a capture).
    pub transform_feedback: bool,
    /// `GL_PRIMITIVES_GENERATED` counted (`VK_EXT_primitives_generated_query`, also with
    /// rasterizer discard).
    pub primitives_generated: bool,
    /// Vertex streams a geometry shader emits to and transform feedback captures (GL's
    /// `MAX_VERTEX_STREAMS`): 4 with `geometryStreams` and at least 4
    /// `maxTransformFeedbackStreams` (and, where primitives generated are counted,
    /// `primitivesGeneratedQueryWithNonZeroStreams`), else 1.
    pub vertex_streams: u32,
    /// Shaders read the draw's base instance (Vulkan 1.1's `shaderDrawParameters`), which
    /// `gl_InstanceID` subtracts.
    pub draw_parameters: bool,
    /// One slice of a 3D level viewed as a 2D storage image (`VK_EXT_image_2d_view_of_3d`
    /// with `image2DViewOf3D`): GL binds a 3D texture's layer to an image unit alone, as a
    /// 2D image (`glBindImageTexture` with `layered` false).
    pub view_2d_of_3d: bool,
    /// Indirect draws whose count a buffer holds (Vulkan 1.2's `drawIndirectCount`: GL
    /// 4.6's `glMultiDraw*IndirectCount`; without it the count is read back).
    pub draw_indirect_count: bool,
    /// Draws, clears and dispatches predicated on a buffer (`VK_EXT_conditional_rendering`
    /// with `conditionalRendering`: GL's conditional rendering decided on the device;
    /// without it the backend reads query results on the host, `condition.rs`).
    pub conditional_rendering: bool,
    /// An image sampled by a draw that renders to it, in one layout for both
    /// (`VK_EXT_attachment_feedback_loop_layout` with `attachmentFeedbackLoopLayout`: the
    /// feedback loops of `GL_ARB_texture_barrier`, `image.rs`).
    pub feedback_loop: bool,
    /// Draws one `vkCmdDrawMultiEXT`/`vkCmdDrawMultiIndexedEXT` may draw
    /// (`VK_EXT_multi_draw`'s `maxMultiDrawCount`); 0 where the extension is not used.
    pub multi_draw: u32,
    /// Textures can be exported to a host as opaque file descriptors of device memory
    /// (`VK_KHR_external_memory_fd` on Vulkan 1.1; `export.rs`).
    pub memory_export: bool,
    /// Exports are dma-bufs where the format allows (`VK_EXT_external_memory_dma_buf`
    /// with `memory_export`; `export.rs`). Not on lavapipe: not exercised in CI.
    pub dma_buf_export: bool,
    /// Semaphores a Vulkan program exported as opaque descriptors are imported, waited on
    /// and signalled (`VK_KHR_external_semaphore_fd` on Vulkan 1.1 with `OPAQUE_FD`
    /// importable; `semaphore.rs`). Not on lavapipe: not exercised in CI.
    pub semaphore_fd: bool,
    /// An export's copy signals a binary semaphore exported as a `sync_file` instead of
    /// being waited for (`VK_KHR_external_semaphore_fd` on Vulkan 1.1 with `SYNC_FD`
    /// exportable; `export.rs`). Not on lavapipe: not exercised in CI.
    pub sync_fd_export: bool,
}

/// Core features the backend enables when the device has them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CoreFeatures {
    /// Buffer reads bounded by their buffers (`Caps::robust_buffer_access`).
    pub robust_buffer_access: bool,
    pub geometry_shader: bool,
    /// Tessellation control and evaluation stages (GL 4.0's tessellation; the domain's
    /// lower-left origin is Vulkan 1.1's, which the backend requires).
    pub tessellation_shader: bool,
    pub fill_mode_non_solid: bool,
    pub wide_lines: bool,
    pub large_points: bool,
    pub logic_op: bool,
    pub dual_src_blend: bool,
    pub independent_blend: bool,
    pub depth_clamp: bool,
    /// A clamp on the depth bias (`depthBiasClamp`: GL 4.6's `glPolygonOffsetClamp`).
    pub depth_bias_clamp: bool,
    pub sampler_anisotropy: bool,
    pub occlusion_query_precise: bool,
    pub alpha_to_one: bool,
    /// Storage-buffer writes and atomics in the vertex and geometry stages.
    pub vertex_pipeline_stores: bool,
    /// Storage-buffer writes and atomics in the fragment stage.
    pub fragment_stores: bool,
    /// Indirect draws of several commands in one call (`multiDrawIndirect`).
    pub multi_draw_indirect: bool,
    /// Queries of the pipeline's statistics (`pipelineStatisticsQuery`: GL 4.6's
    /// `ARB_pipeline_statistics_query`).
    pub pipeline_statistics_query: bool,
    /// Indirect commands with a nonzero first instance (`drawIndirectFirstInstance`).
    pub draw_indirect_first_instance: bool,
    /// Cube map array views (`imageCubeArray`: GL 4.0's cube map array textures).
    pub image_cube_array: bool,
    /// Per-sample shading (`sampleRateShading`: GL 4.0's sample shading, and SPIR-V's
    /// `SampleRateShading` capability that `gl_SampleID` and `gl_SamplePosition` need).
    pub sample_rate_shading: bool,
    /// Gathers with non-constant offsets and `ConstOffsets` (`shaderImageGatherExtended`:
    /// GL 4.0's `textureGatherOffset` with a variable offset and `textureGatherOffsets`).
    pub image_gather_extended: bool,
    /// Uniform block and storage block arrays indexed by dynamically uniform expressions
    /// (`shaderUniformBufferArrayDynamicIndexing` and
    /// `shaderStorageBufferArrayDynamicIndexing`: GL 4.0's `ARB_gpu_shader5`). Sampler
    /// arrays need no feature: the link indexes them by constants where the index is not
    /// one (tessera-shader's `dynamic_index.rs`), and the device indexes them dynamically
    /// where it has `shaderSampledImageArrayDynamicIndexing`, which is enabled then.
    pub array_dynamic_indexing: bool,
    /// 64-bit floats in shaders (`shaderFloat64`: GL 4.0's `ARB_gpu_shader_fp64`, SPIR-V's
    /// `Float64` capability).
    pub shader_float64: bool,
    /// Viewport and scissor arrays chosen per primitive (`multiViewport`: GL 4.1's viewport
    /// arrays, and SPIR-V's `MultiViewport` capability that `ViewportIndex` needs).
    pub multi_viewport: bool,
    /// `gl_CullDistance` (`shaderCullDistance`, GL 4.5's `GL_ARB_cull_distance`).
    pub shader_cull_distance: bool,
}

/// Messages of the debug-utils messenger, shared with its callback.
pub(crate) type Messages = Arc<Mutex<Vec<String>>>;

/// The window-system functions, where the instance and device have them.
pub(crate) struct Wsi {
    pub surface: ash::khr::surface::Instance,
    pub xcb: ash::khr::xcb_surface::Instance,
    pub swapchain: ash::khr::swapchain::Device,
    /// `VK_KHR_present_wait` (with `VK_KHR_present_id`), when enabled.
    pub present_wait: Option<ash::khr::present_wait::Device>,
}

/// The loaded library, instance, messenger and logical device.
pub(crate) struct Gpu {
    /// Keeps libvulkan loaded for as long as anything made from it lives.
    pub(crate) _entry: ash::Entry,
    pub instance: ash::Instance,
    pub(crate) debug: Option<(
        ash::ext::debug_utils::Instance,
        vk::DebugUtilsMessengerEXT,
        *const Mutex<Vec<String>>,
    )>,
    pub phys: vk::PhysicalDevice,
    pub device: ash::Device,
    pub queue: vk::Queue,
    pub family: u32,
    pub props: vk::PhysicalDeviceProperties,
    pub tiers: Tiers,
    pub core: CoreFeatures,
    pub push: Option<ash::khr::push_descriptor::Device>,
    /// `VK_EXT_transform_feedback`'s commands, when enabled.
    pub xfb: Option<ash::ext::transform_feedback::Device>,
    /// `VK_EXT_conditional_rendering`'s commands, when enabled.
    pub conditional: Option<ash::ext::conditional_rendering::Device>,
    /// `VK_EXT_multi_draw`'s commands, when enabled.
    pub multi_draw: Option<ash::ext::multi_draw::Device>,
    /// `VK_KHR_external_memory_fd`'s commands, when enabled (`Tiers::memory_export`).
    pub memory_fd: Option<ash::khr::external_memory_fd::Device>,
    /// `VK_KHR_external_semaphore_fd`'s commands, when enabled (`Tiers::semaphore_fd` or
    /// `Tiers::sync_fd_export`).
    pub semaphore_fd: Option<ash::khr::external_semaphore_fd::Device>,
    /// The lock a host that lent its device takes around its own use of the queue
    /// (`host_device.rs`); `None` on Tessera's own device.
    pub queue_lock: Option<Arc<Mutex<()>>>,
    /// The instance and device are Tessera's, destroyed with it (not a host's).
    pub owned: bool,
    /// Presenting to windows (`None`: the instance or device cannot).
    pub wsi: Option<Wsi>,
    pub messages: Messages,
    pub name: String,
    /// The host allocation callbacks of the instance, counting the driver's objects
    /// (`census.rs`); dropped after the instance is destroyed.
    pub host: Box<crate::census::HostAllocator>,
}

/// Receives validation and driver messages; runs on whichever thread made the call.
unsafe extern "system" fn on_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: `data` is the callback data the loader passes (valid for the call, or null);
    // `p_message` is a NUL-terminated string or null. `user` is the pointer of the `Arc`
    // the messenger was created with, kept alive until after the messenger is destroyed
    // (Gpu::drop).
    unsafe {
        let text = if data.is_null() || (*data).p_message.is_null() {
            String::from("(no message)")
        } else {
            CStr::from_ptr((*data).p_message)
                .to_string_lossy()
                .into_owned()
        };
        if !user.is_null() {
            let messages = &*(user as *const Mutex<Vec<String>>);
            messages
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(format!("{severity:?} {types:?}: {text}"));
        }
    }
    vk::FALSE
}

fn ext_names(props: &[vk::ExtensionProperties]) -> Vec<CString> {
    props
        .iter()
        .filter_map(|p| p.extension_name_as_c_str().ok().map(CStr::to_owned))
        .collect()
}

fn parse_uuid(s: &str) -> Option<[u8; 16]> {
    let hex: String = s.chars().filter(|c| *c != '-').collect();
    if hex.len() != 32 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

fn uuid_text(u: &[u8; 16]) -> String {
    u.iter().map(|b| format!("{b:02x}")).collect()
}

/// Loads the system's Vulkan loader, which must offer Vulkan 1.1; with its version.
fn load_entry() -> Result<(ash::Entry, u32), CreateBackendError> {
    // SAFETY: loading libvulkan runs its initialisers; it is the system's Vulkan loader.
    let entry = unsafe { ash::Entry::load() }.map_err(|e| CreateBackendError::Load {
        reason: e.to_string(),
    })?;
    // SAFETY: a valid entry; the query has no preconditions.
    let loader_version = unsafe { entry.try_enumerate_instance_version() }
        .ok()
        .flatten()
        .unwrap_or(vk::API_VERSION_1_0);
    if loader_version < vk::API_VERSION_1_1 {
        return Err(CreateBackendError::TooOld {
            what: "the Vulkan loader".to_owned(),
            version: version_text(loader_version),
        });
    }
    Ok((entry, loader_version))
}

/// The instance that keeps the Vulkan drivers loaded for the life of the process.
///
/// The loader opens the drivers (ICDs) for each instance and closes them with it, so when
/// the last backend of a process goes, the driver library is unloaded, and the next backend
/// loads it afresh. A driver's process-wide state does not always survive that: lavapipe
/// (Mesa 22.3) maps a 10 MiB writable-executable heap for its generated vertex-fetch code
/// once per load and never unmaps it, so a server whose sessions all end between rounds
/// grew by that heap's touched pages (about 0.27 MiB) every round. An instance with no
/// layer, extension or device, made once and never destroyed, keeps each driver loaded, as
/// a GL driver stays loaded once its display is initialised; it costs a few KiB.
static DRIVERS_LOADED: OnceLock<Option<(ash::Entry, ash::Instance)>> = OnceLock::new();

/// Makes [`DRIVERS_LOADED`] once (nothing if the instance cannot be made: the backend
/// being created reports its own failure).
fn keep_drivers_loaded(entry: &ash::Entry, loader_version: u32) {
    DRIVERS_LOADED.get_or_init(|| {
        let app = vk::ApplicationInfo::default()
            .application_name(c"tessera")
            .engine_name(c"tessera")
            .api_version(loader_version.min(vk::API_VERSION_1_3));
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: `info` points at data alive for this call; no layer or extension is
        // asked for. The instance is never destroyed (it lives in a static, with the
        // entry that keeps libvulkan loaded).
        let instance = unsafe { entry.create_instance(&info, None) }
            .inspect_err(|e| log::debug!("tessera-backend-vk: no keep-loaded instance: {e}"))
            .ok()?;
        Some((entry.clone(), instance))
    });
}

impl Gpu {
    /// Loads Vulkan and creates the instance and device.
    pub fn new(options: &VkOptions) -> Result<Self, CreateBackendError> {
        let (entry, loader_version) = load_entry()?;
        keep_drivers_loaded(&entry, loader_version);
        let api = loader_version.min(vk::API_VERSION_1_3);
        // SAFETY: a valid entry; the queries have no preconditions.
        let (layers, inst_exts) = unsafe {
            (
                entry
                    .enumerate_instance_layer_properties()
                    .unwrap_or_default(),
                ext_names(
                    &entry
                        .enumerate_instance_extension_properties(None)
                        .unwrap_or_default(),
                ),
            )
        };
        let validation = c"VK_LAYER_KHRONOS_validation";
        let mut enabled_layers: Vec<*const i8> = Vec::new();
        let mut enabled_exts: Vec<*const i8> = Vec::new();
        let has_ext = |name: &CStr| inst_exts.iter().any(|e| e.as_c_str() == name);
        if options.validation {
            let present = layers
                .iter()
                .any(|l| l.layer_name_as_c_str().ok() == Some(validation));
            if !present {
                return Err(CreateBackendError::NoValidationLayer);
            }
            enabled_layers.push(validation.as_ptr());
        }
        let debug_utils = options.validation && has_ext(ash::ext::debug_utils::NAME);
        if debug_utils {
            enabled_exts.push(ash::ext::debug_utils::NAME.as_ptr());
        }
        let mut flags = vk::InstanceCreateFlags::empty();
        if has_ext(ash::khr::portability_enumeration::NAME) {
            enabled_exts.push(ash::khr::portability_enumeration::NAME.as_ptr());
            flags |= vk::InstanceCreateFlags::ENUMERATE_PORTABILITY_KHR;
        }
        let surfaces = !options.floor
            && has_ext(ash::khr::surface::NAME)
            && has_ext(ash::khr::xcb_surface::NAME);
        if surfaces {
            enabled_exts.push(ash::khr::surface::NAME.as_ptr());
            enabled_exts.push(ash::khr::xcb_surface::NAME.as_ptr());
        }
        let app = vk::ApplicationInfo::default()
            .application_name(c"tessera")
            .engine_name(c"tessera")
            .api_version(api);
        let info = vk::InstanceCreateInfo::default()
            .flags(flags)
            .application_info(&app)
            .enabled_layer_names(&enabled_layers)
            .enabled_extension_names(&enabled_exts);
        let host = crate::census::HostAllocator::new();
        let callbacks = host.callbacks();
        // SAFETY: every pointer in `info` points at data alive for this call (static C
        // strings, local vectors); the layer and extensions were enumerated as present;
        // the callbacks' allocator lives until after the instance is destroyed (`host`).
        let instance = unsafe { entry.create_instance(&info, Some(&callbacks)) }.map_err(|e| {
            CreateBackendError::Vulkan {
                call: "vkCreateInstance",
                result: e,
            }
        })?;
        let messages: Messages = Arc::new(Mutex::new(Vec::new()));
        let debug = if debug_utils {
            let loader = ash::ext::debug_utils::Instance::new(&entry, &instance);
            let user = Arc::into_raw(messages.clone());
            let info = vk::DebugUtilsMessengerCreateInfoEXT::default()
                .message_severity(
                    vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                        | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
                )
                .message_type(
                    vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                        | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION,
                )
                .pfn_user_callback(Some(on_message))
                .user_data(user as *mut c_void);
            // SAFETY: a live instance with VK_EXT_debug_utils enabled; the callback is a
            // plain function and `user` stays alive until Gpu::drop reclaims it after
            // destroying the messenger.
            match unsafe { loader.create_debug_utils_messenger(&info, None) } {
                Ok(m) => Some((loader, m, user)),
                Err(_) => {
                    // SAFETY: `user` came from Arc::into_raw above and was not handed out.
                    unsafe { drop(Arc::from_raw(user)) };
                    None
                }
            }
        } else {
            None
        };
        let mut gpu_parts = match Self::pick_and_create(&instance, options, surfaces) {
            Ok(p) => p,
            Err(e) => {
                // SAFETY: nothing created from the instance is alive except the messenger,
                // destroyed first.
                unsafe {
                    if let Some((loader, m, user)) = debug {
                        loader.destroy_debug_utils_messenger(m, None);
                        drop(Arc::from_raw(user));
                    }
                    instance.destroy_instance(Some(&callbacks));
                }
                return Err(e);
            }
        };
        gpu_parts.tiers.api_version = gpu_parts.tiers.api_version.min(api);
        let push = gpu_parts
            .tiers
            .push_descriptors
            .then(|| ash::khr::push_descriptor::Device::new(&instance, &gpu_parts.device));
        let xfb = gpu_parts
            .tiers
            .transform_feedback
            .then(|| ash::ext::transform_feedback::Device::new(&instance, &gpu_parts.device));
        let conditional = gpu_parts
            .tiers
            .conditional_rendering
            .then(|| ash::ext::conditional_rendering::Device::new(&instance, &gpu_parts.device));
        let multi_draw = (gpu_parts.tiers.multi_draw > 0)
            .then(|| ash::ext::multi_draw::Device::new(&instance, &gpu_parts.device));
        let memory_fd = gpu_parts
            .tiers
            .memory_export
            .then(|| ash::khr::external_memory_fd::Device::new(&instance, &gpu_parts.device));
        let semaphore_fd = (gpu_parts.tiers.semaphore_fd || gpu_parts.tiers.sync_fd_export)
            .then(|| ash::khr::external_semaphore_fd::Device::new(&instance, &gpu_parts.device));
        let wsi = gpu_parts.tiers.present.then(|| Wsi {
            surface: ash::khr::surface::Instance::new(&entry, &instance),
            xcb: ash::khr::xcb_surface::Instance::new(&entry, &instance),
            swapchain: ash::khr::swapchain::Device::new(&instance, &gpu_parts.device),
            present_wait: gpu_parts
                .tiers
                .present_wait
                .then(|| ash::khr::present_wait::Device::new(&instance, &gpu_parts.device)),
        });
        Ok(Self {
            _entry: entry,
            instance,
            debug,
            phys: gpu_parts.phys,
            device: gpu_parts.device,
            queue: gpu_parts.queue,
            family: gpu_parts.family,
            props: gpu_parts.props,
            tiers: gpu_parts.tiers,
            core: gpu_parts.core,
            push,
            xfb,
            conditional,
            multi_draw,
            memory_fd,
            semaphore_fd,
            queue_lock: None,
            owned: true,
            wsi,
            messages,
            name: gpu_parts.name,
            host,
        })
    }

    fn pick_and_create(
        instance: &ash::Instance,
        options: &VkOptions,
        surfaces: bool,
    ) -> Result<Parts, CreateBackendError> {
        let cands = candidates(instance)?;
        let chosen = choose(&cands, options)?;
        let Some(family) = chosen.family else {
            crate::device::backend_bug("a usable device without a graphics queue");
        };
        create_device(
            instance,
            chosen.phys,
            chosen.props,
            family,
            chosen.name.clone(),
            options,
            surfaces,
        )
    }
}

/// A physical device, as enumerated.
struct Cand {
    index: usize,
    phys: vk::PhysicalDevice,
    props: vk::PhysicalDeviceProperties,
    uuid: [u8; 16],
    family: Option<u32>,
    name: String,
}

/// The instance's physical devices, in enumeration order.
fn candidates(instance: &ash::Instance) -> Result<Vec<Cand>, CreateBackendError> {
    // SAFETY: a live instance.
    let physicals = unsafe { instance.enumerate_physical_devices() }.map_err(|e| {
        CreateBackendError::Vulkan {
            call: "vkEnumeratePhysicalDevices",
            result: e,
        }
    })?;
    Ok(physicals
        .iter()
        .enumerate()
        .map(|(index, &phys)| {
            let mut id = vk::PhysicalDeviceIDProperties::default();
            let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut id);
            // SAFETY: a physical device of this instance; the chain is well formed.
            let (props, families) = unsafe {
                instance.get_physical_device_properties2(phys, &mut props2);
                (
                    props2.properties,
                    instance.get_physical_device_queue_family_properties(phys),
                )
            };
            let family = families
                .iter()
                .position(|f| f.queue_flags.contains(vk::QueueFlags::GRAPHICS))
                .map(|i| i as u32);
            let name = props
                .device_name_as_c_str()
                .map(|c| c.to_string_lossy().into_owned())
                .unwrap_or_default();
            Cand {
                index,
                phys,
                props,
                uuid: id.device_uuid,
                family,
                name,
            }
        })
        .collect())
}

/// The device to use: the one `options.device` or `TESSERA_VK_DEVICE` names, else the best
/// usable one (the rule of the module's documentation).
fn choose<'a>(cands: &'a [Cand], options: &VkOptions) -> Result<&'a Cand, CreateBackendError> {
    let usable = |c: &&Cand| c.props.api_version >= vk::API_VERSION_1_1 && c.family.is_some();
    let wanted = options
        .device
        .clone()
        .or_else(|| std::env::var("TESSERA_VK_DEVICE").ok())
        .filter(|s| !s.trim().is_empty());
    match wanted {
        Some(w) => {
            let w = w.trim().to_owned();
            let found = if let Ok(i) = w.parse::<usize>() {
                cands.iter().find(|c| c.index == i)
            } else if let Some(u) = parse_uuid(&w) {
                cands.iter().find(|c| c.uuid == u)
            } else {
                let lower = w.to_lowercase();
                cands
                    .iter()
                    .find(|c| c.name.to_lowercase().contains(&lower))
            };
            let listed = || {
                cands
                    .iter()
                    .map(|c| format!("{}: {} ({})", c.index, c.name, uuid_text(&c.uuid)))
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            found
                .filter(usable)
                .ok_or_else(|| CreateBackendError::NoDevice {
                    wanted: Some(w),
                    found: listed(),
                })
        }
        None => {
            let rank = |t: vk::PhysicalDeviceType| match t {
                vk::PhysicalDeviceType::DISCRETE_GPU => 4,
                vk::PhysicalDeviceType::INTEGRATED_GPU => 3,
                vk::PhysicalDeviceType::VIRTUAL_GPU => 2,
                vk::PhysicalDeviceType::CPU => 1,
                _ => 0,
            };
            cands
                .iter()
                .filter(usable)
                .max_by_key(|c| (rank(c.props.device_type), c.props.api_version))
                .ok_or_else(|| CreateBackendError::NoDevice {
                    wanted: None,
                    found: cands
                        .iter()
                        .map(|c| format!("{}: {}", c.index, c.name))
                        .collect::<Vec<_>>()
                        .join("; "),
                })
        }
    }
}

/// The device [`VulkanBackend::new`](crate::VulkanBackend::new) would choose, found
/// without creating it (see [`probe_device`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceSummary {
    /// Its name, in the driver's words (lavapipe calls itself `llvmpipe (LLVM …)`).
    pub name: String,
    /// Its `VkPhysicalDeviceType` is `CPU`: a software rasterizer (lavapipe, SwiftShader).
    /// Discrete, integrated, virtual and other devices are hardware.
    pub software: bool,
}

/// Which device the backend would choose with `options` (and `TESSERA_VK_DEVICE`), and
/// whether it is a software rasterizer, without creating a device: loads Vulkan, creates a
/// bare instance (no layers), enumerates the physical devices, and destroys the instance.
/// An error is the one [`VulkanBackend::with_options`](crate::VulkanBackend::with_options)
/// would report for the same reason (no loader, too old, no usable device). Used by the
/// engine's `auto` backend choice.
pub fn probe_device(options: &VkOptions) -> Result<DeviceSummary, CreateBackendError> {
    let (entry, loader_version) = load_entry()?;
    // SAFETY: a valid entry; the query has no preconditions.
    let portability = unsafe { entry.enumerate_instance_extension_properties(None) }
        .map(|exts| ext_names(&exts))
        .unwrap_or_default()
        .iter()
        .any(|e| e.as_c_str() == ash::khr::portability_enumeration::NAME);
    let mut enabled_exts: Vec<*const i8> = Vec::new();
    let mut flags = vk::InstanceCreateFlags::empty();
    if portability {
        enabled_exts.push(ash::khr::portability_enumeration::NAME.as_ptr());
        flags |= vk::InstanceCreateFlags::ENUMERATE_PORTABILITY_KHR;
    }
    let app = vk::ApplicationInfo::default()
        .application_name(c"tessera")
        .engine_name(c"tessera")
        .api_version(loader_version.min(vk::API_VERSION_1_3));
    let info = vk::InstanceCreateInfo::default()
        .flags(flags)
        .application_info(&app)
        .enabled_extension_names(&enabled_exts);
    // SAFETY: every pointer in `info` points at data alive for this call (static C strings,
    // a local vector); the extension was enumerated as present.
    let instance =
        unsafe { entry.create_instance(&info, None) }.map_err(|e| CreateBackendError::Vulkan {
            call: "vkCreateInstance",
            result: e,
        })?;
    let summary = candidates(&instance).and_then(|cands| {
        choose(&cands, options).map(|c| DeviceSummary {
            name: c.name.clone(),
            software: c.props.device_type == vk::PhysicalDeviceType::CPU,
        })
    });
    // SAFETY: nothing was created from the instance; it is destroyed once, after its last
    // use.
    unsafe { instance.destroy_instance(None) };
    summary
}

struct Parts {
    phys: vk::PhysicalDevice,
    device: ash::Device,
    queue: vk::Queue,
    family: u32,
    props: vk::PhysicalDeviceProperties,
    tiers: Tiers,
    core: CoreFeatures,
    name: String,
}

/// The core features the backend uses, of those `have` (supported, or a host's enabled).
pub(crate) fn core_features(have: &vk::PhysicalDeviceFeatures) -> CoreFeatures {
    let yes = |b: vk::Bool32| b == vk::TRUE;
    CoreFeatures {
        robust_buffer_access: yes(have.robust_buffer_access),
        geometry_shader: yes(have.geometry_shader),
        tessellation_shader: yes(have.tessellation_shader),
        fill_mode_non_solid: yes(have.fill_mode_non_solid),
        wide_lines: yes(have.wide_lines),
        large_points: yes(have.large_points),
        logic_op: yes(have.logic_op),
        dual_src_blend: yes(have.dual_src_blend),
        independent_blend: yes(have.independent_blend),
        depth_clamp: yes(have.depth_clamp),
        depth_bias_clamp: yes(have.depth_bias_clamp),
        sampler_anisotropy: yes(have.sampler_anisotropy),
        occlusion_query_precise: yes(have.occlusion_query_precise),
        alpha_to_one: yes(have.alpha_to_one),
        vertex_pipeline_stores: yes(have.vertex_pipeline_stores_and_atomics),
        fragment_stores: yes(have.fragment_stores_and_atomics),
        multi_draw_indirect: yes(have.multi_draw_indirect),
        pipeline_statistics_query: yes(have.pipeline_statistics_query),
        draw_indirect_first_instance: yes(have.draw_indirect_first_instance),
        image_cube_array: yes(have.image_cube_array),
        sample_rate_shading: yes(have.sample_rate_shading),
        image_gather_extended: yes(have.shader_image_gather_extended),
        array_dynamic_indexing: yes(have.shader_uniform_buffer_array_dynamic_indexing)
            && yes(have.shader_storage_buffer_array_dynamic_indexing),
        shader_float64: yes(have.shader_float64),
        multi_viewport: yes(have.multi_viewport),
        shader_cull_distance: yes(have.shader_cull_distance),
    }
}

/// `features` with `next` chained when `enable` (its extension is enabled).
fn chain_if<'a, T: vk::ExtendsPhysicalDeviceFeatures2 + ?Sized>(
    features: vk::PhysicalDeviceFeatures2<'a>,
    enable: bool,
    next: &'a mut T,
) -> vk::PhysicalDeviceFeatures2<'a> {
    if enable {
        features.push_next(next)
    } else {
        features
    }
}

fn version_text(v: u32) -> String {
    format!(
        "{}.{}.{}",
        vk::api_version_major(v),
        vk::api_version_minor(v),
        vk::api_version_patch(v)
    )
}

fn create_device(
    instance: &ash::Instance,
    phys: vk::PhysicalDevice,
    props: vk::PhysicalDeviceProperties,
    family: u32,
    name: String,
    options: &VkOptions,
    surfaces: bool,
) -> Result<Parts, CreateBackendError> {
    // SAFETY: a physical device of this instance.
    let exts = ext_names(
        &unsafe { instance.enumerate_device_extension_properties(phys) }.unwrap_or_default(),
    );
    let has = |n: &CStr| exts.iter().any(|e| e.as_c_str() == n);
    let optional = !options.floor;
    // SAFETY: a physical device of this instance.
    let memory = unsafe { instance.get_physical_device_memory_properties(phys) };
    let mut tiers = Tiers {
        api_version: props.api_version,
        mapped_buffers: optional && crate::memory::unified(&memory),
        ..Tiers::default()
    };
    let mut dcc = vk::PhysicalDeviceDepthClipControlFeaturesEXT::default();
    let mut pv = vk::PhysicalDeviceProvokingVertexFeaturesEXT::default();
    let mut cbc = vk::PhysicalDeviceCustomBorderColorFeaturesEXT::default();
    let mut u8i = vk::PhysicalDeviceIndexTypeUint8FeaturesEXT::default();
    let mut lr = vk::PhysicalDevicePrimitiveTopologyListRestartFeaturesEXT::default();
    let mut div = vk::PhysicalDeviceVertexAttributeDivisorFeaturesKHR::default();
    let mut pid = vk::PhysicalDevicePresentIdFeaturesKHR::default();
    let mut pw = vk::PhysicalDevicePresentWaitFeaturesKHR::default();
    let mut xfb = vk::PhysicalDeviceTransformFeedbackFeaturesEXT::default();
    let mut pgq = vk::PhysicalDevicePrimitivesGeneratedQueryFeaturesEXT::default();
    let mut cr = vk::PhysicalDeviceConditionalRenderingFeaturesEXT::default();
    let mut sdp = vk::PhysicalDeviceShaderDrawParametersFeatures::default();
    let mut v2d = vk::PhysicalDeviceImage2DViewOf3DFeaturesEXT::default();
    let mut afl = vk::PhysicalDeviceAttachmentFeedbackLoopLayoutFeaturesEXT::default();
    let mut v12f = vk::PhysicalDeviceVulkan12Features::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default();
    let v11 = props.api_version >= vk::API_VERSION_1_1;
    if v11 {
        f2 = f2.push_next(&mut sdp);
    }
    let v12 = props.api_version >= vk::API_VERSION_1_2;
    if v12 {
        f2 = f2.push_next(&mut v12f);
    }
    let e_xfb = has(ash::ext::transform_feedback::NAME);
    if e_xfb {
        f2 = f2.push_next(&mut xfb);
    }
    let e_pgq = has(ash::ext::primitives_generated_query::NAME);
    if e_pgq {
        f2 = f2.push_next(&mut pgq);
    }
    let e_cr = has(ash::ext::conditional_rendering::NAME);
    if e_cr {
        f2 = f2.push_next(&mut cr);
    }
    let e_v2d = has(ash::ext::image_2d_view_of_3d::NAME);
    if e_v2d {
        f2 = f2.push_next(&mut v2d);
    }
    let e_afl = has(ash::ext::attachment_feedback_loop_layout::NAME);
    if e_afl {
        f2 = f2.push_next(&mut afl);
    }
    let e_div = has(ash::ext::vertex_attribute_divisor::NAME);
    if e_div {
        f2 = f2.push_next(&mut div);
    }
    let mut md = vk::PhysicalDeviceMultiDrawFeaturesEXT::default();
    let e_md = has(ash::ext::multi_draw::NAME);
    if e_md {
        f2 = f2.push_next(&mut md);
    }
    let (e_dcc, e_pv, e_cbc, e_u8, e_lr) = (
        has(ash::ext::depth_clip_control::NAME),
        has(ash::ext::provoking_vertex::NAME),
        has(ash::ext::custom_border_color::NAME),
        has(ash::ext::index_type_uint8::NAME),
        has(ash::ext::primitive_topology_list_restart::NAME),
    );
    if e_dcc {
        f2 = f2.push_next(&mut dcc);
    }
    if e_pv {
        f2 = f2.push_next(&mut pv);
    }
    if e_cbc {
        f2 = f2.push_next(&mut cbc);
    }
    if e_u8 {
        f2 = f2.push_next(&mut u8i);
    }
    if e_lr {
        f2 = f2.push_next(&mut lr);
    }
    let e_swapchain = surfaces && has(ash::khr::swapchain::NAME);
    let e_wait =
        e_swapchain && has(ash::khr::present_id::NAME) && has(ash::khr::present_wait::NAME);
    if e_wait {
        f2 = f2.push_next(&mut pid).push_next(&mut pw);
    }
    // SAFETY: a physical device of this instance; every chained struct extends
    // VkPhysicalDeviceFeatures2 and belongs to an extension the device has.
    unsafe { instance.get_physical_device_features2(phys, &mut f2) };
    let have = f2.features;
    let (dcc_ok, pv_ok, cbc_ok, cbc_nofmt, u8_ok, lr_ok) = (
        e_dcc && dcc.depth_clip_control == vk::TRUE,
        e_pv && pv.provoking_vertex_last == vk::TRUE,
        e_cbc && cbc.custom_border_colors == vk::TRUE,
        cbc.custom_border_color_without_format == vk::TRUE,
        e_u8 && u8i.index_type_uint8 == vk::TRUE,
        e_lr && lr.primitive_topology_list_restart == vk::TRUE,
    );
    let portability = has(c"VK_KHR_portability_subset");
    tiers.push_descriptors = optional && has(ash::khr::push_descriptor::NAME);
    tiers.depth_clip_control = optional && dcc_ok;
    tiers.provoking_vertex = optional && pv_ok;
    tiers.custom_border_color = optional && cbc_ok && cbc_nofmt;
    tiers.index_u8 = optional && u8_ok;
    tiers.list_restart = optional && lr_ok;
    tiers.mirror_clamp = optional
        && has(ash::khr::sampler_mirror_clamp_to_edge::NAME)
        && (!v12 || v12f.sampler_mirror_clamp_to_edge == vk::TRUE);
    tiers.vertex_divisor =
        optional && e_div && div.vertex_attribute_instance_rate_divisor == vk::TRUE;
    tiers.triangle_fans = !portability && optional;
    tiers.subgroup_vote = optional && has(ash::ext::shader_subgroup_vote::NAME);
    tiers.dynamic_rendering =
        props.api_version >= vk::API_VERSION_1_3 || has(ash::khr::dynamic_rendering::NAME);
    tiers.extended_dynamic_state = [
        props.api_version >= vk::API_VERSION_1_3 || has(ash::ext::extended_dynamic_state::NAME),
        props.api_version >= vk::API_VERSION_1_3 || has(ash::ext::extended_dynamic_state2::NAME),
        has(ash::ext::extended_dynamic_state3::NAME),
    ];
    tiers.vertex_input_dynamic_state = has(ash::ext::vertex_input_dynamic_state::NAME);
    tiers.graphics_pipeline_library = has(ash::ext::graphics_pipeline_library::NAME);
    tiers.present = e_swapchain;
    tiers.memory_export = optional && v11 && has(ash::khr::external_memory_fd::NAME);
    tiers.dma_buf_export = tiers.memory_export && has(ash::ext::external_memory_dma_buf::NAME);
    tiers.semaphore_fd = optional
        && v11
        && has(ash::khr::external_semaphore_fd::NAME)
        && crate::semaphore::imports_opaque_fd(instance, phys);
    tiers.sync_fd_export = optional
        && v11
        && has(ash::khr::external_semaphore_fd::NAME)
        && crate::semaphore::exports_sync_fd(instance, phys);
    tiers.present_wait = e_wait && pid.present_id == vk::TRUE && pw.present_wait == vk::TRUE;
    let mut xfb_props = vk::PhysicalDeviceTransformFeedbackPropertiesEXT::default();
    if e_xfb {
        let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut xfb_props);
        // SAFETY: a physical device of this instance; the chained struct belongs to an
        // extension it has.
        unsafe { instance.get_physical_device_properties2(phys, &mut p2) };
    }
    tiers.draw_parameters = v11 && sdp.shader_draw_parameters == vk::TRUE;
    tiers.view_2d_of_3d = e_v2d && v2d.image2_d_view_of3_d == vk::TRUE;
    tiers.draw_indirect_count = v12 && v12f.draw_indirect_count == vk::TRUE;
    tiers.conditional_rendering = optional && e_cr && cr.conditional_rendering == vk::TRUE;
    tiers.feedback_loop = optional && e_afl && afl.attachment_feedback_loop_layout == vk::TRUE;
    if optional && e_md && md.multi_draw == vk::TRUE {
        let mut md_props = vk::PhysicalDeviceMultiDrawPropertiesEXT::default();
        let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut md_props);
        // SAFETY: a physical device of this instance; the chained struct belongs to an
        // extension it has.
        unsafe { instance.get_physical_device_properties2(phys, &mut p2) };
        tiers.multi_draw = md_props.max_multi_draw_count;
    }
    tiers.transform_feedback = e_xfb
        && xfb.transform_feedback == vk::TRUE
        && xfb_props.transform_feedback_queries == vk::TRUE
        && xfb_props.transform_feedback_draw == vk::TRUE
        && xfb_props.max_transform_feedback_buffers >= 4;
    tiers.primitives_generated = e_pgq
        && pgq.primitives_generated_query == vk::TRUE
        && pgq.primitives_generated_query_with_rasterizer_discard == vk::TRUE;
    tiers.vertex_streams = if tiers.transform_feedback
        && have.geometry_shader == vk::TRUE
        && xfb.geometry_streams == vk::TRUE
        && xfb_props.max_transform_feedback_streams >= 4
        && (!tiers.primitives_generated
            || pgq.primitives_generated_query_with_non_zero_streams == vk::TRUE)
    {
        4
    } else {
        1
    };

    let core = core_features(&have);
    let enabled = vk::PhysicalDeviceFeatures {
        // Every buffer read stays inside its buffer, whatever the records say: GL's robust
        // buffer access, and a server that never reads past a buffer for a session.
        robust_buffer_access: have.robust_buffer_access,
        geometry_shader: have.geometry_shader,
        tessellation_shader: have.tessellation_shader,
        fill_mode_non_solid: have.fill_mode_non_solid,
        wide_lines: have.wide_lines,
        large_points: have.large_points,
        logic_op: have.logic_op,
        dual_src_blend: have.dual_src_blend,
        independent_blend: have.independent_blend,
        depth_clamp: have.depth_clamp,
        depth_bias_clamp: have.depth_bias_clamp,
        sampler_anisotropy: have.sampler_anisotropy,
        occlusion_query_precise: have.occlusion_query_precise,
        texture_compression_bc: have.texture_compression_bc,
        alpha_to_one: have.alpha_to_one,
        shader_clip_distance: have.shader_clip_distance,
        shader_cull_distance: have.shader_cull_distance,
        full_draw_index_uint32: have.full_draw_index_uint32,
        image_cube_array: have.image_cube_array,
        sample_rate_shading: have.sample_rate_shading,
        shader_image_gather_extended: have.shader_image_gather_extended,
        // GL 4.0's sampler and block arrays indexed by dynamically uniform expressions.
        shader_sampled_image_array_dynamic_indexing: have
            .shader_sampled_image_array_dynamic_indexing,
        shader_uniform_buffer_array_dynamic_indexing: have
            .shader_uniform_buffer_array_dynamic_indexing,
        shader_storage_buffer_array_dynamic_indexing: have
            .shader_storage_buffer_array_dynamic_indexing,
        // GL 4.0's doubles.
        shader_float64: have.shader_float64,
        // GL 4.1's viewport arrays.
        multi_viewport: have.multi_viewport,
        // The frontend's point-size emulation writes PointSize from geometry stages that
        // emit points.
        shader_tessellation_and_geometry_point_size: have
            .shader_tessellation_and_geometry_point_size,
        // GL's shader storage blocks may be written in every stage.
        vertex_pipeline_stores_and_atomics: have.vertex_pipeline_stores_and_atomics,
        fragment_stores_and_atomics: have.fragment_stores_and_atomics,
        // GL's indirect draws: several commands in one call, base instances read from them.
        multi_draw_indirect: have.multi_draw_indirect,
        draw_indirect_first_instance: have.draw_indirect_first_instance,
        // GL 4.6's pipeline statistics queries.
        pipeline_statistics_query: have.pipeline_statistics_query,
        ..Default::default()
    };
    // The optional extensions the tiers use, in the order they are named.
    let optional = [
        (
            tiers.vertex_divisor,
            ash::ext::vertex_attribute_divisor::NAME,
        ),
        (tiers.push_descriptors, ash::khr::push_descriptor::NAME),
        (tiers.depth_clip_control, ash::ext::depth_clip_control::NAME),
        (tiers.provoking_vertex, ash::ext::provoking_vertex::NAME),
        (
            tiers.custom_border_color,
            ash::ext::custom_border_color::NAME,
        ),
        (tiers.index_u8, ash::ext::index_type_uint8::NAME),
        (
            tiers.list_restart,
            ash::ext::primitive_topology_list_restart::NAME,
        ),
        (
            tiers.mirror_clamp,
            ash::khr::sampler_mirror_clamp_to_edge::NAME,
        ),
        (portability, c"VK_KHR_portability_subset"),
        (tiers.present, ash::khr::swapchain::NAME),
        (tiers.present_wait, ash::khr::present_id::NAME),
        (tiers.present_wait, ash::khr::present_wait::NAME),
        (tiers.subgroup_vote, ash::ext::shader_subgroup_vote::NAME),
        (tiers.transform_feedback, ash::ext::transform_feedback::NAME),
        (
            tiers.primitives_generated,
            ash::ext::primitives_generated_query::NAME,
        ),
        (tiers.view_2d_of_3d, ash::ext::image_2d_view_of_3d::NAME),
        (
            tiers.conditional_rendering,
            ash::ext::conditional_rendering::NAME,
        ),
        (
            tiers.feedback_loop,
            ash::ext::attachment_feedback_loop_layout::NAME,
        ),
        (tiers.multi_draw > 0, ash::ext::multi_draw::NAME),
        (tiers.memory_export, ash::khr::external_memory_fd::NAME),
        (
            tiers.dma_buf_export,
            ash::ext::external_memory_dma_buf::NAME,
        ),
        (
            tiers.semaphore_fd || tiers.sync_fd_export,
            ash::khr::external_semaphore_fd::NAME,
        ),
    ];
    let names: Vec<*const i8> = optional
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| name.as_ptr())
        .collect();
    let mut on_dcc =
        vk::PhysicalDeviceDepthClipControlFeaturesEXT::default().depth_clip_control(true);
    let mut on_pv =
        vk::PhysicalDeviceProvokingVertexFeaturesEXT::default().provoking_vertex_last(true);
    let mut on_cbc = vk::PhysicalDeviceCustomBorderColorFeaturesEXT::default()
        .custom_border_colors(true)
        .custom_border_color_without_format(true);
    let mut on_u8 = vk::PhysicalDeviceIndexTypeUint8FeaturesEXT::default().index_type_uint8(true);
    let mut on_lr = vk::PhysicalDevicePrimitiveTopologyListRestartFeaturesEXT::default()
        .primitive_topology_list_restart(true);
    let mut on_div = vk::PhysicalDeviceVertexAttributeDivisorFeaturesKHR::default()
        .vertex_attribute_instance_rate_divisor(true);
    let mut on_pid = vk::PhysicalDevicePresentIdFeaturesKHR::default().present_id(true);
    let mut on_pw = vk::PhysicalDevicePresentWaitFeaturesKHR::default().present_wait(true);
    // The features of the extensions named, chained in that order.
    let on = vk::PhysicalDeviceFeatures2::default().features(enabled);
    let on = chain_if(on, tiers.vertex_divisor, &mut on_div);
    let on = chain_if(on, tiers.depth_clip_control, &mut on_dcc);
    let on = chain_if(on, tiers.provoking_vertex, &mut on_pv);
    let on = chain_if(on, tiers.custom_border_color, &mut on_cbc);
    let on = chain_if(on, tiers.index_u8, &mut on_u8);
    let on = chain_if(on, tiers.list_restart, &mut on_lr);
    let on = chain_if(on, tiers.present_wait, &mut on_pid);
    let on = chain_if(on, tiers.present_wait, &mut on_pw);
    let mut on_xfb = vk::PhysicalDeviceTransformFeedbackFeaturesEXT::default()
        .transform_feedback(true)
        .geometry_streams(tiers.vertex_streams > 1);
    let mut on_pgq = vk::PhysicalDevicePrimitivesGeneratedQueryFeaturesEXT::default()
        .primitives_generated_query(true)
        .primitives_generated_query_with_rasterizer_discard(true)
        .primitives_generated_query_with_non_zero_streams(tiers.vertex_streams > 1);
    let on = chain_if(on, tiers.transform_feedback, &mut on_xfb);
    let on = chain_if(on, tiers.primitives_generated, &mut on_pgq);
    let mut on_sdp =
        vk::PhysicalDeviceShaderDrawParametersFeatures::default().shader_draw_parameters(true);
    let on = chain_if(on, tiers.draw_parameters, &mut on_sdp);
    let mut on_v2d =
        vk::PhysicalDeviceImage2DViewOf3DFeaturesEXT::default().image2_d_view_of3_d(true);
    let on = chain_if(on, tiers.view_2d_of_3d, &mut on_v2d);
    let mut on_cr =
        vk::PhysicalDeviceConditionalRenderingFeaturesEXT::default().conditional_rendering(true);
    let on = chain_if(on, tiers.conditional_rendering, &mut on_cr);
    let mut on_afl = vk::PhysicalDeviceAttachmentFeedbackLoopLayoutFeaturesEXT::default()
        .attachment_feedback_loop_layout(true);
    let on = chain_if(on, tiers.feedback_loop, &mut on_afl);
    let mut on_md = vk::PhysicalDeviceMultiDrawFeaturesEXT::default().multi_draw(true);
    let on = chain_if(on, tiers.multi_draw > 0, &mut on_md);
    // With Vulkan 1.2's features chained, each enabled extension promoted to 1.2 must have
    // its feature set there too (VUID-VkDeviceCreateInfo-ppEnabledExtensionNames-02832).
    let mut on_v12 = vk::PhysicalDeviceVulkan12Features::default()
        .draw_indirect_count(tiers.draw_indirect_count)
        .sampler_mirror_clamp_to_edge(tiers.mirror_clamp);
    let mut on = chain_if(on, v12, &mut on_v12);
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(family)
        .queue_priorities(&priorities)];
    let info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&names)
        .push_next(&mut on);
    // SAFETY: a physical device of this instance; every extension named is present (just
    // enumerated) and every enabled feature was reported as supported; the pointers in
    // `info` are alive for the call.
    let device = unsafe { instance.create_device(phys, &info, None) }.map_err(|e| {
        CreateBackendError::Vulkan {
            call: "vkCreateDevice",
            result: e,
        }
    })?;
    // SAFETY: the device was created with one queue of `family`.
    let queue = unsafe { device.get_device_queue(family, 0) };
    Ok(Parts {
        phys,
        device,
        queue,
        family,
        props,
        tiers,
        core,
        name,
    })
}

impl Gpu {
    /// Takes the messages the messenger received so far.
    pub fn take_messages(&self) -> Vec<String> {
        std::mem::take(&mut *self.messages.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        if !self.owned {
            // A host's device and instance: the host destroys them.
            return;
        }
        // SAFETY: the device's objects were destroyed by VkPipe::drop (which runs first: the
        // backend declares `dev` before `gpu`); then the device, the messenger (whose user
        // pointer is reclaimed only after it is gone) and the instance, each once.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_device(None);
            // Messages of the teardown itself (objects left alive) have no batch to ride on.
            for m in self.take_messages() {
                log::warn!("tessera-backend-vk: validation at teardown: {m}");
            }
            if let Some((loader, m, user)) = self.debug.take() {
                loader.destroy_debug_utils_messenger(m, None);
                drop(Arc::from_raw(user));
            }
            self.instance.destroy_instance(Some(&self.host.callbacks()));
        }
    }
}

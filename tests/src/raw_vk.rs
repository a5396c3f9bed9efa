//! The benchmark's raw-Vulkan floor: bench scenes hand-written with ash on lavapipe, as a
//! careful engineer writes them per draw. One pipeline per blend state made at setup,
//! per-draw uniforms as push constants, a descriptor set per texture written once, vertex
//! buffers bound with `vkCmdBindVertexBuffers`, one command buffer per frame from a ring of
//! [`RING`] recycled by fence. The target is a [`BENCH_SIZE`]² RGBA8 image whose rows are
//! in GL's read-back order (clip-space `y = -1` is row 0 in both APIs), so its hash is
//! comparable with the GL implementations'.
//!
//! Every bench scene is written ([`RawBench::supports`]). `ubochange` binds a descriptor
//! set per uniform buffer, each written once; `shaderheavy` runs the GL scene's shader,
//! its seed pushed per draw.
#![expect(unsafe_code, reason = "Vulkan calls through ash")]

use ash::vk;

use crate::scenes::{
    BENCH_HEAVY_FS, BENCH_PROGRAMS, BENCH_SIZE, BENCH_UBOS, BenchScene, MANY_OBJECTS,
    MULTIDRAW_BATCH, STATECHANGE_TEXTURES, STATECHANGE_VAOS, UPLOAD_BYTES, app_work, colour,
    persistent_variants, scatter, upload_bytes,
};

/// Command buffers (and fences) a frame ring cycles through.
pub const RING: usize = 3;
/// Positions per-draw offsets cycle through (as the GL scenes').
const OFFSETS: usize = 256;

const VS: &str = "#version 450
layout(location = 0) in vec2 position;
layout(push_constant) uniform P { vec4 offset; vec4 tint; } pc;
layout(location = 0) out vec2 uv;
void main() {
    uv = position;
    gl_Position = vec4(position * 0.0625 + pc.offset.xy, 0.0, 1.0);
}
";

/// The textured fragment shader; `programchange`'s programs each specialize `factor` (the
/// GL programs' distinct constant), the others leave it 1.
const FS: &str = "#version 450
layout(location = 0) in vec2 uv;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(push_constant) uniform P { vec4 offset; vec4 tint; } pc;
layout(constant_id = 0) const float factor = 1.0;
layout(location = 0) out vec4 color;
void main() {
    color = texture(tex, uv) * pc.tint * factor;
}
";

/// The flat scenes' vertex shader: positions in clip space as they are.
const FLAT_VS: &str = "#version 450
layout(location = 0) in vec2 position;
void main() {
    gl_Position = vec4(position, 0.0, 1.0);
}
";

/// The flat scenes' fragment shader: the pushed tint.
const FLAT_FS: &str = "#version 450
layout(push_constant) uniform P { vec4 offset; vec4 tint; } pc;
layout(location = 0) out vec4 color;
void main() {
    color = pc.tint;
}
";

/// `ubochange`'s vertex shader: the offset from the bound uniform buffer.
const UBO_VS: &str = "#version 450
layout(location = 0) in vec2 position;
layout(set = 0, binding = 0, std140) uniform Params { vec4 offset; vec4 tint; };
void main() {
    gl_Position = vec4(position * 0.0625 + offset.xy, 0.0, 1.0);
}
";

/// `ubochange`'s fragment shader: the colour from the bound uniform buffer.
const UBO_FS: &str = "#version 450
layout(set = 0, binding = 0, std140) uniform Params { vec4 offset; vec4 tint; };
layout(location = 0) out vec4 color;
void main() {
    color = tint;
}
";

/// `shaderheavy`'s fragment shader: the GL scene's own (`BENCH_HEAVY_FS`), its seed
/// pushed. Vulkan's `gl_FragCoord` counts rows from the target's row 0 as GL's does (rows are
/// in GL's read-back order), so every pixel hashes the same coordinates.
fn heavy_fs() -> String {
    BENCH_HEAVY_FS
        .replace("#version 330 core", "#version 450")
        .replace(
            "uniform uint seed;",
            "layout(push_constant) uniform P { uint seed; };",
        )
        .replace("out vec4 color;", "layout(location = 0) out vec4 color;")
}

/// Bytes between `ubochange`'s uniform buffers in their one buffer (a multiple of every
/// device's `minUniformBufferOffsetAlignment`).
const UBO_STRIDE: u64 = 256;

/// The flat scenes' colour (the GL scenes' `tint` uniform).
const FLAT_TINT: [f32; 4] = [0.9, 0.6, 0.2, 1.0];

/// The validation layer's messages of a [`RawVk`].
type Messages = std::sync::Mutex<Vec<String>>;

unsafe extern "system" fn on_message(
    _severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut std::ffi::c_void,
) -> vk::Bool32 {
    // SAFETY: the layer passes valid callback data; `user` is the boxed `Messages` of the
    // RawVk, which outlives the messenger.
    unsafe {
        let messages = &*user.cast::<Messages>();
        let text = if (*data).p_message.is_null() {
            String::new()
        } else {
            std::ffi::CStr::from_ptr((*data).p_message)
                .to_string_lossy()
                .into_owned()
        };
        messages
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(text);
    }
    vk::FALSE
}

fn vkr<T>(call: &str, r: Result<T, vk::Result>) -> Result<T, String> {
    r.map_err(|e| format!("{call}: {e}"))
}

/// SPIR-V of a GLSL stage through `glslangValidator` (setup only).
fn spirv(name: &str, src: &str) -> Result<Vec<u32>, String> {
    let dir = std::env::temp_dir().join(format!("tessera-rawvk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join(name);
    let out = dir.join(format!("{name}.spv"));
    std::fs::write(&path, src).map_err(|e| e.to_string())?;
    let status = std::process::Command::new("glslangValidator")
        .arg("-V")
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("glslangValidator: {e}"))?;
    if !status.success() {
        return Err(format!("glslangValidator failed on {name}"));
    }
    let bytes = std::fs::read(&out).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&dir);
    ash::util::read_spv(&mut std::io::Cursor::new(bytes)).map_err(|e| e.to_string())
}

/// A buffer in host-visible, coherent memory, mapped for its life.
struct Mapped {
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    ptr: *mut u8,
}

/// A sampled 4 x 4 texture and its descriptor set.
struct Texture {
    image: vk::Image,
    memory: vk::DeviceMemory,
    view: vk::ImageView,
    set: vk::DescriptorSet,
}

/// The device, the target and the frame ring.
pub struct RawVk {
    _entry: ash::Entry,
    /// Under the validation layer: its messenger and the messages it kept.
    validation: Option<(
        ash::ext::debug_utils::Instance,
        vk::DebugUtilsMessengerEXT,
        Box<Messages>,
    )>,
    instance: ash::Instance,
    device: ash::Device,
    memory_props: vk::PhysicalDeviceMemoryProperties,
    /// `VK_EXT_multi_draw`'s functions, when the device has the extension.
    multi_draw: Option<ash::ext::multi_draw::Device>,
    queue: vk::Queue,
    pool: vk::CommandPool,
    cmds: [vk::CommandBuffer; RING],
    fences: [vk::Fence; RING],
    /// Whether each ring slot's fence guards a submission not yet waited for.
    pending: [bool; RING],
    slot: usize,
    target: vk::Image,
    target_memory: vk::DeviceMemory,
    target_view: vk::ImageView,
    render_pass: vk::RenderPass,
    framebuffer: vk::Framebuffer,
    readback: Mapped,
}

impl RawVk {
    /// Opens the first Vulkan device (lavapipe under the bench's environment) with no layers.
    pub fn new() -> Result<Self, String> {
        Self::open(false)
    }

    /// [`RawVk::new`] under the Khronos validation layer, its warnings and errors kept
    /// ([`RawVk::messages`]); for tests, never the bench.
    pub fn with_validation() -> Result<Self, String> {
        Self::open(true)
    }

    /// The validation layer's warnings and errors so far, taken.
    pub fn messages(&self) -> Vec<String> {
        self.validation.as_ref().map_or_else(Vec::new, |(_, _, m)| {
            std::mem::take(&mut *m.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
        })
    }

    fn open(validate: bool) -> Result<Self, String> {
        // SAFETY: the loader is a system library; every call below follows the Vulkan spec's
        // valid usage for the objects made here, destroyed in `Drop`.
        unsafe {
            let entry = ash::Entry::load().map_err(|e| e.to_string())?;
            let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_2);
            let layers = [c"VK_LAYER_KHRONOS_validation".as_ptr()];
            let exts = [ash::ext::debug_utils::NAME.as_ptr()];
            let mut iinfo = vk::InstanceCreateInfo::default().application_info(&app);
            if validate {
                iinfo = iinfo
                    .enabled_layer_names(&layers)
                    .enabled_extension_names(&exts);
            }
            let instance = vkr("vkCreateInstance", entry.create_instance(&iinfo, None))?;
            let validation = if validate {
                let messages: Box<Messages> = Box::default();
                let debug = ash::ext::debug_utils::Instance::new(&entry, &instance);
                let m = vk::DebugUtilsMessengerCreateInfoEXT::default()
                    .message_severity(
                        vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                            | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
                    )
                    .message_type(
                        vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                            | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION,
                    )
                    .pfn_user_callback(Some(on_message))
                    .user_data(std::ptr::from_ref::<Messages>(&messages).cast_mut().cast());
                let messenger = vkr(
                    "vkCreateDebugUtilsMessengerEXT",
                    debug.create_debug_utils_messenger(&m, None),
                )?;
                Some((debug, messenger, messages))
            } else {
                None
            };
            let phys = *vkr(
                "vkEnumeratePhysicalDevices",
                instance.enumerate_physical_devices(),
            )?
            .first()
            .ok_or("no Vulkan device")?;
            let qfi = instance
                .get_physical_device_queue_family_properties(phys)
                .iter()
                .position(|q| q.queue_flags.contains(vk::QueueFlags::GRAPHICS))
                .ok_or("no graphics queue")? as u32;
            let prio = [1.0];
            let qinfo = [vk::DeviceQueueCreateInfo::default()
                .queue_family_index(qfi)
                .queue_priorities(&prio)];
            // VK_EXT_multi_draw where the device has it (`multidraw` draws through it).
            let has_multi_draw = vkr(
                "vkEnumerateDeviceExtensionProperties",
                instance.enumerate_device_extension_properties(phys),
            )?
            .iter()
            .any(|e| e.extension_name_as_c_str() == Ok(vk::EXT_MULTI_DRAW_NAME));
            let ext_names = [vk::EXT_MULTI_DRAW_NAME.as_ptr()];
            let mut multi_features =
                vk::PhysicalDeviceMultiDrawFeaturesEXT::default().multi_draw(true);
            let mut dinfo = vk::DeviceCreateInfo::default().queue_create_infos(&qinfo);
            if has_multi_draw {
                dinfo = dinfo
                    .enabled_extension_names(&ext_names)
                    .push_next(&mut multi_features);
            }
            let device = vkr("vkCreateDevice", instance.create_device(phys, &dinfo, None))?;
            let multi_draw =
                has_multi_draw.then(|| ash::ext::multi_draw::Device::new(&instance, &device));
            let memory_props = instance.get_physical_device_memory_properties(phys);
            let queue = device.get_device_queue(qfi, 0);
            let pool = vkr(
                "vkCreateCommandPool",
                device.create_command_pool(
                    &vk::CommandPoolCreateInfo::default()
                        .queue_family_index(qfi)
                        .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER),
                    None,
                ),
            )?;
            let cbs = vkr(
                "vkAllocateCommandBuffers",
                device.allocate_command_buffers(
                    &vk::CommandBufferAllocateInfo::default()
                        .command_pool(pool)
                        .level(vk::CommandBufferLevel::PRIMARY)
                        .command_buffer_count(RING as u32),
                ),
            )?;
            let cmds = [cbs[0], cbs[1], cbs[2]];
            let mut fences = [vk::Fence::null(); RING];
            for f in &mut fences {
                *f = vkr(
                    "vkCreateFence",
                    device.create_fence(&vk::FenceCreateInfo::default(), None),
                )?;
            }
            let mut me = RawVk {
                _entry: entry,
                validation,
                instance,
                device,
                memory_props,
                multi_draw,
                queue,
                pool,
                cmds,
                fences,
                pending: [false; RING],
                slot: 0,
                target: vk::Image::null(),
                target_memory: vk::DeviceMemory::null(),
                target_view: vk::ImageView::null(),
                render_pass: vk::RenderPass::null(),
                framebuffer: vk::Framebuffer::null(),
                readback: Mapped {
                    buffer: vk::Buffer::null(),
                    memory: vk::DeviceMemory::null(),
                    ptr: std::ptr::null_mut(),
                },
            };
            let size = BENCH_SIZE as u32;
            let (target, target_memory, target_view) = me.image(
                size,
                size,
                vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
            )?;
            me.target = target;
            me.target_memory = target_memory;
            me.target_view = target_view;
            let attachment = [vk::AttachmentDescription::default()
                .format(vk::Format::R8G8B8A8_UNORM)
                .samples(vk::SampleCountFlags::TYPE_1)
                .load_op(vk::AttachmentLoadOp::CLEAR)
                .store_op(vk::AttachmentStoreOp::STORE)
                .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
                .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
                .initial_layout(vk::ImageLayout::UNDEFINED)
                .final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)];
            let color_ref = [vk::AttachmentReference::default()
                .attachment(0)
                .layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)];
            let subpass = [vk::SubpassDescription::default()
                .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
                .color_attachments(&color_ref)];
            let deps = [
                vk::SubpassDependency::default()
                    .src_subpass(vk::SUBPASS_EXTERNAL)
                    .dst_subpass(0)
                    .src_stage_mask(
                        vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT
                            | vk::PipelineStageFlags::TRANSFER,
                    )
                    .dst_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
                    .src_access_mask(
                        vk::AccessFlags::COLOR_ATTACHMENT_WRITE | vk::AccessFlags::TRANSFER_READ,
                    )
                    .dst_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE),
                vk::SubpassDependency::default()
                    .src_subpass(0)
                    .dst_subpass(vk::SUBPASS_EXTERNAL)
                    .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
                    .dst_stage_mask(vk::PipelineStageFlags::TRANSFER)
                    .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
                    .dst_access_mask(vk::AccessFlags::TRANSFER_READ),
            ];
            me.render_pass = vkr(
                "vkCreateRenderPass",
                me.device.create_render_pass(
                    &vk::RenderPassCreateInfo::default()
                        .attachments(&attachment)
                        .subpasses(&subpass)
                        .dependencies(&deps),
                    None,
                ),
            )?;
            let views = [me.target_view];
            me.framebuffer = vkr(
                "vkCreateFramebuffer",
                me.device.create_framebuffer(
                    &vk::FramebufferCreateInfo::default()
                        .render_pass(me.render_pass)
                        .attachments(&views)
                        .width(size)
                        .height(size)
                        .layers(1),
                    None,
                ),
            )?;
            me.readback = me.mapped(
                (BENCH_SIZE * BENCH_SIZE * 4) as u64,
                vk::BufferUsageFlags::TRANSFER_DST,
            )?;
            Ok(me)
        }
    }

    /// Memory for an object with requirements `req`, of the first type with `flags`.
    fn memory_for(
        &self,
        req: vk::MemoryRequirements,
        flags: vk::MemoryPropertyFlags,
    ) -> Result<vk::DeviceMemory, String> {
        let ty = (0..self.memory_props.memory_type_count)
            .find(|&i| {
                req.memory_type_bits & (1 << i) != 0
                    && self.memory_props.memory_types[i as usize]
                        .property_flags
                        .contains(flags)
            })
            .ok_or_else(|| "no fitting memory type".to_owned())?;
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(ty);
        // SAFETY: a valid allocate info of a type the device has.
        vkr("vkAllocateMemory", unsafe {
            self.device.allocate_memory(&info, None)
        })
    }

    /// A host-visible, coherent buffer of `size` bytes, mapped.
    fn mapped(&self, size: u64, usage: vk::BufferUsageFlags) -> Result<Mapped, String> {
        // SAFETY: valid create infos; the memory is bound once and mapped whole.
        unsafe {
            let buffer = vkr(
                "vkCreateBuffer",
                self.device.create_buffer(
                    &vk::BufferCreateInfo::default().size(size).usage(usage),
                    None,
                ),
            )?;
            let memory = self.memory_for(
                self.device.get_buffer_memory_requirements(buffer),
                vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
            )?;
            vkr(
                "vkBindBufferMemory",
                self.device.bind_buffer_memory(buffer, memory, 0),
            )?;
            let ptr = vkr(
                "vkMapMemory",
                self.device
                    .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()),
            )?
            .cast::<u8>();
            Ok(Mapped {
                buffer,
                memory,
                ptr,
            })
        }
    }

    /// An RGBA8 optimal-tiling image in device memory and its view.
    fn image(
        &self,
        w: u32,
        h: u32,
        usage: vk::ImageUsageFlags,
    ) -> Result<(vk::Image, vk::DeviceMemory, vk::ImageView), String> {
        // SAFETY: valid create infos; the memory is bound once.
        unsafe {
            let image = vkr(
                "vkCreateImage",
                self.device.create_image(
                    &vk::ImageCreateInfo::default()
                        .image_type(vk::ImageType::TYPE_2D)
                        .format(vk::Format::R8G8B8A8_UNORM)
                        .extent(vk::Extent3D {
                            width: w,
                            height: h,
                            depth: 1,
                        })
                        .mip_levels(1)
                        .array_layers(1)
                        .samples(vk::SampleCountFlags::TYPE_1)
                        .tiling(vk::ImageTiling::OPTIMAL)
                        .usage(usage)
                        .initial_layout(vk::ImageLayout::UNDEFINED),
                    None,
                ),
            )?;
            let memory = self.memory_for(
                self.device.get_image_memory_requirements(image),
                vk::MemoryPropertyFlags::DEVICE_LOCAL,
            )?;
            vkr(
                "vkBindImageMemory",
                self.device.bind_image_memory(image, memory, 0),
            )?;
            let view = vkr(
                "vkCreateImageView",
                self.device.create_image_view(
                    &vk::ImageViewCreateInfo::default()
                        .image(image)
                        .view_type(vk::ImageViewType::TYPE_2D)
                        .format(vk::Format::R8G8B8A8_UNORM)
                        .subresource_range(color_range()),
                    None,
                ),
            )?;
            Ok((image, memory, view))
        }
    }

    /// Waits for ring slot `s`'s submission if one is pending.
    fn wait_slot(&mut self, s: usize) -> Result<(), String> {
        if self.pending[s] {
            // SAFETY: the fence guards a submission of this device.
            unsafe {
                vkr(
                    "vkWaitForFences",
                    self.device
                        .wait_for_fences(&self.fences[s..=s], true, u64::MAX),
                )?;
                vkr(
                    "vkResetFences",
                    self.device.reset_fences(&self.fences[s..=s]),
                )?;
            }
            self.pending[s] = false;
        }
        Ok(())
    }

    /// Waits for every submission.
    pub fn finish(&mut self) -> Result<(), String> {
        for s in 0..RING {
            self.wait_slot(s)?;
        }
        Ok(())
    }

    /// Begins the next ring slot's command buffer, once its last submission is done.
    fn begin(&mut self) -> Result<vk::CommandBuffer, String> {
        let s = self.slot;
        self.wait_slot(s)?;
        let cb = self.cmds[s];
        // SAFETY: the slot's previous submission completed (its fence was waited for).
        unsafe {
            vkr(
                "vkResetCommandBuffer",
                self.device
                    .reset_command_buffer(cb, vk::CommandBufferResetFlags::empty()),
            )?;
            vkr(
                "vkBeginCommandBuffer",
                self.device.begin_command_buffer(
                    cb,
                    &vk::CommandBufferBeginInfo::default()
                        .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
                ),
            )?;
        }
        Ok(cb)
    }

    /// Ends and submits the current slot's command buffer behind its fence.
    fn submit(&mut self) -> Result<(), String> {
        let s = self.slot;
        let cbs = [self.cmds[s]];
        // SAFETY: the command buffer was begun by `begin` and recorded validly.
        unsafe {
            vkr("vkEndCommandBuffer", self.device.end_command_buffer(cbs[0]))?;
            let submit = [vk::SubmitInfo::default().command_buffers(&cbs)];
            vkr(
                "vkQueueSubmit",
                self.device
                    .queue_submit(self.queue, &submit, self.fences[s]),
            )?;
        }
        self.pending[s] = true;
        self.slot = (s + 1) % RING;
        Ok(())
    }

    /// Copies the target into the mapped read-back buffer and waits for it: its RGBA8 rows,
    /// row 0 first (GL's bottom row).
    pub fn read_target(&mut self) -> Result<&[u8], String> {
        let cb = self.begin()?;
        self.record_read(cb);
        self.submit()?;
        self.finish()?;
        // SAFETY: the mapping is coherent, as long as the image, and the copy finished.
        Ok(unsafe {
            std::slice::from_raw_parts(self.readback.ptr, (BENCH_SIZE * BENCH_SIZE * 4) as usize)
        })
    }

    /// Records the copy of the target into the mapped read-back buffer.
    fn record_read(&self, cb: vk::CommandBuffer) {
        // SAFETY: the target is in TRANSFER_SRC_OPTIMAL after every frame's render pass; the
        // buffer holds the whole image.
        unsafe {
            let region = [vk::BufferImageCopy::default()
                .image_subresource(vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: 1,
                })
                .image_extent(vk::Extent3D {
                    width: BENCH_SIZE as u32,
                    height: BENCH_SIZE as u32,
                    depth: 1,
                })];
            self.device.cmd_copy_image_to_buffer(
                cb,
                self.target,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                self.readback.buffer,
                &region,
            );
        }
    }
}

fn color_range() -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    }
}

impl Drop for RawVk {
    fn drop(&mut self) {
        // SAFETY: every object was made by this device; the device is idle first.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_buffer(self.readback.buffer, None);
            self.device.free_memory(self.readback.memory, None);
            self.device.destroy_framebuffer(self.framebuffer, None);
            self.device.destroy_render_pass(self.render_pass, None);
            self.device.destroy_image_view(self.target_view, None);
            self.device.destroy_image(self.target, None);
            self.device.free_memory(self.target_memory, None);
            for f in self.fences {
                self.device.destroy_fence(f, None);
            }
            self.device.destroy_command_pool(self.pool, None);
            self.device.destroy_device(None);
            if let Some((debug, messenger, _)) = &self.validation {
                debug.destroy_debug_utils_messenger(*messenger, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}

/// The push constants of a draw: the offset (vertex stage) and the tint (fragment stage).
#[derive(Clone, Copy)]
#[repr(C)]
struct Push {
    offset: [f32; 4],
    tint: [f32; 4],
}

impl Push {
    fn bytes(&self) -> &[u8] {
        // SAFETY: `Push` is eight plain f32s, no padding.
        unsafe { std::slice::from_raw_parts(std::ptr::from_ref(self).cast::<u8>(), 32) }
    }
}

/// A bench scene's objects on a [`RawVk`].
pub struct RawBench {
    scene: BenchScene,
    layout: vk::PipelineLayout,
    set_layout: vk::DescriptorSetLayout,
    /// `ubochange`'s pipeline layout and set layout (made for every scene).
    ubo_layout: vk::PipelineLayout,
    ubo_set_layout: vk::DescriptorSetLayout,
    ubos: Option<Ubos>,
    desc_pool: vk::DescriptorPool,
    sampler: vk::Sampler,
    /// Textured with blending off, then on; flat; then `programchange`'s programs.
    pipelines: Vec<vk::Pipeline>,
    /// `upload` and `mapstream`: a vertex buffer per ring slot, written by the host in the
    /// frames that slot records.
    ring: Vec<Mapped>,
    /// `upload`: a frame's vertex bytes and their triangles.
    upload: Vec<u8>,
    upload_triangles: u64,
    /// `mapstream`: the triangles' bytes (one per offset).
    stream_triangles: Vec<u8>,
    /// `manyobjects`: each ring slot's objects of its last frame (destroyed once its fence
    /// signalled, when the slot records again).
    fresh: Vec<Fresh>,
    set_layouts: [vk::DescriptorSetLayout; 1],
    /// `multidraw`: a draw per triangle, cyclic (any batch's run is one slice).
    multi: Vec<vk::MultiDrawInfoEXT>,
    vertices: Mapped,
    textures: Vec<Texture>,
    offsets: Vec<[f32; 2]>,
    /// `persistent`: the vertex bytes of each frame of the cycle.
    variants: Vec<Vec<u8>>,
    /// `appwork`: the application's running result.
    work: u64,
    draw: u64,
    frame: u64,
}

/// `ubochange`'s uniform buffers: one buffer, a set per buffer.
struct Ubos {
    buffer: Mapped,
    pool: vk::DescriptorPool,
    sets: Vec<vk::DescriptorSet>,
}

/// `manyobjects`: one ring slot's buffers, textures, descriptor pool and staging buffer.
struct Fresh {
    buffers: Vec<Mapped>,
    textures: Vec<Texture>,
    pool: vk::DescriptorPool,
    staging: Mapped,
}

/// Binds `set` as set 0 of `layout` at the graphics bind point.
///
/// # Safety
/// `cb` is recording; `set` and `layout` are `d`'s and compatible.
unsafe fn bind_set(
    d: &ash::Device,
    cb: vk::CommandBuffer,
    layout: vk::PipelineLayout,
    set: vk::DescriptorSet,
) {
    // SAFETY: as the caller promises.
    unsafe {
        d.cmd_bind_descriptor_sets(cb, vk::PipelineBindPoint::GRAPHICS, layout, 0, &[set], &[])
    };
}

/// Records a 4 x 4 texture's upload from `staging` at `offset`, with its transitions.
///
/// # Safety
/// `cb` is recording outside a render pass; `image` is a new 4 x 4 image of `d`.
unsafe fn record_texture_upload(
    d: &ash::Device,
    cb: vk::CommandBuffer,
    image: vk::Image,
    staging: vk::Buffer,
    offset: u64,
) {
    // SAFETY: as the caller promises.
    unsafe {
        let to_dst = [vk::ImageMemoryBarrier::default()
            .image(image)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .subresource_range(color_range())];
        d.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::TOP_OF_PIPE,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &to_dst,
        );
        let region = [vk::BufferImageCopy::default()
            .buffer_offset(offset)
            .image_subresource(vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: 1,
            })
            .image_extent(vk::Extent3D {
                width: 4,
                height: 4,
                depth: 1,
            })];
        d.cmd_copy_buffer_to_image(
            cb,
            staging,
            image,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            &region,
        );
        let to_read = [vk::ImageMemoryBarrier::default()
            .image(image)
            .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .new_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::SHADER_READ)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .subresource_range(color_range())];
        d.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::FRAGMENT_SHADER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &to_read,
        );
    }
}

/// A flat triangle's side in clip space: two pixels (the GL scenes' `SIDE`).
const SIDE: f32 = 4.0 / BENCH_SIZE as f32;

/// Bytes of one triangle of two-float positions.
const TRIANGLE: u64 = 24;

impl RawBench {
    /// Whether the raw floor has `scene` written.
    pub fn supports(scene: BenchScene) -> bool {
        matches!(
            scene,
            BenchScene::Steady
                | BenchScene::Static
                | BenchScene::StateChange
                | BenchScene::ProgramChange
                | BenchScene::TextureChange
                | BenchScene::Upload
                | BenchScene::Persistent
                | BenchScene::UboChange
                | BenchScene::Readback
                | BenchScene::AppWork
                | BenchScene::MapStream
                | BenchScene::ManyObjects
                | BenchScene::MultiDraw
                | BenchScene::ShaderHeavy
        )
    }

    /// Creates the scene's pipelines, buffers, textures and descriptor sets for frames of
    /// `draws` draws.
    pub fn setup(vk_: &mut RawVk, scene: BenchScene, draws: u32) -> Result<Self, String> {
        if !Self::supports(scene) {
            return Err(format!("{} is not written for raw Vulkan", scene.name()));
        }
        let d = &vk_.device;
        let vs = spirv("bench.vert", VS)?;
        let fs = spirv("bench.frag", FS)?;
        let flat_vs = spirv("flat.vert", FLAT_VS)?;
        let flat_fs = spirv("flat.frag", FLAT_FS)?;
        // The scene's own shaders, if it has some: `ubochange`'s and `shaderheavy`'s.
        let own = match scene {
            BenchScene::UboChange => Some((spirv("ubo.vert", UBO_VS)?, spirv("ubo.frag", UBO_FS)?)),
            BenchScene::ShaderHeavy => Some((flat_vs.clone(), spirv("heavy.frag", &heavy_fs())?)),
            _ => None,
        };
        // SAFETY: valid create infos throughout; objects are destroyed in `destroy`.
        unsafe {
            let vsm = vkr(
                "vkCreateShaderModule",
                d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&vs), None),
            )?;
            let fsm = vkr(
                "vkCreateShaderModule",
                d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&fs), None),
            )?;
            let fvsm = vkr(
                "vkCreateShaderModule",
                d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&flat_vs), None),
            )?;
            let ffsm = vkr(
                "vkCreateShaderModule",
                d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&flat_fs), None),
            )?;
            let binding = [vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::FRAGMENT)];
            let set_layout = vkr(
                "vkCreateDescriptorSetLayout",
                d.create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&binding),
                    None,
                ),
            )?;
            let set_layouts = [set_layout];
            let push = [vk::PushConstantRange::default()
                .stage_flags(vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT)
                .offset(0)
                .size(32)];
            let layout = vkr(
                "vkCreatePipelineLayout",
                d.create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default()
                        .set_layouts(&set_layouts)
                        .push_constant_ranges(&push),
                    None,
                ),
            )?;
            // `ubochange`: a uniform buffer per set, read by both stages.
            let ubo_binding = [vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT)];
            let ubo_set_layout = vkr(
                "vkCreateDescriptorSetLayout",
                d.create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&ubo_binding),
                    None,
                ),
            )?;
            let ubo_layout = vkr(
                "vkCreatePipelineLayout",
                d.create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default().set_layouts(&[ubo_set_layout]),
                    None,
                ),
            )?;
            let entry = c"main";
            let vb = [vk::VertexInputBindingDescription::default()
                .binding(0)
                .stride(8)
                .input_rate(vk::VertexInputRate::VERTEX)];
            let va = [vk::VertexInputAttributeDescription::default()
                .location(0)
                .binding(0)
                .format(vk::Format::R32G32_SFLOAT)
                .offset(0)];
            let vertex = vk::PipelineVertexInputStateCreateInfo::default()
                .vertex_binding_descriptions(&vb)
                .vertex_attribute_descriptions(&va);
            let assembly =
                |topology| vk::PipelineInputAssemblyStateCreateInfo::default().topology(topology);
            let size = BENCH_SIZE as u32;
            let viewport = [vk::Viewport {
                x: 0.0,
                y: 0.0,
                width: size as f32,
                height: size as f32,
                min_depth: 0.0,
                max_depth: 1.0,
            }];
            let scissor = [vk::Rect2D {
                offset: vk::Offset2D { x: 0, y: 0 },
                extent: vk::Extent2D {
                    width: size,
                    height: size,
                },
            }];
            let vp = vk::PipelineViewportStateCreateInfo::default()
                .viewports(&viewport)
                .scissors(&scissor);
            let raster = vk::PipelineRasterizationStateCreateInfo::default()
                .polygon_mode(vk::PolygonMode::FILL)
                .cull_mode(vk::CullModeFlags::NONE)
                .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
                .line_width(1.0);
            let ms = vk::PipelineMultisampleStateCreateInfo::default()
                .rasterization_samples(vk::SampleCountFlags::TYPE_1);
            let programs = if scene == BenchScene::ProgramChange {
                BENCH_PROGRAMS
            } else {
                0
            };
            let own = match own {
                Some((v, f)) => {
                    let module = |code: &[u32]| {
                        vkr(
                            "vkCreateShaderModule",
                            d.create_shader_module(
                                &vk::ShaderModuleCreateInfo::default().code(code),
                                None,
                            ),
                        )
                    };
                    Some((module(&v)?, module(&f)?))
                }
                None => None,
            };
            let mut pipelines =
                vec![vk::Pipeline::null(); 3 + programs + usize::from(own.is_some())];
            for (k, p) in pipelines.iter_mut().enumerate() {
                let (vsm, fsm, blend) = match (k, own) {
                    (0, _) => (vsm, fsm, 0),
                    (1, _) => (vsm, fsm, 1),
                    (2, _) => (fvsm, ffsm, 0),
                    (_, Some((v, f))) => (v, f, 0),
                    _ => (vsm, fsm, 0),
                };
                let (topology, pipeline_layout) = match scene {
                    BenchScene::ShaderHeavy if k == 3 => {
                        (vk::PrimitiveTopology::TRIANGLE_STRIP, layout)
                    }
                    BenchScene::UboChange if k == 3 => {
                        (vk::PrimitiveTopology::TRIANGLE_LIST, ubo_layout)
                    }
                    _ => (vk::PrimitiveTopology::TRIANGLE_LIST, layout),
                };
                // The GL programs' constants, as their sources print them.
                let factor: f32 = match k.checked_sub(3).filter(|_| own.is_none()) {
                    Some(i) => format!("{:.3}", 1.0 - i as f32 / 64.0)
                        .parse()
                        .map_err(|e| format!("a printed float: {e}"))?,
                    None => 1.0,
                };
                let factor = factor.to_ne_bytes();
                let map = [vk::SpecializationMapEntry {
                    constant_id: 0,
                    offset: 0,
                    size: 4,
                }];
                let special = vk::SpecializationInfo::default()
                    .map_entries(&map)
                    .data(&factor);
                let stages = [
                    vk::PipelineShaderStageCreateInfo::default()
                        .stage(vk::ShaderStageFlags::VERTEX)
                        .module(vsm)
                        .name(entry),
                    vk::PipelineShaderStageCreateInfo::default()
                        .stage(vk::ShaderStageFlags::FRAGMENT)
                        .module(fsm)
                        .name(entry)
                        .specialization_info(&special),
                ];
                let att = [vk::PipelineColorBlendAttachmentState::default()
                    .blend_enable(blend == 1)
                    .src_color_blend_factor(vk::BlendFactor::SRC_ALPHA)
                    .dst_color_blend_factor(vk::BlendFactor::ONE_MINUS_SRC_ALPHA)
                    .color_blend_op(vk::BlendOp::ADD)
                    .src_alpha_blend_factor(vk::BlendFactor::SRC_ALPHA)
                    .dst_alpha_blend_factor(vk::BlendFactor::ONE_MINUS_SRC_ALPHA)
                    .alpha_blend_op(vk::BlendOp::ADD)
                    .color_write_mask(vk::ColorComponentFlags::RGBA)];
                let cb = vk::PipelineColorBlendStateCreateInfo::default().attachments(&att);
                let input = assembly(topology);
                let info = [vk::GraphicsPipelineCreateInfo::default()
                    .stages(&stages)
                    .vertex_input_state(&vertex)
                    .input_assembly_state(&input)
                    .viewport_state(&vp)
                    .rasterization_state(&raster)
                    .multisample_state(&ms)
                    .color_blend_state(&cb)
                    .layout(pipeline_layout)
                    .render_pass(vk_.render_pass)
                    .subpass(0)];
                *p = d
                    .create_graphics_pipelines(vk::PipelineCache::null(), &info, None)
                    .map_err(|(_, e)| format!("vkCreateGraphicsPipelines: {e}"))?[0];
            }
            d.destroy_shader_module(vsm, None);
            d.destroy_shader_module(fsm, None);
            d.destroy_shader_module(fvsm, None);
            d.destroy_shader_module(ffsm, None);
            if let Some((v, f)) = own {
                d.destroy_shader_module(v, None);
                d.destroy_shader_module(f, None);
            }

            // Vertex arrays: one triangle each, shifted by whole pixels, in one buffer.
            let n_vaos = if scene == BenchScene::StateChange {
                STATECHANGE_VAOS
            } else {
                1
            };
            let n_tris = if scene == BenchScene::MultiDraw {
                OFFSETS
            } else {
                n_vaos
            };
            let vertices = vk_.mapped(
                n_tris as u64 * TRIANGLE + 8,
                vk::BufferUsageFlags::VERTEX_BUFFER,
            )?;
            if scene == BenchScene::ShaderHeavy {
                // `shaderheavy`: a strip covering the target instead.
                let quad = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
                std::ptr::copy_nonoverlapping(quad.as_ptr().cast::<u8>(), vertices.ptr, 32);
            }
            if scene == BenchScene::MultiDraw {
                // `multidraw`: a flat triangle per offset.
                for (i, [x, y]) in scatter(OFFSETS).into_iter().enumerate() {
                    let tri = [x, y, x + SIDE, y, x, y + SIDE];
                    std::ptr::copy_nonoverlapping(
                        tri.as_ptr().cast::<u8>(),
                        vertices.ptr.add(i * TRIANGLE as usize),
                        TRIANGLE as usize,
                    );
                }
            }
            let one_triangle = !matches!(scene, BenchScene::MultiDraw | BenchScene::ShaderHeavy);
            for i in (0..n_vaos).filter(|_| one_triangle) {
                let s = (i % 8) as f32 * 0.5;
                let tri = [s, 0.0, 1.0 + s, 0.0, s, 1.0];
                std::ptr::copy_nonoverlapping(
                    tri.as_ptr().cast::<u8>(),
                    vertices.ptr.add(i * TRIANGLE as usize),
                    TRIANGLE as usize,
                );
            }

            let sampler = vkr(
                "vkCreateSampler",
                d.create_sampler(
                    &vk::SamplerCreateInfo::default()
                        .mag_filter(vk::Filter::NEAREST)
                        .min_filter(vk::Filter::NEAREST)
                        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
                        .address_mode_u(vk::SamplerAddressMode::REPEAT)
                        .address_mode_v(vk::SamplerAddressMode::REPEAT)
                        .address_mode_w(vk::SamplerAddressMode::REPEAT)
                        .max_lod(0.0),
                    None,
                ),
            )?;
            let n_tex = match scene {
                BenchScene::StateChange | BenchScene::TextureChange => STATECHANGE_TEXTURES,
                _ => 1,
            };
            let sizes = [vk::DescriptorPoolSize {
                ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                descriptor_count: n_tex as u32,
            }];
            let desc_pool = vkr(
                "vkCreateDescriptorPool",
                d.create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(n_tex as u32)
                        .pool_sizes(&sizes),
                    None,
                ),
            )?;
            let staging = vk_.mapped(n_tex as u64 * 64, vk::BufferUsageFlags::TRANSFER_SRC)?;
            let mut textures = Vec::with_capacity(n_tex);
            for i in 0..n_tex {
                let c = colour(i);
                for t in 0..16 {
                    std::ptr::copy_nonoverlapping(c.as_ptr(), staging.ptr.add(i * 64 + t * 4), 4);
                }
                let (image, memory, view) = vk_.image(
                    4,
                    4,
                    vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
                )?;
                let set = vkr(
                    "vkAllocateDescriptorSets",
                    d.allocate_descriptor_sets(
                        &vk::DescriptorSetAllocateInfo::default()
                            .descriptor_pool(desc_pool)
                            .set_layouts(&set_layouts),
                    ),
                )?[0];
                let info = [vk::DescriptorImageInfo {
                    sampler,
                    image_view: view,
                    image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                }];
                let write = [vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(0)
                    .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                    .image_info(&info)];
                d.update_descriptor_sets(&write, &[]);
                textures.push(Texture {
                    image,
                    memory,
                    view,
                    set,
                });
            }
            // The texels' upload: one command buffer, transitions around the copies.
            let cb = vk_.begin()?;
            let d = &vk_.device;
            for (i, t) in textures.iter().enumerate() {
                // SAFETY: `cb` records outside a render pass; `t.image` is a new 4 x 4 image
                // of this device, its texels at `i * 64` of the staging buffer.
                record_texture_upload(d, cb, t.image, staging.buffer, i as u64 * 64);
            }
            vk_.submit()?;
            vk_.finish()?;
            vk_.device.destroy_buffer(staging.buffer, None);
            vk_.device.free_memory(staging.memory, None);
            let offsets = scatter(OFFSETS);
            // `ubochange`: the GL scene's uniform buffers (offset, colour) in one buffer, a
            // descriptor set for each.
            let mut ubos = None;
            if scene == BenchScene::UboChange {
                let buffer = vk_.mapped(
                    BENCH_UBOS as u64 * UBO_STRIDE,
                    vk::BufferUsageFlags::UNIFORM_BUFFER,
                )?;
                let sizes = [vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::UNIFORM_BUFFER,
                    descriptor_count: BENCH_UBOS as u32,
                }];
                let pool = vkr(
                    "vkCreateDescriptorPool",
                    vk_.device.create_descriptor_pool(
                        &vk::DescriptorPoolCreateInfo::default()
                            .max_sets(BENCH_UBOS as u32)
                            .pool_sizes(&sizes),
                        None,
                    ),
                )?;
                let mut sets = Vec::with_capacity(BENCH_UBOS);
                for i in 0..BENCH_UBOS {
                    let [x, y] = offsets[i * 13 % OFFSETS];
                    let c = colour(i).map(|v| f32::from(v) / 255.0);
                    let params = [x, y, 0.0, 0.0, c[0], c[1], c[2], 1.0];
                    std::ptr::copy_nonoverlapping(
                        params.as_ptr().cast::<u8>(),
                        buffer.ptr.add(i * UBO_STRIDE as usize),
                        32,
                    );
                    let set = vkr(
                        "vkAllocateDescriptorSets",
                        vk_.device.allocate_descriptor_sets(
                            &vk::DescriptorSetAllocateInfo::default()
                                .descriptor_pool(pool)
                                .set_layouts(&[ubo_set_layout]),
                        ),
                    )?[0];
                    let info = [vk::DescriptorBufferInfo {
                        buffer: buffer.buffer,
                        offset: i as u64 * UBO_STRIDE,
                        range: 32,
                    }];
                    let write = [vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(0)
                        .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                        .buffer_info(&info)];
                    vk_.device.update_descriptor_sets(&write, &[]);
                    sets.push(set);
                }
                ubos = Some(Ubos { buffer, pool, sets });
            }
            let (ring_bytes, upload, upload_triangles, stream_triangles) = match scene {
                BenchScene::Upload => {
                    let (bytes, triangles) = upload_bytes();
                    (UPLOAD_BYTES, bytes, triangles as u64, Vec::new())
                }
                BenchScene::Persistent => {
                    let (_, triangles) = upload_bytes();
                    (UPLOAD_BYTES, Vec::new(), triangles as u64, Vec::new())
                }
                BenchScene::MapStream => {
                    let mut bytes = Vec::with_capacity(OFFSETS * 24);
                    for &[x, y] in &offsets {
                        for v in [x, y, x + SIDE, y, x, y + SIDE] {
                            bytes.extend_from_slice(&v.to_le_bytes());
                        }
                    }
                    (draws.max(1) as usize * 24, Vec::new(), 1, bytes)
                }
                _ => (0, Vec::new(), 1, Vec::new()),
            };
            let mut fresh = Vec::new();
            if scene == BenchScene::ManyObjects {
                let sizes = [vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                    descriptor_count: MANY_OBJECTS as u32,
                }];
                for _ in 0..RING {
                    let pool = vkr(
                        "vkCreateDescriptorPool",
                        vk_.device.create_descriptor_pool(
                            &vk::DescriptorPoolCreateInfo::default()
                                .max_sets(MANY_OBJECTS as u32)
                                .pool_sizes(&sizes),
                            None,
                        ),
                    )?;
                    fresh.push(Fresh {
                        buffers: Vec::with_capacity(MANY_OBJECTS),
                        textures: Vec::with_capacity(MANY_OBJECTS),
                        pool,
                        staging: vk_
                            .mapped(MANY_OBJECTS as u64 * 64, vk::BufferUsageFlags::TRANSFER_SRC)?,
                    });
                }
            }
            let mut ring = Vec::new();
            if ring_bytes > 0 {
                for _ in 0..RING {
                    ring.push(vk_.mapped(ring_bytes as u64, vk::BufferUsageFlags::VERTEX_BUFFER)?);
                }
            }
            Ok(RawBench {
                scene,
                layout,
                set_layout,
                ubo_layout,
                ubo_set_layout,
                ubos,
                desc_pool,
                sampler,
                pipelines,
                vertices,
                textures,
                ring,
                fresh,
                set_layouts,
                multi: (0..OFFSETS + MULTIDRAW_BATCH)
                    .map(|j| vk::MultiDrawInfoEXT {
                        first_vertex: (j % OFFSETS * 3) as u32,
                        vertex_count: 3,
                    })
                    .collect(),
                upload,
                upload_triangles,
                stream_triangles,
                offsets,
                variants: if scene == BenchScene::Persistent {
                    persistent_variants()
                } else {
                    Vec::new()
                },
                work: 0,
                draw: 0,
                frame: 0,
            })
        }
    }

    /// One frame of `draws` draws: one command buffer, one submission.
    pub fn frame(&mut self, vk_: &mut RawVk, draws: u32) -> Result<(), String> {
        let cb = vk_.begin()?;
        if self.scene == BenchScene::ManyObjects {
            self.fresh_objects(vk_, cb)?;
        }
        let d = &vk_.device;
        let clear = [vk::ClearValue {
            color: vk::ClearColorValue {
                float32: [0.1, 0.2, 0.3, 1.0],
            },
        }];
        let size = BENCH_SIZE as u32;
        // SAFETY: recording into a begun command buffer with objects of this device.
        unsafe {
            d.cmd_begin_render_pass(
                cb,
                &vk::RenderPassBeginInfo::default()
                    .render_pass(vk_.render_pass)
                    .framebuffer(vk_.framebuffer)
                    .render_area(vk::Rect2D {
                        offset: vk::Offset2D { x: 0, y: 0 },
                        extent: vk::Extent2D {
                            width: size,
                            height: size,
                        },
                    })
                    .clear_values(&clear),
                vk::SubpassContents::INLINE,
            );
            let stages = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
            match self.scene {
                BenchScene::Steady => {
                    // The GL scene's state: the first program's offset, tint 1, nothing
                    // changes per draw.
                    let [x, y] = self.offsets[0];
                    let push = Push {
                        offset: [x, y, 0.0, 0.0],
                        tint: [1.0; 4],
                    };
                    d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, self.pipelines[0]);
                    bind_set(d, cb, self.layout, self.textures[0].set);
                    d.cmd_bind_vertex_buffers(cb, 0, &[self.vertices.buffer], &[0]);
                    d.cmd_push_constants(cb, self.layout, stages, 0, push.bytes());
                    for _ in 0..draws {
                        d.cmd_draw(cb, 3, 1, 0, 0);
                    }
                    self.draw += u64::from(draws);
                }
                BenchScene::MultiDraw => {
                    // Batches of `MULTIDRAW_BATCH` as one vkCmdDrawMultiEXT each (a loop of
                    // vkCmdDraw without the extension).
                    let push = Push {
                        offset: [0.0; 4],
                        tint: FLAT_TINT,
                    };
                    d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, self.pipelines[2]);
                    d.cmd_bind_vertex_buffers(cb, 0, &[self.vertices.buffer], &[0]);
                    d.cmd_push_constants(cb, self.layout, stages, 0, push.bytes());
                    let mut left = draws as usize;
                    while left > 0 {
                        let n = left.min(MULTIDRAW_BATCH);
                        let s = (self.draw % OFFSETS as u64) as usize;
                        self.draw += n as u64;
                        left -= n;
                        let batch = &self.multi[s..s + n];
                        match &vk_.multi_draw {
                            Some(m) => (m.fp().cmd_draw_multi_ext)(
                                cb,
                                n as u32,
                                batch.as_ptr(),
                                1,
                                0,
                                size_of::<vk::MultiDrawInfoEXT>() as u32,
                            ),
                            None => {
                                for b in batch {
                                    d.cmd_draw(cb, b.vertex_count, 1, b.first_vertex, 0);
                                }
                            }
                        }
                    }
                }
                BenchScene::ManyObjects => {
                    // The frame's objects for its first draws, then the scene's own.
                    d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, self.pipelines[0]);
                    let f = &self.fresh[vk_.slot];
                    for k in 0..draws as usize {
                        let i = self.draw;
                        self.draw += 1;
                        if let (Some(b), Some(t)) = (f.buffers.get(k), f.textures.get(k)) {
                            d.cmd_bind_vertex_buffers(cb, 0, &[b.buffer], &[0]);
                            bind_set(d, cb, self.layout, t.set);
                        } else if k == f.buffers.len() {
                            d.cmd_bind_vertex_buffers(cb, 0, &[self.vertices.buffer], &[0]);
                            bind_set(d, cb, self.layout, self.textures[0].set);
                        }
                        let [x, y] = self.offsets[i as usize % OFFSETS];
                        let push = Push {
                            offset: [x, y, 0.0, 0.0],
                            tint: [1.0; 4],
                        };
                        d.cmd_push_constants(cb, self.layout, stages, 0, push.bytes());
                        d.cmd_draw(cb, 3, 1, 0, 0);
                    }
                }
                BenchScene::Static | BenchScene::Readback | BenchScene::AppWork => {
                    // The offset per draw (and `appwork`'s arithmetic before it).
                    d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, self.pipelines[0]);
                    bind_set(d, cb, self.layout, self.textures[0].set);
                    d.cmd_bind_vertex_buffers(cb, 0, &[self.vertices.buffer], &[0]);
                    let work = self.scene == BenchScene::AppWork;
                    for _ in 0..draws {
                        let i = self.draw;
                        self.draw += 1;
                        if work {
                            self.work = std::hint::black_box(app_work(self.work ^ i));
                        }
                        let [x, y] = self.offsets[i as usize % OFFSETS];
                        let push = Push {
                            offset: [x, y, 0.0, 0.0],
                            tint: [1.0; 4],
                        };
                        d.cmd_push_constants(cb, self.layout, stages, 0, push.bytes());
                        d.cmd_draw(cb, 3, 1, 0, 0);
                    }
                }
                BenchScene::UboChange => {
                    // The uniform buffer's set per draw.
                    d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, self.pipelines[3]);
                    d.cmd_bind_vertex_buffers(cb, 0, &[self.vertices.buffer], &[0]);
                    let sets = self.ubos.as_ref().map_or(&[][..], |u| &u.sets[..]);
                    for _ in 0..draws {
                        let i = self.draw;
                        self.draw += 1;
                        bind_set(
                            d,
                            cb,
                            self.ubo_layout,
                            sets[(i % BENCH_UBOS as u64) as usize],
                        );
                        d.cmd_draw(cb, 3, 1, 0, 0);
                    }
                }
                BenchScene::ShaderHeavy => {
                    // The quad, its seed pushed per draw.
                    d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, self.pipelines[3]);
                    d.cmd_bind_vertex_buffers(cb, 0, &[self.vertices.buffer], &[0]);
                    for _ in 0..draws {
                        let seed = self.draw as u32;
                        self.draw += 1;
                        d.cmd_push_constants(cb, self.layout, stages, 0, &seed.to_ne_bytes());
                        d.cmd_draw(cb, 4, 1, 0, 0);
                    }
                }
                BenchScene::TextureChange => {
                    // The first program's offset; the texture's set per draw.
                    let [x, y] = self.offsets[0];
                    let push = Push {
                        offset: [x, y, 0.0, 0.0],
                        tint: [1.0; 4],
                    };
                    d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, self.pipelines[0]);
                    d.cmd_bind_vertex_buffers(cb, 0, &[self.vertices.buffer], &[0]);
                    d.cmd_push_constants(cb, self.layout, stages, 0, push.bytes());
                    for _ in 0..draws {
                        let i = self.draw;
                        self.draw += 1;
                        let tex = (i * 7 % STATECHANGE_TEXTURES as u64) as usize;
                        bind_set(d, cb, self.layout, self.textures[tex].set);
                        d.cmd_draw(cb, 3, 1, 0, 0);
                    }
                }
                BenchScene::ProgramChange => {
                    // A pipeline per program, and its offset (each GL program keeps its own
                    // uniform values) per draw.
                    bind_set(d, cb, self.layout, self.textures[0].set);
                    d.cmd_bind_vertex_buffers(cb, 0, &[self.vertices.buffer], &[0]);
                    for _ in 0..draws {
                        let i = self.draw;
                        self.draw += 1;
                        let p = (i % BENCH_PROGRAMS as u64) as usize;
                        let [x, y] = self.offsets[p * 17 % OFFSETS];
                        let push = Push {
                            offset: [x, y, 0.0, 0.0],
                            tint: [1.0; 4],
                        };
                        d.cmd_bind_pipeline(
                            cb,
                            vk::PipelineBindPoint::GRAPHICS,
                            self.pipelines[3 + p],
                        );
                        d.cmd_push_constants(cb, self.layout, stages, 0, push.bytes());
                        d.cmd_draw(cb, 3, 1, 0, 0);
                    }
                }
                BenchScene::Upload | BenchScene::Persistent | BenchScene::MapStream => {
                    // The slot's buffer is free: `begin` waited for its last frame's fence.
                    let ring = &self.ring[vk_.slot];
                    let push = Push {
                        offset: [0.0; 4],
                        tint: FLAT_TINT,
                    };
                    d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, self.pipelines[2]);
                    d.cmd_bind_vertex_buffers(cb, 0, &[ring.buffer], &[0]);
                    d.cmd_push_constants(cb, self.layout, stages, 0, push.bytes());
                    if self.scene != BenchScene::MapStream {
                        // The frame's bytes (`persistent`: this frame's of the cycle).
                        let bytes = match self.variants.len() {
                            0 => &self.upload,
                            n => &self.variants[(self.frame % n as u64) as usize],
                        };
                        std::ptr::copy_nonoverlapping(bytes.as_ptr(), ring.ptr, bytes.len());
                        for _ in 0..draws {
                            let t = self.draw % self.upload_triangles;
                            self.draw += 1;
                            d.cmd_draw(cb, 3, 1, (t * 3) as u32, 0);
                        }
                    } else {
                        // Each draw's triangle written through the mapping, then drawn.
                        for k in 0..draws as usize {
                            let t = (self.draw as usize % OFFSETS) * 24;
                            self.draw += 1;
                            std::ptr::copy_nonoverlapping(
                                self.stream_triangles.as_ptr().add(t),
                                ring.ptr.add(k * 24),
                                24,
                            );
                            d.cmd_draw(cb, 3, 1, (k * 3) as u32, 0);
                        }
                    }
                }
                _ => {
                    // statechange: vertex buffer, texture, offset and blending per draw.
                    for _ in 0..draws {
                        let i = self.draw;
                        self.draw += 1;
                        let vao = (i % STATECHANGE_VAOS as u64) * TRIANGLE;
                        let tex = (i * 7 % STATECHANGE_TEXTURES as u64) as usize;
                        let [x, y] = self.offsets[i as usize % OFFSETS];
                        let push = Push {
                            offset: [x, y, 0.0, 0.0],
                            tint: [1.0; 4],
                        };
                        let blend = usize::from(i.is_multiple_of(2));
                        d.cmd_bind_pipeline(
                            cb,
                            vk::PipelineBindPoint::GRAPHICS,
                            self.pipelines[blend],
                        );
                        d.cmd_bind_vertex_buffers(cb, 0, &[self.vertices.buffer], &[vao]);
                        bind_set(d, cb, self.layout, self.textures[tex].set);
                        d.cmd_push_constants(cb, self.layout, stages, 0, push.bytes());
                        d.cmd_draw(cb, 3, 1, 0, 0);
                    }
                }
            }
            d.cmd_end_render_pass(cb);
            if self.scene == BenchScene::Readback {
                vk_.record_read(cb);
            }
        }
        self.frame += 1;
        let slot = vk_.slot;
        vk_.submit()?;
        if self.scene == BenchScene::Readback {
            // The frame's pixels are in the mapped read-back buffer after one fence wait.
            vk_.wait_slot(slot)?;
        }
        Ok(())
    }

    /// `manyobjects`: destroys the slot's objects of its last frame (its fence signalled in
    /// `begin`), then creates this frame's buffers and textures and records their uploads.
    fn fresh_objects(&mut self, vk_: &RawVk, cb: vk::CommandBuffer) -> Result<(), String> {
        let d = &vk_.device;
        let f = &mut self.fresh[vk_.slot];
        // SAFETY: no pending submission uses the slot's objects any more; the new ones are
        // made, written and recorded validly.
        unsafe {
            for m in f.buffers.drain(..) {
                d.destroy_buffer(m.buffer, None);
                d.free_memory(m.memory, None);
            }
            for t in f.textures.drain(..) {
                d.destroy_image_view(t.view, None);
                d.destroy_image(t.image, None);
                d.free_memory(t.memory, None);
            }
            vkr(
                "vkResetDescriptorPool",
                d.reset_descriptor_pool(f.pool, vk::DescriptorPoolResetFlags::empty()),
            )?;
            let triangle: [f32; 6] = [0.0, 0.0, 1.0, 0.0, 0.0, 1.0];
            for k in 0..MANY_OBJECTS {
                let buf = vk_.mapped(TRIANGLE, vk::BufferUsageFlags::VERTEX_BUFFER)?;
                std::ptr::copy_nonoverlapping(
                    triangle.as_ptr().cast::<u8>(),
                    buf.ptr,
                    TRIANGLE as usize,
                );
                f.buffers.push(buf);
                let c = colour(k + 1);
                for t in 0..16 {
                    std::ptr::copy_nonoverlapping(c.as_ptr(), f.staging.ptr.add(k * 64 + t * 4), 4);
                }
                let (image, memory, view) = vk_.image(
                    4,
                    4,
                    vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
                )?;
                record_texture_upload(d, cb, image, f.staging.buffer, k as u64 * 64);
                let set = vkr(
                    "vkAllocateDescriptorSets",
                    d.allocate_descriptor_sets(
                        &vk::DescriptorSetAllocateInfo::default()
                            .descriptor_pool(f.pool)
                            .set_layouts(&self.set_layouts),
                    ),
                )?[0];
                let info = [vk::DescriptorImageInfo {
                    sampler: self.sampler,
                    image_view: view,
                    image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                }];
                let write = [vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(0)
                    .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                    .image_info(&info)];
                d.update_descriptor_sets(&write, &[]);
                f.textures.push(Texture {
                    image,
                    memory,
                    view,
                    set,
                });
            }
        }
        Ok(())
    }

    /// Waits for the frames so far and hashes the target as [`crate::scenes::Bench::checksum`]
    /// does (FNV-1a over its RGBA8 bytes, GL's row order).
    pub fn checksum(&mut self, vk_: &mut RawVk) -> Result<u64, String> {
        let pixels = vk_.read_target()?;
        Ok(pixels.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
        }))
    }

    /// Destroys the scene's objects (after [`RawVk::finish`]).
    pub fn destroy(self, vk_: &mut RawVk) {
        let _ = vk_.finish();
        let d = &vk_.device;
        // SAFETY: every object was made by this device and no submission uses it any more.
        unsafe {
            for t in &self.textures {
                d.destroy_image_view(t.view, None);
                d.destroy_image(t.image, None);
                d.free_memory(t.memory, None);
            }
            d.destroy_descriptor_pool(self.desc_pool, None);
            d.destroy_sampler(self.sampler, None);
            d.destroy_buffer(self.vertices.buffer, None);
            d.free_memory(self.vertices.memory, None);
            for f in &self.fresh {
                for m in f.buffers.iter().chain([&f.staging]) {
                    d.destroy_buffer(m.buffer, None);
                    d.free_memory(m.memory, None);
                }
                for t in &f.textures {
                    d.destroy_image_view(t.view, None);
                    d.destroy_image(t.image, None);
                    d.free_memory(t.memory, None);
                }
                d.destroy_descriptor_pool(f.pool, None);
            }
            for m in &self.ring {
                d.destroy_buffer(m.buffer, None);
                d.free_memory(m.memory, None);
            }
            for p in self.pipelines {
                d.destroy_pipeline(p, None);
            }
            d.destroy_pipeline_layout(self.layout, None);
            d.destroy_descriptor_set_layout(self.set_layout, None);
            if let Some(u) = &self.ubos {
                d.destroy_descriptor_pool(u.pool, None);
                d.destroy_buffer(u.buffer.buffer, None);
                d.free_memory(u.buffer.memory, None);
            }
            d.destroy_pipeline_layout(self.ubo_layout, None);
            d.destroy_descriptor_set_layout(self.ubo_set_layout, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{RawBench, RawVk};
    use crate::gl::NativeGl;
    use crate::scenes::{Bench, BenchScene};

    /// Every scene the floor has draws native llvmpipe's exact picture (after frames that
    /// cycle the ring more than once), with no validation-layer warning or error.
    #[test]
    fn raw_vulkan_scenes_match_native_and_validate() {
        let draws = 300;
        for scene in BenchScene::ALL
            .into_iter()
            .filter(|s| RawBench::supports(*s))
        {
            let mut gl = NativeGl::new(64, 64).expect("native llvmpipe");
            let mut bench = Bench::setup(&mut gl, scene);
            for _ in 0..5 {
                bench.frame(&mut gl, draws);
            }
            let native = bench.checksum(&mut gl);
            let mut vk = RawVk::with_validation().expect("lavapipe with validation");
            let mut raw = RawBench::setup(&mut vk, scene, draws).expect("setup");
            for _ in 0..5 {
                raw.frame(&mut vk, draws).expect("frame");
            }
            let sum = raw.checksum(&mut vk).expect("checksum");
            raw.destroy(&mut vk);
            assert_eq!(vk.messages(), Vec::<String>::new(), "{}", scene.name());
            assert_eq!(sum, native, "{}", scene.name());
        }
    }
}

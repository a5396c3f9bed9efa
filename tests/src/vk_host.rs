//! A host's own Vulkan device, as an embedder has one: an instance with the Khronos
//! validation layer (every warning and error kept, [`HostVk::messages`]), a device with
//! `VK_KHR_external_memory_fd`, and what a host does with an image Tessera exported: import
//! the descriptor, acquire the image from `VK_QUEUE_FAMILY_EXTERNAL`, copy it into a
//! host-visible buffer and read it. Also the message that carries an export from one process
//! to another over a Unix socket (`SCM_RIGHTS`).
#![expect(
    unsafe_code,
    reason = "Vulkan calls through ash, descriptors through sendmsg"
)]

use std::ffi::{CStr, c_void};
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::sync::{Mutex, PoisonError};

use ash::vk;
use tessera_engine::export::ExportedImageInfo;
use tessera_engine::gl::*;

use crate::gl::{Gl, NativeGl};
use crate::scenes::link_program;

/// Bytes of an [`ExportedImageInfo`] in a message ([`info_to_bytes`]).
pub const DESC_LEN: usize = 4 * 9 + 8 * 4 + 32;

/// An export's description as little-endian bytes, field by field, for another process.
pub fn info_to_bytes(i: &ExportedImageInfo) -> Vec<u8> {
    let mut b = Vec::with_capacity(DESC_LEN);
    for w in [
        i.handle_type,
        i.drm_fourcc,
        i.vk_format as u32,
        i.extent[0],
        i.extent[1],
        i.tiling as u32,
        i.usage,
        i.layout as u32,
        i.memory_type_bits,
    ] {
        b.extend_from_slice(&w.to_le_bytes());
    }
    for d in [i.drm_modifier, i.allocation_size, i.offset, i.row_pitch] {
        b.extend_from_slice(&d.to_le_bytes());
    }
    b.extend_from_slice(&i.driver_uuid);
    b.extend_from_slice(&i.device_uuid);
    b
}

/// The description [`info_to_bytes`] wrote.
pub fn info_from_bytes(b: &[u8]) -> Option<ExportedImageInfo> {
    if b.len() != DESC_LEN {
        return None;
    }
    let u = |i: usize| u32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap_or_default());
    let d = |i: usize| u64::from_le_bytes(b[36 + i * 8..44 + i * 8].try_into().unwrap_or_default());
    Some(ExportedImageInfo {
        handle_type: u(0),
        drm_fourcc: u(1),
        vk_format: u(2) as i32,
        extent: [u(3), u(4)],
        tiling: u(5) as i32,
        usage: u(6),
        layout: u(7) as i32,
        memory_type_bits: u(8),
        drm_modifier: d(0),
        allocation_size: d(1),
        offset: d(2),
        row_pitch: d(3),
        driver_uuid: b[68..84].try_into().ok()?,
        device_uuid: b[84..100].try_into().ok()?,
    })
}

/// Sends `payload` with `fd` attached (`SCM_RIGHTS`); the descriptor stays open here too.
pub fn send_fd(stream: &UnixStream, payload: &[u8], fd: &OwnedFd) -> std::io::Result<()> {
    let raw = fd.as_raw_fd();
    let space = unsafe_cmsg_space();
    let mut control = vec![0u8; space];
    let mut iov = libc::iovec {
        iov_base: payload.as_ptr().cast_mut().cast(),
        iov_len: payload.len(),
    };
    // SAFETY: a zeroed msghdr is valid; the pointers set below outlive the call.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &raw mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space as _;
    // SAFETY: `control` holds CMSG_SPACE of one descriptor, so the first header and its data
    // lie inside it.
    unsafe {
        let cmsg = libc::CMSG_FIRSTHDR(&raw const msg);
        (*cmsg).cmsg_level = libc::SOL_SOCKET;
        (*cmsg).cmsg_type = libc::SCM_RIGHTS;
        (*cmsg).cmsg_len = libc::CMSG_LEN(size_of::<libc::c_int>() as u32) as _;
        std::ptr::write_unaligned(libc::CMSG_DATA(cmsg).cast::<libc::c_int>(), raw);
    }
    // SAFETY: a connected socket; `msg` is complete.
    let sent = unsafe { libc::sendmsg(stream.as_raw_fd(), &raw const msg, 0) };
    if sent < 0 {
        return Err(std::io::Error::last_os_error());
    }
    if sent as usize != payload.len() {
        return Err(std::io::Error::other("short sendmsg"));
    }
    Ok(())
}

fn unsafe_cmsg_space() -> usize {
    // SAFETY: a pure computation on a size.
    unsafe { libc::CMSG_SPACE(size_of::<libc::c_int>() as u32) as usize }
}

/// Receives a message of `len` bytes [`send_fd`] sent, with its descriptor.
pub fn recv_fd(stream: &UnixStream, len: usize) -> std::io::Result<(Vec<u8>, OwnedFd)> {
    let space = unsafe_cmsg_space();
    let mut control = vec![0u8; space];
    let mut payload = vec![0u8; len];
    let mut iov = libc::iovec {
        iov_base: payload.as_mut_ptr().cast(),
        iov_len: len,
    };
    // SAFETY: a zeroed msghdr is valid; the pointers set below outlive the call.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &raw mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space as _;
    // SAFETY: a connected socket; `msg` points at buffers of the sizes it names.
    let got = unsafe { libc::recvmsg(stream.as_raw_fd(), &raw mut msg, libc::MSG_CMSG_CLOEXEC) };
    if got < 0 {
        return Err(std::io::Error::last_os_error());
    }
    payload.truncate(got as usize);
    // SAFETY: recvmsg filled the control buffer; the header, if any, lies inside it.
    let fd = unsafe {
        let cmsg = libc::CMSG_FIRSTHDR(&raw const msg);
        if cmsg.is_null()
            || (*cmsg).cmsg_level != libc::SOL_SOCKET
            || (*cmsg).cmsg_type != libc::SCM_RIGHTS
        {
            return Err(std::io::Error::other("no descriptor in the message"));
        }
        let raw = std::ptr::read_unaligned(libc::CMSG_DATA(cmsg).cast::<libc::c_int>());
        OwnedFd::from_raw_fd(raw)
    };
    Ok((payload, fd))
}

/// Writes a length-prefixed message.
pub fn write_frame(stream: &mut UnixStream, bytes: &[u8]) -> std::io::Result<()> {
    stream.write_all(&(bytes.len() as u64).to_le_bytes())?;
    stream.write_all(bytes)
}

/// Reads a message [`write_frame`] wrote.
pub fn read_frame(stream: &mut UnixStream) -> std::io::Result<Vec<u8>> {
    let mut len = [0u8; 8];
    stream.read_exact(&mut len)?;
    let mut bytes = vec![0u8; u64::from_le_bytes(len) as usize];
    stream.read_exact(&mut bytes)?;
    Ok(bytes)
}

/// A host's instance and device on the first Vulkan device (lavapipe in the tests), with
/// the validation layer on.
pub struct HostVk {
    /// The loader.
    pub entry: ash::Entry,
    /// The instance.
    pub instance: ash::Instance,
    debug: ash::ext::debug_utils::Instance,
    messenger: vk::DebugUtilsMessengerEXT,
    messages: Box<Mutex<Vec<String>>>,
    /// The physical device.
    pub phys: vk::PhysicalDevice,
    /// The device.
    pub device: ash::Device,
    /// Its one queue.
    pub queue: vk::Queue,
    /// The queue's family.
    pub family: u32,
    /// The core features enabled: every one the device has.
    pub features: vk::PhysicalDeviceFeatures,
    pool: vk::CommandPool,
}

/// The Vulkan version the host's instance asks for.
pub const HOST_API: u32 = vk::API_VERSION_1_2;

unsafe extern "system" fn on_message(
    _severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: the layer passes valid callback data; `user` is the boxed Mutex of the
    // HostVk, which outlives the messenger.
    unsafe {
        let messages = &*user.cast::<Mutex<Vec<String>>>();
        let text = if (*data).p_message.is_null() {
            String::new()
        } else {
            CStr::from_ptr((*data).p_message)
                .to_string_lossy()
                .into_owned()
        };
        messages
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(text);
    }
    vk::FALSE
}

fn vkr<T>(call: &str, r: Result<T, vk::Result>) -> Result<T, String> {
    r.map_err(|e| format!("{call}: {e}"))
}

impl HostVk {
    /// Loads Vulkan and creates the instance (validation on) and a device with
    /// `extensions` (and `VK_KHR_external_memory_fd`).
    pub fn new(extensions: &[&CStr]) -> Result<Self, String> {
        // SAFETY: loading the system's libvulkan.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| e.to_string())?;
        let app = vk::ApplicationInfo::default().api_version(HOST_API);
        let layers = [c"VK_LAYER_KHRONOS_validation".as_ptr()];
        let exts = [ash::ext::debug_utils::NAME.as_ptr()];
        let info = vk::InstanceCreateInfo::default()
            .application_info(&app)
            .enabled_layer_names(&layers)
            .enabled_extension_names(&exts);
        // SAFETY: a valid create info; the layer and extension are the tests' requirements.
        let instance = vkr("vkCreateInstance", unsafe {
            entry.create_instance(&info, None)
        })?;
        let messages: Box<Mutex<Vec<String>>> = Box::default();
        let debug = ash::ext::debug_utils::Instance::new(&entry, &instance);
        let m = vk::DebugUtilsMessengerCreateInfoEXT::default()
            .message_severity(
                vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                    | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
            )
            .message_type(
                vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                    | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                    | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
            )
            .pfn_user_callback(Some(on_message))
            .user_data(
                std::ptr::from_ref::<Mutex<Vec<String>>>(&messages)
                    .cast_mut()
                    .cast(),
            );
        // SAFETY: debug utils is enabled; the user data outlives the messenger (both are
        // dropped together, the messenger first).
        let messenger = vkr("vkCreateDebugUtilsMessengerEXT", unsafe {
            debug.create_debug_utils_messenger(&m, None)
        })?;
        // SAFETY: a live instance.
        let phys = vkr("vkEnumeratePhysicalDevices", unsafe {
            instance.enumerate_physical_devices()
        })?
        .into_iter()
        .next()
        .ok_or("no Vulkan device")?;
        // SAFETY: a physical device of this instance.
        let family = unsafe { instance.get_physical_device_queue_family_properties(phys) }
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::GRAPHICS))
            .ok_or("no graphics queue")? as u32;
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let mut names = vec![ash::khr::external_memory_fd::NAME.as_ptr()];
        names.extend(extensions.iter().map(|e| e.as_ptr()));
        // SAFETY: a physical device of this instance.
        let features = unsafe { instance.get_physical_device_features(phys) };
        let dinfo = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&names)
            .enabled_features(&features);
        // SAFETY: a physical device of this instance; a valid create info.
        let device = vkr("vkCreateDevice", unsafe {
            instance.create_device(phys, &dinfo, None)
        })?;
        // SAFETY: the device has one queue of `family`.
        let queue = unsafe { device.get_device_queue(family, 0) };
        let pinfo = vk::CommandPoolCreateInfo::default().queue_family_index(family);
        // SAFETY: a live device.
        let pool = vkr("vkCreateCommandPool", unsafe {
            device.create_command_pool(&pinfo, None)
        })?;
        Ok(Self {
            entry,
            instance,
            debug,
            messenger,
            messages,
            phys,
            device,
            queue,
            family,
            features,
            pool,
        })
    }

    /// The validation layer's messages so far, taken.
    pub fn messages(&self) -> Vec<String> {
        std::mem::take(&mut *self.messages.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// This device's `driverUUID` and `deviceUUID`.
    pub fn uuids(&self) -> ([u8; 16], [u8; 16]) {
        let mut id = vk::PhysicalDeviceIDProperties::default();
        let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut id);
        // SAFETY: a physical device of this instance (Vulkan 1.1).
        unsafe {
            self.instance
                .get_physical_device_properties2(self.phys, &mut p2)
        };
        (id.driver_uuid, id.device_uuid)
    }

    /// A memory type of `bits` with `flags`.
    pub fn memory_type(&self, bits: u32, flags: vk::MemoryPropertyFlags) -> Option<u32> {
        // SAFETY: a physical device of this instance.
        let props = unsafe {
            self.instance
                .get_physical_device_memory_properties(self.phys)
        };
        (0..props.memory_type_count).find(|&i| {
            bits & (1 << i) != 0
                && props.memory_types[i as usize]
                    .property_flags
                    .contains(flags)
        })
    }

    /// A 2D image of `format`, `extent`, one level, optimal tiling and `usage`, in new
    /// memory of its own (a dedicated allocation) made exportable as an opaque descriptor,
    /// the memory's size, and one descriptor of it (`vkGetMemoryFdKHR`). The caller destroys
    /// the image and frees the memory.
    pub fn exportable_image(
        &self,
        format: vk::Format,
        extent: vk::Extent3D,
        usage: vk::ImageUsageFlags,
        flags: vk::ImageCreateFlags,
    ) -> Result<(vk::Image, vk::DeviceMemory, u64, OwnedFd), String> {
        let d = &self.device;
        let mut external = vk::ExternalMemoryImageCreateInfo::default()
            .handle_types(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
        let info = vk::ImageCreateInfo::default()
            .flags(flags)
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(extent)
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .push_next(&mut external);
        // SAFETY: a live device; a valid create info.
        let image = vkr("vkCreateImage", unsafe { d.create_image(&info, None) })?;
        // SAFETY: a live image.
        let req = unsafe { d.get_image_memory_requirements(image) };
        let type_index = self
            .memory_type(req.memory_type_bits, vk::MemoryPropertyFlags::DEVICE_LOCAL)
            .or_else(|| self.memory_type(req.memory_type_bits, vk::MemoryPropertyFlags::empty()))
            .ok_or("no memory type for the image")?;
        let mut export = vk::ExportMemoryAllocateInfo::default()
            .handle_types(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
        let mut dedicated = vk::MemoryDedicatedAllocateInfo::default().image(image);
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(type_index)
            .push_next(&mut export)
            .push_next(&mut dedicated);
        // SAFETY: a live device; an exportable dedicated allocation of this image.
        let memory = vkr("vkAllocateMemory", unsafe {
            d.allocate_memory(&alloc, None)
        })?;
        // SAFETY: the dedicated allocation of this image, bound once.
        vkr("vkBindImageMemory", unsafe {
            d.bind_image_memory(image, memory, 0)
        })?;
        let fd = self.memory_fd(memory)?;
        Ok((image, memory, req.size, fd))
    }

    /// A new opaque descriptor of exportable `memory` (`vkGetMemoryFdKHR`).
    pub fn memory_fd(&self, memory: vk::DeviceMemory) -> Result<OwnedFd, String> {
        let ext = ash::khr::external_memory_fd::Device::new(&self.instance, &self.device);
        let info = vk::MemoryGetFdInfoKHR::default()
            .memory(memory)
            .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
        // SAFETY: memory of this device allocated exportable as an opaque descriptor.
        let raw = vkr("vkGetMemoryFdKHR", unsafe { ext.get_memory_fd(&info) })?;
        // SAFETY: a new descriptor the call made for us alone.
        Ok(unsafe { OwnedFd::from_raw_fd(raw) })
    }

    /// Imports an exported image (`fd` taken over by the import) and reads it: the acquire
    /// from `VK_QUEUE_FAMILY_EXTERNAL`, a copy into a host-visible buffer, a fence waited
    /// for. RGBA8-sized texels (4 bytes), rows tightly packed, bottom row first.
    pub fn import_and_read(
        &self,
        desc: &ExportedImageInfo,
        fd: OwnedFd,
    ) -> Result<Vec<u8>, String> {
        if self.uuids() != (desc.driver_uuid, desc.device_uuid) {
            return Err("the export comes from another driver or device".into());
        }
        let d = &self.device;
        let extent = vk::Extent3D {
            width: desc.extent[0],
            height: desc.extent[1],
            depth: 1,
        };
        let mut external = vk::ExternalMemoryImageCreateInfo::default()
            .handle_types(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(vk::Format::from_raw(desc.vk_format))
            .extent(extent)
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::from_raw(desc.tiling))
            .usage(vk::ImageUsageFlags::from_raw(desc.usage))
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .push_next(&mut external);
        // SAFETY: a live device; the parameters of the exported image.
        let image = vkr("vkCreateImage", unsafe { d.create_image(&info, None) })?;
        // SAFETY: a live image.
        let req = unsafe { d.get_image_memory_requirements(image) };
        let type_index = self
            .memory_type(
                req.memory_type_bits & desc.memory_type_bits,
                vk::MemoryPropertyFlags::empty(),
            )
            .ok_or("no memory type to import into")?;
        let mut import = vk::ImportMemoryFdInfoKHR::default()
            .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD)
            .fd(fd.into_raw_fd());
        let mut dedicated = vk::MemoryDedicatedAllocateInfo::default().image(image);
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(desc.allocation_size)
            .memory_type_index(type_index)
            .push_next(&mut import)
            .push_next(&mut dedicated);
        // SAFETY: the descriptor is an opaque export of a device with our UUIDs, of this
        // size, dedicated to an image of these parameters; the import owns it from here.
        let memory = vkr("vkAllocateMemory(import)", unsafe {
            d.allocate_memory(&alloc, None)
        })?;
        // SAFETY: the dedicated allocation of this image.
        vkr("vkBindImageMemory", unsafe {
            d.bind_image_memory(image, memory, 0)
        })?;
        let size = u64::from(desc.extent[0]) * u64::from(desc.extent[1]) * 4;
        let bytes = self.read_image(
            image,
            extent,
            size,
            vk::ImageLayout::from_raw(desc.layout),
            vk::QUEUE_FAMILY_EXTERNAL,
        );
        // SAFETY: the copy completed (or failed before submission); nothing uses them.
        unsafe {
            d.destroy_image(image, None);
            d.free_memory(memory, None);
        }
        bytes
    }

    /// Copies `image` (in `layout`, owned by queue family `from`: acquired into this one's
    /// family when it is another) into a host-visible buffer of `size` bytes and reads it.
    pub fn read_image(
        &self,
        image: vk::Image,
        extent: vk::Extent3D,
        size: u64,
        layout: vk::ImageLayout,
        from: u32,
    ) -> Result<Vec<u8>, String> {
        self.read_image_after(image, extent, size, layout, from, vk::Semaphore::null())
    }

    /// [`HostVk::read_image`] whose submission first waits on `wait` (at the transfer
    /// stage) unless it is null: a semaphore the image's producer signals.
    pub fn read_image_after(
        &self,
        image: vk::Image,
        extent: vk::Extent3D,
        size: u64,
        layout: vk::ImageLayout,
        from: u32,
        wait: vk::Semaphore,
    ) -> Result<Vec<u8>, String> {
        let d = &self.device;
        let binfo = vk::BufferCreateInfo::default()
            .size(size)
            .usage(vk::BufferUsageFlags::TRANSFER_DST)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: a live device.
        let buffer = vkr("vkCreateBuffer", unsafe { d.create_buffer(&binfo, None) })?;
        // SAFETY: a live buffer.
        let breq = unsafe { d.get_buffer_memory_requirements(buffer) };
        let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let btype = self
            .memory_type(breq.memory_type_bits, host)
            .ok_or("no host-visible memory")?;
        let balloc = vk::MemoryAllocateInfo::default()
            .allocation_size(breq.size)
            .memory_type_index(btype);
        // SAFETY: a live device.
        let bmem = vkr("vkAllocateMemory", unsafe {
            d.allocate_memory(&balloc, None)
        })?;
        // SAFETY: fresh memory of the buffer's requirements.
        vkr("vkBindBufferMemory", unsafe {
            d.bind_buffer_memory(buffer, bmem, 0)
        })?;
        let cinfo = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: a live pool of this device.
        let cmd = vkr("vkAllocateCommandBuffers", unsafe {
            d.allocate_command_buffers(&cinfo)
        })?[0];
        let range = vk::ImageSubresourceRange::default()
            .aspect_mask(vk::ImageAspectFlags::COLOR)
            .level_count(1)
            .layer_count(1);
        let (src_family, dst_family) = if from == self.family {
            (vk::QUEUE_FAMILY_IGNORED, vk::QUEUE_FAMILY_IGNORED)
        } else {
            (from, self.family)
        };
        let acquire = vk::ImageMemoryBarrier::default()
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ)
            .old_layout(layout)
            .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
            .src_queue_family_index(src_family)
            .dst_queue_family_index(dst_family)
            .image(image)
            .subresource_range(range);
        let copy = vk::BufferImageCopy::default()
            .image_subresource(
                vk::ImageSubresourceLayers::default()
                    .aspect_mask(vk::ImageAspectFlags::COLOR)
                    .layer_count(1),
            )
            .image_extent(extent);
        let to_host = vk::BufferMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .buffer(buffer)
            .size(vk::WHOLE_SIZE);
        let finfo = vk::FenceCreateInfo::default();
        // SAFETY: a live device.
        let fence = vkr("vkCreateFence", unsafe { d.create_fence(&finfo, None) })?;
        // SAFETY: a fresh primary command buffer recorded once and submitted once; the
        // image is in `layout` (its producer's hand-over), the buffer holds the image's
        // tightly packed texels; the fence is waited for before anything is freed.
        let result = unsafe {
            vkr(
                "vkBeginCommandBuffer",
                d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default()),
            )?;
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[acquire],
            );
            d.cmd_copy_image_to_buffer(
                cmd,
                image,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                buffer,
                &[copy],
            );
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[],
                &[to_host],
                &[],
            );
            vkr("vkEndCommandBuffer", d.end_command_buffer(cmd))?;
            let cmds = [cmd];
            let waits = [wait];
            let stages = [vk::PipelineStageFlags::TRANSFER];
            let n = usize::from(wait != vk::Semaphore::null());
            let submit = vk::SubmitInfo::default()
                .command_buffers(&cmds)
                .wait_semaphores(&waits[..n])
                .wait_dst_stage_mask(&stages[..n]);
            vkr(
                "vkQueueSubmit",
                d.queue_submit(self.queue, &[submit], fence),
            )?;
            vkr(
                "vkWaitForFences",
                d.wait_for_fences(&[fence], true, u64::MAX),
            )?;
            let ptr = vkr(
                "vkMapMemory",
                d.map_memory(bmem, 0, size, vk::MemoryMapFlags::empty()),
            )?;
            let mut out = vec![0u8; size as usize];
            std::ptr::copy_nonoverlapping(ptr.cast::<u8>(), out.as_mut_ptr(), out.len());
            d.unmap_memory(bmem);
            Ok(out)
        };
        // SAFETY: the fence was waited for (or nothing was submitted).
        unsafe {
            d.destroy_fence(fence, None);
            d.free_command_buffers(self.pool, &[cmd]);
            d.destroy_buffer(buffer, None);
            d.free_memory(bmem, None);
        }
        result
    }
}

impl Drop for HostVk {
    fn drop(&mut self) {
        // SAFETY: everything made from the device was destroyed; the queue is idle after
        // the wait.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_command_pool(self.pool, None);
            self.device.destroy_device(None);
            self.debug
                .destroy_debug_utils_messenger(self.messenger, None);
            self.instance.destroy_instance(None);
        }
    }
}

/// The size of [`scene`]'s texture: odd sizes, so a row pitch that is not `width * 4` would show.
pub const W: i32 = 61;
pub const H: i32 = 37;

const VS: &str = "#version 330 core
const vec2 p[3] = vec2[3](vec2(-0.9, -0.8), vec2(0.7, -0.3), vec2(-0.2, 0.9));
void main() { gl_Position = vec4(p[gl_VertexID], 0.0, 1.0); }
";
const FS: &str = "#version 330 core
out vec4 color;
void main() { color = vec4(0.2, 1.0, 0.6, 1.0); }
";

/// Draws the scene into a new RGBA8 texture attached to the bound framebuffer; returns
/// the texture.
pub fn scene(gl: &mut dyn Gl) -> GLuint {
    let tex = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, tex);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as i32,
        W,
        H,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    scene_on(gl, tex);
    tex
}

/// Draws the scene into `tex`, an RGBA8 2D texture of [`W`] x [`H`] whatever made its
/// storage, attached to a new framebuffer left bound.
pub fn scene_on(gl: &mut dyn Gl, tex: GLuint) {
    let fbo = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fbo);
    gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, tex, 0);
    gl.viewport(0, 0, W, H);
    gl.clear_color(0.0, 0.2, 0.4, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.enable(SCISSOR_TEST);
    gl.scissor(3, 2, 20, 9);
    gl.clear_color(1.0, 0.6, 0.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.disable(SCISSOR_TEST);
    let program = link_program(gl, VS, FS);
    gl.use_program(program);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    gl.draw_arrays(TRIANGLES, 0, 3);
}

fn pixel(image: &[u8], x: i32, y: i32) -> [u8; 4] {
    let at = ((y * W + x) * 4) as usize;
    image[at..at + 4].try_into().unwrap()
}

/// The scene on native llvmpipe, read back from the texture's framebuffer (bottom row
/// first), with its probes checked.
pub fn native_pixels() -> Vec<u8> {
    let mut native = NativeGl::new(W, H).expect("native desktop GL through the system EGL");
    scene(&mut native);
    let mut out = vec![0u8; (W * H * 4) as usize];
    native.pixel_storei(PACK_ALIGNMENT, 4);
    native.read_pixels(0, 0, W, H, RGBA, UNSIGNED_BYTE, &mut out);
    assert_eq!(native.get_error(), NO_ERROR);
    assert_eq!(pixel(&out, 0, 0), [0, 51, 102, 255], "background");
    assert_eq!(pixel(&out, 21, 3), [255, 153, 0, 255], "scissored clear");
    assert_eq!(pixel(&out, 26, 17), [51, 255, 153, 255], "triangle");
    out
}

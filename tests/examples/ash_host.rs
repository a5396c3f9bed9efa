//! A host with its own `ash` device that lends it to Tessera, draws through GL, and uses the
//! frame Tessera hands over in its own command buffer — no read-back through GL.
//!
//! ```sh
//! cargo run -p tessera-tests --example ash_host
//! ```
//!
//! The host creates its instance (validation on) and device, lends them to the Vulkan
//! backend (`VulkanBackend::with_host_device`), draws the tests' scene into a texture, and
//! takes it with `Context::hand_over_texture_signalled`: a `VkImage` of its own device in
//! `SHADER_READ_ONLY_OPTIMAL` plus a semaphore the copy signals. Its submission waits on the
//! semaphore, blits the image into an image of its own turned upright (GL's rows are
//! bottom-up), and the host reads that back to print a checksum and a few texels. It exits
//! with an error if that frame is not GL's rows upside down (`glReadPixels`, here only as
//! the check) or if the validation layer said anything.
#![expect(unsafe_code, reason = "the host's own Vulkan calls through ash")]

use std::ffi::CString;
use std::sync::{Arc, Mutex};

use ash::vk;
use ash::vk::Handle;
use tessera_backend_vk::{HostDevice, VulkanBackend};
use tessera_engine::gl::{RGBA, UNSIGNED_BYTE};
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::gl::Gl;
use tessera_tests::vk_host::{H, HOST_API, HostVk, W, scene};

fn main() -> Result<(), String> {
    let host = HostVk::new(&[])?;
    let queue_lock = Arc::new(Mutex::new(()));
    let lent = HostDevice {
        entry: host.entry.clone(),
        instance: host.instance.clone(),
        physical_device: host.phys,
        device: host.device.clone(),
        queue_family: host.family,
        queue: host.queue,
        queue_lock: queue_lock.clone(),
        api_version: HOST_API,
        features: host.features,
        extensions: vec![CString::from(ash::khr::external_memory_fd::NAME)],
    };
    let backend = VulkanBackend::with_host_device(lent).map_err(|e| e.to_string())?;
    let config = Config {
        backend: BackendKind::Vulkan,
        transport: TransportKind::Inproc,
        surface: Some(SurfaceConfig::new(W as u32, H as u32)),
        ..Config::default()
    };
    let mut ctx = Context::with_backend(&config, Box::new(backend));

    // GL draws; the texture comes over as an image of the host's device, with a semaphore.
    let texture = scene(&mut ctx);
    let handed = ctx
        .hand_over_texture_signalled(texture)
        .map_err(|e| format!("hand-over: {e:?}"))?;
    let extent = vk::Extent3D {
        width: handed.extent[0],
        height: handed.extent[1],
        depth: 1,
    };
    let image = vk::Image::from_raw(handed.image);
    let ready = vk::Semaphore::from_raw(handed.semaphore);

    // The host's own image, which its submission fills from the handed-over one.
    let upright = Upright::new(&host, extent)?;
    upright.fill_from(&host, &queue_lock, image, ready, extent)?;
    let pixels = {
        let _queue = queue_lock.lock().map_err(|e| e.to_string())?;
        host.read_image(
            upright.image,
            extent,
            u64::from(extent.width) * u64::from(extent.height) * 4,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            host.family,
        )?
    };
    // The check: GL's own rows (bottom-up) of the texture, still bound for reading.
    let mut gl_rows = vec![0u8; pixels.len()];
    Gl::read_pixels(&mut ctx, 0, 0, W, H, RGBA, UNSIGNED_BYTE, &mut gl_rows);
    let upside_down: Vec<u8> = gl_rows
        .chunks(extent.width as usize * 4)
        .rev()
        .flatten()
        .copied()
        .collect();
    drop(ctx);
    // SAFETY: the host's objects; its submission that used them completed (fill_from
    // waited for its fence) and Tessera's context, the only other user, is gone.
    unsafe {
        host.device.destroy_semaphore(ready, None);
        host.device.destroy_image(image, None);
        host.device
            .free_memory(vk::DeviceMemory::from_raw(handed.memory), None);
    }
    upright.destroy(&host);

    let checksum = pixels.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let texel = |x: usize, y: usize| {
        let at = (y * extent.width as usize + x) * 4;
        pixels[at..at + 4].to_vec()
    };
    // GL's (21, 3) is in the orange scissored clear, (26, 17) in the triangle.
    let h = extent.height as usize;
    println!(
        "{}x{} frame, FNV-1a {checksum:016x}; top-left {:?}, GL's (21, 3) {:?}, GL's (26, 17) {:?}",
        extent.width,
        h,
        texel(0, 0),
        texel(21, h - 1 - 3),
        texel(26, h - 1 - 17)
    );
    if pixels != upside_down {
        return Err("the host's upright frame is not GL's rows upside down".to_owned());
    }
    let messages = host.messages();
    if messages.is_empty() {
        Ok(())
    } else {
        Err(format!("validation: {messages:#?}"))
    }
}

/// The host's image the handed-over frame is blitted into upright, with the command pool
/// that does it.
struct Upright {
    image: vk::Image,
    memory: vk::DeviceMemory,
    pool: vk::CommandPool,
}

impl Upright {
    fn new(host: &HostVk, extent: vk::Extent3D) -> Result<Self, String> {
        let d = &host.device;
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(vk::Format::R8G8B8A8_UNORM)
            .extent(extent)
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::TRANSFER_DST | vk::ImageUsageFlags::TRANSFER_SRC)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        // SAFETY: a live device; a valid create info.
        let image = unsafe { d.create_image(&info, None) }.map_err(|e| e.to_string())?;
        // SAFETY: a live image of this device.
        let req = unsafe { d.get_image_memory_requirements(image) };
        let ty = host
            .memory_type(req.memory_type_bits, vk::MemoryPropertyFlags::empty())
            .ok_or("no memory type for the host's image")?;
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(ty);
        // SAFETY: a live device; a memory type the image allows.
        let memory = unsafe { d.allocate_memory(&alloc, None) }.map_err(|e| e.to_string())?;
        // SAFETY: fresh memory of the image's requirements, bound once.
        unsafe { d.bind_image_memory(image, memory, 0) }.map_err(|e| e.to_string())?;
        let pinfo = vk::CommandPoolCreateInfo::default().queue_family_index(host.family);
        // SAFETY: a live device.
        let pool = unsafe { d.create_command_pool(&pinfo, None) }.map_err(|e| e.to_string())?;
        Ok(Self {
            image,
            memory,
            pool,
        })
    }

    /// One submission on the shared queue: waits on `ready` (Tessera's copy), blits
    /// `handed` (in `SHADER_READ_ONLY_OPTIMAL`) into this image flipped vertically, and
    /// leaves it in `TRANSFER_SRC_OPTIMAL`; returns once it completed.
    fn fill_from(
        &self,
        host: &HostVk,
        lock: &Mutex<()>,
        handed: vk::Image,
        ready: vk::Semaphore,
        extent: vk::Extent3D,
    ) -> Result<(), String> {
        let d = &host.device;
        let cinfo = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: a live pool of this device.
        let cmd = unsafe { d.allocate_command_buffers(&cinfo) }.map_err(|e| e.to_string())?[0];
        let range = vk::ImageSubresourceRange::default()
            .aspect_mask(vk::ImageAspectFlags::COLOR)
            .level_count(1)
            .layer_count(1);
        let barrier = |image, from, to, src, dst| {
            vk::ImageMemoryBarrier::default()
                .src_access_mask(src)
                .dst_access_mask(dst)
                .old_layout(from)
                .new_layout(to)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image)
                .subresource_range(range)
        };
        let before = [
            // The hand-over's layout; Tessera's barrier already made the copy visible.
            barrier(
                handed,
                vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                vk::AccessFlags::empty(),
                vk::AccessFlags::TRANSFER_READ,
            ),
            barrier(
                self.image,
                vk::ImageLayout::UNDEFINED,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                vk::AccessFlags::empty(),
                vk::AccessFlags::TRANSFER_WRITE,
            ),
        ];
        let after = [barrier(
            self.image,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            vk::AccessFlags::TRANSFER_WRITE,
            vk::AccessFlags::TRANSFER_READ,
        )];
        let layers = vk::ImageSubresourceLayers::default()
            .aspect_mask(vk::ImageAspectFlags::COLOR)
            .layer_count(1);
        let (w, h) = (extent.width as i32, extent.height as i32);
        // GL's row 0 is the bottom: the source's rows run upwards.
        let blit = vk::ImageBlit::default()
            .src_subresource(layers)
            .src_offsets([
                vk::Offset3D { x: 0, y: h, z: 0 },
                vk::Offset3D { x: w, y: 0, z: 1 },
            ])
            .dst_subresource(layers)
            .dst_offsets([vk::Offset3D::default(), vk::Offset3D { x: w, y: h, z: 1 }]);
        // SAFETY: a fresh primary command buffer recorded once; the images are in the
        // layouts the barriers name; the submission waits on Tessera's semaphore, which its
        // copy's submission (already made) signals, and goes to the shared queue under its
        // lock; the fence is waited for before the command buffer is freed.
        unsafe {
            d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
                .map_err(|e| e.to_string())?;
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &before,
            );
            d.cmd_blit_image(
                cmd,
                handed,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                self.image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &[blit],
                vk::Filter::NEAREST,
            );
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &after,
            );
            d.end_command_buffer(cmd).map_err(|e| e.to_string())?;
            let fence = d
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .map_err(|e| e.to_string())?;
            let cmds = [cmd];
            let waits = [ready];
            let stages = [vk::PipelineStageFlags::TRANSFER];
            let submit = vk::SubmitInfo::default()
                .command_buffers(&cmds)
                .wait_semaphores(&waits)
                .wait_dst_stage_mask(&stages);
            {
                let _queue = lock.lock().map_err(|e| e.to_string())?;
                d.queue_submit(host.queue, &[submit], fence)
                    .map_err(|e| e.to_string())?;
            }
            d.wait_for_fences(&[fence], true, u64::MAX)
                .map_err(|e| e.to_string())?;
            d.destroy_fence(fence, None);
            d.free_command_buffers(self.pool, &cmds);
        }
        Ok(())
    }

    fn destroy(self, host: &HostVk) {
        // SAFETY: nothing pending uses them (every submission was waited for).
        unsafe {
            host.device.destroy_command_pool(self.pool, None);
            host.device.destroy_image(self.image, None);
            host.device.free_memory(self.memory, None);
        }
    }
}

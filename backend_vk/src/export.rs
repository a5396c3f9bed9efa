//! Frames out to a host: a texture's image copied into device memory made exportable, and
//! handed over as a file descriptor (`ExportTexture`, `VK_KHR_external_memory_fd`).
//!
//! ## What the importer gets
//! The copy is a new image of its own allocation, one level and one layer of level 0's
//! extent, in the texture's native format, with **linear** tiling (its rows lie at
//! [`ExportedImageInfo::offset`] plus a multiple of [`ExportedImageInfo::row_pitch`]) and a
//! dedicated allocation, so an importer on a device with the same driver and device UUIDs
//! makes the identical image (same format, extent, tiling, usage, external handle type),
//! imports the descriptor as its dedicated memory of [`ExportedImageInfo::allocation_size`]
//! bytes, and binds it at offset 0. Rows are GL's: row 0 is the bottom of the image.
//!
//! ## Synchronisation and hand-over
//! The copy is recorded after everything earlier in the batch stream, then the frame is
//! submitted and its fence waited for (`vkWaitForFences`) before the descriptor is made: the
//! reply is the message that the pixels are complete, so the importer needs no semaphore.
//! The last barrier releases the image to `VK_QUEUE_FAMILY_EXTERNAL` in `GENERAL` layout;
//! the importer acquires it from `VK_QUEUE_FAMILY_EXTERNAL` (old layout `GENERAL`) before
//! using it. The backend frees its own image and memory object once the descriptor exists:
//! the memory lives on in the descriptor and in the importer's allocation, and each export
//! is a new allocation, so the host may keep an export as long as it likes.
//!
//! ## To a host's own device
//! On a device a host lent (`host_device.rs`), `HandOverTexture` makes the same copy with
//! optimal tiling and no external memory, leaves it in `SHADER_READ_ONLY_OPTIMAL` in the
//! lent queue's family, and replies with the `VkImage` and `VkDeviceMemory` handles, which
//! belong to the host from then on. Asked for a semaphore, it creates a binary `VkSemaphore`
//! that the copy's submission signals and replies right after submitting, without waiting:
//! the host waits on the semaphore in its own submission (a plain semaphore of the same
//! device, so no external-semaphore extension is needed).
//!
//! ## dma-bufs (not exercised in CI)
//! Where the device has `VK_EXT_external_memory_dma_buf` and reports a linear image of the
//! format with the export's usage exportable as one, the descriptor is a dma-buf instead:
//! [`ExportedImageInfo::handle_type`] says so, with the DRM fourcc of the format and the linear
//! modifier, for importers outside Vulkan (EGL, KMS). lavapipe has no dma-buf export, so the
//! tests see the opaque descriptor only.
//!
//! ## With a `sync_file` fence (not exercised in CI)
//! Asked for one (`ExportTexture`'s `fence_token`) on a device that exports binary
//! semaphores as `SYNC_FD` (`Tiers::sync_fd_export`), the copy's submission signals a new
//! semaphore instead of being waited for; its `sync_file` (`vkGetSemaphoreFdKHR`) goes to
//! the engine through the process's table and the reply comes at once. The backend's image
//! and memory then go with the frame's garbage, after the copy retired. lavapipe exports no
//! `SYNC_FD`, so the tests see the waited export only.
//!
//! ## Not built
//! Images with other DRM format modifiers (`VK_EXT_image_drm_format_modifier`).

use ash::vk;
use tessera_wire::backend::bad_value;
use tessera_wire::handle::{SurfaceHandle, TextureHandle};
use tessera_wire::{ExportedImageInfo, ExportedMemory, HostImage, SessionError};

use std::os::fd::FromRawFd;

use crate::device::{VkPipe, vk_error};
use crate::frame::Garbage;
use crate::image::{ImageSource, transition};

const N: &str = "ExportTexture";

/// The driver and device UUIDs of `gpu` (`Caps::device_uuids`), zero on a device that
/// exports no memory (which may be Vulkan 1.0, without `vkGetPhysicalDeviceProperties2`).
pub(crate) fn device_uuids(gpu: &crate::instance::Gpu) -> [[u8; 16]; 2] {
    if !gpu.tiers.memory_export {
        return [[0; 16]; 2];
    }
    let mut id = vk::PhysicalDeviceIDProperties::default();
    let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut id);
    // SAFETY: the physical device of this instance (Vulkan 1.1, which `memory_export`
    // requires); the chained struct is core 1.1.
    unsafe {
        gpu.instance
            .get_physical_device_properties2(gpu.phys, &mut p2)
    };
    [id.driver_uuid, id.device_uuid]
}
const OPAQUE: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
const DMA_BUF: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT;

/// `DRM_FORMAT_MOD_LINEAR`: the modifier of a linear image.
const MOD_LINEAR: u64 = 0;

/// A DRM fourcc code from its four characters.
const fn fourcc(c: &[u8; 4]) -> u32 {
    c[0] as u32 | (c[1] as u32) << 8 | (c[2] as u32) << 16 | (c[3] as u32) << 24
}

/// The DRM fourcc of an image of `format` (bytes in memory order as the fourcc names them,
/// least significant first), or 0 where the export's formats have none.
pub(crate) fn drm_fourcc(format: vk::Format) -> u32 {
    use vk::Format as F;
    match format {
        F::R8G8B8A8_UNORM | F::R8G8B8A8_SRGB => fourcc(b"AB24"),
        F::B8G8R8A8_UNORM | F::B8G8R8A8_SRGB => fourcc(b"AR24"),
        F::A2B10G10R10_UNORM_PACK32 => fourcc(b"AB30"),
        F::R16G16B16A16_SFLOAT => fourcc(b"AB4H"),
        F::R8_UNORM => fourcc(b"R8  "),
        F::R8G8_UNORM => fourcc(b"GR88"),
        F::R16_UNORM => fourcc(b"R16 "),
        _ => 0,
    }
}

/// The usage of an exported image (an importer's must be the same).
const USAGE: vk::ImageUsageFlags = vk::ImageUsageFlags::from_raw(
    vk::ImageUsageFlags::TRANSFER_SRC.as_raw()
        | vk::ImageUsageFlags::TRANSFER_DST.as_raw()
        | vk::ImageUsageFlags::SAMPLED.as_raw(),
);

/// The layout an exported image is released in.
const FD_LAYOUT: vk::ImageLayout = vk::ImageLayout::GENERAL;

/// The layout an image handed to the host that lent the device is in.
const HOST_LAYOUT: vk::ImageLayout = vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL;

/// Where a copy goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    /// Exported memory, as a descriptor of this handle type; the copy's submission
    /// signals the semaphore instead of being waited for, unless it is null.
    Fd(vk::ExternalMemoryHandleTypeFlags, vk::Semaphore),
    /// To the host that lent the device, as handles; the copy's submission signals the
    /// semaphore instead of being waited for, unless it is null.
    Host(vk::Semaphore),
}

/// An exportable image and its memory, destroyed when dropped.
struct Exportable {
    raw: std::sync::Arc<ash::Device>,
    image: vk::Image,
    memory: vk::DeviceMemory,
}

impl Drop for Exportable {
    fn drop(&mut self) {
        // SAFETY: objects of this device that no pending work uses: they are dropped after
        // the frame that copied into them was waited for, or before it was submitted.
        unsafe {
            self.raw.destroy_image(self.image, None);
            if self.memory != vk::DeviceMemory::null() {
                self.raw.free_memory(self.memory, None);
            }
        }
    }
}

impl VkPipe {
    /// `ExportTexture`: level 0 of `handle` copied into a new exportable image, the work
    /// waited for, the memory returned as a descriptor (module docs).
    pub(crate) fn export_texture_memory(
        &mut self,
        handle: TextureHandle,
        fence_token: u64,
    ) -> Result<ExportedMemory, SessionError> {
        self.export_memory(N, ImageSource::Texture(handle), fence_token)
    }

    /// `ExportSurface`: the surface's colour image exported as `ExportTexture` exports a
    /// texture's level 0.
    pub(crate) fn export_surface_memory(
        &mut self,
        surface: SurfaceHandle,
        fence_token: u64,
    ) -> Result<ExportedMemory, SessionError> {
        self.export_memory(
            "ExportSurface",
            ImageSource::SurfaceColor(surface),
            fence_token,
        )
    }

    /// An export of `src` (module docs), with its copy's `sync_file` left under
    /// `fence_token` where one is asked for and the device makes them.
    fn export_memory(
        &mut self,
        n: &'static str,
        src: ImageSource,
        fence_token: u64,
    ) -> Result<ExportedMemory, SessionError> {
        let Some(loader) = self.gpu.memory_fd.clone() else {
            return Err(bad_value(n, "the device has no VK_KHR_external_memory_fd"));
        };
        let ty = self.handle_type(n, src)?;
        let fence = match self.gpu.semaphore_fd.clone() {
            Some(sem_fd) if fence_token != 0 && self.tiers.sync_fd_export => {
                let mut export = vk::ExportSemaphoreCreateInfo::default()
                    .handle_types(vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD);
                let info = vk::SemaphoreCreateInfo::default().push_next(&mut export);
                // SAFETY: a live device; the chained struct is core Vulkan 1.1 and names a
                // handle type the device exports (`Tiers::sync_fd_export`).
                let s = unsafe { self.raw.create_semaphore(&info, None) }
                    .map_err(|e| vk_error("vkCreateSemaphore", e))?;
                Some((sem_fd, s))
            }
            _ => None,
        };
        let signal = fence.as_ref().map_or(vk::Semaphore::null(), |f| f.1);
        let copied = self.copy_out(n, src, Target::Fd(ty, signal));
        if let Some((_, s)) = &fence {
            // Destroyed once the frame after the copy's retired.
            self.frames.current.garbage.push(Garbage::Semaphore(*s));
        }
        let (mut out, format, extent, req, rows) = copied?;
        let get = vk::MemoryGetFdInfoKHR::default()
            .memory(out.memory)
            .handle_type(ty);
        // SAFETY: memory allocated exportable as an opaque descriptor.
        let fd =
            unsafe { loader.get_memory_fd(&get) }.map_err(|e| vk_error("vkGetMemoryFdKHR", e))?;
        if let Some((sem_fd, s)) = fence {
            // The copy may still run: its image and memory go when its frame retired.
            self.frames
                .current
                .garbage
                .push(Garbage::ImportedImage(out.image, out.memory));
            out.image = vk::Image::null();
            out.memory = vk::DeviceMemory::null();
            let get = vk::SemaphoreGetFdInfoKHR::default()
                .semaphore(s)
                .handle_type(vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD);
            // SAFETY: a semaphore exportable as a sync_file whose signal was submitted
            // (copy_out); the descriptor is this process's and goes to the engine.
            let sync = unsafe { sem_fd.get_semaphore_fd(&get) }
                .map_err(|e| vk_error("vkGetSemaphoreFdKHR", e))?;
            // SAFETY: a new descriptor nothing else owns.
            let sync = unsafe { std::os::fd::OwnedFd::from_raw_fd(sync) };
            tessera_wire::backend::leave_fd(fence_token, sync);
        }
        let mut id = vk::PhysicalDeviceIDProperties::default();
        let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut id);
        // SAFETY: the physical device of this instance (Vulkan 1.1); the chained struct is
        // core 1.1.
        unsafe {
            self.gpu
                .instance
                .get_physical_device_properties2(self.gpu.phys, &mut p2)
        };
        let dma_buf = ty == DMA_BUF;
        Ok(ExportedMemory {
            fd,
            info: ExportedImageInfo {
                handle_type: ty.as_raw(),
                drm_fourcc: if dma_buf { drm_fourcc(format) } else { 0 },
                drm_modifier: MOD_LINEAR,
                vk_format: format.as_raw(),
                extent: [extent.width, extent.height],
                tiling: vk::ImageTiling::LINEAR.as_raw(),
                usage: USAGE.as_raw(),
                layout: FD_LAYOUT.as_raw(),
                allocation_size: req.size,
                memory_type_bits: req.memory_type_bits,
                offset: rows.offset,
                row_pitch: rows.row_pitch,
                driver_uuid: id.driver_uuid,
                device_uuid: id.device_uuid,
            },
        })
    }

    /// `HandOverTexture`: level 0 of `handle` copied into a new image of the host's device,
    /// the work waited for — or, with `signal`, a new binary semaphore signalled by the
    /// copy's submission — the image, its memory and the semaphore given to the host
    /// (module docs).
    pub(crate) fn hand_over_texture_image(
        &mut self,
        handle: TextureHandle,
        signal: bool,
    ) -> Result<HostImage, SessionError> {
        const H: &str = "HandOverTexture";
        if self.gpu.owned {
            return Err(bad_value(H, "the device is Tessera's own, not a host's"));
        }
        let semaphore = if signal {
            // SAFETY: a live device; a plain binary semaphore, core Vulkan 1.0.
            unsafe {
                self.raw
                    .create_semaphore(&vk::SemaphoreCreateInfo::default(), None)
            }
            .map_err(|e| vk_error("vkCreateSemaphore", e))?
        } else {
            vk::Semaphore::null()
        };
        let copied = self.copy_out(H, ImageSource::Texture(handle), Target::Host(semaphore));
        let (mut out, format, extent, _, _) = match copied {
            Ok(c) => c,
            Err(e) => {
                if signal {
                    // SAFETY: a semaphore of this device no submission signalled (the
                    // copy failed before submitting, or its submission was refused).
                    unsafe { self.raw.destroy_semaphore(semaphore, None) };
                }
                return Err(e);
            }
        };
        // The host owns them now.
        let (image, memory) = (out.image, out.memory);
        out.image = vk::Image::null();
        out.memory = vk::DeviceMemory::null();
        Ok(HostImage {
            image: vk::Handle::as_raw(image),
            memory: vk::Handle::as_raw(memory),
            vk_format: format.as_raw(),
            extent: [extent.width, extent.height],
            layout: HOST_LAYOUT.as_raw(),
            usage: USAGE.as_raw(),
            queue_family: self.gpu.family,
            semaphore: vk::Handle::as_raw(semaphore),
        })
    }

    /// The handle type an export of `handle`'s image takes: a dma-buf where the device
    /// exports a linear image of its format with the export's usage as one
    /// (`VK_EXT_external_memory_dma_buf`; not exercised in CI), else an opaque descriptor.
    fn handle_type(
        &mut self,
        n: &'static str,
        src: ImageSource,
    ) -> Result<vk::ExternalMemoryHandleTypeFlags, SessionError> {
        if !self.gpu.tiers.dma_buf_export {
            return Ok(OPAQUE);
        }
        let format = match self.image_mut(n, src)? {
            Some(s) => s.native.vk,
            None => return Ok(OPAQUE),
        };
        let mut external =
            vk::PhysicalDeviceExternalImageFormatInfo::default().handle_type(DMA_BUF);
        let info = vk::PhysicalDeviceImageFormatInfo2::default()
            .format(format)
            .ty(vk::ImageType::TYPE_2D)
            .tiling(vk::ImageTiling::LINEAR)
            .usage(USAGE)
            .push_next(&mut external);
        let mut external_props = vk::ExternalImageFormatProperties::default();
        let mut props = vk::ImageFormatProperties2::default().push_next(&mut external_props);
        // SAFETY: the physical device of this instance (Vulkan 1.1); the chained structs
        // are core 1.1 and name a handle type of an enabled extension.
        let supported = unsafe {
            self.gpu
                .instance
                .get_physical_device_image_format_properties2(self.gpu.phys, &info, &mut props)
        }
        .is_ok();
        let features = external_props
            .external_memory_properties
            .external_memory_features;
        Ok(
            if supported && features.contains(vk::ExternalMemoryFeatureFlags::EXPORTABLE) {
                DMA_BUF
            } else {
                OPAQUE
            },
        )
    }

    /// Copies level 0 of `handle` into a new image for `target`, submits and waits (or,
    /// for a host's semaphore, submits signalling it).
    fn copy_out(
        &mut self,
        n: &'static str,
        src_image: ImageSource,
        target: Target,
    ) -> Result<
        (
            Exportable,
            vk::Format,
            vk::Extent3D,
            vk::MemoryRequirements,
            vk::SubresourceLayout,
        ),
        SessionError,
    > {
        let (format, extent) = {
            let s = self
                .image_mut(n, src_image)?
                .ok_or_else(|| bad_value(n, "the texture has no image"))?;
            if s.native.sampled_aspect() != vk::ImageAspectFlags::COLOR || s.native.compressed {
                return Err(bad_value(n, "not an uncompressed colour image"));
            }
            let [w, h, _] = s.level_extent(0);
            (
                s.native.vk,
                vk::Extent3D::default().width(w).height(h).depth(1),
            )
        };
        let (fd, ty) = match target {
            Target::Fd(ty, _) => (true, ty),
            Target::Host(_) => (false, OPAQUE),
        };
        let tiling = if fd {
            vk::ImageTiling::LINEAR
        } else {
            vk::ImageTiling::OPTIMAL
        };
        let mut external = vk::ExternalMemoryImageCreateInfo::default().handle_types(ty);
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(extent)
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(tiling)
            .usage(USAGE)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        let info = if fd {
            info.push_next(&mut external)
        } else {
            info
        };
        // SAFETY: a live device; a valid create info whose chained struct belongs to core
        // Vulkan 1.1 (`Tiers::memory_export` requires it).
        let image = unsafe { self.raw.create_image(&info, None) }
            .map_err(|e| vk_error("vkCreateImage", e))?;
        let mut out = Exportable {
            raw: self.raw.clone(),
            image,
            memory: vk::DeviceMemory::null(),
        };
        // SAFETY: a live image of this device.
        let req = unsafe { self.raw.get_image_memory_requirements(image) };
        // SAFETY: the physical device of this instance.
        let props = unsafe {
            self.gpu
                .instance
                .get_physical_device_memory_properties(self.gpu.phys)
        };
        let type_index = (0..props.memory_type_count)
            .filter(|&i| req.memory_type_bits & (1 << i) != 0)
            .max_by_key(|&i| {
                let flags = props.memory_types[i as usize].property_flags;
                flags.contains(vk::MemoryPropertyFlags::DEVICE_LOCAL)
            })
            .ok_or_else(|| bad_value(n, "no memory type for an exportable image"))?;
        let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(ty);
        let mut dedicated = vk::MemoryDedicatedAllocateInfo::default().image(image);
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(type_index)
            .push_next(&mut dedicated);
        let alloc = if fd {
            alloc.push_next(&mut export)
        } else {
            alloc
        };
        // SAFETY: a live device; the chained structs are core Vulkan 1.1 and name an image
        // of this device with no memory bound.
        out.memory = unsafe { self.raw.allocate_memory(&alloc, None) }
            .map_err(|e| vk_error("vkAllocateMemory", e))?;
        // SAFETY: the dedicated allocation of this image, bound once at offset 0.
        unsafe { self.raw.bind_image_memory(image, out.memory, 0) }
            .map_err(|e| vk_error("vkBindImageMemory", e))?;
        let rows = if fd {
            let color = vk::ImageSubresource::default().aspect_mask(vk::ImageAspectFlags::COLOR);
            // SAFETY: a linear image of this device, with one level and one layer.
            unsafe { self.raw.get_image_subresource_layout(image, color) }
        } else {
            vk::SubresourceLayout::default()
        };

        self.transfer_begin();
        let (raw, cmd, family) = (self.raw.clone(), self.rec.cmd, self.gpu.family);
        let src_layout = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
        let src = {
            let s = self
                .image_mut(n, src_image)?
                .ok_or_else(|| bad_value(n, "the texture has no image"))?;
            transition(&raw, cmd, s, src_layout);
            s.image
        };
        let range = vk::ImageSubresourceRange::default()
            .aspect_mask(vk::ImageAspectFlags::COLOR)
            .level_count(1)
            .layer_count(1);
        let to_dst = vk::ImageMemoryBarrier::default()
            .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(image)
            .subresource_range(range);
        let layers = vk::ImageSubresourceLayers::default()
            .aspect_mask(vk::ImageAspectFlags::COLOR)
            .layer_count(1);
        let region = vk::ImageCopy::default()
            .src_subresource(layers)
            .dst_subresource(layers)
            .extent(extent);
        let release = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .image(image)
            .subresource_range(range);
        // To the outside: released to the external family. To the host that lent the
        // device: visible to its later shader reads and transfers on the same queue.
        let release = if fd {
            release
                .new_layout(FD_LAYOUT)
                .src_queue_family_index(family)
                .dst_queue_family_index(vk::QUEUE_FAMILY_EXTERNAL)
        } else {
            release
                .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::TRANSFER_READ)
                .new_layout(HOST_LAYOUT)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        };
        let after = if fd {
            vk::PipelineStageFlags::BOTTOM_OF_PIPE
        } else {
            vk::PipelineStageFlags::ALL_COMMANDS
        };
        // SAFETY: recording, outside a render pass (transfer_begin); the source is in
        // TRANSFER_SRC_OPTIMAL (transitioned above, after a barrier on earlier writes), the
        // new image is moved to TRANSFER_DST_OPTIMAL before the copy; the region is level 0,
        // layer 0 of both, of the source level's extent.
        unsafe {
            raw.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_dst],
            );
            raw.cmd_copy_image(
                cmd,
                src,
                src_layout,
                image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &[region],
            );
            raw.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                after,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[release],
            );
        }
        match target {
            // The host waits on the semaphore in its own submission (or its fence): no
            // wait here.
            Target::Host(s) | Target::Fd(_, s) if s != vk::Semaphore::null() => {
                self.submit_with(&[], &[s])?;
            }
            // Submits and waits for the frame's fence: the copy is complete.
            _ => self.finish_readback()?,
        }
        Ok((out, format, extent, req, rows))
    }
}

#[cfg(test)]
mod tests {
    use ash::vk;

    /// The fourcc codes are drm_fourcc.h's.
    #[test]
    fn drm_fourcc_codes() {
        // DRM_FORMAT_ABGR8888, DRM_FORMAT_ARGB8888, DRM_FORMAT_ABGR2101010.
        assert_eq!(super::drm_fourcc(vk::Format::R8G8B8A8_UNORM), 0x3432_4241);
        assert_eq!(super::drm_fourcc(vk::Format::B8G8R8A8_SRGB), 0x3432_5241);
        assert_eq!(
            super::drm_fourcc(vk::Format::A2B10G10R10_UNORM_PACK32),
            0x3033_4241
        );
        assert_eq!(super::drm_fourcc(vk::Format::R32G32B32A32_SFLOAT), 0);
    }
}

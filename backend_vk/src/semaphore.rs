//! Semaphores a Vulkan program exported, waited on and signalled by GL
//! (`GL_EXT_semaphore`, `GL_EXT_semaphore_fd`: `WaitSemaphore`, `SignalSemaphore`).
//!
//! Each record carries the token of a duplicate of the program's opaque descriptor; the
//! backend imports it (`vkImportSemaphoreFdKHR`, `OPAQUE_FD`, permanently) into a new binary
//! semaphore of its own, which shares the program's payload, uses it in one submission and
//! destroys it once that submission retired.
//!
//! - **Wait**: the work recorded so far is submitted, and the next submission waits on the
//!   semaphore (at every stage) before its commands. A texture named whose image is in a
//!   host's memory (`GL_EXT_memory_object_fd`) is acquired from `VK_QUEUE_FAMILY_EXTERNAL`
//!   in the layout given (the program released it there in that layout; `NONE` discards
//!   the contents); any other texture is taken to be in that layout. Buffers need nothing
//!   more: the submission boundary and the wait order every later access after the
//!   program's work.
//! - **Signal**: a texture named in a host's memory is released to
//!   `VK_QUEUE_FAMILY_EXTERNAL` in the layout given (the program acquires it from there in
//!   that layout); any other is transitioned to it (`NONE` leaves a texture as it is).
//!   Then everything recorded so far is submitted, signalling the semaphore after its
//!   commands.
//!
//! Not exercised in CI: lavapipe has no `VK_KHR_external_semaphore_fd` (the engine's
//! errors are tested without it).

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::record::{SemaphoreLayout, SemaphoreOp};

use crate::device::{VkPipe, vk_error};
use crate::frame::Garbage;
use crate::image::transition;

/// Whether the device imports binary semaphores from opaque descriptors (Vulkan 1.1's
/// `vkGetPhysicalDeviceExternalSemaphoreProperties`; the caller checked the version and
/// `VK_KHR_external_semaphore_fd`).
pub(crate) fn imports_opaque_fd(instance: &ash::Instance, phys: vk::PhysicalDevice) -> bool {
    let info = vk::PhysicalDeviceExternalSemaphoreInfo::default()
        .handle_type(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD);
    let mut props = vk::ExternalSemaphoreProperties::default();
    // SAFETY: a physical device of this instance (Vulkan 1.1, core command).
    unsafe { instance.get_physical_device_external_semaphore_properties(phys, &info, &mut props) };
    props
        .external_semaphore_features
        .contains(vk::ExternalSemaphoreFeatureFlags::IMPORTABLE)
}

/// Whether the device exports binary semaphores as `sync_file`s (`SYNC_FD`), for exports
/// with a fence (`export.rs`; the caller checked the version and the extension).
pub(crate) fn exports_sync_fd(instance: &ash::Instance, phys: vk::PhysicalDevice) -> bool {
    let info = vk::PhysicalDeviceExternalSemaphoreInfo::default()
        .handle_type(vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD);
    let mut props = vk::ExternalSemaphoreProperties::default();
    // SAFETY: a physical device of this instance (Vulkan 1.1, core command).
    unsafe { instance.get_physical_device_external_semaphore_properties(phys, &info, &mut props) };
    props
        .external_semaphore_features
        .contains(vk::ExternalSemaphoreFeatureFlags::EXPORTABLE)
}

/// A queue family ownership transfer of `s`'s whole image from `from` to `to` families,
/// changing its layout from `old` to `new` (both halves of a transfer name the same).
fn ownership(
    s: &crate::image::Storage,
    old: vk::ImageLayout,
    new: vk::ImageLayout,
    from: u32,
    to: u32,
) -> vk::ImageMemoryBarrier<'static> {
    vk::ImageMemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::MEMORY_WRITE)
        .dst_access_mask(vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE)
        .old_layout(old)
        .new_layout(new)
        .src_queue_family_index(from)
        .dst_queue_family_index(to)
        .image(s.image)
        .subresource_range(s.range())
}

/// Records `b` between all earlier and all later commands (outside a render pass).
fn barrier(raw: &ash::Device, cmd: vk::CommandBuffer, b: vk::ImageMemoryBarrier<'_>) {
    // SAFETY: recording, outside a render pass (the callers ended it); a live image of
    // this device whose tracked layout is the barrier's old layout.
    unsafe {
        raw.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[b],
        )
    };
}

/// The Vulkan layout of a semaphore operation's layout.
fn vk_layout(l: SemaphoreLayout) -> vk::ImageLayout {
    use SemaphoreLayout as S;
    use vk::ImageLayout as L;
    match l {
        S::Undefined => L::UNDEFINED,
        S::General => L::GENERAL,
        S::ColorAttachment => L::COLOR_ATTACHMENT_OPTIMAL,
        S::DepthStencilAttachment => L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
        S::DepthStencilReadOnly => L::DEPTH_STENCIL_READ_ONLY_OPTIMAL,
        S::ShaderReadOnly => L::SHADER_READ_ONLY_OPTIMAL,
        S::TransferSrc => L::TRANSFER_SRC_OPTIMAL,
        S::TransferDst => L::TRANSFER_DST_OPTIMAL,
        S::DepthReadOnlyStencilAttachment => L::DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL,
        S::DepthAttachmentStencilReadOnly => L::DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL,
    }
}

impl VkPipe {
    /// A new semaphore holding the payload of the descriptor under `token`; `None` when
    /// this process's table has none (a replay) or the driver refused it (reported as
    /// `OutOfMemory`).
    fn import_semaphore(&mut self, token: u64) -> Result<Option<vk::Semaphore>, SessionError> {
        let Some(fd) = tessera_wire::backend::take_handed_fd(token) else {
            return Ok(None);
        };
        let Some(loader) = self.gpu.semaphore_fd.clone() else {
            return Err(tessera_wire::backend::bad_value(
                "WaitSemaphore",
                "the device imports no semaphore",
            ));
        };
        // SAFETY: a live device; a plain binary semaphore.
        let semaphore = unsafe {
            self.raw
                .create_semaphore(&vk::SemaphoreCreateInfo::default(), None)
        }
        .map_err(|e| vk_error("vkCreateSemaphore", e))?;
        let info = vk::ImportSemaphoreFdInfoKHR::default()
            .semaphore(semaphore)
            .handle_type(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD)
            .fd(std::os::fd::IntoRawFd::into_raw_fd(fd));
        // SAFETY: a semaphore of this device with no pending operation; a successful
        // import owns the descriptor.
        match unsafe { loader.import_semaphore_fd(&info) } {
            Ok(()) => Ok(Some(semaphore)),
            Err(e) => {
                // SAFETY: the descriptor is still ours after a failed import; the new
                // semaphore was never used.
                unsafe {
                    drop(<std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(info.fd));
                    self.raw.destroy_semaphore(semaphore, None);
                }
                self.events.push(tessera_wire::Event::OutOfMemory {
                    what: format!("a semaphore a Vulkan program exported ({e})"),
                });
                Ok(None)
            }
        }
    }

    /// `WaitSemaphore` (module docs).
    pub(crate) fn wait_external_semaphore(&mut self, op: SemaphoreOp) -> Result<(), SessionError> {
        let Some(semaphore) = self.import_semaphore(op.fd_token)? else {
            return Ok(());
        };
        // What was recorded before the wait runs without it.
        if let Err(e) = self.submit() {
            // SAFETY: a semaphore no submission uses.
            unsafe { self.raw.destroy_semaphore(semaphore, None) };
            return Err(e);
        }
        self.frames.waits.push(semaphore);
        self.frames
            .current
            .garbage
            .push(Garbage::Semaphore(semaphore));
        self.transfer_begin();
        let (raw, cmd, family) = (self.raw.clone(), self.rec.cmd, self.gpu.family);
        for t in &op.textures {
            if let Ok(tex) = self.textures.get_mut("WaitSemaphore", t.texture)
                && let Some(s) = &mut tex.storage
            {
                let layout = vk_layout(t.layout);
                if s.is_imported() {
                    // Acquired from the program's side, in the layout it released it in
                    // (contents discarded from `NONE`).
                    let to = if layout == vk::ImageLayout::UNDEFINED {
                        vk::ImageLayout::GENERAL
                    } else {
                        layout
                    };
                    let acquire = ownership(s, layout, to, vk::QUEUE_FAMILY_EXTERNAL, family);
                    barrier(&raw, cmd, acquire);
                    s.layout = to;
                } else {
                    s.layout = layout;
                }
            }
        }
        self.invalidate_targets();
        Ok(())
    }

    /// `SignalSemaphore` (module docs).
    pub(crate) fn signal_external_semaphore(
        &mut self,
        op: SemaphoreOp,
    ) -> Result<(), SessionError> {
        let Some(semaphore) = self.import_semaphore(op.fd_token)? else {
            return Ok(());
        };
        self.transfer_begin();
        let (raw, cmd, family) = (self.raw.clone(), self.rec.cmd, self.gpu.family);
        for t in &op.textures {
            let layout = vk_layout(t.layout);
            if layout == vk::ImageLayout::UNDEFINED {
                continue;
            }
            if let Ok(tex) = self.textures.get_mut("SignalSemaphore", t.texture)
                && let Some(s) = &mut tex.storage
            {
                if s.is_imported() {
                    // Released to the program's side in the layout it asked for; it
                    // acquires the image from VK_QUEUE_FAMILY_EXTERNAL.
                    let release = ownership(s, s.layout, layout, family, vk::QUEUE_FAMILY_EXTERNAL);
                    barrier(&raw, cmd, release);
                    s.layout = layout;
                } else {
                    transition(&raw, cmd, s, layout);
                }
            }
        }
        let submitted = self.submit_with(&[], &[semaphore]);
        // Destroyed once the frame after the signalling one retired.
        self.frames
            .current
            .garbage
            .push(Garbage::Semaphore(semaphore));
        self.invalidate_targets();
        submitted.map(|_| ())
    }
}

//! Rendering on a host's own Vulkan device ([`HostDevice`], [`VulkanBackend::with_host_device`]).
//!
//! An emulator or compositor that already has a `VkDevice` lends it to Tessera instead of
//! letting the backend create its own: GL rendering then happens on the host's device and
//! queue, and a finished texture is handed to the host as a `VkImage` of that device
//! (`HandOverTexture`), which the host samples or copies in its own command buffers.
//!
//! ## The contract
//! - **Version, extensions and features**: the device was created for Vulkan 1.1 or later
//!   ([`HostDevice::api_version`]). The backend uses only the Vulkan 1.1 core — the paths
//!   `TESSERA_VK_TIERS=none` tests: no optional extension, GL's features that need one
//!   (transform feedback, conditional rendering, ...) are reported missing — plus
//!   `VK_KHR_external_memory_fd` when [`HostDevice::extensions`] names it (then
//!   `Context::export_texture` works too), and `VK_KHR_external_semaphore_fd` when it names
//!   that (then `GL_EXT_semaphore_fd`'s semaphores are imported on it). Of the core
//!   features it uses those [`HostDevice::features`] says the host enabled;
//!   `robustBufferAccess` is recommended (GL's robust buffer access relies on it).
//! - **The queue**: one queue of a family with graphics, compute and transfer. Tessera
//!   submits to it only while holding [`HostDevice::queue_lock`]; the host takes the same
//!   lock around its own `vkQueueSubmit`, `vkQueuePresentKHR` and `vkQueueWaitIdle` on that
//!   queue (Vulkan requires external synchronisation of a queue). Tessera never calls
//!   `vkDeviceWaitIdle` on a lent device.
//! - **Threads**: a context's records are applied on one thread at a time (the application's
//!   with `inproc`, the render thread with `thread`); the host may use the device from other
//!   threads for everything but the queue, as Vulkan allows.
//! - **Hand-over**: `Context::hand_over_texture` returns once the copy of the texture and
//!   every GL command before it completed (the backend waited for its fence), with a new
//!   `VkImage` and its `VkDeviceMemory` that belong to the host from then on: Tessera never
//!   uses them again, and the host destroys them. The image is 2D, one level and layer,
//!   optimal tiling, usage `TRANSFER_SRC | TRANSFER_DST | SAMPLED`, in
//!   `SHADER_READ_ONLY_OPTIMAL`, owned by the lent queue's family (no ownership transfer);
//!   the hand-over's barrier made the copy visible to shader reads and transfers submitted
//!   later to that queue, so the host's first barrier only names the layout it needs.
//! - **Hand-over with a semaphore**: `Context::hand_over_texture_signalled` does not wait on
//!   the CPU: it returns once the copy is submitted, with the same image plus a new binary
//!   `VkSemaphore` ([`tessera_wire::HostImage::semaphore`]) that submission signals. The
//!   host's first submission using the image waits on it (`pWaitSemaphores`, at the stage
//!   that first touches the image), and the host destroys the semaphore once that
//!   submission completed. Both submissions go to the lent queue, Tessera's first.
//! - **Orientation and colour**: row 0 is the bottom row of the GL image (GL's window
//!   origin); sample with `v` flipped to show it upright. Values are stored as the texture
//!   stores them: an sRGB texture's image has the sRGB format, and sampling it decodes.
//! - **Lifetime**: the host keeps the instance and device alive until the backend (every
//!   context on it) is dropped; the backend destroys only what it created.

use std::ffi::CString;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use ash::vk;

use crate::instance::{Gpu, Tiers, core_features};
use crate::{CreateBackendError, VulkanBackend};

/// A host's Vulkan instance, device and queue that the backend renders on (module docs: the
/// contract).
pub struct HostDevice {
    /// The host's loader entry.
    pub entry: ash::Entry,
    /// The host's instance (its function table and handle).
    pub instance: ash::Instance,
    /// The physical device of `device`.
    pub physical_device: vk::PhysicalDevice,
    /// The host's device (its function table and handle).
    pub device: ash::Device,
    /// The family of `queue`.
    pub queue_family: u32,
    /// The queue the backend submits to.
    pub queue: vk::Queue,
    /// The lock both the backend and the host hold while they use `queue`.
    pub queue_lock: Arc<Mutex<()>>,
    /// The Vulkan version the instance and device were created for (`VK_MAKE_API_VERSION`).
    pub api_version: u32,
    /// The core features the host enabled on the device.
    pub features: vk::PhysicalDeviceFeatures,
    /// The device extensions the host enabled.
    pub extensions: Vec<CString>,
}

impl Gpu {
    /// A host's device, with the tiers a lent device gets (module docs).
    fn lent(host: HostDevice) -> Result<Self, CreateBackendError> {
        // SAFETY: a physical device of the host's instance.
        let props = unsafe {
            host.instance
                .get_physical_device_properties(host.physical_device)
        };
        let api_version = host.api_version.min(props.api_version);
        if api_version < vk::API_VERSION_1_1 {
            return Err(CreateBackendError::TooOld {
                what: "the host's device".to_owned(),
                version: format!(
                    "{}.{}",
                    vk::api_version_major(api_version),
                    vk::api_version_minor(api_version)
                ),
            });
        }
        let has = |n: &std::ffi::CStr| host.extensions.iter().any(|e| e.as_c_str() == n);
        // SAFETY: the host's physical device, of the host's instance.
        let memory = unsafe {
            host.instance
                .get_physical_device_memory_properties(host.physical_device)
        };
        let tiers = Tiers {
            api_version,
            mapped_buffers: crate::memory::unified(&memory),
            vertex_streams: 1,
            memory_export: has(ash::khr::external_memory_fd::NAME),
            ..Tiers::default()
        };
        let tiers = Tiers {
            dma_buf_export: tiers.memory_export && has(ash::ext::external_memory_dma_buf::NAME),
            semaphore_fd: has(ash::khr::external_semaphore_fd::NAME)
                && crate::semaphore::imports_opaque_fd(&host.instance, host.physical_device),
            sync_fd_export: tiers.memory_export
                && has(ash::khr::external_semaphore_fd::NAME)
                && crate::semaphore::exports_sync_fd(&host.instance, host.physical_device),
            ..tiers
        };
        let memory_fd = tiers
            .memory_export
            .then(|| ash::khr::external_memory_fd::Device::new(&host.instance, &host.device));
        let semaphore_fd = (tiers.semaphore_fd || tiers.sync_fd_export)
            .then(|| ash::khr::external_semaphore_fd::Device::new(&host.instance, &host.device));
        let name = props
            .device_name_as_c_str()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Self {
            _entry: host.entry,
            debug: None,
            phys: host.physical_device,
            queue: host.queue,
            family: host.queue_family,
            props,
            core: core_features(&host.features),
            tiers,
            push: None,
            xfb: None,
            conditional: None,
            multi_draw: None,
            memory_fd,
            semaphore_fd,
            queue_lock: Some(host.queue_lock),
            owned: false,
            wsi: None,
            messages: Arc::new(Mutex::new(Vec::new())),
            name,
            host: crate::census::HostAllocator::new(),
            instance: host.instance,
            device: host.device,
        })
    }

    /// Holds the host's queue lock, on a lent device (`None` on Tessera's own).
    pub(crate) fn lock_queue(&self) -> Option<MutexGuard<'_, ()>> {
        self.queue_lock
            .as_ref()
            .map(|l| l.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Waits until nothing the backend submitted runs: the whole device on Tessera's own,
    /// the lent queue (under its lock) on a host's.
    pub(crate) fn wait_idle(&self) {
        let _queue = self.lock_queue();
        // SAFETY: the device is live; the queue is used under its lock (a host's) or by
        // this backend alone (its own device).
        unsafe {
            let _ = if self.owned {
                self.device.device_wait_idle()
            } else {
                self.device.queue_wait_idle(self.queue)
            };
        }
    }
}

impl VulkanBackend {
    /// A backend that renders on a host's device instead of creating its own (module docs:
    /// the contract). Validation is the host's: messages of its layers go to its messenger.
    pub fn with_host_device(host: HostDevice) -> Result<Self, CreateBackendError> {
        Self::on_gpu(Gpu::lent(host)?)
    }
}

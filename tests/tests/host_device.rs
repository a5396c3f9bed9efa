//! Tessera rendering on a host's own Vulkan device (`VulkanBackend::with_host_device`).
//!
//! The test is the host: it creates its instance (Khronos validation layer on, every message
//! kept) and device, lends them to Tessera, draws a scene through GL, takes the texture with
//! `Context::hand_over_texture` and copies the handed-over `VkImage` in its own command
//! buffer with the documented barrier (from `SHADER_READ_ONLY_OPTIMAL`, same queue family),
//! under the queue lock it shares with Tessera. The pixels must equal native llvmpipe's, and
//! the validation layer — which sees Tessera's calls on the device too — must report nothing.
//! The same with the hand-over's semaphore: Tessera does not wait for the copy, the host's
//! submission waits on the semaphore it was handed.
#![expect(unsafe_code, reason = "the host destroys the image it was handed")]

use std::ffi::CString;
use std::sync::{Arc, Mutex};

use ash::vk;
use ash::vk::Handle;
use tessera_backend_vk::{HostDevice, VulkanBackend};
use tessera_engine::export::ExportError;
use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::assert_no_backend_events;
use tessera_tests::vk_host::{H, HOST_API, HostVk, W, native_pixels, scene};

fn lend(host: &HostVk, lock: &Arc<Mutex<()>>) -> HostDevice {
    HostDevice {
        entry: host.entry.clone(),
        instance: host.instance.clone(),
        physical_device: host.phys,
        device: host.device.clone(),
        queue_family: host.family,
        queue: host.queue,
        queue_lock: lock.clone(),
        api_version: HOST_API,
        features: host.features,
        extensions: vec![CString::from(ash::khr::external_memory_fd::NAME)],
    }
}

fn context_on(host: &HostVk, lock: &Arc<Mutex<()>>, transport: TransportKind) -> Context {
    let backend =
        VulkanBackend::with_host_device(lend(host, lock)).expect("a backend on the host's device");
    let config = Config {
        backend: BackendKind::Vulkan,
        transport,
        surface: Some(SurfaceConfig::new(W as u32, H as u32)),
        ..Config::default()
    };
    Context::with_backend(&config, Box::new(backend))
}

/// Tessera draws on the host's device; the host copies the handed-over image and reads
/// native's exact pixels, with no validation message.
#[test]
fn host_samples_the_handed_over_image() {
    tessera_tests::ensure_lavapipe();
    tessera_tests::ensure_runtime_dir();
    let expected = native_pixels();
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let host = HostVk::new(&[]).expect("the host's Vulkan device (lavapipe, validation)");
        let lock = Arc::new(Mutex::new(()));
        let mut ctx = context_on(&host, &lock, transport.clone());
        let tex = scene(&mut ctx);
        assert_eq!(ctx.get_error(), NO_ERROR);
        let image = ctx.hand_over_texture(tex).expect("a hand-over");
        assert_eq!(image.extent, [W as u32, H as u32]);
        assert_eq!(image.vk_format, vk::Format::R8G8B8A8_UNORM.as_raw());
        assert_eq!(
            image.layout,
            vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL.as_raw()
        );
        assert_eq!(image.queue_family, host.family);
        assert_eq!(image.semaphore, 0, "waited for, no semaphore");
        // The host's copy, in its own command buffer on the shared queue, under the lock.
        let pixels = {
            let _queue = lock.lock().unwrap();
            host.read_image(
                vk::Image::from_raw(image.image),
                vk::Extent3D {
                    width: image.extent[0],
                    height: image.extent[1],
                    depth: 1,
                },
                u64::from(image.extent[0]) * u64::from(image.extent[1]) * 4,
                vk::ImageLayout::from_raw(image.layout),
                host.family,
            )
            .expect("the host's copy")
        };
        let differing = pixels
            .chunks(4)
            .zip(expected.chunks(4))
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(
            differing, 0,
            "{transport:?}: {differing} pixels differ from native"
        );
        assert_no_backend_events(&mut ctx, "host device");
        // Export works on a lent device with VK_KHR_external_memory_fd enabled too. Asked
        // for a sync_file fence, lavapipe (no SYNC_FD export) gives the waited export.
        let exported = ctx
            .export_texture_fenced(tex)
            .expect("an export on the host's device");
        assert_eq!(exported.image.info.extent[0], W as u32);
        assert!(exported.fence.is_none(), "lavapipe exports no sync_file");
        drop(exported);
        drop(ctx);
        // The image and its memory are the host's.
        // SAFETY: handles of the host's device that nothing uses any more.
        unsafe {
            host.device
                .destroy_image(vk::Image::from_raw(image.image), None);
            host.device
                .free_memory(vk::DeviceMemory::from_raw(image.memory), None);
        }
        let messages = host.messages();
        assert!(
            messages.is_empty(),
            "{transport:?}: validation: {messages:#?}"
        );
    }
}

/// With a semaphore: the hand-over returns once the copy is submitted, and the host's own
/// submission waits on the semaphore it was handed before copying the image; native's exact
/// pixels, no validation message (a wait on a semaphore with no signal pending would be one).
#[test]
fn host_waits_on_the_hand_over_semaphore() {
    tessera_tests::ensure_lavapipe();
    tessera_tests::ensure_runtime_dir();
    let expected = native_pixels();
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let host = HostVk::new(&[]).expect("the host's Vulkan device (lavapipe, validation)");
        let lock = Arc::new(Mutex::new(()));
        let mut ctx = context_on(&host, &lock, transport.clone());
        let tex = scene(&mut ctx);
        let image = ctx
            .hand_over_texture_signalled(tex)
            .expect("a hand-over with a semaphore");
        assert_ne!(image.semaphore, 0, "{transport:?}: a semaphore");
        let semaphore = vk::Semaphore::from_raw(image.semaphore);
        let pixels = {
            let _queue = lock.lock().unwrap();
            host.read_image_after(
                vk::Image::from_raw(image.image),
                vk::Extent3D {
                    width: image.extent[0],
                    height: image.extent[1],
                    depth: 1,
                },
                u64::from(image.extent[0]) * u64::from(image.extent[1]) * 4,
                vk::ImageLayout::from_raw(image.layout),
                host.family,
                semaphore,
            )
            .expect("the host's copy after its wait")
        };
        let differing = pixels
            .chunks(4)
            .zip(expected.chunks(4))
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(
            differing, 0,
            "{transport:?}: {differing} pixels differ from native"
        );
        assert_eq!(ctx.get_error(), NO_ERROR);
        assert_no_backend_events(&mut ctx, "host device, semaphore");
        drop(ctx);
        // SAFETY: the host's submission that waited on the semaphore and read the image
        // completed (read_image_after waited for its fence); nothing uses them any more.
        unsafe {
            host.device.destroy_semaphore(semaphore, None);
            host.device
                .destroy_image(vk::Image::from_raw(image.image), None);
            host.device
                .free_memory(vk::DeviceMemory::from_raw(image.memory), None);
        }
        let messages = host.messages();
        assert!(
            messages.is_empty(),
            "{transport:?}: validation: {messages:#?}"
        );
    }
}

/// A context on Tessera's own device cannot hand over; one on a host's device can.
#[test]
fn hand_over_needs_a_host_device() {
    tessera_tests::ensure_lavapipe();
    let mut own = tessera_tests::differential::tessera_on(
        tessera_tests::differential::Backend::Vulkan,
        TransportKind::Inproc,
        W,
        H,
    );
    let tex = scene(&mut own);
    assert_eq!(
        own.hand_over_texture(tex).unwrap_err(),
        ExportError::Unsupported {
            backend: "vulkan".to_owned()
        }
    );
    assert_eq!(own.get_error(), NO_ERROR);
}

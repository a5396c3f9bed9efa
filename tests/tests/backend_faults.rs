//! What a program sees when the native driver fails under a backend, on both backends:
//! a refused create is `GL_OUT_OF_MEMORY` at the next sync point and the session goes on;
//! a lost device (Vulkan `VK_ERROR_DEVICE_LOST`, GLES `EGL_CONTEXT_LOST`) is a context
//! reset on every context of the session, and later calls do not pass for work done.
//!
//! The failures are injected as `TESSERA_FAULT` would (`wire::fault`), read when a backend
//! is created: each test sets them, makes its backend and clears them (nextest runs each
//! test in a process of its own).

use tessera_engine::gl::*;
use tessera_engine::pixel::PixelsMut;
use tessera_engine::wire::{Backend, Event, TransportKind, fault};
use tessera_engine::{Config, Context, SurfaceConfig};

fn with_faults(spec: &str, make: impl FnOnce() -> Box<dyn Backend>) -> Box<dyn Backend> {
    fault::set_for_new_backends(Some(spec));
    let backend = make();
    fault::set_for_new_backends(None);
    backend
}

fn gles() -> Box<dyn Backend> {
    tessera_tests::ensure_runtime_dir();
    Box::new(tessera_backend_gles::GlesBackend::new().expect("the GLES backend"))
}

fn vulkan() -> Box<dyn Backend> {
    tessera_tests::ensure_lavapipe();
    Box::new(tessera_backend_vk::VulkanBackend::new().expect("the Vulkan backend"))
}

fn config(transport: TransportKind) -> Config {
    Config {
        transport,
        surface: Some(SurfaceConfig::new(4, 4)),
        backend: tessera_engine::BackendKind::Null,
        ..Config::default()
    }
}

/// The first `CreateBuffer` is refused (`glBufferData` without data): `glFinish` is the
/// sync point after which `glGetError` says `GL_OUT_OF_MEMORY`, with no reset; the buffer
/// specified again works. The second refusal (`glBufferData` with data, whose upload needs
/// the bytes the stand-in lacks) ends the session: a reset, never zeros passed off as the
/// data.
fn refused_create(name: &str, make: fn() -> Box<dyn Backend>) {
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let case = format!("{name} over {transport:?}");
        let backend = with_faults("refuse:CreateBuffer:1,refuse:CreateBuffer:3", make);
        let mut ctx = Context::with_backend(&config(transport), backend);
        let b = ctx.gen_buffer();
        ctx.bind_buffer(ARRAY_BUFFER, b);
        ctx.buffer_data(ARRAY_BUFFER, 16, None, STATIC_DRAW);
        ctx.finish();
        assert_eq!(ctx.get_error(), OUT_OF_MEMORY, "{case}: the refusal");
        assert_eq!(ctx.get_error(), NO_ERROR, "{case}: reported once");
        assert_eq!(ctx.get_graphics_reset_status(), NO_ERROR, "{case}");
        let events = ctx.take_events();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::OutOfMemory { what } if what.contains("16-byte"))),
            "{case}: the cause is reported: {events:?}"
        );

        // Specified again (the second CreateBuffer): the data is there.
        let data2: Vec<u8> = (100..132).collect();
        ctx.buffer_data(ARRAY_BUFFER, 32, Some(&data2), STATIC_DRAW);
        let mut back = [0u8; 32];
        ctx.get_buffer_sub_data(ARRAY_BUFFER, 0, 32, &mut back);
        assert_eq!(
            back.as_slice(),
            data2.as_slice(),
            "{case}: after the refusal"
        );
        assert_eq!(ctx.get_error(), NO_ERROR, "{case}");

        // Refused again (the third), and used regardless.
        let data3: Vec<u8> = (7..71).collect();
        ctx.buffer_data(ARRAY_BUFFER, 64, Some(&data3), STATIC_DRAW);
        let mut back = [0xAAu8; 64];
        ctx.get_buffer_sub_data(ARRAY_BUFFER, 0, 64, &mut back);
        assert_eq!(
            ctx.get_graphics_reset_status(),
            UNKNOWN_CONTEXT_RESET,
            "{case}: using the refused buffer's bytes loses the session, visibly"
        );
        assert!(ctx.is_lost(), "{case}");
        assert_eq!(
            ctx.get_error(),
            OUT_OF_MEMORY,
            "{case}: the refusal came first"
        );
    }
}

/// The device is lost at the fifth batch: every context of the share group reports the
/// reset, the cause is reported, and the frames read back before it were right.
fn lost_device(name: &str, make: fn() -> Box<dyn Backend>, cause: &str) {
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let case = format!("{name} over {transport:?}");
        let backend = with_faults("lose:5", make);
        let mut ctx = Context::with_backend(&config(transport.clone()), backend);
        let mut sibling = Context::new_shared(&ctx, &config(transport));
        let mut frames = 0;
        let mut pixel = [0u8; 4];
        while !ctx.is_lost() && frames < 20 {
            ctx.clear_color(0.0, 1.0, 0.0, 1.0);
            ctx.clear(COLOR_BUFFER_BIT);
            pixel = [7; 4];
            ctx.read_pixels(
                0,
                0,
                1,
                1,
                RGBA,
                UNSIGNED_BYTE,
                PixelsMut::Bytes(&mut pixel),
            );
            if !ctx.is_lost() {
                assert_eq!(pixel, [0, 255, 0, 255], "{case}: frame {frames}");
            }
            frames += 1;
        }
        assert!(ctx.is_lost(), "{case}: the device was never lost");
        assert!(frames > 1, "{case}: lost before any frame");
        assert_ne!(
            pixel,
            [0, 255, 0, 255],
            "{case}: the lost read-back passed for a frame"
        );
        assert_eq!(
            ctx.get_graphics_reset_status(),
            UNKNOWN_CONTEXT_RESET,
            "{case}"
        );
        assert_eq!(
            sibling.get_graphics_reset_status(),
            UNKNOWN_CONTEXT_RESET,
            "{case}: the share group's other context"
        );
        let events = ctx.take_events();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::DeviceLost { reason } if reason.contains(cause))),
            "{case}: the cause is reported: {events:?}"
        );
        // Later calls return at once and change nothing.
        ctx.clear(COLOR_BUFFER_BIT);
        ctx.finish();
        sibling.finish();
        assert_eq!(
            ctx.get_graphics_reset_status(),
            UNKNOWN_CONTEXT_RESET,
            "{case}"
        );
    }
}

#[test]
fn gles_refused_create_is_out_of_memory() {
    refused_create("gles", gles);
}

#[test]
fn vulkan_refused_create_is_out_of_memory() {
    refused_create("vulkan", vulkan);
}

#[test]
fn gles_lost_context_is_a_reset_on_every_context() {
    lost_device("gles", gles, "EGL_CONTEXT_LOST");
}

#[test]
fn vulkan_lost_device_is_a_reset_on_every_context() {
    lost_device("vulkan", vulkan, "VK_ERROR_DEVICE_LOST");
}

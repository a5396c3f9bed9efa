//! An `egui_glow` frame drawn through [`tessera_glow`] equals the same frame drawn by
//! `egui_glow` on native llvmpipe through glow, on the Vulkan backend (lavapipe, validation
//! layer on) and on the GLES backend (llvmpipe), both in process.

#![expect(
    unsafe_code,
    reason = "glow::Context::from_loader_function over the native driver, the oracle"
)]

mod scene;

use std::sync::Arc;

use egui_glow::glow;
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::{Backend, assert_no_backend_events, tessera_on};
use tessera_tests::gl::NativeGl;

use scene::{HEIGHT, WIDTH};

/// How far one channel of one pixel may differ from native's. Measured: on both backends the
/// same three pixels differ, each by 1 in its colour channels, all on the anti-aliased edges
/// of the plot's curves (egui feathers them with a one-pixel alpha ramp and blends); the
/// shaders reach both backends compiled by glslang to SPIR-V rather than by Mesa's GLSL
/// compiler, and a different order of the same float operations rounds a blended edge value
/// to the neighbouring 8-bit step. Text, fills and buttons are exact.
const CHANNEL_TOLERANCE: u8 = 1;
/// How many pixels may differ at all (0.01% of the 480 x 320 frame): an off-by-one rounding
/// on a few edge pixels passes, a misplaced glyph, widget or curve (hundreds) does not.
const MAX_DIFFERING_PIXELS: usize = 16;

/// The frame on native llvmpipe (desktop GL 3.3 core through EGL), on a thread of its own so
/// that its EGL context is current nowhere else.
fn native_frame() -> Vec<u8> {
    std::thread::spawn(|| {
        let native = NativeGl::new(WIDTH as i32, HEIGHT as i32).expect("native llvmpipe (EGL)");
        // SAFETY: the native context is current on this thread for as long as `native`
        // lives, which outlives `gl`; each pointer is the driver's entry point of that name.
        let gl = unsafe {
            glow::Context::from_loader_function(|name| {
                native
                    .entry_point::<*const std::ffi::c_void>(name)
                    .unwrap_or(std::ptr::null())
            })
        };
        let (pixels, error) = scene::draw(Arc::new(gl));
        assert_eq!(error, glow::NO_ERROR, "native GL error");
        pixels
    })
    .join()
    .expect("the native frame")
}

/// The frame on Tessera's `backend`, in process, through `tessera_glow`.
fn tessera_frame(backend: Backend) -> Vec<u8> {
    std::thread::spawn(move || {
        let context = tessera_on(backend, TransportKind::Inproc, WIDTH as i32, HEIGHT as i32);
        let mut current = tessera_glow::Current::new(context).expect("nothing current here");
        let (pixels, error) = scene::draw(Arc::new(current.glow()));
        assert_eq!(error, glow::NO_ERROR, "Tessera GL error");
        current
            .with_context(|c| assert_no_backend_events(c, backend.name()))
            .expect("the context is current");
        pixels
    })
    .join()
    .expect("the Tessera frame")
}

/// Compares two frames: the largest channel difference and how many pixels exceed the
/// tolerance (with the first such pixel, x and y from the bottom row), and how many differ
/// at all.
fn compare(label: &str, native: &[u8], tessera: &[u8]) {
    assert_eq!(native.len(), tessera.len());
    let mut largest = 0u8;
    let mut over = Vec::new();
    for (i, (n, t)) in native.chunks(4).zip(tessera.chunks(4)).enumerate() {
        let d = n
            .iter()
            .zip(t)
            .map(|(a, b)| a.abs_diff(*b))
            .max()
            .unwrap_or(0);
        largest = largest.max(d);
        if d > CHANNEL_TOLERANCE {
            over.push((i as u32 % WIDTH, i as u32 / WIDTH, n.to_vec(), t.to_vec()));
        }
    }
    let differing = native
        .chunks(4)
        .zip(tessera.chunks(4))
        .filter(|(n, t)| n != t)
        .count();
    eprintln!("{label}: {differing} pixels differ, largest channel difference {largest}");
    assert!(
        over.is_empty(),
        "{label}: {} pixels differ by more than {CHANNEL_TOLERANCE} (first: {:?})",
        over.len(),
        over.first()
    );
    assert!(
        differing <= MAX_DIFFERING_PIXELS,
        "{label}: {differing} pixels differ (at most {MAX_DIFFERING_PIXELS} may)"
    );
}

/// The frame is not blank: the clear colour, the window's fill and text are all there.
fn assert_drawn(pixels: &[u8]) {
    let mut colours: Vec<&[u8]> = pixels.chunks(4).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(
        colours.len() > 50,
        "{} colours: the UI is missing",
        colours.len()
    );
}

#[test]
fn egui_frame_on_vulkan_equals_native() {
    let native = native_frame();
    assert_drawn(&native);
    compare("vulkan", &native, &tessera_frame(Backend::Vulkan));
}

#[test]
fn egui_frame_on_gles_equals_native() {
    let native = native_frame();
    assert_drawn(&native);
    compare("gles", &native, &tessera_frame(Backend::Gles));
}

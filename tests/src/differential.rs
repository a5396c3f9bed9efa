//! Running a scene on Tessera and on the native driver, and comparing what they drew.
//!
//! A scene is a function over [`Gl`] that draws into the default framebuffer. [`check`] runs
//! it on the native driver (the oracle), then on Tessera with each backend — GLES, and Vulkan
//! with the Khronos validation layer on — through the `inproc` and `thread` transports, and
//! asserts for each: the scene's probes (exact pixels at chosen coordinates), no GL error, no
//! backend event (a validation message is one), and every pixel equal to the native image,
//! unless `tests/expectations/differential.txt` lists a tolerance for the scene with its
//! reason. A scene listed for a backend in `tests/expectations/differential-fails.txt` is a
//! known failure there: it still runs, and the test fails if it passes (so the list never
//! hides a fix) or fails on the native driver.

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};

use crate::gl::{Gl, NativeGl};

/// An expected pixel.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    /// Column, from the left.
    pub x: i32,
    /// Row, from the bottom (GL window coordinates).
    pub y: i32,
    /// Expected RGBA8 value.
    pub rgba: [u8; 4],
}

/// A probe at (x, y) expecting `rgba`.
pub const fn probe(x: i32, y: i32, rgba: [u8; 4]) -> Probe {
    Probe { x, y, rgba }
}

/// The backends scenes run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The native GLES driver.
    Gles,
    /// Vulkan, with the validation layer on.
    Vulkan,
}

impl Backend {
    /// Every backend scenes run on.
    pub const ALL: [Backend; 2] = [Backend::Gles, Backend::Vulkan];

    /// The name used in the expectation files.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Gles => "gles",
            Backend::Vulkan => "vulkan",
        }
    }
}

/// The tolerance listed for a scene (0 when it must match exactly).
fn tolerance(scene: &str) -> u8 {
    let list = include_str!("../expectations/differential.txt");
    list.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let name = words.next()?;
            let max = words.next()?.parse().ok()?;
            (name == scene).then_some(max)
        })
        .next()
        .unwrap_or(0)
}

/// The reason a scene is listed as a known failure on `backend`, if it is. Lines read
/// `scene backend reason...` with backend `gles`, `vulkan` or `all`.
pub fn known_failure(scene: &str, backend: Backend) -> Option<&'static str> {
    let list = include_str!("../expectations/differential-fails.txt");
    list.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .find_map(|l| {
            let mut words = l.splitn(3, ' ');
            let (name, on, reason) = (words.next()?, words.next()?, words.next()?);
            (name == scene && (on == backend.name() || on == "all")).then_some(reason.trim())
        })
}

/// Reads the whole default framebuffer as RGBA8, bottom row first.
pub fn read_back(gl: &mut dyn Gl, width: i32, height: i32) -> Vec<u8> {
    let mut pixels = vec![0u8; (width * height * 4) as usize];
    gl.bind_framebuffer(READ_FRAMEBUFFER, 0);
    gl.pixel_storei(PACK_ALIGNMENT, 4);
    gl.read_pixels(0, 0, width, height, RGBA, UNSIGNED_BYTE, &mut pixels);
    pixels
}

fn pixel(image: &[u8], width: i32, x: i32, y: i32) -> [u8; 4] {
    let at = ((y * width + x) * 4) as usize;
    [image[at], image[at + 1], image[at + 2], image[at + 3]]
}

/// A Tessera context on the GLES backend with a `width` x `height` default framebuffer.
pub fn tessera(transport: TransportKind, width: i32, height: i32) -> Context {
    tessera_on(Backend::Gles, transport, width, height)
}

/// A Tessera context on `backend` (Vulkan with the validation layer on) with a `width` x
/// `height` default framebuffer.
pub fn tessera_on(backend: Backend, transport: TransportKind, width: i32, height: i32) -> Context {
    crate::ensure_runtime_dir();
    let config = Config {
        backend: BackendKind::Gles,
        transport,
        surface: Some(SurfaceConfig::new(width as u32, height as u32)),
        ..Config::default()
    };
    match backend {
        Backend::Gles => {
            Context::new(&config).expect("the GLES backend (Mesa llvmpipe) on this machine")
        }
        Backend::Vulkan => {
            crate::ensure_lavapipe();
            let options = tessera_backend_vk::VkOptions {
                validation: true,
                ..tessera_backend_vk::VkOptions::default()
            };
            let vk = tessera_backend_vk::VulkanBackend::with_options(&options)
                .expect("the Vulkan backend (lavapipe, vulkan-validationlayers) on this machine");
            Context::with_backend(&config, Box::new(vk))
        }
    }
}

/// A Tessera context (inproc) on a GLES backend that uses the driver as an ES 3.0 driver
/// without extensions: what a GLES driver that lacks ES 3.1 and every optional feature gives,
/// on this machine's llvmpipe.
pub fn tessera_es30(width: i32, height: i32) -> Context {
    crate::ensure_runtime_dir();
    let options = tessera_backend_gles::GlesOptions {
        max_minor: Some(0),
        ignore_extensions: true,
        ..tessera_backend_gles::GlesOptions::default()
    };
    let gles = tessera_backend_gles::GlesBackend::with_options(&options)
        .expect("a GLES backend on Mesa llvmpipe");
    let config = Config {
        backend: BackendKind::Gles,
        transport: TransportKind::Inproc,
        surface: Some(SurfaceConfig::new(width as u32, height as u32)),
        ..Config::default()
    };
    Context::with_backend(&config, Box::new(gles))
}

/// Runs `scene` on the native driver and on Tessera (GLES and Vulkan, inproc and thread),
/// checks the probes everywhere, and compares Tessera's pixels with the native driver's.
pub fn check(name: &str, width: i32, height: i32, scene: impl Fn(&mut dyn Gl), probes: &[Probe]) {
    let mut native =
        NativeGl::new(width, height).expect("native desktop GL through the system EGL");
    scene(&mut native);
    let native_error = native.get_error();
    let expected = read_back(&mut native, width, height);
    assert_eq!(
        native_error, NO_ERROR,
        "{name}: the scene raised {native_error:#x} on the native driver"
    );
    for p in probes {
        assert_eq!(
            pixel(&expected, width, p.x, p.y),
            p.rgba,
            "{name}: native pixel ({}, {})",
            p.x,
            p.y
        );
    }
    drop(native);
    for backend in Backend::ALL {
        let known = known_failure(name, backend);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            for transport in [TransportKind::Inproc, TransportKind::Thread] {
                compare(
                    name, backend, transport, width, height, &scene, probes, &expected,
                );
            }
        }));
        match (outcome, known) {
            (Ok(()), None) => {}
            (Err(e), None) => std::panic::resume_unwind(e),
            (Ok(()), Some(reason)) => panic!(
                "{name} is listed as a known failure on {} ({reason}) but passes: remove it from the list",
                backend.name()
            ),
            (Err(_), Some(reason)) => {
                eprintln!("{name} on {}: known failure ({reason})", backend.name())
            }
        }
    }
}

/// Asserts that the backend of `ctx` reported no events other than `Unsupported` (which
/// name what a backend does not carry out, not faults).
pub fn assert_no_backend_events(ctx: &mut Context, label: &str) {
    let events: Vec<_> = ctx
        .take_events()
        .into_iter()
        .filter(|e| !matches!(e, tessera_engine::wire::Event::Unsupported { .. }))
        .collect();
    assert!(events.is_empty(), "{label}: backend events {events:?}");
}

/// Asserts that Tessera's log of labelled steps equals the native driver's, listing every
/// step that differs (`show` writes one side's value).
pub fn assert_same_steps<T: PartialEq>(
    label: &str,
    native: &[(String, T)],
    tessera: &[(String, T)],
    show: impl Fn(&T) -> String,
) {
    let diffs: Vec<String> = native
        .iter()
        .zip(tessera)
        .filter(|(n, t)| n != t)
        .map(|((step, n), (_, t))| format!("{step}:\n  native  {}\n  Tessera {}", show(n), show(t)))
        .collect();
    assert!(
        diffs.is_empty() && native.len() == tessera.len(),
        "{label}: {} steps native, {} on Tessera\n{}",
        native.len(),
        tessera.len(),
        diffs.join("\n")
    );
}

#[expect(
    clippy::too_many_arguments,
    reason = "one comparison's inputs, kept explicit"
)]
fn compare(
    name: &str,
    backend: Backend,
    transport: TransportKind,
    width: i32,
    height: i32,
    scene: &impl Fn(&mut dyn Gl),
    probes: &[Probe],
    expected: &[u8],
) {
    let tolerance = tolerance(name);
    let t = format!("{}/{}", backend.name(), transport.name());
    let mut ctx = tessera_on(backend, transport, width, height);
    scene(&mut ctx);
    let error = Gl::get_error(&mut ctx);
    let got = read_back(&mut ctx, width, height);
    assert_eq!(
        error, NO_ERROR,
        "{name} on {t}: the scene raised {error:#x}"
    );
    assert_no_backend_events(&mut ctx, &format!("{name} on {t}"));
    for p in probes {
        assert_eq!(
            pixel(&got, width, p.x, p.y),
            p.rgba,
            "{name} on {t}: pixel ({}, {})",
            p.x,
            p.y
        );
    }
    let mut worst = (0u8, 0, 0);
    for y in 0..height {
        for x in 0..width {
            let (a, b) = (pixel(&got, width, x, y), pixel(expected, width, x, y));
            let d = a
                .iter()
                .zip(b)
                .map(|(a, b)| a.abs_diff(b))
                .max()
                .unwrap_or(0);
            if d > worst.0 {
                worst = (d, x, y);
            }
        }
    }
    assert!(
        worst.0 <= tolerance,
        "{name} on {t}: pixel ({}, {}) is {:?}, the native driver's {:?} (difference {}, tolerance {tolerance})",
        worst.1,
        worst.2,
        pixel(&got, width, worst.1, worst.2),
        pixel(expected, width, worst.1, worst.2),
        worst.0
    );
}

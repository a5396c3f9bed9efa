//! Running a scene on Tessera and on the native driver, and comparing what they drew.
//!
//! A scene is a function over [`Gl`] that draws into the default framebuffer. [`check`] runs
//! it on the native driver (the oracle), then on Tessera with the GLES backend through the
//! `inproc` and `thread` transports, and asserts: the scene's probes (exact pixels at chosen
//! coordinates) on every implementation, no GL error anywhere, and every pixel of Tessera's
//! image equal to the native one, unless `tests/expectations/differential.txt` lists a
//! tolerance for the scene with its reason. A scene listed in
//! `tests/expectations/differential-fails.txt` is a known failure: it still runs, and the
//! test fails if it passes (so the list never hides a fix) or fails before reaching Tessera.

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
    crate::ensure_runtime_dir();
    let config = Config {
        backend: BackendKind::Gles,
        transport,
        surface: Some(SurfaceConfig::new(width as u32, height as u32)),
        ..Config::default()
    };
    Context::new(&config).expect("the GLES backend (Mesa llvmpipe) on this machine")
}

/// The reason a scene is listed as a known failure, if it is.
pub fn known_failure(scene: &str) -> Option<&'static str> {
    let list = include_str!("../expectations/differential-fails.txt");
    list.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .find_map(|l| {
            let (name, reason) = l.split_once(' ')?;
            (name == scene).then_some(reason.trim())
        })
}

/// Runs `scene` on the native driver and on Tessera (GLES, inproc and thread), checks the
/// probes everywhere, and compares Tessera's pixels with the native driver's. A scene listed
/// as a known failure must fail on Tessera (and only there).
pub fn check(name: &str, width: i32, height: i32, scene: impl Fn(&mut dyn Gl), probes: &[Probe]) {
    let Some(reason) = known_failure(name) else {
        return compare(name, width, height, &scene, probes);
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        compare(name, width, height, &scene, probes);
    }));
    match outcome {
        Ok(()) => panic!("{name} is listed as a known failure ({reason}) but passes: remove it from the list"),
        Err(e) => {
            let message = e
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| e.downcast_ref::<&str>().copied())
                .unwrap_or("");
            assert!(
                !message.contains("[oracle]"),
                "{name}: a known failure must fail on Tessera, not on the native driver: {message}"
            );
            eprintln!("{name}: known failure ({reason}): {message}");
        }
    }
}

fn compare(name: &str, width: i32, height: i32, scene: &impl Fn(&mut dyn Gl), probes: &[Probe]) {
    let tolerance = tolerance(name);
    let mut native = NativeGl::new(width, height).expect("native desktop GL through the system EGL");
    scene(&mut native);
    let native_error = native.get_error();
    let expected = read_back(&mut native, width, height);
    assert_eq!(native_error, NO_ERROR, "[oracle] {name}: the scene raised {native_error:#x} on the native driver");
    for p in probes {
        assert_eq!(pixel(&expected, width, p.x, p.y), p.rgba, "[oracle] {name}: native pixel ({}, {})", p.x, p.y);
    }
    drop(native);
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let mut ctx = tessera(transport.clone(), width, height);
        scene(&mut ctx);
        let error = Gl::get_error(&mut ctx);
        let got = read_back(&mut ctx, width, height);
        let t = transport.name();
        assert_eq!(error, NO_ERROR, "{name} on {t}: the scene raised {error:#x}");
        let events: Vec<_> = ctx
            .take_events()
            .into_iter()
            .filter(|e| !matches!(e, tessera_engine::wire::Event::Unsupported { .. }))
            .collect();
        assert!(events.is_empty(), "{name} on {t}: backend events {events:?}");
        for p in probes {
            assert_eq!(pixel(&got, width, p.x, p.y), p.rgba, "{name} on {t}: pixel ({}, {})", p.x, p.y);
        }
        let mut worst = (0u8, 0, 0);
        for y in 0..height {
            for x in 0..width {
                let (a, b) = (pixel(&got, width, x, y), pixel(&expected, width, x, y));
                let d = a.iter().zip(b).map(|(a, b)| a.abs_diff(b)).max().unwrap_or(0);
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
            pixel(&expected, width, worst.1, worst.2),
            worst.0
        );
    }
}

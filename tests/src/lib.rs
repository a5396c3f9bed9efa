//! # tessera-tests
//!
//! Shared pieces of Tessera's integration tests, benchmark and main job: contexts on the null
//! backend, the built-in scenes, and assertion helpers. The tests themselves are one binary,
//! `tests/root.rs`, with a module per domain.

#![expect(
    unsafe_code,
    reason = "per-thread CPU time for the benchmark; the native driver's C entry points for differential tests; the demo window's native handles (xcb, wl_display, libwayland-egl)"
)]

pub mod differential;
pub mod egl_requests;
pub mod gl;
pub mod measure;
pub mod named;
pub mod params;
pub mod programs;
pub mod raw_vk;
pub mod scenes;
pub mod vk_host;
pub mod window;

use tessera_engine::wire::TransportKind;
use tessera_engine::{Config, Context, SurfaceConfig};
use tessera_wire::record::Record;

/// Points `XDG_RUNTIME_DIR` at a private 0700 directory if it is unset (Mesa warns on every
/// call otherwise).
pub fn ensure_runtime_dir() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none_or(|d| !std::path::Path::new(&d).is_dir()) {
        let dir = std::env::temp_dir().join(format!("tessera-runtime-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
        // SAFETY: set_var races only with concurrent readers of the environment; this runs
        // before the process starts any driver thread.
        unsafe {
            std::env::set_var("XDG_RUNTIME_DIR", &dir);
        }
    }
}

/// Points the Vulkan loader at Mesa's lavapipe when no ICD was chosen (a machine without a
/// GPU has no other).
pub fn ensure_lavapipe() {
    const LAVAPIPE: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
    if std::env::var_os("VK_ICD_FILENAMES").is_none() && std::path::Path::new(LAVAPIPE).exists() {
        // SAFETY: set_var races only with concurrent readers of the environment; the Vulkan
        // loader reads it when the first instance is created, after this.
        unsafe {
            std::env::set_var("VK_ICD_FILENAMES", LAVAPIPE);
        }
    }
}

/// A context on the null backend that captures every record, with a 64 x 64 surface.
pub fn context() -> Context {
    context_with(TransportKind::Inproc, Some(SurfaceConfig::new(64, 64)))
}

/// A surfaceless context on the null backend (the default framebuffer is undefined).
pub fn surfaceless() -> Context {
    context_with(TransportKind::Inproc, None)
}

/// A capturing null-backend context with a transport and surface.
pub fn context_with(transport: TransportKind, surface: Option<SurfaceConfig>) -> Context {
    let config = Config {
        transport,
        surface,
        capture: true,
        backend: tessera_engine::BackendKind::Null,
        ..Config::default()
    };
    Context::new(&config).expect("the null backend always starts")
}

/// Flushes and returns the records the backend received since the last call.
pub fn records(ctx: &mut Context) -> Vec<Record> {
    ctx.finish();
    let probe = ctx.null_probe().expect("a null backend");
    probe
        .take_records()
        .into_iter()
        .filter(|r| {
            !matches!(
                r,
                Record::Flush | Record::Finish { .. } | Record::SetContext { .. }
            )
        })
        .collect()
}

/// Asserts the context's next error, naming the call.
#[macro_export]
macro_rules! assert_error {
    ($ctx:expr, $err:expr) => {{
        let got = $ctx.get_error();
        assert_eq!(got, $err, "expected GL error {:#06x}, got {:#06x}", $err, got);
    }};
    ($ctx:expr, $err:expr, $($msg:tt)+) => {{
        let got = $ctx.get_error();
        assert_eq!(got, $err, "expected GL error {:#06x}, got {:#06x}: {}", $err, got, format!($($msg)+));
    }};
}

/// Asserts no error is pending.
#[macro_export]
macro_rules! assert_no_error {
    ($ctx:expr) => {
        $crate::assert_error!($ctx, tessera_engine::gl::NO_ERROR)
    };
}

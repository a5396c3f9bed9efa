//! # tessera-tests
//!
//! Shared pieces of Tessera's integration tests, benchmark and main job: contexts on the null
//! backend, the built-in scenes, and assertion helpers. The tests themselves are one binary,
//! `tests/root.rs`, with a module per domain.

#![expect(unsafe_code, reason = "getrusage for per-thread CPU time in the benchmark")]

pub mod measure;
pub mod scenes;
pub mod programs;

use tessera_engine::wire::TransportKind;
use tessera_engine::{Config, Context, SurfaceConfig};
use tessera_wire::record::Record;

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

//! Where the library's log lines go: standard error, `tessera: `-prefixed, at the level
//! `TESSERA_LOG` names (`error`, `warn` (the default), `info`, `debug`, `off`). A host
//! program that installed its own `log` logger keeps it.

use std::sync::Once;

struct Stderr;

impl log::Log for Stderr {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            eprintln!("{}", record.args());
        }
    }

    fn flush(&self) {}
}

/// Installs the logger once (called by every EGL entry point, so before any context exists).
pub fn init() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let level = match std::env::var("TESSERA_LOG").as_deref() {
            Ok("off") => log::LevelFilter::Off,
            Ok("error") => log::LevelFilter::Error,
            Ok("info") => log::LevelFilter::Info,
            Ok("debug") => log::LevelFilter::Debug,
            _ => log::LevelFilter::Warn,
        };
        if log::set_logger(&Stderr).is_ok() {
            log::set_max_level(level);
        }
    });
}

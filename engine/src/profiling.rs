//! Profiling with puffin: where a frame's time goes, for the puffin viewer.
//!
//! Scopes are compiled in everywhere, at the granularity the design names: one per verb
//! (draws, clears, blits, read-backs, flush, finish), per validation system that runs, per
//! batch archived, submitted, waited for and applied, and around native program links in the
//! backends — never per setter, because an enabled scope costs about 85 ns. While profiling
//! is off each scope costs one relaxed atomic load.
//!
//! Profiling turns on when [`serve`] starts a `puffin_http` server; `TESSERA_PUFFIN=ADDR`
//! asks for one on the client (the first context created reads it) and on `tessera-server`.
//! Frames end at `glFlush`/`glFinish` (and swaps) on the client, and after each applied
//! batch on a server. View them with `puffin_viewer --url ADDR`.

use std::sync::OnceLock;

/// The address served, or why serving failed: decided once per process.
static SERVED: OnceLock<Result<String, String>> = OnceLock::new();

/// Starts a puffin_http server on `addr` (`HOST:PORT`) and turns the scopes on. Once per
/// process: a later call returns the first call's outcome, whatever its address.
pub fn serve(addr: &str) -> Result<String, String> {
    SERVED
        .get_or_init(|| match puffin_http::Server::new(addr) {
            Ok(server) => {
                // The server runs for the rest of the process: its drop would unregister the
                // frame sink and stop the thread that serves the viewer.
                std::mem::forget(server);
                puffin::set_scopes_on(true);
                log::info!(
                    "tessera: serving puffin profiles on {addr} (puffin_viewer --url {addr})"
                );
                Ok(addr.to_owned())
            }
            Err(e) => {
                log::warn!("tessera: TESSERA_PUFFIN={addr}: cannot serve puffin profiles: {e}");
                Err(e.to_string())
            }
        })
        .clone()
}

/// Serves puffin profiles when `TESSERA_PUFFIN=ADDR` is set (an empty value is ignored);
/// `None` when it is not.
pub fn serve_from_env() -> Option<Result<String, String>> {
    let addr = std::env::var("TESSERA_PUFFIN").ok()?;
    let addr = addr.trim();
    (!addr.is_empty()).then(|| serve(addr))
}

/// Ends the profiler's current frame (at `glFlush`, `glFinish` and swaps). One relaxed load
/// while profiling is off.
#[inline]
pub fn end_frame() {
    if puffin::are_scopes_on() {
        puffin::GlobalProfiler::lock().new_frame();
    }
}

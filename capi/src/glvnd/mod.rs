//! Tessera as a libglvnd vendor: the same library, installed as `libEGL_tessera.so.0` and
//! `libGLX_tessera.so.0`, renders for programs that load the system's libglvnd
//! `libEGL.so.1`, `libOpenGL.so.0` and `libGL.so.1`, with nothing installed in system
//! directories (`scripts/dropin --glvnd` installs the names and the vendor JSON).
//!
//! libglvnd loads a vendor with `dlopen(RTLD_LOCAL)`, calls its `__egl_Main` / `__glx_Main`
//! once with libglvnd's exports, and gets the vendor's imports back: how to make a display
//! (EGL) or whether a screen is served (GLX), the vendor's function of each name (its
//! `getProcAddress`, from which libglvnd builds both the window-system functions it calls and
//! the GL dispatch table libGLdispatch switches to at make-current), and dispatch stubs for
//! the extension functions libglvnd does not know, which find the vendor that owns their
//! display, device, drawable or context through the exports. libglvnd keeps the current
//! context, display and surfaces itself and calls the vendor's make-current; the vendor keeps
//! its own thread state as it does without libglvnd.
//!
//! Every address handed to libglvnd is a function of this library. The library exports the
//! same names as libglvnd's own libraries (`eglGetDisplay`, `glClear`, ...), and libglvnd's
//! are in the global scope first, so a reference to one of our exported names that the
//! dynamic linker resolved at load time would reach libglvnd's function instead, which would
//! dispatch straight back here. The library is linked with `-Bsymbolic-functions`
//! (`capi/build.rs`): references to its own functions, calls and the address tables alike,
//! are bound when it is linked.

pub mod egl;
pub mod glx;

use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs a vendor callback's body; a panic (a bug) is logged and gives `default`, never
/// crossing into libglvnd.
fn guard<R>(name: &'static str, default: R, f: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        log::error!("tessera: {name} panicked");
        default
    })
}

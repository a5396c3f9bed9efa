//! GLX 1.4 for direct rendering, in `libGL.so.1`: the calls GLFW, SDL, piglit and most Linux
//! GL programs make to get a context on an X11 window.
//!
//! There is no GLX protocol: every call is answered here, client side, on top of the
//! engine's EGL objects. A GLX display is the engine's X11 display for the same Xlib
//! `Display*` (so GLX and EGL-on-X11 share its window system, see `crate::winsys::x11`);
//! `GLXFBConfig`s are the engine's configs, all shown in the screen's TrueColor visual;
//! `GLXContext`s are engine contexts; a drawable (an X window, a `GLXWindow`, which is the
//! window's own ID, or a `GLXPbuffer`) becomes an engine surface the first time a context is
//! made current on it. Errors the GLX specification names are sent through Xlib's error
//! handler as a real GLX implementation sends them: the program's handler sees the GLX
//! extension's error base plus `GLXBadFBConfig`, or a core `BadMatch`/`BadValue`.

#![allow(non_snake_case, reason = "exported under the GLX names")]

mod config;
mod context;
mod drawable;
mod proc;

pub use config::*;
pub use context::*;
pub use drawable::*;
pub use proc::*;

use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::{Mutex, MutexGuard, PoisonError};

use tessera_engine::egl::{Platform, Registry};

use crate::winsys::x11::{XErrorEvent, Xlib};

/// `Display*`.
pub type XDisplay = *mut c_void;
/// An X resource ID (`Window`, `GLXDrawable`, `GLXPbuffer`, ...), `unsigned long` in Xlib.
pub type Xid = std::ffi::c_ulong;
/// `GLXContext` / `GLXFBConfig`: opaque pointers (the engine's handles).
pub type GlxHandle = *mut c_void;
/// `Bool`.
pub type XBool = c_int;

/// GLX tokens.
#[allow(missing_docs, reason = "named as in glx.h")]
pub mod tokens {
    pub const GLX_USE_GL: i32 = 1;
    pub const GLX_BUFFER_SIZE: i32 = 2;
    pub const GLX_LEVEL: i32 = 3;
    pub const GLX_RGBA: i32 = 4;
    pub const GLX_DOUBLEBUFFER: i32 = 5;
    pub const GLX_STEREO: i32 = 6;
    pub const GLX_AUX_BUFFERS: i32 = 7;
    pub const GLX_RED_SIZE: i32 = 8;
    pub const GLX_GREEN_SIZE: i32 = 9;
    pub const GLX_BLUE_SIZE: i32 = 10;
    pub const GLX_ALPHA_SIZE: i32 = 11;
    pub const GLX_DEPTH_SIZE: i32 = 12;
    pub const GLX_STENCIL_SIZE: i32 = 13;
    pub const GLX_ACCUM_RED_SIZE: i32 = 14;
    pub const GLX_ACCUM_GREEN_SIZE: i32 = 15;
    pub const GLX_ACCUM_BLUE_SIZE: i32 = 16;
    pub const GLX_ACCUM_ALPHA_SIZE: i32 = 17;
    pub const GLX_CONFIG_CAVEAT: i32 = 0x20;
    pub const GLX_X_VISUAL_TYPE: i32 = 0x22;
    pub const GLX_TRANSPARENT_TYPE: i32 = 0x23;
    pub const GLX_TRANSPARENT_INDEX_VALUE: i32 = 0x24;
    pub const GLX_TRANSPARENT_RED_VALUE: i32 = 0x25;
    pub const GLX_TRANSPARENT_GREEN_VALUE: i32 = 0x26;
    pub const GLX_TRANSPARENT_BLUE_VALUE: i32 = 0x27;
    pub const GLX_TRANSPARENT_ALPHA_VALUE: i32 = 0x28;
    pub const GLX_NONE: i32 = 0x8000;
    pub const GLX_TRUE_COLOR: i32 = 0x8002;
    pub const GLX_DONT_CARE: i32 = -1;
    pub const GLX_VISUAL_ID: i32 = 0x800B;
    pub const GLX_SCREEN: i32 = 0x800C;
    pub const GLX_DRAWABLE_TYPE: i32 = 0x8010;
    pub const GLX_RENDER_TYPE: i32 = 0x8011;
    pub const GLX_X_RENDERABLE: i32 = 0x8012;
    pub const GLX_FBCONFIG_ID: i32 = 0x8013;
    pub const GLX_RGBA_TYPE: i32 = 0x8014;
    pub const GLX_MAX_PBUFFER_WIDTH: i32 = 0x8016;
    pub const GLX_MAX_PBUFFER_HEIGHT: i32 = 0x8017;
    pub const GLX_MAX_PBUFFER_PIXELS: i32 = 0x8018;
    pub const GLX_PRESERVED_CONTENTS: i32 = 0x801B;
    pub const GLX_LARGEST_PBUFFER: i32 = 0x801C;
    pub const GLX_WIDTH: i32 = 0x801D;
    pub const GLX_HEIGHT: i32 = 0x801E;
    pub const GLX_EVENT_MASK: i32 = 0x801F;
    pub const GLX_PBUFFER_HEIGHT: i32 = 0x8040;
    pub const GLX_PBUFFER_WIDTH: i32 = 0x8041;
    pub const GLX_WINDOW_BIT: i32 = 1;
    pub const GLX_PIXMAP_BIT: i32 = 2;
    pub const GLX_PBUFFER_BIT: i32 = 4;
    pub const GLX_RGBA_BIT: i32 = 1;
    pub const GLX_SAMPLE_BUFFERS: i32 = 100_000;
    pub const GLX_SAMPLES: i32 = 100_001;
    pub const GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB: i32 = 0x20B2;
    pub const GLX_VENDOR: i32 = 1;
    pub const GLX_VERSION: i32 = 2;
    pub const GLX_EXTENSIONS: i32 = 3;
    pub const GLX_CONTEXT_MAJOR_VERSION_ARB: i32 = 0x2091;
    pub const GLX_CONTEXT_MINOR_VERSION_ARB: i32 = 0x2092;
    pub const GLX_CONTEXT_FLAGS_ARB: i32 = 0x2094;
    pub const GLX_CONTEXT_PROFILE_MASK_ARB: i32 = 0x9126;
    pub const GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_ARB: i32 = 0x8256;
    pub const GLX_CONTEXT_OPENGL_NO_ERROR_ARB: i32 = 0x31B3;
    pub const GLX_NO_RESET_NOTIFICATION_ARB: i32 = 0x8261;
    pub const GLX_LOSE_CONTEXT_ON_RESET_ARB: i32 = 0x8252;
    pub const GLX_SWAP_INTERVAL_EXT: i32 = 0x20F1;
    pub const GLX_MAX_SWAP_INTERVAL_EXT: i32 = 0x20F2;
    pub const GLX_BAD_SCREEN: i32 = 1;
    pub const GLX_BAD_ATTRIBUTE: i32 = 2;
    pub const GLX_BAD_VISUAL: i32 = 4;
    pub const GLX_BAD_CONTEXT: i32 = 5;
    pub const GLX_BAD_VALUE: i32 = 6;
}

/// An error GLX sends through Xlib.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GlxError {
    /// A core X error (`BadValue` = 2, `BadWindow` = 3, `BadMatch` = 8, `BadAlloc` = 11).
    Core(u8),
    /// A GLX error, as its offset from the extension's error base (`GLXBadContext` = 0,
    /// `GLXBadDrawable` = 2, `GLXBadFBConfig` = 9, `GLXBadWindow` = 12).
    Glx(u8),
}

/// `BadValue`.
pub(crate) const BAD_VALUE: GlxError = GlxError::Core(2);
/// `BadMatch`.
pub(crate) const BAD_MATCH: GlxError = GlxError::Core(8);
/// `BadAlloc`.
pub(crate) const BAD_ALLOC: GlxError = GlxError::Core(11);
/// `GLXBadContext`.
pub(crate) const ERR_BAD_CONTEXT: GlxError = GlxError::Glx(0);
/// `GLXBadDrawable`.
pub(crate) const ERR_BAD_DRAWABLE: GlxError = GlxError::Glx(2);
/// `GLXBadFBConfig`.
pub(crate) const ERR_BAD_FBCONFIG: GlxError = GlxError::Glx(9);

/// GLX request minor opcodes, named in errors as real GLX names them.
pub(crate) mod request {
    pub const CREATE_CONTEXT: u16 = 3;
    pub const MAKE_CURRENT: u16 = 5;
    pub const CREATE_NEW_CONTEXT: u16 = 24;
    pub const CREATE_PBUFFER: u16 = 27;
    pub const MAKE_CONTEXT_CURRENT: u16 = 26;
    pub const CREATE_WINDOW: u16 = 31;
    pub const CREATE_CONTEXT_ATTRIBS_ARB: u16 = 34;
    pub const SWAP_BUFFERS: u16 = 11;
    pub const QUERY_DRAWABLE: u16 = 29;
}

/// The GLX extension's major opcode, first event and first error on the display, if the
/// server has it.
pub(crate) fn extension(dpy: XDisplay) -> Option<(u8, u8)> {
    let xlib = Xlib::get()?;
    let (mut major, mut event, mut error) = (0, 0, 0);
    // SAFETY: a live display (the GLX caller's contract) and a NUL-terminated name.
    let present =
        unsafe { (xlib.query_extension)(dpy, c"GLX".as_ptr(), &mut major, &mut event, &mut error) };
    (present != 0).then_some((major as u8, error as u8))
}

/// Sends `error` about `resource` through the program's Xlib error handler, as if the
/// server had answered GLX request `minor` with it.
pub(crate) fn send_error(dpy: XDisplay, error: GlxError, resource: Xid, minor: u16) {
    let Some(xlib) = Xlib::get() else {
        return;
    };
    if dpy.is_null() {
        return;
    }
    let (major, base) = extension(dpy).unwrap_or((0, 0));
    let code = match error {
        GlxError::Core(c) => c,
        GlxError::Glx(offset) => base.wrapping_add(offset),
    };
    // SAFETY: a live display.
    let serial = unsafe { (xlib.next_request)(dpy) }.wrapping_sub(1);
    let mut event = XErrorEvent {
        kind: 0,
        display: dpy,
        resource,
        serial,
        error_code: code,
        request_code: major,
        minor_code: minor as u8,
    };
    log::debug!("tessera: GLX error {error:?} (code {code}) for request {minor}");
    // The program's handler, as Xlib would call it for an error from the server: taken
    // (XSetErrorHandler returns the one it replaces) and put back at once. No Xlib lock is
    // held here, so the handler may call Xlib. The default handler prints the error and
    // exits, as it does for real GLX errors.
    // SAFETY: XSetErrorHandler takes any handler or none.
    let handler = unsafe {
        let h = (xlib.set_error_handler)(None);
        (xlib.set_error_handler)(h);
        h
    };
    if let Some(h) = handler {
        // SAFETY: a live display and a complete error event, as Xlib passes them.
        unsafe { h(dpy, &mut event) };
    }
}

/// What GLX knows of a drawable.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Drawable {
    /// The engine surface (0 until a context is first made current on it).
    pub surface: usize,
    /// A pbuffer (else a window).
    pub pbuffer: bool,
    /// Its swap interval (`GLX_SWAP_INTERVAL_EXT`).
    pub interval: i32,
    /// Its `GLX_FBCONFIG_ID`.
    pub config_id: i32,
    /// A single-buffered window: front-buffered, `glXSwapBuffers` does nothing.
    pub front: bool,
}

/// GLX's own bookkeeping: the drawables by (display, XID).
pub(crate) struct Glx {
    pub drawables: HashMap<(usize, Xid), Drawable>,
    /// The `GLXFBConfig` of each context (by engine handle) made with one.
    pub contexts: HashMap<usize, &'static GlxConfig>,
    /// The next pbuffer ID (above the 29 bits X resource IDs use, so never a window's).
    pub next_pbuffer: Xid,
}

static GLX: Mutex<Option<Glx>> = Mutex::new(None);

/// GLX's bookkeeping, locked. Taken after the engine registry's lock when both are held.
pub(crate) fn glx() -> MutexGuard<'static, Option<Glx>> {
    let mut g = GLX.lock().unwrap_or_else(PoisonError::into_inner);
    g.get_or_insert_with(|| Glx {
        drawables: HashMap::new(),
        contexts: HashMap::new(),
        next_pbuffer: 0x4000_0000,
    });
    g
}

/// The engine's X11 display for an Xlib display, initialized.
pub(crate) fn engine_display(reg: &mut Registry, dpy: XDisplay) -> Option<usize> {
    if dpy.is_null() {
        return None;
    }
    let d = crate::egl::window_display(reg, Platform::X11, dpy, &[]).ok()?;
    reg.initialize(d).ok()?;
    Some(d)
}

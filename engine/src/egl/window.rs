//! Window systems and native windows: the seam between EGL window surfaces and whatever
//! shows a frame on screen.
//!
//! The engine knows no window system. Whoever opens a display for a platform that has
//! windows (the C ABI for X11, XCB and Wayland) hands the registry a [`WindowSystem`]; it
//! opens a [`NativeWindow`] for each window surface. At `eglSwapBuffers` the engine reads the
//! surface's colour image back through the transport (in the same process or from a server)
//! and gives the rows to [`NativeWindow::present`]: the client shows what the backend drew,
//! whichever backend and transport it was, and the window never leaves the process that
//! owns it.
//!
//! A window's size is the window system's: [`NativeWindow::size`] is asked when the surface
//! is made current, queried and swapped, and the surface's images follow it (the program
//! does nothing but set its viewport).
//!
//! In process, a backend may show the frames itself: a window that can name itself to a
//! backend ([`NativeWindow::native_target`]: an X11 window through its XCB connection, a
//! Wayland window as its `wl_surface`, `wl_egl_window` and the window's life) is
//! offered to the transport when the surface is bound, and if the backend takes it a swap
//! only presents (`crate::present`). The window still belongs to its window system here;
//! the backend receives it out of band, never in a record.

use std::fmt;

use tessera_wire::backend::NativeTarget;

/// A native visual: the X visual (or the closest a window system has) whose pixels the
/// frames of a config are shown in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visual {
    /// `EGL_NATIVE_VISUAL_ID` (an X `VisualID`; 0 where the window system has none).
    pub id: i32,
    /// `EGL_NATIVE_VISUAL_TYPE` (an X visual class, `TrueColor` = 4; `EGL_NONE` where none).
    pub class: i32,
    /// The visual's depth in bits (24 or 32).
    pub depth: u8,
}

/// Why a native window could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WindowError {
    /// The window does not exist (never did, or was destroyed under the surface):
    /// `EGL_BAD_NATIVE_WINDOW`.
    Gone,
    /// The window system failed (the connection broke, a request was refused).
    Failed(String),
}

impl fmt::Display for WindowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Gone => f.write_str("the native window does not exist"),
            Self::Failed(why) => write!(f, "the window system failed: {why}"),
        }
    }
}

impl std::error::Error for WindowError {}

/// A frame to show: `height` rows of `width` pixels, 4 bytes each in memory order B, G, R, A
/// (the layout of 24- and 32-bit TrueColor X visuals and of `wl_shm`'s `ARGB8888`), the
/// first row the **bottom** one (GL's order). `rows` holds exactly `width * height * 4`
/// bytes.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels, bottom row first.
    pub rows: &'a [u8],
}

impl Frame<'_> {
    /// Row `y` counted from the top, as window systems count.
    pub fn row_from_top(&self, y: u32) -> &[u8] {
        let stride = self.width as usize * 4;
        let from_bottom = (self.height - 1 - y) as usize;
        &self.rows[from_bottom * stride..][..stride]
    }
}

/// A window Tessera presents frames into.
pub trait NativeWindow: Send {
    /// The window's size in pixels now.
    fn size(&mut self) -> Result<(u32, u32), WindowError>;

    /// Shows `frame` in the window (its top-left corner at the window's).
    fn present(&mut self, frame: &Frame<'_>) -> Result<(), WindowError>;

    /// Sets the swap interval (0: show frames as soon as they are ready; 1: at most one
    /// per vertical blank). Returns the interval in effect.
    fn set_swap_interval(&mut self, interval: i32) -> i32 {
        interval.clamp(0, 1)
    }

    /// The window as a backend in this process could present to it (`None`, the default:
    /// only the client shows its frames). The target stays valid while the window does:
    /// the connection it names is the program's, open for as long as the display is.
    fn native_target(&mut self) -> Option<NativeTarget> {
        None
    }
}

/// The window system of a display: opens its windows and names its visuals.
pub trait WindowSystem: Send + Sync {
    /// The platform's name, for messages (`"x11"`, `"wayland"`).
    fn name(&self) -> &'static str;

    /// The visual frames are shown in (every config's `EGL_NATIVE_VISUAL_ID`).
    fn visual(&self) -> Visual;

    /// The connection the windows live on, for a backend in this process that presents
    /// only into windows of its own display (`None`, the default: no backend needs it).
    fn native_display(&self) -> Option<tessera_wire::backend::NativeDisplay> {
        None
    }

    /// Opens `native` (an X window ID, a `wl_egl_window*`, ... as the platform's
    /// `EGLNativeWindowType`) as a window to present into.
    fn open_window(&self, native: usize) -> Result<Box<dyn NativeWindow>, WindowError>;
}

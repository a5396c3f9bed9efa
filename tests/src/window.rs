//! A window for the main job (`tessera-demo --window`), bound to a context as its default
//! framebuffer through the window surface Rust hosts use (`tessera_capi::host`): on X11
//! (`DISPLAY` set) a window made with x11rb over a connection of its own; else on Wayland
//! (`WAYLAND_DISPLAY`) an xdg-shell toplevel. Either is handed to the surface as its
//! `raw-window-handle`, as a winit or SDL window would be.

mod wayland;

use std::num::NonZeroU32;
use std::ptr::NonNull;

use tessera_capi::host::WindowSurface;
use tessera_capi::host::raw_window_handle::{
    RawDisplayHandle, RawWindowHandle, XcbDisplayHandle, XcbWindowHandle,
};
use tessera_engine::Context;
use tessera_engine::egl::window::WindowError;
use x11rb::connection::Connection;
use x11rb::protocol::Event;
use x11rb::protocol::xproto::{
    AtomEnum, ConnectionExt, CreateWindowAux, EventMask, PropMode, WindowClass,
};
use x11rb::wrapper::ConnectionExt as _;
use x11rb::xcb_ffi::XCBConnection;

/// An open window, bound to a context; [`Window::release`] lets the context go of it.
pub struct Window {
    /// Declared first: the surface goes before the window it presents into.
    surface: Option<WindowSurface>,
    platform: Platform,
}

/// The window system a window is on.
enum Platform {
    X11(Box<X11Window>),
    Wayland(Box<wayland::WaylandWindow>),
}

/// An X11 window.
struct X11Window {
    conn: XCBConnection,
    window: u32,
    delete: u32,
    screen: usize,
}

/// Whether environment variable `name` is set and not empty.
fn has(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|s| !s.is_empty())
}

/// Why no window could be opened.
pub fn no_display_message() -> Option<&'static str> {
    if has("DISPLAY") || has("WAYLAND_DISPLAY") {
        None
    } else {
        Some("--window needs a display: neither DISPLAY nor WAYLAND_DISPLAY is set")
    }
}

impl Window {
    /// Opens a `width` x `height` window titled `title` (on X11 when `DISPLAY` is set,
    /// else on Wayland) and binds it to `ctx` as its default framebuffer (RGBA8 with
    /// depth/stencil).
    #[expect(
        unsafe_code,
        reason = "WindowSurface::new trusts the handles it is given"
    )]
    pub fn open(ctx: &mut Context, title: &str, width: u16, height: u16) -> Result<Self, String> {
        let platform = if has("DISPLAY") {
            Platform::X11(Box::new(X11Window::open(title, width, height)?))
        } else if has("WAYLAND_DISPLAY") {
            Platform::Wayland(Box::new(wayland::WaylandWindow::open(
                title, width, height,
            )?))
        } else {
            return Err(no_display_message().unwrap_or_default().to_owned());
        };
        let ((display, window), size) = match &platform {
            Platform::X11(w) => (w.handles(), (width.into(), height.into())),
            Platform::Wayland(w) => (w.handles(), w.size()),
        };
        // SAFETY: the connection and the window live in `platform`, which outlives the
        // surface (declared before it in `Window`, and released first by `release`).
        let surface =
            unsafe { WindowSurface::new(ctx, display, window, size) }.map_err(|e| e.to_string())?;
        Ok(Self {
            surface: Some(surface),
            platform,
        })
    }

    /// Shows the frame `ctx` drew in the window (see `WindowSurface::swap_buffers`).
    pub fn swap_buffers(&mut self, ctx: &mut Context) -> Result<(), WindowError> {
        match self.surface.as_mut() {
            Some(s) => s.swap_buffers(ctx),
            None => Err(WindowError::Gone),
        }
    }

    /// Unbinds the window from `ctx` and frees its images; the window closes when dropped.
    pub fn release(&mut self, ctx: &mut Context) {
        if let Some(s) = self.surface.take() {
            s.release(ctx);
        }
    }

    /// The window system: `"X11"` or `"Wayland"`.
    pub fn platform(&self) -> &'static str {
        match self.platform {
            Platform::X11(_) => "X11",
            Platform::Wayland(_) => "Wayland",
        }
    }

    /// Handles the window's events without waiting: `None` once it was closed (the window
    /// manager's or the compositor's close, on X11 also a key press or the window
    /// destroyed; see [`Window::error`] for a broken connection), else its size if it
    /// changed.
    pub fn poll(&mut self) -> Option<Option<(i32, i32)>> {
        let resized = match &mut self.platform {
            Platform::X11(w) => w.poll(),
            Platform::Wayland(w) => w.poll(),
        };
        if let (Some(Some((w, h))), Some(s)) = (resized, self.surface.as_mut()) {
            s.resize(w as u32, h as u32);
        }
        resized
    }

    /// Why the connection to the display failed, if it did.
    pub fn error(&self) -> Option<&str> {
        match &self.platform {
            Platform::X11(_) => None,
            Platform::Wayland(w) => w.error(),
        }
    }
}

impl X11Window {
    fn open(title: &str, width: u16, height: u16) -> Result<Self, String> {
        let (conn, screen) = XCBConnection::connect(None).map_err(|e| e.to_string())?;
        let root = conn.setup().roots[screen].root;
        let window = conn.generate_id().map_err(|e| e.to_string())?;
        conn.create_window(
            x11rb::COPY_DEPTH_FROM_PARENT,
            window,
            root,
            0,
            0,
            width,
            height,
            0,
            WindowClass::INPUT_OUTPUT,
            x11rb::COPY_FROM_PARENT,
            &CreateWindowAux::new().event_mask(EventMask::STRUCTURE_NOTIFY | EventMask::KEY_PRESS),
        )
        .map_err(|e| e.to_string())?;
        conn.change_property8(
            PropMode::REPLACE,
            window,
            AtomEnum::WM_NAME,
            AtomEnum::STRING,
            title.as_bytes(),
        )
        .map_err(|e| e.to_string())?;
        let atom = |name: &[u8]| -> Result<u32, String> {
            Ok(conn
                .intern_atom(false, name)
                .map_err(|e| e.to_string())?
                .reply()
                .map_err(|e| e.to_string())?
                .atom)
        };
        let (protocols, delete) = (atom(b"WM_PROTOCOLS")?, atom(b"WM_DELETE_WINDOW")?);
        conn.change_property32(
            PropMode::REPLACE,
            window,
            protocols,
            AtomEnum::ATOM,
            &[delete],
        )
        .map_err(|e| e.to_string())?;
        conn.map_window(window).map_err(|e| e.to_string())?;
        conn.flush().map_err(|e| e.to_string())?;
        Ok(Self {
            conn,
            window,
            delete,
            screen,
        })
    }

    /// The connection and window, as a window surface takes them. They live as long as
    /// `self`.
    fn handles(&self) -> (RawDisplayHandle, RawWindowHandle) {
        let conn = NonNull::new(self.conn.get_raw_xcb_connection());
        (
            RawDisplayHandle::Xcb(XcbDisplayHandle::new(conn, self.screen as i32)),
            RawWindowHandle::Xcb(XcbWindowHandle::new(
                NonZeroU32::new(self.window).expect("X window IDs are not 0"),
            )),
        )
    }

    /// Handles the window's events: `None` once it was closed (the window manager's close
    /// button, a key press, or the window destroyed), else its size if it changed.
    fn poll(&mut self) -> Option<Option<(i32, i32)>> {
        let mut resized = None;
        while let Ok(Some(event)) = self.conn.poll_for_event() {
            match event {
                Event::ClientMessage(m) if m.data.as_data32()[0] == self.delete => return None,
                Event::KeyPress(_) | Event::DestroyNotify(_) => return None,
                Event::ConfigureNotify(c) if c.window == self.window => {
                    resized = Some((i32::from(c.width), i32::from(c.height)));
                }
                _ => {}
            }
        }
        Some(resized)
    }
}

impl Drop for X11Window {
    fn drop(&mut self) {
        let _ = self.conn.destroy_window(self.window);
        let _ = self.conn.flush();
    }
}

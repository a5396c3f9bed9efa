//! A window for the main job (`tessera-demo --window`), bound to a context as its default
//! framebuffer: on X11 (`DISPLAY` set) a window made with x11rb over a connection of its
//! own, shown into by Tessera's X11 window system; else on Wayland (`WAYLAND_DISPLAY`) an
//! xdg-shell toplevel with a `wl_egl_window`, shown into by Tessera's Wayland window system
//! (the window systems the drop-in's EGL and GLX use).

mod wayland;

use std::sync::{Arc, Mutex};

use tessera_capi::winsys::x11::X11;
use tessera_engine::Context;
use tessera_engine::egl::window::{NativeWindow, WindowSystem};
use tessera_engine::present::WindowLink;
use tessera_wire::format::Format;
use tessera_wire::state::SurfaceDesc;
use x11rb::connection::Connection;
use x11rb::protocol::Event;
use x11rb::protocol::xproto::{
    AtomEnum, ConnectionExt, CreateWindowAux, EventMask, PropMode, WindowClass,
};
use x11rb::wrapper::ConnectionExt as _;
use x11rb::xcb_ffi::XCBConnection;

/// An open window, bound to a context. The context lets it go (`bind_window(None)`)
/// before it is dropped.
pub struct Window {
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
    /// The window system (keeps the connection's wrapper alive).
    _system: X11,
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

/// Binds `native` to `ctx` as its default framebuffer: a `width` x `height` RGBA8 surface
/// with depth/stencil.
fn bind(ctx: &mut Context, native: Box<dyn NativeWindow>, width: u32, height: u32) {
    let surface = ctx.create_surface(SurfaceDesc {
        width,
        height,
        color: Some(Format::Rgba8),
        depth_stencil: Some(Format::Depth24Stencil8),
        samples: 0,
    });
    ctx.bind_window(Some(WindowLink::new(
        Arc::new(Mutex::new(native)),
        Arc::new(Mutex::new(surface)),
        Arc::new(Mutex::new((width, height))),
    )));
}

impl Window {
    /// Opens a `width` x `height` window titled `title` (on X11 when `DISPLAY` is set,
    /// else on Wayland) and binds it to `ctx` as its default framebuffer (RGBA8 with
    /// depth/stencil).
    pub fn open(ctx: &mut Context, title: &str, width: u16, height: u16) -> Result<Self, String> {
        let platform = if has("DISPLAY") {
            Platform::X11(Box::new(X11Window::open(ctx, title, width, height)?))
        } else if has("WAYLAND_DISPLAY") {
            Platform::Wayland(Box::new(wayland::open(ctx, title, width, height)?))
        } else {
            return Err(no_display_message().unwrap_or_default().to_owned());
        };
        Ok(Self { platform })
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
        match &mut self.platform {
            Platform::X11(w) => w.poll(),
            Platform::Wayland(w) => w.poll(),
        }
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
    fn open(ctx: &mut Context, title: &str, width: u16, height: u16) -> Result<Self, String> {
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
        // SAFETY: the connection outlives the window system: both live in the `Window`, and
        // the context lets the window go (`bind_window(None)`) before it is dropped.
        let system = unsafe { X11::from_xcb(conn.get_raw_xcb_connection(), screen) }
            .map_err(|e| e.to_string())?;
        let native = system
            .open_window(window as usize)
            .map_err(|e| e.to_string())?;
        bind(ctx, native, width.into(), height.into());
        Ok(Self {
            conn,
            window,
            delete,
            _system: system,
        })
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

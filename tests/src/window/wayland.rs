//! The demo's window on Wayland: an xdg-shell toplevel on a connection of its own, its
//! `wl_surface` wrapped in a `wl_egl_window` (libwayland-egl, loaded at run time) that
//! Tessera's Wayland window system shows frames in, on the same `wl_display`.
//!
//! The connection is read without blocking at each [`WaylandWindow::poll`]: the compositor's
//! pings are answered there, its configures acked (a new size resizes the `wl_egl_window`
//! and is handed to the demo) and its close request ends the demo. Only opening waits, up
//! to [`OPEN_WAIT`], for the globals and the first configure.

use std::ffi::{c_int, c_void};
use std::os::fd::AsRawFd;
use std::ptr::NonNull;
use std::time::{Duration, Instant};

use libloading::Library;
use tessera_capi::winsys::wayland::Wayland;
use tessera_engine::Context;
use tessera_engine::egl::window::{NativeWindow, WindowSystem};
use wayland_client::backend::WaylandError;
use wayland_client::protocol::wl_callback::{self, WlCallback};
use wayland_client::protocol::wl_compositor::WlCompositor;
use wayland_client::protocol::wl_registry::{self, WlRegistry};
use wayland_client::protocol::wl_surface::WlSurface;
use wayland_client::{Connection, Dispatch, EventQueue, Proxy, QueueHandle, delegate_noop};
use wayland_protocols::xdg::shell::client::xdg_surface::{self, XdgSurface};
use wayland_protocols::xdg::shell::client::xdg_toplevel::{self, XdgToplevel};
use wayland_protocols::xdg::shell::client::xdg_wm_base::{self, XdgWmBase};

/// How long opening the window waits for the compositor's globals and first configure.
pub const OPEN_WAIT: Duration = Duration::from_secs(5);

/// libwayland-egl's entry points (a stable ABI: `wayland-egl-core.h`).
struct WaylandEgl {
    create: unsafe extern "C" fn(*mut c_void, c_int, c_int) -> *mut c_void,
    resize: unsafe extern "C" fn(*mut c_void, c_int, c_int, c_int, c_int),
    destroy: unsafe extern "C" fn(*mut c_void),
    /// Keeps the functions above loaded.
    _lib: Library,
}

impl WaylandEgl {
    fn load() -> Result<Self, String> {
        // SAFETY: libwayland-egl has no initialisers with preconditions.
        let lib = unsafe { Library::new("libwayland-egl.so.1") }
            .map_err(|e| format!("libwayland-egl (Debian: libwayland-egl1): {e}"))?;
        // SAFETY: the types are the C prototypes of `wayland-egl-core.h`; the pointers are
        // kept with the library.
        unsafe {
            let create = *lib
                .get::<unsafe extern "C" fn(*mut c_void, c_int, c_int) -> *mut c_void>(
                    b"wl_egl_window_create\0",
                )
                .map_err(|e| e.to_string())?;
            let resize = *lib
                .get::<unsafe extern "C" fn(*mut c_void, c_int, c_int, c_int, c_int)>(
                    b"wl_egl_window_resize\0",
                )
                .map_err(|e| e.to_string())?;
            let destroy = *lib
                .get::<unsafe extern "C" fn(*mut c_void)>(b"wl_egl_window_destroy\0")
                .map_err(|e| e.to_string())?;
            Ok(Self {
                create,
                resize,
                destroy,
                _lib: lib,
            })
        }
    }
}

/// What the window's queue receives.
#[derive(Default)]
struct State {
    /// The globals: name, interface, version.
    globals: Vec<(u32, String, u32)>,
    /// The `wl_display.sync` of opening came back.
    synced: bool,
    /// The size the last toplevel configure asked for (`0`: the window's choice).
    asked: (i32, i32),
    /// A configure was acked.
    configured: bool,
    /// The window's size.
    size: (i32, i32),
    /// A size a configure gave that the demo has not been told yet.
    resized: Option<(i32, i32)>,
    /// The compositor asked to close the window.
    closed: bool,
}

impl Dispatch<WlRegistry, ()> for State {
    fn event(
        state: &mut Self,
        _: &WlRegistry,
        event: wl_registry::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let wl_registry::Event::Global {
            name,
            interface,
            version,
        } = event
        {
            state.globals.push((name, interface, version));
        }
    }
}

impl Dispatch<WlCallback, ()> for State {
    fn event(
        state: &mut Self,
        _: &WlCallback,
        _: wl_callback::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        state.synced = true;
    }
}

impl Dispatch<XdgWmBase, ()> for State {
    fn event(
        _: &mut Self,
        wm_base: &XdgWmBase,
        event: xdg_wm_base::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let xdg_wm_base::Event::Ping { serial } = event {
            wm_base.pong(serial);
        }
    }
}

impl Dispatch<XdgSurface, ()> for State {
    fn event(
        state: &mut Self,
        surface: &XdgSurface,
        event: xdg_surface::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let xdg_surface::Event::Configure { serial } = event {
            surface.ack_configure(serial);
            state.configured = true;
            let (w, h) = state.asked;
            if w > 0 && h > 0 && (w, h) != state.size {
                state.size = (w, h);
                state.resized = Some((w, h));
            }
        }
    }
}

impl Dispatch<XdgToplevel, ()> for State {
    fn event(
        state: &mut Self,
        _: &XdgToplevel,
        event: xdg_toplevel::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        match event {
            xdg_toplevel::Event::Configure { width, height, .. } => state.asked = (width, height),
            xdg_toplevel::Event::Close => state.closed = true,
            _ => {}
        }
    }
}

delegate_noop!(State: ignore WlCompositor);
delegate_noop!(State: ignore WlSurface);

/// A flush that found the socket full leaves the rest for the next one: not an error.
fn flush(conn: &Connection) -> Result<(), String> {
    match conn.flush() {
        Err(WaylandError::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => Ok(()),
        other => other.map_err(|e| e.to_string()),
    }
}

/// Dispatches `queue` until `done(state)` or `deadline` (already past: only what has
/// arrived is read). Returns whether `done` was reached.
fn dispatch_until(
    conn: &Connection,
    queue: &mut EventQueue<State>,
    state: &mut State,
    deadline: Instant,
    done: impl Fn(&State) -> bool,
) -> Result<bool, String> {
    loop {
        queue.dispatch_pending(state).map_err(|e| e.to_string())?;
        if done(state) {
            return Ok(true);
        }
        flush(conn)?;
        // `None`: events are queued already; dispatch them first.
        let Some(guard) = queue.prepare_read() else {
            continue;
        };
        let left = deadline.saturating_duration_since(Instant::now());
        let mut fd = libc::pollfd {
            fd: guard.connection_fd().as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let timeout = c_int::try_from(left.as_millis()).unwrap_or(c_int::MAX);
        // SAFETY: one valid `pollfd`, for the connection's socket, which `guard` keeps open.
        let ready = unsafe { libc::poll(&mut fd, 1, timeout) } > 0;
        if ready {
            match guard.read() {
                // Another reader took the events first.
                Err(WaylandError::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                other => {
                    other.map_err(|e| e.to_string())?;
                }
            }
        } else {
            // Dropping the guard cancels the read.
            drop(guard);
        }
        if Instant::now() >= deadline {
            queue.dispatch_pending(state).map_err(|e| e.to_string())?;
            return Ok(done(state));
        }
    }
}

/// An xdg-shell toplevel shown into through a `wl_egl_window`.
pub struct WaylandWindow {
    egl: WaylandEgl,
    /// The `wl_egl_window*`.
    native: NonNull<c_void>,
    toplevel: XdgToplevel,
    xdg_surface: XdgSurface,
    surface: WlSurface,
    wm_base: XdgWmBase,
    queue: EventQueue<State>,
    state: State,
    /// Why the connection failed, once it has.
    error: Option<String>,
    /// Tessera's window system, a guest on `conn`'s display: dropped before it.
    system: Wayland,
    conn: Connection,
}

impl WaylandWindow {
    /// Opens a `width` x `height` toplevel titled `title` on `WAYLAND_DISPLAY` and waits
    /// for its first configure. Returns it and Tessera's window on it.
    pub fn open(
        title: &str,
        width: u16,
        height: u16,
    ) -> Result<(Self, Box<dyn NativeWindow>), String> {
        let egl = WaylandEgl::load()?;
        let conn = Connection::connect_to_env().map_err(|e| e.to_string())?;
        let mut queue = conn.new_event_queue();
        let qh = queue.handle();
        let mut state = State {
            size: (width.into(), height.into()),
            ..State::default()
        };
        let registry = conn.display().get_registry(&qh, ());
        conn.display().sync(&qh, ());
        let deadline = Instant::now() + OPEN_WAIT;
        if !dispatch_until(&conn, &mut queue, &mut state, deadline, |s| s.synced)? {
            return Err("the compositor did not answer".to_owned());
        }
        let global = |interface: &str, max: u32| {
            state
                .globals
                .iter()
                .find(|(_, i, _)| i == interface)
                .map(|&(name, _, version)| (name, version.min(max)))
                .ok_or_else(|| format!("the compositor offers no {interface}"))
        };
        let (name, version) = global(WlCompositor::interface().name, 6)?;
        let compositor: WlCompositor = registry.bind(name, version, &qh, ());
        let (name, version) = global(XdgWmBase::interface().name, 6)?;
        let wm_base: XdgWmBase = registry.bind(name, version, &qh, ());
        let surface = compositor.create_surface(&qh, ());
        let xdg_surface = wm_base.get_xdg_surface(&surface, &qh, ());
        let toplevel = xdg_surface.get_toplevel(&qh, ());
        toplevel.set_title(title.to_owned());
        toplevel.set_app_id("tessera-demo".to_owned());
        surface.commit();
        if !dispatch_until(&conn, &mut queue, &mut state, deadline, |s| s.configured)? {
            return Err("the compositor did not configure the window".to_owned());
        }
        // SAFETY: the connection's display outlives the window system: both are in the
        // window, the system dropped first, and the context lets the window go
        // (`bind_window(None)`) before the window is dropped.
        let system = unsafe { Wayland::from_display(conn.backend().display_ptr().cast()) }
            .map_err(|e| e.to_string())?;
        // The size the first configure gave, if any: the demo hears of it at the first poll.
        let (w, h) = state.size;
        // SAFETY: a live `wl_surface` proxy of this connection, destroyed only after the
        // `wl_egl_window` (in `Drop`).
        let native = unsafe { (egl.create)(surface.id().as_ptr().cast(), w, h) };
        let native = NonNull::new(native).ok_or("wl_egl_window_create failed")?;
        let window = Self {
            egl,
            native,
            toplevel,
            xdg_surface,
            surface,
            wm_base,
            queue,
            state,
            error: None,
            system,
            conn,
        };
        let native = window
            .system
            .open_window(window.native.as_ptr() as usize)
            .map_err(|e| e.to_string())?;
        Ok((window, native))
    }

    /// Handles the compositor's events without waiting: `None` once the window was closed
    /// (or the connection failed: see [`WaylandWindow::error`]), else its new size if a
    /// configure changed it.
    pub fn poll(&mut self) -> Option<Option<(i32, i32)>> {
        if self.error.is_some() || self.state.closed {
            return None;
        }
        if let Err(e) = dispatch_until(
            &self.conn,
            &mut self.queue,
            &mut self.state,
            Instant::now(),
            |_| false,
        ) {
            self.error = Some(e);
            return None;
        }
        if self.state.closed {
            return None;
        }
        let resized = self.state.resized.take();
        if let Some((w, h)) = resized {
            // SAFETY: the live `wl_egl_window` this window made.
            unsafe { (self.egl.resize)(self.native.as_ptr(), w, h, 0, 0) };
        }
        Some(resized)
    }

    /// Why the connection to the compositor failed, if it did.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
}

impl Drop for WaylandWindow {
    fn drop(&mut self) {
        // SAFETY: the `wl_egl_window` this window made, destroyed once; Tessera's window
        // on it was let go, or hears of it through its destroy callback.
        unsafe { (self.egl.destroy)(self.native.as_ptr()) };
        self.toplevel.destroy();
        self.xdg_surface.destroy();
        self.surface.destroy();
        self.wm_base.destroy();
        let _ = flush(&self.conn);
    }
}

/// Opens the window and binds it to `ctx` (see [`super::Window::open`]).
pub(super) fn open(
    ctx: &mut Context,
    title: &str,
    width: u16,
    height: u16,
) -> Result<WaylandWindow, String> {
    let (window, native) = WaylandWindow::open(title, width, height)?;
    let (w, h) = window.state.size;
    super::bind(ctx, native, w as u32, h as u32);
    Ok(window)
}

//! The demo's window on Wayland: an xdg-shell toplevel on a connection of its own, whose
//! `wl_display` and `wl_surface` become a `tessera_capi::host::WindowSurface` (which wraps
//! the surface in a `wl_egl_window` Tessera's Wayland window system shows frames in).
//!
//! The connection is read without blocking at each [`WaylandWindow::poll`]: the compositor's
//! pings are answered there, its configures acked (a new size is handed to the demo and the
//! window surface) and its close request ends the demo. Only opening waits, up
//! to [`OPEN_WAIT`], for the globals and the first configure.

use std::ffi::{c_int, c_void};
use std::os::fd::AsRawFd;
use std::ptr::NonNull;
use std::time::{Duration, Instant};

use tessera_capi::host::raw_window_handle::{
    RawDisplayHandle, RawWindowHandle, WaylandDisplayHandle, WaylandWindowHandle,
};
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

/// An xdg-shell toplevel, shown into through a window surface on its `wl_surface`.
pub struct WaylandWindow {
    toplevel: XdgToplevel,
    xdg_surface: XdgSurface,
    surface: WlSurface,
    wm_base: XdgWmBase,
    queue: EventQueue<State>,
    state: State,
    /// Why the connection failed, once it has.
    error: Option<String>,
    conn: Connection,
}

impl WaylandWindow {
    /// Opens a `width` x `height` toplevel titled `title` on `WAYLAND_DISPLAY` and waits
    /// for its first configure.
    pub fn open(title: &str, width: u16, height: u16) -> Result<Self, String> {
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
        Ok(Self {
            toplevel,
            xdg_surface,
            surface,
            wm_base,
            queue,
            state,
            error: None,
            conn,
        })
    }

    /// The size the compositor gave the window (the one asked for if it left that open).
    pub fn size(&self) -> (u32, u32) {
        (self.state.size.0 as u32, self.state.size.1 as u32)
    }

    /// The window's `wl_display` and `wl_surface`, as a window surface takes them. They
    /// live as long as `self`.
    pub fn handles(&self) -> (RawDisplayHandle, RawWindowHandle) {
        let display = NonNull::new(self.conn.backend().display_ptr().cast::<c_void>())
            .expect("a connected display");
        let surface =
            NonNull::new(self.surface.id().as_ptr().cast::<c_void>()).expect("a live surface");
        (
            RawDisplayHandle::Wayland(WaylandDisplayHandle::new(display)),
            RawWindowHandle::Wayland(WaylandWindowHandle::new(surface)),
        )
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
        Some(self.state.resized.take())
    }

    /// Why the connection to the compositor failed, if it did.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
}

impl Drop for WaylandWindow {
    fn drop(&mut self) {
        self.toplevel.destroy();
        self.xdg_surface.destroy();
        self.surface.destroy();
        self.wm_base.destroy();
        let _ = flush(&self.conn);
    }
}

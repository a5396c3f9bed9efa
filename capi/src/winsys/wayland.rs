//! Wayland windows through the program's own `wl_display`.
//!
//! libwayland-client is the program's: it is opened at run time (`wayland-sys`'s `dlopen`)
//! and the program's display is used as a guest (`Backend::from_foreign_display`) with an
//! event queue of Tessera's own, so the program's events are never dispatched here, and
//! Tessera's (buffer releases, frame callbacks) never reach the program's handlers.
//!
//! A native window is a `struct wl_egl_window*` (libwayland-egl's stable ABI, version 3):
//! its size is read from it at every ask, so a `wl_egl_window_resize` is followed without a
//! round trip, and its `destroy_window_callback` tells when the program destroys it under
//! the surface: it ends the window's [`WindowLife`], whose hooks let a backend presenting
//! into the window in process (the GLES backend, through a `wl_egl_window` of its own on
//! the same `wl_surface`) tear down what it made of it before the callback returns, so
//! before the program can destroy the surface. The display offers its `wl_display` to
//! such a backend ([`WindowSystem::native_display`]), and a window its surface, its
//! `wl_egl_window` and its life ([`NativeWindow::native_target`]). A frame is written top-down into a `wl_shm` buffer (`XRGB8888`: the frame's
//! B, G, R, A bytes are little-endian `XRGB8888`; the window system cannot know the config,
//! so windows are opaque, as on a 24-bit X visual), attached to the program's `wl_surface`,
//! damaged and committed. Each window keeps at most [`MAX_BUFFERS`] buffers, reused as the
//! compositor releases them. Nothing waits without a bound: swap interval 1 waits up to
//! [`FRAME_WAIT`] for the compositor's frame callback of the previous frame, interval 0
//! never waits for one; a frame finding every buffer busy waits up to [`RELEASE_WAIT`] for
//! a release and is dropped after that.

use std::ffi::c_void;
use std::os::fd::AsFd;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec};
use tessera_engine::egl::tokens::NONE;
use tessera_engine::egl::window::{Frame, NativeWindow, Visual, WindowError, WindowSystem};
use tessera_engine::wire::backend::{
    NativeDisplay, NativeTarget, WL_EGL_WINDOW_VERSION, WindowLife, WlEglWindow,
};
use wayland_backend::client::{Backend, ObjectId, WaylandError};
use wayland_client::protocol::wl_buffer::{self, WlBuffer};
use wayland_client::protocol::wl_callback::{self, WlCallback};
use wayland_client::protocol::wl_registry::{self, WlRegistry};
use wayland_client::protocol::wl_shm::{self, WlShm};
use wayland_client::protocol::wl_shm_pool::WlShmPool;
use wayland_client::protocol::wl_surface::WlSurface;
use wayland_client::{Connection, Dispatch, DispatchError, EventQueue, Proxy, QueueHandle};

/// The most `wl_shm` buffers one window keeps (one shown, one waiting to be, one drawn).
pub const MAX_BUFFERS: usize = 3;
/// How long a frame at swap interval 1 waits for the previous frame's callback: a
/// compositor that does not answer within it is not showing the surface, and the frame
/// goes out anyway.
pub const FRAME_WAIT: Duration = Duration::from_millis(100);
/// How long a frame waits for the compositor to release a buffer when all are busy.
pub const RELEASE_WAIT: Duration = Duration::from_secs(1);
/// How long opening a display waits for the compositor's globals.
const ROUNDTRIP_WAIT: Duration = Duration::from_secs(5);

/// Why a Wayland display could not be used.
fn failed(why: impl std::fmt::Display) -> WindowError {
    WindowError::Failed(why.to_string())
}

/// A flush that found the socket full leaves the rest in libwayland's buffer for the next
/// one: not an error.
fn flushed(result: Result<(), WaylandError>) -> Result<(), WindowError> {
    match result {
        Err(WaylandError::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => Ok(()),
        other => other.map_err(failed),
    }
}

/// Dispatches `queue` into `state` until `done(state)` or `deadline`, reading the socket
/// (the read is shared with the program's threads as libwayland's `prepare_read` protocol
/// says). Returns whether `done` was reached; a `deadline` already past reads only what has
/// arrived.
fn dispatch_until<S>(
    conn: &Connection,
    queue: &mut EventQueue<S>,
    state: &mut S,
    deadline: Instant,
    done: impl Fn(&S) -> bool,
) -> Result<bool, WindowError> {
    let dispatch_failed = |e: DispatchError| failed(e);
    loop {
        queue.dispatch_pending(state).map_err(dispatch_failed)?;
        if done(state) {
            return Ok(true);
        }
        flushed(conn.flush())?;
        // `None`: events are queued for this queue already; dispatch them first.
        let Some(guard) = queue.prepare_read() else {
            continue;
        };
        let left = deadline.saturating_duration_since(Instant::now());
        let ready = {
            let fd = guard.connection_fd();
            let mut fds = [PollFd::new(&fd, PollFlags::IN | PollFlags::ERR)];
            let timeout = Timespec::try_from(left).unwrap_or(Timespec {
                tv_sec: 1,
                tv_nsec: 0,
            });
            match rustix::event::poll(&mut fds, Some(&timeout)) {
                Ok(n) => n > 0,
                Err(rustix::io::Errno::INTR) => false,
                Err(e) => return Err(failed(e)),
            }
        };
        if ready {
            match guard.read() {
                // Another thread read the socket first.
                Err(WaylandError::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                other => {
                    other.map_err(failed)?;
                }
            }
        } else {
            // Dropping the guard cancels the read.
            drop(guard);
        }
        if Instant::now() >= deadline {
            queue.dispatch_pending(state).map_err(dispatch_failed)?;
            return Ok(done(state));
        }
    }
}

/// What a display's own queue receives while it is opened: the globals and a round trip's
/// end.
#[derive(Default)]
struct Globals {
    /// `wl_shm`'s global name.
    shm: Option<u32>,
    /// The `wl_display.sync` callback came.
    synced: bool,
}

impl Dispatch<WlRegistry, ()> for Globals {
    fn event(
        state: &mut Self,
        _: &WlRegistry,
        event: wl_registry::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let wl_registry::Event::Global {
            name, interface, ..
        } = event
            && interface == WlShm::interface().name
        {
            state.shm = Some(name);
        }
    }
}

impl Dispatch<WlCallback, ()> for Globals {
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

impl Dispatch<WlShm, ()> for Globals {
    fn event(
        _: &mut Self,
        _: &WlShm,
        _: wl_shm::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        // The formats: ARGB8888 and XRGB8888 are always supported.
    }
}

/// A Wayland display: the program's `wl_display` (never closed here) and its `wl_shm`.
pub struct Wayland {
    conn: Connection,
    shm: WlShm,
    /// The queue of the registry and of `wl_shm` (their later events stay in it).
    _globals: Mutex<EventQueue<Globals>>,
}

impl Wayland {
    /// The display of a `wl_display*` (null: the default one, `WAYLAND_DISPLAY`, connected
    /// here once and kept for the life of the process, as EGL displays are).
    ///
    /// # Safety
    /// `display` is null or a live `wl_display*` that outlives every use of the result.
    pub unsafe fn from_display(display: *mut c_void) -> Result<Self, WindowError> {
        if !wayland_sys::client::is_lib_available() {
            return Err(failed("libwayland-client is not installed"));
        }
        let conn = if display.is_null() {
            static DEFAULT: OnceLock<Result<Connection, String>> = OnceLock::new();
            DEFAULT
                .get_or_init(|| Connection::connect_to_env().map_err(|e| e.to_string()))
                .clone()
                .map_err(failed)?
        } else {
            // SAFETY: the caller's contract; as a guest the backend never closes it.
            Connection::from_backend(unsafe { Backend::from_foreign_display(display.cast()) })
        };
        let mut queue = conn.new_event_queue();
        let qh = queue.handle();
        let registry = conn.display().get_registry(&qh, ());
        conn.display().sync(&qh, ());
        let mut globals = Globals::default();
        let deadline = Instant::now() + ROUNDTRIP_WAIT;
        if !dispatch_until(&conn, &mut queue, &mut globals, deadline, |g| g.synced)? {
            return Err(failed("the compositor did not answer"));
        }
        let name = globals
            .shm
            .ok_or_else(|| failed("the compositor offers no wl_shm"))?;
        let shm = registry.bind::<WlShm, _, _>(name, 1, &qh, ());
        flushed(conn.flush())?;
        Ok(Self {
            conn,
            shm,
            _globals: Mutex::new(queue),
        })
    }
}

impl WindowSystem for Wayland {
    fn name(&self) -> &'static str {
        "wayland"
    }

    fn native_display(&self) -> Option<NativeDisplay> {
        // SAFETY: the program's `wl_display` (or the default one, kept for the life of the
        // process), which EGL requires to stay connected while the display's contexts
        // exist; a backend made with it lives as long as its share group, whose contexts
        // those are.
        Some(unsafe { NativeDisplay::wayland(self.conn.backend().display_ptr().cast()) })
    }

    fn visual(&self) -> Visual {
        // Wayland has no visuals; frames are 32-bit XRGB.
        Visual {
            id: 0,
            class: NONE,
            depth: 24,
        }
    }

    fn open_window(&self, native: usize) -> Result<Box<dyn NativeWindow>, WindowError> {
        let window = NonNull::new(native as *mut WlEglWindow).ok_or(WindowError::Gone)?;
        // SAFETY: `native` is the program's live `wl_egl_window*` (EGL's contract for
        // native windows); only its fields are read.
        let (version, surface, private) = unsafe {
            let w = window.as_ptr();
            ((*w).version, (*w).surface, (*w).driver_private)
        };
        if !(WL_EGL_WINDOW_VERSION..4096).contains(&version) || surface.is_null() {
            return Err(WindowError::Gone);
        }
        if !private.is_null() {
            return Err(failed("the wl_egl_window belongs to another EGL surface"));
        }
        // SAFETY: the window's surface is a live `wl_surface` proxy of this display
        // (libwayland-egl's contract); the id is used while the window lives.
        let id = unsafe { ObjectId::from_ptr(WlSurface::interface(), surface.cast()) }
            .map_err(|_| WindowError::Gone)?;
        let surface = WlSurface::from_id(&self.conn, id).map_err(|_| WindowError::Gone)?;
        let life = WindowLife::new();
        // SAFETY: as above; the program's thread may read these fields but only the driver
        // writes them. `driver_private` holds one strong count of `life`, given back by
        // `window_destroyed` or by the window's drop.
        unsafe {
            let w = window.as_ptr();
            (*w).driver_private = Arc::into_raw(life.clone()).cast_mut().cast();
            (*w).destroy_window_callback = Some(window_destroyed);
        }
        let queue = self.conn.new_event_queue();
        let qh = queue.handle();
        Ok(Box::new(WaylandWindow {
            conn: self.conn.clone(),
            shm: self.shm.clone(),
            queue,
            qh,
            buffers: Buffers::default(),
            surface,
            native: RawWindow(window),
            life,
            interval: 1,
            attached: None,
        }))
    }
}

/// libwayland-egl calls this from `wl_egl_window_destroy`, before freeing the window.
///
/// # Safety
/// `private` is the `driver_private` [`WindowSystem::open_window`] set.
unsafe extern "C" fn window_destroyed(private: *mut c_void) {
    if private.is_null() {
        return;
    }
    // SAFETY: the caller's contract: the strong count `open_window` gave the window.
    let life = unsafe { Arc::from_raw(private.cast_const().cast::<WindowLife>()) };
    // A backend presenting into the window tears down what it made of it (its EGL window
    // surface and `wl_egl_window` on the program's `wl_surface`) before this returns, so
    // before the program can destroy the surface.
    life.end();
}

/// The program's `wl_egl_window*`.
struct RawWindow(NonNull<WlEglWindow>);

// SAFETY: the window is the program's; it is only read and written (its size, the
// callbacks) under the surface's lock, as a driver does from whichever thread swaps.
unsafe impl Send for RawWindow {}

/// A `wl_shm` buffer and the memory it shows.
struct Buffer {
    buffer: WlBuffer,
    /// Its identity in release events.
    serial: u64,
    width: u32,
    height: u32,
    map: Mapping,
    /// Attached and not released yet.
    busy: bool,
}

/// A shared memory mapping, unmapped on drop.
struct Mapping {
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: the mapping is owned by one buffer and written only through `&mut`.
unsafe impl Send for Mapping {}

impl Mapping {
    fn bytes(&mut self) -> &mut [u8] {
        // SAFETY: `ptr` maps `len` readable and writable bytes while `self` lives.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `Buffers::create`, unmapped once.
        let _ = unsafe { rustix::mm::munmap(self.ptr.as_ptr().cast(), self.len) };
    }
}

/// What a window's queue receives: buffer releases and frame callbacks.
#[derive(Default)]
struct Buffers {
    list: Vec<Buffer>,
    next_serial: u64,
    /// A frame callback was asked for and has not come.
    frame_pending: bool,
}

impl Dispatch<WlBuffer, u64> for Buffers {
    fn event(
        state: &mut Self,
        _: &WlBuffer,
        event: wl_buffer::Event,
        serial: &u64,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let wl_buffer::Event::Release = event
            && let Some(b) = state.list.iter_mut().find(|b| b.serial == *serial)
        {
            b.busy = false;
        }
    }
}

impl Dispatch<WlCallback, ()> for Buffers {
    fn event(
        state: &mut Self,
        _: &WlCallback,
        _: wl_callback::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        state.frame_pending = false;
    }
}

impl Dispatch<WlShmPool, ()> for Buffers {
    fn event(
        _: &mut Self,
        _: &WlShmPool,
        _: <WlShmPool as Proxy>::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
    }
}

impl Buffers {
    /// A free buffer of `width` x `height` (free buffers of other sizes are destroyed), a
    /// new one if there are fewer than [`MAX_BUFFERS`], else `None`.
    fn acquire(
        &mut self,
        shm: &WlShm,
        qh: &QueueHandle<Self>,
        width: u32,
        height: u32,
    ) -> Result<Option<usize>, WindowError> {
        self.list.retain(|b| {
            let keep = b.busy || (b.width, b.height) == (width, height);
            if !keep {
                b.buffer.destroy();
            }
            keep
        });
        if let Some(i) = self.list.iter().position(|b| !b.busy) {
            return Ok(Some(i));
        }
        if self.list.len() >= MAX_BUFFERS {
            return Ok(None);
        }
        self.create(shm, qh, width, height).map(Some)
    }

    /// A new buffer in a memfd of its own (the pool is only the way to make it).
    fn create(
        &mut self,
        shm: &WlShm,
        qh: &QueueHandle<Self>,
        width: u32,
        height: u32,
    ) -> Result<usize, WindowError> {
        let stride = width as usize * 4;
        let len = stride * height as usize;
        let size = i32::try_from(len).map_err(|_| failed("the frame is too large"))?;
        let fd = rustix::fs::memfd_create("tessera-wayland", rustix::fs::MemfdFlags::CLOEXEC)
            .map_err(failed)?;
        rustix::fs::ftruncate(&fd, len as u64).map_err(failed)?;
        // SAFETY: a new shared mapping of the whole memfd, owned by the returned `Mapping`.
        let ptr = unsafe {
            rustix::mm::mmap(
                std::ptr::null_mut(),
                len,
                rustix::mm::ProtFlags::READ | rustix::mm::ProtFlags::WRITE,
                rustix::mm::MapFlags::SHARED,
                &fd,
                0,
            )
        }
        .map_err(failed)?;
        let map = Mapping {
            ptr: NonNull::new(ptr.cast()).ok_or_else(|| failed("mmap gave null"))?,
            len,
        };
        let serial = self.next_serial;
        self.next_serial += 1;
        let pool = shm.create_pool(fd.as_fd(), size, qh, ());
        let buffer = pool.create_buffer(
            0,
            width as i32,
            height as i32,
            stride as i32,
            wl_shm::Format::Xrgb8888,
            qh,
            serial,
        );
        pool.destroy();
        self.list.push(Buffer {
            buffer,
            serial,
            width,
            height,
            map,
            busy: false,
        });
        Ok(self.list.len() - 1)
    }
}

/// One `wl_egl_window` frames are shown in.
struct WaylandWindow {
    conn: Connection,
    shm: WlShm,
    queue: EventQueue<Buffers>,
    qh: QueueHandle<Buffers>,
    buffers: Buffers,
    /// The program's surface (a foreign proxy: its events stay the program's).
    surface: WlSurface,
    native: RawWindow,
    /// Ended by [`window_destroyed`] (or by the drop, once Tessera stops watching).
    life: Arc<WindowLife>,
    interval: i32,
    /// The size of the last buffer attached.
    attached: Option<(u32, u32)>,
}

impl WaylandWindow {
    /// The window, unless the program destroyed it.
    fn window(&self) -> Result<*mut WlEglWindow, WindowError> {
        if self.life.ended() {
            return Err(WindowError::Gone);
        }
        Ok(self.native.0.as_ptr())
    }

    /// Dispatches until `done` or `wait` has passed.
    fn dispatch(
        &mut self,
        wait: Duration,
        done: impl Fn(&Buffers) -> bool,
    ) -> Result<bool, WindowError> {
        dispatch_until(
            &self.conn,
            &mut self.queue,
            &mut self.buffers,
            Instant::now() + wait,
            done,
        )
    }
}

impl NativeWindow for WaylandWindow {
    fn size(&mut self) -> Result<(u32, u32), WindowError> {
        let w = self.window()?;
        // SAFETY: the program's live window (not destroyed: `gone` is unset).
        let (width, height) = unsafe { ((*w).width, (*w).height) };
        Ok((width.max(0) as u32, height.max(0) as u32))
    }

    fn present(&mut self, frame: &Frame<'_>) -> Result<(), WindowError> {
        self.window()?;
        // Releases and callbacks that came since the last frame, without waiting.
        self.dispatch(Duration::ZERO, |_| false)?;
        if self.interval > 0 && self.buffers.frame_pending {
            // Throttled to the compositor's frames; one that never comes does not hold
            // the program.
            self.dispatch(FRAME_WAIT, |b| !b.frame_pending)?;
            self.buffers.frame_pending = false;
        }
        let (w, h) = (frame.width, frame.height);
        let mut index = self.buffers.acquire(&self.shm, &self.qh, w, h)?;
        if index.is_none() {
            self.dispatch(RELEASE_WAIT, |b| b.list.iter().any(|b| !b.busy))?;
            index = self.buffers.acquire(&self.shm, &self.qh, w, h)?;
        }
        let Some(index) = index else {
            log::debug!("tessera: wayland: every buffer is still the compositor's; frame dropped");
            return Ok(());
        };
        let stride = w as usize * 4;
        {
            let bytes = self.buffers.list[index].map.bytes();
            for y in 0..h {
                bytes[y as usize * stride..][..stride].copy_from_slice(frame.row_from_top(y));
            }
        }
        let window = self.window()?;
        // The offset `wl_egl_window_resize` was given (how far the top-left corner moved)
        // applies once, to the first buffer of the new size.
        let (dx, dy) = if self.attached == Some((w, h)) {
            (0, 0)
        } else {
            // SAFETY: the program's live window.
            unsafe { ((*window).dx, (*window).dy) }
        };
        let buffer = &mut self.buffers.list[index];
        let version = self.surface.version();
        if version >= 5 {
            self.surface.attach(Some(&buffer.buffer), 0, 0);
            if (dx, dy) != (0, 0) {
                self.surface.offset(dx, dy);
            }
        } else {
            self.surface.attach(Some(&buffer.buffer), dx, dy);
        }
        if version >= 4 {
            self.surface.damage_buffer(0, 0, w as i32, h as i32);
        } else {
            self.surface.damage(0, 0, i32::MAX, i32::MAX);
        }
        if self.interval > 0 {
            self.surface.frame(&self.qh, ());
            self.buffers.frame_pending = true;
        }
        self.surface.commit();
        buffer.busy = true;
        self.attached = Some((w, h));
        // SAFETY: the program's live window; `attached_*` are the driver's to write.
        unsafe {
            (*window).attached_width = w as i32;
            (*window).attached_height = h as i32;
        }
        flushed(self.conn.flush())
    }

    fn set_swap_interval(&mut self, interval: i32) -> i32 {
        self.interval = interval.clamp(0, 1);
        self.interval
    }

    fn native_target(&mut self) -> Option<NativeTarget> {
        let window = self.window().ok()?;
        // SAFETY: the program's live window and its surface, of the program's display
        // (the connection's, which EGL requires to stay connected while its surfaces
        // exist); `life` is held by this window until its drop, which ends it first, and
        // `window_destroyed` ends it before libwayland-egl frees the window.
        Some(unsafe {
            NativeTarget::wayland(
                self.conn.backend().display_ptr().cast(),
                (*window).surface,
                window.cast(),
                &self.life,
            )
        })
    }
}

impl Drop for WaylandWindow {
    fn drop(&mut self) {
        if let Ok(w) = self.window() {
            // SAFETY: the program's live window: the callback and the strong count it
            // held are taken back, so destroying the window later calls nothing.
            unsafe {
                let private = (*w).driver_private;
                (*w).destroy_window_callback = None;
                (*w).driver_private = std::ptr::null_mut();
                if !private.is_null() {
                    drop(Arc::from_raw(private.cast_const().cast::<WindowLife>()));
                }
            }
        }
        // Tessera no longer watches the window: a backend still presenting into it stops
        // now, while the window surely lives.
        self.life.end();
        for b in self.buffers.list.drain(..) {
            b.buffer.destroy();
        }
        let _ = self.conn.flush();
    }
}

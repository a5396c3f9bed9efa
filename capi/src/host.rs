//! Window surfaces for Rust hosts: a window the host opened (with winit, SDL, its own toolkit)
//! as the default framebuffer of an engine [`Context`], named by
//! [`raw-window-handle`](raw_window_handle) 0.6, and a callback told when each frame is done.
//!
//! A [`WindowSurface`] is the EGL window surface of the drop-in without EGL: the same window
//! systems ([`crate::winsys`]: X11 through the host's Xlib or XCB connection, Wayland through
//! its `wl_display`) and the same presentation (`tessera_engine::present`): at each
//! [`swap_buffers`](WindowSurface::swap_buffers) the frame is read back through the transport
//! and put into the window (MIT-SHM on X11 where the server shares memory, else
//! `PutImage`; a `wl_shm` buffer on Wayland), and the surface's images follow the window's
//! size. A backend in process presents into the window itself only when the context was
//! created with the window's connection as
//! [`Config::native_display`](tessera_engine::Config::native_display) (see
//! [`native_display`]); otherwise the read-back path shows every frame, on every backend and
//! transport.
//!
//! Platforms: Xlib and XCB windows on an Xlib or XCB display, and Wayland surfaces. Android's
//! `ANativeWindow` (and every other handle) is refused with
//! [`SurfaceError::Unsupported`]: not supported on that platform yet.
//!
//! The frame callback ([`WindowSurface::set_frame_callback`]) runs on the host's thread,
//! inside its swaps, once a frame's fence has signalled. `tessera-tests`' `winit` example
//! shows the main job's scene in a winit window this way.
//!
//! ## Example
//! ```no_run
//! # fn run(display: raw_window_handle::RawDisplayHandle,
//! #        window: raw_window_handle::RawWindowHandle) -> Result<(), Box<dyn std::error::Error>> {
//! use tessera_capi::host::WindowSurface;
//! use tessera_engine::{Config, Context, gl};
//!
//! let mut ctx = Context::new(&Config { surface: None, ..Config::default() })?;
//! // SAFETY: the host's display and window outlive the surface and the context.
//! let mut surface = unsafe { WindowSurface::new(&mut ctx, display, window, (640, 480))? };
//! surface.set_frame_callback(|frame| println!("frame {} is done", frame.number));
//! for _ in 0..3 {
//!     ctx.clear_color(0.0, 0.5, 1.0, 1.0);
//!     ctx.clear(gl::COLOR_BUFFER_BIT);
//!     surface.swap_buffers(&mut ctx)?;
//! }
//! surface.wait_frames(&mut ctx);
//! surface.release(&mut ctx);
//! # Ok(()) }
//! ```

use std::ffi::{c_int, c_void};
use std::fmt;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};

pub use raw_window_handle;
use raw_window_handle::{RawDisplayHandle, RawWindowHandle};
use tessera_engine::egl::window::{WindowError, WindowSystem};
use tessera_engine::gl::{
    ALREADY_SIGNALED, CONDITION_SATISFIED, SYNC_GPU_COMMANDS_COMPLETE, TIMEOUT_EXPIRED,
};
use tessera_engine::present::{SharedWindow, WindowLink};
use tessera_engine::wire::backend::NativeDisplay;
use tessera_engine::wire::format::Format;
use tessera_engine::wire::state::SurfaceDesc;
use tessera_engine::{Context, ShareGroup, Surface};

use crate::winsys::wayland::Wayland;
use crate::winsys::x11::X11;

/// How many swapped frames may wait for their fence before a swap waits for the oldest:
/// the host's thread runs at most this many frames ahead of the device.
pub const MAX_FRAMES_IN_FLIGHT: usize = 2;

/// Why a window surface could not be made.
#[derive(Debug)]
pub enum SurfaceError {
    /// The handle's platform is not supported (yet): Android's `ANativeWindow`, Windows,
    /// macOS, the web, ... or a window handle of another platform than its display's.
    Unsupported(&'static str),
    /// The window system refused the display or the window.
    Window(WindowError),
    /// The context is not of the share group the surface's images live in.
    OtherShareGroup,
}

impl fmt::Display for SurfaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsupported(what) => write!(f, "{what}: not supported on this platform yet"),
            Self::Window(e) => e.fmt(f),
            Self::OtherShareGroup => {
                f.write_str("the context is not of the window surface's share group")
            }
        }
    }
}

impl std::error::Error for SurfaceError {}

impl From<WindowError> for SurfaceError {
    fn from(e: WindowError) -> Self {
        Self::Window(e)
    }
}

/// A frame whose fence signalled: the backend finished drawing it, and it was handed to the
/// window system (the callback of [`WindowSurface::set_frame_callback`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameDone {
    /// The frame's number: 0 for the first swap of the surface, then one more per swap.
    pub number: u64,
}

/// The callback a host registers for finished frames.
type FrameCallback = Box<dyn FnMut(FrameDone) + Send>;

/// A host's window as a context's default framebuffer: RGBA8 colour with a 24-bit depth and
/// 8-bit stencil buffer, single-sampled, of the window's size (module docs).
///
/// The surface's images live in the share group of the context it was made with; it is
/// bound to that context by [`new`](Self::new) and shown by
/// [`swap_buffers`](Self::swap_buffers) on it. Give it back with
/// [`release`](Self::release) (which unbinds it and frees its images) before the host
/// destroys the window; dropping it without that leaves the context bound to a window whose
/// frames go nowhere once the window is gone (the swap then reports
/// [`WindowError::Gone`]).
pub struct WindowSurface {
    /// The window as the context presents into it (declared before `egl_window`: its drop
    /// still reads the `wl_egl_window`).
    native: SharedWindow,
    /// The wire surface of the context's share group (replaced on resize).
    surface: Arc<Mutex<Surface>>,
    /// That share group (never kept alive by the surface).
    group: Weak<ShareGroup>,
    /// The window's size as last seen.
    size: Arc<Mutex<(u32, u32)>>,
    /// The window system (the host's connection, never closed here).
    _system: Box<dyn WindowSystem>,
    /// On Wayland: the `wl_egl_window` made here on the host's `wl_surface`.
    egl_window: Option<EglWindow>,
    /// Told of each finished frame.
    callback: Option<FrameCallback>,
    /// Frames swapped whose fence has not been seen signalled: (number, sync object).
    pending: [Option<(u64, u64)>; MAX_FRAMES_IN_FLIGHT],
    /// Swaps so far.
    swaps: u64,
}

impl fmt::Debug for WindowSurface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WindowSurface")
            .field("size", &*lock(&self.size))
            .field("swaps", &self.swaps)
            .field("wayland", &self.egl_window.is_some())
            .finish_non_exhaustive()
    }
}

fn lock<T: ?Sized>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The window system of a display handle.
///
/// # Safety
/// The handle names a live display that outlives every use of the result.
unsafe fn window_system(display: RawDisplayHandle) -> Result<Box<dyn WindowSystem>, SurfaceError> {
    Ok(match display {
        RawDisplayHandle::Xlib(d) => {
            let display = d.display.map_or(std::ptr::null_mut(), NonNull::as_ptr);
            // SAFETY: the caller's contract (null: the default display, opened here).
            Box::new(unsafe { X11::from_xlib(display) }?)
        }
        RawDisplayHandle::Xcb(d) => {
            let conn = d.connection.ok_or(SurfaceError::Unsupported(
                "an XCB display without a connection",
            ))?;
            let screen = d.screen.max(0) as usize;
            // SAFETY: the caller's contract.
            Box::new(unsafe { X11::from_xcb(conn.as_ptr(), screen) }?)
        }
        RawDisplayHandle::Wayland(d) => {
            // SAFETY: the caller's contract.
            Box::new(unsafe { Wayland::from_display(d.display.as_ptr()) }?)
        }
        RawDisplayHandle::Android(_) => {
            return Err(SurfaceError::Unsupported("Android's ANativeWindow"));
        }
        _ => return Err(SurfaceError::Unsupported("this display handle")),
    })
}

/// The connection a display handle names, for
/// [`Config::native_display`](tessera_engine::Config::native_display): a context created with
/// it lets a backend in process (Vulkan's WSI, the GLES backend's native EGL surface) present
/// into windows of that display itself, without the read-back. `None` for platforms without
/// window surfaces (see [`SurfaceError::Unsupported`]).
///
/// # Safety
/// The handle names a live display that outlives every context created with the result.
pub unsafe fn native_display(display: RawDisplayHandle) -> Option<NativeDisplay> {
    // SAFETY: the caller's contract.
    unsafe { window_system(display) }.ok()?.native_display()
}

impl WindowSurface {
    /// Makes `window` (on `display`) a surface of `ctx`'s share group and binds it as `ctx`'s
    /// default framebuffer. `size` is the window's size in pixels, used on Wayland, where a
    /// surface has no size of its own until a buffer is attached (follow the host's resizes
    /// with [`resize`](Self::resize)); on X11 the size is the server's, asked at every swap.
    ///
    /// Window and display must be of one platform: an Xlib or XCB window on an Xlib or XCB
    /// display, or a Wayland surface on a Wayland display. Android and other platforms are
    /// [`SurfaceError::Unsupported`].
    ///
    /// # Safety
    /// `display` and `window` name a live display and window of the host that outlive the
    /// surface and `ctx` (and every context the surface is bound to): the connection is the
    /// host's, used here and never closed.
    pub unsafe fn new(
        ctx: &mut Context,
        display: RawDisplayHandle,
        window: RawWindowHandle,
        size: (u32, u32),
    ) -> Result<Self, SurfaceError> {
        let x11 = matches!(
            display,
            RawDisplayHandle::Xlib(_) | RawDisplayHandle::Xcb(_)
        );
        let (native, egl_window) = match window {
            RawWindowHandle::Xlib(w) if x11 => (w.window as usize, None),
            RawWindowHandle::Xcb(w) if x11 => (w.window.get() as usize, None),
            RawWindowHandle::Wayland(w) if matches!(display, RawDisplayHandle::Wayland(_)) => {
                // SAFETY: the host's live `wl_surface` (the caller's contract).
                let egl = unsafe { EglWindow::new(w.surface, size) }?;
                (egl.ptr.as_ptr() as usize, Some(egl))
            }
            RawWindowHandle::AndroidNdk(_) => {
                return Err(SurfaceError::Unsupported("Android's ANativeWindow"));
            }
            RawWindowHandle::Xlib(_) | RawWindowHandle::Xcb(_) | RawWindowHandle::Wayland(_) => {
                return Err(SurfaceError::Unsupported(
                    "a window of another platform than its display",
                ));
            }
            _ => return Err(SurfaceError::Unsupported("this window handle")),
        };
        // SAFETY: the caller's contract.
        let system = unsafe { window_system(display) }?;
        let mut window = system.open_window(native)?;
        let now = window.size()?;
        let surface = ctx.create_surface(SurfaceDesc {
            width: now.0.max(1),
            height: now.1.max(1),
            color: Some(Format::Rgba8),
            depth_stencil: Some(Format::Depth24Stencil8),
            samples: 0,
        });
        let this = Self {
            native: Arc::new(Mutex::new(window)),
            surface: Arc::new(Mutex::new(surface)),
            size: Arc::new(Mutex::new(now)),
            group: Arc::downgrade(ctx.share_group()),
            _system: system,
            egl_window,
            callback: None,
            pending: [None; MAX_FRAMES_IN_FLIGHT],
            swaps: 0,
        };
        this.bind(ctx)?;
        Ok(this)
    }

    /// Binds the surface as `ctx`'s default framebuffer again (after the context drew to
    /// another one), or as that of another context of the share group the surface was made
    /// in; a context of another group is [`SurfaceError::OtherShareGroup`].
    pub fn bind(&self, ctx: &mut Context) -> Result<(), SurfaceError> {
        if !self.of_group(ctx) {
            return Err(SurfaceError::OtherShareGroup);
        }
        ctx.bind_window(Some(WindowLink::new(
            self.native.clone(),
            self.surface.clone(),
            self.size.clone(),
        )));
        Ok(())
    }

    /// Whether `ctx` is of the surface's share group.
    fn of_group(&self, ctx: &Context) -> bool {
        std::ptr::eq(self.group.as_ptr(), Arc::as_ptr(ctx.share_group()))
    }

    /// The window's size as last seen (at the last swap or `glViewport` after one).
    pub fn size(&self) -> (u32, u32) {
        *lock(&self.size)
    }

    /// Follows a resize of a Wayland window (`wl_egl_window_resize`): the next frame's
    /// images have the new size. Nothing to do on X11, whose windows' sizes are asked of
    /// the server.
    pub fn resize(&mut self, width: u32, height: u32) {
        if let Some(w) = &self.egl_window {
            w.resize(width, height);
        }
    }

    /// Sets the swap interval (0: frames go out at once; 1: at most one per vertical blank
    /// of the window system). Returns the interval in effect.
    pub fn set_swap_interval(&self, ctx: &mut Context, interval: i32) -> i32 {
        ctx.set_swap_interval(interval)
            .unwrap_or(interval.clamp(0, 1))
    }

    /// Registers `callback` to be told of each finished frame, replacing any other.
    ///
    /// It is called on the thread that calls [`swap_buffers`](Self::swap_buffers) or
    /// [`wait_frames`](Self::wait_frames), inside that call, never on a thread of
    /// Tessera's: once per frame swapped after it was registered, in order, when the fence
    /// inserted after the frame's swap has signalled (the backend finished drawing it and it
    /// was handed to the window system). A swap looks at the fences without waiting, so a
    /// frame is reported at the first swap that finds it done; a swap that finds
    /// [`MAX_FRAMES_IN_FLIGHT`] frames still pending waits for the oldest first. Nothing is
    /// allocated per frame: one sync object per frame in flight, in a fixed ring. Frames of
    /// a context that was lost are not reported.
    pub fn set_frame_callback(&mut self, callback: impl FnMut(FrameDone) + Send + 'static) {
        self.callback = Some(Box::new(callback));
    }

    /// Shows the frame drawn into the surface in the window (`ctx` must have the surface
    /// bound), then follows the window's size and reports finished frames to the frame
    /// callback. Returns the window system's error (the window is gone, the connection
    /// broke).
    pub fn swap_buffers(&mut self, ctx: &mut Context) -> Result<(), WindowError> {
        let result = ctx.swap_window();
        let number = self.swaps;
        self.swaps += 1;
        if self.callback.is_some() {
            self.report(ctx, false);
            if self.pending.iter().all(Option::is_some) {
                self.report_oldest(ctx);
            }
            let sync = ctx.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
            if sync != 0
                && let Some(slot) = self.pending.iter_mut().find(|p| p.is_none())
            {
                *slot = Some((number, sync));
            }
            self.report(ctx, false);
        }
        result
    }

    /// Waits until every frame swapped so far is done and reports each to the frame
    /// callback (before the host stops drawing, or when it needs the frames finished).
    pub fn wait_frames(&mut self, ctx: &mut Context) {
        self.report(ctx, true);
    }

    /// Reports the pending frames in order while their fences have signalled (`wait`: waits
    /// for each).
    fn report(&mut self, ctx: &mut Context, wait: bool) {
        while self.pending.iter().any(Option::is_some) {
            if !self.report_next(ctx, wait) {
                break;
            }
        }
    }

    /// Waits for the oldest pending frame and reports it.
    fn report_oldest(&mut self, ctx: &mut Context) {
        self.report_next(ctx, true);
    }

    /// Looks at (`wait`: waits for) the oldest pending frame's fence; reports the frame and
    /// frees its slot once it signalled, or drops it if the wait failed (a lost context).
    /// Returns whether a frame left the ring.
    fn report_next(&mut self, ctx: &mut Context, wait: bool) -> bool {
        let Some(i) = (0..MAX_FRAMES_IN_FLIGHT)
            .filter(|&i| self.pending[i].is_some())
            .min_by_key(|&i| self.pending[i].map_or(u64::MAX, |p| p.0))
        else {
            return false;
        };
        let (number, sync) = self.pending[i].expect("found above");
        let timeout = if wait { u64::MAX } else { 0 };
        let status = ctx.client_wait_sync(sync, 0, timeout);
        if status == TIMEOUT_EXPIRED {
            return false;
        }
        self.pending[i] = None;
        ctx.delete_sync(sync);
        if (status == ALREADY_SIGNALED || status == CONDITION_SATISFIED)
            && let Some(callback) = self.callback.as_mut()
        {
            callback(FrameDone { number });
        }
        true
    }

    /// Unbinds the surface from `ctx` (showing a frame still in flight) and frees its images.
    /// Frames still pending are not reported (call [`wait_frames`](Self::wait_frames) first
    /// for that). A context of another share group is left as it is; the images are freed
    /// in the surface's group all the same, if it is still alive.
    pub fn release(mut self, ctx: &mut Context) {
        if self.of_group(ctx) {
            for slot in &mut self.pending {
                if let Some((_, sync)) = slot.take() {
                    ctx.delete_sync(sync);
                }
            }
            ctx.bind_window(None);
        }
        if let Some(group) = self.group.upgrade() {
            group.destroy_surface(*lock(&self.surface));
        }
    }
}

/// libwayland-egl's entry points (a stable ABI: `wayland-egl-core.h`), loaded at run time.
struct WaylandEgl {
    create: unsafe extern "C" fn(*mut c_void, c_int, c_int) -> *mut c_void,
    resize: unsafe extern "C" fn(*mut c_void, c_int, c_int, c_int, c_int),
    destroy: unsafe extern "C" fn(*mut c_void),
    _lib: libloading::Library,
}

impl WaylandEgl {
    /// The library, loaded once (`Err`: it is not installed).
    fn get() -> Result<&'static Self, WindowError> {
        static LIB: OnceLock<Result<WaylandEgl, String>> = OnceLock::new();
        LIB.get_or_init(|| Self::load().map_err(|e| format!("libwayland-egl.so.1: {e}")))
            .as_ref()
            .map_err(|e| WindowError::Failed(e.clone()))
    }

    fn load() -> Result<Self, libloading::Error> {
        // SAFETY: libwayland-egl has no initialisers with preconditions; the symbols are read
        // with their C prototypes and kept with the library.
        unsafe {
            let lib = libloading::Library::new("libwayland-egl.so.1")?;
            Ok(Self {
                create: *lib.get(b"wl_egl_window_create\0")?,
                resize: *lib.get(b"wl_egl_window_resize\0")?,
                destroy: *lib.get(b"wl_egl_window_destroy\0")?,
                _lib: lib,
            })
        }
    }
}

/// A `wl_egl_window` made on the host's `wl_surface`: the native window Tessera's Wayland
/// window system presents into (as an EGL surface's), destroyed with the surface.
struct EglWindow {
    lib: &'static WaylandEgl,
    ptr: NonNull<c_void>,
}

// SAFETY: the window is only resized and destroyed through libwayland-egl, which takes no
// thread-affine state; the `WindowSurface` owning it is used by one thread at a time.
unsafe impl Send for EglWindow {}

impl EglWindow {
    /// # Safety
    /// `surface` is a live `wl_surface*` that outlives the result.
    unsafe fn new(surface: NonNull<c_void>, size: (u32, u32)) -> Result<Self, WindowError> {
        let lib = WaylandEgl::get()?;
        let (w, h) = (
            size.0.clamp(1, i32::MAX as u32),
            size.1.clamp(1, i32::MAX as u32),
        );
        // SAFETY: the caller's contract; a positive size.
        let ptr = unsafe { (lib.create)(surface.as_ptr(), w as c_int, h as c_int) };
        let ptr = NonNull::new(ptr)
            .ok_or_else(|| WindowError::Failed("wl_egl_window_create failed".into()))?;
        Ok(Self { lib, ptr })
    }

    fn resize(&self, width: u32, height: u32) {
        let (w, h) = (
            width.clamp(1, i32::MAX as u32),
            height.clamp(1, i32::MAX as u32),
        );
        // SAFETY: the window made in `new`, alive until drop.
        unsafe { (self.lib.resize)(self.ptr.as_ptr(), w as c_int, h as c_int, 0, 0) };
    }
}

impl Drop for EglWindow {
    fn drop(&mut self) {
        // SAFETY: the window made in `new`; libwayland-egl tells Tessera's window (through
        // its destroy callback) before freeing it.
        unsafe { (self.lib.destroy)(self.ptr.as_ptr()) };
    }
}

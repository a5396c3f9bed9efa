//! Presenting surfaces into X11 and Wayland windows: a native EGL window surface per
//! attached surface, and what `Present` does for such a surface.
//!
//! ## Why the backend's own display
//! An EGL context can be made current only with surfaces of its own `EGLDisplay`, and
//! contexts cannot share objects across displays. A window surface is made on a display of
//! the window's connection, so a backend that is to present windows keeps its context on
//! such a display: in process, when a context is made on a display of a window platform
//! (EGL on X11, XCB or Wayland, and GLX), the engine hands the backend the program's XCB
//! connection or `wl_display` when it creates it
//! ([`NativeDisplay`](tessera_wire::backend::NativeDisplay)), and `egl.rs` makes the
//! backend's display on it (`EGL_PLATFORM_XCB_EXT`, `EGL_PLATFORM_WAYLAND_KHR`) instead of
//! the surfaceless one. Nothing else changes: the context is the same config-less ES context, current
//! without a surface, drawing into FBOs. The other design, a display and context per window
//! with the frame handed over between displays, has no transfer EGL defines: Mesa 22.3's
//! llvmpipe offers no dma-buf export or import, and an `EGLImage` belongs to the display it
//! was made on (`EGL_KHR_image_base`; Mesa's llvmpipe happens to accept one on another
//! display, which no rule guarantees).
//!
//! ## Attaching
//! `Backend::attach_window` with a window of that connection (and a single-sampled,
//! linearly encoded colour image: see below) makes an EGL window surface of the window
//! (`eglCreateWindowSurface`, with the config of the window's visual). Another surface
//! presenting into the same window (the one a resize replaces) yields.
//!
//! ## Wayland windows
//! A Wayland window is the program's `wl_egl_window`, and Tessera's Wayland window system
//! (in the C ABI) already holds its `driver_private` and destroy callback: that is how it
//! learns the program destroyed the window under its EGL surface. An EGL window surface of
//! the driver takes both over, so the backend does not make one of the program's window:
//! it makes a `wl_egl_window` of its own on the program's `wl_surface` (libwayland-egl's
//! `struct wl_egl_window`, ABI version 3, written here: the driver only reads it and sets
//! its callbacks) and the window surface over that, with a single-sampled XRGB8888 config
//! (no alpha: the compositor would blend an ARGB buffer, and the client path shows frames
//! opaque; the driver offers 10-bit configs first). At each present the backend's window
//! takes the program's size (and `dx`, `dy`), as `wl_egl_window_resize` would, so the
//! driver's window-system integration follows the program's resizes. Chaining the
//! callbacks instead (the driver's behind Tessera's) would leave two owners of one
//! `driver_private` and a callback the driver resets when its surface goes.
//!
//! **Detach ordering.** The program may destroy its `wl_egl_window` and then at once its
//! `wl_surface`, on its own thread, while the render thread (`thread` transport) presents.
//! The window's [`WindowLife`] hook runs in libwayland-egl's destroy callback, on the
//! program's thread, before the window is freed: it takes the native-call lock (on
//! llvmpipe) and the window's state lock, destroys the EGL surface and then the backend's
//! `wl_egl_window`, and marks the window ended, so nothing of the backend's outlives the
//! program's window and nothing presents into its surface afterwards. A present holds the
//! same state lock from reading the program's window size until the surface is released
//! again: the EGL surface is made current for the blit and swap and made not current
//! before the lock is let go (so the hook, on another thread, can destroy it at once; EGL
//! defers destroying a surface current elsewhere). A present that finds the window ended
//! detaches the surface without an event (the program's doing, not the driver's); the
//! engine's next swap reports `EGL_BAD_NATIVE_WINDOW`, from its own window, as before. The
//! driver's Wayland platform dispatches only event queues of its own (its display's and
//! each surface's, over proxy wrappers), so neither the program's events nor Tessera's
//! window system's are read into its handlers.
//!
//! ## Presenting
//! At `Present` of an attached surface the context is made current with the window surface
//! (kept current until another window or the surfaceless state is needed), the swap
//! interval applied when it changed (`eglSwapInterval`: 0 or 1), and the surface's colour
//! image is blitted into the window's back buffer (`glBlitFramebuffer`, colour, nearest):
//! GL to GL, both bottom-up, so rows are not flipped. The frame's `w x h` (the smaller of
//! the surface and the window, `eglQuerySurface` asking the window's size now) lands at the
//! window's top-left corner, as the client path shows it; the rest of a larger window is
//! cleared to black, as the Vulkan presenter does. The blit runs with the scissor test and
//! rasterizer discard off, and the native-state shadow is told so (`disturbed`). Then
//! `eglSwapBuffers`. The driver's window-system integration follows the window's size by
//! itself.
//!
//! An sRGB-encoded colour image is copied as stored, as the client's read-back shows it:
//! the blit runs with `FRAMEBUFFER_SRGB_EXT` disabled (`GL_EXT_sRGB_write_control`), under
//! which Mesa blits sRGB images as their linear formats; a driver without the extension
//! would decode the source, so there such images stay on the client path. So does a
//! multisampled colour image (a resolving blit into the window needs the same format, which
//! a window's config does not promise).
//!
//! ## Losing a window
//! A failed make-current or swap (Mesa: `EGL_BAD_NATIVE_WINDOW`, `EGL_BAD_SURFACE`, or the
//! connection broke) detaches the surface: an `Unsupported` event says why,
//! [`Outbox::detached`](tessera_wire::Outbox::detached) names it, and the engine shows its
//! frames itself from then on. On X11 Mesa's swap into a destroyed window does not fail (its
//! image requests' errors go to the connection's event queue), so there the swap succeeds
//! and shows nothing, as it does for a native program.
//!
//! **Which path.** `TESSERA_GLES_PRESENT` chooses: `native` (this module), `client` (the
//! backend's display stays surfaceless and the engine reads each frame back and shows it),
//! or `auto` (the default): native where the backend could make its display on the
//! program's connection and the driver is not a software rasterizer. On llvmpipe the
//! driver's X11 presentation costs several times what the client path's MIT-SHM does
//! (`scripts/bench-window`, 1280x720 clear-and-swap: 40-90 fps native, 420-1,000 client),
//! so there `auto` leaves windows to the client, as the Vulkan backend does on CPU devices;
//! the same rule holds for Wayland windows.

use std::ffi::c_void;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use glow::HasContext;
use tessera_wire::Event;
use tessera_wire::backend::{
    NativeTarget, WL_EGL_WINDOW_VERSION, WaylandTarget, WindowLife, WlEglWindow,
};
use tessera_wire::dispatch::R;
use tessera_wire::handle::SurfaceHandle;

use crate::command::dirty;
use crate::device::GlesPipe;
use crate::egl::{Serial, WindowEgl};
use crate::shadow::Cap;

type EglSurface = *mut c_void;
type EglConfig = *mut c_void;

const EGL_NONE: i32 = 0x3038;
const EGL_WIDTH: i32 = 0x3057;
const EGL_HEIGHT: i32 = 0x3056;
const EGL_SURFACE_TYPE: i32 = 0x3033;
const EGL_WINDOW_BIT: i32 = 0x0004;
const EGL_RENDERABLE_TYPE: i32 = 0x3040;
const EGL_OPENGL_ES3_BIT: i32 = 0x40;
const EGL_RED_SIZE: i32 = 0x3024;
const EGL_GREEN_SIZE: i32 = 0x3023;
const EGL_BLUE_SIZE: i32 = 0x3022;
const EGL_ALPHA_SIZE: i32 = 0x3021;
const EGL_SAMPLES: i32 = 0x3031;
const EGL_NATIVE_VISUAL_ID: i32 = 0x302E;

/// How the program asked windows to be presented (`TESSERA_GLES_PRESENT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PresentChoice {
    /// The backend presents in process where it can (the default).
    Auto,
    /// The backend presents in process (as `Auto`; a display that cannot is logged).
    Native,
    /// The client reads every frame back and shows it.
    Client,
}

impl PresentChoice {
    /// `TESSERA_GLES_PRESENT`, warning about a value it does not know (`auto` then).
    pub fn from_env() -> Self {
        match tessera_wire::env::value("TESSERA_GLES_PRESENT").as_deref() {
            None | Some("" | "auto") => Self::Auto,
            Some("native") => Self::Native,
            Some("client") => Self::Client,
            Some(other) => {
                log::warn!("TESSERA_GLES_PRESENT={other:?} is not auto, native or client: auto");
                Self::Auto
            }
        }
    }
}

/// What the backend made of a Wayland window: its own `wl_egl_window` on the program's
/// `wl_surface` and the EGL window surface over it. Shared between the presenter and the
/// hook the window's life runs when the program destroys its `wl_egl_window`.
struct WaylandState {
    /// The EGL window surface (null once destroyed).
    surface: EglSurface,
    /// The backend's `wl_egl_window` (`None` once destroyed).
    window: Option<Box<WlEglWindow>>,
    /// The program's window ended (its `wl_egl_window` is freed or about to be).
    ended: bool,
}

// SAFETY: the surface and window are touched only under the state's mutex, with the
// process's native-call lock held where the driver needs it (`Serial`, taken first); the
// EGL surface is never current while the mutex is free (a present releases it before
// unlocking), so whichever thread holds the mutex may destroy it.
unsafe impl Send for WaylandState {}

type SharedState = Arc<Mutex<WaylandState>>;

fn lock(state: &SharedState) -> MutexGuard<'_, WaylandState> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

impl WaylandState {
    /// Destroys the EGL surface, then the backend's `wl_egl_window` (as
    /// `wl_egl_window_destroy` does: the driver's destroy callback first, if it still has
    /// one). Neither touches the program's `wl_surface`.
    fn tear_down(&mut self, egl: &WindowEgl) {
        if !self.surface.is_null() {
            // SAFETY: a window surface of the backend's display (alive: the backend that
            // made it, whose display it is, destroys its presenters before its display),
            // destroyed once (the field is cleared), current nowhere (`WaylandState`'s
            // rule).
            unsafe { (egl.fns.destroy_surface)(egl.display, self.surface) };
            self.surface = std::ptr::null_mut();
        }
        if let Some(mut window) = self.window.take()
            && let Some(destroyed) = window.destroy_window_callback.take()
        {
            // SAFETY: the driver's callback with the private pointer it set, called once,
            // before the window is freed: libwayland-egl's contract.
            unsafe { destroyed(window.driver_private) };
        }
    }
}

/// The hook a Wayland window's life runs: the backend's surface and `wl_egl_window` go
/// before the program's `wl_surface` can.
struct EndHook {
    state: SharedState,
    egl: WindowEgl,
}

// SAFETY: the EGL handles are the backend's display's, used only as `WaylandState`'s rule
// says; EGL functions may be called from any thread.
unsafe impl Send for EndHook {}

impl EndHook {
    fn run(self) {
        let _serial = self.egl.serialised.then(Serial::lock);
        let mut state = lock(&self.state);
        state.ended = true;
        if !state.surface.is_null() {
            log::info!(
                "tessera-backend-gles: the program destroyed a wl_egl_window the backend \
                 presented into: its EGL window surface and wl_egl_window go first"
            );
        }
        state.tear_down(&self.egl);
    }
}

/// The native window of a presenter.
enum Window {
    /// An X11 window (its id).
    X11(u32),
    /// A Wayland window: what the backend made of it, and the hook on its life.
    Wayland {
        target: WaylandTarget,
        state: SharedState,
        life: Arc<WindowLife>,
        hook: u64,
    },
}

/// A surface's presentation into a window.
struct Presenter {
    handle: SurfaceHandle,
    target: NativeTarget,
    window: Window,
    /// The window surface (X11; a Wayland one is in its state).
    surface: EglSurface,
    interval: i32,
    /// The interval last set with `eglSwapInterval` while the surface was current.
    applied: Option<i32>,
}

impl Presenter {
    /// The window, for messages.
    fn describe(&self) -> String {
        match &self.window {
            Window::X11(xid) => format!("X11 window {xid:#x}"),
            Window::Wayland { target, .. } => format!("Wayland surface {:p}", target.surface),
        }
    }
}

/// Every window the backend presents into, and what is current with its context.
pub(crate) struct Presenters {
    /// `None`: the backend cannot present (its display is not the program's, or the
    /// program chose the client path).
    egl: Option<WindowEgl>,
    windows: Vec<Presenter>,
    /// The window surface current with the context on the applying thread (null: none).
    current: EglSurface,
    /// Surfaces no longer presented, for the next batch's outbox.
    pub detached: Vec<SurfaceHandle>,
    /// Frames presented (a running total).
    pub presented: u64,
}

// SAFETY: the EGL handles are used only through `&mut` methods of the backend, one thread
// at a time, with the backend's context current on that thread (lib.rs's invariant); the
// window surfaces are not bound to a thread. A Wayland window's state is shared with its
// end hook under `WaylandState`'s rule.
unsafe impl Send for Presenters {}

impl Presenters {
    /// Presenters on `egl` (`None`: the backend never presents).
    pub fn new(egl: Option<WindowEgl>) -> Self {
        Self {
            egl,
            windows: Vec::new(),
            current: std::ptr::null_mut(),
            detached: Vec::new(),
            presented: 0,
        }
    }

    /// Whether this backend can present windows at all.
    pub fn available(&self) -> bool {
        self.egl.is_some()
    }

    /// The context was made current without a surface, or released.
    pub fn forget_current(&mut self) {
        self.current = std::ptr::null_mut();
    }

    /// Makes the context current without a window surface, if one is current.
    fn surfaceless(&mut self) {
        let Some(egl) = self.egl else {
            return;
        };
        if self.current.is_null() {
            return;
        }
        self.current = std::ptr::null_mut();
        // SAFETY: the display and context are the backend's (live while `Egl` is, which
        // outlives the pipe); no surfaces with a context is allowed by
        // EGL_KHR_surfaceless_context, which the context was made with.
        unsafe {
            (egl.fns.make_current)(
                egl.display,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                egl.context,
            )
        };
    }

    /// Destroys a presenter's window surface (made not current first), and for a Wayland
    /// window the backend's `wl_egl_window` (unless the window's end hook did already).
    fn destroy(&mut self, p: Presenter) {
        let Some(egl) = self.egl else {
            return;
        };
        match p.window {
            Window::X11(_) => {
                if self.current == p.surface {
                    self.surfaceless();
                }
                // SAFETY: a window surface of this display, destroyed once (taken out of
                // the list), not current on this thread (above); the context is current on
                // no other thread (lib.rs's invariant), so it is current nowhere.
                unsafe { (egl.fns.destroy_surface)(egl.display, p.surface) };
            }
            Window::Wayland {
                state, life, hook, ..
            } => {
                life.forget(hook);
                let _serial = egl.serialised.then(Serial::lock);
                lock(&state).tear_down(&egl);
            }
        }
    }

    /// Stops presenting `handle` (if it was).
    pub fn detach(&mut self, handle: SurfaceHandle) {
        if let Some(i) = self.windows.iter().position(|p| p.handle == handle) {
            let p = self.windows.swap_remove(i);
            self.destroy(p);
            self.detached.push(handle);
        }
    }

    /// The config for a window surface: of the window's X visual (0: any), or with no
    /// alpha (`opaque`: a Wayland window, whose compositor would blend with the alpha of
    /// an ARGB buffer; the client path shows frames opaque).
    fn config_for(egl: &WindowEgl, visual: u32, opaque: bool) -> Result<EglConfig, String> {
        let attribs = [
            EGL_SURFACE_TYPE,
            EGL_WINDOW_BIT,
            EGL_RENDERABLE_TYPE,
            EGL_OPENGL_ES3_BIT,
            EGL_RED_SIZE,
            8,
            EGL_GREEN_SIZE,
            8,
            EGL_BLUE_SIZE,
            8,
            EGL_NONE,
        ];
        let mut configs = [std::ptr::null_mut(); 64];
        let mut count = 0;
        // SAFETY: an initialised display; an EGL_NONE-terminated list; room for 64 configs.
        let ok = unsafe {
            (egl.fns.choose_config)(
                egl.display,
                attribs.as_ptr(),
                configs.as_mut_ptr(),
                configs.len() as i32,
                &mut count,
            )
        };
        if ok == 0 || count < 1 {
            return Err("no window config with 8-bit colour for OpenGL ES 3".to_owned());
        }
        let configs = &configs[..count.clamp(0, 64) as usize];
        let attrib = |c: EglConfig, name: i32| {
            let mut value = 0;
            // SAFETY: a config of this display; a valid out-pointer.
            let ok = unsafe { (egl.fns.get_config_attrib)(egl.display, c, name, &mut value) };
            (ok != 0).then_some(value)
        };
        if opaque {
            // Exactly XRGB8888, single-sampled: the driver offers 10-bit colour first.
            let want = [
                (EGL_RED_SIZE, 8),
                (EGL_GREEN_SIZE, 8),
                (EGL_BLUE_SIZE, 8),
                (EGL_ALPHA_SIZE, 0),
                (EGL_SAMPLES, 0),
            ];
            return configs
                .iter()
                .copied()
                .find(|&c| want.iter().all(|&(name, v)| attrib(c, name) == Some(v)))
                .ok_or_else(|| "no single-sampled 8-bit window config without alpha".to_owned());
        }
        if visual == 0 {
            return Ok(configs[0]);
        }
        configs
            .iter()
            .copied()
            .find(|&c| attrib(c, EGL_NATIVE_VISUAL_ID).is_some_and(|id| id as u32 == visual))
            .ok_or_else(|| format!("no window config of visual {visual:#x}"))
    }

    /// A window surface of X11 window `xid`.
    fn x11_surface(egl: &WindowEgl, xid: u32, visual: u32) -> Result<EglSurface, String> {
        let config = Self::config_for(egl, visual, false)?;
        let attribs = [EGL_NONE];
        // SAFETY: an initialised display on the window's connection (the caller checked
        // `holds`), a window config of it, the X window's id as the platform's
        // `EGLNativeWindowType`, an EGL_NONE-terminated list.
        let surface = unsafe {
            (egl.fns.create_window_surface)(egl.display, config, xid as usize, attribs.as_ptr())
        };
        if surface.is_null() {
            // SAFETY: takes no arguments; reads thread-local state.
            let error = unsafe { (egl.fns.get_error)() };
            return Err(format!("eglCreateWindowSurface: EGL error {error:#x}"));
        }
        Ok(surface)
    }

    /// What the backend makes of a Wayland window: the hook on its life, then under the
    /// state's lock (while the program's window surely lives) its own `wl_egl_window` of
    /// the program's size on the program's `wl_surface` and a window surface over it.
    fn wayland_window(egl: &WindowEgl, target: WaylandTarget) -> Result<Window, String> {
        let life = target.life();
        let state = Arc::new(Mutex::new(WaylandState {
            surface: std::ptr::null_mut(),
            window: None,
            ended: false,
        }));
        let hook = EndHook {
            state: state.clone(),
            egl: *egl,
        };
        let Some(hook) = life.on_end(Box::new(move || hook.run())) else {
            return Err("the program destroyed its wl_egl_window".to_owned());
        };
        let made = (|| {
            let config = Self::config_for(egl, 0, true)?;
            let mut st = lock(&state);
            if st.ended {
                return Err("the program destroyed its wl_egl_window".to_owned());
            }
            let program = target.window.cast::<WlEglWindow>();
            // SAFETY: the program's window lives: the end hook has not run (`ended` is
            // unset) and cannot finish while the state is locked here, and the window is
            // freed only after it (`NativeTarget::wayland`'s contract); only its size is
            // read.
            let (width, height) = unsafe { ((*program).width, (*program).height) };
            let mut window = Box::new(WlEglWindow {
                version: WL_EGL_WINDOW_VERSION,
                width,
                height,
                dx: 0,
                dy: 0,
                attached_width: 0,
                attached_height: 0,
                driver_private: std::ptr::null_mut(),
                resize_callback: None,
                destroy_window_callback: None,
                surface: target.surface,
            });
            let native: *mut WlEglWindow = &mut *window;
            let attribs = [EGL_NONE];
            // SAFETY: an initialised display on the program's `wl_display` (the caller
            // checked `holds`), a window config of it, and a `wl_egl_window` of the ABI
            // version 3 on a live `wl_surface` of that display as the platform's
            // `EGLNativeWindowType`; the window stays at its address (boxed) until the
            // surface is destroyed (`tear_down`).
            let surface = unsafe {
                (egl.fns.create_window_surface)(
                    egl.display,
                    config,
                    native as usize,
                    attribs.as_ptr(),
                )
            };
            if surface.is_null() {
                // SAFETY: takes no arguments; reads thread-local state.
                let error = unsafe { (egl.fns.get_error)() };
                return Err(format!("eglCreateWindowSurface: EGL error {error:#x}"));
            }
            st.surface = surface;
            st.window = Some(window);
            Ok(())
        })();
        match made {
            Ok(()) => Ok(Window::Wayland {
                target,
                state,
                life,
                hook,
            }),
            Err(why) => {
                life.forget(hook);
                Err(why)
            }
        }
    }
}

impl Drop for Presenters {
    fn drop(&mut self) {
        for p in std::mem::take(&mut self.windows) {
            self.destroy(p);
        }
    }
}

impl GlesPipe {
    /// `Backend::attach_window`: presents `handle` into `window` from now on (see the
    /// module's documentation); `None` stops. Returns whether the surface is presented.
    pub fn attach_window(
        &mut self,
        handle: SurfaceHandle,
        window: Option<NativeTarget>,
        interval: i32,
    ) -> bool {
        let Some(window) = window else {
            self.presenters.detach(handle);
            return false;
        };
        let Some(egl) = self.presenters.egl else {
            return false;
        };
        if !egl.native.holds(&window) {
            return false;
        }
        let what = match (window.as_xcb(), window.as_wayland()) {
            (Some((_, xid, _)), _) => format!("X11 window {xid:#x}"),
            (None, Some(w)) => format!("Wayland surface {:p}", w.surface),
            (None, None) => return false,
        };
        let Some(s) = self.surfaces.live(handle) else {
            return false;
        };
        let refused = match s.desc.color {
            None => Some("the surface has no colour image"),
            Some(_) if s.desc.samples > 1 => Some("the colour image is multisampled"),
            Some(f) if f.info().srgb && !self.features.srgb_write_control => Some(
                "the colour image is sRGB-encoded and the driver lacks GL_EXT_sRGB_write_control",
            ),
            Some(_) => None,
        };
        if let Some(why) = refused {
            log::info!(
                "tessera-backend-gles: surface {}: not presenting to {what} ({why}): the \
                 client shows its frames",
                handle.slot
            );
            return false;
        }
        if let Some(p) = self
            .presenters
            .windows
            .iter_mut()
            .find(|p| p.handle == handle)
        {
            if p.target == window {
                p.interval = interval;
                return true;
            }
            self.presenters.detach(handle);
        }
        // Another surface presenting into this window (the one a resize replaces) yields.
        let others: Vec<SurfaceHandle> = self
            .presenters
            .windows
            .iter()
            .filter(|p| p.target == window)
            .map(|p| p.handle)
            .collect();
        for h in others {
            self.presenters.detach(h);
        }
        let made = match (window.as_xcb(), window.as_wayland()) {
            (Some((_, xid, visual)), _) => Presenters::x11_surface(&egl, xid, visual)
                .map(|surface| (Window::X11(xid), surface)),
            (None, Some(w)) => {
                Presenters::wayland_window(&egl, w).map(|w| (w, std::ptr::null_mut()))
            }
            (None, None) => return false,
        };
        match made {
            Ok((native, surface)) => {
                log::info!(
                    "tessera-backend-gles: surface {}: presenting to {what} through a native \
                     EGL window surface, swap interval {interval}",
                    handle.slot
                );
                self.presenters.windows.push(Presenter {
                    handle,
                    target: window,
                    window: native,
                    surface,
                    interval,
                    applied: None,
                });
                true
            }
            Err(why) => {
                log::info!(
                    "tessera-backend-gles: surface {}: cannot present to {what} ({why}): the \
                     client shows its frames",
                    handle.slot
                );
                false
            }
        }
    }

    /// Stops presenting `handle` after a failure: the engine shows its frames from now on.
    fn lose_window(&mut self, handle: SurfaceHandle, why: String) {
        let window = self
            .presenters
            .windows
            .iter()
            .find(|p| p.handle == handle)
            .map_or_else(|| "a window".to_owned(), Presenter::describe);
        self.presenters.detach(handle);
        self.events.push(Event::Unsupported {
            what: format!(
                "presenting to {window} failed ({why}): its frames are shown by the client"
            ),
        });
    }

    /// `Present` of a surface presented into a window (any other surface: a flush).
    pub fn present_window(&mut self, handle: SurfaceHandle) -> R {
        let Some(i) = self
            .presenters
            .windows
            .iter()
            .position(|p| p.handle == handle)
        else {
            return self.flush_native();
        };
        let p = &self.presenters.windows[i];
        let (target, state) = match &p.window {
            Window::X11(_) => {
                let surface = p.surface;
                if let Err(why) = self.present_into(i, surface) {
                    self.lose_window(handle, why);
                    return self.flush_native();
                }
                return Ok(());
            }
            Window::Wayland { target, state, .. } => (*target, state.clone()),
        };
        // The state stays locked until the surface is released again: the window's end
        // hook (the program destroying its `wl_egl_window`, on its thread) waits for the
        // frame, and finds the surface current nowhere.
        let mut st = lock(&state);
        if st.ended || st.surface.is_null() {
            drop(st);
            log::info!(
                "tessera-backend-gles: surface {}: the program destroyed its wl_egl_window: \
                 the backend stopped presenting it",
                handle.slot
            );
            self.presenters.detach(handle);
            return self.flush_native();
        }
        let program = target.window.cast::<WlEglWindow>();
        // SAFETY: the program's window lives (the end hook has not run and cannot finish
        // while the state is locked); only its size and offset are read.
        let (width, height, dx, dy) = unsafe {
            (
                (*program).width,
                (*program).height,
                (*program).dx,
                (*program).dy,
            )
        };
        let surface = st.surface;
        if let Some(w) = st.window.as_deref_mut()
            && (w.width, w.height) != (width, height)
        {
            // `wl_egl_window_resize` of the backend's window to the program's size.
            (w.width, w.height, w.dx, w.dy) = (width, height, dx, dy);
            if let Some(resized) = w.resize_callback {
                let private = w.driver_private;
                // SAFETY: the driver's callback with the window and the private pointer it
                // set, as libwayland-egl calls it; the window is the backend's and alive.
                unsafe { resized(w, private) };
            }
        }
        let presented = self.present_into(i, surface);
        self.presenters.surfaceless();
        drop(st);
        if let Err(why) = presented {
            self.lose_window(handle, why);
            return self.flush_native();
        }
        Ok(())
    }

    /// Blits presenter `i`'s surface into `window` (its EGL window surface) and swaps.
    fn present_into(&mut self, i: usize, window: EglSurface) -> Result<(), String> {
        let Some(egl) = self.presenters.egl else {
            return Err("the backend cannot present".to_owned());
        };
        let (handle, interval, applied) = {
            let p = &self.presenters.windows[i];
            (p.handle, p.interval, p.applied)
        };
        let error = || {
            // SAFETY: takes no arguments; reads thread-local state.
            unsafe { (egl.fns.get_error)() }
        };
        if self.presenters.current != window {
            // SAFETY: the backend's display and context, and a live window surface of that
            // display; the context is current on this thread only (lib.rs's invariant).
            let ok = unsafe { (egl.fns.make_current)(egl.display, window, window, egl.context) };
            if ok == 0 {
                let why = format!("eglMakeCurrent: EGL error {:#x}", error());
                // The failed call may have released the context: make it current again.
                self.presenters.current = window;
                self.presenters.surfaceless();
                return Err(why);
            }
            self.presenters.current = window;
        }
        if applied != Some(interval) {
            // SAFETY: the window surface is current with the context on this thread; EGL
            // clamps the interval to the config's range.
            unsafe { (egl.fns.swap_interval)(egl.display, interval) };
            self.presenters.windows[i].applied = Some(interval);
        }
        let (mut width, mut height) = (0, 0);
        // SAFETY: a live surface of this display; valid out-pointers.
        unsafe {
            (egl.fns.query_surface)(egl.display, window, EGL_WIDTH, &mut width);
            (egl.fns.query_surface)(egl.display, window, EGL_HEIGHT, &mut height);
        }
        let Some(s) = self.surfaces.live(handle) else {
            return Err("the surface was destroyed".to_owned());
        };
        let (fbo, sw, sh) = (s.fbo, s.desc.width as i32, s.desc.height as i32);
        let (w, h) = (sw.min(width), sh.min(height));
        let gl = &self.gl;
        self.shadow.bind_read_framebuffer(gl, Some(fbo));
        self.shadow.bind_draw_framebuffer(gl, None);
        self.shadow.enable(gl, Cap::ScissorTest, false);
        self.shadow.enable(gl, Cap::RasterizerDiscard, false);
        if self.features.srgb_write_control {
            // Bytes, not colours: an sRGB-encoded image is copied as stored, as the
            // client's read-back shows it.
            self.shadow.enable(gl, Cap::FramebufferSrgb, false);
        }
        self.disturbed |= dirty::FRAMEBUFFER | dirty::RASTER;
        if (w, h) != (width, height) {
            self.shadow.color_masks(gl, u32::MAX, 1);
            self.disturbed |= dirty::BLEND;
            // SAFETY: context current with the window surface; the default framebuffer is
            // bound for drawing; a four-float colour for draw buffer 0 (its back buffer).
            unsafe { gl.clear_buffer_f32_slice(glow::COLOR, 0, &[0.0, 0.0, 0.0, 1.0]) };
        }
        if w > 0 && h > 0 {
            // SAFETY: context current; the surface's single-sampled colour FBO is bound for
            // reading and the window's default framebuffer for drawing; both rectangles lie
            // in their framebuffers (clipped to the smaller); colour with NEAREST is valid
            // for any pair of normalized colour formats.
            unsafe {
                gl.blit_framebuffer(
                    0,
                    0,
                    w,
                    h,
                    0,
                    height - h,
                    w,
                    height,
                    glow::COLOR_BUFFER_BIT,
                    glow::NEAREST,
                )
            };
        }
        // SAFETY: the window surface is current with the context on this thread.
        if unsafe { (egl.fns.swap_buffers)(egl.display, window) } == 0 {
            return Err(format!("eglSwapBuffers: EGL error {:#x}", error()));
        }
        self.presenters.presented += 1;
        Ok(())
    }

    /// A present that shows nothing: submits what was recorded.
    fn flush_native(&mut self) -> R {
        // SAFETY: context current; glFlush has no preconditions.
        unsafe { self.gl.flush() };
        Ok(())
    }
}

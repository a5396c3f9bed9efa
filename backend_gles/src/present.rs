//! Presenting surfaces into X11 windows: a native EGL window surface per attached surface,
//! and what `Present` does for such a surface.
//!
//! ## Why the backend's own display
//! An EGL context can be made current only with surfaces of its own `EGLDisplay`, and
//! contexts cannot share objects across displays. A window surface is made on a display of
//! the window's connection, so a backend that is to present windows keeps its context on
//! such a display: in process, when a context is made on a display of a window platform
//! (EGL on X11 or XCB, and GLX), the engine hands the backend the program's XCB connection
//! when it creates it ([`NativeDisplay`](tessera_wire::backend::NativeDisplay)), and `egl.rs`
//! makes the backend's display on it (`EGL_PLATFORM_XCB_EXT`) instead of the surfaceless
//! one. Nothing else changes: the context is the same config-less ES context, current
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
//! so there `auto` leaves windows to the client, as the Vulkan backend does on CPU devices.

use std::ffi::c_void;

use glow::HasContext;
use tessera_wire::Event;
use tessera_wire::backend::NativeTarget;
use tessera_wire::dispatch::R;
use tessera_wire::handle::SurfaceHandle;

use crate::command::dirty;
use crate::device::GlesPipe;
use crate::egl::WindowEgl;
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

/// A surface's presentation into a window.
struct Presenter {
    handle: SurfaceHandle,
    target: NativeTarget,
    /// The X11 window (for messages).
    window: u32,
    surface: EglSurface,
    interval: i32,
    /// The interval last set with `eglSwapInterval` while the surface was current.
    applied: Option<i32>,
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
// window surfaces are not bound to a thread.
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

    /// Destroys a presenter's window surface (made not current first).
    fn destroy(&mut self, p: Presenter) {
        let Some(egl) = self.egl else {
            return;
        };
        if self.current == p.surface {
            self.surfaceless();
        }
        // SAFETY: a window surface of this display, destroyed once (taken out of the list),
        // not current on this thread (above); the context is current on no other thread
        // (lib.rs's invariant), so it is current nowhere.
        unsafe { (egl.fns.destroy_surface)(egl.display, p.surface) };
    }

    /// Stops presenting `handle` (if it was).
    pub fn detach(&mut self, handle: SurfaceHandle) {
        if let Some(i) = self.windows.iter().position(|p| p.handle == handle) {
            let p = self.windows.swap_remove(i);
            self.destroy(p);
            self.detached.push(handle);
        }
    }

    /// The config of the window's visual for a window surface.
    fn config_for(egl: &WindowEgl, visual: u32) -> Result<EglConfig, String> {
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
        if visual == 0 {
            return Ok(configs[0]);
        }
        configs
            .iter()
            .copied()
            .find(|&c| {
                let mut id = 0;
                // SAFETY: a config of this display; a valid out-pointer.
                let ok = unsafe {
                    (egl.fns.get_config_attrib)(egl.display, c, EGL_NATIVE_VISUAL_ID, &mut id)
                };
                ok != 0 && id as u32 == visual
            })
            .ok_or_else(|| format!("no window config of visual {visual:#x}"))
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
        let Some((_, xid, visual)) = window.as_xcb() else {
            return false;
        };
        if !egl.native.holds(&window) {
            return false;
        }
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
                "tessera-backend-gles: surface {}: not presenting to X11 window {xid:#x} ({why}): \
                 the client shows its frames",
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
        let surface = Presenters::config_for(&egl, visual).and_then(|config| {
            let attribs = [EGL_NONE];
            // SAFETY: an initialised display on the window's connection (`holds`, above),
            // a window config of it, the X window's id as the platform's
            // `EGLNativeWindowType`, an EGL_NONE-terminated list.
            let surface = unsafe {
                (egl.fns.create_window_surface)(egl.display, config, xid as usize, attribs.as_ptr())
            };
            if surface.is_null() {
                // SAFETY: takes no arguments; reads thread-local state.
                let error = unsafe { (egl.fns.get_error)() };
                Err(format!("eglCreateWindowSurface: EGL error {error:#x}"))
            } else {
                Ok(surface)
            }
        });
        match surface {
            Ok(surface) => {
                log::info!(
                    "tessera-backend-gles: surface {}: presenting to X11 window {xid:#x} \
                     through a native EGL window surface, swap interval {interval}",
                    handle.slot
                );
                self.presenters.windows.push(Presenter {
                    handle,
                    target: window,
                    window: xid,
                    surface,
                    interval,
                    applied: None,
                });
                true
            }
            Err(why) => {
                log::info!(
                    "tessera-backend-gles: surface {}: cannot present to X11 window {xid:#x} \
                     ({why}): the client shows its frames",
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
            .map_or(0, |p| p.window);
        self.presenters.detach(handle);
        self.events.push(Event::Unsupported {
            what: format!(
                "presenting to X11 window {window:#x} failed ({why}): its frames are shown by \
                 the client"
            ),
        });
    }

    /// `Present` of a surface presented into a window (any other surface: a flush).
    pub fn present_window(&mut self, handle: SurfaceHandle) -> R {
        let Some(egl) = self.presenters.egl else {
            return self.flush_native();
        };
        let Some(i) = self
            .presenters
            .windows
            .iter()
            .position(|p| p.handle == handle)
        else {
            return self.flush_native();
        };
        let (window, interval, applied) = {
            let p = &self.presenters.windows[i];
            (p.surface, p.interval, p.applied)
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
                self.lose_window(handle, why);
                return self.flush_native();
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
            self.lose_window(handle, "the surface was destroyed".to_owned());
            return self.flush_native();
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
            let code = error();
            self.lose_window(handle, format!("eglSwapBuffers: EGL error {code:#x}"));
            return Ok(());
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

//! Presenting a context's default framebuffer into a native window.
//!
//! A window surface reaches its context as a [`WindowLink`]: the native window (shared with
//! the EGL surface) and the cell holding the wire surface of the context's share group. At
//! a swap the context reads the surface's colour image back (`ReadPixels` into a reply,
//! then `Present`) and hands the rows to the window. Then, and at the first `glViewport` of
//! each frame, it asks the window its size: when it changed, the context makes a wire
//! surface of the new size, binds it as its default framebuffer, destroys the old one and
//! stores the new one in the cell, so every context of the group that later draws to the
//! window finds images of the window's size. GL state, the viewport included, is the
//! program's: only the images change, as after any window-system resize.
//!
//! **Presented by the backend.** In process (`inproc`, `thread`) the backend may show the
//! frames itself (the Vulkan backend through a WSI swapchain, the GLES backend through a
//! native EGL window surface on the display it made on the program's X connection or
//! Wayland display, which the context's
//! [`Config::native_display`](crate::Config::native_display) handed it). When the context binds the
//! window, and again for each new wire surface (a resize) and swap interval, it offers the
//! window's [`NativeTarget`](tessera_wire::backend::NativeTarget) to the transport for the
//! wire surface bound now, after the batch that created the surface. While the backend
//! presents it, a swap is only `Present` and a flush: no read-back, nothing put by the
//! client. Over `thread` with swap interval 1 the swap also waits until the render thread
//! has presented (a `Finish`), so the frame is in the window when the swap returns, as in
//! process. When the backend stops presenting on its own (the window was destroyed, its
//! connection broke) the context goes back to the read-back below from then on; in
//! process, the frame whose `Present` failed is read back and shown (or its error reported)
//! at once. Everything else, and every process transport, takes the read-back.
//!
//! **Frames in flight.** In process the read-back is answered at once, so a frame is shown
//! at its own swap. Over a process transport (`shm`, `fork`, `unix:`, `tcp://`) with swap
//! interval 0, a swap sends the read-back and shows the *previous* frame's, whose reply has
//! had a whole frame to arrive: the render thread never waits a round trip, frames are
//! shown one swap late, and at most one is in flight (the next swap waits for it, which is
//! the back-pressure a slow server or network applies). With interval 1 every frame is
//! shown at its own swap. A frame still in flight when the window is unbound is shown then.
//!
//! **Front-buffered windows.** A single-buffered GLX window has one colour buffer, `FRONT`,
//! and shows what it holds at each `glFlush` and `glFinish` (and what GLX builds on them):
//! the context's flush and finish end with [`front_flush_hook`](Context::front_flush_hook),
//! one branch, which for such a window presents as a swap does (the backend's `Present`, or
//! a read-back shown at once, never left in flight) but neither ends a frame nor follows the
//! window's size: a new size would replace images the program is still drawing into, so it
//! is taken at the next `glViewport` (or make-current) instead.

use std::sync::{Arc, Mutex, PoisonError};

use tessera_components::gl::{BACK, BACK_LEFT, FRONT, FRONT_LEFT};
use tessera_wire::format::{PixelFormat, PixelLayout, PixelType};
use tessera_wire::handle::SurfaceHandle;
use tessera_wire::record::{
    FramebufferRef, PixelDestination, ReadImage, ReadRegion, ReadSource, Record,
};
use tessera_wire::state::Rect;
use tessera_wire::{Reply, ReplyId, TransportKind};

use crate::context::{Context, Surface};
use crate::egl::window::{Frame, NativeWindow, WindowError};

/// A native window as the EGL layer shares it between a surface and the contexts drawing
/// to it.
pub type SharedWindow = Arc<Mutex<Box<dyn NativeWindow>>>;

/// What a context needs to present into a window and follow its size.
pub struct WindowLink {
    /// The window.
    pub native: SharedWindow,
    /// The wire surface of this context's share group for the window (replaced on resize).
    pub surface: Arc<Mutex<Surface>>,
    /// The size of the window as the EGL surface reports it (`0 x 0` is possible; the wire
    /// images then have one pixel).
    pub size: Arc<Mutex<(u32, u32)>>,
    /// Whether the size was checked since the last swap.
    checked: bool,
    /// The swap interval.
    interval: i32,
    /// Whether the transport is a process transport (asked at the first swap).
    remote: Option<bool>,
    /// The frame read back and not shown yet.
    in_flight: Option<InFlight>,
    /// The last frame shown (kept once the program declared damage).
    shown: Option<Shown>,
    /// Who shows the frames of the wire surface bound now.
    presenter: Presenter,
    /// Front-buffered (a single-buffered GLX window): `glFlush`/`glFinish` show it.
    front: bool,
}

/// Who shows the frames of a window's wire surface, as last decided for a surface and swap
/// interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Presenter {
    /// Not asked yet.
    Unknown,
    /// The backend presents `surface` into the window itself.
    Backend {
        surface: SurfaceHandle,
        interval: i32,
    },
    /// The context reads `surface` back and the window puts the rows.
    Client {
        surface: SurfaceHandle,
        interval: i32,
    },
}

impl Presenter {
    /// Whether this is the decision for `surface` at `interval`.
    fn decided(self, surface: SurfaceHandle, interval: i32) -> bool {
        match self {
            Self::Unknown => false,
            Self::Backend {
                surface: s,
                interval: i,
            }
            | Self::Client {
                surface: s,
                interval: i,
            } => (s, i) == (surface, interval),
        }
    }
}

/// A read-back on its way.
#[derive(Clone, Copy, Debug)]
struct InFlight {
    reply: ReplyId,
    width: u32,
    height: u32,
    /// Only rows `y0 .. y0 + rows` (from the bottom) were read: the damaged band.
    band: Option<(u32, u32)>,
}

/// The last frame shown, kept once a program declares damage, so a damaged swap reads back
/// only its damaged rows and shows them over it.
#[derive(Default)]
struct Shown {
    rows: Vec<u8>,
    width: u32,
    height: u32,
}

impl WindowLink {
    /// A link to `native` through `surface` (the group's wire surface) and `size`.
    pub fn new(
        native: SharedWindow,
        surface: Arc<Mutex<Surface>>,
        size: Arc<Mutex<(u32, u32)>>,
    ) -> Self {
        Self {
            native,
            surface,
            size,
            checked: true,
            interval: 1,
            remote: None,
            in_flight: None,
            shown: None,
            presenter: Presenter::Unknown,
            front: false,
        }
    }

    /// The link of a front-buffered window if `front` (module docs).
    pub fn with_front(mut self, front: bool) -> Self {
        self.front = front;
        self
    }
}

fn lock<T: ?Sized>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Context {
    /// Binds a window's surface as the default framebuffer (`None`: unbinds any window). A
    /// frame still in flight to the window being unbound is shown first.
    pub fn bind_window(&mut self, link: Option<WindowLink>) {
        if let Err(e) = self.show_in_flight() {
            log::debug!("tessera: the last frame in flight: {e}");
        }
        let surface = link.as_ref().map(|l| *lock(&l.surface));
        let front = link.as_ref().is_some_and(|l| l.front);
        self.local.window = link.map(Box::new);
        self.bind_surface(surface);
        if surface.is_some() {
            self.name_the_colour_buffer(front);
        }
        self.check_window_size();
        self.ask_presenter();
    }

    /// The default framebuffer's one colour buffer is `FRONT` on a front-buffered window,
    /// whose contexts start with it as draw and read buffer (where `BACK` also names it), and
    /// `BACK` on any other, where `FRONT` names nothing: the default draw and read buffers
    /// follow the window bound now.
    fn name_the_colour_buffer(&mut self, front: bool) {
        let (from, to) = if front {
            ([BACK, BACK_LEFT], [FRONT, FRONT_LEFT])
        } else {
            ([FRONT, FRONT_LEFT], [BACK, BACK_LEFT])
        };
        let rename = |b: &mut u32| {
            if let Some(i) = from.iter().position(|f| f == b) {
                *b = to[i];
            }
        };
        rename(&mut self.local.st.default_draw_buffer);
        rename(&mut self.local.st.default_read_buffer);
    }

    /// Whether the default framebuffer is a front-buffered window's (a single-buffered GLX
    /// window): its colour buffer is `FRONT`, and `glFlush`/`glFinish` show it.
    pub fn front_buffered(&self) -> bool {
        self.local.window.as_ref().is_some_and(|w| w.front)
    }

    /// At `glFlush` and `glFinish` (after the batch left): a front-buffered window shows what
    /// its colour buffer holds now. One branch for every other default framebuffer.
    #[inline]
    pub(crate) fn front_flush_hook(&mut self) {
        if self.front_buffered() {
            self.show_front();
        }
    }

    /// Shows the colour buffer of a front-buffered window as it is now: the path of a swap
    /// (read-back or the backend's own presentation), at once even over a process transport,
    /// without following the window's size (a resize would replace the images being drawn).
    fn show_front(&mut self) {
        let Some(link) = self.local.window.as_ref() else {
            return;
        };
        let (width, height) = *lock(&link.size);
        let interval = link.interval;
        let Some(surface) = self.local.surface else {
            return;
        };
        let (w, h) = (
            width.min(surface.desc.width),
            height.min(surface.desc.height),
        );
        if let Err(e) = self.present_frame(surface, w, h, interval, false, None) {
            log::debug!("tessera: showing the front buffer: {e}");
        }
        // The window may be resized before the next drawing: its first glViewport asks.
        if let Some(link) = self.local.window.as_mut() {
            link.checked = false;
        }
    }

    /// Offers the window to the transport for the wire surface bound now and the swap
    /// interval, unless that was decided already: the backend presents the surface itself
    /// from now on if it takes it, else the client shows the frames.
    fn ask_presenter(&mut self) {
        let Some(surface) = self.local.surface else {
            return;
        };
        let Some(link) = self.local.window.as_mut() else {
            return;
        };
        let (handle, interval) = (surface.handle, link.interval);
        if link.presenter.decided(handle, interval) {
            return;
        }
        let remote = match link.remote {
            Some(r) => r,
            None => {
                let r = self.group.lock().transport.kind().is_remote();
                link.remote = Some(r);
                r
            }
        };
        // A server has no use for the program's window.
        let target = if remote {
            None
        } else {
            lock(&link.native).native_target()
        };
        let attached = target.is_some_and(|target| {
            let group = self.group.clone();
            let mut sh = group.lock_for(self.local.id);
            // The batch that created the surface reaches the backend first.
            sh.flush();
            sh.lost.is_none() && sh.transport.attach_window(handle, Some(target), interval)
        });
        let link = self.local.window.as_mut().expect("checked above");
        link.presenter = if attached {
            log::info!(
                "tessera: window surface {}: the backend presents the frames (swap interval \
                 {interval})",
                handle.slot
            );
            Presenter::Backend {
                surface: handle,
                interval,
            }
        } else {
            log::info!(
                "tessera: window surface {}: frames are read back and shown by the client",
                handle.slot
            );
            Presenter::Client {
                surface: handle,
                interval,
            }
        };
    }

    /// Whether the backend presents `surface` now (asking first if that is not decided for
    /// it yet). A backend that stopped presenting it on its own hands the frames back to the
    /// client.
    fn backend_presents(&mut self, surface: SurfaceHandle) -> bool {
        self.ask_presenter();
        let Some(link) = self.local.window.as_ref() else {
            return false;
        };
        if !matches!(link.presenter, Presenter::Backend { surface: s, .. } if s == surface) {
            return false;
        }
        let still = self.group.lock().transport.window_attached(surface);
        if !still {
            self.backend_stopped(surface);
        }
        still
    }

    /// The backend no longer presents `surface` (it reported why as an event): the client
    /// shows its frames from now on.
    fn backend_stopped(&mut self, surface: SurfaceHandle) {
        if let Some(link) = self.local.window.as_mut() {
            log::info!(
                "tessera: window surface {}: the backend stopped presenting; frames are read \
                 back and shown by the client",
                surface.slot
            );
            link.presenter = Presenter::Client {
                surface,
                interval: link.interval,
            };
        }
    }

    /// A swap the backend presents: `Present` and a flush (over `thread` with swap
    /// interval 1, until the render thread has presented). Returns whether the backend
    /// still presents the surface afterwards.
    fn present_in_backend(&mut self, surface: SurfaceHandle, interval: i32) -> bool {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        sh.dev.push(Record::Present { surface });
        if interval > 0 && sh.transport.kind() == TransportKind::Thread {
            let reply = sh.dev.enc.mint_reply();
            sh.dev.push(Record::Finish { reply });
            let _ = sh.wait(reply);
        } else {
            sh.flush();
        }
        let still = sh.lost.is_none() && sh.transport.window_attached(surface);
        drop(sh);
        if !still {
            self.backend_stopped(surface);
        }
        still
    }

    /// Whether the default framebuffer is a window's.
    pub fn has_window(&self) -> bool {
        self.local.window.is_some()
    }

    /// At the first `glViewport` of a frame: the window may have been resized since the
    /// last swap.
    #[inline]
    pub(crate) fn window_viewport_hook(&mut self) {
        if let Some(w) = &self.local.window
            && !w.checked
        {
            self.check_window_size();
        }
    }

    /// Asks the window its size and resizes the surface's images when it changed.
    pub fn check_window_size(&mut self) {
        let Some(link) = self.local.window.as_mut() else {
            return;
        };
        link.checked = true;
        let now = match lock(&link.native).size() {
            Ok(s) => s,
            Err(e) => {
                log::debug!("tessera: window size: {e}");
                return;
            }
        };
        *lock(&link.size) = now;
        let old = *lock(&link.surface);
        let images = (now.0.max(1), now.1.max(1));
        if (old.desc.width, old.desc.height) == images {
            return;
        }
        let mut desc = old.desc;
        (desc.width, desc.height) = images;
        let new = self.create_surface(desc);
        let link = self.local.window.as_mut().expect("checked above");
        *lock(&link.surface) = new;
        // Bind the new images, then let the old ones go.
        self.local.surface = None;
        self.bind_surface(Some(new));
        self.group.destroy_surface(old);
        self.ask_presenter();
    }

    /// `eglSwapBuffers` on a window: presents the frame (the backend shows it itself, or the
    /// frame, or the previous one, is read back and shown; see the module doc), then follows
    /// the window's size. Returns the window system's error (the window is gone, the
    /// connection broke).
    pub fn swap_window(&mut self) -> Result<(), WindowError> {
        self.swap_window_with_damage(None)
    }

    /// [`swap_window`](Self::swap_window) with the damage the program declared
    /// (`eglSwapBuffersWithDamageKHR`: rectangles `x, y, width, height` from the bottom
    /// left; `None` or none: the whole frame). From the first damaged swap on, the last frame
    /// shown is kept, and a damaged swap reads back only the rows its rectangles span (over
    /// `tcp://` only they travel) and shows them over it.
    pub fn swap_window_with_damage(
        &mut self,
        damage: Option<&[[i32; 4]]>,
    ) -> Result<(), WindowError> {
        let Some(link) = self.local.window.as_ref() else {
            self.swap_buffers();
            return Ok(());
        };
        let (width, height) = *lock(&link.size);
        let (known_remote, interval) = (link.remote, link.interval);
        let Some(surface) = self.local.surface else {
            return Ok(());
        };
        let (w, h) = (
            width.min(surface.desc.width),
            height.min(surface.desc.height),
        );
        let remote = match known_remote {
            Some(r) => r,
            None => {
                let r = self.group.lock().transport.kind().is_remote();
                self.local.window.as_mut().expect("checked above").remote = Some(r);
                r
            }
        };
        let pipelined = remote && interval == 0;
        let band = self.damage_band(damage, w, h);
        let result = self.present_frame(surface, w, h, interval, pipelined, band);
        crate::profiling::end_frame();
        self.check_window_size();
        // The window may be resized before the next frame is drawn: its first glViewport
        // asks again.
        if let Some(link) = self.local.window.as_mut() {
            link.checked = false;
        }
        result
    }

    /// Shows the `w` x `h` frame of `surface`: the backend presents it, or it is read back
    /// and shown (`pipelined`: the previous frame's read-back is shown and this one's is left
    /// in flight; `band`: only those rows are read).
    fn present_frame(
        &mut self,
        surface: Surface,
        w: u32,
        h: u32,
        interval: i32,
        pipelined: bool,
        band: Option<(u32, u32)>,
    ) -> Result<(), WindowError> {
        let mut result = Ok(());
        if self.backend_presents(surface.handle) {
            result = self.show_in_flight();
            if !self.present_in_backend(surface.handle, interval) {
                // The frame's Present failed (the window is gone or broke): show it the
                // other way, which also reports what happened to the window.
                if let Some(now) = self.send_frame(surface, w, h, true, None) {
                    result = result.and(self.show(now));
                }
            }
        } else if pipelined {
            let sent = self.send_frame(surface, w, h, false, band);
            let previous = match self.local.window.as_mut() {
                Some(link) => std::mem::replace(&mut link.in_flight, sent),
                None => None,
            };
            if let Some(p) = previous {
                result = self.show(p);
            }
        } else {
            result = self.show_in_flight();
            if let Some(now) = self.send_frame(surface, w, h, true, band) {
                result = result.and(self.show(now));
            }
        }
        result
    }

    /// The rows (`y0`, count; from the bottom) a damaged swap of a `w` x `h` frame reads:
    /// `None` for the whole frame (no damage declared, nothing kept to show it over yet, or a
    /// new size). Declaring damage starts keeping the frames shown.
    fn damage_band(&mut self, damage: Option<&[[i32; 4]]>, w: u32, h: u32) -> Option<(u32, u32)> {
        let rects = damage.filter(|d| !d.is_empty())?;
        let link = self.local.window.as_mut()?;
        let shown = link.shown.get_or_insert_with(Shown::default);
        if (shown.width, shown.height) != (w, h)
            || link
                .in_flight
                .is_some_and(|f| f.width != w || f.height != h)
        {
            return None;
        }
        let (mut y0, mut y1) = (h, 0);
        for &[_, y, _, height] in rects {
            let lo = y.clamp(0, h as i32) as u32;
            let hi = y.saturating_add(height.max(0)).clamp(0, h as i32) as u32;
            if hi > lo {
                y0 = y0.min(lo);
                y1 = y1.max(hi);
            }
        }
        // Damage outside the frame still swaps: one row keeps the read simple.
        Some(if y1 > y0 { (y0, y1 - y0) } else { (0, 1) })
    }

    /// Shows the frame in flight, if any.
    fn show_in_flight(&mut self) -> Result<(), WindowError> {
        match self.local.window.as_mut().and_then(|l| l.in_flight.take()) {
            Some(f) => self.show(f),
            None => Ok(()),
        }
    }

    /// Waits for a read-back and shows it.
    fn show(&mut self, frame: InFlight) -> Result<(), WindowError> {
        let bytes = {
            let group = self.group.clone();
            let mut sh = group.lock_for(self.local.id);
            sh.wait(frame.reply)
        };
        if self.local.window.is_none() {
            return Ok(());
        }
        let (w, h) = (frame.width, frame.height);
        let stride = w as usize * 4;
        let Some(Reply::Bytes(rows)) = bytes else {
            return Ok(());
        };
        let link = self.local.window.as_mut().expect("checked above");
        let Some(shown) = link.shown.as_mut() else {
            if rows.len() < stride * h as usize {
                return Ok(());
            }
            return lock(&link.native).present(&Frame {
                width: w,
                height: h,
                rows: &rows,
            });
        };
        match frame.band {
            Some((y0, count)) => {
                // The damaged rows over the frame shown last.
                let at = y0 as usize * stride;
                let len = count as usize * stride;
                match (shown.rows.get_mut(at..at + len), rows.get(..len)) {
                    (Some(dst), Some(src)) => dst.copy_from_slice(src),
                    _ => return Ok(()),
                }
            }
            None => {
                if rows.len() < stride * h as usize {
                    return Ok(());
                }
                *shown = Shown {
                    rows,
                    width: w,
                    height: h,
                };
            }
        }
        lock(&link.native).present(&Frame {
            width: w,
            height: h,
            rows: &shown.rows,
        })
    }

    /// `eglSwapInterval` on the window bound as the default framebuffer.
    pub fn set_swap_interval(&mut self, interval: i32) -> Option<i32> {
        let link = self.local.window.as_mut()?;
        let set = lock(&link.native).set_swap_interval(interval);
        link.interval = set;
        self.ask_presenter();
        Some(set)
    }

    /// Sends the read-back of `w` x `h` pixels of `surface`'s colour image (BGRA8, bottom row
    /// first) and `Present`, and hands the batch over (`None`: nothing to read). With
    /// `wait_soon`, the caller waits for the reply next (the flush happens in that wait).
    fn send_frame(
        &mut self,
        surface: Surface,
        w: u32,
        h: u32,
        wait_soon: bool,
        band: Option<(u32, u32)>,
    ) -> Option<InFlight> {
        let (y0, rows) = band.unwrap_or((0, h));
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let read = (w > 0 && h > 0).then(|| {
            let reply = sh.dev.enc.mint_reply();
            sh.dev.push(Record::ReadPixels {
                src: ReadSource {
                    framebuffer: FramebufferRef::Surface(surface.handle),
                    image: ReadImage::Color(0),
                },
                layout: PixelLayout {
                    format: PixelFormat::Bgra,
                    ty: PixelType::U8,
                },
                region: Box::new(ReadRegion {
                    rect: Rect {
                        x: 0,
                        y: y0 as i32,
                        width: w as i32,
                        height: rows as i32,
                    },
                    dst: PixelDestination::Reply(reply),
                }),
            });
            InFlight {
                reply,
                width: w,
                height: h,
                band,
            }
        });
        sh.dev.push(Record::Present {
            surface: surface.handle,
        });
        if read.is_none() || !wait_soon {
            sh.flush();
        }
        read
    }
}

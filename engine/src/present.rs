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

use std::sync::{Arc, Mutex, PoisonError};

use tessera_wire::Reply;
use tessera_wire::format::{PixelFormat, PixelLayout, PixelType};
use tessera_wire::record::{
    FramebufferRef, PixelDestination, ReadImage, ReadRegion, ReadSource, Record,
};
use tessera_wire::state::Rect;

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
        }
    }
}

fn lock<T: ?Sized>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Context {
    /// Binds a window's surface as the default framebuffer (`None`: unbinds any window).
    pub fn bind_window(&mut self, link: Option<WindowLink>) {
        let surface = link.as_ref().map(|l| *lock(&l.surface));
        self.local.window = link.map(Box::new);
        self.bind_surface(surface);
        self.check_window_size();
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
    }

    /// `eglSwapBuffers` on a window: reads the frame, shows it, then follows the window's
    /// size. Returns the window system's error (the window is gone, the connection broke).
    pub fn swap_window(&mut self) -> Result<(), WindowError> {
        let Some(link) = self.local.window.as_ref() else {
            self.swap_buffers();
            return Ok(());
        };
        let native = link.native.clone();
        let (width, height) = *lock(&link.size);
        let Some(surface) = self.local.surface else {
            return Ok(());
        };
        let (w, h) = (
            width.min(surface.desc.width),
            height.min(surface.desc.height),
        );
        let frame = self.read_frame(surface, w, h);
        let result = match frame {
            Some(rows) if w > 0 && h > 0 => lock(&native).present(&Frame {
                width: w,
                height: h,
                rows: &rows,
            }),
            _ => Ok(()),
        };
        crate::profiling::end_frame();
        self.check_window_size();
        // The window may be resized before the next frame is drawn: its first glViewport
        // asks again.
        if let Some(link) = self.local.window.as_mut() {
            link.checked = false;
        }
        result
    }

    /// `eglSwapInterval` on the window bound as the default framebuffer.
    pub fn set_swap_interval(&mut self, interval: i32) -> Option<i32> {
        let link = self.local.window.as_ref()?;
        Some(lock(&link.native).set_swap_interval(interval))
    }

    /// Reads `w` x `h` pixels of `surface`'s colour image (BGRA8, bottom row first) and
    /// presents it: one reply.
    fn read_frame(&mut self, surface: Surface, w: u32, h: u32) -> Option<Vec<u8>> {
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
                        y: 0,
                        width: w as i32,
                        height: h as i32,
                    },
                    dst: PixelDestination::Reply(reply),
                }),
            });
            reply
        });
        sh.dev.push(Record::Present {
            surface: surface.handle,
        });
        let Some(reply) = read else {
            sh.flush();
            return None;
        };
        match sh.wait(reply) {
            Some(Reply::Bytes(bytes)) if bytes.len() >= (w * h * 4) as usize => Some(bytes),
            _ => None,
        }
    }
}

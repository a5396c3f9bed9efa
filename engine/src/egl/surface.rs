//! Pbuffer and window surfaces (`eglCreatePbufferSurface`, `eglCreateWindowSurface`,
//! `eglQuerySurface`, `eglSurfaceAttrib`).
//!
//! An EGL surface has no share group, but a wire surface lives in one: the wire surface
//! behind a pbuffer is created the first time the pbuffer is made current with a context of
//! a group, one per group (contexts of different groups that draw to one pbuffer each see
//! their own images, which EGL leaves to the implementation as long as each context sees
//! what it drew). The pbuffer keeps a weak reference to each group, so a surface never keeps
//! a group's backend session alive; destroying the pbuffer destroys its wire surfaces in the
//! groups still alive.
//!
//! Pbuffers are single-buffered: `eglSwapBuffers` on one is a frame boundary (a `Present`
//! record and a flush), not an exchange of images. A window surface is the same images
//! plus a native window from the display's window system: its swap shows the frame in the
//! window (see `crate::present`), and its size is the window's.

use std::sync::{Arc, Mutex, PoisonError, Weak};

use super::EglError;
use super::config::{Config, MAX_PBUFFER_SIZE};
use super::display::Registry;
use super::tokens::*;
use super::window::WindowError;
use crate::context::{Context, Surface};
use crate::present::{SharedWindow, WindowLink};
use crate::share::ShareGroup;

/// The native side of a window surface.
pub(crate) struct WindowState {
    /// The window.
    pub native: SharedWindow,
    /// Its `EGLNativeWindowType` value (a window has at most one surface).
    pub id: usize,
    /// Its size as last seen (shared with the contexts drawing to it).
    pub size: Arc<Mutex<(u32, u32)>>,
    /// Front-buffered (a single-buffered GLX window): its one colour buffer is `FRONT`,
    /// shown at each `glFlush`/`glFinish` (see `crate::present`).
    pub front: bool,
}

/// A pbuffer as the registry keeps it.
pub(crate) struct SurfaceEntry {
    /// The display it was created on.
    pub display: usize,
    /// Its config.
    pub config: &'static Config,
    /// `EGL_WIDTH`.
    pub width: i32,
    /// `EGL_HEIGHT`.
    pub height: i32,
    /// `EGL_LARGEST_PBUFFER` as requested.
    pub largest: bool,
    /// `EGL_MIPMAP_LEVEL` (settable, unused without texture binding).
    pub mipmap_level: i32,
    /// `EGL_SWAP_BEHAVIOR`.
    pub swap_behavior: i32,
    /// `EGL_VG_ALPHA_FORMAT` (accepted and reported, meaningless for OpenGL).
    pub vg_alpha_format: i32,
    /// `EGL_VG_COLORSPACE` (likewise).
    pub vg_colorspace: i32,
    /// The context it is bound to (as draw or read surface), if any.
    pub bound: Option<usize>,
    /// Destroyed (or its display terminated) while bound: gone once released.
    pub destroyed: bool,
    /// The window, for a window surface.
    pub window: Option<WindowState>,
    /// `EGL_GL_COLORSPACE_SRGB` was asked for. For desktop GL it changes only what
    /// `eglQuerySurface` answers: every surface's colour image is sRGB-encoded, writes
    /// converted while `GL_FRAMEBUFFER_SRGB` is enabled, whatever the colour space (Mesa's
    /// rule, `egl::config`).
    pub srgb: bool,
    /// Its wire surface in each share group it was made current in.
    wires: Vec<(Weak<ShareGroup>, Arc<Mutex<Surface>>)>,
}

impl SurfaceEntry {
    /// A pbuffer or window surface with the common defaults.
    fn new(display: usize, config: &'static Config, window: Option<WindowState>) -> Self {
        Self {
            display,
            config,
            width: 0,
            height: 0,
            largest: false,
            mipmap_level: 0,
            swap_behavior: BUFFER_DESTROYED,
            vg_alpha_format: VG_ALPHA_FORMAT_NONPRE,
            vg_colorspace: VG_COLORSPACE_SRGB,
            bound: None,
            destroyed: false,
            window,
            srgb: false,
            wires: Vec::new(),
        }
    }

    /// Binds the surface as `gl`'s default framebuffer (its wire surface in `gl`'s share
    /// group, created now if there is none yet).
    pub fn bind(&mut self, gl: &mut Context) {
        let wire = self.wire_for(gl);
        match &self.window {
            Some(w) => gl.bind_window(Some(
                WindowLink::new(w.native.clone(), wire, w.size.clone()).with_front(w.front),
            )),
            None => gl.bind_surface(Some(*wire.lock().unwrap_or_else(PoisonError::into_inner))),
        }
    }

    /// The wire surface in `gl`'s share group, created now if there is none yet.
    fn wire_for(&mut self, gl: &mut Context) -> Arc<Mutex<Surface>> {
        self.wires.retain(|(g, _)| g.strong_count() > 0);
        let group = Arc::downgrade(gl.share_group());
        if let Some((_, s)) = self.wires.iter().find(|(g, _)| g.ptr_eq(&group)) {
            return s.clone();
        }
        if let Some(w) = &self.window
            && let Ok(size) = w
                .native
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .size()
        {
            (self.width, self.height) = (size.0 as i32, size.1 as i32);
            *w.size.lock().unwrap_or_else(PoisonError::into_inner) = size;
        }
        // A 0 x 0 pbuffer is valid EGL; its wire images have one pixel so every backend
        // can create them, while GL sees the surface's real size through the viewport
        // (which stays 0 x 0) and EGL queries.
        let desc = self
            .config
            .surface_desc(self.width.max(1) as u32, self.height.max(1) as u32);
        let s = Arc::new(Mutex::new(gl.create_surface(desc)));
        self.wires.push((group, s.clone()));
        s
    }

    /// Destroys the wire surfaces (the pbuffer is going away).
    pub fn destroy_wire_surfaces(self) {
        for (group, s) in self.wires {
            if let Some(g) = group.upgrade() {
                g.destroy_surface(*s.lock().unwrap_or_else(PoisonError::into_inner));
            }
        }
    }

    /// `eglQuerySurface`.
    pub fn query(&self, attribute: i32) -> Result<i32, EglError> {
        if let Some(w) = &self.window {
            // A window's size is the window's now, resized or not.
            let size = match w
                .native
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .size()
            {
                Ok(s) => s,
                Err(WindowError::Gone) => return Err(EglError::BadNativeWindow),
                Err(WindowError::Failed(_)) => {
                    *w.size.lock().unwrap_or_else(PoisonError::into_inner)
                }
            };
            match attribute {
                WIDTH => return Ok(size.0 as i32),
                HEIGHT => return Ok(size.1 as i32),
                LARGEST_PBUFFER => return Ok(FALSE),
                RENDER_BUFFER if w.front => return Ok(SINGLE_BUFFER),
                BUFFER_AGE_EXT => return Ok(0),
                _ => {}
            }
        }
        Ok(match attribute {
            CONFIG_ID => self.config.id,
            WIDTH => self.width,
            HEIGHT => self.height,
            LARGEST_PBUFFER => i32::from(self.largest),
            TEXTURE_FORMAT | TEXTURE_TARGET => NO_TEXTURE,
            MIPMAP_TEXTURE => FALSE,
            MIPMAP_LEVEL => self.mipmap_level,
            RENDER_BUFFER => BACK_BUFFER,
            SWAP_BEHAVIOR => self.swap_behavior,
            MULTISAMPLE_RESOLVE => MULTISAMPLE_RESOLVE_DEFAULT,
            HORIZONTAL_RESOLUTION | VERTICAL_RESOLUTION | PIXEL_ASPECT_RATIO => UNKNOWN,
            GL_COLORSPACE if self.srgb => GL_COLORSPACE_SRGB,
            GL_COLORSPACE => GL_COLORSPACE_LINEAR,
            VG_ALPHA_FORMAT => self.vg_alpha_format,
            VG_COLORSPACE => self.vg_colorspace,
            _ => return Err(EglError::BadAttribute),
        })
    }

    /// `eglSurfaceAttrib`.
    pub fn set(&mut self, attribute: i32, value: i32) -> Result<(), EglError> {
        match attribute {
            MIPMAP_LEVEL => self.mipmap_level = value,
            SWAP_BEHAVIOR => match value {
                BUFFER_DESTROYED => self.swap_behavior = value,
                // Needs EGL_SWAP_BEHAVIOR_PRESERVED_BIT in the config's surface type.
                BUFFER_PRESERVED => return Err(EglError::BadMatch),
                _ => return Err(EglError::BadParameter),
            },
            MULTISAMPLE_RESOLVE => match value {
                MULTISAMPLE_RESOLVE_DEFAULT => {}
                // Needs EGL_MULTISAMPLE_RESOLVE_BOX_BIT in the config's surface type.
                MULTISAMPLE_RESOLVE_BOX => return Err(EglError::BadMatch),
                _ => return Err(EglError::BadParameter),
            },
            _ => return Err(EglError::BadAttribute),
        }
        Ok(())
    }
}

impl Registry {
    /// `eglCreatePbufferSurface`.
    pub fn create_pbuffer(
        &mut self,
        dpy: usize,
        config: usize,
        list: &[(i32, i32)],
    ) -> Result<usize, EglError> {
        let config = self.config(dpy, config)?;
        let mut entry = SurfaceEntry::new(dpy, config, None);
        let mut texture_format = NO_TEXTURE;
        let mut texture_target = NO_TEXTURE;
        let mut mipmap_texture = false;
        for &(attribute, value) in list {
            match attribute {
                WIDTH => entry.width = value,
                HEIGHT => entry.height = value,
                LARGEST_PBUFFER => entry.largest = value != FALSE,
                TEXTURE_FORMAT => match value {
                    NO_TEXTURE | TEXTURE_RGB | TEXTURE_RGBA => texture_format = value,
                    _ => return Err(EglError::BadAttribute),
                },
                TEXTURE_TARGET => match value {
                    NO_TEXTURE | TEXTURE_2D => texture_target = value,
                    _ => return Err(EglError::BadAttribute),
                },
                MIPMAP_TEXTURE => mipmap_texture = value != FALSE,
                GL_COLORSPACE => match value {
                    GL_COLORSPACE_LINEAR => {}
                    // The wire surface format is linear RGBA8 only.
                    GL_COLORSPACE_SRGB => return Err(EglError::BadMatch),
                    _ => return Err(EglError::BadAttribute),
                },
                VG_ALPHA_FORMAT => match value {
                    VG_ALPHA_FORMAT_NONPRE | VG_ALPHA_FORMAT_PRE => entry.vg_alpha_format = value,
                    _ => return Err(EglError::BadAttribute),
                },
                VG_COLORSPACE => match value {
                    VG_COLORSPACE_SRGB | VG_COLORSPACE_LINEAR => entry.vg_colorspace = value,
                    _ => return Err(EglError::BadAttribute),
                },
                _ => return Err(EglError::BadAttribute),
            }
        }
        // EGL 1.5 §3.5.2: a texture format needs a target and the other way round; and no
        // config binds to textures.
        if (texture_format == NO_TEXTURE) != (texture_target == NO_TEXTURE) {
            return Err(EglError::BadMatch);
        }
        if texture_format != NO_TEXTURE || mipmap_texture {
            return Err(EglError::BadMatch);
        }
        if entry.width < 0 || entry.height < 0 {
            return Err(EglError::BadParameter);
        }
        if entry.width > MAX_PBUFFER_SIZE || entry.height > MAX_PBUFFER_SIZE {
            if !entry.largest {
                return Err(EglError::BadAlloc);
            }
            entry.width = entry.width.min(MAX_PBUFFER_SIZE);
            entry.height = entry.height.min(MAX_PBUFFER_SIZE);
        }
        let handle = self.mint_surface();
        self.surfaces.insert(handle, entry);
        Ok(handle)
    }

    /// `eglDestroySurface`: destroyed now, or when its context is released.
    pub fn destroy_surface(&mut self, dpy: usize, surface: usize) -> Result<(), EglError> {
        self.surface(dpy, surface)?;
        self.destroy_surface_entry(surface);
        Ok(())
    }

    /// `eglQuerySurface`.
    pub fn query_surface(
        &self,
        dpy: usize,
        surface: usize,
        attribute: i32,
    ) -> Result<i32, EglError> {
        self.surface(dpy, surface)?.query(attribute)
    }

    /// `eglSurfaceAttrib`.
    pub fn surface_attrib(
        &mut self,
        dpy: usize,
        surface: usize,
        attribute: i32,
        value: i32,
    ) -> Result<(), EglError> {
        self.surface(dpy, surface)?;
        self.surfaces
            .get_mut(&surface)
            .ok_or(EglError::BadSurface)?
            .set(attribute, value)
    }

    /// `eglBindTexImage` / `eglReleaseTexImage`: no pbuffer has a texture format.
    pub fn bind_tex_image(&self, dpy: usize, surface: usize, buffer: i32) -> Result<(), EglError> {
        self.surface(dpy, surface)?;
        if buffer != BACK_BUFFER {
            return Err(EglError::BadParameter);
        }
        Err(EglError::BadMatch)
    }

    /// `eglCreateWindowSurface` and friends. `native` is the platform's
    /// `EGLNativeWindowType` (an X window ID, a `wl_egl_window*`). A display without windows
    /// (default, surfaceless) refuses every window with `EGL_BAD_NATIVE_WINDOW`, checked
    /// before the config, as `EGL_MESA_platform_surfaceless` says.
    pub fn create_window_surface(
        &mut self,
        dpy: usize,
        config: usize,
        native: usize,
        list: &[(i32, i32)],
    ) -> Result<usize, EglError> {
        let Some(windows) = self.initialized(dpy)?.windows.clone() else {
            return Err(EglError::BadNativeWindow);
        };
        let config = self.config(dpy, config)?;
        let mut srgb = false;
        for &(attribute, value) in list {
            match attribute {
                // A single-buffered window renders to the back buffer, as EGL 1.5 §3.5.1
                // allows (and Mesa does): what the program draws is shown at each swap.
                RENDER_BUFFER => match value {
                    BACK_BUFFER | SINGLE_BUFFER => {}
                    _ => return Err(EglError::BadAttribute),
                },
                GL_COLORSPACE => match value {
                    GL_COLORSPACE_LINEAR => srgb = false,
                    GL_COLORSPACE_SRGB => srgb = true,
                    _ => return Err(EglError::BadAttribute),
                },
                VG_ALPHA_FORMAT | VG_COLORSPACE => {}
                _ => return Err(EglError::BadAttribute),
            }
        }
        if native == 0 {
            return Err(EglError::BadNativeWindow);
        }
        // EGL 1.5 §3.5.1: a window already associated with a surface is EGL_BAD_ALLOC.
        if self
            .surfaces
            .values()
            .any(|s| !s.destroyed && s.window.as_ref().is_some_and(|w| w.id == native))
        {
            return Err(EglError::BadAlloc);
        }
        let mut window = windows.open_window(native).map_err(|e| match e {
            WindowError::Gone => EglError::BadNativeWindow,
            WindowError::Failed(why) => {
                log::error!("tessera: eglCreateWindowSurface: {why}");
                EglError::BadAlloc
            }
        })?;
        let size = window.size().map_err(|_| EglError::BadNativeWindow)?;
        let mut entry = SurfaceEntry::new(
            dpy,
            config,
            Some(WindowState {
                native: Arc::new(Mutex::new(window)),
                id: native,
                size: Arc::new(Mutex::new(size)),
                front: false,
            }),
        );
        (entry.width, entry.height) = (size.0 as i32, size.1 as i32);
        entry.srgb = srgb;
        let handle = self.mint_surface();
        self.surfaces.insert(handle, entry);
        Ok(handle)
    }

    /// Makes a window surface front-buffered, before a context first binds it: GLX's
    /// single-buffered windows, whose one colour buffer is what the window shows (`FRONT`,
    /// shown at each `glFlush`, `glFinish` or `glXWaitGL`). EGL's `EGL_SINGLE_BUFFER` is not
    /// this: such a window renders to the back buffer, as on Mesa. `EGL_BAD_MATCH` for a
    /// pbuffer.
    pub fn set_front_buffered(&mut self, dpy: usize, surface: usize) -> Result<(), EglError> {
        self.surface(dpy, surface)?;
        let window = self
            .surfaces
            .get_mut(&surface)
            .and_then(|s| s.window.as_mut())
            .ok_or(EglError::BadMatch)?;
        window.front = true;
        Ok(())
    }

    /// `eglCreatePixmapSurface` and friends, likewise.
    pub fn create_pixmap_surface(&self, dpy: usize) -> Result<usize, EglError> {
        self.initialized(dpy)?;
        Err(EglError::BadNativePixmap)
    }
}

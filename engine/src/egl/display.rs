//! Displays and the registry of EGL objects.
//!
//! Two displays exist from the start: the default display (`eglGetDisplay(EGL_DEFAULT_DISPLAY)`)
//! and the surfaceless platform's (`EGL_PLATFORM_SURFACELESS_MESA`). They differ only in
//! name: both render offscreen, offer the same configs and extensions. Their handles are the
//! addresses of static anchors, so they are stable for the life of the process and never
//! equal to a small integer an application might pass by mistake.
//!
//! Displays of window-system platforms (X11, XCB, Wayland) are made on demand, one per
//! (platform, native display), each with the [`WindowSystem`] its opener supplied: EGL
//! requires the same handle for the same native display, so a second request finds the
//! first. Their configs are the same table, with window support and the window system's
//! native visual.
//!
//! Contexts, surfaces and syncs belong to the display they were created on. Terminating a
//! display destroys every object that is not current to some thread; those that are stay
//! alive (their handles already invalid) until they are released, as EGL 1.5 §3.2 says.

use std::collections::HashMap;
use std::ffi::CStr;
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread::ThreadId;

use super::EglError;
use super::config::{CONFIGS, Config, Criteria};
use super::surface::SurfaceEntry;
use super::sync::EglFence;
use super::tokens::*;
use super::window::{Visual, WindowSystem};
use crate::context::Context;
use crate::share::ShareGroup;

/// The platforms a display can be obtained for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Platform {
    /// `eglGetDisplay(EGL_DEFAULT_DISPLAY)`.
    Default,
    /// `EGL_PLATFORM_SURFACELESS_MESA`.
    Surfaceless,
    /// `EGL_PLATFORM_X11_KHR`: the native display is an Xlib `Display*`.
    X11,
    /// `EGL_PLATFORM_XCB_EXT`: the native display is an `xcb_connection_t*`.
    Xcb,
    /// `EGL_PLATFORM_WAYLAND_KHR`: the native display is a `wl_display*`.
    Wayland,
}

/// One byte per static display whose address is the display's handle.
static DISPLAY_ANCHORS: [u8; 2] = [0, 1];

impl Platform {
    /// The handle of a static display (`Default`, `Surfaceless`).
    pub fn handle(self) -> usize {
        let i = match self {
            Self::Default => 0,
            _ => 1,
        };
        std::ptr::from_ref(&DISPLAY_ANCHORS[i]) as usize
    }

    /// The platform's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Self::Default => "default",
            Self::Surfaceless => "surfaceless",
            Self::X11 => "x11",
            Self::Xcb => "xcb",
            Self::Wayland => "wayland",
        }
    }
}

/// A display as the registry keeps it.
pub(crate) struct DisplayEntry {
    /// Its platform.
    pub platform: Platform,
    /// The native display it was obtained for (0: the default one).
    pub native: usize,
    /// Between `eglInitialize` and `eglTerminate`.
    pub initialized: bool,
    /// The window system (window-system platforms only).
    pub windows: Option<Arc<dyn WindowSystem>>,
}

impl DisplayEntry {
    /// The native visual of this display's configs (`None`: no windows here).
    pub fn visual(&self) -> Option<Visual> {
        self.windows.as_ref().map(|w| w.visual())
    }
}

/// The handle of a config (the address of its entry in [`CONFIGS`]).
pub fn config_handle(config: &'static Config) -> usize {
    std::ptr::from_ref(config) as usize
}

/// The config a handle names, if any.
pub fn config_from_handle(handle: usize) -> Option<&'static Config> {
    CONFIGS.iter().find(|c| config_handle(c) == handle)
}

/// `EGL_VENDOR`.
pub const VENDOR_STRING: &CStr = c"Tessera";
/// `EGL_VERSION`.
pub const VERSION_STRING: &CStr = {
    const S: &str = concat!("1.5 Tessera ", env!("CARGO_PKG_VERSION"), "\0");
    match CStr::from_bytes_with_nul(S.as_bytes()) {
        Ok(s) => s,
        Err(_) => panic!("the version string has no interior NUL"),
    }
};
/// `EGL_CLIENT_APIS`.
pub const CLIENT_APIS_STRING: &CStr = c"OpenGL";
/// `EGL_EXTENSIONS` of a display.
pub const DISPLAY_EXTENSIONS: &CStr = c"EGL_KHR_create_context EGL_KHR_create_context_no_error EGL_KHR_fence_sync EGL_KHR_get_all_proc_addresses EGL_KHR_no_config_context EGL_KHR_surfaceless_context EGL_KHR_wait_sync";
/// `EGL_EXTENSIONS` of a display whose contexts may share textures as images
/// ([`images_offered`]).
pub const DISPLAY_EXTENSIONS_IMAGES: &CStr = c"EGL_KHR_create_context EGL_KHR_create_context_no_error EGL_KHR_fence_sync EGL_KHR_get_all_proc_addresses EGL_KHR_gl_renderbuffer_image EGL_KHR_gl_texture_2D_image EGL_KHR_image_base EGL_KHR_no_config_context EGL_KHR_surfaceless_context EGL_KHR_wait_sync";
/// `EGL_EXTENSIONS` of a display with windows.
pub const WINDOW_DISPLAY_EXTENSIONS: &CStr = c"EGL_EXT_buffer_age EGL_KHR_create_context EGL_KHR_create_context_no_error EGL_KHR_fence_sync EGL_KHR_gl_colorspace EGL_KHR_get_all_proc_addresses EGL_KHR_no_config_context EGL_KHR_surfaceless_context EGL_KHR_swap_buffers_with_damage EGL_KHR_wait_sync EGL_EXT_swap_buffers_with_damage";
/// `EGL_EXTENSIONS` of a display with windows whose contexts may share textures as images.
pub const WINDOW_DISPLAY_EXTENSIONS_IMAGES: &CStr = c"EGL_EXT_buffer_age EGL_KHR_create_context EGL_KHR_create_context_no_error EGL_KHR_fence_sync EGL_KHR_gl_colorspace EGL_KHR_get_all_proc_addresses EGL_KHR_gl_renderbuffer_image EGL_KHR_gl_texture_2D_image EGL_KHR_image_base EGL_KHR_no_config_context EGL_KHR_surfaceless_context EGL_KHR_swap_buffers_with_damage EGL_KHR_wait_sync EGL_EXT_swap_buffers_with_damage";

/// Whether a display offers the image extensions: the contexts it makes (the environment's
/// [`Config`](crate::Config)) may get the GLES backend in process (`TESSERA_BACKEND` `gles`
/// or `auto` on a machine without a hardware Vulkan device, which `auto` would take; an
/// in-process transport; no capture). Whether one context can is its `GL_OES_EGL_image`;
/// `eglCreateImage` on one that cannot is `EGL_BAD_ACCESS`.
pub fn images_offered() -> bool {
    let config = crate::config::Config::from_env();
    let gles = match config.backend {
        crate::config::BackendKind::Gles => true,
        crate::config::BackendKind::Auto => crate::auto::may_be_gles(),
        _ => false,
    };
    gles && !config.transport.is_remote() && config.capture_file.is_none()
}
/// `base` (a list with the image extensions) with the dma-buf extensions the display offers
/// ([`dma_buf_offered`](super::image::dma_buf_offered)) added, and without
/// `EGL_KHR_gl_renderbuffer_image` where the native display lacks it, made once per process
/// in `cache`.
fn with_dma_buf(base: &'static CStr, cache: &'static OnceLock<&'static CStr>) -> &'static CStr {
    cache.get_or_init(|| {
        let offered = super::image::dma_buf_offered();
        let mut list = base.to_string_lossy().into_owned();
        if !offered.renderbuffer_images {
            list = list.replace(" EGL_KHR_gl_renderbuffer_image", "");
        }
        if offered.export {
            list.push_str(" EGL_MESA_image_dma_buf_export");
        }
        if offered.import {
            list.push_str(" EGL_EXT_image_dma_buf_import");
        }
        if offered.formats.is_some() {
            list.push_str(" EGL_EXT_image_dma_buf_import_modifiers");
        }
        if !offered.export && !offered.import && offered.renderbuffer_images {
            return base;
        }
        match std::ffi::CString::new(list) {
            Ok(list) => Box::leak(list.into_boxed_c_str()),
            Err(_) => base,
        }
    })
}
/// `EGL_EXTENSIONS` of `EGL_NO_DISPLAY` (client extensions).
pub const CLIENT_EXTENSIONS: &CStr = c"EGL_EXT_client_extensions EGL_EXT_platform_base EGL_EXT_platform_wayland EGL_EXT_platform_x11 EGL_EXT_platform_xcb EGL_KHR_client_get_all_proc_addresses EGL_KHR_platform_wayland EGL_KHR_platform_x11 EGL_MESA_platform_surfaceless";

/// Kind tags in the low bits of minted handles.
const TAG_CONTEXT: usize = 1;
const TAG_SURFACE: usize = 2;
const TAG_SYNC: usize = 3;
const TAG_DISPLAY: usize = 4;
pub(crate) const TAG_IMAGE: usize = 5;

/// A context as the registry keeps it.
pub(crate) struct ContextEntry {
    /// The display it was created on.
    pub display: usize,
    /// Its config (`None`: `EGL_NO_CONFIG_KHR`).
    pub config: Option<&'static Config>,
    /// Its share group (contexts created sharing with it join it).
    pub group: Arc<ShareGroup>,
    /// The GL context while no thread has it current.
    pub gl: Option<Box<Context>>,
    /// The thread it is current to.
    pub thread: Option<ThreadId>,
    /// Its draw and read surfaces while current (0: none).
    pub draw: usize,
    /// See `draw`.
    pub read: usize,
    /// Destroyed (or its display terminated) while current: gone once released.
    pub destroyed: bool,
    /// The OpenGL major version it reports (`EGL_CONTEXT_CLIENT_VERSION`).
    pub major_version: u8,
    /// Whether it is a `GL_KHR_no_error` context (`EGL_CONTEXT_OPENGL_NO_ERROR_KHR`): a
    /// context sharing with it must be one too.
    pub no_error: bool,
}

/// A fence sync (`eglCreateSync(EGL_SYNC_FENCE)`).
#[derive(Clone, Debug)]
pub(crate) struct SyncEntry {
    /// The display it was created on.
    pub display: usize,
    /// Its fence (shared with the threads waiting on it).
    pub fence: Arc<EglFence>,
}

/// Every EGL object of the process.
pub struct Registry {
    /// Every display, by handle.
    pub(crate) displays: HashMap<usize, DisplayEntry>,
    pub(crate) contexts: HashMap<usize, ContextEntry>,
    pub(crate) surfaces: HashMap<usize, SurfaceEntry>,
    pub(crate) syncs: HashMap<usize, SyncEntry>,
    pub(crate) images: HashMap<usize, super::image::ImageEntry>,
    next: usize,
}

static REGISTRY: LazyLock<Mutex<Registry>> = LazyLock::new(|| {
    let fixed = |platform: Platform| {
        (
            platform.handle(),
            DisplayEntry {
                platform,
                native: 0,
                initialized: false,
                windows: None,
            },
        )
    };
    Mutex::new(Registry {
        displays: HashMap::from([fixed(Platform::Default), fixed(Platform::Surfaceless)]),
        contexts: HashMap::new(),
        surfaces: HashMap::new(),
        syncs: HashMap::new(),
        images: HashMap::new(),
        next: 1,
    })
});

/// Takes the registry's lock. A panic while holding it leaves every object in a consistent
/// state (each call decides its errors before changing anything), so poisoning is ignored.
pub fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Registry {
    pub(crate) fn mint(&mut self, tag: usize) -> usize {
        let handle = self.next << 4 | tag;
        self.next += 1;
        handle
    }

    pub(crate) fn mint_context(&mut self) -> usize {
        self.mint(TAG_CONTEXT)
    }

    pub(crate) fn mint_surface(&mut self) -> usize {
        self.mint(TAG_SURFACE)
    }

    /// A display handle that is valid, or `BAD_DISPLAY`.
    pub(crate) fn display(&self, dpy: usize) -> Result<&DisplayEntry, EglError> {
        self.displays.get(&dpy).ok_or(EglError::BadDisplay)
    }

    /// A display that is valid and initialized.
    pub(crate) fn initialized(&self, dpy: usize) -> Result<&DisplayEntry, EglError> {
        let d = self.display(dpy)?;
        if !d.initialized {
            return Err(EglError::NotInitialized);
        }
        Ok(d)
    }

    /// The display of a window-system platform for `native` (0: the default native
    /// display), made with `open`'s window system the first time it is asked for.
    pub fn native_display(
        &mut self,
        platform: Platform,
        native: usize,
        open: impl FnOnce() -> Result<Arc<dyn WindowSystem>, EglError>,
    ) -> Result<usize, EglError> {
        let found = self
            .displays
            .iter()
            .find(|(_, d)| d.platform == platform && d.native == native && native != 0);
        if let Some((&h, _)) = found {
            return Ok(h);
        }
        let windows = open()?;
        let handle = self.mint(TAG_DISPLAY);
        self.displays.insert(
            handle,
            DisplayEntry {
                platform,
                native,
                initialized: false,
                windows: Some(windows),
            },
        );
        Ok(handle)
    }

    /// The config of a live context of an initialized display (`None`:
    /// `EGL_NO_CONFIG_KHR`).
    pub fn context_config(
        &self,
        dpy: usize,
        ctx: usize,
    ) -> Result<Option<&'static Config>, EglError> {
        self.context(dpy, ctx).map(|c| c.config)
    }

    /// Whether a live context of an initialized display is a `GL_KHR_no_error` context.
    pub fn context_no_error(&self, dpy: usize, ctx: usize) -> Result<bool, EglError> {
        self.context(dpy, ctx).map(|c| c.no_error)
    }

    /// The native visual of a display's configs (`None`: no windows there, or no display).
    pub fn visual(&self, dpy: usize) -> Option<Visual> {
        self.displays.get(&dpy).and_then(DisplayEntry::visual)
    }

    /// The platform of a display.
    pub fn platform(&self, dpy: usize) -> Result<Platform, EglError> {
        self.display(dpy).map(|d| d.platform)
    }

    /// A config of an initialized display, or `BAD_CONFIG`.
    pub(crate) fn config(&self, dpy: usize, config: usize) -> Result<&'static Config, EglError> {
        self.initialized(dpy)?;
        config_from_handle(config).ok_or(EglError::BadConfig)
    }

    /// A live (not destroyed) context of an initialized display, or `BAD_CONTEXT`.
    pub(crate) fn context(&self, dpy: usize, ctx: usize) -> Result<&ContextEntry, EglError> {
        self.initialized(dpy)?;
        self.contexts
            .get(&ctx)
            .filter(|c| c.display == dpy && !c.destroyed)
            .ok_or(EglError::BadContext)
    }

    /// A live surface of an initialized display, or `BAD_SURFACE`.
    pub(crate) fn surface(&self, dpy: usize, surface: usize) -> Result<&SurfaceEntry, EglError> {
        self.initialized(dpy)?;
        self.surfaces
            .get(&surface)
            .filter(|s| s.display == dpy && !s.destroyed)
            .ok_or(EglError::BadSurface)
    }

    /// `eglGetDisplay` / `eglGetPlatformDisplay`: the display's handle (displays exist from
    /// the start; getting one initializes nothing).
    pub fn get_display(&self, platform: Platform) -> usize {
        platform.handle()
    }

    /// `eglGetPlatformDisplay`: the surfaceless platform, whose native display must be
    /// `EGL_DEFAULT_DISPLAY` and which takes no attributes
    /// (`EGL_MESA_platform_surfaceless`). Other platforms (X11, Wayland, GBM, devices)
    /// are not supported: `BAD_PARAMETER`, as for an unknown platform.
    pub fn get_platform_display(
        &self,
        platform: i32,
        native_is_default: bool,
        list: &[(i32, i32)],
    ) -> Result<usize, EglError> {
        if platform != PLATFORM_SURFACELESS_MESA || !native_is_default {
            return Err(EglError::BadParameter);
        }
        if !list.is_empty() {
            return Err(EglError::BadAttribute);
        }
        Ok(Platform::Surfaceless.handle())
    }

    /// `eglInitialize`: returns the EGL version (1, 5).
    pub fn initialize(&mut self, dpy: usize) -> Result<(i32, i32), EglError> {
        self.displays
            .get_mut(&dpy)
            .ok_or(EglError::BadDisplay)?
            .initialized = true;
        Ok((1, 5))
    }

    /// `eglTerminate`: the display's objects are destroyed, except those current to a
    /// thread, which are marked and destroyed when released.
    pub fn terminate(&mut self, dpy: usize) -> Result<(), EglError> {
        let d = self.displays.get_mut(&dpy).ok_or(EglError::BadDisplay)?;
        if !d.initialized {
            return Ok(());
        }
        d.initialized = false;
        let contexts: Vec<usize> = self
            .contexts
            .iter()
            .filter(|(_, c)| c.display == dpy)
            .map(|(h, _)| *h)
            .collect();
        for h in contexts {
            self.destroy_context_entry(h);
        }
        let surfaces: Vec<usize> = self
            .surfaces
            .iter()
            .filter(|(_, s)| s.display == dpy)
            .map(|(h, _)| *h)
            .collect();
        for h in surfaces {
            self.destroy_surface_entry(h);
        }
        self.syncs.retain(|_, s| s.display != dpy);
        self.images.retain(|_, i| i.display != dpy);
        Ok(())
    }

    /// Destroys a context now, or marks it to be destroyed when its thread releases it.
    pub(crate) fn destroy_context_entry(&mut self, ctx: usize) {
        let Some(c) = self.contexts.get_mut(&ctx) else {
            return;
        };
        if c.thread.is_some() {
            c.destroyed = true;
        } else if let Some(entry) = self.contexts.remove(&ctx) {
            // Dropping the GL context destroys its objects and, with the last context of
            // the group, the group's session with the backend.
            drop(entry);
        }
    }

    /// Destroys a surface now, or marks it to be destroyed when its context releases it.
    pub(crate) fn destroy_surface_entry(&mut self, surface: usize) {
        let Some(s) = self.surfaces.get_mut(&surface) else {
            return;
        };
        if s.bound.is_some() {
            s.destroyed = true;
        } else if let Some(entry) = self.surfaces.remove(&surface) {
            entry.destroy_wire_surfaces();
        }
    }

    /// `eglQueryString`. `dpy` is `None` for `EGL_NO_DISPLAY`, which answers the client
    /// extensions and the version only.
    pub fn query_string(&self, dpy: Option<usize>, name: i32) -> Result<&'static CStr, EglError> {
        let Some(dpy) = dpy else {
            return match name {
                EXTENSIONS => Ok(CLIENT_EXTENSIONS),
                VERSION => Ok(VERSION_STRING),
                _ => Err(EglError::BadDisplay),
            };
        };
        let d = self.initialized(dpy)?;
        match name {
            VENDOR => Ok(VENDOR_STRING),
            VERSION => Ok(VERSION_STRING),
            EXTENSIONS if d.windows.is_some() && images_offered() => {
                static WITH: OnceLock<&'static CStr> = OnceLock::new();
                Ok(with_dma_buf(WINDOW_DISPLAY_EXTENSIONS_IMAGES, &WITH))
            }
            EXTENSIONS if d.windows.is_some() => Ok(WINDOW_DISPLAY_EXTENSIONS),
            EXTENSIONS if images_offered() => {
                static WITH: OnceLock<&'static CStr> = OnceLock::new();
                Ok(with_dma_buf(DISPLAY_EXTENSIONS_IMAGES, &WITH))
            }
            EXTENSIONS => Ok(DISPLAY_EXTENSIONS),
            CLIENT_APIS => Ok(CLIENT_APIS_STRING),
            _ => Err(EglError::BadParameter),
        }
    }

    /// `eglGetConfigs`: every config of an initialized display.
    pub fn configs(&self, dpy: usize) -> Result<&'static [Config], EglError> {
        self.initialized(dpy)?;
        Ok(&CONFIGS)
    }

    /// `eglChooseConfig`.
    pub fn choose_config(
        &self,
        dpy: usize,
        list: &[(i32, i32)],
    ) -> Result<Vec<&'static Config>, EglError> {
        let d = self.initialized(dpy)?;
        let criteria = Criteria::parse(list)?;
        Ok(criteria.choose(d.visual()))
    }

    /// `eglGetConfigAttrib`.
    pub fn config_attrib(
        &self,
        dpy: usize,
        config: usize,
        attribute: i32,
    ) -> Result<i32, EglError> {
        let c = self.config(dpy, config)?;
        c.attrib_on(attribute, self.display(dpy)?.visual())
    }

    /// Keeps a new fence sync of `dpy` and returns its handle.
    pub(crate) fn add_sync(&mut self, dpy: usize, fence: EglFence) -> usize {
        let handle = self.mint(TAG_SYNC);
        self.syncs.insert(
            handle,
            SyncEntry {
                display: dpy,
                fence: Arc::new(fence),
            },
        );
        handle
    }

    /// The fence of a live sync of an initialized display, or `BAD_PARAMETER` (EGL names
    /// no `BAD_SYNC`). Waits and looks at it happen without the registry's lock.
    pub fn sync(&self, dpy: usize, sync: usize) -> Result<Arc<EglFence>, EglError> {
        self.initialized(dpy)?;
        self.syncs
            .get(&sync)
            .filter(|s| s.display == dpy)
            .map(|s| s.fence.clone())
            .ok_or(EglError::BadParameter)
    }

    /// `eglDestroySync`: a thread still waiting on the sync keeps its fence until the
    /// wait ends.
    pub fn destroy_sync(&mut self, dpy: usize, sync: usize) -> Result<(), EglError> {
        self.sync(dpy, sync)?;
        self.syncs.remove(&sync);
        Ok(())
    }

    /// Whether `dpy` is initialized (for entry points that only check the display).
    pub fn check_initialized(&self, dpy: usize) -> Result<(), EglError> {
        self.initialized(dpy).map(|_| ())
    }

    /// Checks a config handle of an initialized display (`BAD_CONFIG` if it is not one).
    pub fn check_config(&self, dpy: usize, config: usize) -> Result<&'static Config, EglError> {
        self.config(dpy, config)
    }

    /// Checks a surface handle of an initialized display.
    pub fn check_surface(&self, dpy: usize, surface: usize) -> Result<(), EglError> {
        self.surface(dpy, surface).map(|_| ())
    }
}

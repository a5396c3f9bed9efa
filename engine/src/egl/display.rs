//! Displays and the registry of EGL objects.
//!
//! Two displays exist: the default display (`eglGetDisplay(EGL_DEFAULT_DISPLAY)`) and the
//! surfaceless platform's (`EGL_PLATFORM_SURFACELESS_MESA`). They differ only in name: both
//! render offscreen, offer the same configs and extensions. A display handle is the address
//! of a static anchor, so it is stable for the life of the process (EGL requires
//! `eglGetDisplay` to return the same handle for the same native display) and never equal
//! to a small integer an application might pass by mistake.
//!
//! Contexts, surfaces and syncs belong to the display they were created on. Terminating a
//! display destroys every object that is not current to some thread; those that are stay
//! alive (their handles already invalid) until they are released, as EGL 1.5 §3.2 says.

use std::collections::HashMap;
use std::ffi::CStr;
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};
use std::thread::ThreadId;

use super::EglError;
use super::config::{CONFIGS, Config, Criteria};
use super::surface::SurfaceEntry;
use super::tokens::*;
use crate::context::Context;
use crate::share::ShareGroup;

/// The platforms a display can be obtained for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Platform {
    /// `eglGetDisplay(EGL_DEFAULT_DISPLAY)`.
    Default,
    /// `EGL_PLATFORM_SURFACELESS_MESA`.
    Surfaceless,
}

/// One byte per display whose address is the display's handle.
static DISPLAY_ANCHORS: [u8; 2] = [0, 1];

impl Platform {
    /// The display's handle.
    pub fn handle(self) -> usize {
        std::ptr::from_ref(&DISPLAY_ANCHORS[self as usize]) as usize
    }

    /// The platform of a display handle, `None` if it is not one.
    pub fn from_handle(handle: usize) -> Option<Self> {
        [Self::Default, Self::Surfaceless]
            .into_iter()
            .find(|p| p.handle() == handle)
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
pub const DISPLAY_EXTENSIONS: &CStr = c"EGL_KHR_create_context EGL_KHR_get_all_proc_addresses EGL_KHR_no_config_context EGL_KHR_surfaceless_context";
/// `EGL_EXTENSIONS` of `EGL_NO_DISPLAY` (client extensions).
pub const CLIENT_EXTENSIONS: &CStr = c"EGL_EXT_client_extensions EGL_EXT_platform_base EGL_KHR_client_get_all_proc_addresses EGL_MESA_platform_surfaceless";

/// Kind tags in the low bits of minted handles.
const TAG_CONTEXT: usize = 1;
const TAG_SURFACE: usize = 2;
const TAG_SYNC: usize = 3;

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
}

/// A fence sync (`eglCreateSync(EGL_SYNC_FENCE)`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SyncEntry {
    /// The display it was created on.
    pub display: usize,
}

/// Every EGL object of the process.
pub struct Registry {
    /// Whether each display is initialized.
    initialized: [bool; 2],
    pub(crate) contexts: HashMap<usize, ContextEntry>,
    pub(crate) surfaces: HashMap<usize, SurfaceEntry>,
    pub(crate) syncs: HashMap<usize, SyncEntry>,
    next: usize,
}

static REGISTRY: LazyLock<Mutex<Registry>> = LazyLock::new(|| {
    Mutex::new(Registry {
        initialized: [false; 2],
        contexts: HashMap::new(),
        surfaces: HashMap::new(),
        syncs: HashMap::new(),
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
    pub(crate) fn display(&self, dpy: usize) -> Result<Platform, EglError> {
        Platform::from_handle(dpy).ok_or(EglError::BadDisplay)
    }

    /// A display that is valid and initialized.
    pub(crate) fn initialized(&self, dpy: usize) -> Result<Platform, EglError> {
        let p = self.display(dpy)?;
        if !self.initialized[p as usize] {
            return Err(EglError::NotInitialized);
        }
        Ok(p)
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
        let p = self.display(dpy)?;
        self.initialized[p as usize] = true;
        Ok((1, 5))
    }

    /// `eglTerminate`: the display's objects are destroyed, except those current to a
    /// thread, which are marked and destroyed when released.
    pub fn terminate(&mut self, dpy: usize) -> Result<(), EglError> {
        let p = self.display(dpy)?;
        if !self.initialized[p as usize] {
            return Ok(());
        }
        self.initialized[p as usize] = false;
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
        self.initialized(dpy)?;
        match name {
            VENDOR => Ok(VENDOR_STRING),
            VERSION => Ok(VERSION_STRING),
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
        self.initialized(dpy)?;
        Ok(Criteria::parse(list)?.choose())
    }

    /// `eglGetConfigAttrib`.
    pub fn config_attrib(
        &self,
        dpy: usize,
        config: usize,
        attribute: i32,
    ) -> Result<i32, EglError> {
        self.config(dpy, config)?.attrib(attribute)
    }

    /// `eglCreateSync`: a fence. Tessera's fences are signaled at creation: the caller
    /// finishes the current context first (see `Thread::create_sync`).
    pub(crate) fn add_sync(&mut self, dpy: usize) -> usize {
        let handle = self.mint(TAG_SYNC);
        self.syncs.insert(handle, SyncEntry { display: dpy });
        handle
    }

    /// A live sync of an initialized display, or `BAD_PARAMETER` (EGL names no
    /// `BAD_SYNC`).
    pub fn sync(&self, dpy: usize, sync: usize) -> Result<(), EglError> {
        self.initialized(dpy)?;
        self.syncs
            .get(&sync)
            .filter(|s| s.display == dpy)
            .map(|_| ())
            .ok_or(EglError::BadParameter)
    }

    /// `eglDestroySync`.
    pub fn destroy_sync(&mut self, dpy: usize, sync: usize) -> Result<(), EglError> {
        self.sync(dpy, sync)?;
        self.syncs.remove(&sync);
        Ok(())
    }

    /// `eglGetSyncAttrib`: a fence is signaled from its creation on.
    pub fn sync_attrib(&self, dpy: usize, sync: usize, attribute: i32) -> Result<i32, EglError> {
        self.sync(dpy, sync)?;
        match attribute {
            SYNC_TYPE => Ok(SYNC_FENCE),
            SYNC_STATUS => Ok(SIGNALED),
            SYNC_CONDITION => Ok(SYNC_PRIOR_COMMANDS_COMPLETE),
            _ => Err(EglError::BadAttribute),
        }
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

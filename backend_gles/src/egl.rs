//! The native EGL: the driver's EGL functions, a surfaceless OpenGL ES context, and the
//! loader that resolves GL entry points for glow.
//!
//! Tessera ships a drop-in `libEGL.so.1` and a libglvnd vendor library. A process that
//! loaded either must never get Tessera back as "the native EGL", or every native call would
//! re-enter Tessera. So the native EGL is found, in order:
//! 1. `TESSERA_NATIVE_EGL`, a full path: a libglvnd vendor library (it exports `__egl_Main`
//!    and no `eglGetProcAddress`), or an EGL library.
//! 2. **The driver's libglvnd vendor library** (`libEGL_mesa.so.0`), from the vendor JSON
//!    files libglvnd reads, talked to through its `__egl_Main` as libglvnd talks to it
//!    (`glvnd.rs`): on a libglvnd system `libEGL.so.1` is only a dispatcher, which routes to
//!    Tessera when Tessera is its vendor. Vendors are tried in libglvnd's order until one
//!    gives a context.
//! 3. Where no vendor JSON file exists (a system without libglvnd), the system
//!    `libEGL.so.1`, opened by **full path** from the standard multiarch directories (the
//!    dynamic linker never searches `LD_LIBRARY_PATH`, where Tessera's drop-in may be, for
//!    an absolute path).
//!
//! Every library is opened with `RTLD_LOCAL` (its symbols never join the global namespace).
//! GL functions come from the EGL's `eglGetProcAddress` (the vendor's `getProcAddress`; EGL
//! 1.5 / `EGL_KHR_get_all_proc_addresses` resolve core functions too); an EGL library falls
//! back to the system `libGLESv2.so.2`, again by full path, for drivers that only resolve
//! extension functions. A vendor has no such fallback: `libGLESv2.so.2` is libglvnd's too,
//! and dispatches to whatever context libglvnd made current, never the backend's.
//!
//! The display is `EGL_PLATFORM_SURFACELESS_MESA` when the client extensions (with a
//! vendor's platform extensions) offer it, else the default display. The context is OpenGL
//! ES 3.2, else 3.1, else 3.0, without a config (`EGL_KHR_no_config_context`) or with any
//! ES3 config, and is made current without a surface (`EGL_KHR_surfaceless_context`): every
//! image the backend draws to is an FBO.
//!
//! The display is never terminated: EGL displays are process-wide, and another backend (or
//! the application) may be using the same one.
//!
//! **Several backends in one process.** Every backend of a process gets the same surfaceless
//! display (EGL hands out one display per platform and native display), so all their
//! contexts share one driver screen. llvmpipe (Mesa 22.3 at least) shares its rasterizer
//! threads and their scene queue between the contexts of a screen, and that is not safe to
//! drive from several threads: a `tessera-server` serving 8 or 16 sessions on threads of
//! one process died in the driver (SIGSEGV under `glDrawElements`) within a round or
//! three, also when no context was ever destroyed, and never with `LP_NUM_THREADS=0` (no
//! rasterizer threads) or with the backends' calls serialised (`scripts/soak-server`). So
//! on llvmpipe ([`serialised_driver`]) a backend calls the driver only while it holds the
//! process's native-call lock ([`Serial`]): for each batch it applies, when it releases
//! its context from a thread, and when it destroys its context. Creating a backend holds
//! the lock whatever the driver (the driver is known only once a context exists). Other
//! drivers apply concurrently: what EGL and GL promise for contexts on different threads.
//! Sessions served by separate processes never share a driver.
//!
//! **On the program's window system.** A backend in the program's own process that is to
//! present windows (`present.rs`) is given the program's XCB connection or `wl_display`
//! ([`NativeDisplay`]) and makes its display on it instead (`EGL_PLATFORM_XCB_EXT` with the
//! screen, or `EGL_PLATFORM_WAYLAND_KHR`), where the EGL offers that platform; everything else (the config-less,
//! surfaceless ES context, every image an FBO) is the same, and the surfaceless display
//! stays the fallback. Such a display names the program's connection, which may close once
//! its contexts are gone, and Mesa hands out the same display again for a new connection at
//! the same address: so the last backend on it terminates it (a count per display), unlike
//! the surfaceless one.
//!
//! **On a host's display** (`host.rs`): a backend made for a host takes the host's
//! initialised display instead and creates its context sharing objects with the host's
//! context; the display is the host's, never terminated here.

use std::cell::Cell;
use std::collections::HashSet;
use std::ffi::{CStr, CString, c_char, c_void};
use std::path::{Path, PathBuf};

use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
use tessera_wire::backend::NativeDisplay;

use crate::{CreateBackendError, HostEgl, glvnd};

type EglDisplay = *mut c_void;
type EglContext = *mut c_void;
type EglConfig = *mut c_void;
type EglSurface = *mut c_void;
type EglBoolean = u32;
type EglInt = i32;

const EGL_EXTENSIONS: EglInt = 0x3055;
const EGL_NONE: EglInt = 0x3038;
const EGL_OPENGL_ES_API: u32 = 0x30A0;
const EGL_CONTEXT_MAJOR_VERSION: EglInt = 0x3098;
const EGL_CONTEXT_MINOR_VERSION: EglInt = 0x30FB;
const EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT: EglInt = 0x30BF;
const EGL_PLATFORM_SURFACELESS_MESA: u32 = 0x31DD;
const EGL_RENDERABLE_TYPE: EglInt = 0x3040;
const EGL_OPENGL_ES3_BIT: EglInt = 0x40;
const EGL_PLATFORM_XCB_EXT: u32 = 0x31DC;
const EGL_PLATFORM_XCB_SCREEN_EXT: isize = 0x31DE;
const EGL_PLATFORM_WAYLAND_KHR: u32 = 0x31D8;

const GL_VERSION: u32 = 0x1F02;
const GL_RENDERER: u32 = 0x1F01;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;

/// Where the native EGL is looked for, in order, after `TESSERA_NATIVE_EGL`.
pub(crate) const EGL_CANDIDATES: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu/libEGL.so.1",
    "/usr/lib/aarch64-linux-gnu/libEGL.so.1",
    "/usr/lib/arm-linux-gnueabihf/libEGL.so.1",
    "/usr/lib/riscv64-linux-gnu/libEGL.so.1",
    "/usr/lib/i386-linux-gnu/libEGL.so.1",
    "/usr/lib64/libEGL.so.1",
    "/usr/lib/libEGL.so.1",
    "/lib/x86_64-linux-gnu/libEGL.so.1",
    "/lib/aarch64-linux-gnu/libEGL.so.1",
    "/lib64/libEGL.so.1",
    "/system/lib64/libEGL.so",
];

/// The system GLES library, for entry points `eglGetProcAddress` does not resolve.
const GLES_CANDIDATES: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu/libGLESv2.so.2",
    "/usr/lib/aarch64-linux-gnu/libGLESv2.so.2",
    "/usr/lib/arm-linux-gnueabihf/libGLESv2.so.2",
    "/usr/lib/riscv64-linux-gnu/libGLESv2.so.2",
    "/usr/lib/i386-linux-gnu/libGLESv2.so.2",
    "/usr/lib64/libGLESv2.so.2",
    "/usr/lib/libGLESv2.so.2",
    "/system/lib64/libGLESv2.so",
];

/// The EGL entry points the backend calls (all EGL 1.4 core), and how it makes displays.
struct EglFns {
    get_proc_address: unsafe extern "C" fn(*const c_char) -> *mut c_void,
    get_error: unsafe extern "C" fn() -> EglInt,
    query_string: unsafe extern "C" fn(EglDisplay, EglInt) -> *const c_char,
    initialize: unsafe extern "C" fn(EglDisplay, *mut EglInt, *mut EglInt) -> EglBoolean,
    bind_api: unsafe extern "C" fn(u32) -> EglBoolean,
    query_api: unsafe extern "C" fn() -> u32,
    choose_config: unsafe extern "C" fn(
        EglDisplay,
        *const EglInt,
        *mut EglConfig,
        EglInt,
        *mut EglInt,
    ) -> EglBoolean,
    create_context:
        unsafe extern "C" fn(EglDisplay, EglConfig, EglContext, *const EglInt) -> EglContext,
    destroy_context: unsafe extern "C" fn(EglDisplay, EglContext) -> EglBoolean,
    make_current:
        unsafe extern "C" fn(EglDisplay, EglSurface, EglSurface, EglContext) -> EglBoolean,
    get_current_context: unsafe extern "C" fn() -> EglContext,
    terminate: unsafe extern "C" fn(EglDisplay) -> EglBoolean,
    window: WindowFns,
    displays: Displays,
}

/// The EGL 1.4 functions of window surfaces (`present.rs`).
#[derive(Clone, Copy)]
pub(crate) struct WindowFns {
    pub get_error: unsafe extern "C" fn() -> EglInt,
    pub choose_config: unsafe extern "C" fn(
        EglDisplay,
        *const EglInt,
        *mut EglConfig,
        EglInt,
        *mut EglInt,
    ) -> EglBoolean,
    pub get_config_attrib:
        unsafe extern "C" fn(EglDisplay, EglConfig, EglInt, *mut EglInt) -> EglBoolean,
    pub create_window_surface:
        unsafe extern "C" fn(EglDisplay, EglConfig, usize, *const EglInt) -> EglSurface,
    pub destroy_surface: unsafe extern "C" fn(EglDisplay, EglSurface) -> EglBoolean,
    pub query_surface:
        unsafe extern "C" fn(EglDisplay, EglSurface, EglInt, *mut EglInt) -> EglBoolean,
    pub make_current:
        unsafe extern "C" fn(EglDisplay, EglSurface, EglSurface, EglContext) -> EglBoolean,
    pub swap_buffers: unsafe extern "C" fn(EglDisplay, EglSurface) -> EglBoolean,
    pub swap_interval: unsafe extern "C" fn(EglDisplay, EglInt) -> EglBoolean,
}

/// What presenting into windows needs of a backend's EGL: the window-surface functions, the
/// display (made on the program's window system) and the backend's context.
#[derive(Clone, Copy)]
pub(crate) struct WindowEgl {
    pub fns: WindowFns,
    pub display: EglDisplay,
    pub context: EglContext,
    /// The program's connection the display was made on.
    pub native: NativeDisplay,
    /// Whether the driver's calls take the process's native-call lock ([`Serial`]).
    pub serialised: bool,
}

/// The displays made on a program's connection, each with the number of backends using it.
struct WindowDisplays(Vec<(usize, usize)>);

static WINDOW_DISPLAYS: std::sync::Mutex<WindowDisplays> =
    std::sync::Mutex::new(WindowDisplays(Vec::new()));

fn window_displays() -> std::sync::MutexGuard<'static, WindowDisplays> {
    WINDOW_DISPLAYS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

type GetPlatformDisplay = unsafe extern "C" fn(u32, *mut c_void, *const isize) -> EglDisplay;

/// How displays are made, and where the client extensions beyond `eglQueryString`'s are.
enum Displays {
    /// An EGL library: `eglGetPlatformDisplay` (EGL 1.5) where it has one, `eglGetDisplay`.
    Library {
        get_display: unsafe extern "C" fn(*mut c_void) -> EglDisplay,
        get_platform_display: Option<GetPlatformDisplay>,
    },
    /// A libglvnd vendor: its `getPlatformDisplay` (`EGL_NONE` for the default display),
    /// and the platform extensions of its `getVendorString`, which its `eglQueryString`
    /// leaves to libglvnd.
    Vendor {
        get_platform_display: GetPlatformDisplay,
        platform_extensions: String,
    },
}

/// A native EGL to try.
enum Native {
    /// An EGL library, by full path.
    Library(PathBuf),
    /// A libglvnd vendor library, as its JSON file names it.
    Vendor(glvnd::VendorFile),
    /// `TESSERA_NATIVE_EGL`: a vendor library or an EGL library, by full path.
    Named(PathBuf),
}

impl Native {
    fn describe(&self) -> String {
        match self {
            Native::Library(p) | Native::Named(p) => p.display().to_string(),
            Native::Vendor(v) => format!("{} (from {})", v.library.display(), v.json.display()),
        }
    }
}

/// An entry point as the function type `T`.
///
/// # Safety
/// `p` is non-null and the address of a function with `T`'s signature.
unsafe fn cast<T: Copy>(p: *const c_void) -> T {
    assert_eq!(size_of::<T>(), size_of::<*const c_void>());
    // SAFETY: `T` is a function pointer type of the same size (the caller's contract).
    unsafe { std::mem::transmute_copy::<*const c_void, T>(&p) }
}

impl EglFns {
    /// The functions from `get` (non-null addresses of the EGL functions of those names).
    fn new(
        get_proc_address: unsafe extern "C" fn(*const c_char) -> *mut c_void,
        get: impl Fn(&'static str) -> Result<*const c_void, CreateBackendError>,
        displays: Displays,
    ) -> Result<Self, CreateBackendError> {
        // SAFETY: each address is the EGL 1.4 function of that name, which has the signature
        // EGL 1.5 gives it, spelled out by each field's type.
        unsafe {
            Ok(EglFns {
                get_proc_address,
                get_error: cast(get("eglGetError")?),
                query_string: cast(get("eglQueryString")?),
                initialize: cast(get("eglInitialize")?),
                bind_api: cast(get("eglBindAPI")?),
                query_api: cast(get("eglQueryAPI")?),
                choose_config: cast(get("eglChooseConfig")?),
                create_context: cast(get("eglCreateContext")?),
                destroy_context: cast(get("eglDestroyContext")?),
                make_current: cast(get("eglMakeCurrent")?),
                get_current_context: cast(get("eglGetCurrentContext")?),
                terminate: cast(get("eglTerminate")?),
                window: WindowFns {
                    get_error: cast(get("eglGetError")?),
                    choose_config: cast(get("eglChooseConfig")?),
                    get_config_attrib: cast(get("eglGetConfigAttrib")?),
                    create_window_surface: cast(get("eglCreateWindowSurface")?),
                    destroy_surface: cast(get("eglDestroySurface")?),
                    query_surface: cast(get("eglQuerySurface")?),
                    make_current: cast(get("eglMakeCurrent")?),
                    swap_buffers: cast(get("eglSwapBuffers")?),
                    swap_interval: cast(get("eglSwapInterval")?),
                },
                displays,
            })
        }
    }

    /// The functions of an EGL library.
    fn of_library(lib: &Library, path: &Path) -> Result<Self, CreateBackendError> {
        let displays = Displays::Library {
            get_display: sym(lib, path, "eglGetDisplay")?,
            get_platform_display: sym(lib, path, "eglGetPlatformDisplay").ok(),
        };
        let get = |name| sym::<*const c_void>(lib, path, name);
        Self::new(sym(lib, path, "eglGetProcAddress")?, get, displays)
    }

    /// The functions of a libglvnd vendor, from its `getProcAddress`.
    fn of_vendor(vendor: &glvnd::Vendor, path: &Path) -> Result<Self, CreateBackendError> {
        let get_proc_address = vendor.get_proc_address;
        let get = |name: &'static str| {
            let c = CString::new(name).unwrap_or_default();
            // SAFETY: a NUL-terminated name; the vendor returns null or its function.
            let p = unsafe { get_proc_address(c.as_ptr()) };
            if p.is_null() {
                Err(CreateBackendError::MissingSymbol {
                    library: path.display().to_string(),
                    symbol: name,
                })
            } else {
                Ok(p.cast_const())
            }
        };
        let displays = Displays::Vendor {
            get_platform_display: vendor.get_platform_display,
            platform_extensions: vendor.platform_extensions(),
        };
        Self::new(get_proc_address, get, displays)
    }
}

/// Strings the GL reports about itself, read before glow is set up (its loader needs the
/// version and extensions to pick extension-suffixed entry points).
pub(crate) struct GlIdentity {
    /// `GL_RENDERER`.
    pub renderer: String,
    /// Every `GL_EXTENSIONS` entry.
    pub extensions: HashSet<String>,
    /// The ES minor version (3.x).
    pub minor: u8,
}

/// A native EGL display and the one OpenGL ES context of a backend.
pub(crate) struct Egl {
    fns: EglFns,
    display: EglDisplay,
    context: EglContext,
    /// Whether the context was made without a config (`EGL_KHR_no_config_context`): it can
    /// be made current with a window surface of any config of the display.
    configless: bool,
    /// The program's connection the display was made on (`None`: surfaceless or default).
    on_window_system: Option<NativeDisplay>,
    /// The host's context the backend's shares objects with (`EGL_NO_CONTEXT`: none), on
    /// the host's display (`host.rs`).
    share: EglContext,
    /// Whether the driver's calls are serialised with every other backend's of the process
    /// ([`Serial`]; see the module's documentation).
    serialised: bool,
    /// The path the library was loaded from (for messages).
    pub path: PathBuf,
    gles: Option<Library>,
    // Declared last: dropped after every use of `fns` (Drop of `Egl` runs first).
    _lib: Library,
}

/// `RTLD_NODELETE` (glibc, musl and bionic agree on the value; libloading does not bind it).
///
/// GL libraries register per-thread state with destructors (`pthread_key_create`): unloading
/// one while threads that called it are alive makes those threads jump into unmapped code
/// when they exit. So a library the backend opened is never unloaded.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) const RTLD_NODELETE: i32 = 0x1000;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) const RTLD_NODELETE: i32 = 0;

/// Where to look for a library: the path the environment variable `env` names if it is set,
/// else `defaults`.
pub(crate) fn library_candidates(env: &str, defaults: &[&str]) -> Vec<PathBuf> {
    match std::env::var_os(env) {
        Some(p) => vec![PathBuf::from(p)],
        None => defaults.iter().map(PathBuf::from).collect(),
    }
}

/// Opens a library by full path, with its symbols kept to itself, never unloaded.
pub(crate) fn open_local(path: &Path) -> Result<Library, libloading::Error> {
    // SAFETY: loading a system library runs its initialisers; libEGL's, libGLESv2's and
    // SPIRV-Cross's are the ordinary ones every application using them runs. RTLD_LOCAL keeps
    // its symbols out of the global namespace, so it cannot interpose on (or be interposed
    // by) Tessera's exports; RTLD_NODELETE keeps its thread-exit destructors mapped.
    unsafe { Library::open(Some(path), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) }
}

/// The entry point `name` of a library opened from `path`.
pub(crate) fn sym<T: Copy>(
    lib: &Library,
    path: &Path,
    name: &'static str,
) -> Result<T, CreateBackendError> {
    let c = format!("{name}\0");
    // SAFETY: every `T` this is called with is the `extern "C"` signature its library's
    // specification gives the symbol `name` (EGL 1.5 here, spirv_cross_c.h in program.rs),
    // or a raw address (`*const c_void`) that is cast to that signature where it is used;
    // the pointer stays valid while `lib` is loaded, and its holder (`Egl`, `SpirvCross`)
    // keeps the library loaded for as long as it holds the pointer.
    unsafe { lib.get::<T>(c.as_bytes()) }
        .map(|s| *s)
        .map_err(|_| CreateBackendError::MissingSymbol {
            library: path.display().to_string(),
            symbol: name,
        })
}

impl Egl {
    /// Loads the native EGL, creates the display and the context, and makes it current on the
    /// calling thread. Each native EGL (see the module's documentation) is tried in turn
    /// until one gives a current context; the error is the last one's, or what could not be
    /// loaded.
    /// With `window_system`, the display is made on the program's connection where the EGL
    /// can (see the module's documentation).
    pub fn new(window_system: Option<NativeDisplay>) -> Result<Self, CreateBackendError> {
        Self::with_natives(Self::natives()?, window_system)
    }

    /// [`Egl::new`] on the host's display, the context sharing objects with the host's
    /// (`host.rs`).
    pub fn on_host(host: HostEgl) -> Result<Self, CreateBackendError> {
        Self::with_natives_for(Self::natives()?, None, Some(host))
    }

    /// [`Egl::new`] on the first of `natives` that gives a current context.
    fn with_natives(
        natives: Vec<Native>,
        window_system: Option<NativeDisplay>,
    ) -> Result<Self, CreateBackendError> {
        Self::with_natives_for(natives, window_system, None)
    }

    /// [`Egl::with_natives`], on the host's display when given one.
    fn with_natives_for(
        natives: Vec<Native>,
        window_system: Option<NativeDisplay>,
        host: Option<HostEgl>,
    ) -> Result<Self, CreateBackendError> {
        let mut tried = Vec::new();
        let mut failed = None;
        for native in natives {
            let (fns, lib, path, gles) = match Self::open(&native) {
                Ok(opened) => opened,
                Err(why) => {
                    tried.push(format!("{}: {why}", native.describe()));
                    continue;
                }
            };
            let mut egl = Egl {
                fns,
                display: std::ptr::null_mut(),
                context: std::ptr::null_mut(),
                configless: false,
                on_window_system: None,
                share: std::ptr::null_mut(),
                serialised: false,
                path,
                gles,
                _lib: lib,
            };
            let started = match host {
                Some(host) => egl.start_hosted(host),
                None => egl.start(window_system),
            };
            match started {
                Ok(()) => return Ok(egl),
                Err(e) => {
                    log::info!("tessera: gles: {}: {e}", native.describe());
                    failed = Some(e);
                }
            }
        }
        Err(failed.unwrap_or_else(|| CreateBackendError::LoadEgl {
            tried: tried.join("; "),
        }))
    }

    /// The native EGLs to try, in order.
    fn natives() -> Result<Vec<Native>, CreateBackendError> {
        if let Some(path) = std::env::var_os("TESSERA_NATIVE_EGL").map(PathBuf::from) {
            if !path.is_absolute() {
                // A bare name would be searched for, and could find Tessera's own drop-in.
                return Err(CreateBackendError::LoadEgl {
                    tried: format!("{} (not an absolute path)", path.display()),
                });
            }
            return Ok(vec![Native::Named(path)]);
        }
        let dirs = glvnd::vendor_dirs();
        let (found, vendors) = glvnd::vendor_files(&dirs);
        if found > 0 {
            // A libglvnd system: its libEGL.so.1 may lead back to Tessera.
            if vendors.is_empty() {
                return Err(CreateBackendError::LoadEgl {
                    tried: format!(
                        "the libglvnd vendor files in {} name no library",
                        std::env::join_paths(&dirs)
                            .unwrap_or_default()
                            .to_string_lossy()
                    ),
                });
            }
            return Ok(vendors.into_iter().map(Native::Vendor).collect());
        }
        let libraries: Vec<Native> = EGL_CANDIDATES
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.exists())
            .map(Native::Library)
            .collect();
        if libraries.is_empty() {
            return Err(CreateBackendError::LoadEgl {
                tried: format!(
                    "no libglvnd vendor file, and none of {} exists",
                    EGL_CANDIDATES.join(", ")
                ),
            });
        }
        Ok(libraries)
    }

    /// Loads a native EGL: its functions, the library, its path, and for an EGL library the
    /// system libGLESv2 as the fallback for GL functions.
    fn open(native: &Native) -> Result<(EglFns, Library, PathBuf, Option<Library>), String> {
        let (path, vendor) = match native {
            Native::Library(path) => (path, None),
            Native::Vendor(file) => (&file.library, Some(glvnd::Vendor::open(&file.library)?)),
            Native::Named(path) => {
                let lib = open_local(path).map_err(|e| e.to_string())?;
                // SAFETY: only turned into addresses, to see whether the symbols exist.
                let is_vendor = unsafe {
                    lib.get::<*const c_void>(b"__egl_Main\0").is_ok()
                        && lib.get::<*const c_void>(b"eglGetProcAddress\0").is_err()
                };
                if is_vendor {
                    (path, Some(glvnd::Vendor::handshake(lib)?))
                } else {
                    let fns = EglFns::of_library(&lib, path).map_err(|e| e.to_string())?;
                    return Ok((fns, lib, path.clone(), Self::system_gles()));
                }
            }
        };
        match vendor {
            Some(vendor) => {
                let fns = EglFns::of_vendor(&vendor, path).map_err(|e| e.to_string())?;
                Ok((fns, vendor.lib, path.clone(), None))
            }
            None => {
                let lib = open_local(path).map_err(|e| e.to_string())?;
                let fns = EglFns::of_library(&lib, path).map_err(|e| e.to_string())?;
                Ok((fns, lib, path.clone(), Self::system_gles()))
            }
        }
    }

    /// The system libGLESv2, by full path.
    fn system_gles() -> Option<Library> {
        GLES_CANDIDATES
            .iter()
            .map(Path::new)
            .filter(|p| p.exists())
            .find_map(|p| open_local(p).ok())
    }

    /// Creates the display and the context, and makes it current: on the program's window
    /// system first when given one, else (or when that fails) surfaceless.
    fn start(&mut self, window_system: Option<NativeDisplay>) -> Result<(), CreateBackendError> {
        if let Some(native) = window_system {
            match self.start_on(native) {
                Ok(()) => return Ok(()),
                Err(e) => log::info!(
                    "tessera-backend-gles: no EGL display on the program's {} connection \
                     ({e}): a surfaceless one (the client shows window frames)",
                    if native.as_wayland().is_some() {
                        "Wayland"
                    } else {
                        "X"
                    }
                ),
            }
        }
        self.display = self.open_display()?;
        self.context = self.create_context()?;
        self.make_current()
    }

    /// [`start`](Self::start) on the host's display, sharing with the host's context.
    fn start_hosted(&mut self, host: HostEgl) -> Result<(), CreateBackendError> {
        let (mut major, mut minor) = (0, 0);
        // SAFETY: EGL looks the display handle up among its own (EGL_BAD_DISPLAY for one of
        // another EGL); the out-pointers are valid locals. Initialising an initialised
        // display does nothing, and the host keeps it initialised (HostEgl's contract).
        if unsafe { (self.fns.initialize)(host.display, &mut major, &mut minor) } == 0 {
            return Err(CreateBackendError::HostDisplay {
                error: self.error(),
            });
        }
        self.display = host.display;
        self.share = host.context;
        self.context = self.create_context()?;
        self.make_current()
    }

    /// [`start`](Self::start) on the program's connection.
    fn start_on(&mut self, native: NativeDisplay) -> Result<(), CreateBackendError> {
        let display = self.open_window_display(native)?;
        self.display = display;
        self.on_window_system = Some(native);
        let key = display as usize;
        {
            let mut all = window_displays();
            match all.0.iter_mut().find(|(d, _)| *d == key) {
                Some((_, users)) => *users += 1,
                None => all.0.push((key, 1)),
            }
        }
        let started = match self.create_context() {
            Ok(context) => {
                self.context = context;
                self.make_current()
            }
            Err(e) => Err(e),
        };
        if started.is_err() {
            self.drop_context();
            self.context = std::ptr::null_mut();
            self.display = std::ptr::null_mut();
            self.on_window_system = None;
        }
        started
    }

    /// The display of the program's XCB connection or `wl_display`, initialised.
    fn open_window_display(&self, native: NativeDisplay) -> Result<EglDisplay, CreateBackendError> {
        let (platform, connection, extensions, attribs): (_, _, &[&str], _) =
            match (native.as_xcb(), native.as_wayland()) {
                (Some((connection, screen)), _) => (
                    EGL_PLATFORM_XCB_EXT,
                    connection,
                    &["EGL_EXT_platform_xcb"],
                    [
                        EGL_PLATFORM_XCB_SCREEN_EXT,
                        screen as isize,
                        EGL_NONE as isize,
                    ],
                ),
                (None, Some(display)) => (
                    EGL_PLATFORM_WAYLAND_KHR,
                    display,
                    &["EGL_KHR_platform_wayland", "EGL_EXT_platform_wayland"],
                    [EGL_NONE as isize; 3],
                ),
                (None, None) => {
                    return Err(CreateBackendError::MissingExtension {
                        extension: "a platform for the program's window system",
                    });
                }
            };
        let mut client = self.extensions(std::ptr::null_mut());
        let get_platform_display = match &self.fns.displays {
            Displays::Library {
                get_platform_display,
                ..
            } => *get_platform_display,
            Displays::Vendor {
                get_platform_display,
                platform_extensions,
            } => {
                client.push(' ');
                client.push_str(platform_extensions);
                Some(*get_platform_display)
            }
        };
        let offered = client.split(' ').any(|e| extensions.contains(&e));
        let Some(get_platform_display) = get_platform_display.filter(|_| offered) else {
            return Err(CreateBackendError::MissingExtension {
                extension: extensions[0],
            });
        };
        // SAFETY: the platform's extension is offered (checked above); EGL_EXT_platform_xcb
        // takes a live `xcb_connection_t*` (`NativeDisplay::xcb`'s contract) and an
        // EGL_NONE-terminated EGLAttrib list naming the screen, EGL_KHR_platform_wayland a
        // live `wl_display*` (`NativeDisplay::wayland`'s) and an empty list.
        let display = unsafe { get_platform_display(platform, connection, attribs.as_ptr()) };
        if display.is_null() {
            return Err(CreateBackendError::Initialize {
                error: self.error(),
            });
        }
        let (mut major, mut minor) = (0, 0);
        // SAFETY: a non-null display returned by EGL; the out-pointers are valid locals.
        if unsafe { (self.fns.initialize)(display, &mut major, &mut minor) } == 0 {
            return Err(CreateBackendError::Initialize {
                error: self.error(),
            });
        }
        Ok(display)
    }

    /// What presenting into windows needs, if the display is on the program's window
    /// system and the context can be current with any of its window surfaces.
    pub fn window_egl(&self) -> Option<WindowEgl> {
        let native = self.on_window_system?;
        self.configless.then_some(WindowEgl {
            fns: self.fns.window,
            display: self.display,
            context: self.context,
            native,
            serialised: self.serialised,
        })
    }

    /// The native display.
    pub fn display(&self) -> *mut c_void {
        self.display
    }

    /// Whether the native display lists extension `name`.
    pub(crate) fn display_has(&self, name: &str) -> bool {
        self.extensions(self.display).split(' ').any(|e| e == name)
    }

    /// The display's dma-buf entry points, each where it has the extension (`egl_image.rs`).
    pub fn dma_buf_egl(&self) -> crate::egl_image::DmaBufEgl {
        let extensions = self.extensions(self.display);
        let has = |name: &str| extensions.split(' ').any(|e| e == name);
        let pair = |extension: &str, a: &CStr, b: &CStr| {
            let (a, b) = (self.proc_address(a), self.proc_address(b));
            (has(extension) && !a.is_null() && !b.is_null()).then_some((a, b))
        };
        let export = pair(
            "EGL_MESA_image_dma_buf_export",
            c"eglExportDMABUFImageQueryMESA",
            c"eglExportDMABUFImageMESA",
        );
        let modifiers = pair(
            "EGL_EXT_image_dma_buf_import_modifiers",
            c"eglQueryDmaBufFormatsEXT",
            c"eglQueryDmaBufModifiersEXT",
        );
        // SAFETY: non-null entry points of these names, cast to the signatures the
        // extensions give them.
        unsafe {
            crate::egl_image::DmaBufEgl {
                export: export.map(|(a, b)| (cast(a), cast(b))),
                import: has("EGL_EXT_image_dma_buf_import"),
                modifiers: modifiers.map(|(a, b)| (cast(a), cast(b))),
            }
        }
    }

    /// What sharing textures as `EGLImage`s needs (`egl_image.rs`), if the display has
    /// `EGL_KHR_gl_texture_2D_image` and the context `GL_OES_EGL_image`.
    pub fn image_egl(&self, id: &GlIdentity) -> Option<crate::egl_image::ImageEgl> {
        let extensions = self.extensions(self.display);
        let has = |name: &str| extensions.split(' ').any(|e| e == name);
        if !has("EGL_KHR_image_base")
            || !has("EGL_KHR_gl_texture_2D_image")
            || !id.extensions.contains("GL_OES_EGL_image")
        {
            return None;
        }
        let create = self.proc_address(c"eglCreateImageKHR");
        let destroy = self.proc_address(c"eglDestroyImageKHR");
        let target = self.proc_address(c"glEGLImageTargetTexture2DOES");
        if create.is_null() || destroy.is_null() || target.is_null() {
            return None;
        }
        let target_renderbuffer = if has("EGL_KHR_gl_renderbuffer_image") {
            self.proc_address(c"glEGLImageTargetRenderbufferStorageOES")
        } else {
            std::ptr::null()
        };
        // SAFETY: non-null entry points of these names (the renderbuffer one checked where
        // it is cast), cast to the signatures the extensions give them.
        unsafe {
            Some(crate::egl_image::ImageEgl {
                display: self.display,
                context: self.context,
                create: cast(create),
                destroy: cast(destroy),
                target_texture: cast(target),
                target_renderbuffer: (!target_renderbuffer.is_null())
                    .then(|| cast(target_renderbuffer)),
                dma_buf: self.dma_buf_egl(),
            })
        }
    }

    fn error(&self) -> i32 {
        // SAFETY: eglGetError takes no arguments and only reads thread-local state.
        unsafe { (self.fns.get_error)() }
    }

    fn extensions(&self, display: EglDisplay) -> String {
        // SAFETY: eglQueryString accepts EGL_NO_DISPLAY (client extensions, EGL 1.5 /
        // EGL_EXT_client_extensions; older EGLs return NULL) or an initialised display, and
        // returns NULL or a static NUL-terminated string.
        let s = unsafe { (self.fns.query_string)(display, EGL_EXTENSIONS) };
        if s.is_null() {
            return String::new();
        }
        // SAFETY: non-null: a NUL-terminated string owned by EGL, valid for the display's life.
        unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned()
    }

    fn open_display(&self) -> Result<EglDisplay, CreateBackendError> {
        let mut client = self.extensions(std::ptr::null_mut());
        if let Displays::Vendor {
            platform_extensions,
            ..
        } = &self.fns.displays
        {
            client.push(' ');
            client.push_str(platform_extensions);
        }
        let surfaceless = client
            .split(' ')
            .any(|e| e == "EGL_MESA_platform_surfaceless");
        let mut displays = Vec::new();
        match self.fns.displays {
            Displays::Library {
                get_display,
                get_platform_display,
            } => {
                if surfaceless && let Some(get_platform_display) = get_platform_display {
                    // SAFETY: EGL 1.5 eglGetPlatformDisplay with the surfaceless platform
                    // takes EGL_DEFAULT_DISPLAY (NULL) as native display and a NULL
                    // attribute list.
                    displays.push(unsafe {
                        get_platform_display(
                            EGL_PLATFORM_SURFACELESS_MESA,
                            std::ptr::null_mut(),
                            std::ptr::null(),
                        )
                    });
                }
                // SAFETY: eglGetDisplay(EGL_DEFAULT_DISPLAY) is always valid to call.
                displays.push(unsafe { get_display(std::ptr::null_mut()) });
            }
            Displays::Vendor {
                get_platform_display,
                ..
            } => {
                if surfaceless {
                    // SAFETY: getPlatformDisplay takes what eglGetPlatformDisplay takes: the
                    // surfaceless platform, EGL_DEFAULT_DISPLAY (NULL), no attributes.
                    displays.push(unsafe {
                        get_platform_display(
                            EGL_PLATFORM_SURFACELESS_MESA,
                            std::ptr::null_mut(),
                            std::ptr::null(),
                        )
                    });
                }
                // SAFETY: EGL_NONE with EGL_DEFAULT_DISPLAY and no attributes is how libglvnd
                // asks a vendor for eglGetDisplay(EGL_DEFAULT_DISPLAY) (libeglabi.h).
                displays.push(unsafe {
                    get_platform_display(EGL_NONE as u32, std::ptr::null_mut(), std::ptr::null())
                });
            }
        }
        let mut last_error = 0;
        for display in displays.into_iter().filter(|d| !d.is_null()) {
            let (mut major, mut minor) = (0, 0);
            // SAFETY: `display` is a non-null display returned by EGL; the out-pointers are
            // valid locals. Initialising an initialised display is allowed and does nothing.
            if unsafe { (self.fns.initialize)(display, &mut major, &mut minor) } != 0 {
                return Ok(display);
            }
            last_error = self.error();
        }
        Err(CreateBackendError::Initialize { error: last_error })
    }

    /// Creates the context with OpenGL ES bound, and binds back the API the thread had: the
    /// bound API is the thread's, shared with the program's own use of the driver (libglvnd
    /// remembers the API it last bound for the program and does not bind it again).
    fn create_context(&mut self) -> Result<EglContext, CreateBackendError> {
        // SAFETY: eglQueryAPI takes no arguments and reads thread-local state.
        let previous = unsafe { (self.fns.query_api)() };
        let context = self.create_es_context().map(|(context, configless)| {
            self.configless = configless;
            context
        });
        if previous != EGL_OPENGL_ES_API {
            // SAFETY: eglBindAPI takes an enum (one this EGL reported) and sets thread-local
            // state.
            unsafe { (self.fns.bind_api)(previous) };
        }
        context
    }

    /// The context, and whether it was made without a config.
    fn create_es_context(&self) -> Result<(EglContext, bool), CreateBackendError> {
        let extensions = self.extensions(self.display);
        let has = |name: &str| extensions.split(' ').any(|e| e == name);
        if !has("EGL_KHR_surfaceless_context") {
            return Err(CreateBackendError::MissingExtension {
                extension: "EGL_KHR_surfaceless_context",
            });
        }
        // SAFETY: eglBindAPI takes an enum and sets thread-local state.
        if unsafe { (self.fns.bind_api)(EGL_OPENGL_ES_API) } == 0 {
            return Err(CreateBackendError::NoGlesApi);
        }
        let configless = has("EGL_KHR_no_config_context") || has("EGL_MESA_configless_context");
        let config = if configless {
            std::ptr::null_mut()
        } else {
            let attribs = [EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE];
            let mut config: EglConfig = std::ptr::null_mut();
            let mut count = 0;
            // SAFETY: the attribute list is EGL_NONE-terminated; `config` has room for the
            // one config asked for; `count` is a valid out-pointer.
            let ok = unsafe {
                (self.fns.choose_config)(self.display, attribs.as_ptr(), &mut config, 1, &mut count)
            };
            if ok == 0 || count < 1 {
                return Err(CreateBackendError::MissingExtension {
                    extension: "EGL_KHR_no_config_context (or an OpenGL ES 3 config)",
                });
            }
            config
        };
        // Robust buffer access when the driver offers it: bytes from another process decide
        // what the driver reads (vertex and uniform ranges GL leaves undefined), and a
        // robust context never reads outside a buffer for them.
        let can_be_robust = has("EGL_EXT_create_context_robustness");
        let attempts = [2, 1, 0]
            .into_iter()
            .flat_map(|minor| [(minor, true), (minor, false)])
            .filter(|&(_, robust)| can_be_robust || !robust);
        let mut last_error = 0;
        for (minor, robust) in attempts {
            let mut attribs = vec![
                EGL_CONTEXT_MAJOR_VERSION,
                3,
                EGL_CONTEXT_MINOR_VERSION,
                minor,
            ];
            if robust {
                attribs.extend([EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, 1]);
            }
            attribs.push(EGL_NONE);
            // SAFETY: the display is initialised, `config` is NULL (no-config context, the
            // extension is present) or a config EGL returned, the share context is none or
            // the host's live context of this display (EGL checks it: EGL_BAD_CONTEXT), and
            // the attribute list is EGL_NONE-terminated.
            let context = unsafe {
                (self.fns.create_context)(self.display, config, self.share, attribs.as_ptr())
            };
            if !context.is_null() {
                return Ok((context, configless));
            }
            last_error = self.error();
        }
        Err(CreateBackendError::CreateContext { error: last_error })
    }

    /// Makes the context current on the calling thread, without a surface.
    pub fn make_current(&self) -> Result<(), CreateBackendError> {
        // SAFETY: display and context are live (created in `new`, destroyed only in Drop);
        // EGL_NO_SURFACE for both draw and read is allowed with
        // EGL_KHR_surfaceless_context, which `create_context` checked.
        let ok = unsafe {
            (self.fns.make_current)(
                self.display,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                self.context,
            )
        };
        if ok == 0 {
            return Err(CreateBackendError::MakeCurrent {
                error: self.error(),
            });
        }
        Ok(())
    }

    /// Releases the context from the calling thread, so that another thread may make it
    /// current.
    pub fn release(&self) {
        // SAFETY: releasing with EGL_NO_CONTEXT and no surfaces is always valid.
        unsafe {
            (self.fns.make_current)(
                self.display,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            );
        }
    }

    /// Resolves a GL (or EGL) entry point; NULL if neither EGL nor libGLESv2 has it.
    pub fn proc_address(&self, name: &CStr) -> *const c_void {
        // SAFETY: `name` is NUL-terminated; eglGetProcAddress returns NULL or a function
        // pointer that stays valid while the library is loaded.
        let p = unsafe { (self.fns.get_proc_address)(name.as_ptr()) };
        if !p.is_null() {
            return p;
        }
        let Some(gles) = &self.gles else {
            return std::ptr::null();
        };
        // SAFETY: the symbol is only turned into a raw address here; glow casts it to the
        // signature the GL specification gives the name.
        unsafe { gles.get::<*const c_void>(name.to_bytes_with_nul()) }
            .map(|s| *s)
            .unwrap_or(std::ptr::null())
    }

    /// Reads the GL version, renderer and extensions with the context current, through
    /// entry points resolved here (before glow exists).
    pub fn identity(&self) -> Result<GlIdentity, CreateBackendError> {
        type GetString = unsafe extern "C" fn(u32) -> *const u8;
        type GetStringi = unsafe extern "C" fn(u32, u32) -> *const u8;
        type GetIntegerv = unsafe extern "C" fn(u32, *mut i32);
        let get_string = self.proc_address(c"glGetString");
        let get_stringi = self.proc_address(c"glGetStringi");
        let get_integerv = self.proc_address(c"glGetIntegerv");
        if get_string.is_null() || get_stringi.is_null() || get_integerv.is_null() {
            return Err(CreateBackendError::MissingSymbol {
                library: self.path.display().to_string(),
                symbol: "glGetString/glGetStringi/glGetIntegerv (through eglGetProcAddress)",
            });
        }
        // SAFETY: the three pointers are the GL entry points of those names (non-null,
        // resolved by EGL), whose C signatures the aliases above spell out.
        let (get_string, get_stringi, get_integerv) = unsafe {
            (
                std::mem::transmute::<*const c_void, GetString>(get_string),
                std::mem::transmute::<*const c_void, GetStringi>(get_stringi),
                std::mem::transmute::<*const c_void, GetIntegerv>(get_integerv),
            )
        };
        let read = |p: *const u8| {
            if p.is_null() {
                String::new()
            } else {
                // SAFETY: GL returns NUL-terminated static strings (or NULL, handled above).
                unsafe { CStr::from_ptr(p.cast::<c_char>()) }
                    .to_string_lossy()
                    .into_owned()
            }
        };
        // SAFETY: the context is current on this thread (made so in `new`); these queries
        // take valid enums and, for glGetIntegerv, a pointer to one GLint.
        let (version, renderer, count) = unsafe {
            let mut count = 0;
            get_integerv(GL_NUM_EXTENSIONS, &mut count);
            (
                read(get_string(GL_VERSION)),
                read(get_string(GL_RENDERER)),
                count,
            )
        };
        let extensions = (0..count.max(0) as u32)
            // SAFETY: `i` < GL_NUM_EXTENSIONS, so glGetStringi returns a valid string.
            .map(|i| read(unsafe { get_stringi(GL_EXTENSIONS, i) }))
            .collect();
        // "OpenGL ES 3.2 Mesa ..." (ES version strings always start this way).
        let number = version
            .strip_prefix("OpenGL ES ")
            .and_then(|v| v.split(' ').next())
            .unwrap_or("");
        let mut parts = number.split('.');
        let major: u32 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        let minor: u32 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        if major < 3 {
            return Err(CreateBackendError::TooOld { version });
        }
        let minor = if major > 3 { 2 } else { minor.min(2) as u8 };
        Ok(GlIdentity {
            renderer,
            extensions,
            minor,
        })
    }

    /// Whether the context is current on the calling thread.
    pub fn is_current(&self) -> bool {
        // SAFETY: eglGetCurrentContext takes no arguments and reads thread-local state.
        unsafe { (self.fns.get_current_context)() == self.context }
    }

    /// Decides from the driver's `GL_RENDERER` whether this backend's native calls are
    /// serialised with the other backends' of the process (see the module's documentation).
    pub fn serialise_for(&mut self, renderer: &str) {
        self.serialised = serialised_driver(renderer);
    }

    /// The process's native-call lock, held until the guard drops, for a backend whose
    /// driver needs it (else `None`: its calls run concurrently with other backends').
    pub fn serial(&self) -> Option<Serial> {
        self.serialised.then(Serial::lock)
    }
}

/// Whether the driver named by `GL_RENDERER` gets its calls serialised across the backends
/// of a process: llvmpipe (see the module's documentation).
pub(crate) fn serialised_driver(renderer: &str) -> bool {
    renderer.starts_with("llvmpipe")
}

/// The lock every serialised backend of the process holds while it calls the driver.
static NATIVE_CALLS: std::sync::Mutex<()> = std::sync::Mutex::new(());

thread_local! {
    /// Whether this thread holds [`NATIVE_CALLS`] (a [`Serial`] with the guard is alive).
    static HOLDS_NATIVE_CALLS: Cell<bool> = const { Cell::new(false) };
}

/// Holds the process's native-call lock until dropped; re-entrant on one thread (a backend
/// whose creation fails is dropped, and destroys its context, under the creation's lock).
pub(crate) struct Serial(Option<std::sync::MutexGuard<'static, ()>>);

impl Serial {
    /// Takes the lock, or nothing if this thread holds it already. A panic under the lock
    /// (caught at the session's or the C ABI's boundary) leaves it usable.
    pub fn lock() -> Serial {
        if HOLDS_NATIVE_CALLS.get() {
            return Serial(None);
        }
        let guard = NATIVE_CALLS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        HOLDS_NATIVE_CALLS.set(true);
        Serial(Some(guard))
    }
}

impl Drop for Serial {
    fn drop(&mut self) {
        if self.0.is_some() {
            HOLDS_NATIVE_CALLS.set(false);
        }
    }
}

impl Egl {
    /// Destroys the context (if any) and lets go of a display on the program's window
    /// system: the last backend on it terminates it.
    fn drop_context(&mut self) {
        let _serial = self.serial();
        if !self.context.is_null() {
            if self.is_current() {
                self.release();
            }
            // SAFETY: the context was created on this display and is destroyed once (the
            // field is cleared). EGL defers the destruction while another thread still has
            // it current. Every GL object of the backend lives in this context (no sharing),
            // so this frees them all.
            unsafe {
                (self.fns.destroy_context)(self.display, self.context);
            }
            self.context = std::ptr::null_mut();
        }
        if self.on_window_system.take().is_some() {
            let key = self.display as usize;
            let mut all = window_displays();
            let last = match all.0.iter_mut().position(|(d, _)| *d == key) {
                Some(i) => {
                    all.0[i].1 -= 1;
                    if all.0[i].1 == 0 {
                        all.0.swap_remove(i);
                        true
                    } else {
                        false
                    }
                }
                None => false,
            };
            if last {
                // SAFETY: a display this EGL returned; no backend uses it any more (the
                // count, kept under the lock held here), so nothing of ours is current on
                // it or lives in it.
                unsafe { (self.fns.terminate)(self.display) };
            }
        }
    }
}

impl Drop for Egl {
    fn drop(&mut self) {
        // A failed `start` left no context: nothing of this backend's is current, and
        // another context of the thread may be.
        self.drop_context();
    }
}

/// The name of `core` to load instead, when the context reaches it only through an
/// extension (an ES 3.0/3.1 context with `OES_draw_buffers_indexed`, say).
pub(crate) fn entry_point_alias(core: &CStr, id: &GlIdentity) -> Option<CString> {
    /// (core name, first ES 3.x minor where it is core, the extension that provides it
    /// (named `GL_<suffix>_<extension>`), its suffixes in order of preference).
    type Alias = (&'static str, u8, &'static str, &'static [&'static str]);
    const OES_EXT: &[&str] = &["OES", "EXT"];
    const ALIASES: &[Alias] = &[
        ("glEnablei", 2, "draw_buffers_indexed", OES_EXT),
        ("glDisablei", 2, "draw_buffers_indexed", OES_EXT),
        (
            "glBlendEquationSeparatei",
            2,
            "draw_buffers_indexed",
            OES_EXT,
        ),
        ("glBlendFuncSeparatei", 2, "draw_buffers_indexed", OES_EXT),
        ("glColorMaski", 2, "draw_buffers_indexed", OES_EXT),
        ("glMinSampleShading", 2, "sample_shading", &["OES"]),
        (
            "glDrawElementsBaseVertex",
            2,
            "draw_elements_base_vertex",
            OES_EXT,
        ),
        (
            "glDrawElementsInstancedBaseVertex",
            2,
            "draw_elements_base_vertex",
            OES_EXT,
        ),
        (
            "glDrawRangeElementsBaseVertex",
            2,
            "draw_elements_base_vertex",
            OES_EXT,
        ),
        ("glTexBuffer", 2, "texture_buffer", OES_EXT),
        ("glTexBufferRange", 2, "texture_buffer", OES_EXT),
        ("glFramebufferTexture", 2, "geometry_shader", OES_EXT),
        (
            "glTexStorage3DMultisample",
            2,
            "texture_storage_multisample_2d_array",
            &["OES"],
        ),
        ("glSamplerParameterIiv", 2, "texture_border_clamp", OES_EXT),
        ("glSamplerParameterIuiv", 2, "texture_border_clamp", OES_EXT),
        // Not core in any ES version.
        ("glQueryCounter", 255, "disjoint_timer_query", &["EXT"]),
        (
            "glDrawArraysInstancedBaseInstance",
            255,
            "base_instance",
            &["EXT"],
        ),
        (
            "glDrawElementsInstancedBaseVertexBaseInstance",
            255,
            "base_instance",
            &["EXT"],
        ),
        (
            "glGetQueryObjectui64v",
            255,
            "disjoint_timer_query",
            &["EXT"],
        ),
    ];

    let name = core.to_str().ok()?;
    let (_, core_in, extension, suffixes) = ALIASES.iter().find(|(n, ..)| *n == name)?;
    if id.minor >= *core_in {
        return None;
    }
    let suffix = suffixes
        .iter()
        .find(|s| id.extensions.contains(&format!("GL_{s}_{extension}")))?;
    CString::new(format!("{name}{suffix}")).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A context from `native`, current on this thread, with its GL strings readable.
    fn context(native: Native) -> Egl {
        let egl = Egl::with_natives(vec![native], None).expect("a context");
        assert!(egl.is_current());
        let id = egl.identity().expect("GL strings");
        assert!(!id.renderer.is_empty());
        egl
    }

    #[test]
    fn a_named_egl_library_is_used_as_an_egl() {
        let Some(path) = EGL_CANDIDATES
            .iter()
            .map(PathBuf::from)
            .find(|p| p.exists())
        else {
            return;
        };
        let egl = context(Native::Named(path));
        // An EGL library keeps the system libGLESv2 as its fallback for GL functions.
        assert!(egl.gles.is_some() || !GLES_CANDIDATES.iter().any(|p| Path::new(p).exists()));
        assert!(matches!(egl.fns.displays, Displays::Library { .. }));
    }

    #[test]
    fn the_vendor_libraries_of_libglvnd_give_a_context_without_libegl() {
        let (_, vendors) = glvnd::vendor_files(&glvnd::vendor_dirs());
        if vendors.is_empty() {
            return;
        }
        let egl = Egl::with_natives(vendors.into_iter().map(Native::Vendor).collect(), None)
            .expect("a context from a vendor library");
        assert!(egl.is_current() && egl.gles.is_none());
        let Displays::Vendor {
            platform_extensions,
            ..
        } = &egl.fns.displays
        else {
            panic!("not a vendor");
        };
        assert!(!platform_extensions.is_empty());
        assert!(!egl.proc_address(c"glDrawElementsInstanced").is_null());
        // A named vendor library is recognised as one (it exports only `__egl_Main`).
        let named = Native::Named(egl.path.clone());
        drop(egl);
        let again = context(named);
        assert!(matches!(again.fns.displays, Displays::Vendor { .. }));
    }

    #[test]
    fn llvmpipe_backends_take_turns_and_the_lock_is_reentrant() {
        assert!(serialised_driver("llvmpipe (LLVM 15.0.6, 256 bits)"));
        assert!(!serialised_driver("zink (lavapipe)") && !serialised_driver("AMD Radeon"));
        let outer = Serial::lock();
        // The same thread again (a failed creation dropping its context): no deadlock.
        let inner = Serial::lock();
        assert!(outer.0.is_some() && inner.0.is_none());
        drop(inner);
        // Another thread waits while this one holds it.
        let taken = std::thread::spawn(|| NATIVE_CALLS.try_lock().is_ok());
        assert!(!taken.join().expect("the other thread"));
        drop(outer);
        let taken = std::thread::spawn(|| Serial::lock().0.is_some());
        assert!(taken.join().expect("the other thread"));
    }

    #[test]
    fn an_egl_library_is_never_taken_for_a_vendor() {
        // libglvnd's libEGL.so.1 (or any EGL) exports the EGL entry points: a vendor library
        // that does (Tessera's) is skipped, never used as the driver.
        let Some(path) = EGL_CANDIDATES
            .iter()
            .map(PathBuf::from)
            .find(|p| p.exists())
        else {
            return;
        };
        let why = glvnd::Vendor::open(&path).err().expect("refused");
        assert!(why.contains("EGL entry points"), "{why}");
    }
}

//! The GLX vendor (`libGLX_tessera.so.0`): `__glx_Main`, per libglvnd's `libglxabi.h`
//! (vendor ABI 1.x). libGLX loads it for every screen when `__GLX_VENDOR_LIBRARY_NAME=tessera`
//! (found on the library path as `libGLX_tessera.so.0`).
//!
//! - **Screens**: every screen is served (`isScreenSupported`).
//! - **Functions**: `getProcAddress` gives Tessera's GLX 1.4 functions (libGLX requires every
//!   one; it keeps their context, config and drawable mappings itself and answers the
//!   current-state queries), `glXCreateContextAttribsARB`, the swap-interval extensions, and
//!   every GL function as [`eglGetProcAddress`](crate::egl::eglGetProcAddress) gives it
//!   (libGLdispatch's table while a Tessera context is current).
//! - **Dispatch stubs** for the GLX extension functions libGLX has no stub of: the
//!   swap-interval functions. `glXSwapIntervalEXT` finds the vendor of its drawable, the
//!   others the vendor of the current context, through libGLX's exports, and call that
//!   vendor's function of the index libGLX assigned.

use std::ffi::{CStr, c_char, c_int, c_uint, c_ulong, c_void};
use std::sync::atomic::{AtomicI32, AtomicPtr, Ordering};

use super::guard;

/// The vendor ABI's major version this implements (`GLX_VENDOR_ABI_MAJOR_VERSION`).
pub const ABI_MAJOR: u32 = 1;

/// `GLX_BAD_CONTEXT`.
const GLX_BAD_CONTEXT: c_int = 5;

/// `Display*`.
type XDisplay = *mut c_void;
/// `XID` / `GLXDrawable`.
type Xid = c_ulong;
/// `GLXContext` / `GLXFBConfig`.
type GlxHandle = *mut c_void;

/// libglvnd's per-vendor record (`__GLXvendorInfo`): opaque.
#[repr(C)]
pub struct VendorInfo {
    _opaque: [u8; 0],
}

/// `__GLXapiExports`: what libglvnd's libGLX gives a vendor.
#[repr(C)]
#[allow(missing_docs, reason = "the fields of libglxabi.h, in its order")]
pub struct ApiExports {
    pub get_dyn_dispatch: Option<unsafe extern "C" fn(XDisplay, c_int) -> *mut VendorInfo>,
    pub get_current_dyn_dispatch: Option<unsafe extern "C" fn() -> *mut VendorInfo>,
    pub fetch_dispatch_entry: Option<unsafe extern "C" fn(*mut VendorInfo, c_int) -> *const c_void>,
    pub get_current_context: Option<unsafe extern "C" fn() -> GlxHandle>,
    pub add_vendor_context_mapping:
        Option<unsafe extern "C" fn(XDisplay, GlxHandle, *mut VendorInfo) -> c_int>,
    pub remove_vendor_context_mapping: Option<unsafe extern "C" fn(XDisplay, GlxHandle)>,
    pub vendor_from_context: Option<unsafe extern "C" fn(GlxHandle) -> *mut VendorInfo>,
    pub add_vendor_fbconfig_mapping:
        Option<unsafe extern "C" fn(XDisplay, GlxHandle, *mut VendorInfo) -> c_int>,
    pub remove_vendor_fbconfig_mapping: Option<unsafe extern "C" fn(XDisplay, GlxHandle)>,
    pub vendor_from_fbconfig: Option<unsafe extern "C" fn(XDisplay, GlxHandle) -> *mut VendorInfo>,
    pub add_vendor_drawable_mapping:
        Option<unsafe extern "C" fn(XDisplay, Xid, *mut VendorInfo) -> c_int>,
    pub remove_vendor_drawable_mapping: Option<unsafe extern "C" fn(XDisplay, Xid)>,
    pub vendor_from_drawable: Option<unsafe extern "C" fn(XDisplay, Xid) -> *mut VendorInfo>,
}

/// `__GLXapiImports`: what the vendor gives libglvnd. libGLX zeroes it before `__glx_Main`;
/// the optional entries (error notification, entry point patching) stay null.
#[repr(C)]
#[allow(missing_docs, reason = "the fields of libglxabi.h, in its order")]
pub struct ApiImports {
    pub is_screen_supported: Option<unsafe extern "C" fn(XDisplay, c_int) -> c_int>,
    pub get_proc_address: Option<unsafe extern "C" fn(*const u8) -> *mut c_void>,
    pub get_dispatch_address: Option<unsafe extern "C" fn(*const u8) -> *mut c_void>,
    pub set_dispatch_index: Option<unsafe extern "C" fn(*const u8, c_int)>,
    pub notify_error: Option<unsafe extern "C" fn(XDisplay, u8, Xid, u8, c_int) -> c_int>,
    pub is_patch_supported: Option<unsafe extern "C" fn(c_int, c_int) -> u8>,
    pub initiate_patch:
        Option<unsafe extern "C" fn(c_int, c_int, Option<super::egl::LookupStubOffset>) -> u8>,
    pub release_patch: Option<unsafe extern "C" fn()>,
    pub patch_thread_attach: Option<unsafe extern "C" fn()>,
}

/// libGLX's exports, from `__glx_Main` (valid while the vendor is loaded).
static EXPORTS: AtomicPtr<ApiExports> = AtomicPtr::new(std::ptr::null_mut());

/// `__glx_Main`: the handshake. Accepts ABI 1.x, keeps the exports, fills the imports.
///
/// # Safety
/// `exports` is null or libGLX's exports table, valid while this library is loaded;
/// `imports` is null or libGLX's zeroed imports table, valid for writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __glx_Main(
    version: u32,
    exports: *const ApiExports,
    _vendor: *mut VendorInfo,
    imports: *mut ApiImports,
) -> c_int {
    crate::logging::init();
    if version >> 16 != ABI_MAJOR || exports.is_null() || imports.is_null() {
        log::warn!(
            "tessera: libglvnd GLX vendor ABI {}.{} is not {ABI_MAJOR}.x",
            version >> 16,
            version & 0xffff
        );
        return 0;
    }
    EXPORTS.store(exports.cast_mut(), Ordering::Release);
    // SAFETY: `imports` is libGLX's imports table (the caller's contract); only the required
    // fields are written, through the raw pointer.
    unsafe {
        (*imports).is_screen_supported = Some(is_screen_supported);
        (*imports).get_proc_address = Some(get_proc_address);
        (*imports).get_dispatch_address = Some(get_dispatch_address);
        (*imports).set_dispatch_index = Some(set_dispatch_index);
    }
    1
}

/// `isScreenSupported`: every screen.
extern "C" fn is_screen_supported(_dpy: XDisplay, _screen: c_int) -> c_int {
    1
}

/// A function name from libGLX.
///
/// # Safety
/// `name` is null or NUL-terminated.
unsafe fn name<'a>(name: *const u8) -> Option<&'a str> {
    if name.is_null() {
        return None;
    }
    // SAFETY: the caller's contract; non-null.
    unsafe { CStr::from_ptr(name.cast::<c_char>()) }
        .to_str()
        .ok()
}

/// The function of `name`: a GLX function from Tessera's GLX table, a GL one as
/// `eglGetProcAddress` finds it.
fn lookup(name: &str) -> Option<*const c_void> {
    if name.starts_with("glX") {
        crate::glx::lookup(name)
    } else if name.starts_with("gl") {
        crate::egl::lookup(name)
    } else {
        None
    }
}

/// `getProcAddress`.
///
/// # Safety
/// `name` is null or NUL-terminated.
unsafe extern "C" fn get_proc_address(proc_name: *const u8) -> *mut c_void {
    guard("getProcAddress", std::ptr::null_mut(), || {
        // SAFETY: the caller's contract.
        unsafe { name(proc_name) }
            .and_then(lookup)
            .map_or(std::ptr::null_mut(), <*const c_void>::cast_mut)
    })
}

/// The dispatch stubs, by name (sorted), and the index libGLX assigned each
/// (`setDispatchIndex`; -1 until then).
static STUBS: [(&str, StubFn); 4] = [
    (
        "glXGetSwapIntervalMESA",
        StubFn(get_swap_interval_mesa as *const c_void),
    ),
    (
        "glXSwapIntervalEXT",
        StubFn(swap_interval_ext as *const c_void),
    ),
    (
        "glXSwapIntervalMESA",
        StubFn(swap_interval_mesa as *const c_void),
    ),
    (
        "glXSwapIntervalSGI",
        StubFn(swap_interval_sgi as *const c_void),
    ),
];
static INDICES: [AtomicI32; 4] = [const { AtomicI32::new(-1) }; 4];

/// The address of a dispatch stub.
struct StubFn(*const c_void);

// SAFETY: the address of a function of this library: immutable, valid on every thread.
unsafe impl Sync for StubFn {}

/// The position of a name in [`STUBS`].
///
/// # Safety
/// `proc_name` is null or NUL-terminated.
unsafe fn stub_position(proc_name: *const u8) -> Option<usize> {
    // SAFETY: the caller's contract.
    let name = unsafe { name(proc_name) }?;
    STUBS.binary_search_by(|s| s.0.cmp(name)).ok()
}

/// `getDispatchAddress`: the stub of a swap-interval function, null for any other name
/// (libGLX then takes a `glX` name Tessera has for a GL function, and no Tessera GLX
/// function is one).
///
/// # Safety
/// `name` is null or NUL-terminated.
unsafe extern "C" fn get_dispatch_address(proc_name: *const u8) -> *mut c_void {
    guard("getDispatchAddress", std::ptr::null_mut(), || {
        // SAFETY: the caller's contract.
        unsafe { stub_position(proc_name) }
            .map_or(std::ptr::null_mut(), |i| STUBS[i].1.0.cast_mut())
    })
}

/// `setDispatchIndex`: remembers the index of each of the stubs' functions.
///
/// # Safety
/// `name` is null or NUL-terminated.
unsafe extern "C" fn set_dispatch_index(proc_name: *const u8, index: c_int) {
    guard("setDispatchIndex", (), || {
        // SAFETY: the caller's contract.
        if let Some(i) = unsafe { stub_position(proc_name) } {
            INDICES[i].store(index, Ordering::Release);
        }
    });
}

/// What a dispatch stub finds its vendor by.
#[derive(Clone, Copy)]
enum Owner {
    Drawable(XDisplay, Xid),
    Current,
}

/// The function a dispatch stub calls: the owning vendor's function of the stub's index;
/// `None` when no vendor owns the drawable or no context is current.
fn dispatch_target(stub: usize, owner: Owner) -> Option<*const c_void> {
    let exports = EXPORTS.load(Ordering::Acquire);
    if exports.is_null() {
        return None;
    }
    // SAFETY: libGLX's exports table, valid while the library is loaded (`__glx_Main`).
    let exports = unsafe { &*exports };
    let vendor = match (
        owner,
        exports.vendor_from_drawable,
        exports.get_current_dyn_dispatch,
    ) {
        (Owner::Drawable(dpy, drawable), Some(f), _) => {
            // SAFETY: libGLX looks the drawable up in its own maps; any value is accepted.
            unsafe { f(dpy, drawable) }
        }
        (Owner::Current, _, Some(f)) => {
            // SAFETY: reads libGLX's thread state.
            unsafe { f() }
        }
        _ => std::ptr::null_mut(),
    };
    let index = INDICES[stub].load(Ordering::Acquire);
    let function = match exports.fetch_dispatch_entry {
        // SAFETY: a vendor libGLX returned and an index it assigned.
        Some(fetch) if !vendor.is_null() && index >= 0 => unsafe { fetch(vendor, index) },
        _ => std::ptr::null(),
    };
    (!function.is_null()).then_some(function)
}

/// The dispatch stub of `glXGetSwapIntervalMESA`: 0 without a current context.
extern "C" fn get_swap_interval_mesa() -> c_int {
    let Some(f) = guard(STUBS[0].0, None, || dispatch_target(0, Owner::Current)) else {
        return 0;
    };
    // SAFETY: the current vendor's `glXGetSwapIntervalMESA`, which has this signature.
    unsafe { std::mem::transmute::<*const c_void, extern "C" fn() -> c_int>(f)() }
}

/// The dispatch stub of `glXSwapIntervalEXT`: nothing when no vendor owns the drawable.
extern "C" fn swap_interval_ext(dpy: XDisplay, drawable: Xid, interval: c_int) {
    let Some(f) = guard(STUBS[1].0, None, || {
        dispatch_target(1, Owner::Drawable(dpy, drawable))
    }) else {
        return;
    };
    // SAFETY: the drawable's vendor's `glXSwapIntervalEXT`, which has this signature; the
    // arguments are the caller's.
    unsafe {
        std::mem::transmute::<*const c_void, unsafe extern "C" fn(XDisplay, Xid, c_int)>(f)(
            dpy, drawable, interval,
        );
    }
}

/// The dispatch stub of `glXSwapIntervalMESA`: `GLX_BAD_CONTEXT` without a current context.
extern "C" fn swap_interval_mesa(interval: c_uint) -> c_int {
    let Some(f) = guard(STUBS[2].0, None, || dispatch_target(2, Owner::Current)) else {
        return GLX_BAD_CONTEXT;
    };
    // SAFETY: the current vendor's `glXSwapIntervalMESA`, which has this signature.
    unsafe { std::mem::transmute::<*const c_void, extern "C" fn(c_uint) -> c_int>(f)(interval) }
}

/// The dispatch stub of `glXSwapIntervalSGI`: `GLX_BAD_CONTEXT` without a current context.
extern "C" fn swap_interval_sgi(interval: c_int) -> c_int {
    let Some(f) = guard(STUBS[3].0, None, || dispatch_target(3, Owner::Current)) else {
        return GLX_BAD_CONTEXT;
    };
    // SAFETY: the current vendor's `glXSwapIntervalSGI`, which has this signature.
    unsafe { std::mem::transmute::<*const c_void, extern "C" fn(c_int) -> c_int>(f)(interval) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The GLX 1.4 functions libGLX requires of a vendor, and the optional ones it takes.
    const REQUIRED: [&str; 32] = [
        "glXChooseVisual",
        "glXCopyContext",
        "glXCreateContext",
        "glXCreateGLXPixmap",
        "glXDestroyContext",
        "glXDestroyGLXPixmap",
        "glXGetConfig",
        "glXIsDirect",
        "glXMakeCurrent",
        "glXSwapBuffers",
        "glXUseXFont",
        "glXWaitGL",
        "glXWaitX",
        "glXQueryServerString",
        "glXGetClientString",
        "glXQueryExtensionsString",
        "glXChooseFBConfig",
        "glXCreateNewContext",
        "glXCreatePbuffer",
        "glXCreatePixmap",
        "glXCreateWindow",
        "glXDestroyPbuffer",
        "glXDestroyPixmap",
        "glXDestroyWindow",
        "glXGetFBConfigAttrib",
        "glXGetFBConfigs",
        "glXGetSelectedEvent",
        "glXGetVisualFromFBConfig",
        "glXMakeContextCurrent",
        "glXQueryContext",
        "glXQueryDrawable",
        "glXSelectEvent",
    ];

    /// The GLX functions libGLX exports and dispatches itself: the GLX 1.4 ones (the
    /// vendor's of [`REQUIRED`], and those libGLX answers alone) and three extension ones.
    const LIBGLX_OWN: [&str; 11] = [
        "glXGetCurrentContext",
        "glXGetCurrentDisplay",
        "glXGetCurrentDrawable",
        "glXGetCurrentReadDrawable",
        "glXGetProcAddress",
        "glXGetProcAddressARB",
        "glXQueryExtension",
        "glXQueryVersion",
        "glXCreateContextAttribsARB",
        "glXImportContextEXT",
        "glXFreeContextEXT",
    ];

    #[test]
    fn every_glx_function_of_tessera_is_libglx_s_or_has_a_stub() {
        // A GLX extension function libGLX lacks and no stub serves would be dispatched by
        // libGLX as a GL function: to the current context's vendor, whatever the display.
        for (name, _) in crate::glx::GLX_FUNCTIONS {
            let stubbed = STUBS.iter().any(|s| s.0 == *name);
            let libglx = REQUIRED.contains(name) || LIBGLX_OWN.contains(name);
            assert!(stubbed != libglx, "{name}: add a dispatch stub to STUBS");
        }
    }

    fn get(name: &str) -> *mut c_void {
        let c = std::ffi::CString::new(name).expect("no NUL");
        // SAFETY: a NUL-terminated name.
        unsafe { get_proc_address(c.as_ptr().cast()) }
    }

    #[test]
    fn every_function_libglx_requires_resolves_to_tessera_s() {
        for name in REQUIRED.into_iter().chain(["glXCreateContextAttribsARB"]) {
            let p = get(name);
            assert!(!p.is_null(), "{name}");
            assert_eq!(Some(p.cast_const()), crate::glx::lookup(name), "{name}");
        }
        assert_eq!(
            Some(get("glClear").cast_const()),
            crate::egl::lookup("glClear")
        );
        for name in ["eglGetDisplay", "glXNotAFunction", "glNotAFunction", ""] {
            assert!(get(name).is_null(), "{name}");
        }
    }

    #[test]
    fn every_stub_is_of_a_function_tessera_has_and_libglx_lacks() {
        assert!(STUBS.windows(2).all(|w| w[0].0 < w[1].0));
        for (name, f) in &STUBS {
            assert!(!REQUIRED.contains(name), "{name}");
            assert!(crate::glx::lookup(name).is_some(), "{name}");
            let c = std::ffi::CString::new(*name).expect("no NUL");
            // SAFETY: a NUL-terminated name.
            let stub = unsafe { get_dispatch_address(c.as_ptr().cast()) };
            assert_eq!(stub, f.0.cast_mut());
        }
        for name in [
            c"glXChooseFBConfig",
            c"glClear",
            c"glXCreateContextAttribsARB",
        ] {
            // SAFETY: NUL-terminated names.
            assert!(unsafe { get_dispatch_address(name.as_ptr().cast()) }.is_null());
        }
        // Without libGLX's exports (or a current context) the stubs do nothing.
        assert_eq!(swap_interval_sgi(1), GLX_BAD_CONTEXT);
        assert_eq!(get_swap_interval_mesa(), 0);
    }
}

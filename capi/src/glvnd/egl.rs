//! The EGL vendor (`libEGL_tessera.so.0`): `__egl_Main`, per libglvnd's `libeglabi.h`
//! (vendor ABI 0.x).
//!
//! - **Displays**: libglvnd asks each vendor in turn for a display. `EGL_NONE` is
//!   `eglGetDisplay(EGL_DEFAULT_DISPLAY)` (Tessera's default display, or the platform
//!   `EGL_PLATFORM` names); every platform is Tessera's `eglGetPlatformDisplay` (X11, XCB,
//!   surfaceless, Tessera's device; the others fail with the error libglvnd passes on when no
//!   vendor takes the display).
//! - **Client APIs**: OpenGL only (`eglBindAPI(EGL_OPENGL_ES_API)` is refused by libglvnd
//!   when no vendor offers it).
//! - **Functions**: `getProcAddress` is [`eglGetProcAddress`]: every EGL function of the
//!   library, every GL function Tessera carries out, and the stub of every other GL function
//!   of the registry, the table libGLdispatch installs while a Tessera context is current.
//!   `getVendorString` gives Tessera's client extensions (the platforms among them are what
//!   libglvnd adds to its own client extension string).
//! - **Dispatch stubs** for the extension functions libglvnd has no stub of:
//!   `eglQueryDeviceStringEXT` and `eglQueryDeviceAttribEXT` (by device) and
//!   `eglSwapBuffersWithDamageEXT`/`KHR` (by display). Each finds the owner of its display
//!   or device through libglvnd's exports and calls that vendor's function of the index
//!   libglvnd assigned, so it serves another vendor's objects too.
//! - **Current state**: libglvnd keeps the current context, display and surfaces, and calls
//!   the vendor's `eglMakeCurrent`, which keeps Tessera's thread state as it does without
//!   libglvnd; the vendor never reports make-current back.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::atomic::{AtomicI32, AtomicPtr, Ordering};

use tessera_engine::egl::tokens::{BAD_DISPLAY, NONE, OPENGL_API};

use super::guard;
use crate::egl::{
    BAD_DEVICE_EXT, EGLAttrib, EGLBoolean, EGLenum, EGLint, Handle, client_extensions,
    eglGetDisplay, eglGetPlatformDisplay, eglGetProcAddress,
};

/// The vendor ABI's major version this implements (`EGL_VENDOR_ABI_MAJOR_VERSION`).
pub const ABI_MAJOR: u32 = 0;

/// `__EGL_VENDOR_STRING_PLATFORM_EXTENSIONS`.
pub const VENDOR_STRING_PLATFORM_EXTENSIONS: c_int = 0;

/// libglvnd's per-vendor record (`__EGLvendorInfo`): opaque.
#[repr(C)]
pub struct VendorInfo {
    _opaque: [u8; 0],
}

/// `__EGLapiExports`: what libglvnd's libEGL gives a vendor.
#[repr(C)]
#[allow(missing_docs, reason = "the fields of libeglabi.h, in its order")]
pub struct ApiExports {
    pub thread_init: Option<unsafe extern "C" fn()>,
    pub get_current_api: Option<unsafe extern "C" fn() -> EGLenum>,
    pub get_current_vendor: Option<unsafe extern "C" fn() -> *mut VendorInfo>,
    pub get_current_context: Option<unsafe extern "C" fn() -> Handle>,
    pub get_current_display: Option<unsafe extern "C" fn() -> Handle>,
    pub get_current_surface: Option<unsafe extern "C" fn(EGLint) -> Handle>,
    pub fetch_dispatch_entry: Option<unsafe extern "C" fn(*mut VendorInfo, c_int) -> *const c_void>,
    pub set_egl_error: Option<unsafe extern "C" fn(EGLint)>,
    pub set_last_vendor: Option<unsafe extern "C" fn(*mut VendorInfo) -> EGLBoolean>,
    pub get_vendor_from_display: Option<unsafe extern "C" fn(Handle) -> *mut VendorInfo>,
    pub get_vendor_from_device: Option<unsafe extern "C" fn(Handle) -> *mut VendorInfo>,
    pub set_vendor_for_device: Option<unsafe extern "C" fn(Handle, *mut VendorInfo) -> EGLBoolean>,
}

/// `DispatchPatchLookupStubOffset` (GLdispatchABI.h).
pub type LookupStubOffset =
    unsafe extern "C" fn(*const c_char, *mut *mut c_void, *mut *const c_void) -> u8;

/// `__EGLapiImports`: what the vendor gives libglvnd. libglvnd zeroes it before
/// `__egl_Main`; the optional entries (entry point patching, platform detection) stay null.
#[repr(C)]
#[allow(missing_docs, reason = "the fields of libeglabi.h, in its order")]
pub struct ApiImports {
    pub get_platform_display:
        Option<unsafe extern "C" fn(EGLenum, *mut c_void, *const EGLAttrib) -> Handle>,
    pub get_supports_api: Option<unsafe extern "C" fn(EGLenum) -> EGLBoolean>,
    pub get_vendor_string: Option<unsafe extern "C" fn(c_int) -> *const c_char>,
    pub get_proc_address: Option<unsafe extern "C" fn(*const c_char) -> *mut c_void>,
    pub get_dispatch_address: Option<unsafe extern "C" fn(*const c_char) -> *mut c_void>,
    pub set_dispatch_index: Option<unsafe extern "C" fn(*const c_char, c_int)>,
    pub is_patch_supported: Option<unsafe extern "C" fn(c_int, c_int) -> u8>,
    pub initiate_patch: Option<unsafe extern "C" fn(c_int, c_int, Option<LookupStubOffset>) -> u8>,
    pub release_patch: Option<unsafe extern "C" fn()>,
    pub patch_thread_attach: Option<unsafe extern "C" fn()>,
    pub find_native_display_platform: Option<unsafe extern "C" fn(*mut c_void) -> EGLenum>,
}

/// libglvnd's exports, from `__egl_Main` (valid while the vendor is loaded).
static EXPORTS: AtomicPtr<ApiExports> = AtomicPtr::new(std::ptr::null_mut());

/// `__egl_Main`: the handshake. Accepts ABI 0.x, keeps the exports, fills the imports.
///
/// # Safety
/// `exports` is null or libglvnd's exports table, valid while this library is loaded;
/// `imports` is null or libglvnd's zeroed imports table, valid for writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __egl_Main(
    version: u32,
    exports: *const ApiExports,
    _vendor: *mut VendorInfo,
    imports: *mut ApiImports,
) -> EGLBoolean {
    crate::logging::init();
    if version >> 16 != ABI_MAJOR || exports.is_null() || imports.is_null() {
        log::warn!(
            "tessera: libglvnd EGL vendor ABI {}.{} is not {ABI_MAJOR}.x",
            version >> 16,
            version & 0xffff
        );
        return 0;
    }
    EXPORTS.store(exports.cast_mut(), Ordering::Release);
    // SAFETY: `imports` is libglvnd's imports table (the caller's contract); only the fields
    // of ABI 0.0 are written, through the raw pointer (the table may be libglvnd's larger
    // one).
    unsafe {
        (*imports).get_platform_display = Some(get_platform_display);
        (*imports).get_supports_api = Some(get_supports_api);
        (*imports).get_vendor_string = Some(get_vendor_string);
        (*imports).get_proc_address = Some(get_proc_address);
        (*imports).get_dispatch_address = Some(get_dispatch_address);
        (*imports).set_dispatch_index = Some(set_dispatch_index);
    }
    1
}

/// `getPlatformDisplay`: `EGL_NONE` (the program called `eglGetDisplay(EGL_DEFAULT_DISPLAY)`)
/// is [`eglGetDisplay`], any platform [`eglGetPlatformDisplay`].
///
/// # Safety
/// As the two functions: a live native display of the platform, an `EGL_NONE`-terminated
/// (or null) attribute list.
unsafe extern "C" fn get_platform_display(
    platform: EGLenum,
    native_display: *mut c_void,
    attrib_list: *const EGLAttrib,
) -> Handle {
    if platform as EGLint == NONE {
        // SAFETY: the caller's contract.
        unsafe { eglGetDisplay(native_display) }
    } else {
        // SAFETY: the caller's contract.
        unsafe { eglGetPlatformDisplay(platform, native_display, attrib_list) }
    }
}

/// `getSupportsAPI`: OpenGL.
extern "C" fn get_supports_api(api: EGLenum) -> EGLBoolean {
    EGLBoolean::from(api as EGLint == OPENGL_API)
}

/// `getVendorString`: the client extensions for `__EGL_VENDOR_STRING_PLATFORM_EXTENSIONS`,
/// null for any other name.
extern "C" fn get_vendor_string(name: c_int) -> *const c_char {
    guard("getVendorString", std::ptr::null(), || {
        if name == VENDOR_STRING_PLATFORM_EXTENSIONS {
            client_extensions().as_ptr()
        } else {
            std::ptr::null()
        }
    })
}

/// `getProcAddress`: [`eglGetProcAddress`].
///
/// # Safety
/// `name` is null or NUL-terminated.
unsafe extern "C" fn get_proc_address(name: *const c_char) -> *mut c_void {
    // SAFETY: the caller's contract.
    unsafe { eglGetProcAddress(name) }.cast_mut()
}

/// What a dispatch stub finds its vendor by.
#[derive(Clone, Copy)]
enum Owner {
    Display(Handle),
    Device(Handle),
}

/// The dispatch stubs, by name (sorted), with the index libglvnd assigned each
/// (`setDispatchIndex`; -1 until then).
static STUBS: [(&str, StubFn); 4] = [
    (
        "eglQueryDeviceAttribEXT",
        StubFn(query_device_attrib as *const c_void),
    ),
    (
        "eglQueryDeviceStringEXT",
        StubFn(query_device_string as *const c_void),
    ),
    (
        "eglSwapBuffersWithDamageEXT",
        StubFn(swap_with_damage_ext as *const c_void),
    ),
    (
        "eglSwapBuffersWithDamageKHR",
        StubFn(swap_with_damage_khr as *const c_void),
    ),
];
static INDICES: [AtomicI32; 4] = [const { AtomicI32::new(-1) }; 4];

/// The address of a dispatch stub.
struct StubFn(*const c_void);

// SAFETY: the address of a function of this library: immutable, valid on every thread.
unsafe impl Sync for StubFn {}

/// The position of `name` in [`STUBS`].
fn stub_position(name: *const c_char) -> Option<usize> {
    if name.is_null() {
        return None;
    }
    // SAFETY: non-null; libglvnd passes NUL-terminated names.
    let name = unsafe { CStr::from_ptr(name) }.to_str().ok()?;
    STUBS.binary_search_by(|s| s.0.cmp(name)).ok()
}

/// `getDispatchAddress`: the stub of an extension function libglvnd dispatches by display or
/// device, null for any other name.
///
/// # Safety
/// `name` is null or NUL-terminated.
unsafe extern "C" fn get_dispatch_address(name: *const c_char) -> *mut c_void {
    guard("getDispatchAddress", std::ptr::null_mut(), || {
        stub_position(name).map_or(std::ptr::null_mut(), |i| STUBS[i].1.0.cast_mut())
    })
}

/// `setDispatchIndex`: remembers the index of each of the stubs' functions.
///
/// # Safety
/// `name` is null or NUL-terminated.
unsafe extern "C" fn set_dispatch_index(name: *const c_char, index: c_int) {
    guard("setDispatchIndex", (), || {
        if let Some(i) = stub_position(name) {
            INDICES[i].store(index, Ordering::Release);
        }
    });
}

/// The function a dispatch stub calls: the owning vendor's function of the stub's index.
/// Sets the EGL error for libglvnd (bad display or device: no vendor owns it) and gives
/// `None` when there is none; otherwise makes that vendor the one `eglGetError` asks.
fn dispatch_target(stub: usize, owner: Owner) -> Option<*const c_void> {
    let exports = EXPORTS.load(Ordering::Acquire);
    if exports.is_null() {
        return None;
    }
    // SAFETY: libglvnd's exports table, valid while the library is loaded (`__egl_Main`).
    let exports = unsafe { &*exports };
    if let Some(init) = exports.thread_init {
        // SAFETY: takes no arguments; libglvnd's per-call bookkeeping.
        unsafe { init() };
    }
    let (lookup, handle, error) = match owner {
        Owner::Display(d) => (exports.get_vendor_from_display, d, BAD_DISPLAY),
        Owner::Device(d) => (exports.get_vendor_from_device, d, BAD_DEVICE_EXT),
    };
    let vendor = lookup.map_or(std::ptr::null_mut(), |f| {
        // SAFETY: libglvnd looks the handle up in its own maps; any value is accepted.
        unsafe { f(handle) }
    });
    let index = INDICES[stub].load(Ordering::Acquire);
    let function = match exports.fetch_dispatch_entry {
        // SAFETY: a vendor libglvnd returned and an index it assigned.
        Some(fetch) if !vendor.is_null() && index >= 0 => unsafe { fetch(vendor, index) },
        _ => std::ptr::null(),
    };
    if function.is_null() {
        if let Some(set_error) = exports.set_egl_error {
            // SAFETY: sets libglvnd's thread error.
            unsafe { set_error(error) };
        }
        return None;
    }
    if let Some(set_last_vendor) = exports.set_last_vendor {
        // SAFETY: a vendor libglvnd returned.
        unsafe { set_last_vendor(vendor) };
    }
    Some(function)
}

type QueryDeviceAttrib = unsafe extern "C" fn(Handle, EGLint, *mut EGLAttrib) -> EGLBoolean;
type QueryDeviceString = unsafe extern "C" fn(Handle, EGLint) -> *const c_char;
type SwapWithDamage = unsafe extern "C" fn(Handle, Handle, *const EGLint, EGLint) -> EGLBoolean;

/// The dispatch stub of `eglQueryDeviceAttribEXT`.
///
/// # Safety
/// `value` is null or valid for one write.
unsafe extern "C" fn query_device_attrib(
    device: Handle,
    attribute: EGLint,
    value: *mut EGLAttrib,
) -> EGLBoolean {
    let Some(f) = guard("eglQueryDeviceAttribEXT", None, || {
        dispatch_target(0, Owner::Device(device))
    }) else {
        return 0;
    };
    // SAFETY: the owner's `eglQueryDeviceAttribEXT` (the function of this index), which has
    // this signature; the arguments are the caller's.
    unsafe { std::mem::transmute::<*const c_void, QueryDeviceAttrib>(f)(device, attribute, value) }
}

/// The dispatch stub of `eglQueryDeviceStringEXT`.
extern "C" fn query_device_string(device: Handle, name: EGLint) -> *const c_char {
    let Some(f) = guard("eglQueryDeviceStringEXT", None, || {
        dispatch_target(1, Owner::Device(device))
    }) else {
        return std::ptr::null();
    };
    // SAFETY: the owner's `eglQueryDeviceStringEXT`, which has this signature.
    unsafe { std::mem::transmute::<*const c_void, QueryDeviceString>(f)(device, name) }
}

/// A dispatch stub of `eglSwapBuffersWithDamage*`: the function at `stub`.
///
/// # Safety
/// `rects` is null or valid for `4 * n_rects` reads.
unsafe fn swap_with_damage(
    stub: usize,
    dpy: Handle,
    surface: Handle,
    rects: *const EGLint,
    n_rects: EGLint,
) -> EGLBoolean {
    let Some(f) = guard(STUBS[stub].0, None, || {
        dispatch_target(stub, Owner::Display(dpy))
    }) else {
        return 0;
    };
    // SAFETY: the owner's function of this name, which has this signature; the arguments are
    // the caller's.
    unsafe { std::mem::transmute::<*const c_void, SwapWithDamage>(f)(dpy, surface, rects, n_rects) }
}

/// The dispatch stub of `eglSwapBuffersWithDamageEXT`.
///
/// # Safety
/// `rects` is null or valid for `4 * n_rects` reads.
unsafe extern "C" fn swap_with_damage_ext(
    dpy: Handle,
    surface: Handle,
    rects: *const EGLint,
    n_rects: EGLint,
) -> EGLBoolean {
    // SAFETY: the caller's contract.
    unsafe { swap_with_damage(2, dpy, surface, rects, n_rects) }
}

/// The dispatch stub of `eglSwapBuffersWithDamageKHR`.
///
/// # Safety
/// `rects` is null or valid for `4 * n_rects` reads.
unsafe extern "C" fn swap_with_damage_khr(
    dpy: Handle,
    surface: Handle,
    rects: *const EGLint,
    n_rects: EGLint,
) -> EGLBoolean {
    // SAFETY: the caller's contract.
    unsafe { swap_with_damage(3, dpy, surface, rects, n_rects) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stubs_are_sorted_and_found_by_name() {
        assert!(STUBS.windows(2).all(|w| w[0].0 < w[1].0));
        for (name, f) in &STUBS {
            let c = std::ffi::CString::new(*name).expect("no NUL");
            // SAFETY: a NUL-terminated name.
            assert_eq!(unsafe { get_dispatch_address(c.as_ptr()) }, f.0.cast_mut());
            // Every stubbed function is one of the library's own.
            assert!(crate::egl::lookup(name).is_some(), "{name}");
        }
        for name in [c"eglGetDisplay", c"eglQueryDevicesEXT", c"glClear", c""] {
            // SAFETY: NUL-terminated names.
            assert!(unsafe { get_dispatch_address(name.as_ptr()) }.is_null());
        }
        // SAFETY: null is accepted.
        assert!(unsafe { get_dispatch_address(std::ptr::null()) }.is_null());
    }

    #[test]
    fn the_handshake_fills_the_required_imports_and_refuses_other_major_versions() {
        let exports = ApiExports {
            thread_init: None,
            get_current_api: None,
            get_current_vendor: None,
            get_current_context: None,
            get_current_display: None,
            get_current_surface: None,
            fetch_dispatch_entry: None,
            set_egl_error: None,
            set_last_vendor: None,
            get_vendor_from_display: None,
            get_vendor_from_device: None,
            set_vendor_for_device: None,
        };
        let empty = || ApiImports {
            get_platform_display: None,
            get_supports_api: None,
            get_vendor_string: None,
            get_proc_address: None,
            get_dispatch_address: None,
            set_dispatch_index: None,
            is_patch_supported: None,
            initiate_patch: None,
            release_patch: None,
            patch_thread_attach: None,
            find_native_display_platform: None,
        };
        let mut imports = empty();
        // SAFETY: both tables are live locals.
        let refused = unsafe {
            __egl_Main(
                1 << 16,
                &raw const exports,
                std::ptr::null_mut(),
                &raw mut imports,
            )
        };
        assert_eq!(refused, 0);
        assert!(imports.get_proc_address.is_none());
        // SAFETY: as above.
        let ok = unsafe {
            __egl_Main(
                2,
                &raw const exports,
                std::ptr::null_mut(),
                &raw mut imports,
            )
        };
        assert_eq!(ok, 1);
        assert!(imports.get_platform_display.is_some() && imports.set_dispatch_index.is_some());
        assert!(imports.initiate_patch.is_none() && imports.find_native_display_platform.is_none());
        let supports = imports.get_supports_api.expect("set");
        // SAFETY: takes an enum.
        unsafe {
            assert_eq!(supports(0x30A2), 1);
            assert_eq!(supports(0x30A0), 0);
        }
        let proc_address = imports.get_proc_address.expect("set");
        // SAFETY: NUL-terminated names.
        unsafe {
            assert_eq!(
                proc_address(c"eglMakeCurrent".as_ptr()).cast_const(),
                crate::egl::lookup("eglMakeCurrent").expect("exported")
            );
            assert_eq!(
                proc_address(c"glClear".as_ptr()).cast_const(),
                crate::egl::lookup("glClear").expect("exported")
            );
            assert!(proc_address(c"glNotAFunction".as_ptr()).is_null());
        }
        let vendor_string = imports.get_vendor_string.expect("set");
        // SAFETY: a static string.
        let platforms = unsafe { CStr::from_ptr(vendor_string(VENDOR_STRING_PLATFORM_EXTENSIONS)) };
        assert!(
            platforms
                .to_str()
                .expect("ASCII")
                .contains("EGL_MESA_platform_surfaceless")
        );
        // SAFETY: takes an enum.
        assert!(unsafe { vendor_string(1) }.is_null());
        EXPORTS.store(std::ptr::null_mut(), Ordering::Release);
    }
}

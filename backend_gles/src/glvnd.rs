//! The native driver as a libglvnd EGL vendor library (`libEGL_mesa.so.0`), talked to the
//! way libglvnd's `libEGL.so.1` talks to it, without `libEGL.so.1` in between.
//!
//! On a libglvnd system `libEGL.so.1` is libglvnd's dispatcher, and when Tessera is
//! installed as its vendor (`libEGL_tessera.so.0`, named by `__EGL_VENDOR_LIBRARY_FILENAMES`)
//! every display `libEGL.so.1` hands out is Tessera's own: the backend would draw through
//! itself. So the backend finds the vendors as libglvnd does: the JSON files (`*.json`,
//! sorted by name) of the directories `__EGL_VENDOR_LIBRARY_DIRS` names (colon-separated;
//! ignored in set-id processes, as libglvnd ignores it), else of `/etc/glvnd/egl_vendor.d`
//! and `/usr/share/glvnd/egl_vendor.d`. `__EGL_VENDOR_LIBRARY_FILENAMES` is not read: it is
//! how a program is pointed at Tessera. Each file's `ICD.library_path` is opened as libglvnd
//! opens it (absolute, a bare name the dynamic linker searches for, or relative to the
//! JSON file's directory), with `RTLD_LOCAL`.
//!
//! The vendor's `__egl_Main` gets a minimal exports table and fills the imports, once per
//! process, as libglvnd calls it once. From them the backend takes what libglvnd would: each
//! EGL and GL function from `getProcAddress`, displays from `getPlatformDisplay` (`EGL_NONE`
//! for the default display), and the platform extensions from `getVendorString`. The
//! exports answer as a libglvnd with nothing current and no dispatch indices assigned would:
//! the backend makes its context current through the vendor directly and never calls the
//! vendor's dispatch stubs, the only code that reads them.
//!
//! A vendor keeps the exports of its latest handshake. In a process where libglvnd has
//! loaded the same vendor library for the program (Tessera and Mesa both vendors of one
//! libEGL), the vendor's dispatch stubs, which serve the extension functions the program
//! looks up through libglvnd, then consult these exports and find no vendor for the
//! program's displays of that vendor. With Tessera as libglvnd's only vendor (what
//! `scripts/dropin --glvnd` prints) libglvnd never loads another.
//!
//! A vendor library that itself exports the EGL entry points (`eglGetDisplay`) is an EGL
//! implementation of its own, as Tessera's library is, never the native driver: it is
//! skipped.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use libloading::os::unix::Library;

use crate::egl::open_local;

type EglBoolean = u32;
type EglInt = i32;
type EglEnum = u32;
type Handle = *mut c_void;

const EGL_OPENGL_ES_API: EglEnum = 0x30A0;

/// The vendor ABI version offered to `__egl_Main` (`EGL_VENDOR_ABI_VERSION` of libglvnd
/// 1.6: 0.2).
const ABI_VERSION: u32 = 2;

/// `__EGL_VENDOR_STRING_PLATFORM_EXTENSIONS`.
pub(crate) const VENDOR_STRING_PLATFORM_EXTENSIONS: c_int = 0;

/// libglvnd's vendor-config directories when `__EGL_VENDOR_LIBRARY_DIRS` is unset.
const DEFAULT_DIRS: &str = "/etc/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d";

/// `__EGLvendorInfo`: opaque to the vendor.
#[repr(C)]
struct VendorInfo {
    _opaque: [u8; 0],
}

/// `__EGLapiExports` (libeglabi.h).
#[repr(C)]
struct ApiExports {
    thread_init: unsafe extern "C" fn(),
    get_current_api: unsafe extern "C" fn() -> EglEnum,
    get_current_vendor: unsafe extern "C" fn() -> *mut VendorInfo,
    get_current_context: unsafe extern "C" fn() -> Handle,
    get_current_display: unsafe extern "C" fn() -> Handle,
    get_current_surface: unsafe extern "C" fn(EglInt) -> Handle,
    fetch_dispatch_entry: unsafe extern "C" fn(*mut VendorInfo, c_int) -> *const c_void,
    set_egl_error: unsafe extern "C" fn(EglInt),
    set_last_vendor: unsafe extern "C" fn(*mut VendorInfo) -> EglBoolean,
    get_vendor_from_display: unsafe extern "C" fn(Handle) -> *mut VendorInfo,
    get_vendor_from_device: unsafe extern "C" fn(Handle) -> *mut VendorInfo,
    set_vendor_for_device: unsafe extern "C" fn(Handle, *mut VendorInfo) -> EglBoolean,
}

/// `__EGLapiImports` (libeglabi.h): what the vendor fills in.
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct ApiImports {
    pub get_platform_display:
        Option<unsafe extern "C" fn(EglEnum, *mut c_void, *const isize) -> Handle>,
    pub get_supports_api: Option<unsafe extern "C" fn(EglEnum) -> EglBoolean>,
    pub get_vendor_string: Option<unsafe extern "C" fn(c_int) -> *const c_char>,
    pub get_proc_address: Option<unsafe extern "C" fn(*const c_char) -> *mut c_void>,
    pub get_dispatch_address: Option<unsafe extern "C" fn(*const c_char) -> *mut c_void>,
    pub set_dispatch_index: Option<unsafe extern "C" fn(*const c_char, c_int)>,
    pub is_patch_supported: Option<unsafe extern "C" fn(c_int, c_int) -> u8>,
    pub initiate_patch: Option<unsafe extern "C" fn(c_int, c_int, *const c_void) -> u8>,
    pub release_patch: Option<unsafe extern "C" fn()>,
    pub patch_thread_attach: Option<unsafe extern "C" fn()>,
    pub find_native_display_platform: Option<unsafe extern "C" fn(*mut c_void) -> EglEnum>,
}

type EglMain =
    unsafe extern "C" fn(u32, *const ApiExports, *mut VendorInfo, *mut ApiImports) -> EglBoolean;

extern "C" fn thread_init() {}
extern "C" fn get_current_api() -> EglEnum {
    EGL_OPENGL_ES_API
}
extern "C" fn no_vendor() -> *mut VendorInfo {
    std::ptr::null_mut()
}
extern "C" fn no_handle() -> Handle {
    std::ptr::null_mut()
}
extern "C" fn no_surface(_read_draw: EglInt) -> Handle {
    std::ptr::null_mut()
}
extern "C" fn no_dispatch_entry(_vendor: *mut VendorInfo, _index: c_int) -> *const c_void {
    std::ptr::null()
}
extern "C" fn set_egl_error(_error: EglInt) {}
extern "C" fn set_last_vendor(_vendor: *mut VendorInfo) -> EglBoolean {
    1
}
extern "C" fn vendor_of(_handle: Handle) -> *mut VendorInfo {
    std::ptr::null_mut()
}
extern "C" fn set_vendor_for_device(_device: Handle, _vendor: *mut VendorInfo) -> EglBoolean {
    1
}

/// The exports every vendor gets: libglvnd with nothing current, no dispatch index assigned
/// and no display or device mapped (see the module's documentation).
static EXPORTS: ApiExports = ApiExports {
    thread_init,
    get_current_api,
    get_current_vendor: no_vendor,
    get_current_context: no_handle,
    get_current_display: no_handle,
    get_current_surface: no_surface,
    fetch_dispatch_entry: no_dispatch_entry,
    set_egl_error,
    set_last_vendor,
    get_vendor_from_display: vendor_of,
    get_vendor_from_device: vendor_of,
    set_vendor_for_device,
};

/// The byte whose address identifies the backend to the vendors (`__EGLvendorInfo*`).
static VENDOR_ANCHOR: u8 = 0;

/// The imports of every vendor whose `__egl_Main` ran, by the address of its `__egl_Main`.
static HANDSHAKES: Mutex<Vec<(usize, ApiImports)>> = Mutex::new(Vec::new());

/// A vendor library named by a JSON file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VendorFile {
    /// The JSON file.
    pub json: PathBuf,
    /// What is handed to the dynamic linker: the library path, resolved as libglvnd does.
    pub library: PathBuf,
}

unsafe extern "C" {
    safe fn getuid() -> u32;
    safe fn geteuid() -> u32;
    safe fn getgid() -> u32;
    safe fn getegid() -> u32;
}

/// The directories libglvnd reads vendor JSON files from, in order.
pub(crate) fn vendor_dirs() -> Vec<PathBuf> {
    let set_id = getuid() != geteuid() || getgid() != getegid();
    let env = (!set_id)
        .then(|| std::env::var_os("__EGL_VENDOR_LIBRARY_DIRS"))
        .flatten();
    let dirs = env.map_or_else(|| DEFAULT_DIRS.into(), |d| d.to_string_lossy().into_owned());
    dirs.split(':')
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .collect()
}

/// The library a vendor JSON file names, if it is a file of the format libglvnd reads
/// (`file_format_version` 1.0, `ICD.library_path`).
pub(crate) fn parse_vendor_file(json: &Path, text: &str) -> Option<VendorFile> {
    let root: serde_json::Value = serde_json::from_str(text).ok()?;
    let version = root.get("file_format_version")?.as_str()?;
    let mut parts = version.split('.');
    let major: u32 = parts.next()?.trim().parse().ok()?;
    let minor: u32 = parts.next().map_or(Some(0), |m| m.trim().parse().ok())?;
    if major != 1 || minor > 0 {
        return None;
    }
    let name = root.get("ICD")?.get("library_path")?.as_str()?;
    if name.is_empty() {
        return None;
    }
    let library = if name.starts_with('/') || !name.contains('/') {
        PathBuf::from(name)
    } else {
        // Relative to the JSON file's real directory.
        let real = std::fs::canonicalize(json).ok()?;
        real.parent()?.join(name)
    };
    Some(VendorFile {
        json: json.to_path_buf(),
        library,
    })
}

/// The JSON files of the vendor directories in libglvnd's order (each directory's `*.json`
/// sorted by file name), and the libraries the well-formed ones name.
pub(crate) fn vendor_files(dirs: &[PathBuf]) -> (usize, Vec<VendorFile>) {
    let mut found = 0;
    let mut vendors = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut names: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|e| e.file_name())
            .filter(|n| n.to_string_lossy().ends_with(".json"))
            .collect();
        names.sort();
        for name in names {
            let path = dir.join(name);
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            found += 1;
            vendors.extend(parse_vendor_file(&path, &text));
        }
    }
    (found, vendors)
}

/// A vendor library after its handshake.
pub(crate) struct Vendor {
    /// What the vendor filled in.
    pub imports: ApiImports,
    /// `getPlatformDisplay`.
    pub get_platform_display: unsafe extern "C" fn(EglEnum, *mut c_void, *const isize) -> Handle,
    /// `getProcAddress`.
    pub get_proc_address: unsafe extern "C" fn(*const c_char) -> *mut c_void,
    /// The library, kept loaded.
    pub lib: Library,
}

impl Vendor {
    /// Opens a vendor library and runs its handshake; why not, if it cannot be the native
    /// driver.
    pub fn open(library: &Path) -> Result<Vendor, String> {
        let lib = open_local(library).map_err(|e| e.to_string())?;
        Self::handshake(lib)
    }

    /// Runs the handshake of an opened library.
    pub fn handshake(lib: Library) -> Result<Vendor, String> {
        // SAFETY: only turned into an address, to see whether the symbol exists.
        if unsafe { lib.get::<*const c_void>(b"eglGetDisplay\0") }.is_ok() {
            return Err("exports the EGL entry points: an EGL of its own (Tessera's?)".into());
        }
        // SAFETY: `__egl_Main` has the signature libeglabi.h gives it.
        let main = unsafe { lib.get::<EglMain>(b"__egl_Main\0") }
            .map(|s| *s)
            .map_err(|_| "no __egl_Main: not a libglvnd EGL vendor".to_owned())?;
        // One handshake per loaded library, as libglvnd makes: a vendor may reset its state
        // in `__egl_Main`, and the library stays loaded (RTLD_NODELETE).
        let mut done = HANDSHAKES.lock().unwrap_or_else(PoisonError::into_inner);
        let key = main as usize;
        let imports = match done.iter().find(|(k, _)| *k == key) {
            Some(&(_, imports)) => imports,
            None => {
                let imports = Self::call_main(main)?;
                done.push((key, imports));
                imports
            }
        };
        drop(done);
        let (Some(get_platform_display), Some(get_supports_api), Some(get_proc_address)) = (
            imports.get_platform_display,
            imports.get_supports_api,
            imports.get_proc_address,
        ) else {
            return Err("__egl_Main left a required import null".into());
        };
        // SAFETY: takes an enum.
        if unsafe { get_supports_api(EGL_OPENGL_ES_API) } == 0 {
            return Err("does not offer OpenGL ES".into());
        }
        Ok(Vendor {
            imports,
            get_platform_display,
            get_proc_address,
            lib,
        })
    }

    /// Calls a vendor's `__egl_Main`: the imports it filled in.
    fn call_main(main: EglMain) -> Result<ApiImports, String> {
        let mut imports = ApiImports {
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
        let anchor = std::ptr::from_ref(&VENDOR_ANCHOR)
            .cast_mut()
            .cast::<VendorInfo>();
        // SAFETY: the exports table is static (valid while the vendor is loaded, which is
        // forever: RTLD_NODELETE); the imports table is zeroed and of ABI 0.2's layout, which
        // is what the version offered asks the vendor to fill; the vendor pointer is an
        // address of ours that the vendor only passes back.
        let ok = unsafe { main(ABI_VERSION, &raw const EXPORTS, anchor, &raw mut imports) };
        if ok == 0 {
            return Err(format!("__egl_Main refused ABI 0.{ABI_VERSION}"));
        }
        Ok(imports)
    }

    /// The vendor's platform extensions (`getVendorString`), empty if it has none.
    pub fn platform_extensions(&self) -> String {
        let Some(get_vendor_string) = self.imports.get_vendor_string else {
            return String::new();
        };
        // SAFETY: takes an enum; returns null or a static NUL-terminated string.
        let s = unsafe { get_vendor_string(VENDOR_STRING_PLATFORM_EXTENSIONS) };
        if s.is_null() {
            return String::new();
        }
        // SAFETY: non-null: a NUL-terminated string owned by the vendor.
        unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendor_files_are_read_as_libglvnd_reads_them() {
        let dir = std::env::temp_dir().join(format!("tessera-glvnd-json-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).expect("write");
        write(
            "50_b.json",
            r#"{"file_format_version": "1.0.0", "ICD": {"library_path": "libEGL_b.so.0"}}"#,
        );
        write(
            "10_a.json",
            r#"{"file_format_version": "1.0", "ICD": {"library_path": "/opt/a/libEGL_a.so.0"}}"#,
        );
        write(
            "20_rel.json",
            r#"{"file_format_version": "1", "ICD": {"library_path": "../lib/libEGL_r.so.0"}}"#,
        );
        write(
            "30_newer.json",
            r#"{"file_format_version": "1.1.0", "ICD": {"library_path": "libEGL_n.so.0"}}"#,
        );
        write("40_broken.json", "{");
        write("60_other.txt", r#"{"file_format_version": "1.0.0"}"#);
        let (found, vendors) = vendor_files(&[dir.clone(), dir.join("missing")]);
        assert_eq!(found, 5, "the .json files, read or not");
        let libraries: Vec<_> = vendors.iter().map(|v| v.library.clone()).collect();
        let real = std::fs::canonicalize(&dir).expect("real path");
        assert_eq!(
            libraries,
            [
                PathBuf::from("/opt/a/libEGL_a.so.0"),
                real.join("../lib/libEGL_r.so.0"),
                PathBuf::from("libEGL_b.so.0"),
            ]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_default_directories_are_libglvnd_s() {
        if std::env::var_os("__EGL_VENDOR_LIBRARY_DIRS").is_none() {
            assert_eq!(
                vendor_dirs(),
                [
                    PathBuf::from("/etc/glvnd/egl_vendor.d"),
                    PathBuf::from("/usr/share/glvnd/egl_vendor.d")
                ]
            );
        }
    }
}

//! The native EGL devices of this machine, as a server's device list sees them
//! (`tessera_wire::transport::devices`).
//!
//! With `EGL_EXT_device_enumeration` every EGL device is listed: its name
//! (`EGL_EXT_device_query_name`, else its DRM node, else its index), vendor, UUID
//! (`EGL_EXT_device_persistent_id`), and kind `cpu` for Mesa's software device
//! (`EGL_MESA_device_software`). The GLES backend makes its display as it always does (the
//! driver's default display), not on a chosen device, so it is listed as driving a device
//! only when there is exactly one; several EGL devices are listed for status with no backend.
//! Without the extension the default display is one device, `native EGL`. EGL states no
//! memory size: a device's budget is the machine's memory (`MemTotal`).
//!
//! [`native_dma_buf`] says what the GLES backend's display offers of the dma-buf extensions.

use std::ffi::{CStr, c_char, c_void};
use std::path::Path;

use tessera_wire::transport::devices::{Device, DeviceKind};

use crate::egl::{EGL_CANDIDATES, open_local, sym};

pub use crate::egl_image::{DmaBufFormat, DmaBufOffer, native_dma_buf};

type EglDevice = *mut c_void;
type QueryDevices = unsafe extern "C" fn(i32, *mut EglDevice, *mut i32) -> u32;
type QueryDeviceString = unsafe extern "C" fn(EglDevice, i32) -> *const c_char;
type QueryDeviceBinary = unsafe extern "C" fn(EglDevice, i32, i32, *mut c_void, *mut i32) -> u32;
type QueryString = unsafe extern "C" fn(*mut c_void, i32) -> *const c_char;
type GetProcAddress = unsafe extern "C" fn(*const c_char) -> *mut c_void;

const EGL_EXTENSIONS: i32 = 0x3055;
const EGL_VENDOR: i32 = 0x3053;
const EGL_RENDERER_EXT: i32 = 0x335F;
const EGL_DRM_DEVICE_FILE_EXT: i32 = 0x3233;
const EGL_DEVICE_UUID_EXT: i32 = 0x335C;

/// The machine's memory in bytes (`MemTotal` of `/proc/meminfo`), 0 if unknown.
fn machine_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kib| kib << 10)
}

/// A C string from EGL, or `None` for null.
///
/// # Safety
/// `p` is null or a NUL-terminated string that lives for the call.
unsafe fn text(p: *const c_char) -> Option<String> {
    // SAFETY: the caller's contract.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// Every native EGL device, or the default display as one device; empty when no EGL loads.
pub fn devices() -> Vec<Device> {
    let Some((path, lib)) = EGL_CANDIDATES
        .iter()
        .find_map(|p| open_local(Path::new(p)).ok().map(|lib| (Path::new(p), lib)))
    else {
        return Vec::new();
    };
    let memory = machine_memory();
    let default = || Device {
        name: "native EGL".to_owned(),
        vendor: "egl".to_owned(),
        uuid: [0; 16],
        kind: DeviceKind::Other,
        backends: vec!["gles".to_owned()],
        budget: memory,
        speed: 1.0,
        limits: Vec::new(),
        synthetic: false,
        events: Vec::new(),
    };
    let (Ok(get_proc), Ok(query_string)) = (
        sym::<GetProcAddress>(&lib, path, "eglGetProcAddress"),
        sym::<QueryString>(&lib, path, "eglQueryString"),
    ) else {
        return vec![default()];
    };
    // SAFETY: EGL_NO_DISPLAY with EGL_EXTENSIONS asks for the client extensions (EGL 1.5,
    // EGL_EXT_client_extensions); the answer is null or a static string.
    let client =
        unsafe { text(query_string(std::ptr::null_mut(), EGL_EXTENSIONS)) }.unwrap_or_default();
    let has = |list: &str, ext: &str| list.split_whitespace().any(|e| e == ext);
    if !has(&client, "EGL_EXT_device_enumeration") && !has(&client, "EGL_EXT_device_base") {
        return vec![default()];
    }
    let proc = |name: &CStr| {
        // SAFETY: a NUL-terminated name; EGL returns null or its function of that name.
        let p = unsafe { get_proc(name.as_ptr()) };
        (!p.is_null()).then_some(p)
    };
    let (Some(query_devices), Some(query_device_string)) = (
        proc(c"eglQueryDevicesEXT"),
        proc(c"eglQueryDeviceStringEXT"),
    ) else {
        return vec![default()];
    };
    // SAFETY: the addresses of the EXT_device_enumeration / EXT_device_query functions of
    // these names, whose signatures the types spell out.
    let (query_devices, query_device_string): (QueryDevices, QueryDeviceString) = unsafe {
        (
            std::mem::transmute::<*mut c_void, QueryDevices>(query_devices),
            std::mem::transmute::<*mut c_void, QueryDeviceString>(query_device_string),
        )
    };
    let query_device_binary = proc(c"eglQueryDeviceBinaryEXT").map(|p| {
        // SAFETY: the address of EXT_device_persistent_id's function of that name.
        unsafe { std::mem::transmute::<*mut c_void, QueryDeviceBinary>(p) }
    });
    let mut count = 0;
    // SAFETY: a null array with size 0 asks for the count only.
    if unsafe { query_devices(0, std::ptr::null_mut(), &mut count) } == 0 || count <= 0 {
        return vec![default()];
    }
    let mut handles = vec![std::ptr::null_mut(); count as usize];
    // SAFETY: `handles` has room for `count` devices.
    if unsafe { query_devices(count, handles.as_mut_ptr(), &mut count) } == 0 {
        return vec![default()];
    }
    handles.truncate(count.max(0) as usize);
    let only = handles.len() == 1;
    let found = handles
        .iter()
        .enumerate()
        .map(|(index, &dev)| {
            // SAFETY: a device EGL returned; the answers are null or strings EGL keeps.
            let string = |name| unsafe { text(query_device_string(dev, name)) };
            let exts = string(EGL_EXTENSIONS).unwrap_or_default();
            let named = has(&exts, "EGL_EXT_device_query_name");
            let name = named
                .then(|| string(EGL_RENDERER_EXT))
                .flatten()
                .or_else(|| {
                    has(&exts, "EGL_EXT_device_drm")
                        .then(|| string(EGL_DRM_DEVICE_FILE_EXT))
                        .flatten()
                })
                .unwrap_or_else(|| format!("EGL device {index}"));
            let mut uuid = [0u8; 16];
            uuid[8..].copy_from_slice(&(index as u64).to_be_bytes());
            if has(&exts, "EGL_EXT_device_persistent_id")
                && let Some(binary) = query_device_binary
            {
                let mut got = [0u8; 16];
                let mut size = 0;
                // SAFETY: `got` holds 16 bytes, the size passed.
                let ok = unsafe {
                    binary(
                        dev,
                        EGL_DEVICE_UUID_EXT,
                        16,
                        got.as_mut_ptr().cast(),
                        &mut size,
                    )
                };
                if ok != 0 && size == 16 {
                    uuid = got;
                }
            }
            let kind = if has(&exts, "EGL_MESA_device_software") {
                DeviceKind::Cpu
            } else {
                DeviceKind::Other
            };
            Device {
                name,
                vendor: named
                    .then(|| string(EGL_VENDOR))
                    .flatten()
                    .unwrap_or_else(|| "egl".to_owned()),
                uuid,
                kind,
                backends: if only {
                    vec!["gles".to_owned()]
                } else {
                    Vec::new()
                },
                budget: memory,
                speed: 1.0,
                limits: Vec::new(),
                synthetic: false,
                events: Vec::new(),
            }
        })
        .collect();
    // The library stays loaded (opened RTLD_NODELETE): EGL's vendor libraries keep
    // thread-exit destructors mapped.
    drop(lib);
    found
}

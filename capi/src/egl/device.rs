//! EGL devices: `EGL_EXT_device_base` (`EGL_EXT_device_enumeration` and
//! `EGL_EXT_device_query`) and `EGL_EXT_platform_device`, the way headless programs pick a
//! display: `eglQueryDevicesEXT`, then `eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT,
//! device, NULL)`.
//!
//! There is one device, Tessera's (whatever backend renders). Its display is the surfaceless
//! platform's display (the same handle: pbuffers and surfaceless contexts, the same configs),
//! and every display reports it as its `EGL_DEVICE_EXT`. The device has no device
//! extensions and no attributes. Its handle is the address of a static anchor, so it is
//! stable and never a small integer an application might pass by mistake.
//!
//! Errors follow the extensions and Mesa (behind libglvnd): a bad device is
//! `EGL_BAD_DEVICE_EXT` to the query functions, and `EGL_BAD_PARAMETER` to
//! `eglGetPlatformDisplay` (`EGL_EXT_platform_device` names no error; `EGL_BAD_PARAMETER` is
//! what the system EGL reports).

use std::ffi::{CStr, CString, c_char};
use std::sync::LazyLock;

use tessera_engine::egl::display::CLIENT_EXTENSIONS;
use tessera_engine::egl::tokens::EXTENSIONS;
use tessera_engine::egl::{EglError, Platform};

use super::{EGLAttrib, EGLBoolean, EGLint, Handle, egl_call, handle, id};
use crate::current::set_error;
use crate::ptr;

/// `EGL_BAD_DEVICE_EXT`.
pub const BAD_DEVICE_EXT: EGLint = 0x322B;
/// `EGL_DEVICE_EXT` (`eglQueryDisplayAttribEXT`).
pub const DEVICE_EXT: EGLint = 0x322C;

/// The client extensions this module adds to the engine's.
const DEVICE_CLIENT_EXTENSIONS: [&str; 4] = [
    "EGL_EXT_device_base",
    "EGL_EXT_device_enumeration",
    "EGL_EXT_device_query",
    "EGL_EXT_platform_device",
];

/// `EGL_EXTENSIONS` of `EGL_NO_DISPLAY`: the engine's client extensions and the device
/// ones, sorted (built once; valid for the life of the process).
pub fn client_extensions() -> &'static CStr {
    static ALL: LazyLock<CString> = LazyLock::new(|| {
        let engine = CLIENT_EXTENSIONS.to_str().unwrap_or_default();
        let mut names: Vec<&str> = engine
            .split_ascii_whitespace()
            .chain(DEVICE_CLIENT_EXTENSIONS)
            .collect();
        names.sort_unstable();
        names.dedup();
        CString::new(names.join(" ")).unwrap_or_default()
    });
    &ALL
}

/// `EGL_EXTENSIONS` of the device: none.
const DEVICE_EXTENSIONS: &CStr = c"";

/// The byte whose address is the device's handle.
static DEVICE_ANCHOR: u8 = 0;

/// The device's handle.
pub fn device_handle() -> usize {
    std::ptr::from_ref(&DEVICE_ANCHOR) as usize
}

/// Runs a query on `device`: `EGL_BAD_DEVICE_EXT` (and `default`) if it is not the device,
/// else `f` under [`egl_call`].
fn device_call<R>(
    name: &'static str,
    default: R,
    dev: Handle,
    f: impl FnOnce() -> Result<R, EglError>,
) -> R {
    if id(dev) != device_handle() {
        crate::logging::init();
        set_error(BAD_DEVICE_EXT);
        return default;
    }
    egl_call(name, default, |_, _| f())
}

/// `eglGetPlatformDisplay(EXT)` with `EGL_PLATFORM_DEVICE_EXT`: the surfaceless display for
/// the device (`EGL_BAD_PARAMETER` for anything else); no attributes are recognised.
pub(crate) fn device_display(name: &'static str, dev: Handle, list: &[(i32, i32)]) -> Handle {
    egl_call(name, std::ptr::null_mut(), |_, reg| {
        if id(dev) != device_handle() {
            return Err(EglError::BadParameter);
        }
        if !list.is_empty() {
            return Err(EglError::BadAttribute);
        }
        Ok(handle(reg.get_display(Platform::Surfaceless)))
    })
}

/// `eglQueryDevicesEXT` (`EGL_EXT_device_enumeration`): with `devices` null, the number of
/// devices (one); else up to `max_devices` of them. `EGL_BAD_PARAMETER` if `num_devices` is
/// null, or `devices` is not and `max_devices` is not positive.
///
/// # Safety
/// `devices` is null or valid for `max_devices` writes; `num_devices` is null or valid for
/// one.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglQueryDevicesEXT(
    max_devices: EGLint,
    devices: *mut Handle,
    num_devices: *mut EGLint,
) -> EGLBoolean {
    egl_call("eglQueryDevicesEXT", 0, |_, _| {
        if num_devices.is_null() || (!devices.is_null() && max_devices <= 0) {
            return Err(EglError::BadParameter);
        }
        let n = if devices.is_null() {
            1
        } else {
            // SAFETY: the caller's contract; `max_devices` is positive.
            let out = unsafe { ptr::slice_mut(devices, ptr::len(max_devices)) };
            out[0] = handle(device_handle());
            1
        };
        // SAFETY: the caller's contract; not null.
        unsafe { ptr::write(num_devices, n) };
        Ok(1)
    })
}

/// `eglQueryDeviceStringEXT` (`EGL_EXT_device_query`): `EGL_EXTENSIONS` is the device's
/// (empty) extension string; other names are `EGL_BAD_PARAMETER`.
#[unsafe(no_mangle)]
pub extern "C" fn eglQueryDeviceStringEXT(device: Handle, name: EGLint) -> *const c_char {
    device_call(
        "eglQueryDeviceStringEXT",
        std::ptr::null(),
        device,
        || match name {
            EXTENSIONS => Ok(DEVICE_EXTENSIONS.as_ptr()),
            _ => Err(EglError::BadParameter),
        },
    )
}

/// `eglQueryDeviceAttribEXT` (`EGL_EXT_device_query`): the device has no attributes, so
/// every one is `EGL_BAD_ATTRIBUTE`.
#[unsafe(no_mangle)]
pub extern "C" fn eglQueryDeviceAttribEXT(
    device: Handle,
    _attribute: EGLint,
    _value: *mut EGLAttrib,
) -> EGLBoolean {
    device_call("eglQueryDeviceAttribEXT", 0, device, || {
        Err(EglError::BadAttribute)
    })
}

/// `eglQueryDisplayAttribEXT` (`EGL_EXT_device_query`): `EGL_DEVICE_EXT` of an initialized
/// display is the device; other attributes are `EGL_BAD_ATTRIBUTE`, a null `value`
/// `EGL_BAD_PARAMETER`.
///
/// # Safety
/// `value` is null or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglQueryDisplayAttribEXT(
    dpy: Handle,
    attribute: EGLint,
    value: *mut EGLAttrib,
) -> EGLBoolean {
    egl_call("eglQueryDisplayAttribEXT", 0, |_, reg| {
        reg.check_initialized(id(dpy))?;
        if attribute != DEVICE_EXT {
            return Err(EglError::BadAttribute);
        }
        if value.is_null() {
            return Err(EglError::BadParameter);
        }
        // SAFETY: the caller's contract; not null.
        unsafe { ptr::write(value, device_handle() as EGLAttrib) };
        Ok(1)
    })
}

#[cfg(test)]
mod tests {
    use tessera_engine::egl::tokens::{BAD_ATTRIBUTE, BAD_PARAMETER, VENDOR};

    use super::*;

    #[test]
    fn client_extensions_add_the_device_ones_to_the_engine_s() {
        let all = client_extensions().to_str().expect("ASCII");
        let names: Vec<&str> = all.split(' ').collect();
        assert!(names.windows(2).all(|w| w[0] < w[1]), "{all}");
        for name in CLIENT_EXTENSIONS
            .to_str()
            .expect("ASCII")
            .split(' ')
            .chain(DEVICE_CLIENT_EXTENSIONS)
        {
            assert!(names.contains(&name), "{name} missing from {all}");
        }
    }

    #[test]
    fn one_device_is_enumerated_and_bad_arguments_are_bad_parameter() {
        let mut n = 0;
        // SAFETY: `num_devices` is valid for one write.
        let counted = unsafe { eglQueryDevicesEXT(0, std::ptr::null_mut(), &raw mut n) };
        assert_eq!((counted, n), (1, 1));
        let mut devices = [std::ptr::null_mut(); 3];
        // SAFETY: `devices` is valid for 3 writes, `num_devices` for one.
        let listed = unsafe { eglQueryDevicesEXT(3, devices.as_mut_ptr(), &raw mut n) };
        assert_eq!((listed, n, id(devices[0])), (1, 1, device_handle()));
        assert!(devices[1].is_null());
        // SAFETY: nothing is written on these failures.
        unsafe {
            assert_eq!(eglQueryDevicesEXT(0, devices.as_mut_ptr(), &raw mut n), 0);
            assert_eq!(eglQueryDevicesEXT(-1, devices.as_mut_ptr(), &raw mut n), 0);
            assert_eq!(
                eglQueryDevicesEXT(3, devices.as_mut_ptr(), std::ptr::null_mut()),
                0
            );
        }
        assert_eq!(super::super::eglGetError(), BAD_PARAMETER);
    }

    #[test]
    fn device_queries_check_the_device_first() {
        let dev = handle(device_handle());
        assert_eq!(
            // SAFETY: a static NUL-terminated string.
            unsafe { CStr::from_ptr(eglQueryDeviceStringEXT(dev, EXTENSIONS)) },
            c""
        );
        assert!(eglQueryDeviceStringEXT(dev, VENDOR).is_null());
        assert_eq!(super::super::eglGetError(), BAD_PARAMETER);
        assert!(eglQueryDeviceStringEXT(handle(16), EXTENSIONS).is_null());
        assert_eq!(super::super::eglGetError(), BAD_DEVICE_EXT);
        let mut v = 0;
        assert_eq!(eglQueryDeviceAttribEXT(dev, DEVICE_EXT, &raw mut v), 0);
        assert_eq!(super::super::eglGetError(), BAD_ATTRIBUTE);
        assert_eq!(
            eglQueryDeviceAttribEXT(std::ptr::null_mut(), 0, &raw mut v),
            0
        );
        assert_eq!(super::super::eglGetError(), BAD_DEVICE_EXT);
    }
}

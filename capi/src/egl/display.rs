//! Displays, initialization, strings and configs.

use std::ffi::c_char;

use tessera_engine::egl::display::config_handle;
use tessera_engine::egl::tokens::{
    self, EXTENSIONS, PLATFORM_DEVICE_EXT, PLATFORM_WAYLAND_KHR, PLATFORM_X11_KHR,
    PLATFORM_X11_SCREEN_EXT, PLATFORM_XCB_EXT,
};
use tessera_engine::egl::window::WindowSystem;
use tessera_engine::egl::{EglError, Platform};

use super::device::{client_extensions, device_display};
use super::{EGLAttrib, EGLBoolean, EGLenum, EGLint, Handle, boolean, egl_call, handle, id};
use crate::ptr;
use crate::winsys::wayland::Wayland;
use crate::winsys::x11::X11;

/// `eglGetDisplay`: `EGL_DEFAULT_DISPLAY` gives the default (offscreen) display, unless
/// `EGL_PLATFORM` names a window platform; a native display is taken for the platform
/// `EGL_PLATFORM` names, else guessed as Mesa guesses it (a `wl_display` starts with a
/// pointer to `wl_display_interface`; anything else is an Xlib `Display*`). A display that
/// cannot be used gives `EGL_NO_DISPLAY` (without an error, as EGL 1.5 §3.2 says).
///
/// # Safety
/// `display_id` is `EGL_DEFAULT_DISPLAY` or a live native display.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglGetDisplay(display_id: Handle) -> Handle {
    let platform = match std::env::var("EGL_PLATFORM").ok().as_deref() {
        Some("x11") => Some(Platform::X11),
        Some("xcb") => Some(Platform::Xcb),
        Some("wayland") => Some(Platform::Wayland),
        Some("surfaceless") => Some(Platform::Surfaceless),
        _ if display_id.is_null() => None,
        // SAFETY: a non-null native display is a live `Display*` or `wl_display*` (the
        // caller's contract); only its first word is read.
        _ if unsafe { is_wayland_display(display_id) } => Some(Platform::Wayland),
        _ => Some(Platform::X11),
    };
    match platform {
        Some(platform @ (Platform::X11 | Platform::Xcb | Platform::Wayland)) => {
            let display = egl_call("eglGetDisplay", std::ptr::null_mut(), |_, reg| {
                window_display(reg, platform, display_id, &[]).map(handle)
            });
            crate::current::set_error(tokens::SUCCESS);
            display
        }
        Some(Platform::Surfaceless) if display_id.is_null() => {
            egl_call("eglGetDisplay", std::ptr::null_mut(), |_, reg| {
                Ok(handle(reg.get_display(Platform::Surfaceless)))
            })
        }
        None => egl_call("eglGetDisplay", std::ptr::null_mut(), |_, reg| {
            Ok(handle(reg.get_display(Platform::Default)))
        }),
        _ => std::ptr::null_mut(),
    }
}

/// Whether a native display is a `wl_display` (its first word is the address of
/// libwayland-client's `wl_display_interface`), as Mesa tells them apart.
///
/// # Safety
/// `display` points at a live native display of at least one pointer.
unsafe fn is_wayland_display(display: Handle) -> bool {
    // SAFETY: a NUL-terminated name; RTLD_DEFAULT searches the loaded objects.
    let interface = unsafe { dlsym(RTLD_DEFAULT, c"wl_display_interface".as_ptr()) };
    // SAFETY: the caller's contract.
    !interface.is_null() && unsafe { display.cast::<Handle>().read_unaligned() } == interface
}

const RTLD_DEFAULT: Handle = std::ptr::null_mut();

unsafe extern "C" {
    fn dlsym(handle: Handle, symbol: *const c_char) -> Handle;
}

/// The display of a window platform (X11, XCB, Wayland) for a native display (null: the
/// default one).
pub(crate) fn window_display(
    reg: &mut tessera_engine::egl::Registry,
    platform: Platform,
    native: Handle,
    list: &[(i32, i32)],
) -> Result<usize, EglError> {
    let mut screen = None;
    for &(attribute, value) in list {
        match attribute {
            PLATFORM_X11_SCREEN_EXT if platform != Platform::Wayland => {
                screen = Some(value.max(0) as usize);
            }
            _ => return Err(EglError::BadAttribute),
        }
    }
    reg.native_display(platform, native as usize, || {
        // SAFETY: a native display the program passed stays alive while EGL uses it (EGL's
        // contract for native displays).
        let windows = unsafe {
            match platform {
                Platform::Xcb => X11::from_xcb(native, screen.unwrap_or(0)).map(shared),
                Platform::Wayland => Wayland::from_display(native).map(shared),
                _ => X11::from_xlib(native).map(shared),
            }
        };
        match windows {
            Ok(windows) => Ok(windows),
            Err(e) => {
                log::error!(
                    "tessera: the {} display cannot be used: {e}",
                    platform.name()
                );
                Err(EglError::BadParameter)
            }
        }
    })
}

/// A window system as a display keeps it.
fn shared(windows: impl WindowSystem + 'static) -> std::sync::Arc<dyn WindowSystem> {
    std::sync::Arc::new(windows)
}

/// `eglGetPlatformDisplay(EXT)` for the window platforms (X11, XCB, Wayland), `None` for the
/// others.
fn platform_window_display(
    name: &'static str,
    platform: EGLenum,
    native: Handle,
    list: &[(i32, i32)],
) -> Option<Handle> {
    let platform = match platform as EGLint {
        PLATFORM_X11_KHR => Platform::X11,
        PLATFORM_XCB_EXT => Platform::Xcb,
        PLATFORM_WAYLAND_KHR => Platform::Wayland,
        _ => return None,
    };
    Some(egl_call(name, std::ptr::null_mut(), |_, reg| {
        window_display(reg, platform, native, list).map(handle)
    }))
}

/// `eglGetPlatformDisplay`. `EGL_PLATFORM_DEVICE_EXT` with Tessera's device (from
/// [`eglQueryDevicesEXT`](super::eglQueryDevicesEXT)) gives the surfaceless display; the
/// other platforms are the engine's.
///
/// # Safety
/// `attrib_list` is null or an `EGL_NONE`-terminated list.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglGetPlatformDisplay(
    platform: EGLenum,
    native_display: Handle,
    attrib_list: *const EGLAttrib,
) -> Handle {
    // SAFETY: the caller's contract.
    let list = unsafe { ptr::attribs_wide(attrib_list) };
    if platform as EGLint == PLATFORM_DEVICE_EXT {
        return device_display("eglGetPlatformDisplay", native_display, &list);
    }
    if let Some(d) =
        platform_window_display("eglGetPlatformDisplay", platform, native_display, &list)
    {
        return d;
    }
    egl_call("eglGetPlatformDisplay", std::ptr::null_mut(), |_, reg| {
        reg.get_platform_display(platform as i32, native_display.is_null(), &list)
            .map(handle)
    })
}

/// `eglGetPlatformDisplayEXT` (`EGL_EXT_platform_base`: `EGLint` attributes; devices as
/// [`eglGetPlatformDisplay`]).
///
/// # Safety
/// `attrib_list` is null or an `EGL_NONE`-terminated list.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglGetPlatformDisplayEXT(
    platform: EGLenum,
    native_display: Handle,
    attrib_list: *const EGLint,
) -> Handle {
    // SAFETY: the caller's contract.
    let list = unsafe { ptr::attribs(attrib_list) };
    if platform as EGLint == PLATFORM_DEVICE_EXT {
        return device_display("eglGetPlatformDisplayEXT", native_display, &list);
    }
    if let Some(d) =
        platform_window_display("eglGetPlatformDisplayEXT", platform, native_display, &list)
    {
        return d;
    }
    egl_call(
        "eglGetPlatformDisplayEXT",
        std::ptr::null_mut(),
        |_, reg| {
            reg.get_platform_display(platform as i32, native_display.is_null(), &list)
                .map(handle)
        },
    )
}

/// `eglInitialize`.
///
/// # Safety
/// `major` and `minor` are null or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglInitialize(
    dpy: Handle,
    major: *mut EGLint,
    minor: *mut EGLint,
) -> EGLBoolean {
    let version = egl_call("eglInitialize", None, |_, reg| {
        reg.initialize(id(dpy)).map(Some)
    });
    if let Some((ma, mi)) = version {
        // SAFETY: the caller's contract.
        unsafe {
            ptr::write(major, ma);
            ptr::write(minor, mi);
        }
    }
    boolean(version.is_some())
}

/// `eglTerminate`.
#[unsafe(no_mangle)]
pub extern "C" fn eglTerminate(dpy: Handle) -> EGLBoolean {
    egl_call("eglTerminate", 0, |_, reg| {
        reg.terminate(id(dpy)).map(|()| 1)
    })
}

/// `eglQueryString`: static strings, valid for the life of the process. The client
/// extensions are the engine's and the device ones ([`client_extensions`]).
#[unsafe(no_mangle)]
pub extern "C" fn eglQueryString(dpy: Handle, name: EGLint) -> *const c_char {
    egl_call("eglQueryString", std::ptr::null(), |_, reg| {
        if dpy.is_null() && name == EXTENSIONS {
            return Ok(client_extensions().as_ptr());
        }
        let dpy = (!dpy.is_null()).then(|| id(dpy));
        reg.query_string(dpy, name).map(|s| s.as_ptr())
    })
}

/// Writes config handles: all of them if `configs` is null (only the count), else up to
/// `config_size`.
///
/// # Safety
/// `configs` is null or valid for `config_size` writes; `num_config` is valid for one.
unsafe fn write_configs(
    found: &[&'static tessera_engine::egl::Config],
    configs: *mut Handle,
    config_size: EGLint,
    num_config: *mut EGLint,
) {
    let n = if configs.is_null() {
        found.len()
    } else {
        // SAFETY: the caller's contract.
        let out = unsafe { ptr::slice_mut(configs, ptr::len(config_size)) };
        for (o, c) in out.iter_mut().zip(found) {
            *o = handle(config_handle(c));
        }
        out.len().min(found.len())
    };
    // SAFETY: the caller's contract.
    unsafe { ptr::write(num_config, n as EGLint) };
}

/// `eglGetConfigs`.
///
/// # Safety
/// `configs` is null or valid for `config_size` writes; `num_config` is null or valid for
/// one.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglGetConfigs(
    dpy: Handle,
    configs: *mut Handle,
    config_size: EGLint,
    num_config: *mut EGLint,
) -> EGLBoolean {
    egl_call("eglGetConfigs", 0, |_, reg| {
        let all = reg.configs(id(dpy))?;
        if num_config.is_null() {
            return Err(EglError::BadParameter);
        }
        let found: Vec<_> = all.iter().collect();
        // SAFETY: the caller's contract; `num_config` is not null.
        unsafe { write_configs(&found, configs, config_size, num_config) };
        Ok(1)
    })
}

/// `eglChooseConfig`.
///
/// # Safety
/// `attrib_list` is null or `EGL_NONE`-terminated; `configs` is null or valid for
/// `config_size` writes; `num_config` is null or valid for one.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglChooseConfig(
    dpy: Handle,
    attrib_list: *const EGLint,
    configs: *mut Handle,
    config_size: EGLint,
    num_config: *mut EGLint,
) -> EGLBoolean {
    // SAFETY: the caller's contract.
    let list = unsafe { ptr::attribs(attrib_list) };
    egl_call("eglChooseConfig", 0, |_, reg| {
        reg.check_initialized(id(dpy))?;
        if num_config.is_null() {
            return Err(EglError::BadParameter);
        }
        let found = reg.choose_config(id(dpy), &list)?;
        // SAFETY: the caller's contract; `num_config` is not null.
        unsafe { write_configs(&found, configs, config_size, num_config) };
        Ok(1)
    })
}

/// `eglGetConfigAttrib`.
///
/// # Safety
/// `value` is null or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglGetConfigAttrib(
    dpy: Handle,
    config: Handle,
    attribute: EGLint,
    value: *mut EGLint,
) -> EGLBoolean {
    egl_call("eglGetConfigAttrib", 0, |_, reg| {
        let v = reg.config_attrib(id(dpy), id(config), attribute)?;
        if value.is_null() {
            return Err(EglError::BadParameter);
        }
        // SAFETY: the caller's contract; not null.
        unsafe { ptr::write(value, v) };
        Ok(1)
    })
}

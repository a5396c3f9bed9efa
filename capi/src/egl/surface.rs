//! Surfaces: pbuffers, windows (on the X11, XCB and Wayland platforms), and the pixmap
//! calls no platform offers.

use tessera_engine::egl::{EglError, Platform};

use super::{
    EGLAttrib, EGLBoolean, EGLenum, EGLint, Handle, NativeHandle, egl_call, egl_call_unlocked,
    handle, id,
};
use crate::ptr;

/// `eglCreatePbufferSurface`.
///
/// # Safety
/// `attrib_list` is null or `EGL_NONE`-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglCreatePbufferSurface(
    dpy: Handle,
    config: Handle,
    attrib_list: *const EGLint,
) -> Handle {
    // SAFETY: the caller's contract.
    let list = unsafe { ptr::attribs(attrib_list) };
    egl_call("eglCreatePbufferSurface", std::ptr::null_mut(), |_, reg| {
        reg.create_pbuffer(id(dpy), id(config), &list).map(handle)
    })
}

/// `eglDestroySurface`.
#[unsafe(no_mangle)]
pub extern "C" fn eglDestroySurface(dpy: Handle, surface: Handle) -> EGLBoolean {
    egl_call("eglDestroySurface", 0, |_, reg| {
        reg.destroy_surface(id(dpy), id(surface)).map(|()| 1)
    })
}

/// `eglQuerySurface`.
///
/// # Safety
/// `value` is null or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglQuerySurface(
    dpy: Handle,
    surface: Handle,
    attribute: EGLint,
    value: *mut EGLint,
) -> EGLBoolean {
    egl_call("eglQuerySurface", 0, |_, reg| {
        let v = reg.query_surface(id(dpy), id(surface), attribute)?;
        if value.is_null() {
            return Err(EglError::BadParameter);
        }
        // SAFETY: the caller's contract; not null.
        unsafe { ptr::write(value, v) };
        Ok(1)
    })
}

/// `eglSurfaceAttrib`.
#[unsafe(no_mangle)]
pub extern "C" fn eglSurfaceAttrib(
    dpy: Handle,
    surface: Handle,
    attribute: EGLint,
    value: EGLint,
) -> EGLBoolean {
    egl_call("eglSurfaceAttrib", 0, |_, reg| {
        reg.surface_attrib(id(dpy), id(surface), attribute, value)
            .map(|()| 1)
    })
}

/// `eglSwapBuffers`: a frame boundary for the current context's pbuffer; on a window, the
/// frame is shown in it.
#[unsafe(no_mangle)]
pub extern "C" fn eglSwapBuffers(dpy: Handle, surface: Handle) -> EGLBoolean {
    let swapped = egl_call_unlocked("eglSwapBuffers", 0, |t| {
        t.swap_buffers(id(dpy), id(surface)).map(|()| 1)
    });
    // The frame's batch went to the backend: its events go to the log.
    crate::current::gl_call("eglSwapBuffers", (), crate::events::drain);
    swapped
}

/// `eglSwapBuffersWithDamageKHR`: after the first damaged swap, only the rows the
/// rectangles span are read back (and travel) and shown over the last frame. The
/// rectangles are checked as the extension says (`EGL_BAD_PARAMETER` for a negative count
/// or a null list with a positive one).
///
/// # Safety
/// `rects` is null or holds `4 * n_rects` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglSwapBuffersWithDamageKHR(
    dpy: Handle,
    surface: Handle,
    rects: *const EGLint,
    n_rects: EGLint,
) -> EGLBoolean {
    if n_rects < 0 || (n_rects > 0 && rects.is_null()) {
        return egl_call("eglSwapBuffersWithDamageKHR", 0, |_, _| {
            Err(EglError::BadParameter)
        });
    }
    // SAFETY: the caller's contract.
    let values = unsafe { ptr::slice(rects, ptr::len(n_rects).saturating_mul(4)) };
    let damage: Vec<[i32; 4]> = values
        .chunks_exact(4)
        .map(|r| [r[0], r[1], r[2], r[3]])
        .collect();
    let swapped = egl_call_unlocked("eglSwapBuffersWithDamageKHR", 0, |t| {
        t.swap_buffers_with_damage(id(dpy), id(surface), Some(&damage))
            .map(|()| 1)
    });
    crate::current::gl_call("eglSwapBuffersWithDamageKHR", (), crate::events::drain);
    swapped
}

/// `eglSwapBuffersWithDamageEXT`: as [`eglSwapBuffersWithDamageKHR`].
///
/// # Safety
/// As [`eglSwapBuffersWithDamageKHR`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglSwapBuffersWithDamageEXT(
    dpy: Handle,
    surface: Handle,
    rects: *const EGLint,
    n_rects: EGLint,
) -> EGLBoolean {
    // SAFETY: the caller's contract.
    unsafe { eglSwapBuffersWithDamageKHR(dpy, surface, rects, n_rects) }
}

/// `eglBindTexImage`: no config binds to textures, so `EGL_BAD_MATCH`.
#[unsafe(no_mangle)]
pub extern "C" fn eglBindTexImage(dpy: Handle, surface: Handle, buffer: EGLint) -> EGLBoolean {
    egl_call("eglBindTexImage", 0, |_, reg| {
        reg.bind_tex_image(id(dpy), id(surface), buffer).map(|()| 1)
    })
}

/// `eglReleaseTexImage`: likewise.
#[unsafe(no_mangle)]
pub extern "C" fn eglReleaseTexImage(dpy: Handle, surface: Handle, buffer: EGLint) -> EGLBoolean {
    egl_call("eglReleaseTexImage", 0, |_, reg| {
        reg.bind_tex_image(id(dpy), id(surface), buffer).map(|()| 1)
    })
}

/// `eglCreateWindowSurface`: `win` is an X window ID on the X11 and XCB platforms, a
/// `struct wl_egl_window*` on Wayland.
///
/// # Safety
/// `attrib_list` is null or `EGL_NONE`-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglCreateWindowSurface(
    dpy: Handle,
    config: Handle,
    win: NativeHandle,
    attrib_list: *const EGLint,
) -> Handle {
    // SAFETY: the caller's contract.
    let list = unsafe { ptr::attribs(attrib_list) };
    egl_call("eglCreateWindowSurface", std::ptr::null_mut(), |_, reg| {
        reg.create_window_surface(id(dpy), id(config), win, &list)
            .map(handle)
    })
}

/// The `EGLNativeWindowType` behind `eglCreatePlatformWindowSurface`'s pointer: on X11
/// and XCB it points at the window ID (`Window*`, `xcb_window_t*`); on Wayland it is the
/// `struct wl_egl_window*` itself.
///
/// # Safety
/// `native_window` is null or points at the platform's native window value.
unsafe fn platform_window(dpy: Handle, native_window: Handle) -> NativeHandle {
    if native_window.is_null() {
        return 0;
    }
    let platform = egl_call("eglCreatePlatformWindowSurface", None, |_, reg| {
        Ok(Some(reg.platform(id(dpy))?))
    });
    // SAFETY: the caller's contract: an `xcb_window_t` (32 bits) or an Xlib `Window` (a
    // Wayland window is the pointer itself and is not read here).
    unsafe {
        match platform {
            Some(Platform::Wayland) => native_window as NativeHandle,
            Some(Platform::Xcb) => native_window.cast::<u32>().read_unaligned() as NativeHandle,
            _ => native_window.cast::<NativeHandle>().read_unaligned(),
        }
    }
}

/// `eglCreatePlatformWindowSurface`.
///
/// # Safety
/// `native_window` is null or points at the platform's native window; `attrib_list` is
/// null or `EGL_NONE`-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglCreatePlatformWindowSurface(
    dpy: Handle,
    config: Handle,
    native_window: Handle,
    attrib_list: *const EGLAttrib,
) -> Handle {
    // SAFETY: the caller's contract.
    let (win, list) = unsafe {
        (
            platform_window(dpy, native_window),
            ptr::attribs_wide(attrib_list),
        )
    };
    egl_call(
        "eglCreatePlatformWindowSurface",
        std::ptr::null_mut(),
        |_, reg| {
            reg.create_window_surface(id(dpy), id(config), win, &list)
                .map(handle)
        },
    )
}

/// `eglCreatePlatformWindowSurfaceEXT` (`EGLint` attributes).
///
/// # Safety
/// As [`eglCreatePlatformWindowSurface`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglCreatePlatformWindowSurfaceEXT(
    dpy: Handle,
    config: Handle,
    native_window: Handle,
    attrib_list: *const EGLint,
) -> Handle {
    // SAFETY: the caller's contract.
    let (win, list) = unsafe {
        (
            platform_window(dpy, native_window),
            ptr::attribs(attrib_list),
        )
    };
    egl_call(
        "eglCreatePlatformWindowSurfaceEXT",
        std::ptr::null_mut(),
        |_, reg| {
            reg.create_window_surface(id(dpy), id(config), win, &list)
                .map(handle)
        },
    )
}

/// `eglCreatePixmapSurface`: no native pixmaps exist (`EGL_BAD_NATIVE_PIXMAP`).
#[unsafe(no_mangle)]
pub extern "C" fn eglCreatePixmapSurface(
    dpy: Handle,
    config: Handle,
    pixmap: NativeHandle,
    attrib_list: *const EGLint,
) -> Handle {
    let _ = (config, pixmap, attrib_list);
    egl_call("eglCreatePixmapSurface", std::ptr::null_mut(), |_, reg| {
        reg.create_pixmap_surface(id(dpy)).map(handle)
    })
}

/// `eglCreatePlatformPixmapSurface`: likewise.
#[unsafe(no_mangle)]
pub extern "C" fn eglCreatePlatformPixmapSurface(
    dpy: Handle,
    config: Handle,
    native_pixmap: Handle,
    attrib_list: *const EGLAttrib,
) -> Handle {
    let _ = (config, native_pixmap, attrib_list);
    egl_call(
        "eglCreatePlatformPixmapSurface",
        std::ptr::null_mut(),
        |_, reg| reg.create_pixmap_surface(id(dpy)).map(handle),
    )
}

/// `eglCreatePlatformPixmapSurfaceEXT`: likewise.
#[unsafe(no_mangle)]
pub extern "C" fn eglCreatePlatformPixmapSurfaceEXT(
    dpy: Handle,
    config: Handle,
    native_pixmap: Handle,
    attrib_list: *const EGLint,
) -> Handle {
    let _ = (config, native_pixmap, attrib_list);
    egl_call(
        "eglCreatePlatformPixmapSurfaceEXT",
        std::ptr::null_mut(),
        |_, reg| reg.create_pixmap_surface(id(dpy)).map(handle),
    )
}

/// `eglCopyBuffers`: there is no native pixmap to copy to.
#[unsafe(no_mangle)]
pub extern "C" fn eglCopyBuffers(dpy: Handle, surface: Handle, target: NativeHandle) -> EGLBoolean {
    let _ = target;
    egl_call("eglCopyBuffers", 0, |_, reg| {
        reg.check_surface(id(dpy), id(surface))?;
        Err(EglError::BadNativePixmap)
    })
}

/// `eglCreatePbufferFromClientBuffer`: the only client buffer type EGL defines is OpenVG's
/// (`EGL_OPENVG_IMAGE`), and OpenVG is not supported.
#[unsafe(no_mangle)]
pub extern "C" fn eglCreatePbufferFromClientBuffer(
    dpy: Handle,
    buftype: EGLenum,
    buffer: Handle,
    config: Handle,
    attrib_list: *const EGLint,
) -> Handle {
    let _ = (buftype, buffer, attrib_list);
    egl_call(
        "eglCreatePbufferFromClientBuffer",
        std::ptr::null_mut(),
        |_, reg| {
            reg.check_config(id(dpy), id(config))?;
            Err(EglError::BadParameter)
        },
    )
}

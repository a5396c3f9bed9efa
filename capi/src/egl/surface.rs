//! Surfaces: pbuffers, and the window and pixmap calls the surfaceless platforms refuse.

use tessera_engine::egl::EglError;

use super::{EGLAttrib, EGLBoolean, EGLenum, EGLint, Handle, NativeHandle, egl_call, handle, id};
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

/// `eglSwapBuffers`: a frame boundary for the current context's pbuffer.
#[unsafe(no_mangle)]
pub extern "C" fn eglSwapBuffers(dpy: Handle, surface: Handle) -> EGLBoolean {
    let swapped = egl_call("eglSwapBuffers", 0, |t, reg| {
        t.swap_buffers(reg, id(dpy), id(surface)).map(|()| 1)
    });
    // The frame's batch went to the backend: its events go to the log.
    crate::current::gl_call("eglSwapBuffers", (), crate::events::drain);
    swapped
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

/// `eglCreateWindowSurface`: no native windows exist (`EGL_BAD_NATIVE_WINDOW`).
#[unsafe(no_mangle)]
pub extern "C" fn eglCreateWindowSurface(
    dpy: Handle,
    config: Handle,
    win: NativeHandle,
    attrib_list: *const EGLint,
) -> Handle {
    let _ = (config, win, attrib_list);
    egl_call("eglCreateWindowSurface", std::ptr::null_mut(), |_, reg| {
        reg.create_window_surface(id(dpy)).map(handle)
    })
}

/// `eglCreatePlatformWindowSurface`: likewise.
#[unsafe(no_mangle)]
pub extern "C" fn eglCreatePlatformWindowSurface(
    dpy: Handle,
    config: Handle,
    native_window: Handle,
    attrib_list: *const EGLAttrib,
) -> Handle {
    let _ = (config, native_window, attrib_list);
    egl_call(
        "eglCreatePlatformWindowSurface",
        std::ptr::null_mut(),
        |_, reg| reg.create_window_surface(id(dpy)).map(handle),
    )
}

/// `eglCreatePlatformWindowSurfaceEXT`: likewise.
#[unsafe(no_mangle)]
pub extern "C" fn eglCreatePlatformWindowSurfaceEXT(
    dpy: Handle,
    config: Handle,
    native_window: Handle,
    attrib_list: *const EGLint,
) -> Handle {
    let _ = (config, native_window, attrib_list);
    egl_call(
        "eglCreatePlatformWindowSurfaceEXT",
        std::ptr::null_mut(),
        |_, reg| reg.create_window_surface(id(dpy)).map(handle),
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

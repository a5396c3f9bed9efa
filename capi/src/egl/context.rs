//! Client APIs, contexts, the current context and the wait calls.

use tessera_engine::egl::EglError;

use super::{EGLBoolean, EGLenum, EGLint, Handle, boolean, egl_call, handle, id};
use crate::ptr;

/// `eglGetError`: the calling thread's last error, cleared.
#[unsafe(no_mangle)]
pub extern "C" fn eglGetError() -> EGLint {
    crate::current::take_error()
}

/// `eglBindAPI`: `EGL_OPENGL_API` only.
#[unsafe(no_mangle)]
pub extern "C" fn eglBindAPI(api: EGLenum) -> EGLBoolean {
    egl_call("eglBindAPI", 0, |t, _| t.bind_api(api as i32).map(|()| 1))
}

/// `eglQueryAPI`.
#[unsafe(no_mangle)]
pub extern "C" fn eglQueryAPI() -> EGLenum {
    egl_call("eglQueryAPI", 0, |t, _| Ok(t.query_api() as EGLenum))
}

/// `eglCreateContext`.
///
/// # Safety
/// `attrib_list` is null or `EGL_NONE`-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglCreateContext(
    dpy: Handle,
    config: Handle,
    share_context: Handle,
    attrib_list: *const EGLint,
) -> Handle {
    // SAFETY: the caller's contract.
    let list = unsafe { ptr::attribs(attrib_list) };
    egl_call("eglCreateContext", std::ptr::null_mut(), |t, reg| {
        t.create_context(reg, id(dpy), id(config), id(share_context), &list)
            .map(handle)
    })
}

/// `eglDestroyContext`.
#[unsafe(no_mangle)]
pub extern "C" fn eglDestroyContext(dpy: Handle, ctx: Handle) -> EGLBoolean {
    egl_call("eglDestroyContext", 0, |t, reg| {
        t.destroy_context(reg, id(dpy), id(ctx)).map(|()| 1)
    })
}

/// `eglMakeCurrent`.
#[unsafe(no_mangle)]
pub extern "C" fn eglMakeCurrent(
    dpy: Handle,
    draw: Handle,
    read: Handle,
    ctx: Handle,
) -> EGLBoolean {
    egl_call("eglMakeCurrent", 0, |t, reg| {
        t.make_current(reg, id(dpy), id(draw), id(read), id(ctx))
            .map(|()| 1)
    })
}

/// `eglQueryContext`.
///
/// # Safety
/// `value` is null or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglQueryContext(
    dpy: Handle,
    ctx: Handle,
    attribute: EGLint,
    value: *mut EGLint,
) -> EGLBoolean {
    egl_call("eglQueryContext", 0, |t, reg| {
        let v = t.query_context(reg, id(dpy), id(ctx), attribute)?;
        if value.is_null() {
            return Err(EglError::BadParameter);
        }
        // SAFETY: the caller's contract; not null.
        unsafe { ptr::write(value, v) };
        Ok(1)
    })
}

/// `eglGetCurrentContext`.
#[unsafe(no_mangle)]
pub extern "C" fn eglGetCurrentContext() -> Handle {
    egl_call("eglGetCurrentContext", std::ptr::null_mut(), |t, reg| {
        Ok(handle(t.current_context(reg)))
    })
}

/// `eglGetCurrentDisplay`.
#[unsafe(no_mangle)]
pub extern "C" fn eglGetCurrentDisplay() -> Handle {
    egl_call("eglGetCurrentDisplay", std::ptr::null_mut(), |t, _| {
        Ok(handle(t.current_display()))
    })
}

/// `eglGetCurrentSurface`.
#[unsafe(no_mangle)]
pub extern "C" fn eglGetCurrentSurface(readdraw: EGLint) -> Handle {
    egl_call("eglGetCurrentSurface", std::ptr::null_mut(), |t, reg| {
        t.current_surface(reg, readdraw).map(handle)
    })
}

/// `eglReleaseThread`.
#[unsafe(no_mangle)]
pub extern "C" fn eglReleaseThread() -> EGLBoolean {
    egl_call("eglReleaseThread", 0, |t, reg| {
        t.release_thread(reg);
        Ok(1)
    })
}

/// `eglWaitClient`: finishes the current context.
#[unsafe(no_mangle)]
pub extern "C" fn eglWaitClient() -> EGLBoolean {
    egl_call("eglWaitClient", 0, |t, reg| t.wait_client(reg).map(|()| 1))
}

/// `eglWaitGL`: `eglWaitClient` for OpenGL, the only client API.
#[unsafe(no_mangle)]
pub extern "C" fn eglWaitGL() -> EGLBoolean {
    egl_call("eglWaitGL", 0, |t, reg| t.wait_client(reg).map(|()| 1))
}

/// `eglWaitNative`.
#[unsafe(no_mangle)]
pub extern "C" fn eglWaitNative(engine: EGLint) -> EGLBoolean {
    egl_call("eglWaitNative", 0, |t, reg| {
        t.wait_native(reg, engine).map(|()| 1)
    })
}

/// `eglSwapInterval`: the interval of the current draw surface's window (a pbuffer has
/// none).
#[unsafe(no_mangle)]
pub extern "C" fn eglSwapInterval(dpy: Handle, interval: EGLint) -> EGLBoolean {
    egl_call("eglSwapInterval", 0, |t, reg| {
        t.swap_interval(reg, id(dpy), interval)
            .map(|()| boolean(true))
    })
}

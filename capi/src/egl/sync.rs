//! EGL 1.5 fence syncs (signaled at creation: the current context is finished first) and
//! images (not supported: `EGL_BAD_PARAMETER`, with a log line).

use tessera_engine::egl::EglError;
use tessera_engine::egl::tokens::*;

use super::{EGLAttrib, EGLBoolean, EGLTime, EGLenum, EGLint, Handle, egl_call, handle, id};
use crate::ptr;

/// `eglCreateSync` (`EGL_SYNC_FENCE` only).
///
/// # Safety
/// `attrib_list` is null or `EGL_NONE`-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglCreateSync(
    dpy: Handle,
    ty: EGLenum,
    attrib_list: *const EGLAttrib,
) -> Handle {
    // SAFETY: the caller's contract.
    let list = unsafe { ptr::attribs_wide(attrib_list) };
    egl_call("eglCreateSync", std::ptr::null_mut(), |t, reg| {
        t.create_sync(reg, id(dpy), ty as i32, &list).map(handle)
    })
}

/// `eglDestroySync`.
#[unsafe(no_mangle)]
pub extern "C" fn eglDestroySync(dpy: Handle, sync: Handle) -> EGLBoolean {
    egl_call("eglDestroySync", 0, |_, reg| {
        reg.destroy_sync(id(dpy), id(sync)).map(|()| 1)
    })
}

/// `eglClientWaitSync`: every fence is already signaled.
#[unsafe(no_mangle)]
pub extern "C" fn eglClientWaitSync(
    dpy: Handle,
    sync: Handle,
    flags: EGLint,
    timeout: EGLTime,
) -> EGLint {
    let _ = (flags, timeout);
    egl_call("eglClientWaitSync", FALSE, |t, reg| {
        t.client_wait_sync(reg, id(dpy), id(sync))
    })
}

/// `eglWaitSync`.
#[unsafe(no_mangle)]
pub extern "C" fn eglWaitSync(dpy: Handle, sync: Handle, flags: EGLint) -> EGLBoolean {
    egl_call("eglWaitSync", 0, |t, reg| {
        t.wait_sync(reg, id(dpy), id(sync), flags).map(|()| 1)
    })
}

/// `eglGetSyncAttrib`.
///
/// # Safety
/// `value` is null or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglGetSyncAttrib(
    dpy: Handle,
    sync: Handle,
    attribute: EGLint,
    value: *mut EGLAttrib,
) -> EGLBoolean {
    egl_call("eglGetSyncAttrib", 0, |_, reg| {
        let v = reg.sync_attrib(id(dpy), id(sync), attribute)?;
        if value.is_null() {
            return Err(EglError::BadParameter);
        }
        // SAFETY: the caller's contract; not null.
        unsafe { ptr::write(value, v as EGLAttrib) };
        Ok(1)
    })
}

/// `eglCreateImage`: EGL images (sharing GL textures and renderbuffers across APIs) are
/// not implemented; every target is refused as unsupported.
#[unsafe(no_mangle)]
pub extern "C" fn eglCreateImage(
    dpy: Handle,
    ctx: Handle,
    target: EGLenum,
    buffer: Handle,
    attrib_list: *const EGLAttrib,
) -> Handle {
    let _ = (ctx, buffer, attrib_list);
    egl_call("eglCreateImage", std::ptr::null_mut(), |_, reg| {
        reg.check_initialized(id(dpy))?;
        log::warn!("tessera: eglCreateImage(target {target:#x}): EGL images are not supported");
        Err(EglError::BadParameter)
    })
}

/// `eglDestroyImage`: no image exists, so every handle is invalid.
#[unsafe(no_mangle)]
pub extern "C" fn eglDestroyImage(dpy: Handle, image: Handle) -> EGLBoolean {
    let _ = image;
    egl_call("eglDestroyImage", 0, |_, reg| {
        reg.check_initialized(id(dpy))?;
        Err(EglError::BadParameter)
    })
}

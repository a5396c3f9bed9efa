//! Fence syncs (EGL 1.5, `EGL_KHR_fence_sync`, `EGL_KHR_wait_sync`: real fences of the
//! current context's share group, `tessera_engine::egl::sync`).

use tessera_engine::egl::tokens::*;
use tessera_engine::egl::{EglError, Thread, registry};

use super::{
    EGLAttrib, EGLBoolean, EGLTime, EGLenum, EGLint, Handle, egl_call, egl_call_unlocked, handle,
    id,
};
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
        t.create_sync(reg, id(dpy), ty as i32, &list, EglError::BadParameter)
            .map(handle)
    })
}

/// `eglCreateSyncKHR` (`EGL_KHR_fence_sync`): as [`eglCreateSync`] with `EGLint`
/// attributes; an unknown type is `EGL_BAD_ATTRIBUTE`, as that extension says.
///
/// # Safety
/// `attrib_list` is null or `EGL_NONE`-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglCreateSyncKHR(
    dpy: Handle,
    ty: EGLenum,
    attrib_list: *const EGLint,
) -> Handle {
    // SAFETY: the caller's contract.
    let list = unsafe { ptr::attribs(attrib_list) };
    egl_call("eglCreateSyncKHR", std::ptr::null_mut(), |t, reg| {
        t.create_sync(reg, id(dpy), ty as i32, &list, EglError::BadAttribute)
            .map(handle)
    })
}

/// `eglDestroySync`.
#[unsafe(no_mangle)]
pub extern "C" fn eglDestroySync(dpy: Handle, sync: Handle) -> EGLBoolean {
    egl_call("eglDestroySync", 0, |_, reg| {
        reg.destroy_sync(id(dpy), id(sync)).map(|()| 1)
    })
}

/// `eglDestroySyncKHR`.
#[unsafe(no_mangle)]
pub extern "C" fn eglDestroySyncKHR(dpy: Handle, sync: Handle) -> EGLBoolean {
    egl_call("eglDestroySyncKHR", 0, |_, reg| {
        reg.destroy_sync(id(dpy), id(sync)).map(|()| 1)
    })
}

/// `eglClientWaitSync`: waits with the registry unlocked (other threads' EGL calls go on).
#[unsafe(no_mangle)]
pub extern "C" fn eglClientWaitSync(
    dpy: Handle,
    sync: Handle,
    flags: EGLint,
    timeout: EGLTime,
) -> EGLint {
    let _ = flags;
    egl_call_unlocked("eglClientWaitSync", FALSE, |_| {
        let fence = registry().sync(id(dpy), id(sync))?;
        Thread::client_wait_sync(&fence, timeout)
    })
}

/// `eglClientWaitSyncKHR`.
#[unsafe(no_mangle)]
pub extern "C" fn eglClientWaitSyncKHR(
    dpy: Handle,
    sync: Handle,
    flags: EGLint,
    timeout: EGLTime,
) -> EGLint {
    let _ = flags;
    egl_call_unlocked("eglClientWaitSyncKHR", FALSE, |_| {
        let fence = registry().sync(id(dpy), id(sync))?;
        Thread::client_wait_sync(&fence, timeout)
    })
}

/// `eglWaitSync`: a wait on a fence of another share group blocks the thread (see
/// `tessera_engine::egl::sync`), with the registry unlocked.
#[unsafe(no_mangle)]
pub extern "C" fn eglWaitSync(dpy: Handle, sync: Handle, flags: EGLint) -> EGLBoolean {
    egl_call_unlocked("eglWaitSync", 0, |t| {
        let fence = registry().sync(id(dpy), id(sync))?;
        t.wait_sync(id(dpy), &fence, flags).map(|()| 1)
    })
}

/// `eglWaitSyncKHR` (`EGL_KHR_wait_sync`).
#[unsafe(no_mangle)]
pub extern "C" fn eglWaitSyncKHR(dpy: Handle, sync: Handle, flags: EGLint) -> EGLint {
    egl_call_unlocked("eglWaitSyncKHR", 0, |t| {
        let fence = registry().sync(id(dpy), id(sync))?;
        t.wait_sync(id(dpy), &fence, flags).map(|()| 1)
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
    egl_call_unlocked("eglGetSyncAttrib", 0, |_| {
        let fence = registry().sync(id(dpy), id(sync))?;
        let v = fence.attrib(attribute)?;
        if value.is_null() {
            return Err(EglError::BadParameter);
        }
        // SAFETY: the caller's contract; not null.
        unsafe { ptr::write(value, v as EGLAttrib) };
        Ok(1)
    })
}

/// `eglGetSyncAttribKHR`: as [`eglGetSyncAttrib`], writing an `EGLint`.
///
/// # Safety
/// `value` is null or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglGetSyncAttribKHR(
    dpy: Handle,
    sync: Handle,
    attribute: EGLint,
    value: *mut EGLint,
) -> EGLBoolean {
    egl_call_unlocked("eglGetSyncAttribKHR", 0, |_| {
        let fence = registry().sync(id(dpy), id(sync))?;
        let v = fence.attrib(attribute)?;
        if value.is_null() {
            return Err(EglError::BadParameter);
        }
        // SAFETY: the caller's contract; not null.
        unsafe { ptr::write(value, v) };
        Ok(1)
    })
}

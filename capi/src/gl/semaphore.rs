//! GL–Vulkan synchronisation (`GL_EXT_semaphore`, `GL_EXT_semaphore_fd`): semaphores a
//! Vulkan program exported as opaque descriptors, waited on and signalled by GL
//! (`engine::semaphore`, which decides every error; the Vulkan backend in process, on a
//! device with `VK_KHR_external_semaphore_fd`).

use std::os::fd::{FromRawFd, IntoRawFd, OwnedFd};

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `glGenSemaphoresEXT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGenSemaphoresEXT(n: GLsizei, semaphores: *mut GLuint) {
    // SAFETY: GL contract: `semaphores` holds `n` names.
    let out = unsafe { ptr::slice_mut(semaphores, ptr::len(n)) };
    gl_call("glGenSemaphoresEXT", (), |c| c.gen_semaphores(n, out));
}

/// `glDeleteSemaphoresEXT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDeleteSemaphoresEXT(n: GLsizei, semaphores: *const GLuint) {
    // SAFETY: GL contract: `semaphores` holds `n` names.
    let names = unsafe { ptr::slice(semaphores, ptr::len(n)) };
    gl_call("glDeleteSemaphoresEXT", (), |c| {
        c.delete_semaphores(n, names)
    });
}

/// `glIsSemaphoreEXT`.
#[unsafe(no_mangle)]
pub extern "C" fn glIsSemaphoreEXT(semaphore: GLuint) -> GLboolean {
    gl_call("glIsSemaphoreEXT", 0, |c| {
        GLboolean::from(c.is_semaphore(semaphore))
    })
}

/// `glSemaphoreParameterui64vEXT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glSemaphoreParameterui64vEXT(
    semaphore: GLuint,
    pname: GLenum,
    params: *const GLuint64,
) {
    // SAFETY: GL contract: every parameter is one value.
    let params = unsafe { ptr::slice(params, 1) };
    gl_call("glSemaphoreParameterui64vEXT", (), |c| {
        c.semaphore_parameterui64v(semaphore, pname, params)
    });
}

/// `glGetSemaphoreParameterui64vEXT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetSemaphoreParameterui64vEXT(
    semaphore: GLuint,
    pname: GLenum,
    params: *mut GLuint64,
) {
    // SAFETY: GL contract: every parameter is one value.
    let params = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetSemaphoreParameterui64vEXT", (), |c| {
        c.get_semaphore_parameterui64v(semaphore, pname, params)
    });
}

/// `glImportSemaphoreFdEXT`: a successful import owns `fd`; on an error (or without a
/// context) it stays the application's, open. A negative descriptor is none: nothing is
/// imported and no error is recorded.
#[unsafe(no_mangle)]
pub extern "C" fn glImportSemaphoreFdEXT(semaphore: GLuint, handle_type: GLenum, fd: GLint) {
    if fd < 0 {
        return;
    }
    // SAFETY: GL contract: `fd` is an open descriptor the application hands over; it is
    // given back unclosed (`into_raw_fd`) whenever the import does not take it.
    let mut owned = Some(unsafe { OwnedFd::from_raw_fd(fd) });
    gl_call("glImportSemaphoreFdEXT", (), |c| {
        if let Some(fd) = owned.take() {
            owned = c.import_semaphore_fd(semaphore, handle_type, fd);
        }
    });
    if let Some(fd) = owned {
        let _ = fd.into_raw_fd();
    }
}

/// `glWaitSemaphoreEXT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glWaitSemaphoreEXT(
    semaphore: GLuint,
    num_buffer_barriers: GLuint,
    buffers: *const GLuint,
    num_texture_barriers: GLuint,
    textures: *const GLuint,
    src_layouts: *const GLenum,
) {
    // SAFETY: GL contract: `buffers` holds `num_buffer_barriers` names, `textures` and
    // `src_layouts` `num_texture_barriers` names and layouts.
    let (buffers, textures, layouts) = unsafe {
        (
            ptr::slice(buffers, num_buffer_barriers as usize),
            ptr::slice(textures, num_texture_barriers as usize),
            ptr::slice(src_layouts, num_texture_barriers as usize),
        )
    };
    gl_call("glWaitSemaphoreEXT", (), |c| {
        c.wait_semaphore(semaphore, buffers, textures, layouts)
    });
}

/// `glSignalSemaphoreEXT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glSignalSemaphoreEXT(
    semaphore: GLuint,
    num_buffer_barriers: GLuint,
    buffers: *const GLuint,
    num_texture_barriers: GLuint,
    textures: *const GLuint,
    dst_layouts: *const GLenum,
) {
    // SAFETY: GL contract: `buffers` holds `num_buffer_barriers` names, `textures` and
    // `dst_layouts` `num_texture_barriers` names and layouts.
    let (buffers, textures, layouts) = unsafe {
        (
            ptr::slice(buffers, num_buffer_barriers as usize),
            ptr::slice(textures, num_texture_barriers as usize),
            ptr::slice(dst_layouts, num_texture_barriers as usize),
        )
    };
    gl_call("glSignalSemaphoreEXT", (), |c| {
        c.signal_semaphore(semaphore, buffers, textures, layouts)
    });
}

//! Buffer objects.

use std::ffi::c_void;

use super::types::*;
use crate::current::{gl_call, raised};
use crate::ptr;

/// `glGenBuffers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGenBuffers(n: GLsizei, buffers: *mut GLuint) {
    // SAFETY: GL contract: `buffers` holds `n` names.
    let out = unsafe { ptr::slice_mut(buffers, ptr::len(n)) };
    gl_call("glGenBuffers", (), |c| c.gen_buffers(n, out));
}

/// `glDeleteBuffers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDeleteBuffers(n: GLsizei, buffers: *const GLuint) {
    // SAFETY: GL contract: `buffers` holds `n` names.
    let names = unsafe { ptr::slice(buffers, ptr::len(n)) };
    gl_call("glDeleteBuffers", (), |c| c.delete_buffers(n, names));
}

/// `glBufferData`: `size` bytes from `data`, or uninitialized storage for null.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glBufferData(
    target: GLenum,
    size: GLsizeiptr,
    data: *const c_void,
    usage: GLenum,
) {
    // SAFETY: GL contract: a non-null `data` holds `size` bytes.
    let bytes = (!data.is_null()).then(|| unsafe { ptr::slice(data.cast::<u8>(), ptr::len(size)) });
    gl_call("glBufferData", (), |c| {
        c.buffer_data(target, size, bytes, usage)
    });
}

/// `glBufferSubData`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glBufferSubData(
    target: GLenum,
    offset: GLintptr,
    size: GLsizeiptr,
    data: *const c_void,
) {
    // SAFETY: GL contract: `data` holds `size` bytes.
    let bytes = unsafe { ptr::slice(data.cast::<u8>(), ptr::len(size)) };
    gl_call("glBufferSubData", (), |c| {
        if bytes.len() < ptr::len(size) {
            // A null pointer for a non-empty range: GL reads nothing valid; say so.
            c.set_error(tessera_engine::gl::INVALID_VALUE);
            return;
        }
        c.buffer_sub_data(target, offset, size, bytes);
    });
}

/// `glGetBufferSubData`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetBufferSubData(
    target: GLenum,
    offset: GLintptr,
    size: GLsizeiptr,
    data: *mut c_void,
) {
    // SAFETY: GL contract: `data` has room for `size` bytes.
    let out = unsafe { ptr::slice_mut(data.cast::<u8>(), ptr::len(size)) };
    gl_call("glGetBufferSubData", (), |c| {
        c.get_buffer_sub_data(target, offset, size, out)
    });
}

/// `glMapBuffer`.
#[unsafe(no_mangle)]
pub extern "C" fn glMapBuffer(target: GLenum, access: GLenum) -> *mut c_void {
    gl_call("glMapBuffer", std::ptr::null_mut(), |c| {
        c.map_buffer(target, access).cast()
    })
}

/// `glMapBufferRange`.
#[unsafe(no_mangle)]
pub extern "C" fn glMapBufferRange(
    target: GLenum,
    offset: GLintptr,
    length: GLsizeiptr,
    access: GLbitfield,
) -> *mut c_void {
    gl_call("glMapBufferRange", std::ptr::null_mut(), |c| {
        c.map_buffer_range(target, offset, length, access).cast()
    })
}

/// `glGetBufferParameteriv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetBufferParameteriv(target: GLenum, pname: GLenum, params: *mut GLint) {
    // SAFETY: GL contract: every buffer parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetBufferParameteriv", (), |c| {
        c.get_buffer_parameteriv(target, pname, out)
    });
}

/// `glGetBufferParameteri64v`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetBufferParameteri64v(
    target: GLenum,
    pname: GLenum,
    params: *mut GLint64,
) {
    // SAFETY: GL contract: every buffer parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetBufferParameteri64v", (), |c| {
        c.get_buffer_parameteri64v(target, pname, out)
    });
}

/// `glGetBufferPointerv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetBufferPointerv(
    target: GLenum,
    pname: GLenum,
    params: *mut *mut c_void,
) {
    let p = gl_call("glGetBufferPointerv", None, |c| {
        let (p, failed) = raised(c, |c| c.get_buffer_pointerv(target, pname));
        (!failed).then_some(p)
    });
    if let Some(p) = p {
        // SAFETY: GL contract: `params` has room for one pointer.
        unsafe { ptr::write(params, p.cast()) };
    }
}

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

/// `glBufferStorage` (GL 4.4): `size` bytes from `data`, or zeros for null.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glBufferStorage(
    target: GLenum,
    size: GLsizeiptr,
    data: *const c_void,
    flags: GLbitfield,
) {
    // SAFETY: GL contract: a non-null `data` holds `size` bytes.
    let bytes = (!data.is_null()).then(|| unsafe { ptr::slice(data.cast::<u8>(), ptr::len(size)) });
    gl_call("glBufferStorage", (), |c| {
        c.buffer_storage(target, size, bytes, flags)
    });
}

/// `glCreateBuffers` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCreateBuffers(n: GLsizei, buffers: *mut GLuint) {
    // SAFETY: GL contract: `buffers` holds `n` names.
    let out = unsafe { ptr::slice_mut(buffers, ptr::len(n)) };
    gl_call("glCreateBuffers", (), |c| c.create_buffers(n, out));
}

/// `glNamedBufferStorage` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glNamedBufferStorage(
    buffer: GLuint,
    size: GLsizeiptr,
    data: *const c_void,
    flags: GLbitfield,
) {
    // SAFETY: GL contract: a non-null `data` holds `size` bytes.
    let bytes = (!data.is_null()).then(|| unsafe { ptr::slice(data.cast::<u8>(), ptr::len(size)) });
    gl_call("glNamedBufferStorage", (), |c| {
        c.named_buffer_storage(buffer, size, bytes, flags)
    });
}

/// `glNamedBufferData` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glNamedBufferData(
    buffer: GLuint,
    size: GLsizeiptr,
    data: *const c_void,
    usage: GLenum,
) {
    // SAFETY: GL contract: a non-null `data` holds `size` bytes.
    let bytes = (!data.is_null()).then(|| unsafe { ptr::slice(data.cast::<u8>(), ptr::len(size)) });
    gl_call("glNamedBufferData", (), |c| {
        c.named_buffer_data(buffer, size, bytes, usage)
    });
}

/// `glNamedBufferSubData` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glNamedBufferSubData(
    buffer: GLuint,
    offset: GLintptr,
    size: GLsizeiptr,
    data: *const c_void,
) {
    // SAFETY: GL contract: `data` holds `size` bytes.
    let bytes = unsafe { ptr::slice(data.cast::<u8>(), ptr::len(size)) };
    gl_call("glNamedBufferSubData", (), |c| {
        if bytes.len() < ptr::len(size) {
            c.set_error(tessera_engine::gl::INVALID_VALUE);
            return;
        }
        c.named_buffer_sub_data(buffer, offset, size, bytes);
    });
}

/// `glGetNamedBufferSubData` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetNamedBufferSubData(
    buffer: GLuint,
    offset: GLintptr,
    size: GLsizeiptr,
    data: *mut c_void,
) {
    // SAFETY: GL contract: `data` has room for `size` bytes.
    let out = unsafe { ptr::slice_mut(data.cast::<u8>(), ptr::len(size)) };
    gl_call("glGetNamedBufferSubData", (), |c| {
        c.get_named_buffer_sub_data(buffer, offset, size, out)
    });
}

/// `glCopyNamedBufferSubData` (GL 4.5).
#[unsafe(no_mangle)]
pub extern "C" fn glCopyNamedBufferSubData(
    read_buffer: GLuint,
    write_buffer: GLuint,
    read_offset: GLintptr,
    write_offset: GLintptr,
    size: GLsizeiptr,
) {
    gl_call("glCopyNamedBufferSubData", (), |c| {
        c.copy_named_buffer_sub_data(read_buffer, write_buffer, read_offset, write_offset, size)
    });
}

/// `glMapNamedBuffer` (GL 4.5).
#[unsafe(no_mangle)]
pub extern "C" fn glMapNamedBuffer(buffer: GLuint, access: GLenum) -> *mut c_void {
    gl_call("glMapNamedBuffer", std::ptr::null_mut(), |c| {
        c.map_named_buffer(buffer, access).cast()
    })
}

/// `glMapNamedBufferRange` (GL 4.5).
#[unsafe(no_mangle)]
pub extern "C" fn glMapNamedBufferRange(
    buffer: GLuint,
    offset: GLintptr,
    length: GLsizeiptr,
    access: GLbitfield,
) -> *mut c_void {
    gl_call("glMapNamedBufferRange", std::ptr::null_mut(), |c| {
        c.map_named_buffer_range(buffer, offset, length, access)
            .cast()
    })
}

/// `glUnmapNamedBuffer` (GL 4.5).
#[unsafe(no_mangle)]
pub extern "C" fn glUnmapNamedBuffer(buffer: GLuint) -> GLboolean {
    gl_call("glUnmapNamedBuffer", 0, |c| c.unmap_named_buffer(buffer))
}

/// `glFlushMappedNamedBufferRange` (GL 4.5).
#[unsafe(no_mangle)]
pub extern "C" fn glFlushMappedNamedBufferRange(
    buffer: GLuint,
    offset: GLintptr,
    length: GLsizeiptr,
) {
    gl_call("glFlushMappedNamedBufferRange", (), |c| {
        c.flush_mapped_named_buffer_range(buffer, offset, length)
    });
}

/// `glGetNamedBufferParameteriv` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetNamedBufferParameteriv(
    buffer: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: GL contract: every buffer parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetNamedBufferParameteriv", (), |c| {
        c.get_named_buffer_parameteriv(buffer, pname, out)
    });
}

/// `glGetNamedBufferParameteri64v` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetNamedBufferParameteri64v(
    buffer: GLuint,
    pname: GLenum,
    params: *mut GLint64,
) {
    // SAFETY: GL contract: every buffer parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetNamedBufferParameteri64v", (), |c| {
        c.get_named_buffer_parameteri64v(buffer, pname, out)
    });
}

/// `glGetNamedBufferPointerv` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetNamedBufferPointerv(
    buffer: GLuint,
    pname: GLenum,
    params: *mut *mut c_void,
) {
    let p = gl_call("glGetNamedBufferPointerv", None, |c| {
        let (p, failed) = raised(c, |c| c.get_named_buffer_pointerv(buffer, pname));
        (!failed).then_some(p)
    });
    if let Some(p) = p {
        // SAFETY: GL contract: `params` has room for one pointer.
        unsafe { ptr::write(params, p.cast()) };
    }
}

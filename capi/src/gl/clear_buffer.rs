//! GL 4.3's `ARB_clear_buffer_object` entry points (`tessera_engine::clear_buffer`).

use std::ffi::c_void;

use tessera_engine::clear_buffer::client_pixel_size;

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// One pixel of client data of `format` and `ty` at `data` (`None` for a null pointer,
/// which clears to zeros).
///
/// # Safety
/// A non-null `data` holds one pixel of `format` and `ty` (GL's contract).
unsafe fn pixel<'a>(data: *const c_void, format: GLenum, ty: GLenum) -> Option<&'a [u8]> {
    // SAFETY: by this function's contract.
    (!data.is_null())
        .then(|| unsafe { ptr::slice(data.cast::<u8>(), client_pixel_size(format, ty)) })
}

/// `glClearBufferData` (GL 4.3).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glClearBufferData(
    target: GLenum,
    internal_format: GLenum,
    format: GLenum,
    ty: GLenum,
    data: *const c_void,
) {
    // SAFETY: GL contract: `data` is null or holds one pixel of `format` and `ty`.
    let data = unsafe { pixel(data, format, ty) };
    gl_call("glClearBufferData", (), |c| {
        c.clear_buffer_data(target, internal_format, format, ty, data)
    });
}

/// `glClearBufferSubData` (GL 4.3).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glClearBufferSubData(
    target: GLenum,
    internal_format: GLenum,
    offset: GLintptr,
    size: GLsizeiptr,
    format: GLenum,
    ty: GLenum,
    data: *const c_void,
) {
    // SAFETY: GL contract: `data` is null or holds one pixel of `format` and `ty`.
    let data = unsafe { pixel(data, format, ty) };
    gl_call("glClearBufferSubData", (), |c| {
        c.clear_buffer_sub_data(target, internal_format, offset, size, format, ty, data)
    });
}

/// `glClearNamedBufferData` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glClearNamedBufferData(
    buffer: GLuint,
    internal_format: GLenum,
    format: GLenum,
    ty: GLenum,
    data: *const c_void,
) {
    // SAFETY: GL contract: `data` is null or holds one pixel of `format` and `ty`.
    let data = unsafe { pixel(data, format, ty) };
    gl_call("glClearNamedBufferData", (), |c| {
        c.clear_named_buffer_data(buffer, internal_format, format, ty, data)
    });
}

/// `glClearNamedBufferSubData` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glClearNamedBufferSubData(
    buffer: GLuint,
    internal_format: GLenum,
    offset: GLintptr,
    size: GLsizeiptr,
    format: GLenum,
    ty: GLenum,
    data: *const c_void,
) {
    // SAFETY: GL contract: `data` is null or holds one pixel of `format` and `ty`.
    let data = unsafe { pixel(data, format, ty) };
    gl_call("glClearNamedBufferSubData", (), |c| {
        c.clear_named_buffer_sub_data(buffer, internal_format, offset, size, format, ty, data)
    });
}

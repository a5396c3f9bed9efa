//! GL 4.4's `ARB_clear_texture` entry points (`tessera_engine::texture`'s clears).

use std::ffi::c_void;

use tessera_engine::clear_buffer::client_pixel_size;

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// One texel of client data of `format` and `ty` at `data` (`None` for a null pointer,
/// which clears to zeros).
///
/// # Safety
/// A non-null `data` holds one texel of `format` and `ty` (GL's contract).
unsafe fn texel<'a>(data: *const c_void, format: GLenum, ty: GLenum) -> Option<&'a [u8]> {
    // SAFETY: by this function's contract.
    (!data.is_null())
        .then(|| unsafe { ptr::slice(data.cast::<u8>(), client_pixel_size(format, ty)) })
}

/// `glClearTexImage` (GL 4.4).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glClearTexImage(
    texture: GLuint,
    level: GLint,
    format: GLenum,
    ty: GLenum,
    data: *const c_void,
) {
    // SAFETY: GL contract: `data` is null or holds one texel of `format` and `ty`.
    let data = unsafe { texel(data, format, ty) };
    gl_call("glClearTexImage", (), |c| {
        c.clear_tex_image(texture, level, format, ty, data)
    });
}

/// `glClearTexSubImage` (GL 4.4).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glClearTexSubImage(
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    format: GLenum,
    ty: GLenum,
    data: *const c_void,
) {
    // SAFETY: GL contract: `data` is null or holds one texel of `format` and `ty`.
    let data = unsafe { texel(data, format, ty) };
    gl_call("glClearTexSubImage", (), |c| {
        c.clear_tex_sub_image(
            texture, level, xoffset, yoffset, zoffset, width, height, depth, format, ty, data,
        )
    });
}

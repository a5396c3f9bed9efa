//! GL 4.4's multi-bind entry points (`ARB_multi_bind`, `tessera_engine::multi_bind`).
//!
//! A null array of names passes as `None` (it unbinds the range); the other arrays are read
//! only with names, as GL reads them. A negative count reads nothing.

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `count` elements at `p`, or `None` for a null `p`.
///
/// # Safety
/// A non-null `p` holds `count` elements (GL's contract).
unsafe fn names<'a, T>(p: *const T, count: GLsizei) -> Option<&'a [T]> {
    // SAFETY: by this function's contract.
    (!p.is_null()).then(|| unsafe { ptr::slice(p, ptr::len(count)) })
}

/// `glBindBuffersBase` (GL 4.4).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glBindBuffersBase(
    target: GLenum,
    first: GLuint,
    count: GLsizei,
    buffers: *const GLuint,
) {
    // SAFETY: GL contract: `buffers` is null or holds `count` names.
    let buffers = unsafe { names(buffers, count) };
    gl_call("glBindBuffersBase", (), |c| {
        c.bind_buffers_base(target, first, count, buffers)
    });
}

/// `glBindBuffersRange` (GL 4.4).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glBindBuffersRange(
    target: GLenum,
    first: GLuint,
    count: GLsizei,
    buffers: *const GLuint,
    offsets: *const GLintptr,
    sizes: *const GLsizeiptr,
) {
    // SAFETY: GL contract: `buffers` is null or holds `count` names, and then `offsets`
    // and `sizes` hold `count` values each.
    let (buffers, offsets, sizes) = unsafe {
        match names(buffers, count) {
            Some(b) => (
                Some(b),
                ptr::slice(offsets, ptr::len(count)),
                ptr::slice(sizes, ptr::len(count)),
            ),
            None => (None, &[][..], &[][..]),
        }
    };
    gl_call("glBindBuffersRange", (), |c| {
        c.bind_buffers_range(target, first, count, buffers, offsets, sizes)
    });
}

/// `glBindTextures` (GL 4.4).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glBindTextures(first: GLuint, count: GLsizei, textures: *const GLuint) {
    // SAFETY: GL contract: `textures` is null or holds `count` names.
    let textures = unsafe { names(textures, count) };
    gl_call("glBindTextures", (), |c| {
        c.bind_textures(first, count, textures)
    });
}

/// `glBindSamplers` (GL 4.4).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glBindSamplers(first: GLuint, count: GLsizei, samplers: *const GLuint) {
    // SAFETY: GL contract: `samplers` is null or holds `count` names.
    let samplers = unsafe { names(samplers, count) };
    gl_call("glBindSamplers", (), |c| {
        c.bind_samplers(first, count, samplers)
    });
}

/// `glBindImageTextures` (GL 4.4).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glBindImageTextures(
    first: GLuint,
    count: GLsizei,
    textures: *const GLuint,
) {
    // SAFETY: GL contract: `textures` is null or holds `count` names.
    let textures = unsafe { names(textures, count) };
    gl_call("glBindImageTextures", (), |c| {
        c.bind_image_textures(first, count, textures)
    });
}

/// `glBindVertexBuffers` (GL 4.4).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glBindVertexBuffers(
    first: GLuint,
    count: GLsizei,
    buffers: *const GLuint,
    offsets: *const GLintptr,
    strides: *const GLsizei,
) {
    // SAFETY: GL contract: `buffers` is null or holds `count` names, and then `offsets`
    // and `strides` hold `count` values each.
    let (buffers, offsets, strides) = unsafe {
        match names(buffers, count) {
            Some(b) => (
                Some(b),
                ptr::slice(offsets, ptr::len(count)),
                ptr::slice(strides, ptr::len(count)),
            ),
            None => (None, &[][..], &[][..]),
        }
    };
    gl_call("glBindVertexBuffers", (), |c| {
        c.bind_vertex_buffers(first, count, buffers, offsets, strides)
    });
}

//! GL 4.3's `ARB_texture_buffer_range` entry point (`glTexBufferRange`; the engine's
//! `texture::storage`).

use super::types::*;
use crate::current::gl_call;

/// `glTexBufferRange` (GL 4.3).
#[unsafe(no_mangle)]
pub extern "C" fn glTexBufferRange(
    target: GLenum,
    internal_format: GLenum,
    buffer: GLuint,
    offset: GLintptr,
    size: GLsizeiptr,
) {
    gl_call("glTexBufferRange", (), |c| {
        c.tex_buffer_range(target, internal_format, buffer, offset, size)
    });
}

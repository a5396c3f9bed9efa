//! GL 4.3's `ARB_invalidate_subdata` entry points (`tessera_engine::invalidate`).

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `glInvalidateTexSubImage` (GL 4.3).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments, reason = "mirrors glInvalidateTexSubImage")]
pub extern "C" fn glInvalidateTexSubImage(
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
) {
    gl_call("glInvalidateTexSubImage", (), |c| {
        c.invalidate_tex_sub_image(
            texture, level, xoffset, yoffset, zoffset, width, height, depth,
        )
    });
}

/// `glInvalidateTexImage` (GL 4.3).
#[unsafe(no_mangle)]
pub extern "C" fn glInvalidateTexImage(texture: GLuint, level: GLint) {
    gl_call("glInvalidateTexImage", (), |c| {
        c.invalidate_tex_image(texture, level)
    });
}

/// `glInvalidateBufferSubData` (GL 4.3).
#[unsafe(no_mangle)]
pub extern "C" fn glInvalidateBufferSubData(buffer: GLuint, offset: GLintptr, length: GLsizeiptr) {
    gl_call("glInvalidateBufferSubData", (), |c| {
        c.invalidate_buffer_sub_data(buffer, offset, length)
    });
}

/// `glInvalidateBufferData` (GL 4.3).
#[unsafe(no_mangle)]
pub extern "C" fn glInvalidateBufferData(buffer: GLuint) {
    gl_call("glInvalidateBufferData", (), |c| {
        c.invalidate_buffer_data(buffer)
    });
}

/// `glInvalidateFramebuffer` (GL 4.3): reads `count` attachments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glInvalidateFramebuffer(
    target: GLenum,
    count: GLsizei,
    attachments: *const GLenum,
) {
    // SAFETY: GL contract: `attachments` holds `count` values.
    let attachments = unsafe { ptr::slice(attachments, ptr::len(count)) };
    gl_call("glInvalidateFramebuffer", (), |c| {
        c.invalidate_framebuffer(target, count, attachments)
    });
}

/// `glInvalidateSubFramebuffer` (GL 4.3): reads `count` attachments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glInvalidateSubFramebuffer(
    target: GLenum,
    count: GLsizei,
    attachments: *const GLenum,
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
) {
    // SAFETY: GL contract: `attachments` holds `count` values.
    let attachments = unsafe { ptr::slice(attachments, ptr::len(count)) };
    gl_call("glInvalidateSubFramebuffer", (), |c| {
        c.invalidate_sub_framebuffer(target, count, attachments, x, y, width, height)
    });
}

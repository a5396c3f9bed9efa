//! Framebuffers and renderbuffers, clears of single buffers, and `glReadPixels`.

use std::ffi::c_void;

use tessera_engine::gl::COLOR;
use tessera_engine::pixel::PixelsMut;

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `glGenFramebuffers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGenFramebuffers(n: GLsizei, framebuffers: *mut GLuint) {
    // SAFETY: GL contract: `framebuffers` holds `n` names.
    let out = unsafe { ptr::slice_mut(framebuffers, ptr::len(n)) };
    gl_call("glGenFramebuffers", (), |c| c.gen_framebuffers(n, out));
}

/// `glDeleteFramebuffers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDeleteFramebuffers(n: GLsizei, framebuffers: *const GLuint) {
    // SAFETY: GL contract: `framebuffers` holds `n` names.
    let names = unsafe { ptr::slice(framebuffers, ptr::len(n)) };
    gl_call("glDeleteFramebuffers", (), |c| {
        c.delete_framebuffers(n, names)
    });
}

/// `glGenRenderbuffers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGenRenderbuffers(n: GLsizei, renderbuffers: *mut GLuint) {
    // SAFETY: GL contract: `renderbuffers` holds `n` names.
    let out = unsafe { ptr::slice_mut(renderbuffers, ptr::len(n)) };
    gl_call("glGenRenderbuffers", (), |c| c.gen_renderbuffers(n, out));
}

/// `glDeleteRenderbuffers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDeleteRenderbuffers(n: GLsizei, renderbuffers: *const GLuint) {
    // SAFETY: GL contract: `renderbuffers` holds `n` names.
    let names = unsafe { ptr::slice(renderbuffers, ptr::len(n)) };
    gl_call("glDeleteRenderbuffers", (), |c| {
        c.delete_renderbuffers(n, names)
    });
}

/// `glDrawBuffers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDrawBuffers(n: GLsizei, bufs: *const GLenum) {
    // SAFETY: GL contract: `bufs` holds `n` values.
    let bufs = unsafe { ptr::slice(bufs, ptr::len(n)) };
    gl_call("glDrawBuffers", (), |c| c.draw_buffers(n, bufs));
}

/// Values a `glClearBuffer*v` reads: four for a colour buffer, one for depth or stencil.
fn clear_values(buffer: GLenum) -> usize {
    if buffer == COLOR { 4 } else { 1 }
}

/// `glClearBufferiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glClearBufferiv(buffer: GLenum, drawbuffer: GLint, value: *const GLint) {
    // SAFETY: GL contract: `value` holds the buffer's values.
    let v = unsafe { ptr::slice(value, clear_values(buffer)) };
    gl_call("glClearBufferiv", (), |c| {
        c.clear_bufferiv(buffer, drawbuffer, v)
    });
}

/// `glClearBufferuiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glClearBufferuiv(buffer: GLenum, drawbuffer: GLint, value: *const GLuint) {
    // SAFETY: GL contract: `value` holds the buffer's values.
    let v = unsafe { ptr::slice(value, clear_values(buffer)) };
    gl_call("glClearBufferuiv", (), |c| {
        c.clear_bufferuiv(buffer, drawbuffer, v)
    });
}

/// `glClearBufferfv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glClearBufferfv(buffer: GLenum, drawbuffer: GLint, value: *const GLfloat) {
    // SAFETY: GL contract: `value` holds the buffer's values.
    let v = unsafe { ptr::slice(value, clear_values(buffer)) };
    gl_call("glClearBufferfv", (), |c| {
        c.clear_bufferfv(buffer, drawbuffer, v)
    });
}

/// `glReadPixels`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glReadPixels(
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    ty: GLenum,
    pixels: *mut c_void,
) {
    gl_call("glReadPixels", (), |c| {
        let px = if c.pack_buffer_bound() {
            PixelsMut::Offset(pixels as usize)
        } else {
            let len = c.pack_len(2, format, ty, [width, height, 1]);
            // SAFETY: GL contract: client memory has room for the rectangle under the
            // pack state.
            PixelsMut::Bytes(unsafe { ptr::slice_mut(pixels.cast::<u8>(), len) })
        };
        c.read_pixels(x, y, width, height, format, ty, px);
        crate::events::drain(c);
    });
}

/// `glGetFramebufferAttachmentParameteriv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetFramebufferAttachmentParameteriv(
    target: GLenum,
    attachment: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: GL contract: every attachment parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetFramebufferAttachmentParameteriv", (), |c| {
        c.get_framebuffer_attachment_parameteriv(target, attachment, pname, out)
    });
}

/// `glGetRenderbufferParameteriv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetRenderbufferParameteriv(
    target: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: GL contract: every renderbuffer parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetRenderbufferParameteriv", (), |c| {
        c.get_renderbuffer_parameteriv(target, pname, out)
    });
}

/// `glGetMultisamplefv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetMultisamplefv(pname: GLenum, index: GLuint, val: *mut GLfloat) {
    // SAFETY: GL contract: `val` has room for a position (two values).
    let out = unsafe { ptr::slice_mut(val, 2) };
    gl_call("glGetMultisamplefv", (), |c| {
        c.get_multisamplefv(pname, index, out)
    });
}

/// `glFramebufferTextureLayerEXT` (EXT_texture_array): `glFramebufferTextureLayer`.
#[unsafe(no_mangle)]
pub extern "C" fn glFramebufferTextureLayerEXT(
    target: GLenum,
    attachment: GLenum,
    texture: GLuint,
    level: GLint,
    layer: GLint,
) {
    gl_call("glFramebufferTextureLayerEXT", (), |c| {
        c.framebuffer_texture_layer(target, attachment, texture, level, layer)
    })
}

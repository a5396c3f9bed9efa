//! GL 4.5's direct state access for the framebuffer verbs and parameters: the named clears,
//! `glBlitNamedFramebuffer`, `glInvalidateNamedFramebuffer{Data,SubData}` and
//! `glNamedFramebufferParameteri`/`glGetNamedFramebufferParameteriv`
//! (`engine::direct_state`).

use tessera_engine::gl::COLOR;

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// Values a clear of `buffer` reads: four for a colour buffer, one for depth or stencil.
fn clear_values(buffer: GLenum) -> usize {
    if buffer == COLOR { 4 } else { 1 }
}

/// `glClearNamedFramebufferiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glClearNamedFramebufferiv(
    framebuffer: GLuint,
    buffer: GLenum,
    drawbuffer: GLint,
    value: *const GLint,
) {
    // SAFETY: GL contract: `value` holds the buffer's values.
    let v = unsafe { ptr::slice(value, clear_values(buffer)) };
    gl_call("glClearNamedFramebufferiv", (), |c| {
        c.clear_named_framebufferiv(framebuffer, buffer, drawbuffer, v)
    });
}

/// `glClearNamedFramebufferuiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glClearNamedFramebufferuiv(
    framebuffer: GLuint,
    buffer: GLenum,
    drawbuffer: GLint,
    value: *const GLuint,
) {
    // SAFETY: GL contract: `value` holds the buffer's values.
    let v = unsafe { ptr::slice(value, clear_values(buffer)) };
    gl_call("glClearNamedFramebufferuiv", (), |c| {
        c.clear_named_framebufferuiv(framebuffer, buffer, drawbuffer, v)
    });
}

/// `glClearNamedFramebufferfv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glClearNamedFramebufferfv(
    framebuffer: GLuint,
    buffer: GLenum,
    drawbuffer: GLint,
    value: *const GLfloat,
) {
    // SAFETY: GL contract: `value` holds the buffer's values.
    let v = unsafe { ptr::slice(value, clear_values(buffer)) };
    gl_call("glClearNamedFramebufferfv", (), |c| {
        c.clear_named_framebufferfv(framebuffer, buffer, drawbuffer, v)
    });
}

/// `glClearNamedFramebufferfi`.
#[unsafe(no_mangle)]
pub extern "C" fn glClearNamedFramebufferfi(
    framebuffer: GLuint,
    buffer: GLenum,
    drawbuffer: GLint,
    depth: GLfloat,
    stencil: GLint,
) {
    gl_call("glClearNamedFramebufferfi", (), |c| {
        c.clear_named_framebufferfi(framebuffer, buffer, drawbuffer, depth, stencil)
    });
}

/// `glBlitNamedFramebuffer`.
#[unsafe(no_mangle)]
pub extern "C" fn glBlitNamedFramebuffer(
    read_framebuffer: GLuint,
    draw_framebuffer: GLuint,
    src_x0: GLint,
    src_y0: GLint,
    src_x1: GLint,
    src_y1: GLint,
    dst_x0: GLint,
    dst_y0: GLint,
    dst_x1: GLint,
    dst_y1: GLint,
    mask: GLbitfield,
    filter: GLenum,
) {
    gl_call("glBlitNamedFramebuffer", (), |c| {
        c.blit_named_framebuffer(
            read_framebuffer,
            draw_framebuffer,
            [src_x0, src_y0, src_x1, src_y1],
            [dst_x0, dst_y0, dst_x1, dst_y1],
            mask,
            filter,
        )
    });
}

/// `glInvalidateNamedFramebufferData`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glInvalidateNamedFramebufferData(
    framebuffer: GLuint,
    num_attachments: GLsizei,
    attachments: *const GLenum,
) {
    // SAFETY: GL contract: `attachments` holds `num_attachments` values.
    let attachments = unsafe { ptr::slice(attachments, ptr::len(num_attachments)) };
    gl_call("glInvalidateNamedFramebufferData", (), |c| {
        c.invalidate_named_framebuffer_data(framebuffer, num_attachments, attachments)
    });
}

/// `glInvalidateNamedFramebufferSubData`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glInvalidateNamedFramebufferSubData(
    framebuffer: GLuint,
    num_attachments: GLsizei,
    attachments: *const GLenum,
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
) {
    // SAFETY: GL contract: `attachments` holds `num_attachments` values.
    let attachments = unsafe { ptr::slice(attachments, ptr::len(num_attachments)) };
    gl_call("glInvalidateNamedFramebufferSubData", (), |c| {
        c.invalidate_named_framebuffer_sub_data(
            framebuffer,
            num_attachments,
            attachments,
            x,
            y,
            width,
            height,
        )
    });
}

/// `glNamedFramebufferParameteri`.
#[unsafe(no_mangle)]
pub extern "C" fn glNamedFramebufferParameteri(framebuffer: GLuint, pname: GLenum, param: GLint) {
    gl_call("glNamedFramebufferParameteri", (), |c| {
        c.named_framebuffer_parameteri(framebuffer, pname, param)
    });
}

/// `glGetNamedFramebufferParameteriv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetNamedFramebufferParameteriv(
    framebuffer: GLuint,
    pname: GLenum,
    param: *mut GLint,
) {
    // SAFETY: GL contract: every framebuffer parameter is one value.
    let out = unsafe { ptr::slice_mut(param, 1) };
    gl_call("glGetNamedFramebufferParameteriv", (), |c| {
        c.get_named_framebuffer_parameteriv(framebuffer, pname, out)
    });
}

//! GL 4.3's `ARB_framebuffer_no_attachments` entry points (`glFramebufferParameteri`,
//! `glGetFramebufferParameteriv`; the engine's `framebuffer::defaults`).

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `glFramebufferParameteri` (GL 4.3).
#[unsafe(no_mangle)]
pub extern "C" fn glFramebufferParameteri(target: GLenum, pname: GLenum, param: GLint) {
    gl_call("glFramebufferParameteri", (), |c| {
        c.framebuffer_parameteri(target, pname, param)
    });
}

/// `glGetFramebufferParameteriv` (GL 4.3).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetFramebufferParameteriv(
    target: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: GL contract: every framebuffer parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetFramebufferParameteriv", (), |c| {
        c.get_framebuffer_parameteriv(target, pname, out)
    });
}

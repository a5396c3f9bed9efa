//! The internal-format query entry points: GL 4.2's `glGetInternalformativ`
//! (`ARB_internalformat_query`, and every pname of GL 4.3's `ARB_internalformat_query2`) and
//! GL 4.3's `glGetInternalformati64v` (the engine's `internalformat`).

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `glGetInternalformativ` (GL 4.2): at most `bufSize` values are written.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetInternalformativ(
    target: GLenum,
    internalformat: GLenum,
    pname: GLenum,
    buf_size: GLsizei,
    params: *mut GLint,
) {
    // SAFETY: GL contract: `params` has room for `bufSize` values.
    let out = unsafe { ptr::slice_mut(params, buf_size.max(0) as usize) };
    gl_call("glGetInternalformativ", (), |c| {
        c.get_internalformativ(target, internalformat, pname, buf_size, out)
    });
}

/// `glGetInternalformati64v` (GL 4.3): at most `bufSize` values are written.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetInternalformati64v(
    target: GLenum,
    internalformat: GLenum,
    pname: GLenum,
    buf_size: GLsizei,
    params: *mut GLint64,
) {
    // SAFETY: GL contract: `params` has room for `bufSize` values.
    let out = unsafe { ptr::slice_mut(params, buf_size.max(0) as usize) };
    gl_call("glGetInternalformati64v", (), |c| {
        c.get_internalformati64v(target, internalformat, pname, buf_size, out)
    });
}

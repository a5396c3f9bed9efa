//! GL 4.2's `ARB_internalformat_query` entry point (`glGetInternalformativ`; the engine's
//! `internalformat`).

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

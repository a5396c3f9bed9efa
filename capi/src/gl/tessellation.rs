//! Tessellation (GL 4.0, `ARB_tessellation_shader`): the patch parameters.

use tessera_engine::gl::{PATCH_DEFAULT_INNER_LEVEL, PATCH_DEFAULT_OUTER_LEVEL};

use super::types::{GLenum, GLfloat, GLint};
use crate::current::gl_call;

/// `glPatchParameteri`.
#[unsafe(no_mangle)]
pub extern "C" fn glPatchParameteri(pname: GLenum, value: GLint) {
    gl_call("glPatchParameteri", (), |c| {
        c.patch_parameter_i(pname, value)
    });
}

/// `glPatchParameterfv`: four values for `PATCH_DEFAULT_OUTER_LEVEL`, two for
/// `PATCH_DEFAULT_INNER_LEVEL` (none read for another name, which is an error).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glPatchParameterfv(pname: GLenum, values: *const GLfloat) {
    let n = match pname {
        PATCH_DEFAULT_OUTER_LEVEL => 4,
        PATCH_DEFAULT_INNER_LEVEL => 2,
        _ => 0,
    };
    let values = if values.is_null() || n == 0 {
        &[][..]
    } else {
        // SAFETY: the module's contract: `values` holds the values `pname` has.
        unsafe { std::slice::from_raw_parts(values, n) }
    };
    gl_call("glPatchParameterfv", (), |c| {
        c.patch_parameter_fv(pname, values)
    });
}

//! GL 4.1's `ARB_ES2_compatibility` entry points (`tessera_engine::es2_compat`; the depth
//! calls are the engine's `render_state` ones).

use std::ffi::c_void;

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `glReleaseShaderCompiler` (GL 4.1).
#[unsafe(no_mangle)]
pub extern "C" fn glReleaseShaderCompiler() {
    gl_call("glReleaseShaderCompiler", (), |c| {
        c.release_shader_compiler()
    });
}

/// `glShaderBinary` (GL 4.1): reads `count` shader names (none when it is negative, which
/// the engine refuses); the binary itself is never read, since no format is loaded.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glShaderBinary(
    count: GLsizei,
    shaders: *const GLuint,
    binary_format: GLenum,
    _binary: *const c_void,
    length: GLsizei,
) {
    // SAFETY: GL contract: `shaders` holds `count` names.
    let names = unsafe { ptr::slice(shaders, ptr::len(count)) };
    gl_call("glShaderBinary", (), |c| {
        c.shader_binary(count, names, binary_format, length)
    });
}

/// `glGetShaderPrecisionFormat` (GL 4.1): two range values and one precision.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetShaderPrecisionFormat(
    shader_type: GLenum,
    precision_type: GLenum,
    range: *mut GLint,
    precision: *mut GLint,
) {
    // SAFETY: GL contract: `range` has room for two values, `precision` for one.
    let (range, precision) = unsafe { (ptr::slice_mut(range, 2), ptr::out(precision)) };
    gl_call("glGetShaderPrecisionFormat", (), |c| {
        c.get_shader_precision_format(shader_type, precision_type, range, precision)
    });
}

/// `glDepthRangef` (GL 4.1).
#[unsafe(no_mangle)]
pub extern "C" fn glDepthRangef(near: GLfloat, far: GLfloat) {
    gl_call("glDepthRangef", (), |c| c.depth_rangef(near, far));
}

/// `glClearDepthf` (GL 4.1).
#[unsafe(no_mangle)]
pub extern "C" fn glClearDepthf(depth: GLfloat) {
    gl_call("glClearDepthf", (), |c| c.clear_depthf(depth));
}

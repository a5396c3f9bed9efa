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
/// the engine refuses) and the `length` bytes of the binary (a SPIR-V module, GL 4.6).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glShaderBinary(
    count: GLsizei,
    shaders: *const GLuint,
    binary_format: GLenum,
    binary: *const c_void,
    length: GLsizei,
) {
    // SAFETY: GL contract: `shaders` holds `count` names and `binary` `length` bytes.
    let (names, bytes) = unsafe {
        (
            ptr::slice(shaders, ptr::len(count)),
            ptr::slice(binary.cast::<u8>(), ptr::len(length)),
        )
    };
    let binary = (!binary.is_null()).then_some(bytes);
    gl_call("glShaderBinary", (), |c| {
        c.shader_binary(count, names, binary_format, binary, length)
    });
}

/// `glSpecializeShader` (GL 4.6, `ARB_gl_spirv`): the entry point's name and
/// `num_specialization_constants` indices and values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glSpecializeShader(
    shader: GLuint,
    entry_point: *const GLchar,
    num_specialization_constants: GLuint,
    constant_index: *const GLuint,
    constant_value: *const GLuint,
) {
    let n = ptr::len(num_specialization_constants);
    // SAFETY: GL contract: `entry_point` is a NUL-terminated string (or null, read as
    // empty), the arrays hold `num_specialization_constants` values each.
    let (entry, indices, values) = unsafe {
        (
            if entry_point.is_null() {
                &[][..]
            } else {
                std::ffi::CStr::from_ptr(entry_point).to_bytes()
            },
            ptr::slice(constant_index, n),
            ptr::slice(constant_value, n),
        )
    };
    gl_call("glSpecializeShader", (), |c| {
        c.specialize_shader(shader, entry, indices, values)
    });
}

/// `glSpecializeShaderARB`: `glSpecializeShader`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glSpecializeShaderARB(
    shader: GLuint,
    entry_point: *const GLchar,
    num_specialization_constants: GLuint,
    constant_index: *const GLuint,
    constant_value: *const GLuint,
) {
    // SAFETY: the caller's contract is glSpecializeShader's.
    unsafe {
        glSpecializeShader(
            shader,
            entry_point,
            num_specialization_constants,
            constant_index,
            constant_value,
        )
    }
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

//! Shader subroutines (GL 4.0, `ARB_shader_subroutine`): the engine's
//! `engine::program::subroutine` answers them.

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `glGetSubroutineUniformLocation`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetSubroutineUniformLocation(
    program: GLuint,
    shadertype: GLenum,
    name: *const GLchar,
) -> GLint {
    // SAFETY: GL contract: `name` is NUL-terminated.
    let name = unsafe { ptr::string(name) };
    gl_call("glGetSubroutineUniformLocation", -1, |c| {
        c.get_subroutine_uniform_location(program, shadertype, &name)
    })
}

/// `glGetSubroutineIndex`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetSubroutineIndex(
    program: GLuint,
    shadertype: GLenum,
    name: *const GLchar,
) -> GLuint {
    // SAFETY: GL contract: `name` is NUL-terminated.
    let name = unsafe { ptr::string(name) };
    gl_call("glGetSubroutineIndex", u32::MAX, |c| {
        c.get_subroutine_index(program, shadertype, &name)
    })
}

/// `glGetActiveSubroutineUniformiv`: one value, or the uniform's compatible functions.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetActiveSubroutineUniformiv(
    program: GLuint,
    shadertype: GLenum,
    index: GLuint,
    pname: GLenum,
    values: *mut GLint,
) {
    use tessera_engine::gl::{COMPATIBLE_SUBROUTINES, NUM_COMPATIBLE_SUBROUTINES};
    // The values `pname` asks for: one, or as many as the uniform has compatible functions.
    let count = if pname == COMPATIBLE_SUBROUTINES {
        let mut n = [0];
        gl_call("glGetActiveSubroutineUniformiv", (), |c| {
            c.get_active_subroutine_uniformiv(
                program,
                shadertype,
                index,
                NUM_COMPATIBLE_SUBROUTINES,
                &mut n,
            )
        });
        ptr::len(n[0])
    } else {
        1
    };
    // SAFETY: GL contract: `values` has room for what `pname` returns.
    let out = unsafe { ptr::slice_mut(values, count) };
    gl_call("glGetActiveSubroutineUniformiv", (), |c| {
        c.get_active_subroutine_uniformiv(program, shadertype, index, pname, out)
    });
}

/// `glGetActiveSubroutineUniformName`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetActiveSubroutineUniformName(
    program: GLuint,
    shadertype: GLenum,
    index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    name: *mut GLchar,
) {
    // SAFETY: GL contract: `name` has room for `buf_size` bytes, `length` for one value.
    let (out, len) = unsafe {
        (
            ptr::slice_mut(name.cast::<u8>(), ptr::len(buf_size)),
            ptr::out(length),
        )
    };
    gl_call("glGetActiveSubroutineUniformName", (), |c| {
        c.get_active_subroutine_uniform_name(program, shadertype, index, buf_size, len, out)
    });
}

/// `glGetActiveSubroutineName`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetActiveSubroutineName(
    program: GLuint,
    shadertype: GLenum,
    index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    name: *mut GLchar,
) {
    // SAFETY: GL contract: `name` has room for `buf_size` bytes, `length` for one value.
    let (out, len) = unsafe {
        (
            ptr::slice_mut(name.cast::<u8>(), ptr::len(buf_size)),
            ptr::out(length),
        )
    };
    gl_call("glGetActiveSubroutineName", (), |c| {
        c.get_active_subroutine_name(program, shadertype, index, buf_size, len, out)
    });
}

/// `glUniformSubroutinesuiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glUniformSubroutinesuiv(
    shadertype: GLenum,
    count: GLsizei,
    indices: *const GLuint,
) {
    // SAFETY: GL contract: `indices` holds `count` values.
    let indices = unsafe { ptr::slice(indices, ptr::len(count)) };
    gl_call("glUniformSubroutinesuiv", (), |c| {
        c.uniform_subroutinesuiv(shadertype, count, indices)
    });
}

/// `glGetUniformSubroutineuiv`: one value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetUniformSubroutineuiv(
    shadertype: GLenum,
    location: GLint,
    params: *mut GLuint,
) {
    // SAFETY: GL contract: `params` has room for one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetUniformSubroutineuiv", (), |c| {
        c.get_uniform_subroutineuiv(shadertype, location, out)
    });
}

/// `glGetProgramStageiv`: one value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetProgramStageiv(
    program: GLuint,
    shadertype: GLenum,
    pname: GLenum,
    values: *mut GLint,
) {
    // SAFETY: GL contract: `values` has room for one value.
    let out = unsafe { ptr::slice_mut(values, 1) };
    gl_call("glGetProgramStageiv", (), |c| {
        c.get_program_stageiv(program, shadertype, pname, out)
    });
}

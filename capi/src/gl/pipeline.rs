//! Program pipeline objects and separable programs (GL 4.1, `ARB_separate_shader_objects`):
//! `glGenProgramPipelines` and the other pipeline entry points, `glCreateShaderProgramv`,
//! and `glProgramUniform*`, which set a uniform of any program without making it current.

use std::borrow::Cow;

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `glGenProgramPipelines`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGenProgramPipelines(n: GLsizei, pipelines: *mut GLuint) {
    // SAFETY: GL contract: `pipelines` has room for `n` names.
    let out = unsafe { ptr::slice_mut(pipelines, ptr::len(n)) };
    gl_call("glGenProgramPipelines", (), |c| {
        c.gen_program_pipelines(n, out)
    });
}

/// `glCreateProgramPipelines` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCreateProgramPipelines(n: GLsizei, pipelines: *mut GLuint) {
    // SAFETY: GL contract: `pipelines` has room for `n` names.
    let out = unsafe { ptr::slice_mut(pipelines, ptr::len(n)) };
    gl_call("glCreateProgramPipelines", (), |c| {
        c.create_program_pipelines(n, out)
    });
}

/// `glDeleteProgramPipelines`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDeleteProgramPipelines(n: GLsizei, pipelines: *const GLuint) {
    // SAFETY: GL contract: `pipelines` holds `n` names.
    let names = unsafe { ptr::slice(pipelines, ptr::len(n)) };
    gl_call("glDeleteProgramPipelines", (), |c| {
        c.delete_program_pipelines(n, names)
    });
}

/// `glIsProgramPipeline`.
#[unsafe(no_mangle)]
pub extern "C" fn glIsProgramPipeline(pipeline: GLuint) -> GLboolean {
    gl_call("glIsProgramPipeline", 0, |c| {
        c.is_program_pipeline(pipeline)
    })
}

/// `glBindProgramPipeline`.
#[unsafe(no_mangle)]
pub extern "C" fn glBindProgramPipeline(pipeline: GLuint) {
    gl_call("glBindProgramPipeline", (), |c| {
        c.bind_program_pipeline(pipeline)
    });
}

/// `glUseProgramStages`.
#[unsafe(no_mangle)]
pub extern "C" fn glUseProgramStages(pipeline: GLuint, stages: GLbitfield, program: GLuint) {
    gl_call("glUseProgramStages", (), |c| {
        c.use_program_stages(pipeline, stages, program)
    });
}

/// `glActiveShaderProgram`.
#[unsafe(no_mangle)]
pub extern "C" fn glActiveShaderProgram(pipeline: GLuint, program: GLuint) {
    gl_call("glActiveShaderProgram", (), |c| {
        c.active_shader_program(pipeline, program)
    });
}

/// `glValidateProgramPipeline`.
#[unsafe(no_mangle)]
pub extern "C" fn glValidateProgramPipeline(pipeline: GLuint) {
    gl_call("glValidateProgramPipeline", (), |c| {
        c.validate_program_pipeline(pipeline)
    });
}

/// `glGetProgramPipelineiv`: one value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetProgramPipelineiv(
    pipeline: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: GL contract: `params` has room for one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetProgramPipelineiv", (), |c| {
        c.get_program_pipelineiv(pipeline, pname, out)
    });
}

/// `glGetProgramPipelineInfoLog`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetProgramPipelineInfoLog(
    pipeline: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    info_log: *mut GLchar,
) {
    // SAFETY: GL contract: `info_log` has room for `buf_size` bytes, `length` for one value.
    let (out, len) = unsafe {
        (
            ptr::slice_mut(info_log.cast::<u8>(), ptr::len(buf_size)),
            ptr::out(length),
        )
    };
    gl_call("glGetProgramPipelineInfoLog", (), |c| {
        c.get_program_pipeline_info_log(pipeline, buf_size, len, out)
    });
}

/// `glCreateShaderProgramv`: `count` NUL-terminated strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCreateShaderProgramv(
    kind: GLenum,
    count: GLsizei,
    strings: *const *const GLchar,
) -> GLuint {
    // SAFETY: GL contract: `strings` holds `count` NUL-terminated strings.
    let sources: Vec<Cow<'_, str>> = unsafe {
        ptr::slice(strings, ptr::len(count))
            .iter()
            .map(|&s| ptr::string_n(s, -1))
            .collect()
    };
    let refs: Vec<&str> = sources.iter().map(|s| &**s).collect();
    gl_call("glCreateShaderProgramv", 0, |c| {
        c.create_shader_program_v(kind, count, &refs)
    })
}
/// `glProgramUniform1f`.
#[unsafe(no_mangle)]
pub extern "C" fn glProgramUniform1f(program: GLuint, location: GLint, v0: GLfloat) {
    gl_call("glProgramUniform1f", (), |c| {
        c.program_uniform1f(program, location, v0)
    });
}
/// `glProgramUniform2f`.
#[unsafe(no_mangle)]
pub extern "C" fn glProgramUniform2f(program: GLuint, location: GLint, v0: GLfloat, v1: GLfloat) {
    gl_call("glProgramUniform2f", (), |c| {
        c.program_uniform2f(program, location, v0, v1)
    });
}
/// `glProgramUniform3f`.
#[unsafe(no_mangle)]
pub extern "C" fn glProgramUniform3f(
    program: GLuint,
    location: GLint,
    v0: GLfloat,
    v1: GLfloat,
    v2: GLfloat,
) {
    gl_call("glProgramUniform3f", (), |c| {
        c.program_uniform3f(program, location, v0, v1, v2)
    });
}
/// `glProgramUniform4f`.
#[unsafe(no_mangle)]
pub extern "C" fn glProgramUniform4f(
    program: GLuint,
    location: GLint,
    v0: GLfloat,
    v1: GLfloat,
    v2: GLfloat,
    v3: GLfloat,
) {
    gl_call("glProgramUniform4f", (), |c| {
        c.program_uniform4f(program, location, v0, v1, v2, v3)
    });
}
/// `glProgramUniform1i`.
#[unsafe(no_mangle)]
pub extern "C" fn glProgramUniform1i(program: GLuint, location: GLint, v0: GLint) {
    gl_call("glProgramUniform1i", (), |c| {
        c.program_uniform1i(program, location, v0)
    });
}
/// `glProgramUniform2i`.
#[unsafe(no_mangle)]
pub extern "C" fn glProgramUniform2i(program: GLuint, location: GLint, v0: GLint, v1: GLint) {
    gl_call("glProgramUniform2i", (), |c| {
        c.program_uniform2i(program, location, v0, v1)
    });
}
/// `glProgramUniform3i`.
#[unsafe(no_mangle)]
pub extern "C" fn glProgramUniform3i(
    program: GLuint,
    location: GLint,
    v0: GLint,
    v1: GLint,
    v2: GLint,
) {
    gl_call("glProgramUniform3i", (), |c| {
        c.program_uniform3i(program, location, v0, v1, v2)
    });
}
/// `glProgramUniform4i`.
#[unsafe(no_mangle)]
pub extern "C" fn glProgramUniform4i(
    program: GLuint,
    location: GLint,
    v0: GLint,
    v1: GLint,
    v2: GLint,
    v3: GLint,
) {
    gl_call("glProgramUniform4i", (), |c| {
        c.program_uniform4i(program, location, v0, v1, v2, v3)
    });
}
/// `glProgramUniform1ui`.
#[unsafe(no_mangle)]
pub extern "C" fn glProgramUniform1ui(program: GLuint, location: GLint, v0: GLuint) {
    gl_call("glProgramUniform1ui", (), |c| {
        c.program_uniform1ui(program, location, v0)
    });
}
/// `glProgramUniform2ui`.
#[unsafe(no_mangle)]
pub extern "C" fn glProgramUniform2ui(program: GLuint, location: GLint, v0: GLuint, v1: GLuint) {
    gl_call("glProgramUniform2ui", (), |c| {
        c.program_uniform2ui(program, location, v0, v1)
    });
}
/// `glProgramUniform3ui`.
#[unsafe(no_mangle)]
pub extern "C" fn glProgramUniform3ui(
    program: GLuint,
    location: GLint,
    v0: GLuint,
    v1: GLuint,
    v2: GLuint,
) {
    gl_call("glProgramUniform3ui", (), |c| {
        c.program_uniform3ui(program, location, v0, v1, v2)
    });
}
/// `glProgramUniform4ui`.
#[unsafe(no_mangle)]
pub extern "C" fn glProgramUniform4ui(
    program: GLuint,
    location: GLint,
    v0: GLuint,
    v1: GLuint,
    v2: GLuint,
    v3: GLuint,
) {
    gl_call("glProgramUniform4ui", (), |c| {
        c.program_uniform4ui(program, location, v0, v1, v2, v3)
    });
}
/// Defines `glProgramUniform{N}{t}v`: `count` elements of `N` values.
macro_rules! program_uniform_vectors {
    ($($name:ident($t:ty; $n:literal) => $method:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            program: GLuint,
            location: GLint,
            count: GLsizei,
            value: *const $t,
        ) {
            // SAFETY: GL contract: `value` holds `count` elements.
            let v = unsafe { ptr::slice(value, ptr::len(count) * $n) };
            gl_call(stringify!($name), (), |c| c.$method(program, location, count, v));
        }
    )*};
}

program_uniform_vectors! {
    glProgramUniform1fv(GLfloat; 1) => program_uniform1fv;
    glProgramUniform2fv(GLfloat; 2) => program_uniform2fv;
    glProgramUniform3fv(GLfloat; 3) => program_uniform3fv;
    glProgramUniform4fv(GLfloat; 4) => program_uniform4fv;
    glProgramUniform1iv(GLint; 1) => program_uniform1iv;
    glProgramUniform2iv(GLint; 2) => program_uniform2iv;
    glProgramUniform3iv(GLint; 3) => program_uniform3iv;
    glProgramUniform4iv(GLint; 4) => program_uniform4iv;
    glProgramUniform1uiv(GLuint; 1) => program_uniform1uiv;
    glProgramUniform2uiv(GLuint; 2) => program_uniform2uiv;
    glProgramUniform3uiv(GLuint; 3) => program_uniform3uiv;
    glProgramUniform4uiv(GLuint; 4) => program_uniform4uiv;
}

/// Defines `glProgramUniformMatrix*fv`: `count` matrices of `N` values.
macro_rules! program_uniform_matrices {
    ($($name:ident($n:literal) => $method:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            program: GLuint,
            location: GLint,
            count: GLsizei,
            transpose: GLboolean,
            value: *const GLfloat,
        ) {
            // SAFETY: GL contract: `value` holds `count` matrices.
            let v = unsafe { ptr::slice(value, ptr::len(count) * $n) };
            gl_call(stringify!($name), (), |c| {
                c.$method(program, location, count, transpose, v)
            });
        }
    )*};
}

program_uniform_matrices! {
    glProgramUniformMatrix2fv(4) => program_uniform_matrix2fv;
    glProgramUniformMatrix3fv(9) => program_uniform_matrix3fv;
    glProgramUniformMatrix4fv(16) => program_uniform_matrix4fv;
    glProgramUniformMatrix2x3fv(6) => program_uniform_matrix2x3fv;
    glProgramUniformMatrix3x2fv(6) => program_uniform_matrix3x2fv;
    glProgramUniformMatrix2x4fv(8) => program_uniform_matrix2x4fv;
    glProgramUniformMatrix4x2fv(8) => program_uniform_matrix4x2fv;
    glProgramUniformMatrix3x4fv(12) => program_uniform_matrix3x4fv;
    glProgramUniformMatrix4x3fv(12) => program_uniform_matrix4x3fv;
}

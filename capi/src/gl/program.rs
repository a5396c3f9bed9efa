//! Shaders, programs, uniforms, uniform blocks and transform feedback varyings: the entry
//! points that take strings (NUL-terminated, or with explicit lengths) and value arrays.

use std::borrow::Cow;
use std::ffi::c_void;

use tessera_engine::gl::UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES;

use super::types::*;
use crate::current::{gl_call, raised};
use crate::ptr;

/// The output buffer of a `glGet*Log`/`glGet*Name` call: `buf_size` bytes.
///
/// # Safety
/// A non-null `buf` has room for `buf_size` bytes.
unsafe fn text_out<'a>(buf: *mut GLchar, buf_size: GLsizei) -> &'a mut [u8] {
    // SAFETY: forwarded contract.
    unsafe { ptr::slice_mut(buf.cast::<u8>(), ptr::len(buf_size)) }
}

/// `glShaderSource`: each string is NUL-terminated unless its length is given and
/// non-negative.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glShaderSource(
    shader: GLuint,
    count: GLsizei,
    string: *const *const GLchar,
    length: *const GLint,
) {
    let n = ptr::len(count);
    // SAFETY: GL contract: `string` (and a non-null `length`) hold `count` entries, each
    // string readable as its length says.
    let sources: Vec<Cow<'_, str>> = unsafe {
        let strings = ptr::slice(string, n);
        let lengths = ptr::slice(length, n);
        strings
            .iter()
            .enumerate()
            .map(|(i, &s)| ptr::string_n(s, lengths.get(i).copied().unwrap_or(-1)))
            .collect()
    };
    let refs: Vec<&str> = sources.iter().map(|s| &**s).collect();
    gl_call("glShaderSource", (), |c| {
        c.shader_source(shader, count, &refs)
    });
}

/// `glGetShaderSource`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetShaderSource(
    shader: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    source: *mut GLchar,
) {
    // SAFETY: GL contract: `source` has room for `buf_size` bytes, `length` for one value.
    let (out, len) = unsafe { (text_out(source, buf_size), ptr::out(length)) };
    gl_call("glGetShaderSource", (), |c| {
        c.get_shader_source(shader, buf_size, len, out)
    });
}

/// `glGetShaderInfoLog`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetShaderInfoLog(
    shader: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    info_log: *mut GLchar,
) {
    // SAFETY: GL contract: `info_log` has room for `buf_size` bytes, `length` for one.
    let (out, len) = unsafe { (text_out(info_log, buf_size), ptr::out(length)) };
    gl_call("glGetShaderInfoLog", (), |c| {
        c.get_shader_info_log(shader, buf_size, len, out)
    });
}

/// `glGetProgramInfoLog`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetProgramInfoLog(
    program: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    info_log: *mut GLchar,
) {
    // SAFETY: GL contract: `info_log` has room for `buf_size` bytes, `length` for one.
    let (out, len) = unsafe { (text_out(info_log, buf_size), ptr::out(length)) };
    gl_call("glGetProgramInfoLog", (), |c| {
        c.get_program_info_log(program, buf_size, len, out)
    });
}

/// `glGetShaderiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetShaderiv(shader: GLuint, pname: GLenum, params: *mut GLint) {
    // SAFETY: GL contract: every shader parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetShaderiv", (), |c| c.get_shaderiv(shader, pname, out));
}

/// `glGetProgramiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetProgramiv(program: GLuint, pname: GLenum, params: *mut GLint) {
    // Every GL 3.3 program parameter is one value; COMPUTE_WORK_GROUP_SIZE (GL 4.3) is
    // three.
    let n = if pname == tessera_engine::gl::COMPUTE_WORK_GROUP_SIZE {
        3
    } else {
        1
    };
    // SAFETY: GL contract: `params` has room for the `n` values of `pname`.
    let out = unsafe { ptr::slice_mut(params, n) };
    gl_call("glGetProgramiv", (), |c| {
        c.get_programiv(program, pname, out)
    });
}

/// `glGetAttachedShaders`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetAttachedShaders(
    program: GLuint,
    max_count: GLsizei,
    count: *mut GLsizei,
    shaders: *mut GLuint,
) {
    // SAFETY: GL contract: `shaders` has room for `max_count` names, `count` for one.
    let (out, n) = unsafe {
        (
            ptr::slice_mut(shaders, ptr::len(max_count)),
            ptr::out(count),
        )
    };
    gl_call("glGetAttachedShaders", (), |c| {
        c.get_attached_shaders(program, max_count, n, out)
    });
}

/// `glBindAttribLocation`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glBindAttribLocation(program: GLuint, index: GLuint, name: *const GLchar) {
    // SAFETY: GL contract: `name` is NUL-terminated.
    let name = unsafe { ptr::string(name) };
    gl_call("glBindAttribLocation", (), |c| {
        c.bind_attrib_location(program, index, &name)
    });
}

/// `glGetAttribLocation`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetAttribLocation(program: GLuint, name: *const GLchar) -> GLint {
    // SAFETY: GL contract: `name` is NUL-terminated.
    let name = unsafe { ptr::string(name) };
    gl_call("glGetAttribLocation", 0, |c| {
        c.get_attrib_location(program, &name)
    })
}

/// `glBindFragDataLocation`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glBindFragDataLocation(
    program: GLuint,
    color: GLuint,
    name: *const GLchar,
) {
    // SAFETY: GL contract: `name` is NUL-terminated.
    let name = unsafe { ptr::string(name) };
    gl_call("glBindFragDataLocation", (), |c| {
        c.bind_frag_data_location(program, color, &name)
    });
}

/// `glBindFragDataLocationIndexed`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glBindFragDataLocationIndexed(
    program: GLuint,
    color: GLuint,
    index: GLuint,
    name: *const GLchar,
) {
    // SAFETY: GL contract: `name` is NUL-terminated.
    let name = unsafe { ptr::string(name) };
    gl_call("glBindFragDataLocationIndexed", (), |c| {
        c.bind_frag_data_location_indexed(program, color, index, &name)
    });
}

/// `glGetFragDataLocation`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetFragDataLocation(program: GLuint, name: *const GLchar) -> GLint {
    // SAFETY: GL contract: `name` is NUL-terminated.
    let name = unsafe { ptr::string(name) };
    gl_call("glGetFragDataLocation", 0, |c| {
        c.get_frag_data_location(program, &name)
    })
}

/// `glGetFragDataIndex`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetFragDataIndex(program: GLuint, name: *const GLchar) -> GLint {
    // SAFETY: GL contract: `name` is NUL-terminated.
    let name = unsafe { ptr::string(name) };
    gl_call("glGetFragDataIndex", 0, |c| {
        c.get_frag_data_index(program, &name)
    })
}

/// `glGetUniformLocation`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetUniformLocation(program: GLuint, name: *const GLchar) -> GLint {
    // SAFETY: GL contract: `name` is NUL-terminated.
    let name = unsafe { ptr::string(name) };
    gl_call("glGetUniformLocation", 0, |c| {
        c.get_uniform_location(program, &name)
    })
}

/// `glGetUniformBlockIndex`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetUniformBlockIndex(program: GLuint, name: *const GLchar) -> GLuint {
    // SAFETY: GL contract: `name` is NUL-terminated.
    let name = unsafe { ptr::string(name) };
    gl_call("glGetUniformBlockIndex", 0, |c| {
        c.get_uniform_block_index(program, &name)
    })
}

/// Defines `glGetActiveAttrib` / `glGetActiveUniform`.
macro_rules! active_variable {
    ($($name:ident => $method:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            program: GLuint,
            index: GLuint,
            buf_size: GLsizei,
            length: *mut GLsizei,
            size: *mut GLint,
            ty: *mut GLenum,
            name: *mut GLchar,
        ) {
            // SAFETY: GL contract: `name` has room for `buf_size` bytes, the others for one
            // value each.
            let (out, len) = unsafe { (text_out(name, buf_size), ptr::out(length)) };
            let (mut s, mut t) = (0, 0);
            let written = gl_call(stringify!($name), false, |c| {
                !raised(c, |c| c.$method(program, index, buf_size, len, &mut s, &mut t, out)).1
            });
            if written {
                // SAFETY: GL contract (above).
                unsafe {
                    ptr::write(size, s);
                    ptr::write(ty, t);
                }
            }
        }
    )*};
}

active_variable! {
    glGetActiveAttrib => get_active_attrib;
    glGetActiveUniform => get_active_uniform;
}

/// `glGetTransformFeedbackVarying` (the engine writes nothing: no linked program records
/// varyings yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetTransformFeedbackVarying(
    program: GLuint,
    index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    size: *mut GLsizei,
    ty: *mut GLenum,
    name: *mut GLchar,
) {
    // SAFETY: GL contract: `name` has room for `buf_size` bytes, the others for one value.
    let (out, len, size, ty) = unsafe {
        (
            text_out(name, buf_size),
            ptr::out(length),
            ptr::out(size),
            ptr::out(ty),
        )
    };
    let (mut s, mut t) = (0, 0);
    gl_call("glGetTransformFeedbackVarying", (), |c| {
        c.get_transform_feedback_varying(
            program,
            index,
            buf_size,
            len,
            size.unwrap_or(&mut s),
            ty.unwrap_or(&mut t),
            out,
        )
    });
}

/// `glTransformFeedbackVaryings`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glTransformFeedbackVaryings(
    program: GLuint,
    count: GLsizei,
    varyings: *const *const GLchar,
    buffer_mode: GLenum,
) {
    // SAFETY: GL contract: `varyings` holds `count` NUL-terminated strings.
    let names: Vec<Cow<'_, str>> = unsafe {
        ptr::slice(varyings, ptr::len(count))
            .iter()
            .map(|&s| ptr::string(s))
            .collect()
    };
    let refs: Vec<&str> = names.iter().map(|s| &**s).collect();
    gl_call("glTransformFeedbackVaryings", (), |c| {
        c.transform_feedback_varyings(program, count, &refs, buffer_mode)
    });
}

/// `glGetUniformIndices`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetUniformIndices(
    program: GLuint,
    count: GLsizei,
    names: *const *const GLchar,
    indices: *mut GLuint,
) {
    let n = ptr::len(count);
    // SAFETY: GL contract: `names` holds `count` NUL-terminated strings and `indices` has
    // room for `count` values.
    let (names, out) = unsafe {
        let names: Vec<Cow<'_, str>> = ptr::slice(names, n)
            .iter()
            .map(|&s| ptr::string(s))
            .collect();
        (names, ptr::slice_mut(indices, n))
    };
    let refs: Vec<&str> = names.iter().map(|s| &**s).collect();
    gl_call("glGetUniformIndices", (), |c| {
        c.get_uniform_indices(program, count, &refs, out)
    });
}

/// `glGetActiveUniformsiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetActiveUniformsiv(
    program: GLuint,
    count: GLsizei,
    indices: *const GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    let n = ptr::len(count);
    // SAFETY: GL contract: `indices` holds `count` values and `params` has room for as
    // many.
    let (indices, out) = unsafe { (ptr::slice(indices, n), ptr::slice_mut(params, n)) };
    gl_call("glGetActiveUniformsiv", (), |c| {
        c.get_active_uniformsiv(program, count, indices, pname, out)
    });
}

/// `glGetActiveUniformName`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetActiveUniformName(
    program: GLuint,
    index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    name: *mut GLchar,
) {
    // SAFETY: GL contract: `name` has room for `buf_size` bytes, `length` for one value.
    let (out, len) = unsafe { (text_out(name, buf_size), ptr::out(length)) };
    gl_call("glGetActiveUniformName", (), |c| {
        c.get_active_uniform_name(program, index, buf_size, len, out)
    });
}

/// `glGetActiveUniformBlockiv`: `UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES` writes one value
/// per active uniform of the block, every other `pname` one value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetActiveUniformBlockiv(
    program: GLuint,
    index: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    gl_call("glGetActiveUniformBlockiv", (), |c| {
        let n = if pname == UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES {
            c.uniform_block_uniforms(program, index)
        } else {
            1
        };
        // SAFETY: GL contract: `params` has room for the values of `pname`.
        let out = unsafe { ptr::slice_mut(params, n) };
        c.get_active_uniform_blockiv(program, index, pname, out)
    });
}

/// `glGetActiveUniformBlockName`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetActiveUniformBlockName(
    program: GLuint,
    index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    name: *mut GLchar,
) {
    // SAFETY: GL contract: `name` has room for `buf_size` bytes, `length` for one value.
    let (out, len) = unsafe { (text_out(name, buf_size), ptr::out(length)) };
    gl_call("glGetActiveUniformBlockName", (), |c| {
        c.get_active_uniform_block_name(program, index, buf_size, len, out)
    });
}

/// Defines `glUniform{N}{t}v`: `count` elements of `N` values.
macro_rules! uniform_vectors {
    ($($name:ident($t:ty; $n:literal) => $method:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(location: GLint, count: GLsizei, value: *const $t) {
            // SAFETY: GL contract: `value` holds `count` elements.
            let v = unsafe { ptr::slice(value, ptr::len(count) * $n) };
            gl_call(stringify!($name), (), |c| c.$method(location, count, v));
        }
    )*};
}

uniform_vectors! {
    glUniform1fv(GLfloat; 1) => uniform1fv;
    glUniform2fv(GLfloat; 2) => uniform2fv;
    glUniform3fv(GLfloat; 3) => uniform3fv;
    glUniform4fv(GLfloat; 4) => uniform4fv;
    glUniform1iv(GLint; 1) => uniform1iv;
    glUniform2iv(GLint; 2) => uniform2iv;
    glUniform3iv(GLint; 3) => uniform3iv;
    glUniform4iv(GLint; 4) => uniform4iv;
    glUniform1uiv(GLuint; 1) => uniform1uiv;
    glUniform2uiv(GLuint; 2) => uniform2uiv;
    glUniform3uiv(GLuint; 3) => uniform3uiv;
    glUniform4uiv(GLuint; 4) => uniform4uiv;
}

/// Defines `glUniformMatrix*fv`: `count` matrices of `N` values.
macro_rules! uniform_matrices {
    ($($name:ident($n:literal) => $method:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            location: GLint,
            count: GLsizei,
            transpose: GLboolean,
            value: *const GLfloat,
        ) {
            // SAFETY: GL contract: `value` holds `count` matrices.
            let v = unsafe { ptr::slice(value, ptr::len(count) * $n) };
            gl_call(stringify!($name), (), |c| c.$method(location, count, transpose, v));
        }
    )*};
}

uniform_matrices! {
    glUniformMatrix2fv(4) => uniform_matrix2fv;
    glUniformMatrix3fv(9) => uniform_matrix3fv;
    glUniformMatrix4fv(16) => uniform_matrix4fv;
    glUniformMatrix2x3fv(6) => uniform_matrix2x3fv;
    glUniformMatrix3x2fv(6) => uniform_matrix3x2fv;
    glUniformMatrix2x4fv(8) => uniform_matrix2x4fv;
    glUniformMatrix4x2fv(8) => uniform_matrix4x2fv;
    glUniformMatrix3x4fv(12) => uniform_matrix3x4fv;
    glUniformMatrix4x3fv(12) => uniform_matrix4x3fv;
}

/// Defines `glGetUniform{f,i,ui}v`: as many values as the uniform has components.
macro_rules! uniform_getters {
    ($($name:ident($t:ty) => $method:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(program: GLuint, location: GLint, params: *mut $t) {
            gl_call(stringify!($name), (), |c| {
                let n = c.uniform_len(program, location);
                // SAFETY: GL contract: `params` has room for the uniform's components.
                let out = unsafe { ptr::slice_mut(params, n) };
                c.$method(program, location, out)
            });
        }
    )*};
}

uniform_getters! {
    glGetUniformfv(GLfloat) => get_uniformfv;
    glGetUniformiv(GLint) => get_uniformiv;
    glGetUniformuiv(GLuint) => get_uniformuiv;
}

/// `glGetProgramBinary` (GL 4.1): writes at most `buf_size` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetProgramBinary(
    program: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    binary_format: *mut GLenum,
    binary: *mut c_void,
) {
    // SAFETY: GL contract: `binary` has room for `buf_size` bytes, `length` and
    // `binary_format` for one value each.
    let (out, len, format) = unsafe {
        (
            ptr::slice_mut(binary.cast::<u8>(), ptr::len(buf_size)),
            ptr::out(length),
            ptr::out(binary_format),
        )
    };
    gl_call("glGetProgramBinary", (), |c| {
        c.get_program_binary(program, buf_size, len, format, out)
    });
}

/// `glProgramBinary` (GL 4.1): reads `length` bytes (none when it is negative, which the
/// engine refuses).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glProgramBinary(
    program: GLuint,
    binary_format: GLenum,
    binary: *const c_void,
    length: GLsizei,
) {
    // SAFETY: GL contract: `binary` holds `length` bytes.
    let bytes = unsafe { ptr::slice(binary.cast::<u8>(), ptr::len(length)) };
    gl_call("glProgramBinary", (), |c| {
        c.program_binary(program, binary_format, bytes, length)
    });
}

/// `glProgramParameteri` (GL 4.1).
#[unsafe(no_mangle)]
pub extern "C" fn glProgramParameteri(program: GLuint, pname: GLenum, value: GLint) {
    gl_call("glProgramParameteri", (), |c| {
        c.program_parameteri(program, pname, value)
    });
}

//! Double-precision uniforms (GL 4.0's `ARB_gpu_shader_fp64`) and vertex attributes (GL
//! 4.1's `ARB_vertex_attrib_64bit`): `glUniform*d`, `glUniformMatrix*dv`,
//! `glProgramUniform*d*`, `glGetUniformdv`, `glVertexAttribL*`, `glVertexAttribLPointer`,
//! `glVertexAttribLFormat` and `glGetVertexAttribLdv`.

use std::ffi::c_void;

use tessera_engine::gl::CURRENT_VERTEX_ATTRIB;

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// Defines `glUniform{N}d` and `glProgramUniform{N}d`.
macro_rules! scalars {
    ($($name:ident, $program:ident($($v:ident),+) => $method:ident, $pmethod:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(location: GLint, $($v: GLdouble),+) {
            gl_call(stringify!($name), (), |c| c.$method(location, $($v),+));
        }
        #[doc = concat!("`", stringify!($program), "`.")]
        #[unsafe(no_mangle)]
        pub extern "C" fn $program(program: GLuint, location: GLint, $($v: GLdouble),+) {
            gl_call(stringify!($program), (), |c| c.$pmethod(program, location, $($v),+));
        }
    )*};
}

scalars! {
    glUniform1d, glProgramUniform1d(x) => uniform1d, program_uniform1d;
    glUniform2d, glProgramUniform2d(x, y) => uniform2d, program_uniform2d;
    glUniform3d, glProgramUniform3d(x, y, z) => uniform3d, program_uniform3d;
    glUniform4d, glProgramUniform4d(x, y, z, w) => uniform4d, program_uniform4d;
}

/// Defines `glUniform{N}dv` and `glProgramUniform{N}dv`: `count` elements of `N` values.
macro_rules! vectors {
    ($($name:ident, $program:ident($n:literal) => $method:ident, $pmethod:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(location: GLint, count: GLsizei, value: *const GLdouble) {
            // SAFETY: GL contract: `value` holds `count` elements.
            let v = unsafe { ptr::slice(value, ptr::len(count) * $n) };
            gl_call(stringify!($name), (), |c| c.$method(location, count, v));
        }
        #[doc = concat!("`", stringify!($program), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $program(
            program: GLuint,
            location: GLint,
            count: GLsizei,
            value: *const GLdouble,
        ) {
            // SAFETY: GL contract: `value` holds `count` elements.
            let v = unsafe { ptr::slice(value, ptr::len(count) * $n) };
            gl_call(stringify!($program), (), |c| c.$pmethod(program, location, count, v));
        }
    )*};
}

vectors! {
    glUniform1dv, glProgramUniform1dv(1) => uniform1dv, program_uniform1dv;
    glUniform2dv, glProgramUniform2dv(2) => uniform2dv, program_uniform2dv;
    glUniform3dv, glProgramUniform3dv(3) => uniform3dv, program_uniform3dv;
    glUniform4dv, glProgramUniform4dv(4) => uniform4dv, program_uniform4dv;
}

/// Defines `glUniformMatrix*dv` and `glProgramUniformMatrix*dv`: `count` matrices of `N`
/// values.
macro_rules! matrices {
    ($($name:ident, $program:ident($n:literal) => $method:ident, $pmethod:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            location: GLint,
            count: GLsizei,
            transpose: GLboolean,
            value: *const GLdouble,
        ) {
            // SAFETY: GL contract: `value` holds `count` matrices.
            let v = unsafe { ptr::slice(value, ptr::len(count) * $n) };
            gl_call(stringify!($name), (), |c| c.$method(location, count, transpose, v));
        }
        #[doc = concat!("`", stringify!($program), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $program(
            program: GLuint,
            location: GLint,
            count: GLsizei,
            transpose: GLboolean,
            value: *const GLdouble,
        ) {
            // SAFETY: GL contract: `value` holds `count` matrices.
            let v = unsafe { ptr::slice(value, ptr::len(count) * $n) };
            gl_call(stringify!($program), (), |c| {
                c.$pmethod(program, location, count, transpose, v)
            });
        }
    )*};
}

matrices! {
    glUniformMatrix2dv, glProgramUniformMatrix2dv(4) => uniform_matrix2dv, program_uniform_matrix2dv;
    glUniformMatrix3dv, glProgramUniformMatrix3dv(9) => uniform_matrix3dv, program_uniform_matrix3dv;
    glUniformMatrix4dv, glProgramUniformMatrix4dv(16) => uniform_matrix4dv, program_uniform_matrix4dv;
    glUniformMatrix2x3dv, glProgramUniformMatrix2x3dv(6) => uniform_matrix2x3dv, program_uniform_matrix2x3dv;
    glUniformMatrix3x2dv, glProgramUniformMatrix3x2dv(6) => uniform_matrix3x2dv, program_uniform_matrix3x2dv;
    glUniformMatrix2x4dv, glProgramUniformMatrix2x4dv(8) => uniform_matrix2x4dv, program_uniform_matrix2x4dv;
    glUniformMatrix4x2dv, glProgramUniformMatrix4x2dv(8) => uniform_matrix4x2dv, program_uniform_matrix4x2dv;
    glUniformMatrix3x4dv, glProgramUniformMatrix3x4dv(12) => uniform_matrix3x4dv, program_uniform_matrix3x4dv;
    glUniformMatrix4x3dv, glProgramUniformMatrix4x3dv(12) => uniform_matrix4x3dv, program_uniform_matrix4x3dv;
}

/// `glGetUniformdv`: as many values as the uniform has components.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetUniformdv(program: GLuint, location: GLint, params: *mut GLdouble) {
    gl_call("glGetUniformdv", (), |c| {
        let n = c.uniform_len(program, location);
        // SAFETY: GL contract: `params` has room for the uniform's components.
        let out = unsafe { ptr::slice_mut(params, n) };
        c.get_uniformdv(program, location, out)
    });
}

/// `glVertexAttribL1d`.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexAttribL1d(index: GLuint, x: GLdouble) {
    gl_call("glVertexAttribL1d", (), |c| c.vertex_attrib_l1d(index, x));
}

/// `glVertexAttribL2d`.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexAttribL2d(index: GLuint, x: GLdouble, y: GLdouble) {
    gl_call("glVertexAttribL2d", (), |c| {
        c.vertex_attrib_l2d(index, x, y)
    });
}

/// `glVertexAttribL3d`.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexAttribL3d(index: GLuint, x: GLdouble, y: GLdouble, z: GLdouble) {
    gl_call("glVertexAttribL3d", (), |c| {
        c.vertex_attrib_l3d(index, x, y, z)
    });
}

/// `glVertexAttribL4d`.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexAttribL4d(
    index: GLuint,
    x: GLdouble,
    y: GLdouble,
    z: GLdouble,
    w: GLdouble,
) {
    gl_call("glVertexAttribL4d", (), |c| {
        c.vertex_attrib_l4d(index, x, y, z, w)
    });
}

/// Defines `glVertexAttribL{N}dv`: `N` values, the rest filled with 0, 0, 1.
macro_rules! attrib_vectors {
    ($($name:ident($n:literal);)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(index: GLuint, v: *const GLdouble) {
            // SAFETY: GL contract: `v` holds `N` values.
            let v = unsafe { ptr::slice(v, $n) };
            let mut value = [0.0, 0.0, 0.0, 1.0];
            value[..v.len()].copy_from_slice(v);
            gl_call(stringify!($name), (), |c| {
                c.vertex_attrib_l4d(index, value[0], value[1], value[2], value[3])
            });
        }
    )*};
}

attrib_vectors! {
    glVertexAttribL1dv(1);
    glVertexAttribL2dv(2);
    glVertexAttribL3dv(3);
    glVertexAttribL4dv(4);
}

/// `glVertexAttribLPointer`.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexAttribLPointer(
    index: GLuint,
    size: GLint,
    ty: GLenum,
    stride: GLsizei,
    pointer: *const c_void,
) {
    gl_call("glVertexAttribLPointer", (), |c| {
        c.vertex_attrib_l_pointer(index, size, ty, stride, pointer as usize)
    });
}

/// `glVertexAttribLFormat` (GL 4.3).
#[unsafe(no_mangle)]
pub extern "C" fn glVertexAttribLFormat(
    attribindex: GLuint,
    size: GLint,
    ty: GLenum,
    relativeoffset: GLuint,
) {
    gl_call("glVertexAttribLFormat", (), |c| {
        c.vertex_attrib_l_format(attribindex, size, ty, relativeoffset)
    });
}

/// `glGetVertexAttribLdv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetVertexAttribLdv(index: GLuint, pname: GLenum, params: *mut GLdouble) {
    let n = if pname == CURRENT_VERTEX_ATTRIB { 4 } else { 1 };
    // SAFETY: GL contract: `params` has room for the values of `pname`.
    let out = unsafe { ptr::slice_mut(params, n) };
    gl_call("glGetVertexAttribLdv", (), |c| {
        c.get_vertex_attrib_ldv(index, pname, out)
    });
}

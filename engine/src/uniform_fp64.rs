//! Double-precision uniforms (GL 4.0's `ARB_gpu_shader_fp64`): `glUniform*d`,
//! `glUniformMatrix*dv`, their `glProgramUniform*` forms and `glGetUniformdv`.
//!
//! They take `glUniform*`'s path (`uniform.rs`): a double is 8 bytes of the default block at
//! the offsets and strides the front end reflected (std140: a `dvec3` or `dvec4` is aligned
//! to 32 bytes, matrix columns and array elements of doubles are 16 or 32 bytes apart), and
//! only a double uniform of the call's shape accepts them. As in Mesa, `glUniform*f` on a
//! double, `glUniform*d` on a float or a boolean, and a shape that differs are
//! `INVALID_OPERATION`; `glGetUniformdv` converts every other kind to double, and
//! `glGetUniformfv/iv/uiv` of a double round as Mesa does.

use tessera_components::gl::*;
use tessera_shader::gltype::Base;

use crate::context::Context;
use crate::uniform::{Call, Kind, Values};

const fn call(rows: u8, columns: u8, transpose: bool) -> Call {
    Call {
        kind: Kind::Double,
        rows,
        columns,
        transpose,
    }
}

/// Defines `glUniform{N}d`.
macro_rules! scalars {
    ($($(#[$doc:meta])* $name:ident($($v:ident),+) => $program:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(&mut self, location: GLint, $($v: f64),+) {
            let v = [$($v),+];
            self.set_uniform(location, 1, call(v.len() as u8, 1, false), Values::Double(&v));
        }
        #[doc = concat!("The `glProgramUniform*` form of [`Self::", stringify!($name), "`].")]
        pub fn $program(&mut self, program: GLuint, location: GLint, $($v: f64),+) {
            let v = [$($v),+];
            let c = call(v.len() as u8, 1, false);
            self.set_program_uniform(program, location, 1, c, Values::Double(&v));
        }
    )*};
}

/// Defines `glUniform{N}dv` and `glUniformMatrix*dv`: `count` elements from `value`.
macro_rules! arrays {
    ($($(#[$doc:meta])* $name:ident($rows:literal, $columns:literal $(, $t:ident)?) => $program:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(
            &mut self,
            location: GLint,
            count: GLsizei,
            $($t: GLboolean,)?
            value: &[f64],
        ) {
            let transpose = false $(|| $t != 0)?;
            self.set_uniform(location, count, call($rows, $columns, transpose), Values::Double(value));
        }
        #[doc = concat!("The `glProgramUniform*` form of [`Self::", stringify!($name), "`].")]
        pub fn $program(
            &mut self,
            program: GLuint,
            location: GLint,
            count: GLsizei,
            $($t: GLboolean,)?
            value: &[f64],
        ) {
            let transpose = false $(|| $t != 0)?;
            let c = call($rows, $columns, transpose);
            self.set_program_uniform(program, location, count, c, Values::Double(value));
        }
    )*};
}

impl Context {
    scalars! {
        /// `glUniform1d`.
        uniform1d(v0) => program_uniform1d;
        /// `glUniform2d`.
        uniform2d(v0, v1) => program_uniform2d;
        /// `glUniform3d`.
        uniform3d(v0, v1, v2) => program_uniform3d;
        /// `glUniform4d`.
        uniform4d(v0, v1, v2, v3) => program_uniform4d;
    }

    arrays! {
        /// `glUniform1dv`.
        uniform1dv(1, 1) => program_uniform1dv;
        /// `glUniform2dv`.
        uniform2dv(2, 1) => program_uniform2dv;
        /// `glUniform3dv`.
        uniform3dv(3, 1) => program_uniform3dv;
        /// `glUniform4dv`.
        uniform4dv(4, 1) => program_uniform4dv;
        /// `glUniformMatrix2dv`: column-major values (row-major with `transpose`).
        uniform_matrix2dv(2, 2, transpose) => program_uniform_matrix2dv;
        /// `glUniformMatrix3dv`.
        uniform_matrix3dv(3, 3, transpose) => program_uniform_matrix3dv;
        /// `glUniformMatrix4dv`.
        uniform_matrix4dv(4, 4, transpose) => program_uniform_matrix4dv;
        /// `glUniformMatrix2x3dv` (2 columns of 3).
        uniform_matrix2x3dv(3, 2, transpose) => program_uniform_matrix2x3dv;
        /// `glUniformMatrix3x2dv`.
        uniform_matrix3x2dv(2, 3, transpose) => program_uniform_matrix3x2dv;
        /// `glUniformMatrix2x4dv`.
        uniform_matrix2x4dv(4, 2, transpose) => program_uniform_matrix2x4dv;
        /// `glUniformMatrix4x2dv`.
        uniform_matrix4x2dv(2, 4, transpose) => program_uniform_matrix4x2dv;
        /// `glUniformMatrix3x4dv`.
        uniform_matrix3x4dv(4, 3, transpose) => program_uniform_matrix3x4dv;
        /// `glUniformMatrix4x3dv`.
        uniform_matrix4x3dv(3, 4, transpose) => program_uniform_matrix4x3dv;
    }

    /// `glGetUniformdv`: the components of the uniform (element) at `location`, every kind
    /// converted to double as Mesa converts it.
    pub fn get_uniformdv(&mut self, program: GLuint, location: GLint, params: &mut [f64]) {
        match self.read_uniform(program, location) {
            Ok((info, words)) => {
                for (out, &w) in params.iter_mut().zip(&words[..info.components()]) {
                    let w32 = w as u32;
                    *out = match info.base {
                        Base::Double => f64::from_bits(w),
                        Base::Float => f64::from(f32::from_bits(w32)),
                        Base::Int | Base::Sampler | Base::Image => f64::from(w32 as i32),
                        Base::Uint => f64::from(w32),
                        Base::Bool => f64::from(u8::from(w32 != 0)),
                    };
                }
            }
            Err(err) => self.error(err),
        }
    }
}

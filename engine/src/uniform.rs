//! Uniform values: `glUniform*` into the current program's default block (or, while none
//! is current, the bound program pipeline's active program's), `glProgramUniform*` into
//! any program's, and `glGetUniform*v` back out.
//!
//! `glUniform*` is on the hot path (a block game sets a uniform per draw), so a call is one
//! lock, an O(1) lookup of the location in the program's table, a type check, and the
//! std140 bytes written straight into the program's default-block storage; it bumps the
//! program's `uniforms_generation` and sets `Dirty::UNIFORMS`, and the verb that follows
//! sends the block (`SetUniforms`) once. No allocation, no hashing. Sampler uniforms hold
//! texture units instead: they update the program's sampler units and mark the texture
//! bindings dirty.
//!
//! Booleans are stored as 0/1 words and accept the float, int and uint forms; samplers accept
//! only `uniform1i(v)`; everything else needs its own scalar kind and shape (GL 3.3 §2.11.4).
//!
//! Values go into the block, and come back out, as `bytemuck` casts of the application's
//! words: native byte order, which is the little-endian order of the block's std140 bytes on
//! the only targets Tessera supports. Values the block holds in the order they arrive (a
//! vector, an array of `vec4`, a `mat4` or an array of them) are one copy; the rest (padded
//! arrays and matrix columns, transposed matrices, booleans) go word by word.

use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::{LinkedProgram, Program};
use tessera_shader::gltype::{self, Base, TypeInfo};

use crate::context::{Context, GlResult};
use crate::limits;

/// The scalar kind of a `glUniform*` call's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Float,
    Int,
    Uint,
    /// `glUniform*d` (GL 4.0's `ARB_gpu_shader_fp64`).
    Double,
}

/// The shape of a `glUniform*` call: scalar kind, components per column, columns (1 for
/// vectors), and whether matrices arrive transposed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Call {
    pub(crate) kind: Kind,
    pub(crate) rows: u8,
    pub(crate) columns: u8,
    pub(crate) transpose: bool,
}

/// The values of a call: raw 32-bit words (floats by their bits), or doubles.
#[derive(Clone, Copy)]
pub(crate) enum Values<'a> {
    Float(&'a [f32]),
    Int(&'a [i32]),
    Uint(&'a [u32]),
    Double(&'a [f64]),
}

impl Values<'_> {
    fn len(&self) -> usize {
        match self {
            Values::Double(v) => v.len(),
            _ => self.words().len(),
        }
    }

    /// The values as stored for a uniform of their own kind (floats and doubles by their
    /// bits).
    #[inline]
    fn bytes(&self) -> &[u8] {
        match self {
            Values::Float(v) => bytemuck::cast_slice(v),
            Values::Int(v) => bytemuck::cast_slice(v),
            Values::Uint(v) => bytemuck::cast_slice(v),
            Values::Double(v) => bytemuck::cast_slice(v),
        }
    }

    /// The 32-bit values as stored for a uniform of their own kind (none for doubles).
    #[inline]
    fn words(&self) -> &[u32] {
        match self {
            Values::Float(v) => bytemuck::cast_slice(v),
            Values::Int(v) => bytemuck::cast_slice(v),
            Values::Uint(v) => v,
            Values::Double(_) => &[],
        }
    }

    /// Value `i` as stored for a uniform of `base`.
    #[inline]
    fn word(&self, i: usize, base: Base) -> u32 {
        match (self, base) {
            (Values::Float(v), Base::Bool) => u32::from(v[i] != 0.0),
            (Values::Int(v), Base::Bool) => u32::from(v[i] != 0),
            (Values::Uint(v), Base::Bool) => u32::from(v[i] != 0),
            _ => self.words()[i],
        }
    }
}

/// Whether a call may set a uniform of `info` in a no-error context (`crate::no_error`):
/// values of the uniform's scalar width, whatever their kind and shape (a shape that does
/// not match writes what `write_uniform` clamps to the values given and the uniform's size).
fn fits_width(call: &Call, info: &TypeInfo) -> bool {
    (call.kind == Kind::Double) == (info.base == Base::Double)
}

/// Whether a call may set a uniform of `info`.
fn accepts(call: &Call, info: &TypeInfo) -> bool {
    if call.rows != info.rows || call.columns != info.columns {
        return false;
    }
    match info.base {
        Base::Float => call.kind == Kind::Float,
        Base::Int => call.kind == Kind::Int,
        Base::Uint => call.kind == Kind::Uint,
        // Mesa sets booleans from every kind but doubles.
        Base::Bool => call.columns == 1 && call.kind != Kind::Double,
        Base::Sampler | Base::Image => call.kind == Kind::Int,
        Base::Double => call.kind == Kind::Double,
    }
}

impl Context {
    /// Writes `count` elements of a `glUniform*` call at `location` of the current program
    /// (else of the bound program pipeline's active program, GL 4.1 §7.6.1).
    #[inline]
    pub(crate) fn set_uniform(
        &mut self,
        location: GLint,
        count: GLsizei,
        call: Call,
        values: Values<'_>,
    ) {
        if count < 0 {
            return self.error(INVALID_VALUE);
        }
        let target = match self.local.st.program {
            Some(e) => Some(e),
            None if self.local.st.pipeline.is_some() => {
                let sh = self.group.lock();
                Self::pipeline_active_program(&sh, &self.local)
            }
            None => None,
        };
        let Some(e) = target else {
            return self.error(INVALID_OPERATION);
        };
        if location == -1 {
            return;
        }
        let result = self.write_uniform_of(e, location, count, call, values);
        self.uniform_written(result);
    }

    /// Writes a uniform of program `e`: `Ok(true)` for a sampler.
    #[inline]
    fn write_uniform_of(
        &mut self,
        e: bevy_ecs::entity::Entity,
        location: GLint,
        count: GLsizei,
        call: Call,
        values: Values<'_>,
    ) -> GlResult<bool> {
        let checks = self.local.checks_errors();
        let mut sh = self.group.lock();
        match sh.world.get_mut::<Program>(e) {
            Some(mut p) if p.linked => {
                let p = &mut *p;
                match p.linked_state.as_mut() {
                    Some(l) => {
                        write_uniform(l, location, count, &call, values, checks).inspect(|_| {
                            p.uniforms_generation = p.uniforms_generation.wrapping_add(1);
                        })
                    }
                    None => Err(INVALID_OPERATION),
                }
            }
            _ => Err(INVALID_OPERATION),
        }
    }

    /// Marks what a uniform write changed, or raises its error.
    #[inline]
    fn uniform_written(&mut self, result: GlResult<bool>) {
        match result {
            Ok(sampler) => {
                if sampler {
                    // A unit may make two samplers of different types meet (a draw error).
                    self.local.touch(Dirty::TEXTURES | Dirty::DRAW_CHECK);
                    self.local.dirty_units = u64::MAX;
                } else {
                    self.local.touch(Dirty::UNIFORMS);
                }
            }
            Err(err) => self.error(err),
        }
    }

    /// `glProgramUniform*` (GL 4.1): a `glUniform*` call on any program, current or not.
    /// Errors in Mesa's order: the program's name, a negative count, an unlinked program;
    /// then location -1 is ignored.
    pub(crate) fn set_program_uniform(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        call: Call,
        values: Values<'_>,
    ) {
        let target = {
            let sh = self.group.lock();
            Self::program_entity(&sh, program).and_then(|e| {
                if count < 0 {
                    return Err(INVALID_VALUE);
                }
                if !sh.world.get::<Program>(e).is_some_and(|p| p.linked) {
                    return Err(INVALID_OPERATION);
                }
                Ok(e)
            })
        };
        let e = match target {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        if location == -1 {
            return;
        }
        let result = self.write_uniform_of(e, location, count, call, values);
        self.uniform_written(result);
    }

    fn program_uniform_f(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        shape: (u8, u8, bool),
        v: &[f32],
    ) {
        let call = Call {
            kind: Kind::Float,
            rows: shape.0,
            columns: shape.1,
            transpose: shape.2,
        };
        self.set_program_uniform(program, location, count, call, Values::Float(v));
    }

    fn program_uniform_i(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        rows: u8,
        v: &[i32],
    ) {
        let call = Call {
            kind: Kind::Int,
            rows,
            columns: 1,
            transpose: false,
        };
        self.set_program_uniform(program, location, count, call, Values::Int(v));
    }

    fn program_uniform_ui(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        rows: u8,
        v: &[u32],
    ) {
        let call = Call {
            kind: Kind::Uint,
            rows,
            columns: 1,
            transpose: false,
        };
        self.set_program_uniform(program, location, count, call, Values::Uint(v));
    }

    fn uniform_f(
        &mut self,
        location: GLint,
        count: GLsizei,
        rows: u8,
        columns: u8,
        transpose: bool,
        v: &[f32],
    ) {
        let call = Call {
            kind: Kind::Float,
            rows,
            columns,
            transpose,
        };
        self.set_uniform(location, count, call, Values::Float(v));
    }

    fn uniform_i(&mut self, location: GLint, count: GLsizei, rows: u8, v: &[i32]) {
        let call = Call {
            kind: Kind::Int,
            rows,
            columns: 1,
            transpose: false,
        };
        self.set_uniform(location, count, call, Values::Int(v));
    }

    fn uniform_ui(&mut self, location: GLint, count: GLsizei, rows: u8, v: &[u32]) {
        let call = Call {
            kind: Kind::Uint,
            rows,
            columns: 1,
            transpose: false,
        };
        self.set_uniform(location, count, call, Values::Uint(v));
    }

    /// `glUniform1f`.
    pub fn uniform1f(&mut self, location: GLint, v0: f32) {
        self.uniform_f(location, 1, 1, 1, false, &[v0]);
    }
    /// `glUniform2f`.
    pub fn uniform2f(&mut self, location: GLint, v0: f32, v1: f32) {
        self.uniform_f(location, 1, 2, 1, false, &[v0, v1]);
    }
    /// `glUniform3f`.
    pub fn uniform3f(&mut self, location: GLint, v0: f32, v1: f32, v2: f32) {
        self.uniform_f(location, 1, 3, 1, false, &[v0, v1, v2]);
    }
    /// `glUniform4f`.
    pub fn uniform4f(&mut self, location: GLint, v0: f32, v1: f32, v2: f32, v3: f32) {
        self.uniform_f(location, 1, 4, 1, false, &[v0, v1, v2, v3]);
    }
    /// `glUniform1i`.
    pub fn uniform1i(&mut self, location: GLint, v0: i32) {
        self.uniform_i(location, 1, 1, &[v0]);
    }
    /// `glUniform2i`.
    pub fn uniform2i(&mut self, location: GLint, v0: i32, v1: i32) {
        self.uniform_i(location, 1, 2, &[v0, v1]);
    }
    /// `glUniform3i`.
    pub fn uniform3i(&mut self, location: GLint, v0: i32, v1: i32, v2: i32) {
        self.uniform_i(location, 1, 3, &[v0, v1, v2]);
    }
    /// `glUniform4i`.
    pub fn uniform4i(&mut self, location: GLint, v0: i32, v1: i32, v2: i32, v3: i32) {
        self.uniform_i(location, 1, 4, &[v0, v1, v2, v3]);
    }
    /// `glUniform1ui`.
    pub fn uniform1ui(&mut self, location: GLint, v0: u32) {
        self.uniform_ui(location, 1, 1, &[v0]);
    }
    /// `glUniform2ui`.
    pub fn uniform2ui(&mut self, location: GLint, v0: u32, v1: u32) {
        self.uniform_ui(location, 1, 2, &[v0, v1]);
    }
    /// `glUniform3ui`.
    pub fn uniform3ui(&mut self, location: GLint, v0: u32, v1: u32, v2: u32) {
        self.uniform_ui(location, 1, 3, &[v0, v1, v2]);
    }
    /// `glUniform4ui`.
    pub fn uniform4ui(&mut self, location: GLint, v0: u32, v1: u32, v2: u32, v3: u32) {
        self.uniform_ui(location, 1, 4, &[v0, v1, v2, v3]);
    }
    /// `glUniform1fv`: `count` values from `value`.
    pub fn uniform1fv(&mut self, location: GLint, count: GLsizei, value: &[f32]) {
        self.uniform_f(location, count, 1, 1, false, value);
    }
    /// `glUniform2fv`.
    pub fn uniform2fv(&mut self, location: GLint, count: GLsizei, value: &[f32]) {
        self.uniform_f(location, count, 2, 1, false, value);
    }
    /// `glUniform3fv`.
    pub fn uniform3fv(&mut self, location: GLint, count: GLsizei, value: &[f32]) {
        self.uniform_f(location, count, 3, 1, false, value);
    }
    /// `glUniform4fv`.
    pub fn uniform4fv(&mut self, location: GLint, count: GLsizei, value: &[f32]) {
        self.uniform_f(location, count, 4, 1, false, value);
    }
    /// `glUniform1iv`.
    pub fn uniform1iv(&mut self, location: GLint, count: GLsizei, value: &[i32]) {
        self.uniform_i(location, count, 1, value);
    }
    /// `glUniform2iv`.
    pub fn uniform2iv(&mut self, location: GLint, count: GLsizei, value: &[i32]) {
        self.uniform_i(location, count, 2, value);
    }
    /// `glUniform3iv`.
    pub fn uniform3iv(&mut self, location: GLint, count: GLsizei, value: &[i32]) {
        self.uniform_i(location, count, 3, value);
    }
    /// `glUniform4iv`.
    pub fn uniform4iv(&mut self, location: GLint, count: GLsizei, value: &[i32]) {
        self.uniform_i(location, count, 4, value);
    }
    /// `glUniform1uiv`.
    pub fn uniform1uiv(&mut self, location: GLint, count: GLsizei, value: &[u32]) {
        self.uniform_ui(location, count, 1, value);
    }
    /// `glUniform2uiv`.
    pub fn uniform2uiv(&mut self, location: GLint, count: GLsizei, value: &[u32]) {
        self.uniform_ui(location, count, 2, value);
    }
    /// `glUniform3uiv`.
    pub fn uniform3uiv(&mut self, location: GLint, count: GLsizei, value: &[u32]) {
        self.uniform_ui(location, count, 3, value);
    }
    /// `glUniform4uiv`.
    pub fn uniform4uiv(&mut self, location: GLint, count: GLsizei, value: &[u32]) {
        self.uniform_ui(location, count, 4, value);
    }
    /// `glUniformMatrix2fv`: column-major values (row-major with `transpose`).
    pub fn uniform_matrix2fv(
        &mut self,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.uniform_f(location, count, 2, 2, transpose != 0, value);
    }
    /// `glUniformMatrix3fv`.
    pub fn uniform_matrix3fv(
        &mut self,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.uniform_f(location, count, 3, 3, transpose != 0, value);
    }
    /// `glUniformMatrix4fv`.
    pub fn uniform_matrix4fv(
        &mut self,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.uniform_f(location, count, 4, 4, transpose != 0, value);
    }
    /// `glUniformMatrix2x3fv` (2 columns of 3).
    pub fn uniform_matrix2x3fv(
        &mut self,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.uniform_f(location, count, 3, 2, transpose != 0, value);
    }
    /// `glUniformMatrix3x2fv` (3 columns of 2).
    pub fn uniform_matrix3x2fv(
        &mut self,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.uniform_f(location, count, 2, 3, transpose != 0, value);
    }
    /// `glUniformMatrix2x4fv` (2 columns of 4).
    pub fn uniform_matrix2x4fv(
        &mut self,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.uniform_f(location, count, 4, 2, transpose != 0, value);
    }
    /// `glUniformMatrix4x2fv` (4 columns of 2).
    pub fn uniform_matrix4x2fv(
        &mut self,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.uniform_f(location, count, 2, 4, transpose != 0, value);
    }
    /// `glUniformMatrix3x4fv` (3 columns of 4).
    pub fn uniform_matrix3x4fv(
        &mut self,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.uniform_f(location, count, 4, 3, transpose != 0, value);
    }
    /// `glUniformMatrix4x3fv` (4 columns of 3).
    pub fn uniform_matrix4x3fv(
        &mut self,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.uniform_f(location, count, 3, 4, transpose != 0, value);
    }

    /// `glProgramUniform1f`.
    pub fn program_uniform1f(&mut self, program: GLuint, location: GLint, v0: f32) {
        self.program_uniform_f(program, location, 1, (1, 1, false), &[v0]);
    }
    /// `glProgramUniform2f`.
    pub fn program_uniform2f(&mut self, program: GLuint, location: GLint, v0: f32, v1: f32) {
        self.program_uniform_f(program, location, 1, (2, 1, false), &[v0, v1]);
    }
    /// `glProgramUniform3f`.
    pub fn program_uniform3f(
        &mut self,
        program: GLuint,
        location: GLint,
        v0: f32,
        v1: f32,
        v2: f32,
    ) {
        self.program_uniform_f(program, location, 1, (3, 1, false), &[v0, v1, v2]);
    }
    /// `glProgramUniform4f`.
    pub fn program_uniform4f(
        &mut self,
        program: GLuint,
        location: GLint,
        v0: f32,
        v1: f32,
        v2: f32,
        v3: f32,
    ) {
        self.program_uniform_f(program, location, 1, (4, 1, false), &[v0, v1, v2, v3]);
    }
    /// `glProgramUniform1fv`.
    pub fn program_uniform1fv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        value: &[f32],
    ) {
        self.program_uniform_f(program, location, count, (1, 1, false), value);
    }
    /// `glProgramUniform2fv`.
    pub fn program_uniform2fv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        value: &[f32],
    ) {
        self.program_uniform_f(program, location, count, (2, 1, false), value);
    }
    /// `glProgramUniform3fv`.
    pub fn program_uniform3fv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        value: &[f32],
    ) {
        self.program_uniform_f(program, location, count, (3, 1, false), value);
    }
    /// `glProgramUniform4fv`.
    pub fn program_uniform4fv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        value: &[f32],
    ) {
        self.program_uniform_f(program, location, count, (4, 1, false), value);
    }
    /// `glProgramUniform1i`.
    pub fn program_uniform1i(&mut self, program: GLuint, location: GLint, v0: i32) {
        self.program_uniform_i(program, location, 1, 1, &[v0]);
    }
    /// `glProgramUniform2i`.
    pub fn program_uniform2i(&mut self, program: GLuint, location: GLint, v0: i32, v1: i32) {
        self.program_uniform_i(program, location, 1, 2, &[v0, v1]);
    }
    /// `glProgramUniform3i`.
    pub fn program_uniform3i(
        &mut self,
        program: GLuint,
        location: GLint,
        v0: i32,
        v1: i32,
        v2: i32,
    ) {
        self.program_uniform_i(program, location, 1, 3, &[v0, v1, v2]);
    }
    /// `glProgramUniform4i`.
    pub fn program_uniform4i(
        &mut self,
        program: GLuint,
        location: GLint,
        v0: i32,
        v1: i32,
        v2: i32,
        v3: i32,
    ) {
        self.program_uniform_i(program, location, 1, 4, &[v0, v1, v2, v3]);
    }
    /// `glProgramUniform1iv`.
    pub fn program_uniform1iv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        value: &[i32],
    ) {
        self.program_uniform_i(program, location, count, 1, value);
    }
    /// `glProgramUniform2iv`.
    pub fn program_uniform2iv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        value: &[i32],
    ) {
        self.program_uniform_i(program, location, count, 2, value);
    }
    /// `glProgramUniform3iv`.
    pub fn program_uniform3iv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        value: &[i32],
    ) {
        self.program_uniform_i(program, location, count, 3, value);
    }
    /// `glProgramUniform4iv`.
    pub fn program_uniform4iv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        value: &[i32],
    ) {
        self.program_uniform_i(program, location, count, 4, value);
    }
    /// `glProgramUniform1ui`.
    pub fn program_uniform1ui(&mut self, program: GLuint, location: GLint, v0: u32) {
        self.program_uniform_ui(program, location, 1, 1, &[v0]);
    }
    /// `glProgramUniform2ui`.
    pub fn program_uniform2ui(&mut self, program: GLuint, location: GLint, v0: u32, v1: u32) {
        self.program_uniform_ui(program, location, 1, 2, &[v0, v1]);
    }
    /// `glProgramUniform3ui`.
    pub fn program_uniform3ui(
        &mut self,
        program: GLuint,
        location: GLint,
        v0: u32,
        v1: u32,
        v2: u32,
    ) {
        self.program_uniform_ui(program, location, 1, 3, &[v0, v1, v2]);
    }
    /// `glProgramUniform4ui`.
    pub fn program_uniform4ui(
        &mut self,
        program: GLuint,
        location: GLint,
        v0: u32,
        v1: u32,
        v2: u32,
        v3: u32,
    ) {
        self.program_uniform_ui(program, location, 1, 4, &[v0, v1, v2, v3]);
    }
    /// `glProgramUniform1uiv`.
    pub fn program_uniform1uiv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        value: &[u32],
    ) {
        self.program_uniform_ui(program, location, count, 1, value);
    }
    /// `glProgramUniform2uiv`.
    pub fn program_uniform2uiv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        value: &[u32],
    ) {
        self.program_uniform_ui(program, location, count, 2, value);
    }
    /// `glProgramUniform3uiv`.
    pub fn program_uniform3uiv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        value: &[u32],
    ) {
        self.program_uniform_ui(program, location, count, 3, value);
    }
    /// `glProgramUniform4uiv`.
    pub fn program_uniform4uiv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        value: &[u32],
    ) {
        self.program_uniform_ui(program, location, count, 4, value);
    }
    /// `glProgramUniformMatrix2fv`.
    pub fn program_uniform_matrix2fv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.program_uniform_f(program, location, count, (2, 2, transpose != 0), value);
    }
    /// `glProgramUniformMatrix3fv`.
    pub fn program_uniform_matrix3fv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.program_uniform_f(program, location, count, (3, 3, transpose != 0), value);
    }
    /// `glProgramUniformMatrix4fv`.
    pub fn program_uniform_matrix4fv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.program_uniform_f(program, location, count, (4, 4, transpose != 0), value);
    }
    /// `glProgramUniformMatrix2x3fv`.
    pub fn program_uniform_matrix2x3fv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.program_uniform_f(program, location, count, (3, 2, transpose != 0), value);
    }
    /// `glProgramUniformMatrix3x2fv`.
    pub fn program_uniform_matrix3x2fv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.program_uniform_f(program, location, count, (2, 3, transpose != 0), value);
    }
    /// `glProgramUniformMatrix2x4fv`.
    pub fn program_uniform_matrix2x4fv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.program_uniform_f(program, location, count, (4, 2, transpose != 0), value);
    }
    /// `glProgramUniformMatrix4x2fv`.
    pub fn program_uniform_matrix4x2fv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.program_uniform_f(program, location, count, (2, 4, transpose != 0), value);
    }
    /// `glProgramUniformMatrix3x4fv`.
    pub fn program_uniform_matrix3x4fv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.program_uniform_f(program, location, count, (4, 3, transpose != 0), value);
    }
    /// `glProgramUniformMatrix4x3fv`.
    pub fn program_uniform_matrix4x3fv(
        &mut self,
        program: GLuint,
        location: GLint,
        count: GLsizei,
        transpose: GLboolean,
        value: &[f32],
    ) {
        self.program_uniform_f(program, location, count, (3, 4, transpose != 0), value);
    }

    /// Reads the value at `location` of a linked program as raw words (a double's 64 bits,
    /// any other scalar's 32), with its type.
    pub(crate) fn read_uniform(
        &mut self,
        program: GLuint,
        location: GLint,
    ) -> GlResult<(TypeInfo, [u64; 16])> {
        self.with_linked(program, |l| {
            let &(ui, element) = usize::try_from(location)
                .ok()
                .and_then(|loc| l.locations.get(loc))
                .ok_or(INVALID_OPERATION)?;
            let mut words = [0u64; 16];
            if (ui, element) == tessera_shader::INACTIVE_LOCATION {
                // An inactive uniform's explicit location: nothing is written and no
                // error raised (Mesa's glGetUniform* raise one only for location -1).
                let none = TypeInfo {
                    base: Base::Float,
                    rows: 0,
                    columns: 0,
                };
                return Ok((none, words));
            }
            let u = l.uniforms.get(ui as usize).ok_or(INVALID_OPERATION)?;
            let info = gltype::info(u.ty).ok_or(INVALID_OPERATION)?;
            if info.base == Base::Sampler {
                let slot = (u.sampler_binding + element as i32) as usize;
                words[0] = l.sampler_units.get(slot).copied().unwrap_or(0).into();
                return Ok((info, words));
            }
            if info.base == Base::Image {
                let slot = (u.sampler_binding + element as i32) as usize;
                words[0] = l.image_units.get(slot).copied().unwrap_or(0).into();
                return Ok((info, words));
            }
            let base = u.offset as usize + element as usize * u.array_stride as usize;
            let scalar = info.scalar_bytes();
            for c in 0..info.columns as usize {
                for r in 0..info.rows as usize {
                    let at = base + c * u.matrix_stride as usize + r * scalar;
                    let b = l
                        .default_block
                        .get(at..at + scalar)
                        .ok_or(INVALID_OPERATION)?;
                    words[c * info.rows as usize + r] = if scalar == 8 {
                        bytemuck::pod_read_unaligned(b)
                    } else {
                        bytemuck::pod_read_unaligned::<u32>(b).into()
                    };
                }
            }
            Ok((info, words))
        })
    }

    /// `glGetUniformfv`: the components of the uniform (element) at `location`.
    pub fn get_uniformfv(&mut self, program: GLuint, location: GLint, params: &mut [f32]) {
        match self.read_uniform(program, location) {
            Ok((info, words)) => {
                for (out, &w) in params.iter_mut().zip(&words[..info.components()]) {
                    let w32 = w as u32;
                    *out = match info.base {
                        Base::Float => f32::from_bits(w32),
                        Base::Int | Base::Sampler | Base::Image => w32 as i32 as f32,
                        Base::Uint => w32 as f32,
                        Base::Bool => (w32 != 0) as u8 as f32,
                        Base::Double => f64::from_bits(w) as f32,
                    };
                }
            }
            Err(err) => self.error(err),
        }
    }

    /// `glGetUniformiv` (floats round to the nearest integer).
    pub fn get_uniformiv(&mut self, program: GLuint, location: GLint, params: &mut [i32]) {
        match self.read_uniform(program, location) {
            Ok((info, words)) => {
                for (out, &w) in params.iter_mut().zip(&words[..info.components()]) {
                    let w32 = w as u32;
                    *out = match info.base {
                        Base::Float => f32::from_bits(w32).round() as i32,
                        Base::Int | Base::Sampler | Base::Image => w32 as i32,
                        Base::Uint => w32.min(i32::MAX as u32) as i32,
                        Base::Bool => i32::from(w32 != 0),
                        // Mesa: `(int64_t) round(d)`, kept in 32 bits.
                        Base::Double => f64::from_bits(w).round() as i64 as i32,
                    };
                }
            }
            Err(err) => self.error(err),
        }
    }

    /// `glGetUniformuiv` (negative values read as 0, as in Mesa).
    pub fn get_uniformuiv(&mut self, program: GLuint, location: GLint, params: &mut [u32]) {
        match self.read_uniform(program, location) {
            Ok((info, words)) => {
                for (out, &w) in params.iter_mut().zip(&words[..info.components()]) {
                    let w32 = w as u32;
                    *out = match info.base {
                        Base::Float => f32::from_bits(w32).round().max(0.0) as u32,
                        Base::Int | Base::Sampler | Base::Image => (w32 as i32).max(0) as u32,
                        Base::Uint => w32,
                        Base::Bool => u32::from(w32 != 0),
                        Base::Double => {
                            let d = f64::from_bits(w);
                            if d < 0.0 { 0 } else { d.round() as i64 as u32 }
                        }
                    };
                }
            }
            Err(err) => self.error(err),
        }
    }
}

/// Validates a `glUniform*` call against the uniform at `location` and stores its values.
/// Returns whether a sampler or an image uniform was set.
#[inline]
fn write_uniform(
    l: &mut LinkedProgram,
    location: GLint,
    count: GLsizei,
    call: &Call,
    values: Values<'_>,
    checks: bool,
) -> GlResult<bool> {
    let &(ui, element) = usize::try_from(location)
        .ok()
        .and_then(|loc| l.locations.get(loc))
        .ok_or(INVALID_OPERATION)?;
    if (ui, element) == tessera_shader::INACTIVE_LOCATION {
        // An inactive uniform's explicit location: ignored, no error (as Mesa).
        return Ok(false);
    }
    let u = l.uniforms.get(ui as usize).ok_or(INVALID_OPERATION)?;
    let info = gltype::info(u.ty).ok_or(INVALID_OPERATION)?;
    // The kind and shape checks and the count check decide only GL errors; the width check
    // keeps the copies below within the values given.
    if !fits_width(call, &info) || checks && (!accepts(call, &info) || count > 1 && u.size == 1) {
        return Err(INVALID_OPERATION);
    }
    let per_element = info.components();
    // Elements past the end of the array are ignored (GL 3.3 §2.11.4), as are values the
    // caller did not provide.
    let n = (count as usize)
        .min((u.size as usize).saturating_sub(element as usize))
        .min(values.len() / per_element.max(1));
    if info.base == Base::Sampler {
        let units = &values;
        if (0..n).any(|i| {
            let v = units.word(i, Base::Int) as i32;
            !(0..limits::COMBINED_UNITS).contains(&v)
        }) {
            return Err(INVALID_VALUE);
        }
        let first = u.sampler_binding as usize + element as usize;
        for i in 0..n {
            if let Some(unit) = l.sampler_units.get_mut(first + i) {
                *unit = values.word(i, Base::Int);
            }
        }
        return Ok(true);
    }
    if info.base == Base::Image {
        if (0..n).any(|i| {
            let v = values.word(i, Base::Int) as i32;
            !(0..crate::image::IMAGE_UNITS).contains(&v)
        }) {
            return Err(INVALID_VALUE);
        }
        let first = u.sampler_binding as usize + element as usize;
        for i in 0..n {
            if let Some(unit) = l.image_units.get_mut(first + i) {
                *unit = values.word(i, Base::Int);
            }
        }
        return Ok(true);
    }
    let rows = info.rows as usize;
    let columns = info.columns as usize;
    let scalar = info.scalar_bytes();
    let (offset, array_stride, matrix_stride) = (
        u.offset as usize,
        u.array_stride as usize,
        u.matrix_stride as usize,
    );
    // Values the block holds as they arrive, column after column and element after element
    // with no padding between, are one copy of their bytes.
    let tight = !call.transpose
        && info.base != Base::Bool
        && (columns == 1 || matrix_stride == rows * scalar)
        && (n <= 1 || array_stride == per_element * scalar);
    if tight {
        let start = offset + element as usize * array_stride;
        let src = &values.bytes()[..n * per_element * scalar];
        if let Some(dst) = l.default_block.get_mut(start..start + src.len()) {
            dst.copy_from_slice(src);
            return Ok(false);
        }
    }
    for i in 0..n {
        let base = offset + (element as usize + i) * array_stride;
        for c in 0..columns {
            for r in 0..rows {
                let src = i * per_element
                    + if call.transpose {
                        r * columns + c
                    } else {
                        c * rows + r
                    };
                let at = base + c * matrix_stride + r * scalar;
                debug_assert!(at + scalar <= l.default_block.len());
                if let Some(dst) = l.default_block.get_mut(at..at + scalar) {
                    match values {
                        Values::Double(v) => dst.copy_from_slice(bytemuck::bytes_of(&v[src])),
                        _ => dst.copy_from_slice(bytemuck::bytes_of(&values.word(src, info.base))),
                    }
                }
            }
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_components::object::ActiveUniform;

    /// A default block with `mat4 m[2]` at 16 and `vec3 v[2]` at 144 (std140 strides).
    fn program() -> LinkedProgram {
        let uniform =
            |name: &str, ty, offset, array_stride, matrix_stride, location| ActiveUniform {
                name: name.into(),
                ty,
                size: 2,
                block_index: -1,
                offset,
                array_stride,
                matrix_stride,
                row_major: false,
                location,
                sampler_binding: -1,
                stages: 1,
            };
        LinkedProgram {
            uniforms: vec![
                uniform("m[0]", FLOAT_MAT4, 16, 64, 16, 0),
                uniform("v[0]", FLOAT_VEC3, 144, 16, 0, 2),
            ],
            locations: vec![(0, 0), (0, 1), (1, 0), (1, 1)],
            default_block: vec![0; 176 + 16],
            ..LinkedProgram::default()
        }
    }

    fn floats(block: &[u8], at: usize, n: usize) -> Vec<f32> {
        (0..n)
            .map(|i| bytemuck::pod_read_unaligned(&block[at + 4 * i..at + 4 * i + 4]))
            .collect()
    }

    fn call(rows: u8, columns: u8, transpose: bool) -> Call {
        Call {
            kind: Kind::Float,
            rows,
            columns,
            transpose,
        }
    }

    #[test]
    fn tight_and_padded_values_land_where_the_layout_says() {
        let mut l = program();
        let m: Vec<f32> = (0..32).map(|i| i as f32).collect();
        // Both matrices in one copy.
        write_uniform(&mut l, 0, 2, &call(4, 4, false), Values::Float(&m), true).unwrap();
        assert_eq!(floats(&l.default_block, 16, 32), m);
        // The second element, transposed: word by word.
        write_uniform(
            &mut l,
            1,
            1,
            &call(4, 4, true),
            Values::Float(&m[..16]),
            true,
        )
        .unwrap();
        let t: Vec<f32> = (0..16).map(|i| m[(i % 4) * 4 + i / 4]).collect();
        assert_eq!(floats(&l.default_block, 80, 16), t);
        assert_eq!(floats(&l.default_block, 16, 16), m[..16]);
        // vec3 elements 16 bytes apart: the padding stays untouched.
        let v = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        write_uniform(&mut l, 2, 2, &call(3, 1, false), Values::Float(&v), true).unwrap();
        assert_eq!(
            floats(&l.default_block, 144, 8),
            [1.0, 2.0, 3.0, 0.0, 4.0, 5.0, 6.0, 0.0]
        );
        // One element from the second location: tight whatever the stride.
        write_uniform(
            &mut l,
            3,
            5,
            &call(3, 1, false),
            Values::Float(&v[..3]),
            true,
        )
        .unwrap();
        assert_eq!(floats(&l.default_block, 160, 4), [1.0, 2.0, 3.0, 0.0]);
    }
}

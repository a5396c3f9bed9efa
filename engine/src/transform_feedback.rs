//! Transform feedback (GL 3.3 §2.17): `glTransformFeedbackVaryings`,
//! `glGetTransformFeedbackVarying`, `glBeginTransformFeedback`, `glEndTransformFeedback`.
//!
//! What is implemented: the varyings a program asks for are validated (every error GL
//! names) and kept on the program object, as a component of its entity. What is missing,
//! and why the rest follows: capturing needs the shader front end to reflect vertex (or
//! geometry) outputs, so the linker can match the requested names and report their types,
//! and a backend record that binds the buffers and captures primitives; neither exists.
//! So a linked program records no varyings (`TRANSFORM_FEEDBACK_VARYINGS` is 0), and the
//! other calls behave exactly as GL specifies for such a program: no varying index is valid
//! (`INVALID_VALUE`), and `glBeginTransformFeedback` has nothing to capture
//! (`INVALID_OPERATION`), so transform feedback is never active. The first request for
//! varyings is reported in the log.

use std::sync::atomic::{AtomicBool, Ordering};

use bevy_ecs::component::Component;
use tessera_components::gl::*;

use crate::context::Context;

/// The varyings `glTransformFeedbackVaryings` asked for, applied at the next link (which
/// cannot capture them yet; see the module documentation).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct RequestedVaryings {
    /// The names, in order.
    pub names: Vec<String>,
    /// `INTERLEAVED_ATTRIBS` or `SEPARATE_ATTRIBS`.
    pub mode: GLenum,
}

/// `MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS` (what `glGet` reports).
const MAX_SEPARATE_ATTRIBS: GLsizei = 4;

/// Whether the missing-capture warning was logged (once per process).
static WARNED: AtomicBool = AtomicBool::new(false);

impl Context {
    /// The program entity of `program`: `INVALID_VALUE` for a name that is not a shader or
    /// program, `INVALID_OPERATION` for a shader.
    fn transform_feedback_program(
        &self,
        program: GLuint,
    ) -> Result<bevy_ecs::entity::Entity, GLenum> {
        let sh = self.group.lock();
        Self::program_entity(&sh, program)
    }

    /// `glTransformFeedbackVaryings`.
    pub fn transform_feedback_varyings(
        &mut self,
        program: GLuint,
        count: GLsizei,
        varyings: &[&str],
        buffer_mode: GLenum,
    ) {
        let e = match self.transform_feedback_program(program) {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        if count < 0 {
            return self.error(INVALID_VALUE);
        }
        if !matches!(buffer_mode, INTERLEAVED_ATTRIBS | SEPARATE_ATTRIBS) {
            return self.error(INVALID_ENUM);
        }
        if buffer_mode == SEPARATE_ATTRIBS && count > MAX_SEPARATE_ATTRIBS {
            return self.error(INVALID_VALUE);
        }
        let names = varyings
            .iter()
            .take(count as usize)
            .map(|s| (*s).to_owned())
            .collect();
        if count > 0 && !WARNED.swap(true, Ordering::Relaxed) {
            log::warn!(
                "tessera: transform feedback is not implemented (the shader front end does \
                 not reflect vertex outputs and no backend captures): programs link \
                 without captured varyings"
            );
        }
        let mut sh = self.group.lock();
        sh.world.entity_mut(e).insert(RequestedVaryings {
            names,
            mode: buffer_mode,
        });
    }

    /// `glGetTransformFeedbackVarying`: a linked program records no varyings, so every
    /// index is `INVALID_VALUE` (after the program checks). Nothing is written.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn get_transform_feedback_varying(
        &mut self,
        program: GLuint,
        index: GLuint,
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        size: &mut GLsizei,
        ty: &mut GLenum,
        name: &mut [u8],
    ) {
        let _ = (index, buf_size, length, size, ty, name);
        match self.transform_feedback_program(program) {
            Ok(_) => self.error(INVALID_VALUE),
            Err(err) => self.error(err),
        }
    }

    /// `glBeginTransformFeedback`: Mesa's order of checks is no current program, then
    /// nothing to capture (both `INVALID_OPERATION`), then the mode. Since no linked
    /// program captures anything, a call with a program fails on the second check.
    pub fn begin_transform_feedback(&mut self, primitive_mode: GLenum) {
        let _ = primitive_mode;
        self.error(INVALID_OPERATION);
    }

    /// `glEndTransformFeedback`: transform feedback is never active, so
    /// `INVALID_OPERATION`.
    pub fn end_transform_feedback(&mut self) {
        self.error(INVALID_OPERATION);
    }
}

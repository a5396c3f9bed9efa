//! Transform feedback (GL 3.3 §2.17): `glTransformFeedbackVaryings`,
//! `glGetTransformFeedbackVarying`, `glBeginTransformFeedback`, `glEndTransformFeedback`.
//!
//! The varyings a program asks for are validated here (every error GL names) and kept on
//! the program object, as a component of its entity; the next link hands them to the shader
//! front end, which finds them among the last pre-rasterization stage's outputs, lays them
//! out and decorates the SPIR-V (or fails the link with the log GL drivers write). The
//! linked layout is the program's reflection (`glGetTransformFeedbackVarying`,
//! `TRANSFORM_FEEDBACK_VARYINGS`) and travels in `CreateProgram` for backends that name the
//! captured outputs to their driver.
//!
//! `glBeginTransformFeedback` checks what GL checks, in Mesa's order (no current program,
//! nothing to capture, the mode, already active, a buffer the program writes not bound),
//! then emits `BeginTransformFeedback` with the bound ranges; every draw until
//! `glEndTransformFeedback` (`EndTransformFeedback`) is captured by the backend. While it is
//! active, GL 3.3 forbids what would change the capture under it: `glUseProgram`,
//! relinking the current program and rebinding `TRANSFORM_FEEDBACK_BUFFER` indices are
//! `INVALID_OPERATION`, and so is a draw whose primitives (the geometry shader's output
//! type, else the draw's mode) are not of the kind transform feedback was begun with. GL
//! 4.0's pause, resume and transform feedback objects are not offered.
//!
//! The client's copies of the bound ranges are marked stale at the begin, so maps and
//! reads of captured data read back what the backend wrote.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::object::{Buffer, LinkedProgram, Program};
use tessera_wire::record::{MAX_XFB_BUFFERS, Record, XfbBinding, XfbPrimitive};

use crate::context::Context;
use crate::shader::{gl_length, write_string};
use crate::share::Shared;

/// The varyings `glTransformFeedbackVaryings` asked for, applied at the next link.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct RequestedVaryings {
    /// The names, in order.
    pub names: Vec<String>,
    /// `INTERLEAVED_ATTRIBS` or `SEPARATE_ATTRIBS`.
    pub mode: GLenum,
}

/// `MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS` (what `glGet` reports).
const MAX_SEPARATE_ATTRIBS: GLsizei = tessera_shader::xfb::MAX_SEPARATE_ATTRIBS as GLsizei;

/// `glGetProgramiv` of `TRANSFORM_FEEDBACK_BUFFER_MODE`, `TRANSFORM_FEEDBACK_VARYINGS` and
/// `TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH`: as Mesa, the mode is the one last requested,
/// and the varyings are the linked ones if the last link captured any, else those
/// requested.
pub(crate) fn program_param(
    sh: &Shared,
    e: Entity,
    linked: Option<&LinkedProgram>,
    pname: GLenum,
) -> GLint {
    let requested = sh.world.get::<RequestedVaryings>(e);
    if pname == TRANSFORM_FEEDBACK_BUFFER_MODE {
        return requested.map_or(INTERLEAVED_ATTRIBS, |r| r.mode) as GLint;
    }
    let names: Vec<&str> = match linked.filter(|l| !l.xfb.is_empty()) {
        Some(l) => l.xfb.iter().map(|v| v.name.as_str()).collect(),
        None => requested.map_or(Vec::new(), |r| r.names.iter().map(String::as_str).collect()),
    };
    if pname == TRANSFORM_FEEDBACK_VARYINGS {
        names.len().min(GLint::MAX as usize) as GLint
    } else {
        names.into_iter().map(gl_length).max().unwrap_or(0)
    }
}

impl Context {
    /// The program entity of `program`: `INVALID_VALUE` for a name that is not a shader or
    /// program, `INVALID_OPERATION` for a shader.
    fn transform_feedback_program(&self, program: GLuint) -> Result<Entity, GLenum> {
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
        let mut sh = self.group.lock();
        sh.world.entity_mut(e).insert(RequestedVaryings {
            names,
            mode: buffer_mode,
        });
    }

    /// `glGetTransformFeedbackVarying`: `INVALID_VALUE` for an index past the varyings the
    /// last successful link captures (none for an unlinked program).
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
        let result = self.with_reflection(program, |l| {
            let v = l
                .and_then(|l| l.xfb.get(index as usize))
                .ok_or(INVALID_VALUE)?;
            if buf_size < 0 {
                return Err(INVALID_VALUE);
            }
            Ok((v.name.clone(), v.size, v.ty))
        });
        match result {
            Ok((n, s, t)) => {
                write_string(&n, buf_size, length, name);
                *size = s;
                *ty = t;
            }
            Err(err) => self.error(err),
        }
    }

    /// `glBeginTransformFeedback`.
    pub fn begin_transform_feedback(&mut self, primitive_mode: GLenum) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        // Without a current program, the bound pipeline's last stage before rasterization
        // captures (GL 4.1 §13.2.2).
        self.local.resolve_pipeline(&mut sh);
        let strides = match self
            .local
            .st
            .executable()
            .and_then(|p| sh.world.get::<Program>(p))
            .and_then(|p| p.linked_state.as_ref())
        {
            None => return self.error(INVALID_OPERATION),
            Some(l) if l.xfb.is_empty() => return self.error(INVALID_OPERATION),
            Some(l) => l.xfb_strides,
        };
        let primitive = match primitive_mode {
            POINTS => XfbPrimitive::Points,
            LINES => XfbPrimitive::Lines,
            TRIANGLES => XfbPrimitive::Triangles,
            _ => return self.error(INVALID_ENUM),
        };
        if self.local.st.transform_feedback_mode.is_some() {
            return self.error(INVALID_OPERATION);
        }
        let mut buffers = [XfbBinding::default(); MAX_XFB_BUFFERS];
        for (i, stride) in strides.iter().enumerate() {
            if *stride == 0 {
                continue;
            }
            let b = self.local.st.transform_feedback_buffers[i];
            let Some((handle, total)) = b
                .buffer
                .and_then(|e| sh.world.get::<Buffer>(e))
                .map(|buf| (buf.handle, buf.size.max(0) as u64))
            else {
                return self.error(INVALID_OPERATION);
            };
            let offset = (b.offset.max(0) as u64).min(total);
            // Base bindings capture to the end of the buffer; ranges to the end of the
            // range, within the buffer's storage as it is now.
            let size = if b.size > 0 {
                (b.size as u64).min(total - offset)
            } else {
                total - offset
            } & !3;
            buffers[i] = XfbBinding {
                buffer: Some(handle),
                offset,
                size,
            };
        }
        for (i, b) in buffers.iter().enumerate() {
            if b.buffer.is_some()
                && let Some(e) = self.local.st.transform_feedback_buffers[i].buffer
            {
                crate::buffer::shadow_stale(&mut sh, e, b.offset, b.size);
            }
        }
        self.local.st.transform_feedback_mode = Some(primitive_mode);
        sh.dev.use_context(self.local.id);
        sh.dev.push(Record::BeginTransformFeedback {
            primitive,
            buffers: Box::new(buffers),
        });
    }

    /// `glEndTransformFeedback`: `INVALID_OPERATION` unless active.
    pub fn end_transform_feedback(&mut self) {
        if self.local.st.transform_feedback_mode.is_none() {
            return self.error(INVALID_OPERATION);
        }
        self.local.st.transform_feedback_mode = None;
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        sh.dev.use_context(self.local.id);
        sh.dev.push(Record::EndTransformFeedback);
    }
}

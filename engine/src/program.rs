//! Program objects: attachment, linking, the current program, and their queries.
//!
//! A program is an entity of the share group with a [`Program`] component. Linking
//! (`link`) runs the GLSL front end on the client, so `LINK_STATUS`, the info log and all
//! reflection are answered without a round trip; a successful link mints a new wire program
//! (`CreateProgram`, SPIR-V in the stage area) and destroys the previous one. A failed link
//! of a program that is current somewhere keeps its last executable for rendering, as GL
//! requires, while its queries behave as for an unlinked program.
//!
//! References: each context that has the program current holds one (`use_program`), and a
//! program holds one on each attached shader. Deleting a current program only marks it
//! (`DELETE_STATUS`, the name stays valid) until no context uses it; then it is destroyed
//! exactly once by `lifecycle`. Reflection queries live in `query`, uniform values in
//! [`crate::uniform`].

pub mod binary;
pub(crate) mod link;
pub(crate) mod pipeline;
mod query;
mod resource;
pub(crate) mod subroutine;

use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::{Life, LinkedProgram, Program};
use tessera_systems::lifecycle;

use crate::context::{Context, GlResult};
use crate::get::Value;
use crate::limits;
use crate::shader::{gl_length, write_string};
use crate::share::Shared;

/// The limits the GLSL front end enforces and shaders read as built-in constants: those
/// the context reports (`get.rs`), the backend's where they come from its caps.
pub(crate) fn front_end_limits(l: &limits::Limits) -> tessera_shader::Limits {
    tessera_shader::Limits {
        max_vertex_attribs: limits::VERTEX_ATTRIBS,
        max_draw_buffers: limits::COLOR_ATTACHMENTS,
        max_texture_units: limits::STAGE_UNITS,
        max_combined_texture_units: limits::COMBINED_UNITS,
        max_varying_components: limits::VARYING_COMPONENTS,
        max_vertex_output_components: l.max_vertex_output_components,
        max_geometry_input_components: l.max_geometry_input_components,
        max_geometry_output_components: *limits::STAGE_IO_COMPONENTS.end(),
        max_fragment_input_components: *limits::STAGE_IO_COMPONENTS.end(),
        max_uniform_components: limits::STAGE_UNIFORM_COMPONENTS,
        max_compute_work_group_count: l.max_compute_work_group_count,
        max_compute_work_group_size: l.max_compute_work_group_size,
        max_compute_work_group_invocations: l.max_compute_work_group_invocations,
        max_storage_buffer_bindings: limits::SSBO_BINDINGS,
        ..tessera_shader::Limits::default()
    }
}

/// The dirty groups a change of the current program's executable touches.
pub(crate) const PROGRAM_GROUPS: Dirty = Dirty::PROGRAM
    .union(Dirty::UNIFORMS)
    .union(Dirty::UNIFORM_BUFFERS)
    .union(Dirty::STORAGE_BUFFERS)
    .union(Dirty::TEXTURES)
    .union(Dirty::GENERIC_ATTRIBS);

/// The longest name of a list, plus its NUL (0 for an empty list), as the `*_MAX_LENGTH`
/// queries report it.
fn max_name_length<'a>(names: impl Iterator<Item = &'a str>) -> GLint {
    names.map(gl_length).max().unwrap_or(0)
}

/// A texture unit two samplers of different targets read, if any.
pub(crate) fn sampler_conflict(l: &LinkedProgram) -> Option<u32> {
    let (units, targets) = (&l.sampler_units, &l.sampler_targets);
    (0..units.len().min(targets.len())).find_map(|i| {
        (0..i)
            .any(|j| units[j] == units[i] && targets[j] != targets[i])
            .then_some(units[i])
    })
}

impl Context {
    /// Marks everything that depends on the current program's executable.
    pub(crate) fn touch_program(&mut self) {
        self.local.touch(PROGRAM_GROUPS | Dirty::DRAW_CHECK);
        self.local.dirty_units = u64::MAX;
    }

    /// Runs `f` on the reflection of a successfully linked program: `INVALID_VALUE` /
    /// `INVALID_OPERATION` for a bad name, `INVALID_OPERATION` if its last link failed.
    pub(crate) fn with_linked<R>(
        &mut self,
        program: GLuint,
        f: impl FnOnce(&LinkedProgram) -> GlResult<R>,
    ) -> GlResult<R> {
        let sh = self.group.lock();
        let e = Self::program_entity(&sh, program)?;
        let p = sh.world.get::<Program>(e).ok_or(INVALID_VALUE)?;
        match (&p.linked_state, p.linked) {
            (Some(l), true) => f(l),
            _ => Err(INVALID_OPERATION),
        }
    }

    /// Runs `f` on the reflection of a program, `None` unless its last link succeeded.
    pub(crate) fn with_reflection<R>(
        &mut self,
        program: GLuint,
        f: impl FnOnce(Option<&LinkedProgram>) -> GlResult<R>,
    ) -> GlResult<R> {
        let sh = self.group.lock();
        let e = Self::program_entity(&sh, program)?;
        let p = sh.world.get::<Program>(e).ok_or(INVALID_VALUE)?;
        f(p.linked_state.as_ref().filter(|_| p.linked))
    }

    /// `glCreateProgram`.
    pub fn create_program(&mut self) -> GLuint {
        let mut sh = self.group.lock();
        let e = sh
            .world
            .spawn(Program {
                handle: None,
                attached: Vec::new(),
                linked: false,
                validated: false,
                info_log: String::new(),
                delete_pending: false,
                attrib_bindings: Vec::new(),
                frag_data_bindings: Vec::new(),
                linked_state: None,
                generation: 0,
                uniforms_generation: 0,
            })
            .id();
        let Ok(name) = sh.names.shader_programs.create(e) else {
            sh.world.despawn(e);
            self.local.set_error(OUT_OF_MEMORY);
            return 0;
        };
        sh.world.entity_mut(e).insert(Life::named(name));
        name
    }

    /// `glDeleteProgram`: 0 is ignored; a program current in some context is only marked
    /// until no context uses it.
    pub fn delete_program(&mut self, program: GLuint) {
        if program == 0 {
            return;
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = match Self::program_entity(&sh, program) {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        if let Some(mut p) = sh.world.get_mut::<Program>(e) {
            p.delete_pending = true;
        }
        let Shared { world, dev, .. } = &mut *sh;
        lifecycle::delete_pending(world, dev, e);
        Self::free_released_names(&mut sh);
    }

    /// `glIsProgram`.
    pub fn is_program(&mut self, program: GLuint) -> GLboolean {
        let sh = self.group.lock();
        Self::program_entity(&sh, program).is_ok() as GLboolean
    }

    /// Looks up a (program, shader) pair for attach and detach.
    fn program_and_shader(
        sh: &Shared,
        program: GLuint,
        shader: GLuint,
    ) -> GlResult<(Entity, Entity)> {
        let p = Self::program_entity(sh, program)?;
        let s = Self::shader_entity(sh, shader)?;
        Ok((p, s))
    }

    /// `glAttachShader`: `INVALID_OPERATION` if already attached.
    pub fn attach_shader(&mut self, program: GLuint, shader: GLuint) {
        let mut sh = self.group.lock();
        let result = Self::program_and_shader(&sh, program, shader).and_then(|(p, s)| {
            let mut prog = sh.world.get_mut::<Program>(p).ok_or(INVALID_VALUE)?;
            if prog.attached.contains(&s) {
                return Err(INVALID_OPERATION);
            }
            prog.attached.push(s);
            lifecycle::retain(&mut sh.world, s);
            Ok(())
        });
        drop(sh);
        if let Err(err) = result {
            self.error(err);
        }
    }

    /// `glDetachShader`: `INVALID_OPERATION` if not attached; a deleted shader dies with its
    /// last attachment.
    pub fn detach_shader(&mut self, program: GLuint, shader: GLuint) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let (p, s) = match Self::program_and_shader(&sh, program, shader) {
            Ok(pair) => pair,
            Err(err) => return self.error(err),
        };
        let removed = sh.world.get_mut::<Program>(p).is_some_and(|mut prog| {
            let before = prog.attached.len();
            prog.attached.retain(|a| *a != s);
            prog.attached.len() != before
        });
        if !removed {
            return self.error(INVALID_OPERATION);
        }
        let Shared { world, dev, .. } = &mut *sh;
        lifecycle::release(world, dev, s);
        Self::free_released_names(&mut sh);
    }

    /// `glGetAttachedShaders`: writes at most `max_count` names.
    pub fn get_attached_shaders(
        &mut self,
        program: GLuint,
        max_count: GLsizei,
        count: Option<&mut GLsizei>,
        shaders: &mut [GLuint],
    ) {
        if max_count < 0 {
            return self.error(INVALID_VALUE);
        }
        let sh = self.group.lock();
        let e = match Self::program_entity(&sh, program) {
            Ok(e) => e,
            Err(err) => {
                drop(sh);
                return self.error(err);
            }
        };
        let attached = sh
            .world
            .get::<Program>(e)
            .map(|p| p.attached.clone())
            .unwrap_or_default();
        let n = attached.len().min(max_count as usize).min(shaders.len());
        for (out, s) in shaders.iter_mut().zip(&attached).take(n) {
            *out = sh.world.get::<Life>(*s).map_or(0, |l| l.name);
        }
        if let Some(c) = count {
            *c = n as GLsizei;
        }
    }

    /// `glUseProgram`: retains the program in this context; 0 makes no program current.
    pub fn use_program(&mut self, program: GLuint) {
        // GL 4.0 §2.17.2: no program change while transform feedback is active and not
        // paused.
        if self.local.st.transform_feedback_mode.is_some() && !self.local.xfb.paused {
            return self.error(INVALID_OPERATION);
        }
        // On the draw path of programs that switch programs: no Arc clone, one lock, and
        // the program's component read once.
        let mut sh = self.group.lock_for(self.local.id);
        let new = if program == 0 {
            None
        } else {
            let e = match Self::shader_program_entity(&sh, program) {
                Ok(e) => e,
                Err(err) => return self.local.set_error(err),
            };
            match sh.world.get::<Program>(e) {
                Some(p) if p.linked => Some((
                    e,
                    p.handle,
                    p.linked_state
                        .as_ref()
                        .is_some_and(|l| !l.subroutines.is_empty()),
                )),
                // A shader's name, or a program whose last link failed.
                _ => return self.local.set_error(INVALID_OPERATION),
            }
        };
        // Even the program already in use loses its subroutine selections (GL 4.0
        // §2.14.8; Mesa resets them on every call, and its draws see the defaults once
        // they bind another program than the last draw did).
        let old = self.local.st.program;
        if let Some((e, bound, true)) = new {
            let write = self.local.shadow.program != Some(bound);
            Self::reset_subroutines(&mut self.local, &mut sh, e, u8::MAX, write);
        }
        let new = new.map(|(e, ..)| e);
        if old == new {
            return;
        }
        self.local.st.program = new;
        let Shared { world, dev, .. } = &mut *sh;
        lifecycle::replace(world, dev, old, new);
        Self::free_released_names(&mut sh);
        drop(sh);
        self.touch_program();
    }

    /// `glValidateProgram`: a linked program is valid unless two of its samplers of
    /// different targets read the same texture unit (GL 3.3 §2.11.7); the status is
    /// `VALIDATE_STATUS` and a failure is explained in the info log.
    pub fn validate_program(&mut self, program: GLuint) {
        let mut sh = self.group.lock();
        let e = match Self::program_entity(&sh, program) {
            Ok(e) => e,
            Err(err) => {
                drop(sh);
                return self.error(err);
            }
        };
        if let Some(mut p) = sh.world.get_mut::<Program>(e) {
            let conflict = p
                .linked_state
                .as_ref()
                .filter(|_| p.linked)
                .and_then(sampler_conflict);
            p.validated = p.linked && conflict.is_none();
            if conflict.is_some() {
                // Mesa's wording.
                p.info_log =
                    "active samplers with a different type refer to the same texture image unit"
                        .into();
            }
        }
    }

    /// `glGetProgramiv`.
    pub fn get_programiv(&mut self, program: GLuint, pname: GLenum, params: &mut [GLint]) {
        if pname == COMPUTE_WORK_GROUP_SIZE {
            match self.compute_work_group_size(program) {
                Ok(size) => {
                    for (o, v) in params.iter_mut().zip(size) {
                        *o = v as GLint;
                    }
                }
                Err(err) => self.error(err),
            }
            return;
        }
        match self.program_param(program, pname) {
            Ok(v) => {
                if let Some(p) = params.first_mut() {
                    *p = v;
                }
            }
            Err(err) => self.error(err),
        }
    }

    /// One value of `glGetProgramiv` (0 after an error).
    pub fn get_programi(&mut self, program: GLuint, pname: GLenum) -> GLint {
        let mut v = [0];
        self.get_programiv(program, pname, &mut v);
        v[0]
    }

    fn program_param(&mut self, program: GLuint, pname: GLenum) -> GlResult<GLint> {
        let sh = self.group.lock();
        let e = Self::program_entity(&sh, program)?;
        let p = sh.world.get::<Program>(e).ok_or(INVALID_VALUE)?;
        let l = p.linked_state.as_ref().filter(|_| p.linked);
        let count = |n: usize| n.min(GLint::MAX as usize) as GLint;
        Ok(match pname {
            DELETE_STATUS => GLint::from(p.delete_pending),
            LINK_STATUS => GLint::from(p.linked),
            VALIDATE_STATUS => GLint::from(p.validated),
            INFO_LOG_LENGTH => gl_length(&p.info_log),
            ATTACHED_SHADERS => count(p.attached.len()),
            ACTIVE_ATTRIBUTES => count(l.map_or(0, |l| l.attributes.len())),
            ACTIVE_ATTRIBUTE_MAX_LENGTH => l.map_or(0, |l| {
                max_name_length(l.attributes.iter().map(|a| a.name.as_str()))
            }),
            ACTIVE_UNIFORMS => count(l.map_or(0, |l| l.uniforms.len())),
            ACTIVE_UNIFORM_MAX_LENGTH => l.map_or(0, |l| {
                max_name_length(l.uniforms.iter().map(|u| u.name.as_str()))
            }),
            ACTIVE_UNIFORM_BLOCKS => count(l.map_or(0, |l| l.blocks.len())),
            ACTIVE_ATOMIC_COUNTER_BUFFERS => count(l.map_or(0, |l| l.atomic_buffers.len())),
            ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH => l.map_or(0, |l| {
                max_name_length(l.blocks.iter().map(|b| b.name.as_str()))
            }),
            TRANSFORM_FEEDBACK_BUFFER_MODE
            | TRANSFORM_FEEDBACK_VARYINGS
            | TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH => {
                crate::transform_feedback::program_param(&sh, e, l, pname)
            }
            PROGRAM_BINARY_LENGTH => Self::program_binary_length(&sh, e),
            PROGRAM_BINARY_RETRIEVABLE_HINT => Self::retrievable_hint(&sh, e),
            PROGRAM_SEPARABLE => Self::separable(&sh, e),
            GEOMETRY_VERTICES_OUT | GEOMETRY_INPUT_TYPE | GEOMETRY_OUTPUT_TYPE => {
                let g = l.and_then(|l| l.geometry).ok_or(INVALID_OPERATION)?;
                match pname {
                    GEOMETRY_VERTICES_OUT => g.vertices_out,
                    GEOMETRY_INPUT_TYPE => g.input_type as GLint,
                    _ => g.output_type as GLint,
                }
            }
            // ARB_gpu_shader5 (GL 4.0).
            GEOMETRY_SHADER_INVOCATIONS if self.local.limits.gpu_shader5.is_some() => {
                l.and_then(|l| l.geometry)
                    .ok_or(INVALID_OPERATION)?
                    .invocations
            }
            TESS_CONTROL_OUTPUT_VERTICES if self.local.limits.has_tessellation() => l
                .and_then(|l| l.tess_control_vertices)
                .ok_or(INVALID_OPERATION)?,
            TESS_GEN_MODE | TESS_GEN_SPACING | TESS_GEN_VERTEX_ORDER | TESS_GEN_POINT_MODE
                if self.local.limits.has_tessellation() =>
            {
                let t = l.and_then(|l| l.tess_gen).ok_or(INVALID_OPERATION)?;
                match pname {
                    TESS_GEN_MODE => t.mode as GLint,
                    TESS_GEN_SPACING => t.spacing as GLint,
                    TESS_GEN_VERTEX_ORDER => t.vertex_order as GLint,
                    _ => GLint::from(t.point_mode),
                }
            }
            _ => return Err(INVALID_ENUM),
        })
    }

    /// `glGetProgramInfoLog`.
    pub fn get_program_info_log(
        &mut self,
        program: GLuint,
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        info_log: &mut [u8],
    ) {
        if buf_size < 0 {
            return self.error(INVALID_VALUE);
        }
        match self.program_log(program) {
            Ok(log) => write_string(&log, buf_size, length, info_log),
            Err(err) => self.error(err),
        }
    }

    /// The whole info log of a program (`glGetProgramInfoLog` into a `String`).
    pub fn program_info_log(&mut self, program: GLuint) -> String {
        self.program_log(program).unwrap_or_else(|err| {
            self.error(err);
            String::new()
        })
    }

    fn program_log(&mut self, program: GLuint) -> GlResult<String> {
        let sh = self.group.lock();
        let e = Self::program_entity(&sh, program)?;
        Ok(sh
            .world
            .get::<Program>(e)
            .map(|p| p.info_log.clone())
            .unwrap_or_default())
    }

    /// Program state for `glGet*`: `CURRENT_PROGRAM` is answered with the other bindings,
    /// so nothing is left here.
    pub(crate) fn program_state_value(&self, _sh: &Shared, _pname: GLenum) -> Option<Value> {
        None
    }
}

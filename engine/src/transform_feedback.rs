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
//! type, else the draw's mode) are not of the kind transform feedback was begun with.
//!
//! Transform feedback objects (GL 4.0's `ARB_transform_feedback2`) are per context, as GL
//! has them: each holds its `TRANSFORM_FEEDBACK_BUFFER` indexed bindings, whether it is
//! active and paused, the program it captures from and whether a capture of it ever ended.
//! The bound object's bindings and mode are the context's `GlState` (what the rest of the
//! engine reads); the others keep theirs in their [`TransformFeedbackObject`], and binding
//! swaps them. A paused capture lets the program, the pipeline and the draw modes change
//! (GL 4.0 §2.17.2: only an active, unpaused capture forbids them) and another object be
//! bound and begun; resuming needs the program it began with. Each object becomes a wire
//! object at its first begin, which the backends keep across captures: the write positions
//! of a paused capture, and after the end the count `glDrawTransformFeedback*` draws
//! (`DrawTransformFeedback`: the engine never learns the count, which lives on the device).
//!
//! The client's copies of the bound ranges are marked stale at the begin, so maps and
//! reads of captured data read back what the backend wrote.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::world::World;
use tessera_components::gl::*;
use tessera_components::names::{NameEntry, NameTable};
use tessera_components::object::{Buffer, LinkedProgram, Program};
use tessera_components::state::IndexedBuffer;
use tessera_systems::emitter::Emitter;
use tessera_systems::lifecycle;
use tessera_wire::handle::TransformFeedbackHandle;
use tessera_wire::record::{MAX_XFB_BUFFERS, Record, XfbBinding, XfbPrimitive};

use crate::context::{Context, Local};
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
        let names: Vec<String> = varyings
            .iter()
            .take(count as usize)
            .map(|s| (*s).to_owned())
            .collect();
        // GL 4.0's layout names (ARB_transform_feedback3): only interleaved capture takes
        // them, and its `gl_NextBuffer`s may not pass the last buffer (Mesa's checks).
        let layout = names
            .iter()
            .filter_map(|n| tessera_shader::xfb::layout_name(n));
        if buffer_mode == SEPARATE_ATTRIBS {
            if layout.count() > 0 {
                return self.error(INVALID_OPERATION);
            }
        } else if layout.filter(|&n| n == 0).count() as GLsizei >= MAX_SEPARATE_ATTRIBS {
            return self.error(INVALID_OPERATION);
        }
        let mut sh = self.group.lock();
        sh.world.entity_mut(e).insert(RequestedVaryings {
            names,
            mode: buffer_mode,
        });
    }

    /// `glGetTransformFeedbackVarying`: `INVALID_VALUE` for an index past the varyings the
    /// last successful link captures (none for an unlinked program). The layout names are
    /// among them, as in Mesa: type `NONE`, the components a skip skips as its size.
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
        let (strides, streams) = match self
            .local
            .st
            .executable()
            .and_then(|p| sh.world.get::<Program>(p))
            .and_then(|p| p.linked_state.as_ref())
        {
            None => return self.error(INVALID_OPERATION),
            Some(l) if l.xfb.is_empty() => return self.error(INVALID_OPERATION),
            Some(l) => (l.xfb_strides, l.xfb_streams),
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
                stride: *stride,
            };
        }
        for (i, b) in buffers.iter().enumerate() {
            if b.buffer.is_some()
                && let Some(e) = self.local.st.transform_feedback_buffers[i].buffer
            {
                crate::buffer::shadow_stale(&mut sh, e, b.offset, b.size);
            }
        }
        let program = self.local.st.executable();
        let object = self.local.xfb.bound_entity(&mut sh.world);
        let xfb = {
            let Shared { world, dev, .. } = &mut *sh;
            let mut o = world
                .get_mut::<TransformFeedbackObject>(object)
                .expect("the bound transform feedback object exists");
            o.program = program;
            // Mesa's draw target of each stream: the first buffer of that stream (buffers
            // not written count as stream 0's).
            o.stream_bindings = std::array::from_fn(|s| {
                streams.iter().position(|&b| b == s as u32).map(|i| i as u8)
            });
            *o.handle.get_or_insert_with(|| {
                let xfb = dev.alloc.mint();
                dev.use_context(self.local.id);
                dev.push(Record::CreateTransformFeedback { xfb });
                xfb
            })
        };
        self.local.st.transform_feedback_mode = Some(primitive_mode);
        self.local.xfb.paused = false;
        sh.dev.use_context(self.local.id);
        sh.dev.push(Record::BeginTransformFeedback {
            xfb,
            primitive,
            buffers: Box::new(buffers),
        });
    }

    /// The wire object of the bound transform feedback object (it has one while active).
    fn bound_xfb_handle(&mut self, sh: &mut Shared) -> Option<TransformFeedbackHandle> {
        let e = self.local.xfb.bound_entity(&mut sh.world);
        sh.world
            .get::<TransformFeedbackObject>(e)
            .and_then(|o| o.handle)
    }

    /// `glEndTransformFeedback`: `INVALID_OPERATION` unless active (paused or not).
    pub fn end_transform_feedback(&mut self) {
        if self.local.st.transform_feedback_mode.is_none() {
            return self.error(INVALID_OPERATION);
        }
        self.local.st.transform_feedback_mode = None;
        self.local.xfb.paused = false;
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = self.local.xfb.bound_entity(&mut sh.world);
        let Some(xfb) = sh
            .world
            .get_mut::<TransformFeedbackObject>(e)
            .and_then(|mut o| {
                o.ended = true;
                o.program = None;
                o.handle
            })
        else {
            return;
        };
        sh.dev.use_context(self.local.id);
        sh.dev.push(Record::EndTransformFeedback { xfb });
    }

    /// `glPauseTransformFeedback`: `INVALID_OPERATION` unless active and not paused.
    pub fn pause_transform_feedback(&mut self) {
        if self.local.st.transform_feedback_mode.is_none() || self.local.xfb.paused {
            return self.error(INVALID_OPERATION);
        }
        self.local.xfb.paused = true;
        self.local.dirty |= tessera_components::Dirty::DRAW_CHECK;
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Some(xfb) = self.bound_xfb_handle(&mut sh) {
            sh.dev.use_context(self.local.id);
            sh.dev.push(Record::PauseTransformFeedback { xfb });
        }
    }

    /// `glResumeTransformFeedback`: `INVALID_OPERATION` unless active and paused, and while
    /// the program (or pipeline) in use is not the one the capture began with (Mesa's
    /// order).
    pub fn resume_transform_feedback(&mut self) {
        if self.local.st.transform_feedback_mode.is_none() || !self.local.xfb.paused {
            return self.error(INVALID_OPERATION);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        self.local.resolve_pipeline(&mut sh);
        let e = self.local.xfb.bound_entity(&mut sh.world);
        let Some((program, xfb)) = sh
            .world
            .get::<TransformFeedbackObject>(e)
            .map(|o| (o.program, o.handle))
        else {
            return self.error(INVALID_OPERATION);
        };
        if program != self.local.st.executable() {
            return self.error(INVALID_OPERATION);
        }
        self.local.xfb.paused = false;
        self.local.dirty |= tessera_components::Dirty::DRAW_CHECK;
        if let Some(xfb) = xfb {
            sh.dev.use_context(self.local.id);
            sh.dev.push(Record::ResumeTransformFeedback { xfb });
        }
    }

    /// `glGenTransformFeedbacks`: names only; the object is made at the first bind.
    pub fn gen_transform_feedbacks(&mut self, n: GLsizei, ids: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        if self
            .local
            .xfb
            .names
            .generate(&mut ids[..n as usize])
            .is_err()
        {
            self.error(OUT_OF_MEMORY);
        }
    }

    /// `glIsTransformFeedback`: true for a name bound at least once (and not deleted).
    pub fn is_transform_feedback(&mut self, id: GLuint) -> GLboolean {
        (id != 0 && self.local.xfb.names.get(id).is_some()) as GLboolean
    }

    /// `glBindTransformFeedback`: `INVALID_ENUM` for another target, `INVALID_OPERATION`
    /// while the bound object captures unpaused or for a name never generated.
    pub fn bind_transform_feedback(&mut self, target: GLenum, id: GLuint) {
        if target != TRANSFORM_FEEDBACK {
            return self.error(INVALID_ENUM);
        }
        if self.local.st.transform_feedback_mode.is_some() && !self.local.xfb.paused {
            return self.error(INVALID_OPERATION);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = match self.local.xfb.names.entry(id) {
            _ if id == 0 => self.local.xfb.default_entity(&mut sh.world),
            NameEntry::Free => return self.error(INVALID_OPERATION),
            NameEntry::Object(e) => e,
            NameEntry::Reserved => {
                let e = sh.world.spawn(TransformFeedbackObject::default()).id();
                self.local.xfb.names.bind_object(id, e);
                e
            }
        };
        self.local.bind_xfb_object(&mut sh.world, id, e);
    }

    /// `glDeleteTransformFeedbacks`: an active object is `INVALID_OPERATION` (and ends the
    /// call there, as in Mesa); deleting the bound object binds the default one.
    pub fn delete_transform_feedbacks(&mut self, n: GLsizei, ids: &[GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        for &id in &ids[..n as usize] {
            if id == 0 {
                continue;
            }
            let Some(e) = self.local.xfb.names.get(id) else {
                self.local.xfb.names.free(id);
                continue;
            };
            let bound = self.local.xfb.bound == id;
            let active = if bound {
                self.local.st.transform_feedback_mode.is_some()
            } else {
                sh.world
                    .get::<TransformFeedbackObject>(e)
                    .is_some_and(|o| o.saved.mode.is_some())
            };
            if active {
                return self.error(INVALID_OPERATION);
            }
            if bound {
                let default = self.local.xfb.default_entity(&mut sh.world);
                self.local.bind_xfb_object(&mut sh.world, 0, default);
            }
            self.local.xfb.names.free(id);
            let Shared { world, dev, .. } = &mut *sh;
            destroy_object(world, dev, self.local.id, e);
        }
    }

    /// `glDrawTransformFeedbackStreamInstanced` and its shorter forms: draws the vertices
    /// the last capture into object `id` wrote to vertex stream `stream`. `INVALID_VALUE` for
    /// a name that is no object or a stream past `MAX_VERTEX_STREAMS`,
    /// `INVALID_OPERATION` for an object whose capture never ended; then a draw's errors.
    pub fn draw_transform_feedback_stream_instanced(
        &mut self,
        mode: GLenum,
        id: GLuint,
        stream: GLuint,
        instances: GLsizei,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = match id {
            0 => Some(self.local.xfb.default_entity(&mut sh.world)),
            _ => self.local.xfb.names.get(id),
        };
        let Some(object) = e.and_then(|e| sh.world.get::<TransformFeedbackObject>(e)) else {
            return self.error(INVALID_VALUE);
        };
        let (ended, xfb) = (object.ended, object.handle);
        let binding = object
            .stream_bindings
            .get(stream as usize)
            .copied()
            .flatten();
        if stream >= self.local.limits.max_vertex_streams {
            return self.error(INVALID_VALUE);
        }
        if !ended {
            return self.error(INVALID_OPERATION);
        }
        self.local.resolve_pipeline(&mut sh);
        let Some(topology) = self.local.check_draw(&sh, mode, 0, instances) else {
            return;
        };
        let (Some(xfb), Some(binding)) = (xfb, binding) else {
            return;
        };
        if self.local.st.executable().is_none() || instances == 0 {
            return;
        }
        self.local.prepare_draw(&mut sh);
        self.local.push_draw(
            &mut sh,
            Record::DrawTransformFeedback {
                topology,
                xfb,
                instances: instances as u32,
                binding,
            },
        );
    }

    /// `glDrawTransformFeedback`.
    pub fn draw_transform_feedback(&mut self, mode: GLenum, id: GLuint) {
        self.draw_transform_feedback_stream_instanced(mode, id, 0, 1);
    }

    /// `glDrawTransformFeedbackInstanced`.
    pub fn draw_transform_feedback_instanced(
        &mut self,
        mode: GLenum,
        id: GLuint,
        instances: GLsizei,
    ) {
        self.draw_transform_feedback_stream_instanced(mode, id, 0, instances);
    }

    /// `glDrawTransformFeedbackStream`.
    pub fn draw_transform_feedback_stream(&mut self, mode: GLenum, id: GLuint, stream: GLuint) {
        self.draw_transform_feedback_stream_instanced(mode, id, stream, 1);
    }
}

impl Context {
    /// Mesa's check of an indexed query call's index, made before the target's
    /// (`query_error_check_index`): `INVALID_VALUE` for an index past `MAX_VERTEX_STREAMS`
    /// (the primitive queries) or past 0 (any other target, valid or not).
    fn query_index_error(&self, target: GLenum, index: GLuint) -> Option<GLenum> {
        let streams = match target {
            PRIMITIVES_GENERATED
            | TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
            | TRANSFORM_FEEDBACK_STREAM_OVERFLOW => self.local.limits.max_vertex_streams,
            _ => 1,
        };
        (index >= streams).then_some(INVALID_VALUE)
    }

    /// `glBeginQueryIndexed`: the primitive queries count one vertex stream each.
    pub fn begin_query_indexed(&mut self, target: GLenum, index: GLuint, id: GLuint) {
        if let Some(err) = self.query_index_error(target, index) {
            return self.error(err);
        }
        self.begin_query_at(target, index, id);
    }

    /// `glEndQueryIndexed`.
    pub fn end_query_indexed(&mut self, target: GLenum, index: GLuint) {
        if let Some(err) = self.query_index_error(target, index) {
            return self.error(err);
        }
        self.end_query_at(target, index);
    }

    /// `glGetQueryIndexediv`.
    pub fn get_query_indexediv(
        &mut self,
        target: GLenum,
        index: GLuint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        if let Some(err) = self.query_index_error(target, index) {
            return self.error(err);
        }
        self.get_queryiv_at(target, index, pname, params);
    }
}

/// A context's transform feedback objects.
#[derive(Debug, Default)]
pub struct XfbObjects {
    /// Names from `glGenTransformFeedbacks`; a name gets its object at its first bind.
    pub names: NameTable,
    /// `TRANSFORM_FEEDBACK_BINDING`.
    pub bound: GLuint,
    /// `TRANSFORM_FEEDBACK_PAUSED` of the bound object.
    pub paused: bool,
    /// The default object (name 0), made when first needed.
    default: Option<Entity>,
}

impl XfbObjects {
    /// The default object's entity.
    pub(crate) fn default_entity(&mut self, world: &mut World) -> Entity {
        *self
            .default
            .get_or_insert_with(|| world.spawn(TransformFeedbackObject::default()).id())
    }

    /// The bound object's entity.
    pub(crate) fn bound_entity(&mut self, world: &mut World) -> Entity {
        match self.bound {
            0 => self.default_entity(world),
            n => self
                .names
                .get(n)
                .unwrap_or_else(|| self.default_entity(world)),
        }
    }
}

/// What an object keeps of the bindings while another is bound.
#[derive(Debug, Default, Clone)]
pub(crate) struct Saved {
    pub(crate) buffers: [IndexedBuffer; 4],
    pub(crate) mode: Option<GLenum>,
    pub(crate) paused: bool,
}

/// A transform feedback object.
#[derive(Component, Debug, Default)]
pub struct TransformFeedbackObject {
    /// Its bindings, mode and pause while it is not bound (while bound: the context's).
    pub(crate) saved: Saved,
    /// Its wire object, made at its first begin.
    handle: Option<TransformFeedbackHandle>,
    /// Whether a capture of it ever ended (`glDrawTransformFeedback*` needs one).
    ended: bool,
    /// The program (or stage set) its active capture began with.
    program: Option<Entity>,
    /// The binding `glDrawTransformFeedbackStream` counts for each vertex stream, as the
    /// last capture's program laid them out (`None`: no buffer of that stream).
    stream_bindings: [Option<u8>; 4],
}

impl Local {
    /// Binds object `e` named `id`: the bound object's bindings go into it, `e`'s come out.
    fn bind_xfb_object(&mut self, world: &mut World, id: GLuint, e: Entity) {
        let old = self.xfb.bound_entity(world);
        if old == e {
            self.xfb.bound = id;
            return;
        }
        let out = Saved {
            buffers: std::mem::take(&mut self.st.transform_feedback_buffers),
            mode: self.st.transform_feedback_mode.take(),
            paused: std::mem::take(&mut self.xfb.paused),
        };
        if let Some(mut o) = world.get_mut::<TransformFeedbackObject>(old) {
            o.saved = out;
        }
        let inn = world
            .get_mut::<TransformFeedbackObject>(e)
            .map(|mut o| std::mem::take(&mut o.saved))
            .unwrap_or_default();
        self.st.transform_feedback_buffers = inn.buffers;
        self.st.transform_feedback_mode = inn.mode;
        self.xfb.paused = inn.paused;
        self.xfb.bound = id;
        self.dirty |= tessera_components::Dirty::DRAW_CHECK;
    }
}

/// Destroys an object that is not bound: releases its bindings and its wire object.
fn destroy_object(world: &mut World, dev: &mut Emitter, context: u32, e: Entity) {
    let Some(o) = world.get::<TransformFeedbackObject>(e) else {
        return;
    };
    let held: Vec<Entity> = o.saved.buffers.iter().filter_map(|b| b.buffer).collect();
    if let Some(xfb) = o.handle {
        dev.use_context(context);
        dev.push(Record::DestroyTransformFeedback { xfb });
        dev.alloc.free(xfb);
    }
    world.despawn(e);
    for b in held {
        lifecycle::release(world, dev, b);
    }
}

/// Destroys every transform feedback object of a context that is going away (the bound
/// object's bindings are the context's, released with them).
pub(crate) fn release_objects(local: &mut Local, world: &mut World, dev: &mut Emitter) {
    let mut objects = local.xfb.names.drain_objects();
    objects.extend(local.xfb.default.take());
    let context = local.id;
    for e in objects {
        destroy_object(world, dev, context, e);
    }
    local.xfb.bound = 0;
    local.xfb.paused = false;
}

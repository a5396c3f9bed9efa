//! Transform feedback objects by name: `glTransformFeedbackBufferBase`,
//! `glTransformFeedbackBufferRange` and `glGetTransformFeedback{iv,i_v,i64_v}`.
//!
//! The bound object's bindings, mode and pause are the context's state; every other object
//! keeps its own (`transform_feedback::TransformFeedbackObject`), so a named call reads or
//! writes whichever holds the named object's. A named binding changes the object's indexed
//! binding only: unlike `glBindBufferBase`, the generic `TRANSFORM_FEEDBACK_BUFFER` binding
//! stays (GL 4.5 §13.2.2). The errors are Mesa's, in its order: a name that is no object
//! (`INVALID_OPERATION`; 0 is the default object, and a name `glGenTransformFeedbacks`
//! returned is an object, as Mesa makes it there), a buffer name that is none
//! (`INVALID_VALUE`), an active object (`INVALID_OPERATION`), the index, then a range's
//! alignment, offset and size (`INVALID_VALUE`; a range of buffer 0 must have a size too).

use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::Buffer;
use tessera_components::state::IndexedBuffer;
use tessera_systems::lifecycle;

use crate::context::{Context, GlResult};
use crate::get::name_of;
use crate::share::Shared;
use crate::transform_feedback::TransformFeedbackObject;

/// `MAX_TRANSFORM_FEEDBACK_BUFFERS`.
const XFB_BINDINGS: usize = 4;

/// What a query reads of an object: its bindings, whether it is active and paused.
struct XfbState {
    buffers: [IndexedBuffer; XFB_BINDINGS],
    active: bool,
    paused: bool,
}

impl Context {
    /// The transform feedback object `xfb` names (0: the default object).
    fn xfb_by_name(&mut self, sh: &mut Shared, xfb: GLuint) -> GlResult<Entity> {
        let objects = &mut self.local.xfb;
        match objects.names.entry(xfb) {
            _ if xfb == 0 => Ok(objects.default_entity(&mut sh.world)),
            NameEntry::Free => Err(INVALID_OPERATION),
            NameEntry::Object(e) => Ok(e),
            NameEntry::Reserved => {
                let e = sh.world.spawn(TransformFeedbackObject::default()).id();
                objects.names.bind_object(xfb, e);
                Ok(e)
            }
        }
    }

    /// The state of object `e`: the context's if it is bound, else its own.
    fn xfb_state(&mut self, sh: &mut Shared, e: Entity) -> XfbState {
        if self.local.xfb.bound_entity(&mut sh.world) == e {
            return XfbState {
                buffers: self.local.st.transform_feedback_buffers,
                active: self.local.st.transform_feedback_mode.is_some(),
                paused: self.local.xfb.paused,
            };
        }
        let saved = sh
            .world
            .get::<TransformFeedbackObject>(e)
            .map(|o| o.saved.clone())
            .unwrap_or_default();
        XfbState {
            buffers: saved.buffers,
            active: saved.mode.is_some(),
            paused: saved.paused,
        }
    }

    /// `glTransformFeedbackBufferBase`.
    pub fn transform_feedback_buffer_base(&mut self, xfb: GLuint, index: GLuint, buffer: GLuint) {
        if let Err(err) = self.named_xfb_binding(xfb, index, buffer, None) {
            self.error(err);
        }
    }

    /// `glTransformFeedbackBufferRange`.
    pub fn transform_feedback_buffer_range(
        &mut self,
        xfb: GLuint,
        index: GLuint,
        buffer: GLuint,
        offset: GLintptr,
        size: GLsizeiptr,
    ) {
        let range = Some((offset as i64, size as i64));
        if let Err(err) = self.named_xfb_binding(xfb, index, buffer, range) {
            self.error(err);
        }
    }

    /// Sets binding `index` of object `xfb` to `buffer` (`range`: offset and size).
    fn named_xfb_binding(
        &mut self,
        xfb: GLuint,
        index: GLuint,
        buffer: GLuint,
        range: Option<(i64, i64)>,
    ) -> GlResult {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = self.xfb_by_name(&mut sh, xfb)?;
        if buffer != 0 && sh.names.buffers.entry(buffer) == NameEntry::Free {
            return Err(INVALID_VALUE);
        }
        let state = self.xfb_state(&mut sh, e);
        if state.active {
            return Err(INVALID_OPERATION);
        }
        if index as usize >= XFB_BINDINGS {
            return Err(INVALID_VALUE);
        }
        if let Some((offset, size)) = range
            && (size & 3 != 0 || offset & 3 != 0 || offset < 0 || size <= 0)
        {
            return Err(INVALID_VALUE);
        }
        let b = self.buffer_object(&mut sh, buffer)?;
        let (offset, size) = range.unwrap_or((0, 0));
        let binding = IndexedBuffer {
            buffer: b,
            offset,
            size,
        };
        let i = index as usize;
        let old = if self.local.xfb.bound_entity(&mut sh.world) == e {
            std::mem::replace(&mut self.local.st.transform_feedback_buffers[i], binding)
        } else {
            match sh.world.get_mut::<TransformFeedbackObject>(e) {
                Some(mut o) => std::mem::replace(&mut o.saved.buffers[i], binding),
                None => return Ok(()),
            }
        };
        if old.buffer != b {
            let Shared { world, dev, .. } = &mut *sh;
            lifecycle::replace(world, dev, old.buffer, b);
        }
        Ok(())
    }

    /// `glGetTransformFeedbackiv`: `TRANSFORM_FEEDBACK_PAUSED` or `_ACTIVE`.
    pub fn get_transform_feedbackiv(&mut self, xfb: GLuint, pname: GLenum, param: &mut [GLint]) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = match self.xfb_by_name(&mut sh, xfb) {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        let state = self.xfb_state(&mut sh, e);
        let v = match pname {
            TRANSFORM_FEEDBACK_PAUSED => state.paused,
            TRANSFORM_FEEDBACK_ACTIVE => state.active,
            _ => return self.error(INVALID_ENUM),
        };
        if let Some(out) = param.first_mut() {
            *out = GLint::from(v);
        }
    }

    /// `glGetTransformFeedbacki_v`: `TRANSFORM_FEEDBACK_BUFFER_BINDING`.
    pub fn get_transform_feedbacki_v(
        &mut self,
        xfb: GLuint,
        pname: GLenum,
        index: GLuint,
        param: &mut [GLint],
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let binding = match self.xfb_binding(&mut sh, xfb, index) {
            Ok(b) => b,
            Err(err) => return self.error(err),
        };
        if pname != TRANSFORM_FEEDBACK_BUFFER_BINDING {
            return self.error(INVALID_ENUM);
        }
        if let Some(out) = param.first_mut() {
            *out = name_of(&sh, binding.buffer) as GLint;
        }
    }

    /// `glGetTransformFeedbacki64_v`: `TRANSFORM_FEEDBACK_BUFFER_START` and `_SIZE`, both 0
    /// for a binding made without a range; the size is what the buffer holds of the range
    /// now, rounded down to a multiple of 4 (Mesa's).
    pub fn get_transform_feedbacki64_v(
        &mut self,
        xfb: GLuint,
        pname: GLenum,
        index: GLuint,
        param: &mut [GLint64],
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let b = match self.xfb_binding(&mut sh, xfb, index) {
            Ok(b) => b,
            Err(err) => return self.error(err),
        };
        let ranged = b.size != 0;
        let v = match pname {
            TRANSFORM_FEEDBACK_BUFFER_START | TRANSFORM_FEEDBACK_BUFFER_SIZE if !ranged => 0,
            TRANSFORM_FEEDBACK_BUFFER_START => b.offset,
            TRANSFORM_FEEDBACK_BUFFER_SIZE => {
                let held = b
                    .buffer
                    .and_then(|e| sh.world.get::<Buffer>(e))
                    .map_or(0, |x| x.size);
                let available = (held - b.offset).max(0);
                available.min(b.size) & !3
            }
            _ => return self.error(INVALID_ENUM),
        };
        if let Some(out) = param.first_mut() {
            *out = v;
        }
    }

    /// Binding `index` of object `xfb`, after the name's and the index's checks.
    fn xfb_binding(
        &mut self,
        sh: &mut Shared,
        xfb: GLuint,
        index: GLuint,
    ) -> GlResult<IndexedBuffer> {
        let e = self.xfb_by_name(sh, xfb)?;
        let state = self.xfb_state(sh, e);
        state
            .buffers
            .get(index as usize)
            .copied()
            .ok_or(INVALID_VALUE)
    }
}

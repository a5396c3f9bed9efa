//! Vertex arrays by name: `glCreateVertexArrays` and `glVertexArray*`, each the body of its
//! bound form on the named array (`ArrayRef::Named`); and `glCreateTransformFeedbacks`.

use tessera_components::gl::*;
use tessera_components::object::{MAX_VERTEX_ATTRIB_BINDINGS, VertexArray};
use tessera_wire::state::MAX_VERTEX_ATTRIBS;

use crate::context::Context;
use crate::get::name_of;
use crate::transform_feedback::TransformFeedbackObject;
use crate::vertex_array::{ArrayRef, Read};

impl Context {
    /// `glCreateVertexArrays`: names that are vertex array objects at once.
    pub fn create_vertex_arrays(&mut self, n: GLsizei, arrays: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let len = (n as usize).min(arrays.len());
        let out = &mut arrays[..len];
        if self.local.vertex_arrays.generate(out).is_err() {
            return self.error(OUT_OF_MEMORY);
        }
        let mut sh = self.group.lock();
        for &name in out.iter() {
            self.local.create_vertex_array(&mut sh, name);
        }
    }

    /// `glCreateTransformFeedbacks`: names that are transform feedback objects at once.
    pub fn create_transform_feedbacks(&mut self, n: GLsizei, ids: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let len = (n as usize).min(ids.len());
        let out = &mut ids[..len];
        if self.local.xfb.names.generate(out).is_err() {
            return self.error(OUT_OF_MEMORY);
        }
        let mut sh = self.group.lock();
        for &name in out.iter() {
            let e = sh.world.spawn(TransformFeedbackObject::default()).id();
            self.local.xfb.names.bind_object(name, e);
        }
    }

    /// `glVertexArrayElementBuffer`: a non-zero `buffer` must be a buffer object (a name
    /// reserved and never bound is not one: `INVALID_OPERATION`, as Mesa).
    pub fn vertex_array_element_buffer(&mut self, vaobj: GLuint, buffer: GLuint) {
        let mut sh = self.group.lock_for(self.local.id);
        let vao = match self.local.array(ArrayRef::Named(vaobj)) {
            Ok(v) => v,
            Err(err) => return self.local.set_error(err),
        };
        let e = match buffer {
            0 => None,
            name => match sh.names.buffers.get(name) {
                Some(e) => Some(e),
                None => return self.local.set_error(INVALID_OPERATION),
            },
        };
        self.local.set_element_buffer(&mut sh, vao, e);
    }

    /// `glVertexArrayVertexBuffer`.
    pub fn vertex_array_vertex_buffer(
        &mut self,
        vaobj: GLuint,
        binding_index: GLuint,
        buffer: GLuint,
        offset: GLintptr,
        stride: GLsizei,
    ) {
        self.vertex_buffer(
            ArrayRef::Named(vaobj),
            binding_index,
            buffer,
            offset,
            stride,
        );
    }

    /// `glVertexArrayVertexBuffers`: `glBindVertexBuffers` on the named array.
    pub fn vertex_array_vertex_buffers(
        &mut self,
        vaobj: GLuint,
        first: GLuint,
        count: GLsizei,
        buffers: Option<&[GLuint]>,
        offsets: &[GLintptr],
        strides: &[GLsizei],
    ) {
        let r = ArrayRef::Named(vaobj);
        self.vertex_buffers_of(r, first, count, buffers, offsets, strides);
    }

    /// `glVertexArrayAttribFormat`.
    pub fn vertex_array_attrib_format(
        &mut self,
        vaobj: GLuint,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        normalized: GLboolean,
        relative_offset: GLuint,
    ) {
        let r = ArrayRef::Named(vaobj);
        let normalized = normalized != 0;
        self.attrib_format(r, index, size, ty, normalized, Read::Float, relative_offset);
    }

    /// `glVertexArrayAttribIFormat`.
    pub fn vertex_array_attrib_i_format(
        &mut self,
        vaobj: GLuint,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        relative_offset: GLuint,
    ) {
        let r = ArrayRef::Named(vaobj);
        self.attrib_format(r, index, size, ty, false, Read::Integer, relative_offset);
    }

    /// `glVertexArrayAttribLFormat`.
    pub fn vertex_array_attrib_l_format(
        &mut self,
        vaobj: GLuint,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        relative_offset: GLuint,
    ) {
        let r = ArrayRef::Named(vaobj);
        self.attrib_format(r, index, size, ty, false, Read::Long, relative_offset);
    }

    /// `glVertexArrayAttribBinding`.
    pub fn vertex_array_attrib_binding(
        &mut self,
        vaobj: GLuint,
        attrib_index: GLuint,
        binding_index: GLuint,
    ) {
        self.attrib_binding(ArrayRef::Named(vaobj), attrib_index, binding_index);
    }

    /// `glVertexArrayBindingDivisor`.
    pub fn vertex_array_binding_divisor(
        &mut self,
        vaobj: GLuint,
        binding_index: GLuint,
        divisor: GLuint,
    ) {
        self.binding_divisor(ArrayRef::Named(vaobj), binding_index, divisor);
    }

    /// `glEnableVertexArrayAttrib`.
    pub fn enable_vertex_array_attrib(&mut self, vaobj: GLuint, index: GLuint) {
        self.set_attrib_enabled(ArrayRef::Named(vaobj), index, true);
    }

    /// `glDisableVertexArrayAttrib`.
    pub fn disable_vertex_array_attrib(&mut self, vaobj: GLuint, index: GLuint) {
        self.set_attrib_enabled(ArrayRef::Named(vaobj), index, false);
    }

    /// `glGetVertexArrayiv`: `ELEMENT_ARRAY_BUFFER_BINDING` only.
    pub fn get_vertex_arrayiv(&mut self, vaobj: GLuint, pname: GLenum, param: &mut [GLint]) {
        let sh = self.group.lock();
        let vao = match self.local.array(ArrayRef::Named(vaobj)) {
            Ok(v) => v,
            Err(err) => return self.local.set_error(err),
        };
        if pname != ELEMENT_ARRAY_BUFFER_BINDING {
            return self.local.set_error(INVALID_ENUM);
        }
        let buffer = sh
            .world
            .get::<VertexArray>(vao)
            .and_then(|v| v.element_buffer);
        if let Some(out) = param.first_mut() {
            *out = name_of(&sh, buffer) as GLint;
        }
    }

    /// `glGetVertexArrayIndexediv`: an attribute's array state, as `glGetVertexAttribiv`
    /// answers it (no current value). After the name check an error writes 0, as Mesa.
    pub fn get_vertex_array_indexediv(
        &mut self,
        vaobj: GLuint,
        index: GLuint,
        pname: GLenum,
        param: &mut [GLint],
    ) {
        let r = ArrayRef::Named(vaobj);
        if let Err(err) = self.local.array(r) {
            return self.error(err);
        }
        let value = if index as usize >= MAX_VERTEX_ATTRIBS {
            self.error(INVALID_VALUE);
            None
        } else {
            self.array_attrib_value(r, index, pname)
        };
        if let Some(out) = param.first_mut() {
            *out = value.map_or(0, |v| v[0] as GLint);
        }
    }

    /// `glGetVertexArrayIndexed64iv`: `VERTEX_BINDING_OFFSET` of a binding point (the
    /// pname is checked before the index, as Mesa).
    pub fn get_vertex_array_indexed64iv(
        &mut self,
        vaobj: GLuint,
        index: GLuint,
        pname: GLenum,
        param: &mut [GLint64],
    ) {
        let sh = self.group.lock();
        let vao = match self.local.array(ArrayRef::Named(vaobj)) {
            Ok(v) => v,
            Err(err) => return self.local.set_error(err),
        };
        if pname != VERTEX_BINDING_OFFSET {
            return self.local.set_error(INVALID_ENUM);
        }
        if index as usize >= MAX_VERTEX_ATTRIB_BINDINGS {
            return self.local.set_error(INVALID_VALUE);
        }
        let offset = sh
            .world
            .get::<VertexArray>(vao)
            .map_or(0, |v| v.bindings[index as usize].offset);
        if let Some(out) = param.first_mut() {
            *out = offset as GLint64;
        }
    }
}

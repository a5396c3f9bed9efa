//! Vertex array objects and vertex attributes.

use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::{Buffer, Life, VertexArray};
use tessera_components::state::{BufferTarget, GenericAttrib, GenericKind};
use tessera_systems::conv::map_attrib_type;
use tessera_systems::lifecycle;
use tessera_wire::state::MAX_VERTEX_ATTRIBS;

use crate::context::{Context, Local};
use crate::share::Shared;

impl Local {
    /// The bound vertex array, or `INVALID_OPERATION` when none is (core profile has no
    /// default vertex array).
    fn vao(&self) -> Result<Entity, GLenum> {
        self.st.vertex_array.ok_or(INVALID_OPERATION)
    }

    fn bind_vertex_array(&mut self, sh: &mut Shared, array: GLuint) {
        if array == 0 {
            if self.st.vertex_array.take().is_some() {
                self.dirty |= Dirty::VERTEX_LAYOUT
                    | Dirty::VERTEX_BUFFERS
                    | Dirty::INDEX_BUFFER
                    | Dirty::GENERIC_ATTRIBS
                    | Dirty::DRAW_CHECK;
            }
            return;
        }
        let e = match self.vertex_arrays.entry(array) {
            NameEntry::Object(e) => e,
            NameEntry::Free => return self.set_error(INVALID_OPERATION),
            NameEntry::Reserved => {
                let e = sh
                    .world
                    .spawn((
                        Life::named(array),
                        VertexArray {
                            bound_once: true,
                            ..VertexArray::default()
                        },
                    ))
                    .id();
                self.vertex_arrays.bind_object(array, e);
                e
            }
        };
        if self.st.vertex_array != Some(e) {
            self.st.vertex_array = Some(e);
            self.dirty |= Dirty::VERTEX_LAYOUT
                | Dirty::VERTEX_BUFFERS
                | Dirty::INDEX_BUFFER
                | Dirty::GENERIC_ATTRIBS
                | Dirty::DRAW_CHECK;
        }
    }
}

impl Context {
    /// `glGenVertexArrays`.
    pub fn gen_vertex_arrays(&mut self, n: GLsizei, arrays: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        self.local.vertex_arrays.generate(&mut arrays[..n as usize]);
    }

    /// Generates one vertex array name.
    pub fn gen_vertex_array(&mut self) -> GLuint {
        let mut name = [0];
        self.gen_vertex_arrays(1, &mut name);
        name[0]
    }

    /// `glBindVertexArray`.
    pub fn bind_vertex_array(&mut self, array: GLuint) {
        let mut sh = self.group.lock();
        self.local.bind_vertex_array(&mut sh, array);
    }

    /// `glIsVertexArray`.
    pub fn is_vertex_array(&mut self, array: GLuint) -> GLboolean {
        self.local.vertex_arrays.get(array).is_some() as GLboolean
    }

    /// `glDeleteVertexArrays`: a bound array is unbound first.
    pub fn delete_vertex_arrays(&mut self, n: GLsizei, arrays: &[GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let mut sh = self.group.lock_for(self.local.id);
        for &name in &arrays[..n as usize] {
            let Some(e) = self.local.vertex_arrays.free(name) else {
                continue;
            };
            if self.local.st.vertex_array == Some(e) {
                self.local.bind_vertex_array(&mut sh, 0);
            }
            let Shared { world, dev, .. } = &mut *sh;
            lifecycle::unname(world, dev, e);
        }
    }

    /// `glEnableVertexAttribArray`.
    pub fn enable_vertex_attrib_array(&mut self, index: GLuint) {
        self.set_attrib_enabled(index, true);
    }

    /// `glDisableVertexAttribArray`.
    pub fn disable_vertex_attrib_array(&mut self, index: GLuint) {
        self.set_attrib_enabled(index, false);
    }

    fn set_attrib_enabled(&mut self, index: GLuint, on: bool) {
        if index as usize >= MAX_VERTEX_ATTRIBS {
            return self.error(INVALID_VALUE);
        }
        let mut sh = self.group.lock();
        let vao = match self.local.vao() {
            Ok(v) => v,
            Err(e) => return self.local.set_error(e),
        };
        let Some(mut v) = sh.world.get_mut::<VertexArray>(vao) else {
            return;
        };
        let a = &mut v.attribs[index as usize];
        if a.enabled != on {
            a.enabled = on;
            v.layout_generation += 1;
            self.local.dirty |= Dirty::VERTEX_LAYOUT
                | Dirty::VERTEX_BUFFERS
                | Dirty::GENERIC_ATTRIBS
                | Dirty::DRAW_CHECK;
        }
    }

    /// `glVertexAttribPointer`.
    pub fn vertex_attrib_pointer(
        &mut self,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        normalized: GLboolean,
        stride: GLsizei,
        pointer: usize,
    ) {
        self.attrib_pointer(index, size, ty, normalized != 0, false, stride, pointer);
    }

    /// `glVertexAttribIPointer`.
    pub fn vertex_attrib_i_pointer(
        &mut self,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        stride: GLsizei,
        pointer: usize,
    ) {
        self.attrib_pointer(index, size, ty, false, true, stride, pointer);
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "mirrors glVertexAttribPointer plus its integer flag"
    )]
    fn attrib_pointer(
        &mut self,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        normalized: bool,
        integer: bool,
        stride: GLsizei,
        pointer: usize,
    ) {
        if index as usize >= MAX_VERTEX_ATTRIBS {
            return self.error(INVALID_VALUE);
        }
        let int_type = matches!(
            ty,
            BYTE | UNSIGNED_BYTE | SHORT | UNSIGNED_SHORT | INT | UNSIGNED_INT
        );
        let packed = matches!(ty, INT_2_10_10_10_REV | UNSIGNED_INT_2_10_10_10_REV);
        let type_ok = if integer {
            int_type
        } else {
            map_attrib_type(ty).is_some()
        };
        if !type_ok {
            return self.error(INVALID_ENUM);
        }
        let bgra = size == BGRA as GLint;
        // BGRA is a size only for normalized (not integer) pointers.
        let size_ok = (1..=4).contains(&size) || (bgra && !integer);
        if !size_ok {
            return self.error(INVALID_VALUE);
        }
        if stride < 0 {
            return self.error(INVALID_VALUE);
        }
        if bgra && (ty != UNSIGNED_BYTE && !packed || !normalized) {
            return self.error(INVALID_OPERATION);
        }
        if packed && size != 4 && !bgra {
            return self.error(INVALID_OPERATION);
        }
        let mut sh = self.group.lock_for(self.local.id);
        let vao = match self.local.vao() {
            Ok(v) => v,
            Err(e) => return self.local.set_error(e),
        };
        let buffer = self.local.st.buffer(BufferTarget::Array);
        if buffer.is_none() && pointer != 0 {
            return self.local.set_error(INVALID_OPERATION);
        }
        let handle = buffer
            .and_then(|b| sh.world.get::<Buffer>(b))
            .map(|b| b.handle);
        let Shared { world, dev, .. } = &mut *sh;
        let Some(mut v) = world.get_mut::<VertexArray>(vao) else {
            return;
        };
        let a = &mut v.attribs[index as usize];
        let old_buffer = a.buffer;
        let layout_changed = (a.size, a.ty, a.normalized, a.integer, a.stride)
            != (size, ty, normalized, integer, stride);
        let buffer_changed = (a.buffer, a.pointer) != (buffer, pointer);
        a.size = size;
        a.ty = ty;
        a.normalized = normalized;
        a.integer = integer;
        a.stride = stride;
        a.pointer = pointer;
        a.buffer = buffer;
        a.buffer_handle = handle;
        if layout_changed {
            v.layout_generation += 1;
            self.local.dirty |= Dirty::VERTEX_LAYOUT;
        }
        if buffer_changed {
            v.buffers_generation += 1;
            self.local.dirty |= Dirty::VERTEX_BUFFERS;
        }
        lifecycle::replace(world, dev, old_buffer, buffer);
    }

    /// `glVertexAttribDivisor`.
    pub fn vertex_attrib_divisor(&mut self, index: GLuint, divisor: GLuint) {
        if index as usize >= MAX_VERTEX_ATTRIBS {
            return self.error(INVALID_VALUE);
        }
        let mut sh = self.group.lock();
        let vao = match self.local.vao() {
            Ok(v) => v,
            Err(e) => return self.local.set_error(e),
        };
        let Some(mut v) = sh.world.get_mut::<VertexArray>(vao) else {
            return;
        };
        if v.attribs[index as usize].divisor != divisor {
            v.attribs[index as usize].divisor = divisor;
            v.layout_generation += 1;
            self.local.dirty |= Dirty::VERTEX_LAYOUT;
        }
    }

    fn set_generic(&mut self, index: GLuint, bits: [u32; 4], kind: GenericKind) {
        if index as usize >= MAX_VERTEX_ATTRIBS {
            return self.error(INVALID_VALUE);
        }
        let value = GenericAttrib { bits, kind };
        if self.local.st.generic_attribs[index as usize] != value {
            self.local.st.generic_attribs[index as usize] = value;
            self.local.dirty |= Dirty::GENERIC_ATTRIBS;
        }
    }

    /// `glVertexAttrib4f` (the other float forms fill missing components with 0, 0, 1).
    pub fn vertex_attrib_4f(
        &mut self,
        index: GLuint,
        x: GLfloat,
        y: GLfloat,
        z: GLfloat,
        w: GLfloat,
    ) {
        self.set_generic(
            index,
            [x.to_bits(), y.to_bits(), z.to_bits(), w.to_bits()],
            GenericKind::Float,
        );
    }

    /// `glVertexAttrib1f`.
    pub fn vertex_attrib_1f(&mut self, index: GLuint, x: GLfloat) {
        self.vertex_attrib_4f(index, x, 0.0, 0.0, 1.0);
    }

    /// `glVertexAttrib2f`.
    pub fn vertex_attrib_2f(&mut self, index: GLuint, x: GLfloat, y: GLfloat) {
        self.vertex_attrib_4f(index, x, y, 0.0, 1.0);
    }

    /// `glVertexAttrib3f`.
    pub fn vertex_attrib_3f(&mut self, index: GLuint, x: GLfloat, y: GLfloat, z: GLfloat) {
        self.vertex_attrib_4f(index, x, y, z, 1.0);
    }

    /// `glVertexAttrib4fv`.
    pub fn vertex_attrib_4fv(&mut self, index: GLuint, v: &[GLfloat; 4]) {
        self.vertex_attrib_4f(index, v[0], v[1], v[2], v[3]);
    }

    /// `glVertexAttrib4Nub`.
    pub fn vertex_attrib_4nub(&mut self, index: GLuint, x: u8, y: u8, z: u8, w: u8) {
        let n = |c: u8| f32::from(c) / 255.0;
        self.vertex_attrib_4f(index, n(x), n(y), n(z), n(w));
    }

    /// `glVertexAttribI4i`.
    pub fn vertex_attrib_i4i(&mut self, index: GLuint, x: GLint, y: GLint, z: GLint, w: GLint) {
        self.set_generic(
            index,
            [x as u32, y as u32, z as u32, w as u32],
            GenericKind::Int,
        );
    }

    /// `glVertexAttribI4ui`.
    pub fn vertex_attrib_i4ui(
        &mut self,
        index: GLuint,
        x: GLuint,
        y: GLuint,
        z: GLuint,
        w: GLuint,
    ) {
        self.set_generic(index, [x, y, z, w], GenericKind::Uint);
    }

    /// Reads one attribute state value for `get_vertex_attrib*` (`None` after raising the
    /// error).
    fn vertex_attrib_value(&mut self, index: GLuint, pname: GLenum) -> Option<[f64; 4]> {
        if index as usize >= MAX_VERTEX_ATTRIBS {
            self.error(INVALID_VALUE);
            return None;
        }
        if pname == CURRENT_VERTEX_ATTRIB {
            let g = self.local.st.generic_attribs[index as usize];
            return Some(match g.kind {
                GenericKind::Float => g.bits.map(|b| f64::from(f32::from_bits(b))),
                GenericKind::Int => g.bits.map(|b| f64::from(b as i32)),
                GenericKind::Uint => g.bits.map(f64::from),
            });
        }
        let sh = self.group.lock();
        let Some(vao) = self.local.st.vertex_array else {
            drop(sh);
            self.error(INVALID_OPERATION);
            return None;
        };
        let v = sh.world.get::<VertexArray>(vao)?;
        let a = v.attribs[index as usize];
        let name_of = |e: Option<Entity>| {
            e.and_then(|e| sh.world.get::<Life>(e))
                .map_or(0, |l| l.name)
        };
        let one = |x: f64| Some([x, 0.0, 0.0, 0.0]);
        match pname {
            VERTEX_ATTRIB_ARRAY_ENABLED => one(f64::from(u8::from(a.enabled))),
            VERTEX_ATTRIB_ARRAY_SIZE => one(f64::from(a.size)),
            VERTEX_ATTRIB_ARRAY_STRIDE => one(f64::from(a.stride)),
            VERTEX_ATTRIB_ARRAY_TYPE => one(f64::from(a.ty)),
            VERTEX_ATTRIB_ARRAY_NORMALIZED => one(f64::from(u8::from(a.normalized))),
            VERTEX_ATTRIB_ARRAY_INTEGER => one(f64::from(u8::from(a.integer))),
            VERTEX_ATTRIB_ARRAY_DIVISOR => one(f64::from(a.divisor)),
            VERTEX_ATTRIB_ARRAY_BUFFER_BINDING => one(f64::from(name_of(a.buffer))),
            _ => {
                drop(sh);
                self.error(INVALID_ENUM);
                None
            }
        }
    }

    /// `glGetVertexAttribiv`. Floating-point current values round to the nearest integer
    /// (GL 3.3 §6.1.2; Mesa truncates), saturating at the ends of the `GLint` range.
    pub fn get_vertex_attribiv(&mut self, index: GLuint, pname: GLenum, params: &mut [GLint]) {
        if let Some(v) = self.vertex_attrib_value(index, pname) {
            let n = if pname == CURRENT_VERTEX_ATTRIB { 4 } else { 1 };
            for (o, x) in params.iter_mut().zip(v).take(n) {
                *o = x.round() as i32;
            }
        }
    }

    /// `glGetVertexAttribfv`.
    pub fn get_vertex_attribfv(&mut self, index: GLuint, pname: GLenum, params: &mut [GLfloat]) {
        if let Some(v) = self.vertex_attrib_value(index, pname) {
            let n = if pname == CURRENT_VERTEX_ATTRIB { 4 } else { 1 };
            for (o, x) in params.iter_mut().zip(v).take(n) {
                *o = x as f32;
            }
        }
    }

    /// `glGetVertexAttribIiv`.
    pub fn get_vertex_attrib_iiv(&mut self, index: GLuint, pname: GLenum, params: &mut [GLint]) {
        if pname == CURRENT_VERTEX_ATTRIB && (index as usize) < MAX_VERTEX_ATTRIBS {
            let g = self.local.st.generic_attribs[index as usize];
            for (o, b) in params.iter_mut().zip(g.bits) {
                *o = b as i32;
            }
            return;
        }
        self.get_vertex_attribiv(index, pname, params);
    }

    /// `glGetVertexAttribIuiv`.
    pub fn get_vertex_attrib_iuiv(&mut self, index: GLuint, pname: GLenum, params: &mut [GLuint]) {
        if pname == CURRENT_VERTEX_ATTRIB && (index as usize) < MAX_VERTEX_ATTRIBS {
            let g = self.local.st.generic_attribs[index as usize];
            params[..4].copy_from_slice(&g.bits);
            return;
        }
        // Array state is one non-negative integer; nothing is written on error.
        if let Some(v) = self.vertex_attrib_value(index, pname) {
            params[0] = v[0] as u32;
        }
    }

    /// `glGetVertexAttribPointerv` (`VERTEX_ATTRIB_ARRAY_POINTER`): the offset.
    pub fn get_vertex_attrib_pointerv(&mut self, index: GLuint, pname: GLenum) -> usize {
        if index as usize >= MAX_VERTEX_ATTRIBS {
            self.error(INVALID_VALUE);
            return 0;
        }
        if pname != VERTEX_ATTRIB_ARRAY_POINTER {
            self.error(INVALID_ENUM);
            return 0;
        }
        let sh = self.group.lock();
        let Some(vao) = self.local.st.vertex_array else {
            drop(sh);
            self.error(INVALID_OPERATION);
            return 0;
        };
        sh.world
            .get::<VertexArray>(vao)
            .map_or(0, |v| v.attribs[index as usize].pointer)
    }
}

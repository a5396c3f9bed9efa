//! Vertex array objects and vertex attributes.

use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::{Buffer, Life, MAX_VERTEX_ATTRIB_BINDINGS, VertexArray};
use tessera_components::state::{BufferTarget, GenericAttrib, GenericKind};
use tessera_systems::conv::map_attrib_type;
use tessera_systems::lifecycle;
use tessera_systems::vertex::packed_size;
use tessera_wire::state::MAX_VERTEX_ATTRIBS;

use crate::context::{Context, Local};
use crate::limits;
use crate::share::Shared;

/// What a change to a vertex array touched, for its generations and dirty bits.
#[derive(Clone, Copy, Default)]
struct Touched {
    /// The layout CSO (formats, enables, an attribute's binding, a binding's stride or
    /// divisor).
    layout: bool,
    /// Where attributes fetch from (a binding's buffer or offset, an attribute's binding or
    /// relative offset).
    buffers: bool,
}

impl Touched {
    /// Bumps the array's generations and sets the context's dirty bits.
    fn apply(self, v: &mut VertexArray, dirty: &mut Dirty) {
        if self.layout {
            v.layout_generation += 1;
            *dirty |= Dirty::VERTEX_LAYOUT;
        }
        if self.buffers {
            v.buffers_generation += 1;
            *dirty |= Dirty::VERTEX_BUFFERS;
        }
    }
}

/// `VertexAttribBinding(attrib, binding)` on the array's state (no checks).
fn attrib_binding(v: &mut VertexArray, attrib: usize, binding: u8) -> Touched {
    let a = &mut v.attribs[attrib];
    if a.binding == binding {
        return Touched::default();
    }
    a.binding = binding;
    Touched {
        layout: true,
        buffers: true,
    }
}

/// `BindVertexBuffer` on the array's state (no checks); returns the buffer the binding
/// held, whose reference the caller moves to `buffer`.
fn bind_buffer_at(
    v: &mut VertexArray,
    binding: usize,
    buffer: Option<Entity>,
    handle: Option<tessera_wire::handle::BufferHandle>,
    offset: u64,
    stride: u32,
) -> (Option<Entity>, Touched) {
    let b = &mut v.bindings[binding];
    let old = b.buffer;
    let touched = Touched {
        layout: b.stride != stride,
        buffers: (b.buffer, b.offset) != (buffer, offset),
    };
    b.buffer = buffer;
    b.buffer_handle = handle;
    b.offset = offset;
    b.stride = stride;
    (old, touched)
}

/// How a vertex shader reads an attribute array: which `glVertexAttrib*Pointer` and
/// `glVertexAttrib*Format` set it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Read {
    /// Converted to floats (no letter).
    Float,
    /// As integers (`I`).
    Integer,
    /// As doubles (`L`, GL 4.1's `ARB_vertex_attrib_64bit`).
    Long,
}

/// Whether `ty` is a type the `glVertexAttrib*Pointer`/`glVertexAttrib*Format` of `read`
/// take (`UNSIGNED_INT_10F_11F_11F_REV`, GL 4.4's, only where the backend fetches it:
/// `packed_float`).
fn attrib_type_ok(ty: GLenum, read: Read, packed_float: bool) -> bool {
    match read {
        Read::Integer => matches!(
            ty,
            BYTE | UNSIGNED_BYTE | SHORT | UNSIGNED_SHORT | INT | UNSIGNED_INT
        ),
        Read::Long => ty == DOUBLE,
        Read::Float => {
            map_attrib_type(ty).is_some() && (ty != UNSIGNED_INT_10F_11F_11F_REV || packed_float)
        }
    }
}

/// The format errors of `glVertexAttrib*Pointer` and `glVertexAttrib*Format` after the
/// type's (GL 4.3 §10.3.1, in Mesa's order): the size (`BGRA` only for normalized float
/// formats), the packed types' size of 4, the packed floats' size of 3.
fn attrib_size_error(size: GLint, ty: GLenum, normalized: bool, integer: bool) -> GLenum {
    let packed = matches!(ty, INT_2_10_10_10_REV | UNSIGNED_INT_2_10_10_10_REV);
    let bgra = size == BGRA as GLint && !integer;
    if bgra {
        if ty != UNSIGNED_BYTE && !packed || !normalized {
            return INVALID_OPERATION;
        }
    } else if !(1..=4).contains(&size) {
        return INVALID_VALUE;
    }
    if packed && size != 4 && !bgra {
        return INVALID_OPERATION;
    }
    // GL_ARB_vertex_type_10f_11f_11f_rev: three components only (after the 2_10_10_10
    // check, as in Mesa's validate_array_format).
    if ty == UNSIGNED_INT_10F_11F_11F_REV && size != 3 {
        return INVALID_OPERATION;
    }
    NO_ERROR
}

/// The vertex array a call works on: the bound one (`glVertexAttrib*`, `glBindVertexBuffer`,
/// ...) or the one a `glVertexArray*` call names (GL 4.5's direct state access). Each bound
/// form and its named form share one body; only finding the array differs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArrayRef {
    /// The context's bound vertex array.
    Bound,
    /// A vertex array by name.
    Named(GLuint),
}

impl Local {
    /// The bound vertex array, or `INVALID_OPERATION` when none is (core profile has no
    /// default vertex array).
    fn vao(&self) -> Result<Entity, GLenum> {
        self.st.vertex_array.ok_or(INVALID_OPERATION)
    }

    /// The array `r` names: `INVALID_OPERATION` without a bound array, or for a name that is
    /// no vertex array object (zero, never generated, or generated and never bound or
    /// created, as Mesa's `_mesa_lookup_vao_err`).
    pub(crate) fn array(&self, r: ArrayRef) -> Result<Entity, GLenum> {
        match r {
            ArrayRef::Bound => self.vao(),
            ArrayRef::Named(name) => self.vertex_arrays.get(name).ok_or(INVALID_OPERATION),
        }
    }

    /// Points the array's `ELEMENT_ARRAY_BUFFER` binding at `e` (a buffer object or none),
    /// keeping references counted and marking the index buffer for the next draw.
    pub(crate) fn set_element_buffer(&mut self, sh: &mut Shared, vao: Entity, e: Option<Entity>) {
        let Shared { world, dev, .. } = sh;
        let handle = e.and_then(|e| world.get::<Buffer>(e)).map(|b| b.handle);
        let old = match world.get_mut::<VertexArray>(vao) {
            Some(mut v) if v.element_buffer != e => {
                let old = v.element_buffer;
                v.element_buffer = e;
                v.element_buffer_handle = handle;
                old
            }
            _ => return,
        };
        lifecycle::replace(world, dev, old, e);
        self.dirty |= Dirty::INDEX_BUFFER;
    }

    fn bind_vertex_array(&mut self, sh: &mut Shared, array: GLuint) {
        if array == 0 {
            if self.st.vertex_array.take().is_some() {
                self.dirty |= Dirty::VERTEX_LAYOUT
                    | Dirty::VERTEX_BUFFERS
                    | Dirty::INDEX_BUFFER
                    | Dirty::GENERIC_ATTRIBS;
            }
            return;
        }
        let e = match self.vertex_arrays.entry(array) {
            NameEntry::Object(e) => e,
            NameEntry::Free => return self.set_error(INVALID_OPERATION),
            NameEntry::Reserved => self.create_vertex_array(sh, array),
        };
        if self.st.vertex_array != Some(e) {
            self.st.vertex_array = Some(e);
            self.dirty |= Dirty::VERTEX_LAYOUT
                | Dirty::VERTEX_BUFFERS
                | Dirty::INDEX_BUFFER
                | Dirty::GENERIC_ATTRIBS;
        }
    }
}

impl Local {
    /// Gives the reserved name `array` its vertex array object (at its first bind, or at
    /// `glCreateVertexArrays`).
    pub(crate) fn create_vertex_array(&mut self, sh: &mut Shared, array: GLuint) -> Entity {
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
}

impl Context {
    /// `glGenVertexArrays`.
    pub fn gen_vertex_arrays(&mut self, n: GLsizei, arrays: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        if self
            .local
            .vertex_arrays
            .generate(&mut arrays[..n as usize])
            .is_err()
        {
            self.error(OUT_OF_MEMORY);
        }
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
        self.set_attrib_enabled(ArrayRef::Bound, index, true);
    }

    /// `glDisableVertexAttribArray`.
    pub fn disable_vertex_attrib_array(&mut self, index: GLuint) {
        self.set_attrib_enabled(ArrayRef::Bound, index, false);
    }

    /// Without a bound vertex array nothing changes and no error is raised: GL 4.3 names
    /// `INVALID_OPERATION`, but Mesa (the oracle) enables or disables the attribute of its
    /// hidden default array, which no core-profile call can observe or draw with, and
    /// programs (piglit among them) call these after binding array 0. The named forms
    /// check the name first (`INVALID_OPERATION`), then the index.
    pub(crate) fn set_attrib_enabled(&mut self, r: ArrayRef, index: GLuint, on: bool) {
        let mut sh = self.group.lock();
        let found = self.local.array(r);
        if r != ArrayRef::Bound
            && let Err(err) = found
        {
            return self.local.set_error(err);
        }
        if index as usize >= MAX_VERTEX_ATTRIBS {
            return self.local.set_error(INVALID_VALUE);
        }
        let Ok(vao) = found else {
            return;
        };
        let Some(mut v) = sh.world.get_mut::<VertexArray>(vao) else {
            return;
        };
        let a = &mut v.attribs[index as usize];
        if a.enabled != on {
            a.enabled = on;
            v.layout_generation += 1;
            self.local.dirty |=
                Dirty::VERTEX_LAYOUT | Dirty::VERTEX_BUFFERS | Dirty::GENERIC_ATTRIBS;
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
        self.attrib_pointer(
            index,
            size,
            ty,
            normalized != 0,
            Read::Float,
            stride,
            pointer,
        );
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
        self.attrib_pointer(index, size, ty, false, Read::Integer, stride, pointer);
    }

    /// `glVertexAttribLPointer` (GL 4.1's `ARB_vertex_attrib_64bit`): doubles read as
    /// doubles by a `double` or `dvec*` input.
    pub fn vertex_attrib_l_pointer(
        &mut self,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        stride: GLsizei,
        pointer: usize,
    ) {
        self.attrib_pointer(index, size, ty, false, Read::Long, stride, pointer);
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "mirrors glVertexAttribPointer plus how the shader reads it"
    )]
    fn attrib_pointer(
        &mut self,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        normalized: bool,
        read: Read,
        stride: GLsizei,
        pointer: usize,
    ) {
        if index as usize >= MAX_VERTEX_ATTRIBS {
            return self.error(INVALID_VALUE);
        }
        if !attrib_type_ok(ty, read, self.local.limits.vertex_10f_11f_11f) {
            return self.error(INVALID_ENUM);
        }
        let (integer, long) = (read == Read::Integer, read == Read::Long);
        let error = attrib_size_error(size, ty, normalized, read != Read::Float);
        if error != NO_ERROR {
            return self.error(error);
        }
        // GL 4.4's MAX_VERTEX_ATTRIB_STRIDE, which Mesa checks in 4.4+ contexts.
        if !(0..=limits::MAX_VERTEX_ATTRIB_STRIDE).contains(&stride) {
            return self.error(INVALID_VALUE);
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
        // GL 4.3 §10.3.1: VertexAttrib*Format(index, size, type, normalized, 0),
        // VertexAttribBinding(index, index), and BindVertexBuffer(index, buffer, pointer,
        // stride or the packed size).
        let i = index as usize;
        let a = &mut v.attribs[i];
        let mut touched = Touched {
            layout: (a.size, a.ty, a.normalized, a.integer, a.long)
                != (size, ty, normalized, integer, long),
            buffers: a.relative_offset != 0,
        };
        a.size = size;
        a.ty = ty;
        a.normalized = normalized;
        a.integer = integer;
        a.long = long;
        a.relative_offset = 0;
        a.stride = stride;
        a.pointer = pointer;
        let effective = if stride == 0 {
            packed_size(a)
        } else {
            stride as u32
        };
        let t = attrib_binding(&mut v, i, index as u8);
        touched.layout |= t.layout;
        touched.buffers |= t.buffers;
        let (old_buffer, t) = bind_buffer_at(&mut v, i, buffer, handle, pointer as u64, effective);
        touched.layout |= t.layout;
        touched.buffers |= t.buffers;
        touched.apply(&mut v, &mut self.local.dirty);
        lifecycle::replace(world, dev, old_buffer, buffer);
    }

    /// `glVertexAttribDivisor`: `VertexAttribBinding(index, index)` and
    /// `VertexBindingDivisor(index, divisor)` (GL 4.3 §10.3.2).
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
        let i = index as usize;
        let mut touched = attrib_binding(&mut v, i, index as u8);
        if v.bindings[i].divisor != divisor {
            v.bindings[i].divisor = divisor;
            touched.layout = true;
        }
        touched.apply(&mut v, &mut self.local.dirty);
    }

    /// `glVertexAttribFormat` (GL 4.3).
    pub fn vertex_attrib_format(
        &mut self,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        normalized: GLboolean,
        relative_offset: GLuint,
    ) {
        self.attrib_format(
            ArrayRef::Bound,
            index,
            size,
            ty,
            normalized != 0,
            Read::Float,
            relative_offset,
        );
    }

    /// `glVertexAttribIFormat` (GL 4.3).
    pub fn vertex_attrib_i_format(
        &mut self,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        relative_offset: GLuint,
    ) {
        self.attrib_format(
            ArrayRef::Bound,
            index,
            size,
            ty,
            false,
            Read::Integer,
            relative_offset,
        );
    }

    /// `glVertexAttribLFormat` (GL 4.3 with `ARB_vertex_attrib_64bit`).
    pub fn vertex_attrib_l_format(
        &mut self,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        relative_offset: GLuint,
    ) {
        self.attrib_format(
            ArrayRef::Bound,
            index,
            size,
            ty,
            false,
            Read::Long,
            relative_offset,
        );
    }

    /// The errors of GL 4.3 §10.3.1 in Mesa's order (no vertex array, index, type, size,
    /// relative offset), then the format and relative offset of one attribute; its
    /// binding is untouched.
    #[expect(
        clippy::too_many_arguments,
        reason = "glVertexArrayAttribFormat's signature plus how the shader reads it"
    )]
    pub(crate) fn attrib_format(
        &mut self,
        r: ArrayRef,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        normalized: bool,
        read: Read,
        relative_offset: GLuint,
    ) {
        let mut sh = self.group.lock();
        let vao = match self.local.array(r) {
            Ok(v) => v,
            Err(e) => return self.local.set_error(e),
        };
        let (integer, long) = (read == Read::Integer, read == Read::Long);
        let error = if index as usize >= MAX_VERTEX_ATTRIBS {
            INVALID_VALUE
        } else if !attrib_type_ok(ty, read, self.local.limits.vertex_10f_11f_11f) {
            INVALID_ENUM
        } else {
            match attrib_size_error(size, ty, normalized, read != Read::Float) {
                NO_ERROR if relative_offset > limits::MAX_VERTEX_ATTRIB_RELATIVE_OFFSET => {
                    INVALID_VALUE
                }
                e => e,
            }
        };
        if error != NO_ERROR {
            return self.local.set_error(error);
        }
        let Some(mut v) = sh.world.get_mut::<VertexArray>(vao) else {
            return;
        };
        let a = &mut v.attribs[index as usize];
        let touched = Touched {
            layout: (a.size, a.ty, a.normalized, a.integer, a.long)
                != (size, ty, normalized, integer, long),
            buffers: a.relative_offset != relative_offset,
        };
        a.size = size;
        a.ty = ty;
        a.normalized = normalized;
        a.integer = integer;
        a.long = long;
        a.relative_offset = relative_offset;
        touched.apply(&mut v, &mut self.local.dirty);
    }

    /// `glVertexAttribBinding` (GL 4.3).
    pub fn vertex_attrib_binding(&mut self, attrib_index: GLuint, binding_index: GLuint) {
        self.attrib_binding(ArrayRef::Bound, attrib_index, binding_index);
    }

    pub(crate) fn attrib_binding(
        &mut self,
        r: ArrayRef,
        attrib_index: GLuint,
        binding_index: GLuint,
    ) {
        let mut sh = self.group.lock();
        let vao = match self.local.array(r) {
            Ok(v) => v,
            Err(e) => return self.local.set_error(e),
        };
        if attrib_index as usize >= MAX_VERTEX_ATTRIBS
            || binding_index as usize >= MAX_VERTEX_ATTRIB_BINDINGS
        {
            return self.local.set_error(INVALID_VALUE);
        }
        let Some(mut v) = sh.world.get_mut::<VertexArray>(vao) else {
            return;
        };
        let touched = attrib_binding(&mut v, attrib_index as usize, binding_index as u8);
        touched.apply(&mut v, &mut self.local.dirty);
    }

    /// `glBindVertexBuffer` (GL 4.3): the buffer, offset and stride of one binding point
    /// (a stride of 0 reads the same element for every vertex).
    pub fn bind_vertex_buffer(
        &mut self,
        binding_index: GLuint,
        buffer: GLuint,
        offset: GLintptr,
        stride: GLsizei,
    ) {
        self.vertex_buffer(ArrayRef::Bound, binding_index, buffer, offset, stride);
    }

    pub(crate) fn vertex_buffer(
        &mut self,
        r: ArrayRef,
        binding_index: GLuint,
        buffer: GLuint,
        offset: GLintptr,
        stride: GLsizei,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let vao = match self.local.array(r) {
            Ok(v) => v,
            Err(e) => return self.local.set_error(e),
        };
        if binding_index as usize >= MAX_VERTEX_ATTRIB_BINDINGS
            || offset < 0
            || !(0..=limits::MAX_VERTEX_ATTRIB_STRIDE).contains(&stride)
        {
            return self.local.set_error(INVALID_VALUE);
        }
        let e = match self.buffer_object(&mut sh, buffer) {
            Ok(e) => e,
            Err(err) => return self.local.set_error(err),
        };
        let handle = e.and_then(|b| sh.world.get::<Buffer>(b)).map(|b| b.handle);
        let Shared { world, dev, .. } = &mut *sh;
        let Some(mut v) = world.get_mut::<VertexArray>(vao) else {
            return;
        };
        let (old, touched) = bind_buffer_at(
            &mut v,
            binding_index as usize,
            e,
            handle,
            offset as u64,
            stride as u32,
        );
        touched.apply(&mut v, &mut self.local.dirty);
        lifecycle::replace(world, dev, old, e);
    }

    /// `glVertexBindingDivisor` (GL 4.3).
    pub fn vertex_binding_divisor(&mut self, binding_index: GLuint, divisor: GLuint) {
        self.binding_divisor(ArrayRef::Bound, binding_index, divisor);
    }

    pub(crate) fn binding_divisor(&mut self, r: ArrayRef, binding_index: GLuint, divisor: GLuint) {
        let mut sh = self.group.lock();
        let vao = match self.local.array(r) {
            Ok(v) => v,
            Err(e) => return self.local.set_error(e),
        };
        if binding_index as usize >= MAX_VERTEX_ATTRIB_BINDINGS {
            return self.local.set_error(INVALID_VALUE);
        }
        let Some(mut v) = sh.world.get_mut::<VertexArray>(vao) else {
            return;
        };
        let b = &mut v.bindings[binding_index as usize];
        if b.divisor != divisor {
            b.divisor = divisor;
            Touched {
                layout: true,
                buffers: false,
            }
            .apply(&mut v, &mut self.local.dirty);
        }
    }

    /// The indexed `VERTEX_BINDING_*` state of `glGetIntegeri_v`/`glGetInteger64i_v`
    /// (`Err`: the error to raise). Without a bound vertex array the values are GL's
    /// initial ones, as Mesa answers from its default array.
    pub(crate) fn vertex_binding_value(
        &self,
        sh: &Shared,
        target: GLenum,
        index: GLuint,
    ) -> Result<i64, GLenum> {
        let b = self
            .local
            .st
            .vertex_array
            .and_then(|v| sh.world.get::<VertexArray>(v))
            .map(|v| v.bindings)
            .unwrap_or_default();
        let b = b.get(index as usize).ok_or(INVALID_VALUE)?;
        Ok(match target {
            VERTEX_BINDING_BUFFER => crate::get::name_of(sh, b.buffer),
            VERTEX_BINDING_OFFSET => b.offset as i64,
            VERTEX_BINDING_STRIDE => i64::from(b.stride),
            VERTEX_BINDING_DIVISOR => i64::from(b.divisor),
            _ => return Err(INVALID_ENUM),
        })
    }

    fn set_generic(&mut self, index: GLuint, bits: [u32; 4], kind: GenericKind) {
        if index as usize >= MAX_VERTEX_ATTRIBS {
            return self.error(INVALID_VALUE);
        }
        let value = GenericAttrib {
            bits,
            wide: [0; 4],
            kind,
        };
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
        self.set_generic(index, bytemuck::cast([x, y, z, w]), GenericKind::Float);
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
        self.set_generic(index, bytemuck::cast([x, y, z, w]), GenericKind::Int);
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
        self.array_attrib_value(ArrayRef::Bound, index, pname)
    }

    /// An attribute's state (`ArrayRef::Bound`: also its current value) for the attribute
    /// queries, after the index check; `None` after raising the error.
    pub(crate) fn array_attrib_value(
        &mut self,
        r: ArrayRef,
        index: GLuint,
        pname: GLenum,
    ) -> Option<[f64; 4]> {
        if pname == CURRENT_VERTEX_ATTRIB && r == ArrayRef::Bound {
            let g = self.local.st.generic_attribs[index as usize];
            return Some(match g.kind {
                GenericKind::Float => bytemuck::cast::<_, [f32; 4]>(g.bits).map(f64::from),
                GenericKind::Int => bytemuck::cast::<_, [i32; 4]>(g.bits).map(f64::from),
                GenericKind::Uint => g.bits.map(f64::from),
                GenericKind::Double => double_value(&g),
            });
        }
        let sh = self.group.lock();
        let vao = match self.local.array(r) {
            Ok(vao) => vao,
            Err(err) => {
                drop(sh);
                self.error(err);
                return None;
            }
        };
        let v = sh.world.get::<VertexArray>(vao)?;
        let a = v.attribs[index as usize];
        let b = v.bindings[usize::from(a.binding)];
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
            VERTEX_ATTRIB_ARRAY_LONG => one(f64::from(u8::from(a.long))),
            VERTEX_ATTRIB_ARRAY_DIVISOR => one(f64::from(b.divisor)),
            VERTEX_ATTRIB_ARRAY_BUFFER_BINDING => one(f64::from(name_of(b.buffer))),
            VERTEX_ATTRIB_BINDING => one(f64::from(a.binding)),
            VERTEX_ATTRIB_RELATIVE_OFFSET => one(f64::from(a.relative_offset)),
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
            for (o, v) in params.iter_mut().zip(bytemuck::cast::<_, [i32; 4]>(g.bits)) {
                *o = v;
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

/// The four doubles of a `glVertexAttribL*` value.
fn double_value(g: &GenericAttrib) -> [f64; 4] {
    let [x, y]: [f64; 2] = bytemuck::cast(g.bits);
    let [z, w]: [f64; 2] = bytemuck::cast(g.wide);
    [x, y, z, w]
}

impl Context {
    /// `glVertexAttribL4d` (GL 4.1's `ARB_vertex_attrib_64bit`; the other forms fill
    /// missing components with 0, 0, 1): the generic value of a double input.
    pub fn vertex_attrib_l4d(
        &mut self,
        index: GLuint,
        x: GLdouble,
        y: GLdouble,
        z: GLdouble,
        w: GLdouble,
    ) {
        if index as usize >= MAX_VERTEX_ATTRIBS {
            return self.error(INVALID_VALUE);
        }
        let value = GenericAttrib {
            bits: bytemuck::cast([x, y]),
            wide: bytemuck::cast([z, w]),
            kind: GenericKind::Double,
        };
        if self.local.st.generic_attribs[index as usize] != value {
            self.local.st.generic_attribs[index as usize] = value;
            self.local.dirty |= Dirty::GENERIC_ATTRIBS;
        }
    }

    /// `glVertexAttribL1d`.
    pub fn vertex_attrib_l1d(&mut self, index: GLuint, x: GLdouble) {
        self.vertex_attrib_l4d(index, x, 0.0, 0.0, 1.0);
    }

    /// `glVertexAttribL2d`.
    pub fn vertex_attrib_l2d(&mut self, index: GLuint, x: GLdouble, y: GLdouble) {
        self.vertex_attrib_l4d(index, x, y, 0.0, 1.0);
    }

    /// `glVertexAttribL3d`.
    pub fn vertex_attrib_l3d(&mut self, index: GLuint, x: GLdouble, y: GLdouble, z: GLdouble) {
        self.vertex_attrib_l4d(index, x, y, z, 1.0);
    }

    /// `glGetVertexAttribLdv`: the current value as four doubles (its bits as stored, as
    /// Mesa reads them: a value set by a float or integer call is not converted), or one
    /// value of the array state.
    pub fn get_vertex_attrib_ldv(&mut self, index: GLuint, pname: GLenum, params: &mut [f64]) {
        if pname == CURRENT_VERTEX_ATTRIB && (index as usize) < MAX_VERTEX_ATTRIBS {
            let g = self.local.st.generic_attribs[index as usize];
            for (o, v) in params.iter_mut().zip(double_value(&g)) {
                *o = v;
            }
            return;
        }
        if let (Some(v), Some(out)) = (self.vertex_attrib_value(index, pname), params.first_mut()) {
            *out = v[0];
        }
    }
}

/// GL 3.3's signed normalized conversion for `glVertexAttrib4N*` (table 2.9:
/// `(2c + 1) / (2^b - 1)`, which Mesa applies to these calls in every context version).
fn snorm(c: f64, bits: u32) -> f32 {
    ((2.0 * c + 1.0) / ((1u64 << bits) - 1) as f64) as f32
}

/// Unsigned normalized conversion: `c / (2^b - 1)`.
fn unorm(c: f64, bits: u32) -> f32 {
    (c / ((1u64 << bits) - 1) as f64) as f32
}

/// The remaining `glVertexAttrib*` forms: doubles and shorts convert to float, the `4N`
/// forms normalize, the integer forms fill missing components with 0, 0, 1, and the packed
/// forms unpack `INT_2_10_10_10_REV` / `UNSIGNED_INT_2_10_10_10_REV`.
impl Context {
    /// `glVertexAttrib1d`.
    pub fn vertex_attrib_1d(&mut self, index: GLuint, x: GLdouble) {
        self.vertex_attrib_4f(index, x as f32, 0.0, 0.0, 1.0);
    }

    /// `glVertexAttrib2d`.
    pub fn vertex_attrib_2d(&mut self, index: GLuint, x: GLdouble, y: GLdouble) {
        self.vertex_attrib_4f(index, x as f32, y as f32, 0.0, 1.0);
    }

    /// `glVertexAttrib3d`.
    pub fn vertex_attrib_3d(&mut self, index: GLuint, x: GLdouble, y: GLdouble, z: GLdouble) {
        self.vertex_attrib_4f(index, x as f32, y as f32, z as f32, 1.0);
    }

    /// `glVertexAttrib4d`.
    pub fn vertex_attrib_4d(
        &mut self,
        index: GLuint,
        x: GLdouble,
        y: GLdouble,
        z: GLdouble,
        w: GLdouble,
    ) {
        self.vertex_attrib_4f(index, x as f32, y as f32, z as f32, w as f32);
    }

    /// `glVertexAttrib1s`.
    pub fn vertex_attrib_1s(&mut self, index: GLuint, x: i16) {
        self.vertex_attrib_4f(index, f32::from(x), 0.0, 0.0, 1.0);
    }

    /// `glVertexAttrib2s`.
    pub fn vertex_attrib_2s(&mut self, index: GLuint, x: i16, y: i16) {
        self.vertex_attrib_4f(index, f32::from(x), f32::from(y), 0.0, 1.0);
    }

    /// `glVertexAttrib3s`.
    pub fn vertex_attrib_3s(&mut self, index: GLuint, x: i16, y: i16, z: i16) {
        self.vertex_attrib_4f(index, f32::from(x), f32::from(y), f32::from(z), 1.0);
    }

    /// `glVertexAttrib4s`.
    pub fn vertex_attrib_4s(&mut self, index: GLuint, x: i16, y: i16, z: i16, w: i16) {
        self.vertex_attrib_4f(
            index,
            f32::from(x),
            f32::from(y),
            f32::from(z),
            f32::from(w),
        );
    }

    /// `glVertexAttrib4{b,s,i,ub,us,ui}v`: four integers converted to float as they are.
    pub fn vertex_attrib_4v<T: Copy + Into<f64>>(&mut self, index: GLuint, v: &[T; 4]) {
        let f = |c: T| c.into() as f32;
        self.vertex_attrib_4f(index, f(v[0]), f(v[1]), f(v[2]), f(v[3]));
    }

    /// `glVertexAttrib4N{b,s,i}v`: signed integers of `bits` bits, normalized.
    pub fn vertex_attrib_4n_signed<T: Copy + Into<f64>>(&mut self, index: GLuint, v: &[T; 4]) {
        let bits = 8 * size_of::<T>() as u32;
        let f = |c: T| snorm(c.into(), bits);
        self.vertex_attrib_4f(index, f(v[0]), f(v[1]), f(v[2]), f(v[3]));
    }

    /// `glVertexAttrib4N{ub,us,ui}v`: unsigned integers, normalized.
    pub fn vertex_attrib_4n_unsigned<T: Copy + Into<f64>>(&mut self, index: GLuint, v: &[T; 4]) {
        let bits = 8 * size_of::<T>() as u32;
        let f = |c: T| unorm(c.into(), bits);
        self.vertex_attrib_4f(index, f(v[0]), f(v[1]), f(v[2]), f(v[3]));
    }

    /// `glVertexAttribI1i`.
    pub fn vertex_attrib_i1i(&mut self, index: GLuint, x: GLint) {
        self.vertex_attrib_i4i(index, x, 0, 0, 1);
    }

    /// `glVertexAttribI2i`.
    pub fn vertex_attrib_i2i(&mut self, index: GLuint, x: GLint, y: GLint) {
        self.vertex_attrib_i4i(index, x, y, 0, 1);
    }

    /// `glVertexAttribI3i`.
    pub fn vertex_attrib_i3i(&mut self, index: GLuint, x: GLint, y: GLint, z: GLint) {
        self.vertex_attrib_i4i(index, x, y, z, 1);
    }

    /// `glVertexAttribI1ui`.
    pub fn vertex_attrib_i1ui(&mut self, index: GLuint, x: GLuint) {
        self.vertex_attrib_i4ui(index, x, 0, 0, 1);
    }

    /// `glVertexAttribI2ui`.
    pub fn vertex_attrib_i2ui(&mut self, index: GLuint, x: GLuint, y: GLuint) {
        self.vertex_attrib_i4ui(index, x, y, 0, 1);
    }

    /// `glVertexAttribI3ui`.
    pub fn vertex_attrib_i3ui(&mut self, index: GLuint, x: GLuint, y: GLuint, z: GLuint) {
        self.vertex_attrib_i4ui(index, x, y, z, 1);
    }

    /// `glVertexAttribI4{b,s}v`: signed integers widened.
    pub fn vertex_attrib_i4v_signed<T: Copy + Into<i32>>(&mut self, index: GLuint, v: &[T; 4]) {
        let i = |c: T| c.into();
        self.vertex_attrib_i4i(index, i(v[0]), i(v[1]), i(v[2]), i(v[3]));
    }

    /// `glVertexAttribI4{ub,us}v`: unsigned integers widened.
    pub fn vertex_attrib_i4v_unsigned<T: Copy + Into<u32>>(&mut self, index: GLuint, v: &[T; 4]) {
        let u = |c: T| c.into();
        self.vertex_attrib_i4ui(index, u(v[0]), u(v[1]), u(v[2]), u(v[3]));
    }

    /// `glVertexAttribP{1,2,3,4}ui`: `size` components of a packed 2_10_10_10 value, or of
    /// a 10F_11F_11F one where the backend has packed-float arrays (GL 4.4).
    /// `INVALID_ENUM` for any other type; signed
    /// normalization uses `max(c / (2^(b-1) - 1), -1)`, as Mesa and every GLES 3 driver
    /// convert packed vertex data.
    fn vertex_attrib_p(
        &mut self,
        index: GLuint,
        ty: GLenum,
        normalized: GLboolean,
        size: usize,
        value: GLuint,
    ) {
        let signed = match ty {
            INT_2_10_10_10_REV => true,
            UNSIGNED_INT_2_10_10_10_REV => false,
            // GL 4.4's packed floats (normalization does not apply), as Mesa takes them
            // from glVertexAttribP{1,2,3}ui (P4ui refuses them): the components past `size`
            // are (0, 0, 1).
            UNSIGNED_INT_10F_11F_11F_REV if self.local.limits.vertex_10f_11f_11f && size < 4 => {
                let [r, g, b] = tessera_wire::pixel::unpack_10f_11f_11f(value);
                let mut v = [r, g, b, 1.0];
                for (i, c) in v.iter_mut().enumerate().skip(size) {
                    *c = if i == 3 { 1.0 } else { 0.0 };
                }
                return self.vertex_attrib_4f(index, v[0], v[1], v[2], v[3]);
            }
            _ => return self.error(INVALID_ENUM),
        };
        let field = |shift: u32, bits: u32| -> f32 {
            let raw = (value >> shift) & ((1 << bits) - 1);
            let c = if signed {
                // Sign-extend the field.
                (((raw << (32 - bits)) as i32) >> (32 - bits)) as f64
            } else {
                f64::from(raw)
            };
            match (normalized != 0, signed) {
                (false, _) => c as f32,
                (true, true) => (c / f64::from((1 << (bits - 1)) - 1)).max(-1.0) as f32,
                (true, false) => unorm(c, bits),
            }
        };
        let mut v = [field(0, 10), field(10, 10), field(20, 10), field(30, 2)];
        for (i, c) in v.iter_mut().enumerate().skip(size) {
            *c = if i == 3 { 1.0 } else { 0.0 };
        }
        self.vertex_attrib_4f(index, v[0], v[1], v[2], v[3]);
    }

    /// `glVertexAttribP1ui`.
    pub fn vertex_attrib_p1ui(
        &mut self,
        index: GLuint,
        ty: GLenum,
        normalized: GLboolean,
        value: GLuint,
    ) {
        self.vertex_attrib_p(index, ty, normalized, 1, value);
    }

    /// `glVertexAttribP2ui`.
    pub fn vertex_attrib_p2ui(
        &mut self,
        index: GLuint,
        ty: GLenum,
        normalized: GLboolean,
        value: GLuint,
    ) {
        self.vertex_attrib_p(index, ty, normalized, 2, value);
    }

    /// `glVertexAttribP3ui`.
    pub fn vertex_attrib_p3ui(
        &mut self,
        index: GLuint,
        ty: GLenum,
        normalized: GLboolean,
        value: GLuint,
    ) {
        self.vertex_attrib_p(index, ty, normalized, 3, value);
    }

    /// `glVertexAttribP4ui`.
    pub fn vertex_attrib_p4ui(
        &mut self,
        index: GLuint,
        ty: GLenum,
        normalized: GLboolean,
        value: GLuint,
    ) {
        self.vertex_attrib_p(index, ty, normalized, 4, value);
    }

    /// `glGetVertexAttribdv`: the float state as doubles (current values exactly as stored).
    pub fn get_vertex_attribdv(&mut self, index: GLuint, pname: GLenum, params: &mut [GLdouble]) {
        if let Some(v) = self.vertex_attrib_value(index, pname) {
            let n = if pname == CURRENT_VERTEX_ATTRIB { 4 } else { 1 };
            for (o, x) in params.iter_mut().zip(v).take(n) {
                *o = x;
            }
        }
    }
}

//! # Contexts on the backend side
//!
//! One session carries every Tessera context of a client. `CreateContext` makes one,
//! `SetContext` chooses the one that later `Bind*`/`Set*` records and verbs apply to, and
//! `DestroyContext` ends it. A backend keeps them in [`Contexts`]: the current context is
//! held apart from the others, so a record reaches it without a lookup, and switching is a
//! move between the two. The rules are the same for every backend: creating an existing id,
//! or naming one that does not exist, is a [`SessionError`]; a state record or verb with no
//! current context is one too. Context 0 is current from the start (the engine assumes it
//! before any `SetContext`), so `CreateContext { context: 0 }` makes it current at once.
//!
//! What a context's state records set, each backend keeps in a [`DesiredState`]: the
//! values exactly as the records carry them, from GL's initial state on. Backends differ in
//! how they bring native state to it at a verb (and in how they keep CSO bindings), not in
//! what it is.

use crate::SessionError;
use crate::backend::bad_value;
use crate::format::IndexType;
use crate::handle::{BufferHandle, ProgramHandle, SamplerHandle, TextureHandle};
use crate::record::{DRAW_BUFFER_NONE, FramebufferRef, ImageBinding};
use crate::state::{
    MAX_DRAW_BUFFERS, MAX_IMAGE_SLOTS, MAX_STORAGE_BUFFER_BINDINGS, MAX_TEXTURE_UNITS,
    MAX_UNIFORM_BUFFER_BINDINGS, MAX_VERTEX_ATTRIBS, MAX_VIEWPORTS, Rect,
};

/// The contexts of a session, each with a backend's state `C`; one of them is current.
pub struct Contexts<C> {
    /// Id of the current context (0 until `SetContext`).
    current_id: u32,
    /// The current context's state, once created.
    current: Option<Box<C>>,
    /// Every other context. Keyed by ids the client chooses, so hashed with a per-map random
    /// `ahash` key (seeded from the OS at run time): a fixed hash would let a hostile client
    /// pick colliding ids.
    others: ahash::HashMap<u32, Box<C>>,
}

impl<C> Default for Contexts<C> {
    fn default() -> Self {
        Self {
            current_id: 0,
            current: None,
            others: ahash::HashMap::with_hasher(ahash::RandomState::new()),
        }
    }
}

impl<C> Contexts<C> {
    /// No contexts; context 0 is current once created.
    pub fn new() -> Self {
        Self::default()
    }

    fn exists(&self, id: u32) -> bool {
        (id == self.current_id && self.current.is_some()) || self.others.contains_key(&id)
    }

    /// `CreateContext`: the state `make` builds becomes context `id` (current if `id` is the
    /// current id). `make` runs only for an id that does not exist yet.
    pub fn create(
        &mut self,
        id: u32,
        make: impl FnOnce() -> Result<C, SessionError>,
    ) -> Result<(), SessionError> {
        if self.exists(id) {
            return Err(bad_value(
                "CreateContext",
                format!("context {id} already exists"),
            ));
        }
        let state = Box::new(make()?);
        if id == self.current_id && self.current.is_none() {
            self.current = Some(state);
        } else {
            self.others.insert(id, state);
        }
        Ok(())
    }

    /// `SetContext`: makes context `id` current. Returns its state when that changed which
    /// context is current (native state is then whatever the previous one left), `None` when
    /// it already was.
    pub fn set_current(&mut self, id: u32) -> Result<Option<&mut C>, SessionError> {
        if id == self.current_id && self.current.is_some() {
            return Ok(None);
        }
        let Some(next) = self.others.remove(&id) else {
            return Err(bad_value(
                "SetContext",
                format!("context {id} does not exist"),
            ));
        };
        if let Some(previous) = self.current.take() {
            self.others.insert(self.current_id, previous);
        }
        self.current_id = id;
        Ok(Some(self.current.insert(next)))
    }

    /// `DestroyContext`: takes context `id`'s state out (the current id stays, with no
    /// context, until the next `SetContext`).
    pub fn destroy(&mut self, id: u32) -> Result<C, SessionError> {
        let state = if id == self.current_id && self.current.is_some() {
            self.current.take()
        } else {
            self.others.remove(&id)
        };
        match state {
            Some(state) => Ok(*state),
            None => Err(bad_value(
                "DestroyContext",
                format!("context {id} does not exist"),
            )),
        }
    }

    /// How many contexts exist.
    pub fn len(&self) -> usize {
        usize::from(self.current.is_some()) + self.others.len()
    }

    /// Whether no context exists.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The current context's state, for `record`; `BadValue` if there is none. On every
    /// state record and verb: the error is built out of line.
    #[inline]
    pub fn current(&mut self, record: &'static str) -> Result<&mut C, SessionError> {
        match self.current.as_deref_mut() {
            Some(state) => Ok(state),
            None => Err(no_current_context(record)),
        }
    }
}

#[cold]
fn no_current_context(record: &'static str) -> SessionError {
    bad_value(
        record,
        "no current context (CreateContext/SetContext first)".to_owned(),
    )
}

/// What one context's state records have set, as they carry it: the draw target, dynamic
/// state, program, uniforms and resource bindings. Handles in it may dangle once their
/// object is destroyed (the engine rebinds before a verb could use them).
#[derive(Clone, Debug, PartialEq)]
pub struct DesiredState {
    /// `BindFramebuffer`.
    pub framebuffer: FramebufferRef,
    /// `SetDrawBuffers`: per draw buffer, the colour attachment it writes or
    /// [`DRAW_BUFFER_NONE`].
    pub draw_buffers: [u8; MAX_DRAW_BUFFERS],
    /// `SetViewport`, per viewport index: rectangle (x, y, width, height), near and far
    /// depth.
    pub viewports: [([f32; 4], f32, f32); MAX_VIEWPORTS],
    /// `SetScissor`, per viewport index.
    pub scissors: [Rect; MAX_VIEWPORTS],
    /// `SetBlendColor`.
    pub blend_color: [f32; 4],
    /// `SetStencilRef`: front, back.
    pub stencil_ref: (u8, u8),
    /// `SetDepthBias`: factor, units, clamp.
    pub depth_bias: (f32, f32, f32),
    /// `SetLineWidth`.
    pub line_width: f32,
    /// `SetPointSize` (backends whose programs read it from the default block ignore it).
    pub point_size: f32,
    /// `SetPatchVertices`.
    pub patch_vertices: u8,
    /// What `gl_DrawID` counts from: while [`DrawPipe::multi_draw`]'s default draws a
    /// multi-draw one draw at a time, the index of the draw; else 0.
    ///
    /// [`DrawPipe::multi_draw`]: crate::dispatch::DrawPipe::multi_draw
    pub draw_id: u32,
    /// `SetDrawCount`: the buffer and offset of the `u32` that bounds the commands an
    /// indirect draw draws, or `None` (every command).
    pub draw_count: Option<(BufferHandle, u64)>,
    /// `SetSampleMask`: coverage, invert, mask.
    pub sample_mask: (Option<f32>, bool, Option<u32>),
    /// `BindProgram`.
    pub program: Option<ProgramHandle>,
    /// `SetUniforms`: the bound program's default uniform block (std140 bytes).
    pub uniforms: Vec<u8>,
    /// `BindUniformBuffer`, per slot: buffer, offset, size (0: to the end).
    pub uniform_buffers: [(Option<BufferHandle>, u64, u64); MAX_UNIFORM_BUFFER_BINDINGS],
    /// `BindStorageBuffer`, per slot: buffer, offset, size (0: to the end).
    pub storage_buffers: [(Option<BufferHandle>, u64, u64); MAX_STORAGE_BUFFER_BINDINGS],
    /// `BindImage`, per image slot.
    pub images: [Option<ImageBinding>; MAX_IMAGE_SLOTS],
    /// `BindTexture`, per sampler slot.
    pub textures: [(Option<TextureHandle>, Option<SamplerHandle>); MAX_TEXTURE_UNITS],
    /// `SetVertexBuffer`, per attribute: buffer, offset.
    pub vertex_buffers: [(Option<BufferHandle>, u64); MAX_VERTEX_ATTRIBS],
    /// `SetIndexBuffer`.
    pub index_buffer: Option<BufferHandle>,
    /// `SetGenericAttrib`, per attribute: raw bits of four floats or integers; entries 16
    /// and up hold the last two doubles of a `dvec3` or `dvec4` input at `index - 16`.
    pub generic: [[u32; 4]; 2 * MAX_VERTEX_ATTRIBS],
    /// `SetPrimitiveRestart`: enabled, index, fixed (see [`DesiredState::restart`]).
    pub primitive_restart: (bool, u32, bool),
}

impl DesiredState {
    /// Whether a draw of `ty` indices restarts primitives, and at which index:
    /// `PRIMITIVE_RESTART_FIXED_INDEX` restarts at the type's maximum and takes precedence
    /// over `PRIMITIVE_RESTART`'s index (GL 4.3).
    pub fn restart(&self, ty: IndexType) -> (bool, u32) {
        match self.primitive_restart {
            (_, _, true) => (true, ty.max_index()),
            (enabled, index, false) => (enabled, index),
        }
    }
}

impl Default for DesiredState {
    /// GL's initial state: draw buffer 0 writes attachment 0, depth range `[0, 1]`, line
    /// width and point size 1, generic attributes `(0, 0, 0, 1)`, nothing bound.
    fn default() -> Self {
        let mut draw_buffers = [DRAW_BUFFER_NONE; MAX_DRAW_BUFFERS];
        draw_buffers[0] = 0;
        Self {
            framebuffer: FramebufferRef::None,
            draw_buffers,
            viewports: [([0.0; 4], 0.0, 1.0); MAX_VIEWPORTS],
            scissors: [Rect::default(); MAX_VIEWPORTS],
            blend_color: [0.0; 4],
            stencil_ref: (0, 0),
            depth_bias: (0.0, 0.0, 0.0),
            line_width: 1.0,
            point_size: 1.0,
            patch_vertices: 3,
            draw_id: 0,
            draw_count: None,
            sample_mask: (None, false, None),
            program: None,
            uniforms: Vec::new(),
            uniform_buffers: [(None, 0, 0); MAX_UNIFORM_BUFFER_BINDINGS],
            storage_buffers: [(None, 0, 0); MAX_STORAGE_BUFFER_BINDINGS],
            textures: [(None, None); MAX_TEXTURE_UNITS],
            images: [None; MAX_IMAGE_SLOTS],
            vertex_buffers: [(None, 0); MAX_VERTEX_ATTRIBS],
            index_buffer: None,
            generic: [[0, 0, 0, 1.0f32.to_bits()]; 2 * MAX_VERTEX_ATTRIBS],
            primitive_restart: (false, 0, false),
        }
    }
}

/// Entry `slot` of a per-slot binding array, for `record`; `BadValue` past its end.
pub fn slot_mut<'a, T>(
    record: &'static str,
    slots: &'a mut [T],
    slot: u8,
) -> Result<&'a mut T, SessionError> {
    slots
        .get_mut(usize::from(slot))
        .ok_or_else(|| bad_value(record, format!("slot {slot} out of range")))
}

/// The viewport indices `first..first + count` of a `SetViewport` or `SetScissor`; `BadValue`
/// when empty or past [`MAX_VIEWPORTS`].
pub fn viewport_range(
    record: &'static str,
    first: u8,
    count: u8,
) -> Result<std::ops::Range<usize>, SessionError> {
    let (first, count) = (usize::from(first), usize::from(count));
    if count == 0 || first + count > MAX_VIEWPORTS {
        return Err(bad_value(
            record,
            format!("viewports {first}..{} out of range", first + count),
        ));
    }
    Ok(first..first + count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_such(record: &'static str, id: u32) -> Result<(), SessionError> {
        Err(bad_value(record, format!("context {id} does not exist")))
    }

    #[test]
    fn context_zero_is_current_from_creation() {
        let mut c = Contexts::new();
        assert!(c.current("Draw").is_err());
        c.create(0, || Ok('a')).unwrap();
        assert_eq!(c.current("Draw").copied(), Ok('a'));
        assert_eq!(
            c.create(0, || Ok('b')),
            Err(bad_value("CreateContext", "context 0 already exists"))
        );
    }

    #[test]
    fn switching_moves_states_and_reports_changes() {
        let mut c = Contexts::new();
        c.create(0, || Ok(0)).unwrap();
        c.create(7, || Ok(70)).unwrap();
        assert_eq!(c.set_current(0).map(|s| s.copied()), Ok(None));
        assert_eq!(c.set_current(7).map(|s| s.copied()), Ok(Some(70)));
        *c.current("SetViewport").unwrap() += 1;
        assert_eq!(c.set_current(0).map(|s| s.copied()), Ok(Some(0)));
        assert_eq!(c.set_current(3).map(drop), no_such("SetContext", 3));
        assert_eq!(c.destroy(7), Ok(71));
        assert_eq!(c.destroy(7).map(drop), no_such("DestroyContext", 7));
        // Destroying the current context leaves none current.
        assert_eq!(c.destroy(0), Ok(0));
        assert!(c.current("Draw").is_err());
        assert_eq!(c.set_current(0).map(drop), no_such("SetContext", 0));
    }

    #[test]
    fn a_failed_create_makes_nothing() {
        let mut c = Contexts::<u8>::new();
        let fail = || Err(SessionError::Backend("no VAO".into()));
        assert!(c.create(0, fail).is_err());
        assert!(c.current("Draw").is_err());
        c.create(0, || Ok(1)).unwrap();
    }

    #[test]
    fn slots_are_bounded() {
        let mut s = DesiredState::default();
        *slot_mut("BindTexture", &mut s.textures, 47).unwrap() = (None, None);
        assert_eq!(
            slot_mut("BindTexture", &mut s.textures, 48).map(drop),
            Err(bad_value("BindTexture", "slot 48 out of range"))
        );
        assert_eq!(s.draw_buffers[..2], [0, DRAW_BUFFER_NONE]);
    }
}

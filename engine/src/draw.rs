//! Draws and clears: the verbs that run the validation systems.
//!
//! A draw checks its arguments, then the cached draw-time error (recomputed only after
//! something it depends on changed: `Dirty::DRAW_CHECK`), runs the systems of the dirty
//! groups and appends one record. In the steady state — nothing changed since the last draw —
//! that is a mask test and a record push.

use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::{Buffer, Life, Program, Refs, VertexArray};
use tessera_components::state::cap;
use tessera_systems::conv::{map_index_type, map_topology};
use tessera_systems::lifecycle;
use tessera_wire::format::{FormatClass, IndexType, Topology};
use tessera_wire::record::{
    ClearValue, MULTI_DRAW_INDEXED_SIZE, MULTI_DRAW_SIZE, Record, Span, clear_mask,
};

use crate::context::{Context, Local};
use crate::share::Shared;

/// The smallest storage of a context's client-index buffer.
const CLIENT_INDICES_MIN: u64 = 4096;

/// Where an indexed draw entry point was told its indices are.
#[derive(Clone, Copy)]
enum Indices<'a> {
    /// A byte offset into the element array buffer (`indices: usize` of the Rust API).
    Offset(usize),
    /// The C ABI's `const void *indices`, `at`: an offset when an element array buffer is
    /// bound, else the address of the indices in client memory, which Mesa reads in core
    /// contexts too; `read(draw, len)` gives the `len` bytes there for the `draw`th draw
    /// of the call (`Context::draw_elements_from_pointer`).
    Pointer {
        at: usize,
        draw: usize,
        read: &'a dyn Fn(usize, usize) -> &'a [u8],
    },
}

/// The bytes of one index of `ty`.
fn index_size(ty: IndexType) -> usize {
    match ty {
        IndexType::U8 => 1,
        IndexType::U16 => 2,
        IndexType::U32 => 4,
    }
}

/// An indexed draw's index source.
#[derive(Clone, Copy)]
struct Indexed {
    ty: IndexType,
    offset: u64,
    base_vertex: i32,
}

/// [`Local::vertex_source_error`]'s look at the buffers vertex array `vao` reads.
#[cold]
fn mapped_source_error(sh: &Shared, vao: Entity) -> GLenum {
    let Some(vao) = sh.world.get::<VertexArray>(vao) else {
        return INVALID_OPERATION;
    };
    let mapped = |e: Option<Entity>| {
        e.and_then(|e| sh.world.get::<Buffer>(e))
            .is_some_and(|b| b.mapped_exclusively())
    };
    let attrib_mapped = vao
        .attribs
        .iter()
        .any(|a| a.enabled && mapped(vao.bindings[usize::from(a.binding)].buffer));
    if attrib_mapped || mapped(vao.element_buffer) {
        return INVALID_OPERATION;
    }
    NO_ERROR
}

impl Local {
    /// The error a draw would raise with the current state (`NO_ERROR` if none): what the
    /// framebuffer and the program decide is cached until `Dirty::DRAW_CHECK`; the vertex
    /// array's part is checked at each draw ([`Local::vertex_source_error`]), so binding
    /// vertex arrays and buffers, and mapping buffers, invalidate nothing.
    #[inline]
    pub(crate) fn draw_state_error(&mut self, sh: &Shared) -> GLenum {
        if self.dirty.contains(Dirty::DRAW_CHECK) {
            self.draw_error = self.compute_draw_error(sh);
            let linked = self
                .st
                .executable()
                .and_then(|p| sh.world.get::<Program>(p))
                .and_then(|p| p.linked_state.as_ref());
            self.draw_gs_input = linked.and_then(|l| l.geometry).map(|g| g.input_type);
            self.draw_tess = linked.and_then(|l| {
                let out = crate::tessellation::tess_output(l)?;
                Some(l.geometry.is_none_or(|g| g.input_type == out))
            });
            self.draw_default_control =
                linked.is_some_and(|l| l.tess_gen.is_some() && l.tess_control_vertices.is_none());
            self.draw_writes_storage = linked
                .is_some_and(|l| !l.storage_blocks.is_empty() || !l.atomic_buffers.is_empty());
            self.dirty.remove(Dirty::DRAW_CHECK);
        }
        if self.draw_error != NO_ERROR {
            return self.draw_error;
        }
        self.vertex_source_error(sh)
    }

    /// `INVALID_OPERATION` without a vertex array, or when an enabled attribute or the
    /// indices come from a buffer mapped without `MAP_PERSISTENT_BIT` (looked for only while
    /// some buffer of the share group is mapped so, in any context: a persistent map, which
    /// an emulator's stream buffer keeps for its whole life, costs its draws nothing).
    #[inline]
    fn vertex_source_error(&self, sh: &Shared) -> GLenum {
        let Some(vao) = self.st.vertex_array else {
            return INVALID_OPERATION;
        };
        // Drawing from a mapped buffer only breaks GL's rule (the records carry the
        // client's copy either way): a no-error context skips the check.
        if sh.exclusive_maps() == 0 || !self.checks_errors() {
            return NO_ERROR;
        }
        mapped_source_error(sh, vao)
    }

    /// `INVALID_OPERATION` unless the current geometry shader (if any) takes the
    /// primitives `mode` draws (GL 3.3 core §2.12.1), or, where the program has
    /// tessellation stages, unless they suit `mode` (`Local::tess_mode_fits`).
    #[inline]
    pub(crate) fn check_geometry_input(&mut self, mode: GLenum) -> bool {
        let fits = match self.draw_gs_input {
            _ if self.draw_tess.is_some() || mode == PATCHES => self.tess_mode_fits(mode),
            None => true,
            Some(POINTS) => mode == POINTS,
            Some(LINES) => matches!(mode, LINES | LINE_STRIP | LINE_LOOP),
            Some(LINES_ADJACENCY) => matches!(mode, LINES_ADJACENCY | LINE_STRIP_ADJACENCY),
            Some(TRIANGLES) => matches!(mode, TRIANGLES | TRIANGLE_STRIP | TRIANGLE_FAN),
            Some(TRIANGLES_ADJACENCY) => {
                matches!(mode, TRIANGLES_ADJACENCY | TRIANGLE_STRIP_ADJACENCY)
            }
            Some(_) => true,
        };
        if !fits {
            self.set_error(INVALID_OPERATION);
        }
        fits
    }

    /// `INVALID_OPERATION` unless the primitives reaching transform feedback (the
    /// geometry shader's output, else those `mode` draws) are of the kind it captures (GL
    /// 3.3 core §2.17).
    #[cold]
    pub(crate) fn check_xfb_mode(&mut self, sh: &Shared, mode: GLenum) -> bool {
        let gs_output = self
            .st
            .executable()
            .and_then(|p| sh.world.get::<Program>(p))
            .and_then(|p| p.linked_state.as_ref())
            .and_then(|l| {
                l.geometry
                    .map(|g| g.output_type)
                    .or_else(|| crate::tessellation::tess_output(l))
            });
        let kind = match gs_output.unwrap_or(mode) {
            POINTS => POINTS,
            LINES | LINE_STRIP | LINE_LOOP | LINES_ADJACENCY | LINE_STRIP_ADJACENCY => LINES,
            _ => TRIANGLES,
        };
        let fits = self.st.transform_feedback_mode == Some(kind);
        if !fits {
            self.set_error(INVALID_OPERATION);
        }
        fits
    }

    fn compute_draw_error(&self, sh: &Shared) -> GLenum {
        let status = self.draw_framebuffer_status(sh);
        if status != FRAMEBUFFER_COMPLETE {
            return INVALID_FRAMEBUFFER_OPERATION;
        }
        if self.pipeline_error != NO_ERROR {
            return self.pipeline_error;
        }
        // Samplers of different types on one unit (GL 3.3 §2.11.7), as Mesa checks them
        // for a program in use (a pipeline's come with `pipeline_error`).
        let conflict = self
            .st
            .program
            .and_then(|p| sh.world.get::<Program>(p))
            .and_then(|p| p.linked_state.as_ref())
            .and_then(crate::program::sampler_conflict);
        if conflict.is_some() {
            return INVALID_OPERATION;
        }
        NO_ERROR
    }

    /// Validates the state and emits one draw record (shared by every draw entry point).
    #[inline]
    #[expect(
        clippy::too_many_arguments,
        reason = "the union of the draw records' fields"
    )]
    fn emit_draw(
        &mut self,
        sh: &mut Shared,
        topology: Topology,
        first: u32,
        count: u32,
        instances: u32,
        base_instance: u32,
        indexed: Option<Indexed>,
    ) {
        if self.st.executable().is_none() || count == 0 || instances == 0 {
            // No program draws nothing (and is no error in a core context, as in Mesa).
            return;
        }
        self.prepare_draw(sh);
        if instances == 1 && base_instance == 0 && merge_draw(sh, topology, first, count, indexed) {
            sh.dev.counters.draws += 1;
            self.stats.draws += 1;
            sh.flush_if_full();
            return;
        }
        let record = match indexed {
            None => Record::Draw {
                topology,
                first,
                count,
                instances,
                base_instance,
            },
            Some(i) => Record::DrawIndexed {
                topology,
                index_type: i.ty,
                offset: i.offset,
                count,
                instances,
                base_vertex: i.base_vertex,
                base_instance,
            },
        };
        self.push_draw(sh, record);
    }

    /// Runs the draw systems and marks what the program may write (every draw verb).
    #[inline]
    pub(crate) fn prepare_draw(&mut self, sh: &mut Shared) {
        sh.dev.use_context(self.id);
        if self.draw_default_control {
            self.default_control(sh);
        }
        self.validate(sh, Dirty::DRAW);
        if self.draw_writes_storage {
            crate::compute::storage_ranges_stale(&self.st, sh);
        }
    }

    /// Appends a draw record and counts it.
    #[inline]
    pub(crate) fn push_draw(&mut self, sh: &mut Shared, record: Record) {
        sh.dev.push(record);
        sh.dev.counters.draws += 1;
        self.stats.draws += 1;
        sh.flush_if_full();
    }

    /// Checks a non-indexed draw's arguments and state; `None` after raising the error.
    #[inline]
    pub(crate) fn check_draw(
        &mut self,
        sh: &Shared,
        mode: GLenum,
        count: GLsizei,
        instances: GLsizei,
    ) -> Option<Topology> {
        if count < 0 || instances < 0 {
            self.set_error(INVALID_VALUE);
            return None;
        }
        let Some(topology) = map_topology(mode) else {
            self.set_error(INVALID_ENUM);
            return None;
        };
        let error = self.draw_state_error(sh);
        if error != NO_ERROR {
            self.set_error(error);
            return None;
        }
        if !self.check_geometry_input(mode) {
            return None;
        }
        if self.st.transform_feedback_mode.is_some()
            && !self.xfb.paused
            && self.checks_errors()
            && !self.check_xfb_mode(sh, mode)
        {
            return None;
        }
        Some(topology)
    }

    /// Checks an indexed draw's arguments and state.
    #[inline]
    fn check_draw_indexed(
        &mut self,
        sh: &Shared,
        mode: GLenum,
        count: GLsizei,
        ty: GLenum,
        instances: GLsizei,
    ) -> Option<(Topology, IndexType)> {
        if count < 0 || instances < 0 {
            self.set_error(INVALID_VALUE);
            return None;
        }
        let Some(topology) = map_topology(mode) else {
            self.set_error(INVALID_ENUM);
            return None;
        };
        let Some(index_type) = map_index_type(ty) else {
            self.set_error(INVALID_ENUM);
            return None;
        };
        let error = self.draw_state_error(sh);
        if error != NO_ERROR {
            self.set_error(error);
            return None;
        }
        if !self.check_geometry_input(mode) {
            return None;
        }
        if self.st.transform_feedback_mode.is_some()
            && !self.xfb.paused
            && self.checks_errors()
            && !self.check_xfb_mode(sh, mode)
        {
            return None;
        }
        Some((topology, index_type))
    }

    /// Where an indexed draw of `count` indices of `ty` reads them: the byte offset into the
    /// bound vertex array's element array buffer, or, with none bound, the offset at which
    /// indices given in client memory were copied into the context's client-index buffer,
    /// which the vertex array then uses until [`Local::end_client_indices`]. `None` after
    /// raising `INVALID_OPERATION`: no buffer and no client memory (the safe API's offsets,
    /// or a null pointer, which Mesa reads and crashes on).
    fn index_offset(
        &mut self,
        sh: &mut Shared,
        indices: Indices<'_>,
        ty: IndexType,
        count: u32,
    ) -> Option<(u64, bool)> {
        let vao = self.st.vertex_array?;
        let has_buffer = sh
            .world
            .get::<VertexArray>(vao)
            .is_some_and(|v| v.element_buffer.is_some());
        match indices {
            Indices::Offset(at) | Indices::Pointer { at, .. } if has_buffer => {
                Some((at as u64, false))
            }
            Indices::Pointer { at, draw, read } if at != 0 => {
                let bytes = read(draw, count as usize * index_size(ty));
                Some((self.begin_client_indices(sh, vao, bytes), true))
            }
            _ => {
                self.set_error(INVALID_OPERATION);
                None
            }
        }
    }

    /// Copies `bytes` into the context's client-index buffer (created on first use, grown
    /// by doubling) after what the previous client draws of the batch read, and makes it
    /// the element array buffer of `vao` for the draw; returns the offset of the copy.
    #[cold]
    fn begin_client_indices(&mut self, sh: &mut Shared, vao: Entity, bytes: &[u8]) -> u64 {
        sh.dev.use_context(self.id);
        let e = match self.client_indices {
            Some(e) => e,
            None => {
                let handle = sh.dev.alloc.mint();
                sh.dev.push(Record::CreateBuffer {
                    buffer: handle,
                    size: 0,
                });
                let mut buffer = Buffer::new(handle);
                buffer.usage = STREAM_DRAW;
                buffer.shadow = None;
                // Held by the context (released with it), never by a name.
                let life = Life {
                    refs: Refs::new(1),
                    ..Life::named(0)
                };
                let e = sh.world.spawn((life, buffer)).id();
                self.client_indices = Some(e);
                e
            }
        };
        let len = bytes.len() as u64;
        let Some(mut b) = sh.world.get_mut::<Buffer>(e) else {
            return 0;
        };
        let handle = b.handle;
        let mut at = self.client_indices_cursor;
        if len > b.size as u64 {
            let size = len.next_power_of_two().max(CLIENT_INDICES_MIN);
            b.size = size as i64;
            b.generation += 1;
            sh.dev.push(Record::CreateBuffer {
                buffer: handle,
                size,
            });
            at = 0;
        } else if at + len > b.size as u64 {
            at = 0;
        }
        self.client_indices_cursor = (at + len).next_multiple_of(4);
        let span = sh.dev.enc.stage(bytes);
        sh.dev.push(Record::WriteBuffer {
            buffer: handle,
            offset: at,
            data: span,
        });
        if let Some(mut v) = sh.world.get_mut::<VertexArray>(vao) {
            v.element_buffer = Some(e);
            v.element_buffer_handle = Some(handle);
        }
        lifecycle::retain(&mut sh.world, e);
        self.dirty |= Dirty::INDEX_BUFFER;
        at
    }

    /// Gives the bound vertex array back its missing element array buffer after a draw from
    /// client memory.
    #[cold]
    fn end_client_indices(&mut self, sh: &mut Shared) {
        let (Some(vao), Some(e)) = (self.st.vertex_array, self.client_indices) else {
            return;
        };
        if let Some(mut v) = sh.world.get_mut::<VertexArray>(vao)
            && v.element_buffer == Some(e)
        {
            v.element_buffer = None;
            v.element_buffer_handle = None;
            let Shared { world, dev, .. } = sh;
            lifecycle::release(world, dev, e);
        }
        self.dirty |= Dirty::INDEX_BUFFER;
    }

    /// `glMultiDrawArrays` of two draws or more: the arguments and state checked once for
    /// the call (they are the same for every draw), then one `MultiDraw` record. A draw of
    /// no vertices (or a negative first, which draws nothing as in `glDrawArrays`) keeps
    /// its place, so that every draw's `gl_DrawID` is its index in the call; those after
    /// the last that draws are left out.
    fn multi_draw_arrays(
        &mut self,
        sh: &mut Shared,
        mode: GLenum,
        first: &[GLint],
        count: &[GLsizei],
    ) {
        puffin::profile_scope!("multi_draw_arrays");
        self.resolve_pipeline(sh);
        let Some(topology) = self.check_draw(sh, mode, 0, 1) else {
            return;
        };
        let drawn = |i: usize| if first[i] < 0 { 0 } else { count[i] as u32 };
        let Some(last) = (0..count.len()).rev().find(|&i| drawn(i) != 0) else {
            return;
        };
        if self.st.executable().is_none() {
            return;
        }
        self.prepare_draw(sh);
        let span = sh.dev.enc.stage_with((last + 1) * MULTI_DRAW_SIZE, |out| {
            for (i, d) in out.chunks_exact_mut(MULTI_DRAW_SIZE).enumerate() {
                d[..4].copy_from_slice(&(first[i].max(0) as u32).to_le_bytes());
                d[4..].copy_from_slice(&drawn(i).to_le_bytes());
            }
        });
        let draws = (0..=last).filter(|&i| drawn(i) != 0).count() as u64;
        self.push_multi_draw(
            sh,
            Record::MultiDraw {
                topology,
                draws: span,
                same_draw_id: false,
            },
            draws,
        );
    }

    /// `glMultiDrawElements(BaseVertex)` of two draws or more, as [`Local::multi_draw_arrays`]:
    /// one `MultiDrawIndexed` record. Indices in client memory (no element array buffer
    /// bound) are copied for every draw at once, each draw's at a 4-byte boundary.
    fn multi_draw_elements<'a>(
        &mut self,
        sh: &mut Shared,
        mode: GLenum,
        count: &[GLsizei],
        ty: GLenum,
        indices: impl Fn(usize) -> Indices<'a>,
        base_vertex: Option<&[GLint]>,
    ) {
        puffin::profile_scope!("multi_draw_elements");
        self.resolve_pipeline(sh);
        let Some((topology, index_type)) = self.check_draw_indexed(sh, mode, 0, ty, 1) else {
            return;
        };
        let Some(vao) = self.st.vertex_array else {
            return;
        };
        let has_buffer = sh
            .world
            .get::<VertexArray>(vao)
            .is_some_and(|v| v.element_buffer.is_some());
        let size = index_size(index_type);
        // Where each draw's indices start: in the element array buffer (the call's own
        // offsets, read again as the draws are staged: nothing allocated), else in `client`,
        // where they are copied (`client_offsets`).
        let mut client_offsets = Vec::new();
        let mut client = Vec::new();
        for (i, &c) in count.iter().enumerate() {
            match indices(i) {
                Indices::Offset(_) | Indices::Pointer { .. } if has_buffer => {}
                Indices::Pointer { at, draw, read } if at != 0 => {
                    client_offsets.push(client.len() as u64);
                    client.extend_from_slice(read(draw, c as usize * size));
                    client.resize(client.len().next_multiple_of(4), 0);
                }
                _ => {
                    self.set_error(INVALID_OPERATION);
                    return;
                }
            }
        }
        let offset = |i: usize| match indices(i) {
            Indices::Offset(at) | Indices::Pointer { at, .. } if has_buffer => at as u64,
            _ => client_offsets[i],
        };
        let Some(last) = count.iter().rposition(|&c| c != 0) else {
            return;
        };
        let base = if has_buffer {
            0
        } else {
            self.begin_client_indices(sh, vao, &client)
        };
        if self.st.executable().is_some() {
            self.prepare_draw(sh);
            let span = sh
                .dev
                .enc
                .stage_with((last + 1) * MULTI_DRAW_INDEXED_SIZE, |out| {
                    for (i, d) in out.chunks_exact_mut(MULTI_DRAW_INDEXED_SIZE).enumerate() {
                        let bv = base_vertex.map_or(0, |b| b[i]);
                        d[..8].copy_from_slice(&(base + offset(i)).to_le_bytes());
                        d[8..12].copy_from_slice(&(count[i] as u32).to_le_bytes());
                        d[12..].copy_from_slice(&bv.to_le_bytes());
                    }
                });
            let draws = count[..=last].iter().filter(|&&c| c != 0).count() as u64;
            let record = Record::MultiDrawIndexed {
                topology,
                index_type,
                draws: span,
                same_draw_id: false,
            };
            self.push_multi_draw(sh, record, draws);
        }
        if !has_buffer {
            self.end_client_indices(sh);
        }
    }

    /// Appends a multi-draw record of `draws` draws that draw something, and counts them.
    fn push_multi_draw(&mut self, sh: &mut Shared, record: Record, draws: u64) {
        sh.dev.push(record);
        sh.dev.counters.draws += draws;
        self.stats.draws += draws;
        sh.flush_if_full();
    }

    fn draw_arrays_instanced(
        &mut self,
        sh: &mut Shared,
        mode: GLenum,
        first: GLint,
        count: GLsizei,
        instances: GLsizei,
        base_instance: GLuint,
    ) {
        puffin::profile_scope!("draw_arrays");
        self.resolve_pipeline(sh);
        let Some(topology) = self.check_draw(sh, mode, count, instances) else {
            return;
        };
        if first < 0 {
            // Not an error GL 3.3 names (Mesa raises none either); nothing sensible to draw.
            return;
        }
        self.emit_draw(
            sh,
            topology,
            first as u32,
            count as u32,
            instances as u32,
            base_instance,
            None,
        );
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "the union of the glDrawElements* family"
    )]
    fn draw_elements_full(
        &mut self,
        sh: &mut Shared,
        mode: GLenum,
        count: GLsizei,
        ty: GLenum,
        indices: Indices<'_>,
        instances: GLsizei,
        base_vertex: GLint,
        base_instance: GLuint,
    ) {
        puffin::profile_scope!("draw_elements");
        self.resolve_pipeline(sh);
        let Some((topology, index_type)) = self.check_draw_indexed(sh, mode, count, ty, instances)
        else {
            return;
        };
        let Some((offset, client)) = self.index_offset(sh, indices, index_type, count as u32)
        else {
            return;
        };
        let indexed = Indexed {
            ty: index_type,
            offset,
            base_vertex,
        };
        self.emit_draw(
            sh,
            topology,
            0,
            count as u32,
            instances as u32,
            base_instance,
            Some(indexed),
        );
        if client {
            self.end_client_indices(sh);
        }
    }
}

impl Context {
    /// `glDrawArrays`.
    #[inline]
    pub fn draw_arrays(&mut self, mode: GLenum, first: GLint, count: GLsizei) {
        let mut sh = self.group.lock();
        self.local
            .draw_arrays_instanced(&mut sh, mode, first, count, 1, 0);
    }

    /// `glDrawArraysInstanced`.
    pub fn draw_arrays_instanced(
        &mut self,
        mode: GLenum,
        first: GLint,
        count: GLsizei,
        instances: GLsizei,
    ) {
        let mut sh = self.group.lock();
        self.local
            .draw_arrays_instanced(&mut sh, mode, first, count, instances, 0);
    }

    /// `glDrawElements` (`indices` is the byte offset into the element array buffer).
    #[inline]
    pub fn draw_elements(&mut self, mode: GLenum, count: GLsizei, ty: GLenum, indices: usize) {
        let mut sh = self.group.lock();
        self.local
            .draw_elements_full(&mut sh, mode, count, ty, Indices::Offset(indices), 1, 0, 0);
    }

    /// `glDrawElementsInstanced`.
    pub fn draw_elements_instanced(
        &mut self,
        mode: GLenum,
        count: GLsizei,
        ty: GLenum,
        indices: usize,
        instances: GLsizei,
    ) {
        let mut sh = self.group.lock();
        self.local.draw_elements_full(
            &mut sh,
            mode,
            count,
            ty,
            Indices::Offset(indices),
            instances,
            0,
            0,
        );
    }

    /// `glDrawElementsBaseVertex`.
    pub fn draw_elements_base_vertex(
        &mut self,
        mode: GLenum,
        count: GLsizei,
        ty: GLenum,
        indices: usize,
        base_vertex: GLint,
    ) {
        let mut sh = self.group.lock();
        self.local.draw_elements_full(
            &mut sh,
            mode,
            count,
            ty,
            Indices::Offset(indices),
            1,
            base_vertex,
            0,
        );
    }

    /// `glDrawElementsInstancedBaseVertex`.
    pub fn draw_elements_instanced_base_vertex(
        &mut self,
        mode: GLenum,
        count: GLsizei,
        ty: GLenum,
        indices: usize,
        instances: GLsizei,
        base_vertex: GLint,
    ) {
        let mut sh = self.group.lock();
        self.local.draw_elements_full(
            &mut sh,
            mode,
            count,
            ty,
            Indices::Offset(indices),
            instances,
            base_vertex,
            0,
        );
    }

    /// `glDrawRangeElements`.
    pub fn draw_range_elements(
        &mut self,
        mode: GLenum,
        start: GLuint,
        end: GLuint,
        count: GLsizei,
        ty: GLenum,
        indices: usize,
    ) {
        self.draw_range_elements_base_vertex(mode, start, end, count, ty, indices, 0);
    }

    /// `glDrawRangeElementsBaseVertex`.
    #[expect(
        clippy::too_many_arguments,
        reason = "mirrors glDrawRangeElementsBaseVertex"
    )]
    pub fn draw_range_elements_base_vertex(
        &mut self,
        mode: GLenum,
        start: GLuint,
        end: GLuint,
        count: GLsizei,
        ty: GLenum,
        indices: usize,
        base_vertex: GLint,
    ) {
        if end < start {
            return self.error(INVALID_VALUE);
        }
        let mut sh = self.group.lock();
        self.local.draw_elements_full(
            &mut sh,
            mode,
            count,
            ty,
            Indices::Offset(indices),
            1,
            base_vertex,
            0,
        );
    }

    /// `glDrawArraysInstancedBaseInstance` (GL 4.2): instanced attributes start at element
    /// `base_instance`; `gl_InstanceID` does not include it.
    pub fn draw_arrays_instanced_base_instance(
        &mut self,
        mode: GLenum,
        first: GLint,
        count: GLsizei,
        instances: GLsizei,
        base_instance: GLuint,
    ) {
        let mut sh = self.group.lock();
        self.local
            .draw_arrays_instanced(&mut sh, mode, first, count, instances, base_instance);
    }

    /// `glDrawElementsInstancedBaseInstance` (GL 4.2).
    pub fn draw_elements_instanced_base_instance(
        &mut self,
        mode: GLenum,
        count: GLsizei,
        ty: GLenum,
        indices: usize,
        instances: GLsizei,
        base_instance: GLuint,
    ) {
        self.draw_elements_instanced_base_vertex_base_instance(
            mode,
            count,
            ty,
            indices,
            instances,
            0,
            base_instance,
        );
    }

    /// `glDrawElementsInstancedBaseVertexBaseInstance` (GL 4.2).
    #[expect(
        clippy::too_many_arguments,
        reason = "mirrors glDrawElementsInstancedBaseVertexBaseInstance"
    )]
    pub fn draw_elements_instanced_base_vertex_base_instance(
        &mut self,
        mode: GLenum,
        count: GLsizei,
        ty: GLenum,
        indices: usize,
        instances: GLsizei,
        base_vertex: GLint,
        base_instance: GLuint,
    ) {
        let mut sh = self.group.lock();
        self.local.draw_elements_full(
            &mut sh,
            mode,
            count,
            ty,
            Indices::Offset(indices),
            instances,
            base_vertex,
            base_instance,
        );
    }

    /// The `glDrawElements*` family as the C ABI calls it: `call.indices` is a byte offset
    /// into the element array buffer when one is bound, else the address of the indices in
    /// client memory, and `read(len)` gives the `len` bytes there, which are copied for the
    /// draw (core GL has no client-memory indices; Mesa reads them, and programs and piglit
    /// rely on it). A null address with no buffer is `INVALID_OPERATION`, as in
    /// [`Context::draw_elements`].
    pub fn draw_elements_from_pointer<'a>(
        &mut self,
        call: ElementsCall,
        read: &'a dyn Fn(usize) -> &'a [u8],
    ) {
        if let Some((start, end)) = call.range
            && end < start
        {
            return self.error(INVALID_VALUE);
        }
        let mut sh = self.group.lock();
        self.local.draw_elements_full(
            &mut sh,
            call.mode,
            call.count,
            call.ty,
            Indices::Pointer {
                at: call.indices,
                draw: 0,
                read: &|_, len| read(len),
            },
            call.instances,
            call.base_vertex,
            call.base_instance,
        );
    }

    /// `glMultiDrawElements(BaseVertex)` as the C ABI calls it: each of `indices` is an
    /// offset or an address in client memory, as for
    /// [`Context::draw_elements_from_pointer`]; `read(i, len)` gives the `len` bytes at
    /// `indices[i]`.
    #[expect(
        clippy::too_many_arguments,
        reason = "glMultiDrawElementsBaseVertex's own"
    )]
    pub fn multi_draw_elements_from_pointers<'a>(
        &mut self,
        mode: GLenum,
        count: &[GLsizei],
        ty: GLenum,
        indices: &[usize],
        drawcount: GLsizei,
        base_vertex: Option<&[GLint]>,
        read: &'a dyn Fn(usize, usize) -> &'a [u8],
    ) {
        self.multi_draw_elements_of(
            mode,
            count,
            ty,
            |i| Indices::Pointer {
                at: indices[i],
                draw: i,
                read,
            },
            drawcount,
            base_vertex,
        );
    }

    /// `glMultiDrawArrays`.
    pub fn multi_draw_arrays(
        &mut self,
        mode: GLenum,
        first: &[GLint],
        count: &[GLsizei],
        drawcount: GLsizei,
    ) {
        if drawcount < 0 {
            return self.error(INVALID_VALUE);
        }
        let n = drawcount as usize;
        if count[..n].iter().any(|c| *c < 0) {
            return self.error(INVALID_VALUE);
        }
        let mut sh = self.group.lock();
        match n {
            0 => {}
            1 => self
                .local
                .draw_arrays_instanced(&mut sh, mode, first[0], count[0], 1, 0),
            _ => self
                .local
                .multi_draw_arrays(&mut sh, mode, &first[..n], &count[..n]),
        }
    }

    /// `glMultiDrawElements`.
    pub fn multi_draw_elements(
        &mut self,
        mode: GLenum,
        count: &[GLsizei],
        ty: GLenum,
        indices: &[usize],
        drawcount: GLsizei,
    ) {
        self.multi_draw_elements_base_vertex(mode, count, ty, indices, drawcount, None);
    }

    /// `glMultiDrawElementsBaseVertex` (`base_vertex: None` for all zeros).
    pub fn multi_draw_elements_base_vertex(
        &mut self,
        mode: GLenum,
        count: &[GLsizei],
        ty: GLenum,
        indices: &[usize],
        drawcount: GLsizei,
        base_vertex: Option<&[GLint]>,
    ) {
        self.multi_draw_elements_of(
            mode,
            count,
            ty,
            |i| Indices::Offset(indices[i]),
            drawcount,
            base_vertex,
        );
    }

    fn multi_draw_elements_of<'a>(
        &mut self,
        mode: GLenum,
        count: &[GLsizei],
        ty: GLenum,
        indices: impl Fn(usize) -> Indices<'a>,
        drawcount: GLsizei,
        base_vertex: Option<&[GLint]>,
    ) {
        if drawcount < 0 {
            return self.error(INVALID_VALUE);
        }
        let n = drawcount as usize;
        if count[..n].iter().any(|c| *c < 0) {
            return self.error(INVALID_VALUE);
        }
        let mut sh = self.group.lock();
        match n {
            0 => {}
            1 => {
                let bv = base_vertex.map_or(0, |b| b[0]);
                self.local
                    .draw_elements_full(&mut sh, mode, count[0], ty, indices(0), 1, bv, 0);
            }
            _ => self.local.multi_draw_elements(
                &mut sh,
                mode,
                &count[..n],
                ty,
                indices,
                base_vertex.map(|b| &b[..n]),
            ),
        }
    }

    /// `glClear`.
    pub fn clear(&mut self, mask: GLbitfield) {
        puffin::profile_scope!("clear");
        if mask & !(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT | STENCIL_BUFFER_BIT) != 0 {
            return self.error(INVALID_VALUE);
        }
        let mut sh = self.group.lock_for(self.local.id);
        if self.local.draw_framebuffer_status(&sh) != FRAMEBUFFER_COMPLETE {
            return self.local.set_error(INVALID_FRAMEBUFFER_OPERATION);
        }
        if mask == 0 || self.local.st.caps.has(cap::RASTERIZER_DISCARD) {
            return;
        }
        self.local.validate(&mut sh, Dirty::CLEAR);
        let st = &self.local.st;
        let mut bits = 0u16;
        // Integer draw buffers read the clear colour's words as integers: each gets its own
        // ClearBuffer (framebuffer/clear.rs).
        let mut integer = Vec::new();
        if mask & COLOR_BUFFER_BIT != 0 {
            bits |= clear_mask::COLOR_ALL;
            let words = st.clear_color.map(f32::to_bits);
            for (i, class) in self.local.integer_draw_buffers(&sh).iter().enumerate() {
                let value = match class {
                    Some(FormatClass::Int) => ClearValue::Int(words.map(|w| w as i32)),
                    Some(_) => ClearValue::Uint(words),
                    None => continue,
                };
                bits &= !(1 << i);
                integer.push(Record::ClearBuffer {
                    draw_buffer: i as u8,
                    value,
                });
            }
        }
        if mask & DEPTH_BUFFER_BIT != 0 {
            bits |= clear_mask::DEPTH;
        }
        if mask & STENCIL_BUFFER_BIT != 0 {
            bits |= clear_mask::STENCIL;
        }
        if bits != 0 {
            sh.dev.push(Record::Clear {
                mask: bits,
                color: st.clear_color,
                depth: st.clear_depth as f32,
                stencil: (st.clear_stencil & 0xff) as u8,
            });
        }
        for record in integer {
            sh.dev.push(record);
        }
        sh.flush_if_full();
    }
}

/// One call of the `glDrawElements*` family, for [`Context::draw_elements_from_pointer`].
#[derive(Clone, Copy, Debug)]
pub struct ElementsCall {
    /// The primitive mode.
    pub mode: GLenum,
    /// The number of indices.
    pub count: GLsizei,
    /// The index type.
    pub ty: GLenum,
    /// An offset into the element array buffer, or an address in client memory when none
    /// is bound.
    pub indices: usize,
    /// Instances (1 for the non-instanced calls).
    pub instances: GLsizei,
    /// Added to each index.
    pub base_vertex: GLint,
    /// The first instance's index into instanced attributes.
    pub base_instance: GLuint,
    /// `glDrawRangeElements*`' `start` and `end`.
    pub range: Option<(GLuint, GLuint)>,
}

impl ElementsCall {
    /// A `glDrawElements` call: one instance, no base vertex, instance or range.
    pub fn new(mode: GLenum, count: GLsizei, ty: GLenum, indices: usize) -> Self {
        Self {
            mode,
            count,
            ty,
            indices,
            instances: 1,
            base_vertex: 0,
            base_instance: 0,
            range: None,
        }
    }
}

/// Merges a draw of one instance into the batch's last record where that is a draw of one
/// instance of the same kind: no record came between them (but unsynchronized writes, put
/// ahead of the last draw: see `buffer::push_write`), so nothing changed, and the two can be
/// one driver call, as Mesa's threaded dispatch merges them. A `Draw` (or
/// `DrawIndexed`) becomes a `MultiDraw` (`MultiDrawIndexed`) of both whose draws all read
/// `gl_DrawID` 0, and later draws extend it. `false` where the draw must be a record of its
/// own.
fn merge_draw(
    sh: &mut Shared,
    topology: Topology,
    first: u32,
    count: u32,
    indexed: Option<Indexed>,
) -> bool {
    let words = |first: u32, count: u32, i: Option<Indexed>| {
        let mut w = [0u8; MULTI_DRAW_INDEXED_SIZE];
        match i {
            None => {
                w[..4].copy_from_slice(&first.to_le_bytes());
                w[4..8].copy_from_slice(&count.to_le_bytes());
            }
            Some(i) => {
                w[..8].copy_from_slice(&i.offset.to_le_bytes());
                w[8..12].copy_from_slice(&count.to_le_bytes());
                w[12..].copy_from_slice(&i.base_vertex.to_le_bytes());
            }
        }
        w
    };
    let size = if indexed.is_some() {
        MULTI_DRAW_INDEXED_SIZE
    } else {
        MULTI_DRAW_SIZE
    };
    let enc = &mut sh.dev.enc;
    // The previous draw's words, or `None` where it is a chain of draws merged before.
    let previous = match (enc.last_mut(), indexed) {
        (
            Some(Record::Draw {
                topology: t,
                first,
                count,
                instances: 1,
                base_instance: 0,
            }),
            None,
        ) if *t == topology => Some(words(*first, *count, None)),
        (
            Some(Record::DrawIndexed {
                topology: t,
                index_type,
                offset,
                count,
                instances: 1,
                base_vertex,
                base_instance: 0,
            }),
            Some(i),
        ) if *t == topology && *index_type == i.ty => {
            let previous = Indexed {
                ty: i.ty,
                offset: *offset,
                base_vertex: *base_vertex,
            };
            Some(words(0, *count, Some(previous)))
        }
        (
            Some(Record::MultiDraw {
                topology: t,
                same_draw_id: true,
                ..
            }),
            None,
        ) if *t == topology => None,
        (
            Some(Record::MultiDrawIndexed {
                topology: t,
                index_type,
                same_draw_id: true,
                ..
            }),
            Some(i),
        ) if *t == topology && *index_type == i.ty => None,
        _ => return false,
    };
    let new = words(first, count, indexed);
    let Some(previous) = previous else {
        // A chain of merged draws: it grows while it is open, the encoder's last record.
        return enc.extend_open_draws(&new[..size]);
    };
    let mut pair = [0u8; 2 * MULTI_DRAW_INDEXED_SIZE];
    pair[..size].copy_from_slice(&previous[..size]);
    pair[size..2 * size].copy_from_slice(&new[..size]);
    // The span is set when the encoder seals the record.
    let draws = Span { offset: 0, len: 0 };
    let merged = match indexed {
        None => Record::MultiDraw {
            topology,
            draws,
            same_draw_id: true,
        },
        Some(i) => Record::MultiDrawIndexed {
            topology,
            index_type: i.ty,
            draws,
            same_draw_id: true,
        },
    };
    enc.open_draws(merged, &pair[..2 * size]);
    true
}

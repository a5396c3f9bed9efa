//! Buffer objects: names, bindings, storage, uploads, copies, read-backs and mappings.
//!
//! Uploads copy the application's bytes into the stage area at the call (the caller may reuse
//! its memory on return) and emit their record then, ordered with the draws around them.
//! Read-backs (`get_buffer_sub_data`, read maps) are the only calls here that wait.
//!
//! A mapping is client memory owned by the buffer's component; its address is stable until
//! the buffer is unmapped. Write maps upload at unmap (or at each explicit flush), as
//! `WriteBuffer` records ordered with the draws around them.
//!
//! # The client copy, and when a map waits
//!
//! Each buffer keeps a [`BufferShadow`]: the bytes the client sent (`glBufferData`,
//! `glBufferSubData`, unmaps and flushes), the bytes it read back, and the ranges the GPU may
//! have written since (`glCopyBufferSubData`, read-pixels or `glGetTexImage` into a pack
//! buffer, and the ranges bound for transform feedback when it begins), which are stale.
//! Storage over
//! [`SHADOW_MAX`] bytes keeps no copy and is treated as stale everywhere. A range with no
//! stale byte is exactly what the backend holds at this point of the record stream.
//!
//! `glMapBufferRange` reads back (one blocking round trip) only when it needs bytes it does
//! not know:
//!
//! | map | starts from | at unmap / flush |
//! |---|---|---|
//! | `INVALIDATE_RANGE` / `INVALIDATE_BUFFER` | the copy (contents undefined) | the range, or the flushed ranges |
//! | range known (no stale byte), any access | the copy, no round trip | the range, or the flushed ranges |
//! | write-only, `FLUSH_EXPLICIT` | the copy (undefined to read), no round trip | only the flushed ranges change |
//! | write-only, `UNSYNCHRONIZED`, stale bytes | the copy, no round trip | only the bytes the program changed |
//! | read, or synchronized write-only over stale bytes | a read-back of the range | the range, or the flushed ranges |
//!
//! An unsynchronized map never waits. In its one inexact case (write-only, no explicit
//! flushes, over bytes the GPU may have written) unmapping sends only the bytes that differ
//! from what the mapping started with, so stale bytes never land over what the GPU wrote;
//! a byte the program rewrites with the very value the stale copy had keeps the GPU's value,
//! which GL allows: the results of GPU writes pending under an unsynchronized map are
//! undefined. `glGetBufferSubData` always reads back (it is how a program sees what the
//! backend holds), and the copy learns the range.

use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::{Buffer, BufferShadow, Life, MappedBytes, Mapping, VertexArray};
use tessera_components::state::{BufferTarget, IndexedBuffer};
use tessera_systems::lifecycle;
use tessera_wire::Reply;
use tessera_wire::batch::Encoder;
use tessera_wire::handle::BufferHandle;
use tessera_wire::record::{BufferCopy, BufferRange, HeapRange, Record, Span};

use crate::context::{Context, GlResult};
use crate::limits::{ACB_BINDINGS, SSBO_BINDINGS, UBO_BINDINGS, UBO_OFFSET_ALIGNMENT};
use crate::share::Shared;

/// `glMapBufferRange` access bits (GL 4.4's persistent and coherent ones included).
const MAP_ACCESS_BITS: GLbitfield = MAP_READ_BIT
    | MAP_WRITE_BIT
    | MAP_INVALIDATE_RANGE_BIT
    | MAP_INVALIDATE_BUFFER_BIT
    | MAP_FLUSH_EXPLICIT_BIT
    | MAP_UNSYNCHRONIZED_BIT
    | MAP_PERSISTENT_BIT
    | MAP_COHERENT_BIT;

/// `glBufferStorage` flag bits.
const STORAGE_FLAG_BITS: GLbitfield = MAP_READ_BIT
    | MAP_WRITE_BIT
    | MAP_PERSISTENT_BIT
    | MAP_COHERENT_BIT
    | DYNAMIC_STORAGE_BIT
    | CLIENT_STORAGE_BIT;

/// What `glBufferData` storage allows, as Mesa reports it in `BUFFER_STORAGE_FLAGS`.
const DATA_STORAGE_FLAGS: GLbitfield = MAP_READ_BIT | MAP_WRITE_BIT | DYNAMIC_STORAGE_BIT;

/// The granularity at which persistent write mappings are compared with their twin.
const PERSISTENT_PAGE: usize = 4096;

/// How an entry point names its buffer: by binding target (`glBufferData`) or by name
/// (`glNamedBufferData`, GL 4.5's direct state access). Both forms share one body.
#[derive(Clone, Copy, Debug)]
pub(crate) enum BufferRef {
    /// The buffer bound to this target: `INVALID_ENUM` for a bad target,
    /// `INVALID_OPERATION` when nothing is bound.
    Target(GLenum),
    /// The buffer of this name: `INVALID_OPERATION` unless it names a buffer object.
    Name(GLuint),
}

/// The largest storage whose contents the client mirrors ([`BufferShadow`]); larger buffers
/// read back for every map and `glGetBufferSubData`.
pub const SHADOW_MAX: i64 = 256 << 20;

/// The largest client block an unmapped mapping leaves for the context's next one
/// (`Local::map_spare`).
pub(crate) const SPARE_MAX: usize = 64 << 10;

/// Runs of changed bytes closer than this are sent as one write when the bytes between are
/// known (sending known, unchanged bytes is harmless).
const MERGE_GAP: usize = 64;

/// The client copy learns that the client sent (or read back) `data` at `offset` of `e`.
pub(crate) fn shadow_write(sh: &mut Shared, e: Entity, offset: u64, data: &[u8]) {
    if let Some(mut b) = sh.world.get_mut::<Buffer>(e)
        && let Some(s) = b.shadow.as_mut()
    {
        s.write(offset, data);
    }
}

/// The GPU may write `[offset, offset + len)` of `e`: the client copy of it is stale.
pub(crate) fn shadow_stale(sh: &mut Shared, e: Entity, offset: u64, len: u64) {
    if let Some(mut b) = sh.world.get_mut::<Buffer>(e)
        && let Some(s) = b.shadow.as_mut()
    {
        s.mark_stale(offset, len);
    }
}

/// Whether the client copy of `e` knows every byte of `[offset, offset + len)`.
fn shadow_known(sh: &Shared, e: Entity, offset: u64, len: u64) -> bool {
    sh.world
        .get::<Buffer>(e)
        .and_then(|b| b.shadow.as_ref())
        .is_some_and(|s| s.is_known(offset, len))
}

/// The record that writes a mapping's bytes: `WriteBufferUnsynchronized` for a map the
/// program made `MAP_UNSYNCHRONIZED_BIT` (it promised no pending command uses the range,
/// so a backend may write it at once), else `WriteBuffer`, ordered with the draws.
fn write_record(buffer: BufferHandle, offset: u64, data: Span, unsynchronized: bool) -> Record {
    if unsynchronized {
        Record::WriteBufferUnsynchronized {
            buffer,
            offset,
            data,
        }
    } else {
        Record::WriteBuffer {
            buffer,
            offset,
            data,
        }
    }
}

/// Appends a mapping's write of `data` at `offset` of `buffer`. An unsynchronized one goes
/// ahead of the batch's last record where that is a draw: the program promised that no
/// pending command reads or writes those bytes (else the result is undefined), so the draw
/// cannot tell, and the next draw can still merge with it (`draw::merge_draw`). A write
/// that continues the write record it would follow extends that record. So a stream
/// buffer's map, write, unmap and draw per draw becomes one write and one draw per batch.
fn push_write(
    enc: &mut Encoder,
    buffer: BufferHandle,
    offset: u64,
    data: &[u8],
    unsynchronized: bool,
) {
    let behind_draw = unsynchronized
        && matches!(
            enc.last_mut(),
            Some(
                Record::Draw { .. }
                    | Record::DrawIndexed { .. }
                    | Record::MultiDraw { .. }
                    | Record::MultiDrawIndexed { .. }
            )
        );
    if enc.extend_write(behind_draw, buffer, offset, data, unsynchronized) {
        return;
    }
    let span = enc.stage(data);
    let record = write_record(buffer, offset, span, unsynchronized);
    if behind_draw {
        enc.push_before_last(record);
    } else {
        enc.push(record);
    }
}

/// The `[start, end)` runs where `now` differs from `initial`; runs less than
/// [`MERGE_GAP`] apart are merged where `known(start, end)` says the bytes between are known.
fn changed_runs(
    initial: &[u8],
    now: &[u8],
    known: impl Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    const CHUNK: usize = 64;
    let n = now.len().min(initial.len());
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < n {
        let c = (i + CHUNK).min(n);
        if initial[i..c] == now[i..c] {
            i = c;
            continue;
        }
        while initial[i] == now[i] {
            i += 1;
        }
        let start = i;
        while i < n && initial[i] != now[i] {
            i += 1;
        }
        match runs.last_mut() {
            Some(last) if start - last.1 < MERGE_GAP && known(last.1, start) => last.1 = i,
            _ => runs.push((start, i)),
        }
    }
    runs
}

/// Sends what the program wrote through its persistent write mappings since the last batch,
/// as a batch of its own ahead of the records pending in the encoder (called by
/// [`Shared::flush`] while any persistent mapping exists).
///
/// A persistent mapping is client memory that the program writes with no call in between,
/// and the backend reads it when it carries out a batch, as a GPU reads coherent memory when
/// it executes a command. Each mapping without explicit flushes keeps a twin: what the
/// backend holds of the range. At each batch the mapping is compared with its twin page by
/// page ([`PERSISTENT_PAGE`]), and the changed runs of pages go first, so every record of
/// the batch sees every write the program made before the batch left, which is what a
/// well-defined program (one that does not overwrite what pending commands read, and waits
/// on a fence before reusing it) can observe of coherent memory. The comparison costs one
/// pass over the mapped bytes per batch; batches that find nothing changed send nothing.
pub(crate) fn send_persistent_writes(sh: &mut Shared) {
    let mut held = None;
    for i in 0..sh.persistent_maps.len() {
        let e = sh.persistent_maps[i];
        let Shared { world, dev, .. } = &mut *sh;
        let Some(mut b) = world.get_mut::<Buffer>(e) else {
            continue;
        };
        let handle = b.handle;
        let b = &mut *b;
        let (Some(m), mut shadow) = (b.mapping.as_mut(), b.shadow.as_mut()) else {
            continue;
        };
        let Some(twin) = m.initial.as_mut() else {
            continue;
        };
        let at = m.offset as u64;
        let bytes = &m.bytes[..];
        let n = bytes.len().min(twin.len());
        let mut i = 0;
        while i < n {
            let end = (i + PERSISTENT_PAGE).min(n);
            if bytes[i..end] == twin[i..end] {
                i = end;
                continue;
            }
            let start = i;
            i = end;
            while i < n {
                let end = (i + PERSISTENT_PAGE).min(n);
                if bytes[i..end] == twin[i..end] {
                    break;
                }
                i = end;
            }
            if held.is_none() {
                held = Some(dev.enc.set_aside());
            }
            let run = &bytes[start..i];
            let span = dev.enc.stage(run);
            dev.push(Record::WriteBuffer {
                buffer: handle,
                offset: at + start as u64,
                data: span,
            });
            dev.counters.persistent_bytes += run.len() as u64;
            twin[start..i].copy_from_slice(run);
            if let Some(s) = shadow.as_mut() {
                s.write(at + start as u64, run);
            }
        }
    }
    if let Some(held) = held {
        sh.submit();
        sh.dev.enc.put_back(held);
    }
}

/// Brings the persistent read mappings up to date with what the GPU wrote, after a fence
/// signalled or `glFinish` returned (the points after which GL lets a program read the
/// GPU's writes through a coherent mapping): each mapped range the client copy does not
/// know is read back (one round trip per such mapping) into the mapping and its twin.
pub(crate) fn refresh_persistent_reads(sh: &mut Shared) {
    for i in 0..sh.persistent_maps.len() {
        let e = sh.persistent_maps[i];
        let Some((handle, at, len)) = sh.world.get::<Buffer>(e).and_then(|b| {
            let m = b.mapping.as_ref()?;
            (m.access & MAP_READ_BIT != 0).then_some((b.handle, m.offset as u64, m.length as u64))
        }) else {
            continue;
        };
        if shadow_known(sh, e, at, len) {
            continue;
        }
        let reply = sh.dev.enc.mint_reply();
        sh.dev.push(Record::ReadBuffer {
            buffer: handle,
            range: Box::new(BufferRange {
                offset: at,
                size: len,
            }),
            reply,
        });
        let Some(Reply::Bytes(data)) = sh.wait(reply) else {
            return;
        };
        if data.len() != len as usize {
            continue;
        }
        shadow_write(sh, e, at, &data);
        if let Some(mut b) = sh.world.get_mut::<Buffer>(e)
            && let Some(m) = b.mapping.as_mut()
        {
            m.bytes.copy_from_slice(&data);
            if let Some(twin) = m.initial.as_mut() {
                twin.copy_from_slice(&data);
            }
        }
    }
}

/// A write the client made to `[offset, offset + data.len())` of `e` with a command
/// (`glBufferSubData`) shows through a persistent mapping of the range, and its twin
/// learns it (the backend holds it once the command's batch is carried out).
pub(crate) fn persistent_learn(sh: &mut Shared, e: Entity, offset: u64, data: &[u8]) {
    let heap = sh
        .world
        .get::<Buffer>(e)
        .and_then(|b| b.mapping.as_ref())
        .filter(|m| m.bytes.heap_block().is_some())
        .map(|m| (m.offset as u64, m.length as u64));
    if let Some((at, len)) = heap {
        // A heap block is read by the server at the start of each batch: the bytes go in
        // only once every batch before the write was applied (one round trip), so no earlier
        // command sees them; the server's twin learned them from the `WriteBuffer`.
        let Some(handle) = sh.world.get::<Buffer>(e).map(|b| b.handle) else {
            return;
        };
        let reply = sh.dev.enc.mint_reply();
        sh.dev.push(Record::ReadBuffer {
            buffer: handle,
            range: Box::new(BufferRange {
                offset: at,
                size: 1,
            }),
            reply,
        });
        sh.wait(reply);
        // The program writes the range with no call, so the copy never knows it.
        shadow_stale(sh, e, at, len);
    }
    let Some(mut b) = sh.world.get_mut::<Buffer>(e) else {
        return;
    };
    let Some(m) = b
        .mapping
        .as_mut()
        .filter(|m| m.access & MAP_PERSISTENT_BIT != 0)
    else {
        return;
    };
    let (start, end) = (m.offset as u64, (m.offset + m.length) as u64);
    let (from, to) = (offset.max(start), (offset + data.len() as u64).min(end));
    if from >= to {
        return;
    }
    let src = &data[(from - offset) as usize..(to - offset) as usize];
    let dst = (from - start) as usize..(to - start) as usize;
    m.bytes[dst.clone()].copy_from_slice(src);
    if let Some(twin) = m.initial.as_mut() {
        twin[dst].copy_from_slice(src);
    }
}

/// A mapping ends (unmapped, its buffer deleted or given new storage): a heap block is
/// detached, which copies its last changes into the buffer, and given back to the transport
/// once the batch carrying the detach has left (the server is then done with it when it has
/// applied that batch). Client memory is simply freed.
pub(crate) fn end_heap_mapping(sh: &mut Shared, e: Entity, handle: BufferHandle, m: Mapping) {
    let (at, len) = (m.offset as u64, m.length as u64);
    let Some(block) = m.bytes.into_heap_block() else {
        return;
    };
    // The program wrote the range with no call: the copy does not know what it holds.
    shadow_stale(sh, e, at, len);
    sh.dev.push(Record::DetachHeapRange { buffer: handle });
    sh.flush();
    sh.transport.heap_free(block);
}

/// Transform feedback buffer binding points.
const MAX_TF_BINDINGS: u32 = 4;

fn valid_usage(usage: GLenum) -> bool {
    matches!(
        usage,
        STREAM_DRAW
            | STREAM_READ
            | STREAM_COPY
            | STATIC_DRAW
            | STATIC_READ
            | STATIC_COPY
            | DYNAMIC_DRAW
            | DYNAMIC_READ
            | DYNAMIC_COPY
    )
}

impl Context {
    /// The buffer bound to `target` (the element array buffer is the bound vertex array's;
    /// with none bound, the context's own slot, as Mesa keeps it in its default array).
    pub(crate) fn bound_buffer(&self, sh: &Shared, target: BufferTarget) -> Option<Entity> {
        match (target, self.local.st.vertex_array) {
            (BufferTarget::ElementArray, Some(v)) => sh
                .world
                .get::<VertexArray>(v)
                .and_then(|v| v.element_buffer),
            (t, _) => self.local.st.buffer(t),
        }
    }

    /// The buffer bound to a GL target enum: `INVALID_ENUM` for a bad target,
    /// `INVALID_OPERATION` when nothing is bound.
    fn target_buffer(&self, sh: &Shared, target: GLenum) -> GlResult<Entity> {
        let t = BufferTarget::from_gl(target).ok_or(INVALID_ENUM)?;
        self.bound_buffer(sh, t).ok_or(INVALID_OPERATION)
    }

    /// `glGenBuffers`.
    pub fn gen_buffers(&mut self, n: GLsizei, buffers: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let mut sh = self.group.lock();
        if sh
            .names
            .buffers
            .generate(&mut buffers[..n as usize])
            .is_err()
        {
            self.local.set_error(OUT_OF_MEMORY);
        }
    }

    /// Generates one buffer name.
    pub fn gen_buffer(&mut self) -> GLuint {
        let mut name = [0];
        self.gen_buffers(1, &mut name);
        name[0]
    }

    /// `glIsBuffer`: true for names that have an object (bound at least once).
    pub fn is_buffer(&mut self, buffer: GLuint) -> GLboolean {
        let sh = self.group.lock();
        sh.names.buffers.get(buffer).is_some() as GLboolean
    }

    /// The buffer object of `name`, created (and given a wire object) on first use.
    /// `INVALID_OPERATION` if the name was never generated.
    pub(crate) fn buffer_object(
        &mut self,
        sh: &mut Shared,
        name: GLuint,
    ) -> GlResult<Option<Entity>> {
        if name == 0 {
            return Ok(None);
        }
        match sh.names.buffers.entry(name) {
            NameEntry::Object(e) => Ok(Some(e)),
            NameEntry::Free => Err(INVALID_OPERATION),
            NameEntry::Reserved => {
                sh.dev.use_context(self.local.id);
                let handle = sh.dev.alloc.mint();
                sh.dev.push(Record::CreateBuffer {
                    buffer: handle,
                    size: 0,
                });
                let e = sh
                    .world
                    .spawn((Life::named(name), Buffer::new(handle)))
                    .id();
                sh.names.buffers.bind_object(name, e);
                Ok(Some(e))
            }
        }
    }

    /// `glBindBuffer`.
    pub fn bind_buffer(&mut self, target: GLenum, buffer: GLuint) {
        let Some(t) = BufferTarget::from_gl(target) else {
            return self.error(INVALID_ENUM);
        };
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = match self.buffer_object(&mut sh, buffer) {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        self.set_buffer_binding(&mut sh, t, e);
    }

    /// Points a non-indexed binding at `e`, keeping references counted.
    pub(crate) fn set_buffer_binding(
        &mut self,
        sh: &mut Shared,
        t: BufferTarget,
        e: Option<Entity>,
    ) {
        let Shared { world, dev, .. } = sh;
        if t == BufferTarget::ElementArray
            && let Some(vao) = self.local.st.vertex_array
        {
            // Without a bound vertex array the binding lands in the context's slot below
            // (draws still need an array; buffer commands may use the binding).
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
            self.local.dirty |= Dirty::INDEX_BUFFER;
            return;
        }
        let slot = &mut self.local.st.buffers[t as usize];
        if *slot == e {
            return;
        }
        let old = std::mem::replace(slot, e);
        lifecycle::replace(world, dev, old, e);
    }

    /// `glBindBufferBase`.
    pub fn bind_buffer_base(&mut self, target: GLenum, index: GLuint, buffer: GLuint) {
        self.bind_buffer_indexed(target, index, buffer, 0, 0, false);
    }

    /// `glBindBufferRange`.
    pub fn bind_buffer_range(
        &mut self,
        target: GLenum,
        index: GLuint,
        buffer: GLuint,
        offset: GLintptr,
        size: GLsizeiptr,
    ) {
        self.bind_buffer_indexed(target, index, buffer, offset as i64, size as i64, true);
    }

    /// `glBindBufferBase` (`range` false) and `glBindBufferRange`: one indexed binding, with
    /// the errors GL names for it (multi-bind checks its own first).
    pub(crate) fn bind_buffer_indexed(
        &mut self,
        target: GLenum,
        index: GLuint,
        buffer: GLuint,
        offset: i64,
        size: i64,
        range: bool,
    ) {
        let (t, limit) = match target {
            UNIFORM_BUFFER => (BufferTarget::Uniform, UBO_BINDINGS as u32),
            SHADER_STORAGE_BUFFER => (BufferTarget::ShaderStorage, SSBO_BINDINGS as u32),
            ATOMIC_COUNTER_BUFFER => (BufferTarget::AtomicCounter, ACB_BINDINGS as u32),
            TRANSFORM_FEEDBACK_BUFFER => (BufferTarget::TransformFeedback, MAX_TF_BINDINGS),
            _ => return self.error(INVALID_ENUM),
        };
        // Bindings stay put while they are captured into (Mesa checks this first).
        if t == BufferTarget::TransformFeedback && self.local.st.transform_feedback_mode.is_some() {
            return self.error(INVALID_OPERATION);
        }
        if index >= limit {
            return self.error(INVALID_VALUE);
        }
        if range && buffer != 0 {
            if size <= 0 || offset < 0 {
                return self.error(INVALID_VALUE);
            }
            let align = match t {
                BufferTarget::Uniform => UBO_OFFSET_ALIGNMENT as i64,
                BufferTarget::ShaderStorage => {
                    i64::from(self.local.limits.storage_offset_alignment)
                }
                _ => 4,
            };
            if offset % align != 0 || (t == BufferTarget::TransformFeedback && size % 4 != 0) {
                return self.error(INVALID_VALUE);
            }
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = match self.buffer_object(&mut sh, buffer) {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        let binding = if range {
            IndexedBuffer {
                buffer: e,
                offset,
                size,
            }
        } else {
            IndexedBuffer {
                buffer: e,
                offset: 0,
                size: 0,
            }
        };
        let slots = match t {
            BufferTarget::Uniform => &mut self.local.st.uniform_buffers[..],
            BufferTarget::ShaderStorage => &mut self.local.st.storage_buffers[..],
            BufferTarget::AtomicCounter => &mut self.local.st.atomic_counter_buffers[..],
            _ => &mut self.local.st.transform_feedback_buffers[..],
        };
        let old = std::mem::replace(&mut slots[index as usize], binding);
        let Shared { world, dev, .. } = &mut *sh;
        if old.buffer != e {
            lifecycle::replace(world, dev, old.buffer, e);
        }
        if t == BufferTarget::Uniform && old != binding {
            self.local.dirty |= Dirty::UNIFORM_BUFFERS;
        }
        // Atomic counter buffers bind to storage slots (their counters are storage-buffer
        // atomics), so they are emitted with the storage buffers.
        if matches!(t, BufferTarget::ShaderStorage | BufferTarget::AtomicCounter) && old != binding
        {
            self.local.dirty |= Dirty::STORAGE_BUFFERS;
        }
        // The generic binding point follows the indexed one.
        self.set_buffer_binding(&mut sh, t, e);
    }

    /// `glDeleteBuffers`.
    pub fn delete_buffers(&mut self, n: GLsizei, buffers: &[GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        for &name in &buffers[..n as usize] {
            if name == 0 {
                continue;
            }
            let Some(e) = sh.names.buffers.get(name) else {
                sh.names.buffers.free(name);
                continue;
            };
            self.unbind_buffer_everywhere(&mut sh, e);
            sh.names.buffers.free(name);
            let mapping = sh
                .world
                .get_mut::<Buffer>(e)
                .and_then(|mut b| Some((b.handle, b.mapping.take()?)));
            if let Some((handle, m)) = mapping {
                sh.mapped_buffers -= 1;
                sh.persistent_maps.retain(|&p| p != e);
                end_heap_mapping(&mut sh, e, handle, m);
            }
            let Shared { world, dev, .. } = &mut *sh;
            lifecycle::unname(world, dev, e);
        }
    }

    /// Removes a deleted buffer from this context's binding points and from the bound vertex
    /// array, as GL specifies for deletion.
    fn unbind_buffer_everywhere(&mut self, sh: &mut Shared, e: Entity) {
        for t in BufferTarget::ALL {
            if self.local.st.buffer(t) == Some(e) {
                let slot = &mut self.local.st.buffers[t as usize];
                *slot = None;
                lifecycle::release(&mut sh.world, &mut sh.dev, e);
            }
        }
        let Shared { world, dev, .. } = sh;
        for i in 0..self.local.st.uniform_buffers.len() {
            if self.local.st.uniform_buffers[i].buffer == Some(e) {
                self.local.st.uniform_buffers[i] = IndexedBuffer::default();
                lifecycle::release(world, dev, e);
                self.local.dirty |= Dirty::UNIFORM_BUFFERS;
            }
        }
        for i in 0..self.local.st.storage_buffers.len() {
            if self.local.st.storage_buffers[i].buffer == Some(e) {
                self.local.st.storage_buffers[i] = IndexedBuffer::default();
                lifecycle::release(world, dev, e);
                self.local.dirty |= Dirty::STORAGE_BUFFERS;
            }
        }
        for i in 0..self.local.st.atomic_counter_buffers.len() {
            if self.local.st.atomic_counter_buffers[i].buffer == Some(e) {
                self.local.st.atomic_counter_buffers[i] = IndexedBuffer::default();
                lifecycle::release(world, dev, e);
                self.local.dirty |= Dirty::STORAGE_BUFFERS;
            }
        }
        for i in 0..self.local.st.transform_feedback_buffers.len() {
            if self.local.st.transform_feedback_buffers[i].buffer == Some(e) {
                self.local.st.transform_feedback_buffers[i] = IndexedBuffer::default();
                lifecycle::release(world, dev, e);
            }
        }
        if let Some(vao) = self.local.st.vertex_array {
            let mut released = 0;
            if let Some(mut v) = world.get_mut::<VertexArray>(vao) {
                for b in v.bindings.iter_mut() {
                    if b.buffer == Some(e) {
                        b.buffer = None;
                        b.buffer_handle = None;
                        released += 1;
                    }
                }
                if v.element_buffer == Some(e) {
                    v.element_buffer = None;
                    v.element_buffer_handle = None;
                    released += 1;
                }
                if released > 0 {
                    v.buffers_generation += 1;
                }
            }
            for _ in 0..released {
                lifecycle::release(world, dev, e);
            }
            if released > 0 {
                self.local.dirty |= Dirty::VERTEX_BUFFERS | Dirty::INDEX_BUFFER;
            }
        }
        // A buffer texture's buffer is not a binding point or a container attachment: the
        // texture keeps its reference (GL 3.3 §D.1.2).
    }

    /// The buffer an entry point names (see [`BufferRef`]).
    pub(crate) fn resolve_buffer(&self, sh: &Shared, r: BufferRef) -> GlResult<Entity> {
        match r {
            BufferRef::Target(target) => self.target_buffer(sh, target),
            BufferRef::Name(name) => sh.names.buffers.get(name).ok_or(INVALID_OPERATION),
        }
    }

    /// `glCreateBuffers`: names with their objects made at once.
    pub fn create_buffers(&mut self, n: GLsizei, buffers: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let buffers = &mut buffers[..n as usize];
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if sh.names.buffers.generate(buffers).is_err() {
            return self.local.set_error(OUT_OF_MEMORY);
        }
        for &name in buffers.iter() {
            if let Err(err) = self.buffer_object(&mut sh, name) {
                return self.error(err);
            }
        }
    }

    /// `glBufferData`.
    pub fn buffer_data(
        &mut self,
        target: GLenum,
        size: GLsizeiptr,
        data: Option<&[u8]>,
        usage: GLenum,
    ) {
        self.buffer_data_of(BufferRef::Target(target), size, data, usage);
    }

    /// `glNamedBufferData`.
    pub fn named_buffer_data(
        &mut self,
        buffer: GLuint,
        size: GLsizeiptr,
        data: Option<&[u8]>,
        usage: GLenum,
    ) {
        self.buffer_data_of(BufferRef::Name(buffer), size, data, usage);
    }

    fn buffer_data_of(
        &mut self,
        r: BufferRef,
        size: GLsizeiptr,
        data: Option<&[u8]>,
        usage: GLenum,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = match self.resolve_buffer(&sh, r) {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        if size < 0 {
            return self.error(INVALID_VALUE);
        }
        if !valid_usage(usage) {
            return self.error(INVALID_ENUM);
        }
        if sh.world.get::<Buffer>(e).is_some_and(|b| b.immutable) {
            return self.error(INVALID_OPERATION);
        }
        if size as i64 > (1 << 34) {
            return self.error(OUT_OF_MEMORY);
        }
        self.specify_storage(
            &mut sh,
            e,
            size as i64,
            data,
            usage,
            DATA_STORAGE_FLAGS,
            false,
        );
    }

    /// `glBufferStorage` (GL 4.4): immutable storage with the uses `flags` allow.
    pub fn buffer_storage(
        &mut self,
        target: GLenum,
        size: GLsizeiptr,
        data: Option<&[u8]>,
        flags: GLbitfield,
    ) {
        self.buffer_storage_of(BufferRef::Target(target), size, data, flags);
    }

    /// `glNamedBufferStorage`.
    pub fn named_buffer_storage(
        &mut self,
        buffer: GLuint,
        size: GLsizeiptr,
        data: Option<&[u8]>,
        flags: GLbitfield,
    ) {
        self.buffer_storage_of(BufferRef::Name(buffer), size, data, flags);
    }

    fn buffer_storage_of(
        &mut self,
        r: BufferRef,
        size: GLsizeiptr,
        data: Option<&[u8]>,
        flags: GLbitfield,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = match self.resolve_buffer(&sh, r) {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        // Mesa's order: size, unknown bits, persistent without access, coherent without
        // persistent, then storage that is already immutable.
        if size <= 0
            || flags & !STORAGE_FLAG_BITS != 0
            || (flags & MAP_PERSISTENT_BIT != 0 && flags & (MAP_READ_BIT | MAP_WRITE_BIT) == 0)
            || (flags & MAP_COHERENT_BIT != 0 && flags & MAP_PERSISTENT_BIT == 0)
        {
            return self.error(INVALID_VALUE);
        }
        if sh.world.get::<Buffer>(e).is_some_and(|b| b.immutable) {
            return self.error(INVALID_OPERATION);
        }
        if size as i64 > (1 << 34) {
            return self.error(OUT_OF_MEMORY);
        }
        self.specify_storage(&mut sh, e, size as i64, data, DYNAMIC_DRAW, flags, true);
    }

    /// Gives `e` new storage of `size` bytes holding `data` (or zeros), ending any mapping.
    #[allow(
        clippy::too_many_arguments,
        reason = "the two entry points' whole state"
    )]
    fn specify_storage(
        &mut self,
        sh: &mut Shared,
        e: Entity,
        size: i64,
        data: Option<&[u8]>,
        usage: GLenum,
        flags: GLbitfield,
        immutable: bool,
    ) {
        let Some(mut b) = sh.world.get_mut::<Buffer>(e) else {
            return;
        };
        b.size = size;
        b.usage = usage;
        b.storage_flags = flags;
        b.immutable = immutable;
        // The new storage holds `data`, or zeros (`CreateBuffer`'s contract).
        b.shadow = (size <= SHADOW_MAX).then(|| match data {
            Some(bytes) => BufferShadow::with(&bytes[..size as usize]),
            None => BufferShadow::zeroed(size as usize),
        });
        // New storage ends any mapping (as in Mesa).
        let was_mapped = b.mapping.take();
        b.generation += 1;
        let handle = b.handle;
        if let Some(m) = was_mapped {
            sh.mapped_buffers -= 1;
            sh.persistent_maps.retain(|&p| p != e);
            end_heap_mapping(sh, e, handle, m);
        }
        sh.dev.push(Record::CreateBuffer {
            buffer: handle,
            size: size as u64,
        });
        if let Some(bytes) = data {
            let bytes = &bytes[..size as usize];
            let span = sh.dev.enc.stage(bytes);
            sh.dev.push(Record::WriteBuffer {
                buffer: handle,
                offset: 0,
                data: span,
            });
        }
        sh.flush_if_full();
    }

    /// Validates a range of the buffer `r` names: the naming errors, negative or
    /// out-of-range `INVALID_VALUE`, mapped (not persistently) `INVALID_OPERATION`.
    fn buffer_range(
        &self,
        sh: &Shared,
        r: BufferRef,
        offset: i64,
        size: i64,
    ) -> GlResult<(Entity, BufferHandle)> {
        let e = self.resolve_buffer(sh, r)?;
        let b = sh.world.get::<Buffer>(e).ok_or(INVALID_OPERATION)?;
        if offset < 0 || size < 0 || offset.checked_add(size).is_none_or(|end| end > b.size) {
            return Err(INVALID_VALUE);
        }
        if b.mapped_exclusively() {
            return Err(INVALID_OPERATION);
        }
        Ok((e, b.handle))
    }

    /// `glBufferSubData`.
    pub fn buffer_sub_data(
        &mut self,
        target: GLenum,
        offset: GLintptr,
        size: GLsizeiptr,
        data: &[u8],
    ) {
        self.buffer_sub_data_of(BufferRef::Target(target), offset, size, data);
    }

    /// `glNamedBufferSubData`.
    pub fn named_buffer_sub_data(
        &mut self,
        buffer: GLuint,
        offset: GLintptr,
        size: GLsizeiptr,
        data: &[u8],
    ) {
        self.buffer_sub_data_of(BufferRef::Name(buffer), offset, size, data);
    }

    fn buffer_sub_data_of(
        &mut self,
        r: BufferRef,
        offset: GLintptr,
        size: GLsizeiptr,
        data: &[u8],
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let (e, handle) = match self.buffer_range(&sh, r, offset as i64, size as i64) {
            Ok(v) => v,
            Err(err) => return self.error(err),
        };
        let Some(b) = sh.world.get::<Buffer>(e) else {
            return;
        };
        if b.immutable && b.storage_flags & DYNAMIC_STORAGE_BIT == 0 {
            return self.error(INVALID_OPERATION);
        }
        if size == 0 {
            return;
        }
        let persistent = b.mapping.is_some();
        let data = &data[..size as usize];
        let span = sh.dev.enc.stage(data);
        sh.dev.push(Record::WriteBuffer {
            buffer: handle,
            offset: offset as u64,
            data: span,
        });
        shadow_write(&mut sh, e, offset as u64, data);
        if persistent {
            // The write lands after everything the program wrote through the mapping so
            // far (this batch's persistent writes go ahead of it), and before anything it
            // writes next (those go with the next batch).
            sh.flush();
            persistent_learn(&mut sh, e, offset as u64, data);
        }
        sh.flush_if_full();
    }

    /// `glGetBufferSubData`: reads back from the backend (a round trip), teaching the client
    /// copy the range. It never answers from the copy: it is how a program (and the tests)
    /// see what the backend really holds.
    pub fn get_buffer_sub_data(
        &mut self,
        target: GLenum,
        offset: GLintptr,
        size: GLsizeiptr,
        data: &mut [u8],
    ) {
        self.get_buffer_sub_data_of(BufferRef::Target(target), offset, size, data);
    }

    /// `glGetNamedBufferSubData`.
    pub fn get_named_buffer_sub_data(
        &mut self,
        buffer: GLuint,
        offset: GLintptr,
        size: GLsizeiptr,
        data: &mut [u8],
    ) {
        self.get_buffer_sub_data_of(BufferRef::Name(buffer), offset, size, data);
    }

    fn get_buffer_sub_data_of(
        &mut self,
        r: BufferRef,
        offset: GLintptr,
        size: GLsizeiptr,
        data: &mut [u8],
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let (e, handle) = match self.buffer_range(&sh, r, offset as i64, size as i64) {
            Ok(v) => v,
            Err(err) => return self.error(err),
        };
        if size == 0 {
            return;
        }
        let (offset, size) = (offset as u64, size as u64);
        let reply = sh.dev.enc.mint_reply();
        sh.dev.push(Record::ReadBuffer {
            buffer: handle,
            range: Box::new(BufferRange { offset, size }),
            reply,
        });
        if let Some(Reply::Bytes(bytes)) = sh.wait(reply) {
            let n = bytes.len().min(size as usize);
            data[..n].copy_from_slice(&bytes[..n]);
            if n == size as usize {
                shadow_write(&mut sh, e, offset, &bytes[..n]);
            }
        }
    }

    /// `glCopyBufferSubData`.
    pub fn copy_buffer_sub_data(
        &mut self,
        read_target: GLenum,
        write_target: GLenum,
        read_offset: GLintptr,
        write_offset: GLintptr,
        size: GLsizeiptr,
    ) {
        self.copy_buffer_sub_data_of(
            BufferRef::Target(read_target),
            BufferRef::Target(write_target),
            read_offset,
            write_offset,
            size,
        );
    }

    /// `glCopyNamedBufferSubData`.
    pub fn copy_named_buffer_sub_data(
        &mut self,
        read_buffer: GLuint,
        write_buffer: GLuint,
        read_offset: GLintptr,
        write_offset: GLintptr,
        size: GLsizeiptr,
    ) {
        self.copy_buffer_sub_data_of(
            BufferRef::Name(read_buffer),
            BufferRef::Name(write_buffer),
            read_offset,
            write_offset,
            size,
        );
    }

    fn copy_buffer_sub_data_of(
        &mut self,
        read: BufferRef,
        write: BufferRef,
        read_offset: GLintptr,
        write_offset: GLintptr,
        size: GLsizeiptr,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let result = (|| {
            let src = self.resolve_buffer(&sh, read)?;
            let dst = self.resolve_buffer(&sh, write)?;
            let (ro, wo, size) = (read_offset as i64, write_offset as i64, size as i64);
            if ro < 0 || wo < 0 || size < 0 {
                return Err(INVALID_VALUE);
            }
            let sb = sh.world.get::<Buffer>(src).ok_or(INVALID_OPERATION)?;
            let db = sh.world.get::<Buffer>(dst).ok_or(INVALID_OPERATION)?;
            if sb.mapped_exclusively() || db.mapped_exclusively() {
                return Err(INVALID_OPERATION);
            }
            if ro + size > sb.size || wo + size > db.size {
                return Err(INVALID_VALUE);
            }
            if src == dst && ro < wo + size && wo < ro + size {
                return Err(INVALID_VALUE);
            }
            Ok((dst, sb.handle, db.handle, ro as u64, wo as u64, size as u64))
        })();
        let (dst_e, src, dst, src_offset, dst_offset, size) = match result {
            Ok(v) => v,
            Err(err) => return self.error(err),
        };
        if size > 0 {
            sh.dev.push(Record::CopyBuffer {
                src,
                dst,
                region: Box::new(BufferCopy {
                    src_offset,
                    dst_offset,
                    size,
                }),
            });
            // The GPU writes the destination: the client copy of that range is stale (even
            // where the client knows the source: a copy is the backend's to make).
            shadow_stale(&mut sh, dst_e, dst_offset, size);
        }
    }

    /// `glMapBufferRange`: returns the address of the mapped range, or null on error.
    pub fn map_buffer_range(
        &mut self,
        target: GLenum,
        offset: GLintptr,
        length: GLsizeiptr,
        access: GLbitfield,
    ) -> *mut u8 {
        self.map_buffer_range_of(BufferRef::Target(target), offset, length, access)
    }

    /// `glMapNamedBufferRange`.
    pub fn map_named_buffer_range(
        &mut self,
        buffer: GLuint,
        offset: GLintptr,
        length: GLsizeiptr,
        access: GLbitfield,
    ) -> *mut u8 {
        self.map_buffer_range_of(BufferRef::Name(buffer), offset, length, access)
    }

    fn map_buffer_range_of(
        &mut self,
        r: BufferRef,
        offset: GLintptr,
        length: GLsizeiptr,
        access: GLbitfield,
    ) -> *mut u8 {
        match self.map_range(r, offset as i64, length as i64, access) {
            Ok(p) => p,
            Err(err) => {
                self.error(err);
                std::ptr::null_mut()
            }
        }
    }

    /// `glMapBuffer`: maps the whole buffer with `READ_ONLY`, `WRITE_ONLY` or `READ_WRITE`.
    pub fn map_buffer(&mut self, target: GLenum, access: GLenum) -> *mut u8 {
        self.map_buffer_of(BufferRef::Target(target), access)
    }

    /// `glMapNamedBuffer`.
    pub fn map_named_buffer(&mut self, buffer: GLuint, access: GLenum) -> *mut u8 {
        self.map_buffer_of(BufferRef::Name(buffer), access)
    }

    fn map_buffer_of(&mut self, r: BufferRef, access: GLenum) -> *mut u8 {
        let bits = match access {
            READ_ONLY => MAP_READ_BIT,
            WRITE_ONLY => MAP_WRITE_BIT,
            READ_WRITE => MAP_READ_BIT | MAP_WRITE_BIT,
            _ => {
                self.error(INVALID_ENUM);
                return std::ptr::null_mut();
            }
        };
        let size = {
            let sh = self.group.lock();
            match self.resolve_buffer(&sh, r) {
                Ok(e) => sh.world.get::<Buffer>(e).map_or(0, |b| b.size),
                Err(err) => {
                    drop(sh);
                    self.error(err);
                    return std::ptr::null_mut();
                }
            }
        };
        match self.map_range(r, 0, size, bits) {
            Ok(p) => p,
            Err(err) => {
                self.error(err);
                std::ptr::null_mut()
            }
        }
    }

    fn map_range(
        &mut self,
        r: BufferRef,
        offset: i64,
        length: i64,
        access: GLbitfield,
    ) -> GlResult<*mut u8> {
        // On the path of every stream-buffer write: no Arc clone, one lock.
        let mut sh = self.group.lock_for(self.local.id);
        let e = self.resolve_buffer(&sh, r)?;
        let b = sh.world.get::<Buffer>(e).ok_or(INVALID_OPERATION)?;
        // Mesa's order of checks (`validate_map_buffer_range`).
        if offset < 0 || length < 0 {
            return Err(INVALID_VALUE);
        }
        if length == 0 {
            return Err(INVALID_OPERATION);
        }
        if access & !MAP_ACCESS_BITS != 0 {
            return Err(INVALID_VALUE);
        }
        let read = access & MAP_READ_BIT != 0;
        let write = access & MAP_WRITE_BIT != 0;
        let invalidate = access & (MAP_INVALIDATE_RANGE_BIT | MAP_INVALIDATE_BUFFER_BIT) != 0;
        let unsynchronized = access & MAP_UNSYNCHRONIZED_BIT != 0;
        let explicit = access & MAP_FLUSH_EXPLICIT_BIT != 0;
        let persistent = access & MAP_PERSISTENT_BIT != 0;
        if !(read || write) || (read && (invalidate || unsynchronized)) || (explicit && !write) {
            return Err(INVALID_OPERATION);
        }
        // Each of read, write, coherent and persistent access must be allowed by the storage.
        let asked = access & (MAP_READ_BIT | MAP_WRITE_BIT | MAP_COHERENT_BIT | MAP_PERSISTENT_BIT);
        if asked & !b.storage_flags != 0 {
            return Err(INVALID_OPERATION);
        }
        if offset.checked_add(length).is_none_or(|end| end > b.size) {
            return Err(INVALID_VALUE);
        }
        if b.mapping.is_some() {
            return Err(INVALID_OPERATION);
        }
        let handle = b.handle;
        let size = b.size;
        let orphan = access & MAP_INVALIDATE_BUFFER_BIT != 0;
        let (at, len) = (offset as u64, length as u64);
        // The mapping starts from the client copy (stale bytes included: see below), or
        // zeros (a reused block is filled only when no copy overwrites it).
        let spare = self.local.map_spare.take();
        let copy = b.shadow.as_ref().filter(|_| !orphan);
        let mut bytes = match copy {
            Some(s) => {
                let mut bytes = MappedBytes::reused(spare, length as usize, at);
                bytes.copy_from_slice(s.bytes(at, len));
                bytes
            }
            None => MappedBytes::zeroed_in(spare, length as usize, at),
        };
        if orphan {
            // Orphan: the backend may give the buffer new storage instead of waiting. The
            // new storage reads as zeros (`CreateBuffer`'s contract), and so do the copy and
            // the mapping.
            sh.dev.push(Record::CreateBuffer {
                buffer: handle,
                size: size as u64,
            });
            if let Some(mut b) = sh.world.get_mut::<Buffer>(e)
                && b.shadow.is_some()
            {
                b.shadow = Some(BufferShadow::zeroed(size as usize));
            }
        }
        let mut initial = None;
        if invalidate || shadow_known(&sh, e, at, len) {
            // Invalidated: the contents are undefined. Known: the copy is the contents.
        } else if !read && explicit {
            // Write-only with explicit flushes: only the flushed ranges change, and the
            // program defines them; the rest of the mapping is undefined to read.
        } else if !read && unsynchronized {
            // Never wait: unmapping sends only the bytes the program changed, so the stale
            // bytes never land over what the GPU wrote.
            initial = Some(Box::from(&bytes[..]));
        } else {
            // Read maps need the contents; a synchronized write-only map needs them so
            // unwritten bytes keep their values: one round trip, which the copy learns.
            let reply = sh.dev.enc.mint_reply();
            sh.dev.push(Record::ReadBuffer {
                buffer: handle,
                range: Box::new(BufferRange {
                    offset: at,
                    size: len,
                }),
                reply,
            });
            if let Some(Reply::Bytes(data)) = sh.wait(reply) {
                let n = data.len().min(bytes.len());
                bytes[..n].copy_from_slice(&data[..n]);
                if n == bytes.len() {
                    shadow_write(&mut sh, e, at, &bytes);
                }
            }
        }
        // Over `shm`/`fork` a persistent map whose starting bytes are what the backend holds
        // (or undefined) lives in a block of the session's mapping heap, which the server
        // reads at each batch: nothing of it crosses the ring (`AttachHeapRange`).
        let exact = initial.is_none() && !(!read && explicit && !shadow_known(&sh, e, at, len));
        let block = if persistent && exact {
            sh.transport.heap_alloc(len as usize, at)
        } else {
            None
        };
        if let Some(mut block) = block {
            block.copy_from_slice(&bytes);
            bytes = MappedBytes::heap(block);
            let heap = bytes.heap_block().map_or(0, |b| b.heap_offset());
            sh.dev.push(Record::AttachHeapRange {
                buffer: handle,
                range: Box::new(HeapRange {
                    offset: at,
                    heap,
                    size: len,
                }),
            });
            // The program writes the range with no call, so the copy never knows it.
            shadow_stale(&mut sh, e, at, len);
        } else if persistent && write && !explicit && initial.is_none() {
            // A persistent write map without explicit flushes keeps its twin (see
            // `send_persistent_writes`).
            initial = Some(Box::from(&bytes[..]));
        }
        if persistent {
            // Every persistent map is looked at by batches and fence waits.
            // The records that made the buffer go first: the changed pages are sent ahead of
            // later batches, which must not be ahead of the buffer's creation.
            sh.flush();
            sh.persistent_maps.push(e);
        }
        sh.mapped_buffers += 1;
        let mut b = sh.world.get_mut::<Buffer>(e).ok_or(INVALID_OPERATION)?;
        b.mapping = Some(Mapping {
            offset,
            length,
            access,
            bytes,
            initial,
        });
        let ptr = b
            .mapping
            .as_mut()
            .map_or(std::ptr::null_mut(), |m| m.bytes.as_mut_ptr());
        Ok(ptr)
    }

    /// `glUnmapBuffer`: uploads what a write map wrote (all of it, only the bytes it changed
    /// for an unsynchronized map over stale bytes or a persistent one, or nothing left after
    /// explicit flushes). Always `TRUE`: the contents cannot be lost here.
    pub fn unmap_buffer(&mut self, target: GLenum) -> GLboolean {
        self.unmap_buffer_of(BufferRef::Target(target))
    }

    /// `glUnmapNamedBuffer`.
    pub fn unmap_named_buffer(&mut self, buffer: GLuint) -> GLboolean {
        self.unmap_buffer_of(BufferRef::Name(buffer))
    }

    fn unmap_buffer_of(&mut self, r: BufferRef) -> GLboolean {
        // On the path of every stream-buffer write: no Arc clone, one lock.
        let mut guard = self.group.lock_for(self.local.id);
        let e = match self.resolve_buffer(&guard, r) {
            Ok(e) => e,
            Err(err) => {
                self.local.set_error(err);
                return FALSE as GLboolean;
            }
        };
        let sh = &mut *guard;
        let Some(mut b) = sh.world.get_mut::<Buffer>(e) else {
            return FALSE as GLboolean;
        };
        let Some(m) = b.mapping.take() else {
            self.local.set_error(INVALID_OPERATION);
            return FALSE as GLboolean;
        };
        let handle = b.handle;
        sh.mapped_buffers -= 1;
        if m.access & MAP_PERSISTENT_BIT != 0 {
            sh.persistent_maps.retain(|&p| p != e);
        }
        if m.bytes.heap_block().is_some() {
            end_heap_mapping(sh, e, handle, m);
            return TRUE as GLboolean;
        }
        if m.access & MAP_WRITE_BIT != 0 && m.access & MAP_FLUSH_EXPLICIT_BIT == 0 {
            let at = m.offset as u64;
            // A mapping without a twin sends its whole range: no run list to allocate.
            let whole = [(0, m.bytes.len())];
            let changed;
            let runs: &[(usize, usize)] = match &m.initial {
                Some(initial) => {
                    let shadow = b.shadow.as_ref();
                    changed = changed_runs(initial, &m.bytes, |from, to| {
                        let len = (to - from) as u64;
                        shadow.is_some_and(|s| s.is_known(at + from as u64, len))
                    });
                    &changed
                }
                None => &whole,
            };
            let unsynchronized = m.access & MAP_UNSYNCHRONIZED_BIT != 0;
            for &(s, end) in runs {
                let data = &m.bytes[s..end];
                push_write(&mut sh.dev.enc, handle, at + s as u64, data, unsynchronized);
                // The client copy learns what was sent.
                if let Some(shadow) = b.shadow.as_mut() {
                    shadow.write(at + s as u64, data);
                }
            }
            sh.flush_if_full();
        }
        if let Some(block) = m.bytes.into_client_block()
            && block.len() <= SPARE_MAX
        {
            self.local.map_spare = Some(block);
        }
        TRUE as GLboolean
    }

    /// `glFlushMappedBufferRange` (`offset` is relative to the mapped range).
    pub fn flush_mapped_buffer_range(
        &mut self,
        target: GLenum,
        offset: GLintptr,
        length: GLsizeiptr,
    ) {
        self.flush_mapped_range_of(BufferRef::Target(target), offset, length);
    }

    /// `glFlushMappedNamedBufferRange`.
    pub fn flush_mapped_named_buffer_range(
        &mut self,
        buffer: GLuint,
        offset: GLintptr,
        length: GLsizeiptr,
    ) {
        self.flush_mapped_range_of(BufferRef::Name(buffer), offset, length);
    }

    fn flush_mapped_range_of(&mut self, r: BufferRef, offset: GLintptr, length: GLsizeiptr) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = match self.resolve_buffer(&sh, r) {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        let Some(b) = sh.world.get::<Buffer>(e) else {
            return;
        };
        let (offset, length) = (offset as i64, length as i64);
        // Mesa's order: negative values, not mapped, no explicit flushes, beyond the map.
        if offset < 0 || length < 0 {
            return self.error(INVALID_VALUE);
        }
        let Some(m) = b.mapping.as_ref() else {
            return self.error(INVALID_OPERATION);
        };
        if m.access & MAP_FLUSH_EXPLICIT_BIT == 0 {
            return self.error(INVALID_OPERATION);
        }
        if offset + length > m.length {
            return self.error(INVALID_VALUE);
        }
        if length == 0 || m.bytes.heap_block().is_some() {
            // A heap block's changes reach the buffer at the start of the next batch.
            return;
        }
        let handle = b.handle;
        let at = (m.offset + offset) as u64;
        let unsynchronized = m.access & MAP_UNSYNCHRONIZED_BIT != 0;
        let bytes = m.bytes[offset as usize..(offset + length) as usize].to_vec();
        push_write(&mut sh.dev.enc, handle, at, &bytes, unsynchronized);
        shadow_write(&mut sh, e, at, &bytes);
        sh.flush_if_full();
    }

    /// Runs `f` on the mapped range of the buffer bound to `target` (the safe way for Rust
    /// callers to use a mapping); `None` if nothing is mapped there.
    pub fn with_mapped<R>(&mut self, target: GLenum, f: impl FnOnce(&mut [u8]) -> R) -> Option<R> {
        let mut sh = self.group.lock();
        let e = self.target_buffer(&sh, target).ok()?;
        let mut b = sh.world.get_mut::<Buffer>(e)?;
        b.mapping.as_mut().map(|m| f(&mut m.bytes))
    }

    fn buffer_parameter(&mut self, r: BufferRef, pname: GLenum) -> Option<i64> {
        let sh = self.group.lock();
        let e = match self.resolve_buffer(&sh, r) {
            Ok(e) => e,
            Err(err) => {
                drop(sh);
                self.error(err);
                return None;
            }
        };
        let b = sh.world.get::<Buffer>(e)?;
        let m = b.mapping.as_ref();
        let value = match pname {
            BUFFER_SIZE => b.size,
            BUFFER_USAGE => i64::from(b.usage),
            BUFFER_ACCESS => i64::from(
                match m.map_or(0, |m| m.access & (MAP_READ_BIT | MAP_WRITE_BIT)) {
                    MAP_READ_BIT => READ_ONLY,
                    MAP_WRITE_BIT => WRITE_ONLY,
                    _ => READ_WRITE,
                },
            ),
            BUFFER_ACCESS_FLAGS => i64::from(m.map_or(0, |m| m.access)),
            BUFFER_MAPPED => i64::from(m.is_some()),
            BUFFER_MAP_OFFSET => m.map_or(0, |m| m.offset),
            BUFFER_MAP_LENGTH => m.map_or(0, |m| m.length),
            BUFFER_IMMUTABLE_STORAGE => i64::from(b.immutable),
            BUFFER_STORAGE_FLAGS => i64::from(b.storage_flags),
            _ => {
                drop(sh);
                self.error(INVALID_ENUM);
                return None;
            }
        };
        Some(value)
    }

    /// `glGetBufferParameteriv`.
    pub fn get_buffer_parameteriv(&mut self, target: GLenum, pname: GLenum, params: &mut [GLint]) {
        if let Some(v) = self.buffer_parameter(BufferRef::Target(target), pname) {
            params[0] = v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        }
    }

    /// `glGetNamedBufferParameteriv`.
    pub fn get_named_buffer_parameteriv(
        &mut self,
        buffer: GLuint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        if let Some(v) = self.buffer_parameter(BufferRef::Name(buffer), pname) {
            params[0] = v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        }
    }

    /// `glGetBufferParameteri64v`.
    pub fn get_buffer_parameteri64v(
        &mut self,
        target: GLenum,
        pname: GLenum,
        params: &mut [GLint64],
    ) {
        if let Some(v) = self.buffer_parameter(BufferRef::Target(target), pname) {
            params[0] = v;
        }
    }

    /// `glGetNamedBufferParameteri64v`.
    pub fn get_named_buffer_parameteri64v(
        &mut self,
        buffer: GLuint,
        pname: GLenum,
        params: &mut [GLint64],
    ) {
        if let Some(v) = self.buffer_parameter(BufferRef::Name(buffer), pname) {
            params[0] = v;
        }
    }

    /// `glGetBufferPointerv` (`BUFFER_MAP_POINTER`).
    pub fn get_buffer_pointerv(&mut self, target: GLenum, pname: GLenum) -> *mut u8 {
        self.buffer_pointer_of(BufferRef::Target(target), pname)
    }

    /// `glGetNamedBufferPointerv`.
    pub fn get_named_buffer_pointerv(&mut self, buffer: GLuint, pname: GLenum) -> *mut u8 {
        self.buffer_pointer_of(BufferRef::Name(buffer), pname)
    }

    fn buffer_pointer_of(&mut self, r: BufferRef, pname: GLenum) -> *mut u8 {
        if pname != BUFFER_MAP_POINTER {
            self.error(INVALID_ENUM);
            return std::ptr::null_mut();
        }
        let mut sh = self.group.lock();
        let e = match self.resolve_buffer(&sh, r) {
            Ok(e) => e,
            Err(err) => {
                drop(sh);
                self.error(err);
                return std::ptr::null_mut();
            }
        };
        sh.world
            .get_mut::<Buffer>(e)
            .and_then(|mut b| b.mapping.as_mut().map(|m| m.bytes.as_mut_ptr()))
            .unwrap_or(std::ptr::null_mut())
    }
}

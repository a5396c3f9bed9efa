//! The state a session built before the first frame a capture holds, as records.
//!
//! A capture of frames `N..=M` ([`FrameRange`](super::FrameRange)) starts with what frame
//! `N` draws with: the objects alive at its start, the contents the GPU gave them, and each
//! context's bindings and dynamic state. [`Snapshot`] watches every record before frame `N`
//! and keeps, per live object and per context, only the records that still decide its
//! state — an object's creation and the latest of each of its definitions (a texture
//! image, a framebuffer's attachments, a view's range), a context's latest value of each
//! binding slot and dynamic state — each with its own stage bytes. Destroying an object
//! forgets its records, so memory is bounded by the live objects, not by the frames before
//! `N`. Contents are not kept: at frame `N` every live buffer and every texture image is
//! read back from the backend (what uploads, copies, draws and dispatches left there) and
//! written as `WriteBuffer`/`WriteTexture`/`WriteCompressedTexture` records.
//!
//! The kept records come out in the order the session made them ([`Snapshot::records`]):
//! a subsequence of the stream, so every record still follows the creation of what it
//! names. A context's records are preceded by a `SetContext` where the context changes,
//! and a default uniform block by its program's bind.
//!
//! What is not carried (logged once per capture): the images of surfaces (a frame that
//! does not draw its whole default framebuffer sees what the replay's surface holds),
//! renderbuffers' and multisample images' contents, textures whose memory came from outside
//! (imported memory, EGL images, dma-bufs), a transform feedback or conditional render
//! still active when frame `N` starts; a query run before frame `N` is run again empty, so
//! that reading its result does not wait forever.

use std::collections::HashMap;

use crate::batch::{Encoder, STAGE_ALIGN};
use crate::format::PixelLayout;
use crate::handle::{Handle, ObjectKind, ProgramHandle, QueryHandle, RawHandle, TextureHandle};
use crate::record::{
    BufferRange, FramebufferRef, PixelDestination, Record, ReplyId, Span, TextureRead,
    TextureRegion,
};

/// A share-group object, by kind and handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Obj(ObjectKind, RawHandle);

fn obj<H: Handle>(h: H) -> Obj {
    Obj(H::KIND, h.raw())
}

/// One of an object's records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Part {
    /// Its creation.
    Create,
    /// A texture image (level, face) or a renderbuffer's storage (0, 0).
    Image(u8, u8),
    /// A texture's level range and swizzle.
    View,
    /// A buffer texture's buffer.
    TextureBuffer,
    /// A framebuffer's attachments.
    Attachments,
    /// A query's last run (its `BeginQuery`, ended, or `QueryTimestamp`).
    Run,
    /// A texture's memory came from outside (the record is kept only to mark it).
    Imported,
}

/// One of a context's state slots: the record setting it last decides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Slot {
    Framebuffer,
    DrawBuffers,
    Blend,
    DepthStencil,
    Raster,
    VertexLayout,
    Program,
    /// The default uniform block of a program (per program: a backend may keep it there).
    Uniforms(Option<ProgramHandle>),
    UniformBuffer(u8),
    StorageBuffer(u8),
    Image(u8),
    Texture(u8),
    VertexBuffer(u8),
    IndexBuffer,
    GenericAttrib(u8),
    PrimitiveRestart,
    /// Viewports and scissors by (first, count): a later record of the same range
    /// overwrites every one an earlier one set.
    Viewport(u8, u8),
    Scissor(u8, u8),
    BlendColor,
    StencilRef,
    DepthBias,
    LineWidth,
    PointSize,
    PatchVertices,
    DrawCount,
    SampleMask,
}

/// A record kept for the snapshot: where it was in the stream, the context current then,
/// and the stage bytes it names (its spans rebased to them).
#[derive(Debug)]
struct Kept {
    seq: u64,
    context: u32,
    /// The context state slot it sets, for a context's record.
    slot: Option<Slot>,
    record: Record,
    stage: Vec<u8>,
}

/// The records of one context.
#[derive(Debug, Default)]
struct ContextRecords {
    /// Its `CreateContext`.
    created: Option<Kept>,
    slots: HashMap<Slot, Kept>,
}

/// A read-back the snapshot needs at frame `N`: its record (answered into the reply it
/// names) and the record that writes the answer back.
#[derive(Debug)]
pub(super) struct Carry {
    /// The read-back.
    pub read: Record,
    /// Its reply.
    pub reply: ReplyId,
    /// Bytes it reads (for compressed images, an estimate).
    pub bytes: u64,
    write: CarryWrite,
}

#[derive(Debug)]
enum CarryWrite {
    Buffer(crate::handle::BufferHandle),
    Image {
        texture: TextureHandle,
        level: u8,
        face: u8,
        size: [u32; 3],
        layout: Option<PixelLayout>,
    },
}

impl Carry {
    /// The record writing `data` (this read-back's answer) back, its bytes staged in `enc`.
    pub fn write(&self, enc: &mut Encoder, data: &[u8]) -> Record {
        let data = enc.stage(data);
        match self.write {
            CarryWrite::Buffer(buffer) => Record::WriteBuffer {
                buffer,
                offset: 0,
                data,
            },
            CarryWrite::Image {
                texture,
                level,
                face,
                size,
                layout,
            } => {
                let region = Box::new(TextureRegion {
                    origin: [0; 3],
                    size,
                });
                match layout {
                    Some(layout) => Record::WriteTexture {
                        texture,
                        level,
                        face,
                        region,
                        layout,
                        data,
                    },
                    None => Record::WriteCompressedTexture {
                        texture,
                        level,
                        face,
                        region,
                        data,
                    },
                }
            }
        }
    }
}

/// What the records before frame `N` left (see the [module docs](self)).
#[derive(Debug, Default)]
pub(super) struct Snapshot {
    seq: u64,
    current: u32,
    contexts: HashMap<u32, ContextRecords>,
    objects: HashMap<Obj, HashMap<Part, Kept>>,
    /// Queries begun and not ended yet.
    begun: HashMap<QueryHandle, Kept>,
    /// Transform feedback captures active.
    feedback: usize,
    /// A conditional render active.
    conditional: bool,
    /// What was seen that a capture from frame `N` cannot carry.
    uncarried: Vec<&'static str>,
}

/// Copies the stage bytes `spans` name into one buffer (each at a multiple of
/// [`STAGE_ALIGN`]) and points the spans at them there.
fn detach(spans: &mut [&mut Span], stage: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for span in spans {
        let start = span.offset as usize;
        let bytes = stage.get(start..start + span.len as usize).unwrap_or(&[]);
        out.resize(out.len().next_multiple_of(STAGE_ALIGN), 0);
        span.offset = out.len() as u32;
        span.len = bytes.len() as u32;
        out.extend_from_slice(bytes);
    }
    out
}

/// The spans of the records a snapshot keeps that name stage bytes.
fn spans_mut(record: &mut Record) -> Vec<&mut Span> {
    match record {
        Record::SetUniforms { data } => vec![data],
        Record::CreateProgram { desc, .. } => {
            desc.stages.iter_mut().map(|s| &mut s.spirv).collect()
        }
        _ => Vec::new(),
    }
}

/// The object a context-state record binds, if any.
fn bound(record: &Record) -> Option<Obj> {
    match record {
        Record::BindFramebuffer {
            framebuffer: FramebufferRef::Object(f),
        } => Some(obj(*f)),
        Record::BindFramebuffer {
            framebuffer: FramebufferRef::Surface(s),
        } => Some(obj(*s)),
        Record::BindBlendState { cso } => Some(obj(*cso)),
        Record::BindDepthStencilState { cso } => Some(obj(*cso)),
        Record::BindRasterState { cso } => Some(obj(*cso)),
        Record::BindVertexLayout { cso } => Some(obj(*cso)),
        Record::BindProgram { program } => program.map(obj),
        Record::BindUniformBuffer { buffer, .. }
        | Record::BindStorageBuffer { buffer, .. }
        | Record::SetVertexBuffer { buffer, .. }
        | Record::SetIndexBuffer { buffer }
        | Record::SetDrawCount { buffer, .. } => buffer.map(obj),
        Record::BindImage { image, .. } => image.as_ref().map(|i| obj(i.texture)),
        Record::BindTexture { texture, .. } => texture.map(obj),
        _ => None,
    }
}

impl Snapshot {
    fn keep(&mut self, record: &Record, stage: &[u8]) -> Kept {
        self.seq += 1;
        let mut record = record.clone();
        let stage = detach(&mut spans_mut(&mut record), stage);
        Kept {
            seq: self.seq,
            context: self.current,
            slot: None,
            record,
            stage,
        }
    }

    fn set(&mut self, o: Obj, part: Part, record: &Record, stage: &[u8]) {
        let kept = self.keep(record, stage);
        self.objects.entry(o).or_default().insert(part, kept);
    }

    fn part(&mut self, o: Obj, part: Part, record: &Record) {
        // Parts of an object never created (a stale handle the backend refused) are not kept.
        if self.objects.contains_key(&o) {
            let kept = self.keep(record, &[]);
            if let Some(parts) = self.objects.get_mut(&o) {
                parts.insert(part, kept);
            }
        }
    }

    fn slot(&mut self, slot: Slot, record: &Record, stage: &[u8]) {
        let mut kept = self.keep(record, stage);
        kept.slot = Some(slot);
        if let Some(c) = self.contexts.get_mut(&self.current) {
            c.slots.insert(slot, kept);
        }
    }

    fn bound_program(&self) -> Option<ProgramHandle> {
        match self
            .contexts
            .get(&self.current)
            .and_then(|c| c.slots.get(&Slot::Program))
            .map(|k| &k.record)
        {
            Some(Record::BindProgram { program }) => *program,
            _ => None,
        }
    }

    fn note(&mut self, what: &'static str) {
        if !self.uncarried.contains(&what) {
            self.uncarried.push(what);
        }
    }

    /// Takes in one record of the stream before frame `N`, `stage` being its batch's stage
    /// bytes.
    pub fn observe(&mut self, record: &Record, stage: &[u8]) {
        use Record as R;
        match record {
            R::CreateContext { context } => {
                let kept = self.keep(record, stage);
                self.contexts.insert(
                    *context,
                    ContextRecords {
                        created: Some(kept),
                        slots: HashMap::new(),
                    },
                );
            }
            R::SetContext { context } => self.current = *context,
            R::DestroyContext { context } => {
                self.contexts.remove(context);
            }
            R::CreateSurface { surface, .. } => {
                self.set(obj(*surface), Part::Create, record, stage)
            }
            R::DestroySurface { surface } => self.forget(obj(*surface)),
            R::CreateFramebuffer { framebuffer } => {
                self.set(obj(*framebuffer), Part::Create, record, stage);
            }
            R::SetFramebufferState { framebuffer, .. } => {
                self.part(obj(*framebuffer), Part::Attachments, record);
            }
            R::DestroyFramebuffer { framebuffer } => self.forget(obj(*framebuffer)),
            R::BindFramebuffer { .. } => self.slot(Slot::Framebuffer, record, stage),
            R::SetDrawBuffers { .. } => self.slot(Slot::DrawBuffers, record, stage),
            R::CreateBuffer { buffer, .. } => self.set(obj(*buffer), Part::Create, record, stage),
            R::DestroyBuffer { buffer } => self.forget(obj(*buffer)),
            R::AttachHeapRange { .. } | R::DetachHeapRange { .. } => {
                self.note("buffers in a shared heap");
            }
            R::CreateTexture { texture, .. } | R::CreateTextureView { texture, .. } => {
                self.set(obj(*texture), Part::Create, record, stage);
            }
            R::DestroyTexture { texture } => self.forget(obj(*texture)),
            R::DefineTextureImage {
                texture,
                level,
                face,
                ..
            } => self.part(obj(*texture), Part::Image(*level, *face), record),
            R::SetTextureView { texture, .. } => self.part(obj(*texture), Part::View, record),
            R::SetTextureBuffer { texture, .. } => {
                self.part(obj(*texture), Part::TextureBuffer, record);
            }
            R::ImportTextureMemory { texture, .. }
            | R::ImportEglImage { texture, .. }
            | R::ImportDmaBufTexture { texture, .. } => {
                self.part(obj(*texture), Part::Imported, record);
                self.note("textures whose memory came from outside");
            }
            R::CreateRenderbuffer { renderbuffer } => {
                self.set(obj(*renderbuffer), Part::Create, record, stage);
            }
            R::DefineRenderbuffer { renderbuffer, .. } => {
                self.part(obj(*renderbuffer), Part::Image(0, 0), record);
            }
            R::ImportEglRenderbufferImage { renderbuffer, .. } => {
                self.part(obj(*renderbuffer), Part::Imported, record);
                self.note("textures whose memory came from outside");
            }
            R::DestroyRenderbuffer { renderbuffer } => self.forget(obj(*renderbuffer)),
            R::CreateBlendState { cso, .. } => self.set(obj(*cso), Part::Create, record, stage),
            R::DestroyBlendState { cso } => self.forget(obj(*cso)),
            R::BindBlendState { .. } => self.slot(Slot::Blend, record, stage),
            R::CreateDepthStencilState { cso, .. } => {
                self.set(obj(*cso), Part::Create, record, stage);
            }
            R::DestroyDepthStencilState { cso } => self.forget(obj(*cso)),
            R::BindDepthStencilState { .. } => self.slot(Slot::DepthStencil, record, stage),
            R::CreateRasterState { cso, .. } => self.set(obj(*cso), Part::Create, record, stage),
            R::DestroyRasterState { cso } => self.forget(obj(*cso)),
            R::BindRasterState { .. } => self.slot(Slot::Raster, record, stage),
            R::CreateSamplerState { cso, .. } => self.set(obj(*cso), Part::Create, record, stage),
            R::DestroySamplerState { cso } => self.forget(obj(*cso)),
            R::CreateVertexLayout { cso, .. } => self.set(obj(*cso), Part::Create, record, stage),
            R::DestroyVertexLayout { cso } => self.forget(obj(*cso)),
            R::BindVertexLayout { .. } => self.slot(Slot::VertexLayout, record, stage),
            R::CreateProgram { program, .. } => {
                self.set(obj(*program), Part::Create, record, stage)
            }
            R::DestroyProgram { program } => {
                self.forget(obj(*program));
                for c in self.contexts.values_mut() {
                    c.slots.remove(&Slot::Uniforms(Some(*program)));
                }
            }
            R::BindProgram { .. } => self.slot(Slot::Program, record, stage),
            R::SetUniforms { .. } => self.slot(Slot::Uniforms(self.bound_program()), record, stage),
            R::BindUniformBuffer { slot, .. } => {
                self.slot(Slot::UniformBuffer(*slot), record, stage)
            }
            R::BindStorageBuffer { slot, .. } => {
                self.slot(Slot::StorageBuffer(*slot), record, stage)
            }
            R::BindImage { slot, .. } => self.slot(Slot::Image(*slot), record, stage),
            R::BindTexture { slot, .. } => self.slot(Slot::Texture(*slot), record, stage),
            R::SetVertexBuffer { slot, .. } => self.slot(Slot::VertexBuffer(*slot), record, stage),
            R::SetIndexBuffer { .. } => self.slot(Slot::IndexBuffer, record, stage),
            R::SetGenericAttrib { index, .. } => {
                self.slot(Slot::GenericAttrib(*index), record, stage);
            }
            R::SetPrimitiveRestart { .. } => self.slot(Slot::PrimitiveRestart, record, stage),
            R::SetViewport { first, count, .. } => {
                self.slot(Slot::Viewport(*first, *count), record, stage);
            }
            R::SetScissor { first, count, .. } => {
                self.slot(Slot::Scissor(*first, *count), record, stage);
            }
            R::SetBlendColor { .. } => self.slot(Slot::BlendColor, record, stage),
            R::SetStencilRef { .. } => self.slot(Slot::StencilRef, record, stage),
            R::SetDepthBias { .. } => self.slot(Slot::DepthBias, record, stage),
            R::SetLineWidth { .. } => self.slot(Slot::LineWidth, record, stage),
            R::SetPointSize { .. } => self.slot(Slot::PointSize, record, stage),
            R::SetPatchVertices { .. } => self.slot(Slot::PatchVertices, record, stage),
            R::SetDrawCount { .. } => self.slot(Slot::DrawCount, record, stage),
            R::SetSampleMask { .. } => self.slot(Slot::SampleMask, record, stage),
            R::CreateTransformFeedback { xfb } => self.set(obj(*xfb), Part::Create, record, stage),
            R::DestroyTransformFeedback { xfb } => self.forget(obj(*xfb)),
            R::BeginTransformFeedback { .. } => self.feedback += 1,
            R::EndTransformFeedback { .. } => self.feedback = self.feedback.saturating_sub(1),
            R::CreateQuery { query, .. } => self.set(obj(*query), Part::Create, record, stage),
            R::BeginQuery { query } | R::BeginQueryIndexed { query, .. } => {
                let kept = self.keep(record, stage);
                self.begun.insert(*query, kept);
            }
            R::EndQuery { query } => {
                if let Some(kept) = self.begun.remove(query)
                    && let Some(parts) = self.objects.get_mut(&obj(*query))
                {
                    parts.insert(Part::Run, kept);
                }
            }
            R::QueryTimestamp { query } => self.part(obj(*query), Part::Run, record),
            R::DestroyQuery { query } => {
                self.begun.remove(query);
                self.forget(obj(*query));
            }
            R::BeginConditionalRender { .. } => self.conditional = true,
            R::EndConditionalRender => self.conditional = false,
            R::InsertFence { fence, .. } => self.set(obj(*fence), Part::Create, record, stage),
            R::DestroyFence { fence } => self.forget(obj(*fence)),
            // Contents (read back at frame N instead), verbs, read-backs, exports and
            // semaphores leave nothing a later frame needs as a record.
            _ => {}
        }
    }

    fn forget(&mut self, o: Obj) {
        self.objects.remove(&o);
    }

    fn live(&self, o: Obj) -> bool {
        self.objects.contains_key(&o)
    }

    /// The records that rebuild the state (without contents) into `enc`, in the order the
    /// session made them: `on_full` is called whenever `enc` has grown past a batch's soft
    /// limits, to take its batch.
    pub fn records(&self, enc: &mut Encoder, mut on_full: impl FnMut(&mut Encoder)) {
        let mut kept: Vec<&Kept> = Vec::new();
        for c in self.contexts.values() {
            kept.extend(c.created.iter());
            kept.extend(c.slots.values());
        }
        for parts in self.objects.values() {
            // An import's memory is the program's, not the replay's: the object is made
            // without it.
            kept.extend(
                parts
                    .iter()
                    .filter(|(p, _)| **p != Part::Imported)
                    .map(|(_, k)| k),
            );
        }
        kept.sort_unstable_by_key(|k| k.seq);
        let mut current: Option<u32> = None;
        let mut programs: HashMap<u32, Option<ProgramHandle>> = HashMap::new();
        for k in kept {
            let context_state = matches!(
                k.record,
                Record::InsertFence { .. }
                    | Record::BeginQuery { .. }
                    | Record::BeginQueryIndexed { .. }
                    | Record::QueryTimestamp { .. }
            ) || k.slot.is_some();
            if bound(&k.record).is_some_and(|o| !self.live(o)) {
                continue;
            }
            if context_state && current != Some(k.context) && self.contexts.contains_key(&k.context)
            {
                enc.push(Record::SetContext { context: k.context });
                current = Some(k.context);
            }
            match &k.record {
                Record::SetUniforms { .. } => {
                    let program = match k.slot {
                        Some(Slot::Uniforms(p)) => p,
                        _ => None,
                    };
                    if programs.get(&k.context).copied().flatten() != program {
                        enc.push(Record::BindProgram { program });
                        programs.insert(k.context, program);
                    }
                }
                Record::BindProgram { program } => {
                    programs.insert(k.context, *program);
                }
                _ => {}
            }
            let base = enc_stage(enc, &k.stage);
            enc.push(self.attach(k, base));
            match &k.record {
                Record::BeginQuery { query } | Record::BeginQueryIndexed { query, .. } => {
                    enc.push(Record::EndQuery { query: *query });
                }
                _ => {}
            }
            if enc.is_full() {
                on_full(enc);
            }
        }
        // Each context's program as the session left it (a default block's bind may have
        // come after).
        let mut contexts: Vec<&u32> = self.contexts.keys().collect();
        contexts.sort_unstable();
        for c in contexts {
            let last = match self.contexts[c]
                .slots
                .get(&Slot::Program)
                .map(|k| &k.record)
            {
                Some(Record::BindProgram { program }) => *program,
                _ => None,
            };
            if programs.get(c).copied().flatten() != last {
                enc.push(Record::SetContext { context: *c });
                enc.push(Record::BindProgram { program: last });
                current = Some(*c);
            }
        }
        if current.is_some_and(|c| c != self.current) && self.contexts.contains_key(&self.current) {
            enc.push(Record::SetContext {
                context: self.current,
            });
        }
    }

    fn attach(&self, k: &Kept, base: u32) -> Record {
        let mut record = k.record.clone();
        for span in spans_mut(&mut record) {
            span.offset += base;
        }
        record
    }

    /// The read-backs of every live buffer and texture image whose contents can be carried,
    /// with reply ids from `first_reply` on.
    pub fn carries(&mut self, first_reply: u32) -> Vec<Carry> {
        let mut out = Vec::new();
        let mut next = first_reply;
        let mut reply = || {
            let r = ReplyId(next);
            next = next.wrapping_add(1);
            r
        };
        let mut objects: Vec<(&Obj, &HashMap<Part, Kept>)> = self.objects.iter().collect();
        objects.sort_unstable_by_key(|(o, _)| (o.0 as u8, o.1.slot, o.1.generation));
        let mut notes = Vec::new();
        for (_, parts) in objects {
            match parts.get(&Part::Create).map(|k| &k.record) {
                Some(&Record::CreateBuffer { buffer, size }) if size > 0 => {
                    let reply = reply();
                    out.push(Carry {
                        read: Record::ReadBuffer {
                            buffer,
                            range: Box::new(BufferRange { offset: 0, size }),
                            reply,
                        },
                        reply,
                        bytes: size,
                        write: CarryWrite::Buffer(buffer),
                    });
                }
                Some(Record::CreateTexture { texture, .. }) => {
                    if parts.contains_key(&Part::Imported)
                        || parts.contains_key(&Part::TextureBuffer)
                    {
                        continue;
                    }
                    let mut images: Vec<&Kept> = parts
                        .iter()
                        .filter(|(p, _)| matches!(p, Part::Image(..)))
                        .map(|(_, k)| k)
                        .collect();
                    images.sort_unstable_by_key(|k| k.seq);
                    for k in images {
                        let &Record::DefineTextureImage {
                            level,
                            face,
                            format,
                            width,
                            height,
                            depth,
                            samples,
                            ..
                        } = &k.record
                        else {
                            continue;
                        };
                        let size = [width, height, depth];
                        if size.contains(&0) {
                            continue;
                        }
                        if samples > 1 {
                            notes.push("multisample images' contents");
                            continue;
                        }
                        let layout = if format.info().compressed {
                            None
                        } else if let Some(layout) = format.exact_layout() {
                            Some(layout)
                        } else {
                            notes.push("depth and stencil images' contents");
                            continue;
                        };
                        let reply = reply();
                        let read = Box::new(TextureRead {
                            size,
                            dst: PixelDestination::Reply(reply),
                        });
                        let texture = *texture;
                        out.push(Carry {
                            read: match layout {
                                Some(layout) => Record::ReadTexture {
                                    texture,
                                    level,
                                    face,
                                    layout,
                                    read,
                                },
                                None => Record::ReadCompressedTexture {
                                    texture,
                                    level,
                                    face,
                                    read,
                                },
                            },
                            reply,
                            bytes: size.iter().map(|&n| u64::from(n)).product::<u64>() * 16,
                            write: CarryWrite::Image {
                                texture,
                                level,
                                face,
                                size,
                                layout,
                            },
                        });
                    }
                }
                Some(Record::CreateRenderbuffer { .. }) => notes.push("renderbuffers' contents"),
                Some(Record::CreateSurface { .. }) => notes.push("surfaces' images"),
                _ => {}
            }
        }
        if self.feedback > 0 {
            notes.push("a transform feedback active when the capture starts");
        }
        if self.conditional {
            notes.push("a conditional render active when the capture starts");
        }
        if !self.begun.is_empty() {
            notes.push("a query active when the capture starts");
        }
        for n in notes {
            self.note(n);
        }
        out
    }

    /// What was seen that the capture cannot carry, each once.
    pub fn uncarried(&self) -> &[&'static str] {
        &self.uncarried
    }
}

/// Stages `bytes` in `enc` (nothing for none) and returns the offset they start at.
fn enc_stage(enc: &mut Encoder, bytes: &[u8]) -> u32 {
    if bytes.is_empty() {
        0
    } else {
        enc.stage(bytes).offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handle::BufferHandle;

    fn buffer(slot: u32, generation: u32) -> BufferHandle {
        BufferHandle { slot, generation }
    }

    fn kept(s: &Snapshot) -> usize {
        s.contexts
            .values()
            .map(|c| c.slots.len() + usize::from(c.created.is_some()))
            .sum::<usize>()
            + s.objects.values().map(HashMap::len).sum::<usize>()
    }

    /// Objects made and destroyed, and state set again and again, leave only what is live:
    /// the snapshot's size does not grow with the frames before the capture.
    #[test]
    fn memory_is_bounded_by_what_is_live() {
        let mut s = Snapshot::default();
        s.observe(&Record::CreateContext { context: 1 }, &[]);
        s.observe(&Record::SetContext { context: 1 }, &[]);
        s.observe(
            &Record::CreateBuffer {
                buffer: buffer(0, 1),
                size: 64,
            },
            &[],
        );
        for i in 1..10_000u32 {
            let b = buffer(1, i);
            s.observe(
                &Record::CreateBuffer {
                    buffer: b,
                    size: 16,
                },
                &[],
            );
            s.observe(
                &Record::SetVertexBuffer {
                    slot: 0,
                    buffer: Some(b),
                    offset: 0,
                },
                &[],
            );
            s.observe(&Record::SetLineWidth { width: i as f32 }, &[]);
            s.observe(&Record::DestroyBuffer { buffer: b }, &[]);
        }
        // The context, its two slots, the live buffer.
        assert_eq!(kept(&s), 4);
        let mut enc = Encoder::new();
        s.records(&mut enc, |_| panic!("a small snapshot fills no batch"));
        // The binding of a destroyed buffer is left out; the line width is the last one.
        assert_eq!(
            enc.records(),
            [
                Record::CreateContext { context: 1 },
                Record::CreateBuffer {
                    buffer: buffer(0, 1),
                    size: 64
                },
                Record::SetContext { context: 1 },
                Record::SetLineWidth { width: 9_999.0 },
            ]
        );
        let carries = s.carries(7);
        assert_eq!(carries.len(), 1);
        assert_eq!(carries[0].reply, ReplyId(7));
    }

    /// A default uniform block is written with its program bound, and the context ends
    /// with the program the session bound last.
    #[test]
    fn uniforms_follow_their_program() {
        let mut s = Snapshot::default();
        let p = |slot| ProgramHandle {
            slot,
            generation: 1,
        };
        let desc = crate::record::ProgramDesc {
            stages: Vec::new(),
            default_block_size: 4,
            samplers: Vec::new(),
            uniform_blocks: Vec::new(),
            storage_blocks: Vec::new(),
            images: Vec::new(),
            local_size: [0; 3],
            xfb: Vec::new(),
        };
        s.observe(&Record::CreateContext { context: 1 }, &[]);
        s.observe(&Record::SetContext { context: 1 }, &[]);
        for slot in [1, 2] {
            s.observe(
                &Record::CreateProgram {
                    program: p(slot),
                    desc: Box::new(desc.clone()),
                },
                &[],
            );
        }
        let stage = [1u8, 2, 3, 4, 5, 6, 7, 8];
        s.observe(
            &Record::BindProgram {
                program: Some(p(1)),
            },
            &[],
        );
        s.observe(
            &Record::SetUniforms {
                data: Span { offset: 4, len: 4 },
            },
            &stage,
        );
        s.observe(
            &Record::BindProgram {
                program: Some(p(2)),
            },
            &[],
        );
        let mut enc = Encoder::new();
        s.records(&mut enc, |_| {});
        let records = enc.records();
        let uniforms = records
            .iter()
            .position(|r| matches!(r, Record::SetUniforms { .. }))
            .unwrap();
        assert_eq!(
            records[uniforms - 1],
            Record::BindProgram {
                program: Some(p(1))
            }
        );
        let Record::SetUniforms { data } = records[uniforms] else {
            unreachable!()
        };
        let at = data.offset as usize;
        assert_eq!(&enc.stage_bytes()[at..at + 4], &[5, 6, 7, 8]);
        assert_eq!(
            records.last(),
            Some(&Record::BindProgram {
                program: Some(p(2))
            })
        );
    }
}

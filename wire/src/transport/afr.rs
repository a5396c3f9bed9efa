//! Alternate-frame rendering: one session's frames drawn on two devices in turn.
//!
//! The record stream describes everything a session does, so one session can run on two
//! backends, each on its own device: [`AfrBackend`] gives every record that creates,
//! destroys or changes an object or state, and every upload, to both, and the verbs of
//! frame `N` (draws, clears, blits, dispatches, copies, read-backs, queries, fences,
//! presents) to device `N mod 2` only. A frame ends with the batch that presents
//! (`Present`), or, in a session that has not presented yet (offscreen), with one that reads
//! back (`Finish`, `ReadPixels`, `ReadTexture`, `ReadBuffer`): replies go back in order
//! because only the frame's device answers them. What the GPU wrote during the frame —
//! the textures attached to the framebuffers it drew or cleared, storage buffers and images
//! bound while it drew or dispatched, transform-feedback, copy and query destinations —
//! is then carried to the other device before that device runs the next frame: read back
//! with `ReadTexture`/`ReadBuffer` records on the frame's device and written with
//! `WriteTexture`/`WriteBuffer` records on the other, so both backends still consume
//! records only. The carry is conservative: every image and buffer the frame may have
//! written, whole.
//!
//! What is not carried (each logged once): a surface's own images (a frame that does not
//! clear its default framebuffer sees the one two frames back, and a read-back before a
//! session's first present ends its frame there), renderbuffers,
//! multisample and compressed images, and texture views' images (carried through the
//! texture they view only if that one was written by name). A query or transform-feedback
//! capture must begin and end within one frame; a query's result is answered by the device
//! that ran it.

use std::collections::HashMap;

use rkyv::util::AlignedVec;

use crate::backend::{
    Backend, BackendCounters, BatchView, Caps, Event, Outbox, Reply, SessionError,
};
use crate::batch::{Archiver, Batch, STAGE_ALIGN, access_batch, decode_record};
use crate::census::NativeCensus;
use crate::format::{Format, PixelLayout};
use crate::handle::{BufferHandle, FenceHandle, FramebufferHandle, QueryHandle, TextureHandle};
use crate::record::{
    BufferRange, FramebufferRef, ImageObject, PixelDestination, Record, ReplyId, Span, TextureRead,
    TextureRegion,
};
use crate::state::{Attachment, FramebufferState};

/// Where a record goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Route {
    /// To both devices: objects, state, uploads.
    Both,
    /// To the device of the current frame: a verb.
    Frame,
    /// To one device: a query or fence the other never saw.
    Device(usize),
}

/// One image of a texture, as its `DefineTextureImage` made it.
#[derive(Clone, Copy, Debug)]
struct Image {
    format: Format,
    size: [u32; 3],
    samples: u8,
}

/// What the session's records say about the objects a frame may write.
#[derive(Debug, Default)]
struct Objects {
    /// Each texture's images by (level, face).
    textures: HashMap<TextureHandle, HashMap<(u8, u8), Image>>,
    /// Each buffer's size.
    buffers: HashMap<BufferHandle, u64>,
    /// Each framebuffer object's attachments.
    framebuffers: HashMap<FramebufferHandle, FramebufferState>,
    /// The current context.
    context: u32,
    /// The framebuffer each context draws into.
    bound: HashMap<u32, FramebufferRef>,
    /// Storage buffers bound, by (context, slot).
    storage: HashMap<(u32, u8), BufferHandle>,
    /// Images bound for writing, by (context, slot).
    images: HashMap<(u32, u8), TextureHandle>,
    /// The device each query last ran on.
    queries: HashMap<QueryHandle, usize>,
    /// The device each fence was inserted on.
    fences: HashMap<FenceHandle, usize>,
}

/// What the current frame wrote.
#[derive(Debug, Default)]
struct Written {
    textures: Vec<TextureHandle>,
    buffers: Vec<BufferHandle>,
    /// Something was written that cannot be carried (for the log, once).
    uncarried: Option<&'static str>,
}

impl Written {
    fn texture(&mut self, t: TextureHandle) {
        if !self.textures.contains(&t) {
            self.textures.push(t);
        }
    }

    fn buffer(&mut self, b: BufferHandle) {
        if !self.buffers.contains(&b) {
            self.buffers.push(b);
        }
    }

    fn is_empty(&self) -> bool {
        self.textures.is_empty() && self.buffers.is_empty()
    }
}

/// What alternate-frame rendering did, for the log and the tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AfrStats {
    /// Frames ended.
    pub frames: u64,
    /// Bytes carried from one device to the other.
    pub carried_bytes: u64,
    /// Images carried.
    pub carried_images: u64,
    /// Buffers carried.
    pub carried_buffers: u64,
}

/// A backend that runs one session on two backends, frame by frame in turn (the module's
/// docs say how).
pub struct AfrBackend {
    devices: [Box<dyn Backend>; 2],
    /// The devices' names, for the log.
    names: [String; 2],
    /// The device of the current frame.
    current: usize,
    objects: Objects,
    written: Written,
    stats: AfrStats,
    /// Kinds of writes not carried, each logged once.
    warned: Vec<&'static str>,
    archiver: Archiver,
    scratch: AlignedVec<STAGE_ALIGN>,
    /// Whether the session presented a surface: from then on only a `Present` ends a frame.
    presents: bool,
    /// A batch's records split by device, kept between batches so that their memory is
    /// reused: the frame's device's, the other's, and the replies only the other gives.
    split: (Vec<Record>, Vec<Record>, Vec<ReplyId>),
}

impl std::fmt::Debug for AfrBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AfrBackend")
            .field("names", &self.names)
            .field("current", &self.current)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl AfrBackend {
    /// One session on `first` (frames 0, 2, ...) and `second` (frames 1, 3, ...), backends
    /// of the same kind on two devices; `names` name the devices in the log.
    pub fn new(first: Box<dyn Backend>, second: Box<dyn Backend>, names: [String; 2]) -> Self {
        Self {
            devices: [first, second],
            names,
            current: 0,
            objects: Objects::default(),
            written: Written::default(),
            stats: AfrStats::default(),
            warned: Vec::new(),
            archiver: Archiver::default(),
            scratch: AlignedVec::new(),
            presents: false,
            split: Default::default(),
        }
    }

    /// What it did so far.
    pub fn stats(&self) -> AfrStats {
        self.stats
    }

    /// Where `record` goes; notes what it creates, binds or writes.
    fn route(&mut self, record: &Record) -> Route {
        let o = &mut self.objects;
        let w = &mut self.written;
        let current = self.current;
        match record {
            Record::SetContext { context } => {
                o.context = *context;
                Route::Both
            }
            Record::DestroyContext { context } => {
                o.bound.remove(context);
                o.storage.retain(|(c, _), _| c != context);
                o.images.retain(|(c, _), _| c != context);
                Route::Both
            }
            Record::SetFramebufferState { framebuffer, state } => {
                o.framebuffers.insert(*framebuffer, **state);
                Route::Both
            }
            Record::DestroyFramebuffer { framebuffer } => {
                o.framebuffers.remove(framebuffer);
                Route::Both
            }
            Record::BindFramebuffer { framebuffer } => {
                o.bound.insert(o.context, *framebuffer);
                Route::Both
            }
            Record::CreateBuffer { buffer, size } => {
                o.buffers.insert(*buffer, *size);
                Route::Both
            }
            Record::DestroyBuffer { buffer } => {
                o.buffers.remove(buffer);
                w.buffers.retain(|b| b != buffer);
                Route::Both
            }
            Record::CreateTexture { texture, .. } => {
                o.textures.insert(*texture, HashMap::new());
                Route::Both
            }
            Record::DestroyTexture { texture } => {
                o.textures.remove(texture);
                w.textures.retain(|t| t != texture);
                Route::Both
            }
            Record::DefineTextureImage {
                texture,
                level,
                face,
                format,
                width,
                height,
                depth,
                samples,
                ..
            } => {
                o.textures.entry(*texture).or_default().insert(
                    (*level, *face),
                    Image {
                        format: *format,
                        size: [*width, *height, *depth],
                        samples: *samples,
                    },
                );
                Route::Both
            }
            Record::BindStorageBuffer { slot, buffer, .. } => {
                match buffer {
                    Some(b) => o.storage.insert((o.context, *slot), *b),
                    None => o.storage.remove(&(o.context, *slot)),
                };
                Route::Both
            }
            Record::BindImage { slot, image } => {
                match image.filter(|i| i.access != crate::format::ImageAccess::ReadOnly) {
                    Some(i) => o.images.insert((o.context, *slot), i.texture),
                    None => o.images.remove(&(o.context, *slot)),
                };
                Route::Both
            }
            Record::Draw { .. }
            | Record::DrawIndexed { .. }
            | Record::MultiDraw { .. }
            | Record::MultiDrawIndexed { .. }
            | Record::DrawIndirect { .. }
            | Record::DrawIndexedIndirect { .. }
            | Record::DrawTransformFeedback { .. } => {
                drew(o, w);
                shaders_wrote(o, w);
                Route::Frame
            }
            Record::Clear { .. } | Record::ClearBuffer { .. } | Record::Blit { .. } => {
                drew(o, w);
                Route::Frame
            }
            Record::Dispatch { .. } | Record::DispatchIndirect { .. } => {
                shaders_wrote(o, w);
                Route::Frame
            }
            Record::CopyBuffer { dst, .. } => {
                w.buffer(*dst);
                Route::Frame
            }
            Record::ReadPixels { region, .. } => {
                if let PixelDestination::Buffer { buffer, .. } = region.dst {
                    w.buffer(buffer);
                }
                Route::Frame
            }
            Record::ReadTexture { read, .. } | Record::ReadCompressedTexture { read, .. } => {
                if let PixelDestination::Buffer { buffer, .. } = read.dst {
                    w.buffer(buffer);
                }
                Route::Frame
            }
            Record::ClearTexture { texture, .. }
            | Record::CopyTexture { texture, .. }
            | Record::GenerateMipmap { texture, .. }
            | Record::WriteTextureFromBuffer { texture, .. }
            | Record::WriteCompressedTextureFromBuffer { texture, .. } => {
                w.texture(*texture);
                Route::Frame
            }
            Record::CopyImage { copy } => {
                match copy.dst.object {
                    ImageObject::Texture(t) => w.texture(t),
                    ImageObject::Renderbuffer(_) => w.uncarried = Some("renderbuffers"),
                }
                Route::Frame
            }
            Record::BeginTransformFeedback { buffers, .. } => {
                for b in buffers.iter().filter_map(|b| b.buffer) {
                    w.buffer(b);
                }
                Route::Frame
            }
            Record::PauseTransformFeedback { .. }
            | Record::ResumeTransformFeedback { .. }
            | Record::EndTransformFeedback { .. }
            | Record::BeginConditionalRender { .. }
            | Record::EndConditionalRender
            | Record::MemoryBarrier { .. }
            | Record::ReadBuffer { .. }
            | Record::Finish { .. }
            | Record::Present { .. }
            | Record::ExportTexture { .. }
            | Record::ExportSurface { .. }
            | Record::HandOverTexture { .. }
            | Record::ImportTextureMemory { .. }
            | Record::ExportEglImage { .. }
            | Record::ImportEglImage { .. } => Route::Frame,
            Record::BeginQuery { query }
            | Record::BeginQueryIndexed { query, .. }
            | Record::EndQuery { query }
            | Record::QueryTimestamp { query } => {
                o.queries.insert(*query, current);
                Route::Frame
            }
            Record::QueryResult { query, .. } => {
                Route::Device(o.queries.get(query).copied().unwrap_or(current))
            }
            Record::QueryResultToBuffer { query, buffer, .. } => {
                let device = o.queries.get(query).copied().unwrap_or(current);
                if device == current {
                    w.buffer(*buffer);
                } else {
                    w.uncarried = Some("query results written into buffers in a later frame");
                }
                Route::Device(device)
            }
            // Both devices made the query object; only the device map forgets it, so the
            // map holds live queries, not every query ever begun.
            Record::DestroyQuery { query } => {
                o.queries.remove(query);
                Route::Both
            }
            Record::InsertFence { fence, .. } => {
                o.fences.insert(*fence, current);
                Route::Frame
            }
            Record::WaitFence { fence, .. } => {
                Route::Device(o.fences.get(fence).copied().unwrap_or(current))
            }
            Record::DestroyFence { fence } => {
                Route::Device(o.fences.remove(fence).unwrap_or(current))
            }
            // Everything else creates, destroys or changes objects and state, or uploads:
            // both devices apply it (a record not listed here is replicated, which is
            // correct for any record, at the cost of running it twice).
            _ => Route::Both,
        }
    }

    /// Ends the current frame: carries what it wrote to the other device, lets the frame's
    /// fences report, and makes the other device the current one.
    fn end_frame(&mut self, seq: u64, out: &mut Outbox) -> Result<(), SessionError> {
        let from = self.current;
        let to = 1 - from;
        let written = std::mem::take(&mut self.written);
        if let Some(what) = written.uncarried {
            note_uncarried(&mut self.warned, what);
        }
        if !written.is_empty() {
            self.carry(&written, seq, from, to)?;
        }
        // The frame's fences signalled (the carry waited for its work, or the device is
        // idle soon): report them now, before fences of the other device can.
        for _ in 0..100 {
            if !self.devices[from].poll_fences(1_000_000_000, out)? {
                break;
            }
        }
        self.current = to;
        self.stats.frames += 1;
        Ok(())
    }

    /// Reads what `written` names on device `from` and writes it on device `to`.
    fn carry(
        &mut self,
        written: &Written,
        seq: u64,
        from: usize,
        to: usize,
    ) -> Result<(), SessionError> {
        enum Item {
            Image(TextureHandle, u8, u8, Image, PixelLayout),
            Buffer(BufferHandle),
        }
        let mut items = Vec::new();
        let mut reads = Vec::new();
        let mut textures = written.textures.clone();
        textures.sort_by_key(|t| (t.slot, t.generation));
        for texture in textures {
            let Some(images) = self.objects.textures.get(&texture) else {
                continue;
            };
            let mut keys: Vec<_> = images.keys().copied().collect();
            keys.sort_unstable();
            for (level, face) in keys {
                let image = images[&(level, face)];
                let Some(layout) = image.format.exact_layout().filter(|_| image.samples <= 1)
                else {
                    note_uncarried(
                        &mut self.warned,
                        "multisample, compressed and depth/stencil images",
                    );
                    continue;
                };
                if image.size.contains(&0) {
                    continue;
                }
                let reply = ReplyId(items.len() as u32);
                reads.push(Record::ReadTexture {
                    texture,
                    level,
                    face,
                    layout,
                    read: Box::new(TextureRead {
                        size: image.size,
                        dst: PixelDestination::Reply(reply),
                    }),
                });
                items.push(Item::Image(texture, level, face, image, layout));
            }
        }
        let mut buffers = written.buffers.clone();
        buffers.sort_by_key(|b| (b.slot, b.generation));
        for buffer in buffers {
            let Some(&size) = self.objects.buffers.get(&buffer).filter(|s| **s > 0) else {
                continue;
            };
            reads.push(Record::ReadBuffer {
                buffer,
                range: Box::new(BufferRange { offset: 0, size }),
                reply: ReplyId(items.len() as u32),
            });
            items.push(Item::Buffer(buffer));
        }
        if items.is_empty() {
            return Ok(());
        }
        let mut answers = Outbox::default();
        self.apply_records(from, seq, reads, Vec::new(), &mut answers)?;
        let mut bytes: Vec<Option<Vec<u8>>> = vec![None; items.len()];
        for (id, reply) in answers.replies {
            if let (Reply::Bytes(b), Some(slot)) = (reply, bytes.get_mut(id.0 as usize)) {
                *slot = Some(b);
            }
        }
        let mut stage = Vec::new();
        let mut writes = Vec::new();
        for (item, data) in items.into_iter().zip(bytes) {
            let Some(data) = data else {
                return Err(SessionError::Backend(
                    "alternate-frame rendering: a carry's read-back got no bytes".to_owned(),
                ));
            };
            stage.resize(stage.len().next_multiple_of(STAGE_ALIGN), 0);
            let span = Span {
                offset: stage.len() as u32,
                len: data.len() as u32,
            };
            stage.extend_from_slice(&data);
            self.stats.carried_bytes += data.len() as u64;
            match item {
                Item::Image(texture, level, face, image, layout) => {
                    self.stats.carried_images += 1;
                    writes.push(Record::WriteTexture {
                        texture,
                        level,
                        face,
                        region: Box::new(TextureRegion {
                            origin: [0; 3],
                            size: image.size,
                        }),
                        layout,
                        data: span,
                    });
                }
                Item::Buffer(buffer) => {
                    self.stats.carried_buffers += 1;
                    writes.push(Record::WriteBuffer {
                        buffer,
                        offset: 0,
                        data: span,
                    });
                }
            }
        }
        let mut discard = Outbox::default();
        self.apply_records(to, seq, writes, stage, &mut discard)
    }

    /// Archives `records` with `stage` as one batch and applies it to device `device`.
    fn apply_records(
        &mut self,
        device: usize,
        seq: u64,
        records: Vec<Record>,
        stage: Vec<u8>,
        out: &mut Outbox,
    ) -> Result<(), SessionError> {
        let batch = Batch {
            seq,
            stage_len: stage.len() as u32,
            records,
        };
        self.archiver.archive(&batch, &mut self.scratch);
        let archived = access_batch(&self.scratch, &stage)?;
        self.devices[device].apply(
            BatchView {
                archived,
                bytes: &self.scratch,
                stage: &stage,
                heap: None,
            },
            out,
        )
    }
}

/// Logs once per session that writes of `what` are not carried.
fn note_uncarried(warned: &mut Vec<&'static str>, what: &'static str) {
    if !warned.contains(&what) {
        warned.push(what);
        log::warn!(
            "alternate-frame rendering: {what} written by the GPU are not carried between devices"
        );
    }
}

/// A draw, clear or blit writes the images attached to the framebuffer the context draws
/// into.
fn drew(o: &Objects, w: &mut Written) {
    match o.bound.get(&o.context) {
        Some(FramebufferRef::Object(fb)) => {
            let Some(state) = o.framebuffers.get(fb) else {
                return;
            };
            for a in state.colors.iter().chain([&state.depth, &state.stencil]) {
                match a {
                    Attachment::Texture { texture, .. } => w.texture(*texture),
                    Attachment::Renderbuffer(_) => w.uncarried = Some("renderbuffers"),
                    Attachment::None => {}
                }
            }
        }
        Some(FramebufferRef::Surface(_)) | None => {}
        Some(FramebufferRef::None) => {}
    }
}

/// A draw or dispatch may write the storage buffers and images bound for writing.
fn shaders_wrote(o: &Objects, w: &mut Written) {
    for ((c, _), b) in &o.storage {
        if *c == o.context {
            w.buffer(*b);
        }
    }
    for ((c, _), t) in &o.images {
        if *c == o.context {
            w.texture(*t);
        }
    }
}

impl Backend for AfrBackend {
    fn caps(&self) -> Caps {
        self.devices[0].caps()
    }

    fn apply(&mut self, batch: BatchView<'_>, out: &mut Outbox) -> Result<(), SessionError> {
        let current = self.current;
        let mut ends_frame = false;
        let mut everywhere = true;
        let (mut mine, mut other, mut theirs_replies) = std::mem::take(&mut self.split);
        mine.clear();
        other.clear();
        theirs_replies.clear();
        for archived in batch.archived.records.iter() {
            let record = decode_record(archived)?;
            // A session that presents ends its frames there; a read-back or `glFinish` in
            // the middle of its frame stays on the frame's device, whose surface holds what
            // the frame drew so far (surfaces are not carried).
            self.presents |= matches!(record, Record::Present { .. });
            ends_frame |= match record {
                Record::Present { .. } => true,
                Record::Finish { .. }
                | Record::ReadPixels { .. }
                | Record::ReadTexture { .. }
                | Record::ReadCompressedTexture { .. }
                | Record::ReadBuffer { .. } => !self.presents,
                _ => false,
            };
            let device = match self.route(&record) {
                Route::Both => None,
                Route::Frame => Some(current),
                Route::Device(d) => Some(d),
            };
            if device == Some(1 - current) {
                theirs_replies.extend(reply_of(&record));
            }
            match device {
                None => {
                    mine.push(record.clone());
                    other.push(record);
                }
                Some(d) if d == current => {
                    mine.push(record);
                }
                Some(_) => {
                    everywhere = false;
                    other.push(record);
                }
            }
        }
        // The frame's device applies the batch as it came whenever it takes all of it.
        if everywhere {
            self.devices[current].apply(batch, out)?;
        } else {
            self.apply_records_with_heap(current, batch, &mut mine, out)?;
        }
        if !other.is_empty() {
            let mut theirs = Outbox::default();
            self.apply_records_with_heap(1 - current, batch, &mut other, &mut theirs)?;
            // Only the replies it alone was asked for, and what only it can say.
            out.replies.extend(
                theirs
                    .replies
                    .into_iter()
                    .filter(|(id, _)| theirs_replies.contains(id)),
            );
            out.replies.sort_by_key(|(id, _)| *id);
            out.events.extend(theirs.events.into_iter().filter(|e| {
                matches!(
                    e,
                    Event::FencesCompleted { .. }
                        | Event::DeviceLost { .. }
                        | Event::OutOfMemory { .. }
                )
            }));
        }
        self.split = (mine, other, theirs_replies);
        if ends_frame {
            self.end_frame(batch.archived.seq.to_native(), out)?;
        }
        Ok(())
    }

    /// The current device's creations; device memory summed over both devices (each holds
    /// the session's objects: the replicated state).
    fn counters(&self) -> Option<BackendCounters> {
        let mut counters = self.devices[self.current].counters()?;
        counters.device_memory = self
            .devices
            .iter()
            .filter_map(|d| d.counters())
            .map(|c| c.device_memory)
            .sum();
        Some(counters)
    }

    fn native_census(&self) -> Option<NativeCensus> {
        self.devices[0].native_census()
    }

    fn release_thread(&mut self) {
        for d in &mut self.devices {
            d.release_thread();
        }
    }

    fn poll_fences(&mut self, timeout_ns: u64, out: &mut Outbox) -> Result<bool, SessionError> {
        self.devices[self.current].poll_fences(timeout_ns, out)
    }
}

impl AfrBackend {
    /// [`AfrBackend::apply_records`] for a client's batch: its seq, stage and heap.
    fn apply_records_with_heap(
        &mut self,
        device: usize,
        batch: BatchView<'_>,
        records: &mut Vec<Record>,
        out: &mut Outbox,
    ) -> Result<(), SessionError> {
        let b = Batch {
            seq: batch.archived.seq.to_native(),
            stage_len: batch.stage.len() as u32,
            records: std::mem::take(records),
        };
        self.archiver.archive(&b, &mut self.scratch);
        // The vector goes back to the caller, to be reused for the next batch.
        *records = b.records;
        let archived = access_batch(&self.scratch, batch.stage)?;
        self.devices[device].apply(
            BatchView {
                archived,
                bytes: &self.scratch,
                stage: batch.stage,
                heap: batch.heap,
            },
            out,
        )
    }
}

/// The reply a record asks for, if it asks for one.
fn reply_of(record: &Record) -> Option<ReplyId> {
    match record {
        Record::QueryResult { reply, .. }
        | Record::WaitFence { reply, .. }
        | Record::Finish { reply }
        | Record::ReadBuffer { reply, .. } => Some(*reply),
        _ => None,
    }
}

impl Drop for AfrBackend {
    fn drop(&mut self) {
        let s = self.stats;
        log::info!(
            "alternate-frame rendering on {} and {}: {} frames, {} bytes carried ({} images, \
             {} buffers; {:.0} bytes a frame)",
            self.names[0],
            self.names[1],
            s.frames,
            s.carried_bytes,
            s.carried_images,
            s.carried_buffers,
            s.carried_bytes as f64 / s.frames.max(1) as f64
        );
    }
}

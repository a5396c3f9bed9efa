//! The null backend: validates and counts every record, draws nothing.
//!
//! It exists for CPU-only tests and for measuring the frontend alone (ANGLE's `vulkan_null`,
//! wgpu's `empty`). It is strict where a real backend would be: every handle must be live
//! (created, not destroyed, same generation), every create must take a free slot with a newer
//! generation, every span must lie inside the stage, a bound CSO must not be destroyed, and
//! buffer writes must stay inside the buffer. The checks common to every backend happen in
//! the [dispatcher](crate::dispatch); this file only keeps buffer bytes and checks ranges. Buffers keep their bytes, so buffer read-backs
//! and copies answer with real contents; pixel read-backs answer zeros of the right size.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::backend::{Backend, BatchView, Caps, Outbox, SessionError, bad_value};
use crate::batch::{Stage, decode_record};
use crate::context::DesiredState;
use crate::dispatch::{
    BlitArgs, BlockReadback, BlockWrite, BufferPipe, BufferWrite, Bytes, ClearArgs, ContextPipe,
    CsoPipe, Dispatcher, DrawArgs, DrawIndexedArgs, DrawIndirectArgs, DrawPipe, FramebufferPipe,
    FromBuffer, ImageRef, ProgramPipe, QueryPipe, R, RenderbufferStorage, StateGroup, TexelBuffer,
    TextureClear, TextureImage, TexturePipe, TextureReadback, TextureWrite,
};
use crate::format::{PixelLayout, QueryKind, TextureKind, Topology};
use crate::handle::{
    BlendHandle, BufferHandle, DepthStencilHandle, FenceHandle, FramebufferHandle, ObjectKind,
    ProgramHandle, QueryHandle, RasterHandle, RenderbufferHandle, SamplerHandle, SurfaceHandle,
    TextureHandle, VertexLayoutHandle,
};
use crate::record::{
    ArchivedRecord, BufferBlocks, BufferCopy, BufferRange, ClearValue, ImageCopy, ProgramDesc,
    ReadSource, Record, TextureCopy, TextureViewDesc,
};
use crate::state::{
    BlendState, DepthStencilState, FramebufferState, RasterState, Rect, SamplerState, SurfaceDesc,
    TextureView, VertexLayout,
};
use crate::table::{SlotTable, buffer_range};

/// The engine's path to [`crate::pixel::pixel_size`], from when it lived here.
pub use crate::pixel::pixel_size;

/// Largest buffer the null backend stores (it keeps buffer bytes to answer read-backs): a
/// client, possibly another process, must not make it allocate without bound.
pub const MAX_NULL_BUFFER: usize = 1 << 28;

/// What the null backend saw; shared with whoever created it.
#[derive(Debug, Default, Clone)]
pub struct NullStats {
    /// Batches applied.
    pub batches: u64,
    /// Records applied.
    pub records: u64,
    /// Records applied, by record name.
    pub by_name: BTreeMap<&'static str, u64>,
    /// Archived batch bytes received.
    pub record_bytes: u64,
    /// Stage bytes received.
    pub stage_bytes: u64,
    /// Every batch received, as (archive, stage) bytes, when capturing.
    pub captured: Vec<(Vec<u8>, Vec<u8>)>,
    /// Records of the batches applied, decoded, when capturing.
    pub captured_records: Vec<Record>,
    /// Live objects per kind.
    pub live: [u32; ObjectKind::COUNT],
}

impl NullStats {
    /// Records of one name applied so far.
    pub fn count(&self, name: &str) -> u64 {
        self.by_name.get(name).copied().unwrap_or(0)
    }
}

/// A shared view of a null backend's counters.
#[derive(Debug, Clone, Default)]
pub struct NullProbe(Arc<Mutex<NullStats>>);

impl NullProbe {
    /// A snapshot of the counters.
    pub fn stats(&self) -> NullStats {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Takes the captured records so far, leaving none.
    pub fn take_records(&self) -> Vec<Record> {
        std::mem::take(
            &mut self
                .0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .captured_records,
        )
    }

    /// Takes the captured batches so far, leaving none.
    pub fn take_batches(&self) -> Vec<(Vec<u8>, Vec<u8>)> {
        std::mem::take(
            &mut self
                .0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .captured,
        )
    }
}

/// The null backend.
pub struct NullBackend {
    probe: NullProbe,
    dispatcher: Dispatcher<DesiredState>,
    pipe: NullPipe,
}

/// What the null backend does with each record: keep buffer bytes, check ranges, count.
struct NullPipe {
    capture: bool,
    /// Buffers keep their bytes, to answer read-backs and copies.
    buffers: SlotTable<BufferHandle, Vec<u8>>,
    /// Records applied by name since the last batch ended.
    pending: BTreeMap<&'static str, u64>,
    /// Records decoded for the probe, when capturing.
    decoded: Vec<Record>,
}

impl NullBackend {
    /// A null backend and the probe that observes it. With `capture`, every batch's bytes and
    /// decoded records are kept for inspection.
    pub fn new(capture: bool) -> (Self, NullProbe) {
        let probe = NullProbe::default();
        let backend = Self {
            probe: probe.clone(),
            dispatcher: Dispatcher::new(),
            pipe: NullPipe {
                capture,
                buffers: SlotTable::new(),
                pending: BTreeMap::new(),
                decoded: Vec::new(),
            },
        };
        (backend, probe)
    }
}

impl NullPipe {
    /// The bytes `offset..offset + len` of a live buffer's storage.
    fn buffer_bytes(
        &mut self,
        record: &'static str,
        buffer: BufferHandle,
        offset: u64,
        len: u64,
    ) -> Result<&mut [u8], SessionError> {
        let storage = self.buffers.get_mut(record, buffer)?;
        let end = buffer_range(record, offset, len, storage.len() as u64)?;
        Ok(&mut storage[offset as usize..end as usize])
    }
}

/// Zero bytes for a read-back of `count` pixels of `layout`.
fn zeros(count: usize, layout: PixelLayout) -> Vec<u8> {
    vec![0; count * pixel_size(layout.format, layout.ty)]
}

impl ContextPipe for NullPipe {
    type Context = DesiredState;

    fn create_context(&mut self) -> Result<DesiredState, SessionError> {
        Ok(DesiredState::default())
    }
    fn context_switched(&mut self, _: &mut DesiredState) {}
    fn destroy_context(&mut self, _: DesiredState) {}
    fn state_changed(&mut self, _: &mut DesiredState, _: StateGroup) {}

    fn record_applied(&mut self, name: &'static str, record: &ArchivedRecord) {
        *self.pending.entry(name).or_insert(0) += 1;
        if self.capture
            && let Ok(record) = decode_record(record)
        {
            self.decoded.push(record);
        }
    }
}

impl BufferPipe for NullPipe {
    fn create_buffer(&mut self, buffer: BufferHandle, size: u64) -> R {
        const N: &str = "CreateBuffer";
        let size = usize::try_from(size)
            .ok()
            .filter(|s| *s <= MAX_NULL_BUFFER)
            .ok_or_else(|| bad_value(N, format!("size {size}")))?;
        let zeros = vec![0; size];
        match self.buffers.get_mut(N, buffer) {
            Ok(storage) => *storage = zeros,
            Err(_) => self.buffers.insert(N, buffer, zeros)?,
        }
        Ok(())
    }
    fn destroy_buffer(&mut self, buffer: BufferHandle) -> R {
        self.buffers.remove("DestroyBuffer", buffer).map(drop)
    }
    fn write_buffer(&mut self, record: &'static str, w: BufferWrite<'_>) -> R {
        self.buffer_bytes(record, w.buffer, w.offset, w.bytes.len() as u64)?
            .copy_from_slice(w.bytes);
        Ok(())
    }
    fn copy_buffer(&mut self, src: BufferHandle, dst: BufferHandle, region: BufferCopy) -> R {
        const N: &str = "CopyBuffer";
        let bytes = self
            .buffer_bytes(N, src, region.src_offset, region.size)?
            .to_vec();
        self.buffer_bytes(N, dst, region.dst_offset, region.size)?
            .copy_from_slice(&bytes);
        Ok(())
    }
    fn read_buffer(&mut self, buffer: BufferHandle, range: BufferRange) -> Bytes {
        let bytes = self.buffer_bytes("ReadBuffer", buffer, range.offset, range.size)?;
        Ok(bytes.to_vec())
    }
}

/// Textures have no contents in the null backend; uploads from buffers check their ranges.
impl TexturePipe for NullPipe {
    fn create_texture(&mut self, _: TextureHandle, _: TextureKind) -> R {
        Ok(())
    }
    /// Consumed like every record (the descriptor closed): the null backend's caps offer
    /// no semaphores, so only a context with the extensions forced on sends one (the
    /// engine's error tests).
    fn wait_semaphore(&mut self, op: crate::record::SemaphoreOp) -> R {
        drop(crate::backend::take_handed_fd(op.fd_token));
        Ok(())
    }
    /// As `wait_semaphore`.
    fn signal_semaphore(&mut self, op: crate::record::SemaphoreOp) -> R {
        drop(crate::backend::take_handed_fd(op.fd_token));
        Ok(())
    }
    fn create_texture_view(&mut self, _: TextureHandle, _: TextureViewDesc) -> R {
        Ok(())
    }
    fn destroy_texture(&mut self, _: TextureHandle) -> R {
        Ok(())
    }
    fn define_texture_image(&mut self, _: TextureHandle, _: TextureImage) -> R {
        Ok(())
    }
    fn write_texture(&mut self, _: TextureHandle, _: TextureWrite<'_>) -> R {
        Ok(())
    }
    fn write_compressed_texture(&mut self, _: TextureHandle, _: BlockWrite<'_>) -> R {
        Ok(())
    }
    fn write_texture_from_buffer(&mut self, _: TextureHandle, w: FromBuffer) -> R {
        let source = w.source;
        let [width, height, depth] = source.region.size.map(u64::from);
        let extent = if width == 0 || height == 0 || depth == 0 {
            0
        } else {
            (depth - 1) * u64::from(source.image_stride)
                + (height - 1) * u64::from(source.row_stride)
                + width * pixel_size(w.layout.format, w.layout.ty) as u64
        };
        let n = "WriteTextureFromBuffer";
        self.buffer_bytes(n, source.buffer, source.offset, extent)
            .map(drop)
    }
    fn write_blocks_from_buffer(&mut self, _: TextureHandle, _: ImageRef, src: BufferBlocks) -> R {
        let (n, r) = ("WriteCompressedTextureFromBuffer", src.range);
        self.buffer_bytes(n, src.buffer, r.offset, r.size).map(drop)
    }
    fn read_texture(&mut self, _: TextureHandle, read: TextureReadback) -> Bytes {
        let count = read.size.iter().map(|&s| s as usize).product();
        Ok(zeros(count, read.layout))
    }
    fn read_compressed_texture(&mut self, _: TextureHandle, _: BlockReadback) -> Bytes {
        // No formats are kept: the engine pads the empty answer with zeros.
        Ok(Vec::new())
    }
    fn generate_mipmap(&mut self, _: TextureHandle, _: u8, _: u8) -> R {
        Ok(())
    }
    fn set_texture_view(&mut self, _: TextureHandle, _: TextureView) -> R {
        Ok(())
    }
    fn set_texture_buffer(&mut self, _: TextureHandle, _: TexelBuffer) -> R {
        Ok(())
    }
    fn copy_image(&mut self, _: ImageCopy) -> R {
        Ok(())
    }
    fn clear_texture(&mut self, _: TextureHandle, _: TextureClear) -> R {
        Ok(())
    }
}

impl FramebufferPipe for NullPipe {
    fn create_surface(&mut self, _: SurfaceHandle, _: SurfaceDesc) -> R {
        Ok(())
    }
    fn destroy_surface(&mut self, _: SurfaceHandle) -> R {
        Ok(())
    }
    fn create_framebuffer(&mut self, _: FramebufferHandle) -> R {
        Ok(())
    }
    fn set_framebuffer_state(&mut self, _: FramebufferHandle, _: FramebufferState) -> R {
        Ok(())
    }
    fn destroy_framebuffer(&mut self, _: FramebufferHandle) -> R {
        Ok(())
    }
    fn create_renderbuffer(&mut self, _: RenderbufferHandle) -> R {
        Ok(())
    }
    fn define_renderbuffer(&mut self, _: RenderbufferHandle, _: RenderbufferStorage) -> R {
        Ok(())
    }
    fn destroy_renderbuffer(&mut self, _: RenderbufferHandle) -> R {
        Ok(())
    }
    fn read_pixels(&mut self, _: ReadSource, rect: Rect, layout: PixelLayout) -> Bytes {
        let count = rect.width.max(0) as usize * rect.height.max(0) as usize;
        Ok(zeros(count, layout))
    }
    fn copy_texture(&mut self, _: TextureHandle, _: ImageRef, _: TextureCopy) -> R {
        Ok(())
    }
}

/// CSOs are checked (live, not destroyed while bound) by the dispatcher; nothing to keep.
impl CsoPipe for NullPipe {
    fn create_blend_state(&mut self, _: BlendHandle, _: BlendState) -> R {
        Ok(())
    }
    fn bind_blend_state(&mut self, _: &mut DesiredState, _: BlendHandle) -> R {
        Ok(())
    }
    fn destroy_blend_state(&mut self, _: BlendHandle) -> R {
        Ok(())
    }
    fn create_depth_stencil_state(&mut self, _: DepthStencilHandle, _: DepthStencilState) -> R {
        Ok(())
    }
    fn bind_depth_stencil_state(&mut self, _: &mut DesiredState, _: DepthStencilHandle) -> R {
        Ok(())
    }
    fn destroy_depth_stencil_state(&mut self, _: DepthStencilHandle) -> R {
        Ok(())
    }
    fn create_raster_state(&mut self, _: RasterHandle, _: RasterState) -> R {
        Ok(())
    }
    fn bind_raster_state(&mut self, _: &mut DesiredState, _: RasterHandle) -> R {
        Ok(())
    }
    fn destroy_raster_state(&mut self, _: RasterHandle) -> R {
        Ok(())
    }
    fn create_sampler_state(&mut self, _: SamplerHandle, _: SamplerState) -> R {
        Ok(())
    }
    fn destroy_sampler_state(&mut self, _: SamplerHandle) -> R {
        Ok(())
    }
    fn create_vertex_layout(&mut self, _: VertexLayoutHandle, _: VertexLayout) -> R {
        Ok(())
    }
    fn bind_vertex_layout(&mut self, _: &mut DesiredState, _: VertexLayoutHandle) -> R {
        Ok(())
    }
    fn destroy_vertex_layout(&mut self, _: VertexLayoutHandle) -> R {
        Ok(())
    }
}

impl ProgramPipe for NullPipe {
    fn create_program(&mut self, _: ProgramHandle, _: &ProgramDesc, _: Stage<'_>) -> R {
        Ok(())
    }
    fn destroy_program(&mut self, _: ProgramHandle) -> R {
        Ok(())
    }
}

impl DrawPipe for NullPipe {
    fn draw(&mut self, _: &mut DesiredState, _: DrawArgs) -> R {
        Ok(())
    }
    fn draw_indexed(&mut self, _: &mut DesiredState, _: DrawIndexedArgs) -> R {
        Ok(())
    }
    fn draw_indirect(&mut self, _: &mut DesiredState, _: DrawIndirectArgs) -> R {
        Ok(())
    }
    fn clear(&mut self, _: &mut DesiredState, _: ClearArgs) -> R {
        Ok(())
    }
    fn clear_buffer(&mut self, _: &mut DesiredState, _: u8, _: ClearValue) -> R {
        Ok(())
    }
    fn blit(&mut self, _: &mut DesiredState, _: BlitArgs) -> R {
        Ok(())
    }
    fn begin_conditional_render(&mut self, _: &mut DesiredState, _: QueryHandle, _: bool) -> R {
        Ok(())
    }
    fn end_conditional_render(&mut self, _: &mut DesiredState) -> R {
        Ok(())
    }
    fn flush(&mut self) -> R {
        Ok(())
    }
    fn finish(&mut self) -> R {
        Ok(())
    }
    fn present(&mut self, _: SurfaceHandle) -> R {
        Ok(())
    }
}

/// Nothing is captured.
/// Dispatches run nothing; an indirect one's three counts must lie inside its buffer.
impl crate::dispatch::ComputePipe for NullPipe {
    fn dispatch(&mut self, _: &mut DesiredState, _: [u32; 3]) -> R {
        Ok(())
    }
    fn dispatch_indirect(&mut self, _: &mut DesiredState, buffer: BufferHandle, offset: u64) -> R {
        self.buffer_bytes("DispatchIndirect", buffer, offset, 12)
            .map(drop)
    }
    fn memory_barrier(&mut self, _: &mut DesiredState, _: u32) -> R {
        Ok(())
    }
}

impl crate::dispatch::TransformFeedbackPipe for NullPipe {
    fn create_transform_feedback(&mut self, _: crate::handle::TransformFeedbackHandle) -> R {
        Ok(())
    }
    fn destroy_transform_feedback(&mut self, _: crate::handle::TransformFeedbackHandle) -> R {
        Ok(())
    }
    fn begin_transform_feedback(
        &mut self,
        _: &mut DesiredState,
        _: crate::handle::TransformFeedbackHandle,
        _: crate::record::XfbPrimitive,
        _: [crate::record::XfbBinding; crate::record::MAX_XFB_BUFFERS],
    ) -> R {
        Ok(())
    }
    fn pause_transform_feedback(
        &mut self,
        _: &mut DesiredState,
        _: crate::handle::TransformFeedbackHandle,
    ) -> R {
        Ok(())
    }
    fn resume_transform_feedback(
        &mut self,
        _: &mut DesiredState,
        _: crate::handle::TransformFeedbackHandle,
    ) -> R {
        Ok(())
    }
    fn end_transform_feedback(
        &mut self,
        _: &mut DesiredState,
        _: crate::handle::TransformFeedbackHandle,
    ) -> R {
        Ok(())
    }
    fn draw_transform_feedback(
        &mut self,
        _: &mut DesiredState,
        _: Topology,
        _: crate::handle::TransformFeedbackHandle,
        _: u32,
        _: u8,
    ) -> R {
        Ok(())
    }
}

/// Queries answer 0 and fences are always signalled.
impl QueryPipe for NullPipe {
    fn create_query(&mut self, _: QueryHandle, _: QueryKind) -> R {
        Ok(())
    }
    fn begin_query(&mut self, _: QueryHandle) -> R {
        Ok(())
    }
    fn begin_query_indexed(&mut self, _: QueryHandle, _: u32) -> R {
        Ok(())
    }
    fn end_query(&mut self, _: QueryHandle) -> R {
        Ok(())
    }
    fn query_timestamp(&mut self, _: QueryHandle) -> R {
        Ok(())
    }
    fn query_result(&mut self, _: QueryHandle) -> Result<u64, SessionError> {
        Ok(0)
    }
    fn destroy_query(&mut self, _: QueryHandle) -> R {
        Ok(())
    }
    fn insert_fence(&mut self, _: FenceHandle) -> R {
        Ok(())
    }
    fn wait_fence(&mut self, _: FenceHandle, _: u64) -> Result<bool, SessionError> {
        Ok(true)
    }
    fn destroy_fence(&mut self, _: FenceHandle) -> R {
        Ok(())
    }
}

impl Backend for NullBackend {
    fn caps(&self) -> Caps {
        Caps::gl33_minimum("null")
    }

    /// The null backend creates nothing natively: always zero.
    fn counters(&self) -> Option<crate::backend::BackendCounters> {
        Some(crate::backend::BackendCounters::default())
    }

    fn poll_fences(&mut self, timeout_ns: u64, out: &mut Outbox) -> Result<bool, SessionError> {
        self.dispatcher.poll_fences(&mut self.pipe, timeout_ns, out)
    }

    fn apply(&mut self, batch: BatchView<'_>, out: &mut Outbox) -> Result<(), SessionError> {
        let result = self.dispatcher.apply(&mut self.pipe, batch, out);
        let mut stats = self.probe.0.lock().unwrap_or_else(PoisonError::into_inner);
        stats.batches += 1;
        for (name, n) in std::mem::take(&mut self.pipe.pending) {
            stats.records += n;
            *stats.by_name.entry(name).or_insert(0) += n;
        }
        stats.stage_bytes += batch.stage.len() as u64;
        stats.record_bytes += batch.bytes.len() as u64;
        if self.pipe.capture {
            stats
                .captured
                .push((batch.bytes.to_vec(), batch.stage.to_vec()));
            stats.captured_records.append(&mut self.pipe.decoded);
        }
        stats.live = self.dispatcher.registry().live_counts();
        result
    }
}

#[cfg(test)]
mod tests {
    use rkyv::util::AlignedVec;

    use super::*;
    use crate::backend::Reply;
    use crate::batch::{Archiver, Encoder, access_batch};
    use crate::handle::Handle;
    use crate::record::{BufferCopy, HeapRange};
    use crate::transport::heap::{HeapView, SharedHeap};

    /// Applies what `enc` holds as one batch.
    fn apply(null: &mut NullBackend, enc: &mut Encoder) -> (Result<(), SessionError>, Outbox) {
        apply_with(null, enc, None)
    }

    /// [`apply`] on a session with a mapping heap.
    fn apply_with(
        null: &mut NullBackend,
        enc: &mut Encoder,
        heap: Option<&HeapView>,
    ) -> (Result<(), SessionError>, Outbox) {
        let (mut archive, mut stage) = (AlignedVec::new(), Vec::new());
        enc.finish(&mut Archiver::default(), &mut archive, &mut stage);
        let batch = BatchView {
            archived: access_batch(&archive, &stage).unwrap(),
            bytes: &archive,
            stage: &stage,
            heap,
        };
        let mut out = Outbox::default();
        (null.apply(batch, &mut out), out)
    }

    /// Reads `size` bytes of `buffer` back through a batch of its own.
    fn read(null: &mut NullBackend, heap: &HeapView, buffer: BufferHandle, size: u64) -> Vec<u8> {
        let mut enc = Encoder::new();
        let reply = enc.mint_reply();
        enc.push(Record::ReadBuffer {
            buffer,
            range: Box::new(BufferRange { offset: 0, size }),
            reply,
        });
        let (result, out) = apply_with(null, &mut enc, Some(heap));
        assert_eq!(result, Ok(()));
        match &out.replies[..] {
            [(_, Reply::Bytes(bytes))] => bytes.clone(),
            other => panic!("no bytes: {other:?}"),
        }
    }

    #[test]
    fn heap_ranges_reach_their_buffer_at_each_batch_and_bad_ones_end_the_session() {
        let mut heap = SharedHeap::create().unwrap();
        let view = HeapView::map(heap.fd()).unwrap();
        let (mut null, _probe) = NullBackend::new(false);
        let buffer = BufferHandle {
            slot: 0,
            generation: 1,
        };
        let mut block = heap.alloc(256, 4, 0).unwrap();
        block.fill(1);
        let mut enc = Encoder::new();
        enc.push(Record::CreateBuffer { buffer, size: 260 });
        enc.push(Record::AttachHeapRange {
            buffer,
            range: Box::new(HeapRange {
                offset: 4,
                heap: block.heap_offset(),
                size: 256,
            }),
        });
        assert_eq!(apply_with(&mut null, &mut enc, Some(&view)).0, Ok(()));
        let mut want = vec![1u8; 260];
        want[..4].fill(0);
        assert_eq!(read(&mut null, &view, buffer, 260), want);
        // Written through the block with no record: the next batch sees it.
        block[2] = 9;
        want[6] = 9;
        assert_eq!(read(&mut null, &view, buffer, 260), want);
        // A record's write and a GPU-side copy are kept where the block did not change.
        let data = enc.stage(&[7, 7]);
        enc.push(Record::WriteBuffer {
            buffer,
            offset: 0,
            data,
        });
        enc.push(Record::CopyBuffer {
            src: buffer,
            dst: buffer,
            region: Box::new(BufferCopy {
                src_offset: 0,
                dst_offset: 258,
                size: 2,
            }),
        });
        assert_eq!(apply_with(&mut null, &mut enc, Some(&view)).0, Ok(()));
        want[..2].fill(7);
        want[258..].fill(7);
        assert_eq!(read(&mut null, &view, buffer, 260), want);
        // Detached: the block's last change goes in, later ones do not.
        block[0] = 5;
        enc.push(Record::DetachHeapRange { buffer });
        assert_eq!(apply_with(&mut null, &mut enc, Some(&view)).0, Ok(()));
        block[1] = 5;
        want[4] = 5;
        assert_eq!(read(&mut null, &view, buffer, 260), want);
        // A range outside the heap, or a session without one, ends the session.
        for (heap_offset, with) in [(view.len() - 4, Some(&view)), (0, None)] {
            enc.push(Record::AttachHeapRange {
                buffer,
                range: Box::new(HeapRange {
                    offset: 0,
                    heap: heap_offset,
                    size: 8,
                }),
            });
            let (result, _) = apply_with(&mut null, &mut enc, with);
            assert!(
                matches!(
                    result,
                    Err(SessionError::BadValue {
                        record: "AttachHeapRange",
                        ..
                    })
                ),
                "{result:?}"
            );
        }
    }

    #[test]
    fn buffers_keep_bytes_and_stale_handles_end_the_session() {
        let (mut null, probe) = NullBackend::new(false);
        let buffer = BufferHandle {
            slot: 0,
            generation: 1,
        };
        let texture = TextureHandle {
            slot: 3,
            generation: 1,
        };
        let mut enc = Encoder::new();
        let data = enc.stage(&[1, 2, 3, 4]);
        let reply = enc.mint_reply();
        enc.push(Record::CreateBuffer { buffer, size: 6 });
        enc.push(Record::WriteBuffer {
            buffer,
            offset: 1,
            data,
        });
        enc.push(Record::ReadBuffer {
            buffer,
            range: Box::new(BufferRange { offset: 0, size: 6 }),
            reply,
        });
        enc.push(Record::CreateTexture {
            texture,
            kind: TextureKind::D2,
        });
        let (result, out) = apply(&mut null, &mut enc);
        assert_eq!(result, Ok(()));
        assert_eq!(out.replies, [(reply, Reply::Bytes(vec![0, 1, 2, 3, 4, 0]))]);
        let live = probe.stats().live;
        assert_eq!(live[ObjectKind::Buffer.index()], 1);
        assert_eq!(live[ObjectKind::Texture.index()], 1);

        enc.push(Record::DestroyTexture { texture });
        enc.push(Record::GenerateMipmap {
            texture,
            base: 0,
            max: 0,
        });
        let (result, _) = apply(&mut null, &mut enc);
        assert_eq!(
            result,
            Err(SessionError::StaleHandle {
                record: "GenerateMipmap",
                kind: ObjectKind::Texture,
                handle: texture.raw(),
            })
        );
        assert_eq!(probe.stats().live[ObjectKind::Texture.index()], 0);
    }
}

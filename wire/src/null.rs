//! The null backend: validates and counts every record, draws nothing.
//!
//! It exists for CPU-only tests and for measuring the frontend alone (ANGLE's `vulkan_null`,
//! wgpu's `empty`). It is strict where a real backend would be: every handle must be live
//! (created, not destroyed, same generation), every create must take a free slot with a newer
//! generation, every span must lie inside the stage, a bound CSO must not be destroyed, and
//! buffer writes must stay inside the buffer. Buffers keep their bytes, so buffer read-backs
//! and copies answer with real contents; pixel read-backs answer zeros of the right size.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::backend::BatchView;
use crate::backend::{Backend, Caps, Outbox, Reply, SessionError};
use crate::batch::{Stage, decode_record};
use crate::format::{PixelFormat, PixelType};
use crate::handle::{Handle, ObjectKind, RawHandle};
use crate::record::{PixelDestination, Record};

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

#[derive(Clone, Copy, Default)]
struct SlotState {
    generation: u32,
    live: bool,
}

/// The null backend.
pub struct NullBackend {
    probe: NullProbe,
    capture: bool,
    slots: [Vec<SlotState>; ObjectKind::COUNT],
    buffers: Vec<Vec<u8>>,
    bound: BoundCsos,
    pending: BTreeMap<&'static str, u64>,
    contexts: std::collections::BTreeSet<u32>,
}

#[derive(Default)]
struct BoundCsos {
    blend: Option<RawHandle>,
    depth_stencil: Option<RawHandle>,
    raster: Option<RawHandle>,
    vertex_layout: Option<RawHandle>,
}

impl NullBackend {
    /// A null backend and the probe that observes it. With `capture`, every batch's bytes and
    /// decoded records are kept for inspection.
    pub fn new(capture: bool) -> (Self, NullProbe) {
        let probe = NullProbe::default();
        let backend = Self {
            probe: probe.clone(),
            capture,
            slots: Default::default(),
            buffers: Vec::new(),
            bound: BoundCsos::default(),
            pending: BTreeMap::new(),
            contexts: std::collections::BTreeSet::new(),
        };
        (backend, probe)
    }

    fn live<H: Handle>(&self, record: &'static str, handle: H) -> Result<(), SessionError> {
        let raw = handle.raw();
        match self.slots[H::KIND.index()].get(raw.slot as usize) {
            Some(s) if s.live && s.generation == raw.generation => Ok(()),
            _ => Err(SessionError::StaleHandle {
                record,
                kind: H::KIND,
                handle: raw,
            }),
        }
    }

    fn live_opt<H: Handle>(&self, record: &'static str, h: Option<H>) -> Result<(), SessionError> {
        h.map_or(Ok(()), |h| self.live(record, h))
    }

    fn create<H: Handle>(&mut self, record: &'static str, handle: H) -> Result<(), SessionError> {
        let raw = handle.raw();
        let table = &mut self.slots[H::KIND.index()];
        let slot = raw.slot as usize;
        if slot >= table.len() {
            // Slots are dense: a client never skips far ahead; refuse absurd indices rather
            // than allocating for them.
            if slot > table.len() + (1 << 20) {
                return Err(SessionError::BadCreate {
                    record,
                    kind: H::KIND,
                    handle: raw,
                });
            }
            table.resize(slot + 1, SlotState::default());
        }
        let s = &mut table[slot];
        if s.live || raw.generation <= s.generation {
            return Err(SessionError::BadCreate {
                record,
                kind: H::KIND,
                handle: raw,
            });
        }
        *s = SlotState {
            generation: raw.generation,
            live: true,
        };
        Ok(())
    }

    fn destroy<H: Handle>(&mut self, record: &'static str, handle: H) -> Result<(), SessionError> {
        self.live(record, handle)?;
        self.slots[H::KIND.index()][handle.raw().slot as usize].live = false;
        Ok(())
    }

    fn buffer_mut(&mut self, slot: u32) -> &mut Vec<u8> {
        let slot = slot as usize;
        if self.buffers.len() <= slot {
            self.buffers.resize_with(slot + 1, Vec::new);
        }
        &mut self.buffers[slot]
    }

    fn buffer_range(
        &mut self,
        record: &'static str,
        slot: u32,
        offset: u64,
        len: u64,
    ) -> Result<std::ops::Range<usize>, SessionError> {
        let size = self.buffer_mut(slot).len() as u64;
        match offset.checked_add(len) {
            Some(end) if end <= size => Ok(offset as usize..end as usize),
            _ => Err(SessionError::BadValue {
                record,
                what: format!("range {offset}+{len} outside a {size}-byte buffer"),
            }),
        }
    }

    fn apply_record(
        &mut self,
        record: &Record,
        stage: Stage<'_>,
        out: &mut Outbox,
    ) -> Result<&'static str, SessionError> {
        use Record as R;
        let name: &'static str = match record {
            R::CreateContext { context } => {
                if !self.contexts.insert(*context) {
                    return Err(SessionError::BadValue {
                        record: "CreateContext",
                        what: format!("context {context} already exists"),
                    });
                }
                "CreateContext"
            }
            R::SetContext { context } => {
                self.known_context("SetContext", *context)?;
                "SetContext"
            }
            R::DestroyContext { context } => {
                self.known_context("DestroyContext", *context)?;
                self.contexts.remove(context);
                "DestroyContext"
            }
            R::CreateSurface { surface, .. } => {
                self.create("CreateSurface", *surface)?;
                "CreateSurface"
            }
            R::DestroySurface { surface } => {
                self.destroy("DestroySurface", *surface)?;
                "DestroySurface"
            }
            R::CreateFramebuffer { framebuffer } => {
                self.create("CreateFramebuffer", *framebuffer)?;
                "CreateFramebuffer"
            }
            R::SetFramebufferState { framebuffer, state } => {
                let n = "SetFramebufferState";
                self.live(n, *framebuffer)?;
                for a in state.colors.iter().chain([&state.depth, &state.stencil]) {
                    self.attachment(n, a)?;
                }
                n
            }
            R::DestroyFramebuffer { framebuffer } => {
                self.destroy("DestroyFramebuffer", *framebuffer)?;
                "DestroyFramebuffer"
            }
            R::BindFramebuffer { framebuffer } => {
                self.framebuffer_ref("BindFramebuffer", framebuffer)?;
                "BindFramebuffer"
            }
            R::SetDrawBuffers { .. } => "SetDrawBuffers",
            R::CreateBuffer { buffer, size } => {
                let n = "CreateBuffer";
                // Re-specifying storage of a live buffer is allowed; a new handle must be free.
                if self.live(n, *buffer).is_err() {
                    self.create(n, *buffer)?;
                }
                let size = usize::try_from(*size)
                    .ok()
                    .filter(|s| *s <= MAX_NULL_BUFFER)
                    .ok_or_else(|| SessionError::BadValue {
                        record: n,
                        what: format!("size {size}"),
                    })?;
                let storage = self.buffer_mut(buffer.slot);
                storage.clear();
                storage.resize(size, 0);
                n
            }
            R::DestroyBuffer { buffer } => {
                self.destroy("DestroyBuffer", *buffer)?;
                *self.buffer_mut(buffer.slot) = Vec::new();
                "DestroyBuffer"
            }
            R::WriteBuffer {
                buffer,
                offset,
                data,
            } => {
                let n = "WriteBuffer";
                self.live(n, *buffer)?;
                let bytes = stage.get(*data)?;
                let range = self.buffer_range(n, buffer.slot, *offset, bytes.len() as u64)?;
                self.buffer_mut(buffer.slot)[range].copy_from_slice(bytes);
                n
            }
            R::CopyBuffer { src, dst, region } => {
                let n = "CopyBuffer";
                self.live(n, *src)?;
                self.live(n, *dst)?;
                let from = self.buffer_range(n, src.slot, region.src_offset, region.size)?;
                let to = self.buffer_range(n, dst.slot, region.dst_offset, region.size)?;
                let bytes = self.buffer_mut(src.slot)[from].to_vec();
                self.buffer_mut(dst.slot)[to].copy_from_slice(&bytes);
                n
            }
            R::ReadBuffer {
                buffer,
                range,
                reply,
            } => {
                let n = "ReadBuffer";
                self.live(n, *buffer)?;
                let range = self.buffer_range(n, buffer.slot, range.offset, range.size)?;
                let bytes = self.buffer_mut(buffer.slot)[range].to_vec();
                out.replies.push((*reply, Reply::Bytes(bytes)));
                n
            }
            R::CreateTexture { texture, .. } => {
                self.create("CreateTexture", *texture)?;
                "CreateTexture"
            }
            R::DestroyTexture { texture } => {
                self.destroy("DestroyTexture", *texture)?;
                "DestroyTexture"
            }
            R::DefineTextureImage { texture, .. } => {
                self.live("DefineTextureImage", *texture)?;
                "DefineTextureImage"
            }
            R::WriteTexture { texture, data, .. } => {
                self.live("WriteTexture", *texture)?;
                stage.get(*data)?;
                "WriteTexture"
            }
            R::WriteCompressedTexture { texture, data, .. } => {
                self.live("WriteCompressedTexture", *texture)?;
                stage.get(*data)?;
                "WriteCompressedTexture"
            }
            R::WriteTextureFromBuffer {
                texture,
                layout,
                source,
                ..
            } => {
                let n = "WriteTextureFromBuffer";
                self.live(n, *texture)?;
                self.live(n, source.buffer)?;
                let [w, h, d] = source.region.size.map(u64::from);
                let extent = if w == 0 || h == 0 || d == 0 {
                    0
                } else {
                    (d - 1) * u64::from(source.image_stride)
                        + (h - 1) * u64::from(source.row_stride)
                        + w * pixel_size(layout.format, layout.ty) as u64
                };
                self.buffer_range(n, source.buffer.slot, source.offset, extent)?;
                n
            }
            R::WriteCompressedTextureFromBuffer {
                texture, source, ..
            } => {
                let n = "WriteCompressedTextureFromBuffer";
                self.live(n, *texture)?;
                self.live(n, source.buffer)?;
                let r = source.range;
                self.buffer_range(n, source.buffer.slot, r.offset, r.size)?;
                n
            }
            R::ReadTexture {
                texture,
                layout,
                read,
                ..
            } => {
                let n = "ReadTexture";
                self.live(n, *texture)?;
                let size = read.size.iter().map(|&s| s as usize).product::<usize>()
                    * pixel_size(layout.format, layout.ty);
                match &read.dst {
                    PixelDestination::Reply(reply) => {
                        out.replies.push((*reply, Reply::Bytes(vec![0; size])));
                    }
                    PixelDestination::Buffer { buffer, offset } => {
                        self.live(n, *buffer)?;
                        let range = self.buffer_range(n, buffer.slot, *offset, size as u64)?;
                        self.buffer_mut(buffer.slot)[range].fill(0);
                    }
                }
                n
            }
            R::CopyTexture {
                texture, region, ..
            } => {
                let n = "CopyTexture";
                self.live(n, *texture)?;
                self.framebuffer_ref(n, &region.src.framebuffer)?;
                n
            }
            R::GenerateMipmap { texture, .. } => {
                self.live("GenerateMipmap", *texture)?;
                "GenerateMipmap"
            }
            R::SetTextureView { texture, .. } => {
                self.live("SetTextureView", *texture)?;
                "SetTextureView"
            }
            R::SetTextureBuffer {
                texture, buffer, ..
            } => {
                let n = "SetTextureBuffer";
                self.live(n, *texture)?;
                self.live_opt(n, *buffer)?;
                n
            }
            R::CreateRenderbuffer { renderbuffer } => {
                self.create("CreateRenderbuffer", *renderbuffer)?;
                "CreateRenderbuffer"
            }
            R::DefineRenderbuffer { renderbuffer, .. } => {
                self.live("DefineRenderbuffer", *renderbuffer)?;
                "DefineRenderbuffer"
            }
            R::DestroyRenderbuffer { renderbuffer } => {
                self.destroy("DestroyRenderbuffer", *renderbuffer)?;
                "DestroyRenderbuffer"
            }
            R::CreateBlendState { cso, .. } => {
                self.create("CreateBlendState", *cso)?;
                "CreateBlendState"
            }
            R::BindBlendState { cso } => {
                self.live("BindBlendState", *cso)?;
                self.bound.blend = Some(cso.raw());
                "BindBlendState"
            }
            R::DestroyBlendState { cso } => {
                let n = "DestroyBlendState";
                self.not_bound(n, self.bound.blend, cso.raw())?;
                self.destroy(n, *cso)?;
                n
            }
            R::CreateDepthStencilState { cso, .. } => {
                self.create("CreateDepthStencilState", *cso)?;
                "CreateDepthStencilState"
            }
            R::BindDepthStencilState { cso } => {
                self.live("BindDepthStencilState", *cso)?;
                self.bound.depth_stencil = Some(cso.raw());
                "BindDepthStencilState"
            }
            R::DestroyDepthStencilState { cso } => {
                let n = "DestroyDepthStencilState";
                self.not_bound(n, self.bound.depth_stencil, cso.raw())?;
                self.destroy(n, *cso)?;
                n
            }
            R::CreateRasterState { cso, .. } => {
                self.create("CreateRasterState", *cso)?;
                "CreateRasterState"
            }
            R::BindRasterState { cso } => {
                self.live("BindRasterState", *cso)?;
                self.bound.raster = Some(cso.raw());
                "BindRasterState"
            }
            R::DestroyRasterState { cso } => {
                let n = "DestroyRasterState";
                self.not_bound(n, self.bound.raster, cso.raw())?;
                self.destroy(n, *cso)?;
                n
            }
            R::CreateSamplerState { cso, .. } => {
                self.create("CreateSamplerState", *cso)?;
                "CreateSamplerState"
            }
            R::DestroySamplerState { cso } => {
                self.destroy("DestroySamplerState", *cso)?;
                "DestroySamplerState"
            }
            R::CreateVertexLayout { cso, .. } => {
                self.create("CreateVertexLayout", *cso)?;
                "CreateVertexLayout"
            }
            R::BindVertexLayout { cso } => {
                self.live("BindVertexLayout", *cso)?;
                self.bound.vertex_layout = Some(cso.raw());
                "BindVertexLayout"
            }
            R::DestroyVertexLayout { cso } => {
                let n = "DestroyVertexLayout";
                self.not_bound(n, self.bound.vertex_layout, cso.raw())?;
                self.destroy(n, *cso)?;
                n
            }
            R::CreateProgram { program, desc } => {
                let n = "CreateProgram";
                self.create(n, *program)?;
                let bad = |what: String| SessionError::BadValue { record: n, what };
                for (i, stage_code) in desc.stages.iter().enumerate() {
                    let code = stage.get(stage_code.spirv)?;
                    if code.len() % 4 != 0 || code.len() < 20 {
                        return Err(bad(format!(
                            "SPIR-V of {} bytes is not a whole module",
                            code.len()
                        )));
                    }
                    if code[..4] != [0x03, 0x02, 0x23, 0x07] {
                        return Err(bad("SPIR-V without its magic number".into()));
                    }
                    if desc.stages[..i].iter().any(|s| s.stage == stage_code.stage) {
                        return Err(bad(format!("two {:?} stages", stage_code.stage)));
                    }
                }
                // An array element continues the slot before it (see ProgramDesc).
                let continues = |i: usize, element: u32, prev: Option<u32>| {
                    element == 0 || (i > 0 && prev == Some(element - 1))
                };
                for (i, s) in desc.samplers.iter().enumerate() {
                    let prev = i.checked_sub(1).map(|p| desc.samplers[p].element);
                    if !continues(i, s.element, prev) {
                        return Err(bad(format!("sampler slot {i} continues no array")));
                    }
                }
                for (i, b) in desc.uniform_blocks.iter().enumerate() {
                    let prev = i.checked_sub(1).map(|p| desc.uniform_blocks[p].element);
                    if !continues(i, b.element, prev) {
                        return Err(bad(format!("uniform block slot {i} continues no array")));
                    }
                }
                n
            }
            R::BindProgram { program } => {
                self.live_opt("BindProgram", *program)?;
                "BindProgram"
            }
            R::DestroyProgram { program } => {
                self.destroy("DestroyProgram", *program)?;
                "DestroyProgram"
            }
            R::SetUniforms { data } => {
                stage.get(*data)?;
                "SetUniforms"
            }
            R::BindUniformBuffer { buffer, .. } => {
                self.live_opt("BindUniformBuffer", *buffer)?;
                "BindUniformBuffer"
            }
            R::BindTexture {
                texture, sampler, ..
            } => {
                let n = "BindTexture";
                self.live_opt(n, *texture)?;
                self.live_opt(n, *sampler)?;
                n
            }
            R::SetVertexBuffer { buffer, .. } => {
                self.live_opt("SetVertexBuffer", *buffer)?;
                "SetVertexBuffer"
            }
            R::SetIndexBuffer { buffer } => {
                self.live_opt("SetIndexBuffer", *buffer)?;
                "SetIndexBuffer"
            }
            R::SetGenericAttrib { .. } => "SetGenericAttrib",
            R::SetPrimitiveRestart { .. } => "SetPrimitiveRestart",
            R::SetViewport { .. } => "SetViewport",
            R::SetScissor { .. } => "SetScissor",
            R::SetBlendColor { .. } => "SetBlendColor",
            R::SetStencilRef { .. } => "SetStencilRef",
            R::SetDepthBias { .. } => "SetDepthBias",
            R::SetLineWidth { .. } => "SetLineWidth",
            R::SetPointSize { .. } => "SetPointSize",
            R::SetSampleMask { .. } => "SetSampleMask",
            R::Draw { .. } => "Draw",
            R::DrawIndexed { .. } => "DrawIndexed",
            R::Clear { .. } => "Clear",
            R::ClearBuffer { .. } => "ClearBuffer",
            R::Blit { src, .. } => {
                self.framebuffer_ref("Blit", &src.framebuffer)?;
                "Blit"
            }
            R::ReadPixels {
                src,
                layout,
                region,
            } => {
                let n = "ReadPixels";
                self.framebuffer_ref(n, &src.framebuffer)?;
                let rect = region.rect;
                let size = rect.width.max(0) as usize
                    * rect.height.max(0) as usize
                    * pixel_size(layout.format, layout.ty);
                match &region.dst {
                    PixelDestination::Reply(reply) => {
                        out.replies.push((*reply, Reply::Bytes(vec![0; size])));
                    }
                    PixelDestination::Buffer { buffer, offset } => {
                        self.live(n, *buffer)?;
                        let range = self.buffer_range(n, buffer.slot, *offset, size as u64)?;
                        self.buffer_mut(buffer.slot)[range].fill(0);
                    }
                }
                n
            }
            R::Flush => "Flush",
            R::Finish { reply } => {
                out.replies.push((*reply, Reply::Done));
                "Finish"
            }
            R::Present { surface } => {
                self.live("Present", *surface)?;
                "Present"
            }
            R::CreateQuery { query, .. } => {
                self.create("CreateQuery", *query)?;
                "CreateQuery"
            }
            R::BeginQuery { query } => {
                self.live("BeginQuery", *query)?;
                "BeginQuery"
            }
            R::EndQuery { query } => {
                self.live("EndQuery", *query)?;
                "EndQuery"
            }
            R::QueryTimestamp { query } => {
                self.live("QueryTimestamp", *query)?;
                "QueryTimestamp"
            }
            R::QueryResult { query, reply } => {
                self.live("QueryResult", *query)?;
                out.replies.push((*reply, Reply::Query(0)));
                "QueryResult"
            }
            R::DestroyQuery { query } => {
                self.destroy("DestroyQuery", *query)?;
                "DestroyQuery"
            }
            R::InsertFence { fence } => {
                self.create("InsertFence", *fence)?;
                "InsertFence"
            }
            R::WaitFence { fence, reply, .. } => {
                self.live("WaitFence", *fence)?;
                out.replies.push((*reply, Reply::Fence(true)));
                "WaitFence"
            }
            R::DestroyFence { fence } => {
                self.destroy("DestroyFence", *fence)?;
                "DestroyFence"
            }
        };
        Ok(name)
    }

    fn known_context(&self, record: &'static str, context: u32) -> Result<(), SessionError> {
        if self.contexts.contains(&context) {
            Ok(())
        } else {
            Err(SessionError::BadValue {
                record,
                what: format!("context {context} does not exist"),
            })
        }
    }

    fn not_bound(
        &self,
        record: &'static str,
        bound: Option<RawHandle>,
        handle: RawHandle,
    ) -> Result<(), SessionError> {
        if bound == Some(handle) {
            return Err(SessionError::BadValue {
                record,
                what: format!("destroys the bound CSO {handle}"),
            });
        }
        Ok(())
    }

    fn attachment(
        &self,
        record: &'static str,
        a: &crate::state::Attachment,
    ) -> Result<(), SessionError> {
        match a {
            crate::state::Attachment::None => Ok(()),
            crate::state::Attachment::Texture { texture, .. } => self.live(record, *texture),
            crate::state::Attachment::Renderbuffer(rb) => self.live(record, *rb),
        }
    }

    fn framebuffer_ref(
        &self,
        record: &'static str,
        f: &crate::record::FramebufferRef,
    ) -> Result<(), SessionError> {
        match f {
            crate::record::FramebufferRef::None => Ok(()),
            crate::record::FramebufferRef::Surface(s) => self.live(record, *s),
            crate::record::FramebufferRef::Object(fb) => self.live(record, *fb),
        }
    }
}

/// Bytes per pixel of tightly packed client data.
pub fn pixel_size(format: PixelFormat, ty: PixelType) -> usize {
    use PixelFormat as F;
    use PixelType as T;
    let components = match format {
        F::Red | F::Green | F::Blue | F::RedInteger | F::GreenInteger | F::BlueInteger => 1,
        F::DepthComponent | F::StencilIndex => 1,
        F::Rg | F::RgInteger => 2,
        F::Rgb | F::Bgr | F::RgbInteger | F::BgrInteger => 3,
        F::Rgba | F::Bgra | F::RgbaInteger | F::BgraInteger => 4,
        F::DepthStencil => 1,
    };
    match ty {
        T::U8 | T::I8 => components,
        T::U16 | T::I16 | T::F16 => 2 * components,
        T::U32 | T::I32 | T::F32 => 4 * components,
        T::U8_332 | T::U8_233Rev => 1,
        T::U16_565
        | T::U16_565Rev
        | T::U16_4444
        | T::U16_4444Rev
        | T::U16_5551
        | T::U16_1555Rev => 2,
        T::U32_8888
        | T::U32_8888Rev
        | T::U32_1010102
        | T::U32_2101010Rev
        | T::U32_248
        | T::U32_10f11f11fRev
        | T::U32_5999Rev => 4,
        T::F32U32_248Rev => 8,
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

    fn apply(&mut self, batch: BatchView<'_>, out: &mut Outbox) -> Result<(), SessionError> {
        let stage_bytes = batch.stage;
        let stage = Stage::new(stage_bytes);
        let mut decoded = Vec::new();
        let mut result = Ok(());
        for archived in batch.archived.records.iter() {
            let record = decode_record(archived)?;
            match self.apply_record(&record, stage, out) {
                Ok(name) => *self.pending.entry(name).or_insert(0) += 1,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
            if self.capture {
                decoded.push(record);
            }
        }
        let mut stats = self.probe.0.lock().unwrap_or_else(PoisonError::into_inner);
        stats.batches += 1;
        for (name, n) in std::mem::take(&mut self.pending) {
            stats.records += n;
            *stats.by_name.entry(name).or_insert(0) += n;
        }
        stats.stage_bytes += stage_bytes.len() as u64;
        stats.record_bytes += batch.bytes.len() as u64;
        if self.capture {
            stats
                .captured
                .push((batch.bytes.to_vec(), stage_bytes.to_vec()));
        }
        for (kind, table) in self.slots.iter().enumerate() {
            stats.live[kind] = table.iter().filter(|s| s.live).count() as u32;
        }
        if self.capture {
            stats.captured_records.append(&mut decoded);
        }
        result
    }
}

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
use crate::context::Contexts;
use crate::handle::{
    BlendHandle, BufferHandle, DepthStencilHandle, FenceHandle, FramebufferHandle, Handle,
    ObjectKind, ProgramHandle, QueryHandle, RasterHandle, RawHandle, RenderbufferHandle,
    SamplerHandle, SurfaceHandle, TextureHandle, VertexLayoutHandle,
};
use crate::record::{PixelDestination, Record};
use crate::table::SlotTable;

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
    capture: bool,
    /// Buffers keep their bytes, to answer read-backs and copies.
    buffers: SlotTable<BufferHandle, Vec<u8>>,
    textures: SlotTable<TextureHandle, ()>,
    renderbuffers: SlotTable<RenderbufferHandle, ()>,
    framebuffers: SlotTable<FramebufferHandle, ()>,
    surfaces: SlotTable<SurfaceHandle, ()>,
    programs: SlotTable<ProgramHandle, ()>,
    queries: SlotTable<QueryHandle, ()>,
    fences: SlotTable<FenceHandle, ()>,
    blends: SlotTable<BlendHandle, ()>,
    depth_stencils: SlotTable<DepthStencilHandle, ()>,
    rasters: SlotTable<RasterHandle, ()>,
    samplers: SlotTable<SamplerHandle, ()>,
    layouts: SlotTable<VertexLayoutHandle, ()>,
    bound: BoundCsos,
    pending: BTreeMap<&'static str, u64>,
    contexts: Contexts<()>,
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
            buffers: SlotTable::new(),
            textures: SlotTable::new(),
            renderbuffers: SlotTable::new(),
            framebuffers: SlotTable::new(),
            surfaces: SlotTable::new(),
            programs: SlotTable::new(),
            queries: SlotTable::new(),
            fences: SlotTable::new(),
            blends: SlotTable::new(),
            depth_stencils: SlotTable::new(),
            rasters: SlotTable::new(),
            samplers: SlotTable::new(),
            layouts: SlotTable::new(),
            bound: BoundCsos::default(),
            pending: BTreeMap::new(),
            contexts: Contexts::new(),
        };
        (backend, probe)
    }

    /// Live objects per kind, for [`NullStats::live`].
    fn live_counts(&self) -> [u32; ObjectKind::COUNT] {
        fn put<H: Handle, T>(live: &mut [u32; ObjectKind::COUNT], table: &SlotTable<H, T>) {
            live[H::KIND.index()] = table.len() as u32;
        }
        let mut live = [0; ObjectKind::COUNT];
        put(&mut live, &self.buffers);
        put(&mut live, &self.textures);
        put(&mut live, &self.renderbuffers);
        put(&mut live, &self.framebuffers);
        put(&mut live, &self.surfaces);
        put(&mut live, &self.programs);
        put(&mut live, &self.queries);
        put(&mut live, &self.fences);
        put(&mut live, &self.blends);
        put(&mut live, &self.depth_stencils);
        put(&mut live, &self.rasters);
        put(&mut live, &self.samplers);
        put(&mut live, &self.layouts);
        live
    }

    /// The bytes `offset..offset + len` of a live buffer's storage.
    fn buffer_bytes(
        &mut self,
        record: &'static str,
        buffer: BufferHandle,
        offset: u64,
        len: u64,
    ) -> Result<&mut [u8], SessionError> {
        let storage = self.buffers.get_mut(record, buffer)?;
        let size = storage.len() as u64;
        match offset.checked_add(len) {
            Some(end) if end <= size => Ok(&mut storage[offset as usize..end as usize]),
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
                self.contexts.create(*context, || Ok(()))?;
                "CreateContext"
            }
            R::SetContext { context } => {
                self.contexts.set_current(*context)?;
                "SetContext"
            }
            R::DestroyContext { context } => {
                self.contexts.destroy(*context)?;
                "DestroyContext"
            }
            R::CreateSurface { surface, .. } => {
                self.surfaces.insert("CreateSurface", *surface, ())?;
                "CreateSurface"
            }
            R::DestroySurface { surface } => {
                self.surfaces.remove("DestroySurface", *surface)?;
                "DestroySurface"
            }
            R::CreateFramebuffer { framebuffer } => {
                self.framebuffers
                    .insert("CreateFramebuffer", *framebuffer, ())?;
                "CreateFramebuffer"
            }
            R::SetFramebufferState { framebuffer, state } => {
                let n = "SetFramebufferState";
                self.framebuffers.get(n, *framebuffer)?;
                for a in state.colors.iter().chain([&state.depth, &state.stencil]) {
                    self.attachment(n, a)?;
                }
                n
            }
            R::DestroyFramebuffer { framebuffer } => {
                self.framebuffers
                    .remove("DestroyFramebuffer", *framebuffer)?;
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
                let live = self.buffers.live(*buffer).is_some();
                if !live {
                    self.buffers.check_create(n, *buffer)?;
                }
                let size = usize::try_from(*size)
                    .ok()
                    .filter(|s| *s <= MAX_NULL_BUFFER)
                    .ok_or_else(|| SessionError::BadValue {
                        record: n,
                        what: format!("size {size}"),
                    })?;
                let zeros = vec![0; size];
                if live {
                    *self.buffers.get_mut(n, *buffer)? = zeros;
                } else {
                    self.buffers.insert(n, *buffer, zeros)?;
                }
                n
            }
            R::DestroyBuffer { buffer } => {
                self.buffers.remove("DestroyBuffer", *buffer)?;
                "DestroyBuffer"
            }
            R::WriteBuffer {
                buffer,
                offset,
                data,
            } => {
                let n = "WriteBuffer";
                self.buffers.get(n, *buffer)?;
                let bytes = stage.get(*data)?;
                self.buffer_bytes(n, *buffer, *offset, bytes.len() as u64)?
                    .copy_from_slice(bytes);
                n
            }
            R::CopyBuffer { src, dst, region } => {
                let n = "CopyBuffer";
                self.buffers.get(n, *src)?;
                self.buffers.get(n, *dst)?;
                let bytes = self
                    .buffer_bytes(n, *src, region.src_offset, region.size)?
                    .to_vec();
                self.buffer_bytes(n, *dst, region.dst_offset, region.size)?
                    .copy_from_slice(&bytes);
                n
            }
            R::ReadBuffer {
                buffer,
                range,
                reply,
            } => {
                let n = "ReadBuffer";
                let bytes = self
                    .buffer_bytes(n, *buffer, range.offset, range.size)?
                    .to_vec();
                out.replies.push((*reply, Reply::Bytes(bytes)));
                n
            }
            R::CreateTexture { texture, .. } => {
                self.textures.insert("CreateTexture", *texture, ())?;
                "CreateTexture"
            }
            R::DestroyTexture { texture } => {
                self.textures.remove("DestroyTexture", *texture)?;
                "DestroyTexture"
            }
            R::DefineTextureImage { texture, .. } => {
                self.textures.get("DefineTextureImage", *texture)?;
                "DefineTextureImage"
            }
            R::WriteTexture { texture, data, .. } => {
                self.textures.get("WriteTexture", *texture)?;
                stage.get(*data)?;
                "WriteTexture"
            }
            R::WriteCompressedTexture { texture, data, .. } => {
                self.textures.get("WriteCompressedTexture", *texture)?;
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
                self.textures.get(n, *texture)?;
                let [w, h, d] = source.region.size.map(u64::from);
                let extent = if w == 0 || h == 0 || d == 0 {
                    0
                } else {
                    (d - 1) * u64::from(source.image_stride)
                        + (h - 1) * u64::from(source.row_stride)
                        + w * pixel_size(layout.format, layout.ty) as u64
                };
                self.buffer_bytes(n, source.buffer, source.offset, extent)?;
                n
            }
            R::WriteCompressedTextureFromBuffer {
                texture, source, ..
            } => {
                let n = "WriteCompressedTextureFromBuffer";
                self.textures.get(n, *texture)?;
                let r = source.range;
                self.buffer_bytes(n, source.buffer, r.offset, r.size)?;
                n
            }
            R::ReadTexture {
                texture,
                layout,
                read,
                ..
            } => {
                let n = "ReadTexture";
                self.textures.get(n, *texture)?;
                let size = read.size.iter().map(|&s| s as usize).product::<usize>()
                    * pixel_size(layout.format, layout.ty);
                match &read.dst {
                    PixelDestination::Reply(reply) => {
                        out.replies.push((*reply, Reply::Bytes(vec![0; size])));
                    }
                    PixelDestination::Buffer { buffer, offset } => {
                        self.buffer_bytes(n, *buffer, *offset, size as u64)?.fill(0);
                    }
                }
                n
            }
            R::CopyTexture {
                texture, region, ..
            } => {
                let n = "CopyTexture";
                self.textures.get(n, *texture)?;
                self.framebuffer_ref(n, &region.src.framebuffer)?;
                n
            }
            R::GenerateMipmap { texture, .. } => {
                self.textures.get("GenerateMipmap", *texture)?;
                "GenerateMipmap"
            }
            R::SetTextureView { texture, .. } => {
                self.textures.get("SetTextureView", *texture)?;
                "SetTextureView"
            }
            R::SetTextureBuffer {
                texture, buffer, ..
            } => {
                let n = "SetTextureBuffer";
                self.textures.get(n, *texture)?;
                self.buffers.check(n, *buffer)?;
                n
            }
            R::CreateRenderbuffer { renderbuffer } => {
                self.renderbuffers
                    .insert("CreateRenderbuffer", *renderbuffer, ())?;
                "CreateRenderbuffer"
            }
            R::DefineRenderbuffer { renderbuffer, .. } => {
                self.renderbuffers
                    .get("DefineRenderbuffer", *renderbuffer)?;
                "DefineRenderbuffer"
            }
            R::DestroyRenderbuffer { renderbuffer } => {
                self.renderbuffers
                    .remove("DestroyRenderbuffer", *renderbuffer)?;
                "DestroyRenderbuffer"
            }
            R::CreateBlendState { cso, .. } => {
                self.blends.insert("CreateBlendState", *cso, ())?;
                "CreateBlendState"
            }
            R::BindBlendState { cso } => {
                self.blends.get("BindBlendState", *cso)?;
                self.bound.blend = Some(cso.raw());
                "BindBlendState"
            }
            R::DestroyBlendState { cso } => {
                let n = "DestroyBlendState";
                self.not_bound(n, self.bound.blend, cso.raw())?;
                self.blends.remove(n, *cso)?;
                n
            }
            R::CreateDepthStencilState { cso, .. } => {
                self.depth_stencils
                    .insert("CreateDepthStencilState", *cso, ())?;
                "CreateDepthStencilState"
            }
            R::BindDepthStencilState { cso } => {
                self.depth_stencils.get("BindDepthStencilState", *cso)?;
                self.bound.depth_stencil = Some(cso.raw());
                "BindDepthStencilState"
            }
            R::DestroyDepthStencilState { cso } => {
                let n = "DestroyDepthStencilState";
                self.not_bound(n, self.bound.depth_stencil, cso.raw())?;
                self.depth_stencils.remove(n, *cso)?;
                n
            }
            R::CreateRasterState { cso, .. } => {
                self.rasters.insert("CreateRasterState", *cso, ())?;
                "CreateRasterState"
            }
            R::BindRasterState { cso } => {
                self.rasters.get("BindRasterState", *cso)?;
                self.bound.raster = Some(cso.raw());
                "BindRasterState"
            }
            R::DestroyRasterState { cso } => {
                let n = "DestroyRasterState";
                self.not_bound(n, self.bound.raster, cso.raw())?;
                self.rasters.remove(n, *cso)?;
                n
            }
            R::CreateSamplerState { cso, .. } => {
                self.samplers.insert("CreateSamplerState", *cso, ())?;
                "CreateSamplerState"
            }
            R::DestroySamplerState { cso } => {
                self.samplers.remove("DestroySamplerState", *cso)?;
                "DestroySamplerState"
            }
            R::CreateVertexLayout { cso, .. } => {
                self.layouts.insert("CreateVertexLayout", *cso, ())?;
                "CreateVertexLayout"
            }
            R::BindVertexLayout { cso } => {
                self.layouts.get("BindVertexLayout", *cso)?;
                self.bound.vertex_layout = Some(cso.raw());
                "BindVertexLayout"
            }
            R::DestroyVertexLayout { cso } => {
                let n = "DestroyVertexLayout";
                self.not_bound(n, self.bound.vertex_layout, cso.raw())?;
                self.layouts.remove(n, *cso)?;
                n
            }
            R::CreateProgram { program, desc } => {
                let n = "CreateProgram";
                self.programs.insert(n, *program, ())?;
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
                self.programs.check("BindProgram", *program)?;
                "BindProgram"
            }
            R::DestroyProgram { program } => {
                self.programs.remove("DestroyProgram", *program)?;
                "DestroyProgram"
            }
            R::SetUniforms { data } => {
                stage.get(*data)?;
                "SetUniforms"
            }
            R::BindUniformBuffer { buffer, .. } => {
                self.buffers.check("BindUniformBuffer", *buffer)?;
                "BindUniformBuffer"
            }
            R::BindTexture {
                texture, sampler, ..
            } => {
                let n = "BindTexture";
                self.textures.check(n, *texture)?;
                self.samplers.check(n, *sampler)?;
                n
            }
            R::SetVertexBuffer { buffer, .. } => {
                self.buffers.check("SetVertexBuffer", *buffer)?;
                "SetVertexBuffer"
            }
            R::SetIndexBuffer { buffer } => {
                self.buffers.check("SetIndexBuffer", *buffer)?;
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
                        self.buffer_bytes(n, *buffer, *offset, size as u64)?.fill(0);
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
                self.surfaces.get("Present", *surface)?;
                "Present"
            }
            R::CreateQuery { query, .. } => {
                self.queries.insert("CreateQuery", *query, ())?;
                "CreateQuery"
            }
            R::BeginQuery { query } => {
                self.queries.get("BeginQuery", *query)?;
                "BeginQuery"
            }
            R::EndQuery { query } => {
                self.queries.get("EndQuery", *query)?;
                "EndQuery"
            }
            R::QueryTimestamp { query } => {
                self.queries.get("QueryTimestamp", *query)?;
                "QueryTimestamp"
            }
            R::QueryResult { query, reply } => {
                self.queries.get("QueryResult", *query)?;
                out.replies.push((*reply, Reply::Query(0)));
                "QueryResult"
            }
            R::DestroyQuery { query } => {
                self.queries.remove("DestroyQuery", *query)?;
                "DestroyQuery"
            }
            R::InsertFence { fence } => {
                self.fences.insert("InsertFence", *fence, ())?;
                "InsertFence"
            }
            R::WaitFence { fence, reply, .. } => {
                self.fences.get("WaitFence", *fence)?;
                out.replies.push((*reply, Reply::Fence(true)));
                "WaitFence"
            }
            R::DestroyFence { fence } => {
                self.fences.remove("DestroyFence", *fence)?;
                "DestroyFence"
            }
        };
        Ok(name)
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
            crate::state::Attachment::Texture { texture, .. } => {
                self.textures.check(record, Some(*texture))
            }
            crate::state::Attachment::Renderbuffer(rb) => {
                self.renderbuffers.check(record, Some(*rb))
            }
        }
    }

    fn framebuffer_ref(
        &self,
        record: &'static str,
        f: &crate::record::FramebufferRef,
    ) -> Result<(), SessionError> {
        match f {
            crate::record::FramebufferRef::None => Ok(()),
            crate::record::FramebufferRef::Surface(s) => self.surfaces.check(record, Some(*s)),
            crate::record::FramebufferRef::Object(fb) => self.framebuffers.check(record, Some(*fb)),
        }
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
        stats.live = self.live_counts();
        if self.capture {
            stats.captured_records.append(&mut decoded);
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use rkyv::util::AlignedVec;

    use super::*;
    use crate::batch::{Archiver, Encoder, access_batch};
    use crate::format::TextureKind;
    use crate::record::BufferRange;

    /// Applies what `enc` holds as one batch.
    fn apply(null: &mut NullBackend, enc: &mut Encoder) -> (Result<(), SessionError>, Outbox) {
        let (mut archive, mut stage) = (AlignedVec::new(), Vec::new());
        enc.finish(&mut Archiver::default(), &mut archive, &mut stage);
        let batch = BatchView {
            archived: access_batch(&archive, &stage).unwrap(),
            bytes: &archive,
            stage: &stage,
        };
        let mut out = Outbox::default();
        (null.apply(batch, &mut out), out)
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

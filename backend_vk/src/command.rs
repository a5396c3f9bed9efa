//! Contexts and verbs: each Tessera context's *desired* state, the state of the command
//! buffer being recorded, and the verbs that reconcile the two: the `DrawPipe` methods
//! (`Draw`, `DrawIndexed`; `Clear` and `ClearBuffer` in `clear.rs`, `Blit` in `blit.rs`),
//! with `Flush`, `Finish` and `Present`, which submit (`frame.rs`).
//!
//! `Bind*` and `Set*` records only store values in the current [`VkContext`] and mark the
//! parts of a draw that read them ([`dirty`]). A draw then (1) resolves what its descriptors
//! read, making sampled images shader-readable and creating placeholders, all outside a
//! render pass; (2) begins the render pass of its target unless it is already open; (3) finds
//! its pipeline (a hash lookup; created only on a miss); (4) sets the dynamic state that
//! differs from the command buffer's; (5) writes a descriptor set only when what it refers to
//! changed (the default uniform block moves by its dynamic offset); (6) binds vertex and index
//! buffers that differ; (7) draws.
//!
//! ## Steady draws
//! Steps (1) to (6) compare with what the command buffer holds, so a draw that changed
//! nothing records nothing but itself; the comparisons need not even run. While the command
//! buffer holds what the same context's previous draw prepared ([`Recording::prepared`]:
//! cleared by a new command buffer, a pass begun or ended, a clear, and every record that is
//! neither a draw nor a state record), a draw redoes only the steps its context's dirty bits
//! name, and a draw with none binds its index buffer and draws. Vertex formats are mapped
//! once per vertex-layout CSO ([`VertexFetch`]), and nothing on the path allocates.
//!
//! ## Passes and clears
//! A whole-attachment clear of a target whose pass has not begun becomes that attachment's
//! `CLEAR` load op (ANGLE's deferred clears); other clears are `vkCmdClearAttachments` in
//! the pass. Anything that must run outside a pass (transfers, layout transitions, queries)
//! ends it first; a pass with pending clears that never drew is begun and ended so the
//! clears happen.
//!
//! ## Synchronization
//! Between a render pass and transfer work (either way) and between transfers, one global
//! memory barrier (all commands, all memory) is recorded when anything was written since
//! the last one. Coarse, but correct without per-resource tracking, and nothing in a steady
//! frame of draws needs one.

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::context::DesiredState;
use tessera_wire::dispatch::{
    BlitArgs, ClearArgs, DrawArgs, DrawIndexedArgs, DrawIndirectArgs, DrawPipe, MultiDrawArgs, R,
};
use tessera_wire::format::{IndexType, Topology};
use tessera_wire::handle::{BufferHandle, QueryHandle, SurfaceHandle};
use tessera_wire::record::{ClearValue, FramebufferRef};
use tessera_wire::state::{MAX_DRAW_BUFFERS, MAX_VERTEX_ATTRIBS, MAX_VIEWPORTS, VertexLayout};

use crate::conv;
use crate::device::{Missing, VkPipe, backend_bug};
use crate::framebuffer::Target;
use crate::image::transition;
use crate::memory::Slice;
use crate::pipeline::{GENERIC_BINDING, PipelineKey};

/// The state one Tessera context wants: what its records set, with the CSOs as interned
/// ids, where its uniform and generic-attribute data were last written, and which parts of
/// what a draw derives from it changed since its last draw ([`dirty`]).
pub(crate) struct VkContext {
    pub desired: DesiredState,
    /// Interned CSO ids.
    pub blend: u32,
    pub depth_stencil: u32,
    pub raster: u32,
    pub layout: u32,
    /// Where `desired.uniforms` was last written: (frame serial, arena slice).
    pub uniform_at: Option<(u64, Slice)>,
    /// Where `desired.generic` was last written.
    pub generic_at: Option<(u64, Slice)>,
    /// Unique among the session's contexts (never reused).
    pub id: u64,
    /// What state records changed since the context's last prepared draw ([`dirty`] bits).
    pub dirty: u8,
    /// The transform feedback capture this context began (`xfb.rs`).
    pub xfb: Option<tessera_wire::handle::TransformFeedbackHandle>,
    /// What the draw being recorded adds to the context's draw id: a command's index
    /// among the commands of an indirect draw, or a draw's among those of a multi-draw,
    /// drawn one by one. Kept here, not with the recording, which a draw that reads
    /// indices back starts again.
    pub sub_draw: u32,
    /// The draw being recorded is indexed in GL's terms (an emulation may draw either way).
    pub indexed_draw: bool,
    /// The active conditional rendering (`condition.rs`).
    pub condition: Option<crate::condition::Condition>,
    /// The context's slot in the predicate buffer, once it has one.
    pub predicate_slot: Option<u32>,
}

impl VkContext {
    /// A context at GL's initial state (CSO id 0 is each kind's default value, interned
    /// first at device creation).
    pub fn new(id: u64) -> Self {
        Self {
            desired: DesiredState::default(),
            blend: 0,
            depth_stencil: 0,
            raster: 0,
            layout: 0,
            uniform_at: None,
            generic_at: None,
            id,
            dirty: dirty::ALL,
            xfb: None,
            sub_draw: 0,
            indexed_draw: false,
            condition: None,
            predicate_slot: None,
        }
    }
}

/// What a draw derives from its context's state, by part: a state record marks the parts
/// that read it, and a draw redoes only those while the command buffer still holds what
/// that context's previous draw bound ([`Recording::prepared`]).
pub(crate) mod dirty {
    /// Descriptors: default block, textures, samplers, uniform buffers.
    pub const DESCRIPTORS: u8 = 1;
    /// Vertex buffers (and the generic attributes' arena copy).
    pub const VERTICES: u8 = 2;
    /// The pipeline: its key and binding.
    pub const PIPELINE: u8 = 4;
    /// Dynamic state but viewports and scissors, and the point-size push constant.
    pub const DYNAMIC: u8 = 8;
    /// The default block's values alone (a part of DESCRIPTORS: see
    /// `VkPipe::regather_default_block`).
    pub const UNIFORMS: u8 = 16;
    /// Viewports and scissors: every one the device has is derived and compared, so only
    /// what they read marks them (not a new program).
    pub const VIEWPORTS: u8 = 32;
    /// Everything (a new target, or another context's draw before).
    pub const ALL: u8 = DESCRIPTORS | VERTICES | PIPELINE | DYNAMIC | VIEWPORTS;
}

/// What the command buffer's bound state was prepared for by the last draw: the context,
/// and the draw's topology and restart (which select the pipeline and the point-size push).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Prepared {
    pub ctx: u64,
    pub topology: vk::PrimitiveTopology,
    pub restart: bool,
}

/// What a vertex layout means to vertex fetch, derived once per interned layout: which
/// attributes Vulkan fetches (a format it has; the others read the generic value), and
/// what their offsets and strides must be multiples of.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct VertexFetch {
    /// Attributes with a Vulkan vertex format (bit `i`): not doubles converted to floats,
    /// which Vulkan cannot fetch.
    pub fetched: u16,
    /// Fetched attributes of doubles read as doubles (`glVertexAttribLPointer`), which only
    /// a double input fetches.
    pub long: u16,
    /// Fetched attributes whose stride is a multiple of their component size.
    pub stride_aligned: u16,
    /// Per attribute, its component size minus one (offsets must have none of these bits).
    pub align_mask: [u8; MAX_VERTEX_ATTRIBS],
}

impl VertexFetch {
    /// What `layout` means to vertex fetch (once, when the layout is interned).
    pub fn of(layout: &VertexLayout) -> Self {
        let mut f = Self::default();
        for (i, a) in layout.attribs.iter().enumerate() {
            let f64 = a.format.ty == tessera_wire::format::AttribType::F64;
            if a.format.components == 0
                || conv::map_vertex_format(a.format).is_none()
                || f64 && !a.format.integer
            {
                continue;
            }
            if f64 {
                f.long |= 1 << i;
            }
            let (align, _) = conv::vertex_layout_bytes(a.format);
            f.fetched |= 1 << i;
            if a.stride.is_multiple_of(align) {
                f.stride_aligned |= 1 << i;
            }
            f.align_mask[i] = (align - 1) as u8;
        }
        f
    }
}

/// Clears waiting for a pass to begin (folded into its load ops).
#[derive(Clone)]
pub(crate) struct Pending {
    pub target: Target,
    /// Per attachment.
    pub values: Vec<Option<vk::ClearValue>>,
    pub depth: bool,
    pub stencil: bool,
}

/// The state of the command buffer being recorded (shared by all contexts).
#[derive(Default)]
pub(crate) struct Recording {
    pub cmd: vk::CommandBuffer,
    pub serial: u64,
    /// Something was recorded since the frame began.
    pub work: bool,
    /// Something was written since the last barrier.
    pub dirty_mem: bool,
    /// Queries begun and not ended (a command buffer must not end with one active, so the
    /// end-of-batch submission waits).
    pub active_queries: u32,
    pub pass: Option<Target>,
    pub pending: Option<Pending>,
    pub pipeline: vk::Pipeline,
    pub(crate) layout: vk::PipelineLayout,
    pub(crate) set: Option<(Vec<u64>, vk::DescriptorSet)>,
    pub(crate) dyn_offset: Option<u32>,
    /// The dynamic offset of the default block gathered for the next bind.
    pub(crate) dyn_offset_next: Option<u32>,
    pub(crate) vertex: [(vk::Buffer, u64); 17],
    /// Vertex arrays of this draw repacked into the arena (aligned copies).
    pub(crate) vertex_override: [Option<(vk::Buffer, u64)>; MAX_VERTEX_ATTRIBS],
    /// Whether `vertex_override` holds any array.
    pub(crate) repacked: bool,
    /// The draw the bound state was last prepared for, as long as nothing but that
    /// context's state records could have changed what it needs since: the next draw of
    /// the same context redoes only the parts its dirty bits name. `None`: everything is
    /// derived again (a new command buffer, a pass begun or ended, a clear, any record
    /// other than a draw or a state record, or a draw that recorded something a repeat
    /// would record again).
    pub(crate) prepared: Option<Prepared>,
    pub(crate) index: Option<(vk::Buffer, u64, vk::IndexType)>,
    /// The viewports set, as bits of x, y, width, height, min and max depth.
    pub(crate) viewport: Option<[[u32; 6]; MAX_VIEWPORTS]>,
    pub(crate) scissor: Option<[vk::Rect2D; MAX_VIEWPORTS]>,
    pub(crate) blend_constants: Option<[u32; 4]>,
    pub(crate) stencil_ref: Option<(u8, u8)>,
    pub(crate) depth_bias: Option<(u32, u32, u32)>,
    pub(crate) line_width: Option<u32>,
    pub(crate) point_size: Option<u32>,
    /// The draw parameters pushed (`spirv/draw_param.rs`): `gl_DrawID`'s base, 1 for an
    /// indexed draw, and the layout they were pushed with.
    pub(crate) draw_params: Option<([u32; 2], vk::PipelineLayout)>,
    // Scratch, reused per draw.
    pub(crate) key: Vec<u64>,
    pub(crate) images: Vec<vk::DescriptorImageInfo>,
    pub(crate) buffers: Vec<vk::DescriptorBufferInfo>,
    pub(crate) texels: Vec<vk::BufferView>,
    /// Per descriptor slot: (binding, type, first info index, count).
    pub(crate) writes: Vec<(u32, vk::DescriptorType, usize, u32)>,
    /// Per entry of `writes`: the range of `key` its resources make.
    pub(crate) spans: Vec<(usize, usize)>,
    /// The `spans` of the set pushed last (its key is `set`'s).
    pub(crate) pushed_spans: Vec<(usize, usize)>,
    /// The entry of `writes` that alone changed since the gather its other entries come
    /// from: the default block's, after `VkPipe::regather_default_block`.
    pub(crate) only_changed: Option<usize>,
    /// The allocation descriptor writes are built in (always empty between uses).
    pub(crate) write_scratch: Vec<vk::WriteDescriptorSet<'static>>,
    /// Images the draw being prepared samples while its framebuffer has them attached
    /// (gathered with its descriptors): its pass keeps them in the feedback layout.
    pub(crate) feedback: Vec<vk::Image>,
    /// The open pass's attachments in the feedback layout (`PipelineKey::feedback`).
    pub(crate) pass_feedback: u16,
}

impl Recording {
    /// After a drawn clear: its pipeline is bound and the dynamic state and push constants
    /// it set are unknown to the next draw, which sets them again.
    pub fn forget_after_clear(&mut self, pipeline: vk::Pipeline) {
        self.prepared = None;
        self.pipeline = pipeline;
        self.layout = vk::PipelineLayout::null();
        self.viewport = None;
        self.scissor = None;
        self.stencil_ref = None;
        self.point_size = None;
        self.draw_params = None;
    }

    /// A fresh command buffer: nothing bound, nothing set.
    pub fn reset(&mut self, cmd: vk::CommandBuffer, serial: u64) {
        let scratch = (
            std::mem::take(&mut self.key),
            std::mem::take(&mut self.images),
            std::mem::take(&mut self.buffers),
            std::mem::take(&mut self.texels),
            std::mem::take(&mut self.writes),
            std::mem::take(&mut self.write_scratch),
            std::mem::take(&mut self.feedback),
            std::mem::take(&mut self.spans),
            std::mem::take(&mut self.pushed_spans),
        );
        let active_queries = self.active_queries;
        *self = Self::default();
        self.active_queries = active_queries;
        (
            self.key,
            self.images,
            self.buffers,
            self.texels,
            self.writes,
            self.write_scratch,
            self.feedback,
            self.spans,
            self.pushed_spans,
        ) = scratch;
        self.feedback.clear();
        self.cmd = cmd;
        self.serial = serial;
    }
}

pub(crate) fn same_target(
    t: &Target,
    fb: FramebufferRef,
    draw_buffers: &[u8; MAX_DRAW_BUFFERS],
    epoch: u64,
    srgb: bool,
) -> bool {
    t.fb == fb && t.draw_buffers == *draw_buffers && t.epoch == epoch && t.srgb == srgb
}

/// What a draw reads from its index source after emulation.
pub(crate) enum Indices {
    None,
    /// The bound index buffer at an offset.
    Bound(vk::Buffer, u64, vk::IndexType),
    /// Generated or copied indices in the arena.
    Arena(Slice, vk::IndexType),
}

impl VkPipe {
    /// A non-indexed draw whose vertex count the device knows (`record` records the draw
    /// command): prepared as `Draw` is, and captured if the context captures.
    pub(crate) fn draw_with(
        &mut self,
        ctx: &mut VkContext,
        topology: Topology,
        instances: u32,
        record: impl FnOnce(&mut Self),
    ) -> R {
        let extent = DrawExtent {
            vertices: None,
            instances: instance_extent(instances, 0),
        };
        ctx.indexed_draw = false;
        if !self.prepare(
            ctx,
            conv::map_topology(topology),
            &Indices::None,
            false,
            extent,
        )? {
            return Ok(());
        }
        let capturing = self.xfb_before_draw(ctx);
        record(self);
        if capturing {
            self.xfb_after_draw(ctx);
        }
        crate::device::count(&self.stats.draws);
        Ok(())
    }
}

impl DrawPipe for VkPipe {
    /// `Draw`.
    fn draw(&mut self, ctx: &mut VkContext, draw: DrawArgs) -> R {
        let DrawArgs {
            topology,
            first,
            count,
            instances,
            base_instance,
        } = draw;
        if count == 0 || instances == 0 || !self.condition_allows(ctx)? {
            return Ok(());
        }
        ctx.indexed_draw = false;
        let emulated = match topology {
            Topology::LineLoop => count >= 2,
            Topology::TriangleFan => !self.tiers.triangle_fans,
            _ => false,
        };
        if emulated {
            return self.draw_emulated(ctx, draw);
        }
        let extent = DrawExtent {
            vertices: Some(first.saturating_add(count)),
            instances: instance_extent(instances, base_instance),
        };
        if !self.prepare(
            ctx,
            conv::map_topology(topology),
            &Indices::None,
            false,
            extent,
        )? {
            return Ok(());
        }
        self.check_base_instance(base_instance);
        let capturing = self.xfb_before_draw(ctx);
        // SAFETY: recording inside the target's pass with a pipeline, descriptors and
        // vertex buffers bound by `prepare`; a nonzero first instance only where the
        // device has drawIndirectFirstInstance (`draw_indirect` reads such commands back
        // otherwise; a direct draw may always start at any instance).
        unsafe {
            self.raw
                .cmd_draw(self.rec.cmd, count, instances, first, base_instance)
        };
        if capturing {
            self.xfb_after_draw(ctx);
        }
        crate::device::count(&self.stats.draws);
        Ok(())
    }

    /// `DrawIndexed`.
    fn draw_indexed(&mut self, ctx: &mut VkContext, draw: DrawIndexedArgs) -> R {
        const N: &str = "DrawIndexed";
        let (topology, index_type, offset) = (draw.topology, draw.index_type, draw.offset);
        let (count, instances, base_vertex) = (draw.count, draw.instances, draw.base_vertex);
        let base_instance = draw.base_instance;
        if count == 0 || instances == 0 || !self.condition_allows(ctx)? {
            return Ok(());
        }
        ctx.indexed_draw = true;
        let size = u64::from(index_type.size());
        let bytes = u64::from(count) * size;
        let buffer = match ctx
            .desired
            .index_buffer
            .map(|b| self.buffers.get_range(N, b, offset, bytes))
        {
            Some(Ok(b)) => b.owned.buffer,
            _ => {
                log::warn!(
                    "tessera-backend-vk: DrawIndexed reads outside its index buffer: skipped"
                );
                return Ok(());
            }
        };
        let (enabled, restart_index) = ctx.desired.restart(index_type);
        let widen = index_type == IndexType::U8 && !self.tiers.index_u8;
        let rewrite = enabled && restart_index != conv::max_index(index_type);
        let (mut topology, mut count) = (topology, count);
        let (buffer, offset, index_type) = if enabled && topology == Topology::LineLoop {
            // Each loop between restarts closes on its own first vertex: a strip per loop.
            let Some(ib) = ctx.desired.index_buffer else {
                return Ok(());
            };
            match self.rewrite_line_loops(ib, offset, count, index_type, restart_index)? {
                Some((buffer, offset, n)) => {
                    (topology, count) = (Topology::LineStrip, n);
                    (buffer, offset, IndexType::U32)
                }
                None => return Ok(()),
            }
        } else if widen || rewrite {
            let Some(ib) = ctx.desired.index_buffer else {
                return Ok(());
            };
            match self.rewrite_indices(
                ib,
                offset,
                count,
                index_type,
                widen,
                enabled.then_some(restart_index),
            )? {
                Some(s) => s,
                None => return Ok(()),
            }
        } else {
            (buffer, offset, index_type)
        };
        let size = u64::from(index_type.size());
        let bytes = u64::from(count) * size;
        let ty = conv::map_index_type(index_type);
        let native = conv::map_topology(topology);
        // Emulations copy indices on the GPU into the arena (outside the pass).
        let (native, indices, n) = match topology {
            Topology::LineLoop if count >= 2 => {
                let s = self.arena(bytes + size, 4)?;
                let regions = [
                    vk::BufferCopy {
                        src_offset: offset,
                        dst_offset: s.offset,
                        size: bytes,
                    },
                    vk::BufferCopy {
                        src_offset: offset,
                        dst_offset: s.offset + bytes,
                        size,
                    },
                ];
                self.copy_indices(buffer, s.buffer, &regions);
                (native, Indices::Arena(s, ty), count + 1)
            }
            Topology::TriangleFan if !self.tiers.triangle_fans => {
                if count < 3 {
                    return Ok(());
                }
                let s = self.arena(u64::from(count - 2) * 3 * size, 4)?;
                let mut regions = Vec::with_capacity(2 * (count as usize - 2));
                for k in 0..u64::from(count - 2) {
                    regions.push(vk::BufferCopy {
                        src_offset: offset,
                        dst_offset: s.offset + 3 * k * size,
                        size,
                    });
                    regions.push(vk::BufferCopy {
                        src_offset: offset + (k + 1) * size,
                        dst_offset: s.offset + (3 * k + 1) * size,
                        size: 2 * size,
                    });
                }
                self.copy_indices(buffer, s.buffer, &regions);
                (
                    vk::PrimitiveTopology::TRIANGLE_LIST,
                    Indices::Arena(s, ty),
                    (count - 2) * 3,
                )
            }
            _ => (native, Indices::Bound(buffer, offset, ty), count),
        };
        // Rewritten indices restart at the maximum too.
        let restart = enabled
            && matches!(indices, Indices::Bound(..))
            && (conv::is_strip(native) || self.tiers.list_restart);
        let extent = DrawExtent {
            vertices: None,
            instances: instance_extent(instances, base_instance),
        };
        if !self.prepare(ctx, native, &indices, restart, extent)? {
            return Ok(());
        }
        self.check_base_instance(base_instance);
        let capturing = self.xfb_before_draw(ctx);
        // SAFETY: recording inside the pass with everything bound by `prepare`, including an
        // index buffer holding `n` indices from its bound offset.
        unsafe {
            self.raw
                .cmd_draw_indexed(self.rec.cmd, n, instances, 0, base_vertex, base_instance)
        };
        if capturing {
            self.xfb_after_draw(ctx);
        }
        crate::device::count(&self.stats.draws);
        Ok(())
    }

    /// `MultiDraw` and `MultiDrawIndexed` (`multi_draw.rs`).
    fn multi_draw(&mut self, ctx: &mut VkContext, draw: MultiDrawArgs<'_>) -> R {
        self.draw_multi(ctx, draw)
    }

    /// `DrawIndirect` and `DrawIndexedIndirect` (`indirect.rs`).
    fn draw_indirect(&mut self, ctx: &mut VkContext, draw: DrawIndirectArgs) -> R {
        if !self.condition_allows(ctx)? {
            return Ok(());
        }
        self.draw_from_buffer(ctx, draw)
    }

    /// `Clear` (`clear.rs`).
    fn clear(&mut self, ctx: &mut VkContext, clear: ClearArgs) -> R {
        if !self.condition_allows(ctx)? {
            return Ok(());
        }
        self.clear_framebuffer(ctx, clear)
    }

    /// `ClearBuffer` (`clear.rs`).
    fn clear_buffer(&mut self, ctx: &mut VkContext, draw_buffer: u8, value: ClearValue) -> R {
        if !self.condition_allows(ctx)? {
            return Ok(());
        }
        self.clear_draw_buffer(ctx, draw_buffer, value)
    }

    /// `Blit` (`blit.rs`): Vulkan does not predicate blits, so a condition is read on the
    /// host (`condition.rs`).
    fn blit(&mut self, ctx: &mut VkContext, blit: BlitArgs) -> R {
        if !self.condition_verdict(ctx)? {
            return Ok(());
        }
        self.blit_framebuffer(ctx, blit)
    }

    /// `BeginConditionalRender` (`condition.rs`).
    fn begin_conditional_render(
        &mut self,
        ctx: &mut VkContext,
        query: QueryHandle,
        inverted: bool,
    ) -> R {
        self.begin_condition(ctx, query, inverted)
    }

    /// `EndConditionalRender` (`condition.rs`).
    fn end_conditional_render(&mut self, ctx: &mut VkContext) -> R {
        self.end_condition(ctx)
    }

    /// `Flush`: submits what was recorded, if anything.
    fn flush(&mut self) -> R {
        if self.rec.work {
            self.submit()?;
        }
        Ok(())
    }

    /// `Finish`: submits and waits for the submission.
    fn finish(&mut self) -> R {
        let serial = self.submit()?;
        self.wait_serial(serial)
    }

    /// `Present`: submits; a surface presented into a window is copied into it first
    /// (`present.rs`).
    fn present(&mut self, surface: SurfaceHandle) -> R {
        self.present_window(surface)
    }
}

impl VkPipe {
    /// Records a global memory barrier if anything was written since the last one.
    pub fn sync(&mut self) {
        self.rec.work = true;
        if !self.rec.dirty_mem {
            return;
        }
        // Callers end the render pass first.
        crate::image::memory_barrier(
            &self.raw,
            self.rec.cmd,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::AccessFlags::MEMORY_WRITE,
            vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE,
        );
        self.rec.dirty_mem = false;
    }

    /// Ends the render pass (running pending clears) and synchronizes: transfer work may
    /// follow.
    pub fn transfer_begin(&mut self) {
        if let Err(e) = self.end_pass() {
            log::error!("tessera-backend-vk: ending a render pass failed: {e}");
        }
        self.sync();
    }

    /// Ends the open render pass; begins and ends one for pending clears.
    pub fn end_pass(&mut self) -> Result<(), SessionError> {
        if self.rec.pass.is_none()
            && let Some(p) = self.rec.pending.clone()
        {
            self.begin_pass(&p.target)?;
        }
        if self.rec.pass.take().is_some() {
            self.rec.prepared = None;
            // SAFETY: recording inside the render pass begun by begin_pass.
            unsafe { self.raw.cmd_end_render_pass(self.rec.cmd) };
            self.rec.dirty_mem = true;
        }
        Ok(())
    }

    /// Makes `target`'s pass the open one (with pending clears as load ops).
    pub(crate) fn begin_pass(&mut self, target: &Target) -> Result<(), SessionError> {
        if let Some(p) = &self.rec.pass
            && same_target(
                p,
                target.fb,
                &target.draw_buffers,
                target.epoch,
                target.srgb,
            )
        {
            return Ok(());
        }
        let pending = match self.rec.pending.take() {
            Some(p)
                if same_target(
                    &p.target,
                    target.fb,
                    &target.draw_buffers,
                    target.epoch,
                    target.srgb,
                ) =>
            {
                Some(p)
            }
            Some(other) => {
                // Another target's clears: run them first.
                self.rec.pending = Some(other);
                self.end_pass()?;
                None
            }
            None => None,
        };
        self.end_pass()?;
        let (raw, cmd) = (self.raw.clone(), self.rec.cmd);
        let mut feedback = 0;
        // Images the draw also samples stay in the feedback layout (descriptor.rs put them
        // there); the others take their attachment layouts.
        let noted = std::mem::take(&mut self.rec.feedback);
        let feedback_layout = self.feedback_layout;
        for (at, r) in target.images.iter().enumerate() {
            let Some(s) = self.image_mut("", r.src)? else {
                continue;
            };
            if s.layout == feedback_layout && noted.contains(&s.image) {
                feedback |= target.attachment_bit(at);
                continue;
            }
            let layout = if s.native.is_depth_stencil() {
                vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL
            } else {
                vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL
            };
            transition(&raw, cmd, s, layout);
        }
        self.rec.feedback = noted;
        self.sync();
        let mut key = target.pass;
        let mut values = vec![vk::ClearValue::default(); target.images.len()];
        if let Some(p) = &pending {
            for (i, v) in p.values.iter().enumerate() {
                if let Some(v) = v {
                    values[i] = *v;
                }
            }
            for (slot, at) in target.slot.iter().enumerate() {
                if let Some(at) = at
                    && p.values.get(usize::from(*at)).is_some_and(Option::is_some)
                {
                    key.clears |= 1 << slot;
                }
            }
            if p.depth {
                key.clears |= 1 << 8;
            }
            if p.stencil {
                key.clears |= 1 << 9;
            }
        }
        let pass = self.render_pass_with(&key, feedback)?;
        let info = vk::RenderPassBeginInfo::default()
            .render_pass(pass)
            .framebuffer(target.framebuffer)
            .render_area(vk::Rect2D {
                offset: vk::Offset2D::default(),
                extent: target.extent,
            })
            .clear_values(&values);
        // SAFETY: recording outside a pass; the framebuffer was made for a pass compatible
        // with `pass`; every attachment is in the layout the pass expects (transitioned
        // above); one clear value per attachment.
        unsafe {
            self.raw
                .cmd_begin_render_pass(cmd, &info, vk::SubpassContents::INLINE)
        };
        crate::device::count(&self.stats.pass_instances);
        self.rec.pass = Some(target.clone());
        self.rec.pass_feedback = feedback;
        self.rec.prepared = None;
        self.rec.work = true;
        Ok(())
    }

    /// The target of a context's framebuffer, reusing the open pass's when it is the same.
    pub(crate) fn ctx_target(&mut self, ctx: &VkContext) -> Result<Option<Target>, SessionError> {
        let srgb = self.srgb_of(ctx);
        if let Some(p) = &self.rec.pass
            && same_target(
                p,
                ctx.desired.framebuffer,
                &ctx.desired.draw_buffers,
                self.epoch,
                srgb,
            )
        {
            return Ok(Some(p.clone()));
        }
        self.target(ctx.desired.framebuffer, &ctx.desired.draw_buffers, srgb)
    }

    /// The context's `FRAMEBUFFER_SRGB` (from its raster state).
    pub(crate) fn srgb_of(&self, ctx: &VkContext) -> bool {
        self.interned.raster.value(ctx.raster).framebuffer_srgb
    }

    /// Whether the open pass is the context's target (no target lookup needed).
    pub(crate) fn pass_is(&self, ctx: &VkContext) -> bool {
        let srgb = self.srgb_of(ctx);
        self.rec.pass.as_ref().is_some_and(|p| {
            same_target(
                p,
                ctx.desired.framebuffer,
                &ctx.desired.draw_buffers,
                self.epoch,
                srgb,
            )
        })
    }

    // ---- Draws ----

    /// A `Draw` of a topology Vulkan lacks: a line loop (two or more vertices) as an
    /// indexed strip closed by its first vertex, a fan (without fan support) as an indexed
    /// triangle list; the indices are written into the arena.
    #[cold]
    #[inline(never)]
    fn draw_emulated(&mut self, ctx: &mut VkContext, draw: DrawArgs) -> R {
        let DrawArgs {
            topology,
            first,
            count,
            instances,
            base_instance,
        } = draw;
        let (native, s, n) = if topology == Topology::LineLoop {
            let s = self.arena(u64::from(count + 1) * 4, 4)?;
            s.write_words((first..first + count).chain([first]));
            (conv::map_topology(topology), s, count + 1)
        } else {
            if count < 3 {
                return Ok(());
            }
            let s = self.arena(u64::from(count - 2) * 12, 4)?;
            s.write_words((1..count - 1).flat_map(|k| [first, first + k, first + k + 1]));
            (vk::PrimitiveTopology::TRIANGLE_LIST, s, (count - 2) * 3)
        };
        let extent = DrawExtent {
            vertices: Some(first.saturating_add(count)),
            instances: instance_extent(instances, base_instance),
        };
        let indices = Indices::Arena(s, vk::IndexType::UINT32);
        if !self.prepare(ctx, native, &indices, false, extent)? {
            return Ok(());
        }
        self.check_base_instance(base_instance);
        let capturing = self.xfb_before_draw(ctx);
        // SAFETY: recording inside the target's pass with everything bound by `prepare`,
        // including the arena index buffer of `n` indices.
        unsafe {
            self.raw
                .cmd_draw_indexed(self.rec.cmd, n, instances, 0, 0, base_instance)
        };
        if capturing {
            self.xfb_after_draw(ctx);
        }
        crate::device::count(&self.stats.draws);
        Ok(())
    }

    fn copy_indices(&mut self, from: vk::Buffer, to: vk::Buffer, regions: &[vk::BufferCopy]) {
        self.transfer_begin();
        // SAFETY: recording outside a pass; the source ranges lie inside the index buffer
        // (checked by the caller) and the destination inside the arena slice allocated for
        // them; the arena buffer has TRANSFER_DST usage.
        unsafe { self.raw.cmd_copy_buffer(self.rec.cmd, from, to, regions) };
        self.rec.dirty_mem = true;
    }

    /// Everything before the draw command. `false`: the draw does nothing (no target, no
    /// usable program, a missing vertex buffer, an empty viewport).
    ///
    /// When the command buffer still holds what this context's previous draw prepared and
    /// no state record changed anything since (a steady draw), only the index buffer is
    /// looked at; otherwise [`VkPipe::prepare_changed`] redoes the parts that changed.
    #[inline]
    pub(crate) fn prepare(
        &mut self,
        ctx: &mut VkContext,
        topology: vk::PrimitiveTopology,
        indices: &Indices,
        restart: bool,
        extent: DrawExtent,
    ) -> Result<bool, SessionError> {
        let shape = Prepared {
            ctx: ctx.id,
            topology,
            restart,
        };
        if (ctx.dirty != 0 || self.rec.prepared != Some(shape))
            && !self.prepare_changed(ctx, shape, extent)?
        {
            return Ok(false);
        }
        self.push_draw_params(ctx);
        let want = match indices {
            Indices::None => return Ok(true),
            Indices::Bound(b, o, t) => (*b, *o, *t),
            Indices::Arena(s, t) => (s.buffer, s.offset, *t),
        };
        if self.rec.index != Some(want) {
            // SAFETY: recording; a live buffer with INDEX_BUFFER usage; the offset is a
            // multiple of the index size (the engine's offsets are; arena slices are 4-byte
            // aligned).
            unsafe {
                self.raw
                    .cmd_bind_index_buffer(self.rec.cmd, want.0, want.1, want.2)
            };
            self.rec.index = Some(want);
        }
        Ok(true)
    }

    /// Pushes `gl_DrawID`'s base and whether the draw is indexed where the bound program's
    /// vertex stage reads them (`spirv/draw_param.rs`) and they differ from what is pushed:
    /// the context's draw id plus [`VkContext::sub_draw`].
    pub(crate) fn push_draw_params(&mut self, ctx: &VkContext) {
        let Some(p) = ctx.desired.program.and_then(|h| self.programs.live(h)) else {
            return;
        };
        if !p.draw_params {
            return;
        }
        let layout = p.pipeline_layout;
        let values = [
            ctx.desired.draw_id.wrapping_add(ctx.sub_draw),
            u32::from(ctx.indexed_draw),
        ];
        if self.rec.draw_params == Some((values, layout)) {
            return;
        }
        let mut bytes = [0u8; 8];
        bytes[..4].copy_from_slice(&values[0].to_le_bytes());
        bytes[4..].copy_from_slice(&values[1].to_le_bytes());
        // SAFETY: recording; the layout's push-constant range covers bytes 0..16 for the
        // vertex and geometry stages, which the flags name whole
        // (VUID-vkCmdPushConstants-offset-01796); 8 bytes from offset 4 lie inside it.
        unsafe {
            self.raw.cmd_push_constants(
                self.rec.cmd,
                layout,
                vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::GEOMETRY,
                crate::spirv::DRAW_ID_OFFSET,
                &bytes,
            )
        };
        self.rec.draw_params = Some((values, layout));
    }

    /// The parts of [`VkPipe::prepare`] that may differ from what the command buffer
    /// holds: all of them unless it holds what this context's previous draw prepared, else
    /// those the context's dirty bits (and a new topology or restart) name. Skipping a part
    /// records nothing that redoing it would: each part compares with what is bound and
    /// records only differences, and a draw whose preparation recorded something that a
    /// repeat records again (a pass begun, repacked vertices, a point-size push the
    /// descriptors do not track) leaves `prepared` empty.
    #[inline(never)]
    fn prepare_changed(
        &mut self,
        ctx: &mut VkContext,
        shape: Prepared,
        extent_hint: DrawExtent,
    ) -> Result<bool, SessionError> {
        let dirty = match self.rec.prepared.take() {
            Some(p) if p.ctx == shape.ctx => {
                let shape_changed = p.topology != shape.topology || p.restart != shape.restart;
                ctx.dirty
                    | if shape_changed {
                        dirty::PIPELINE | dirty::DYNAMIC
                    } else {
                        0
                    }
            }
            _ => dirty::ALL,
        };
        let Some(handle) = ctx.desired.program else {
            return Ok(false);
        };
        let Some(p) = self.programs.live(handle) else {
            return Ok(false);
        };
        if !p.valid {
            return Ok(false);
        }
        let (block_size, inputs, double_inputs, set_layout, pipeline_layout, push) = (
            p.default_block_size,
            p.input_mask,
            p.double_input_mask,
            p.set_layout,
            p.pipeline_layout,
            p.push,
        );
        // Nothing is drawn when every viewport is empty (Vulkan's must have a size).
        let n = self.limits.viewports as usize;
        if ctx.desired.viewports[..n]
            .iter()
            .all(|(r, ..)| !(r[2] > 0.0 && r[3] > 0.0))
        {
            return Ok(false);
        }
        let topology = shape.topology;

        // Clears pending on another target run first: they write images this draw may
        // sample, whose layouts the descriptors are gathered for.
        if self.rec.pass.is_none()
            && let Some(p) = &self.rec.pending
            && !same_target(
                &p.target,
                ctx.desired.framebuffer,
                &ctx.desired.draw_buffers,
                self.epoch,
                self.srgb_of(ctx),
            )
        {
            self.end_pass()?;
        }

        // (1) Descriptors' resources and misaligned vertex arrays, outside the pass. The
        // descriptors gathered last are this context's and program's unless DESCRIPTORS
        // is dirty (a new program, another context's draw or any other record between
        // makes it so), so a change of the default block alone redoes its part only.
        if dirty & dirty::DESCRIPTORS != 0 {
            self.gather_descriptors(ctx, handle, set_layout, block_size, push, true)?;
        } else if dirty & dirty::UNIFORMS != 0 {
            self.regather_default_block(ctx, block_size, push)?;
        }
        let layout_id = if dirty & dirty::VERTICES != 0 {
            self.vertex_layout_for(ctx, inputs, extent_hint)?
        } else {
            ctx.layout
        };

        // (2) The pass (looked up only when it is not the open one).
        let began = !self.pass_is(ctx);
        if began {
            let srgb = self.srgb_of(ctx);
            let Some(target) =
                self.target(ctx.desired.framebuffer, &ctx.desired.draw_buffers, srgb)?
            else {
                return Ok(false);
            };
            self.begin_pass(&target)?;
        }
        let (pass_id, samples, extent) = match &self.rec.pass {
            Some(p) => (p.pass_id, p.pass.samples, p.extent),
            None => backend_bug("no open pass after begin_pass"),
        };
        let raster = self.interned.raster.value(ctx.raster);
        let point_size =
            topology == vk::PrimitiveTopology::POINT_LIST && !raster.program_point_size;

        // (3) The pipeline.
        if dirty & dirty::PIPELINE != 0 {
            let sample_mask = sample_mask(&ctx.desired, samples);
            let key = PipelineKey {
                blend: ctx.blend,
                depth_stencil: ctx.depth_stencil,
                raster: ctx.raster,
                layout: layout_id,
                pass: pass_id,
                topology: topology.as_raw(),
                restart: shape.restart,
                point_size,
                sample_mask,
                patch_vertices: if topology == vk::PrimitiveTopology::PATCH_LIST {
                    ctx.desired.patch_vertices
                } else {
                    0
                },
                feedback: if self.tiers.feedback_loop {
                    self.rec.pass_feedback
                } else {
                    0
                },
            };
            let pipeline = self.pipeline(handle, &key)?;
            if self.rec.pipeline != pipeline {
                // SAFETY: recording inside a pass compatible with the pipeline's.
                unsafe {
                    self.raw.cmd_bind_pipeline(
                        self.rec.cmd,
                        vk::PipelineBindPoint::GRAPHICS,
                        pipeline,
                    )
                };
                self.rec.pipeline = pipeline;
            }
        }

        // (4) Dynamic state.
        if dirty & (dirty::DYNAMIC | dirty::VIEWPORTS) != 0 {
            let viewports = dirty & dirty::VIEWPORTS != 0;
            self.dynamic_state(ctx, extent, point_size, pipeline_layout, viewports);
        }

        // (5) Descriptors.
        if dirty & (dirty::DESCRIPTORS | dirty::UNIFORMS) != 0 {
            self.bind_descriptors(set_layout, pipeline_layout, push)?;
        }

        // (6) Vertex buffers (the index buffer is the caller's).
        if dirty & dirty::VERTICES != 0
            && !self.bind_vertices(ctx, inputs, double_inputs, layout_id)?
        {
            return Ok(false);
        }
        ctx.dirty = 0;
        let repeats =
            began || self.rec.repacked || (point_size && self.rec.layout != pipeline_layout);
        if !repeats {
            self.rec.prepared = Some(shape);
        }
        Ok(true)
    }

    fn dynamic_state(
        &mut self,
        ctx: &VkContext,
        extent: vk::Extent2D,
        point_size: bool,
        layout: vk::PipelineLayout,
        viewports: bool,
    ) {
        let cmd = self.rec.cmd;
        if viewports {
            self.viewports_and_scissors(ctx, extent);
        }
        let bc = ctx.desired.blend_color.map(f32::to_bits);
        if self.rec.blend_constants != Some(bc) {
            // SAFETY: recording; dynamic blend constants.
            unsafe {
                self.raw
                    .cmd_set_blend_constants(cmd, &ctx.desired.blend_color)
            };
            self.rec.blend_constants = Some(bc);
        }
        if self.rec.stencil_ref != Some(ctx.desired.stencil_ref) {
            // SAFETY: recording; dynamic stencil reference.
            unsafe {
                self.raw.cmd_set_stencil_reference(
                    cmd,
                    vk::StencilFaceFlags::FRONT,
                    u32::from(ctx.desired.stencil_ref.0),
                );
                self.raw.cmd_set_stencil_reference(
                    cmd,
                    vk::StencilFaceFlags::BACK,
                    u32::from(ctx.desired.stencil_ref.1),
                );
            }
            self.rec.stencil_ref = Some(ctx.desired.stencil_ref);
        }
        let db = (
            ctx.desired.depth_bias.0.to_bits(),
            ctx.desired.depth_bias.1.to_bits(),
            ctx.desired.depth_bias.2.to_bits(),
        );
        if self.rec.depth_bias != Some(db) {
            // SAFETY: recording; dynamic depth bias. A clamp other than 0 needs the
            // depthBiasClamp feature (VUID-vkCmdSetDepthBias-depthBiasClamp-00790): the engine
            // takes glPolygonOffsetClamp only where the caps say the device has it (enabled
            // then, instance.rs), and sends 0 for GL's NaN.
            unsafe {
                self.raw.cmd_set_depth_bias(
                    cmd,
                    ctx.desired.depth_bias.1,
                    ctx.desired.depth_bias.2,
                    ctx.desired.depth_bias.0,
                )
            };
            self.rec.depth_bias = Some(db);
        }
        let mut width = ctx
            .desired
            .line_width
            .clamp(self.limits.line_width[0], self.limits.line_width[1]);
        if !self.core.wide_lines {
            if width != 1.0 {
                self.report(
                    Missing::WideLines,
                    "no wideLines feature: lines are 1 pixel wide",
                );
            }
            width = 1.0;
        }
        if self.rec.line_width != Some(width.to_bits()) {
            // SAFETY: recording; dynamic line width within the device's range (1.0 without
            // the wideLines feature).
            unsafe { self.raw.cmd_set_line_width(cmd, width) };
            self.rec.line_width = Some(width.to_bits());
        }
        if point_size {
            let size = if self.core.large_points {
                ctx.desired
                    .point_size
                    .clamp(self.limits.point_size[0], self.limits.point_size[1])
            } else {
                1.0
            };
            if self.rec.point_size != Some(size.to_bits()) || self.rec.layout != layout {
                let bytes = size.to_le_bytes();
                // SAFETY: recording; the layout's push-constant range covers bytes 0..16 for
                // the vertex and geometry stages.
                unsafe {
                    self.raw.cmd_push_constants(
                        cmd,
                        layout,
                        vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::GEOMETRY,
                        0,
                        &bytes,
                    )
                };
                self.rec.point_size = Some(size.to_bits());
            }
        }
    }

    /// Sets the viewports and scissors that differ from the command buffer's: every one the
    /// device has, derived from the context's.
    fn viewports_and_scissors(&mut self, ctx: &VkContext, extent: vk::Extent2D) {
        let cmd = self.rec.cmd;
        // Framebuffer row r is GL's window row r (nothing is flipped), so each GL viewport
        // is the Vulkan viewport of the same numbers. An empty one (GL draws nothing in it)
        // becomes a 1x1 viewport behind an empty scissor, since Vulkan's have a size. The
        // upper-left clip origin (glClipControl) is the same rectangle with a negative height
        // (Vulkan 1.1), its y at the rectangle's far edge: Mesa's viewport transform negates
        // the y scale and keeps the translation.
        let flip = self.interned.raster.value(ctx.raster).clip_upper_left;
        let n = self.limits.viewports as usize;
        let [lo, hi] = self.limits.viewport_bounds;
        let mut viewports = [vk::Viewport::default(); MAX_VIEWPORTS];
        let mut scissors = [vk::Rect2D::default(); MAX_VIEWPORTS];
        let mut bits = [[0u32; 6]; MAX_VIEWPORTS];
        for i in 0..n {
            let (r, near, far) = ctx.desired.viewports[i];
            let empty = !(r[2] > 0.0 && r[3] > 0.0);
            let (x, y) = (r[0].clamp(lo, hi - 1.0), r[1].clamp(lo, hi - 1.0));
            let height = if empty { 1.0 } else { r[3].min(hi - y) };
            let (y, height) = if flip {
                (y + height, -height)
            } else {
                (y, height)
            };
            let vp = vk::Viewport {
                x,
                y,
                width: if empty { 1.0 } else { r[2].min(hi - x) },
                height,
                min_depth: near.clamp(0.0, 1.0),
                max_depth: far.clamp(0.0, 1.0),
            };
            viewports[i] = vp;
            bits[i] =
                [vp.x, vp.y, vp.width, vp.height, vp.min_depth, vp.max_depth].map(f32::to_bits);
            scissors[i] = if empty {
                vk::Rect2D::default()
            } else {
                self.scissor_rect(ctx, extent, i).unwrap_or_default()
            };
        }
        if self.rec.viewport != Some(bits) {
            // SAFETY: recording; the pipeline has `n` dynamic viewports, each with a positive
            // size inside the device's bounds.
            unsafe { self.raw.cmd_set_viewport(cmd, 0, &viewports[..n]) };
            self.rec.viewport = Some(bits);
        }
        if self.rec.scissor != Some(scissors) {
            // SAFETY: recording; non-negative offsets, `n` dynamic scissors.
            unsafe { self.raw.cmd_set_scissor(cmd, 0, &scissors[..n]) };
            self.rec.scissor = Some(scissors);
        }
    }

    /// Binds the vertex buffers the program reads; `false` if one is missing. A double input
    /// (`double_inputs`) fetches only an array of doubles read as doubles, and no other
    /// input does: the pipeline gives the others the generic value.
    fn bind_vertices(
        &mut self,
        ctx: &mut VkContext,
        inputs: u16,
        double_inputs: u16,
        layout_id: u32,
    ) -> Result<bool, SessionError> {
        let fetch = self.interned.fetch(layout_id);
        let fetched = fetch.fetched & !(double_inputs ^ fetch.long);
        let cmd = self.rec.cmd;
        let mut left = inputs & fetched;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            let (buffer, offset) = ctx.desired.vertex_buffers[i];
            let Some(b) = buffer.and_then(|h| self.buffers.live(h)) else {
                // A dangling or missing array: GL would have refused the draw.
                return Ok(false);
            };
            let want = match self.rec.vertex_override[i] {
                Some(o) if self.rec.repacked => o,
                _ => (b.owned.buffer, offset),
            };
            if self.rec.vertex[i] != want {
                // SAFETY: recording; a live buffer with VERTEX_BUFFER usage.
                unsafe {
                    self.raw
                        .cmd_bind_vertex_buffers(cmd, i as u32, &[want.0], &[want.1])
                };
                self.rec.vertex[i] = want;
            }
        }
        // A dvec3 or dvec4 array of two components reads the rest from the generic value.
        if inputs & !fetched != 0 || double_inputs != 0 {
            self.bind_generic(ctx)?;
        }
        Ok(true)
    }

    /// Binds the generic attribute values (written into the arena once per frame and
    /// change) for attributes that read no array.
    fn bind_generic(&mut self, ctx: &mut VkContext) -> Result<(), SessionError> {
        let fresh = ctx.generic_at.filter(|(s, _)| *s == self.rec.serial);
        let slice = match fresh {
            Some((_, s)) => s,
            None => {
                let s = self.arena(512, 16)?;
                for (k, v) in ctx.desired.generic.iter().enumerate() {
                    for (j, w) in v.iter().enumerate() {
                        s.write_at(16 * k + 4 * j, &w.to_le_bytes());
                    }
                }
                ctx.generic_at = Some((self.rec.serial, s));
                s
            }
        };
        let want = (slice.buffer, slice.offset);
        let at = GENERIC_BINDING as usize;
        if self.rec.vertex[at] != want {
            // SAFETY: recording; an arena buffer with VERTEX_BUFFER usage holding 512
            // bytes at the offset.
            unsafe {
                self.raw.cmd_bind_vertex_buffers(
                    self.rec.cmd,
                    GENERIC_BINDING,
                    &[want.0],
                    &[want.1],
                )
            };
            self.rec.vertex[at] = want;
        }
        Ok(())
    }
}

/// The sample mask of a pipeline: all samples of a single-sampled pass, else GL's sample
/// mask and coverage (`SetSampleMask`) over the pass's samples.
fn sample_mask(d: &DesiredState, samples: vk::SampleCountFlags) -> u32 {
    if samples == vk::SampleCountFlags::TYPE_1 {
        return u32::MAX;
    }
    let n = samples.as_raw();
    let all = (1u32 << n) - 1;
    let mut m = d.sample_mask.2.unwrap_or(u32::MAX) & all;
    if let Some(c) = d.sample_mask.0 {
        let bits = ((c.clamp(0.0, 1.0) * n as f32).round() as u32).min(n);
        let mut cov = if bits >= 32 {
            u32::MAX
        } else {
            (1u32 << bits) - 1
        };
        if d.sample_mask.1 {
            cov = !cov & all;
        }
        m &= cov;
    }
    m
}

impl VkPipe {
    /// Reports, once, a base instance that `gl_InstanceID` will count: the device lacks
    /// `shaderDrawParameters`, so the vertex stage cannot subtract it
    /// (`spirv/instance_id.rs`).
    pub(crate) fn check_base_instance(&mut self, base_instance: u32) {
        if base_instance != 0 && !self.tiers.draw_parameters {
            self.report(
                Missing::DrawParameters,
                "without shaderDrawParameters, gl_InstanceID counts from a draw's base instance",
            );
        }
    }
}

/// The instance count a draw's repacked instanced arrays must cover: every element from
/// the first when a base instance moves the start (the arrays' own length bounds it).
pub(crate) fn instance_extent(instances: u32, base_instance: u32) -> u32 {
    if base_instance == 0 {
        instances
    } else {
        u32::MAX
    }
}

/// How many vertices and instances a draw reads (`None` vertices: indexed, unknown).
#[derive(Clone, Copy, Debug)]
pub(crate) struct DrawExtent {
    pub vertices: Option<u32>,
    pub instances: u32,
}

impl VkPipe {
    /// The layout id the pipeline of a draw must use: the context's, unless an array the
    /// program reads has an offset or stride Vulkan cannot fetch
    /// ([`VkPipe::repack_vertices`]).
    fn vertex_layout_for(
        &mut self,
        ctx: &VkContext,
        inputs: u16,
        extent: DrawExtent,
    ) -> Result<u32, SessionError> {
        let fetch = self.interned.fetch(ctx.layout);
        let used = inputs & fetch.fetched;
        let mut misaligned = used & !fetch.stride_aligned != 0;
        let mut left = used;
        while left != 0 && !misaligned {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            misaligned = ctx.desired.vertex_buffers[i].1 & u64::from(fetch.align_mask[i]) != 0;
        }
        if misaligned {
            return self.repack_vertices(ctx, used, extent);
        }
        if self.rec.repacked {
            self.rec.vertex_override = [None; MAX_VERTEX_ATTRIBS];
            self.rec.repacked = false;
        }
        Ok(ctx.layout)
    }

    /// Copies vertex arrays Vulkan cannot fetch (offset or stride not a multiple of the
    /// component size; GL allows them) into the arena with an aligned stride, and returns
    /// the layout id the pipeline must use (the context's, or one with the new strides).
    /// `used`: the fetched attributes the program reads.
    #[cold]
    #[inline(never)]
    fn repack_vertices(
        &mut self,
        ctx: &VkContext,
        used: u16,
        extent: DrawExtent,
    ) -> Result<u32, SessionError> {
        self.rec.vertex_override = [None; MAX_VERTEX_ATTRIBS];
        self.rec.repacked = false;
        let mut layout = *self.interned.layout.value(ctx.layout);
        let mut changed = false;
        for i in 0..MAX_VERTEX_ATTRIBS {
            let a = layout.attribs[i];
            if used & (1 << i) == 0 {
                continue;
            }
            let (align, size) = conv::vertex_layout_bytes(a.format);
            let (buffer, offset) = ctx.desired.vertex_buffers[i];
            if offset.is_multiple_of(u64::from(align)) && a.stride.is_multiple_of(align) {
                continue;
            }
            let Some((src, total)) = buffer
                .and_then(|h| self.buffers.live(h))
                .map(|b| (b.owned.buffer, b.size))
            else {
                continue;
            };
            let (stride, size64) = (u64::from(a.stride), u64::from(size));
            if offset + size64 > total {
                continue;
            }
            let available = (total - offset - size64)
                .checked_div(stride)
                .map_or(1, |n| n + 1);
            let wanted = match (a.divisor, extent.vertices) {
                (0, Some(v)) => u64::from(v),
                (0, None) => available,
                (d, _) => u64::from(extent.instances.div_ceil(d)),
            };
            let n = wanted.min(available).max(1);
            let packed = u64::from(size.next_multiple_of(4));
            let dst = self.arena(n * packed, 4)?;
            let regions: Vec<vk::BufferCopy> = (0..n)
                .map(|k| vk::BufferCopy {
                    src_offset: offset + k * stride,
                    dst_offset: dst.offset + k * packed,
                    size: size64,
                })
                .collect();
            self.transfer_begin();
            // SAFETY: recording outside a pass; every source range lies inside the buffer
            // (`n` is bounded by what it holds) and every destination inside the arena
            // slice allocated for `n` aligned elements; the arena has TRANSFER_DST usage.
            unsafe {
                self.raw
                    .cmd_copy_buffer(self.rec.cmd, src, dst.buffer, &regions)
            };
            self.rec.dirty_mem = true;
            // A stride of 0 reads the one element copied for every vertex.
            if a.stride != 0 {
                layout.attribs[i].stride = packed as u32;
            }
            self.rec.vertex_override[i] = Some((dst.buffer, dst.offset));
            changed = true;
        }
        self.rec.repacked = changed;
        Ok(if changed {
            self.interned.intern_layout(&layout)
        } else {
            ctx.layout
        })
    }
}

impl VkPipe {
    /// Indices Vulkan cannot read as they are: 8-bit ones without
    /// `VK_EXT_index_type_uint8` (widened to 16 bits) and a restart index other than the
    /// type's maximum (GL allows any; Vulkan restarts only at the maximum). The range is read
    /// back (a stall: these paths are rare and never the steady state of the programs of
    /// interest), rewritten on the CPU into the arena, and drawn from there: (buffer,
    /// offset, type).
    fn rewrite_indices(
        &mut self,
        ib: BufferHandle,
        offset: u64,
        count: u32,
        index_type: IndexType,
        widen: bool,
        restart: Option<u32>,
    ) -> Result<Option<(vk::Buffer, u64, IndexType)>, SessionError> {
        let size = u64::from(index_type.size());
        let raw = self.read_buffer_range("DrawIndexed", ib, offset, u64::from(count) * size)?;
        let out_type = if widen { IndexType::U16 } else { index_type };
        let max = conv::max_index(out_type);
        let mut out = Vec::with_capacity(count as usize * out_type.size() as usize);
        for chunk in raw.chunks_exact(size as usize) {
            let mut v = 0u32;
            for (i, b) in chunk.iter().enumerate() {
                v |= u32::from(*b) << (8 * i);
            }
            let v = if restart == Some(v) { max } else { v };
            out.extend_from_slice(&v.to_le_bytes()[..out_type.size() as usize]);
        }
        if out.is_empty() {
            return Ok(None);
        }
        let slice = self.arena(out.len() as u64, 4)?;
        slice.write(&out);
        Ok(Some((slice.buffer, slice.offset, out_type)))
    }

    /// The indices of a line loop drawn with primitive restart, as 32-bit indices of line
    /// strips that restart at the maximum: each loop of two or more vertices followed by
    /// its first vertex. Returns the arena slice and its index count (`None`: no line).
    #[cold]
    fn rewrite_line_loops(
        &mut self,
        ib: BufferHandle,
        offset: u64,
        count: u32,
        index_type: IndexType,
        restart: u32,
    ) -> Result<Option<(vk::Buffer, u64, u32)>, SessionError> {
        let size = index_type.size() as usize;
        let raw =
            self.read_buffer_range("DrawIndexed", ib, offset, u64::from(count) * size as u64)?;
        let indices = raw.chunks_exact(size).map(|chunk| {
            chunk
                .iter()
                .enumerate()
                .fold(0u32, |v, (i, b)| v | u32::from(*b) << (8 * i))
        });
        let mut out: Vec<u32> = Vec::with_capacity(count as usize + count as usize / 2 + 1);
        let close = |out: &mut Vec<u32>, start: usize| {
            if out.len() - start >= 2 {
                out.push(out[start]);
                out.push(u32::MAX);
            } else {
                out.truncate(start);
            }
        };
        let mut start = 0;
        for v in indices {
            if v == restart {
                close(&mut out, start);
                start = out.len();
            } else {
                out.push(v);
            }
        }
        close(&mut out, start);
        if out.is_empty() {
            return Ok(None);
        }
        let slice = self.arena(out.len() as u64 * 4, 4)?;
        slice.write_words(out.iter().copied());
        Ok(Some((slice.buffer, slice.offset, out.len() as u32)))
    }
}

//! Multi-draws: `MultiDraw` and `MultiDrawIndexed`, the draws of one `glMultiDrawArrays` or
//! `glMultiDrawElements(BaseVertex)` call.
//!
//! Where the device has `VK_EXT_multi_draw` ([`Tiers::multi_draw`]) the call is one
//! `vkCmdDrawMultiEXT`/`vkCmdDrawMultiIndexedEXT` after one preparation, and `gl_DrawID`
//! is Vulkan's `DrawIndex`, which counts the draws of that command from 0 as GL counts those
//! of the call. A call the backend must emulate (line loops; fans where the device has none;
//! 8-bit indices without `VK_EXT_index_type_uint8`; a restart index other than the type's
//! maximum), one with a draw whose indices lie outside the index buffer or at an offset that
//! is not a multiple of the index size, or one of more draws than the command takes, is
//! drawn one draw at a time as direct draws, each draw's index reaching the vertex stage
//! through the push constants ([`VkContext::sub_draw`]), as indirect commands drawn one by
//! one do. Draws the engine merged (`same_draw_id`) all read `gl_DrawID` 0: they are one
//! command only where the program does not read it, else drawn one by one with 0 pushed.
//!
//! [`Tiers::multi_draw`]: crate::Tiers::multi_draw

use ash::vk;
use tessera_wire::dispatch::{DirectDraw, DrawPipe, MultiDrawArgs, R};
use tessera_wire::format::{IndexType, Topology};

use crate::command::{DrawExtent, Indices, VkContext};
use crate::conv;
use crate::device::{VkPipe, count};

/// The draws of one multi-draw command as `VkMultiDraw*InfoEXT`, kept by the backend between
/// commands so that their memory is reused.
#[derive(Default)]
pub(crate) struct Scratch {
    arrays: Vec<vk::MultiDrawInfoEXT>,
    indexed: Vec<vk::MultiDrawIndexedInfoEXT>,
}

impl VkPipe {
    /// `MultiDraw` and `MultiDrawIndexed` (module docs).
    pub(crate) fn draw_multi(&mut self, ctx: &mut VkContext, draw: MultiDrawArgs<'_>) -> R {
        let Some(fns) = self.gpu.multi_draw.as_ref().map(|d| d.fp().clone()) else {
            return self.draw_one_by_one(ctx, draw);
        };
        let reads_draw_id = draw.same_draw_id
            && ctx
                .desired
                .program
                .and_then(|h| self.programs.live(h))
                .is_some_and(|p| p.draw_params);
        if draw.len() > self.tiers.multi_draw as usize
            || reads_draw_id
            || self.multi_draw_emulated(ctx, &draw)
        {
            return self.draw_one_by_one(ctx, draw);
        }
        let (native, indices, restart) = match draw.index_type {
            None => (conv::map_topology(draw.topology), Indices::None, false),
            Some(ty) => {
                let Some(ib) = ctx.desired.index_buffer else {
                    return self.draw_one_by_one(ctx, draw);
                };
                let size = u64::from(ty.size());
                let fits = |d: DirectDraw| match d {
                    DirectDraw::Elements(e) => {
                        e.offset.is_multiple_of(size)
                            && e.offset / size <= u64::from(u32::MAX)
                            && self
                                .buffers
                                .get_range(
                                    "MultiDrawIndexed",
                                    ib,
                                    e.offset,
                                    u64::from(e.count) * size,
                                )
                                .is_ok()
                    }
                    DirectDraw::Arrays(_) => false,
                };
                if !draw.draws().all(fits) {
                    return self.draw_one_by_one(ctx, draw);
                }
                let Some(buffer) = self.buffers.live(ib).map(|b| b.owned.buffer) else {
                    return self.draw_one_by_one(ctx, draw);
                };
                let native = conv::map_topology(draw.topology);
                let enabled = ctx.desired.restart(ty).0;
                let restart = enabled && (conv::is_strip(native) || self.tiers.list_restart);
                let indices = Indices::Bound(buffer, 0, conv::map_index_type(ty));
                (native, indices, restart)
            }
        };
        if !self.condition_allows(ctx)? {
            return Ok(());
        }
        ctx.indexed_draw = draw.index_type.is_some();
        let vertices = match draw.index_type {
            None => draw
                .draws()
                .map(|d| match d {
                    DirectDraw::Arrays(a) => a.first.saturating_add(a.count),
                    DirectDraw::Elements(_) => 0,
                })
                .max(),
            Some(_) => None,
        };
        let extent = DrawExtent {
            vertices,
            instances: 1,
        };
        if !self.prepare(ctx, native, &indices, restart, extent)? {
            return Ok(());
        }
        let capturing = self.xfb_before_draw(ctx);
        let n = draw.len() as u32;
        match draw.index_type {
            None => {
                // The record's words are VkMultiDrawInfoEXT's (first vertex, vertex count,
                // little-endian u32s): passed as they lie where they are aligned for it.
                let infos = if cfg!(target_endian = "little")
                    && draw
                        .bytes
                        .as_ptr()
                        .align_offset(align_of::<vk::MultiDrawInfoEXT>())
                        == 0
                {
                    draw.bytes.as_ptr().cast::<vk::MultiDrawInfoEXT>()
                } else {
                    let copied = &mut self.multi_draws.arrays;
                    copied.clear();
                    copied.extend(draw.draws().map(|d| match d {
                        DirectDraw::Arrays(a) => vk::MultiDrawInfoEXT {
                            first_vertex: a.first,
                            vertex_count: a.count,
                        },
                        DirectDraw::Elements(_) => vk::MultiDrawInfoEXT::default(),
                    }));
                    copied.as_ptr()
                };
                // SAFETY: recording inside the pass with everything bound by `prepare`; the
                // multiDraw feature is enabled (tiers), `n` draws are at most
                // maxMultiDrawCount, and `infos` points at `n` of them `stride` bytes apart
                // (the record's `n * 8` bytes, aligned, or their copy), alive for the call.
                unsafe {
                    (fns.cmd_draw_multi_ext)(
                        self.rec.cmd,
                        n,
                        infos,
                        1,
                        0,
                        size_of::<vk::MultiDrawInfoEXT>() as u32,
                    )
                };
            }
            Some(ty) => {
                let size = u64::from(ty.size());
                // The record's draws are (offset in bytes: u64, count, base vertex), not
                // VkMultiDrawIndexedInfoEXT's (first index, count, vertex offset): converted
                // into the backend's scratch.
                let infos = &mut self.multi_draws.indexed;
                infos.clear();
                infos.extend(draw.draws().map(|d| match d {
                    DirectDraw::Elements(e) => vk::MultiDrawIndexedInfoEXT {
                        first_index: (e.offset / size) as u32,
                        index_count: e.count,
                        vertex_offset: e.base_vertex,
                    },
                    DirectDraw::Arrays(_) => vk::MultiDrawIndexedInfoEXT::default(),
                }));
                // SAFETY: as above, with an index buffer bound at offset 0 by `prepare`
                // that holds every draw's indices (checked above); a null vertex offset
                // reads each draw's own.
                unsafe {
                    (fns.cmd_draw_multi_indexed_ext)(
                        self.rec.cmd,
                        n,
                        infos.as_ptr(),
                        1,
                        0,
                        size_of::<vk::MultiDrawIndexedInfoEXT>() as u32,
                        std::ptr::null(),
                    )
                };
            }
        }
        if capturing {
            self.xfb_after_draw(ctx);
        }
        count(&self.stats.draws);
        Ok(())
    }

    /// Whether a draw of the call needs one of the emulations a direct draw has.
    fn multi_draw_emulated(&self, ctx: &VkContext, draw: &MultiDrawArgs<'_>) -> bool {
        self.needs_emulation(ctx, draw.topology, draw.index_type)
    }

    /// Whether a direct draw of `topology` (indexed by `index_type`, if any) needs an
    /// emulation: line loops, triangle fans or 8-bit indices the device lacks, or a
    /// primitive restart index other than the type's maximum. Multi-draws and indirect
    /// draws that need one are drawn one by one.
    pub(crate) fn needs_emulation(
        &self,
        ctx: &VkContext,
        topology: Topology,
        index_type: Option<IndexType>,
    ) -> bool {
        let emulated_topology = match topology {
            Topology::LineLoop => true,
            Topology::TriangleFan => !self.tiers.triangle_fans,
            _ => false,
        };
        let Some(ty) = index_type else {
            return emulated_topology;
        };
        let (enabled, restart_index) = ctx.desired.restart(ty);
        emulated_topology
            || (ty == IndexType::U8 && !self.tiers.index_u8)
            || (enabled && restart_index != conv::max_index(ty))
    }

    /// Draws the call's draws one at a time as direct draws, each with its index as
    /// `gl_DrawID` (merged draws: 0).
    #[cold]
    #[inline(never)]
    fn draw_one_by_one(&mut self, ctx: &mut VkContext, draw: MultiDrawArgs<'_>) -> R {
        for (k, d) in draw.draws().enumerate() {
            ctx.sub_draw = if draw.same_draw_id { 0 } else { k as u32 };
            let drawn = match d {
                DirectDraw::Arrays(args) => self.draw(ctx, args),
                DirectDraw::Elements(args) => self.draw_indexed(ctx, args),
            };
            if drawn.is_err() {
                ctx.sub_draw = 0;
                return drawn;
            }
        }
        ctx.sub_draw = 0;
        Ok(())
    }
}

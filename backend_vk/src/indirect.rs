//! Indirect draws: `DrawIndirect` and `DrawIndexedIndirect` read their commands from a
//! buffer on the device (`vkCmdDrawIndirect`, `vkCmdDrawIndexedIndirect`), so commands a
//! compute shader or a copy wrote earlier in the command buffer are drawn as written: the
//! global barrier that follows any write (`VkPipe::sync`) orders it before the
//! `DRAW_INDIRECT` stage reads it. GL's command layouts are Vulkan's
//! (`VkDrawIndirectCommand`, `VkDrawIndexedIndirectCommand`), the base instance is the
//! first instance, and the index buffer is bound at offset 0, since a command's first
//! index counts from the buffer's start.
//!
//! Several commands are one call where the device has `multiDrawIndirect`, else one call
//! per command. A draw the backend must emulate (line loops; fans where the device has
//! none; 8-bit indices without `VK_EXT_index_type_uint8`; a restart index other than the
//! type's maximum) or whose commands may carry a base instance the device cannot read
//! (no `drawIndirectFirstInstance`) or that `gl_InstanceID` would count (no
//! `shaderDrawParameters`, which a direct draw with a base instance reports) needs the
//! counts on the host: the commands are read back (a submit and a wait, as the other
//! emulations that read indices do) and drawn as direct draws.
//!
//! `gl_DrawID` is Vulkan's `DrawIndex` where one call draws every command; where each
//! command is a call of its own (or a direct draw), the command's index reaches the vertex
//! stage through the push constants instead ([`VkContext::sub_draw`],
//! `spirv/draw_param.rs`).
//!
//! A draw whose count a buffer holds (`SetDrawCount`, GL 4.6's `glMultiDraw*IndirectCount`)
//! is one `vkCmdDrawIndirectCount`/`vkCmdDrawIndexedIndirectCount` with the draw's command
//! count as its maximum, where the device has `drawIndirectCount` and the commands would be
//! one call anyway. Otherwise the count is read back first (a submit and a wait, after which
//! the commands' buffer is read as it is then) and the draw goes on with that many commands.

use tessera_wire::backend::SessionError;
use tessera_wire::dispatch::{DirectDraw, DrawIndirectArgs, DrawPipe, R};
use tessera_wire::handle::BufferHandle;

use crate::command::{DrawExtent, Indices, VkContext};
use crate::conv;
use crate::device::{VkPipe, count};

impl VkPipe {
    /// Draws the commands of `draw` from its buffer.
    pub(crate) fn draw_from_buffer(&mut self, ctx: &mut VkContext, draw: DrawIndirectArgs) -> R {
        let record = if draw.index_type.is_some() {
            "DrawIndexedIndirect"
        } else {
            "DrawIndirect"
        };
        if draw.draws == 0 {
            return Ok(());
        }
        let span =
            u64::from(draw.draws - 1) * u64::from(draw.stride) + u64::from(draw.command_size());
        let raw = self
            .buffers
            .get_range(record, draw.buffer, draw.offset, span)?
            .owned
            .buffer;
        let needs_host = self.indirect_needs_host(ctx, &draw);
        let one_call = self.core.multi_draw_indirect && draw.stride >= draw.command_size();
        let mut count_buffer = None;
        if let Some((buffer, offset)) = ctx.desired.draw_count {
            if self.tiers.draw_indirect_count && one_call && !needs_host {
                let b = self.buffers.get_range(record, buffer, offset, 4)?;
                count_buffer = Some((b.owned.buffer, offset));
            } else {
                let count = self.read_draw_count(record, buffer, offset)?;
                let mut counted = draw;
                counted.draws = draw.draws.min(count);
                return self.draw_counted(ctx, counted);
            }
        }
        if needs_host {
            return self.draw_read_back(ctx, draw, record, span);
        }
        ctx.indexed_draw = draw.index_type.is_some();
        let native = conv::map_topology(draw.topology);
        let (indices, restart) = match draw.index_type {
            None => (Indices::None, false),
            Some(ty) => {
                let Some(ib) = ctx
                    .desired
                    .index_buffer
                    .and_then(|h| self.buffers.live(h))
                    .map(|b| b.owned.buffer)
                else {
                    return Ok(());
                };
                let enabled = ctx.desired.restart(ty).0;
                let restart = enabled && (conv::is_strip(native) || self.tiers.list_restart);
                (Indices::Bound(ib, 0, conv::map_index_type(ty)), restart)
            }
        };
        let extent = DrawExtent {
            vertices: None,
            instances: u32::MAX,
        };
        if !self.prepare(ctx, native, &indices, restart, extent)? {
            return Ok(());
        }
        let capturing = self.xfb_before_draw(ctx);
        // One call reads commands at most a command's size apart only (Vulkan's stride
        // rule); GL lets them overlap.
        let (calls, per_call) = if one_call {
            (1, draw.draws)
        } else {
            (draw.draws, 1)
        };
        if let Some((count_raw, count_offset)) = count_buffer {
            // SAFETY: as for the calls below; besides, the count buffer has INDIRECT_BUFFER
            // usage, its u32 lies inside it (get_range) at a multiple of 4 (the dispatcher),
            // drawIndirectCount was enabled (tiers), and the stride is at least a command's
            // size (one_call).
            unsafe {
                if draw.index_type.is_some() {
                    self.raw.cmd_draw_indexed_indirect_count(
                        self.rec.cmd,
                        raw,
                        draw.offset,
                        count_raw,
                        count_offset,
                        draw.draws,
                        draw.stride,
                    );
                } else {
                    self.raw.cmd_draw_indirect_count(
                        self.rec.cmd,
                        raw,
                        draw.offset,
                        count_raw,
                        count_offset,
                        draw.draws,
                        draw.stride,
                    );
                }
            }
        }
        for call in (0..calls).filter(|_| count_buffer.is_none()) {
            let offset = draw.command_offset(call);
            // Drawn one by one, each command's gl_DrawID comes from the push constants.
            if calls > 1 {
                ctx.sub_draw = call;
                self.push_draw_params(ctx);
            }
            // SAFETY: recording inside the pass with everything bound by `prepare`; the
            // buffer has INDIRECT_BUFFER usage (every buffer does), its commands lie inside
            // it (checked above), the offset and stride are multiples of 4 (the dispatcher
            // checked), and `per_call` exceeds 1 only with multiDrawIndirect enabled and a
            // stride of at least a command's size.
            unsafe {
                if draw.index_type.is_some() {
                    self.raw.cmd_draw_indexed_indirect(
                        self.rec.cmd,
                        raw,
                        offset,
                        per_call,
                        draw.stride,
                    );
                } else {
                    self.raw
                        .cmd_draw_indirect(self.rec.cmd, raw, offset, per_call, draw.stride);
                }
            }
        }
        ctx.sub_draw = 0;
        if capturing {
            self.xfb_after_draw(ctx);
        }
        count(&self.stats.draws);
        Ok(())
    }

    /// Draws `draw`'s commands, the count already applied, by the path a draw without a
    /// count buffer takes.
    #[cold]
    #[inline(never)]
    fn draw_counted(&mut self, ctx: &mut VkContext, draw: DrawIndirectArgs) -> R {
        let source = ctx.desired.draw_count.take();
        let drawn = self.draw_from_buffer(ctx, draw);
        ctx.desired.draw_count = source;
        drawn
    }

    /// The `u32` at `offset` in `buffer` as the device holds it now (submits and waits).
    fn read_draw_count(
        &mut self,
        record: &'static str,
        buffer: BufferHandle,
        offset: u64,
    ) -> Result<u32, SessionError> {
        let bytes = self.read_buffer_range(record, buffer, offset, 4)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    /// Whether the commands must be read on the host (see the module's essay).
    fn indirect_needs_host(&self, ctx: &VkContext, draw: &DrawIndirectArgs) -> bool {
        if !self.core.draw_indirect_first_instance || !self.tiers.draw_parameters {
            return true;
        }
        self.needs_emulation(ctx, draw.topology, draw.index_type)
    }

    /// Reads the commands back and draws each as a direct draw.
    #[cold]
    #[inline(never)]
    fn draw_read_back(
        &mut self,
        ctx: &mut VkContext,
        draw: DrawIndirectArgs,
        record: &'static str,
        span: u64,
    ) -> R {
        let bytes = self.read_buffer_range(record, draw.buffer, draw.offset, span)?;
        // Each command is its own draw: gl_DrawID comes from the push constants.
        for (k, command) in draw.direct_draws(&bytes).enumerate() {
            ctx.sub_draw = k as u32;
            let drawn = match command {
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

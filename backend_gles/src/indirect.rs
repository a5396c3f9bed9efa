//! Indirect draws: `DrawIndirect` and `DrawIndexedIndirect` are the driver's
//! `glDrawArraysIndirect` and `glDrawElementsIndirect` (ES 3.1) with the native buffer
//! bound to `DRAW_INDIRECT_BUFFER`, one call per command (ES has no multi-draw indirect
//! without `GL_EXT_multi_draw_indirect`), so the driver reads the commands as the buffer
//! holds them, after any shader or copy wrote it. GL's command layouts are ES's; ES names
//! the arrays command's last word `reservedMustBeZero` unless the driver has
//! `GL_EXT_base_instance`, which makes it the base instance as in GL.
//!
//! The commands are read back instead (the backend's own copy of the buffer, after the
//! barrier that orders earlier storage writes) and drawn as direct draws where the driver
//! cannot draw them as they are: no ES 3.1, no `GL_EXT_base_instance` (a direct draw then
//! moves its instanced arrays by the base instance, `GlesPipe::base_instance`), a draw the
//! backend emulates from its vertices or indices
//! (`FIRST_VERTEX_CONVENTION` with flat inputs, a restart index below the type's maximum),
//! or transform feedback capturing (which resumes around each direct draw).
//!
//! ES has no draw whose count a buffer holds (`SetDrawCount`, GL 4.6's
//! `glMultiDraw*IndirectCount`): the count is read back first (a wait for the driver, after
//! the barrier that orders earlier storage writes) and the draw goes on with that many
//! commands.

use glow::HasContext;
use tessera_wire::backend::bad_value;
use tessera_wire::dispatch::{DirectDraw, DrawIndirectArgs, DrawPipe, R};

use crate::command::{GlesContext, dirty};
use crate::conv;
use crate::device::GlesPipe;
use crate::shadow::Cap;

impl GlesPipe {
    /// Draws the commands of `draw` from its buffer.
    pub(crate) fn draw_from_buffer(&mut self, ctx: &mut GlesContext, draw: DrawIndirectArgs) -> R {
        let record = if draw.index_type.is_some() {
            "DrawIndexedIndirect"
        } else {
            "DrawIndirect"
        };
        let mut draw = draw;
        if let Some((buffer, offset)) = ctx.desired.draw_count {
            let bytes = self.read_buffer_as(record, buffer, offset, 4)?;
            let count = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            draw.draws = draw.draws.min(count);
        }
        if draw.draws == 0 {
            return Ok(());
        }
        let span =
            u64::from(draw.draws - 1) * u64::from(draw.stride) + u64::from(draw.command_size());
        let name = self
            .buffers
            .get_range(record, draw.buffer, draw.offset, span)?
            .name;
        let Some(mode) = conv::map_topology(draw.topology, &self.features) else {
            self.skip_adjacency();
            return Ok(());
        };
        if self.indirect_needs_host(ctx, &draw, mode) {
            return self.draw_read_back(ctx, draw, record, span);
        }
        if draw.index_type.is_some() && ctx.desired.index_buffer.is_none() {
            return Ok(());
        }
        if !self.prepare(record, ctx, dirty::ALL)? {
            return Ok(());
        }
        if let Some(ty) = draw.index_type {
            let (enabled, index) = ctx.desired.restart(ty);
            self.shadow.enable(
                &self.gl,
                Cap::PrimitiveRestart,
                enabled && index <= conv::max_index(ty),
            );
        }
        self.storage_barrier();
        for i in 0..draw.draws {
            let offset = draw.command_offset(i);
            let offset = i32::try_from(offset)
                .map_err(|_| bad_value(record, format!("indirect offset {offset}")))?;
            // SAFETY: context current; state reconciled (program current, vertex array
            // bound with buffer-backed attributes, the element buffer for an indexed draw);
            // the command lies inside the buffer bound to DRAW_INDIRECT_BUFFER (get_range)
            // at a multiple of 4 (the dispatcher); any base instance in it is read by a
            // driver with GL_EXT_base_instance (indirect_needs_host). DRAW_INDIRECT_BUFFER
            // is no binding the native-state shadow tracks.
            unsafe {
                self.gl.bind_buffer(glow::DRAW_INDIRECT_BUFFER, Some(name));
                match draw.index_type {
                    None => self.gl.draw_arrays_indirect_offset(mode, offset),
                    Some(ty) => self.gl.draw_elements_indirect_offset(
                        mode,
                        conv::map_index_type(ty),
                        offset,
                    ),
                }
            }
        }
        Ok(())
    }

    /// Whether the commands must be read back (see the module's essay).
    fn indirect_needs_host(
        &mut self,
        ctx: &GlesContext,
        draw: &DrawIndirectArgs,
        mode: u32,
    ) -> bool {
        // Captures and other vertex streams' queries are counted per draw (xfb.rs,
        // streams.rs).
        if !self.features.draw_indirect
            || !self.features.base_instance
            || ctx.xfb.is_some()
            || self.stream_queries_active()
        {
            return true;
        }
        if !ctx.raster.flatshade_last && self.first_vertex_list_needed(ctx, mode) {
            return true;
        }
        draw.index_type.is_some_and(|ty| {
            let (enabled, index) = ctx.desired.restart(ty);
            enabled && index < conv::max_index(ty)
        })
    }

    /// Reads the commands back and draws each as a direct draw.
    #[cold]
    #[inline(never)]
    fn draw_read_back(
        &mut self,
        ctx: &mut GlesContext,
        draw: DrawIndirectArgs,
        record: &'static str,
        span: u64,
    ) -> R {
        let bytes = self.read_buffer_as(record, draw.buffer, draw.offset, span)?;
        for command in draw.direct_draws(&bytes) {
            match command {
                DirectDraw::Arrays(args) => self.draw(ctx, args)?,
                DirectDraw::Elements(args) => self.draw_indexed(ctx, args)?,
            }
        }
        Ok(())
    }
}

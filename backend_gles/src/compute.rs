//! Compute: dispatches of compute programs and GL's memory barriers, on the native driver's
//! compute stage (GLES 3.1). The program and its resources are reconciled as for a draw,
//! without the framebuffer and render state (`GlesPipe::prepare_dispatch` in
//! `command.rs`); storage block `k` is at native binding `k` (`program.rs`). GL has no
//! render pass to end, and the driver orders the rest.

use glow::HasContext;
use tessera_wire::backend::bad_value;
use tessera_wire::dispatch::{ComputePipe, R};
use tessera_wire::handle::BufferHandle;

use crate::command::GlesContext;
use crate::device::GlesPipe;

/// Dispatches run on the native driver's compute stage (GLES 3.1), outside any render
/// pass as GL has none; barriers are the driver's own.
impl ComputePipe for GlesPipe {
    fn dispatch(&mut self, ctx: &mut GlesContext, groups: [u32; 3]) -> R {
        const N: &str = "Dispatch";
        if ctx.discarding {
            return Ok(());
        }
        if !self.prepare_dispatch(N, ctx)? {
            return Ok(());
        }
        // SAFETY: context current; a linked compute program is current (prepare_dispatch);
        // the counts are within the driver's limits (the engine reports them).
        unsafe { self.gl.dispatch_compute(groups[0], groups[1], groups[2]) };
        Ok(())
    }

    fn dispatch_indirect(&mut self, ctx: &mut GlesContext, buffer: BufferHandle, offset: u64) -> R {
        const N: &str = "DispatchIndirect";
        if ctx.discarding {
            return Ok(());
        }
        let name = self.buffers.get_range(N, buffer, offset, 12)?.name;
        let offset = i32::try_from(offset).map_err(|_| bad_value(N, format!("offset {offset}")))?;
        if !self.prepare_dispatch(N, ctx)? {
            return Ok(());
        }
        // SAFETY: context current; the program is current; the three counts lie inside
        // the buffer (get_range) at an offset that is a multiple of 4 (the dispatcher).
        // DISPATCH_INDIRECT_BUFFER is no binding the native-state shadow tracks.
        unsafe {
            self.gl
                .bind_buffer(glow::DISPATCH_INDIRECT_BUFFER, Some(name));
            self.gl.dispatch_compute_indirect(offset);
        }
        Ok(())
    }

    fn memory_barrier(&mut self, _: &mut GlesContext, barriers: u32) -> R {
        // The bits GLES 3.1 has (it lacks the query-buffer and client-mapped ones, which
        // its driver orders anyway).
        const GLES_BITS: u32 = 0x3fef;
        let bits = if barriers == u32::MAX {
            barriers
        } else {
            barriers & GLES_BITS
        };
        // An ES 3.0 driver has no glMemoryBarrier, and no shader writes to order (its
        // contexts advertise neither images nor storage blocks nor the texture barrier).
        if bits != 0 && self.features.minor >= 1 {
            // SAFETY: context current; the bits are GLES 3.1's or ALL_BARRIER_BITS.
            unsafe { self.gl.memory_barrier(bits) };
            if bits == u32::MAX {
                self.storage_written = false;
            }
        }
        Ok(())
    }
}

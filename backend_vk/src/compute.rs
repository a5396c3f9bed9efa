//! Compute: dispatches of compute programs and GL's memory barriers.
//!
//! A compute program has its pipeline from creation (`program.rs`), so a dispatch makes
//! none. A dispatch runs outside any render pass: it ends the open one, and records the
//! global barrier that orders everything written before it (`VkPipe::sync`, the same one
//! transfers and passes use), gathers and binds its descriptors at the compute bind point,
//! and marks memory written, so the next pass, transfer or dispatch is ordered after it
//! whatever the program asked with `glMemoryBarrier`: GL drivers order a dispatch before a
//! later draw that reads what it wrote (vertex and index buffers, indirect buffers,
//! read-backs), and Vulkan would let them race. `MemoryBarrier` ends the open pass for the
//! same reason: the draws after it must see the storage writes of the draws before it.
//!
//! The graphics bind point's descriptor state (`Recording::set`, `layout`) is forgotten
//! after a dispatch binds its own, so the next draw binds its set again.

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::dispatch::{ComputePipe, R};
use tessera_wire::handle::BufferHandle;

use crate::command::VkContext;
use crate::device::{VkPipe, count};
use crate::program::Program;

impl VkPipe {
    /// The compute pipeline of a program whose stages are one compute stage.
    pub(crate) fn compute_pipeline(&mut self, p: &Program) -> Result<vk::Pipeline, String> {
        let Some(stage) = p.stages.first() else {
            return Err("a compute program without its stage".to_owned());
        };
        let mut info = vk::ComputePipelineCreateInfo::default()
            .stage(
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::COMPUTE)
                    .module(stage.module)
                    .name(c"main"),
            )
            .layout(p.pipeline_layout);
        let mut feedback = vk::PipelineCreationFeedback::default();
        let mut feedback_info = vk::PipelineCreationFeedbackCreateInfo::default()
            .pipeline_creation_feedback(&mut feedback);
        if self.pipes.feedback() {
            info = info.push_next(&mut feedback_info);
        }
        // SAFETY: a live module whose entry point `main` is a compute shader, and the
        // pipeline layout made for its descriptors; creation feedback only on Vulkan 1.3.
        let created = unsafe {
            self.raw
                .create_compute_pipelines(self.pipes.cache, &[info], None)
        };
        match created {
            Ok(v) => {
                count(&self.stats.pipelines);
                if self.pipes.feedback() {
                    crate::pipeline::note_feedback(feedback.flags);
                }
                self.pipes.created(&self.raw);
                Ok(v[0])
            }
            Err((_, e)) => Err(format!("vkCreateComputePipelines: {e}")),
        }
    }

    /// Ends the pass, orders earlier writes, binds the program's pipeline and descriptors
    /// at the compute bind point. `false`: no usable compute program is bound.
    fn prepare_dispatch(&mut self, ctx: &mut VkContext) -> Result<bool, SessionError> {
        let Some(handle) = ctx.desired.program else {
            return Ok(false);
        };
        let Some(p) = self.programs.live(handle) else {
            return Ok(false);
        };
        if !p.valid || p.compute == vk::Pipeline::null() {
            return Ok(false);
        }
        let (pipeline, block_size, set_layout, layout, push) = (
            p.compute,
            p.default_block_size,
            p.set_layout,
            p.pipeline_layout,
            p.push,
        );
        self.end_pass()?;
        self.gather_descriptors(ctx, handle, set_layout, block_size, push, false)?;
        // Gathering may record transitions; the barrier comes after them.
        self.sync();
        // SAFETY: recording outside any render pass; a compute pipeline of this device.
        unsafe {
            self.raw
                .cmd_bind_pipeline(self.rec.cmd, vk::PipelineBindPoint::COMPUTE, pipeline)
        };
        self.bind_descriptors_at(vk::PipelineBindPoint::COMPUTE, set_layout, layout, push)?;
        // The graphics bind point keeps its own set, which the recording no longer knows.
        self.rec.set = None;
        self.rec.layout = vk::PipelineLayout::null();
        self.rec.prepared = None;
        ctx.dirty |= crate::command::dirty::DESCRIPTORS;
        Ok(true)
    }
}

impl ComputePipe for VkPipe {
    /// `Dispatch`.
    fn dispatch(&mut self, ctx: &mut VkContext, groups: [u32; 3]) -> R {
        if !self.condition_allows(ctx)? || !self.prepare_dispatch(ctx)? {
            return Ok(());
        }
        // SAFETY: recording outside a pass with a compute pipeline and its descriptors
        // bound; the counts are within maxComputeWorkGroupCount (the engine reports it).
        unsafe {
            self.raw
                .cmd_dispatch(self.rec.cmd, groups[0], groups[1], groups[2])
        };
        self.rec.dirty_mem = true;
        count(&self.stats.dispatches);
        Ok(())
    }

    /// `DispatchIndirect`.
    fn dispatch_indirect(&mut self, ctx: &mut VkContext, buffer: BufferHandle, offset: u64) -> R {
        const N: &str = "DispatchIndirect";
        let raw = self.buffers.get_range(N, buffer, offset, 12)?.owned.buffer;
        if !self.condition_allows(ctx)? || !self.prepare_dispatch(ctx)? {
            return Ok(());
        }
        // SAFETY: recording outside a pass with a compute pipeline bound; the buffer has
        // INDIRECT_BUFFER usage (every buffer does), the three counts lie inside it and the
        // offset is a multiple of 4 (the dispatcher checked).
        unsafe { self.raw.cmd_dispatch_indirect(self.rec.cmd, raw, offset) };
        self.rec.dirty_mem = true;
        count(&self.stats.dispatches);
        Ok(())
    }

    /// `MemoryBarrier`: what was written so far is ordered before what comes next (the
    /// barrier itself is recorded at the next pass, transfer or dispatch).
    fn memory_barrier(&mut self, _: &mut VkContext, barriers: u32) -> R {
        if barriers != 0 {
            self.end_pass()?;
            self.rec.dirty_mem = true;
        }
        Ok(())
    }
}

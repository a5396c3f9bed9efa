//! Contexts, constant state objects, and what happens around each batch: the
//! [`ContextPipe`] and [`CsoPipe`] methods. The other records are the domain traits of
//! `tessera_wire::dispatch`, implemented where their domain lives (`device.rs` buffers,
//! `texture.rs`, `framebuffer.rs`, `program.rs`, `command.rs` verbs and submission,
//! `query.rs`). The dispatcher has already decoded each record, checked its spans and
//! handles, and stored state records in the current context's desired state; the methods
//! here forget what a state change makes stale. Work is submitted at `Flush`, `Present`,
//! `Finish` and the end of every batch.

use tessera_wire::context::DesiredState;
use tessera_wire::dispatch::{ContextPipe, CsoPipe, PipeContext, R, StateGroup};
use tessera_wire::handle::{
    BlendHandle, DepthStencilHandle, RasterHandle, SamplerHandle, VertexLayoutHandle,
};
use tessera_wire::record::ArchivedRecord;
use tessera_wire::state::{BlendState, DepthStencilState, RasterState, SamplerState, VertexLayout};
use tessera_wire::{Outbox, SessionError};

use crate::command::{VkContext, dirty};
use crate::device::VkPipe;

impl PipeContext for VkContext {
    fn desired(&mut self) -> &mut DesiredState {
        &mut self.desired
    }
}

impl ContextPipe for VkPipe {
    type Context = VkContext;

    fn create_context(&mut self) -> Result<VkContext, SessionError> {
        self.contexts += 1;
        Ok(VkContext::new(self.contexts))
    }
    /// Every verb binds what it needs from the context's own state, and a draw of another
    /// context than the one the command buffer was prepared for derives everything.
    fn context_switched(&mut self, _: &mut VkContext) {}
    /// A context's captures stay with their objects, which the engine destroys.
    /// Its predicate slot is free again (`condition.rs`).
    fn destroy_context(&mut self, ctx: VkContext) {
        self.conditions.release(ctx.predicate_slot);
    }
    /// Marks the parts of a draw that read `group` (`command::dirty`); the arena copies of
    /// uniforms and generic attributes go stale with their values.
    #[inline]
    fn state_changed(&mut self, ctx: &mut VkContext, group: StateGroup) {
        use StateGroup as G;
        ctx.dirty |= match group {
            G::Uniforms => {
                ctx.uniform_at = None;
                dirty::UNIFORMS
            }
            G::GenericAttribs => {
                ctx.generic_at = None;
                dirty::VERTICES
            }
            // Another target: another pass, pipelines for it, its extent for the scissor.
            G::Framebuffer | G::DrawBuffers => dirty::ALL,
            // Another program: all but the viewports and scissors, which it does not read.
            G::Program => dirty::ALL & !dirty::VIEWPORTS,
            G::Viewport | G::Scissor => dirty::VIEWPORTS,
            G::BlendColor | G::StencilRef | G::DepthBias | G::LineWidth | G::PointSize => {
                dirty::DYNAMIC
            }
            // Restart is an argument of each indexed draw; the pipeline is keyed by it.
            G::SampleMask | G::PrimitiveRestart => dirty::PIPELINE,
            // The pipeline of a patch draw is keyed by its control points.
            G::PatchVertices => dirty::PIPELINE,
            G::UniformBuffers | G::StorageBuffers | G::Textures | G::Images => dirty::DESCRIPTORS,
            G::VertexBuffers => dirty::VERTICES,
            // Read by each indexed draw itself; the draw id is pushed at each draw of a
            // program that reads it (`command::push_draw_params`); the draw count is read
            // by each indirect draw (`indirect.rs`).
            G::IndexBuffer | G::DrawId | G::DrawCount => 0,
        };
    }

    /// Any record but a draw or a state record may change objects a draw reads, or what
    /// the command buffer holds: the next draw derives everything, and caches of object
    /// state are checked again.
    #[inline]
    fn record_applied(&mut self, _: &'static str, record: &ArchivedRecord) {
        use ArchivedRecord as A;
        if !matches!(
            record,
            A::CreateBuffer { .. } | A::WriteBuffer { .. } | A::WriteBufferUnsynchronized { .. }
        ) {
            self.fresh_buffer = None;
        }
        if !keeps_draw_state(record) {
            self.rec.prepared = None;
            self.changes += 1;
        }
    }

    fn batch_applied(&mut self, mut result: R, out: &mut Outbox) -> R {
        // Submit what the batch recorded, unless a query is still counting (its commands
        // must stay in one submission).
        if result.is_ok() && self.rec.work && self.rec.active_queries == 0 {
            result = self.submit().map(drop);
        }
        self.drain_messages();
        out.events.append(&mut self.events);
        out.detached.append(&mut self.detached);
        result
    }
}

impl CsoPipe for VkPipe {
    fn create_blend_state(&mut self, cso: BlendHandle, s: BlendState) -> R {
        let id = self.interned.blend.intern(&s);
        self.blends.insert("CreateBlendState", cso, id)
    }
    fn bind_blend_state(&mut self, ctx: &mut VkContext, cso: BlendHandle) -> R {
        ctx.blend = *self.blends.get("BindBlendState", cso)?;
        ctx.dirty |= dirty::PIPELINE;
        Ok(())
    }
    fn destroy_blend_state(&mut self, cso: BlendHandle) -> R {
        self.blends.remove("DestroyBlendState", cso).map(drop)
    }
    fn create_depth_stencil_state(&mut self, cso: DepthStencilHandle, s: DepthStencilState) -> R {
        let id = self.interned.depth_stencil.intern(&s);
        self.depth_stencils
            .insert("CreateDepthStencilState", cso, id)
    }
    fn bind_depth_stencil_state(&mut self, ctx: &mut VkContext, cso: DepthStencilHandle) -> R {
        ctx.depth_stencil = *self.depth_stencils.get("BindDepthStencilState", cso)?;
        ctx.dirty |= dirty::PIPELINE;
        Ok(())
    }
    fn destroy_depth_stencil_state(&mut self, cso: DepthStencilHandle) -> R {
        self.depth_stencils
            .remove("DestroyDepthStencilState", cso)
            .map(drop)
    }
    fn create_raster_state(&mut self, cso: RasterHandle, s: RasterState) -> R {
        let id = self.interned.raster.intern(&s);
        self.rasters.insert("CreateRasterState", cso, id)
    }
    fn bind_raster_state(&mut self, ctx: &mut VkContext, cso: RasterHandle) -> R {
        ctx.raster = *self.rasters.get("BindRasterState", cso)?;
        // The scissor test, the clip origin and program point size are raster state read by
        // dynamic state.
        ctx.dirty |= dirty::PIPELINE | dirty::DYNAMIC | dirty::VIEWPORTS;
        Ok(())
    }
    fn destroy_raster_state(&mut self, cso: RasterHandle) -> R {
        self.rasters.remove("DestroyRasterState", cso).map(drop)
    }
    /// `CreateSamplerState`: samplers are Vulkan objects (`device.rs`).
    fn create_sampler_state(&mut self, cso: SamplerHandle, s: SamplerState) -> R {
        self.create_sampler(cso, &s)
    }
    fn destroy_sampler_state(&mut self, cso: SamplerHandle) -> R {
        self.destroy_sampler(cso)
    }
    fn create_vertex_layout(&mut self, cso: VertexLayoutHandle, layout: VertexLayout) -> R {
        let id = self.interned.intern_layout(&layout);
        self.layouts.insert("CreateVertexLayout", cso, id)
    }
    fn bind_vertex_layout(&mut self, ctx: &mut VkContext, cso: VertexLayoutHandle) -> R {
        ctx.layout = *self.layouts.get("BindVertexLayout", cso)?;
        ctx.dirty |= dirty::VERTICES | dirty::PIPELINE;
        Ok(())
    }
    fn destroy_vertex_layout(&mut self, cso: VertexLayoutHandle) -> R {
        self.layouts.remove("DestroyVertexLayout", cso).map(drop)
    }
}

/// Whether a record leaves what the next draw of the current context needs as it was, but
/// for what its state records mark dirty: draws, the state records themselves, and
/// unsynchronized buffer writes (bytes, no object's state; one that needs a transfer ends
/// the render pass, which forgets what was prepared).
fn keeps_draw_state(record: &ArchivedRecord) -> bool {
    use ArchivedRecord as A;
    matches!(
        record,
        A::Draw { .. }
            | A::WriteBufferUnsynchronized { .. }
            | A::DrawIndexed { .. }
            | A::MultiDraw { .. }
            | A::MultiDrawIndexed { .. }
            | A::BindFramebuffer { .. }
            | A::SetDrawBuffers { .. }
            | A::BindBlendState { .. }
            | A::BindDepthStencilState { .. }
            | A::BindRasterState { .. }
            | A::BindVertexLayout { .. }
            | A::BindProgram { .. }
            | A::SetUniforms { .. }
            | A::BindUniformBuffer { .. }
            | A::BindTexture { .. }
            | A::SetVertexBuffer { .. }
            | A::SetIndexBuffer { .. }
            | A::SetGenericAttrib { .. }
            | A::SetPrimitiveRestart { .. }
            | A::SetViewport { .. }
            | A::SetScissor { .. }
            | A::SetBlendColor { .. }
            | A::SetStencilRef { .. }
            | A::SetDepthBias { .. }
            | A::SetLineWidth { .. }
            | A::SetPointSize { .. }
            | A::SetSampleMask { .. }
    )
}

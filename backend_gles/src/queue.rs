//! Contexts, state records and CSOs: the [`ContextPipe`] and [`CsoPipe`] of the backend.
//! The dispatcher in `tessera_wire::dispatch` has already decoded each record, checked its
//! spans and handles, and stored state records in the current context's desired state; a
//! state change here only marks what the next verb must reconcile (`command.rs`). The other
//! domains implement their traits where they live: buffers in `device.rs`, textures in
//! `texture.rs`, surfaces, framebuffers and renderbuffers in `framebuffer.rs`, programs in
//! `program.rs`, verbs in `command.rs`, queries and fences in `query.rs`.

use tessera_wire::context::DesiredState;
use tessera_wire::dispatch::{ContextPipe, CsoPipe, PipeContext, R, StateGroup};
use tessera_wire::format::AttribType;
use tessera_wire::handle::{
    BlendHandle, DepthStencilHandle, RasterHandle, SamplerHandle, VertexLayoutHandle,
};
use tessera_wire::record::ArchivedRecord;
use tessera_wire::state::{BlendState, DepthStencilState, RasterState, SamplerState, VertexLayout};
use tessera_wire::{Outbox, SessionError};

use crate::command::{GlesContext, NativeBlend, dirty};
use crate::device::GlesPipe;

impl PipeContext for GlesContext {
    fn desired(&mut self) -> &mut DesiredState {
        &mut self.desired
    }
}

/// The dirty bits a state group sets: what the next verb must reconcile.
fn dirty_bits(group: StateGroup) -> u32 {
    use StateGroup as G;
    match group {
        G::Framebuffer | G::DrawBuffers => dirty::FRAMEBUFFER,
        G::Viewport => dirty::VIEWPORT,
        G::Scissor => dirty::SCISSOR,
        G::BlendColor => dirty::BLEND,
        G::StencilRef => dirty::DEPTH_STENCIL,
        G::DepthBias | G::LineWidth | G::SampleMask | G::PatchVertices => dirty::RASTER,
        G::Program => dirty::PROGRAM,
        G::Uniforms => dirty::UNIFORMS,
        G::UniformBuffers => dirty::UNIFORM_BUFFERS,
        G::StorageBuffers => dirty::STORAGE_BUFFERS,
        G::Textures => dirty::TEXTURES,
        G::Images => dirty::IMAGES,
        G::VertexBuffers | G::IndexBuffer | G::GenericAttribs => dirty::VERTEX,
        // GLES takes the point size from gl_PointSize only (the engine's SPIR-V writes it);
        // primitive restart is set at each indexed draw.
        // No GLES program reads a draw id (`GL_ARB_shader_draw_parameters` is not advertised
        // on GLES).
        // The draw count is read by each indirect draw (`indirect.rs`).
        G::PointSize | G::PrimitiveRestart | G::DrawId | G::DrawCount => 0,
    }
}

impl ContextPipe for GlesPipe {
    type Context = GlesContext;

    fn create_context(&mut self) -> Result<GlesContext, SessionError> {
        // SAFETY: context current; glGenVertexArrays has no preconditions.
        let vao = unsafe { self.gl.create_vertex_array() }
            .map_err(|e| SessionError::Backend(format!("CreateContext: {e}")))?;
        Ok(GlesContext::new(vao))
    }
    fn context_switched(&mut self, ctx: &mut GlesContext) {
        // The native state is whatever the previous context left.
        ctx.dirty = dirty::ALL;
    }
    fn destroy_context(&mut self, ctx: GlesContext) {
        // Its captures stay with their objects, which the engine destroys.
        self.shadow.delete_vao(&self.gl, ctx.vao);
    }
    #[inline]
    fn state_changed(&mut self, ctx: &mut GlesContext, group: StateGroup) {
        if group == StateGroup::Uniforms {
            ctx.uniforms_changed();
        }
        ctx.dirty |= dirty_bits(group);
    }

    /// After every record: one load and a branch unless the debug checks are on.
    #[inline]
    fn record_applied(&mut self, name: &'static str, _: &ArchivedRecord) {
        if self.debug {
            self.check_errors(name);
        }
    }
    fn batch_applied(&mut self, result: R, out: &mut Outbox) -> R {
        out.events.append(&mut self.events);
        result
    }
}

/// Blend, depth/stencil, raster and vertex-layout CSOs are values a bind copies into the
/// context (and marks dirty); samplers are native sampler objects (`device.rs`).
impl CsoPipe for GlesPipe {
    fn create_blend_state(&mut self, cso: BlendHandle, state: BlendState) -> R {
        let native = NativeBlend::new(state, &self.features);
        self.blends.insert("CreateBlendState", cso, native)
    }
    fn bind_blend_state(&mut self, ctx: &mut GlesContext, cso: BlendHandle) -> R {
        ctx.blend = *self.blends.get("BindBlendState", cso)?;
        ctx.dirty |= dirty::BLEND;
        Ok(())
    }
    fn destroy_blend_state(&mut self, cso: BlendHandle) -> R {
        self.blends.remove("DestroyBlendState", cso).map(drop)
    }
    fn create_depth_stencil_state(&mut self, cso: DepthStencilHandle, s: DepthStencilState) -> R {
        self.depth_stencils
            .insert("CreateDepthStencilState", cso, s)
    }
    fn bind_depth_stencil_state(&mut self, ctx: &mut GlesContext, cso: DepthStencilHandle) -> R {
        ctx.depth_stencil = *self.depth_stencils.get("BindDepthStencilState", cso)?;
        ctx.dirty |= dirty::DEPTH_STENCIL;
        Ok(())
    }
    fn destroy_depth_stencil_state(&mut self, cso: DepthStencilHandle) -> R {
        self.depth_stencils
            .remove("DestroyDepthStencilState", cso)
            .map(drop)
    }
    fn create_raster_state(&mut self, cso: RasterHandle, state: RasterState) -> R {
        self.rasters.insert("CreateRasterState", cso, state)
    }
    fn bind_raster_state(&mut self, ctx: &mut GlesContext, cso: RasterHandle) -> R {
        ctx.raster = *self.rasters.get("BindRasterState", cso)?;
        ctx.dirty |= dirty::RASTER;
        Ok(())
    }
    fn destroy_raster_state(&mut self, cso: RasterHandle) -> R {
        self.rasters.remove("DestroyRasterState", cso).map(drop)
    }
    fn create_sampler_state(&mut self, cso: SamplerHandle, state: SamplerState) -> R {
        self.create_sampler(cso, &state)
    }
    fn destroy_sampler_state(&mut self, cso: SamplerHandle) -> R {
        self.destroy_sampler(cso)
    }
    fn create_vertex_layout(&mut self, cso: VertexLayoutHandle, layout: VertexLayout) -> R {
        self.layouts
            .insert("CreateVertexLayout", cso, Box::new(layout))
    }
    fn bind_vertex_layout(&mut self, ctx: &mut GlesContext, cso: VertexLayoutHandle) -> R {
        let layout = **self.layouts.get("BindVertexLayout", cso)?;
        ctx.bgra = layout
            .attribs
            .iter()
            .any(|a| a.format.bgra || a.format.ty == AttribType::U10f11f11fRev);
        ctx.layout_attribs = (layout.attribs.iter().enumerate())
            .filter(|(_, a)| a.format.components > 0)
            .fold(0, |m, (i, _)| m | 1 << i);
        ctx.layout = layout;
        ctx.dirty |= dirty::VERTEX;
        Ok(())
    }
    fn destroy_vertex_layout(&mut self, cso: VertexLayoutHandle) -> R {
        self.layouts.remove("DestroyVertexLayout", cso).map(drop)
    }
}

//! What a context's backend state is known to be: the last value of each group emitted for
//! that context. `None` means unknown (nothing emitted yet), so the first verb emits
//! everything and later verbs emit only what differs.

use tessera_wire::handle::{
    BlendHandle, BufferHandle, DepthStencilHandle, ProgramHandle, RasterHandle, SamplerHandle,
    TextureHandle, VertexLayoutHandle,
};
use tessera_wire::record::{FramebufferRef, ImageBinding};
use tessera_wire::state::{
    MAX_DRAW_BUFFERS, MAX_IMAGE_SLOTS, MAX_STORAGE_BUFFER_BINDINGS, MAX_TEXTURE_UNITS,
    MAX_UNIFORM_BUFFER_BINDINGS, MAX_VERTEX_ATTRIBS, MAX_VIEWPORTS, Rect,
};

use crate::render_state::BlendInputs;

/// The bound texture and sampler CSO of a sampler slot.
pub type TextureBinding = (Option<TextureHandle>, Option<SamplerHandle>);

/// A uniform buffer binding: buffer, offset, size.
pub type BufferRange = (Option<BufferHandle>, u64, u64);

/// The last emitted value of every group of one context.
#[derive(Clone, Debug)]
pub struct EmittedState {
    /// `BindFramebuffer`.
    pub framebuffer: Option<FramebufferRef>,
    /// `SetDrawBuffers`.
    pub draw_buffers: Option<[u8; MAX_DRAW_BUFFERS]>,
    /// `SetViewport`, per viewport index: rectangle, near, far.
    pub viewports: [Option<([f32; 4], f32, f32)>; MAX_VIEWPORTS],
    /// `SetScissor`, per viewport index.
    pub scissors: [Option<Rect>; MAX_VIEWPORTS],
    /// `BindBlendState`.
    pub blend: Option<BlendHandle>,
    /// The blend CSOs of the context's last two blend states, by their GL values (the most
    /// recent first); `emit_blend` checks that a kept CSO is still live before reusing it.
    pub blend_kept: [Option<(BlendInputs, BlendHandle)>; 2],
    /// `BindDepthStencilState`.
    pub depth_stencil: Option<DepthStencilHandle>,
    /// `BindRasterState`.
    pub raster: Option<RasterHandle>,
    /// `SetBlendColor`.
    pub blend_color: Option<[f32; 4]>,
    /// `SetStencilRef`.
    pub stencil_ref: Option<(u8, u8)>,
    /// `SetDepthBias`.
    pub depth_bias: Option<(f32, f32, f32)>,
    /// `SetLineWidth`.
    pub line_width: Option<f32>,
    /// `SetPointSize`.
    pub point_size: Option<f32>,
    /// `SetSampleMask`.
    pub sample_mask: Option<(Option<f32>, bool, Option<u32>)>,
    /// `SetPrimitiveRestart`.
    pub primitive_restart: Option<(bool, u32, bool)>,
    /// `SetPatchVertices`.
    pub patch_vertices: Option<u8>,
    /// `BindProgram`.
    pub program: Option<Option<ProgramHandle>>,
    /// The program and uniform generation of the last `SetUniforms`.
    pub uniforms: Option<(ProgramHandle, u32)>,
    /// The sample count last written into the default block of a program that reads
    /// `gl_NumSamples` (0: none yet).
    pub num_samples: u32,
    /// `BindUniformBuffer` per slot.
    pub uniform_buffers: [Option<BufferRange>; MAX_UNIFORM_BUFFER_BINDINGS],
    /// `BindStorageBuffer` per slot.
    pub storage_buffers: [Option<BufferRange>; MAX_STORAGE_BUFFER_BINDINGS],
    /// `BindTexture` per slot.
    pub textures: [Option<TextureBinding>; MAX_TEXTURE_UNITS],
    /// `BindImage` per image slot.
    pub images: [Option<Option<ImageBinding>>; MAX_IMAGE_SLOTS],
    /// `BindVertexLayout`.
    pub vertex_layout: Option<VertexLayoutHandle>,
    /// `SetVertexBuffer` per slot.
    pub vertex_buffers: [Option<(Option<BufferHandle>, u64)>; MAX_VERTEX_ATTRIBS],
    /// `SetIndexBuffer`.
    pub index_buffer: Option<Option<BufferHandle>>,
    /// `SetGenericAttrib` per attribute.
    pub generic_attribs: [Option<[u32; 4]>; MAX_VERTEX_ATTRIBS],
}

impl Default for EmittedState {
    fn default() -> Self {
        Self {
            framebuffer: None,
            draw_buffers: None,
            viewports: [None; MAX_VIEWPORTS],
            scissors: [None; MAX_VIEWPORTS],
            blend: None,
            blend_kept: [None; 2],
            depth_stencil: None,
            raster: None,
            blend_color: None,
            stencil_ref: None,
            depth_bias: None,
            line_width: None,
            point_size: None,
            sample_mask: None,
            primitive_restart: None,
            patch_vertices: None,
            program: None,
            uniforms: None,
            num_samples: 0,
            uniform_buffers: [None; MAX_UNIFORM_BUFFER_BINDINGS],
            storage_buffers: [None; MAX_STORAGE_BUFFER_BINDINGS],
            textures: [None; MAX_TEXTURE_UNITS],
            images: [None; MAX_IMAGE_SLOTS],
            vertex_layout: None,
            vertex_buffers: [None; MAX_VERTEX_ATTRIBS],
            index_buffer: None,
            generic_attribs: [None; MAX_VERTEX_ATTRIBS],
        }
    }
}

/// Stores `new` into `shadow` and reports whether it changed.
#[inline]
pub fn changed<T: PartialEq + Copy>(shadow: &mut Option<T>, new: T) -> bool {
    if *shadow == Some(new) {
        false
    } else {
        *shadow = Some(new);
        true
    }
}

//! Building blocks of record streams: buffers, programs, vertex input, CSOs, textures and
//! framebuffers, each pushed the way the engine would push it, with the handles minted.

use tessera_wire::Record;
use tessera_wire::format::{
    AttribType, Filter, Format, IndexType, MipFilter, PixelLayout, ShaderStage, TextureKind,
    Topology, VertexFormat, Wrap,
};
use tessera_wire::handle::{
    BlendHandle, BufferHandle, DepthStencilHandle, FramebufferHandle, ProgramHandle, RasterHandle,
    SamplerHandle, TextureHandle, VertexLayoutHandle,
};
use tessera_wire::record::{
    BlockSlot, DRAW_BUFFER_NONE, FramebufferRef, ProgramDesc, SamplerSlot, StageCode,
    TextureRegion, clear_mask,
};
use tessera_wire::state::{
    Attachment, BlendState, DepthStencilState, FramebufferState, MAX_DRAW_BUFFERS, MAX_VIEWPORTS,
    RasterState, Rect, SamplerState, VertexAttrib, VertexLayout,
};

use crate::bytes::{floats, u16s};
use crate::glsl::{SOLID_FS, SOLID_VS, TEXTURED_FS, TEXTURED_VS, spirv};
use crate::scene::{SIZE, Scene, rect};

/// A float attribute of `components` components, `stride` bytes apart, advancing per
/// vertex (`divisor` 0) or every `divisor` instances.
pub fn f32_attrib(components: u8, stride: u32, divisor: u32) -> VertexAttrib {
    VertexAttrib {
        format: VertexFormat {
            ty: AttribType::F32,
            components,
            normalized: false,
            integer: false,
            bgra: false,
        },
        stride,
        divisor,
    }
}

/// Nearest filtering, no mipmaps, clamped to the edge.
pub fn nearest() -> SamplerState {
    SamplerState {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Nearest,
        mip_filter: MipFilter::None,
        wrap: [Wrap::ClampToEdge; 3],
        ..SamplerState::default()
    }
}

impl Scene {
    /// Maps fragment outputs to colour attachments: output `i` to attachment `list[i]`.
    pub fn draw_buffers(&mut self, list: &[u8]) {
        let mut buffers = [DRAW_BUFFER_NONE; MAX_DRAW_BUFFERS];
        buffers[..list.len()].copy_from_slice(list);
        self.push(Record::SetDrawBuffers { buffers });
    }

    /// Viewport and scissor rectangle over `w` x `h` from the origin.
    pub fn viewport(&mut self, w: i32, h: i32) {
        let rect = rect(0, 0, w, h);
        let all = MAX_VIEWPORTS as u8;
        self.push(Record::SetViewport {
            first: 0,
            count: all,
            rect: [0.0, 0.0, w as f32, h as f32],
            near: 0.0,
            far: 1.0,
        });
        self.push(Record::SetScissor {
            first: 0,
            count: all,
            rect,
        });
    }

    /// The scene's surface bound, with a viewport over all of it.
    pub fn bind_surface(&mut self) {
        self.push(Record::BindFramebuffer {
            framebuffer: FramebufferRef::Surface(self.surface),
        });
        self.viewport(SIZE, SIZE);
    }

    /// Clears colour to `color`, depth to 1 and stencil to 0.
    pub fn clear(&mut self, color: [f32; 4]) {
        self.push(Record::Clear {
            mask: clear_mask::COLOR_ALL | clear_mask::DEPTH | clear_mask::STENCIL,
            color,
            depth: 1.0,
            stencil: 0,
        });
    }

    /// A buffer holding `bytes`.
    pub fn buffer(&mut self, bytes: &[u8]) -> BufferHandle {
        let buffer = self.h();
        self.push(Record::CreateBuffer {
            buffer,
            size: bytes.len() as u64,
        });
        let data = self.stage(bytes);
        self.push(Record::WriteBuffer {
            buffer,
            offset: 0,
            data,
        });
        buffer
    }

    /// A program of SPIR-V stages, not bound: a default block of `default_block_size` bytes,
    /// `samplers` 2D sampler slots and `blocks` uniform blocks of 16 bytes.
    pub fn create_program(
        &mut self,
        stages: &[(ShaderStage, &[u8])],
        default_block_size: u32,
        samplers: u32,
        blocks: u32,
    ) -> ProgramHandle {
        let stages = stages
            .iter()
            .map(|&(stage, code)| StageCode {
                stage,
                spirv: self.stage(code),
            })
            .collect();
        let program = self.h();
        self.push(Record::CreateProgram {
            program,
            desc: Box::new(ProgramDesc {
                stages,
                default_block_size,
                samplers: (0..samplers)
                    .map(|_| SamplerSlot {
                        kind: TextureKind::D2,
                        element: 0,
                    })
                    .collect(),
                uniform_blocks: (0..blocks)
                    .map(|_| BlockSlot {
                        size: 16,
                        element: 0,
                    })
                    .collect(),
                storage_blocks: Vec::new(),
                images: Vec::new(),
                local_size: [0; 3],
                xfb: Vec::new(),
            }),
        });
        program
    }

    /// A program of GLSL stages, compiled, created as [`Scene::create_program`] does, and bound.
    pub fn program_of(
        &mut self,
        stages: &[(ShaderStage, &str)],
        default_block_size: u32,
        samplers: u32,
        blocks: u32,
    ) -> ProgramHandle {
        let code: Vec<(ShaderStage, Vec<u8>)> = stages
            .iter()
            .map(|&(stage, source)| (stage, spirv(stage, source)))
            .collect();
        let code: Vec<(ShaderStage, &[u8])> = code.iter().map(|(s, c)| (*s, &c[..])).collect();
        let program = self.create_program(&code, default_block_size, samplers, blocks);
        self.push(Record::BindProgram {
            program: Some(program),
        });
        program
    }

    /// A vertex and a fragment stage, as [`Scene::program_of`] makes them.
    pub fn program(
        &mut self,
        vs: &str,
        fs: &str,
        default_block_size: u32,
        samplers: u32,
        blocks: u32,
    ) -> ProgramHandle {
        let stages = [(ShaderStage::Vertex, vs), (ShaderStage::Fragment, fs)];
        self.program_of(&stages, default_block_size, samplers, blocks)
    }

    /// A vertex layout CSO (not bound) of `attribs` at slots 0...
    pub fn vertex_layout(&mut self, attribs: &[VertexAttrib]) -> VertexLayoutHandle {
        let mut layout = VertexLayout::default();
        layout.attribs[..attribs.len()].copy_from_slice(attribs);
        let cso = self.h();
        self.push(Record::CreateVertexLayout {
            cso,
            layout: Box::new(layout),
        });
        cso
    }

    /// A vertex layout CSO (not bound) of per-vertex float attributes `(components, stride)`.
    pub fn layout(&mut self, attribs: &[(u8, u32)]) -> VertexLayoutHandle {
        let attribs: Vec<_> = attribs
            .iter()
            .map(|&(n, stride)| f32_attrib(n, stride, 0))
            .collect();
        self.vertex_layout(&attribs)
    }

    /// Binds float attributes `(components, stride, offset)` at slots 0.., each read from
    /// `buffer` at its offset, and a layout of them.
    pub fn vertices(&mut self, buffer: BufferHandle, attribs: &[(u8, u32, u64)]) {
        for (slot, &(_, _, offset)) in (0u8..).zip(attribs) {
            self.push(Record::SetVertexBuffer {
                slot,
                buffer: Some(buffer),
                offset,
            });
        }
        let spec: Vec<(u8, u32)> = attribs.iter().map(|a| (a.0, a.1)).collect();
        let cso = self.layout(&spec);
        self.push(Record::BindVertexLayout { cso });
    }

    /// The solid-colour program bound ([`Scene::uniforms`] sets its colour and offset), over
    /// a triangle around the centre: wide at the bottom, its apex at the top.
    pub fn solid_triangle(&mut self) -> ProgramHandle {
        let program = self.program(SOLID_VS, SOLID_FS, 32, 0, 0);
        let vb = self.buffer(&floats(&[-0.5, -0.5, 0.5, -0.5, 0.0, 0.5]));
        self.vertices(vb, &[(2, 8, 0)]);
        program
    }

    /// The solid-colour program's default block: its colour and its offset.
    pub fn uniforms(&mut self, color: [f32; 4], offset: [f32; 4]) {
        let mut bytes = floats(&color);
        bytes.extend(floats(&offset));
        let data = self.stage(&bytes);
        self.push(Record::SetUniforms { data });
    }

    /// Draws `count` vertices from the first, once.
    pub fn draw(&mut self, topology: Topology, count: u32) {
        self.push(Record::Draw {
            topology,
            first: 0,
            count,
            instances: 1,
            base_instance: 0,
        });
    }

    /// Draws `count` indices of the bound index buffer from its start, `instances` times.
    pub fn draw_indexed(&mut self, topology: Topology, ty: IndexType, count: u32, instances: u32) {
        self.push(Record::DrawIndexed {
            topology,
            index_type: ty,
            offset: 0,
            count,
            instances,
            base_vertex: 0,
            base_instance: 0,
        });
    }

    /// A blend CSO of `state`, not bound.
    pub fn blend_state(&mut self, state: BlendState) -> BlendHandle {
        let cso = self.h();
        self.push(Record::CreateBlendState {
            cso,
            state: Box::new(state),
        });
        cso
    }

    /// A blend CSO of `state`, bound.
    pub fn blend(&mut self, state: BlendState) {
        let cso = self.blend_state(state);
        self.push(Record::BindBlendState { cso });
    }

    /// A rasterizer CSO of `state`, bound.
    pub fn raster(&mut self, state: RasterState) {
        let cso: RasterHandle = self.h();
        self.push(Record::CreateRasterState {
            cso,
            state: Box::new(state),
        });
        self.push(Record::BindRasterState { cso });
    }

    /// A depth-stencil CSO of `state`, bound.
    pub fn depth_stencil(&mut self, state: DepthStencilState) {
        let cso: DepthStencilHandle = self.h();
        self.push(Record::CreateDepthStencilState { cso, state });
        self.push(Record::BindDepthStencilState { cso });
    }

    /// The scissor test on (a rasterizer CSO bound), limited to `rect`.
    pub fn scissor(&mut self, rect: Rect) {
        self.raster(RasterState {
            scissor: 1,
            ..RasterState::default()
        });
        self.push(Record::SetScissor {
            first: 0,
            count: 1,
            rect,
        });
    }

    /// A texture of `kind` whose level 0 is `size` texels of `format`: every face of a cube
    /// map (`size[2]` is then 1), else one image `size[2]` deep.
    pub fn texture_of(
        &mut self,
        kind: TextureKind,
        format: Format,
        size: [u32; 3],
    ) -> TextureHandle {
        let texture = self.h();
        self.push(Record::CreateTexture { texture, kind });
        let faces = if kind == TextureKind::Cube { 6 } else { 1 };
        for face in 0..faces {
            self.push(Record::DefineTextureImage {
                texture,
                level: 0,
                face,
                format,
                width: size[0],
                height: size[1],
                depth: size[2],
                samples: 0,
                fixed_sample_locations: true,
            });
        }
        texture
    }

    /// Writes `texels` of `layout` into `region` of level 0 of `face` (or layer, by its origin).
    pub fn write_texture(
        &mut self,
        texture: TextureHandle,
        face: u8,
        region: TextureRegion,
        layout: PixelLayout,
        texels: &[u8],
    ) {
        let data = self.stage(texels);
        self.push(Record::WriteTexture {
            texture,
            level: 0,
            face,
            region: Box::new(region),
            layout,
            data,
        });
    }

    /// A 2D RGBA8 texture of `w` x `h`, with `texels` of a layout uploaded if given.
    pub fn texture(
        &mut self,
        w: u32,
        h: u32,
        upload: Option<(PixelLayout, &[u8])>,
    ) -> TextureHandle {
        let texture = self.texture_of(TextureKind::D2, Format::Rgba8, [w, h, 1]);
        if let Some((layout, texels)) = upload {
            self.write_texture(texture, 0, whole([w, h, 1]), layout, texels);
        }
        texture
    }

    /// A sampler CSO of `state`.
    pub fn sampler(&mut self, state: SamplerState) -> SamplerHandle {
        let cso = self.h();
        self.push(Record::CreateSamplerState {
            cso,
            state: Box::new(state),
        });
        cso
    }

    /// A sampler CSO of [`nearest`] filtering.
    pub fn nearest_sampler(&mut self) -> SamplerHandle {
        self.sampler(nearest())
    }

    /// Binds `texture` (or nothing) with `sampler` to sampler slot 0.
    pub fn bind_texture(&mut self, texture: Option<TextureHandle>, sampler: SamplerHandle) {
        self.push(Record::BindTexture {
            slot: 0,
            texture,
            sampler: Some(sampler),
        });
    }

    /// The textured program bound over a full-viewport quad (indexed, uv 0..1 from the
    /// lower left), uniform block 0 holding `add`. [`Scene::draw_quad`] draws it.
    pub fn textured_quad(&mut self, add: [f32; 4]) -> ProgramHandle {
        let program = self.program(TEXTURED_VS, TEXTURED_FS, 0, 1, 1);
        #[rustfmt::skip]
        let quad = floats(&[
            -1.0, -1.0, 0.0, 0.0,
             1.0, -1.0, 1.0, 0.0,
            -1.0,  1.0, 0.0, 1.0,
             1.0,  1.0, 1.0, 1.0,
        ]);
        let vb = self.buffer(&quad);
        self.vertices(vb, &[(2, 16, 0), (2, 16, 8)]);
        let ib = self.buffer(&u16s(&[0, 1, 2, 2, 1, 3]));
        self.push(Record::SetIndexBuffer { buffer: Some(ib) });
        let ubo = self.buffer(&floats(&add));
        self.push(Record::BindUniformBuffer {
            slot: 0,
            buffer: Some(ubo),
            offset: 0,
            size: 16,
        });
        program
    }

    /// Draws the quad of [`Scene::textured_quad`].
    pub fn draw_quad(&mut self) {
        self.draw_indexed(Topology::Triangles, IndexType::U16, 6, 1);
    }

    /// A framebuffer object with level 0 of `colors` attached as colour 0.., bound.
    pub fn texture_framebuffer(&mut self, colors: &[TextureHandle]) -> FramebufferHandle {
        let framebuffer = self.h();
        self.push(Record::CreateFramebuffer { framebuffer });
        let mut state = FramebufferState::default();
        for (slot, &texture) in state.colors.iter_mut().zip(colors) {
            *slot = Attachment::Texture {
                texture,
                level: 0,
                layer: 0,
            };
        }
        self.push(Record::SetFramebufferState {
            framebuffer,
            state: Box::new(state),
        });
        self.push(Record::BindFramebuffer {
            framebuffer: FramebufferRef::Object(framebuffer),
        });
        framebuffer
    }
}

/// A region of `size` texels from the origin.
pub fn whole(size: [u32; 3]) -> TextureRegion {
    TextureRegion {
        origin: [0; 3],
        size,
    }
}

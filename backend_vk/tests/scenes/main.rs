//! Scenes on lavapipe (Mesa's CPU Vulkan) through the Vulkan backend, with the Khronos
//! validation layer on: hand-built record streams applied through a transport, checked pixel
//! by pixel (exact RGBA8 values) from `ReadPixels`, and zero validation messages.
//!
//! Shaders are Vulkan GLSL 450 compiled with `glslangValidator -V`, following the binding
//! contract of `ProgramDesc`: set 0, binding 0 the default block, then the samplers, then the
//! uniform blocks. Scenes marked *floor* run with `VkOptions::floor` (Vulkan 1.1 core only):
//! patched clip-space depth, descriptor pools instead of push descriptors, emulated fans.

#![expect(
    unsafe_code,
    reason = "std::env::set_var before any thread reads the environment"
)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::Once;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use tessera_backend_vk::{VkOptions, VkProbe, VulkanBackend};
use tessera_wire::format::{
    AttribType, BlendFactor, CompareFunc, Filter, Format, IndexType, MipFilter, PixelFormat,
    PixelLayout, PixelType, ShaderStage, TextureKind, Topology, VertexFormat, Wrap,
};
use tessera_wire::handle::{
    BlendHandle, BufferHandle, DepthStencilHandle, FramebufferHandle, Handle, ObjectKind,
    ProgramHandle, RasterHandle, RawHandle, SamplerHandle, SurfaceHandle, TextureHandle,
    VertexLayoutHandle,
};
use tessera_wire::record::{
    BlockSlot, BufferCopy, BufferRange, DRAW_BUFFER_NONE, FramebufferRef, PixelDestination,
    ProgramDesc, ReadImage, ReadRegion, ReadSource, Record, SamplerSlot, StageCode, TextureRegion,
    clear_mask,
};
use tessera_wire::state::{
    Attachment, BlendState, DepthStencilState, FramebufferState, MAX_DRAW_BUFFERS, RasterState,
    Rect, SamplerState, SurfaceDesc, VertexAttrib, VertexLayout,
};
use tessera_wire::{Encoder, Event, Reply, Span, Transport, TransportKind};

/// Size of every test surface.
const SIZE: i32 = 64;

fn setup() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: runs once, before any test creates a backend (every test calls setup()
        // first and waits on this Once), so no other thread reads the environment meanwhile.
        unsafe {
            if std::env::var_os("VK_ICD_FILENAMES").is_none() {
                std::env::set_var(
                    "VK_ICD_FILENAMES",
                    "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
                );
            }
        }
    });
}

/// Compiles Vulkan GLSL to SPIR-V bytes with glslangValidator.
fn spirv(stage: &str, source: &str) -> Vec<u8> {
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir: PathBuf = std::env::temp_dir().join(format!("tessera-vk-spv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join(format!("s{n}.{stage}"));
    let out = dir.join(format!("s{n}.spv"));
    std::fs::write(&src, source).expect("write shader");
    let status = Command::new("glslangValidator")
        .args(["-V", "-o"])
        .arg(&out)
        .arg(&src)
        .output()
        .expect("glslangValidator (Debian glslang-tools) runs");
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stdout)
    );
    std::fs::read(&out).expect("read SPIR-V")
}

const SOLID_VS: &str = r"#version 450
layout(location = 0) in vec2 pos;
layout(std140, set = 0, binding = 0) uniform DefaultBlock { vec4 color; vec4 offset; };
void main() { gl_Position = vec4(pos + offset.xy, offset.z, 1.0); }
";

const SOLID_FS: &str = r"#version 450
layout(location = 0) out vec4 o;
layout(std140, set = 0, binding = 0) uniform DefaultBlock { vec4 color; vec4 offset; };
void main() { o = color; }
";

const TEXTURED_VS: &str = r"#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 v_uv;
void main() { v_uv = uv; gl_Position = vec4(pos, 0.0, 1.0); }
";

/// One sampler (binding 1) and one uniform block (binding 2).
const TEXTURED_FS: &str = r"#version 450
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(std140, set = 0, binding = 2) uniform Extra { vec4 add; } extra;
void main() { o = texture(tex, v_uv) + extra.add; }
";

/// The bench's statechange program: an offset uniform, a texture, a tint.
const BENCH_VS: &str = r"#version 450
layout(location = 0) in vec2 position;
layout(std140, set = 0, binding = 0) uniform DefaultBlock { vec4 offset; vec4 tint; };
layout(location = 0) out vec2 uv;
void main() { uv = position; gl_Position = vec4(position * 0.01 + offset.xy, 0.0, 1.0); }
";

const BENCH_FS: &str = r"#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(std140, set = 0, binding = 0) uniform DefaultBlock { vec4 offset; vec4 tint; };
layout(set = 0, binding = 1) uniform sampler2D tex;
void main() { color = texture(tex, uv) * tint; }
";

/// A record stream in front of a Vulkan backend.
struct Scene {
    enc: Encoder,
    transport: Box<dyn Transport>,
    probe: VkProbe,
    log: Vec<Event>,
    next: [u32; ObjectKind::COUNT],
    surface: SurfaceHandle,
}

impl Scene {
    /// A context with a 64 x 64 RGBA8 + D24S8 surface bound, viewport and draw buffer set.
    fn new(kind: TransportKind) -> Self {
        Self::with(kind, false)
    }

    /// The same on the Vulkan 1.1 floor (no optional extension).
    fn floor() -> Self {
        Self::with(TransportKind::Inproc, true)
    }

    fn with(kind: TransportKind, floor: bool) -> Self {
        setup();
        // Always validated; TESSERA_VK_TEST_VALIDATION=0 turns the layer off only to measure
        // the backend's own CPU cost.
        let validation = std::env::var("TESSERA_VK_TEST_VALIDATION").map_or(true, |v| v != "0");
        let options = VkOptions {
            validation,
            floor,
            ..VkOptions::default()
        };
        let backend = VulkanBackend::with_options(&options).expect("a Vulkan backend on lavapipe");
        let probe = backend.probe();
        let mut s = Scene {
            enc: Encoder::new(),
            log: Vec::new(),
            transport: tessera_wire::transport::connect(&kind, Box::new(backend)),
            probe,
            next: [0; ObjectKind::COUNT],
            surface: SurfaceHandle {
                slot: 0,
                generation: 0,
            },
        };
        s.surface = s.h();
        s.push(Record::CreateContext { context: 0 });
        s.push(Record::CreateSurface {
            surface: s.surface,
            desc: SurfaceDesc {
                width: SIZE as u32,
                height: SIZE as u32,
                color: Some(Format::Rgba8),
                depth_stencil: Some(Format::Depth24Stencil8),
                samples: 0,
            },
        });
        s.push(Record::BindFramebuffer {
            framebuffer: FramebufferRef::Surface(s.surface),
        });
        s.draw_buffers(&[0]);
        s.viewport(SIZE, SIZE);
        s
    }

    fn h<H: Handle>(&mut self) -> H {
        let k = H::KIND.index();
        self.next[k] += 1;
        H::from_raw(RawHandle {
            slot: self.next[k],
            generation: 1,
        })
    }

    fn push(&mut self, r: Record) {
        self.enc.push(r);
    }

    fn stage(&mut self, bytes: &[u8]) -> Span {
        self.enc.stage(bytes)
    }

    fn submit(&mut self) -> Result<(), tessera_wire::SessionLost> {
        self.transport.submit(&mut self.enc)
    }

    fn events(&mut self) -> Vec<Event> {
        let mut e = std::mem::take(&mut self.log);
        self.transport.take_events(&mut e);
        e
    }

    /// Asserts that the validation layer said nothing so far.
    fn assert_valid(&mut self) {
        self.transport.take_events(&mut self.log);
        let native: Vec<_> = self
            .log
            .iter()
            .filter(|e| matches!(e, Event::NativeError { .. }))
            .collect();
        assert!(native.is_empty(), "validation messages: {native:#?}");
        assert_eq!(self.probe.stats().validation_messages, 0);
    }

    fn finish(&mut self) {
        let reply = self.enc.mint_reply();
        self.push(Record::Finish { reply });
        self.submit().expect("session alive");
        assert_eq!(
            self.transport.wait_reply(reply).expect("reply"),
            Reply::Done
        );
        self.assert_valid();
    }

    fn draw_buffers(&mut self, list: &[u8]) {
        let mut buffers = [DRAW_BUFFER_NONE; MAX_DRAW_BUFFERS];
        buffers[..list.len()].copy_from_slice(list);
        self.push(Record::SetDrawBuffers { buffers });
    }

    fn viewport(&mut self, w: i32, h: i32) {
        let rect = Rect {
            x: 0,
            y: 0,
            width: w,
            height: h,
        };
        self.push(Record::SetViewport {
            rect,
            near: 0.0,
            far: 1.0,
        });
        self.push(Record::SetScissor { rect });
    }

    fn clear(&mut self, color: [f32; 4]) {
        self.push(Record::Clear {
            mask: clear_mask::COLOR_ALL | clear_mask::DEPTH | clear_mask::STENCIL,
            color,
            depth: 1.0,
            stencil: 0,
        });
    }

    fn read_as(&mut self, framebuffer: FramebufferRef, rect: Rect, layout: PixelLayout) -> Vec<u8> {
        let reply = self.enc.mint_reply();
        self.push(Record::ReadPixels {
            src: ReadSource {
                framebuffer,
                image: ReadImage::Color(0),
            },
            layout,
            region: Box::new(ReadRegion {
                rect,
                dst: PixelDestination::Reply(reply),
            }),
        });
        self.submit().expect("session alive");
        let bytes = match self.transport.wait_reply(reply).expect("reply") {
            Reply::Bytes(b) => b,
            other => panic!("ReadPixels answered {other:?}"),
        };
        self.assert_valid();
        bytes
    }

    fn pixel_of(&mut self, framebuffer: FramebufferRef, x: i32, y: i32) -> [u8; 4] {
        let b = self.read_as(
            framebuffer,
            Rect {
                x,
                y,
                width: 1,
                height: 1,
            },
            RGBA8,
        );
        [b[0], b[1], b[2], b[3]]
    }

    fn pixel(&mut self, x: i32, y: i32) -> [u8; 4] {
        self.pixel_of(FramebufferRef::Surface(self.surface), x, y)
    }

    fn buffer(&mut self, bytes: &[u8]) -> BufferHandle {
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

    fn program(
        &mut self,
        vs: &str,
        fs: &str,
        default_block_size: u32,
        samplers: u32,
        blocks: u32,
    ) -> ProgramHandle {
        let (v, f) = (spirv("vert", vs), spirv("frag", fs));
        let (v, f) = (self.stage(&v), self.stage(&f));
        let program = self.h();
        self.push(Record::CreateProgram {
            program,
            desc: Box::new(ProgramDesc {
                stages: vec![
                    StageCode {
                        stage: ShaderStage::Vertex,
                        spirv: v,
                    },
                    StageCode {
                        stage: ShaderStage::Fragment,
                        spirv: f,
                    },
                ],
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
            }),
        });
        program
    }

    /// A vertex layout CSO of float attributes `(components, stride)`.
    fn layout(&mut self, attribs: &[(u8, u32)]) -> VertexLayoutHandle {
        let mut layout = VertexLayout::default();
        for (i, &(components, stride)) in attribs.iter().enumerate() {
            layout.attribs[i] = VertexAttrib {
                format: VertexFormat {
                    ty: AttribType::F32,
                    components,
                    normalized: false,
                    integer: false,
                    bgra: false,
                },
                stride,
                divisor: 0,
            };
        }
        let cso: VertexLayoutHandle = self.h();
        self.push(Record::CreateVertexLayout {
            cso,
            layout: Box::new(layout),
        });
        cso
    }

    /// Binds float attributes `(components, stride, offset)` at slots 0.. from `buffer`.
    fn vertices(&mut self, buffer: BufferHandle, attribs: &[(u8, u32, u64)]) {
        for (i, &(_, _, offset)) in attribs.iter().enumerate() {
            self.push(Record::SetVertexBuffer {
                slot: i as u8,
                buffer: Some(buffer),
                offset,
            });
        }
        let spec: Vec<(u8, u32)> = attribs.iter().map(|a| (a.0, a.1)).collect();
        let cso = self.layout(&spec);
        self.push(Record::BindVertexLayout { cso });
    }

    fn solid_triangle(&mut self) -> ProgramHandle {
        let program = self.program(SOLID_VS, SOLID_FS, 32, 0, 0);
        self.push(Record::BindProgram {
            program: Some(program),
        });
        let tri = floats(&[-0.5, -0.5, 0.5, -0.5, 0.0, 0.5]);
        let vb = self.buffer(&tri);
        self.vertices(vb, &[(2, 8, 0)]);
        program
    }

    fn uniforms(&mut self, color: [f32; 4], offset: [f32; 4]) {
        let mut bytes = floats(&color);
        bytes.extend(floats(&offset));
        let data = self.stage(&bytes);
        self.push(Record::SetUniforms { data });
    }

    fn draw(&mut self, topology: Topology, count: u32) {
        self.push(Record::Draw {
            topology,
            first: 0,
            count,
            instances: 1,
        });
    }

    fn blend(&mut self, state: BlendState) {
        let cso: BlendHandle = self.h();
        self.push(Record::CreateBlendState { cso, state });
        self.push(Record::BindBlendState { cso });
    }

    fn raster(&mut self, state: RasterState) {
        let cso: RasterHandle = self.h();
        self.push(Record::CreateRasterState { cso, state });
        self.push(Record::BindRasterState { cso });
    }

    fn texture(&mut self, w: u32, h: u32, upload: Option<(PixelLayout, &[u8])>) -> TextureHandle {
        let texture: TextureHandle = self.h();
        self.push(Record::CreateTexture {
            texture,
            kind: TextureKind::D2,
        });
        self.push(Record::DefineTextureImage {
            texture,
            level: 0,
            face: 0,
            format: Format::Rgba8,
            width: w,
            height: h,
            depth: 1,
            samples: 0,
            fixed_sample_locations: true,
        });
        if let Some((layout, texels)) = upload {
            let data = self.stage(texels);
            self.push(Record::WriteTexture {
                texture,
                level: 0,
                face: 0,
                region: Box::new(TextureRegion {
                    origin: [0; 3],
                    size: [w, h, 1],
                }),
                layout,
                data,
            });
        }
        texture
    }

    fn nearest_sampler(&mut self) -> SamplerHandle {
        let cso = self.h();
        self.push(Record::CreateSamplerState {
            cso,
            state: Box::new(SamplerState {
                mag_filter: Filter::Nearest,
                min_filter: Filter::Nearest,
                mip_filter: MipFilter::None,
                wrap: [Wrap::ClampToEdge; 3],
                ..SamplerState::default()
            }),
        });
        cso
    }

    fn textured_quad(&mut self, add: [f32; 4]) -> ProgramHandle {
        let program = self.program(TEXTURED_VS, TEXTURED_FS, 0, 1, 1);
        self.push(Record::BindProgram {
            program: Some(program),
        });
        #[rustfmt::skip]
        let quad = floats(&[
            -1.0, -1.0, 0.0, 0.0,
             1.0, -1.0, 1.0, 0.0,
            -1.0,  1.0, 0.0, 1.0,
             1.0,  1.0, 1.0, 1.0,
        ]);
        let vb = self.buffer(&quad);
        self.vertices(vb, &[(2, 16, 0), (2, 16, 8)]);
        let indices: Vec<u8> = [0u16, 1, 2, 2, 1, 3]
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect();
        let ib = self.buffer(&indices);
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

    fn draw_quad(&mut self) {
        self.push(Record::DrawIndexed {
            topology: Topology::Triangles,
            index_type: IndexType::U16,
            offset: 0,
            count: 6,
            instances: 1,
            base_vertex: 0,
        });
    }
}

fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

const RGBA8: PixelLayout = PixelLayout {
    format: PixelFormat::Rgba,
    ty: PixelType::U8,
};

mod basics;
mod framebuffers;
mod geometry;
mod steady;
mod textures;

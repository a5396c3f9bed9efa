//! Scenes on Mesa llvmpipe through the GLES backend: hand-built record streams applied
//! through a transport, checked pixel by pixel (exact RGBA8 values) from `ReadPixels`.
//!
//! Shaders are Vulkan GLSL 450 compiled with `glslangValidator -V`, following the binding
//! contract of `ProgramDesc`: set 0, binding 0 the default block, then the samplers, then the
//! uniform blocks.

#![expect(
    unsafe_code,
    reason = "std::env::set_var before any thread reads the environment"
)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::Once;
use std::sync::atomic::{AtomicU32, Ordering};

use tessera_backend_gles::{GlesBackend, GlesOptions};
use tessera_wire::format::{
    AttribType, BlendFactor, CompareFunc, Filter, Format, IndexType, MipFilter, PixelFormat,
    PixelLayout, PixelType, PolygonMode, ShaderStage, TextureKind, Topology, VertexFormat, Wrap,
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
        let dir = std::env::temp_dir().join(format!("tessera-gles-xdg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("runtime dir");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        }
        // SAFETY: runs once, before any test creates a backend (every test calls setup()
        // first and waits on this Once), so no other thread reads the environment meanwhile.
        unsafe {
            std::env::set_var("EGL_PLATFORM", "surfaceless");
            std::env::set_var("LIBGL_ALWAYS_SOFTWARE", "1");
            std::env::set_var("GALLIUM_DRIVER", "llvmpipe");
            std::env::set_var("XDG_RUNTIME_DIR", &dir);
        }
    });
}

/// Compiles Vulkan GLSL to SPIR-V bytes with glslangValidator.
fn spirv(stage: &str, source: &str) -> Vec<u8> {
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir: PathBuf =
        std::env::temp_dir().join(format!("tessera-gles-spv-{}", std::process::id()));
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

/// A record stream in front of a GLES backend.
struct Scene {
    enc: Encoder,
    transport: Box<dyn Transport>,
    /// Events seen so far (read-backs collect them to check for native errors).
    log: Vec<Event>,
    next: [u32; ObjectKind::COUNT],
    surface: SurfaceHandle,
}

impl Scene {
    /// A context with a 64 x 64 RGBA8 + D24S8 surface bound, viewport and draw buffer set.
    fn new(kind: TransportKind) -> Self {
        Self::with(kind, &GlesOptions::default())
    }

    /// A scene whose backend uses only ES 3.0 and no extension: the fallback paths.
    fn bare() -> Self {
        let options = GlesOptions {
            max_minor: Some(0),
            ignore_extensions: true,
            ..GlesOptions::default()
        };
        Self::with(TransportKind::Inproc, &options)
    }

    fn with(kind: TransportKind, options: &GlesOptions) -> Self {
        setup();
        // Every scene runs with glGetError after each record: a native error is a bug.
        let options = GlesOptions {
            debug: true,
            ..options.clone()
        };
        let backend = GlesBackend::with_options(&options).expect("a GLES backend on Mesa llvmpipe");
        let mut s = Scene {
            enc: Encoder::new(),
            log: Vec::new(),
            transport: tessera_wire::transport::connect(&kind, Box::new(backend)),
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

    /// Reads `rect` of a framebuffer's colour 0 as RGBA8.
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
        self.transport.take_events(&mut self.log);
        let native: Vec<_> = self
            .log
            .iter()
            .filter(|e| matches!(e, Event::NativeError { .. }))
            .collect();
        assert!(native.is_empty(), "native GL errors: {native:?}");
        bytes
    }

    /// The RGBA8 pixel at (x, y) of a framebuffer.
    fn pixel_of(&mut self, framebuffer: FramebufferRef, x: i32, y: i32) -> [u8; 4] {
        let rgba8 = PixelLayout {
            format: PixelFormat::Rgba,
            ty: PixelType::U8,
        };
        let b = self.read_as(
            framebuffer,
            Rect {
                x,
                y,
                width: 1,
                height: 1,
            },
            rgba8,
        );
        [b[0], b[1], b[2], b[3]]
    }

    /// The RGBA8 pixel at (x, y) of the surface.
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

    /// Binds a vertex layout of float attributes `(components, stride)` at slots 0.., each
    /// read from `buffer` at the given offset.
    fn vertices(&mut self, buffer: BufferHandle, attribs: &[(u8, u32, u64)]) {
        let mut layout = VertexLayout::default();
        for (i, &(components, stride, offset)) in attribs.iter().enumerate() {
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
            self.push(Record::SetVertexBuffer {
                slot: i as u8,
                buffer: Some(buffer),
                offset,
            });
        }
        let cso: VertexLayoutHandle = self.h();
        self.push(Record::CreateVertexLayout {
            cso,
            layout: Box::new(layout),
        });
        self.push(Record::BindVertexLayout { cso });
    }

    /// The solid-colour program bound, with its uniforms, over a triangle around the centre.
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

    /// A 2D RGBA8 texture with a NEAREST, clamped sampler bound at slot 0 (after uploading
    /// `texels` of `layout`, if any).
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

    /// The textured program over a full-viewport quad (indexed), uniform block 0 = `add`.
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

#[test]
fn clear_to_a_colour() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.2, 0.4, 0.6, 1.0]);
    assert_eq!(s.pixel(0, 0), [51, 102, 153, 255]);
    assert_eq!(s.pixel(63, 63), [51, 102, 153, 255]);
    assert!(s.events().is_empty());
}

#[test]
fn read_pixels_converts_to_the_layout_asked_for() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.2, 0.4, 0.6, 1.0]);
    let rect = Rect {
        x: 3,
        y: 4,
        width: 2,
        height: 1,
    };
    let bgra = s.read_as(
        FramebufferRef::Surface(s.surface),
        rect,
        PixelLayout {
            format: PixelFormat::Bgra,
            ty: PixelType::U8,
        },
    );
    assert_eq!(bgra, vec![153, 102, 51, 255, 153, 102, 51, 255]);
    let f = s.read_as(
        FramebufferRef::Surface(s.surface),
        rect,
        PixelLayout {
            format: PixelFormat::Rg,
            ty: PixelType::F32,
        },
    );
    // As Mesa converts (and the native driver reads back): c * (1 / 255) in single
    // precision, one bit above 51 / 255 here.
    let unorm = |c: f32| c * (1.0 / 255.0);
    assert_eq!(
        f,
        floats(&[unorm(51.0), unorm(102.0), unorm(51.0), unorm(102.0)])
    );
    let packed = s.read_as(
        FramebufferRef::Surface(s.surface),
        rect,
        PixelLayout {
            format: PixelFormat::Rgb,
            ty: PixelType::U16_565,
        },
    );
    // 0.2 * 31 = 6.2 -> 6, 0.4 * 63 = 25.2 -> 25, 0.6 * 31 = 18.6 -> 19.
    let v = (6u16 << 11) | (25 << 5) | 19;
    assert_eq!(packed, [v.to_le_bytes(), v.to_le_bytes()].concat());
}

fn triangle(mut s: Scene) {
    s.clear([0.0, 0.0, 1.0, 1.0]);
    s.solid_triangle();
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(
        s.pixel(32, 32),
        [255, 0, 0, 255],
        "centre is inside the triangle"
    );
    assert_eq!(
        s.pixel(2, 60),
        [0, 0, 255, 255],
        "top-left corner is outside"
    );
    // New uniforms move the triangle: the old centre is cleared blue, then drawn green.
    s.clear([0.0, 0.0, 1.0, 1.0]);
    s.uniforms([0.0, 1.0, 0.0, 1.0], [0.5, 0.0, 0.0, 0.0]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(48, 32), [0, 255, 0, 255]);
    assert_eq!(s.pixel(16, 32), [0, 0, 255, 255]);
    let events = s.events();
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn triangle_inproc() {
    triangle(Scene::new(TransportKind::Inproc));
}

#[test]
fn triangle_on_the_render_thread() {
    triangle(Scene::new(TransportKind::Thread));
}

#[test]
fn triangle_with_es30_and_no_extensions() {
    triangle(Scene::bare());
}

#[test]
fn textured_quad_samples_exact_texels() {
    textured_quad(Scene::new(TransportKind::Inproc));
}

/// GLSL ES 3.00 has no layout(binding): units and block bindings are set after linking.
#[test]
fn textured_quad_with_es30_and_no_extensions() {
    textured_quad(Scene::bare());
}

fn textured_quad(mut s: Scene) {
    // Rows bottom-up: (0,0) red, (1,0) green, (0,1) blue, (1,1) white; alpha 0, so the
    // uniform block's alpha 1 shows the block is bound.
    #[rustfmt::skip]
    let texels = [
        255, 0, 0, 0,     0, 255, 0, 0,
        0, 0, 255, 0,     255, 255, 255, 0,
    ];
    let tex = s.texture(2, 2, Some((RGBA8, &texels)));
    let sampler = s.nearest_sampler();
    s.textured_quad([0.0, 0.0, 0.0, 1.0]);
    s.push(Record::BindTexture {
        slot: 0,
        texture: Some(tex),
        sampler: Some(sampler),
    });
    s.draw_quad();
    assert_eq!(s.pixel(16, 16), [255, 0, 0, 255]);
    assert_eq!(s.pixel(48, 16), [0, 255, 0, 255]);
    assert_eq!(s.pixel(16, 48), [0, 0, 255, 255]);
    assert_eq!(s.pixel(48, 48), [255, 255, 255, 255]);

    // The same texels uploaded as BGRA are converted on the CPU (GLES has no BGRA upload
    // into RGBA8): the picture is the same.
    let bgra: Vec<u8> = texels
        .chunks(4)
        .flat_map(|p| [p[2], p[1], p[0], p[3]])
        .collect();
    let tex2 = s.texture(
        2,
        2,
        Some((
            PixelLayout {
                format: PixelFormat::Bgra,
                ty: PixelType::U8,
            },
            &bgra,
        )),
    );
    s.clear([0.0; 4]);
    s.push(Record::BindTexture {
        slot: 0,
        texture: Some(tex2),
        sampler: Some(sampler),
    });
    s.draw_quad();
    assert_eq!(s.pixel(16, 16), [255, 0, 0, 255]);
    assert_eq!(s.pixel(48, 48), [255, 255, 255, 255]);

    // An unbound slot reads (0, 0, 0, 1).
    s.push(Record::BindTexture {
        slot: 0,
        texture: None,
        sampler: Some(sampler),
    });
    s.draw_quad();
    assert_eq!(s.pixel(16, 16), [0, 0, 0, 255]);
    let events = s.events();
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn additive_blending() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.2, 0.0, 0.6, 1.0]);
    s.solid_triangle();
    s.blend(BlendState {
        enable_mask: 1,
        src_rgb: BlendFactor::One,
        dst_rgb: BlendFactor::One,
        src_alpha: BlendFactor::Zero,
        dst_alpha: BlendFactor::One,
        ..BlendState::default()
    });
    s.uniforms([0.2, 0.4, 0.0, 0.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(32, 32), [102, 102, 153, 255]);
    assert_eq!(s.pixel(2, 2), [51, 0, 153, 255]);
    // A colour mask without red: red keeps the cleared value where the blend adds.
    s.blend(BlendState {
        color_write_mask: 0b1110,
        ..BlendState::default()
    });
    s.uniforms([1.0, 1.0, 1.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(32, 32), [102, 255, 255, 255]);
}

#[test]
fn depth_test_keeps_the_nearest() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.solid_triangle();
    let cso: DepthStencilHandle = s.h();
    s.push(Record::CreateDepthStencilState {
        cso,
        state: DepthStencilState {
            depth_test: true,
            depth_write: true,
            depth_func: CompareFunc::Less,
            ..DepthStencilState::default()
        },
    });
    s.push(Record::BindDepthStencilState { cso });
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0]);
    s.draw(Topology::Triangles, 3);
    s.uniforms([0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 0.5, 0.0]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(32, 32), [255, 0, 0, 255], "farther green is hidden");
    s.uniforms([0.0, 0.0, 1.0, 1.0], [0.0, 0.0, -0.5, 0.0]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(32, 32), [0, 0, 255, 255], "nearer blue wins");
}

#[test]
fn scissor_limits_clears_and_draws() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.raster(RasterState {
        scissor: true,
        ..RasterState::default()
    });
    s.push(Record::SetScissor {
        rect: Rect {
            x: 0,
            y: 0,
            width: 32,
            height: 64,
        },
    });
    s.clear([0.0, 1.0, 0.0, 1.0]);
    assert_eq!(s.pixel(10, 10), [0, 255, 0, 255]);
    assert_eq!(s.pixel(40, 10), [0, 0, 0, 255]);
    s.solid_triangle();
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(30, 30), [255, 0, 0, 255]);
    assert_eq!(s.pixel(34, 30), [0, 0, 0, 255], "right of the scissor");
}

#[test]
fn render_to_texture_then_sample_it() {
    let mut s = Scene::new(TransportKind::Inproc);
    let target = s.texture(16, 16, None);
    let fbo: FramebufferHandle = s.h();
    s.push(Record::CreateFramebuffer { framebuffer: fbo });
    let mut state = FramebufferState::default();
    state.colors[0] = Attachment::Texture {
        texture: target,
        level: 0,
        layer: 0,
    };
    s.push(Record::SetFramebufferState {
        framebuffer: fbo,
        state: Box::new(state),
    });
    s.push(Record::BindFramebuffer {
        framebuffer: FramebufferRef::Object(fbo),
    });
    s.viewport(16, 16);
    s.clear([0.0, 1.0, 0.0, 1.0]);
    s.solid_triangle();
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(
        s.pixel_of(FramebufferRef::Object(fbo), 8, 8),
        [255, 0, 0, 255]
    );
    assert_eq!(
        s.pixel_of(FramebufferRef::Object(fbo), 0, 15),
        [0, 255, 0, 255]
    );

    // Now sample it on the surface.
    s.push(Record::BindFramebuffer {
        framebuffer: FramebufferRef::Surface(s.surface),
    });
    s.viewport(SIZE, SIZE);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    let sampler = s.nearest_sampler();
    s.textured_quad([0.0; 4]);
    s.push(Record::BindTexture {
        slot: 0,
        texture: Some(target),
        sampler: Some(sampler),
    });
    s.draw_quad();
    assert_eq!(s.pixel(32, 32), [255, 0, 0, 255]);
    assert_eq!(s.pixel(1, 62), [0, 255, 0, 255]);
    assert!(s.events().is_empty());
}

#[test]
fn buffers_round_trip() {
    let mut s = Scene::new(TransportKind::Inproc);
    let a = s.buffer(&[1, 2, 3, 4, 5, 6, 7, 8]);
    let b: BufferHandle = s.h();
    s.push(Record::CreateBuffer { buffer: b, size: 8 });
    s.push(Record::CopyBuffer {
        src: a,
        dst: b,
        region: Box::new(BufferCopy {
            src_offset: 2,
            dst_offset: 4,
            size: 4,
        }),
    });
    let data = s.stage(&[9, 9]);
    s.push(Record::WriteBuffer {
        buffer: b,
        offset: 0,
        data,
    });
    let reply = s.enc.mint_reply();
    s.push(Record::ReadBuffer {
        buffer: b,
        range: Box::new(BufferRange { offset: 0, size: 8 }),
        reply,
    });
    s.submit().expect("alive");
    assert_eq!(
        s.transport.wait_reply(reply).expect("reply"),
        Reply::Bytes(vec![9, 9, 0, 0, 3, 4, 5, 6])
    );
}

#[test]
fn a_stale_handle_ends_the_session_without_a_panic() {
    let mut s = Scene::new(TransportKind::Inproc);
    let buffer = s.buffer(&[0; 4]);
    s.push(Record::DestroyBuffer { buffer });
    s.submit().expect("alive");
    let data = s.stage(&[1]);
    s.push(Record::WriteBuffer {
        buffer,
        offset: 0,
        data,
    });
    let lost = s.submit().expect_err("a destroyed handle is refused");
    assert!(lost.reason.contains("not live"), "{}", lost.reason);
    assert!(
        s.events()
            .iter()
            .any(|e| matches!(e, Event::SessionEnded { .. }))
    );
    // Later calls fail the same way, promptly.
    s.clear([0.0; 4]);
    assert!(s.submit().is_err());

    // A handle of a generation never created, on the render thread.
    let mut s = Scene::new(TransportKind::Thread);
    let ghost = TextureHandle {
        slot: 7,
        generation: 3,
    };
    s.push(Record::BindTexture {
        slot: 0,
        texture: Some(ghost),
        sampler: None,
    });
    let reply = s.enc.mint_reply();
    s.push(Record::Finish { reply });
    let _ = s.submit();
    assert!(s.transport.wait_reply(reply).is_err());
}

#[test]
fn what_gles_lacks_is_reported_once() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.solid_triangle();
    s.raster(RasterState {
        polygon_mode: PolygonMode::Line,
        ..RasterState::default()
    });
    s.uniforms([1.0, 1.0, 1.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(32, 32), [255, 255, 255, 255], "filled instead");
    let unsupported: Vec<_> = s
        .events()
        .into_iter()
        .filter(|e| matches!(e, Event::Unsupported { what } if what.contains("polygon mode")))
        .collect();
    assert_eq!(unsupported.len(), 1);
}

#[test]
fn a_refused_program_is_an_event_and_draws_nothing() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    // The vertex stage writes an output the fragment stage reads with another type: SPIR-V
    // translates, the native linker refuses.
    let vs = r"#version 450
layout(location = 0) in vec2 pos;
layout(location = 0) out vec4 v;
void main() { v = vec4(1.0); gl_Position = vec4(pos, 0.0, 1.0); }
";
    let fs = r"#version 450
layout(location = 0) flat in ivec4 v;
layout(location = 0) out vec4 o;
void main() { o = vec4(v); }
";
    let program = s.program(vs, fs, 0, 0, 0);
    s.push(Record::BindProgram {
        program: Some(program),
    });
    let vb = s.buffer(&floats(&[-1.0, -1.0, 1.0, -1.0, 0.0, 1.0]));
    s.vertices(vb, &[(2, 8, 0)]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(32, 20), [0, 0, 0, 255]);
    let events = s.events();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ProgramRejected { log } if log.contains("link"))),
        "{events:?}"
    );
}

#[test]
fn two_contexts_keep_their_own_state() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.solid_triangle();
    s.uniforms([1.0, 0.0, 0.0, 1.0], [-0.5, 0.0, 0.0, 0.0]);
    // Context 1 draws the same triangle on the right in green, with its own bindings.
    s.push(Record::CreateContext { context: 1 });
    s.push(Record::SetContext { context: 1 });
    s.push(Record::BindFramebuffer {
        framebuffer: FramebufferRef::Surface(s.surface),
    });
    s.draw_buffers(&[0]);
    s.viewport(SIZE, SIZE);
    s.solid_triangle();
    s.uniforms([0.0, 1.0, 0.0, 1.0], [0.5, 0.0, 0.0, 0.0]);
    s.draw(Topology::Triangles, 3);
    s.push(Record::SetContext { context: 0 });
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(16, 32), [255, 0, 0, 255]);
    assert_eq!(s.pixel(48, 32), [0, 255, 0, 255]);
    s.push(Record::DestroyContext { context: 1 });
    s.submit().expect("alive");
}

#[test]
fn debug_checks_report_native_errors() {
    let mut s = Scene::new(TransportKind::Inproc);
    let texture = s.texture(2, 2, None);
    // A region past the image: GL refuses it (INVALID_VALUE), the debug checks say so.
    let data = s.stage(&[0; 16]);
    s.push(Record::WriteTexture {
        texture,
        level: 0,
        face: 0,
        region: Box::new(TextureRegion {
            origin: [1, 1, 0],
            size: [2, 2, 1],
        }),
        layout: RGBA8,
        data,
    });
    s.submit().expect("alive");
    let events = s.events();
    assert!(
        events.iter().any(|e| matches!(e, Event::NativeError { what } if what.starts_with("WriteTexture") && what.contains("0x0501"))),
        "{events:?}"
    );
}

fn rgtc(mut s: Scene) {
    // One BC4 block of a 4x4 texture: endpoints 255 and 0; even columns index 0 (255), odd
    // columns index 1 (0).
    let mut bits = 0u64;
    for i in 0..16 {
        bits |= ((i & 1) as u64) << (3 * i);
    }
    let mut block = vec![255u8, 0];
    block.extend_from_slice(&bits.to_le_bytes()[..6]);
    let texture: TextureHandle = s.h();
    s.push(Record::CreateTexture {
        texture,
        kind: TextureKind::D2,
    });
    s.push(Record::DefineTextureImage {
        texture,
        level: 0,
        face: 0,
        format: Format::RgtcR,
        width: 4,
        height: 4,
        depth: 1,
        samples: 0,
        fixed_sample_locations: true,
    });
    let data = s.stage(&block);
    s.push(Record::WriteCompressedTexture {
        texture,
        level: 0,
        face: 0,
        region: Box::new(TextureRegion {
            origin: [0; 3],
            size: [4, 4, 1],
        }),
        data,
    });
    let sampler = s.nearest_sampler();
    s.textured_quad([0.0; 4]);
    s.push(Record::BindTexture {
        slot: 0,
        texture: Some(texture),
        sampler: Some(sampler),
    });
    s.draw_quad();
    assert_eq!(s.pixel(8, 8), [255, 0, 0, 255]);
    assert_eq!(s.pixel(24, 40), [0, 0, 0, 255]);
    assert_eq!(s.pixel(40, 56), [255, 0, 0, 255]);
}

#[test]
fn rgtc_through_the_driver() {
    rgtc(Scene::new(TransportKind::Inproc));
}

#[test]
fn rgtc_decoded_on_the_cpu() {
    rgtc(Scene::bare());
}

#[test]
fn depth_and_stencil_read_back() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.push(Record::Clear {
        mask: clear_mask::DEPTH | clear_mask::STENCIL,
        color: [0.0; 4],
        depth: 1.0,
        stencil: 5,
    });
    s.raster(RasterState {
        scissor: true,
        ..RasterState::default()
    });
    s.push(Record::SetScissor {
        rect: Rect {
            x: 0,
            y: 0,
            width: 32,
            height: 64,
        },
    });
    s.push(Record::ClearBuffer {
        draw_buffer: 0,
        value: tessera_wire::record::ClearValue::Depth(0.0),
    });
    let read = |s: &mut Scene, image, layout| {
        let reply = s.enc.mint_reply();
        s.push(Record::ReadPixels {
            src: ReadSource {
                framebuffer: FramebufferRef::Surface(s.surface),
                image,
            },
            layout,
            region: Box::new(ReadRegion {
                rect: Rect {
                    x: 31,
                    y: 0,
                    width: 2,
                    height: 1,
                },
                dst: PixelDestination::Reply(reply),
            }),
        });
        s.submit().expect("alive");
        s.transport.wait_reply(reply).expect("reply")
    };
    let depth = read(
        &mut s,
        ReadImage::Depth,
        PixelLayout {
            format: PixelFormat::DepthComponent,
            ty: PixelType::U16,
        },
    );
    assert_eq!(
        depth,
        Reply::Bytes([0u16.to_le_bytes(), 65535u16.to_le_bytes()].concat()),
        "{:?}",
        s.events()
    );
    let stencil = read(
        &mut s,
        ReadImage::Stencil,
        PixelLayout {
            format: PixelFormat::StencilIndex,
            ty: PixelType::U8,
        },
    );
    assert_eq!(stencil, Reply::Bytes(vec![5, 5]));
    let events = s.events();
    assert!(
        events
            .iter()
            .all(|e| !matches!(e, Event::NativeError { .. } | Event::Unsupported { .. })),
        "{events:?}"
    );
}

#[test]
fn textures_from_buffers_and_back() {
    let mut s = Scene::new(TransportKind::Inproc);
    // Two rows of two texels, rows 12 bytes apart.
    let rows = [
        1u8, 2, 3, 4, 5, 6, 7, 8, 0xee, 0xee, 0xee, 0xee, 9, 10, 11, 12, 13, 14, 15, 16,
    ];
    let pbo = s.buffer(&rows);
    let texture = s.texture(2, 2, None);
    s.push(Record::WriteTextureFromBuffer {
        texture,
        level: 0,
        face: 0,
        layout: RGBA8,
        source: Box::new(tessera_wire::record::BufferPixels {
            region: TextureRegion {
                origin: [0; 3],
                size: [2, 2, 1],
            },
            buffer: pbo,
            offset: 0,
            row_stride: 12,
            image_stride: 24,
            swap_bytes: false,
        }),
    });
    let reply = s.enc.mint_reply();
    s.push(Record::ReadTexture {
        texture,
        level: 0,
        face: 0,
        layout: PixelLayout {
            format: PixelFormat::Bgra,
            ty: PixelType::U8,
        },
        read: Box::new(tessera_wire::record::TextureRead {
            size: [2, 2, 1],
            dst: PixelDestination::Reply(reply),
        }),
    });
    s.submit().expect("alive");
    assert_eq!(
        s.transport.wait_reply(reply).expect("reply"),
        Reply::Bytes(vec![3, 2, 1, 4, 7, 6, 5, 8, 11, 10, 9, 12, 15, 14, 13, 16])
    );
}

#[test]
fn draw_buffers_map_outputs_to_any_attachment() {
    let mut s = Scene::new(TransportKind::Inproc);
    let a = s.texture(8, 8, None);
    let b = s.texture(8, 8, None);
    let fbo: FramebufferHandle = s.h();
    s.push(Record::CreateFramebuffer { framebuffer: fbo });
    let mut state = FramebufferState::default();
    state.colors[0] = Attachment::Texture {
        texture: a,
        level: 0,
        layer: 0,
    };
    state.colors[1] = Attachment::Texture {
        texture: b,
        level: 0,
        layer: 0,
    };
    s.push(Record::SetFramebufferState {
        framebuffer: fbo,
        state: Box::new(state),
    });
    s.push(Record::BindFramebuffer {
        framebuffer: FramebufferRef::Object(fbo),
    });
    s.viewport(8, 8);
    // Output 0 -> attachment 1, output 1 -> attachment 0 (GLES itself only allows i -> i).
    s.draw_buffers(&[1, 0]);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    let fs = r"#version 450
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() { o0 = vec4(1.0, 0.0, 0.0, 1.0); o1 = vec4(0.0, 1.0, 0.0, 1.0); }
";
    let vs = r"#version 450
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";
    let program = s.program(vs, fs, 0, 0, 0);
    s.push(Record::BindProgram {
        program: Some(program),
    });
    let vb = s.buffer(&floats(&[-1.0, -1.0, 3.0, -1.0, -1.0, 3.0]));
    s.vertices(vb, &[(2, 8, 0)]);
    s.draw(Topology::Triangles, 3);
    let read = |s: &mut Scene, j: u8| {
        let reply = s.enc.mint_reply();
        s.push(Record::ReadPixels {
            src: ReadSource {
                framebuffer: FramebufferRef::Object(fbo),
                image: ReadImage::Color(j),
            },
            layout: RGBA8,
            region: Box::new(ReadRegion {
                rect: Rect {
                    x: 4,
                    y: 4,
                    width: 1,
                    height: 1,
                },
                dst: PixelDestination::Reply(reply),
            }),
        });
        s.submit().expect("alive");
        s.transport.wait_reply(reply).expect("reply")
    };
    assert_eq!(
        read(&mut s, 0),
        Reply::Bytes(vec![0, 255, 0, 255]),
        "attachment 0 got output 1"
    );
    assert_eq!(
        read(&mut s, 1),
        Reply::Bytes(vec![255, 0, 0, 255]),
        "attachment 1 got output 0"
    );
    // Back to the identity mapping; a clear of draw buffer 1 only reaches attachment 1.
    s.draw_buffers(&[0, 1]);
    s.push(Record::ClearBuffer {
        draw_buffer: 1,
        value: tessera_wire::record::ClearValue::Float([0.0, 0.0, 1.0, 1.0]),
    });
    assert_eq!(read(&mut s, 0), Reply::Bytes(vec![0, 255, 0, 255]));
    assert_eq!(read(&mut s, 1), Reply::Bytes(vec![0, 0, 255, 255]));
    let events = s.events();
    assert!(events.is_empty(), "{events:?}");
}

fn u16s(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn u32s(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Uploads two texels of each format and reads them back through `ReadTexture` in the same
/// layout: stand-in formats, CPU conversions and read layouts must give the bytes back.
fn formats_round_trip(mut s: Scene) {
    use PixelFormat as P;
    use PixelType as T;
    let half = |v: &[f32]| -> Vec<u8> {
        // Exact halves: 0.5, -2, 1024, 0.25 and their friends.
        v.iter()
            .flat_map(|f| {
                let bits = f.to_bits();
                let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
                let h = ((bits >> 16) & 0x8000) as u16
                    | ((exp as u16) << 10)
                    | ((bits >> 13) & 0x3ff) as u16;
                (if *f == 0.0 { 0u16 } else { h }).to_le_bytes()
            })
            .collect()
    };
    let cases: Vec<(Format, PixelLayout, Vec<u8>)> = vec![
        (
            Format::Rgba8,
            PixelLayout {
                format: P::Rgba,
                ty: T::U8,
            },
            vec![0, 51, 102, 255, 255, 0, 17, 34],
        ),
        (
            Format::Rgb8,
            PixelLayout {
                format: P::Rgb,
                ty: T::U8,
            },
            vec![1, 2, 3, 250, 251, 252],
        ),
        (
            Format::R8,
            PixelLayout {
                format: P::Red,
                ty: T::U8,
            },
            vec![7, 200],
        ),
        (
            Format::Rg8,
            PixelLayout {
                format: P::Rg,
                ty: T::U8,
            },
            vec![7, 200, 255, 0],
        ),
        (
            Format::Rgb565,
            PixelLayout {
                format: P::Rgb,
                ty: T::U16_565,
            },
            u16s(&[0xf800, 0x07ff]),
        ),
        (
            Format::Rgba4,
            PixelLayout {
                format: P::Rgba,
                ty: T::U16_4444,
            },
            u16s(&[0xf00f, 0x0ff0]),
        ),
        (
            Format::Rgb5A1,
            PixelLayout {
                format: P::Rgba,
                ty: T::U16_5551,
            },
            u16s(&[0xf801, 0x07fe]),
        ),
        (
            Format::Rgb10A2,
            PixelLayout {
                format: P::Rgba,
                ty: T::U32_2101010Rev,
            },
            u32s(&[0x3ff | (5 << 10) | (1000 << 20) | (2 << 30), 17 | (3 << 30)]),
        ),
        (
            Format::Rgba16,
            PixelLayout {
                format: P::Rgba,
                ty: T::U16,
            },
            u16s(&[0, 65535, 65535, 0, 65535, 0, 0, 65535]),
        ),
        (
            Format::Rgba16f,
            PixelLayout {
                format: P::Rgba,
                ty: T::F16,
            },
            half(&[0.5, -2.0, 1024.0, 0.25, 1.0, 0.0, -0.5, 8.0]),
        ),
        (
            Format::R32f,
            PixelLayout {
                format: P::Red,
                ty: T::F32,
            },
            floats(&[3.25, -1.0e-3]),
        ),
        (
            Format::R11fG11fB10f,
            PixelLayout {
                format: P::Rgb,
                ty: T::F32,
            },
            floats(&[1.0, 0.5, 2.0, 0.0, 64.0, 0.125]),
        ),
        (
            Format::Srgb8Alpha8,
            PixelLayout {
                format: P::Rgba,
                ty: T::U8,
            },
            vec![10, 20, 30, 40, 250, 128, 0, 255],
        ),
        (
            Format::Rgba8ui,
            PixelLayout {
                format: P::RgbaInteger,
                ty: T::U8,
            },
            vec![0, 1, 128, 255, 9, 8, 7, 6],
        ),
        (
            Format::Rgba16i,
            PixelLayout {
                format: P::RgbaInteger,
                ty: T::I16,
            },
            u16s(&[0x8000, 0x7fff, 0xffff, 5, 1, 2, 3, 4]),
        ),
        (
            Format::R32ui,
            PixelLayout {
                format: P::RedInteger,
                ty: T::U32,
            },
            u32s(&[u32::MAX, 123_456_789]),
        ),
    ];
    for (format, layout, bytes) in cases {
        let texture: TextureHandle = s.h();
        s.push(Record::CreateTexture {
            texture,
            kind: TextureKind::D2,
        });
        s.push(Record::DefineTextureImage {
            texture,
            level: 0,
            face: 0,
            format,
            width: 2,
            height: 1,
            depth: 1,
            samples: 0,
            fixed_sample_locations: true,
        });
        let data = s.stage(&bytes);
        s.push(Record::WriteTexture {
            texture,
            level: 0,
            face: 0,
            region: Box::new(TextureRegion {
                origin: [0; 3],
                size: [2, 1, 1],
            }),
            layout,
            data,
        });
        let reply = s.enc.mint_reply();
        s.push(Record::ReadTexture {
            texture,
            level: 0,
            face: 0,
            layout,
            read: Box::new(tessera_wire::record::TextureRead {
                size: [2, 1, 1],
                dst: PixelDestination::Reply(reply),
            }),
        });
        s.submit().expect("alive");
        assert_eq!(
            s.transport.wait_reply(reply).expect("reply"),
            Reply::Bytes(bytes),
            "{format:?}"
        );
    }
    let native: Vec<_> = s
        .events()
        .into_iter()
        .filter(|e| matches!(e, Event::NativeError { .. }))
        .collect();
    assert!(native.is_empty(), "{native:?}");
}

#[test]
fn formats_round_trip_natively() {
    formats_round_trip(Scene::new(TransportKind::Inproc));
}

#[test]
fn formats_round_trip_through_stand_ins() {
    formats_round_trip(Scene::bare());
}

#[test]
fn dangling_bindings_are_tolerated() {
    let mut s = Scene::new(TransportKind::Inproc);
    let texels = [255u8, 255, 255, 255];
    let tex = s.texture(1, 1, Some((RGBA8, &texels)));
    let sampler = s.nearest_sampler();
    s.textured_quad([0.0, 0.0, 0.0, 0.0]);
    s.push(Record::BindTexture {
        slot: 0,
        texture: Some(tex),
        sampler: Some(sampler),
    });
    s.draw_quad();
    assert_eq!(s.pixel(32, 32), [255, 255, 255, 255]);
    // Destroyed while bound: the binding dangles, the draw reads an unbound slot.
    s.push(Record::DestroyTexture { texture: tex });
    s.draw_quad();
    assert_eq!(s.pixel(32, 32), [0, 0, 0, 255]);
    // The surface itself destroyed while bound: verbs draw nowhere, the session goes on.
    s.push(Record::DestroySurface { surface: s.surface });
    s.draw_quad();
    let reply = s.enc.mint_reply();
    s.push(Record::Finish { reply });
    s.submit().expect("alive");
    assert_eq!(s.transport.wait_reply(reply).expect("reply"), Reply::Done);
}

#[test]
fn blit_copy_query_and_fence() {
    use tessera_wire::format::QueryKind;
    use tessera_wire::handle::{FenceHandle, QueryHandle};
    use tessera_wire::record::{TextureCopy, blit_mask};
    use tessera_wire::state::Region;
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.0, 0.0, 1.0, 1.0]);
    // A green 16x16 FBO, blitted (scaled x2) into the surface's lower-left corner.
    let target = s.texture(16, 16, None);
    let fbo: FramebufferHandle = s.h();
    s.push(Record::CreateFramebuffer { framebuffer: fbo });
    let mut state = FramebufferState::default();
    state.colors[0] = Attachment::Texture {
        texture: target,
        level: 0,
        layer: 0,
    };
    s.push(Record::SetFramebufferState {
        framebuffer: fbo,
        state: Box::new(state),
    });
    s.push(Record::BindFramebuffer {
        framebuffer: FramebufferRef::Object(fbo),
    });
    s.viewport(16, 16);
    s.clear([0.0, 1.0, 0.0, 1.0]);
    s.push(Record::BindFramebuffer {
        framebuffer: FramebufferRef::Surface(s.surface),
    });
    s.viewport(SIZE, SIZE);
    s.push(Record::Blit {
        src: ReadSource {
            framebuffer: FramebufferRef::Object(fbo),
            image: ReadImage::Color(0),
        },
        regions: Box::new([
            Region {
                x0: 0,
                y0: 0,
                x1: 16,
                y1: 16,
            },
            Region {
                x0: 0,
                y0: 0,
                x1: 32,
                y1: 32,
            },
        ]),
        mask: blit_mask::COLOR,
        linear: false,
    });
    assert_eq!(s.pixel(31, 31), [0, 255, 0, 255]);
    assert_eq!(s.pixel(33, 33), [0, 0, 255, 255]);

    // Copy a 4x4 corner of the surface into a texture and read the texture back.
    let copy = s.texture(4, 4, None);
    s.push(Record::CopyTexture {
        texture: copy,
        level: 0,
        face: 0,
        region: Box::new(TextureCopy {
            src: ReadSource {
                framebuffer: FramebufferRef::Surface(s.surface),
                image: ReadImage::Color(0),
            },
            origin: [0; 3],
            rect: Rect {
                x: 30,
                y: 30,
                width: 4,
                height: 4,
            },
        }),
    });
    let reply = s.enc.mint_reply();
    s.push(Record::ReadTexture {
        texture: copy,
        level: 0,
        face: 0,
        layout: RGBA8,
        read: Box::new(tessera_wire::record::TextureRead {
            size: [4, 4, 1],
            dst: PixelDestination::Reply(reply),
        }),
    });
    s.submit().expect("alive");
    let Reply::Bytes(texels) = s.transport.wait_reply(reply).expect("reply") else {
        panic!("bytes")
    };
    assert_eq!(&texels[..4], &[0, 255, 0, 255], "(30, 30) was green");
    assert_eq!(&texels[60..], &[0, 0, 255, 255], "(33, 33) was blue");

    // An occlusion query around a visible triangle, then one around nothing drawn.
    s.solid_triangle();
    s.uniforms([1.0, 1.0, 1.0, 1.0], [0.0; 4]);
    let mut results = Vec::new();
    for count in [3, 0] {
        let query: QueryHandle = s.h();
        s.push(Record::CreateQuery {
            query,
            kind: QueryKind::AnySamplesPassed,
        });
        s.push(Record::BeginQuery { query });
        s.draw(Topology::Triangles, count);
        s.push(Record::EndQuery { query });
        let reply = s.enc.mint_reply();
        s.push(Record::QueryResult { query, reply });
        s.submit().expect("alive");
        results.push(s.transport.wait_reply(reply).expect("reply"));
    }
    assert_eq!(results, vec![Reply::Query(1), Reply::Query(0)]);

    let fence: FenceHandle = s.h();
    s.push(Record::InsertFence { fence });
    let reply = s.enc.mint_reply();
    s.push(Record::WaitFence {
        fence,
        timeout_ns: 5_000_000_000,
        reply,
    });
    s.push(Record::DestroyFence { fence });
    s.submit().expect("alive");
    assert_eq!(
        s.transport.wait_reply(reply).expect("reply"),
        Reply::Fence(true)
    );
    let native: Vec<_> = s
        .events()
        .into_iter()
        .filter(|e| matches!(e, Event::NativeError { .. }))
        .collect();
    assert!(native.is_empty(), "{native:?}");
}

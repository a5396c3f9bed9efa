//! Texture scenes: exact texels, render-to-texture, RGTC, buffer uploads, format round
//! trips, mipmaps and every sampler kind.

use super::*;

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
    // The same texels uploaded as BGRA are converted on the CPU: the same picture.
    let bgra: Vec<u8> = texels
        .chunks(4)
        .flat_map(|p| [p[2], p[1], p[0], p[3]])
        .collect();
    let layout = PixelLayout {
        format: PixelFormat::Bgra,
        ty: PixelType::U8,
    };
    let tex2 = s.texture(2, 2, Some((layout, &bgra)));
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
fn textured_quad_samples_exact_texels() {
    textured_quad(Scene::new(TransportKind::Inproc));
}

#[test]
fn textured_quad_on_the_floor() {
    textured_quad(Scene::floor());
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
    // Now sample it on the surface: texel rows are window rows, nothing flipped.
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
    s.finish();
}

#[test]
fn rgtc_through_the_driver() {
    rgtc(Scene::new(TransportKind::Inproc));
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
    s.finish();
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
    s.finish();
}

#[test]
fn formats_round_trip_natively() {
    formats_round_trip(Scene::new(TransportKind::Inproc));
}

#[test]
fn generated_mipmaps_are_sampled() {
    let mut s = Scene::new(TransportKind::Inproc);
    // 4x4, red 0/64/128/192 by quadrant: level 2 (1x1) averages to 96.
    let mut texels = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            let red = [[0u8, 64], [128, 192]][y / 2][x / 2];
            texels.extend_from_slice(&[red, 255, 0, 255]);
        }
    }
    let tex = s.texture(4, 4, Some((RGBA8, &texels)));
    s.push(Record::GenerateMipmap {
        texture: tex,
        base: 0,
        max: 2,
    });
    s.push(Record::SetTextureView {
        texture: tex,
        view: tessera_wire::state::TextureView {
            base_level: 2,
            ..Default::default()
        },
    });
    let sampler = s.nearest_sampler();
    s.textured_quad([0.0; 4]);
    s.push(Record::BindTexture {
        slot: 0,
        texture: Some(tex),
        sampler: Some(sampler),
    });
    s.draw_quad();
    assert_eq!(s.pixel(10, 10), [96, 255, 0, 255]);
    assert_eq!(s.pixel(60, 60), [96, 255, 0, 255]);
    s.finish();
}

/// Creates a texture of `kind` with `faces` (or layers) 1x1 images of `format`, each
/// uploaded from `texel(i)`.
fn one_texel_texture(
    s: &mut Scene,
    kind: TextureKind,
    format: Format,
    layout: PixelLayout,
    images: u32,
    texel: impl Fn(u32) -> Vec<u8>,
) -> TextureHandle {
    let texture: TextureHandle = s.h();
    s.push(Record::CreateTexture { texture, kind });
    let cube = kind == TextureKind::Cube;
    for i in 0..if cube { images } else { 1 } {
        s.push(Record::DefineTextureImage {
            texture,
            level: 0,
            face: i as u8,
            format,
            width: 1,
            height: 1,
            depth: if cube { 1 } else { images },
            samples: 0,
            fixed_sample_locations: true,
        });
    }
    for i in 0..images {
        let data = s.stage(&texel(i));
        s.push(Record::WriteTexture {
            texture,
            level: 0,
            face: if cube { i as u8 } else { 0 },
            region: Box::new(TextureRegion {
                origin: [0, 0, if cube { 0 } else { i }],
                size: [1, 1, 1],
            }),
            layout,
            data,
        });
    }
    texture
}

#[test]
fn texture_kinds_sample_as_gl_does() {
    let mut s = Scene::new(TransportKind::Inproc);
    let linear = {
        let cso: SamplerHandle = s.h();
        s.push(Record::CreateSamplerState {
            cso,
            state: Box::new(SamplerState {
                mag_filter: Filter::Linear,
                min_filter: Filter::Linear,
                mip_filter: MipFilter::None,
                wrap: [Wrap::ClampToEdge; 3],
                ..SamplerState::default()
            }),
        });
        cso
    };
    let shadow = {
        let cso: SamplerHandle = s.h();
        s.push(Record::CreateSamplerState {
            cso,
            state: Box::new(SamplerState {
                mag_filter: Filter::Nearest,
                min_filter: Filter::Nearest,
                mip_filter: MipFilter::None,
                wrap: [Wrap::ClampToEdge; 3],
                compare: Some(CompareFunc::Less),
                ..SamplerState::default()
            }),
        });
        cso
    };
    // Vulkan cube maps are always seamless (GL 3.3's are not by default): nearest keeps
    // the face's own texel.
    let nearest = s.nearest_sampler();
    let quad = floats(&[
        -1.0, -1.0, 0.0, 0.0, 3.0, -1.0, 2.0, 0.0, -1.0, 3.0, 0.0, 2.0,
    ]);
    let vb = s.buffer(&quad);
    let rgba = |c: [u8; 4]| c.to_vec();
    let cube = one_texel_texture(&mut s, TextureKind::Cube, Format::Rgba8, RGBA8, 6, |i| {
        rgba([(i * 40) as u8, 255, 0, 255])
    });
    let array = one_texel_texture(&mut s, TextureKind::D2Array, Format::Rgba8, RGBA8, 3, |i| {
        rgba([0, (i * 100) as u8, 255, 255])
    });
    let integer = one_texel_texture(
        &mut s,
        TextureKind::D2,
        Format::Rgba8ui,
        PixelLayout {
            format: PixelFormat::RgbaInteger,
            ty: PixelType::U8,
        },
        1,
        |_| vec![51, 102, 153, 255],
    );
    let depth = one_texel_texture(
        &mut s,
        TextureKind::D2,
        Format::Depth24,
        PixelLayout {
            format: PixelFormat::DepthComponent,
            ty: PixelType::F32,
        },
        1,
        |_| floats(&[0.75]),
    );
    let cases: [(&str, TextureHandle, SamplerHandle, [u8; 4]); 5] = [
        (
            "uniform samplerCube t; void main() { o = texture(t, vec3(-1.0, 0.1, 0.1)); }",
            cube,
            nearest,
            [40, 255, 0, 255],
        ),
        (
            "uniform sampler2DArray t; void main() { o = texture(t, vec3(v_uv, 2.0)); }",
            array,
            linear,
            [0, 200, 255, 255],
        ),
        (
            "uniform usampler2D t; void main() { o = vec4(texture(t, v_uv)) / 255.0; }",
            integer,
            linear,
            [51, 102, 153, 255],
        ),
        (
            "uniform sampler2DShadow t; void main() { o = vec4(texture(t, vec3(v_uv, 0.5))); }",
            depth,
            shadow,
            [255, 255, 255, 255],
        ),
        (
            "uniform sampler2DShadow t; void main() { o = vec4(texture(t, vec3(v_uv, 0.9))); }",
            depth,
            shadow,
            [0, 0, 0, 0],
        ),
    ];
    for (body, texture, sampler, want) in cases {
        let fs = format!(
            "#version 450\nlayout(location = 0) in vec2 v_uv;\nlayout(location = 0) out vec4 o;\nlayout(set = 0, binding = 1) {body}\n"
        );
        let program = s.program(TEXTURED_VS, &fs, 0, 1, 0);
        s.push(Record::BindProgram {
            program: Some(program),
        });
        s.vertices(vb, &[(2, 16, 0), (2, 16, 8)]);
        s.push(Record::BindTexture {
            slot: 0,
            texture: Some(texture),
            sampler: Some(sampler),
        });
        s.clear([0.5, 0.5, 0.5, 0.5]);
        s.draw(Topology::Triangles, 3);
        assert_eq!(s.pixel(20, 20), want, "{body}");
    }
    s.finish();
}

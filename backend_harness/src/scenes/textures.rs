//! Texture scenes: exact texels, render-to-texture, RGTC, buffer uploads, format round
//! trips, mipmaps and every sampler kind.

use tessera_wire::format::{
    CompareFunc, Filter, Format, PixelFormat, PixelLayout, PixelType, TextureKind, Topology,
};
use tessera_wire::handle::{SamplerHandle, TextureHandle};
use tessera_wire::record::{BufferPixels, FramebufferRef, TextureRegion};
use tessera_wire::state::{SamplerState, TextureView};
use tessera_wire::{Record, Reply};

use crate::{
    BLACK, BLUE, GREEN, RED, RGBA8, Scene, TEXTURED_VS, WHITE, floats, halves, nearest, u16s, u32s,
    whole,
};

/// BGRA bytes: what a client uploads or reads as `PixelFormat::Bgra`.
const BGRA8: PixelLayout = PixelLayout {
    format: PixelFormat::Bgra,
    ty: PixelType::U8,
};

/// A 2x2 texture sampled texel for texel over the quad, the same texels uploaded as BGRA,
/// then an unbound slot.
pub fn textured_quad(mut s: Scene) {
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
    s.bind_texture(Some(tex), sampler);
    s.draw_quad();
    s.expect_pixels(&[
        (16, 16, RED),
        (48, 16, GREEN),
        (16, 48, BLUE),
        (48, 48, WHITE),
    ]);
    // The same texels uploaded as BGRA are converted on the CPU (neither GLES nor Vulkan
    // uploads BGRA into RGBA8): the picture is the same.
    let bgra: Vec<u8> = texels
        .chunks(4)
        .flat_map(|p| [p[2], p[1], p[0], p[3]])
        .collect();
    let tex2 = s.texture(2, 2, Some((BGRA8, &bgra)));
    s.clear([0.0; 4]);
    s.bind_texture(Some(tex2), sampler);
    s.draw_quad();
    s.expect_pixels(&[(16, 16, RED), (48, 48, WHITE)]);
    // An unbound slot reads (0, 0, 0, 1).
    s.bind_texture(None, sampler);
    s.draw_quad();
    s.expect_pixels(&[(16, 16, BLACK)]);
    s.assert_no_events();
}

/// A triangle drawn into a texture through an FBO, then that texture sampled on the
/// surface: texel rows are window rows, nothing flipped.
pub fn render_to_texture_then_sample_it(mut s: Scene) {
    let target = s.texture(16, 16, None);
    let fbo = FramebufferRef::Object(s.texture_framebuffer(&[target]));
    s.viewport(16, 16);
    s.clear([0.0, 1.0, 0.0, 1.0]);
    s.solid_triangle();
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    s.expect_pixels_of(fbo, &[(8, 8, RED), (0, 15, GREEN)]);
    s.bind_surface();
    s.clear([0.0, 0.0, 0.0, 1.0]);
    let sampler = s.nearest_sampler();
    s.textured_quad([0.0; 4]);
    s.bind_texture(Some(target), sampler);
    s.draw_quad();
    s.expect_pixels(&[(32, 32, RED), (1, 62, GREEN)]);
    s.assert_no_events();
}

/// One BC4 block sampled: through the driver, or decoded on the CPU where it lacks RGTC.
pub fn rgtc(mut s: Scene) {
    // One BC4 block of a 4x4 texture: endpoints 255 and 0; even columns index 0 (255), odd
    // columns index 1 (0).
    let mut bits = 0u64;
    for i in 0..16 {
        bits |= ((i & 1) as u64) << (3 * i);
    }
    let mut block = vec![255u8, 0];
    block.extend_from_slice(&bits.to_le_bytes()[..6]);
    let texture = s.texture_of(TextureKind::D2, Format::RgtcR, [4, 4, 1]);
    let data = s.stage(&block);
    s.push(Record::WriteCompressedTexture {
        texture,
        level: 0,
        face: 0,
        region: Box::new(whole([4, 4, 1])),
        data,
    });
    let sampler = s.nearest_sampler();
    s.textured_quad([0.0; 4]);
    s.bind_texture(Some(texture), sampler);
    s.draw_quad();
    s.expect_pixels(&[(8, 8, RED), (24, 40, BLACK), (40, 56, RED)]);
    s.finish();
}

/// Texels written from a buffer with a row stride, read back as BGRA.
pub fn textures_from_buffers_and_back(mut s: Scene) {
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
        source: Box::new(BufferPixels {
            region: whole([2, 2, 1]),
            buffer: pbo,
            offset: 0,
            row_stride: 12,
            image_stride: 24,
            swap_bytes: false,
        }),
    });
    assert_eq!(
        s.read_texture(texture, BGRA8, [2, 2, 1]),
        Reply::Bytes(vec![3, 2, 1, 4, 7, 6, 5, 8, 11, 10, 9, 12, 15, 14, 13, 16])
    );
    s.finish();
}

/// Uploads two texels of each format and reads them back through `ReadTexture` in the same
/// layout: stand-in formats, CPU conversions and read layouts must give the bytes back.
pub fn formats_round_trip(mut s: Scene) {
    use PixelFormat as P;
    use PixelType as T;
    let layout = |format, ty| PixelLayout { format, ty };
    let cases: Vec<(Format, PixelLayout, Vec<u8>)> = vec![
        (Format::Rgba8, RGBA8, vec![0, 51, 102, 255, 255, 0, 17, 34]),
        (
            Format::Rgb8,
            layout(P::Rgb, T::U8),
            vec![1, 2, 3, 250, 251, 252],
        ),
        (Format::R8, layout(P::Red, T::U8), vec![7, 200]),
        (Format::Rg8, layout(P::Rg, T::U8), vec![7, 200, 255, 0]),
        (
            Format::Rgb565,
            layout(P::Rgb, T::U16_565),
            u16s(&[0xf800, 0x07ff]),
        ),
        (
            Format::Rgba4,
            layout(P::Rgba, T::U16_4444),
            u16s(&[0xf00f, 0x0ff0]),
        ),
        (
            Format::Rgb5A1,
            layout(P::Rgba, T::U16_5551),
            u16s(&[0xf801, 0x07fe]),
        ),
        (
            Format::Rgb10A2,
            layout(P::Rgba, T::U32_2101010Rev),
            u32s(&[0x3ff | (5 << 10) | (1000 << 20) | (2 << 30), 17 | (3 << 30)]),
        ),
        (
            Format::Rgba16,
            layout(P::Rgba, T::U16),
            u16s(&[0, 65535, 65535, 0, 65535, 0, 0, 65535]),
        ),
        (
            Format::Rgba16f,
            layout(P::Rgba, T::F16),
            halves(&[0.5, -2.0, 1024.0, 0.25, 1.0, 0.0, -0.5, 8.0]),
        ),
        (
            Format::R32f,
            layout(P::Red, T::F32),
            floats(&[3.25, -1.0e-3]),
        ),
        (
            Format::R11fG11fB10f,
            layout(P::Rgb, T::F32),
            floats(&[1.0, 0.5, 2.0, 0.0, 64.0, 0.125]),
        ),
        (
            Format::Srgb8Alpha8,
            RGBA8,
            vec![10, 20, 30, 40, 250, 128, 0, 255],
        ),
        (
            Format::Rgba8ui,
            layout(P::RgbaInteger, T::U8),
            vec![0, 1, 128, 255, 9, 8, 7, 6],
        ),
        (
            Format::Rgba16i,
            layout(P::RgbaInteger, T::I16),
            u16s(&[0x8000, 0x7fff, 0xffff, 5, 1, 2, 3, 4]),
        ),
        (
            Format::R32ui,
            layout(P::RedInteger, T::U32),
            u32s(&[u32::MAX, 123_456_789]),
        ),
    ];
    for (format, layout, bytes) in cases {
        let texture = s.texture_of(TextureKind::D2, format, [2, 1, 1]);
        s.write_texture(texture, 0, whole([2, 1, 1]), layout, &bytes);
        let back = s.read_texture(texture, layout, [2, 1, 1]);
        assert_eq!(back, Reply::Bytes(bytes), "{format:?} ({})", s.label);
    }
    s.finish();
}

/// Mipmaps generated from a 4x4 level: level 2, the view's base, averages the quadrants.
pub fn generated_mipmaps_are_sampled(mut s: Scene) {
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
        view: TextureView {
            base_level: 2,
            ..Default::default()
        },
    });
    let sampler = s.nearest_sampler();
    s.textured_quad([0.0; 4]);
    s.bind_texture(Some(tex), sampler);
    s.draw_quad();
    let average = [96, 255, 0, 255];
    s.expect_pixels(&[(10, 10, average), (60, 60, average)]);
    s.finish();
}

/// A texture of `kind` with one 1x1 image of `format` per entry of `texels` (its faces, or
/// its layers), each uploaded from its entry in `layout`.
fn one_texel_texture(
    s: &mut Scene,
    kind: TextureKind,
    (format, layout): (Format, PixelLayout),
    texels: &[Vec<u8>],
) -> TextureHandle {
    let cube = kind == TextureKind::Cube;
    let images = texels.len() as u32;
    let texture = s.texture_of(kind, format, [1, 1, if cube { 1 } else { images }]);
    for (i, texel) in (0..).zip(texels) {
        let (face, layer) = if cube { (i as u8, 0) } else { (0, i) };
        let region = TextureRegion {
            origin: [0, 0, layer],
            size: [1, 1, 1],
        };
        s.write_texture(texture, face, region, layout, texel);
    }
    texture
}

/// Cube maps, arrays, integer textures and shadow comparisons each sampled as GL samples
/// them, through a fragment stage per kind. The integer texture is sampled through a linear
/// sampler, which the backends answer differently: `integer_linear` is what the suite's
/// backend reads there.
pub fn texture_kinds(mut s: Scene, integer_linear: [u8; 4]) {
    let linear = s.sampler(SamplerState {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        ..nearest()
    });
    let shadow = s.sampler(SamplerState {
        compare: Some(CompareFunc::Less),
        ..nearest()
    });
    // Vulkan and GLES 3 cube maps are always seamless (GL 3.3's are not by default):
    // nearest keeps the face's own texel.
    let nearest = s.nearest_sampler();
    let triangle = floats(&[
        -1.0, -1.0, 0.0, 0.0, 3.0, -1.0, 2.0, 0.0, -1.0, 3.0, 0.0, 2.0,
    ]);
    let vb = s.buffer(&triangle);
    let rgba8 = (Format::Rgba8, RGBA8);
    let faces: Vec<_> = (0..6).map(|i| vec![i * 40, 255, 0, 255]).collect();
    let cube = one_texel_texture(&mut s, TextureKind::Cube, rgba8, &faces);
    let layers: Vec<_> = (0..3).map(|i| vec![0, i * 100, 255, 255]).collect();
    let array = one_texel_texture(&mut s, TextureKind::D2Array, rgba8, &layers);
    let rgba8ui = PixelLayout {
        format: PixelFormat::RgbaInteger,
        ty: PixelType::U8,
    };
    let texel = [vec![51, 102, 153, 255]];
    let integer = one_texel_texture(&mut s, TextureKind::D2, (Format::Rgba8ui, rgba8ui), &texel);
    let depth32f = PixelLayout {
        format: PixelFormat::DepthComponent,
        ty: PixelType::F32,
    };
    let texel = [floats(&[0.75])];
    let depth = one_texel_texture(&mut s, TextureKind::D2, (Format::Depth24, depth32f), &texel);
    // (texture, sampler, GLSL sampler type, what the fragment stage writes, the pixel).
    let cases: [(TextureHandle, SamplerHandle, &str, &str, [u8; 4]); 5] = [
        (
            cube,
            nearest,
            "samplerCube",
            "texture(t, vec3(-1.0, 0.1, 0.1))",
            [40, 255, 0, 255],
        ),
        (
            array,
            linear,
            "sampler2DArray",
            "texture(t, vec3(v_uv, 2.0))",
            [0, 200, 255, 255],
        ),
        (
            integer,
            linear,
            "usampler2D",
            "vec4(texture(t, v_uv)) / 255.0",
            integer_linear,
        ),
        (
            depth,
            shadow,
            "sampler2DShadow",
            "vec4(texture(t, vec3(v_uv, 0.5)))",
            WHITE,
        ),
        (
            depth,
            shadow,
            "sampler2DShadow",
            "vec4(texture(t, vec3(v_uv, 0.9)))",
            [0; 4],
        ),
    ];
    for (texture, sampler, ty, value, want) in cases {
        let fs = format!(
            "#version 450
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 1) uniform {ty} t;
void main() {{ o = {value}; }}
"
        );
        s.program(TEXTURED_VS, &fs, 0, 1, 0);
        s.vertices(vb, &[(2, 16, 0), (2, 16, 8)]);
        s.bind_texture(Some(texture), sampler);
        s.clear([0.5, 0.5, 0.5, 0.5]);
        s.draw(Topology::Triangles, 3);
        assert_eq!(s.pixel(20, 20), want, "{ty}: {value}");
    }
    s.finish();
}

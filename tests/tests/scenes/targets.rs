//! Every texture target of GL 3.3 sampled in a shader: 1D, 1D array, 3D, 2D array, cube map
//! (each face distinct, and the face orientation of the spec's table 3.19), rectangle,
//! buffer textures and 2D multisample textures. The 2D target has its own module
//! (`textures`).
//!
//! Scenes sample with NEAREST filters at texel centres, so each probe is one texel's value.

use tessera_engine::gl::*;
use tessera_tests::differential::{check, probe};

use super::textures::{draw_quad, floats, full_screen, grid, solid, texture};

#[test]
fn texture_1d_samples_along_s() {
    let texel = |i: i32| [(i * 60 + 10) as u8, (250 - i * 60) as u8, 77, 255];
    check(
        "tex1d_nearest",
        16,
        8,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler1D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = texture(tex, uv.x); }
",
            );
            texture(gl, TEXTURE_1D);
            let data: Vec<u8> = (0..4).flat_map(texel).collect();
            gl.tex_image_1d(
                TEXTURE_1D,
                0,
                RGBA8 as GLint,
                4,
                0,
                RGBA,
                UNSIGNED_BYTE,
                Some(&data),
            );
            draw_quad(gl);
        },
        &grid(4, 2, 4, |i, _| texel(i)),
    );
}

#[test]
fn texture_1d_array_selects_a_layer() {
    let texel = |i: i32, layer: i32| [(i * 60 + 10) as u8, (layer * 200 + 20) as u8, 99, 255];
    check(
        "tex1d_array_layers",
        16,
        16,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler1DArray tex;
in vec2 uv;
out vec4 frag;
void main() { frag = texture(tex, vec2(uv.x, floor(uv.y * 2.0))); }
",
            );
            texture(gl, TEXTURE_1D_ARRAY);
            let data: Vec<u8> = (0..2)
                .flat_map(|l| (0..4).flat_map(move |i| texel(i, l)))
                .collect();
            // A 1D array's layers are the image's rows.
            gl.tex_image_2d(
                TEXTURE_1D_ARRAY,
                0,
                RGBA8 as GLint,
                4,
                2,
                0,
                RGBA,
                UNSIGNED_BYTE,
                Some(&data),
            );
            draw_quad(gl);
        },
        &grid(4, 4, 4, |i, j| texel(i, j / 2)),
    );
}

/// The texel (i, j) of slice or layer k in the layered scenes.
fn layered_texel(i: i32, j: i32, k: i32) -> [u8; 4] {
    [
        (i * 200 + 20) as u8,
        (j * 200 + 20) as u8,
        (k * 60 + 10) as u8,
        255,
    ]
}

/// A 2 x 2 x 4 image of [`layered_texel`], slice by slice.
fn layered_data() -> Vec<u8> {
    (0..4)
        .flat_map(|k| (0..2).flat_map(move |j| (0..2).flat_map(move |i| layered_texel(i, j, k))))
        .collect()
}

/// Each screen quadrant q = qx + 2 qy shows all of slice (or layer) q: 4-pixel cells.
fn layered_probes() -> Vec<tessera_tests::differential::Probe> {
    grid(4, 4, 4, |c, r| {
        layered_texel(c % 2, r % 2, c / 2 + 2 * (r / 2))
    })
}

#[test]
fn texture_3d_samples_slices() {
    check(
        "tex3d_slices",
        16,
        16,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler3D tex;
in vec2 uv;
out vec4 frag;
void main() {
    vec2 q = floor(uv * 2.0);
    frag = texture(tex, vec3(fract(uv * 2.0), (q.x + 2.0 * q.y + 0.5) / 4.0));
}
",
            );
            texture(gl, TEXTURE_3D);
            gl.tex_image_3d(
                TEXTURE_3D,
                0,
                RGBA8 as GLint,
                2,
                2,
                4,
                0,
                RGBA,
                UNSIGNED_BYTE,
                Some(&layered_data()),
            );
            draw_quad(gl);
        },
        &layered_probes(),
    );
}

#[test]
fn texture_3d_filters_linearly_between_slices() {
    // Two 1 x 1 slices, 0 and 160, r running across the screen: pixel x weighs slice 1 by
    // (x + 0.5) / 8 - 0.5 (clamped by CLAMP_TO_EDGE on R).
    check(
        "tex3d_linear_r",
        16,
        4,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler3D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = texture(tex, vec3(0.5, 0.5, uv.x)); }
",
            );
            texture(gl, TEXTURE_3D);
            gl.tex_parameteri(TEXTURE_3D, TEXTURE_MAG_FILTER, LINEAR as GLint);
            gl.tex_parameteri(TEXTURE_3D, TEXTURE_WRAP_R, CLAMP_TO_EDGE as GLint);
            gl.tex_image_3d(
                TEXTURE_3D,
                0,
                RGBA8 as GLint,
                1,
                1,
                2,
                0,
                RGBA,
                UNSIGNED_BYTE,
                Some(&[0, 0, 0, 255, 160, 80, 16, 255]),
            );
            draw_quad(gl);
        },
        &[
            probe(0, 2, [0, 0, 0, 255]),
            probe(7, 2, [70, 35, 7, 255]),
            probe(8, 2, [90, 45, 9, 255]),
            probe(15, 2, [160, 80, 16, 255]),
        ],
    );
}

#[test]
fn texture_2d_array_selects_layers() {
    check(
        "tex2d_array_layers",
        16,
        16,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler2DArray tex;
in vec2 uv;
out vec4 frag;
void main() {
    vec2 q = floor(uv * 2.0);
    frag = texture(tex, vec3(fract(uv * 2.0), q.x + 2.0 * q.y));
}
",
            );
            texture(gl, TEXTURE_2D_ARRAY);
            gl.tex_image_3d(
                TEXTURE_2D_ARRAY,
                0,
                RGBA8 as GLint,
                2,
                2,
                4,
                0,
                RGBA,
                UNSIGNED_BYTE,
                Some(&layered_data()),
            );
            draw_quad(gl);
        },
        &layered_probes(),
    );
}

/// The six faces in GL order (+X, -X, +Y, -Y, +Z, -Z).
const FACES: [GLenum; 6] = [
    TEXTURE_CUBE_MAP_POSITIVE_X,
    TEXTURE_CUBE_MAP_NEGATIVE_X,
    TEXTURE_CUBE_MAP_POSITIVE_Y,
    TEXTURE_CUBE_MAP_NEGATIVE_Y,
    TEXTURE_CUBE_MAP_POSITIVE_Z,
    TEXTURE_CUBE_MAP_NEGATIVE_Z,
];

#[test]
fn cube_map_faces_are_distinct() {
    let colour = |f: i32| {
        [
            (f * 40 + 20) as u8,
            (230 - f * 40) as u8,
            if f % 2 == 0 { 200 } else { 50 },
            255,
        ]
    };
    check(
        "cube_map_faces",
        24,
        8,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform samplerCube tex;
in vec2 uv;
out vec4 frag;
const vec3 dirs[6] = vec3[6](vec3(1.0, 0.1, 0.2), vec3(-1.0, 0.2, -0.1), vec3(0.1, 1.0, 0.2),
                             vec3(-0.2, -1.0, 0.1), vec3(0.2, -0.1, 1.0), vec3(-0.1, 0.2, -1.0));
void main() { frag = texture(tex, dirs[int(uv.x * 6.0)]); }
",
            );
            texture(gl, TEXTURE_CUBE_MAP);
            for (f, face) in FACES.iter().enumerate() {
                gl.tex_image_2d(
                    *face,
                    0,
                    RGBA8 as GLint,
                    1,
                    1,
                    0,
                    RGBA,
                    UNSIGNED_BYTE,
                    Some(&colour(f as i32)),
                );
            }
            draw_quad(gl);
        },
        &grid(6, 2, 4, |f, _| colour(f)),
    );
}

#[test]
fn cube_map_faces_follow_the_spec_orientation() {
    // Each face is 2 x 2; for the sample at (sc, tc) = (+-0.5, +-0.5) the shader builds the
    // direction from table 3.19 of the GL 3.3 spec, so face f shows its texels in order:
    // 2-texel-wide bands per face, 4-pixel cells.
    let texel = |f: i32, i: i32, j: i32| {
        [
            (f * 40 + 20) as u8,
            (i * 200 + 30) as u8,
            (j * 200 + 30) as u8,
            255,
        ]
    };
    check(
        "cube_map_orientation",
        48,
        8,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform samplerCube tex;
in vec2 uv;
out vec4 frag;
void main() {
    int f = int(uv.x * 6.0);
    vec2 c = floor(fract(uv * vec2(6.0, 1.0)) * 2.0) - 0.5;
    float sc = c.x, tc = c.y;
    vec3 d;
    if (f == 0) d = vec3(1.0, -tc, -sc);
    else if (f == 1) d = vec3(-1.0, -tc, sc);
    else if (f == 2) d = vec3(sc, 1.0, tc);
    else if (f == 3) d = vec3(sc, -1.0, -tc);
    else if (f == 4) d = vec3(sc, -tc, 1.0);
    else d = vec3(-sc, -tc, -1.0);
    frag = texture(tex, d);
}
",
            );
            texture(gl, TEXTURE_CUBE_MAP);
            for (f, face) in FACES.iter().enumerate() {
                let data: Vec<u8> = (0..2)
                    .flat_map(|j| (0..2).flat_map(move |i| texel(f as i32, i, j)))
                    .collect();
                gl.tex_image_2d(
                    *face,
                    0,
                    RGBA8 as GLint,
                    2,
                    2,
                    0,
                    RGBA,
                    UNSIGNED_BYTE,
                    Some(&data),
                );
            }
            draw_quad(gl);
        },
        &grid(12, 2, 4, |c, r| texel(c / 2, c % 2, r)),
    );
}

#[test]
fn rectangle_texture_takes_texel_coordinates() {
    let texel = |i: i32, j: i32| [(i * 60 + 10) as u8, (j * 60 + 10) as u8, 128, 255];
    check(
        "tex_rectangle",
        16,
        16,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler2DRect tex;
in vec2 uv;
out vec4 frag;
void main() { frag = texture(tex, uv * vec2(4.0, 2.0)); }
",
            );
            texture(gl, TEXTURE_RECTANGLE);
            let data: Vec<u8> = (0..2)
                .flat_map(|j| (0..4).flat_map(move |i| texel(i, j)))
                .collect();
            gl.tex_image_2d(
                TEXTURE_RECTANGLE,
                0,
                RGBA8 as GLint,
                4,
                2,
                0,
                RGBA,
                UNSIGNED_BYTE,
                Some(&data),
            );
            draw_quad(gl);
        },
        &grid(4, 2, 4, texel)
            .into_iter()
            .map(|p| probe(p.x, p.y * 2, p.rgba))
            .collect::<Vec<_>>(),
    );
}

#[test]
fn buffer_texture_fetches_rgba8_texels() {
    let texel = |i: i32| [(i * 30 + 5) as u8, (200 - i * 20) as u8, (i * 7) as u8, 255];
    check(
        "tex_buffer_rgba8",
        16,
        4,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform samplerBuffer tex;
in vec2 uv;
out vec4 frag;
void main() { frag = texelFetch(tex, int(uv.x * 8.0)); }
",
            );
            let b = gl.gen_buffer();
            gl.bind_buffer(TEXTURE_BUFFER, b);
            let data: Vec<u8> = (0..8).flat_map(texel).collect();
            gl.buffer_data(TEXTURE_BUFFER, data.len(), Some(&data), STATIC_DRAW);
            let t = gl.gen_texture();
            gl.bind_texture(TEXTURE_BUFFER, t);
            gl.tex_buffer(TEXTURE_BUFFER, RGBA8, b);
            draw_quad(gl);
        },
        &(0..8)
            .map(|i| probe(i * 2 + 1, 2, texel(i)))
            .collect::<Vec<_>>(),
    );
}

#[test]
fn buffer_texture_fetches_r32ui_values() {
    // Values beyond 8 bits, spelled out as bytes by the shader; the buffer is updated after
    // the texture is attached, which the texture must see.
    check(
        "tex_buffer_r32ui",
        16,
        4,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform usamplerBuffer tex;
in vec2 uv;
out vec4 frag;
void main() {
    uint v = texelFetch(tex, int(uv.x * 4.0)).r;
    frag = vec4(float(v & 255u), float((v >> 8) & 255u), float((v >> 16) & 255u), float(v >> 24)) / 255.0;
}
",
            );
            let b = gl.gen_buffer();
            gl.bind_buffer(TEXTURE_BUFFER, b);
            gl.buffer_data(TEXTURE_BUFFER, 16, None, DYNAMIC_DRAW);
            let t = gl.gen_texture();
            gl.bind_texture(TEXTURE_BUFFER, t);
            gl.tex_buffer(TEXTURE_BUFFER, R32UI, b);
            let values: [u32; 4] = [0x0102_0304, 0xFFEE_DDCC, 255, 0x8000_0001];
            let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
            gl.buffer_sub_data(TEXTURE_BUFFER, 0, &bytes);
            draw_quad(gl);
        },
        &[
            probe(2, 2, [4, 3, 2, 1]),
            probe(6, 2, [0xCC, 0xDD, 0xEE, 0xFF]),
            probe(10, 2, [255, 0, 0, 0]),
            probe(14, 2, [1, 0, 0, 0x80]),
        ],
    );
}

#[test]
fn buffer_texture_follows_a_respecified_buffer() {
    // glTexBuffer names the whole buffer, whatever its size: a later glBufferData that
    // re-specifies the store (larger, new contents) is what the texture reads.
    let texel = |i: i32| [(i * 30 + 5) as u8, (200 - i * 20) as u8, (i * 7) as u8, 255];
    check(
        "tex_buffer_respecified",
        16,
        4,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform samplerBuffer tex;
in vec2 uv;
out vec4 frag;
void main() { frag = texelFetch(tex, int(uv.x * 8.0)); }
",
            );
            let b = gl.gen_buffer();
            gl.bind_buffer(TEXTURE_BUFFER, b);
            gl.buffer_data(TEXTURE_BUFFER, 4, Some(&[255, 255, 255, 255]), STATIC_DRAW);
            let t = gl.gen_texture();
            gl.bind_texture(TEXTURE_BUFFER, t);
            gl.tex_buffer(TEXTURE_BUFFER, RGBA8, b);
            draw_quad(gl);
            let data: Vec<u8> = (0..8).flat_map(texel).collect();
            gl.buffer_data(TEXTURE_BUFFER, data.len(), Some(&data), STREAM_DRAW);
            draw_quad(gl);
        },
        &(0..8)
            .map(|i| probe(i * 2 + 1, 2, texel(i)))
            .collect::<Vec<_>>(),
    );
}

#[test]
fn multisample_texture_fetches_single_samples() {
    // A 4-sample texture cleared red, then its right half drawn green (whole pixels, so every
    // sample); each quarter of the screen's height fetches one sample index.
    check(
        "tex2d_multisample_fetch",
        16,
        16,
        |gl| {
            let t = gl.gen_texture();
            gl.bind_texture(TEXTURE_2D_MULTISAMPLE, t);
            gl.tex_image_2d_multisample(
                TEXTURE_2D_MULTISAMPLE,
                4,
                RGBA8 as GLint,
                16,
                16,
                TRUE as GLboolean,
            );
            let fb = gl.gen_framebuffer();
            gl.bind_framebuffer(FRAMEBUFFER, fb);
            gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D_MULTISAMPLE, t, 0);
            assert_eq!(
                gl.check_framebuffer_status(FRAMEBUFFER),
                FRAMEBUFFER_COMPLETE
            );
            gl.clear_color(1.0, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let green = super::textures::program(
                gl,
                super::textures::VS,
                "#version 330 core
out vec4 frag;
void main() { frag = vec4(0.0, 1.0, 0.0, 1.0); }
",
            );
            gl.use_program(green);
            super::textures::quad(gl);
            gl.enable(SCISSOR_TEST);
            gl.scissor(8, 0, 8, 16);
            draw_quad(gl);
            gl.disable(SCISSOR_TEST);
            gl.bind_framebuffer(FRAMEBUFFER, 0);
            full_screen(
                gl,
                "#version 330 core
uniform sampler2DMS tex;
out vec4 frag;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    frag = texelFetch(tex, p, p.y / 4) * vec4(1.0, 1.0, 1.0, 0.5) + vec4(0.0, 0.0, float(p.y / 4) / 4.0, 0.0);
}
",
            );
            draw_quad(gl);
        },
        &[
            probe(3, 2, [255, 0, 0, 128]),
            probe(12, 2, [0, 255, 0, 128]),
            probe(3, 6, [255, 0, 64, 128]),
            probe(12, 10, [0, 255, 128, 128]),
            probe(12, 14, [0, 255, 191, 128]),
        ],
    );
}

#[test]
fn two_sample_texture_written_one_sample_at_a_time() {
    // A 2-sample texture cleared blue, then drawn red with only sample 0 in the sample mask
    // and green with only sample 1 (piglit's texelFetch fills its textures so); the left
    // half fetches sample 0, the right half sample 1. A device without 2 samples must give
    // the texture more, never fewer: a single-sampled image keeps only the last draw.
    check(
        "tex2d_multisample_sample_mask",
        16,
        8,
        |gl| {
            let t = gl.gen_texture();
            gl.bind_texture(TEXTURE_2D_MULTISAMPLE, t);
            gl.tex_image_2d_multisample(
                TEXTURE_2D_MULTISAMPLE,
                2,
                RGBA8 as GLint,
                16,
                8,
                TRUE as GLboolean,
            );
            let fb = gl.gen_framebuffer();
            gl.bind_framebuffer(FRAMEBUFFER, fb);
            gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D_MULTISAMPLE, t, 0);
            assert_eq!(
                gl.check_framebuffer_status(FRAMEBUFFER),
                FRAMEBUFFER_COMPLETE
            );
            gl.clear_color(0.0, 0.0, 1.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let paint = super::textures::program(
                gl,
                super::textures::VS,
                "#version 330 core
uniform vec4 color;
out vec4 frag;
void main() { frag = color; }
",
            );
            gl.use_program(paint);
            super::textures::quad(gl);
            let color = gl.get_uniform_location(paint, "color");
            gl.enable(SAMPLE_MASK);
            gl.sample_maski(0, 1);
            gl.uniform4f(color, 1.0, 0.0, 0.0, 1.0);
            draw_quad(gl);
            gl.sample_maski(0, 2);
            gl.uniform4f(color, 0.0, 1.0, 0.0, 1.0);
            draw_quad(gl);
            gl.disable(SAMPLE_MASK);
            gl.bind_framebuffer(FRAMEBUFFER, 0);
            full_screen(
                gl,
                "#version 330 core
uniform sampler2DMS tex;
out vec4 frag;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    frag = texelFetch(tex, p, p.x / 8);
}
",
            );
            draw_quad(gl);
        },
        &[
            probe(2, 2, [255, 0, 0, 255]),
            probe(7, 6, [255, 0, 0, 255]),
            probe(8, 1, [0, 255, 0, 255]),
            probe(13, 5, [0, 255, 0, 255]),
        ],
    );
}

#[test]
fn float_3d_texture_keeps_values() {
    // An RGBA32F 3D texture: values above 1 survive (halved by the shader).
    check(
        "tex3d_rgba32f",
        8,
        8,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler3D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = texture(tex, vec3(uv, uv.x)) * 0.5; }
",
            );
            texture(gl, TEXTURE_3D);
            let data = floats(&[2.0, 0.5, 0.0, 2.0, 0.0, 1.0, 1.5, 2.0]);
            gl.tex_image_3d(
                TEXTURE_3D,
                0,
                RGBA32F as GLint,
                1,
                1,
                2,
                0,
                RGBA,
                FLOAT,
                Some(&data),
            );
            draw_quad(gl);
        },
        &[
            probe(1, 4, [255, 64, 0, 255]),
            probe(6, 4, [0, 128, 191, 255]),
        ],
    );
}

#[test]
fn cube_map_with_solid_faces_of_several_texels() {
    check(
        "cube_map_4x4_faces",
        24,
        8,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform samplerCube tex;
in vec2 uv;
out vec4 frag;
const vec3 dirs[6] = vec3[6](vec3(1.0, 0.3, 0.2), vec3(-1.0, 0.2, -0.3), vec3(0.3, 1.0, 0.2),
                             vec3(-0.2, -1.0, 0.3), vec3(0.2, -0.3, 1.0), vec3(-0.3, 0.2, -1.0));
void main() { frag = texture(tex, dirs[int(uv.x * 6.0)]); }
",
            );
            texture(gl, TEXTURE_CUBE_MAP);
            gl.tex_parameteri(TEXTURE_CUBE_MAP, TEXTURE_MAG_FILTER, LINEAR as GLint);
            for (f, face) in FACES.iter().enumerate() {
                let c = [(f * 45) as u8, 255 - (f * 45) as u8, 128, 255];
                gl.tex_image_2d(
                    *face,
                    0,
                    RGBA8 as GLint,
                    4,
                    4,
                    0,
                    RGBA,
                    UNSIGNED_BYTE,
                    Some(&solid(c, 16)),
                );
            }
            draw_quad(gl);
        },
        &grid(6, 2, 4, |f, _| {
            [(f * 45) as u8, 255 - (f * 45) as u8, 128, 255]
        }),
    );
}

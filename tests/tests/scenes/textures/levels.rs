//! Mip levels: the four mipmap minification filters, NEAREST and LINEAR ignoring levels,
//! generated and explicit levels, the LOD clamps (MIN_LOD, MAX_LOD, BASE_LEVEL, MAX_LEVEL,
//! LOD_BIAS), and the lookup functions that choose levels or texels (bias, texelFetch,
//! textureSize, textureOffset, textureGrad, textureProj).

use tessera_engine::gl::*;
use tessera_tests::differential::{check, probe};
use tessera_tests::gl::Gl;

use super::*;

// ---------------------------------------------------------------------------------------
// Mipmap filters

/// An 8 x 8 texture whose levels make the mip filter visible: level 0 white, level 1 (4 x 4)
/// columns alternating (160, 0, 0) and (0, 0, 160), level 2 (2 x 2) green 160, level 3 black.
fn striped_mips(gl: &mut dyn Gl) {
    texture(gl, TEXTURE_2D);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        8,
        8,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&solid([255; 4], 64)),
    );
    let stripes: Vec<[u8; 4]> = (0..16)
        .map(|i| {
            if i % 2 == 0 {
                [160, 0, 0, 255]
            } else {
                [0, 0, 160, 255]
            }
        })
        .collect();
    gl.tex_image_2d(
        TEXTURE_2D,
        1,
        RGBA8 as GLint,
        4,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&stripes.concat()),
    );
    gl.tex_image_2d(
        TEXTURE_2D,
        2,
        RGBA8 as GLint,
        2,
        2,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&solid([0, 160, 0, 255], 4)),
    );
    gl.tex_image_2d(
        TEXTURE_2D,
        3,
        RGBA8 as GLint,
        1,
        1,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&solid([0, 0, 0, 255], 1)),
    );
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_WRAP_S, CLAMP_TO_EDGE as GLint);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_WRAP_T, CLAMP_TO_EDGE as GLint);
}

/// Samples at an explicit level of detail (`uniform float lod`).
const FS_LOD: &str = "#version 330 core
uniform sampler2D tex;
uniform float lod;
in vec2 uv;
out vec4 frag;
void main() { frag = textureLod(tex, uv, lod); }
";

/// Draws [`striped_mips`] at LOD 1.25 with `min_filter`: level 1 (weight 3/4 when blending
/// with level 2), where pixel x = 2 sits 1/8 of a texel right of column 0's centre, x = 6
/// 1/8 right of column 1's, and x = 0 clamps to column 0.
fn min_filter_scene(name: &str, min_filter: GLenum, at0: [u8; 4], at2: [u8; 4], at6: [u8; 4]) {
    check(
        name,
        16,
        16,
        |gl| {
            let p = full_screen(gl, FS_LOD);
            striped_mips(gl);
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, min_filter as GLint);
            let lod = gl.get_uniform_location(p, "lod");
            gl.uniform1f(lod, 1.25);
            draw_quad(gl);
        },
        &[probe(0, 3, at0), probe(2, 5, at2), probe(6, 9, at6)],
    );
}

#[test]
fn nearest_mipmap_nearest_takes_one_texel_of_one_level() {
    min_filter_scene(
        "tex2d_min_nearest_mipmap_nearest",
        NEAREST_MIPMAP_NEAREST,
        [160, 0, 0, 255],
        [160, 0, 0, 255],
        [0, 0, 160, 255],
    );
}

#[test]
fn linear_mipmap_nearest_filters_within_one_level() {
    min_filter_scene(
        "tex2d_min_linear_mipmap_nearest",
        LINEAR_MIPMAP_NEAREST,
        [160, 0, 0, 255],
        [140, 0, 20, 255],
        [20, 0, 140, 255],
    );
}

#[test]
fn nearest_mipmap_linear_blends_two_levels() {
    min_filter_scene(
        "tex2d_min_nearest_mipmap_linear",
        NEAREST_MIPMAP_LINEAR,
        [120, 40, 0, 255],
        [120, 40, 0, 255],
        [0, 40, 120, 255],
    );
}

#[test]
fn linear_mipmap_linear_is_trilinear() {
    min_filter_scene(
        "tex2d_min_linear_mipmap_linear",
        LINEAR_MIPMAP_LINEAR,
        [120, 40, 0, 255],
        [105, 40, 15, 255],
        [15, 40, 105, 255],
    );
}

#[test]
fn min_filter_nearest_and_linear_ignore_mip_levels() {
    // Minified (LOD 1.25) but with a non-mipmap min filter: level 0 only (white).
    for (name, filter) in [("tex2d_min_nearest", NEAREST), ("tex2d_min_linear", LINEAR)] {
        check(
            name,
            16,
            16,
            |gl| {
                let p = full_screen(gl, FS_LOD);
                striped_mips(gl);
                gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, filter as GLint);
                let lod = gl.get_uniform_location(p, "lod");
                gl.uniform1f(lod, 1.25);
                draw_quad(gl);
            },
            &[probe(2, 5, [255; 4]), probe(13, 13, [255; 4])],
        );
    }
}

// ---------------------------------------------------------------------------------------
// Mip levels

#[test]
fn generate_mipmap_averages_blocks() {
    // 4 x 4 of uniform 2 x 2 blocks: level 1 is the blocks, level 2 their average.
    let block = |i: i32, j: i32| match (i / 2, j / 2) {
        (0, 0) => [200, 0, 0, 255],
        (1, 0) => [0, 200, 0, 255],
        (0, 1) => [0, 0, 200, 255],
        _ => [200, 200, 200, 255],
    };
    let texels: Vec<[u8; 4]> = (0..4)
        .flat_map(|j| (0..4).map(move |i| block(i, j)))
        .collect();
    check(
        "tex2d_generate_mipmap",
        16,
        16,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler2D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = textureLod(tex, uv, uv.x < 0.5 ? 1.0 : 2.0); }
",
            );
            rgba_texture(gl, 4, 4, &texels);
            gl.tex_parameteri(
                TEXTURE_2D,
                TEXTURE_MIN_FILTER,
                NEAREST_MIPMAP_NEAREST as GLint,
            );
            gl.generate_mipmap(TEXTURE_2D);
            draw_quad(gl);
        },
        &[
            probe(2, 2, [200, 0, 0, 255]),
            probe(2, 13, [0, 0, 200, 255]),
            probe(12, 4, [100, 100, 100, 255]),
        ],
    );
}

/// The colour of level `k` of [`level_texture`].
pub(super) fn level_colour(k: i32) -> [u8; 4] {
    [(k * 40) as u8, (255 - k * 40) as u8, (k * 20) as u8, 255]
}

/// A 64 x 64 RGBA8 texture with all 7 levels defined explicitly, level k solid
/// [`level_colour`]`(k)`, NEAREST_MIPMAP_NEAREST. Drawn full-screen on 16 x 16 its LOD is 2.
fn level_texture(gl: &mut dyn Gl) {
    texture(gl, TEXTURE_2D);
    for k in 0..7 {
        let size = 64 >> k;
        let data = solid(level_colour(k), (size * size) as usize);
        gl.tex_image_2d(
            TEXTURE_2D,
            k,
            RGBA8 as GLint,
            size,
            size,
            0,
            RGBA,
            UNSIGNED_BYTE,
            Some(&data),
        );
    }
    gl.tex_parameteri(
        TEXTURE_2D,
        TEXTURE_MIN_FILTER,
        NEAREST_MIPMAP_NEAREST as GLint,
    );
}

#[test]
fn derivatives_select_explicit_mip_levels() {
    // Full screen: 64 texels over 16 pixels, LOD 2. A half-size quad in the lower left: LOD 3.
    check(
        "tex2d_explicit_levels_by_derivatives",
        16,
        16,
        |gl| {
            let p = program(gl, VS_XF, FS_SAMPLE);
            gl.use_program(p);
            quad(gl);
            level_texture(gl);
            let xf = gl.get_uniform_location(p, "xf");
            gl.uniform4f(xf, 1.0, 1.0, 0.0, 0.0);
            draw_quad(gl);
            gl.uniform4f(xf, 0.5, 0.5, -0.5, -0.5);
            draw_quad(gl);
        },
        &[
            probe(12, 12, level_colour(2)),
            probe(4, 4, level_colour(3)),
            probe(12, 3, level_colour(2)),
        ],
    );
}

/// Draws [`level_texture`] full-screen (LOD 2) after `setup`; expects level `level`.
fn lod_scene(name: &str, setup: impl Fn(&mut dyn Gl), level: i32) {
    check(
        name,
        16,
        16,
        |gl| {
            full_screen(gl, FS_SAMPLE);
            level_texture(gl);
            setup(gl);
            draw_quad(gl);
        },
        &[
            probe(3, 3, level_colour(level)),
            probe(12, 9, level_colour(level)),
        ],
    );
}

#[test]
fn min_lod_raises_the_level() {
    lod_scene(
        "tex2d_min_lod",
        |gl| gl.tex_parameterf(TEXTURE_2D, TEXTURE_MIN_LOD, 3.0),
        3,
    );
}

#[test]
fn max_lod_lowers_the_level() {
    lod_scene(
        "tex2d_max_lod",
        |gl| gl.tex_parameterf(TEXTURE_2D, TEXTURE_MAX_LOD, 1.0),
        1,
    );
}

#[test]
fn base_level_rescales_the_lod() {
    // Base level 3 (8 x 8 over 16 pixels) magnifies: level 3.
    lod_scene(
        "tex2d_base_level",
        |gl| gl.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, 3),
        3,
    );
}

#[test]
fn max_level_caps_the_level() {
    lod_scene(
        "tex2d_max_level",
        |gl| gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_LEVEL, 1),
        1,
    );
}

#[test]
fn lod_bias_adds_to_the_level() {
    lod_scene(
        "tex2d_lod_bias",
        |gl| gl.tex_parameterf(TEXTURE_2D, TEXTURE_LOD_BIAS, 1.0),
        3,
    );
}

// ---------------------------------------------------------------------------------------
// Lookup functions

#[test]
fn shader_bias_selects_a_coarser_level() {
    // texture(tex, uv, 1.0): LOD 2 + 1.
    check(
        "tex2d_shader_bias",
        16,
        16,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler2D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = texture(tex, uv, 1.0); }
",
            );
            level_texture(gl);
            draw_quad(gl);
        },
        &[probe(3, 3, level_colour(3)), probe(12, 12, level_colour(3))],
    );
}

#[test]
fn texel_fetch_and_texture_size_address_levels() {
    // Left half: texelFetch from level 1; right half: textureSize of level 2 (16 x 16) as
    // a colour.
    check(
        "tex2d_texel_fetch_and_size",
        16,
        16,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler2D tex;
in vec2 uv;
out vec4 frag;
void main() {
    frag = uv.x < 0.5 ? texelFetch(tex, ivec2(uv * 32.0), 1) : vec4(vec2(textureSize(tex, 2)), 0.0, 255.0) / 255.0;
}
",
            );
            level_texture(gl);
            draw_quad(gl);
        },
        &[
            probe(3, 3, level_colour(1)),
            probe(12, 12, [16, 16, 0, 255]),
        ],
    );
}

#[test]
fn texture_offset_shifts_by_whole_texels() {
    let texel = |i: i32, j: i32| [(i * 64) as u8, (j * 64) as u8, 99, 255];
    let texels: Vec<[u8; 4]> = (0..4)
        .flat_map(|j| (0..4).map(move |i| texel(i, j)))
        .collect();
    check(
        "tex2d_texture_offset",
        16,
        16,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler2D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = textureOffset(tex, uv, ivec2(1, -1)); }
",
            );
            rgba_texture(gl, 4, 4, &texels);
            draw_quad(gl);
        },
        &grid(4, 4, 4, |i, j| texel((i + 1) % 4, (j + 3) % 4)),
    );
}

#[test]
fn texture_grad_selects_the_level_of_its_derivatives() {
    // Derivatives of 8/64 per pixel: 8 texels of level 0, LOD 3.
    check(
        "tex2d_texture_grad",
        16,
        16,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler2D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = textureGrad(tex, uv, vec2(0.125, 0.0), vec2(0.0, 0.125)); }
",
            );
            level_texture(gl);
            draw_quad(gl);
        },
        &[probe(3, 3, level_colour(3)), probe(12, 12, level_colour(3))],
    );
}

#[test]
fn texture_proj_divides_by_q() {
    let texel = |i: i32, j: i32| [(i * 64) as u8, (j * 64) as u8, 33, 255];
    let texels: Vec<[u8; 4]> = (0..4)
        .flat_map(|j| (0..4).map(move |i| texel(i, j)))
        .collect();
    check(
        "tex2d_texture_proj",
        16,
        16,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler2D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = textureProj(tex, vec3(uv * 4.0, 4.0)); }
",
            );
            rgba_texture(gl, 4, 4, &texels);
            draw_quad(gl);
        },
        &grid(4, 4, 4, texel),
    );
}

//! 2D sampling state: magnification filters, wrap modes (with a border colour), swizzle,
//! sampler objects overriding the texture's parameters, several texture units at once, and
//! incomplete or missing textures sampling as (0, 0, 0, 1).

use tessera_engine::gl::*;
use tessera_tests::differential::{check, probe};

use super::*;

// ---------------------------------------------------------------------------------------
// Filters

#[test]
fn nearest_magnification_shows_each_texel() {
    let texel = |i: i32, j: i32| {
        [
            (i * 64) as u8,
            (j * 64) as u8,
            (255 - (i + j) * 16) as u8,
            255,
        ]
    };
    let texels: Vec<[u8; 4]> = (0..4)
        .flat_map(|j| (0..4).map(move |i| texel(i, j)))
        .collect();
    check(
        "tex2d_nearest_magnification",
        16,
        16,
        |gl| {
            full_screen(gl, FS_SAMPLE);
            rgba_texture(gl, 4, 4, &texels);
            draw_quad(gl);
        },
        &grid(4, 4, 4, texel),
    );
}

#[test]
fn linear_magnification_blends_neighbours() {
    // Texel coordinate at pixel x: (x + 0.5) / 8 - 0.5, so x = 7 and 8 weigh the second
    // texel 7/16 and 9/16; edges clamp.
    check(
        "tex2d_linear_magnification",
        16,
        16,
        |gl| {
            full_screen(gl, FS_SAMPLE);
            rgba_texture(
                gl,
                2,
                2,
                &[
                    [0, 0, 0, 255],
                    [160, 0, 0, 255],
                    [0, 160, 0, 255],
                    [0, 0, 160, 255],
                ],
            );
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, LINEAR as GLint);
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_WRAP_S, CLAMP_TO_EDGE as GLint);
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_WRAP_T, CLAMP_TO_EDGE as GLint);
            draw_quad(gl);
        },
        &[
            probe(0, 0, [0, 0, 0, 255]),
            probe(7, 0, [70, 0, 0, 255]),
            probe(8, 0, [90, 0, 0, 255]),
            probe(15, 0, [160, 0, 0, 255]),
            probe(0, 8, [0, 90, 0, 255]),
            probe(15, 15, [0, 0, 160, 255]),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// Wrap modes

/// A 2 x 2 texture: bottom row (200, 0, 0), (0, 200, 0); top row (0, 0, 200), (200, 200, 0).
const WRAP_TEXELS: [[u8; 4]; 4] = [
    [200, 0, 0, 255],
    [0, 200, 0, 255],
    [0, 0, 200, 255],
    [200, 200, 0, 255],
];

/// Draws the 2 x 2 [`WRAP_TEXELS`] over uv -1..2 on 24 x 24 with `wrap` on S and T: each
/// 4-pixel block is one texel coordinate from -2 to 3. `cols[b]` is the texel (or `None`:
/// border) that block `b` maps to on either axis.
fn wrap_scene(name: &str, wrap: GLenum, cols: [Option<usize>; 6]) {
    let border = [255, 0, 255, 255];
    let at = |c: i32, r: i32| match (cols[c as usize], cols[r as usize]) {
        (Some(i), Some(j)) => WRAP_TEXELS[j * 2 + i],
        _ => border,
    };
    check(
        name,
        24,
        24,
        |gl| {
            let p = program(gl, VS_WIDE, FS_SAMPLE);
            gl.use_program(p);
            quad(gl);
            rgba_texture(gl, 2, 2, &WRAP_TEXELS);
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_WRAP_S, wrap as GLint);
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_WRAP_T, wrap as GLint);
            gl.tex_parameterfv(TEXTURE_2D, TEXTURE_BORDER_COLOR, &[1.0, 0.0, 1.0, 1.0]);
            draw_quad(gl);
        },
        &grid(6, 6, 4, at),
    );
}

#[test]
fn wrap_repeat() {
    wrap_scene(
        "tex2d_wrap_repeat",
        REPEAT,
        [Some(0), Some(1), Some(0), Some(1), Some(0), Some(1)],
    );
}

#[test]
fn wrap_clamp_to_edge() {
    wrap_scene(
        "tex2d_wrap_clamp_to_edge",
        CLAMP_TO_EDGE,
        [Some(0), Some(0), Some(0), Some(1), Some(1), Some(1)],
    );
}

#[test]
fn wrap_clamp_to_border_uses_the_border_colour() {
    wrap_scene(
        "tex2d_wrap_clamp_to_border",
        CLAMP_TO_BORDER,
        [None, None, Some(0), Some(1), None, None],
    );
}

#[test]
fn wrap_mirrored_repeat() {
    wrap_scene(
        "tex2d_wrap_mirrored_repeat",
        MIRRORED_REPEAT,
        [Some(1), Some(0), Some(0), Some(1), Some(1), Some(0)],
    );
}

// ---------------------------------------------------------------------------------------
// Swizzle

#[test]
fn swizzle_reorders_and_substitutes_components() {
    check(
        "tex2d_swizzle_rgba",
        16,
        16,
        |gl| {
            full_screen(gl, FS_SAMPLE);
            rgba_texture(gl, 1, 1, &[[10, 20, 30, 40]]);
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_SWIZZLE_R, BLUE as GLint);
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_SWIZZLE_G, ZERO as GLint);
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_SWIZZLE_B, ONE as GLint);
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_SWIZZLE_A, RED as GLint);
            draw_quad(gl);
        },
        &[probe(8, 8, [30, 0, 255, 10])],
    );
}

#[test]
fn swizzle_spreads_a_red_texture_to_grey() {
    check(
        "tex2d_swizzle_r8_luminance",
        16,
        16,
        |gl| {
            full_screen(gl, FS_SAMPLE);
            texture(gl, TEXTURE_2D);
            gl.pixel_storei(UNPACK_ALIGNMENT, 1);
            gl.tex_image_2d(
                TEXTURE_2D,
                0,
                R8 as GLint,
                2,
                1,
                0,
                RED,
                UNSIGNED_BYTE,
                Some(&[77, 200]),
            );
            gl.pixel_storei(UNPACK_ALIGNMENT, 4);
            for pname in [TEXTURE_SWIZZLE_G, TEXTURE_SWIZZLE_B] {
                gl.tex_parameteri(TEXTURE_2D, pname, RED as GLint);
            }
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_SWIZZLE_A, ONE as GLint);
            draw_quad(gl);
        },
        &[
            probe(3, 8, [77, 77, 77, 255]),
            probe(12, 8, [200, 200, 200, 255]),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// Sampler objects, units, completeness

#[test]
fn sampler_object_overrides_texture_parameters() {
    // The texture says NEAREST + REPEAT; the sampler on unit 0 says LINEAR + CLAMP_TO_BORDER
    // (border blue). Left half drawn with the sampler, right half after unbinding it.
    check(
        "tex2d_sampler_object_override",
        32,
        16,
        |gl| {
            let p = program(gl, VS_XF, FS_SAMPLE);
            gl.use_program(p);
            quad(gl);
            rgba_texture(gl, 2, 1, &[[0, 0, 0, 255], [160, 0, 0, 255]]);
            let s = gl.gen_sampler();
            gl.sampler_parameteri(s, TEXTURE_MIN_FILTER, LINEAR as GLint);
            gl.sampler_parameteri(s, TEXTURE_MAG_FILTER, LINEAR as GLint);
            gl.sampler_parameteri(s, TEXTURE_WRAP_S, CLAMP_TO_BORDER as GLint);
            gl.sampler_parameteri(s, TEXTURE_WRAP_T, CLAMP_TO_EDGE as GLint);
            gl.sampler_parameterfv(s, TEXTURE_BORDER_COLOR, &[0.0, 0.0, 1.0, 1.0]);
            gl.bind_sampler(0, s);
            let xf = gl.get_uniform_location(p, "xf");
            gl.uniform4f(xf, 0.5, 1.0, -0.5, 0.0);
            draw_quad(gl);
            gl.bind_sampler(0, 0);
            gl.uniform4f(xf, 0.5, 1.0, 0.5, 0.0);
            draw_quad(gl);
        },
        &[
            // Left half (16 pixels over 2 texels): x = 7, 8 weigh texel 1 by 7/16 and 9/16
            // (x = 0 mixes in the border, compared with the whole image).
            probe(7, 8, [70, 0, 0, 255]),
            probe(8, 8, [90, 0, 0, 255]),
            probe(20, 8, [0, 0, 0, 255]),
            probe(28, 8, [160, 0, 0, 255]),
        ],
    );
}

#[test]
fn several_units_sample_at_once() {
    check(
        "tex2d_several_units",
        16,
        16,
        |gl| {
            let p = full_screen(
                gl,
                "#version 330 core
uniform sampler2D a;
uniform sampler2D b;
uniform sampler2D c;
in vec2 uv;
out vec4 frag;
void main() { frag = vec4(texture(a, uv).r, texture(b, uv).g, texture(c, uv).b, 1.0); }
",
            );
            for (unit, name, texels) in [
                (0, "a", [[200, 1, 1, 255], [100, 1, 1, 255]]),
                (3, "b", [[1, 50, 1, 255], [1, 150, 1, 255]]),
                (7, "c", [[1, 1, 30, 255], [1, 1, 250, 255]]),
            ] {
                gl.active_texture(TEXTURE0 + unit);
                rgba_texture(gl, 2, 1, &texels);
                sampler_unit(gl, p, name, unit as GLint);
            }
            gl.active_texture(TEXTURE0);
            draw_quad(gl);
        },
        &[
            probe(3, 8, [200, 50, 30, 255]),
            probe(12, 8, [100, 150, 250, 255]),
        ],
    );
}

#[test]
fn incomplete_and_unbound_textures_sample_black() {
    // Left third: a 2 x 2 texture with only level 0 and the default mipmap min filter
    // (incomplete);
    // middle: a unit with no texture; right: a complete texture, so the draw visibly ran.
    check(
        "tex2d_incomplete_samples_black",
        24,
        8,
        |gl| {
            let p = full_screen(
                gl,
                "#version 330 core
uniform sampler2D incomplete;
uniform sampler2D unbound;
uniform sampler2D complete;
in vec2 uv;
out vec4 frag;
void main() {
    frag = uv.x < 1.0 / 3.0 ? texture(incomplete, uv) : uv.x < 2.0 / 3.0 ? texture(unbound, uv) : texture(complete, uv);
}
",
            );
            gl.clear_color(0.0, 0.0, 1.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let t = gl.gen_texture();
            gl.bind_texture(TEXTURE_2D, t);
            gl.tex_image_2d(
                TEXTURE_2D,
                0,
                RGBA8 as GLint,
                2,
                2,
                0,
                RGBA,
                UNSIGNED_BYTE,
                Some(&solid([9, 99, 199, 255], 4)),
            );
            sampler_unit(gl, p, "incomplete", 0);
            sampler_unit(gl, p, "unbound", 1);
            gl.active_texture(TEXTURE2);
            rgba_texture(gl, 1, 1, &[[9, 99, 199, 255]]);
            sampler_unit(gl, p, "complete", 2);
            gl.active_texture(TEXTURE0);
            draw_quad(gl);
        },
        &[
            probe(4, 4, [0, 0, 0, 255]),
            probe(12, 4, [0, 0, 0, 255]),
            probe(20, 4, [9, 99, 199, 255]),
        ],
    );
}

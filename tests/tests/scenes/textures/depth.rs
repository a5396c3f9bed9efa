//! Depth textures: sampler2DShadow with each compare function (through the texture's
//! parameters and through a sampler object), and a depth texture sampled without compare.

use tessera_engine::gl::*;
use tessera_tests::differential::{check, probe};
use tessera_tests::gl::Gl;

use super::*;

// ---------------------------------------------------------------------------------------
// Depth textures

/// A 4 x 1 DEPTH_COMPONENT32F texture holding 0.2, 0.4, 0.6, 0.8 (NEAREST).
fn depth_ramp(gl: &mut dyn Gl) {
    texture(gl, TEXTURE_2D);
    let d = floats(&[0.2, 0.4, 0.6, 0.8]);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        DEPTH_COMPONENT32F as GLint,
        4,
        1,
        0,
        DEPTH_COMPONENT,
        FLOAT,
        Some(&d),
    );
}

/// Compares `ref` with the depth ramp through `sampler2DShadow` with `func`; `pass[i]` says
/// whether texel i passes.
fn compare_scene(name: &str, func: GLenum, reference: f32, pass: [bool; 4]) {
    let fs = format!(
        "#version 330 core
uniform sampler2DShadow tex;
in vec2 uv;
out vec4 frag;
void main() {{ float r = texture(tex, vec3(uv, {reference:?})); frag = vec4(r, 1.0 - r, 0.0, 1.0); }}
"
    );
    let probes: Vec<Probe> = (0..4)
        .map(|i| {
            probe(
                i * 4 + 2,
                8,
                if pass[i as usize] {
                    [255, 0, 0, 255]
                } else {
                    [0, 255, 0, 255]
                },
            )
        })
        .collect();
    check(
        name,
        16,
        16,
        |gl| {
            full_screen(gl, &fs);
            depth_ramp(gl);
            gl.tex_parameteri(
                TEXTURE_2D,
                TEXTURE_COMPARE_MODE,
                COMPARE_REF_TO_TEXTURE as GLint,
            );
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_COMPARE_FUNC, func as GLint);
            draw_quad(gl);
        },
        &probes,
    );
}

#[test]
fn depth_compare_lequal() {
    compare_scene(
        "tex2d_shadow_lequal",
        LEQUAL,
        0.4,
        [false, true, true, true],
    );
}

#[test]
fn depth_compare_gequal() {
    compare_scene(
        "tex2d_shadow_gequal",
        GEQUAL,
        0.4,
        [true, true, false, false],
    );
}

#[test]
fn depth_compare_less() {
    compare_scene("tex2d_shadow_less", LESS, 0.4, [false, false, true, true]);
}

#[test]
fn depth_compare_greater() {
    compare_scene(
        "tex2d_shadow_greater",
        GREATER,
        0.4,
        [true, false, false, false],
    );
}

#[test]
fn depth_compare_equal_and_notequal() {
    compare_scene(
        "tex2d_shadow_equal",
        EQUAL,
        0.4,
        [false, true, false, false],
    );
    compare_scene(
        "tex2d_shadow_notequal",
        NOTEQUAL,
        0.4,
        [true, false, true, true],
    );
}

#[test]
fn depth_compare_always_and_never() {
    compare_scene("tex2d_shadow_always", ALWAYS, 0.5, [true; 4]);
    compare_scene("tex2d_shadow_never", NEVER, 0.5, [false; 4]);
}

#[test]
fn depth_texture_without_compare_reads_red() {
    // Core profile: a depth texture sampled without compare is (d, 0, 0, 1).
    check(
        "tex2d_depth_as_red",
        16,
        16,
        |gl| {
            full_screen(gl, FS_SAMPLE);
            depth_ramp(gl);
            draw_quad(gl);
        },
        &[
            probe(2, 8, [51, 0, 0, 255]),
            probe(6, 8, [102, 0, 0, 255]),
            probe(10, 8, [153, 0, 0, 255]),
            probe(14, 8, [204, 0, 0, 255]),
        ],
    );
}

#[test]
fn sampler_object_turns_on_depth_compare() {
    // The depth texture has no compare mode; the sampler object on its unit does (GREATER
    // against 0.5).
    check(
        "tex2d_sampler_object_compare",
        16,
        16,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform sampler2DShadow tex;
in vec2 uv;
out vec4 frag;
void main() { float r = texture(tex, vec3(uv, 0.5)); frag = vec4(r, 0.0, 1.0 - r, 1.0); }
",
            );
            depth_ramp(gl);
            let s = gl.gen_sampler();
            gl.sampler_parameteri(s, TEXTURE_MIN_FILTER, NEAREST as GLint);
            gl.sampler_parameteri(s, TEXTURE_MAG_FILTER, NEAREST as GLint);
            gl.sampler_parameteri(s, TEXTURE_COMPARE_MODE, COMPARE_REF_TO_TEXTURE as GLint);
            gl.sampler_parameteri(s, TEXTURE_COMPARE_FUNC, GREATER as GLint);
            gl.bind_sampler(0, s);
            draw_quad(gl);
        },
        &[
            probe(2, 8, [255, 0, 0, 255]),
            probe(6, 8, [255, 0, 0, 255]),
            probe(10, 8, [0, 0, 255, 255]),
            probe(14, 8, [0, 0, 255, 255]),
        ],
    );
}

//! Render targets and blits: render to a texture (colour, depth, an array layer, a cube
//! face, a mip level, a 3D slice) then sample it; multiple render targets with
//! `glDrawBuffers` (identity and non-identity mappings), per-buffer blending and colour
//! masks; integer targets; `glBlitFramebuffer` at the same size, scaled (NEAREST, LINEAR),
//! flipped, scissored, of depth, and resolving a multisampled renderbuffer.
//!
//! Patterns are laid down with scissored clears and full-screen quads, so every probed
//! pixel is covered (or not) without ambiguity.

use tessera_engine::gl::*;
use tessera_tests::differential::{check, probe};
use tessera_tests::gl::Gl;

use super::textures::{draw_quad, full_screen, grid, program, quad, sampler_unit, texture};

/// Writes `uniform vec4 color`.
const FS_COLOR: &str = "#version 330 core
uniform vec4 color;
out vec4 frag;
void main() { frag = color; }
";

/// Samples `tex` at `uv`.
const FS_SAMPLE: &str = super::textures::FS_SAMPLE;

/// Clears the rectangle (x, y, w, h) of the draw framebuffer's colour buffers to `rgba`
/// (bytes), leaving the scissor test disabled.
fn clear_rect(gl: &mut dyn Gl, [x, y, w, h]: [i32; 4], rgba: [u8; 4]) {
    gl.enable(SCISSOR_TEST);
    gl.scissor(x, y, w, h);
    let [r, g, b, a] = rgba.map(|c| f32::from(c) / 255.0);
    gl.clear_color(r, g, b, a);
    gl.clear(COLOR_BUFFER_BIT);
    gl.disable(SCISSOR_TEST);
}

/// A new framebuffer bound to FRAMEBUFFER with a new `width` x `height` texture of
/// `internal` (NEAREST) at COLOR_ATTACHMENT0; returns (framebuffer, texture).
fn texture_target(gl: &mut dyn Gl, width: i32, height: i32, internal: GLenum) -> (GLuint, GLuint) {
    let t = texture(gl, TEXTURE_2D);
    let (format, ty) = match internal {
        RGBA8UI => (RGBA_INTEGER, UNSIGNED_BYTE),
        _ => (RGBA, UNSIGNED_BYTE),
    };
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        internal as GLint,
        width,
        height,
        0,
        format,
        ty,
        None,
    );
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, t, 0);
    assert_eq!(
        gl.check_framebuffer_status(FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    (fb, t)
}

/// A new framebuffer bound to FRAMEBUFFER with a `width` x `height` RGBA8 renderbuffer at
/// COLOR_ATTACHMENT0.
fn renderbuffer_target(gl: &mut dyn Gl, width: i32, height: i32) -> GLuint {
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA8, width, height);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    assert_eq!(
        gl.check_framebuffer_status(FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    fb
}

/// The four quadrant colours of [`quadrants`] (bottom-left, bottom-right, top-left, top-right).
const QUADRANTS: [[u8; 4]; 4] = [
    [255, 0, 0, 255],
    [0, 255, 0, 255],
    [0, 0, 255, 255],
    [255, 255, 0, 255],
];

/// Clears the four quadrants of a `size` x `size` target to [`QUADRANTS`].
fn quadrants(gl: &mut dyn Gl, size: i32) {
    let h = size / 2;
    for (i, c) in QUADRANTS.iter().enumerate() {
        let (x, y) = ((i as i32 % 2) * h, (i as i32 / 2) * h);
        clear_rect(gl, [x, y, h, h], *c);
    }
}

// ---------------------------------------------------------------------------------------
// Render to texture

#[test]
fn render_to_texture_then_sample() {
    // An 8 x 8 target: cleared to quadrants, then a green-blue quad drawn over its middle
    // (pixels 2..6); sampled NEAREST onto 16 x 16, each target pixel is 2 x 2.
    check(
        "rtt_colour_then_sample",
        16,
        16,
        |gl| {
            let (_, t) = texture_target(gl, 8, 8, RGBA8);
            gl.viewport(0, 0, 8, 8);
            quadrants(gl, 8);
            let p = program(gl, super::textures::VS_XF, FS_COLOR);
            gl.use_program(p);
            quad(gl);
            let xf = gl.get_uniform_location(p, "xf");
            gl.uniform4f(xf, 0.5, 0.5, 0.0, 0.0);
            let color = gl.get_uniform_location(p, "color");
            gl.uniform4f(color, 0.0, 0.6, 0.4, 1.0);
            draw_quad(gl);
            gl.bind_framebuffer(FRAMEBUFFER, 0);
            gl.viewport(0, 0, 16, 16);
            full_screen(gl, FS_SAMPLE);
            gl.bind_texture(TEXTURE_2D, t);
            draw_quad(gl);
        },
        &[
            probe(1, 1, QUADRANTS[0]),
            probe(14, 1, QUADRANTS[1]),
            probe(1, 14, QUADRANTS[2]),
            probe(14, 14, QUADRANTS[3]),
            probe(6, 6, [0, 153, 102, 255]),
            probe(9, 9, [0, 153, 102, 255]),
        ],
    );
}

#[test]
fn render_depth_to_texture_then_sample() {
    // Depth cleared to 1; a quad at z = -0.5 (depth 0.25) on the left half, one at z = 0.5
    // (0.75) over the bottom half behind it. Sampled as (d, 0, 0, 1).
    check(
        "rtt_depth_then_sample",
        16,
        16,
        |gl| {
            let colour = gl.gen_renderbuffer();
            gl.bind_renderbuffer(RENDERBUFFER, colour);
            gl.renderbuffer_storage(RENDERBUFFER, RGBA8, 16, 16);
            let depth = texture(gl, TEXTURE_2D);
            gl.tex_image_2d(
                TEXTURE_2D,
                0,
                DEPTH_COMPONENT32F as GLint,
                16,
                16,
                0,
                DEPTH_COMPONENT,
                FLOAT,
                None,
            );
            let fb = gl.gen_framebuffer();
            gl.bind_framebuffer(FRAMEBUFFER, fb);
            gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, colour);
            gl.framebuffer_texture_2d(FRAMEBUFFER, DEPTH_ATTACHMENT, TEXTURE_2D, depth, 0);
            assert_eq!(
                gl.check_framebuffer_status(FRAMEBUFFER),
                FRAMEBUFFER_COMPLETE
            );
            gl.clear_depth(1.0);
            gl.clear(DEPTH_BUFFER_BIT | COLOR_BUFFER_BIT);
            gl.enable(DEPTH_TEST);
            let p = program(
                gl,
                "#version 330 core
layout(location = 0) in vec2 pos;
uniform vec4 xf;
uniform float z;
void main() { gl_Position = vec4(pos * xf.xy + xf.zw, z, 1.0); }
",
                FS_COLOR,
            );
            gl.use_program(p);
            quad(gl);
            let (xf, z) = (
                gl.get_uniform_location(p, "xf"),
                gl.get_uniform_location(p, "z"),
            );
            gl.uniform4f(xf, 0.5, 1.0, -0.5, 0.0);
            gl.uniform1f(z, -0.5);
            draw_quad(gl);
            gl.uniform4f(xf, 1.0, 0.5, 0.0, -0.5);
            gl.uniform1f(z, 0.5);
            draw_quad(gl);
            gl.disable(DEPTH_TEST);
            gl.bind_framebuffer(FRAMEBUFFER, 0);
            full_screen(gl, FS_SAMPLE);
            gl.bind_texture(TEXTURE_2D, depth);
            draw_quad(gl);
        },
        &[
            probe(3, 3, [64, 0, 0, 255]),
            probe(3, 12, [64, 0, 0, 255]),
            probe(12, 3, [191, 0, 0, 255]),
            probe(12, 12, [255, 0, 0, 255]),
        ],
    );
}

#[test]
fn render_to_array_layers_then_sample() {
    // Layers 0..3 of a 4 x 4 array texture each cleared to their own colour through
    // glFramebufferTextureLayer; each quarter of the screen's width shows one layer.
    let colour = |l: i32| [(l * 60 + 20) as u8, (240 - l * 60) as u8, 100, 255];
    check(
        "rtt_array_layers",
        16,
        4,
        |gl| {
            let t = texture(gl, TEXTURE_2D_ARRAY);
            gl.tex_image_3d(
                TEXTURE_2D_ARRAY,
                0,
                RGBA8 as GLint,
                4,
                4,
                4,
                0,
                RGBA,
                UNSIGNED_BYTE,
                None,
            );
            let fb = gl.gen_framebuffer();
            gl.bind_framebuffer(FRAMEBUFFER, fb);
            for l in 0..4 {
                gl.framebuffer_texture_layer(FRAMEBUFFER, COLOR_ATTACHMENT0, t, 0, l);
                assert_eq!(
                    gl.check_framebuffer_status(FRAMEBUFFER),
                    FRAMEBUFFER_COMPLETE
                );
                clear_rect(gl, [0, 0, 4, 4], colour(l));
            }
            gl.bind_framebuffer(FRAMEBUFFER, 0);
            full_screen(
                gl,
                "#version 330 core
uniform sampler2DArray tex;
in vec2 uv;
out vec4 frag;
void main() { frag = texture(tex, vec3(uv, floor(uv.x * 4.0))); }
",
            );
            draw_quad(gl);
        },
        &grid(4, 1, 4, |l, _| colour(l)),
    );
}

#[test]
fn a_texture_cleared_through_a_framebuffer_is_sampled_by_the_next_draw() {
    // The sampling program and its quad exist before the clear, so nothing (no upload)
    // comes between clearing the texture through its framebuffer and the draw that samples
    // it into the default framebuffer: the clear must reach the texture first.
    check(
        "rtt_clear_then_sample",
        8,
        8,
        |gl| {
            let p = full_screen(gl, FS_SAMPLE);
            let (_, t) = texture_target(gl, 4, 4, RGBA8);
            clear_rect(gl, [0, 0, 4, 4], [200, 40, 90, 255]);
            gl.bind_framebuffer(FRAMEBUFFER, 0);
            gl.use_program(p);
            gl.bind_texture(TEXTURE_2D, t);
            draw_quad(gl);
        },
        &[
            probe(1, 1, [200, 40, 90, 255]),
            probe(6, 6, [200, 40, 90, 255]),
        ],
    );
}

#[test]
fn render_to_cube_faces_then_sample() {
    // Each face of a 2 x 2 cube map is a target in turn: cleared to its colour, then drawn
    // with a quad over its lower half.
    let colour = |f: i32| [(f * 40 + 20) as u8, 100, (230 - f * 40) as u8, 255];
    check(
        "rtt_cube_faces",
        24,
        8,
        |gl| {
            let t = texture(gl, TEXTURE_CUBE_MAP);
            let faces = [
                TEXTURE_CUBE_MAP_POSITIVE_X,
                TEXTURE_CUBE_MAP_NEGATIVE_X,
                TEXTURE_CUBE_MAP_POSITIVE_Y,
                TEXTURE_CUBE_MAP_NEGATIVE_Y,
                TEXTURE_CUBE_MAP_POSITIVE_Z,
                TEXTURE_CUBE_MAP_NEGATIVE_Z,
            ];
            for face in faces {
                gl.tex_image_2d(face, 0, RGBA8 as GLint, 2, 2, 0, RGBA, UNSIGNED_BYTE, None);
            }
            let fb = gl.gen_framebuffer();
            gl.bind_framebuffer(FRAMEBUFFER, fb);
            gl.viewport(0, 0, 2, 2);
            for (f, face) in faces.into_iter().enumerate() {
                gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, face, t, 0);
                assert_eq!(
                    gl.check_framebuffer_status(FRAMEBUFFER),
                    FRAMEBUFFER_COMPLETE
                );
                clear_rect(gl, [0, 0, 2, 2], colour(f as i32));
            }
            gl.bind_framebuffer(FRAMEBUFFER, 0);
            gl.viewport(0, 0, 24, 8);
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
            gl.bind_texture(TEXTURE_CUBE_MAP, t);
            draw_quad(gl);
        },
        &grid(6, 2, 4, |f, _| colour(f)),
    );
}

#[test]
fn render_to_a_mip_level_then_sample() {
    // Level 0 (8 x 8) is uploaded white; level 1 (4 x 4) is a render target cleared to
    // quadrants; levels 2 and 3 are black. Left half samples level 0, right half level 1.
    check(
        "rtt_mip_level",
        16,
        16,
        |gl| {
            let t = texture(gl, TEXTURE_2D);
            for (level, size) in [(0, 8), (1, 4), (2, 2), (3, 1)] {
                let fill = if level == 0 { 255 } else { 0 };
                let data = vec![fill; (size * size * 4) as usize];
                gl.tex_image_2d(
                    TEXTURE_2D,
                    level,
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
            let fb = gl.gen_framebuffer();
            gl.bind_framebuffer(FRAMEBUFFER, fb);
            gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, t, 1);
            assert_eq!(
                gl.check_framebuffer_status(FRAMEBUFFER),
                FRAMEBUFFER_COMPLETE
            );
            quadrants(gl, 4);
            gl.bind_framebuffer(FRAMEBUFFER, 0);
            full_screen(
                gl,
                "#version 330 core
uniform sampler2D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = textureLod(tex, uv, uv.x < 0.5 ? 0.0 : 1.0); }
",
            );
            draw_quad(gl);
        },
        &[
            probe(3, 3, [255; 4]),
            probe(3, 12, [255; 4]),
            probe(12, 3, QUADRANTS[1]),
            probe(12, 12, QUADRANTS[3]),
        ],
    );
}

#[test]
fn render_to_a_3d_slice_then_sample() {
    // Slice 2 of a 2 x 2 x 4 texture is a target; the other slices stay as uploaded (grey).
    check(
        "rtt_3d_slice",
        16,
        4,
        |gl| {
            let t = texture(gl, TEXTURE_3D);
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
                Some(&[90u8; 64]),
            );
            let fb = gl.gen_framebuffer();
            gl.bind_framebuffer(FRAMEBUFFER, fb);
            gl.framebuffer_texture_layer(FRAMEBUFFER, COLOR_ATTACHMENT0, t, 0, 2);
            assert_eq!(
                gl.check_framebuffer_status(FRAMEBUFFER),
                FRAMEBUFFER_COMPLETE
            );
            clear_rect(gl, [0, 0, 2, 2], [250, 20, 130, 255]);
            gl.bind_framebuffer(FRAMEBUFFER, 0);
            full_screen(
                gl,
                "#version 330 core
uniform sampler3D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = texture(tex, vec3(0.5, 0.5, (floor(uv.x * 4.0) + 0.5) / 4.0)); }
",
            );
            draw_quad(gl);
        },
        &[
            probe(2, 2, [90; 4]),
            probe(6, 2, [90; 4]),
            probe(10, 2, [250, 20, 130, 255]),
            probe(14, 2, [90; 4]),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// Multiple render targets

/// Writes red-ish to output 0 and green-ish to output 1 (each with alpha 1).
const FS_TWO_OUTPUTS: &str = "#version 330 core
layout(location = 0) out vec4 out0;
layout(location = 1) out vec4 out1;
void main() { out0 = vec4(0.8, 0.2, 0.0, 1.0); out1 = vec4(0.0, 0.6, 0.4, 1.0); }
";

/// A framebuffer with two 8 x 8 RGBA8 textures at COLOR_ATTACHMENT0 and 1, both cleared to
/// (0, 0, 128, 255); returns the textures.
fn two_targets(gl: &mut dyn Gl) -> [GLuint; 2] {
    let (_, a) = texture_target(gl, 8, 8, RGBA8);
    let b = texture(gl, TEXTURE_2D);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        8,
        8,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT1, TEXTURE_2D, b, 0);
    gl.draw_buffers(&[COLOR_ATTACHMENT0, COLOR_ATTACHMENT1]);
    assert_eq!(
        gl.check_framebuffer_status(FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    for i in 0..2 {
        gl.clear_bufferfv(COLOR, i, &[0.0, 0.0, 128.0 / 255.0, 1.0]);
    }
    gl.viewport(0, 0, 8, 8);
    [a, b]
}

/// Shows texture `a` on the left half and `b` on the right half of the default framebuffer.
fn show_side_by_side(gl: &mut dyn Gl, [a, b]: [GLuint; 2], width: i32, height: i32) {
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    gl.viewport(0, 0, width, height);
    let p = full_screen(
        gl,
        "#version 330 core
uniform sampler2D a;
uniform sampler2D b;
in vec2 uv;
out vec4 frag;
void main() { frag = uv.x < 0.5 ? texture(a, uv) : texture(b, uv); }
",
    );
    gl.active_texture(TEXTURE0);
    gl.bind_texture(TEXTURE_2D, a);
    gl.active_texture(TEXTURE1);
    gl.bind_texture(TEXTURE_2D, b);
    gl.active_texture(TEXTURE0);
    sampler_unit(gl, p, "a", 0);
    sampler_unit(gl, p, "b", 1);
    draw_quad(gl);
}

#[test]
fn mrt_writes_each_output_to_its_attachment() {
    check(
        "mrt_identity",
        16,
        8,
        |gl| {
            let targets = two_targets(gl);
            full_screen(gl, FS_TWO_OUTPUTS);
            draw_quad(gl);
            show_side_by_side(gl, targets, 16, 8);
        },
        &[
            probe(4, 4, [204, 51, 0, 255]),
            probe(12, 4, [0, 153, 102, 255]),
        ],
    );
}

#[test]
fn mrt_non_identity_mapping_routes_output_1_to_attachment_0() {
    // draw_buffers {NONE, COLOR_ATTACHMENT0}: output 0 is discarded, output 1 lands in
    // attachment 0; attachment 1 is not drawn and keeps its clear.
    check(
        "mrt_none_then_attachment0",
        16,
        8,
        |gl| {
            let targets = two_targets(gl);
            gl.draw_buffers(&[NONE, COLOR_ATTACHMENT0]);
            full_screen(gl, FS_TWO_OUTPUTS);
            draw_quad(gl);
            show_side_by_side(gl, targets, 16, 8);
        },
        &[
            probe(4, 4, [0, 153, 102, 255]),
            probe(12, 4, [0, 0, 128, 255]),
        ],
    );
}

#[test]
fn mrt_swapped_mapping() {
    check(
        "mrt_swapped",
        16,
        8,
        |gl| {
            let targets = two_targets(gl);
            gl.draw_buffers(&[COLOR_ATTACHMENT1, COLOR_ATTACHMENT0]);
            full_screen(gl, FS_TWO_OUTPUTS);
            draw_quad(gl);
            show_side_by_side(gl, targets, 16, 8);
        },
        &[
            probe(4, 4, [0, 153, 102, 255]),
            probe(12, 4, [204, 51, 0, 255]),
        ],
    );
}

#[test]
fn mrt_blending_enabled_on_one_buffer() {
    // ONE + ONE blending on draw buffer 1 only: attachment 0 takes the source, attachment 1
    // adds it to its clear (0, 0, 128, 255).
    check(
        "mrt_blend_enablei",
        16,
        8,
        |gl| {
            let targets = two_targets(gl);
            gl.blend_func(ONE, ONE);
            gl.enablei(BLEND, 1);
            full_screen(gl, FS_TWO_OUTPUTS);
            draw_quad(gl);
            gl.disablei(BLEND, 1);
            show_side_by_side(gl, targets, 16, 8);
        },
        &[
            probe(4, 4, [204, 51, 0, 255]),
            probe(12, 4, [0, 153, 230, 255]),
        ],
    );
}

#[test]
fn mrt_colour_mask_on_one_buffer() {
    // Draw buffer 1 keeps its red and blue (masked); draw buffer 0 writes everything.
    check(
        "mrt_color_maski",
        16,
        8,
        |gl| {
            let targets = two_targets(gl);
            gl.color_maski(
                1,
                FALSE as GLboolean,
                TRUE as GLboolean,
                FALSE as GLboolean,
                TRUE as GLboolean,
            );
            full_screen(gl, FS_TWO_OUTPUTS);
            draw_quad(gl);
            gl.color_maski(
                1,
                TRUE as GLboolean,
                TRUE as GLboolean,
                TRUE as GLboolean,
                TRUE as GLboolean,
            );
            show_side_by_side(gl, targets, 16, 8);
        },
        &[
            probe(4, 4, [204, 51, 0, 255]),
            probe(12, 4, [0, 153, 128, 255]),
        ],
    );
}

#[test]
fn integer_render_target_keeps_exact_values() {
    // An RGBA8UI target: cleared with glClearBufferuiv, its right half drawn with a uvec4
    // output; read back by texelFetch.
    check(
        "rtt_integer_rgba8ui",
        16,
        8,
        |gl| {
            let (_, t) = texture_target(gl, 4, 2, RGBA8UI);
            gl.viewport(0, 0, 4, 2);
            gl.clear_bufferuiv(COLOR, 0, &[7, 70, 170, 250]);
            let p = program(
                gl,
                super::textures::VS_XF,
                "#version 330 core
uniform uvec4 value;
out uvec4 frag;
void main() { frag = value + uvec4(gl_FragCoord.x > 3.0 ? 1u : 0u); }
",
            );
            gl.use_program(p);
            quad(gl);
            let xf = gl.get_uniform_location(p, "xf");
            gl.uniform4f(xf, 0.5, 1.0, 0.5, 0.0);
            let value = gl.get_uniform_location(p, "value");
            gl.uniform4uiv(value, &[200, 3, 99, 1]);
            draw_quad(gl);
            gl.bind_framebuffer(FRAMEBUFFER, 0);
            gl.viewport(0, 0, 16, 8);
            full_screen(
                gl,
                "#version 330 core
uniform usampler2D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = vec4(texelFetch(tex, ivec2(uv * vec2(4.0, 2.0)), 0)) / 255.0; }
",
            );
            gl.bind_texture(TEXTURE_2D, t);
            draw_quad(gl);
        },
        &[
            probe(2, 2, [7, 70, 170, 250]),
            probe(6, 6, [7, 70, 170, 250]),
            probe(10, 2, [200, 3, 99, 1]),
            probe(14, 6, [201, 4, 100, 2]),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// Blits

#[test]
fn blit_colour_at_the_same_size() {
    check(
        "blit_colour_same_size",
        16,
        16,
        |gl| {
            let fb = renderbuffer_target(gl, 16, 16);
            quadrants(gl, 16);
            gl.bind_framebuffer(READ_FRAMEBUFFER, fb);
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
            gl.blit_framebuffer(0, 0, 16, 16, 0, 0, 16, 16, COLOR_BUFFER_BIT, NEAREST);
        },
        &grid(2, 2, 8, |i, j| QUADRANTS[(j * 2 + i) as usize]),
    );
}

/// A 4 x 4 renderbuffer target whose pixel (i, j) is (60i + 20, 60j + 20, 77, 255).
fn pixel_pattern(gl: &mut dyn Gl) -> GLuint {
    let fb = renderbuffer_target(gl, 4, 4);
    for j in 0..4 {
        for i in 0..4 {
            clear_rect(gl, [i, j, 1, 1], pattern(i, j));
        }
    }
    fb
}

/// The colour of pixel (i, j) of [`pixel_pattern`].
fn pattern(i: i32, j: i32) -> [u8; 4] {
    [(60 * i + 20) as u8, (60 * j + 20) as u8, 77, 255]
}

#[test]
fn blit_scaled_nearest() {
    check(
        "blit_scaled_nearest",
        16,
        16,
        |gl| {
            let fb = pixel_pattern(gl);
            gl.bind_framebuffer(READ_FRAMEBUFFER, fb);
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
            gl.blit_framebuffer(0, 0, 4, 4, 0, 0, 16, 16, COLOR_BUFFER_BIT, NEAREST);
        },
        &grid(4, 4, 4, pattern),
    );
}

#[test]
fn blit_scaled_linear() {
    // A 2 x 1 source (0 and 160 red) stretched over 16 x 4: pixel x weighs the second
    // pixel by (x + 0.5) / 8 - 0.5, clamped at the edges.
    check(
        "blit_scaled_linear",
        16,
        4,
        |gl| {
            let fb = renderbuffer_target(gl, 2, 1);
            clear_rect(gl, [0, 0, 1, 1], [0, 0, 0, 255]);
            clear_rect(gl, [1, 0, 1, 1], [160, 0, 0, 255]);
            gl.bind_framebuffer(READ_FRAMEBUFFER, fb);
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
            gl.blit_framebuffer(0, 0, 2, 1, 0, 0, 16, 4, COLOR_BUFFER_BIT, LINEAR);
        },
        &[
            probe(0, 2, [0, 0, 0, 255]),
            probe(7, 2, [70, 0, 0, 255]),
            probe(8, 2, [90, 0, 0, 255]),
            probe(15, 2, [160, 0, 0, 255]),
        ],
    );
}

#[test]
fn blit_flipped_both_ways() {
    // Destination corners swapped on both axes: the image turns half a turn.
    check(
        "blit_flipped",
        16,
        16,
        |gl| {
            let fb = pixel_pattern(gl);
            gl.bind_framebuffer(READ_FRAMEBUFFER, fb);
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
            gl.blit_framebuffer(0, 0, 4, 4, 16, 16, 0, 0, COLOR_BUFFER_BIT, NEAREST);
        },
        &grid(4, 4, 4, |i, j| pattern(3 - i, 3 - j)),
    );
}

#[test]
fn blit_flipped_source_horizontally() {
    // Source corners swapped in x only: a mirror image, drawn into the right half.
    check(
        "blit_flipped_source_x",
        16,
        16,
        |gl| {
            gl.clear_color(0.0, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let fb = pixel_pattern(gl);
            gl.bind_framebuffer(READ_FRAMEBUFFER, fb);
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
            gl.blit_framebuffer(4, 0, 0, 4, 8, 0, 16, 16, COLOR_BUFFER_BIT, NEAREST);
        },
        &[
            probe(9, 2, pattern(3, 0)),
            probe(15, 2, pattern(0, 0)),
            probe(11, 14, pattern(2, 3)),
            probe(3, 8, [0, 0, 0, 255]),
        ],
    );
}

#[test]
fn blit_respects_the_scissor() {
    check(
        "blit_scissored",
        16,
        16,
        |gl| {
            gl.clear_color(0.0, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let fb = renderbuffer_target(gl, 16, 16);
            quadrants(gl, 16);
            gl.bind_framebuffer(READ_FRAMEBUFFER, fb);
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
            gl.enable(SCISSOR_TEST);
            gl.scissor(4, 4, 8, 8);
            gl.blit_framebuffer(0, 0, 16, 16, 0, 0, 16, 16, COLOR_BUFFER_BIT, NEAREST);
            gl.disable(SCISSOR_TEST);
        },
        &[
            probe(5, 5, QUADRANTS[0]),
            probe(10, 10, QUADRANTS[3]),
            probe(2, 2, [0, 0, 0, 255]),
            probe(14, 14, [0, 0, 0, 255]),
        ],
    );
}

#[test]
fn blit_a_sub_rectangle_with_offset() {
    check(
        "blit_sub_rectangle",
        16,
        16,
        |gl| {
            gl.clear_color(0.0, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let fb = pixel_pattern(gl);
            gl.bind_framebuffer(READ_FRAMEBUFFER, fb);
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
            // Source pixels (1..3, 2..4) at 3x scale to (5, 7).
            gl.blit_framebuffer(1, 2, 3, 4, 5, 7, 11, 13, COLOR_BUFFER_BIT, NEAREST);
        },
        &[
            probe(6, 8, pattern(1, 2)),
            probe(10, 8, pattern(2, 2)),
            probe(6, 12, pattern(1, 3)),
            probe(2, 2, [0, 0, 0, 255]),
        ],
    );
}

#[test]
fn blit_depth_between_framebuffers() {
    // Source depth: 1 cleared, 0.25 on the left half. Blitted to a second framebuffer, where
    // a quad at depth 0.5 with LESS passes only on the right half.
    check(
        "blit_depth",
        16,
        16,
        |gl| {
            let make = |gl: &mut dyn Gl| {
                let fb = renderbuffer_target(gl, 16, 16);
                let d = gl.gen_renderbuffer();
                gl.bind_renderbuffer(RENDERBUFFER, d);
                gl.renderbuffer_storage(RENDERBUFFER, DEPTH_COMPONENT24, 16, 16);
                gl.framebuffer_renderbuffer(FRAMEBUFFER, DEPTH_ATTACHMENT, RENDERBUFFER, d);
                assert_eq!(
                    gl.check_framebuffer_status(FRAMEBUFFER),
                    FRAMEBUFFER_COMPLETE
                );
                fb
            };
            let p = program(
                gl,
                "#version 330 core
layout(location = 0) in vec2 pos;
uniform vec4 xf;
uniform float z;
void main() { gl_Position = vec4(pos * xf.xy + xf.zw, z, 1.0); }
",
                FS_COLOR,
            );
            gl.use_program(p);
            quad(gl);
            let (xf, z, color) = (
                gl.get_uniform_location(p, "xf"),
                gl.get_uniform_location(p, "z"),
                gl.get_uniform_location(p, "color"),
            );
            let src = make(gl);
            gl.clear_depth(1.0);
            gl.clear(DEPTH_BUFFER_BIT | COLOR_BUFFER_BIT);
            gl.enable(DEPTH_TEST);
            gl.uniform4f(xf, 0.5, 1.0, -0.5, 0.0);
            gl.uniform1f(z, -0.5);
            gl.uniform4f(color, 1.0, 1.0, 1.0, 1.0);
            draw_quad(gl);
            let dst = make(gl);
            gl.clear_color(0.0, 0.0, 1.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            gl.bind_framebuffer(READ_FRAMEBUFFER, src);
            gl.blit_framebuffer(0, 0, 16, 16, 0, 0, 16, 16, DEPTH_BUFFER_BIT, NEAREST);
            gl.bind_framebuffer(FRAMEBUFFER, dst);
            gl.uniform4f(xf, 1.0, 1.0, 0.0, 0.0);
            gl.uniform1f(z, 0.0);
            gl.uniform4f(color, 0.0, 1.0, 0.0, 1.0);
            draw_quad(gl);
            gl.disable(DEPTH_TEST);
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
            gl.blit_framebuffer(0, 0, 16, 16, 0, 0, 16, 16, COLOR_BUFFER_BIT, NEAREST);
        },
        &[
            probe(3, 8, [0, 0, 255, 255]),
            probe(12, 8, [0, 255, 0, 255]),
        ],
    );
}

#[test]
fn blit_resolves_a_multisampled_renderbuffer() {
    // 4 samples: cleared blue, the top half drawn yellow with whole-pixel coverage (every
    // sample), resolved into the default framebuffer.
    check(
        "blit_multisample_resolve",
        16,
        16,
        |gl| {
            let rb = gl.gen_renderbuffer();
            gl.bind_renderbuffer(RENDERBUFFER, rb);
            gl.renderbuffer_storage_multisample(RENDERBUFFER, 4, RGBA8, 16, 16);
            let fb = gl.gen_framebuffer();
            gl.bind_framebuffer(FRAMEBUFFER, fb);
            gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
            assert_eq!(
                gl.check_framebuffer_status(FRAMEBUFFER),
                FRAMEBUFFER_COMPLETE
            );
            gl.clear_color(0.0, 0.0, 1.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let p = program(gl, super::textures::VS_XF, FS_COLOR);
            gl.use_program(p);
            quad(gl);
            let xf = gl.get_uniform_location(p, "xf");
            gl.uniform4f(xf, 1.0, 0.5, 0.0, 0.5);
            let color = gl.get_uniform_location(p, "color");
            gl.uniform4f(color, 1.0, 1.0, 0.0, 1.0);
            draw_quad(gl);
            gl.bind_framebuffer(READ_FRAMEBUFFER, fb);
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
            gl.blit_framebuffer(0, 0, 16, 16, 0, 0, 16, 16, COLOR_BUFFER_BIT, NEAREST);
        },
        &[
            probe(8, 3, [0, 0, 255, 255]),
            probe(8, 12, [255, 255, 0, 255]),
        ],
    );
}

#[test]
fn draw_buffer_none_discards_colour() {
    // glDrawBuffer(NONE) on a framebuffer: the draw changes nothing; back to
    // COLOR_ATTACHMENT0, a second draw lands.
    check(
        "draw_buffer_none",
        16,
        16,
        |gl| {
            let (_, t) = texture_target(gl, 16, 16, RGBA8);
            gl.clear_color(0.5, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let p = program(gl, super::textures::VS_XF, FS_COLOR);
            gl.use_program(p);
            quad(gl);
            let (xf, color) = (
                gl.get_uniform_location(p, "xf"),
                gl.get_uniform_location(p, "color"),
            );
            gl.draw_buffer(NONE);
            gl.uniform4f(xf, 1.0, 1.0, 0.0, 0.0);
            gl.uniform4f(color, 0.0, 1.0, 0.0, 1.0);
            draw_quad(gl);
            gl.draw_buffer(COLOR_ATTACHMENT0);
            gl.uniform4f(xf, 0.5, 1.0, 0.5, 0.0);
            gl.uniform4f(color, 0.0, 0.0, 1.0, 1.0);
            draw_quad(gl);
            gl.bind_framebuffer(FRAMEBUFFER, 0);
            full_screen(gl, FS_SAMPLE);
            gl.bind_texture(TEXTURE_2D, t);
            draw_quad(gl);
        },
        &[
            probe(3, 8, [128, 0, 0, 255]),
            probe(12, 8, [0, 0, 255, 255]),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// Draw buffers without an image (complete since GL 4.1, as on every driver)

/// Renders depth only into a depth texture through a framebuffer with the default draw
/// buffer, COLOR_ATTACHMENT0, which has no image (no glDrawBuffer(NONE)), with fragment
/// shader `fs`; then samples the depth as (d, 0, 0, 1). Depth cleared to 1, a quad at depth
/// 0.25 on the left half.
fn depth_only_pass(gl: &mut dyn Gl, fs: &str) {
    let depth = texture(gl, TEXTURE_2D);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        DEPTH_COMPONENT32F as GLint,
        16,
        16,
        0,
        DEPTH_COMPONENT,
        FLOAT,
        None,
    );
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_2d(FRAMEBUFFER, DEPTH_ATTACHMENT, TEXTURE_2D, depth, 0);
    assert_eq!(
        gl.check_framebuffer_status(FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    gl.clear_depth(1.0);
    gl.clear(DEPTH_BUFFER_BIT | COLOR_BUFFER_BIT);
    gl.enable(DEPTH_TEST);
    let p = program(
        gl,
        "#version 330 core
layout(location = 0) in vec2 pos;
uniform vec4 xf;
uniform float z;
void main() { gl_Position = vec4(pos * xf.xy + xf.zw, z, 1.0); }
",
        fs,
    );
    gl.use_program(p);
    quad(gl);
    let (xf, z) = (
        gl.get_uniform_location(p, "xf"),
        gl.get_uniform_location(p, "z"),
    );
    gl.uniform4f(xf, 0.5, 1.0, -0.5, 0.0);
    gl.uniform1f(z, -0.5);
    draw_quad(gl);
    gl.disable(DEPTH_TEST);
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    full_screen(gl, FS_SAMPLE);
    gl.bind_texture(TEXTURE_2D, depth);
    draw_quad(gl);
}

#[test]
fn depth_only_framebuffer_with_the_default_draw_buffer() {
    // A depth pass whose fragment shader writes no colour.
    check(
        "depth_only_default_draw_buffer",
        16,
        16,
        |gl| depth_only_pass(gl, "#version 330 core\nvoid main() {}\n"),
        &[probe(3, 8, [64, 0, 0, 255]), probe(12, 8, [255, 0, 0, 255])],
    );
}

#[test]
fn depth_only_framebuffer_with_a_colour_writing_shader() {
    // The colour the shader writes goes nowhere (as after glDrawBuffer(NONE)).
    check(
        "depth_only_colour_shader",
        16,
        16,
        |gl| depth_only_pass(gl, FS_COLOR),
        &[probe(3, 8, [64, 0, 0, 255]), probe(12, 8, [255, 0, 0, 255])],
    );
}

#[test]
fn a_draw_buffer_without_an_image_discards_its_output() {
    // Only COLOR_ATTACHMENT0 has an image; draw buffers {COLOR_ATTACHMENT1, COLOR_ATTACHMENT0}:
    // output 0 and a ClearBuffer of draw buffer 0 go nowhere, output 1 and glClear land in
    // attachment 0. The left half is drawn (scissored), the right half keeps the clear.
    check(
        "draw_buffer_without_image",
        16,
        8,
        |gl| {
            let (_, t) = texture_target(gl, 8, 8, RGBA8);
            gl.draw_buffers(&[COLOR_ATTACHMENT1, COLOR_ATTACHMENT0]);
            assert_eq!(
                gl.check_framebuffer_status(FRAMEBUFFER),
                FRAMEBUFFER_COMPLETE
            );
            gl.viewport(0, 0, 8, 8);
            gl.clear_color(0.0, 0.0, 128.0 / 255.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            gl.clear_bufferfv(COLOR, 0, &[1.0; 4]);
            full_screen(gl, FS_TWO_OUTPUTS);
            gl.enable(SCISSOR_TEST);
            gl.scissor(0, 0, 4, 8);
            draw_quad(gl);
            gl.disable(SCISSOR_TEST);
            gl.bind_framebuffer(FRAMEBUFFER, 0);
            gl.viewport(0, 0, 16, 8);
            full_screen(gl, FS_SAMPLE);
            gl.bind_texture(TEXTURE_2D, t);
            draw_quad(gl);
        },
        &[
            probe(4, 4, [0, 153, 102, 255]),
            probe(12, 4, [0, 0, 128, 255]),
        ],
    );
}

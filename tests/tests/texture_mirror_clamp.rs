//! `MIRROR_CLAMP_TO_EDGE` (`GL_ARB_texture_mirror_clamp_to_edge`, GL 4.4) against the native
//! driver on both backends (Vulkan with the validation layer on, which must report nothing):
//! texture and sampler objects take the wrap mode on each coordinate and report it, a
//! rectangle texture refuses it, and sampling mirrors the texture once about its origin and
//! then clamps to the edge texels, through texture parameters and through a sampler object,
//! with nearest and linear filters. Values, errors and pixels must be exactly the native
//! ones.

use tessera_engine::gl::*;
use tessera_tests::params::{self, ParamGl};

/// `GL_MIRROR_CLAMP_EXT` (`EXT_texture_mirror_clamp`, a compatibility-profile mode).
const MIRROR_CLAMP_EXT: GLenum = 0x8742;

const WIDTH: i32 = 40;
const HEIGHT: i32 = 4;

/// [`params::compare_by`] on this file's target size.
fn compare_by<T: std::fmt::Debug>(
    scene: impl Fn(&mut dyn ParamGl) -> T,
    same: impl Fn(&T, &T) -> bool,
) -> (T, Vec<T>) {
    params::compare_by(WIDTH, HEIGHT, scene, same)
}

/// [`compare_by`] with equality.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn ParamGl) -> T) -> T {
    compare_by(scene, |a, b| a == b).0
}

/// What was done, the error, and the value read back.
type Line = (&'static str, GLenum, GLint);

fn transcript(gl: &mut dyn ParamGl) -> (bool, Vec<Line>) {
    let advertised = gl.advertises("GL_ARB_texture_mirror_clamp_to_edge");
    let mut out: Vec<Line> = Vec::new();
    let tex = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, tex);
    let mode = MIRROR_CLAMP_TO_EDGE as GLint;
    for (what, pname) in [
        ("texture S", TEXTURE_WRAP_S),
        ("texture T", TEXTURE_WRAP_T),
        ("texture R", TEXTURE_WRAP_R),
    ] {
        gl.tex_parameteri(TEXTURE_2D, pname, mode);
        let e = gl.get_error();
        out.push((what, e, gl.tex_param(TEXTURE_2D, pname)));
    }
    gl.tex_parameterf(TEXTURE_2D, TEXTURE_WRAP_S, REPEAT as f32);
    gl.tex_parameterf(TEXTURE_2D, TEXTURE_WRAP_S, MIRROR_CLAMP_TO_EDGE as f32);
    let e = gl.get_error();
    out.push((
        "texture S as a float",
        e,
        gl.tex_param(TEXTURE_2D, TEXTURE_WRAP_S),
    ));
    let rect = gl.gen_texture();
    gl.bind_texture(TEXTURE_RECTANGLE, rect);
    gl.tex_parameteri(TEXTURE_RECTANGLE, TEXTURE_WRAP_S, mode);
    let e = gl.get_error();
    out.push((
        "rectangle refuses it",
        e,
        gl.tex_param(TEXTURE_RECTANGLE, TEXTURE_WRAP_S),
    ));
    let s = gl.gen_sampler();
    for (what, pname) in [
        ("sampler S", TEXTURE_WRAP_S),
        ("sampler T", TEXTURE_WRAP_T),
        ("sampler R", TEXTURE_WRAP_R),
    ] {
        gl.sampler_parameteri(s, pname, mode);
        let e = gl.get_error();
        out.push((what, e, gl.sampler_param(s, pname)));
    }
    (advertised, out)
}

/// `MIRROR_CLAMP_EXT` set on a sampler: the error and the mode read back.
fn mirror_clamp_ext(gl: &mut dyn ParamGl) -> (GLenum, GLint) {
    let s = gl.gen_sampler();
    gl.sampler_parameteri(s, TEXTURE_WRAP_T, MIRROR_CLAMP_EXT as GLint);
    (gl.get_error(), gl.sampler_param(s, TEXTURE_WRAP_T))
}

/// A listed difference: native Mesa takes `EXT_texture_mirror_clamp`'s `MIRROR_CLAMP_EXT`
/// (a compatibility-profile mode it does not advertise in a core context, whose driver flag
/// is on all the same), which Tessera refuses as GL 4.6 core does (Vulkan has no such mode).
#[test]
fn mirror_clamp_ext_is_refused_where_native_takes_it() {
    let (native, ours) = compare_by(mirror_clamp_ext, |_, _| true);
    assert_eq!(native, (NO_ERROR, MIRROR_CLAMP_EXT as GLint));
    for got in ours {
        assert_eq!(got, (INVALID_ENUM, REPEAT as GLint));
    }
}

#[test]
fn mirror_clamp_to_edge_state_matches_the_native_driver() {
    let (advertised, lines) = compare(transcript);
    assert!(advertised);
    for line in &lines {
        match line.0 {
            "rectangle refuses it" => {
                assert_eq!(line.1, INVALID_ENUM);
                assert_eq!(line.2, CLAMP_TO_EDGE as GLint);
            }
            _ => assert_eq!((line.1, line.2), (NO_ERROR, MIRROR_CLAMP_TO_EDGE as GLint)),
        }
    }
}

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
out vec2 coord;
void main() {
    gl_Position = vec4(position, 0.0, 1.0);
    // From -2.5 to 3.5 across the frame, in both directions.
    coord = position * 3.0 + 0.5;
}
";

const FS: &str = "#version 330
uniform sampler2D tex;
in vec2 coord;
out vec4 color;
void main() { color = texture(tex, coord); }
";

fn build_program(gl: &mut dyn ParamGl) -> GLuint {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)] {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        assert_eq!(
            gl.get_shaderi(s, COMPILE_STATUS),
            TRUE as i32,
            "{}",
            gl.shader_info_log(s)
        );
        gl.attach_shader(p, s);
    }
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "{}",
        gl.program_info_log(p)
    );
    p
}

/// A 5x2 texture of distinct texels sampled from -2.5 to 3.5 across a 40x4 frame: once with
/// `MIRROR_CLAMP_TO_EDGE` set on the texture (S) and nearest filters, once through a sampler
/// object (S and T) with linear filters, once with the texture's S and T mirrored and
/// clamped and linear filtering. Each frame's RGBA8 bytes.
fn frames(gl: &mut dyn ParamGl) -> Vec<Vec<u8>> {
    let p = build_program(gl);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let quad: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    gl.buffer_data(ARRAY_BUFFER, quad.len(), Some(&quad), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let texels: Vec<u8> = (0..10u8)
        .flat_map(|i| [i * 25, 250 - i * 20, (i % 3) * 100, 255])
        .collect();
    let tex = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, tex);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        5,
        2,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&texels),
    );
    let loc = gl.get_uniform_location(p, "tex");
    gl.uniform1i(loc, 0);
    gl.viewport(0, 0, WIDTH, HEIGHT);
    let read = |gl: &mut dyn ParamGl| {
        gl.clear_color(0.0, 0.0, 0.0, 0.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        let mut out = vec![0u8; (WIDTH * HEIGHT * 4) as usize];
        gl.read_pixels(0, 0, WIDTH, HEIGHT, RGBA, UNSIGNED_BYTE, &mut out);
        assert_eq!(gl.get_error(), NO_ERROR);
        out
    };
    let mut frames = Vec::new();
    for (pname, value) in [
        (TEXTURE_MIN_FILTER, NEAREST),
        (TEXTURE_MAG_FILTER, NEAREST),
        (TEXTURE_WRAP_S, MIRROR_CLAMP_TO_EDGE),
        (TEXTURE_WRAP_T, CLAMP_TO_EDGE),
    ] {
        gl.tex_parameteri(TEXTURE_2D, pname, value as GLint);
    }
    frames.push(read(gl));
    let s = gl.gen_sampler();
    for (pname, value) in [
        (TEXTURE_MIN_FILTER, LINEAR),
        (TEXTURE_MAG_FILTER, LINEAR),
        (TEXTURE_WRAP_S, MIRROR_CLAMP_TO_EDGE),
        (TEXTURE_WRAP_T, MIRROR_CLAMP_TO_EDGE),
    ] {
        gl.sampler_parameteri(s, pname, value as GLint);
    }
    gl.bind_sampler(0, s);
    frames.push(read(gl));
    gl.bind_sampler(0, 0);
    for (pname, value) in [
        (TEXTURE_MIN_FILTER, LINEAR),
        (TEXTURE_MAG_FILTER, LINEAR),
        (TEXTURE_WRAP_T, MIRROR_CLAMP_TO_EDGE),
    ] {
        gl.tex_parameteri(TEXTURE_2D, pname, value as GLint);
    }
    frames.push(read(gl));
    frames
}

#[test]
fn mirror_clamp_to_edge_samples_as_the_native_driver() {
    // The nearest frame matches exactly; linear filtering may round one step apart (native
    // llvmpipe's GLES and desktop contexts differ so too).
    let (frames, _) = compare_by(frames, |a, b| {
        a[0] == b[0]
            && a.iter().zip(b).all(|(x, y)| {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.abs_diff(*q) <= 1)
            })
    });
    // Nearest, bottom row: the coordinate runs from -2.5 to 3.5 over 40 pixels; pixel 0
    // (s = -2.425) mirrors to 2.425, past the edge: texel 4. Pixel 18 (s = 0.275, texel 1)
    // and pixel 17 (s = 0.125, texel 0).
    let texel = |i: u8| [i * 25, 250 - i * 20, (i % 3) * 100, 255];
    let px = |f: &Vec<u8>, x: usize| [f[4 * x], f[4 * x + 1], f[4 * x + 2], f[4 * x + 3]];
    assert_eq!(px(&frames[0], 0), texel(4));
    assert_eq!(px(&frames[0], 17), texel(0));
    assert_eq!(px(&frames[0], 18), texel(1));
    // Mirrored: s = -0.125 (pixel 15) reads texel 0 as s = 0.125 does.
    assert_eq!(px(&frames[0], 15), texel(0));
    assert_ne!(frames[1], frames[0]);
}

//! Anisotropic filtering (`GL_ARB_texture_filter_anisotropic`, GL 4.6, and
//! `GL_EXT_texture_filter_anisotropic`) against the native driver on both backends (Vulkan
//! with the validation layer on, which must report nothing): `MAX_TEXTURE_MAX_ANISOTROPY`,
//! `TEXTURE_MAX_ANISOTROPY` on textures and sampler objects with Mesa's errors and clamping,
//! and frames of a texture minified sixteen times more along one axis than the other,
//! filtered with and without anisotropy, through texture parameters and a sampler object.
//! Values and errors must be exactly the native ones, pixels within one step (llvmpipe's
//! GLES and desktop contexts round filtered texels one step apart).

use tessera_engine::gl::*;
use tessera_tests::params::{self, ParamGl};

const WIDTH: i32 = 32;
const HEIGHT: i32 = 32;

/// [`params::compare_by`] on this file's target size.
fn compare_by<T: std::fmt::Debug>(
    scene: impl Fn(&mut dyn ParamGl) -> T,
    same: impl Fn(&T, &T) -> bool,
) -> (T, Vec<T>) {
    params::compare_by(WIDTH, HEIGHT, scene, same)
}

/// What was done, the error, and the value read back.
type Line = (&'static str, GLenum, GLfloat);

fn transcript(gl: &mut dyn ParamGl) -> (bool, bool, Vec<Line>) {
    let arb = gl.advertises("GL_ARB_texture_filter_anisotropic");
    let ext = gl.advertises("GL_EXT_texture_filter_anisotropic");
    let mut out: Vec<Line> = Vec::new();
    let mut max = [-7.0];
    gl.get_floatv(MAX_TEXTURE_MAX_ANISOTROPY, &mut max);
    let e = gl.get_error();
    out.push(("MAX_TEXTURE_MAX_ANISOTROPY", e, max[0]));
    let tex = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, tex);
    out.push((
        "texture: initial",
        gl.get_error(),
        gl.tex_paramf(TEXTURE_2D, TEXTURE_MAX_ANISOTROPY),
    ));
    for (what, v) in [
        ("texture: 1 again", 1.0),
        ("texture: 0.5", 0.5),
        ("texture: 4", 4.0),
        ("texture: 4 again", 4.0),
        ("texture: 0", 0.0),
        ("texture: 100", 100.0),
        ("texture: 2.5", 2.5),
        ("texture: NaN", f32::NAN),
        ("texture: -inf", f32::NEG_INFINITY),
    ] {
        gl.tex_parameterf(TEXTURE_2D, TEXTURE_MAX_ANISOTROPY, v);
        let e = gl.get_error();
        out.push((what, e, gl.tex_paramf(TEXTURE_2D, TEXTURE_MAX_ANISOTROPY)));
    }
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_ANISOTROPY, 3);
    let e = gl.get_error();
    out.push((
        "texture: 3 as an integer",
        e,
        gl.tex_param(TEXTURE_2D, TEXTURE_MAX_ANISOTROPY) as f32,
    ));
    let rect = gl.gen_texture();
    gl.bind_texture(TEXTURE_RECTANGLE, rect);
    gl.tex_parameterf(TEXTURE_RECTANGLE, TEXTURE_MAX_ANISOTROPY, 8.0);
    let e = gl.get_error();
    out.push((
        "rectangle: 8",
        e,
        gl.tex_paramf(TEXTURE_RECTANGLE, TEXTURE_MAX_ANISOTROPY),
    ));
    let ms = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D_MULTISAMPLE, ms);
    gl.tex_parameterf(TEXTURE_2D_MULTISAMPLE, TEXTURE_MAX_ANISOTROPY, 8.0);
    let e = gl.get_error();
    out.push((
        "multisample: 8",
        e,
        gl.tex_paramf(TEXTURE_2D_MULTISAMPLE, TEXTURE_MAX_ANISOTROPY),
    ));
    let e = gl.get_error();
    out.push(("multisample: query", e, 0.0));
    let s = gl.gen_sampler();
    out.push((
        "sampler: initial",
        gl.get_error(),
        gl.sampler_paramf(s, TEXTURE_MAX_ANISOTROPY),
    ));
    for (what, v) in [
        ("sampler: 0.5", 0.5),
        ("sampler: 16", 16.0),
        ("sampler: 17", 17.0),
        ("sampler: 1.5", 1.5),
        ("sampler: NaN", f32::NAN),
    ] {
        gl.sampler_parameterf(s, TEXTURE_MAX_ANISOTROPY, v);
        let e = gl.get_error();
        out.push((what, e, gl.sampler_paramf(s, TEXTURE_MAX_ANISOTROPY)));
    }
    gl.sampler_parameteri(s, TEXTURE_MAX_ANISOTROPY, 0);
    let e = gl.get_error();
    out.push((
        "sampler: 0 as an integer",
        e,
        gl.sampler_param(s, TEXTURE_MAX_ANISOTROPY) as f32,
    ));
    (arb, ext, out)
}

/// Lines compare by their bits, so that NaNs compare too.
fn same_lines(a: &(bool, bool, Vec<Line>), b: &(bool, bool, Vec<Line>)) -> bool {
    a.0 == b.0
        && a.1 == b.1
        && a.2.len() == b.2.len()
        && a.2
            .iter()
            .zip(&b.2)
            .all(|(x, y)| x.0 == y.0 && x.1 == y.1 && x.2.to_bits() == y.2.to_bits())
}

#[test]
fn anisotropy_state_matches_the_native_driver() {
    let ((arb, ext, lines), _) = compare_by(transcript, same_lines);
    assert!(arb && ext);
    let find = |what: &str| {
        *lines
            .iter()
            .find(|l| l.0 == what)
            .unwrap_or_else(|| panic!("{what}"))
    };
    assert_eq!(
        find("MAX_TEXTURE_MAX_ANISOTROPY"),
        ("MAX_TEXTURE_MAX_ANISOTROPY", NO_ERROR, 16.0)
    );
    assert_eq!(find("texture: 0.5").1, INVALID_VALUE);
    assert_eq!(find("texture: 100").2, 16.0);
    assert_eq!(find("sampler: 17").2, 16.0);
}

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
out vec2 coord;
void main() {
    gl_Position = vec4(position, 0.0, 1.0);
    // Sixteen repeats across, one down: each pixel covers 16 times more texels along s.
    coord = (position * 0.5 + 0.5) * vec2(16.0, 1.0);
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

/// A 64x64 texture of stripes and checks with its mipmaps, drawn into the 32x32 frame
/// minified 32 times along s and twice along t: with trilinear filtering alone, with the
/// texture's anisotropy at 16, then through a sampler object without anisotropy (the
/// texture's 16 ignored) and with 4. Each frame's RGBA8 bytes.
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
    let texels: Vec<u8> = (0..64u32)
        .flat_map(|y| {
            (0..64u32).flat_map(move |x| {
                let stripe = if (x / 2) % 2 == 0 { 255 } else { 0 };
                let check = if ((x / 8) + (y / 8)) % 2 == 0 {
                    200
                } else {
                    40
                };
                [stripe as u8, check as u8, (x * 4) as u8, 255]
            })
        })
        .collect();
    let tex = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, tex);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        64,
        64,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&texels),
    );
    gl.generate_mipmap(TEXTURE_2D);
    gl.tex_parameteri(
        TEXTURE_2D,
        TEXTURE_MIN_FILTER,
        LINEAR_MIPMAP_LINEAR as GLint,
    );
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, LINEAR as GLint);
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
    let mut frames = vec![read(gl)];
    gl.tex_parameterf(TEXTURE_2D, TEXTURE_MAX_ANISOTROPY, 16.0);
    frames.push(read(gl));
    let s = gl.gen_sampler();
    gl.sampler_parameteri(s, TEXTURE_MIN_FILTER, LINEAR_MIPMAP_LINEAR as GLint);
    gl.sampler_parameteri(s, TEXTURE_MAG_FILTER, LINEAR as GLint);
    gl.bind_sampler(0, s);
    frames.push(read(gl));
    gl.sampler_parameterf(s, TEXTURE_MAX_ANISOTROPY, 4.0);
    frames.push(read(gl));
    gl.bind_sampler(0, 0);
    frames
}

#[test]
fn anisotropic_filtering_draws_as_the_native_driver() {
    let (frames, _) = compare_by(frames, |a, b| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.abs_diff(*q) <= 1)
            })
    });
    // Anisotropy changes the frame: the stripes survive it, where trilinear filtering
    // blurs them into grey.
    assert_ne!(frames[0], frames[1]);
    // A sampler object's parameters replace the texture's.
    assert_eq!(frames[2], frames[0]);
    assert_ne!(frames[3], frames[0]);
}

//! Differential: `FRAMEBUFFER_SRGB` against the native driver. Desktop GL converts linear
//! colour to sRGB when writing, blending and clearing an sRGB-encoded colour image only while
//! `FRAMEBUFFER_SRGB` is enabled, and stores values as they are while it is disabled; blits
//! decode and encode by the same switch (Mesa: a blit between sRGB images converts only with
//! `FRAMEBUFFER_SRGB` on). Every step reads the image's bytes back (`ReadPixels` converts
//! nothing), and the native driver's bytes are the expectation, on both backends.

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::{
    Backend, assert_no_backend_events, assert_same_steps, tessera_on,
};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

/// What one step read back: a label and the 4 x 4 image's bytes.
type Log = Vec<(String, Vec<u8>)>;

const SIZE: i32 = 4;

const VS: &str = "#version 330 core
void main() {
    vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));
    gl_Position = vec4(p, 0.0, 1.0);
}
";
const FS: &str = "#version 330 core
uniform vec4 color;
out vec4 frag;
void main() { frag = color; }
";

/// Reads the bound read framebuffer's colour (and the error so far) into the log.
fn read(log: &mut Log, gl: &mut dyn Gl, label: &str) {
    let mut px = vec![0u8; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
    let error = gl.get_error();
    px.extend_from_slice(&error.to_le_bytes());
    log.push((label.to_owned(), px));
}

/// A 4 x 4 texture of `format` holding `data` (or undefined), attached to a new
/// framebuffer; the framebuffer is left bound to both targets.
fn texture_fbo(gl: &mut dyn Gl, format: GLenum, data: Option<&[u8]>) -> GLuint {
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as GLint);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        format as GLint,
        SIZE,
        SIZE,
        0,
        RGBA,
        UNSIGNED_BYTE,
        data,
    );
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, t, 0);
    fb
}

/// Texel bytes that cover dark and bright values in every channel.
fn pattern() -> Vec<u8> {
    (0..SIZE * SIZE * 4)
        .map(|i| ((i * 37 + 11) % 256) as u8)
        .collect()
}

fn set_srgb(gl: &mut dyn Gl, on: bool) {
    if on {
        gl.enable(FRAMEBUFFER_SRGB);
    } else {
        gl.disable(FRAMEBUFFER_SRGB);
    }
}

fn steps(gl: &mut dyn Gl) -> Log {
    let mut log = Log::new();
    let program = link_program(gl, VS, FS);
    gl.use_program(program);
    let color = gl.get_uniform_location(program, "color");
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    gl.viewport(0, 0, SIZE, SIZE);
    let data = pattern();

    let srgb = texture_fbo(gl, SRGB8_ALPHA8, None);
    for on in [false, true] {
        let s = if on { "on" } else { "off" };
        gl.bind_framebuffer(FRAMEBUFFER, srgb);
        set_srgb(gl, on);
        gl.clear_color(0.5, 0.25, 0.75, 0.5);
        gl.clear(COLOR_BUFFER_BIT);
        read(&mut log, gl, &format!("sRGB {s}: Clear"));
        gl.clear_bufferfv(COLOR, 0, &[0.2, 0.4, 0.6, 0.8]);
        read(&mut log, gl, &format!("sRGB {s}: ClearBufferfv"));
        gl.uniform4f(color, 0.5, 0.25, 0.125, 0.5);
        gl.draw_arrays(TRIANGLES, 0, 3);
        read(&mut log, gl, &format!("sRGB {s}: draw"));
        gl.clear_color(0.5, 0.5, 0.5, 0.5);
        gl.clear(COLOR_BUFFER_BIT);
        gl.enable(BLEND);
        gl.blend_func(SRC_ALPHA, ONE_MINUS_SRC_ALPHA);
        gl.uniform4f(color, 1.0, 0.0, 0.25, 0.25);
        gl.draw_arrays(TRIANGLES, 0, 3);
        gl.disable(BLEND);
        read(&mut log, gl, &format!("sRGB {s}: blended draw"));
        // An RGBA8 attachment next to the sRGB one: the switch changes nothing there.
        texture_fbo(gl, RGBA8, None);
        gl.clear_color(0.5, 0.25, 0.75, 0.5);
        gl.clear(COLOR_BUFFER_BIT);
        read(&mut log, gl, &format!("sRGB {s}: RGBA8 Clear"));
        // Mesa makes every desktop GL default framebuffer sRGB-capable: it converts too.
        gl.bind_framebuffer(FRAMEBUFFER, 0);
        gl.clear(COLOR_BUFFER_BIT);
        read(
            &mut log,
            gl,
            &format!("sRGB {s}: default framebuffer Clear"),
        );
        gl.uniform4f(color, 0.5, 0.25, 0.125, 0.5);
        gl.draw_arrays(TRIANGLES, 0, 3);
        read(&mut log, gl, &format!("sRGB {s}: default framebuffer draw"));

        // Blits between sRGB and RGBA8 images holding the same bytes.
        let sources = [
            ("sRGB", texture_fbo(gl, SRGB8_ALPHA8, Some(&data))),
            ("RGBA8", texture_fbo(gl, RGBA8, Some(&data))),
        ];
        for (from, src) in sources {
            for (to, format) in [("sRGB", SRGB8_ALPHA8), ("RGBA8", RGBA8)] {
                let dst = texture_fbo(gl, format, None);
                gl.bind_framebuffer(READ_FRAMEBUFFER, src);
                gl.blit_framebuffer(
                    0,
                    0,
                    SIZE,
                    SIZE,
                    0,
                    0,
                    SIZE,
                    SIZE,
                    COLOR_BUFFER_BIT,
                    NEAREST,
                );
                gl.bind_framebuffer(READ_FRAMEBUFFER, dst);
                read(&mut log, gl, &format!("sRGB {s}: blit {from} to {to}"));
                // A filtered half-size blit averages decoded or stored values.
                gl.clear_color(0.0, 0.0, 0.0, 0.0);
                gl.clear(COLOR_BUFFER_BIT);
                gl.bind_framebuffer(READ_FRAMEBUFFER, src);
                gl.blit_framebuffer(0, 0, SIZE, SIZE, 0, 0, 2, 2, COLOR_BUFFER_BIT, LINEAR);
                gl.bind_framebuffer(READ_FRAMEBUFFER, dst);
                read(
                    &mut log,
                    gl,
                    &format!("sRGB {s}: linear half-size blit {from} to {to}"),
                );
            }
        }
        // The default framebuffer as a blit source and destination.
        gl.bind_framebuffer(READ_FRAMEBUFFER, sources[0].1);
        gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
        gl.blit_framebuffer(
            0,
            0,
            SIZE,
            SIZE,
            0,
            0,
            SIZE,
            SIZE,
            COLOR_BUFFER_BIT,
            NEAREST,
        );
        gl.bind_framebuffer(READ_FRAMEBUFFER, 0);
        read(&mut log, gl, &format!("sRGB {s}: blit sRGB to default"));
        let dst = texture_fbo(gl, SRGB8_ALPHA8, None);
        gl.bind_framebuffer(READ_FRAMEBUFFER, 0);
        gl.blit_framebuffer(
            0,
            0,
            SIZE,
            SIZE,
            0,
            0,
            SIZE,
            SIZE,
            COLOR_BUFFER_BIT,
            NEAREST,
        );
        gl.bind_framebuffer(READ_FRAMEBUFFER, dst);
        read(&mut log, gl, &format!("sRGB {s}: blit default to sRGB"));
    }
    log
}

#[test]
fn framebuffer_srgb_converts_only_while_enabled_as_on_the_native_driver() {
    let expected = {
        let mut native =
            NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
        steps(&mut native)
    };
    // Spot checks of the rule itself on the native driver: 0.5 stored as 0x80 with the
    // switch off, encoded as 0xbc with it on, in the default framebuffer too; alpha is
    // never converted.
    let at = |label: &str| {
        expected
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, v)| v[..4].to_vec())
            .unwrap_or_else(|| panic!("no step {label}"))
    };
    assert_eq!(at("sRGB off: Clear"), [0x80, 0x40, 0xbf, 0x80]);
    assert_eq!(at("sRGB on: Clear"), [0xbc, 0x89, 0xe1, 0x80]);
    assert_eq!(
        at("sRGB off: default framebuffer Clear"),
        [0x80, 0x40, 0xbf, 0x80]
    );
    assert_eq!(
        at("sRGB on: default framebuffer Clear"),
        [0xbc, 0x89, 0xe1, 0x80]
    );
    for backend in Backend::ALL {
        let t = backend.name();
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let got = steps(&mut ctx);
        assert_same_steps(t, &expected, &got, |v| format!("{v:?}"));
        assert_no_backend_events(&mut ctx, t);
    }
}

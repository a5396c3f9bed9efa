//! Differential: `EXT_texture_integer`'s clear colour (`glClearColorIiEXT`,
//! `glClearColorIuiEXT`) and `RGBA_INTEGER_MODE_EXT`, against the native driver.
//!
//! The clear colour is one value of four words: integer draw buffers read it as integers,
//! whichever call set it (a float clear colour clears them with its bit patterns, as Mesa
//! does), float and normalized ones as floats; `COLOR_CLEAR_VALUE` answers the words as
//! floats. `glClear` clears integer and normalized draw buffers of one framebuffer together,
//! honouring the colour mask of each. `RGBA_INTEGER_MODE_EXT` says whether a colour
//! attachment of the draw framebuffer is an integer image.

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::{
    Backend, assert_no_backend_events, assert_same_steps, tessera_on,
};
use tessera_tests::gl::{Gl, NativeGl};

/// `RGBA_INTEGER_MODE_EXT` (not in `glcorearb.h`).
const RGBA_INTEGER_MODE_EXT: GLenum = 0x8D9E;

/// What one step observed: a label and the value.
type Log = Vec<(String, i64)>;

/// The first pixel of colour attachment `point`, as four words, and the error.
fn read(log: &mut Log, gl: &mut dyn Gl, label: &str, point: GLenum, format: GLenum, ty: GLenum) {
    gl.read_buffer(COLOR_ATTACHMENT0 + point);
    let mut px = [0u8; 16];
    gl.read_pixels(0, 0, 1, 1, format, ty, &mut px);
    let words = match ty {
        UNSIGNED_BYTE => px[..4].iter().map(|b| i64::from(*b)).collect::<Vec<_>>(),
        _ => px
            .chunks(4)
            .map(|w| i64::from(u32::from_le_bytes([w[0], w[1], w[2], w[3]])))
            .collect(),
    };
    for (c, w) in words.iter().enumerate() {
        log.push((format!("{label}: attachment {point} channel {c}"), *w));
    }
    log.push((
        format!("{label}: attachment {point}: error"),
        i64::from(gl.get_error()),
    ));
}

/// The three attachments after a clear: signed, normalized, unsigned.
fn read_all(log: &mut Log, gl: &mut dyn Gl, label: &str) {
    read(log, gl, label, 0, RGBA_INTEGER, INT);
    read(log, gl, label, 1, RGBA, UNSIGNED_BYTE);
    read(log, gl, label, 2, RGBA_INTEGER, UNSIGNED_INT);
}

/// `COLOR_CLEAR_VALUE` as float bit patterns, and `RGBA_INTEGER_MODE_EXT`.
fn state(log: &mut Log, gl: &mut dyn Gl, label: &str) {
    let mut f = [0.0f32; 4];
    gl.get_floatv(COLOR_CLEAR_VALUE, &mut f);
    for (c, v) in f.iter().enumerate() {
        log.push((
            format!("{label}: clear value {c} bits"),
            i64::from(v.to_bits()),
        ));
    }
    let mut mode = [-1];
    gl.get_integerv(RGBA_INTEGER_MODE_EXT, &mut mode);
    log.push((format!("{label}: integer mode"), i64::from(mode[0])));
    log.push((format!("{label}: error"), i64::from(gl.get_error())));
}

/// The steps; `masked` adds a clear through a partial colour mask.
fn steps(gl: &mut dyn Gl, masked: bool) -> Log {
    let mut log = Log::new();
    state(&mut log, gl, "default framebuffer");
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    for (point, (internal, format, ty)) in [
        (RGBA32I, RGBA_INTEGER, INT),
        (RGBA8, RGBA, UNSIGNED_BYTE),
        (RGBA32UI, RGBA_INTEGER, UNSIGNED_INT),
    ]
    .into_iter()
    .enumerate()
    {
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, t);
        gl.tex_image_2d(TEXTURE_2D, 0, internal as GLint, 4, 4, 0, format, ty, None);
        gl.framebuffer_texture_2d(
            FRAMEBUFFER,
            COLOR_ATTACHMENT0 + point as GLenum,
            TEXTURE_2D,
            t,
            0,
        );
    }
    gl.draw_buffers(&[COLOR_ATTACHMENT0, COLOR_ATTACHMENT1, COLOR_ATTACHMENT2]);
    log.push((
        "status".into(),
        i64::from(gl.check_framebuffer_status(FRAMEBUFFER)),
    ));
    state(&mut log, gl, "integer framebuffer");

    gl.clear_color_i(1, -2, 3, i32::MAX);
    state(&mut log, gl, "ClearColorIiEXT");
    gl.clear(COLOR_BUFFER_BIT);
    read_all(&mut log, gl, "ClearColorIiEXT");

    if masked {
        gl.clear_color_ui(7, 0x8000_0000, 9, 10);
        gl.color_mask(1, 0, 1, 0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.color_mask(1, 1, 1, 1);
        read_all(&mut log, gl, "ClearColorIuiEXT, green and alpha masked");
    }

    gl.clear_color(1.0, 0.5, 0.25, 0.0);
    gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
    read_all(&mut log, gl, "ClearColor");

    // Only the normalized buffer drawn: the integer ones keep their values.
    gl.draw_buffers(&[NONE, COLOR_ATTACHMENT1]);
    state(&mut log, gl, "normalized draw buffer only");
    gl.clear_color(0.0, 1.0, 0.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    read_all(&mut log, gl, "normalized draw buffer only");
    log
}

#[test]
fn integer_clear_colour_matches_the_native_driver() {
    let expected = {
        let mut native = NativeGl::new(4, 4).expect("native desktop GL through the system EGL");
        steps(&mut native, false)
    };
    let at = |label: &str| {
        expected
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("no step {label}"))
    };
    // Spot checks of the native answers this module is about.
    assert_eq!(at("ClearColorIiEXT: attachment 0 channel 1"), 0xffff_fffe);
    assert_eq!(at("ClearColor: attachment 2 channel 0"), 0x3f80_0000);
    assert_eq!(at("integer framebuffer: integer mode"), 1);
    // Whether any colour attachment is an integer image, drawn or not.
    assert_eq!(at("normalized draw buffer only: integer mode"), 1);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let t = format!("{}/{}", backend.name(), transport.name());
            let mut ctx = tessera_on(backend, transport, 4, 4);
            let got = steps(&mut ctx, false);
            assert_same_steps(&t, &expected, &got, |v| format!("{v:#x}"));
            assert_no_backend_events(&mut ctx, &t);
        }
    }
}

#[test]
fn masked_integer_clear_matches_the_native_driver() {
    let expected = {
        let mut native = NativeGl::new(4, 4).expect("native desktop GL through the system EGL");
        steps(&mut native, true)
    };
    for backend in Backend::ALL {
        let t = backend.name();
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 4, 4);
        let got = steps(&mut ctx, true);
        assert_same_steps(t, &expected, &got, |v| format!("{v:#x}"));
        assert_no_backend_events(&mut ctx, t);
    }
}

//! Differential: framebuffer completeness, and what draw and read buffers naming an
//! attachment point without an image mean at the verbs, against the native driver.
//!
//! GL 3.3 §4.4.4.2 makes such a framebuffer `FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER` or
//! `FRAMEBUFFER_INCOMPLETE_READ_BUFFER`; GL 4.1 dropped both conditions and Mesa, NVIDIA
//! and AMD apply neither in any context, so Tessera follows the drivers: the framebuffer is
//! complete, writes to a draw buffer without an image are discarded, and reading a read
//! buffer without an image (or `NONE`) is `INVALID_OPERATION` at the verb that reads it.
//! Each step of [`steps`] records what the implementation answered; the native driver's
//! record is the expectation.

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::{
    Backend, assert_no_backend_events, assert_same_steps, tessera_on,
};
use tessera_tests::gl::{Gl, NativeGl};

/// What one step observed: a label and the value (a status, an error, a query).
type Log = Vec<(String, i64)>;

fn note(log: &mut Log, gl: &mut dyn Gl, label: &str) {
    log.push((format!("{label}: error"), i64::from(gl.get_error())));
}

fn status(log: &mut Log, gl: &mut dyn Gl, label: &str) {
    let draw = gl.check_framebuffer_status(DRAW_FRAMEBUFFER);
    let read = gl.check_framebuffer_status(READ_FRAMEBUFFER);
    log.push((format!("{label}: draw status"), i64::from(draw)));
    log.push((format!("{label}: read status"), i64::from(read)));
    note(log, gl, label);
}

/// One integer query: its error, and its value when it raised none (Mesa writes 0 where
/// it raises an error; GL leaves the output alone).
fn int(log: &mut Log, gl: &mut dyn Gl, label: &str, pname: GLenum) {
    let mut v = [-1];
    gl.get_integerv(pname, &mut v);
    let error = gl.get_error();
    log.push((format!("{label}: {pname:#x}: error"), i64::from(error)));
    if error == NO_ERROR {
        log.push((format!("{label}: {pname:#x}"), i64::from(v[0])));
    }
}

/// The read verbs on the bound read framebuffer, each with the error it raised.
fn reads(log: &mut Log, gl: &mut dyn Gl, label: &str, copy_target: GLuint) {
    let mut rgba = [0u8; 16];
    gl.read_pixels(0, 0, 1, 1, RGBA, UNSIGNED_BYTE, &mut rgba);
    note(log, gl, &format!("{label}: ReadPixels(RGBA)"));
    let mut depth = [0u8; 16];
    gl.read_pixels(0, 0, 1, 1, DEPTH_COMPONENT, FLOAT, &mut depth);
    note(log, gl, &format!("{label}: ReadPixels(DEPTH_COMPONENT)"));
    // (Not glCopyTexImage2D: Mesa 22 crashes copying from a read buffer without an image;
    // `framebuffer::draw_and_read_buffers_without_images_leave_a_framebuffer_complete`
    // checks Tessera's INVALID_OPERATION.)
    gl.bind_texture(TEXTURE_2D, copy_target);
    gl.copy_tex_sub_image_2d(TEXTURE_2D, 0, 0, 0, 0, 0, 2, 2);
    note(log, gl, &format!("{label}: CopyTexSubImage2D"));
}

/// Blits colour, then depth, from the bound read framebuffer to `dst`.
fn blits(log: &mut Log, gl: &mut dyn Gl, label: &str, dst: GLuint) {
    gl.bind_framebuffer(DRAW_FRAMEBUFFER, dst);
    for (mask, name) in [(COLOR_BUFFER_BIT, "colour"), (DEPTH_BUFFER_BIT, "depth")] {
        gl.blit_framebuffer(0, 0, 4, 4, 0, 0, 4, 4, mask, NEAREST);
        note(log, gl, &format!("{label}: BlitFramebuffer({name})"));
    }
}

fn renderbuffer(gl: &mut dyn Gl, format: GLenum) -> GLuint {
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, format, 4, 4);
    rb
}

fn steps(gl: &mut dyn Gl) -> Log {
    let mut log = Log::new();
    let color = renderbuffer(gl, RGBA8);
    let depth = renderbuffer(gl, DEPTH_COMPONENT24);
    let copy_target = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, copy_target);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        4,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    // A blit destination with colour and depth.
    let dst = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, dst);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, color);
    let dst_depth = renderbuffer(gl, DEPTH_COMPONENT24);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, DEPTH_ATTACHMENT, RENDERBUFFER, dst_depth);
    status(&mut log, gl, "blit destination");

    // Depth only, with the default draw and read buffers (COLOR_ATTACHMENT0).
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    status(&mut log, gl, "no attachment");
    int(
        &mut log,
        gl,
        "no attachment",
        IMPLEMENTATION_COLOR_READ_FORMAT,
    );
    gl.framebuffer_renderbuffer(FRAMEBUFFER, DEPTH_ATTACHMENT, RENDERBUFFER, depth);
    status(&mut log, gl, "depth only");
    int(&mut log, gl, "depth only", DRAW_BUFFER0);
    int(&mut log, gl, "depth only", READ_BUFFER);
    int(&mut log, gl, "depth only", IMPLEMENTATION_COLOR_READ_FORMAT);
    int(&mut log, gl, "depth only", IMPLEMENTATION_COLOR_READ_TYPE);
    gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
    note(&mut log, gl, "depth only: Clear");
    gl.clear_bufferfv(COLOR, 0, &[1.0; 4]);
    note(&mut log, gl, "depth only: ClearBufferfv(COLOR, 0)");
    gl.clear_bufferfv(DEPTH, 0, &[0.5]);
    note(&mut log, gl, "depth only: ClearBufferfv(DEPTH, 0)");
    reads(&mut log, gl, "depth only", copy_target);
    blits(&mut log, gl, "depth only", dst);

    // The same with draw and read buffers NONE.
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.draw_buffer(NONE);
    gl.read_buffer(NONE);
    status(&mut log, gl, "depth only, buffers NONE");
    int(
        &mut log,
        gl,
        "depth only, buffers NONE",
        IMPLEMENTATION_COLOR_READ_FORMAT,
    );
    reads(&mut log, gl, "depth only, buffers NONE", copy_target);
    blits(&mut log, gl, "depth only, buffers NONE", dst);

    // Colour at attachment 1 only, default buffers naming attachment 0.
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT1, RENDERBUFFER, color);
    status(&mut log, gl, "colour at 1");
    gl.clear(COLOR_BUFFER_BIT);
    note(&mut log, gl, "colour at 1: Clear");
    reads(&mut log, gl, "colour at 1", copy_target);
    blits(&mut log, gl, "colour at 1", dst);
    // Read buffer on the image: reads work; draw buffers naming both points.
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.read_buffer(COLOR_ATTACHMENT1);
    gl.draw_buffers(&[COLOR_ATTACHMENT0, COLOR_ATTACHMENT1]);
    status(&mut log, gl, "colour at 1, read buffer 1");
    int(
        &mut log,
        gl,
        "colour at 1, read buffer 1",
        IMPLEMENTATION_COLOR_READ_FORMAT,
    );
    gl.clear(COLOR_BUFFER_BIT);
    note(&mut log, gl, "colour at 1, read buffer 1: Clear");
    for i in 0..2 {
        gl.clear_bufferfv(COLOR, i, &[0.25; 4]);
        note(
            &mut log,
            gl,
            &format!("colour at 1, read buffer 1: ClearBufferfv(COLOR, {i})"),
        );
    }
    reads(&mut log, gl, "colour at 1, read buffer 1", copy_target);
    blits(&mut log, gl, "colour at 1, read buffer 1", dst);

    // A layered depth-only framebuffer (piglit's layered-rendering@clear-depth).
    let layers = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D_ARRAY, layers);
    gl.tex_image_3d(
        TEXTURE_2D_ARRAY,
        0,
        DEPTH_COMPONENT32F as GLint,
        4,
        4,
        3,
        0,
        DEPTH_COMPONENT,
        FLOAT,
        None,
    );
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture(FRAMEBUFFER, DEPTH_ATTACHMENT, layers, 0);
    status(&mut log, gl, "layered depth only");
    gl.clear(DEPTH_BUFFER_BIT);
    note(&mut log, gl, "layered depth only: Clear");

    // Completeness reasons that remain: an attachment without an image wins over buffers.
    let empty = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, empty);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, DEPTH_ATTACHMENT, RENDERBUFFER, empty);
    status(&mut log, gl, "depth renderbuffer without storage");
    gl.clear(DEPTH_BUFFER_BIT);
    note(&mut log, gl, "depth renderbuffer without storage: Clear");
    let mut rgba = [0u8; 16];
    gl.read_pixels(0, 0, 1, 1, RGBA, UNSIGNED_BYTE, &mut rgba);
    note(
        &mut log,
        gl,
        "depth renderbuffer without storage: ReadPixels",
    );
    log
}

#[test]
fn completeness_and_buffer_errors_match_the_native_driver() {
    let expected = {
        let mut native = NativeGl::new(4, 4).expect("native desktop GL through the system EGL");
        steps(&mut native)
    };
    // Spot checks of the native answers this module is about.
    let at = |label: &str| {
        expected
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("no step {label}"))
    };
    assert_eq!(
        at("depth only: draw status"),
        i64::from(FRAMEBUFFER_COMPLETE)
    );
    assert_eq!(
        at("depth only: ReadPixels(RGBA): error"),
        i64::from(INVALID_OPERATION)
    );
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let t = format!("{}/{}", backend.name(), transport.name());
            let mut ctx = tessera_on(backend, transport, 4, 4);
            let got = steps(&mut ctx);
            assert_same_steps(&t, &expected, &got, |v| format!("{v:#x}"));
            assert_no_backend_events(&mut ctx, &t);
        }
    }
}

/// Framebuffer `SAMPLES` of a framebuffer whose only attachments are a multisample RGBA8
/// texture and/or RGBA8 and depth renderbuffers, each asked for `asked` samples, with its
/// completeness; `tex` and `rb` receive the texture and colour renderbuffer for the caller.
fn sample_steps(gl: &mut dyn Gl, tex: &mut Vec<GLuint>, rb: &mut Vec<GLuint>) -> Log {
    let mut log = Log::new();
    for asked in 1..=4 {
        let fbo = gl.gen_framebuffer();
        gl.bind_framebuffer(FRAMEBUFFER, fbo);
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D_MULTISAMPLE, t);
        gl.tex_image_2d_multisample(TEXTURE_2D_MULTISAMPLE, asked, RGBA8 as GLint, 4, 4, 1);
        note(&mut log, gl, &format!("texture of {asked}"));
        gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D_MULTISAMPLE, t, 0);
        status(&mut log, gl, &format!("texture of {asked}"));
        int(&mut log, gl, &format!("texture of {asked}"), SAMPLES);
        let depth = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, depth);
        gl.renderbuffer_storage_multisample(RENDERBUFFER, asked, DEPTH_COMPONENT24, 4, 4);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, DEPTH_ATTACHMENT, RENDERBUFFER, depth);
        status(
            &mut log,
            gl,
            &format!("texture and depth renderbuffer of {asked}"),
        );
        let colour = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, colour);
        gl.renderbuffer_storage_multisample(RENDERBUFFER, asked, RGBA8, 4, 4);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, colour);
        status(&mut log, gl, &format!("renderbuffers of {asked}"));
        int(&mut log, gl, &format!("renderbuffers of {asked}"), SAMPLES);
        gl.bind_framebuffer(FRAMEBUFFER, 0);
        tex.push(t);
        rb.push(colour);
    }
    log
}

#[test]
fn sample_counts_round_up_as_on_the_native_driver() {
    // GL lets an implementation give more samples than asked; native llvmpipe has 1 and 4,
    // so every count from 1 to 4 gets 4. Tessera decides the count in the engine from the
    // counts the backend reported at start-up, so the GLES backend's driver and the Vulkan
    // backend's device agree with what the queries say.
    let (mut tex, mut rb) = (Vec::new(), Vec::new());
    let expected = {
        let mut native = NativeGl::new(4, 4).expect("native desktop GL through the system EGL");
        sample_steps(&mut native, &mut tex, &mut rb)
    };
    let samples_of = |asked: i32, what: &str| {
        let label = format!("{what} of {asked}: {SAMPLES:#x}");
        expected
            .iter()
            .find(|(l, _)| *l == label)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("no step {label}"))
    };
    for asked in 1..=4 {
        assert_eq!(samples_of(asked, "texture"), 4, "native, {asked} asked");
        assert_eq!(
            samples_of(asked, "renderbuffers"),
            4,
            "native, {asked} asked"
        );
    }
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let t = format!("{}/{}", backend.name(), transport.name());
            let mut ctx = tessera_on(backend, transport, 4, 4);
            let (mut tex, mut rb) = (Vec::new(), Vec::new());
            let got = sample_steps(&mut ctx, &mut tex, &mut rb);
            assert_same_steps(&t, &expected, &got, |v| format!("{v:#x}"));
            for (i, (&tex, &rb)) in tex.iter().zip(&rb).enumerate() {
                let asked = i as i32 + 1;
                let mut v = [-1];
                ctx.bind_texture(TEXTURE_2D_MULTISAMPLE, tex);
                ctx.get_tex_level_parameteriv(TEXTURE_2D_MULTISAMPLE, 0, TEXTURE_SAMPLES, &mut v);
                assert_eq!(
                    i64::from(v[0]),
                    samples_of(asked, "texture"),
                    "{t}: TEXTURE_SAMPLES, {asked} asked"
                );
                ctx.bind_renderbuffer(RENDERBUFFER, rb);
                ctx.get_renderbuffer_parameteriv(RENDERBUFFER, RENDERBUFFER_SAMPLES, &mut v);
                assert_eq!(
                    i64::from(v[0]),
                    samples_of(asked, "renderbuffers"),
                    "{t}: RENDERBUFFER_SAMPLES, {asked} asked"
                );
            }
            assert_eq!(ctx.get_error(), NO_ERROR, "{t}");
            assert_no_backend_events(&mut ctx, &t);
        }
    }
}

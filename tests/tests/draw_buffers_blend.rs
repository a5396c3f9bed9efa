//! Per-draw-buffer blending (`ARB_draw_buffers_blend`, GL 4.0) against the native driver on
//! both backends (Vulkan with the validation layer on, which must report nothing): four
//! colour attachments, each with its own enable, factors, equations and write mask, the
//! non-indexed calls setting every draw buffer again, the indexed queries, the errors in
//! Mesa's order, and steady frames that make no pipeline. Pixels, values and errors must be
//! exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's glIsEnabled(i), called through their C signatures"
)]

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The indexed queries these scenes make that the shared [`Gl`] table has no entry for.
trait BlendGl: Gl {
    /// `glGetIntegeri_v` of one value.
    fn get_integer_i(&mut self, target: GLenum, index: GLuint) -> GLint;
    /// `glIsEnabledi`.
    fn is_enabled_i(&mut self, cap: GLenum, index: GLuint) -> bool;
    /// `glIsEnabled`.
    fn is_enabled_cap(&mut self, cap: GLenum) -> bool;
}

impl BlendGl for Context {
    fn get_integer_i(&mut self, target: GLenum, index: GLuint) -> GLint {
        let mut v = [0];
        self.get_integeri_v(target, index, &mut v);
        v[0]
    }
    fn is_enabled_i(&mut self, cap: GLenum, index: GLuint) -> bool {
        self.is_enabledi(cap, index) != 0
    }
    fn is_enabled_cap(&mut self, cap: GLenum) -> bool {
        self.is_enabled(cap) != 0
    }
}

impl BlendGl for NativeGl {
    fn get_integer_i(&mut self, target: GLenum, index: GLuint) -> GLint {
        self.get_integer_index(target, index)
    }
    fn is_enabled_i(&mut self, cap: GLenum, index: GLuint) -> bool {
        type F = unsafe extern "system" fn(GLenum, GLuint) -> GLboolean;
        let f: F = self
            .entry_point("glIsEnabledi")
            .unwrap_or_else(|e| panic!("glIsEnabledi: {e}"));
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(cap, index) != 0 }
    }
    fn is_enabled_cap(&mut self, cap: GLenum) -> bool {
        type F = unsafe extern "system" fn(GLenum) -> GLboolean;
        let f: F = self
            .entry_point("glIsEnabled")
            .unwrap_or_else(|e| panic!("glIsEnabled: {e}"));
        // SAFETY: as above.
        unsafe { f(cap) != 0 }
    }
}

/// A square over the left three quarters of the target, the same colour to every output.
const VS: &str = "#version 330
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

const FS: &str = "#version 330
uniform vec4 color;
layout(location = 0) out vec4 out0;
layout(location = 1) out vec4 out1;
layout(location = 2) out vec4 out2;
layout(location = 3) out vec4 out3;
void main() { out0 = color; out1 = color; out2 = color; out3 = color; }
";

const SIZE: i32 = 16;
const BUFFERS: usize = 4;

/// The clear colour of each attachment.
const CLEARS: [[f32; 4]; BUFFERS] = [
    [0.2, 0.4, 0.6, 0.8],
    [0.5, 0.5, 0.5, 0.5],
    [1.0, 0.0, 0.0, 1.0],
    [0.0, 0.0, 1.0, 0.25],
];

fn shader(gl: &mut dyn BlendGl, kind: GLenum, src: &str) -> GLuint {
    let s = gl.create_shader(kind);
    gl.shader_source(s, src);
    gl.compile_shader(s);
    assert_eq!(
        gl.get_shaderi(s, COMPILE_STATUS),
        TRUE as i32,
        "{}",
        gl.shader_info_log(s)
    );
    s
}

/// Builds the program, the square and a framebuffer of four RGBA8 renderbuffers drawn
/// all at once; returns the colour uniform's location.
fn setup(gl: &mut dyn BlendGl) -> GLint {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)] {
        let s = shader(gl, kind, src);
        gl.attach_shader(p, s);
    }
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "{}",
        gl.program_info_log(p)
    );
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let square: Vec<u8> = [-1.0f32, -1.0, 0.5, -1.0, -1.0, 1.0, 0.5, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    gl.buffer_data(ARRAY_BUFFER, square.len(), Some(&square), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let fbo = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fbo);
    let mut draw = Vec::new();
    for i in 0..BUFFERS as GLenum {
        let rb = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, rb);
        gl.renderbuffer_storage(RENDERBUFFER, RGBA8, SIZE, SIZE);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0 + i, RENDERBUFFER, rb);
        draw.push(COLOR_ATTACHMENT0 + i);
    }
    gl.draw_buffers(&draw);
    gl.viewport(0, 0, SIZE, SIZE);
    assert_eq!(gl.get_error(), NO_ERROR);
    gl.get_uniform_location(p, "color")
}

/// Clears every attachment to its colour.
fn clear(gl: &mut dyn BlendGl) {
    // Clears honour the write masks: open them for the clear.
    gl.color_mask(1, 1, 1, 1);
    for (i, c) in CLEARS.iter().enumerate() {
        gl.clear_bufferfv(COLOR, i as GLint, c);
    }
}

/// The pixels of every attachment.
fn pixels(gl: &mut dyn BlendGl) -> Vec<Vec<u8>> {
    (0..BUFFERS as GLenum)
        .map(|i| {
            gl.read_buffer(COLOR_ATTACHMENT0 + i);
            let mut out = vec![0u8; (SIZE * SIZE * 4) as usize];
            gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut out);
            out
        })
        .collect()
}

/// Gives each draw buffer its own blend state: 0 does not blend, 1 blends by source alpha,
/// 2 subtracts the destination from the source without writing green, 3 takes the maximum
/// of its RGB and adds its alpha by separate factors.
fn per_buffer_state(gl: &mut dyn BlendGl) {
    gl.enable(BLEND);
    gl.blend_func(ONE, ONE);
    gl.disablei(BLEND, 0);
    gl.blend_funci(1, SRC_ALPHA, ONE_MINUS_SRC_ALPHA);
    gl.blend_equationi(2, FUNC_REVERSE_SUBTRACT);
    gl.blend_func_separatei(3, ONE, ONE, ZERO, ONE);
    gl.blend_equation_separatei(3, MAX, FUNC_ADD);
    gl.color_maski(2, 1, 0, 1, 1);
}

/// Draws the square with per-buffer state, then again after the non-indexed calls set every
/// draw buffer's function and equation: the pixels of each attachment after each draw.
fn draws(gl: &mut dyn BlendGl) -> Vec<Vec<Vec<u8>>> {
    let color = setup(gl);
    gl.uniform4fv(color, &[0.25, 0.5, 0.75, 0.5]);
    let mut out = Vec::new();
    clear(gl);
    per_buffer_state(gl);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    out.push(pixels(gl));
    // The non-indexed calls replace every buffer's state (draw buffer 0 stays disabled).
    clear(gl);
    gl.color_maski(2, 1, 0, 1, 1);
    gl.blend_func_separate(DST_COLOR, ZERO, ONE, ONE);
    gl.blend_equation(FUNC_ADD);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    out.push(pixels(gl));
    // One buffer's equation again, the others keep the shared one.
    clear(gl);
    gl.blend_equationi(1, MIN);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    out.push(pixels(gl));
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

/// Every indexed and non-indexed blend query, with the error each raised.
fn queries(gl: &mut dyn BlendGl) -> Vec<(GLenum, i64, GLint, GLenum)> {
    per_buffer_state(gl);
    let mut out = Vec::new();
    for pname in [
        BLEND_SRC_RGB,
        BLEND_SRC_ALPHA,
        BLEND_DST_RGB,
        BLEND_DST_ALPHA,
        BLEND_EQUATION_RGB,
        BLEND_EQUATION_ALPHA,
        BLEND_SRC,
        BLEND_DST,
    ] {
        for i in 0..=8 {
            let v = gl.get_integer_i(pname, i);
            out.push((pname, i64::from(i), v, gl.get_error()));
        }
    }
    for pname in [
        BLEND_SRC_RGB,
        BLEND_SRC_ALPHA,
        BLEND_DST_RGB,
        BLEND_DST_ALPHA,
        BLEND_EQUATION_RGB,
        BLEND_EQUATION_ALPHA,
    ] {
        let mut v = [0];
        gl.get_integerv(pname, &mut v);
        out.push((pname, -1, v[0], gl.get_error()));
    }
    for i in 0..=8 {
        let on = gl.is_enabled_i(BLEND, i);
        out.push((BLEND, i64::from(i), on.into(), gl.get_error()));
    }
    let on = gl.is_enabled_cap(BLEND);
    out.push((BLEND, -1, on.into(), gl.get_error()));
    out
}

/// The errors of misuse, in order; the state must not change on an error.
fn errors(gl: &mut dyn BlendGl) -> Vec<GLenum> {
    let mut e = Vec::new();
    let check = |gl: &mut dyn BlendGl, e: &mut Vec<GLenum>| e.push(gl.get_error());
    // A draw buffer past MAX_DRAW_BUFFERS, a bad factor, both (the buffer first).
    gl.blend_funci(8, ONE, ONE);
    check(gl, &mut e);
    gl.blend_funci(0, ONE, FUNC_ADD);
    check(gl, &mut e);
    gl.blend_funci(8, FUNC_ADD, ONE);
    check(gl, &mut e);
    gl.blend_func_separatei(8, ONE, ONE, ONE, ONE);
    check(gl, &mut e);
    gl.blend_func_separatei(1, ONE, ONE, ONE, BLEND);
    check(gl, &mut e);
    gl.blend_func_separatei(1, SRC_ALPHA_SATURATE, SRC_ALPHA_SATURATE, ONE, ONE);
    check(gl, &mut e);
    gl.blend_equationi(8, FUNC_ADD);
    check(gl, &mut e);
    gl.blend_equationi(0, ONE);
    check(gl, &mut e);
    gl.blend_equationi(u32::MAX, ONE);
    check(gl, &mut e);
    gl.blend_equation_separatei(8, FUNC_ADD, FUNC_ADD);
    check(gl, &mut e);
    gl.blend_equation_separatei(2, FUNC_ADD, ZERO);
    check(gl, &mut e);
    gl.enablei(BLEND, 8);
    check(gl, &mut e);
    gl.color_maski(8, 1, 1, 1, 1);
    check(gl, &mut e);
    gl.enablei(DEPTH_TEST, 0);
    check(gl, &mut e);
    // Nothing above changed draw buffer 0's or 1's state.
    for pname in [BLEND_SRC_RGB, BLEND_DST_ALPHA, BLEND_EQUATION_ALPHA] {
        for i in 0..2 {
            e.push(gl.get_integer_i(pname, i) as GLenum);
        }
    }
    check(gl, &mut e);
    e
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn BlendGl) -> T) {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = scene(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

/// The pixel at (x, y) of one attachment's read-back.
fn at(p: &[u8], x: i32, y: i32) -> [u8; 4] {
    let i = ((y * SIZE + x) * 4) as usize;
    [p[i], p[i + 1], p[i + 2], p[i + 3]]
}

#[test]
fn per_draw_buffer_blending_matches_the_native_driver() {
    compare(|gl| {
        let got = draws(gl);
        // Inside the square every attachment took a different path; outside it kept its
        // clear colour.
        let first = &got[0];
        let inside: Vec<[u8; 4]> = first.iter().map(|p| at(p, 2, 8)).collect();
        for (a, b) in inside.iter().zip(inside.iter().skip(1)) {
            assert_ne!(a, b);
        }
        assert_eq!(
            inside[0],
            [64, 128, 191, 128],
            "draw buffer 0 does not blend"
        );
        assert_eq!(at(&first[2], 15, 8), [255, 0, 0, 255]);
        got
    });
}

#[test]
fn indexed_blend_queries_match_the_native_driver() {
    compare(|gl| {
        let q = queries(gl);
        assert!(
            q.iter()
                .any(|&(p, i, v, _)| p == BLEND_EQUATION_RGB && i == 3 && v == MAX as GLint)
        );
        q
    });
}

#[test]
fn indexed_blend_errors_match_the_native_driver() {
    compare(|gl| {
        let e = errors(gl);
        assert_eq!(e[0], INVALID_VALUE, "draw buffer 8");
        assert_eq!(e[1], INVALID_ENUM, "a bad factor");
        e
    });
}

/// One frame of per-buffer blending, no read-back.
fn frame(gl: &mut dyn BlendGl) {
    clear(gl);
    per_buffer_state(gl);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.blend_func(ONE, ONE);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.flush();
}

#[test]
fn steady_per_buffer_blend_frames_make_no_pipelines_on_the_vulkan_backend() {
    tessera_tests::ensure_lavapipe();
    let vk = tessera_backend_vk::VulkanBackend::with_options(&tessera_backend_vk::VkOptions {
        validation: true,
        ..tessera_backend_vk::VkOptions::default()
    })
    .expect("the Vulkan backend (lavapipe) on this machine");
    let probe = vk.probe();
    let config = Config {
        backend: BackendKind::Vulkan,
        transport: TransportKind::Inproc,
        surface: Some(SurfaceConfig::new(SIZE as u32, SIZE as u32)),
        ..Config::default()
    };
    let mut ctx = Context::with_backend(&config, Box::new(vk));
    let color = setup(&mut ctx);
    ctx.uniform4fv(color, 1, &[0.25, 0.5, 0.75, 0.5]);
    frame(&mut ctx);
    let first = pixels(&mut ctx);
    let stats = probe.stats();
    for _ in 0..5 {
        frame(&mut ctx);
    }
    assert_eq!(pixels(&mut ctx), first);
    let steady = probe.stats();
    assert_eq!(
        steady.pipelines, stats.pipelines,
        "pipelines made in steady frames"
    );
    assert_eq!(steady.validation_messages, 0);
    assert_eq!(ctx.get_error(), NO_ERROR);
    let events = ctx.take_events();
    assert!(events.is_empty(), "{events:?}");
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

/// `GL_ARB_draw_buffers_blend` is advertised where the backend blends each draw buffer its
/// own way: GLES (ES 3.2 here) and Vulkan (`independentBlend`).
#[test]
fn draw_buffers_blend_is_advertised_on_both_backends() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        assert!(
            names.iter().any(|e| e == "GL_ARB_draw_buffers_blend"),
            "{}: {names:?}",
            backend.name()
        );
    }
}

/// On a GLES driver without ES 3.2 or `*_draw_buffers_indexed` (the backend told to use ES
/// 3.0 and no extension), the extension is not advertised; per-buffer functions called all
/// the same are reported as unsupported, and draw buffer 0's state applies to every buffer.
#[test]
fn per_buffer_functions_are_reported_without_indexed_blending_on_gles() {
    let mut ctx = tessera_es30(SIZE, SIZE);
    let names = advertised(&mut ctx);
    assert!(!names.iter().any(|e| e == "GL_ARB_draw_buffers_blend"));
    let color = setup(&mut ctx);
    ctx.uniform4fv(color, 1, &[0.25, 0.5, 0.75, 0.5]);
    clear(&mut ctx);
    ctx.enable(BLEND);
    ctx.blend_funci(1, SRC_ALPHA, ONE_MINUS_SRC_ALPHA);
    ctx.draw_arrays(TRIANGLE_STRIP, 0, 4);
    ctx.finish();
    let events = ctx.take_events();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Unsupported { what }
            if what.starts_with("per-draw-buffer blend functions"))),
        "{events:?}"
    );
}

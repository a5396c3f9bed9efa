//! `glClipControl` (`ARB_clip_control`, GL 4.5) against the native driver on both backends
//! (Vulkan with the validation layer on, which must report nothing): each origin and depth
//! mode drawn into a framebuffer object and into the window's framebuffer, through a
//! viewport that does not cover the target and a depth range that is not [0, 1], with face
//! culling and depth testing on; `CLIP_ORIGIN` and `CLIP_DEPTH_MODE`, and the errors in
//! Mesa's order. Pixels, values and errors must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's glClipControl, called through its C signature"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The call the shared [`Gl`] table has no entry for.
trait ClipGl: Gl {
    /// `glClipControl`.
    fn clip_control(&mut self, origin: GLenum, depth: GLenum);
}

impl ClipGl for Context {
    fn clip_control(&mut self, origin: GLenum, depth: GLenum) {
        Context::clip_control(self, origin, depth);
    }
}

impl ClipGl for NativeGl {
    fn clip_control(&mut self, origin: GLenum, depth: GLenum) {
        type F = unsafe extern "system" fn(GLenum, GLenum);
        let f: F = self
            .entry_point("glClipControl")
            .unwrap_or_else(|e| panic!("glClipControl: {e}"));
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(origin, depth) }
    }
}

/// Positions with their own depth; the fragment stage writes the window depth it got,
/// the window row and whether the fragment is front-facing.
const VS: &str = "#version 330
layout(location = 0) in vec3 position;
void main() { gl_Position = vec4(position, 1.0); }
";

const FS: &str = "#version 330
out vec4 color;
void main() {
    color = vec4(gl_FragCoord.z, gl_FragCoord.y / 32.0, gl_FrontFacing ? 1.0 : 0.25, 1.0);
}
";

const SIZE: i32 = 32;

/// Two triangles in the upper half of clip space: the first counter-clockwise in clip
/// space, its depth from -0.9 (which [0, 1] clip-space depth clips away) to 0.8; the
/// second clockwise, nearer, over part of the first. Then a quad across the whole
/// viewport at depth 0.5, counter-clockwise.
const VERTICES: [f32; 30] = [
    -0.8, 0.1, -0.9, 0.7, 0.2, 0.8, -0.5, 0.9, 0.0, //
    -0.6, 0.3, -0.2, -0.1, 0.95, -0.2, 0.3, 0.15, -0.2, //
    -1.0, -1.0, 0.5, 1.0, -1.0, 0.5, -1.0, -0.2, 0.5, //
    0.0, 0.0, 0.0,
];

fn shader(gl: &mut dyn ClipGl, kind: GLenum, src: &str) -> GLuint {
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

/// Builds the program and the vertices.
fn setup(gl: &mut dyn ClipGl) {
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
    let bytes: Vec<u8> = VERTICES.iter().flat_map(|v| v.to_le_bytes()).collect();
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 3, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    assert_eq!(gl.get_error(), NO_ERROR);
}

/// A framebuffer object of an RGBA8 and a 32-bit float depth renderbuffer.
fn framebuffer(gl: &mut dyn ClipGl) -> GLuint {
    let fbo = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fbo);
    for (format, attachment) in [
        (RGBA8, COLOR_ATTACHMENT0),
        (DEPTH_COMPONENT32F, DEPTH_ATTACHMENT),
    ] {
        let rb = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, rb);
        gl.renderbuffer_storage(RENDERBUFFER, format, SIZE, SIZE);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, attachment, RENDERBUFFER, rb);
    }
    assert_eq!(
        gl.check_framebuffer_status(FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    fbo
}

const MODES: [(GLenum, GLenum); 4] = [
    (LOWER_LEFT, NEGATIVE_ONE_TO_ONE),
    (UPPER_LEFT, NEGATIVE_ONE_TO_ONE),
    (LOWER_LEFT, ZERO_TO_ONE),
    (UPPER_LEFT, ZERO_TO_ONE),
];

/// Draws every mode into the bound framebuffer: the pixels of each, with what the origin and
/// depth mode queries answered.
fn draws(gl: &mut dyn ClipGl) -> Vec<(GLint, GLint, Vec<u8>)> {
    gl.viewport(3, 5, 24, 20);
    gl.depth_range(0.25, 0.75);
    gl.enable(DEPTH_TEST);
    gl.depth_func(LESS);
    let mut out = Vec::new();
    for cull in [false, true] {
        if cull {
            gl.enable(CULL_FACE);
            gl.cull_face(BACK);
        }
        for (origin, depth) in MODES {
            gl.clip_control(origin, depth);
            gl.clear_color(0.0, 0.0, 0.0, 0.0);
            gl.clear_depth(1.0);
            gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
            gl.draw_arrays(TRIANGLES, 0, 9);
            let mut pixels = vec![0u8; (SIZE * SIZE * 4) as usize];
            gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut pixels);
            let (mut o, mut d) = ([0], [0]);
            gl.get_integerv(CLIP_ORIGIN, &mut o);
            gl.get_integerv(CLIP_DEPTH_MODE, &mut d);
            out.push((o[0], d[0], pixels));
        }
    }
    gl.disable(CULL_FACE);
    gl.clip_control(LOWER_LEFT, NEGATIVE_ONE_TO_ONE);
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

/// The errors of misuse, in order, each followed by the state it left.
fn errors(gl: &mut dyn ClipGl) -> Vec<GLenum> {
    let mut e = Vec::new();
    let state = |gl: &mut dyn ClipGl, e: &mut Vec<GLenum>| {
        e.push(gl.get_error());
        let (mut o, mut d) = ([0], [0]);
        gl.get_integerv(CLIP_ORIGIN, &mut o);
        gl.get_integerv(CLIP_DEPTH_MODE, &mut d);
        e.extend([o[0] as GLenum, d[0] as GLenum]);
    };
    state(gl, &mut e);
    gl.clip_control(UPPER_LEFT, ZERO_TO_ONE);
    state(gl, &mut e);
    // A bad origin, a bad depth mode, both, and the two swapped: nothing changes.
    gl.clip_control(NEGATIVE_ONE_TO_ONE, ZERO_TO_ONE);
    state(gl, &mut e);
    gl.clip_control(LOWER_LEFT, LOWER_LEFT);
    state(gl, &mut e);
    gl.clip_control(0, 0);
    state(gl, &mut e);
    gl.clip_control(ZERO_TO_ONE, UPPER_LEFT);
    state(gl, &mut e);
    // The same values again, then one of the two changed.
    gl.clip_control(UPPER_LEFT, ZERO_TO_ONE);
    state(gl, &mut e);
    gl.clip_control(UPPER_LEFT, NEGATIVE_ONE_TO_ONE);
    state(gl, &mut e);
    gl.clip_control(LOWER_LEFT, NEGATIVE_ONE_TO_ONE);
    state(gl, &mut e);
    e
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn ClipGl) -> T) {
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

/// The rows of a read-back with anything drawn.
fn drawn_rows(p: &[u8]) -> Vec<i32> {
    (0..SIZE)
        .filter(|y| {
            let row = &p[(y * SIZE * 4) as usize..((y + 1) * SIZE * 4) as usize];
            row.chunks(4).any(|px| px[3] != 0)
        })
        .collect()
}

/// What every scene must show, whatever the driver: the origin flips the image within the
/// viewport, [0, 1] depth clips what [-1, 1] keeps, culling keeps facing as in clip space.
fn check(got: &[(GLint, GLint, Vec<u8>)]) {
    for (i, (o, d, _)) in got.iter().enumerate() {
        let (origin, depth) = MODES[i % 4];
        assert_eq!((*o as GLenum, *d as GLenum), (origin, depth));
    }
    // The quad fills the viewport's lower part with the lower-left origin, its upper part
    // with the upper-left one.
    let lower = drawn_rows(&got[0].2);
    let upper = drawn_rows(&got[1].2);
    assert_eq!(lower.first(), Some(&5));
    assert_eq!(upper.last(), Some(&24));
    assert_ne!(got[0].2, got[2].2, "the depth mode changed nothing");
    assert_ne!(got[0].2, got[4].2, "culling changed nothing");
}

#[test]
fn clip_control_draws_match_the_native_driver_into_a_framebuffer_object() {
    compare(|gl| {
        setup(gl);
        framebuffer(gl);
        let got = draws(gl);
        check(&got);
        got
    });
}

#[test]
fn clip_control_draws_match_the_native_driver_into_the_window_framebuffer() {
    compare(|gl| {
        setup(gl);
        let got = draws(gl);
        check(&got);
        got
    });
}

#[test]
fn clip_control_errors_match_the_native_driver() {
    compare(|gl| {
        let e = errors(gl);
        assert_eq!(
            &e[..6],
            &[
                NO_ERROR,
                LOWER_LEFT,
                NEGATIVE_ONE_TO_ONE,
                NO_ERROR,
                UPPER_LEFT,
                ZERO_TO_ONE
            ]
        );
        assert_eq!(e[6], INVALID_ENUM, "a bad origin");
        e
    });
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

/// `GL_ARB_clip_control` is advertised on both backends: Vulkan with
/// `VK_EXT_depth_clip_control` (lavapipe has it), GLES with `GL_EXT_clip_control` (llvmpipe
/// has it).
#[test]
fn clip_control_is_advertised_on_both_backends() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        assert!(
            names.iter().any(|e| e == "GL_ARB_clip_control"),
            "{}: {names:?}",
            backend.name()
        );
    }
}

/// On a GLES driver without `GL_EXT_clip_control` (the backend told to ignore extensions)
/// the extension is not advertised: `glClipControl` raises `INVALID_OPERATION`, as Mesa
/// does without the extension, and its queries `INVALID_ENUM`.
#[test]
fn clip_control_is_refused_without_the_driver_extension_on_gles() {
    let mut ctx = tessera_es30(SIZE, SIZE);
    let names = advertised(&mut ctx);
    assert!(!names.iter().any(|e| e == "GL_ARB_clip_control"));
    ctx.clip_control(UPPER_LEFT, ZERO_TO_ONE);
    assert_eq!(ctx.get_error(), INVALID_OPERATION);
    let mut v = [0];
    ctx.get_integerv(CLIP_ORIGIN, &mut v);
    assert_eq!(ctx.get_error(), INVALID_ENUM);
    ctx.get_integerv(CLIP_DEPTH_MODE, &mut v);
    assert_eq!(ctx.get_error(), INVALID_ENUM);
}

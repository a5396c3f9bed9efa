//! Transform feedback objects, pause and resume, and draws of what a capture wrote (GL 4.0's
//! `ARB_transform_feedback2`, 4.2's `ARB_transform_feedback_instanced`) against the native
//! driver on both backends (Vulkan with the validation layer on, which must report
//! nothing): two objects captured alternately, each paused while the other captures and
//! resumed where it stopped, drawn back with `glDrawTransformFeedback(Instanced|Stream)`
//! and captured again from such a draw; and the objects' state and errors in Mesa's order.
//! Pixels, bytes, values and errors must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's GL 4.0-4.2 entry points, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
trait ObjectsGl: Gl {
    fn gen_transform_feedback(&mut self) -> GLuint;
    fn delete_transform_feedback(&mut self, id: GLuint);
    fn bind_transform_feedback(&mut self, target: GLenum, id: GLuint);
    fn is_transform_feedback(&mut self, id: GLuint) -> GLboolean;
    fn pause_transform_feedback(&mut self);
    fn resume_transform_feedback(&mut self);
    fn draw_transform_feedback(&mut self, mode: GLenum, id: GLuint);
    fn draw_transform_feedback_instanced(&mut self, mode: GLenum, id: GLuint, n: GLsizei);
    fn draw_transform_feedback_stream(&mut self, mode: GLenum, id: GLuint, stream: GLuint);
    /// `glGenTransformFeedbacks` with a count (its errors).
    fn gen_transform_feedbacks_n(&mut self, n: GLsizei);
}

impl ObjectsGl for Context {
    fn gen_transform_feedback(&mut self) -> GLuint {
        let mut id = [0];
        self.gen_transform_feedbacks(1, &mut id);
        id[0]
    }
    fn delete_transform_feedback(&mut self, id: GLuint) {
        self.delete_transform_feedbacks(1, &[id]);
    }
    fn bind_transform_feedback(&mut self, target: GLenum, id: GLuint) {
        Context::bind_transform_feedback(self, target, id)
    }
    fn is_transform_feedback(&mut self, id: GLuint) -> GLboolean {
        Context::is_transform_feedback(self, id)
    }
    fn pause_transform_feedback(&mut self) {
        Context::pause_transform_feedback(self)
    }
    fn resume_transform_feedback(&mut self) {
        Context::resume_transform_feedback(self)
    }
    fn draw_transform_feedback(&mut self, mode: GLenum, id: GLuint) {
        Context::draw_transform_feedback(self, mode, id)
    }
    fn draw_transform_feedback_instanced(&mut self, mode: GLenum, id: GLuint, n: GLsizei) {
        Context::draw_transform_feedback_instanced(self, mode, id, n)
    }
    fn draw_transform_feedback_stream(&mut self, mode: GLenum, id: GLuint, stream: GLuint) {
        Context::draw_transform_feedback_stream(self, mode, id, stream)
    }
    fn gen_transform_feedbacks_n(&mut self, n: GLsizei) {
        let mut ids = vec![0; n.max(0) as usize];
        self.gen_transform_feedbacks(n, &mut ids);
    }
}

/// One native entry point of signature `F`.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point::<F>(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl ObjectsGl for NativeGl {
    fn gen_transform_feedback(&mut self) -> GLuint {
        type F = unsafe extern "system" fn(GLsizei, *mut GLuint);
        let f: F = native(self, "glGenTransformFeedbacks");
        let mut id = 0;
        // SAFETY: the context is current on this thread; one name is written.
        unsafe { f(1, &mut id) };
        id
    }
    fn delete_transform_feedback(&mut self, id: GLuint) {
        type F = unsafe extern "system" fn(GLsizei, *const GLuint);
        let f: F = native(self, "glDeleteTransformFeedbacks");
        // SAFETY: as above; one name is read.
        unsafe { f(1, &id) }
    }
    fn bind_transform_feedback(&mut self, target: GLenum, id: GLuint) {
        type F = unsafe extern "system" fn(GLenum, GLuint);
        let f: F = native(self, "glBindTransformFeedback");
        // SAFETY: as above.
        unsafe { f(target, id) }
    }
    fn is_transform_feedback(&mut self, id: GLuint) -> GLboolean {
        type F = unsafe extern "system" fn(GLuint) -> GLboolean;
        let f: F = native(self, "glIsTransformFeedback");
        // SAFETY: as above.
        unsafe { f(id) }
    }
    fn pause_transform_feedback(&mut self) {
        type F = unsafe extern "system" fn();
        let f: F = native(self, "glPauseTransformFeedback");
        // SAFETY: as above.
        unsafe { f() }
    }
    fn resume_transform_feedback(&mut self) {
        type F = unsafe extern "system" fn();
        let f: F = native(self, "glResumeTransformFeedback");
        // SAFETY: as above.
        unsafe { f() }
    }
    fn draw_transform_feedback(&mut self, mode: GLenum, id: GLuint) {
        type F = unsafe extern "system" fn(GLenum, GLuint);
        let f: F = native(self, "glDrawTransformFeedback");
        // SAFETY: as above.
        unsafe { f(mode, id) }
    }
    fn draw_transform_feedback_instanced(&mut self, mode: GLenum, id: GLuint, n: GLsizei) {
        type F = unsafe extern "system" fn(GLenum, GLuint, GLsizei);
        let f: F = native(self, "glDrawTransformFeedbackInstanced");
        // SAFETY: as above.
        unsafe { f(mode, id, n) }
    }
    fn draw_transform_feedback_stream(&mut self, mode: GLenum, id: GLuint, stream: GLuint) {
        type F = unsafe extern "system" fn(GLenum, GLuint, GLuint);
        let f: F = native(self, "glDrawTransformFeedbackStream");
        // SAFETY: as above.
        unsafe { f(mode, id, stream) }
    }
    fn gen_transform_feedbacks_n(&mut self, n: GLsizei) {
        type F = unsafe extern "system" fn(GLsizei, *mut GLuint);
        let f: F = native(self, "glGenTransformFeedbacks");
        let mut ids = vec![0; n.max(0) as usize + 1];
        // SAFETY: as above; at most `n` names are written, into room for more.
        unsafe { f(n, ids.as_mut_ptr()) }
    }
}

/// Captures each vertex's clip position and its colour (interleaved: 32 bytes a vertex).
const CAPTURE_VS: &str = "#version 330
layout(location = 0) in vec2 position;
uniform vec4 tint;
out vec4 color;
void main() {
    color = tint;
    gl_Position = vec4(position, 0.0, 1.0);
}
";

/// Draws captured vertices back; each instance half the target to the right.
const DRAW_VS: &str = "#version 330
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color;
flat out vec4 v_color;
void main() {
    v_color = color;
    gl_Position = position + vec4(float(gl_InstanceID), 0.0, 0.0, 0.0);
}
";

const FS: &str = "#version 330
flat in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
";

/// A fragment stage for the capture program (its input by the same name).
const CAPTURE_FS: &str = "#version 330
in vec4 color;
out vec4 frag;
void main() { frag = color; }
";

fn program(gl: &mut dyn ObjectsGl, vs: &str, fs: &str, captured: &[&str]) -> GLuint {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, vs), (FRAGMENT_SHADER, fs)] {
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
    if !captured.is_empty() {
        gl.transform_feedback_varyings(p, captured, INTERLEAVED_ATTRIBS);
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

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The vertices the capture program reads: four sets of triangles (3, 6, 3 and 3).
fn vertices() -> Vec<f32> {
    vec![
        // Set 1: bottom left.
        -1.0, -1.0, 0.0, -1.0, -1.0, 0.0, //
        // Set 2: two triangles, a square left of the centre's top.
        -1.0, 0.0, -0.5, 0.0, -1.0, 1.0, -0.5, 0.0, -0.5, 1.0, -1.0, 1.0, //
        // Set 3: bottom, right of the centre.
        0.0, -1.0, 0.5, -1.0, 0.0, -0.5, //
        // Set 4: a thin triangle left of the centre.
        -0.5, -0.5, 0.0, -0.5, -0.5, 0.0,
    ]
}

fn pixels(gl: &mut dyn ObjectsGl) -> Vec<u8> {
    let mut out = vec![0u8; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut out);
    out
}

fn bytes_of(gl: &mut dyn ObjectsGl, buffer: GLuint, len: usize) -> Vec<u8> {
    gl.bind_buffer(COPY_READ_BUFFER, buffer);
    let mut out = vec![0u8; len];
    gl.get_buffer_sub_data(COPY_READ_BUFFER, 0, &mut out);
    out
}

/// A vertex array reading captured vertices from `buffer` at `offset`.
fn captured_array(gl: &mut dyn ObjectsGl, buffer: GLuint, offset: usize) -> GLuint {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    gl.bind_buffer(ARRAY_BUFFER, buffer);
    gl.vertex_attrib_pointer(0, 4, FLOAT, false, 32, offset);
    gl.vertex_attrib_pointer(1, 4, FLOAT, false, 32, offset + 16);
    gl.enable_vertex_attrib_array(0);
    gl.enable_vertex_attrib_array(1);
    vao
}

/// What one run of [`alternate`] saw.
#[derive(Debug, PartialEq)]
struct Observed {
    errors: Vec<GLenum>,
    /// The captured buffers' bytes (A, B, C).
    buffers: Vec<Vec<u8>>,
    /// The frames drawn from the objects.
    frames: Vec<Vec<u8>>,
    written: GLuint,
}

/// Two objects capture alternately: A (a range from byte 32) takes set 1, pauses while B
/// takes set 2, resumes for set 3; B resumes for set 4. Draws while paused are not
/// captured (and may use any mode). Then each object is drawn back, B twice over
/// instanced, A's count with B's vertices, and A's draw is captured into C by a third
/// object. A primitives-written query counts across the alternating captures.
fn alternate(gl: &mut dyn ObjectsGl) -> Observed {
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    let capture = program(gl, CAPTURE_VS, CAPTURE_FS, &["gl_Position", "color"]);
    let draw = program(gl, DRAW_VS, FS, &[]);
    let tint = gl.get_uniform_location(capture, "tint");
    let source = gl.gen_vertex_array();
    gl.bind_vertex_array(source);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    let verts = floats(&vertices());
    gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let mut bufs = Vec::new();
    for _ in 0..3 {
        let b = gl.gen_buffer();
        gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, b);
        gl.buffer_data(
            TRANSFORM_FEEDBACK_BUFFER,
            512,
            Some(&[0xAA; 512]),
            STATIC_READ,
        );
        bufs.push(b);
    }
    let (a, b, c) = (
        gl.gen_transform_feedback(),
        gl.gen_transform_feedback(),
        gl.gen_transform_feedback(),
    );
    let mut errors = Vec::new();
    let written = gl.gen_query();
    gl.use_program(capture);
    gl.enable(RASTERIZER_DISCARD);
    gl.begin_query(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, written);
    gl.bind_transform_feedback(TRANSFORM_FEEDBACK, a);
    gl.bind_buffer_range(TRANSFORM_FEEDBACK_BUFFER, 0, bufs[0], 32, 384);
    gl.begin_transform_feedback(TRIANGLES);
    gl.uniform4f(tint, 1.0, 0.0, 0.0, 1.0);
    gl.draw_arrays(TRIANGLES, 0, 3);
    gl.pause_transform_feedback();
    // Not captured, and no mode error while paused.
    gl.draw_arrays(POINTS, 0, 3);
    errors.push(gl.get_error());
    gl.bind_transform_feedback(TRANSFORM_FEEDBACK, b);
    gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, 0, bufs[1]);
    gl.begin_transform_feedback(TRIANGLES);
    gl.uniform4f(tint, 0.0, 1.0, 0.0, 1.0);
    gl.draw_arrays(TRIANGLES, 3, 6);
    gl.pause_transform_feedback();
    gl.bind_transform_feedback(TRANSFORM_FEEDBACK, a);
    gl.resume_transform_feedback();
    gl.uniform4f(tint, 0.0, 0.0, 1.0, 1.0);
    gl.draw_arrays(TRIANGLES, 9, 3);
    gl.end_transform_feedback();
    gl.bind_transform_feedback(TRANSFORM_FEEDBACK, b);
    gl.resume_transform_feedback();
    gl.uniform4f(tint, 1.0, 1.0, 1.0, 1.0);
    gl.draw_arrays(TRIANGLES, 12, 3);
    gl.end_transform_feedback();
    gl.end_query(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
    errors.push(gl.get_error());
    gl.bind_transform_feedback(TRANSFORM_FEEDBACK, 0);
    gl.disable(RASTERIZER_DISCARD);

    let mut frames = Vec::new();
    gl.use_program(draw);
    let from_a = captured_array(gl, bufs[0], 32);
    let from_b = captured_array(gl, bufs[1], 0);
    gl.bind_vertex_array(from_a);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_transform_feedback(TRIANGLES, a);
    frames.push(pixels(gl));
    gl.bind_vertex_array(from_b);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_transform_feedback_instanced(TRIANGLES, b, 2);
    frames.push(pixels(gl));
    // A's count (6 vertices) with B's vertices: B's first two triangles.
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_transform_feedback_stream(TRIANGLES, a, 0);
    frames.push(pixels(gl));
    errors.push(gl.get_error());

    // A's vertices drawn from A's count are captured again, into C through object c, by
    // the capture program reading their positions (the first two floats of each).
    gl.use_program(capture);
    gl.uniform4f(tint, 0.5, 0.25, 0.75, 1.0);
    gl.bind_vertex_array(from_a);
    gl.bind_transform_feedback(TRANSFORM_FEEDBACK, c);
    gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, 0, bufs[2]);
    gl.begin_transform_feedback(TRIANGLES);
    gl.draw_transform_feedback(TRIANGLES, a);
    gl.end_transform_feedback();
    gl.bind_transform_feedback(TRANSFORM_FEEDBACK, 0);
    errors.push(gl.get_error());
    gl.use_program(draw);
    let from_c = captured_array(gl, bufs[2], 0);
    gl.bind_vertex_array(from_c);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_transform_feedback(TRIANGLE_STRIP, c);
    frames.push(pixels(gl));
    errors.push(gl.get_error());
    let buffers = bufs.iter().map(|&buf| bytes_of(gl, buf, 512)).collect();
    Observed {
        errors,
        buffers,
        frames,
        written: gl.query_result(written),
    }
}

/// The objects' state and the errors of misuse, in order: each entry is a call's error or
/// a queried value.
fn transcript(gl: &mut dyn ObjectsGl) -> Vec<i64> {
    let mut t: Vec<i64> = Vec::new();
    let err = |gl: &mut dyn ObjectsGl, t: &mut Vec<i64>| t.push(i64::from(gl.get_error()));
    let get = |gl: &mut dyn ObjectsGl, t: &mut Vec<i64>, pname: GLenum| {
        let mut v = [-1];
        gl.get_integerv(pname, &mut v);
        t.push(i64::from(v[0]));
        t.push(i64::from(gl.get_error()));
    };
    let capture = program(gl, CAPTURE_VS, CAPTURE_FS, &["gl_Position", "color"]);
    let other = program(gl, CAPTURE_VS, CAPTURE_FS, &["color"]);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, buf);
    gl.buffer_data(TRANSFORM_FEEDBACK_BUFFER, 256, None, STATIC_READ);
    gl.enable(RASTERIZER_DISCARD);
    gl.use_program(capture);

    for pname in [
        TRANSFORM_FEEDBACK_BINDING,
        TRANSFORM_FEEDBACK_ACTIVE,
        TRANSFORM_FEEDBACK_PAUSED,
        MAX_TRANSFORM_FEEDBACK_BUFFERS,
    ] {
        get(gl, &mut t, pname);
    }
    let x = gl.gen_transform_feedback();
    let y = gl.gen_transform_feedback();
    t.push(i64::from(x));
    t.push(i64::from(y));
    // Generated but never bound: not an object yet.
    t.push(i64::from(gl.is_transform_feedback(x)));
    t.push(i64::from(gl.is_transform_feedback(0)));
    gl.gen_transform_feedbacks_n(-1);
    err(gl, &mut t);
    gl.bind_transform_feedback(TEXTURE_2D, x);
    err(gl, &mut t);
    gl.bind_transform_feedback(TRANSFORM_FEEDBACK, 77);
    err(gl, &mut t);
    // Drawing from an object that never ended, and from names that are none.
    gl.draw_transform_feedback(TRIANGLES, x);
    err(gl, &mut t);
    gl.draw_transform_feedback(TRIANGLES, 77);
    err(gl, &mut t);
    gl.draw_transform_feedback(TRIANGLES, 0);
    err(gl, &mut t);
    gl.bind_transform_feedback(TRANSFORM_FEEDBACK, x);
    err(gl, &mut t);
    t.push(i64::from(gl.is_transform_feedback(x)));
    get(gl, &mut t, TRANSFORM_FEEDBACK_BINDING);
    // Pause and resume need an active capture.
    gl.pause_transform_feedback();
    err(gl, &mut t);
    gl.resume_transform_feedback();
    err(gl, &mut t);
    gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, 0, buf);
    gl.begin_transform_feedback(POINTS);
    err(gl, &mut t);
    get(gl, &mut t, TRANSFORM_FEEDBACK_ACTIVE);
    get(gl, &mut t, TRANSFORM_FEEDBACK_PAUSED);
    // Active and not paused: no rebinding, no program change, no wrong mode.
    gl.resume_transform_feedback();
    err(gl, &mut t);
    gl.bind_transform_feedback(TRANSFORM_FEEDBACK, y);
    err(gl, &mut t);
    gl.use_program(other);
    err(gl, &mut t);
    gl.draw_arrays(TRIANGLES, 0, 3);
    err(gl, &mut t);
    gl.pause_transform_feedback();
    err(gl, &mut t);
    gl.pause_transform_feedback();
    err(gl, &mut t);
    get(gl, &mut t, TRANSFORM_FEEDBACK_PAUSED);
    // Paused: draws of any mode, another program, another object.
    gl.draw_arrays(TRIANGLES, 0, 3);
    err(gl, &mut t);
    gl.use_program(other);
    err(gl, &mut t);
    // Resuming with another program than the capture began with.
    gl.resume_transform_feedback();
    err(gl, &mut t);
    gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, 1, buf);
    err(gl, &mut t);
    gl.bind_transform_feedback(TRANSFORM_FEEDBACK, y);
    err(gl, &mut t);
    get(gl, &mut t, TRANSFORM_FEEDBACK_BINDING);
    get(gl, &mut t, TRANSFORM_FEEDBACK_ACTIVE);
    get(gl, &mut t, TRANSFORM_FEEDBACK_BUFFER_BINDING);
    t.push(i64::from(gl.is_transform_feedback(y)));
    // x is active (paused): not deleted.
    gl.delete_transform_feedback(x);
    err(gl, &mut t);
    t.push(i64::from(gl.is_transform_feedback(x)));
    gl.bind_transform_feedback(TRANSFORM_FEEDBACK, x);
    get(gl, &mut t, TRANSFORM_FEEDBACK_BUFFER_BINDING);
    gl.use_program(capture);
    gl.resume_transform_feedback();
    err(gl, &mut t);
    get(gl, &mut t, TRANSFORM_FEEDBACK_PAUSED);
    gl.end_transform_feedback();
    err(gl, &mut t);
    gl.end_transform_feedback();
    err(gl, &mut t);
    get(gl, &mut t, TRANSFORM_FEEDBACK_ACTIVE);
    // x ended: it can be drawn from, with a draw's own errors first.
    gl.draw_transform_feedback(0x20, x);
    err(gl, &mut t);
    gl.draw_transform_feedback_instanced(POINTS, x, -1);
    err(gl, &mut t);
    gl.draw_transform_feedback_stream(POINTS, x, 4);
    err(gl, &mut t);
    gl.draw_transform_feedback_instanced(POINTS, x, 2);
    err(gl, &mut t);
    // Deleting the bound object binds the default one.
    gl.delete_transform_feedback(x);
    err(gl, &mut t);
    get(gl, &mut t, TRANSFORM_FEEDBACK_BINDING);
    t.push(i64::from(gl.is_transform_feedback(x)));
    gl.delete_transform_feedback(0);
    err(gl, &mut t);
    gl.bind_transform_feedback(TRANSFORM_FEEDBACK, x);
    err(gl, &mut t);
    gl.delete_transform_feedback(y);
    gl.delete_transform_feedback(y);
    err(gl, &mut t);
    t
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn ObjectsGl) -> T) -> T {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = scene(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    expected
}

#[test]
fn objects_captured_alternately_with_pause_and_resume_draw_back_as_native() {
    let seen = compare(alternate);
    assert_eq!(seen.errors, [NO_ERROR; 5]);
    // Set 1 then set 3 in A from byte 32; sets 2 and 4 in B; what A drew, in C.
    assert_eq!(seen.buffers[0][..32], [0xAA; 32]);
    assert_eq!(
        seen.buffers[0][32 + 6 * 32..],
        [0xAA; 512 - 32 - 6 * 32][..]
    );
    assert_ne!(seen.buffers[1][8 * 32..9 * 32], [0xAA; 32]);
    assert_eq!(seen.buffers[1][9 * 32..], [0xAA; 512 - 9 * 32][..]);
    assert_eq!(seen.buffers[2][6 * 32..], [0xAA; 512 - 6 * 32][..]);
    assert_eq!(seen.written, 2 + 3);
    for (i, f) in seen.frames.iter().enumerate() {
        assert!(f.iter().any(|b| *b != 0), "frame {i} drew something");
    }
    assert_ne!(seen.frames[1], seen.frames[2]);
}

#[test]
fn object_state_and_errors_match_the_native_driver() {
    let t = compare(transcript);
    assert_eq!(t.len(), 71);
    // The first queries: nothing bound or active; four buffers.
    assert_eq!(t[..8], [0, 0, 0, 0, 0, 0, 4, 0]);
}

/// Both extensions (and `ARB_transform_feedback3`, with one vertex stream on GLES) are
/// advertised on every backend, an ES 3.0 GLES backend too (ES 3.0 has transform feedback
/// objects, pause and resume, and the primitives-written query the GLES backend counts draws
/// with), where the scene draws back as natively.
#[test]
fn the_extensions_are_advertised_everywhere_and_an_es30_backend_draws_back_as_native() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 4, 4);
        let n = ctx.get_integer(NUM_EXTENSIONS);
        let names: Vec<String> = (0..n as GLuint)
            .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
            .collect();
        for e in [
            "GL_ARB_transform_feedback2",
            "GL_ARB_transform_feedback3",
            "GL_ARB_transform_feedback_instanced",
        ] {
            assert!(names.iter().any(|x| x == e), "{}: {e}", backend.name());
        }
    }
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = alternate(&mut native);
    drop(native);
    let mut ctx = tessera_es30(16, 16);
    assert_eq!(alternate(&mut ctx), expected);
    ctx.finish();
    let events: Vec<Event> = ctx.take_events();
    assert!(events.is_empty(), "{events:?}");
}

//! Transform feedback overflow queries (GL 4.6's `ARB_transform_feedback_overflow_query`)
//! against the native driver on the Vulkan backend (the validation layer on, which must
//! report nothing): `TRANSFORM_FEEDBACK_OVERFLOW` and `TRANSFORM_FEEDBACK_STREAM_OVERFLOW`
//! around captures that fit their buffer, fill it exactly and overflow it, around draws that
//! capture nothing, and over two captures of which one overflows; the counter bits and the
//! stream index's errors. The GLES backend does not advertise the extension: the targets are
//! `INVALID_ENUM` there, as on a driver without it.

#![expect(
    unsafe_code,
    reason = "the native driver's glGetQueryiv and glBeginQueryIndexed, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
trait OverflowGl: Gl {
    fn get_queryiv(&mut self, target: GLenum, pname: GLenum) -> GLint;
    fn begin_query_indexed(&mut self, target: GLenum, index: GLuint, id: GLuint);
    fn end_query_indexed(&mut self, target: GLenum, index: GLuint);
}

impl OverflowGl for Context {
    fn get_queryiv(&mut self, target: GLenum, pname: GLenum) -> GLint {
        let mut v = [-1];
        Context::get_queryiv(self, target, pname, &mut v);
        v[0]
    }
    fn begin_query_indexed(&mut self, target: GLenum, index: GLuint, id: GLuint) {
        Context::begin_query_indexed(self, target, index, id)
    }
    fn end_query_indexed(&mut self, target: GLenum, index: GLuint) {
        Context::end_query_indexed(self, target, index)
    }
}

/// One native entry point of signature `F`.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point::<F>(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl OverflowGl for NativeGl {
    fn get_queryiv(&mut self, target: GLenum, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLenum, *mut GLint);
        let f: F = native(self, "glGetQueryiv");
        let mut v = -1;
        // SAFETY: the context is current on this thread; `v` takes one value.
        unsafe { f(target, pname, &mut v) };
        v
    }
    fn begin_query_indexed(&mut self, target: GLenum, index: GLuint, id: GLuint) {
        type F = unsafe extern "system" fn(GLenum, GLuint, GLuint);
        let f: F = native(self, "glBeginQueryIndexed");
        // SAFETY: as above.
        unsafe { f(target, index, id) }
    }
    fn end_query_indexed(&mut self, target: GLenum, index: GLuint) {
        type F = unsafe extern "system" fn(GLenum, GLuint);
        let f: F = native(self, "glEndQueryIndexed");
        // SAFETY: as above.
        unsafe { f(target, index) }
    }
}

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
out vec4 captured;
void main() {
    captured = vec4(position, 0.0, 1.0);
    gl_Position = captured;
}
";

const FS: &str = "#version 330
out vec4 frag;
void main() { frag = vec4(1.0); }
";

/// Bytes of one captured triangle (three `vec4`s).
const TRIANGLE: usize = 48;

/// The program capturing `captured`, a vertex array of 12 triangles and a transform
/// feedback buffer of `triangles` triangles at binding 0.
fn setup(gl: &mut dyn OverflowGl, triangles: usize) {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)] {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        gl.attach_shader(p, s);
    }
    gl.transform_feedback_varyings(p, &["captured"], INTERLEAVED_ATTRIBS);
    gl.link_program(p);
    assert_eq!(gl.get_programi(p, LINK_STATUS), TRUE as i32);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    let vertices: Vec<u8> = (0..36)
        .flat_map(|i| [(i % 3) as f32 * 0.1, (i / 3) as f32 * 0.05])
        .flat_map(f32::to_le_bytes)
        .collect();
    gl.buffer_data(ARRAY_BUFFER, vertices.len(), Some(&vertices), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let xfb = gl.gen_buffer();
    gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, xfb);
    let size = triangles * TRIANGLE;
    gl.buffer_data(
        TRANSFORM_FEEDBACK_BUFFER,
        size,
        Some(&vec![0; size]),
        STATIC_DRAW,
    );
    gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, 0, xfb);
    gl.viewport(0, 0, 16, 16);
}

/// The two targets' results around each capture, then the state and errors.
fn scene(gl: &mut dyn OverflowGl) -> Vec<GLuint> {
    setup(gl, 4);
    let mut out = Vec::new();
    // Triangles drawn per capture (a list of captures within one query): fits, fills the
    // buffer exactly, one more than fits, nothing captured, two captures of which the
    // second overflows (each capture starts at the buffer's start again).
    let cases: [&[i32]; 5] = [&[2], &[4], &[5], &[], &[3, 12]];
    for captures in cases {
        for (target, indexed) in [
            (TRANSFORM_FEEDBACK_OVERFLOW, false),
            (TRANSFORM_FEEDBACK_STREAM_OVERFLOW, false),
            (TRANSFORM_FEEDBACK_STREAM_OVERFLOW, true),
        ] {
            let q = gl.gen_query();
            if indexed {
                gl.begin_query_indexed(target, 0, q);
            } else {
                gl.begin_query(target, q);
            }
            if captures.is_empty() {
                gl.draw_arrays(TRIANGLES, 0, 6);
            }
            for &n in captures {
                gl.begin_transform_feedback(TRIANGLES);
                gl.draw_arrays(TRIANGLES, 0, 3 * n);
                gl.end_transform_feedback();
            }
            if indexed {
                gl.end_query_indexed(target, 0);
            } else {
                gl.end_query(target);
            }
            out.push(gl.query_result(q));
            out.push(gl.get_error());
        }
    }
    for target in [
        TRANSFORM_FEEDBACK_OVERFLOW,
        TRANSFORM_FEEDBACK_STREAM_OVERFLOW,
    ] {
        out.push(gl.get_queryiv(target, QUERY_COUNTER_BITS) as GLuint);
        out.push(gl.get_error());
    }
    // Any stream's overflow has stream 0 only; a stream's overflow up to the last stream.
    let q = gl.gen_query();
    gl.begin_query_indexed(TRANSFORM_FEEDBACK_OVERFLOW, 1, q);
    out.push(gl.get_error());
    gl.begin_query_indexed(TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 4, q);
    out.push(gl.get_error());
    gl.begin_query_indexed(TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 3, q);
    out.push(gl.get_error());
    out.push(gl.get_queryiv(TRANSFORM_FEEDBACK_STREAM_OVERFLOW, CURRENT_QUERY) as GLuint);
    gl.end_query_indexed(TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 3);
    out.push(gl.get_error());
    out
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    let n = ctx.get_integer(NUM_EXTENSIONS);
    (0..n as GLuint)
        .map(|i| ctx.get_stringi(EXTENSIONS, i).expect("an extension name"))
        .collect()
}

#[test]
fn overflow_queries_match_the_native_driver_on_vulkan() {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    // Overflow exactly where a capture did not fit, for both targets.
    let results: Vec<GLuint> = expected.iter().step_by(2).take(15).copied().collect();
    assert_eq!(results, [0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1]);
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let mut ctx = tessera_on(Backend::Vulkan, transport.clone(), 16, 16);
        assert!(
            advertised(&mut ctx)
                .iter()
                .any(|e| e == "GL_ARB_transform_feedback_overflow_query")
        );
        assert_eq!(scene(&mut ctx), expected, "{}", transport.name());
        ctx.finish();
        assert!(!ctx.is_lost());
        let events: Vec<Event> = ctx.take_events();
        assert!(events.is_empty(), "{events:?}");
    }
}

#[test]
fn the_gles_backend_refuses_the_overflow_targets() {
    let mut ctx = tessera_on(Backend::Gles, TransportKind::Inproc, 16, 16);
    assert!(
        !advertised(&mut ctx)
            .iter()
            .any(|e| e == "GL_ARB_transform_feedback_overflow_query")
    );
    let q = ctx.gen_query();
    for target in [
        TRANSFORM_FEEDBACK_OVERFLOW,
        TRANSFORM_FEEDBACK_STREAM_OVERFLOW,
    ] {
        ctx.begin_query(target, q);
        assert_eq!(ctx.get_error(), INVALID_ENUM);
        let mut bits = [-1];
        ctx.get_queryiv(target, QUERY_COUNTER_BITS, &mut bits);
        assert_eq!((ctx.get_error(), bits[0]), (INVALID_ENUM, -1));
        ctx.end_query(target);
        assert_eq!(ctx.get_error(), INVALID_ENUM);
    }
}

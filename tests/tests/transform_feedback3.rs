//! GL 4.0's transform feedback layouts (`ARB_transform_feedback3`'s `gl_SkipComponents1`..`4`
//! and `gl_NextBuffer`) against the native driver on both backends (Vulkan with the
//! validation layer on, which must report nothing), over the in-process and the thread
//! transports: interleaved capture with gaps and spread over several buffers, read back as
//! bytes, the layout names as `glGetTransformFeedbackVarying` and `glGetProgramiv` report
//! them, and the errors of layouts GL refuses. Bytes, values and errors must be exactly the
//! native ones.

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

const VS: &str = "#version 150
in vec2 position;
out vec3 a;
flat out ivec2 b;
out float c;
void main() {
    gl_Position = vec4(position, 0.25, 1.0);
    a = vec3(position * 2.0, float(gl_VertexID));
    b = ivec2(gl_VertexID, -gl_VertexID * 3);
    c = float(gl_VertexID) + 0.5;
}
";
const FS: &str = "#version 150
in vec3 a;
out vec4 frag;
void main() { frag = vec4(a, 1.0); }
";

/// Buffers bound for capture, each of this many bytes, filled with 0xAA first.
const SIZE: usize = 256;

/// What one run observed: the varyings as `glGetTransformFeedbackVarying` reports them,
/// `TRANSFORM_FEEDBACK_VARYINGS` and `TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH`, the bytes of
/// each of the four buffers and the primitives written.
#[derive(Debug, PartialEq)]
struct Observed {
    varyings: Vec<(String, GLsizei, GLenum)>,
    count: GLint,
    max_length: GLint,
    buffers: Vec<Vec<u8>>,
    written: u32,
}

fn shaders(gl: &mut dyn Gl, p: GLuint) {
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)] {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        gl.attach_shader(p, s);
    }
    gl.bind_attrib_location(p, 0, "position");
}

/// Captures two triangles (6 vertices) with the interleaved layout `names` into four
/// buffers.
fn capture(gl: &mut dyn Gl, names: &[&str]) -> Observed {
    gl.viewport(0, 0, 16, 16);
    let p = gl.create_program();
    shaders(gl, p);
    gl.transform_feedback_varyings(p, names, INTERLEAVED_ATTRIBS);
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "{}",
        gl.program_info_log(p)
    );
    let varyings = (0..names.len() as GLuint)
        .map(|i| gl.get_transform_feedback_varying(p, i))
        .collect();
    let count = gl.get_programi(p, TRANSFORM_FEEDBACK_VARYINGS);
    let max_length = gl.get_programi(p, TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    let verts: Vec<u8> = [
        -1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 0.5, 0.5, -0.5, 0.25,
    ]
    .iter()
    .flat_map(|v| v.to_le_bytes())
    .collect();
    gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let mut bufs = Vec::new();
    for i in 0..4 {
        let b = gl.gen_buffer();
        gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, b);
        gl.buffer_data(
            TRANSFORM_FEEDBACK_BUFFER,
            SIZE,
            Some(&[0xAA; SIZE]),
            STATIC_READ,
        );
        gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, i, b);
        bufs.push(b);
    }
    gl.enable(RASTERIZER_DISCARD);
    let written = gl.gen_query();
    gl.begin_query(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, written);
    gl.begin_transform_feedback(TRIANGLES);
    gl.draw_arrays(TRIANGLES, 0, 6);
    gl.end_transform_feedback();
    gl.end_query(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
    gl.disable(RASTERIZER_DISCARD);
    let mut buffers = Vec::new();
    for b in &bufs {
        gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, *b);
        let mut out = vec![0u8; SIZE];
        gl.get_buffer_sub_data(TRANSFORM_FEEDBACK_BUFFER, 0, &mut out);
        buffers.push(out);
    }
    assert_eq!(gl.get_error(), NO_ERROR);
    Observed {
        varyings,
        count,
        max_length,
        buffers,
        written: gl.query_result(written),
    }
}

/// Calls, queries and errors: `MAX_TRANSFORM_FEEDBACK_BUFFERS`, layout names in separate
/// mode and too many `gl_NextBuffer`s (each refused, keeping the last accepted request), a
/// layout that uses all four buffers.
fn transcript(gl: &mut dyn Gl) -> Vec<String> {
    let mut lines = Vec::new();
    let mut max = [0];
    gl.get_integerv(MAX_TRANSFORM_FEEDBACK_BUFFERS, &mut max);
    lines.push(format!("MAX_TRANSFORM_FEEDBACK_BUFFERS {}", max[0]));
    let p = gl.create_program();
    shaders(gl, p);
    let cases: [(&[&str], GLenum); 9] = [
        (&["a", "b"], INTERLEAVED_ATTRIBS),
        (&["a", "gl_SkipComponents1"], SEPARATE_ATTRIBS),
        (&["gl_NextBuffer", "a"], SEPARATE_ATTRIBS),
        (&["a", "gl_SkipComponents4", "c"], SEPARATE_ATTRIBS),
        (&["gl_SkipComponents5", "a"], SEPARATE_ATTRIBS),
        (
            &[
                "a",
                "gl_NextBuffer",
                "gl_NextBuffer",
                "gl_NextBuffer",
                "gl_NextBuffer",
                "c",
            ],
            INTERLEAVED_ATTRIBS,
        ),
        (
            &["gl_NextBuffer", "gl_NextBuffer", "gl_NextBuffer", "c"],
            INTERLEAVED_ATTRIBS,
        ),
        (
            &["gl_SkipComponents1", "gl_SkipComponents1", "c"],
            INTERLEAVED_ATTRIBS,
        ),
        (&["gl_SkipComponents5", "c"], INTERLEAVED_ATTRIBS),
    ];
    for (names, mode) in cases {
        gl.transform_feedback_varyings(p, names, mode);
        let error = gl.get_error();
        let mode_now = gl.get_programi(p, TRANSFORM_FEEDBACK_BUFFER_MODE);
        gl.link_program(p);
        let linked = gl.get_programi(p, LINK_STATUS);
        // Only a linked program's varyings: Mesa's TRANSFORM_FEEDBACK_VARYINGS crashes on
        // requests no link has taken yet.
        let (count, first) = if linked == TRUE as GLint {
            let count = gl.get_programi(p, TRANSFORM_FEEDBACK_VARYINGS);
            (
                count,
                format!("{:?}", gl.get_transform_feedback_varying(p, 0)),
            )
        } else {
            (-1, String::new())
        };
        gl.get_error();
        lines.push(format!(
            "{names:?} {mode:#x}: error {error:#x} varyings {count} mode {mode_now:#x} linked {linked} {first}"
        ));
    }
    lines
}

fn compare(names: &[&str]) {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = capture(&mut native, names);
    assert!(expected.written > 0, "the oracle captured");
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = capture(&mut ctx, names);
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
            assert_eq!(got, expected, "{} {transport:?}", backend.name());
        }
    }
}

#[test]
fn skipped_components_leave_gaps_as_natively() {
    compare(&[
        "a",
        "gl_SkipComponents2",
        "b",
        "gl_SkipComponents3",
        "c",
        "gl_SkipComponents1",
    ]);
    compare(&[
        "gl_SkipComponents4",
        "c",
        "gl_SkipComponents1",
        "gl_Position",
    ]);
}

#[test]
fn next_buffer_spreads_interleaved_capture_as_natively() {
    compare(&[
        "gl_Position",
        "gl_NextBuffer",
        "a",
        "gl_SkipComponents3",
        "c",
        "gl_NextBuffer",
        "gl_NextBuffer",
        "gl_SkipComponents1",
        "b",
    ]);
    compare(&["c", "gl_NextBuffer", "gl_NextBuffer", "gl_NextBuffer"]);
}

#[test]
fn layout_errors_and_queries_match_the_native_driver() {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = transcript(&mut native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = transcript(&mut ctx);
            for (g, e) in got.iter().zip(&expected) {
                assert_eq!(g, e, "{} {transport:?}", backend.name());
            }
            assert_eq!(got.len(), expected.len());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

//! GL 4.0's `ARB_transform_feedback3` against the native driver on both backends (Vulkan with
//! the validation layer on, which must report nothing), over the in-process and the thread
//! transports: the layouts (`gl_SkipComponents1`..`4` and `gl_NextBuffer`), interleaved
//! capture with gaps and spread over several buffers, read back as bytes, the layout names as
//! `glGetTransformFeedbackVarying` and `glGetProgramiv` report them, and the errors of layouts
//! GL refuses; and vertex streams: a geometry shader emitting to four streams, each captured
//! into its own buffer (one overflowing) and counted by per-stream queries, stream 0 alone
//! rasterized, drawn back per stream with `glDrawTransformFeedbackStream` (GLES, with one
//! native stream, draws the others in passes of their own), and the indexed query calls'
//! errors against `MAX_VERTEX_STREAMS`.
//! Bytes, pixels, values and errors must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's GL 4.0 entry points, called through their C signatures"
)]

use tessera_engine::Context;
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

/// The calls of vertex streams that the shared [`Gl`] table has no entry for.
trait StreamsGl: Gl {
    fn begin_query_indexed(&mut self, target: GLenum, index: GLuint, id: GLuint);
    fn end_query_indexed(&mut self, target: GLenum, index: GLuint);
    fn get_query_indexedi(&mut self, target: GLenum, index: GLuint, pname: GLenum) -> GLint;
    fn draw_transform_feedback_stream(&mut self, mode: GLenum, id: GLuint, stream: GLuint);
}

impl StreamsGl for Context {
    fn begin_query_indexed(&mut self, target: GLenum, index: GLuint, id: GLuint) {
        Context::begin_query_indexed(self, target, index, id)
    }
    fn end_query_indexed(&mut self, target: GLenum, index: GLuint) {
        Context::end_query_indexed(self, target, index)
    }
    fn get_query_indexedi(&mut self, target: GLenum, index: GLuint, pname: GLenum) -> GLint {
        let mut v = [-1];
        Context::get_query_indexediv(self, target, index, pname, &mut v);
        v[0]
    }
    fn draw_transform_feedback_stream(&mut self, mode: GLenum, id: GLuint, stream: GLuint) {
        Context::draw_transform_feedback_stream(self, mode, id, stream)
    }
}

/// One native entry point of signature `F`.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point::<F>(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl StreamsGl for NativeGl {
    fn begin_query_indexed(&mut self, target: GLenum, index: GLuint, id: GLuint) {
        type F = unsafe extern "system" fn(GLenum, GLuint, GLuint);
        let f: F = native(self, "glBeginQueryIndexed");
        // SAFETY: the context is current on this thread.
        unsafe { f(target, index, id) }
    }
    fn end_query_indexed(&mut self, target: GLenum, index: GLuint) {
        type F = unsafe extern "system" fn(GLenum, GLuint);
        let f: F = native(self, "glEndQueryIndexed");
        // SAFETY: as above.
        unsafe { f(target, index) }
    }
    fn get_query_indexedi(&mut self, target: GLenum, index: GLuint, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLuint, GLenum, *mut GLint);
        let f: F = native(self, "glGetQueryIndexediv");
        let mut v = -1;
        // SAFETY: as above; one value is written.
        unsafe { f(target, index, pname, &mut v) };
        v
    }
    fn draw_transform_feedback_stream(&mut self, mode: GLenum, id: GLuint, stream: GLuint) {
        type F = unsafe extern "system" fn(GLenum, GLuint, GLuint);
        let f: F = native(self, "glDrawTransformFeedbackStream");
        // SAFETY: as above.
        unsafe { f(mode, id, stream) }
    }
}

const STREAM_VS: &str = "#version 400 core
in vec2 position;
out vec2 p;
void main() {
    p = position;
    gl_Position = vec4(position, 0.0, 1.0);
}
";

/// Each point emits itself to stream 0, two points to stream 1 and, for even primitives,
/// one to stream 3; stream 2 is written only for primitives that never come.
const STREAM_GS: &str = "#version 400 core
layout(points) in;
layout(points, max_vertices = 8) out;
in vec2 p[];
layout(stream = 0) out vec4 s0;
layout(stream = 1) out vec4 s1;
layout(stream = 2) out vec4 s2;
layout(stream = 3) out ivec4 s3;
void main() {
    int id = gl_PrimitiveIDIn;
    gl_Position = vec4(p[0], 0.0, 1.0);
    s0 = vec4(p[0], float(id), 1.0);
    EmitStreamVertex(0);
    EndStreamPrimitive(0);
    for (int i = 0; i < 2; i++) {
        s1 = vec4(float(id), float(i), p[0]);
        EmitStreamVertex(1);
        EndStreamPrimitive(1);
    }
    if (id > 100) {
        s2 = vec4(2.5);
        EmitStreamVertex(2);
    }
    if (id % 2 == 0) {
        s3 = ivec4(id, -id - 7, id * 3, 1);
        EmitStreamVertex(3);
        EndStreamPrimitive(3);
    }
}
";

const STREAM_FS: &str = "#version 400 core
in vec4 s0;
out vec4 frag;
void main() { frag = vec4(s0.xy * 0.5 + 0.5, s0.z / 8.0, 1.0); }
";

/// Draws `gl_VertexID` as a point in the bottom row (what a draw from a capture counts).
const COUNT_VS: &str = "#version 400 core
void main() { gl_Position = vec4((float(gl_VertexID) + 0.5) / 8.0 - 1.0, -0.9375, 0.0, 1.0); }
";

const COUNT_FS: &str = "#version 400 core
out vec4 frag;
void main() { frag = vec4(1.0, 0.5, 0.25, 1.0); }
";

fn link(gl: &mut dyn StreamsGl, stages: &[(GLenum, &str)], captured: &[&str]) -> GLuint {
    let p = gl.create_program();
    for &(kind, src) in stages {
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
    gl.bind_attrib_location(p, 0, "position");
    if !captured.is_empty() {
        gl.transform_feedback_varyings(p, captured, INTERLEAVED_ATTRIBS);
    }
    gl.link_program(p);
    p
}

/// What one run of [`streams`] saw.
#[derive(Debug, PartialEq)]
struct StreamsObserved {
    /// The four buffers' bytes.
    buffers: Vec<Vec<u8>>,
    /// `PRIMITIVES_GENERATED` and `TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN` of streams 0..3.
    generated: Vec<GLuint>,
    written: Vec<GLuint>,
    /// The frame the capture drew (stream 0's points).
    frame: Vec<u8>,
    /// Primitives generated by `glDrawTransformFeedbackStream` of each stream, and the
    /// frame of those draws.
    drawn: Vec<GLuint>,
    drawn_frame: Vec<u8>,
    errors: Vec<GLenum>,
}

fn frame(gl: &mut dyn StreamsGl) -> Vec<u8> {
    let mut out = vec![0u8; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut out);
    out
}

/// Five points through [`STREAM_GS`], captured with streams 0..3 into buffers 0..3
/// (buffer 1 a range of 6 of the 10 vertices stream 1 emits) and counted per stream, then
/// drawn back from each stream.
fn streams(gl: &mut dyn StreamsGl) -> StreamsObserved {
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    let p = link(
        gl,
        &[
            (VERTEX_SHADER, STREAM_VS),
            (GEOMETRY_SHADER, STREAM_GS),
            (FRAGMENT_SHADER, STREAM_FS),
        ],
        &[
            "s0",
            "gl_NextBuffer",
            "s1",
            "gl_NextBuffer",
            "s2",
            "gl_NextBuffer",
            "s3",
        ],
    );
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "{}",
        gl.program_info_log(p)
    );
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    let centre = |px: f32| (px + 0.5) / 8.0 - 1.0;
    let verts: Vec<u8> = [
        (2.0, 3.0),
        (5.0, 9.0),
        (12.0, 1.0),
        (8.0, 8.0),
        (14.0, 14.0),
    ]
    .iter()
    .flat_map(|&(x, y)| [centre(x), centre(y)])
    .flat_map(f32::to_le_bytes)
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
        if i == 1 {
            gl.bind_buffer_range(TRANSFORM_FEEDBACK_BUFFER, i, b, 0, 96);
        } else {
            gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, i, b);
        }
        bufs.push(b);
    }
    let queries: Vec<(GLuint, GLuint)> = (0..4).map(|_| (gl.gen_query(), gl.gen_query())).collect();
    for (i, &(generated, written)) in queries.iter().enumerate() {
        gl.begin_query_indexed(PRIMITIVES_GENERATED, i as GLuint, generated);
        gl.begin_query_indexed(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, i as GLuint, written);
    }
    gl.begin_transform_feedback(POINTS);
    gl.draw_arrays(POINTS, 0, 5);
    gl.end_transform_feedback();
    for i in 0..4 {
        gl.end_query_indexed(PRIMITIVES_GENERATED, i);
        gl.end_query_indexed(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, i);
    }
    let mut errors = vec![gl.get_error()];
    let frame_drawn = frame(gl);
    let generated = queries.iter().map(|q| gl.query_result(q.0)).collect();
    let written = queries.iter().map(|q| gl.query_result(q.1)).collect();
    let mut buffers = Vec::new();
    for b in &bufs {
        gl.bind_buffer(COPY_READ_BUFFER, *b);
        let mut out = vec![0u8; SIZE];
        gl.get_buffer_sub_data(COPY_READ_BUFFER, 0, &mut out);
        buffers.push(out);
    }
    // Draw each stream's count back as points in the bottom row (the buffers stay bound
    // for capture but are not read).
    let count = link(
        gl,
        &[(VERTEX_SHADER, COUNT_VS), (FRAGMENT_SHADER, COUNT_FS)],
        &[],
    );
    gl.use_program(count);
    gl.clear(COLOR_BUFFER_BIT);
    let mut drawn = Vec::new();
    for stream in 0..4 {
        let q = gl.gen_query();
        gl.begin_query(PRIMITIVES_GENERATED, q);
        gl.draw_transform_feedback_stream(POINTS, 0, stream);
        gl.end_query(PRIMITIVES_GENERATED);
        drawn.push(gl.query_result(q));
    }
    errors.push(gl.get_error());
    let drawn_frame = frame(gl);
    StreamsObserved {
        buffers,
        generated,
        written,
        frame: frame_drawn,
        drawn,
        drawn_frame,
        errors,
    }
}

/// Native llvmpipe draws twice the vertices a stream captured from a geometry shader of
/// several streams (10 of stream 0's 5 points, 12 of stream 1's 6, 6 of stream 3's 3), where
/// GL 4.0 §2.17.3 draws the vertices captured: so the draws from the capture are compared
/// with the counts native's own primitives-written queries report (one vertex a point), and
/// their frame with those many points; the rest is compared with native as is.
#[test]
fn vertex_streams_capture_count_and_draw_as_natively() {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let mut expected = streams(&mut native);
    assert_eq!(expected.generated, [5, 10, 0, 3], "the oracle's streams");
    assert_eq!(expected.written, [5, 6, 0, 3], "the oracle's streams");
    expected.drawn = expected.written.clone();
    let most = expected.written.iter().copied().max().unwrap_or(0) as usize;
    let point = [255, 128, 64, 255];
    expected.drawn_frame = (0..16 * 16)
        .flat_map(|i| if i < most { point } else { [0; 4] })
        .collect();
    for backend in [Backend::Vulkan, Backend::Gles] {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = streams(&mut ctx);
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
            assert_eq!(got, expected, "{} {transport:?}", backend.name());
        }
    }
}

/// The indexed query calls and `glDrawTransformFeedbackStream` against `MAX_VERTEX_STREAMS`
/// (4 natively and on both backends; GLES's streams are passes of their own).
fn stream_errors(gl: &mut dyn StreamsGl) -> Vec<String> {
    let mut max = [0];
    gl.get_integerv(MAX_VERTEX_STREAMS, &mut max);
    let max = max[0] as GLuint;
    let last = max - 1;
    let mut lines = vec![format!("MAX_VERTEX_STREAMS {max}")];
    let mut line = |gl: &mut dyn StreamsGl, what: &str| {
        let error = gl.get_error();
        lines.push(format!("{what}: {error:#x}"));
    };
    let (q1, q2) = (gl.gen_query(), gl.gen_query());
    gl.begin_query_indexed(PRIMITIVES_GENERATED, max, q1);
    line(gl, "begin generated at max");
    gl.begin_query_indexed(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, max, q1);
    line(gl, "begin written at max");
    gl.begin_query_indexed(SAMPLES_PASSED, 1, q1);
    line(gl, "begin samples at 1");
    gl.begin_query_indexed(TIME_ELAPSED, 1, q1);
    line(gl, "begin elapsed at 1");
    gl.begin_query_indexed(0x1234, 1, q1);
    line(gl, "begin 0x1234 at 1");
    gl.begin_query_indexed(0x1234, 0, q1);
    line(gl, "begin 0x1234 at 0");
    gl.end_query_indexed(PRIMITIVES_GENERATED, max);
    line(gl, "end generated at max");
    gl.end_query_indexed(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, last);
    line(gl, "end inactive written at last");
    let v = gl.get_query_indexedi(PRIMITIVES_GENERATED, max, CURRENT_QUERY);
    line(gl, &format!("current generated at max {v}"));
    let v = gl.get_query_indexedi(SAMPLES_PASSED, 1, CURRENT_QUERY);
    line(gl, &format!("current samples at 1 {v}"));
    let v = gl.get_query_indexedi(0x1234, 0, CURRENT_QUERY);
    line(gl, &format!("current 0x1234 at 0 {v}"));
    gl.begin_query_indexed(PRIMITIVES_GENERATED, last, q1);
    line(gl, "begin generated at last");
    let v = gl.get_query_indexedi(PRIMITIVES_GENERATED, last, CURRENT_QUERY);
    line(
        gl,
        &format!("current generated at last is q1 {}", v == q1 as GLint),
    );
    let v = gl.get_query_indexedi(PRIMITIVES_GENERATED, last, QUERY_COUNTER_BITS);
    line(gl, &format!("bits generated at last {v}"));
    let v = gl.get_query_indexedi(PRIMITIVES_GENERATED, last, 0x1234);
    line(gl, &format!("pname 0x1234 at last {v}"));
    gl.begin_query_indexed(PRIMITIVES_GENERATED, last, q2);
    line(gl, "begin generated at last again");
    gl.begin_query_indexed(PRIMITIVES_GENERATED, 0, q1);
    line(gl, "begin the active query at 0");
    gl.begin_query_indexed(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, last, q1);
    line(gl, "begin the active query as written");
    gl.end_query_indexed(PRIMITIVES_GENERATED, last);
    line(gl, "end generated at last");
    let v = gl.get_query_indexedi(PRIMITIVES_GENERATED, last, CURRENT_QUERY);
    line(gl, &format!("current generated at last {v}"));
    gl.begin_query_indexed(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, last, q1);
    line(gl, "begin the ended generated query as written");
    gl.begin_query_indexed(PRIMITIVES_GENERATED, 0, q1);
    line(gl, "begin it again at 0");
    gl.end_query(PRIMITIVES_GENERATED);
    line(gl, "end at 0");
    gl.draw_transform_feedback_stream(POINTS, 0, max);
    line(gl, "draw stream max of the default object");
    gl.draw_transform_feedback_stream(POINTS, 0, last);
    line(gl, "draw stream last of the default object, never ended");
    gl.draw_transform_feedback_stream(POINTS, 77, 0);
    line(gl, "draw stream 0 of no object");
    lines
}

#[test]
fn indexed_query_errors_match_the_native_driver() {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = stream_errors(&mut native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = stream_errors(&mut ctx);
            assert_eq!(got, expected, "{} {transport:?}", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

/// Programs whose captured buffers mix vertex streams fail to link, as in Mesa; one buffer
/// per stream links.
#[test]
fn buffers_mixing_streams_fail_to_link_as_natively() {
    let run = |gl: &mut dyn StreamsGl| -> Vec<GLint> {
        [
            &["s0", "s1"][..],
            &["s1", "gl_NextBuffer", "s0"],
            &["s2", "gl_NextBuffer", "s3", "gl_SkipComponents1"],
            &["s0", "gl_NextBuffer", "s3", "gl_SkipComponents2", "s2"],
        ]
        .iter()
        .map(|captured| {
            let p = link(
                gl,
                &[
                    (VERTEX_SHADER, STREAM_VS),
                    (GEOMETRY_SHADER, STREAM_GS),
                    (FRAGMENT_SHADER, STREAM_FS),
                ],
                captured,
            );
            gl.get_programi(p, LINK_STATUS)
        })
        .collect()
    };
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = run(&mut native);
    for backend in [Backend::Vulkan, Backend::Gles] {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            assert_eq!(run(&mut ctx), expected, "{} {transport:?}", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

//! Transform feedback against the native driver: the same program captured separately and
//! interleaved (whole arrays and arrays element by element too), with rasterizer discard,
//! read back with `glGetBufferSubData`, the `PRIMITIVES_GENERATED` and
//! `TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN` queries and `glGetTransformFeedbackVarying`, on
//! both backends (Vulkan with the validation layer on, which must report nothing). Bytes,
//! counts and reflection must be exactly the native ones; so must the errors GL names.
//! Members of a geometry stage's interface blocks are captured by their API names too.

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

const VS: &str = "#version 150
in vec2 position;
out vec3 a;
flat out ivec2 b;
out float e[2];
void main() {
    gl_Position = vec4(position, 0.25, 1.0);
    a = vec3(position * 2.0, float(gl_VertexID));
    b = ivec2(gl_VertexID, -gl_VertexID * 3);
    e[0] = float(gl_VertexID) + 0.5;
    e[1] = -position.x;
}
";
const FS: &str = "#version 150
in vec3 a;
out vec4 frag;
void main() { frag = vec4(a, 1.0); }
";

/// What one run observed: the captured varyings as `glGetTransformFeedbackVarying` reports
/// them (and its error for the index past them), per buffer the captured bytes, then the
/// two query results and the errors of the misuse checks.
#[derive(Debug, PartialEq)]
struct Observed {
    varyings: Vec<(String, GLsizei, GLenum)>,
    past_end: GLenum,
    buffers: Vec<Vec<u8>>,
    generated: u32,
    written: u32,
    errors: Vec<GLenum>,
}

fn program(gl: &mut dyn Gl, names: &[&str], mode: GLenum) -> GLuint {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)] {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        gl.attach_shader(p, s);
    }
    gl.bind_attrib_location(p, 0, "position");
    gl.transform_feedback_varyings(p, names, mode);
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "{}",
        gl.program_info_log(p)
    );
    p
}

/// Draws 4 triangles' worth of vertices (a strip of 6 and a list of 3) while capturing
/// into buffers of 256 bytes each (the strip's 4 triangles overflow a small range).
fn capture(gl: &mut dyn Gl, names: &[&str], mode: GLenum, discard: bool) -> Observed {
    gl.viewport(0, 0, 16, 16);
    let p = program(gl, names, mode);
    let varyings = (0..names.len() as GLuint)
        .map(|i| gl.get_transform_feedback_varying(p, i))
        .collect();
    gl.get_transform_feedback_varying(p, names.len() as GLuint);
    let past_end = gl.get_error();
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
    let count = if mode == SEPARATE_ATTRIBS {
        names.len()
    } else {
        1
    };
    let mut bufs = Vec::new();
    for i in 0..count {
        let b = gl.gen_buffer();
        gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, b);
        let fill = vec![0xAAu8; 256];
        gl.buffer_data(TRANSFORM_FEEDBACK_BUFFER, 256, Some(&fill), STATIC_READ);
        if i == 0 {
            // A range that starts past the start: capture begins at its offset.
            gl.bind_buffer_range(TRANSFORM_FEEDBACK_BUFFER, 0, b, 16, 224);
        } else {
            gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, i as GLuint, b);
        }
        bufs.push(b);
    }
    if discard {
        gl.enable(RASTERIZER_DISCARD);
    }
    let generated = gl.gen_query();
    let written = gl.gen_query();
    let mut errors = Vec::new();
    gl.begin_query(PRIMITIVES_GENERATED, generated);
    gl.begin_query(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, written);
    gl.begin_transform_feedback(TRIANGLES);
    // Misuse while active: each is INVALID_OPERATION and changes nothing.
    gl.draw_arrays(POINTS, 0, 3);
    errors.push(gl.get_error());
    gl.use_program(0);
    errors.push(gl.get_error());
    gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, 0, bufs[0]);
    errors.push(gl.get_error());
    gl.begin_transform_feedback(TRIANGLES);
    errors.push(gl.get_error());
    gl.draw_arrays(TRIANGLE_STRIP, 0, 6);
    gl.draw_arrays(TRIANGLES, 3, 3);
    gl.end_transform_feedback();
    gl.end_query(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
    gl.end_query(PRIMITIVES_GENERATED);
    gl.end_transform_feedback();
    errors.push(gl.get_error());
    gl.disable(RASTERIZER_DISCARD);
    let mut buffers = Vec::new();
    for b in &bufs {
        gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, *b);
        let mut out = vec![0u8; 256];
        gl.get_buffer_sub_data(TRANSFORM_FEEDBACK_BUFFER, 0, &mut out);
        buffers.push(out);
    }
    Observed {
        varyings,
        past_end,
        buffers,
        generated: gl.query_result(generated),
        written: gl.query_result(written),
        errors,
    }
}

fn compare(names: &[&str], mode: GLenum, discard: bool) {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = capture(&mut native, names, mode, discard);
    assert_eq!(expected.errors[..4], [INVALID_OPERATION; 4]);
    assert_ne!(
        expected.buffers[0][16..32],
        [0xAA; 16],
        "the oracle captured"
    );
    assert_eq!(expected.past_end, INVALID_VALUE);
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 16, 16);
        let got = capture(&mut ctx, names, mode, discard);
        assert_eq!(got, expected, "{}", backend.name());
        // Validation messages and missing features are events; there must be none.
        let events: Vec<Event> = ctx.take_events();
        assert!(events.is_empty(), "{}: {events:?}", backend.name());
    }
}

#[test]
fn interleaved_capture_matches_the_native_driver() {
    compare(&["gl_Position", "a", "b"], INTERLEAVED_ATTRIBS, false);
}

#[test]
fn separate_capture_with_rasterizer_discard_matches_the_native_driver() {
    compare(&["a", "b", "gl_Position"], SEPARATE_ATTRIBS, true);
}

#[test]
fn arrays_whole_and_element_by_element_match_the_native_driver() {
    compare(&["e", "a"], INTERLEAVED_ATTRIBS, false);
    compare(&["a", "e[0]", "e[1]", "b"], INTERLEAVED_ATTRIBS, true);
}

/// A geometry stage writing interface blocks: one without instance name, one with, and a
/// block array with an array member; each point emits two vertices with other values.
const BLOCKS_GS: &str = "#version 150
layout(points) in;
layout(points, max_vertices = 2) out;
out NoInst { float a; vec3 b; };
out WithInst { float c; vec3 d; } inst;
out WithInstArray { float e; vec3 f; float g[3]; } instArray[2];
void main() {
    vec4 p = gl_in[0].gl_Position;
    for (int k = 0; k < 2; k++) {
        gl_Position = p;
        a = p.x + float(k);
        b = vec3(p.xy, float(k));
        inst.c = float(gl_PrimitiveIDIn);
        inst.d = p.yxy * 2.0;
        for (int i = 0; i < 2; i++) {
            instArray[i].e = 5.0 * float(i) + p.x;
            instArray[i].f = vec3(6.0 + 5.0 * float(i), p.y, float(k));
            for (int j = 0; j < 3; j++) {
                instArray[i].g[j] = instArray[i].e + 2.0 + float(j) + 10.0 * float(k);
            }
        }
        EmitVertex();
    }
}
";

/// The same blocks written by a vertex stage, which returns early for one vertex.
const BLOCKS_VS: &str = "#version 150
in vec2 position;
out NoInst { float a; vec3 b; };
out WithInst { float c; vec3 d; } inst;
out WithInstArray { float e; vec3 f; float g[3]; } instArray[2];
void main() {
    gl_Position = vec4(position, 0.25, 1.0);
    a = position.x;
    b = vec3(position, float(gl_VertexID));
    inst.c = float(gl_VertexID) * 3.0;
    inst.d = position.yxy;
    for (int i = 0; i < 2; i++) {
        instArray[i].e = position.x + float(i);
        instArray[i].f = vec3(float(i), position);
        for (int j = 0; j < 3; j++) {
            instArray[i].g[j] = float(10 * i + j) + position.y;
        }
    }
    if (gl_VertexID == 1) {
        return;
    }
    a = -a;
}
";

/// What `glGetTransformFeedbackVarying` reports of each captured varying, and every
/// buffer's bytes.
type Captured = (Vec<(String, GLsizei, GLenum)>, Vec<Vec<u8>>);

/// Captures the block members `names` of [`BLOCKS_GS`] (or of [`BLOCKS_VS`] without
/// `geometry`) from 3 points, each name into its own buffer when `mode` is separate.
fn capture_blocks(gl: &mut dyn Gl, names: &[&str], mode: GLenum, geometry: bool) -> Captured {
    gl.viewport(0, 0, 16, 16);
    let p = gl.create_program();
    let vs = "#version 150\nin vec2 position;\n\
              void main() { gl_Position = vec4(position, 0.25, 1.0); }\n";
    let fs = "#version 150\nout vec4 frag;\nvoid main() { frag = vec4(1.0); }\n";
    let stages = if geometry {
        vec![
            (VERTEX_SHADER, vs),
            (GEOMETRY_SHADER, BLOCKS_GS),
            (FRAGMENT_SHADER, fs),
        ]
    } else {
        vec![(VERTEX_SHADER, BLOCKS_VS), (FRAGMENT_SHADER, fs)]
    };
    for (kind, src) in stages {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        gl.attach_shader(p, s);
    }
    gl.bind_attrib_location(p, 0, "position");
    gl.transform_feedback_varyings(p, names, mode);
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
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    let verts: Vec<u8> = [-1.0f32, -0.5, 0.75, 0.5, 0.25, -0.125]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let count = if mode == SEPARATE_ATTRIBS {
        names.len()
    } else {
        1
    };
    let mut bufs = Vec::new();
    for i in 0..count {
        let b = gl.gen_buffer();
        gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, b);
        let fill = vec![0xAAu8; 1024];
        gl.buffer_data(TRANSFORM_FEEDBACK_BUFFER, 1024, Some(&fill), STATIC_READ);
        gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, i as GLuint, b);
        bufs.push(b);
    }
    gl.begin_transform_feedback(POINTS);
    gl.draw_arrays(POINTS, 0, 3);
    gl.end_transform_feedback();
    assert_eq!(gl.get_error(), NO_ERROR);
    let mut buffers = Vec::new();
    for b in &bufs {
        gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, *b);
        let mut out = vec![0u8; 1024];
        gl.get_buffer_sub_data(TRANSFORM_FEEDBACK_BUFFER, 0, &mut out);
        buffers.push(out);
    }
    (varyings, buffers)
}

fn compare_blocks(names: &[&str], mode: GLenum, geometry: bool) {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = capture_blocks(&mut native, names, mode, geometry);
    for b in &expected.1 {
        assert_ne!(b[..16], [0xAA; 16], "the oracle captured");
    }
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 16, 16);
        let got = capture_blocks(&mut ctx, names, mode, geometry);
        assert_eq!(got, expected, "{}", backend.name());
        let events: Vec<Event> = ctx.take_events();
        assert!(events.is_empty(), "{}: {events:?}", backend.name());
    }
}

/// The names of piglit's interface-blocks-api-access-members.
const BLOCK_MEMBERS: [&str; 14] = [
    "a",
    "b",
    "WithInst.c",
    "WithInst.d",
    "WithInstArray[0].e",
    "WithInstArray[0].f",
    "WithInstArray[1].e",
    "WithInstArray[1].f",
    "WithInstArray[0].g[0]",
    "WithInstArray[0].g[1]",
    "WithInstArray[0].g[2]",
    "WithInstArray[1].g[0]",
    "WithInstArray[1].g[1]",
    "WithInstArray[1].g[2]",
];

#[test]
fn interface_block_members_match_the_native_driver() {
    for geometry in [true, false] {
        compare_blocks(&BLOCK_MEMBERS, INTERLEAVED_ATTRIBS, geometry);
        compare_blocks(
            &["WithInst.d", "WithInstArray[1].g[2]", "a", "gl_Position"],
            SEPARATE_ATTRIBS,
            geometry,
        );
    }
}

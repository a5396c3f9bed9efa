//! Pipeline statistics queries (GL 4.6's `ARB_pipeline_statistics_query`) against the
//! native driver: each of the eleven targets around five kinds of work (a plain draw, an
//! indexed draw, a draw through a geometry stage, a tessellated draw and a compute
//! dispatch), on the Vulkan backend (the validation layer on, which must report nothing),
//! and the GLES backend's refusal of the targets (ES has no such queries: the extension is
//! not advertised there, and the targets are `INVALID_ENUM`, as on a driver without it).

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_stages;

/// The eleven targets, in the order of the results.
const TARGETS: [GLenum; 11] = [
    VERTICES_SUBMITTED,
    PRIMITIVES_SUBMITTED,
    VERTEX_SHADER_INVOCATIONS,
    TESS_CONTROL_SHADER_PATCHES,
    TESS_EVALUATION_SHADER_INVOCATIONS,
    GEOMETRY_SHADER_INVOCATIONS,
    GEOMETRY_SHADER_PRIMITIVES_EMITTED,
    FRAGMENT_SHADER_INVOCATIONS,
    COMPUTE_SHADER_INVOCATIONS,
    CLIPPING_INPUT_PRIMITIVES,
    CLIPPING_OUTPUT_PRIMITIVES,
];

const VS: &str = "#version 400 core
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

const FS: &str = "#version 400 core
out vec4 frag;
void main() { frag = vec4(1.0, 0.5, 0.25, 1.0); }
";

/// Emits each triangle twice, once moved right; two invocations per primitive.
const GS: &str = "#version 400 core
layout(triangles, invocations = 2) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position + vec4(float(gl_InvocationID) * 0.25, 0.0, 0.0, 0.0);
        EmitVertex();
    }
    EndPrimitive();
}
";

const TCS: &str = "#version 400 core
layout(vertices = 3) out;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = 2.0;
    gl_TessLevelOuter[1] = 2.0;
    gl_TessLevelOuter[2] = 2.0;
    gl_TessLevelInner[0] = 1.0;
}
";

const TES: &str = "#version 400 core
layout(triangles, equal_spacing, ccw) in;
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
        + gl_TessCoord.z * gl_in[2].gl_Position;
}
";

const CS: &str = "#version 430 core
layout(local_size_x = 4, local_size_y = 2) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
void main() { words[gl_LocalInvocationIndex] = 1u; }
";

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The work each target is measured around.
#[derive(Clone, Copy, Debug)]
enum Work {
    /// Two triangles of six vertices, one partly off screen (clipped).
    Draw,
    /// The same triangles from six indices naming four vertices.
    Indexed,
    /// One triangle through the geometry stage.
    Geometry,
    /// One patch of three vertices, tessellated.
    Tessellated,
    /// Two work groups of eight invocations.
    Compute,
}

const WORK: [Work; 5] = [
    Work::Draw,
    Work::Indexed,
    Work::Geometry,
    Work::Tessellated,
    Work::Compute,
];

/// Each target's count around each kind of work, in [`TARGETS`] order.
fn statistics(gl: &mut dyn Gl) -> Vec<Vec<u32>> {
    let plain = link_stages(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)]);
    let geometry = link_stages(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (GEOMETRY_SHADER, GS),
            (FRAGMENT_SHADER, FS),
        ],
    );
    let tessellated = link_stages(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_CONTROL_SHADER, TCS),
            (TESS_EVALUATION_SHADER, TES),
            (FRAGMENT_SHADER, FS),
        ],
    );
    let compute = link_stages(gl, &[(COMPUTE_SHADER, CS)]);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    let vertices = floats(&[
        -1.0, -1.0, 0.0, -1.0, -1.0, 0.0, // inside
        0.5, 0.5, 2.0, 0.5, 0.5, 2.0, // partly outside
    ]);
    gl.buffer_data(ARRAY_BUFFER, vertices.len(), Some(&vertices), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let ib = gl.gen_buffer();
    gl.bind_buffer(ELEMENT_ARRAY_BUFFER, ib);
    let indices: Vec<u8> = [0u32, 1, 2, 2, 1, 0]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    gl.buffer_data(
        ELEMENT_ARRAY_BUFFER,
        indices.len(),
        Some(&indices),
        STATIC_DRAW,
    );
    let out = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, out);
    gl.buffer_data(SHADER_STORAGE_BUFFER, 64, Some(&[0; 64]), STATIC_DRAW);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 0, out);
    gl.patch_parameter_i(PATCH_VERTICES, 3);
    gl.viewport(0, 0, 16, 16);
    let mut all = Vec::new();
    for target in TARGETS {
        let mut row = Vec::new();
        for work in WORK {
            gl.clear(COLOR_BUFFER_BIT);
            let q = gl.gen_query();
            gl.begin_query(target, q);
            match work {
                Work::Draw => {
                    gl.use_program(plain);
                    gl.draw_arrays(TRIANGLES, 0, 6);
                }
                Work::Indexed => {
                    gl.use_program(plain);
                    gl.draw_elements(TRIANGLES, 6, UNSIGNED_INT, 0);
                }
                Work::Geometry => {
                    gl.use_program(geometry);
                    gl.draw_arrays(TRIANGLES, 0, 3);
                }
                Work::Tessellated => {
                    gl.use_program(tessellated);
                    gl.draw_arrays(PATCHES, 0, 3);
                }
                Work::Compute => {
                    gl.use_program(compute);
                    gl.dispatch_compute(2, 1, 1);
                }
            }
            gl.end_query(target);
            row.push(gl.query_result(q));
            assert_eq!(gl.get_error(), NO_ERROR, "{target:#x} {work:?}");
        }
        all.push(row);
    }
    all
}

#[test]
fn pipeline_statistics_match_the_native_driver() {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = statistics(&mut native);
    drop(native);
    // What GL's rules fix, whatever the implementation (and that each target counts only
    // the work it names).
    let at = |t: GLenum| TARGETS.iter().position(|&x| x == t).unwrap();
    assert_eq!(expected[at(VERTICES_SUBMITTED)], [6, 6, 3, 3, 0]);
    assert_eq!(expected[at(PRIMITIVES_SUBMITTED)], [2, 2, 1, 1, 0]);
    assert_eq!(
        expected[at(GEOMETRY_SHADER_PRIMITIVES_EMITTED)],
        [0, 0, 2, 0, 0]
    );
    assert_eq!(expected[at(TESS_CONTROL_SHADER_PATCHES)], [0, 0, 0, 1, 0]);
    assert_eq!(expected[at(COMPUTE_SHADER_INVOCATIONS)], [0, 0, 0, 0, 16]);
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let mut ctx = tessera_on(Backend::Vulkan, transport.clone(), 16, 16);
        assert!(
            advertised(&mut ctx)
                .iter()
                .any(|e| e == "GL_ARB_pipeline_statistics_query")
        );
        // lavapipe counts as llvmpipe does (both are gallium's draw and rasterizer
        // counters), so every count is native's: a vertex shaded once for an indexed draw
        // that names it twice, the fragments of each pixel covered, the triangles the
        // clipper makes of one partly outside, one geometry invocation per input
        // primitive, the tessellator's domain points.
        assert_eq!(statistics(&mut ctx), expected, "{}", transport.name());
        ctx.finish();
        assert!(!ctx.is_lost());
        let events: Vec<Event> = ctx.take_events();
        assert!(events.is_empty(), "{events:?}");
    }
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    let n = ctx.get_integer(NUM_EXTENSIONS);
    (0..n as GLuint)
        .map(|i| ctx.get_stringi(EXTENSIONS, i).expect("an extension name"))
        .collect()
}

/// The query state and errors of the targets, as Mesa answers and raises them where it
/// counts them (counter bits, the current query, a second begin, ends, a name of another
/// target, a stream past 0).
fn transcript(gl: &mut Context) -> Vec<GLenum> {
    let mut e = Vec::new();
    for target in TARGETS {
        let (q, r) = (gl.gen_query(), gl.gen_query());
        let mut bits = [-1];
        gl.get_queryiv(target, QUERY_COUNTER_BITS, &mut bits);
        e.push(gl.get_error());
        e.push(bits[0] as GLenum);
        gl.begin_query(target, q);
        e.push(gl.get_error());
        let mut current = [-1];
        gl.get_queryiv(target, CURRENT_QUERY, &mut current);
        e.push(u32::from(current[0] as GLuint == q));
        gl.begin_query(target, r);
        e.push(gl.get_error());
        gl.end_query(target);
        e.push(gl.get_error());
        gl.end_query(target);
        e.push(gl.get_error());
        // The name now counts this target only.
        let other = if target == VERTICES_SUBMITTED {
            PRIMITIVES_SUBMITTED
        } else {
            VERTICES_SUBMITTED
        };
        gl.begin_query(other, q);
        e.push(gl.get_error());
        gl.begin_query_indexed(target, 1, r);
        e.push(gl.get_error());
    }
    e
}

#[test]
fn the_targets_state_and_errors_follow_mesa_and_are_refused_on_gles() {
    let mut vk = tessera_on(Backend::Vulkan, TransportKind::Inproc, 16, 16);
    let got = transcript(&mut vk);
    let mut expected = Vec::new();
    for _ in TARGETS {
        expected.extend([NO_ERROR, 64, NO_ERROR, 1, INVALID_OPERATION, NO_ERROR]);
        expected.extend([INVALID_OPERATION, INVALID_OPERATION, INVALID_VALUE]);
    }
    assert_eq!(got, expected);
    let mut gles = tessera_on(Backend::Gles, TransportKind::Inproc, 16, 16);
    assert!(
        !advertised(&mut gles)
            .iter()
            .any(|e| e == "GL_ARB_pipeline_statistics_query")
    );
    // Every target an unknown enum, as on a driver without the extension (nothing written);
    // a stream past 0 is checked before the target, as in Mesa.
    let got = transcript(&mut gles);
    let mut expected = Vec::new();
    for _ in TARGETS {
        expected.extend([INVALID_ENUM, (-1i32) as GLenum, INVALID_ENUM, 0]);
        expected.extend([INVALID_ENUM, INVALID_ENUM, INVALID_ENUM, INVALID_ENUM]);
        expected.push(INVALID_VALUE);
    }
    assert_eq!(got, expected);
}

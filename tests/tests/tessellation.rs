//! Tessellation (GL 4.0, `ARB_tessellation_shader`) against the native driver: the
//! triangle, quad and isoline domains, equal and fractional spacing, point mode, a control
//! stage with per-patch outputs, patches of 3 and 4 vertices (drawn directly and indexed),
//! a geometry stage after the evaluation stage, the errors and queries, and steady frames
//! that make no pipeline, on both backends over inproc and thread (Vulkan with the
//! validation layer on, which must report nothing). Pixels, errors and values must be
//! exactly the native ones.

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The side of the scenes' square framebuffer.
const SIZE: i32 = 32;

/// Passes a position and a colour on (GLSL 1.50: the tessellation stages come with the
/// extension in the stages that need it).
const VS: &str = "#version 150
in vec2 position;
in vec3 colour;
out vec3 v_colour;
void main() { gl_Position = vec4(position, 0.0, 1.0); v_colour = colour; }
";

/// Three control points, levels from uniforms, the colours passed on per vertex.
const TCS_TRIANGLES: &str = "#version 150
#extension GL_ARB_tessellation_shader : require
layout(vertices = 3) out;
uniform vec4 outer;
uniform float inner;
in vec3 v_colour[];
out vec3 c_colour[];
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    c_colour[gl_InvocationID] = v_colour[gl_InvocationID];
    gl_TessLevelOuter[0] = outer.x;
    gl_TessLevelOuter[1] = outer.y;
    gl_TessLevelOuter[2] = outer.z;
    gl_TessLevelInner[0] = inner;
}
";

/// The triangle domain, `SPACING` and `ORDER` replaced; each generated triangle flat in the
/// colour of its provoking vertex's barycentric coordinates.
const TES_TRIANGLES: &str = "#version 400
layout(triangles, SPACING, ORDER) in;
in vec3 c_colour[];
flat out vec3 t_colour;
void main() {
    vec3 t = gl_TessCoord;
    gl_Position = t.x * gl_in[0].gl_Position + t.y * gl_in[1].gl_Position
        + t.z * gl_in[2].gl_Position;
    t_colour = t.x * c_colour[0] + t.y * c_colour[1] + t.z * c_colour[2];
}
";

const FS_FLAT: &str = "#version 150
flat in vec3 t_colour;
out vec4 frag;
void main() { frag = vec4(t_colour, 1.0); }
";

/// Four control points of a quad, and one per-patch colour written by invocation 0.
const TCS_QUADS: &str = "#version 400
layout(vertices = 4) out;
in vec3 v_colour[];
patch out vec3 patch_colour;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    if (gl_InvocationID == 0) {
        patch_colour = v_colour[0] + v_colour[2];
        gl_TessLevelOuter[0] = 2.0;
        gl_TessLevelOuter[1] = 3.5;
        gl_TessLevelOuter[2] = 2.6;
        gl_TessLevelOuter[3] = 4.0;
        gl_TessLevelInner[0] = 3.2;
        gl_TessLevelInner[1] = 2.2;
    }
}
";

/// The quad domain with fractional odd spacing; the per-patch colour shaded by position in
/// the domain.
const TES_QUADS: &str = "#version 400
layout(quads, fractional_odd_spacing, cw) in;
patch in vec3 patch_colour;
flat out vec3 t_colour;
void main() {
    vec2 t = gl_TessCoord.xy;
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, t.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, t.x);
    gl_Position = mix(a, b, t.y);
    t_colour = patch_colour * vec3(t, 1.0 - t.x * t.y);
}
";

/// Isolines: levels from the control stage, each line coloured by its v.
const TCS_LINES: &str = "#version 400
layout(vertices = 4) out;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = 5.0;
    gl_TessLevelOuter[1] = 7.0;
}
";

const TES_LINES: &str = "#version 400
layout(isolines, equal_spacing) in;
flat out vec3 t_colour;
void main() {
    vec2 t = gl_TessCoord.xy;
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, t.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, t.x);
    gl_Position = mix(a, b, t.y * 1.25);
    t_colour = vec3(t.y * 1.2, t.x, 1.0);
}
";

/// Point mode with fractional even spacing: one point per generated vertex, sized by
/// `glPointSize`.
const TES_POINTS: &str = "#version 400
layout(triangles, fractional_even_spacing, point_mode) in;
in vec3 c_colour[];
flat out vec3 t_colour;
void main() {
    vec3 t = gl_TessCoord;
    gl_Position = t.x * gl_in[0].gl_Position + t.y * gl_in[1].gl_Position
        + t.z * gl_in[2].gl_Position;
    t_colour = t;
}
";

/// A geometry stage after the evaluation stage: each generated triangle shrunk towards its
/// centre.
const GS_SHRINK: &str = "#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
flat in vec3 t_colour[];
flat out vec3 g_colour;
void main() {
    vec4 c = (gl_in[0].gl_Position + gl_in[1].gl_Position + gl_in[2].gl_Position) / 3.0;
    for (int i = 0; i < 3; i++) {
        gl_Position = mix(c, gl_in[i].gl_Position, 0.7);
        g_colour = t_colour[i].zyx;
        EmitVertex();
    }
    EndPrimitive();
}
";

const FS_GS: &str = "#version 150
flat in vec3 g_colour;
out vec4 frag;
void main() { frag = vec4(g_colour, 1.0); }
";

fn shader(gl: &mut dyn Gl, kind: GLenum, src: &str) -> GLuint {
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

/// Links `stages`; the program and its link status (asserted true when `must_link`).
fn link(gl: &mut dyn Gl, stages: &[(GLenum, &str)], must_link: bool) -> (GLuint, GLint) {
    let p = gl.create_program();
    for &(kind, src) in stages {
        let s = shader(gl, kind, src);
        gl.attach_shader(p, s);
    }
    gl.bind_attrib_location(p, 0, "position");
    gl.bind_attrib_location(p, 1, "colour");
    gl.link_program(p);
    let status = gl.get_programi(p, LINK_STATUS);
    if must_link {
        assert_eq!(status, TRUE as i32, "{}", gl.program_info_log(p));
    }
    (p, status)
}

fn program(gl: &mut dyn Gl, stages: &[(GLenum, &str)]) -> GLuint {
    link(gl, stages, true).0
}

fn triangles_tes(spacing: &str, order: &str) -> String {
    TES_TRIANGLES
        .replace("SPACING", spacing)
        .replace("ORDER", order)
}

/// Two patches of three vertices (position, colour) and one of four after them.
fn vertices(gl: &mut dyn Gl) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    #[rustfmt::skip]
    let data: [f32; 50] = [
        // Triangle patch 0 (counter-clockwise).
        -0.9, -0.9, 1.0, 0.0, 0.0,
        0.7, -0.8, 0.0, 1.0, 0.0,
        -0.6, 0.8, 0.0, 0.0, 1.0,
        // Triangle patch 1 (clockwise).
        0.9, 0.9, 1.0, 1.0, 0.0,
        0.8, -0.2, 0.0, 1.0, 1.0,
        -0.1, 0.7, 1.0, 0.0, 1.0,
        // A quad patch.
        -0.8, -0.7, 0.9, 0.2, 0.1,
        0.75, -0.85, 0.3, 0.5, 0.7,
        0.85, 0.8, 0.1, 0.8, 0.3,
        -0.7, 0.9, 0.6, 0.1, 0.9,
    ];
    let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 20, 0);
    gl.vertex_attrib_pointer(1, 3, FLOAT, false, 20, 8);
    gl.enable_vertex_attrib_array(0);
    gl.enable_vertex_attrib_array(1);
}

fn frame(gl: &mut dyn Gl) -> Vec<u8> {
    let mut pixels = vec![0u8; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut pixels);
    pixels
}

fn clear(gl: &mut dyn Gl) {
    gl.viewport(0, 0, SIZE, SIZE);
    gl.clear_color(0.0, 0.0, 0.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
}

/// The triangle domain with each spacing and both orders, back faces culled (so the order
/// decides what is drawn), two patches per draw.
fn triangle_domain(gl: &mut dyn Gl) -> Vec<Vec<u8>> {
    vertices(gl);
    let mut frames = Vec::new();
    gl.enable(CULL_FACE);
    for spacing in [
        "equal_spacing",
        "fractional_odd_spacing",
        "fractional_even_spacing",
    ] {
        for order in ["ccw", "cw"] {
            let tes = triangles_tes(spacing, order);
            let p = program(
                gl,
                &[
                    (VERTEX_SHADER, VS),
                    (TESS_CONTROL_SHADER, TCS_TRIANGLES),
                    (TESS_EVALUATION_SHADER, &tes),
                    (FRAGMENT_SHADER, FS_FLAT),
                ],
            );
            gl.use_program(p);
            let outer = gl.get_uniform_location(p, "outer");
            let inner = gl.get_uniform_location(p, "inner");
            gl.uniform4f(outer, 3.0, 2.4, 5.3, 0.0);
            gl.uniform1f(inner, 3.7);
            clear(gl);
            gl.draw_arrays(PATCHES, 0, 6);
            frames.push(frame(gl));
        }
    }
    gl.disable(CULL_FACE);
    assert_eq!(gl.get_error(), NO_ERROR);
    frames
}

/// The quad domain from patches of four vertices with a per-patch output, drawn directly
/// and through indices.
fn quad_domain(gl: &mut dyn Gl) -> Vec<Vec<u8>> {
    vertices(gl);
    let mut frames = Vec::new();
    let quads = program(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_CONTROL_SHADER, TCS_QUADS),
            (TESS_EVALUATION_SHADER, TES_QUADS),
            (FRAGMENT_SHADER, FS_FLAT),
        ],
    );
    gl.use_program(quads);
    gl.patch_parameter_i(PATCH_VERTICES, 4);
    clear(gl);
    gl.draw_arrays(PATCHES, 6, 4);
    frames.push(frame(gl));
    // The same patch through indices, its corners rotated by one.
    let ib = gl.gen_buffer();
    gl.bind_buffer(ELEMENT_ARRAY_BUFFER, ib);
    let indices: Vec<u8> = [7u16, 8, 9, 6]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    gl.buffer_data(
        ELEMENT_ARRAY_BUFFER,
        indices.len(),
        Some(&indices),
        STATIC_DRAW,
    );
    clear(gl);
    gl.draw_elements(PATCHES, 4, UNSIGNED_SHORT, 0);
    frames.push(frame(gl));
    gl.patch_parameter_i(PATCH_VERTICES, 3);
    assert_eq!(gl.get_error(), NO_ERROR);
    frames
}

/// The corners of the isolines' patch: a rectangle whose lines fall on no pixel edge.
const ISOLINE_CORNERS: [[f32; 2]; 4] = [[-0.8, -0.7], [0.7, -0.7], [0.7, 0.85], [-0.8, 0.85]];

/// Isolines (5 lines of 7 segments, equal spacing), then the same segments computed here
/// and drawn as `LINES` with the colour each segment's last vertex has (the provoking one):
/// what the two draw must be the same pixels.
fn isolines(gl: &mut dyn Gl) -> (Vec<u8>, Vec<u8>) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    let corners: Vec<u8> = ISOLINE_CORNERS
        .iter()
        .flat_map(|c| [c[0], c[1], 0.0, 0.0, 0.0])
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, corners.len(), Some(&corners), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 20, 0);
    gl.vertex_attrib_pointer(1, 3, FLOAT, false, 20, 8);
    gl.enable_vertex_attrib_array(0);
    gl.enable_vertex_attrib_array(1);
    let lines = program(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_CONTROL_SHADER, TCS_LINES),
            (TESS_EVALUATION_SHADER, TES_LINES),
            (FRAGMENT_SHADER, FS_FLAT),
        ],
    );
    gl.use_program(lines);
    gl.patch_parameter_i(PATCH_VERTICES, 4);
    clear(gl);
    gl.draw_arrays(PATCHES, 0, 4);
    let tessellated = frame(gl);
    gl.patch_parameter_i(PATCH_VERTICES, 3);
    // The same segments from here: u = i / 7 along each line, v = j / 5 across them.
    let mix = |a: f32, b: f32, t: f32| a * (1.0 - t) + b * t;
    let at = |u: f32, v: f32| {
        let [p0, p1, p2, p3] = ISOLINE_CORNERS;
        let a = [mix(p0[0], p1[0], u), mix(p0[1], p1[1], u)];
        let b = [mix(p3[0], p2[0], u), mix(p3[1], p2[1], u)];
        [mix(a[0], b[0], v * 1.25), mix(a[1], b[1], v * 1.25)]
    };
    let mut segments = Vec::new();
    for j in 0..5 {
        let v = j as f32 / 5.0;
        for i in 0..7 {
            let (u0, u1) = (i as f32 / 7.0, (i + 1) as f32 / 7.0);
            for u in [u0, u1] {
                let p = at(u, v);
                segments.extend_from_slice(&[p[0], p[1], v * 1.2, u1, 1.0]);
            }
        }
    }
    let bytes: Vec<u8> = segments.iter().flat_map(|v| v.to_le_bytes()).collect();
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    let flat_vs = "#version 150
in vec2 position;
in vec3 colour;
flat out vec3 t_colour;
void main() { gl_Position = vec4(position, 0.0, 1.0); t_colour = colour; }
";
    let plain = program(gl, &[(VERTEX_SHADER, flat_vs), (FRAGMENT_SHADER, FS_FLAT)]);
    gl.use_program(plain);
    clear(gl);
    gl.draw_arrays(LINES, 0, 70);
    let drawn = frame(gl);
    assert_eq!(gl.get_error(), NO_ERROR);
    (tessellated, drawn)
}

/// An evaluation stage without a control stage: the default levels of
/// `glPatchParameterfv` tessellate, and the patch's vertices arrive as they are
/// (`gl_PatchVerticesIn` is the patch size).
const TES_DEFAULT_TRIANGLES: &str = "#version 150
#extension GL_ARB_tessellation_shader : require
layout(triangles, fractional_odd_spacing, ccw) in;
in vec3 v_colour[];
flat out vec3 t_colour;
void main() {
    vec3 t = gl_TessCoord;
    gl_Position = t.x * gl_in[0].gl_Position + t.y * gl_in[1].gl_Position
        + t.z * gl_in[2].gl_Position;
    t_colour = (t.x * v_colour[0] + t.y * v_colour[1] + t.z * v_colour[2])
        * float(gl_PatchVerticesIn) / 4.0;
}
";

const TES_DEFAULT_QUADS: &str = "#version 400
layout(quads, equal_spacing, cw) in;
in vec3 v_colour[];
flat out vec3 t_colour;
void main() {
    vec2 t = gl_TessCoord.xy;
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, t.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, t.x);
    gl_Position = mix(a, b, t.y);
    t_colour = mix(v_colour[0], v_colour[2], t.y) * vec3(t, 1.0)
        * float(gl_PatchVerticesIn) / 4.0;
}
";

/// Evaluation stages without a control stage: two sets of default levels for triangles,
/// then quads from patches of 4 (each a link of its own with the default control stage
/// on Tessera), then the first levels again.
fn default_levels(gl: &mut dyn Gl) -> Vec<Vec<u8>> {
    vertices(gl);
    let mut frames = Vec::new();
    let triangles = program(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_EVALUATION_SHADER, TES_DEFAULT_TRIANGLES),
            (FRAGMENT_SHADER, FS_FLAT),
        ],
    );
    let quads = program(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_EVALUATION_SHADER, TES_DEFAULT_QUADS),
            (FRAGMENT_SHADER, FS_FLAT),
        ],
    );
    gl.use_program(triangles);
    for (outer, inner) in [
        ([3.0, 2.2, 5.0, 1.0], [4.0, 1.0]),
        ([1.0, 6.0, 2.0, 1.0], [2.5, 1.0]),
    ] {
        gl.patch_parameterfv(PATCH_DEFAULT_OUTER_LEVEL, &outer);
        gl.patch_parameterfv(PATCH_DEFAULT_INNER_LEVEL, &inner);
        clear(gl);
        gl.draw_arrays(PATCHES, 0, 6);
        frames.push(frame(gl));
    }
    gl.use_program(quads);
    gl.patch_parameter_i(PATCH_VERTICES, 4);
    gl.patch_parameterfv(PATCH_DEFAULT_OUTER_LEVEL, &[2.0, 3.0, 4.0, 5.0]);
    gl.patch_parameterfv(PATCH_DEFAULT_INNER_LEVEL, &[3.0, 2.0]);
    clear(gl);
    gl.draw_arrays(PATCHES, 6, 4);
    frames.push(frame(gl));
    gl.use_program(triangles);
    gl.patch_parameter_i(PATCH_VERTICES, 3);
    gl.patch_parameterfv(PATCH_DEFAULT_OUTER_LEVEL, &[3.0, 2.2, 5.0, 1.0]);
    gl.patch_parameterfv(PATCH_DEFAULT_INNER_LEVEL, &[4.0, 1.0]);
    clear(gl);
    gl.draw_arrays(PATCHES, 0, 6);
    frames.push(frame(gl));
    let queries = [
        gl.get_programi(triangles, TESS_GEN_MODE),
        gl.get_programi(triangles, TESS_CONTROL_OUTPUT_VERTICES),
    ];
    assert_eq!(queries, [TRIANGLES as GLint, 0]);
    assert_eq!(
        gl.get_error(),
        INVALID_OPERATION,
        "no control stage to ask about"
    );
    assert_eq!(gl.get_error(), NO_ERROR);
    frames
}

/// Point mode, at two point sizes; then a geometry stage after the evaluation stage.
fn points_and_geometry(gl: &mut dyn Gl) -> Vec<Vec<u8>> {
    vertices(gl);
    let mut frames = Vec::new();
    let points = program(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_CONTROL_SHADER, TCS_TRIANGLES),
            (TESS_EVALUATION_SHADER, TES_POINTS),
            (FRAGMENT_SHADER, FS_FLAT),
        ],
    );
    gl.use_program(points);
    let outer = gl.get_uniform_location(points, "outer");
    let inner = gl.get_uniform_location(points, "inner");
    gl.uniform4f(outer, 4.0, 3.0, 5.0, 0.0);
    gl.uniform1f(inner, 4.5);
    for size in [1.0, 3.0] {
        gl.point_size(size);
        clear(gl);
        gl.draw_arrays(PATCHES, 0, 3);
        frames.push(frame(gl));
    }
    gl.point_size(1.0);
    let tes = triangles_tes("equal_spacing", "ccw");
    let shrink = program(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_CONTROL_SHADER, TCS_TRIANGLES),
            (TESS_EVALUATION_SHADER, &tes),
            (GEOMETRY_SHADER, GS_SHRINK),
            (FRAGMENT_SHADER, FS_GS),
        ],
    );
    gl.use_program(shrink);
    let outer = gl.get_uniform_location(shrink, "outer");
    let inner = gl.get_uniform_location(shrink, "inner");
    gl.uniform4f(outer, 2.0, 3.0, 2.0, 0.0);
    gl.uniform1f(inner, 3.0);
    clear(gl);
    gl.draw_arrays(PATCHES, 0, 6);
    frames.push(frame(gl));
    assert_eq!(gl.get_error(), NO_ERROR);
    frames
}

/// Errors and values, in order: the limits that must equal the native driver's, the patch
/// state and its errors, draws of the wrong primitive, the program queries and link
/// failures.
fn transcript(gl: &mut dyn Gl) -> Vec<String> {
    let mut t = Vec::new();
    let int = |gl: &mut dyn Gl, pname: GLenum| {
        let mut v = [-1];
        gl.get_integerv(pname, &mut v);
        v[0]
    };
    for (name, pname) in [
        ("MAX_PATCH_VERTICES", MAX_PATCH_VERTICES),
        ("MAX_TESS_GEN_LEVEL", MAX_TESS_GEN_LEVEL),
        ("PATCH_VERTICES", PATCH_VERTICES),
        (
            "MAX_TESS_CONTROL_INPUT_COMPONENTS",
            MAX_TESS_CONTROL_INPUT_COMPONENTS,
        ),
        (
            "MAX_TESS_CONTROL_OUTPUT_COMPONENTS",
            MAX_TESS_CONTROL_OUTPUT_COMPONENTS,
        ),
        (
            "MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS",
            MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS,
        ),
        (
            "MAX_TESS_EVALUATION_INPUT_COMPONENTS",
            MAX_TESS_EVALUATION_INPUT_COMPONENTS,
        ),
        (
            "MAX_TESS_EVALUATION_OUTPUT_COMPONENTS",
            MAX_TESS_EVALUATION_OUTPUT_COMPONENTS,
        ),
    ] {
        let v = int(gl, pname);
        t.push(format!("{name} {v} {:#x}", gl.get_error()));
    }
    // The per-stage uniform limits are the vertex stage's (which are Tessera's own, not
    // native's).
    for (name, pname, vertex) in [
        (
            "MAX_TESS_CONTROL_UNIFORM_COMPONENTS",
            MAX_TESS_CONTROL_UNIFORM_COMPONENTS,
            MAX_VERTEX_UNIFORM_COMPONENTS,
        ),
        (
            "MAX_TESS_EVALUATION_UNIFORM_COMPONENTS",
            MAX_TESS_EVALUATION_UNIFORM_COMPONENTS,
            MAX_VERTEX_UNIFORM_COMPONENTS,
        ),
        (
            "MAX_TESS_CONTROL_UNIFORM_BLOCKS",
            MAX_TESS_CONTROL_UNIFORM_BLOCKS,
            MAX_VERTEX_UNIFORM_BLOCKS,
        ),
        (
            "MAX_TESS_EVALUATION_UNIFORM_BLOCKS",
            MAX_TESS_EVALUATION_UNIFORM_BLOCKS,
            MAX_VERTEX_UNIFORM_BLOCKS,
        ),
        (
            "MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS",
            MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS,
            MAX_VERTEX_TEXTURE_IMAGE_UNITS,
        ),
        (
            "MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS",
            MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS,
            MAX_VERTEX_TEXTURE_IMAGE_UNITS,
        ),
    ] {
        let same = int(gl, pname) == int(gl, vertex);
        t.push(format!(
            "{name} as the vertex stage's: {same} {:#x}",
            gl.get_error()
        ));
    }
    let floats = |gl: &mut dyn Gl, pname: GLenum| {
        let mut v = [-1.0; 4];
        gl.get_floatv(pname, &mut v);
        v
    };
    t.push(format!("outer {:?}", floats(gl, PATCH_DEFAULT_OUTER_LEVEL)));
    t.push(format!("inner {:?}", floats(gl, PATCH_DEFAULT_INNER_LEVEL)));
    // glPatchParameteri: bad values, a bad name, the largest count.
    for (pname, value) in [
        (PATCH_VERTICES, 0),
        (PATCH_VERTICES, -1),
        (PATCH_VERTICES, 33),
        (PATCH_DEFAULT_OUTER_LEVEL, 3),
        (PATCH_VERTICES, 32),
        (PATCH_VERTICES, 5),
    ] {
        gl.patch_parameter_i(pname, value);
        let e = gl.get_error();
        t.push(format!(
            "PatchParameteri {pname:#x} {value}: {e:#x} -> {}",
            int(gl, PATCH_VERTICES)
        ));
    }
    gl.patch_parameterfv(PATCH_DEFAULT_OUTER_LEVEL, &[2.0, 3.5, 4.0, 5.25]);
    t.push(format!("outer set {:#x}", gl.get_error()));
    gl.patch_parameterfv(PATCH_DEFAULT_INNER_LEVEL, &[6.0, 7.5]);
    t.push(format!("inner set {:#x}", gl.get_error()));
    gl.patch_parameterfv(PATCH_VERTICES, &[1.0]);
    t.push(format!("fv PATCH_VERTICES {:#x}", gl.get_error()));
    t.push(format!("outer {:?}", floats(gl, PATCH_DEFAULT_OUTER_LEVEL)));
    t.push(format!("inner {:?}", floats(gl, PATCH_DEFAULT_INNER_LEVEL)));
    gl.patch_parameter_i(PATCH_VERTICES, 3);
    // Draws: PATCHES without tessellation, other modes with it.
    vertices(gl);
    let plain = program(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (
                FRAGMENT_SHADER,
                "#version 150\nout vec4 f;\nvoid main() { f = vec4(1.0); }\n",
            ),
        ],
    );
    gl.use_program(plain);
    gl.draw_arrays(PATCHES, 0, 3);
    t.push(format!(
        "PATCHES without tessellation {:#x}",
        gl.get_error()
    ));
    gl.draw_arrays(TRIANGLES, 0, 3);
    t.push(format!(
        "TRIANGLES without tessellation {:#x}",
        gl.get_error()
    ));
    let tes = triangles_tes("fractional_odd_spacing", "cw");
    let tess = program(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_CONTROL_SHADER, TCS_TRIANGLES),
            (TESS_EVALUATION_SHADER, &tes),
            (FRAGMENT_SHADER, FS_FLAT),
        ],
    );
    gl.use_program(tess);
    for (name, mode) in [
        ("TRIANGLES", TRIANGLES),
        ("POINTS", POINTS),
        ("LINES_ADJACENCY", LINES_ADJACENCY),
        ("PATCHES", PATCHES),
    ] {
        gl.draw_arrays(mode, 0, 3);
        t.push(format!("{name} with tessellation {:#x}", gl.get_error()));
    }
    // A geometry stage that takes another primitive than the evaluation stage makes.
    let lines_gs = "#version 150
layout(lines) in;
layout(line_strip, max_vertices = 2) out;
void main() { gl_Position = gl_in[0].gl_Position; EmitVertex(); EndPrimitive(); }
";
    let mismatched = program(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_CONTROL_SHADER, TCS_TRIANGLES),
            (TESS_EVALUATION_SHADER, &tes),
            (GEOMETRY_SHADER, lines_gs),
            (
                FRAGMENT_SHADER,
                "#version 150\nout vec4 f;\nvoid main() { f = vec4(1.0); }\n",
            ),
        ],
    );
    gl.use_program(mismatched);
    gl.draw_arrays(PATCHES, 0, 3);
    t.push(format!(
        "PATCHES into a lines geometry stage {:#x}",
        gl.get_error()
    ));
    // Program queries.
    for (name, p) in [("tess", tess), ("plain", plain)] {
        for (q, pname) in [
            ("TESS_CONTROL_OUTPUT_VERTICES", TESS_CONTROL_OUTPUT_VERTICES),
            ("TESS_GEN_MODE", TESS_GEN_MODE),
            ("TESS_GEN_SPACING", TESS_GEN_SPACING),
            ("TESS_GEN_VERTEX_ORDER", TESS_GEN_VERTEX_ORDER),
            ("TESS_GEN_POINT_MODE", TESS_GEN_POINT_MODE),
        ] {
            let v = gl.get_programi(p, pname);
            t.push(format!("{name} {q} {v:#x} {:#x}", gl.get_error()));
        }
    }
    let points = program(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_CONTROL_SHADER, TCS_TRIANGLES),
            (TESS_EVALUATION_SHADER, TES_POINTS),
            (FRAGMENT_SHADER, FS_FLAT),
        ],
    );
    for pname in [
        TESS_GEN_MODE,
        TESS_GEN_SPACING,
        TESS_GEN_VERTEX_ORDER,
        TESS_GEN_POINT_MODE,
    ] {
        let v = gl.get_programi(points, pname);
        t.push(format!("points {pname:#x} {v:#x} {:#x}", gl.get_error()));
    }
    // Link failures: control without evaluation, evaluation without a vertex stage, and
    // an evaluation stage naming no primitive.
    let (_, status) = link(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_CONTROL_SHADER, TCS_TRIANGLES),
            (FRAGMENT_SHADER, FS_FLAT),
        ],
        false,
    );
    t.push(format!("control alone {status}"));
    let (_, status) = link(
        gl,
        &[(TESS_EVALUATION_SHADER, &tes), (FRAGMENT_SHADER, FS_FLAT)],
        false,
    );
    t.push(format!("no vertex stage {status}"));
    let no_mode = "#version 400\nlayout(cw) in;\nvoid main() { gl_Position = vec4(0.0); }\n";
    let s = gl.create_shader(TESS_EVALUATION_SHADER);
    gl.shader_source(s, no_mode);
    gl.compile_shader(s);
    let compiled = gl.get_shaderi(s, COMPILE_STATUS);
    let p = gl.create_program();
    let vs = shader(gl, VERTEX_SHADER, VS);
    gl.attach_shader(p, vs);
    gl.attach_shader(p, s);
    gl.link_program(p);
    t.push(format!(
        "no primitive mode: compiled {compiled} linked {}",
        gl.get_programi(p, LINK_STATUS)
    ));
    t.push(format!("end {:#x}", gl.get_error()));
    t
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match;
/// `describe` says where a result differs from the native one.
fn compare<T: PartialEq>(scene: impl Fn(&mut dyn Gl) -> T, describe: impl Fn(&T, &T) -> String) {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = scene(&mut ctx);
            assert!(
                got == expected,
                "{} {}: differs from the native driver: {}",
                backend.name(),
                transport.name(),
                describe(&got, &expected)
            );
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

/// The frames that differ, with how many pixels and the first of them.
fn frames_differ(got: &[Vec<u8>], expected: &[Vec<u8>]) -> String {
    let mut out = String::new();
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        let diff: Vec<usize> = (0..g.len() / 4)
            .filter(|&p| g[4 * p..4 * p + 4] != e[4 * p..4 * p + 4])
            .collect();
        if let Some(&p) = diff.first() {
            out.push_str(&format!(
                "frame {i}: {} pixels, first ({}, {}) {:?} != {:?}; ",
                diff.len(),
                p as i32 % SIZE,
                p as i32 / SIZE,
                &g[4 * p..4 * p + 4],
                &e[4 * p..4 * p + 4]
            ));
        }
    }
    out
}

/// The lines that differ.
fn lines_differ(got: &[String], expected: &[String]) -> String {
    got.iter()
        .zip(expected)
        .filter(|(g, e)| g != e)
        .map(|(g, e)| format!("\n  got {g}\n  native {e}"))
        .collect()
}

/// Whether a frame drew anything (a scene that draws nothing would compare equal to a
/// broken one).
fn drew(frame: &[u8]) -> bool {
    frame.chunks_exact(4).any(|p| p[..3] != [0, 0, 0])
}

#[test]
fn the_triangle_domain_with_each_spacing_and_order_matches_the_native_driver() {
    compare(
        |gl| {
            let frames = triangle_domain(gl);
            assert!(frames.iter().all(|f| drew(f)));
            // Culling keeps a different patch for each order.
            assert_ne!(frames[0], frames[1]);
            // The spacings tessellate differently.
            assert_ne!(frames[0], frames[2]);
            assert_ne!(frames[2], frames[4]);
            frames
        },
        |g, e| frames_differ(g, e),
    );
}

#[test]
fn quads_with_per_patch_outputs_match_the_native_driver() {
    compare(
        |gl| {
            let frames = quad_domain(gl);
            assert!(frames.iter().all(|f| drew(f)));
            frames
        },
        |g, e| frames_differ(g, e),
    );
}

/// Isolines: on the native driver and on GLES the tessellated lines equal the segments drawn
/// as `LINES`, and the GLES frames equal native's. On Vulkan lavapipe rasterizes every line
/// by Vulkan's rules, not GL's (plain `LINES` and `LINE_STRIP` draws differ from native's at
/// their ends the same way), so there the tessellated lines must equal its own `LINES` draw
/// of the same segments.
#[test]
fn isolines_are_the_segments_the_native_driver_draws() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let (tessellated, drawn) = isolines(&mut native);
    drop(native);
    assert!(drew(&tessellated));
    assert!(
        tessellated == drawn,
        "native: {}",
        frames_differ(
            std::slice::from_ref(&tessellated),
            std::slice::from_ref(&drawn)
        )
    );
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let (t, d) = isolines(&mut ctx);
            let label = format!("{} {}", backend.name(), transport.name());
            assert!(
                t == d,
                "{label}: {}",
                frames_differ(std::slice::from_ref(&t), std::slice::from_ref(&d))
            );
            if backend == Backend::Gles {
                assert!(
                    t == tessellated,
                    "{label}: {}",
                    frames_differ(std::slice::from_ref(&t), std::slice::from_ref(&tessellated))
                );
            }
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{label}: {events:?}");
        }
    }
}

#[test]
fn evaluation_stages_without_a_control_stage_use_the_default_levels_as_the_native_driver_does() {
    compare(
        |gl| {
            let frames = default_levels(gl);
            assert!(frames.iter().all(|f| drew(f)));
            assert_ne!(frames[0], frames[1], "the default levels apply");
            assert_eq!(frames[0], frames[3]);
            frames
        },
        |g, e| frames_differ(g, e),
    );
}

#[test]
fn point_mode_and_a_geometry_stage_after_tessellation_match_the_native_driver() {
    compare(
        |gl| {
            let frames = points_and_geometry(gl);
            assert!(frames.iter().all(|f| drew(f)));
            assert_ne!(frames[0], frames[1], "the point size applies");
            frames
        },
        |g, e| frames_differ(g, e),
    );
}

#[test]
fn tessellation_errors_and_queries_match_the_native_driver() {
    compare(
        |gl| {
            let t = transcript(gl);
            assert!(t.iter().any(|l| l == "MAX_PATCH_VERTICES 32 0x0"), "{t:#?}");
            t
        },
        |g, e| lines_differ(g, e),
    );
}

#[test]
fn steady_tessellated_frames_create_no_pipelines_on_the_vulkan_backend() {
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
    let gl: &mut dyn Gl = &mut ctx;
    vertices(gl);
    let tes = triangles_tes("equal_spacing", "ccw");
    let tri = program(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_CONTROL_SHADER, TCS_TRIANGLES),
            (TESS_EVALUATION_SHADER, &tes),
            (FRAGMENT_SHADER, FS_FLAT),
        ],
    );
    let quads = program(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_CONTROL_SHADER, TCS_QUADS),
            (TESS_EVALUATION_SHADER, TES_QUADS),
            (FRAGMENT_SHADER, FS_FLAT),
        ],
    );
    let default = program(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (TESS_EVALUATION_SHADER, TES_DEFAULT_TRIANGLES),
            (FRAGMENT_SHADER, FS_FLAT),
        ],
    );
    gl.patch_parameterfv(PATCH_DEFAULT_OUTER_LEVEL, &[3.0, 2.0, 4.0, 1.0]);
    // Each frame: triangles from patches of 3, quads from patches of 4, then triangles of
    // an evaluation stage without a control stage (linked once, with the default one).
    let draw_frame = |gl: &mut dyn Gl| {
        clear(gl);
        gl.use_program(tri);
        gl.patch_parameter_i(PATCH_VERTICES, 3);
        gl.draw_arrays(PATCHES, 0, 6);
        gl.use_program(quads);
        gl.patch_parameter_i(PATCH_VERTICES, 4);
        gl.draw_arrays(PATCHES, 6, 4);
        gl.use_program(default);
        gl.patch_parameter_i(PATCH_VERTICES, 3);
        gl.draw_arrays(PATCHES, 3, 3);
        frame(gl)
    };
    let first = draw_frame(gl);
    assert!(drew(&first));
    ctx.finish();
    let after_first = probe.stats();
    for _ in 0..5 {
        assert_eq!(draw_frame(&mut ctx), first);
    }
    ctx.finish();
    let steady = probe.stats();
    assert_eq!(
        steady.pipelines, after_first.pipelines,
        "pipelines made in steady frames"
    );
    assert_eq!(steady.validation_messages, 0);
    assert_eq!(ctx.get_error(), NO_ERROR);
    let events = ctx.take_events();
    assert!(events.is_empty(), "{events:?}");
}

/// `GL_ARB_tessellation_shader` is advertised where the backend has tessellation stages (GLES
/// and Vulkan here), and not on a GLES backend that uses the driver as ES 3.0, where the
/// tessellation shader types, the patch parameters and their state are refused as in a
/// context without the extension.
#[test]
fn tessellation_is_advertised_only_where_the_backend_has_its_stages() {
    let advertised = |ctx: &mut Context| {
        let mut n = [0];
        ctx.get_integerv(NUM_EXTENSIONS, &mut n);
        (0..n[0] as GLuint)
            .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
            .any(|e| e == "GL_ARB_tessellation_shader")
    };
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 4, 4);
        assert!(advertised(&mut ctx), "{}", backend.name());
    }
    let mut ctx = tessera_es30(4, 4);
    assert!(!advertised(&mut ctx));
    assert_eq!(ctx.create_shader(TESS_CONTROL_SHADER), 0);
    assert_eq!(ctx.get_error(), INVALID_ENUM);
    assert_eq!(ctx.create_shader(TESS_EVALUATION_SHADER), 0);
    assert_eq!(ctx.get_error(), INVALID_ENUM);
    ctx.patch_parameter_i(PATCH_VERTICES, 4);
    assert_eq!(ctx.get_error(), INVALID_OPERATION);
    let mut v = [0];
    ctx.get_integerv(PATCH_VERTICES, &mut v);
    assert_eq!(ctx.get_error(), INVALID_ENUM);
    ctx.get_integerv(MAX_PATCH_VERTICES, &mut v);
    assert_eq!(ctx.get_error(), INVALID_ENUM);
    assert_eq!(ctx.get_error(), NO_ERROR);
}

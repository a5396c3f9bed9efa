//! GLSL's built-in constants (`gl_MaxVertexOutputComponents`, ...) against the limits
//! `glGetIntegerv` reports: a vertex shader writes each constant to an output that transform
//! feedback captures, and every value must be the query's, on both backends and on the
//! native driver (which checks the test itself). Tessera's limits partly come from the
//! backend (the stage interface sizes), so the front end must take the context's values.

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The constants GLSL 1.50 has in a core profile and the limits they name.
const CONSTANTS: [(&str, GLenum); 17] = [
    ("gl_MaxVertexAttribs", MAX_VERTEX_ATTRIBS),
    (
        "gl_MaxVertexUniformComponents",
        MAX_VERTEX_UNIFORM_COMPONENTS,
    ),
    ("gl_MaxVaryingComponents", MAX_VARYING_COMPONENTS),
    ("gl_MaxVertexOutputComponents", MAX_VERTEX_OUTPUT_COMPONENTS),
    (
        "gl_MaxGeometryInputComponents",
        MAX_GEOMETRY_INPUT_COMPONENTS,
    ),
    (
        "gl_MaxGeometryOutputComponents",
        MAX_GEOMETRY_OUTPUT_COMPONENTS,
    ),
    (
        "gl_MaxFragmentInputComponents",
        MAX_FRAGMENT_INPUT_COMPONENTS,
    ),
    (
        "gl_MaxVertexTextureImageUnits",
        MAX_VERTEX_TEXTURE_IMAGE_UNITS,
    ),
    (
        "gl_MaxCombinedTextureImageUnits",
        MAX_COMBINED_TEXTURE_IMAGE_UNITS,
    ),
    ("gl_MaxTextureImageUnits", MAX_TEXTURE_IMAGE_UNITS),
    (
        "gl_MaxFragmentUniformComponents",
        MAX_FRAGMENT_UNIFORM_COMPONENTS,
    ),
    ("gl_MaxDrawBuffers", MAX_DRAW_BUFFERS),
    ("gl_MaxClipDistances", MAX_CLIP_DISTANCES),
    (
        "gl_MaxGeometryTextureImageUnits",
        MAX_GEOMETRY_TEXTURE_IMAGE_UNITS,
    ),
    ("gl_MaxGeometryOutputVertices", MAX_GEOMETRY_OUTPUT_VERTICES),
    (
        "gl_MaxGeometryTotalOutputComponents",
        MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS,
    ),
    (
        "gl_MaxGeometryUniformComponents",
        MAX_GEOMETRY_UNIFORM_COMPONENTS,
    ),
];

/// Each constant as the shader sees it and as `glGetIntegerv` reports it.
fn constants_and_queries(gl: &mut dyn Gl) -> Vec<(&'static str, i32, i32)> {
    let outputs = CONSTANTS.len();
    let mut vs = String::from("#version 150\n");
    for i in 0..outputs {
        vs.push_str(&format!("flat out int k{i};\n"));
    }
    vs.push_str("void main() {\n    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n");
    for (i, (name, _)) in CONSTANTS.iter().enumerate() {
        vs.push_str(&format!("    k{i} = {name};\n"));
    }
    vs.push_str("}\n");
    let fs = "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, vs.as_str()), (FRAGMENT_SHADER, fs)] {
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
    let names: Vec<String> = (0..outputs).map(|i| format!("k{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    gl.transform_feedback_varyings(p, &names, INTERLEAVED_ATTRIBS);
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
    let b = gl.gen_buffer();
    gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, b);
    let size = 4 * outputs;
    gl.buffer_data(
        TRANSFORM_FEEDBACK_BUFFER,
        size,
        Some(&vec![0xAA; size]),
        STATIC_READ,
    );
    gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, 0, b);
    gl.enable(RASTERIZER_DISCARD);
    gl.begin_transform_feedback(POINTS);
    gl.draw_arrays(POINTS, 0, 1);
    gl.end_transform_feedback();
    gl.disable(RASTERIZER_DISCARD);
    let mut out = vec![0u8; size];
    gl.get_buffer_sub_data(TRANSFORM_FEEDBACK_BUFFER, 0, &mut out);
    assert_eq!(gl.get_error(), NO_ERROR);
    CONSTANTS
        .iter()
        .zip(out.chunks_exact(4))
        .map(|((name, pname), bytes)| {
            let mut v = [0];
            gl.get_integerv(*pname, &mut v);
            let constant = i32::from_le_bytes(bytes.try_into().expect("4 bytes"));
            (*name, constant, v[0])
        })
        .collect()
}

/// Every constant that differs from its query, with both values.
fn mismatches(seen: &[(&'static str, i32, i32)]) -> Vec<(&'static str, i32, i32)> {
    seen.iter().filter(|(_, k, q)| k != q).copied().collect()
}

#[test]
fn built_in_constants_are_the_limits_the_context_reports() {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let seen = constants_and_queries(&mut native);
    assert_eq!(mismatches(&seen), [], "native");
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 16, 16);
        let seen = constants_and_queries(&mut ctx);
        assert_eq!(mismatches(&seen), [], "{}", backend.name());
        assert!(ctx.take_events().is_empty(), "{}", backend.name());
    }
}

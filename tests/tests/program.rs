//! Shaders and programs: compile and link status and logs, every error of the entry points,
//! attribute and output locations compared with Mesa's answers for the same shaders, and the
//! records and SPIR-V a link produces. Uniforms are in [`uniforms`].

use tessera_engine::gl::*;
use tessera_engine::wire::format::{ShaderStage, TextureKind};
use tessera_engine::wire::handle::ProgramHandle;
use tessera_tests::programs::{self, COLOR_FS, PASS_VS};
use tessera_tests::{assert_error, assert_no_error, context, records};
use tessera_wire::record::{BlockSlot, ProgramDesc, Record, SamplerSlot};

pub(crate) const INVALID_INDEX_VALUE: GLuint = 0xFFFF_FFFF;

mod builtin_constants;
mod uniforms;

/// A shader of `kind` with `source`, compiled (whatever the outcome).
pub(crate) fn shader(ctx: &mut tessera_engine::Context, kind: GLenum, source: &str) -> GLuint {
    let s = ctx.create_shader(kind);
    ctx.shader_source(s, 1, &[source]);
    ctx.compile_shader(s);
    s
}

/// A program of the given shaders, linked (whatever the outcome).
pub(crate) fn program(ctx: &mut tessera_engine::Context, shaders: &[GLuint]) -> GLuint {
    let p = ctx.create_program();
    for s in shaders {
        ctx.attach_shader(p, *s);
    }
    ctx.link_program(p);
    p
}

pub(crate) fn name_of(buf: &[u8], len: GLsizei) -> String {
    String::from_utf8(buf[..len as usize].to_vec()).expect("utf-8")
}

// ---------------------------------------------------------------------------------------
// Compiling

#[test]
fn a_good_shader_compiles_with_an_empty_log() {
    let mut ctx = context();
    let s = shader(&mut ctx, VERTEX_SHADER, PASS_VS);
    assert_no_error!(ctx);
    assert_eq!(ctx.get_shaderi(s, COMPILE_STATUS), 1);
    assert_eq!(ctx.get_shaderi(s, INFO_LOG_LENGTH), 0);
    assert_eq!(ctx.get_shaderi(s, SHADER_TYPE), VERTEX_SHADER as GLint);
    assert_eq!(ctx.get_shaderi(s, DELETE_STATUS), 0);
    assert_eq!(
        ctx.get_shaderi(s, SHADER_SOURCE_LENGTH),
        PASS_VS.len() as GLint + 1
    );
    assert_eq!(ctx.shader_source_string(s), PASS_VS);
    let mut buf = [0xAAu8; 8];
    let mut len = -1;
    ctx.get_shader_source(s, 5, Some(&mut len), &mut buf);
    assert_eq!((len, &buf[..6]), (4, &b"#ver\0\xAA"[..]));
    assert_no_error!(ctx);
}

#[test]
fn a_fresh_shader_reports_nothing() {
    let mut ctx = context();
    let s = ctx.create_shader(FRAGMENT_SHADER);
    assert_eq!(ctx.get_shaderi(s, SHADER_TYPE), FRAGMENT_SHADER as GLint);
    assert_eq!(ctx.get_shaderi(s, COMPILE_STATUS), 0);
    assert_eq!(ctx.get_shaderi(s, INFO_LOG_LENGTH), 0);
    assert_eq!(ctx.get_shaderi(s, SHADER_SOURCE_LENGTH), 0);
    assert_no_error!(ctx);
}

#[test]
fn sources_concatenate_their_strings() {
    let mut ctx = context();
    let s = ctx.create_shader(VERTEX_SHADER);
    ctx.shader_source(s, 2, &["#version 330\n", "void main() {}\n", "ignored"]);
    assert_eq!(
        ctx.shader_source_string(s),
        "#version 330\nvoid main() {}\n"
    );
    ctx.compile_shader(s);
    assert_eq!(ctx.get_shaderi(s, COMPILE_STATUS), 1);
}

#[test]
fn a_bad_shader_fails_with_a_located_log() {
    let mut ctx = context();
    let src = "#version 330\nvoid main(){\n  gl_Position = foo;\n}\n";
    let s = shader(&mut ctx, VERTEX_SHADER, src);
    assert_no_error!(ctx);
    assert_eq!(ctx.get_shaderi(s, COMPILE_STATUS), 0);
    let log = ctx.shader_info_log(s);
    assert!(
        log.starts_with("0:3: error: 'foo' : undeclared identifier\n"),
        "{log}"
    );
    assert_eq!(ctx.get_shaderi(s, INFO_LOG_LENGTH), log.len() as GLint + 1);
    let mut buf = [0u8; 64];
    let mut len = 0;
    ctx.get_shader_info_log(s, 10, Some(&mut len), &mut buf);
    assert_eq!(name_of(&buf, len), "0:3: erro");
    assert_eq!(buf[9], 0);
}

#[test]
fn versions_a_core_context_does_not_compile_are_refused() {
    let mut ctx = context();
    let cases = [
        (
            "#version 320 es\nvoid main() { gl_Position = vec4(0.0); }\n",
            "0:1(10): error: GLSL 3.20 ES is not supported. Supported versions are: 1.10, 1.20, \
             1.30, 1.40, 1.50, 3.30, 4.00, 4.10, 4.20, 4.30, 4.40, 4.50, 4.60, 1.00 ES, 3.00 ES, \
             and 3.10 ES\n",
        ),
        (
            "#version 330 compatibility\nvoid main() { gl_Position = vec4(0.0); }\n",
            "0:1(10): error: the compatibility profile is not supported\n",
        ),
        (
            "#version 330 foo\nvoid main() { gl_Position = vec4(0.0); }\n",
            "0:1(10): error: \"foo\" is not a valid shading language profile; if present, it \
             must be \"core\"\n",
        ),
    ];
    for (src, log) in cases {
        let s = shader(&mut ctx, VERTEX_SHADER, src);
        assert_eq!(ctx.get_shaderi(s, COMPILE_STATUS), 0, "{src}");
        assert_eq!(ctx.shader_info_log(s), log);
    }
    // 1.10 (also without #version) and 1.20 too, as Mesa compiles them in core contexts,
    // and GLSL ES 1.00, 3.00 and 3.10 (ARB_ES2_compatibility, ARB_ES3_compatibility,
    // ARB_ES3_1_compatibility).
    for v in [
        "110", "120", "140", "150", "150 core", "330", "330 core", "400", "410 core", "460", "100",
        "300 es", "310 es",
    ] {
        let src = format!("/* c */\n#version {v}\nvoid main() {{ gl_Position = vec4(0.0); }}\n");
        let s = shader(&mut ctx, VERTEX_SHADER, &src);
        assert_eq!(
            ctx.get_shaderi(s, COMPILE_STATUS),
            1,
            "{v}: {}",
            ctx.shader_info_log(s)
        );
    }
    assert_no_error!(ctx);
}

#[test]
fn shader_entry_point_errors() {
    let mut ctx = context();
    let s = shader(&mut ctx, VERTEX_SHADER, PASS_VS);
    let p = ctx.create_program();
    assert_eq!(ctx.create_shader(0x1234), 0);
    assert_error!(ctx, INVALID_ENUM);
    ctx.delete_shader(0);
    assert_no_error!(ctx);
    ctx.delete_shader(999);
    assert_error!(ctx, INVALID_VALUE);
    ctx.delete_shader(p);
    assert_error!(ctx, INVALID_OPERATION);
    assert_eq!(
        (
            ctx.is_shader(s),
            ctx.is_shader(p),
            ctx.is_shader(0),
            ctx.is_program(s)
        ),
        (1, 0, 0, 0)
    );
    assert_no_error!(ctx);
    ctx.shader_source(s, -1, &[]);
    assert_error!(ctx, INVALID_VALUE);
    ctx.shader_source(p, 0, &[]);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.shader_source(999, 0, &[]);
    assert_error!(ctx, INVALID_VALUE);
    let mut v = [-7];
    ctx.get_shaderiv(s, LINK_STATUS, &mut v);
    assert_error!(ctx, INVALID_ENUM);
    ctx.get_shaderiv(p, SHADER_TYPE, &mut v);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.get_shaderiv(999, SHADER_TYPE, &mut v);
    assert_error!(ctx, INVALID_VALUE);
    assert_eq!(v, [-7], "nothing written on error");
    let mut buf = [0u8; 4];
    ctx.get_shader_source(s, -1, None, &mut buf);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_shader_source(p, 4, None, &mut buf);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.get_shader_info_log(s, -1, None, &mut buf);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_shader_info_log(999, 4, None, &mut buf);
    assert_error!(ctx, INVALID_VALUE);
    ctx.compile_shader(p);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.compile_shader(999);
    assert_error!(ctx, INVALID_VALUE);
}

// ---------------------------------------------------------------------------------------
// Linking

#[test]
fn link_failures_have_logs() {
    let mut ctx = context();
    let vs = shader(
        &mut ctx,
        VERTEX_SHADER,
        "#version 330\nin vec4 p; out vec3 v;\nvoid main() { gl_Position = p; v = p.xyz; }\n",
    );
    let no_main = shader(
        &mut ctx,
        FRAGMENT_SHADER,
        "#version 330\nout vec4 c;\nvoid f() { c = vec4(1.0); }\n",
    );
    let p = program(&mut ctx, &[vs, no_main]);
    assert_no_error!(ctx);
    assert_eq!(ctx.get_programi(p, LINK_STATUS), 0);
    assert_eq!(
        ctx.program_info_log(p),
        "error: Linking fragment stage: Missing entry point: Each stage requires one entry \
         point\n"
    );
    let mismatched = shader(
        &mut ctx,
        FRAGMENT_SHADER,
        "#version 330\nin vec4 v; out vec4 c;\nvoid main() { c = v; }\n",
    );
    let p = program(&mut ctx, &[vs, mismatched]);
    assert_eq!(ctx.get_programi(p, LINK_STATUS), 0);
    let log = ctx.program_info_log(p);
    assert!(log.starts_with("error: "), "{log}");
    assert!(log.contains(" v"), "{log}");
    assert_eq!(ctx.get_programi(p, INFO_LOG_LENGTH), log.len() as GLint + 1);

    let broken = shader(&mut ctx, FRAGMENT_SHADER, "#version 330\nvoid main() {");
    let p = program(&mut ctx, &[vs, broken]);
    assert_eq!(ctx.get_programi(p, LINK_STATUS), 0);
    assert_eq!(
        ctx.program_info_log(p),
        "error: linking with uncompiled/unspecialized shader"
    );
    let p = program(&mut ctx, &[]);
    assert_eq!(ctx.get_programi(p, LINK_STATUS), 0);
    assert_eq!(
        ctx.program_info_log(p),
        "error: no shaders attached to the program\n"
    );
    assert_no_error!(ctx);
}

#[test]
fn an_unwritten_varying_is_a_warning() {
    let mut ctx = context();
    let vs = shader(&mut ctx, VERTEX_SHADER, PASS_VS);
    let fs = shader(
        &mut ctx,
        FRAGMENT_SHADER,
        "#version 330\nin vec4 w; out vec4 c;\nvoid main() { c = w; }\n",
    );
    let p = program(&mut ctx, &[vs, fs]);
    assert_eq!(ctx.get_programi(p, LINK_STATUS), 1);
    assert_eq!(
        ctx.program_info_log(p),
        "warning: fragment shader varying w not written by vertex shader\n"
    );
}

/// The shaders `err.py` asked Mesa about (its answers are in the tests that use them).
pub(crate) const QUERY_VS: &str = "#version 330
in vec4 p; in vec2 uv; out vec2 v;
uniform vec4 color; uniform float arr[3]; uniform mat3 m; uniform bool b; uniform int i;
uniform uint u; uniform sampler2D t; uniform ivec2 iv;
void main() {
    gl_Position = p * color * arr[2] + vec4(m[0], 0) + vec4(float(b) + float(i) + float(u)
        + float(iv.x));
    v = uv;
}
";
pub(crate) const QUERY_FS: &str = "#version 330
in vec2 v; out vec4 c; uniform sampler2D t; uniform UB { vec4 x; } ub;
void main() { c = texture(t, v) + ub.x; }
";

#[test]
fn program_parameters_match_mesa() {
    let mut ctx = context();
    let p = programs::link(&mut ctx, QUERY_VS, QUERY_FS);
    let unlinked = ctx.create_program();
    let expect = [
        (LINK_STATUS, 1, 0),
        (VALIDATE_STATUS, 0, 0),
        (INFO_LOG_LENGTH, 0, 0),
        (ATTACHED_SHADERS, 2, 0),
        (ACTIVE_UNIFORMS, 9, 0),
        (ACTIVE_UNIFORM_MAX_LENGTH, 7, 0),
        (ACTIVE_ATTRIBUTES, 2, 0),
        (ACTIVE_ATTRIBUTE_MAX_LENGTH, 3, 0),
        (ACTIVE_UNIFORM_BLOCKS, 1, 0),
        (ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH, 3, 0),
        (
            TRANSFORM_FEEDBACK_BUFFER_MODE,
            INTERLEAVED_ATTRIBS as GLint,
            INTERLEAVED_ATTRIBS as GLint,
        ),
        (TRANSFORM_FEEDBACK_VARYINGS, 0, 0),
        (TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH, 0, 0),
        (DELETE_STATUS, 0, 0),
    ];
    for (pname, linked, fresh) in expect {
        assert_eq!(ctx.get_programi(p, pname), linked, "{pname:#x}");
        assert_eq!(
            ctx.get_programi(unlinked, pname),
            fresh,
            "{pname:#x} unlinked"
        );
    }
    assert_no_error!(ctx);
    ctx.validate_program(p);
    ctx.validate_program(unlinked);
    assert_no_error!(ctx);
    assert_eq!(ctx.get_programi(p, VALIDATE_STATUS), 1);
    assert_eq!(ctx.get_programi(unlinked, VALIDATE_STATUS), 0);
    let mut shaders = [0; 4];
    let mut n = -1;
    ctx.get_attached_shaders(p, 1, Some(&mut n), &mut shaders);
    assert_eq!(n, 1);
    assert_ne!(shaders[0], 0);
    assert_eq!(shaders[1], 0);
}

#[test]
fn program_entry_point_errors() {
    let mut ctx = context();
    let v = shader(&mut ctx, VERTEX_SHADER, PASS_VS);
    let f = shader(&mut ctx, FRAGMENT_SHADER, COLOR_FS);
    let lone = shader(&mut ctx, VERTEX_SHADER, PASS_VS);
    let p = program(&mut ctx, &[v, f]);
    let unlinked = ctx.create_program();
    assert_no_error!(ctx);
    ctx.delete_program(0);
    assert_no_error!(ctx);
    ctx.delete_program(v);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.delete_program(999);
    assert_error!(ctx, INVALID_VALUE);
    ctx.attach_shader(p, v);
    assert_error!(ctx, INVALID_OPERATION, "attached twice");
    ctx.attach_shader(p, p);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.attach_shader(p, 999);
    assert_error!(ctx, INVALID_VALUE);
    ctx.attach_shader(v, f);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.attach_shader(999, f);
    assert_error!(ctx, INVALID_VALUE);
    ctx.detach_shader(p, lone);
    assert_error!(ctx, INVALID_OPERATION, "not attached");
    ctx.detach_shader(p, 999);
    assert_error!(ctx, INVALID_VALUE);
    ctx.detach_shader(v, f);
    assert_error!(ctx, INVALID_OPERATION, "detach from a shader");
    ctx.detach_shader(p, p);
    assert_error!(ctx, INVALID_OPERATION, "detach a program");
    ctx.get_attached_shaders(p, -1, None, &mut []);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_attached_shaders(v, 1, None, &mut [0]);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.use_program(unlinked);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.use_program(999);
    assert_error!(ctx, INVALID_VALUE);
    ctx.use_program(v);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.link_program(v);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.link_program(999);
    assert_error!(ctx, INVALID_VALUE);
    ctx.validate_program(999);
    assert_error!(ctx, INVALID_VALUE);
    ctx.validate_program(v);
    assert_error!(ctx, INVALID_OPERATION);
    let mut out = [-7];
    ctx.get_programiv(p, COMPILE_STATUS, &mut out);
    assert_error!(ctx, INVALID_ENUM);
    ctx.get_programiv(v, LINK_STATUS, &mut out);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.get_programiv(999, LINK_STATUS, &mut out);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_programiv(p, GEOMETRY_VERTICES_OUT, &mut out);
    assert_error!(ctx, INVALID_OPERATION, "no geometry shader");
    ctx.get_programiv(unlinked, GEOMETRY_INPUT_TYPE, &mut out);
    assert_error!(ctx, INVALID_OPERATION);
    assert_eq!(out, [-7]);
    ctx.get_program_info_log(p, -1, None, &mut []);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_program_info_log(v, 0, None, &mut []);
    assert_error!(ctx, INVALID_OPERATION);
    assert_eq!(
        ctx.get_programi(p, LINK_STATUS),
        1,
        "errors changed nothing"
    );
}

#[test]
fn geometry_parameters() {
    let mut ctx = context();
    let v = shader(&mut ctx, VERTEX_SHADER, PASS_VS);
    let g = shader(
        &mut ctx,
        GEOMETRY_SHADER,
        "#version 330\nlayout(triangles) in;\nlayout(line_strip, max_vertices = 4) out;\n\
         void main() { for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position; \
         EmitVertex(); } EndPrimitive(); }\n",
    );
    let f = shader(&mut ctx, FRAGMENT_SHADER, COLOR_FS);
    let p = program(&mut ctx, &[v, g, f]);
    assert_eq!(
        ctx.get_programi(p, LINK_STATUS),
        1,
        "{}",
        ctx.program_info_log(p)
    );
    assert_eq!(ctx.get_programi(p, GEOMETRY_VERTICES_OUT), 4);
    assert_eq!(ctx.get_programi(p, GEOMETRY_INPUT_TYPE), TRIANGLES as GLint);
    assert_eq!(
        ctx.get_programi(p, GEOMETRY_OUTPUT_TYPE),
        LINE_STRIP as GLint
    );
    assert_no_error!(ctx);
    let create = records(&mut ctx).into_iter().find_map(|r| match r {
        Record::CreateProgram { desc, .. } => Some(desc),
        _ => None,
    });
    let stages: Vec<ShaderStage> = create
        .expect("CreateProgram")
        .stages
        .iter()
        .map(|s| s.stage)
        .collect();
    assert_eq!(
        stages,
        [
            ShaderStage::Vertex,
            ShaderStage::Geometry,
            ShaderStage::Fragment
        ]
    );
}

// ---------------------------------------------------------------------------------------
// Attributes and fragment outputs

#[test]
fn attribute_queries_and_errors() {
    let mut ctx = context();
    let p = programs::link(&mut ctx, QUERY_VS, QUERY_FS);
    let unlinked = ctx.create_program();
    assert_eq!(ctx.get_attrib_location(p, "p"), 0);
    assert_eq!(ctx.get_attrib_location(p, "uv"), 1);
    assert_eq!(ctx.get_attrib_location(p, "zz"), -1);
    assert_no_error!(ctx);
    let (mut size, mut ty, mut len) = (0, 0, 0);
    let mut buf = [0u8; 16];
    ctx.get_active_attrib(p, 1, 16, Some(&mut len), &mut size, &mut ty, &mut buf);
    assert_eq!(
        (name_of(&buf, len), size, ty),
        ("uv".to_string(), 1, FLOAT_VEC2)
    );
    assert_no_error!(ctx);
    ctx.get_active_attrib(p, 2, 16, None, &mut size, &mut ty, &mut buf);
    assert_error!(ctx, INVALID_VALUE, "index out of range");
    ctx.get_active_attrib(p, 0, -1, None, &mut size, &mut ty, &mut buf);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_active_attrib(unlinked, 0, 16, None, &mut size, &mut ty, &mut buf);
    assert_error!(ctx, INVALID_VALUE);
    assert_eq!(ctx.get_attrib_location(unlinked, "p"), -1);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.bind_attrib_location(p, 16, "p");
    assert_error!(ctx, INVALID_VALUE);
    ctx.bind_attrib_location(p, 1, "gl_Foo");
    assert_error!(ctx, INVALID_OPERATION);
    ctx.bind_attrib_location(999, 1, "p");
    assert_error!(ctx, INVALID_VALUE);
}

#[test]
fn gl_vertex_id_is_an_active_attribute_without_location() {
    let mut ctx = context();
    let vs =
        "#version 330\nin vec4 p;\nvoid main() { gl_Position = p + vec4(float(gl_VertexID)); }\n";
    let p = programs::link(&mut ctx, vs, COLOR_FS);
    assert_eq!(ctx.get_programi(p, ACTIVE_ATTRIBUTES), 2);
    assert_eq!(ctx.get_programi(p, ACTIVE_ATTRIBUTE_MAX_LENGTH), 12);
    assert_eq!(ctx.get_attrib_location(p, "gl_VertexID"), -1);
    let mut names = Vec::new();
    for i in 0..2 {
        let (mut size, mut ty, mut len) = (0, 0, 0);
        let mut buf = [0u8; 32];
        ctx.get_active_attrib(p, i, 32, Some(&mut len), &mut size, &mut ty, &mut buf);
        names.push((name_of(&buf, len), ty));
    }
    names.sort();
    assert_eq!(
        names,
        [
            ("gl_VertexID".to_string(), INT),
            ("p".to_string(), FLOAT_VEC4)
        ]
    );
}

#[test]
fn automatic_attribute_locations_follow_mesa() {
    // Mesa gives uv 0 and m 3..5 around the explicit pos at 2.
    let mut ctx = context();
    let vs = "#version 330\nlayout(location = 2) in vec3 pos;\nin vec2 uv;\nin mat3 m;\n\
              void main() { gl_Position = vec4(m * pos + vec3(uv, 0.0), 1.0); }\n";
    let p = programs::link(&mut ctx, vs, COLOR_FS);
    assert_eq!(
        ["pos", "uv", "m"].map(|n| ctx.get_attrib_location(p, n)),
        [2, 0, 3]
    );
}

#[test]
fn elements_of_matrix_array_attributes_are_columns_apart() {
    // piglit's glsl-1.50 vs-input-arrays on Mesa: `d[1]` of a `mat2 d[2]` is two locations
    // past `d[0]` (one per column), as glVertexAttribPointer of each column expects.
    let mut ctx = context();
    let vs = "#version 150\nin vec4 p;\nin mat2 d[2];\nin vec3 c[2];\n\
              void main() { gl_Position = p + vec4(d[0][1], d[1][1]) + vec4(c[1], 0.0); }\n";
    let p = programs::link(&mut ctx, vs, COLOR_FS);
    assert_eq!(
        ["d", "d[0]", "d[1]", "d[2]", "c", "c[1]", "p"].map(|n| ctx.get_attrib_location(p, n)),
        [0, 0, 2, -1, 4, 5, 6]
    );
}

#[test]
fn array_attributes_and_outputs_follow_mesa() {
    // Mesa: the larger arrays take the low locations; elements are addressed as `x[i]`.
    let mut ctx = context();
    let vs = "#version 330\nin vec4 p; in vec4 q[2];\nvoid main() { gl_Position = p + q[1]; }\n";
    let fs = "#version 330\nout vec4 a; out vec4 b; out vec4 arr[2];\n\
              void main() { a = vec4(1.0); b = vec4(2.0); arr[0] = a; arr[1] = b; }\n";
    let p = programs::link(&mut ctx, vs, fs);
    assert_eq!(
        ["p", "q", "q[0]", "q[1]", "q[2]"].map(|n| ctx.get_attrib_location(p, n)),
        [2, 0, 0, 1, -1]
    );
    assert_eq!(
        ["a", "b", "arr", "arr[0]", "arr[1]", "arr[2]"].map(|n| ctx.get_frag_data_location(p, n)),
        [2, 3, 0, 0, 1, -1]
    );
    let (mut size, mut ty, mut len) = (0, 0, 0);
    let mut buf = [0u8; 8];
    let q = (0..2)
        .find(|&i| {
            ctx.get_active_attrib(p, i, 8, Some(&mut len), &mut size, &mut ty, &mut buf);
            name_of(&buf, len) == "q"
        })
        .expect("q is listed by its name");
    ctx.get_active_attrib(p, q, 8, Some(&mut len), &mut size, &mut ty, &mut buf);
    assert_eq!((size, ty), (2, FLOAT_VEC4));
    assert_no_error!(ctx);
}

#[test]
fn bound_attribute_locations_apply_at_link() {
    let mut ctx = context();
    let v = shader(&mut ctx, VERTEX_SHADER, QUERY_VS);
    let f = shader(&mut ctx, FRAGMENT_SHADER, QUERY_FS);
    let p = ctx.create_program();
    ctx.attach_shader(p, v);
    ctx.attach_shader(p, f);
    ctx.bind_attrib_location(p, 5, "uv");
    ctx.bind_attrib_location(p, 3, "p");
    ctx.bind_attrib_location(p, 9, "not_in_the_shader");
    assert_no_error!(ctx);
    assert_eq!(ctx.get_attrib_location(p, "uv"), -1);
    assert_error!(ctx, INVALID_OPERATION, "not linked yet");
    records(&mut ctx);
    ctx.link_program(p);
    assert_eq!(ctx.get_attrib_location(p, "uv"), 5);
    assert_eq!(ctx.get_attrib_location(p, "p"), 3);
    // The vertex stage's SPIR-V carries the same locations.
    let (_, _, code) = created_program(&mut ctx);
    let vs = &code[0];
    assert_eq!(decoration(vs, "uv", DECO_LOCATION), Some(5));
    assert_eq!(decoration(vs, "p", DECO_LOCATION), Some(3));
    // A later binding applies only at the next link.
    ctx.bind_attrib_location(p, 7, "uv");
    assert_eq!(ctx.get_attrib_location(p, "uv"), 5);
    ctx.link_program(p);
    assert_eq!(ctx.get_attrib_location(p, "uv"), 7);
    assert_no_error!(ctx);
}

#[test]
fn fragment_outputs_bound_and_automatic() {
    let mut ctx = context();
    let fs = "#version 330\nout vec4 c0; out vec4 c1; out vec4 c2;\n\
              void main() { c2 = vec4(1.0); c1 = vec4(0.0); }\n";
    // Mesa: c0 is inactive, c1 gets 0 and c2 gets 1 (declaration order).
    let p = programs::link(&mut ctx, PASS_VS, fs);
    assert_eq!(
        ["c0", "c1", "c2"].map(|n| ctx.get_frag_data_location(p, n)),
        [-1, 0, 1]
    );
    assert_eq!(ctx.get_frag_data_index(p, "c2"), 0);
    assert_eq!(ctx.get_frag_data_index(p, "zz"), -1);
    assert_no_error!(ctx);

    let v = shader(&mut ctx, VERTEX_SHADER, PASS_VS);
    let f = shader(
        &mut ctx,
        FRAGMENT_SHADER,
        "#version 330\nout vec4 a; out vec4 b; out vec4 arr[2];\n\
         void main() { a = vec4(1.0); b = vec4(2.0); arr[0] = a; arr[1] = b; }\n",
    );
    let p = ctx.create_program();
    ctx.attach_shader(p, v);
    ctx.attach_shader(p, f);
    ctx.bind_frag_data_location(p, 3, "a");
    ctx.bind_frag_data_location_indexed(p, 0, 1, "b");
    ctx.bind_frag_data_location(p, 5, "arr");
    ctx.link_program(p);
    assert_eq!(
        ctx.get_programi(p, LINK_STATUS),
        1,
        "{}",
        ctx.program_info_log(p)
    );
    assert_eq!(ctx.get_frag_data_location(p, "a"), 3);
    assert_eq!(ctx.get_frag_data_location(p, "b"), 0);
    assert_eq!(ctx.get_frag_data_index(p, "b"), 1);
    assert_eq!(ctx.get_frag_data_index(p, "a"), 0);
    assert_eq!(ctx.get_frag_data_location(p, "arr"), 5);
    assert_eq!(ctx.get_frag_data_location(p, "arr[1]"), 6);
    assert_eq!(ctx.get_frag_data_location(p, "arr[2]"), -1);
    assert_no_error!(ctx);
}

#[test]
fn fragment_output_errors() {
    let mut ctx = context();
    let p = programs::color_program(&mut ctx);
    let unlinked = ctx.create_program();
    ctx.bind_frag_data_location(p, 8, "c");
    assert_error!(ctx, INVALID_VALUE);
    ctx.bind_frag_data_location(p, 0, "gl_c");
    assert_error!(ctx, INVALID_OPERATION);
    ctx.bind_frag_data_location_indexed(p, 0, 2, "c");
    assert_error!(ctx, INVALID_VALUE);
    ctx.bind_frag_data_location_indexed(p, 1, 1, "c");
    assert_error!(ctx, INVALID_VALUE, "only one dual-source draw buffer");
    ctx.bind_frag_data_location(999, 0, "c");
    assert_error!(ctx, INVALID_VALUE);
    assert_eq!(ctx.get_frag_data_location(unlinked, "frag"), -1);
    assert_error!(ctx, INVALID_OPERATION);
    assert_eq!(ctx.get_frag_data_index(unlinked, "frag"), -1);
    assert_error!(ctx, INVALID_OPERATION);
    assert_eq!(ctx.get_frag_data_location(p, "frag"), 0);
    assert_no_error!(ctx);
}

// ---------------------------------------------------------------------------------------
// Records and SPIR-V

const OP_NAME: u32 = 5;
const OP_TYPE_STRUCT: u32 = 30;
const OP_TYPE_POINTER: u32 = 32;
const OP_VARIABLE: u32 = 59;
const OP_DECORATE: u32 = 71;
const DECO_LOCATION: u32 = 30;
const DECO_BINDING: u32 = 33;
const DECO_DESCRIPTOR_SET: u32 = 34;

/// The instructions of a SPIR-V module: (opcode, operands).
fn instructions(words: &[u32]) -> Vec<(u32, &[u32])> {
    assert_eq!(words[0], 0x0723_0203, "SPIR-V magic");
    let mut out = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        assert!(count > 0 && at + count <= words.len(), "malformed SPIR-V");
        out.push((words[at] & 0xffff, &words[at + 1..at + count]));
        at += count;
    }
    out
}

fn literal(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
    String::from_utf8(bytes[..end].to_vec()).expect("utf-8 name")
}

/// The id of the global variable named `name`, or whose (struct) type is named `name`.
fn variable(words: &[u32], name: &str) -> u32 {
    let insts = instructions(words);
    let named: Vec<u32> = insts
        .iter()
        .filter(|(op, o)| *op == OP_NAME && literal(&o[1..]) == name)
        .map(|(_, o)| o[0])
        .collect();
    let pointee = |ptr: u32| {
        insts
            .iter()
            .find(|(op, o)| *op == OP_TYPE_POINTER && o[0] == ptr)
            .map(|(_, o)| o[2])
    };
    insts
        .iter()
        .filter(|(op, _)| *op == OP_VARIABLE)
        .find(|(_, o)| named.contains(&o[1]) || pointee(o[0]).is_some_and(|t| named.contains(&t)))
        .map(|(_, o)| o[1])
        .unwrap_or_else(|| panic!("no variable {name}"))
}

/// The value of a decoration of the variable named `name`.
fn decoration(words: &[u32], name: &str, deco: u32) -> Option<u32> {
    let id = variable(words, name);
    let values: Vec<u32> = instructions(words)
        .iter()
        .filter(|(op, o)| *op == OP_DECORATE && o[0] == id && o[1] == deco)
        .map(|(_, o)| o[2])
        .collect();
    assert!(
        values.len() <= 1,
        "{name} decorated {deco} twice: {values:?}"
    );
    values.first().copied()
}

/// The last `CreateProgram` since the previous call, with its stages' SPIR-V words.
fn created_program(
    ctx: &mut tessera_engine::Context,
) -> (ProgramHandle, ProgramDesc, Vec<Vec<u32>>) {
    ctx.finish();
    let probe = ctx.null_probe().expect("null backend");
    let batches = probe.take_batches();
    let records = probe.take_records();
    let (handle, desc) = records
        .into_iter()
        .rev()
        .find_map(|r| match r {
            Record::CreateProgram { program, desc } => Some((program, *desc)),
            _ => None,
        })
        .expect("a CreateProgram");
    let stage = batches
        .iter()
        .rev()
        .map(|b| &b.1)
        .find(|s| {
            // The batch whose stage area holds SPIR-V where every span of the desc begins.
            desc.stages.iter().all(|c| {
                let at = c.spirv.offset as usize;
                (c.spirv.offset + c.spirv.len) as usize <= s.len()
                    && s[at..at + 4] == [0x03, 0x02, 0x23, 0x07]
            })
        })
        .expect("the batch of the program");
    let code = desc
        .stages
        .iter()
        .map(|c| {
            let bytes = &stage[c.spirv.offset as usize..(c.spirv.offset + c.spirv.len) as usize];
            bytes
                .chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect()
        })
        .collect();
    (handle, desc, code)
}

#[test]
fn create_program_carries_the_documented_bindings() {
    let mut ctx = context();
    let vs = "#version 330
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 uv;
uniform mat4 mvp;
layout(std140) uniform Camera { mat4 view; };
out vec2 v_uv;
void main() { v_uv = uv; gl_Position = view * mvp * position; }
";
    let fs = "#version 330
uniform sampler2D tex;
uniform sampler2D pair[2];
uniform vec4 tint;
layout(std140) uniform Material { vec4 m_tint; float scale; };
in vec2 v_uv;
out vec4 frag;
void main() { frag = texture(tex, v_uv) * texture(pair[1], v_uv) * tint * m_tint * scale; }
";
    ctx.finish();
    let probe = ctx.null_probe().expect("null backend");
    probe.take_batches();
    probe.take_records();
    let p = programs::link(&mut ctx, vs, fs);
    let (_, desc, code) = created_program(&mut ctx);
    assert_eq!(
        desc.stages.iter().map(|s| s.stage).collect::<Vec<_>>(),
        [ShaderStage::Vertex, ShaderStage::Fragment]
    );
    assert_eq!(
        desc.default_block_size, 96,
        "mvp (64) + tint (16) + the hidden point-size slot (16)"
    );
    assert_eq!(
        desc.samplers,
        [
            SamplerSlot {
                kind: TextureKind::D2,
                element: 0
            },
            SamplerSlot {
                kind: TextureKind::D2,
                element: 0
            },
            SamplerSlot {
                kind: TextureKind::D2,
                element: 1
            },
        ]
    );
    let camera = ctx.get_uniform_block_index(p, "Camera");
    let material = ctx.get_uniform_block_index(p, "Material");
    let mut slots = [BlockSlot {
        size: 0,
        element: 0,
    }; 2];
    slots[camera as usize].size = 64;
    slots[material as usize].size = 32;
    assert_eq!(desc.uniform_blocks, slots);
    let (vs, fs) = (&code[0], &code[1]);
    // Binding 0: the default block, in both stages.
    for words in [vs, fs] {
        assert_eq!(
            decoration(words, "gl_DefaultUniformBlock", DECO_BINDING),
            Some(0)
        );
        assert_eq!(
            decoration(words, "gl_DefaultUniformBlock", DECO_DESCRIPTOR_SET),
            Some(0)
        );
    }
    // Then one binding per sampler slot (an array takes its first slot's), then the blocks.
    let sampler_binding = |name: &str| decoration(fs, name, DECO_BINDING);
    let mut sampler_bindings = [sampler_binding("tex"), sampler_binding("pair")];
    sampler_bindings.sort();
    assert_eq!(sampler_bindings, [Some(1), Some(2)]);
    assert_eq!(decoration(fs, "tex", DECO_DESCRIPTOR_SET), Some(0));
    assert_eq!(decoration(fs, "pair", DECO_DESCRIPTOR_SET), Some(0));
    assert_eq!(decoration(vs, "Camera", DECO_BINDING), Some(4 + camera));
    assert_eq!(decoration(fs, "Material", DECO_BINDING), Some(4 + material));
    assert_eq!(decoration(fs, "Material", DECO_DESCRIPTOR_SET), Some(0));
    // Interfaces: attributes where GL says, the varying at one location in both stages.
    assert_eq!(decoration(vs, "position", DECO_LOCATION), Some(0));
    assert_eq!(decoration(vs, "uv", DECO_LOCATION), Some(1));
    assert_eq!(
        decoration(vs, "v_uv", DECO_LOCATION),
        decoration(fs, "v_uv", DECO_LOCATION)
    );
    assert_eq!(decoration(fs, "frag", DECO_LOCATION), Some(0));
    // The struct type of a block carries the name the test looks for.
    assert!(
        instructions(vs)
            .iter()
            .any(|(op, o)| *op == OP_TYPE_STRUCT && !o.is_empty())
    );
}

#[test]
fn sampler_uniforms_map_units_to_slots() {
    let mut ctx = context();
    let p = programs::textured_program(&mut ctx);
    assert_eq!(ctx.get_programi(p, ACTIVE_UNIFORMS), 1);
    let tex = ctx.get_uniform_location(p, "tex");
    ctx.use_program(p);
    ctx.uniform1i(tex, 5);
    let mut v = [0];
    ctx.get_uniformiv(p, tex, &mut v);
    assert_eq!(v, [5]);
    assert_no_error!(ctx);
}

#[test]
fn a_relink_replaces_the_wire_program() {
    let mut ctx = context();
    let p = programs::color_program(&mut ctx);
    let first = records(&mut ctx)
        .into_iter()
        .find_map(|r| match r {
            Record::CreateProgram { program, .. } => Some(program),
            _ => None,
        })
        .expect("CreateProgram");
    // The deleted shaders are still attached: the program relinks from them.
    ctx.link_program(p);
    assert_eq!(ctx.get_programi(p, LINK_STATUS), 1);
    let recs = records(&mut ctx);
    let created: Vec<ProgramHandle> = recs
        .iter()
        .filter_map(|r| match r {
            Record::CreateProgram { program, .. } => Some(*program),
            _ => None,
        })
        .collect();
    let destroyed: Vec<ProgramHandle> = recs
        .iter()
        .filter_map(|r| match r {
            Record::DestroyProgram { program } => Some(*program),
            _ => None,
        })
        .collect();
    assert_eq!(created.len(), 1);
    assert_ne!(created[0], first);
    assert_eq!(destroyed, [first]);
}

#[test]
fn deleting_the_current_program_destroys_it_once_after_use_program_0() {
    let mut ctx = context();
    let p = programs::color_program(&mut ctx);
    ctx.use_program(p);
    let handle = records(&mut ctx)
        .into_iter()
        .find_map(|r| match r {
            Record::CreateProgram { program, .. } => Some(program),
            _ => None,
        })
        .expect("CreateProgram");
    ctx.delete_program(p);
    assert_no_error!(ctx);
    assert_eq!(ctx.get_programi(p, DELETE_STATUS), 1);
    assert_eq!(ctx.is_program(p), 1, "the name stays while current");
    assert_eq!(ctx.get_integer(CURRENT_PROGRAM), p as GLint);
    let destroys = |recs: &[Record]| {
        recs.iter()
            .filter_map(|r| match r {
                Record::DestroyProgram { program } => Some(*program),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(destroys(&records(&mut ctx)), Vec::<ProgramHandle>::new());
    ctx.use_program(0);
    assert_eq!(destroys(&records(&mut ctx)), [handle]);
    assert_eq!(ctx.is_program(p), 0);
    ctx.get_programi(p, DELETE_STATUS);
    assert_error!(ctx, INVALID_VALUE, "the name is free");
    ctx.use_program(0);
    assert_eq!(destroys(&records(&mut ctx)), Vec::<ProgramHandle>::new());
}

#[test]
fn a_deleted_attached_shader_lives_until_detached() {
    let mut ctx = context();
    let v = shader(&mut ctx, VERTEX_SHADER, PASS_VS);
    let f = shader(&mut ctx, FRAGMENT_SHADER, COLOR_FS);
    let p = program(&mut ctx, &[v, f]);
    ctx.delete_shader(v);
    assert_eq!(ctx.get_shaderi(v, DELETE_STATUS), 1);
    assert_eq!(ctx.is_shader(v), 1);
    assert_eq!(ctx.get_programi(p, ATTACHED_SHADERS), 2);
    ctx.detach_shader(p, v);
    assert_eq!(ctx.is_shader(v), 0);
    assert_eq!(ctx.get_programi(p, ATTACHED_SHADERS), 1);
    // Deleting the program releases its last shader's reference too.
    ctx.delete_shader(f);
    assert_eq!(ctx.is_shader(f), 1);
    ctx.delete_program(p);
    assert_eq!((ctx.is_shader(f), ctx.is_program(p)), (0, 0));
    assert_no_error!(ctx);
}

#[test]
fn draws_bind_the_program_and_send_uniforms_when_they_change() {
    let mut ctx = context();
    let p = programs::color_program(&mut ctx);
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    ctx.use_program(p);
    let color = ctx.get_uniform_location(p, "color");
    ctx.uniform4f(color, 1.0, 0.0, 0.0, 1.0);
    records(&mut ctx);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    let recs = records(&mut ctx);
    let count = |recs: &[Record], f: fn(&Record) -> bool| recs.iter().filter(|r| f(r)).count();
    assert_eq!(
        count(&recs, |r| matches!(
            r,
            Record::BindProgram { program: Some(_) }
        )),
        1
    );
    assert_eq!(
        count(
            &recs,
            // color (16) + the hidden point-size slot (16).
            |r| matches!(r, Record::SetUniforms { data } if data.len == 32)
        ),
        1
    );
    ctx.draw_arrays(TRIANGLES, 0, 3);
    let recs = records(&mut ctx);
    assert_eq!(count(&recs, |r| matches!(r, Record::SetUniforms { .. })), 0);
    assert_eq!(count(&recs, |r| matches!(r, Record::BindProgram { .. })), 0);
    ctx.uniform4f(color, 0.0, 1.0, 0.0, 1.0);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    let recs = records(&mut ctx);
    assert_eq!(count(&recs, |r| matches!(r, Record::SetUniforms { .. })), 1);
    assert_no_error!(ctx);
}

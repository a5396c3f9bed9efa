//! Front-end tests with real shaders: what glslang accepts, what the link reports, and
//! SPIR-V that `spirv-val` (from the `spirv-tools` package the build needs anyway) accepts
//! for Vulkan 1.0.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::{Limits, LinkRequest, Stage, compile, gltype, link};

fn link_all(shaders: &[(Stage, &str)]) -> Result<crate::Program, String> {
    link(&LinkRequest {
        shaders,
        attrib_bindings: &[],
        frag_data_bindings: &[],
        limits: Limits::default(),
        xfb_varyings: &[],
        xfb_separate: false,
        separable: false,
    })
}

fn link_xfb(
    shaders: &[(Stage, &str)],
    names: &[&str],
    separate: bool,
) -> Result<crate::Program, String> {
    let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    link(&LinkRequest {
        shaders,
        attrib_bindings: &[],
        frag_data_bindings: &[],
        limits: Limits::default(),
        xfb_varyings: &names,
        xfb_separate: separate,
        separable: false,
    })
}

const XFB_VS: &str = "#version 150\nin vec4 p;\nout vec3 a;\nflat out ivec3 b[2];\nout float unread;\n\
    void main() { gl_Position = p; a = p.xyz; b[0] = ivec3(1, 2, 3); b[1] = ivec3(4); unread = 1.0; }\n";

#[test]
fn xfb_interleaved_layout_and_valid_spirv() {
    let p = link_xfb(
        &[(Stage::Vertex, XFB_VS)],
        &["a", "gl_Position", "b"],
        false,
    )
    .expect("links");
    let v: Vec<_> = p
        .xfb
        .varyings
        .iter()
        .map(|v| (v.name.as_str(), v.ty, v.size, v.buffer, v.offset))
        .collect();
    assert_eq!(
        v,
        [
            ("a", gltype::FLOAT_VEC3, 1, 0, 0),
            ("gl_Position", gltype::FLOAT_VEC4, 1, 0, 12),
            ("b", gltype::INT_VEC3, 2, 0, 28),
        ]
    );
    assert_eq!(p.xfb.strides, [52, 0, 0, 0]);
    validate(&p.stages[0].1);
}

#[test]
fn xfb_separate_layout_and_valid_spirv() {
    let fs = "#version 150\nin vec3 a;\nout vec4 c;\nvoid main() { c = vec4(a, 1.0); }\n";
    let p = link_xfb(
        &[(Stage::Vertex, XFB_VS), (Stage::Fragment, fs)],
        &["unread", "a"],
        true,
    )
    .expect("links");
    let v: Vec<_> = p
        .xfb
        .varyings
        .iter()
        .map(|v| (v.buffer, v.offset, v.components))
        .collect();
    assert_eq!(v, [(0, 0, 1), (1, 0, 3)]);
    assert_eq!(p.xfb.strides, [4, 12, 0, 0]);
    validate(&p.stages[0].1);
}

#[test]
fn xfb_skip_components_and_next_buffer_layout_and_valid_spirv() {
    let p = link_xfb(
        &[(Stage::Vertex, XFB_VS)],
        &[
            "gl_SkipComponents2",
            "a",
            "gl_NextBuffer",
            "gl_NextBuffer",
            "gl_Position",
            "gl_SkipComponents3",
        ],
        false,
    )
    .expect("links");
    let v: Vec<_> = p
        .xfb
        .varyings
        .iter()
        .map(|v| (v.name.as_str(), v.ty, v.size, v.buffer, v.offset))
        .collect();
    assert_eq!(
        v,
        [
            ("gl_SkipComponents2", 0, 2, 0, 0),
            ("a", gltype::FLOAT_VEC3, 1, 0, 8),
            ("gl_NextBuffer", 0, 0, 1, 0),
            ("gl_NextBuffer", 0, 0, 2, 0),
            ("gl_Position", gltype::FLOAT_VEC4, 1, 2, 0),
            ("gl_SkipComponents3", 0, 3, 2, 16),
        ]
    );
    // Binding 1 is skipped over and not written; a trailing skip widens the stride.
    assert_eq!(p.xfb.strides, [20, 0, 28, 0]);
    validate(&p.stages[0].1);
    let names = [
        "a",
        "gl_NextBuffer",
        "gl_NextBuffer",
        "gl_NextBuffer",
        "gl_NextBuffer",
    ];
    let e = link_xfb(&[(Stage::Vertex, XFB_VS)], &names, false).expect_err("5 buffers");
    assert!(e.contains("Too many transform feedback buffers"), "{e}");
}

#[test]
fn xfb_link_errors() {
    let e = link_xfb(&[(Stage::Vertex, XFB_VS)], &["nope"], false).expect_err("unknown");
    assert!(e.contains("nope undeclared"), "{e}");
    let e = link_xfb(&[(Stage::Vertex, XFB_VS)], &["a", "a"], false).expect_err("twice");
    assert!(e.contains("more than once"), "{e}");
    let e = link_xfb(&[(Stage::Vertex, XFB_VS)], &["b"], true).expect_err("6 components");
    assert!(e.contains("SEPARATE_COMPONENTS"), "{e}");
}

#[test]
fn xfb_every_element_of_an_array_in_order_is_the_whole_array() {
    let p = link_xfb(&[(Stage::Vertex, XFB_VS)], &["a", "b[0]", "b[1]"], false).expect("links");
    let v: Vec<_> = p
        .xfb
        .varyings
        .iter()
        .map(|v| {
            (
                v.name.as_str(),
                v.ty,
                v.size,
                v.offset,
                v.components,
                v.element,
            )
        })
        .collect();
    assert_eq!(
        v,
        [
            ("a", gltype::FLOAT_VEC3, 1, 0, 3, None),
            ("b[0]", gltype::INT_VEC3, 1, 12, 3, Some(0)),
            ("b[1]", gltype::INT_VEC3, 1, 24, 3, Some(1)),
        ]
    );
    assert_eq!(p.xfb.strides, [36, 0, 0, 0]);
    validate(&p.stages[0].1);
    for names in [
        &["b[1]"][..],
        &["b[1]", "b[0]"],
        &["b[0]", "a", "b[1]"],
        &["b[0]"],
    ] {
        let e = link_xfb(&[(Stage::Vertex, XFB_VS)], names, false).expect_err("some elements");
        assert!(
            e.contains("some elements of the array `b'"),
            "{names:?}: {e}"
        );
    }
    for names in [&["b[2]"][..], &["a[0]"], &["nope[0]"]] {
        let e = link_xfb(&[(Stage::Vertex, XFB_VS)], names, false).expect_err("no element");
        assert!(e.contains(&format!("{} undeclared", names[0])), "{e}");
    }
}

#[test]
fn xfb_captures_gl_layer_from_a_geometry_shader() {
    let vs = "#version 150\nvoid main() { gl_Position = vec4(0.0); }\n";
    let gs = "#version 150\nlayout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;\n\
              void main() { for (int i = 0; i < 3; i++) { gl_Layer = i; EmitVertex(); } }\n";
    let p = link_xfb(
        &[(Stage::Vertex, vs), (Stage::Geometry, gs)],
        &["gl_Layer"],
        true,
    )
    .expect("links");
    let v: Vec<_> = p
        .xfb
        .varyings
        .iter()
        .map(|v| (v.name.as_str(), v.ty, v.size, v.source))
        .collect();
    assert_eq!(v, [("gl_Layer", gltype::INT, 1, crate::XfbSource::Layer)]);
    assert_eq!(p.xfb.strides, [4, 0, 0, 0]);
    let geometry = p
        .stages
        .iter()
        .find(|s| s.0 == Stage::Geometry)
        .expect("gs");
    validate(&geometry.1);
}

#[test]
fn xfb_vertex_streams_one_stream_per_buffer() {
    let vs = "#version 400 core\nvoid main() { gl_Position = vec4(0.0); }\n";
    let gs = "#version 400 core\nlayout(points) in;\nlayout(points, max_vertices = 4) out;\n\
              layout(stream = 0) out vec4 a;\nlayout(stream = 1) out vec2 b;\n\
              layout(stream = 3) out float c;\nlayout(stream = 3) out int d;\n\
              void main() { a = vec4(1.0); EmitStreamVertex(0); b = vec2(2.0); EmitStreamVertex(1);\n\
              c = 3.0; d = 4; EmitStreamVertex(3); EndStreamPrimitive(3); }\n";
    let shaders = [(Stage::Vertex, vs), (Stage::Geometry, gs)];
    let p = link_xfb(
        &shaders,
        &["b", "gl_NextBuffer", "c", "d", "gl_NextBuffer", "a"],
        false,
    )
    .expect("links");
    assert_eq!(p.xfb.strides, [8, 8, 16, 0]);
    // Buffer 3 is not written: stream 0's, as Mesa keeps it.
    assert_eq!(p.xfb.streams, [1, 3, 0, 0]);
    let geometry = p
        .stages
        .iter()
        .find(|s| s.0 == Stage::Geometry)
        .expect("gs");
    validate(&geometry.1);
    let e = link_xfb(&shaders, &["a", "c"], false).expect_err("streams 0 and 3 in buffer 0");
    assert!(
        e.contains("different vertex streams in a single buffer"),
        "{e}"
    );
    let e = link_xfb(&shaders, &["b", "gl_NextBuffer", "d", "a"], false).expect_err("3 and 0");
    assert!(
        e.contains("Varying a writes to buffer from stream 0"),
        "{e}"
    );
    let p = link_xfb(&shaders, &["c", "b", "a"], true).expect("separate: one each");
    assert_eq!(p.xfb.streams, [3, 1, 0, 0]);
}

/// Runs `spirv-val` on a module; panics with its report if the module is invalid.
const BLOCKS_VS: &str = "#version 150\nin vec4 vertex;\nvoid main() { gl_Position = vertex; }\n";
const BLOCKS_GS: &str = "#version 150
layout(points) in;
layout(points, max_vertices = 3) out;
out NoInst { float a; vec3 b; };
out WithInst { float c; vec3 d; } inst;
out WithInstArray { float e; vec3 f; float g[3]; } instArray[2];
void main() {
    a = 1.0; b = vec3(2.0); inst.c = 3.0; inst.d = vec3(4.0);
    for (int i = 0; i < 2; i++) {
        instArray[i].e = 5.0 + 5 * i;
        instArray[i].f = vec3(6.0 + 5 * i);
        for (int j = 0; j < 3; j++) instArray[i].g[j] = instArray[i].e + 2.0 + j;
    }
    EmitVertex();
}
";

#[test]
fn xfb_block_members_by_their_api_names() {
    let shaders = [(Stage::Vertex, BLOCKS_VS), (Stage::Geometry, BLOCKS_GS)];
    let names = [
        "a",
        "b",
        "WithInst.c",
        "WithInst.d",
        "WithInstArray[0].e",
        "WithInstArray[1].f",
        "WithInstArray[1].g",
        "WithInstArray[0].g[2]",
    ];
    let p = link_xfb(&shaders, &names, false).expect("links");
    let v: Vec<_> = p
        .xfb
        .varyings
        .iter()
        .map(|v| (v.name.as_str(), v.ty, v.size, v.offset))
        .collect();
    assert_eq!(
        v,
        [
            ("a", gltype::FLOAT, 1, 0),
            ("b", gltype::FLOAT_VEC3, 1, 4),
            ("WithInst.c", gltype::FLOAT, 1, 16),
            ("WithInst.d", gltype::FLOAT_VEC3, 1, 20),
            ("WithInstArray[0].e", gltype::FLOAT, 1, 32),
            ("WithInstArray[1].f", gltype::FLOAT_VEC3, 1, 36),
            ("WithInstArray[1].g", gltype::FLOAT, 3, 48),
            ("WithInstArray[0].g[2]", gltype::FLOAT, 1, 60),
        ]
    );
    validate(&p.stages[1].1);
    let p = link_xfb(&shaders, &["WithInst.d", "a"], true).expect("separate");
    validate(&p.stages[1].1);
    // The instance name, a member without its block, a block array without its index.
    for name in [
        "c",
        "inst.c",
        "e",
        "instArray.e",
        "WithInstArray.e",
        "instArray[0].e",
        "WithInstArray[2].e",
        "WithInstArray[0].g[3]",
        "NoInst.a",
        "WithInst.c[0]",
    ] {
        let e = link_xfb(&shaders, &[name], false).expect_err(name);
        assert!(e.contains(&format!("{name} undeclared")), "{e}");
    }
}

pub(crate) fn validate(words: &[u32]) {
    let bytes: &[u8] = bytemuck::cast_slice(words);
    let mut child = Command::new("spirv-val")
        .args(["--target-env", "vulkan1.0", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spirv-val (apt-get install spirv-tools)");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(bytes)
        .expect("write SPIR-V");
    let out = child.wait_with_output().expect("spirv-val ran");
    assert!(
        out.status.success(),
        "invalid SPIR-V: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

const VS: &str = "#version 330 core
layout(location = 2) in vec3 pos;
in vec2 uv;
in mat3 basis;
in float unused_input;
out Vertex { vec3 normal; vec2 uv; } vo;
out float depth;
uniform mat4 mvp;
uniform vec3 offsets[4];
struct Light { vec3 dir; float k; };
uniform Light light;
layout(std140) uniform Camera { mat4 view; vec3 eye; } cam;
void main() {
    vo.normal = basis * pos + offsets[2] + light.dir * light.k;
    vo.uv = uv;
    depth = pos.z;
    gl_Position = cam.view * mvp * vec4(pos, 1.0) + vec4(cam.eye, float(gl_VertexID));
}
";

const GS: &str = "#version 330 core
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in Vertex { vec3 normal; vec2 uv; } gi[];
in float depth[];
out vec2 g_uv;
out vec3 g_normal;
uniform float scale;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position * scale + vec4(depth[i]);
        g_uv = gi[i].uv;
        g_normal = gi[i].normal;
        EmitVertex();
    }
    EndPrimitive();
}
";

const FS: &str = "#version 330 core
in vec2 g_uv;
in vec3 g_normal;
uniform sampler2D tex;
uniform sampler2DShadow shadow;
uniform isampler2DArray layers[2];
uniform float scale;
uniform Material { vec4 tint; } materials[2];
layout(location = 0, index = 0) out vec4 color;
layout(location = 0, index = 1) out vec4 blend;
void main() {
    color = texture(tex, g_uv) * scale * materials[1].tint + vec4(g_normal, 0.0)
        + vec4(texture(shadow, vec3(g_uv, 0.5))) + vec4(texture(layers[1], vec3(g_uv, 0.0)));
    blend = materials[0].tint;
}
";

#[test]
fn a_full_pipeline_links_to_valid_spirv() {
    let p = link_all(&[
        (Stage::Vertex, VS),
        (Stage::Geometry, GS),
        (Stage::Fragment, FS),
    ])
    .expect("links");
    assert_eq!(p.log, "");
    let stages: Vec<Stage> = p.stages.iter().map(|s| s.0).collect();
    assert_eq!(stages, [Stage::Vertex, Stage::Geometry, Stage::Fragment]);
    for (_, words) in &p.stages {
        validate(words);
    }
    let geometry = p.geometry.expect("geometry parameters");
    assert_eq!(
        (geometry.vertices_out, geometry.input, geometry.output),
        (3, 4, 5)
    );
    // Samplers: tex, shadow, then the two elements of layers.
    let kinds: Vec<(gltype::SamplerTarget, u32)> =
        p.samplers.iter().map(|s| (s.target, s.element)).collect();
    assert_eq!(
        kinds,
        [
            (gltype::SamplerTarget::D2, 0),
            (gltype::SamplerTarget::D2, 0),
            (gltype::SamplerTarget::D2Array, 0),
            (gltype::SamplerTarget::D2Array, 1),
        ]
    );
    let blocks: Vec<(&str, u32, u32)> = p
        .blocks
        .iter()
        .map(|b| (b.name.as_str(), b.data_size, b.element))
        .collect();
    assert_eq!(
        blocks,
        [
            ("Camera", 80, 0),
            ("Material[0]", 16, 0),
            ("Material[1]", 16, 1)
        ]
    );
    // The attribute mask covers uv, basis (3 locations) and pos; the unused input is not
    // active.
    let attrs: Vec<(&str, i32)> = p
        .attributes
        .iter()
        .map(|a| (a.name.as_str(), a.location))
        .collect();
    assert!(attrs.contains(&("pos", 2)), "{attrs:?}");
    assert!(attrs.contains(&("gl_VertexID", -1)), "{attrs:?}");
    assert_eq!(p.attribute_mask.count_ones(), 5);
    let outputs: Vec<(&str, i32, i32)> = p
        .outputs
        .iter()
        .map(|o| (o.name.as_str(), o.location, o.index))
        .collect();
    assert_eq!(outputs.len(), 2);
    assert!(outputs.contains(&("blend", 0, 1)));
}

#[test]
fn a_vertex_only_and_a_fragment_only_program_link() {
    for shaders in [
        &[(Stage::Vertex, VS)][..],
        &[(
            Stage::Fragment,
            "#version 330\nin vec2 g_uv;\nout vec4 c;\nvoid main() { c = vec4(g_uv, 0.0, 1.0); }\n",
        )][..],
    ] {
        let p = link_all(shaders).expect("links");
        for (_, words) in &p.stages {
            validate(words);
        }
    }
}

#[test]
fn compiles_run_on_many_threads() {
    let threads: Vec<_> = (0..4)
        .map(|i| {
            std::thread::spawn(move || {
                for _ in 0..3 {
                    let c = compile(Stage::Vertex, VS, &Limits::default());
                    assert!(c.ok, "{}", c.log);
                    let bad = compile(
                        Stage::Fragment,
                        "#version 330\nvoid main() { x; }\n",
                        &Limits::default(),
                    );
                    assert!(!bad.ok);
                    assert!(
                        bad.log
                            .starts_with("0:2: error: 'x' : undeclared identifier"),
                        "{i}: {}",
                        bad.log
                    );
                    assert!(
                        link_all(&[
                            (Stage::Vertex, VS),
                            (Stage::Geometry, GS),
                            (Stage::Fragment, FS)
                        ])
                        .is_ok()
                    );
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("no thread panicked");
    }
}

#[test]
fn limits_are_checked() {
    let vs = "#version 330\nlayout(location = 16) in vec4 e;\nvoid main() { gl_Position = e; }\n";
    assert_eq!(
        link_all(&[(Stage::Vertex, vs)]).unwrap_err(),
        "error: invalid explicit location 16 specified for `e'\n"
    );
    let vs = "#version 330\nin mat4 a, b, c, d; in vec4 e;\n\
              void main() { gl_Position = a[0] + b[0] + c[0] + d[0] + e; }\n";
    assert_eq!(
        link_all(&[(Stage::Vertex, vs)]).unwrap_err(),
        "error: insufficient contiguous locations available for vertex shader input `e'\n"
    );
}

#[test]
fn deprecated_texture_functions_and_outputs_compile() {
    // Mesa accepts these in core contexts; GLSL keeps them outside forward-compatible ones.
    let fs = "#version 330\nuniform sampler2D t;\nuniform sampler2DShadow s;\nout vec4 o;\n\
              void main() { o = texture2D(t, vec2(0.0)) + shadow2D(s, vec3(0.5)) \
              + texture2DProj(t, vec3(1.0)) + texture2D(t, vec2(0.0), 1.0); }\n";
    let c = compile(Stage::Fragment, fs, &Limits::default());
    assert!(c.ok, "{}", c.log);
    let fs = "#version 140\nuniform sampler2D t;\n\
              void main() { gl_FragColor = texture2D(t, vec2(0.0)); }\n";
    let vs = "#version 140\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
    let p = link_all(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).expect("links");
    for (_, words) in &p.stages {
        validate(words);
    }
    // Line numbers are the source's own.
    let c = compile(
        Stage::Fragment,
        "#version 330\nout vec4 o;\nvoid main() { o = texture2D(x, vec2(0.0)); }\n",
        &Limits::default(),
    );
    assert!(
        c.log.starts_with("0:3: error: 'x' : undeclared identifier"),
        "{}",
        c.log
    );
}

#[test]
fn a_sampler_in_a_struct_fails_to_link_with_a_log() {
    let fs = "#version 330\nstruct S { sampler2D t; float k; };\nuniform S s;\nout vec4 o;\n\
              void main() { o = texture(s.t, vec2(0.0)) * s.k; }\n";
    assert_eq!(
        link_all(&[(Stage::Fragment, fs)]).unwrap_err(),
        "error: sampler `s.t' inside a struct is not supported\n"
    );
}

/// Whether a module declares a capability.
fn has_capability(words: &[u32], cap: u32) -> bool {
    crate::spirv::instructions(words)
        .flatten()
        .any(|(_, o, w)| o == 17 && w.get(1) == Some(&cap))
}

const POINT_VS: &str = "#version 330\nin vec4 p;\nvoid main() { gl_Position = p; }\n";

#[test]
fn the_stage_that_sizes_points_reads_the_hidden_slot() {
    // No uniforms at all: the vertex stage gets a block of its own, 16 bytes.
    let p = link_all(&[(Stage::Vertex, POINT_VS)]).expect("links");
    assert_eq!(p.default_block_size, 16);
    assert_eq!(p.default_block, [0; 16]);
    validate(&p.stages[0].1);
    // The application's uniforms come first; the slot follows at a multiple of 16, where
    // std140 puts a vec4 (`z` ends at 20).
    let vs = "#version 330\nin vec4 p;\nuniform vec4 xf;\nuniform float z;\n\
              void main() { gl_Position = p * xf + z; gl_PointSize = 3.0; }\n";
    let fs =
        "#version 330\nuniform vec3 tint;\nout vec4 o;\nvoid main() { o = vec4(tint, 1.0); }\n";
    let p = link_all(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).expect("links");
    assert_eq!(p.default_block_size, 64, "xf, z, tint (48) + the slot");
    assert_eq!(p.log, "");
    for (_, words) in &p.stages {
        validate(words);
    }
    // A vertex stage without uniforms in a program with some: its new block keeps the
    // offset with padding.
    let p = link_all(&[(Stage::Vertex, POINT_VS), (Stage::Fragment, fs)]).expect("links");
    assert_eq!(p.default_block_size, 32);
    for (_, words) in &p.stages {
        validate(words);
    }
    // A geometry stage emitting points sizes them (and needs GeometryPointSize); one
    // emitting triangles does not, and the vertex stage before it never does.
    let points = "#version 330\nlayout(points) in;\nlayout(points, max_vertices = 2) out;\n\
                  void main() { gl_Position = gl_in[0].gl_Position; EmitVertex();\n\
                  gl_Position = gl_in[0].gl_Position + 1.0; EmitVertex(); }\n";
    let p = link_all(&[(Stage::Vertex, POINT_VS), (Stage::Geometry, points)]).expect("links");
    assert_eq!(p.default_block_size, 16);
    assert!(has_capability(&p.stages[1].1, 24), "GeometryPointSize");
    for (_, words) in &p.stages {
        validate(words);
    }
    let vs_gs = link_all(&[(Stage::Vertex, VS), (Stage::Geometry, GS)]).expect("links");
    assert!(!has_capability(&vs_gs.stages[1].1, 24));
    for (_, words) in &vs_gs.stages {
        validate(words);
    }
}

#[test]
fn the_hidden_slot_of_a_block_declared_before_any_vec4_is_valid() {
    // Only integers in the default block, so glslang declares the block's struct before
    // the module's first `vec4`, which the hidden member refers to.
    let vs = "#version 150\nuniform int a;\nuniform int b;\nout float o;\n\
              void main() { o = float(a); gl_Position = vec4(float(b), 0.0, 0.0, 1.0); }\n";
    let fs = "#version 150\nin float o;\nout vec4 c;\nvoid main() { c = vec4(o); }\n";
    let p = link_all(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).expect("links");
    assert_eq!(p.default_block_size, 32, "a, b (8) + the slot at 16");
    for (_, words) in &p.stages {
        validate(words);
    }
}

#[test]
fn rectangle_textures_are_read_as_2d_ones() {
    let fs = "#version 330\nuniform sampler2DRect r;\nuniform sampler2DRectShadow rs;\n\
              uniform sampler2D t;\nin vec2 uv;\nout vec4 o;\nvoid main() {\n\
              o = texture(r, uv) + textureProj(r, vec3(uv, 2.0))\n\
              + textureProj(r, vec4(uv, 0.0, 2.0))\n\
              + texelFetch(r, ivec2(uv)) + vec4(textureSize(r), 0.0, 0.0)\n\
              + texture(rs, vec3(uv, 0.5)) + textureProj(rs, vec4(uv, 0.5, 2.0))\n\
              + textureGrad(r, uv, vec2(1.0), vec2(1.0)) + textureOffset(r, uv, ivec2(1, 1))\n\
              + texture(t, uv); }\n";
    let p = link_all(&[(Stage::Fragment, fs)]).expect("links");
    let words = &p.stages[0].1;
    validate(words);
    assert!(!crate::rectangle::uses_rectangles(words));
    assert!(!has_capability(words, 37), "SampledRect is gone");
    // GL still sees rectangle samplers.
    let targets: Vec<gltype::SamplerTarget> = p.samplers.iter().map(|s| s.target).collect();
    assert_eq!(
        targets,
        [
            gltype::SamplerTarget::Rectangle,
            gltype::SamplerTarget::Rectangle,
            gltype::SamplerTarget::D2
        ]
    );
    // Seven sampling instructions divide by the size of level 0; textureSize asks for it.
    let queries = crate::spirv::instructions(words)
        .flatten()
        .filter(|(_, o, _)| *o == 103)
        .count();
    assert_eq!(queries, 8);
}

#[test]
fn uniform_initializers_fill_the_default_block() {
    let fs = "#version 330\nuniform vec4 tint = vec4(0.5, 0.25, 1.0, 2.0);\nuniform float k;\n\
              uniform mat2 m = mat2(1.0, 2.0, 3.0, 4.0);\nuniform int n[2] = int[2](7, -8);\n\
              struct S { bool b; uint u; };\nuniform S s = S(true, 9u);\nout vec4 o;\n\
              void main() { o = tint * k * m[1].x * float(n[1]) * float(s.b) * float(s.u); }\n";
    let p = link_all(&[(Stage::Fragment, fs)]).expect("links");
    assert_eq!(p.log, "", "the initializers are honoured: no warning");
    let word = |at: usize| bytemuck::pod_read_unaligned::<u32>(&p.default_block[at..at + 4]);
    let float = |at: usize| f32::from_bits(word(at));
    let offset = |name: &str| {
        p.uniforms
            .iter()
            .find(|u| u.name == name)
            .map(|u| u.offset as usize)
            .expect("active")
    };
    let t = offset("tint");
    assert_eq!(
        [float(t), float(t + 4), float(t + 8), float(t + 12)],
        [0.5, 0.25, 1.0, 2.0]
    );
    assert_eq!(float(offset("k")), 0.0);
    let m = offset("m");
    assert_eq!(
        [float(m), float(m + 4), float(m + 16), float(m + 20)],
        [1.0, 2.0, 3.0, 4.0]
    );
    let n = offset("n[0]");
    assert_eq!([word(n), word(n + 16)], [7, (-8i32) as u32]);
    assert_eq!([word(offset("s.b")), word(offset("s.u"))], [1, 9]);
    // The compile log has no warning either.
    let c = compile(Stage::Fragment, fs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
}

#[test]
fn static_recursion_fails_the_compile() {
    let vs = "#version 150\nin vec4 pos;\nfloat odd(float x);\n\
              float even(float x) { return x <= 0.0 ? 1.0 : odd(x - 1.0); }\n\
              float odd(float x) { return x <= 0.0 ? 0.0 : even(x - 1.0); }\n\
              float once(float x) { return even(x); }\n\
              void main() { gl_Position = pos * once(4.0); }\n";
    let c = compile(Stage::Vertex, vs, &Limits::default());
    assert!(!c.ok);
    assert_eq!(
        c.log,
        "0:4: error: 'even' : function has static recursion\n\
         0:5: error: 'odd' : function has static recursion\n"
    );
    // Calls without a cycle are fine.
    let vs = "#version 330\nin vec4 pos;\nfloat f(float x) { return x; }\n\
              float g(float x) { return f(x) + f(x); }\n\
              void main() { gl_Position = pos * g(1.0); }\n";
    let c = compile(Stage::Vertex, vs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
}

#[test]
fn glsl_140_has_inverse() {
    let fs = "#version 140\nuniform mat2 a;\nuniform mat3 b;\nuniform mat4 c;\nout vec4 color;\n\
              void main() { color = vec4(inverse(a)[0], inverse(b)[1].xy) + inverse(c)[2]; }\n";
    let c = compile(Stage::Fragment, fs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
    link_all(&[(Stage::Vertex, POINT_VS), (Stage::Fragment, fs)]).unwrap();
    // A constant inverse sizes an array, as in GL.
    let vs = "#version 140\nvoid main() {\n  float[inverse(mat2(2.0))[1][1] == 0.5 ? 1 : -1] a;\n\
              gl_Position = vec4(a.length());\n}\n";
    let c = compile(Stage::Vertex, vs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
}

#[test]
fn noise_functions_are_declared_in_every_stage() {
    let gs = "#version 150\nlayout(points) in;\nlayout(points) out;\nout vec4 n;\n\
              void main() { n = vec4(noise1(25), noise2(vec2(1.0)).x, noise3(vec3(2.0)).y, \
              noise4(vec4(3.0)).z); EmitVertex(); }\n";
    let c = compile(Stage::Geometry, gs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
    let vs = "#version 130\nin vec4 p;\nvoid main() { gl_Position = p + noise4(p.xy); }\n";
    let c = compile(Stage::Vertex, vs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
    // The definitions do not move the lines of errors.
    let bad = "#version 150\nout vec4 n;\nvoid main() {\n  n = noise4(1.0) + undeclared;\n}\n";
    let c = compile(Stage::Vertex, bad, &Limits::default());
    assert!(!c.ok);
    assert!(c.log.starts_with("0:4: error: 'undeclared'"), "{}", c.log);
    // GLSL 4.50 removed them.
    let v450 = "#version 450\nlayout(location = 0) out vec4 n;\nvoid main() { n = noise4(1.0); }\n";
    assert!(!compile(Stage::Vertex, v450, &Limits::default()).ok);
}

#[test]
fn declaration_rules_glslang_does_not_check() {
    let log = |stage, src: &str| {
        let c = compile(stage, src, &Limits::default());
        (c.ok, c.log)
    };
    let refused = |line: u32, what: &str| (false, format!("0:{line}(1): error: {what}\n"));
    // A layout on a function parameter.
    let fs = "#version 150\nvec4 test(layout(pixel_center_integer) in float a)\n\
              { return vec4(a); }\nout vec4 c;\nvoid main() { c = test(1.0); }\n";
    assert_eq!(
        log(Stage::Fragment, fs),
        refused(
            2,
            "layout qualifiers may only be given on global declarations"
        )
    );
    // `varying` on a block member.
    let vs = "#version 150\nout block {\n    varying vec4 a;\n} inst;\nvoid main() {}\n";
    assert_eq!(
        log(Stage::Vertex, vs),
        refused(
            3,
            "`varying' qualifier is not allowed in an interface block"
        )
    );
    // An unsized uniform block array; a sized one, and an unsized geometry input block, are
    // fine, as are layouts on globals and block members.
    let vs = "#version 150\nuniform Block {\n  float a;\n} blocks[];\nvoid main() {}\n";
    assert_eq!(
        log(Stage::Vertex, vs),
        refused(4, "uniform block arrays must specify an array size")
    );
    let vs = "#version 150\nlayout(std140) uniform Block {\n  layout(row_major) mat4 m;\n} \
              blocks[2];\nout vec4 v;\nvoid main() { v = blocks[1].m[0]; }\n";
    assert_eq!(log(Stage::Vertex, vs), (true, String::new()));
    // A uniform block array indexed with a non-constant expression.
    let vs = "#version 150\nuniform T {\n  mat4 mvp;\n} camera[2];\nuniform int idx;\n\
              void main() {\n  gl_Position = camera[idx].mvp[0];\n}\n";
    assert_eq!(
        log(Stage::Vertex, vs),
        (
            false,
            "0:7: error: 'T' : a uniform block array must be indexed with a constant \
             expression\n"
                .to_owned()
        )
    );
    // gl_PerVertex: the input block's instance name is gl_in, and the output block's members
    // are not redeclared after it.
    let gs = "#version 150\nlayout(triangles) in;\nlayout(points, max_vertices = 1) out;\n\
              in gl_PerVertex {\n  vec4 gl_Position;\n};\nvoid main() {}\n";
    assert_eq!(
        log(Stage::Geometry, gs),
        refused(
            6,
            "the gl_PerVertex input block must be redeclared as gl_in[]"
        )
    );
    let vs = "#version 150\nout gl_PerVertex {\n  vec4 gl_Position;\n  float gl_ClipDistance[];\n\
              };\nout float gl_ClipDistance[4];\nvoid main() {}\n";
    assert_eq!(
        log(Stage::Vertex, vs),
        refused(6, "`gl_ClipDistance' redeclared after gl_PerVertex was")
    );
    let vs = "#version 150\nout gl_PerVertex {\n  vec4 gl_Position;\n};\ninvariant gl_Position;\n\
              void main() { gl_Position = vec4(0.0); }\n";
    assert_eq!(log(Stage::Vertex, vs), (true, String::new()));
    let gs = "#version 150\nlayout(triangles) in;\nlayout(points, max_vertices = 1) out;\n\
              in gl_PerVertex {\n  vec4 gl_Position;\n} gl_in[];\n\
              void main() { gl_Position = gl_in[0].gl_Position; EmitVertex(); }\n";
    assert_eq!(log(Stage::Geometry, gs), (true, String::new()));
    let gs = "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n\
              in V { vec4 c; } v[];\nvoid main() { gl_Position = v[0].c; EmitVertex(); }\n";
    assert_eq!(log(Stage::Geometry, gs), (true, String::new()));
}

#[test]
fn integer_members_of_fragment_input_blocks_must_be_flat() {
    let fs = |block: &str| {
        format!(
            "#version 150\nstruct S {{ ivec2 u[4]; }};\n{block}\nout vec4 color;\n\
             void main() {{ color = vec4(s.u[3].xyxy) + vec4(f); }}\n"
        )
    };
    let c = compile(
        Stage::Fragment,
        &fs("in IB {\n  S s;\n  float f;\n};"),
        &Limits::default(),
    );
    assert!(!c.ok);
    assert_eq!(
        c.log,
        "0:4: error: 's' : a fragment input that is or contains an integer or double must be \
         qualified with 'flat'\n"
    );
    // `flat` on the member satisfies the rule.
    let c = compile(
        Stage::Fragment,
        &fs("in IB {\n  flat S s;\n  float f;\n};"),
        &Limits::default(),
    );
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
    // The rule is about fragment inputs only.
    let vs = "#version 150\nout VB { int i; };\nvoid main() { i = 1; gl_Position = vec4(0.0); }\n";
    let c = compile(Stage::Vertex, vs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
}

#[test]
fn fragment_output_locations_fail_the_link_not_the_compile() {
    let fs = "#version 330\nlayout(location = 0) out vec4 a;\nlayout(location = 0) out vec4 b;\n\
              void main() { a = vec4(1.0); b = vec4(0.0); }\n";
    let c = compile(Stage::Fragment, fs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
    let log = link_all(&[(Stage::Vertex, POINT_VS), (Stage::Fragment, fs)]).unwrap_err();
    assert!(log.contains("overlapping use of location 0"), "{log}");
    // Any other error keeps the compile failing.
    let bad = "#version 330\nlayout(location = 8) out vec4 a;\nvoid main() { a = x; }\n";
    let c = compile(Stage::Fragment, bad, &Limits::default());
    assert!(!c.ok, "{}", c.log);
}

#[test]
fn predefined_macros_are_defined() {
    let fs = "#version 140\n#if !defined __VERSION__ || !defined(__LINE__)\n#error not defined\n\
              #endif\n#if __VERSION__ != 140\n#error not 140\n#endif\nvoid main() { }\n";
    let c = compile(Stage::Fragment, fs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
}

#[test]
fn glsl_140_has_no_compatibility_constants() {
    let fs =
        "#version 140\n// gl_MaxLights\nout vec4 c;\nvoid main() { c = vec4(gl_MaxLights); }\n";
    let c = compile(Stage::Fragment, fs, &Limits::default());
    assert_eq!(
        (c.ok, c.log.as_str()),
        (false, "0:4(1): error: `gl_MaxLights' undeclared\n")
    );
    // 1.30 still has them (deprecated), and a skipped group does not count.
    let fs = "#version 130\nout vec4 c;\nvoid main() { c = vec4(gl_MaxLights); }\n";
    assert!(compile(Stage::Fragment, fs, &Limits::default()).ok);
    let fs = "#version 140\n#ifdef GL_ARB_compatibility\nfloat n = float(gl_MaxLights);\n#endif\n\
              out vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    assert!(compile(Stage::Fragment, fs, &Limits::default()).ok);
}

#[test]
fn geometry_inputs_have_one_size() {
    let probe = |gs: &str| compile(Stage::Geometry, gs, &Limits::default());
    let c = probe("#version 150\nin vec4 a[2];\nin vec4 b[3];\nvoid main() { }\n");
    assert!(!c.ok);
    assert!(
        c.log
            .contains("error: 'b' : geometry shader input array size 3"),
        "{}",
        c.log
    );
    let c = probe(
        "#version 150\nin vec4 a[];\nvec4 f() { return a[2]; }\nlayout(lines) in;\nvoid main() { }\n",
    );
    assert!(!c.ok);
    assert!(
        c.log
            .contains("indexed past the input primitive's 2 vertices"),
        "{}",
        c.log
    );
    let c = probe(
        "#version 150\nlayout(triangles) in;\nin vec4 a[];\nin vec4 b[3];\nin B { vec4 c; } d[];\n\
         layout(triangle_strip, max_vertices = 3) out;\nvoid main() { gl_Position = a[2] + b[1] + d[0].c; EmitVertex(); }\n",
    );
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
}

#[test]
fn geometry_input_layouts_name_one_primitive() {
    let probe = |layout: &str| {
        let gs = format!(
            "#version 150\n{layout}\nlayout(points, max_vertices = 1) out;\nvoid main() {{ }}\n"
        );
        compile(Stage::Geometry, &gs, &Limits::default())
    };
    for bad in [
        "layout(points, packed) in;",
        "layout(shared, lines) in;",
        "layout(points, points) in;",
    ] {
        assert!(!probe(bad).ok, "{bad}");
    }
    let c = probe("layout(points, packed) in;");
    assert_eq!(
        c.log,
        "0:2(1): error: invalid input layout qualifier `packed' in a geometry shader\n"
    );
    assert!(probe("layout(triangles) in;").ok);
    // Qualifier names are case-insensitive.
    assert!(probe("layout(TriAngleS) in;").ok);
    // The primitive may be named through an object-like macro.
    assert!(probe("#define INPUT_LAYOUT triangles\nlayout(INPUT_LAYOUT) in;").ok);
    assert!(!probe("#define INPUT_LAYOUT packed\nlayout(INPUT_LAYOUT) in;").ok);
    assert!(!probe("#define P points\n#undef P\nlayout(P) in;").ok);
}

#[test]
fn a_block_named_like_an_earlier_function_is_refused_before_it_reaches_glslang() {
    let vs = "#version 150\n\nvec4 block()\n{\n    return vec4(0);\n}\n\nout block {\n    vec4 a;\n} inst;\n\nvoid main()\n{\n}\n";
    let c = compile(Stage::Vertex, vs, &Limits::default());
    assert_eq!(
        (c.ok, c.log.as_str()),
        (
            false,
            "0:8(1): error: block name `block' redeclares a function\n"
        )
    );
    // Blocks and functions of other names, initializers calling constructors.
    let vs = "#version 150\nvec4 k = vec4(1.0);\nvec4 f(vec4 x);\nlayout(std140) uniform U { vec4 u; };\n\
              out B { vec4 a; } inst;\nvec4 f(vec4 x) { return x; }\nvoid main() { inst.a = f(u) + k; }\n";
    let c = compile(Stage::Vertex, vs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
}

#[test]
fn a_geometry_shader_needs_a_vertex_shader() {
    let gs = "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n\
              void main() { gl_Position = vec4(0.0); EmitVertex(); }\n";
    let fs = "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    assert_eq!(
        link_all(&[(Stage::Geometry, gs), (Stage::Fragment, fs)]).unwrap_err(),
        "error: Geometry shader must be linked with vertex shader\n"
    );
    link_all(&[
        (Stage::Vertex, POINT_VS),
        (Stage::Geometry, gs),
        (Stage::Fragment, fs),
    ])
    .unwrap();
}

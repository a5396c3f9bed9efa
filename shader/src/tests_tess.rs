//! Front-end tests of the tessellation stages.

use crate::{Limits, LinkRequest, Stage, TessGen, compile, link};

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

const VS: &str = "#version 150\n\
    in vec4 pos;\n\
    out vec3 colour;\n\
    void main() { gl_Position = pos; colour = pos.xyz; }\n";

/// A control stage of GLSL 1.50 with the extension: per-vertex and per-patch outputs.
const TCS: &str = "#version 150\n\
    #extension GL_ARB_tessellation_shader : require\n\
    layout(vertices = 4) out;\n\
    in vec3 colour[];\n\
    out vec3 tc_colour[];\n\
    patch out float level;\n\
    void main() {\n\
        gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n\
        tc_colour[gl_InvocationID] = colour[gl_InvocationID];\n\
        level = 3.0;\n\
        gl_TessLevelOuter[0] = 2.0; gl_TessLevelOuter[1] = 3.0;\n\
        gl_TessLevelOuter[2] = 2.0; gl_TessLevelOuter[3] = 3.0;\n\
        gl_TessLevelInner[0] = 4.0; gl_TessLevelInner[1] = 4.0;\n\
    }\n";

const TES: &str = "#version 400\n\
    layout(quads, fractional_odd_spacing, cw) in;\n\
    in vec3 tc_colour[];\n\
    patch in float level;\n\
    out vec3 te_colour;\n\
    void main() {\n\
        vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);\n\
        vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);\n\
        gl_Position = mix(a, b, gl_TessCoord.y);\n\
        te_colour = tc_colour[0] * level;\n\
    }\n";

const FS: &str = "#version 150\n\
    in vec3 te_colour;\n\
    out vec4 o;\n\
    void main() { o = vec4(te_colour, 1.0); }\n";

#[test]
fn a_tessellation_program_links_with_its_layouts() {
    for (stage, src) in [(Stage::TessControl, TCS), (Stage::TessEvaluation, TES)] {
        let c = compile(stage, src, &Limits::default());
        assert!(c.ok, "{stage:?}: {}", c.log);
    }
    let p = link_all(&[
        (Stage::Vertex, VS),
        (Stage::TessControl, TCS),
        (Stage::TessEvaluation, TES),
        (Stage::Fragment, FS),
    ])
    .expect("links");
    assert_eq!(p.tess_control_vertices, Some(4));
    assert_eq!(
        p.tess_gen,
        Some(TessGen {
            mode: 0x0007,
            spacing: 0x8E7B,
            vertex_order: 0x0900,
            point_mode: false,
        })
    );
    let order: Vec<Stage> = p.stages.iter().map(|(s, _)| *s).collect();
    assert_eq!(
        order,
        [
            Stage::Vertex,
            Stage::TessControl,
            Stage::TessEvaluation,
            Stage::Fragment
        ]
    );
    for (_, words) in &p.stages {
        crate::tests::validate(words);
    }
}

#[test]
fn an_evaluation_stage_alone_takes_the_default_spacing_and_order() {
    let tes = "#version 400\n\
        layout(triangles, point_mode) in;\n\
        void main() { gl_Position = gl_in[0].gl_Position * gl_TessCoord.x; }\n";
    let vs = "#version 400\nvoid main() { gl_Position = vec4(0.0); }\n";
    let p = link_all(&[(Stage::Vertex, vs), (Stage::TessEvaluation, tes)]).expect("links");
    assert_eq!(p.tess_control_vertices, None);
    assert_eq!(
        p.tess_gen,
        Some(TessGen {
            mode: 0x0004,
            spacing: 0x0202,
            vertex_order: 0x0901,
            point_mode: true,
        })
    );
}

#[test]
fn tessellation_link_errors() {
    let vs = "#version 400\nvoid main() { gl_Position = vec4(0.0); }\n";
    let err = link_all(&[(Stage::Vertex, vs), (Stage::TessControl, TCS)]).unwrap_err();
    assert!(err.contains("tessellation evaluation"), "{err}");
    let err = link_all(&[(Stage::TessEvaluation, TES), (Stage::Fragment, FS)]).unwrap_err();
    assert!(err.contains("vertex shader"), "{err}");
}

#[test]
fn an_evaluation_stage_alone_links_with_the_default_control_stage() {
    let vs = "#version 150\n\
        in vec4 pos;\n\
        out vec3 colour;\n\
        flat out int id;\n\
        out Block { vec2 uv; float w[3]; } b;\n\
        void main() {\n\
            gl_Position = pos; colour = pos.xyz; id = 1; b.uv = pos.xy; b.w[2] = pos.w;\n\
        }\n";
    let tes = "#version 400\n\
        layout(triangles) in;\n\
        in vec3 colour[];\n\
        flat in int id[];\n\
        in Block { vec2 uv; float w[3]; } b[];\n\
        out vec3 te_colour;\n\
        void main() {\n\
            gl_Position = gl_in[0].gl_Position * gl_TessCoord.x;\n\
            te_colour = colour[1] + float(id[2]) + vec3(b[0].uv, b[1].w[2]);\n\
        }\n";
    let shaders = [
        (Stage::Vertex, vs),
        (Stage::TessEvaluation, tes),
        (Stage::Fragment, FS),
    ];
    let req = LinkRequest {
        shaders: &shaders,
        attrib_bindings: &[],
        frag_data_bindings: &[],
        limits: Limits::default(),
        xfb_varyings: &[],
        xfb_separate: false,
        separable: false,
    };
    let alone = link(&req).expect("links alone");
    let p = crate::default_control::link(&req, 5, [2.0, 3.0, 4.0, 5.0], [6.0, 7.0])
        .expect("links with the default control stage");
    assert_eq!(p.tess_control_vertices, Some(5));
    assert_eq!(p.tess_gen, alone.tess_gen);
    let order: Vec<Stage> = p.stages.iter().map(|(s, _)| *s).collect();
    assert_eq!(
        order,
        [
            Stage::Vertex,
            Stage::TessControl,
            Stage::TessEvaluation,
            Stage::Fragment
        ]
    );
    // The same uniforms and default block: the application's view is the program's own.
    assert_eq!(p.uniforms, alone.uniforms);
    assert_eq!(p.default_block_size, alone.default_block_size);
    for (_, words) in &p.stages {
        crate::tests::validate(words);
    }
}

#[test]
fn patch_arrays_pass_from_the_control_to_the_evaluation_stage() {
    let tcs = "#version 400\n\
        layout(vertices = 3) out;\n\
        patch out vec2 var[2];\n\
        void main() {\n\
            gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n\
            var[0] = vec2(1.0); var[1] = vec2(2.0);\n\
            gl_TessLevelOuter[0] = 1.0;\n\
        }\n";
    let tes = "#version 400\n\
        layout(triangles) in;\n\
        patch in vec2 var[2];\n\
        out vec2 v;\n\
        void main() { gl_Position = gl_in[0].gl_Position; v = var[0] + var[1]; }\n";
    let vs = "#version 400\nvoid main() { gl_Position = vec4(0.0); }\n";
    let p = link_all(&[
        (Stage::Vertex, vs),
        (Stage::TessControl, tcs),
        (Stage::TessEvaluation, tes),
    ])
    .expect("links");
    assert!(p.log.is_empty(), "{}", p.log);
    // Other mismatches between the two stages still fail.
    let tes_int = tes
        .replace("patch in vec2 var[2];", "patch in ivec2 var[2];")
        .replace("v = var[0] + var[1];", "v = vec2(var[0] + var[1]);");
    let err = link_all(&[
        (Stage::Vertex, vs),
        (Stage::TessControl, tcs),
        (Stage::TessEvaluation, &tes_int),
    ])
    .unwrap_err();
    assert!(err.contains("var"), "{err}");
}

#[test]
fn a_member_redeclared_in_a_skipped_conditional_group_is_no_redeclaration() {
    let tcs = "#version 150\n\
        #extension GL_ARB_tessellation_shader : require\n\
        layout(vertices = 3) out;\n\
        #if 1\n\
        out gl_PerVertex {\n\
            vec4 gl_Position;\n\
        } gl_out[];\n\
        #else\n\
        out vec4 gl_Position;\n\
        #endif\n\
        void main() {\n\
            gl_out[gl_InvocationID].gl_Position = vec4(0.0);\n\
            gl_TessLevelOuter[0] = 1.0;\n\
        }\n";
    let c = compile(Stage::TessControl, tcs, &Limits::default());
    assert!(c.ok, "{}", c.log);
}

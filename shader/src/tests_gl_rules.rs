//! Front-end tests of GL rules that glslang words differently, each case with what Mesa
//! (native llvmpipe, the reference) answers for it: the shaders are piglit's.

use crate::{Limits, LinkRequest, Stage, compile, link};

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

const PASSTHROUGH_VS: &str =
    "#version 150\nin vec4 piglit_vertex;\nvoid main() { gl_Position = piglit_vertex; }\n";

/// Links the passthrough vertex shader with `#version 150` fragment shaders.
fn link_fragments(fragments: &[&str]) -> Result<crate::Program, String> {
    let sources: Vec<String> = fragments
        .iter()
        .map(|f| format!("#version 150\n{f}"))
        .collect();
    let mut shaders = vec![(Stage::Vertex, PASSTHROUGH_VS)];
    shaders.extend(sources.iter().map(|s| (Stage::Fragment, s.as_str())));
    link_all(&shaders)
}

/// GLSL 1.50 §4.3.8.1: piglit's fragcoord-layout-qualifiers-* (Mesa: the matching cases
/// link, the conflicting ones fail).
#[test]
fn frag_coord_redeclarations_across_fragment_shaders() {
    const BOTH: &str = "layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;\n";
    const MAIN: &str = "void alpha();\nvoid blue();\n\
        void main() { gl_FragColor = vec4(gl_FragCoord.xy, 0.0, 1.0); blue(); alpha(); }\n";
    const BLUE: &str = "void blue() { gl_FragColor.b = 1.0; }\n";
    const ALPHA: &str = "void alpha() { gl_FragColor.a = gl_FragCoord.z; }\n";
    // matching-case-1 and -2: the shader that does not use gl_FragCoord need not redeclare
    // it, wherever it is attached.
    let main = format!("{BOTH}{MAIN}");
    let alpha = format!("{BOTH}{ALPHA}");
    for order in [[&main, BLUE, &alpha], [BLUE, &main, &alpha]] {
        let p = link_fragments(&order).expect("matching redeclarations link");
        let (_, fs) = p
            .stages
            .iter()
            .find(|(s, _)| *s == Stage::Fragment)
            .unwrap();
        // pixel_center_integer is applied by pixel_center.rs, which removes the mode.
        assert!(!crate::pixel_center::uses_integer_centers(fs));
    }
    // matching-case-4: redeclared in the shaders after one that never names it.
    let integer = "layout(pixel_center_integer) in vec4 gl_FragCoord;\n";
    link_fragments(&[
        "void alpha();\nvoid blue();\nvoid main() { gl_FragColor = vec4(0.0); blue(); alpha(); }\n",
        &format!("{integer}{BLUE}"),
        &format!("{integer}{ALPHA}"),
    ])
    .expect("links");
    let conflict = Err(
        "error: fragment shader defined with conflicting layout qualifiers for gl_FragCoord\n"
            .to_string(),
    );
    // conflicting-case-7: redeclared (without qualifiers) and used, used elsewhere without.
    let e = link_fragments(&[
        "in vec4 gl_FragCoord;\nout vec4 c;\nvoid alpha();\n\
         void main() { c = vec4(gl_FragCoord.xyz, 1.0); alpha(); }\n",
        "out vec4 c;\nvoid alpha() { c.a = gl_FragCoord.z; }\n",
    ]);
    assert_eq!(e.map(|_| ()), conflict);
    // conflicting-case-9: redeclared without use, then used elsewhere without.
    let e = link_fragments(&[
        "layout(origin_upper_left) in vec4 gl_FragCoord;\nout vec4 c;\nvoid alpha() { c.a = 1.0; }\n",
        "out vec4 c;\nvoid alpha();\nvoid main() { c = vec4(gl_FragCoord.xyz, 1.0); alpha(); }\n",
    ]);
    assert_eq!(e.map(|_| ()), conflict);
    // Two different redeclarations.
    let e = link_fragments(&[&main, &format!("{integer}{ALPHA}"), BLUE]);
    assert_eq!(e.map(|_| ()), conflict);
}

/// piglit's fragment_coord_conventions/use-*-redeclaration*.frag: Mesa compiles a use
/// between two identical redeclarations, and refuses a use before the first.
#[test]
fn frag_coord_used_between_redeclarations() {
    let probe = |body: &str| {
        let fs = format!("#version 150\n{body}void main() {{ }}\n");
        compile(Stage::Fragment, &fs, &Limits::default()).ok
    };
    for q in ["", "layout(origin_upper_left, pixel_center_integer) "] {
        let decl = format!("{q}in vec4 gl_FragCoord;\n");
        assert!(
            probe(&format!("{decl}vec4 p = gl_FragCoord;\n{decl}")),
            "{q}"
        );
        assert!(!probe(&format!("vec4 p = gl_FragCoord;\n{decl}")), "{q}");
    }
}

/// piglit's linker/versions-mingled-multiple-shader-objects: Mesa links `gl_FragColor`
/// written by two fragment shader objects (and `gl_Position` by two vertex shader objects)
/// as one output each.
#[test]
fn outputs_written_by_several_objects_of_a_stage_are_one() {
    let vs1 = "#version 150\nin vec4 a;\nvoid do_test(int b);\n\
               void main() { gl_Position = a; do_test(8); }\n";
    let vs2 = "#version 150\nvoid do_test(int b) { gl_Position = vec4(b); }\n";
    let fs1 = "#version 150\nvoid do_stuff(float b);\n\
               void main() { gl_FragColor = vec4(1.0); do_stuff(0.5); }\n";
    let fs2 = "#version 150\nvoid do_stuff(float b) { gl_FragColor = vec4(b); }\n";
    let p = link_all(&[
        (Stage::Vertex, vs1),
        (Stage::Vertex, vs2),
        (Stage::Fragment, fs1),
        (Stage::Fragment, fs2),
    ])
    .expect("links");
    // GL reports no fragment output for gl_FragColor, as for one object that writes it.
    assert_eq!(p.outputs, []);
    // One output variable left in the fragment stage's SPIR-V.
    let (_, fs) = p
        .stages
        .iter()
        .find(|(s, _)| *s == Stage::Fragment)
        .unwrap();
    let m = crate::spirv::Module::parse(fs.clone()).unwrap();
    let names: Vec<_> = m
        .vars(crate::spirv::storage::OUTPUT)
        .map(|v| m.name(v.id).to_string())
        .collect();
    assert_eq!(names, ["gl_FragColor"]);
}

/// piglit's arb_blend_func_extended-dual-src-blending-issue-1917: Mesa compiles
/// `layout(location = 0, index = N)` outputs in a `#version 130` shader that enables
/// `GL_ARB_explicit_attrib_location`, and links them as the two sources of colour 0.
#[test]
fn output_indices_before_glsl_150() {
    for version in ["130", "140"] {
        let fs = format!(
            "#version {version}\n#extension GL_ARB_explicit_attrib_location: require\n\
             layout (location = 0, index = 0) out vec4 col0;\n\
             layout (location = 0, index = 1) out vec4 col1;\n\
             void main() {{ col0 = vec4(0.0, 1.0, 1.0, 1.0); col1 = vec4(1.0); }}\n"
        );
        let c = compile(Stage::Fragment, &fs, &Limits::default());
        assert_eq!((c.ok, c.log.as_str()), (true, ""), "{version}");
        let p = link_all(&[(Stage::Fragment, &fs)]).expect("links");
        let outputs: Vec<_> = p
            .outputs
            .iter()
            .map(|o| (o.name.as_str(), o.location, o.index))
            .collect();
        assert_eq!(outputs, [("col0", 0, 0), ("col1", 0, 1)], "{version}");
    }
}

/// piglit's glsl-1.50 vs-input-arrays: array vertex inputs take one location per element
/// (two for a `mat2`), as on Mesa, and reach the backends as one input per element.
#[test]
fn vertex_input_arrays_are_one_input_per_element() {
    let vs = "#version 150\nin vec4 vertex;\nin float a[2];\nin int b[2];\nin vec3 c[2];\n\
              in mat2 d[2];\nout float f;\nvoid main() { gl_Position = vertex; f = a[0] + a[1] \
              + float(b[0] + b[1]) + c[0].x + c[1].y + d[0][0].x + d[1][1].y; }\n";
    let fs = "#version 150\nin float f;\nvoid main() { gl_FragColor = vec4(f); }\n";
    let p = link_all(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).expect("links");
    let attributes: Vec<_> = p
        .attributes
        .iter()
        .map(|a| (a.name.as_str(), a.size, a.location))
        .collect();
    // The largest first (d: 4 locations), then declaration order, as Mesa assigns them.
    assert_eq!(
        attributes,
        [
            ("vertex", 1, 10),
            ("a", 2, 4),
            ("b", 2, 6),
            ("c", 2, 8),
            ("d", 2, 0)
        ]
    );
    assert_eq!(p.attribute_mask, 0x7ff);
    let (_, words) = p.stages.iter().find(|(s, _)| *s == Stage::Vertex).unwrap();
    let m = crate::spirv::Module::parse(words.clone()).unwrap();
    let mut inputs: Vec<_> = m
        .vars(crate::spirv::storage::INPUT)
        .filter(|v| !m.is_builtin(v))
        .map(|v| {
            let location = m.decoration(v.id, crate::spirv::deco::LOCATION);
            (location, m.array(v.ty).is_some())
        })
        .collect();
    inputs.sort();
    let expected: Vec<_> = [0, 2, 4, 5, 6, 7, 8, 9, 10]
        .iter()
        .map(|&l| (Some(l), false))
        .collect();
    assert_eq!(inputs, expected);
}

/// piglit's glsl-1.50 gs-input-sizing-layout-larger-than-static-usage: Mesa sizes an
/// unsized geometry input by the input layout another geometry shader object of the
/// program declares, not by the object's own use of it.
#[test]
fn geometry_inputs_take_the_programs_input_layout() {
    let vs = "#version 150\nin int value;\nflat out int value_to_gs;\n\
              void main() { value_to_gs = value; }\n";
    let gs_main = "#version 150\nlayout(triangles) in;\n\
                   layout(triangle_strip, max_vertices = 4) out;\nvoid do_vertex();\n\
                   void main() { gl_Position = vec4(-1.0); do_vertex(); }\n";
    let gs_vertex = "#version 150\nflat in int value_to_gs[];\nout vec4 color_to_fs;\n\
                     void do_vertex() { color_to_fs = vec4(float(value_to_gs[1])); \
                     EmitVertex(); }\n";
    let fs = "#version 150\nin vec4 color_to_fs;\nout vec4 color;\n\
              void main() { color = color_to_fs; }\n";
    for gs in [[gs_main, gs_vertex], [gs_vertex, gs_main]] {
        let p = link_all(&[
            (Stage::Vertex, vs),
            (Stage::Geometry, gs[0]),
            (Stage::Geometry, gs[1]),
            (Stage::Fragment, fs),
        ])
        .expect("links");
        let (_, words) = p
            .stages
            .iter()
            .find(|(s, _)| *s == Stage::Geometry)
            .unwrap();
        let m = crate::spirv::Module::parse(words.clone()).unwrap();
        let sizes: Vec<_> = m
            .vars(crate::spirv::storage::INPUT)
            .filter(|v| !m.is_builtin(v))
            .map(|v| m.array(v.ty).map(|(_, n)| n))
            .collect();
        assert_eq!(sizes, [Some(3)]);
    }
    // gs-input-sizing-layout-conflicts-with-static-usage: an index past the program's
    // primitive (lines: 2 vertices) in another object fails the link.
    let gs_lines = gs_main.replace("triangles", "lines");
    let gs_past = gs_vertex.replace("value_to_gs[1]", "value_to_gs[2]");
    let e = link_all(&[
        (Stage::Vertex, vs),
        (Stage::Geometry, &gs_lines),
        (Stage::Geometry, &gs_past),
        (Stage::Fragment, fs),
    ])
    .expect_err("index past the primitive");
    assert!(
        e.contains("'value_to_gs' : geometry shader input array indexed past the input primitive's 2 vertices"),
        "{e}"
    );
}

/// piglit's glsl-1.50 gs-instance-id: Mesa sizes `uniform vec4 c[] = vec4[](...)` by its
/// initializer, so it may be indexed with a variable, and reports its size.
#[test]
fn uniform_arrays_sized_by_their_initializer() {
    let vs = "#version 150\nuniform vec4 instance_colors[] = vec4[](vec4(0.0, 1.0, 0.0, 1.0),\n\
              \tvec4(0.0, 0.5, 0.5, 1.0),\n\tvec4(0.0, 0.0, 1.0, 1.0));\n\
              uniform float k[] = float[2](1.0, 2.0);\nin vec4 p;\nout vec4 color;\n\
              void main() { color = instance_colors[gl_InstanceID] * k[gl_InstanceID]; \
              gl_Position = p; }\n";
    let fs = "#version 150\nin vec4 color;\nout vec4 c;\nvoid main() { c = color; }\n";
    let c = compile(Stage::Vertex, vs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
    let p = link_all(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).expect("links");
    let uniforms: Vec<_> = p
        .uniforms
        .iter()
        .map(|u| (u.name.as_str(), u.size))
        .collect();
    assert_eq!(uniforms, [("instance_colors[0]", 3), ("k[0]", 2)]);
    // The initializers' values fill the default block (std140: 16 bytes per element).
    let floats: &[f32] = bytemuck::cast_slice(&p.default_block[..64]);
    assert_eq!(&floats[4..8], &[0.0, 0.5, 0.5, 1.0]);
    assert_eq!((floats[12], p.default_block.len() >= 64 + 32), (1.0, true));
}

/// piglit's glsl-1.40 gl_depthrangeparameters: `gl_DepthRange` is declared (glslang
/// declares it only for OpenGL clients), lives in the default block where the engine writes
/// `glDepthRange`'s values, and is no uniform of the program's (Mesa reports none).
#[test]
fn gl_depth_range_is_a_hidden_part_of_the_default_block() {
    let fs = "#version 140\nuniform float k;\nout vec4 c;\nvoid main() {\n\
              gl_DepthRangeParameters r = gl_DepthRange;\n\
              c = vec4(gl_DepthRange.near / 2.0 + 0.25, r.far, gl_DepthRange.diff, k);\n}\n";
    let c = compile(Stage::Fragment, fs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
    let p = link_all(&[(Stage::Vertex, PASSTHROUGH_VS), (Stage::Fragment, fs)]).expect("links");
    let uniforms: Vec<_> = p.uniforms.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(uniforms, ["k"]);
    assert_eq!(p.locations, [(0, 0)]);
    let at = p.depth_range_offset.expect("read") as i32;
    // Three floats apart from k's, all before the hidden slot.
    assert!(at + 12 <= p.default_block_size as i32 - 16);
    assert!(at >= p.uniforms[0].offset + 4 || at + 12 <= p.uniforms[0].offset);
    // A program that does not read it has none.
    let p = link_all(&[(Stage::Vertex, PASSTHROUGH_VS)]).expect("links");
    assert_eq!(p.depth_range_offset, None);
}

/// piglit's glsl-1.50 compiler/uniforms.geom: Mesa (core and compatibility contexts alike)
/// compiles a geometry shader without `#version`; a vertex shader without one is GLSL 1.10.
#[test]
fn a_geometry_shader_without_version_is_glsl_150() {
    let gs = "void main()\n{\n  gl_Position = vec4(gl_DepthRange.near, gl_DepthRange.far, \
              gl_DepthRange.diff, 0.0);\n  EmitVertex();\n}\n";
    let c = compile(Stage::Geometry, gs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
    let c = compile(
        Stage::Vertex,
        "void main() { gl_Position = vec4(0.0); }\n",
        &Limits::default(),
    );
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
    // It links as 1.50 too.
    let gs = format!("layout(points) in;\nlayout(points, max_vertices = 1) out;\n{gs}");
    link_all(&[(Stage::Vertex, PASSTHROUGH_VS), (Stage::Geometry, &gs)]).expect("links");
}

/// piglit's glsl-1.50 compiler/ext_texture_array.geom: `GL_EXT_texture_array` gives
/// `texture1DArray()` and its kin (Mesa: compiles).
#[test]
fn ext_texture_array_functions() {
    let gs = "#version 150\n#extension GL_EXT_texture_array: require\n\n\
        uniform sampler1DArray s1;\nuniform sampler2DArray s2;\n\
        uniform sampler1DArrayShadow s1s;\nuniform sampler2DArrayShadow s2s;\n\n\
        void main()\n{\n  vec4 foo = texture1DArray(s1, vec2(0.0));\n\
        foo += texture1DArrayLod(s1, vec2(0.0), 0.0);\n\
        foo += texture2DArray(s2, vec3(0.0));\n\
        foo += texture2DArrayLod(s2, vec3(0.0), 0.0);\n\
        foo += shadow1DArray(s1s, vec3(0.0));\n\
        foo += shadow1DArrayLod(s1s, vec3(0.0), 0.0);\n\
        foo += shadow2DArray(s2s, vec4(0.0));\n\
        gl_Position = foo;\n  EmitVertex();\n}\n";
    let c = compile(Stage::Geometry, gs, &Limits::default());
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
    // Without the extension (or with it disabled) the functions are not there.
    for directive in ["", "#extension GL_EXT_texture_array : disable"] {
        let fs = format!(
            "#version 150\n{directive}\nuniform sampler2DArray s;\nout vec4 o;\n\
             void main() {{ o = texture2DArray(s, vec3(0.0)); }}\n"
        );
        let c = compile(Stage::Fragment, &fs, &Limits::default());
        assert!(!c.ok, "{directive}");
    }
}

/// piglit's arb_texture_buffer_object formats (vs/fs, 3.1 core) pair a `#version 120`
/// fragment shader with a `#version 140` vertex shader: Mesa compiles GLSL 1.10 and 1.20 in
/// core contexts (3.1 and 3.3 alike) and links them with later versions.
#[test]
fn glsl_110_and_120_compile_and_link_with_later_versions() {
    let fs = "#version 120\nvarying vec4 color;\nvoid main()\n{\n\tgl_FragColor = color;\n}\n";
    let vs = "#version 140\nin vec4 vertex;\nout vec4 color;\nuniform samplerBuffer s;\n\
        uniform int pos;\nuniform vec4 expected;void main()\n{\n\tgl_Position = vertex;\n\n\
        \tvec4 result = texelFetch(s, pos);\n\tvec4 delta = result - expected;\n\
        \tbvec4 fail = greaterThanEqual(abs(delta), vec4(0.02));\n\tif (any(fail)) {\n\
        \t\tcolor = 0.25 + 0.5 * vec4(fail);\n\t} else {\n\
        \t\tcolor = vec4(0.0, 1.0, 0.0, 0.0);\n\t}\n}\n";
    for (stage, source) in [(Stage::Vertex, vs), (Stage::Fragment, fs)] {
        let c = compile(stage, source, &Limits::default());
        assert_eq!((c.ok, c.log.as_str()), (true, ""), "{source}");
    }
    let p = link_all(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).expect("links");
    assert_eq!(p.attributes[0].name, "vertex");
    // 1.10 (explicit or without #version) and 1.20 vertex shaders: attribute and varying.
    let legacy_vs = "attribute vec4 v;\nvarying vec4 color;\n\
        void main() { gl_Position = v; color = v; }\n";
    for version in ["", "#version 110\n", "#version 120\n"] {
        let vs = format!("{version}{legacy_vs}");
        let c = compile(Stage::Vertex, &vs, &Limits::default());
        assert_eq!((c.ok, c.log.as_str()), (true, ""), "{vs}");
        let p = link_all(&[(Stage::Vertex, &vs), (Stage::Fragment, fs)]).expect("links");
        assert_eq!(p.attributes[0].name, "v");
    }
    // Global `in` and `out` are 1.30's: 1.10 and 1.20 keep them for parameters (Mesa's log).
    let c = compile(
        Stage::Vertex,
        "in vec4 pos[2];\nvoid f(in vec4 x);\nvoid main() { gl_Position = pos[0]; }\n",
        &Limits::default(),
    );
    assert_eq!(
        (c.ok, c.log.as_str()),
        (
            false,
            "0:1(1): error: `in' qualifier in declaration of `pos' only valid for function \
             parameters in GLSL 1.10\n"
        )
    );
    let c = compile(
        Stage::Fragment,
        "#version 120\nvoid f(out vec4 x) { x = vec4(0.0); }\n\
         void main() { f(gl_FragColor); }\n",
        &Limits::default(),
    );
    assert_eq!((c.ok, c.log.as_str()), (true, ""));
    // The fixed-function built-ins stay undeclared: a core context has no state for them.
    let c = compile(
        Stage::Fragment,
        "#version 120\nvoid main() { gl_FragColor = gl_Color; }\n",
        &Limits::default(),
    );
    assert!(!c.ok);
}

/// piglit's arb_sample_shading tests read their samples back in GLSL 1.30 and 1.40 with
/// `GL_ARB_texture_multisample`, which Mesa has there and glslang from 1.50: such a shader
/// is read as 1.50 and compiles (gl_FragColor, varying inputs and all).
#[test]
fn texture_multisample_samplers_compile_in_glsl_130_and_140() {
    for version in ["130", "140"] {
        let fs = format!(
            "#version {version}\n#extension GL_ARB_texture_multisample : require\n\
             uniform sampler2DMS tex;\nuniform int s;\nin vec2 t;\nvoid main() {{\n\
             gl_FragColor = texelFetch(tex, ivec2(t), s);\n}}\n"
        );
        let c = compile(Stage::Fragment, &fs, &Limits::default());
        assert_eq!((c.ok, c.log.as_str()), (true, ""), "{version}");
        let p = link_all(&[(Stage::Fragment, fs.as_str())]).expect("links");
        let mut uniforms: Vec<_> = p.uniforms.iter().map(|u| u.name.as_str()).collect();
        uniforms.sort_unstable();
        assert_eq!(uniforms, ["s", "tex"], "{version}");
    }
}

//! `GL_ARB_enhanced_layouts` verdicts where glslang's Vulkan rules and Mesa (native
//! llvmpipe, the reference) differ: each shader is, or is cut from, one of piglit's
//! `spec@arb_enhanced_layouts` tests, with the verdict Mesa gives it.

use crate::{Limits, Stage, compile};

const HEADER: &str = "#version 140\n#extension GL_ARB_enhanced_layouts : enable\n";

/// Compiles `body` as a GLSL 1.40 vertex shader that enables the extension.
fn compiles(body: &str) -> bool {
    let source = format!("{HEADER}{body}\nvoid main() {{}}\n");
    compile(Stage::Vertex, &source, &Limits::default()).ok
}

/// The same declarations as uniform and as storage blocks (the storage blocks enable
/// `GL_ARB_shader_storage_buffer_object`); `LAYOUT` and `KIND` stand for the block's
/// packing and storage.
fn both_kinds(block: &str, packing: &str) -> [String; 2] {
    [
        block.replace("LAYOUT", packing).replace("KIND", "uniform"),
        format!(
            "#extension GL_ARB_shader_storage_buffer_object : enable\n{}",
            block
                .replace(
                    "LAYOUT",
                    if packing == "std140" {
                        "std430"
                    } else {
                        packing
                    }
                )
                .replace("KIND", "buffer")
        ),
    ]
}

/// piglit's explicit-offsets tests: offsets that start inside the member before them, at
/// a lower offset or the same one, are compile errors; offsets after it are not.
#[test]
fn explicit_offsets_may_not_overlap_the_previous_member() {
    for (block, ok) in [
        // decreasing-offset
        (
            "layout(LAYOUT) KIND block {\n layout(offset = 32) vec4 var1;\n \
             layout(offset = 0) vec4 var2;\n};",
            false,
        ),
        // multiple-members-same-offset
        (
            "layout(LAYOUT) KIND block {\n layout(offset = 32) vec4 var1;\n \
             layout(offset = 32) vec4 var2;\n};",
            false,
        ),
        // explicit-offset-align-mismatch-error: var1 starts at 16, var2's 20 is inside it
        (
            "layout(LAYOUT) KIND block {\n layout(offset = 8, align = 16) vec2 var1;\n \
             layout(offset = 20) float var2;\n};",
            false,
        ),
        // explicit-offset-align-mismatch: 24 is just past var1
        (
            "layout(LAYOUT) KIND block {\n layout(offset = 8, align = 16) vec2 var1;\n \
             layout(offset = 24) float var2;\n};",
            true,
        ),
        (
            "layout(LAYOUT) KIND block {\n layout(offset = 32) vec4 var1;\n \
             layout(offset = 48) vec4 var2;\n vec4 var3;\n};",
            true,
        ),
    ] {
        for source in both_kinds(block, "std140") {
            assert_eq!(compiles(&source), ok, "{source}");
        }
    }
}

/// piglit's `*-packed-layout`, `*-shared-layout` and align-layout tests: `offset` and
/// `align` belong to std140 and std430 blocks only.
#[test]
fn offset_and_align_only_in_std140_and_std430_blocks() {
    const MEMBER_OFFSET: &str = "layout(LAYOUT) KIND block {\n layout(offset = 0) vec4 var1;\n \
        layout(offset = 32) vec4 var2;\n};";
    const MEMBER_ALIGN: &str = "layout(LAYOUT) KIND block {\n layout(align = 32) vec4 var1;\n \
        layout(align = 16) vec4 var2;\n};";
    const BLOCK_ALIGN: &str = "layout(LAYOUT, align = 32) KIND block {\n vec4 var1;\n \
        vec4 var2;\n};";
    for block in [MEMBER_OFFSET, MEMBER_ALIGN, BLOCK_ALIGN] {
        for packing in ["packed", "shared"] {
            for source in both_kinds(block, packing) {
                assert!(!compiles(&source), "{source}");
            }
        }
        for source in both_kinds(block, "std140") {
            assert!(compiles(&source), "{source}");
        }
    }
}

/// piglit's duplicate-layout-qualifier-identifiers tests: one qualifier twice in one list
/// needs GLSL 4.40 or the extension (the last one counts).
#[test]
fn a_qualifier_twice_in_one_list_needs_enhanced_layouts() {
    let location = "#version 140\n#extension GL_ARB_separate_shader_objects : enable\n\
        layout(location=2, location=1) out vec3 var;\nvoid main() {}\n";
    let stream = "#version 150\n#extension GL_ARB_gpu_shader5 : enable\nlayout(points) in;\n\
        layout(points) out;\nlayout(stream=2, stream=1) out;\nout vec3 var;\nvoid main() {}\n";
    let stream_variable = stream.replace("out;\nout vec3 var;", "out vec3 var;");
    for (stage, source) in [
        (Stage::Vertex, location),
        (Stage::Geometry, stream),
        (Stage::Geometry, stream_variable.as_str()),
    ] {
        assert!(!compile(stage, source, &Limits::default()).ok, "{source}");
        let enabled = source.replace(
            "enable\n",
            "enable\n#extension GL_ARB_enhanced_layouts : enable\n",
        );
        assert!(compile(stage, &enabled, &Limits::default()).ok, "{enabled}");
    }
    // Matrix and block layouts, bindings and offsets may repeat at every version.
    let repeated = "#version 150\nlayout(std140, row_major, std140, row_major) uniform B {\n \
        mat4 m;\n};\nvoid main() {}\n";
    assert!(compile(Stage::Vertex, repeated, &Limits::default()).ok);
    let counter = "#version 420\nlayout(binding = 0, offset = 8, offset = 0) uniform atomic_uint \
        c;\nvoid main() {}\n";
    assert!(compile(Stage::Vertex, counter, &Limits::default()).ok);
}

/// Blocks without a packing of their own take the default packing before them, `shared`
/// when none is declared: `offset` needs `layout(std140) uniform;` there.
#[test]
fn offsets_follow_the_default_block_packing() {
    let block = "uniform block {\n layout(offset = 16) vec4 var1;\n};\n";
    assert!(!compiles(block));
    assert!(compiles(&format!("layout(std140) uniform;\n{block}")));
    assert!(!compiles(&format!(
        "layout(std140) uniform;\nlayout(packed) uniform;\n{block}"
    )));
}

/// piglit's compile-time-constants tests: an atomic counter's offset and a subroutine
/// function's index may be integer constant expressions with the extension.
#[test]
fn layout_values_may_be_constant_expressions() {
    let atomic = "#version 140\n#extension GL_ARB_shader_atomic_counters: require\n\
        #extension GL_ARB_enhanced_layouts: require\nconst int start = 3;\n\
        layout(binding = 0, offset = start + 1) uniform atomic_uint x;\nvoid main() {}\n";
    assert!(compile(Stage::Fragment, atomic, &Limits::default()).ok);
    let counters = crate::atomic_counter::counters(atomic).expect("counters");
    assert_eq!(counters[0].offset, 4);
    // 3 + 2 is not a multiple of 4.
    let misaligned = atomic.replace("start + 1", "start + 2");
    assert!(!compile(Stage::Fragment, &misaligned, &Limits::default()).ok);
    let subroutine = "#version 150\n#extension GL_ARB_shader_subroutine: require\n\
        #extension GL_ARB_enhanced_layouts: require\n\
        #extension GL_ARB_explicit_uniform_location: require\nconst int start = 3;\n\
        subroutine void func_type();\n\
        layout(index = start + 2) subroutine (func_type) void f() {}\nvoid main() {}\n";
    assert!(compile(Stage::Vertex, subroutine, &Limits::default()).ok);
    let unknown = subroutine.replace("start + 2", "later + 2");
    assert!(!compile(Stage::Vertex, &unknown, &Limits::default()).ok);
}

fn link_all(shaders: &[(Stage, &str)]) -> Result<crate::Program, String> {
    crate::link(&crate::LinkRequest {
        shaders,
        attrib_bindings: &[],
        frag_data_bindings: &[],
        limits: Limits::default(),
        xfb_varyings: &[],
        xfb_separate: false,
        separable: false,
    })
}

const EXTENSIONS: &str = "#extension GL_ARB_enhanced_layouts: require\n\
    #extension GL_ARB_separate_shader_objects: require\n";

/// A vertex and a fragment shader of GLSL 1.50 declaring `vs` and `fs` (each stage's
/// `main` writes or reads every name of `used`).
fn stages(vs: &str, fs: &str, written: &str, read: &str) -> [String; 2] {
    [
        format!(
            "#version 150\n{EXTENSIONS}{vs}\nvoid main() {{ gl_Position = vec4(0.0); {written} }}\n"
        ),
        format!(
            "#version 150\n{EXTENSIONS}{fs}\nout vec4 color;\nvoid main() {{ color = {read}; }}\n"
        ),
    ]
}

/// Compiles both stages (each must) and links them.
fn compile_and_link(shaders: &[String; 2]) -> Result<crate::Program, String> {
    for (stage, source) in [Stage::Vertex, Stage::Fragment].into_iter().zip(shaders) {
        let c = compile(stage, source, &Limits::default());
        assert!(c.ok, "{source}\n{}", c.log);
    }
    link_all(&[
        (Stage::Vertex, shaders[0].as_str()),
        (Stage::Fragment, shaders[1].as_str()),
    ])
}

/// piglit's linker block-member-locations tests: block members whose locations overlap
/// compile and fail the link (Mesa's verdict; glslang refuses them at compile).
#[test]
fn overlapping_block_member_locations_fail_the_link() {
    let block = "layout(location = 0) WAY block {\n vec4 a;\n layout(location = 1) float f1;\n \
        float f2;\n layout(location = 2) float f3;\n};";
    let shaders = stages(
        &block.replace("WAY", "out"),
        &block.replace("WAY", "in"),
        "a = vec4(1.0); f1 = 0.0; f2 = 1.0; f3 = 1.0;",
        "vec4(f1 + a.x, f2 + a.y, f3 + a.z, a.w)",
    );
    assert!(compile_and_link(&shaders).is_err());
    let apart = shaders.map(|s| s.replace("location = 2", "location = 3"));
    compile_and_link(&apart).expect("members at locations of their own link");
    // block-member-mixed-order-overlap: f2 follows f1 at location 3, a's.
    let mixed = "layout(location = 0) WAY block {\n layout(location = 3) vec4 a;\n \
        layout(location = 2) float f1;\n float f2;\n layout(location = 1) float f3;\n};";
    let shaders = stages(
        &mixed.replace("WAY", "out"),
        &mixed.replace("WAY", "in"),
        "a = vec4(1.0); f1 = 0.0; f2 = 1.0; f3 = 1.0;",
        "vec4(f1 + a.x, f2 + a.y, f3 + a.z, a.w)",
    );
    assert!(compile_and_link(&shaders).is_err());
}

/// piglit's vs-to-fs-type-mismatch, -width-mismatch and vs-to-fs-signed-unsigned tests:
/// varyings sharing a location by components must be all integers or all floats of one
/// width; signed and unsigned integers may share.
#[test]
fn varyings_sharing_a_location_share_a_numerical_type() {
    for (first, second, ok) in [
        ("ivec3", "float", false),
        ("uvec3", "float", false),
        ("ivec3", "uint", true),
        ("vec3", "float", true),
    ] {
        let decl = format!(
            "layout(location = 0) flat WAY {first} a;\n\
             layout(location = 0, component = 3) flat WAY {second} b;"
        );
        let shaders = stages(
            &decl.replace("WAY", "out"),
            &decl.replace("WAY", "in"),
            &format!("a = {first}(0); b = {second}(1);"),
            "vec4(float(b), vec3(a))",
        );
        let linked = compile_and_link(&shaders);
        assert_eq!(linked.is_ok(), ok, "{first} {second}: {linked:?}");
        if !ok {
            assert!(
                linked
                    .unwrap_err()
                    .contains("don't have the same underlying numerical type"),
            );
        }
    }
}

/// piglit's fs-out-type-mismatch and vs-to-fs-overlap tests: the collisions compile and
/// fail the link.
#[test]
fn location_collisions_fail_the_link_not_the_compile() {
    let outputs = stages(
        "",
        "layout(location = 1) out ivec2 a;\nlayout(location = 1, component = 2) out vec2 b;",
        "",
        "vec4(1.0); a = ivec2(0); b = vec2(1.0)",
    );
    assert!(compile_and_link(&outputs).is_err());
    let varyings = stages(
        "layout(location = 0) out vec4 a;\nlayout(location = 0, component = 3) out float b;",
        "layout(location = 0) in vec4 a;\nlayout(location = 0, component = 3) in float b;",
        "a = vec4(0.0); b = 1.0;",
        "a + vec4(b)",
    );
    assert!(compile_and_link(&varyings).is_err());
}

/// piglit's xfb_offset invalid-block tests: a block's offset is a multiple of 4, and of 8
/// when the block holds a double.
#[test]
fn output_block_xfb_offsets_are_multiples_of_their_components() {
    let head = "#version 150\n#extension GL_ARB_enhanced_layouts: require\n\
        #extension GL_ARB_gpu_shader_fp64: require\n";
    for (offset, members, ok) in [
        (2, "vec4 var;", false),
        (4, "vec4 var;", true),
        (4, "vec4 var1;\n  dvec3 var2;", false),
        (8, "vec4 var1;\n  dvec3 var2;", true),
    ] {
        let source = format!(
            "{head}layout(xfb_offset = {offset}) out block {{\n  {members}\n}};\nvoid main() {{}}\n"
        );
        let c = compile(Stage::Vertex, &source, &Limits::default());
        assert_eq!(c.ok, ok, "{source}\n{}", c.log);
    }
}

/// piglit's intrastage-ubo-different-offset-across-shaders: a block two vertex shader
/// objects declare with different offsets fails the link; with the same ones it links.
#[test]
fn a_block_of_two_shaders_of_a_stage_has_one_layout() {
    let first = "#version 140\n#extension GL_ARB_enhanced_layouts : enable\n\
        layout(std140) uniform b {\n layout(offset = 0) vec4 var1;\n \
        layout(offset = 32) vec4 var2;\n};\nvarying vec4 v;\nvoid f() { v = var1; }\n";
    let second = "#version 140\n#extension GL_ARB_enhanced_layouts : enable\n\
        in vec4 piglit_vertex;\nlayout(std140) uniform b {\n layout(offset = 0) vec4 var1;\n \
        layout(offset = 64) vec4 var2;\n};\nvoid f();\n\
        void main() { f(); gl_Position = piglit_vertex; }\n";
    for source in [first, second] {
        let c = compile(Stage::Vertex, source, &Limits::default());
        assert!(c.ok, "{source}\n{}", c.log);
    }
    let err = link_all(&[(Stage::Vertex, first), (Stage::Vertex, second)])
        .expect_err("the offsets differ");
    assert!(
        err.contains("definitions of interface block `b' do not match"),
        "{err}"
    );
    let same = second.replace("offset = 64", "offset = 32");
    link_all(&[(Stage::Vertex, first), (Stage::Vertex, &same)]).expect("one layout links");
}

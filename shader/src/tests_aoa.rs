//! Explicit uniform locations (`ARB_explicit_uniform_location`) and arrays of arrays
//! (`ARB_arrays_of_arrays`): what the link reports.

use crate::{Limits, LinkRequest, Stage, link};

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

const VS: &str = "#version 430\nin vec4 p;\nout vec4 v[2][3];\nuniform float a[2][3];\n\
    void main() { gl_Position = p; for (int i = 0; i < 2; i++) for (int j = 0; j < 3; j++) \
    v[i][j] = vec4(a[i][j]); }\n";

#[test]
fn explicit_locations_first_then_the_first_free_runs() {
    let fs = "#version 430\nin vec4 v[2][3];\nlayout(location = 3) uniform vec4 e;\n\
        layout(location = 0x7) uniform vec4 f[2];\nuniform vec4 g;\nout vec4 c;\n\
        void main() { c = v[1][2] + e + f[1] + g; }\n";
    let p = link_all(&[(Stage::Vertex, VS), (Stage::Fragment, fs)]).expect("links");
    let got: Vec<_> = p
        .uniforms
        .iter()
        .filter(|u| u.location >= 0)
        .map(|u| (u.name.as_str(), u.size, u.location))
        .collect();
    // Mesa: the explicit ones first, then each array the first free run of its length.
    assert_eq!(
        got,
        [
            ("a[0][0]", 3, 0),
            ("a[1][0]", 3, 4),
            ("e", 1, 3),
            ("f[0]", 2, 7),
            ("g", 1, 9)
        ]
    );
    assert_eq!(p.locations.len(), 10);
    assert_eq!(p.locations[8], (3, 1));
}

#[test]
fn overlapping_and_too_large_locations_fail_the_link() {
    let fs = "#version 430\nlayout(location = 1) uniform vec4 e[3];\n\
        layout(location = 3) uniform vec4 f;\nout vec4 c;\nvoid main() { c = e[2] + f; }\n";
    let err = link_all(&[(Stage::Fragment, fs)]).expect_err("overlaps");
    assert!(err.contains("overlaps previously used location"), "{err}");
    let fs = "#version 430\nlayout(location = 81919) uniform vec4 e[2];\nout vec4 c;\n\
        void main() { c = e[1]; }\n";
    let err = link_all(&[(Stage::Fragment, fs)]).expect_err("out of range");
    assert!(err.contains(">= MAX_UNIFORM_LOCATIONS (81920)"), "{err}");
}

#[test]
fn inactive_explicit_locations_are_kept() {
    let vs = "#version 430\nlayout(location = 0) in vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
    let fs = "#version 430 core\nlayout(location = 0) uniform sampler2D tex;\n\
             layout(location = 2) uniform sampler2D ts[2];\nuniform float f[2];\n\
             out vec4 o;\nvoid main() { o = texture(tex, vec2(0.0)) + vec4(f[1]); }\n";
    let p = link_all(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).expect("links");
    let got: Vec<_> = p
        .uniforms
        .iter()
        .map(|u| (u.name.as_str(), u.size, u.location))
        .collect();
    assert_eq!(got, [("tex", 1, 0), ("f[0]", 2, 4)]);
    assert_eq!(p.locations[2], crate::INACTIVE_LOCATION);
    assert_eq!(p.locations[3], crate::INACTIVE_LOCATION);
}

#[test]
fn sampler_arrays_of_arrays_are_one_variable_of_innermost_arrays() {
    let fs = "#version 430\nlayout(binding = 2) uniform sampler2D s[2][3];\nout vec4 c;\n\
        void main() { c = texture(s[0][1], vec2(0.0)) + texture(s[1][2], vec2(0.0)); }\n";
    let p = link_all(&[(Stage::Vertex, VS), (Stage::Fragment, fs)]).expect("links");
    let got: Vec<_> = p
        .uniforms
        .iter()
        .filter(|u| u.sampler_slot >= 0)
        .map(|u| (u.name.as_str(), u.size, u.sampler_slot))
        .collect();
    // GL: each innermost array a uniform; their slots the variable's six elements.
    assert_eq!(got, [("s[0][0]", 3, 0), ("s[1][0]", 3, 3)]);
    let units: Vec<u32> = p.samplers.iter().map(|s| s.unit).collect();
    assert_eq!(units, [2, 3, 4, 5, 6, 7]);
}

#[test]
fn block_arrays_of_arrays_are_a_block_per_element() {
    let fs = "#version 430\nlayout(std140, binding = 1) uniform B { vec4 v; } b[2][3];\n\
        layout(std430, binding = 2) buffer S { vec4 w; } s[2][2];\nout vec4 c;\n\
        void main() { c = b[1][2].v + b[0][0].v + s[1][1].w; }\n";
    let p = link_all(&[(Stage::Vertex, VS), (Stage::Fragment, fs)]).expect("links");
    let blocks: Vec<_> = p
        .blocks
        .iter()
        .map(|b| (b.name.as_str(), b.binding))
        .collect();
    assert_eq!(
        blocks,
        [
            ("B[0][0]", 1),
            ("B[0][1]", 2),
            ("B[0][2]", 3),
            ("B[1][0]", 4),
            ("B[1][1]", 5),
            ("B[1][2]", 6)
        ]
    );
    let storage: Vec<_> = p
        .storage_blocks
        .iter()
        .map(|b| (b.name.as_str(), b.binding))
        .collect();
    assert_eq!(
        storage,
        [
            ("S[0][0]", 2),
            ("S[0][1]", 3),
            ("S[1][0]", 4),
            ("S[1][1]", 5)
        ]
    );
}

#[test]
fn the_extension_is_known_below_430() {
    let fs = "#version 150\n#extension GL_ARB_arrays_of_arrays : require\n\
        #if !defined GL_ARB_arrays_of_arrays || GL_ARB_arrays_of_arrays != 1\n#error no\n#endif\n\
        uniform vec4 a[2][2];\nout vec4 c;\nvoid main() { c = a[1][1]; }\n";
    let compiled = crate::compile(Stage::Fragment, fs, &Limits::default());
    assert!(compiled.ok, "{}", compiled.log);
    let p = link_all(&[(Stage::Fragment, fs)]).expect("links");
    let got: Vec<_> = p
        .uniforms
        .iter()
        .map(|u| (u.name.as_str(), u.size))
        .collect();
    assert_eq!(got, [("a[0][0]", 2), ("a[1][0]", 2)]);
}

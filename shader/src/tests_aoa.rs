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

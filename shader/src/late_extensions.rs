//! GLSL extensions whose features glslang has only from a later GLSL version, for a shader
//! of an earlier version that enables them (Mesa compiles each from GLSL 1.40 on):
//! - **`GL_ARB_texture_query_levels`**: `textureQueryLevels()`, glslang's from 4.30;
//! - **`GL_ARB_conservative_depth`**: `layout(depth_any|depth_greater|depth_less|
//!   depth_unchanged)` on a redeclared `gl_FragDepth`, glslang's from 4.20;
//! - **`GL_ARB_fragment_layer_viewport`**: `gl_Layer` and `gl_ViewportIndex` as fragment
//!   inputs, glslang's from 4.30;
//! - **`GL_ARB_cull_distance`**: `gl_CullDistance`, glslang's from 4.50;
//! - **`GL_ARB_texture_query_lod`**: `textureQueryLOD()`, which glslang knows by this
//!   extension but declares from GLSL 1.50 on;
//! - **`GL_ARB_shader_draw_parameters`**: `gl_DrawIDARB`, `gl_BaseVertexARB` and
//!   `gl_BaseInstanceARB`, which glslang knows by this extension but declares from GLSL
//!   4.50 on.
//! - **`GL_ARB_shader_group_vote`**: `anyInvocationARB()`, `allInvocationsARB()` and
//!   `allInvocationsEqualARB()`, which glslang knows by this extension but declares from
//!   GLSL 4.30 on.
//! - **`GL_ARB_enhanced_layouts`**: the `xfb_*`, `offset`, `align` and `component`
//!   qualifiers, locations on block members and constant expressions in layout qualifiers,
//!   which glslang has only from GLSL 4.40 (a shader that enables it and declares any
//!   layout is read as 4.40).
//! - **`GL_ARB_shader_texture_image_samples`**: `textureSamples()` and `imageSamples()`,
//!   which glslang knows by this extension but declares from GLSL 4.30 on.
//! - **`GL_ARB_ES3_1_compatibility`**: what it adds to desktop GLSL as Mesa has it (`mix()`
//!   selecting integers and booleans, `gl_MaxCombinedShaderOutputResources`,
//!   `imageAtomicExchange()` of `r32f` images), all GLSL 4.50's; glslang does not know the
//!   name.
//!
//! glslang does not know the first five names and refuses their `#extension` lines, so
//! [`rewrite`] blanks those lines (lines stay) and the preamble defines the five macros, as
//! Mesa defines every extension it has. A shader that enables one of the eight and names
//! its feature is read at the version glslang has the feature (the `#version` number
//! rewritten in place); one that only enables it keeps its version.
//!
//! A fragment shader read as 4.20 or later loses `gl_FragColor` and `gl_FragData`, which
//! glslang declares only before 4.20: [`FLAG_FRAG_COLOR`] and [`FLAG_FRAG_DATA`] declare
//! stand-ins at location 0 in the preamble, as glslang places the built-ins themselves,
//! and the link reflects no output for them (GL reports none for the built-ins). Such a
//! shader's `attribute` and `varying`, which Mesa takes before 4.20, are spelled as `in` and
//! `out`.

use std::borrow::Cow;

use crate::source::code_lines;

/// Declare a stand-in for `gl_FragColor` in the preamble (`kFlagFragColor`): a fragment
/// shader read as 4.20 or later that writes it.
pub(crate) const FLAG_FRAG_COLOR: u32 = 64;

/// Declare a stand-in for `gl_FragData` in the preamble (`kFlagFragData`).
pub(crate) const FLAG_FRAG_DATA: u32 = 128;

/// The stand-ins' prefix: outputs named so are built-ins to the reflection.
pub(crate) const STAND_IN_PREFIX: &str = "tsh_Frag";

/// The extensions glslang refuses by name, whose `#extension` lines are blanked.
const UNKNOWN: [&str; 5] = [
    "GL_ARB_texture_query_levels",
    "GL_ARB_conservative_depth",
    "GL_ARB_fragment_layer_viewport",
    "GL_ARB_cull_distance",
    "GL_ARB_ES3_1_compatibility",
];

/// The shader's text with the unknown extensions' `#extension` lines blanked and its
/// version raised where a feature needs it, and the preamble flags that go with it.
pub(crate) fn rewrite(stage: crate::Stage, text: &str) -> (Cow<'_, str>, u32) {
    let names = UNKNOWN.iter().chain(
        [
            "GL_ARB_texture_query_lod",
            "GL_ARB_shader_draw_parameters",
            "GL_ARB_shader_group_vote",
            "GL_ARB_enhanced_layouts",
            "GL_ARB_shader_texture_image_samples",
        ]
        .iter(),
    );
    if !names.clone().any(|n| text.contains(n)) {
        return (Cow::Borrowed(text), 0);
    }
    // The last directive for a name decides whether it is enabled, as in GLSL.
    let mut enabled = [false; 10];
    let mut blank = Vec::new();
    for line in code_lines(text) {
        if line.directive != Some("extension") {
            continue;
        }
        let words: Vec<&str> = line.content[1..]
            .split(|c: char| c.is_whitespace() || c == ':')
            .filter(|w| !w.is_empty())
            .collect();
        if let ["extension", name, behavior] = words[..]
            && let Some(k) = names.clone().position(|n| *n == name)
        {
            enabled[k] = behavior != "disable";
            if k < UNKNOWN.len() {
                blank.push(line.number);
            }
        }
    }
    let fragment = stage == crate::Stage::Fragment;
    let needed = [
        (enabled[0] && text.contains("textureQueryLevels"), 430),
        (enabled[1] && fragment && text.contains("depth_"), 420),
        (
            enabled[2]
                && fragment
                && (text.contains("gl_Layer") || text.contains("gl_ViewportIndex")),
            430,
        ),
        (enabled[3] && text.contains("gl_CullDistance"), 450),
        (
            enabled[4]
                && [
                    "mix",
                    "gl_MaxCombinedShaderOutputResources",
                    "imageAtomicExchange",
                ]
                .iter()
                .any(|name| text.contains(name)),
            450,
        ),
        (enabled[5] && text.contains("textureQueryLOD"), 150),
        (
            enabled[6]
                && ["gl_DrawIDARB", "gl_BaseVertexARB", "gl_BaseInstanceARB"]
                    .iter()
                    .any(|name| text.contains(name)),
            450,
        ),
        (
            enabled[7]
                && [
                    "anyInvocationARB",
                    "allInvocationsARB",
                    "allInvocationsEqualARB",
                ]
                .iter()
                .any(|name| text.contains(name)),
            430,
        ),
        (enabled[8] && text.contains("layout"), 440),
        (
            enabled[9] && (text.contains("textureSamples") || text.contains("imageSamples")),
            430,
        ),
    ]
    .iter()
    .filter(|(used, _)| *used)
    .map(|(_, v)| *v)
    .max();
    let number = crate::version::number_at(text);
    let current = number
        .as_ref()
        .and_then(|(_, n)| n.parse::<u32>().ok())
        .unwrap_or(0);
    let raise = needed
        .filter(|v| *v > current)
        .and(number.map(|(at, _)| at));
    if blank.is_empty() && raise.is_none() {
        return (Cow::Borrowed(text), 0);
    }
    let mut out: String = text
        .split_inclusive('\n')
        .enumerate()
        .map(|(n, line)| {
            if blank.contains(&(n + 1)) {
                let body = line.trim_end_matches(['\n', '\r']);
                format!("{}{}", " ".repeat(body.len()), &line[body.len()..])
            } else {
                line.to_owned()
            }
        })
        .collect();
    let mut flags = 0;
    if let (Some(at), Some(version)) = (raise, needed) {
        // Three digits replace three digits (the versions here are all 1.40 and later).
        out.replace_range(at..at + 3, &version.to_string());
        if version >= 420 && current < 420 {
            out = storage_words(stage, &out);
        }
        if fragment && version >= 420 && current < 420 {
            if out.contains("gl_FragColor") {
                flags |= FLAG_FRAG_COLOR;
            }
            if out.contains("gl_FragData") {
                flags |= FLAG_FRAG_DATA;
            }
        }
    }
    (Cow::Owned(out), flags)
}

/// `text` with the storage words GLSL 4.20 removed from core shaders, which Mesa takes
/// before it, spelled as 4.20 does: a vertex shader's `attribute` and `varying` become `in`
/// and `out`, a fragment shader's `varying` `in` (padded with spaces: columns stay).
fn storage_words(stage: crate::Stage, text: &str) -> String {
    let varying = match stage {
        crate::Stage::Vertex => "out",
        crate::Stage::Fragment => "in",
        _ => return text.to_owned(),
    };
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if !ident(b[i]) {
            let start = i;
            while i < b.len() && !ident(b[i]) {
                i += 1;
            }
            out.push_str(&text[start..i]);
            continue;
        }
        let start = i;
        while i < b.len() && ident(b[i]) {
            i += 1;
        }
        let word = &text[start..i];
        let new = match word {
            "varying" => varying,
            "attribute" if stage == crate::Stage::Vertex => "in",
            _ => word,
        };
        out.push_str(new);
        out.push_str(&" ".repeat(word.len() - new.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_words_of_a_raised_shader_are_glsl_4_20_s() {
        let src = "#version 140\n#extension GL_ARB_enhanced_layouts : enable\n\
                   layout(std140) uniform b { vec4 v1; };\nattribute vec4 p;\nvarying vec4 v;\n\
                   void main() { v = p * v1; gl_Position = p; }\n";
        let (text, _) = rewrite(Stage::Vertex, src);
        assert!(text.starts_with("#version 440\n"));
        assert!(
            text.contains("\nin        vec4 p;\nout     vec4 v;\n"),
            "{text}"
        );
        let fs = src.replace("attribute vec4 p;\n", "");
        let (text, _) = rewrite(Stage::Fragment, &fs);
        assert!(text.contains("\nin      vec4 v;\n"), "{text}");
        let c = crate::compile(Stage::Vertex, src, &crate::Limits::default());
        assert!(c.ok, "{}", c.log);
    }
    use crate::Stage;

    #[test]
    fn unknown_extension_lines_are_blanked_and_used_features_raise_the_version() {
        let src = "#version 150\n#extension GL_ARB_fragment_layer_viewport: require\n\
                   void main() { gl_FragColor = vec4(gl_Layer); }\n";
        let (text, flags) = rewrite(Stage::Fragment, src);
        let blank = " ".repeat("#extension GL_ARB_fragment_layer_viewport: require".len());
        assert_eq!(
            text,
            format!("#version 430\n{blank}\nvoid main() {{ gl_FragColor = vec4(gl_Layer); }}\n")
        );
        assert_eq!(flags, FLAG_FRAG_COLOR);
        // Enabled but unused: the version stays.
        let src = "#version 140\n#extension GL_ARB_texture_query_levels : require\nfloat f;\n";
        let (text, flags) = rewrite(Stage::Vertex, src);
        let blank = " ".repeat("#extension GL_ARB_texture_query_levels : require".len());
        assert_eq!(text, format!("#version 140\n{blank}\nfloat f;\n"));
        assert_eq!(flags, 0);
        // Not enabled: nothing changes, and glslang refuses the call.
        let src = "#version 330\nuniform sampler2D s;\nint f() { return textureQueryLevels(s); }\n";
        assert!(matches!(rewrite(Stage::Vertex, src), (Cow::Borrowed(_), 0)));
        // glslang knows GL_ARB_texture_query_lod: its line stays, a 1.40 caller is read as 1.50.
        let src = "#version 140\n#extension GL_ARB_texture_query_lod : enable\n\
                   uniform sampler2D s;\nvec2 f(vec2 c) { return textureQueryLOD(s, c); }\n";
        let (text, _) = rewrite(Stage::Fragment, src);
        assert!(text.starts_with("#version 150\n#extension GL_ARB_texture_query_lod : enable\n"));
        // Draw parameters in a 3.30 vertex shader: read as 4.50, the line stays.
        let src = "#version 330 core\n#extension GL_ARB_shader_draw_parameters : require\n\
                   void main() { gl_Position = vec4(gl_DrawIDARB); }\n";
        let (text, _) = rewrite(Stage::Vertex, src);
        assert!(text.starts_with("#version 450 core\n#extension GL_ARB_shader_draw_parameters"));
        // Votes in a 1.50 shader: read as 4.30, the line stays.
        let src = "#version 150\n#extension GL_ARB_shader_group_vote : enable\n\
                   uniform bool b;\nbool f() { return anyInvocationARB(b); }\n";
        let (text, _) = rewrite(Stage::Vertex, src);
        assert!(text.starts_with("#version 430\n#extension GL_ARB_shader_group_vote"));
        // Depth layouts in a 4.10 shader: read as 4.20, gl_FragData stands in.
        let src = "#version 410\n#extension GL_ARB_conservative_depth : enable\n\
                   layout(depth_less) out float gl_FragDepth;\n\
                   void main() { gl_FragData[0] = vec4(1); gl_FragDepth = 0.0; }\n";
        let (text, flags) = rewrite(Stage::Fragment, src);
        assert!(text.starts_with("#version 420\n"));
        assert_eq!(flags, FLAG_FRAG_DATA);
        // Enhanced layouts in a 1.40 shader: read as 4.40 and compiled, the line stays.
        let src = "#version 140\n#extension GL_ARB_enhanced_layouts : require\n\
                   const int start = 3;\nlayout(location = start + 2) in vec4 b;\n\
                   void main() { gl_Position = b; }\n";
        let (text, _) = rewrite(Stage::Vertex, src);
        assert!(text.starts_with("#version 440\n#extension GL_ARB_enhanced_layouts"));
        let compiled = crate::compile(Stage::Vertex, src, &crate::Limits::default());
        assert!(compiled.ok, "{}", compiled.log);
    }

    #[test]
    fn sample_counts_compile_from_glsl_1_50_with_the_extension() {
        // A 1.50 shader reading the counts: read as 4.30, gl_FragColor stands in.
        let src = "#version 150\n#extension GL_ARB_shader_texture_image_samples : require\n\
                   uniform sampler2DMS s;\nuniform isampler2DMSArray t;\n\
                   void main() { gl_FragColor = vec4(textureSamples(s), textureSamples(t), 0, 1); }\n";
        let (text, flags) = rewrite(Stage::Fragment, src);
        assert!(text.starts_with("#version 430\n#extension GL_ARB_shader_texture_image_samples"));
        assert_eq!(flags, FLAG_FRAG_COLOR);
        let compiled = crate::compile(Stage::Fragment, src, &crate::Limits::default());
        assert!(compiled.ok, "{}", compiled.log);
        // Without the extension GLSL 3.30 has no such function.
        let src = "#version 330\nuniform sampler2DMS s;\nout vec4 c;\n\
                   void main() { c = vec4(textureSamples(s)); }\n";
        assert!(!crate::compile(Stage::Fragment, src, &crate::Limits::default()).ok);
    }

    #[test]
    fn es3_1_compatibility_is_known_and_brings_integer_mix() {
        let src = "#version 430\n#extension GL_ARB_ES3_1_compatibility : require\n\
                   uniform ivec2 a;\nuniform bvec2 b;\nout vec4 c;\n\
                   void main() { c = vec4(mix(a, ivec2(7), b), gl_MaxCombinedShaderOutputResources, 0); }\n";
        let (text, _) = rewrite(Stage::Fragment, src);
        assert!(text.starts_with("#version 450\n"));
        let compiled = crate::compile(Stage::Fragment, src, &crate::Limits::default());
        assert!(compiled.ok, "{}", compiled.log);
    }
}

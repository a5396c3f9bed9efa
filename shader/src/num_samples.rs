//! `gl_NumSamples` (GLSL 4.00, or earlier versions with `#extension GL_ARB_sample_shading`):
//! the sample count of the draw framebuffer, a built-in uniform of every stage.
//!
//! glslang declares it only for OpenGL clients (SPIR-V for Vulkan has no such built-in), so
//! a shader that may name it gets, in the shim's preamble, a `#define` of `gl_NumSamples` to
//! [`NAME`] and `uniform int` [`NAME`]`;` ([`FLAG_NUM_SAMPLES`]). It is a member of the
//! default uniform block like `gl_DepthRange` (`source.rs`): the link lists it among the
//! active uniforms as Mesa does (named `gl_NumSamples`, an `int` with no location) and
//! records its offset ([`crate::Program::num_samples_offset`]); the engine writes the draw
//! framebuffer's
//! `SAMPLES` there, 1 for a single-sampled one (as Mesa's `STATE_NUM_SAMPLES`), whenever it
//! sends the block. So every backend reads GL's value from the code alone, with nothing of
//! its own to fill.
//!
//! Mesa declares the uniform where it has sample shading: from GLSL 4.00, or where the shader
//! enables `GL_ARB_sample_shading` (`enable`, `require` or `warn`); elsewhere the name stays
//! undeclared, as there.
//!
//! The same value carries out GL's rule for `gl_SampleMask` in a single-sampled framebuffer,
//! which GL ignores there while Vulkan applies it at the one sample (a fragment whose bit 0
//! is clear is dropped). A fragment shader that writes it and defines `main` has its `main`
//! renamed in the preamble ([`FLAG_SAMPLE_MASK`]) and a `main` appended after its last line
//! (so every line keeps its number) that calls it and then, at one sample, sets the mask to
//! all samples.

use std::borrow::Cow;

use crate::source::code_lines;

/// Declare `gl_NumSamples` in the preamble (`kFlagNumSamples`).
pub(crate) const FLAG_NUM_SAMPLES: u32 = 256;

/// Rename the shader's `main` in the preamble (`kFlagSampleMask`), for [`sample_mask`].
pub(crate) const FLAG_SAMPLE_MASK: u32 = 512;

/// The default-block uniform that stands for `gl_NumSamples`.
pub(crate) const NAME: &str = "tsh_NumSamples";

/// The `main` appended to a fragment shader that writes `gl_SampleMask`.
const SAMPLE_MASK_MAIN: &str = "\n#undef main\nvoid main() { tsh_main(); \
    if (tsh_NumSamples <= 1) gl_SampleMask[0] = -1; }\n";

/// For a fragment shader that may write `gl_SampleMask` (declared: GLSL 4.00, or the
/// extension) and defines `main`: the text with the wrapping `main` appended and the flags
/// that rename the shader's own and declare the sample count.
pub(crate) fn sample_mask(
    stage: crate::Stage,
    text: &str,
    version: Option<u32>,
) -> (Cow<'_, str>, u32) {
    let writes = text.match_indices("gl_SampleMask").any(|(at, name)| {
        !text[at + name.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    });
    let defines_main = code_lines(text).any(|l| {
        l.directive.is_none()
            && l.content
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .any(|w| w == "main")
    });
    let declared = version.is_some_and(|v| v >= 400) || enables_sample_shading(text);
    if stage != crate::Stage::Fragment || !writes || !defines_main || !declared {
        return (Cow::Borrowed(text), 0);
    }
    let mut out = text.to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(SAMPLE_MASK_MAIN.trim_start_matches('\n'));
    (Cow::Owned(out), FLAG_SAMPLE_MASK | FLAG_NUM_SAMPLES)
}

/// The preamble flag for a shader's text as glslang reads it (`version`: its `#version`).
pub(crate) fn flag(text: &str, version: Option<u32>) -> u32 {
    if !text.contains("gl_NumSamples") {
        return 0;
    }
    if version.is_some_and(|v| v >= 400) || enables_sample_shading(text) {
        FLAG_NUM_SAMPLES
    } else {
        0
    }
}

/// Whether the last `#extension GL_ARB_sample_shading` directive (or `all`, which can only
/// disable) leaves the extension on.
fn enables_sample_shading(text: &str) -> bool {
    let mut on = false;
    for line in code_lines(text) {
        if line.directive != Some("extension") {
            continue;
        }
        let words: Vec<&str> = line.content[1..]
            .split(|c: char| c.is_whitespace() || c == ':')
            .filter(|w| !w.is_empty())
            .collect();
        if let ["extension", name, behavior] = words[..] {
            if name == "GL_ARB_sample_shading" {
                on = matches!(behavior, "enable" | "require" | "warn");
            } else if name == "all" {
                on = on && behavior != "disable";
            }
        }
    }
    on
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_from_4_00_or_with_the_extension() {
        let use_ = "void main() { int n = gl_NumSamples; }\n";
        assert_eq!(flag(use_, Some(400)), FLAG_NUM_SAMPLES);
        assert_eq!(flag(use_, Some(330)), 0);
        let ext = format!("#version 330\n#extension GL_ARB_sample_shading : require\n{use_}");
        assert_eq!(flag(&ext, Some(330)), FLAG_NUM_SAMPLES);
        let off = format!("#version 330\n#extension GL_ARB_sample_shading: disable\n{use_}");
        assert_eq!(flag(&off, Some(330)), 0);
        let commented =
            format!("#version 330\n// #extension GL_ARB_sample_shading: enable\n{use_}");
        assert_eq!(flag(&commented, Some(330)), 0);
        assert_eq!(flag("void main() {}\n", Some(450)), 0);
    }

    fn link_all(shaders: &[(crate::Stage, &str)]) -> Result<crate::Program, String> {
        crate::link(&crate::LinkRequest {
            shaders,
            attrib_bindings: &[],
            frag_data_bindings: &[],
            limits: crate::Limits::default(),
            xfb_varyings: &[],
            xfb_separate: false,
            separable: false,
        })
    }

    /// piglit's compiler/gl_NumSamples.frag (GLSL 1.30 with the extension) compiles, and
    /// the read links to a hidden `int` of the default block, which the program lists as
    /// Mesa does (first here, no location); without the extension the name is undeclared,
    /// as in Mesa.
    #[test]
    fn read_from_a_hidden_part_of_the_default_block() {
        use crate::Stage::{Fragment, Vertex};
        let vs = "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
        let fs = "#version 330\n#extension GL_ARB_sample_shading : enable\nuniform float k;\n\
                  out vec4 c;\nvoid main() { c = vec4(float(gl_NumSamples) * k); }\n";
        let p = link_all(&[(Vertex, vs), (Fragment, fs)]).expect("links");
        let uniforms: Vec<_> = p
            .uniforms
            .iter()
            .map(|u| (u.name.as_str(), u.ty, u.location))
            .collect();
        assert_eq!(
            uniforms,
            [
                ("gl_NumSamples", crate::gltype::INT, -1),
                ("k", crate::gltype::FLOAT, 0)
            ]
        );
        let at = p.num_samples_offset.expect("read");
        assert!(at + 4 <= p.default_block_size - 16);
        let k = p.uniforms[1].offset;
        assert!(at as i32 >= k + 4 || at as i32 + 4 <= k);
        let c = crate::compile(
            Fragment,
            "#version 130\n#extension GL_ARB_sample_shading: require\n\
             void main() { gl_FragColor = vec4(gl_NumSamples); }\n",
            &crate::Limits::default(),
        );
        assert_eq!((c.ok, c.log.as_str()), (true, ""));
        let c = crate::compile(
            Fragment,
            "#version 330\nout vec4 c;\nvoid main() { c = vec4(gl_NumSamples); }\n",
            &crate::Limits::default(),
        );
        assert!(!c.ok && c.log.contains("gl_NumSamples"), "{}", c.log);
        // A program that does not read it has none.
        let p = link_all(&[(Vertex, vs)]).expect("links");
        assert_eq!(p.num_samples_offset, None);
    }

    /// A fragment shader that writes `gl_SampleMask` (piglit's builtin-gl-sample-mask-simple)
    /// gets the wrapping `main`, which reads the sample count without listing
    /// `gl_NumSamples`; its errors keep their lines; one that only reads `gl_SampleMaskIn`
    /// is left alone.
    #[test]
    fn a_sample_mask_write_is_wrapped() {
        use crate::Stage::{Fragment, Vertex};
        let fs = "#version 130\n#extension GL_ARB_sample_shading : enable\nout vec4 c;\n\
                  void main(void)\n{\n  gl_SampleMask[0] = int(gl_FragCoord.x);\n  \
                  c = vec4(1.0);\n}\n";
        let (text, flags) = sample_mask(Fragment, fs, Some(130));
        assert_eq!(flags, FLAG_SAMPLE_MASK | FLAG_NUM_SAMPLES);
        assert!(text.starts_with(fs) && text.ends_with("gl_SampleMask[0] = -1; }\n"));
        let vs = "#version 130\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
        let p = link_all(&[(Vertex, vs), (Fragment, fs)]).expect("links");
        assert!(p.uniforms.is_empty(), "{:?}", p.uniforms);
        assert!(p.num_samples_offset.is_some());
        let bad = fs.replace("c = vec4(1.0);", "c = vec4(1.0) + k;");
        let c = crate::compile(Fragment, &bad, &crate::Limits::default());
        assert!(!c.ok && c.log.contains("0:7"), "{}", c.log);
        let mask_in = "#version 400\nout vec4 c;\nvoid main() { c = vec4(gl_SampleMaskIn[0]); }\n";
        assert_eq!(sample_mask(Fragment, mask_in, Some(400)).1, 0);
        assert_eq!(sample_mask(Vertex, fs, Some(130)).1, 0);
    }
}

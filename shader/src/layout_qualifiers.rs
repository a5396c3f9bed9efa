//! Several `layout(...)` qualifiers in one declaration, which GLSL allows only from 4.20 or
//! with `GL_ARB_shading_language_420pack` (`layout(location = 2) layout(location = 1) out
//! vec3 v;`, the last one overriding). glslang takes them at every version, so without the
//! extension the shader is refused here, with Mesa's message, before glslang sees it.

use crate::source::join_lines;
use crate::version;

/// The qualifier keywords that may stand between two layout qualifiers of one declaration.
const QUALIFIERS: [&str; 25] = [
    "const",
    "in",
    "out",
    "inout",
    "attribute",
    "varying",
    "uniform",
    "buffer",
    "shared",
    "centroid",
    "sample",
    "patch",
    "flat",
    "smooth",
    "noperspective",
    "invariant",
    "precise",
    "highp",
    "mediump",
    "lowp",
    "coherent",
    "volatile",
    "restrict",
    "readonly",
    "writeonly",
];

/// The source with its comments and preprocessor lines blanked (lines and columns stay).
fn code(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut at = 0;
    let mut line_start = true;
    while at < bytes.len() {
        match (bytes[at], bytes.get(at + 1)) {
            (b'/', Some(b'/')) => {
                while at < bytes.len() && bytes[at] != b'\n' {
                    out[at] = b' ';
                    at += 1;
                }
            }
            (b'/', Some(b'*')) => {
                let end = text[at + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |e| at + 2 + e + 2);
                for o in &mut out[at..end] {
                    if *o != b'\n' {
                        *o = b' ';
                    }
                }
                at = end;
            }
            (b'#', _) if line_start => {
                while at < bytes.len() && bytes[at] != b'\n' {
                    out[at] = b' ';
                    at += 1;
                }
            }
            (b'\n', _) => {
                line_start = true;
                at += 1;
            }
            (c, _) => {
                if !c.is_ascii_whitespace() {
                    line_start = false;
                }
                at += 1;
            }
        }
    }
    out
}

/// Whether the shader enables `GL_ARB_shading_language_420pack` (`enable`, `require` or
/// `warn`; the last directive decides).
fn enables_420pack(text: &str) -> bool {
    let mut on = false;
    for line in text.lines() {
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ':' || c == '#')
            .filter(|w| !w.is_empty())
            .collect();
        if let ["extension", "GL_ARB_shading_language_420pack", behavior] = words[..] {
            on = behavior != "disable";
        }
    }
    on
}

/// Refuses a declaration with more than one `layout(...)` qualifier in a shader of GLSL
/// before 4.20 that does not enable `GL_ARB_shading_language_420pack` (`Err`: the compile
/// log, at the first of them, as Mesa reports it).
pub(crate) fn check(source: &str) -> Result<(), String> {
    if !source.contains("layout") {
        return Ok(());
    }
    let text = join_lines(source);
    if version::check(&text).is_ok_and(|v| v >= 420) || enables_420pack(&text) {
        return Ok(());
    }
    let bytes = code(&text);
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let skip_blank = |mut at: usize| {
        while bytes.get(at).is_some_and(|c| c.is_ascii_whitespace()) {
            at += 1;
        }
        at
    };
    // Past the parenthesised group that starts at `at`, if one does.
    let skip_group = |at: usize| -> Option<usize> {
        if bytes.get(at) != Some(&b'(') {
            return None;
        }
        let mut depth = 0;
        for (i, &c) in bytes.iter().enumerate().skip(at) {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        None
    };
    // The first layout qualifier of the qualifier run being read.
    let mut first: Option<usize> = None;
    let mut at = 0;
    while at < bytes.len() {
        let c = bytes[at];
        if c.is_ascii_whitespace() {
            at += 1;
            continue;
        }
        if !is_word(c) {
            first = None;
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && is_word(bytes[at]) {
            at += 1;
        }
        let word = std::str::from_utf8(&bytes[start..at]).unwrap_or("");
        if word == "layout"
            && let Some(end) = skip_group(skip_blank(at))
        {
            if let Some(f) = first {
                let line = text[..f].matches('\n').count() + 1;
                let column = f - text[..f].rfind('\n').map_or(0, |n| n + 1) + 1;
                return Err(format!(
                    "0:{line}({column}): error: duplicate layout(...) qualifiers\n"
                ));
            }
            first = Some(start);
            at = end;
        } else if !QUALIFIERS.contains(&word) {
            first = None;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn repeated_layouts_need_420pack() {
        let two = "#version 140\n#extension GL_ARB_separate_shader_objects : enable\n\
            layout(location=2) layout(location=1) out vec3 var;\nvoid main() {}\n";
        assert_eq!(
            check(two).unwrap_err(),
            "0:3(1): error: duplicate layout(...) qualifiers\n"
        );
        let apart = "#version 150\nlayout(std140) uniform /* c */ layout(row_major) B { \
            mat4 m; };\nvoid main() {}\n";
        assert!(check(apart).is_err());
        let pack = two.replace(
            "#extension GL_ARB_separate_shader_objects : enable",
            "#extension GL_ARB_shading_language_420pack : enable",
        );
        assert_eq!(check(&pack), Ok(()));
        assert_eq!(check(&two.replace("#version 140", "#version 420")), Ok(()));
        // One layout per declaration, and layouts in comments, are fine.
        let one = "#version 150\nlayout(location = 0) out vec4 a; // layout(x)\n\
            layout(location = 1) out vec4 b;\nlayout(triangles) in;\nvoid main() {}\n";
        assert_eq!(check(one), Ok(()));
    }
}

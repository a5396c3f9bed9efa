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

/// Refuses a compute shader whose input layout declarations (`layout(local_size_x = 4)
/// in;`) give one work-group dimension two different sizes (`Err`: the compile log), as
/// Mesa does; within one declaration the last size of a dimension counts (several layout
/// qualifiers of one declaration, or one list naming it twice). glslang keeps the first
/// size of such a declaration and so may not see the difference. Sizes that are not
/// integer literals are left to glslang.
pub(crate) fn check_local_size(stage: crate::Stage, source: &str) -> Result<(), String> {
    if stage != crate::Stage::Compute || !source.contains("local_size") {
        return Ok(());
    }
    let text = join_lines(source);
    let code = String::from_utf8(code(&text)).unwrap_or_default();
    let mut sizes: [Option<u64>; 3] = [None; 3];
    let mut line = 1;
    for statement in code.split_inclusive(';') {
        let at_line = line;
        line += statement.matches('\n').count();
        // `layout(...) ... in;`: the words outside the parentheses end with `in`.
        let mut depth = 0;
        let outside: String = statement
            .chars()
            .map(|c| {
                let inside = depth > 0 || c == '(';
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                if inside || c == ')' { ' ' } else { c }
            })
            .collect();
        let words: Vec<&str> = outside
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        if words.last() != Some(&"in") || !words.iter().all(|w| *w == "layout" || *w == "in") {
            continue;
        }
        let mut these: [Option<u64>; 3] = [None; 3];
        for item in statement.split(['(', ',', ')']) {
            let Some((name, value)) = item.split_once('=') else {
                continue;
            };
            let axis = match name.trim() {
                "local_size_x" => 0,
                "local_size_y" => 1,
                "local_size_z" => 2,
                _ => continue,
            };
            these[axis] = value.trim().parse().ok();
        }
        for (axis, (seen, now)) in sizes.iter_mut().zip(these).enumerate() {
            match (*seen, now) {
                (Some(a), Some(b)) if a != b => {
                    let name = ["x", "y", "z"][axis];
                    return Err(format!(
                        "0:{at_line}(1): error: compute shader input layout does not match \
                         previous declaration (local_size_{name} {b}, was {a})\n"
                    ));
                }
                (None, Some(b)) => *seen = Some(b),
                _ => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{check, check_local_size};
    use crate::Stage;

    #[test]
    fn local_sizes_must_agree() {
        let cs = "#version 150\n#extension GL_ARB_shading_language_420pack: enable\n\
            #extension GL_ARB_compute_shader: enable\n\
            layout(local_size_z = 2) layout(local_size_z = 1) in;\n\
            layout(local_size_z = 2) in;\nvoid main() {}\n";
        assert!(check_local_size(Stage::Compute, cs).is_err());
        let same = cs.replace(
            "in;\nlayout(local_size_z = 2) in;",
            "in;\nlayout(local_size_z = 1) in;",
        );
        assert_eq!(check_local_size(Stage::Compute, &same), Ok(()));
        let other_axis = "#version 430\nlayout(local_size_x = 4) in;\nlayout(local_size_y = 2) in;\n\
            void main() {}\n";
        assert_eq!(check_local_size(Stage::Compute, other_axis), Ok(()));
        assert_eq!(check_local_size(Stage::Fragment, cs), Ok(()));
    }

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

//! Layout qualifier rules glslang does not apply as GL does, checked here on the source
//! before glslang sees it, with Mesa's messages:
//! - several `layout(...)` qualifiers in one declaration, which GLSL allows only from 4.20
//!   or with `GL_ARB_shading_language_420pack` (`layout(location = 2) layout(location = 1)
//!   out vec3 v;`, the last one overriding); glslang takes them at every version;
//! - one qualifier named twice in one list (`layout(location = 2, location = 1)`), which
//!   needs GLSL 4.40 or `GL_ARB_enhanced_layouts` (but for those Mesa lets repeat);
//! - `offset` and `align` in a uniform or storage block that is not laid out by `std140`
//!   or `std430` (its own packing, else the default `layout(...) uniform;` or `buffer;`
//!   before it, else `shared`): glslang's Vulkan rules drop `packed` and `shared` and lay
//!   every block out as std140.
//! - an output block's `xfb_offset` that is not a multiple of its first component's size
//!   (8 where the block holds a double), which glslang moves up to the next multiple;
//! - local sizes of a compute shader that disagree.

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

/// Whether the shader enables the extension `name` (`enable`, `require` or `warn`; the last
/// directive decides).
fn enables(text: &str, name: &str) -> bool {
    let mut on = false;
    for line in text.lines() {
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ':' || c == '#')
            .filter(|w| !w.is_empty())
            .collect();
        if let ["extension", n, behavior] = words[..]
            && n == name
        {
            on = behavior != "disable";
        }
    }
    on
}

/// Checks the rules above but local sizes (`Err`: the compile log, at the first offending
/// qualifier, as Mesa reports it).
pub(crate) fn check(source: &str) -> Result<(), String> {
    if !source.contains("layout") {
        return Ok(());
    }
    let text = join_lines(source);
    let version = version::check(&text).unwrap_or(0);
    if version < 440 && !enables(&text, "GL_ARB_enhanced_layouts") {
        repeated_in_one_list(&text)?;
    }
    // GLSL ES 3.10 (310) takes several too, as Mesa's has_420pack_or_es31 says.
    if version < 420 && version != 310 && !enables(&text, "GL_ARB_shading_language_420pack") {
        several_layouts(&text)?;
    }
    block_packings(&text)
}

/// The line and column (both from 1) of byte `at`.
fn position(text: &str, at: usize) -> (usize, usize) {
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, column)
}

/// The words and punctuation of the source's code (comments and preprocessor lines left
/// out), each with its byte offset.
fn tokens(code: &[u8]) -> Vec<(usize, &str)> {
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let c = code[at];
        if c.is_ascii_whitespace() {
            at += 1;
            continue;
        }
        let start = at;
        at += 1;
        if is_word(c) {
            while at < code.len() && is_word(code[at]) {
                at += 1;
            }
        }
        out.push((start, std::str::from_utf8(&code[start..at]).unwrap_or("")));
    }
    out
}

/// The qualifier names of each `layout(...)` list among `tokens`, with their offsets: the
/// words that open the list or follow one of its commas.
fn layout_lists<'a>(tokens: &[(usize, &'a str)]) -> Vec<Vec<(usize, &'a str)>> {
    let mut lists = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i].1 != "layout" || tokens.get(i + 1).map(|t| t.1) != Some("(") {
            i += 1;
            continue;
        }
        let mut names = Vec::new();
        let mut depth = 0;
        let mut expect_name = true;
        i += 1;
        while i < tokens.len() {
            match tokens[i].1 {
                "(" => {
                    depth += 1;
                    if depth == 1 {
                        i += 1;
                        continue;
                    }
                }
                ")" => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                "," if depth == 1 => {
                    expect_name = true;
                    i += 1;
                    continue;
                }
                word if expect_name && depth == 1 => names.push((tokens[i].0, word)),
                _ => {}
            }
            expect_name = false;
            i += 1;
        }
        lists.push(names);
        i += 1;
    }
    lists
}

/// The qualifiers Mesa lets one list repeat at every version: matrix and block layouts,
/// the binding and the (atomic counter or block member) offset.
const REPEATABLE: [&str; 8] = [
    "row_major",
    "column_major",
    "std140",
    "std430",
    "shared",
    "packed",
    "binding",
    "offset",
];

/// Refuses a qualifier named twice in one `layout(...)` list (Mesa's "duplicate layout
/// qualifiers used"), but for [`REPEATABLE`] ones.
fn repeated_in_one_list(text: &str) -> Result<(), String> {
    let bytes = code(text);
    for list in layout_lists(&tokens(&bytes)) {
        for (k, (at, name)) in list.iter().enumerate() {
            if !REPEATABLE.contains(name) && list[..k].iter().any(|(_, n)| n == name) {
                let (line, column) = position(text, *at);
                return Err(format!(
                    "0:{line}({column}): error: duplicate layout qualifiers used\n"
                ));
            }
        }
    }
    Ok(())
}

/// Refuses an output block's `xfb_offset` that is not a multiple of 4, or of 8 where the
/// block holds a double (Mesa's message): glslang moves such an offset up to the next
/// multiple. `head` is the block's declaration up to its name, `body` its tokens from `{`.
fn output_block_xfb_offset(
    text: &str,
    head: &[(usize, &str)],
    body: &[(usize, &str)],
) -> Result<(), String> {
    let lists = layout_lists(head);
    let Some(&(at, _)) = lists
        .iter()
        .flatten()
        .rev()
        .find(|(_, n)| *n == "xfb_offset")
    else {
        return Ok(());
    };
    // The literal after `xfb_offset =`.
    let Some(k) = head.iter().position(|t| t.0 == at) else {
        return Ok(());
    };
    let Some(offset) = head
        .get(k + 2)
        .and_then(|t| t.1.trim_end_matches(['u', 'U']).parse::<u32>().ok())
    else {
        return Ok(());
    };
    let mut depth = 0;
    let end = body
        .iter()
        .position(|t| {
            match t.1 {
                "{" => depth += 1,
                "}" => depth -= 1,
                _ => {}
            }
            depth == 0
        })
        .unwrap_or(body.len());
    let double = body[..end]
        .iter()
        .any(|t| t.1 == "double" || t.1.starts_with("dvec") || t.1.starts_with("dmat"));
    let multiple = if double { 8 } else { 4 };
    if offset % multiple == 0 {
        return Ok(());
    }
    let (line, column) = position(text, at);
    Err(format!(
        "0:{line}({column}): error: invalid qualifier xfb_offset={offset} must be a multiple \
         of the first component size of the first qualified variable or block member. Or \
         double if an aggregate that contains a double ({multiple}).\n"
    ))
}

/// Refuses `offset` and `align` in uniform and storage blocks that std140 or std430 do not
/// lay out (Mesa: "offset can only be used with std430 and std140 layouts", and the same
/// of `align`).
fn block_packings(text: &str) -> Result<(), String> {
    if !text.contains("offset") && !text.contains("align") {
        return Ok(());
    }
    let bytes = code(text);
    let tokens = tokens(&bytes);
    const PACKINGS: [&str; 4] = ["packed", "shared", "std140", "std430"];
    // The default packing of uniform and of storage blocks (`layout(std140) uniform;`).
    let mut defaults = ["shared", "shared"];
    let mut depth = 0;
    let mut start = 0;
    let mut i = 0;
    while i < tokens.len() {
        let word = tokens[i].1;
        match word {
            "{" | "(" | "[" if depth > 0 => depth += 1,
            "}" | ")" | "]" if depth > 0 => depth -= 1,
            ";" if depth == 0 => start = i + 1,
            "{" => {
                depth = 1;
                let head = &tokens[start..i];
                if head.len() >= 2 && head[head.len() - 2].1 == "out" {
                    output_block_xfb_offset(text, head, &tokens[i..])?;
                }
                let kind = head
                    .iter()
                    .rposition(|t| t.1 == "uniform" || t.1 == "buffer")
                    .filter(|&k| k + 2 == head.len());
                if let Some(k) = kind {
                    let kind = usize::from(head[k].1 == "buffer");
                    let own = layout_lists(head);
                    let packing = own
                        .iter()
                        .flatten()
                        .rev()
                        .find(|(_, n)| PACKINGS.contains(n))
                        .map_or(defaults[kind], |(_, n)| *n);
                    if packing == "packed" || packing == "shared" {
                        let end = tokens[i..]
                            .iter()
                            .scan(0, |d, t| {
                                match t.1 {
                                    "{" => *d += 1,
                                    "}" => *d -= 1,
                                    _ => {}
                                }
                                Some(*d)
                            })
                            .position(|d| d == 0)
                            .map_or(tokens.len(), |e| i + e);
                        let body = layout_lists(&tokens[i..end]);
                        if let Some((at, name)) = own
                            .iter()
                            .chain(&body)
                            .flatten()
                            .find(|(_, n)| *n == "offset" || *n == "align")
                        {
                            let (line, column) = position(text, *at);
                            return Err(format!(
                                "0:{line}({column}): error: {name} can only be used with \
                                 std430 and std140 layouts\n"
                            ));
                        }
                    }
                }
            }
            // A default: `layout(...) uniform;`.
            "uniform" | "buffer" if depth == 0 && tokens.get(i + 1).map(|t| t.1) == Some(";") => {
                let kind = usize::from(word == "buffer");
                if let Some((_, n)) = layout_lists(&tokens[start..i])
                    .iter()
                    .flatten()
                    .rev()
                    .find(|(_, n)| PACKINGS.contains(n))
                {
                    defaults[kind] = n;
                }
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Refuses a declaration with more than one `layout(...)` qualifier (Mesa's "duplicate
/// layout(...) qualifiers").
fn several_layouts(text: &str) -> Result<(), String> {
    let bytes = code(text);
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

//! Redeclarations of `gl_FragCoord` (GLSL 1.50 §4.3.8.1, `ARB_fragment_coord_conventions`):
//! `layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;`.
//!
//! GL's rules, which Mesa keeps and glslang words differently:
//! - within a shader, "the first redeclarations of gl_FragCoord must appear before any use";
//!   later ones may follow a use, with the same qualifiers. glslang refuses any
//!   redeclaration after a use, so [`drop_repeated`] blanks the later ones that repeat the
//!   first (they say nothing new) before glslang reads the text;
//! - across the fragment shaders of a program, "if gl_FragCoord is redeclared in any
//!   fragment shader in a program, it must be redeclared in all the fragment shaders in that
//!   program that have a static use of gl_FragCoord. All redeclarations of gl_FragCoord in
//!   all fragment shaders in a single program must have the same set of qualifiers."
//!   [`check_link`] applies this as Mesa's linker does. glslang instead demands that every
//!   shader object have the same qualifiers, redeclaring or not, and that they have no
//!   `pixel_center_integer` (its linked stage takes only the first object's
//!   `origin_upper_left`). So when a program with several fragment shaders redeclares
//!   `gl_FragCoord`, its fragment shaders reach glslang without their redeclarations
//!   ([`drop_all`]), each redeclares it in its preamble with `origin_upper_left` when the
//!   program asks for it ([`FLAG_ORIGIN_UPPER_LEFT`]), and `pixel_center_integer` is applied
//!   by the pass that applies it for one shader (`pixel_center.rs`), told so by the link.

use std::borrow::Cow;

/// The preamble redeclares `gl_FragCoord` with `origin_upper_left` (`kFlagOriginUpperLeft`).
pub(crate) const FLAG_ORIGIN_UPPER_LEFT: u32 = 8;

/// The layout qualifiers of one redeclaration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Qualifiers {
    pub origin_upper_left: bool,
    pub pixel_center_integer: bool,
}

/// How one shader deals with `gl_FragCoord`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Usage {
    /// The qualifiers of its first redeclaration, if it has one.
    pub redeclared: Option<Qualifiers>,
    /// Whether anything other than a redeclaration names it (a static use).
    pub used: bool,
}

/// One token of code: its byte range and text.
#[derive(Clone, Copy)]
struct Token<'a> {
    start: usize,
    end: usize,
    text: &'a str,
}

/// The tokens of `text` outside comments and preprocessor lines: identifiers and numbers as
/// one token each, every other non-blank character as its own.
fn tokens(text: &str) -> Vec<Token<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let c = bytes[i];
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        if c == b'\n' {
            line_start = true;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if (c == b'#' && line_start) || bytes[i..].starts_with(b"//") {
            // A preprocessor line or a line comment: to the end of the line.
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            i += 2;
            while i < bytes.len() && !bytes[i..].starts_with(b"*/") {
                i += 1;
            }
            i = (i + 2).min(bytes.len());
        } else {
            line_start = false;
            let start = i;
            if word(c) {
                while i < bytes.len() && word(bytes[i]) {
                    i += 1;
                }
            } else {
                // One character (possibly several bytes).
                i += text[i..].chars().next().map_or(1, char::len_utf8);
            }
            out.push(Token {
                start,
                end: i,
                text: &text[start..i],
            });
        }
    }
    out
}

/// A redeclaration found in the tokens: the range of the declaration (from `layout` or `in`
/// to its `;`) and its qualifiers.
struct Redeclaration {
    start: usize,
    end: usize,
    qualifiers: Qualifiers,
}

/// If the `gl_FragCoord` token at `at` is the name of a redeclaration, that redeclaration.
fn redeclaration(t: &[Token<'_>], at: usize) -> Option<Redeclaration> {
    let text = |i: usize| t.get(i).map(|t| t.text);
    if at < 2 || text(at - 1) != Some("vec4") || text(at + 1) != Some(";") {
        return None;
    }
    // Qualifiers before the type: `in` and optionally one `layout(...)`.
    let mut first = at - 1;
    let mut has_in = false;
    let mut qualifiers = Qualifiers::default();
    while first > 0 {
        match text(first - 1) {
            Some("in") => {
                has_in = true;
                first -= 1;
            }
            Some(")") => {
                let open = (0..first - 1).rev().find(|&i| text(i) == Some("("))?;
                if open == 0 || text(open - 1) != Some("layout") {
                    return None;
                }
                for tok in &t[open + 1..first - 1] {
                    match tok.text {
                        "origin_upper_left" => qualifiers.origin_upper_left = true,
                        "pixel_center_integer" => qualifiers.pixel_center_integer = true,
                        _ => {}
                    }
                }
                first = open - 1;
            }
            _ => break,
        }
    }
    has_in.then(|| Redeclaration {
        start: t[first].start,
        end: t[at + 1].end,
        qualifiers,
    })
}

/// How `text` deals with `gl_FragCoord`.
pub(crate) fn usage(text: &str) -> Usage {
    let mut u = Usage::default();
    if !text.contains("gl_FragCoord") {
        return u;
    }
    let t = tokens(text);
    for (i, tok) in t.iter().enumerate() {
        if tok.text != "gl_FragCoord" {
            continue;
        }
        match redeclaration(&t, i) {
            Some(r) => {
                u.redeclared.get_or_insert(r.qualifiers);
            }
            None => u.used = true,
        }
    }
    u
}

/// `text` with every redeclaration of `gl_FragCoord` after the first that has the first's
/// qualifiers blanked (newlines kept, so lines and columns stay).
pub(crate) fn drop_repeated(text: &str) -> Cow<'_, str> {
    if text.matches("gl_FragCoord").nth(1).is_none() {
        return Cow::Borrowed(text);
    }
    let mut first = None;
    blank(text, |q| match first {
        None => {
            first = Some(q);
            false
        }
        Some(f) => f == q,
    })
}

/// `text` with every redeclaration of `gl_FragCoord` blanked.
pub(crate) fn drop_all(text: &str) -> Cow<'_, str> {
    if !text.contains("gl_FragCoord") {
        return Cow::Borrowed(text);
    }
    blank(text, |_| true)
}

/// `text` with the redeclarations `drop` picks (given each in order) replaced by spaces,
/// newlines kept, so lines and columns stay.
fn blank(text: &str, mut drop: impl FnMut(Qualifiers) -> bool) -> Cow<'_, str> {
    let t = tokens(text);
    let mut ranges = Vec::new();
    for (i, tok) in t.iter().enumerate() {
        if tok.text == "gl_FragCoord"
            && let Some(r) = redeclaration(&t, i)
            && drop(r.qualifiers)
        {
            ranges.push((r.start, r.end));
        }
    }
    if ranges.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = text.to_owned();
    for (start, end) in ranges {
        let spaces: String = text[start..end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(start..end, &spaces);
    }
    Cow::Owned(out)
}

/// The cross-shader rule, as Mesa's linker applies it to the fragment shaders in attachment
/// order; `Ok` with the program's qualifiers when some shader redeclares `gl_FragCoord`,
/// `Err` with the link log.
pub(crate) fn check_link(shaders: &[Usage]) -> Result<Option<Qualifiers>, String> {
    const CONFLICT: &str =
        "error: fragment shader defined with conflicting layout qualifiers for gl_FragCoord\n";
    // The program's state so far: (redeclared as, used).
    let mut linked: Option<(Option<Qualifiers>, bool)> = None;
    let mut program = None;
    for s in shaders {
        if let Some((redeclared, used)) = linked {
            let conflict = match (redeclared, s.redeclared) {
                (Some(_), None) => s.used,
                (None, Some(_)) => used,
                (Some(a), Some(b)) => a != b,
                (None, None) => false,
            };
            if conflict {
                return Err(CONFLICT.to_string());
            }
        }
        if s.redeclared.is_some() || s.used {
            let used = linked.is_some_and(|(_, u)| u) || s.used;
            linked = Some((s.redeclared, used));
        }
        program = program.or(s.redeclared);
    }
    Ok(program)
}

#[cfg(test)]
mod tests {
    use super::*;

    const UL: Qualifiers = Qualifiers {
        origin_upper_left: true,
        pixel_center_integer: false,
    };

    #[test]
    fn usage_tells_redeclarations_from_uses() {
        let u = usage(
            "#version 150\n// in vec4 gl_FragCoord;\nlayout(origin_upper_left) in vec4 \
             gl_FragCoord;\nvoid main() { vec4 p = gl_FragCoord; }\n",
        );
        assert_eq!(
            u,
            Usage {
                redeclared: Some(UL),
                used: true
            }
        );
        assert_eq!(
            usage("#version 150\nin vec4 gl_FragCoord;\n"),
            Usage {
                redeclared: Some(Qualifiers::default()),
                used: false
            }
        );
        assert_eq!(usage("void f() { x = gl_FragCoord.x; }").redeclared, None);
    }

    #[test]
    fn repeated_redeclarations_are_blanked_in_place() {
        let s = "in vec4 gl_FragCoord;\nvec4 p = gl_FragCoord;\nin vec4\n gl_FragCoord;\n";
        assert_eq!(
            drop_repeated(s),
            "in vec4 gl_FragCoord;\nvec4 p = gl_FragCoord;\n       \n              \n"
        );
        // A different redeclaration stays, for glslang to refuse.
        let s = "in vec4 gl_FragCoord;\nlayout(origin_upper_left) in vec4 gl_FragCoord;\n";
        assert!(matches!(drop_repeated(s), Cow::Borrowed(_)));
    }
}

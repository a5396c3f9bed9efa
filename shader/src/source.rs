//! The text glslang reads, where GL's rules (Mesa's, the truth here) accept what glslang's
//! rules for the shader's version do not:
//! - **line continuations**: a backslash-newline joins lines in every version for Mesa, in
//!   4.20 and later only for glslang. They are joined here, and the newlines they held are
//!   put back after the joined line, so every later line keeps its number in logs;
//! - **GLSL 1.30** is compiled as 1.40 (see [`crate::version::glslang_source`]);
//! - **array sizes** made of built-ins glslang does not fold are folded first
//!   ([`crate::fold`]);
//! - **`gl_PerVertex` redeclarations** before 4.10: Mesa accepts them, glslang only with
//!   `ARB_separate_shader_objects`, which a shader that redeclares the block has enabled
//!   for it (in the shim's preamble, so lines do not move);
//! - **`inverse()` in GLSL 1.40**, which glslang declares from 1.50 on, is defined in the
//!   preamble for a 1.40 shader that mentions it.
//!
//! And where the rules differ the other way: [`check_extensions`] refuses an `#extension`
//! after code or a `#pragma`, which Mesa refuses and glslang accepts; and
//! [`without_link_errors`] tells the fragment-output errors glslang raises at compile and GL
//! at link.

use std::borrow::Cow;

use crate::{fold, version};

/// A shader's text for glslang.
pub(crate) struct Prepared<'a> {
    /// The source, rewritten where needed.
    pub text: Cow<'a, str>,
    /// `ffi::FLAG_*` bits for the shim.
    pub flags: u32,
}

/// Enable `ARB_separate_shader_objects` in the preamble (`kFlagSeparateShaderObjects`).
pub(crate) const FLAG_SEPARATE_SHADER_OBJECTS: u32 = 1;

/// Define GLSL 1.40's `inverse()` in the preamble (`kFlagInverse`): glslang declares it
/// from 1.50 on.
pub(crate) const FLAG_INVERSE: u32 = 2;

/// The text glslang is given for an application's shader source.
pub(crate) fn prepare(source: &str) -> Prepared<'_> {
    let joined = join_lines(source);
    let inverse = if version::check(&joined) == Ok(140) && joined.contains("inverse") {
        FLAG_INVERSE
    } else {
        0
    };
    let text = match version::glslang_source(&joined) {
        Cow::Borrowed(_) => joined,
        Cow::Owned(t) => Cow::Owned(t),
    };
    let text = match fold::fold_array_sizes(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(t) => Cow::Owned(t),
    };
    let old = version::check(&text).is_ok_and(|v| v < 410);
    let flags = if old && text.contains("gl_PerVertex") {
        FLAG_SEPARATE_SHADER_OBJECTS | inverse
    } else {
        inverse
    };
    Prepared { text, flags }
}

/// Refuses an `#extension` directive that follows code or a `#pragma` (`Err`: the compile
/// log), as GL drivers do ("not allowed in the middle of a shader", Mesa); glslang, like
/// the letter of the GLSL spec, accepts it. Only what is outside conditional groups counts,
/// so a shader is never refused for a group the preprocessor would skip.
pub(crate) fn check_extensions(source: &str) -> Result<(), String> {
    let text = join_lines(source);
    let mut in_comment = false;
    let mut depth = 0u32;
    let mut seen_tokens = false;
    for (n, line) in text.lines().enumerate() {
        // The line without comments.
        let mut content = String::new();
        let mut rest = line;
        while !rest.is_empty() {
            if in_comment {
                match rest.find("*/") {
                    Some(end) => {
                        rest = &rest[end + 2..];
                        in_comment = false;
                        content.push(' ');
                    }
                    None => rest = "",
                }
            } else if let Some(start) = rest.find('/') {
                content.push_str(&rest[..start]);
                let after = &rest[start + 1..];
                if after.starts_with('/') {
                    rest = "";
                } else if let Some(inside) = after.strip_prefix('*') {
                    in_comment = true;
                    rest = inside;
                } else {
                    content.push('/');
                    rest = after;
                }
            } else {
                content.push_str(rest);
                rest = "";
            }
        }
        let content = content.trim();
        let Some(directive) = content.strip_prefix('#') else {
            if !content.is_empty() && depth == 0 {
                seen_tokens = true;
            }
            continue;
        };
        let name = directive
            .trim_start()
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .next()
            .unwrap_or("");
        match name {
            "if" | "ifdef" | "ifndef" => depth += 1,
            "endif" => depth = depth.saturating_sub(1),
            "pragma" if depth == 0 => seen_tokens = true,
            "extension" if depth == 0 && seen_tokens => {
                return Err(format!(
                    "0:{}(1): error: #extension directive is not allowed in the middle of a \
                     shader\n",
                    n + 1
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// For a fragment shader whose compile failed only with errors GL reports at link (an
/// output location past `MAX_DRAW_BUFFERS`, two outputs at one location), the source with
/// the `layout(...)` qualifiers of those lines blanked out (lines and columns unchanged),
/// to check that the rest compiles; `None` for any other failure.
pub(crate) fn without_link_errors(source: &str, log: &str) -> Option<String> {
    let errors: Vec<&str> = log.lines().filter(|l| l.contains(": error: ")).collect();
    if errors.is_empty() {
        return None;
    }
    let lines = errors
        .iter()
        .map(|l| {
            let deferred = l.contains("too large for fragment output")
                || l.contains("overlapping use of location");
            let line: usize = l.strip_prefix("0:")?.split(':').next()?.parse().ok()?;
            deferred.then_some(line)
        })
        .collect::<Option<Vec<usize>>>()?;
    let mut out: Vec<String> = source.split('\n').map(str::to_string).collect();
    for n in lines {
        let line = out.get_mut(n.checked_sub(1)?)?;
        let start = line.find("layout")?;
        let end = start + line[start..].find(')')? + 1;
        line.replace_range(start..end, &" ".repeat(end - start));
    }
    Some(out.join("\n"))
}

/// Removes backslash-newline pairs, emitting the removed newlines after the joined line.
fn join_lines(source: &str) -> Cow<'_, str> {
    if !source.contains("\\\n") && !source.contains("\\\r\n") {
        return Cow::Borrowed(source);
    }
    let mut out = String::with_capacity(source.len());
    let mut pending = 0;
    let mut rest = source;
    while let Some(at) = rest.find(['\\', '\n']) {
        let (before, after) = rest.split_at(at);
        out.push_str(before);
        if let Some(tail) = after
            .strip_prefix("\\\n")
            .or_else(|| after.strip_prefix("\\\r\n"))
        {
            pending += 1;
            rest = tail;
        } else if let Some(tail) = after.strip_prefix('\n') {
            out.push('\n');
            out.extend(std::iter::repeat_n('\n', pending));
            pending = 0;
            rest = tail;
        } else {
            out.push('\\');
            rest = &after[1..];
        }
    }
    out.push_str(rest);
    out.extend(std::iter::repeat_n('\n', pending));
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuations_join_and_keep_line_numbers() {
        assert!(matches!(join_lines("a\nb\\c\n"), Cow::Borrowed(_)));
        assert_eq!(
            join_lines("#define F(a) \\\n  (a) \\\r\n  + 1\nx\\y\n"),
            "#define F(a)   (a)   + 1\n\n\nx\\y\n"
        );
        assert_eq!(join_lines("a\\\n"), "a\n");
        let p = prepare("#version 130\nout gl_PerVertex { vec4 gl_Position; };\n");
        assert_eq!(
            (p.text.as_ref(), p.flags),
            (
                "#version 140\nout gl_PerVertex { vec4 gl_Position; };\n",
                FLAG_SEPARATE_SHADER_OBJECTS
            )
        );
        assert_eq!(prepare("#version 410\ngl_PerVertex").flags, 0);
    }

    #[test]
    fn extensions_come_before_code_and_pragmas() {
        let ok = [
            "#version 330\n#extension GL_A : enable\nfloat x;\n",
            "#version 330\n// c\n/* a\n b */ #define X 1\n#line 4\n#extension GL_A : enable\n",
            "#version 330\nfloat x;\n#if 0\n#extension GL_A : enable\n#endif\n",
            "#version 330\n#ifdef X\nfloat x;\n#endif\n#extension GL_A : enable\n",
        ];
        for s in ok {
            assert_eq!(check_extensions(s), Ok(()), "{s}");
        }
        let err = |line: u32| {
            Err(format!(
                "0:{line}(1): error: #extension directive is not allowed in the middle of a \
                 shader\n"
            ))
        };
        assert_eq!(
            check_extensions("#version 330\n#pragma optimize(on)\n#extension GL_A : enable\n"),
            err(3)
        );
        assert_eq!(
            check_extensions("#version 330\nfloat /* x\n */ x;\n#  extension GL_A : enable\n"),
            err(4)
        );
    }
}

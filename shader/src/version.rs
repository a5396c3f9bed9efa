//! The `#version` line: which GLSL versions a GL 3.3 core context compiles.
//!
//! glslang would compile more (and some of it only for Vulkan), so the version is checked
//! here first, with GL's rules: `#version` must come before anything but comments and
//! whitespace, a shader without one is GLSL 1.10 (a geometry shader 1.50, see
//! [`check_stage`]), and the desktop versions Mesa compiles in core contexts are accepted:
//! 1.10 and 1.20 compiled as 1.40 with their storage qualifiers spelled as 1.40 spells them
//! (glslang reads a shader without `#version` as 1.40 too), 1.30 compiled as 1.40 (see
//! [`glslang_source`] and [`legacy_storage`]), and 1.40 on in the core profile. Of the ES
//! versions Mesa accepts there (with GL 4.1's `ARB_ES2_compatibility` and GL 4.3's
//! `ARB_ES3_compatibility` and GL 4.5's `ARB_ES3_1_compatibility`), GLSL ES 1.00 is
//! compiled as 1.40 with the storage qualifiers of 1.20 respelled, as 1.20 is, GLSL ES 3.00
//! as desktop 3.30 and GLSL ES 3.10 as desktop 4.50, the first desktop version that has all
//! of it (compute shaders, storage blocks, images and atomic counters are 4.30's,
//! `gl_HelperInvocation`, `mix()` selecting integers and
//! `gl_MaxCombinedShaderOutputResources` 4.50's), precision qualifiers included, which
//! desktop GLSL parses and ignores, as ES drivers may; GLSL ES 3.20 is refused with a log
//! that says so.

/// Desktop GLSL versions compiled, as `#version` spells them.
pub const SUPPORTED: &[u32] = &[
    110, 120, 130, 140, 150, 330, 400, 410, 420, 430, 440, 450, 460,
];

/// `x.yz` as GLSL logs spell version 1yz.
fn dotted(v: u32) -> String {
    format!("{}.{:02}", v / 100, v % 100)
}

/// The versions an unsupported `#version` log lists, as Mesa's: the desktop ones, then the
/// ES ones.
fn supported_list() -> String {
    let mut all: Vec<String> = SUPPORTED.iter().map(|&v| dotted(v)).collect();
    all.extend([
        "1.00 ES".to_owned(),
        "3.00 ES".to_owned(),
        "3.10 ES".to_owned(),
    ]);
    match all.split_last() {
        Some((last, rest)) => format!("{}, and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A position in the source, 1-based, as info logs print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    line: u32,
    column: u32,
}

struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
    pos: Pos,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn peek2(&self) -> Option<u8> {
        self.bytes.get(self.at + 1).copied()
    }

    fn bump(&mut self) {
        if let Some(b) = self.peek() {
            self.at += 1;
            if b == b'\n' {
                self.pos.line += 1;
                self.pos.column = 1;
            } else {
                self.pos.column += 1;
            }
        }
    }

    /// Skips whitespace (newlines included when `lines`) and comments.
    fn skip_blank(&mut self, lines: bool) {
        loop {
            match (self.peek(), self.peek2()) {
                (Some(b' ' | b'\t' | b'\r' | 0x0b | 0x0c), _) => self.bump(),
                (Some(b'\n'), _) if lines => self.bump(),
                (Some(b'\\'), Some(b'\n')) => {
                    self.bump();
                    self.bump();
                }
                (Some(b'/'), Some(b'/')) => {
                    while self.peek().is_some_and(|b| b != b'\n') {
                        self.bump();
                    }
                }
                (Some(b'/'), Some(b'*')) => {
                    self.bump();
                    self.bump();
                    while self.peek().is_some()
                        && !(self.peek() == Some(b'*') && self.peek2() == Some(b'/'))
                    {
                        self.bump();
                    }
                    self.bump();
                    self.bump();
                }
                _ => return,
            }
        }
    }

    fn word(&mut self) -> &str {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            self.bump();
        }
        std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("")
    }
}

/// The `#version` directive: where its number starts (position and byte offset), the number
/// and the profile as spelled.
struct Directive {
    at: Pos,
    offset: usize,
    number: String,
    profile: String,
    profile_offset: usize,
}

/// Finds the `#version` directive (`Err`: where the source starts, for a shader without).
fn directive(source: &str) -> Result<Directive, Pos> {
    let mut s = Scanner {
        bytes: source.as_bytes(),
        at: 0,
        pos: Pos { line: 1, column: 1 },
    };
    s.skip_blank(true);
    let start = s.pos;
    if s.peek() == Some(b'#') {
        s.bump();
        s.skip_blank(false);
        if s.word() == "version" {
            s.skip_blank(false);
            let at = s.pos;
            let offset = s.at;
            let number = s.word().to_string();
            s.skip_blank(false);
            let profile_offset = s.at;
            let profile = s.word().to_string();
            return Ok(Directive {
                at,
                offset,
                number,
                profile,
                profile_offset,
            });
        }
    }
    Err(start)
}

/// The source as glslang is given it: a `#version 130` reads `#version 140`, and a 1.30 or
/// 1.40 shader with a fragment output `layout(index = N)` reads `#version 150` (same
/// length, so lines and columns stay).
///
/// GLSL 1.30 has no profiles, and core contexts compile it (Mesa does). What glslang
/// compiles for SPIR-V starts at 1.40, which keeps all of 1.30 but the fixed-function
/// built-ins it deprecated (`gl_ModelViewMatrix`, `ftransform`, ...), which a core context
/// has no state for; a 1.30 shader using them fails to compile with an undeclared
/// identifier.
///
/// `layout(location = L, index = N)` (`ARB_explicit_attrib_location` with
/// `ARB_blend_func_extended`, which Mesa accepts from 1.30 on) glslang takes only in a
/// profile, which versions before 1.50 do not have; 1.50 keeps what 1.40 has. Likewise the
/// multisample samplers of `GL_ARB_texture_multisample` (`sampler2DMS`, `texelFetch` on
/// it), which Mesa has from 1.30 with the extension and glslang only from 1.50.
pub fn glslang_source(source: &str) -> std::borrow::Cow<'_, str> {
    // GLSL ES 3.00 as desktop 3.30 (`300 es` reads `330   `), 3.10 as 4.50.
    if let Ok(d) = directive(source)
        && d.profile == "es"
        && let Some(desktop) = match d.number.as_str() {
            "300" => Some("330"),
            "310" => Some("450"),
            _ => None,
        }
    {
        let mut text = source.to_string();
        text.replace_range(d.profile_offset..d.profile_offset + 2, "  ");
        text.replace_range(d.offset..d.offset + 3, desktop);
        return std::borrow::Cow::Owned(text);
    }
    let number = match directive(source) {
        Ok(d)
            if matches!(d.number.as_str(), "130" | "140")
                && (has_output_index(source) || enables_texture_multisample(source)) =>
        {
            Some((d.offset, "150"))
        }
        Ok(d) if matches!(d.number.as_str(), "100" | "110" | "120" | "130") => {
            Some((d.offset, "140"))
        }
        _ => None,
    };
    match number {
        Some((offset, number)) => {
            let mut text = source.to_string();
            text.replace_range(offset..offset + 3, number);
            std::borrow::Cow::Owned(text)
        }
        None => std::borrow::Cow::Borrowed(source),
    }
}

/// Whether a line enables `GL_ARB_texture_multisample` (`enable` or `require`).
fn enables_texture_multisample(source: &str) -> bool {
    source.contains("GL_ARB_texture_multisample")
        && source.lines().any(|l| {
            let words: Vec<&str> = l
                .split(|c: char| c.is_whitespace() || c == ':' || c == '#')
                .filter(|w| !w.is_empty())
                .collect();
            matches!(
                words.as_slice(),
                [
                    "extension",
                    "GL_ARB_texture_multisample",
                    "enable" | "require"
                ]
            )
        })
}

/// A shader of GLSL 1.40 to 4.20 that enables `GL_ARB_shader_storage_buffer_object`, or a
/// compute shader that enables `GL_ARB_compute_shader` (`enable` or `require`), as GLSL
/// 4.30 (the number rewritten in place, so columns stay): Mesa compiles storage blocks and
/// compute shaders of those versions with the extensions, glslang only from 4.30 (it knows
/// neither extension below). What 4.30 adds is only more than such a shader can use. A
/// shader of those versions that enables `GL_ARB_arrays_of_arrays` is read as 4.30 too:
/// glslang takes arrays of arrays from 4.30 only, even with the extension enabled.
/// Likewise a tessellation shader of GLSL 1.40 to 3.30 that enables
/// `GL_ARB_tessellation_shader`, as GLSL 4.00 (Mesa compiles them from 1.40 with it). A
/// shader of GLSL 1.40 to 4.10 that enables `GL_ARB_shader_image_load_store` is read as
/// 4.20 the same way (glslang declares the image built-ins from 4.20). A shader of GLSL 1.40
/// to 3.30 that enables `GL_ARB_gpu_shader5` is read as 4.00, which has everything the
/// extension adds (glslang supports it only in part below 4.00: no integer functions,
/// `interpolateAt*`, `precise` or sampler and block arrays indexed by variables), and so is
/// one that enables `GL_ARB_derivative_control` (glslang declares `dFdxFine` and the other
/// five from 4.00 with the extension; Mesa from any version).
pub fn extension_source(stage: crate::Stage, source: &str) -> std::borrow::Cow<'_, str> {
    let enables = |name: &str| {
        source.lines().any(|l| {
            let words: Vec<&str> = l
                .split(|c: char| c.is_whitespace() || c == ':' || c == '#')
                .filter(|w| !w.is_empty())
                .collect();
            matches!(words.as_slice(), ["extension", n, "enable" | "require"] if *n == name)
        })
    };
    let enabled = (stage == crate::Stage::Compute && enables("GL_ARB_compute_shader"))
        || enables("GL_ARB_shader_storage_buffer_object")
        || enables("GL_ARB_arrays_of_arrays");
    let tessellation = matches!(
        stage,
        crate::Stage::TessControl | crate::Stage::TessEvaluation
    ) && enables("GL_ARB_tessellation_shader");
    // Images (`image2D`, `imageLoad`, `memoryBarrier`) are 4.20's in glslang; 4.20 has the
    // tessellation stages too.
    let images = enables("GL_ARB_shader_image_load_store");
    let shader5 = enables("GL_ARB_gpu_shader5") || enables("GL_ARB_derivative_control");
    let to = match directive(source) {
        Ok(d)
            if enabled
                && matches!(
                    d.number.as_str(),
                    "140" | "150" | "330" | "400" | "410" | "420"
                ) =>
        {
            Some((d.offset, "430"))
        }
        Ok(d) if images && matches!(d.number.as_str(), "140" | "150" | "330" | "400" | "410") => {
            Some((d.offset, "420"))
        }
        Ok(d)
            if (tessellation || shader5) && matches!(d.number.as_str(), "140" | "150" | "330") =>
        {
            Some((d.offset, "400"))
        }
        _ => None,
    };
    let text = match to {
        Some((offset, number)) => {
            let mut text = source.to_string();
            text.replace_range(offset..offset + 3, number);
            std::borrow::Cow::Owned(text)
        }
        _ => std::borrow::Cow::Borrowed(source),
    };
    match arrays_of_arrays_directives(&text) {
        Some(t) => std::borrow::Cow::Owned(t),
        None => text,
    }
}

/// The source with each `#extension GL_ARB_arrays_of_arrays` line blanked (lines stay),
/// `None` if it has none: glslang does not know the extension (it refuses `require`); the
/// preamble defines its macro, as Mesa defines the macro of every extension it has.
fn arrays_of_arrays_directives(source: &str) -> Option<String> {
    const NAME: &str = "GL_ARB_arrays_of_arrays";
    if !source.contains(NAME) {
        return None;
    }
    let mut changed = false;
    let out: String = source
        .split_inclusive('\n')
        .map(|line| {
            let body = line.trim_end_matches(['\n', '\r']);
            let words: Vec<&str> = body
                .split(|c: char| c.is_whitespace() || c == ':' || c == '#')
                .filter(|w| !w.is_empty())
                .collect();
            match words[..] {
                ["extension", n, _] if n == NAME => {
                    changed = true;
                    format!("{}{}", " ".repeat(body.len()), &line[body.len()..])
                }
                _ => line.to_owned(),
            }
        })
        .collect();
    changed.then_some(out)
}

/// The arrays declared without a size (`float a[];`, outside storage blocks) whose
/// `.length()` a GLSL 4.30 shader (or one read as 4.30, [`extension_source`]) asks, sized
/// as Mesa sizes them at link: one past the largest constant index the shader uses
/// (`a[4]` makes `float a[5];`). GLSL 4.30 makes such a length a link-time value, which
/// glslang refuses to compute ("array must be declared with a size before using this
/// method"). An array only another shader of the program indexes keeps its `[]`.
pub fn sized_implicit_arrays(source: &str) -> std::borrow::Cow<'_, str> {
    if !source.contains(".length")
        || number_at(source).is_none_or(|(_, n)| n.parse::<u32>().map_or(true, |v| v < 430))
    {
        return std::borrow::Cow::Borrowed(source);
    }
    let bytes = source.as_bytes();
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let skip_blank = |mut at: usize| {
        while bytes.get(at).is_some_and(|c| c.is_ascii_whitespace()) {
            at += 1;
        }
        at
    };
    // The identifier ending right before `end` (exclusive, after blanks).
    let word_before = |end: usize| {
        let mut stop = end;
        while stop > 0 && bytes[stop - 1].is_ascii_whitespace() {
            stop -= 1;
        }
        let mut start = stop;
        while start > 0 && is_word(bytes[start - 1]) {
            start -= 1;
        }
        &source[start..stop]
    };
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for (dot, _) in source.match_indices(".length") {
        let after = skip_blank(dot + ".length".len());
        if bytes.get(after) != Some(&b'(') || bytes.get(skip_blank(after + 1)) != Some(&b')') {
            continue;
        }
        let name = word_before(dot);
        if name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
            continue;
        }
        // Uses `name[K]` with a literal K, and the declaration `name[]`.
        let mut largest: Option<u64> = None;
        let mut declaration = None;
        for (at, _) in source.match_indices(name) {
            let end = at + name.len();
            if (at > 0 && is_word(bytes[at - 1])) || bytes.get(end).copied().is_some_and(is_word) {
                continue;
            }
            let open = skip_blank(end);
            if bytes.get(open) != Some(&b'[') {
                continue;
            }
            let inside = skip_blank(open + 1);
            if bytes.get(inside) == Some(&b']') {
                declaration.get_or_insert((open, inside + 1));
                continue;
            }
            let digits_end = (inside..bytes.len())
                .find(|&i| !bytes[i].is_ascii_digit())
                .unwrap_or(bytes.len());
            if digits_end > inside
                && bytes.get(skip_blank(digits_end)) == Some(&b']')
                && let Ok(k) = source[inside..digits_end].parse::<u64>()
            {
                largest = Some(largest.map_or(k, |l| l.max(k)));
            }
        }
        let (Some((open, close)), Some(k)) = (declaration, largest) else {
            continue;
        };
        // Not a storage block's member: the block that encloses the declaration, if any,
        // is not a `buffer` block.
        let mut depth = 0i32;
        let mut enclosing = None;
        for i in (0..open).rev() {
            match bytes[i] {
                b'}' => depth += 1,
                b'{' if depth == 0 => {
                    enclosing = Some(i);
                    break;
                }
                b'{' => depth -= 1,
                _ => {}
            }
        }
        let in_buffer = enclosing.is_some_and(|brace| {
            let head_start = source[..brace].rfind([';', '}']).map_or(0, |i| i + 1);
            source[head_start..brace]
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .any(|w| w == "buffer")
        });
        if !in_buffer && !edits.iter().any(|(o, _, _)| *o == open) {
            edits.push((open, close, format!("[{}]", k + 1)));
        }
    }
    if edits.is_empty() {
        return std::borrow::Cow::Borrowed(source);
    }
    edits.sort_by_key(|(o, _, _)| std::cmp::Reverse(*o));
    let mut text = source.to_string();
    for (open, close, with) in edits {
        text.replace_range(open..close, &with);
    }
    std::borrow::Cow::Owned(text)
}

/// A GLSL 1.10 or 1.20 shader's `attribute` and `varying` as GLSL 1.40 spells them (`in`,
/// and `out` or `in` by stage), padded with spaces so columns stay: Mesa compiles 1.10 and
/// 1.20 in core contexts (a program may pair them with later versions), and glslang reads
/// them as 1.40 ([`glslang_source`]), where these qualifiers are deprecated. Built-ins of
/// the fixed-function pipeline (`gl_Color`, `gl_ModelViewMatrix`, `ftransform`, ...) stay
/// undeclared: a core context has no state for them.
pub fn legacy_storage(stage: crate::Stage, source: &str) -> std::borrow::Cow<'_, str> {
    if !matches!(check_stage(stage, source), Ok(100 | 110 | 120)) {
        return std::borrow::Cow::Borrowed(source);
    }
    respell_storage(stage, source)
}

/// The storage qualifiers of a shader that [`extension_source`] (or another pass) reads at
/// GLSL 4.20 or later from an earlier version (`from`, `to`): `attribute` and `varying`
/// spelled as [`legacy_storage`] spells them. Mesa and glslang both refuse the two words
/// from 4.20 on, but Mesa compiles the shader at its own version, where they are valid
/// (piglit's storage-buffer tests are GLSL 1.30 shaders with `varying`).
pub fn raised_storage(
    stage: crate::Stage,
    from: u32,
    to: u32,
    source: &str,
) -> std::borrow::Cow<'_, str> {
    let is_word = |c: Option<u8>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_');
    let has_word = |w: &str| {
        source.match_indices(w).any(|(at, _)| {
            !is_word(source[..at].bytes().next_back())
                && !is_word(source.as_bytes().get(at + w.len()).copied())
        })
    };
    if from >= 420 || to < 420 || !(has_word("varying") || has_word("attribute")) {
        return std::borrow::Cow::Borrowed(source);
    }
    respell_storage(stage, source)
}

/// `attribute` as `in` and `varying` as `out` or `in` by stage, padded so columns stay.
fn respell_storage(stage: crate::Stage, source: &str) -> std::borrow::Cow<'_, str> {
    let varying = match stage {
        crate::Stage::Vertex => "out    ",
        _ => "in     ",
    };
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    while at < source.len() {
        let word_start = at == 0 || !is_word(bytes[at - 1]);
        let rest = &source[at..];
        let hit = [("attribute", "in       "), ("varying", varying)]
            .into_iter()
            .find(|(w, _)| {
                word_start
                    && rest.starts_with(w)
                    && !rest.as_bytes().get(w.len()).copied().is_some_and(is_word)
            });
        match hit {
            Some((w, with)) => {
                out.push_str(with);
                at += w.len();
            }
            None => {
                let c = rest.chars().next().unwrap_or(' ');
                out.push(c);
                at += c.len_utf8();
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Whether a `layout(...)` of the source names `index`.
fn has_output_index(source: &str) -> bool {
    source.match_indices("layout").any(|(at, _)| {
        let rest = source[at + "layout".len()..].trim_start();
        rest.strip_prefix('(')
            .and_then(|r| r.split(')').next())
            .is_some_and(|inside| {
                inside
                    .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                    .any(|w| w == "index")
            })
    })
}

/// Checks the `#version` of a shader of `stage` as [`check`] does, except that a geometry
/// shader without one is GLSL 1.50 (glslang reads it so too).
///
/// A shader without `#version` is GLSL 1.10, which Mesa compiles in core contexts too, a
/// geometry shader included (it ties geometry shaders to the context, not to the language
/// version); glslang has geometry shaders only from 1.50 on, and GLSL 1.10 has nothing of
/// its own for that stage.
///
/// GLSL ES 3.00 and 3.10 have no geometry or tessellation stages, nor 3.00 compute shaders
/// (GLSL ES 3.20 or the ES extensions bring them), so Mesa refuses such shaders in a desktop
/// context too; glslang, reading them as desktop GLSL, would not.
pub fn check_stage(stage: crate::Stage, source: &str) -> Result<u32, String> {
    use crate::Stage;
    let d = match directive(source) {
        Ok(d) => d,
        Err(_) if stage == Stage::Geometry => return Ok(150),
        Err(_) => return check(source),
    };
    let version = check(source)?;
    let kind = match stage {
        Stage::Geometry => "geometry",
        Stage::TessControl | Stage::TessEvaluation => "tessellation",
        Stage::Compute if version == 300 => "compute",
        _ => return Ok(version),
    };
    if d.profile == "es" {
        return Err(format!(
            "0:{}({}): error: {kind} shaders are not supported in GLSL {} ES\n",
            d.at.line,
            d.at.column,
            dotted(version)
        ));
    }
    Ok(version)
}

/// Checks the `#version` of a shader; `Err` is the compile log GL reports.
pub fn check(source: &str) -> Result<u32, String> {
    let Directive {
        at,
        number,
        profile,
        ..
    } = match directive(source) {
        Ok(d) => d,
        // No #version: GLSL 1.10.
        Err(_) => return Ok(110),
    };
    let here = format!("0:{}({})", at.line, at.column);
    let Ok(v) = number.parse::<u32>() else {
        return Err(format!("{here}: error: invalid #version `{number}'\n"));
    };
    match profile.as_str() {
        // GLSL ES 1.00 has no profile word (`ARB_ES2_compatibility`).
        "" if v == 100 => return Ok(100),
        // GLSL ES 3.00 (`ARB_ES3_compatibility`).
        "es" if v == 300 => return Ok(300),
        // GLSL ES 3.10 (`ARB_ES3_1_compatibility`); no desktop version is 3.10.
        "es" if v == 310 => return Ok(310),
        "" | "core" => {}
        "compatibility" => {
            return Err(format!(
                "{here}: error: the compatibility profile is not supported\n"
            ));
        }
        "es" => {
            return Err(format!(
                "{here}: error: GLSL {} ES is not supported. Supported versions are: {}\n",
                dotted(v),
                supported_list()
            ));
        }
        other => {
            return Err(format!(
                "{here}: error: \"{other}\" is not a valid shading language profile; if \
                 present, it must be \"core\"\n"
            ));
        }
    }
    if !SUPPORTED.contains(&v) {
        return Err(format!(
            "{here}: error: GLSL {} is not supported. Supported versions are: {}\n",
            dotted(v),
            supported_list()
        ));
    }
    Ok(v)
}

/// Where the `#version` number is in `source` (its byte offset) and what it says, for a
/// pass that reads the shader at another version by rewriting the number in place.
pub(crate) fn number_at(source: &str) -> Option<(usize, String)> {
    directive(source).ok().map(|d| (d.offset, d.number))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(check("#version 330\nvoid main(){}"), Ok(330));
        assert_eq!(check("// c\n/* x */ #version 150 core\n"), Ok(150));
        assert_eq!(check("\n\n  #  version 460\n"), Ok(460));
        assert_eq!(check("void main(){}"), Ok(110));
        assert_eq!(check("#version 120\n"), Ok(120));
        assert_eq!(check("#version 100\n"), Ok(100));
        assert_eq!(check("#version 300 es\n"), Ok(300));
        assert_eq!(
            glslang_source("#version 300 es\nprecision mediump float;\n"),
            "#version 330   \nprecision mediump float;\n"
        );
        assert_eq!(
            glslang_source("#version 100\nvarying vec2 t;\n"),
            "#version 140\nvarying vec2 t;\n"
        );
        assert_eq!(
            legacy_storage(crate::Stage::Vertex, "#version 100\nattribute vec2 v;\n"),
            "#version 100\nin        vec2 v;\n"
        );
        assert_eq!(check("#version 310 es\n"), Ok(310));
        assert_eq!(
            glslang_source("#version 310 es\nlayout(local_size_x = 4) in;\n"),
            "#version 450   \nlayout(local_size_x = 4) in;\n"
        );
        let e = check("#version 320 es\n").unwrap_err();
        assert!(e.contains("GLSL 3.20 ES is not supported"), "{e}");
        assert_eq!(
            legacy_storage(
                crate::Stage::Vertex,
                "#version 120\nattribute vec4 v; centroid varying vec4 varyings;\n"
            ),
            "#version 120\nin        vec4 v; centroid out     vec4 varyings;\n"
        );
        assert_eq!(
            legacy_storage(crate::Stage::Fragment, "#version 110\nvarying vec4 c;\n"),
            "#version 110\nin      vec4 c;\n"
        );
        assert_eq!(
            legacy_storage(crate::Stage::Vertex, "#version 130\nvarying vec4 c;\n"),
            "#version 130\nvarying vec4 c;\n"
        );
        assert_eq!(
            raised_storage(
                crate::Stage::Fragment,
                140,
                430,
                "#version 430\nvarying vec4 v; int varyings;\n"
            ),
            "#version 430\nin      vec4 v; int varyings;\n"
        );
        let kept = "#version 430\nvarying vec4 v;\n";
        assert_eq!(raised_storage(crate::Stage::Vertex, 420, 430, kept), kept);
        assert_eq!(raised_storage(crate::Stage::Vertex, 150, 400, kept), kept);
        let local = "#version 430\nvoid main() {\n float a[];\n a[4] = 1.0;\n \
                     int n = a.length(); a[ 2 ] = 0.0;\n}\n";
        assert_eq!(
            sized_implicit_arrays(local),
            local.replace("a[];", "a[5];"),
            "sized one past the largest constant index"
        );
        let member = "#version 430\nbuffer B { int b[2]; float a[]; };\n\
                      void main() { a[3] = 0.0; int n = a.length(); }\n";
        assert_eq!(
            sized_implicit_arrays(member),
            member,
            "a storage block's last member"
        );
        let older = "#version 330\nvoid main() { float a[]; a[1] = 0.0; int n = a.length(); }\n";
        assert_eq!(
            sized_implicit_arrays(older),
            older,
            "refused before 4.30, as Mesa does"
        );
        let elsewhere = "#version 430\nfloat a[];\nvoid main() { int n = a.length(); }\n";
        assert_eq!(sized_implicit_arrays(elsewhere), elsewhere);
        assert_eq!(check("#version 130\nin vec4 p;\n"), Ok(130));
        assert_eq!(
            glslang_source("/* 1.30 */ #  version 130\nin vec4 p;\n"),
            "/* 1.30 */ #  version 140\nin vec4 p;\n"
        );
        assert_eq!(glslang_source("#version 330\n"), "#version 330\n");
        let e = check("#version 330 compatibility\n").unwrap_err();
        assert_eq!(
            e,
            "0:1(10): error: the compatibility profile is not supported\n"
        );
        let e = check("#version 330 foo\n").unwrap_err();
        assert!(
            e.contains("\"foo\" is not a valid shading language profile"),
            "{e}"
        );
        assert!(supported_list().ends_with("4.60, 1.00 ES, 3.00 ES, and 3.10 ES"));
        assert!(supported_list().starts_with("1.10, 1.20, 1.30, 1.40,"));
    }

    #[test]
    fn glsl_es_has_no_geometry_or_tessellation_stages() {
        use crate::Stage;
        let es31 = "#version 310 es\nvoid main() {}\n";
        for stage in [Stage::Geometry, Stage::TessControl, Stage::TessEvaluation] {
            let e = check_stage(stage, es31).unwrap_err();
            assert!(e.contains("not supported in GLSL 3.10 ES"), "{e}");
            assert!(check_stage(stage, "#version 300 es\n").is_err());
        }
        assert_eq!(check_stage(Stage::Compute, es31), Ok(310));
        assert!(check_stage(Stage::Compute, "#version 300 es\n").is_err());
        assert_eq!(check_stage(Stage::Geometry, "#version 150\n"), Ok(150));
        assert_eq!(check_stage(Stage::Geometry, "void main() {}\n"), Ok(150));
    }

    #[test]
    fn glsl_es_3_10_compiles_what_it_has() {
        let limits = crate::Limits::default();
        let compute = "#version 310 es\nlayout(local_size_x = 4) in;\n\
                       layout(std430, binding = 0) buffer B { uint v[]; };\n\
                       layout(r32ui, binding = 1) uniform highp writeonly uimage2D img;\n\
                       shared uint s[4];\n\
                       void main() {\n  s[gl_LocalInvocationIndex] = gl_LocalInvocationIndex;\n\
                         barrier();\n  v[gl_GlobalInvocationID.x] = s[3u - gl_LocalInvocationIndex];\n\
                         imageStore(img, ivec2(gl_GlobalInvocationID.xy), uvec4(imageSize(img).x));\n}\n";
        let c = crate::compile(crate::Stage::Compute, compute, &limits);
        assert!(c.ok, "{}", c.log);
        let fragment = "#version 310 es\nprecision highp float;\nout vec4 c;\n\
                        uniform bvec2 b;\n\
                        void main() { c = vec4(mix(ivec2(1), ivec2(2), b), gl_HelperInvocation, 1); }\n";
        let c = crate::compile(crate::Stage::Fragment, fragment, &limits);
        assert!(c.ok, "{}", c.log);
    }
}

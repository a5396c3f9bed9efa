//! The text glslang reads, where GL's rules (Mesa's, the truth here) accept what glslang's
//! rules for the shader's version do not:
//! - **line continuations**: a backslash-newline joins lines in every version for Mesa, in
//!   4.20 and later only for glslang. They are joined here, and the newlines they held are
//!   put back after the joined line, so every later line keeps its number in logs;
//! - **GLSL 1.30** is compiled as 1.40 (see [`crate::version::glslang_source`]), and so are
//!   **1.10 and 1.20**, with `attribute` and `varying` spelled as 1.40 spells them
//!   ([`crate::version::legacy_storage`]);
//! - **array sizes** made of built-ins glslang does not fold are folded first
//!   ([`crate::fold`]);
//! - **`gl_PerVertex` redeclarations** before 4.10: Mesa accepts them, glslang only with
//!   `ARB_separate_shader_objects`, which a shader that redeclares the block has enabled
//!   for it (in the shim's preamble, so lines do not move);
//! - **`inverse()` in GLSL 1.40**, which glslang declares from 1.50 on, is defined in the
//!   preamble for a 1.40 shader that mentions it;
//! - **`gl_DepthRange`**, which glslang declares only for OpenGL clients, is declared in the
//!   preamble as a default-block uniform the engine fills, and so is **`gl_NumSamples`**
//!   ([`crate::num_samples`]);
//! - **`noise1`..`noise4`**, which glslang declares only for OpenGL clients, are defined in
//!   the preamble (returning 0, as Mesa's do) for a shader that mentions them;
//! - **atomic counters**, which SPIR-V for Vulkan lacks, become storage-buffer atomics
//!   ([`crate::atomic_counter`]);
//! - **subroutines**, which SPIR-V lacks, become `uint` selectors and dispatching
//!   functions ([`crate::subroutine`]);
//! - **`GL_EXT_texture_array`**, which glslang does not know: its `#extension` line is
//!   blanked and its functions (`texture1DArray()` and its kin) come from the preamble
//!   ([`texture_array`]);
//! - **`GL_ARB_texture_query_levels`, `GL_ARB_conservative_depth`,
//!   `GL_ARB_fragment_layer_viewport`, `GL_ARB_cull_distance`, `GL_ARB_ES3_1_compatibility`**,
//!   which glslang does not know, and `GL_ARB_texture_query_lod` below 1.50 and
//!   `GL_ARB_shader_texture_image_samples` below 4.30 ([`crate::late_extensions`]);
//! - **GLSL ES 3.00 and 3.10** are compiled as desktop 3.30 and 4.50
//!   ([`crate::version::glslang_source`]).
//!
//! - **unsized uniform arrays with an initializer** get the initializer's size written in
//!   (glslang's relaxed rules drop the initializer and would leave them unsized);
//! - **repeated `gl_FragCoord` redeclarations** after a use, which glslang refuses, are
//!   blanked ([`crate::frag_coord`]);
//! - **`defined __VERSION__`** (and `__LINE__`, `__FILE__`) is true, as GLSL says; glslang
//!   expands them but does not count them as defined.
//!
//! And where the rules differ the other way: [`check_extensions`] refuses an `#extension`
//! after code or a `#pragma`, which Mesa refuses and glslang accepts;
//! [`check_removed_builtins`] refuses compatibility-only constants in GLSL 1.40;
//! [`check_geometry_input_layout`] refuses what a geometry input layout may not name;
//! [`check_block_names`] refuses a block named like an earlier function (which crashes
//! glslang); [`check_declarations`] refuses layouts off global declarations, `varying` in
//! blocks and unsized uniform block arrays; and
//! [`without_link_errors`] tells the location errors glslang raises at compile and GL at
//! link.

use std::borrow::Cow;

use crate::{fold, frag_coord, late_extensions, version};

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

/// Define `noise1`..`noise4` in the preamble (`kFlagNoise`): glslang declares them only for
/// OpenGL clients; they return 0, as Mesa's do.
pub(crate) const FLAG_NOISE: u32 = 4;

/// Declare `gl_DepthRange` in the preamble (`kFlagDepthRange`): glslang declares it only for
/// OpenGL clients. It is a default-block uniform, [`DEPTH_RANGE`], that the link keeps out
/// of the program's uniforms and the engine fills from `glDepthRange`.
pub(crate) const FLAG_DEPTH_RANGE: u32 = 16;

/// Define `GL_EXT_texture_array`'s functions in the preamble (`kFlagTextureArray`): the
/// shader enabled the extension, whose `#extension` line glslang does not know and
/// [`texture_array`] blanks.
pub(crate) const FLAG_TEXTURE_ARRAY: u32 = 32;

/// The uniform that stands for `gl_DepthRange` (a struct of `near`, `far`, `diff`).
pub(crate) const DEPTH_RANGE: &str = "tsh_DepthRange";

/// The text glslang is given for an application's shader source.
pub(crate) fn prepare(stage: crate::Stage, source: &str) -> Prepared<'_> {
    let joined = join_lines(source);
    let joined = match version::legacy_storage(stage, &joined) {
        Cow::Borrowed(_) => joined,
        Cow::Owned(t) => Cow::Owned(t),
    };
    let inverse = if version::check(&joined) == Ok(140) && joined.contains("inverse") {
        FLAG_INVERSE
    } else {
        0
    };
    let text = match version::glslang_source(&joined) {
        Cow::Borrowed(_) => joined,
        Cow::Owned(t) => Cow::Owned(t),
    };
    let before = version::check(&text).unwrap_or(0);
    let text = match version::extension_source(stage, &text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(t) => Cow::Owned(t),
    };
    let after = version::check(&text).unwrap_or(0);
    let text = match version::raised_storage(stage, before, after, &text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(t) => Cow::Owned(t),
    };
    let text = match version::sized_implicit_arrays(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(t) => Cow::Owned(t),
    };
    let text = match crate::atomic_counter::lower(&text) {
        Ok(Cow::Owned(t)) => Cow::Owned(t),
        _ => text,
    };
    let text = match crate::subroutine::lower(stage, &text) {
        Ok(Cow::Owned(t)) => Cow::Owned(t),
        _ => text,
    };
    let text = match crate::subroutine::zero_uniform_locations(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(t) => Cow::Owned(t),
    };
    let text = match predefined(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(t) => Cow::Owned(t),
    };
    let text = match fold::fold_array_sizes(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(t) => Cow::Owned(t),
    };
    let text = match sized_uniform_arrays(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(t) => Cow::Owned(t),
    };
    let text = match frag_coord::drop_repeated(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(t) => Cow::Owned(t),
    };
    let (text, texture_array) = match texture_array(&text) {
        (Cow::Borrowed(_), on) => (text, on),
        (Cow::Owned(t), on) => (Cow::Owned(t), on),
    };
    let (text, late_flags) = match late_extensions::rewrite(stage, &text) {
        (Cow::Borrowed(_), f) => (text, f),
        (Cow::Owned(t), f) => (Cow::Owned(t), f),
    };
    let version = version::check(&text).ok();
    let old = version.is_some_and(|v| v < 410);
    let mut flags = inverse | late_flags;
    // A fragment shader that a pass (extension_source, the atomic counter lowering,
    // late_extensions) read at 4.20 or later from an earlier version loses gl_FragColor and
    // gl_FragData as late_extensions' shaders do.
    if stage == crate::Stage::Fragment && before < 420 && version.is_some_and(|v| v >= 420) {
        if text.contains("gl_FragColor") {
            flags |= late_extensions::FLAG_FRAG_COLOR;
        }
        if text.contains("gl_FragData") {
            flags |= late_extensions::FLAG_FRAG_DATA;
        }
    }
    if texture_array {
        flags |= FLAG_TEXTURE_ARRAY;
    }
    if old && text.contains("gl_PerVertex") {
        flags |= FLAG_SEPARATE_SHADER_OBJECTS;
    }
    if version.is_some_and(|v| v < 450) && text.contains("noise") {
        flags |= FLAG_NOISE;
    }
    if text.contains("gl_DepthRange") {
        flags |= FLAG_DEPTH_RANGE;
    }
    flags |= crate::num_samples::flag(&text, version);
    let (text, mask_flags) = match crate::num_samples::sample_mask(stage, &text, version) {
        (Cow::Borrowed(_), f) => (text, f),
        (Cow::Owned(t), f) => (Cow::Owned(t), f),
    };
    flags |= mask_flags;
    Prepared { text, flags }
}

/// The source without its `#extension GL_EXT_texture_array` directives (each line blanked,
/// so lines stay), and whether one of them enables the extension (`enable`, `require` or
/// `warn`; the last directive decides, as in GLSL). glslang does not know the extension;
/// Mesa has it at every desktop version, so its functions (`texture1DArray()` and its kin)
/// come from the preamble instead ([`FLAG_TEXTURE_ARRAY`]).
fn texture_array(text: &str) -> (Cow<'_, str>, bool) {
    const NAME: &str = "GL_EXT_texture_array";
    if !text.contains(NAME) {
        return (Cow::Borrowed(text), false);
    }
    let mut enabled = false;
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
            && name == NAME
        {
            enabled = behavior != "disable";
            blank.push(line.number);
        }
    }
    if blank.is_empty() {
        return (Cow::Borrowed(text), false);
    }
    let out: String = text
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
    (Cow::Owned(out), enabled)
}

/// `uniform T name[] = T[](a, b, c);` with the size its initializer gives written in
/// (`name[3]`): GLSL sizes the array from the initializer, but glslang's relaxed rules drop
/// uniform initializers and leave the array unsized, which cannot be indexed with a
/// variable. Lines stay (the size goes between the brackets); a declaration with comments
/// inside is left as it is.
fn sized_uniform_arrays(text: &str) -> Cow<'_, str> {
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = text.as_bytes();
    let mut inserts: Vec<(usize, usize, String)> = Vec::new();
    for (at, _) in text.match_indices("uniform") {
        let bounded = (at == 0 || !is_word(bytes[at - 1]))
            && bytes.get(at + "uniform".len()).is_none_or(|&c| !is_word(c));
        if !bounded {
            continue;
        }
        let Some(len) = text[at..].find(';') else {
            continue;
        };
        let statement = &text[at..at + len];
        if statement.contains("//") || statement.contains("/*") {
            continue;
        }
        let Some((declarator, initializer)) = statement.split_once('=') else {
            continue;
        };
        let Some(open) = declarator.find('[') else {
            continue;
        };
        let Some(close) = declarator[open..].find(']').map(|c| open + c) else {
            continue;
        };
        if !declarator[open + 1..close].trim().is_empty() {
            continue;
        }
        let Some(args_at) = initializer.find('(') else {
            continue;
        };
        // `T[N](...)` gives the size itself; `T[](...)` by its arguments.
        let constructor = &initializer[..args_at];
        let explicit = constructor
            .split_once('[')
            .and_then(|(_, r)| r.split_once(']'))
            .map(|(n, _)| n.trim())
            .filter(|n| !n.is_empty());
        let size = match explicit {
            Some(n) => n.to_string(),
            None => {
                let mut depth = 0i32;
                let mut count = 0;
                let mut any = false;
                for c in initializer[args_at + 1..].chars() {
                    match c {
                        '(' | '[' => depth += 1,
                        ')' | ']' if depth == 0 => break,
                        ')' | ']' => depth -= 1,
                        ',' if depth == 0 => count += 1,
                        c if !c.is_whitespace() => any = true,
                        _ => {}
                    }
                }
                if !any {
                    continue;
                }
                (count + 1).to_string()
            }
        };
        inserts.push((at + open + 1, at + close, size));
    }
    if inserts.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = text.to_string();
    for (start, end, size) in inserts.into_iter().rev() {
        out.replace_range(start..end, &size);
    }
    Cow::Owned(out)
}

/// `defined` of a predefined macro (`__VERSION__`, `__LINE__`, `__FILE__`) is true in GLSL;
/// glslang expands those names but does not count them as defined. `#if`/`#elif` lines ask
/// with `1` instead (same line, so numbers in logs stay).
fn predefined(text: &str) -> Cow<'_, str> {
    const NAMES: [&str; 3] = ["__VERSION__", "__LINE__", "__FILE__"];
    if !text.contains("defined") || !NAMES.iter().any(|n| text.contains(n)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let directive = line.trim_start().strip_prefix('#').map(str::trim_start);
        if !directive.is_some_and(|d| d.starts_with("if") || d.starts_with("elif")) {
            out.push_str(line);
            continue;
        }
        let mut line = line.to_owned();
        for name in NAMES {
            for form in [
                format!("defined {name}"),
                format!("defined({name})"),
                format!("defined ({name})"),
                format!("defined ( {name} )"),
            ] {
                line = line.replace(&form, "1");
            }
        }
        out.push_str(&line);
    }
    Cow::Owned(out)
}

/// Refuses an `#extension` directive that follows code or a `#pragma` (`Err`: the compile
/// log), as GL drivers do ("not allowed in the middle of a shader", Mesa); glslang, like
/// the letter of the GLSL spec, accepts it. Only what is outside conditional groups counts,
/// so a shader is never refused for a group the preprocessor would skip.
pub(crate) fn check_extensions(source: &str) -> Result<(), String> {
    let text = join_lines(source);
    let mut seen_tokens = false;
    for line in code_lines(&text) {
        match line.directive {
            None if !line.content.is_empty() && line.depth == 0 => seen_tokens = true,
            Some("pragma") if line.depth == 0 => seen_tokens = true,
            Some("extension") if line.depth == 0 && seen_tokens => {
                return Err(format!(
                    "0:{}(1): error: #extension directive is not allowed in the middle of a \
                     shader\n",
                    line.number
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Refuses a global `in` or `out` declaration in a GLSL 1.10 or 1.20 shader (`Err`: the
/// compile log, in Mesa's words): those versions spell them `attribute` and `varying`, and
/// keep `in`/`out` for function parameters. glslang reads these versions as 1.40
/// ([`version::legacy_storage`]), where the declarations would be valid.
pub(crate) fn check_legacy_storage(stage: crate::Stage, source: &str) -> Result<(), String> {
    let version = match version::check_stage(stage, source) {
        Ok(v @ (110 | 120)) => v,
        _ => return Ok(()),
    };
    let text = join_lines(source);
    let (mut braces, mut parens) = (0i32, 0i32);
    let mut statement: Vec<String> = Vec::new();
    for line in code_lines(&text) {
        if line.directive.is_some() {
            continue;
        }
        let mut word = String::new();
        for c in line.content.chars().chain(std::iter::once(' ')) {
            if c.is_ascii_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            if !word.is_empty() {
                if braces == 0 && parens == 0 {
                    statement.push(std::mem::take(&mut word));
                }
                word.clear();
            }
            match c {
                '{' => braces += 1,
                '}' => {
                    braces -= 1;
                    statement.clear();
                }
                '(' => parens += 1,
                ')' => parens -= 1,
                ';' if braces == 0 && parens == 0 => {
                    let qualifiers = ["centroid", "invariant", "flat", "smooth", "noperspective"];
                    let mut words = statement
                        .iter()
                        .skip_while(|w| qualifiers.contains(&w.as_str()));
                    if let Some(q @ ("in" | "out" | "inout")) = words.next().map(String::as_str) {
                        let name = statement
                            .iter()
                            .rev()
                            .find(|w| !w.starts_with(|c: char| c.is_ascii_digit()))
                            .map_or("", String::as_str);
                        return Err(format!(
                            "0:{}(1): error: `{q}' qualifier in declaration of `{name}' only \
                             valid for function parameters in GLSL {}.{:02}\n",
                            line.number,
                            version / 100,
                            version % 100,
                        ));
                    }
                    statement.clear();
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Built-ins of the compatibility profile that GLSL 1.40 removed and glslang still declares
/// for it (a 1.40 shader is refused them by GL drivers without `ARB_compatibility`).
const REMOVED_IN_140: [&str; 4] = [
    "gl_MaxLights",
    "gl_MaxClipPlanes",
    "gl_MaxTextureUnits",
    "gl_MaxTextureCoords",
];

/// Refuses a GLSL 1.40 shader naming a compatibility-only built-in constant outside
/// conditional groups (`Err`: the compile log), as Mesa does.
pub(crate) fn check_removed_builtins(source: &str) -> Result<(), String> {
    if version::check(source) != Ok(140) {
        return Ok(());
    }
    let text = join_lines(source);
    for line in code_lines(&text) {
        if line.directive.is_some() || line.depth > 0 {
            continue;
        }
        let words = line
            .content
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_');
        if let Some(name) = words.into_iter().find(|w| REMOVED_IN_140.contains(w)) {
            return Err(format!(
                "0:{}(1): error: `{name}' undeclared\n",
                line.number
            ));
        }
    }
    Ok(())
}

/// Geometry input primitives, as a layout names them (in lower case).
const PRIMITIVES: [&str; 5] = [
    "points",
    "lines",
    "lines_adjacency",
    "triangles",
    "triangles_adjacency",
];

/// The input layout declarations (`layout(...) in;`) of a shader outside comments, object-like
/// macros expanded: each one's line and qualifier list.
fn input_layouts(source: &str) -> Vec<(usize, String)> {
    let text = join_lines(source);
    // Object-like macros defined so far: a layout may name its primitive through one.
    let mut macros: Vec<(String, String)> = Vec::new();
    let mut out = Vec::new();
    for line in code_lines(&text) {
        match line.directive {
            Some("define" | "undef") => {
                track_macro(&mut macros, &line.content);
                continue;
            }
            Some(_) => continue,
            None => {}
        }
        let expanded = expand_macros(&line.content, &macros);
        let mut rest: &str = &expanded;
        while let Some(at) = rest.find("layout") {
            rest = &rest[at + "layout".len()..];
            let Some(open) = rest.trim_start().strip_prefix('(') else {
                continue;
            };
            let Some((list, after)) = open.split_once(')') else {
                break;
            };
            let after = after.trim_start();
            let Some(tail) = after.strip_prefix("in") else {
                continue;
            };
            if tail.trim_start().starts_with(';') {
                out.push((line.number, list.to_owned()));
            }
        }
    }
    out
}

/// The qualifier names of a layout's list (`max_vertices = 3` names `max_vertices`).
fn qualifier_names(list: &str) -> impl Iterator<Item = &str> {
    list.split(',')
        .map(|item| item.split('=').next().unwrap_or("").trim())
}

/// Refuses a geometry shader's input layout declaration (`layout(...) in;`) that names
/// something other than one input primitive and `invocations` (`Err`: the compile log), as
/// Mesa does: glslang accepts block-layout qualifiers (`packed`, `shared`) there and a
/// primitive given twice.
pub(crate) fn check_geometry_input_layout(source: &str) -> Result<(), String> {
    for (number, list) in input_layouts(source) {
        let mut primitives = 0;
        for name in qualifier_names(&list) {
            // Layout qualifier names are case-insensitive in GLSL 1.50 (Mesa too).
            let lower = name.to_ascii_lowercase();
            if PRIMITIVES.contains(&lower.as_str()) {
                primitives += 1;
            } else if lower != "invocations" {
                return Err(format!(
                    "0:{number}(1): error: invalid input layout qualifier `{name}' in a \
                     geometry shader\n"
                ));
            }
        }
        if primitives > 1 {
            return Err(format!(
                "0:{number}(1): error: an input layout qualifier names more than one primitive\n"
            ));
        }
    }
    Ok(())
}

/// The input primitive a geometry shader's layout names (`triangles`), in lower case.
pub(crate) fn geometry_input_primitive(source: &str) -> Option<&'static str> {
    input_layouts(source).iter().find_map(|(_, list)| {
        qualifier_names(list).find_map(|name| {
            let lower = name.to_ascii_lowercase();
            PRIMITIVES.iter().copied().find(|p| *p == lower)
        })
    })
}

/// Records an object-like `#define NAME body` (or forgets the name at `#undef NAME`).
/// Function-like macros are not tracked: their names stay as written.
fn track_macro(macros: &mut Vec<(String, String)>, directive: &str) {
    let d = directive.trim_start_matches('#').trim_start();
    let (undef, rest) = match d.strip_prefix("define") {
        Some(rest) => (false, rest),
        None => (true, d.strip_prefix("undef").unwrap_or("")),
    };
    let rest = rest.trim_start();
    let end = rest
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .unwrap_or(rest.len());
    let (name, body) = rest.split_at(end);
    if name.is_empty() {
        return;
    }
    macros.retain(|(n, _)| n != name);
    if !undef && !body.starts_with('(') {
        macros.push((name.to_owned(), body.trim().to_owned()));
    }
}

/// `text` with the identifiers that name object-like macros replaced by their bodies (to
/// a few levels, which stops self-reference).
fn expand_macros<'a>(text: &'a str, macros: &[(String, String)]) -> Cow<'a, str> {
    let mut text = Cow::Borrowed(text);
    for _ in 0..8 {
        let mut out = String::with_capacity(text.len());
        let mut changed = false;
        let mut word = String::new();
        let mut flush = |word: &mut String, out: &mut String| {
            match macros.iter().find(|(n, _)| n == word) {
                Some((_, body)) => {
                    out.push_str(body);
                    changed = true;
                }
                None => out.push_str(word),
            }
            word.clear();
        };
        for c in text.chars() {
            if c.is_ascii_alphanumeric() || c == '_' {
                word.push(c);
            } else {
                flush(&mut word, &mut out);
                out.push(c);
            }
        }
        flush(&mut word, &mut out);
        if !changed {
            break;
        }
        text = Cow::Owned(out);
    }
    text
}

/// Refuses an interface block named like a function declared before it (`Err`: the compile
/// log). GLSL puts both in one namespace, so this is a redeclaration; glslang finds the case
/// the other way round, but this one crashes it (a segmentation fault in the program's
/// process), so it never reaches glslang.
pub(crate) fn check_block_names(source: &str) -> Result<(), String> {
    let text = join_lines(source);
    let mut functions: Vec<String> = Vec::new();
    let mut depth = 0u32;
    // The last three words at global scope, and the line of the last one.
    let mut words: [String; 3] = Default::default();
    for line in code_lines(&text) {
        if line.directive.is_some() {
            continue;
        }
        let mut chars = line.content.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            if c.is_ascii_alphabetic() || c == '_' {
                let mut end = at + c.len_utf8();
                while let Some(&(i, d)) = chars.peek() {
                    if !(d.is_ascii_alphanumeric() || d == '_') {
                        break;
                    }
                    end = i + d.len_utf8();
                    chars.next();
                }
                if depth == 0 {
                    words.rotate_left(1);
                    words[2] = line.content[at..end].to_owned();
                }
                continue;
            }
            match c {
                '(' if depth == 0 && !words[1].is_empty() && !words[2].is_empty() => {
                    // `type name (`: a function (a constructor call at global scope is
                    // inside an initializer, after `=`, which clears the words).
                    functions.push(words[2].clone());
                }
                '{' => {
                    if depth == 0
                        && matches!(words[1].as_str(), "in" | "out" | "uniform")
                        && functions.contains(&words[2])
                    {
                        return Err(format!(
                            "0:{}(1): error: block name `{}' redeclares a function\n",
                            line.number, words[2]
                        ));
                    }
                    depth += 1;
                }
                '}' => depth = depth.saturating_sub(1),
                c if c.is_whitespace() => continue,
                _ => {}
            }
            if depth == 0 || c == '{' {
                words = Default::default();
            }
        }
    }
    Ok(())
}

/// The image format qualifiers of `GL_ARB_shader_image_load_store`.
const IMAGE_FORMATS: [&str; 39] = [
    "rgba32f",
    "rgba16f",
    "rg32f",
    "rg16f",
    "r11f_g11f_b10f",
    "r32f",
    "r16f",
    "rgba16",
    "rgb10_a2",
    "rgba8",
    "rg16",
    "rg8",
    "r16",
    "r8",
    "rgba16_snorm",
    "rgba8_snorm",
    "rg16_snorm",
    "rg8_snorm",
    "r16_snorm",
    "r8_snorm",
    "rgba32i",
    "rgba16i",
    "rgba8i",
    "rg32i",
    "rg16i",
    "rg8i",
    "r32i",
    "r16i",
    "r8i",
    "rgba32ui",
    "rgba16ui",
    "rgb10_a2ui",
    "rgba8ui",
    "rg32ui",
    "rg16ui",
    "rg8ui",
    "r32ui",
    "r16ui",
    "r8ui",
];

/// Refuses a declaration line whose `layout` qualifiers name two image formats (`Err`: the
/// compile log), as Mesa does (GLSL 4.20 §4.4.6.2: "only one format qualifier may be
/// specified"); glslang keeps the last one.
pub(crate) fn check_image_formats(source: &str) -> Result<(), String> {
    let text = join_lines(source);
    for line in code_lines(&text) {
        if line.directive.is_some() || !line.content.contains("layout") {
            continue;
        }
        let mut formats = 0;
        let mut rest = line.content.as_str();
        while let Some(at) = rest.find("layout") {
            rest = &rest[at + "layout".len()..];
            let Some(open) = rest.trim_start().strip_prefix('(') else {
                continue;
            };
            let inside = open.split(')').next().unwrap_or("");
            formats += inside
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|w| IMAGE_FORMATS.contains(w))
                .count();
        }
        if formats > 1 {
            return Err(format!(
                "0:{}(1): error: only one format qualifier may be specified for an image\n",
                line.number
            ));
        }
    }
    Ok(())
}

/// Refuses what GLSL 1.50 forbids in declarations and glslang accepts (`Err`: the compile
/// log), as Mesa does: a `layout` qualifier anywhere but on a global declaration or a block
/// member (section 4.3.8: "declarations of layouts can only be made at global scope"), the
/// deprecated `varying` or `attribute` on a block member (4.3.7), a uniform block array
/// without a size (4.3.7: "uniform block array declarations must specify an array size"),
/// an input `gl_PerVertex` redeclared with an instance name other than `gl_in`, and a member
/// of `gl_PerVertex` redeclared as a global output after the output block was (7.1).
pub(crate) fn check_declarations(source: &str) -> Result<(), String> {
    #[derive(Clone, Copy, PartialEq)]
    enum Scope {
        /// A uniform block's member list.
        UniformBlock,
        /// An `in gl_PerVertex` redeclaration's member list.
        PerVertexIn,
        /// An `out gl_PerVertex` redeclaration's member list.
        PerVertexOut,
        /// Another interface block's member list.
        Block,
        /// A function body, a struct, or a compound statement.
        Other,
    }
    const PER_VERTEX: [&str; 3] = ["gl_Position", "gl_PointSize", "gl_ClipDistance"];
    let text = join_lines(source);
    let mut scopes: Vec<Scope> = Vec::new();
    let mut parens = 0u32;
    // The words of the global declaration so far (outside parentheses).
    let mut words: Vec<String> = Vec::new();
    // After a uniform block's `}`: how far `name [ ]` has got (1 name, 2 `[`).
    let mut after_uniform_block: Option<u8> = None;
    // After an `in gl_PerVertex` block's `}`, whose instance name must be `gl_in`.
    let mut after_per_vertex_in = false;
    // Whether `out gl_PerVertex` was redeclared: its members cannot be redeclared after it.
    let mut per_vertex_out = false;
    let error = |line: usize, what: &str| Err(format!("0:{line}(1): error: {what}\n"));
    for line in code_lines(&text) {
        if line.directive.is_some() {
            continue;
        }
        let content = &line.content;
        let mut chars = content.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            if c.is_whitespace() {
                continue;
            }
            let token = if c.is_ascii_alphanumeric() || c == '_' {
                let mut end = at + 1;
                while let Some(&(i, d)) = chars.peek() {
                    if !(d.is_ascii_alphanumeric() || d == '_' || d == '.') {
                        break;
                    }
                    end = i + d.len_utf8();
                    chars.next();
                }
                &content[at..end]
            } else {
                &content[at..at + c.len_utf8()]
            };
            after_uniform_block = match (after_uniform_block, token) {
                (Some(0), t) if t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') => {
                    Some(1)
                }
                (Some(1), "[") => Some(2),
                (Some(2), "]") => {
                    return error(
                        line.number,
                        "uniform block arrays must specify an array size",
                    );
                }
                _ => None,
            };
            if std::mem::take(&mut after_per_vertex_in) && token != "gl_in" {
                return error(
                    line.number,
                    "the gl_PerVertex input block must be redeclared as gl_in[]",
                );
            }
            let top = scopes.last().copied();
            match token {
                "layout" if parens > 0 || top == Some(Scope::Other) => {
                    return error(
                        line.number,
                        "layout qualifiers may only be given on global declarations",
                    );
                }
                "varying" | "attribute" if top.is_some_and(|s| s != Scope::Other) => {
                    return error(
                        line.number,
                        &format!("`{token}' qualifier is not allowed in an interface block"),
                    );
                }
                "(" => parens += 1,
                ")" => parens = parens.saturating_sub(1),
                "{" => {
                    let block = scopes.is_empty()
                        && parens == 0
                        && !words.iter().any(|w| w == "struct")
                        && words
                            .iter()
                            .any(|w| matches!(w.as_str(), "in" | "out" | "uniform" | "buffer"));
                    let has = |word: &str| words.iter().any(|w| w == word);
                    scopes.push(match (block, words.last().map(String::as_str)) {
                        (false, _) => Scope::Other,
                        (true, Some("gl_PerVertex")) if has("in") => Scope::PerVertexIn,
                        (true, Some("gl_PerVertex")) if has("out") => Scope::PerVertexOut,
                        _ if has("uniform") => Scope::UniformBlock,
                        _ => Scope::Block,
                    });
                    words.clear();
                }
                "}" => {
                    match scopes.pop() {
                        Some(Scope::UniformBlock) => after_uniform_block = Some(0),
                        Some(Scope::PerVertexIn) => after_per_vertex_in = true,
                        Some(Scope::PerVertexOut) => per_vertex_out = true,
                        _ => {}
                    }
                    words.clear();
                }
                ";" => {
                    // (Only outside conditional groups, which the preprocessor may skip:
                    // a shader that redeclares a member in an `#else` of `#if 1` is valid.)
                    if per_vertex_out
                        && line.depth == 0
                        && scopes.is_empty()
                        && words.iter().any(|w| w == "out")
                        && let Some(name) = words.iter().find(|w| PER_VERTEX.contains(&w.as_str()))
                    {
                        return error(
                            line.number,
                            &format!("`{name}' redeclared after gl_PerVertex was"),
                        );
                    }
                    words.clear();
                }
                t if scopes.is_empty() && parens == 0 => words.push(t.to_owned()),
                _ => {}
            }
        }
    }
    Ok(())
}

/// A line of a shader without its comments.
pub(crate) struct CodeLine<'a> {
    /// 1-based.
    pub number: usize,
    /// The text, comments replaced by a space, trimmed.
    pub content: String,
    /// The directive's name, for a preprocessor line.
    pub directive: Option<&'a str>,
    /// How many conditional groups (`#if`, `#ifdef`, `#ifndef`) the line is in.
    pub depth: u32,
}

/// The lines of `text` (continuations already joined) without comments, with the
/// conditional-group depth each is at.
pub(crate) fn code_lines(text: &str) -> impl Iterator<Item = CodeLine<'static>> + '_ {
    let mut in_comment = false;
    let mut depth = 0u32;
    text.lines().enumerate().map(move |(n, line)| {
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
        let content = content.trim().to_owned();
        let directive = content.strip_prefix('#').map(|d| {
            let name = d
                .trim_start()
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .next()
                .unwrap_or("");
            DIRECTIVES
                .iter()
                .copied()
                .find(|k| *k == name)
                .unwrap_or("")
        });
        let at = depth;
        match directive {
            Some("if" | "ifdef" | "ifndef") => depth += 1,
            Some("endif") => depth = depth.saturating_sub(1),
            _ => {}
        }
        CodeLine {
            number: n + 1,
            content,
            directive,
            depth: at,
        }
    })
}

/// Preprocessor directives by name (others read as "").
const DIRECTIVES: [&str; 13] = [
    "if",
    "ifdef",
    "ifndef",
    "elif",
    "else",
    "endif",
    "define",
    "undef",
    "pragma",
    "extension",
    "version",
    "line",
    "error",
];

/// For a shader whose compile failed only with errors GL reports at link (a fragment output
/// location past `MAX_DRAW_BUFFERS`, two inputs, outputs or block members whose locations
/// overlap, fragment outputs of different types sharing a location by components), the
/// source with the `layout(...)` qualifiers of those lines blanked out (lines and columns
/// unchanged), to check that the rest compiles; `None` for any other failure.
pub(crate) fn without_link_errors(source: &str, log: &str) -> Option<String> {
    let errors: Vec<&str> = log.lines().filter(|l| l.contains(": error: ")).collect();
    if errors.is_empty() {
        return None;
    }
    let lines = errors
        .iter()
        .map(|l| {
            let deferred = l.contains("too large for fragment output")
                || l.contains("overlapping use of location")
                || l.contains("fragment outputs sharing the same location must be the same");
            let line: usize = l.strip_prefix("0:")?.split(':').next()?.parse().ok()?;
            deferred.then_some(line)
        })
        .collect::<Option<Vec<usize>>>()?;
    let mut out: Vec<String> = source.split('\n').map(str::to_string).collect();
    for n in lines {
        let at = n.checked_sub(1)?;
        // A block member without a location that follows members with them is given one
        // that collides: the members' locations, between the block's braces, go.
        let range = if out.get(at)?.contains("layout") {
            at..at + 1
        } else {
            let open = (0..at).rev().find(|&k| out[k].contains('{'))?;
            let close = (at..out.len()).find(|&k| out[k].contains('}'))?;
            open + 1..close
        };
        for line in &mut out[range] {
            let Some(start) = line.find("layout") else {
                continue;
            };
            let end = start + line[start..].find(')')? + 1;
            line.replace_range(start..end, &" ".repeat(end - start));
        }
    }
    Some(out.join("\n"))
}

/// Removes backslash-newline pairs, emitting the removed newlines after the joined line.
pub(crate) fn join_lines(source: &str) -> Cow<'_, str> {
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
        let p = prepare(
            crate::Stage::Vertex,
            "#version 130\nout gl_PerVertex { vec4 gl_Position; };\n",
        );
        assert_eq!(
            (p.text.as_ref(), p.flags),
            (
                "#version 140\nout gl_PerVertex { vec4 gl_Position; };\n",
                FLAG_SEPARATE_SHADER_OBJECTS
            )
        );
        assert_eq!(
            prepare(crate::Stage::Vertex, "#version 410\ngl_PerVertex").flags,
            0
        );
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

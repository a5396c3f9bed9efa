//! Atomic counters (GL 4.2's `ARB_shader_atomic_counters`) as storage-buffer atomics.
//!
//! SPIR-V for Vulkan has no atomic counters (glslang refuses `atomic_uint` for Vulkan
//! targets), and OpenGL ES drivers reach the SPIR-V through SPIRV-Cross, so the shader text
//! is rewritten before glslang reads it ([`lower`]):
//! - each `layout(binding = b, offset = o) uniform atomic_uint c;` (arrays too) is blanked
//!   (newlines kept, so lines stay), and each binding `b` becomes one anonymous std430
//!   storage block, [`BLOCK_PREFIX`]`b`, declared where the first counter was, holding one
//!   runtime-sized `uint` array of the buffer's words (the same block in every stage, so
//!   stages that declare other counters of a binding still link); a counter is the word at
//!   its offset;
//! - a use of a counter must be an argument of a call, as GLSL 4.20 §4.1.7 says (anything
//!   else, an assignment, an operand, a conversion, fails the compile, as in Mesa);
//!   `atomicCounterIncrement(c)` becomes `atomicAdd(word, 1u)` (the old value, as GL returns
//!   it), `atomicCounterDecrement(c)` `(atomicAdd(word, 0xFFFFFFFFu) - 1u)` (GL returns the
//!   new value) and `atomicCounter(c)` `atomicAdd(word, 0u)`, also where an object-like
//!   macro names the function; `memoryBarrierAtomicCounter()` becomes
//!   `memoryBarrierBuffer()`;
//! - `ARB_shader_atomic_counter_ops`' operations (`atomicCounterAddARB`, `...SubtractARB`,
//!   `...MinARB`, `...MaxARB`, `...AndARB`, `...OrARB`, `...XorARB`, `...ExchangeARB`,
//!   `...CompSwapARB`, and GLSL 4.60's names without `ARB` in GLSL 4.60 shaders) become
//!   the storage-buffer atomic of the word (`atomicAdd`, ..., `atomicCompSwap`, the old
//!   value as GL returns it), subtraction an `atomicAdd` of `0u - (data)`; applied to an
//!   `atomic_uint` parameter, a function per operation that switches over the bindings as
//!   the adding one does (below);
//! - an `atomic_uint` function parameter becomes a `uint` that holds the counter's binding
//!   (high 16 bits) and word, an argument that names a counter that number, and the
//!   functions applied to the parameter calls of one function that switches over the
//!   shader's bindings (`add_function`); `out` and `inout` ones fail the compile;
//! - the shader is read as GLSL 4.30 (storage blocks are 4.30's in glslang);
//! - the built-in constants of the fixed limits (`gl_MaxFragmentAtomicCounters`, ...), which
//!   glslang declares only for OpenGL targets, become their values (in any shader).
//!
//! Declarations are read with the macros `#define`d before them expanded (piglit names
//! counters `Y(I)` with `layout(binding = I)`). Offsets follow GLSL 4.20 §4.4.4.1: a
//! counter without `offset` takes the next one after the previous counter of its binding in
//! the shader (4 bytes a counter); a declaration without a name only moves that offset; of
//! a repeated qualifier the last counts; a default qualifier declaration without a type
//! (`layout(binding = 2, offset = 4) uniform;`) moves nothing and is blanked. The link
//! finds the blocks by their names, reports the counters (from the declarations) as GL's
//! atomic counters and atomic counter buffers (the engine binds the
//! `ATOMIC_COUNTER_BUFFER` binding points to their storage slots), and refuses a program
//! over the limits as Mesa does (`check_limits`).
//!
//! Not carried out: arrays of counters as function parameters and counter uses that macros
//! write (other than the function's name).

use std::borrow::Cow;

/// The name of the storage block that holds binding `b`'s counters: this prefix, then `b`.
pub const BLOCK_PREFIX: &str = "TesseraAtomicCounters";

/// One atomic counter declaration (a counter or an array of counters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counter {
    /// The declared name (no `[0]`).
    pub name: String,
    /// `layout(binding)`.
    pub binding: u32,
    /// Byte offset in the binding's buffer.
    pub offset: u32,
    /// Array size (0 for a counter that is no array; every element of an array of arrays).
    pub array: u32,
    /// The array's lengths, outermost first (`[2, 4]` for `a[2][4]`; empty for a counter
    /// that is no array).
    pub dims: Vec<u32>,
    /// Whether the shader uses it after its declaration.
    pub used: bool,
}

/// What the declarations of one shader say: its counters, or the compile error Mesa gives
/// (for a declaration, or for a use of a counter GL does not allow).
pub(crate) fn counters(text: &str) -> Result<Vec<Counter>, String> {
    let (counters, found) = scan(text)?;
    if !found.is_empty() {
        let clean = uncommented(text);
        uses(&clean, text, &counters, &params(&clean, text)?, &found)?;
    }
    Ok(counters)
}

/// A declaration found in the text: its byte range.
struct Found {
    range: std::ops::Range<usize>,
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Byte offsets of the whole-word occurrences of `word` in `text`.
fn words<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let b = text.as_bytes();
    text.match_indices(word)
        .map(|(at, _)| at)
        .filter(move |&at| {
            (at == 0 || !is_word(b[at - 1]))
                && !b.get(at + word.len()).copied().is_some_and(is_word)
        })
}

/// The byte offsets of every word (identifier or number) of `text`, by word.
fn word_index(text: &str) -> std::collections::HashMap<&str, Vec<usize>> {
    let b = text.as_bytes();
    let mut out: std::collections::HashMap<&str, Vec<usize>> = std::collections::HashMap::new();
    let mut i = 0;
    while i < b.len() {
        if is_word(b[i]) {
            let start = i;
            while i < b.len() && is_word(b[i]) {
                i += 1;
            }
            out.entry(&text[start..i]).or_default().push(start);
        } else {
            i += 1;
        }
    }
    out
}

/// The text without its comments (each comment's bytes as spaces, newlines kept), so byte
/// offsets stay.
pub(crate) fn uncommented(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            out.extend_from_slice(b"  ");
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                i += 1;
            }
            if i < b.len() {
                out.extend_from_slice(b"  ");
                i += 2;
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    // Only ASCII bytes were replaced by ASCII bytes, whole comments at a time.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// The value of `key = N` in a layout's text.
fn layout_value(inside: &str, key: &str, text: &str) -> Option<Result<u32, String>> {
    inside.split(',').rev().find_map(|q| {
        let (k, v) = q.split_once('=')?;
        (k.trim() == key).then(|| {
            let v = v.trim();
            let parsed = if let Some(h) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
                u32::from_str_radix(h.trim_end_matches(['u', 'U']), 16).ok()
            } else {
                v.trim_end_matches(['u', 'U']).parse().ok()
            };
            // Not a literal: an integer constant expression (GLSL 4.40,
            // `GL_ARB_enhanced_layouts`).
            let parsed =
                parsed.or_else(|| u32::try_from(crate::fold::layout_constant(text, v)?).ok());
            parsed.ok_or_else(|| format!("0:1: error: unsupported {key} value `{v}'\n"))
        })
    })
}

/// Line number (1-based) of byte `at`.
fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// A macro `#define`d before some point of the text.
struct Macro {
    name: String,
    /// The parameters of a function-like macro.
    params: Option<Vec<String>>,
    body: String,
}

/// The macros defined before byte `at` of `clean` (a later `#define` or `#undef` of a name
/// replaces an earlier one).
fn macros_at(clean: &str, at: usize) -> Vec<Macro> {
    let mut out: Vec<Macro> = Vec::new();
    for line in clean[..at].lines() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let rest = rest.trim_start();
        if let Some(d) = rest.strip_prefix("define")
            && d.starts_with([' ', '\t'])
        {
            let d = d.trim_start();
            let end = d.find(|c: char| !is_word(c as u8)).unwrap_or(d.len());
            let (name, after) = d.split_at(end);
            let (params, body) = match after.strip_prefix('(') {
                Some(a) => {
                    let Some(close) = a.find(')') else { continue };
                    let params = a[..close]
                        .split(',')
                        .map(|p| p.trim().to_string())
                        .filter(|p| !p.is_empty())
                        .collect();
                    (Some(params), &a[close + 1..])
                }
                None => (None, after),
            };
            out.retain(|m| m.name != name);
            out.push(Macro {
                name: name.to_string(),
                params,
                body: body.trim().to_string(),
            });
        } else if let Some(u) = rest.strip_prefix("undef") {
            let u = u.trim();
            out.retain(|m| m.name != u);
        }
    }
    out
}

/// The preprocessor tokens of `text`: words (identifiers and numbers), `##`, and single
/// punctuation characters.
fn tokens(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
        } else if is_word(b[i]) {
            let start = i;
            while i < b.len() && is_word(b[i]) {
                i += 1;
            }
            out.push(text[start..i].to_string());
        } else if b[i] == b'#' && b.get(i + 1) == Some(&b'#') {
            out.push("##".to_string());
            i += 2;
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c.to_string());
            i += c.len_utf8();
        }
    }
    out
}

/// `toks` with `##` pasted: each `a ## b` becomes `ab`.
fn paste(toks: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(toks.len());
    let mut join = false;
    for t in toks {
        if t == "##" {
            join = true;
        } else if join && let Some(last) = out.last_mut() {
            last.push_str(&t);
            join = false;
        } else {
            out.push(t);
            join = false;
        }
    }
    out
}

/// `toks` with the macros expanded, as the preprocessor would (arguments expanded before
/// they are substituted, but not next to `##`; the result scanned again), to a depth of 16.
fn expand(toks: &[String], macros: &[Macro], depth: u32) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let Some(m) = macros.iter().find(|m| m.name == *t).filter(|_| depth < 16) else {
            out.push(t.clone());
            i += 1;
            continue;
        };
        match &m.params {
            None => {
                out.extend(expand(&paste(tokens(&m.body)), macros, depth + 1));
                i += 1;
            }
            Some(params) => {
                if toks.get(i + 1).map(String::as_str) != Some("(") {
                    out.push(t.clone());
                    i += 1;
                    continue;
                }
                // The arguments, split at the top level's commas.
                let mut args: Vec<Vec<String>> = vec![Vec::new()];
                let mut depth_p = 0;
                let mut j = i + 2;
                while j < toks.len() {
                    match toks[j].as_str() {
                        ")" if depth_p == 0 => break,
                        "," if depth_p == 0 => {
                            args.push(Vec::new());
                            j += 1;
                            continue;
                        }
                        "(" => depth_p += 1,
                        ")" => depth_p -= 1,
                        _ => {}
                    }
                    if let Some(a) = args.last_mut() {
                        a.push(toks[j].clone());
                    }
                    j += 1;
                }
                let body = tokens(&m.body);
                let mut substituted = Vec::new();
                for (k, b) in body.iter().enumerate() {
                    match params.iter().position(|p| p == b) {
                        Some(p) => {
                            let arg = args.get(p).cloned().unwrap_or_default();
                            let pasted = (k > 0 && body[k - 1] == "##")
                                || body.get(k + 1).is_some_and(|n| n == "##");
                            if pasted {
                                substituted.extend(arg);
                            } else {
                                substituted.extend(expand(&arg, macros, depth + 1));
                            }
                        }
                        None => substituted.push(b.clone()),
                    }
                }
                out.extend(expand(&paste(substituted), macros, depth + 1));
                i = j + 1;
            }
        }
    }
    out
}

/// `text` with the macros defined before byte `at` of `clean` expanded (tokens joined by
/// spaces), or `text` itself where the shader defines none (`defines`: whether it may).
fn preprocessed<'a>(clean: &str, defines: bool, at: usize, text: &'a str) -> Cow<'a, str> {
    if !defines {
        return Cow::Borrowed(text);
    }
    let macros = macros_at(clean, at);
    if macros.is_empty() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(expand(&tokens(text), &macros, 0).join(" "))
}

/// The largest binding point (`MAX_ATOMIC_COUNTER_BUFFER_BINDINGS`, 16 as native
/// llvmpipe's, less 1).
const MAX_BINDING: u32 = MAX_BUFFERS - 1;

/// The counter declarations of `text` and where they are.
fn scan(text: &str) -> Result<(Vec<Counter>, Vec<Found>), String> {
    let clean = uncommented(text);
    let index = word_index(&clean);
    let defines = clean.contains("define");
    let mut counters: Vec<Counter> = Vec::new();
    let mut found = Vec::new();
    let mut next: Vec<(u32, u32)> = Vec::new();
    for at in words(&clean, "atomic_uint") {
        // The declaration: back to `uniform`, and a `layout(...)` before it.
        let before = clean[..at].trim_end();
        let Some(head) = before.strip_suffix("uniform") else {
            continue;
        };
        if head.as_bytes().last().copied().is_some_and(is_word) {
            continue;
        }
        let uniform_at = head.len();
        let head = head.trim_end();
        let (start, inside) = match head.strip_suffix(')') {
            Some(h) => {
                let Some(open) = h.rfind('(') else { continue };
                let l = h[..open].trim_end();
                if !l.ends_with("layout") {
                    continue;
                }
                (l.len() - "layout".len(), &h[open + 1..])
            }
            None => (uniform_at, ""),
        };
        let inside = preprocessed(&clean, defines, start, inside);
        let line = || line_of(text, at);
        let Some(end) = clean[at..].find(';').map(|e| at + e + 1) else {
            continue;
        };
        let binding = match layout_value(&inside, "binding", &clean) {
            Some(v) => v.map_err(|e| e.replacen("0:1", &format!("0:{}", line()), 1))?,
            None => {
                return Err(format!(
                    "0:{}: error: atomic counter requires a binding (layout(binding = N))\n",
                    line()
                ));
            }
        };
        if binding > MAX_BINDING {
            return Err(format!(
                "0:{}: error: layout(binding = {binding}) exceeds the maximum number of \
                 atomic counter buffer bindings ({})\n",
                line(),
                MAX_BINDING + 1
            ));
        }
        let slot = match next.iter().position(|(bb, _)| *bb == binding) {
            Some(i) => i,
            None => {
                next.push((binding, 0));
                next.len() - 1
            }
        };
        if let Some(o) = layout_value(&inside, "offset", &clean) {
            let o = o.map_err(|e| e.replacen("0:1", &format!("0:{}", line()), 1))?;
            if o % 4 != 0 {
                return Err(format!(
                    "0:{}: error: offset must be a multiple of 4 for atomic counters\n",
                    line()
                ));
            }
            next[slot].1 = o;
        }
        let declarators = preprocessed(
            &clean,
            defines,
            start,
            &clean[at + "atomic_uint".len()..end - 1],
        );
        for d in declarators
            .split(',')
            .map(str::trim)
            .filter(|d| !d.is_empty())
        {
            // An array (of arrays, ARB_arrays_of_arrays): `a[2][4]`.
            let (name, dims) = match d.split_once('[') {
                Some((n, rest)) => {
                    let rest = rest.trim_end().strip_suffix(']').unwrap_or(rest);
                    let dims =
                        rest.split(']')
                            .map(|size| {
                                let size = size.trim().trim_start_matches('[').trim();
                                size.trim_end_matches(['u', 'U']).parse::<u32>().map_err(|_| {
                                format!(
                                    "0:{}: error: array size of atomic counter `{}' must be a \
                                     constant integer literal\n",
                                    line(),
                                    n.trim()
                                )
                            })
                            })
                            .collect::<Result<Vec<u32>, String>>()?;
                    (n.trim(), dims)
                }
                None => (d, Vec::new()),
            };
            let array = if dims.is_empty() {
                0
            } else {
                dims.iter().product()
            };
            if name.is_empty() || !name.bytes().all(is_word) || name.as_bytes()[0].is_ascii_digit()
            {
                return Err(format!(
                    "0:{}: error: atomic counter `{name}' may not have an initializer\n",
                    line()
                ));
            }
            let offset = next[slot].1;
            let bytes = 4 * array.max(1);
            if let Some(other) = counters.iter().find(|c| {
                c.binding == binding
                    && c.offset < offset + bytes
                    && offset < c.offset + 4 * c.array.max(1)
            }) {
                return Err(format!(
                    "0:{}: error: atomic counter `{name}' overlaps `{}' (binding {binding}, \
                     offset {offset})\n",
                    line(),
                    other.name
                ));
            }
            let used = index
                .get(name)
                .is_some_and(|at| at.iter().any(|&u| u < start || u >= end));
            counters.push(Counter {
                name: name.to_string(),
                binding,
                offset,
                array,
                dims,
                used,
            });
            next[slot].1 = offset + bytes;
        }
        found.push(Found { range: start..end });
    }
    // Default qualifier declarations without a type (`layout(binding = 2, offset = 4)
    // uniform;`): GLSL 4.20 lets them name a binding and an offset, glslang refuses the
    // offset there, and no counter takes either from them (as in Mesa), so they go.
    for at in words(&clean, "uniform") {
        if !clean[at + "uniform".len()..].trim_start().starts_with(';') {
            continue;
        }
        let Some(h) = clean[..at].trim_end().strip_suffix(')') else {
            continue;
        };
        let Some(open) = h.rfind('(') else { continue };
        let l = h[..open].trim_end();
        let inside = &h[open + 1..];
        if !l.ends_with("layout") || !(inside.contains("binding") || inside.contains("offset")) {
            continue;
        }
        let start = l.len() - "layout".len();
        let end = at + clean[at..].find(';').map_or(0, |e| e + 1);
        found.push(Found { range: start..end });
    }
    found.sort_by_key(|f| f.range.start);
    Ok((counters, found))
}

/// The storage block declarations that stand for `counters`, one a binding, on one line:
/// binding `b`'s block holds one runtime-sized `uint` array, [`ARRAY_PREFIX`]`b`, of the
/// buffer's words (unsized, so the blocks of two stages that declare other counters of a
/// binding match at the link).
fn blocks(counters: &[Counter]) -> String {
    let mut bindings: Vec<u32> = counters.iter().map(|c| c.binding).collect();
    bindings.sort_unstable();
    bindings.dedup();
    let mut out = String::new();
    for b in bindings {
        out.push_str(&format!(
            "layout(std430) buffer {BLOCK_PREFIX}{b} {{ uint {ARRAY_PREFIX}{b}[]; }}; "
        ));
    }
    out
}

/// The name of the `uint` array that holds binding `b`'s words: this prefix, then `b`.
const ARRAY_PREFIX: &str = "tsh_ac";

/// The function that adds to a counter passed as an argument (see the module docs).
const ADD: &str = "tsh_ac_add";

/// The definition of [`ADD`] for the bindings of `counters`, on one line.
fn add_function(counters: &[Counter]) -> String {
    let mut bindings: Vec<u32> = counters.iter().map(|c| c.binding).collect();
    bindings.sort_unstable();
    bindings.dedup();
    let mut out = format!("uint {ADD}(uint c, uint v) {{ switch (c >> 16u) {{ ");
    for b in bindings {
        out.push_str(&format!(
            "case {b}u: return atomicAdd({ARRAY_PREFIX}{b}[c & 0xFFFFu], v); "
        ));
    }
    out.push_str("} return 0u; } ");
    out
}

/// The byte of the last non-blank character before `at`.
fn prev_char(text: &str, at: usize) -> Option<(usize, u8)> {
    let t = text[..at].trim_end();
    t.as_bytes().last().map(|&c| (t.len() - 1, c))
}

/// The byte of the first non-blank character at or after `at`.
fn next_char(text: &str, at: usize) -> Option<(usize, u8)> {
    let skipped = text[at..].len() - text[at..].trim_start().len();
    text.as_bytes()
        .get(at + skipped)
        .map(|&c| (at + skipped, c))
}

/// The word that ends just before `at` (blanks skipped): its start and text.
fn word_before(text: &str, at: usize) -> Option<(usize, &str)> {
    let t = text[..at].trim_end();
    let start = t.bytes().rposition(|c| !is_word(c)).map_or(0, |p| p + 1);
    (start < t.len()).then(|| (start, &t[start..]))
}

/// The matching close of the bracket at `open` (`(` or `[`).
fn matching(text: &str, open: usize) -> Option<usize> {
    let b = text.as_bytes();
    let (o, c) = (b[open], if b[open] == b'(' { b')' } else { b']' });
    let mut depth = 0;
    for (i, &x) in b.iter().enumerate().skip(open) {
        if x == o {
            depth += 1;
        } else if x == c {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// Whether byte `at` is on a preprocessor line.
fn on_directive(text: &str, at: usize) -> bool {
    let line = text[..at].rfind('\n').map_or(0, |p| p + 1);
    text[line..].trim_start().starts_with('#')
}

/// A function parameter of type `atomic_uint`.
struct Param {
    /// The function's name.
    function: String,
    /// The parameter's name.
    name: String,
    /// The byte range of the function's body, if the declaration has one.
    body: Option<std::ops::Range<usize>>,
    /// Where `atomic_uint` is.
    at: usize,
}

/// The `atomic_uint` parameters of the functions `clean` declares, or the compile error of
/// an `out` or `inout` one (GLSL 4.20 §4.1.7.3: counters are only passed in).
fn params(clean: &str, text: &str) -> Result<Vec<Param>, String> {
    let mut out = Vec::new();
    for at in words(clean, "atomic_uint") {
        // Back over the qualifiers to `(` or `,`.
        let mut p = at;
        let mut direction = "in";
        loop {
            match word_before(clean, p) {
                Some((s, w))
                    if matches!(
                        w,
                        "in" | "out"
                            | "inout"
                            | "const"
                            | "highp"
                            | "mediump"
                            | "lowp"
                            | "coherent"
                            | "volatile"
                            | "restrict"
                    ) =>
                {
                    if matches!(w, "out" | "inout") {
                        direction = w;
                    }
                    p = s;
                }
                _ => break,
            }
        }
        if !matches!(prev_char(clean, p), Some((_, b'(' | b','))) {
            continue;
        }
        let line = line_of(text, at);
        if direction != "in" {
            return Err(format!(
                "0:{line}: error: an atomic counter function parameter may not be `{direction}'\n"
            ));
        }
        let after = at + "atomic_uint".len();
        let Some((name_at, _)) = next_char(clean, after) else {
            continue;
        };
        let name_end = clean[name_at..]
            .bytes()
            .position(|c| !is_word(c))
            .map_or(clean.len(), |e| name_at + e);
        // The enclosing `(`: back from the parameter, nesting counted.
        let mut depth = 0;
        let mut open = None;
        for (i, c) in clean[..at].bytes().enumerate().rev() {
            match c {
                b')' => depth += 1,
                b'(' if depth == 0 => {
                    open = Some(i);
                    break;
                }
                b'(' => depth -= 1,
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let Some((_, function)) = word_before(clean, open) else {
            continue;
        };
        let body = matching(clean, open)
            .and_then(|close| next_char(clean, close + 1))
            .filter(|&(_, c)| c == b'{')
            .and_then(|(brace, _)| Some(brace..matching_brace(clean, brace)? + 1));
        out.push(Param {
            function: function.to_string(),
            name: clean[name_at..name_end].to_string(),
            body,
            at,
        });
    }
    Ok(out)
}

/// The matching `}` of the `{` at `open`.
fn matching_brace(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in text.bytes().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The counter built-in functions: name, text before the counter's word, text after it.
const FUNCTIONS: [(&str, &str, &str); 3] = [
    ("atomicCounterIncrement", "", ", 1u)"),
    ("atomicCounterDecrement", "(", ", 0xFFFFFFFFu) - 1u)"),
    ("atomicCounter", "", ", 0u)"),
];

/// The operations of `ARB_shader_atomic_counter_ops` (GLSL 4.60's names; the extension's
/// end in `ARB`): name, the storage-buffer atomic that carries it out, and the suffix of
/// the function that does it to a counter passed as an argument ([`op_function`]). Each
/// returns the counter's value before the operation, as the atomic does;
/// `atomicCounterSubtract` adds the negated value (`0u - (data)`).
const OPS: [(&str, &str, &str); 9] = [
    ("atomicCounterAdd", "atomicAdd", "add"),
    ("atomicCounterSubtract", "atomicAdd", "add"),
    ("atomicCounterMin", "atomicMin", "min"),
    ("atomicCounterMax", "atomicMax", "max"),
    ("atomicCounterAnd", "atomicAnd", "and"),
    ("atomicCounterOr", "atomicOr", "or"),
    ("atomicCounterXor", "atomicXor", "xor"),
    ("atomicCounterExchange", "atomicExchange", "exchange"),
    ("atomicCounterCompSwap", "atomicCompSwap", "compswap"),
];

/// The operation named `w`, where the shader has it: the `ARB` names where it enables
/// `GL_ARB_shader_atomic_counter_ops`, GLSL 4.60's in a GLSL 4.60 shader (not through the
/// extension, as native Mesa declares them; `ops`: those two conditions).
fn op(w: &str, ops: (bool, bool)) -> Option<&'static (&'static str, &'static str, &'static str)> {
    OPS.iter().find(|o| match w.strip_suffix("ARB") {
        Some(base) => ops.0 && base == o.0,
        None => ops.1 && w == o.0,
    })
}

/// Which of [`OPS`]' names `clean` has (see [`op`]): (the `ARB` names, GLSL 4.60's).
fn ops_available(clean: &str) -> (bool, bool) {
    const NAME: &str = "GL_ARB_shader_atomic_counter_ops";
    let mut enabled = false;
    if clean.contains(NAME) {
        for line in crate::source::code_lines(clean) {
            if line.directive != Some("extension") {
                continue;
            }
            let words: Vec<&str> = line.content[1..]
                .split(|c: char| c.is_whitespace() || c == ':')
                .filter(|w| !w.is_empty())
                .collect();
            if let ["extension", name, behavior] = words[..]
                && (name == NAME || name == "all")
            {
                enabled = behavior != "disable";
            }
        }
    }
    let v460 = crate::version::number_at(clean).is_some_and(|(_, n)| n == "460");
    (enabled, v460)
}

/// The name of the function that applies operation `suffix` ([`OPS`]) to a counter passed
/// as an argument.
fn op_name(suffix: &str) -> String {
    format!("tsh_ac_{suffix}")
}

/// The definition of the function that applies operation `o` ([`OPS`]) to a counter passed
/// as an argument (its binding in the high 16 bits, its word in the low), on one line: a
/// switch over the bindings of `counters`, as [`add_function`]'s.
fn op_function(counters: &[Counter], o: &(&str, &str, &str)) -> String {
    let mut bindings: Vec<u32> = counters.iter().map(|c| c.binding).collect();
    bindings.sort_unstable();
    bindings.dedup();
    let (params, args) = if o.2 == "compswap" {
        ("uint c, uint v, uint w", "v, w")
    } else {
        ("uint c, uint v", "v")
    };
    let mut out = format!("uint {}({params}) {{ switch (c >> 16u) {{ ", op_name(o.2));
    for b in bindings {
        out.push_str(&format!(
            "case {b}u: return {}({ARRAY_PREFIX}{b}[c & 0xFFFFu], {args}); ",
            o.1
        ));
    }
    out.push_str("} return 0u; } ");
    out
}

/// What a counter is: a global one (binding, first word, array size) or a parameter.
enum Target<'a> {
    Global(&'a Counter),
    Param,
}

/// The edits that turn the uses of the counters (and of the `atomic_uint` parameters) into
/// storage-buffer atomics: (byte range, replacement). `Err` is the compile error of a use GL
/// does not allow (an assignment, an operand, a conversion: GLSL 4.20 §4.1.7 lets a counter
/// be only a function's argument).
fn uses(
    clean: &str,
    text: &str,
    counters: &[Counter],
    params: &[Param],
    found: &[Found],
) -> Result<Vec<(std::ops::Range<usize>, String)>, String> {
    let mut edits = Vec::new();
    let takes_counters = |f: &str| params.iter().any(|p| p.function == f);
    let ops = ops_available(clean);
    // Object-like macros that name a counter function (`#define OP atomicCounter`).
    let aliases: Vec<(String, String)> = if clean.contains("define") {
        macros_at(clean, clean.len())
            .into_iter()
            .filter(|m| m.params.is_none())
            .filter(|m| FUNCTIONS.iter().any(|f| f.0 == m.body) || op(&m.body, ops).is_some())
            .map(|m| (m.name, m.body))
            .collect()
    } else {
        Vec::new()
    };
    let alias = |w: &str| -> String {
        aliases
            .iter()
            .find(|a| a.0 == w)
            .map_or_else(|| w.to_string(), |a| a.1.clone())
    };
    let function = |w: &str| {
        let w = alias(w);
        FUNCTIONS.iter().find(|f| f.0 == w)
    };
    let index = word_index(clean);
    let mut refs: Vec<(usize, &str, Target)> = Vec::new();
    for c in counters {
        for &at in index.get(c.name.as_str()).into_iter().flatten() {
            let in_param_body = params
                .iter()
                .any(|p| p.name == c.name && p.body.as_ref().is_some_and(|b| b.contains(&at)));
            if !found.iter().any(|f| f.range.contains(&at)) && !in_param_body {
                refs.push((at, &c.name, Target::Global(c)));
            }
        }
    }
    for p in params {
        if let Some(body) = &p.body {
            let all = index.get(p.name.as_str()).into_iter().flatten();
            for &at in all.filter(|at| body.contains(at)) {
                refs.push((at, &p.name, Target::Param));
            }
        }
    }
    for (at, name, target) in refs {
        // Not a use: in a directive, a member (`s.x`), or a declaration of another variable
        // of the name (`int x`).
        if on_directive(clean, at)
            || matches!(prev_char(clean, at), Some((_, b'.')))
            || word_before(clean, at).is_some_and(|(_, w)| w != "return")
        {
            continue;
        }
        let invalid = || {
            let line = line_of(text, at);
            format!("0:{line}: error: invalid use of atomic counter `{name}'\n")
        };
        // The reference: the name and its indices (one a dimension of an array of arrays).
        let mut end = at + name.len();
        let mut indices: Vec<&str> = Vec::new();
        while let Some((open, b'[')) = next_char(clean, end) {
            let close = matching(clean, open).ok_or_else(invalid)?;
            indices.push(clean[open + 1..close].trim());
            end = close + 1;
        }
        // The element, row-major: `a[i][j]` of `a[2][4]` is `uint(i) * 4u + uint(j)`.
        let element = |c: &Counter| {
            let mut e = format!("uint({})", indices[0]);
            for (i, d) in indices.iter().zip(&c.dims).skip(1) {
                e = format!("({e} * {}u + uint({i}))", d);
            }
            e
        };
        let (word, arg) = match target {
            Target::Global(c) if c.array == 0 && indices.is_empty() => (
                format!("{ARRAY_PREFIX}{}[{}]", c.binding, c.offset / 4),
                format!("{}u", (c.binding << 16) + c.offset / 4),
            ),
            Target::Global(c) if c.array > 0 && indices.len() == c.dims.len() => (
                format!(
                    "{ARRAY_PREFIX}{}[{}u + {}]",
                    c.binding,
                    c.offset / 4,
                    element(c)
                ),
                format!("({}u + {})", (c.binding << 16) + c.offset / 4, element(c)),
            ),
            Target::Param if indices.is_empty() => (String::new(), name.to_string()),
            _ => return Err(invalid()),
        };
        // Out through parentheses that only group, to the call it is an argument of.
        let (mut s, mut e) = (at, end);
        let edit = loop {
            let before = prev_char(clean, s).ok_or_else(invalid)?;
            let after = next_char(clean, e).ok_or_else(invalid)?;
            match (before.1, after.1) {
                (b'(', b')') => match word_before(clean, before.0) {
                    None => {
                        s = before.0;
                        e = after.0 + 1;
                    }
                    Some((ws, w)) => {
                        if let Some((_, pre, post)) = function(w) {
                            let call = match target_is_param(&word) {
                                true => format!("{pre}{ADD}({arg}{post}"),
                                false => format!("{pre}atomicAdd({word}{post}"),
                            };
                            break (ws..after.0 + 1, call);
                        }
                        if takes_counters(w) {
                            break (at..end, arg);
                        }
                        return Err(invalid());
                    }
                },
                (b'(' | b',', b')' | b',') => {
                    // An argument among several: the call's name.
                    let mut depth = 0;
                    let mut open = None;
                    for (i, c) in clean[..s].bytes().enumerate().rev() {
                        match c {
                            b')' => depth += 1,
                            b'(' if depth == 0 => {
                                open = Some(i);
                                break;
                            }
                            b'(' => depth -= 1,
                            _ => {}
                        }
                    }
                    match open.and_then(|o| word_before(clean, o).map(|w| (o, w))) {
                        Some((_, (_, w))) if takes_counters(w) => break (at..end, arg),
                        // The counter of an operation (its first argument): the call's
                        // name and the counter become the atomic's and the word, or the
                        // parameter's function and the parameter.
                        Some((o, (ws, w)))
                            if before.1 == b'('
                                && after.1 == b','
                                && let Some(f) = op(&alias(w), ops) =>
                        {
                            let subtract = f.0 == "atomicCounterSubtract";
                            let head = match target_is_param(&word) {
                                true if f.2 == "add" => format!("{ADD}({arg}"),
                                true => format!("{}({arg}", op_name(f.2)),
                                false => format!("{}({word}", f.1),
                            };
                            if !subtract {
                                break (ws..e, head);
                            }
                            let close = matching(clean, o).ok_or_else(invalid)?;
                            edits.push((close..close + 1, "))".to_string()));
                            break (ws..after.0 + 1, format!("{head}, 0u - ("));
                        }
                        _ => return Err(invalid()),
                    }
                }
                _ => return Err(invalid()),
            }
        };
        edits.push(edit);
    }
    Ok(edits)
}

/// Whether a rewritten counter word stands for a parameter (which has none).
fn target_is_param(word: &str) -> bool {
    word.is_empty()
}

/// `MAX_*_ATOMIC_COUNTERS` and `MAX_COMBINED_ATOMIC_COUNTERS`, as native llvmpipe's.
const MAX_COUNTERS: u32 = 4096;

/// `MAX_*_ATOMIC_COUNTER_BUFFERS`, as native llvmpipe's.
const MAX_BUFFERS: u32 = 16;

/// `MAX_COMBINED_ATOMIC_COUNTER_BUFFERS`: [`MAX_BUFFERS`] for each of the five graphics
/// stages, as Mesa sums it.
const MAX_COMBINED_BUFFERS: u32 = 5 * MAX_BUFFERS;

/// Mesa's link checks of a program's active counters (each with the stages that use it, a
/// bit per [`crate::Stage`]) against the limits: the counters (array elements each) and
/// binding points each stage uses, the counters of all stages together (one that two stages
/// use counts twice) and the binding points of the program.
pub(crate) fn check_limits(active: &[(Counter, u8)]) -> Result<(), String> {
    const NAMES: [&str; 6] = [
        "vertex",
        "geometry",
        "fragment",
        "compute",
        "tessellation control",
        "tessellation evaluation",
    ];
    let mut combined = 0;
    for (bit, name) in NAMES.iter().enumerate() {
        let mine = || active.iter().filter(|(_, s)| s & (1 << bit) != 0);
        let counters: u32 = mine().map(|(c, _)| c.array.max(1)).sum();
        let mut bindings: Vec<u32> = mine().map(|(c, _)| c.binding).collect();
        bindings.sort_unstable();
        bindings.dedup();
        if counters > MAX_COUNTERS {
            return Err(format!("error: Too many {name} shader atomic counters\n"));
        }
        if bindings.len() as u32 > MAX_BUFFERS {
            return Err(format!(
                "error: Too many {name} shader atomic counter buffers\n"
            ));
        }
        combined += counters;
    }
    if combined > MAX_COUNTERS {
        return Err("error: Too many combined atomic counters\n".to_string());
    }
    let mut bindings: Vec<u32> = active.iter().map(|(c, _)| c.binding).collect();
    bindings.sort_unstable();
    bindings.dedup();
    if bindings.len() as u32 > MAX_COMBINED_BUFFERS {
        return Err("error: Too many combined atomic buffers\n".to_string());
    }
    Ok(())
}

/// GLSL 4.20's built-in constants of atomic counter limits that do not depend on the
/// backend, which glslang declares only for OpenGL targets, not the Vulkan SPIR-V Tessera
/// asks for: the engine's fixed limits (`MAX_*_ATOMIC_COUNTERS`,
/// `MAX_ATOMIC_COUNTER_BUFFER_BINDINGS`, `MAX_ATOMIC_COUNTER_BUFFER_SIZE`), as native
/// llvmpipe's.
const CONSTANTS: &[(&str, &str)] = &[
    ("gl_MaxVertexAtomicCounters", "4096"),
    ("gl_MaxTessControlAtomicCounters", "4096"),
    ("gl_MaxTessEvaluationAtomicCounters", "4096"),
    ("gl_MaxGeometryAtomicCounters", "4096"),
    ("gl_MaxFragmentAtomicCounters", "4096"),
    ("gl_MaxComputeAtomicCounters", "4096"),
    ("gl_MaxCombinedAtomicCounters", "4096"),
    ("gl_MaxAtomicCounterBindings", "16"),
    ("gl_MaxAtomicCounterBufferSize", "16384"),
];

/// The text with the [`CONSTANTS`] it names as their values, or `None` if it names none.
fn constants(text: &str) -> Option<String> {
    let mut found: Vec<(usize, &str, &str)> = CONSTANTS
        .iter()
        .flat_map(|&(name, value)| words(text, name).map(move |at| (at, name, value)))
        .collect();
    if found.is_empty() {
        return None;
    }
    found.sort_unstable();
    let mut out = text.to_string();
    for (at, name, value) in found.into_iter().rev() {
        out.replace_range(at..at + name.len(), value);
    }
    Some(out)
}

/// The text glslang reads for a shader that declares atomic counters (see the module docs)
/// or names the built-in constants of their limits; the text itself for one that does
/// neither. `Err` is the compile log of a declaration GL refuses.
pub(crate) fn lower(text: &str) -> Result<Cow<'_, str>, String> {
    match constants(text) {
        Some(text) => Ok(Cow::Owned(lower_counters(&text)?.into_owned())),
        None => lower_counters(text),
    }
}

/// [`lower`]'s work on the counters.
fn lower_counters(text: &str) -> Result<Cow<'_, str>, String> {
    if !text.contains("atomic_uint") {
        return Ok(Cow::Borrowed(text));
    }
    let (counters, found) = scan(text)?;
    let clean = uncommented(text);
    let params = params(&clean, text)?;
    if found.is_empty() && params.is_empty() {
        return Ok(Cow::Borrowed(text));
    }
    let mut edits = uses(&clean, text, &counters, &params, &found)?;
    for p in &params {
        edits.push((p.at..p.at + "atomic_uint".len(), "uint".to_string()));
    }
    for (k, f) in found.iter().enumerate() {
        // Blanked, newlines kept; the blocks (and the function that adds to a counter
        // passed as an argument) where the first declaration was.
        let mut blank: String = clean[f.range.clone()]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        if k == 0 {
            let add = if params.is_empty() {
                String::new()
            } else {
                // The adding function, and one for each other operation the shader names.
                let mut add = add_function(&counters);
                let ops = ops_available(&clean);
                let index = word_index(&clean);
                for o in OPS.iter().filter(|o| o.2 != "add") {
                    if index.keys().any(|w| op(w, ops).is_some_and(|f| f.2 == o.2)) {
                        add.push_str(&op_function(&counters, o));
                    }
                }
                add
            };
            blank = format!("{}{add}{blank}", blocks(&counters));
        }
        edits.push((f.range.clone(), blank));
    }
    edits.sort_by_key(|(r, _)| (r.start, r.end));
    if edits.windows(2).any(|w| w[0].0.end > w[1].0.start) {
        let line = line_of(text, edits[0].0.start);
        return Err(format!(
            "0:{line}: error: unsupported nesting of atomic counter uses\n"
        ));
    }
    let mut out = clean;
    for (r, s) in edits.into_iter().rev() {
        out.replace_range(r, &s);
    }
    loop {
        let Some(at) = words(&out, "memoryBarrierAtomicCounter").next() else {
            break;
        };
        out.replace_range(
            at..at + "memoryBarrierAtomicCounter".len(),
            "memoryBarrierBuffer",
        );
    }
    if let Some((at, number)) = crate::version::number_at(&out)
        && matches!(
            number.as_str(),
            "140" | "150" | "330" | "400" | "410" | "420"
        )
    {
        out.replace_range(at..at + 3, "430");
    }
    Ok(Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_follow_glsl_4_20() {
        let src = "#version 420\n\
            layout(binding = 0, offset = 4) uniform atomic_uint a;\n\
            layout(binding = 0) uniform atomic_uint b[2], c;\n\
            layout(binding = 1) uniform atomic_uint d;\n\
            // layout(binding = 3) uniform atomic_uint commented;\n\
            void main() { atomicCounterIncrement(a); atomicCounterDecrement(b[1]); }\n";
        let c = counters(src).unwrap();
        let got: Vec<_> = c
            .iter()
            .map(|c| (c.name.as_str(), c.binding, c.offset, c.array, c.used))
            .collect();
        assert_eq!(
            got,
            [
                ("a", 0, 4, 0, true),
                ("b", 0, 8, 2, true),
                ("c", 0, 16, 0, false),
                ("d", 1, 0, 0, false)
            ]
        );
        let lowered = lower(src).unwrap();
        assert_eq!(lowered.lines().count(), src.lines().count());
        assert!(lowered.starts_with("#version 430\n"));
        assert!(lowered.contains(
            "layout(std430) buffer TesseraAtomicCounters0 { uint tsh_ac0[]; }; \
             layout(std430) buffer TesseraAtomicCounters1 { uint tsh_ac1[]; }; "
        ));
        assert!(
            lowered.contains(
                "atomicAdd(tsh_ac0[1], 1u); (atomicAdd(tsh_ac0[2u + uint(1)], 0xFFFFFFFFu) - 1u);"
            ),
            "{lowered}"
        );
    }

    #[test]
    fn arrays_of_arrays_are_row_major() {
        let src = "#version 140\n\
            #extension GL_ARB_arrays_of_arrays: require\n\
            layout(binding = 0, offset = 4) uniform atomic_uint a[2][4], b;\n\
            uniform int n; uniform int m;\n\
            void main() { atomicCounterIncrement(a[n][m]); atomicCounter(a[1][2]); }\n";
        let c = counters(src).unwrap();
        assert_eq!(c[0].dims, [2, 4]);
        assert_eq!((c[0].array, c[1].offset), (8, 36));
        let lowered = lower(src).unwrap();
        assert!(
            lowered.contains(
                "atomicAdd(tsh_ac0[1u + (uint(n) * 4u + uint(m))], 1u); \
                 atomicAdd(tsh_ac0[1u + (uint(1) * 4u + uint(2))], 0u);"
            ),
            "{lowered}"
        );
        // Every dimension must be indexed.
        let partial = src.replace("a[1][2]", "a[1]");
        assert!(
            lower(&partial)
                .unwrap_err()
                .contains("invalid use of atomic counter `a'")
        );
    }

    #[test]
    fn counters_as_function_arguments() {
        let src = "#version 140\n\
            layout(binding = 0, offset = 0) uniform atomic_uint x;\n\
            layout(binding = 2, offset = 4) uniform atomic_uint y[2];\n\
            uint f(atomic_uint z, uint k) { return atomicCounterIncrement(z) + k; }\n\
            uint g(const in atomic_uint z) { return f(z, 1u) + atomicCounter((z)); }\n\
            void main() { uint a = f(x, 2u) + g(y[1]) + atomicCounterDecrement(y[0]); }\n";
        let lowered = lower(src).unwrap();
        assert_eq!(lowered.lines().count(), src.lines().count());
        let lines: Vec<&str> = lowered.lines().collect();
        assert!(lines[1].contains(
            "uint tsh_ac_add(uint c, uint v) { switch (c >> 16u) { \
             case 0u: return atomicAdd(tsh_ac0[c & 0xFFFFu], v); \
             case 2u: return atomicAdd(tsh_ac2[c & 0xFFFFu], v); } return 0u; }"
        ));
        assert_eq!(
            lines[3],
            "uint f(uint z, uint k) { return tsh_ac_add(z, 1u) + k; }"
        );
        assert_eq!(
            lines[4],
            "uint g(const in uint z) { return f(z, 1u) + tsh_ac_add(z, 0u); }"
        );
        assert_eq!(
            lines[5],
            "void main() { uint a = f(0u, 2u) + g((131073u + uint(1))) + \
             (atomicAdd(tsh_ac2[1u + uint(0)], 0xFFFFFFFFu) - 1u); }"
        );
        let out = "#version 140\nlayout(binding = 0) uniform atomic_uint x;\n\
            void f(inout atomic_uint y) {}\nvoid main() {}\n";
        assert!(lower(out).unwrap_err().starts_with("0:3: error"));
    }

    #[test]
    fn operations_become_storage_atomics() {
        let src = "#version 140\n\
            #extension GL_ARB_shader_atomic_counter_ops : require\n\
            layout(binding = 1, offset = 4) uniform atomic_uint a, b[2];\n\
            uniform uint d;\n\
            void main() { uint x = atomicCounterAddARB(a, d) + atomicCounterSubtractARB(b[1], d + 1u);\n\
            x += atomicCounterMinARB((a), 3u) + atomicCounterCompSwapARB(b[0], d, 7u);\n\
            x += atomicCounterExchangeARB(a, atomicCounterXorARB(b[1], 1u)); }\n";
        let lowered = lower(src).unwrap();
        assert_eq!(lowered.lines().count(), src.lines().count());
        let lines: Vec<&str> = lowered.lines().collect();
        assert_eq!(
            lines[4],
            "void main() { uint x = atomicAdd(tsh_ac1[1], d) + \
             atomicAdd(tsh_ac1[2u + uint(1)], 0u - ( d + 1u));"
        );
        assert_eq!(
            lines[5],
            "x += atomicMin(tsh_ac1[1], 3u) + atomicCompSwap(tsh_ac1[2u + uint(0)], d, 7u);"
        );
        assert_eq!(
            lines[6],
            "x += atomicExchange(tsh_ac1[1], atomicXor(tsh_ac1[2u + uint(1)], 1u)); }"
        );
        // Without the extension the functions are not there (GLSL 4.60 has the names
        // without `ARB`, which the extension does not declare), and a counter passed to them
        // is a use GL does not allow.
        let off = src.replace("require", "disable");
        assert!(
            lower(&off)
                .unwrap_err()
                .contains("invalid use of atomic counter")
        );
        let plain = src.replace("atomicCounterMinARB", "atomicCounterMin");
        assert!(
            lower(&plain)
                .unwrap_err()
                .contains("invalid use of atomic counter")
        );
        let v460 = "#version 460\nlayout(binding = 0) uniform atomic_uint a;\n\
            void main() { atomicCounterOr(a, 2u); }\n";
        assert!(lower(v460).unwrap().contains("atomicOr(tsh_ac0[0], 2u);"));
        assert!(lower(&v460.replace("Or(", "OrARB(")).is_err());
        // The counter is the first argument, never the data.
        let data = "#version 460\nlayout(binding = 0) uniform atomic_uint a, b;\n\
            void main() { atomicCounterAdd(a, b); }\n";
        assert!(lower(data).is_err());
    }

    #[test]
    fn operations_on_counters_passed_as_arguments() {
        let src = "#version 460\n\
            layout(binding = 0) uniform atomic_uint x;\n\
            layout(binding = 2, offset = 4) uniform atomic_uint y;\n\
            uint f(atomic_uint z, uint k) { return atomicCounterSubtract(z, k) + atomicCounterMax(z, k) + atomicCounterCompSwap(z, k, 1u); }\n\
            void main() { f(x, 1u); f(y, 2u); }\n";
        let lowered = lower(src).unwrap();
        let lines: Vec<&str> = lowered.lines().collect();
        assert!(lines[1].contains(
            "uint tsh_ac_max(uint c, uint v) { switch (c >> 16u) { \
             case 0u: return atomicMax(tsh_ac0[c & 0xFFFFu], v); \
             case 2u: return atomicMax(tsh_ac2[c & 0xFFFFu], v); } return 0u; }"
        ));
        assert!(lines[1].contains(
            "uint tsh_ac_compswap(uint c, uint v, uint w) { switch (c >> 16u) { \
             case 0u: return atomicCompSwap(tsh_ac0[c & 0xFFFFu], v, w); "
        ));
        assert!(!lines[1].contains("tsh_ac_min"));
        assert_eq!(
            lines[3],
            "uint f(uint z, uint k) { return tsh_ac_add(z, 0u - ( k)) + tsh_ac_max(z, k) + \
             tsh_ac_compswap(z, k, 1u); }"
        );
        assert_eq!(lines[4], "void main() { f(0u, 1u); f(131073u, 2u); }");
    }

    #[test]
    fn counters_are_only_arguments() {
        for (body, ok) in [
            ("x = 0;", false),
            ("x++;", false),
            ("x = y;", false),
            ("float f = float(x);", false),
            ("int i = 1 + x;", false),
            ("bool b = (x == 0u);", false),
            ("if (x) {}", false),
            ("uint u = atomicCounter((x)) + atomicCounter(y);", true),
            ("uint u = atomicCounterIncrement(x); s.x = 1;", true),
        ] {
            let src = format!(
                "#version 140\nlayout(binding=0) uniform atomic_uint x;\n\
                 layout(binding=0) uniform atomic_uint y;\nstruct S {{ int x; }} s;\n\
                 void main() {{\n{body}\n}}\n"
            );
            match lower(&src) {
                Ok(_) => assert!(ok, "{body} lowered"),
                Err(e) => assert!(!ok && e.starts_with("0:6: error"), "{body}: {e}"),
            }
        }
    }

    #[test]
    fn default_declarations_macros_and_repeated_qualifiers() {
        let src = "#version 140\n#define PASTE(A,B) A ## B\n#define Y(I) PASTE(y, I)\n\
            layout(binding=7, binding=2, offset=4) uniform;\n\
            #define I 3\nlayout(binding=I, offset=0) uniform atomic_uint Y(I);\n#undef I\n\
            layout(binding=2) uniform atomic_uint x4;\n\
            layout(binding=7, offset=8, offset=0) uniform atomic_uint x5;\n\
            void main() { atomicCounter(y3); atomicCounter(x4); atomicCounter(x5); }\n";
        let c = counters(src).unwrap();
        let got: Vec<_> = c
            .iter()
            .map(|c| (c.name.as_str(), c.binding, c.offset, c.used))
            .collect();
        assert_eq!(
            got,
            [("y3", 3, 0, true), ("x4", 2, 0, true), ("x5", 7, 0, true)]
        );
        let lowered = lower(src).unwrap();
        assert!(!lowered.contains("uniform;"), "{lowered}");
        assert!(lowered.contains("atomicAdd(tsh_ac3[0], 0u); atomicAdd(tsh_ac2[0], 0u);"));
        let op = "#version 140\n#define OP atomicCounterDecrement\n\
            layout(binding = 0) uniform atomic_uint x;\nvoid main() { uint y = OP(x); }\n";
        assert!(
            lower(op)
                .unwrap()
                .contains("uint y = (atomicAdd(tsh_ac0[0], 0xFFFFFFFFu) - 1u);")
        );
        let init = "#version 140\nlayout(binding=0) uniform atomic_uint x = 0;\nvoid main() {}\n";
        assert!(lower(init).unwrap_err().starts_with("0:2: error"));
        let high = "#version 140\nlayout(binding=16) uniform atomic_uint x;\nvoid main() {}\n";
        assert!(lower(high).unwrap_err().starts_with("0:2: error"));
    }

    /// piglit's max-counters: as many counters and binding points as the limits allow link
    /// (16 binding points in each of two stages), one more counter than a stage or the
    /// program may have does not.
    #[test]
    fn link_limits() {
        use crate::{LinkRequest, Stage, link};
        let shader = |stage: Stage, n: u32, bindings: bool, offset: u32| {
            let c = if stage == Stage::Vertex { "v" } else { "f" };
            let mut s = String::from("#version 140\n");
            for i in 0..n {
                let b = if bindings {
                    i
                } else {
                    u32::from(stage == Stage::Vertex)
                };
                s.push_str(&format!(
                    "layout(binding={b}, offset={}) uniform atomic_uint {c}{i};\n",
                    if bindings { offset } else { offset + 4 * i }
                ));
            }
            s.push_str("out vec4 o;\nvoid main() { uint x = 0u;\n");
            for i in 0..n {
                s.push_str(&format!("x += atomicCounterDecrement({c}{i});\n"));
            }
            s.push_str("o = vec4(float(x)); }\n");
            s
        };
        let linked = |vs: &str, fs: &str| {
            link(&LinkRequest {
                shaders: &[(Stage::Vertex, vs), (Stage::Fragment, fs)],
                attrib_bindings: &[],
                frag_data_bindings: &[],
                limits: crate::Limits::default(),
                xfb_varyings: &[],
                xfb_separate: false,
                separable: false,
            })
            .map(drop)
        };
        let vs16 = shader(Stage::Vertex, 16, true, 4);
        let fs16 = shader(Stage::Fragment, 16, true, 0);
        linked(&vs16, &fs16).unwrap();
        let fs_max = shader(Stage::Fragment, MAX_COUNTERS, false, 0);
        let vs1 = shader(Stage::Vertex, 1, false, 0);
        let err = linked(&vs1, &fs_max).unwrap_err();
        assert!(err.contains("Too many combined atomic counters"), "{err}");
        let fs_over = shader(Stage::Fragment, MAX_COUNTERS + 1, false, 0);
        let err = linked(&vs1, &fs_over).unwrap_err();
        assert!(
            err.contains("Too many fragment shader atomic counters"),
            "{err}"
        );
    }

    #[test]
    fn limit_constants_become_their_values() {
        let src = "#version 150\nout ivec4 c;\nvoid main() {\n\
            c.x = gl_MaxFragmentAtomicCounters + gl_MaxAtomicCounterBindings;\n\
            c.y = gl_MaxAtomicCounterBufferSize + my_gl_MaxAtomicCounterBindings; }\n";
        let lowered = lower(src).unwrap();
        assert_eq!(
            lowered,
            "#version 150\nout ivec4 c;\nvoid main() {\nc.x = 4096 + 16;\n\
             c.y = 16384 + my_gl_MaxAtomicCounterBindings; }\n"
        );
        assert!(matches!(lower("void main() {}"), Ok(Cow::Borrowed(_))));
    }

    #[test]
    fn overlap_and_missing_binding_fail() {
        let overlap = "#version 420\nlayout(binding = 0, offset = 0) uniform atomic_uint a[2];\n\
            layout(binding = 0, offset = 4) uniform atomic_uint b;\nvoid main() {}\n";
        assert!(lower(overlap).unwrap_err().starts_with("0:3: error"));
        let unbound = "#version 420\nuniform atomic_uint a;\nvoid main() {}\n";
        assert!(lower(unbound).unwrap_err().starts_with("0:2: error"));
    }
}

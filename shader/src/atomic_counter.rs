//! Atomic counters (GL 4.2's `ARB_shader_atomic_counters`) as storage-buffer atomics.
//!
//! SPIR-V for Vulkan has no atomic counters (glslang refuses `atomic_uint` for Vulkan
//! targets), and OpenGL ES drivers reach the SPIR-V through SPIRV-Cross, so the shader text
//! is rewritten before glslang reads it ([`lower`]):
//! - each `layout(binding = b, offset = o) uniform atomic_uint c;` (arrays too) is blanked
//!   (newlines kept, so lines stay), and the counters of each binding `b` become members of
//!   one anonymous std430 storage block, [`BLOCK_PREFIX`]`b`, declared where the first
//!   counter was: `uint`s at their offsets (padding arrays fill the gaps), so the block's
//!   bytes are the counter buffer's;
//! - `atomicCounterIncrement(c)` becomes `atomicAdd(c, 1u)` (the old value, as GL returns
//!   it), `atomicCounterDecrement(c)` `(atomicAdd(c, 0xFFFFFFFFu) - 1u)` (GL returns the new
//!   value) and `atomicCounter(c)` `atomicAdd(c, 0u)`; `memoryBarrierAtomicCounter()`
//!   becomes `memoryBarrierBuffer()`;
//! - the shader is read as GLSL 4.30 (storage blocks are 4.30's in glslang);
//! - the built-in constants of the fixed limits (`gl_MaxFragmentAtomicCounters`, ...), which
//!   glslang declares only for OpenGL targets, become their values (in any shader).
//!
//! Offsets follow GLSL 4.20 §4.4.4.1: a counter without `offset` takes the next one after
//! the previous counter of its binding in the shader (4 bytes a counter); a declaration
//! without a name only moves that offset. The link finds the blocks by their names and
//! reports their counters as GL's atomic counters and atomic counter buffers (the engine
//! binds the `ATOMIC_COUNTER_BUFFER` binding points to their storage slots).
//!
//! Not carried out: `atomic_uint` function parameters (glslang's error), and GLSL 4.60's
//! `atomicCounterAdd` family.

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
    /// Array size (0 for a counter that is no array).
    pub array: u32,
    /// Whether the shader uses it after its declaration.
    pub used: bool,
}

/// What the declarations of one shader say: its counters, or the compile error Mesa gives.
pub(crate) fn counters(text: &str) -> Result<Vec<Counter>, String> {
    Ok(scan(text)?.0)
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
fn layout_value(inside: &str, key: &str) -> Option<Result<u32, String>> {
    inside.split(',').find_map(|q| {
        let (k, v) = q.split_once('=')?;
        (k.trim() == key).then(|| {
            let v = v.trim();
            let parsed = if let Some(h) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
                u32::from_str_radix(h.trim_end_matches(['u', 'U']), 16).ok()
            } else {
                v.trim_end_matches(['u', 'U']).parse().ok()
            };
            parsed.ok_or_else(|| format!("0:1: error: unsupported {key} value `{v}'\n"))
        })
    })
}

/// Line number (1-based) of byte `at`.
fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// The counter declarations of `text` and where they are.
fn scan(text: &str) -> Result<(Vec<Counter>, Vec<Found>), String> {
    let clean = uncommented(text);
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
        let line = line_of(text, at);
        let Some(end) = clean[at..].find(';').map(|e| at + e + 1) else {
            continue;
        };
        let binding = match layout_value(inside, "binding") {
            Some(v) => v.map_err(|e| e.replacen("0:1", &format!("0:{line}"), 1))?,
            None => {
                return Err(format!(
                    "0:{line}: error: atomic counter requires a binding (layout(binding = N))\n"
                ));
            }
        };
        let slot = match next.iter().position(|(bb, _)| *bb == binding) {
            Some(i) => i,
            None => {
                next.push((binding, 0));
                next.len() - 1
            }
        };
        if let Some(o) = layout_value(inside, "offset") {
            let o = o.map_err(|e| e.replacen("0:1", &format!("0:{line}"), 1))?;
            if o % 4 != 0 {
                return Err(format!(
                    "0:{line}: error: offset must be a multiple of 4 for atomic counters\n"
                ));
            }
            next[slot].1 = o;
        }
        let declarators = clean[at + "atomic_uint".len()..end - 1].trim();
        for d in declarators
            .split(',')
            .map(str::trim)
            .filter(|d| !d.is_empty())
        {
            let (name, array) = match d.split_once('[') {
                Some((n, rest)) => {
                    let size = rest.trim_end().trim_end_matches(']').trim();
                    let size: u32 = size.trim_end_matches(['u', 'U']).parse().map_err(|_| {
                        format!(
                            "0:{line}: error: array size of atomic counter `{}' must be a \
                             constant integer literal\n",
                            n.trim()
                        )
                    })?;
                    (n.trim(), size)
                }
                None => (d, 0),
            };
            let offset = next[slot].1;
            let bytes = 4 * array.max(1);
            if let Some(other) = counters.iter().find(|c| {
                c.binding == binding
                    && c.offset < offset + bytes
                    && offset < c.offset + 4 * c.array.max(1)
            }) {
                return Err(format!(
                    "0:{line}: error: atomic counter `{name}' overlaps `{}' (binding {binding}, \
                     offset {offset})\n",
                    other.name
                ));
            }
            let used = words(&clean, name).any(|u| u < start || u >= end);
            counters.push(Counter {
                name: name.to_string(),
                binding,
                offset,
                array,
                used,
            });
            next[slot].1 = offset + bytes;
        }
        found.push(Found { range: start..end });
    }
    Ok((counters, found))
}

/// The storage block declarations that stand for `counters`, one a binding, on one line.
fn blocks(counters: &[Counter]) -> String {
    let mut bindings: Vec<u32> = counters.iter().map(|c| c.binding).collect();
    bindings.sort_unstable();
    bindings.dedup();
    let mut out = String::new();
    for b in bindings {
        let mut mine: Vec<&Counter> = counters.iter().filter(|c| c.binding == b).collect();
        mine.sort_by_key(|c| c.offset);
        out.push_str(&format!("layout(std430) buffer {BLOCK_PREFIX}{b} {{ "));
        let mut at = 0;
        for (k, c) in mine.iter().enumerate() {
            if c.offset > at {
                out.push_str(&format!(
                    "uint tsh_ac_pad{b}_{k}[{}]; ",
                    (c.offset - at) / 4
                ));
            }
            if c.array > 0 {
                out.push_str(&format!("uint {}[{}]; ", c.name, c.array));
            } else {
                out.push_str(&format!("uint {}; ", c.name));
            }
            at = c.offset + 4 * c.array.max(1);
        }
        out.push_str("}; ");
    }
    out
}

/// The call `name(` at byte `at` of `text`: the byte range of its argument text (between
/// the parentheses) and the end of the call.
fn call_args(text: &str, open: usize) -> Option<(std::ops::Range<usize>, usize)> {
    let mut depth = 0i32;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some((open + 1..open + i, open + i + 1));
                }
            }
            _ => {}
        }
    }
    None
}

/// Rewrites the counter built-in functions' calls (see the module docs).
fn calls(text: &str) -> String {
    const FUNCTIONS: [(&str, &str, &str); 3] = [
        ("atomicCounterIncrement", "atomicAdd(", ", 1u)"),
        (
            "atomicCounterDecrement",
            "(atomicAdd(",
            ", 0xFFFFFFFFu) - 1u)",
        ),
        ("atomicCounter", "atomicAdd(", ", 0u)"),
    ];
    let mut out = text.to_string();
    for (name, before, after) in FUNCTIONS {
        loop {
            let Some(at) = words(&out, name).next() else {
                break;
            };
            let open = at
                + name.len()
                + (out[at + name.len()..].len() - out[at + name.len()..].trim_start().len());
            if out.as_bytes().get(open) != Some(&b'(') {
                break;
            }
            let Some((args, end)) = call_args(&out, open) else {
                break;
            };
            let replaced = format!("{before}{}{after}", &out[args]);
            out.replace_range(at..end, &replaced);
        }
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
    out
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
    let Some(first) = found.first() else {
        return Ok(Cow::Borrowed(text));
    };
    let mut out = text.to_string();
    // Blank every declaration (newlines kept), last first so ranges stay valid.
    for f in found.iter().rev() {
        let blank: String = out[f.range.clone()]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(f.range.clone(), &blank);
    }
    out.insert_str(first.range.start, &blocks(&counters));
    let mut out = calls(&out);
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
            "layout(std430) buffer TesseraAtomicCounters0 { uint tsh_ac_pad0_0[1]; uint a; \
             uint b[2]; uint c; }; layout(std430) buffer TesseraAtomicCounters1 { uint d; }; "
        ));
        assert!(lowered.contains("atomicAdd(a, 1u); (atomicAdd(b[1], 0xFFFFFFFFu) - 1u);"));
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

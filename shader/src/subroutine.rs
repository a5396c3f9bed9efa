//! Shader subroutines (GL 4.0's `ARB_shader_subroutine`) as `uint` selectors and dispatching
//! functions.
//!
//! glslang emits no subroutines for SPIR-V, so the shader text is rewritten before glslang
//! reads it ([`lower`]), as Mesa's own lowering does (`lower_subroutine`):
//! - each subroutine type `subroutine R T(P);` becomes the prototype of its dispatching
//!   function, `R tsh_sr_T(uint tsh_s, P)`, defined at the end of the shader: it calls the
//!   function of that type whose index equals `tsh_s`, and returns an undefined value when
//!   none does (Mesa's lowering calls any function of the type's signature, which only a
//!   default selection can name, and calls through functions of other types of that
//!   signature would look recursive here);
//! - each subroutine function loses its `subroutine(T1, T2)` qualifier (and its
//!   `layout(index = N)`) and stays an ordinary function, which may be called directly;
//! - each subroutine uniform `subroutine uniform T u;` (arrays too) becomes a `uint` uniform of
//!   the default block, [`SELECTOR_PREFIX`], the stage's letter, `_`, then `u`, which the
//!   engine fills with the selected subroutine index (GL keeps subroutine uniforms per stage,
//!   so two stages' uniforms of one name stay apart); the link keeps it out of the program's
//!   uniforms and reports it as a subroutine uniform ([`crate::StageSubroutines`]);
//! - each call `u(args)` or `u[i](args)` becomes `tsh_sr_T(u's selector, args)`;
//! - `#extension GL_ARB_shader_subroutine` (glslang does not know it) is blanked, and the
//!   extension's macro reads as defined (1) in conditional directives. Lines never move.
//!
//! Indices and locations follow Mesa's rules: a function without `layout(index)` takes the
//! lowest index no other function has, in declaration order; a uniform without
//! `layout(location)` takes the locations after the highest explicit one, in declaration
//! order. What Mesa reports at compile time is refused here with a log in its shape (an
//! undeclared type, a signature that does not match its type, a prototype with a subroutine
//! qualifier, two qualifiers, an empty or non-name type list, a layout without
//! `ARB_explicit_uniform_location`, `subroutine` as a name); a subroutine type or function
//! that another function declaration overloads fails as Mesa's link does, and recursion
//! through subroutine uniforms is glslang's static recursion. The subroutines of a stage
//! are those of its shader that declares them: several shader objects of one stage each
//! number their own.

use std::borrow::Cow;

use crate::Stage;

/// A subroutine uniform's selector in the default block: this prefix, the stage's letter
/// ([`stage_letter`]), `_`, then the uniform's name.
pub const SELECTOR_PREFIX: &str = "tsh_su";

/// A subroutine type's dispatching function: this prefix, then the type's name.
const DISPATCH_PREFIX: &str = "tsh_sr_";

/// The letter of `stage` in selector names.
pub(crate) fn stage_letter(stage: Stage) -> char {
    match stage {
        Stage::Vertex => 'v',
        Stage::TessControl => 'c',
        Stage::TessEvaluation => 'e',
        Stage::Geometry => 'g',
        Stage::Fragment => 'f',
        Stage::Compute => 'x',
    }
}

/// The selector uniform of subroutine uniform `name` of `stage`.
pub(crate) fn selector(stage: Stage, name: &str) -> String {
    format!("{SELECTOR_PREFIX}{}_{name}", stage_letter(stage))
}

/// A parameter of a subroutine type or function.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Param {
    /// Its qualifiers and type, as written (`out vec4`), for the dispatching function.
    decl: String,
    /// Array dimensions after its name (`[2]`), if any.
    array: String,
    /// What must match between a function and its type: qualifiers (`in` left out: it is
    /// the default), type and dimensions.
    key: String,
}

/// A return type and parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Signature {
    ret: String,
    params: Vec<Param>,
}

impl Signature {
    /// Whether a function of this signature matches a subroutine type of `other`'s: return
    /// type, and parameters' types, qualifiers and dimensions (not their names).
    fn matches(&self, other: &Signature) -> bool {
        self.ret == other.ret
            && self.params.len() == other.params.len()
            && self
                .params
                .iter()
                .zip(&other.params)
                .all(|(a, b)| a.key == b.key)
    }
}

/// A subroutine function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Function {
    pub(crate) name: String,
    /// Its subroutine types, as indices into [`Declared::types`].
    pub(crate) types: Vec<usize>,
    /// Its index (explicit, or assigned as Mesa assigns it).
    pub(crate) index: u32,
    signature: Signature,
}

/// A subroutine uniform declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Uniform {
    pub(crate) name: String,
    /// Its type, an index into [`Declared::types`].
    pub(crate) ty: usize,
    /// Array size, if it is an array.
    pub(crate) array: Option<u32>,
    /// Its first location (explicit, or assigned as Mesa assigns it).
    pub(crate) location: u32,
}

/// What a shader declares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Declared {
    /// Subroutine type names, in declaration order.
    pub(crate) types: Vec<String>,
    signatures: Vec<Signature>,
    /// Subroutine functions, in declaration order.
    pub(crate) functions: Vec<Function>,
    /// Subroutine uniforms, in declaration order.
    pub(crate) uniforms: Vec<Uniform>,
    /// `ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS`: one past the last location.
    pub(crate) locations: u32,
}

impl Declared {
    /// Whether the shader has anything of subroutines.
    pub(crate) fn is_empty(&self) -> bool {
        self.types.is_empty() && self.functions.is_empty() && self.uniforms.is_empty()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Word,
    Number,
    Punct(u8),
}

#[derive(Clone, Copy, Debug)]
struct Tok {
    start: usize,
    end: usize,
    kind: Kind,
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The tokens of `clean` (comments already blanked), preprocessor lines left out.
fn tokens(clean: &str) -> Vec<Tok> {
    let b = clean.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'#' && line_start {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        line_start = false;
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && is_word(b[i]) {
                i += 1;
            }
            out.push(Tok {
                start,
                end: i,
                kind: Kind::Word,
            });
        } else if c.is_ascii_digit() {
            while i < b.len() && (is_word(b[i]) || b[i] == b'.') {
                i += 1;
            }
            out.push(Tok {
                start,
                end: i,
                kind: Kind::Number,
            });
        } else {
            i += 1;
            out.push(Tok {
                start,
                end: i,
                kind: Kind::Punct(c),
            });
        }
    }
    out
}

/// Qualifiers a parameter may carry before its type.
const QUALIFIERS: [&str; 13] = [
    "const",
    "in",
    "out",
    "inout",
    "highp",
    "mediump",
    "lowp",
    "precise",
    "coherent",
    "volatile",
    "restrict",
    "readonly",
    "writeonly",
];

/// The explicit locations of `text`'s loose uniforms: (name, location) of each declaration
/// `layout(..., location = N, ...) [qualifiers] uniform type name[, name ...]` (every
/// declarator takes the location, as in Mesa), subroutine uniforms and blocks left out.
/// glslang's relaxed rules drop these layouts (a default-block member has no location), so
/// the linker reads them here.
pub(crate) fn uniform_locations(text: &str) -> Vec<(String, u32)> {
    uniform_location_spans(text)
        .into_iter()
        .map(|(name, location, _)| (name, location))
        .collect()
}

/// `text` with each loose uniform's explicit location past glslang's limit (4094, below
/// GL's `MAX_UNIFORM_LOCATIONS`) written as 0 (spaces keep the columns): glslang refuses
/// such values. Its relaxed rules drop a plain uniform's location and keep a sampler's or
/// an image's, whose overlaps it checks, so the others keep theirs; the linker reads the
/// values from the source.
pub(crate) fn zero_uniform_locations(text: &str) -> Cow<'_, str> {
    const GLSLANG_LIMIT: u32 = 4094;
    let spans = uniform_location_spans(text);
    if spans
        .iter()
        .all(|(_, location, _)| *location <= GLSLANG_LIMIT)
    {
        return Cow::Borrowed(text);
    }
    let mut out = text.to_string();
    for (_, location, (start, end)) in spans {
        if location > GLSLANG_LIMIT {
            out.replace_range(start..end, &format!("{:<1$}", "0", end - start));
        }
    }
    Cow::Owned(out)
}

/// What `uniform_locations` finds, with the byte range of each location's literal.
fn uniform_location_spans(text: &str) -> Vec<(String, u32, (usize, usize))> {
    if !text.contains("location") {
        return Vec::new();
    }
    let clean = crate::atomic_counter::uncommented(text);
    let toks = tokens(&clean);
    let word = |i: usize| {
        toks.get(i)
            .filter(|t| t.kind == Kind::Word)
            .map(|t| &clean[t.start..t.end])
    };
    let punct = |i: usize, c: u8| toks.get(i).is_some_and(|t| t.kind == Kind::Punct(c));
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if word(i) != Some("layout") || !punct(i + 1, b'(') {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        let mut location = None;
        while j < toks.len() && !punct(j, b')') {
            if word(j) == Some("location") && punct(j + 1, b'=') {
                let t = toks.get(j + 2).filter(|t| t.kind == Kind::Number);
                location = t
                    .and_then(|t| parse_int(&clean[t.start..t.end]).map(|n| (n, (t.start, t.end))));
            }
            j += 1;
        }
        i = j + 1;
        let Some((location, span)) = location else {
            continue;
        };
        // Qualifiers up to `uniform`, then the type (an array of it too) and the name.
        let mut k = i;
        while word(k).is_some_and(|w| w != "uniform" && w != "subroutine") && !punct(k + 1, b';') {
            k += 1;
        }
        if word(k) != Some("uniform") {
            continue;
        }
        k += 1;
        while word(k).is_some_and(|w| matches!(w, "highp" | "mediump" | "lowp")) {
            k += 1;
        }
        if word(k).is_none() {
            continue;
        }
        k += 1;
        let skip_arrays = |mut k: usize| {
            while punct(k, b'[') {
                while k < toks.len() && !punct(k, b']') {
                    k += 1;
                }
                k += 1;
            }
            k
        };
        k = skip_arrays(k);
        // Every declarator of the declaration takes the layout (`uniform float a, b;`).
        while let Some(name) = word(k) {
            out.push((name.to_string(), location, span));
            k = skip_arrays(k + 1);
            if !punct(k, b',') {
                break;
            }
            k += 1;
        }
    }
    out
}

/// A GLSL integer literal (decimal, octal or hexadecimal, `u` suffix allowed).
fn parse_int(s: &str) -> Option<u32> {
    let s = s.trim_end_matches(['u', 'U']);
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u32::from_str_radix(h, 16).ok()
    } else if s.len() > 1 && s.starts_with('0') {
        u32::from_str_radix(&s[1..], 8).ok()
    } else {
        s.parse().ok()
    }
}

/// The `#extension` behaviour the shader gives `name`, if any (the last directive decides).
fn extension_behavior(text: &str, name: &str) -> Option<String> {
    let mut found = None;
    for line in text.lines() {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix('#') else {
            continue;
        };
        let words: Vec<&str> = rest
            .split(|c: char| c.is_whitespace() || c == ':')
            .filter(|w| !w.is_empty())
            .collect();
        if let ["extension", n, behavior, ..] = words[..]
            && n == name
        {
            found = Some(behavior.to_string());
        }
    }
    found
}

const EXTENSION: &str = "GL_ARB_shader_subroutine";

/// Whether the shader may use subroutines: GLSL 4.00 and later, or an earlier version that
/// enables the extension.
fn allowed(text: &str) -> bool {
    crate::version::check(text).is_ok_and(|v| v >= 400)
        || extension_behavior(text, EXTENSION).is_some_and(|b| b != "disable")
}

/// Whether explicit subroutine indices and locations are allowed (Mesa's rules): a
/// function's `layout(index)` in GLSL 4.30 or with `ARB_explicit_uniform_location`; a
/// subroutine uniform's `layout(location)` in GLSL 4.30, or with
/// `ARB_explicit_uniform_location` and either GLSL 3.30 or `ARB_explicit_attrib_location`.
fn explicit_allowed(text: &str) -> Explicit {
    let v = crate::version::check(text).unwrap_or(110);
    let on = |n| extension_behavior(text, n).is_some_and(|b| b != "disable");
    let uniform_location = v >= 430 || on("GL_ARB_explicit_uniform_location");
    Explicit {
        index: uniform_location,
        location: uniform_location && (v >= 330 || on("GL_ARB_explicit_attrib_location")),
    }
}

/// What [`explicit_allowed`] allows.
#[derive(Clone, Copy)]
struct Explicit {
    index: bool,
    location: bool,
}

/// A parsed shader: what it declares and where, for [`lower`].
struct Parsed {
    declared: Declared,
    /// Byte range and replacement text of each edit, in no particular order.
    edits: Vec<(std::ops::Range<usize>, String)>,
}

struct Parser<'a> {
    text: &'a str,
    clean: &'a str,
    toks: Vec<Tok>,
    stage: Stage,
    explicit: Explicit,
}

impl Parser<'_> {
    fn s(&self, i: usize) -> &str {
        self.toks.get(i).map_or("", |t| &self.clean[t.start..t.end])
    }

    fn is(&self, i: usize, p: u8) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind == Kind::Punct(p))
    }

    fn is_word(&self, i: usize) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind == Kind::Word)
    }

    fn line(&self, i: usize) -> usize {
        let at = self.toks.get(i).map_or(self.text.len(), |t| t.start);
        self.text[..at].matches('\n').count() + 1
    }

    fn error(&self, i: usize, message: &str) -> String {
        format!("0:{}: error: {message}\n", self.line(i))
    }

    /// The token after the bracket that opens at `i` closes (`(`/`)` or `[`/`]`).
    fn close(&self, i: usize) -> Option<usize> {
        let (open, close) = match self.toks.get(i)?.kind {
            Kind::Punct(b'(') => (b'(', b')'),
            Kind::Punct(b'[') => (b'[', b']'),
            _ => return None,
        };
        let mut depth = 0;
        for j in i..self.toks.len() {
            if self.is(j, open) {
                depth += 1;
            } else if self.is(j, close) {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
        }
        None
    }

    /// The text of tokens `a..b`, one space between words.
    fn joined(&self, a: usize, b: usize) -> String {
        let mut out = String::new();
        for i in a..b {
            let t = self.s(i);
            let word = self.is_word(i) || self.toks[i].kind == Kind::Number;
            if word && out.as_bytes().last().copied().is_some_and(is_word) {
                out.push(' ');
            }
            out.push_str(t);
        }
        out
    }

    /// A return type and name then a parameter list, from token `i`: (return type, name
    /// token, parameters, the token after `)`).
    fn signature(&self, i: usize) -> Result<(String, usize, Vec<Param>, usize), String> {
        let mut j = i;
        while j < self.toks.len() && !(self.is_word(j) && self.is(j + 1, b'(')) {
            if self.is(j, b';') || self.is(j, b'{') {
                return Err(self.error(j, "syntax error, unexpected ';'"));
            }
            j += 1;
        }
        if j >= self.toks.len() || j == i {
            return Err(self.error(j, "syntax error"));
        }
        let ret = self.joined(i, j);
        if ret == "subroutine" || ret.starts_with("subroutine") {
            return Err(self.error(
                i,
                "duplicate subroutine qualifier, only one is allowed per function",
            ));
        }
        let open = j + 1;
        let end = self
            .close(open)
            .ok_or_else(|| self.error(open, "syntax error"))?;
        let params = self.params(open + 1, end - 1)?;
        Ok((ret, j, params, end))
    }

    /// The parameters between tokens `a` and `b` (the parentheses' insides).
    fn params(&self, a: usize, b: usize) -> Result<Vec<Param>, String> {
        if a == b || (b == a + 1 && self.s(a) == "void") {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        let mut start = a;
        let mut depth = 0i32;
        for i in a..=b {
            if i < b && (self.is(i, b'(') || self.is(i, b'[')) {
                depth += 1;
            } else if i < b && (self.is(i, b')') || self.is(i, b']')) {
                depth -= 1;
            } else if i == b || (depth == 0 && self.is(i, b',')) {
                out.push(self.param(start, i)?);
                start = i + 1;
            }
        }
        Ok(out)
    }

    fn param(&self, a: usize, b: usize) -> Result<Param, String> {
        // Trailing dimensions belong to the name.
        let mut end = b;
        while end > a && self.is(end - 1, b']') {
            let mut k = end - 1;
            while k > a && !self.is(k, b'[') {
                k -= 1;
            }
            end = k;
        }
        let array = self.joined(end, b);
        let mut q = a;
        while q < end && QUALIFIERS.contains(&self.s(q)) {
            q += 1;
        }
        if q == end {
            return Err(self.error(a, "syntax error in a parameter"));
        }
        // A name after the type (two or more tokens, the last a word).
        let named = end - q >= 2 && self.is_word(end - 1);
        let ty_end = if named { end - 1 } else { end };
        let decl = self.joined(a, ty_end);
        let quals: Vec<&str> = (a..q).map(|i| self.s(i)).filter(|&w| w != "in").collect();
        let key = format!("{} {}{}", quals.join(" "), self.joined(q, ty_end), array);
        Ok(Param {
            decl,
            array,
            key: key.trim().to_string(),
        })
    }

    /// The value of `key = N` among the tokens of a layout's parentheses `a..b`.
    fn layout_value(&self, a: usize, b: usize, key: &str) -> Result<Option<u32>, String> {
        for i in a..b {
            if self.s(i) == key && self.is(i + 1, b'=') {
                let v = self.s(i + 2).trim_end_matches(['u', 'U']);
                let parsed = if let Some(h) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X"))
                {
                    u32::from_str_radix(h, 16).ok()
                } else {
                    v.parse().ok()
                };
                // Not a literal: an integer constant expression (GLSL 4.40,
                // `GL_ARB_enhanced_layouts`), up to the list's next comma.
                let parsed = parsed.or_else(|| {
                    let end = (i + 2..b).find(|&k| self.is(k, b',')).unwrap_or(b);
                    let expr = self
                        .text
                        .get(self.toks[i + 2].start..self.toks[end].start)?;
                    let v = crate::fold::layout_constant(self.text, expr)?;
                    u32::try_from(v).ok()
                });
                return parsed
                    .map(Some)
                    .ok_or_else(|| self.error(i, &format!("invalid {key} value")));
            }
        }
        Ok(None)
    }

    fn parse(&self) -> Result<Parsed, String> {
        let mut declared = Declared::default();
        let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
        // Explicit indices and locations, resolved once all declarations are read.
        let mut indices: Vec<Option<u32>> = Vec::new();
        let mut locations: Vec<Option<u32>> = Vec::new();
        // Names of the other functions declared at global scope.
        let mut others: Vec<(String, usize)> = Vec::new();
        let mut depth = 0i32;
        let mut i = 0;
        while i < self.toks.len() {
            if self.is(i, b'{') {
                depth += 1;
            } else if self.is(i, b'}') {
                depth -= 1;
            }
            if self.s(i) != "subroutine" {
                if depth == 0
                    && self.is_word(i)
                    && self.is(i + 1, b'(')
                    && i > 0
                    && (self.is_word(i - 1) || self.is(i - 1, b']'))
                    && !matches!(self.s(i), "layout" | "subroutine")
                {
                    others.push((self.s(i).to_string(), i));
                }
                i += 1;
                continue;
            }
            if depth != 0 {
                return Err(self.error(i, "syntax error, unexpected SUBROUTINE"));
            }
            // A layout before it: `layout ( ... ) subroutine`.
            let mut start = self.toks[i].start;
            let mut layout = None;
            if i >= 3 && self.is(i - 1, b')') {
                let mut k = i - 1;
                while k > 0 && !self.is(k, b'(') {
                    k -= 1;
                }
                if k > 0 && self.s(k - 1) == "layout" {
                    start = self.toks[k - 1].start;
                    layout = Some((k + 1, i - 1));
                }
            }
            let value = |key: &str| match layout {
                Some((a, b)) => self.layout_value(a, b, key),
                None => Ok(None),
            };
            let uniform = self.s(i + 1) == "uniform";
            if layout.is_some() && uniform && !self.explicit.location {
                return Err(self.error(
                    i,
                    "uniform explicit location requires GL_ARB_explicit_uniform_location and \
                     either GL_ARB_explicit_attrib_location or GLSL 3.30.",
                ));
            }
            if layout.is_some() && !uniform && !self.explicit.index {
                return Err(self.error(
                    i,
                    "subroutine index requires GL_ARB_explicit_uniform_location or GLSL 4.30",
                ));
            }
            if uniform && value("index")?.is_some() && value("location")?.is_none() {
                return Err(self.error(i, "explicit index requires explicit location"));
            }
            if !uniform && value("location")?.is_some() {
                return Err(self.error(
                    i,
                    "explicit location of a subroutine function: only an index may be given",
                ));
            }
            if uniform {
                // subroutine uniform T a, b[N];
                let ty_name = self.s(i + 2).to_string();
                let Some(ty) = declared.types.iter().position(|t| *t == ty_name) else {
                    return Err(self.error(i, &format!("`{ty_name}' is not a subroutine type")));
                };
                let mut location = value("location")?;
                let mut j = i + 3;
                let mut replacement = String::new();
                loop {
                    if !self.is_word(j) {
                        return Err(self.error(j, "syntax error in a subroutine uniform"));
                    }
                    let name = self.s(j).to_string();
                    j += 1;
                    let mut array = None;
                    if self.is(j, b'[') {
                        let n = self.s(j + 1).trim_end_matches(['u', 'U']);
                        let n: u32 = n.parse().map_err(|_| {
                            self.error(j, "array size of a subroutine uniform must be a constant")
                        })?;
                        if !self.is(j + 2, b']') || n == 0 {
                            return Err(self.error(j, "invalid array size"));
                        }
                        array = Some(n);
                        j += 3;
                    }
                    replacement.push_str(&format!(
                        "uniform uint {}{}; ",
                        selector(self.stage, &name),
                        array.map_or(String::new(), |n| format!("[{n}]"))
                    ));
                    declared.uniforms.push(Uniform {
                        name,
                        ty,
                        array,
                        location: 0,
                    });
                    locations.push(location.take());
                    if self.is(j, b',') {
                        j += 1;
                        continue;
                    }
                    if !self.is(j, b';') {
                        return Err(self.error(j, "syntax error, expected ';'"));
                    }
                    break;
                }
                edits.push((start..self.toks[j].end, replacement));
                i = j + 1;
                continue;
            }
            if self.is(i + 1, b'(') {
                // subroutine(T1, T2) R f(P) { ... }
                let close = self
                    .close(i + 1)
                    .ok_or_else(|| self.error(i, "syntax error"))?;
                let mut types = Vec::new();
                let mut k = i + 2;
                while k < close - 1 {
                    if !self.is_word(k) {
                        return Err(self.error(k, "syntax error, expected a subroutine type name"));
                    }
                    let name = self.s(k);
                    let Some(t) = declared.types.iter().position(|t| t == name) else {
                        return Err(
                            self.error(k, &format!("subroutine type `{name}' is not declared"))
                        );
                    };
                    types.push(t);
                    k += 1;
                    if k < close - 1 {
                        if !self.is(k, b',') {
                            return Err(self.error(k, "syntax error in a subroutine type list"));
                        }
                        k += 1;
                    }
                }
                if types.is_empty() {
                    return Err(self.error(i, "syntax error, unexpected ')'"));
                }
                let (ret, name_at, params, after) = self.signature(close)?;
                if !self.is(after, b'{') {
                    return Err(self.error(
                        name_at,
                        "subroutine function prototypes are not allowed: a function with a \
                         subroutine qualifier must be defined where it is declared",
                    ));
                }
                let signature = Signature { ret, params };
                for &t in &types {
                    if !declared.signatures[t].matches(&signature) {
                        return Err(self.error(
                            name_at,
                            &format!(
                                "subroutine type mismatch '{}' - signatures do not match",
                                declared.types[t]
                            ),
                        ));
                    }
                }
                let name = self.s(name_at).to_string();
                if declared.functions.iter().any(|f| f.name == name) {
                    return Err(self.error(
                        name_at,
                        &format!("function `{name}' has multiple definitions"),
                    ));
                }
                declared.functions.push(Function {
                    name,
                    types,
                    index: 0,
                    signature,
                });
                indices.push(value("index")?);
                let blank_end = self.toks[close - 1].end;
                edits.push((start..blank_end, blank(&self.text[start..blank_end])));
                i = after;
                continue;
            }
            // subroutine R T(P);
            let (ret, name_at, params, after) = self.signature(i + 1)?;
            if !self.is(after, b';') {
                return Err(self.error(after, "syntax error, expected ';' after a subroutine type"));
            }
            let name = self.s(name_at).to_string();
            if declared.types.contains(&name) {
                return Err(self.error(
                    name_at,
                    &format!("subroutine type `{name}' is declared twice"),
                ));
            }
            let signature = Signature { ret, params };
            edits.push((
                start..self.toks[after].end,
                format!("{};", prototype(&name, &signature)),
            ));
            declared.types.push(name);
            declared.signatures.push(signature);
            i = after + 1;
        }
        // A subroutine type, or a subroutine function, is never overloaded (GLSL 4.00
        // §6.1.2): Mesa refuses both at link.
        for (name, at) in &others {
            if declared.types.contains(name) {
                return Err(self.error(
                    *at,
                    &format!("function `{name}' has the name of a subroutine type"),
                ));
            }
            if declared.functions.iter().any(|f| f.name == *name) {
                return Err(self.error(
                    *at,
                    &format!("subroutine function `{name}' may not be overloaded"),
                ));
            }
        }
        // Indices: explicit ones must differ; the others take the lowest free index, in
        // declaration order.
        for (k, ix) in indices.iter().enumerate() {
            if let Some(ix) = ix {
                if indices[..k].contains(&Some(*ix)) {
                    return Err(
                        "error: each subroutine index qualifier in the shader must be unique\n"
                            .into(),
                    );
                }
                declared.functions[k].index = *ix;
            }
        }
        let mut next = 0;
        for (k, ix) in indices.iter().enumerate() {
            if ix.is_none() {
                while indices.contains(&Some(next)) {
                    next += 1;
                }
                declared.functions[k].index = next;
                next += 1;
            }
        }
        // Locations: explicit ones first, then the others after the last one in use.
        let mut end = 0;
        for (u, l) in declared.uniforms.iter_mut().zip(&locations) {
            if let Some(l) = l {
                u.location = *l;
                end = end.max(l + u.array.unwrap_or(1));
            }
        }
        for (u, l) in declared.uniforms.iter_mut().zip(&locations) {
            if l.is_none() {
                u.location = end;
                end += u.array.unwrap_or(1);
            }
        }
        declared.locations = end;
        Ok(Parsed { declared, edits })
    }
}

/// `text` with every character but newlines as a space.
fn blank(text: &str) -> String {
    text.chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect()
}

/// The dispatching function's head for subroutine type `name`.
fn prototype(name: &str, s: &Signature) -> String {
    let mut out = format!("{} {DISPATCH_PREFIX}{name}(uint tsh_s", s.ret);
    for (k, p) in s.params.iter().enumerate() {
        out.push_str(&format!(", {} tsh_a{k}{}", p.decl, p.array));
    }
    out.push(')');
    out
}

/// The dispatching functions' definitions, on one line.
fn dispatchers(d: &Declared) -> String {
    let mut out = String::new();
    for (t, name) in d.types.iter().enumerate() {
        let s = &d.signatures[t];
        let args: Vec<String> = (0..s.params.len()).map(|k| format!("tsh_a{k}")).collect();
        let args = args.join(", ");
        out.push_str(&prototype(name, s));
        out.push_str(" { ");
        for f in &d.functions {
            if !f.types.contains(&t) {
                continue;
            }
            if s.ret == "void" {
                out.push_str(&format!(
                    "if (tsh_s == {}u) {{ {}({args}); return; }} ",
                    f.index, f.name
                ));
            } else {
                out.push_str(&format!(
                    "if (tsh_s == {}u) return {}({args}); ",
                    f.index, f.name
                ));
            }
        }
        if s.ret != "void" {
            out.push_str(&format!("{} tsh_r; return tsh_r; ", s.ret));
        }
        out.push_str("} ");
    }
    out
}

fn parse(stage: Stage, text: &str) -> Result<Option<Parsed>, String> {
    if !text.contains("subroutine") || !allowed(text) {
        return Ok(None);
    }
    let clean = crate::atomic_counter::uncommented(text);
    let parser = Parser {
        text,
        clean: &clean,
        toks: tokens(&clean),
        stage,
        explicit: explicit_allowed(text),
    };
    parser.parse().map(Some)
}

/// What a shader of `stage` declares of subroutines, or the compile error Mesa gives.
pub(crate) fn declared(stage: Stage, text: &str) -> Result<Declared, String> {
    Ok(parse(stage, text)?.map(|p| p.declared).unwrap_or_default())
}

/// The text with the extension's directives rewritten, lines kept: `#extension
/// GL_ARB_shader_subroutine` (which glslang does not know) is blanked, and the extension's
/// macro, which Mesa defines as 1 in every shader and glslang refuses to define (a `GL_`
/// name), is read as defined in `#ifdef`, `#ifndef`, `#if` and `#elif`.
fn extension_lines(text: &str) -> Cow<'_, str> {
    if !text.contains(EXTENSION) {
        return Cow::Borrowed(text);
    }
    let mut changed = false;
    let out: String = text
        .split_inclusive('\n')
        .map(|line| {
            let body = line.trim_end_matches(['\n', '\r']);
            let end = &line[body.len()..];
            let Some(rest) = body.trim_start().strip_prefix('#') else {
                return line.to_string();
            };
            if !rest.contains(EXTENSION) {
                return line.to_string();
            }
            let rest = rest.trim_start();
            let word_end = rest
                .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .unwrap_or(rest.len());
            let (word, after) = rest.split_at(word_end);
            let with = match word {
                "extension" => String::new(),
                "ifdef" if after.trim() == EXTENSION => "#if 1".to_string(),
                "ifndef" if after.trim() == EXTENSION => "#if 0".to_string(),
                "if" | "elif" => format!("#{word}{}", defined(after)),
                _ => return line.to_string(),
            };
            changed = true;
            format!("{with}{end}")
        })
        .collect();
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// A `#if` expression with `defined GL_ARB_shader_subroutine`, `defined(...)` and the macro
/// itself as `1`.
fn defined(expression: &str) -> String {
    let b = expression.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if is_word(b[i]) && (i == 0 || !is_word(b[i - 1])) {
            let end = (i..b.len()).find(|&k| !is_word(b[k])).unwrap_or(b.len());
            let word = &expression[i..end];
            if word == "defined" {
                let rest = expression[end..].trim_start();
                let (inner, paren) = match rest.strip_prefix('(') {
                    Some(r) => (r.trim_start(), true),
                    None => (rest, false),
                };
                if let Some(after) = inner.strip_prefix(EXTENSION)
                    && !after.as_bytes().first().copied().is_some_and(is_word)
                {
                    let after = if paren {
                        after.trim_start().strip_prefix(')')
                    } else {
                        Some(after)
                    };
                    if let Some(after) = after {
                        out.push('1');
                        i = expression.len() - after.len();
                        continue;
                    }
                }
            }
            out.push_str(if word == EXTENSION { "1" } else { word });
            i = end;
            continue;
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

/// The text glslang reads for a shader of `stage` (see the module docs); the text itself for
/// one without subroutines. `Err` is the compile log of a declaration GL refuses.
pub(crate) fn lower(stage: Stage, text: &str) -> Result<Cow<'_, str>, String> {
    let parsed = parse(stage, text)?;
    let lowered = match parsed {
        Some(Parsed {
            declared,
            mut edits,
        }) if !declared.is_empty() => {
            let clean = crate::atomic_counter::uncommented(text);
            let toks = tokens(&clean);
            // Calls through subroutine uniforms: `u(` or `u[i](`.
            let uniform = |name: &str| declared.uniforms.iter().find(|u| u.name == name);
            let inside = |at: usize, edits: &[(std::ops::Range<usize>, String)]| {
                edits.iter().any(|(r, _)| r.contains(&at))
            };
            let fixed = edits.clone();
            for (k, t) in toks.iter().enumerate() {
                if t.kind != Kind::Word || inside(t.start, &fixed) {
                    continue;
                }
                let Some(u) = uniform(&clean[t.start..t.end]) else {
                    continue;
                };
                if k > 0 && toks[k - 1].kind == Kind::Punct(b'.') {
                    continue;
                }
                let p = |j: usize, c: u8| toks.get(j).is_some_and(|t| t.kind == Kind::Punct(c));
                let mut open = k + 1;
                if p(open, b'[') {
                    let mut depth = 0;
                    let mut j = open;
                    while j < toks.len() {
                        if p(j, b'[') {
                            depth += 1;
                        } else if p(j, b']') {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        j += 1;
                    }
                    open = j + 1;
                }
                if !p(open, b'(') {
                    continue;
                }
                let empty = p(open + 1, b')');
                let ty = &declared.types[u.ty];
                edits.push((
                    t.start..t.end,
                    format!("{DISPATCH_PREFIX}{ty}({}", selector(stage, &u.name)),
                ));
                let o = toks[open].start;
                edits.push((o..o + 1, if empty { String::new() } else { ", ".into() }));
            }
            edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
            let mut out = text.to_string();
            for (r, with) in &edits {
                // Keep the replaced range's newlines, so lines stay.
                let newlines = out[r.clone()].matches('\n').count();
                let mut with = with.clone();
                if !with.contains('\n') {
                    with.push_str(&"\n".repeat(newlines));
                }
                out.replace_range(r.clone(), &with);
            }
            out.push('\n');
            out.push_str(&dispatchers(&declared));
            out.push('\n');
            Cow::Owned(out)
        }
        _ => Cow::Borrowed(text),
    };
    Ok(match extension_lines(&lowered) {
        Cow::Borrowed(_) => lowered,
        Cow::Owned(t) => Cow::Owned(t),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FS: &str = "#version 150\n\
        #extension GL_ARB_shader_subroutine: enable\n\
        out vec4 color;\n\
        subroutine vec4 getcolor(vec2 p);\n\
        subroutine float getchan(int k);\n\
        subroutine uniform getcolor GetColor;\n\
        subroutine uniform getchan unused_u, Chans[3];\n\
        subroutine(getchan) float chan_empty(int k) { return 0.0; }\n\
        subroutine(getcolor) vec4 red(vec2 p) { return vec4(p, 0.0, 1.0); }\n\
        subroutine(getchan) float chan_full(in int) { return 1.0; }\n\
        void main() { color = GetColor(vec2(1.0)) * Chans[int(Chans[0](1))](2); }\n";

    #[test]
    fn declarations_take_mesas_indices_and_locations() {
        let d = declared(Stage::Fragment, FS).unwrap();
        assert_eq!(d.types, ["getcolor", "getchan"]);
        let f: Vec<_> = d
            .functions
            .iter()
            .map(|f| (f.name.as_str(), f.index, f.types.clone()))
            .collect();
        assert_eq!(
            f,
            [
                ("chan_empty", 0, vec![1]),
                ("red", 1, vec![0]),
                ("chan_full", 2, vec![1])
            ]
        );
        let u: Vec<_> = d
            .uniforms
            .iter()
            .map(|u| (u.name.as_str(), u.ty, u.array, u.location))
            .collect();
        assert_eq!(
            u,
            [
                ("GetColor", 0, None, 0),
                ("unused_u", 1, None, 1),
                ("Chans", 1, Some(3), 2)
            ]
        );
        assert_eq!(d.locations, 5);
        let lowered = lower(Stage::Fragment, FS).unwrap();
        assert_eq!(
            lowered.lines().take(FS.lines().count()).count(),
            FS.lines().count()
        );
        assert!(!lowered.contains("#extension"));
        let conditions = "#ifdef GL_ARB_shader_subroutine\n#if !defined(GL_ARB_shader_subroutine) \
            || GL_ARB_shader_subroutine != 1\n#ifndef GL_ARB_shader_subroutine\n";
        assert_eq!(
            extension_lines(conditions),
            "#if 1\n#if !1 || 1 != 1\n#if 0\n"
        );
        assert!(lowered.contains("uniform uint tsh_suf_unused_u; uniform uint tsh_suf_Chans[3];"));
        assert!(lowered.contains(
            "color = tsh_sr_getcolor(tsh_suf_GetColor, vec2(1.0)) * \
             tsh_sr_getchan(tsh_suf_Chans[int(tsh_sr_getchan(tsh_suf_Chans[0], 1))], 2);"
        ));
        assert!(lowered.contains(
            "float tsh_sr_getchan(uint tsh_s, int tsh_a0) { if (tsh_s == 0u) return \
             chan_empty(tsh_a0); if (tsh_s == 2u) return chan_full(tsh_a0); float tsh_r; \
             return tsh_r; }"
        ));
    }

    #[test]
    fn a_dispatcher_calls_only_functions_of_its_type() {
        // Both types are float(): a function of the second calling through a uniform of
        // the first is no recursion.
        let fs = "#version 150\n#extension GL_ARB_shader_subroutine: enable\n\
            subroutine float one_t();\nsubroutine uniform one_t one;\n\
            subroutine float two_t();\nsubroutine uniform two_t two;\n\
            subroutine(one_t) float a() { return 1.0; }\n\
            subroutine(two_t) float b() { return one(); }\n\
            void main() {}\n";
        let lowered = lower(Stage::Fragment, fs).unwrap();
        assert!(lowered.contains(
            "float tsh_sr_one_t(uint tsh_s) { if (tsh_s == 0u) return a(); float tsh_r; \
             return tsh_r; }"
        ));
        assert!(lowered.contains("float b() { return tsh_sr_one_t(tsh_suf_one); }"));
    }

    #[test]
    fn explicit_indices_and_locations() {
        let vs = "#version 330\n\
            #extension GL_ARB_shader_subroutine: require\n\
            #extension GL_ARB_explicit_uniform_location: require\n\
            subroutine vec4 offset_t(vec4 p);\n\
            layout(location = 3) subroutine uniform offset_t offs[2];\n\
            subroutine uniform offset_t single;\n\
            layout(index = 5) subroutine(offset_t) vec4 left(vec4 p) { return p; }\n\
            subroutine(offset_t) vec4 right(vec4 p) { return p; }\n\
            layout(index = 0) subroutine(offset_t) vec4 up(vec4 p) { return p; }\n\
            void main() { gl_Position = offs[1](single(vec4(0.0))); }\n";
        let d = declared(Stage::Vertex, vs).unwrap();
        let f: Vec<_> = d
            .functions
            .iter()
            .map(|f| (f.name.as_str(), f.index))
            .collect();
        assert_eq!(f, [("left", 5), ("right", 1), ("up", 0)]);
        let u: Vec<_> = d.uniforms.iter().map(|u| u.location).collect();
        assert_eq!((u, d.locations), (vec![3, 5], 6));
        let without = vs.replace("#version 330", "#version 150");
        assert!(
            declared(Stage::Vertex, &without)
                .unwrap_err()
                .starts_with("0:5: error")
        );
    }

    #[test]
    fn explicit_layouts_follow_mesa_rules() {
        // A function's index needs only ARB_explicit_uniform_location; a uniform's index
        // needs a location; a function takes no location.
        let head = "#version 150
            #extension GL_ARB_shader_subroutine: require
            #extension GL_ARB_explicit_uniform_location: require
            subroutine void func_type();
";
        let index = format!(
            "{head}layout(index = 2) subroutine (func_type) void f() {{}}
"
        );
        let d = declared(Stage::Vertex, &index).unwrap();
        assert_eq!(d.functions[0].index, 2);
        for bad in [
            "layout(index = 2) subroutine uniform func_type f;
",
            "layout(location = 2) subroutine (func_type) void f() {}
",
            "layout(location = 2) subroutine uniform func_type f;
",
        ] {
            let err = declared(Stage::Vertex, &format!("{head}{bad}")).unwrap_err();
            assert!(err.starts_with("0:5: error"), "{bad}: {err}");
        }
    }

    #[test]
    fn what_mesa_refuses_fails() {
        let head = "#version 150\n#extension GL_ARB_shader_subroutine: require\n";
        for body in [
            "int subroutine;\n",
            "subroutine int x;\n",
            "subroutine void t();\nsubroutine (t) subroutine (t) void f() {}\n",
            "subroutine ( ) void f() {}\n",
            "subroutine (42) void f() {}\n",
            "subroutine (bogus) void f() {}\n",
            "subroutine void t();\nsubroutine (t) void f();\n",
            "subroutine void t(float x);\nsubroutine (t) void f(int x) {}\n",
            "subroutine void t();\nsubroutine (t) int f() { return 1; }\n",
            "subroutine void t();\nsubroutine (t) void f() {}\nvoid f(int x) {}\n",
            "subroutine void t();\nvoid t(void);\n",
        ] {
            assert!(
                declared(Stage::Vertex, &format!("{head}{body}")).is_err(),
                "{body}"
            );
        }
        // Without the extension before GLSL 4.00, nothing is lowered (glslang refuses it).
        let plain = "#version 150\nsubroutine void t();\n";
        assert_eq!(lower(Stage::Vertex, plain).unwrap(), plain);
    }
}

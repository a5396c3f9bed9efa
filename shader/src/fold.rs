//! Constant folding of array sizes that glslang cannot fold.
//!
//! GLSL makes every built-in function a constant expression when its arguments are, so
//! `float[determinant(mat2(2.0)) > 3.0 ? 1 : -1] a;` is a valid declaration (piglit's
//! constant-folding tests are all of this shape). glslang folds most built-ins but not
//! `sinh`/`cosh`/`tanh` and their inverses, `determinant`, `inverse`, `transpose` or
//! `matrixCompMult`, and it folds a comparison of two folded vectors or matrices into a
//! wrong value, so it rejects such a size ("array size must be a constant integer
//! expression") or takes the wrong branch.
//!
//! [`fold_array_sizes`] evaluates, before glslang reads the text, every bracketed expression
//! made only of literals, constructors, operators and the built-ins below, in 32-bit
//! arithmetic as a GL driver folds, and writes the integer it comes to in its place (on
//! the same line, so logs keep their line numbers). Anything else — a name, a macro, a
//! `const` variable, an expression that is not an integer scalar — is left to glslang as
//! written, so the pass can only turn a wrong refusal into the value GL specifies.

use std::borrow::Cow;

/// The component type of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Float,
    Int,
    Uint,
    Bool,
}

/// A constant: a scalar (1x1), a vector (1 column of `rows`) or a matrix (column-major).
#[derive(Clone, Debug, PartialEq)]
struct Value {
    kind: Kind,
    cols: usize,
    rows: usize,
    data: Vec<f64>,
}

impl Value {
    fn scalar(kind: Kind, v: f64) -> Self {
        Self::vector(kind, vec![v])
    }

    fn vector(kind: Kind, data: Vec<f64>) -> Self {
        let rows = data.len();
        Self {
            kind,
            cols: 1,
            rows,
            data: data.into_iter().map(|v| round(kind, v)).collect(),
        }
    }

    fn matrix(cols: usize, rows: usize, data: Vec<f64>) -> Self {
        Self {
            kind: Kind::Float,
            cols,
            rows,
            data: data.into_iter().map(|v| round(Kind::Float, v)).collect(),
        }
    }

    fn is_scalar(&self) -> bool {
        self.data.len() == 1
    }

    fn is_matrix(&self) -> bool {
        self.cols > 1
    }

    /// The same shape with each component mapped.
    fn map(&self, kind: Kind, f: impl Fn(f64) -> f64) -> Self {
        Self {
            kind,
            cols: self.cols,
            rows: self.rows,
            data: self.data.iter().map(|&v| round(kind, f(v))).collect(),
        }
    }

    fn column(&self, c: usize) -> Value {
        Value::vector(
            self.kind,
            self.data[c * self.rows..(c + 1) * self.rows].to_vec(),
        )
    }

    fn at(&self, col: usize, row: usize) -> f64 {
        self.data[col * self.rows + row]
    }
}

std::thread_local! {
    /// Whether the expression being evaluated is of doubles (`lf` literals, `double`,
    /// `dvec*` and `dmat*` constructors): its floating-point values are then doubles, and
    /// single-precision literals and constructors in it are left to glslang.
    static DOUBLES: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn doubles() -> bool {
    DOUBLES.with(std::cell::Cell::get)
}

/// A value as the type stores it: floats in single precision (doubles in an expression of
/// doubles), integers wrapped to 32 bits.
fn round(kind: Kind, v: f64) -> f64 {
    match kind {
        Kind::Float if doubles() => v,
        Kind::Float => v as f32 as f64,
        Kind::Int => (v as i64) as i32 as f64,
        Kind::Uint => (v as i64) as u32 as f64,
        Kind::Bool => (v != 0.0) as u8 as f64,
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(Value),
    Name(String),
    Punct(&'static str),
}

const PUNCTS: [&str; 31] = [
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^", "(", ")", "[", "]", ",", ".", "?", ":",
    "+", "-", "*", "/", "%", "<", ">", "!", "~", "&", "|", "^", "{", "}",
];

fn tokenize(s: &str) -> Option<Vec<Token>> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let start = i;
            let hex = c == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X'));
            if hex {
                i += 2;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
            } else {
                while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                    i += 1;
                }
                if i < b.len() && matches!(b[i], b'e' | b'E') {
                    i += 1;
                    if i < b.len() && matches!(b[i], b'+' | b'-') {
                        i += 1;
                    }
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            let text = &s[start..i];
            let suffix = b.get(i).copied();
            let float =
                !hex && (text.contains(['.', 'e', 'E']) || matches!(suffix, Some(b'f' | b'F')));
            let value = if float {
                let double = s[i..].starts_with("lf") || s[i..].starts_with("LF");
                if double {
                    i += 2;
                } else if matches!(suffix, Some(b'f' | b'F')) {
                    i += 1;
                }
                if double != doubles() {
                    return None;
                }
                Value::scalar(Kind::Float, text.parse::<f64>().ok()?)
            } else {
                let v = if hex {
                    u64::from_str_radix(&text[2..], 16).ok()?
                } else if text.len() > 1 && text.starts_with('0') {
                    u64::from_str_radix(&text[1..], 8).ok()?
                } else {
                    text.parse::<u64>().ok()?
                };
                if v > u64::from(u32::MAX) {
                    return None;
                }
                if matches!(suffix, Some(b'u' | b'U')) {
                    i += 1;
                    Value::scalar(Kind::Uint, v as f64)
                } else {
                    Value::scalar(Kind::Int, v as f64)
                }
            };
            out.push(Token::Number(value));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Token::Name(s[start..i].to_owned()));
        } else {
            let p = PUNCTS.iter().find(|p| s[i..].starts_with(**p))?;
            i += p.len();
            out.push(Token::Punct(p));
        }
    }
    Some(out)
}

/// A recursive-descent evaluator over one expression's tokens.
struct Eval {
    tokens: Vec<Token>,
    at: usize,
}

/// Binary operators by precedence level, lowest first.
const LEVELS: [&[&str]; 10] = [
    &["||"],
    &["^^"],
    &["&&"],
    &["|"],
    &["^"],
    &["&"],
    &["==", "!="],
    &["<", ">", "<=", ">="],
    &["<<", ">>"],
    &["+", "-"],
];

impl Eval {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn eat(&mut self, p: &str) -> bool {
        if matches!(self.peek(), Some(Token::Punct(q)) if *q == p) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> Option<()> {
        self.eat(p).then_some(())
    }

    fn ternary(&mut self) -> Option<Value> {
        let cond = self.binary(0)?;
        if !self.eat("?") {
            return Some(cond);
        }
        let a = self.ternary()?;
        self.expect(":")?;
        let b = self.ternary()?;
        if cond.kind != Kind::Bool
            || !cond.is_scalar()
            || a.kind != b.kind
            || a.data.len() != b.data.len()
        {
            return None;
        }
        Some(if cond.data[0] != 0.0 { a } else { b })
    }

    fn binary(&mut self, level: usize) -> Option<Value> {
        if level == LEVELS.len() {
            return self.multiplicative();
        }
        let mut left = self.binary(level + 1)?;
        'next: loop {
            for op in LEVELS[level] {
                if self.eat(op) {
                    let right = self.binary(level + 1)?;
                    left = binary_op(op, &left, &right)?;
                    continue 'next;
                }
            }
            return Some(left);
        }
    }

    fn multiplicative(&mut self) -> Option<Value> {
        let mut left = self.unary()?;
        loop {
            let op = if self.eat("*") {
                "*"
            } else if self.eat("/") {
                "/"
            } else if self.eat("%") {
                "%"
            } else {
                return Some(left);
            };
            let right = self.unary()?;
            left = binary_op(op, &left, &right)?;
        }
    }

    fn unary(&mut self) -> Option<Value> {
        if self.eat("+") {
            return self.unary();
        }
        if self.eat("-") {
            let v = self.unary()?;
            return match v.kind {
                Kind::Bool => None,
                k => Some(v.map(k, |x| -x)),
            };
        }
        if self.eat("!") {
            let v = self.unary()?;
            return (v.kind == Kind::Bool && v.is_scalar())
                .then(|| v.map(Kind::Bool, |x| (x == 0.0) as u8 as f64));
        }
        if self.eat("~") {
            let v = self.unary()?;
            return match v.kind {
                Kind::Int => Some(v.map(Kind::Int, |x| !(x as i32) as f64)),
                Kind::Uint => Some(v.map(Kind::Uint, |x| !(x as u32) as f64)),
                _ => None,
            };
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Option<Value> {
        let mut v = self.primary()?;
        loop {
            if self.eat("[") {
                let index = self.ternary()?;
                self.expect("]")?;
                if !matches!(index.kind, Kind::Int | Kind::Uint) || !index.is_scalar() {
                    return None;
                }
                let i = usize::try_from(index.data[0] as i64).ok()?;
                v = if v.is_matrix() {
                    (i < v.cols).then(|| v.column(i))?
                } else if !v.is_scalar() {
                    Value::scalar(v.kind, *v.data.get(i)?)
                } else {
                    return None;
                };
            } else if self.eat(".") {
                let Some(Token::Name(name)) = self.peek().cloned() else {
                    return None;
                };
                self.at += 1;
                if v.is_matrix() {
                    return None;
                }
                if name == "length" {
                    // `.length()` of a vector or matrix (GLSL 1.20+).
                    self.expect("(")?;
                    self.expect(")")?;
                    v = Value::scalar(Kind::Int, v.rows as f64);
                    continue;
                }
                v = swizzle(&v, &name)?;
            } else {
                return Some(v);
            }
        }
    }

    fn primary(&mut self) -> Option<Value> {
        match self.peek()?.clone() {
            Token::Number(v) => {
                self.at += 1;
                Some(v)
            }
            Token::Punct("(") => {
                self.at += 1;
                let v = self.ternary()?;
                self.expect(")")?;
                Some(v)
            }
            Token::Name(name) => {
                self.at += 1;
                match name.as_str() {
                    "true" => return Some(Value::scalar(Kind::Bool, 1.0)),
                    "false" => return Some(Value::scalar(Kind::Bool, 0.0)),
                    _ => {}
                }
                self.expect("(")?;
                let mut args = Vec::new();
                if !self.eat(")") {
                    loop {
                        args.push(self.ternary()?);
                        if self.eat(")") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                construct(&name, &args).or_else(|| builtin(&name, &args))
            }
            Token::Punct(_) => None,
        }
    }
}

fn swizzle(v: &Value, name: &str) -> Option<Value> {
    if name.len() > 4 {
        return None;
    }
    let sets = ["xyzw", "rgba", "stpq"];
    let set = sets.iter().find(|s| name.chars().all(|c| s.contains(c)))?;
    let data = name
        .chars()
        .map(|c| v.data.get(set.find(c).unwrap()).copied())
        .collect::<Option<Vec<_>>>()?;
    Some(Value::vector(v.kind, data))
}

/// A constructor call: `float(...)`, `ivec3(...)`, `mat2x3(...)`, ...
fn construct(name: &str, args: &[Value]) -> Option<Value> {
    // In an expression of doubles the double constructors make floating-point values (held
    // as doubles) and the single-precision ones are not folded.
    let name = if doubles() {
        match name {
            "double" => "float",
            "float" => return None,
            n if n.starts_with("vec") || n.starts_with("mat") => return None,
            n => n
                .strip_prefix('d')
                .filter(|r| r.starts_with("vec") || r.starts_with("mat"))
                .unwrap_or(n),
        }
    } else {
        name
    };
    let (kind, cols, rows) = match name {
        "float" => (Kind::Float, 1, 1),
        "int" => (Kind::Int, 1, 1),
        "uint" => (Kind::Uint, 1, 1),
        "bool" => (Kind::Bool, 1, 1),
        _ => {
            let (kind, rest) = if let Some(r) = name.strip_prefix("vec") {
                (Kind::Float, r)
            } else if let Some(r) = name.strip_prefix("ivec") {
                (Kind::Int, r)
            } else if let Some(r) = name.strip_prefix("uvec") {
                (Kind::Uint, r)
            } else if let Some(r) = name.strip_prefix("bvec") {
                (Kind::Bool, r)
            } else if let Some(r) = name.strip_prefix("mat") {
                let (c, r) = match r.split_once('x') {
                    Some((c, r)) => (c.parse().ok()?, r.parse().ok()?),
                    None => {
                        let n: usize = r.parse().ok()?;
                        (n, n)
                    }
                };
                if !(2..=4).contains(&c) || !(2..=4).contains(&r) {
                    return None;
                }
                return construct_matrix(c, r, args);
            } else {
                return None;
            };
            let n: usize = rest.parse().ok()?;
            if !(2..=4).contains(&n) {
                return None;
            }
            (kind, 1, n)
        }
    };
    let convert = |v: f64, from: Kind| match (from, kind) {
        (_, Kind::Bool) => (v != 0.0) as u8 as f64,
        (Kind::Float, Kind::Int | Kind::Uint) => v.trunc(),
        _ => v,
    };
    let n = cols * rows;
    if args.is_empty() {
        return None;
    }
    if let [a] = args
        && a.is_scalar()
    {
        return Some(Value::vector(kind, vec![convert(a.data[0], a.kind); n]));
    }
    let data: Vec<f64> = args
        .iter()
        .flat_map(|a| a.data.iter().map(move |&v| convert(v, a.kind)))
        .collect();
    // Every argument but the last must be used up.
    let before_last: usize = args[..args.len() - 1].iter().map(|a| a.data.len()).sum();
    if data.len() < n || before_last >= n {
        return None;
    }
    Some(Value::vector(kind, data[..n].to_vec()))
}

fn construct_matrix(cols: usize, rows: usize, args: &[Value]) -> Option<Value> {
    let float = |a: &Value| -> Vec<f64> { a.data.clone() };
    match args {
        [a] if a.is_scalar() => {
            let mut m = vec![0.0; cols * rows];
            for i in 0..cols.min(rows) {
                m[i * rows + i] = a.data[0];
            }
            Some(Value::matrix(cols, rows, m))
        }
        [a] if a.is_matrix() => {
            let mut m = vec![0.0; cols * rows];
            for c in 0..cols {
                for r in 0..rows {
                    m[c * rows + r] = if c < a.cols && r < a.rows {
                        a.at(c, r)
                    } else {
                        (c == r) as u8 as f64
                    };
                }
            }
            Some(Value::matrix(cols, rows, m))
        }
        _ => {
            if args.iter().any(Value::is_matrix) {
                return None;
            }
            let data: Vec<f64> = args.iter().flat_map(float).collect();
            (data.len() == cols * rows).then(|| Value::matrix(cols, rows, data))
        }
    }
}

/// GLSL's implicit conversions between two operands: integers to float, int to uint.
fn promote(a: &Value, b: &Value) -> (Value, Value) {
    let to = |v: &Value, kind: Kind| {
        if v.kind == kind {
            v.clone()
        } else {
            v.map(kind, |x| x)
        }
    };
    match (a.kind, b.kind) {
        (Kind::Float, Kind::Int | Kind::Uint) => (a.clone(), to(b, Kind::Float)),
        (Kind::Int | Kind::Uint, Kind::Float) => (to(a, Kind::Float), b.clone()),
        (Kind::Uint, Kind::Int) => (a.clone(), to(b, Kind::Uint)),
        (Kind::Int, Kind::Uint) => (to(a, Kind::Uint), b.clone()),
        _ => (a.clone(), b.clone()),
    }
}

fn binary_op(op: &str, a: &Value, b: &Value) -> Option<Value> {
    use Kind::*;
    if op == "<<" || op == ">>" {
        // The operands' types need not match; the result has the left one's.
        if !matches!(a.kind, Int | Uint) || !matches!(b.kind, Int | Uint) {
            return None;
        }
        let b = b.map(a.kind, |x| x);
        return componentwise(op, a, &b);
    }
    let (a, b) = promote(a, b);
    let (a, b) = (&a, &b);
    match op {
        "==" | "!=" => {
            if a.kind != b.kind || a.cols != b.cols || a.rows != b.rows {
                return None;
            }
            let equal = a.data == b.data;
            Some(Value::scalar(Bool, (equal == (op == "==")) as u8 as f64))
        }
        "&&" | "||" | "^^" => {
            if a.kind != Bool || b.kind != Bool || !a.is_scalar() || !b.is_scalar() {
                return None;
            }
            let (x, y) = (a.data[0] != 0.0, b.data[0] != 0.0);
            let r = match op {
                "&&" => x && y,
                "||" => x || y,
                _ => x != y,
            };
            Some(Value::scalar(Bool, r as u8 as f64))
        }
        "<" | ">" | "<=" | ">=" => {
            if a.kind != b.kind || a.kind == Bool || !a.is_scalar() || !b.is_scalar() {
                return None;
            }
            let (x, y) = (a.data[0], b.data[0]);
            let r = match op {
                "<" => x < y,
                ">" => x > y,
                "<=" => x <= y,
                _ => x >= y,
            };
            Some(Value::scalar(Bool, r as u8 as f64))
        }
        "*" if a.kind == Float && b.kind == Float && (a.is_matrix() || b.is_matrix()) => {
            // Linear-algebraic products: matrix x matrix, matrix x vector, vector x matrix.
            if a.is_scalar() || b.is_scalar() {
                return componentwise(op, a, b);
            }
            let (ac, ar) = (a.cols, a.rows);
            let (bc, br) = if b.cols == 1 && !a.is_matrix() {
                (1, b.rows)
            } else {
                (b.cols, b.rows)
            };
            if a.cols == 1 {
                // vector (as a row) x matrix
                if a.rows != b.rows {
                    return None;
                }
                let data = (0..b.cols)
                    .map(|c| (0..b.rows).map(|r| a.data[r] * b.at(c, r)).sum())
                    .collect();
                return Some(Value::vector(Float, data));
            }
            if ac != br {
                return None;
            }
            let mut m = vec![0.0; bc * ar];
            for c in 0..bc {
                for r in 0..ar {
                    m[c * ar + r] = (0..ac).map(|k| a.at(k, r) * b.data[c * br + k]).sum();
                }
            }
            Some(if bc == 1 {
                Value::vector(Float, m)
            } else {
                Value::matrix(bc, ar, m)
            })
        }
        _ => componentwise(op, a, b),
    }
}

fn componentwise(op: &str, a: &Value, b: &Value) -> Option<Value> {
    use Kind::*;
    if a.kind != b.kind || a.kind == Bool {
        return None;
    }
    let shape = if a.is_scalar() {
        b
    } else if b.is_scalar() || (a.cols == b.cols && a.rows == b.rows) {
        a
    } else {
        return None;
    };
    let n = shape.data.len();
    let get = |v: &Value, i: usize| if v.is_scalar() { v.data[0] } else { v.data[i] };
    let kind = a.kind;
    let mut data = Vec::with_capacity(n);
    for i in 0..n {
        let (x, y) = (get(a, i), get(b, i));
        let r = match (op, kind) {
            ("+", _) => x + y,
            ("-", _) => x - y,
            ("*", _) => x * y,
            ("/", Float) => x / y,
            ("/", _) if y == 0.0 => return None,
            ("/", Int) => (x as i32).wrapping_div(y as i32) as f64,
            ("/", _) => (x as u32 / y as u32) as f64,
            ("%", Float) => return None,
            ("%", _) if y == 0.0 => return None,
            ("%", Int) => (x as i32).wrapping_rem(y as i32) as f64,
            ("%", _) => (x as u32 % y as u32) as f64,
            ("&" | "|" | "^" | "<<" | ">>", Float) => return None,
            ("&", _) => ((x as i64) & (y as i64)) as f64,
            ("|", _) => ((x as i64) | (y as i64)) as f64,
            ("^", _) => ((x as i64) ^ (y as i64)) as f64,
            ("<<", _) => ((x as i64) << ((y as i64) & 31)) as f64,
            (">>", Int) => ((x as i32) >> ((y as i64) & 31)) as f64,
            (">>", _) => ((x as u32) >> ((y as i64) & 31)) as f64,
            _ => return None,
        };
        data.push(r);
    }
    Some(Value {
        kind,
        cols: shape.cols,
        rows: shape.rows,
        data: data.into_iter().map(|v| round(kind, v)).collect(),
    })
}

fn determinant(m: &Value) -> Option<f64> {
    if !m.is_matrix() || m.cols != m.rows {
        return None;
    }
    let n = m.cols;
    let a = |c: usize, r: usize| m.at(c, r);
    Some(match n {
        2 => a(0, 0) * a(1, 1) - a(1, 0) * a(0, 1),
        3 => {
            a(0, 0) * (a(1, 1) * a(2, 2) - a(2, 1) * a(1, 2))
                - a(1, 0) * (a(0, 1) * a(2, 2) - a(2, 1) * a(0, 2))
                + a(2, 0) * (a(0, 1) * a(1, 2) - a(1, 1) * a(0, 2))
        }
        _ => (0..4)
            .map(|c| {
                let sign = if c % 2 == 0 { 1.0 } else { -1.0 };
                sign * a(c, 0) * minor(m, c, 0)
            })
            .sum(),
    })
}

/// The determinant of `m` without column `col` and row `row`.
fn minor(m: &Value, col: usize, row: usize) -> f64 {
    let n = m.cols;
    let mut data = Vec::with_capacity((n - 1) * (n - 1));
    for c in (0..n).filter(|&c| c != col) {
        for r in (0..n).filter(|&r| r != row) {
            data.push(m.at(c, r));
        }
    }
    let sub = Value {
        kind: Kind::Float,
        cols: n - 1,
        rows: n - 1,
        data,
    };
    if n - 1 == 1 {
        sub.data[0]
    } else {
        determinant(&sub).unwrap_or(0.0)
    }
}

fn inverse(m: &Value) -> Option<Value> {
    let det = determinant(m)?;
    let n = m.cols;
    let mut data = vec![0.0; n * n];
    for c in 0..n {
        for r in 0..n {
            let sign = if (c + r) % 2 == 0 { 1.0 } else { -1.0 };
            // inverse = adjugate / det; adjugate(c, r) = cofactor(r, c).
            data[c * n + r] = sign * minor(m, r, c) / det;
        }
    }
    Some(Value::matrix(n, n, data))
}

fn builtin(name: &str, args: &[Value]) -> Option<Value> {
    use Kind::*;
    if let Some(v) = integer_builtin(name, args) {
        return Some(v);
    }
    // Integer arguments of the float-only functions convert implicitly.
    let integer_ok = matches!(name, "abs" | "sign" | "min" | "max");
    let args: Vec<Value> = args
        .iter()
        .map(|a| match a.kind {
            Int | Uint if !integer_ok => a.map(Float, |x| x),
            _ => a.clone(),
        })
        .collect();
    let args = args.as_slice();
    let float1 = |f: fn(f64) -> f64| -> Option<Value> {
        match args {
            [a] if a.kind == Float && !a.is_matrix() => Some(a.map(Float, f)),
            _ => None,
        }
    };
    match name {
        "radians" => float1(f64::to_radians),
        "degrees" => float1(f64::to_degrees),
        "sin" => float1(f64::sin),
        "cos" => float1(f64::cos),
        "tan" => float1(f64::tan),
        "asin" => float1(f64::asin),
        "acos" => float1(f64::acos),
        "sinh" => float1(f64::sinh),
        "cosh" => float1(f64::cosh),
        "tanh" => float1(f64::tanh),
        "asinh" => float1(f64::asinh),
        "acosh" => float1(f64::acosh),
        "atanh" => float1(f64::atanh),
        "exp" => float1(f64::exp),
        "log" => float1(f64::ln),
        "exp2" => float1(f64::exp2),
        "log2" => float1(f64::log2),
        "sqrt" => float1(f64::sqrt),
        "inversesqrt" => float1(|x| 1.0 / x.sqrt()),
        "floor" => float1(f64::floor),
        "ceil" => float1(f64::ceil),
        "trunc" => float1(f64::trunc),
        "fract" => float1(|x| x - x.floor()),
        "atan" => match args {
            [_] => float1(f64::atan),
            [y, x] => componentwise_float(y, x, f64::atan2),
            _ => None,
        },
        "pow" => match args {
            [a, b] => componentwise_float(a, b, f64::powf),
            _ => None,
        },
        "abs" => match args {
            [a] if a.kind == Float || a.kind == Int => Some(a.map(a.kind, f64::abs)),
            _ => None,
        },
        "sign" => match args {
            [a] if a.kind == Float || a.kind == Int => Some(a.map(a.kind, |x| {
                if x > 0.0 {
                    1.0
                } else if x < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            })),
            _ => None,
        },
        "min" | "max" => match args {
            [a, b] if a.kind == b.kind && a.kind != Bool && !a.is_matrix() => {
                let pick: fn(f64, f64) -> f64 = if name == "min" { f64::min } else { f64::max };
                let n = a.data.len().max(b.data.len());
                let get = |v: &Value, i: usize| if v.is_scalar() { v.data[0] } else { v.data[i] };
                if !b.is_scalar() && b.data.len() != a.data.len() {
                    return None;
                }
                Some(Value::vector(
                    a.kind,
                    (0..n).map(|i| pick(get(a, i), get(b, i))).collect(),
                ))
            }
            _ => None,
        },
        "length" => match args {
            [a] if a.kind == Float && !a.is_matrix() => Some(Value::scalar(
                Float,
                a.data.iter().map(|x| x * x).sum::<f64>().sqrt(),
            )),
            _ => None,
        },
        "distance" => match args {
            [a, b]
                if a.kind == Float
                    && b.kind == Float
                    && a.data.len() == b.data.len()
                    && !a.is_matrix() =>
            {
                let d: f64 = a
                    .data
                    .iter()
                    .zip(&b.data)
                    .map(|(x, y)| (x - y) * (x - y))
                    .sum();
                Some(Value::scalar(Float, d.sqrt()))
            }
            _ => None,
        },
        "dot" => match args {
            [a, b]
                if a.kind == Float
                    && b.kind == Float
                    && a.data.len() == b.data.len()
                    && !a.is_matrix() =>
            {
                Some(Value::scalar(
                    Float,
                    a.data.iter().zip(&b.data).map(|(x, y)| x * y).sum(),
                ))
            }
            _ => None,
        },
        "determinant" => match args {
            [m] => Some(Value::scalar(Float, determinant(m)?)),
            _ => None,
        },
        "inverse" => match args {
            [m] => inverse(m),
            _ => None,
        },
        "transpose" => match args {
            [m] if m.is_matrix() => {
                let mut data = Vec::with_capacity(m.data.len());
                for r in 0..m.rows {
                    for c in 0..m.cols {
                        data.push(m.at(c, r));
                    }
                }
                Some(Value::matrix(m.rows, m.cols, data))
            }
            _ => None,
        },
        "matrixCompMult" => match args {
            [a, b] if a.is_matrix() && a.cols == b.cols && a.rows == b.rows => Some(Value::matrix(
                a.cols,
                a.rows,
                a.data.iter().zip(&b.data).map(|(x, y)| x * y).collect(),
            )),
            _ => None,
        },
        _ => None,
    }
}

fn componentwise_float(a: &Value, b: &Value, f: fn(f64, f64) -> f64) -> Option<Value> {
    if a.kind != Kind::Float
        || b.kind != Kind::Float
        || a.data.len() != b.data.len()
        || a.is_matrix()
    {
        return None;
    }
    Some(Value::vector(
        Kind::Float,
        a.data.iter().zip(&b.data).map(|(&x, &y)| f(x, y)).collect(),
    ))
}

/// GLSL 4.00's integer functions (`ARB_gpu_shader5`) of `int` and `uint` scalars and vectors.
fn integer_builtin(name: &str, args: &[Value]) -> Option<Value> {
    use Kind::*;
    let integer = |v: &Value| matches!(v.kind, Int | Uint) && !v.is_matrix();
    let bits = |v: f64, k: Kind| -> u32 {
        match k {
            Int => v as i64 as i32 as u32,
            _ => v as i64 as u32,
        }
    };
    // A bit pattern as a value of `kind`.
    let value = |b: u32, k: Kind| -> f64 {
        match k {
            Int => f64::from(b as i32),
            _ => f64::from(b),
        }
    };
    let scalar_int = |v: &Value| -> Option<u32> {
        (v.is_scalar() && matches!(v.kind, Int | Uint)).then(|| bits(v.data[0], v.kind))
    };
    match (name, args) {
        ("bitCount", [a]) if integer(a) => {
            Some(a.map(Int, |x| f64::from(bits(x, a.kind).count_ones())))
        }
        ("findLSB", [a]) if integer(a) => Some(a.map(Int, |x| match bits(x, a.kind) {
            0 => -1.0,
            b => f64::from(b.trailing_zeros()),
        })),
        ("findMSB", [a]) if integer(a) => Some(a.map(Int, |x| {
            let b = bits(x, a.kind);
            // A negative int's most significant bit is its highest 0.
            let b = if a.kind == Int && (b as i32) < 0 {
                !b
            } else {
                b
            };
            if b == 0 {
                -1.0
            } else {
                f64::from(31 - b.leading_zeros())
            }
        })),
        ("bitfieldReverse", [a]) if integer(a) => {
            Some(a.map(a.kind, |x| value(bits(x, a.kind).reverse_bits(), a.kind)))
        }
        ("bitfieldExtract", [a, offset, count]) if integer(a) => {
            let (offset, count) = (scalar_int(offset)?, scalar_int(count)?);
            if offset > 32 || count > 32 || offset + count > 32 {
                return None;
            }
            Some(a.map(a.kind, |x| {
                if count == 0 {
                    return 0.0;
                }
                let b = bits(x, a.kind) << (32 - offset - count);
                match a.kind {
                    Int => f64::from((b as i32) >> (32 - count)),
                    _ => f64::from(b >> (32 - count)),
                }
            }))
        }
        ("bitfieldInsert", [base, insert, offset, count])
            if integer(base)
                && insert.kind == base.kind
                && insert.data.len() == base.data.len() =>
        {
            let (offset, count) = (scalar_int(offset)?, scalar_int(count)?);
            if offset > 32 || count > 32 || offset + count > 32 {
                return None;
            }
            let mask = if count == 0 {
                0
            } else {
                (u32::MAX >> (32 - count)) << offset
            };
            let data = base
                .data
                .iter()
                .zip(&insert.data)
                .map(|(&b, &i)| {
                    let (b, i) = (bits(b, base.kind), bits(i, base.kind));
                    value((b & !mask) | ((i << offset) & mask), base.kind)
                })
                .collect();
            Some(Value::vector(base.kind, data))
        }
        _ => None,
    }
}

/// The integer a bracketed expression comes to, if it is a constant this module evaluates.
fn evaluate(expr: &str) -> Option<i64> {
    let double = expr.contains("lf")
        || expr.contains("LF")
        || expr.contains("double")
        || expr.contains("dvec")
        || expr.contains("dmat");
    DOUBLES.with(|d| d.set(double));
    let v = evaluate_in_mode(expr);
    DOUBLES.with(|d| d.set(false));
    v
}

fn evaluate_in_mode(expr: &str) -> Option<i64> {
    let tokens = tokenize(expr)?;
    let mut eval = Eval { tokens, at: 0 };
    let v = eval.ternary()?;
    if eval.at != eval.tokens.len() || !v.is_scalar() {
        return None;
    }
    match v.kind {
        Kind::Int => Some(v.data[0] as i32 as i64),
        Kind::Uint => Some(v.data[0] as u32 as i64),
        _ => None,
    }
}

/// The value of a layout qualifier's integer constant expression (`offset = start + 1`,
/// which GLSL 4.40 and `GL_ARB_enhanced_layouts` allow where earlier versions take a literal
/// only): what this module evaluates, with the names of the `const int` and `const uint`
/// scalars `source` declares replaced by their values (each declared by such an expression
/// itself; a later declaration of a name wins). `None` for anything else.
pub(crate) fn layout_constant(source: &str, expr: &str) -> Option<i64> {
    let clean = crate::atomic_counter::uncommented(source);
    let mut constants: Vec<(&str, String)> = Vec::new();
    for statement in clean.split([';', '{', '}']) {
        let Some((head, value)) = statement.split_once('=') else {
            continue;
        };
        let words: Vec<&str> = head.split_whitespace().collect();
        let [.., "const", ty @ ("int" | "uint"), name] = words[..] else {
            continue;
        };
        if !name.bytes().all(ident) {
            continue;
        }
        if let Some(v) = evaluate(&substitute(value, &constants)) {
            let text = if ty == "uint" {
                format!("{v}u")
            } else {
                format!("({v})")
            };
            constants.push((name, text));
        }
    }
    evaluate(&substitute(expr, &constants))
}

/// `expr` with each whole-word name of `constants` replaced by its value (the last entry of
/// a name).
fn substitute(expr: &str, constants: &[(&str, String)]) -> String {
    let b = expr.as_bytes();
    let starts_name = |c: u8| ident(c) && !c.is_ascii_digit();
    let mut out = String::with_capacity(expr.len());
    let mut i = 0;
    while i < b.len() {
        if starts_name(b[i]) {
            let start = i;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            let word = &expr[start..i];
            match constants.iter().rev().find(|(n, _)| *n == word) {
                Some((_, value)) => out.push_str(value),
                None => out.push_str(word),
            }
        } else {
            let start = i;
            i += 1;
            while i < b.len() && !starts_name(b[i]) {
                i += 1;
            }
            out.push_str(&expr[start..i]);
        }
    }
    out
}

/// Replaces each `[...]` holding a call or constructor that evaluates to an integer with that
/// integer (see the module docs). Comments and preprocessor lines are left as they are.
///
/// A function-like macro whose body declares an array (piglit's
/// `#define STATIC_ASSERT(cond) { float array[(cond) ? -1 : 1]; }`) is expanded where it is
/// used, and the use replaced with the expansion, when every array size of the expansion
/// folds to an integer; the newlines of a use spanning lines follow it, so later lines keep
/// their numbers.
pub(crate) fn fold_array_sizes(source: &str) -> Cow<'_, str> {
    match expand_array_macros(source) {
        Some(expanded) => Cow::Owned(fold_brackets(&expanded).into_owned()),
        None => fold_brackets(source),
    }
}

/// Whether a byte may be part of an identifier.
fn ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The source with every use of a function-like macro declaring an array replaced by its
/// folded expansion (see [`fold_array_sizes`]); `None` where nothing changed.
fn expand_array_macros(source: &str) -> Option<String> {
    let mut macros = Vec::new();
    for line in source.lines() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("define") else {
            continue;
        };
        let rest = rest.trim_start();
        let name_end = rest.bytes().position(|c| !ident(c)).unwrap_or(rest.len());
        let (name, after) = rest.split_at(name_end);
        let Some(after) = after.strip_prefix('(') else {
            continue;
        };
        let Some(close) = after.find(')') else {
            continue;
        };
        let params: Vec<&str> = after[..close].split(',').map(str::trim).collect();
        let body = after[close + 1..].trim();
        if !name.is_empty() && body.contains('[') && !body.ends_with('\\') {
            macros.push((name, params, body));
        }
    }
    if macros.is_empty() {
        return None;
    }
    let b = source.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c == b'#' && line_start {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if !c.is_ascii_whitespace() {
            line_start = false;
        }
        let starts_name = ident(c) && (i == 0 || !ident(b[i - 1]));
        let used = starts_name
            .then(|| {
                macros.iter().find(|(name, _, _)| {
                    source[i..].starts_with(name)
                        && source[i + name.len()..].trim_start().starts_with('(')
                })
            })
            .flatten();
        let Some((name, params, body)) = used else {
            i += 1;
            continue;
        };
        // The arguments, split at commas outside parentheses.
        let open = i + name.len() + source[i + name.len()..].find('(').unwrap_or(0);
        let mut depth = 0;
        let mut args = Vec::new();
        let mut arg_start = open + 1;
        let mut end = None;
        for (j, &ch) in b.iter().enumerate().skip(open) {
            match ch {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        args.push(source[arg_start..j].trim());
                        end = Some(j);
                        break;
                    }
                }
                b',' if depth == 1 => {
                    args.push(source[arg_start..j].trim());
                    arg_start = j + 1;
                }
                _ => {}
            }
        }
        let Some(end) = end.filter(|_| args.len() == params.len()) else {
            i += 1;
            continue;
        };
        // The body with each parameter replaced by its argument (whole identifiers only).
        let mut expansion = String::new();
        let body_bytes = body.as_bytes();
        let mut k = 0;
        while k < body_bytes.len() {
            if ident(body_bytes[k]) && (k == 0 || !ident(body_bytes[k - 1])) {
                let n = body_bytes[k..]
                    .iter()
                    .position(|&c| !ident(c))
                    .unwrap_or(body.len() - k);
                let word = &body[k..k + n];
                match params.iter().position(|p| *p == word) {
                    Some(p) => expansion.push_str(&args[p].replace('\n', " ")),
                    None => expansion.push_str(word),
                }
                k += n;
            } else {
                expansion.push(body_bytes[k] as char);
                k += 1;
            }
        }
        let folded = fold_brackets(&expansion);
        let all_folded = folded.split('[').skip(1).all(|part| {
            part.split(']')
                .next()
                .is_some_and(|n| n.trim().parse::<i64>().is_ok())
        });
        if !all_folded {
            i = end + 1;
            continue;
        }
        out.push_str(&source[copied..i]);
        out.push_str(&folded);
        out.extend(std::iter::repeat_n(
            '\n',
            source[i..end].matches('\n').count(),
        ));
        copied = end + 1;
        i = end + 1;
    }
    if copied == 0 {
        return None;
    }
    out.push_str(&source[copied..]);
    Some(out)
}

/// [`fold_array_sizes`] without the macro expansion.
fn fold_brackets(source: &str) -> Cow<'_, str> {
    let b = source.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
            }
            b'#' if line_start => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b'[' => {
                // The matching bracket on the same line.
                let mut depth = 0;
                let mut end = None;
                for (j, &c) in b.iter().enumerate().skip(i) {
                    match c {
                        b'[' => depth += 1,
                        b']' => {
                            depth -= 1;
                            if depth == 0 {
                                end = Some(j);
                                break;
                            }
                        }
                        b'\n' => break,
                        _ => {}
                    }
                }
                if let Some(end) = end {
                    let inner = &source[i + 1..end];
                    if inner.contains('(')
                        && let Some(n) = evaluate(inner)
                    {
                        let o = out.get_or_insert_with(String::new);
                        o.push_str(&source[copied..i + 1]);
                        o.push_str(&n.to_string());
                        copied = end;
                        i = end;
                    }
                }
                i += 1;
            }
            c => {
                if !c.is_ascii_whitespace() {
                    line_start = false;
                }
                i += 1;
            }
        }
    }
    match out {
        Some(mut o) => {
            o.push_str(&source[copied.min(source.len())..]);
            Cow::Owned(o)
        }
        None => Cow::Borrowed(source),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_what_glslang_does_not() {
        let cases = [
            // Doubles in double precision: 1 + 2^-40 is not 1 (it would be as a float).
            (
                "(1.0lf + 9.094947017729282e-13lf) != 1.0lf ? 1 : -1",
                Some(1),
            ),
            (
                "distance(transpose(dmat3x2(0.09lf, -1.19lf, 1.3lf, 0.08lf, 1.25lf, 1.08lf))[1], \
                 dvec3(-1.19lf, 0.08lf, 1.08lf)) <= 1e-15lf ? 1 : -1",
                Some(1),
            ),
            (
                "matrixCompMult(dmat2x3(2.0lf), dmat2x3(3.0lf))[1][1] == 6.0lf ? 1 : -1",
                Some(1),
            ),
            // A single-precision literal among doubles is left to glslang.
            ("(1.0lf + 0.1) > 1.0lf ? 1 : -1", None),
            (
                "determinant(mat2(2.0, 1.0, 1.0, 3.0)) == 5.0 ? 1 : -1",
                Some(1),
            ),
            (
                "(vec2(-0.1, -1.2) == vec2(-0.1, -1.2)) == true ? 1 : -1",
                Some(1),
            ),
            (
                "(vec2(-0.1, -1.2) != vec2(-0.42, 0.48)) == false ? 1 : -1",
                Some(-1),
            ),
            (
                "transpose(mat2x3(1, 2, 3, 4, 5, 6))[2] == vec2(3.0, 6.0) ? 1 : -1",
                Some(1),
            ),
            (
                "pow(distance(inverse(mat2(1.6, 1.53, 0.76, -1.0))[0], vec2(0.36195165, 0.553786)), 2) <= 8.487418e-11 ? 1 : -1",
                Some(1),
            ),
            ("sinh(0.5) > 0.52 ? 2 : 3", Some(2)),
            (
                "matrixCompMult(mat2(2.0), mat2(3.0))[1][1] == 6.0 ? 1 : -1",
                Some(1),
            ),
            ("ivec2(3, 4).y + 1", Some(5)),
            ("(-31 >> 1u) == -16 ? 1 : -1", Some(1)),
            ("(3u << 2) == 12u ? 1 : -1", Some(1)),
            (
                "ivec4(32, 31, 31, 30) != bitCount(uvec4(0xFFFFFFFFu, 0xFFFFFFFEu, 0xFFFFFFFDu, 0xFFFFFFFCu)) ? -1 : 1",
                Some(1),
            ),
            (
                "ivec4(0, 1, 2, 3) != findMSB(ivec4(-2, -3, -5, -9)) ? -1 : 1",
                Some(1),
            ),
            (
                "ivec4(-1, 0, 1, 31) != findLSB(uvec4(0u, 1u, 2u, 0x80000000u)) ? -1 : 1",
                Some(1),
            ),
            (
                "ivec4(1, -1, -1, 1) != bitfieldExtract(ivec4(1, 3, 3, 1), 0, 2) ? -1 : 1",
                Some(1),
            ),
            (
                "uvec4(0x0009000Fu, 0x0004000Fu, 0x0001000Fu, 0x0000000Fu) != bitfieldInsert(uvec4(0x000F000Fu), uvec4(0x9u, 0x4u, 0x1u, 0x0u), 16, 4) ? -1 : 1",
                Some(1),
            ),
            ("bitfieldReverse(1) == int(0x80000000u) ? 1 : -1", Some(1)),
            ("bitfieldReverse(2u) == 0x40000000u ? 1 : -1", Some(1)),
            ("n + 1", None),
            ("f(1.0) > 0.0 ? 1 : 2", None),
            ("vec2(1.0).x", None),
        ];
        for (expr, want) in cases {
            assert_eq!(evaluate(expr), want, "{expr}");
        }
        let inv = inverse(&construct("mat3", &[Value::scalar(Kind::Float, 2.0)]).unwrap()).unwrap();
        assert_eq!(inv.data, vec![0.5, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.5]);
        let m4 = construct_matrix(
            4,
            4,
            &[
                1., 0., 2., 0., 0., 3., 0., 0., 0., 0., 1., 0., 4., 0., 0., 1.,
            ]
            .map(|v| Value::scalar(Kind::Float, v)),
        )
        .unwrap();
        assert_eq!(determinant(&m4), Some(3.0));
    }

    #[test]
    fn rewrites_only_foldable_brackets_on_their_line() {
        let src = "#version 150\n// a[sinh(1.0) > 0.0 ? 1 : 2]\nvoid main() {\n  float[sinh(1.0) > 0.0 ? 1 : 2] a;\n  float b[n(1)];\n  x = y[1 + int(2.0)];\n}\n";
        assert_eq!(
            fold_array_sizes(src),
            "#version 150\n// a[sinh(1.0) > 0.0 ? 1 : 2]\nvoid main() {\n  float[1] a;\n  float b[n(1)];\n  x = y[3];\n}\n"
        );
        assert!(matches!(
            fold_array_sizes("float a[2];\n"),
            Cow::Borrowed(_)
        ));
        // A macro declaring an array, used across two lines: expanded and folded, the next
        // line keeping its number; a use that does not fold is left as it is.
        let src = "#define CHECK(c) { float array[(c) ? -1 : 1]; }\n\
            void main() {\n  CHECK(ivec2(1) !=\n bitCount(ivec2(1, 2)));\n  CHECK(n);\n}\n";
        assert_eq!(
            fold_array_sizes(src),
            "#define CHECK(c) { float array[(c) ? -1 : 1]; }\n\
            void main() {\n  { float array[1]; }\n;\n  CHECK(n);\n}\n"
        );
    }
}

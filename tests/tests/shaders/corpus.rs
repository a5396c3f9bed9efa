//! The corpus of `tests/shaders/`: its cases (format in `tests/shaders/README.md`), the
//! declarations the test reads from their sources, and the known differences.

use std::collections::{BTreeMap, BTreeSet};

use tessera_engine::gl::*;

/// The corpus files, by name, as the cases in them refer to them.
pub(super) const CORPUS: [(&str, &str); 4] = [
    (
        "uniforms.cases",
        include_str!("../../shaders/uniforms.cases"),
    ),
    ("blocks.cases", include_str!("../../shaders/blocks.cases")),
    (
        "interface.cases",
        include_str!("../../shaders/interface.cases"),
    ),
    ("invalid.cases", include_str!("../../shaders/invalid.cases")),
];

const KNOWN: &str = include_str!("../../shaders/known-differences.txt");

/// The aspects a difference can be listed under in `known-differences.txt`.
pub(super) const ASPECTS: [&str; 7] = [
    "status",
    "errors",
    "uniforms",
    "attributes",
    "outputs",
    "blocks",
    "program",
];

// ---------------------------------------------------------------------------------------
// The corpus

/// The native driver's verdict on a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Expect {
    /// Every shader compiles and the program links.
    Ok,
    /// The shaders of these stages fail to compile (the others compile).
    CompileFail(BTreeSet<String>),
    /// Every shader compiles; the link fails.
    LinkFail,
}

/// One program of the corpus.
#[derive(Debug)]
pub(super) struct Case {
    pub(super) name: String,
    /// `file:line` of the case's header.
    pub(super) at: String,
    pub(super) expect: Expect,
    /// `glBindAttribLocation` calls made before the link.
    pub(super) bind_attrib: Vec<(String, GLuint)>,
    /// `glBindFragDataLocation` calls made before the link.
    pub(super) bind_frag: Vec<(String, GLuint)>,
    /// Blocks whose layout is the implementation's (`shared`, `packed`).
    pub(super) implementation_layout: BTreeSet<String>,
    /// (stage name, GL shader type, source), in attach order.
    pub(super) shaders: Vec<(String, GLenum, String)>,
}

fn stage_kind(stage: &str) -> Option<GLenum> {
    match stage {
        "vertex" => Some(VERTEX_SHADER),
        "geometry" => Some(GEOMETRY_SHADER),
        "fragment" => Some(FRAGMENT_SHADER),
        _ => None,
    }
}

/// Parses a corpus file (format in `tests/shaders/README.md`). Panics on a malformed file:
/// that is a bug of the corpus.
pub(super) fn parse(file: &str, text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut in_source = false;
    for (n, line) in text.lines().enumerate() {
        let at = format!("{file}:{}", n + 1);
        if let Some(name) = line.strip_prefix("=== ") {
            cases.push(Case {
                name: name.trim().to_string(),
                at,
                expect: Expect::Ok,
                bind_attrib: Vec::new(),
                bind_frag: Vec::new(),
                implementation_layout: BTreeSet::new(),
                shaders: Vec::new(),
            });
            in_source = false;
            continue;
        }
        let Some(case) = cases.last_mut() else {
            continue; // The file's own commentary, before the first case.
        };
        if let Some(stage) = line.strip_prefix("--- ") {
            let stage = stage.trim();
            let kind = stage_kind(stage).unwrap_or_else(|| panic!("{at}: unknown stage {stage}"));
            case.shaders.push((stage.to_string(), kind, String::new()));
            in_source = true;
            continue;
        }
        if in_source {
            let source = &mut case.shaders.last_mut().expect("a stage was opened").2;
            source.push_str(line);
            source.push('\n');
            continue;
        }
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("{at}: expected `key: value`, found {line:?}"));
        let words: Vec<&str> = value.split_whitespace().collect();
        let binding = |words: &[&str]| -> (String, GLuint) {
            match words {
                [name, index] => (
                    name.to_string(),
                    index
                        .parse()
                        .unwrap_or_else(|_| panic!("{at}: bad index {index}")),
                ),
                _ => panic!("{at}: expected `NAME INDEX`"),
            }
        };
        match key.trim() {
            "expect" => {
                case.expect = match words.as_slice() {
                    ["ok"] => Expect::Ok,
                    ["link-fail"] => Expect::LinkFail,
                    ["compile-fail", stages @ ..] if !stages.is_empty() => {
                        Expect::CompileFail(stages.iter().map(|s| s.to_string()).collect())
                    }
                    _ => panic!("{at}: bad expectation {value:?}"),
                }
            }
            "bind-attrib" => case.bind_attrib.push(binding(&words)),
            "bind-frag" => case.bind_frag.push(binding(&words)),
            "implementation-layout" => case
                .implementation_layout
                .extend(words.iter().map(|w| w.to_string())),
            "note" => {}
            other => panic!("{at}: unknown key {other}"),
        }
    }
    for case in &cases {
        assert!(
            !case.shaders.is_empty(),
            "{}: a case without shaders",
            case.at
        );
    }
    cases
}

/// Every case of every corpus file, with the file it came from.
pub(super) fn corpus() -> Vec<(&'static str, Case)> {
    CORPUS
        .iter()
        .flat_map(|(file, text)| parse(file, text).into_iter().map(move |c| (*file, c)))
        .collect()
}

/// Names declared at global scope with storage qualifier `storage` (`in`, `out`) in
/// `source`, each with whether its declaration carries `layout(... location ...)`. Knows
/// the one-declaration-per-line style of the corpus; interface blocks are skipped.
pub(super) fn declared(source: &str, storage: &str) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    let mut depth = 0i32;
    for line in source.lines() {
        let line = line.split("//").next().unwrap_or("").trim();
        let at_global = depth == 0 && !line.contains('{') && !line.starts_with('#');
        depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
        if !at_global || !line.ends_with(';') {
            continue;
        }
        let (layout, rest) = match line.find("layout") {
            Some(start) => match line[start..].find(')') {
                Some(end) => (&line[start..start + end], &line[start + end + 1..]),
                None => continue,
            },
            None => ("", line),
        };
        let words: Vec<&str> = rest
            .trim_end_matches(';')
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        let Some(at) = words.iter().position(|w| *w == storage) else {
            continue;
        };
        for name in words.iter().skip(at + 2) {
            let name = name.split('[').next().unwrap_or(name);
            found.push((name.to_string(), layout.contains("location")));
        }
    }
    found
}

/// `known-differences.txt` as (case, aspect) -> reason.
pub(super) fn known_differences() -> BTreeMap<(String, String), String> {
    let mut known = BTreeMap::new();
    for (n, line) in KNOWN.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.splitn(3, char::is_whitespace);
        let (case, aspect, reason) = (words.next(), words.next(), words.next());
        let (Some(case), Some(aspect), Some(reason)) = (case, aspect, reason) else {
            panic!(
                "known-differences.txt:{}: expected `case aspect reason`",
                n + 1
            );
        };
        known.insert(
            (case.to_string(), aspect.to_string()),
            reason.trim().to_string(),
        );
    }
    known
}

#[test]
fn output_and_input_declarations_are_found() {
    let source = "#version 330 core
layout(location = 1) out vec4 a;
flat out ivec2 b, c[2];
out Block { vec4 x; } blk;
void main() { vec4 local; }
";
    assert_eq!(
        declared(source, "out"),
        [
            ("a".to_string(), true),
            ("b".to_string(), false),
            ("c".to_string(), false)
        ]
    );
    assert_eq!(declared(source, "in"), []);
}

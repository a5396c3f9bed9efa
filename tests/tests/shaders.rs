//! Shader conformance against the native driver: every case of the corpus in `tests/shaders/`
//! is compiled and linked on Tessera and on the native desktop GL 3.3 core driver (the
//! oracle), and the two must agree on compile and link status, on the GL errors the calls
//! raised, and, for programs both link, on the whole GL 3.3 reflection: active uniforms
//! (names, types, sizes, block membership, layouts where GL defines them), uniform
//! locations and indices, active attributes and their locations, fragment data locations,
//! uniform blocks (names, data sizes, members, bindings, stages) and the geometry
//! parameters.
//!
//! Where GL leaves a choice to the implementation, only what GL fixes is compared: lists
//! are compared as sets keyed by name (their order is the implementation's); locations of
//! attributes and outputs that neither `layout(location)` nor a bind call fixes must be
//! valid and disjoint, not equal; offsets, strides and data sizes of `shared` and `packed`
//! blocks (named by the case's `implementation-layout:` line) are not compared.
//!
//! The corpus records the native driver's verdict for each case (`expect:`), so a change of
//! the oracle is noticed too. Disagreements Tessera has with the native driver are data:
//! `tests/shaders/known-differences.txt` lists each as `case aspect reason`, and the test
//! fails on any disagreement not listed and on any listed one that went away.

mod corpus;
mod reflection;

use std::collections::{BTreeMap, BTreeSet};

use tessera_engine::gl::*;
use tessera_tests::gl::{Gl, NativeGl};

use corpus::{ASPECTS, CORPUS, Case, Expect, corpus, declared, known_differences, parse};
use reflection::{Attribute, Reflection, Uniform, located, run};

// ---------------------------------------------------------------------------------------
// Comparing

/// The differences of one case, by aspect.
type Diffs = BTreeMap<&'static str, Vec<String>>;

fn differ(diffs: &mut Diffs, aspect: &'static str, message: String) {
    debug_assert!(ASPECTS.contains(&aspect));
    diffs.entry(aspect).or_default().push(message);
}

/// GL's number of vertex attribute slots of one element of type `ty`.
fn slots(ty: GLenum) -> GLint {
    // Compared, not matched: GL's constant names are not Rust constant-pattern style.
    if [FLOAT_MAT2, FLOAT_MAT2x3, FLOAT_MAT2x4].contains(&ty) {
        2
    } else if [FLOAT_MAT3, FLOAT_MAT3x2, FLOAT_MAT3x4].contains(&ty) {
        3
    } else if [FLOAT_MAT4, FLOAT_MAT4x2, FLOAT_MAT4x3].contains(&ty) {
        4
    } else {
        1
    }
}

/// Names whose location `layout(location)` or a bind call fixes, for `storage` in the stage
/// `kind` of the case.
fn fixed_names(
    case: &Case,
    kind: GLenum,
    storage: &str,
    bound: &[(String, GLuint)],
) -> BTreeSet<String> {
    let mut fixed: BTreeSet<String> = bound.iter().map(|(n, _)| n.clone()).collect();
    for (_, k, source) in &case.shaders {
        if *k == kind {
            fixed.extend(
                declared(source, storage)
                    .into_iter()
                    .filter(|d| d.1)
                    .map(|d| d.0),
            );
        }
    }
    fixed
}

/// Checks that automatically placed `(name, first, slots)` ranges are non-negative and
/// do not overlap any other range.
fn check_placement(
    diffs: &mut Diffs,
    aspect: &'static str,
    who: &str,
    ranges: &[(String, GLint, GLint)],
    fixed: &BTreeSet<String>,
) {
    for (i, (name, first, n)) in ranges.iter().enumerate() {
        if fixed.contains(name) || name.starts_with("gl_") {
            continue;
        }
        if *first < 0 {
            differ(diffs, aspect, format!("{who}: {name} has no location"));
            continue;
        }
        for (j, (other, o_first, o_n)) in ranges.iter().enumerate() {
            if i != j && *o_first >= 0 && first < &(o_first + o_n) && *o_first < first + n {
                differ(
                    diffs,
                    aspect,
                    format!("{who}: {name} at {first} overlaps {other} at {o_first}"),
                );
            }
        }
    }
}

/// Compares two keyed collections, reporting missing and extra keys and, for common keys,
/// what `same` says differs.
fn compare_maps<T: std::fmt::Debug>(
    diffs: &mut Diffs,
    aspect: &'static str,
    what: &str,
    native: &BTreeMap<String, T>,
    tessera: &BTreeMap<String, T>,
    mut same: impl FnMut(&str, &T, &T) -> Option<String>,
) {
    for (name, n) in native {
        match tessera.get(name) {
            None => differ(diffs, aspect, format!("{what} {name} {n:?} is missing")),
            Some(t) => {
                if let Some(d) = same(name, n, t) {
                    differ(diffs, aspect, format!("{what} {name}: {d}"));
                }
            }
        }
    }
    for (name, t) in tessera {
        if !native.contains_key(name) {
            differ(diffs, aspect, format!("{what} {name} {t:?} is extra"));
        }
    }
}

fn compare_reflection(case: &Case, native: &Reflection, tessera: &Reflection, diffs: &mut Diffs) {
    // Uniforms: layouts only where GL defines them (the default block reports -1; std140
    // blocks their std140 layout).
    let free = |u: &Uniform| u.block.as_ref().is_some_and(|b| layout_is_free(case, b));
    compare_maps(
        diffs,
        "uniforms",
        "uniform",
        &native.uniforms,
        &tessera.uniforms,
        |_, n, t| {
            let mut t = t.clone();
            if free(n) {
                t.offset = n.offset;
                t.array_stride = n.array_stride;
                t.matrix_stride = n.matrix_stride;
            }
            (*n != t).then(|| format!("native {n:?}, tessera {t:?}"))
        },
    );
    if native.max_lengths[1] != tessera.max_lengths[1] {
        differ(
            diffs,
            "uniforms",
            format!(
                "ACTIVE_UNIFORM_MAX_LENGTH: native {}, tessera {}",
                native.max_lengths[1], tessera.max_lengths[1]
            ),
        );
    }
    // Attributes: locations compared where fixed, checked for validity where not.
    let fixed = fixed_names(case, VERTEX_SHADER, "in", &case.bind_attrib);
    compare_maps(
        diffs,
        "attributes",
        "attribute",
        &native.attributes,
        &tessera.attributes,
        |name, n, t| {
            let free = !fixed.contains(name) && !name.starts_with("gl_");
            let same = n.size == t.size && n.ty == t.ty && (free || n.location == t.location);
            (!same).then(|| format!("native {n:?}, tessera {t:?}"))
        },
    );
    let ranges: Vec<_> = tessera
        .attributes
        .iter()
        .map(|(n, a)| (n.clone(), a.location, slots(a.ty) * a.size))
        .collect();
    check_placement(diffs, "attributes", "tessera", &ranges, &fixed);
    if native.max_lengths[0] != tessera.max_lengths[0] {
        differ(
            diffs,
            "attributes",
            format!(
                "ACTIVE_ATTRIBUTE_MAX_LENGTH: native {}, tessera {}",
                native.max_lengths[0], tessera.max_lengths[0]
            ),
        );
    }
    // Blocks.
    compare_maps(
        diffs,
        "blocks",
        "block",
        &native.blocks,
        &tessera.blocks,
        |name, n, t| {
            let mut t = t.clone();
            if layout_is_free(case, name) {
                t.data_size = n.data_size;
            }
            (*n != t).then(|| format!("native {n:?}, tessera {t:?}"))
        },
    );
    if native.max_lengths[2] != tessera.max_lengths[2] {
        differ(
            diffs,
            "blocks",
            format!(
                "ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH: native {}, tessera {}",
                native.max_lengths[2], tessera.max_lengths[2]
            ),
        );
    }
    if native.geometry != tessera.geometry {
        differ(
            diffs,
            "program",
            format!(
                "geometry parameters: native {:?}, tessera {:?}",
                native.geometry, tessera.geometry
            ),
        );
    }
}

/// Whether the block named `name` (or the array of blocks it is an element of) has an
/// implementation-defined layout in this case.
fn layout_is_free(case: &Case, name: &str) -> bool {
    let base = name.split('[').next().unwrap_or(name);
    case.implementation_layout.contains(base)
}

/// The uniform names `glGetUniformLocation` is asked about (`elements`) or
/// `glGetUniformIndices` too (not `elements`): every active uniform's name, for arrays the
/// name without `[0]`, and a name that is none; with `elements`, also the last element of
/// arrays and one past it.
///
/// `glGetUniformIndices` is not asked about `a[i]`, `i > 0`: GL defines INVALID_INDEX for
/// such names (they are no active uniform's name, 4.3 core § 7.3.1.1), Tessera answers
/// that, and Mesa answers the index of `a[0]` for any `i`, even past the end.
fn uniform_queries(native: &Reflection, tessera: &Reflection, elements: bool) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (name, u) in native.uniforms.iter().chain(&tessera.uniforms) {
        names.insert(name.clone());
        if let Some(base) = name.strip_suffix("[0]") {
            names.insert(base.to_string());
            if elements {
                names.insert(format!("{base}[{}]", u.size - 1));
                names.insert(format!("{base}[{}]", u.size));
            }
        }
    }
    names.insert("no_such_uniform".into());
    names
}

/// The name of the uniform each queried name's `glGetUniformIndices` answer points to.
fn resolved_indices(
    gl: &mut dyn Gl,
    program: GLuint,
    r: &Reflection,
    names: &BTreeSet<String>,
) -> BTreeMap<String, Option<String>> {
    let list: Vec<&str> = names.iter().map(String::as_str).collect();
    let indices = gl.get_uniform_indices(program, &list);
    names
        .iter()
        .zip(indices)
        .map(|(n, i)| (n.clone(), r.uniform_order.get(i as usize).cloned()))
        .collect()
}

/// Fragment outputs to ask `glGetFragDataLocation` about: every declared or bound output
/// name, and a name that is none.
fn output_queries(case: &Case) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = case.bind_frag.iter().map(|b| b.0.clone()).collect();
    for (_, kind, source) in &case.shaders {
        if *kind == FRAGMENT_SHADER {
            names.extend(declared(source, "out").into_iter().map(|d| d.0));
        }
    }
    names.insert("no_such_output".into());
    names
}

/// Runs one case on both implementations; returns its differences and whether the native
/// driver's verdict is the one the corpus records.
fn check_case(
    native: &mut NativeGl,
    tessera: &mut tessera_engine::Context,
    case: &Case,
) -> (Diffs, Option<String>) {
    let mut diffs = Diffs::new();
    let n = run(native, case);
    let t = run(tessera, case);
    let verdict = if n.compiled.iter().any(|c| !c) {
        Expect::CompileFail(
            case.shaders
                .iter()
                .zip(&n.compiled)
                .filter(|(_, c)| !**c)
                .map(|(s, _)| s.0.clone())
                .collect(),
        )
    } else if n.linked {
        Expect::Ok
    } else {
        Expect::LinkFail
    };
    let oracle = (verdict != case.expect).then(|| {
        format!(
            "{} ({}): the corpus expects {:?}, the native driver says {verdict:?}\nshader logs: {:?}\nprogram log: {}",
            case.name, case.at, case.expect, n.shader_logs, n.program_log
        )
    });
    for (i, (stage, _, _)) in case.shaders.iter().enumerate() {
        if n.compiled[i] != t.compiled[i] {
            differ(
                &mut diffs,
                "status",
                format!(
                    "{stage} shader {i}: native compiled {}, tessera {} (tessera log: {:?}; native log: {:?})",
                    n.compiled[i], t.compiled[i], t.shader_logs[i], n.shader_logs[i]
                ),
            );
        }
        if !t.compiled[i] && t.shader_logs[i].trim().is_empty() {
            differ(
                &mut diffs,
                "status",
                format!("{stage} shader {i}: failed without a log"),
            );
        }
    }
    if n.linked != t.linked {
        differ(
            &mut diffs,
            "status",
            format!(
                "native linked {}, tessera {} (tessera log: {:?}; native log: {:?})",
                n.linked, t.linked, t.program_log, n.program_log
            ),
        );
    }
    if !t.linked && t.program_log.trim().is_empty() {
        differ(&mut diffs, "status", "the link failed without a log".into());
    }
    if n.error != t.error {
        differ(
            &mut diffs,
            "errors",
            format!("native raised {:#x}, tessera {:#x}", n.error, t.error),
        );
    }
    if n.attached != t.attached {
        differ(
            &mut diffs,
            "program",
            format!(
                "ATTACHED_SHADERS: native {}, tessera {}",
                n.attached, t.attached
            ),
        );
    }
    if let (Some(nr), Some(tr)) = (&n.reflection, &t.reflection) {
        compare_reflection(case, nr, tr, &mut diffs);
        let (np, tp) = (n.program, t.program);
        let names = uniform_queries(nr, tr, true);
        let (nl, tl) = (located(native, np, &names), located(tessera, tp, &names));
        for (name, has) in &nl {
            if tl.get(name) != Some(has) {
                differ(
                    &mut diffs,
                    "uniforms",
                    format!(
                        "glGetUniformLocation({name}): native located {has}, tessera {:?}",
                        tl.get(name)
                    ),
                );
            }
        }
        let names = uniform_queries(nr, tr, false);
        let (ni, ti) = (
            resolved_indices(native, np, nr, &names),
            resolved_indices(tessera, tp, tr, &names),
        );
        for (name, to) in &ni {
            if ti.get(name) != Some(to) {
                differ(
                    &mut diffs,
                    "uniforms",
                    format!(
                        "glGetUniformIndices({name}): native {to:?}, tessera {:?}",
                        ti.get(name)
                    ),
                );
            }
        }
        let outputs = output_queries(case);
        let fixed = fixed_names(case, FRAGMENT_SHADER, "out", &case.bind_frag);
        let mut placed = Vec::new();
        for name in &outputs {
            let (nl, tl) = (
                native.get_frag_data_location(np, name),
                tessera.get_frag_data_location(tp, name),
            );
            let free = !fixed.contains(name) && nl >= 0;
            if (free && tl < 0) || (!free && nl != tl) {
                differ(
                    &mut diffs,
                    "outputs",
                    format!("glGetFragDataLocation({name}): native {nl}, tessera {tl}"),
                );
            }
            if nl >= 0 {
                placed.push((name.clone(), tl, 1));
            }
        }
        check_placement(&mut diffs, "outputs", "tessera", &placed, &fixed);
        let (ne, te) = (native.get_error(), Gl::get_error(tessera));
        if ne != te {
            differ(
                &mut diffs,
                "errors",
                format!("reflection queries: native raised {ne:#x}, tessera {te:#x}"),
            );
        }
    }
    (diffs, oracle)
}

/// Runs every case of one corpus file and fails on an oracle verdict that differs from the
/// corpus, on a difference not listed as known, and on a listed one that went away.
fn check_file(file: &str) {
    let text = CORPUS
        .iter()
        .find(|c| c.0 == file)
        .map(|c| c.1)
        .expect("a corpus file");
    let known = known_differences();
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let mut tessera = tessera_tests::context();
    let (mut oracle, mut unexpected, mut gone) = (Vec::new(), Vec::new(), Vec::new());
    let cases = parse(file, text);
    let mut agreed = 0;
    for case in &cases {
        let (diffs, verdict) = check_case(&mut native, &mut tessera, case);
        oracle.extend(verdict);
        agreed += usize::from(diffs.is_empty());
        for aspect in ASPECTS {
            let listed = known.contains_key(&(case.name.clone(), aspect.to_string()));
            match (diffs.get(aspect), listed) {
                (Some(messages), false) => unexpected.push(format!(
                    "{} {aspect} ({}):\n    {}",
                    case.name,
                    case.at,
                    messages.join("\n    ")
                )),
                (None, true) => gone.push(format!("{} {aspect}", case.name)),
                _ => {}
            }
        }
    }
    eprintln!(
        "{file}: {} cases, {agreed} agree with the native driver in every aspect",
        cases.len()
    );
    assert!(
        oracle.is_empty(),
        "{file}: the native driver's verdicts changed:\n{}",
        oracle.join("\n")
    );
    assert!(
        unexpected.is_empty(),
        "{file}: differences from the native driver not in known-differences.txt:\n{}",
        unexpected.join("\n")
    );
    assert!(
        gone.is_empty(),
        "{file}: listed differences that went away (remove them from known-differences.txt):\n{}",
        gone.join("\n")
    );
}

#[test]
fn uniforms_match_the_native_driver() {
    check_file("uniforms.cases");
}

#[test]
fn uniform_blocks_match_the_native_driver() {
    check_file("blocks.cases");
}

#[test]
fn stage_interfaces_match_the_native_driver() {
    check_file("interface.cases");
}

#[test]
fn invalid_shaders_fail_as_on_the_native_driver() {
    check_file("invalid.cases");
}

#[test]
fn the_corpus_is_complete_and_the_known_differences_name_real_cases() {
    let cases = corpus();
    let mut names = BTreeSet::new();
    for (_, case) in &cases {
        assert!(
            names.insert(case.name.clone()),
            "{}: case name {} used twice",
            case.at,
            case.name
        );
    }
    let valid = cases.iter().filter(|(_, c)| c.expect == Expect::Ok).count();
    let invalid = cases.len() - valid;
    assert!(
        valid >= 40,
        "{valid} valid programs; the corpus promises at least 40"
    );
    assert!(
        invalid >= 30,
        "{invalid} invalid cases; the corpus promises at least 30"
    );
    let versions = |v: &str| {
        cases
            .iter()
            .filter(|(_, c)| c.expect == Expect::Ok && c.shaders.iter().all(|s| s.2.starts_with(v)))
            .count()
    };
    assert!(
        versions("#version 150") >= 10,
        "GLSL 1.50 programs: {}",
        versions("#version 150")
    );
    assert!(
        versions("#version 330") >= 10,
        "GLSL 3.30 programs: {}",
        versions("#version 330")
    );
    let geometry = cases
        .iter()
        .filter(|(_, c)| c.expect == Expect::Ok && c.shaders.iter().any(|s| s.1 == GEOMETRY_SHADER))
        .count();
    assert!(geometry >= 3, "programs with a geometry stage: {geometry}");
    for ((case, aspect), reason) in known_differences() {
        assert!(
            names.contains(&case),
            "known-differences.txt names no case {case}"
        );
        assert!(
            ASPECTS.contains(&aspect.as_str()),
            "known-differences.txt: {case}: no aspect {aspect}"
        );
        assert!(
            !reason.is_empty(),
            "known-differences.txt: {case} {aspect}: no reason"
        );
    }
}

#[test]
fn the_harness_reads_the_reflection_both_implementations_report() {
    // Guards against a comparison of two empty answers: std140 offsets worked out by hand.
    let (_, case) = corpus()
        .into_iter()
        .find(|(_, c)| c.name == "b-std140-scalars-330")
        .expect("the case");
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let mut tessera = tessera_tests::context();
    for (who, outcome) in [
        ("native", run(&mut native, &case)),
        ("tessera", run(&mut tessera, &case)),
    ] {
        let r = outcome
            .reflection
            .unwrap_or_else(|| panic!("{who}: the case links"));
        let offsets: Vec<(&str, GLint)> = [
            "f", "v2", "v3", "after_v3", "i", "u", "b", "v4", "i3", "u2", "b2", "last",
        ]
        .into_iter()
        .map(|n| (n, r.uniforms.get(n).map_or(-2, |u| u.offset)))
        .collect();
        assert_eq!(
            offsets,
            [
                ("f", 0),
                ("v2", 8),
                ("v3", 16),
                ("after_v3", 28),
                ("i", 32),
                ("u", 36),
                ("b", 40),
                ("v4", 48),
                ("i3", 64),
                ("u2", 80),
                ("b2", 88),
                ("last", 96)
            ],
            "{who}"
        );
        let block = r
            .blocks
            .get("Scalars")
            .unwrap_or_else(|| panic!("{who}: the block"));
        assert_eq!(
            (block.data_size, block.active_uniforms, block.referenced),
            (112, 12, [1, 0, 0]),
            "{who}"
        );
        assert_eq!(r.uniforms["b2"].ty, BOOL_VEC2, "{who}");
        assert_eq!(
            r.attributes["pos"],
            Attribute {
                size: 1,
                ty: FLOAT_VEC4,
                location: 0
            },
            "{who}"
        );
    }
}

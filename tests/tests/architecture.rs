//! The dependency rule of DESIGN.md §2, checked from `cargo metadata`: backends and `wire`
//! never depend on the frontend (`components`, `systems`, `engine`, `capi`), so a server
//! process can be built without it.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::Command;

/// Package name -> names of the packages it depends on, directly or not (normal builds only).
fn dependency_closure() -> HashMap<String, BTreeSet<String>> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    let output = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(&manifest)
        .output()
        .expect("running cargo metadata");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&output.stdout).expect("metadata is JSON");
    let name_of: HashMap<String, String> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_owned(),
                p["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let mut direct: HashMap<String, Vec<String>> = HashMap::new();
    for node in meta["resolve"]["nodes"].as_array().unwrap() {
        let id = node["id"].as_str().unwrap().to_owned();
        let deps = node["deps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| {
                d["dep_kinds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|k| k["kind"].is_null() || k["kind"] == "build")
            })
            .map(|d| d["pkg"].as_str().unwrap().to_owned())
            .collect();
        direct.insert(id, deps);
    }
    let mut closure = HashMap::new();
    for (id, name) in &name_of {
        let mut seen = BTreeSet::new();
        let mut stack = vec![id.clone()];
        while let Some(next) = stack.pop() {
            for dep in direct.get(&next).into_iter().flatten() {
                if seen.insert(name_of[dep].clone()) {
                    stack.push(dep.clone());
                }
            }
        }
        closure.insert(name.clone(), seen);
    }
    closure
}

#[test]
fn backends_and_wire_never_depend_on_the_frontend() {
    let closure = dependency_closure();
    let frontend = [
        "tessera-components",
        "tessera-systems",
        "tessera-engine",
        "tessera-capi",
    ];
    for consumer in ["tessera-wire", "tessera-backend-vk", "tessera-backend-gles"] {
        let deps = closure
            .get(consumer)
            .unwrap_or_else(|| panic!("{consumer} is a workspace member"));
        let bad: Vec<_> = frontend.iter().filter(|f| deps.contains(**f)).collect();
        assert!(
            bad.is_empty(),
            "{consumer} depends on the frontend: {bad:?}"
        );
    }
    // The check can fail: the engine does depend on the frontend crates below it.
    assert!(closure["tessera-engine"].contains("tessera-systems"));
}

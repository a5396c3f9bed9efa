//! piglit's quick subset against the drop-in: `scripts/piglit --quick` on each backend, on
//! the surfaceless EGL platform and on GLX.
//!
//! The runner builds the drop-in (`scripts/dropin`, in this test binary's profile), runs the
//! lines of `tests/piglit/selection.txt` tagged `# quick` with Debian's piglit, and exits
//! non-zero on any change against `tests/piglit/fails.txt` and `skips.txt`: a new failure or
//! skip, or a listed failure that passes now. On GLX (`--platform glx`) each test opens its
//! own X window on a private Xvfb the runner starts, and creates its context through the
//! drop-in's GLX. The full selection is `scripts/piglit` (tests/piglit/README.md).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Backends the quick subset runs on.
const BACKENDS: &[&str] = &["gles", "vulkan"];

/// Fewer passing tests than this means the subset did not really run.
const MIN_PASSED: u32 = 40;

/// Where Debian's piglit package puts its test programs.
const PIGLIT_BIN: &str = "/usr/lib/x86_64-linux-gnu/piglit/bin";

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ lives in the workspace")
        .to_path_buf()
}

/// Whether this test binary is a release build (`target/release/deps/root-<hash>`).
fn release() -> bool {
    let exe = std::env::current_exe().expect("the test binary's path");
    exe.parent()
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .is_some_and(|p| p == "release")
}

/// `N` of the runner's `N passed, M failed, K skipped` line.
fn passed(stdout: &str) -> Option<u32> {
    stdout
        .lines()
        .find(|l| l.contains(" passed, ") && l.ends_with(" skipped"))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
}

/// Runs `scripts/piglit --quick` on every backend on `platform`; panics on a change.
fn quick_subset(platform: &str) {
    assert!(
        Path::new(PIGLIT_BIN).join("shader_runner").exists(),
        "piglit is not installed ({PIGLIT_BIN} is missing). Run:\n    sudo apt-get install -y piglit"
    );
    for backend in BACKENDS {
        let mut cmd = Command::new(root().join("scripts/piglit"));
        cmd.args(["--quick", "--backend", backend, "--platform", platform]);
        if !release() {
            cmd.arg("--debug");
        }
        let out = cmd.output().expect("scripts/piglit runs (python3)");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "{backend} on {platform}: scripts/piglit --quick reported changes (or could not \
             run):\n{stdout}\n{stderr}"
        );
        let n = passed(&stdout)
            .unwrap_or_else(|| panic!("{backend} on {platform}: no summary in:\n{stdout}"));
        assert!(
            n >= MIN_PASSED,
            "{backend} on {platform}: only {n} tests passed:\n{stdout}"
        );
    }
}

#[test]
fn the_quick_subset_matches_its_expectations_on_every_backend() {
    quick_subset("surfaceless");
}

/// The same tests with GLX contexts on X11 windows (Xvfb; Debian: xvfb).
#[test]
fn the_quick_subset_matches_its_expectations_on_glx() {
    quick_subset("glx");
}

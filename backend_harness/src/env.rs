//! The process environment a suite's drivers read, set once per test binary.

use std::ffi::OsString;
use std::sync::Once;

/// Sets the variables `vars` returns, the first time any test of the binary calls it; a
/// caller that comes meanwhile waits until they are set, and later calls do nothing.
///
/// A suite calls it first thing in every scene constructor, before it makes a backend: the
/// drivers (EGL and Mesa, the Vulkan loader) read their variables when a backend is made.
#[expect(
    unsafe_code,
    reason = "std::env::set_var before any thread reads the environment"
)]
pub fn set_env_once(vars: impl FnOnce() -> Vec<(&'static str, OsString)>) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for (name, value) in vars() {
            // SAFETY: runs once, before any test makes a backend (every test calls this
            // first, through its suite's scene constructor, and waits on the Once), so no
            // other thread reads the environment meanwhile.
            unsafe { std::env::set_var(name, value) };
        }
    });
}

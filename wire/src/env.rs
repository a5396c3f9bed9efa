//! # Backend options from the environment
//!
//! Backends read their switches (`TESSERA_GLES_*`, `TESSERA_VK_*`) the same way: values are
//! trimmed and compared without case, and a value a switch does not know is warned about
//! and leaves the default.

/// The value of the environment variable `name`, trimmed and lowercased; `None` if it is
/// unset (or not Unicode).
pub fn value(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_ascii_lowercase())
}

/// A two-way choice: `true` if `name` holds one of `yes`, `false` if it is unset, empty or
/// one of `no`. Another value is warned about (naming the `expected` values and what the
/// default means, `otherwise`) and gives `false`.
pub fn choice(name: &str, yes: &[&str], no: &[&str], expected: &str, otherwise: &str) -> bool {
    match value(name).as_deref() {
        None | Some("") => false,
        Some(v) if no.contains(&v) => false,
        Some(v) if yes.contains(&v) => true,
        Some(other) => {
            log::warn!("{name}={other:?} is not {expected}: {otherwise}");
            false
        }
    }
}

/// An on/off switch (`1`, `true`, `on`, `yes`; `0`, `false`, `off`, `no`); another value
/// is warned about, saying what staying off means (`off`).
pub fn switch(name: &str, off: &str) -> bool {
    choice(
        name,
        &["1", "true", "on", "yes"],
        &["0", "false", "off", "no"],
        "1/0",
        off,
    )
}

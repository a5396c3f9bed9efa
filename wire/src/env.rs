//! # Backend options from the environment
//!
//! Backends read their switches (`TESSERA_GLES_*`, `TESSERA_VK_*`) the same way: values are
//! trimmed and compared without case, and a value a switch does not know is warned about
//! and leaves the default. What a driver's `GL_RENDERER` says about it
//! ([`is_software_renderer`]) is here too, for the `auto` choices that go by it.

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

/// Substrings (case-insensitive) of a `GL_RENDERER` that name a software rasterizer.
pub const SOFTWARE_RENDERERS: &[&str] = &["llvmpipe", "softpipe", "swrast", "swiftshader"];

/// Whether a GL driver whose `GL_RENDERER` is `renderer` rasterizes in software: what
/// `TESSERA_BACKEND=auto` and the backends' `auto` presentation choices go by.
pub fn is_software_renderer(renderer: &str) -> bool {
    let lower = renderer.to_ascii_lowercase();
    SOFTWARE_RENDERERS.iter().any(|s| lower.contains(s))
}

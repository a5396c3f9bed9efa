//! `TESSERA_BACKEND=auto`: which backend a context (or `tessera-server`) gets when none is
//! named.
//!
//! ## The rule
//! 1. A **hardware Vulkan device** (`VkPhysicalDeviceType` discrete, integrated, virtual or
//!    other): the Vulkan backend.
//! 2. Else a **hardware GLES driver**: the GLES backend.
//! 3. Else the faster **software** driver: the GLES backend on llvmpipe before the Vulkan
//!    backend on lavapipe. The project's benchmark (`tessera-bench`, README "Benchmarks")
//!    measured Tessera-on-GLES over llvmpipe at 1.6x to 3.7x less CPU per draw than
//!    Tessera-on-Vulkan over lavapipe in seven of its eight scenes; Vulkan won only
//!    `ubochange`, by 1.35x.
//! 4. Else a software Vulkan device when no GLES driver starts; else no backend.
//!
//! A Vulkan device is software when its type is `CPU` (lavapipe, SwiftShader); it is the
//! device the Vulkan backend would choose ([`tessera_backend_vk::probe_device`], which
//! honours `TESSERA_VK_DEVICE`), found without creating a device. A GLES driver is software
//! when its `GL_RENDERER` names one of [`SOFTWARE_RENDERERS`]; knowing it takes starting the
//! GLES backend, which is then the one used, so the GLES driver is started only when no
//! hardware Vulkan device exists.
//!
//! [`choose`] is the rule as a pure function; [`backend`] probes the drivers, applies it,
//! and logs (info) which backend it took and why.

use tessera_wire::Backend;

use crate::config::BackendKind;
use crate::context::CreateContextError;

pub use tessera_wire::env::{SOFTWARE_RENDERERS, is_software_renderer};

/// What probing one backend's driver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Driver {
    /// No usable driver, and why.
    Missing(String),
    /// A software rasterizer, by its name.
    Software(String),
    /// A GPU, by its name.
    Hardware(String),
}

impl Driver {
    fn describe(&self) -> String {
        match self {
            Self::Missing(why) => format!("none ({why})"),
            Self::Software(name) => format!("{name} (software)"),
            Self::Hardware(name) => format!("{name} (hardware)"),
        }
    }
}

/// What [`choose`] took, and why (one sentence for the log).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// [`BackendKind::Vulkan`] or [`BackendKind::Gles`].
    pub backend: BackendKind,
    /// Which backend on which device, and why it won.
    pub reason: String,
}

/// The rule of the module's documentation over what probing found. `None` when neither
/// driver exists. With a hardware Vulkan device the answer does not depend on `gles`
/// (which [`backend`] then never probes).
pub fn choose(vulkan: &Driver, gles: &Driver) -> Option<Choice> {
    let gles_faster =
        "and the benchmark measured llvmpipe's GLES faster than lavapipe's Vulkan in 7 of 8 scenes";
    let (backend, reason) = match (vulkan, gles) {
        (Driver::Hardware(vk), _) => (
            BackendKind::Vulkan,
            format!("auto: Vulkan on {vk} (hardware): a hardware Vulkan device comes first"),
        ),
        (vk, Driver::Hardware(gl)) => (
            BackendKind::Gles,
            format!(
                "auto: GLES on {gl} (hardware); Vulkan: {}, and a hardware GLES driver comes \
                 before a software Vulkan one",
                vk.describe()
            ),
        ),
        (Driver::Software(vk), Driver::Software(gl)) => (
            BackendKind::Gles,
            format!(
                "auto: GLES on {gl} (software); Vulkan device {vk} is software too, {gles_faster}"
            ),
        ),
        (Driver::Missing(why), Driver::Software(gl)) => (
            BackendKind::Gles,
            format!("auto: GLES on {gl} (software); no Vulkan device ({why})"),
        ),
        (Driver::Software(vk), Driver::Missing(why)) => (
            BackendKind::Vulkan,
            format!("auto: Vulkan on {vk} (software); no GLES driver ({why})"),
        ),
        (Driver::Missing(_), Driver::Missing(_)) => return None,
    };
    Some(Choice { backend, reason })
}

/// The Vulkan device the backend would choose, classified.
#[cfg(not(target_os = "android"))]
fn probe_vulkan() -> Driver {
    let options = tessera_backend_vk::VkOptions::from_env();
    match tessera_backend_vk::probe_device(&options) {
        // Mesa's lavapipe calls its device `llvmpipe (LLVM …)`, like the GLES driver: say
        // which of the two is meant.
        Ok(d) if d.software && d.name.starts_with("llvmpipe") => {
            Driver::Software(format!("lavapipe, {}", d.name))
        }
        Ok(d) if d.software => Driver::Software(d.name),
        Ok(d) => Driver::Hardware(d.name),
        Err(e) => Driver::Missing(e.to_string()),
    }
}

/// Android builds have no Vulkan backend (see the engine's `Cargo.toml`).
#[cfg(target_os = "android")]
fn probe_vulkan() -> Driver {
    Driver::Missing("not built for Android".to_owned())
}

/// Whether `auto` can stand for the GLES backend on this machine: it cannot where there is a
/// hardware Vulkan device, which `auto` always takes. Probed once per process (an instance
/// is made to look), for what a display offers before any context exists.
pub fn may_be_gles() -> bool {
    static MAY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *MAY.get_or_init(|| !matches!(probe_vulkan(), Driver::Hardware(_)))
}

/// The backend `auto` stands for on this machine, created; logs which and why.
pub fn backend() -> Result<Box<dyn Backend>, CreateContextError> {
    backend_on(None)
}

/// [`backend`] for a context of a window platform's display: a GLES backend is made on
/// `native_display` ([`Config::native_display`](crate::Config::native_display)).
pub fn backend_on(
    native_display: Option<tessera_wire::backend::NativeDisplay>,
) -> Result<Box<dyn Backend>, CreateContextError> {
    let mut vulkan = probe_vulkan();
    if let Driver::Hardware(_) = vulkan {
        let choice = choose(&vulkan, &Driver::Missing("not probed".to_owned()));
        match crate::context::vulkan_backend() {
            Ok(vk) => {
                if let Some(choice) = choice {
                    log::info!("tessera: {}", choice.reason);
                }
                return Ok(vk);
            }
            // The device was there but would not start: judge it as missing.
            Err(e) => vulkan = Driver::Missing(e.to_string()),
        }
    }
    let (gles, gles_backend) = match crate::context::gles_backend(native_display) {
        Ok(b) => {
            let renderer = b.caps().device;
            if is_software_renderer(&renderer) {
                (Driver::Software(renderer), Some(b))
            } else {
                (Driver::Hardware(renderer), Some(b))
            }
        }
        Err(e) => (Driver::Missing(e.to_string()), None),
    };
    let Some(choice) = choose(&vulkan, &gles) else {
        return Err(CreateContextError::BackendUnavailable {
            backend: "auto",
            reason: format!(
                "no Vulkan device ({}) and no GLES driver ({})",
                vulkan.describe(),
                gles.describe()
            ),
        });
    };
    log::info!("tessera: {}", choice.reason);
    match (choice.backend, gles_backend) {
        (BackendKind::Gles, Some(b)) => Ok(Box::new(b)),
        _ => crate::context::vulkan_backend(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drivers(name: &str) -> [Driver; 3] {
        [
            Driver::Missing(format!("no {name}")),
            Driver::Software(format!("soft-{name}")),
            Driver::Hardware(format!("gpu-{name}")),
        ]
    }

    /// Every combination of (Vulkan: none/software/hardware) x (GLES: none/software/hardware).
    #[test]
    fn choice_prefers_hardware_vulkan_then_hardware_gles_then_software_gles() {
        use BackendKind::{Gles, Vulkan};
        // Rows: Vulkan none, software, hardware; columns: GLES none, software, hardware.
        let expected = [
            [None, Some(Gles), Some(Gles)],
            [Some(Vulkan), Some(Gles), Some(Gles)],
            [Some(Vulkan), Some(Vulkan), Some(Vulkan)],
        ];
        for (vk, row) in drivers("vk").iter().zip(expected) {
            for (gl, want) in drivers("gl").iter().zip(row) {
                let got = choose(vk, gl);
                assert_eq!(got.as_ref().map(|c| c.backend), want, "{vk:?} x {gl:?}");
                if let Some(c) = got {
                    let (on, software) = match c.backend {
                        Vulkan => (vk, matches!(vk, Driver::Software(_))),
                        _ => (gl, matches!(gl, Driver::Software(_))),
                    };
                    let (Driver::Software(name) | Driver::Hardware(name)) = on else {
                        panic!("chose a missing driver: {vk:?} x {gl:?}");
                    };
                    let kind = if software { "software" } else { "hardware" };
                    let api = if c.backend == Vulkan {
                        "Vulkan"
                    } else {
                        "GLES"
                    };
                    assert!(
                        c.reason
                            .starts_with(&format!("auto: {api} on {name} ({kind})")),
                        "{}",
                        c.reason
                    );
                }
            }
        }
    }

    #[test]
    fn software_against_software_names_the_benchmark() {
        let c = choose(
            &Driver::Software("llvmpipe (LLVM 19.1.7, 256 bits)".into()),
            &Driver::Software("llvmpipe (LLVM 19.1.7, 256 bits)".into()),
        )
        .unwrap();
        assert_eq!(c.backend, BackendKind::Gles);
        assert!(c.reason.contains("software too"), "{}", c.reason);
        assert!(c.reason.contains("benchmark"), "{}", c.reason);
    }

    /// On this machine's drivers, [`backend`] creates what [`choose`] says (on a machine
    /// with only Mesa's software drivers: GLES on llvmpipe).
    #[test]
    fn backend_follows_the_rule_on_this_machine() {
        let vulkan = probe_vulkan();
        let gles = match crate::context::gles_backend(None) {
            Ok(b) if is_software_renderer(&b.caps().device) => Driver::Software(b.caps().device),
            Ok(b) => Driver::Hardware(b.caps().device),
            Err(e) => Driver::Missing(e.to_string()),
        };
        let want = choose(&vulkan, &gles).map(|c| c.backend.name());
        let got = backend().ok().map(|b| b.caps().backend);
        assert_eq!(got.as_deref(), want, "Vulkan: {vulkan:?}; GLES: {gles:?}");
    }

    #[test]
    fn renderers_of_software_rasterizers() {
        assert!(is_software_renderer("llvmpipe (LLVM 15.0.7, 256 bits)"));
        assert!(is_software_renderer("softpipe"));
        assert!(is_software_renderer("Software Rasterizer (swrast)"));
        assert!(is_software_renderer(
            "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)))"
        ));
        assert!(!is_software_renderer(
            "AMD Radeon RX 6600 (radeonsi, navi23)"
        ));
        assert!(!is_software_renderer("Mali-G78"));
    }
}

//! Scenes on lavapipe (Mesa's CPU Vulkan) through the Vulkan backend, with the Khronos
//! validation layer on: hand-built record streams applied through a transport, checked pixel
//! by pixel (exact RGBA8 values) from `ReadPixels`, and zero validation messages.
//!
//! The scenes both backends share live in `tessera-backend-harness` and run here through its
//! macros, one group of them per module; the modules add the scenes about what only this
//! backend does. Scenes marked *floor* run with `VkOptions::floor` (Vulkan 1.1 core only):
//! patched clip-space depth, descriptor pools instead of push descriptors, emulated fans.

use tessera_backend_harness::{Scene, set_env_once};
use tessera_backend_vk::{VkOptions, VkProbe, VulkanBackend};
use tessera_wire::TransportKind;

/// Lavapipe, unless the environment names another ICD.
fn setup() {
    set_env_once(|| match std::env::var_os("VK_ICD_FILENAMES") {
        Some(_) => Vec::new(),
        None => vec![(
            "VK_ICD_FILENAMES",
            "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json".into(),
        )],
    });
}

/// A scene on a Vulkan backend (on the 1.1 floor if `floor`), and the backend's counters.
/// Every read-back and finish also asserts that the layer has said nothing.
fn with(kind: TransportKind, floor: bool) -> (Scene, VkProbe) {
    setup();
    // Always validated; TESSERA_VK_TEST_VALIDATION=0 turns the layer off only to measure
    // the backend's own CPU cost.
    let validation = std::env::var("TESSERA_VK_TEST_VALIDATION").map_or(true, |v| v != "0");
    let options = VkOptions {
        validation,
        floor,
        ..VkOptions::default()
    };
    let backend = VulkanBackend::with_options(&options).expect("a Vulkan backend on lavapipe");
    let probe = backend.probe();
    let counted = probe.clone();
    let label = if floor { "floor" } else { kind.name() };
    let scene = Scene::new(&kind, Box::new(backend))
        .labelled(label)
        .with_check(move || assert_eq!(counted.stats().validation_messages, 0));
    (scene, probe)
}

/// A scene on a Vulkan backend with the optional features the device has.
fn vk(kind: TransportKind) -> Scene {
    with(kind, false).0
}

/// The same on the Vulkan 1.1 floor (no optional extension).
fn floor() -> Scene {
    with(TransportKind::Inproc, true).0
}

mod basics;
mod geometry;
mod steady;
mod textures;

/// Framebuffer scenes: depth and stencil reads, draw buffer mapping, blits, copies,
/// queries, fences and multisampled surfaces, all shared.
mod framebuffers {
    tessera_backend_harness::shared_scenes!(super::vk => framebuffers);
}

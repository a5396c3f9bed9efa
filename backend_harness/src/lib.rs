//! # tessera-backend-harness
//!
//! The record-level scene harness of the backends' test suites. Both backends consume the
//! same pipe records and must answer them with the same pixels, so the scenes that prove it
//! are written once, here, below both, and each backend's `tests/scenes` runs them on its
//! own driver (Mesa llvmpipe through EGL, lavapipe under the Khronos validation layer).
//!
//! This crate owns:
//!
//! - the [`Scene`]: a record stream in front of any [`Backend`](tessera_wire::Backend),
//!   applied through a [`Transport`](tessera_wire::Transport) of the suite's choice, with
//!   handles minted, replies awaited and read-backs checked for native errors (plus the
//!   suite's own check, such as Vulkan's validation message count);
//! - the building blocks of record streams (`build.rs`): surfaces, programs from Vulkan GLSL
//!   compiled by `glslangValidator` ([`spirv`]), buffers, vertex input, CSOs, textures,
//!   samplers and framebuffer objects;
//! - reading pixels, images, textures and buffers back, and probing exact values;
//! - the shared [`scenes`], and the macros that turn them into `#[test]`s of a suite.
//!
//! What stays in a backend's suite is what only that backend does: how its backend is made
//! (options, environment), its variants (Vulkan's `VkOptions::floor`, GLES without
//! extensions), and the scenes about its own behaviour (validation messages, steady-state
//! counters, GL errors from debug checks, features GLES lacks).
//!
//! ## Rules
//! - Depends on `tessera-wire` only: a backend lists it as a dev-dependency, never more, so
//!   the dependency rule (backends never depend on the frontend) holds for tests too.
//! - Every pixel a scene expects is exact (RGBA8 values from the drivers' rounding), and a
//!   scene states any difference between backends in its assertion, not in a tolerance.
//! - A scene fails through `assert!`/`panic!` with the scene's label (the backend variant)
//!   in its message; it never hides a native error event.

mod build;
mod bytes;
mod env;
mod glsl;
mod scene;
pub mod scenes;

pub use build::{f32_attrib, nearest, whole};
pub use bytes::{floats, halves, u16s, u32s};
pub use env::set_env_once;
pub use glsl::{POSITION_VS, SOLID_FS, SOLID_VS, TEXTURED_FS, TEXTURED_VS, spirv};
pub use scene::{
    BLACK, BLUE, GREEN, New, Probe, RED, RGBA8, SIZE, Scene, WHITE, rect, surface_desc,
};

/// One `#[test]` per entry, `test` or `test = scene`, running the scene of that name in
/// the entry's group of [`scenes`] on what `$make` makes (an expression evaluated in each
/// test: a [`Scene`] of the suite's backend, or a [`New`] for a scene that makes its own
/// sessions). Groups are separated by `;`.
///
/// ```text
/// tessera_backend_harness::scene_tests!(floor() =>
///     basics: triangle_on_the_floor = triangle, depth_test_on_the_floor = depth_test;
///     textures: textured_quad_on_the_floor = textured_quad;
/// );
/// ```
#[macro_export]
macro_rules! scene_tests {
    ($make:expr => $($group:ident: $($test:ident $(= $scene:ident)?),+ $(,)?);+ $(;)?) => {
        $($( $crate::scene_test!($make, $group, $test $(, $scene)?); )+)+
    };
}

/// One entry of [`scene_tests!`]: a scene run by a test of its own name, or of another.
#[doc(hidden)]
#[macro_export]
macro_rules! scene_test {
    ($make:expr, $group:ident, $test:ident) => {
        $crate::scene_test!($make, $group, $test, $test);
    };
    ($make:expr, $group:ident, $test:ident, $scene:ident) => {
        #[test]
        fn $test() {
            $crate::scenes::$group::$scene($make);
        }
    };
}

/// The shared scenes of the named groups of [`scenes`] (`basics`, `framebuffers`,
/// `geometry`, `textures`) as the `#[test]`s every suite runs, each on a scene that `$new`
/// (the suite's `fn(TransportKind) -> Scene`) makes.
#[macro_export]
macro_rules! shared_scenes {
    (@basics $new:path) => {
        $crate::scene_tests!($new($crate::wire::TransportKind::Inproc) => basics:
            clear_to_a_colour, read_pixels_converts_to_the_layout_asked_for,
            triangle_inproc = triangle, additive_blending,
            depth_test_keeps_the_nearest = depth_test, scissor_limits_clears_and_draws,
            buffers_round_trip, dangling_bindings_are_tolerated,
            two_contexts_keep_their_own_state, stencil_masks_a_second_draw,
            masked_clears_keep_the_masked_bits);
        $crate::scene_tests!($new($crate::wire::TransportKind::Thread) => basics:
            triangle_on_the_render_thread = triangle);
        $crate::scene_tests!(&$new => basics: a_stale_handle_ends_the_session_without_a_panic);
    };
    (@framebuffers $new:path) => {
        $crate::scene_tests!($new($crate::wire::TransportKind::Inproc) => framebuffers:
            blit_copy_query_and_fence, depth_and_stencil_read_back,
            draw_buffers_map_outputs_to_any_attachment, multisampled_surface_resolves_for_reading);
    };
    (@geometry $new:path) => {
        $crate::scene_tests!($new($crate::wire::TransportKind::Inproc) => geometry:
            geometry_stage_draws = geometry_stage,
            instances_generic_attributes_and_restart = instances,
            indexed_emulations_and_unaligned_arrays = indexed_emulations);
    };
    (@textures $new:path) => {
        $crate::scene_tests!($new($crate::wire::TransportKind::Inproc) => textures:
            textured_quad_samples_exact_texels = textured_quad, render_to_texture_then_sample_it,
            rgtc_through_the_driver = rgtc, textures_from_buffers_and_back,
            formats_round_trip_natively = formats_round_trip, generated_mipmaps_are_sampled);
    };
    ($new:path => $($group:ident),+ $(,)?) => {
        $( $crate::shared_scenes!(@$group $new); )+
    };
}

/// The wire crate as this crate sees it, for the macros' paths.
#[doc(hidden)]
pub use tessera_wire as wire;

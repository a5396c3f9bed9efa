//! Basic scenes: clears, triangles on every transport, blending, depth, stencil, scissor,
//! masked clears, buffers, contexts and stale handles (shared), the floor variants, and the
//! validation messenger itself.

use tessera_backend_harness::{SOLID_FS, SOLID_VS, spirv};
use tessera_wire::format::ShaderStage;
use tessera_wire::{Event, Record, TransportKind};

use super::{floor, vk, with};

tessera_backend_harness::shared_scenes!(vk => basics);

tessera_backend_harness::scene_tests!(floor() => basics:
    triangle_on_the_floor = triangle,
    // Without VK_EXT_depth_clip_control: the SPIR-V is patched.
    depth_test_on_the_floor = depth_test,
);

/// The messenger's messages reach the event stream (so the zero-message assertions of the
/// other scenes can fail): a module claiming SPIR-V 2.0 is refused by the layer's checks.
#[test]
fn validation_messages_are_reported() {
    let (mut s, probe) = with(TransportKind::Inproc, false);
    let mut vs = spirv(ShaderStage::Vertex, SOLID_VS);
    vs[4..8].copy_from_slice(&0x0002_0000u32.to_le_bytes());
    let fs = spirv(ShaderStage::Fragment, SOLID_FS);
    s.create_program(
        &[(ShaderStage::Vertex, &vs), (ShaderStage::Fragment, &fs)],
        32,
        0,
        0,
    );
    s.ask(|reply| Record::Finish { reply });
    s.expect_event(|e| matches!(e, Event::NativeError { what } if what.starts_with("validation:")));
    assert!(probe.stats().validation_messages > 0);
}

/// A new program keeps the viewport (the backend does not derive viewports again for it),
/// and a viewport set after it applies.
#[test]
fn a_program_change_keeps_the_viewport_and_a_later_viewport_applies() {
    let mut s = vk(TransportKind::Inproc);
    let sampler = s.nearest_sampler();
    s.textured_quad([1.0, 0.0, 0.0, 0.0]);
    s.bind_texture(None, sampler);
    s.clear([0.0; 4]);
    s.viewport(32, 32);
    s.draw_quad();
    s.textured_quad([0.0, 1.0, 0.0, 0.0]);
    s.draw_quad();
    s.expect_pixels(&[(16, 16, [0, 255, 0, 255]), (48, 48, [0, 0, 0, 0])]);
    s.viewport(64, 64);
    s.draw_quad();
    s.expect_pixels(&[(16, 16, [0, 255, 0, 255]), (48, 48, [0, 255, 0, 255])]);
    s.assert_no_events();
}

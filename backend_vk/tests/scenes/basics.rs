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

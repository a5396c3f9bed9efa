//! Texture scenes: exact texels, render-to-texture, RGTC, buffer uploads, format round
//! trips and mipmaps (shared), the textured quad on the floor, and every sampler kind.

use tessera_backend_harness::scenes::textures;
use tessera_backend_harness::{BLUE, GREEN, RED, RGBA8, rect, whole};
use tessera_wire::TransportKind;

use super::{floor, vk};

tessera_backend_harness::shared_scenes!(vk => textures);

tessera_backend_harness::scene_tests!(floor() => textures:
    textured_quad_on_the_floor = textured_quad);

/// Vulkan samples an integer texture through a linear sampler (a GL context would find it
/// incomplete and read (0, 0, 0, 1), as the GLES backend does).
#[test]
fn texture_kinds_sample_as_gl_does() {
    textures::texture_kinds(vk(TransportKind::Inproc), [51, 102, 153, 255]);
}

/// An upload into a texture no command has used yet runs in the frame's prologue: the draws
/// around it stay in one render pass, and each samples what it should. An upload into a
/// texture that a draw of the frame sampled still follows that draw (the pass ends for it).
#[test]
fn uploads_into_unused_textures_leave_the_render_pass_open() {
    let (mut s, probe) = super::with(TransportKind::Inproc, false);
    let sampler = s.nearest_sampler();
    let red = s.texture(1, 1, Some((RGBA8, &[255, 0, 0, 255])));
    s.textured_quad([0.0; 4]);
    s.clear([0.0; 4]);
    s.finish();
    let before = probe.stats().pass_instances;
    s.scissor(rect(0, 0, 32, 64));
    s.bind_texture(Some(red), sampler);
    s.draw_quad();
    let green = s.texture(1, 1, Some((RGBA8, &[0, 255, 0, 255])));
    s.scissor(rect(32, 0, 32, 64));
    s.bind_texture(Some(green), sampler);
    s.draw_quad();
    s.finish();
    assert_eq!(probe.stats().pass_instances - before, 1);
    s.expect_pixels(&[(16, 32, RED), (48, 32, GREEN)]);
    // `red` was sampled this frame: its new texels land between the two draws.
    let before = probe.stats().pass_instances;
    s.scissor(rect(0, 0, 32, 64));
    s.bind_texture(Some(red), sampler);
    s.draw_quad();
    s.write_texture(red, 0, whole([1, 1, 1]), RGBA8, &[0, 0, 255, 255]);
    s.scissor(rect(32, 0, 32, 64));
    s.draw_quad();
    s.finish();
    assert_eq!(probe.stats().pass_instances - before, 2);
    s.expect_pixels(&[(16, 32, RED), (48, 32, BLUE)]);
    s.assert_no_events();
}

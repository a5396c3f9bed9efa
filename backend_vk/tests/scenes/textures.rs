//! Texture scenes: exact texels, render-to-texture, RGTC, buffer uploads, format round
//! trips and mipmaps (shared), the textured quad on the floor, and every sampler kind.

use tessera_backend_harness::scenes::textures;
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

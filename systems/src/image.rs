//! Image bindings (`GL_ARB_shader_image_load_store`): which image each image slot of the
//! bound program reads and writes.
//!
//! GL binds images to *image units* (`glBindImageTexture`) and lets the program's image
//! uniforms name units; records bind per *image slot* of the program. The mapping is
//! resolved here at verb time through the program's `image_units`, as texture units are for
//! sampler slots. A unit whose image GL 4.2 §3.9.20 calls invalid is bound as `None`
//! (loads read 0, stores are dropped); the rules are Mesa's (`_mesa_is_image_unit_valid`):
//! a texture, a level within the texture's complete range (the base level needs a base
//! image, any other level a complete mipmap chain), a layer within the level's, and a unit
//! format of the level's texel size. A unit is resolved again when an image unit, the
//! program, its uniforms or a texture unit changes, not when the images of a texture bound
//! only to an image unit are defined: native Mesa keeps such a unit as it found it at the
//! last draw too (storage given to a texture after a dispatch that found none is not
//! written by the next dispatch).

use bevy_ecs::world::World;
use tessera_components::gl::*;
use tessera_components::object::{MAX_LEVELS, Program, SamplerParams, Texture};
use tessera_components::state::{GlState, ImageUnit, TextureTarget};
use tessera_wire::format::{Format, ImageAccess};
use tessera_wire::record::{ImageBinding, Record};
use tessera_wire::state::MAX_IMAGE_SLOTS;

use crate::conv::map_sized_format;
use crate::emitted::{EmittedState, changed};
use crate::emitter::Emitter;
use crate::texture::is_complete;

/// Bytes of one texel of an uncompressed colour format.
fn texel_bytes(f: Format) -> u32 {
    f.info()
        .rgba_bits
        .iter()
        .map(|&b| u32::from(b))
        .sum::<u32>()
        / 8
}

/// Layers of level `level` of a texture, as image units count them (a cube map's six faces,
/// a 3D level's slices), for the targets that have layers.
fn layers(t: &Texture, target: TextureTarget, level: usize) -> Option<i32> {
    let image = &t.images[0][level];
    match target {
        TextureTarget::D1Array => Some(image.height),
        TextureTarget::D2Array
        | TextureTarget::D2MultisampleArray
        | TextureTarget::D3
        | TextureTarget::CubeArray => Some(image.depth),
        TextureTarget::Cube => Some(6),
        _ => None,
    }
}

/// The wire's form of an image unit's access.
fn access(access: GLenum) -> ImageAccess {
    match access {
        READ_ONLY => ImageAccess::ReadOnly,
        WRITE_ONLY => ImageAccess::WriteOnly,
        _ => ImageAccess::ReadWrite,
    }
}

/// What an image unit binds, or `None` where GL calls its image invalid.
pub fn image_binding(u: &ImageUnit, world: &World) -> Option<ImageBinding> {
    let t = world.get::<Texture>(u.texture?)?;
    let target = t.target?;
    if target == TextureTarget::Buffer {
        // Level 0 of the texture's buffer range, in a format of its texel size.
        t.buffer?;
        let texel = map_sized_format(t.buffer_format)?;
        let format = map_sized_format(u.format)?;
        if u.level != 0 || texel_bytes(texel) != texel_bytes(format) {
            return None;
        }
        return Some(ImageBinding {
            texture: t.handle,
            level: 0,
            layer: None,
            format,
            access: access(u.access),
        });
    }
    let (base, max) = t.level_range();
    let level = u.level;
    if level < base || level > max || level as usize >= MAX_LEVELS {
        return None;
    }
    let nearest = |min_filter| SamplerParams {
        min_filter,
        mag_filter: NEAREST,
        ..SamplerParams::initial(None)
    };
    let complete = if level == base {
        is_complete(t, &nearest(NEAREST))
    } else {
        is_complete(t, &nearest(NEAREST_MIPMAP_NEAREST))
    };
    if !complete {
        return None;
    }
    let layer = match layers(t, target, level as usize) {
        Some(_) if u.layered => None,
        Some(n) if u.layer >= n => return None,
        Some(_) => Some(u.layer as u32),
        None => None,
    };
    let face = match (target, layer) {
        (TextureTarget::Cube, Some(l)) => l as usize,
        _ => 0,
    };
    let image = &t.images[face][level as usize];
    let texel = image.format?;
    if image.samples > 0 {
        return None;
    }
    let format = map_sized_format(u.format)?;
    if !texel.is_color() || texel_bytes(texel) != texel_bytes(format) {
        return None;
    }
    Some(ImageBinding {
        texture: t.handle,
        level: level as u32,
        layer,
        format,
        access: access(u.access),
    })
}

/// Emits `BindImage` for each image slot of the program whose unit's image the backend
/// does not have.
pub fn emit_images(
    st: &GlState,
    program: Option<&Program>,
    world: &World,
    dev: &mut Emitter,
    shadow: &mut EmittedState,
) {
    let Some(linked) = program.and_then(|p| p.linked_state.as_ref()) else {
        return;
    };
    for (slot, &unit) in linked.image_units.iter().enumerate().take(MAX_IMAGE_SLOTS) {
        let binding = st
            .image_units
            .get(unit as usize)
            .and_then(|u| image_binding(u, world));
        if changed(&mut shadow.images[slot], binding) {
            dev.push(Record::BindImage {
                slot: slot as u8,
                image: binding,
            });
        }
    }
}

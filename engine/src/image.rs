//! Image units (GL 4.2's `ARB_shader_image_load_store`): `glBindImageTexture`, the
//! `IMAGE_BINDING_*` indexed state and the format rules of image loads and stores.
//!
//! An image unit names one level of a texture (all its layers, or one), an access and a
//! format; a program's image uniforms name units (`layout(binding)` or `glUniform1i`), as
//! sampler uniforms name texture units. Both are client state: at a draw or dispatch the
//! systems (`tessera_systems::image`) resolve each image slot of the program through its
//! unit and emit `BindImage` with the texture, level, layer and format, or `None` where the
//! unit's image is not usable (GL 4.2 §3.9.20: no texture, a level outside the complete
//! range, a layer past the level's, a format of another size), as Mesa decides it.
//!
//! `glBindImageTexture` checks what Mesa checks, in its order: the unit, then level and
//! layer, the access and the format (one of GL 4.2's table 3.21), then the texture name. A
//! format of another size than the texture's is no error there: the unit is then unusable
//! (GL's `IMAGE_FORMAT_COMPATIBILITY_BY_SIZE`, the only type Mesa gives textures).

use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::Texture;
use tessera_components::state::{IMAGE_UNITS as UNITS, ImageUnit, TextureTarget};
use tessera_systems::lifecycle;

use crate::context::Context;
use crate::share::Shared;

/// `MAX_IMAGE_UNITS`: native Mesa's 192 (client state only, see [`UNITS`]).
pub const IMAGE_UNITS: i32 = UNITS as i32;
/// `MAX_*_IMAGE_UNIFORMS` of one stage: llvmpipe's 32, the wire's image slots.
pub const STAGE_IMAGE_UNIFORMS: i32 = 32;
/// `MAX_COMBINED_IMAGE_UNIFORMS`: llvmpipe's (every stage's together), the wire's image
/// slots.
pub const COMBINED_IMAGE_UNIFORMS: i32 = tessera_wire::state::MAX_IMAGE_SLOTS as i32;
/// `MAX_COMBINED_IMAGE_UNITS_AND_FRAGMENT_OUTPUTS`: llvmpipe's.
pub const IMAGE_UNITS_AND_FRAGMENT_OUTPUTS: i32 = 280;
/// `MAX_IMAGE_SAMPLES`: 0, since no backend binds multisampled images yet (native
/// llvmpipe's is 4).
pub const IMAGE_SAMPLES: i32 = 0;

/// The formats an image unit may have (GL 4.2 table 3.21), as Mesa accepts them in a core
/// context.
pub(crate) fn is_image_format(format: GLenum) -> bool {
    matches!(
        format,
        RGBA32F
            | RGBA16F
            | RG32F
            | RG16F
            | R11F_G11F_B10F
            | R32F
            | R16F
            | RGBA32UI
            | RGBA16UI
            | RGB10_A2UI
            | RGBA8UI
            | RG32UI
            | RG16UI
            | RG8UI
            | R32UI
            | R16UI
            | R8UI
            | RGBA32I
            | RGBA16I
            | RGBA8I
            | RG32I
            | RG16I
            | RG8I
            | R32I
            | R16I
            | R8I
            | RGBA16
            | RGB10_A2
            | RGBA8
            | RG16
            | RG8
            | R16
            | R8
            | RGBA16_SNORM
            | RGBA8_SNORM
            | RG16_SNORM
            | RG8_SNORM
            | R16_SNORM
            | R8_SNORM
    )
}

impl Context {
    /// `glBindImageTexture`.
    #[expect(
        clippy::too_many_arguments,
        reason = "GL's signature: unit, texture, level, layered, layer, access, format"
    )]
    pub fn bind_image_texture(
        &mut self,
        unit: GLuint,
        texture: GLuint,
        level: GLint,
        layered: GLboolean,
        layer: GLint,
        access: GLenum,
        format: GLenum,
    ) {
        if unit as usize >= UNITS || level < 0 || layer < 0 {
            return self.error(INVALID_VALUE);
        }
        if !matches!(access, READ_ONLY | WRITE_ONLY | READ_WRITE) || !is_image_format(format) {
            return self.error(INVALID_VALUE);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let entity = if texture == 0 {
            None
        } else {
            match sh.names.textures.get(texture) {
                Some(e) => Some(e),
                None if sh.names.textures.is_generated(texture) => None,
                None => {
                    drop(sh);
                    return self.error(INVALID_VALUE);
                }
            }
        };
        // Layered and layer are kept only for a texture with layers, as Mesa keeps them.
        let layers = entity
            .and_then(|e| sh.world.get::<Texture>(e))
            .and_then(|t| t.target)
            .is_some_and(|t| {
                matches!(
                    t,
                    TextureTarget::D1Array
                        | TextureTarget::D2Array
                        | TextureTarget::D3
                        | TextureTarget::Cube
                        | TextureTarget::D2MultisampleArray
                        | TextureTarget::CubeArray
                )
            });
        let value = ImageUnit {
            name: texture,
            texture: entity,
            level,
            layered: layers && layered != 0,
            layer: if layers { layer } else { 0 },
            access,
            format,
        };
        self.set_image_unit(&mut sh, unit as usize, value);
    }

    /// Stores an image unit's binding, keeping the texture's references counted.
    pub(crate) fn set_image_unit(&mut self, sh: &mut Shared, unit: usize, value: ImageUnit) {
        let slot = &mut self.local.st.image_units[unit];
        if *slot == value {
            return;
        }
        let old = std::mem::replace(slot, value);
        let Shared { world, dev, .. } = sh;
        lifecycle::replace(world, dev, old.texture, value.texture);
        self.local.touch(Dirty::IMAGES);
    }

    /// Detaches a texture being deleted from this context's image units (GL 4.2 §3.9.20):
    /// each such unit gets its initial state back, as Mesa resets it.
    pub(crate) fn detach_from_image_units(&mut self, sh: &mut Shared, name: GLuint) {
        for unit in 0..UNITS {
            if self.local.st.image_units[unit].name == name && name != 0 {
                self.set_image_unit(sh, unit, ImageUnit::default());
            }
        }
    }

    /// `IMAGE_BINDING_*` of image unit `index` (`glGetIntegeri_v`, `glGetBooleani_v`);
    /// `INVALID_VALUE` past the last unit.
    pub(crate) fn image_binding_value(&self, target: GLenum, index: GLuint) -> Result<i64, GLenum> {
        let u = self
            .local
            .st
            .image_units
            .get(index as usize)
            .ok_or(INVALID_VALUE)?;
        Ok(match target {
            IMAGE_BINDING_NAME => i64::from(u.name),
            IMAGE_BINDING_LEVEL => i64::from(u.level),
            IMAGE_BINDING_LAYERED => i64::from(u.layered),
            IMAGE_BINDING_LAYER => i64::from(u.layer),
            IMAGE_BINDING_ACCESS => i64::from(u.access),
            _ => i64::from(u.format),
        })
    }
}

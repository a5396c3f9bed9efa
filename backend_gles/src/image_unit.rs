//! Image units (`GL_ARB_shader_image_load_store`) on the native driver's GLES 3.1 images.
//!
//! Image slot `i` of a program is native image unit `i`: the translation gives each image
//! variable `layout(binding = i)` (`program.rs`), the only way GLSL ES sets it. GLES binds
//! only immutable textures (and buffer textures) to image units, so a texture bound to one
//! gets immutable native storage first, as a texture view's storage does (`texture.rs`); an
//! image the engine redefines afterwards (GL's texture is mutable) makes it mutable again,
//! its other images copied over (`make_mutable`), until it is bound again. A slot whose
//! unit holds nothing usable binds texture 0 (loads read 0, stores are dropped, as GL
//! says). A slot below `ALIAS_OFFSET` (96) also binds its image to unit
//! `slot + ALIAS_OFFSET`, which a read-write image's `writeonly` twin reads
//! (`image_lowering.rs`).

use glow::HasContext;
use tessera_wire::SessionError;
use tessera_wire::format::ImageAccess;
use tessera_wire::state::MAX_IMAGE_SLOTS;

use tessera_wire::record::ImageBinding;

use crate::command::GlesContext;
use crate::conv;
use crate::device::GlesPipe;

/// How far a read-write image's `writeonly` twin's native image unit lies from the image's
/// (`image_lowering.rs`): half of GL's (and native Mesa's) 192 image units, so the twins of
/// slots `0..96` fit.
pub(crate) const ALIAS_OFFSET: u32 = MAX_IMAGE_SLOTS as u32 / 2;

impl GlesPipe {
    /// Binds the images of the program's `images` slots to native image units.
    pub(crate) fn apply_images(
        &mut self,
        record: &'static str,
        ctx: &GlesContext,
        images: usize,
    ) -> Result<(), SessionError> {
        for slot in 0..images.min(MAX_IMAGE_SLOTS) {
            let bound = ctx.desired.images[slot];
            let native = match bound {
                Some(b) if self.textures.get(record, b.texture).is_ok() => {
                    // Buffer textures have no immutable form: GLES binds them as they are.
                    if self.textures.get(record, b.texture)?.target != glow::TEXTURE_BUFFER {
                        self.make_immutable(record, b.texture)?;
                    }
                    let name = self.textures.get(record, b.texture)?.name;
                    let format = conv::map_format(b.format, &self.features).internal;
                    Some((name, b, format))
                }
                _ => None,
            };
            // The slot's `writeonly` twin, if the translation gave it one (image_lowering.rs),
            // reads the unit ALIAS_OFFSET above: it gets the same image.
            let twin = (slot < ALIAS_OFFSET as usize).then_some(slot + ALIAS_OFFSET as usize);
            for unit in std::iter::once(slot).chain(twin) {
                // SAFETY: context current; `unit` < MAX_IMAGE_SLOTS, within the driver's
                // MAX_IMAGE_UNITS (llvmpipe's 192, the ES 3.1 minimum being 4, which a
                // driver with fewer would refuse with INVALID_VALUE); a live immutable
                // texture whose level exists (the engine checked the level and layer) and a
                // format of GLES's image formats, or no texture.
                unsafe { self.bind_unit(unit as u32, native) };
            }
        }
        Ok(())
    }

    /// Binds one native image unit.
    ///
    /// # Safety
    /// As `glBindImageTexture`: the context is current and the texture, if any, is a live
    /// immutable one (or a buffer texture) of which the level and layer exist.
    unsafe fn bind_unit(&self, unit: u32, native: Option<(glow::Texture, ImageBinding, u32)>) {
        // SAFETY: the caller's.
        unsafe {
            match native {
                Some((name, b, format)) => self.gl.bind_image_texture(
                    unit,
                    Some(name),
                    b.level as i32,
                    b.layer.is_none(),
                    b.layer.unwrap_or(0) as i32,
                    match b.access {
                        ImageAccess::ReadOnly => glow::READ_ONLY,
                        ImageAccess::WriteOnly => glow::WRITE_ONLY,
                        ImageAccess::ReadWrite => glow::READ_WRITE,
                    },
                    format,
                ),
                None => self.gl.bind_image_texture(
                    unit,
                    None,
                    0,
                    false,
                    0,
                    glow::READ_ONLY,
                    glow::R32UI,
                ),
            }
        }
    }
}

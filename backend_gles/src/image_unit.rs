//! Image units (`GL_ARB_shader_image_load_store`) on the native driver's GLES 3.1 images.
//!
//! Image slot `i` of a program is native image unit `i`: the translation gives each image
//! variable `layout(binding = i)` (`program.rs`), the only way GLSL ES sets it. GLES binds
//! only immutable textures (and buffer textures) to image units, so a texture bound to one
//! gets immutable native storage first, as a texture view's storage does (`texture.rs`); a
//! level the engine
//! redefines afterwards in a mutable texture is not carried out. A slot whose unit holds
//! nothing usable binds texture 0 (loads read 0, stores are dropped, as GL says).

use glow::HasContext;
use tessera_wire::SessionError;
use tessera_wire::format::ImageAccess;
use tessera_wire::state::MAX_IMAGE_SLOTS;

use crate::command::GlesContext;
use crate::conv;
use crate::device::GlesPipe;

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
            // SAFETY: context current; `slot` < MAX_IMAGE_SLOTS, within the driver's
            // MAX_IMAGE_SLOTS (llvmpipe's 32); a live immutable texture whose level exists
            // (the engine checked the level and layer) and a format of GLES's image
            // formats, or no texture.
            unsafe {
                match native {
                    Some((name, b, format)) => self.gl.bind_image_texture(
                        slot as u32,
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
                        slot as u32,
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
        Ok(())
    }
}

//! Texture clears (GL 4.4's `ARB_clear_texture`): `clear_tex_image` and
//! `clear_tex_sub_image` fill a level of a texture, or a box of it, with one texel the
//! application gives in a client format and type (zeros without one).
//!
//! Errors are Mesa 22.3's (the oracle), in its order (`teximage.c`): the texture (a name
//! with no object, or one never bound, is `INVALID_OPERATION`), the level and its image
//! (every face's, for a cube map), then for the sub-image call the box against the image
//! (negative sizes included, `INVALID_OPERATION`; a cube map's faces are its z), and last
//! the texel: a buffer or compressed texture, the format and type, formats that do not
//! agree and integer against non-integer data. An empty box passes all of these and clears
//! nothing.
//!
//! A clear is carried out as an upload of the texel repeated over the box, one
//! `WriteTexture` per image (per face of a cube map), in the client format and type: the
//! backends convert it to the texture's format exactly as they convert `glTexSubImage`'s
//! pixels, which is what Mesa does with the clear value (`_mesa_texstore` of one texel).
//! So both backends clear every format they upload to, at the cost of staging the box's
//! bytes. Without data the texel is zeros of the image's own format (Mesa passes its
//! driver no clear value then), not a zero client pixel, whose missing alpha would read as 1.
//!
//! Multisample images take no uploads: their clear is one `ClearTexture` record of the
//! value converted here, once, to the image's format (`crate::pixel::texel_layout`: clamped and
//! quantized as storing it would, then read as the colour of its numeric class, or as
//! depth and stencil), which the backends write into every sample of the box with their
//! clear commands.

use tessera_components::gl::*;
use tessera_components::object::{MAX_LEVELS, Texture};
use tessera_components::state::TextureTarget;
use tessera_wire::format::{Format, FormatClass, PixelFormat, PixelLayout};
use tessera_wire::pixel;
use tessera_wire::record::{ClearValue, Record};

use super::ImageTarget;
use super::format::{check_format_type, formats_agree, image_base, is_integer_format};
use super::image::wire_region;
use crate::context::{Context, GlResult};
use crate::pixel::pixel_size;
use crate::share::Shared;

/// The largest client texel (four 32-bit components, or a depth-stencil pair of 8 bytes).
pub const MAX_TEXEL_BYTES: usize = 16;

/// A box of an image: origin and size, GL's coordinates.
type Region = ([i32; 3], [i32; 3]);

/// The value a clear of a multisample image of `format` carries: the client's texel
/// (`layout`) converted to the format's texel as storing it would (`pixel::texel_layout`:
/// clamped, quantized to the format's bits, integers clamped to its range), read back as
/// the colour of its numeric class, or as depth and stencil. Depth data alone clears a
/// depth-stencil image's depth and leaves its stencil.
fn clear_value(format: Format, layout: PixelLayout, texel: &[u8]) -> Option<ClearValue> {
    let stored = crate::pixel::texel_layout(format);
    let bytes = pixel::convert(layout, stored, texel, 1)?;
    let [r, g, b, a] = *pixel::decode(stored, &bytes, 1)?.first()?;
    let rgba = [r, g, b, a];
    Some(match format.info().class {
        FormatClass::Float => ClearValue::Float(rgba.map(|v| v as f32)),
        FormatClass::Int => ClearValue::Int(rgba.map(|v| v as i32)),
        FormatClass::Uint => ClearValue::Uint(rgba.map(|v| v as u32)),
        FormatClass::Depth => ClearValue::Depth(r as f32),
        FormatClass::Stencil => ClearValue::Stencil(g as u8),
        FormatClass::DepthStencil if layout.format == PixelFormat::DepthComponent => {
            ClearValue::Depth(r as f32)
        }
        FormatClass::DepthStencil => ClearValue::DepthStencil(r as f32, g as u8),
    })
}

impl Context {
    /// `glClearTexImage` (GL 4.4): the whole of level `level` (every face of a cube map).
    pub fn clear_tex_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) {
        self.clear_texture(texture, level, None, format, ty, data);
    }

    /// `glClearTexSubImage` (GL 4.4): a box of level `level`; a cube map's faces are its
    /// z (`zoffset`, `depth`).
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn clear_tex_sub_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        xoffset: GLint,
        yoffset: GLint,
        zoffset: GLint,
        width: GLsizei,
        height: GLsizei,
        depth: GLsizei,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) {
        let region = ([xoffset, yoffset, zoffset], [width, height, depth]);
        self.clear_texture(texture, level, Some(region), format, ty, data);
    }

    fn clear_texture(
        &mut self,
        texture: GLuint,
        level: GLint,
        region: Option<Region>,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) =
            self.clear_texture_locked(&mut sh, texture, level, region, format, ty, data)
        {
            self.error(err);
        }
    }

    #[expect(clippy::too_many_arguments, reason = "one clear's whole description")]
    fn clear_texture_locked(
        &mut self,
        sh: &mut Shared,
        texture: GLuint,
        level: GLint,
        region: Option<Region>,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) -> GlResult {
        let e = sh
            .names
            .textures
            .get(texture)
            .filter(|_| texture != 0)
            .ok_or(INVALID_OPERATION)?;
        let tex = sh.world.get::<Texture>(e).ok_or(INVALID_OPERATION)?;
        let target = tex.target.ok_or(INVALID_OPERATION)?;
        let handle = tex.handle;
        if level < 0 || level as usize >= MAX_LEVELS {
            return Err(INVALID_OPERATION);
        }
        let level = level as usize;
        let faces = if target == TextureTarget::Cube { 6 } else { 1 };
        let images = &tex.images;
        if (0..faces).any(|f| !images[f][level].is_defined()) {
            return Err(INVALID_OPERATION);
        }
        let first = images[0][level];
        // The faces to clear and the box within each. Negative sizes and a box outside the
        // image are one error, checked before the texel (Mesa 22.3, the oracle; later Mesa
        // makes negative sizes `INVALID_VALUE` and skips empty boxes first).
        let (face_range, origin, size) = match region {
            None => (0..faces, [0; 3], [first.width, first.height, first.depth]),
            Some((origin, size)) => {
                let depth_limit = if faces == 6 { 6 } else { first.depth };
                let limits = [first.width, first.height, depth_limit];
                for i in 0..3 {
                    let end = i64::from(origin[i]) + i64::from(size[i]);
                    if origin[i] < 0 || size[i] < 0 || end > i64::from(limits[i]) {
                        return Err(INVALID_OPERATION);
                    }
                }
                if faces == 6 {
                    let faces = origin[2] as usize..(origin[2] + size[2]) as usize;
                    (faces, [origin[0], origin[1], 0], [size[0], size[1], 1])
                } else {
                    (0..1, origin, size)
                }
            }
        };
        for face in face_range.clone() {
            let image = &images[face][level];
            if target == TextureTarget::Buffer {
                return Err(INVALID_OPERATION);
            }
            let info = image.format.map(|f| f.info());
            if info.is_some_and(|i| i.compressed) {
                return Err(INVALID_OPERATION);
            }
            let base = image_base(image);
            check_format_type(format, ty)?;
            if !formats_agree(base, format) {
                return Err(INVALID_OPERATION);
            }
            let integer =
                info.is_some_and(|i| matches!(i.class, FormatClass::Int | FormatClass::Uint));
            if integer != is_integer_format(format) {
                return Err(INVALID_OPERATION);
            }
        }
        let client = check_format_type(format, ty)?;
        // Without data the image is cleared to zeros of its own format (Mesa hands its
        // driver no texel then), not to a zero client pixel, whose missing alpha reads as 1.
        let layout = match (data, first.format) {
            (None, Some(stored)) => crate::pixel::texel_layout(stored),
            _ => client,
        };
        let px = pixel_size(layout.format, layout.ty).bytes;
        let mut texel = [0u8; MAX_TEXEL_BYTES];
        if let Some(data) = data {
            let n = px.min(data.len()).min(MAX_TEXEL_BYTES);
            texel[..n].copy_from_slice(&data[..n]);
        }
        let texel = &texel[..px.min(MAX_TEXEL_BYTES)];
        if size.contains(&0) {
            return Ok(());
        }
        if let Some(stored) = first.format.filter(|_| first.samples > 0) {
            // A multisample image: one `ClearTexture` of the value in the image's format.
            let value = clear_value(stored, layout, texel).ok_or(INVALID_OPERATION)?;
            sh.dev.push(Record::ClearTexture {
                texture: handle,
                level: level as u8,
                face: 0,
                region: Box::new(wire_region(target, origin, size)),
                value: Box::new(value),
            });
            sh.flush_if_full();
            return Ok(());
        }
        for face in face_range {
            let it = ImageTarget {
                target,
                face,
                proxy: false,
            };
            let [w, h, d] = size.map(|v| v.max(0) as usize);
            let data = sh.dev.enc.stage_with(w * h * d * texel.len(), |dst| {
                for chunk in dst.chunks_exact_mut(texel.len()) {
                    chunk.copy_from_slice(texel);
                }
            });
            sh.dev.push(Record::WriteTexture {
                texture: handle,
                level: level as u8,
                face: it.face as u8,
                region: Box::new(wire_region(it.target, origin, size)),
                layout,
                data,
            });
            sh.flush_if_full();
        }
        Ok(())
    }
}

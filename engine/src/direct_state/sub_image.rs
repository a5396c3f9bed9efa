//! `glGetTextureSubImage` and `glGetCompressedTextureSubImage` (GL 4.5 §8.11.4,
//! `ARB_get_texture_sub_image`): a box of one level of a texture named directly.
//!
//! The checks are Mesa's, in its order (`gettexsubimage_error_check`,
//! `getcompressedteximage_error_check`): the level, the format and type (uncompressed),
//! cube completeness, then the box (`dimensions_error_check`: offsets and sizes, the per-target
//! rules, the box within the image, whole compressed blocks), then the destination, then the
//! image's format. A cube map's faces are the box's z, each face one image stride past the
//! last, as Mesa steps them.
//!
//! The read is the whole-image read-back `glGetTexImage` uses (the backends read whole
//! images only), cut to the box on the client side before it is packed; a box never goes
//! straight into a pack buffer.

use tessera_components::gl::*;
use tessera_components::object::{Buffer, Image, Texture};
use tessera_components::state::{BufferTarget, TextureTarget};

use super::texture::{face_target, has_images_to_read};
use crate::context::{Context, GlResult};
use crate::pixel::{PixelsMut, client_layout, pixel_size};
use crate::texture::{
    ReadBox, block_bytes, check_format_type, check_read_format, max_levels, store_for,
};

/// Any target with a name (`glGetCompressedTextureSubImage` takes every target; the box
/// and the image decide).
fn any(_: TextureTarget) -> bool {
    true
}

impl Context {
    /// `glGetTextureSubImage`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn get_texture_sub_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        offset: [GLint; 3],
        size: [GLsizei; 3],
        format: GLenum,
        ty: GLenum,
        buf_size: GLsizei,
        pixels: PixelsMut<'_>,
    ) {
        self.on_texture(texture, INVALID_OPERATION, has_images_to_read, |c, t| {
            let read = c.texture_sub_image(t, level, offset, size, format, ty, buf_size, pixels);
            if let Err(err) = read {
                c.error(err);
            }
        });
    }

    /// `glGetTextureSubImage` on the named texture of target `t`: the checks, then each
    /// image's read (the body of `glGetTexImage` on the box).
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    fn texture_sub_image(
        &mut self,
        t: TextureTarget,
        level: GLint,
        offset: [GLint; 3],
        size: [GLsizei; 3],
        format: GLenum,
        ty: GLenum,
        buf_size: GLsizei,
        mut pixels: PixelsMut<'_>,
    ) -> GlResult {
        if level < 0 || level >= max_levels(&self.local.limits, t) {
            return Err(INVALID_VALUE);
        }
        let layout = check_format_type(format, ty)?;
        if t == TextureTarget::Cube && !self.cube_complete() {
            return Err(INVALID_OPERATION);
        }
        let Some(region) = self.check_box(t, level, offset, size)? else {
            return Ok(());
        };
        let px = pixel_size(layout.format, layout.ty);
        let cube = t == TextureTarget::Cube;
        let dims = match t {
            TextureTarget::D3 | TextureTarget::D2Array | TextureTarget::CubeArray => 3,
            _ if cube => 3,
            _ => 2,
        };
        let store = store_for(&self.local.st.pack, dims);
        let [w, h, d] = region.size;
        let end = client_layout(&store, px, w, h, d).end;
        if !self.destination_fits(&pixels, end, buf_size)? {
            return Ok(());
        }
        let face = if cube { region.offset[2] } else { 0 };
        let image = self.named_image(face, level as usize).unwrap_or_default();
        check_read_format(&image, format)?;
        if !cube {
            self.get_tex_sub_image(t.to_gl(), level, region, format, ty, pixels);
            return Ok(());
        }
        let stride = client_layout(&self.local.st.pack, px, w, h, 1).image_stride;
        let faces = region.offset[2]..region.offset[2] + d;
        for (i, face) in faces.enumerate() {
            let at = i * stride;
            let px = match &mut pixels {
                PixelsMut::Bytes(b) => {
                    let from = at.min(b.len());
                    PixelsMut::Bytes(&mut b[from..])
                }
                PixelsMut::Offset(o) => PixelsMut::Offset(*o + at),
            };
            let one = ReadBox {
                offset: [region.offset[0], region.offset[1], 0],
                size: [w, h, 1],
            };
            let target = face_target(face);
            if self.raises(|c| c.get_tex_sub_image(target, level, one, format, ty, px)) {
                break;
            }
        }
        Ok(())
    }

    /// Mesa's `dimensions_error_check` of a box of the named texture's image at `level`:
    /// `INVALID_VALUE` for a negative offset or size, a box that leaves the image or the
    /// target's dimensions, or a compressed box that is not whole blocks (where it does not
    /// end at the image's edge); `None` for an empty box, which reads nothing.
    pub(super) fn check_box(
        &mut self,
        t: TextureTarget,
        level: GLint,
        offset: [GLint; 3],
        size: [GLsizei; 3],
    ) -> GlResult<Option<ReadBox>> {
        let ([x, y, z], [w, h, d]) = (offset, size);
        if offset.iter().chain(&size).any(|v| *v < 0) {
            return Err(INVALID_VALUE);
        }
        use TextureTarget::*;
        if t == D1 && (y != 0 || h != 1) {
            return Err(INVALID_VALUE);
        }
        if matches!(t, D1 | D1Array | D2 | Rectangle) && (z != 0 || d != 1) {
            return Err(INVALID_VALUE);
        }
        let cube = t == Cube;
        if cube && i64::from(z) + i64::from(d) > 6 {
            return Err(INVALID_VALUE);
        }
        let face = if cube { z as usize } else { 0 };
        let image = usize::try_from(level)
            .ok()
            .and_then(|l| self.named_image(face, l));
        let [iw, ih, id] = image.map_or([0; 3], |i| [i.width, i.height, i.depth]);
        let beyond = |o: GLint, s: GLsizei, n: GLint| i64::from(o) + i64::from(s) > i64::from(n);
        if beyond(x, w, iw) || beyond(y, h, ih) || (!cube && beyond(z, d, id)) {
            return Err(INVALID_VALUE);
        }
        if image.and_then(|i| i.format).and_then(block_bytes).is_some() {
            // 4x4x1 blocks.
            if x % 4 != 0 || (!matches!(t, D1 | D1Array) && y % 4 != 0) {
                return Err(INVALID_VALUE);
            }
            if (w % 4 != 0 && x + w != iw) || (h % 4 != 0 && y + h != ih) {
                return Err(INVALID_VALUE);
            }
        }
        if w == 0 || h == 0 || d == 0 {
            return Ok(None);
        }
        Ok(Some(ReadBox {
            offset: [x, y, z].map(|v| v as usize),
            size: [w, h, d].map(|v| v as usize),
        }))
    }

    /// Whether `end` bytes fit the destination (Mesa's bounds checks): client memory of
    /// `buf_size` bytes, or the pack buffer past the offset, which must not be mapped
    /// (`INVALID_OPERATION` otherwise). `false` (nothing to do) for a null pointer into
    /// client memory.
    pub(super) fn destination_fits(
        &mut self,
        pixels: &PixelsMut<'_>,
        end: usize,
        buf_size: GLsizei,
    ) -> GlResult<bool> {
        match (self.local.st.buffer(BufferTarget::PixelPack), pixels) {
            (None, PixelsMut::Bytes(b)) => {
                if end > buf_size.max(0) as usize {
                    return Err(INVALID_OPERATION);
                }
                Ok(!b.is_empty())
            }
            (Some(e), PixelsMut::Offset(offset)) => {
                let sh = self.group.lock();
                let b = sh.world.get::<Buffer>(e).ok_or(INVALID_OPERATION)?;
                let size = usize::try_from(b.size).unwrap_or(0);
                if offset.checked_add(end).is_none_or(|n| n > size) || b.mapped_exclusively() {
                    return Err(INVALID_OPERATION);
                }
                Ok(true)
            }
            _ => Err(INVALID_OPERATION),
        }
    }

    /// The named texture's image of face `face` at `level`, where it has one.
    pub(super) fn named_image(&self, face: usize, level: usize) -> Option<Image> {
        let e = self.local.named_texture?;
        let sh = self.group.lock();
        let t = sh.world.get::<Texture>(e)?;
        let image = *t.images.get(face)?.get(level)?;
        image.is_defined().then_some(image)
    }

    /// `glGetCompressedTextureSubImage`.
    pub fn get_compressed_texture_sub_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        offset: [GLint; 3],
        size: [GLsizei; 3],
        buf_size: GLsizei,
        pixels: PixelsMut<'_>,
    ) {
        self.on_texture(texture, INVALID_OPERATION, any, |c, t| {
            let read = c.compressed_texture_sub_image(t, level, offset, size, buf_size, pixels);
            if let Err(err) = read {
                c.error(err);
            }
        });
    }

    /// `glGetCompressedTextureSubImage` on the named texture of target `t`: Mesa's checks
    /// of the level and the box, then the compressed read.
    fn compressed_texture_sub_image(
        &mut self,
        t: TextureTarget,
        level: GLint,
        offset: [GLint; 3],
        size: [GLsizei; 3],
        buf_size: GLsizei,
        pixels: PixelsMut<'_>,
    ) -> GlResult {
        if level < 0 || level >= max_levels(&self.local.limits, t) {
            return Err(INVALID_VALUE);
        }
        let Some(region) = self.check_box(t, level, offset, size)? else {
            return Ok(());
        };
        self.get_compressed_tex_sub_image(t, level as usize, region, buf_size, pixels)
    }
}

//! Invalidation (GL 4.3's `ARB_invalidate_subdata`): `glInvalidateTexSubImage`,
//! `glInvalidateTexImage`, `glInvalidateBufferSubData`, `glInvalidateBufferData`,
//! `glInvalidateFramebuffer` and `glInvalidateSubFramebuffer`.
//!
//! After an invalidation the contents are undefined, so keeping them is a valid
//! implementation, and it is Tessera's on both backends: the engine decides every error as
//! Mesa does and emits nothing. (A Vulkan render pass could take an invalidated attachment as
//! a `DONT_CARE` load, but lavapipe and llvmpipe gain nothing from it, and the GLES backend's
//! `glInvalidateFramebuffer` would be a driver hint as well.)

use tessera_components::gl::*;
use tessera_components::object::{Buffer, Texture};
use tessera_components::state::TextureTarget;

use crate::context::{Context, GlResult};
use crate::framebuffer::WhichFramebuffer;
use crate::limits;

/// The `TEXTURE_MAX_LEVEL` Mesa gives a texture that was named but never bound.
const DEFAULT_MAX_LEVEL: i32 = 1000;

impl Context {
    /// The checks both texture invalidations make, in Mesa's order: a texture name
    /// (`INVALID_VALUE` for 0 or no texture; a name `glGenTextures` returned counts, as Mesa
    /// makes the object there), a level in `[0, TEXTURE_MAX_LEVEL]`, and level 0 for
    /// rectangle, buffer and multisample textures. Returns the level's image size (as
    /// width, height, depth, with GL's 1 for the dimensions the target lacks), where the
    /// texture has an image there.
    fn invalidate_texture_checks(
        &mut self,
        texture: GLuint,
        level: GLint,
    ) -> GlResult<Option<[i32; 3]>> {
        let sh = self.group.lock();
        let Some(e) = sh.names.textures.get(texture) else {
            if texture != 0 && sh.names.textures.is_generated(texture) {
                return if (0..=DEFAULT_MAX_LEVEL).contains(&level) {
                    Ok(None)
                } else {
                    Err(INVALID_VALUE)
                };
            }
            return Err(INVALID_VALUE);
        };
        let t = sh.world.get::<Texture>(e).ok_or(INVALID_VALUE)?;
        if level < 0 || level > t.max_level {
            return Err(INVALID_VALUE);
        }
        use TextureTarget as T;
        let single_level = matches!(
            t.target,
            Some(T::Rectangle | T::Buffer | T::D2Multisample | T::D2MultisampleArray)
        );
        if single_level && level != 0 {
            return Err(INVALID_VALUE);
        }
        let Some(target) = t.target else {
            return Ok(None);
        };
        if target == T::Buffer {
            return Ok(None);
        }
        let image = t
            .images
            .first()
            .and_then(|faces| faces.get(level as usize))
            .filter(|i| i.internal_format != 0);
        Ok(image.map(|i| match target {
            T::D1 => [i.width, 1, 1],
            T::D1Array | T::D2 | T::Cube | T::Rectangle | T::D2Multisample => {
                [i.width, i.height, 1]
            }
            _ => [i.width, i.height, i.depth],
        }))
    }

    /// `glInvalidateTexImage`: the texture and level checks only.
    pub fn invalidate_tex_image(&mut self, texture: GLuint, level: GLint) {
        if let Err(err) = self.invalidate_texture_checks(texture, level) {
            self.error(err);
        }
    }

    /// `glInvalidateTexSubImage`: where the level has an image, the box must lie within
    /// it (core textures have no border); widths are not checked on their own, as in Mesa.
    #[allow(clippy::too_many_arguments, reason = "mirrors glInvalidateTexSubImage")]
    pub fn invalidate_tex_sub_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        xoffset: GLint,
        yoffset: GLint,
        zoffset: GLint,
        width: GLsizei,
        height: GLsizei,
        depth: GLsizei,
    ) {
        let size = match self.invalidate_texture_checks(texture, level) {
            Ok(s) => s,
            Err(err) => return self.error(err),
        };
        let Some(size) = size else { return };
        let boxed = [(xoffset, width), (yoffset, height), (zoffset, depth)];
        let outside = boxed
            .iter()
            .zip(size)
            .any(|(&(o, n), dim)| o < 0 || i64::from(o) + i64::from(n) > i64::from(dim));
        if outside {
            self.error(INVALID_VALUE);
        }
    }

    /// The buffer a name refers to for an invalidation: `INVALID_VALUE` for 0, no buffer,
    /// or a name `glGenBuffers` returned that was never bound (Mesa's placeholder object).
    fn invalidate_buffer_checks(&mut self, buffer: GLuint, range: Option<(i64, i64)>) -> GlResult {
        let sh = self.group.lock();
        let e = sh.names.buffers.get(buffer).ok_or(INVALID_VALUE)?;
        let b = sh.world.get::<Buffer>(e).ok_or(INVALID_VALUE)?;
        let (offset, length) = range.unwrap_or((0, b.size));
        if offset < 0 || length < 0 || offset.checked_add(length).is_none_or(|end| end > b.size) {
            return Err(INVALID_VALUE);
        }
        // A range that intersects the mapped one (an empty range inside it does) is
        // INVALID_OPERATION.
        if let Some(m) = b.mapping.as_ref().filter(|_| b.mapped_exclusively()) {
            let end = offset + length;
            if !(end <= m.offset || offset >= m.offset + m.length) {
                return Err(INVALID_OPERATION);
            }
        }
        Ok(())
    }

    /// `glInvalidateBufferData`: the whole buffer, which must not be mapped.
    pub fn invalidate_buffer_data(&mut self, buffer: GLuint) {
        if let Err(err) = self.invalidate_buffer_checks(buffer, None) {
            self.error(err);
        }
    }

    /// `glInvalidateBufferSubData`: `length` bytes at `offset`, within the buffer and not
    /// intersecting a mapped range.
    pub fn invalidate_buffer_sub_data(
        &mut self,
        buffer: GLuint,
        offset: GLintptr,
        length: GLsizeiptr,
    ) {
        let range = Some((offset as i64, length as i64));
        if let Err(err) = self.invalidate_buffer_checks(buffer, range) {
            self.error(err);
        }
    }

    /// `glInvalidateFramebuffer`.
    pub fn invalidate_framebuffer(
        &mut self,
        target: GLenum,
        count: GLsizei,
        attachments: &[GLenum],
    ) {
        let r = WhichFramebuffer::Bound(target);
        if let Err(err) = self.invalidate_framebuffer_checks(r, count, attachments, 0, 0) {
            self.error(err);
        }
    }

    /// `glInvalidateSubFramebuffer`: a negative width or height is `INVALID_VALUE` (before
    /// the attachments are looked at); the rectangle may lie anywhere.
    #[allow(
        clippy::too_many_arguments,
        reason = "mirrors glInvalidateSubFramebuffer"
    )]
    pub fn invalidate_sub_framebuffer(
        &mut self,
        target: GLenum,
        count: GLsizei,
        attachments: &[GLenum],
        _x: GLint,
        _y: GLint,
        width: GLsizei,
        height: GLsizei,
    ) {
        let r = WhichFramebuffer::Bound(target);
        let checked = self.invalidate_framebuffer_checks(r, count, attachments, width, height);
        if let Err(err) = checked {
            self.error(err);
        }
    }

    /// The checks both framebuffer invalidations make, in Mesa's order: the target, the
    /// count, the size, then each attachment in turn (the default framebuffer's buffers
    /// `COLOR`, `DEPTH`, `STENCIL` and the four `FRONT`/`BACK` `LEFT`/`RIGHT` ones; a
    /// framebuffer object's attachment points, a colour attachment past
    /// `MAX_COLOR_ATTACHMENTS` being `INVALID_OPERATION`). The named forms
    /// (`glInvalidateNamedFramebuffer*`) share them, on the framebuffer they name.
    pub(crate) fn invalidate_framebuffer_checks(
        &mut self,
        r: WhichFramebuffer,
        count: GLsizei,
        attachments: &[GLenum],
        width: GLsizei,
        height: GLsizei,
    ) -> GlResult {
        let fb = self.local.framebuffer_of(r)?;
        if count < 0 || width < 0 || height < 0 {
            return Err(INVALID_VALUE);
        }
        for &a in attachments.iter().take(count as usize) {
            match fb {
                None => {
                    if !matches!(
                        a,
                        COLOR | DEPTH | STENCIL | FRONT_LEFT | FRONT_RIGHT | BACK_LEFT | BACK_RIGHT
                    ) {
                        return Err(INVALID_ENUM);
                    }
                }
                Some(_) => match a {
                    DEPTH_ATTACHMENT | STENCIL_ATTACHMENT | DEPTH_STENCIL_ATTACHMENT => {}
                    COLOR_ATTACHMENT0..=COLOR_ATTACHMENT15 => {
                        if (a - COLOR_ATTACHMENT0) as i32 >= limits::COLOR_ATTACHMENTS {
                            return Err(INVALID_OPERATION);
                        }
                    }
                    _ => return Err(INVALID_ENUM),
                },
            }
        }
        Ok(())
    }
}

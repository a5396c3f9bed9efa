//! Buffer clears (GL 4.3's `ARB_clear_buffer_object`): `glClearBufferData` and
//! `glClearBufferSubData`.
//!
//! The engine decides every error in Mesa's order (the range and the mapping, then the
//! internal format, integer against non-integer data, a colour format, the format and type,
//! then the alignment to one texel) and converts the client's one pixel to the texel of the
//! internal format on the CPU (`wire::pixel`, GL's unpack and pack rules: normalized values
//! clamped and rounded, integers clamped), so the record carries the texel's bytes and no
//! backend converts anything. One `FillBuffer` names the buffer, the range and the texel;
//! the Vulkan backend fills the range with `vkCmdFillBuffer` where the texel is a 32-bit word
//! (or a byte or two repeated into one), else, as the GLES backend always does, writes the
//! pattern repeated over the range. The client copy of the range learns the same bytes.

use tessera_components::gl::*;
use tessera_components::object::Buffer;
use tessera_components::state::BufferTarget;
use tessera_systems::conv::{map_pixel_format, map_pixel_type};
use tessera_wire::format::{PixelFormat, PixelLayout};
use tessera_wire::pixel;
use tessera_wire::record::{BufferRange, Record};

use crate::buffer::{BufferRef, persistent_learn, shadow_write};
use crate::context::{Context, GlResult};

/// The texel of a buffer texture's internal format as client pixel data lays it out (GL
/// 4.3 table 8.16, with the three-component 32-bit formats of
/// `ARB_texture_buffer_object_rgb32`, which Mesa takes here too).
fn texel_layout(internal: GLenum) -> Option<PixelLayout> {
    crate::texture::buffer_texture_format(internal, true).map(crate::pixel::texel_layout)
}

/// Whether a client `format` is one of the `*_INTEGER` ones.
fn integer_format(format: GLenum) -> bool {
    matches!(
        format,
        RED_INTEGER
            | GREEN_INTEGER
            | BLUE_INTEGER
            | RG_INTEGER
            | RGB_INTEGER
            | BGR_INTEGER
            | RGBA_INTEGER
            | BGRA_INTEGER
    )
}

/// Whether a client `format` holds colour (Mesa's `_mesa_is_color_format`, the formats a
/// core context takes).
fn color_format(format: GLenum) -> bool {
    integer_format(format) || matches!(format, RED | GREEN | BLUE | RG | RGB | BGR | RGBA | BGRA)
}

/// The bytes of one pixel of client `format` and `ty`, which a clear reads from its data (0
/// where they are no client layout: the clear reads nothing and fails).
pub fn client_pixel_size(format: GLenum, ty: GLenum) -> usize {
    match (map_pixel_format(format), map_pixel_type(ty)) {
        (Some(f), Some(t)) => pixel::pixel_size(f, t),
        _ => 0,
    }
}

/// The texel a clear writes: the internal format's layout and the converted bytes (zeros
/// without data), after the format errors (module docs).
fn clear_texel(
    internal: GLenum,
    format: GLenum,
    ty: GLenum,
    data: Option<&[u8]>,
) -> GlResult<Vec<u8>> {
    let texel = texel_layout(internal).ok_or(INVALID_ENUM)?;
    let integer = matches!(
        texel.format,
        PixelFormat::RedInteger
            | PixelFormat::RgInteger
            | PixelFormat::RgbInteger
            | PixelFormat::RgbaInteger
    );
    if integer != integer_format(format) {
        return Err(INVALID_OPERATION);
    }
    if !color_format(format) {
        return Err(INVALID_VALUE);
    }
    let client = crate::texture::check_format_type(format, ty).map_err(|_| INVALID_VALUE)?;
    let size = pixel::pixel_size(texel.format, texel.ty);
    match data {
        None => Ok(vec![0; size]),
        Some(bytes) => pixel::convert(client, texel, bytes, 1).ok_or(INVALID_VALUE),
    }
}

impl Context {
    /// `glClearBufferData`: the whole buffer bound to `target`, which must not be mapped.
    pub fn clear_buffer_data(
        &mut self,
        target: GLenum,
        internal_format: GLenum,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) {
        let r = BufferRef::Target(target);
        self.clear_buffer_range(r, internal_format, None, format, ty, data);
    }

    /// `glClearNamedBufferData`.
    pub fn clear_named_buffer_data(
        &mut self,
        buffer: GLuint,
        internal_format: GLenum,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) {
        let r = BufferRef::Name(buffer);
        self.clear_buffer_range(r, internal_format, None, format, ty, data);
    }

    /// `glClearBufferSubData`: `size` bytes at `offset`, which must not overlap a mapped
    /// range.
    #[allow(clippy::too_many_arguments, reason = "mirrors glClearBufferSubData")]
    pub fn clear_buffer_sub_data(
        &mut self,
        target: GLenum,
        internal_format: GLenum,
        offset: GLintptr,
        size: GLsizeiptr,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) {
        let range = Some((offset as i64, size as i64));
        let r = BufferRef::Target(target);
        self.clear_buffer_range(r, internal_format, range, format, ty, data);
    }

    /// `glClearNamedBufferSubData`.
    #[allow(
        clippy::too_many_arguments,
        reason = "mirrors glClearNamedBufferSubData"
    )]
    pub fn clear_named_buffer_sub_data(
        &mut self,
        buffer: GLuint,
        internal_format: GLenum,
        offset: GLintptr,
        size: GLsizeiptr,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) {
        let range = Some((offset as i64, size as i64));
        let r = BufferRef::Name(buffer);
        self.clear_buffer_range(r, internal_format, range, format, ty, data);
    }

    /// Both clears: `range` is `None` for the whole buffer.
    fn clear_buffer_range(
        &mut self,
        r: BufferRef,
        internal: GLenum,
        range: Option<(i64, i64)>,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let checked = (|| {
            // Nothing bound to the target is INVALID_VALUE here (Mesa), an unknown name
            // INVALID_OPERATION as everywhere.
            let e = match r {
                BufferRef::Target(target) => {
                    let t = BufferTarget::from_gl(target).ok_or(INVALID_ENUM)?;
                    self.bound_buffer(&sh, t).ok_or(INVALID_VALUE)?
                }
                BufferRef::Name(_) => self.resolve_buffer(&sh, r)?,
            };
            let b = sh.world.get::<Buffer>(e).ok_or(INVALID_VALUE)?;
            let (offset, size) = range.unwrap_or((0, b.size));
            if offset < 0 || size < 0 || offset.checked_add(size).is_none_or(|end| end > b.size) {
                return Err(INVALID_VALUE);
            }
            if let Some(m) = b.mapping.as_ref().filter(|_| b.mapped_exclusively()) {
                // glClearBufferData refuses any mapping, glClearBufferSubData only one
                // that overlaps the range.
                let overlaps = offset < m.offset + m.length && m.offset < offset + size;
                if range.is_none() || overlaps {
                    return Err(INVALID_OPERATION);
                }
            }
            let texel = clear_texel(internal, format, ty, data)?;
            let n = texel.len() as i64;
            if offset % n != 0 || size % n != 0 {
                return Err(INVALID_VALUE);
            }
            Ok((e, b.handle, offset as u64, size as u64, texel))
        })();
        let (e, handle, offset, size, texel) = match checked {
            Ok(v) => v,
            Err(err) => {
                drop(sh);
                return self.error(err);
            }
        };
        if size == 0 {
            return;
        }
        let pattern = sh.dev.enc.stage(&texel);
        sh.dev.push(Record::FillBuffer {
            buffer: handle,
            range: Box::new(BufferRange { offset, size }),
            pattern,
        });
        let mirrored = sh
            .world
            .get::<Buffer>(e)
            .is_some_and(|b| b.shadow.is_some());
        if mirrored {
            shadow_write(&mut sh, e, offset, &pixel::repeat_pattern(&texel, size));
        }
        if sh
            .world
            .get::<Buffer>(e)
            .is_some_and(|b| b.mapping.is_some())
        {
            // Through a persistent mapping, as `glBufferSubData` (`buffer::persistent_learn`).
            sh.flush();
            persistent_learn(&mut sh, e, offset, &pixel::repeat_pattern(&texel, size));
        }
        sh.flush_if_full();
    }
}

//! GL 3.3's rules about texture formats: which internal formats a texture accepts, which
//! client `format`/`type` pairs are legal, which combinations agree, and the block arithmetic
//! of the compressed (RGTC) formats.
//!
//! The order of the checks inside [`check_format_type`] is Mesa's, so that a call with two
//! faults reports the error Mesa reports.

use tessera_components::gl::*;
use tessera_components::object::Image;
use tessera_systems::conv::{
    map_pixel_format, map_pixel_type, map_sized_format, resolve_texture_format,
};
use tessera_wire::format::{Format, FormatClass, PixelLayout};

/// The kind of values an internal format stores, as the agreement rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Base {
    /// Colour (normalized, float or integer).
    Color,
    /// Depth only.
    Depth,
    /// Depth and stencil.
    DepthStencil,
    /// Stencil only (`GL_ARB_texture_stencil8`).
    Stencil,
}

/// An internal format a texture image may be specified with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct InternalFormat {
    /// What it stores.
    pub base: Base,
    /// Integer colour: only `*_INTEGER` client data can feed it.
    pub integer: bool,
    /// Bytes per 4x4 block of a specific compressed format (RGTC), `None` otherwise.
    pub block_bytes: Option<usize>,
}

impl InternalFormat {
    const COLOR: Self = Self {
        base: Base::Color,
        integer: false,
        block_bytes: None,
    };
}

/// Bytes of one 4x4 block of a compressed format.
pub(crate) fn block_bytes(format: Format) -> Option<usize> {
    match format {
        Format::RgtcR | Format::RgtcRSnorm => Some(8),
        Format::RgtcRg | Format::RgtcRgSnorm => Some(16),
        Format::BptcRgba
        | Format::BptcSrgbAlpha
        | Format::BptcRgbSfloat
        | Format::BptcRgbUfloat => Some(16),
        f => tessera_wire::etc2::Etc2Kind::of(f).map(|k| k.block_bytes()),
    }
}

/// The internal formats GL 3.3 lets a texture image have: the base formats of table 3.11
/// (plus `SRGB` and `SRGB_ALPHA`, which Mesa accepts), the sized formats of tables 3.12 and
/// 3.13 and the generic and RGTC compressed formats of table 3.14, and `RGB565` (GL 4.1's
/// ARB_ES2_compatibility); with `stencil8` (GL 4.4's `ARB_texture_stencil8`, where the
/// backend carries it out) the stencil-only formats too, `STENCIL_INDEX` and
/// `STENCIL_INDEX1/4/8/16`, as Mesa's `_mesa_base_tex_format` takes them.
pub(crate) fn internal_format(v: GLenum, stencil8: bool) -> Option<InternalFormat> {
    match v {
        RED
        | RG
        | RGB
        | RGBA
        | SRGB
        | SRGB_ALPHA
        | COMPRESSED_RED
        | COMPRESSED_RG
        | COMPRESSED_RGB
        | COMPRESSED_RGBA
        | COMPRESSED_SRGB
        | COMPRESSED_SRGB_ALPHA => {
            return Some(InternalFormat::COLOR);
        }
        DEPTH_COMPONENT => {
            return Some(InternalFormat {
                base: Base::Depth,
                ..InternalFormat::COLOR
            });
        }
        DEPTH_STENCIL => {
            return Some(InternalFormat {
                base: Base::DepthStencil,
                ..InternalFormat::COLOR
            });
        }
        STENCIL_INDEX if stencil8 => {
            return Some(InternalFormat {
                base: Base::Stencil,
                ..InternalFormat::COLOR
            });
        }
        _ => {}
    }
    let f = map_sized_format(v)?;
    let info = f.info();
    let base = match info.class {
        FormatClass::Float | FormatClass::Int | FormatClass::Uint => Base::Color,
        FormatClass::Depth => Base::Depth,
        FormatClass::DepthStencil => Base::DepthStencil,
        FormatClass::Stencil if stencil8 => Base::Stencil,
        FormatClass::Stencil => return None,
    };
    Some(InternalFormat {
        base,
        integer: matches!(info.class, FormatClass::Int | FormatClass::Uint),
        block_bytes: block_bytes(f),
    })
}

/// The storage format of a texture image of `internal` given with client type `ty`
/// (`resolve_texture_format`), but for the stencil-only formats, which textures store in 8
/// bits whatever their name says (as Mesa: `STENCIL_INDEX1/4/16` textures report 8 stencil
/// bits; renderbuffers keep their own sizes).
pub(crate) fn texture_format(internal: GLenum, ty: GLenum) -> Option<Format> {
    match resolve_texture_format(internal, ty)? {
        Format::Stencil1 | Format::Stencil4 | Format::Stencil16 => Some(Format::Stencil8),
        f => Some(f),
    }
}

/// Whether a client `format` carries integer components.
pub(crate) fn is_integer_format(format: GLenum) -> bool {
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

/// Whether a client `format` names depth (or depth and stencil) values.
pub(crate) fn is_depth_format(format: GLenum) -> bool {
    matches!(format, DEPTH_COMPONENT | DEPTH_STENCIL)
}

/// Validates a client `format`/`type` pair (GL 3.3 §3.7.2, tables 3.2 to 3.5).
/// `INVALID_ENUM` for an unknown format or type or a type the format does not take;
/// `INVALID_OPERATION` for a packed type whose component count the format does not match.
pub(crate) fn check_format_type(format: GLenum, ty: GLenum) -> Result<PixelLayout, GLenum> {
    if format == DEPTH_STENCIL && !matches!(ty, UNSIGNED_INT_24_8 | FLOAT_32_UNSIGNED_INT_24_8_REV)
    {
        return Err(INVALID_ENUM);
    }
    // Packed types first: they decide INVALID_OPERATION before the format is looked at.
    match ty {
        UNSIGNED_BYTE_3_3_2
        | UNSIGNED_BYTE_2_3_3_REV
        | UNSIGNED_SHORT_5_6_5
        | UNSIGNED_SHORT_5_6_5_REV
            if !matches!(format, RGB | RGB_INTEGER) =>
        {
            return Err(INVALID_OPERATION);
        }
        UNSIGNED_SHORT_4_4_4_4
        | UNSIGNED_SHORT_4_4_4_4_REV
        | UNSIGNED_SHORT_5_5_5_1
        | UNSIGNED_SHORT_1_5_5_5_REV
        | UNSIGNED_INT_8_8_8_8
        | UNSIGNED_INT_8_8_8_8_REV
        | UNSIGNED_INT_10_10_10_2
        | UNSIGNED_INT_2_10_10_10_REV
            if !matches!(format, RGBA | BGRA | RGBA_INTEGER | BGRA_INTEGER) =>
        {
            return Err(INVALID_OPERATION);
        }
        UNSIGNED_INT_24_8 | FLOAT_32_UNSIGNED_INT_24_8_REV if format != DEPTH_STENCIL => {
            return Err(INVALID_OPERATION);
        }
        UNSIGNED_INT_10F_11F_11F_REV if format != RGB => return Err(INVALID_OPERATION),
        _ => {}
    }
    let plain_int = matches!(
        ty,
        UNSIGNED_BYTE | BYTE | UNSIGNED_SHORT | SHORT | UNSIGNED_INT | INT
    );
    let plain = plain_int || matches!(ty, HALF_FLOAT | FLOAT);
    let packed_rgb = matches!(
        ty,
        UNSIGNED_BYTE_3_3_2
            | UNSIGNED_BYTE_2_3_3_REV
            | UNSIGNED_SHORT_5_6_5
            | UNSIGNED_SHORT_5_6_5_REV
    );
    let packed_rgba = matches!(
        ty,
        UNSIGNED_SHORT_4_4_4_4
            | UNSIGNED_SHORT_4_4_4_4_REV
            | UNSIGNED_SHORT_5_5_5_1
            | UNSIGNED_SHORT_1_5_5_5_REV
            | UNSIGNED_INT_8_8_8_8
            | UNSIGNED_INT_8_8_8_8_REV
            | UNSIGNED_INT_10_10_10_2
            | UNSIGNED_INT_2_10_10_10_REV
    );
    let ok = match format {
        STENCIL_INDEX | DEPTH_COMPONENT | RED | GREEN | BLUE | RG | BGR => plain,
        RGB => {
            plain
                || packed_rgb
                || matches!(ty, UNSIGNED_INT_5_9_9_9_REV | UNSIGNED_INT_10F_11F_11F_REV)
        }
        RGBA | BGRA => plain || packed_rgba,
        DEPTH_STENCIL => true,
        RED_INTEGER | GREEN_INTEGER | BLUE_INTEGER | RG_INTEGER | BGR_INTEGER => plain_int,
        RGB_INTEGER => plain_int || packed_rgb,
        RGBA_INTEGER | BGRA_INTEGER => plain_int || packed_rgba,
        _ => false,
    };
    if !ok {
        return Err(INVALID_ENUM);
    }
    match (map_pixel_format(format), map_pixel_type(ty)) {
        (Some(format), Some(ty)) => Ok(PixelLayout { format, ty }),
        _ => Err(INVALID_ENUM),
    }
}

/// Whether client data of `format` can feed (or receive) values of an image storing `base`
/// (GL 3.3 §3.8.3): depth images take depth data, colour images colour data. Stencil-only
/// images are as Mesa's `texture_formats_agree` has them: refused only depth data, as
/// neither colour nor depth.
pub(crate) fn formats_agree(base: Base, format: GLenum) -> bool {
    match base {
        Base::Color => !is_depth_format(format) && format != STENCIL_INDEX,
        Base::Depth | Base::DepthStencil => is_depth_format(format),
        Base::Stencil => !is_depth_format(format),
    }
}

/// What a defined image stores, from its storage format.
pub(crate) fn image_base(image: &Image) -> Base {
    match image.format.map(|f| f.info().class) {
        Some(FormatClass::Depth) => Base::Depth,
        Some(FormatClass::DepthStencil) => Base::DepthStencil,
        Some(FormatClass::Stencil) => Base::Stencil,
        _ => Base::Color,
    }
}

/// Whether client data of `format` can specify an image of internal format `internal`
/// (GL 3.3 §3.8.3): the formats must agree ([`formats_agree`]), and integer formats need
/// integer data and the reverse. `INVALID_OPERATION` otherwise.
pub(crate) fn check_agreement(internal: InternalFormat, format: GLenum) -> Result<(), GLenum> {
    if !formats_agree(internal.base, format) || internal.integer != is_integer_format(format) {
        return Err(INVALID_OPERATION);
    }
    Ok(())
}

/// Bytes of a compressed image of `w` x `h` x `d` texels in blocks of `block` bytes.
pub(crate) fn compressed_size(block: usize, w: i32, h: i32, d: i32) -> usize {
    let blocks = |n: i32| (n.max(0) as usize).div_ceil(4);
    blocks(w) * blocks(h) * d.max(0) as usize * block
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_types_need_their_component_count() {
        assert_eq!(
            check_format_type(RGBA, UNSIGNED_BYTE_3_3_2),
            Err(INVALID_OPERATION)
        );
        assert!(check_format_type(RGB_INTEGER, UNSIGNED_SHORT_5_6_5).is_ok());
        assert_eq!(
            check_format_type(RGBA, UNSIGNED_INT_5_9_9_9_REV),
            Err(INVALID_ENUM)
        );
        assert_eq!(
            check_format_type(DEPTH_STENCIL, UNSIGNED_BYTE),
            Err(INVALID_ENUM)
        );
        assert_eq!(check_format_type(RGBA_INTEGER, FLOAT), Err(INVALID_ENUM));
        assert_eq!(check_format_type(ALPHA, UNSIGNED_BYTE), Err(INVALID_ENUM));
    }

    #[test]
    fn rgtc_blocks_round_up() {
        assert_eq!(compressed_size(8, 5, 5, 1), 32);
        assert_eq!(compressed_size(16, 4, 4, 2), 32);
        assert!(internal_format(RGB565, false).is_some());
        assert_eq!(internal_format(STENCIL_INDEX8, false), None);
        let stencil = internal_format(STENCIL_INDEX8, true).map(|f| f.base);
        assert_eq!(stencil, Some(Base::Stencil));
        assert_eq!(
            internal_format(STENCIL_INDEX, true).map(|f| f.base),
            stencil
        );
    }
}

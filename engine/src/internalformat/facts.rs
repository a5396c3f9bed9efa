//! What `ARB_internalformat_query2` asks of an internal format, as Mesa's `glformats.c`
//! classifies the GL names (colour, depth, stencil, sRGB, integer, compressed), and the
//! per-format answers that need no context: base formats, the image-unit classes and
//! pixel types, and the view classes of `ARB_texture_view`.
//!
//! Only names the engine accepts somewhere reach these functions with a meaningful answer;
//! the queries check support first, as Mesa does.

use tessera_components::gl::*;
use tessera_systems::conv::{map_sized_format, resolve_texture_format};
use tessera_wire::format::{Format, FormatClass};

/// The storage format the engine gives a texture of this internal format with no client
/// data (Mesa's `st_ChooseTextureFormat` with `GL_NONE` format and type), stencil-only
/// formats included.
pub(super) fn storage(internal: GLenum) -> Option<Format> {
    match internal {
        STENCIL_INDEX => Some(Format::Stencil8),
        _ => resolve_texture_format(internal, NONE),
    }
}

/// Mesa's `_mesa_base_tex_format` (and `_mesa_base_fbo_format`, which agrees with it on
/// every format a renderbuffer takes here): the base internal format.
pub(super) fn base_format(internal: GLenum) -> Option<GLenum> {
    let f = storage(internal)?;
    let info = f.info();
    Some(match info.class {
        FormatClass::Depth => DEPTH_COMPONENT,
        FormatClass::Stencil => STENCIL_INDEX,
        FormatClass::DepthStencil => DEPTH_STENCIL,
        _ => match (internal, info.rgba_bits) {
            (SRGB | COMPRESSED_SRGB, _) => RGB,
            (SRGB_ALPHA | COMPRESSED_SRGB_ALPHA, _) => RGBA,
            (_, [_, _, _, a]) if a > 0 => RGBA,
            (_, [_, _, b, _]) if b > 0 => RGB,
            (_, [_, g, _, _]) if g > 0 => RG,
            _ => RED,
        },
    })
}

/// Mesa's `_mesa_is_color_format`.
pub(super) fn is_color(internal: GLenum) -> bool {
    storage(internal).is_some_and(Format::is_color)
}

/// Mesa's `_mesa_is_depth_format`: depth without stencil.
pub(super) fn is_depth(internal: GLenum) -> bool {
    matches!(
        internal,
        DEPTH_COMPONENT
            | DEPTH_COMPONENT16
            | DEPTH_COMPONENT24
            | DEPTH_COMPONENT32
            | DEPTH_COMPONENT32F
    )
}

/// Mesa's `_mesa_is_stencil_format`: the base stencil format only (the sized ones are not,
/// so `STENCIL_COMPONENTS` of `STENCIL_INDEX8` is `FALSE` in Mesa).
pub(super) fn is_stencil(internal: GLenum) -> bool {
    internal == STENCIL_INDEX
}

/// Mesa's `_mesa_is_depthstencil_format`.
pub(super) fn is_depth_stencil(internal: GLenum) -> bool {
    matches!(
        internal,
        DEPTH_STENCIL | DEPTH24_STENCIL8 | DEPTH32F_STENCIL8
    )
}

/// Mesa's `_mesa_is_srgb_format`.
pub(super) fn is_srgb(internal: GLenum) -> bool {
    matches!(
        internal,
        SRGB | SRGB_ALPHA | COMPRESSED_SRGB | COMPRESSED_SRGB_ALPHA
    ) || map_sized_format(internal).is_some_and(|f| f.info().srgb)
}

/// Mesa's `_mesa_is_enum_format_integer`, and whether the integer format is signed.
pub(super) fn integer(internal: GLenum) -> Option<bool> {
    match map_sized_format(internal)?.info().class {
        FormatClass::Int => Some(true),
        FormatClass::Uint => Some(false),
        _ => None,
    }
}

/// Mesa's `_mesa_is_compressed_format`: a specific compressed format (the generic
/// `COMPRESSED_*` ones are not).
pub(super) fn is_compressed(internal: GLenum) -> bool {
    map_sized_format(internal).is_some_and(|f| f.info().compressed)
}

/// Whether a specific compressed format may be a texture of `target` (Mesa's
/// `_mesa_target_can_be_compressed`): 2D, cube and their arrays; 3D for BPTC only.
pub(super) fn compressed_target(internal: GLenum, target: GLenum) -> bool {
    match target {
        TEXTURE_2D | TEXTURE_2D_ARRAY | TEXTURE_CUBE_MAP | TEXTURE_CUBE_MAP_ARRAY => true,
        TEXTURE_3D => matches!(
            map_sized_format(internal),
            Some(
                Format::BptcRgba
                    | Format::BptcSrgbAlpha
                    | Format::BptcRgbSfloat
                    | Format::BptcRgbUfloat
            )
        ),
        _ => false,
    }
}

/// `INTERNALFORMAT_<channel>_SIZE` of a storage format, `pname` one of the seven.
pub(super) fn channel_bits(f: Format, pname: GLenum) -> i32 {
    let info = f.info();
    i32::from(match pname {
        INTERNALFORMAT_RED_SIZE => info.rgba_bits[0],
        INTERNALFORMAT_GREEN_SIZE => info.rgba_bits[1],
        INTERNALFORMAT_BLUE_SIZE => info.rgba_bits[2],
        INTERNALFORMAT_ALPHA_SIZE => info.rgba_bits[3],
        INTERNALFORMAT_DEPTH_SIZE => info.depth_bits,
        INTERNALFORMAT_STENCIL_SIZE => info.stencil_bits,
        _ => 0,
    })
}

/// Mesa's `_mesa_get_format_datatype`: the one data type of a storage format's channels
/// (a packed depth-stencil format's is its depth's).
pub(super) fn data_type(f: Format) -> GLenum {
    let info = f.info();
    match info.class {
        FormatClass::Int => INT,
        FormatClass::Uint => UNSIGNED_INT,
        FormatClass::Stencil => UNSIGNED_INT,
        FormatClass::Depth | FormatClass::DepthStencil => {
            if matches!(f, Format::Depth32f | Format::Depth32fStencil8) {
                FLOAT
            } else {
                UNSIGNED_NORMALIZED
            }
        }
        FormatClass::Float if info.snorm => SIGNED_NORMALIZED,
        FormatClass::Float if is_float(f) => FLOAT,
        FormatClass::Float => UNSIGNED_NORMALIZED,
    }
}

/// Floating-point colour storage.
fn is_float(f: Format) -> bool {
    use Format as F;
    matches!(
        f,
        F::R16f
            | F::Rg16f
            | F::Rgb16f
            | F::Rgba16f
            | F::R32f
            | F::Rg32f
            | F::Rgb32f
            | F::Rgba32f
            | F::R11fG11fB10f
            | F::Rgb9E5
            | F::BptcRgbSfloat
            | F::BptcRgbUfloat
    )
}

/// Whether the base format has the channel `pname` asks the size or type of (Mesa's
/// `_mesa_base_format_has_channel`).
pub(super) fn base_has_channel(base: GLenum, pname: GLenum) -> bool {
    match pname {
        INTERNALFORMAT_RED_SIZE | INTERNALFORMAT_RED_TYPE => {
            matches!(base, RED | RG | RGB | RGBA)
        }
        INTERNALFORMAT_GREEN_SIZE | INTERNALFORMAT_GREEN_TYPE => matches!(base, RG | RGB | RGBA),
        INTERNALFORMAT_BLUE_SIZE | INTERNALFORMAT_BLUE_TYPE => matches!(base, RGB | RGBA),
        INTERNALFORMAT_ALPHA_SIZE | INTERNALFORMAT_ALPHA_TYPE => base == RGBA,
        INTERNALFORMAT_DEPTH_SIZE | INTERNALFORMAT_DEPTH_TYPE => {
            matches!(base, DEPTH_COMPONENT | DEPTH_STENCIL)
        }
        INTERNALFORMAT_STENCIL_SIZE | INTERNALFORMAT_STENCIL_TYPE => {
            matches!(base, STENCIL_INDEX | DEPTH_STENCIL)
        }
        _ => false,
    }
}

/// The client format of a base format for integer data (Mesa's
/// `_mesa_base_format_to_integer_format`).
pub(super) fn integer_format(base: GLenum) -> GLenum {
    match base {
        RED => RED_INTEGER,
        RG => RG_INTEGER,
        RGB => RGB_INTEGER,
        RGBA => RGBA_INTEGER,
        b => b,
    }
}

/// Mesa's `_mesa_get_image_format_class`: `NONE` for a format no image unit takes.
pub(super) fn image_class(internal: GLenum) -> GLenum {
    match internal {
        RGBA32F | RGBA32UI | RGBA32I => IMAGE_CLASS_4_X_32,
        RGBA16F | RGBA16UI | RGBA16I | RGBA16 | RGBA16_SNORM => IMAGE_CLASS_4_X_16,
        RGBA8UI | RGBA8I | RGBA8 | RGBA8_SNORM => IMAGE_CLASS_4_X_8,
        RG32F | RG32UI | RG32I => IMAGE_CLASS_2_X_32,
        RG16F | RG16UI | RG16I | RG16 | RG16_SNORM => IMAGE_CLASS_2_X_16,
        RG8UI | RG8I | RG8 | RG8_SNORM => IMAGE_CLASS_2_X_8,
        R32F | R32UI | R32I => IMAGE_CLASS_1_X_32,
        R16F | R16UI | R16I | R16 | R16_SNORM => IMAGE_CLASS_1_X_16,
        R8UI | R8I | R8 | R8_SNORM => IMAGE_CLASS_1_X_8,
        R11F_G11F_B10F => IMAGE_CLASS_11_11_10,
        RGB10_A2UI | RGB10_A2 => IMAGE_CLASS_10_10_10_2,
        _ => NONE,
    }
}

/// Mesa's `_mesa_get_shader_image_pixel_type`: the client type of an image format's texel.
pub(super) fn image_pixel_type(internal: GLenum) -> GLenum {
    match internal {
        RGBA32F | RG32F | R32F => FLOAT,
        RGBA16F | RG16F | R16F => HALF_FLOAT,
        R11F_G11F_B10F => UNSIGNED_INT_10F_11F_11F_REV,
        RGBA32UI | RG32UI | R32UI => UNSIGNED_INT,
        RGBA16UI | RG16UI | R16UI | RGBA16 | RG16 | R16 => UNSIGNED_SHORT,
        RGBA8UI | RG8UI | R8UI | RGBA8 | RG8 | R8 => UNSIGNED_BYTE,
        RGB10_A2UI | RGB10_A2 => UNSIGNED_INT_2_10_10_10_REV,
        RGBA32I | RG32I | R32I => INT,
        RGBA16I | RG16I | R16I | RGBA16_SNORM | RG16_SNORM | R16_SNORM => SHORT,
        RGBA8I | RG8I | R8I | RGBA8_SNORM | RG8_SNORM | R8_SNORM => BYTE,
        _ => NONE,
    }
}

/// Bits of one texel of an image format.
pub(super) fn texel_bits(internal: GLenum) -> i32 {
    map_sized_format(internal).map_or(0, |f| {
        f.info().rgba_bits.iter().map(|&b| i32::from(b)).sum()
    })
}

/// Mesa's `_mesa_texture_view_lookup_view_class` (GL 4.3 table 8.21): `NONE` for a format
/// in no class.
pub(super) fn view_class(internal: GLenum) -> GLenum {
    match internal {
        RGBA32F | RGBA32UI | RGBA32I => VIEW_CLASS_128_BITS,
        RGB32F | RGB32UI | RGB32I => VIEW_CLASS_96_BITS,
        RGBA16F | RG32F | RGBA16UI | RG32UI | RGBA16I | RG32I | RGBA16 | RGBA16_SNORM => {
            VIEW_CLASS_64_BITS
        }
        RGB16 | RGB16_SNORM | RGB16F | RGB16UI | RGB16I => VIEW_CLASS_48_BITS,
        RG16F | R11F_G11F_B10F | R32F | RGB10_A2UI | RGBA8UI | RG16UI | R32UI | RGBA8I | RG16I
        | R32I | RGB10_A2 | RGBA8 | RG16 | RGBA8_SNORM | RG16_SNORM | SRGB8_ALPHA8 | RGB9_E5 => {
            VIEW_CLASS_32_BITS
        }
        RGB8 | RGB8_SNORM | SRGB8 | RGB8UI | RGB8I => VIEW_CLASS_24_BITS,
        R16F | RG8UI | R16UI | RG8I | R16I | RG8 | R16 | RG8_SNORM | R16_SNORM => {
            VIEW_CLASS_16_BITS
        }
        R8UI | R8I | R8 | R8_SNORM => VIEW_CLASS_8_BITS,
        COMPRESSED_RED_RGTC1 | COMPRESSED_SIGNED_RED_RGTC1 => VIEW_CLASS_RGTC1_RED,
        COMPRESSED_RG_RGTC2 | COMPRESSED_SIGNED_RG_RGTC2 => VIEW_CLASS_RGTC2_RG,
        COMPRESSED_RGBA_BPTC_UNORM | COMPRESSED_SRGB_ALPHA_BPTC_UNORM => VIEW_CLASS_BPTC_UNORM,
        COMPRESSED_RGB_BPTC_SIGNED_FLOAT | COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT => {
            VIEW_CLASS_BPTC_FLOAT
        }
        _ => NONE,
    }
}

//! Pure maps from wire values to GLES enums (`map_*`), and the format table: which native
//! sized format stores each wire [`Format`], and in which client layout its texels are
//! uploaded.
//!
//! GLES lacks some of desktop GL's formats; each gets the nearest format that loses nothing
//! GL promises: RGB4/RGB5/R3G3B2/RGBA2 live in RGBA8, 16-bit normalized formats in
//! `EXT_texture_norm16` formats when present (else 16-bit floats), DEPTH32 in DEPTH32F,
//! RGTC in the compressed formats of `EXT_texture_compression_rgtc` (else R8/RG8 filled by a
//! CPU decode). Such a format is a *stand-in*; the data path converts on the CPU whenever the
//! client's layout is not one GLES accepts for the native format.

use tessera_wire::format::{
    AttribType, BlendFactor, BlendOp, CompareFunc, Filter, Format, IndexType, MipFilter,
    PixelFormat, PixelLayout, PixelType, QueryKind, StencilOp, Swizzle, TextureKind, Topology,
    VertexFormat, Wrap,
};

use crate::device::Features;

/// How one wire format lives natively.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NativeFormat {
    /// Sized internal format for glTexImage/glRenderbufferStorage.
    pub internal: u32,
    /// Client layout the backend uploads texels in (data in any other layout is converted
    /// to this one on the CPU).
    pub upload: PixelLayout,
    /// The native format is block-compressed (uploads take blocks).
    pub compressed: bool,
    /// Compressed data is decoded on the CPU into the (uncompressed) native format:
    /// `(channels, signed)` of the RGTC data.
    pub decode_rgtc: Option<(usize, bool)>,
    /// The native format is not the wire format's own (an upgrade).
    pub stand_in: bool,
}

const fn lay(format: PixelFormat, ty: PixelType) -> PixelLayout {
    PixelLayout { format, ty }
}

/// The native format of a texture image of `format`.
pub(crate) fn map_format(format: Format, f: &Features) -> NativeFormat {
    use Format as W;
    use PixelFormat as P;
    use PixelType as T;
    let plain = |internal: u32, format: P, ty: T| NativeFormat {
        internal,
        upload: lay(format, ty),
        compressed: false,
        decode_rgtc: None,
        stand_in: false,
    };
    let stand_in = |internal: u32, format: P, ty: T| NativeFormat {
        stand_in: true,
        ..plain(internal, format, ty)
    };
    let norm16 = |n: u32, fmt: P, snorm: bool, fallback: u32| {
        if f.norm16 {
            plain(n, fmt, if snorm { T::I16 } else { T::U16 })
        } else {
            stand_in(fallback, fmt, T::F32)
        }
    };
    let rgtc = |internal: u32, channels: usize, signed: bool| {
        if f.rgtc {
            NativeFormat {
                compressed: true,
                ..plain(internal, P::Red, T::U8)
            }
        } else {
            let (internal, fmt) = match (channels, signed) {
                (1, false) => (glow::R8, P::Red),
                (1, true) => (glow::R8_SNORM, P::Red),
                (_, false) => (glow::RG8, P::Rg),
                (_, true) => (glow::RG8_SNORM, P::Rg),
            };
            NativeFormat {
                decode_rgtc: Some((channels, signed)),
                ..stand_in(internal, fmt, if signed { T::I8 } else { T::U8 })
            }
        }
    };
    // BPTC in `EXT_texture_compression_bptc`'s formats; without them an uncompressed
    // stand-in that compressed uploads skip (reported), and the engine does not advertise
    // the extension (`Caps::bptc`).
    let bptc = |internal: u32, fallback: u32, fmt: P, ty: T| {
        if f.bptc {
            NativeFormat {
                compressed: true,
                ..plain(internal, fmt, ty)
            }
        } else {
            stand_in(fallback, fmt, ty)
        }
    };
    let etc2 = |internal: u32| NativeFormat {
        compressed: true,
        ..plain(internal, P::Rgba, T::U8)
    };
    match format {
        W::R8 => plain(glow::R8, P::Red, T::U8),
        W::R8Snorm => plain(glow::R8_SNORM, P::Red, T::I8),
        W::R16 => norm16(glow::R16, P::Red, false, glow::R16F),
        W::R16Snorm => norm16(glow::R16_SNORM, P::Red, true, glow::R16F),
        W::Rg8 => plain(glow::RG8, P::Rg, T::U8),
        W::Rg8Snorm => plain(glow::RG8_SNORM, P::Rg, T::I8),
        W::Rg16 => norm16(glow::RG16, P::Rg, false, glow::RG16F),
        W::Rg16Snorm => norm16(glow::RG16_SNORM, P::Rg, true, glow::RG16F),
        W::R3G3B2 | W::Rgb4 | W::Rgb5 | W::Rgba2 => stand_in(glow::RGBA8, P::Rgba, T::U8),
        W::Rgb565 => plain(glow::RGB565, P::Rgb, T::U16_565),
        W::Rgb8 => plain(glow::RGB8, P::Rgb, T::U8),
        W::Rgb8Snorm => plain(glow::RGB8_SNORM, P::Rgb, T::I8),
        W::Rgb10 => stand_in(glow::RGB10_A2, P::Rgba, T::U32_2101010Rev),
        W::Rgb12 | W::Rgb16 => {
            if f.norm16 {
                stand_in(glow::RGBA16, P::Rgba, T::U16)
            } else {
                stand_in(glow::RGBA16F, P::Rgba, T::F32)
            }
        }
        W::Rgb16Snorm => norm16(glow::RGB16_SNORM, P::Rgb, true, glow::RGB16F),
        W::Rgba4 => plain(glow::RGBA4, P::Rgba, T::U16_4444),
        W::Rgb5A1 => plain(glow::RGB5_A1, P::Rgba, T::U16_5551),
        W::Rgba8 => plain(glow::RGBA8, P::Rgba, T::U8),
        W::Rgba8Snorm => plain(glow::RGBA8_SNORM, P::Rgba, T::I8),
        W::Rgb10A2 => plain(glow::RGB10_A2, P::Rgba, T::U32_2101010Rev),
        W::Rgb10A2Ui => plain(glow::RGB10_A2UI, P::RgbaInteger, T::U32_2101010Rev),
        W::Rgba12 => {
            if f.norm16 {
                stand_in(glow::RGBA16, P::Rgba, T::U16)
            } else {
                stand_in(glow::RGBA16F, P::Rgba, T::F32)
            }
        }
        W::Rgba16 => norm16(glow::RGBA16, P::Rgba, false, glow::RGBA16F),
        W::Rgba16Snorm => norm16(glow::RGBA16_SNORM, P::Rgba, true, glow::RGBA16F),
        W::Srgb8 => plain(glow::SRGB8, P::Rgb, T::U8),
        W::Srgb8Alpha8 => plain(glow::SRGB8_ALPHA8, P::Rgba, T::U8),
        W::R16f => plain(glow::R16F, P::Red, T::F16),
        W::Rg16f => plain(glow::RG16F, P::Rg, T::F16),
        W::Rgb16f => plain(glow::RGB16F, P::Rgb, T::F16),
        W::Rgba16f => plain(glow::RGBA16F, P::Rgba, T::F16),
        W::R32f => plain(glow::R32F, P::Red, T::F32),
        W::Rg32f => plain(glow::RG32F, P::Rg, T::F32),
        W::Rgb32f => plain(glow::RGB32F, P::Rgb, T::F32),
        W::Rgba32f => plain(glow::RGBA32F, P::Rgba, T::F32),
        W::R11fG11fB10f => plain(glow::R11F_G11F_B10F, P::Rgb, T::U32_10f11f11fRev),
        W::Rgb9E5 => plain(glow::RGB9_E5, P::Rgb, T::U32_5999Rev),
        W::R8i => plain(glow::R8I, P::RedInteger, T::I8),
        W::R8ui => plain(glow::R8UI, P::RedInteger, T::U8),
        W::R16i => plain(glow::R16I, P::RedInteger, T::I16),
        W::R16ui => plain(glow::R16UI, P::RedInteger, T::U16),
        W::R32i => plain(glow::R32I, P::RedInteger, T::I32),
        W::R32ui => plain(glow::R32UI, P::RedInteger, T::U32),
        W::Rg8i => plain(glow::RG8I, P::RgInteger, T::I8),
        W::Rg8ui => plain(glow::RG8UI, P::RgInteger, T::U8),
        W::Rg16i => plain(glow::RG16I, P::RgInteger, T::I16),
        W::Rg16ui => plain(glow::RG16UI, P::RgInteger, T::U16),
        W::Rg32i => plain(glow::RG32I, P::RgInteger, T::I32),
        W::Rg32ui => plain(glow::RG32UI, P::RgInteger, T::U32),
        W::Rgb8i => plain(glow::RGB8I, P::RgbInteger, T::I8),
        W::Rgb8ui => plain(glow::RGB8UI, P::RgbInteger, T::U8),
        W::Rgb16i => plain(glow::RGB16I, P::RgbInteger, T::I16),
        W::Rgb16ui => plain(glow::RGB16UI, P::RgbInteger, T::U16),
        W::Rgb32i => plain(glow::RGB32I, P::RgbInteger, T::I32),
        W::Rgb32ui => plain(glow::RGB32UI, P::RgbInteger, T::U32),
        W::Rgba8i => plain(glow::RGBA8I, P::RgbaInteger, T::I8),
        W::Rgba8ui => plain(glow::RGBA8UI, P::RgbaInteger, T::U8),
        W::Rgba16i => plain(glow::RGBA16I, P::RgbaInteger, T::I16),
        W::Rgba16ui => plain(glow::RGBA16UI, P::RgbaInteger, T::U16),
        W::Rgba32i => plain(glow::RGBA32I, P::RgbaInteger, T::I32),
        W::Rgba32ui => plain(glow::RGBA32UI, P::RgbaInteger, T::U32),
        W::Depth16 => plain(glow::DEPTH_COMPONENT16, P::DepthComponent, T::U16),
        W::Depth24 => plain(glow::DEPTH_COMPONENT24, P::DepthComponent, T::U32),
        W::Depth32 => stand_in(glow::DEPTH_COMPONENT32F, P::DepthComponent, T::F32),
        W::Depth32f => plain(glow::DEPTH_COMPONENT32F, P::DepthComponent, T::F32),
        W::Depth24Stencil8 => plain(glow::DEPTH24_STENCIL8, P::DepthStencil, T::U32_248),
        W::Depth32fStencil8 => plain(glow::DEPTH32F_STENCIL8, P::DepthStencil, T::F32U32_248Rev),
        W::Stencil8 => plain(glow::STENCIL_INDEX8, P::StencilIndex, T::U8),
        W::Stencil1 | W::Stencil4 | W::Stencil16 => {
            stand_in(glow::STENCIL_INDEX8, P::StencilIndex, T::U8)
        }
        W::RgtcR => rgtc(glow::COMPRESSED_RED_RGTC1, 1, false),
        W::RgtcRSnorm => rgtc(glow::COMPRESSED_SIGNED_RED_RGTC1, 1, true),
        W::RgtcRg => rgtc(glow::COMPRESSED_RG_RGTC2, 2, false),
        W::RgtcRgSnorm => rgtc(glow::COMPRESSED_SIGNED_RG_RGTC2, 2, true),
        W::BptcRgba => bptc(
            glow::COMPRESSED_RGBA_BPTC_UNORM,
            glow::RGBA8,
            P::Rgba,
            T::U8,
        ),
        W::BptcSrgbAlpha => bptc(
            glow::COMPRESSED_SRGB_ALPHA_BPTC_UNORM,
            glow::SRGB8_ALPHA8,
            P::Rgba,
            T::U8,
        ),
        W::BptcRgbSfloat => bptc(
            glow::COMPRESSED_RGB_BPTC_SIGNED_FLOAT,
            glow::RGBA16F,
            P::Rgba,
            T::F32,
        ),
        W::BptcRgbUfloat => bptc(
            glow::COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT,
            glow::RGBA16F,
            P::Rgba,
            T::F32,
        ),
        // ETC2 and EAC are ES 3.0's own: every GLES backend samples their blocks (GL never
        // compresses texels into them, so the upload layout is never used).
        W::Etc2Rgb8 => etc2(glow::COMPRESSED_RGB8_ETC2),
        W::Etc2Srgb8 => etc2(glow::COMPRESSED_SRGB8_ETC2),
        W::Etc2Rgb8A1 => etc2(glow::COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2),
        W::Etc2Srgb8A1 => etc2(glow::COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2),
        W::Etc2Rgba8 => etc2(glow::COMPRESSED_RGBA8_ETC2_EAC),
        W::Etc2Srgb8Alpha8 => etc2(glow::COMPRESSED_SRGB8_ALPHA8_ETC2_EAC),
        W::EacR11 => etc2(glow::COMPRESSED_R11_EAC),
        W::EacR11Snorm => etc2(glow::COMPRESSED_SIGNED_R11_EAC),
        W::EacRg11 => etc2(glow::COMPRESSED_RG11_EAC),
        W::EacRg11Snorm => etc2(glow::COMPRESSED_SIGNED_RG11_EAC),
    }
}

/// What the BPTC encoder makes for a texture of the native compressed format `internal`
/// (`None` for other formats).
pub(crate) fn bptc_kind(internal: u32) -> Option<tessera_wire::bptc::BptcKind> {
    use tessera_wire::bptc::BptcKind as K;
    match internal {
        glow::COMPRESSED_RGBA_BPTC_UNORM | glow::COMPRESSED_SRGB_ALPHA_BPTC_UNORM => Some(K::Unorm),
        glow::COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT => Some(K::UnsignedFloat),
        glow::COMPRESSED_RGB_BPTC_SIGNED_FLOAT => Some(K::SignedFloat),
        _ => None,
    }
}

/// The native format of a renderbuffer (or surface image) of `format`: a format GLES can
/// render to, upgraded where the texture format is not colour-renderable in GLES.
pub(crate) fn map_renderbuffer_format(format: Format, f: &Features) -> u32 {
    use Format as W;
    let native = map_format(format, f);
    match format {
        W::Rgb8 | W::Srgb8 => glow::RGBA8,
        W::R8Snorm | W::Rg8Snorm | W::Rgb8Snorm | W::Rgba8Snorm => glow::RGBA8,
        W::Rgb16Snorm | W::R16Snorm | W::Rg16Snorm | W::Rgba16Snorm => glow::RGBA16F,
        W::Rgb16f | W::Rgb32f | W::Rgb9E5 => glow::RGBA16F,
        W::Rgb8i | W::Rgb16i | W::Rgb32i => glow::RGBA32I,
        W::Rgb8ui | W::Rgb16ui | W::Rgb32ui => glow::RGBA32UI,
        W::RgtcR | W::RgtcRSnorm | W::RgtcRg | W::RgtcRgSnorm => glow::RGBA8,
        W::BptcRgba | W::BptcSrgbAlpha => glow::RGBA8,
        W::BptcRgbSfloat | W::BptcRgbUfloat => glow::RGBA16F,
        W::Etc2Rgb8 | W::Etc2Rgb8A1 | W::Etc2Rgba8 => glow::RGBA8,
        W::Etc2Srgb8 | W::Etc2Srgb8A1 | W::Etc2Srgb8Alpha8 => glow::SRGB8_ALPHA8,
        W::EacR11 | W::EacR11Snorm | W::EacRg11 | W::EacRg11Snorm => glow::RGBA16F,
        _ => native.internal,
    }
}

/// The GL enum of a client pixel format.
pub(crate) fn map_pixel_format(format: PixelFormat) -> u32 {
    use PixelFormat as P;
    match format {
        P::Red => glow::RED,
        P::Green => glow::GREEN,
        P::Blue => glow::BLUE,
        P::Rg => glow::RG,
        P::Rgb => glow::RGB,
        P::Bgr => glow::BGR,
        P::Rgba => glow::RGBA,
        P::Bgra => glow::BGRA,
        P::RedInteger => glow::RED_INTEGER,
        P::GreenInteger => glow::GREEN_INTEGER,
        P::BlueInteger => glow::BLUE_INTEGER,
        P::RgInteger => glow::RG_INTEGER,
        P::RgbInteger => glow::RGB_INTEGER,
        P::BgrInteger => glow::BGR_INTEGER,
        P::RgbaInteger => glow::RGBA_INTEGER,
        P::BgraInteger => glow::BGRA_INTEGER,
        P::DepthComponent => glow::DEPTH_COMPONENT,
        P::StencilIndex => glow::STENCIL_INDEX,
        P::DepthStencil => glow::DEPTH_STENCIL,
    }
}

/// The GL enum of a client pixel type.
pub(crate) fn map_pixel_type(ty: PixelType) -> u32 {
    use PixelType as T;
    match ty {
        T::U8 => glow::UNSIGNED_BYTE,
        T::I8 => glow::BYTE,
        T::U16 => glow::UNSIGNED_SHORT,
        T::I16 => glow::SHORT,
        T::U32 => glow::UNSIGNED_INT,
        T::I32 => glow::INT,
        T::F16 => glow::HALF_FLOAT,
        T::F32 => glow::FLOAT,
        T::U8_332 => glow::UNSIGNED_BYTE_3_3_2,
        T::U8_233Rev => glow::UNSIGNED_BYTE_2_3_3_REV,
        T::U16_565 => glow::UNSIGNED_SHORT_5_6_5,
        T::U16_565Rev => glow::UNSIGNED_SHORT_5_6_5_REV,
        T::U16_4444 => glow::UNSIGNED_SHORT_4_4_4_4,
        T::U16_4444Rev => glow::UNSIGNED_SHORT_4_4_4_4_REV,
        T::U16_5551 => glow::UNSIGNED_SHORT_5_5_5_1,
        T::U16_1555Rev => glow::UNSIGNED_SHORT_1_5_5_5_REV,
        T::U32_8888 => glow::UNSIGNED_INT_8_8_8_8,
        T::U32_8888Rev => glow::UNSIGNED_INT_8_8_8_8_REV,
        T::U32_1010102 => glow::UNSIGNED_INT_10_10_10_2,
        T::U32_2101010Rev => glow::UNSIGNED_INT_2_10_10_10_REV,
        T::U32_248 => glow::UNSIGNED_INT_24_8,
        T::U32_10f11f11fRev => glow::UNSIGNED_INT_10F_11F_11F_REV,
        T::U32_5999Rev => glow::UNSIGNED_INT_5_9_9_9_REV,
        T::F32U32_248Rev => glow::FLOAT_32_UNSIGNED_INT_24_8_REV,
    }
}

/// Whether GLES takes client data of `layout` for `native` as it is (ES 3.0 table 3.2):
/// the native upload layout itself, or floats and halves into a float format.
pub(crate) fn accepts_directly(native: &NativeFormat, layout: PixelLayout) -> bool {
    if native.compressed || native.decode_rgtc.is_some() {
        return false;
    }
    if layout == native.upload {
        return true;
    }
    let float_internal = matches!(
        native.internal,
        glow::R16F
            | glow::RG16F
            | glow::RGB16F
            | glow::RGBA16F
            | glow::R11F_G11F_B10F
            | glow::RGB9_E5
    );
    float_internal
        && layout.format == native.upload.format
        && matches!(layout.ty, PixelType::F32 | PixelType::F16)
}

/// The layout GLES reads a colour attachment of `format` back in (the one combination
/// glReadPixels always accepts for the format's class, ES 3.0 §4.3.2).
pub(crate) fn map_read_layout(format: Format, f: &Features) -> PixelLayout {
    use PixelFormat as P;
    use PixelType as T;
    let native = map_format(format, f);
    match format.info().class {
        tessera_wire::format::FormatClass::Int => lay(P::RgbaInteger, T::I32),
        tessera_wire::format::FormatClass::Uint => lay(P::RgbaInteger, T::U32),
        tessera_wire::format::FormatClass::Depth => map_depth_read_layout(Some(format), false),
        tessera_wire::format::FormatClass::Stencil => lay(P::StencilIndex, T::U8),
        tessera_wire::format::FormatClass::DepthStencil => {
            map_depth_read_layout(Some(format), true)
        }
        tessera_wire::format::FormatClass::Float => match native.internal {
            glow::R16F
            | glow::RG16F
            | glow::RGB16F
            | glow::RGBA16F
            | glow::R32F
            | glow::RG32F
            | glow::RGB32F
            | glow::RGBA32F
            | glow::R11F_G11F_B10F
            | glow::RGB9_E5 => lay(P::Rgba, T::F32),
            glow::RGB10_A2 => lay(P::Rgba, T::U32_2101010Rev),
            // EXT_texture_norm16 adds RGBA/UNSIGNED_SHORT reads of its formats.
            glow::R16 | glow::RG16 | glow::RGB16 | glow::RGBA16 => lay(P::Rgba, T::U16),
            _ => lay(P::Rgba, T::U8),
        },
    }
}

/// The layout GLES (with `NV_read_depth`/`NV_read_depth_stencil`) reads the depth, or depth
/// and stencil, of an image of `format` in: floats from float depth, 32-bit normalized
/// integers from fixed-point depth (Mesa refuses the other combinations).
pub(crate) fn map_depth_read_layout(format: Option<Format>, with_stencil: bool) -> PixelLayout {
    use PixelFormat as P;
    use PixelType as T;
    let float = matches!(
        format,
        Some(Format::Depth32f | Format::Depth32 | Format::Depth32fStencil8)
    );
    match (with_stencil, float) {
        (false, true) => lay(P::DepthComponent, T::F32),
        (false, false) => lay(P::DepthComponent, T::U32),
        (true, true) => lay(P::DepthStencil, T::F32U32_248Rev),
        (true, false) => lay(P::DepthStencil, T::U32_248),
    }
}

/// The texture target a wire texture kind lives in natively, and whether that is a
/// stand-in (1D as 2D, rectangle as 2D, multisample or buffer textures without support).
pub(crate) fn map_texture_kind(kind: TextureKind, f: &Features) -> (u32, bool) {
    use TextureKind as K;
    match kind {
        K::D1 => (glow::TEXTURE_2D, true),
        K::D2 => (glow::TEXTURE_2D, false),
        K::D3 => (glow::TEXTURE_3D, false),
        K::D1Array => (glow::TEXTURE_2D_ARRAY, true),
        K::D2Array => (glow::TEXTURE_2D_ARRAY, false),
        K::Cube => (glow::TEXTURE_CUBE_MAP, false),
        K::Rectangle => (glow::TEXTURE_2D, true),
        K::D2Multisample if f.multisample_texture => (glow::TEXTURE_2D_MULTISAMPLE, false),
        K::D2Multisample => (glow::TEXTURE_2D, true),
        K::D2MultisampleArray if f.multisample_array => (glow::TEXTURE_2D_MULTISAMPLE_ARRAY, false),
        K::D2MultisampleArray => (glow::TEXTURE_2D_ARRAY, true),
        K::Buffer if f.texture_buffer => (glow::TEXTURE_BUFFER, false),
        K::Buffer => (glow::TEXTURE_2D, true),
        K::CubeArray if f.cube_map_array => (glow::TEXTURE_CUBE_MAP_ARRAY, false),
        K::CubeArray => (glow::TEXTURE_2D_ARRAY, true),
    }
}

/// Whether a native texture target's images are addressed by layer or slice (`z`): 3D,
/// 2D array and cube map array textures.
pub(crate) fn is_layered(target: u32) -> bool {
    matches!(
        target,
        glow::TEXTURE_3D | glow::TEXTURE_2D_ARRAY | glow::TEXTURE_CUBE_MAP_ARRAY
    )
}

/// Index of a native texture target in per-unit binding tables.
pub(crate) fn target_index(target: u32) -> usize {
    match target {
        glow::TEXTURE_2D => 0,
        glow::TEXTURE_3D => 1,
        glow::TEXTURE_2D_ARRAY => 2,
        glow::TEXTURE_CUBE_MAP => 3,
        glow::TEXTURE_2D_MULTISAMPLE => 4,
        glow::TEXTURE_2D_MULTISAMPLE_ARRAY => 5,
        glow::TEXTURE_CUBE_MAP_ARRAY => 6,
        _ => 7,
    }
}

/// A depth or stencil comparison.
pub(crate) fn map_compare_func(func: CompareFunc) -> u32 {
    use CompareFunc as C;
    match func {
        C::Never => glow::NEVER,
        C::Less => glow::LESS,
        C::Equal => glow::EQUAL,
        C::LessEqual => glow::LEQUAL,
        C::Greater => glow::GREATER,
        C::NotEqual => glow::NOTEQUAL,
        C::GreaterEqual => glow::GEQUAL,
        C::Always => glow::ALWAYS,
    }
}

/// A blend factor; dual-source factors need `EXT_blend_func_extended` (`None` without it).
pub(crate) fn map_blend_factor(factor: BlendFactor, f: &Features) -> Option<u32> {
    use BlendFactor as B;
    if factor.is_dual_source() && !f.blend_func_extended {
        return None;
    }
    Some(match factor {
        B::Zero => glow::ZERO,
        B::One => glow::ONE,
        B::SrcColor => glow::SRC_COLOR,
        B::OneMinusSrcColor => glow::ONE_MINUS_SRC_COLOR,
        B::DstColor => glow::DST_COLOR,
        B::OneMinusDstColor => glow::ONE_MINUS_DST_COLOR,
        B::SrcAlpha => glow::SRC_ALPHA,
        B::OneMinusSrcAlpha => glow::ONE_MINUS_SRC_ALPHA,
        B::DstAlpha => glow::DST_ALPHA,
        B::OneMinusDstAlpha => glow::ONE_MINUS_DST_ALPHA,
        B::ConstantColor => glow::CONSTANT_COLOR,
        B::OneMinusConstantColor => glow::ONE_MINUS_CONSTANT_COLOR,
        B::ConstantAlpha => glow::CONSTANT_ALPHA,
        B::OneMinusConstantAlpha => glow::ONE_MINUS_CONSTANT_ALPHA,
        B::SrcAlphaSaturate => glow::SRC_ALPHA_SATURATE,
        B::Src1Color => glow::SRC1_COLOR,
        B::OneMinusSrc1Color => glow::ONE_MINUS_SRC1_COLOR,
        B::Src1Alpha => glow::SRC1_ALPHA,
        B::OneMinusSrc1Alpha => glow::ONE_MINUS_SRC1_ALPHA,
    })
}

/// A blend equation.
pub(crate) fn map_blend_op(op: BlendOp) -> u32 {
    match op {
        BlendOp::Add => glow::FUNC_ADD,
        BlendOp::Subtract => glow::FUNC_SUBTRACT,
        BlendOp::ReverseSubtract => glow::FUNC_REVERSE_SUBTRACT,
        BlendOp::Min => glow::MIN,
        BlendOp::Max => glow::MAX,
    }
}

/// A stencil operation.
pub(crate) fn map_stencil_op(op: StencilOp) -> u32 {
    use StencilOp as S;
    match op {
        S::Keep => glow::KEEP,
        S::Zero => glow::ZERO,
        S::Replace => glow::REPLACE,
        S::IncrClamp => glow::INCR,
        S::DecrClamp => glow::DECR,
        S::Invert => glow::INVERT,
        S::IncrWrap => glow::INCR_WRAP,
        S::DecrWrap => glow::DECR_WRAP,
    }
}

/// The minification filter of a (filter, mip filter) pair.
pub(crate) fn map_min_filter(min: Filter, mip: MipFilter) -> u32 {
    match (min, mip) {
        (Filter::Nearest, MipFilter::None) => glow::NEAREST,
        (Filter::Linear, MipFilter::None) => glow::LINEAR,
        (Filter::Nearest, MipFilter::Nearest) => glow::NEAREST_MIPMAP_NEAREST,
        (Filter::Linear, MipFilter::Nearest) => glow::LINEAR_MIPMAP_NEAREST,
        (Filter::Nearest, MipFilter::Linear) => glow::NEAREST_MIPMAP_LINEAR,
        (Filter::Linear, MipFilter::Linear) => glow::LINEAR_MIPMAP_LINEAR,
    }
}

/// A magnification filter.
pub(crate) fn map_mag_filter(filter: Filter) -> u32 {
    match filter {
        Filter::Nearest => glow::NEAREST,
        Filter::Linear => glow::LINEAR,
    }
}

/// A wrap mode, and whether it is a stand-in (clamp-to-edge for a mode GLES lacks).
pub(crate) fn map_wrap(wrap: Wrap, f: &Features) -> (u32, bool) {
    match wrap {
        Wrap::Repeat => (glow::REPEAT, false),
        Wrap::ClampToEdge => (glow::CLAMP_TO_EDGE, false),
        Wrap::MirroredRepeat => (glow::MIRRORED_REPEAT, false),
        Wrap::ClampToBorder if f.border_clamp => (glow::CLAMP_TO_BORDER, false),
        Wrap::MirrorClampToEdge if f.mirror_clamp => (glow::MIRROR_CLAMP_TO_EDGE, false),
        Wrap::ClampToBorder | Wrap::MirrorClampToEdge => (glow::CLAMP_TO_EDGE, true),
    }
}

/// A swizzle source.
pub(crate) fn map_swizzle(s: Swizzle) -> u32 {
    match s {
        Swizzle::Red => glow::RED,
        Swizzle::Green => glow::GREEN,
        Swizzle::Blue => glow::BLUE,
        Swizzle::Alpha => glow::ALPHA,
        Swizzle::Zero => glow::ZERO,
        Swizzle::One => glow::ONE,
    }
}

/// A draw topology; adjacency needs geometry shaders (ES 3.2 or the extension).
pub(crate) fn map_topology(t: Topology, f: &Features) -> Option<u32> {
    use Topology as P;
    Some(match t {
        P::LinesAdjacency
        | P::LineStripAdjacency
        | P::TrianglesAdjacency
        | P::TriangleStripAdjacency
            if !f.geometry =>
        {
            return None;
        }
        P::Points => glow::POINTS,
        P::Lines => glow::LINES,
        P::LineLoop => glow::LINE_LOOP,
        P::LineStrip => glow::LINE_STRIP,
        P::Triangles => glow::TRIANGLES,
        P::TriangleStrip => glow::TRIANGLE_STRIP,
        P::TriangleFan => glow::TRIANGLE_FAN,
        P::LinesAdjacency => glow::LINES_ADJACENCY,
        P::LineStripAdjacency => glow::LINE_STRIP_ADJACENCY,
        P::TrianglesAdjacency => glow::TRIANGLES_ADJACENCY,
        P::TriangleStripAdjacency => glow::TRIANGLE_STRIP_ADJACENCY,
        // The engine draws patches only where the backend reports tessellation stages.
        P::Patches => glow::PATCHES,
    })
}

/// An index type.
pub(crate) fn map_index_type(t: IndexType) -> u32 {
    match t {
        IndexType::U8 => glow::UNSIGNED_BYTE,
        IndexType::U16 => glow::UNSIGNED_SHORT,
        IndexType::U32 => glow::UNSIGNED_INT,
    }
}

/// Bytes of one element of an attribute of `format` (GL's stride when it gives 0).
pub(crate) fn attrib_bytes(format: VertexFormat) -> u32 {
    use AttribType as A;
    let component = match format.ty {
        A::I8 | A::U8 => 1,
        A::I16 | A::U16 | A::F16 => 2,
        A::I32 | A::U32 | A::F32 | A::Fixed => 4,
        A::F64 => 8,
        A::I2_10_10_10Rev | A::U2_10_10_10Rev | A::U10f11f11fRev => return 4,
    };
    component * u32::from(format.components.min(4))
}

/// A vertex attribute type (`None`: GLES has no such attribute type).
pub(crate) fn map_attrib_type(t: AttribType) -> Option<u32> {
    use AttribType as A;
    Some(match t {
        A::I8 => glow::BYTE,
        A::U8 => glow::UNSIGNED_BYTE,
        A::I16 => glow::SHORT,
        A::U16 => glow::UNSIGNED_SHORT,
        A::I32 => glow::INT,
        A::U32 => glow::UNSIGNED_INT,
        A::F16 => glow::HALF_FLOAT,
        A::F32 => glow::FLOAT,
        A::I2_10_10_10Rev => glow::INT_2_10_10_10_REV,
        A::U2_10_10_10Rev => glow::UNSIGNED_INT_2_10_10_10_REV,
        A::Fixed => glow::FIXED,
        A::F64 | A::U10f11f11fRev => return None,
    })
}

/// A query target, and whether it is a stand-in (any-samples for a sample count).
/// `None`: the driver cannot count this at all.
pub(crate) fn map_query_kind(kind: QueryKind, f: &Features) -> Option<(u32, bool)> {
    match kind {
        QueryKind::SamplesPassed => Some((glow::ANY_SAMPLES_PASSED, true)),
        QueryKind::AnySamplesPassed => Some((glow::ANY_SAMPLES_PASSED, false)),
        QueryKind::TimeElapsed if f.timer_query => Some((glow::TIME_ELAPSED, false)),
        QueryKind::Timestamp if f.timer_query => Some((glow::TIMESTAMP, false)),
        QueryKind::PrimitivesGenerated if f.geometry => Some((glow::PRIMITIVES_GENERATED, false)),
        QueryKind::TransformFeedbackPrimitivesWritten => {
            Some((glow::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, false))
        }
        // ES has no pipeline statistics (`GL_ARB_pipeline_statistics_query` is not
        // advertised on GLES).
        _ => None,
    }
}

/// The largest index of a type: the only restart index GLES has.
pub(crate) fn max_index(t: IndexType) -> u32 {
    match t {
        IndexType::U8 => 0xff,
        IndexType::U16 => 0xffff,
        IndexType::U32 => u32::MAX,
    }
}

/// The colour attachment enum of native slot `i`.
pub(crate) fn color_attachment(i: usize) -> u32 {
    glow::COLOR_ATTACHMENT0 + i as u32
}

/// The vertices of a draw as a list whose primitives each end with the vertex GL's
/// `FIRST_VERTEX_CONVENTION` makes provoking, and the list's mode: GLES takes flat values
/// from the last vertex, so drawing this list gives each primitive the flat values GL gives
/// it. `None` for modes it does not apply to (points, which have one vertex; adjacency).
///
/// `indices` are the draw's vertices in order, [`u32::MAX`] where a primitive restarts.
/// Each triangle is rotated, which keeps its winding: GL's first-vertex convention
/// provokes with a triangle's first vertex (`(a, b, c)` becomes `(b, c, a)`), a strip's
/// triangle `i` with vertex `i` (its odd triangles are `(i + 1, i, i + 2)`), and a fan's
/// triangle `i` with vertex `i + 1` (GL 3.3, table 2.15). A line is reversed. Strips,
/// loops and fans become lists, so a primitive's position in the list (`gl_PrimitiveID`)
/// is its position in the draw.
pub(crate) fn first_vertex_list(mode: u32, indices: &[u32]) -> Option<(u32, Vec<u32>)> {
    let list = match mode {
        glow::TRIANGLES | glow::TRIANGLE_STRIP | glow::TRIANGLE_FAN => glow::TRIANGLES,
        glow::LINES | glow::LINE_STRIP | glow::LINE_LOOP => glow::LINES,
        _ => return None,
    };
    let mut out = Vec::with_capacity(indices.len() * 3);
    for run in indices.split(|&i| i == u32::MAX) {
        let n = run.len();
        match mode {
            glow::TRIANGLES => {
                for t in run.chunks_exact(3) {
                    out.extend([t[1], t[2], t[0]]);
                }
            }
            glow::TRIANGLE_STRIP => {
                for i in 0..n.saturating_sub(2) {
                    if i % 2 == 0 {
                        out.extend([run[i + 1], run[i + 2], run[i]]);
                    } else {
                        out.extend([run[i + 2], run[i + 1], run[i]]);
                    }
                }
            }
            glow::TRIANGLE_FAN => {
                for i in 0..n.saturating_sub(2) {
                    out.extend([run[i + 2], run[0], run[i + 1]]);
                }
            }
            glow::LINES => {
                for l in run.chunks_exact(2) {
                    out.extend([l[1], l[0]]);
                }
            }
            glow::LINE_STRIP | glow::LINE_LOOP => {
                for i in 0..n.saturating_sub(1) {
                    out.extend([run[i + 1], run[i]]);
                }
                if mode == glow::LINE_LOOP && n >= 2 {
                    out.extend([run[0], run[n - 1]]);
                }
            }
            _ => {}
        }
    }
    Some((list, out))
}

#[cfg(test)]
mod first_vertex_tests {
    use super::first_vertex_list;

    #[test]
    fn each_primitive_ends_with_its_first_vertex_provoking() {
        let r = |mode, i: &[u32]| first_vertex_list(mode, i).expect("a list");
        assert_eq!(
            r(glow::TRIANGLES, &[0, 1, 2, 3, 4, 5, 6]),
            (glow::TRIANGLES, vec![1, 2, 0, 4, 5, 3])
        );
        // Strip triangles (0 1 2), (2 1 3), (2 3 4), (4 3 5): provoking 0, 1, 2, 3.
        assert_eq!(
            r(glow::TRIANGLE_STRIP, &[0, 1, 2, 3, 4, 5]),
            (glow::TRIANGLES, vec![1, 2, 0, 3, 2, 1, 3, 4, 2, 5, 4, 3])
        );
        // Fan triangles (0 1 2), (0 2 3): provoking 1, 2.
        assert_eq!(
            r(glow::TRIANGLE_FAN, &[0, 1, 2, 3]),
            (glow::TRIANGLES, vec![2, 0, 1, 3, 0, 2])
        );
        assert_eq!(
            r(glow::LINES, &[0, 1, 2, 3, 4]),
            (glow::LINES, vec![1, 0, 3, 2])
        );
        assert_eq!(
            r(glow::LINE_STRIP, &[0, 1, 2]),
            (glow::LINES, vec![1, 0, 2, 1])
        );
        assert_eq!(
            r(glow::LINE_LOOP, &[0, 1, 2]),
            (glow::LINES, vec![1, 0, 2, 1, 0, 2])
        );
        assert_eq!(first_vertex_list(glow::POINTS, &[0, 1]), None);
    }

    #[test]
    fn a_restart_starts_a_new_primitive() {
        assert_eq!(
            first_vertex_list(glow::TRIANGLE_STRIP, &[0, 1, 2, 3, u32::MAX, 4, 5, 6]),
            Some((glow::TRIANGLES, vec![1, 2, 0, 3, 2, 1, 5, 6, 4]))
        );
        assert_eq!(
            first_vertex_list(glow::TRIANGLES, &[0, 1, u32::MAX, 2, 3, 4]),
            Some((glow::TRIANGLES, vec![3, 4, 2]))
        );
    }
}

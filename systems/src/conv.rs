//! Pure mappings from GL enums to wire values. `None` means GL does not accept the value
//! there, which is how the engine decides `INVALID_ENUM` for them: one table per enum, used
//! both to validate and to translate.

use tessera_components::gl::*;
use tessera_wire::format::{
    AttribType, BlendFactor, BlendOp, CompareFunc, CullMode, Filter, Format, IndexType, LogicOp,
    MipFilter, PixelFormat, PixelType, PolygonMode, QueryKind, StencilOp, Swizzle, Topology, Wrap,
};

/// `glDepthFunc`, `glStencilFunc`, `TEXTURE_COMPARE_FUNC`.
pub fn map_compare_func(v: GLenum) -> Option<CompareFunc> {
    Some(match v {
        NEVER => CompareFunc::Never,
        LESS => CompareFunc::Less,
        EQUAL => CompareFunc::Equal,
        LEQUAL => CompareFunc::LessEqual,
        GREATER => CompareFunc::Greater,
        NOTEQUAL => CompareFunc::NotEqual,
        GEQUAL => CompareFunc::GreaterEqual,
        ALWAYS => CompareFunc::Always,
        _ => return None,
    })
}

/// `glBlendFunc(Separate)` factors.
pub fn map_blend_factor(v: GLenum) -> Option<BlendFactor> {
    Some(match v {
        ZERO => BlendFactor::Zero,
        ONE => BlendFactor::One,
        SRC_COLOR => BlendFactor::SrcColor,
        ONE_MINUS_SRC_COLOR => BlendFactor::OneMinusSrcColor,
        DST_COLOR => BlendFactor::DstColor,
        ONE_MINUS_DST_COLOR => BlendFactor::OneMinusDstColor,
        SRC_ALPHA => BlendFactor::SrcAlpha,
        ONE_MINUS_SRC_ALPHA => BlendFactor::OneMinusSrcAlpha,
        DST_ALPHA => BlendFactor::DstAlpha,
        ONE_MINUS_DST_ALPHA => BlendFactor::OneMinusDstAlpha,
        CONSTANT_COLOR => BlendFactor::ConstantColor,
        ONE_MINUS_CONSTANT_COLOR => BlendFactor::OneMinusConstantColor,
        CONSTANT_ALPHA => BlendFactor::ConstantAlpha,
        ONE_MINUS_CONSTANT_ALPHA => BlendFactor::OneMinusConstantAlpha,
        SRC_ALPHA_SATURATE => BlendFactor::SrcAlphaSaturate,
        SRC1_COLOR => BlendFactor::Src1Color,
        ONE_MINUS_SRC1_COLOR => BlendFactor::OneMinusSrc1Color,
        SRC1_ALPHA => BlendFactor::Src1Alpha,
        ONE_MINUS_SRC1_ALPHA => BlendFactor::OneMinusSrc1Alpha,
        _ => return None,
    })
}

/// `glBlendEquation(Separate)`.
pub fn map_blend_equation(v: GLenum) -> Option<BlendOp> {
    Some(match v {
        FUNC_ADD => BlendOp::Add,
        FUNC_SUBTRACT => BlendOp::Subtract,
        FUNC_REVERSE_SUBTRACT => BlendOp::ReverseSubtract,
        MIN => BlendOp::Min,
        MAX => BlendOp::Max,
        _ => return None,
    })
}

/// `glStencilOp(Separate)`.
pub fn map_stencil_op(v: GLenum) -> Option<StencilOp> {
    Some(match v {
        KEEP => StencilOp::Keep,
        ZERO => StencilOp::Zero,
        REPLACE => StencilOp::Replace,
        INCR => StencilOp::IncrClamp,
        DECR => StencilOp::DecrClamp,
        INVERT => StencilOp::Invert,
        INCR_WRAP => StencilOp::IncrWrap,
        DECR_WRAP => StencilOp::DecrWrap,
        _ => return None,
    })
}

/// `glLogicOp`.
pub fn map_logic_op(v: GLenum) -> Option<LogicOp> {
    Some(match v {
        CLEAR => LogicOp::Clear,
        AND => LogicOp::And,
        AND_REVERSE => LogicOp::AndReverse,
        COPY => LogicOp::Copy,
        AND_INVERTED => LogicOp::AndInverted,
        NOOP => LogicOp::Noop,
        XOR => LogicOp::Xor,
        OR => LogicOp::Or,
        NOR => LogicOp::Nor,
        EQUIV => LogicOp::Equiv,
        INVERT => LogicOp::Invert,
        OR_REVERSE => LogicOp::OrReverse,
        COPY_INVERTED => LogicOp::CopyInverted,
        OR_INVERTED => LogicOp::OrInverted,
        NAND => LogicOp::Nand,
        SET => LogicOp::Set,
        _ => return None,
    })
}

/// `glCullFace`.
pub fn map_cull_face(v: GLenum) -> Option<CullMode> {
    Some(match v {
        FRONT => CullMode::Front,
        BACK => CullMode::Back,
        FRONT_AND_BACK => CullMode::FrontAndBack,
        _ => return None,
    })
}

/// `glPolygonMode` mode.
pub fn map_polygon_mode(v: GLenum) -> Option<PolygonMode> {
    Some(match v {
        FILL => PolygonMode::Fill,
        LINE => PolygonMode::Line,
        POINT => PolygonMode::Point,
        _ => return None,
    })
}

/// Draw `mode`.
pub fn map_topology(v: GLenum) -> Option<Topology> {
    Some(match v {
        POINTS => Topology::Points,
        LINES => Topology::Lines,
        LINE_LOOP => Topology::LineLoop,
        LINE_STRIP => Topology::LineStrip,
        TRIANGLES => Topology::Triangles,
        TRIANGLE_STRIP => Topology::TriangleStrip,
        TRIANGLE_FAN => Topology::TriangleFan,
        LINES_ADJACENCY => Topology::LinesAdjacency,
        LINE_STRIP_ADJACENCY => Topology::LineStripAdjacency,
        TRIANGLES_ADJACENCY => Topology::TrianglesAdjacency,
        TRIANGLE_STRIP_ADJACENCY => Topology::TriangleStripAdjacency,
        PATCHES => Topology::Patches,
        _ => return None,
    })
}

/// Draw index `type`.
pub fn map_index_type(v: GLenum) -> Option<IndexType> {
    Some(match v {
        UNSIGNED_BYTE => IndexType::U8,
        UNSIGNED_SHORT => IndexType::U16,
        UNSIGNED_INT => IndexType::U32,
        _ => return None,
    })
}

/// `TEXTURE_MIN_FILTER` -> (filter within a level, filter between levels).
pub fn map_min_filter(v: GLenum) -> Option<(Filter, MipFilter)> {
    Some(match v {
        NEAREST => (Filter::Nearest, MipFilter::None),
        LINEAR => (Filter::Linear, MipFilter::None),
        NEAREST_MIPMAP_NEAREST => (Filter::Nearest, MipFilter::Nearest),
        LINEAR_MIPMAP_NEAREST => (Filter::Linear, MipFilter::Nearest),
        NEAREST_MIPMAP_LINEAR => (Filter::Nearest, MipFilter::Linear),
        LINEAR_MIPMAP_LINEAR => (Filter::Linear, MipFilter::Linear),
        _ => return None,
    })
}

/// `TEXTURE_MAG_FILTER`.
pub fn map_mag_filter(v: GLenum) -> Option<Filter> {
    Some(match v {
        NEAREST => Filter::Nearest,
        LINEAR => Filter::Linear,
        _ => return None,
    })
}

/// `TEXTURE_WRAP_*`.
pub fn map_wrap(v: GLenum) -> Option<Wrap> {
    Some(match v {
        REPEAT => Wrap::Repeat,
        CLAMP_TO_EDGE => Wrap::ClampToEdge,
        CLAMP_TO_BORDER => Wrap::ClampToBorder,
        MIRRORED_REPEAT => Wrap::MirroredRepeat,
        MIRROR_CLAMP_TO_EDGE => Wrap::MirrorClampToEdge,
        _ => return None,
    })
}

/// `TEXTURE_SWIZZLE_*`.
pub fn map_swizzle(v: GLenum) -> Option<Swizzle> {
    Some(match v {
        RED => Swizzle::Red,
        GREEN => Swizzle::Green,
        BLUE => Swizzle::Blue,
        ALPHA => Swizzle::Alpha,
        ZERO => Swizzle::Zero,
        ONE => Swizzle::One,
        _ => return None,
    })
}

/// Client pixel `format`.
pub fn map_pixel_format(v: GLenum) -> Option<PixelFormat> {
    Some(match v {
        RED => PixelFormat::Red,
        GREEN => PixelFormat::Green,
        BLUE => PixelFormat::Blue,
        RG => PixelFormat::Rg,
        RGB => PixelFormat::Rgb,
        BGR => PixelFormat::Bgr,
        RGBA => PixelFormat::Rgba,
        BGRA => PixelFormat::Bgra,
        RED_INTEGER => PixelFormat::RedInteger,
        GREEN_INTEGER => PixelFormat::GreenInteger,
        BLUE_INTEGER => PixelFormat::BlueInteger,
        RG_INTEGER => PixelFormat::RgInteger,
        RGB_INTEGER => PixelFormat::RgbInteger,
        BGR_INTEGER => PixelFormat::BgrInteger,
        RGBA_INTEGER => PixelFormat::RgbaInteger,
        BGRA_INTEGER => PixelFormat::BgraInteger,
        DEPTH_COMPONENT => PixelFormat::DepthComponent,
        STENCIL_INDEX => PixelFormat::StencilIndex,
        DEPTH_STENCIL => PixelFormat::DepthStencil,
        _ => return None,
    })
}

/// Client pixel `type`.
pub fn map_pixel_type(v: GLenum) -> Option<PixelType> {
    Some(match v {
        UNSIGNED_BYTE => PixelType::U8,
        BYTE => PixelType::I8,
        UNSIGNED_SHORT => PixelType::U16,
        SHORT => PixelType::I16,
        UNSIGNED_INT => PixelType::U32,
        INT => PixelType::I32,
        HALF_FLOAT => PixelType::F16,
        FLOAT => PixelType::F32,
        UNSIGNED_BYTE_3_3_2 => PixelType::U8_332,
        UNSIGNED_BYTE_2_3_3_REV => PixelType::U8_233Rev,
        UNSIGNED_SHORT_5_6_5 => PixelType::U16_565,
        UNSIGNED_SHORT_5_6_5_REV => PixelType::U16_565Rev,
        UNSIGNED_SHORT_4_4_4_4 => PixelType::U16_4444,
        UNSIGNED_SHORT_4_4_4_4_REV => PixelType::U16_4444Rev,
        UNSIGNED_SHORT_5_5_5_1 => PixelType::U16_5551,
        UNSIGNED_SHORT_1_5_5_5_REV => PixelType::U16_1555Rev,
        UNSIGNED_INT_8_8_8_8 => PixelType::U32_8888,
        UNSIGNED_INT_8_8_8_8_REV => PixelType::U32_8888Rev,
        UNSIGNED_INT_10_10_10_2 => PixelType::U32_1010102,
        UNSIGNED_INT_2_10_10_10_REV => PixelType::U32_2101010Rev,
        UNSIGNED_INT_24_8 => PixelType::U32_248,
        UNSIGNED_INT_10F_11F_11F_REV => PixelType::U32_10f11f11fRev,
        UNSIGNED_INT_5_9_9_9_REV => PixelType::U32_5999Rev,
        FLOAT_32_UNSIGNED_INT_24_8_REV => PixelType::F32U32_248Rev,
        _ => return None,
    })
}

/// Vertex attribute component `type` (`glVertexAttribPointer`).
pub fn map_attrib_type(v: GLenum) -> Option<AttribType> {
    Some(match v {
        BYTE => AttribType::I8,
        UNSIGNED_BYTE => AttribType::U8,
        SHORT => AttribType::I16,
        UNSIGNED_SHORT => AttribType::U16,
        INT => AttribType::I32,
        UNSIGNED_INT => AttribType::U32,
        HALF_FLOAT => AttribType::F16,
        FLOAT => AttribType::F32,
        DOUBLE => AttribType::F64,
        INT_2_10_10_10_REV => AttribType::I2_10_10_10Rev,
        UNSIGNED_INT_2_10_10_10_REV => AttribType::U2_10_10_10Rev,
        UNSIGNED_INT_10F_11F_11F_REV => AttribType::U10f11f11fRev,
        FIXED => AttribType::Fixed,
        _ => return None,
    })
}

/// Query `target`.
pub fn map_query_target(v: GLenum) -> Option<QueryKind> {
    Some(match v {
        SAMPLES_PASSED => QueryKind::SamplesPassed,
        // GL 4.3 lets a conservative query answer as the exact one.
        ANY_SAMPLES_PASSED | ANY_SAMPLES_PASSED_CONSERVATIVE => QueryKind::AnySamplesPassed,
        TIME_ELAPSED => QueryKind::TimeElapsed,
        TIMESTAMP => QueryKind::Timestamp,
        PRIMITIVES_GENERATED => QueryKind::PrimitivesGenerated,
        TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN => QueryKind::TransformFeedbackPrimitivesWritten,
        VERTICES_SUBMITTED => QueryKind::VerticesSubmitted,
        PRIMITIVES_SUBMITTED => QueryKind::PrimitivesSubmitted,
        VERTEX_SHADER_INVOCATIONS => QueryKind::VertexShaderInvocations,
        TESS_CONTROL_SHADER_PATCHES => QueryKind::TessControlShaderPatches,
        TESS_EVALUATION_SHADER_INVOCATIONS => QueryKind::TessEvaluationShaderInvocations,
        GEOMETRY_SHADER_INVOCATIONS => QueryKind::GeometryShaderInvocations,
        GEOMETRY_SHADER_PRIMITIVES_EMITTED => QueryKind::GeometryShaderPrimitivesEmitted,
        FRAGMENT_SHADER_INVOCATIONS => QueryKind::FragmentShaderInvocations,
        COMPUTE_SHADER_INVOCATIONS => QueryKind::ComputeShaderInvocations,
        CLIPPING_INPUT_PRIMITIVES => QueryKind::ClippingInputPrimitives,
        CLIPPING_OUTPUT_PRIMITIVES => QueryKind::ClippingOutputPrimitives,
        TRANSFORM_FEEDBACK_OVERFLOW => QueryKind::TransformFeedbackOverflow,
        TRANSFORM_FEEDBACK_STREAM_OVERFLOW => QueryKind::TransformFeedbackStreamOverflow,
        _ => return None,
    })
}

/// A sized internal format.
pub fn map_sized_format(v: GLenum) -> Option<Format> {
    use Format as F;
    Some(match v {
        R8 => F::R8,
        R8_SNORM => F::R8Snorm,
        R16 => F::R16,
        R16_SNORM => F::R16Snorm,
        RG8 => F::Rg8,
        RG8_SNORM => F::Rg8Snorm,
        RG16 => F::Rg16,
        RG16_SNORM => F::Rg16Snorm,
        R3_G3_B2 => F::R3G3B2,
        RGB4 => F::Rgb4,
        RGB5 => F::Rgb5,
        RGB565 => F::Rgb565,
        RGB8 => F::Rgb8,
        RGB8_SNORM => F::Rgb8Snorm,
        RGB10 => F::Rgb10,
        RGB12 => F::Rgb12,
        RGB16 => F::Rgb16,
        RGB16_SNORM => F::Rgb16Snorm,
        RGBA2 => F::Rgba2,
        RGBA4 => F::Rgba4,
        RGB5_A1 => F::Rgb5A1,
        RGBA8 => F::Rgba8,
        RGBA8_SNORM => F::Rgba8Snorm,
        RGB10_A2 => F::Rgb10A2,
        RGB10_A2UI => F::Rgb10A2Ui,
        RGBA12 => F::Rgba12,
        RGBA16 => F::Rgba16,
        RGBA16_SNORM => F::Rgba16Snorm,
        SRGB8 => F::Srgb8,
        SRGB8_ALPHA8 => F::Srgb8Alpha8,
        R16F => F::R16f,
        RG16F => F::Rg16f,
        RGB16F => F::Rgb16f,
        RGBA16F => F::Rgba16f,
        R32F => F::R32f,
        RG32F => F::Rg32f,
        RGB32F => F::Rgb32f,
        RGBA32F => F::Rgba32f,
        R11F_G11F_B10F => F::R11fG11fB10f,
        RGB9_E5 => F::Rgb9E5,
        R8I => F::R8i,
        R8UI => F::R8ui,
        R16I => F::R16i,
        R16UI => F::R16ui,
        R32I => F::R32i,
        R32UI => F::R32ui,
        RG8I => F::Rg8i,
        RG8UI => F::Rg8ui,
        RG16I => F::Rg16i,
        RG16UI => F::Rg16ui,
        RG32I => F::Rg32i,
        RG32UI => F::Rg32ui,
        RGB8I => F::Rgb8i,
        RGB8UI => F::Rgb8ui,
        RGB16I => F::Rgb16i,
        RGB16UI => F::Rgb16ui,
        RGB32I => F::Rgb32i,
        RGB32UI => F::Rgb32ui,
        RGBA8I => F::Rgba8i,
        RGBA8UI => F::Rgba8ui,
        RGBA16I => F::Rgba16i,
        RGBA16UI => F::Rgba16ui,
        RGBA32I => F::Rgba32i,
        RGBA32UI => F::Rgba32ui,
        DEPTH_COMPONENT16 => F::Depth16,
        DEPTH_COMPONENT24 => F::Depth24,
        DEPTH_COMPONENT32 => F::Depth32,
        DEPTH_COMPONENT32F => F::Depth32f,
        DEPTH24_STENCIL8 => F::Depth24Stencil8,
        DEPTH32F_STENCIL8 => F::Depth32fStencil8,
        STENCIL_INDEX1 => F::Stencil1,
        STENCIL_INDEX4 => F::Stencil4,
        STENCIL_INDEX8 => F::Stencil8,
        STENCIL_INDEX16 => F::Stencil16,
        COMPRESSED_RED_RGTC1 => F::RgtcR,
        COMPRESSED_SIGNED_RED_RGTC1 => F::RgtcRSnorm,
        COMPRESSED_RG_RGTC2 => F::RgtcRg,
        COMPRESSED_SIGNED_RG_RGTC2 => F::RgtcRgSnorm,
        COMPRESSED_RGBA_BPTC_UNORM => F::BptcRgba,
        COMPRESSED_SRGB_ALPHA_BPTC_UNORM => F::BptcSrgbAlpha,
        COMPRESSED_RGB_BPTC_SIGNED_FLOAT => F::BptcRgbSfloat,
        COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT => F::BptcRgbUfloat,
        COMPRESSED_RGB8_ETC2 => F::Etc2Rgb8,
        COMPRESSED_SRGB8_ETC2 => F::Etc2Srgb8,
        COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2 => F::Etc2Rgb8A1,
        COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2 => F::Etc2Srgb8A1,
        COMPRESSED_RGBA8_ETC2_EAC => F::Etc2Rgba8,
        COMPRESSED_SRGB8_ALPHA8_ETC2_EAC => F::Etc2Srgb8Alpha8,
        COMPRESSED_R11_EAC => F::EacR11,
        COMPRESSED_SIGNED_R11_EAC => F::EacR11Snorm,
        COMPRESSED_RG11_EAC => F::EacRg11,
        COMPRESSED_SIGNED_RG11_EAC => F::EacRg11Snorm,
        _ => return None,
    })
}

/// Resolves a texture internal format to a storage format. Unsized and generic compressed
/// formats take the precision Mesa gives them whatever the client data's type: 8-bit
/// normalized colour (so they stay colour-renderable, as GL requires of unsized formats),
/// 16-bit depth for `UNSIGNED_SHORT` data and 24-bit otherwise.
pub fn resolve_texture_format(internal: GLenum, ty: GLenum) -> Option<Format> {
    if let Some(f) = map_sized_format(internal) {
        return Some(f);
    }
    Some(match internal {
        RED | COMPRESSED_RED => Format::R8,
        RG | COMPRESSED_RG => Format::Rg8,
        RGB | COMPRESSED_RGB => Format::Rgb8,
        RGBA | COMPRESSED_RGBA => Format::Rgba8,
        SRGB | COMPRESSED_SRGB => Format::Srgb8,
        SRGB_ALPHA | COMPRESSED_SRGB_ALPHA => Format::Srgb8Alpha8,
        DEPTH_COMPONENT => {
            if ty == UNSIGNED_SHORT {
                Format::Depth16
            } else {
                Format::Depth24
            }
        }
        DEPTH_STENCIL => Format::Depth24Stencil8,
        STENCIL_INDEX => Format::Stencil8,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mapping_rejects_a_foreign_enum() {
        let foreign = TEXTURE_2D;
        assert!(map_compare_func(foreign).is_none());
        assert!(map_blend_factor(foreign).is_none());
        assert!(map_topology(foreign).is_none());
        assert!(map_sized_format(foreign).is_none());
        assert_eq!(map_compare_func(GEQUAL), Some(CompareFunc::GreaterEqual));
        assert_eq!(
            resolve_texture_format(RGBA, UNSIGNED_BYTE),
            Some(Format::Rgba8)
        );
        assert_eq!(resolve_texture_format(RGBA, FLOAT), Some(Format::Rgba8));
        assert_eq!(
            resolve_texture_format(DEPTH_COMPONENT, FLOAT),
            Some(Format::Depth24)
        );
    }
}

//! Formats and enumerations that records carry instead of GL enums.
//!
//! The engine maps every GL enum to one of these once, when the state is set or validated;
//! backends map them to their API in their `conv.rs`. Nothing here is a GL value.

use rkyv::{Archive, Deserialize, Serialize};

macro_rules! wire_enum {
    ($(#[$doc:meta])* $name:ident : $repr:ty { $($(#[$vdoc:meta])* $variant:ident,)* }) => {
        $(#[$doc])*
        #[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[rkyv(derive(Debug, PartialEq, Eq, Hash), compare(PartialEq))]
        #[repr($repr)]
        pub enum $name { $($(#[$vdoc])* $variant,)* }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];
        }
    };
}

wire_enum! {
    /// Storage format of a texture level, renderbuffer or surface image.
    ///
    /// Sized formats only: the engine resolves GL's unsized and generic compressed internal
    /// formats to one of these. Channel order is R, G, B, A from the lowest address.
    Format: u16 {
        R8, R8Snorm, R16, R16Snorm, Rg8, Rg8Snorm, Rg16, Rg16Snorm,
        R3G3B2, Rgb4, Rgb5, Rgb565, Rgb8, Rgb8Snorm, Rgb10, Rgb12, Rgb16, Rgb16Snorm,
        Rgba2, Rgba4, Rgb5A1, Rgba8, Rgba8Snorm, Rgb10A2, Rgb10A2Ui, Rgba12, Rgba16, Rgba16Snorm,
        Srgb8, Srgb8Alpha8,
        R16f, Rg16f, Rgb16f, Rgba16f, R32f, Rg32f, Rgb32f, Rgba32f, R11fG11fB10f, Rgb9E5,
        R8i, R8ui, R16i, R16ui, R32i, R32ui, Rg8i, Rg8ui, Rg16i, Rg16ui, Rg32i, Rg32ui,
        Rgb8i, Rgb8ui, Rgb16i, Rgb16ui, Rgb32i, Rgb32ui,
        Rgba8i, Rgba8ui, Rgba16i, Rgba16ui, Rgba32i, Rgba32ui,
        Depth16, Depth24, Depth32, Depth32f, Depth24Stencil8, Depth32fStencil8,
        Stencil1, Stencil4, Stencil8, Stencil16,
        RgtcR, RgtcRSnorm, RgtcRg, RgtcRgSnorm,
        BptcRgba, BptcSrgbAlpha, BptcRgbSfloat, BptcRgbUfloat,
        Etc2Rgb8, Etc2Srgb8, Etc2Rgb8A1, Etc2Srgb8A1, Etc2Rgba8, Etc2Srgb8Alpha8,
        EacR11, EacR11Snorm, EacRg11, EacRg11Snorm,
    }
}

/// How a format's channels are read by shaders and written by rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormatClass {
    /// Unsigned normalized, signed normalized or floating point colour.
    Float,
    /// Signed integer colour.
    Int,
    /// Unsigned integer colour.
    Uint,
    /// Depth only.
    Depth,
    /// Stencil only.
    Stencil,
    /// Depth and stencil.
    DepthStencil,
}

/// Static facts about a [`Format`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatInfo {
    /// Bits per channel, in R, G, B, A order (0 = absent).
    pub rgba_bits: [u8; 4],
    /// Depth bits.
    pub depth_bits: u8,
    /// Stencil bits.
    pub stencil_bits: u8,
    /// Channel class.
    pub class: FormatClass,
    /// sRGB-encoded colour.
    pub srgb: bool,
    /// Signed normalized.
    pub snorm: bool,
    /// Block-compressed (4x4 blocks).
    pub compressed: bool,
    /// Whether GL requires this format to be colour-renderable.
    pub color_renderable: bool,
}

impl Format {
    /// Static facts about this format.
    pub const fn info(self) -> FormatInfo {
        use Format as F;
        use FormatClass as C;
        const fn c(r: u8, g: u8, b: u8, a: u8, class: FormatClass, renderable: bool) -> FormatInfo {
            FormatInfo {
                rgba_bits: [r, g, b, a],
                depth_bits: 0,
                stencil_bits: 0,
                class,
                srgb: false,
                snorm: false,
                compressed: false,
                color_renderable: renderable,
            }
        }
        const fn sn(i: FormatInfo) -> FormatInfo {
            FormatInfo {
                snorm: true,
                color_renderable: false,
                ..i
            }
        }
        const fn ds(d: u8, s: u8) -> FormatInfo {
            let class = match (d, s) {
                (_, 0) => FormatClass::Depth,
                (0, _) => FormatClass::Stencil,
                _ => FormatClass::DepthStencil,
            };
            FormatInfo {
                rgba_bits: [0; 4],
                depth_bits: d,
                stencil_bits: s,
                class,
                srgb: false,
                snorm: false,
                compressed: false,
                color_renderable: false,
            }
        }
        const fn rgtc(channels: u8, snorm: bool) -> FormatInfo {
            let g = if channels == 2 { 8 } else { 0 };
            FormatInfo {
                rgba_bits: [8, g, 0, 0],
                depth_bits: 0,
                stencil_bits: 0,
                class: FormatClass::Float,
                srgb: false,
                snorm,
                compressed: true,
                color_renderable: false,
            }
        }
        // BPTC (BC7, BC6H): what Mesa reports of the channels, 8 bits each for the
        // normalized formats, 16 for the float ones, which have no alpha.
        const fn bptc(float: bool, srgb: bool) -> FormatInfo {
            let (bits, a) = if float { (16, 0) } else { (8, 8) };
            FormatInfo {
                rgba_bits: [bits, bits, bits, a],
                depth_bits: 0,
                stencil_bits: 0,
                class: FormatClass::Float,
                srgb,
                snorm: false,
                compressed: true,
                color_renderable: false,
            }
        }
        // ETC2 and EAC: Mesa's channel sizes (8 bits, 1 for punch-through alpha, 11 for
        // EAC's channels).
        const fn etc2(rgba_bits: [u8; 4], srgb: bool, snorm: bool) -> FormatInfo {
            FormatInfo {
                rgba_bits,
                depth_bits: 0,
                stencil_bits: 0,
                class: FormatClass::Float,
                srgb,
                snorm,
                compressed: true,
                color_renderable: false,
            }
        }
        match self {
            F::R8 => c(8, 0, 0, 0, C::Float, true),
            F::R8Snorm => sn(c(8, 0, 0, 0, C::Float, false)),
            F::R16 => c(16, 0, 0, 0, C::Float, true),
            F::R16Snorm => sn(c(16, 0, 0, 0, C::Float, false)),
            F::Rg8 => c(8, 8, 0, 0, C::Float, true),
            F::Rg8Snorm => sn(c(8, 8, 0, 0, C::Float, false)),
            F::Rg16 => c(16, 16, 0, 0, C::Float, true),
            F::Rg16Snorm => sn(c(16, 16, 0, 0, C::Float, false)),
            F::R3G3B2 => c(3, 3, 2, 0, C::Float, true),
            F::Rgb4 => c(4, 4, 4, 0, C::Float, true),
            F::Rgb5 => c(5, 5, 5, 0, C::Float, true),
            F::Rgb565 => c(5, 6, 5, 0, C::Float, true),
            F::Rgb8 => c(8, 8, 8, 0, C::Float, true),
            F::Rgb8Snorm => sn(c(8, 8, 8, 0, C::Float, false)),
            F::Rgb10 => c(10, 10, 10, 0, C::Float, true),
            F::Rgb12 => c(12, 12, 12, 0, C::Float, true),
            F::Rgb16 => c(16, 16, 16, 0, C::Float, true),
            F::Rgb16Snorm => sn(c(16, 16, 16, 0, C::Float, false)),
            F::Rgba2 => c(2, 2, 2, 2, C::Float, true),
            F::Rgba4 => c(4, 4, 4, 4, C::Float, true),
            F::Rgb5A1 => c(5, 5, 5, 1, C::Float, true),
            F::Rgba8 => c(8, 8, 8, 8, C::Float, true),
            F::Rgba8Snorm => sn(c(8, 8, 8, 8, C::Float, false)),
            F::Rgb10A2 => c(10, 10, 10, 2, C::Float, true),
            F::Rgb10A2Ui => c(10, 10, 10, 2, C::Uint, true),
            F::Rgba12 => c(12, 12, 12, 12, C::Float, true),
            F::Rgba16 => c(16, 16, 16, 16, C::Float, true),
            F::Rgba16Snorm => sn(c(16, 16, 16, 16, C::Float, false)),
            F::Srgb8 => FormatInfo {
                srgb: true,
                ..c(8, 8, 8, 0, C::Float, false)
            },
            F::Srgb8Alpha8 => FormatInfo {
                srgb: true,
                ..c(8, 8, 8, 8, C::Float, true)
            },
            F::R16f => c(16, 0, 0, 0, C::Float, true),
            F::Rg16f => c(16, 16, 0, 0, C::Float, true),
            F::Rgb16f => c(16, 16, 16, 0, C::Float, false),
            F::Rgba16f => c(16, 16, 16, 16, C::Float, true),
            F::R32f => c(32, 0, 0, 0, C::Float, true),
            F::Rg32f => c(32, 32, 0, 0, C::Float, true),
            F::Rgb32f => c(32, 32, 32, 0, C::Float, false),
            F::Rgba32f => c(32, 32, 32, 32, C::Float, true),
            F::R11fG11fB10f => c(11, 11, 10, 0, C::Float, true),
            F::Rgb9E5 => c(9, 9, 9, 0, C::Float, false),
            F::R8i => c(8, 0, 0, 0, C::Int, true),
            F::R8ui => c(8, 0, 0, 0, C::Uint, true),
            F::R16i => c(16, 0, 0, 0, C::Int, true),
            F::R16ui => c(16, 0, 0, 0, C::Uint, true),
            F::R32i => c(32, 0, 0, 0, C::Int, true),
            F::R32ui => c(32, 0, 0, 0, C::Uint, true),
            F::Rg8i => c(8, 8, 0, 0, C::Int, true),
            F::Rg8ui => c(8, 8, 0, 0, C::Uint, true),
            F::Rg16i => c(16, 16, 0, 0, C::Int, true),
            F::Rg16ui => c(16, 16, 0, 0, C::Uint, true),
            F::Rg32i => c(32, 32, 0, 0, C::Int, true),
            F::Rg32ui => c(32, 32, 0, 0, C::Uint, true),
            F::Rgb8i => c(8, 8, 8, 0, C::Int, false),
            F::Rgb8ui => c(8, 8, 8, 0, C::Uint, false),
            F::Rgb16i => c(16, 16, 16, 0, C::Int, false),
            F::Rgb16ui => c(16, 16, 16, 0, C::Uint, false),
            F::Rgb32i => c(32, 32, 32, 0, C::Int, false),
            F::Rgb32ui => c(32, 32, 32, 0, C::Uint, false),
            F::Rgba8i => c(8, 8, 8, 8, C::Int, true),
            F::Rgba8ui => c(8, 8, 8, 8, C::Uint, true),
            F::Rgba16i => c(16, 16, 16, 16, C::Int, true),
            F::Rgba16ui => c(16, 16, 16, 16, C::Uint, true),
            F::Rgba32i => c(32, 32, 32, 32, C::Int, true),
            F::Rgba32ui => c(32, 32, 32, 32, C::Uint, true),
            F::Depth16 => ds(16, 0),
            F::Depth24 => ds(24, 0),
            F::Depth32 => ds(32, 0),
            F::Depth32f => ds(32, 0),
            F::Depth24Stencil8 => ds(24, 8),
            F::Depth32fStencil8 => ds(32, 8),
            F::Stencil1 => ds(0, 1),
            F::Stencil4 => ds(0, 4),
            F::Stencil8 => ds(0, 8),
            F::Stencil16 => ds(0, 16),
            F::RgtcR => rgtc(1, false),
            F::RgtcRSnorm => rgtc(1, true),
            F::RgtcRg => rgtc(2, false),
            F::RgtcRgSnorm => rgtc(2, true),
            F::BptcRgba => bptc(false, false),
            F::BptcSrgbAlpha => bptc(false, true),
            F::BptcRgbSfloat | F::BptcRgbUfloat => bptc(true, false),
            F::Etc2Rgb8 => etc2([8, 8, 8, 0], false, false),
            F::Etc2Srgb8 => etc2([8, 8, 8, 0], true, false),
            F::Etc2Rgb8A1 => etc2([8, 8, 8, 1], false, false),
            F::Etc2Srgb8A1 => etc2([8, 8, 8, 1], true, false),
            F::Etc2Rgba8 => etc2([8, 8, 8, 8], false, false),
            F::Etc2Srgb8Alpha8 => etc2([8, 8, 8, 8], true, false),
            F::EacR11 => etc2([11, 0, 0, 0], false, false),
            F::EacR11Snorm => etc2([11, 0, 0, 0], false, true),
            F::EacRg11 => etc2([11, 11, 0, 0], false, false),
            F::EacRg11Snorm => etc2([11, 11, 0, 0], false, true),
        }
    }

    /// A pixel layout that reads and writes every bit of an image of this format unchanged
    /// (`ReadTexture` then `WriteTexture` copy it exactly), where there is one.
    pub fn exact_layout(self) -> Option<PixelLayout> {
        use Format as F;
        use PixelFormat as P;
        use PixelType as T;
        let (format, ty) = match self {
            F::R8 => (P::Red, T::U8),
            F::Rg8 => (P::Rg, T::U8),
            F::Rgb8 | F::Srgb8 => (P::Rgb, T::U8),
            F::Rgba8 | F::Srgb8Alpha8 => (P::Rgba, T::U8),
            F::R8Snorm => (P::Red, T::I8),
            F::Rg8Snorm => (P::Rg, T::I8),
            F::Rgba8Snorm => (P::Rgba, T::I8),
            F::R16 => (P::Red, T::U16),
            F::Rg16 => (P::Rg, T::U16),
            F::Rgba16 => (P::Rgba, T::U16),
            F::R16f => (P::Red, T::F16),
            F::Rg16f => (P::Rg, T::F16),
            F::Rgba16f => (P::Rgba, T::F16),
            F::R32f => (P::Red, T::F32),
            F::Rg32f => (P::Rg, T::F32),
            F::Rgb32f => (P::Rgb, T::F32),
            F::Rgba32f => (P::Rgba, T::F32),
            F::Rgb10A2 => (P::Rgba, T::U32_2101010Rev),
            F::R11fG11fB10f => (P::Rgb, T::U32_10f11f11fRev),
            F::R8ui => (P::RedInteger, T::U8),
            F::R8i => (P::RedInteger, T::I8),
            F::R16ui => (P::RedInteger, T::U16),
            F::R16i => (P::RedInteger, T::I16),
            F::R32ui => (P::RedInteger, T::U32),
            F::R32i => (P::RedInteger, T::I32),
            F::Rg32ui => (P::RgInteger, T::U32),
            F::Rgba8ui => (P::RgbaInteger, T::U8),
            F::Rgba8i => (P::RgbaInteger, T::I8),
            F::Rgba16ui => (P::RgbaInteger, T::U16),
            F::Rgba16i => (P::RgbaInteger, T::I16),
            F::Rgba32ui => (P::RgbaInteger, T::U32),
            F::Rgba32i => (P::RgbaInteger, T::I32),
            _ => return None,
        };
        Some(PixelLayout { format, ty })
    }

    /// Whether the format can be a depth attachment.
    pub const fn has_depth(self) -> bool {
        self.info().depth_bits > 0
    }

    /// Whether the format can be a stencil attachment.
    pub const fn has_stencil(self) -> bool {
        self.info().stencil_bits > 0
    }

    /// Whether the format is colour (not depth or stencil).
    pub const fn is_color(self) -> bool {
        matches!(
            self.info().class,
            FormatClass::Float | FormatClass::Int | FormatClass::Uint
        )
    }
}

wire_enum! {
    /// What a texture object is; fixed when the texture is first bound.
    TextureKind: u8 {
        /// `TEXTURE_1D`.
        D1,
        /// `TEXTURE_2D`.
        D2,
        /// `TEXTURE_3D`.
        D3,
        /// `TEXTURE_1D_ARRAY`.
        D1Array,
        /// `TEXTURE_2D_ARRAY`.
        D2Array,
        /// `TEXTURE_CUBE_MAP` (six faces, each a level chain).
        Cube,
        /// `TEXTURE_RECTANGLE` (one level, unnormalized coordinates).
        Rectangle,
        /// `TEXTURE_2D_MULTISAMPLE`.
        D2Multisample,
        /// `TEXTURE_2D_MULTISAMPLE_ARRAY`.
        D2MultisampleArray,
        /// `TEXTURE_BUFFER` (a view of a buffer object).
        Buffer,
        /// `TEXTURE_CUBE_MAP_ARRAY` (layers of cube faces, six a cube, face-major as
        /// GL numbers them: layer `6 * cube + face`).
        CubeArray,
    }
}

wire_enum! {
    /// How a shader may use an image bound to an image unit (`glBindImageTexture`'s
    /// `access`).
    ImageAccess: u8 {
        /// `READ_ONLY`.
        ReadOnly,
        /// `WRITE_ONLY`.
        WriteOnly,
        /// `READ_WRITE`.
        ReadWrite,
    }
}

wire_enum! {
    /// Channel layout of client pixel data (the GL `format` argument).
    PixelFormat: u8 {
        Red, Green, Blue, Rg, Rgb, Bgr, Rgba, Bgra,
        RedInteger, GreenInteger, BlueInteger, RgInteger, RgbInteger, BgrInteger, RgbaInteger,
        BgraInteger, DepthComponent, StencilIndex, DepthStencil,
    }
}

wire_enum! {
    /// Component encoding of client pixel data (the GL `type` argument).
    PixelType: u8 {
        U8, I8, U16, I16, U32, I32, F16, F32,
        U8_332, U8_233Rev, U16_565, U16_565Rev, U16_4444, U16_4444Rev, U16_5551, U16_1555Rev,
        U32_8888, U32_8888Rev, U32_1010102, U32_2101010Rev, U32_248, U32_10f11f11fRev,
        U32_5999Rev, F32U32_248Rev,
    }
}

/// Client pixel data as tightly packed rows (the engine applies the unpack/pack state).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct PixelLayout {
    /// Channels.
    pub format: PixelFormat,
    /// Encoding.
    pub ty: PixelType,
}

wire_enum! {
    /// Component type of a vertex attribute in its buffer (`Fixed`: GL 4.1's `FIXED`, 16.16
    /// signed fixed-point, read as a float whatever `normalized` says).
    AttribType: u8 {
        I8, U8, I16, U16, I32, U32, F16, F32, F64, I2_10_10_10Rev, U2_10_10_10Rev, U10f11f11fRev,
        Fixed,
    }
}

/// Format of one vertex attribute.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct VertexFormat {
    /// Component type.
    pub ty: AttribType,
    /// Components, 1..=4; 0 for a disabled attribute.
    pub components: u8,
    /// Fixed-point components are mapped to [0, 1] or [-1, 1].
    pub normalized: bool,
    /// Read by the shader as stored: integers (`glVertexAttribIPointer`), or, with
    /// [`AttribType::F64`], doubles of a `double`/`dvec*` input (`glVertexAttribLPointer`;
    /// `F64` without it is `glVertexAttribPointer`'s doubles converted to floats).
    pub integer: bool,
    /// Components are stored B, G, R, A (`size = GL_BGRA`).
    pub bgra: bool,
}

impl VertexFormat {
    /// The canonical format of a disabled attribute, so that layout keys stay canonical.
    pub const DISABLED: VertexFormat = VertexFormat {
        ty: AttribType::F32,
        components: 0,
        normalized: false,
        integer: false,
        bgra: false,
    };
}

impl Default for VertexFormat {
    fn default() -> Self {
        Self::DISABLED
    }
}

wire_enum! {
    /// Type of the indices of an indexed draw.
    IndexType: u8 { U8, U16, U32, }
}

impl IndexType {
    /// Size of one index in bytes.
    pub const fn size(self) -> u32 {
        match self {
            IndexType::U8 => 1,
            IndexType::U16 => 2,
            IndexType::U32 => 4,
        }
    }

    /// The largest index of the type, where `PRIMITIVE_RESTART_FIXED_INDEX` restarts.
    pub const fn max_index(self) -> u32 {
        match self {
            IndexType::U8 => 0xff,
            IndexType::U16 => 0xffff,
            IndexType::U32 => u32::MAX,
        }
    }
}

wire_enum! {
    /// Primitive topology of a draw.
    Topology: u8 {
        Points, Lines, LineLoop, LineStrip, Triangles, TriangleStrip, TriangleFan,
        LinesAdjacency, LineStripAdjacency, TrianglesAdjacency, TriangleStripAdjacency,
        Patches,
    }
}

wire_enum! {
    /// A compare function (depth, stencil, shadow samplers).
    CompareFunc: u8 { Never, Less, Equal, LessEqual, Greater, NotEqual, GreaterEqual, Always, }
}

wire_enum! {
    /// A blend factor.
    BlendFactor: u8 {
        Zero, One, SrcColor, OneMinusSrcColor, DstColor, OneMinusDstColor, SrcAlpha,
        OneMinusSrcAlpha, DstAlpha, OneMinusDstAlpha, ConstantColor, OneMinusConstantColor,
        ConstantAlpha, OneMinusConstantAlpha, SrcAlphaSaturate, Src1Color, OneMinusSrc1Color,
        Src1Alpha, OneMinusSrc1Alpha,
    }
}

impl BlendFactor {
    /// Whether the factor reads the second colour output (dual-source blending).
    pub const fn is_dual_source(self) -> bool {
        matches!(
            self,
            Self::Src1Color | Self::OneMinusSrc1Color | Self::Src1Alpha | Self::OneMinusSrc1Alpha
        )
    }
}

wire_enum! {
    /// A blend equation.
    BlendOp: u8 { Add, Subtract, ReverseSubtract, Min, Max, }
}

wire_enum! {
    /// A stencil operation.
    StencilOp: u8 { Keep, Zero, Replace, IncrClamp, DecrClamp, Invert, IncrWrap, DecrWrap, }
}

wire_enum! {
    /// A colour logic operation.
    LogicOp: u8 {
        Clear, And, AndReverse, Copy, AndInverted, Noop, Xor, Or, Nor, Equiv, Invert, OrReverse,
        CopyInverted, OrInverted, Nand, Set,
    }
}

wire_enum! {
    /// Which faces are culled.
    CullMode: u8 { None, Front, Back, FrontAndBack, }
}

wire_enum! {
    /// How polygons are rasterized.
    PolygonMode: u8 { Fill, Line, Point, }
}

wire_enum! {
    /// A texture minification/magnification filter.
    Filter: u8 { Nearest, Linear, }
}

wire_enum! {
    /// How mip levels are chosen.
    MipFilter: u8 { None, Nearest, Linear, }
}

wire_enum! {
    /// A texture coordinate wrap mode.
    Wrap: u8 { Repeat, ClampToEdge, ClampToBorder, MirroredRepeat, MirrorClampToEdge, }
}

wire_enum! {
    /// A texture swizzle source.
    Swizzle: u8 { Red, Green, Blue, Alpha, Zero, One, }
}

wire_enum! {
    /// What a query counts. The pipeline statistics (GL 4.6's
    /// `ARB_pipeline_statistics_query`, from `VerticesSubmitted` on) count what their GL
    /// target names, as Vulkan's pipeline statistic of the same meaning does. The overflow
    /// queries (GL 4.6's `ARB_transform_feedback_overflow_query`) answer 1 when a captured
    /// vertex stream generated more primitives than it wrote: any stream
    /// (`TransformFeedbackOverflow`) or the one begun for (`...StreamOverflow`).
    QueryKind: u8 {
        SamplesPassed, AnySamplesPassed, TimeElapsed, Timestamp, PrimitivesGenerated,
        TransformFeedbackPrimitivesWritten, VerticesSubmitted, PrimitivesSubmitted,
        VertexShaderInvocations, TessControlShaderPatches, TessEvaluationShaderInvocations,
        GeometryShaderInvocations, GeometryShaderPrimitivesEmitted, FragmentShaderInvocations,
        ComputeShaderInvocations, ClippingInputPrimitives, ClippingOutputPrimitives,
        TransformFeedbackOverflow, TransformFeedbackStreamOverflow,
    }
}

wire_enum! {
    /// A shader stage.
    ShaderStage: u8 { Vertex, Geometry, Fragment, Compute, TessControl, TessEvaluation, }
}

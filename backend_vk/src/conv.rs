//! Pure maps from wire values to Vulkan values (`map_*`), and the format table: which
//! `VkFormat` stores each wire [`Format`] on this device, and in which client layout its
//! texels lie in memory (so uploads and read-backs convert on the CPU only when the client's
//! layout differs).
//!
//! Every wire format has a list of candidates, best first; the first one the device supports
//! with the features GL requires of the format (sampling, and rendering for colour-renderable,
//! depth and stencil formats) is chosen once at device creation. A candidate other than the
//! first-class one is a *stand-in* (RGB8 in RGBA8, 16-bit normalized in 32-bit floats, D24 in
//! D32F, ...): it loses nothing GL promises, and a stand-in that gained an alpha channel is
//! sampled with alpha swizzled to one.

use ash::vk;
use tessera_wire::format::{
    AttribType, BlendFactor, BlendOp, CompareFunc, CullMode, Filter, Format, IndexType, LogicOp,
    MipFilter, PixelFormat, PixelLayout, PixelType, PolygonMode, StencilOp, Swizzle, TextureKind,
    Topology, VertexFormat, Wrap,
};
use tessera_wire::pixel::pixel_size;

/// How the texels of a depth aspect lie in a buffer (copies to and from the depth aspect).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DepthLayout {
    /// 16-bit normalized.
    Unorm16,
    /// 24-bit normalized in the low bits of 32 (`X8_D24`, and `D24_UNORM_S8_UINT`'s depth).
    Unorm24,
    /// 32-bit float.
    Float32,
}

/// How one wire format lives on this device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NativeFormat {
    /// The image format.
    pub vk: vk::Format,
    /// The client layout of the image's memory (colour formats; depth and stencil formats
    /// use `depth`/`stencil` instead).
    pub upload: PixelLayout,
    /// Bytes per texel in a buffer copy (per 4x4 block for compressed formats; per depth
    /// texel for depth formats).
    pub texel_size: u32,
    /// Depth aspect layout, if the format has depth.
    pub depth: Option<DepthLayout>,
    /// Whether the format has a stencil aspect.
    pub stencil: bool,
    /// Block-compressed (4x4 blocks).
    pub compressed: bool,
    /// Not the wire format's own.
    pub stand_in: bool,
    /// ETC2/EAC blocks decoded on the CPU into this uncompressed stand-in at upload.
    pub decode: Option<tessera_wire::etc2::Etc2Kind>,
    /// The stand-in has alpha the wire format lacks: sample alpha as one.
    pub alpha_one: bool,
    /// Optimal-tiling features of `vk` on this device.
    pub features: vk::FormatFeatureFlags,
}

impl NativeFormat {
    /// The aspects of the image.
    pub fn aspect(&self) -> vk::ImageAspectFlags {
        match (self.depth.is_some(), self.stencil) {
            (true, true) => vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL,
            (true, false) => vk::ImageAspectFlags::DEPTH,
            (false, true) => vk::ImageAspectFlags::STENCIL,
            (false, false) => vk::ImageAspectFlags::COLOR,
        }
    }

    /// The aspect sampled by shaders (depth of a depth-stencil image).
    pub fn sampled_aspect(&self) -> vk::ImageAspectFlags {
        if self.depth.is_some() {
            vk::ImageAspectFlags::DEPTH
        } else if self.stencil {
            vk::ImageAspectFlags::STENCIL
        } else {
            vk::ImageAspectFlags::COLOR
        }
    }

    /// Bytes per texel of one aspect in a buffer copy.
    pub fn aspect_texel_size(&self, aspect: vk::ImageAspectFlags) -> usize {
        if aspect == vk::ImageAspectFlags::COLOR {
            self.texel_size as usize
        } else if aspect == vk::ImageAspectFlags::STENCIL {
            1
        } else if self.depth == Some(DepthLayout::Unorm16) {
            2
        } else {
            4
        }
    }

    /// Whether the format is a depth and/or stencil format.
    pub fn is_depth_stencil(&self) -> bool {
        self.depth.is_some() || self.stencil
    }

    /// Whether linear filtering of this format is allowed.
    pub fn linear_filter(&self) -> bool {
        self.features
            .contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR)
    }

    /// Whether the format can be a colour or depth/stencil attachment.
    pub fn renderable(&self) -> bool {
        self.features.intersects(
            vk::FormatFeatureFlags::COLOR_ATTACHMENT
                | vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT,
        )
    }
}

const fn lay(format: PixelFormat, ty: PixelType) -> PixelLayout {
    PixelLayout { format, ty }
}

/// One candidate: format, memory layout, bytes per texel.
type Candidate = (vk::Format, PixelLayout, u32);

/// The candidates of a wire format, best first.
fn candidates(format: Format) -> Vec<Candidate> {
    use Format as W;
    use PixelFormat as P;
    use PixelType as T;
    use vk::Format as V;
    // A format whose buffer copies hold tightly packed client pixels of (p, t).
    let texels = |vk: V, p: P, t: T| (vk, lay(p, t), pixel_size(p, t) as u32);
    let rgba8 = texels(V::R8G8B8A8_UNORM, P::Rgba, T::U8);
    let rgba16 = texels(V::R16G16B16A16_UNORM, P::Rgba, T::U16);
    let rgba16f = texels(V::R16G16B16A16_SFLOAT, P::Rgba, T::F16);
    let rgba32f = texels(V::R32G32B32A32_SFLOAT, P::Rgba, T::F32);
    // Integer RGB formats, with their RGBA format of the same type as the stand-in.
    let rgb_ints = |rgb: V, rgba: V, t: T| {
        vec![
            texels(rgb, P::RgbInteger, t),
            texels(rgba, P::RgbaInteger, t),
        ]
    };
    // 24- and 32-bit depth formats: four bytes per depth texel in a buffer copy.
    let depth = |vk: V| texels(vk, P::DepthComponent, T::F32);
    match format {
        W::R8 => vec![texels(V::R8_UNORM, P::Red, T::U8)],
        W::R8Snorm => vec![texels(V::R8_SNORM, P::Red, T::I8)],
        W::R16 => vec![
            texels(V::R16_UNORM, P::Red, T::U16),
            texels(V::R32_SFLOAT, P::Red, T::F32),
        ],
        W::R16Snorm => vec![
            texels(V::R16_SNORM, P::Red, T::I16),
            texels(V::R32_SFLOAT, P::Red, T::F32),
        ],
        W::Rg8 => vec![texels(V::R8G8_UNORM, P::Rg, T::U8)],
        W::Rg8Snorm => vec![texels(V::R8G8_SNORM, P::Rg, T::I8)],
        W::Rg16 => vec![
            texels(V::R16G16_UNORM, P::Rg, T::U16),
            texels(V::R32G32_SFLOAT, P::Rg, T::F32),
        ],
        W::Rg16Snorm => vec![
            texels(V::R16G16_SNORM, P::Rg, T::I16),
            texels(V::R32G32_SFLOAT, P::Rg, T::F32),
        ],
        W::R3G3B2 | W::Rgb4 | W::Rgb5 | W::Rgba2 => vec![rgba8],
        W::Rgb565 => vec![texels(V::R5G6B5_UNORM_PACK16, P::Rgb, T::U16_565), rgba8],
        W::Rgb8 => vec![texels(V::R8G8B8_UNORM, P::Rgb, T::U8), rgba8],
        W::Rgb8Snorm => vec![
            texels(V::R8G8B8_SNORM, P::Rgb, T::I8),
            texels(V::R8G8B8A8_SNORM, P::Rgba, T::I8),
        ],
        W::Rgb10 => vec![
            texels(V::A2B10G10R10_UNORM_PACK32, P::Rgba, T::U32_2101010Rev),
            rgba16,
        ],
        W::Rgb12 | W::Rgb16 => vec![texels(V::R16G16B16_UNORM, P::Rgb, T::U16), rgba16, rgba32f],
        W::Rgb16Snorm => vec![
            texels(V::R16G16B16_SNORM, P::Rgb, T::I16),
            texels(V::R16G16B16A16_SNORM, P::Rgba, T::I16),
            rgba32f,
        ],
        W::Rgba4 => vec![
            texels(V::R4G4B4A4_UNORM_PACK16, P::Rgba, T::U16_4444),
            rgba8,
        ],
        W::Rgb5A1 => vec![
            texels(V::R5G5B5A1_UNORM_PACK16, P::Rgba, T::U16_5551),
            rgba8,
        ],
        W::Rgba8 => vec![rgba8],
        W::Rgba8Snorm => vec![texels(V::R8G8B8A8_SNORM, P::Rgba, T::I8)],
        W::Rgb10A2 => vec![
            texels(V::A2B10G10R10_UNORM_PACK32, P::Rgba, T::U32_2101010Rev),
            rgba16,
        ],
        W::Rgb10A2Ui => vec![
            texels(
                V::A2B10G10R10_UINT_PACK32,
                P::RgbaInteger,
                T::U32_2101010Rev,
            ),
            texels(V::R16G16B16A16_UINT, P::RgbaInteger, T::U16),
        ],
        W::Rgba12 | W::Rgba16 => vec![rgba16, rgba32f],
        W::Rgba16Snorm => vec![texels(V::R16G16B16A16_SNORM, P::Rgba, T::I16), rgba32f],
        W::Srgb8 => vec![
            texels(V::R8G8B8_SRGB, P::Rgb, T::U8),
            texels(V::R8G8B8A8_SRGB, P::Rgba, T::U8),
        ],
        W::Srgb8Alpha8 => vec![texels(V::R8G8B8A8_SRGB, P::Rgba, T::U8)],
        W::R16f => vec![texels(V::R16_SFLOAT, P::Red, T::F16)],
        W::Rg16f => vec![texels(V::R16G16_SFLOAT, P::Rg, T::F16)],
        W::Rgb16f => vec![texels(V::R16G16B16_SFLOAT, P::Rgb, T::F16), rgba16f],
        W::Rgba16f => vec![rgba16f],
        W::R32f => vec![texels(V::R32_SFLOAT, P::Red, T::F32)],
        W::Rg32f => vec![texels(V::R32G32_SFLOAT, P::Rg, T::F32)],
        W::Rgb32f => vec![texels(V::R32G32B32_SFLOAT, P::Rgb, T::F32), rgba32f],
        W::Rgba32f => vec![rgba32f],
        W::R11fG11fB10f => vec![
            texels(V::B10G11R11_UFLOAT_PACK32, P::Rgb, T::U32_10f11f11fRev),
            rgba16f,
        ],
        W::Rgb9E5 => vec![
            texels(V::E5B9G9R9_UFLOAT_PACK32, P::Rgb, T::U32_5999Rev),
            rgba16f,
        ],
        W::R8i => vec![texels(V::R8_SINT, P::RedInteger, T::I8)],
        W::R8ui => vec![texels(V::R8_UINT, P::RedInteger, T::U8)],
        W::R16i => vec![texels(V::R16_SINT, P::RedInteger, T::I16)],
        W::R16ui => vec![texels(V::R16_UINT, P::RedInteger, T::U16)],
        W::R32i => vec![texels(V::R32_SINT, P::RedInteger, T::I32)],
        W::R32ui => vec![texels(V::R32_UINT, P::RedInteger, T::U32)],
        W::Rg8i => vec![texels(V::R8G8_SINT, P::RgInteger, T::I8)],
        W::Rg8ui => vec![texels(V::R8G8_UINT, P::RgInteger, T::U8)],
        W::Rg16i => vec![texels(V::R16G16_SINT, P::RgInteger, T::I16)],
        W::Rg16ui => vec![texels(V::R16G16_UINT, P::RgInteger, T::U16)],
        W::Rg32i => vec![texels(V::R32G32_SINT, P::RgInteger, T::I32)],
        W::Rg32ui => vec![texels(V::R32G32_UINT, P::RgInteger, T::U32)],
        W::Rgb8i => rgb_ints(V::R8G8B8_SINT, V::R8G8B8A8_SINT, T::I8),
        W::Rgb8ui => rgb_ints(V::R8G8B8_UINT, V::R8G8B8A8_UINT, T::U8),
        W::Rgb16i => rgb_ints(V::R16G16B16_SINT, V::R16G16B16A16_SINT, T::I16),
        W::Rgb16ui => rgb_ints(V::R16G16B16_UINT, V::R16G16B16A16_UINT, T::U16),
        W::Rgb32i => rgb_ints(V::R32G32B32_SINT, V::R32G32B32A32_SINT, T::I32),
        W::Rgb32ui => rgb_ints(V::R32G32B32_UINT, V::R32G32B32A32_UINT, T::U32),
        W::Rgba8i => vec![texels(V::R8G8B8A8_SINT, P::RgbaInteger, T::I8)],
        W::Rgba8ui => vec![texels(V::R8G8B8A8_UINT, P::RgbaInteger, T::U8)],
        W::Rgba16i => vec![texels(V::R16G16B16A16_SINT, P::RgbaInteger, T::I16)],
        W::Rgba16ui => vec![texels(V::R16G16B16A16_UINT, P::RgbaInteger, T::U16)],
        W::Rgba32i => vec![texels(V::R32G32B32A32_SINT, P::RgbaInteger, T::I32)],
        W::Rgba32ui => vec![texels(V::R32G32B32A32_UINT, P::RgbaInteger, T::U32)],
        W::Depth16 => vec![
            texels(V::D16_UNORM, P::DepthComponent, T::U16),
            depth(V::D32_SFLOAT),
        ],
        W::Depth24 => vec![
            depth(V::X8_D24_UNORM_PACK32),
            depth(V::D32_SFLOAT),
            depth(V::D24_UNORM_S8_UINT),
        ],
        W::Depth32 | W::Depth32f => vec![depth(V::D32_SFLOAT)],
        W::Depth24Stencil8 => vec![depth(V::D24_UNORM_S8_UINT), depth(V::D32_SFLOAT_S8_UINT)],
        W::Depth32fStencil8 => vec![depth(V::D32_SFLOAT_S8_UINT), depth(V::D24_UNORM_S8_UINT)],
        W::Stencil8 | W::Stencil1 | W::Stencil4 | W::Stencil16 => vec![
            texels(V::S8_UINT, P::StencilIndex, T::U8),
            depth(V::D24_UNORM_S8_UINT),
            depth(V::D32_SFLOAT_S8_UINT),
        ],
        W::RgtcR => vec![
            (V::BC4_UNORM_BLOCK, lay(P::Red, T::U8), 8),
            texels(V::R8_UNORM, P::Red, T::U8),
        ],
        W::RgtcRSnorm => vec![
            (V::BC4_SNORM_BLOCK, lay(P::Red, T::I8), 8),
            texels(V::R8_SNORM, P::Red, T::I8),
        ],
        W::RgtcRg => vec![
            (V::BC5_UNORM_BLOCK, lay(P::Rg, T::U8), 16),
            texels(V::R8G8_UNORM, P::Rg, T::U8),
        ],
        W::RgtcRgSnorm => vec![
            (V::BC5_SNORM_BLOCK, lay(P::Rg, T::I8), 16),
            texels(V::R8G8_SNORM, P::Rg, T::I8),
        ],
        // BPTC is BC7 and BC6H (`textureCompressionBC`); without them, an uncompressed
        // stand-in that compressed uploads skip (reported), as RGTC's.
        W::BptcRgba => vec![(V::BC7_UNORM_BLOCK, lay(P::Rgba, T::U8), 16), rgba8],
        W::BptcSrgbAlpha => vec![
            (V::BC7_SRGB_BLOCK, lay(P::Rgba, T::U8), 16),
            texels(V::R8G8B8A8_SRGB, P::Rgba, T::U8),
        ],
        W::BptcRgbSfloat => vec![(V::BC6H_SFLOAT_BLOCK, lay(P::Rgb, T::F32), 16), rgba32f],
        W::BptcRgbUfloat => vec![(V::BC6H_UFLOAT_BLOCK, lay(P::Rgb, T::F32), 16), rgba32f],
        // ETC2 and EAC (`textureCompressionETC2`, which lavapipe lacks): uncompressed
        // stand-ins that compressed uploads decode into (`tessera_wire::etc2`).
        W::Etc2Rgb8 | W::Etc2Rgb8A1 | W::Etc2Rgba8 => vec![rgba8],
        W::Etc2Srgb8 | W::Etc2Srgb8A1 | W::Etc2Srgb8Alpha8 => {
            vec![texels(V::R8G8B8A8_SRGB, P::Rgba, T::U8)]
        }
        W::EacR11 => vec![texels(V::R16_UNORM, P::Red, T::U16)],
        W::EacR11Snorm => vec![texels(V::R16_SNORM, P::Red, T::I16)],
        W::EacRg11 => vec![texels(V::R16G16_UNORM, P::Rg, T::U16)],
        W::EacRg11Snorm => vec![texels(V::R16G16_SNORM, P::Rg, T::I16)],
    }
}

fn depth_layout(f: vk::Format) -> Option<DepthLayout> {
    match f {
        vk::Format::D16_UNORM => Some(DepthLayout::Unorm16),
        vk::Format::X8_D24_UNORM_PACK32 | vk::Format::D24_UNORM_S8_UINT => {
            Some(DepthLayout::Unorm24)
        }
        vk::Format::D32_SFLOAT | vk::Format::D32_SFLOAT_S8_UINT => Some(DepthLayout::Float32),
        _ => None,
    }
}

fn is_compressed(f: vk::Format) -> bool {
    matches!(
        f,
        vk::Format::BC4_UNORM_BLOCK
            | vk::Format::BC4_SNORM_BLOCK
            | vk::Format::BC5_UNORM_BLOCK
            | vk::Format::BC5_SNORM_BLOCK
            | vk::Format::BC7_UNORM_BLOCK
            | vk::Format::BC7_SRGB_BLOCK
            | vk::Format::BC6H_SFLOAT_BLOCK
            | vk::Format::BC6H_UFLOAT_BLOCK
    )
}

/// What the BPTC encoder makes for a BC7 or BC6H image (`None` for other formats).
pub(crate) fn bptc_kind(f: vk::Format) -> Option<tessera_wire::bptc::BptcKind> {
    use tessera_wire::bptc::BptcKind as K;
    match f {
        vk::Format::BC7_UNORM_BLOCK | vk::Format::BC7_SRGB_BLOCK => Some(K::Unorm),
        vk::Format::BC6H_UFLOAT_BLOCK => Some(K::UnsignedFloat),
        vk::Format::BC6H_SFLOAT_BLOCK => Some(K::SignedFloat),
        _ => None,
    }
}

/// The format a buffer texture of `format` is viewed in, `image` being its image format:
/// the three-component 32-bit formats, whose images stand in as four-component ones, keep
/// their own texel size in a buffer (12 bytes), as GL reads them; the device has them as
/// uniform texel buffers where `Caps::texture_buffer_rgb32` says so, and the engine takes
/// them for buffer textures only then.
pub(crate) fn map_texel_buffer_format(format: Format, image: vk::Format) -> vk::Format {
    match format {
        Format::Rgb32f => vk::Format::R32G32B32_SFLOAT,
        Format::Rgb32i => vk::Format::R32G32B32_SINT,
        Format::Rgb32ui => vk::Format::R32G32B32_UINT,
        _ => image,
    }
}

/// Chooses the native format of `format` given a query of optimal-tiling features.
/// `None`: the device supports no candidate at all.
pub(crate) fn choose_format(
    format: Format,
    features_of: &mut dyn FnMut(vk::Format) -> vk::FormatFeatureFlags,
) -> Option<NativeFormat> {
    let info = format.info();
    let want_render = info.color_renderable || !format.is_color();
    let list = candidates(format);
    let make = |(i, &(vk, upload, texel_size)): (usize, &Candidate), features| {
        let depth = depth_layout(vk);
        let stencil = matches!(
            vk,
            vk::Format::S8_UINT | vk::Format::D24_UNORM_S8_UINT | vk::Format::D32_SFLOAT_S8_UINT
        );
        let gained_alpha = info.rgba_bits[3] == 0
            && matches!(upload.format, PixelFormat::Rgba | PixelFormat::RgbaInteger)
            && format.is_color();
        NativeFormat {
            vk,
            upload,
            texel_size,
            depth,
            stencil,
            compressed: is_compressed(vk),
            stand_in: i > 0
                || matches!(
                    format,
                    Format::R3G3B2
                        | Format::Rgb4
                        | Format::Rgb5
                        | Format::Rgba2
                        | Format::Rgb10
                        | Format::Rgb12
                        | Format::Rgba12
                        | Format::Depth32
                        | Format::Stencil1
                        | Format::Stencil4
                        | Format::Stencil16
                )
                || tessera_wire::etc2::Etc2Kind::of(format).is_some(),
            decode: if is_compressed(vk) {
                None
            } else {
                tessera_wire::etc2::Etc2Kind::of(format)
            },
            alpha_one: gained_alpha,
            features,
        }
    };
    let needed = |f: vk::FormatFeatureFlags, vk: vk::Format| {
        let sampled = f.contains(vk::FormatFeatureFlags::SAMPLED_IMAGE)
            || (vk == vk::Format::S8_UINT && !f.is_empty());
        let render = f.intersects(
            vk::FormatFeatureFlags::COLOR_ATTACHMENT
                | vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT,
        );
        sampled && (!want_render || render)
    };
    let mut fallback = None;
    for (i, c) in list.iter().enumerate() {
        let f = features_of(c.0);
        if needed(f, c.0) {
            return Some(make((i, c), f));
        }
        if fallback.is_none() && f.contains(vk::FormatFeatureFlags::SAMPLED_IMAGE) {
            fallback = Some(make((i, c), f));
        }
    }
    fallback
}

/// The UNORM twin of a renderable sRGB colour format (the same bits, stored as they are):
/// the view an sRGB image is rendered through while `FRAMEBUFFER_SRGB` is disabled
/// (`image.rs`). Only the four-byte formats: their UNORM twins have colour attachment and
/// blend support on every Vulkan device (a required format feature).
pub(crate) fn linear_twin(f: vk::Format) -> Option<vk::Format> {
    use vk::Format as F;
    Some(match f {
        F::R8G8B8A8_SRGB => F::R8G8B8A8_UNORM,
        F::B8G8R8A8_SRGB => F::B8G8R8A8_UNORM,
        F::A8B8G8R8_SRGB_PACK32 => F::A8B8G8R8_UNORM_PACK32,
        _ => return None,
    })
}

/// The image view type of a texture kind.
pub(crate) fn map_view_type(kind: TextureKind) -> vk::ImageViewType {
    use TextureKind as K;
    match kind {
        K::D1 => vk::ImageViewType::TYPE_1D,
        K::D1Array => vk::ImageViewType::TYPE_1D_ARRAY,
        K::D2 | K::Rectangle | K::D2Multisample | K::Buffer => vk::ImageViewType::TYPE_2D,
        K::D2Array | K::D2MultisampleArray => vk::ImageViewType::TYPE_2D_ARRAY,
        K::D3 => vk::ImageViewType::TYPE_3D,
        K::Cube => vk::ImageViewType::CUBE,
        K::CubeArray => vk::ImageViewType::CUBE_ARRAY,
    }
}

/// The image type of a texture kind.
pub(crate) fn map_image_type(kind: TextureKind) -> vk::ImageType {
    match kind {
        TextureKind::D1 | TextureKind::D1Array => vk::ImageType::TYPE_1D,
        TextureKind::D3 => vk::ImageType::TYPE_3D,
        _ => vk::ImageType::TYPE_2D,
    }
}

/// A sample count (0 and 1 are single-sampled) as the device has it: the smallest supported
/// count at least `samples`, as GL lets an implementation choose for a multisampled texture
/// or renderbuffer (lavapipe has 1 and 4, so 2 samples are 4, never 1, which would keep
/// only the last of the samples a program writes one at a time with `glSampleMaski`); the
/// largest supported count when none is that large.
pub(crate) fn map_samples(samples: u8, supported: vk::SampleCountFlags) -> vk::SampleCountFlags {
    let wanted = u32::from(samples.max(1)).next_power_of_two().min(64);
    let mut n = wanted;
    while n <= 64 {
        if supported.contains(vk::SampleCountFlags::from_raw(n)) {
            return vk::SampleCountFlags::from_raw(n);
        }
        n *= 2;
    }
    let mut n = wanted;
    while n > 1 && !supported.contains(vk::SampleCountFlags::from_raw(n)) {
        n /= 2;
    }
    vk::SampleCountFlags::from_raw(n)
}

/// A depth, stencil or shadow comparison.
pub(crate) fn map_compare_func(func: CompareFunc) -> vk::CompareOp {
    use CompareFunc as C;
    match func {
        C::Never => vk::CompareOp::NEVER,
        C::Less => vk::CompareOp::LESS,
        C::Equal => vk::CompareOp::EQUAL,
        C::LessEqual => vk::CompareOp::LESS_OR_EQUAL,
        C::Greater => vk::CompareOp::GREATER,
        C::NotEqual => vk::CompareOp::NOT_EQUAL,
        C::GreaterEqual => vk::CompareOp::GREATER_OR_EQUAL,
        C::Always => vk::CompareOp::ALWAYS,
    }
}

/// A blend factor.
pub(crate) fn map_blend_factor(factor: BlendFactor) -> vk::BlendFactor {
    use BlendFactor as B;
    match factor {
        B::Zero => vk::BlendFactor::ZERO,
        B::One => vk::BlendFactor::ONE,
        B::SrcColor => vk::BlendFactor::SRC_COLOR,
        B::OneMinusSrcColor => vk::BlendFactor::ONE_MINUS_SRC_COLOR,
        B::DstColor => vk::BlendFactor::DST_COLOR,
        B::OneMinusDstColor => vk::BlendFactor::ONE_MINUS_DST_COLOR,
        B::SrcAlpha => vk::BlendFactor::SRC_ALPHA,
        B::OneMinusSrcAlpha => vk::BlendFactor::ONE_MINUS_SRC_ALPHA,
        B::DstAlpha => vk::BlendFactor::DST_ALPHA,
        B::OneMinusDstAlpha => vk::BlendFactor::ONE_MINUS_DST_ALPHA,
        B::ConstantColor => vk::BlendFactor::CONSTANT_COLOR,
        B::OneMinusConstantColor => vk::BlendFactor::ONE_MINUS_CONSTANT_COLOR,
        B::ConstantAlpha => vk::BlendFactor::CONSTANT_ALPHA,
        B::OneMinusConstantAlpha => vk::BlendFactor::ONE_MINUS_CONSTANT_ALPHA,
        B::SrcAlphaSaturate => vk::BlendFactor::SRC_ALPHA_SATURATE,
        B::Src1Color => vk::BlendFactor::SRC1_COLOR,
        B::OneMinusSrc1Color => vk::BlendFactor::ONE_MINUS_SRC1_COLOR,
        B::Src1Alpha => vk::BlendFactor::SRC1_ALPHA,
        B::OneMinusSrc1Alpha => vk::BlendFactor::ONE_MINUS_SRC1_ALPHA,
    }
}

/// A blend equation.
pub(crate) fn map_blend_op(op: BlendOp) -> vk::BlendOp {
    match op {
        BlendOp::Add => vk::BlendOp::ADD,
        BlendOp::Subtract => vk::BlendOp::SUBTRACT,
        BlendOp::ReverseSubtract => vk::BlendOp::REVERSE_SUBTRACT,
        BlendOp::Min => vk::BlendOp::MIN,
        BlendOp::Max => vk::BlendOp::MAX,
    }
}

/// A stencil operation.
pub(crate) fn map_stencil_op(op: StencilOp) -> vk::StencilOp {
    use StencilOp as S;
    match op {
        S::Keep => vk::StencilOp::KEEP,
        S::Zero => vk::StencilOp::ZERO,
        S::Replace => vk::StencilOp::REPLACE,
        S::IncrClamp => vk::StencilOp::INCREMENT_AND_CLAMP,
        S::DecrClamp => vk::StencilOp::DECREMENT_AND_CLAMP,
        S::Invert => vk::StencilOp::INVERT,
        S::IncrWrap => vk::StencilOp::INCREMENT_AND_WRAP,
        S::DecrWrap => vk::StencilOp::DECREMENT_AND_WRAP,
    }
}

/// A colour logic operation.
pub(crate) fn map_logic_op(op: LogicOp) -> vk::LogicOp {
    use LogicOp as L;
    match op {
        L::Clear => vk::LogicOp::CLEAR,
        L::And => vk::LogicOp::AND,
        L::AndReverse => vk::LogicOp::AND_REVERSE,
        L::Copy => vk::LogicOp::COPY,
        L::AndInverted => vk::LogicOp::AND_INVERTED,
        L::Noop => vk::LogicOp::NO_OP,
        L::Xor => vk::LogicOp::XOR,
        L::Or => vk::LogicOp::OR,
        L::Nor => vk::LogicOp::NOR,
        L::Equiv => vk::LogicOp::EQUIVALENT,
        L::Invert => vk::LogicOp::INVERT,
        L::OrReverse => vk::LogicOp::OR_REVERSE,
        L::CopyInverted => vk::LogicOp::COPY_INVERTED,
        L::OrInverted => vk::LogicOp::OR_INVERTED,
        L::Nand => vk::LogicOp::NAND,
        L::Set => vk::LogicOp::SET,
    }
}

/// Faces culled.
pub(crate) fn map_cull_mode(cull: CullMode) -> vk::CullModeFlags {
    match cull {
        CullMode::None => vk::CullModeFlags::NONE,
        CullMode::Front => vk::CullModeFlags::FRONT,
        CullMode::Back => vk::CullModeFlags::BACK,
        CullMode::FrontAndBack => vk::CullModeFlags::FRONT_AND_BACK,
    }
}

/// GL's front face, for Vulkan's framebuffer coordinates.
///
/// Nothing is flipped (framebuffer row `r` is GL window row `r`), but Vulkan measures a
/// polygon's area with y growing downwards: the same vertices that GL calls
/// counter-clockwise are clockwise to Vulkan.
pub(crate) fn map_front_face(front_ccw: bool) -> vk::FrontFace {
    if front_ccw {
        vk::FrontFace::CLOCKWISE
    } else {
        vk::FrontFace::COUNTER_CLOCKWISE
    }
}

/// A polygon mode.
pub(crate) fn map_polygon_mode(mode: PolygonMode) -> vk::PolygonMode {
    match mode {
        PolygonMode::Fill => vk::PolygonMode::FILL,
        PolygonMode::Line => vk::PolygonMode::LINE,
        PolygonMode::Point => vk::PolygonMode::POINT,
    }
}

/// A filter.
pub(crate) fn map_filter(filter: Filter) -> vk::Filter {
    match filter {
        Filter::Nearest => vk::Filter::NEAREST,
        Filter::Linear => vk::Filter::LINEAR,
    }
}

/// A mip filter (`None` is NEAREST with the LOD clamped to the base level by the sampler).
pub(crate) fn map_mip_filter(filter: MipFilter) -> vk::SamplerMipmapMode {
    match filter {
        MipFilter::Linear => vk::SamplerMipmapMode::LINEAR,
        MipFilter::None | MipFilter::Nearest => vk::SamplerMipmapMode::NEAREST,
    }
}

/// A wrap mode (`MirrorClampToEdge` needs the device feature, checked by the caller).
pub(crate) fn map_wrap(wrap: Wrap) -> vk::SamplerAddressMode {
    match wrap {
        Wrap::Repeat => vk::SamplerAddressMode::REPEAT,
        Wrap::ClampToEdge => vk::SamplerAddressMode::CLAMP_TO_EDGE,
        Wrap::ClampToBorder => vk::SamplerAddressMode::CLAMP_TO_BORDER,
        Wrap::MirroredRepeat => vk::SamplerAddressMode::MIRRORED_REPEAT,
        Wrap::MirrorClampToEdge => vk::SamplerAddressMode::MIRROR_CLAMP_TO_EDGE,
    }
}

/// A swizzle source.
pub(crate) fn map_swizzle(s: Swizzle) -> vk::ComponentSwizzle {
    match s {
        Swizzle::Red => vk::ComponentSwizzle::R,
        Swizzle::Green => vk::ComponentSwizzle::G,
        Swizzle::Blue => vk::ComponentSwizzle::B,
        Swizzle::Alpha => vk::ComponentSwizzle::A,
        Swizzle::Zero => vk::ComponentSwizzle::ZERO,
        Swizzle::One => vk::ComponentSwizzle::ONE,
    }
}

/// The Vulkan topology of a draw, as drawn natively (line loops are drawn as strips with
/// an index that closes them; fans are lists on devices without fans).
pub(crate) fn map_topology(t: Topology) -> vk::PrimitiveTopology {
    use Topology as P;
    match t {
        P::Points => vk::PrimitiveTopology::POINT_LIST,
        P::Lines => vk::PrimitiveTopology::LINE_LIST,
        P::LineLoop | P::LineStrip => vk::PrimitiveTopology::LINE_STRIP,
        P::Triangles => vk::PrimitiveTopology::TRIANGLE_LIST,
        P::TriangleStrip => vk::PrimitiveTopology::TRIANGLE_STRIP,
        P::TriangleFan => vk::PrimitiveTopology::TRIANGLE_FAN,
        P::LinesAdjacency => vk::PrimitiveTopology::LINE_LIST_WITH_ADJACENCY,
        P::LineStripAdjacency => vk::PrimitiveTopology::LINE_STRIP_WITH_ADJACENCY,
        P::TrianglesAdjacency => vk::PrimitiveTopology::TRIANGLE_LIST_WITH_ADJACENCY,
        P::TriangleStripAdjacency => vk::PrimitiveTopology::TRIANGLE_STRIP_WITH_ADJACENCY,
        P::Patches => vk::PrimitiveTopology::PATCH_LIST,
    }
}

/// Whether primitive restart applies to a topology in core Vulkan (strips and fans; lists
/// need `VK_EXT_primitive_topology_list_restart`).
pub(crate) fn is_strip(t: vk::PrimitiveTopology) -> bool {
    matches!(
        t,
        vk::PrimitiveTopology::LINE_STRIP
            | vk::PrimitiveTopology::TRIANGLE_STRIP
            | vk::PrimitiveTopology::TRIANGLE_FAN
            | vk::PrimitiveTopology::LINE_STRIP_WITH_ADJACENCY
            | vk::PrimitiveTopology::TRIANGLE_STRIP_WITH_ADJACENCY
    )
}

/// An index type (`U8` needs `VK_EXT_index_type_uint8`, checked by the caller).
pub(crate) fn map_index_type(t: IndexType) -> vk::IndexType {
    match t {
        IndexType::U8 => vk::IndexType::UINT8_EXT,
        IndexType::U16 => vk::IndexType::UINT16,
        IndexType::U32 => vk::IndexType::UINT32,
    }
}

/// The largest index of a type: the only restart index Vulkan has.
pub(crate) fn max_index(t: IndexType) -> u32 {
    match t {
        IndexType::U8 => 0xff,
        IndexType::U16 => 0xffff,
        IndexType::U32 => u32::MAX,
    }
}

/// The vertex input format of an attribute (`None`: Vulkan has no such format).
pub(crate) fn map_vertex_format(f: VertexFormat) -> Option<vk::Format> {
    use AttribType as A;
    use vk::Format as V;
    let n = f.components;
    if f.bgra {
        return match (f.ty, f.normalized) {
            (A::U8, true) => Some(V::B8G8R8A8_UNORM),
            (A::U2_10_10_10Rev, true) => Some(V::A2R10G10B10_UNORM_PACK32),
            (A::I2_10_10_10Rev, true) => Some(V::A2R10G10B10_SNORM_PACK32),
            _ => None,
        };
    }
    // (normalized, scaled, integer) variants per component count.
    let pick = |norm: [V; 4], scaled: [V; 4], int: [V; 4]| -> Option<V> {
        let i = usize::from(n.clamp(1, 4)) - 1;
        Some(if f.integer {
            int[i]
        } else if f.normalized {
            norm[i]
        } else {
            scaled[i]
        })
    };
    // Floats read the same whether normalized or not, and never as integers.
    let floats = |v: [V; 4]| pick(v, v, [V::UNDEFINED; 4]);
    // Only integer reads (32-bit integers read as floats have no Vulkan format).
    let ints = |v: [V; 4]| pick([V::UNDEFINED; 4], [V::UNDEFINED; 4], v);
    match f.ty {
        A::U8 => pick(
            [
                V::R8_UNORM,
                V::R8G8_UNORM,
                V::R8G8B8_UNORM,
                V::R8G8B8A8_UNORM,
            ],
            [
                V::R8_USCALED,
                V::R8G8_USCALED,
                V::R8G8B8_USCALED,
                V::R8G8B8A8_USCALED,
            ],
            [V::R8_UINT, V::R8G8_UINT, V::R8G8B8_UINT, V::R8G8B8A8_UINT],
        ),
        A::I8 => pick(
            [
                V::R8_SNORM,
                V::R8G8_SNORM,
                V::R8G8B8_SNORM,
                V::R8G8B8A8_SNORM,
            ],
            [
                V::R8_SSCALED,
                V::R8G8_SSCALED,
                V::R8G8B8_SSCALED,
                V::R8G8B8A8_SSCALED,
            ],
            [V::R8_SINT, V::R8G8_SINT, V::R8G8B8_SINT, V::R8G8B8A8_SINT],
        ),
        A::U16 => pick(
            [
                V::R16_UNORM,
                V::R16G16_UNORM,
                V::R16G16B16_UNORM,
                V::R16G16B16A16_UNORM,
            ],
            [
                V::R16_USCALED,
                V::R16G16_USCALED,
                V::R16G16B16_USCALED,
                V::R16G16B16A16_USCALED,
            ],
            [
                V::R16_UINT,
                V::R16G16_UINT,
                V::R16G16B16_UINT,
                V::R16G16B16A16_UINT,
            ],
        ),
        A::I16 => pick(
            [
                V::R16_SNORM,
                V::R16G16_SNORM,
                V::R16G16B16_SNORM,
                V::R16G16B16A16_SNORM,
            ],
            [
                V::R16_SSCALED,
                V::R16G16_SSCALED,
                V::R16G16B16_SSCALED,
                V::R16G16B16A16_SSCALED,
            ],
            [
                V::R16_SINT,
                V::R16G16_SINT,
                V::R16G16B16_SINT,
                V::R16G16B16A16_SINT,
            ],
        ),
        // 32-bit integers read as floats have no normalized or scaled Vulkan format.
        A::U32 if !f.integer => None,
        A::I32 if !f.integer => None,
        A::U32 => ints([
            V::R32_UINT,
            V::R32G32_UINT,
            V::R32G32B32_UINT,
            V::R32G32B32A32_UINT,
        ]),
        A::I32 => ints([
            V::R32_SINT,
            V::R32G32_SINT,
            V::R32G32B32_SINT,
            V::R32G32B32A32_SINT,
        ]),
        A::F16 => floats([
            V::R16_SFLOAT,
            V::R16G16_SFLOAT,
            V::R16G16B16_SFLOAT,
            V::R16G16B16A16_SFLOAT,
        ]),
        A::F32 => floats([
            V::R32_SFLOAT,
            V::R32G32_SFLOAT,
            V::R32G32B32_SFLOAT,
            V::R32G32B32A32_SFLOAT,
        ]),
        // Doubles read as doubles, fetched as their 32-bit words (the first location's; the
        // pipeline adds the next one's, spirv/double_attrib.rs); converted to floats they
        // have no Vulkan format.
        A::F64 => ints([
            V::R32G32_UINT,
            V::R32G32B32A32_UINT,
            V::R32G32B32A32_UINT,
            V::R32G32B32A32_UINT,
        ]),
        A::U2_10_10_10Rev => Some(if f.normalized {
            V::A2B10G10R10_UNORM_PACK32
        } else if f.integer {
            V::A2B10G10R10_UINT_PACK32
        } else {
            V::A2B10G10R10_USCALED_PACK32
        }),
        A::I2_10_10_10Rev => Some(if f.normalized {
            V::A2B10G10R10_SNORM_PACK32
        } else if f.integer {
            V::A2B10G10R10_SINT_PACK32
        } else {
            V::A2B10G10R10_SSCALED_PACK32
        }),
        A::U10f11f11fRev => Some(V::B10G11R11_UFLOAT_PACK32),
        // 16.16 fixed point: fetched as integers, converted by the vertex stage
        // (`spirv/fixed_attrib.rs`).
        A::Fixed => Some(
            [
                V::R32_SINT,
                V::R32G32_SINT,
                V::R32G32B32_SINT,
                V::R32G32B32A32_SINT,
            ][usize::from(n.clamp(1, 4)) - 1],
        ),
    }
    .filter(|v| *v != V::UNDEFINED)
}

/// (alignment, size) in bytes of one vertex attribute element: Vulkan fetches an attribute
/// only from addresses aligned to its component size (packed formats: 4).
pub(crate) fn vertex_layout_bytes(f: VertexFormat) -> (u32, u32) {
    use AttribType as A;
    let n = u32::from(f.components.clamp(1, 4));
    match f.ty {
        A::I8 | A::U8 => (1, n),
        A::I16 | A::U16 | A::F16 => (2, 2 * n),
        A::I32 | A::U32 | A::F32 | A::Fixed => (4, 4 * n),
        A::F64 => (8, 8 * n),
        A::I2_10_10_10Rev | A::U2_10_10_10Rev | A::U10f11f11fRev => (4, 4),
    }
}

/// The standard border colour matching raw GL border words, if one does.
pub(crate) fn map_border_color(words: [u32; 4], integer: bool) -> Option<vk::BorderColor> {
    let (zero, one) = if integer {
        (0u32, 1u32)
    } else {
        (0f32.to_bits(), 1f32.to_bits())
    };
    let c = |b: vk::BorderColor, f: vk::BorderColor| Some(if integer { b } else { f });
    match words {
        [r, g, b, a] if [r, g, b, a] == [zero; 4] => c(
            vk::BorderColor::INT_TRANSPARENT_BLACK,
            vk::BorderColor::FLOAT_TRANSPARENT_BLACK,
        ),
        [r, g, b, a] if [r, g, b] == [zero; 3] && a == one => c(
            vk::BorderColor::INT_OPAQUE_BLACK,
            vk::BorderColor::FLOAT_OPAQUE_BLACK,
        ),
        [r, g, b, a] if [r, g, b, a] == [one; 4] => c(
            vk::BorderColor::INT_OPAQUE_WHITE,
            vk::BorderColor::FLOAT_OPAQUE_WHITE,
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_counts_round_up_to_one_the_device_has() {
        let lavapipe = vk::SampleCountFlags::TYPE_1 | vk::SampleCountFlags::TYPE_4;
        let got: Vec<u32> = [0u8, 1, 2, 3, 4, 8, 16]
            .iter()
            .map(|&s| map_samples(s, lavapipe).as_raw())
            .collect();
        assert_eq!(got, [1, 1, 4, 4, 4, 4, 4]);
        let all = vk::SampleCountFlags::from_raw(0x7f);
        assert_eq!(map_samples(2, all), vk::SampleCountFlags::TYPE_2);
        assert_eq!(map_samples(5, all), vk::SampleCountFlags::TYPE_8);
    }

    #[test]
    fn every_format_has_a_candidate_and_stand_ins_are_marked() {
        let all = |_: vk::Format| {
            vk::FormatFeatureFlags::SAMPLED_IMAGE
                | vk::FormatFeatureFlags::COLOR_ATTACHMENT
                | vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT
        };
        for &f in Format::ALL {
            let n = choose_format(f, &mut { all }).expect("a candidate");
            assert_eq!(
                n.depth.is_some(),
                f.has_depth() || n.depth.is_some(),
                "{f:?}"
            );
        }
        // RGB8 without attachment support falls back to RGBA8 and samples alpha as one.
        let mut no_rgb = |v: vk::Format| {
            if v == vk::Format::R8G8B8_UNORM {
                vk::FormatFeatureFlags::SAMPLED_IMAGE
            } else {
                all(v)
            }
        };
        let n = choose_format(Format::Rgb8, &mut no_rgb).unwrap();
        assert_eq!(n.vk, vk::Format::R8G8B8A8_UNORM);
        assert!(n.stand_in && n.alpha_one);
    }

    #[test]
    fn gl_counter_clockwise_is_vulkan_clockwise() {
        assert_eq!(map_front_face(true), vk::FrontFace::CLOCKWISE);
    }

    #[test]
    fn vertex_formats() {
        let f = VertexFormat {
            ty: AttribType::U8,
            components: 4,
            normalized: true,
            integer: false,
            bgra: false,
        };
        assert_eq!(map_vertex_format(f), Some(vk::Format::R8G8B8A8_UNORM));
        let f = VertexFormat {
            ty: AttribType::I32,
            components: 2,
            normalized: false,
            integer: false,
            bgra: false,
        };
        assert_eq!(map_vertex_format(f), None);
    }
}

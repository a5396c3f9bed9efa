//! # Client pixels on the CPU
//!
//! Sizes of client pixel layouts ([`PixelLayout`]: a GL `format` and `type`) and conversion
//! between them. Backends convert when the native API cannot take or produce a layout the
//! client used (BGRA orders and packed types GLES lacks, uploads to an image whose native
//! format differs, read-backs in the layout the client asked for); what the native formats
//! are stays in each backend's `conv.rs`.
//!
//! ## One intermediate
//! Every conversion goes through a [`Texel`] of four `f64` channels: normalized
//! (fixed-point) data as its real value in `[0, 1]` or `[-1, 1]`, integer data (`*_INTEGER`
//! formats, stencil) as its raw value, floats as they are; depth is channel 0 and stencil
//! channel 1. `f64` holds every 32-bit integer and every `f32` exactly, so a round trip
//! through one layout is the identity, and conversions follow GL's unpack and pack rules
//! (normalize, clamp, round to nearest).
//!
//! ## Bit for bit with the reference
//! A float read-back of normalized data shows every bit, so normalization is computed as
//! Mesa (the reference driver) computes it: `x * (1.0f / max)` in single precision
//! (`_mesa_unorm_to_float`, `_mesa_snorm_to_float`), which differs from the exact quotient in
//! the last bit for some values (8-bit 200 reads `0x3f48c8ca`, the quotient is `...c9`).
//! 32-bit components keep double precision: single precision cannot hold them.
//!
//! ## Byte order
//! Components and packed pixels wider than a byte are in the host's byte order, as GL's
//! client data is (little-endian: the only targets Tessera supports), read and written with
//! `bytemuck`'s unaligned casts (client memory may lie anywhere).
//!
//! Everything here is a pure function over byte slices: no allocation beyond the result, no
//! panic on any input (short data is `None`).

use crate::format::{PixelFormat, PixelLayout, PixelType};

/// Four channels: R, G, B, A (or depth, stencil).
pub type Texel = [f64; 4];

/// Channels missing from client data read as these (GL's unpack defaults).
const DEFAULT: Texel = [0.0, 0.0, 0.0, 1.0];

/// Bytes per pixel of tightly packed client data.
pub fn pixel_size(format: PixelFormat, ty: PixelType) -> usize {
    use PixelFormat as F;
    use PixelType as T;
    let components = match format {
        F::Red | F::Green | F::Blue | F::RedInteger | F::GreenInteger | F::BlueInteger => 1,
        F::DepthComponent | F::StencilIndex => 1,
        F::Rg | F::RgInteger => 2,
        F::Rgb | F::Bgr | F::RgbInteger | F::BgrInteger => 3,
        F::Rgba | F::Bgra | F::RgbaInteger | F::BgraInteger => 4,
        F::DepthStencil => 1,
    };
    match ty {
        T::U8 | T::I8 => components,
        T::U16 | T::I16 | T::F16 => 2 * components,
        T::U32 | T::I32 | T::F32 => 4 * components,
        T::U8_332 | T::U8_233Rev => 1,
        T::U16_565
        | T::U16_565Rev
        | T::U16_4444
        | T::U16_4444Rev
        | T::U16_5551
        | T::U16_1555Rev => 2,
        T::U32_8888
        | T::U32_8888Rev
        | T::U32_1010102
        | T::U32_2101010Rev
        | T::U32_248
        | T::U32_10f11f11fRev
        | T::U32_5999Rev => 4,
        T::F32U32_248Rev => 8,
    }
}

/// For each component of a pixel format, in memory order, the channel it holds.
fn channels(format: PixelFormat) -> &'static [usize] {
    use PixelFormat as F;
    match format {
        F::Red | F::RedInteger | F::DepthComponent => &[0],
        F::Green | F::GreenInteger | F::StencilIndex => &[1],
        F::Blue | F::BlueInteger => &[2],
        F::Rg | F::RgInteger => &[0, 1],
        F::Rgb | F::RgbInteger => &[0, 1, 2],
        F::Bgr | F::BgrInteger => &[2, 1, 0],
        F::Rgba | F::RgbaInteger => &[0, 1, 2, 3],
        F::Bgra | F::BgraInteger => &[2, 1, 0, 3],
        F::DepthStencil => &[0, 1],
    }
}

/// Whether components are raw integers rather than normalized values.
fn is_integer(format: PixelFormat) -> bool {
    use PixelFormat as F;
    matches!(
        format,
        F::RedInteger
            | F::GreenInteger
            | F::BlueInteger
            | F::RgInteger
            | F::RgbInteger
            | F::BgrInteger
            | F::RgbaInteger
            | F::BgraInteger
            | F::StencilIndex
    )
}

/// Bit fields `(shift, bits)` of a packed type, in component order.
fn packed_fields(ty: PixelType) -> Option<&'static [(u32, u32)]> {
    use PixelType as T;
    Some(match ty {
        T::U8_332 => &[(5, 3), (2, 3), (0, 2)],
        T::U8_233Rev => &[(0, 3), (3, 3), (6, 2)],
        T::U16_565 => &[(11, 5), (5, 6), (0, 5)],
        T::U16_565Rev => &[(0, 5), (5, 6), (11, 5)],
        T::U16_4444 => &[(12, 4), (8, 4), (4, 4), (0, 4)],
        T::U16_4444Rev => &[(0, 4), (4, 4), (8, 4), (12, 4)],
        T::U16_5551 => &[(11, 5), (6, 5), (1, 5), (0, 1)],
        T::U16_1555Rev => &[(0, 5), (5, 5), (10, 5), (15, 1)],
        T::U32_8888 => &[(24, 8), (16, 8), (8, 8), (0, 8)],
        T::U32_8888Rev => &[(0, 8), (8, 8), (16, 8), (24, 8)],
        T::U32_1010102 => &[(22, 10), (12, 10), (2, 10), (0, 2)],
        T::U32_2101010Rev => &[(0, 10), (10, 10), (20, 10), (30, 2)],
        _ => return None,
    })
}

/// How one component of an unpacked type (one value per component) is stored.
#[derive(Clone, Copy)]
enum Component {
    /// An unsigned integer of `bytes` bytes.
    Unsigned { bytes: usize },
    /// A two's complement integer of `bytes` bytes.
    Signed { bytes: usize },
    /// IEEE half precision.
    Half,
    /// IEEE single precision.
    Float,
}

impl Component {
    fn of(ty: PixelType) -> Option<Self> {
        use PixelType as T;
        Some(match ty {
            T::U8 => Self::Unsigned { bytes: 1 },
            T::I8 => Self::Signed { bytes: 1 },
            T::U16 => Self::Unsigned { bytes: 2 },
            T::I16 => Self::Signed { bytes: 2 },
            T::U32 => Self::Unsigned { bytes: 4 },
            T::I32 => Self::Signed { bytes: 4 },
            T::F16 => Self::Half,
            T::F32 => Self::Float,
            _ => return None,
        })
    }

    fn bytes(self) -> usize {
        match self {
            Self::Unsigned { bytes } | Self::Signed { bytes } => bytes,
            Self::Half => 2,
            Self::Float => 4,
        }
    }

    /// The largest value of an integer component: what normalizes to 1.
    fn max(bytes: usize, signed: bool) -> f64 {
        let bits = 8 * bytes as u32 - u32::from(signed);
        ((1u64 << bits) - 1) as f64
    }

    /// The channel value of `raw`: as is for integer formats, else normalized.
    fn decode(self, raw: u64, integer: bool) -> f64 {
        match self {
            Self::Float => f64::from(f32::from_bits(raw as u32)),
            Self::Half => f64::from(half_to_f32(raw as u16)),
            Self::Unsigned { .. } if integer => raw as f64,
            Self::Unsigned { bytes } => normalize(raw as f64, Self::max(bytes, false)),
            Self::Signed { bytes } => {
                let bits = 8 * bytes as u32;
                let v = ((raw << (64 - bits)) as i64 >> (64 - bits)) as f64;
                // The most negative value reads -1 as well (GL's unpack rule).
                if integer {
                    v
                } else {
                    normalize(v, Self::max(bytes, true)).max(-1.0)
                }
            }
        }
    }

    /// The raw bits of index value `v`, its low bits as the component holds them (floats
    /// as they are).
    fn wrap(self, v: f64) -> u64 {
        match self {
            Self::Float | Self::Half => self.encode(v, true),
            Self::Unsigned { bytes } | Self::Signed { bytes } => {
                let mask = if bytes >= 8 {
                    u64::MAX
                } else {
                    (1u64 << (bytes * 8)) - 1
                };
                (v as i64 as u64) & mask
            }
        }
    }

    /// The raw bits of channel value `v`, clamped to what the component can hold.
    fn encode(self, v: f64, integer: bool) -> u64 {
        match self {
            Self::Float => u64::from((v as f32).to_bits()),
            Self::Half => u64::from(f32_to_half(v as f32)),
            Self::Unsigned { bytes } => {
                let max = Self::max(bytes, false);
                if integer {
                    v.clamp(0.0, max) as u64
                } else {
                    (v.clamp(0.0, 1.0) * max).round() as u64
                }
            }
            Self::Signed { bytes } => {
                let max = Self::max(bytes, true);
                let i = if integer {
                    v.clamp(-max - 1.0, max) as i64
                } else {
                    (v.clamp(-1.0, 1.0) * max).round() as i64
                };
                i as u64
            }
        }
    }
}

/// `x / max` as Mesa computes it (see the module's essay): the single-precision reciprocal
/// for components up to 16 bits, the exact quotient for 32-bit ones.
fn normalize(x: f64, max: f64) -> f64 {
    if max > f64::from(u16::MAX) {
        x / max
    } else {
        f64::from(x as f32 * (1.0 / max as f32))
    }
}

/// The unsigned integer of 1, 2, 4 or 8 bytes in `bytes` (every component and packed pixel
/// is one of these sizes; anything else reads 0), in the host's byte order as GL's client
/// data is: little-endian on every target Tessera supports. An unaligned read: client data
/// may lie anywhere.
fn read_uint(bytes: &[u8]) -> u64 {
    match bytes.len() {
        1 => u64::from(bytes[0]),
        2 => u64::from(bytemuck::pod_read_unaligned::<u16>(bytes)),
        4 => u64::from(bytemuck::pod_read_unaligned::<u32>(bytes)),
        8 => bytemuck::pod_read_unaligned::<u64>(bytes),
        _ => 0,
    }
}

/// Appends `v` as an unsigned integer of `size` (1, 2, 4 or 8) bytes, in the host's byte
/// order (see [`read_uint`]); other sizes append `size` zero bytes.
fn write_uint(out: &mut Vec<u8>, v: u64, size: usize) {
    match size {
        1 => out.push(v as u8),
        2 => out.extend_from_slice(bytemuck::bytes_of(&(v as u16))),
        4 => out.extend_from_slice(bytemuck::bytes_of(&(v as u32))),
        8 => out.extend_from_slice(bytemuck::bytes_of(&v)),
        _ => out.resize(out.len() + size, 0),
    }
}

/// The largest 24-bit depth value.
const DEPTH24_MAX: f64 = 16_777_215.0;

/// Decodes `count` pixels of tightly packed data of `layout`; `None` if `bytes` is short.
pub fn decode(layout: PixelLayout, bytes: &[u8], count: usize) -> Option<Vec<Texel>> {
    let size = pixel_size(layout.format, layout.ty);
    let bytes = bytes.get(..size.checked_mul(count)?)?;
    let chans = channels(layout.format);
    let integer = is_integer(layout.format);
    Some(
        bytes
            .chunks_exact(size)
            .map(|px| decode_pixel(layout.ty, chans, integer, px))
            .collect(),
    )
}

/// One pixel of `pixel_size` bytes.
fn decode_pixel(ty: PixelType, chans: &[usize], integer: bool, px: &[u8]) -> Texel {
    use PixelType as T;
    let mut t = DEFAULT;
    match ty {
        T::U32_248 => {
            let v = read_uint(px);
            t[0] = (v >> 8) as f64 / DEPTH24_MAX;
            t[1] = (v & 0xff) as f64;
        }
        T::F32U32_248Rev => {
            t[0] = f64::from(f32::from_bits(read_uint(&px[..4]) as u32));
            t[1] = (read_uint(&px[4..]) & 0xff) as f64;
        }
        T::U32_10f11f11fRev => {
            let v = read_uint(px) as u32;
            t[0] = f64::from(unsigned_small_float(v & 0x7ff, 6));
            t[1] = f64::from(unsigned_small_float((v >> 11) & 0x7ff, 6));
            t[2] = f64::from(unsigned_small_float(v >> 22, 5));
        }
        T::U32_5999Rev => {
            let v = read_uint(px) as u32;
            // A shared 5-bit exponent (bias 15) over three 9-bit mantissas.
            let scale = 2f64.powi((v >> 27) as i32 - 15 - 9);
            for (c, shift) in [(0, 0), (1, 9), (2, 18)] {
                t[c] = f64::from((v >> shift) & 0x1ff) * scale;
            }
        }
        _ => {
            if let Some(c) = Component::of(ty) {
                let n = c.bytes();
                for (i, &ch) in chans.iter().enumerate() {
                    t[ch] = c.decode(read_uint(&px[i * n..(i + 1) * n]), integer);
                }
            } else if let Some(fields) = packed_fields(ty) {
                let v = read_uint(px);
                for (&ch, &(shift, bits)) in chans.iter().zip(fields) {
                    let max = (1u64 << bits) - 1;
                    let raw = (v >> shift) & max;
                    t[ch] = if integer {
                        raw as f64
                    } else {
                        normalize(raw as f64, max as f64)
                    };
                }
            }
        }
    }
    t
}

/// Encodes texels as tightly packed data of `layout`.
pub fn encode(layout: PixelLayout, texels: &[Texel]) -> Vec<u8> {
    let size = pixel_size(layout.format, layout.ty);
    let chans = channels(layout.format);
    let integer = is_integer(layout.format);
    let mut out = Vec::with_capacity(size * texels.len());
    if layout.format == PixelFormat::StencilIndex
        && let Some(c) = Component::of(layout.ty)
    {
        // Stencil indices are masked to the component, not clamped (GL 4.6 §8.4.4.3 and
        // §18.2.8; Mesa casts them): 300 stored in 8 bits is 44.
        for t in texels {
            write_uint(&mut out, c.wrap(t[1]), c.bytes());
        }
        return out;
    }
    for t in texels {
        encode_pixel(layout.ty, size, chans, integer, t, &mut out);
    }
    out
}

/// Appends one pixel of `size` bytes.
fn encode_pixel(
    ty: PixelType,
    size: usize,
    chans: &[usize],
    integer: bool,
    t: &Texel,
    out: &mut Vec<u8>,
) {
    use PixelType as T;
    match ty {
        T::U32_248 => {
            let d = (t[0].clamp(0.0, 1.0) * DEPTH24_MAX).round() as u64;
            let s = t[1].clamp(0.0, 255.0) as u64;
            write_uint(out, (d << 8) | s, 4);
        }
        T::F32U32_248Rev => {
            write_uint(out, u64::from((t[0] as f32).to_bits()), 4);
            write_uint(out, t[1].clamp(0.0, 255.0) as u64, 4);
        }
        T::U32_10f11f11fRev => {
            let r = f32_to_unsigned_small_float(t[0] as f32, 6);
            let g = f32_to_unsigned_small_float(t[1] as f32, 6);
            let b = f32_to_unsigned_small_float(t[2] as f32, 5);
            write_uint(out, u64::from(r | (g << 11) | (b << 22)), 4);
        }
        T::U32_5999Rev => write_uint(out, u64::from(encode_rgb9e5(t)), 4),
        _ => {
            if let Some(c) = Component::of(ty) {
                for &ch in chans {
                    write_uint(out, c.encode(t[ch], integer), c.bytes());
                }
            } else if let Some(fields) = packed_fields(ty) {
                let mut v = 0u64;
                for (&ch, &(shift, bits)) in chans.iter().zip(fields) {
                    let max = (1u64 << bits) - 1;
                    let raw = if integer {
                        t[ch].clamp(0.0, max as f64) as u64
                    } else {
                        (t[ch].clamp(0.0, 1.0) * max as f64).round() as u64
                    };
                    v |= raw << shift;
                }
                write_uint(out, v, size);
            }
        }
    }
}

/// Swaps the first and third byte of every 4-byte pixel (RGBA8 <-> BGRA8), in place. The
/// aligned middle is done a 32-bit word at a time, which the compiler vectorizes (a
/// 1280x720 frame each swap: byte swaps cost about a quarter of a client-presented frame).
fn swap_red_blue(bytes: &mut [u8]) {
    let (head, words, tail) = bytemuck::pod_align_to_mut::<u8, u32>(bytes);
    if !head.is_empty() {
        // A buffer not 4-aligned: its pixels straddle the words, so byte by byte.
        bytes.chunks_exact_mut(4).for_each(|px| px.swap(0, 2));
        return;
    }
    for w in words.iter_mut() {
        let v = u32::from_le(*w);
        *w = u32::to_le((v & 0xff00_ff00) | ((v >> 16) & 0xff) | ((v & 0xff) << 16));
    }
    tail.chunks_exact_mut(4).for_each(|px| px.swap(0, 2));
}

/// Converts `count` pixels from one layout to another; `None` if `bytes` is short.
pub fn convert(from: PixelLayout, to: PixelLayout, bytes: &[u8], count: usize) -> Option<Vec<u8>> {
    let in_size = pixel_size(from.format, from.ty);
    let input = bytes.get(..in_size.checked_mul(count)?)?;
    if from == to {
        return Some(input.to_vec());
    }
    // RGBA8 <-> BGRA8 (every frame a window shows): a byte swizzle, exact, without the
    // texel round trip.
    let rgba8 = |l: PixelLayout| {
        l.ty == PixelType::U8 && matches!(l.format, PixelFormat::Rgba | PixelFormat::Bgra)
    };
    if rgba8(from) && rgba8(to) {
        let mut out = input.to_vec();
        swap_red_blue(&mut out);
        return Some(out);
    }
    // In chunks, so that the intermediate texels stay small whatever the image size.
    const CHUNK: usize = 4096;
    let mut out = Vec::with_capacity(pixel_size(to.format, to.ty) * count);
    for part in input.chunks(in_size * CHUNK) {
        out.extend_from_slice(&encode(to, &decode(from, part, part.len() / in_size)?));
    }
    Some(out)
}

/// `pattern` repeated from its start over `len` bytes (the last repetition cut short where
/// `len` is not a multiple of it; nothing for an empty pattern): a buffer clear's contents.
pub fn repeat_pattern(pattern: &[u8], len: u64) -> Vec<u8> {
    if pattern.is_empty() {
        return Vec::new();
    }
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    pattern.iter().copied().cycle().take(len).collect()
}

/// [`convert`] of bytes the caller owns: the same buffer comes back when the layouts are
/// equal or differ by the RGBA8 / BGRA8 swizzle (done in place), so a read-back the size of
/// a window makes no second allocation.
pub fn convert_owned(
    from: PixelLayout,
    to: PixelLayout,
    mut bytes: Vec<u8>,
    count: usize,
) -> Option<Vec<u8>> {
    let rgba8 = |l: PixelLayout| {
        l.ty == PixelType::U8 && matches!(l.format, PixelFormat::Rgba | PixelFormat::Bgra)
    };
    let len = pixel_size(from.format, from.ty).checked_mul(count)?;
    if bytes.len() < len {
        return None;
    }
    if from == to || (rgba8(from) && rgba8(to)) {
        bytes.truncate(len);
        if from != to {
            swap_red_blue(&mut bytes);
        }
        return Some(bytes);
    }
    convert(from, to, &bytes, count)
}

/// IEEE half to single precision (exact).
pub fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let mant = u32::from(h & 0x3ff);
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: normalise.
            let shift = m.leading_zeros() - 21;
            sign | ((127 - 15 + 1 - shift) << 23) | (((m << shift) & 0x3ff) << 13)
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// Single to IEEE half precision, rounding to nearest even; NaN stays NaN, overflow is
/// infinity.
pub fn f32_to_half(f: f32) -> u16 {
    let bits = f.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    // `v` truncated, `rest` the dropped bits, `half` their midpoint: to nearest, ties to even.
    let round = |v: u32, rest: u32, half: u32| {
        if rest > half || (rest == half && v & 1 == 1) {
            v + 1
        } else {
            v
        }
    };
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        return sign | round(m >> shift, m & ((1 << shift) - 1), 1 << (shift - 1)) as u16;
    }
    sign | round(((e as u32) << 10) | (mant >> 13), mant & 0x1fff, 0x1000) as u16
}

/// The three floats of an `UNSIGNED_INT_10F_11F_11F_REV` word: 11-bit red in bits 0-10,
/// 11-bit green in 11-21, 10-bit blue in 22-31 (GL 4.4 §8.4.4.2), as vertex arrays of the
/// type fetch them: a NaN keeps its mantissa at the top of the float's (as llvmpipe's and
/// lavapipe's vertex fetch give it), where `unsigned_small_float` gives the canonical NaN.
pub fn unpack_10f_11f_11f(v: u32) -> [f32; 3] {
    let one = |bits: u32, mant_bits: u32| {
        let mant = bits & ((1 << mant_bits) - 1);
        if bits >> mant_bits == 31 && mant != 0 {
            f32::from_bits(0x7f80_0000 | mant << (23 - mant_bits))
        } else {
            unsigned_small_float(bits, mant_bits)
        }
    };
    [
        one(v & 0x7ff, 6),
        one((v >> 11) & 0x7ff, 6),
        one(v >> 22, 5),
    ]
}

/// Decodes an unsigned float with a 5-bit exponent and `mant_bits` of mantissa (the 11- and
/// 10-bit floats of `R11F_G11F_B10F`).
fn unsigned_small_float(v: u32, mant_bits: u32) -> f32 {
    let exp = v >> mant_bits;
    let mant = v & ((1 << mant_bits) - 1);
    let m = mant as f32 / (1 << mant_bits) as f32;
    match exp {
        0 => m * 2f32.powi(-14),
        31 if mant == 0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + m) * 2f32.powi(e as i32 - 15),
    }
}

/// Encodes an unsigned float with a 5-bit exponent and `mant_bits` of mantissa: negatives
/// are 0, overflow the largest finite value.
fn f32_to_unsigned_small_float(f: f32, mant_bits: u32) -> u32 {
    if f.is_nan() {
        return (31 << mant_bits) | 1;
    }
    if f <= 0.0 {
        return 0;
    }
    // Through half precision (same exponent range), then drop mantissa bits with rounding.
    let h = u32::from(f32_to_half(f)) & 0x7fff;
    if h >= 0x7c00 {
        return 31 << mant_bits;
    }
    let drop = 10 - mant_bits;
    ((h + (1 << (drop - 1))) >> drop).min((31 << mant_bits) - 1)
}

/// `RGB9_E5` of the first three channels: EXT_texture_shared_exponent's reference encoder.
fn encode_rgb9e5(t: &Texel) -> u32 {
    let c = [0, 1, 2].map(|i| t[i].clamp(0.0, 65408.0));
    let max = c[0].max(c[1]).max(c[2]);
    let mut exp = (max.log2().floor() as i32).max(-16) + 1 + 15;
    let mut denom = 2f64.powi(exp - 15 - 9);
    if (max / denom + 0.5).floor() as u32 == 512 {
        exp += 1;
        denom *= 2.0;
    }
    let q = c.map(|v| (v / denom + 0.5).floor() as u32 & 0x1ff);
    (exp.clamp(0, 31) as u32) << 27 | q[2] << 18 | q[1] << 9 | q[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use PixelFormat as F;
    use PixelType as T;

    fn layout(format: PixelFormat, ty: PixelType) -> PixelLayout {
        PixelLayout { format, ty }
    }

    /// The bits of channel 0 of one pixel read back as single-precision float.
    fn as_f32_bits(from: PixelLayout, bytes: &[u8]) -> u32 {
        let out = convert(from, layout(F::Red, T::F32), bytes, 1).unwrap();
        bytemuck::pod_read_unaligned(&out[..4])
    }

    #[test]
    fn sizes() {
        assert_eq!(pixel_size(F::Rgba, T::U8), 4);
        assert_eq!(pixel_size(F::Rgb, T::F32), 12);
        assert_eq!(pixel_size(F::Rgb, T::U16_565), 2);
        assert_eq!(pixel_size(F::DepthStencil, T::F32U32_248Rev), 8);
    }

    #[test]
    fn bgra_and_rgb_expand_to_rgba() {
        let out = convert(
            layout(F::Bgra, T::U8),
            layout(F::Rgba, T::U8),
            &[1, 2, 3, 4],
            1,
        );
        assert_eq!(out.unwrap(), vec![3, 2, 1, 4]);
        let out = convert(layout(F::Rgb, T::U8), layout(F::Rgba, T::U8), &[1, 2, 3], 1);
        assert_eq!(out.unwrap(), vec![1, 2, 3, 255]);
    }

    #[test]
    fn short_data_is_refused() {
        assert_eq!(decode(layout(F::Rgba, T::U8), &[1, 2, 3], 1), None);
        let rgba = layout(F::Rgba, T::U8);
        assert_eq!(convert(rgba, rgba, &[0; 7], 2), None);
        assert_eq!(convert(rgba, rgba, &[0; 9], 2).unwrap().len(), 8);
    }

    #[test]
    fn packed_565_round_trips_through_rgba8() {
        // Pure red, green and blue in 5-6-5, as RGBA8: exact endpoints.
        let src = bytemuck::cast_slice::<u16, u8>(&[0xf800, 0x07e0, 0x001f]).to_vec();
        let rgba = convert(layout(F::Rgb, T::U16_565), layout(F::Rgba, T::U8), &src, 3).unwrap();
        assert_eq!(rgba, vec![255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255]);
        let back = convert(layout(F::Rgba, T::U8), layout(F::Rgb, T::U16_565), &rgba, 3).unwrap();
        assert_eq!(back, src);
    }

    #[test]
    fn normalized_and_integer_rules() {
        // Signed bytes: -128 clamps to -1, as GL's unpack rule says.
        let t = decode(layout(F::Red, T::I8), &[0x80, 0x7f], 2).unwrap();
        assert_eq!((t[0][0], t[1][0]), (-1.0, 1.0));
        // Integer formats keep raw values; missing alpha reads 1.
        let t = decode(layout(F::RgInteger, T::I16), &[0xff, 0xff, 7, 0], 1).unwrap();
        assert_eq!(t[0], [-1.0, 7.0, 0.0, 1.0]);
        // Encoding clamps to the type.
        let bytes = encode(layout(F::RedInteger, T::U8), &[[300.0, 0.0, 0.0, 1.0]]);
        assert_eq!(bytes, vec![255]);
        let bytes = encode(layout(F::Red, T::I16), &[[-2.0, 0.0, 0.0, 1.0]]);
        assert_eq!(bytes, (-32767i16).to_le_bytes());
    }

    #[test]
    fn normalization_matches_mesa_bit_for_bit() {
        // Values read back from Mesa llvmpipe (R32F image uploaded as RED/UNSIGNED_BYTE and
        // RED/BYTE, read as FLOAT); the exact quotients are one unit in the last place off.
        assert_eq!(as_f32_bits(layout(F::Red, T::U8), &[200]), 0x3f48_c8ca);
        assert_eq!(as_f32_bits(layout(F::Red, T::U8), &[8]), 0x3d00_8081);
        assert_eq!(as_f32_bits(layout(F::Red, T::I8), &[9]), 0x3d91_2244);
        assert_eq!(
            as_f32_bits(layout(F::Red, T::I8), &[(-104i8) as u8]),
            0xbf51_a346
        );
        // 32-bit components: the exact quotient.
        let t = decode(layout(F::Red, T::U32), &u32::MAX.to_le_bytes(), 1).unwrap();
        assert_eq!(t[0][0], 1.0);
    }

    #[test]
    fn half_floats_round_trip() {
        for v in [
            0.0f32,
            1.0,
            -2.5,
            0.333_251_95,
            65504.0,
            6.1035156e-5,
            5.9604645e-8,
        ] {
            assert_eq!(half_to_f32(f32_to_half(v)), v, "{v}");
        }
        assert_eq!(f32_to_half(1.0), 0x3c00);
        assert_eq!(f32_to_half(1.0e6), 0x7c00, "overflow is infinity");
        assert!(half_to_f32(f32_to_half(f32::NAN)).is_nan());
    }

    #[test]
    fn stencil_indices_keep_their_low_bits() {
        use PixelFormat as F;
        use PixelType as T;
        let texels = [
            [0.0, 300.0, 0.0, 1.0],
            [0.0, 255.0, 0.0, 1.0],
            [0.0, 200.0, 0.0, 1.0],
        ];
        assert_eq!(
            encode(layout(F::StencilIndex, T::U8), &texels),
            [44, 255, 200]
        );
        let shorts = encode(layout(F::StencilIndex, T::I16), &texels);
        assert_eq!(shorts, [44, 1, 255, 0, 200, 0]);
        let floats = encode(layout(F::StencilIndex, T::F32), &texels[..1]);
        assert_eq!(floats, 300.0f32.to_le_bytes());
    }

    #[test]
    fn small_and_shared_exponent_floats_round_trip() {
        let rgb = [[1.0, 2.0, 0.5, 1.0], [0.25, 0.0, 3.0, 1.0]];
        for ty in [T::U32_10f11f11fRev, T::U32_5999Rev] {
            let l = layout(F::Rgb, ty);
            let back = decode(l, &encode(l, &rgb), 2).unwrap();
            assert_eq!(back, rgb, "{ty:?}");
        }
        // Negative values have no unsigned float: 0; the largest 11-bit float survives.
        let l = layout(F::Rgb, T::U32_10f11f11fRev);
        assert_eq!(encode(l, &[[-1.0, 0.0, 0.0, 1.0]]), [0; 4]);
        let big = [[65024.0, 65024.0, 0.0, 1.0]];
        assert_eq!(decode(l, &encode(l, &big), 1).unwrap(), big);
    }

    #[test]
    fn depth_stencil_packs() {
        let t = decode(
            layout(F::DepthStencil, T::U32_248),
            &0xffff_ff05u32.to_le_bytes(),
            1,
        );
        assert_eq!(t.unwrap()[0][..2], [1.0, 5.0]);
        let b = encode(
            layout(F::DepthStencil, T::F32U32_248Rev),
            &[[0.5, 9.0, 0.0, 0.0]],
        );
        assert_eq!(b, [0.5f32.to_le_bytes(), 9u32.to_le_bytes()].concat());
    }
}

#[cfg(test)]
mod swizzle_tests {
    use super::*;

    #[test]
    fn the_rgba_bgra_swizzle_gives_what_the_texel_path_gives() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(4 * 1000).collect();
        let rgba = PixelLayout {
            format: PixelFormat::Rgba,
            ty: PixelType::U8,
        };
        let bgra = PixelLayout {
            format: PixelFormat::Bgra,
            ty: PixelType::U8,
        };
        for (from, to) in [(rgba, bgra), (bgra, rgba)] {
            let slow = encode(to, &decode(from, &bytes, 1000).unwrap());
            assert_eq!(convert(from, to, &bytes, 1000).unwrap(), slow);
            assert_eq!(convert_owned(from, to, bytes.clone(), 1000).unwrap(), slow);
        }
        // Word at a time where the pixels are 4-aligned, byte at a time where they are not.
        for offset in 0..4 {
            let mut buffer = vec![0u8; offset + bytes.len()];
            buffer[offset..].copy_from_slice(&bytes);
            swap_red_blue(&mut buffer[offset..]);
            assert_eq!(
                buffer[offset..],
                encode(bgra, &decode(rgba, &bytes, 1000).unwrap())[..],
                "offset {offset}"
            );
        }
    }
}

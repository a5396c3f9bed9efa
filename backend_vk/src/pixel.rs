//! CPU pixel conversion between client layouts and the memory layout of the native image
//! format (uploads in a layout the image does not have, read-backs in a layout the client
//! asked for), and the buffer layouts of depth and stencil aspects.
//!
//! Every conversion goes through a texel of four `f64` channels: normalized data as its real
//! value, integer data (`*_INTEGER`, stencil) as its raw value, floats as they are; depth is
//! channel 0 and stencil channel 1. `f64` holds every 32-bit integer and `f32` exactly, so a
//! round trip through one layout is the identity, and conversions follow GL's unpack and pack
//! rules (normalize, clamp, round to nearest).
//!
//! The GLES backend has the same conversions (`backend_gles/src/pixel.rs`); the two backends
//! must not depend on each other, so the shared table belongs in `tessera-wire` (noted for
//! the lead). This one is kept to what the Vulkan backend needs.

use tessera_wire::format::{PixelFormat, PixelLayout, PixelType};
use tessera_wire::null::pixel_size;

use crate::conv::DepthLayout;

/// Four channels: R, G, B, A (or depth, stencil).
pub(crate) type Texel = [f64; 4];

/// Channels missing from client data read as these (GL's unpack defaults).
const DEFAULT: Texel = [0.0, 0.0, 0.0, 1.0];

/// The channel each component of a pixel format holds, in memory order.
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
fn packed(ty: PixelType) -> Option<&'static [(u32, u32)]> {
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

fn read_le(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .enumerate()
        .fold(0, |v, (i, b)| v | u64::from(*b) << (8 * i))
}

/// (size in bytes, maximum) of one component of an unpacked type.
fn component(ty: PixelType) -> (usize, f64, bool) {
    use PixelType as T;
    match ty {
        T::U8 => (1, 255.0, false),
        T::I8 => (1, 127.0, true),
        T::U16 => (2, 65535.0, false),
        T::I16 => (2, 32767.0, true),
        T::U32 => (4, 4_294_967_295.0, false),
        T::I32 => (4, 2_147_483_647.0, true),
        T::F16 => (2, 0.0, false),
        _ => (4, 0.0, false),
    }
}

/// A normalized value as Mesa computes it (`x * (1.0f / max)` in single precision), so
/// that float read-backs of normalized images match the native driver bit for bit; 32-bit
/// values keep double precision (single precision cannot hold them).
fn unorm(v: f64, max: f64) -> f64 {
    if max > 65535.0 {
        v / max
    } else {
        f64::from(v as f32 * (1.0 / max as f32))
    }
}

/// Decodes `count` pixels of tightly packed data; `None` if `bytes` is short.
pub(crate) fn decode(layout: PixelLayout, bytes: &[u8], count: usize) -> Option<Vec<Texel>> {
    use PixelType as T;
    let size = pixel_size(layout.format, layout.ty);
    let bytes = bytes.get(..size.checked_mul(count)?)?;
    let chans = channels(layout.format);
    let integer = is_integer(layout.format);
    let mut out = Vec::with_capacity(count);
    for px in bytes.chunks_exact(size) {
        let mut t = DEFAULT;
        match layout.ty {
            T::U8 | T::I8 | T::U16 | T::I16 | T::U32 | T::I32 | T::F16 | T::F32 => {
                let (csize, max, signed) = component(layout.ty);
                for (i, &ch) in chans.iter().enumerate() {
                    let raw = read_le(&px[i * csize..(i + 1) * csize]);
                    t[ch] = match layout.ty {
                        T::F32 => f64::from(f32::from_bits(raw as u32)),
                        T::F16 => f64::from(half_to_f32(raw as u16)),
                        _ => {
                            let bits = 8 * csize as u32;
                            let v = if signed {
                                ((raw << (64 - bits)) as i64 >> (64 - bits)) as f64
                            } else {
                                raw as f64
                            };
                            if integer { v } else { unorm(v, max).max(-1.0) }
                        }
                    };
                }
            }
            T::U32_248 => {
                let v = read_le(px);
                t[0] = (v >> 8) as f64 / f64::from(0xff_ffffu32);
                t[1] = (v & 0xff) as f64;
            }
            T::F32U32_248Rev => {
                t[0] = f64::from(f32::from_bits(read_le(&px[..4]) as u32));
                t[1] = (read_le(&px[4..8]) & 0xff) as f64;
            }
            T::U32_10f11f11fRev => {
                let v = read_le(px) as u32;
                t[0] = f64::from(small_float(v & 0x7ff, 6));
                t[1] = f64::from(small_float((v >> 11) & 0x7ff, 6));
                t[2] = f64::from(small_float(v >> 22, 5));
            }
            T::U32_5999Rev => {
                let v = read_le(px) as u32;
                let scale = 2f64.powi((v >> 27) as i32 - 24);
                for (c, shift) in [(0, 0), (1, 9), (2, 18)] {
                    t[c] = f64::from((v >> shift) & 0x1ff) * scale;
                }
            }
            _ => {
                let fields = packed(layout.ty)?;
                let v = read_le(px);
                for (&ch, &(shift, bits)) in chans.iter().zip(fields) {
                    let max = (1u64 << bits) - 1;
                    let raw = ((v >> shift) & max) as f64;
                    t[ch] = if integer { raw } else { unorm(raw, max as f64) };
                }
            }
        }
        out.push(t);
    }
    Some(out)
}

/// Encodes texels as tightly packed data of `layout`.
pub(crate) fn encode(layout: PixelLayout, texels: &[Texel]) -> Vec<u8> {
    use PixelType as T;
    let size = pixel_size(layout.format, layout.ty);
    let chans = channels(layout.format);
    let integer = is_integer(layout.format);
    let mut out = Vec::with_capacity(size * texels.len());
    let put = |out: &mut Vec<u8>, v: u64, n: usize| out.extend_from_slice(&v.to_le_bytes()[..n]);
    for t in texels {
        match layout.ty {
            T::U8 | T::I8 | T::U16 | T::I16 | T::U32 | T::I32 | T::F16 | T::F32 => {
                let (csize, max, signed) = component(layout.ty);
                for &ch in chans {
                    let v = t[ch];
                    let raw = match layout.ty {
                        T::F32 => u64::from((v as f32).to_bits()),
                        T::F16 => u64::from(f32_to_half(v as f32)),
                        _ if signed => {
                            let i = if integer {
                                v.clamp(-max - 1.0, max) as i64
                            } else {
                                (v.clamp(-1.0, 1.0) * max).round() as i64
                            };
                            i as u64
                        }
                        _ if integer => v.clamp(0.0, max) as u64,
                        _ => (v.clamp(0.0, 1.0) * max).round() as u64,
                    };
                    put(&mut out, raw, csize);
                }
            }
            T::U32_248 => {
                let d = (t[0].clamp(0.0, 1.0) * f64::from(0xff_ffffu32)).round() as u64;
                put(&mut out, d << 8 | t[1].clamp(0.0, 255.0) as u64, 4);
            }
            T::F32U32_248Rev => {
                put(&mut out, u64::from((t[0] as f32).to_bits()), 4);
                put(&mut out, t[1].clamp(0.0, 255.0) as u64, 4);
            }
            T::U32_10f11f11fRev => {
                let r = to_small_float(t[0] as f32, 6);
                let g = to_small_float(t[1] as f32, 6);
                let b = to_small_float(t[2] as f32, 5);
                put(&mut out, u64::from(r | g << 11 | b << 22), 4);
            }
            T::U32_5999Rev => put(&mut out, u64::from(encode_rgb9e5(t)), 4),
            _ => {
                let Some(fields) = packed(layout.ty) else {
                    continue;
                };
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
                put(&mut out, v, size);
            }
        }
    }
    out
}

/// Converts `count` pixels from one layout to another; `None` if `bytes` is short.
pub(crate) fn convert(
    from: PixelLayout,
    to: PixelLayout,
    bytes: &[u8],
    count: usize,
) -> Option<Vec<u8>> {
    let in_size = pixel_size(from.format, from.ty);
    let input = bytes.get(..in_size.checked_mul(count)?)?;
    if from == to {
        return Some(input.to_vec());
    }
    // In chunks, so that the intermediate texels stay small whatever the image size.
    const CHUNK: usize = 4096;
    let mut out = Vec::with_capacity(pixel_size(to.format, to.ty) * count);
    for part in input.chunks(in_size * CHUNK) {
        out.extend_from_slice(&encode(to, &decode(from, part, part.len() / in_size)?));
    }
    Some(out)
}

/// Depth values of texels (channel 0) in a depth aspect's buffer layout.
pub(crate) fn encode_depth(layout: DepthLayout, texels: &[Texel]) -> Vec<u8> {
    let mut out = Vec::with_capacity(texels.len() * 4);
    for t in texels {
        let d = t[0];
        match layout {
            DepthLayout::Unorm16 => {
                out.extend_from_slice(&((d.clamp(0.0, 1.0) * 65535.0).round() as u16).to_le_bytes())
            }
            DepthLayout::Unorm24 => out.extend_from_slice(
                &((d.clamp(0.0, 1.0) * f64::from(0xff_ffffu32)).round() as u32).to_le_bytes(),
            ),
            DepthLayout::Float32 => out.extend_from_slice(&(d as f32).to_le_bytes()),
        }
    }
    out
}

/// Reads a depth aspect's buffer into channel 0 of `texels`.
pub(crate) fn decode_depth(layout: DepthLayout, bytes: &[u8], texels: &mut [Texel]) {
    let size = if layout == DepthLayout::Unorm16 { 2 } else { 4 };
    for (t, px) in texels.iter_mut().zip(bytes.chunks_exact(size)) {
        let v = read_le(px);
        t[0] = match layout {
            DepthLayout::Unorm16 => v as f64 / 65535.0,
            DepthLayout::Unorm24 => (v & 0xff_ffff) as f64 / f64::from(0xff_ffffu32),
            DepthLayout::Float32 => f64::from(f32::from_bits(v as u32)),
        };
    }
}

/// IEEE half to single precision.
pub(crate) fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let mant = u32::from(h & 0x3ff);
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            let shift = m.leading_zeros() - 21;
            sign | ((127 - 15 + 1 - shift) << 23) | (((m << shift) & 0x3ff) << 13)
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// Single to IEEE half precision, rounding to nearest even.
pub(crate) fn f32_to_half(f: f32) -> u16 {
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

/// An unsigned float with a 5-bit exponent and `mant_bits` of mantissa.
fn small_float(v: u32, mant_bits: u32) -> f32 {
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

fn to_small_float(f: f32, mant_bits: u32) -> u32 {
    if f.is_nan() {
        return (31 << mant_bits) | 1;
    }
    if f <= 0.0 {
        return 0;
    }
    let h = u32::from(f32_to_half(f)) & 0x7fff;
    if h >= 0x7c00 {
        return 31 << mant_bits;
    }
    let drop = 10 - mant_bits;
    ((h + (1 << (drop - 1))) >> drop).min((31 << mant_bits) - 1)
}

fn encode_rgb9e5(t: &Texel) -> u32 {
    // EXT_texture_shared_exponent's reference encoder.
    let c = [0, 1, 2].map(|i| t[i].clamp(0.0, 65408.0));
    let max = c[0].max(c[1]).max(c[2]);
    let mut exp = (max.log2().floor() as i32).max(-16) + 16;
    let mut denom = 2f64.powi(exp - 24);
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

    fn lay(format: PixelFormat, ty: PixelType) -> PixelLayout {
        PixelLayout { format, ty }
    }

    #[test]
    fn bgra_and_rgb_expand_to_rgba() {
        let out = convert(lay(F::Bgra, T::U8), lay(F::Rgba, T::U8), &[1, 2, 3, 4], 1);
        assert_eq!(out.unwrap(), vec![3, 2, 1, 4]);
        let out = convert(lay(F::Rgb, T::U8), lay(F::Rgba, T::U8), &[1, 2, 3], 1);
        assert_eq!(out.unwrap(), vec![1, 2, 3, 255]);
    }

    #[test]
    fn packed_565_round_trips() {
        let src: Vec<u8> = [0xf800u16, 0x07e0, 0x001f]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let rgba = convert(lay(F::Rgb, T::U16_565), lay(F::Rgba, T::U8), &src, 3).unwrap();
        assert_eq!(rgba, vec![255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255]);
        let back = convert(lay(F::Rgba, T::U8), lay(F::Rgb, T::U16_565), &rgba, 3).unwrap();
        assert_eq!(back, src);
    }

    #[test]
    fn integers_and_signed_normalized() {
        let t = decode(lay(F::Red, T::I8), &[0x80, 0x7f], 2).unwrap();
        assert_eq!((t[0][0], t[1][0]), (-1.0, 1.0));
        let bytes = encode(lay(F::RedInteger, T::U8), &[[300.0, 0.0, 0.0, 1.0]]);
        assert_eq!(bytes, vec![255]);
    }

    #[test]
    fn halves_and_depth() {
        for v in [0.0f32, 1.0, -2.5, 65504.0, 6.1035156e-5] {
            assert_eq!(half_to_f32(f32_to_half(v)), v);
        }
        let mut t = [[0.0; 4]; 1];
        decode_depth(DepthLayout::Unorm24, &0xff00_0000u32.to_le_bytes(), &mut t);
        assert_eq!(t[0][0], 0.0, "the X8 bits are not depth");
        assert_eq!(
            encode_depth(DepthLayout::Unorm24, &[[1.0, 0.0, 0.0, 0.0]]),
            0x00ff_ffffu32.to_le_bytes()
        );
    }
}

//! CPU pixel conversion: client layouts GLES cannot take (BGRA orders, packed types it
//! lacks, formats the backend upgraded) and read-backs in layouts GLES cannot produce.
//!
//! Every conversion goes through one intermediate: a [`Texel`] of four `f64` channels.
//! Normalized (fixed-point) data is held as its real value in `[0, 1]` or `[-1, 1]`, integer
//! data (`*_INTEGER` formats, stencil) as its raw value, floats as they are; depth is channel
//! 0 and stencil channel 1. `f64` holds every 32-bit integer and every `f32` exactly, so a
//! round trip through the same layout is the identity, and a conversion follows GL's unpack
//! and pack rules (normalize, clamp, round to nearest).
//!
//! Nothing here touches GL; these are pure functions over byte slices, as `conv.rs`'s maps.

use tessera_wire::format::{PixelFormat, PixelLayout, PixelType};
use tessera_wire::null::pixel_size;

/// Four channels: R, G, B, A (or depth, stencil).
pub(crate) type Texel = [f64; 4];

/// Channels missing from client data read as these (GL's unpack defaults).
const DEFAULT: Texel = [0.0, 0.0, 0.0, 1.0];

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

fn read_uint(bytes: &[u8], size: usize) -> u64 {
    let mut v = 0u64;
    for (i, b) in bytes[..size].iter().enumerate() {
        v |= u64::from(*b) << (8 * i);
    }
    v
}

fn write_uint(out: &mut Vec<u8>, v: u64, size: usize) {
    out.extend_from_slice(&v.to_le_bytes()[..size]);
}

/// Decodes `count` pixels of tightly packed client data; `None` if `bytes` is short.
pub(crate) fn decode(layout: PixelLayout, bytes: &[u8], count: usize) -> Option<Vec<Texel>> {
    let size = pixel_size(layout.format, layout.ty);
    if bytes.len() < size.checked_mul(count)? {
        return None;
    }
    let chans = channels(layout.format);
    let integer = is_integer(layout.format);
    let mut out = Vec::with_capacity(count);
    for px in bytes.chunks_exact(size).take(count) {
        let mut t = DEFAULT;
        decode_pixel(layout, chans, integer, px, &mut t);
        out.push(t);
    }
    Some(out)
}

fn decode_pixel(layout: PixelLayout, chans: &[usize], integer: bool, px: &[u8], t: &mut Texel) {
    use PixelType as T;
    match layout.ty {
        T::U8 | T::I8 | T::U16 | T::I16 | T::U32 | T::I32 | T::F16 | T::F32 => {
            let csize = pixel_size(PixelFormat::Red, layout.ty);
            for (i, &ch) in chans.iter().enumerate() {
                let raw = read_uint(&px[i * csize..], csize);
                t[ch] = scalar(layout.ty, raw, integer);
            }
        }
        T::U32_248 => {
            let v = read_uint(px, 4);
            t[0] = (v >> 8) as f64 / f64::from((1u32 << 24) - 1);
            t[1] = (v & 0xff) as f64;
        }
        T::F32U32_248Rev => {
            t[0] = f64::from(f32::from_bits(read_uint(px, 4) as u32));
            t[1] = (read_uint(&px[4..], 4) & 0xff) as f64;
        }
        T::U32_10f11f11fRev => {
            let v = read_uint(px, 4) as u32;
            t[0] = f64::from(unsigned_small_float(v & 0x7ff, 6));
            t[1] = f64::from(unsigned_small_float((v >> 11) & 0x7ff, 6));
            t[2] = f64::from(unsigned_small_float(v >> 22, 5));
        }
        T::U32_5999Rev => {
            let v = read_uint(px, 4) as u32;
            let exp = (v >> 27) as i32 - 15 - 9;
            let scale = 2f64.powi(exp);
            t[0] = f64::from(v & 0x1ff) * scale;
            t[1] = f64::from((v >> 9) & 0x1ff) * scale;
            t[2] = f64::from((v >> 18) & 0x1ff) * scale;
        }
        _ => {
            let Some(fields) = packed_fields(layout.ty) else {
                return;
            };
            let v = read_uint(px, px.len());
            for (&ch, &(shift, bits)) in chans.iter().zip(fields) {
                let max = (1u64 << bits) - 1;
                let raw = (v >> shift) & max;
                t[ch] = if integer {
                    raw as f64
                } else {
                    unorm_to_float(raw, max as f64)
                };
            }
        }
    }
}

/// One component of an unpacked type: raw for integer formats, else normalized.
fn scalar(ty: PixelType, raw: u64, integer: bool) -> f64 {
    use PixelType as T;
    match ty {
        T::F32 => f64::from(f32::from_bits(raw as u32)),
        T::F16 => f64::from(half_to_f32(raw as u16)),
        T::U8 | T::U16 | T::U32 => {
            if integer {
                raw as f64
            } else {
                unorm_to_float(raw, unsigned_max(ty))
            }
        }
        T::I8 | T::I16 | T::I32 => {
            let bits = 8 * pixel_size(PixelFormat::Red, ty) as u32;
            let v = ((raw << (64 - bits)) as i64 >> (64 - bits)) as f64;
            if integer {
                v
            } else {
                (v / signed_max(ty)).max(-1.0)
            }
        }
        _ => 0.0,
    }
}

/// A normalized unsigned value `raw / max` as GL drivers compute it: Mesa (the reference)
/// multiplies by the single-precision reciprocal (`_mesa_unorm_to_float`), which differs
/// from the exact quotient in the last bit for some values (e.g. 8/255), and a read-back as
/// FLOAT shows every bit. 32-bit values keep double precision, as Mesa's do.
fn unorm_to_float(raw: u64, max: f64) -> f64 {
    if max > f64::from(u16::MAX) {
        raw as f64 / max
    } else {
        f64::from(raw as f32 * (1.0 / max as f32))
    }
}

fn unsigned_max(ty: PixelType) -> f64 {
    match ty {
        PixelType::U8 => 255.0,
        PixelType::U16 => 65535.0,
        _ => 4_294_967_295.0,
    }
}

fn signed_max(ty: PixelType) -> f64 {
    match ty {
        PixelType::I8 => 127.0,
        PixelType::I16 => 32767.0,
        _ => 2_147_483_647.0,
    }
}

/// Encodes texels as tightly packed data of `layout`.
pub(crate) fn encode(layout: PixelLayout, texels: &[Texel]) -> Vec<u8> {
    let size = pixel_size(layout.format, layout.ty);
    let mut out = Vec::with_capacity(size * texels.len());
    let chans = channels(layout.format);
    let integer = is_integer(layout.format);
    for t in texels {
        encode_pixel(layout, chans, integer, t, &mut out);
    }
    out
}

fn encode_pixel(layout: PixelLayout, chans: &[usize], integer: bool, t: &Texel, out: &mut Vec<u8>) {
    use PixelType as T;
    match layout.ty {
        T::U8 | T::I8 | T::U16 | T::I16 | T::U32 | T::I32 | T::F16 | T::F32 => {
            let csize = pixel_size(PixelFormat::Red, layout.ty);
            for &ch in chans {
                write_uint(out, encode_scalar(layout.ty, t[ch], integer), csize);
            }
        }
        T::U32_248 => {
            let d = (t[0].clamp(0.0, 1.0) * f64::from((1u32 << 24) - 1)).round() as u64;
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
            let Some(fields) = packed_fields(layout.ty) else {
                return;
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
            write_uint(out, v, pixel_size(PixelFormat::Red, layout.ty));
        }
    }
}

fn encode_scalar(ty: PixelType, v: f64, integer: bool) -> u64 {
    use PixelType as T;
    match ty {
        T::F32 => u64::from((v as f32).to_bits()),
        T::F16 => u64::from(f32_to_half(v as f32)),
        T::U8 | T::U16 | T::U32 => {
            let max = unsigned_max(ty);
            if integer {
                v.clamp(0.0, max) as u64
            } else {
                (v.clamp(0.0, 1.0) * max).round() as u64
            }
        }
        T::I8 | T::I16 | T::I32 => {
            let max = signed_max(ty);
            let i = if integer {
                v.clamp(-max - 1.0, max) as i64
            } else {
                (v.clamp(-1.0, 1.0) * max).round() as i64
            };
            i as u64
        }
        _ => 0,
    }
}

/// Converts `count` pixels from one layout to another.
pub(crate) fn convert(
    from: PixelLayout,
    to: PixelLayout,
    bytes: &[u8],
    count: usize,
) -> Option<Vec<u8>> {
    let (in_size, out_size) = (
        pixel_size(from.format, from.ty),
        pixel_size(to.format, to.ty),
    );
    let input = bytes.get(..in_size.checked_mul(count)?)?;
    if from == to {
        return Some(input.to_vec());
    }
    // In chunks, so the intermediate texels stay small whatever the image size.
    const CHUNK: usize = 4096;
    let mut out = Vec::with_capacity(out_size * count);
    for part in input.chunks(in_size * CHUNK) {
        let texels = decode(from, part, part.len() / in_size)?;
        out.extend_from_slice(&encode(to, &texels));
    }
    Some(out)
}

/// IEEE half to single precision.
pub(crate) fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let mant = u32::from(h & 0x3ff);
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: normalise.
            let shift = m.leading_zeros() - 21;
            let m = (m << shift) & 0x3ff;
            sign | ((127 - 15 + 1 - shift) << 23) | (m << 13)
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
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1 << shift) - 1);
        let mut v = m >> shift;
        if rest > half || (rest == half && v & 1 == 1) {
            v += 1;
        }
        return sign | v as u16;
    }
    let mut v = ((e as u32) << 10) | (mant >> 13);
    let rest = mant & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && v & 1 == 1) {
        v += 1;
    }
    sign | v as u16
}

/// Decodes an unsigned float with a 5-bit exponent and `mant_bits` of mantissa (the 11- and
/// 10-bit floats of `R11F_G11F_B10F`).
fn unsigned_small_float(v: u32, mant_bits: u32) -> f32 {
    let exp = v >> mant_bits;
    let mant = v & ((1 << mant_bits) - 1);
    let m = mant as f32 / (1 << mant_bits) as f32;
    match exp {
        0 => m * 2f32.powi(-14),
        31 => {
            if mant == 0 {
                f32::INFINITY
            } else {
                f32::NAN
            }
        }
        e => (1.0 + m) * 2f32.powi(e as i32 - 15),
    }
}

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
    let rounded = (h + (1 << (drop - 1))) >> drop;
    rounded.min((31 << mant_bits) - 1)
}

fn encode_rgb9e5(t: &Texel) -> u32 {
    // EXT_texture_shared_exponent's reference encoder.
    const MAX: f64 = 65408.0;
    let c: Vec<f64> = t[..3].iter().map(|v| v.clamp(0.0, MAX)).collect();
    let max = c[0].max(c[1]).max(c[2]);
    let mut exp = (max.log2().floor() as i32).max(-16) + 1 + 15;
    let mut denom = 2f64.powi(exp - 15 - 9);
    if (max / denom + 0.5).floor() as u32 == 512 {
        exp += 1;
        denom *= 2.0;
    }
    let r = (c[0] / denom + 0.5).floor() as u32;
    let g = (c[1] / denom + 0.5).floor() as u32;
    let b = (c[2] / denom + 0.5).floor() as u32;
    (exp.clamp(0, 31) as u32) << 27 | (b & 0x1ff) << 18 | (g & 0x1ff) << 9 | (r & 0x1ff)
}

/// Decodes RGTC (BC4: one channel, BC5: two) blocks of a `width` x `height` region into
/// tightly packed 8-bit texels (unsigned, or two's complement when `signed`), `channels`
/// bytes per texel. `None` if the data is short.
pub(crate) fn decode_rgtc(
    data: &[u8],
    width: usize,
    height: usize,
    channels: usize,
    signed: bool,
) -> Option<Vec<u8>> {
    let bw = width.div_ceil(4);
    let bh = height.div_ceil(4);
    let block_size = 8 * channels;
    if data.len() < bw.checked_mul(bh)?.checked_mul(block_size)? {
        return None;
    }
    let mut out = vec![0u8; width * height * channels];
    for by in 0..bh {
        for bx in 0..bw {
            let block = &data[(by * bw + bx) * block_size..][..block_size];
            for c in 0..channels {
                let values = rgtc_block(&block[8 * c..8 * c + 8], signed);
                for y in 0..4 {
                    for x in 0..4 {
                        let (px, py) = (bx * 4 + x, by * 4 + y);
                        if px < width && py < height {
                            out[(py * width + px) * channels + c] = values[y * 4 + x];
                        }
                    }
                }
            }
        }
    }
    Some(out)
}

fn rgtc_block(block: &[u8], signed: bool) -> [u8; 16] {
    let (e0, e1) = if signed {
        (
            f32::from((block[0] as i8).max(-127)),
            f32::from((block[1] as i8).max(-127)),
        )
    } else {
        (f32::from(block[0]), f32::from(block[1]))
    };
    let mut palette = [0f32; 8];
    palette[0] = e0;
    palette[1] = e1;
    if e0 > e1 {
        for i in 1..7 {
            palette[i + 1] = ((7 - i) as f32 * e0 + i as f32 * e1) / 7.0;
        }
    } else {
        for i in 1..5 {
            palette[i + 1] = ((5 - i) as f32 * e0 + i as f32 * e1) / 5.0;
        }
        palette[6] = if signed { -127.0 } else { 0.0 };
        palette[7] = if signed { 127.0 } else { 255.0 };
    }
    let bits = read_uint(&block[2..], 6);
    let mut out = [0u8; 16];
    for (i, o) in out.iter_mut().enumerate() {
        let index = ((bits >> (3 * i)) & 7) as usize;
        let v = palette[index].round();
        *o = if signed { (v as i8) as u8 } else { v as u8 };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use PixelFormat as F;
    use PixelType as T;

    fn layout(format: PixelFormat, ty: PixelType) -> PixelLayout {
        PixelLayout { format, ty }
    }

    #[test]
    fn bgra_bytes_swap_to_rgba() {
        let out = convert(
            layout(F::Bgra, T::U8),
            layout(F::Rgba, T::U8),
            &[1, 2, 3, 4],
            1,
        );
        assert_eq!(out.unwrap(), vec![3, 2, 1, 4]);
    }

    #[test]
    fn packed_565_round_trips_through_rgba8() {
        // Pure red, green and blue in 5-6-5, as RGBA8: exact endpoints.
        let src: Vec<u8> = [0xf800u16, 0x07e0, 0x001f]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
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

    #[test]
    fn rgtc_decodes_endpoints() {
        // One BC4 block: endpoints 255 and 0, every index 0 except texel 1 (index 1).
        let mut block = [255u8, 0, 0, 0, 0, 0, 0, 0];
        block[2] = 1 << 3;
        let out = decode_rgtc(&block, 2, 1, 1, false).unwrap();
        assert_eq!(out, vec![255, 0]);
    }
}

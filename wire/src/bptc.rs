//! BPTC blocks from uncompressed texels, for uploads of client pixels into a BPTC texture
//! (GL compresses such data itself; both backends store BPTC as blocks and take these).
//!
//! The encoder is Tessera's own and simple: BC7 mode 6 (one subset, RGBA endpoints of seven
//! bits and a p-bit each, 4-bit indices) and BC6H mode 11 (one region, 10-bit endpoints,
//! 4-bit indices), the endpoints at each block's per-channel extremes and each texel's index
//! the weight that decodes nearest to it. Its blocks are not Mesa's encoder's: both decode
//! close to the source, not to the same values.

use crate::pixel::{Texel, f32_to_half};

/// BC7 and BC6H's 4-bit index weights (of 64).
const WEIGHTS: [i32; 16] = [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64];

/// What a BPTC texture stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BptcKind {
    /// BC7 (`RGBA_BPTC_UNORM`, `SRGB_ALPHA_BPTC_UNORM`: the values are stored as given).
    Unorm,
    /// BC6H of unsigned halves (`RGB_BPTC_UNSIGNED_FLOAT`).
    UnsignedFloat,
    /// BC6H of signed halves (`RGB_BPTC_SIGNED_FLOAT`).
    SignedFloat,
}

/// The blocks of `depth` slices of `width` x `height` texels (row-major, slice after
/// slice), 16 bytes per 4x4 block; a block past the right or bottom edge repeats the edge
/// texels.
pub fn encode(
    kind: BptcKind,
    texels: &[Texel],
    width: usize,
    height: usize,
    depth: usize,
) -> Vec<u8> {
    let (bw, bh) = (width.div_ceil(4), height.div_ceil(4));
    let mut out = Vec::with_capacity(bw * bh * depth * 16);
    for z in 0..depth {
        for by in 0..bh {
            for bx in 0..bw {
                let mut block = [[0.0; 4]; 16];
                for (i, t) in block.iter_mut().enumerate() {
                    let x = (bx * 4 + i % 4).min(width - 1);
                    let y = (by * 4 + i / 4).min(height - 1);
                    *t = texels[(z * height + y) * width + x];
                }
                out.extend_from_slice(&match kind {
                    BptcKind::Unorm => bc7_block(&block),
                    BptcKind::UnsignedFloat => bc6h_block(&block, false),
                    BptcKind::SignedFloat => bc6h_block(&block, true),
                });
            }
        }
    }
    out
}

/// Bits written from the lowest up, as BPTC blocks are read.
struct Bits {
    value: u128,
    at: u32,
}

impl Bits {
    fn put(&mut self, v: u32, n: u32) {
        self.value |= u128::from(v & ((1u32 << n) - 1)) << self.at;
        self.at += n;
    }
}

/// For each texel, the index whose weight decodes nearest to it (`error` of the texel and a
/// weight).
fn nearest_indices<T>(texels: &[T; 16], error: impl Fn(&T, i32) -> i64) -> [u32; 16] {
    std::array::from_fn(|t| {
        (0..16u32)
            .min_by_key(|&i| error(&texels[t], WEIGHTS[i as usize]))
            .unwrap_or(0)
    })
}

/// Turns each channel's extremes (`lo` for endpoint 0, `hi` for endpoint 1) so that the
/// channels fall as the channel of the widest range rises where they do in the block (a
/// channel that falls while it rises swaps its extremes): one line through the block's
/// colours then follows them.
fn orient<const N: usize>(px: &[[i32; N]; 16], lo: &mut [i32; N], hi: &mut [i32; N]) {
    let Some(main) = (0..N).max_by_key(|&c| i64::from(hi[c]) - i64::from(lo[c])) else {
        return;
    };
    let mean = |c: usize| px.iter().map(|p| i64::from(p[c])).sum::<i64>() / 16;
    let m = mean(main);
    for c in 0..N {
        let mc = mean(c);
        let cov: i64 = px
            .iter()
            .map(|p| (i64::from(p[main]) - m) * (i64::from(p[c]) - mc))
            .sum();
        if cov < 0 {
            std::mem::swap(&mut lo[c], &mut hi[c]);
        }
    }
}

/// One BC7 mode 6 block.
fn bc7_block(block: &[Texel; 16]) -> [u8; 16] {
    let px: [[i32; 4]; 16] = block.map(|t| t.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as i32));
    let mut lo = [255; 4];
    let mut hi = [0; 4];
    for p in &px {
        for c in 0..4 {
            lo[c] = lo[c].min(p[c]);
            hi[c] = hi[c].max(p[c]);
        }
    }
    orient(&px, &mut lo, &mut hi);
    // Endpoint 0 with p-bit 0 (even values), endpoint 1 with p-bit 1 (odd values).
    let mut e = [lo.map(|v| v >> 1), hi.map(|v| v >> 1)];
    let mut p = [0u32, 1];
    let value = |e: [i32; 4], p: u32| e.map(|v| (v << 1) | p as i32);
    let (a, b) = (value(e[0], p[0]), value(e[1], p[1]));
    let error = |t: &[i32; 4], w: i32| -> i64 {
        (0..4)
            .map(|c| {
                let d = i64::from(((64 - w) * a[c] + w * b[c] + 32) >> 6) - i64::from(t[c]);
                d * d
            })
            .sum()
    };
    let mut idx = nearest_indices(&px, error);
    // The first texel's index must have its top bit clear: swap the endpoints if not.
    if idx[0] >= 8 {
        e.swap(0, 1);
        p.swap(0, 1);
        idx = idx.map(|i| 15 - i);
    }
    let mut bits = Bits { value: 0, at: 0 };
    bits.put(1 << 6, 7);
    for (a, b) in e[0].iter().zip(&e[1]) {
        bits.put(*a as u32, 7);
        bits.put(*b as u32, 7);
    }
    bits.put(p[0], 1);
    bits.put(p[1], 1);
    for (i, v) in idx.iter().enumerate() {
        bits.put(*v, if i == 0 { 3 } else { 4 });
    }
    bits.value.to_le_bytes()
}

/// The half-float bits of `v` (clamped to what BC6H holds: non-negative unless `signed`) as a
/// signed integer that orders like the values (negative halves below zero).
fn half_key(v: f64, signed: bool) -> i32 {
    let v = if signed { v } else { v.max(0.0) };
    let h = i32::from(f32_to_half(v as f32));
    let mag = (h & 0x7fff).min(0x7bff);
    if h & 0x8000 != 0 { -mag } else { mag }
}

/// A 10-bit BC6H endpoint whose decoding is nearest to the half `key` (as [`half_key`]).
fn quantize(key: i32, signed: bool) -> i32 {
    // Unquantized values are 64x + 32 (10 bits); finishing scales them by 31/64 (unsigned)
    // or 31/32 (signed) to the half's bits.
    let unq = if signed {
        (f64::from(key) * 32.0 / 31.0).round()
    } else {
        (f64::from(key) * 64.0 / 31.0).round()
    };
    // Signed values are symmetric about zero: the magnitude is quantized.
    let x = ((unq.abs() - 32.0) / 64.0).round().max(0.0) as i32;
    if signed {
        x.min(511) * if unq < 0.0 { -1 } else { 1 }
    } else {
        x.min(1023)
    }
}

/// The unquantized value of a 10-bit endpoint.
fn unquantize(x: i32, signed: bool) -> i32 {
    if signed {
        let m = x.abs();
        let u = match m {
            0 => 0,
            511.. => 0x7fff,
            _ => ((m << 15) + 0x4000) >> 9,
        };
        if x < 0 { -u } else { u }
    } else {
        match x {
            0 => 0,
            1023 => 0xffff,
            _ => ((x << 16) + 0x8000) >> 10,
        }
    }
}

/// The half's key (as [`half_key`]) an interpolated unquantized value decodes to.
fn finish(v: i32, signed: bool) -> i32 {
    if signed {
        if v < 0 {
            -(((-v) * 31) >> 5)
        } else {
            (v * 31) >> 5
        }
    } else {
        (v * 31) >> 6
    }
}

/// One BC6H mode 11 block.
fn bc6h_block(block: &[Texel; 16], signed: bool) -> [u8; 16] {
    let keys: [[i32; 3]; 16] = block.map(|t| [0, 1, 2].map(|c| half_key(t[c], signed)));
    let mut lo = [i32::MAX; 3];
    let mut hi = [i32::MIN; 3];
    for k in &keys {
        for c in 0..3 {
            lo[c] = lo[c].min(k[c]);
            hi[c] = hi[c].max(k[c]);
        }
    }
    orient(&keys, &mut lo, &mut hi);
    let mut e = [
        lo.map(|v| quantize(v, signed)),
        hi.map(|v| quantize(v, signed)),
    ];
    let (a, b) = (
        e[0].map(|x| unquantize(x, signed)),
        e[1].map(|x| unquantize(x, signed)),
    );
    let error = |k: &[i32; 3], w: i32| -> i64 {
        (0..3)
            .map(|c| {
                let v = finish(((64 - w) * a[c] + w * b[c] + 32) >> 6, signed);
                let d = i64::from(v - k[c]);
                d * d
            })
            .sum()
    };
    let mut idx = nearest_indices(&keys, error);
    if idx[0] >= 8 {
        e.swap(0, 1);
        idx = idx.map(|i| 15 - i);
    }
    let mut bits = Bits { value: 0, at: 0 };
    bits.put(0b00011, 5);
    for end in e {
        for v in end {
            bits.put(v as u32, 10);
        }
    }
    for (i, v) in idx.iter().enumerate() {
        bits.put(*v, if i == 0 { 3 } else { 4 });
    }
    bits.value.to_le_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bc7_blocks_are_mode_6() {
        let t = [0.2, 0.5, 0.8, 1.0];
        let out = encode(BptcKind::Unorm, &[t; 16], 4, 4, 1);
        assert_eq!(out.len(), 16);
        assert_eq!(out[0] & 0x7f, 0x40, "mode 6");
    }

    #[test]
    fn bc6h_endpoints_round_trip() {
        for signed in [false, true] {
            for key in [0, 1, 100, 0x3c00, 0x7bff] {
                let x = quantize(key, signed);
                let back = finish(unquantize(x, signed), signed);
                assert!(
                    (back - key).abs() <= 64,
                    "{signed} {key:#x}: {x} -> {back:#x}"
                );
            }
        }
        let out = encode(BptcKind::SignedFloat, &[[-1.0, 0.5, 2.0, 1.0]; 5], 5, 1, 1);
        assert_eq!(out.len(), 32);
        assert_eq!(out[0] & 0x1f, 0x03, "mode 11");
    }
}

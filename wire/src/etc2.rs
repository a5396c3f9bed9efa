//! ETC2 and EAC blocks decoded to texels, for backends whose device cannot sample them
//! (GL 4.3's `ARB_ES3_compatibility` formats; lavapipe has no `textureCompressionETC2`):
//! the blocks are decoded at upload into an uncompressed stand-in image, RGBA8 (sRGB8_A8
//! for the sRGB formats: the values are stored as they are) for the colour formats and
//! 16-bit normalized red or red-green for the EAC ones. GL never compresses texels into
//! these formats (Mesa refuses such uploads), so only this direction exists.
//!
//! The decoding is the OpenGL ES 3.0 specification's (annex C): ETC1's individual and
//! differential modes, ETC2's T, H and planar modes, the punch-through alpha variant, and
//! EAC's 8-bit alpha and 11-bit channels. 11-bit values widen to 16 bits by replicating
//! their top bits, as Mesa does, so what a shader samples equals native llvmpipe's.

/// What an ETC2/EAC texture stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Etc2Kind {
    /// `RGB8_ETC2`, `SRGB8_ETC2`: opaque RGB, decoded to RGBA8.
    Rgb8,
    /// `RGB8_PUNCHTHROUGH_ALPHA1_ETC2` and its sRGB twin: RGB with 1-bit alpha, to RGBA8.
    Rgb8A1,
    /// `RGBA8_ETC2_EAC`, `SRGB8_ALPHA8_ETC2_EAC`: an EAC alpha block, then an RGB one.
    Rgba8,
    /// `R11_EAC`: to R16 unorm.
    R11,
    /// `SIGNED_R11_EAC`: to R16 snorm.
    R11Signed,
    /// `RG11_EAC`: to RG16 unorm.
    Rg11,
    /// `SIGNED_RG11_EAC`: to RG16 snorm.
    Rg11Signed,
}

impl Etc2Kind {
    /// The kind of an ETC2/EAC wire format (`None` for the others).
    pub const fn of(format: crate::format::Format) -> Option<Self> {
        use crate::format::Format as F;
        Some(match format {
            F::Etc2Rgb8 | F::Etc2Srgb8 => Etc2Kind::Rgb8,
            F::Etc2Rgb8A1 | F::Etc2Srgb8A1 => Etc2Kind::Rgb8A1,
            F::Etc2Rgba8 | F::Etc2Srgb8Alpha8 => Etc2Kind::Rgba8,
            F::EacR11 => Etc2Kind::R11,
            F::EacR11Snorm => Etc2Kind::R11Signed,
            F::EacRg11 => Etc2Kind::Rg11,
            F::EacRg11Snorm => Etc2Kind::Rg11Signed,
            _ => return None,
        })
    }

    /// Bytes of one 4x4 block.
    pub const fn block_bytes(self) -> usize {
        match self {
            Etc2Kind::Rgb8 | Etc2Kind::Rgb8A1 | Etc2Kind::R11 | Etc2Kind::R11Signed => 8,
            Etc2Kind::Rgba8 | Etc2Kind::Rg11 | Etc2Kind::Rg11Signed => 16,
        }
    }

    /// Bytes of one decoded texel.
    pub const fn texel_bytes(self) -> usize {
        match self {
            Etc2Kind::R11 | Etc2Kind::R11Signed => 2,
            _ => 4,
        }
    }
}

/// ETC1's intensity modifiers, by table codeword, in pixel index order.
const MODIFIERS: [[i32; 4]; 8] = [
    [2, 8, -2, -8],
    [5, 17, -5, -17],
    [9, 29, -9, -29],
    [13, 42, -13, -42],
    [18, 60, -18, -60],
    [24, 80, -24, -80],
    [33, 106, -33, -106],
    [47, 183, -47, -183],
];

/// T and H modes' distances.
const DISTANCES: [i32; 8] = [3, 6, 11, 16, 23, 32, 41, 64];

/// EAC's modifiers, by table index.
const EAC: [[i32; 8]; 16] = [
    [-3, -6, -9, -15, 2, 5, 8, 14],
    [-3, -7, -10, -13, 2, 6, 9, 12],
    [-2, -5, -8, -13, 1, 4, 7, 12],
    [-2, -4, -6, -13, 1, 3, 5, 12],
    [-3, -6, -8, -12, 2, 5, 7, 11],
    [-3, -7, -9, -11, 2, 6, 8, 10],
    [-4, -7, -8, -11, 3, 6, 7, 10],
    [-3, -5, -8, -11, 2, 4, 7, 10],
    [-2, -6, -8, -10, 1, 5, 7, 9],
    [-2, -5, -8, -10, 1, 4, 7, 9],
    [-2, -4, -8, -10, 1, 3, 7, 9],
    [-2, -5, -7, -10, 1, 4, 6, 9],
    [-3, -4, -7, -10, 2, 3, 6, 9],
    [-1, -2, -3, -10, 0, 1, 2, 9],
    [-4, -6, -8, -9, 3, 5, 7, 8],
    [-3, -5, -7, -9, 2, 4, 6, 8],
];

/// Decodes the blocks of one `width` x `height` slice into tightly packed texels of
/// `kind`'s stand-in (row-major; 16-bit values native-endian). `None` if `data` is short.
pub fn decode(kind: Etc2Kind, data: &[u8], width: usize, height: usize) -> Option<Vec<u8>> {
    let (bw, bh) = (width.div_ceil(4), height.div_ceil(4));
    let size = kind.block_bytes();
    if data.len() < bw.checked_mul(bh)?.checked_mul(size)? {
        return None;
    }
    let texel = kind.texel_bytes();
    let mut out = vec![0u8; width.checked_mul(height)?.checked_mul(texel)?];
    for by in 0..bh {
        for bx in 0..bw {
            let block = &data[(by * bw + bx) * size..][..size];
            let texels = decode_block(kind, block);
            for y in 0..4 {
                for x in 0..4 {
                    let (px, py) = (bx * 4 + x, by * 4 + y);
                    if px < width && py < height {
                        let at = (py * width + px) * texel;
                        out[at..at + texel].copy_from_slice(&texels[y * 4 + x][..texel]);
                    }
                }
            }
        }
    }
    Some(out)
}

/// The 16 texels of one block (row-major), each `kind.texel_bytes()` bytes from the start.
fn decode_block(kind: Etc2Kind, block: &[u8]) -> [[u8; 4]; 16] {
    let mut out = [[0u8; 4]; 16];
    match kind {
        Etc2Kind::Rgb8 => rgb_block(block, false, &mut out),
        Etc2Kind::Rgb8A1 => rgb_block(block, true, &mut out),
        Etc2Kind::Rgba8 => {
            rgb_block(&block[8..16], false, &mut out);
            let alpha = eac_alpha(&block[..8]);
            for (t, a) in out.iter_mut().zip(alpha) {
                t[3] = a;
            }
        }
        Etc2Kind::R11 | Etc2Kind::R11Signed | Etc2Kind::Rg11 | Etc2Kind::Rg11Signed => {
            let signed = matches!(kind, Etc2Kind::R11Signed | Etc2Kind::Rg11Signed);
            let channels = block.len() / 8;
            for c in 0..channels {
                let values = eac_11(&block[8 * c..8 * c + 8], signed);
                for (t, v) in out.iter_mut().zip(values) {
                    t[2 * c..2 * c + 2].copy_from_slice(&v.to_ne_bytes());
                }
            }
        }
    }
    out
}

/// A block's 2-bit pixel index of the texel at (`x`, `y`): ETC numbers texels down the
/// columns, the index's high bits in bits 16..32 of the low word, its low bits in 0..16.
fn pixel_index(indices: u32, x: usize, y: usize) -> usize {
    let bit = x * 4 + y;
    ((((indices >> (16 + bit)) & 1) << 1) | ((indices >> bit) & 1)) as usize
}

fn extend4(v: u8) -> i32 {
    i32::from((v << 4) | v)
}

fn extend5(v: u8) -> i32 {
    i32::from((v << 3) | (v >> 2))
}

fn clamp8(v: i32) -> u8 {
    v.clamp(0, 255) as u8
}

fn add(c: [i32; 3], d: i32) -> [u8; 3] {
    c.map(|v| clamp8(v + d))
}

/// An ETC2 RGB block (`punchthrough`: the RGB8_A1 variant, whose bit 33 says opaque where
/// RGB8's says differential). Alpha is 255, or 0 with black for punch-through's
/// transparent texels.
fn rgb_block(b: &[u8], punchthrough: bool, out: &mut [[u8; 4]; 16]) {
    let indices = u32::from_be_bytes([b[4], b[5], b[6], b[7]]);
    let diff = punchthrough || b[3] & 2 != 0;
    let opaque = !punchthrough || b[3] & 2 != 0;
    let flip = b[3] & 1 != 0;
    let tables = [usize::from(b[3] >> 5), usize::from((b[3] >> 2) & 7)];
    let transparent = |idx: usize| !opaque && idx == 2;
    let put = |out: &mut [[u8; 4]; 16], x: usize, y: usize, rgb: [u8; 3], a: u8| {
        out[y * 4 + x] = [rgb[0], rgb[1], rgb[2], a];
    };
    let base: [[i32; 3]; 2] = if !diff {
        let c = |i: usize| [b[0], b[1], b[2]].map(|v| if i == 0 { v >> 4 } else { v & 15 });
        [c(0).map(extend4), c(1).map(extend4)]
    } else {
        let c1 = [b[0] >> 3, b[1] >> 3, b[2] >> 3];
        let d = [b[0], b[1], b[2]].map(|v| (((v & 7) as i8) << 5) >> 5);
        let c2 = [0, 1, 2].map(|i| i32::from(c1[i]) + i32::from(d[i]));
        if !(0..32).contains(&c2[0]) {
            return t_mode(b, indices, &transparent, out);
        }
        if !(0..32).contains(&c2[1]) {
            return h_mode(b, indices, &transparent, out);
        }
        if !(0..32).contains(&c2[2]) {
            return planar(b, out);
        }
        [c1.map(extend5), c2.map(|v| extend5(v as u8))]
    };
    for x in 0..4 {
        for y in 0..4 {
            let sub = usize::from(if flip { y >= 2 } else { x >= 2 });
            let idx = pixel_index(indices, x, y);
            if transparent(idx) {
                put(out, x, y, [0; 3], 0);
                continue;
            }
            let mut m = MODIFIERS[tables[sub]][idx];
            if !opaque && idx == 0 {
                m = 0;
            }
            put(out, x, y, add(base[sub], m), 255);
        }
    }
}

/// ETC2's T mode: two base colours, the paint colours the first and the second moved by a
/// distance each way.
fn t_mode(b: &[u8], indices: u32, transparent: &dyn Fn(usize) -> bool, out: &mut [[u8; 4]; 16]) {
    let c1 = [((b[0] >> 3) & 3) << 2 | (b[0] & 3), b[1] >> 4, b[1] & 15].map(extend4);
    let c2 = [b[2] >> 4, b[2] & 15, b[3] >> 4].map(extend4);
    let d = DISTANCES[usize::from(((b[3] >> 2) & 3) << 1 | (b[3] & 1))];
    let c1 = c1.map(clamp8);
    let paint = [c1, add(c2, d), add(c2, 0), add(c2, -d)];
    paint_block(indices, &paint, transparent, out);
}

/// ETC2's H mode: two base colours, each moved by a distance each way; the distance's low
/// bit is whether the first colour is not below the second.
fn h_mode(b: &[u8], indices: u32, transparent: &dyn Fn(usize) -> bool, out: &mut [[u8; 4]; 16]) {
    let r1 = (b[0] >> 3) & 15;
    let g1 = ((b[0] & 7) << 1) | ((b[1] >> 4) & 1);
    let b1 = (((b[1] >> 3) & 1) << 3) | ((b[1] & 3) << 1) | (b[2] >> 7);
    let r2 = (b[2] >> 3) & 15;
    let g2 = ((b[2] & 7) << 1) | (b[3] >> 7);
    let b2 = (b[3] >> 3) & 15;
    let c1 = [r1, g1, b1].map(extend4);
    let c2 = [r2, g2, b2].map(extend4);
    let key = |c: [i32; 3]| (c[0] << 16) | (c[1] << 8) | c[2];
    let order = usize::from(key(c1) >= key(c2));
    let d = DISTANCES[usize::from((b[3] >> 2) & 1) << 2 | usize::from(b[3] & 1) << 1 | order];
    let paint = [add(c1, d), add(c1, -d), add(c2, d), add(c2, -d)];
    paint_block(indices, &paint, transparent, out);
}

fn paint_block(
    indices: u32,
    paint: &[[u8; 3]; 4],
    transparent: &dyn Fn(usize) -> bool,
    out: &mut [[u8; 4]; 16],
) {
    for x in 0..4 {
        for y in 0..4 {
            let idx = pixel_index(indices, x, y);
            let [r, g, bl] = paint[idx];
            out[y * 4 + x] = if transparent(idx) {
                [0; 4]
            } else {
                [r, g, bl, 255]
            };
        }
    }
}

/// ETC2's planar mode: colours at the origin, at (4, 0) and at (0, 4), interpolated.
fn planar(b: &[u8], out: &mut [[u8; 4]; 16]) {
    let e6 = |v: u8| i32::from((v << 2) | (v >> 4));
    let e7 = |v: u8| i32::from((v << 1) | (v >> 6));
    let ro = e6((b[0] >> 1) & 63);
    let go = e7(((b[0] & 1) << 6) | ((b[1] >> 1) & 63));
    let bo = e6(((b[1] & 1) << 5) | (((b[2] >> 3) & 3) << 3) | ((b[2] & 3) << 1) | (b[3] >> 7));
    let rh = e6((((b[3] >> 2) & 31) << 1) | (b[3] & 1));
    let gh = e7(b[4] >> 1);
    let bh = e6(((b[4] & 1) << 5) | (b[5] >> 3));
    let rv = e6(((b[5] & 7) << 3) | (b[6] >> 5));
    let gv = e7(((b[6] & 31) << 2) | (b[7] >> 6));
    let bv = e6(b[7] & 63);
    let o = [ro, go, bo];
    let h = [rh, gh, bh];
    let v = [rv, gv, bv];
    for y in 0..4i32 {
        for x in 0..4i32 {
            let c = [0, 1, 2]
                .map(|i| clamp8((x * (h[i] - o[i]) + y * (v[i] - o[i]) + 4 * o[i] + 2) >> 2));
            out[(y * 4 + x) as usize] = [c[0], c[1], c[2], 255];
        }
    }
}

/// The 3-bit EAC index of texel (`x`, `y`): 48 bits after the header, most significant
/// first, texels down the columns.
fn eac_index(bits: u64, x: usize, y: usize) -> usize {
    ((bits >> (45 - 3 * (x * 4 + y))) & 7) as usize
}

/// An EAC alpha block's 16 alphas (row-major).
fn eac_alpha(b: &[u8]) -> [u8; 16] {
    let bits = u64::from_be_bytes(b[..8].try_into().unwrap_or([0; 8]));
    let (base, mult, table) = (
        i32::from(b[0]),
        i32::from(b[1] >> 4),
        usize::from(b[1] & 15),
    );
    let mut out = [0u8; 16];
    for y in 0..4 {
        for x in 0..4 {
            out[y * 4 + x] = clamp8(base + EAC[table][eac_index(bits, x, y)] * mult);
        }
    }
    out
}

/// An 11-bit EAC block's 16 values (row-major), widened to 16 bits: unsigned as `u16`,
/// signed as `i16`'s bits.
fn eac_11(b: &[u8], signed: bool) -> [u16; 16] {
    let bits = u64::from_be_bytes(b[..8].try_into().unwrap_or([0; 8]));
    let (mult, table) = (i32::from(b[1] >> 4), usize::from(b[1] & 15));
    let mut out = [0u16; 16];
    for y in 0..4 {
        for x in 0..4 {
            let m = EAC[table][eac_index(bits, x, y)];
            out[y * 4 + x] = if signed {
                let base = i32::from(b[0] as i8).max(-127) * 8;
                let v = if mult != 0 {
                    base + m * mult * 8
                } else {
                    base + m
                };
                let v = v.clamp(-1023, 1023);
                let wide = |a: i32| (a << 5) | (a >> 5);
                let w = if v >= 0 { wide(v) } else { -wide(-v) };
                w as i16 as u16
            } else {
                let base = i32::from(b[0]) * 8 + 4;
                let v = if mult != 0 {
                    base + m * mult * 8
                } else {
                    base + m
                };
                let v = v.clamp(0, 2047);
                ((v << 5) | (v >> 6)) as u16
            };
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A differential block of one colour everywhere: base (16, 8, 4) in 5 bits, no
    /// delta, table 0, every index 0 (+2).
    #[test]
    fn differential_flat() {
        let block = [16 << 3, 8 << 3, 4 << 3, 0b0000_0010, 0, 0, 0, 0];
        let out = decode(Etc2Kind::Rgb8, &block, 4, 4).unwrap();
        let c = [extend5(16) + 2, extend5(8) + 2, extend5(4) + 2].map(|v| v as u8);
        for t in out.chunks(4) {
            assert_eq!(t, [c[0], c[1], c[2], 255]);
        }
    }

    /// The index bits: texel (1, 0) is bit 4, its high bit bit 20.
    #[test]
    fn pixel_order() {
        assert_eq!(pixel_index(1 << 4, 1, 0), 1);
        assert_eq!(pixel_index(1 << 20, 1, 0), 2);
        assert_eq!(pixel_index(1 << 1, 0, 1), 1);
    }

    /// Punch-through: an index of 2 in a non-opaque block is transparent black; 0 keeps
    /// the base colour.
    #[test]
    fn punchthrough() {
        // Texel (0, 0) index 2 (high bit 16), the others 0; not opaque (bit 33 clear).
        let block = [16 << 3, 8 << 3, 4 << 3, 0, 0, 1, 0, 0];
        let out = decode(Etc2Kind::Rgb8A1, &block, 4, 4).unwrap();
        assert_eq!(&out[..4], [0, 0, 0, 0]);
        assert_eq!(
            &out[4..8],
            [extend5(16) as u8, extend5(8) as u8, extend5(4) as u8, 255]
        );
    }

    /// EAC R11 with multiplier 0: the base codeword times 8 plus 4 plus the modifier.
    #[test]
    fn r11() {
        // Base 100, multiplier 0, table 13 (index 4 is a modifier of 0); indices all 4.
        let mut block = [100, 13, 0, 0, 0, 0, 0, 0];
        let idx: u64 = (0..16).fold(0, |a, _| (a << 3) | 4);
        block[2..].copy_from_slice(&idx.to_be_bytes()[2..]);
        let out = decode(Etc2Kind::R11, &block, 4, 4).unwrap();
        let v = 100 * 8 + 4;
        let w = ((v << 5) | (v >> 6)) as u16;
        assert_eq!(u16::from_ne_bytes([out[0], out[1]]), w);
        assert_eq!(out.len(), 32);
    }

    #[test]
    fn short_data() {
        assert!(decode(Etc2Kind::Rgba8, &[0; 15], 4, 4).is_none());
        assert_eq!(decode(Etc2Kind::Rgba8, &[0; 32], 5, 3).unwrap().len(), 60);
    }
}

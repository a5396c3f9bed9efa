//! CPU pixel work of this backend. Conversions between client layouts (BGRA orders and
//! packed types GLES lacks, formats the backend upgraded, read-backs in layouts GLES cannot
//! produce) are the shared ones of [`tessera_wire::pixel`], re-exported here; what only GLES
//! needs is here: decoding RGTC blocks for drivers without `EXT_texture_compression_rgtc`.
//!
//! Nothing here touches GL; these are pure functions over byte slices, as `conv.rs`'s maps.

pub(crate) use tessera_wire::pixel::{convert, convert_owned};

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
    // 16 indices of 3 bits, little-endian.
    let bits = block[2..8]
        .iter()
        .rev()
        .fold(0u64, |v, b| v << 8 | u64::from(*b));
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

    #[test]
    fn rgtc_decodes_endpoints() {
        // One BC4 block: endpoints 255 and 0, every index 0 except texel 1 (index 1).
        let mut block = [255u8, 0, 0, 0, 0, 0, 0, 0];
        block[2] = 1 << 3;
        let out = decode_rgtc(&block, 2, 1, 1, false).unwrap();
        assert_eq!(out, vec![255, 0]);
    }
}

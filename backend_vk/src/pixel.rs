//! CPU pixel work of this backend. Conversions between client layouts and the memory
//! layout of the native image format (uploads in a layout the image does not have,
//! read-backs in the layout the client asked for) are the shared ones of
//! [`tessera_wire::pixel`], re-exported here; what only Vulkan needs is here: the buffer
//! layouts of depth aspects, which copies to and from a depth image use and which no client
//! layout describes (`X8_D24` keeps depth in the low bits).

pub(crate) use tessera_wire::pixel::{Texel, convert, convert_owned, decode, encode};

use crate::conv::DepthLayout;

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
        let v = px.iter().rev().fold(0u64, |v, b| v << 8 | u64::from(*b));
        t[0] = match layout {
            DepthLayout::Unorm16 => v as f64 / 65535.0,
            DepthLayout::Unorm24 => (v & 0xff_ffff) as f64 / f64::from(0xff_ffffu32),
            DepthLayout::Float32 => f64::from(f32::from_bits(v as u32)),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_aspect_layouts() {
        let mut t = [[0.0; 4]; 1];
        decode_depth(DepthLayout::Unorm24, &0xff00_0000u32.to_le_bytes(), &mut t);
        assert_eq!(t[0][0], 0.0, "the X8 bits are not depth");
        assert_eq!(
            encode_depth(DepthLayout::Unorm24, &[[1.0, 0.0, 0.0, 0.0]]),
            0x00ff_ffffu32.to_le_bytes()
        );
        decode_depth(DepthLayout::Unorm16, &[0xff, 0xff], &mut t);
        assert_eq!(t[0][0], 1.0);
        assert_eq!(
            encode_depth(DepthLayout::Float32, &[[0.25, 0.0, 0.0, 0.0]]),
            0.25f32.to_le_bytes()
        );
    }
}

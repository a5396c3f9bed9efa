//! Copies of compressed images' blocks, for a backend whose device cannot hand them back
//! (`ReadCompressedTexture`): ES has no `glGetCompressedTexImage`, and the Vulkan backend
//! stores ETC2/EAC images decoded. A compressed image changes only through compressed
//! uploads (`WriteCompressedTexture`, from client data or a buffer) and `CopyImage`, so a
//! backend that applies those to its copy as well answers with the blocks it was given.
//!
//! A [`BlockShadow`] belongs to one texture, so it lives no longer than the texture does;
//! [`BlockShadow::define`] starts an image's copy zeroed (as a new image reads), and
//! redefining the image with an uncompressed format drops it. Each image is one buffer of
//! its blocks, slice by slice, rows of blocks tightly packed: the layout
//! `ReadCompressedTexture` answers with and `WriteCompressedTexture` brings.

use std::collections::HashMap;

use crate::dispatch::ImageRef;
use crate::format::Format;
use crate::record::ImageCopy;

/// Bytes of one 4x4 block of a compressed format (`None`: not compressed).
pub fn block_bytes(format: Format) -> Option<usize> {
    use Format as F;
    if !format.info().compressed {
        return None;
    }
    Some(match format {
        F::RgtcR
        | F::RgtcRSnorm
        | F::Etc2Rgb8
        | F::Etc2Srgb8
        | F::Etc2Rgb8A1
        | F::Etc2Srgb8A1
        | F::EacR11
        | F::EacR11Snorm => 8,
        _ => 16,
    })
}

/// One image's blocks.
#[derive(Debug)]
struct Level {
    /// Blocks across, block rows, and slices (depth or layers).
    blocks: [usize; 3],
    /// Bytes per block.
    block: usize,
    /// The blocks, slice by slice.
    data: Vec<u8>,
}

impl Level {
    /// Byte offset of block (`x`, `y`) of slice `z`.
    fn at(&self, x: usize, y: usize, z: usize) -> usize {
        ((z * self.blocks[1] + y) * self.blocks[0] + x) * self.block
    }

    /// The block range of a texel region (`origin`, `size`), clipped to the image: first
    /// block and block counts.
    fn span(&self, origin: [u32; 3], size: [u32; 3]) -> ([usize; 3], [usize; 3]) {
        let o = [
            origin[0] as usize / 4,
            origin[1] as usize / 4,
            origin[2] as usize,
        ];
        let n = [
            (size[0] as usize).div_ceil(4),
            (size[1] as usize).div_ceil(4),
            size[2] as usize,
        ];
        let n = [0, 1, 2].map(|i| n[i].min(self.blocks[i].saturating_sub(o[i])));
        (o, n)
    }
}

/// The blocks of the compressed images of one texture a backend keeps a copy of, by level
/// and face.
#[derive(Debug, Default)]
pub struct BlockShadow {
    levels: HashMap<(u8, u8), Level>,
}

impl BlockShadow {
    /// (Re)defines an image of `size` texels (width, height, and depth or layers): a zeroed
    /// copy for a compressed `format`, none otherwise.
    pub fn define(&mut self, at: ImageRef, format: Format, size: [u32; 3]) {
        let key = (at.level, at.face);
        let Some(block) = block_bytes(format) else {
            self.levels.remove(&key);
            return;
        };
        let blocks = [
            (size[0] as usize).div_ceil(4),
            (size[1] as usize).div_ceil(4),
            size[2].max(1) as usize,
        ];
        let len = blocks.iter().product::<usize>() * block;
        self.levels.insert(
            key,
            Level {
                blocks,
                block,
                data: vec![0; len],
            },
        );
    }

    /// Drops the copy of one image.
    pub fn remove(&mut self, at: ImageRef) {
        self.levels.remove(&(at.level, at.face));
    }

    /// The blocks of an image, if a copy is kept.
    pub fn read(&self, at: ImageRef) -> Option<&[u8]> {
        self.levels.get(&(at.level, at.face)).map(|l| &l.data[..])
    }

    /// Writes the blocks of a region (`origin` and `size` in texels, `origin[2]` the first
    /// slice or layer), given as `WriteCompressedTexture` brings them. Nothing happens for an
    /// image without a copy; rows past the end of `data` are left as they were.
    pub fn write(&mut self, at: ImageRef, origin: [u32; 3], size: [u32; 3], data: &[u8]) {
        let Some(l) = self.levels.get_mut(&(at.level, at.face)) else {
            return;
        };
        let given_row = (size[0] as usize).div_ceil(4) * l.block;
        let given_rows = (size[1] as usize).div_ceil(4);
        let ([x, y, z], [w, h, d]) = l.span(origin, size);
        let row = w * l.block;
        for s in 0..d {
            for r in 0..h {
                let from = (s * given_rows + r) * given_row;
                let Some(src) = data.get(from..from + row) else {
                    return;
                };
                let to = l.at(x, y + r, z + s);
                l.data[to..to + row].copy_from_slice(src);
            }
        }
    }

    /// The blocks of a region (`origin` and `size` in texels), tightly packed as
    /// [`Self::write`] takes them, and the region's size rounded out to whole blocks: what
    /// `glCopyImageSubData` between compressed images carries to another image. `None`
    /// where no copy is kept.
    pub fn region(
        &self,
        at: ImageRef,
        origin: [u32; 3],
        size: [u32; 3],
    ) -> Option<(Vec<u8>, [u32; 3])> {
        let l = self.levels.get(&(at.level, at.face))?;
        let ([x, y, z], [w, h, d]) = l.span(origin, size);
        let mut rows = Vec::with_capacity(w * h * d * l.block);
        for s in 0..d {
            for r in 0..h {
                let from = l.at(x, y + r, z + s);
                rows.extend_from_slice(&l.data[from..from + w * l.block]);
            }
        }
        Some((rows, [w as u32 * 4, h as u32 * 4, d as u32]))
    }

    /// Whether a copy of the image is kept.
    pub fn contains(&self, at: ImageRef) -> bool {
        self.levels.contains_key(&(at.level, at.face))
    }
}

/// The images and first texels a `CopyImage` end covers, one per slice of the copy: a cube
/// map's faces are images of their own (`origin[2]` is the face), other textures' slices
/// and layers are the z of one image.
fn copy_images(
    cube: bool,
    level: u8,
    origin: [u32; 3],
    depth: u32,
) -> impl Iterator<Item = (ImageRef, [u32; 3])> {
    (0..depth).map(move |i| {
        if cube {
            let face = (origin[2] + i).min(u32::from(u8::MAX)) as u8;
            (ImageRef { level, face }, [origin[0], origin[1], 0])
        } else {
            let at = ImageRef { level, face: 0 };
            (at, [origin[0], origin[1], origin[2] + i])
        }
    })
}

/// The source blocks of a `CopyImage` from a texture whose copies `src` holds (`cube`: a
/// cube map), slice by slice: `None` for a slice without a copy.
pub fn copy_source(
    src: &BlockShadow,
    cube: bool,
    c: &ImageCopy,
) -> Vec<Option<(Vec<u8>, [u32; 3])>> {
    let one = [c.size[0], c.size[1], 1];
    copy_images(cube, c.src.level, c.src.origin, c.size[2])
        .map(|(at, origin)| src.region(at, origin, one))
        .collect()
}

/// Writes what [`copy_source`] took into the destination of the `CopyImage`, whose copies
/// `dst` holds. Returns whether a destination image with a copy got no blocks (its source
/// is not compressed, or has no copy).
pub fn copy_into(
    dst: &mut BlockShadow,
    cube: bool,
    c: &ImageCopy,
    source: Vec<Option<(Vec<u8>, [u32; 3])>>,
) -> bool {
    let mut missed = false;
    for ((at, origin), region) in
        copy_images(cube, c.dst.level, c.dst.origin, c.size[2]).zip(source)
    {
        match region {
            Some((rows, size)) => dst.write(at, origin, size, &rows),
            None => missed |= dst.contains(at),
        }
    }
    missed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_reads_and_copies_block_regions() {
        let (mut a, mut b) = (BlockShadow::default(), BlockShadow::default());
        let at = ImageRef { level: 0, face: 0 };
        // 8x8 RGTC1: 2x2 blocks of 8 bytes.
        a.define(at, Format::RgtcR, [8, 8, 1]);
        let block = |v: u8| [v; 8];
        a.write(at, [4, 0, 0], [4, 4, 1], &block(7));
        let data = a.read(at).unwrap();
        assert_eq!(&data[8..16], &block(7));
        assert!(data[..8].iter().chain(&data[16..]).all(|&b| b == 0));
        // A 6x6 image: partial blocks at the edges.
        b.define(at, Format::RgtcR, [6, 6, 1]);
        let (rows, size) = a.region(at, [4, 0, 0], [4, 4, 1]).unwrap();
        assert_eq!(size, [4, 4, 1]);
        b.write(at, [0, 4, 0], size, &rows);
        assert_eq!(&b.read(at).unwrap()[16..24], &block(7));
        // The edge block of a 6-texel image is a region of 2 texels.
        let (rows, _) = b.region(at, [4, 4, 0], [2, 2, 1]).unwrap();
        assert_eq!(rows, [0; 8]);
        b.define(at, Format::Rgba8, [6, 6, 1]);
        assert!(b.read(at).is_none());
        assert!(!b.contains(at));
    }
}

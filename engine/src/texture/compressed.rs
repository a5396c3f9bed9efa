//! Compressed images: `compressed_tex_image_*` and `compressed_tex_sub_image_*` (RGTC, the
//! one family of specific compressed formats GL 3.3 has). The data are whole 4x4 blocks,
//! tightly packed: they travel as they are, from the stage or from a pixel unpack buffer.

use tessera_components::gl::*;
use tessera_components::object::Image;
use tessera_components::state::{PixelStore, TextureTarget};
use tessera_systems::conv::map_sized_format;
use tessera_wire::handle::TextureHandle;
use tessera_wire::record::{BufferBlocks, BufferRange, Record};

use super::format::{block_bytes, compressed_size};
use super::image::{
    Footprint, Source, accepts, check_region, compressible, image_size, is_bptc, wire_region,
};
use super::{ImageTarget, fits, image_target, max_levels};
use crate::context::{Context, GlResult};
use crate::pixel::Pixels;
use crate::share::Shared;

/// The arguments of a compressed image call.
#[derive(Clone, Copy, Debug)]
struct Compressed<'a> {
    target: GLenum,
    level: GLint,
    format: GLenum,
    origin: [GLint; 3],
    size: [GLsizei; 3],
    border: GLint,
    image_size: GLsizei,
    data: Pixels<'a>,
}

/// Where the blocks of a compressed upload lie in the program's data: `slices` slices of
/// `rows` rows of `row` bytes (one row of 4x4 blocks), rows `stride` bytes apart and slices
/// `slice` apart, from byte `skip`. Tightly packed unless the unpack state's compressed
/// block parameters (GL 4.2's `ARB_compressed_texture_pixel_storage`) give a row length,
/// skips or an image height, counted as Mesa counts them: the row length and skipped pixels
/// where the block width and size are set, the skipped rows and image height where the
/// block height and size are, the skipped images where the block depth and size are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BlockLayout {
    skip: usize,
    row: usize,
    stride: usize,
    rows: usize,
    slice: usize,
    slices: usize,
}

impl BlockLayout {
    /// The layout of a `size` image of blocks of `block` bytes under `store`.
    /// `INVALID_OPERATION` where a skip is not a whole number of the given blocks (Mesa's
    /// `_mesa_compressed_pixel_storage_error_check`).
    fn new(store: &PixelStore, dims: u8, block: usize, [w, h, d]: [i32; 3]) -> GlResult<Self> {
        let blocks = |n: i32| (n.max(0) as usize).div_ceil(4);
        let n = |v: GLint| v.max(0) as usize;
        let [bw, bh, bd, bs] = store.compressed_block.map(n);
        let row = blocks(w) * block;
        let rows = if dims > 1 { blocks(h) } else { 1 };
        let mut layout = Self {
            skip: 0,
            row,
            stride: row,
            rows,
            slice: row * rows,
            slices: if dims > 2 { n(d) } else { 1 },
        };
        if bs == 0 {
            return Ok(layout);
        }
        let misaligned = |skip: GLint, b: usize| b != 0 && n(skip) % b != 0;
        if misaligned(store.skip_pixels, bw)
            || (dims > 1 && misaligned(store.skip_rows, bh))
            || (dims > 2 && misaligned(store.skip_images, bd))
        {
            return Err(INVALID_OPERATION);
        }
        let mut slice_rows = rows;
        if bw != 0 {
            if store.row_length > 0 {
                layout.stride = bs * n(store.row_length).div_ceil(bw);
            }
            layout.skip += n(store.skip_pixels) * bs / bw;
        }
        if dims > 1 && bh != 0 {
            layout.skip += n(store.skip_rows) * layout.stride / bh;
            if store.image_height > 0 {
                slice_rows = n(store.image_height).div_ceil(bh);
            }
        }
        layout.slice = layout.stride * slice_rows;
        if dims > 2 && bd != 0 {
            layout.skip += n(store.skip_images) * layout.slice / bd;
        }
        Ok(layout)
    }

    /// Bytes of blocks the image takes.
    fn len(&self) -> usize {
        self.row * self.rows * self.slices
    }

    /// Whether the blocks are the `len` bytes from the start, as they travel.
    fn tight(&self) -> bool {
        self.skip == 0
            && self.stride == self.row
            && (self.slices <= 1 || self.slice == self.row * self.rows)
    }

    /// One past the last byte read.
    fn end(&self) -> usize {
        if self.len() == 0 {
            return self.skip;
        }
        self.skip + (self.slices - 1) * self.slice + (self.rows - 1) * self.stride + self.row
    }

    /// The start of each row of blocks, slice by slice.
    fn row_starts(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        (0..self.slices).flat_map(move |z| {
            (0..self.rows).map(move |r| (z, r, self.skip + z * self.slice + r * self.stride))
        })
    }

    /// The blocks of `data` (at least [`Self::end`] bytes), tightly packed.
    fn gather(&self, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len());
        for (_, _, at) in self.row_starts() {
            out.extend_from_slice(&data[at..at + self.row]);
        }
        out
    }

    /// Each row of blocks of a region at `origin` of `size` texels read from a buffer from
    /// `offset`: (buffer offset, origin, size, bytes).
    fn runs(
        &self,
        offset: usize,
        [x, y, z]: [i32; 3],
        [w, h, _]: [i32; 3],
    ) -> Vec<(usize, [i32; 3], [i32; 3], usize)> {
        self.row_starts()
            .map(|(slice, r, at)| {
                let top = 4 * r as i32;
                let rows = (h - top).min(4);
                let origin = [x, y + top, z + slice as i32];
                (offset + at, origin, [w, rows, 1], self.row)
            })
            .collect()
    }
}

impl Context {
    /// `glCompressedTexImage1D` (GL 3.3 has no one-dimensional compressed formats: every
    /// call is `INVALID_ENUM`, after the same checks as the other dimensions).
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn compressed_tex_image_1d(
        &mut self,
        target: GLenum,
        level: GLint,
        internalformat: GLenum,
        width: GLsizei,
        border: GLint,
        image_size: GLsizei,
        data: Pixels<'_>,
    ) {
        let c = Compressed {
            target,
            level,
            format: internalformat,
            origin: [0; 3],
            size: [width, 1, 1],
            border,
            image_size,
            data,
        };
        self.compressed_image(1, c);
    }

    /// `glCompressedTexImage2D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn compressed_tex_image_2d(
        &mut self,
        target: GLenum,
        level: GLint,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
        border: GLint,
        image_size: GLsizei,
        data: Pixels<'_>,
    ) {
        let c = Compressed {
            target,
            level,
            format: internalformat,
            origin: [0; 3],
            size: [width, height, 1],
            border,
            image_size,
            data,
        };
        self.compressed_image(2, c);
    }

    /// `glCompressedTexImage3D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn compressed_tex_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
        depth: GLsizei,
        border: GLint,
        image_size: GLsizei,
        data: Pixels<'_>,
    ) {
        let c = Compressed {
            target,
            level,
            format: internalformat,
            origin: [0; 3],
            size: [width, height, depth],
            border,
            image_size,
            data,
        };
        self.compressed_image(3, c);
    }

    fn compressed_image(&mut self, dims: u8, c: Compressed<'_>) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) = self.compressed_image_locked(&mut sh, dims, c) {
            self.error(err);
        }
    }

    fn compressed_image_locked(
        &mut self,
        sh: &mut Shared,
        dims: u8,
        c: Compressed<'_>,
    ) -> GlResult {
        let it = image_target(c.target)
            .filter(|it| accepts(dims, *it) && compressible(it.target, c.format))
            .ok_or(INVALID_ENUM)?;
        let block = map_sized_format(c.format)
            .and_then(block_bytes)
            .ok_or(INVALID_ENUM)?;
        if c.image_size < 0 {
            return Err(INVALID_VALUE);
        }
        let [w, h, d] = image_size(dims, c.size);
        let layout = BlockLayout::new(&self.local.st.unpack, dims, block, [w, h, d])?;
        let source = self.compressed_source(sh, c.data, c.image_size as usize, &layout)?;
        if c.level < 0 || c.level >= max_levels(&self.local.limits, it.target) {
            return Err(INVALID_VALUE);
        }
        if c.border != 0 {
            return Err(INVALID_OPERATION);
        }
        let level = c.level as usize;
        if !fits(&self.local.limits, it.target, c.level, w, h, d) {
            if it.proxy {
                self.define_image(sh, it, level, Image::default());
                return Ok(());
            }
            return Err(INVALID_VALUE);
        }
        let expected = compressed_size(block, w, h, d);
        if expected != c.image_size as usize {
            return Err(INVALID_VALUE);
        }
        let image = Image {
            width: w,
            height: h,
            depth: d,
            internal_format: c.format,
            format: map_sized_format(c.format),
            compressed_size: c.image_size,
            ..Image::default()
        };
        self.check_mutable(sh, it)?;
        let Some((_, handle)) = self.define_image(sh, it, level, image) else {
            return Ok(());
        };
        self.emit_blocks(sh, handle, it, level, ([0; 3], [w, h, d]), &layout, source);
        Ok(())
    }

    /// Resolves the data of a compressed upload of `len` bytes laid out as `layout` says (as
    /// [`Self::unpack_source`] does for pixels: only the range read and the mapping matter).
    fn compressed_source<'a>(
        &self,
        sh: &Shared,
        data: Pixels<'a>,
        len: usize,
        layout: &BlockLayout,
    ) -> GlResult<Source<'a>> {
        let fp = Footprint {
            start: layout.skip,
            end: if layout.tight() { len } else { layout.end() },
            align: 1,
            empty: len == 0,
        };
        self.unpack_source(sh, data, fp)
    }

    /// Emits the upload of compressed blocks: one record of them all where they are tightly
    /// packed or in client memory (gathered then), else one per row of blocks of the
    /// buffer.
    #[expect(clippy::too_many_arguments, reason = "one upload's whole description")]
    fn emit_blocks(
        &self,
        sh: &mut Shared,
        texture: TextureHandle,
        it: ImageTarget,
        level: usize,
        (origin, size): ([i32; 3], [i32; 3]),
        layout: &BlockLayout,
        source: Source<'_>,
    ) {
        let len = layout.len();
        if len == 0 || size.iter().any(|s| *s <= 0) {
            return;
        }
        let (level, face) = (level as u8, it.face as u8);
        match source {
            Source::None => {}
            Source::Client(bytes) => {
                let region = Box::new(wire_region(it.target, origin, size));
                let data = if layout.tight() {
                    sh.dev.enc.stage(&bytes[..len])
                } else {
                    sh.dev.enc.stage(&layout.gather(bytes))
                };
                sh.dev.push(Record::WriteCompressedTexture {
                    texture,
                    level,
                    face,
                    region,
                    data,
                });
            }
            Source::Buffer { handle, offset } => {
                let runs = if layout.tight() {
                    vec![(offset, origin, size, len)]
                } else {
                    layout.runs(offset, origin, size)
                };
                for (at, origin, size, len) in runs {
                    sh.dev.push(Record::WriteCompressedTextureFromBuffer {
                        texture,
                        level,
                        face,
                        source: Box::new(BufferBlocks {
                            region: wire_region(it.target, origin, size),
                            buffer: handle,
                            range: BufferRange {
                                offset: at as u64,
                                size: len as u64,
                            },
                        }),
                    });
                }
            }
        }
        sh.flush_if_full();
    }

    /// `glCompressedTexSubImage1D` (always `INVALID_ENUM` in GL 3.3: see
    /// [`compressed_tex_image_1d`](Self::compressed_tex_image_1d)).
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn compressed_tex_sub_image_1d(
        &mut self,
        target: GLenum,
        level: GLint,
        xoffset: GLint,
        width: GLsizei,
        format: GLenum,
        image_size: GLsizei,
        data: Pixels<'_>,
    ) {
        let c = Compressed {
            target,
            level,
            format,
            origin: [xoffset, 0, 0],
            size: [width, 1, 1],
            border: 0,
            image_size,
            data,
        };
        self.compressed_sub_image(1, c);
    }

    /// `glCompressedTexSubImage2D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn compressed_tex_sub_image_2d(
        &mut self,
        target: GLenum,
        level: GLint,
        xoffset: GLint,
        yoffset: GLint,
        width: GLsizei,
        height: GLsizei,
        format: GLenum,
        image_size: GLsizei,
        data: Pixels<'_>,
    ) {
        let c = Compressed {
            target,
            level,
            format,
            origin: [xoffset, yoffset, 0],
            size: [width, height, 1],
            border: 0,
            image_size,
            data,
        };
        self.compressed_sub_image(2, c);
    }

    /// `glCompressedTexSubImage3D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn compressed_tex_sub_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        xoffset: GLint,
        yoffset: GLint,
        zoffset: GLint,
        width: GLsizei,
        height: GLsizei,
        depth: GLsizei,
        format: GLenum,
        image_size: GLsizei,
        data: Pixels<'_>,
    ) {
        let c = Compressed {
            target,
            level,
            format,
            origin: [xoffset, yoffset, zoffset],
            size: [width, height, depth],
            border: 0,
            image_size,
            data,
        };
        self.compressed_sub_image(3, c);
    }

    fn compressed_sub_image(&mut self, dims: u8, c: Compressed<'_>) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) = self.compressed_sub_image_locked(&mut sh, dims, c) {
            self.error(err);
        }
    }

    fn compressed_sub_image_locked(
        &mut self,
        sh: &mut Shared,
        dims: u8,
        c: Compressed<'_>,
    ) -> GlResult {
        let it = image_target(c.target)
            .filter(|it| !it.proxy)
            .ok_or(INVALID_ENUM)?;
        let target_ok = match dims {
            2 => matches!(it.target, TextureTarget::D2 | TextureTarget::Cube),
            3 if it.target == TextureTarget::D3 && !is_bptc(c.format) => {
                return Err(INVALID_OPERATION);
            }
            3 => matches!(it.target, TextureTarget::D2Array | TextureTarget::D3),
            _ => false,
        };
        if !target_ok {
            return Err(INVALID_ENUM);
        }
        let Some(block) = map_sized_format(c.format).and_then(block_bytes) else {
            let generic = matches!(
                c.format,
                COMPRESSED_RED
                    | COMPRESSED_RG
                    | COMPRESSED_RGB
                    | COMPRESSED_RGBA
                    | COMPRESSED_SRGB
                    | COMPRESSED_SRGB_ALPHA
            );
            return Err(if generic {
                INVALID_ENUM
            } else {
                INVALID_OPERATION
            });
        };
        if c.level < 0 || c.level >= max_levels(&self.local.limits, it.target) {
            return Err(INVALID_VALUE);
        }
        if c.image_size < 0 {
            return Err(INVALID_VALUE);
        }
        let size = image_size(dims, c.size);
        let layout = BlockLayout::new(&self.local.st.unpack, dims, block, size)?;
        let source = self.compressed_source(sh, c.data, c.image_size as usize, &layout)?;
        if compressed_size(block, size[0], size[1], size[2]) != c.image_size as usize {
            return Err(INVALID_VALUE);
        }
        let level = c.level as usize;
        let (handle, image) = self.target_image(sh, it, level)?;
        if image.internal_format != c.format {
            return Err(INVALID_OPERATION);
        }
        if size.iter().any(|s| *s < 0) {
            return Err(INVALID_VALUE);
        }
        check_region(&image, c.origin, size)?;
        // Blocks are 4x4: a region starts on a block and ends on one or at the image's edge.
        let misaligned = |o: i32, s: i32, full: i32| o % 4 != 0 || (s % 4 != 0 && o + s != full);
        if misaligned(c.origin[0], size[0], image.width)
            || misaligned(c.origin[1], size[1], image.height)
        {
            return Err(INVALID_OPERATION);
        }
        self.emit_blocks(sh, handle, it, level, (c.origin, size), &layout, source);
        Ok(())
    }
}

/// Where `glGetCompressedTexImage` puts an image's blocks: the pack state's block layout
/// ([`BlockLayout`], whose end is the bytes the call may touch, Mesa's
/// `packed_compressed_size`), and the block rows copied per slice, which Mesa counts with
/// `PACK_COMPRESSED_BLOCK_HEIGHT` where it and the block size are set (never more than the
/// image has here).
struct PackBlocks {
    layout: BlockLayout,
    copy_rows: usize,
}

impl PackBlocks {
    /// The layout of `image` (of a texture of `target`) under `store`; `INVALID_OPERATION`
    /// where a skip is not a whole number of blocks.
    fn new(store: &PixelStore, target: TextureTarget, image: &Image) -> GlResult<Option<Self>> {
        let Some(block) = image.format.and_then(block_bytes) else {
            return Ok(None);
        };
        // Mesa's _mesa_get_texture_dimensions of the texture's target.
        let dims = match target {
            TextureTarget::D1 => 1,
            TextureTarget::D3 | TextureTarget::D2Array | TextureTarget::CubeArray => 3,
            _ => 2,
        };
        let size = [image.width, image.height, image.depth];
        let layout = BlockLayout::new(store, dims, block, size)?;
        let [_, bh, _, bs] = store.compressed_block;
        let copy_rows = if dims > 1 && bh > 0 && bs > 0 {
            (image.height.max(0) as usize)
                .div_ceil(bh as usize)
                .min(layout.rows)
        } else {
            layout.rows
        };
        Ok(Some(Self { layout, copy_rows }))
    }

    /// Whether the blocks land as they travel: from byte 0, rows and slices tightly packed.
    fn tight(&self) -> bool {
        self.layout.tight() && self.copy_rows == self.layout.rows
    }

    /// Puts the tightly packed blocks `tight` into `out` (at least `layout.end()` bytes).
    fn pack(&self, tight: &[u8], out: &mut [u8]) {
        let l = &self.layout;
        for z in 0..l.slices {
            for r in 0..self.copy_rows {
                let from = (z * l.rows + r) * l.row;
                let to = l.skip + z * l.slice + r * l.stride;
                out[to..to + l.row].copy_from_slice(&tight[from..from + l.row]);
            }
        }
    }
}

impl Context {
    /// Bytes `glGetCompressedTexImage(target, level)` may write under the pack state (0
    /// where the call would write nothing or fail): what the C ABI hands over of client
    /// memory.
    pub fn compressed_pack_len(&mut self, target: GLenum, level: GLint) -> usize {
        let Some(it) = image_target(target).filter(|it| !it.proxy) else {
            return 0;
        };
        if level < 0 || level >= max_levels(&self.local.limits, it.target) {
            return 0;
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let Ok((_, image)) = self.target_image(&mut sh, it, level as usize) else {
            return 0;
        };
        match PackBlocks::new(&self.local.st.pack, it.target, &image) {
            Ok(Some(p)) if p.layout.len() > 0 => p.layout.end(),
            _ => 0,
        }
    }

    /// `glGetCompressedTexImage`. Every error is decided here, in Mesa's order: a target
    /// that has no compressed images (`INVALID_ENUM`), a level out of range
    /// (`INVALID_VALUE`; for a level without an image too, where the target is 1D or 2D:
    /// elsewhere it writes nothing, as an empty image does), an image that is not
    /// compressed (`INVALID_OPERATION`), skips that are
    /// not whole blocks under the pack state's `PACK_COMPRESSED_BLOCK_*` values
    /// (`INVALID_OPERATION`), a pixel pack buffer the blocks overrun or that is mapped
    /// (`INVALID_OPERATION`). The blocks come from the backend (`ReadCompressedTexture`) and
    /// land as [`PackBlocks`] places them: straight into the pack buffer where they land as
    /// they travel, else packed here.
    pub fn get_compressed_tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        pixels: crate::pixel::PixelsMut<'_>,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) = self.get_compressed_tex_image_locked(&mut sh, target, level, pixels) {
            self.error(err);
        }
    }

    fn get_compressed_tex_image_locked(
        &mut self,
        sh: &mut Shared,
        target: GLenum,
        level: GLint,
        pixels: crate::pixel::PixelsMut<'_>,
    ) -> GlResult {
        use crate::pixel::PixelsMut;
        use tessera_components::object::Buffer;
        use tessera_components::state::BufferTarget;
        use tessera_wire::Reply;
        use tessera_wire::record::{PixelDestination, TextureRead};
        let it = image_target(target)
            .filter(|it| {
                !it.proxy
                    && !matches!(
                        it.target,
                        TextureTarget::Buffer
                            | TextureTarget::D2Multisample
                            | TextureTarget::D2MultisampleArray
                    )
            })
            .ok_or(INVALID_ENUM)?;
        if level < 0 || level >= max_levels(&self.local.limits, it.target) {
            return Err(INVALID_VALUE);
        }
        let Ok((handle, image)) = self.target_image(sh, it, level as usize) else {
            // Mesa checks a missing image's size of 0x0x0 as a region: a depth other than 1
            // is refused for 2D targets, a height other than 1 for 1D; other targets read
            // nothing.
            return match it.target {
                TextureTarget::D1
                | TextureTarget::D1Array
                | TextureTarget::D2
                | TextureTarget::Rectangle => Err(INVALID_VALUE),
                _ => Ok(()),
            };
        };
        if image.width <= 0 || image.height <= 0 || image.depth <= 0 {
            return Ok(());
        }
        let pack =
            PackBlocks::new(&self.local.st.pack, it.target, &image)?.ok_or(INVALID_OPERATION)?;
        let (end, len) = (pack.layout.end(), pack.layout.len());
        let size = wire_region(it.target, [0; 3], [image.width, image.height, image.depth]).size;
        let read = |dst| Record::ReadCompressedTexture {
            texture: handle,
            level: level as u8,
            face: it.face as u8,
            read: Box::new(TextureRead { size, dst }),
        };
        let read_back = |sh: &mut Shared| {
            let reply = sh.dev.enc.mint_reply();
            sh.dev.push(read(PixelDestination::Reply(reply)));
            let mut tight = match sh.wait(reply) {
                Some(Reply::Bytes(bytes)) => bytes,
                _ => Vec::new(),
            };
            tight.resize(len, 0);
            tight
        };
        match (self.local.st.buffer(BufferTarget::PixelPack), pixels) {
            (None, PixelsMut::Bytes(out)) => {
                if out.len() < end {
                    return Err(INVALID_OPERATION);
                }
                let tight = read_back(sh);
                pack.pack(&tight, out);
                Ok(())
            }
            (Some(e), PixelsMut::Offset(offset)) => {
                let b = sh.world.get::<Buffer>(e).ok_or(INVALID_OPERATION)?;
                if offset
                    .checked_add(end)
                    .is_none_or(|n| n as u64 > b.size.max(0) as u64)
                {
                    return Err(INVALID_OPERATION);
                }
                if b.mapped_exclusively() {
                    return Err(INVALID_OPERATION);
                }
                let buffer = b.handle;
                if pack.tight() {
                    sh.dev.push(read(PixelDestination::Buffer {
                        buffer,
                        offset: offset as u64,
                    }));
                    // The backend writes the pack buffer: the client copy of the range is
                    // stale.
                    crate::buffer::shadow_stale(sh, e, offset as u64, len as u64);
                    return Ok(());
                }
                // Rows with gaps: read the blocks and the buffer range, pack, write back.
                let tight = read_back(sh);
                let start = pack.layout.skip;
                let reply = sh.dev.enc.mint_reply();
                sh.dev.push(Record::ReadBuffer {
                    buffer,
                    range: Box::new(BufferRange {
                        offset: offset as u64,
                        size: end as u64,
                    }),
                    reply,
                });
                let mut bytes = match sh.wait(reply) {
                    Some(Reply::Bytes(bytes)) if bytes.len() >= end => bytes,
                    _ => vec![0; end],
                };
                pack.pack(&tight, &mut bytes);
                let data = sh.dev.enc.stage(&bytes[start..end]);
                sh.dev.push(Record::WriteBuffer {
                    buffer,
                    offset: (offset + start) as u64,
                    data,
                });
                crate::buffer::shadow_write(sh, e, (offset + start) as u64, &bytes[start..end]);
                Ok(())
            }
            _ => Err(INVALID_OPERATION),
        }
    }
}

impl Context {
    /// `glGetCompressedTextureSubImage` on the named texture of target `t` past the checks
    /// of `region` (a box in pixels, within the image, whole blocks but at the edges): the
    /// rest of Mesa's checks in its order (the image compressed, the pack state's block
    /// skips, the destination's bounds: `INVALID_OPERATION`), then each image's blocks read
    /// whole, cut to the box's blocks and packed as `glGetCompressedTexImage` packs; a cube
    /// map's faces are the box's z, one packed slice apart.
    pub(crate) fn get_compressed_tex_sub_image(
        &mut self,
        t: TextureTarget,
        level: usize,
        region: super::ReadBox,
        buf_size: GLsizei,
        mut pixels: crate::pixel::PixelsMut<'_>,
    ) -> GlResult {
        use crate::pixel::PixelsMut;
        use tessera_components::object::Buffer;
        use tessera_components::state::BufferTarget;
        use tessera_wire::Reply;
        use tessera_wire::record::{PixelDestination, TextureRead};
        let cube = t == TextureTarget::Cube;
        let first = ImageTarget {
            target: t,
            face: if cube { region.offset[2] } else { 0 },
            proxy: false,
        };
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let (handle, image) = self.target_image(&mut sh, first, level)?;
        let block = image
            .format
            .and_then(block_bytes)
            .ok_or(INVALID_OPERATION)?;
        let [w, h, d] = region.size;
        let faces = if cube { d } else { 1 };
        let boxed = Image {
            width: w as i32,
            height: h as i32,
            depth: if cube { 1 } else { d as i32 },
            ..image
        };
        let pack = PackBlocks::new(&self.local.st.pack, t, &boxed)?.ok_or(INVALID_OPERATION)?;
        let end = pack.layout.end() + (faces - 1) * pack.layout.slice;
        let pack_buffer = self.local.st.buffer(BufferTarget::PixelPack);
        match (pack_buffer, &pixels) {
            (None, PixelsMut::Bytes(b)) => {
                if end > buf_size.max(0) as usize {
                    return Err(INVALID_OPERATION);
                }
                if b.is_empty() {
                    return Ok(());
                }
            }
            (Some(e), PixelsMut::Offset(offset)) => {
                let b = sh.world.get::<Buffer>(e).ok_or(INVALID_OPERATION)?;
                let size = usize::try_from(b.size).unwrap_or(0);
                if offset.checked_add(end).is_none_or(|n| n > size) || b.mapped_exclusively() {
                    return Err(INVALID_OPERATION);
                }
            }
            _ => return Err(INVALID_OPERATION),
        }
        let blocks = |n: i32| (n.max(0) as usize).div_ceil(4);
        let full = [
            blocks(image.width),
            blocks(image.height),
            image.depth.max(0) as usize,
        ];
        let cut = super::ReadBox {
            offset: [
                region.offset[0] / 4,
                region.offset[1] / 4,
                if cube { 0 } else { region.offset[2] },
            ],
            size: [w.div_ceil(4), h.div_ceil(4), if cube { 1 } else { d }],
        };
        let size = wire_region(t, [0; 3], [image.width, image.height, image.depth]).size;
        // A pack buffer's range is read, packed into and written back.
        let mut staged = None;
        if let (Some(e), PixelsMut::Offset(offset)) = (pack_buffer, &pixels) {
            let buffer = sh.world.get::<Buffer>(e).ok_or(INVALID_OPERATION)?.handle;
            let reply = sh.dev.enc.mint_reply();
            sh.dev.push(Record::ReadBuffer {
                buffer,
                range: Box::new(BufferRange {
                    offset: *offset as u64,
                    size: end as u64,
                }),
                reply,
            });
            staged = match sh.wait(reply) {
                Some(Reply::Bytes(bytes)) if bytes.len() >= end => Some(bytes),
                _ => Some(vec![0; end]),
            };
        }
        for i in 0..faces {
            let face = first.face + i;
            let reply = sh.dev.enc.mint_reply();
            sh.dev.push(Record::ReadCompressedTexture {
                texture: handle,
                level: level as u8,
                face: face as u8,
                read: Box::new(TextureRead {
                    size,
                    dst: PixelDestination::Reply(reply),
                }),
            });
            let mut tight = match sh.wait(reply) {
                Some(Reply::Bytes(bytes)) => bytes,
                _ => Vec::new(),
            };
            tight.resize(full.iter().product::<usize>() * block, 0);
            let blocks = cut.crop(&tight, full, block);
            let at = i * pack.layout.slice;
            match (&mut staged, &mut pixels) {
                (Some(bytes), _) => pack.pack(&blocks, &mut bytes[at..]),
                (None, PixelsMut::Bytes(out)) => pack.pack(&blocks, &mut out[at..]),
                _ => {}
            }
        }
        if let (Some(bytes), Some(e), PixelsMut::Offset(offset)) = (staged, pack_buffer, pixels) {
            let Some(buffer) = sh.world.get::<Buffer>(e).map(|b| b.handle) else {
                return Ok(());
            };
            let start = pack.layout.skip;
            let data = sh.dev.enc.stage(&bytes[start..end]);
            sh.dev.push(Record::WriteBuffer {
                buffer,
                offset: (offset + start) as u64,
                data,
            });
            crate::buffer::shadow_write(&mut sh, e, (offset + start) as u64, &bytes[start..end]);
        }
        Ok(())
    }
}

//! Texture calls that read images: copies from the read framebuffer (`copy_tex_image_*`,
//! `copy_tex_sub_image_*`), mipmap generation, and `get_tex_image`.
//!
//! Copies read through the framebuffer domain (`read_source`/`read_image`), whose errors are
//! the read framebuffer's; the copy itself is a `CopyTexture` record per rectangle. A 1D
//! array's GL rows are its layers, so a copy into one is a record per row.
//! `get_tex_image` is the one read-back here: it waits for the backend's reply (or has it
//! write a pixel pack buffer directly when the pack state is tight).

use tessera_components::gl::*;
use tessera_components::object::{Buffer, Image, MAX_LEVELS, Texture};
use tessera_components::state::{BufferTarget, TextureTarget};
use tessera_systems::texture::{chain_length, chain_size};
use tessera_wire::Reply;
use tessera_wire::format::FormatClass;
use tessera_wire::handle::TextureHandle;
use tessera_wire::record::{
    BufferRange, PixelDestination, ReadImage, ReadSource, Record, TextureCopy, TextureRead,
};
use tessera_wire::state::Rect;

use super::format::{
    Base, block_bytes, check_format_type, compressed_size, image_base, internal_format,
    is_integer_format,
};
use super::image::{check_region, store_for, wire_region};
use super::{ImageTarget, fits, image_target, max_levels};
use crate::context::{Context, GlResult};
use crate::pixel::{self, PixelsMut, client_layout, pixel_size};
use crate::share::Shared;

/// Whether `copy_tex_(sub_)image_{dims}d` accepts an image target (never a proxy).
fn copy_accepts(dims: u8, it: ImageTarget) -> bool {
    !it.proxy
        && match dims {
            1 => it.target == TextureTarget::D1,
            2 => matches!(
                it.target,
                TextureTarget::D2
                    | TextureTarget::D1Array
                    | TextureTarget::Rectangle
                    | TextureTarget::Cube
            ),
            _ => matches!(
                it.target,
                TextureTarget::D3 | TextureTarget::D2Array | TextureTarget::CubeArray
            ),
        }
}

/// The arguments of a framebuffer copy into a texture.
#[derive(Clone, Copy, Debug)]
struct CopySpec {
    target: GLenum,
    level: GLint,
    /// Where in the image (x, y, z or layer).
    offset: [GLint; 3],
    /// The framebuffer rectangle.
    rect: Rect,
}

impl Context {
    /// The read framebuffer must be complete (`INVALID_FRAMEBUFFER_OPERATION`) and
    /// single-sampled (`INVALID_OPERATION`) for a copy.
    fn check_copy_framebuffer(&self, sh: &Shared) -> GlResult {
        let fb = self.local.st.read_framebuffer;
        if self.local.framebuffer_status(sh, fb) != FRAMEBUFFER_COMPLETE {
            return Err(INVALID_FRAMEBUFFER_OPERATION);
        }
        if self.local.framebuffer_samples(sh, fb) > 0 {
            return Err(INVALID_OPERATION);
        }
        Ok(())
    }

    /// The framebuffer image a copy into an image storing `base` reads (colour: the read
    /// buffer; depth: the depth image), with its format. Integer colour copies need an
    /// integer read buffer and the reverse (`INVALID_OPERATION`).
    fn copy_source(&self, sh: &mut Shared, base: Base, integer: bool) -> GlResult<ReadSource> {
        let (source, format) = match base {
            Base::Color => self.local.read_source(sh)?,
            Base::Depth => self.local.read_image(sh, ReadImage::Depth)?,
            Base::DepthStencil => self.local.read_image(sh, ReadImage::DepthStencil)?,
            Base::Stencil => self.local.read_image(sh, ReadImage::Stencil)?,
        };
        let source_integer = matches!(format.info().class, FormatClass::Int | FormatClass::Uint);
        if base == Base::Color && integer != source_integer {
            return Err(INVALID_OPERATION);
        }
        Ok(source)
    }

    /// Emits the copy of `rect` to `offset` of an image.
    fn emit_copy(
        &self,
        sh: &mut Shared,
        texture: TextureHandle,
        it: ImageTarget,
        level: usize,
        src: ReadSource,
        (offset, rect): ([i32; 3], Rect),
    ) {
        if rect.width <= 0 || rect.height <= 0 {
            return;
        }
        let rows: Vec<([i32; 3], Rect)> = if it.target == TextureTarget::D1Array {
            (0..rect.height)
                .map(|i| {
                    let row = Rect {
                        y: rect.y + i,
                        height: 1,
                        ..rect
                    };
                    ([offset[0], offset[1] + i, 0], row)
                })
                .collect()
        } else {
            vec![(offset, rect)]
        };
        for (origin, rect) in rows {
            let region = wire_region(it.target, origin, [rect.width, rect.height, 1]);
            sh.dev.push(Record::CopyTexture {
                texture,
                level: level as u8,
                face: it.face as u8,
                region: Box::new(TextureCopy {
                    src,
                    origin: region.origin,
                    rect,
                }),
            });
        }
    }

    /// `glCopyTexImage1D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn copy_tex_image_1d(
        &mut self,
        target: GLenum,
        level: GLint,
        internalformat: GLenum,
        x: GLint,
        y: GLint,
        width: GLsizei,
        border: GLint,
    ) {
        let rect = Rect {
            x,
            y,
            width,
            height: 1,
        };
        self.copy_image(1, target, level, internalformat, rect, border);
    }

    /// `glCopyTexImage2D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn copy_tex_image_2d(
        &mut self,
        target: GLenum,
        level: GLint,
        internalformat: GLenum,
        x: GLint,
        y: GLint,
        width: GLsizei,
        height: GLsizei,
        border: GLint,
    ) {
        let rect = Rect {
            x,
            y,
            width,
            height,
        };
        self.copy_image(2, target, level, internalformat, rect, border);
    }

    fn copy_image(
        &mut self,
        dims: u8,
        target: GLenum,
        level: GLint,
        internal: GLenum,
        rect: Rect,
        border: GLint,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) =
            self.copy_image_locked(&mut sh, dims, target, level, internal, rect, border)
        {
            self.error(err);
        }
    }

    /// Mesa's order: target, level, read framebuffer, border, internal format, the image
    /// read, format agreement, then the size.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    fn copy_image_locked(
        &mut self,
        sh: &mut Shared,
        dims: u8,
        target: GLenum,
        level: GLint,
        internal: GLenum,
        rect: Rect,
        border: GLint,
    ) -> GlResult {
        let it = image_target(target)
            .filter(|it| copy_accepts(dims, *it))
            .ok_or(INVALID_ENUM)?;
        if level < 0 || level >= max_levels(&self.local.limits, it.target) {
            return Err(INVALID_VALUE);
        }
        self.check_copy_framebuffer(sh)?;
        if border != 0 {
            return Err(INVALID_VALUE);
        }
        let kind =
            internal_format(internal, self.local.limits.texture_stencil8).ok_or(INVALID_ENUM)?;
        if kind.block_bytes.is_some()
            && !matches!(it.target, TextureTarget::D2 | TextureTarget::Cube)
        {
            return Err(INVALID_ENUM);
        }
        if super::image::is_etc2(internal) {
            return Err(INVALID_OPERATION);
        }
        let [w, h] = [rect.width, rect.height];
        if !fits(&self.local.limits, it.target, level, w, h, 1) {
            return Err(INVALID_VALUE);
        }
        let src = self.copy_source(sh, kind.base, kind.integer)?;
        let ty = match kind.base {
            Base::Color => UNSIGNED_BYTE,
            Base::Depth => UNSIGNED_INT,
            Base::DepthStencil => UNSIGNED_INT_24_8,
            Base::Stencil => UNSIGNED_BYTE,
        };
        let format = super::format::texture_format(internal, ty).ok_or(INVALID_ENUM)?;
        let image = Image {
            width: w,
            height: h,
            depth: 1,
            internal_format: internal,
            format: Some(format),
            compressed_size: kind
                .block_bytes
                .map_or(0, |b| compressed_size(b, w, h, 1) as i32),
            ..Image::default()
        };
        self.check_mutable(sh, it)?;
        let level = level as usize;
        if let Some((_, handle)) = self.define_image(sh, it, level, image) {
            self.emit_copy(sh, handle, it, level, src, ([0; 3], rect));
        }
        Ok(())
    }

    /// `glCopyTexSubImage1D`.
    pub fn copy_tex_sub_image_1d(
        &mut self,
        target: GLenum,
        level: GLint,
        xoffset: GLint,
        x: GLint,
        y: GLint,
        width: GLsizei,
    ) {
        let spec = CopySpec {
            target,
            level,
            offset: [xoffset, 0, 0],
            rect: Rect {
                x,
                y,
                width,
                height: 1,
            },
        };
        self.copy_sub_image(1, spec);
    }

    /// `glCopyTexSubImage2D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn copy_tex_sub_image_2d(
        &mut self,
        target: GLenum,
        level: GLint,
        xoffset: GLint,
        yoffset: GLint,
        x: GLint,
        y: GLint,
        width: GLsizei,
        height: GLsizei,
    ) {
        let spec = CopySpec {
            target,
            level,
            offset: [xoffset, yoffset, 0],
            rect: Rect {
                x,
                y,
                width,
                height,
            },
        };
        self.copy_sub_image(2, spec);
    }

    /// `glCopyTexSubImage3D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn copy_tex_sub_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        xoffset: GLint,
        yoffset: GLint,
        zoffset: GLint,
        x: GLint,
        y: GLint,
        width: GLsizei,
        height: GLsizei,
    ) {
        let spec = CopySpec {
            target,
            level,
            offset: [xoffset, yoffset, zoffset],
            rect: Rect {
                x,
                y,
                width,
                height,
            },
        };
        self.copy_sub_image(3, spec);
    }

    fn copy_sub_image(&mut self, dims: u8, spec: CopySpec) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) = self.copy_sub_image_locked(&mut sh, dims, spec) {
            self.error(err);
        }
    }

    /// Mesa's order: target, read framebuffer, level, an image at the level, sizes, the
    /// region, the image read, format agreement.
    fn copy_sub_image_locked(&mut self, sh: &mut Shared, dims: u8, spec: CopySpec) -> GlResult {
        let it = image_target(spec.target)
            .filter(|it| copy_accepts(dims, *it))
            .ok_or(INVALID_ENUM)?;
        self.check_copy_framebuffer(sh)?;
        if spec.level < 0 || spec.level >= max_levels(&self.local.limits, it.target) {
            return Err(INVALID_VALUE);
        }
        let level = spec.level as usize;
        let (handle, image) = self.target_image(sh, it, level)?;
        let size = [spec.rect.width, spec.rect.height, 1];
        if size.iter().any(|s| *s < 0) {
            return Err(INVALID_VALUE);
        }
        // The rectangle's rows go to consecutive layers of a 1D array and to one slice of
        // a 3D or 2D array image.
        check_region(&image, spec.offset, size)?;
        if super::image::is_etc2(image.internal_format) {
            return Err(INVALID_OPERATION);
        }
        let integer = image
            .format
            .is_some_and(|f| matches!(f.info().class, FormatClass::Int | FormatClass::Uint));
        let src = self.copy_source(sh, image_base(&image), integer)?;
        self.emit_copy(sh, handle, it, level, src, (spec.offset, spec.rect));
        Ok(())
    }

    /// `glGenerateMipmap`: fills levels base + 1 up to `q` (GL 3.3 §3.8.11) of the texture
    /// bound to `target` from its base level, defining them with the base level's internal
    /// format. `INVALID_OPERATION` if the base level has no image, if a cube map is not cube
    /// complete, or for an integer format (which cannot be filtered; Mesa refuses it too).
    /// A base level beyond the last possible level does nothing, as in Mesa.
    pub fn generate_mipmap(&mut self, target: GLenum) {
        let t = match target {
            TEXTURE_1D => TextureTarget::D1,
            TEXTURE_2D => TextureTarget::D2,
            TEXTURE_3D => TextureTarget::D3,
            TEXTURE_1D_ARRAY => TextureTarget::D1Array,
            TEXTURE_2D_ARRAY => TextureTarget::D2Array,
            TEXTURE_CUBE_MAP => TextureTarget::Cube,
            TEXTURE_CUBE_MAP_ARRAY => TextureTarget::CubeArray,
            _ => return self.error(INVALID_ENUM),
        };
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) = self.generate_mipmap_locked(&mut sh, t) {
            self.error(err);
        }
    }

    fn generate_mipmap_locked(&mut self, sh: &mut Shared, t: TextureTarget) -> GlResult {
        let e = self.target_texture(sh, t);
        let Some(texture) = sh.world.get::<Texture>(e) else {
            return Ok(());
        };
        let (base_level, max_level) = texture.level_range();
        let Some(base) = usize::try_from(base_level)
            .ok()
            .filter(|b| *b < max_levels(&self.local.limits, t) as usize)
        else {
            return Ok(());
        };
        let faces = if t == TextureTarget::Cube { 6 } else { 1 };
        let b = texture.images[0][base];
        if !b.is_defined() {
            return Err(INVALID_OPERATION);
        }
        if t == TextureTarget::Cube {
            let cube_complete = texture.images.iter().all(|face| {
                let img = &face[base];
                img.is_defined()
                    && img.internal_format == b.internal_format
                    && img.width == img.height
                    && (img.width, img.height) == (b.width, b.height)
                    && img.width > 0
            });
            if !cube_complete {
                return Err(INVALID_OPERATION);
            }
        }
        if b.format
            .is_some_and(|f| matches!(f.info().class, FormatClass::Int | FormatClass::Uint))
        {
            return Err(INVALID_OPERATION);
        }
        let top = (base as i64 + i64::from(chain_length(t, &b)))
            .min(i64::from(max_level))
            .min(i64::from(max_levels(&self.local.limits, t)) - 1)
            .min(MAX_LEVELS as i64 - 1);
        if top <= base as i64 || b.width == 0 || b.height == 0 || b.depth == 0 {
            return Ok(());
        }
        let top = top as usize;
        let handle = texture.handle;
        let images = texture.images;
        for level in base + 1..=top {
            for (face, chain) in images.iter().enumerate().take(faces) {
                let from = chain[base];
                let (w, h, d) = chain_size(t, &from, (level - base) as i32);
                let image = Image {
                    width: w,
                    height: h,
                    depth: d,
                    compressed_size: from
                        .format
                        .and_then(block_bytes)
                        .map_or(0, |bytes| compressed_size(bytes, w, h, d) as i32),
                    ..from
                };
                if chain[level] != image {
                    let it = ImageTarget {
                        target: t,
                        face,
                        proxy: false,
                    };
                    self.define_image(sh, it, level, image);
                }
            }
        }
        sh.dev.push(Record::GenerateMipmap {
            texture: handle,
            base: base as u8,
            max: top as u8,
        });
        Ok(())
    }

    /// `glGetTexImage`: reads one image back as `format`/`type` pixels, packed per the pack
    /// state into client memory or the pixel pack buffer. Nothing happens for a level
    /// without an image.
    pub fn get_tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        ty: GLenum,
        pixels: PixelsMut<'_>,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let read = self.get_tex_image_locked(&mut sh, target, level, None, format, ty, pixels);
        if let Err(err) = read {
            self.error(err);
        }
    }

    /// `glGetTextureSubImage`'s read of one image (a cube map face by its face target): the
    /// box `region` (offset, size) of it, packed as `glGetTexImage` packs the whole image.
    /// The caller has made Mesa's checks of the box and the destination.
    pub(crate) fn get_tex_sub_image(
        &mut self,
        target: GLenum,
        level: GLint,
        region: ReadBox,
        format: GLenum,
        ty: GLenum,
        pixels: PixelsMut<'_>,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let read =
            self.get_tex_image_locked(&mut sh, target, level, Some(region), format, ty, pixels);
        if let Err(err) = read {
            self.error(err);
        }
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "the bound and boxed reads share one body"
    )]
    fn get_tex_image_locked(
        &mut self,
        sh: &mut Shared,
        target: GLenum,
        level: GLint,
        region: Option<ReadBox>,
        format: GLenum,
        ty: GLenum,
        pixels: PixelsMut<'_>,
    ) -> GlResult {
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
        let layout = check_format_type(format, ty)?;
        let level = level as usize;
        let Ok((handle, image)) = self.target_image(sh, it, level) else {
            return Ok(());
        };
        check_read_format(&image, format)?;
        let dims = match it.target {
            TextureTarget::D1 => 1,
            TextureTarget::D3 | TextureTarget::D2Array | TextureTarget::CubeArray => 3,
            _ => 2,
        };
        let store = store_for(&self.local.st.pack, dims);
        let px = pixel_size(layout.format, layout.ty);
        let full = [image.width, image.height, image.depth].map(|v| v.max(0) as usize);
        let region = region.unwrap_or(ReadBox {
            offset: [0; 3],
            size: full,
        });
        let whole = region.offset == [0; 3] && region.size == full;
        let [w, h, d] = region.size;
        let l = client_layout(&store, px, w, h, d);
        let empty = w == 0 || h == 0 || d == 0;
        let pack = self.local.st.buffer(BufferTarget::PixelPack);
        let wire = wire_region(it.target, [0; 3], full.map(|v| v as i32)).size;
        let read = |dst| Record::ReadTexture {
            texture: handle,
            level: level as u8,
            face: it.face as u8,
            layout,
            read: Box::new(TextureRead { size: wire, dst }),
        };
        let image_len = full.iter().product::<usize>() * px.bytes;
        let read_region = |sh: &mut Shared| {
            let tight = read_back(sh, read, image_len);
            if whole {
                tight
            } else {
                region.crop(&tight, full, px.bytes)
            }
        };
        match (pack, pixels) {
            (None, PixelsMut::Offset(_)) => Err(INVALID_OPERATION),
            (Some(_), PixelsMut::Bytes(_)) => Err(INVALID_OPERATION),
            (None, PixelsMut::Bytes(out)) => {
                if empty {
                    return Ok(());
                }
                if out.len() < l.end {
                    return Err(INVALID_OPERATION);
                }
                let tight = read_region(sh);
                pixel::pack(&store, px, w, h, d, &tight, out);
                Ok(())
            }
            (Some(e), PixelsMut::Offset(offset)) => {
                let b = sh.world.get::<Buffer>(e).ok_or(INVALID_OPERATION)?;
                let size = usize::try_from(b.size).unwrap_or(0);
                if !empty
                    && (offset.checked_add(l.end).is_none_or(|end| end > size)
                        || offset % px.element.max(1) != 0)
                {
                    return Err(INVALID_OPERATION);
                }
                if b.mapped_exclusively() {
                    return Err(INVALID_OPERATION);
                }
                if empty {
                    return Ok(());
                }
                let buffer = b.handle;
                let tight_layout = whole
                    && l.start == 0
                    && l.row_stride == l.tight_row
                    && (d <= 1 || l.image_stride == l.row_stride * h)
                    && !store.swap_bytes;
                if tight_layout {
                    sh.dev.push(read(PixelDestination::Buffer {
                        buffer,
                        offset: offset as u64,
                    }));
                    // The GPU writes the pack buffer: the client copy of the range is stale.
                    crate::buffer::shadow_stale(sh, e, offset as u64, l.end as u64);
                    return Ok(());
                }
                // Rows with gaps (or a box of the image): read the image and the buffer
                // range, pack, write back.
                let tight = read_region(sh);
                let reply = sh.dev.enc.mint_reply();
                sh.dev.push(Record::ReadBuffer {
                    buffer,
                    range: Box::new(BufferRange {
                        offset: offset as u64,
                        size: l.end as u64,
                    }),
                    reply,
                });
                let mut bytes = match sh.wait(reply) {
                    Some(Reply::Bytes(bytes)) if bytes.len() >= l.end => bytes,
                    _ => vec![0; l.end],
                };
                pixel::pack(&store, px, w, h, d, &tight, &mut bytes);
                let data = sh.dev.enc.stage(&bytes[l.start..l.end]);
                sh.dev.push(Record::WriteBuffer {
                    buffer,
                    offset: (offset + l.start) as u64,
                    data,
                });
                crate::buffer::shadow_write(
                    sh,
                    e,
                    (offset + l.start) as u64,
                    &bytes[l.start..l.end],
                );
                Ok(())
            }
        }
    }
}

/// A box of an image that `glGetTextureSubImage` reads: its offset and size (x, y, and z,
/// layer or cube face).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReadBox {
    pub offset: [usize; 3],
    pub size: [usize; 3],
}

impl ReadBox {
    /// The box's elements (pixels, or compressed blocks where the box and `full` count
    /// blocks) of `tight`, an image of `full` elements of `bytes` bytes each, tightly packed.
    pub(crate) fn crop(&self, tight: &[u8], full: [usize; 3], bytes: usize) -> Vec<u8> {
        let row = self.size[0] * bytes;
        let mut out = Vec::with_capacity(row * self.size[1] * self.size[2]);
        for z in self.offset[2]..self.offset[2] + self.size[2] {
            for y in self.offset[1]..self.offset[1] + self.size[1] {
                let from = ((z * full[1] + y) * full[0] + self.offset[0]) * bytes;
                match tight.get(from..from + row) {
                    Some(r) => out.extend_from_slice(r),
                    None => out.resize(out.len() + row, 0),
                }
            }
        }
        out
    }
}

/// Emits a read-back into a reply and waits for it: `len` bytes (zeros if the session is
/// lost or the reply is short).
fn read_back(sh: &mut Shared, read: impl Fn(PixelDestination) -> Record, len: usize) -> Vec<u8> {
    let reply = sh.dev.enc.mint_reply();
    sh.dev.push(read(PixelDestination::Reply(reply)));
    let mut tight = match sh.wait(reply) {
        Some(Reply::Bytes(bytes)) => bytes,
        _ => Vec::new(),
    };
    tight.resize(len, 0);
    tight
}

/// Whether an image can be read back as client `format` (`INVALID_OPERATION` otherwise):
/// depth formats need depth, `DEPTH_STENCIL` depth and stencil, `STENCIL_INDEX` stencil,
/// colour formats need colour, and integer formats need integer images and the reverse.
pub(crate) fn check_read_format(image: &Image, format: GLenum) -> GlResult {
    let base = image_base(image);
    let ok = match format {
        DEPTH_COMPONENT => matches!(base, Base::Depth | Base::DepthStencil),
        DEPTH_STENCIL => base == Base::DepthStencil,
        STENCIL_INDEX => matches!(base, Base::DepthStencil | Base::Stencil),
        _ => {
            let integer = image
                .format
                .is_some_and(|f| matches!(f.info().class, FormatClass::Int | FormatClass::Uint));
            base == Base::Color && integer == is_integer_format(format)
        }
    };
    if ok { Ok(()) } else { Err(INVALID_OPERATION) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_formats_follow_the_image() {
        let depth = Image {
            width: 1,
            height: 1,
            depth: 1,
            internal_format: DEPTH_COMPONENT24,
            format: Some(tessera_wire::format::Format::Depth24),
            ..Image::default()
        };
        assert_eq!(check_read_format(&depth, DEPTH_COMPONENT), Ok(()));
        assert_eq!(check_read_format(&depth, RGBA), Err(INVALID_OPERATION));
        assert_eq!(
            check_read_format(&depth, DEPTH_STENCIL),
            Err(INVALID_OPERATION)
        );
    }
}

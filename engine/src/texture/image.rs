//! Image specification from pixels: `tex_image_*` and `tex_sub_image_*`, and the pieces the
//! other image calls share (pixel sources, image definition, regions).
//!
//! Each call decides every error first, in the order Mesa checks them (so a call with two
//! faults reports what the reference reports), then stores the image in the texture (or the
//! proxy table), emits `DefineTextureImage` and the upload, and marks the units that have the
//! texture bound. Client pixels are unpacked into tight rows in the stage at the call; pixels
//! in a pixel unpack buffer travel as a buffer-to-texture record with the strides the unpack
//! state gives, without a round trip.

use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::object::{Buffer, Image, Texture};
use tessera_components::state::{BufferTarget, PixelStore, TextureTarget};
use tessera_wire::format::{FormatClass, PixelLayout};
use tessera_wire::handle::{BufferHandle, TextureHandle};
use tessera_wire::record::{BufferPixels, Record, TextureRegion};

use super::format::{
    Base, check_agreement, check_format_type, compressed_size, formats_agree, image_base,
    internal_format, is_integer_format,
};
use super::{ImageTarget, fits, image_target, max_levels};
use crate::context::{Context, GlResult};
use crate::pixel::{self, PixelSize, Pixels, client_layout, pixel_size};
use crate::share::Shared;

/// Where an upload reads its data, once validated.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source<'a> {
    /// No data: the image's contents stay undefined.
    None,
    /// Client memory.
    Client(&'a [u8]),
    /// The bound pixel unpack buffer, from this byte offset.
    Buffer {
        /// The buffer's wire handle.
        handle: BufferHandle,
        /// Offset of GL's `pixels` in it.
        offset: usize,
    },
}

/// The bytes an upload touches, relative to its `pixels` argument.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Footprint {
    /// First byte read.
    pub start: usize,
    /// One past the last byte read.
    pub end: usize,
    /// What the offset into a buffer must be a multiple of (the size of the type).
    pub align: usize,
    /// Nothing is read (a zero size).
    pub empty: bool,
}

/// The arguments of an image definition (`tex_image_*`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ImageSpec<'a> {
    pub target: GLenum,
    pub level: GLint,
    pub internal: GLint,
    pub size: [GLsizei; 3],
    pub border: GLint,
    pub format: GLenum,
    pub ty: GLenum,
    pub pixels: Pixels<'a>,
}

/// The arguments of a sub-image upload (`tex_sub_image_*`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SubImageSpec<'a> {
    pub target: GLenum,
    pub level: GLint,
    pub offset: [GLint; 3],
    pub size: [GLsizei; 3],
    pub format: GLenum,
    pub ty: GLenum,
    pub pixels: Pixels<'a>,
}

/// Whether `tex_image_{dims}d` (and its sub-image call) accepts an image target.
pub(crate) fn accepts(dims: u8, it: ImageTarget) -> bool {
    match dims {
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

/// The wire region of a GL region of an image of `target`: a 1D array keeps its layers in
/// GL's y and in the wire's z.
pub(crate) fn wire_region(
    target: TextureTarget,
    origin: [i32; 3],
    size: [i32; 3],
) -> TextureRegion {
    let (origin, size) = if target == TextureTarget::D1Array {
        ([origin[0], 0, origin[1]], [size[0], 1, size[1]])
    } else {
        (origin, size)
    };
    TextureRegion {
        origin: origin.map(|v| v.max(0) as u32),
        size: size.map(|v| v.max(0) as u32),
    }
}

/// GL's size of an image specified through `tex_image_{dims}d`: unused dimensions are 1.
pub(crate) fn image_size(dims: u8, size: [i32; 3]) -> [i32; 3] {
    match dims {
        1 => [size[0], 1, 1],
        2 => [size[0], size[1], 1],
        _ => size,
    }
}

/// The unpack state an upload of `dims` dimensions uses: `SKIP_IMAGES` and `IMAGE_HEIGHT`
/// only apply to three-dimensional uploads (Mesa's `_mesa_image_offset`).
pub(crate) fn store_for(store: &PixelStore, dims: u8) -> PixelStore {
    let mut s = *store;
    if dims < 3 {
        s.skip_images = 0;
        s.image_height = 0;
    }
    s
}

/// Whether an image of the specific compressed format `internal` can live in a texture of
/// `target`: 2D, 2D array and cube map textures, and 3D ones for BPTC, whose blocks
/// `ARB_texture_compression_bptc` allows in slices (Mesa refuses the others with
/// `INVALID_ENUM`).
pub(crate) fn compressible(target: TextureTarget, internal: GLenum) -> bool {
    match target {
        TextureTarget::D2 | TextureTarget::D2Array | TextureTarget::Cube => true,
        TextureTarget::D3 => is_bptc(internal),
        _ => false,
    }
}

/// Whether `internal` is one of the four BPTC formats (`ARB_texture_compression_bptc`).
pub(crate) fn is_bptc(internal: GLenum) -> bool {
    matches!(
        internal,
        COMPRESSED_RGBA_BPTC_UNORM
            | COMPRESSED_SRGB_ALPHA_BPTC_UNORM
            | COMPRESSED_RGB_BPTC_SIGNED_FLOAT
            | COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT
    )
}

/// Whether `internal` is one of the ten ETC2/EAC formats (GL 4.3's
/// `ARB_ES3_compatibility`), which GL never compresses texels into: an uncompressed image
/// or sub-image, or a copy, of one is `INVALID_OPERATION` (Mesa's
/// `_mesa_format_no_online_compression`).
pub(crate) fn is_etc2(internal: GLenum) -> bool {
    matches!(
        internal,
        COMPRESSED_RGB8_ETC2
            | COMPRESSED_SRGB8_ETC2
            | COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2
            | COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2
            | COMPRESSED_RGBA8_ETC2_EAC
            | COMPRESSED_SRGB8_ALPHA8_ETC2_EAC
            | COMPRESSED_R11_EAC
            | COMPRESSED_SIGNED_R11_EAC
            | COMPRESSED_RG11_EAC
            | COMPRESSED_SIGNED_RG11_EAC
    )
}

impl Context {
    /// Resolves GL's `pixels` argument against the pixel unpack buffer binding. An offset
    /// needs a bound buffer and client bytes need none; with a buffer, the bytes read must
    /// lie inside it, the offset must be a multiple of the type's size, and the buffer must
    /// not be mapped. All of these are `INVALID_OPERATION`, as is client memory shorter than
    /// what the unpack state reads (GL would read past it; here it is refused).
    pub(crate) fn unpack_source<'a>(
        &self,
        sh: &Shared,
        pixels: Pixels<'a>,
        fp: Footprint,
    ) -> GlResult<Source<'a>> {
        let Some(e) = self.local.st.buffer(BufferTarget::PixelUnpack) else {
            return match pixels {
                Pixels::None => Ok(Source::None),
                Pixels::Offset(_) => Err(INVALID_OPERATION),
                Pixels::Bytes(b) if !fp.empty && b.len() < fp.end => Err(INVALID_OPERATION),
                Pixels::Bytes(b) => Ok(Source::Client(b)),
            };
        };
        let offset = match pixels {
            Pixels::None => 0,
            Pixels::Offset(o) => o,
            Pixels::Bytes(_) => return Err(INVALID_OPERATION),
        };
        let b = sh.world.get::<Buffer>(e).ok_or(INVALID_OPERATION)?;
        if !fp.empty {
            let size = usize::try_from(b.size).unwrap_or(0);
            let end = offset.checked_add(fp.end).ok_or(INVALID_OPERATION)?;
            if offset.saturating_add(fp.start) > size || offset % fp.align.max(1) != 0 || end > size
            {
                return Err(INVALID_OPERATION);
            }
        }
        if b.mapped_exclusively() {
            return Err(INVALID_OPERATION);
        }
        Ok(Source::Buffer {
            handle: b.handle,
            offset,
        })
    }

    /// Stores an image definition and sends it (`DefineTextureImage`); a proxy's only goes to
    /// the proxy table. Returns the texture and its handle (`None` for proxies).
    pub(crate) fn define_image(
        &mut self,
        sh: &mut Shared,
        it: ImageTarget,
        level: usize,
        image: Image,
    ) -> Option<(Entity, TextureHandle)> {
        if it.proxy {
            self.proxy_images(sh)[it.target as usize][level] = image;
            return None;
        }
        let e = self.target_texture(sh, it.target);
        let handle = {
            let mut t = sh.world.get_mut::<Texture>(e)?;
            t.images[it.face][level] = image;
            t.images_generation = t.images_generation.wrapping_add(1);
            t.handle
        };
        if let Some(format) = image.format {
            let (w, h, d) = (image.width, image.height, image.depth);
            let (width, height, depth) = if it.target == TextureTarget::D1Array {
                (w, 1, h)
            } else {
                (w, h, d)
            };
            sh.dev.push(Record::DefineTextureImage {
                texture: handle,
                level: level as u8,
                face: it.face as u8,
                format,
                width: width.max(0) as u32,
                height: height.max(0) as u32,
                depth: depth.max(0) as u32,
                samples: image.samples.clamp(0, 255) as u8,
                fixed_sample_locations: image.fixed_sample_locations,
            });
        }
        self.touch_texture(e, it.target);
        self.local.attachment_image_changed(sh, e);
        Some((e, handle))
    }

    /// Emits the upload of `size` texels at `origin` of an image from `source`.
    #[expect(clippy::too_many_arguments, reason = "one upload's whole description")]
    pub(crate) fn emit_upload(
        &self,
        sh: &mut Shared,
        texture: TextureHandle,
        it: ImageTarget,
        level: usize,
        (origin, size): ([i32; 3], [i32; 3]),
        layout: PixelLayout,
        store: &PixelStore,
        source: Source<'_>,
    ) {
        let [w, h, d] = size.map(|v| v.max(0) as usize);
        if w == 0 || h == 0 || d == 0 {
            return;
        }
        let px = pixel_size(layout.format, layout.ty);
        let region = Box::new(wire_region(it.target, origin, size));
        match source {
            Source::None => {}
            Source::Client(bytes) => {
                let data = sh.dev.enc.stage_with(w * h * d * px.bytes, |dst| {
                    pixel::unpack(store, px, w, h, d, bytes, dst);
                });
                sh.dev.push(Record::WriteTexture {
                    texture,
                    level: level as u8,
                    face: it.face as u8,
                    region,
                    layout,
                    data,
                });
            }
            Source::Buffer { handle, offset } => {
                let l = client_layout(store, px, w, h, d);
                // A 1D array's GL rows are its layers: the wire's slices.
                let image_stride = if it.target == TextureTarget::D1Array {
                    l.row_stride
                } else {
                    l.image_stride
                };
                sh.dev.push(Record::WriteTextureFromBuffer {
                    texture,
                    level: level as u8,
                    face: it.face as u8,
                    layout,
                    source: Box::new(BufferPixels {
                        region: *region,
                        buffer: handle,
                        offset: (offset + l.start) as u64,
                        row_stride: l.row_stride as u32,
                        image_stride: image_stride as u32,
                        swap_bytes: store.swap_bytes,
                    }),
                });
            }
        }
        sh.flush_if_full();
    }

    /// The footprint of uncompressed pixels of `layout` under the unpack state `store`.
    fn footprint(store: &PixelStore, px: PixelSize, size: [i32; 3]) -> Footprint {
        let [w, h, d] = size.map(|v| v.max(0) as usize);
        let l = client_layout(store, px, w, h, d);
        Footprint {
            start: l.start,
            end: l.end,
            align: px.element,
            empty: w == 0 || h == 0 || d == 0,
        }
    }

    /// `glTexImage1D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn tex_image_1d(
        &mut self,
        target: GLenum,
        level: GLint,
        internalformat: GLint,
        width: GLsizei,
        border: GLint,
        format: GLenum,
        ty: GLenum,
        pixels: Pixels<'_>,
    ) {
        let spec = ImageSpec {
            target,
            level,
            internal: internalformat,
            size: [width, 1, 1],
            border,
            format,
            ty,
            pixels,
        };
        self.tex_image(1, spec);
    }

    /// `glTexImage2D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn tex_image_2d(
        &mut self,
        target: GLenum,
        level: GLint,
        internalformat: GLint,
        width: GLsizei,
        height: GLsizei,
        border: GLint,
        format: GLenum,
        ty: GLenum,
        pixels: Pixels<'_>,
    ) {
        let spec = ImageSpec {
            target,
            level,
            internal: internalformat,
            size: [width, height, 1],
            border,
            format,
            ty,
            pixels,
        };
        self.tex_image(2, spec);
    }

    /// `glTexImage3D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn tex_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        internalformat: GLint,
        width: GLsizei,
        height: GLsizei,
        depth: GLsizei,
        border: GLint,
        format: GLenum,
        ty: GLenum,
        pixels: Pixels<'_>,
    ) {
        let spec = ImageSpec {
            target,
            level,
            internal: internalformat,
            size: [width, height, depth],
            border,
            format,
            ty,
            pixels,
        };
        self.tex_image(3, spec);
    }

    fn tex_image(&mut self, dims: u8, spec: ImageSpec<'_>) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) = self.tex_image_locked(&mut sh, dims, spec) {
            self.error(err);
        }
    }

    fn tex_image_locked(&mut self, sh: &mut Shared, dims: u8, spec: ImageSpec<'_>) -> GlResult {
        let it = image_target(spec.target)
            .filter(|it| accepts(dims, *it))
            .ok_or(INVALID_ENUM)?;
        if spec.level < 0 || spec.level >= max_levels(&self.local.limits, it.target) {
            return Err(INVALID_VALUE);
        }
        if spec.border != 0 {
            return Err(INVALID_VALUE);
        }
        if spec.size.iter().any(|s| *s < 0) {
            return Err(INVALID_VALUE);
        }
        let layout = check_format_type(spec.format, spec.ty)?;
        let internal_enum = GLenum::try_from(spec.internal).map_err(|_| INVALID_VALUE)?;
        let internal = internal_format(internal_enum, self.local.limits.texture_stencil8)
            .ok_or(INVALID_VALUE)?;
        let store = store_for(&self.local.st.unpack, dims);
        let px = pixel_size(layout.format, layout.ty);
        // A proxy reads no pixels: client memory is not checked (a pixel unpack buffer is,
        // as Mesa does).
        let pixels = match spec.pixels {
            Pixels::Bytes(_) if it.proxy => Pixels::None,
            p => p,
        };
        let source = self.unpack_source(sh, pixels, Self::footprint(&store, px, spec.size))?;
        check_agreement(internal, spec.format)?;
        if internal.base != Base::Color && it.target == TextureTarget::D3 {
            return Err(INVALID_OPERATION);
        }
        if internal.block_bytes.is_some() && !compressible(it.target, internal_enum) {
            return Err(INVALID_ENUM);
        }
        if is_etc2(internal_enum) {
            return Err(INVALID_OPERATION);
        }
        let [w, h, d] = image_size(dims, spec.size);
        let level = spec.level as usize;
        if !fits(&self.local.limits, it.target, spec.level, w, h, d) {
            if it.proxy {
                self.define_image(sh, it, level, Image::default());
                return Ok(());
            }
            return Err(INVALID_VALUE);
        }
        let format = super::format::texture_format(internal_enum, spec.ty).ok_or(INVALID_VALUE)?;
        let image = Image {
            width: w,
            height: h,
            depth: d,
            internal_format: internal_enum,
            format: Some(format),
            compressed_size: internal
                .block_bytes
                .map_or(0, |b| compressed_size(b, w, h, d) as i32),
            ..Image::default()
        };
        self.check_mutable(sh, it)?;
        let Some((_, handle)) = self.define_image(sh, it, level, image) else {
            return Ok(());
        };
        self.emit_upload(
            sh,
            handle,
            it,
            level,
            ([0; 3], [w, h, d]),
            layout,
            &store,
            source,
        );
        Ok(())
    }

    /// `glTexSubImage1D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn tex_sub_image_1d(
        &mut self,
        target: GLenum,
        level: GLint,
        xoffset: GLint,
        width: GLsizei,
        format: GLenum,
        ty: GLenum,
        pixels: Pixels<'_>,
    ) {
        let spec = SubImageSpec {
            target,
            level,
            offset: [xoffset, 0, 0],
            size: [width, 1, 1],
            format,
            ty,
            pixels,
        };
        self.tex_sub_image(1, spec);
    }

    /// `glTexSubImage2D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn tex_sub_image_2d(
        &mut self,
        target: GLenum,
        level: GLint,
        xoffset: GLint,
        yoffset: GLint,
        width: GLsizei,
        height: GLsizei,
        format: GLenum,
        ty: GLenum,
        pixels: Pixels<'_>,
    ) {
        let spec = SubImageSpec {
            target,
            level,
            offset: [xoffset, yoffset, 0],
            size: [width, height, 1],
            format,
            ty,
            pixels,
        };
        self.tex_sub_image(2, spec);
    }

    /// `glTexSubImage3D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn tex_sub_image_3d(
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
        ty: GLenum,
        pixels: Pixels<'_>,
    ) {
        let spec = SubImageSpec {
            target,
            level,
            offset: [xoffset, yoffset, zoffset],
            size: [width, height, depth],
            format,
            ty,
            pixels,
        };
        self.tex_sub_image(3, spec);
    }

    fn tex_sub_image(&mut self, dims: u8, spec: SubImageSpec<'_>) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) = self.tex_sub_image_locked(&mut sh, dims, spec) {
            self.error(err);
        }
    }

    /// The image at `level` of `it` in the texture image calls work on, with the texture
    /// (`INVALID_OPERATION` if the level has no image).
    pub(crate) fn target_image(
        &mut self,
        sh: &mut Shared,
        it: ImageTarget,
        level: usize,
    ) -> GlResult<(TextureHandle, Image)> {
        let e = self.target_texture(sh, it.target);
        sh.world
            .get::<Texture>(e)
            .map(|t| (t.handle, t.images[it.face][level]))
            .filter(|(_, image)| image.is_defined())
            .ok_or(INVALID_OPERATION)
    }

    fn tex_sub_image_locked(
        &mut self,
        sh: &mut Shared,
        dims: u8,
        spec: SubImageSpec<'_>,
    ) -> GlResult {
        let it = image_target(spec.target)
            .filter(|it| accepts(dims, *it) && !it.proxy)
            .ok_or(INVALID_ENUM)?;
        if spec.level < 0 || spec.level >= max_levels(&self.local.limits, it.target) {
            return Err(INVALID_VALUE);
        }
        if spec.size.iter().any(|s| *s < 0) {
            return Err(INVALID_VALUE);
        }
        let level = spec.level as usize;
        let (handle, image) = self.target_image(sh, it, level)?;
        let layout = check_format_type(spec.format, spec.ty)?;
        if !formats_agree(image_base(&image), spec.format) {
            return Err(INVALID_OPERATION);
        }
        let store = store_for(&self.local.st.unpack, dims);
        let px = pixel_size(layout.format, layout.ty);
        let source = self.unpack_source(sh, spec.pixels, Self::footprint(&store, px, spec.size))?;
        check_region(&image, spec.offset, spec.size)?;
        if is_etc2(image.internal_format) {
            return Err(INVALID_OPERATION);
        }
        let integer = image
            .format
            .is_some_and(|f| matches!(f.info().class, FormatClass::Int | FormatClass::Uint));
        if integer != is_integer_format(spec.format) {
            return Err(INVALID_OPERATION);
        }
        self.emit_upload(
            sh,
            handle,
            it,
            level,
            (spec.offset, spec.size),
            layout,
            &store,
            source,
        );
        Ok(())
    }
}

/// `INVALID_VALUE` unless the region `offset`, `size` lies inside `image` (GL 3.3 §3.8.5;
/// checked even for an empty region).
pub(crate) fn check_region(image: &Image, offset: [i32; 3], size: [i32; 3]) -> GlResult {
    let full = [image.width, image.height, image.depth];
    for i in 0..3 {
        let end = i64::from(offset[i]) + i64::from(size[i]);
        if offset[i] < 0 || end > i64::from(full[i]) {
            return Err(INVALID_VALUE);
        }
    }
    Ok(())
}

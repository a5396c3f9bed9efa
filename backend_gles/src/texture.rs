//! Textures (`TexturePipe`): every wire [`TextureKind`] onto a GLES target, image
//! definitions, uploads (converted on the CPU when GLES cannot take the client's layout),
//! compressed uploads (decoded on the CPU when the driver lacks RGTC), mipmap generation,
//! views and buffer textures.
//!
//! Kinds GLES lacks live in the nearest target: 1D as 2D with height 1, 1D arrays as 2D
//! arrays of height-1 layers, rectangles as 2D, multisample textures as 2D (arrays) when the
//! driver has no multisample textures (reported once), buffer textures as 2D when it has no
//! texture buffers (reported once; they then read (0, 0, 0, 1)).
//!
//! Multisample textures have only immutable storage in GLES, so redefining one makes a new
//! native texture: its `native_gen` and the device epoch move, and framebuffers re-attach.

use std::borrow::Cow;

use glow::HasContext;
use tessera_wire::SessionError;
use tessera_wire::backend::bad_value;
use tessera_wire::blocks::{self, BlockShadow};
use tessera_wire::dispatch::{
    BlockReadback, BlockWrite, Bytes, FromBuffer, ImageRef, R, TexelBuffer, TextureClear,
    TextureImage, TexturePipe, TextureReadback, TextureWrite,
};
use tessera_wire::format::{PixelLayout, TextureKind};
use tessera_wire::handle::{RenderbufferHandle, TextureHandle};
use tessera_wire::images::{ImageDesc, LevelImages};
use tessera_wire::pixel::pixel_size;
use tessera_wire::record::{
    BufferBlocks, BufferRange, ImageCopy, ImageObject, TextureRegion, TextureViewDesc,
};
use tessera_wire::state::TextureView;

use crate::command::dirty;
use crate::conv::{self, NativeFormat};
use crate::device::{GlesPipe, Missing};
use crate::pixel;

/// Mip levels a texture can have (a 2^31 texel edge would need 32).
const MAX_LEVELS: usize = 32;

/// A texture object.
pub(crate) struct Texture {
    pub name: glow::Texture,
    pub kind: TextureKind,
    /// Native target (fixed at creation).
    pub target: u32,
    /// Images by `level * 6 + face`.
    pub images: LevelImages,
    /// The level range and swizzle set natively.
    pub view: TextureView,
    /// Moves when the native texture is recreated (immutable multisample storage, or
    /// storage made immutable for a view).
    pub native_gen: u32,
    /// The native texture has immutable storage (`glTexStorage*`): a multisample texture, a
    /// texture a view was made of, or a view.
    pub immutable: bool,
    /// The blocks of its compressed images, which ES cannot read back
    /// (`ReadCompressedTexture` answers from them).
    pub blocks: BlockShadow,
    /// Bytes of the images defined on it ([`image_bytes`]), counted in
    /// [`crate::device::GlesPipe::memory`] (a view defines none: its storage is counted
    /// once, on the texture it views).
    pub bytes: u64,
}

/// An estimate of the bytes an image takes: its texels (layers and samples counted) at its
/// format's bits, rounded up to whole bytes (a compressed format: one byte a texel).
fn image_bytes(image: &ImageDesc) -> u64 {
    let info = image.format.info();
    let bits = info.rgba_bits.iter().map(|b| u32::from(*b)).sum::<u32>()
        + u32::from(info.depth_bits)
        + u32::from(info.stencil_bits);
    let texel = if info.compressed {
        1
    } else {
        u64::from(bits.div_ceil(8).max(1))
    };
    let texels: u64 = image.size.iter().map(|v| u64::from((*v).max(1))).product();
    texels * texel * u64::from(image.samples.max(1))
}

impl Texture {
    /// The image at (level, face), if defined.
    pub fn image(&self, level: u8, face: u8) -> Option<ImageDesc> {
        self.images.get(usize::from(level), usize::from(face))
    }
}

/// The layer range of a 1D-array region: GL puts layers in y (`glTexSubImage2D` on a 1D
/// array), the wire may put them in z; accept either.
fn array_1d_layers(origin: [u32; 3], size: [u32; 3]) -> (u32, u32) {
    if size[2] > 1 || origin[2] > 0 {
        (origin[2], size[2])
    } else {
        (origin[1], size[1])
    }
}

impl GlesPipe {
    /// Gives 2D texture `handle` a new native texture whose storage `import` binds (an EGL
    /// image's), keeping its view. Where `import` fails the texture keeps its own storage
    /// and the failure (`what`) is logged.
    fn take_image_storage(
        &mut self,
        n: &'static str,
        handle: TextureHandle,
        what: &str,
        import: impl FnOnce() -> bool,
    ) -> R {
        let t = self.textures.get(n, handle)?;
        if t.target != glow::TEXTURE_2D {
            return Err(bad_value(n, "not a 2D texture"));
        }
        let view = t.view;
        // SAFETY: context current; glGenTextures has no preconditions.
        let fresh = unsafe { self.gl.create_texture() }
            .map_err(|e| SessionError::Backend(format!("{n}: {e}")))?;
        self.bind_for_update(fresh, glow::TEXTURE_2D);
        if !import() {
            log::warn!("tessera-backend-gles: {n}: {what}; the texture keeps its own storage");
            self.shadow.delete_texture(&self.gl, fresh);
            return Ok(());
        }
        let t = self.textures.get_mut(n, handle)?;
        let old = std::mem::replace(&mut t.name, fresh);
        t.native_gen += 1;
        t.immutable = false;
        t.view = TextureView::default();
        self.shadow.delete_texture(&self.gl, old);
        self.epoch += 1;
        self.set_texture_view(handle, view)
    }

    /// Gives a texture the engine made immutable immutable native storage too: a new
    /// native texture with `glTexStorage2D/3D` of its level-0 shape and defined levels,
    /// every level copied into it (`glCopyImageSubData`, the old texture narrowed to the
    /// level so the driver finds it complete), its level range and swizzle set again; its
    /// `native_gen` and the device epoch move, so framebuffers re-attach.
    pub(crate) fn make_immutable(&mut self, record: &'static str, handle: TextureHandle) -> R {
        let features = self.features.clone();
        let t = self.textures.get(record, handle)?;
        if t.immutable {
            return Ok(());
        }
        let (old, target, kind, view) = (t.name, t.target, t.kind, t.view);
        let Some(base) = t.image(0, 0) else {
            return Ok(());
        };
        let mut levels = 0u8;
        while usize::from(levels) < MAX_LEVELS && t.image(levels, 0).is_some() {
            levels += 1;
        }
        let sizes: Vec<[u32; 3]> = (0..levels)
            .filter_map(|l| t.image(l, 0).map(|i| i.size))
            .collect();
        let internal = conv::map_format(base.format, &features).internal;
        // SAFETY: context current; glGenTextures has no preconditions.
        let fresh = unsafe { self.gl.create_texture() }
            .map_err(|e| SessionError::Backend(format!("{record}: {e}")))?;
        self.bind_for_update(fresh, target);
        let [w, h, d] = base.size.map(|v| v.max(1) as i32);
        let layers = match kind {
            TextureKind::D1Array => d,
            TextureKind::Cube => 6,
            _ => d,
        };
        // SAFETY: context current; the new texture is bound to `target` (2D, cube, 3D or 2D
        // array: immutable multisample textures never come here); `internal` is the sized
        // format the texture's images have; the level count is what the engine defined.
        unsafe {
            match target {
                glow::TEXTURE_3D | glow::TEXTURE_2D_ARRAY | glow::TEXTURE_CUBE_MAP_ARRAY => {
                    let h = if kind == TextureKind::D1Array { 1 } else { h };
                    self.gl
                        .tex_storage_3d(target, i32::from(levels), internal, w, h, layers)
                }
                _ => self
                    .gl
                    .tex_storage_2d(target, i32::from(levels), internal, w, h),
            }
        }
        for (level, size) in sizes.into_iter().enumerate() {
            let [lw, lh, ld] = size.map(|v| v.max(1) as i32);
            let (lh, depth) = match kind {
                TextureKind::Cube => (lh, 6),
                TextureKind::D1Array => (1, ld),
                _ => (lh, ld),
            };
            self.bind_for_update(old, target);
            let level = level as i32;
            // SAFETY: context current; `old` is bound to `target`; a mutable texture takes
            // level-range and filter parameters; both are live textures of `target` whose
            // level `level` has this size and format (the engine defined them so).
            unsafe {
                self.gl
                    .tex_parameter_i32(target, glow::TEXTURE_MIN_FILTER, glow::NEAREST as i32);
                self.gl
                    .tex_parameter_i32(target, glow::TEXTURE_BASE_LEVEL, level);
                self.gl
                    .tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, level);
                self.gl.copy_image_sub_data(
                    old, target, level, 0, 0, 0, fresh, target, level, 0, 0, 0, lw, lh, depth,
                );
            }
        }
        self.shadow.delete_texture(&self.gl, old);
        let t = self.textures.get_mut(record, handle)?;
        t.name = fresh;
        t.native_gen += 1;
        t.immutable = true;
        t.view = TextureView::default();
        self.epoch += 1;
        self.set_texture_view(handle, view)
    }

    /// Applies a `CopyImage` to the destination's copy of its blocks: the source's blocks
    /// where it is compressed too. An uncompressed source's texels are not read back: the
    /// destination's copy then keeps its blocks (reported once).
    /// Gives a texture made immutable natively for an image unit ([`Self::make_immutable`])
    /// mutable native storage again when the engine redefines one of its images (GL's
    /// texture is still mutable there; one with views never is): a new native texture whose
    /// other images are defined anew and copied from the old one (`glCopyImageSubData`),
    /// so the redefinition is carried out instead of failing on immutable storage.
    fn make_mutable(
        &mut self,
        record: &'static str,
        handle: TextureHandle,
        redefined: ImageRef,
    ) -> R {
        let t = self.textures.get(record, handle)?;
        let (old, target, kind, view) = (t.name, t.target, t.kind, t.view);
        let faces: u8 = if kind == TextureKind::Cube { 6 } else { 1 };
        let mut others = Vec::new();
        for level in 0..MAX_LEVELS as u8 {
            for face in 0..faces {
                if (level, face) != (redefined.level, redefined.face)
                    && let Some(image) = t.image(level, face)
                {
                    others.push((ImageRef { level, face }, image));
                }
            }
        }
        // SAFETY: context current; glGenTextures has no preconditions.
        let fresh = unsafe { self.gl.create_texture() }
            .map_err(|e| SessionError::Backend(format!("{record}: {e}")))?;
        let t = self.textures.get_mut(record, handle)?;
        t.name = fresh;
        t.native_gen += 1;
        t.immutable = false;
        t.view = TextureView::default();
        self.epoch += 1;
        for (at, image) in others {
            self.define_texture_image(
                handle,
                TextureImage {
                    at,
                    format: image.format,
                    size: image.size,
                    samples: image.samples,
                    fixed_sample_locations: true,
                },
            )?;
            let [w, h, d] = image.size.map(|v| v.max(1) as i32);
            let (h, z, depth) = match kind {
                TextureKind::Cube => (h, i32::from(at.face), 1),
                TextureKind::D1 => (1, 0, 1),
                TextureKind::D1Array => (1, 0, if d > 1 { d } else { h }),
                _ => (h, 0, d),
            };
            let level = i32::from(at.level);
            // SAFETY: context current; `old` is a live immutable texture of `target` whose
            // image (level, face) has this size and format, and `fresh` was just given the
            // same image; the region lies within both.
            unsafe {
                self.gl.copy_image_sub_data(
                    old, target, level, 0, 0, z, fresh, target, level, 0, 0, z, w, h, depth,
                );
            }
        }
        self.shadow.delete_texture(&self.gl, old);
        self.set_texture_view(handle, view)
    }

    fn copy_blocks(&mut self, c: &ImageCopy) -> R {
        const N: &str = "CopyImage";
        let (ImageObject::Texture(src), ImageObject::Texture(dst)) = (c.src.object, c.dst.object)
        else {
            return Ok(());
        };
        let s = self.textures.get(N, src)?;
        let source = blocks::copy_source(&s.blocks, s.kind == TextureKind::Cube, c);
        let d = self.textures.get_mut(N, dst)?;
        if blocks::copy_into(&mut d.blocks, d.kind == TextureKind::Cube, c, source) {
            static WARNED: std::sync::Once = std::sync::Once::new();
            WARNED.call_once(|| {
                log::warn!(
                    "tessera-backend-gles: {N}: texels copied into a compressed image are not \
                     read back: its compressed read-back keeps the blocks it had"
                );
            });
        }
        Ok(())
    }

    fn bind_for_update(&mut self, name: glow::Texture, target: u32) {
        let unit = self.scratch_unit();
        self.shadow.bind_texture(&self.gl, unit, target, Some(name));
        self.disturbed |= dirty::TEXTURES;
    }

    /// Uploads `bytes` (already in the native upload layout) into a region.
    fn upload(
        &mut self,
        t: (glow::Texture, u32, TextureKind),
        (level, face): (u8, u8),
        TextureRegion { origin, size }: TextureRegion,
        layout: PixelLayout,
        bytes: &[u8],
    ) {
        let (name, target, kind) = t;
        self.bind_for_update(name, target);
        let (fmt, ty) = (
            conv::map_pixel_format(layout.format),
            conv::map_pixel_type(layout.ty),
        );
        let level = i32::from(level);
        let [x, y, z] = origin.map(|v| v as i32);
        let [w, h, d] = size.map(|v| v as i32);
        let data = glow::PixelUnpackData::Slice(Some(bytes));
        // SAFETY: context current; the texture is bound to its target; (fmt, ty) is the
        // native upload layout of the image's format (or one conv::accepts_directly allows);
        // `bytes` holds exactly w*h*d tightly packed pixels of it (UNPACK_ALIGNMENT is 1),
        // checked by the caller. A region outside the image is a GL error, not UB.
        unsafe {
            match kind {
                TextureKind::D1 => self
                    .gl
                    .tex_sub_image_2d(target, level, x, 0, w, 1, fmt, ty, data),
                TextureKind::D1Array => {
                    let (layer, layers) = array_1d_layers(origin, size);
                    self.gl.tex_sub_image_3d(
                        target,
                        level,
                        x,
                        0,
                        layer as i32,
                        w,
                        1,
                        layers as i32,
                        fmt,
                        ty,
                        data,
                    );
                }
                TextureKind::Cube => self.gl.tex_sub_image_2d(
                    glow::TEXTURE_CUBE_MAP_POSITIVE_X + u32::from(face),
                    level,
                    x,
                    y,
                    w,
                    h,
                    fmt,
                    ty,
                    data,
                ),
                _ if conv::is_layered(target) => self
                    .gl
                    .tex_sub_image_3d(target, level, x, y, z, w, h, d, fmt, ty, data),
                _ => self
                    .gl
                    .tex_sub_image_2d(target, level, x, y, w, h, fmt, ty, data),
            }
        }
    }
}

impl TexturePipe for GlesPipe {
    /// `CreateTexture`.
    fn create_texture(&mut self, handle: TextureHandle, kind: TextureKind) -> R {
        const N: &str = "CreateTexture";
        let (target, stand_in) = conv::map_texture_kind(kind, &self.features);
        if stand_in {
            match kind {
                TextureKind::D2Multisample | TextureKind::D2MultisampleArray => self.report(
                    Missing::MultisampleTexture,
                    "no multisample textures in this GLES: single-sampled stand-ins instead",
                ),
                TextureKind::Buffer => self.report(
                    Missing::TextureBuffer,
                    "no buffer textures in this GLES (needs 3.2 or *_texture_buffer): they read (0, 0, 0, 1)",
                ),
                _ => {}
            }
        }
        // SAFETY: context current; glGenTextures has no preconditions.
        let name = unsafe { self.gl.create_texture() }
            .map_err(|e| SessionError::Backend(format!("{N}: {e}")))?;
        // Binding once fixes the texture's target, as GL requires before any other use.
        self.bind_for_update(name, target);
        self.textures.insert(
            N,
            handle,
            Texture {
                name,
                kind,
                target,
                images: LevelImages::default(),
                view: TextureView::default(),
                native_gen: 0,
                immutable: false,
                blocks: BlockShadow::default(),
                bytes: 0,
            },
        )
    }

    /// `CreateTextureView`: the driver's `glTextureViewOES` over the storage owner, whose
    /// native texture is first made immutable (GLES views only immutable storage; the
    /// engine defined its every level at once, so its images are copied into
    /// `glTexStorage*` storage of the same shape). Without the extension the view is a
    /// texture without images (reported once).
    fn create_texture_view(&mut self, handle: TextureHandle, view: TextureViewDesc) -> R {
        const N: &str = "CreateTextureView";
        let features = self.features.clone();
        let (target, _) = conv::map_texture_kind(view.kind, &features);
        let owner = self.textures.get(N, view.storage)?;
        let mut images = LevelImages::default();
        let faces = if view.kind == TextureKind::Cube { 6 } else { 1 };
        for level in 0..usize::from(view.levels) {
            let Some(b) = owner.image(view.min_level.saturating_add(level as u8), 0) else {
                continue;
            };
            let [w, h, d] = b.size;
            let size = match view.kind {
                TextureKind::D2Array | TextureKind::D2MultisampleArray | TextureKind::CubeArray => {
                    [w, h, view.layers]
                }
                TextureKind::D1Array => [w, 1, view.layers],
                TextureKind::D3 => [w, h, d],
                _ => [w, h, 1],
            };
            let desc = ImageDesc {
                format: view.format,
                size,
                ..b
            };
            for face in 0..faces {
                images.set(level, face, desc);
            }
        }
        let Some(texture_view) = self.extra.texture_view else {
            self.report(
                Missing::TextureView,
                "no GL_OES_texture_view or GL_EXT_texture_view in this GLES: texture views have no images",
            );
            return self.create_texture(handle, view.kind);
        };
        self.make_immutable(N, view.storage)?;
        let owner = self.textures.get(N, view.storage)?;
        let (parent, internal) = (
            owner.name,
            conv::map_format(view.format, &features).internal,
        );
        // SAFETY: context current; glGenTextures has no preconditions. The name stays
        // unbound until the view gives it its target, as glTextureViewOES requires.
        let name = unsafe { self.gl.create_texture() }
            .map_err(|e| SessionError::Backend(format!("{N}: {e}")))?;
        // SAFETY: context current; `texture_view` is the extension's entry point (present);
        // a new, never bound name; a live immutable parent; the engine checked the target,
        // the format's view class and the ranges against the parent's storage, so a fault
        // is a GL error, not UB.
        unsafe {
            texture_view(
                name.0.get(),
                target,
                parent.0.get(),
                internal,
                u32::from(view.min_level),
                u32::from(view.levels),
                view.min_layer,
                view.layers,
            )
        };
        self.textures.insert(
            N,
            handle,
            Texture {
                name,
                kind: view.kind,
                target,
                images,
                view: TextureView::default(),
                native_gen: 0,
                immutable: true,
                blocks: BlockShadow::default(),
                bytes: 0,
            },
        )
    }

    /// `DestroyTexture`.
    fn export_egl_image(&mut self, handle: TextureHandle) -> Result<u64, SessionError> {
        const N: &str = "ExportEglImage";
        let images = self
            .egl_images
            .ok_or_else(|| bad_value(N, "the driver makes no EGL images of textures"))?;
        let name = self.textures.get(N, handle)?.name;
        // SAFETY: context current; glFinish has no preconditions. The importing context
        // reads the storage the work so far wrote.
        unsafe { self.gl.finish() };
        Ok(images.export(name.0.get()))
    }

    fn import_egl_image(&mut self, handle: TextureHandle, token: u64) -> R {
        const N: &str = "ImportEglImage";
        let images = self
            .egl_images
            .ok_or_else(|| bad_value(N, "the driver makes no EGL images of textures"))?;
        let what = format!("no EGL image of this display has token {token}");
        self.take_image_storage(N, handle, &what, || images.import(token))
    }

    fn destroy_egl_image(&mut self, token: u64) -> R {
        crate::egl_image::destroy(token);
        Ok(())
    }

    fn export_egl_renderbuffer_image(
        &mut self,
        handle: RenderbufferHandle,
    ) -> Result<u64, SessionError> {
        const N: &str = "ExportEglRenderbufferImage";
        let images = self
            .egl_images
            .ok_or_else(|| bad_value(N, "the driver makes no EGL images"))?;
        let name = self.renderbuffers.get(N, handle)?.name;
        // SAFETY: context current; glFinish has no preconditions. The importing context
        // reads the storage the work so far wrote.
        unsafe { self.gl.finish() };
        Ok(images.export_renderbuffer(name.0.get()))
    }

    fn import_dma_buf_texture(
        &mut self,
        handle: TextureHandle,
        image: tessera_wire::record::DmaBufImport,
    ) -> R {
        const N: &str = "ImportDmaBufTexture";
        let mut taken = false;
        let result = match self.egl_images {
            Some(images) => self.take_image_storage(
                N,
                handle,
                "the display made no image of the dma-buf",
                || {
                    taken = true;
                    images.import_dma_buf(&image)
                },
            ),
            None => Err(bad_value(N, "the driver makes no EGL images")),
        };
        // The planes' descriptors are the import's to take; a texture that never got that
        // far (no images, a stale or non-2D texture) closes them here.
        if !taken {
            for plane in &image.planes {
                drop(tessera_wire::backend::take_handed_fd(plane.fd_token));
            }
        }
        result
    }

    fn export_dma_buf(
        &mut self,
        token: u64,
    ) -> Result<Option<tessera_wire::backend::DmaBufPlanes>, SessionError> {
        let Some(images) = self.egl_images else {
            return Ok(None);
        };
        // SAFETY: context current; glFinish has no preconditions. The host reads the
        // storage the work so far wrote.
        unsafe { self.gl.finish() };
        Ok(images.export_dma_buf(token))
    }

    fn import_egl_renderbuffer_image(&mut self, handle: RenderbufferHandle, token: u64) -> R {
        const N: &str = "ImportEglRenderbufferImage";
        let images = self
            .egl_images
            .ok_or_else(|| bad_value(N, "the driver makes no EGL images"))?;
        let rb = self.renderbuffers.get(N, handle)?;
        let name = rb.name;
        // SAFETY: context current; `name` is a live renderbuffer of this context.
        unsafe { self.gl.bind_renderbuffer(glow::RENDERBUFFER, Some(name)) };
        if !images.import_renderbuffer(token) {
            log::warn!(
                "tessera-backend-gles: {N}: no EGL image of this display has token {token}; \
                 the renderbuffer keeps its own storage"
            );
            return Ok(());
        }
        let rb = self.renderbuffers.get_mut(N, handle)?;
        rb.samples = 0;
        Ok(())
    }

    /// `HandOverTexture` with `gl_texture` (`host.rs`).
    fn hand_over_gl_texture(
        &mut self,
        handle: TextureHandle,
        signal: bool,
    ) -> Result<tessera_wire::HostTexture, SessionError> {
        self.copy_for_host(handle, signal)
    }

    fn destroy_texture(&mut self, handle: TextureHandle) -> R {
        let t = self.textures.remove("DestroyTexture", handle)?;
        self.memory = self.memory.saturating_sub(t.bytes);
        self.shadow.delete_texture(&self.gl, t.name);
        Ok(())
    }

    /// `DefineTextureImage`.
    fn define_texture_image(&mut self, handle: TextureHandle, image: TextureImage) -> R {
        const N: &str = "DefineTextureImage";
        let (ImageRef { level, face }, format, size) = (image.at, image.format, image.size);
        let (samples, fixed_sample_locations) = (image.samples, image.fixed_sample_locations);
        LevelImages::check(N, level, face, MAX_LEVELS)?;
        let features = self.features.clone();
        let t = self.textures.get_mut(N, handle)?;
        let image = ImageDesc {
            format,
            size,
            samples,
        };
        let before = t.image(level, face).map_or(0, |i| image_bytes(&i));
        t.bytes = t.bytes.saturating_sub(before) + image_bytes(&image);
        self.memory = self.memory.saturating_sub(before) + image_bytes(&image);
        t.images.set(usize::from(level), usize::from(face), image);
        t.blocks.define(ImageRef { level, face }, format, size);
        let [width, height, depth] = size;
        let (kind, target, mut name, view) = (t.kind, t.target, t.name, t.view);
        let native = conv::map_format(format, &features);
        let (w, h) = (width as i32, height as i32);
        match target {
            glow::TEXTURE_2D_MULTISAMPLE | glow::TEXTURE_2D_MULTISAMPLE_ARRAY => {
                // Immutable storage: a new native texture each time.
                // SAFETY: context current; glGenTextures has no preconditions.
                let fresh = unsafe { self.gl.create_texture() }
                    .map_err(|e| SessionError::Backend(format!("{N}: {e}")))?;
                // The table holds `fresh` from here: the old texture is deleted once.
                self.shadow.delete_texture(&self.gl, name);
                name = fresh;
                let t = self.textures.get_mut(N, handle)?;
                t.name = fresh;
                t.native_gen += 1;
                t.immutable = true;
                self.epoch += 1;
                self.bind_for_update(name, target);
                let internal = conv::map_renderbuffer_format(format, &features);
                let samples = i32::from(samples.max(1)).min(self.caps.max_samples as i32);
                if target == glow::TEXTURE_2D_MULTISAMPLE {
                    // SAFETY: context current; the new texture is bound to the target;
                    // a renderable sized format; samples clamped to MAX_SAMPLES.
                    unsafe {
                        self.gl.tex_storage_2d_multisample(
                            target,
                            samples,
                            internal,
                            w,
                            h,
                            fixed_sample_locations,
                        )
                    };
                } else if let Some(f) = self.extra.tex_storage_3d_multisample {
                    // SAFETY: context current; `f` is glTexStorage3DMultisample (present:
                    // the target exists only with it); the texture is bound.
                    unsafe {
                        f(
                            target,
                            samples,
                            internal,
                            w,
                            h,
                            depth as i32,
                            u8::from(fixed_sample_locations),
                        )
                    };
                }
                return Ok(());
            }
            glow::TEXTURE_BUFFER => return Ok(()),
            _ => {}
        }
        if self.textures.get(N, handle)?.immutable {
            self.make_mutable(N, handle, ImageRef { level, face })?;
            name = self.textures.get(N, handle)?.name;
        }
        self.bind_for_update(name, target);
        let (fmt, ty) = (
            conv::map_pixel_format(native.upload.format),
            conv::map_pixel_type(native.upload.ty),
        );
        let internal = native.internal as i32;
        let level = i32::from(level);
        let (image_target, dims) = match kind {
            TextureKind::D1 => (target, [w, 1, 1]),
            TextureKind::D1Array => {
                let layers = if depth > 1 { depth } else { height };
                (target, [w, 1, layers as i32])
            }
            TextureKind::Cube => (
                glow::TEXTURE_CUBE_MAP_POSITIVE_X + u32::from(face),
                [w, h, 1],
            ),
            _ if conv::is_layered(target) => (target, [w, h, depth as i32]),
            _ => (target, [w, h, 1]),
        };
        let three_d = conv::is_layered(target);
        let [dw, dh, dd] = dims;
        let gl = &self.gl;
        // SAFETY: context current; the texture is bound to `target` on the active unit;
        // `internal` and (fmt, ty) are a combination ES 3.0's table 3.2 (or the extension
        // that provides the format) allows, by construction of conv::map_format; no data is
        // read (NULL), except compressed images, whose zero buffer has exactly the
        // block-aligned size GL expects.
        unsafe {
            if native.compressed {
                let block = if matches!(
                    native.internal,
                    glow::COMPRESSED_RED_RGTC1
                        | glow::COMPRESSED_SIGNED_RED_RGTC1
                        | glow::COMPRESSED_RGB8_ETC2
                        | glow::COMPRESSED_SRGB8_ETC2
                        | glow::COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2
                        | glow::COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2
                        | glow::COMPRESSED_R11_EAC
                        | glow::COMPRESSED_SIGNED_R11_EAC
                ) {
                    8
                } else {
                    16
                };
                let blocks = (dims[0].max(0) as usize).div_ceil(4)
                    * (dims[1].max(0) as usize).div_ceil(4)
                    * dims[2].max(0) as usize;
                if blocks * block > crate::device::MAX_READBACK {
                    self.events.push(tessera_wire::Event::OutOfMemory {
                        what: format!("a {dims:?} compressed image"),
                    });
                    return Ok(());
                }
                let zeros = vec![0u8; blocks * block];
                let n = zeros.len() as i32;
                if three_d {
                    gl.compressed_tex_image_3d(target, level, internal, dw, dh, dd, 0, n, &zeros);
                } else {
                    gl.compressed_tex_image_2d(image_target, level, internal, dw, dh, 0, n, &zeros);
                }
            } else {
                let none = glow::PixelUnpackData::Slice(None);
                // A 1D array is a 2D array of height 1 natively, and Mesa cannot place a
                // level > 0 of height 1 in a 2D array's storage it has yet to size (it
                // guesses the base size from the level, and refuses to from a height of 1):
                // the level then lives apart, and the texture cannot be rendered to
                // (FRAMEBUFFER_UNSUPPORTED) until sampling gathers its levels. A MAX_LEVEL
                // above the base while level 0 is defined makes Mesa give level 0 storage for
                // the whole chain instead; the view's MAX_LEVEL comes back after.
                let last = u32::BITS - 1 - (dw.max(1) as u32).leading_zeros();
                let whole_chain = kind == TextureKind::D1Array && level == 0 && last > 0;
                if whole_chain {
                    /// Below Mesa's MAX_TEXTURE_LEVELS (15): a MAX_LEVEL it reads as set.
                    const SET_MAX_LEVEL: u32 = 14;
                    let max = last
                        .max(view.base_level.saturating_add(1))
                        .min(SET_MAX_LEVEL);
                    gl.tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, max as i32);
                }
                if three_d {
                    gl.tex_image_3d(target, level, internal, dw, dh, dd, 0, fmt, ty, none);
                    if whole_chain {
                        let max = view.max_level.min(i32::MAX as u32) as i32;
                        gl.tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, max);
                    }
                } else {
                    gl.tex_image_2d(image_target, level, internal, dw, dh, 0, fmt, ty, none);
                }
            }
        }
        if format.info().class == tessera_wire::format::FormatClass::Stencil
            && !self.features.texture_stencil8
        {
            self.report(
                Missing::StencilTexture,
                "stencil-only textures need ES 3.2 or OES_texture_stencil8",
            );
        }
        Ok(())
    }

    /// `WriteTexture`.
    fn write_texture(&mut self, handle: TextureHandle, write: TextureWrite<'_>) -> R {
        const N: &str = "WriteTexture";
        let (ImageRef { level, face }, layout, data) = (write.at, write.layout, write.bytes);
        let size = write.region.size;
        let t = self.textures.get(N, handle)?;
        let image = t
            .image(level, face)
            .ok_or_else(|| bad_value(N, format!("level {level} face {face} is not defined")))?;
        let tex = (t.name, t.target, t.kind);
        if matches!(
            t.target,
            glow::TEXTURE_2D_MULTISAMPLE
                | glow::TEXTURE_2D_MULTISAMPLE_ARRAY
                | glow::TEXTURE_BUFFER
        ) {
            return Err(bad_value(
                N,
                "multisample and buffer textures take no uploads",
            ));
        }
        let count = size
            .iter()
            .try_fold(1usize, |a, &s| a.checked_mul(s as usize));
        let needed = count.and_then(|c| c.checked_mul(pixel_size(layout.format, layout.ty)));
        let (Some(count), Some(needed)) = (count, needed) else {
            return Err(bad_value(N, "region too large"));
        };
        if data.len() < needed {
            return Err(bad_value(
                N,
                format!("{} bytes for a {needed}-byte region", data.len()),
            ));
        }
        if count == 0 {
            return Ok(());
        }
        let native: NativeFormat = conv::map_format(image.format, &self.features);
        let (bytes, upload): (Cow<'_, [u8]>, PixelLayout) =
            if conv::accepts_directly(&native, layout) {
                (Cow::Borrowed(&data[..needed]), layout)
            } else if native.compressed {
                // GL compresses texels given for a compressed format: BPTC here, as blocks
                // of Tessera's own encoder, on block boundaries (RGTC's are not encoded yet).
                let origin = write.region.origin;
                let kind = conv::bptc_kind(native.internal)
                    .filter(|_| origin[..2].iter().all(|o| o % 4 == 0));
                let Some(kind) = kind else {
                    self.report(
                        Missing::CompressedFormat,
                        "uncompressed uploads into RGTC or off the block grid are skipped",
                    );
                    return Ok(());
                };
                let texels = tessera_wire::pixel::decode(layout, data, count)
                    .ok_or_else(|| bad_value(N, "pixel data does not decode"))?;
                let [w, h, d] = size.map(|v| v as usize);
                let bytes = &tessera_wire::bptc::encode(kind, &texels, w, h, d);
                let (at, region) = (write.at, write.region);
                return self.write_compressed_texture(handle, BlockWrite { at, region, bytes });
            } else {
                let converted = pixel::convert(layout, native.upload, data, count)
                    .ok_or_else(|| bad_value(N, "pixel data does not decode"))?;
                (Cow::Owned(converted), native.upload)
            };
        self.upload(tex, (level, face), write.region, upload, &bytes);
        Ok(())
    }

    /// `WriteCompressedTexture`.
    fn write_compressed_texture(&mut self, handle: TextureHandle, write: BlockWrite<'_>) -> R {
        const N: &str = "WriteCompressedTexture";
        let (ImageRef { level, face }, data) = (write.at, write.bytes);
        let TextureRegion { origin, size } = write.region;
        let t = self.textures.get_mut(N, handle)?;
        let image = t
            .image(level, face)
            .ok_or_else(|| bad_value(N, format!("level {level} face {face} is not defined")))?;
        t.blocks.write(write.at, origin, size, data);
        let tex = (t.name, t.target, t.kind);
        let native = conv::map_format(image.format, &self.features);
        if let Some((channels, signed)) = native.decode_rgtc {
            let (w, h) = (size[0] as usize, size[1] as usize);
            let layers = size[2].max(1) as usize;
            let block_bytes = w
                .div_ceil(4)
                .checked_mul(h.div_ceil(4))
                .and_then(|b| b.checked_mul(8 * channels))
                .filter(|b| b.checked_mul(layers).is_some_and(|all| all <= data.len()))
                .ok_or_else(|| bad_value(N, "short RGTC data"))?;
            let mut texels = Vec::with_capacity(w * h * channels * layers);
            for layer in 0..layers {
                let blocks = data
                    .get(layer * block_bytes..(layer + 1) * block_bytes)
                    .ok_or_else(|| bad_value(N, "short RGTC data"))?;
                texels.extend(
                    pixel::decode_rgtc(blocks, w, h, channels, signed)
                        .ok_or_else(|| bad_value(N, "short RGTC data"))?,
                );
            }
            self.upload(tex, (level, face), write.region, native.upload, &texels);
            return Ok(());
        }
        if !native.compressed {
            if image.format.info().compressed {
                self.report(
                    Missing::CompressedFormat,
                    "the driver lacks the compressed format: compressed uploads are skipped",
                );
                return Ok(());
            }
            return Err(bad_value(
                N,
                format!("{:?} is not a compressed format", image.format),
            ));
        }
        let (name, target, kind) = tex;
        self.bind_for_update(name, target);
        let level = i32::from(level);
        let [x, y, z] = origin.map(|v| v as i32);
        let [w, h, d] = size.map(|v| v as i32);
        let pixels = glow::CompressedPixelUnpackData::Slice(data);
        // SAFETY: context current; the texture is bound; the format is the image's own
        // compressed format; GL checks `data`'s length against the region (a mismatch is a
        // GL error, not UB, since the slice length is passed).
        unsafe {
            match kind {
                TextureKind::Cube => self.gl.compressed_tex_sub_image_2d(
                    glow::TEXTURE_CUBE_MAP_POSITIVE_X + u32::from(face),
                    level,
                    x,
                    y,
                    w,
                    h,
                    native.internal,
                    pixels,
                ),
                _ if conv::is_layered(target) => self.gl.compressed_tex_sub_image_3d(
                    target,
                    level,
                    x,
                    y,
                    z,
                    w,
                    h,
                    d,
                    native.internal,
                    pixels,
                ),
                _ => self.gl.compressed_tex_sub_image_2d(
                    target,
                    level,
                    x,
                    y,
                    w,
                    h,
                    native.internal,
                    pixels,
                ),
            }
        }
        Ok(())
    }

    /// `WriteTextureFromBuffer`: gathers the rows from the buffer (honouring its strides and
    /// byte order), then uploads them as `WriteTexture` would.
    fn write_texture_from_buffer(&mut self, handle: TextureHandle, write: FromBuffer) -> R {
        const N: &str = "WriteTextureFromBuffer";
        let FromBuffer { at, layout, source } = write;
        let region = source.region;
        let [w, h, d] = region.size.map(|v| v as u64);
        let px = pixel_size(layout.format, layout.ty) as u64;
        let row = w * px;
        if w == 0 || h == 0 || d == 0 {
            return Ok(());
        }
        let (rs, is) = (u64::from(source.row_stride), u64::from(source.image_stride));
        if (h > 1 && rs < row) || (d > 1 && is < rs.saturating_mul(h - 1).saturating_add(row)) {
            return Err(bad_value(N, "row or image stride shorter than the data"));
        }
        let span = (d - 1)
            .checked_mul(is)
            .and_then(|a| (h - 1).checked_mul(rs).and_then(|b| a.checked_add(b)))
            .and_then(|a| a.checked_add(row))
            .ok_or_else(|| bad_value(N, "region too large"))?;
        let raw = self.read_buffer_as(N, source.buffer, source.offset, span)?;
        let mut tight = Vec::with_capacity((row * h * d) as usize);
        for z in 0..d {
            for y in 0..h {
                let start = (z * is + y * rs) as usize;
                tight.extend_from_slice(&raw[start..start + row as usize]);
            }
        }
        if source.swap_bytes {
            use tessera_wire::format::{PixelFormat, PixelType};
            let unit = match layout.ty {
                PixelType::F32U32_248Rev => 4,
                ty => pixel_size(PixelFormat::Red, ty),
            };
            if unit > 1 {
                for chunk in tight.chunks_exact_mut(unit) {
                    chunk.reverse();
                }
            }
        }
        let write = TextureWrite {
            at,
            region,
            layout,
            bytes: &tight,
        };
        self.write_texture(handle, write)
    }

    /// `WriteCompressedTextureFromBuffer`: reads the blocks from the buffer, then uploads
    /// them as `WriteCompressedTexture` would.
    fn write_blocks_from_buffer(&mut self, t: TextureHandle, at: ImageRef, src: BufferBlocks) -> R {
        const N: &str = "WriteCompressedTextureFromBuffer";
        let r = src.range;
        let blocks = self.read_buffer_as(N, src.buffer, r.offset, r.size)?;
        let (region, bytes) = (src.region, &blocks[..]);
        self.write_compressed_texture(t, BlockWrite { at, region, bytes })
    }

    /// `ReadTexture`: reads a whole image through the scratch framebuffer, layer by layer,
    /// then converts to `layout`.
    fn read_texture(&mut self, handle: TextureHandle, read: TextureReadback) -> Bytes {
        const N: &str = "ReadTexture";
        use tessera_wire::format::{FormatClass, PixelFormat, PixelType};
        let (ImageRef { level, face }, layout, size) = (read.at, read.layout, read.size);
        let t = self.textures.get(N, handle)?;
        let (name, target, kind, immutable) = (t.name, t.target, t.kind, t.immutable);
        let own_view = t.view;
        let image = t
            .image(level, face)
            .ok_or_else(|| bad_value(N, format!("level {level} face {face} is not defined")))?;
        let (width, rows, layers) = match kind {
            TextureKind::D1 => (size[0], 1, 1),
            TextureKind::D1Array => (size[0], 1, array_1d_layers([0; 3], size).1),
            _ if conv::is_layered(target) => (size[0], size[1], size[2]),
            _ => (size[0], size[1], 1),
        };
        let count = width as usize * rows as usize * layers as usize;
        let out_size = crate::device::readback_size(count, layout)
            .ok_or_else(|| bad_value(N, format!("a {size:?} read-back is too large")))?;
        let native = conv::map_format(image.format, &self.features);
        let class = image.format.info().class;
        let read_layout = match class {
            FormatClass::Depth if self.features.read_depth => {
                conv::map_depth_read_layout(Some(image.format), false)
            }
            FormatClass::Stencil if self.features.read_stencil => PixelLayout {
                format: PixelFormat::StencilIndex,
                ty: PixelType::U8,
            },
            FormatClass::DepthStencil if self.features.read_depth_stencil => {
                conv::map_depth_read_layout(Some(image.format), true)
            }
            FormatClass::Float | FormatClass::Int | FormatClass::Uint => {
                conv::map_read_layout(image.format, &self.features)
            }
            _ => {
                self.report(Missing::ReadDepthStencil, "reading depth or stencil needs NV_read_depth/_stencil/_depth_stencil: zeros instead");
                return Ok(vec![0; out_size]);
            }
        };
        if native.compressed
            || count == 0
            || matches!(
                target,
                glow::TEXTURE_2D_MULTISAMPLE
                    | glow::TEXTURE_2D_MULTISAMPLE_ARRAY
                    | glow::TEXTURE_BUFFER
            )
        {
            return Ok(vec![0; out_size]);
        }
        // Half floats asked for as half floats are read through a view of their bits as
        // unsigned integers where the storage is immutable: GLES reads half-float images
        // only as floats, which quiet signalling NaNs, and GL hands the bits back as they
        // are (a view of integer texels as half floats reads them so).
        let bits = match (native.internal, layout.format, self.extra.texture_view) {
            (glow::R16F, _, Some(f)) => Some((glow::R16UI, f)),
            (glow::RG16F, _, Some(f)) => Some((glow::RG16UI, f)),
            (glow::RGBA16F, _, Some(f)) => Some((glow::RGBA16UI, f)),
            _ => None,
        }
        .filter(|_| {
            immutable
                && !native.stand_in
                && layout.ty == PixelType::F16
                && matches!(
                    layout.format,
                    PixelFormat::Red | PixelFormat::Rg | PixelFormat::Rgb | PixelFormat::Rgba
                )
        });
        let (name, read_layout, bits_view) = match bits {
            Some((uint, texture_view)) => {
                // SAFETY: context current; glGenTextures has no preconditions.
                let view = unsafe { self.gl.create_texture() }
                    .map_err(|e| SessionError::Backend(format!("{N}: {e}")))?;
                let layers = match target {
                    glow::TEXTURE_2D => 1,
                    glow::TEXTURE_CUBE_MAP => 6,
                    _ => u32::from(u16::MAX),
                };
                // SAFETY: context current; the extension's entry point; a new, never bound
                // name; a live immutable texture of `target` whose format has the view class
                // of `uint`; GL clamps the level and layer counts to the texture's.
                unsafe {
                    texture_view(view.0.get(), target, name.0.get(), uint, 0, 1000, 0, layers)
                };
                let read = PixelLayout {
                    format: PixelFormat::RgbaInteger,
                    ty: PixelType::U32,
                };
                (view, read, Some(view))
            }
            None => (name, read_layout, None),
        };
        let point = match class {
            FormatClass::Depth => glow::DEPTH_ATTACHMENT,
            FormatClass::Stencil => glow::STENCIL_ATTACHMENT,
            FormatClass::DepthStencil => glow::DEPTH_STENCIL_ATTACHMENT,
            _ => glow::COLOR_ATTACHMENT0,
        };
        // GLES attaches a level other than the base level only of a mipmap-complete
        // texture: a mutable texture's level range is narrowed to the level read for the
        // read, then given back (as copies narrow it).
        let narrow = !immutable
            && bits_view.is_none()
            && u32::from(level) != own_view.base_level
            && !matches!(
                target,
                glow::TEXTURE_2D_MULTISAMPLE | glow::TEXTURE_2D_MULTISAMPLE_ARRAY
            );
        if narrow {
            self.bind_for_update(name, target);
            // SAFETY: context current; the texture is bound to `target`, which takes
            // level-range and filter parameters (not multisample).
            unsafe {
                self.gl
                    .tex_parameter_i32(target, glow::TEXTURE_MIN_FILTER, glow::NEAREST as i32);
                self.gl
                    .tex_parameter_i32(target, glow::TEXTURE_BASE_LEVEL, i32::from(level));
                self.gl
                    .tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, i32::from(level));
            }
        }
        let scratch = self.scratch_framebuffer()?;
        self.shadow.bind_read_framebuffer(&self.gl, Some(scratch));
        self.disturbed |= dirty::FRAMEBUFFER;
        let raw_size = crate::device::readback_size(count, read_layout)
            .ok_or_else(|| bad_value(N, format!("a {size:?} read-back is too large")))?;
        let layer_bytes = raw_size / layers.max(1) as usize;
        let mut raw = vec![0u8; raw_size];
        let gl = &self.gl;
        // SAFETY: context current; the scratch FBO is bound to READ_FRAMEBUFFER; `name` is a
        // live texture of `target`, attached at one point (others detached first so no stale
        // image makes it incomplete); each read fills exactly `layer_bytes` of `raw` with the
        // layout GLES guarantees for the format's class (PACK_ALIGNMENT 1, no pack buffer).
        unsafe {
            for p in [glow::COLOR_ATTACHMENT0, glow::DEPTH_STENCIL_ATTACHMENT] {
                gl.framebuffer_renderbuffer(glow::READ_FRAMEBUFFER, p, glow::RENDERBUFFER, None);
            }
            for (z, chunk) in raw.chunks_exact_mut(layer_bytes).enumerate() {
                match target {
                    glow::TEXTURE_CUBE_MAP => gl.framebuffer_texture_2d(
                        glow::READ_FRAMEBUFFER,
                        point,
                        glow::TEXTURE_CUBE_MAP_POSITIVE_X + u32::from(face),
                        Some(name),
                        i32::from(level),
                    ),
                    glow::TEXTURE_3D | glow::TEXTURE_2D_ARRAY | glow::TEXTURE_CUBE_MAP_ARRAY => gl
                        .framebuffer_texture_layer(
                            glow::READ_FRAMEBUFFER,
                            point,
                            Some(name),
                            i32::from(level),
                            z as i32,
                        ),
                    _ => gl.framebuffer_texture_2d(
                        glow::READ_FRAMEBUFFER,
                        point,
                        target,
                        Some(name),
                        i32::from(level),
                    ),
                }
                gl.read_pixels(
                    0,
                    0,
                    width as i32,
                    rows as i32,
                    conv::map_pixel_format(read_layout.format),
                    conv::map_pixel_type(read_layout.ty),
                    glow::PixelPackData::Slice(Some(chunk)),
                );
            }
            gl.framebuffer_renderbuffer(glow::READ_FRAMEBUFFER, point, glow::RENDERBUFFER, None);
        }
        if narrow {
            self.bind_for_update(name, target);
            // SAFETY: as above; the values are the ones the texture had.
            unsafe {
                self.gl.tex_parameter_i32(
                    target,
                    glow::TEXTURE_MIN_FILTER,
                    glow::NEAREST_MIPMAP_LINEAR as i32,
                );
                self.gl.tex_parameter_i32(
                    target,
                    glow::TEXTURE_BASE_LEVEL,
                    own_view.base_level.min(i32::MAX as u32) as i32,
                );
                self.gl.tex_parameter_i32(
                    target,
                    glow::TEXTURE_MAX_LEVEL,
                    own_view.max_level.min(i32::MAX as u32) as i32,
                );
            }
        }
        if let Some(view) = bits_view {
            self.shadow.delete_texture(&self.gl, view);
            let n = pixel_size(layout.format, layout.ty) / 2;
            let mut out = Vec::with_capacity(count * n * 2);
            for texel in raw.chunks_exact(16).take(count) {
                for c in texel.chunks_exact(4).take(n) {
                    let v = u32::from_ne_bytes([c[0], c[1], c[2], c[3]]) as u16;
                    out.extend_from_slice(&v.to_ne_bytes());
                }
            }
            return Ok(out);
        }
        pixel::convert(read_layout, layout, &raw, count)
            .ok_or_else(|| bad_value(N, "read-back conversion failed"))
    }

    /// `ReadCompressedTexture`: the blocks kept of the image (GLES reads no compressed image
    /// back). A view's images have no copy (the storage's blocks are not shared with it):
    /// its read-back is empty, and the engine pads it with zeros (reported once).
    fn read_compressed_texture(&mut self, handle: TextureHandle, read: BlockReadback) -> Bytes {
        const N: &str = "ReadCompressedTexture";
        let t = self.textures.get(N, handle)?;
        if let Some(blocks) = t.blocks.read(read.at) {
            return Ok(blocks.to_vec());
        }
        static WARNED: std::sync::Once = std::sync::Once::new();
        WARNED.call_once(|| {
            log::warn!("tessera-backend-gles: {N}: no copy of the image's blocks (a texture view): zeros instead");
        });
        Ok(Vec::new())
    }

    /// `ClearTexture` (`texture_clear.rs`).
    fn clear_texture(&mut self, handle: TextureHandle, clear: TextureClear) -> R {
        self.clear_texture_box(handle, clear)
    }

    /// `GenerateMipmap`: fills `base+1..=max` with the level range set to `base..=max` for
    /// the call, then restores the texture's own range.
    /// `CopyImage`: the driver's `glCopyImageSubData` (ES 3.2). A 1D texture lives in a 2D
    /// one and a 1D array in a 2D array, so GL's origins and sizes carry over as they are
    /// (y is 0 for both, z the layer).
    fn copy_image(&mut self, c: ImageCopy) -> R {
        const N: &str = "CopyImage";
        let mut ends = [(glow::NativeTexture(std::num::NonZeroU32::MIN), 0); 2];
        for (slot, end) in ends.iter_mut().zip([c.src, c.dst]) {
            *slot = match end.object {
                ImageObject::Texture(h) => {
                    let t = self.textures.get(N, h)?;
                    (t.name, t.target)
                }
                ImageObject::Renderbuffer(h) => {
                    let rb = self.renderbuffers.get(N, h)?;
                    (glow::NativeTexture(rb.name.0), glow::RENDERBUFFER)
                }
            };
        }
        let [(src, src_target), (dst, dst_target)] = ends;
        // The driver copies only between complete textures: each texture's level range is
        // narrowed to the level copied, with a filter that needs no other level, and put
        // back after (sampling takes its filters from sampler objects).
        let mut found = Vec::new();
        for (end, target) in [(c.src, src_target), (c.dst, dst_target)] {
            if let ImageObject::Texture(h) = end.object
                && !matches!(
                    target,
                    glow::TEXTURE_2D_MULTISAMPLE | glow::TEXTURE_2D_MULTISAMPLE_ARRAY
                )
            {
                let t = self.textures.get(N, h)?;
                found.push((t.name, target, t.view, end.level));
            }
        }
        let mut narrowed = Vec::new();
        for (name, target, view, level) in found {
            self.bind_for_update(name, target);
            // SAFETY: context current; the texture is bound to `target`, which takes
            // level-range and filter parameters (not multisample).
            unsafe {
                self.gl
                    .tex_parameter_i32(target, glow::TEXTURE_MIN_FILTER, glow::NEAREST as i32);
                self.gl
                    .tex_parameter_i32(target, glow::TEXTURE_BASE_LEVEL, i32::from(level));
                self.gl
                    .tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, i32::from(level));
            }
            narrowed.push((name, target, view));
        }
        let (s, d) = (
            c.src.origin.map(|v| v as i32),
            c.dst.origin.map(|v| v as i32),
        );
        let [w, h, depth] = c.size.map(|v| v as i32);
        // SAFETY: context current; both names are live native objects of the targets
        // named (a renderbuffer's name passed as GL takes it, with RENDERBUFFER); the engine
        // checked the regions, formats and levels, so a fault is a GL error, not UB.
        unsafe {
            self.gl.copy_image_sub_data(
                src,
                src_target,
                i32::from(c.src.level),
                s[0],
                s[1],
                s[2],
                dst,
                dst_target,
                i32::from(c.dst.level),
                d[0],
                d[1],
                d[2],
                w,
                h,
                depth,
            );
        }
        self.copy_blocks(&c)?;
        for (name, target, view) in narrowed {
            self.bind_for_update(name, target);
            // SAFETY: as above; the values are the ones the texture had.
            unsafe {
                self.gl.tex_parameter_i32(
                    target,
                    glow::TEXTURE_MIN_FILTER,
                    glow::NEAREST_MIPMAP_LINEAR as i32,
                );
                self.gl
                    .tex_parameter_i32(target, glow::TEXTURE_BASE_LEVEL, view.base_level as i32);
                self.gl.tex_parameter_i32(
                    target,
                    glow::TEXTURE_MAX_LEVEL,
                    view.max_level.min(i32::MAX as u32) as i32,
                );
            }
        }
        Ok(())
    }

    fn generate_mipmap(&mut self, handle: TextureHandle, base: u8, max: u8) -> R {
        let t = self.textures.get("GenerateMipmap", handle)?;
        let (name, target, view) = (t.name, t.target, t.view);
        if matches!(
            target,
            glow::TEXTURE_2D_MULTISAMPLE
                | glow::TEXTURE_2D_MULTISAMPLE_ARRAY
                | glow::TEXTURE_BUFFER
        ) {
            return Ok(());
        }
        self.bind_for_update(name, target);
        // SAFETY: context current; the texture is bound to `target`; base/max level are ES
        // 3.0 texture parameters; an incomplete base level is a GL error, not UB.
        unsafe {
            self.gl
                .tex_parameter_i32(target, glow::TEXTURE_BASE_LEVEL, i32::from(base));
            self.gl
                .tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, i32::from(max));
            self.gl.generate_mipmap(target);
            self.gl
                .tex_parameter_i32(target, glow::TEXTURE_BASE_LEVEL, view.base_level as i32);
            self.gl.tex_parameter_i32(
                target,
                glow::TEXTURE_MAX_LEVEL,
                view.max_level.min(i32::MAX as u32) as i32,
            );
        }
        Ok(())
    }

    /// `SetTextureView`: level range and swizzle, set only where they changed.
    fn set_texture_view(&mut self, handle: TextureHandle, view: TextureView) -> R {
        let t = self.textures.get_mut("SetTextureView", handle)?;
        let (name, target, old) = (t.name, t.target, t.view);
        t.view = view;
        if old == view || target == glow::TEXTURE_BUFFER {
            return Ok(());
        }
        self.bind_for_update(name, target);
        const SWIZZLES: [u32; 4] = [
            glow::TEXTURE_SWIZZLE_R,
            glow::TEXTURE_SWIZZLE_G,
            glow::TEXTURE_SWIZZLE_B,
            glow::TEXTURE_SWIZZLE_A,
        ];
        // SAFETY: context current; the texture is bound to `target`; ES 3.0 parameters with
        // values from conv's maps (levels clamped to GLint).
        unsafe {
            if old.base_level != view.base_level {
                self.gl.tex_parameter_i32(
                    target,
                    glow::TEXTURE_BASE_LEVEL,
                    view.base_level.min(i32::MAX as u32) as i32,
                );
            }
            if old.max_level != view.max_level {
                self.gl.tex_parameter_i32(
                    target,
                    glow::TEXTURE_MAX_LEVEL,
                    view.max_level.min(i32::MAX as u32) as i32,
                );
            }
            for (i, pname) in SWIZZLES.into_iter().enumerate() {
                if old.swizzle[i] != view.swizzle[i] {
                    self.gl.tex_parameter_i32(
                        target,
                        pname,
                        conv::map_swizzle(view.swizzle[i]) as i32,
                    );
                }
            }
            // ES 3.1's parameter; the engine sets `stencil` only where the caps say the
            // driver has it.
            if old.stencil != view.stencil {
                let mode = if view.stencil {
                    glow::STENCIL_INDEX
                } else {
                    glow::DEPTH_COMPONENT
                };
                self.gl
                    .tex_parameter_i32(target, glow::DEPTH_STENCIL_TEXTURE_MODE, mode as i32);
            }
        }
        Ok(())
    }

    /// `SetTextureBuffer`.
    fn set_texture_buffer(&mut self, handle: TextureHandle, texels: TexelBuffer) -> R {
        const N: &str = "SetTextureBuffer";
        let (buffer, format) = (texels.buffer, texels.format);
        let BufferRange { offset, size } = texels.range;
        let t = self.textures.get(N, handle)?;
        let (name, target) = (t.name, t.target);
        // A whole buffer (size 0) goes to glTexBuffer, which follows the buffer's data store
        // as later `CreateBuffer`s re-specify it (glBufferData on the same native buffer); a
        // range fixed now would keep the old size, and a 0-byte one is an error.
        let buffer = match buffer {
            Some(b) if size == 0 && offset == 0 => Some((self.buffers.get(N, b)?.name, None)),
            Some(b) => {
                let whole = self.buffers.get(N, b)?.size;
                let size = if size == 0 {
                    whole.saturating_sub(offset)
                } else {
                    size
                };
                Some((self.buffers.get_range(N, b, offset, size)?.name, Some(size)))
            }
            None => None,
        };
        if target != glow::TEXTURE_BUFFER {
            return Ok(());
        }
        let internal = conv::map_format(format, &self.features).internal;
        self.bind_for_update(name, target);
        match (buffer, self.extra.tex_buffer_range) {
            (Some((b, Some(size))), Some(range)) => {
                // SAFETY: context current; `range` is glTexBufferRange (present with texture
                // buffers); the texture is bound to TEXTURE_BUFFER; the range lies in the
                // buffer (checked); an unaligned offset is a GL error, not UB.
                unsafe { range(target, internal, b.0.get(), offset as isize, size as isize) };
            }
            (b, _) => {
                // SAFETY: context current; glTexBuffer exists with texture buffers; a live
                // buffer or None.
                unsafe { self.gl.tex_buffer(target, internal, b.map(|(b, _)| b)) };
            }
        }
        Ok(())
    }
}

//! Immutable texture storage (`glTexStorage1D/2D/3D`, `glTexStorage2DMultisample`,
//! `glTexStorage3DMultisample`: GL 4.2's `ARB_texture_storage` and GL 4.3's
//! `ARB_texture_storage_multisample`).
//!
//! A storage call defines every level (and every face of a cube map) at once, with the sizes
//! of the mipmap chain of its level-0 size, and makes the texture immutable: its
//! `TEXTURE_IMMUTABLE_LEVELS` is the level count and `TEXTURE_IMMUTABLE_FORMAT` true. From
//! then on no call may define an image of it again (`glTexImage*`, `glCopyTexImage*`,
//! `glCompressedTexImage*`, `glTexImage*Multisample` and another storage call are
//! `INVALID_OPERATION`); sub-image uploads, copies and mipmap generation still fill it.
//! Sampling and mipmap generation clamp the base and max level to its levels
//! ([`Texture::level_range`]).
//!
//! The backend gets the images as `DefineTextureImage` records of every level and face, all
//! in the same batch, before any upload: the Vulkan backend makes the image with its whole
//! chain at the first of them, the GLES backend defines each level.
//!
//! Errors are decided in Mesa's order (`texstorage.c`): a target the call does not take or
//! an unsized format ([`is_sized`]) `INVALID_ENUM`; a size below one `INVALID_VALUE`; a compressed format
//! on a target that cannot hold it `INVALID_ENUM`; fewer than one level `INVALID_VALUE`;
//! more levels than the target or the size has, texture object zero, an immutable texture,
//! or a depth format on a 3D texture `INVALID_OPERATION`; a size past the limits
//! `INVALID_VALUE`. A proxy target records the images, or none when they would not fit.

use tessera_components::gl::*;
use tessera_components::object::{Image, MAX_LEVELS, Texture, ViewRange};
use tessera_components::state::TextureTarget;
use tessera_systems::texture::chain_size;

use super::format::{Base, compressed_size, internal_format};
use super::image::compressible;
use super::{ImageTarget, default_texture_if_any, fits, image_target, max_levels};
use crate::context::{Context, GlResult};
use crate::share::Shared;

/// Whether `tex_storage_{dims}d` takes `target` (a texture target or its proxy).
fn storage_accepts(dims: u8, target: GLenum) -> Option<ImageTarget> {
    let it = match target {
        TEXTURE_CUBE_MAP => ImageTarget {
            target: TextureTarget::Cube,
            face: 0,
            proxy: false,
        },
        TEXTURE_CUBE_MAP_POSITIVE_X..=TEXTURE_CUBE_MAP_NEGATIVE_Z => return None,
        t => image_target(t)?,
    };
    let ok = match dims {
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
    };
    ok.then_some(it)
}

/// Whether immutable storage takes `internal`: sized internal formats, and (as Mesa's
/// `_mesa_is_legal_tex_storage_format`) the unsized `SRGB`, `SRGB_ALPHA`, `COMPRESSED_RED`
/// and `COMPRESSED_RG`, which it stores as `SRGB8`, `SRGB8_ALPHA8`, `R8` and `RG8`; the other
/// base formats are `INVALID_ENUM`.
pub(crate) fn is_sized(internal: GLenum, stencil8: bool) -> bool {
    internal_format(internal, stencil8).is_some()
        && !matches!(
            internal,
            RED | RG
                | RGB
                | RGBA
                | DEPTH_COMPONENT
                | DEPTH_STENCIL
                | COMPRESSED_RGB
                | COMPRESSED_RGBA
                | COMPRESSED_SRGB
                | COMPRESSED_SRGB_ALPHA
        )
}

/// Layers of immutable storage of a `target` texture of this size: array layers, six cube
/// faces, or one.
pub(crate) fn storage_layers(target: TextureTarget, [_, h, d]: [i32; 3]) -> i32 {
    match target {
        TextureTarget::D1Array => h,
        TextureTarget::D2Array | TextureTarget::D2MultisampleArray | TextureTarget::CubeArray => d,
        TextureTarget::Cube => 6,
        _ => 1,
    }
}

/// Levels a full mipmap chain of a `target` image of this size has (one for rectangle and
/// multisample textures).
fn chain_levels(target: TextureTarget, [w, h, d]: [i32; 3]) -> i32 {
    let largest = match target {
        TextureTarget::D1 | TextureTarget::D1Array => w,
        TextureTarget::D2
        | TextureTarget::D2Array
        | TextureTarget::Cube
        | TextureTarget::CubeArray => w.max(h),
        TextureTarget::D3 => w.max(h).max(d),
        _ => return 1,
    };
    32 - (largest.max(1) as u32).leading_zeros() as i32
}

impl Context {
    /// `glTexStorage1D`.
    pub fn tex_storage_1d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
    ) {
        self.tex_storage(1, target, levels, internalformat, [width, 1, 1]);
    }

    /// `glTexStorage2D`.
    pub fn tex_storage_2d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
    ) {
        self.tex_storage(2, target, levels, internalformat, [width, height, 1]);
    }

    /// `glTexStorage3D`.
    pub fn tex_storage_3d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
        depth: GLsizei,
    ) {
        self.tex_storage(3, target, levels, internalformat, [width, height, depth]);
    }

    fn tex_storage(
        &mut self,
        dims: u8,
        target: GLenum,
        levels: GLsizei,
        internal: GLenum,
        size: [GLsizei; 3],
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) = self.tex_storage_locked(&mut sh, dims, target, levels, internal, size) {
            self.error(err);
        }
    }

    pub(crate) fn tex_storage_locked(
        &mut self,
        sh: &mut Shared,
        dims: u8,
        target: GLenum,
        levels: GLsizei,
        internal: GLenum,
        size: [GLsizei; 3],
    ) -> GlResult {
        let it = storage_accepts(dims, target).ok_or(INVALID_ENUM)?;
        let stencil8 = self.local.limits.texture_stencil8;
        if !is_sized(internal, stencil8) {
            return Err(INVALID_ENUM);
        }
        let kind = internal_format(internal, stencil8).ok_or(INVALID_ENUM)?;
        if size.iter().any(|s| *s < 1) {
            return Err(INVALID_VALUE);
        }
        if kind.block_bytes.is_some() && !compressible(it.target, internal) {
            return Err(INVALID_ENUM);
        }
        if levels < 1 {
            return Err(INVALID_VALUE);
        }
        if levels > max_levels(&self.local.limits, it.target) {
            return Err(INVALID_OPERATION);
        }
        if levels > chain_levels(it.target, size) {
            return Err(INVALID_OPERATION);
        }
        if !it.proxy {
            self.check_storage_target(sh, it.target)?;
        }
        if kind.base != Base::Color && it.target == TextureTarget::D3 {
            return Err(INVALID_OPERATION);
        }
        let [w, h, d] = size;
        let fit = fits(&self.local.limits, it.target, 0, w, h, d);
        if it.proxy {
            let proxy = &mut self.proxy_images(sh)[it.target as usize];
            *proxy = [Image::default(); MAX_LEVELS];
            if !fit {
                return Ok(());
            }
        } else if !fit {
            return Err(INVALID_VALUE);
        }
        let format = super::format::texture_format(internal, NONE).ok_or(INVALID_ENUM)?;
        let base = Image {
            width: w,
            height: h,
            depth: d,
            internal_format: internal,
            format: Some(format),
            ..Image::default()
        };
        let faces = if it.target == TextureTarget::Cube && !it.proxy {
            6
        } else {
            1
        };
        for level in 0..MAX_LEVELS {
            let image = if (level as i32) < levels {
                let (w, h, d) = chain_size(it.target, &base, level as i32);
                Image {
                    width: w,
                    height: h,
                    depth: d,
                    compressed_size: kind
                        .block_bytes
                        .map_or(0, |b| compressed_size(b, w, h, d) as i32),
                    ..base
                }
            } else {
                Image::default()
            };
            for face in 0..faces {
                let at = ImageTarget { face, ..it };
                self.define_image(sh, at, level, image);
            }
        }
        if !it.proxy {
            let e = self.target_texture(sh, it.target);
            if let Some(mut t) = sh.world.get_mut::<Texture>(e) {
                t.immutable_levels = levels;
                t.view_range = ViewRange {
                    min_level: 0,
                    num_levels: levels,
                    min_layer: 0,
                    num_layers: storage_layers(it.target, size),
                };
                t.params_generation = t.params_generation.wrapping_add(1);
            }
        }
        Ok(())
    }

    /// The checks on the texture a (non-proxy) storage call defines: texture object zero and
    /// an immutable texture are `INVALID_OPERATION`.
    pub(crate) fn check_storage_target(&mut self, sh: &Shared, t: TextureTarget) -> GlResult {
        let bound = self.local.bound_texture(t);
        let e = match bound {
            Some(e) if Some(e) != default_texture_if_any(sh, t) => e,
            _ => return Err(INVALID_OPERATION),
        };
        if sh
            .world
            .get::<Texture>(e)
            .is_some_and(|x| x.immutable_levels > 0)
        {
            return Err(INVALID_OPERATION);
        }
        Ok(())
    }

    /// The check every image definition makes last: images of an immutable texture cannot
    /// be defined again (`INVALID_OPERATION`). Proxies have no texture to check.
    pub(crate) fn check_mutable(&self, sh: &Shared, it: ImageTarget) -> GlResult {
        if it.proxy {
            return Ok(());
        }
        let immutable = self
            .local
            .bound_texture(it.target)
            .or_else(|| default_texture_if_any(sh, it.target))
            .and_then(|e| sh.world.get::<Texture>(e))
            .is_some_and(|t| t.immutable_levels > 0);
        if immutable {
            Err(INVALID_OPERATION)
        } else {
            Ok(())
        }
    }

    /// `glTexStorage2DMultisample`.
    pub fn tex_storage_2d_multisample(
        &mut self,
        target: GLenum,
        samples: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
        fixedsamplelocations: GLboolean,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) = self.multisample_locked(
            &mut sh,
            2,
            target,
            samples,
            internalformat as GLint,
            [width, height, 1],
            fixedsamplelocations,
            true,
        ) {
            self.error(err);
        }
    }

    /// `glTexStorage3DMultisample`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn tex_storage_3d_multisample(
        &mut self,
        target: GLenum,
        samples: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
        depth: GLsizei,
        fixedsamplelocations: GLboolean,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) = self.multisample_locked(
            &mut sh,
            3,
            target,
            samples,
            internalformat as GLint,
            [width, height, depth],
            fixedsamplelocations,
            true,
        ) {
            self.error(err);
        }
    }
}

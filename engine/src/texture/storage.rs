//! Multisample images (`tex_image_2d_multisample`, `tex_image_3d_multisample`) and buffer
//! textures (`tex_buffer`): the two kinds of texture whose storage is not a mipmap chain of
//! client pixels.

use tessera_components::gl::*;
use tessera_components::object::{Buffer, Image, Texture, TextureBufferRange};
use tessera_components::state::TextureTarget;
use tessera_systems::conv::map_sized_format;
use tessera_systems::lifecycle;
use tessera_wire::format::Format;
use tessera_wire::record::{BufferRange, Record};

use super::format::{Base, internal_format};
use super::immutable::is_sized;
use super::{fits, image_target};
use crate::context::{Context, GlResult};
use crate::share::Shared;

impl Context {
    /// `glTexImage2DMultisample`.
    pub fn tex_image_2d_multisample(
        &mut self,
        target: GLenum,
        samples: GLsizei,
        internalformat: GLint,
        width: GLsizei,
        height: GLsizei,
        fixedsamplelocations: GLboolean,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let size = [width, height, 1];
        if let Err(err) = self.multisample_locked(
            &mut sh,
            2,
            target,
            samples,
            internalformat,
            size,
            fixedsamplelocations,
            false,
        ) {
            self.error(err);
        }
    }

    /// `glTexImage3DMultisample`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn tex_image_3d_multisample(
        &mut self,
        target: GLenum,
        samples: GLsizei,
        internalformat: GLint,
        width: GLsizei,
        height: GLsizei,
        depth: GLsizei,
        fixedsamplelocations: GLboolean,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let size = [width, height, depth];
        if let Err(err) = self.multisample_locked(
            &mut sh,
            3,
            target,
            samples,
            internalformat,
            size,
            fixedsamplelocations,
            false,
        ) {
            self.error(err);
        }
    }

    /// The multisample image and storage calls, in Mesa's order: samples below one
    /// `INVALID_VALUE`, bad target, an unsized format for storage or a format that cannot be
    /// rendered to `INVALID_ENUM`, more samples than the format allows `INVALID_OPERATION`,
    /// storage for texture object zero `INVALID_OPERATION`, a size that does not fit
    /// `INVALID_VALUE`, an immutable texture `INVALID_OPERATION`. A proxy records failures
    /// as an empty image instead. Storage (`immutable`) makes the texture immutable with one
    /// level.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub(super) fn multisample_locked(
        &mut self,
        sh: &mut Shared,
        dims: u8,
        target: GLenum,
        samples: GLsizei,
        internal: GLint,
        size: [GLsizei; 3],
        fixed: GLboolean,
        immutable: bool,
    ) -> GlResult {
        if samples < 1 {
            return Err(INVALID_VALUE);
        }
        let it = image_target(target)
            .filter(|it| {
                it.target
                    == if dims == 2 {
                        TextureTarget::D2Multisample
                    } else {
                        TextureTarget::D2MultisampleArray
                    }
            })
            .ok_or(INVALID_ENUM)?;
        let internal_enum = GLenum::try_from(internal).map_err(|_| INVALID_ENUM)?;
        let stencil8 = self.local.limits.texture_stencil8;
        if immutable && !is_sized(internal_enum, stencil8) {
            return Err(INVALID_ENUM);
        }
        let format = renderable_format(internal_enum, stencil8).ok_or(INVALID_ENUM)?;
        let [w, h, d] = size;
        let max_samples = self.local.limits.max_samples;
        let fits = fits(&self.local.limits, it.target, 0, w, h, d);
        let samples_ok = samples <= max_samples;
        if it.proxy && !(fits && samples_ok) {
            self.define_image(sh, it, 0, Image::default());
            return Ok(());
        }
        if !samples_ok {
            return Err(INVALID_OPERATION);
        }
        if immutable && !it.proxy {
            self.check_storage_target(sh, it.target)?;
        }
        if !fits {
            return Err(INVALID_VALUE);
        }
        self.check_mutable(sh, it)?;
        // What the backend allocates: a count it supports, at least as large.
        let allocated = self.local.limits.allocated_samples(samples);
        let image = Image {
            width: w,
            height: h,
            depth: d,
            internal_format: internal_enum,
            format: Some(format),
            samples: allocated,
            fixed_sample_locations: fixed != 0,
            compressed_size: 0,
        };
        if let Some((e, _)) = self.define_image(sh, it, 0, image)
            && immutable
            && let Some(mut t) = sh.world.get_mut::<Texture>(e)
        {
            t.immutable_levels = 1;
            t.view_range = tessera_components::object::ViewRange {
                min_level: 0,
                num_levels: 1,
                min_layer: 0,
                num_layers: super::immutable::storage_layers(it.target, [w, h, d]),
            };
            t.params_generation = t.params_generation.wrapping_add(1);
        }
        Ok(())
    }

    /// `glTexBuffer`: makes the buffer texture bound to the active unit read `buffer`'s data
    /// store as texels of `internalformat` (0 detaches). The texture holds a reference to the
    /// buffer.
    pub fn tex_buffer(&mut self, target: GLenum, internalformat: GLenum, buffer: GLuint) {
        self.tex_buffer_range_of(target, internalformat, buffer, None);
    }

    /// `glTexBufferRange` (GL 4.3): as `glTexBuffer`, of `size` bytes at `offset`, which
    /// must lie in the buffer with `offset` a multiple of `TEXTURE_BUFFER_OFFSET_ALIGNMENT`
    /// (`INVALID_VALUE`, checked before the internal format, as in Mesa). With `buffer` 0
    /// the range is ignored and the texture detached.
    pub fn tex_buffer_range(
        &mut self,
        target: GLenum,
        internalformat: GLenum,
        buffer: GLuint,
        offset: GLintptr,
        size: GLsizeiptr,
    ) {
        let range = Some((offset as i64, size as i64));
        self.tex_buffer_range_of(target, internalformat, buffer, range);
    }

    /// Both buffer-texture calls: `range` is `None` for the whole buffer.
    fn tex_buffer_range_of(
        &mut self,
        target: GLenum,
        internalformat: GLenum,
        buffer: GLuint,
        range: Option<(i64, i64)>,
    ) {
        if target != TEXTURE_BUFFER {
            return self.error(INVALID_ENUM);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let b = if buffer == 0 {
            None
        } else {
            match sh.names.buffers.get(buffer) {
                Some(b) => Some(b),
                None => return self.error(INVALID_OPERATION),
            }
        };
        if let (Some(b), Some((offset, size))) = (b, range) {
            let whole = sh.world.get::<Buffer>(b).map_or(0, |b| b.size);
            let align = i64::from(self.local.limits.texture_buffer_offset_alignment);
            if offset < 0
                || size <= 0
                || offset.checked_add(size).is_none_or(|end| end > whole)
                || offset % align != 0
            {
                return self.error(INVALID_VALUE);
            }
        }
        let Some(format) =
            buffer_texture_format(internalformat, self.local.limits.texture_buffer_rgb32)
        else {
            return self.error(INVALID_ENUM);
        };
        let e = self.target_texture(&mut sh, TextureTarget::Buffer);
        let buffer_handle = b.and_then(|b| sh.world.get::<Buffer>(b)).map(|b| b.handle);
        let (offset, size) = range.unwrap_or((0, -1));
        let new = b.map(|buffer| TextureBufferRange {
            buffer,
            offset,
            size,
        });
        let (old, handle) = {
            let Some(mut t) = sh.world.get_mut::<Texture>(e) else {
                return;
            };
            let old = std::mem::replace(&mut t.buffer, new).map(|r| r.buffer);
            t.buffer_format = internalformat;
            t.images_generation = t.images_generation.wrapping_add(1);
            (old, t.handle)
        };
        let Shared { world, dev, .. } = &mut *sh;
        lifecycle::replace(world, dev, old, b);
        // A whole buffer is size 0 on the wire: it follows the buffer's later storage.
        let wire_range = match new {
            Some(r) if r.size > 0 => BufferRange {
                offset: r.offset as u64,
                size: r.size as u64,
            },
            _ => BufferRange { offset: 0, size: 0 },
        };
        dev.push(Record::SetTextureBuffer {
            texture: handle,
            buffer: buffer_handle,
            format,
            range: Box::new(wire_range),
        });
        self.touch_texture(e, TextureTarget::Buffer);
    }
}

/// The storage format of a multisample image of `internal`: GL 3.3 requires it to be
/// colour-, depth- or stencil-renderable; compressed formats are not, and stencil-only ones
/// are texture formats with `stencil8` only (GL 4.4's `ARB_texture_stencil8`).
fn renderable_format(internal: GLenum, stencil8: bool) -> Option<Format> {
    let kind = internal_format(internal, stencil8)?;
    if matches!(
        internal,
        COMPRESSED_RED
            | COMPRESSED_RG
            | COMPRESSED_RGB
            | COMPRESSED_RGBA
            | COMPRESSED_SRGB
            | COMPRESSED_SRGB_ALPHA
    ) || kind.block_bytes.is_some()
    {
        return None;
    }
    let ty = match kind.base {
        Base::Color => UNSIGNED_BYTE,
        Base::Depth => UNSIGNED_INT,
        Base::DepthStencil => UNSIGNED_INT_24_8,
        Base::Stencil => UNSIGNED_BYTE,
    };
    let format = super::format::texture_format(internal, ty)?;
    let info = format.info();
    (kind.base != Base::Color || info.color_renderable).then_some(format)
}

/// The texel format of a buffer texture (GL 3.3 table 3.15: one, two or four components of
/// 8, 16 or 32 bits), and with `rgb32` (`GL_ARB_texture_buffer_object_rgb32`, GL 4.0's table)
/// the three-component 32-bit formats too; another name is `INVALID_ENUM`, as in Mesa.
pub(crate) fn buffer_texture_format(internal: GLenum, rgb32: bool) -> Option<Format> {
    match internal {
        RGB32F | RGB32I | RGB32UI if rgb32 => map_sized_format(internal),
        R8 | R16 | R16F | R32F | R8I | R16I | R32I | R8UI | R16UI | R32UI | RG8 | RG16 | RG16F
        | RG32F | RG8I | RG16I | RG32I | RG8UI | RG16UI | RG32UI | RGBA8 | RGBA16 | RGBA16F
        | RGBA32F | RGBA8I | RGBA16I | RGBA32I | RGBA8UI | RGBA16UI | RGBA32UI => {
            map_sized_format(internal)
        }
        _ => None,
    }
}

//! Textures by name: `glCreateTextures`, `glBindTextureUnit` and the `glTexture*` calls.
//!
//! A named call finds its texture (`Context::on_texture`), checks that the call takes the
//! texture's target (with the error Mesa's named form raises, which is often
//! `INVALID_OPERATION` where the bound form's is `INVALID_ENUM`), and runs the bound form's
//! body with the texture in `Local::named_texture`, where `Local::bound_texture` finds it
//! instead of the active unit's binding of that target. The texture's own target is the
//! target the body is given, so every later check and record is the bound form's.
//!
//! A cube map's faces are the layers of the calls that take a 3D box
//! (`glTextureSubImage3D`, `glCompressedTextureSubImage3D`, `glCopyTextureSubImage3D`) and
//! the six images `glGetTextureImage` and `glGetCompressedTextureImage` read (GL 4.5
//! §8.6): each face is the bound form's body on that face's target, its pixels one image
//! stride past the previous face's, as Mesa steps them. The texture must be cube complete
//! at the level (`INVALID_OPERATION`, Mesa's check).

use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::{Life, Texture};
use tessera_components::state::TextureTarget;
use tessera_wire::state::MAX_TEXTURE_UNITS;

use crate::context::Context;
use crate::pixel::{self, Pixels, PixelsMut};
use crate::texture::{
    bind_unit, check_format_type, create_texture, default_texture_if_any, max_levels,
};

/// The texture targets a named sub-image call of `dims` dimensions takes (a cube map's
/// faces are layers of `glTextureSubImage3D`'s and `glCopyTextureSubImage3D`'s).
fn sub_image_accepts(dims: u8, t: TextureTarget) -> bool {
    use TextureTarget::*;
    match dims {
        1 => t == D1,
        2 => matches!(t, D2 | D1Array | Rectangle),
        _ => matches!(t, D3 | D2Array | CubeArray),
    }
}

/// The texture targets a named storage call of `dims` dimensions takes.
fn storage_accepts(dims: u8, t: TextureTarget) -> bool {
    use TextureTarget::*;
    match dims {
        1 => t == D1,
        2 => matches!(t, D2 | D1Array | Rectangle | Cube),
        _ => matches!(t, D3 | D2Array | CubeArray),
    }
}

/// Targets with texture parameters (every one but buffer textures).
fn has_parameters(t: TextureTarget) -> bool {
    t != TextureTarget::Buffer
}

/// Targets whose images `glGetTextureImage` and `glGetCompressedTextureImage` read.
pub(super) fn has_images_to_read(t: TextureTarget) -> bool {
    use TextureTarget::*;
    matches!(
        t,
        D1 | D2 | D3 | D1Array | D2Array | Cube | CubeArray | Rectangle
    )
}

/// The target of cube map face `face` (0-5).
pub(super) fn face_target(face: usize) -> GLenum {
    TEXTURE_CUBE_MAP_POSITIVE_X + face as GLenum
}

/// Client memory `pixels` cut to its first `n` bytes (a pack buffer offset as it is).
fn bound(pixels: PixelsMut<'_>, n: usize) -> PixelsMut<'_> {
    match pixels {
        PixelsMut::Bytes(b) => {
            let end = b.len().min(n);
            PixelsMut::Bytes(&mut b[..end])
        }
        p => p,
    }
}

/// `pixels` moved `by` bytes on.
fn pixels_at(pixels: Pixels<'_>, by: usize) -> Pixels<'_> {
    match pixels {
        Pixels::Bytes(b) => Pixels::Bytes(b.get(by..).unwrap_or_default()),
        Pixels::Offset(o) => Pixels::Offset(o + by),
        Pixels::None if by == 0 => Pixels::None,
        Pixels::None => Pixels::Offset(by),
    }
}

/// Whether `pname` sets sampler state on a multisample texture, which has none: the bound
/// forms say `INVALID_ENUM`, the named ones `INVALID_OPERATION` (Mesa's `invalid_dsa`).
fn sampler_state_of_multisample(t: TextureTarget, pname: GLenum) -> bool {
    matches!(
        t,
        TextureTarget::D2Multisample | TextureTarget::D2MultisampleArray
    ) && matches!(
        pname,
        TEXTURE_MIN_FILTER
            | TEXTURE_MAG_FILTER
            | TEXTURE_WRAP_S
            | TEXTURE_WRAP_T
            | TEXTURE_WRAP_R
            | TEXTURE_BORDER_COLOR
            | TEXTURE_MIN_LOD
            | TEXTURE_MAX_LOD
            | TEXTURE_LOD_BIAS
            | TEXTURE_COMPARE_MODE
            | TEXTURE_COMPARE_FUNC
            | TEXTURE_MAX_ANISOTROPY
    )
}

/// Any target: the bound form's body decides.
fn any(_: TextureTarget) -> bool {
    true
}

impl Context {
    /// The texture `texture` names, with its target. `INVALID_OPERATION` for a name that is
    /// no texture (zero, never generated, deleted); `Ok(None)` for a name `glGenTextures`
    /// reserved and no bind gave a target (Mesa has an object without a target there, which
    /// each call refuses with its own error).
    fn texture_by_name(&self, texture: GLuint) -> Result<Option<(Entity, TextureTarget)>, GLenum> {
        let sh = self.group.lock();
        match sh.names.textures.entry(texture) {
            NameEntry::Free => Err(INVALID_OPERATION),
            NameEntry::Reserved => Ok(None),
            NameEntry::Object(e) => Ok(sh
                .world
                .get::<Texture>(e)
                .and_then(|x| x.target)
                .map(|t| (e, t))),
        }
    }

    /// Runs `body` (a bound form's) on the texture `texture` names, given its target: a name
    /// that is no texture is `INVALID_OPERATION`; a texture without a target, or one whose
    /// target `accepts` refuses, is `wrong_target`.
    pub(crate) fn on_texture(
        &mut self,
        texture: GLuint,
        wrong_target: GLenum,
        accepts: fn(TextureTarget) -> bool,
        body: impl FnOnce(&mut Self, TextureTarget),
    ) {
        match self.texture_by_name(texture) {
            Err(err) => self.error(err),
            Ok(Some((e, t))) if accepts(t) => {
                let outer = self.local.named_texture.replace(e);
                body(self, t);
                self.local.named_texture = outer;
            }
            Ok(_) => self.error(wrong_target),
        }
    }

    /// `glCreateTextures`: names that are textures of `target` at once (their target fixed).
    pub fn create_textures(&mut self, target: GLenum, n: GLsizei, textures: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let Some(t) = TextureTarget::from_gl(target)
            .filter(|t| *t != TextureTarget::CubeArray || self.local.limits.cube_map_arrays)
        else {
            return self.error(INVALID_ENUM);
        };
        let len = (n as usize).min(textures.len());
        let out = &mut textures[..len];
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if sh.names.textures.generate(out).is_err() {
            return self.local.set_error(OUT_OF_MEMORY);
        }
        for &name in out.iter() {
            let e = create_texture(&mut sh, Life::named(name), t);
            sh.names.textures.bind_object(name, e);
        }
    }

    /// `glBindTextureUnit`: binds the texture to its target on unit `unit`; texture 0
    /// binds texture zero to every target of the unit.
    pub fn bind_texture_unit(&mut self, unit: GLuint, texture: GLuint) {
        if unit as usize >= MAX_TEXTURE_UNITS {
            return self.error(INVALID_VALUE);
        }
        let unit = unit as usize;
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if texture == 0 {
            for t in TextureTarget::ALL {
                let zero = default_texture_if_any(&sh, t);
                bind_unit(&mut self.local, &mut sh, unit, t, zero);
            }
            return;
        }
        let found = match sh.names.textures.entry(texture) {
            NameEntry::Object(e) => sh
                .world
                .get::<Texture>(e)
                .and_then(|x| x.target)
                .map(|t| (e, t)),
            _ => None,
        };
        match found {
            Some((e, t)) => bind_unit(&mut self.local, &mut sh, unit, t, Some(e)),
            None => self.local.set_error(INVALID_OPERATION),
        }
    }

    /// `glTextureParameteri`.
    pub fn texture_parameteri(&mut self, texture: GLuint, pname: GLenum, param: GLint) {
        self.on_texture(texture, INVALID_OPERATION, has_parameters, |c, t| {
            if sampler_state_of_multisample(t, pname) {
                return c.error(INVALID_OPERATION);
            }
            c.tex_parameteri(t.to_gl(), pname, param)
        });
    }

    /// `glTextureParameterf`.
    pub fn texture_parameterf(&mut self, texture: GLuint, pname: GLenum, param: GLfloat) {
        self.on_texture(texture, INVALID_OPERATION, has_parameters, |c, t| {
            if sampler_state_of_multisample(t, pname) {
                return c.error(INVALID_OPERATION);
            }
            c.tex_parameterf(t.to_gl(), pname, param)
        });
    }

    /// `glTextureParameteriv`.
    pub fn texture_parameteriv(&mut self, texture: GLuint, pname: GLenum, params: &[GLint]) {
        self.on_texture(texture, INVALID_OPERATION, has_parameters, |c, t| {
            if sampler_state_of_multisample(t, pname) {
                return c.error(INVALID_OPERATION);
            }
            c.tex_parameteriv(t.to_gl(), pname, params)
        });
    }

    /// `glTextureParameterfv`.
    pub fn texture_parameterfv(&mut self, texture: GLuint, pname: GLenum, params: &[GLfloat]) {
        self.on_texture(texture, INVALID_OPERATION, has_parameters, |c, t| {
            if sampler_state_of_multisample(t, pname) {
                return c.error(INVALID_OPERATION);
            }
            c.tex_parameterfv(t.to_gl(), pname, params)
        });
    }

    /// `glTextureParameterIiv`.
    pub fn texture_parameter_iiv(&mut self, texture: GLuint, pname: GLenum, params: &[GLint]) {
        self.on_texture(texture, INVALID_OPERATION, has_parameters, |c, t| {
            if sampler_state_of_multisample(t, pname) {
                return c.error(INVALID_OPERATION);
            }
            c.tex_parameter_iiv(t.to_gl(), pname, params)
        });
    }

    /// `glTextureParameterIuiv`.
    pub fn texture_parameter_iuiv(&mut self, texture: GLuint, pname: GLenum, params: &[GLuint]) {
        self.on_texture(texture, INVALID_OPERATION, has_parameters, |c, t| {
            if sampler_state_of_multisample(t, pname) {
                return c.error(INVALID_OPERATION);
            }
            c.tex_parameter_iuiv(t.to_gl(), pname, params)
        });
    }

    /// `glGetTextureParameterfv`.
    pub fn get_texture_parameterfv(
        &mut self,
        texture: GLuint,
        pname: GLenum,
        params: &mut [GLfloat],
    ) {
        self.on_texture(texture, INVALID_OPERATION, has_parameters, |c, t| {
            c.get_tex_parameterfv(t.to_gl(), pname, params)
        });
    }

    /// `glGetTextureParameteriv`.
    pub fn get_texture_parameteriv(
        &mut self,
        texture: GLuint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        self.on_texture(texture, INVALID_OPERATION, has_parameters, |c, t| {
            c.get_tex_parameteriv(t.to_gl(), pname, params)
        });
    }

    /// `glGetTextureParameterIiv`.
    pub fn get_texture_parameter_iiv(
        &mut self,
        texture: GLuint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        self.on_texture(texture, INVALID_OPERATION, has_parameters, |c, t| {
            c.get_tex_parameter_iiv(t.to_gl(), pname, params)
        });
    }

    /// `glGetTextureParameterIuiv`.
    pub fn get_texture_parameter_iuiv(
        &mut self,
        texture: GLuint,
        pname: GLenum,
        params: &mut [GLuint],
    ) {
        self.on_texture(texture, INVALID_OPERATION, has_parameters, |c, t| {
            c.get_tex_parameter_iuiv(t.to_gl(), pname, params)
        });
    }

    /// `glGetTextureLevelParameteriv`: a cube map answers for its first face.
    pub fn get_texture_level_parameteriv(
        &mut self,
        texture: GLuint,
        level: GLint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        self.on_texture(texture, INVALID_ENUM, any, |c, t| {
            c.get_tex_level_parameteriv(level_target(t), level, pname, params)
        });
    }

    /// `glGetTextureLevelParameterfv`: a cube map answers for its first face.
    pub fn get_texture_level_parameterfv(
        &mut self,
        texture: GLuint,
        level: GLint,
        pname: GLenum,
        params: &mut [GLfloat],
    ) {
        self.on_texture(texture, INVALID_ENUM, any, |c, t| {
            c.get_tex_level_parameterfv(level_target(t), level, pname, params)
        });
    }

    /// `glTextureStorage1D`.
    pub fn texture_storage_1d(
        &mut self,
        texture: GLuint,
        levels: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
    ) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| storage_accepts(1, t),
            |c, t| c.tex_storage_1d(t.to_gl(), levels, internalformat, width),
        );
    }

    /// `glTextureStorage2D`.
    pub fn texture_storage_2d(
        &mut self,
        texture: GLuint,
        levels: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
    ) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| storage_accepts(2, t),
            |c, t| c.tex_storage_2d(t.to_gl(), levels, internalformat, width, height),
        );
    }

    /// `glTextureStorage3D`.
    pub fn texture_storage_3d(
        &mut self,
        texture: GLuint,
        levels: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
        depth: GLsizei,
    ) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| storage_accepts(3, t),
            |c, t| c.tex_storage_3d(t.to_gl(), levels, internalformat, width, height, depth),
        );
    }

    /// `glTextureStorage2DMultisample`.
    pub fn texture_storage_2d_multisample(
        &mut self,
        texture: GLuint,
        samples: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
        fixed: GLboolean,
    ) {
        let accepts = |t| t == TextureTarget::D2Multisample;
        self.on_texture(texture, INVALID_OPERATION, accepts, |c, t| {
            c.tex_storage_2d_multisample(t.to_gl(), samples, internalformat, width, height, fixed)
        });
    }

    /// `glTextureStorage3DMultisample`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn texture_storage_3d_multisample(
        &mut self,
        texture: GLuint,
        samples: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
        depth: GLsizei,
        fixed: GLboolean,
    ) {
        let accepts = |t| t == TextureTarget::D2MultisampleArray;
        self.on_texture(texture, INVALID_OPERATION, accepts, |c, t| {
            let (f, w, h, d) = (internalformat, width, height, depth);
            c.tex_storage_3d_multisample(t.to_gl(), samples, f, w, h, d, fixed)
        });
    }

    /// `glTextureSubImage1D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn texture_sub_image_1d(
        &mut self,
        texture: GLuint,
        level: GLint,
        xoffset: GLint,
        width: GLsizei,
        format: GLenum,
        ty: GLenum,
        pixels: Pixels<'_>,
    ) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| sub_image_accepts(1, t),
            |c, t| c.tex_sub_image_1d(t.to_gl(), level, xoffset, width, format, ty, pixels),
        );
    }

    /// `glTextureSubImage2D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn texture_sub_image_2d(
        &mut self,
        texture: GLuint,
        level: GLint,
        xoffset: GLint,
        yoffset: GLint,
        width: GLsizei,
        height: GLsizei,
        format: GLenum,
        ty: GLenum,
        pixels: Pixels<'_>,
    ) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| sub_image_accepts(2, t),
            |c, t| {
                let (x, y, w, h) = (xoffset, yoffset, width, height);
                c.tex_sub_image_2d(t.to_gl(), level, x, y, w, h, format, ty, pixels)
            },
        );
    }

    /// `glTextureSubImage3D`: of a cube map, faces `zoffset..zoffset + depth`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn texture_sub_image_3d(
        &mut self,
        texture: GLuint,
        level: GLint,
        offset: [GLint; 3],
        size: [GLsizei; 3],
        format: GLenum,
        ty: GLenum,
        pixels: Pixels<'_>,
    ) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| t == TextureTarget::Cube || sub_image_accepts(3, t),
            |c, t| {
                let ([x, y, z], [w, h, d]) = (offset, size);
                if t != TextureTarget::Cube {
                    return c.tex_sub_image_3d(
                        t.to_gl(),
                        level,
                        x,
                        y,
                        z,
                        w,
                        h,
                        d,
                        format,
                        ty,
                        pixels,
                    );
                }
                let Some(faces) = c.cube_faces(level, z, d) else {
                    return;
                };
                // One face's image stride under the unpack state (0 for a bad format or
                // type, which the first face's body refuses).
                let stride = check_format_type(format, ty).map_or(0, |l| {
                    let px = pixel::pixel_size(l.format, l.ty);
                    let (w, h) = (w.max(0) as usize, h.max(0) as usize);
                    pixel::client_layout(&c.local.st.unpack, px, w, h, 1).image_stride
                });
                for (i, face) in faces.enumerate() {
                    let px = pixels_at(pixels, i * stride);
                    let target = face_target(face);
                    if c.raises(|c| c.tex_sub_image_2d(target, level, x, y, w, h, format, ty, px)) {
                        return;
                    }
                }
            },
        );
    }

    /// `glCompressedTextureSubImage1D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn compressed_texture_sub_image_1d(
        &mut self,
        texture: GLuint,
        level: GLint,
        xoffset: GLint,
        width: GLsizei,
        format: GLenum,
        image_size: GLsizei,
        data: Pixels<'_>,
    ) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| sub_image_accepts(1, t),
            |c, t| {
                let (x, w, n) = (xoffset, width, image_size);
                c.compressed_tex_sub_image_1d(t.to_gl(), level, x, w, format, n, data)
            },
        );
    }

    /// `glCompressedTextureSubImage2D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn compressed_texture_sub_image_2d(
        &mut self,
        texture: GLuint,
        level: GLint,
        xoffset: GLint,
        yoffset: GLint,
        width: GLsizei,
        height: GLsizei,
        format: GLenum,
        image_size: GLsizei,
        data: Pixels<'_>,
    ) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| sub_image_accepts(2, t),
            |c, t| {
                let (x, y, w, h, n) = (xoffset, yoffset, width, height, image_size);
                c.compressed_tex_sub_image_2d(t.to_gl(), level, x, y, w, h, format, n, data)
            },
        );
    }

    /// `glCompressedTextureSubImage3D`: of a cube map, faces `zoffset..zoffset + depth`, each
    /// `image_size / depth` bytes of blocks.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn compressed_texture_sub_image_3d(
        &mut self,
        texture: GLuint,
        level: GLint,
        offset: [GLint; 3],
        size: [GLsizei; 3],
        format: GLenum,
        image_size: GLsizei,
        data: Pixels<'_>,
    ) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| t == TextureTarget::Cube || sub_image_accepts(3, t),
            |c, t| {
                let ([x, y, z], [w, h, d], n) = (offset, size, image_size);
                if t != TextureTarget::Cube {
                    return c.compressed_tex_sub_image_3d(
                        t.to_gl(),
                        level,
                        x,
                        y,
                        z,
                        w,
                        h,
                        d,
                        format,
                        n,
                        data,
                    );
                }
                let Some(faces) = c.cube_faces(level, z, d) else {
                    return;
                };
                // The faces' blocks follow each other: each face takes an equal share.
                if d == 0 || n < 0 || n % d != 0 {
                    return c.error(INVALID_VALUE);
                }
                let per_face = n / d;
                for (i, face) in faces.enumerate() {
                    let px = pixels_at(data, i * per_face as usize);
                    let target = face_target(face);
                    let body = |c: &mut Self| {
                        c.compressed_tex_sub_image_2d(
                            target, level, x, y, w, h, format, per_face, px,
                        )
                    };
                    if c.raises(body) {
                        return;
                    }
                }
            },
        );
    }

    /// `glCopyTextureSubImage1D`.
    pub fn copy_texture_sub_image_1d(
        &mut self,
        texture: GLuint,
        level: GLint,
        xoffset: GLint,
        x: GLint,
        y: GLint,
        width: GLsizei,
    ) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| sub_image_accepts(1, t),
            |c, t| c.copy_tex_sub_image_1d(t.to_gl(), level, xoffset, x, y, width),
        );
    }

    /// `glCopyTextureSubImage2D`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn copy_texture_sub_image_2d(
        &mut self,
        texture: GLuint,
        level: GLint,
        xoffset: GLint,
        yoffset: GLint,
        x: GLint,
        y: GLint,
        width: GLsizei,
        height: GLsizei,
    ) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| sub_image_accepts(2, t),
            |c, t| {
                let (xo, yo, w, h) = (xoffset, yoffset, width, height);
                c.copy_tex_sub_image_2d(t.to_gl(), level, xo, yo, x, y, w, h)
            },
        );
    }

    /// `glCopyTextureSubImage3D`: of a cube map, `zoffset` names the face
    /// (`glCopyTexSubImage2D` of that face, as Mesa).
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn copy_texture_sub_image_3d(
        &mut self,
        texture: GLuint,
        level: GLint,
        xoffset: GLint,
        yoffset: GLint,
        zoffset: GLint,
        x: GLint,
        y: GLint,
        width: GLsizei,
        height: GLsizei,
    ) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| t == TextureTarget::Cube || sub_image_accepts(3, t),
            |c, t| {
                let (xo, yo, zo, w, h) = (xoffset, yoffset, zoffset, width, height);
                if t != TextureTarget::Cube {
                    return c.copy_tex_sub_image_3d(t.to_gl(), level, xo, yo, zo, x, y, w, h);
                }
                match u32::try_from(zo).ok().filter(|z| *z < 6) {
                    Some(face) => {
                        let face = TEXTURE_CUBE_MAP_POSITIVE_X + face;
                        c.copy_tex_sub_image_2d(face, level, xo, yo, x, y, w, h);
                    }
                    None => c.error(INVALID_VALUE),
                }
            },
        );
    }

    /// `glGetTextureImage`: of a cube map, its six faces one after another. Into client
    /// memory the image must fit in `buf_size` bytes (`INVALID_OPERATION`, as Mesa's bounds
    /// check).
    pub fn get_texture_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        format: GLenum,
        ty: GLenum,
        buf_size: GLsizei,
        pixels: PixelsMut<'_>,
    ) {
        self.on_texture(texture, INVALID_OPERATION, has_images_to_read, |c, t| {
            if t == TextureTarget::Cube {
                return c.get_cube_image(level, format, ty, buf_size, pixels);
            }
            let target = t.to_gl();
            let fits = matches!(pixels, PixelsMut::Offset(_))
                || c.get_tex_image_len(target, level, format, ty) <= buf_size.max(0) as usize;
            if fits {
                c.get_tex_image(target, level, format, ty, pixels);
            } else {
                c.error(INVALID_OPERATION);
            }
        });
    }

    /// `glGetCompressedTextureImage`: the bound form's body, with the blocks bounded by
    /// `buf_size` in client memory (`INVALID_OPERATION` after every other error, as Mesa);
    /// of a cube map, its six faces one after another.
    pub fn get_compressed_texture_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        buf_size: GLsizei,
        pixels: PixelsMut<'_>,
    ) {
        self.on_texture(texture, INVALID_OPERATION, has_images_to_read, |c, t| {
            let room = buf_size.max(0) as usize;
            if t != TextureTarget::Cube {
                return c.get_compressed_tex_image(t.to_gl(), level, bound(pixels, room));
            }
            if level < 0 || level >= max_levels(&c.local.limits, t) {
                return c.error(INVALID_VALUE);
            }
            if !c.cube_complete() {
                return c.error(INVALID_OPERATION);
            }
            let stride = c.get_compressed_tex_image_len(face_target(0), level);
            let mut pixels = pixels;
            for face in 0..6 {
                let at = face * stride;
                let px = match &mut pixels {
                    PixelsMut::Bytes(b) => {
                        let from = at.min(b.len());
                        bound(PixelsMut::Bytes(&mut b[from..]), room.saturating_sub(at))
                    }
                    PixelsMut::Offset(o) => PixelsMut::Offset(*o + at),
                };
                if c.raises(|c| c.get_compressed_tex_image(face_target(face), level, px)) {
                    return;
                }
            }
        });
    }

    /// `glGetTextureImage` of the named cube map: Mesa's checks (the level, the format and
    /// type, cube completeness, then the size of the six images against `buf_size`), then
    /// each face's `glGetTexImage` one image stride (under the pack state) past the last.
    fn get_cube_image(
        &mut self,
        level: GLint,
        format: GLenum,
        ty: GLenum,
        buf_size: GLsizei,
        mut pixels: PixelsMut<'_>,
    ) {
        if level < 0 || level >= max_levels(&self.local.limits, TextureTarget::Cube) {
            return self.error(INVALID_VALUE);
        }
        let layout = match check_format_type(format, ty) {
            Ok(l) => l,
            Err(err) => return self.error(err),
        };
        if !self.cube_complete() {
            return self.error(INVALID_OPERATION);
        }
        let face_len = self.get_tex_image_len(face_target(0), level, format, ty);
        let size = [TEXTURE_WIDTH, TEXTURE_HEIGHT].map(|p| {
            let mut v = [0];
            self.get_tex_level_parameteriv(face_target(0), level, p, &mut v);
            v[0].max(0) as usize
        });
        let px = pixel::pixel_size(layout.format, layout.ty);
        let stride =
            pixel::client_layout(&self.local.st.pack, px, size[0], size[1], 1).image_stride;
        if matches!(pixels, PixelsMut::Bytes(_))
            && face_len > 0
            && 5 * stride + face_len > buf_size.max(0) as usize
        {
            return self.error(INVALID_OPERATION);
        }
        for face in 0..6 {
            let at = face * stride;
            let px = match &mut pixels {
                PixelsMut::Bytes(b) => {
                    let from = at.min(b.len());
                    PixelsMut::Bytes(&mut b[from..])
                }
                PixelsMut::Offset(o) => PixelsMut::Offset(*o + at),
            };
            if self.raises(|c| c.get_tex_image(face_target(face), level, format, ty, px)) {
                return;
            }
        }
    }

    /// The faces `zoffset..zoffset + depth` of the named cube map, after Mesa's checks: the
    /// range within the six faces (`INVALID_VALUE`) and the texture cube complete at
    /// `level` (`INVALID_OPERATION`); `None` after an error.
    fn cube_faces(
        &mut self,
        level: GLint,
        zoffset: GLint,
        depth: GLsizei,
    ) -> Option<std::ops::Range<usize>> {
        if zoffset < 0 || depth < 0 || i64::from(zoffset) + i64::from(depth) > 6 {
            self.error(INVALID_VALUE);
            return None;
        }
        if level < 0 || level >= max_levels(&self.local.limits, TextureTarget::Cube) {
            self.error(INVALID_VALUE);
            return None;
        }
        if !self.cube_level_complete(level as usize) {
            self.error(INVALID_OPERATION);
            return None;
        }
        Some(zoffset as usize..(zoffset + depth) as usize)
    }

    /// Whether the six faces of the named cube map have images at `level` of one square
    /// size and one internal format (Mesa's `_mesa_cube_level_complete`).
    fn cube_level_complete(&self, level: usize) -> bool {
        let Some(e) = self.local.named_texture else {
            return false;
        };
        let sh = self.group.lock();
        let Some(t) = sh.world.get::<Texture>(e) else {
            return false;
        };
        let Some(first) = t.images[0].get(level) else {
            return false;
        };
        first.internal_format != 0
            && first.width > 0
            && first.width == first.height
            && t.images.iter().all(|face| {
                face.get(level).is_some_and(|i| {
                    i.internal_format == first.internal_format
                        && i.width == first.width
                        && i.height == first.height
                })
            })
    }

    /// Whether the named cube map is cube complete: every face's base level image square,
    /// of one size and one internal format (Mesa's `_mesa_cube_complete`).
    pub(super) fn cube_complete(&self) -> bool {
        let base = {
            let sh = self.group.lock();
            self.local
                .named_texture
                .and_then(|e| sh.world.get::<Texture>(e))
                .map_or(0, |t| t.base_level)
        };
        usize::try_from(base).is_ok_and(|b| self.cube_level_complete(b))
    }

    /// Runs `body` and says whether it raised an error (an error pending before stays the
    /// one `glGetError` returns).
    pub(super) fn raises(&mut self, body: impl FnOnce(&mut Self)) -> bool {
        let pending = std::mem::replace(&mut self.local.error, NO_ERROR);
        body(self);
        let raised = self.local.error != NO_ERROR;
        if pending != NO_ERROR {
            self.local.error = pending;
        }
        raised
    }

    /// `glGenerateTextureMipmap`.
    pub fn generate_texture_mipmap(&mut self, texture: GLuint) {
        self.on_texture(texture, INVALID_ENUM, any, |c, t| {
            c.generate_mipmap(t.to_gl())
        });
    }

    /// `glTextureBuffer`: the texture must be a buffer texture (`INVALID_OPERATION`).
    pub fn texture_buffer(&mut self, texture: GLuint, internalformat: GLenum, buffer: GLuint) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| t == TextureTarget::Buffer,
            |c, t| c.tex_buffer(t.to_gl(), internalformat, buffer),
        );
    }

    /// `glTextureBufferRange`: the texture must be a buffer texture (`INVALID_OPERATION`).
    pub fn texture_buffer_range(
        &mut self,
        texture: GLuint,
        internalformat: GLenum,
        buffer: GLuint,
        offset: GLintptr,
        size: GLsizeiptr,
    ) {
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| t == TextureTarget::Buffer,
            |c, t| c.tex_buffer_range(t.to_gl(), internalformat, buffer, offset, size),
        );
    }
}

/// The image target a level query of a texture of `t` reads: a cube map's first face.
fn level_target(t: TextureTarget) -> GLenum {
    match t {
        TextureTarget::Cube => TEXTURE_CUBE_MAP_POSITIVE_X,
        t => t.to_gl(),
    }
}

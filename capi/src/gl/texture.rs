//! Textures and samplers: names, images (client pixels or offsets into the bound pixel
//! unpack/pack buffer), parameters.
//!
//! An image pointer is an offset when a buffer is bound to `PIXEL_UNPACK_BUFFER`
//! (`PIXEL_PACK_BUFFER` for read-backs), else client memory whose extent the pixel store
//! state gives ([`Context::unpack_len`](tessera_engine::Context::unpack_len)).

use std::ffi::c_void;

use tessera_engine::Context;
use tessera_engine::gl::{TEXTURE_BORDER_COLOR, TEXTURE_SWIZZLE_RGBA};
use tessera_engine::pixel::{Pixels, PixelsMut};

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// Values a texture or sampler parameter has: four for the border colour and the swizzle
/// vector, else one.
pub(crate) fn param_values(pname: GLenum) -> usize {
    if matches!(pname, TEXTURE_BORDER_COLOR | TEXTURE_SWIZZLE_RGBA) {
        4
    } else {
        1
    }
}

/// The source of an upload of `len` client bytes at `data`.
///
/// # Safety
/// When no unpack buffer is bound, a non-null `data` holds `len` bytes that stay valid for
/// `'a`.
pub(crate) unsafe fn source<'a>(c: &Context, data: *const c_void, len: usize) -> Pixels<'a> {
    if c.unpack_buffer_bound() {
        Pixels::Offset(data as usize)
    } else if data.is_null() {
        Pixels::None
    } else {
        // SAFETY: forwarded contract.
        Pixels::Bytes(unsafe { ptr::slice(data.cast::<u8>(), len) })
    }
}

/// The destination of a read-back of `len` bytes to `data`.
///
/// # Safety
/// When no pack buffer is bound, `data` has room for `len` bytes, valid for `'a`.
pub(crate) unsafe fn destination<'a>(c: &Context, data: *mut c_void, len: usize) -> PixelsMut<'a> {
    if c.pack_buffer_bound() {
        PixelsMut::Offset(data as usize)
    } else {
        // SAFETY: forwarded contract.
        PixelsMut::Bytes(unsafe { ptr::slice_mut(data.cast::<u8>(), len) })
    }
}

/// `glGenTextures`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGenTextures(n: GLsizei, textures: *mut GLuint) {
    // SAFETY: GL contract: `textures` holds `n` names.
    let out = unsafe { ptr::slice_mut(textures, ptr::len(n)) };
    gl_call("glGenTextures", (), |c| c.gen_textures(n, out));
}

/// `glDeleteTextures`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDeleteTextures(n: GLsizei, textures: *const GLuint) {
    // SAFETY: GL contract: `textures` holds `n` names.
    let names = unsafe { ptr::slice(textures, ptr::len(n)) };
    gl_call("glDeleteTextures", (), |c| c.delete_textures(n, names));
}

/// `glTexImage1D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glTexImage1D(
    target: GLenum,
    level: GLint,
    internalformat: GLint,
    width: GLsizei,
    border: GLint,
    format: GLenum,
    ty: GLenum,
    pixels: *const c_void,
) {
    gl_call("glTexImage1D", (), |c| {
        let len = c.unpack_len(1, format, ty, [width, 1, 1]);
        // SAFETY: GL contract: client pixels cover what the unpack state reads.
        let px = unsafe { source(c, pixels, len) };
        c.tex_image_1d(target, level, internalformat, width, border, format, ty, px)
    });
}

/// `glTexImage2D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glTexImage2D(
    target: GLenum,
    level: GLint,
    internalformat: GLint,
    width: GLsizei,
    height: GLsizei,
    border: GLint,
    format: GLenum,
    ty: GLenum,
    pixels: *const c_void,
) {
    gl_call("glTexImage2D", (), |c| {
        let len = c.unpack_len(2, format, ty, [width, height, 1]);
        // SAFETY: GL contract: client pixels cover what the unpack state reads.
        let px = unsafe { source(c, pixels, len) };
        c.tex_image_2d(
            target,
            level,
            internalformat,
            width,
            height,
            border,
            format,
            ty,
            px,
        )
    });
}

/// `glTexImage3D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glTexImage3D(
    target: GLenum,
    level: GLint,
    internalformat: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    border: GLint,
    format: GLenum,
    ty: GLenum,
    pixels: *const c_void,
) {
    gl_call("glTexImage3D", (), |c| {
        let len = c.unpack_len(3, format, ty, [width, height, depth]);
        // SAFETY: GL contract: client pixels cover what the unpack state reads.
        let px = unsafe { source(c, pixels, len) };
        c.tex_image_3d(
            target,
            level,
            internalformat,
            width,
            height,
            depth,
            border,
            format,
            ty,
            px,
        )
    });
}

/// `glTexSubImage1D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glTexSubImage1D(
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    width: GLsizei,
    format: GLenum,
    ty: GLenum,
    pixels: *const c_void,
) {
    gl_call("glTexSubImage1D", (), |c| {
        let len = c.unpack_len(1, format, ty, [width, 1, 1]);
        // SAFETY: GL contract: client pixels cover what the unpack state reads.
        let px = unsafe { source(c, pixels, len) };
        c.tex_sub_image_1d(target, level, xoffset, width, format, ty, px)
    });
}

/// `glTexSubImage2D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glTexSubImage2D(
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    ty: GLenum,
    pixels: *const c_void,
) {
    gl_call("glTexSubImage2D", (), |c| {
        let len = c.unpack_len(2, format, ty, [width, height, 1]);
        // SAFETY: GL contract: client pixels cover what the unpack state reads.
        let px = unsafe { source(c, pixels, len) };
        c.tex_sub_image_2d(
            target, level, xoffset, yoffset, width, height, format, ty, px,
        )
    });
}

/// `glTexSubImage3D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glTexSubImage3D(
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
    pixels: *const c_void,
) {
    gl_call("glTexSubImage3D", (), |c| {
        let len = c.unpack_len(3, format, ty, [width, height, depth]);
        // SAFETY: GL contract: client pixels cover what the unpack state reads.
        let px = unsafe { source(c, pixels, len) };
        c.tex_sub_image_3d(
            target, level, xoffset, yoffset, zoffset, width, height, depth, format, ty, px,
        )
    });
}

/// `glCompressedTexImage1D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCompressedTexImage1D(
    target: GLenum,
    level: GLint,
    internalformat: GLenum,
    width: GLsizei,
    border: GLint,
    image_size: GLsizei,
    data: *const c_void,
) {
    gl_call("glCompressedTexImage1D", (), |c| {
        // SAFETY: GL contract: client data holds `image_size` bytes.
        let px = unsafe { source(c, data, ptr::len(image_size)) };
        c.compressed_tex_image_1d(target, level, internalformat, width, border, image_size, px)
    });
}

/// `glCompressedTexImage2D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCompressedTexImage2D(
    target: GLenum,
    level: GLint,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    border: GLint,
    image_size: GLsizei,
    data: *const c_void,
) {
    gl_call("glCompressedTexImage2D", (), |c| {
        // SAFETY: GL contract: client data holds `image_size` bytes.
        let px = unsafe { source(c, data, ptr::len(image_size)) };
        c.compressed_tex_image_2d(
            target,
            level,
            internalformat,
            width,
            height,
            border,
            image_size,
            px,
        )
    });
}

/// `glCompressedTexImage3D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCompressedTexImage3D(
    target: GLenum,
    level: GLint,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    border: GLint,
    image_size: GLsizei,
    data: *const c_void,
) {
    gl_call("glCompressedTexImage3D", (), |c| {
        // SAFETY: GL contract: client data holds `image_size` bytes.
        let px = unsafe { source(c, data, ptr::len(image_size)) };
        c.compressed_tex_image_3d(
            target,
            level,
            internalformat,
            width,
            height,
            depth,
            border,
            image_size,
            px,
        )
    });
}

/// `glCompressedTexSubImage1D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCompressedTexSubImage1D(
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    width: GLsizei,
    format: GLenum,
    image_size: GLsizei,
    data: *const c_void,
) {
    gl_call("glCompressedTexSubImage1D", (), |c| {
        // SAFETY: GL contract: client data holds `image_size` bytes.
        let px = unsafe { source(c, data, ptr::len(image_size)) };
        c.compressed_tex_sub_image_1d(target, level, xoffset, width, format, image_size, px)
    });
}

/// `glCompressedTexSubImage2D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCompressedTexSubImage2D(
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    image_size: GLsizei,
    data: *const c_void,
) {
    gl_call("glCompressedTexSubImage2D", (), |c| {
        // SAFETY: GL contract: client data holds `image_size` bytes.
        let px = unsafe { source(c, data, ptr::len(image_size)) };
        c.compressed_tex_sub_image_2d(
            target, level, xoffset, yoffset, width, height, format, image_size, px,
        )
    });
}

/// `glCompressedTexSubImage3D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCompressedTexSubImage3D(
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
    data: *const c_void,
) {
    gl_call("glCompressedTexSubImage3D", (), |c| {
        // SAFETY: GL contract: client data holds `image_size` bytes.
        let px = unsafe { source(c, data, ptr::len(image_size)) };
        c.compressed_tex_sub_image_3d(
            target, level, xoffset, yoffset, zoffset, width, height, depth, format, image_size, px,
        )
    });
}

/// `glGetTexImage`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetTexImage(
    target: GLenum,
    level: GLint,
    format: GLenum,
    ty: GLenum,
    pixels: *mut c_void,
) {
    gl_call("glGetTexImage", (), |c| {
        let len = c.get_tex_image_len(target, level, format, ty);
        // SAFETY: GL contract: client memory has room for the level under the pack state.
        let px = unsafe { destination(c, pixels, len) };
        c.get_tex_image(target, level, format, ty, px)
    });
}

/// `glGetCompressedTexImage`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetCompressedTexImage(target: GLenum, level: GLint, img: *mut c_void) {
    gl_call("glGetCompressedTexImage", (), |c| {
        let len = c.get_compressed_tex_image_len(target, level);
        // SAFETY: GL contract: client memory has room for TEXTURE_COMPRESSED_IMAGE_SIZE.
        let px = unsafe { destination(c, img, len) };
        c.get_compressed_tex_image(target, level, px)
    });
}

/// Defines entry points that take a parameter vector (`glTexParameteriv`,
/// `glSamplerParameterfv`, …): the vector holds the values `pname` has.
macro_rules! param_setters {
    ($($name:ident($obj:ident: $ot:ty, $t:ty) => $method:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name($obj: $ot, pname: GLenum, params: *const $t) {
            // SAFETY: GL contract: `params` holds the values of `pname`.
            let v = unsafe { ptr::slice(params, param_values(pname)) };
            gl_call(stringify!($name), (), |c| c.$method($obj, pname, v));
        }
    )*};
}

param_setters! {
    glTexParameteriv(target: GLenum, GLint) => tex_parameteriv;
    glTexParameterfv(target: GLenum, GLfloat) => tex_parameterfv;
    glTexParameterIiv(target: GLenum, GLint) => tex_parameter_iiv;
    glTexParameterIuiv(target: GLenum, GLuint) => tex_parameter_iuiv;
    // EXT_texture_integer's names of the two above.
    glTexParameterIivEXT(target: GLenum, GLint) => tex_parameter_iiv;
    glTexParameterIuivEXT(target: GLenum, GLuint) => tex_parameter_iuiv;
    glTextureParameteriv(texture: GLuint, GLint) => texture_parameteriv;
    glTextureParameterfv(texture: GLuint, GLfloat) => texture_parameterfv;
    glTextureParameterIiv(texture: GLuint, GLint) => texture_parameter_iiv;
    glTextureParameterIuiv(texture: GLuint, GLuint) => texture_parameter_iuiv;
    glSamplerParameteriv(sampler: GLuint, GLint) => sampler_parameteriv;
    glSamplerParameterfv(sampler: GLuint, GLfloat) => sampler_parameterfv;
    glSamplerParameterIiv(sampler: GLuint, GLint) => sampler_parameter_iiv;
    glSamplerParameterIuiv(sampler: GLuint, GLuint) => sampler_parameter_iuiv;
}

/// Defines parameter queries: the destination has room for the values `pname` has.
macro_rules! param_getters {
    ($($name:ident($obj:ident: $ot:ty, $t:ty) => $method:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name($obj: $ot, pname: GLenum, params: *mut $t) {
            // SAFETY: GL contract: `params` has room for the values of `pname`.
            let out = unsafe { ptr::slice_mut(params, param_values(pname)) };
            gl_call(stringify!($name), (), |c| c.$method($obj, pname, out));
        }
    )*};
}

param_getters! {
    glGetTexParameteriv(target: GLenum, GLint) => get_tex_parameteriv;
    glGetTexParameterfv(target: GLenum, GLfloat) => get_tex_parameterfv;
    glGetTexParameterIiv(target: GLenum, GLint) => get_tex_parameter_iiv;
    glGetTexParameterIuiv(target: GLenum, GLuint) => get_tex_parameter_iuiv;
    // EXT_texture_integer's names of the two above.
    glGetTexParameterIivEXT(target: GLenum, GLint) => get_tex_parameter_iiv;
    glGetTexParameterIuivEXT(target: GLenum, GLuint) => get_tex_parameter_iuiv;
    glGetTextureParameteriv(texture: GLuint, GLint) => get_texture_parameteriv;
    glGetTextureParameterfv(texture: GLuint, GLfloat) => get_texture_parameterfv;
    glGetTextureParameterIiv(texture: GLuint, GLint) => get_texture_parameter_iiv;
    glGetTextureParameterIuiv(texture: GLuint, GLuint) => get_texture_parameter_iuiv;
    glGetSamplerParameteriv(sampler: GLuint, GLint) => get_sampler_parameteriv;
    glGetSamplerParameterfv(sampler: GLuint, GLfloat) => get_sampler_parameterfv;
    glGetSamplerParameterIiv(sampler: GLuint, GLint) => get_sampler_parameter_iiv;
    glGetSamplerParameterIuiv(sampler: GLuint, GLuint) => get_sampler_parameter_iuiv;
}

/// `glGetTexLevelParameteriv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetTexLevelParameteriv(
    target: GLenum,
    level: GLint,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: GL contract: every level parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetTexLevelParameteriv", (), |c| {
        c.get_tex_level_parameteriv(target, level, pname, out)
    });
}

/// `glGetTexLevelParameterfv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetTexLevelParameterfv(
    target: GLenum,
    level: GLint,
    pname: GLenum,
    params: *mut GLfloat,
) {
    // SAFETY: GL contract: every level parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetTexLevelParameterfv", (), |c| {
        c.get_tex_level_parameterfv(target, level, pname, out)
    });
}

/// `glGenSamplers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGenSamplers(count: GLsizei, samplers: *mut GLuint) {
    // SAFETY: GL contract: `samplers` holds `count` names.
    let out = unsafe { ptr::slice_mut(samplers, ptr::len(count)) };
    gl_call("glGenSamplers", (), |c| c.gen_samplers(count, out));
}

/// `glDeleteSamplers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDeleteSamplers(count: GLsizei, samplers: *const GLuint) {
    // SAFETY: GL contract: `samplers` holds `count` names.
    let names = unsafe { ptr::slice(samplers, ptr::len(count)) };
    gl_call("glDeleteSamplers", (), |c| c.delete_samplers(count, names));
}

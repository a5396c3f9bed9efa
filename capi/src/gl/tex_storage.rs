//! Immutable texture storage (GL 4.2's `ARB_texture_storage` and GL 4.3's
//! `ARB_texture_storage_multisample`) and copies between images (GL 4.3's
//! `ARB_copy_image`): the entry points beyond 3.3 that the engine carries out
//! (`engine::texture::immutable`, `engine::texture::copy_image`).

use super::types::*;
use crate::current::gl_call;

/// `glTexStorage1D`.
#[unsafe(no_mangle)]
pub extern "C" fn glTexStorage1D(
    target: GLenum,
    levels: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
) {
    gl_call("glTexStorage1D", (), |c| {
        c.tex_storage_1d(target, levels, internalformat, width)
    });
}

/// `glTexStorage2D`.
#[unsafe(no_mangle)]
pub extern "C" fn glTexStorage2D(
    target: GLenum,
    levels: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
) {
    gl_call("glTexStorage2D", (), |c| {
        c.tex_storage_2d(target, levels, internalformat, width, height)
    });
}

/// `glTexStorage3D`.
#[unsafe(no_mangle)]
pub extern "C" fn glTexStorage3D(
    target: GLenum,
    levels: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
) {
    gl_call("glTexStorage3D", (), |c| {
        c.tex_storage_3d(target, levels, internalformat, width, height, depth)
    });
}

/// `glTexStorage2DMultisample`.
#[unsafe(no_mangle)]
pub extern "C" fn glTexStorage2DMultisample(
    target: GLenum,
    samples: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    fixedsamplelocations: GLboolean,
) {
    gl_call("glTexStorage2DMultisample", (), |c| {
        c.tex_storage_2d_multisample(
            target,
            samples,
            internalformat,
            width,
            height,
            fixedsamplelocations,
        )
    });
}

/// `glTexStorage3DMultisample`.
#[unsafe(no_mangle)]
pub extern "C" fn glTexStorage3DMultisample(
    target: GLenum,
    samples: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    fixedsamplelocations: GLboolean,
) {
    gl_call("glTexStorage3DMultisample", (), |c| {
        c.tex_storage_3d_multisample(
            target,
            samples,
            internalformat,
            width,
            height,
            depth,
            fixedsamplelocations,
        )
    });
}

/// `glCopyImageSubData`.
#[unsafe(no_mangle)]
pub extern "C" fn glCopyImageSubData(
    src_name: GLuint,
    src_target: GLenum,
    src_level: GLint,
    src_x: GLint,
    src_y: GLint,
    src_z: GLint,
    dst_name: GLuint,
    dst_target: GLenum,
    dst_level: GLint,
    dst_x: GLint,
    dst_y: GLint,
    dst_z: GLint,
    src_width: GLsizei,
    src_height: GLsizei,
    src_depth: GLsizei,
) {
    gl_call("glCopyImageSubData", (), |c| {
        c.copy_image_sub_data(
            src_name, src_target, src_level, src_x, src_y, src_z, dst_name, dst_target, dst_level,
            dst_x, dst_y, dst_z, src_width, src_height, src_depth,
        )
    });
}

/// `glTextureView`.
#[unsafe(no_mangle)]
pub extern "C" fn glTextureView(
    texture: GLuint,
    target: GLenum,
    origtexture: GLuint,
    internalformat: GLenum,
    minlevel: GLuint,
    numlevels: GLuint,
    minlayer: GLuint,
    numlayers: GLuint,
) {
    gl_call("glTextureView", (), |c| {
        c.texture_view(
            texture,
            target,
            origtexture,
            internalformat,
            minlevel,
            numlevels,
            minlayer,
            numlayers,
        )
    });
}

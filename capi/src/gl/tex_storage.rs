//! Immutable texture storage (GL 4.2's `ARB_texture_storage` and GL 4.3's
//! `ARB_texture_storage_multisample`): the entry points beyond 3.3 that the engine carries
//! out (`engine::texture::immutable`).

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

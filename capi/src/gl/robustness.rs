//! The bounds-checked getters of `KHR_robustness` (GL 4.5) and their `ARB_robustness`
//! names: `glReadnPixels`, `glGetnTexImage`, `glGetnCompressedTexImage` and
//! `glGetnUniform{f,i,ui,d}v`. Client memory is `bufSize` bytes, never more, whatever the
//! call would write; the engine raises `INVALID_OPERATION` where that is too small
//! (`tessera_engine::robustness`). A negative `bufSize` of a pixel getter bounds nothing, as
//! in Mesa: client memory is then what the plain form writes. With a pixel pack buffer bound
//! the pointer is an offset and `bufSize` plays no part, as in GL.

use std::ffi::c_void;

use tessera_engine::Context;
use tessera_engine::pixel::PixelsMut;

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `bufSize` bytes of client memory at `data` (`plain` bytes, what the plain form writes,
/// for a negative `bufSize`), or the pack buffer offset `data`.
///
/// # Safety
/// Without a pack buffer, a non-null `data` is valid for writes of `buf_size` bytes, or of
/// `plain` where `buf_size` is negative.
unsafe fn destination<'a>(
    c: &Context,
    data: *mut c_void,
    buf_size: GLsizei,
    plain: impl FnOnce() -> usize,
) -> PixelsMut<'a> {
    if c.pack_buffer_bound() {
        PixelsMut::Offset(data as usize)
    } else {
        let len = usize::try_from(buf_size).unwrap_or_else(|_| plain());
        // SAFETY: forwarded contract.
        PixelsMut::Bytes(unsafe { ptr::slice_mut(data.cast::<u8>(), len) })
    }
}

/// `glReadnPixels` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glReadnPixels(
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    ty: GLenum,
    buf_size: GLsizei,
    data: *mut c_void,
) {
    gl_call("glReadnPixels", (), |c| {
        let plain = || c.pack_len(2, format, ty, [width, height, 1]);
        // SAFETY: GL contract: `data` holds `buf_size` bytes (for a negative size, what
        // glReadPixels writes).
        let px = unsafe { destination(c, data, buf_size, plain) };
        c.readn_pixels(x, y, width, height, format, ty, buf_size, px);
        crate::events::drain(c);
    });
}

/// `glReadnPixelsARB` (ARB_robustness): [`glReadnPixels`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glReadnPixelsARB(
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    ty: GLenum,
    buf_size: GLsizei,
    data: *mut c_void,
) {
    // SAFETY: the same contract.
    unsafe { glReadnPixels(x, y, width, height, format, ty, buf_size, data) }
}

/// `glGetnTexImage` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetnTexImage(
    target: GLenum,
    level: GLint,
    format: GLenum,
    ty: GLenum,
    buf_size: GLsizei,
    pixels: *mut c_void,
) {
    gl_call("glGetnTexImage", (), |c| {
        let len = c.get_tex_image_len(target, level, format, ty);
        // SAFETY: GL contract: `pixels` holds `buf_size` bytes (for a negative size, what
        // glGetTexImage writes).
        let px = unsafe { destination(c, pixels, buf_size, || len) };
        c.getn_tex_image(target, level, format, ty, buf_size, px)
    });
}

/// `glGetnTexImageARB` (ARB_robustness): [`glGetnTexImage`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetnTexImageARB(
    target: GLenum,
    level: GLint,
    format: GLenum,
    ty: GLenum,
    buf_size: GLsizei,
    img: *mut c_void,
) {
    // SAFETY: the same contract.
    unsafe { glGetnTexImage(target, level, format, ty, buf_size, img) }
}

/// `glGetnCompressedTexImage` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetnCompressedTexImage(
    target: GLenum,
    lod: GLint,
    buf_size: GLsizei,
    pixels: *mut c_void,
) {
    gl_call("glGetnCompressedTexImage", (), |c| {
        let len = c.get_compressed_tex_image_len(target, lod);
        // SAFETY: GL contract: `pixels` holds `buf_size` bytes (for a negative size, what
        // glGetCompressedTexImage writes).
        let px = unsafe { destination(c, pixels, buf_size, || len) };
        c.getn_compressed_tex_image(target, lod, buf_size, px)
    });
}

/// `glGetnCompressedTexImageARB` (ARB_robustness): [`glGetnCompressedTexImage`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetnCompressedTexImageARB(
    target: GLenum,
    lod: GLint,
    buf_size: GLsizei,
    img: *mut c_void,
) {
    // SAFETY: the same contract.
    unsafe { glGetnCompressedTexImage(target, lod, buf_size, img) }
}

/// Defines `glGetnUniform*v` and its ARB name: `params` holds `bufSize` bytes of `$t`.
macro_rules! getn_uniform {
    ($($name:ident, $arb:ident($t:ty) => $method:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "` (GL 4.5).")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            program: GLuint,
            location: GLint,
            buf_size: GLsizei,
            params: *mut $t,
        ) {
            let n = ptr::len(buf_size) / size_of::<$t>();
            // SAFETY: GL contract: `params` holds `buf_size` bytes.
            let out = unsafe { ptr::slice_mut(params, n) };
            gl_call(stringify!($name), (), |c| c.$method(program, location, buf_size, out));
        }

        #[doc = concat!("`", stringify!($arb), "` (ARB_robustness): [`", stringify!($name), "`].")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $arb(
            program: GLuint,
            location: GLint,
            buf_size: GLsizei,
            params: *mut $t,
        ) {
            // SAFETY: the same contract.
            unsafe { $name(program, location, buf_size, params) }
        }
    )*};
}

getn_uniform! {
    glGetnUniformfv, glGetnUniformfvARB(GLfloat) => getn_uniformfv;
    glGetnUniformiv, glGetnUniformivARB(GLint) => getn_uniformiv;
    glGetnUniformuiv, glGetnUniformuivARB(GLuint) => getn_uniformuiv;
    glGetnUniformdv, glGetnUniformdvARB(GLdouble) => getn_uniformdv;
}

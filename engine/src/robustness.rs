//! `KHR_robustness` and `ARB_robustness` (GL 4.5): the bounds-checked getters and the
//! reset notification strategy.
//!
//! Each `glReadnPixels`/`glGetn*` getter is its plain form with a destination of `bufSize`
//! bytes (`glGetnCompressedTexImage` raises no error for a short one, as Mesa: see
//! [`Context::getn_compressed_tex_image`]). The plain forms already refuse a destination smaller than what they would write,
//! with `INVALID_OPERATION` after every other error, which is where Mesa checks `bufSize`
//! (`readpix.c` after clipping the rectangle, `texgetimage.c`'s `pbo_error_check`); a pixel
//! pack buffer's size is checked instead of `bufSize` when one is bound, as there. The
//! uniform getters check here, after the program and location (Mesa's `_mesa_get_uniform`):
//! the uniform's components times 4 bytes, 8 for `glGetnUniformdv`, and a negative
//! `bufSize` is too small. The pixel getters take a negative `bufSize` as no bound at all,
//! as Mesa does (it compares the layout's end with `bufSize` read as an unsigned size): the
//! call writes what its plain form writes.
//!
//! The strategy is the one the context was created with (`EGL_CONTEXT_OPENGL_RESET_
//! NOTIFICATION_STRATEGY`, `GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_ARB`). A context whose
//! session with the backend ended reports `UNKNOWN_CONTEXT_RESET` under either strategy
//! ([`Context::get_graphics_reset_status`]): a program that asked for no notification still
//! learns that every later call does nothing, which GL permits (the strategy only says the
//! implementation need not notify).
//!
//! Robust buffer access (`GL_ARB_robust_buffer_access_behavior`) is the backend's: its
//! buffer reads stay inside their buffers (`tessera_wire::Caps::robust_buffer_access`:
//! Vulkan's `robustBufferAccess`, a GLES driver's robust context), for every context on it.
//! A context asked for as a robust-access one (`crate::egl::ContextAttribs`) is granted only
//! on such a backend, and reports it: `CONTEXT_ROBUST_ACCESS` true and
//! `CONTEXT_FLAG_ROBUST_ACCESS_BIT` set.

use tessera_components::gl::*;

use crate::context::Context;
use crate::pixel::PixelsMut;

/// The destination of `bufSize` bytes within `pixels`; all of it for a negative size, and a
/// pack buffer offset as it is.
fn bounded(buf_size: GLsizei, pixels: PixelsMut<'_>) -> PixelsMut<'_> {
    match (usize::try_from(buf_size), pixels) {
        (Ok(n), PixelsMut::Bytes(b)) => {
            let n = n.min(b.len());
            PixelsMut::Bytes(&mut b[..n])
        }
        (_, other) => other,
    }
}

impl Context {
    /// Sets `RESET_NOTIFICATION_STRATEGY` as the context was created: `LOSE_CONTEXT_ON_RESET`
    /// or `NO_RESET_NOTIFICATION` (anything else is kept as the latter).
    pub fn set_reset_strategy(&mut self, strategy: GLenum) {
        self.local.reset_strategy = if strategy == LOSE_CONTEXT_ON_RESET {
            LOSE_CONTEXT_ON_RESET
        } else {
            NO_RESET_NOTIFICATION
        };
    }

    /// `glReadnPixels`: [`Context::read_pixels`] into at most `buf_size` bytes.
    #[expect(clippy::too_many_arguments, reason = "mirrors glReadnPixels")]
    pub fn readn_pixels(
        &mut self,
        x: GLint,
        y: GLint,
        width: GLsizei,
        height: GLsizei,
        format: GLenum,
        ty: GLenum,
        buf_size: GLsizei,
        pixels: PixelsMut<'_>,
    ) {
        self.read_pixels(x, y, width, height, format, ty, bounded(buf_size, pixels));
    }

    /// `glGetnTexImage`: [`Context::get_tex_image`] into at most `buf_size` bytes.
    pub fn getn_tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        ty: GLenum,
        buf_size: GLsizei,
        pixels: PixelsMut<'_>,
    ) {
        self.get_tex_image(target, level, format, ty, bounded(buf_size, pixels));
    }

    /// `glGetnCompressedTexImage`: [`Context::get_compressed_tex_image`] into at most
    /// `buf_size` bytes. Mesa checks this one against no size (its entry point passes
    /// `INT_MAX` on), so a destination too small for the blocks raises nothing here either:
    /// it gets the bytes that fit.
    pub fn getn_compressed_tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        buf_size: GLsizei,
        pixels: PixelsMut<'_>,
    ) {
        let needed = self.get_compressed_tex_image_len(target, level);
        match bounded(buf_size, pixels) {
            PixelsMut::Bytes(dst) if dst.len() < needed => {
                let mut whole = vec![0; needed];
                whole[..dst.len()].copy_from_slice(dst);
                self.get_compressed_tex_image(target, level, PixelsMut::Bytes(&mut whole));
                let n = dst.len();
                dst.copy_from_slice(&whole[..n]);
            }
            px => self.get_compressed_tex_image(target, level, px),
        }
    }

    /// Whether the uniform at `location` fits in `buf_size` bytes at `scalar` bytes per
    /// component; raises the getter's error when it does not, or when the program or
    /// location is invalid.
    fn uniform_fits(
        &mut self,
        program: GLuint,
        location: GLint,
        buf_size: GLsizei,
        scalar: usize,
    ) -> bool {
        match self.read_uniform(program, location) {
            Ok((info, _)) => {
                let bytes = info.components() * scalar;
                let fits = usize::try_from(buf_size).is_ok_and(|n| bytes <= n);
                if !fits {
                    self.error(INVALID_OPERATION);
                }
                fits
            }
            Err(err) => {
                self.error(err);
                false
            }
        }
    }

    /// `glGetnUniformfv` (`buf_size` in bytes).
    pub fn getn_uniformfv(
        &mut self,
        program: GLuint,
        location: GLint,
        buf_size: GLsizei,
        params: &mut [f32],
    ) {
        if self.uniform_fits(program, location, buf_size, 4) {
            self.get_uniformfv(program, location, params);
        }
    }

    /// `glGetnUniformiv`.
    pub fn getn_uniformiv(
        &mut self,
        program: GLuint,
        location: GLint,
        buf_size: GLsizei,
        params: &mut [i32],
    ) {
        if self.uniform_fits(program, location, buf_size, 4) {
            self.get_uniformiv(program, location, params);
        }
    }

    /// `glGetnUniformuiv`.
    pub fn getn_uniformuiv(
        &mut self,
        program: GLuint,
        location: GLint,
        buf_size: GLsizei,
        params: &mut [u32],
    ) {
        if self.uniform_fits(program, location, buf_size, 4) {
            self.get_uniformuiv(program, location, params);
        }
    }

    /// `glGetnUniformdv`.
    pub fn getn_uniformdv(
        &mut self,
        program: GLuint,
        location: GLint,
        buf_size: GLsizei,
        params: &mut [f64],
    ) {
        if self.uniform_fits(program, location, buf_size, 8) {
            self.get_uniformdv(program, location, params);
        }
    }
}

//! `glClearBuffer*`: clearing one draw buffer, or depth and stencil, of the draw framebuffer;
//! and the integer draw buffers `glClear` clears with `EXT_texture_integer`'s clear colour.
//!
//! The clear colour is one value of four 32-bit words, as in Mesa: `glClearColor` writes
//! floats, `glClearColorIiEXT`/`glClearColorIuiEXT` integers, and each buffer reads the words
//! in its own type (a float clear colour clears an integer buffer with its bit patterns, as
//! on the native driver). `glClear` sends the integer draw buffers a `ClearBuffer` of those
//! words each, the others one `Clear`.
//!
//! Like `clear`, these honour the colour and depth-stencil write masks, the scissor and
//! `RASTERIZER_DISCARD`; the backend applies the masks and scissor from the state the
//! validation systems bind before the record. The error order follows Mesa: an incomplete
//! draw framebuffer is reported before a bad buffer for `iv`/`uiv`/`fv`, after it for `fi`.

use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::Framebuffer;
use tessera_components::state::cap;
use tessera_wire::format::FormatClass;
use tessera_wire::record::{ClearValue, Record};
use tessera_wire::state::MAX_DRAW_BUFFERS;

use super::status;
use crate::context::{Context, GlResult, Local};
use crate::share::Shared;

/// The first four values of a slice, zero-filled (a short slice is the caller's bug, not a
/// reason to panic).
fn four<T: Copy + Default>(v: &[T]) -> [T; 4] {
    let mut out = [T::default(); 4];
    for (o, x) in out.iter_mut().zip(v) {
        *o = *x;
    }
    out
}

/// Checks the draw buffer index of a colour clear.
fn color_index(drawbuffer: GLint) -> GlResult<u8> {
    if (0..MAX_DRAW_BUFFERS as GLint).contains(&drawbuffer) {
        Ok(drawbuffer as u8)
    } else {
        Err(INVALID_VALUE)
    }
}

/// Checks the draw buffer index of a depth or stencil clear (always 0).
fn zero_index(drawbuffer: GLint) -> GlResult<u8> {
    if drawbuffer == 0 {
        Ok(0)
    } else {
        Err(INVALID_VALUE)
    }
}

impl Local {
    /// The class (`Int` or `Uint`) of each draw buffer of the draw framebuffer that is an
    /// integer image; `None` for the others (the default framebuffer has none).
    pub(crate) fn integer_draw_buffers(
        &self,
        sh: &Shared,
    ) -> [Option<FormatClass>; MAX_DRAW_BUFFERS] {
        let mut out = [None; MAX_DRAW_BUFFERS];
        if let Some(f) = self.draw_framebuffer_object(sh) {
            for (class, &buffer) in out.iter_mut().zip(&f.draw_buffers) {
                let point = buffer.wrapping_sub(COLOR_ATTACHMENT0) as usize;
                *class = integer_class(sh, f, point);
            }
        }
        out
    }

    /// `RGBA_INTEGER_MODE_EXT`: whether a colour attachment of the draw framebuffer is an
    /// integer image, drawn or not (Mesa's answer).
    pub(crate) fn integer_mode(&self, sh: &Shared) -> bool {
        self.draw_framebuffer_object(sh)
            .is_some_and(|f| (0..MAX_DRAW_BUFFERS).any(|p| integer_class(sh, f, p).is_some()))
    }

    fn draw_framebuffer_object<'a>(&self, sh: &'a Shared) -> Option<&'a Framebuffer> {
        self.st
            .draw_framebuffer
            .and_then(|fb| sh.world.get::<Framebuffer>(fb))
    }
}

/// The class of the image at colour attachment point `point` of `f` if it is an integer
/// one (`None` also for a point past the colour attachments).
fn integer_class(sh: &Shared, f: &Framebuffer, point: usize) -> Option<FormatClass> {
    f.attachments
        .get(point)
        .filter(|_| point < MAX_DRAW_BUFFERS)
        .and_then(|a| status::attached_image(&sh.world, a))
        .and_then(|image| image.format)
        .map(|format| format.info().class)
        .filter(|c| matches!(c, FormatClass::Int | FormatClass::Uint))
}

impl Context {
    /// `glClearColorIiEXT` (EXT_texture_integer): the clear colour as signed integers.
    pub fn clear_color_i(&mut self, r: GLint, g: GLint, b: GLint, a: GLint) {
        self.local.st.clear_color = [r, g, b, a].map(|v| f32::from_bits(v as u32));
    }

    /// `glClearColorIuiEXT` (EXT_texture_integer): the clear colour as unsigned integers.
    pub fn clear_color_ui(&mut self, r: GLuint, g: GLuint, b: GLuint, a: GLuint) {
        self.local.st.clear_color = [r, g, b, a].map(f32::from_bits);
    }

    /// `glClearBufferiv`: `COLOR` (signed integer buffers) or `STENCIL`.
    pub fn clear_bufferiv(&mut self, buffer: GLenum, drawbuffer: GLint, value: &[GLint]) {
        self.clear_buffer(true, || match buffer {
            COLOR => Ok((color_index(drawbuffer)?, ClearValue::Int(four(value)))),
            STENCIL => {
                let s = value.first().copied().unwrap_or(0);
                Ok((
                    zero_index(drawbuffer)?,
                    ClearValue::Stencil((s & 0xff) as u8),
                ))
            }
            _ => Err(INVALID_ENUM),
        });
    }

    /// `glClearBufferuiv`: `COLOR` only (unsigned integer buffers).
    pub fn clear_bufferuiv(&mut self, buffer: GLenum, drawbuffer: GLint, value: &[GLuint]) {
        self.clear_buffer(true, || match buffer {
            COLOR => Ok((color_index(drawbuffer)?, ClearValue::Uint(four(value)))),
            _ => Err(INVALID_ENUM),
        });
    }

    /// `glClearBufferfv`: `COLOR` (float and normalized buffers) or `DEPTH`.
    pub fn clear_bufferfv(&mut self, buffer: GLenum, drawbuffer: GLint, value: &[GLfloat]) {
        self.clear_buffer(true, || match buffer {
            COLOR => Ok((color_index(drawbuffer)?, ClearValue::Float(four(value)))),
            DEPTH => {
                // GL 3.3 §4.2.3: the depth value is clamped to [0, 1].
                let d = value.first().copied().unwrap_or(0.0).clamp(0.0, 1.0);
                Ok((zero_index(drawbuffer)?, ClearValue::Depth(d)))
            }
            _ => Err(INVALID_ENUM),
        });
    }

    /// `glClearBufferfi`: `DEPTH_STENCIL` only.
    pub fn clear_bufferfi(
        &mut self,
        buffer: GLenum,
        drawbuffer: GLint,
        depth: GLfloat,
        stencil: GLint,
    ) {
        self.clear_buffer(false, || match buffer {
            DEPTH_STENCIL => Ok((
                zero_index(drawbuffer)?,
                ClearValue::DepthStencil(depth.clamp(0.0, 1.0), (stencil & 0xff) as u8),
            )),
            _ => Err(INVALID_ENUM),
        });
    }

    /// Shared tail of the `glClearBuffer*` calls: `args` checks the buffer and index;
    /// `status_first` puts the completeness check before it.
    fn clear_buffer(
        &mut self,
        status_first: bool,
        args: impl FnOnce() -> GlResult<(u8, ClearValue)>,
    ) {
        puffin::profile_scope!("clear_buffer");
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let complete = self.local.draw_framebuffer_status(&sh) == FRAMEBUFFER_COMPLETE;
        if status_first && !complete {
            return self.error(INVALID_FRAMEBUFFER_OPERATION);
        }
        let (draw_buffer, value) = match args() {
            Ok(v) => v,
            Err(e) => return self.error(e),
        };
        if !complete {
            return self.error(INVALID_FRAMEBUFFER_OPERATION);
        }
        if self.local.st.caps.has(cap::RASTERIZER_DISCARD) {
            return;
        }
        self.local.validate(&mut sh, Dirty::CLEAR);
        sh.dev.push(Record::ClearBuffer { draw_buffer, value });
        sh.flush_if_full();
    }
}

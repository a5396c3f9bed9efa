//! `glClearBuffer*`: clearing one draw buffer, or depth and stencil, of the draw framebuffer.
//!
//! Like `clear`, these honour the colour and depth-stencil write masks, the scissor and
//! `RASTERIZER_DISCARD`; the backend applies the masks and scissor from the state the
//! validation systems bind before the record. The error order follows Mesa: an incomplete
//! draw framebuffer is reported before a bad buffer for `iv`/`uiv`/`fv`, after it for `fi`.

use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::state::cap;
use tessera_wire::record::{ClearValue, Record};
use tessera_wire::state::MAX_DRAW_BUFFERS;

use crate::context::{Context, GlResult};

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

impl Context {
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

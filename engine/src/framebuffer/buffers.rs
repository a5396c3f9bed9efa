//! Draw buffers and the read buffer: which colour images fragment outputs write and read
//! verbs read.
//!
//! The default framebuffer has one colour buffer, `BACK_LEFT` (`FRONT_LEFT` on a
//! front-buffered window: a single-buffered GLX window, `crate::present`, where the back
//! buffer names the front); the names that include it (`BACK`, and there `FRONT`, `LEFT`,
//! `FRONT_AND_BACK` where a call accepts them) select it, names of buffers it lacks are `INVALID_OPERATION`, as GL specifies for buffers "not
//! allocated to the GL context by the window system". A framebuffer object takes `NONE` and
//! `COLOR_ATTACHMENTi`.

use arrayvec::ArrayVec;
use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::Framebuffer;
use tessera_wire::state::MAX_DRAW_BUFFERS;

use crate::context::{Context, GlResult};

/// Whether an enum names a buffer (or buffers) of a default framebuffer.
fn is_default_buffer_name(buf: GLenum) -> bool {
    (FRONT_LEFT..=FRONT_AND_BACK).contains(&buf)
}

/// Whether a default-framebuffer buffer name includes its one colour buffer: `BACK_LEFT`, or
/// on a `front`-buffered window `FRONT_LEFT`, which `BACK` and `BACK_LEFT` name too (GL 4.6
/// §17.4.1: on a single-buffered default framebuffer the back buffer is the front, as on
/// Mesa).
fn includes_the_colour_buffer(buf: GLenum, front: bool) -> bool {
    match buf {
        BACK_LEFT | BACK | LEFT | FRONT_AND_BACK => true,
        FRONT_LEFT | FRONT => front,
        _ => false,
    }
}

/// Checks a colour buffer name for `DrawBuffer` or `ReadBuffer` against the bound
/// framebuffer (`object`: a framebuffer object, else the default framebuffer with or
/// without a colour image, `front`-buffered or not).
fn check_buffer(buf: GLenum, object: bool, has_color: bool, front: bool) -> GlResult {
    if buf == NONE {
        return Ok(());
    }
    if (COLOR_ATTACHMENT0..=COLOR_ATTACHMENT15).contains(&buf) {
        let i = (buf - COLOR_ATTACHMENT0) as usize;
        return if object && i < MAX_DRAW_BUFFERS {
            Ok(())
        } else {
            Err(INVALID_OPERATION)
        };
    }
    if !is_default_buffer_name(buf) {
        return Err(INVALID_ENUM);
    }
    if object || !(has_color && includes_the_colour_buffer(buf, front)) {
        return Err(INVALID_OPERATION);
    }
    Ok(())
}

impl Context {
    /// Whether the default framebuffer has a colour image.
    fn default_has_color(&self) -> bool {
        self.local.surface.is_some_and(|s| s.desc.color.is_some())
    }

    /// `glDrawBuffer`: sets draw buffer 0 of the draw framebuffer, the others to `NONE`.
    pub fn draw_buffer(&mut self, buf: GLenum) {
        self.draw_buffer_of(self.local.st.draw_framebuffer, buf);
    }

    /// `glDrawBuffer` of `fb` (`None`: the default framebuffer).
    pub(crate) fn draw_buffer_of(&mut self, fb: Option<Entity>, buf: GLenum) {
        let front = self.front_buffered();
        if let Err(e) = check_buffer(buf, fb.is_some(), self.default_has_color(), front) {
            return self.error(e);
        }
        self.set_draw_buffers(fb, &[buf]);
    }

    /// `glDrawBuffers`. The default framebuffer's draw buffers past 0 are always `NONE`
    /// (it has one colour buffer); naming that buffer there is `INVALID_OPERATION`.
    pub fn draw_buffers(&mut self, n: GLsizei, bufs: &[GLenum]) {
        self.draw_buffers_of(self.local.st.draw_framebuffer, n, bufs);
    }

    /// `glDrawBuffers` of `fb` (`None`: the default framebuffer).
    pub(crate) fn draw_buffers_of(&mut self, fb: Option<Entity>, n: GLsizei, bufs: &[GLenum]) {
        if n < 0 || n as usize > MAX_DRAW_BUFFERS {
            return self.error(INVALID_VALUE);
        }
        let n = (n as usize).min(bufs.len());
        let object = fb.is_some();
        let has_color = self.default_has_color();
        let front = self.front_buffered();
        // At most `MAX_DRAW_BUFFERS` (checked above): every push fits.
        let mut buffers = ArrayVec::<GLenum, MAX_DRAW_BUFFERS>::new();
        for (i, &buf) in bufs[..n].iter().enumerate() {
            let checked = match buf {
                // DrawBuffers takes single buffers only; Mesa lets BACK (and FRONT on a
                // single-buffered window) through for the default framebuffer, where it
                // names exactly one.
                LEFT | RIGHT | FRONT_AND_BACK => Err(INVALID_ENUM),
                FRONT if object || !front => Err(INVALID_ENUM),
                BACK if object => Err(INVALID_ENUM),
                _ if i > 0 && !object && buf != NONE && is_default_buffer_name(buf) => {
                    Err(INVALID_OPERATION)
                }
                _ => check_buffer(buf, object, has_color, front),
            };
            let duplicate = buf != NONE && buffers.contains(&buf);
            match checked {
                Err(e) => return self.error(e),
                Ok(()) if duplicate => return self.error(INVALID_OPERATION),
                Ok(()) => buffers.push(buf),
            }
        }
        self.set_draw_buffers(fb, &buffers);
    }

    /// Stores validated draw buffers (at most `MAX_DRAW_BUFFERS`) in `fb`: `DRAW_BUFFERi` is
    /// `list[i]`, `NONE` past its end.
    fn set_draw_buffers(&mut self, fb: Option<Entity>, list: &[GLenum]) {
        let mut buffers = [NONE; MAX_DRAW_BUFFERS];
        for (b, &l) in buffers.iter_mut().zip(list) {
            *b = l;
        }
        let changed = match fb {
            None => {
                let st = &mut self.local.st;
                let changed = st.default_draw_buffer != buffers[0];
                st.default_draw_buffer = buffers[0];
                changed
            }
            Some(e) => {
                let mut sh = self.group.lock();
                match sh.world.get_mut::<Framebuffer>(e) {
                    Some(mut f) if f.draw_buffers != buffers => {
                        f.draw_buffers = buffers;
                        true
                    }
                    _ => false,
                }
            }
        };
        if changed {
            // Completeness of an object depends on its draw buffers.
            self.local.dirty |= Dirty::DRAW_BUFFERS | Dirty::DRAW_CHECK;
        }
    }

    /// `glReadBuffer`: the colour buffer read verbs read from the read framebuffer.
    pub fn read_buffer(&mut self, src: GLenum) {
        self.read_buffer_of(self.local.st.read_framebuffer, src);
    }

    /// `glReadBuffer` of `fb` (`None`: the default framebuffer).
    pub(crate) fn read_buffer_of(&mut self, fb: Option<Entity>, src: GLenum) {
        let front = self.front_buffered();
        if let Err(e) = check_buffer(src, fb.is_some(), self.default_has_color(), front) {
            return self.error(e);
        }
        match fb {
            None => self.local.st.default_read_buffer = src,
            Some(e) => {
                let mut sh = self.group.lock();
                if let Some(mut f) = sh.world.get_mut::<Framebuffer>(e)
                    && f.read_buffer != src
                {
                    f.read_buffer = src;
                    if self.local.st.draw_framebuffer == Some(e) {
                        // Completeness of an object depends on its read buffer too.
                        self.local.dirty |= Dirty::DRAW_CHECK;
                    }
                }
            }
        }
    }
}

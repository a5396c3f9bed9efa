//! Framebuffer and renderbuffer objects.

use tessera_components::gl::*;

use crate::context::{Context, Local};
use crate::get::Value;
use crate::share::Shared;

impl Local {
    /// `check_framebuffer_status` of the bound draw framebuffer.
    pub(crate) fn draw_framebuffer_status(&self, _sh: &Shared) -> GLenum {
        match self.st.draw_framebuffer {
            None if self.surface.is_some() => FRAMEBUFFER_COMPLETE,
            None => FRAMEBUFFER_UNDEFINED,
            Some(_) => FRAMEBUFFER_COMPLETE,
        }
    }
}

impl Context {
    /// Framebuffer state for `glGet*` (`DRAW_BUFFERi`, `READ_BUFFER`, sample counts).
    pub(crate) fn framebuffer_state_value(&self, _sh: &Shared, _pname: GLenum) -> Option<Value> {
        None
    }
}

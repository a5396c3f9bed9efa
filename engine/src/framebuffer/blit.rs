//! `glBlitFramebuffer`: validation decides the errors, the backend does the copy.
//!
//! Error order follows Mesa where GL 3.3 leaves it open (incomplete framebuffers, then the
//! filter, then the mask); the conditions themselves are GL 3.3's §4.3.3, including its
//! stricter multisample rules (a multisampled draw framebuffer, or a multisampled read
//! framebuffer with different rectangles or formats, is `INVALID_OPERATION`; Mesa 22 has
//! relaxed both).

use arrayvec::ArrayVec;
use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::{DEPTH_ATTACHMENT_INDEX, Framebuffer, STENCIL_ATTACHMENT_INDEX};
use tessera_wire::format::{Format, FormatClass};
use tessera_wire::record::{ReadImage, Record, blit_mask};
use tessera_wire::state::{MAX_DRAW_BUFFERS, Region};

use super::status::attached_image;
use crate::context::{Context, GlResult, Local};
use crate::share::Shared;

/// The images a blit may read or write on one side.
struct Side {
    /// Colour formats: the read buffer's (read side), or every draw buffer's (draw side);
    /// at most one per draw buffer, so the collects below stay within the capacity.
    colors: ArrayVec<Format, MAX_DRAW_BUFFERS>,
    /// Depth image format.
    depth: Option<Format>,
    /// Stencil image format.
    stencil: Option<Format>,
    /// Samples.
    samples: i32,
}

impl Local {
    /// The images of a complete framebuffer a blit involves.
    fn blit_side(&self, sh: &Shared, fb: Option<Entity>, read: bool) -> Side {
        let samples = self.framebuffer_samples(sh, fb);
        let Some(e) = fb else {
            let desc = self.surface.map(|s| s.desc);
            let buffer = if read {
                self.st.default_read_buffer
            } else {
                self.st.default_draw_buffer
            };
            let ds = desc.and_then(|d| d.depth_stencil);
            return Side {
                colors: desc
                    .and_then(|d| d.color)
                    .filter(|_| buffer != NONE)
                    .into_iter()
                    .collect(),
                depth: ds.filter(|f| f.has_depth()),
                stencil: ds.filter(|f| f.has_stencil()),
                samples,
            };
        };
        let Some(f) = sh.world.get::<Framebuffer>(e) else {
            return Side {
                colors: ArrayVec::new(),
                depth: None,
                stencil: None,
                samples,
            };
        };
        let format = |i: usize| attached_image(&sh.world, &f.attachments[i]).and_then(|i| i.format);
        let index = |b: GLenum| {
            b.checked_sub(COLOR_ATTACHMENT0)
                .map(|i| i as usize)
                .filter(|i| *i < MAX_DRAW_BUFFERS)
        };
        let colors = if read {
            index(f.read_buffer).and_then(format).into_iter().collect()
        } else {
            f.draw_buffers
                .iter()
                .filter_map(|b| index(*b).and_then(format))
                .collect()
        };
        Side {
            colors,
            depth: format(DEPTH_ATTACHMENT_INDEX),
            stencil: format(STENCIL_ATTACHMENT_INDEX),
            samples,
        }
    }
}

/// A colour format with its sRGB encoding removed.
fn without_srgb(f: Format) -> Format {
    match f {
        Format::Srgb8Alpha8 => Format::Rgba8,
        Format::Srgb8 => Format::Rgb8,
        f => f,
    }
}

/// Whether two colour formats may be blitted between: integer to integer of the same
/// signedness, or non-integer to non-integer.
fn classes_match(a: Format, b: Format) -> bool {
    a.info().class == b.info().class
}

impl Context {
    /// `glBlitFramebuffer`.
    #[expect(clippy::too_many_arguments, reason = "mirrors glBlitFramebuffer")]
    pub fn blit_framebuffer(
        &mut self,
        src_x0: GLint,
        src_y0: GLint,
        src_x1: GLint,
        src_y1: GLint,
        dst_x0: GLint,
        dst_y0: GLint,
        dst_x1: GLint,
        dst_y1: GLint,
        mask: GLbitfield,
        filter: GLenum,
    ) {
        puffin::profile_scope!("blit_framebuffer");
        let src = Region {
            x0: src_x0,
            y0: src_y0,
            x1: src_x1,
            y1: src_y1,
        };
        let dst = Region {
            x0: dst_x0,
            y0: dst_y0,
            x1: dst_x1,
            y1: dst_y1,
        };
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let bits = match self.check_blit(&sh, &src, &dst, mask, filter) {
            Ok(bits) => bits,
            Err(e) => return self.error(e),
        };
        if bits == 0 {
            // Nothing both sides have: GL copies nothing, and that is no error.
            return;
        }
        let which = if bits & blit_mask::COLOR != 0 {
            ReadImage::Color(0)
        } else if bits & blit_mask::DEPTH != 0 && bits & blit_mask::STENCIL != 0 {
            ReadImage::DepthStencil
        } else if bits & blit_mask::DEPTH != 0 {
            ReadImage::Depth
        } else {
            ReadImage::Stencil
        };
        let source = match self.local.read_image(&mut sh, which) {
            Ok((source, _)) => source,
            Err(e) => return self.error(e),
        };
        self.local.validate(&mut sh, Dirty::BLIT);
        sh.dev.push(Record::Blit {
            src: source,
            regions: Box::new([src, dst]),
            mask: bits,
            linear: filter == LINEAR,
        });
        sh.flush_if_full();
    }

    /// The errors of a blit; on success, the buffers (`blit_mask` bits) both sides have.
    fn check_blit(
        &self,
        sh: &Shared,
        src: &Region,
        dst: &Region,
        mask: GLbitfield,
        filter: GLenum,
    ) -> GlResult<u8> {
        let l = &self.local;
        let (read_fb, draw_fb) = (l.st.read_framebuffer, l.st.draw_framebuffer);
        if l.framebuffer_status(sh, read_fb) != FRAMEBUFFER_COMPLETE
            || l.framebuffer_status(sh, draw_fb) != FRAMEBUFFER_COMPLETE
        {
            return Err(INVALID_FRAMEBUFFER_OPERATION);
        }
        if filter != NEAREST && filter != LINEAR {
            return Err(INVALID_ENUM);
        }
        if mask & !(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT | STENCIL_BUFFER_BIT) != 0 {
            return Err(INVALID_VALUE);
        }
        if filter == LINEAR && mask & (DEPTH_BUFFER_BIT | STENCIL_BUFFER_BIT) != 0 {
            return Err(INVALID_OPERATION);
        }
        let read = l.blit_side(sh, read_fb, true);
        let draw = l.blit_side(sh, draw_fb, false);
        let mut bits = 0;
        if mask & COLOR_BUFFER_BIT != 0
            && let Some(&rf) = read.colors.first()
        {
            if filter == LINEAR && matches!(rf.info().class, FormatClass::Int | FormatClass::Uint) {
                return Err(INVALID_OPERATION);
            }
            if draw.colors.iter().any(|df| !classes_match(rf, *df)) {
                return Err(INVALID_OPERATION);
            }
            // Formats that differ only in sRGB encoding resolve into each other (Mesa
            // compares them without it, and every default framebuffer is sRGB-capable).
            if read.samples > 0
                && draw
                    .colors
                    .iter()
                    .any(|df| without_srgb(*df) != without_srgb(rf))
            {
                return Err(INVALID_OPERATION);
            }
            if !draw.colors.is_empty() {
                bits |= blit_mask::COLOR;
            }
        }
        // "The source and destination depth and stencil formats do not match": compared
        // by precision and type, so a packed and a depth-only image of the same depth
        // format blit to each other.
        if mask & DEPTH_BUFFER_BIT != 0
            && let (Some(r), Some(d)) = (read.depth, draw.depth)
        {
            let key = |f: Format| {
                (
                    f.info().depth_bits,
                    matches!(f, Format::Depth32f | Format::Depth32fStencil8),
                )
            };
            if key(r) != key(d) {
                return Err(INVALID_OPERATION);
            }
            bits |= blit_mask::DEPTH;
        }
        if mask & STENCIL_BUFFER_BIT != 0
            && let (Some(r), Some(d)) = (read.stencil, draw.stencil)
        {
            if r.info().stencil_bits != d.info().stencil_bits {
                return Err(INVALID_OPERATION);
            }
            bits |= blit_mask::STENCIL;
        }
        if draw.samples > 0 {
            return Err(INVALID_OPERATION);
        }
        if read.samples > 0 && src != dst {
            return Err(INVALID_OPERATION);
        }
        Ok(bits)
    }
}

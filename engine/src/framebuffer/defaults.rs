//! Framebuffers without attachments (GL 4.3's `ARB_framebuffer_no_attachments`):
//! `glFramebufferParameteri` and `glGetFramebufferParameteriv`.
//!
//! A framebuffer object keeps a default width, height, layer count, sample count and
//! fixed-sample-locations flag. While nothing is attached it is complete when the width and
//! height are not zero (`status::object_status`), and draws rasterize at that size with the
//! samples an image asking for the default count would get (`Limits::allocated_samples`), writing no
//! image: only side effects (storage buffers, images, atomic counters, queries) remain. The
//! defaults travel in the framebuffer's `SetFramebufferState`.
//!
//! Errors and answers are Mesa's: the target first (`INVALID_ENUM`), then the pname
//! (`INVALID_ENUM`), the default framebuffer (`INVALID_OPERATION` for the `DEFAULT_*` pnames;
//! GL 4.5 lets `glGetFramebufferParameteriv` ask it for `SAMPLES`, `SAMPLE_BUFFERS` and
//! `STEREO`), then the value against `MAX_FRAMEBUFFER_WIDTH/HEIGHT/LAYERS/SAMPLES`
//! (`INVALID_VALUE`). The fixed-sample-locations flag is kept as Mesa keeps it, in a
//! `GLboolean`: the parameter's low byte.

use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::Framebuffer;

use crate::context::Context;
use crate::framebuffer::framebuffer_target;

/// Whether `pname` is one of the `FRAMEBUFFER_DEFAULT_*` parameters.
fn is_default_pname(pname: GLenum) -> bool {
    matches!(
        pname,
        FRAMEBUFFER_DEFAULT_WIDTH
            | FRAMEBUFFER_DEFAULT_HEIGHT
            | FRAMEBUFFER_DEFAULT_LAYERS
            | FRAMEBUFFER_DEFAULT_SAMPLES
            | FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS
    )
}

impl Context {
    /// `MAX_FRAMEBUFFER_WIDTH`, `_HEIGHT`, `_LAYERS` and `_SAMPLES`, as Mesa derives them:
    /// the viewport's largest size, the array layers, the samples.
    pub(crate) fn max_framebuffer(&self, pname: GLenum) -> Option<i32> {
        let l = &self.local.limits;
        match pname {
            MAX_FRAMEBUFFER_WIDTH | MAX_FRAMEBUFFER_HEIGHT => Some(l.max_viewport),
            MAX_FRAMEBUFFER_LAYERS => Some(l.max_array_layers),
            MAX_FRAMEBUFFER_SAMPLES => Some(l.max_samples),
            _ => None,
        }
    }

    /// `glFramebufferParameteri`.
    pub fn framebuffer_parameteri(&mut self, target: GLenum, pname: GLenum, param: GLint) {
        let Some((draw, _)) = framebuffer_target(target) else {
            return self.error(INVALID_ENUM);
        };
        let bound = if draw {
            self.local.st.draw_framebuffer
        } else {
            self.local.st.read_framebuffer
        };
        self.framebuffer_parameteri_of(bound, pname, param);
    }

    /// `glFramebufferParameteri`'s body on framebuffer `bound` (`None`: the default
    /// framebuffer), which `glNamedFramebufferParameteri` shares.
    pub(crate) fn framebuffer_parameteri_of(
        &mut self,
        bound: Option<Entity>,
        pname: GLenum,
        param: GLint,
    ) {
        if !is_default_pname(pname) {
            return self.error(INVALID_ENUM);
        }
        let Some(fb) = bound else {
            return self.error(INVALID_OPERATION);
        };
        let limit = match pname {
            FRAMEBUFFER_DEFAULT_WIDTH => self.max_framebuffer(MAX_FRAMEBUFFER_WIDTH),
            FRAMEBUFFER_DEFAULT_HEIGHT => self.max_framebuffer(MAX_FRAMEBUFFER_HEIGHT),
            FRAMEBUFFER_DEFAULT_LAYERS => self.max_framebuffer(MAX_FRAMEBUFFER_LAYERS),
            FRAMEBUFFER_DEFAULT_SAMPLES => self.max_framebuffer(MAX_FRAMEBUFFER_SAMPLES),
            _ => None,
        };
        if limit.is_some_and(|max| param < 0 || param > max) {
            return self.error(INVALID_VALUE);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let allocated = self.local.limits.allocated_samples(param) as u32;
        let Some(mut f) = sh.world.get_mut::<Framebuffer>(fb) else {
            return;
        };
        let mut d = f.defaults;
        match pname {
            FRAMEBUFFER_DEFAULT_WIDTH => d.width = param as u32,
            FRAMEBUFFER_DEFAULT_HEIGHT => d.height = param as u32,
            FRAMEBUFFER_DEFAULT_LAYERS => d.layers = param as u32,
            FRAMEBUFFER_DEFAULT_SAMPLES => {
                d.samples = param as u32;
                d.allocated_samples = allocated;
            }
            _ => d.fixed_sample_locations = param as u8,
        }
        if d != f.defaults {
            f.defaults = d;
            f.generation = f.generation.wrapping_add(1);
            if self.local.st.draw_framebuffer == Some(fb) {
                self.local.dirty |= Dirty::FRAMEBUFFER | Dirty::DRAW_CHECK;
            }
        }
    }

    /// `glGetFramebufferParameteriv`: nothing is written on an error.
    pub fn get_framebuffer_parameteriv(
        &mut self,
        target: GLenum,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        let Some((draw, _)) = framebuffer_target(target) else {
            return self.error(INVALID_ENUM);
        };
        let bound = if draw {
            self.local.st.draw_framebuffer
        } else {
            self.local.st.read_framebuffer
        };
        self.get_framebuffer_parameteriv_of(bound, pname, params);
    }

    /// `glGetFramebufferParameteriv`'s body on framebuffer `bound` (`None`: the default
    /// framebuffer), which `glGetNamedFramebufferParameteriv` shares.
    pub(crate) fn get_framebuffer_parameteriv_of(
        &mut self,
        bound: Option<Entity>,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        // GL 4.5 (with ARB_ES3_1_compatibility): the window-system framebuffer's state is
        // asked of any framebuffer, the default one included, and answered as glGet* answers
        // it with that framebuffer bound (table 23.74).
        let window_ok = matches!(
            pname,
            SAMPLES
                | SAMPLE_BUFFERS
                | STEREO
                | DOUBLEBUFFER
                | IMPLEMENTATION_COLOR_READ_FORMAT
                | IMPLEMENTATION_COLOR_READ_TYPE
        );
        if !is_default_pname(pname) && !window_ok {
            return self.error(INVALID_ENUM);
        }
        if bound.is_none() && !window_ok {
            return self.error(INVALID_OPERATION);
        }
        let group = self.group.clone();
        let sh = group.lock_for(self.local.id);
        let defaults = bound
            .and_then(|e| sh.world.get::<Framebuffer>(e))
            .map(|f| f.defaults)
            .unwrap_or_default();
        let samples = || {
            if self.local.framebuffer_status(&sh, bound) == FRAMEBUFFER_COMPLETE {
                self.local.framebuffer_samples(&sh, bound)
            } else {
                0
            }
        };
        let read_format = matches!(
            pname,
            IMPLEMENTATION_COLOR_READ_FORMAT | IMPLEMENTATION_COLOR_READ_TYPE
        )
        .then(|| self.local.read_color_format_of(&sh, bound));
        let v = match (pname, read_format) {
            // As glGetIntegerv: no colour read buffer (incomplete, NONE, no image) is
            // INVALID_OPERATION.
            (_, Some(None)) => {
                drop(sh);
                return self.error(INVALID_OPERATION);
            }
            (IMPLEMENTATION_COLOR_READ_FORMAT, Some(Some(f))) => {
                super::read::implementation_read_format(f).0 as i32
            }
            (IMPLEMENTATION_COLOR_READ_TYPE, Some(Some(f))) => {
                super::read::implementation_read_format(f).1 as i32
            }
            (pname, _) => match pname {
                FRAMEBUFFER_DEFAULT_WIDTH => defaults.width as i32,
                FRAMEBUFFER_DEFAULT_HEIGHT => defaults.height as i32,
                FRAMEBUFFER_DEFAULT_LAYERS => defaults.layers as i32,
                FRAMEBUFFER_DEFAULT_SAMPLES => defaults.samples as i32,
                FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS => {
                    i32::from(defaults.fixed_sample_locations)
                }
                SAMPLES => samples(),
                SAMPLE_BUFFERS => i32::from(samples() > 0),
                // Tessera's surfaces are single-buffered pbuffers or back buffers it presents;
                // STEREO and DOUBLEBUFFER read false as glGetBooleanv does.
                _ => 0,
            },
        };
        if let Some(out) = params.first_mut() {
            *out = v;
        }
    }
}

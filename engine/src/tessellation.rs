//! Tessellation (GL 4.0, `ARB_tessellation_shader`): `glPatchParameteri` and
//! `glPatchParameterfv`, and the draw-time rule that ties the `PATCHES` primitive to a
//! tessellation evaluation stage.
//!
//! `PATCH_VERTICES` reaches the backends as `SetPatchVertices` ([`Dirty::PATCH_VERTICES`]),
//! which each applies to its `Patches` draws. The default levels
//! (`PATCH_DEFAULT_OUTER_LEVEL`, `PATCH_DEFAULT_INNER_LEVEL`), which GL uses only for a
//! program without a control stage, are kept and answered here.

use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::LinkedProgram;

use crate::context::{Context, Local};

impl Context {
    /// `glPatchParameteri`: `INVALID_OPERATION` where the backend has no tessellation,
    /// `INVALID_ENUM` for any name but `PATCH_VERTICES`, `INVALID_VALUE` outside
    /// `1..=MAX_PATCH_VERTICES` (Mesa's order).
    pub fn patch_parameter_i(&mut self, pname: GLenum, value: GLint) {
        if !self.local.limits.has_tessellation() {
            return self.error(INVALID_OPERATION);
        }
        if pname != PATCH_VERTICES {
            return self.error(INVALID_ENUM);
        }
        if value <= 0 || value > self.local.limits.max_patch_vertices {
            return self.error(INVALID_VALUE);
        }
        if self.local.st.patch_vertices != value {
            self.local.st.patch_vertices = value;
            self.local.dirty |= Dirty::PATCH_VERTICES;
        }
    }

    /// `glPatchParameterfv`: the default outer (four values) or inner (two) levels.
    pub fn patch_parameter_fv(&mut self, pname: GLenum, values: &[GLfloat]) {
        if !self.local.limits.has_tessellation() {
            return self.error(INVALID_OPERATION);
        }
        let st = &mut self.local.st;
        match pname {
            PATCH_DEFAULT_OUTER_LEVEL => {
                for (d, s) in st.patch_default_outer_level.iter_mut().zip(values) {
                    *d = *s;
                }
            }
            PATCH_DEFAULT_INNER_LEVEL => {
                for (d, s) in st.patch_default_inner_level.iter_mut().zip(values) {
                    *d = *s;
                }
            }
            _ => self.error(INVALID_ENUM),
        }
    }
}

/// The primitive a program's tessellation evaluation stage hands on (`POINTS`, `LINES` or
/// `TRIANGLES`), if it has one.
pub(crate) fn tess_output(l: &LinkedProgram) -> Option<GLenum> {
    l.tess_gen.map(|t| match (t.point_mode, t.mode) {
        (true, _) => POINTS,
        (false, ISOLINES) => LINES,
        _ => TRIANGLES,
    })
}

impl Local {
    /// Whether a draw of `mode` suits the program's tessellation stages (GL 4.0 §2.14.2:
    /// with an evaluation stage only `PATCHES`, and without one never `PATCHES`); a
    /// geometry stage after the evaluation stage must take what it generates, else nothing
    /// draws (`draw_tess` is `Some(false)` then).
    #[inline]
    pub(crate) fn tess_mode_fits(&self, mode: GLenum) -> bool {
        match self.draw_tess {
            None => mode != PATCHES,
            Some(fits) => fits && mode == PATCHES,
        }
    }
}

//! Tessellation (GL 4.0, `ARB_tessellation_shader`): `glPatchParameteri` and
//! `glPatchParameterfv`, and the draw-time rule that ties the `PATCHES` primitive to a
//! tessellation evaluation stage.
//!
//! `PATCH_VERTICES` reaches the backends as `SetPatchVertices` ([`Dirty::PATCH_VERTICES`]),
//! which each applies to its `Patches` draws. The default levels
//! (`PATCH_DEFAULT_OUTER_LEVEL`, `PATCH_DEFAULT_INNER_LEVEL`) are GL's for a program with
//! an evaluation stage and no control stage, which neither Vulkan nor OpenGL ES can draw:
//! such a program gets no wire program at its link; its draws link it again with the
//! control stage GL leaves out ([`tessera_shader::default_control`]), for the patch size
//! and default levels of the draw, and that link's wire program becomes the program's
//! (until a draw with another size or other levels replaces it). Its uniforms and
//! reflection are the program's own, so nothing else knows.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::{LinkedProgram, Program};
use tessera_shader::{LinkRequest, Stage};

use crate::context::{Context, Local};
use crate::program::link::LinkInput;
use crate::share::Shared;

/// The patch size and the default levels' bits a program was linked again for.
type Key = (u8, [u32; 6]);

/// What a program without a control stage links again from: its last link's input, and
/// the key of its current wire program.
#[derive(Component, Clone, Debug)]
pub(crate) struct DefaultControl {
    input: LinkInput,
    separable: bool,
    key: Option<Key>,
}

/// Whether a link result has an evaluation stage and no control stage.
pub(crate) fn needs_default_control(p: &tessera_shader::Program) -> bool {
    p.stages.iter().any(|(s, _)| *s == Stage::TessEvaluation)
        && !p.stages.iter().any(|(s, _)| *s == Stage::TessControl)
}

/// Keeps a successful link's input on the program when it needs the default control stage
/// (and forgets an earlier one otherwise).
pub(crate) fn keep_link_input(
    sh: &mut Shared,
    e: Entity,
    linked: &tessera_shader::Program,
    input: Option<LinkInput>,
    separable: bool,
) {
    let mut entity = sh.world.entity_mut(e);
    match input.filter(|_| needs_default_control(linked)) {
        Some(input) => {
            entity.insert(DefaultControl {
                input,
                separable,
                key: None,
            });
        }
        None => {
            entity.remove::<DefaultControl>();
        }
    }
}

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
    /// Before a draw of a program without a control stage: makes its wire program the
    /// link with the default control stage for the current patch size and default levels
    /// (linking it when the last draw had others). A link that fails leaves the program
    /// without a wire program, and the draw draws nothing.
    pub(crate) fn default_control(&mut self, sh: &mut Shared) {
        let Some(e) = self.st.program else { return };
        let st = &self.st;
        let mut levels = [0; 6];
        for (d, v) in levels.iter_mut().zip(
            st.patch_default_outer_level
                .iter()
                .chain(&st.patch_default_inner_level),
        ) {
            *d = v.to_bits();
        }
        let key = (st.patch_vertices.clamp(1, 32) as u8, levels);
        let Some(dc) = sh.world.get::<DefaultControl>(e) else {
            return;
        };
        if dc.key == Some(key) {
            return;
        }
        let (input, separable) = (dc.input.clone(), dc.separable);
        let shaders: Vec<(Stage, &str)> = input
            .shaders
            .iter()
            .map(|(s, t)| (*s, t.as_str()))
            .collect();
        let req = LinkRequest {
            shaders: &shaders,
            attrib_bindings: &input.attrib_bindings,
            frag_data_bindings: &input.frag_data_bindings,
            limits: crate::program::front_end_limits(&self.limits),
            xfb_varyings: input.xfb.as_ref().map_or(&[], |x| &x.names[..]),
            xfb_separate: input
                .xfb
                .as_ref()
                .is_some_and(|x| x.mode == SEPARATE_ATTRIBS),
            separable,
        };
        let outer = st.patch_default_outer_level;
        let inner = st.patch_default_inner_level;
        let linked = tessera_shader::default_control::link(&req, u32::from(key.0), outer, inner);
        // The program's reflection stays its own: the added stage must not move a uniform.
        let same = |p: &tessera_shader::Program| {
            sh.world
                .get::<Program>(e)
                .and_then(|p| p.linked_state.as_ref())
                .is_some_and(|l| {
                    l.default_block.len() == p.default_block_size as usize
                        && l.uniforms.len() == p.uniforms.len()
                        && l.blocks.len() == p.blocks.len()
                        && l.sampler_units.len() == p.samplers.len()
                })
        };
        let handle = match linked {
            Ok(p) if same(&p) => Some(Context::create_wire_program(sh, &p)),
            _ => None,
        };
        let Some(mut p) = sh.world.get_mut::<Program>(e) else {
            return;
        };
        if let Some(old) = std::mem::replace(&mut p.handle, handle) {
            sh.dev
                .push(tessera_wire::record::Record::DestroyProgram { program: old });
            sh.dev.alloc.free(old);
        }
        if let Some(mut dc) = sh.world.get_mut::<DefaultControl>(e) {
            dc.key = Some(key);
        }
        self.touch(crate::program::PROGRAM_GROUPS);
        self.dirty_units = u64::MAX;
    }

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

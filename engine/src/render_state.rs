//! Render state setters: enables, blending, depth, stencil, rasterization, viewport, scissor,
//! clear values, hints.
//!
//! Every setter is O(1): validate, compare with the current value, store and set one dirty
//! bit. None hashes, allocates, takes a lock or emits a record.

use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::state::cap;
use tessera_systems::conv::{
    map_blend_equation, map_blend_factor, map_compare_func, map_cull_face, map_logic_op,
    map_polygon_mode, map_stencil_op,
};
use tessera_wire::state::{MAX_DRAW_BUFFERS, MAX_VIEWPORTS};

use crate::context::Context;

/// Stores `$value` in `$place` and marks `$dirty` if it differs.
macro_rules! set {
    ($self:ident, $place:expr, $value:expr, $dirty:expr) => {{
        let value = $value;
        if $place != value {
            $place = value;
            $self.local.dirty |= $dirty;
        }
    }};
}

/// What `glEnable(cap)` controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Capability {
    /// `BLEND` (per draw buffer).
    Blend,
    /// `SCISSOR_TEST` (per viewport index).
    Scissor,
    /// A bit of [`tessera_components::state::Capabilities`] and the group it dirties.
    Bit(u32, Dirty),
}

/// The capability a `glEnable` enum names in a core 3.3 context.
pub(crate) fn capability(v: GLenum) -> Option<Capability> {
    use Capability::Bit;
    Some(match v {
        BLEND => Capability::Blend,
        CLIP_DISTANCE0..=CLIP_DISTANCE7 => {
            Bit(cap::CLIP_DISTANCE0 + (v - CLIP_DISTANCE0), Dirty::RASTER)
        }
        COLOR_LOGIC_OP => Bit(cap::COLOR_LOGIC_OP, Dirty::BLEND),
        CULL_FACE => Bit(cap::CULL_FACE, Dirty::RASTER),
        DEPTH_CLAMP => Bit(cap::DEPTH_CLAMP, Dirty::RASTER),
        DEPTH_TEST => Bit(cap::DEPTH_TEST, Dirty::DEPTH_STENCIL),
        DITHER => Bit(cap::DITHER, Dirty::RASTER),
        FRAMEBUFFER_SRGB => Bit(cap::FRAMEBUFFER_SRGB, Dirty::RASTER),
        LINE_SMOOTH => Bit(cap::LINE_SMOOTH, Dirty::RASTER),
        MULTISAMPLE => Bit(cap::MULTISAMPLE, Dirty::RASTER),
        POLYGON_OFFSET_FILL => Bit(cap::POLYGON_OFFSET_FILL, Dirty::RASTER),
        POLYGON_OFFSET_LINE => Bit(cap::POLYGON_OFFSET_LINE, Dirty::RASTER),
        POLYGON_OFFSET_POINT => Bit(cap::POLYGON_OFFSET_POINT, Dirty::RASTER),
        POLYGON_SMOOTH => Bit(cap::POLYGON_SMOOTH, Dirty::RASTER),
        PRIMITIVE_RESTART => Bit(cap::PRIMITIVE_RESTART, Dirty::PRIMITIVE_RESTART),
        PRIMITIVE_RESTART_FIXED_INDEX => {
            Bit(cap::PRIMITIVE_RESTART_FIXED_INDEX, Dirty::PRIMITIVE_RESTART)
        }
        // The fixed point size depends on it too (see `point_size`).
        PROGRAM_POINT_SIZE => Bit(
            cap::PROGRAM_POINT_SIZE,
            Dirty::RASTER
                .union(Dirty::POINT_SIZE)
                .union(Dirty::UNIFORMS),
        ),
        RASTERIZER_DISCARD => Bit(cap::RASTERIZER_DISCARD, Dirty::RASTER),
        SAMPLE_ALPHA_TO_COVERAGE => Bit(cap::SAMPLE_ALPHA_TO_COVERAGE, Dirty::BLEND),
        SAMPLE_ALPHA_TO_ONE => Bit(cap::SAMPLE_ALPHA_TO_ONE, Dirty::BLEND),
        SAMPLE_COVERAGE => Bit(cap::SAMPLE_COVERAGE, Dirty::SAMPLE_MASK),
        SAMPLE_MASK => Bit(cap::SAMPLE_MASK, Dirty::SAMPLE_MASK),
        SAMPLE_SHADING => Bit(cap::SAMPLE_SHADING, Dirty::RASTER),
        SCISSOR_TEST => Capability::Scissor,
        STENCIL_TEST => Bit(cap::STENCIL_TEST, Dirty::DEPTH_STENCIL),
        TEXTURE_CUBE_MAP_SEAMLESS => Bit(cap::TEXTURE_CUBE_MAP_SEAMLESS, Dirty::empty()),
        _ => return None,
    })
}

/// `VIEWPORT_BOUNDS_RANGE`: where a viewport's corner may lie (native llvmpipe's, twice
/// GL's minimum for its 16384 `MAX_VIEWPORT_DIMS`).
pub(crate) const VIEWPORT_BOUNDS: [f32; 2] = [-32768.0, 32767.0];

/// Every viewport index's bit in a per-viewport mask.
const ALL_VIEWPORTS: u16 = u16::MAX >> (16 - MAX_VIEWPORTS);

fn gl_bool(b: GLboolean) -> bool {
    b != 0
}

impl Context {
    fn set_capability(&mut self, v: GLenum, on: bool) {
        match capability(v) {
            // `DEBUG_OUTPUT` and `DEBUG_OUTPUT_SYNCHRONOUS` (`crate::debug`).
            None if self.local.debug.set_capability(v, on) => {}
            None => self.error(INVALID_ENUM),
            Some(Capability::Blend) => {
                let mask = if on { 0xff } else { 0 };
                set!(self, self.local.st.blend_enable, mask, Dirty::BLEND);
            }
            Some(Capability::Scissor) => {
                let mask = if on { ALL_VIEWPORTS } else { 0 };
                set!(self, self.local.st.scissor_enable, mask, Dirty::RASTER);
            }
            Some(Capability::Bit(bit, dirty)) => {
                let caps = &mut self.local.st.caps.0;
                let new = if on {
                    *caps | 1 << bit
                } else {
                    *caps & !(1 << bit)
                };
                if *caps != new {
                    *caps = new;
                    self.local.dirty |= dirty;
                }
            }
        }
    }

    /// `glEnable`.
    pub fn enable(&mut self, cap: GLenum) {
        self.set_capability(cap, true);
    }

    /// `glDisable`.
    pub fn disable(&mut self, cap: GLenum) {
        self.set_capability(cap, false);
    }

    /// `glIsEnabled`.
    pub fn is_enabled(&mut self, cap: GLenum) -> GLboolean {
        match capability(cap) {
            // `DEBUG_OUTPUT` and `DEBUG_OUTPUT_SYNCHRONOUS` (`crate::debug`).
            None if self.local.debug.capability(cap).is_some() => {
                (self.local.debug.capability(cap) == Some(true)) as GLboolean
            }
            None => {
                self.error(INVALID_ENUM);
                FALSE as GLboolean
            }
            Some(Capability::Blend) => (self.local.st.blend_enable & 1) as GLboolean,
            Some(Capability::Scissor) => (self.local.st.scissor_enable & 1) as GLboolean,
            Some(Capability::Bit(bit, _)) => self.local.st.caps.has(bit) as GLboolean,
        }
    }

    fn set_capability_indexed(&mut self, v: GLenum, index: GLuint, on: bool) {
        match capability(v) {
            Some(Capability::Blend) => {
                if index as usize >= MAX_DRAW_BUFFERS {
                    return self.error(INVALID_VALUE);
                }
                let old = self.local.st.blend_enable;
                let new = if on {
                    old | 1 << index
                } else {
                    old & !(1 << index)
                };
                set!(self, self.local.st.blend_enable, new, Dirty::BLEND);
            }
            Some(Capability::Scissor) => {
                if index as usize >= MAX_VIEWPORTS {
                    return self.error(INVALID_VALUE);
                }
                let old = self.local.st.scissor_enable;
                let new = if on {
                    old | 1 << index
                } else {
                    old & !(1 << index)
                };
                set!(self, self.local.st.scissor_enable, new, Dirty::RASTER);
            }
            // BLEND (GL 3.0) and SCISSOR_TEST (GL 4.1) are the only indexed capabilities.
            _ => self.error(INVALID_ENUM),
        }
    }

    /// `glEnablei`.
    pub fn enablei(&mut self, cap: GLenum, index: GLuint) {
        self.set_capability_indexed(cap, index, true);
    }

    /// `glDisablei`.
    pub fn disablei(&mut self, cap: GLenum, index: GLuint) {
        self.set_capability_indexed(cap, index, false);
    }

    /// `glIsEnabledi`.
    pub fn is_enabledi(&mut self, cap: GLenum, index: GLuint) -> GLboolean {
        match capability(cap) {
            Some(Capability::Blend) => {
                if index as usize >= MAX_DRAW_BUFFERS {
                    self.error(INVALID_VALUE);
                    return FALSE as GLboolean;
                }
                ((self.local.st.blend_enable >> index) & 1) as GLboolean
            }
            Some(Capability::Scissor) => {
                if index as usize >= MAX_VIEWPORTS {
                    self.error(INVALID_VALUE);
                    return FALSE as GLboolean;
                }
                ((self.local.st.scissor_enable >> index) & 1) as GLboolean
            }
            _ => {
                self.error(INVALID_ENUM);
                FALSE as GLboolean
            }
        }
    }

    /// `glBlendFunc`.
    pub fn blend_func(&mut self, sfactor: GLenum, dfactor: GLenum) {
        self.blend_func_separate(sfactor, dfactor, sfactor, dfactor);
    }

    /// `glBlendFuncSeparate`: sets every draw buffer's factors.
    pub fn blend_func_separate(
        &mut self,
        src_rgb: GLenum,
        dst_rgb: GLenum,
        src_alpha: GLenum,
        dst_alpha: GLenum,
    ) {
        if !blend_factors_valid([src_rgb, dst_rgb, src_alpha, dst_alpha]) {
            return self.error(INVALID_ENUM);
        }
        for buf in 0..MAX_DRAW_BUFFERS {
            self.store_blend_func(buf, [src_rgb, dst_rgb, src_alpha, dst_alpha]);
        }
    }

    /// `glBlendFunci` (`ARB_draw_buffers_blend`).
    pub fn blend_funci(&mut self, buf: GLuint, sfactor: GLenum, dfactor: GLenum) {
        self.blend_func_separatei(buf, sfactor, dfactor, sfactor, dfactor);
    }

    /// `glBlendFuncSeparatei` (`ARB_draw_buffers_blend`): the draw buffer is checked before the
    /// factors, as in Mesa.
    pub fn blend_func_separatei(
        &mut self,
        buf: GLuint,
        src_rgb: GLenum,
        dst_rgb: GLenum,
        src_alpha: GLenum,
        dst_alpha: GLenum,
    ) {
        if buf as usize >= MAX_DRAW_BUFFERS {
            return self.error(INVALID_VALUE);
        }
        if !blend_factors_valid([src_rgb, dst_rgb, src_alpha, dst_alpha]) {
            return self.error(INVALID_ENUM);
        }
        self.store_blend_func(buf as usize, [src_rgb, dst_rgb, src_alpha, dst_alpha]);
    }

    fn store_blend_func(&mut self, buf: usize, new: [GLenum; 4]) {
        let st = &mut self.local.st;
        let old = [
            st.blend_src_rgb[buf],
            st.blend_dst_rgb[buf],
            st.blend_src_alpha[buf],
            st.blend_dst_alpha[buf],
        ];
        if old != new {
            [
                st.blend_src_rgb[buf],
                st.blend_dst_rgb[buf],
                st.blend_src_alpha[buf],
                st.blend_dst_alpha[buf],
            ] = new;
            self.local.dirty |= Dirty::BLEND;
        }
    }

    /// `glBlendEquation`.
    pub fn blend_equation(&mut self, mode: GLenum) {
        self.blend_equation_separate(mode, mode);
    }

    /// `glBlendEquationSeparate`: sets every draw buffer's equations.
    pub fn blend_equation_separate(&mut self, mode_rgb: GLenum, mode_alpha: GLenum) {
        if map_blend_equation(mode_rgb).is_none() || map_blend_equation(mode_alpha).is_none() {
            return self.error(INVALID_ENUM);
        }
        for buf in 0..MAX_DRAW_BUFFERS {
            self.store_blend_equation(buf, mode_rgb, mode_alpha);
        }
    }

    /// `glBlendEquationi` (`ARB_draw_buffers_blend`).
    pub fn blend_equationi(&mut self, buf: GLuint, mode: GLenum) {
        self.blend_equation_separatei(buf, mode, mode);
    }

    /// `glBlendEquationSeparatei` (`ARB_draw_buffers_blend`): the draw buffer is checked
    /// before the equations, as in Mesa.
    pub fn blend_equation_separatei(&mut self, buf: GLuint, mode_rgb: GLenum, mode_alpha: GLenum) {
        if buf as usize >= MAX_DRAW_BUFFERS {
            return self.error(INVALID_VALUE);
        }
        if map_blend_equation(mode_rgb).is_none() || map_blend_equation(mode_alpha).is_none() {
            return self.error(INVALID_ENUM);
        }
        self.store_blend_equation(buf as usize, mode_rgb, mode_alpha);
    }

    fn store_blend_equation(&mut self, buf: usize, mode_rgb: GLenum, mode_alpha: GLenum) {
        set!(
            self,
            self.local.st.blend_equation_rgb[buf],
            mode_rgb,
            Dirty::BLEND
        );
        set!(
            self,
            self.local.st.blend_equation_alpha[buf],
            mode_alpha,
            Dirty::BLEND
        );
    }

    /// `glBlendColor`.
    pub fn blend_color(&mut self, r: GLfloat, g: GLfloat, b: GLfloat, a: GLfloat) {
        set!(
            self,
            self.local.st.blend_color,
            [r, g, b, a],
            Dirty::BLEND_COLOR
        );
    }

    /// `glColorMask`.
    pub fn color_mask(&mut self, r: GLboolean, g: GLboolean, b: GLboolean, a: GLboolean) {
        let m = u8::from(gl_bool(r))
            | u8::from(gl_bool(g)) << 1
            | u8::from(gl_bool(b)) << 2
            | u8::from(gl_bool(a)) << 3;
        set!(
            self,
            self.local.st.color_mask,
            [m; MAX_DRAW_BUFFERS],
            Dirty::BLEND
        );
    }

    /// `glColorMaski`.
    pub fn color_maski(
        &mut self,
        index: GLuint,
        r: GLboolean,
        g: GLboolean,
        b: GLboolean,
        a: GLboolean,
    ) {
        if index as usize >= MAX_DRAW_BUFFERS {
            return self.error(INVALID_VALUE);
        }
        let m = u8::from(gl_bool(r))
            | u8::from(gl_bool(g)) << 1
            | u8::from(gl_bool(b)) << 2
            | u8::from(gl_bool(a)) << 3;
        set!(
            self,
            self.local.st.color_mask[index as usize],
            m,
            Dirty::BLEND
        );
    }

    /// `glLogicOp`.
    pub fn logic_op(&mut self, opcode: GLenum) {
        if map_logic_op(opcode).is_none() {
            return self.error(INVALID_ENUM);
        }
        set!(self, self.local.st.logic_op, opcode, Dirty::BLEND);
    }

    /// `glDepthFunc`.
    pub fn depth_func(&mut self, func: GLenum) {
        if map_compare_func(func).is_none() {
            return self.error(INVALID_ENUM);
        }
        set!(self, self.local.st.depth_func, func, Dirty::DEPTH_STENCIL);
    }

    /// `glDepthMask`.
    pub fn depth_mask(&mut self, flag: GLboolean) {
        set!(
            self,
            self.local.st.depth_mask,
            gl_bool(flag),
            Dirty::DEPTH_STENCIL
        );
    }

    /// `glDepthRange`: every viewport's depth range (values are clamped to [0, 1]).
    pub fn depth_range(&mut self, near: GLdouble, far: GLdouble) {
        for i in 0..MAX_VIEWPORTS {
            self.store_depth_range(i, near, far);
        }
    }

    /// `glDepthRangeArrayv` (GL 4.1): `count` pairs from viewport `first` on. As in Mesa,
    /// `first + count` is summed as unsigned, so a negative count may pass and set nothing.
    pub fn depth_range_arrayv(&mut self, first: GLuint, count: GLsizei, v: &[GLdouble]) {
        let Some(n) = self.viewport_array_count(first, count) else {
            return;
        };
        for (i, pair) in v.chunks_exact(2).take(n).enumerate() {
            self.store_depth_range(first as usize + i, pair[0], pair[1]);
        }
    }

    /// `glDepthRangeIndexed` (GL 4.1).
    pub fn depth_range_indexed(&mut self, index: GLuint, near: GLdouble, far: GLdouble) {
        if index as usize >= MAX_VIEWPORTS {
            return self.error(INVALID_VALUE);
        }
        self.store_depth_range(index as usize, near, far);
    }

    /// Stores viewport `i`'s depth range, clamped to [0, 1]. Shaders read viewport 0's as
    /// `gl_DepthRange` from the default block, so the block goes again then.
    fn store_depth_range(&mut self, i: usize, near: GLdouble, far: GLdouble) {
        let dirty = if i == 0 {
            Dirty::VIEWPORT.union(Dirty::UNIFORMS)
        } else {
            Dirty::VIEWPORT
        };
        set!(
            self,
            self.local.st.depth_ranges[i],
            [near.clamp(0.0, 1.0), far.clamp(0.0, 1.0)],
            dirty
        );
    }

    /// How many entries a `gl*Arrayv(first, count)` of viewport state sets, or `None` after
    /// `INVALID_VALUE` when `first + count` (summed as unsigned, as Mesa does) passes
    /// `MAX_VIEWPORTS`.
    fn viewport_array_count(&mut self, first: GLuint, count: GLsizei) -> Option<usize> {
        if first.wrapping_add(count as GLuint) as usize > MAX_VIEWPORTS {
            self.error(INVALID_VALUE);
            return None;
        }
        Some(count.max(0) as usize)
    }

    /// `glDepthRangef`.
    pub fn depth_rangef(&mut self, near: GLfloat, far: GLfloat) {
        self.depth_range(f64::from(near), f64::from(far));
    }

    fn stencil_faces(&mut self, face: GLenum) -> Option<std::ops::Range<usize>> {
        match face {
            FRONT => Some(0..1),
            BACK => Some(1..2),
            FRONT_AND_BACK => Some(0..2),
            _ => {
                self.error(INVALID_ENUM);
                None
            }
        }
    }

    /// `glStencilFunc`.
    pub fn stencil_func(&mut self, func: GLenum, reference: GLint, mask: GLuint) {
        self.stencil_func_separate(FRONT_AND_BACK, func, reference, mask);
    }

    /// `glStencilFuncSeparate`.
    pub fn stencil_func_separate(
        &mut self,
        face: GLenum,
        func: GLenum,
        reference: GLint,
        mask: GLuint,
    ) {
        let Some(faces) = self.stencil_faces(face) else {
            return;
        };
        if map_compare_func(func).is_none() {
            return self.error(INVALID_ENUM);
        }
        for i in faces {
            let f = &mut self.local.st.stencil[i];
            if (f.func, f.value_mask) != (func, mask) {
                (f.func, f.value_mask) = (func, mask);
                self.local.dirty |= Dirty::DEPTH_STENCIL;
            }
            set!(
                self,
                self.local.st.stencil[i].reference,
                reference,
                Dirty::STENCIL_REF
            );
        }
    }

    /// `glStencilOp`.
    pub fn stencil_op(&mut self, sfail: GLenum, dpfail: GLenum, dppass: GLenum) {
        self.stencil_op_separate(FRONT_AND_BACK, sfail, dpfail, dppass);
    }

    /// `glStencilOpSeparate`.
    pub fn stencil_op_separate(
        &mut self,
        face: GLenum,
        sfail: GLenum,
        dpfail: GLenum,
        dppass: GLenum,
    ) {
        let Some(faces) = self.stencil_faces(face) else {
            return;
        };
        if [sfail, dpfail, dppass]
            .iter()
            .any(|op| map_stencil_op(*op).is_none())
        {
            return self.error(INVALID_ENUM);
        }
        for i in faces {
            let f = &mut self.local.st.stencil[i];
            if (f.fail, f.depth_fail, f.depth_pass) != (sfail, dpfail, dppass) {
                (f.fail, f.depth_fail, f.depth_pass) = (sfail, dpfail, dppass);
                self.local.dirty |= Dirty::DEPTH_STENCIL;
            }
        }
    }

    /// `glStencilMask`.
    pub fn stencil_mask(&mut self, mask: GLuint) {
        self.stencil_mask_separate(FRONT_AND_BACK, mask);
    }

    /// `glStencilMaskSeparate`.
    pub fn stencil_mask_separate(&mut self, face: GLenum, mask: GLuint) {
        let Some(faces) = self.stencil_faces(face) else {
            return;
        };
        for i in faces {
            set!(
                self,
                self.local.st.stencil[i].write_mask,
                mask,
                Dirty::DEPTH_STENCIL
            );
        }
    }

    /// `glCullFace`.
    pub fn cull_face(&mut self, mode: GLenum) {
        if map_cull_face(mode).is_none() {
            return self.error(INVALID_ENUM);
        }
        set!(self, self.local.st.cull_face, mode, Dirty::RASTER);
    }

    /// `glFrontFace`.
    pub fn front_face(&mut self, mode: GLenum) {
        if mode != CW && mode != CCW {
            return self.error(INVALID_ENUM);
        }
        set!(self, self.local.st.front_face, mode, Dirty::RASTER);
    }

    /// `glPolygonMode` (core profile: `face` must be `FRONT_AND_BACK`).
    pub fn polygon_mode(&mut self, face: GLenum, mode: GLenum) {
        if face != FRONT_AND_BACK || map_polygon_mode(mode).is_none() {
            return self.error(INVALID_ENUM);
        }
        set!(self, self.local.st.polygon_mode, mode, Dirty::RASTER);
    }

    /// `glPolygonOffset`: also clears the clamp (GL 4.6 §14.6.5: as
    /// `glPolygonOffsetClamp` with a clamp of 0).
    pub fn polygon_offset(&mut self, factor: GLfloat, units: GLfloat) {
        self.set_polygon_offset(factor, units, 0.0);
    }

    /// `glPolygonOffsetClamp` (`GL_ARB_polygon_offset_clamp`, GL 4.6): `INVALID_OPERATION`
    /// where the backend cannot clamp the offset (Mesa's error for an unsupported
    /// function); no other error.
    pub fn polygon_offset_clamp(&mut self, factor: GLfloat, units: GLfloat, clamp: GLfloat) {
        if !self.local.limits.polygon_offset_clamp {
            return self.error(INVALID_OPERATION);
        }
        self.set_polygon_offset(factor, units, clamp);
    }

    fn set_polygon_offset(&mut self, factor: GLfloat, units: GLfloat, clamp: GLfloat) {
        // Compared by bits, so that a NaN stored once does not count as a change each time.
        if self.local.st.polygon_offset_clamp.to_bits() != clamp.to_bits() {
            self.local.st.polygon_offset_clamp = clamp;
            self.local.dirty |= Dirty::DEPTH_BIAS;
        }
        set!(
            self,
            self.local.st.polygon_offset_factor,
            factor,
            Dirty::DEPTH_BIAS
        );
        set!(
            self,
            self.local.st.polygon_offset_units,
            units,
            Dirty::DEPTH_BIAS
        );
    }

    /// `glLineWidth`.
    pub fn line_width(&mut self, width: GLfloat) {
        if width.is_nan() || width <= 0.0 {
            return self.error(INVALID_VALUE);
        }
        set!(self, self.local.st.line_width, width, Dirty::LINE_WIDTH);
    }

    /// `glPointSize`.
    pub fn point_size(&mut self, size: GLfloat) {
        if size.is_nan() || size <= 0.0 {
            return self.error(INVALID_VALUE);
        }
        // Programs read the size from their default block (tessera_shader's point-size
        // pass), so the uniforms go again with it.
        set!(
            self,
            self.local.st.point_size,
            size,
            Dirty::POINT_SIZE.union(Dirty::UNIFORMS)
        );
    }

    /// `glPointParameterf`.
    pub fn point_parameterf(&mut self, pname: GLenum, param: GLfloat) {
        match pname {
            POINT_FADE_THRESHOLD_SIZE => {
                if param < 0.0 {
                    return self.error(INVALID_VALUE);
                }
                self.local.st.point_fade_threshold = param;
            }
            POINT_SPRITE_COORD_ORIGIN => self.point_sprite_origin(param as GLenum),
            _ => self.error(INVALID_ENUM),
        }
    }

    /// `glPointParameteri`.
    pub fn point_parameteri(&mut self, pname: GLenum, param: GLint) {
        match pname {
            POINT_SPRITE_COORD_ORIGIN => self.point_sprite_origin(param as GLenum),
            _ => self.point_parameterf(pname, param as GLfloat),
        }
    }

    fn point_sprite_origin(&mut self, origin: GLenum) {
        if origin != LOWER_LEFT && origin != UPPER_LEFT {
            return self.error(INVALID_ENUM);
        }
        set!(
            self,
            self.local.st.point_sprite_coord_origin,
            origin,
            Dirty::RASTER
        );
    }

    /// `glSampleCoverage` (the value is clamped to [0, 1]).
    pub fn sample_coverage(&mut self, value: GLfloat, invert: GLboolean) {
        set!(
            self,
            self.local.st.sample_coverage_value,
            value.clamp(0.0, 1.0),
            Dirty::SAMPLE_MASK
        );
        set!(
            self,
            self.local.st.sample_coverage_invert,
            gl_bool(invert),
            Dirty::SAMPLE_MASK
        );
    }

    /// `glMinSampleShading` (GL 4.0; the value is clamped to [0, 1]).
    pub fn min_sample_shading(&mut self, value: GLfloat) {
        set!(
            self,
            self.local.st.min_sample_shading,
            value.clamp(0.0, 1.0),
            Dirty::RASTER
        );
    }

    /// `glSampleMaski` (GL 3.3 has one mask word).
    pub fn sample_maski(&mut self, index: GLuint, mask: GLbitfield) {
        if index != 0 {
            return self.error(INVALID_VALUE);
        }
        set!(
            self,
            self.local.st.sample_mask_value,
            mask,
            Dirty::SAMPLE_MASK
        );
    }

    /// `glViewport`: every viewport (width and height are clamped to `MAX_VIEWPORT_DIMS`,
    /// the corner to `VIEWPORT_BOUNDS_RANGE`).
    pub fn viewport(&mut self, x: GLint, y: GLint, width: GLsizei, height: GLsizei) {
        if width < 0 || height < 0 {
            return self.error(INVALID_VALUE);
        }
        self.window_viewport_hook();
        let rect = [x as f32, y as f32, width as f32, height as f32];
        for i in 0..MAX_VIEWPORTS {
            self.store_viewport(i, rect);
        }
    }

    /// `glViewportArrayv` (GL 4.1): `count` rectangles (x, y, width, height) from viewport
    /// `first` on; a negative size in any of them sets none (Mesa checks them all first).
    pub fn viewport_arrayv(&mut self, first: GLuint, count: GLsizei, v: &[GLfloat]) {
        let Some(n) = self.viewport_array_count(first, count) else {
            return;
        };
        let rects = v.chunks_exact(4).take(n);
        if rects.clone().any(|r| r[2] < 0.0 || r[3] < 0.0) {
            return self.error(INVALID_VALUE);
        }
        self.window_viewport_hook();
        for (i, r) in rects.enumerate() {
            self.store_viewport(first as usize + i, [r[0], r[1], r[2], r[3]]);
        }
    }

    /// `glViewportIndexedf` (GL 4.1): the index before the size, as in Mesa.
    pub fn viewport_indexedf(&mut self, index: GLuint, x: f32, y: f32, w: f32, h: f32) {
        if index as usize >= MAX_VIEWPORTS || w < 0.0 || h < 0.0 {
            return self.error(INVALID_VALUE);
        }
        self.window_viewport_hook();
        self.store_viewport(index as usize, [x, y, w, h]);
    }

    /// Stores viewport `i`, clamped as Mesa clamps it: the size to `MAX_VIEWPORT_DIMS`, the
    /// corner to `VIEWPORT_BOUNDS_RANGE`.
    fn store_viewport(&mut self, i: usize, [x, y, w, h]: [f32; 4]) {
        let max = self.local.limits.max_viewport as f32;
        let [lo, hi] = VIEWPORT_BOUNDS;
        let rect = [x.clamp(lo, hi), y.clamp(lo, hi), w.min(max), h.min(max)];
        set!(self, self.local.st.viewports[i], rect, Dirty::VIEWPORT);
    }

    /// `glScissor`: every scissor rectangle.
    pub fn scissor(&mut self, x: GLint, y: GLint, width: GLsizei, height: GLsizei) {
        if width < 0 || height < 0 {
            return self.error(INVALID_VALUE);
        }
        for i in 0..MAX_VIEWPORTS {
            set!(
                self,
                self.local.st.scissors[i],
                [x, y, width, height],
                Dirty::SCISSOR
            );
        }
    }

    /// `glScissorArrayv` (GL 4.1): `count` rectangles from index `first` on; a negative size
    /// in any of them sets none.
    pub fn scissor_arrayv(&mut self, first: GLuint, count: GLsizei, v: &[GLint]) {
        let Some(n) = self.viewport_array_count(first, count) else {
            return;
        };
        let rects = v.chunks_exact(4).take(n);
        if rects.clone().any(|r| r[2] < 0 || r[3] < 0) {
            return self.error(INVALID_VALUE);
        }
        for (i, r) in rects.enumerate() {
            let rect = [r[0], r[1], r[2], r[3]];
            set!(
                self,
                self.local.st.scissors[first as usize + i],
                rect,
                Dirty::SCISSOR
            );
        }
    }

    /// `glScissorIndexed` (GL 4.1): the index before the size, as in Mesa.
    pub fn scissor_indexed(&mut self, index: GLuint, x: GLint, y: GLint, w: GLsizei, h: GLsizei) {
        if index as usize >= MAX_VIEWPORTS || w < 0 || h < 0 {
            return self.error(INVALID_VALUE);
        }
        set!(
            self,
            self.local.st.scissors[index as usize],
            [x, y, w, h],
            Dirty::SCISSOR
        );
    }

    /// `glClearColor`.
    pub fn clear_color(&mut self, r: GLfloat, g: GLfloat, b: GLfloat, a: GLfloat) {
        self.local.st.clear_color = [r, g, b, a];
    }

    /// `glClearDepth` (clamped to [0, 1]).
    pub fn clear_depth(&mut self, depth: GLdouble) {
        self.local.st.clear_depth = depth.clamp(0.0, 1.0);
    }

    /// `glClearDepthf`.
    pub fn clear_depthf(&mut self, depth: GLfloat) {
        self.clear_depth(f64::from(depth));
    }

    /// `glClearStencil`.
    pub fn clear_stencil(&mut self, s: GLint) {
        self.local.st.clear_stencil = s;
    }

    /// `glPrimitiveRestartIndex`.
    pub fn primitive_restart_index(&mut self, index: GLuint) {
        set!(
            self,
            self.local.st.primitive_restart_index,
            index,
            Dirty::PRIMITIVE_RESTART
        );
    }

    /// `glProvokingVertex`.
    pub fn provoking_vertex(&mut self, mode: GLenum) {
        if mode != FIRST_VERTEX_CONVENTION && mode != LAST_VERTEX_CONVENTION {
            return self.error(INVALID_ENUM);
        }
        set!(self, self.local.st.provoking_vertex, mode, Dirty::RASTER);
    }

    /// `glClipControl` (GL 4.5, `GL_ARB_clip_control`): the window-coordinate origin of
    /// clip-space y and the clip-space depth range. As in Mesa: `INVALID_OPERATION` where the
    /// extension is not advertised, then `INVALID_ENUM` for the origin before the depth mode.
    /// The backend flips the viewport's y and the polygon winding together (Mesa's
    /// `front_ccw ^= 1`), so a primitive keeps its facing under either origin.
    pub fn clip_control(&mut self, origin: GLenum, depth: GLenum) {
        if !self.local.limits.clip_control {
            return self.error(INVALID_OPERATION);
        }
        if origin != LOWER_LEFT && origin != UPPER_LEFT {
            return self.error(INVALID_ENUM);
        }
        if depth != NEGATIVE_ONE_TO_ONE && depth != ZERO_TO_ONE {
            return self.error(INVALID_ENUM);
        }
        set!(self, self.local.st.clip_origin, origin, Dirty::RASTER);
        set!(self, self.local.st.clip_depth_mode, depth, Dirty::RASTER);
    }

    /// `glTextureBarrier` (GL 4.5, `GL_ARB_texture_barrier`): what earlier draws wrote to the
    /// framebuffer is visible to later draws' texture fetches, so a draw may sample texels of a
    /// texture it renders to that a draw before the barrier wrote. It raises no error. It
    /// travels as the memory barrier of framebuffer writes for texture fetches: the Vulkan
    /// backend ends the render pass and orders every write before what follows, the GLES
    /// backend passes it to the driver's `glMemoryBarrier`.
    pub fn texture_barrier(&mut self) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        sh.dev.use_context(self.local.id);
        sh.dev.push(tessera_wire::record::Record::MemoryBarrier {
            barriers: FRAMEBUFFER_BARRIER_BIT | TEXTURE_FETCH_BARRIER_BIT,
        });
        sh.flush_if_full();
    }

    /// `glHint`.
    pub fn hint(&mut self, target: GLenum, mode: GLenum) {
        if !matches!(mode, FASTEST | NICEST | DONT_CARE) {
            return self.error(INVALID_ENUM);
        }
        let hints = &mut self.local.st.hints;
        match target {
            LINE_SMOOTH_HINT => hints.line_smooth = mode,
            POLYGON_SMOOTH_HINT => hints.polygon_smooth = mode,
            TEXTURE_COMPRESSION_HINT => hints.texture_compression = mode,
            FRAGMENT_SHADER_DERIVATIVE_HINT => hints.fragment_shader_derivative = mode,
            _ => self.error(INVALID_ENUM),
        }
    }
}

/// Whether every factor is one `glBlendFunc*` accepts.
fn blend_factors_valid(factors: [GLenum; 4]) -> bool {
    factors.iter().all(|f| map_blend_factor(*f).is_some())
}

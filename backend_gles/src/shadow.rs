//! The shadow of the native context's state: what the driver's state *is*, so that a GL call
//! is made only when the wanted value differs (ANGLE's `StateManagerGL`).
//!
//! Every GL state change of the backend goes through a method here; each compares with the
//! shadow first and returns without a call when the value is already set. The shadow is
//! exact, never a guess: it starts at the values the ES 3 specification gives a new context
//! (or at a sentinel no real value equals, for the viewport and scissor, whose initial value
//! depends on the first surface; `FRAMEBUFFER_SRGB_EXT` starts enabled, as
//! `GL_EXT_sRGB_write_control` gives it, where desktop GL starts it disabled), and [`NativeState::forget_texture`] and its siblings follow GL's
//! rule that deleting a bound object unbinds it in the current context.
//!
//! State that belongs to an object rather than to the context (an FBO's draw and read
//! buffers and attachments, a VAO's attribute pointers, a texture's level range) is shadowed
//! on the object, in `device.rs` and `command.rs`.

use glow::HasContext;
use tessera_wire::state::MAX_VIEWPORTS;

use crate::device::ViewportArrayFns;

/// A glEnable capability the backend uses, as a bit of [`NativeState::enables`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Cap {
    CullFace,
    DepthTest,
    StencilTest,
    ScissorTest,
    PolygonOffsetFill,
    RasterizerDiscard,
    AlphaToCoverage,
    SampleCoverage,
    SampleMask,
    Dither,
    DepthClamp,
    FramebufferSrgb,
    PrimitiveRestart,
    SampleShading,
}

impl Cap {
    fn gl(self) -> u32 {
        match self {
            Cap::CullFace => glow::CULL_FACE,
            Cap::DepthTest => glow::DEPTH_TEST,
            Cap::StencilTest => glow::STENCIL_TEST,
            Cap::ScissorTest => glow::SCISSOR_TEST,
            Cap::PolygonOffsetFill => glow::POLYGON_OFFSET_FILL,
            Cap::RasterizerDiscard => glow::RASTERIZER_DISCARD,
            Cap::AlphaToCoverage => glow::SAMPLE_ALPHA_TO_COVERAGE,
            Cap::SampleCoverage => glow::SAMPLE_COVERAGE,
            Cap::SampleMask => glow::SAMPLE_MASK,
            Cap::Dither => glow::DITHER,
            Cap::DepthClamp => glow::DEPTH_CLAMP,
            Cap::FramebufferSrgb => glow::FRAMEBUFFER_SRGB,
            Cap::PrimitiveRestart => glow::PRIMITIVE_RESTART_FIXED_INDEX,
            Cap::SampleShading => glow::SAMPLE_SHADING,
        }
    }
}

/// The value class of a vertex input (what a generic attribute value is set as).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum AttribClass {
    #[default]
    Float,
    Int,
    Uint,
}

/// Stencil state of one face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StencilNative {
    pub func: u32,
    pub reference: i32,
    pub read_mask: u32,
    pub ops: [u32; 3],
    pub write_mask: u32,
}

impl Default for StencilNative {
    fn default() -> Self {
        Self {
            func: glow::ALWAYS,
            reference: 0,
            read_mask: u32::MAX,
            ops: [glow::KEEP; 3],
            write_mask: u32::MAX,
        }
    }
}

/// A range bound to an indexed uniform buffer binding.
pub(crate) type IndexedRange = (glow::Buffer, i32, i32);

/// Texture targets per unit (see `conv::target_index`).
pub(crate) const TARGET_COUNT: usize = 8;

/// The native context's state.
pub(crate) struct NativeState {
    pub draw_fbo: Option<glow::Framebuffer>,
    pub read_fbo: Option<glow::Framebuffer>,
    /// Per viewport index (only index 0 without viewport arrays, where GL ES has one).
    viewports: [[f32; 4]; MAX_VIEWPORTS],
    depth_ranges: [[f32; 2]; MAX_VIEWPORTS],
    scissors: [[i32; 4]; MAX_VIEWPORTS],
    /// `SCISSOR_TEST` per viewport index, bit `i` (all bits equal without viewport arrays;
    /// the `Cap::ScissorTest` bit of `enables` is unused).
    scissor_enables: u16,
    /// `OES_viewport_array`'s calls, where the driver has them.
    viewport_arrays: Option<ViewportArrayFns>,
    enables: u32,
    /// Bit `i`: blending on for draw buffer `i` (all bits equal without indexed blending).
    blend_enables: u8,
    /// Blend factors per draw buffer (all equal without indexed blending).
    blend_func: [[u32; 4]; 8],
    /// Blend equations per draw buffer.
    blend_equation: [[u32; 2]; 8],
    blend_color: [f32; 4],
    /// Four bits per draw buffer, as `BlendState::color_write_mask`.
    color_masks: u32,
    depth_func: u32,
    depth_mask: bool,
    stencil: [StencilNative; 2],
    cull_face: u32,
    front_face: u32,
    polygon_offset: [f32; 3],
    line_width: f32,
    patch_vertices: i32,
    sample_coverage: (f32, bool),
    sample_mask: u32,
    min_sample_shading: f32,
    /// `glClipControlEXT`'s origin and depth mode.
    clip_control: (u32, u32),
    program: Option<glow::Program>,
    active_unit: u32,
    units: Vec<[Option<glow::Texture>; TARGET_COUNT]>,
    samplers: Vec<Option<glow::Sampler>>,
    array_buffer: Option<glow::Buffer>,
    copy_read: Option<glow::Buffer>,
    copy_write: Option<glow::Buffer>,
    uniform_buffer: Option<glow::Buffer>,
    uniform_ranges: Vec<Option<IndexedRange>>,
    vao: Option<glow::VertexArray>,
    generic: Vec<Option<(AttribClass, [u32; 4])>>,
    /// Indexed blend and colour-mask calls exist (ES 3.2 or `*_draw_buffers_indexed`).
    indexed: bool,
}

/// A value no real scissor has, so the first set always calls GL.
const UNKNOWN_RECT: [i32; 4] = [i32::MIN; 4];
/// A viewport no real one equals (NaN equals nothing), so the first set always calls GL.
const UNKNOWN_VIEWPORT: [f32; 4] = [f32::NAN; 4];
/// Every viewport index's bit.
const ALL_VIEWPORTS: u16 = u16::MAX >> (16 - MAX_VIEWPORTS);

impl NativeState {
    /// The state of a fresh context with `units` texture units, `ubo_bindings` uniform
    /// buffer bindings and `attribs` vertex attributes. (Without `GL_EXT_sRGB_write_control`
    /// the `FramebufferSrgb` bit stands for a switch that cannot be turned off, and is never
    /// asked for.)
    pub fn new(
        units: usize,
        ubo_bindings: usize,
        attribs: usize,
        indexed: bool,
        viewport_arrays: Option<ViewportArrayFns>,
    ) -> Self {
        Self {
            draw_fbo: None,
            read_fbo: None,
            viewports: [UNKNOWN_VIEWPORT; MAX_VIEWPORTS],
            depth_ranges: [[0.0, 1.0]; MAX_VIEWPORTS],
            scissors: [UNKNOWN_RECT; MAX_VIEWPORTS],
            scissor_enables: 0,
            viewport_arrays,
            enables: 1 << Cap::Dither as u8 | 1 << Cap::FramebufferSrgb as u8,
            blend_enables: 0,
            blend_func: [[glow::ONE, glow::ZERO, glow::ONE, glow::ZERO]; 8],
            blend_equation: [[glow::FUNC_ADD; 2]; 8],
            blend_color: [0.0; 4],
            color_masks: u32::MAX,
            depth_func: glow::LESS,
            depth_mask: true,
            stencil: [StencilNative::default(); 2],
            cull_face: glow::BACK,
            front_face: glow::CCW,
            polygon_offset: [0.0; 3],
            line_width: 1.0,
            patch_vertices: 3,
            sample_coverage: (1.0, false),
            sample_mask: u32::MAX,
            min_sample_shading: 0.0,
            clip_control: (glow::LOWER_LEFT, glow::NEGATIVE_ONE_TO_ONE),
            program: None,
            active_unit: 0,
            units: vec![[None; TARGET_COUNT]; units],
            samplers: vec![None; units],
            array_buffer: None,
            copy_read: None,
            copy_write: None,
            uniform_buffer: None,
            uniform_ranges: vec![None; ubo_bindings],
            vao: None,
            generic: vec![None; attribs],
            indexed,
        }
    }

    /// Binds the framebuffer draws and clears go to.
    pub fn bind_draw_framebuffer(&mut self, gl: &glow::Context, fbo: Option<glow::Framebuffer>) {
        if self.draw_fbo != fbo {
            self.draw_fbo = fbo;
            // SAFETY: the context is current (module invariant of lib.rs); `fbo` is a live
            // framebuffer of this context or None.
            unsafe { gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, fbo) };
        }
    }

    /// Binds the framebuffer reads and blits read from.
    pub fn bind_read_framebuffer(&mut self, gl: &glow::Context, fbo: Option<glow::Framebuffer>) {
        if self.read_fbo != fbo {
            self.read_fbo = fbo;
            // SAFETY: as in `bind_draw_framebuffer`.
            unsafe { gl.bind_framebuffer(glow::READ_FRAMEBUFFER, fbo) };
        }
    }

    /// Sets the viewport rectangles and depth ranges: all of them in one array call each
    /// with viewport arrays, else viewport 0's (rounded: ES's `glViewport` takes integers).
    pub fn viewports(
        &mut self,
        gl: &glow::Context,
        values: &[([f32; 4], f32, f32); MAX_VIEWPORTS],
    ) {
        let rects = values.map(|v| v.0);
        let ranges = values.map(|v| [v.1, v.2]);
        if let Some(f) = self.viewport_arrays {
            if self.viewports != rects {
                self.viewports = rects;
                // SAFETY: context current; OES_viewport_array's call with MAX_VIEWPORTS
                // (at most the driver's, checked at creation) groups of four floats.
                unsafe { (f.viewports)(0, MAX_VIEWPORTS as i32, rects.as_flattened().as_ptr()) };
            }
            if self.depth_ranges != ranges {
                self.depth_ranges = ranges;
                // SAFETY: as above, with pairs of floats (GL clamps them to [0, 1]).
                unsafe {
                    (f.depth_ranges)(0, MAX_VIEWPORTS as i32, ranges.as_flattened().as_ptr())
                };
            }
            return;
        }
        let rect = rects[0];
        if self.viewports[0] != rect {
            self.viewports[0] = rect;
            let [x, y, w, h] = rect.map(|v| v.round() as i32);
            // SAFETY: context current; plain values (negative sizes are refused by the engine,
            // and GL clamps oversized ones).
            unsafe { gl.viewport(x, y, w.max(0), h.max(0)) };
        }
        if self.depth_ranges[0] != ranges[0] {
            self.depth_ranges[0] = ranges[0];
            // SAFETY: context current; GL clamps the values to [0, 1].
            unsafe { gl.depth_range_f32(ranges[0][0], ranges[0][1]) };
        }
    }

    /// Sets the scissor rectangles: all of them in one array call with viewport arrays,
    /// else rectangle 0.
    pub fn scissors(&mut self, gl: &glow::Context, rects: &[[i32; 4]; MAX_VIEWPORTS]) {
        let rects = rects.map(|r| [r[0], r[1], r[2].max(0), r[3].max(0)]);
        if let Some(f) = self.viewport_arrays {
            if self.scissors != rects {
                self.scissors = rects;
                // SAFETY: context current; OES_viewport_array's call with MAX_VIEWPORTS
                // groups of four integers, sizes non-negative.
                unsafe { (f.scissors)(0, MAX_VIEWPORTS as i32, rects.as_flattened().as_ptr()) };
            }
            return;
        }
        let rect = rects[0];
        if self.scissors[0] != rect {
            self.scissors[0] = rect;
            // SAFETY: context current; sizes are made non-negative.
            unsafe { gl.scissor(rect[0], rect[1], rect[2], rect[3]) };
        }
    }

    /// Sets `SCISSOR_TEST` per viewport index (bit `i`): with the non-indexed calls when all
    /// indices agree, else with `glEnablei`/`glDisablei` (viewport arrays only; without
    /// them, index 0's applies).
    pub fn scissor_enables(&mut self, gl: &glow::Context, mask: u16) {
        let mask = if self.viewport_arrays.is_none() {
            if mask & 1 != 0 { ALL_VIEWPORTS } else { 0 }
        } else {
            mask & ALL_VIEWPORTS
        };
        if self.scissor_enables == mask {
            return;
        }
        if mask == 0 || mask == ALL_VIEWPORTS {
            self.scissor_enables = mask;
            // SAFETY: context current; SCISSOR_TEST is an ES 3.0 capability, and the
            // non-indexed call sets every viewport's.
            unsafe {
                if mask != 0 {
                    gl.enable(glow::SCISSOR_TEST);
                } else {
                    gl.disable(glow::SCISSOR_TEST);
                }
            }
            return;
        }
        for i in 0..MAX_VIEWPORTS {
            let bit = 1u16 << i;
            if self.scissor_enables & bit != mask & bit {
                self.scissor_enables ^= bit;
                // SAFETY: context current; viewport arrays come with glEnablei (checked at
                // creation) and `i` < MAX_VIEWPORTS_OES.
                unsafe {
                    if mask & bit != 0 {
                        gl.enable_draw_buffer(glow::SCISSOR_TEST, i as u32);
                    } else {
                        gl.disable_draw_buffer(glow::SCISSOR_TEST, i as u32);
                    }
                }
            }
        }
    }

    /// Turns a capability on or off (`SCISSOR_TEST` for every viewport).
    pub fn enable(&mut self, gl: &glow::Context, cap: Cap, on: bool) {
        if cap == Cap::ScissorTest {
            return self.scissor_enables(gl, if on { ALL_VIEWPORTS } else { 0 });
        }
        let bit = 1u32 << cap as u8;
        if (self.enables & bit != 0) != on {
            self.enables ^= bit;
            // SAFETY: context current; every `Cap` is a capability of ES 3.0, or of an
            // extension the caller checked before asking for it.
            unsafe {
                if on {
                    gl.enable(cap.gl());
                } else {
                    gl.disable(cap.gl());
                }
            }
        }
    }

    /// Sets which draw buffers blend (bit `i`: draw buffer `i`; without indexed blending,
    /// draw buffer 0's bit applies to all).
    pub fn blend_enables(&mut self, gl: &glow::Context, mask: u8, buffers: usize) {
        if !self.indexed {
            let on = mask & 1 != 0;
            let all = if on { 0xff } else { 0 };
            if self.blend_enables != all {
                self.blend_enables = all;
                // SAFETY: context current; BLEND is an ES 3.0 capability.
                unsafe {
                    if on {
                        gl.enable(glow::BLEND);
                    } else {
                        gl.disable(glow::BLEND);
                    }
                }
            }
            return;
        }
        if mask == 0 || mask == 0xff {
            let all = mask;
            if self.blend_enables != all {
                self.blend_enables = all;
                // SAFETY: context current; the non-indexed call sets every draw buffer.
                unsafe {
                    if all != 0 {
                        gl.enable(glow::BLEND);
                    } else {
                        gl.disable(glow::BLEND);
                    }
                }
            }
            return;
        }
        for i in 0..buffers.min(8) {
            let bit = 1u8 << i;
            if self.blend_enables & bit != mask & bit {
                self.blend_enables ^= bit;
                // SAFETY: context current; indexed enables exist (checked at creation) and
                // `i` < the native MAX_DRAW_BUFFERS (the caller's `buffers`).
                unsafe {
                    if mask & bit != 0 {
                        gl.enable_draw_buffer(glow::BLEND, i as u32);
                    } else {
                        gl.disable_draw_buffer(glow::BLEND, i as u32);
                    }
                }
            }
        }
    }

    /// Sets the blend factors and equations of the draw buffers that blend (the bits of
    /// `enabled` among the first `buffers`; without indexed blending, draw buffer 0's bit
    /// decides for all, as in [`Self::blend_enables`]): with the non-indexed calls when they
    /// all have the same (and always without indexed blending), else draw buffer by draw
    /// buffer.
    ///
    /// A draw buffer that does not blend ignores its factors and equations, so it keeps the
    /// native ones: the canonical blend state of a draw buffer that does not blend has default
    /// factors, and turning blending off and on again between draws then makes no factor
    /// calls.
    pub fn blend_funcs(
        &mut self,
        gl: &glow::Context,
        funcs: &[[u32; 4]; 8],
        equations: &[[u32; 2]; 8],
        enabled: u8,
        buffers: usize,
    ) {
        let buffers = buffers.clamp(1, 8);
        let live = |i: usize| {
            let bit = if self.indexed { i } else { 0 };
            enabled & (1 << bit) != 0
        };
        let Some(first) = (0..buffers).find(|&i| live(i)) else {
            return;
        };
        let (func, equation) = (funcs[first], equations[first]);
        let uniform =
            (first..buffers).all(|i| !live(i) || (funcs[i] == func && equations[i] == equation));
        if !self.indexed || uniform {
            // Without indexed blending every draw buffer holds the same values.
            if (first..buffers).any(|i| live(i) && self.blend_func[i] != func) {
                self.blend_func = [func; 8];
                // SAFETY: context current; the factors come from conv::map_blend_factor.
                unsafe { gl.blend_func_separate(func[0], func[1], func[2], func[3]) };
            }
            if (first..buffers).any(|i| live(i) && self.blend_equation[i] != equation) {
                self.blend_equation = [equation; 8];
                // SAFETY: context current; the equations come from conv::map_blend_op.
                unsafe { gl.blend_equation_separate(equation[0], equation[1]) };
            }
            return;
        }
        for i in (first..buffers).filter(|&i| live(i)) {
            let (func, equation) = (funcs[i], equations[i]);
            if self.blend_func[i] != func {
                self.blend_func[i] = func;
                // SAFETY: context current; indexed blending exists (checked at creation), `i`
                // < the native MAX_DRAW_BUFFERS (the caller's `buffers`), and the factors come
                // from conv::map_blend_factor.
                unsafe {
                    gl.blend_func_separate_draw_buffer(i as u32, func[0], func[1], func[2], func[3])
                };
            }
            if self.blend_equation[i] != equation {
                self.blend_equation[i] = equation;
                // SAFETY: as above; the equations come from conv::map_blend_op.
                unsafe {
                    gl.blend_equation_separate_draw_buffer(i as u32, equation[0], equation[1])
                };
            }
        }
    }

    /// Sets the constant blend colour.
    pub fn blend_color(&mut self, gl: &glow::Context, c: [f32; 4]) {
        if self.blend_color.map(f32::to_bits) != c.map(f32::to_bits) {
            self.blend_color = c;
            // SAFETY: context current; plain values.
            unsafe { gl.blend_color(c[0], c[1], c[2], c[3]) };
        }
    }

    /// Sets the colour write masks: four bits per draw buffer (without indexed masks, draw
    /// buffer 0's apply to all).
    pub fn color_masks(&mut self, gl: &glow::Context, masks: u32, buffers: usize) {
        // Every draw buffer's four bits equal draw buffer 0's.
        let uniform = masks == (masks & 0xf) * 0x1111_1111;
        if !self.indexed || uniform {
            let m = masks & 0xf;
            let all = m * 0x1111_1111;
            if self.color_masks != all {
                self.color_masks = all;
                // SAFETY: context current; plain values.
                unsafe { gl.color_mask(m & 1 != 0, m & 2 != 0, m & 4 != 0, m & 8 != 0) };
            }
            return;
        }
        for i in 0..buffers.min(8) {
            let m = (masks >> (4 * i)) & 0xf;
            if (self.color_masks >> (4 * i)) & 0xf != m {
                self.color_masks = (self.color_masks & !(0xf << (4 * i))) | (m << (4 * i));
                // SAFETY: context current; indexed masks exist (checked at creation) and `i`
                // < the native MAX_DRAW_BUFFERS.
                unsafe {
                    gl.color_mask_draw_buffer(
                        i as u32,
                        m & 1 != 0,
                        m & 2 != 0,
                        m & 4 != 0,
                        m & 8 != 0,
                    )
                };
            }
        }
    }

    /// Sets the depth function and write mask.
    pub fn depth(&mut self, gl: &glow::Context, func: u32, mask: bool) {
        if self.depth_func != func {
            self.depth_func = func;
            // SAFETY: context current; `func` from conv::map_compare_func.
            unsafe { gl.depth_func(func) };
        }
        if self.depth_mask != mask {
            self.depth_mask = mask;
            // SAFETY: context current; plain value.
            unsafe { gl.depth_mask(mask) };
        }
    }

    /// Sets the stencil state of both faces (front, back).
    pub fn stencil(&mut self, gl: &glow::Context, faces: [StencilNative; 2]) {
        for (i, face) in [glow::FRONT, glow::BACK].into_iter().enumerate() {
            let (old, new) = (self.stencil[i], faces[i]);
            if (old.func, old.reference, old.read_mask) != (new.func, new.reference, new.read_mask)
            {
                // SAFETY: context current; enums from conv's maps, plain values.
                unsafe { gl.stencil_func_separate(face, new.func, new.reference, new.read_mask) };
            }
            if old.ops != new.ops {
                // SAFETY: as above.
                unsafe { gl.stencil_op_separate(face, new.ops[0], new.ops[1], new.ops[2]) };
            }
            if old.write_mask != new.write_mask {
                // SAFETY: as above.
                unsafe { gl.stencil_mask_separate(face, new.write_mask) };
            }
            self.stencil[i] = new;
        }
    }

    /// Sets the culled faces and the front face winding.
    pub fn cull(&mut self, gl: &glow::Context, cull_face: u32, front_face: u32) {
        if self.cull_face != cull_face {
            self.cull_face = cull_face;
            // SAFETY: context current; FRONT, BACK or FRONT_AND_BACK.
            unsafe { gl.cull_face(cull_face) };
        }
        if self.front_face != front_face {
            self.front_face = front_face;
            // SAFETY: context current; CW or CCW.
            unsafe { gl.front_face(front_face) };
        }
    }

    /// Sets the polygon offset and its clamp (0: none), the clamp through
    /// `glPolygonOffsetClampEXT` where the driver has it (the engine sends a clamp other than
    /// 0 only to a backend whose caps say so).
    pub fn polygon_offset(
        &mut self,
        gl: &glow::Context,
        factor: f32,
        units: f32,
        clamp: f32,
        offset_clamp: Option<crate::device::PolygonOffsetClampFn>,
    ) {
        let value = [factor, units, clamp];
        if self.polygon_offset.map(f32::to_bits) != value.map(f32::to_bits) {
            self.polygon_offset = value;
            match offset_clamp {
                // SAFETY: context current; `f` is glPolygonOffsetClampEXT; plain values.
                Some(f) => unsafe { f(factor, units, clamp) },
                // SAFETY: context current; plain values.
                None => unsafe { gl.polygon_offset(factor, units) },
            }
        }
    }

    /// Sets the line width.
    pub fn line_width(&mut self, gl: &glow::Context, width: f32) {
        if self.line_width.to_bits() != width.to_bits() && width > 0.0 {
            self.line_width = width;
            // SAFETY: context current; a positive width (GL clamps to its range).
            unsafe { gl.line_width(width) };
        }
    }

    /// Sets `PATCH_VERTICES` (`glPatchParameteri`; a driver with tessellation stages only).
    pub fn patch_vertices(&mut self, gl: &glow::Context, count: u8) {
        let count = i32::from(count);
        if self.patch_vertices != count {
            self.patch_vertices = count;
            // SAFETY: context current; the caller checked the driver has tessellation
            // stages; 1..=32 (the dispatcher checks), within its MAX_PATCH_VERTICES, which
            // the engine's limit is.
            unsafe { gl.patch_parameter_i32(glow::PATCH_VERTICES, count) };
        }
    }

    /// Sets sample coverage.
    pub fn sample_coverage(&mut self, gl: &glow::Context, value: f32, invert: bool) {
        if self.sample_coverage != (value, invert) {
            self.sample_coverage = (value, invert);
            // SAFETY: context current; plain values.
            unsafe { gl.sample_coverage(value, invert) };
        }
    }

    /// Sets `MIN_SAMPLE_SHADING_VALUE` (through `glMinSampleShading`, which glow does not
    /// wrap).
    pub fn min_sample_shading(&mut self, value: f32, f: crate::device::MinSampleShading) {
        if self.min_sample_shading != value {
            self.min_sample_shading = value;
            // SAFETY: context current; `f` is glMinSampleShading(OES); a value in [0, 1].
            unsafe { f(value) };
        }
    }

    /// Sets the clip origin and depth mode (through `glClipControlEXT`, which glow does not
    /// wrap).
    pub fn clip_control(&mut self, origin: u32, depth: u32, f: crate::device::ClipControlFn) {
        if self.clip_control != (origin, depth) {
            self.clip_control = (origin, depth);
            // SAFETY: context current; `f` is glClipControlEXT; an origin and a depth mode
            // of the two each that GL_EXT_clip_control accepts.
            unsafe { f(origin, depth) };
        }
    }

    /// Sets the sample mask word (through `glSampleMaski`, which glow does not wrap).
    pub fn sample_mask(&mut self, mask: u32, sample_maski: Option<crate::device::SampleMaski>) {
        if self.sample_mask != mask
            && let Some(f) = sample_maski
        {
            self.sample_mask = mask;
            // SAFETY: context current; `f` is glSampleMaski (ES 3.1), index 0 exists.
            unsafe { f(0, mask) };
        }
    }

    /// Makes a program current.
    pub fn use_program(&mut self, gl: &glow::Context, program: Option<glow::Program>) {
        if self.program != program {
            self.program = program;
            // SAFETY: context current; a linked program of this context or None.
            unsafe { gl.use_program(program) };
        }
    }

    fn active_texture(&mut self, gl: &glow::Context, unit: u32) {
        if self.active_unit != unit {
            self.active_unit = unit;
            // SAFETY: context current; `unit` < MAX_COMBINED_TEXTURE_IMAGE_UNITS (the
            // length of `units`, checked by callers through `bind_texture`).
            unsafe { gl.active_texture(glow::TEXTURE0 + unit) };
        }
    }

    /// Binds a texture to `target` of `unit`. Units beyond the native count are ignored.
    pub fn bind_texture(
        &mut self,
        gl: &glow::Context,
        unit: usize,
        target: u32,
        texture: Option<glow::Texture>,
    ) {
        let index = crate::conv::target_index(target);
        let Some(slot) = self.units.get(unit) else {
            return;
        };
        if slot[index] != texture {
            self.active_texture(gl, unit as u32);
            self.units[unit][index] = texture;
            // SAFETY: context current; `texture` is a live texture whose target is `target`
            // (a texture's target is fixed when it is created) or None.
            unsafe { gl.bind_texture(target, texture) };
        }
    }

    /// Binds a sampler object to `unit`.
    pub fn bind_sampler(
        &mut self,
        gl: &glow::Context,
        unit: usize,
        sampler: Option<glow::Sampler>,
    ) {
        let Some(slot) = self.samplers.get_mut(unit) else {
            return;
        };
        if *slot != sampler {
            *slot = sampler;
            // SAFETY: context current; `unit` < the native unit count; a live sampler or None.
            unsafe { gl.bind_sampler(unit as u32, sampler) };
        }
    }

    /// Binds a buffer to a generic target (`ARRAY_BUFFER`, `COPY_READ_BUFFER`,
    /// `COPY_WRITE_BUFFER`, `UNIFORM_BUFFER`). `ELEMENT_ARRAY_BUFFER` is VAO state: see
    /// `command.rs`.
    pub fn bind_buffer(&mut self, gl: &glow::Context, target: u32, buffer: Option<glow::Buffer>) {
        let slot = match target {
            glow::ARRAY_BUFFER => &mut self.array_buffer,
            glow::COPY_READ_BUFFER => &mut self.copy_read,
            glow::COPY_WRITE_BUFFER => &mut self.copy_write,
            glow::UNIFORM_BUFFER => &mut self.uniform_buffer,
            _ => crate::device::backend_bug("bind_buffer on an unshadowed target"),
        };
        if *slot != buffer {
            *slot = buffer;
            // SAFETY: context current; a live buffer or None on an ES 3.0 target.
            unsafe { gl.bind_buffer(target, buffer) };
        }
    }

    /// Binds a range of a buffer to uniform buffer binding `index`.
    pub fn bind_uniform_range(
        &mut self,
        gl: &glow::Context,
        index: usize,
        range: Option<IndexedRange>,
    ) {
        let Some(slot) = self.uniform_ranges.get_mut(index) else {
            return;
        };
        if *slot != range {
            *slot = range;
            // glBindBufferRange/Base also set the generic binding.
            self.uniform_buffer = range.map(|r| r.0);
            // SAFETY: context current; `index` < MAX_UNIFORM_BUFFER_BINDINGS; the offset is
            // aligned (the engine checks GL's alignment rule, the ring aligns its own) and
            // the range lies in the buffer (checked by the caller).
            unsafe {
                match range {
                    Some((buffer, offset, size)) => gl.bind_buffer_range(
                        glow::UNIFORM_BUFFER,
                        index as u32,
                        Some(buffer),
                        offset,
                        size,
                    ),
                    None => gl.bind_buffer_base(glow::UNIFORM_BUFFER, index as u32, None),
                }
            }
        }
    }

    /// Binds a vertex array object.
    pub fn bind_vao(&mut self, gl: &glow::Context, vao: Option<glow::VertexArray>) {
        if self.vao != vao {
            self.vao = vao;
            // SAFETY: context current; a live VAO or None.
            unsafe { gl.bind_vertex_array(vao) };
        }
    }

    /// Sets the value a disabled attribute reads.
    pub fn generic_attrib(
        &mut self,
        gl: &glow::Context,
        index: usize,
        class: AttribClass,
        v: [u32; 4],
    ) {
        let Some(slot) = self.generic.get_mut(index) else {
            return;
        };
        if *slot != Some((class, v)) {
            *slot = Some((class, v));
            let i = index as u32;
            // SAFETY: context current; `index` < MAX_VERTEX_ATTRIBS (the table's length).
            unsafe {
                match class {
                    AttribClass::Float => {
                        let f = v.map(f32::from_bits);
                        gl.vertex_attrib_4_f32(i, f[0], f[1], f[2], f[3]);
                    }
                    AttribClass::Int => {
                        let s = v.map(|x| x as i32);
                        gl.vertex_attrib_4_i32(i, s[0], s[1], s[2], s[3]);
                    }
                    AttribClass::Uint => gl.vertex_attrib_4_u32(i, v[0], v[1], v[2], v[3]),
                }
            }
        }
    }

    // Deletes: each takes a name its caller's table has just given up (so it is live, of
    // this context, and deleted once), deletes it natively, and forgets it where GL does.

    /// Deletes a texture; GL unbinds it from every unit of the current context.
    pub fn delete_texture(&mut self, gl: &crate::census::CountedGl, texture: glow::Texture) {
        for unit in &mut self.units {
            for t in unit.iter_mut().filter(|t| **t == Some(texture)) {
                *t = None;
            }
        }
        // SAFETY: context current; a live texture, deleted once (see above).
        unsafe { gl.delete_texture(texture) };
    }

    /// Deletes a buffer; GL unbinds it from every binding of the current context.
    pub fn delete_buffer(&mut self, gl: &crate::census::CountedGl, buffer: glow::Buffer) {
        for b in [
            &mut self.array_buffer,
            &mut self.copy_read,
            &mut self.copy_write,
            &mut self.uniform_buffer,
        ] {
            if *b == Some(buffer) {
                *b = None;
            }
        }
        for r in &mut self.uniform_ranges {
            if r.is_some_and(|r| r.0 == buffer) {
                *r = None;
            }
        }
        // SAFETY: context current; a live buffer created by this context, deleted once.
        unsafe { gl.delete_buffer(buffer) };
    }

    /// Deletes a sampler; GL unbinds it from every unit.
    pub fn delete_sampler(&mut self, gl: &crate::census::CountedGl, sampler: glow::Sampler) {
        for s in self.samplers.iter_mut().filter(|s| **s == Some(sampler)) {
            *s = None;
        }
        // SAFETY: context current; a live sampler, deleted once.
        unsafe { gl.delete_sampler(sampler) };
    }

    /// Deletes a framebuffer; GL reverts its bindings to 0.
    pub fn delete_framebuffer(&mut self, gl: &crate::census::CountedGl, fbo: glow::Framebuffer) {
        if self.draw_fbo == Some(fbo) {
            self.draw_fbo = None;
        }
        if self.read_fbo == Some(fbo) {
            self.read_fbo = None;
        }
        // SAFETY: context current; a live framebuffer, deleted once.
        unsafe { gl.delete_framebuffer(fbo) };
    }

    /// Deletes a vertex array; GL unbinds it.
    pub fn delete_vao(&mut self, gl: &crate::census::CountedGl, vao: glow::VertexArray) {
        if self.vao == Some(vao) {
            self.vao = None;
        }
        // SAFETY: context current; the context's own VAO, deleted once.
        unsafe { gl.delete_vertex_array(vao) };
    }

    /// Deletes a program, making it not current first, so that the shadow never names a
    /// deleted program (a deleted current program lingers in GL).
    pub fn delete_program(&mut self, gl: &crate::census::CountedGl, program: glow::Program) {
        if self.program == Some(program) {
            self.use_program(gl, None);
        }
        // SAFETY: context current; a program of this context, not current (just made so),
        // deleted once (it left the program cache or was never in it).
        unsafe { gl.delete_program(program) };
    }
}

//! Render state: the blend, depth-stencil and rasterizer CSOs, and the dynamic state records.

use tessera_components::gl::*;
use tessera_components::state::{GlState, cap};
use tessera_wire::format::{BlendFactor, BlendOp, CompareFunc, CullMode, PolygonMode, StencilOp};
use tessera_wire::handle::BlendHandle;
use tessera_wire::record::Record;
use tessera_wire::state::{
    BlendFunc, BlendState, DepthStencilState, MAX_DRAW_BUFFERS, MAX_VIEWPORTS, RasterState, Rect,
    StencilFace,
};

use crate::conv::{
    map_blend_equation, map_blend_factor, map_compare_func, map_cull_face, map_logic_op,
    map_polygon_mode, map_stencil_op,
};
use crate::emitted::{EmittedState, changed};
use crate::emitter::Emitter;

/// Everything [`blend_state`] reads of a context's state, as the context holds it: equal
/// inputs give the same CSO.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlendInputs {
    enable: u8,
    color_mask: [u8; MAX_DRAW_BUFFERS],
    /// Source and destination factors of colour and alpha, then the two equations, per
    /// draw buffer.
    funcs: [[GLenum; MAX_DRAW_BUFFERS]; 6],
    /// The logic operation, when `COLOR_LOGIC_OP` is enabled.
    logic_op: Option<GLenum>,
    alpha_to_coverage: bool,
    alpha_to_one: bool,
}

impl BlendInputs {
    /// The inputs of `st`.
    #[inline]
    pub fn of(st: &GlState) -> Self {
        Self {
            enable: st.blend_enable,
            color_mask: st.color_mask,
            funcs: [
                st.blend_src_rgb,
                st.blend_dst_rgb,
                st.blend_src_alpha,
                st.blend_dst_alpha,
                st.blend_equation_rgb,
                st.blend_equation_alpha,
            ],
            logic_op: st.caps.has(cap::COLOR_LOGIC_OP).then_some(st.logic_op),
            alpha_to_coverage: st.caps.has(cap::SAMPLE_ALPHA_TO_COVERAGE),
            alpha_to_one: st.caps.has(cap::SAMPLE_ALPHA_TO_ONE),
        }
    }
}

/// The canonical blend CSO key of the context's state.
pub fn blend_state(st: &GlState) -> BlendState {
    let mut color_write_mask = 0u32;
    for (i, mask) in st.color_mask.iter().enumerate().take(MAX_DRAW_BUFFERS) {
        color_write_mask |= u32::from(*mask & 0xf) << (4 * i);
    }
    let logic_op = st
        .caps
        .has(cap::COLOR_LOGIC_OP)
        .then(|| map_logic_op(st.logic_op))
        .flatten();
    let mut state = BlendState {
        enable_mask: st.blend_enable,
        alpha_to_coverage: st.caps.has(cap::SAMPLE_ALPHA_TO_COVERAGE),
        alpha_to_one: st.caps.has(cap::SAMPLE_ALPHA_TO_ONE),
        logic_op,
        color_write_mask,
        ..BlendState::default()
    };
    for (i, func) in state.funcs.iter_mut().enumerate() {
        if st.blend_enable & (1 << i) == 0 {
            continue;
        }
        // The setters only store values the tables accept, so the fallbacks never apply.
        *func = BlendFunc {
            src_rgb: map_blend_factor(st.blend_src_rgb[i]).unwrap_or(BlendFactor::One),
            dst_rgb: map_blend_factor(st.blend_dst_rgb[i]).unwrap_or(BlendFactor::Zero),
            src_alpha: map_blend_factor(st.blend_src_alpha[i]).unwrap_or(BlendFactor::One),
            dst_alpha: map_blend_factor(st.blend_dst_alpha[i]).unwrap_or(BlendFactor::Zero),
            op_rgb: map_blend_equation(st.blend_equation_rgb[i]).unwrap_or(BlendOp::Add),
            op_alpha: map_blend_equation(st.blend_equation_alpha[i]).unwrap_or(BlendOp::Add),
        };
    }
    state
}

/// The canonical depth-stencil CSO key of the context's state.
///
/// The depth and stencil write masks are kept even when their test is off: draws then write
/// neither buffer anyway, but `glClear` honours the masks (GL 3.3 §4.2.3), and the clear is
/// applied with this state bound.
pub fn depth_stencil_state(st: &GlState) -> DepthStencilState {
    let mut state = DepthStencilState {
        depth_write: st.depth_mask,
        ..DepthStencilState::default()
    };
    state.front.write_mask = (st.stencil[0].write_mask & 0xff) as u8;
    state.back.write_mask = (st.stencil[1].write_mask & 0xff) as u8;
    if st.caps.has(cap::DEPTH_TEST) {
        state.depth_test = true;
        state.depth_func = map_compare_func(st.depth_func).unwrap_or(CompareFunc::Less);
    }
    if st.caps.has(cap::STENCIL_TEST) {
        state.stencil_test = true;
        let face = |f: &tessera_components::state::StencilFaceGl| StencilFace {
            func: map_compare_func(f.func).unwrap_or(CompareFunc::Always),
            fail: map_stencil_op(f.fail).unwrap_or(StencilOp::Keep),
            depth_fail: map_stencil_op(f.depth_fail).unwrap_or(StencilOp::Keep),
            pass: map_stencil_op(f.depth_pass).unwrap_or(StencilOp::Keep),
            read_mask: (f.value_mask & 0xff) as u8,
            write_mask: (f.write_mask & 0xff) as u8,
        };
        state.front = face(&st.stencil[0]);
        state.back = face(&st.stencil[1]);
    }
    state
}

/// The canonical rasterizer CSO key of the context's state.
pub fn raster_state(st: &GlState) -> RasterState {
    let caps = st.caps;
    RasterState {
        cull: if caps.has(cap::CULL_FACE) {
            map_cull_face(st.cull_face).unwrap_or(CullMode::Back)
        } else {
            CullMode::None
        },
        front_ccw: st.front_face == CCW,
        polygon_mode: map_polygon_mode(st.polygon_mode).unwrap_or(PolygonMode::Fill),
        offset_enable: u8::from(caps.has(cap::POLYGON_OFFSET_FILL))
            | u8::from(caps.has(cap::POLYGON_OFFSET_LINE)) << 1
            | u8::from(caps.has(cap::POLYGON_OFFSET_POINT)) << 2,
        flatshade_last: st.provoking_vertex == LAST_VERTEX_CONVENTION,
        depth_clamp: caps.has(cap::DEPTH_CLAMP),
        rasterizer_discard: caps.has(cap::RASTERIZER_DISCARD),
        multisample: caps.has(cap::MULTISAMPLE),
        scissor: st.scissor_enable,
        line_smooth: caps.has(cap::LINE_SMOOTH),
        polygon_smooth: caps.has(cap::POLYGON_SMOOTH),
        program_point_size: caps.has(cap::PROGRAM_POINT_SIZE),
        point_origin_lower_left: st.point_sprite_coord_origin == LOWER_LEFT,
        clip_distance_mask: (caps.0 & 0xff) as u8,
        framebuffer_srgb: caps.has(cap::FRAMEBUFFER_SRGB),
        dither: caps.has(cap::DITHER),
        sample_shading: caps.has(cap::SAMPLE_SHADING),
        min_sample_shading: st.min_sample_shading.to_bits(),
        clip_upper_left: st.clip_origin == UPPER_LEFT,
        clip_zero_to_one: st.clip_depth_mode == ZERO_TO_ONE,
    }
}

/// Emits `BindBlendState` (creating the CSO on a miss) if the backend's differs.
pub fn emit_blend(st: &GlState, dev: &mut Emitter, shadow: &mut EmittedState) {
    let Emitter {
        enc, alloc, csos, ..
    } = dev;
    // The context's last two blend states by their GL values: a program that switches
    // between two (blending on and off) finds its CSO without building and hashing the key.
    let inputs = BlendInputs::of(st);
    let kept = shadow
        .blend_kept
        .iter()
        .flatten()
        .find(|(kept, _)| *kept == inputs)
        .map(|&(_, cso)| cso)
        .filter(|&cso| csos.blend.is_live(cso));
    let cso = match kept {
        Some(cso) => {
            csos.blend.count_hit();
            cso
        }
        None => {
            let cso =
                csos.blend
                    .get_or_create(&blend_state(st), alloc, enc, create_blend, destroy_blend);
            shadow.blend_kept = [Some((inputs, cso)), shadow.blend_kept[0]];
            cso
        }
    };
    if shadow.blend != Some(cso) {
        csos.blend.rebind(shadow.blend, Some(cso));
        shadow.blend = Some(cso);
        enc.push(Record::BindBlendState { cso });
    }
}

/// `CreateBlendState` of a blend CSO.
fn create_blend(cso: BlendHandle, state: &BlendState) -> Record {
    Record::CreateBlendState {
        cso,
        state: Box::new(*state),
    }
}

/// `DestroyBlendState` of an evicted blend CSO.
fn destroy_blend(cso: BlendHandle) -> Record {
    Record::DestroyBlendState { cso }
}

/// Emits `BindDepthStencilState` if the backend's differs.
pub fn emit_depth_stencil(st: &GlState, dev: &mut Emitter, shadow: &mut EmittedState) {
    let key = depth_stencil_state(st);
    let Emitter {
        enc, alloc, csos, ..
    } = dev;
    let cso = csos.depth_stencil.get_or_create(
        &key,
        alloc,
        enc,
        |cso, state| Record::CreateDepthStencilState { cso, state: *state },
        |cso| Record::DestroyDepthStencilState { cso },
    );
    if shadow.depth_stencil != Some(cso) {
        csos.depth_stencil.rebind(shadow.depth_stencil, Some(cso));
        shadow.depth_stencil = Some(cso);
        enc.push(Record::BindDepthStencilState { cso });
    }
}

/// Emits `BindRasterState` if the backend's differs.
pub fn emit_raster(st: &GlState, dev: &mut Emitter, shadow: &mut EmittedState) {
    let key = raster_state(st);
    let Emitter {
        enc, alloc, csos, ..
    } = dev;
    let cso = csos.raster.get_or_create(
        &key,
        alloc,
        enc,
        |cso, state| Record::CreateRasterState {
            cso,
            state: Box::new(*state),
        },
        |cso| Record::DestroyRasterState { cso },
    );
    if shadow.raster != Some(cso) {
        csos.raster.rebind(shadow.raster, Some(cso));
        shadow.raster = Some(cso);
        enc.push(Record::BindRasterState { cso });
    }
}

fn rect(v: [GLint; 4]) -> Rect {
    Rect {
        x: v[0],
        y: v[1],
        width: v[2],
        height: v[3],
    }
}

/// Calls `emit(first, count, value)` once for each run of consecutive indices whose value
/// differs from the emitted one and equals its neighbours', and records them as emitted:
/// `glViewport` and `glScissor` set all 16 alike, so the single-viewport case is one
/// record.
fn emit_runs<T: Copy + PartialEq>(
    values: &[T; MAX_VIEWPORTS],
    emitted: &mut [Option<T>; MAX_VIEWPORTS],
    mut emit: impl FnMut(u8, u8, T),
) {
    let mut i = 0;
    while i < MAX_VIEWPORTS {
        if emitted[i] == Some(values[i]) {
            i += 1;
            continue;
        }
        let first = i;
        while i < MAX_VIEWPORTS && values[i] == values[first] && emitted[i] != Some(values[i]) {
            emitted[i] = Some(values[i]);
            i += 1;
        }
        emit(first as u8, (i - first) as u8, values[first]);
    }
}

/// `SetViewport`: the viewports and depth ranges that changed, a run of equal ones in
/// one record.
pub fn emit_viewport(st: &GlState, dev: &mut Emitter, shadow: &mut EmittedState) {
    let values: [([f32; 4], f32, f32); MAX_VIEWPORTS] = std::array::from_fn(|i| {
        let [near, far] = st.depth_ranges[i];
        (st.viewports[i], near as f32, far as f32)
    });
    emit_runs(&values, &mut shadow.viewports, |first, count, v| {
        dev.push(Record::SetViewport {
            first,
            count,
            rect: v.0,
            near: v.1,
            far: v.2,
        });
    });
}

/// `SetScissor`: the scissor rectangles that changed, a run of equal ones in one record.
pub fn emit_scissor(st: &GlState, dev: &mut Emitter, shadow: &mut EmittedState) {
    let values = st.scissors.map(rect);
    emit_runs(&values, &mut shadow.scissors, |first, count, rect| {
        dev.push(Record::SetScissor { first, count, rect });
    });
}

/// `SetBlendColor`.
pub fn emit_blend_color(st: &GlState, dev: &mut Emitter, shadow: &mut EmittedState) {
    if changed(&mut shadow.blend_color, st.blend_color) {
        dev.push(Record::SetBlendColor {
            color: st.blend_color,
        });
    }
}

/// `SetStencilRef`: GL clamps the reference to the stencil range at use; stencil buffers have
/// at most 8 bits here.
pub fn emit_stencil_ref(st: &GlState, dev: &mut Emitter, shadow: &mut EmittedState) {
    let clamp = |r: GLint| r.clamp(0, 255) as u8;
    let value = (
        clamp(st.stencil[0].reference),
        clamp(st.stencil[1].reference),
    );
    if changed(&mut shadow.stencil_ref, value) {
        dev.push(Record::SetStencilRef {
            front: value.0,
            back: value.1,
        });
    }
}

/// `SetDepthBias`.
pub fn emit_depth_bias(st: &GlState, dev: &mut Emitter, shadow: &mut EmittedState) {
    // A NaN clamp is no clamp, as 0 is (GL 4.6 §14.6.5); sent as 0 so that the shadow
    // compares equal and backends see one encoding.
    let clamp = if st.polygon_offset_clamp.is_nan() {
        0.0
    } else {
        st.polygon_offset_clamp
    };
    let value = (st.polygon_offset_factor, st.polygon_offset_units, clamp);
    if changed(&mut shadow.depth_bias, value) {
        dev.push(Record::SetDepthBias {
            factor: value.0,
            units: value.1,
            clamp: value.2,
        });
    }
}

/// `SetLineWidth`.
pub fn emit_line_width(st: &GlState, dev: &mut Emitter, shadow: &mut EmittedState) {
    if changed(&mut shadow.line_width, st.line_width) {
        dev.push(Record::SetLineWidth {
            width: st.line_width,
        });
    }
}

/// `SetPointSize`.
pub fn emit_point_size(st: &GlState, dev: &mut Emitter, shadow: &mut EmittedState) {
    if changed(&mut shadow.point_size, st.point_size) {
        dev.push(Record::SetPointSize {
            size: st.point_size,
        });
    }
}

/// `SetPatchVertices`.
pub fn emit_patch_vertices(st: &GlState, dev: &mut Emitter, shadow: &mut EmittedState) {
    // glPatchParameteri keeps the count within 1..=MAX_PATCH_VERTICES (at most 32).
    let count = st.patch_vertices.clamp(1, 32) as u8;
    if changed(&mut shadow.patch_vertices, count) {
        dev.push(Record::SetPatchVertices { count });
    }
}

/// `SetSampleMask`.
pub fn emit_sample_mask(st: &GlState, dev: &mut Emitter, shadow: &mut EmittedState) {
    let coverage = st
        .caps
        .has(cap::SAMPLE_COVERAGE)
        .then_some(st.sample_coverage_value);
    let invert = coverage.is_some() && st.sample_coverage_invert;
    let mask = st
        .caps
        .has(cap::SAMPLE_MASK)
        .then_some(st.sample_mask_value);
    if changed(&mut shadow.sample_mask, (coverage, invert, mask)) {
        dev.push(Record::SetSampleMask {
            coverage,
            invert,
            mask,
        });
    }
}

/// `SetPrimitiveRestart`.
pub fn emit_primitive_restart(st: &GlState, dev: &mut Emitter, shadow: &mut EmittedState) {
    let value = (
        st.caps.has(cap::PRIMITIVE_RESTART),
        st.primitive_restart_index,
        st.caps.has(cap::PRIMITIVE_RESTART_FIXED_INDEX),
    );
    if changed(&mut shadow.primitive_restart, value) {
        dev.push(Record::SetPrimitiveRestart {
            enabled: value.0,
            index: value.1,
            fixed: value.2,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blend CSOs `emit_blend` created so far.
    fn created(dev: &Emitter) -> Vec<BlendHandle> {
        dev.enc
            .records()
            .iter()
            .filter_map(|r| match r {
                Record::CreateBlendState { cso, .. } => Some(*cso),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn kept_blend_csos_are_reused_and_an_evicted_one_is_made_again() {
        let mut dev = Emitter::new(4);
        let mut shadow = EmittedState::default();
        let mut st = GlState::new(64, 64, true);
        emit_blend(&st, &mut dev, &mut shadow);
        let off = shadow.blend.expect("bound");
        st.blend_enable = 0xff;
        st.blend_src_rgb = [SRC_ALPHA; MAX_DRAW_BUFFERS];
        emit_blend(&st, &mut dev, &mut shadow);
        let on = shadow.blend.expect("bound");
        assert_ne!(off, on);
        // Toggling between the two creates nothing and binds the kept CSOs.
        for _ in 0..3 {
            st.blend_enable = 0;
            emit_blend(&st, &mut dev, &mut shadow);
            assert_eq!(shadow.blend, Some(off));
            st.blend_enable = 0xff;
            emit_blend(&st, &mut dev, &mut shadow);
            assert_eq!(shadow.blend, Some(on));
        }
        assert_eq!(created(&dev), [off, on]);
        assert_eq!(dev.csos.blend.stats().hits, 6);
        // Other keys fill the cache of 4, and a miss evicts the oldest unbound CSO: `off`,
        // which the context still keeps.
        let (alloc, enc) = (&mut dev.alloc, &mut dev.enc);
        for equation in [BlendOp::Subtract, BlendOp::Min, BlendOp::Max] {
            let mut key = BlendState::default();
            key.funcs[0].op_rgb = equation;
            dev.csos
                .blend
                .get_or_create(&key, alloc, enc, create_blend, destroy_blend);
        }
        assert!(!dev.csos.blend.is_live(off));
        st.blend_enable = 0;
        emit_blend(&st, &mut dev, &mut shadow);
        let again = shadow.blend.expect("bound");
        assert_ne!(again, off, "an evicted CSO is never bound again");
        assert!(dev.csos.blend.is_live(again));
        assert_eq!(created(&dev).last(), Some(&again));
    }
}

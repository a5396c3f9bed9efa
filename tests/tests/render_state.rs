//! Render state setters: set/get round trips and every error GL 3.3 core lists for them
//! (checked against Mesa llvmpipe), with the state unchanged after each error.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_tests::{assert_error, assert_no_error, context};

use crate::state_query::{
    CAPABILITIES, assert_bools, assert_enum, assert_floats, assert_ints, assert_norms, indexed,
    views,
};

const T: GLboolean = TRUE as GLboolean;
const F: GLboolean = FALSE as GLboolean;

/// Enum state of one pname.
fn get_enum(ctx: &mut Context, pname: GLenum) -> GLenum {
    ctx.get_integer(pname) as GLenum
}

#[test]
fn every_capability_enables_and_disables() {
    let mut ctx = context();
    for (cap, initial) in CAPABILITIES {
        assert_eq!(ctx.is_enabled(cap), GLboolean::from(initial), "{cap:#x}");
        ctx.enable(cap);
        assert_no_error!(ctx);
        assert_eq!(ctx.is_enabled(cap), T, "{cap:#x}");
        assert_bools(&mut ctx, cap, &[true]);
        ctx.disable(cap);
        assert_no_error!(ctx);
        assert_eq!(ctx.is_enabled(cap), F, "{cap:#x}");
        assert_bools(&mut ctx, cap, &[false]);
        // Enabling one capability leaves the others alone.
        ctx.enable(cap);
        for (other, other_initial) in CAPABILITIES {
            if other != cap {
                assert_eq!(ctx.is_enabled(other), GLboolean::from(other_initial));
            }
        }
        if !initial {
            ctx.disable(cap);
        }
    }
    assert_no_error!(ctx);
}

#[test]
fn unknown_capabilities_are_invalid_enum() {
    let mut ctx = context();
    // Made up, and compatibility-profile capabilities GL 3.3 core removed (LIGHTING,
    // ALPHA_TEST, TEXTURE_2D, POINT_SPRITE, POINT_SMOOTH).
    for cap in [0x1234, 0x0B50, 0x0BC0, TEXTURE_2D, 0x8861, 0x0B10] {
        ctx.enable(cap);
        assert_error!(ctx, INVALID_ENUM, "enable {cap:#x}");
        ctx.disable(cap);
        assert_error!(ctx, INVALID_ENUM, "disable {cap:#x}");
        assert_eq!(ctx.is_enabled(cap), F);
        assert_error!(ctx, INVALID_ENUM, "is_enabled {cap:#x}");
    }
    for (cap, initial) in CAPABILITIES {
        assert_eq!(ctx.is_enabled(cap), GLboolean::from(initial), "{cap:#x}");
    }
}

#[test]
fn blend_is_indexed_by_draw_buffer() {
    let mut ctx = context();
    ctx.enablei(BLEND, 2);
    assert_no_error!(ctx);
    assert_eq!(ctx.is_enabledi(BLEND, 2), T);
    assert_eq!(ctx.is_enabledi(BLEND, 0), F);
    assert_eq!(ctx.is_enabled(BLEND), F, "BLEND reads draw buffer 0");
    assert_eq!(indexed(&mut ctx, BLEND, 2, 1), [1]);
    assert_eq!(indexed(&mut ctx, BLEND, 3, 1), [0]);
    ctx.enable(BLEND);
    for i in 0..8 {
        assert_eq!(ctx.is_enabledi(BLEND, i), T, "buffer {i}");
    }
    ctx.disablei(BLEND, 0);
    assert_eq!(ctx.is_enabled(BLEND), F);
    assert_bools(&mut ctx, BLEND, &[false]);
    assert_eq!(ctx.is_enabledi(BLEND, 7), T);
    ctx.disable(BLEND);
    assert_eq!(ctx.is_enabledi(BLEND, 7), F);
    assert_no_error!(ctx);

    ctx.enablei(BLEND, 8);
    assert_error!(ctx, INVALID_VALUE, "index past MAX_DRAW_BUFFERS");
    ctx.disablei(BLEND, 8);
    assert_error!(ctx, INVALID_VALUE);
    assert_eq!(ctx.is_enabledi(BLEND, 8), F);
    assert_error!(ctx, INVALID_VALUE);
    // The only other indexed capability is GL 4.1's SCISSOR_TEST (tests/viewport_array.rs).
    for cap in [DEPTH_TEST, 0x1234] {
        ctx.enablei(cap, 0);
        assert_error!(ctx, INVALID_ENUM, "enablei {cap:#x}");
        ctx.disablei(cap, 0);
        assert_error!(ctx, INVALID_ENUM, "disablei {cap:#x}");
        assert_eq!(ctx.is_enabledi(cap, 0), F);
        assert_error!(ctx, INVALID_ENUM, "is_enabledi {cap:#x}");
    }
    assert_eq!(ctx.is_enabled(SCISSOR_TEST), F);
    assert_eq!(ctx.is_enabled(DEPTH_TEST), F);
    for i in 0..8 {
        assert_eq!(ctx.is_enabledi(BLEND, i), F);
    }
}

#[test]
fn blend_functions_and_equations() {
    let mut ctx = context();
    ctx.blend_func(SRC_ALPHA, ONE_MINUS_SRC_ALPHA);
    assert_no_error!(ctx);
    assert_enum(&mut ctx, BLEND_SRC_RGB, SRC_ALPHA);
    assert_enum(&mut ctx, BLEND_SRC_ALPHA, SRC_ALPHA);
    assert_enum(&mut ctx, BLEND_DST_RGB, ONE_MINUS_SRC_ALPHA);
    assert_enum(&mut ctx, BLEND_DST_ALPHA, ONE_MINUS_SRC_ALPHA);
    ctx.blend_func_separate(CONSTANT_COLOR, SRC1_COLOR, ONE, SRC_ALPHA_SATURATE);
    assert_no_error!(ctx);
    let state = |ctx: &mut Context| {
        [
            BLEND_SRC_RGB,
            BLEND_DST_RGB,
            BLEND_SRC_ALPHA,
            BLEND_DST_ALPHA,
        ]
        .map(|p| get_enum(ctx, p))
    };
    assert_eq!(
        state(&mut ctx),
        [CONSTANT_COLOR, SRC1_COLOR, ONE, SRC_ALPHA_SATURATE]
    );
    ctx.blend_func(0x1234, ZERO);
    assert_error!(ctx, INVALID_ENUM);
    ctx.blend_func(ONE, 0x1234);
    assert_error!(ctx, INVALID_ENUM);
    for bad in 0..4 {
        let mut f = [ZERO, ONE, ZERO, ONE];
        f[bad] = 0x1234;
        ctx.blend_func_separate(f[0], f[1], f[2], f[3]);
        assert_error!(ctx, INVALID_ENUM, "factor {bad}");
    }
    assert_eq!(
        state(&mut ctx),
        [CONSTANT_COLOR, SRC1_COLOR, ONE, SRC_ALPHA_SATURATE]
    );

    ctx.blend_equation(MAX);
    assert_no_error!(ctx);
    assert_enum(&mut ctx, BLEND_EQUATION_RGB, MAX);
    assert_enum(&mut ctx, BLEND_EQUATION_ALPHA, MAX);
    ctx.blend_equation_separate(FUNC_REVERSE_SUBTRACT, MIN);
    assert_no_error!(ctx);
    ctx.blend_equation(0x1234);
    assert_error!(ctx, INVALID_ENUM);
    ctx.blend_equation(0x0BF1 /* LOGIC_OP */);
    assert_error!(ctx, INVALID_ENUM, "LOGIC_OP is no blend equation");
    ctx.blend_equation_separate(FUNC_ADD, 0x1234);
    assert_error!(ctx, INVALID_ENUM);
    ctx.blend_equation_separate(0x1234, FUNC_ADD);
    assert_error!(ctx, INVALID_ENUM);
    assert_enum(&mut ctx, BLEND_EQUATION_RGB, FUNC_REVERSE_SUBTRACT);
    assert_enum(&mut ctx, BLEND_EQUATION_ALPHA, MIN);
}

#[test]
fn blend_colour_colour_masks_and_logic_op() {
    let mut ctx = context();
    ctx.blend_color(0.5, -0.5, 2.0, 1.0);
    assert_norms(
        &mut ctx,
        BLEND_COLOR,
        &[0.5, -0.5, 2.0, 1.0],
        &[1073741823, -1073741823, i32::MAX, i32::MAX],
    );

    ctx.color_mask(T, F, T, F);
    assert_bools(&mut ctx, COLOR_WRITEMASK, &[true, false, true, false]);
    for i in 0..8 {
        assert_eq!(indexed(&mut ctx, COLOR_WRITEMASK, i, 4), [1, 0, 1, 0]);
    }
    ctx.color_maski(3, F, T, F, T);
    assert_no_error!(ctx);
    assert_eq!(indexed(&mut ctx, COLOR_WRITEMASK, 3, 4), [0, 1, 0, 1]);
    assert_bools(&mut ctx, COLOR_WRITEMASK, &[true, false, true, false]);
    ctx.color_maski(0, F, F, F, T);
    assert_bools(&mut ctx, COLOR_WRITEMASK, &[false, false, false, true]);
    ctx.color_maski(8, T, T, T, T);
    assert_error!(ctx, INVALID_VALUE, "index past MAX_DRAW_BUFFERS");
    assert_eq!(indexed(&mut ctx, COLOR_WRITEMASK, 7, 4), [1, 0, 1, 0]);
    // Any non-zero GLboolean is true.
    ctx.color_mask(2, 0, 255, 1);
    assert_bools(&mut ctx, COLOR_WRITEMASK, &[true, false, true, true]);

    ctx.logic_op(XOR);
    assert_no_error!(ctx);
    assert_enum(&mut ctx, LOGIC_OP_MODE, XOR);
    ctx.logic_op(0x1234);
    assert_error!(ctx, INVALID_ENUM);
    ctx.logic_op(FUNC_ADD);
    assert_error!(ctx, INVALID_ENUM);
    assert_enum(&mut ctx, LOGIC_OP_MODE, XOR);
}

#[test]
fn depth_state() {
    let mut ctx = context();
    ctx.depth_func(GEQUAL);
    assert_no_error!(ctx);
    assert_enum(&mut ctx, DEPTH_FUNC, GEQUAL);
    ctx.depth_func(0x1234);
    assert_error!(ctx, INVALID_ENUM);
    ctx.depth_func(KEEP);
    assert_error!(ctx, INVALID_ENUM);
    assert_enum(&mut ctx, DEPTH_FUNC, GEQUAL);

    ctx.depth_mask(F);
    assert_bools(&mut ctx, DEPTH_WRITEMASK, &[false]);
    ctx.depth_mask(7);
    assert_bools(&mut ctx, DEPTH_WRITEMASK, &[true]);

    // Values clamp to [0, 1]; reversed ranges are allowed.
    ctx.depth_range(0.75, 0.25);
    assert_norms(
        &mut ctx,
        DEPTH_RANGE,
        &[0.75, 0.25],
        &[1610612735, 536870911],
    );
    ctx.depth_range(-1.0, 1.5);
    assert_norms(&mut ctx, DEPTH_RANGE, &[0.0, 1.0], &[0, i32::MAX]);
    ctx.depth_rangef(0.5, 0.0);
    assert_norms(&mut ctx, DEPTH_RANGE, &[0.5, 0.0], &[1073741823, 0]);
    ctx.clear_depth(2.0);
    assert_norms(&mut ctx, DEPTH_CLEAR_VALUE, &[1.0], &[i32::MAX]);
    ctx.clear_depthf(0.25);
    assert_norms(&mut ctx, DEPTH_CLEAR_VALUE, &[0.25], &[536870911]);
    ctx.clear_depth(-3.0);
    assert_norms(&mut ctx, DEPTH_CLEAR_VALUE, &[0.0], &[0]);
    assert_no_error!(ctx);
}

/// Front and back stencil state as (func, ref, value mask, fail, zfail, zpass, write mask).
fn stencil(ctx: &mut Context) -> [[i64; 7]; 2] {
    let get = |ctx: &mut Context, p| views(ctx, p, 1).int64s[0];
    [
        [
            get(ctx, STENCIL_FUNC),
            get(ctx, STENCIL_REF),
            get(ctx, STENCIL_VALUE_MASK),
            get(ctx, STENCIL_FAIL),
            get(ctx, STENCIL_PASS_DEPTH_FAIL),
            get(ctx, STENCIL_PASS_DEPTH_PASS),
            get(ctx, STENCIL_WRITEMASK),
        ],
        [
            get(ctx, STENCIL_BACK_FUNC),
            get(ctx, STENCIL_BACK_REF),
            get(ctx, STENCIL_BACK_VALUE_MASK),
            get(ctx, STENCIL_BACK_FAIL),
            get(ctx, STENCIL_BACK_PASS_DEPTH_FAIL),
            get(ctx, STENCIL_BACK_PASS_DEPTH_PASS),
            get(ctx, STENCIL_BACK_WRITEMASK),
        ],
    ]
}

#[test]
fn stencil_state_per_face() {
    let mut ctx = context();
    let e = |v: GLenum| i64::from(v);
    ctx.stencil_func(LEQUAL, 3, 0xF0);
    ctx.stencil_op(ZERO, INCR_WRAP, INVERT);
    ctx.stencil_mask(0x0F);
    assert_no_error!(ctx);
    let both = [e(LEQUAL), 3, 0xF0, e(ZERO), e(INCR_WRAP), e(INVERT), 0x0F];
    assert_eq!(stencil(&mut ctx), [both, both]);

    ctx.stencil_func_separate(BACK, GREATER, 5, 0x3);
    ctx.stencil_op_separate(FRONT, REPLACE, DECR, INCR);
    ctx.stencil_mask_separate(BACK, 0x80);
    assert_no_error!(ctx);
    let front = [e(LEQUAL), 3, 0xF0, e(REPLACE), e(DECR), e(INCR), 0x0F];
    let back = [e(GREATER), 5, 0x3, e(ZERO), e(INCR_WRAP), e(INVERT), 0x80];
    assert_eq!(stencil(&mut ctx), [front, back]);
    ctx.stencil_func_separate(FRONT_AND_BACK, NEVER, 1, 1);
    ctx.stencil_op_separate(FRONT_AND_BACK, KEEP, KEEP, DECR_WRAP);
    ctx.stencil_mask_separate(FRONT_AND_BACK, 0x55);
    let both = [e(NEVER), 1, 1, e(KEEP), e(KEEP), e(DECR_WRAP), 0x55];
    assert_eq!(stencil(&mut ctx), [both, both]);
    ctx.clear_stencil(0x1234);
    assert_ints(&mut ctx, STENCIL_CLEAR_VALUE, &[0x1234]);
    assert_no_error!(ctx);

    ctx.stencil_func(0x1234, 0, 0);
    assert_error!(ctx, INVALID_ENUM, "bad function");
    ctx.stencil_func_separate(0x1234, LESS, 0, 0);
    assert_error!(ctx, INVALID_ENUM, "bad face");
    ctx.stencil_func_separate(FRONT, INVERT, 0, 0);
    assert_error!(ctx, INVALID_ENUM, "an op is no function");
    ctx.stencil_op(KEEP, KEEP, 0x1234);
    assert_error!(ctx, INVALID_ENUM, "bad op");
    ctx.stencil_op(LESS, KEEP, KEEP);
    assert_error!(ctx, INVALID_ENUM, "a function is no op");
    ctx.stencil_op_separate(0x1234, KEEP, KEEP, KEEP);
    assert_error!(ctx, INVALID_ENUM, "bad face");
    ctx.stencil_op_separate(BACK, KEEP, 0x1234, KEEP);
    assert_error!(ctx, INVALID_ENUM);
    ctx.stencil_mask_separate(0x1234, 0);
    assert_error!(ctx, INVALID_ENUM, "bad face");
    ctx.stencil_func_separate(LEFT, LESS, 0, 0);
    assert_error!(ctx, INVALID_ENUM, "LEFT is no face");
    assert_eq!(stencil(&mut ctx), [both, both]);
}

#[test]
fn rasterization_state() {
    let mut ctx = context();
    ctx.cull_face(FRONT_AND_BACK);
    ctx.front_face(CW);
    ctx.polygon_mode(FRONT_AND_BACK, LINE);
    ctx.provoking_vertex(FIRST_VERTEX_CONVENTION);
    ctx.polygon_offset(1.5, -2.0);
    assert_no_error!(ctx);
    let check = |ctx: &mut Context| {
        assert_enum(ctx, CULL_FACE_MODE, FRONT_AND_BACK);
        assert_enum(ctx, FRONT_FACE, CW);
        assert_ints(ctx, POLYGON_MODE, &[i64::from(LINE), i64::from(LINE)]);
        assert_enum(ctx, PROVOKING_VERTEX, FIRST_VERTEX_CONVENTION);
        assert_floats(ctx, POLYGON_OFFSET_FACTOR, &[1.5]);
        assert_floats(ctx, POLYGON_OFFSET_UNITS, &[-2.0]);
    };
    check(&mut ctx);
    ctx.cull_face(0x1234);
    assert_error!(ctx, INVALID_ENUM);
    ctx.cull_face(CW);
    assert_error!(ctx, INVALID_ENUM);
    ctx.front_face(0x1234);
    assert_error!(ctx, INVALID_ENUM);
    ctx.front_face(BACK);
    assert_error!(ctx, INVALID_ENUM);
    ctx.polygon_mode(FRONT, FILL);
    assert_error!(ctx, INVALID_ENUM, "core: FRONT_AND_BACK only");
    ctx.polygon_mode(BACK, FILL);
    assert_error!(ctx, INVALID_ENUM, "core: FRONT_AND_BACK only");
    ctx.polygon_mode(FRONT_AND_BACK, 0x1234);
    assert_error!(ctx, INVALID_ENUM);
    ctx.provoking_vertex(0x1234);
    assert_error!(ctx, INVALID_ENUM);
    check(&mut ctx);
}

#[test]
fn line_width_and_point_size_must_be_positive() {
    let mut ctx = context();
    ctx.line_width(2.5);
    ctx.point_size(4.0);
    assert_no_error!(ctx);
    for bad in [0.0, -1.0, f32::NAN] {
        ctx.line_width(bad);
        assert_error!(ctx, INVALID_VALUE, "line width {bad}");
        ctx.point_size(bad);
        assert_error!(ctx, INVALID_VALUE, "point size {bad}");
    }
    assert_floats(&mut ctx, LINE_WIDTH, &[2.5]);
    assert_floats(&mut ctx, POINT_SIZE, &[4.0]);
}

#[test]
fn point_parameters() {
    let mut ctx = context();
    ctx.point_parameterf(POINT_FADE_THRESHOLD_SIZE, 2.5);
    assert_no_error!(ctx);
    assert_floats(&mut ctx, POINT_FADE_THRESHOLD_SIZE, &[2.5]);
    ctx.point_parameteri(POINT_FADE_THRESHOLD_SIZE, 3);
    assert_floats(&mut ctx, POINT_FADE_THRESHOLD_SIZE, &[3.0]);
    ctx.point_parameterf(POINT_FADE_THRESHOLD_SIZE, 0.0);
    assert_error!(ctx, NO_ERROR, "zero is allowed");
    ctx.point_parameteri(POINT_SPRITE_COORD_ORIGIN, LOWER_LEFT as GLint);
    assert_no_error!(ctx);
    assert_enum(&mut ctx, POINT_SPRITE_COORD_ORIGIN, LOWER_LEFT);
    ctx.point_parameterf(POINT_SPRITE_COORD_ORIGIN, UPPER_LEFT as GLfloat);
    assert_enum(&mut ctx, POINT_SPRITE_COORD_ORIGIN, UPPER_LEFT);
    ctx.point_parameteri(POINT_SPRITE_COORD_ORIGIN, LOWER_LEFT as GLint);

    ctx.point_parameterf(POINT_FADE_THRESHOLD_SIZE, -1.0);
    assert_error!(ctx, INVALID_VALUE, "negative fade threshold");
    // GL 3.3 names INVALID_ENUM for a bad origin; Mesa raises INVALID_VALUE.
    ctx.point_parameteri(POINT_SPRITE_COORD_ORIGIN, 0x1234);
    assert_error!(ctx, INVALID_ENUM, "bad origin");
    // POINT_SIZE_MIN is compatibility-only (Mesa accepts it).
    ctx.point_parameterf(0x8126, 1.0);
    assert_error!(ctx, INVALID_ENUM, "bad pname");
    ctx.point_parameteri(0x1234, 1);
    assert_error!(ctx, INVALID_ENUM, "bad pname");
    assert_floats(&mut ctx, POINT_FADE_THRESHOLD_SIZE, &[0.0]);
    assert_enum(&mut ctx, POINT_SPRITE_COORD_ORIGIN, LOWER_LEFT);
}

#[test]
fn multisample_coverage_and_mask() {
    let mut ctx = context();
    ctx.sample_coverage(0.5, T);
    assert_no_error!(ctx);
    assert_floats(&mut ctx, SAMPLE_COVERAGE_VALUE, &[0.5]);
    assert_bools(&mut ctx, SAMPLE_COVERAGE_INVERT, &[true]);
    ctx.sample_coverage(3.0, F);
    assert_floats(&mut ctx, SAMPLE_COVERAGE_VALUE, &[1.0]);
    assert_bools(&mut ctx, SAMPLE_COVERAGE_INVERT, &[false]);
    ctx.sample_coverage(-3.0, F);
    assert_floats(&mut ctx, SAMPLE_COVERAGE_VALUE, &[0.0]);

    ctx.sample_maski(0, 0x5);
    assert_no_error!(ctx);
    assert_eq!(indexed(&mut ctx, SAMPLE_MASK_VALUE, 0, 1), [5]);
    ctx.sample_maski(1, 0xff);
    assert_error!(ctx, INVALID_VALUE, "index past MAX_SAMPLE_MASK_WORDS");
    assert_eq!(indexed(&mut ctx, SAMPLE_MASK_VALUE, 0, 1), [5]);
}

#[test]
fn viewport_and_scissor() {
    let mut ctx = context();
    ctx.viewport(1, -2, 30, 40);
    ctx.scissor(-1, -2, 3, 4);
    assert_no_error!(ctx);
    assert_ints(&mut ctx, VIEWPORT, &[1, -2, 30, 40]);
    assert_ints(&mut ctx, SCISSOR_BOX, &[-1, -2, 3, 4]);
    // Viewport sizes clamp to MAX_VIEWPORT_DIMS (scissor boxes do not).
    let max = views(&mut ctx, MAX_VIEWPORT_DIMS, 2).int64s;
    ctx.viewport(0, 0, 100_000, 5);
    ctx.scissor(0, 0, 100_000, 5);
    assert_no_error!(ctx);
    assert_ints(&mut ctx, VIEWPORT, &[0, 0, max[0], 5]);
    assert_ints(&mut ctx, SCISSOR_BOX, &[0, 0, 100_000, 5]);
    ctx.viewport(0, 0, 0, 0);
    ctx.scissor(0, 0, 0, 0);
    assert_error!(ctx, NO_ERROR, "zero sizes are allowed");
    ctx.viewport(7, 7, -1, 1);
    assert_error!(ctx, INVALID_VALUE);
    ctx.viewport(7, 7, 1, -1);
    assert_error!(ctx, INVALID_VALUE);
    ctx.scissor(7, 7, -1, 1);
    assert_error!(ctx, INVALID_VALUE);
    ctx.scissor(7, 7, 1, -1);
    assert_error!(ctx, INVALID_VALUE);
    assert_ints(&mut ctx, VIEWPORT, &[0, 0, 0, 0]);
    assert_ints(&mut ctx, SCISSOR_BOX, &[0, 0, 0, 0]);
}

#[test]
fn clear_values_and_primitive_restart_index() {
    let mut ctx = context();
    ctx.clear_color(0.25, 0.5, 0.75, -0.25);
    assert_norms(
        &mut ctx,
        COLOR_CLEAR_VALUE,
        &[0.25, 0.5, 0.75, -0.25],
        &[536870911, 1073741823, 1610612735, -536870911],
    );
    ctx.clear_stencil(-3);
    assert_ints(&mut ctx, STENCIL_CLEAR_VALUE, &[-3]);
    ctx.primitive_restart_index(65535);
    assert_ints(&mut ctx, PRIMITIVE_RESTART_INDEX, &[65535]);
    assert_no_error!(ctx);
}

#[test]
fn hints() {
    let mut ctx = context();
    for (target, mode) in [
        (LINE_SMOOTH_HINT, NICEST),
        (POLYGON_SMOOTH_HINT, FASTEST),
        (TEXTURE_COMPRESSION_HINT, NICEST),
        (FRAGMENT_SHADER_DERIVATIVE_HINT, FASTEST),
    ] {
        ctx.hint(target, mode);
        assert_no_error!(ctx);
        assert_enum(&mut ctx, target, mode);
        ctx.hint(target, 0x1234);
        assert_error!(ctx, INVALID_ENUM, "bad mode for {target:#x}");
        assert_enum(&mut ctx, target, mode);
    }
    // Made up, and hints GL 3.2 core removed (PERSPECTIVE_CORRECTION, GENERATE_MIPMAP).
    for target in [0x1234, 0x0C50, 0x8192] {
        ctx.hint(target, NICEST);
        assert_error!(ctx, INVALID_ENUM, "bad target {target:#x}");
    }
    ctx.hint(LINE_SMOOTH_HINT, DONT_CARE);
    assert_enum(&mut ctx, LINE_SMOOTH_HINT, DONT_CARE);
    assert_enum(&mut ctx, POLYGON_SMOOTH_HINT, FASTEST);
}

#[test]
fn setters_with_the_current_value_change_nothing_and_errors_are_sticky() {
    let mut ctx = context();
    ctx.depth_func(LESS);
    ctx.cull_face(BACK);
    ctx.viewport(0, 0, 64, 64);
    assert_no_error!(ctx);
    ctx.depth_func(0x1234);
    ctx.line_width(0.0);
    ctx.viewport(0, 0, -1, -1);
    assert_error!(ctx, INVALID_ENUM, "the first error");
    assert_no_error!(ctx);
    assert_enum(&mut ctx, DEPTH_FUNC, LESS);
    assert_floats(&mut ctx, LINE_WIDTH, &[1.0]);
    assert_ints(&mut ctx, VIEWPORT, &[0, 0, 64, 64]);
}

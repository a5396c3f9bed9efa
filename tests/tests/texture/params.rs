//! Texture parameters: initial values per target, errors, set/get round trips and their
//! conversions, and the records a parameter change leads to.

use tessera_engine::gl::*;
use tessera_tests::{assert_error, assert_no_error, context};

use super::{bound, param, paramf};

/// Targets `tex_parameter` accepts, with whether their initial sampling state differs.
const TARGETS: [GLenum; 9] = [
    TEXTURE_1D,
    TEXTURE_2D,
    TEXTURE_3D,
    TEXTURE_1D_ARRAY,
    TEXTURE_2D_ARRAY,
    TEXTURE_RECTANGLE,
    TEXTURE_CUBE_MAP,
    TEXTURE_2D_MULTISAMPLE,
    TEXTURE_2D_MULTISAMPLE_ARRAY,
];

#[test]
fn initial_values_of_every_parameter_for_each_target() {
    let mut ctx = context();
    for target in TARGETS {
        bound(&mut ctx, target);
        let rect = target == TEXTURE_RECTANGLE;
        let ms = matches!(
            target,
            TEXTURE_2D_MULTISAMPLE | TEXTURE_2D_MULTISAMPLE_ARRAY
        );
        // Mesa reports NEAREST/CLAMP_TO_EDGE for multisample textures, which are never
        // filtered; rectangle textures start LINEAR/CLAMP_TO_EDGE (GL 3.3 table 6.18).
        let (min, mag, wrap) = match (rect, ms) {
            (true, _) => (LINEAR, LINEAR, CLAMP_TO_EDGE),
            (_, true) => (NEAREST, NEAREST, CLAMP_TO_EDGE),
            _ => (NEAREST_MIPMAP_LINEAR, LINEAR, REPEAT),
        };
        let expect = [
            (TEXTURE_MIN_FILTER, min as GLint),
            (TEXTURE_MAG_FILTER, mag as GLint),
            (TEXTURE_WRAP_S, wrap as GLint),
            (TEXTURE_WRAP_T, wrap as GLint),
            (TEXTURE_WRAP_R, wrap as GLint),
            (TEXTURE_MIN_LOD, -1000),
            (TEXTURE_MAX_LOD, 1000),
            (TEXTURE_BASE_LEVEL, 0),
            (TEXTURE_MAX_LEVEL, 1000),
            (TEXTURE_LOD_BIAS, 0),
            (TEXTURE_COMPARE_MODE, NONE as GLint),
            (TEXTURE_COMPARE_FUNC, LEQUAL as GLint),
            (TEXTURE_SWIZZLE_R, RED as GLint),
            (TEXTURE_SWIZZLE_G, GREEN as GLint),
            (TEXTURE_SWIZZLE_B, BLUE as GLint),
            (TEXTURE_SWIZZLE_A, ALPHA as GLint),
            (TEXTURE_MAX_ANISOTROPY, 1),
        ];
        for (pname, value) in expect {
            assert_eq!(
                param(&mut ctx, target, pname),
                value,
                "{target:#x} {pname:#x}"
            );
            assert_eq!(paramf(&mut ctx, target, pname), value as f32);
        }
        let mut border = [-1.0f32; 4];
        ctx.get_tex_parameterfv(target, TEXTURE_BORDER_COLOR, &mut border);
        assert_eq!(border, [0.0; 4]);
        let mut swizzle = [0; 4];
        ctx.get_tex_parameteriv(target, TEXTURE_SWIZZLE_RGBA, &mut swizzle);
        assert_eq!(swizzle, [RED, GREEN, BLUE, ALPHA].map(|v| v as GLint));
        assert_no_error!(ctx);
    }
}

#[test]
fn unknown_targets_and_pnames() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    bound(&mut ctx, TEXTURE_BUFFER);
    for target in [
        TEXTURE_BUFFER,
        TEXTURE_CUBE_MAP_POSITIVE_X,
        PROXY_TEXTURE_2D,
        0x1234,
    ] {
        ctx.tex_parameteri(target, TEXTURE_MIN_FILTER, NEAREST as GLint);
        assert_error!(ctx, INVALID_ENUM, "set on {target:#x}");
        assert_eq!(param(&mut ctx, target, TEXTURE_MIN_FILTER), -12345);
        assert_error!(ctx, INVALID_ENUM, "get on {target:#x}");
    }
    // Not core parameters: no parameter at all, and legacy ones (DEPTH_STENCIL_TEXTURE_MODE,
    // GL 4.3's, is one now: stencil_texturing.rs).
    for pname in [
        0x1234, // no parameter
        0x8191, // GENERATE_MIPMAP
        0x884B, // DEPTH_TEXTURE_MODE
        0x8066, // TEXTURE_PRIORITY
    ] {
        ctx.tex_parameteri(TEXTURE_2D, pname, 0);
        assert_error!(ctx, INVALID_ENUM, "set {pname:#x}");
        assert_eq!(param(&mut ctx, TEXTURE_2D, pname), -12345);
        assert_error!(ctx, INVALID_ENUM, "get {pname:#x}");
    }
    // Immutable storage's state (GL 4.2) is read-only.
    for pname in [TEXTURE_IMMUTABLE_FORMAT, TEXTURE_IMMUTABLE_LEVELS] {
        ctx.tex_parameteri(TEXTURE_2D, pname, 0);
        assert_error!(ctx, INVALID_ENUM, "set {pname:#x}");
        assert_eq!(param(&mut ctx, TEXTURE_2D, pname), 0);
        assert_error!(ctx, NO_ERROR, "get {pname:#x}");
    }
    // Vector-only parameters through the scalar calls.
    ctx.tex_parameteri(TEXTURE_2D, TEXTURE_BORDER_COLOR, 0);
    assert_error!(ctx, INVALID_ENUM);
    ctx.tex_parameterf(TEXTURE_2D, TEXTURE_SWIZZLE_RGBA, RED as f32);
    assert_error!(ctx, INVALID_ENUM);
}

#[test]
fn invalid_values() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    let enums = [
        (TEXTURE_MIN_FILTER, 0x1234),
        (TEXTURE_MAG_FILTER, LINEAR_MIPMAP_LINEAR),
        (TEXTURE_WRAP_S, 0x2900), // CLAMP (legacy)
        (TEXTURE_WRAP_T, 0x1234),
        (TEXTURE_COMPARE_MODE, 0x1234),
        (TEXTURE_COMPARE_FUNC, 0x1234),
        (TEXTURE_SWIZZLE_R, 0x1234),
        (TEXTURE_SWIZZLE_A, RGBA),
    ];
    for (pname, value) in enums {
        ctx.tex_parameteri(TEXTURE_2D, pname, value as GLint);
        assert_error!(ctx, INVALID_ENUM, "{pname:#x} = {value:#x}");
    }
    ctx.tex_parameteriv(
        TEXTURE_2D,
        TEXTURE_SWIZZLE_RGBA,
        &[RED as GLint, 0x1234, 0, 1],
    );
    assert_error!(ctx, INVALID_ENUM);
    assert_eq!(
        param(&mut ctx, TEXTURE_2D, TEXTURE_SWIZZLE_R),
        RED as GLint,
        "unchanged"
    );
    ctx.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, -1);
    assert_error!(ctx, INVALID_VALUE);
    ctx.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_LEVEL, -1);
    assert_error!(ctx, INVALID_VALUE);
    ctx.tex_parameterf(TEXTURE_2D, TEXTURE_MAX_ANISOTROPY, 0.5);
    assert_error!(ctx, INVALID_VALUE);
    assert_eq!(paramf(&mut ctx, TEXTURE_2D, TEXTURE_MAX_ANISOTROPY), 1.0);
    // A base level beyond any image is legal (the texture is just incomplete).
    ctx.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, 2000);
    assert_no_error!(ctx);
    assert_eq!(param(&mut ctx, TEXTURE_2D, TEXTURE_BASE_LEVEL), 2000);
}

#[test]
fn rectangle_and_multisample_restrictions() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_RECTANGLE);
    ctx.tex_parameteri(TEXTURE_RECTANGLE, TEXTURE_BASE_LEVEL, 1);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.tex_parameteri(TEXTURE_RECTANGLE, TEXTURE_BASE_LEVEL, 0);
    assert_no_error!(ctx);
    ctx.tex_parameteri(
        TEXTURE_RECTANGLE,
        TEXTURE_MIN_FILTER,
        NEAREST_MIPMAP_NEAREST as GLint,
    );
    assert_error!(ctx, INVALID_ENUM);
    ctx.tex_parameteri(TEXTURE_RECTANGLE, TEXTURE_WRAP_S, REPEAT as GLint);
    assert_error!(ctx, INVALID_ENUM);
    ctx.tex_parameteri(TEXTURE_RECTANGLE, TEXTURE_WRAP_R, MIRRORED_REPEAT as GLint);
    assert_error!(ctx, INVALID_ENUM);
    ctx.tex_parameteri(TEXTURE_RECTANGLE, TEXTURE_WRAP_T, CLAMP_TO_BORDER as GLint);
    ctx.tex_parameteri(TEXTURE_RECTANGLE, TEXTURE_MIN_FILTER, NEAREST as GLint);
    assert_no_error!(ctx);
    assert_eq!(
        param(&mut ctx, TEXTURE_RECTANGLE, TEXTURE_WRAP_T),
        CLAMP_TO_BORDER as GLint
    );

    bound(&mut ctx, TEXTURE_2D_MULTISAMPLE);
    let t = TEXTURE_2D_MULTISAMPLE;
    for pname in [TEXTURE_MIN_FILTER, TEXTURE_WRAP_S, TEXTURE_COMPARE_MODE] {
        ctx.tex_parameteri(t, pname, NEAREST as GLint);
        assert_error!(ctx, INVALID_ENUM, "sampler state {pname:#x}");
    }
    ctx.tex_parameterf(t, TEXTURE_MIN_LOD, 1.0);
    assert_error!(ctx, INVALID_ENUM);
    ctx.tex_parameteri(t, TEXTURE_BASE_LEVEL, 1);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.tex_parameteri(t, TEXTURE_BASE_LEVEL, 0);
    ctx.tex_parameteri(t, TEXTURE_MAX_LEVEL, 3);
    ctx.tex_parameteri(t, TEXTURE_SWIZZLE_G, ZERO as GLint);
    assert_no_error!(ctx);
    assert_eq!(param(&mut ctx, t, TEXTURE_SWIZZLE_G), ZERO as GLint);
}

#[test]
fn values_round_trip_with_gl_conversions() {
    let mut ctx = context();
    let t = TEXTURE_2D;
    bound(&mut ctx, t);
    let enums = [
        (TEXTURE_MIN_FILTER, LINEAR_MIPMAP_NEAREST),
        (TEXTURE_MAG_FILTER, NEAREST),
        (TEXTURE_WRAP_S, CLAMP_TO_BORDER),
        (TEXTURE_WRAP_T, MIRRORED_REPEAT),
        (TEXTURE_WRAP_R, CLAMP_TO_EDGE),
        (TEXTURE_COMPARE_MODE, COMPARE_REF_TO_TEXTURE),
        (TEXTURE_COMPARE_FUNC, NEVER),
        (TEXTURE_SWIZZLE_B, ONE),
    ];
    for (pname, value) in enums {
        ctx.tex_parameteri(t, pname, value as GLint);
        assert_no_error!(ctx);
        assert_eq!(param(&mut ctx, t, pname), value as GLint);
    }
    ctx.tex_parameteri(t, TEXTURE_BASE_LEVEL, 2);
    ctx.tex_parameteri(t, TEXTURE_MAX_LEVEL, 7);
    assert_eq!(param(&mut ctx, t, TEXTURE_BASE_LEVEL), 2);
    assert_eq!(param(&mut ctx, t, TEXTURE_MAX_LEVEL), 7);
    // Floats name enums and levels by rounding (Mesa).
    ctx.tex_parameterf(t, TEXTURE_MIN_FILTER, NEAREST as f32 + 0.4);
    assert_eq!(param(&mut ctx, t, TEXTURE_MIN_FILTER), NEAREST as GLint);
    ctx.tex_parameterf(t, TEXTURE_MIN_FILTER, NEAREST as f32 + 0.6);
    assert_eq!(param(&mut ctx, t, TEXTURE_MIN_FILTER), LINEAR as GLint);
    ctx.tex_parameterf(t, TEXTURE_BASE_LEVEL, 2.6);
    assert_eq!(param(&mut ctx, t, TEXTURE_BASE_LEVEL), 3);
    // Float state reads back exactly as a float and rounded as an integer.
    ctx.tex_parameterf(t, TEXTURE_MIN_LOD, -5.5);
    ctx.tex_parameterf(t, TEXTURE_MAX_LOD, 2.25);
    ctx.tex_parameteri(t, TEXTURE_LOD_BIAS, 3);
    assert_eq!(paramf(&mut ctx, t, TEXTURE_MIN_LOD), -5.5);
    assert_eq!(param(&mut ctx, t, TEXTURE_MIN_LOD), -6);
    assert_eq!(paramf(&mut ctx, t, TEXTURE_MAX_LOD), 2.25);
    assert_eq!(paramf(&mut ctx, t, TEXTURE_LOD_BIAS), 3.0);
    let mut u = [0u32];
    ctx.get_tex_parameter_iuiv(t, TEXTURE_MIN_LOD, &mut u);
    assert_eq!(u[0], (-6i32) as u32);
    // Anisotropy above the limit (16) is clamped to it (Mesa).
    ctx.tex_parameterf(t, TEXTURE_MAX_ANISOTROPY, 100.0);
    assert_eq!(paramf(&mut ctx, t, TEXTURE_MAX_ANISOTROPY), 16.0);
    ctx.tex_parameteriv(
        t,
        TEXTURE_SWIZZLE_RGBA,
        &[RED, RED, GREEN, ONE].map(|v| v as GLint),
    );
    let mut s = [0; 4];
    ctx.get_tex_parameter_iiv(t, TEXTURE_SWIZZLE_RGBA, &mut s);
    assert_eq!(s, [RED, RED, GREEN, ONE].map(|v| v as GLint));
    assert_no_error!(ctx);
}

#[test]
fn border_colour_conversions() {
    let mut ctx = context();
    let t = TEXTURE_2D;
    bound(&mut ctx, t);
    let get = |ctx: &mut tessera_engine::Context| {
        let (mut f, mut i, mut ii, mut ui) = ([0.0f32; 4], [0; 4], [0; 4], [0u32; 4]);
        ctx.get_tex_parameterfv(t, TEXTURE_BORDER_COLOR, &mut f);
        ctx.get_tex_parameteriv(t, TEXTURE_BORDER_COLOR, &mut i);
        ctx.get_tex_parameter_iiv(t, TEXTURE_BORDER_COLOR, &mut ii);
        ctx.get_tex_parameter_iuiv(t, TEXTURE_BORDER_COLOR, &mut ui);
        (f, i, ii, ui)
    };
    ctx.tex_parameterfv(t, TEXTURE_BORDER_COLOR, &[0.5, 1.0, 0.25, 2.0]);
    let (f, i, ii, _) = get(&mut ctx);
    assert_eq!(f, [0.5, 1.0, 0.25, 2.0]);
    // Colours map linearly onto the integer range (values above 1 saturate).
    assert_eq!(i, [1073741823, 2147483647, 536870911, 2147483647]);
    assert_eq!(ii, [0.5f32, 1.0, 0.25, 2.0].map(|v| v.to_bits() as i32));
    // Integers through `iv` are normalized: c -> (2c + 1) / (2^32 - 1) (GL 3.3 table 2.10).
    ctx.tex_parameteriv(
        t,
        TEXTURE_BORDER_COLOR,
        &[i32::MAX, 0, -i32::MAX, 0x4000_0000],
    );
    let (f, ..) = get(&mut ctx);
    assert_eq!(f, [1.0, 2.3283064e-10, -1.0, 0.5]);
    // `Iiv`/`Iuiv` keep the integers; `fv` reads their bits (Mesa).
    ctx.tex_parameter_iiv(t, TEXTURE_BORDER_COLOR, &[1, 2, -3, 4]);
    let (f, _, ii, ui) = get(&mut ctx);
    assert_eq!(ii, [1, 2, -3, 4]);
    assert_eq!(ui, [1, 2, (-3i32) as u32, 4]);
    assert_eq!(f.map(f32::to_bits), [1, 2, (-3i32) as u32, 4]);
    ctx.tex_parameter_iuiv(t, TEXTURE_BORDER_COLOR, &[1, 2, 3, u32::MAX]);
    let (_, _, ii, ui) = get(&mut ctx);
    assert_eq!(ui, [1, 2, 3, u32::MAX]);
    assert_eq!(ii, [1, 2, 3, -1]);
    assert_no_error!(ctx);
}

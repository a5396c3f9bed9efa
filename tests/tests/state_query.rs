//! `glGet*`: initial values of a fresh context (GL 3.3 tables 6.x), the conversions between
//! the typed queries (checked against Mesa llvmpipe), indexed state, strings and errors.
//!
//! The helpers here read one state value through all five typed queries; the other state
//! test modules use them too.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_tests::{assert_error, assert_no_error, context, surfaceless};

mod native;

/// Sentinels the queries must overwrite (or, past the value's length, leave alone).
const SENTINEL_I: GLint = -12345;
const SENTINEL_F: f32 = -12345.0;
const SENTINEL_B: GLboolean = 77;

/// One state value read through every typed query.
#[derive(Debug, PartialEq)]
pub(crate) struct Views {
    pub ints: Vec<GLint>,
    pub floats: Vec<GLfloat>,
    pub bools: Vec<GLboolean>,
    pub int64s: Vec<GLint64>,
    pub doubles: Vec<GLdouble>,
}

/// Reads `pname` (`n` values) through `get_integerv`, `get_floatv`, `get_booleanv`,
/// `get_integer64v` and `get_doublev`, asserting no error and that nothing past `n` values
/// is written.
pub(crate) fn views(ctx: &mut Context, pname: GLenum, n: usize) -> Views {
    let mut ints = [SENTINEL_I; 17];
    let mut floats = [SENTINEL_F; 17];
    let mut bools = [SENTINEL_B; 17];
    let mut int64s = [i64::from(SENTINEL_I); 17];
    let mut doubles = [f64::from(SENTINEL_F); 17];
    ctx.get_integerv(pname, &mut ints);
    assert_error!(ctx, NO_ERROR, "get_integerv({pname:#x})");
    ctx.get_floatv(pname, &mut floats);
    assert_error!(ctx, NO_ERROR, "get_floatv({pname:#x})");
    ctx.get_booleanv(pname, &mut bools);
    assert_error!(ctx, NO_ERROR, "get_booleanv({pname:#x})");
    ctx.get_integer64v(pname, &mut int64s);
    assert_error!(ctx, NO_ERROR, "get_integer64v({pname:#x})");
    ctx.get_doublev(pname, &mut doubles);
    assert_error!(ctx, NO_ERROR, "get_doublev({pname:#x})");
    assert!(
        ints[n..].iter().all(|v| *v == SENTINEL_I)
            && bools[n..].iter().all(|v| *v == SENTINEL_B)
            && int64s[n..].iter().all(|v| *v == i64::from(SENTINEL_I)),
        "{pname:#x} wrote more than {n} values"
    );
    Views {
        ints: ints[..n].to_vec(),
        floats: floats[..n].to_vec(),
        bools: bools[..n].to_vec(),
        int64s: int64s[..n].to_vec(),
        doubles: doubles[..n].to_vec(),
    }
}

/// Asserts integer or enum state: exact in every query (integers clamp to `GLint`).
pub(crate) fn assert_ints(ctx: &mut Context, pname: GLenum, want: &[i64]) {
    let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    let expected = Views {
        ints: want.iter().map(|v| clamp(*v)).collect(),
        floats: want.iter().map(|v| *v as f32).collect(),
        bools: want.iter().map(|v| GLboolean::from(*v != 0)).collect(),
        int64s: want.to_vec(),
        doubles: want.iter().map(|v| *v as f64).collect(),
    };
    assert_eq!(views(ctx, pname, want.len()), expected, "state {pname:#x}");
}

/// Asserts enum state.
pub(crate) fn assert_enum(ctx: &mut Context, pname: GLenum, want: GLenum) {
    assert_ints(ctx, pname, &[i64::from(want)]);
}

/// Asserts boolean state.
pub(crate) fn assert_bools(ctx: &mut Context, pname: GLenum, want: &[bool]) {
    let expected = Views {
        ints: want.iter().map(|b| GLint::from(*b)).collect(),
        floats: want.iter().map(|b| f32::from(u8::from(*b))).collect(),
        bools: want.iter().map(|b| GLboolean::from(*b)).collect(),
        int64s: want.iter().map(|b| i64::from(*b)).collect(),
        doubles: want.iter().map(|b| f64::from(u8::from(*b))).collect(),
    };
    assert_eq!(views(ctx, pname, want.len()), expected, "state {pname:#x}");
}

/// Asserts floating-point state: integer queries round to nearest.
pub(crate) fn assert_floats(ctx: &mut Context, pname: GLenum, want: &[f64]) {
    let expected = Views {
        ints: want.iter().map(|v| v.round() as i32).collect(),
        floats: want.iter().map(|v| *v as f32).collect(),
        bools: want.iter().map(|v| GLboolean::from(*v != 0.0)).collect(),
        int64s: want.iter().map(|v| v.round() as i64).collect(),
        doubles: want.to_vec(),
    };
    assert_eq!(views(ctx, pname, want.len()), expected, "state {pname:#x}");
}

/// Asserts colour or depth state: integer queries map [-1, 1] linearly onto the signed
/// range, so `ints` (checked against Mesa) is given explicitly.
pub(crate) fn assert_norms(ctx: &mut Context, pname: GLenum, want: &[f64], ints: &[i32]) {
    let expected = Views {
        ints: ints.to_vec(),
        floats: want.iter().map(|v| *v as f32).collect(),
        bools: want.iter().map(|v| GLboolean::from(*v != 0.0)).collect(),
        int64s: ints.iter().map(|v| i64::from(*v)).collect(),
        doubles: want.to_vec(),
    };
    assert_eq!(views(ctx, pname, want.len()), expected, "state {pname:#x}");
}

/// `get_integeri_v`, `get_integer64i_v` and `get_booleani_v` of one indexed value,
/// asserting no error; returns the 64-bit view after checking the others agree.
pub(crate) fn indexed(ctx: &mut Context, target: GLenum, index: GLuint, n: usize) -> Vec<i64> {
    let mut ints = [SENTINEL_I; 5];
    let mut int64s = [i64::from(SENTINEL_I); 5];
    let mut bools = [SENTINEL_B; 5];
    ctx.get_integeri_v(target, index, &mut ints);
    assert_error!(ctx, NO_ERROR, "get_integeri_v({target:#x}, {index})");
    ctx.get_integer64i_v(target, index, &mut int64s);
    assert_error!(ctx, NO_ERROR, "get_integer64i_v({target:#x}, {index})");
    ctx.get_booleani_v(target, index, &mut bools);
    assert_error!(ctx, NO_ERROR, "get_booleani_v({target:#x}, {index})");
    assert!(ints[n..].iter().all(|v| *v == SENTINEL_I), "wrote past {n}");
    for i in 0..n {
        let clamped = int64s[i].clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        assert_eq!(ints[i], clamped, "{target:#x}[{index}]");
        assert_eq!(
            bools[i],
            GLboolean::from(int64s[i] != 0),
            "{target:#x}[{index}]"
        );
    }
    int64s[..n].to_vec()
}

/// Every `glEnable` capability of GL 3.3 core, with its initial state.
pub(crate) const CAPABILITIES: [(GLenum, bool); 31] = [
    (BLEND, false),
    (CLIP_DISTANCE0, false),
    (CLIP_DISTANCE1, false),
    (CLIP_DISTANCE2, false),
    (CLIP_DISTANCE3, false),
    (CLIP_DISTANCE4, false),
    (CLIP_DISTANCE5, false),
    (CLIP_DISTANCE6, false),
    (CLIP_DISTANCE7, false),
    (COLOR_LOGIC_OP, false),
    (CULL_FACE, false),
    (DEPTH_CLAMP, false),
    (DEPTH_TEST, false),
    (DITHER, true),
    (FRAMEBUFFER_SRGB, false),
    (LINE_SMOOTH, false),
    (MULTISAMPLE, true),
    (POLYGON_OFFSET_FILL, false),
    (POLYGON_OFFSET_LINE, false),
    (POLYGON_OFFSET_POINT, false),
    (POLYGON_SMOOTH, false),
    (PRIMITIVE_RESTART, false),
    (PROGRAM_POINT_SIZE, false),
    (RASTERIZER_DISCARD, false),
    (SAMPLE_ALPHA_TO_COVERAGE, false),
    (SAMPLE_ALPHA_TO_ONE, false),
    (SAMPLE_COVERAGE, false),
    (SAMPLE_MASK, false),
    (SCISSOR_TEST, false),
    (STENCIL_TEST, false),
    (TEXTURE_CUBE_MAP_SEAMLESS, false),
];

const ALL_ONES: i64 = u32::MAX as i64;

#[test]
fn initial_enum_and_integer_state() {
    let mut ctx = context();
    for (pname, want) in [
        (BLEND_SRC_RGB, ONE),
        (BLEND_SRC_ALPHA, ONE),
        (BLEND_DST_RGB, ZERO),
        (BLEND_DST_ALPHA, ZERO),
        (BLEND_EQUATION_RGB, FUNC_ADD),
        (BLEND_EQUATION_ALPHA, FUNC_ADD),
        (LOGIC_OP_MODE, COPY),
        (DEPTH_FUNC, LESS),
        (STENCIL_FUNC, ALWAYS),
        (STENCIL_FAIL, KEEP),
        (STENCIL_PASS_DEPTH_FAIL, KEEP),
        (STENCIL_PASS_DEPTH_PASS, KEEP),
        (STENCIL_BACK_FUNC, ALWAYS),
        (STENCIL_BACK_FAIL, KEEP),
        (STENCIL_BACK_PASS_DEPTH_FAIL, KEEP),
        (STENCIL_BACK_PASS_DEPTH_PASS, KEEP),
        (CULL_FACE_MODE, BACK),
        (FRONT_FACE, CCW),
        (POINT_SPRITE_COORD_ORIGIN, UPPER_LEFT),
        (PROVOKING_VERTEX, LAST_VERTEX_CONVENTION),
        (LINE_SMOOTH_HINT, DONT_CARE),
        (POLYGON_SMOOTH_HINT, DONT_CARE),
        (TEXTURE_COMPRESSION_HINT, DONT_CARE),
        (FRAGMENT_SHADER_DERIVATIVE_HINT, DONT_CARE),
        (ACTIVE_TEXTURE, TEXTURE0),
    ] {
        assert_enum(&mut ctx, pname, want);
    }
    assert_ints(&mut ctx, POLYGON_MODE, &[i64::from(FILL), i64::from(FILL)]);
    assert_ints(&mut ctx, STENCIL_REF, &[0]);
    assert_ints(&mut ctx, STENCIL_BACK_REF, &[0]);
    assert_ints(&mut ctx, STENCIL_CLEAR_VALUE, &[0]);
    assert_ints(&mut ctx, PRIMITIVE_RESTART_INDEX, &[0]);
    // Masks start as all ones (table 6.22); integer queries clamp them to GLint (Mesa
    // starts the value masks at 255 instead).
    for pname in [
        STENCIL_VALUE_MASK,
        STENCIL_WRITEMASK,
        STENCIL_BACK_VALUE_MASK,
        STENCIL_BACK_WRITEMASK,
    ] {
        assert_ints(&mut ctx, pname, &[ALL_ONES]);
    }
    // A 64 x 64 surface.
    assert_ints(&mut ctx, VIEWPORT, &[0, 0, 64, 64]);
    assert_ints(&mut ctx, SCISSOR_BOX, &[0, 0, 64, 64]);
}

#[test]
fn initial_bindings_are_zero() {
    let mut ctx = context();
    for pname in [
        ARRAY_BUFFER_BINDING,
        ELEMENT_ARRAY_BUFFER_BINDING,
        COPY_READ_BUFFER,
        COPY_WRITE_BUFFER,
        PIXEL_PACK_BUFFER_BINDING,
        PIXEL_UNPACK_BUFFER_BINDING,
        TEXTURE_BUFFER,
        TRANSFORM_FEEDBACK_BUFFER_BINDING,
        UNIFORM_BUFFER_BINDING,
        VERTEX_ARRAY_BINDING,
        CURRENT_PROGRAM,
        SAMPLER_BINDING,
        DRAW_FRAMEBUFFER_BINDING,
        READ_FRAMEBUFFER_BINDING,
        RENDERBUFFER_BINDING,
        TEXTURE_BINDING_1D,
        TEXTURE_BINDING_2D,
        TEXTURE_BINDING_3D,
        TEXTURE_BINDING_1D_ARRAY,
        TEXTURE_BINDING_2D_ARRAY,
        TEXTURE_BINDING_RECTANGLE,
        TEXTURE_BINDING_CUBE_MAP,
        TEXTURE_BINDING_BUFFER,
        TEXTURE_BINDING_2D_MULTISAMPLE,
        TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY,
    ] {
        assert_ints(&mut ctx, pname, &[0]);
    }
}

#[test]
fn initial_boolean_float_and_colour_state() {
    let mut ctx = context();
    assert_bools(&mut ctx, DEPTH_WRITEMASK, &[true]);
    assert_bools(&mut ctx, COLOR_WRITEMASK, &[true; 4]);
    assert_bools(&mut ctx, SAMPLE_COVERAGE_INVERT, &[false]);
    for (cap, on) in CAPABILITIES {
        assert_bools(&mut ctx, cap, &[on]);
    }
    for (pname, want) in [
        (LINE_WIDTH, 1.0),
        (POINT_SIZE, 1.0),
        (POINT_FADE_THRESHOLD_SIZE, 1.0),
        (POLYGON_OFFSET_FACTOR, 0.0),
        (POLYGON_OFFSET_UNITS, 0.0),
        (SAMPLE_COVERAGE_VALUE, 1.0),
    ] {
        assert_floats(&mut ctx, pname, &[want]);
    }
    assert_norms(&mut ctx, BLEND_COLOR, &[0.0; 4], &[0; 4]);
    assert_norms(&mut ctx, COLOR_CLEAR_VALUE, &[0.0; 4], &[0; 4]);
    assert_norms(&mut ctx, DEPTH_RANGE, &[0.0, 1.0], &[0, i32::MAX]);
    assert_norms(&mut ctx, DEPTH_CLEAR_VALUE, &[1.0], &[i32::MAX]);
}

#[test]
fn a_surfaceless_context_starts_with_an_empty_viewport() {
    let mut ctx = surfaceless();
    assert_ints(&mut ctx, VIEWPORT, &[0, 0, 0, 0]);
    assert_ints(&mut ctx, SCISSOR_BOX, &[0, 0, 0, 0]);
}

#[test]
fn initial_indexed_state() {
    let mut ctx = context();
    let ubos = ctx.get_integer(MAX_UNIFORM_BUFFER_BINDINGS) as GLuint;
    assert!(ubos >= 36, "GL 3.3 requires 36, got {ubos}");
    for i in 0..ubos {
        for target in [
            UNIFORM_BUFFER_BINDING,
            UNIFORM_BUFFER_START,
            UNIFORM_BUFFER_SIZE,
        ] {
            assert_eq!(indexed(&mut ctx, target, i, 1), [0]);
        }
    }
    for i in 0..4 {
        for target in [
            TRANSFORM_FEEDBACK_BUFFER_BINDING,
            TRANSFORM_FEEDBACK_BUFFER_START,
            TRANSFORM_FEEDBACK_BUFFER_SIZE,
        ] {
            assert_eq!(indexed(&mut ctx, target, i, 1), [0]);
        }
    }
    for i in 0..8 {
        assert_eq!(indexed(&mut ctx, COLOR_WRITEMASK, i, 4), [1; 4]);
        assert_eq!(indexed(&mut ctx, BLEND, i, 1), [0]);
    }
    // All ones, read back by bit pattern as Mesa does.
    assert_eq!(indexed(&mut ctx, SAMPLE_MASK_VALUE, 0, 1), [-1]);
}

#[test]
fn indexed_queries_validate_target_and_index() {
    let mut ctx = context();
    let ubos = ctx.get_integer(MAX_UNIFORM_BUFFER_BINDINGS) as GLuint;
    let mut v = [SENTINEL_I; 4];
    let mut v64 = [0i64; 4];
    let mut b = [SENTINEL_B; 4];
    for (target, limit) in [
        (UNIFORM_BUFFER_BINDING, ubos),
        (UNIFORM_BUFFER_START, ubos),
        (UNIFORM_BUFFER_SIZE, ubos),
        (TRANSFORM_FEEDBACK_BUFFER_BINDING, 4),
        (TRANSFORM_FEEDBACK_BUFFER_START, 4),
        (TRANSFORM_FEEDBACK_BUFFER_SIZE, 4),
        (COLOR_WRITEMASK, 8),
        (BLEND, 8),
        (SAMPLE_MASK_VALUE, 1),
        (VIEWPORT, 16),
        (SCISSOR_BOX, 16),
        (DEPTH_RANGE, 16),
    ] {
        ctx.get_integeri_v(target, limit, &mut v);
        assert_error!(ctx, INVALID_VALUE, "{target:#x}[{limit}]");
        ctx.get_integer64i_v(target, limit, &mut v64);
        assert_error!(ctx, INVALID_VALUE, "{target:#x}[{limit}]");
        ctx.get_booleani_v(target, limit, &mut b);
        assert_error!(ctx, INVALID_VALUE, "{target:#x}[{limit}]");
    }
    // Not indexed state (VIEWPORT, SCISSOR_BOX and DEPTH_RANGE are, since GL 4.1's viewport
    // arrays; SCISSOR_TEST is indexed for glIsEnabledi only, as in Mesa).
    for target in [0x1234, SCISSOR_TEST, DEPTH_TEST, ARRAY_BUFFER_BINDING] {
        ctx.get_integeri_v(target, 0, &mut v);
        assert_error!(ctx, INVALID_ENUM, "{target:#x}");
        ctx.get_integer64i_v(target, 0, &mut v64);
        assert_error!(ctx, INVALID_ENUM, "{target:#x}");
        ctx.get_booleani_v(target, 0, &mut b);
        assert_error!(ctx, INVALID_ENUM, "{target:#x}");
    }
    assert_eq!((v, v64, b), ([SENTINEL_I; 4], [0; 4], [SENTINEL_B; 4]));
}

#[test]
fn unknown_pnames_are_invalid_enum_and_write_nothing() {
    let mut ctx = context();
    // Not state in a 3.3 core context: made up, compatibility-only and indexed-only. (Mesa
    // answers CURRENT_COLOR even in a core context: `native` lists what it answers.)
    for pname in [
        0x1234,
        0x0B00, // CURRENT_COLOR
        SAMPLE_MASK_VALUE,
    ] {
        let mut i = [SENTINEL_I; 4];
        let mut f = [SENTINEL_F; 4];
        let mut b = [SENTINEL_B; 4];
        let mut l = [7i64; 4];
        let mut d = [7.0f64; 4];
        ctx.get_integerv(pname, &mut i);
        assert_error!(ctx, INVALID_ENUM, "{pname:#x}");
        ctx.get_floatv(pname, &mut f);
        assert_error!(ctx, INVALID_ENUM, "{pname:#x}");
        ctx.get_booleanv(pname, &mut b);
        assert_error!(ctx, INVALID_ENUM, "{pname:#x}");
        ctx.get_integer64v(pname, &mut l);
        assert_error!(ctx, INVALID_ENUM, "{pname:#x}");
        ctx.get_doublev(pname, &mut d);
        assert_error!(ctx, INVALID_ENUM, "{pname:#x}");
        assert_eq!(
            (i, f, b, l, d),
            (
                [SENTINEL_I; 4],
                [SENTINEL_F; 4],
                [SENTINEL_B; 4],
                [7; 4],
                [7.0; 4]
            )
        );
    }
}

#[test]
fn get_error_keeps_the_first_error_until_read() {
    let mut ctx = context();
    assert_no_error!(ctx);
    ctx.get_integerv(0x1234, &mut [0]);
    ctx.line_width(-1.0);
    ctx.bind_buffer(ARRAY_BUFFER, 999);
    assert_error!(ctx, INVALID_ENUM, "the first of three errors");
    assert_no_error!(ctx);
    ctx.line_width(0.0);
    ctx.enable(0x1234);
    assert_error!(ctx, INVALID_VALUE);
    assert_no_error!(ctx);
    assert_no_error!(ctx);
}

#[test]
fn colour_and_depth_values_map_linearly_onto_integers() {
    let mut ctx = context();
    // Values checked against Mesa (which truncates toward zero).
    ctx.clear_color(0.5, 0.25, -1.0, 1.0);
    assert_norms(
        &mut ctx,
        COLOR_CLEAR_VALUE,
        &[0.5, 0.25, -1.0, 1.0],
        &[1073741823, 536870911, -2147483647, 2147483647],
    );
    ctx.blend_color(-0.5, 0.0, 0.75, 0.125);
    assert_norms(
        &mut ctx,
        BLEND_COLOR,
        &[-0.5, 0.0, 0.75, 0.125],
        &[-1073741823, 0, 1610612735, 268435455],
    );
    // Out of range colours are kept for float queries and clamp for integer ones (Mesa
    // overflows 2.0 to i32::MIN).
    ctx.clear_color(2.0, -3.0, 0.0, 1.0);
    assert_norms(
        &mut ctx,
        COLOR_CLEAR_VALUE,
        &[2.0, -3.0, 0.0, 1.0],
        &[i32::MAX, -i32::MAX, 0, i32::MAX],
    );
    ctx.clear_depth(0.5);
    assert_norms(&mut ctx, DEPTH_CLEAR_VALUE, &[0.5], &[1073741823]);
    ctx.depth_range(0.25, 0.5);
    assert_norms(
        &mut ctx,
        DEPTH_RANGE,
        &[0.25, 0.5],
        &[536870911, 1073741823],
    );
}

#[test]
fn floats_round_to_the_nearest_integer() {
    let mut ctx = context();
    ctx.line_width(2.5);
    ctx.polygon_offset(1.4, -2.5);
    ctx.sample_coverage(0.3, FALSE as GLboolean);
    assert_no_error!(ctx);
    assert_eq!(views(&mut ctx, LINE_WIDTH, 1).ints, [3]);
    assert_eq!(views(&mut ctx, POLYGON_OFFSET_FACTOR, 1).ints, [1]);
    assert_eq!(views(&mut ctx, POLYGON_OFFSET_UNITS, 1).int64s, [-3]);
    assert_floats(&mut ctx, SAMPLE_COVERAGE_VALUE, &[f64::from(0.3f32)]);
}

#[test]
fn unsigned_bit_patterns_read_back_as_signed() {
    let mut ctx = context();
    // As Mesa: 0xFFFF_FFFF reads as -1 through every signed query.
    ctx.primitive_restart_index(u32::MAX);
    assert_ints(&mut ctx, PRIMITIVE_RESTART_INDEX, &[-1]);
    ctx.primitive_restart_index(0xFFFF);
    assert_ints(&mut ctx, PRIMITIVE_RESTART_INDEX, &[0xFFFF]);
    ctx.sample_maski(0, 0x8000_0001);
    assert_eq!(
        indexed(&mut ctx, SAMPLE_MASK_VALUE, 0, 1),
        [i64::from(i32::MIN + 1)]
    );
    // Stencil masks keep their unsigned value; GLint queries clamp it (as Mesa).
    ctx.stencil_mask(0xFFFF_FF0F);
    let v = views(&mut ctx, STENCIL_WRITEMASK, 1);
    assert_eq!((v.ints, v.int64s), (vec![i32::MAX], vec![0xFFFF_FF0F]));
}

#[test]
fn stencil_reference_queries_clamp_to_the_stencil_bits() {
    // GL 3.3 §4.1.5: queries of the reference clamp it to [0, 2^s - 1].
    let mut ctx = context();
    ctx.stencil_func(LEQUAL, 300, 0xff);
    assert_ints(&mut ctx, STENCIL_REF, &[255]);
    assert_ints(&mut ctx, STENCIL_BACK_REF, &[255]);
    ctx.stencil_func_separate(BACK, LEQUAL, -5, 0xff);
    assert_ints(&mut ctx, STENCIL_REF, &[255]);
    assert_ints(&mut ctx, STENCIL_BACK_REF, &[0]);
    ctx.stencil_func(LEQUAL, 17, 0xff);
    assert_ints(&mut ctx, STENCIL_REF, &[17]);
    // No stencil buffer: s = 0 (as Mesa reports for a surfaceless context).
    let mut bare = surfaceless();
    bare.stencil_func(LEQUAL, 17, 0xff);
    assert_ints(&mut bare, STENCIL_REF, &[0]);
}

#[test]
fn versions_limits_and_strings() {
    // The null backend has every feature the engine carries out, so its context is a 4.6
    // one.
    let mut ctx = context();
    assert_ints(&mut ctx, MAJOR_VERSION, &[4]);
    assert_ints(&mut ctx, MINOR_VERSION, &[6]);
    assert_ints(
        &mut ctx,
        CONTEXT_PROFILE_MASK,
        &[i64::from(CONTEXT_CORE_PROFILE_BIT)],
    );
    assert_ints(&mut ctx, MAX_DRAW_BUFFERS, &[8]);
    assert_ints(&mut ctx, MAX_VERTEX_ATTRIBS, &[16]);
    assert_bools(&mut ctx, DOUBLEBUFFER, &[false]);
    // Later versions' state that Mesa answers in 3.3 core contexts too (`native` walks the
    // whole list): the vec4 forms of the component limits, and what Tessera carries out.
    assert_ints(&mut ctx, MAX_VARYING_COMPONENTS, &[64]);
    assert_ints(&mut ctx, MAX_VARYING_VECTORS, &[16]);
    assert_ints(&mut ctx, MAX_VERTEX_UNIFORM_COMPONENTS, &[1024]);
    assert_ints(&mut ctx, MAX_VERTEX_UNIFORM_VECTORS, &[256]);
    assert_ints(&mut ctx, MAX_FRAGMENT_UNIFORM_VECTORS, &[256]);
    assert_bools(&mut ctx, SHADER_COMPILER, &[true]);
    assert_ints(&mut ctx, MAX_ELEMENT_INDEX, &[(1 << 24) - 1]);
    assert_ints(&mut ctx, MAX_VERTEX_ATTRIB_STRIDE, &[2048]);
    assert_enum(
        &mut ctx,
        CONTEXT_RELEASE_BEHAVIOR,
        CONTEXT_RELEASE_BEHAVIOR_FLUSH,
    );
    let version = ctx.get_string(VERSION).expect("a version");
    assert!(
        version.starts_with("4.6 (Core Profile) Tessera "),
        "{version}"
    );
    assert_eq!(
        ctx.get_string(SHADING_LANGUAGE_VERSION).as_deref(),
        Some("4.60")
    );
    assert_eq!(ctx.get_string(VENDOR).as_deref(), Some("Tessera"));
    assert!(ctx.get_string(RENDERER).is_some());
    assert_no_error!(ctx);
    let n = ctx.get_integer(NUM_EXTENSIONS) as GLuint;
    assert!(n > 0);
    for i in 0..n {
        let e = ctx.get_stringi(EXTENSIONS, i).expect("an extension");
        assert!(e.starts_with("GL_"), "{e}");
    }
    assert_no_error!(ctx);
    assert_eq!(ctx.get_stringi(EXTENSIONS, n), None);
    assert_error!(ctx, INVALID_VALUE, "index past NUM_EXTENSIONS");
    assert_eq!(ctx.get_stringi(VENDOR, 0), None);
    assert_error!(ctx, INVALID_ENUM, "only EXTENSIONS is indexed");
    assert_eq!(ctx.get_string(EXTENSIONS), None);
    assert_error!(ctx, INVALID_ENUM, "core profile has no extension string");
    assert_eq!(ctx.get_string(0x1234), None);
    assert_error!(ctx, INVALID_ENUM);
}

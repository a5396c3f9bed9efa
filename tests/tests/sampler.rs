//! Sampler objects: names, unit bindings, parameters (initial values, errors, round trips).
//! Errors and values were checked against Mesa llvmpipe.

use tessera_engine::gl::*;
use tessera_engine::{Config, Context, SurfaceConfig};
use tessera_tests::{assert_error, assert_no_error, context, records};

fn get(ctx: &mut Context, s: GLuint, pname: GLenum) -> GLint {
    let mut v = [-12345];
    ctx.get_sampler_parameteriv(s, pname, &mut v);
    v[0]
}

fn getf(ctx: &mut Context, s: GLuint, pname: GLenum) -> GLfloat {
    let mut v = [-12345.0];
    ctx.get_sampler_parameterfv(s, pname, &mut v);
    v[0]
}

#[test]
fn samplers_exist_from_gen() {
    let mut ctx = context();
    records(&mut ctx);
    let mut names = [0; 2];
    ctx.gen_samplers(2, &mut names);
    assert_no_error!(ctx);
    assert_ne!(names[0], names[1]);
    // GL's GenSamplers creates the objects (unlike textures).
    assert_eq!(ctx.is_sampler(names[0]), TRUE as GLboolean);
    assert_eq!(ctx.is_sampler(0), FALSE as GLboolean);
    assert_eq!(ctx.is_sampler(9999), FALSE as GLboolean);
    assert!(records(&mut ctx).is_empty(), "samplers have no wire object");
    ctx.gen_samplers(-1, &mut names);
    assert_error!(ctx, INVALID_VALUE);
    ctx.delete_samplers(-1, &names);
    assert_error!(ctx, INVALID_VALUE);
    ctx.delete_samplers(2, &[12345, 0]);
    assert_no_error!(ctx); // unknown names are ignored
    ctx.delete_samplers(2, &names);
    assert_eq!(ctx.is_sampler(names[0]), FALSE as GLboolean);
    assert_eq!(ctx.is_sampler(names[1]), FALSE as GLboolean);
}

#[test]
fn binding_to_units() {
    let mut ctx = context();
    let s = ctx.gen_sampler();
    ctx.bind_sampler(48, s);
    assert_error!(ctx, INVALID_VALUE, "MAX_COMBINED_TEXTURE_IMAGE_UNITS is 48");
    ctx.bind_sampler(0, 4242);
    assert_error!(ctx, INVALID_OPERATION, "not a sampler");
    ctx.bind_sampler(47, s);
    ctx.bind_sampler(5, s);
    assert_no_error!(ctx);
    assert_eq!(ctx.get_integer(SAMPLER_BINDING), 0, "unit 0");
    ctx.active_texture(TEXTURE5);
    assert_eq!(ctx.get_integer(SAMPLER_BINDING), s as GLint);
    // Deletion unbinds it from every unit of this context.
    ctx.delete_samplers(1, &[s]);
    assert_eq!(ctx.get_integer(SAMPLER_BINDING), 0);
    ctx.active_texture(TEXTURE0 + 47);
    assert_eq!(ctx.get_integer(SAMPLER_BINDING), 0);
    ctx.bind_sampler(0, s);
    assert_error!(ctx, INVALID_OPERATION, "deleted");
    ctx.bind_sampler(3, 0);
    assert_no_error!(ctx);
}

#[test]
fn deleting_a_sampler_bound_in_another_context_frees_only_its_name() {
    let mut a = context();
    let config = Config {
        capture: true,
        surface: Some(SurfaceConfig::new(8, 8)),
        backend: tessera_engine::BackendKind::Null,
        ..Config::default()
    };
    let mut b = Context::new_shared(&a, &config);
    let s = a.gen_sampler();
    a.sampler_parameteri(s, TEXTURE_MIN_FILTER, NEAREST as GLint);
    b.bind_sampler(2, s);
    a.bind_sampler(2, s);
    a.delete_samplers(1, &[s]);
    assert_eq!(a.is_sampler(s), FALSE as GLboolean);
    b.active_texture(TEXTURE2);
    // The binding in b still holds the object, but the name is gone.
    assert_eq!(b.get_integer(SAMPLER_BINDING), 0);
    b.bind_sampler(2, 0);
    assert_no_error!(a);
    assert_no_error!(b);
}

#[test]
fn initial_values() {
    let mut ctx = context();
    let s = ctx.gen_sampler();
    let expect = [
        (TEXTURE_MIN_FILTER, NEAREST_MIPMAP_LINEAR as GLint),
        (TEXTURE_MAG_FILTER, LINEAR as GLint),
        (TEXTURE_WRAP_S, REPEAT as GLint),
        (TEXTURE_WRAP_T, REPEAT as GLint),
        (TEXTURE_WRAP_R, REPEAT as GLint),
        (TEXTURE_MIN_LOD, -1000),
        (TEXTURE_MAX_LOD, 1000),
        (TEXTURE_LOD_BIAS, 0),
        (TEXTURE_COMPARE_MODE, NONE as GLint),
        (TEXTURE_COMPARE_FUNC, LEQUAL as GLint),
        (TEXTURE_MAX_ANISOTROPY, 1),
    ];
    for (pname, value) in expect {
        assert_eq!(get(&mut ctx, s, pname), value, "{pname:#x}");
        assert_eq!(getf(&mut ctx, s, pname), value as f32, "{pname:#x}");
    }
    let mut border = [1.0f32; 4];
    ctx.get_sampler_parameterfv(s, TEXTURE_BORDER_COLOR, &mut border);
    assert_eq!(border, [0.0; 4]);
    assert_no_error!(ctx);
}

#[test]
fn parameter_errors() {
    let mut ctx = context();
    let s = ctx.gen_sampler();
    ctx.sampler_parameteri(777, TEXTURE_MIN_FILTER, NEAREST as GLint);
    assert_error!(ctx, INVALID_OPERATION, "not a sampler");
    get(&mut ctx, 777, TEXTURE_MIN_FILTER);
    assert_error!(ctx, INVALID_OPERATION);
    // Texture-only parameters are not sampler parameters.
    for pname in [
        TEXTURE_BASE_LEVEL,
        TEXTURE_MAX_LEVEL,
        TEXTURE_SWIZZLE_R,
        0x1234,
    ] {
        ctx.sampler_parameteri(s, pname, 0);
        assert_error!(ctx, INVALID_ENUM, "set {pname:#x}");
        assert_eq!(get(&mut ctx, s, pname), -12345);
        assert_error!(ctx, INVALID_ENUM, "get {pname:#x}");
    }
    ctx.sampler_parameteri(s, TEXTURE_MIN_FILTER, 0x1234);
    assert_error!(ctx, INVALID_ENUM);
    ctx.sampler_parameteri(s, TEXTURE_MAG_FILTER, NEAREST_MIPMAP_NEAREST as GLint);
    assert_error!(ctx, INVALID_ENUM);
    // GL 4.4's mode (GL_ARB_texture_mirror_clamp_to_edge, which the null backend has).
    ctx.sampler_parameteri(s, TEXTURE_WRAP_S, MIRROR_CLAMP_TO_EDGE as GLint);
    assert_no_error!(ctx);
    assert_eq!(
        get(&mut ctx, s, TEXTURE_WRAP_S),
        MIRROR_CLAMP_TO_EDGE as GLint
    );
    ctx.sampler_parameteri(s, TEXTURE_COMPARE_MODE, LEQUAL as GLint);
    assert_error!(ctx, INVALID_ENUM);
    ctx.sampler_parameteri(s, TEXTURE_COMPARE_FUNC, NONE as GLint);
    assert_error!(ctx, INVALID_ENUM);
    ctx.sampler_parameteri(s, TEXTURE_BORDER_COLOR, 0);
    assert_error!(ctx, INVALID_ENUM, "border colour through a scalar call");
    ctx.sampler_parameterf(s, TEXTURE_MAX_ANISOTROPY, 0.5);
    assert_error!(ctx, INVALID_VALUE);
    // Rectangle restrictions belong to rectangle textures, not to samplers.
    ctx.sampler_parameteri(s, TEXTURE_WRAP_S, REPEAT as GLint);
    assert_no_error!(ctx);
    assert_eq!(
        get(&mut ctx, s, TEXTURE_MIN_FILTER),
        NEAREST_MIPMAP_LINEAR as GLint,
        "unchanged"
    );
}

#[test]
fn parameters_round_trip() {
    let mut ctx = context();
    let s = ctx.gen_sampler();
    let enums = [
        (TEXTURE_MIN_FILTER, LINEAR_MIPMAP_LINEAR),
        (TEXTURE_MAG_FILTER, NEAREST),
        (TEXTURE_WRAP_S, CLAMP_TO_EDGE),
        (TEXTURE_WRAP_T, CLAMP_TO_BORDER),
        (TEXTURE_WRAP_R, MIRRORED_REPEAT),
        (TEXTURE_COMPARE_MODE, COMPARE_REF_TO_TEXTURE),
        (TEXTURE_COMPARE_FUNC, GEQUAL),
    ];
    for (pname, value) in enums {
        ctx.sampler_parameteri(s, pname, value as GLint);
        assert_eq!(get(&mut ctx, s, pname), value as GLint);
    }
    ctx.sampler_parameteriv(s, TEXTURE_MIN_FILTER, &[NEAREST as GLint]);
    assert_eq!(get(&mut ctx, s, TEXTURE_MIN_FILTER), NEAREST as GLint);
    ctx.sampler_parameterf(s, TEXTURE_MIN_LOD, 0.75);
    ctx.sampler_parameterfv(s, TEXTURE_MAX_LOD, &[10.5]);
    ctx.sampler_parameteri(s, TEXTURE_LOD_BIAS, -2);
    ctx.sampler_parameterf(s, TEXTURE_MAX_ANISOTROPY, 100.0);
    assert_eq!(getf(&mut ctx, s, TEXTURE_MIN_LOD), 0.75);
    assert_eq!(get(&mut ctx, s, TEXTURE_MIN_LOD), 1, "rounded");
    assert_eq!(getf(&mut ctx, s, TEXTURE_MAX_LOD), 10.5);
    assert_eq!(getf(&mut ctx, s, TEXTURE_LOD_BIAS), -2.0);
    assert_eq!(
        getf(&mut ctx, s, TEXTURE_MAX_ANISOTROPY),
        16.0,
        "clamped (Mesa)"
    );
    let mut u = [0u32; 1];
    ctx.get_sampler_parameter_iuiv(s, TEXTURE_LOD_BIAS, &mut u);
    assert_eq!(u[0], (-2i32) as u32);
    // Border colours: floats, normalized integers, raw integers.
    ctx.sampler_parameterfv(s, TEXTURE_BORDER_COLOR, &[0.5, 0.0, 1.0, 0.25]);
    let mut i = [0; 4];
    ctx.get_sampler_parameteriv(s, TEXTURE_BORDER_COLOR, &mut i);
    assert_eq!(i, [1073741823, 0, 2147483647, 536870911]);
    ctx.sampler_parameteriv(
        s,
        TEXTURE_BORDER_COLOR,
        &[i32::MAX, -i32::MAX, 0x4000_0000, 0],
    );
    let mut f = [0.0f32; 4];
    ctx.get_sampler_parameterfv(s, TEXTURE_BORDER_COLOR, &mut f);
    assert_eq!(f, [1.0, -1.0, 0.5, 2.3283064e-10]);
    ctx.sampler_parameter_iiv(s, TEXTURE_BORDER_COLOR, &[-1, 2, -3, 4]);
    let mut ii = [0; 4];
    ctx.get_sampler_parameter_iiv(s, TEXTURE_BORDER_COLOR, &mut ii);
    assert_eq!(ii, [-1, 2, -3, 4]);
    ctx.sampler_parameter_iuiv(s, TEXTURE_BORDER_COLOR, &[5, 6, 7, u32::MAX]);
    let mut ui = [0u32; 4];
    ctx.get_sampler_parameter_iuiv(s, TEXTURE_BORDER_COLOR, &mut ui);
    assert_eq!(ui, [5, 6, 7, u32::MAX]);
    assert_no_error!(ctx);
}

#[test]
fn samplers_and_textures_keep_separate_parameters() {
    let mut ctx = context();
    let s = ctx.gen_sampler();
    let t = ctx.gen_texture();
    ctx.bind_texture(TEXTURE_2D, t);
    ctx.bind_sampler(0, s);
    ctx.sampler_parameteri(s, TEXTURE_MIN_FILTER, NEAREST as GLint);
    let mut v = [0];
    ctx.get_tex_parameteriv(TEXTURE_2D, TEXTURE_MIN_FILTER, &mut v);
    assert_eq!(
        v[0], NEAREST_MIPMAP_LINEAR as GLint,
        "a sampler does not change the texture"
    );
    ctx.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, LINEAR as GLint);
    assert_eq!(get(&mut ctx, s, TEXTURE_MIN_FILTER), NEAREST as GLint);
    assert_no_error!(ctx);
}

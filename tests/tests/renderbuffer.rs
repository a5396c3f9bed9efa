//! Tests: renderbuffer objects (names, binding, storage, parameters, records).

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_tests::{assert_error, assert_no_error, context, records};
use tessera_wire::format::Format;
use tessera_wire::record::Record;

fn param(ctx: &mut Context, pname: GLenum) -> GLint {
    let mut v = [-7];
    ctx.get_renderbuffer_parameteriv(RENDERBUFFER, pname, &mut v);
    v[0]
}

#[test]
fn names_binding_and_initial_parameters() {
    let mut ctx = context();
    let r = ctx.gen_renderbuffer();
    assert_eq!(ctx.is_renderbuffer(r), 0, "no object before the first bind");
    ctx.bind_renderbuffer(RENDERBUFFER, r);
    assert_eq!(ctx.is_renderbuffer(r), 1);
    assert_eq!(ctx.get_integer(RENDERBUFFER_BINDING), r as GLint);
    assert_eq!(param(&mut ctx, RENDERBUFFER_INTERNAL_FORMAT), RGBA as GLint);
    for pname in [
        RENDERBUFFER_WIDTH,
        RENDERBUFFER_HEIGHT,
        RENDERBUFFER_SAMPLES,
        RENDERBUFFER_RED_SIZE,
        RENDERBUFFER_GREEN_SIZE,
        RENDERBUFFER_BLUE_SIZE,
        RENDERBUFFER_ALPHA_SIZE,
        RENDERBUFFER_DEPTH_SIZE,
        RENDERBUFFER_STENCIL_SIZE,
    ] {
        assert_eq!(param(&mut ctx, pname), 0, "{pname:#x}");
    }
    assert_no_error!(ctx);
}

#[test]
fn name_and_binding_errors() {
    let mut ctx = context();
    let mut names = [0; 1];
    ctx.gen_renderbuffers(-1, &mut names);
    assert_error!(ctx, INVALID_VALUE);
    ctx.delete_renderbuffers(-1, &names);
    assert_error!(ctx, INVALID_VALUE);
    ctx.gen_renderbuffers(1, &mut names);
    ctx.bind_renderbuffer(FRAMEBUFFER, names[0]);
    assert_error!(ctx, INVALID_ENUM);
    ctx.bind_renderbuffer(RENDERBUFFER, 12345);
    assert_error!(ctx, INVALID_OPERATION);
    let mut v = [0];
    ctx.get_renderbuffer_parameteriv(RENDERBUFFER, RENDERBUFFER_WIDTH, &mut v);
    assert_error!(ctx, INVALID_OPERATION, "nothing bound");
    ctx.bind_renderbuffer(RENDERBUFFER, names[0]);
    ctx.get_renderbuffer_parameteriv(FRAMEBUFFER, RENDERBUFFER_WIDTH, &mut v);
    assert_error!(ctx, INVALID_ENUM);
    param(&mut ctx, 0x1234);
    assert_error!(ctx, INVALID_ENUM);
}

#[test]
fn storage_sets_the_parameters() {
    let mut ctx = context();
    let r = ctx.gen_renderbuffer();
    ctx.bind_renderbuffer(RENDERBUFFER, r);
    ctx.renderbuffer_storage(RENDERBUFFER, DEPTH24_STENCIL8, 33, 17);
    assert_no_error!(ctx);
    assert_eq!(param(&mut ctx, RENDERBUFFER_WIDTH), 33);
    assert_eq!(param(&mut ctx, RENDERBUFFER_HEIGHT), 17);
    assert_eq!(
        param(&mut ctx, RENDERBUFFER_INTERNAL_FORMAT),
        DEPTH24_STENCIL8 as GLint
    );
    assert_eq!(param(&mut ctx, RENDERBUFFER_DEPTH_SIZE), 24);
    assert_eq!(param(&mut ctx, RENDERBUFFER_STENCIL_SIZE), 8);
    assert_eq!(param(&mut ctx, RENDERBUFFER_RED_SIZE), 0);
    ctx.renderbuffer_storage(RENDERBUFFER, RGB565, 4, 4);
    assert_eq!(param(&mut ctx, RENDERBUFFER_RED_SIZE), 5);
    assert_eq!(param(&mut ctx, RENDERBUFFER_GREEN_SIZE), 6);
    assert_eq!(param(&mut ctx, RENDERBUFFER_BLUE_SIZE), 5);
    assert_eq!(param(&mut ctx, RENDERBUFFER_ALPHA_SIZE), 0);
    // An unsized renderable format is kept as given.
    ctx.renderbuffer_storage(RENDERBUFFER, RGBA, 4, 4);
    assert_eq!(param(&mut ctx, RENDERBUFFER_INTERNAL_FORMAT), RGBA as GLint);
    assert_eq!(param(&mut ctx, RENDERBUFFER_ALPHA_SIZE), 8);
    // Sample counts round up to 4 (as llvmpipe allocates them).
    for (asked, got) in [(0, 0), (1, 4), (2, 4), (3, 4), (4, 4)] {
        ctx.renderbuffer_storage_multisample(RENDERBUFFER, asked, RGBA8, 4, 4);
        assert_eq!(
            param(&mut ctx, RENDERBUFFER_SAMPLES),
            got,
            "{asked} samples"
        );
    }
    assert_no_error!(ctx);
}

#[test]
fn storage_errors() {
    let mut ctx = context();
    ctx.renderbuffer_storage(RENDERBUFFER, RGBA8, 4, 4);
    assert_error!(ctx, INVALID_OPERATION, "nothing bound");
    let r = ctx.gen_renderbuffer();
    ctx.bind_renderbuffer(RENDERBUFFER, r);
    ctx.renderbuffer_storage(FRAMEBUFFER, RGBA8, 4, 4);
    assert_error!(ctx, INVALID_ENUM);
    let max = ctx.get_integer(MAX_RENDERBUFFER_SIZE);
    let max_samples = ctx.get_integer(MAX_SAMPLES);
    ctx.renderbuffer_storage(RENDERBUFFER, RGBA8, max + 1, 4);
    assert_error!(ctx, INVALID_VALUE);
    ctx.renderbuffer_storage(RENDERBUFFER, RGBA8, 4, -1);
    assert_error!(ctx, INVALID_VALUE);
    ctx.renderbuffer_storage_multisample(RENDERBUFFER, max_samples + 1, RGBA8, 4, 4);
    assert_error!(
        ctx,
        INVALID_VALUE,
        "GL 3.3: past MAX_SAMPLES (Mesa 22: INVALID_OPERATION)"
    );
    ctx.renderbuffer_storage_multisample(RENDERBUFFER, -1, RGBA8, 4, 4);
    assert_error!(ctx, INVALID_VALUE);
    ctx.renderbuffer_storage_multisample(RENDERBUFFER, max_samples + 1, 0x1234, 4, 4);
    assert_error!(ctx, INVALID_ENUM, "the format is checked before the sizes");
    // Formats GL 3.3 does not call renderable, and non-formats.
    for format in [
        0x1234,
        RGBA8_SNORM,
        RGB9_E5,
        RGB16F,
        COMPRESSED_RED_RGTC1,
        SRGB8,
        ALPHA,
        SRGB_ALPHA,
    ] {
        ctx.renderbuffer_storage(RENDERBUFFER, format, 4, 4);
        assert_error!(ctx, INVALID_ENUM, "format {format:#x}");
    }
    for format in [
        RGBA8,
        RGB,
        RED,
        RG,
        DEPTH_COMPONENT,
        DEPTH_STENCIL,
        STENCIL_INDEX,
        STENCIL_INDEX8,
        DEPTH_COMPONENT32F,
        R11F_G11F_B10F,
        RGBA32UI,
        SRGB8_ALPHA8,
        R3_G3_B2,
    ] {
        ctx.renderbuffer_storage(RENDERBUFFER, format, 4, 4);
        assert_error!(ctx, NO_ERROR, "format {format:#x}");
    }
    assert_eq!(param(&mut ctx, RENDERBUFFER_WIDTH), 4);
}

#[test]
fn records_of_a_renderbuffer_life() {
    let mut ctx = context();
    records(&mut ctx);
    let r = ctx.gen_renderbuffer();
    assert!(records(&mut ctx).is_empty(), "a name is no object");
    ctx.bind_renderbuffer(RENDERBUFFER, r);
    let recs = records(&mut ctx);
    let [Record::CreateRenderbuffer { renderbuffer }] = recs.as_slice() else {
        panic!("expected one CreateRenderbuffer, got {recs:?}");
    };
    let renderbuffer = *renderbuffer;
    ctx.bind_renderbuffer(RENDERBUFFER, 0);
    ctx.bind_renderbuffer(RENDERBUFFER, r);
    ctx.renderbuffer_storage_multisample(RENDERBUFFER, 2, DEPTH_COMPONENT, 16, 8);
    assert_eq!(
        records(&mut ctx),
        vec![Record::DefineRenderbuffer {
            renderbuffer,
            format: Format::Depth24,
            width: 16,
            height: 8,
            samples: 4,
        }]
    );
    ctx.renderbuffer_storage(RENDERBUFFER, 0x1234, 16, 8);
    assert_error!(ctx, INVALID_ENUM);
    assert!(records(&mut ctx).is_empty(), "an error emits nothing");
    ctx.delete_renderbuffers(1, &[r]);
    assert_eq!(ctx.get_integer(RENDERBUFFER_BINDING), 0);
    assert_eq!(ctx.is_renderbuffer(r), 0);
    assert_eq!(
        records(&mut ctx),
        vec![Record::DestroyRenderbuffer { renderbuffer }]
    );
    assert_no_error!(ctx);
}

//! Texture names, units, bindings, texture zero and deletion.

use tessera_engine::gl::*;
use tessera_engine::pixel::Pixels;
use tessera_engine::{Config, Context, SurfaceConfig};
use tessera_tests::{assert_error, assert_no_error, context, records};
use tessera_wire::format::TextureKind;
use tessera_wire::record::Record;

use super::{bound, level};

const TARGETS: [(GLenum, GLenum, TextureKind); 10] = [
    (TEXTURE_1D, TEXTURE_BINDING_1D, TextureKind::D1),
    (TEXTURE_2D, TEXTURE_BINDING_2D, TextureKind::D2),
    (TEXTURE_3D, TEXTURE_BINDING_3D, TextureKind::D3),
    (
        TEXTURE_1D_ARRAY,
        TEXTURE_BINDING_1D_ARRAY,
        TextureKind::D1Array,
    ),
    (
        TEXTURE_2D_ARRAY,
        TEXTURE_BINDING_2D_ARRAY,
        TextureKind::D2Array,
    ),
    (
        TEXTURE_RECTANGLE,
        TEXTURE_BINDING_RECTANGLE,
        TextureKind::Rectangle,
    ),
    (
        TEXTURE_CUBE_MAP,
        TEXTURE_BINDING_CUBE_MAP,
        TextureKind::Cube,
    ),
    (TEXTURE_BUFFER, TEXTURE_BINDING_BUFFER, TextureKind::Buffer),
    (
        TEXTURE_2D_MULTISAMPLE,
        TEXTURE_BINDING_2D_MULTISAMPLE,
        TextureKind::D2Multisample,
    ),
    (
        TEXTURE_2D_MULTISAMPLE_ARRAY,
        TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY,
        TextureKind::D2MultisampleArray,
    ),
];

#[test]
fn the_first_bind_creates_the_texture_of_its_target() {
    let mut ctx = context();
    for (target, binding, kind) in TARGETS {
        records(&mut ctx);
        let t = ctx.gen_texture();
        assert_eq!(ctx.is_texture(t), FALSE as GLboolean);
        assert!(records(&mut ctx).is_empty(), "gen creates nothing");
        ctx.bind_texture(target, t);
        assert_no_error!(ctx);
        assert_eq!(ctx.is_texture(t), TRUE as GLboolean);
        assert_eq!(ctx.get_integer(binding), t as GLint);
        let recs = records(&mut ctx);
        let [Record::CreateTexture { kind: created, .. }] = recs[..] else {
            panic!("unexpected records {recs:?}");
        };
        assert_eq!(created, kind, "target {target:#x}");
        // Binding again creates nothing more.
        ctx.bind_texture(target, 0);
        ctx.bind_texture(target, t);
        assert!(records(&mut ctx).is_empty());
    }
}

#[test]
fn binding_errors() {
    let mut ctx = context();
    let t = bound(&mut ctx, TEXTURE_2D);
    ctx.bind_texture(TEXTURE_3D, t);
    assert_error!(ctx, INVALID_OPERATION, "target fixed at first bind");
    assert_eq!(ctx.get_integer(TEXTURE_BINDING_3D), 0);
    ctx.bind_texture(TEXTURE_2D, 777);
    assert_error!(ctx, INVALID_OPERATION, "never generated");
    ctx.bind_texture(TEXTURE_CUBE_MAP_POSITIVE_X, t);
    assert_error!(ctx, INVALID_ENUM, "a face is not a binding target");
    ctx.bind_texture(PROXY_TEXTURE_2D, t);
    assert_error!(ctx, INVALID_ENUM);
    assert_eq!(ctx.get_integer(TEXTURE_BINDING_2D), t as GLint);
    let mut names = [0; 2];
    ctx.gen_textures(-1, &mut names);
    assert_error!(ctx, INVALID_VALUE);
    ctx.delete_textures(-1, &names);
    assert_error!(ctx, INVALID_VALUE);
    // Deleting names that were never generated, or 0, is silently ignored.
    ctx.delete_textures(2, &[0, 9999]);
    assert_no_error!(ctx);
    assert_eq!(ctx.is_texture(0), FALSE as GLboolean);
}

#[test]
fn units_select_bindings() {
    let mut ctx = context();
    assert_eq!(ctx.get_integer(ACTIVE_TEXTURE), TEXTURE0 as GLint);
    ctx.active_texture(TEXTURE0 + 48);
    assert_error!(ctx, INVALID_ENUM, "48 combined units");
    ctx.active_texture(TEXTURE0 - 1);
    assert_error!(ctx, INVALID_ENUM);
    assert_eq!(ctx.get_integer(ACTIVE_TEXTURE), TEXTURE0 as GLint);
    ctx.active_texture(TEXTURE0 + 47);
    assert_no_error!(ctx);
    assert_eq!(ctx.get_integer(ACTIVE_TEXTURE), (TEXTURE0 + 47) as GLint);
    let t = bound(&mut ctx, TEXTURE_2D);
    ctx.active_texture(TEXTURE0);
    assert_eq!(ctx.get_integer(TEXTURE_BINDING_2D), 0);
    ctx.active_texture(TEXTURE0 + 47);
    assert_eq!(ctx.get_integer(TEXTURE_BINDING_2D), t as GLint);
}

#[test]
fn texture_zero_is_a_texture_every_unit_shares() {
    let mut ctx = context();
    ctx.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        2,
        2,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    assert_no_error!(ctx);
    assert_eq!(level(&mut ctx, TEXTURE_2D, 0, TEXTURE_WIDTH), 2);
    assert_eq!(ctx.get_integer(TEXTURE_BINDING_2D), 0);
    ctx.active_texture(TEXTURE1);
    assert_eq!(
        level(&mut ctx, TEXTURE_2D, 0, TEXTURE_WIDTH),
        2,
        "same object (Mesa)"
    );
    let t = bound(&mut ctx, TEXTURE_2D);
    assert_eq!(level(&mut ctx, TEXTURE_2D, 0, TEXTURE_WIDTH), 0);
    ctx.bind_texture(TEXTURE_2D, 0);
    assert_eq!(level(&mut ctx, TEXTURE_2D, 0, TEXTURE_WIDTH), 2);
    // Deleting a texture bound to a unit rebinds texture zero there.
    ctx.bind_texture(TEXTURE_2D, t);
    ctx.delete_textures(1, &[t]);
    assert_eq!(ctx.get_integer(TEXTURE_BINDING_2D), 0);
    assert_eq!(level(&mut ctx, TEXTURE_2D, 0, TEXTURE_WIDTH), 2);
    assert_no_error!(ctx);
}

fn destroys(recs: &[Record]) -> usize {
    recs.iter()
        .filter(|r| matches!(r, Record::DestroyTexture { .. }))
        .count()
}

#[test]
fn deletion_unbinds_from_every_unit_of_this_context() {
    let mut ctx = context();
    let t = bound(&mut ctx, TEXTURE_2D);
    ctx.active_texture(TEXTURE3);
    ctx.bind_texture(TEXTURE_2D, t);
    records(&mut ctx);
    ctx.delete_textures(1, &[t]);
    assert_no_error!(ctx);
    assert_eq!(ctx.is_texture(t), FALSE as GLboolean);
    assert_eq!(ctx.get_integer(TEXTURE_BINDING_2D), 0);
    ctx.active_texture(TEXTURE0);
    assert_eq!(ctx.get_integer(TEXTURE_BINDING_2D), 0);
    assert_eq!(destroys(&records(&mut ctx)), 1);
    // The name is free again: binding it is an error.
    ctx.bind_texture(TEXTURE_2D, t);
    assert_error!(ctx, INVALID_OPERATION);
}

#[test]
fn a_texture_bound_in_another_context_lives_until_unbound_there() {
    let mut a = context();
    let config = Config {
        capture: true,
        surface: Some(SurfaceConfig::new(16, 16)),
        backend: tessera_engine::BackendKind::Null,
        ..Config::default()
    };
    let mut b = Context::new_shared(&a, &config);
    let t = bound(&mut a, TEXTURE_2D);
    b.bind_texture(TEXTURE_2D, t);
    assert_no_error!(b);
    records(&mut a);
    a.delete_textures(1, &[t]);
    assert_eq!(a.get_integer(TEXTURE_BINDING_2D), 0);
    assert_eq!(destroys(&records(&mut a)), 0, "still bound in b");
    assert_eq!(
        b.is_texture(t),
        FALSE as GLboolean,
        "the name is gone for everyone"
    );
    b.bind_texture(TEXTURE_2D, 0);
    assert_eq!(destroys(&records(&mut b)), 1);
}

#[test]
fn a_texture_attached_to_an_unbound_framebuffer_lives_until_detached() {
    let mut ctx = context();
    let t = bound(&mut ctx, TEXTURE_2D);
    ctx.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        4,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    let fb = ctx.gen_framebuffer();
    ctx.bind_framebuffer(FRAMEBUFFER, fb);
    ctx.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, t, 0);
    ctx.bind_framebuffer(FRAMEBUFFER, 0);
    assert_no_error!(ctx);
    records(&mut ctx);
    ctx.delete_textures(1, &[t]);
    assert_eq!(
        destroys(&records(&mut ctx)),
        0,
        "the framebuffer still holds it"
    );
    ctx.delete_framebuffers(1, &[fb]);
    assert_eq!(destroys(&records(&mut ctx)), 1);
}

#[test]
fn deleting_a_texture_attached_to_the_bound_framebuffer_detaches_it() {
    let mut ctx = context();
    let t = bound(&mut ctx, TEXTURE_2D);
    ctx.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        4,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    let fb = ctx.gen_framebuffer();
    ctx.bind_framebuffer(FRAMEBUFFER, fb);
    ctx.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, t, 0);
    records(&mut ctx);
    ctx.delete_textures(1, &[t]);
    assert_no_error!(ctx);
    assert_eq!(destroys(&records(&mut ctx)), 1);
    let mut ty = [-1];
    ctx.get_framebuffer_attachment_parameteriv(
        FRAMEBUFFER,
        COLOR_ATTACHMENT0,
        FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
        &mut ty,
    );
    assert_eq!(ty[0], NONE as GLint);
}

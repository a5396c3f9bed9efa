//! Completeness as a draw sees it: a complete texture is bound to the program's sampler slot
//! with a sampler CSO, an incomplete one as `None` (GL 3.3 §3.8.14). The detailed rules are
//! unit-tested in `tessera_systems::texture`; these follow them through the engine: image
//! and parameter changes of bound textures, and sampler objects overriding the texture's
//! sampling parameters.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::Pixels;
use tessera_tests::programs::textured_program;
use tessera_tests::{assert_no_error, context, records};
use tessera_wire::record::Record;

use super::bound;

/// A context drawing with a `sampler2D` program reading unit 0.
fn drawing() -> Context {
    let mut ctx = context();
    let program = textured_program(&mut ctx);
    ctx.use_program(program);
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    ctx
}

/// Draws; returns whether slot 0 got a texture (`Some(true)`), got none (`Some(false)`), or
/// was not rebound (`None`), and whether a view was sent.
fn draw(ctx: &mut Context) -> (Option<bool>, bool) {
    records(ctx);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_no_error!(ctx);
    let recs = records(ctx);
    let bind = recs.iter().rev().find_map(|r| match r {
        Record::BindTexture {
            slot: 0,
            texture,
            sampler,
        } => {
            assert_eq!(texture.is_some(), sampler.is_some());
            Some(texture.is_some())
        }
        _ => None,
    });
    let view = recs
        .iter()
        .any(|r| matches!(r, Record::SetTextureView { .. }));
    (bind, view)
}

fn image(ctx: &mut Context, lvl: GLint, ifmt: GLenum, w: i32, h: i32) {
    ctx.tex_image_2d(
        TEXTURE_2D,
        lvl,
        ifmt as GLint,
        w,
        h,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
}

#[test]
fn mipmap_filters_need_the_whole_chain() {
    let mut ctx = drawing();
    bound(&mut ctx, TEXTURE_2D);
    image(&mut ctx, 0, RGBA8, 4, 2);
    // NEAREST_MIPMAP_LINEAR by default: levels 1 (2x1) and 2 (1x1) are missing.
    assert_eq!(draw(&mut ctx), (Some(false), false));
    image(&mut ctx, 1, RGBA8, 2, 1);
    assert_eq!(
        draw(&mut ctx),
        (None, false),
        "still incomplete: nothing to rebind"
    );
    image(&mut ctx, 2, RGBA8, 1, 1);
    assert_eq!(draw(&mut ctx), (Some(true), true));
    assert_eq!(draw(&mut ctx), (None, false), "steady state");
    // A level of the wrong size, or of another internal format, breaks the chain.
    image(&mut ctx, 1, RGBA8, 2, 2);
    assert_eq!(draw(&mut ctx).0, Some(false));
    image(&mut ctx, 1, RGBA, 2, 1);
    assert_eq!(draw(&mut ctx).0, None, "RGBA is not RGBA8");
    image(&mut ctx, 1, RGBA8, 2, 1);
    assert_eq!(draw(&mut ctx).0, Some(true));
    // Levels above MAX_LEVEL do not matter; BASE_LEVEL above MAX_LEVEL is incomplete.
    image(&mut ctx, 2, RGBA8, 7, 7);
    assert_eq!(draw(&mut ctx).0, Some(false));
    ctx.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_LEVEL, 1);
    assert_eq!(
        draw(&mut ctx),
        (Some(true), true),
        "the view shrinks to levels 0..=1"
    );
    ctx.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, 2);
    assert_eq!(draw(&mut ctx).0, Some(false));
    // Without mipmaps only the base level counts.
    ctx.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, LINEAR as GLint);
    assert_eq!(draw(&mut ctx).0, Some(true));
}

#[test]
fn sampler_objects_replace_the_texture_filters() {
    let mut ctx = drawing();
    bound(&mut ctx, TEXTURE_2D);
    image(&mut ctx, 0, RGBA8, 4, 4);
    ctx.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, LINEAR as GLint);
    assert_eq!(draw(&mut ctx).0, Some(true));
    let s = ctx.gen_sampler();
    ctx.bind_sampler(0, s);
    // The sampler's initial NEAREST_MIPMAP_LINEAR needs mipmaps the texture lacks.
    assert_eq!(draw(&mut ctx).0, Some(false));
    ctx.sampler_parameteri(s, TEXTURE_MIN_FILTER, NEAREST as GLint);
    assert_eq!(draw(&mut ctx).0, Some(true));
    ctx.tex_parameteri(
        TEXTURE_2D,
        TEXTURE_MIN_FILTER,
        NEAREST_MIPMAP_NEAREST as GLint,
    );
    assert_eq!(
        draw(&mut ctx).0,
        None,
        "the texture's own filter does not apply"
    );
    ctx.delete_samplers(1, &[s]);
    assert_eq!(
        draw(&mut ctx).0,
        Some(false),
        "back to the texture's mipmap filter"
    );
}

#[test]
fn integer_textures_need_nearest_filtering() {
    let mut ctx = drawing();
    bound(&mut ctx, TEXTURE_2D);
    ctx.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8UI as GLint,
        1,
        1,
        0,
        RGBA_INTEGER,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    ctx.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
    // MAG_FILTER is LINEAR by default.
    assert_eq!(draw(&mut ctx).0, Some(false));
    ctx.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as GLint);
    assert_eq!(draw(&mut ctx).0, Some(true));
}

#[test]
fn unbinding_and_deleting_a_sampled_texture() {
    let mut ctx = drawing();
    let t = bound(&mut ctx, TEXTURE_2D);
    image(&mut ctx, 0, RGBA8, 1, 1);
    assert_eq!(
        draw(&mut ctx).0,
        Some(true),
        "a 1x1 level 0 is a whole chain"
    );
    ctx.active_texture(TEXTURE1);
    ctx.bind_texture(TEXTURE_2D, 0);
    assert_eq!(draw(&mut ctx).0, None, "unit 1 is not sampled");
    ctx.active_texture(TEXTURE0);
    ctx.delete_textures(1, &[t]);
    assert_eq!(draw(&mut ctx).0, Some(false));
}

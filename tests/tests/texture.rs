//! Texture objects: names and bindings, parameters, images, transfers and their records.
//! Expected errors and values were checked against Mesa llvmpipe (the oracle) where GL 3.3
//! leaves a doubt; where Tessera follows GL 3.3 instead of a later version Mesa implements,
//! the test says so.

mod buffer;
mod completeness;
mod compressed;
mod images;
mod mipmaps;
mod multisample;
mod objects;
mod params;
mod transfers;

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_tests::records;
use tessera_wire::record::Record;

/// Generates a texture and binds it to `target` of the active unit.
pub(crate) fn bound(ctx: &mut Context, target: GLenum) -> GLuint {
    let t = ctx.gen_texture();
    ctx.bind_texture(target, t);
    t
}

/// `tex_image_2d` with no data.
#[expect(
    clippy::too_many_arguments,
    reason = "GL's signature, less the border and data"
)]
pub(crate) fn tex2d(
    ctx: &mut Context,
    target: GLenum,
    lvl: GLint,
    ifmt: GLenum,
    w: i32,
    h: i32,
    format: GLenum,
    ty: GLenum,
) {
    use tessera_engine::pixel::Pixels;
    ctx.tex_image_2d(
        target,
        lvl,
        ifmt as GLint,
        w,
        h,
        0,
        format,
        ty,
        Pixels::None,
    );
}

/// `get_tex_level_parameteriv`.
pub(crate) fn level(ctx: &mut Context, target: GLenum, lvl: GLint, pname: GLenum) -> GLint {
    let mut v = [-12345];
    ctx.get_tex_level_parameteriv(target, lvl, pname, &mut v);
    v[0]
}

/// `get_tex_parameteriv` of one value.
pub(crate) fn param(ctx: &mut Context, target: GLenum, pname: GLenum) -> GLint {
    let mut v = [-12345];
    ctx.get_tex_parameteriv(target, pname, &mut v);
    v[0]
}

/// `get_tex_parameterfv` of one value.
pub(crate) fn paramf(ctx: &mut Context, target: GLenum, pname: GLenum) -> GLfloat {
    let mut v = [-12345.0];
    ctx.get_tex_parameterfv(target, pname, &mut v);
    v[0]
}

/// Runs `f` alone in a batch and returns the records it produced with that batch's stage
/// bytes.
pub(crate) fn batch_of(ctx: &mut Context, f: impl FnOnce(&mut Context)) -> (Vec<Record>, Vec<u8>) {
    records(ctx);
    let probe = ctx.null_probe().expect("a null backend");
    probe.take_batches();
    f(ctx);
    let recs = records(ctx);
    let batches = probe.take_batches();
    assert_eq!(batches.len(), 1, "one batch expected");
    let stage = batches.into_iter().next().map(|b| b.1).unwrap_or_default();
    (recs, stage)
}

/// The stage bytes of a span.
pub(crate) fn bytes(stage: &[u8], span: tessera_wire::record::Span) -> Vec<u8> {
    stage[span.offset as usize..(span.offset + span.len) as usize].to_vec()
}

//! Mipmap generation: errors, the levels it defines and its record.

use tessera_engine::gl::*;
use tessera_engine::pixel::Pixels;
use tessera_tests::{assert_error, assert_no_error, context, records};
use tessera_wire::record::Record;

use super::{bound, level, tex2d};

#[test]
fn generate_mipmap() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    let t = TEXTURE_2D;
    ctx.generate_mipmap(t);
    assert_error!(ctx, INVALID_OPERATION, "no base image");
    tex2d(&mut ctx, t, 0, RGBA8, 8, 4, RGBA, UNSIGNED_BYTE);
    records(&mut ctx);
    ctx.generate_mipmap(t);
    assert_no_error!(ctx);
    let widths: Vec<_> = (0..5)
        .map(|l| level(&mut ctx, t, l, TEXTURE_WIDTH))
        .collect();
    let heights: Vec<_> = (0..5)
        .map(|l| level(&mut ctx, t, l, TEXTURE_HEIGHT))
        .collect();
    assert_eq!(widths, [8, 4, 2, 1, 0]);
    assert_eq!(heights, [4, 2, 1, 1, 0]);
    assert_eq!(
        level(&mut ctx, t, 3, TEXTURE_INTERNAL_FORMAT),
        RGBA8 as GLint
    );
    let recs = records(&mut ctx);
    let defines = recs
        .iter()
        .filter(|r| matches!(r, Record::DefineTextureImage { .. }))
        .count();
    assert_eq!(defines, 3);
    assert!(matches!(
        recs.last(),
        Some(Record::GenerateMipmap {
            base: 0,
            max: 3,
            ..
        })
    ));
    // Again: the levels exist already, only the fill is sent.
    ctx.generate_mipmap(t);
    let recs = records(&mut ctx);
    assert!(
        matches!(
            recs[..],
            [Record::GenerateMipmap {
                base: 0,
                max: 3,
                ..
            }]
        ),
        "{recs:?}"
    );
    // MAX_LEVEL bounds the chain.
    tex2d(&mut ctx, t, 0, RGBA8, 16, 16, RGBA, UNSIGNED_BYTE);
    ctx.tex_parameteri(t, TEXTURE_MAX_LEVEL, 1);
    records(&mut ctx);
    ctx.generate_mipmap(t);
    assert!(matches!(
        records(&mut ctx).last(),
        Some(Record::GenerateMipmap {
            base: 0,
            max: 1,
            ..
        })
    ));
    assert_eq!(level(&mut ctx, t, 1, TEXTURE_WIDTH), 8);
    assert_eq!(
        level(&mut ctx, t, 2, TEXTURE_WIDTH),
        2,
        "untouched above MAX_LEVEL"
    );
    // A base level with no image possible is no error (Mesa).
    ctx.tex_parameteri(t, TEXTURE_BASE_LEVEL, 2000);
    ctx.generate_mipmap(t);
    assert_no_error!(ctx);
    for target in [
        0x1234,
        TEXTURE_RECTANGLE,
        TEXTURE_2D_MULTISAMPLE,
        TEXTURE_BUFFER,
        TEXTURE_CUBE_MAP_POSITIVE_X,
        PROXY_TEXTURE_2D,
    ] {
        ctx.generate_mipmap(target);
        assert_error!(ctx, INVALID_ENUM, "{target:#x}");
    }
    // Integer formats cannot be filtered (Mesa refuses them).
    bound(&mut ctx, t);
    tex2d(&mut ctx, t, 0, RGBA8UI, 4, 4, RGBA_INTEGER, UNSIGNED_BYTE);
    ctx.generate_mipmap(t);
    assert_error!(ctx, INVALID_OPERATION);
    bound(&mut ctx, t);
    tex2d(
        &mut ctx,
        t,
        0,
        DEPTH_COMPONENT24,
        4,
        4,
        DEPTH_COMPONENT,
        FLOAT,
    );
    ctx.generate_mipmap(t);
    assert_no_error!(ctx);
    // Arrays keep their layers; 3D textures halve their depth.
    bound(&mut ctx, TEXTURE_2D_ARRAY);
    ctx.tex_image_3d(
        TEXTURE_2D_ARRAY,
        0,
        RGBA8 as GLint,
        8,
        8,
        3,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    ctx.generate_mipmap(TEXTURE_2D_ARRAY);
    let layers: Vec<_> = (0..4)
        .map(|l| level(&mut ctx, TEXTURE_2D_ARRAY, l, TEXTURE_DEPTH))
        .collect();
    assert_eq!(layers, [3, 3, 3, 3]);
    bound(&mut ctx, TEXTURE_3D);
    ctx.tex_image_3d(
        TEXTURE_3D,
        0,
        RGBA8 as GLint,
        8,
        8,
        2,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    ctx.generate_mipmap(TEXTURE_3D);
    let depths: Vec<_> = (0..4)
        .map(|l| level(&mut ctx, TEXTURE_3D, l, TEXTURE_DEPTH))
        .collect();
    assert_eq!(depths, [2, 1, 1, 1]);
    bound(&mut ctx, TEXTURE_1D_ARRAY);
    tex2d(
        &mut ctx,
        TEXTURE_1D_ARRAY,
        0,
        RGBA8,
        8,
        3,
        RGBA,
        UNSIGNED_BYTE,
    );
    ctx.generate_mipmap(TEXTURE_1D_ARRAY);
    let rows: Vec<_> = (0..4)
        .map(|l| level(&mut ctx, TEXTURE_1D_ARRAY, l, TEXTURE_HEIGHT))
        .collect();
    assert_eq!(rows, [3, 3, 3, 3]);
    assert_no_error!(ctx);
}

#[test]
fn generate_mipmap_needs_a_cube_complete_cube_map() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_CUBE_MAP);
    for face in 0..5 {
        tex2d(
            &mut ctx,
            TEXTURE_CUBE_MAP_POSITIVE_X + face,
            0,
            RGBA8,
            4,
            4,
            RGBA,
            UNSIGNED_BYTE,
        );
    }
    ctx.generate_mipmap(TEXTURE_CUBE_MAP);
    assert_error!(ctx, INVALID_OPERATION, "five faces");
    tex2d(
        &mut ctx,
        TEXTURE_CUBE_MAP_NEGATIVE_Z,
        0,
        RGBA8,
        8,
        8,
        RGBA,
        UNSIGNED_BYTE,
    );
    ctx.generate_mipmap(TEXTURE_CUBE_MAP);
    assert_error!(ctx, INVALID_OPERATION, "a face of another size");
    tex2d(
        &mut ctx,
        TEXTURE_CUBE_MAP_NEGATIVE_Z,
        0,
        SRGB8_ALPHA8,
        4,
        4,
        RGBA,
        UNSIGNED_BYTE,
    );
    ctx.generate_mipmap(TEXTURE_CUBE_MAP);
    assert_error!(ctx, INVALID_OPERATION, "a face of another format");
    tex2d(
        &mut ctx,
        TEXTURE_CUBE_MAP_NEGATIVE_Z,
        0,
        RGBA8,
        4,
        4,
        RGBA,
        UNSIGNED_BYTE,
    );
    records(&mut ctx);
    ctx.generate_mipmap(TEXTURE_CUBE_MAP);
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    let defines = recs
        .iter()
        .filter(|r| matches!(r, Record::DefineTextureImage { .. }))
        .count();
    assert_eq!(defines, 12, "two levels of six faces");
    assert_eq!(
        level(&mut ctx, TEXTURE_CUBE_MAP_NEGATIVE_Y, 2, TEXTURE_WIDTH),
        1
    );
}

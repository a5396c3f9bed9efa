//! Compressed (RGTC) images: block arithmetic, errors and sub-images.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::Pixels;
use tessera_tests::{assert_error, assert_no_error, context};

use super::{bound, level};

#[test]
fn compressed_images() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    let blocks = [7u8; 256];
    let t = TEXTURE_2D;
    let r1 = COMPRESSED_RED_RGTC1;
    let ci = |ctx: &mut Context,
              target: GLenum,
              lvl: GLint,
              format: GLenum,
              (w, h): (i32, i32),
              border: GLint,
              size: GLsizei| {
        ctx.compressed_tex_image_2d(
            target,
            lvl,
            format,
            w,
            h,
            border,
            size,
            Pixels::Bytes(&blocks),
        );
    };
    ci(&mut ctx, t, 0, r1, (8, 8), 0, 32);
    assert_no_error!(ctx);
    assert_eq!(level(&mut ctx, t, 0, TEXTURE_COMPRESSED), 1);
    assert_eq!(level(&mut ctx, t, 0, TEXTURE_COMPRESSED_IMAGE_SIZE), 32);
    assert_eq!(level(&mut ctx, t, 0, TEXTURE_INTERNAL_FORMAT), r1 as GLint);
    assert_eq!(level(&mut ctx, t, 0, TEXTURE_RED_SIZE), 8);
    assert_eq!(
        level(&mut ctx, t, 0, TEXTURE_RED_TYPE),
        UNSIGNED_NORMALIZED as GLint
    );
    // Blocks round up: 5x5 is 2x2 blocks of 8 bytes.
    ci(&mut ctx, t, 0, r1, (5, 5), 0, 32);
    assert_no_error!(ctx);
    ci(&mut ctx, t, 0, r1, (5, 5), 0, 8);
    assert_error!(ctx, INVALID_VALUE, "image size does not match the blocks");
    ci(&mut ctx, t, 0, COMPRESSED_RG_RGTC2, (4, 4), 0, 8);
    assert_error!(ctx, INVALID_VALUE, "RGTC2 blocks are 16 bytes");
    ci(&mut ctx, t, 0, r1, (4, 4), 0, -1);
    assert_error!(ctx, INVALID_VALUE);
    ci(&mut ctx, t, 0, RGBA8, (4, 4), 0, 16);
    assert_error!(ctx, INVALID_ENUM, "not a compressed format");
    ci(&mut ctx, t, 0, COMPRESSED_RED, (4, 4), 0, 8);
    assert_error!(
        ctx,
        INVALID_ENUM,
        "generic compressed formats have no blocks"
    );
    ci(&mut ctx, t, 0, r1, (4, 4), 1, 8);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "border (Mesa: INVALID_OPERATION on desktop GL)"
    );
    ci(&mut ctx, t, -1, r1, (4, 4), 0, 8);
    assert_error!(ctx, INVALID_VALUE);
    ci(&mut ctx, t, 0, r1, (-4, 4), 0, 8);
    assert_error!(ctx, INVALID_VALUE);
    ci(&mut ctx, 0x1234, 0, r1, (4, 4), 0, 8);
    assert_error!(ctx, INVALID_ENUM);
    ci(&mut ctx, TEXTURE_RECTANGLE, 0, r1, (4, 4), 0, 8);
    assert_error!(ctx, INVALID_ENUM);
    ci(&mut ctx, TEXTURE_1D_ARRAY, 0, r1, (4, 4), 0, 8);
    assert_error!(ctx, INVALID_ENUM);
    ctx.compressed_tex_image_1d(TEXTURE_1D, 0, r1, 8, 0, 32, Pixels::Bytes(&blocks));
    assert_error!(ctx, INVALID_ENUM, "no 1D compressed formats");
    ctx.compressed_tex_image_3d(TEXTURE_3D, 0, r1, 8, 8, 2, 0, 64, Pixels::Bytes(&blocks));
    assert_error!(ctx, INVALID_ENUM, "no 3D RGTC");
    bound(&mut ctx, TEXTURE_2D_ARRAY);
    ctx.compressed_tex_image_3d(
        TEXTURE_2D_ARRAY,
        0,
        r1,
        8,
        8,
        2,
        0,
        64,
        Pixels::Bytes(&blocks),
    );
    assert_no_error!(ctx);
    ci(&mut ctx, PROXY_TEXTURE_2D, 0, r1, (4, 4), 0, 8);
    assert_eq!(level(&mut ctx, PROXY_TEXTURE_2D, 0, TEXTURE_WIDTH), 4);
    ci(&mut ctx, PROXY_TEXTURE_2D, 0, r1, (4, 4), 0, 9);
    assert_error!(ctx, INVALID_VALUE, "a proxy checks the image size too");

    // Sub-images.
    ci(&mut ctx, t, 0, r1, (8, 8), 0, 32);
    let cs = |ctx: &mut Context,
              lvl: GLint,
              (x, y, w, h): (i32, i32, i32, i32),
              format: GLenum,
              size: GLsizei| {
        ctx.compressed_tex_sub_image_2d(
            TEXTURE_2D,
            lvl,
            x,
            y,
            w,
            h,
            format,
            size,
            Pixels::Bytes(&blocks),
        );
    };
    cs(&mut ctx, 0, (4, 4, 4, 4), r1, 8);
    assert_no_error!(ctx);
    cs(&mut ctx, 0, (4, 4, 4, 4), r1, 16);
    assert_error!(ctx, INVALID_VALUE, "size");
    cs(&mut ctx, 0, (2, 0, 4, 4), r1, 8);
    assert_error!(ctx, INVALID_OPERATION, "offset not on a block");
    cs(&mut ctx, 0, (0, 0, 3, 4), r1, 8);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "width not whole blocks inside the image"
    );
    cs(&mut ctx, 0, (8, 0, 4, 4), r1, 8);
    assert_error!(ctx, INVALID_VALUE, "outside");
    cs(&mut ctx, 0, (0, 0, 4, 4), COMPRESSED_RG_RGTC2, 16);
    assert_error!(ctx, INVALID_OPERATION, "not the image's format");
    cs(&mut ctx, 0, (0, 0, 4, 4), 0x1234, 8);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "Mesa: INVALID_OPERATION for a non-compressed format"
    );
    cs(&mut ctx, 0, (0, 0, 4, 4), COMPRESSED_RED, 8);
    assert_error!(ctx, INVALID_ENUM, "generic compressed format");
    cs(&mut ctx, 3, (0, 0, 4, 4), r1, 8);
    assert_error!(ctx, INVALID_OPERATION, "no image at level 3");
    ci(&mut ctx, t, 0, r1, (6, 6), 0, 32);
    cs(&mut ctx, 0, (4, 4, 2, 2), r1, 8);
    assert_no_error!(ctx);
}

#[test]
fn compressed_sub_images_of_other_dimensions() {
    let mut ctx = context();
    let blocks = [0u8; 256];
    let r1 = COMPRESSED_RED_RGTC1;
    let px = Pixels::Bytes(&blocks);
    bound(&mut ctx, TEXTURE_2D_ARRAY);
    ctx.compressed_tex_image_3d(TEXTURE_2D_ARRAY, 0, r1, 8, 8, 2, 0, 64, px);
    ctx.compressed_tex_sub_image_3d(TEXTURE_2D_ARRAY, 0, 4, 0, 1, 4, 4, 1, r1, 8, px);
    assert_no_error!(ctx);
    ctx.compressed_tex_sub_image_3d(TEXTURE_2D_ARRAY, 0, 4, 0, 2, 4, 4, 1, r1, 8, px);
    assert_error!(ctx, INVALID_VALUE, "layer 2 of 2");
    bound(&mut ctx, TEXTURE_3D);
    ctx.tex_image_3d(
        TEXTURE_3D,
        0,
        RGBA8 as GLint,
        8,
        8,
        8,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    ctx.compressed_tex_sub_image_3d(TEXTURE_3D, 0, 0, 0, 0, 4, 4, 1, r1, 8, px);
    assert_error!(ctx, INVALID_OPERATION, "RGTC has no 3D layout (Mesa)");
    bound(&mut ctx, TEXTURE_1D);
    ctx.tex_image_1d(
        TEXTURE_1D,
        0,
        RGBA8 as GLint,
        8,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    ctx.compressed_tex_sub_image_1d(TEXTURE_1D, 0, 0, 4, r1, 8, px);
    assert_error!(ctx, INVALID_ENUM);
    bound(&mut ctx, TEXTURE_RECTANGLE);
    ctx.compressed_tex_sub_image_2d(TEXTURE_RECTANGLE, 0, 0, 0, 4, 4, r1, 8, px);
    assert_error!(ctx, INVALID_ENUM);
}

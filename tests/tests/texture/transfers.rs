//! Pixel transfers: uploads with the unpack state applied (exact stage bytes), uploads from
//! a pixel unpack buffer, read-backs with the pack state, and copies from the read
//! framebuffer.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::{Pixels, PixelsMut};
use tessera_tests::{assert_error, assert_no_error, context, records, surfaceless};
use tessera_wire::format::{PixelFormat, PixelLayout, PixelType};
use tessera_wire::record::{FramebufferRef, PixelDestination, ReadImage, Record};
use tessera_wire::state::Rect;

use super::{batch_of, bound, bytes, level};

const RGB_U8: PixelLayout = PixelLayout {
    format: PixelFormat::Rgb,
    ty: PixelType::U8,
};

#[test]
fn an_upload_stages_the_tightly_packed_pixels() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    // Rows of 5 RGB pixels are 15 bytes, 16 with alignment 8; the image is the 2x2 block at
    // pixel 1 of rows 2 and 3.
    ctx.pixel_storei(UNPACK_ROW_LENGTH, 5);
    ctx.pixel_storei(UNPACK_SKIP_ROWS, 2);
    ctx.pixel_storei(UNPACK_SKIP_PIXELS, 1);
    ctx.pixel_storei(UNPACK_ALIGNMENT, 8);
    // SKIP_IMAGES only applies to 3D uploads.
    ctx.pixel_storei(UNPACK_SKIP_IMAGES, 7);
    let src: Vec<u8> = (0..64).collect();
    let (recs, stage) = batch_of(&mut ctx, |ctx| {
        ctx.tex_image_2d(
            TEXTURE_2D,
            0,
            RGB8 as GLint,
            2,
            2,
            0,
            RGB,
            UNSIGNED_BYTE,
            Pixels::Bytes(&src),
        );
    });
    assert_no_error!(ctx);
    let [
        Record::DefineTextureImage {
            width: 2,
            height: 2,
            depth: 1,
            ..
        },
        Record::WriteTexture {
            level: 0,
            face: 0,
            ref region,
            layout,
            data,
            ..
        },
    ] = recs[..]
    else {
        panic!("{recs:?}");
    };
    assert_eq!((region.origin, region.size), ([0, 0, 0], [2, 2, 1]));
    assert_eq!(layout, RGB_U8);
    // Row stride 16: row 2 starts at 32, row 3 at 48; skip one 3-byte pixel.
    assert_eq!(
        bytes(&stage, data),
        [35, 36, 37, 38, 39, 40, 51, 52, 53, 54, 55, 56]
    );
}

#[test]
fn three_dimensional_uploads_use_image_height_and_skip_images() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_3D);
    ctx.pixel_storei(UNPACK_ALIGNMENT, 1);
    ctx.pixel_storei(UNPACK_IMAGE_HEIGHT, 3);
    ctx.pixel_storei(UNPACK_SKIP_IMAGES, 1);
    let src: Vec<u8> = (0..64).collect();
    let (recs, stage) = batch_of(&mut ctx, |ctx| {
        ctx.tex_image_3d(
            TEXTURE_3D,
            0,
            R8 as GLint,
            2,
            2,
            2,
            0,
            RED,
            UNSIGNED_BYTE,
            Pixels::Bytes(&src),
        );
    });
    assert_no_error!(ctx);
    let Some(Record::WriteTexture { data, .. }) = recs.last() else {
        panic!("{recs:?}");
    };
    // Images of 3 rows of 2 bytes: image 1 starts at 6, image 2 at 12.
    assert_eq!(bytes(&stage, *data), [6, 7, 8, 9, 12, 13, 14, 15]);
}

#[test]
fn swapped_bytes_are_swapped_per_component() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    ctx.pixel_storei(UNPACK_SWAP_BYTES, 1);
    let src = [1u8, 2, 3, 4, 5, 6, 7, 8];
    let (recs, stage) = batch_of(&mut ctx, |ctx| {
        ctx.tex_image_2d(
            TEXTURE_2D,
            0,
            RG16 as GLint,
            2,
            1,
            0,
            RG,
            UNSIGNED_SHORT,
            Pixels::Bytes(&src),
        );
    });
    let Some(Record::WriteTexture { data, .. }) = recs.last() else {
        panic!("{recs:?}");
    };
    assert_eq!(bytes(&stage, *data), [2, 1, 4, 3, 6, 5, 8, 7]);
}

#[test]
fn sub_images_write_their_region() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_1D_ARRAY);
    ctx.tex_image_2d(
        TEXTURE_1D_ARRAY,
        0,
        RGBA8 as GLint,
        8,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    let src: Vec<u8> = (0..24).collect();
    let (recs, stage) = batch_of(&mut ctx, |ctx| {
        ctx.tex_sub_image_2d(
            TEXTURE_1D_ARRAY,
            0,
            5,
            1,
            3,
            2,
            RGBA,
            UNSIGNED_BYTE,
            Pixels::Bytes(&src),
        );
    });
    let [
        Record::WriteTexture {
            ref region, data, ..
        },
    ] = recs[..]
    else {
        panic!("{recs:?}");
    };
    // A 1D array's GL rows are its layers: the wire's z.
    assert_eq!((region.origin, region.size), ([5, 0, 1], [3, 1, 2]));
    assert_eq!(bytes(&stage, data), src);
    // An empty region writes nothing; nor does an image defined without data.
    ctx.tex_sub_image_2d(
        TEXTURE_1D_ARRAY,
        0,
        0,
        0,
        0,
        4,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::Bytes(&src),
    );
    assert_no_error!(ctx);
    assert!(records(&mut ctx).is_empty());
}

#[test]
fn compressed_uploads_stage_the_blocks() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    let blocks: Vec<u8> = (0..40).collect();
    let (recs, stage) = batch_of(&mut ctx, |ctx| {
        ctx.compressed_tex_image_2d(
            TEXTURE_2D,
            0,
            COMPRESSED_RED_RGTC1,
            8,
            8,
            0,
            32,
            Pixels::Bytes(&blocks),
        );
    });
    let [
        Record::DefineTextureImage { .. },
        Record::WriteCompressedTexture {
            ref region, data, ..
        },
    ] = recs[..]
    else {
        panic!("{recs:?}");
    };
    assert_eq!((region.origin, region.size), ([0, 0, 0], [8, 8, 1]));
    assert_eq!(bytes(&stage, data), blocks[..32]);
}

/// A pixel unpack buffer of `size` bytes, bound.
fn unpack_buffer(ctx: &mut Context, size: isize) -> GLuint {
    let b = ctx.gen_buffer();
    ctx.bind_buffer(PIXEL_UNPACK_BUFFER, b);
    ctx.buffer_data(PIXEL_UNPACK_BUFFER, size, None, STREAM_DRAW);
    b
}

#[test]
fn uploads_from_an_unpack_buffer() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    unpack_buffer(&mut ctx, 256);
    ctx.pixel_storei(UNPACK_ROW_LENGTH, 8);
    ctx.pixel_storei(UNPACK_SKIP_ROWS, 1);
    records(&mut ctx);
    ctx.tex_image_2d(
        TEXTURE_2D,
        0,
        RGB8 as GLint,
        2,
        3,
        0,
        RGB,
        UNSIGNED_BYTE,
        Pixels::Offset(4),
    );
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    let [
        Record::DefineTextureImage { .. },
        Record::WriteTextureFromBuffer {
            layout, ref source, ..
        },
    ] = recs[..]
    else {
        panic!("{recs:?}");
    };
    assert_eq!(layout, RGB_U8);
    // Rows of 8 RGB pixels are 24 bytes (already 4-aligned); row 1 starts at 4 + 24.
    assert_eq!((source.offset, source.row_stride), (28, 24));
    assert_eq!(
        (source.region.origin, source.region.size),
        ([0, 0, 0], [2, 3, 1])
    );
    assert!(!source.swap_bytes);
    ctx.pixel_storei(UNPACK_ROW_LENGTH, 0);
    ctx.pixel_storei(UNPACK_SKIP_ROWS, 0);
    // Pixels::None is offset 0 with a buffer bound.
    ctx.tex_sub_image_2d(TEXTURE_2D, 0, 0, 0, 2, 2, RGB, UNSIGNED_BYTE, Pixels::None);
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    let [Record::WriteTextureFromBuffer { ref source, .. }] = recs[..] else {
        panic!("{recs:?}");
    };
    assert_eq!((source.offset, source.row_stride), (0, 8));
}

#[test]
fn unpack_buffer_errors() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    unpack_buffer(&mut ctx, 64);
    let ti = |ctx: &mut Context,
              w: i32,
              h: i32,
              internal: GLenum,
              format: GLenum,
              ty: GLenum,
              px: Pixels<'_>| {
        ctx.tex_image_2d(TEXTURE_2D, 0, internal as GLint, w, h, 0, format, ty, px);
    };
    ti(&mut ctx, 4, 4, RGBA8, RGBA, UNSIGNED_BYTE, Pixels::None);
    assert_no_error!(ctx);
    ti(&mut ctx, 4, 5, RGBA8, RGBA, UNSIGNED_BYTE, Pixels::None);
    assert_error!(ctx, INVALID_OPERATION, "past the end of the buffer");
    ti(
        &mut ctx,
        2,
        2,
        RGBA8,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::Offset(1),
    );
    assert_no_error!(ctx);
    ti(&mut ctx, 1, 1, RGBA32F, RGBA, FLOAT, Pixels::Offset(2));
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "offset not a multiple of the type's size"
    );
    ti(
        &mut ctx,
        1,
        1,
        RGB8,
        RGB,
        UNSIGNED_SHORT_5_6_5,
        Pixels::Offset(1),
    );
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "a packed type's size is the pixel's"
    );
    ti(&mut ctx, 1, 1, RGBA32F, RGBA, FLOAT, Pixels::Offset(4));
    assert_no_error!(ctx);
    ti(
        &mut ctx,
        0,
        0,
        RGBA8,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::Offset(1000),
    );
    assert_no_error!(ctx);
    ti(
        &mut ctx,
        1,
        1,
        RGBA8,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::Bytes(&[0; 4]),
    );
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "client memory while a buffer is bound"
    );
    let p = ctx.map_buffer_range(PIXEL_UNPACK_BUFFER, 0, 64, MAP_WRITE_BIT);
    assert!(!p.is_null());
    ti(&mut ctx, 1, 1, RGBA8, RGBA, UNSIGNED_BYTE, Pixels::None);
    assert_error!(ctx, INVALID_OPERATION, "mapped");
    ctx.unmap_buffer(PIXEL_UNPACK_BUFFER);
    // Compressed data from the buffer.
    records(&mut ctx);
    ctx.compressed_tex_image_2d(
        TEXTURE_2D,
        0,
        COMPRESSED_RG_RGTC2,
        8,
        4,
        0,
        32,
        Pixels::Offset(16),
    );
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    let [
        Record::DefineTextureImage { .. },
        Record::WriteCompressedTextureFromBuffer { ref source, .. },
    ] = recs[..]
    else {
        panic!("{recs:?}");
    };
    assert_eq!((source.range.offset, source.range.size), (16, 32));
    ctx.compressed_tex_image_2d(
        TEXTURE_2D,
        0,
        COMPRESSED_RG_RGTC2,
        8,
        4,
        0,
        32,
        Pixels::Offset(40),
    );
    assert_error!(ctx, INVALID_OPERATION, "blocks past the end");
}

#[test]
fn get_tex_image_errors() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    let mut out = [0u8; 256];
    let gti = |ctx: &mut Context,
               target: GLenum,
               lvl: GLint,
               format: GLenum,
               ty: GLenum,
               out: &mut [u8]| {
        ctx.get_tex_image(target, lvl, format, ty, PixelsMut::Bytes(out));
    };
    gti(&mut ctx, TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, &mut out);
    assert_no_error!(ctx);
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
    for target in [
        0x1234,
        PROXY_TEXTURE_2D,
        TEXTURE_CUBE_MAP,
        TEXTURE_2D_MULTISAMPLE,
        TEXTURE_BUFFER,
    ] {
        gti(&mut ctx, target, 0, RGBA, UNSIGNED_BYTE, &mut out);
        assert_error!(ctx, INVALID_ENUM, "{target:#x}");
    }
    gti(&mut ctx, TEXTURE_2D, -1, RGBA, UNSIGNED_BYTE, &mut out);
    assert_error!(ctx, INVALID_VALUE);
    gti(&mut ctx, TEXTURE_2D, 20, RGBA, UNSIGNED_BYTE, &mut out);
    assert_error!(ctx, INVALID_VALUE);
    gti(&mut ctx, TEXTURE_2D, 0, 0x1234, UNSIGNED_BYTE, &mut out);
    assert_error!(ctx, INVALID_ENUM);
    gti(&mut ctx, TEXTURE_2D, 0, RGBA, 0x1234, &mut out);
    assert_error!(ctx, INVALID_ENUM);
    gti(&mut ctx, TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE_3_3_2, &mut out);
    assert_error!(ctx, INVALID_OPERATION);
    for format in [DEPTH_COMPONENT, RGBA_INTEGER, STENCIL_INDEX] {
        let ty = if format == DEPTH_COMPONENT {
            FLOAT
        } else {
            UNSIGNED_BYTE
        };
        gti(&mut ctx, TEXTURE_2D, 0, format, ty, &mut out);
        assert_error!(
            ctx,
            INVALID_OPERATION,
            "{format:#x} from a normalized colour image"
        );
    }
    gti(
        &mut ctx,
        TEXTURE_2D,
        0,
        DEPTH_STENCIL,
        UNSIGNED_INT_24_8,
        &mut out,
    );
    assert_error!(ctx, INVALID_OPERATION);
    gti(&mut ctx, TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, &mut out[..63]);
    assert_error!(ctx, INVALID_OPERATION, "client memory too short");
    bound(&mut ctx, TEXTURE_2D);
    ctx.tex_image_2d(
        TEXTURE_2D,
        0,
        DEPTH_COMPONENT24 as GLint,
        4,
        4,
        0,
        DEPTH_COMPONENT,
        FLOAT,
        Pixels::None,
    );
    gti(&mut ctx, TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, &mut out);
    assert_error!(ctx, INVALID_OPERATION, "colour from depth");
    gti(
        &mut ctx,
        TEXTURE_2D,
        0,
        DEPTH_STENCIL,
        UNSIGNED_INT_24_8,
        &mut out,
    );
    assert_error!(ctx, INVALID_OPERATION, "stencil from depth only");
    gti(&mut ctx, TEXTURE_2D, 0, DEPTH_COMPONENT, FLOAT, &mut out);
    assert_no_error!(ctx);
    bound(&mut ctx, TEXTURE_2D);
    ctx.tex_image_2d(
        TEXTURE_2D,
        0,
        DEPTH24_STENCIL8 as GLint,
        4,
        4,
        0,
        DEPTH_STENCIL,
        UNSIGNED_INT_24_8,
        Pixels::None,
    );
    for (format, ty) in [
        (DEPTH_STENCIL, UNSIGNED_INT_24_8),
        (STENCIL_INDEX, UNSIGNED_BYTE),
        (DEPTH_COMPONENT, FLOAT),
    ] {
        gti(&mut ctx, TEXTURE_2D, 0, format, ty, &mut out);
        assert_no_error!(ctx);
    }
}

#[test]
fn get_tex_image_reads_back_and_packs() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_CUBE_MAP);
    ctx.tex_image_2d(
        TEXTURE_CUBE_MAP_POSITIVE_Z,
        1,
        RGBA8 as GLint,
        2,
        2,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    ctx.pixel_storei(PACK_ROW_LENGTH, 3);
    ctx.pixel_storei(PACK_SKIP_PIXELS, 1);
    records(&mut ctx);
    // The null backend answers zeros; the pack state decides which bytes are written.
    let mut out = [0xaau8; 32];
    ctx.get_tex_image(
        TEXTURE_CUBE_MAP_POSITIVE_Z,
        1,
        RGBA,
        UNSIGNED_BYTE,
        PixelsMut::Bytes(&mut out),
    );
    assert_no_error!(ctx);
    let mut expect = [0xaau8; 32];
    expect[4..12].fill(0);
    expect[16..24].fill(0);
    assert_eq!(out, expect);
    let recs = records(&mut ctx);
    let [
        Record::ReadTexture {
            level: 1,
            face: 4,
            layout,
            ref read,
            ..
        },
    ] = recs[..]
    else {
        panic!("{recs:?}");
    };
    assert_eq!(
        layout,
        PixelLayout {
            format: PixelFormat::Rgba,
            ty: PixelType::U8
        }
    );
    assert_eq!(read.size, [2, 2, 1]);
    assert!(matches!(read.dst, PixelDestination::Reply(_)));
    // A level with no image reads nothing.
    ctx.get_tex_image(
        TEXTURE_CUBE_MAP_POSITIVE_Z,
        0,
        RGBA,
        UNSIGNED_BYTE,
        PixelsMut::Bytes(&mut out),
    );
    assert_no_error!(ctx);
    assert!(records(&mut ctx).is_empty());
}

#[test]
fn get_tex_image_into_a_pack_buffer() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
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
    let b = ctx.gen_buffer();
    ctx.bind_buffer(PIXEL_PACK_BUFFER, b);
    ctx.buffer_data(PIXEL_PACK_BUFFER, 80, Some(&[9u8; 80]), STREAM_READ);
    records(&mut ctx);
    // Tight rows: the backend writes the buffer itself.
    ctx.get_tex_image(TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, PixelsMut::Offset(16));
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    let [Record::ReadTexture { ref read, .. }] = recs[..] else {
        panic!("{recs:?}");
    };
    assert!(matches!(
        read.dst,
        PixelDestination::Buffer { offset: 16, .. }
    ));
    let mut back = [0u8; 80];
    ctx.get_buffer_sub_data(PIXEL_PACK_BUFFER, 0, 80, &mut back);
    assert_eq!(back[..16], [9; 16]);
    assert_eq!(back[16..], [0; 64]);
    // Rows with gaps: read back, packed here, written over the buffer's range.
    ctx.buffer_data(PIXEL_PACK_BUFFER, 80, Some(&[9u8; 80]), STREAM_READ);
    ctx.pixel_storei(PACK_ROW_LENGTH, 5);
    ctx.get_tex_image(TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, PixelsMut::Offset(0));
    assert_no_error!(ctx);
    ctx.get_buffer_sub_data(PIXEL_PACK_BUFFER, 0, 80, &mut back);
    for row in 0..4 {
        assert_eq!(back[row * 20..row * 20 + 16], [0; 16], "row {row}");
        if row < 3 {
            assert_eq!(
                back[row * 20 + 16..row * 20 + 20],
                [9; 4],
                "gap after row {row}"
            );
        }
    }
    ctx.get_tex_image(TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, PixelsMut::Offset(8));
    assert_error!(ctx, INVALID_OPERATION, "76 bytes from 8 are past the end");
    ctx.pixel_storei(PACK_ROW_LENGTH, 0);
    ctx.get_tex_image(TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, PixelsMut::Offset(16));
    assert_no_error!(ctx);
    ctx.get_tex_image(TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, PixelsMut::Offset(18));
    assert_error!(ctx, INVALID_OPERATION, "past the end");
    ctx.get_tex_image(
        TEXTURE_2D,
        0,
        RGBA,
        UNSIGNED_BYTE,
        PixelsMut::Bytes(&mut back),
    );
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "client memory while a pack buffer is bound"
    );
    ctx.map_buffer_range(PIXEL_PACK_BUFFER, 0, 4, MAP_READ_BIT);
    ctx.get_tex_image(TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, PixelsMut::Offset(0));
    assert_error!(ctx, INVALID_OPERATION, "mapped");
}

#[test]
fn copies_from_the_read_framebuffer() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    records(&mut ctx);
    ctx.copy_tex_image_2d(TEXTURE_2D, 1, RGBA8, 3, 5, 8, 4, 0);
    assert_no_error!(ctx);
    assert_eq!(level(&mut ctx, TEXTURE_2D, 1, TEXTURE_WIDTH), 8);
    assert_eq!(
        level(&mut ctx, TEXTURE_2D, 1, TEXTURE_INTERNAL_FORMAT),
        RGBA8 as GLint
    );
    let recs = records(&mut ctx);
    let [
        Record::DefineTextureImage {
            level: 1,
            width: 8,
            height: 4,
            ..
        },
        Record::CopyTexture {
            level: 1,
            ref region,
            ..
        },
    ] = recs[..]
    else {
        panic!("{recs:?}");
    };
    assert!(matches!(region.src.framebuffer, FramebufferRef::Surface(_)));
    assert_eq!(region.src.image, ReadImage::Color(0));
    assert_eq!(region.origin, [0, 0, 0]);
    assert_eq!(
        region.rect,
        Rect {
            x: 3,
            y: 5,
            width: 8,
            height: 4
        }
    );
    ctx.copy_tex_sub_image_2d(TEXTURE_2D, 1, 2, 1, 0, 0, 4, 2);
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    let [Record::CopyTexture { ref region, .. }] = recs[..] else {
        panic!("{recs:?}");
    };
    assert_eq!(region.origin, [2, 1, 0]);
    // Depth from the surface's depth image.
    bound(&mut ctx, TEXTURE_2D);
    ctx.copy_tex_image_2d(TEXTURE_2D, 0, DEPTH_COMPONENT24, 0, 0, 4, 4, 0);
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    let Some(Record::CopyTexture { region, .. }) = recs.last() else {
        panic!("{recs:?}");
    };
    assert_eq!(region.src.image, ReadImage::Depth);
    // A 1D array takes one row per layer.
    bound(&mut ctx, TEXTURE_1D_ARRAY);
    records(&mut ctx);
    ctx.copy_tex_image_2d(TEXTURE_1D_ARRAY, 0, RGBA8, 0, 10, 4, 3, 0);
    assert_eq!(level(&mut ctx, TEXTURE_1D_ARRAY, 0, TEXTURE_HEIGHT), 3);
    let copies: Vec<_> = records(&mut ctx)
        .into_iter()
        .filter_map(|r| match r {
            Record::CopyTexture { region, .. } => Some((region.origin, region.rect)),
            _ => None,
        })
        .collect();
    let row = |i: i32| {
        (
            [0, 0, i as u32],
            Rect {
                x: 0,
                y: 10 + i,
                width: 4,
                height: 1,
            },
        )
    };
    assert_eq!(copies, [row(0), row(1), row(2)]);
    // One and three dimensions.
    bound(&mut ctx, TEXTURE_1D);
    ctx.copy_tex_image_1d(TEXTURE_1D, 0, RGBA8, 0, 0, 8, 0);
    assert_eq!(
        (
            level(&mut ctx, TEXTURE_1D, 0, TEXTURE_WIDTH),
            level(&mut ctx, TEXTURE_1D, 0, TEXTURE_HEIGHT)
        ),
        (8, 1)
    );
    ctx.copy_tex_sub_image_1d(TEXTURE_1D, 0, 2, 0, 0, 4);
    assert_no_error!(ctx);
    ctx.copy_tex_sub_image_1d(TEXTURE_1D, 0, 6, 0, 0, 4);
    assert_error!(ctx, INVALID_VALUE);
    bound(&mut ctx, TEXTURE_3D);
    ctx.tex_image_3d(
        TEXTURE_3D,
        0,
        RGBA8 as GLint,
        4,
        4,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    records(&mut ctx);
    ctx.copy_tex_sub_image_3d(TEXTURE_3D, 0, 0, 0, 3, 0, 0, 2, 2);
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    let [Record::CopyTexture { ref region, .. }] = recs[..] else {
        panic!("{recs:?}");
    };
    assert_eq!(region.origin, [0, 0, 3]);
    ctx.copy_tex_sub_image_3d(TEXTURE_3D, 0, 0, 0, 4, 0, 0, 2, 2);
    assert_error!(ctx, INVALID_VALUE, "slice 4 of 4");
    ctx.copy_tex_sub_image_3d(TEXTURE_2D, 0, 0, 0, 0, 0, 0, 2, 2);
    assert_error!(ctx, INVALID_ENUM);
}

#[test]
fn copy_errors() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    let t = TEXTURE_2D;
    ctx.copy_tex_image_2d(PROXY_TEXTURE_2D, 0, RGBA8, 0, 0, 4, 4, 0);
    assert_error!(ctx, INVALID_ENUM, "no proxies");
    ctx.copy_tex_image_2d(TEXTURE_3D, 0, RGBA8, 0, 0, 4, 4, 0);
    assert_error!(ctx, INVALID_ENUM);
    ctx.copy_tex_image_2d(t, -1, RGBA8, 0, 0, 4, 4, 0);
    assert_error!(ctx, INVALID_VALUE);
    ctx.copy_tex_image_2d(t, 0, RGBA8, 0, 0, 4, 4, 1);
    assert_error!(ctx, INVALID_VALUE);
    ctx.copy_tex_image_2d(t, 0, RGBA8, 0, 0, -1, 4, 0);
    assert_error!(ctx, INVALID_VALUE);
    // An unknown internal format is INVALID_ENUM here (Mesa), INVALID_VALUE in tex_image.
    ctx.copy_tex_image_2d(t, 0, 0x1234, 0, 0, 4, 4, 0);
    assert_error!(ctx, INVALID_ENUM);
    ctx.copy_tex_image_2d(t, 0, 4, 0, 0, 4, 4, 0);
    assert_error!(ctx, INVALID_ENUM);
    ctx.copy_tex_image_2d(t, 0, RGBA8UI, 0, 0, 4, 4, 0);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "integer copy from a normalized read buffer"
    );
    ctx.copy_tex_image_2d(TEXTURE_CUBE_MAP_POSITIVE_X, 0, RGBA8, 0, 0, 4, 8, 0);
    assert_error!(ctx, INVALID_VALUE, "cube faces are square");
    ctx.copy_tex_image_2d(TEXTURE_RECTANGLE, 1, RGBA8, 0, 0, 4, 4, 0);
    assert_error!(ctx, INVALID_VALUE);
    ctx.copy_tex_sub_image_2d(t, 0, 0, 0, 0, 0, 2, 2);
    assert_error!(ctx, INVALID_OPERATION, "no image to copy into");
    ctx.copy_tex_image_2d(t, 0, RGBA8, 0, 0, 4, 4, 0);
    assert_no_error!(ctx);
    ctx.copy_tex_sub_image_2d(t, 0, 0, 0, 0, 0, -2, 2);
    assert_error!(ctx, INVALID_VALUE);
    ctx.copy_tex_sub_image_2d(t, 0, 3, 3, 0, 0, 2, 2);
    assert_error!(ctx, INVALID_VALUE);
    ctx.copy_tex_sub_image_2d(PROXY_TEXTURE_2D, 0, 0, 0, 0, 0, 2, 2);
    assert_error!(ctx, INVALID_ENUM);
    bound(&mut ctx, t);
    ctx.tex_image_2d(
        t,
        0,
        RGBA8UI as GLint,
        4,
        4,
        0,
        RGBA_INTEGER,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    ctx.copy_tex_sub_image_2d(t, 0, 0, 0, 0, 0, 2, 2);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "integer image, normalized read buffer"
    );
    // Without a default framebuffer the read framebuffer is incomplete.
    let mut none = surfaceless();
    bound(&mut none, TEXTURE_2D);
    none.copy_tex_image_2d(TEXTURE_2D, 0, RGBA8, 0, 0, 4, 4, 0);
    assert_error!(none, INVALID_FRAMEBUFFER_OPERATION);
}

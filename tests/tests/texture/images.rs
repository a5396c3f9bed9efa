//! Image specification: errors of every image call, what `get_tex_level_parameter` reports,
//! proxies, multisample images, buffer textures and mipmap generation.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::Pixels;
use tessera_tests::{assert_error, assert_no_error, context, records};
use tessera_wire::format::Format;
use tessera_wire::record::Record;

use super::{bound, level, tex2d};

#[test]
fn tex_image_errors() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    let t = TEXTURE_2D;
    let ok = |ctx: &mut Context| assert_eq!(level(ctx, t, 0, TEXTURE_WIDTH), 0, "no image defined");
    // (what, call, error), each checked against Mesa.
    tex2d(&mut ctx, 0x1234, 0, RGBA8, 4, 4, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_ENUM, "bad target");
    tex2d(&mut ctx, TEXTURE_3D, 0, RGBA8, 4, 4, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_ENUM, "3D target for 2D call");
    tex2d(
        &mut ctx,
        TEXTURE_CUBE_MAP,
        0,
        RGBA8,
        4,
        4,
        RGBA,
        UNSIGNED_BYTE,
    );
    assert_error!(ctx, INVALID_ENUM, "the cube map is no image target");
    tex2d(&mut ctx, t, -1, RGBA8, 4, 4, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_VALUE, "negative level");
    // MAX_TEXTURE_SIZE 8192 on the null backend: levels 0..=13.
    tex2d(&mut ctx, t, 14, RGBA8, 1, 1, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_VALUE, "level beyond log2(max)");
    ctx.tex_image_2d(
        t,
        0,
        RGBA8 as GLint,
        4,
        4,
        1,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    assert_error!(ctx, INVALID_VALUE, "border");
    tex2d(&mut ctx, t, 0, RGBA8, -1, 4, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_VALUE, "negative width");
    tex2d(&mut ctx, t, 0, RGBA8, 8193, 4, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_VALUE, "too wide");
    tex2d(&mut ctx, t, 1, RGBA8, 4097, 1, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_VALUE, "too wide for level 1");
    tex2d(&mut ctx, t, 0, RGBA8, 4, 4, 0x1234, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_ENUM, "bad format");
    tex2d(&mut ctx, t, 0, RGBA8, 4, 4, RGBA, 0x1234);
    assert_error!(ctx, INVALID_ENUM, "bad type");
    // ALPHA and LUMINANCE client formats are not GL 3.3 core (Mesa accepts them).
    tex2d(&mut ctx, t, 0, RGBA8, 4, 4, ALPHA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_ENUM, "legacy format");
    tex2d(&mut ctx, t, 0, RGBA8, 4, 4, RGBA, UNSIGNED_BYTE_3_3_2);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "packed type of three components, four given"
    );
    tex2d(&mut ctx, t, 0, RGBA8, 4, 4, RGB, UNSIGNED_SHORT_4_4_4_4);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "packed type of four components, three given"
    );
    tex2d(&mut ctx, t, 0, RGBA8, 4, 4, RGBA, UNSIGNED_INT_24_8);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "depth-stencil type with a colour format"
    );
    tex2d(&mut ctx, t, 0, RGBA8, 4, 4, DEPTH_STENCIL, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_ENUM, "DEPTH_STENCIL needs a packed type");
    tex2d(
        &mut ctx,
        t,
        0,
        RGB9_E5,
        4,
        4,
        RGBA,
        UNSIGNED_INT_5_9_9_9_REV,
    );
    assert_error!(
        ctx,
        INVALID_ENUM,
        "5_9_9_9 only with RGB (Mesa: INVALID_ENUM)"
    );
    tex2d(&mut ctx, t, 0, RGBA8I, 4, 4, RGBA_INTEGER, FLOAT);
    assert_error!(ctx, INVALID_ENUM, "integer format with float type");
    // (RGB565 is a colour format since GL_ARB_ES2_compatibility, GL 4.1, and STENCIL_INDEX8
    // a stencil one with GL_ARB_texture_stencil8, GL 4.4: texture_stencil8.rs.)
    for bad in [
        0x1234, 4, ALPHA, 0x1909, /* LUMINANCE */
        0x803C, /* ALPHA8 */
    ] {
        tex2d(&mut ctx, t, 0, bad, 4, 4, RGBA, UNSIGNED_BYTE);
        assert_error!(ctx, INVALID_VALUE, "internal format {bad:#x}");
    }
    tex2d(&mut ctx, t, 0, RGBA8UI, 4, 4, RGBA, UNSIGNED_BYTE);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "integer internal format, normalized data"
    );
    tex2d(&mut ctx, t, 0, RGBA32F, 4, 4, RGBA_INTEGER, INT);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "float internal format, integer data"
    );
    tex2d(&mut ctx, t, 0, DEPTH_COMPONENT24, 4, 4, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_OPERATION, "depth internal format, colour data");
    tex2d(&mut ctx, t, 0, RGBA8, 4, 4, DEPTH_COMPONENT, FLOAT);
    assert_error!(ctx, INVALID_OPERATION, "colour internal format, depth data");
    tex2d(&mut ctx, t, 0, RGBA8, 4, 4, STENCIL_INDEX, UNSIGNED_BYTE);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "colour internal format, stencil data"
    );
    tex2d(&mut ctx, t, 0, RGBA8UI, 100000, 4, RGBA, UNSIGNED_BYTE);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "format checks come before the size check"
    );
    ok(&mut ctx);

    bound(&mut ctx, TEXTURE_3D);
    ctx.tex_image_3d(
        TEXTURE_3D,
        0,
        DEPTH_COMPONENT24 as GLint,
        4,
        4,
        4,
        0,
        DEPTH_COMPONENT,
        FLOAT,
        Pixels::None,
    );
    assert_error!(ctx, INVALID_OPERATION, "no depth 3D textures");
    ctx.tex_image_3d(
        TEXTURE_3D,
        0,
        RGBA8 as GLint,
        2049,
        1,
        1,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    assert_error!(ctx, INVALID_VALUE, "MAX_3D_TEXTURE_SIZE 2048");
    ctx.tex_image_3d(
        TEXTURE_3D,
        12,
        RGBA8 as GLint,
        1,
        1,
        1,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    assert_error!(ctx, INVALID_VALUE, "3D levels 0..=11");
    ctx.tex_image_3d(
        TEXTURE_3D,
        0,
        COMPRESSED_RED_RGTC1 as GLint,
        4,
        4,
        4,
        0,
        RED,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    assert_error!(ctx, INVALID_ENUM, "no RGTC 3D textures");
    bound(&mut ctx, TEXTURE_2D_ARRAY);
    ctx.tex_image_3d(
        TEXTURE_2D_ARRAY,
        0,
        RGBA8 as GLint,
        4,
        4,
        2049,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    assert_error!(ctx, INVALID_VALUE, "MAX_ARRAY_TEXTURE_LAYERS 2048");
    ctx.tex_image_3d(
        TEXTURE_2D_ARRAY,
        3,
        RGBA8 as GLint,
        4096,
        4,
        2,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    assert_error!(ctx, INVALID_VALUE, "width limit of level 3");
    ctx.tex_image_3d(
        TEXTURE_2D_ARRAY,
        0,
        RGBA8 as GLint,
        1,
        1,
        2048,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    assert_no_error!(ctx);

    bound(&mut ctx, TEXTURE_CUBE_MAP);
    tex2d(
        &mut ctx,
        TEXTURE_CUBE_MAP_POSITIVE_X,
        0,
        RGBA8,
        4,
        8,
        RGBA,
        UNSIGNED_BYTE,
    );
    assert_error!(ctx, INVALID_VALUE, "cube faces are square");
    bound(&mut ctx, TEXTURE_RECTANGLE);
    tex2d(
        &mut ctx,
        TEXTURE_RECTANGLE,
        1,
        RGBA8,
        4,
        4,
        RGBA,
        UNSIGNED_BYTE,
    );
    assert_error!(ctx, INVALID_VALUE, "rectangles have one level");
    tex2d(
        &mut ctx,
        TEXTURE_RECTANGLE,
        0,
        COMPRESSED_RED_RGTC1,
        4,
        4,
        RED,
        UNSIGNED_BYTE,
    );
    assert_error!(ctx, INVALID_ENUM, "no RGTC rectangles");
    bound(&mut ctx, TEXTURE_1D);
    ctx.tex_image_1d(
        TEXTURE_1D,
        0,
        RGBA8 as GLint,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    ctx.tex_image_1d(
        TEXTURE_1D,
        0,
        DEPTH_COMPONENT24 as GLint,
        4,
        0,
        DEPTH_COMPONENT,
        FLOAT,
        Pixels::None,
    );
    assert_no_error!(ctx);
    ctx.tex_image_1d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    assert_error!(ctx, INVALID_ENUM);
}

#[test]
fn undefined_levels_report_initial_values() {
    let mut ctx = context();
    let targets = [
        TEXTURE_1D,
        TEXTURE_2D,
        TEXTURE_3D,
        TEXTURE_1D_ARRAY,
        TEXTURE_2D_ARRAY,
        TEXTURE_RECTANGLE,
        TEXTURE_CUBE_MAP_NEGATIVE_Z,
        TEXTURE_BUFFER,
        TEXTURE_2D_MULTISAMPLE,
        TEXTURE_2D_MULTISAMPLE_ARRAY,
        PROXY_TEXTURE_1D,
        PROXY_TEXTURE_2D,
        PROXY_TEXTURE_3D,
        PROXY_TEXTURE_1D_ARRAY,
        PROXY_TEXTURE_2D_ARRAY,
        PROXY_TEXTURE_RECTANGLE,
        PROXY_TEXTURE_CUBE_MAP,
        PROXY_TEXTURE_2D_MULTISAMPLE,
        PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY,
    ];
    for target in targets {
        let internal = if target == TEXTURE_BUFFER { R8 } else { RGBA };
        let expect = [
            (TEXTURE_WIDTH, 0),
            (TEXTURE_HEIGHT, 0),
            (TEXTURE_DEPTH, 0),
            (TEXTURE_INTERNAL_FORMAT, internal as GLint),
            (TEXTURE_RED_SIZE, 0),
            (TEXTURE_GREEN_SIZE, 0),
            (TEXTURE_BLUE_SIZE, 0),
            (TEXTURE_ALPHA_SIZE, 0),
            (TEXTURE_DEPTH_SIZE, 0),
            (TEXTURE_STENCIL_SIZE, 0),
            (TEXTURE_SHARED_SIZE, 0),
            (TEXTURE_RED_TYPE, NONE as GLint),
            (TEXTURE_GREEN_TYPE, NONE as GLint),
            (TEXTURE_BLUE_TYPE, NONE as GLint),
            (TEXTURE_ALPHA_TYPE, NONE as GLint),
            (TEXTURE_DEPTH_TYPE, NONE as GLint),
            (TEXTURE_COMPRESSED, 0),
            (TEXTURE_SAMPLES, 0),
            (TEXTURE_FIXED_SAMPLE_LOCATIONS, 1),
            (TEXTURE_BUFFER_DATA_STORE_BINDING, 0),
        ];
        for (pname, value) in expect {
            assert_eq!(
                level(&mut ctx, target, 0, pname),
                value,
                "{target:#x} {pname:#x}"
            );
            assert_no_error!(ctx);
        }
        assert_eq!(
            level(&mut ctx, target, 0, TEXTURE_COMPRESSED_IMAGE_SIZE),
            -12345
        );
        assert_error!(ctx, INVALID_OPERATION, "not compressed");
    }
    assert_eq!(level(&mut ctx, TEXTURE_CUBE_MAP, 0, TEXTURE_WIDTH), -12345);
    assert_error!(
        ctx,
        INVALID_ENUM,
        "the cube map has no images, its faces do"
    );
    level(&mut ctx, 0x1234, 0, TEXTURE_WIDTH);
    assert_error!(ctx, INVALID_ENUM);
    level(&mut ctx, TEXTURE_2D, 0, 0x1234);
    assert_error!(ctx, INVALID_ENUM);
    level(&mut ctx, TEXTURE_2D, -1, TEXTURE_WIDTH);
    assert_error!(ctx, INVALID_VALUE);
    level(&mut ctx, TEXTURE_2D, 14, TEXTURE_WIDTH);
    assert_error!(ctx, INVALID_VALUE);
    level(&mut ctx, TEXTURE_2D, 13, TEXTURE_WIDTH);
    assert_no_error!(ctx);
    for one_level in [TEXTURE_RECTANGLE, TEXTURE_2D_MULTISAMPLE, TEXTURE_BUFFER] {
        level(&mut ctx, one_level, 1, TEXTURE_WIDTH);
        assert_error!(ctx, INVALID_VALUE, "{one_level:#x} has one level");
    }
    let mut f = [0.0];
    ctx.get_tex_level_parameterfv(TEXTURE_2D, 0, TEXTURE_INTERNAL_FORMAT, &mut f);
    assert_eq!(f[0], RGBA as f32);
}

/// The level parameters of one image: sizes, depth, stencil, shared, types.
fn describe(ctx: &mut Context, target: GLenum, lvl: GLint) -> [GLint; 13] {
    [
        TEXTURE_WIDTH,
        TEXTURE_HEIGHT,
        TEXTURE_DEPTH,
        TEXTURE_INTERNAL_FORMAT,
        TEXTURE_RED_SIZE,
        TEXTURE_GREEN_SIZE,
        TEXTURE_BLUE_SIZE,
        TEXTURE_ALPHA_SIZE,
        TEXTURE_DEPTH_SIZE,
        TEXTURE_STENCIL_SIZE,
        TEXTURE_SHARED_SIZE,
        TEXTURE_RED_TYPE,
        TEXTURE_DEPTH_TYPE,
    ]
    .map(|p| level(ctx, target, lvl, p))
}

#[test]
fn defined_images_report_their_format() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    let un = UNSIGNED_NORMALIZED as GLint;
    let none = NONE as GLint;
    let cases: [(GLenum, GLenum, GLenum, [GLint; 13]); 10] = [
        (
            RGBA8,
            RGBA,
            UNSIGNED_BYTE,
            [4, 2, 1, RGBA8 as GLint, 8, 8, 8, 8, 0, 0, 0, un, none],
        ),
        // An unsized format reads back as given.
        (
            RGBA,
            RGBA,
            UNSIGNED_BYTE,
            [4, 2, 1, RGBA as GLint, 8, 8, 8, 8, 0, 0, 0, un, none],
        ),
        (
            RGBA8UI,
            RGBA_INTEGER,
            UNSIGNED_BYTE,
            [
                4,
                2,
                1,
                RGBA8UI as GLint,
                8,
                8,
                8,
                8,
                0,
                0,
                0,
                UNSIGNED_INT as GLint,
                none,
            ],
        ),
        (
            R16I,
            RED_INTEGER,
            SHORT,
            [
                4,
                2,
                1,
                R16I as GLint,
                16,
                0,
                0,
                0,
                0,
                0,
                0,
                INT as GLint,
                none,
            ],
        ),
        (
            DEPTH24_STENCIL8,
            DEPTH_STENCIL,
            UNSIGNED_INT_24_8,
            [
                4,
                2,
                1,
                DEPTH24_STENCIL8 as GLint,
                0,
                0,
                0,
                0,
                24,
                8,
                0,
                none,
                un,
            ],
        ),
        (
            DEPTH_COMPONENT32F,
            DEPTH_COMPONENT,
            FLOAT,
            [
                4,
                2,
                1,
                DEPTH_COMPONENT32F as GLint,
                0,
                0,
                0,
                0,
                32,
                0,
                0,
                none,
                FLOAT as GLint,
            ],
        ),
        (
            R11F_G11F_B10F,
            RGB,
            UNSIGNED_BYTE,
            [
                4,
                2,
                1,
                R11F_G11F_B10F as GLint,
                11,
                11,
                10,
                0,
                0,
                0,
                0,
                FLOAT as GLint,
                none,
            ],
        ),
        (
            RGB9_E5,
            RGB,
            UNSIGNED_BYTE,
            [
                4,
                2,
                1,
                RGB9_E5 as GLint,
                9,
                9,
                9,
                0,
                0,
                0,
                5,
                FLOAT as GLint,
                none,
            ],
        ),
        (
            R8_SNORM,
            RED,
            BYTE,
            [
                4,
                2,
                1,
                R8_SNORM as GLint,
                8,
                0,
                0,
                0,
                0,
                0,
                0,
                SIGNED_NORMALIZED as GLint,
                none,
            ],
        ),
        (
            SRGB8,
            RGB,
            UNSIGNED_BYTE,
            [4, 2, 1, SRGB8 as GLint, 8, 8, 8, 0, 0, 0, 0, un, none],
        ),
    ];
    for (internal, format, ty, expect) in cases {
        tex2d(&mut ctx, TEXTURE_2D, 0, internal, 4, 2, format, ty);
        assert_no_error!(ctx);
        assert_eq!(describe(&mut ctx, TEXTURE_2D, 0), expect, "{internal:#x}");
        assert_eq!(level(&mut ctx, TEXTURE_2D, 0, TEXTURE_COMPRESSED), 0);
    }
    // One-dimensional and array images: GL's unused dimensions read 1, layers are sizes.
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
    assert_eq!(describe(&mut ctx, TEXTURE_1D, 0)[..3], [8, 1, 1]);
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
    assert_eq!(describe(&mut ctx, TEXTURE_1D_ARRAY, 0)[..3], [8, 3, 1]);
    bound(&mut ctx, TEXTURE_2D_ARRAY);
    ctx.tex_image_3d(
        TEXTURE_2D_ARRAY,
        0,
        RGBA8 as GLint,
        8,
        4,
        5,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    assert_eq!(describe(&mut ctx, TEXTURE_2D_ARRAY, 0)[..3], [8, 4, 5]);
    assert_no_error!(ctx);
}

#[test]
fn image_definitions_are_records() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_1D_ARRAY);
    records(&mut ctx);
    tex2d(&mut ctx, TEXTURE_1D_ARRAY, 2, RGBA16F, 8, 3, RGBA, FLOAT);
    let recs = records(&mut ctx);
    let [
        Record::DefineTextureImage {
            level: 2,
            face: 0,
            format: Format::Rgba16f,
            width: 8,
            height: 1,
            depth: 3,
            samples: 0,
            fixed_sample_locations: true,
            ..
        },
    ] = recs[..]
    else {
        panic!("a 1D array's layers are the wire's depth: {recs:?}");
    };
    bound(&mut ctx, TEXTURE_CUBE_MAP);
    records(&mut ctx);
    tex2d(
        &mut ctx,
        TEXTURE_CUBE_MAP_NEGATIVE_Y,
        0,
        RGB,
        4,
        4,
        RGB,
        FLOAT,
    );
    let recs = records(&mut ctx);
    let [
        Record::DefineTextureImage {
            level: 0,
            face: 3,
            // Unsized RGB is 8-bit whatever the data's type, as Mesa resolves it.
            format: Format::Rgb8,
            width: 4,
            height: 4,
            depth: 1,
            ..
        },
    ] = recs[..]
    else {
        panic!("{recs:?}");
    };
    // Errors and proxies define nothing.
    tex2d(
        &mut ctx,
        TEXTURE_CUBE_MAP_NEGATIVE_Y,
        0,
        RGB,
        4,
        5,
        RGB,
        FLOAT,
    );
    assert_error!(ctx, INVALID_VALUE);
    tex2d(&mut ctx, PROXY_TEXTURE_CUBE_MAP, 0, RGB, 4, 4, RGB, FLOAT);
    assert_no_error!(ctx);
    assert!(records(&mut ctx).is_empty());
}

#[test]
fn proxies_report_whether_an_image_fits() {
    let mut ctx = context();
    let p = PROXY_TEXTURE_2D;
    tex2d(&mut ctx, p, 0, RGBA8, 64, 32, RGBA, UNSIGNED_BYTE);
    assert_no_error!(ctx);
    assert_eq!(
        describe(&mut ctx, p, 0)[..5],
        [64, 32, 1, RGBA8 as GLint, 8]
    );
    // Too big: no error, the proxy image is cleared (Mesa).
    tex2d(&mut ctx, p, 0, RGBA8, 100000, 4, RGBA, UNSIGNED_BYTE);
    assert_no_error!(ctx);
    assert_eq!(describe(&mut ctx, p, 0)[..5], [0, 0, 0, RGBA as GLint, 0]);
    tex2d(&mut ctx, p, 3, RGBA8, 2048, 4, RGBA, UNSIGNED_BYTE);
    assert_no_error!(ctx);
    assert_eq!(
        level(&mut ctx, p, 3, TEXTURE_WIDTH),
        0,
        "1024 is the level-3 limit"
    );
    tex2d(
        &mut ctx,
        PROXY_TEXTURE_CUBE_MAP,
        0,
        RGBA8,
        4,
        8,
        RGBA,
        UNSIGNED_BYTE,
    );
    assert_no_error!(ctx);
    assert_eq!(level(&mut ctx, PROXY_TEXTURE_CUBE_MAP, 0, TEXTURE_WIDTH), 0);
    tex2d(
        &mut ctx,
        PROXY_TEXTURE_CUBE_MAP,
        0,
        RGBA8,
        8,
        8,
        RGBA,
        UNSIGNED_BYTE,
    );
    assert_eq!(level(&mut ctx, PROXY_TEXTURE_CUBE_MAP, 0, TEXTURE_WIDTH), 8);
    // Other errors are still errors, and leave the proxy as it was.
    tex2d(&mut ctx, p, 0, RGBA8, 16, 16, RGBA, UNSIGNED_BYTE);
    tex2d(&mut ctx, p, 0, RGBA8, 4, 4, 0x1234, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_ENUM);
    tex2d(&mut ctx, p, 0, RGBA8, -4, 4, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_VALUE);
    tex2d(
        &mut ctx,
        PROXY_TEXTURE_RECTANGLE,
        1,
        RGBA8,
        4,
        4,
        RGBA,
        UNSIGNED_BYTE,
    );
    assert_error!(ctx, INVALID_VALUE, "rectangle level 1 even for a proxy");
    assert_eq!(level(&mut ctx, p, 0, TEXTURE_WIDTH), 16);
    // Proxies are not textures: no record, and the real target is untouched.
    assert_eq!(level(&mut ctx, TEXTURE_2D, 0, TEXTURE_WIDTH), 0);
    ctx.tex_image_3d(
        PROXY_TEXTURE_3D,
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
    ctx.tex_image_1d(
        PROXY_TEXTURE_1D,
        0,
        RGBA8 as GLint,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    assert_eq!(level(&mut ctx, PROXY_TEXTURE_3D, 0, TEXTURE_DEPTH), 4);
    assert_eq!(level(&mut ctx, PROXY_TEXTURE_1D, 0, TEXTURE_WIDTH), 4);
    assert_no_error!(ctx);
}

#[test]
fn sub_image_errors() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D);
    tex2d(&mut ctx, TEXTURE_2D, 0, RGBA8, 4, 4, RGBA, UNSIGNED_BYTE);
    let px = [0u8; 64];
    let sub = |ctx: &mut Context,
               target: GLenum,
               lvl: GLint,
               (x, y, w, h): (i32, i32, i32, i32),
               format: GLenum,
               ty: GLenum| {
        ctx.tex_sub_image_2d(target, lvl, x, y, w, h, format, ty, Pixels::Bytes(&px));
    };
    sub(&mut ctx, TEXTURE_2D, 0, (0, 0, 4, 4), RGBA, UNSIGNED_BYTE);
    assert_no_error!(ctx);
    sub(
        &mut ctx,
        PROXY_TEXTURE_2D,
        0,
        (0, 0, 1, 1),
        RGBA,
        UNSIGNED_BYTE,
    );
    assert_error!(ctx, INVALID_ENUM, "no sub-images of proxies");
    sub(&mut ctx, 0x1234, 0, (0, 0, 1, 1), RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_ENUM);
    sub(&mut ctx, TEXTURE_2D, -1, (0, 0, 1, 1), RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_VALUE);
    sub(&mut ctx, TEXTURE_2D, 20, (0, 0, 1, 1), RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_VALUE);
    sub(&mut ctx, TEXTURE_2D, 1, (0, 0, 1, 1), RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_OPERATION, "level 1 has no image");
    sub(&mut ctx, TEXTURE_2D, 1, (0, 0, -1, 1), RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_VALUE, "negative sizes come first");
    sub(&mut ctx, TEXTURE_2D, 1, (0, 0, 1, 1), 0x1234, UNSIGNED_BYTE);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "the missing image comes before the format"
    );
    sub(&mut ctx, TEXTURE_2D, 0, (-1, 0, 1, 1), RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_VALUE);
    sub(&mut ctx, TEXTURE_2D, 0, (3, 0, 2, 1), RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_VALUE);
    sub(&mut ctx, TEXTURE_2D, 0, (0, 4, 1, 1), RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_VALUE);
    sub(&mut ctx, TEXTURE_2D, 0, (10, 10, 0, 0), RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_VALUE, "even an empty region must lie inside");
    sub(&mut ctx, TEXTURE_2D, 0, (0, 0, 1, 1), 0x1234, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_ENUM);
    sub(
        &mut ctx,
        TEXTURE_2D,
        0,
        (0, 0, 1, 1),
        RGBA,
        UNSIGNED_BYTE_3_3_2,
    );
    assert_error!(ctx, INVALID_OPERATION);
    sub(
        &mut ctx,
        TEXTURE_2D,
        0,
        (0, 0, 1, 1),
        RGBA_INTEGER,
        UNSIGNED_BYTE,
    );
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "integer data into a normalized image"
    );
    sub(
        &mut ctx,
        TEXTURE_2D,
        0,
        (0, 0, 1, 1),
        DEPTH_COMPONENT,
        FLOAT,
    );
    assert_error!(ctx, INVALID_OPERATION, "depth data into a colour image");
    // Client memory shorter than the unpack state reads is refused (GL would read past it).
    ctx.tex_sub_image_2d(
        TEXTURE_2D,
        0,
        0,
        0,
        4,
        4,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::Bytes(&px[..63]),
    );
    assert_error!(ctx, INVALID_OPERATION);
    ctx.tex_sub_image_2d(
        TEXTURE_2D,
        0,
        0,
        0,
        4,
        4,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::Offset(0),
    );
    assert_error!(ctx, INVALID_OPERATION, "an offset needs an unpack buffer");
    // One and three dimensions.
    bound(&mut ctx, TEXTURE_1D);
    ctx.tex_image_1d(
        TEXTURE_1D,
        0,
        RGBA8 as GLint,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    ctx.tex_sub_image_1d(TEXTURE_1D, 0, 2, 2, RGBA, UNSIGNED_BYTE, Pixels::Bytes(&px));
    assert_no_error!(ctx);
    ctx.tex_sub_image_1d(TEXTURE_1D, 0, 3, 2, RGBA, UNSIGNED_BYTE, Pixels::Bytes(&px));
    assert_error!(ctx, INVALID_VALUE);
    bound(&mut ctx, TEXTURE_2D_ARRAY);
    ctx.tex_image_3d(
        TEXTURE_2D_ARRAY,
        0,
        RGBA8 as GLint,
        2,
        2,
        3,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::None,
    );
    ctx.tex_sub_image_3d(
        TEXTURE_2D_ARRAY,
        0,
        0,
        0,
        2,
        2,
        2,
        1,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::Bytes(&px),
    );
    assert_no_error!(ctx);
    ctx.tex_sub_image_3d(
        TEXTURE_2D_ARRAY,
        0,
        0,
        0,
        3,
        2,
        2,
        1,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::Bytes(&px),
    );
    assert_error!(ctx, INVALID_VALUE, "layer 3 of 3");
    ctx.tex_sub_image_3d(
        TEXTURE_2D,
        0,
        0,
        0,
        0,
        1,
        1,
        1,
        RGBA,
        UNSIGNED_BYTE,
        Pixels::Bytes(&px),
    );
    assert_error!(ctx, INVALID_ENUM);
}

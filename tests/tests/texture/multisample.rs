//! Multisample images: errors, sample counts and proxies.

use tessera_engine::gl::*;
use tessera_tests::{assert_error, assert_no_error, context, records};
use tessera_wire::format::Format;
use tessera_wire::record::Record;

use super::{bound, level};

#[test]
fn multisample_images() {
    let mut ctx = context();
    bound(&mut ctx, TEXTURE_2D_MULTISAMPLE);
    let t = TEXTURE_2D_MULTISAMPLE;
    records(&mut ctx);
    ctx.tex_image_2d_multisample(t, 4, RGBA8 as GLint, 8, 8, FALSE as GLboolean);
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    let [
        Record::DefineTextureImage {
            level: 0,
            format: Format::Rgba8,
            width: 8,
            height: 8,
            depth: 1,
            samples: 4,
            fixed_sample_locations: false,
            ..
        },
    ] = recs[..]
    else {
        panic!("{recs:?}");
    };
    assert_eq!(level(&mut ctx, t, 0, TEXTURE_SAMPLES), 4);
    assert_eq!(level(&mut ctx, t, 0, TEXTURE_FIXED_SAMPLE_LOCATIONS), 0);
    assert_eq!(level(&mut ctx, t, 0, TEXTURE_WIDTH), 8);
    // Sample counts round up to a power of two.
    ctx.tex_image_2d_multisample(t, 3, RGBA8 as GLint, 8, 8, TRUE as GLboolean);
    assert_eq!(level(&mut ctx, t, 0, TEXTURE_SAMPLES), 4);
    ctx.tex_image_2d_multisample(t, 0, RGBA8 as GLint, 8, 8, TRUE as GLboolean);
    assert_error!(ctx, INVALID_VALUE, "no samples");
    ctx.tex_image_2d_multisample(t, 5, RGBA8 as GLint, 8, 8, TRUE as GLboolean);
    assert_error!(ctx, INVALID_OPERATION, "MAX_SAMPLES 4");
    ctx.tex_image_2d_multisample(TEXTURE_2D, 4, RGBA8 as GLint, 8, 8, TRUE as GLboolean);
    assert_error!(ctx, INVALID_ENUM);
    for bad in [0x1234, COMPRESSED_RED_RGTC1, COMPRESSED_RGBA, RGB9_E5] {
        ctx.tex_image_2d_multisample(t, 4, bad as GLint, 8, 8, TRUE as GLboolean);
        assert_error!(ctx, INVALID_ENUM, "not renderable: {bad:#x}");
    }
    for good in [
        RGBA,
        RGBA8UI,
        DEPTH_COMPONENT24,
        DEPTH24_STENCIL8,
        R16F,
        STENCIL_INDEX8,
    ] {
        ctx.tex_image_2d_multisample(t, 2, good as GLint, 8, 8, TRUE as GLboolean);
        assert_no_error!(ctx);
    }
    ctx.tex_image_2d_multisample(t, 4, RGBA8 as GLint, -1, 8, TRUE as GLboolean);
    assert_error!(ctx, INVALID_VALUE);
    ctx.tex_image_2d_multisample(t, 4, RGBA8 as GLint, 8193, 8, TRUE as GLboolean);
    assert_error!(ctx, INVALID_VALUE);
    let p = PROXY_TEXTURE_2D_MULTISAMPLE;
    ctx.tex_image_2d_multisample(p, 4, RGBA8 as GLint, 8, 8, TRUE as GLboolean);
    assert_eq!(level(&mut ctx, p, 0, TEXTURE_WIDTH), 8);
    ctx.tex_image_2d_multisample(p, 64, RGBA8 as GLint, 8, 8, TRUE as GLboolean);
    assert_no_error!(ctx);
    assert_eq!(
        level(&mut ctx, p, 0, TEXTURE_WIDTH),
        0,
        "too many samples clears a proxy"
    );
    bound(&mut ctx, TEXTURE_2D_MULTISAMPLE_ARRAY);
    let a = TEXTURE_2D_MULTISAMPLE_ARRAY;
    ctx.tex_image_3d_multisample(a, 4, RGBA8 as GLint, 8, 8, 3, TRUE as GLboolean);
    assert_no_error!(ctx);
    assert_eq!(level(&mut ctx, a, 0, TEXTURE_DEPTH), 3);
    ctx.tex_image_3d_multisample(a, 4, RGBA8 as GLint, 8, 8, 2049, TRUE as GLboolean);
    assert_error!(ctx, INVALID_VALUE);
    ctx.tex_image_3d_multisample(t, 4, RGBA8 as GLint, 8, 8, 3, TRUE as GLboolean);
    assert_error!(ctx, INVALID_ENUM);
}

//! Attaching renderbuffers and textures, and the attachment queries.

use super::*;

// ---------------------------------------------------------------------------------------
// Attaching

#[test]
fn framebuffer_renderbuffer_errors() {
    let mut ctx = context();
    let r = rb(&mut ctx, RGBA8, 4, 4, 0);
    attach(&mut ctx, COLOR_ATTACHMENT0, r);
    assert_error!(ctx, INVALID_OPERATION, "the default framebuffer is bound");
    fbo(&mut ctx);
    ctx.framebuffer_renderbuffer(TEXTURE_2D, COLOR_ATTACHMENT0, RENDERBUFFER, r);
    assert_error!(ctx, INVALID_ENUM);
    attach(&mut ctx, COLOR_ATTACHMENT0 + 8, r);
    assert_error!(ctx, INVALID_OPERATION, "past MAX_COLOR_ATTACHMENTS");
    attach(&mut ctx, BACK_LEFT, r);
    assert_error!(ctx, INVALID_ENUM);
    attach(&mut ctx, 0x1234, r);
    assert_error!(ctx, INVALID_ENUM);
    ctx.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, r);
    assert_error!(ctx, INVALID_ENUM);
    ctx.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, 0);
    assert_error!(
        ctx,
        INVALID_ENUM,
        "the renderbuffer target is checked for 0 too"
    );
    attach(&mut ctx, COLOR_ATTACHMENT0, 999);
    assert_error!(ctx, INVALID_OPERATION);
    let unbound = ctx.gen_renderbuffer();
    attach(&mut ctx, COLOR_ATTACHMENT0, unbound);
    assert_error!(ctx, INVALID_OPERATION, "generated but never bound");
    assert_eq!(
        fap(
            &mut ctx,
            FRAMEBUFFER,
            COLOR_ATTACHMENT0,
            FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE
        ),
        NONE as GLint,
        "errors leave the attachment alone"
    );
    attach(&mut ctx, COLOR_ATTACHMENT7, r);
    assert_no_error!(ctx);
    attach(&mut ctx, COLOR_ATTACHMENT7, 0);
    assert_no_error!(ctx);
    assert_eq!(
        fap(
            &mut ctx,
            FRAMEBUFFER,
            COLOR_ATTACHMENT7,
            FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE
        ),
        NONE as GLint
    );
}

#[test]
fn framebuffer_texture_errors_without_texture_objects() {
    let mut ctx = context();
    ctx.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, 0, 0);
    assert_error!(ctx, INVALID_OPERATION, "the default framebuffer is bound");
    fbo(&mut ctx);
    ctx.framebuffer_texture_2d(RENDERBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, 0, 0);
    assert_error!(ctx, INVALID_ENUM);
    ctx.framebuffer_texture_2d(FRAMEBUFFER, 0x1234, TEXTURE_2D, 0, 0);
    assert_error!(ctx, INVALID_ENUM);
    ctx.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0 + 9, TEXTURE_2D, 0, 0);
    assert_error!(ctx, INVALID_OPERATION);
    // Texture 0 detaches without looking at the target or level (as Mesa).
    ctx.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, 0x1234, 0, 99);
    assert_no_error!(ctx);
    ctx.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, 9999, 0);
    assert_error!(ctx, INVALID_OPERATION, "no such texture");
    ctx.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, 0x1234, 9999, 0);
    assert_error!(ctx, INVALID_ENUM, "no texture target at all");
    ctx.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_3D, 9999, 0);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "a target FramebufferTexture2D does not take"
    );
    ctx.framebuffer_texture_1d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, 9999, 0);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.framebuffer_texture_3d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, 9999, 0, 0);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.framebuffer_texture_layer(FRAMEBUFFER, COLOR_ATTACHMENT0, 9999, 0, 0);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT0, 9999, 0);
    assert_error!(
        ctx,
        INVALID_VALUE,
        "glFramebufferTexture names a missing texture so"
    );
    ctx.framebuffer_texture_layer(FRAMEBUFFER, COLOR_ATTACHMENT0, 0, 0, -1);
    assert_no_error!(ctx);
}

#[test]
fn renderbuffer_attachment_parameters() {
    let mut ctx = context();
    let (_, r) = color_fbo(&mut ctx);
    let q = |ctx: &mut Context, pname| fap(ctx, FRAMEBUFFER, COLOR_ATTACHMENT0, pname);
    assert_eq!(
        q(&mut ctx, FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
        RENDERBUFFER as GLint
    );
    assert_eq!(q(&mut ctx, FRAMEBUFFER_ATTACHMENT_OBJECT_NAME), r as GLint);
    for pname in [
        FRAMEBUFFER_ATTACHMENT_RED_SIZE,
        FRAMEBUFFER_ATTACHMENT_GREEN_SIZE,
        FRAMEBUFFER_ATTACHMENT_BLUE_SIZE,
        FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE,
    ] {
        assert_eq!(q(&mut ctx, pname), 8);
    }
    assert_eq!(q(&mut ctx, FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE), 0);
    assert_eq!(q(&mut ctx, FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE), 0);
    assert_eq!(
        q(&mut ctx, FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE),
        UNSIGNED_NORMALIZED as GLint
    );
    assert_eq!(
        q(&mut ctx, FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING),
        LINEAR as GLint
    );
    assert_no_error!(ctx);
    for pname in [
        FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL,
        FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE,
        FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER,
        FRAMEBUFFER_ATTACHMENT_LAYERED,
        0x1234,
    ] {
        assert_eq!(q(&mut ctx, pname), -7, "nothing written on error");
        assert_error!(ctx, INVALID_ENUM, "pname {pname:#x} of a renderbuffer");
    }
    // An empty point answers its type and name only.
    let empty = |ctx: &mut Context, pname| fap(ctx, FRAMEBUFFER, COLOR_ATTACHMENT1, pname);
    assert_eq!(
        empty(&mut ctx, FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
        NONE as GLint
    );
    assert_eq!(empty(&mut ctx, FRAMEBUFFER_ATTACHMENT_OBJECT_NAME), 0);
    assert_no_error!(ctx);
    empty(&mut ctx, FRAMEBUFFER_ATTACHMENT_RED_SIZE);
    assert_error!(ctx, INVALID_OPERATION);
    empty(&mut ctx, FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL);
    assert_error!(ctx, INVALID_OPERATION);
    // Bad target and attachment points.
    fap(
        &mut ctx,
        TEXTURE_2D,
        COLOR_ATTACHMENT0,
        FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
    );
    assert_error!(ctx, INVALID_ENUM);
    fap(
        &mut ctx,
        FRAMEBUFFER,
        COLOR_ATTACHMENT0 + 8,
        FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
    );
    assert_error!(ctx, INVALID_OPERATION);
    fap(
        &mut ctx,
        FRAMEBUFFER,
        BACK_LEFT,
        FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
    );
    assert_error!(ctx, INVALID_ENUM, "a default-framebuffer name on an object");
}

#[test]
fn depth_stencil_attachment_parameters() {
    let mut ctx = context();
    let (_, _) = color_fbo(&mut ctx);
    let ds = rb(&mut ctx, DEPTH24_STENCIL8, 4, 4, 0);
    attach(&mut ctx, DEPTH_STENCIL_ATTACHMENT, ds);
    for point in [
        DEPTH_ATTACHMENT,
        STENCIL_ATTACHMENT,
        DEPTH_STENCIL_ATTACHMENT,
    ] {
        assert_eq!(
            fap(
                &mut ctx,
                FRAMEBUFFER,
                point,
                FRAMEBUFFER_ATTACHMENT_OBJECT_NAME
            ),
            ds as GLint
        );
        assert_eq!(
            fap(
                &mut ctx,
                FRAMEBUFFER,
                point,
                FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE
            ),
            24
        );
        assert_eq!(
            fap(
                &mut ctx,
                FRAMEBUFFER,
                point,
                FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE
            ),
            8
        );
    }
    assert_eq!(
        fap(
            &mut ctx,
            FRAMEBUFFER,
            DEPTH_ATTACHMENT,
            FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE
        ),
        UNSIGNED_NORMALIZED as GLint
    );
    assert_no_error!(ctx);
    fap(
        &mut ctx,
        FRAMEBUFFER,
        DEPTH_STENCIL_ATTACHMENT,
        FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE,
    );
    assert_error!(ctx, INVALID_OPERATION);
    // Different images at the two points: the combined point has no single answer.
    let depth = rb(&mut ctx, DEPTH_COMPONENT32F, 4, 4, 0);
    attach(&mut ctx, DEPTH_ATTACHMENT, depth);
    fap(
        &mut ctx,
        FRAMEBUFFER,
        DEPTH_STENCIL_ATTACHMENT,
        FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
    );
    assert_error!(ctx, INVALID_OPERATION);
    assert_eq!(
        fap(
            &mut ctx,
            FRAMEBUFFER,
            DEPTH_ATTACHMENT,
            FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE
        ),
        FLOAT as GLint
    );
    let stencil = rb(&mut ctx, STENCIL_INDEX8, 4, 4, 0);
    attach(&mut ctx, STENCIL_ATTACHMENT, stencil);
    // GL_INDEX, as Mesa reports stencil-only images.
    assert_eq!(
        fap(
            &mut ctx,
            FRAMEBUFFER,
            STENCIL_ATTACHMENT,
            FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE
        ),
        0x8222
    );
    assert_no_error!(ctx);
}

#[test]
fn component_types_and_encodings_of_colour_formats() {
    let mut ctx = context();
    fbo(&mut ctx);
    for (format, ty, encoding, red) in [
        (RGBA32F, FLOAT, LINEAR, 32),
        (RGBA16F, FLOAT, LINEAR, 16),
        (RGBA8I, INT, LINEAR, 8),
        (RGBA16UI, UNSIGNED_INT, LINEAR, 16),
        (SRGB8_ALPHA8, UNSIGNED_NORMALIZED, SRGB, 8),
        (RGB565, UNSIGNED_NORMALIZED, LINEAR, 5),
    ] {
        let r = rb(&mut ctx, format, 4, 4, 0);
        attach(&mut ctx, COLOR_ATTACHMENT0, r);
        let q = |ctx: &mut Context, pname| fap(ctx, FRAMEBUFFER, COLOR_ATTACHMENT0, pname);
        assert_eq!(
            q(&mut ctx, FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE),
            ty as GLint
        );
        assert_eq!(
            q(&mut ctx, FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING),
            encoding as GLint
        );
        assert_eq!(q(&mut ctx, FRAMEBUFFER_ATTACHMENT_RED_SIZE), red);
        assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    }
    assert_no_error!(ctx);
}

#[test]
fn default_framebuffer_attachment_parameters() {
    let mut ctx = context();
    let q = |ctx: &mut Context, a, pname| fap(ctx, FRAMEBUFFER, a, pname);
    for a in [BACK_LEFT, BACK, LEFT] {
        assert_eq!(
            q(&mut ctx, a, FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
            FRAMEBUFFER_DEFAULT as GLint
        );
    }
    assert_eq!(
        q(&mut ctx, BACK_LEFT, FRAMEBUFFER_ATTACHMENT_OBJECT_NAME),
        0
    );
    assert_eq!(q(&mut ctx, BACK_LEFT, FRAMEBUFFER_ATTACHMENT_RED_SIZE), 8);
    assert_eq!(q(&mut ctx, BACK_LEFT, FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE), 8);
    assert_eq!(q(&mut ctx, BACK_LEFT, FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE), 0);
    assert_eq!(
        q(&mut ctx, BACK_LEFT, FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE),
        UNSIGNED_NORMALIZED as GLint
    );
    // Sized RGBA8, sRGB-capable as every desktop GL default framebuffer on Mesa.
    assert_eq!(
        q(&mut ctx, BACK_LEFT, FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING),
        SRGB as GLint
    );
    assert_eq!(q(&mut ctx, DEPTH, FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE), 24);
    assert_eq!(q(&mut ctx, STENCIL, FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE), 8);
    assert_eq!(
        q(&mut ctx, STENCIL, FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
        FRAMEBUFFER_DEFAULT as GLint
    );
    // A single-buffered surface has no front buffer.
    assert_eq!(
        q(&mut ctx, FRONT_LEFT, FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
        NONE as GLint
    );
    assert_no_error!(ctx);
    q(&mut ctx, FRONT_LEFT, FRAMEBUFFER_ATTACHMENT_RED_SIZE);
    assert_error!(ctx, INVALID_OPERATION);
    q(&mut ctx, BACK_LEFT, FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL);
    assert_error!(ctx, INVALID_ENUM);
    q(
        &mut ctx,
        COLOR_ATTACHMENT0,
        FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
    );
    assert_error!(ctx, INVALID_ENUM);
    q(
        &mut ctx,
        DEPTH_ATTACHMENT,
        FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
    );
    assert_error!(ctx, INVALID_ENUM);

    let mut ctx = no_depth_surface();
    assert_eq!(
        fap(
            &mut ctx,
            FRAMEBUFFER,
            DEPTH,
            FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE
        ),
        NONE as GLint
    );
    assert_no_error!(ctx);
    fap(
        &mut ctx,
        FRAMEBUFFER,
        DEPTH,
        FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE,
    );
    assert_error!(ctx, INVALID_OPERATION);
}
// ---------------------------------------------------------------------------------------
// Texture attachments

/// A texture of `target` with a 4 x 4 (x `layers`) RGBA8 level 0 (left bound).
fn texture(ctx: &mut Context, target: GLenum, format: GLenum, layers: i32) -> GLuint {
    use tessera_engine::pixel::Pixels;
    let t = ctx.gen_texture();
    ctx.bind_texture(target, t);
    let (base, ty) = match format {
        DEPTH_COMPONENT24 => (DEPTH_COMPONENT, UNSIGNED_INT),
        _ => (RGBA, UNSIGNED_BYTE),
    };
    let internal = format as GLint;
    match target {
        TEXTURE_1D => ctx.tex_image_1d(target, 0, internal, 4, 0, base, ty, Pixels::None),
        TEXTURE_3D | TEXTURE_2D_ARRAY => {
            ctx.tex_image_3d(target, 0, internal, 4, 4, layers, 0, base, ty, Pixels::None);
        }
        TEXTURE_1D_ARRAY => {
            ctx.tex_image_2d(target, 0, internal, 4, layers, 0, base, ty, Pixels::None);
        }
        TEXTURE_CUBE_MAP => {
            for face in TEXTURE_CUBE_MAP_POSITIVE_X..=TEXTURE_CUBE_MAP_NEGATIVE_Z {
                ctx.tex_image_2d(face, 0, internal, 4, 4, 0, base, ty, Pixels::None);
            }
        }
        _ => ctx.tex_image_2d(target, 0, internal, 4, 4, 0, base, ty, Pixels::None),
    }
    assert_no_error!(ctx);
    t
}

#[test]
fn framebuffer_texture_argument_errors() {
    let mut ctx = context();
    fbo(&mut ctx);
    let t2d = texture(&mut ctx, TEXTURE_2D, RGBA8, 1);
    let tex2d = |ctx: &mut Context, textarget, t, level| {
        ctx.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, textarget, t, level);
    };
    tex2d(&mut ctx, TEXTURE_2D, t2d, 0);
    assert_no_error!(ctx);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    tex2d(&mut ctx, TEXTURE_2D, t2d, -1);
    assert_error!(ctx, INVALID_VALUE);
    // MAX_TEXTURE_SIZE 8192: levels 0..=13.
    tex2d(&mut ctx, TEXTURE_2D, t2d, 14);
    assert_error!(ctx, INVALID_VALUE);
    tex2d(&mut ctx, TEXTURE_2D, t2d, 13);
    assert_no_error!(ctx);
    assert_eq!(
        status(&mut ctx),
        FRAMEBUFFER_INCOMPLETE_ATTACHMENT,
        "no image at level 13"
    );
    tex2d(&mut ctx, TEXTURE_3D, t2d, 0);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "a target FramebufferTexture2D does not take"
    );
    tex2d(&mut ctx, TEXTURE_CUBE_MAP_POSITIVE_Y, t2d, 0);
    assert_error!(ctx, INVALID_OPERATION, "a cube face of a 2D texture");
    tex2d(&mut ctx, TEXTURE_RECTANGLE, t2d, 0);
    assert_error!(ctx, INVALID_OPERATION, "the texture's target differs");
    let unbound = ctx.gen_texture();
    tex2d(&mut ctx, TEXTURE_2D, unbound, 0);
    assert_error!(ctx, INVALID_OPERATION, "a texture name never bound");
    let rect = texture(&mut ctx, TEXTURE_RECTANGLE, RGBA8, 1);
    tex2d(&mut ctx, TEXTURE_RECTANGLE, rect, 1);
    assert_error!(ctx, INVALID_VALUE, "rectangle textures have one level");
    tex2d(&mut ctx, TEXTURE_RECTANGLE, rect, 0);
    assert_no_error!(ctx);
    let cube = texture(&mut ctx, TEXTURE_CUBE_MAP, RGBA8, 1);
    tex2d(&mut ctx, TEXTURE_CUBE_MAP, cube, 0);
    assert_error!(ctx, INVALID_OPERATION, "a cube map attaches by face");
    ctx.framebuffer_texture_1d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, t2d, 0);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.framebuffer_texture_3d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, t2d, 0, 0);
    assert_error!(ctx, INVALID_OPERATION);
    // Layers.
    let array = texture(&mut ctx, TEXTURE_2D_ARRAY, RGBA8, 3);
    let layer = |ctx: &mut Context, t, level, layer| {
        ctx.framebuffer_texture_layer(FRAMEBUFFER, COLOR_ATTACHMENT0, t, level, layer);
    };
    layer(&mut ctx, array, 0, 2);
    assert_no_error!(ctx);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    layer(&mut ctx, array, 0, 3);
    assert_no_error!(ctx);
    assert_eq!(
        status(&mut ctx),
        FRAMEBUFFER_INCOMPLETE_ATTACHMENT,
        "past the last layer"
    );
    layer(&mut ctx, array, 0, -1);
    assert_error!(ctx, INVALID_VALUE);
    let max_layers = ctx.get_integer(MAX_ARRAY_TEXTURE_LAYERS);
    layer(&mut ctx, array, 0, max_layers);
    assert_error!(ctx, INVALID_VALUE);
    layer(&mut ctx, array, -1, 0);
    assert_error!(ctx, INVALID_VALUE);
    layer(&mut ctx, t2d, 0, 0);
    assert_error!(ctx, INVALID_OPERATION, "a 2D texture has no layers");
    layer(&mut ctx, cube, 0, 0);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "GL 3.3 takes no cube map here (4.5 does)"
    );
    ctx.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT0, t2d, -1);
    assert_error!(ctx, INVALID_VALUE);
    ctx.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT0, t2d, 0);
    assert_no_error!(ctx);
}

#[test]
fn texture_attachment_parameters() {
    let mut ctx = context();
    fbo(&mut ctx);
    let q = |ctx: &mut Context, pname| fap(ctx, FRAMEBUFFER, COLOR_ATTACHMENT0, pname);
    let cube = texture(&mut ctx, TEXTURE_CUBE_MAP, RGBA8, 1);
    ctx.framebuffer_texture_2d(
        FRAMEBUFFER,
        COLOR_ATTACHMENT0,
        TEXTURE_CUBE_MAP_POSITIVE_Z,
        cube,
        0,
    );
    assert_eq!(
        q(&mut ctx, FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
        TEXTURE as GLint
    );
    assert_eq!(
        q(&mut ctx, FRAMEBUFFER_ATTACHMENT_OBJECT_NAME),
        cube as GLint
    );
    assert_eq!(q(&mut ctx, FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL), 0);
    assert_eq!(
        q(&mut ctx, FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE),
        TEXTURE_CUBE_MAP_POSITIVE_Z as GLint
    );
    assert_eq!(q(&mut ctx, FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER), 0);
    assert_eq!(q(&mut ctx, FRAMEBUFFER_ATTACHMENT_LAYERED), 0);
    assert_eq!(q(&mut ctx, FRAMEBUFFER_ATTACHMENT_RED_SIZE), 8);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    let array = texture(&mut ctx, TEXTURE_2D_ARRAY, RGBA8, 3);
    ctx.framebuffer_texture_layer(FRAMEBUFFER, COLOR_ATTACHMENT0, array, 0, 2);
    assert_eq!(q(&mut ctx, FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER), 2);
    assert_eq!(q(&mut ctx, FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE), 0);
    assert_eq!(q(&mut ctx, FRAMEBUFFER_ATTACHMENT_LAYERED), 0);
    ctx.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT0, array, 0);
    assert_eq!(q(&mut ctx, FRAMEBUFFER_ATTACHMENT_LAYERED), 1);
    // A layered cube map reports its first face (as Mesa does).
    ctx.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT0, cube, 0);
    assert_eq!(q(&mut ctx, FRAMEBUFFER_ATTACHMENT_LAYERED), 1);
    assert_eq!(
        q(&mut ctx, FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE),
        TEXTURE_CUBE_MAP_POSITIVE_X as GLint
    );
    assert_no_error!(ctx);
}

#[test]
fn layered_attachments_must_all_be_layered_of_one_target() {
    let mut ctx = context();
    fbo(&mut ctx);
    let array = texture(&mut ctx, TEXTURE_2D_ARRAY, RGBA8, 3);
    ctx.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT0, array, 0);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    let depth = texture(&mut ctx, TEXTURE_2D, DEPTH_COMPONENT24, 1);
    ctx.framebuffer_texture_2d(FRAMEBUFFER, DEPTH_ATTACHMENT, TEXTURE_2D, depth, 0);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS);
    ctx.framebuffer_texture_2d(FRAMEBUFFER, DEPTH_ATTACHMENT, TEXTURE_2D, 0, 0);
    let volume = texture(&mut ctx, TEXTURE_3D, RGBA8, 3);
    ctx.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT1, volume, 0);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS);
    let other = texture(&mut ctx, TEXTURE_2D_ARRAY, RGBA8, 2);
    ctx.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT1, other, 0);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    // glFramebufferTexture of a 2D texture is not layered.
    let flat = texture(&mut ctx, TEXTURE_2D, RGBA8, 1);
    ctx.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT1, flat, 0);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS);
    assert_no_error!(ctx);
}

#[test]
fn multisample_textures_and_renderbuffers_must_agree() {
    let mut ctx = context();
    fbo(&mut ctx);
    let fixed = ctx.gen_texture();
    ctx.bind_texture(TEXTURE_2D_MULTISAMPLE, fixed);
    ctx.tex_image_2d_multisample(TEXTURE_2D_MULTISAMPLE, 4, RGBA8 as GLint, 4, 4, 1);
    let loose = ctx.gen_texture();
    ctx.bind_texture(TEXTURE_2D_MULTISAMPLE, loose);
    ctx.tex_image_2d_multisample(TEXTURE_2D_MULTISAMPLE, 4, RGBA8 as GLint, 4, 4, 0);
    assert_no_error!(ctx);
    let ms = rb(&mut ctx, RGBA8, 4, 4, 4);
    attach(&mut ctx, COLOR_ATTACHMENT0, ms);
    let attach_ms = |ctx: &mut Context, point, t| {
        ctx.framebuffer_texture_2d(FRAMEBUFFER, point, TEXTURE_2D_MULTISAMPLE, t, 0);
    };
    attach_ms(&mut ctx, COLOR_ATTACHMENT1, fixed);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    attach_ms(&mut ctx, COLOR_ATTACHMENT1, loose);
    assert_eq!(
        status(&mut ctx),
        FRAMEBUFFER_INCOMPLETE_MULTISAMPLE,
        "a renderbuffer needs fixed sample locations"
    );
    attach(&mut ctx, COLOR_ATTACHMENT0, 0);
    attach_ms(&mut ctx, COLOR_ATTACHMENT0, fixed);
    assert_eq!(
        status(&mut ctx),
        FRAMEBUFFER_INCOMPLETE_MULTISAMPLE,
        "textures disagree on fixed locations"
    );
    attach_ms(&mut ctx, COLOR_ATTACHMENT1, fixed);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    ctx.framebuffer_texture_2d(
        FRAMEBUFFER,
        COLOR_ATTACHMENT0,
        TEXTURE_2D_MULTISAMPLE,
        fixed,
        1,
    );
    assert_error!(ctx, INVALID_VALUE, "multisample textures have one level");
}

#[test]
fn a_texture_deleted_while_attached_to_an_unbound_framebuffer_lives_until_it_goes() {
    let mut ctx = context();
    let f = fbo(&mut ctx);
    let t = texture(&mut ctx, TEXTURE_2D, RGBA8, 1);
    ctx.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, t, 0);
    ctx.bind_texture(TEXTURE_2D, 0);
    ctx.bind_framebuffer(FRAMEBUFFER, 0);
    let handle = records(&mut ctx)
        .iter()
        .find_map(|r| match r {
            Record::CreateTexture { texture, .. } => Some(*texture),
            _ => None,
        })
        .expect("a texture");
    ctx.delete_textures(1, &[t]);
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    assert_eq!(
        count(&recs, |r| matches!(r, Record::DestroyTexture { .. })),
        0,
        "the attachment keeps it alive"
    );
    ctx.bind_framebuffer(FRAMEBUFFER, f);
    assert_eq!(
        fap(
            &mut ctx,
            FRAMEBUFFER,
            COLOR_ATTACHMENT0,
            FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE
        ),
        TEXTURE as GLint
    );
    ctx.clear(COLOR_BUFFER_BIT);
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    let mut state = FramebufferState::default();
    state.colors[0] = Attachment::Texture {
        texture: handle,
        level: 0,
        layer: 0,
    };
    assert!(recs.iter().any(|r| matches!(
        r,
        Record::SetFramebufferState { state: s, .. } if **s == state
    )));
    ctx.bind_framebuffer(FRAMEBUFFER, 0);
    ctx.delete_framebuffers(1, &[f]);
    let recs = records(&mut ctx);
    assert_eq!(
        recs.iter()
            .filter(|r| matches!(r, Record::DestroyTexture { .. }))
            .collect::<Vec<_>>(),
        vec![&Record::DestroyTexture { texture: handle }]
    );
}

#[test]
fn a_texture_deleted_while_attached_to_the_bound_framebuffer_is_detached() {
    let mut ctx = context();
    fbo(&mut ctx);
    let t = texture(&mut ctx, TEXTURE_2D, RGBA8, 1);
    ctx.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, t, 0);
    records(&mut ctx);
    ctx.delete_textures(1, &[t]);
    assert_eq!(
        fap(
            &mut ctx,
            FRAMEBUFFER,
            COLOR_ATTACHMENT0,
            FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE
        ),
        NONE as GLint
    );
    let recs = records(&mut ctx);
    assert_eq!(
        count(&recs, |r| matches!(r, Record::DestroyTexture { .. })),
        1
    );
    assert_no_error!(ctx);
}

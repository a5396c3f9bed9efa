//! The engine entry points GL 3.3 core has that the drop-in needed the engine to add: the
//! remaining `glVertexAttrib*` forms, `glClampColor`, conditional rendering, transform
//! feedback, `glGetPointerv`, `glGetMultisamplefv`, `glGetCompressedTexImage`. Values and
//! errors are the ones Mesa llvmpipe gives (checked through the oracle), except where
//! GL 3.3 and Mesa's 4.5 context differ, which is said.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::PixelsMut;
use tessera_tests::{assert_error, assert_no_error, context, surfaceless};

fn current(ctx: &mut Context, index: GLuint) -> [f32; 4] {
    let mut v = [0.0; 4];
    ctx.get_vertex_attribfv(index, CURRENT_VERTEX_ATTRIB, &mut v);
    v
}

#[test]
fn normalized_vertex_attributes_use_gl_3_3_conversions() {
    let mut ctx = surfaceless();
    ctx.vertex_attrib_4n_signed(1, &[-128i8, 127, 0, -1]);
    assert_eq!(current(&mut ctx, 1), [-1.0, 1.0, 1.0 / 255.0, -1.0 / 255.0]);
    ctx.vertex_attrib_4n_unsigned(1, &[0u16, 65535, 1, 2]);
    assert_eq!(
        current(&mut ctx, 1),
        [0.0, 1.0, 1.0 / 65535.0, 2.0 / 65535.0]
    );
    ctx.vertex_attrib_4v(1, &[1u8, 2, 3, 4]);
    assert_eq!(current(&mut ctx, 1), [1.0, 2.0, 3.0, 4.0]);
    ctx.vertex_attrib_1s(1, -3);
    assert_eq!(current(&mut ctx, 1), [-3.0, 0.0, 0.0, 1.0]);
    ctx.vertex_attrib_2d(1, 1.5, 2.5);
    assert_eq!(current(&mut ctx, 1), [1.5, 2.5, 0.0, 1.0]);
    let mut d = [0.0f64; 4];
    ctx.get_vertex_attribdv(1, CURRENT_VERTEX_ATTRIB, &mut d);
    assert_eq!(d, [1.5, 2.5, 0.0, 1.0]);
    ctx.vertex_attrib_i1i(2, 5);
    let mut i = [0; 4];
    ctx.get_vertex_attrib_iiv(2, CURRENT_VERTEX_ATTRIB, &mut i);
    assert_eq!(i, [5, 0, 0, 1]);
    ctx.vertex_attrib_i4v_signed(2, &[-1i8, 2, -3, 4]);
    ctx.get_vertex_attrib_iiv(2, CURRENT_VERTEX_ATTRIB, &mut i);
    assert_eq!(i, [-1, 2, -3, 4]);
    assert_no_error!(ctx);
    ctx.vertex_attrib_1d(99, 1.0);
    assert_error!(ctx, INVALID_VALUE);
}

#[test]
fn packed_vertex_attributes_unpack_2_10_10_10() {
    let mut ctx = surfaceless();
    // x = -1 (10 bits), w = -1 (2 bits): normalized as packed data is, max(c / 511, -1).
    ctx.vertex_attrib_p4ui(1, INT_2_10_10_10_REV, TRUE as GLboolean, 0xC000_03FF);
    assert_eq!(current(&mut ctx, 1), [-1.0 / 511.0, 0.0, 0.0, -1.0]);
    ctx.vertex_attrib_p4ui(1, INT_2_10_10_10_REV, FALSE as GLboolean, 0xC000_03FF);
    assert_eq!(current(&mut ctx, 1), [-1.0, 0.0, 0.0, -1.0]);
    ctx.vertex_attrib_p4ui(1, UNSIGNED_INT_2_10_10_10_REV, FALSE as GLboolean, u32::MAX);
    assert_eq!(current(&mut ctx, 1), [1023.0, 1023.0, 1023.0, 3.0]);
    ctx.vertex_attrib_p4ui(
        1,
        UNSIGNED_INT_2_10_10_10_REV,
        TRUE as GLboolean,
        0xC000_03FF,
    );
    assert_eq!(current(&mut ctx, 1), [1.0, 0.0, 0.0, 1.0]);
    ctx.vertex_attrib_p3ui(1, INT_2_10_10_10_REV, TRUE as GLboolean, 0x200);
    assert_eq!(current(&mut ctx, 1), [-1.0, 0.0, 0.0, 1.0]);
    assert_no_error!(ctx);
    // The 10F_11F_11F type is GL 4.4.
    ctx.vertex_attrib_p4ui(1, UNSIGNED_INT_10F_11F_11F_REV, FALSE as GLboolean, 0);
    assert_error!(ctx, INVALID_ENUM);
    ctx.vertex_attrib_p1ui(1, FLOAT, FALSE as GLboolean, 0);
    assert_error!(ctx, INVALID_ENUM);
    ctx.vertex_attrib_p1ui(99, INT_2_10_10_10_REV, FALSE as GLboolean, 0);
    assert_error!(ctx, INVALID_VALUE);
    assert_eq!(
        current(&mut ctx, 1),
        [-1.0, 0.0, 0.0, 1.0],
        "errors change nothing"
    );
}

#[test]
fn clamp_color_is_read_color_only() {
    let mut ctx = surfaceless();
    assert_eq!(ctx.get_integer(CLAMP_READ_COLOR), FIXED_ONLY as i32);
    ctx.clamp_color(CLAMP_READ_COLOR, FALSE);
    assert_no_error!(ctx);
    assert_eq!(ctx.get_integer(CLAMP_READ_COLOR), FALSE as i32);
    // The vertex and fragment clamps are compatibility state.
    const CLAMP_VERTEX_COLOR: GLenum = 0x891A;
    ctx.clamp_color(CLAMP_VERTEX_COLOR, FALSE);
    assert_error!(ctx, INVALID_ENUM);
    ctx.clamp_color(CLAMP_READ_COLOR, 5);
    assert_error!(ctx, INVALID_ENUM);
    assert_eq!(ctx.get_integer(CLAMP_READ_COLOR), FALSE as i32);
}

#[test]
fn conditional_render_errors_follow_mesa() {
    let mut ctx = context();
    ctx.begin_conditional_render(0, QUERY_WAIT);
    assert_error!(ctx, INVALID_VALUE);
    ctx.end_conditional_render();
    assert_error!(ctx, INVALID_OPERATION);
    let q = ctx.gen_query();
    ctx.begin_conditional_render(q, QUERY_WAIT);
    assert_error!(ctx, INVALID_OPERATION, "generated but never begun");
    ctx.begin_query(SAMPLES_PASSED, q);
    ctx.begin_conditional_render(q, QUERY_WAIT);
    assert_error!(ctx, INVALID_OPERATION, "active");
    ctx.end_query(SAMPLES_PASSED);
    ctx.begin_conditional_render(q, 0x1234);
    assert_error!(ctx, INVALID_ENUM);
    let timer = ctx.gen_query();
    ctx.begin_query(TIME_ELAPSED, timer);
    ctx.end_query(TIME_ELAPSED);
    ctx.begin_conditional_render(timer, QUERY_WAIT);
    assert_error!(ctx, INVALID_OPERATION, "not an occlusion query");
    ctx.begin_conditional_render(q, QUERY_BY_REGION_NO_WAIT);
    assert_no_error!(ctx);
    ctx.begin_conditional_render(q, QUERY_WAIT);
    assert_error!(ctx, INVALID_OPERATION, "already active");
    ctx.end_conditional_render();
    assert_no_error!(ctx);
}

#[test]
fn transform_feedback_entry_points_raise_the_errors_gl_names() {
    let mut ctx = surfaceless();
    ctx.begin_transform_feedback(TRIANGLES);
    assert_error!(ctx, INVALID_OPERATION, "no program");
    ctx.end_transform_feedback();
    assert_error!(ctx, INVALID_OPERATION, "not active");
    let p = ctx.create_program();
    ctx.transform_feedback_varyings(p, 2, &["v", "w"], INTERLEAVED_ATTRIBS);
    assert_no_error!(ctx);
    ctx.transform_feedback_varyings(p, 2, &["v", "w"], 0x1234);
    assert_error!(ctx, INVALID_ENUM);
    ctx.transform_feedback_varyings(p, -1, &[], INTERLEAVED_ATTRIBS);
    assert_error!(ctx, INVALID_VALUE);
    ctx.transform_feedback_varyings(p, 5, &["a", "b", "c", "d", "e"], SEPARATE_ATTRIBS);
    assert_error!(
        ctx,
        INVALID_VALUE,
        "more than MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS"
    );
    ctx.transform_feedback_varyings(12345, 1, &["v"], INTERLEAVED_ATTRIBS);
    assert_error!(ctx, INVALID_VALUE);
    let s = ctx.create_shader(VERTEX_SHADER);
    ctx.transform_feedback_varyings(s, 1, &["v"], INTERLEAVED_ATTRIBS);
    assert_error!(ctx, INVALID_OPERATION);
    let (mut size, mut ty, mut name) = (0, 0, [0u8; 8]);
    ctx.get_transform_feedback_varying(p, 0, 8, None, &mut size, &mut ty, &mut name);
    assert_error!(ctx, INVALID_VALUE);
    assert_eq!((size, ty), (0, 0), "nothing written");
}

#[test]
fn get_pointerv_answers_only_the_debug_callback_pointers() {
    let mut ctx = surfaceless();
    // KHR_debug's two pointers, null while no callback is set.
    assert_eq!(ctx.get_pointerv(DEBUG_CALLBACK_FUNCTION), 0);
    assert_eq!(ctx.get_pointerv(DEBUG_CALLBACK_USER_PARAM), 0);
    assert_no_error!(ctx);
    // The client array pointers are compatibility state (VERTEX_ARRAY_POINTER).
    assert_eq!(ctx.get_pointerv(0x808E), 0);
    assert_error!(ctx, INVALID_ENUM);
}

#[test]
fn sample_positions_are_the_standard_ones() {
    let mut ctx = surfaceless();
    let mut p = [9.0f32; 2];
    ctx.get_multisamplefv(SAMPLE_POSITION, 0, &mut p);
    assert_error!(ctx, INVALID_VALUE, "no complete draw framebuffer");
    ctx.get_multisamplefv(0x1234, 0, &mut p);
    assert_error!(ctx, INVALID_ENUM);
    let rb = ctx.gen_renderbuffer();
    ctx.bind_renderbuffer(RENDERBUFFER, rb);
    ctx.renderbuffer_storage_multisample(RENDERBUFFER, 4, RGBA8, 8, 8);
    let fb = ctx.gen_framebuffer();
    ctx.bind_framebuffer(FRAMEBUFFER, fb);
    ctx.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    assert_no_error!(ctx);
    let want = [
        [0.375, 0.125],
        [0.875, 0.375],
        [0.125, 0.625],
        [0.625, 0.875],
    ];
    for (i, w) in want.iter().enumerate() {
        ctx.get_multisamplefv(SAMPLE_POSITION, i as GLuint, &mut p);
        assert_no_error!(ctx);
        assert_eq!(&p, w, "sample {i}");
    }
    ctx.get_multisamplefv(SAMPLE_POSITION, 4, &mut p);
    assert_error!(ctx, INVALID_VALUE);
}

#[test]
fn get_compressed_tex_image_checks_what_it_can() {
    let mut ctx = surfaceless();
    let t = ctx.gen_texture();
    ctx.bind_texture(TEXTURE_2D, t);
    let mut out = [0u8; 64];
    ctx.get_compressed_tex_image(TEXTURE_3D + 1, 0, PixelsMut::Bytes(&mut out));
    assert_error!(ctx, INVALID_ENUM);
    ctx.get_compressed_tex_image(TEXTURE_2D, -1, PixelsMut::Bytes(&mut out));
    assert_error!(ctx, INVALID_VALUE);
    ctx.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        4,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None.into(),
    );
    ctx.get_compressed_tex_image(TEXTURE_2D, 0, PixelsMut::Bytes(&mut out));
    assert_error!(ctx, INVALID_OPERATION, "not a compressed image");
    // A 4x4 RGTC1 image is one 8-byte block.
    ctx.compressed_tex_image_2d(
        TEXTURE_2D,
        0,
        COMPRESSED_RED_RGTC1,
        4,
        4,
        0,
        8,
        (&[0u8; 8][..]).into(),
    );
    assert_no_error!(ctx);
    assert_eq!(ctx.get_compressed_tex_image_len(TEXTURE_2D, 0), 8);
    ctx.get_compressed_tex_image(TEXTURE_2D, 0, PixelsMut::Bytes(&mut out[..4]));
    assert_error!(ctx, INVALID_OPERATION, "too small");
    ctx.get_compressed_tex_image(TEXTURE_2D, 0, PixelsMut::Bytes(&mut out));
    assert_no_error!(ctx);
}

//! Draw and read buffers, and the verbs that clear, blit and read framebuffers.

use super::*;

// ---------------------------------------------------------------------------------------
// Draw and read buffers

#[test]
fn draw_and_read_buffer_errors_on_the_default_framebuffer() {
    let mut ctx = context();
    ctx.draw_buffer(FRONT);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "a single-buffered surface has no FRONT"
    );
    ctx.draw_buffer(COLOR_ATTACHMENT0);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.draw_buffer(0x1234);
    assert_error!(ctx, INVALID_ENUM);
    ctx.read_buffer(COLOR_ATTACHMENT0);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.read_buffer(0x1234);
    assert_error!(ctx, INVALID_ENUM);
    ctx.draw_buffers(-1, &[]);
    assert_error!(ctx, INVALID_VALUE);
    ctx.draw_buffers(9, &[NONE; 9]);
    assert_error!(ctx, INVALID_VALUE);
    ctx.draw_buffers(1, &[FRONT_AND_BACK]);
    assert_error!(ctx, INVALID_ENUM);
    ctx.draw_buffers(2, &[BACK_LEFT, BACK_LEFT]);
    assert_error!(ctx, INVALID_OPERATION);
    assert_eq!(
        int(&mut ctx, DRAW_BUFFER0),
        BACK as GLint,
        "errors change nothing"
    );

    ctx.draw_buffer(NONE);
    assert_eq!(int(&mut ctx, DRAW_BUFFER0), NONE as GLint);
    ctx.draw_buffers(1, &[BACK_LEFT]);
    assert_eq!(int(&mut ctx, DRAW_BUFFER0), BACK_LEFT as GLint);
    ctx.read_buffer(NONE);
    assert_eq!(int(&mut ctx, READ_BUFFER), NONE as GLint);
    ctx.read_buffer(BACK);
    assert_eq!(int(&mut ctx, READ_BUFFER), BACK as GLint);
    assert_no_error!(ctx);

    let mut ctx = surfaceless();
    ctx.draw_buffer(BACK);
    assert_error!(ctx, INVALID_OPERATION, "no colour buffer without a surface");
    ctx.draw_buffer(NONE);
    assert_no_error!(ctx);
}

#[test]
fn draw_and_read_buffer_errors_on_an_object() {
    let mut ctx = context();
    fbo(&mut ctx);
    for (buf, draw, read, draws) in [
        (BACK, INVALID_OPERATION, INVALID_OPERATION, INVALID_ENUM),
        (
            BACK_LEFT,
            INVALID_OPERATION,
            INVALID_OPERATION,
            INVALID_OPERATION,
        ),
        (
            COLOR_ATTACHMENT0 + 8,
            INVALID_OPERATION,
            INVALID_OPERATION,
            INVALID_OPERATION,
        ),
        (
            FRONT_AND_BACK,
            INVALID_OPERATION,
            INVALID_OPERATION,
            INVALID_ENUM,
        ),
        (0x1234, INVALID_ENUM, INVALID_ENUM, INVALID_ENUM),
        (COLOR_ATTACHMENT7, NO_ERROR, NO_ERROR, NO_ERROR),
    ] {
        ctx.draw_buffer(buf);
        assert_error!(ctx, draw, "DrawBuffer({buf:#x})");
        ctx.read_buffer(buf);
        assert_error!(ctx, read, "ReadBuffer({buf:#x})");
        ctx.draw_buffers(1, &[buf]);
        assert_error!(ctx, draws, "DrawBuffers({buf:#x})");
    }
    ctx.draw_buffers(2, &[COLOR_ATTACHMENT0, COLOR_ATTACHMENT0]);
    assert_error!(ctx, INVALID_OPERATION, "a duplicate");
    ctx.draw_buffers(2, &[COLOR_ATTACHMENT0 + 8, 0x1234]);
    assert_error!(ctx, INVALID_OPERATION, "elements are checked in order");
    ctx.draw_buffers(3, &[NONE, NONE, COLOR_ATTACHMENT2]);
    assert_no_error!(ctx);
    ctx.draw_buffers(2, &[COLOR_ATTACHMENT1, COLOR_ATTACHMENT0]);
    assert_no_error!(ctx);
    assert_eq!(int(&mut ctx, DRAW_BUFFER0), COLOR_ATTACHMENT1 as GLint);
    assert_eq!(int(&mut ctx, DRAW_BUFFER1), COLOR_ATTACHMENT0 as GLint);
    assert_eq!(int(&mut ctx, DRAW_BUFFER2), NONE as GLint, "past n: NONE");
    ctx.read_buffer(COLOR_ATTACHMENT3);
    assert_eq!(int(&mut ctx, READ_BUFFER), COLOR_ATTACHMENT3 as GLint);
}

#[test]
fn draw_buffer_mapping_reaches_the_backend_at_the_next_verb() {
    let mut ctx = context();
    let (_, _) = color_fbo(&mut ctx);
    let second = rb(&mut ctx, RGBA8, 4, 4, 0);
    attach(&mut ctx, COLOR_ATTACHMENT1, second);
    ctx.clear(COLOR_BUFFER_BIT);
    records(&mut ctx);
    ctx.draw_buffers(3, &[COLOR_ATTACHMENT1, NONE, COLOR_ATTACHMENT0]);
    assert!(records(&mut ctx).is_empty(), "a setter emits nothing");
    ctx.clear(COLOR_BUFFER_BIT);
    let mut buffers = [DRAW_BUFFER_NONE; MAX_DRAW_BUFFERS];
    buffers[0] = 1;
    buffers[2] = 0;
    let recs = records(&mut ctx);
    assert_eq!(
        recs.iter()
            .filter(|r| !matches!(r, Record::Clear { .. }))
            .collect::<Vec<_>>(),
        vec![&Record::SetDrawBuffers { buffers }]
    );
    assert_no_error!(ctx);
}
// ---------------------------------------------------------------------------------------
// Clears

#[test]
fn clear_buffer_errors() {
    let mut ctx = context();
    let (_, _) = color_fbo(&mut ctx);
    let iv = [1, 2, 3, 4];
    let uv = [1u32, 2, 3, 4];
    let fv = [0.5f32; 4];
    for (buffer, drawbuffer, expect_iv, expect_uiv, expect_fv) in [
        (COLOR, 0, NO_ERROR, NO_ERROR, NO_ERROR),
        (COLOR, 7, NO_ERROR, NO_ERROR, NO_ERROR),
        (COLOR, 8, INVALID_VALUE, INVALID_VALUE, INVALID_VALUE),
        (COLOR, -1, INVALID_VALUE, INVALID_VALUE, INVALID_VALUE),
        (DEPTH, 0, INVALID_ENUM, INVALID_ENUM, NO_ERROR),
        (DEPTH, 1, INVALID_ENUM, INVALID_ENUM, INVALID_VALUE),
        (STENCIL, 0, NO_ERROR, INVALID_ENUM, INVALID_ENUM),
        (STENCIL, 1, INVALID_VALUE, INVALID_ENUM, INVALID_ENUM),
        (DEPTH_STENCIL, 0, INVALID_ENUM, INVALID_ENUM, INVALID_ENUM),
        (FRONT, 0, INVALID_ENUM, INVALID_ENUM, INVALID_ENUM),
    ] {
        ctx.clear_bufferiv(buffer, drawbuffer, &iv);
        assert_error!(ctx, expect_iv, "iv({buffer:#x}, {drawbuffer})");
        ctx.clear_bufferuiv(buffer, drawbuffer, &uv);
        assert_error!(ctx, expect_uiv, "uiv({buffer:#x}, {drawbuffer})");
        ctx.clear_bufferfv(buffer, drawbuffer, &fv);
        assert_error!(ctx, expect_fv, "fv({buffer:#x}, {drawbuffer})");
    }
    ctx.clear_bufferfi(DEPTH_STENCIL, 0, 1.0, 0);
    assert_no_error!(ctx);
    ctx.clear_bufferfi(DEPTH_STENCIL, 1, 1.0, 0);
    assert_error!(ctx, INVALID_VALUE);
    ctx.clear_bufferfi(DEPTH, 0, 1.0, 0);
    assert_error!(ctx, INVALID_ENUM);
    ctx.clear_bufferfi(COLOR, 0, 1.0, 0);
    assert_error!(ctx, INVALID_ENUM);
    // Incomplete: Mesa reports that before the buffer for iv/uiv/fv, after it for fi.
    attach(&mut ctx, COLOR_ATTACHMENT0, 0);
    ctx.clear_bufferfv(0x1234, 0, &fv);
    assert_error!(ctx, INVALID_FRAMEBUFFER_OPERATION);
    ctx.clear_bufferfi(DEPTH_STENCIL, 1, 1.0, 0);
    assert_error!(ctx, INVALID_VALUE);
    ctx.clear_bufferfi(DEPTH_STENCIL, 0, 1.0, 0);
    assert_error!(ctx, INVALID_FRAMEBUFFER_OPERATION);
}

#[test]
fn clear_buffer_records_and_rasterizer_discard() {
    let mut ctx = context();
    let (_, _) = color_fbo(&mut ctx);
    ctx.clear(COLOR_BUFFER_BIT);
    records(&mut ctx);
    ctx.clear_bufferfv(COLOR, 1, &[0.25, 0.5, 0.75, 1.0]);
    ctx.clear_bufferiv(COLOR, 2, &[-1, 2, -3, 4]);
    ctx.clear_bufferuiv(COLOR, 3, &[5, 6, 7, 8]);
    ctx.clear_bufferfv(DEPTH, 0, &[2.0]);
    ctx.clear_bufferiv(STENCIL, 0, &[0x1ff]);
    ctx.clear_bufferfi(DEPTH_STENCIL, 0, -1.0, 0x103);
    assert_no_error!(ctx);
    assert_eq!(
        records(&mut ctx),
        vec![
            Record::ClearBuffer {
                draw_buffer: 1,
                value: ClearValue::Float([0.25, 0.5, 0.75, 1.0]),
            },
            Record::ClearBuffer {
                draw_buffer: 2,
                value: ClearValue::Int([-1, 2, -3, 4]),
            },
            Record::ClearBuffer {
                draw_buffer: 3,
                value: ClearValue::Uint([5, 6, 7, 8]),
            },
            Record::ClearBuffer {
                draw_buffer: 0,
                value: ClearValue::Depth(1.0),
            },
            Record::ClearBuffer {
                draw_buffer: 0,
                value: ClearValue::Stencil(0xff),
            },
            Record::ClearBuffer {
                draw_buffer: 0,
                value: ClearValue::DepthStencil(0.0, 3),
            },
        ]
    );
    ctx.enable(RASTERIZER_DISCARD);
    ctx.clear_bufferfv(COLOR, 0, &[1.0; 4]);
    assert_no_error!(ctx);
    assert!(records(&mut ctx).is_empty(), "discarded like glClear");
}
// ---------------------------------------------------------------------------------------
// Blits

/// Binds separate read and draw framebuffers with one colour renderbuffer each.
fn blit_pair(ctx: &mut Context, read_format: GLenum, draw_format: GLenum) -> (GLuint, GLuint) {
    let read = ctx.gen_framebuffer();
    let draw = ctx.gen_framebuffer();
    ctx.bind_framebuffer(READ_FRAMEBUFFER, read);
    ctx.bind_framebuffer(DRAW_FRAMEBUFFER, draw);
    let r = rb(ctx, read_format, 4, 4, 0);
    attach_to(ctx, READ_FRAMEBUFFER, COLOR_ATTACHMENT0, r);
    let d = rb(ctx, draw_format, 4, 4, 0);
    attach_to(ctx, DRAW_FRAMEBUFFER, COLOR_ATTACHMENT0, d);
    (read, draw)
}

#[test]
fn blit_argument_errors() {
    let mut ctx = context();
    blit_pair(&mut ctx, RGBA8, RGBA8);
    blit(&mut ctx, COLOR_BUFFER_BIT, NEAREST);
    blit(&mut ctx, COLOR_BUFFER_BIT, LINEAR);
    blit(&mut ctx, 0, NEAREST);
    assert_no_error!(ctx);
    blit(&mut ctx, 0x8, NEAREST);
    assert_error!(ctx, INVALID_VALUE);
    blit(&mut ctx, COLOR_BUFFER_BIT, 0x1234);
    assert_error!(ctx, INVALID_ENUM);
    blit(&mut ctx, 0x8, 0x1234);
    assert_error!(ctx, INVALID_ENUM, "the filter is checked before the mask");
    blit(&mut ctx, DEPTH_BUFFER_BIT, LINEAR);
    assert_error!(ctx, INVALID_OPERATION);
    blit(&mut ctx, STENCIL_BUFFER_BIT, LINEAR);
    assert_error!(ctx, INVALID_OPERATION);
    // Buffers only one side has are skipped, not errors.
    blit(&mut ctx, DEPTH_BUFFER_BIT | STENCIL_BUFFER_BIT, NEAREST);
    assert_no_error!(ctx);
    // Incompleteness comes first.
    attach_to(&mut ctx, DRAW_FRAMEBUFFER, COLOR_ATTACHMENT0, 0);
    blit(&mut ctx, 0x8, 0x1234);
    assert_error!(ctx, INVALID_FRAMEBUFFER_OPERATION);
}

#[test]
fn blit_format_errors() {
    let mut ctx = context();
    blit_pair(&mut ctx, RGBA8I, RGBA8);
    blit(&mut ctx, COLOR_BUFFER_BIT, NEAREST);
    assert_error!(ctx, INVALID_OPERATION, "integer to float");
    let mut ctx = context();
    blit_pair(&mut ctx, RGBA8I, RGBA8UI);
    blit(&mut ctx, COLOR_BUFFER_BIT, NEAREST);
    assert_error!(ctx, INVALID_OPERATION, "signed to unsigned integer");
    let mut ctx = context();
    blit_pair(&mut ctx, RGBA8I, RGBA16I);
    blit(&mut ctx, COLOR_BUFFER_BIT, NEAREST);
    assert_no_error!(ctx);
    blit(&mut ctx, COLOR_BUFFER_BIT, LINEAR);
    assert_error!(ctx, INVALID_OPERATION, "LINEAR of integers");
    // Depth formats of different precision (GL 3.3 §4.3.3; Mesa 22 lets this through).
    let mut ctx = context();
    blit_pair(&mut ctx, RGBA8, RGBA8);
    let read_depth = rb(&mut ctx, DEPTH_COMPONENT16, 4, 4, 0);
    attach_to(&mut ctx, READ_FRAMEBUFFER, DEPTH_ATTACHMENT, read_depth);
    let draw_ds = rb(&mut ctx, DEPTH24_STENCIL8, 4, 4, 0);
    attach_to(
        &mut ctx,
        DRAW_FRAMEBUFFER,
        DEPTH_STENCIL_ATTACHMENT,
        draw_ds,
    );
    blit(&mut ctx, DEPTH_BUFFER_BIT, NEAREST);
    assert_error!(ctx, INVALID_OPERATION);
    blit(&mut ctx, STENCIL_BUFFER_BIT, NEAREST);
    assert_no_error!(ctx);
    let read_d24 = rb(&mut ctx, DEPTH_COMPONENT24, 4, 4, 0);
    attach_to(&mut ctx, READ_FRAMEBUFFER, DEPTH_ATTACHMENT, read_d24);
    blit(&mut ctx, DEPTH_BUFFER_BIT, NEAREST);
    assert_no_error!(ctx);
}

#[test]
fn blit_multisample_rules() {
    let mut ctx = context();
    blit_pair(&mut ctx, RGBA8, RGBA8);
    let ms = rb(&mut ctx, RGBA8, 4, 4, 4);
    attach_to(&mut ctx, READ_FRAMEBUFFER, COLOR_ATTACHMENT0, ms);
    blit(&mut ctx, COLOR_BUFFER_BIT, NEAREST);
    assert_no_error!(ctx);
    ctx.blit_framebuffer(0, 0, 4, 4, 0, 0, 8, 8, COLOR_BUFFER_BIT, NEAREST);
    assert_error!(ctx, INVALID_OPERATION, "a resolve does not scale");
    ctx.blit_framebuffer(0, 0, 4, 4, 1, 1, 5, 5, COLOR_BUFFER_BIT, NEAREST);
    assert_error!(ctx, INVALID_OPERATION, "GL 3.3: the same bounds");
    let ms_rgb = rb(&mut ctx, RGB8, 4, 4, 4);
    attach_to(&mut ctx, READ_FRAMEBUFFER, COLOR_ATTACHMENT0, ms_rgb);
    blit(&mut ctx, COLOR_BUFFER_BIT, NEAREST);
    assert_error!(ctx, INVALID_OPERATION, "a resolve keeps the format");
    // A multisampled draw framebuffer (GL 3.3 §4.3.3).
    let single = rb(&mut ctx, RGBA8, 4, 4, 0);
    attach_to(&mut ctx, READ_FRAMEBUFFER, COLOR_ATTACHMENT0, single);
    let ms_draw = rb(&mut ctx, RGBA8, 4, 4, 4);
    attach_to(&mut ctx, DRAW_FRAMEBUFFER, COLOR_ATTACHMENT0, ms_draw);
    blit(&mut ctx, COLOR_BUFFER_BIT, NEAREST);
    assert_error!(ctx, INVALID_OPERATION);
}

#[test]
fn blit_emits_its_source_and_both_regions() {
    let mut ctx = context();
    let recs = records(&mut ctx);
    let surface = created_surface(&recs);
    let draw = fbo(&mut ctx);
    let r = rb(&mut ctx, RGBA8, 4, 4, 0);
    attach(&mut ctx, COLOR_ATTACHMENT0, r);
    ctx.bind_framebuffer(READ_FRAMEBUFFER, 0);
    let _ = draw;
    ctx.blit_framebuffer(
        0,
        0,
        64,
        64,
        4,
        0,
        0,
        4,
        COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT,
        LINEAR,
    );
    assert_error!(ctx, INVALID_OPERATION, "LINEAR with depth");
    ctx.blit_framebuffer(0, 0, 64, 64, 4, 0, 0, 4, COLOR_BUFFER_BIT, LINEAR);
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    let framebuffer = created_framebuffer(&recs);
    let blits: Vec<&Record> = recs
        .iter()
        .filter(|r| matches!(r, Record::Blit { .. }))
        .collect();
    assert_eq!(
        blits,
        vec![&Record::Blit {
            src: ReadSource {
                framebuffer: FramebufferRef::Surface(surface),
                image: ReadImage::Color(0),
            },
            regions: Box::new([
                Region {
                    x0: 0,
                    y0: 0,
                    x1: 64,
                    y1: 64,
                },
                Region {
                    x0: 4,
                    y0: 0,
                    x1: 0,
                    y1: 4,
                },
            ]),
            mask: blit_mask::COLOR,
            linear: true,
        }]
    );
    // The destination was bound before the blit.
    let bind = recs
        .iter()
        .position(|r| {
            *r == Record::BindFramebuffer {
                framebuffer: FramebufferRef::Object(framebuffer),
            }
        })
        .expect("the draw framebuffer is bound");
    let blit_at = recs
        .iter()
        .position(|r| matches!(r, Record::Blit { .. }))
        .expect("a blit");
    assert!(bind < blit_at);
}
// ---------------------------------------------------------------------------------------
// Read-backs

#[test]
fn read_pixels_errors() {
    let mut ctx = context();
    let (_, _) = color_fbo(&mut ctx);
    let mut dst = [0u8; 64];
    ctx.read_pixels(0, 0, -1, 1, RGBA, UNSIGNED_BYTE, PixelsMut::Bytes(&mut dst));
    assert_error!(ctx, INVALID_VALUE);
    for (format, ty, error) in [
        (RGBA, UNSIGNED_BYTE, NO_ERROR),
        (RGBA, FLOAT, NO_ERROR),
        (BGRA, UNSIGNED_INT_8_8_8_8_REV, NO_ERROR),
        (RGB, UNSIGNED_SHORT_5_6_5, NO_ERROR),
        (RED, HALF_FLOAT, NO_ERROR),
        // GL 3.3: an unknown format is INVALID_ENUM (Mesa 22 says INVALID_OPERATION).
        (0x1234, UNSIGNED_BYTE, INVALID_ENUM),
        (RGBA, 0x1234, INVALID_ENUM),
        (RGBA, UNSIGNED_SHORT_5_6_5, INVALID_OPERATION),
        (RGB, UNSIGNED_SHORT_4_4_4_4, INVALID_OPERATION),
        (RGBA, UNSIGNED_INT_24_8, INVALID_OPERATION),
        (RGBA_INTEGER, INT, INVALID_OPERATION),
        (RGBA_INTEGER, FLOAT, INVALID_ENUM),
        (DEPTH_COMPONENT, FLOAT, INVALID_OPERATION),
        (STENCIL_INDEX, UNSIGNED_BYTE, INVALID_OPERATION),
        (DEPTH_STENCIL, UNSIGNED_INT_24_8, INVALID_OPERATION),
    ] {
        read_rgba(&mut ctx, format, ty);
        assert_error!(ctx, error, "ReadPixels({format:#x}, {ty:#x})");
    }
    let ds = rb(&mut ctx, DEPTH24_STENCIL8, 4, 4, 0);
    attach(&mut ctx, DEPTH_STENCIL_ATTACHMENT, ds);
    for (format, ty, error) in [
        (DEPTH_COMPONENT, FLOAT, NO_ERROR),
        (DEPTH_COMPONENT, UNSIGNED_INT_24_8, INVALID_OPERATION),
        (STENCIL_INDEX, UNSIGNED_BYTE, NO_ERROR),
        (DEPTH_STENCIL, UNSIGNED_INT_24_8, NO_ERROR),
        (DEPTH_STENCIL, FLOAT_32_UNSIGNED_INT_24_8_REV, NO_ERROR),
        (DEPTH_STENCIL, UNSIGNED_BYTE, INVALID_ENUM),
    ] {
        read_rgba(&mut ctx, format, ty);
        assert_error!(ctx, error, "ReadPixels({format:#x}, {ty:#x}) with depth");
    }
    ctx.read_buffer(NONE);
    read_rgba(&mut ctx, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_OPERATION, "read buffer NONE");
    read_rgba(&mut ctx, DEPTH_COMPONENT, FLOAT);
    assert_no_error!(ctx);
    ctx.read_buffer(COLOR_ATTACHMENT0);
    // Integer buffers take integer formats only.
    let int = rb(&mut ctx, RGBA8I, 4, 4, 0);
    attach(&mut ctx, COLOR_ATTACHMENT0, int);
    for (format, ty, error) in [
        (RGBA_INTEGER, INT, NO_ERROR),
        (RGBA_INTEGER, UNSIGNED_INT, NO_ERROR),
        (RGBA, UNSIGNED_BYTE, INVALID_OPERATION),
        (RGBA, FLOAT, INVALID_OPERATION),
        (RGBA_INTEGER, HALF_FLOAT, INVALID_ENUM),
    ] {
        read_rgba(&mut ctx, format, ty);
        assert_error!(ctx, error, "ReadPixels({format:#x}, {ty:#x}) of RGBA8I");
    }
    // Client memory smaller than the pack layout.
    let mut small = [0u8; 15];
    ctx.read_pixels(0, 0, 2, 2, RGBA_INTEGER, INT, PixelsMut::Bytes(&mut small));
    assert_error!(ctx, INVALID_OPERATION);
    // Multisampled read framebuffer.
    let ms = rb(&mut ctx, RGBA8, 4, 4, 4);
    attach(&mut ctx, DEPTH_STENCIL_ATTACHMENT, 0);
    attach(&mut ctx, COLOR_ATTACHMENT0, ms);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    read_rgba(&mut ctx, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_OPERATION);
    // Incomplete read framebuffer.
    attach(&mut ctx, COLOR_ATTACHMENT0, 0);
    read_rgba(&mut ctx, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_FRAMEBUFFER_OPERATION);
}

#[test]
fn read_pixels_applies_the_pack_state_to_client_memory() {
    let mut ctx = context();
    let surface = created_surface(&records(&mut ctx));
    ctx.pixel_storei(PACK_ROW_LENGTH, 5);
    ctx.pixel_storei(PACK_ALIGNMENT, 8);
    ctx.pixel_storei(PACK_SKIP_PIXELS, 1);
    ctx.pixel_storei(PACK_SKIP_ROWS, 1);
    // RGB8: rows of 5 pixels are 15 bytes, padded to 16; the first pixel is at 16 + 3.
    let mut dst = vec![0xaau8; 48];
    ctx.read_pixels(2, 3, 3, 2, RGB, UNSIGNED_BYTE, PixelsMut::Bytes(&mut dst));
    assert_no_error!(ctx);
    // The null backend answers zeros: exactly the bytes of the two rows become 0.
    let mut expected = vec![0xaau8; 48];
    expected[19..28].fill(0);
    expected[35..44].fill(0);
    assert_eq!(dst, expected);
    let reads: Vec<Record> = records(&mut ctx)
        .into_iter()
        .filter(|r| matches!(r, Record::ReadPixels { .. }))
        .collect();
    assert_eq!(reads.len(), 1);
    let Record::ReadPixels {
        src,
        layout,
        region,
    } = &reads[0]
    else {
        unreachable!("filtered");
    };
    assert_eq!(
        *src,
        ReadSource {
            framebuffer: FramebufferRef::Surface(surface),
            image: ReadImage::Color(0),
        }
    );
    assert_eq!(
        *layout,
        PixelLayout {
            format: PixelFormat::Rgb,
            ty: PixelType::U8,
        }
    );
    assert_eq!(
        region.rect,
        Rect {
            x: 2,
            y: 3,
            width: 3,
            height: 2,
        }
    );
    assert!(matches!(region.dst, PixelDestination::Reply(_)));
    // One byte short of the last row is refused.
    let mut short = vec![0u8; 43];
    ctx.read_pixels(2, 3, 3, 2, RGB, UNSIGNED_BYTE, PixelsMut::Bytes(&mut short));
    assert_error!(ctx, INVALID_OPERATION);
}

#[test]
fn read_pixels_into_a_pack_buffer() {
    let mut ctx = context();
    let surface = created_surface(&records(&mut ctx));
    let b = ctx.gen_buffer();
    ctx.bind_buffer(PIXEL_PACK_BUFFER, b);
    ctx.buffer_data(PIXEL_PACK_BUFFER, 256, None, STREAM_READ);
    let buffer = records(&mut ctx)
        .iter()
        .find_map(|r| match r {
            Record::CreateBuffer { buffer, .. } => Some(*buffer),
            _ => None,
        })
        .expect("a buffer");
    let src = ReadSource {
        framebuffer: FramebufferRef::Surface(surface),
        image: ReadImage::Color(0),
    };
    let layout = PixelLayout {
        format: PixelFormat::Rgba,
        ty: PixelType::U8,
    };
    let read = |rect: Rect, offset: u64, buffer: BufferHandle| Record::ReadPixels {
        src,
        layout,
        region: Box::new(ReadRegion {
            rect,
            dst: PixelDestination::Buffer { buffer, offset },
        }),
    };
    // Tightly packed: one record at the offset.
    ctx.read_pixels(2, 3, 4, 2, RGBA, UNSIGNED_BYTE, PixelsMut::Offset(16));
    assert_no_error!(ctx);
    let rect = |y, height| Rect {
        x: 2,
        y,
        width: 4,
        height,
    };
    assert_eq!(records(&mut ctx), vec![read(rect(3, 2), 16, buffer)]);
    // Longer rows: one record per row, at each row's offset.
    ctx.pixel_storei(PACK_ROW_LENGTH, 8);
    ctx.pixel_storei(PACK_SKIP_PIXELS, 1);
    ctx.read_pixels(2, 3, 4, 2, RGBA, UNSIGNED_BYTE, PixelsMut::Offset(16));
    assert_no_error!(ctx);
    assert_eq!(
        records(&mut ctx),
        vec![
            read(rect(3, 1), 16 + 4, buffer),
            read(rect(4, 1), 16 + 4 + 32, buffer),
        ]
    );
    ctx.pixel_storei(PACK_ROW_LENGTH, 0);
    ctx.pixel_storei(PACK_SKIP_PIXELS, 0);
    // Past the end, a misaligned offset, a mapped buffer, client memory: INVALID_OPERATION.
    ctx.read_pixels(0, 0, 8, 8, RGBA, UNSIGNED_BYTE, PixelsMut::Offset(4));
    assert_error!(ctx, INVALID_OPERATION);
    ctx.read_pixels(0, 0, 1, 1, RGBA, FLOAT, PixelsMut::Offset(2));
    assert_error!(ctx, INVALID_OPERATION);
    let mut client = [0u8; 16];
    ctx.read_pixels(
        0,
        0,
        1,
        1,
        RGBA,
        UNSIGNED_BYTE,
        PixelsMut::Bytes(&mut client),
    );
    assert_error!(ctx, INVALID_OPERATION);
    ctx.read_pixels(0, 0, 8, 8, RGBA, UNSIGNED_BYTE, PixelsMut::Offset(0));
    assert_no_error!(ctx);
    ctx.map_buffer(PIXEL_PACK_BUFFER, READ_ONLY);
    ctx.read_pixels(0, 0, 1, 1, RGBA, UNSIGNED_BYTE, PixelsMut::Offset(0));
    assert_error!(ctx, INVALID_OPERATION);
}

#[test]
fn implementation_read_format_follows_the_read_buffer() {
    let mut ctx = context();
    fbo(&mut ctx);
    for (format, read_format, read_type) in [
        (RGBA8, RGBA, UNSIGNED_BYTE),
        (RGBA32F, RGBA, FLOAT),
        (RGBA16F, RGBA, HALF_FLOAT),
        (R8, RED, UNSIGNED_BYTE),
        (RGB565, RGB, UNSIGNED_SHORT_5_6_5),
        (RGB10_A2, RGBA, UNSIGNED_INT_2_10_10_10_REV),
        (RGBA16, RGBA, UNSIGNED_SHORT),
        (RGBA8I, RGBA_INTEGER, BYTE),
        (RGBA8UI, RGBA_INTEGER, UNSIGNED_BYTE),
        (R8I, RED_INTEGER, BYTE),
    ] {
        let r = rb(&mut ctx, format, 4, 4, 0);
        attach(&mut ctx, COLOR_ATTACHMENT0, r);
        assert_eq!(
            int(&mut ctx, IMPLEMENTATION_COLOR_READ_FORMAT),
            read_format as GLint,
            "{format:#x}"
        );
        assert_eq!(
            int(&mut ctx, IMPLEMENTATION_COLOR_READ_TYPE),
            read_type as GLint,
            "{format:#x}"
        );
    }
    assert_no_error!(ctx);
    // Without a colour read buffer (NONE, no image, an incomplete or undefined read
    // framebuffer) the query is INVALID_OPERATION and writes nothing, as in GL 4.1+ and Mesa.
    let unanswered = |ctx: &mut Context, why: &str| {
        for pname in [
            IMPLEMENTATION_COLOR_READ_FORMAT,
            IMPLEMENTATION_COLOR_READ_TYPE,
        ] {
            let mut v = [-7];
            ctx.get_integerv(pname, &mut v);
            assert_error!(ctx, INVALID_OPERATION, "{pname:#x}: {why}");
            assert_eq!(v, [-7], "{pname:#x}: {why}");
        }
    };
    ctx.read_buffer(NONE);
    unanswered(&mut ctx, "read buffer NONE");
    ctx.read_buffer(COLOR_ATTACHMENT1);
    unanswered(&mut ctx, "read buffer without an image");
    ctx.read_buffer(COLOR_ATTACHMENT0);
    let empty = ctx.gen_renderbuffer();
    ctx.bind_renderbuffer(RENDERBUFFER, empty);
    attach(&mut ctx, COLOR_ATTACHMENT0, empty);
    assert_no_error!(ctx);
    unanswered(&mut ctx, "incomplete read framebuffer");
    unanswered(&mut surfaceless(), "undefined default framebuffer");
    assert_no_error!(ctx);
}

//! Basic scenes: clears, triangles on every transport, blending, depth, stencil, scissor,
//! masked clears, buffers, contexts, stale handles and the validation messenger itself.

use super::*;

#[test]
fn clear_to_a_colour() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.2, 0.4, 0.6, 1.0]);
    assert_eq!(s.pixel(0, 0), [51, 102, 153, 255]);
    assert_eq!(s.pixel(63, 63), [51, 102, 153, 255]);
    assert!(s.events().is_empty());
}

#[test]
fn read_pixels_converts_to_the_layout_asked_for() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.2, 0.4, 0.6, 1.0]);
    let rect = Rect {
        x: 3,
        y: 4,
        width: 2,
        height: 1,
    };
    let surface = FramebufferRef::Surface(s.surface);
    let bgra = s.read_as(
        surface,
        rect,
        PixelLayout {
            format: PixelFormat::Bgra,
            ty: PixelType::U8,
        },
    );
    assert_eq!(bgra, vec![153, 102, 51, 255, 153, 102, 51, 255]);
    let packed = s.read_as(
        surface,
        rect,
        PixelLayout {
            format: PixelFormat::Rgb,
            ty: PixelType::U16_565,
        },
    );
    let v = (6u16 << 11) | (25 << 5) | 19;
    assert_eq!(packed, [v.to_le_bytes(), v.to_le_bytes()].concat());
    // A rectangle partly outside the surface: the outside reads zeros.
    let edge = s.read_as(
        surface,
        Rect {
            x: 63,
            y: 0,
            width: 2,
            height: 1,
        },
        RGBA8,
    );
    assert_eq!(edge, vec![51, 102, 153, 255, 0, 0, 0, 0]);
}

fn triangle(mut s: Scene) {
    s.clear([0.0, 0.0, 1.0, 1.0]);
    s.solid_triangle();
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(32, 32), [255, 0, 0, 255], "centre is inside");
    assert_eq!(
        s.pixel(2, 60),
        [0, 0, 255, 255],
        "top-left corner is outside"
    );
    // Wide at the bottom, narrow at the top: the picture is not flipped.
    assert_eq!(s.pixel(20, 18), [255, 0, 0, 255], "lower left, inside");
    assert_eq!(s.pixel(20, 44), [0, 0, 255, 255], "upper left, outside");
    // New uniforms move the triangle: the old centre is cleared blue, then drawn green.
    s.clear([0.0, 0.0, 1.0, 1.0]);
    s.uniforms([0.0, 1.0, 0.0, 1.0], [0.5, 0.0, 0.0, 0.0]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(48, 32), [0, 255, 0, 255]);
    assert_eq!(s.pixel(16, 32), [0, 0, 255, 255]);
    let events = s.events();
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn triangle_inproc() {
    triangle(Scene::new(TransportKind::Inproc));
}

#[test]
fn triangle_on_the_render_thread() {
    triangle(Scene::new(TransportKind::Thread));
}

#[test]
fn triangle_on_the_floor() {
    triangle(Scene::floor());
}

#[test]
fn additive_blending() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.2, 0.0, 0.6, 1.0]);
    s.solid_triangle();
    s.blend(BlendState {
        enable_mask: 1,
        src_rgb: BlendFactor::One,
        dst_rgb: BlendFactor::One,
        src_alpha: BlendFactor::Zero,
        dst_alpha: BlendFactor::One,
        ..BlendState::default()
    });
    s.uniforms([0.2, 0.4, 0.0, 0.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(32, 32), [102, 102, 153, 255]);
    assert_eq!(s.pixel(2, 2), [51, 0, 153, 255]);
    // A colour mask without red: red keeps the earlier value.
    s.blend(BlendState {
        color_write_mask: 0b1110,
        ..BlendState::default()
    });
    s.uniforms([1.0, 1.0, 1.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(32, 32), [102, 255, 255, 255]);
    s.finish();
}

fn depth_test(mut s: Scene) {
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.solid_triangle();
    let cso: DepthStencilHandle = s.h();
    s.push(Record::CreateDepthStencilState {
        cso,
        state: DepthStencilState {
            depth_test: true,
            depth_write: true,
            depth_func: CompareFunc::Less,
            ..DepthStencilState::default()
        },
    });
    s.push(Record::BindDepthStencilState { cso });
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0]);
    s.draw(Topology::Triangles, 3);
    s.uniforms([0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 0.5, 0.0]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(32, 32), [255, 0, 0, 255], "farther green is hidden");
    // GL's clip-space z of -0.5 is inside the clip volume (Vulkan's 0..1 would clip it).
    s.uniforms([0.0, 0.0, 1.0, 1.0], [0.0, 0.0, -0.5, 0.0]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(32, 32), [0, 0, 255, 255], "nearer blue wins");
    s.finish();
}

#[test]
fn depth_test_keeps_the_nearest() {
    depth_test(Scene::new(TransportKind::Inproc));
}

/// Without VK_EXT_depth_clip_control: the SPIR-V is patched.
#[test]
fn depth_test_on_the_floor() {
    depth_test(Scene::floor());
}

#[test]
fn scissor_limits_clears_and_draws() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.raster(RasterState {
        scissor: true,
        ..RasterState::default()
    });
    s.push(Record::SetScissor {
        rect: Rect {
            x: 0,
            y: 0,
            width: 32,
            height: 64,
        },
    });
    s.clear([0.0, 1.0, 0.0, 1.0]);
    assert_eq!(s.pixel(10, 10), [0, 255, 0, 255]);
    assert_eq!(s.pixel(40, 10), [0, 0, 0, 255]);
    s.solid_triangle();
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(30, 30), [255, 0, 0, 255]);
    assert_eq!(s.pixel(34, 30), [0, 0, 0, 255], "right of the scissor");
    s.finish();
}

#[test]
fn buffers_round_trip() {
    let mut s = Scene::new(TransportKind::Inproc);
    let a = s.buffer(&[1, 2, 3, 4, 5, 6, 7, 8]);
    let b: BufferHandle = s.h();
    s.push(Record::CreateBuffer { buffer: b, size: 8 });
    s.push(Record::CopyBuffer {
        src: a,
        dst: b,
        region: Box::new(BufferCopy {
            src_offset: 2,
            dst_offset: 4,
            size: 4,
        }),
    });
    let data = s.stage(&[9, 9]);
    s.push(Record::WriteBuffer {
        buffer: b,
        offset: 0,
        data,
    });
    let reply = s.enc.mint_reply();
    s.push(Record::ReadBuffer {
        buffer: b,
        range: Box::new(BufferRange { offset: 0, size: 8 }),
        reply,
    });
    s.submit().expect("alive");
    assert_eq!(
        s.transport.wait_reply(reply).expect("reply"),
        Reply::Bytes(vec![9, 9, 0, 0, 3, 4, 5, 6])
    );
    s.assert_valid();
}

#[test]
fn a_stale_handle_ends_the_session_without_a_panic() {
    let mut s = Scene::new(TransportKind::Inproc);
    let buffer = s.buffer(&[0; 4]);
    s.push(Record::DestroyBuffer { buffer });
    s.submit().expect("alive");
    let data = s.stage(&[1]);
    s.push(Record::WriteBuffer {
        buffer,
        offset: 0,
        data,
    });
    let lost = s.submit().expect_err("a destroyed handle is refused");
    assert!(lost.reason.contains("not live"), "{}", lost.reason);
    s.clear([0.0; 4]);
    assert!(s.submit().is_err(), "later calls fail promptly");

    // A handle of a generation never created, on the render thread.
    let mut s = Scene::new(TransportKind::Thread);
    let ghost = TextureHandle {
        slot: 7,
        generation: 3,
    };
    s.push(Record::BindTexture {
        slot: 0,
        texture: Some(ghost),
        sampler: None,
    });
    let reply = s.enc.mint_reply();
    s.push(Record::Finish { reply });
    let _ = s.submit();
    assert!(s.transport.wait_reply(reply).is_err());
}

#[test]
fn dangling_bindings_are_tolerated() {
    let mut s = Scene::new(TransportKind::Inproc);
    let tex = s.texture(1, 1, Some((RGBA8, &[255u8, 255, 255, 255])));
    let sampler = s.nearest_sampler();
    s.textured_quad([0.0, 0.0, 0.0, 0.0]);
    s.push(Record::BindTexture {
        slot: 0,
        texture: Some(tex),
        sampler: Some(sampler),
    });
    s.draw_quad();
    assert_eq!(s.pixel(32, 32), [255, 255, 255, 255]);
    s.push(Record::DestroyTexture { texture: tex });
    s.draw_quad();
    assert_eq!(s.pixel(32, 32), [0, 0, 0, 255]);
    s.push(Record::DestroySurface { surface: s.surface });
    s.draw_quad();
    s.finish();
}

#[test]
fn two_contexts_keep_their_own_state() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.solid_triangle();
    s.uniforms([1.0, 0.0, 0.0, 1.0], [-0.5, 0.0, 0.0, 0.0]);
    s.push(Record::CreateContext { context: 1 });
    s.push(Record::SetContext { context: 1 });
    s.push(Record::BindFramebuffer {
        framebuffer: FramebufferRef::Surface(s.surface),
    });
    s.draw_buffers(&[0]);
    s.viewport(SIZE, SIZE);
    s.solid_triangle();
    s.uniforms([0.0, 1.0, 0.0, 1.0], [0.5, 0.0, 0.0, 0.0]);
    s.draw(Topology::Triangles, 3);
    s.push(Record::SetContext { context: 0 });
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(16, 32), [255, 0, 0, 255]);
    assert_eq!(s.pixel(48, 32), [0, 255, 0, 255]);
    s.push(Record::DestroyContext { context: 1 });
    s.finish();
}

/// The messenger's messages reach the event stream (so the zero-message assertions of the
/// other scenes can fail): a module claiming SPIR-V 2.0 is refused by the layer's checks.
#[test]
fn validation_messages_are_reported() {
    let mut s = Scene::new(TransportKind::Inproc);
    let mut vs = spirv("vert", SOLID_VS);
    vs[4..8].copy_from_slice(&0x0002_0000u32.to_le_bytes());
    let fs = spirv("frag", SOLID_FS);
    let (v, f) = (s.stage(&vs), s.stage(&fs));
    let program: ProgramHandle = s.h();
    s.push(Record::CreateProgram {
        program,
        desc: Box::new(ProgramDesc {
            stages: vec![
                StageCode {
                    stage: ShaderStage::Vertex,
                    spirv: v,
                },
                StageCode {
                    stage: ShaderStage::Fragment,
                    spirv: f,
                },
            ],
            default_block_size: 32,
            samplers: Vec::new(),
            uniform_blocks: Vec::new(),
        }),
    });
    let reply = s.enc.mint_reply();
    s.push(Record::Finish { reply });
    s.submit().expect("alive");
    s.transport.wait_reply(reply).expect("reply");
    let events = s.events();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::NativeError { what } if what.starts_with("validation:"))),
        "{events:?}"
    );
    assert!(s.probe.stats().validation_messages > 0);
}

#[test]
fn stencil_masks_a_second_draw() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.solid_triangle();
    use tessera_wire::format::StencilOp;
    use tessera_wire::state::StencilFace;
    // First draw writes stencil 7 where the triangle is (colour masked off).
    let write: DepthStencilHandle = s.h();
    let face = StencilFace {
        func: CompareFunc::Always,
        pass: StencilOp::Replace,
        ..StencilFace::default()
    };
    s.push(Record::CreateDepthStencilState {
        cso: write,
        state: DepthStencilState {
            stencil_test: true,
            front: face,
            back: face,
            ..DepthStencilState::default()
        },
    });
    s.push(Record::BindDepthStencilState { cso: write });
    s.push(Record::SetStencilRef { front: 7, back: 7 });
    s.blend(BlendState {
        color_write_mask: 0,
        ..BlendState::default()
    });
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    // Then a full-screen triangle passes only where stencil == 7.
    let test: DepthStencilHandle = s.h();
    let face = StencilFace {
        func: CompareFunc::Equal,
        ..StencilFace::default()
    };
    s.push(Record::CreateDepthStencilState {
        cso: test,
        state: DepthStencilState {
            stencil_test: true,
            front: face,
            back: face,
            ..DepthStencilState::default()
        },
    });
    s.push(Record::BindDepthStencilState { cso: test });
    s.blend(BlendState::default());
    let big = s.buffer(&floats(&[-1.0, -1.0, 3.0, -1.0, -1.0, 3.0]));
    s.vertices(big, &[(2, 8, 0)]);
    s.uniforms([0.0, 1.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(
        s.pixel(32, 32),
        [0, 255, 0, 255],
        "inside the stencilled triangle"
    );
    assert_eq!(s.pixel(4, 60), [0, 0, 0, 255], "outside it");
    s.finish();
}

/// Clears through partial colour and stencil write masks are drawn (Vulkan's clear commands
/// write whole texels); a full mask still folds into the load op.
#[test]
fn masked_clears_keep_the_masked_bits() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.0, 0.0, 1.0, 1.0]);
    s.blend(BlendState {
        color_write_mask: 0b0001,
        ..BlendState::default()
    });
    s.push(Record::Clear {
        mask: clear_mask::COLOR_ALL,
        color: [1.0, 1.0, 1.0, 1.0],
        depth: 1.0,
        stencil: 0,
    });
    assert_eq!(s.pixel(5, 5), [255, 0, 255, 255], "only red was written");
    // Stencil 0x5A, then 0xFF through write mask 0x0F: 0x5F.
    s.blend(BlendState::default());
    s.push(Record::Clear {
        mask: clear_mask::STENCIL,
        color: [0.0; 4],
        depth: 1.0,
        stencil: 0x5a,
    });
    let cso: DepthStencilHandle = s.h();
    let face = tessera_wire::state::StencilFace {
        write_mask: 0x0f,
        ..Default::default()
    };
    s.push(Record::CreateDepthStencilState {
        cso,
        state: DepthStencilState {
            front: face,
            back: face,
            ..DepthStencilState::default()
        },
    });
    s.push(Record::BindDepthStencilState { cso });
    s.push(Record::Clear {
        mask: clear_mask::STENCIL,
        color: [0.0; 4],
        depth: 1.0,
        stencil: 0xff,
    });
    let reply = s.enc.mint_reply();
    s.push(Record::ReadPixels {
        src: ReadSource {
            framebuffer: FramebufferRef::Surface(s.surface),
            image: ReadImage::Stencil,
        },
        layout: PixelLayout {
            format: PixelFormat::StencilIndex,
            ty: PixelType::U8,
        },
        region: Box::new(ReadRegion {
            rect: Rect {
                x: 10,
                y: 10,
                width: 2,
                height: 1,
            },
            dst: PixelDestination::Reply(reply),
        }),
    });
    s.submit().expect("alive");
    assert_eq!(
        s.transport.wait_reply(reply).expect("reply"),
        Reply::Bytes(vec![0x5f, 0x5f])
    );
    assert_eq!(
        s.pixel(5, 5),
        [255, 0, 255, 255],
        "colour untouched by the stencil clear"
    );
    s.finish();
}

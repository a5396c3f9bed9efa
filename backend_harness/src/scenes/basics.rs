//! Basic scenes: clears, read-back layouts, triangles on every transport, blending, depth,
//! scissor, buffers, contexts, stale handles and dangling bindings.

use tessera_wire::format::{
    BlendFactor, CompareFunc, PixelFormat, PixelLayout, PixelType, StencilOp, Topology,
};
use tessera_wire::handle::{BufferHandle, TextureHandle};
use tessera_wire::record::{
    BufferCopy, BufferRange, FramebufferRef, ReadImage, ReadSource, clear_mask,
};
use tessera_wire::state::{
    BlendFunc, BlendState, DepthStencilState, MAX_DRAW_BUFFERS, StencilFace,
};
use tessera_wire::{Event, Record, Reply, TransportKind};

use crate::{BLACK, BLUE, GREEN, New, RED, RGBA8, Scene, WHITE, floats, rect};

/// A clear reaches every pixel, exactly.
pub fn clear_to_a_colour(mut s: Scene) {
    s.clear([0.2, 0.4, 0.6, 1.0]);
    let clear = [51, 102, 153, 255];
    s.expect_pixels(&[(0, 0, clear), (63, 63, clear)]);
    s.assert_no_events();
}

/// `ReadPixels` converts to the layout asked for, and a rectangle partly outside the
/// surface reads zeros outside.
pub fn read_pixels_converts_to_the_layout_asked_for(mut s: Scene) {
    s.clear([0.2, 0.4, 0.6, 1.0]);
    let surface = FramebufferRef::Surface(s.surface);
    let two = rect(3, 4, 2, 1);
    let layout = |format, ty| PixelLayout { format, ty };
    let bgra = s.read_as(surface, two, layout(PixelFormat::Bgra, PixelType::U8));
    assert_eq!(bgra, vec![153, 102, 51, 255, 153, 102, 51, 255]);
    let f = s.read_as(surface, two, layout(PixelFormat::Rg, PixelType::F32));
    // As Mesa converts (and the native driver reads back): c * (1 / 255) in single
    // precision, one bit above 51 / 255 here.
    let unorm = |c: f32| c * (1.0 / 255.0);
    let want = floats(&[unorm(51.0), unorm(102.0), unorm(51.0), unorm(102.0)]);
    assert_eq!(f, want);
    let packed = s.read_as(surface, two, layout(PixelFormat::Rgb, PixelType::U16_565));
    // 0.2 * 31 = 6.2 -> 6, 0.4 * 63 = 25.2 -> 25, 0.6 * 31 = 18.6 -> 19.
    let v = (6u16 << 11) | (25 << 5) | 19;
    assert_eq!(packed, [v.to_le_bytes(), v.to_le_bytes()].concat());
    // A rectangle partly outside the surface: the outside reads zeros.
    let edge = s.read_as(surface, rect(63, 0, 2, 1), RGBA8);
    assert_eq!(edge, vec![51, 102, 153, 255, 0, 0, 0, 0]);
}

/// A solid triangle, then moved by new uniforms.
pub fn triangle(mut s: Scene) {
    s.clear([0.0, 0.0, 1.0, 1.0]);
    s.solid_triangle();
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    // The centre is inside, the top-left corner outside. Wide at the bottom, narrow at the
    // top: the picture is not flipped (lower left inside, upper left outside).
    s.expect_pixels(&[(32, 32, RED), (2, 60, BLUE), (20, 18, RED), (20, 44, BLUE)]);
    // New uniforms move the triangle: the old centre is cleared blue, then drawn green.
    s.clear([0.0, 0.0, 1.0, 1.0]);
    s.uniforms([0.0, 1.0, 0.0, 1.0], [0.5, 0.0, 0.0, 0.0]);
    s.draw(Topology::Triangles, 3);
    s.expect_pixels(&[(48, 32, GREEN), (16, 32, BLUE)]);
    s.assert_no_events();
}

/// Additive blending, then a colour write mask without red.
pub fn additive_blending(mut s: Scene) {
    s.clear([0.2, 0.0, 0.6, 1.0]);
    s.solid_triangle();
    s.blend(BlendState {
        enable_mask: 1,
        funcs: [BlendFunc {
            src_rgb: BlendFactor::One,
            dst_rgb: BlendFactor::One,
            src_alpha: BlendFactor::Zero,
            dst_alpha: BlendFactor::One,
            ..BlendFunc::default()
        }; MAX_DRAW_BUFFERS],
        ..BlendState::default()
    });
    s.uniforms([0.2, 0.4, 0.0, 0.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    s.expect_pixels(&[(32, 32, [102, 102, 153, 255]), (2, 2, [51, 0, 153, 255])]);
    // A colour mask without red: red keeps the earlier value where the blend added.
    s.blend(BlendState {
        color_write_mask: 0b1110,
        ..BlendState::default()
    });
    s.uniforms([1.0, 1.0, 1.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    s.expect_pixels(&[(32, 32, [102, 255, 255, 255])]);
    s.finish();
}

/// A depth test with `Less` keeps the nearest of three triangles, at GL clip-space depths.
pub fn depth_test(mut s: Scene) {
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.solid_triangle();
    s.depth_stencil(DepthStencilState {
        depth_test: true,
        depth_write: true,
        depth_func: CompareFunc::Less,
        ..DepthStencilState::default()
    });
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0]);
    s.draw(Topology::Triangles, 3);
    s.uniforms([0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 0.5, 0.0]);
    s.draw(Topology::Triangles, 3);
    // The farther green is hidden.
    s.expect_pixels(&[(32, 32, RED)]);
    // GL's clip-space z of -0.5 is inside the clip volume (Vulkan's 0..1 would clip it):
    // the nearer blue wins.
    s.uniforms([0.0, 0.0, 1.0, 1.0], [0.0, 0.0, -0.5, 0.0]);
    s.draw(Topology::Triangles, 3);
    s.expect_pixels(&[(32, 32, BLUE)]);
    s.finish();
}

/// The scissor rectangle limits clears and draws once the rasterizer enables it.
pub fn scissor_limits_clears_and_draws(mut s: Scene) {
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.scissor(rect(0, 0, 32, 64));
    s.clear([0.0, 1.0, 0.0, 1.0]);
    s.expect_pixels(&[(10, 10, GREEN), (40, 10, BLACK)]);
    s.solid_triangle();
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    // Right of the scissor, the triangle is not drawn.
    s.expect_pixels(&[(30, 30, RED), (34, 30, BLACK)]);
    s.finish();
}

/// Buffer writes, copies and read-backs meet byte for byte.
pub fn buffers_round_trip(mut s: Scene) {
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
    let read = s.ask(|reply| Record::ReadBuffer {
        buffer: b,
        range: Box::new(BufferRange { offset: 0, size: 8 }),
        reply,
    });
    assert_eq!(read, Reply::Bytes(vec![9, 9, 0, 0, 3, 4, 5, 6]));
    s.assert_quiet();
}

/// A destroyed handle ends the session (an error, then `SessionEnded`), and so does a
/// handle of a generation never created, on the render thread.
pub fn a_stale_handle_ends_the_session_without_a_panic(new: New) {
    let mut s = new(TransportKind::Inproc);
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
    s.expect_event(|e| matches!(e, Event::SessionEnded { .. }));
    s.clear([0.0; 4]);
    assert!(s.submit().is_err(), "later calls fail promptly");

    let mut s = new(TransportKind::Thread);
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

/// A texture destroyed while bound, then the surface: later draws read an unbound slot or
/// draw nowhere, and the session goes on.
pub fn dangling_bindings_are_tolerated(mut s: Scene) {
    let tex = s.texture(1, 1, Some((RGBA8, &[255u8, 255, 255, 255])));
    let sampler = s.nearest_sampler();
    s.textured_quad([0.0, 0.0, 0.0, 0.0]);
    s.bind_texture(Some(tex), sampler);
    s.draw_quad();
    s.expect_pixels(&[(32, 32, WHITE)]);
    s.push(Record::DestroyTexture { texture: tex });
    s.draw_quad();
    s.expect_pixels(&[(32, 32, BLACK)]);
    s.push(Record::DestroySurface { surface: s.surface });
    s.draw_quad();
    s.finish();
}

/// Context 1 draws with its own bindings; context 0's are untouched.
pub fn two_contexts_keep_their_own_state(mut s: Scene) {
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.solid_triangle();
    s.uniforms([1.0, 0.0, 0.0, 1.0], [-0.5, 0.0, 0.0, 0.0]);
    // Context 1 draws the same triangle on the right in green, with its own bindings.
    s.push(Record::CreateContext { context: 1 });
    s.push(Record::SetContext { context: 1 });
    s.bind_surface();
    s.draw_buffers(&[0]);
    s.solid_triangle();
    s.uniforms([0.0, 1.0, 0.0, 1.0], [0.5, 0.0, 0.0, 0.0]);
    s.draw(Topology::Triangles, 3);
    s.push(Record::SetContext { context: 0 });
    s.draw(Topology::Triangles, 3);
    s.expect_pixels(&[(16, 32, RED), (48, 32, GREEN)]);
    s.push(Record::DestroyContext { context: 1 });
    s.finish();
}

/// Both faces of a stencil state doing `face`.
fn stencil(face: StencilFace) -> DepthStencilState {
    DepthStencilState {
        stencil_test: true,
        front: face,
        back: face,
        ..DepthStencilState::default()
    }
}

/// A triangle writes stencil 7 (colour masked off), then a full-screen triangle passes only
/// where stencil == 7.
pub fn stencil_masks_a_second_draw(mut s: Scene) {
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.solid_triangle();
    s.depth_stencil(stencil(StencilFace {
        func: CompareFunc::Always,
        pass: StencilOp::Replace,
        ..StencilFace::default()
    }));
    s.push(Record::SetStencilRef { front: 7, back: 7 });
    s.blend(BlendState {
        color_write_mask: 0,
        ..BlendState::default()
    });
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    s.depth_stencil(stencil(StencilFace {
        func: CompareFunc::Equal,
        ..StencilFace::default()
    }));
    s.blend(BlendState::default());
    let big = s.buffer(&floats(&[-1.0, -1.0, 3.0, -1.0, -1.0, 3.0]));
    s.vertices(big, &[(2, 8, 0)]);
    s.uniforms([0.0, 1.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    // Inside the stencilled triangle, and outside it.
    s.expect_pixels(&[(32, 32, GREEN), (4, 60, BLACK)]);
    s.finish();
}

/// Clears through partial colour and stencil write masks keep the masked bits (Vulkan's
/// clear commands write whole texels, so it draws them); a full mask still clears it all.
pub fn masked_clears_keep_the_masked_bits(mut s: Scene) {
    s.clear([0.0, 0.0, 1.0, 1.0]);
    s.blend(BlendState {
        color_write_mask: 0b0001,
        ..BlendState::default()
    });
    let clear = |mask, stencil| Record::Clear {
        mask,
        color: [1.0; 4],
        depth: 1.0,
        stencil,
    };
    s.push(clear(clear_mask::COLOR_ALL, 0));
    // Only red was written.
    let magenta = [255, 0, 255, 255];
    s.expect_pixels(&[(5, 5, magenta)]);
    // Stencil 0x5A, then 0xFF through write mask 0x0F: 0x5F.
    s.blend(BlendState::default());
    s.push(clear(clear_mask::STENCIL, 0x5a));
    let face = StencilFace {
        write_mask: 0x0f,
        ..StencilFace::default()
    };
    s.depth_stencil(DepthStencilState {
        front: face,
        back: face,
        ..DepthStencilState::default()
    });
    s.push(clear(clear_mask::STENCIL, 0xff));
    let src = ReadSource {
        framebuffer: FramebufferRef::Surface(s.surface),
        image: ReadImage::Stencil,
    };
    let stencil = PixelLayout {
        format: PixelFormat::StencilIndex,
        ty: PixelType::U8,
    };
    assert_eq!(
        s.read(src, rect(10, 10, 2, 1), stencil),
        Reply::Bytes(vec![0x5f, 0x5f])
    );
    // Colour untouched by the stencil clears.
    s.expect_pixels(&[(5, 5, magenta)]);
    s.finish();
}

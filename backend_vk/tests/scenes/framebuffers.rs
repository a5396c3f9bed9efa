//! Framebuffer scenes: depth and stencil reads, draw buffer mapping, blits, copies,
//! queries, fences and multisampled surfaces.

use super::*;

#[test]
fn blit_copy_query_and_fence() {
    use tessera_wire::format::QueryKind;
    use tessera_wire::handle::{FenceHandle, QueryHandle};
    use tessera_wire::record::{TextureCopy, blit_mask};
    use tessera_wire::state::Region;
    let mut s = Scene::new(TransportKind::Inproc);
    s.clear([0.0, 0.0, 1.0, 1.0]);
    let target = s.texture(16, 16, None);
    let fbo: FramebufferHandle = s.h();
    s.push(Record::CreateFramebuffer { framebuffer: fbo });
    let mut state = FramebufferState::default();
    state.colors[0] = Attachment::Texture {
        texture: target,
        level: 0,
        layer: 0,
    };
    s.push(Record::SetFramebufferState {
        framebuffer: fbo,
        state: Box::new(state),
    });
    s.push(Record::BindFramebuffer {
        framebuffer: FramebufferRef::Object(fbo),
    });
    s.viewport(16, 16);
    s.clear([0.0, 1.0, 0.0, 1.0]);
    s.push(Record::BindFramebuffer {
        framebuffer: FramebufferRef::Surface(s.surface),
    });
    s.viewport(SIZE, SIZE);
    s.push(Record::Blit {
        src: ReadSource {
            framebuffer: FramebufferRef::Object(fbo),
            image: ReadImage::Color(0),
        },
        regions: Box::new([
            Region {
                x0: 0,
                y0: 0,
                x1: 16,
                y1: 16,
            },
            Region {
                x0: 0,
                y0: 0,
                x1: 32,
                y1: 32,
            },
        ]),
        mask: blit_mask::COLOR,
        linear: false,
    });
    assert_eq!(s.pixel(31, 31), [0, 255, 0, 255]);
    assert_eq!(s.pixel(33, 33), [0, 0, 255, 255]);

    let copy = s.texture(4, 4, None);
    s.push(Record::CopyTexture {
        texture: copy,
        level: 0,
        face: 0,
        region: Box::new(TextureCopy {
            src: ReadSource {
                framebuffer: FramebufferRef::Surface(s.surface),
                image: ReadImage::Color(0),
            },
            origin: [0; 3],
            rect: Rect {
                x: 30,
                y: 30,
                width: 4,
                height: 4,
            },
        }),
    });
    let reply = s.enc.mint_reply();
    s.push(Record::ReadTexture {
        texture: copy,
        level: 0,
        face: 0,
        layout: RGBA8,
        read: Box::new(tessera_wire::record::TextureRead {
            size: [4, 4, 1],
            dst: PixelDestination::Reply(reply),
        }),
    });
    s.submit().expect("alive");
    let Reply::Bytes(texels) = s.transport.wait_reply(reply).expect("reply") else {
        panic!("bytes")
    };
    assert_eq!(&texels[..4], &[0, 255, 0, 255], "(30, 30) was green");
    assert_eq!(&texels[60..], &[0, 0, 255, 255], "(33, 33) was blue");

    s.solid_triangle();
    s.uniforms([1.0, 1.0, 1.0, 1.0], [0.0; 4]);
    let mut results = Vec::new();
    for count in [3, 0] {
        let query: QueryHandle = s.h();
        s.push(Record::CreateQuery {
            query,
            kind: QueryKind::AnySamplesPassed,
        });
        s.push(Record::BeginQuery { query });
        s.draw(Topology::Triangles, count);
        s.push(Record::EndQuery { query });
        let reply = s.enc.mint_reply();
        s.push(Record::QueryResult { query, reply });
        s.submit().expect("alive");
        results.push(s.transport.wait_reply(reply).expect("reply"));
    }
    assert_eq!(results, vec![Reply::Query(1), Reply::Query(0)]);

    let fence: FenceHandle = s.h();
    s.push(Record::InsertFence { fence });
    let reply = s.enc.mint_reply();
    s.push(Record::WaitFence {
        fence,
        timeout_ns: 5_000_000_000,
        reply,
    });
    s.push(Record::DestroyFence { fence });
    s.submit().expect("alive");
    assert_eq!(
        s.transport.wait_reply(reply).expect("reply"),
        Reply::Fence(true)
    );
    s.finish();
}

#[test]
fn depth_and_stencil_read_back() {
    let mut s = Scene::new(TransportKind::Inproc);
    s.push(Record::Clear {
        mask: clear_mask::DEPTH | clear_mask::STENCIL,
        color: [0.0; 4],
        depth: 1.0,
        stencil: 5,
    });
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
    s.push(Record::ClearBuffer {
        draw_buffer: 0,
        value: tessera_wire::record::ClearValue::Depth(0.0),
    });
    let read = |s: &mut Scene, image, layout| {
        let reply = s.enc.mint_reply();
        s.push(Record::ReadPixels {
            src: ReadSource {
                framebuffer: FramebufferRef::Surface(s.surface),
                image,
            },
            layout,
            region: Box::new(ReadRegion {
                rect: Rect {
                    x: 31,
                    y: 0,
                    width: 2,
                    height: 1,
                },
                dst: PixelDestination::Reply(reply),
            }),
        });
        s.submit().expect("alive");
        s.transport.wait_reply(reply).expect("reply")
    };
    let depth = read(
        &mut s,
        ReadImage::Depth,
        PixelLayout {
            format: PixelFormat::DepthComponent,
            ty: PixelType::U16,
        },
    );
    assert_eq!(
        depth,
        Reply::Bytes([0u16.to_le_bytes(), 65535u16.to_le_bytes()].concat()),
        "{:?}",
        s.events()
    );
    let stencil = read(
        &mut s,
        ReadImage::Stencil,
        PixelLayout {
            format: PixelFormat::StencilIndex,
            ty: PixelType::U8,
        },
    );
    assert_eq!(stencil, Reply::Bytes(vec![5, 5]));
    let events = s.events();
    assert!(
        events
            .iter()
            .all(|e| !matches!(e, Event::NativeError { .. } | Event::Unsupported { .. })),
        "{events:?}"
    );
    s.finish();
}

#[test]
fn draw_buffers_map_outputs_to_any_attachment() {
    let mut s = Scene::new(TransportKind::Inproc);
    let a = s.texture(8, 8, None);
    let b = s.texture(8, 8, None);
    let fbo: FramebufferHandle = s.h();
    s.push(Record::CreateFramebuffer { framebuffer: fbo });
    let mut state = FramebufferState::default();
    state.colors[0] = Attachment::Texture {
        texture: a,
        level: 0,
        layer: 0,
    };
    state.colors[1] = Attachment::Texture {
        texture: b,
        level: 0,
        layer: 0,
    };
    s.push(Record::SetFramebufferState {
        framebuffer: fbo,
        state: Box::new(state),
    });
    s.push(Record::BindFramebuffer {
        framebuffer: FramebufferRef::Object(fbo),
    });
    s.viewport(8, 8);
    // Output 0 -> attachment 1, output 1 -> attachment 0 (GLES itself only allows i -> i).
    s.draw_buffers(&[1, 0]);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    let fs = r"#version 450
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() { o0 = vec4(1.0, 0.0, 0.0, 1.0); o1 = vec4(0.0, 1.0, 0.0, 1.0); }
";
    let vs = r"#version 450
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";
    let program = s.program(vs, fs, 0, 0, 0);
    s.push(Record::BindProgram {
        program: Some(program),
    });
    let vb = s.buffer(&floats(&[-1.0, -1.0, 3.0, -1.0, -1.0, 3.0]));
    s.vertices(vb, &[(2, 8, 0)]);
    s.draw(Topology::Triangles, 3);
    let read = |s: &mut Scene, j: u8| {
        let reply = s.enc.mint_reply();
        s.push(Record::ReadPixels {
            src: ReadSource {
                framebuffer: FramebufferRef::Object(fbo),
                image: ReadImage::Color(j),
            },
            layout: RGBA8,
            region: Box::new(ReadRegion {
                rect: Rect {
                    x: 4,
                    y: 4,
                    width: 1,
                    height: 1,
                },
                dst: PixelDestination::Reply(reply),
            }),
        });
        s.submit().expect("alive");
        s.transport.wait_reply(reply).expect("reply")
    };
    assert_eq!(
        read(&mut s, 0),
        Reply::Bytes(vec![0, 255, 0, 255]),
        "attachment 0 got output 1"
    );
    assert_eq!(
        read(&mut s, 1),
        Reply::Bytes(vec![255, 0, 0, 255]),
        "attachment 1 got output 0"
    );
    // Back to the identity mapping; a clear of draw buffer 1 only reaches attachment 1.
    s.draw_buffers(&[0, 1]);
    s.push(Record::ClearBuffer {
        draw_buffer: 1,
        value: tessera_wire::record::ClearValue::Float([0.0, 0.0, 1.0, 1.0]),
    });
    assert_eq!(read(&mut s, 0), Reply::Bytes(vec![0, 255, 0, 255]));
    assert_eq!(read(&mut s, 1), Reply::Bytes(vec![0, 0, 255, 255]));
    let events = s.events();
    assert!(events.is_empty(), "{events:?}");
    s.finish();
}

#[test]
fn multisampled_surface_resolves_for_reading() {
    let mut s = Scene::new(TransportKind::Inproc);
    let ms: SurfaceHandle = s.h();
    s.push(Record::CreateSurface {
        surface: ms,
        desc: SurfaceDesc {
            width: SIZE as u32,
            height: SIZE as u32,
            color: Some(Format::Rgba8),
            depth_stencil: Some(Format::Depth24Stencil8),
            samples: 4,
        },
    });
    s.push(Record::BindFramebuffer {
        framebuffer: FramebufferRef::Surface(ms),
    });
    s.clear([0.0, 0.0, 1.0, 1.0]);
    s.solid_triangle();
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(
        s.pixel_of(FramebufferRef::Surface(ms), 32, 32),
        [255, 0, 0, 255]
    );
    assert_eq!(
        s.pixel_of(FramebufferRef::Surface(ms), 2, 60),
        [0, 0, 255, 255]
    );
    // Blitting it into the single-sampled surface resolves it.
    s.push(Record::BindFramebuffer {
        framebuffer: FramebufferRef::Surface(s.surface),
    });
    let full = tessera_wire::state::Region {
        x0: 0,
        y0: 0,
        x1: SIZE,
        y1: SIZE,
    };
    s.push(Record::Blit {
        src: ReadSource {
            framebuffer: FramebufferRef::Surface(ms),
            image: ReadImage::Color(0),
        },
        regions: Box::new([full, full]),
        mask: tessera_wire::record::blit_mask::COLOR,
        linear: false,
    });
    assert_eq!(s.pixel(32, 32), [255, 0, 0, 255]);
    assert_eq!(s.pixel(2, 60), [0, 0, 255, 255]);
    s.finish();
}

//! Framebuffer scenes: blits, copies into textures, queries, fences, depth and stencil
//! reads, and draw buffers mapped to any attachment.

use tessera_wire::format::{PixelFormat, PixelLayout, PixelType, QueryKind, Topology};
use tessera_wire::handle::{FenceHandle, QueryHandle};
use tessera_wire::record::{
    ClearValue, FramebufferRef, ReadImage, ReadSource, TextureCopy, blit_mask, clear_mask,
};
use tessera_wire::state::Region;
use tessera_wire::{Event, Record, Reply};

use crate::{BLUE, GREEN, POSITION_VS, RED, RGBA8, SIZE, Scene, floats, rect};

/// A region from the origin to (x1, y1).
fn region(x1: i32, y1: i32) -> Region {
    Region {
        x0: 0,
        y0: 0,
        x1,
        y1,
    }
}

/// Blits `from` (0..`from`) of colour 0 of a framebuffer onto `to` (0..`to`) of the bound
/// one, nearest.
fn blit(s: &mut Scene, src: FramebufferRef, from: i32, to: i32) {
    s.push(Record::Blit {
        src: ReadSource {
            framebuffer: src,
            image: ReadImage::Color(0),
        },
        regions: Box::new([region(from, from), region(to, to)]),
        mask: blit_mask::COLOR,
        linear: false,
    });
}

/// A green FBO blitted (scaled) into the surface, a corner of that copied into a texture
/// and read back, occlusion queries around something and nothing, and a fence.
pub fn blit_copy_query_and_fence(mut s: Scene) {
    s.clear([0.0, 0.0, 1.0, 1.0]);
    // A green 16x16 FBO, blitted (scaled x2) into the surface's lower-left corner.
    let target = s.texture(16, 16, None);
    let fbo = s.texture_framebuffer(&[target]);
    s.viewport(16, 16);
    s.clear([0.0, 1.0, 0.0, 1.0]);
    s.bind_surface();
    blit(&mut s, FramebufferRef::Object(fbo), 16, 32);
    s.expect_pixels(&[(31, 31, GREEN), (33, 33, BLUE)]);

    // Copy a 4x4 corner of the surface into a texture and read the texture back.
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
            rect: rect(30, 30, 4, 4),
        }),
    });
    let Reply::Bytes(texels) = s.read_texture(copy, RGBA8, [4, 4, 1]) else {
        panic!("bytes")
    };
    assert_eq!(&texels[..4], &[0, 255, 0, 255], "(30, 30) was green");
    assert_eq!(&texels[60..], &[0, 0, 255, 255], "(33, 33) was blue");

    // An occlusion query around a visible triangle, then one around nothing drawn.
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
        results.push(s.ask(|reply| Record::QueryResult { query, reply }));
    }
    assert_eq!(results, vec![Reply::Query(1), Reply::Query(0)]);

    let fence: FenceHandle = s.h();
    s.push(Record::InsertFence { fence, seq: 1 });
    let waited = s.ask(|reply| Record::WaitFence {
        fence,
        timeout_ns: 5_000_000_000,
        reply,
    });
    s.push(Record::DestroyFence { fence });
    assert_eq!(waited, Reply::Fence(true));
    s.finish();
}

/// Depth and stencil of the surface read back after a clear and a scissored depth clear.
pub fn depth_and_stencil_read_back(mut s: Scene) {
    s.push(Record::Clear {
        mask: clear_mask::DEPTH | clear_mask::STENCIL,
        color: [0.0; 4],
        depth: 1.0,
        stencil: 5,
    });
    s.scissor(rect(0, 0, 32, 64));
    s.push(Record::ClearBuffer {
        draw_buffer: 0,
        value: ClearValue::Depth(0.0),
    });
    let mut read = |image, format, ty| {
        let src = ReadSource {
            framebuffer: FramebufferRef::Surface(s.surface),
            image,
        };
        s.read(src, rect(31, 0, 2, 1), PixelLayout { format, ty })
    };
    let depth = read(
        ReadImage::Depth,
        PixelFormat::DepthComponent,
        PixelType::U16,
    );
    let stencil = read(ReadImage::Stencil, PixelFormat::StencilIndex, PixelType::U8);
    assert_eq!(
        depth,
        Reply::Bytes([0u16.to_le_bytes(), 65535u16.to_le_bytes()].concat()),
        "{:?}",
        s.events()
    );
    assert_eq!(stencil, Reply::Bytes(vec![5, 5]));
    let events = s.events();
    let bad = |e: &Event| matches!(e, Event::NativeError { .. } | Event::Unsupported { .. });
    assert!(!events.iter().any(bad), "{events:?}");
    s.finish();
}

/// Fragment output 0 to attachment 1 and output 1 to attachment 0, then back to the identity
/// mapping, where a clear of draw buffer 1 only reaches attachment 1.
pub fn draw_buffers_map_outputs_to_any_attachment(mut s: Scene) {
    let a = s.texture(8, 8, None);
    let b = s.texture(8, 8, None);
    let fbo = s.texture_framebuffer(&[a, b]);
    s.viewport(8, 8);
    // Output 0 -> attachment 1, output 1 -> attachment 0 (GLES itself only allows i -> i).
    s.draw_buffers(&[1, 0]);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    let fs = r"#version 450
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() { o0 = vec4(1.0, 0.0, 0.0, 1.0); o1 = vec4(0.0, 1.0, 0.0, 1.0); }
";
    s.program(POSITION_VS, fs, 0, 0, 0);
    let vb = s.buffer(&floats(&[-1.0, -1.0, 3.0, -1.0, -1.0, 3.0]));
    s.vertices(vb, &[(2, 8, 0)]);
    s.draw(Topology::Triangles, 3);
    let read = |s: &mut Scene, j: u8| {
        let src = ReadSource {
            framebuffer: FramebufferRef::Object(fbo),
            image: ReadImage::Color(j),
        };
        s.read(src, rect(4, 4, 1, 1), RGBA8)
    };
    let green = Reply::Bytes(vec![0, 255, 0, 255]);
    assert_eq!(read(&mut s, 0), green, "attachment 0 got output 1");
    let red = Reply::Bytes(vec![255, 0, 0, 255]);
    assert_eq!(read(&mut s, 1), red, "attachment 1 got output 0");
    s.draw_buffers(&[0, 1]);
    s.push(Record::ClearBuffer {
        draw_buffer: 1,
        value: ClearValue::Float([0.0, 0.0, 1.0, 1.0]),
    });
    assert_eq!(read(&mut s, 0), green);
    assert_eq!(read(&mut s, 1), Reply::Bytes(vec![0, 0, 255, 255]));
    s.assert_no_events();
    s.finish();
}

/// A 4-sample surface drawn and read (resolved for reading), then blitted (resolved) into
/// the scene's surface.
pub fn multisampled_surface_resolves_for_reading(mut s: Scene) {
    let ms = s.h();
    s.push(Record::CreateSurface {
        surface: ms,
        desc: crate::surface_desc(4),
    });
    let ms = FramebufferRef::Surface(ms);
    s.push(Record::BindFramebuffer { framebuffer: ms });
    s.clear([0.0, 0.0, 1.0, 1.0]);
    s.solid_triangle();
    s.uniforms([1.0, 0.0, 0.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    s.expect_pixels_of(ms, &[(32, 32, RED), (2, 60, BLUE)]);
    s.push(Record::BindFramebuffer {
        framebuffer: FramebufferRef::Surface(s.surface),
    });
    blit(&mut s, ms, SIZE, SIZE);
    s.expect_pixels(&[(32, 32, RED), (2, 60, BLUE)]);
    s.finish();
}

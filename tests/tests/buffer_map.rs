//! Buffer maps that do not read back what the program will overwrite: the engine's client
//! copy of each buffer answers maps with no round trip while no GPU write made it stale, unsynchronized maps never wait, and bytes the GPU wrote survive
//! every write map. Round trips are counted exactly (`blocking_waits` of the in-process
//! transport), on the null backend, on the native GLES driver and on Vulkan.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::PixelsMut;
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::Backend;
use tessera_tests::{assert_no_error, context, differential, programs};

/// The backends a test runs on: the null backend, native GLES and Vulkan (in-process
/// transports).
fn contexts() -> [(&'static str, Context); 3] {
    [
        ("null", context()),
        ("gles", differential::tessera(TransportKind::Inproc, 32, 32)),
        (
            "vulkan",
            differential::tessera_on(Backend::Vulkan, TransportKind::Inproc, 32, 32),
        ),
    ]
}

/// The blocking waits (round trips) the context made so far.
fn waits(ctx: &Context) -> u64 {
    ctx.transport_stats().blocking_waits
}

/// A buffer bound to `target` holding `data`.
fn buffer_with(ctx: &mut Context, target: GLenum, data: &[u8]) -> GLuint {
    let b = ctx.gen_buffer();
    ctx.bind_buffer(target, b);
    ctx.buffer_data(target, data.len() as GLsizeiptr, Some(data), STREAM_DRAW);
    assert_no_error!(ctx);
    b
}

/// The bytes of the buffer bound to `target` as `glGetBufferSubData` reads them back from
/// the backend, asserting it took exactly one round trip.
fn get(ctx: &mut Context, target: GLenum, len: usize) -> Vec<u8> {
    let w = waits(ctx);
    let mut out = vec![0xEE; len];
    ctx.get_buffer_sub_data(target, 0, len as GLsizeiptr, &mut out);
    assert_no_error!(ctx);
    assert_eq!(waits(ctx) - w, 1, "glGetBufferSubData reads back");
    out
}

/// The first `len` bytes of `buffer` as the backend holds them: copied on the GPU into a
/// scratch buffer (whose client copy that makes stale) and read back from there.
fn backend_bytes(ctx: &mut Context, buffer: GLuint, len: usize) -> Vec<u8> {
    let scratch = ctx.gen_buffer();
    ctx.bind_buffer(COPY_READ_BUFFER, buffer);
    ctx.bind_buffer(COPY_WRITE_BUFFER, scratch);
    ctx.buffer_data(COPY_WRITE_BUFFER, len as GLsizeiptr, None, STREAM_COPY);
    ctx.copy_buffer_sub_data(COPY_READ_BUFFER, COPY_WRITE_BUFFER, 0, 0, len as GLsizeiptr);
    let bytes = get(ctx, COPY_WRITE_BUFFER, len);
    ctx.delete_buffers(1, &[scratch]);
    assert_no_error!(ctx);
    bytes
}

#[test]
fn unsynchronized_write_maps_make_no_round_trip() {
    for (name, mut ctx) in contexts() {
        let ctx = &mut ctx;
        let initial: Vec<u8> = (0..32).collect();
        let b = buffer_with(ctx, ARRAY_BUFFER, &initial);
        let w = waits(ctx);
        // A stream buffer as emulators fill it, frame after frame.
        for frame in 0..3u8 {
            let p =
                ctx.map_buffer_range(ARRAY_BUFFER, 8, 8, MAP_WRITE_BIT | MAP_UNSYNCHRONIZED_BIT);
            assert!(!p.is_null(), "{name}");
            ctx.with_mapped(ARRAY_BUFFER, |m| m[..4].fill(100 + frame));
            assert_eq!(ctx.unmap_buffer(ARRAY_BUFFER), TRUE as GLboolean, "{name}");
        }
        ctx.map_buffer_range(
            ARRAY_BUFFER,
            16,
            8,
            MAP_WRITE_BIT | MAP_UNSYNCHRONIZED_BIT | MAP_FLUSH_EXPLICIT_BIT,
        );
        ctx.with_mapped(ARRAY_BUFFER, |m| m.fill(0xAA));
        ctx.flush_mapped_buffer_range(ARRAY_BUFFER, 0, 2);
        ctx.flush_mapped_buffer_range(ARRAY_BUFFER, 6, 2);
        assert_eq!(ctx.unmap_buffer(ARRAY_BUFFER), TRUE as GLboolean, "{name}");
        assert_no_error!(ctx);
        assert_eq!(waits(ctx) - w, 0, "{name}: unsynchronized maps waited");

        let mut expected = initial.clone();
        expected[8..12].fill(102);
        expected[16..18].fill(0xAA);
        expected[22..24].fill(0xAA);
        assert_eq!(get(ctx, ARRAY_BUFFER, 32), expected, "{name}: read back");
        assert_eq!(backend_bytes(ctx, b, 32), expected, "{name}: the backend");
    }
}

/// A `side` x `side` context on `backend` cleared to blue, drawing with the colour program
/// (whose colour uniform is returned) from a buffer of `size` bytes (`initial`, or undefined)
/// bound to `ARRAY_BUFFER` as attribute 0's two floats.
fn drawing_from_a_buffer(
    backend: Backend,
    side: i32,
    size: usize,
    initial: Option<&[u8]>,
) -> (Context, GLint) {
    let mut ctx = differential::tessera_on(backend, TransportKind::Inproc, side, side);
    ctx.clear_color(0.0, 0.0, 1.0, 1.0);
    ctx.clear(COLOR_BUFFER_BIT);
    let p = programs::color_program(&mut ctx);
    ctx.use_program(p);
    let loc = ctx.get_uniform_location(p, "color");
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    let b = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, b);
    ctx.buffer_data(ARRAY_BUFFER, size as GLsizeiptr, initial, STREAM_DRAW);
    ctx.vertex_attrib_pointer(0, 2, FLOAT, FALSE as GLboolean, 0, 0);
    ctx.enable_vertex_attrib_array(0);
    (ctx, loc)
}

#[test]
fn a_draw_uses_what_an_unsynchronized_map_wrote() {
    // On Vulkan (lavapipe's memory is host-visible) the write lands in the buffer's memory
    // at once; after `glBufferData` with data, whose transfer is still pending, it must go
    // through a transfer after that one, or the pending zeros would land over it.
    for backend in [Backend::Gles, Backend::Vulkan] {
        for initial in [None, Some(&[0u8; 24][..])] {
            let what = format!(
                "{backend:?}, initial contents {:?}",
                initial.map(|_| "zeros")
            );
            // Zeros: a degenerate triangle until the map writes the real one.
            let (mut ctx, loc) = drawing_from_a_buffer(backend, 32, 24, initial);
            let ctx = &mut ctx;
            ctx.uniform4f(loc, 1.0, 0.0, 0.0, 1.0);
            let w = waits(ctx);
            ctx.map_buffer_range(ARRAY_BUFFER, 0, 24, MAP_WRITE_BIT | MAP_UNSYNCHRONIZED_BIT);
            let verts: Vec<u8> = [-0.9f32, -0.9, 0.9, -0.9, -0.9, 0.9]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect();
            ctx.with_mapped(ARRAY_BUFFER, |m| m.copy_from_slice(&verts));
            ctx.unmap_buffer(ARRAY_BUFFER);
            ctx.draw_arrays(TRIANGLES, 0, 3);
            assert_eq!(waits(ctx) - w, 0, "{what}: map, unmap and draw waited");
            let mut pixels = vec![0u8; 32 * 32 * 4];
            ctx.read_pixels(
                0,
                0,
                32,
                32,
                RGBA,
                UNSIGNED_BYTE,
                PixelsMut::Bytes(&mut pixels),
            );
            assert_no_error!(ctx);
            let at = |x: usize, y: usize| pixels[(y * 32 + x) * 4..][..4].to_vec();
            assert_eq!(
                at(4, 4),
                [255, 0, 0, 255],
                "{what}: inside the mapped triangle"
            );
            assert_eq!(at(30, 30), [0, 0, 255, 255], "{what}: outside it");
        }
    }
}

/// A stream buffer as emulators draw from it: each draw's vertices written through an
/// unsynchronized map of the next range, drawn, and the buffer orphaned when full. Earlier
/// draws of the frame, not yet run when later ranges are written, must still see their own
/// triangles (on Vulkan the writes land in memory at once, ahead of those draws).
#[test]
fn draws_from_a_stream_buffer_see_their_own_ranges() {
    const SIDE: i32 = 32;
    // Four quadrants, each drawn from its own triangle pair in the stream; 3 ranges per
    // buffer, so the fourth orphans it.
    let quads = [(-1.0f32, -1.0f32), (0.0, -1.0), (-1.0, 0.0), (0.0, 0.0)];
    let colors = [
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [1.0, 1.0, 0.0, 1.0],
        [1.0, 0.0, 1.0, 1.0],
    ];
    const RANGE: usize = 6 * 2 * 4;
    for backend in [Backend::Gles, Backend::Vulkan] {
        let (mut ctx, loc) = drawing_from_a_buffer(backend, SIDE, 3 * RANGE, None);
        let ctx = &mut ctx;
        let mut at = 0;
        for (&(x, y), c) in quads.iter().zip(colors) {
            if at + RANGE > 3 * RANGE {
                ctx.buffer_data(ARRAY_BUFFER, (3 * RANGE) as GLsizeiptr, None, STREAM_DRAW);
                at = 0;
            }
            let verts: Vec<u8> = [
                x,
                y,
                x + 1.0,
                y,
                x,
                y + 1.0,
                x + 1.0,
                y,
                x + 1.0,
                y + 1.0,
                x,
                y + 1.0,
            ]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
            let access = MAP_WRITE_BIT | MAP_INVALIDATE_RANGE_BIT | MAP_UNSYNCHRONIZED_BIT;
            ctx.map_buffer_range(ARRAY_BUFFER, at as GLintptr, RANGE as GLsizeiptr, access);
            ctx.with_mapped(ARRAY_BUFFER, |m| m.copy_from_slice(&verts));
            ctx.unmap_buffer(ARRAY_BUFFER);
            ctx.uniform4f(loc, c[0], c[1], c[2], c[3]);
            ctx.draw_arrays(TRIANGLES, (at / 8) as GLint, 6);
            at += RANGE;
        }
        let mut pixels = vec![0u8; (SIDE * SIDE * 4) as usize];
        ctx.read_pixels(
            0,
            0,
            SIDE,
            SIDE,
            RGBA,
            UNSIGNED_BYTE,
            PixelsMut::Bytes(&mut pixels),
        );
        assert_no_error!(ctx);
        let px = |x: i32, y: i32| pixels[((y * SIDE + x) * 4) as usize..][..4].to_vec();
        for (i, (cx, cy)) in [(8, 8), (24, 8), (8, 24), (24, 24)].into_iter().enumerate() {
            let want: Vec<u8> = colors[i].iter().map(|&v| (v * 255.0) as u8).collect();
            assert_eq!(px(cx, cy), want, "{backend:?}: quadrant {i}");
        }
    }
}

#[test]
fn explicit_flushes_change_exactly_the_flushed_ranges() {
    for (name, mut ctx) in contexts() {
        let ctx = &mut ctx;
        let initial: Vec<u8> = (0..32).collect();
        let b = buffer_with(ctx, ARRAY_BUFFER, &initial);
        // A GPU write first: the unflushed bytes must keep it, and still nothing waits.
        let src = buffer_with(ctx, COPY_READ_BUFFER, &[0x55; 32]);
        ctx.bind_buffer(COPY_WRITE_BUFFER, b);
        ctx.copy_buffer_sub_data(COPY_READ_BUFFER, COPY_WRITE_BUFFER, 0, 24, 8);
        let w = waits(ctx);
        ctx.map_buffer_range(ARRAY_BUFFER, 4, 24, MAP_WRITE_BIT | MAP_FLUSH_EXPLICIT_BIT);
        ctx.with_mapped(ARRAY_BUFFER, |m| m.fill(0xCC));
        ctx.flush_mapped_buffer_range(ARRAY_BUFFER, 0, 3);
        ctx.flush_mapped_buffer_range(ARRAY_BUFFER, 10, 5);
        assert_eq!(ctx.unmap_buffer(ARRAY_BUFFER), TRUE as GLboolean, "{name}");
        assert_no_error!(ctx);
        assert_eq!(
            waits(ctx) - w,
            0,
            "{name}: a write-only explicit map waited"
        );
        let mut expected = initial.clone();
        expected[24..32].fill(0x55);
        expected[4..7].fill(0xCC);
        expected[14..19].fill(0xCC);
        assert_eq!(backend_bytes(ctx, b, 32), expected, "{name}");
        ctx.delete_buffers(1, &[src]);
    }
}

#[test]
fn write_only_maps_of_known_contents_make_no_round_trip() {
    for (name, mut ctx) in contexts() {
        let ctx = &mut ctx;
        let b = buffer_with(ctx, ARRAY_BUFFER, &[1; 16]);
        ctx.buffer_sub_data(ARRAY_BUFFER, 4, 4, &[2, 3, 4, 5]);
        let w = waits(ctx);
        ctx.map_buffer_range(ARRAY_BUFFER, 2, 8, MAP_WRITE_BIT);
        ctx.with_mapped(ARRAY_BUFFER, |m| {
            m[0] = 40;
            m[7] = 41;
        });
        ctx.unmap_buffer(ARRAY_BUFFER);
        ctx.map_buffer(ARRAY_BUFFER, WRITE_ONLY);
        ctx.with_mapped(ARRAY_BUFFER, |m| m[15] = 42);
        ctx.unmap_buffer(ARRAY_BUFFER);
        // A read map of known contents answers from the copy too.
        ctx.map_buffer_range(ARRAY_BUFFER, 0, 16, MAP_READ_BIT);
        let read = ctx.with_mapped(ARRAY_BUFFER, |m| m.to_vec());
        ctx.unmap_buffer(ARRAY_BUFFER);
        assert_no_error!(ctx);
        assert_eq!(waits(ctx) - w, 0, "{name}: maps of known contents waited");
        let expected = vec![1, 1, 40, 1, 2, 3, 4, 5, 1, 41, 1, 1, 1, 1, 1, 42];
        assert_eq!(read, Some(expected.clone()), "{name}: the read map");
        assert_eq!(get(ctx, ARRAY_BUFFER, 16), expected, "{name}: read back");
        assert_eq!(backend_bytes(ctx, b, 16), expected, "{name}: the backend");
    }
}

#[test]
fn write_only_maps_keep_what_the_gpu_wrote() {
    for (name, mut ctx) in contexts() {
        let ctx = &mut ctx;
        let initial: Vec<u8> = (0..16).collect();
        let b = buffer_with(ctx, ARRAY_BUFFER, &initial);
        let nines = buffer_with(ctx, COPY_READ_BUFFER, &[9; 16]);
        ctx.bind_buffer(COPY_WRITE_BUFFER, b);
        ctx.copy_buffer_sub_data(COPY_READ_BUFFER, COPY_WRITE_BUFFER, 0, 4, 8);
        // Synchronized and write-only over bytes the GPU wrote: one read-back.
        let w = waits(ctx);
        ctx.map_buffer_range(ARRAY_BUFFER, 0, 16, MAP_WRITE_BIT);
        ctx.with_mapped(ARRAY_BUFFER, |m| {
            m[0] = 50;
            m[15] = 60;
        });
        ctx.unmap_buffer(ARRAY_BUFFER);
        assert_eq!(waits(ctx) - w, 1, "{name}: one read-back");
        let mut expected = initial.clone();
        expected[4..12].fill(9);
        expected[0] = 50;
        expected[15] = 60;
        assert_eq!(get(ctx, ARRAY_BUFFER, 16), expected, "{name}: read back");
        assert_eq!(backend_bytes(ctx, b, 16), expected, "{name}: the backend");
        // The read-back taught the client copy: a read map needs no round trip now.
        let w = waits(ctx);
        ctx.map_buffer_range(ARRAY_BUFFER, 0, 16, MAP_READ_BIT);
        let read = ctx.with_mapped(ARRAY_BUFFER, |m| m.to_vec());
        ctx.unmap_buffer(ARRAY_BUFFER);
        assert_eq!(waits(ctx) - w, 0, "{name}: the read map waited");
        assert_eq!(read, Some(expected.clone()), "{name}: the read map");

        // Unsynchronized over bytes the GPU wrote: no wait, and only the bytes the program
        // changed are sent, so the GPU's bytes stay.
        let sevens = buffer_with(ctx, COPY_READ_BUFFER, &[7; 16]);
        ctx.bind_buffer(COPY_WRITE_BUFFER, b);
        ctx.copy_buffer_sub_data(COPY_READ_BUFFER, COPY_WRITE_BUFFER, 0, 4, 8);
        let w = waits(ctx);
        ctx.map_buffer_range(ARRAY_BUFFER, 0, 16, MAP_WRITE_BIT | MAP_UNSYNCHRONIZED_BIT);
        ctx.with_mapped(ARRAY_BUFFER, |m| {
            m[1] = 51;
            m[5] = 77;
        });
        ctx.unmap_buffer(ARRAY_BUFFER);
        assert_eq!(waits(ctx) - w, 0, "{name}: an unsynchronized map waited");
        expected[4..12].fill(7);
        expected[1] = 51;
        expected[5] = 77;
        assert_eq!(backend_bytes(ctx, b, 16), expected, "{name}: the backend");
        // The GPU's bytes the program left alone are still stale: a read map reads back.
        let w = waits(ctx);
        ctx.map_buffer_range(ARRAY_BUFFER, 0, 16, MAP_READ_BIT);
        let read = ctx.with_mapped(ARRAY_BUFFER, |m| m.to_vec());
        ctx.unmap_buffer(ARRAY_BUFFER);
        assert_eq!(waits(ctx) - w, 1, "{name}: the read map over GPU bytes");
        assert_eq!(read, Some(expected.clone()), "{name}: the read map");
        assert_eq!(get(ctx, ARRAY_BUFFER, 16), expected, "{name}: read back");
        ctx.delete_buffers(2, &[nines, sevens]);
        assert_no_error!(ctx);
    }
}

#[test]
fn read_pixels_into_a_buffer_is_a_gpu_write() {
    let mut ctx = differential::tessera(TransportKind::Inproc, 32, 32);
    let ctx = &mut ctx;
    ctx.clear_color(1.0, 0.0, 1.0, 1.0);
    ctx.clear(COLOR_BUFFER_BIT);
    let b = buffer_with(ctx, PIXEL_PACK_BUFFER, &[1; 16]);
    ctx.read_pixels(0, 0, 1, 1, RGBA, UNSIGNED_BYTE, PixelsMut::Offset(4));
    ctx.bind_buffer(PIXEL_PACK_BUFFER, 0);
    ctx.bind_buffer(ARRAY_BUFFER, b);
    assert_no_error!(ctx);
    let w = waits(ctx);
    ctx.map_buffer_range(ARRAY_BUFFER, 0, 16, MAP_WRITE_BIT);
    ctx.with_mapped(ARRAY_BUFFER, |m| m[0] = 9);
    ctx.unmap_buffer(ARRAY_BUFFER);
    assert_eq!(waits(ctx) - w, 1, "the pixels are read back before the map");
    let expected = [9, 1, 1, 1, 255, 0, 255, 255, 1, 1, 1, 1, 1, 1, 1, 1];
    assert_eq!(get(ctx, ARRAY_BUFFER, 16), expected);
    assert_eq!(backend_bytes(ctx, b, 16), expected);
    assert_no_error!(ctx);
}

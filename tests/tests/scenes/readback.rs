//! Read-backs: `glReadPixels` over the pack parameters (`PACK_ROW_LENGTH`, `PACK_SKIP_*`,
//! `PACK_ALIGNMENT`) and the format/type pairs GL 3.3 allows (RGBA, RGB, BGRA and RED bytes;
//! FLOAT from float and normalized targets; RGBA_INTEGER from integer targets; packed
//! 5_6_5; DEPTH_COMPONENT as FLOAT from 24-bit and float depth; STENCIL_INDEX), from the
//! default framebuffer, from framebuffer objects through `glReadBuffer`, and into a
//! `PIXEL_PACK_BUFFER` read by `glGetBufferSubData` and by mapping.
//!
//! Each scene returns the bytes it read. They must equal, byte for byte, the bytes derived
//! here by reasoning, on the native driver and on Tessera through both transports (the
//! harness also compares the framebuffer image). Client buffers are pre-filled with
//! [`SENTINEL`], so the bytes a pack layout skips must come back untouched. Every scene
//! restores the pack state it changed, since the harness reads the image afterwards.

use std::cell::RefCell;

use tessera_engine::gl::*;
use tessera_tests::differential::{Probe, check, probe};
use tessera_tests::gl::Gl;

/// The byte client buffers are filled with before a read.
const SENTINEL: u8 = 0xAB;

/// Runs `scene` through the harness ([`check`]: probes and image) and asserts that the
/// bytes it read equal `expected` on every implementation.
fn read_scene(
    name: &str,
    width: i32,
    height: i32,
    scene: impl Fn(&mut dyn Gl) -> Vec<u8>,
    probes: &[Probe],
    expected: &[u8],
) {
    let runs = RefCell::new(Vec::new());
    check(
        name,
        width,
        height,
        |gl| runs.borrow_mut().push(scene(gl)),
        probes,
    );
    let runs = runs.into_inner();
    let who = [
        "native",
        "gles/inproc",
        "gles/thread",
        "vulkan/inproc",
        "vulkan/thread",
    ];
    assert_eq!(runs.len(), who.len(), "{name}: one run per implementation");
    for (bytes, who) in runs.iter().zip(who) {
        assert_eq!(bytes.len(), expected.len(), "{name} on {who}: bytes read");
        if let Some(at) = bytes.iter().zip(expected).position(|(a, b)| a != b) {
            let end = (at + 16).min(bytes.len());
            panic!(
                "{name} on {who}: byte {at} differs: read {:?}, expected {:?}",
                &bytes[at..end],
                &expected[at..end]
            );
        }
    }
}

/// The colour of pixel (x, y) of [`pattern`].
fn colour(x: i32, y: i32) -> [u8; 4] {
    [
        (x * 30 + 5) as u8,
        (y * 30 + 5) as u8,
        ((x + y) * 10) as u8,
        (255 - x * 8) as u8,
    ]
}

/// Clears each pixel of the `size` x `size` draw framebuffer to [`colour`].
fn pattern(gl: &mut dyn Gl, size: i32) {
    gl.enable(SCISSOR_TEST);
    for y in 0..size {
        for x in 0..size {
            gl.scissor(x, y, 1, 1);
            let [r, g, b, a] = colour(x, y).map(|c| f32::from(c) / 255.0);
            gl.clear_color(r, g, b, a);
            gl.clear(COLOR_BUFFER_BIT);
        }
    }
    gl.disable(SCISSOR_TEST);
}

/// Probes of [`pattern`] at a few pixels.
fn pattern_probes() -> Vec<Probe> {
    [(0, 0), (7, 0), (3, 5), (7, 7)]
        .map(|(x, y)| probe(x, y, colour(x, y)))
        .to_vec()
}

/// Reads `w` x `h` at (x, y) as `format`/`ty` into `len` sentinel bytes.
#[allow(
    clippy::too_many_arguments,
    reason = "glReadPixels' arguments and a length"
)]
fn read(
    gl: &mut dyn Gl,
    x: i32,
    y: i32,
    w: i32,
    h: i32,
    format: GLenum,
    ty: GLenum,
    len: usize,
) -> Vec<u8> {
    let mut out = vec![SENTINEL; len];
    gl.read_pixels(x, y, w, h, format, ty, &mut out);
    out
}

/// Expected bytes of a read of the pattern: `len` bytes of `fill` where pixel (i, j) of the
/// rectangle at (x, y) is `pixel(colour)` at byte `at(i, j)`.
fn layout(
    fill: u8,
    len: usize,
    (x, y, w, h): (i32, i32, i32, i32),
    at: impl Fn(i32, i32) -> usize,
    pixel: impl Fn([u8; 4]) -> Vec<u8>,
) -> Vec<u8> {
    let mut out = vec![fill; len];
    for j in 0..h {
        for i in 0..w {
            let p = pixel(colour(x + i, y + j));
            out[at(i, j)..][..p.len()].copy_from_slice(&p);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Pack parameters

#[test]
fn pack_row_length_and_skips() {
    // A 5 x 3 rectangle at (2, 4) into rows of 9 pixels, skipping 3 pixels and 2 rows.
    let len = (9 * 5 * 4) as usize;
    let expected = layout(
        SENTINEL,
        len,
        (2, 4, 5, 3),
        |i, j| (((j + 2) * 9 + i + 3) * 4) as usize,
        |c| c.to_vec(),
    );
    read_scene(
        "read_pack_row_length_skips",
        8,
        8,
        |gl| {
            pattern(gl, 8);
            gl.pixel_storei(PACK_ROW_LENGTH, 9);
            gl.pixel_storei(PACK_SKIP_PIXELS, 3);
            gl.pixel_storei(PACK_SKIP_ROWS, 2);
            let out = read(gl, 2, 4, 5, 3, RGBA, UNSIGNED_BYTE, len);
            for pname in [PACK_ROW_LENGTH, PACK_SKIP_PIXELS, PACK_SKIP_ROWS] {
                gl.pixel_storei(pname, 0);
            }
            out
        },
        &pattern_probes(),
        &expected,
    );
}

/// Reads 3 x 3 at (1, 2) as RGB bytes with `alignment`: rows of 9 bytes padded to it.
fn rgb_alignment(name: &str, alignment: usize) {
    let stride = 9usize.next_multiple_of(alignment);
    let len = stride * 2 + 9;
    let expected = layout(
        SENTINEL,
        len,
        (1, 2, 3, 3),
        |i, j| j as usize * stride + i as usize * 3,
        |c| c[..3].to_vec(),
    );
    read_scene(
        name,
        8,
        8,
        |gl| {
            pattern(gl, 8);
            gl.pixel_storei(PACK_ALIGNMENT, alignment as GLint);
            let out = read(gl, 1, 2, 3, 3, RGB, UNSIGNED_BYTE, len);
            gl.pixel_storei(PACK_ALIGNMENT, 4);
            out
        },
        &pattern_probes(),
        &expected,
    );
}

#[test]
fn pack_alignment_pads_rgb_rows() {
    rgb_alignment("read_rgb_alignment_1", 1);
    rgb_alignment("read_rgb_alignment_2", 2);
    rgb_alignment("read_rgb_alignment_4", 4);
    rgb_alignment("read_rgb_alignment_8", 8);
}

#[test]
fn read_red_bytes_with_default_alignment() {
    // RED of a 5-pixel row: 5 bytes padded to 8 by the default alignment of 4.
    let len = 8 * 3 + 5;
    let expected = layout(
        SENTINEL,
        len,
        (2, 1, 5, 4),
        |i, j| (j * 8 + i) as usize,
        |c| vec![c[0]],
    );
    read_scene(
        "read_red_ubyte",
        8,
        8,
        |gl| {
            pattern(gl, 8);
            read(gl, 2, 1, 5, 4, RED, UNSIGNED_BYTE, len)
        },
        &pattern_probes(),
        &expected,
    );
}

#[test]
fn read_bgra_bytes() {
    let len = 4 * 4 * 4;
    let expected = layout(
        SENTINEL,
        len,
        (4, 4, 4, 4),
        |i, j| ((j * 4 + i) * 4) as usize,
        |c| vec![c[2], c[1], c[0], c[3]],
    );
    read_scene(
        "read_bgra_ubyte",
        8,
        8,
        |gl| {
            pattern(gl, 8);
            read(gl, 4, 4, 4, 4, BGRA, UNSIGNED_BYTE, len)
        },
        &pattern_probes(),
        &expected,
    );
}

#[test]
fn read_rgba_floats_from_a_normalized_target() {
    // Mesa converts unorm8 to float as c * (1 / 255), which can differ from c / 255 in
    // the last bit.
    let len = 3 * 2 * 16;
    let expected = layout(
        SENTINEL,
        len,
        (0, 6, 3, 2),
        |i, j| ((j * 3 + i) * 16) as usize,
        |c| {
            c.iter()
                .flat_map(|v| (f32::from(*v) * (1.0 / 255.0)).to_le_bytes())
                .collect()
        },
    );
    read_scene(
        "read_rgba_float_from_rgba8",
        8,
        8,
        |gl| {
            pattern(gl, 8);
            read(gl, 0, 6, 3, 2, RGBA, FLOAT, len)
        },
        &pattern_probes(),
        &expected,
    );
}

#[test]
fn read_packed_565() {
    // RGB / UNSIGNED_SHORT_5_6_5: each channel rounded to 5 or 6 bits (c * max / 255,
    // to nearest).
    let len = 4 * 2 * 2;
    let q = |c: u8, bits: u32| ((f32::from(c) / 255.0 * ((1 << bits) - 1) as f32).round()) as u16;
    let expected = layout(
        SENTINEL,
        len,
        (3, 3, 4, 2),
        |i, j| ((j * 4 + i) * 2) as usize,
        |c| {
            (q(c[0], 5) << 11 | q(c[1], 6) << 5 | q(c[2], 5))
                .to_le_bytes()
                .to_vec()
        },
    );
    read_scene(
        "read_rgb_565",
        8,
        8,
        |gl| {
            pattern(gl, 8);
            read(gl, 3, 3, 4, 2, RGB, UNSIGNED_SHORT_5_6_5, len)
        },
        &pattern_probes(),
        &expected,
    );
}

// ---------------------------------------------------------------------------------------
// Framebuffer objects: float, integer, read buffer selection

/// A framebuffer bound to FRAMEBUFFER with a 4 x 4 renderbuffer of `internal` at
/// COLOR_ATTACHMENT0.
fn target(gl: &mut dyn Gl, internal: GLenum) -> GLuint {
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, internal, 4, 4);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    assert_eq!(
        gl.check_framebuffer_status(FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    fb
}

/// Default framebuffer cleared to this colour by the FBO scenes (a probe of the image).
const BACKDROP: [u8; 4] = [0, 64, 128, 255];

fn backdrop(gl: &mut dyn Gl) {
    gl.clear_color(0.0, 64.0 / 255.0, 128.0 / 255.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
}

/// The two values a float target holds: the left half and the right half.
const FLOATS: [[f32; 4]; 2] = [[2.5, -1.0, 0.125, 1000.0], [0.0, 0.5, 1.0, -0.25]];

/// An RGBA32F target, left half [`FLOATS`]`[0]`, right half `[1]` (scissored clears).
fn float_target(gl: &mut dyn Gl) {
    backdrop(gl);
    target(gl, RGBA32F);
    gl.enable(SCISSOR_TEST);
    for (i, v) in FLOATS.iter().enumerate() {
        gl.scissor(i as i32 * 2, 0, 2, 4);
        gl.clear_bufferfv(COLOR, 0, v);
    }
    gl.disable(SCISSOR_TEST);
}

#[test]
fn read_rgba_floats_from_a_float_target() {
    let expected: Vec<u8> = (0..2)
        .flat_map(|_| (0..4).flat_map(|i| FLOATS[i / 2].iter().flat_map(|v| v.to_le_bytes())))
        .collect();
    read_scene(
        "read_rgba_float_from_rgba32f",
        8,
        8,
        |gl| {
            float_target(gl);
            read(gl, 0, 1, 4, 2, RGBA, FLOAT, 4 * 2 * 16)
        },
        &[probe(4, 4, BACKDROP)],
        &expected,
    );
}

#[test]
fn read_bytes_from_a_float_target_clamps() {
    // Float to unorm8: clamped to [0, 1], then c * 255 to nearest.
    let px = [[255, 0, 32, 255], [0, 128, 255, 0]];
    let expected: Vec<u8> = (0..4).flat_map(|i| px[i / 2]).collect();
    read_scene(
        "read_rgba_ubyte_from_rgba32f",
        8,
        8,
        |gl| {
            float_target(gl);
            read(gl, 0, 3, 4, 1, RGBA, UNSIGNED_BYTE, 16)
        },
        &[probe(4, 4, BACKDROP)],
        &expected,
    );
}

#[test]
fn read_integers_from_an_unsigned_target() {
    // RGBA8UI cleared with glClearBufferuiv, read as RGBA_INTEGER bytes and as 32-bit
    // unsigned integers.
    let v = [3u32, 250, 17, 99];
    let mut expected: Vec<u8> = (0..2).flat_map(|_| v.map(|c| c as u8)).collect();
    expected.extend((0..2).flat_map(|_| v.iter().flat_map(|c| c.to_le_bytes())));
    read_scene(
        "read_rgba_integer_from_rgba8ui",
        8,
        8,
        |gl| {
            backdrop(gl);
            target(gl, RGBA8UI);
            gl.clear_bufferuiv(COLOR, 0, &v);
            let mut out = read(gl, 1, 1, 2, 1, RGBA_INTEGER, UNSIGNED_BYTE, 8);
            out.extend(read(gl, 2, 2, 2, 1, RGBA_INTEGER, UNSIGNED_INT, 32));
            out
        },
        &[probe(4, 4, BACKDROP)],
        &expected,
    );
}

#[test]
fn read_integers_from_a_signed_target() {
    let v = [-7i32, 100_000, i32::MIN, 42];
    let expected: Vec<u8> = (0..3)
        .flat_map(|_| v.iter().flat_map(|c| c.to_le_bytes()))
        .collect();
    read_scene(
        "read_rgba_integer_from_rgba32i",
        8,
        8,
        |gl| {
            backdrop(gl);
            target(gl, RGBA32I);
            gl.clear_bufferiv(COLOR, 0, &v);
            read(gl, 1, 3, 3, 1, RGBA_INTEGER, INT, 48)
        },
        &[probe(4, 4, BACKDROP)],
        &expected,
    );
}

#[test]
fn read_buffer_selects_the_attachment() {
    // Two attachments cleared to different colours; glReadBuffer(COLOR_ATTACHMENT1) reads
    // the second, then COLOR_ATTACHMENT0 the first.
    let expected = [[10u8, 20, 30, 40], [200, 150, 100, 50]].concat();
    read_scene(
        "read_buffer_attachment1",
        8,
        8,
        |gl| {
            backdrop(gl);
            target(gl, RGBA8);
            let rb = gl.gen_renderbuffer();
            gl.bind_renderbuffer(RENDERBUFFER, rb);
            gl.renderbuffer_storage(RENDERBUFFER, RGBA8, 4, 4);
            gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT1, RENDERBUFFER, rb);
            gl.draw_buffers(&[COLOR_ATTACHMENT0, COLOR_ATTACHMENT1]);
            gl.clear_bufferfv(
                COLOR,
                0,
                &[200.0 / 255.0, 150.0 / 255.0, 100.0 / 255.0, 50.0 / 255.0],
            );
            gl.clear_bufferfv(
                COLOR,
                1,
                &[10.0 / 255.0, 20.0 / 255.0, 30.0 / 255.0, 40.0 / 255.0],
            );
            gl.read_buffer(COLOR_ATTACHMENT1);
            let mut out = read(gl, 2, 2, 1, 1, RGBA, UNSIGNED_BYTE, 4);
            gl.read_buffer(COLOR_ATTACHMENT0);
            out.extend(read(gl, 2, 2, 1, 1, RGBA, UNSIGNED_BYTE, 4));
            out
        },
        &[probe(4, 4, BACKDROP)],
        &expected,
    );
}

// ---------------------------------------------------------------------------------------
// Depth and stencil

/// Draws a quad at NDC depth `z` over the rectangle `xf` (`pos * xf.xy + xf.zw`) with the
/// current depth and stencil state.
fn depth_quad(gl: &mut dyn Gl, xf: [f32; 4], z: f32) {
    let p = super::textures::program(
        gl,
        "#version 330 core
layout(location = 0) in vec2 pos;
uniform vec4 xf;
uniform float z;
void main() { gl_Position = vec4(pos * xf.xy + xf.zw, z, 1.0); }
",
        "#version 330 core
out vec4 frag;
void main() { frag = vec4(1.0, 0.5, 0.0, 1.0); }
",
    );
    gl.use_program(p);
    super::textures::quad(gl);
    let (loc_xf, loc_z) = (
        gl.get_uniform_location(p, "xf"),
        gl.get_uniform_location(p, "z"),
    );
    gl.uniform4f(loc_xf, xf[0], xf[1], xf[2], xf[3]);
    gl.uniform1f(loc_z, z);
    super::textures::draw_quad(gl);
}

#[test]
fn read_depth_as_float_from_a_float_depth_buffer() {
    // DEPTH_COMPONENT32F: cleared to 0.375, the right half drawn at z = 0.5 (0.75) with
    // ALWAYS; read as floats, exact.
    let expected: Vec<u8> = [0.375f32, 0.375, 0.75, 0.75]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    read_scene(
        "read_depth_float_from_depth32f",
        8,
        8,
        |gl| {
            backdrop(gl);
            target(gl, RGBA8);
            let d = gl.gen_renderbuffer();
            gl.bind_renderbuffer(RENDERBUFFER, d);
            gl.renderbuffer_storage(RENDERBUFFER, DEPTH_COMPONENT32F, 4, 4);
            gl.framebuffer_renderbuffer(FRAMEBUFFER, DEPTH_ATTACHMENT, RENDERBUFFER, d);
            assert_eq!(
                gl.check_framebuffer_status(FRAMEBUFFER),
                FRAMEBUFFER_COMPLETE
            );
            gl.clear_depth(0.375);
            gl.clear(DEPTH_BUFFER_BIT);
            gl.enable(DEPTH_TEST);
            gl.depth_func(ALWAYS);
            gl.viewport(0, 0, 4, 4);
            depth_quad(gl, [0.5, 1.0, 0.5, 0.0], 0.5);
            gl.disable(DEPTH_TEST);
            read(gl, 0, 2, 4, 1, DEPTH_COMPONENT, FLOAT, 16)
        },
        &[probe(4, 4, BACKDROP)],
        &expected,
    );
}

#[test]
fn read_depth_as_float_from_the_default_framebuffer() {
    // The default framebuffer's 24-bit depth, cleared to 0.25; a quad over the right half
    // at z = 0.5 (0.75) fails LESS, so nothing changes. Depth d reads back as
    // round(d * (2^24 - 1)) / (2^24 - 1).
    let d24 = |d: f64| ((d * 16_777_215.0).round() / 16_777_215.0) as f32;
    let row = [d24(0.25), d24(0.25), d24(0.25), d24(0.25)];
    let expected: Vec<u8> = row.iter().flat_map(|v| v.to_le_bytes()).collect();
    read_scene(
        "read_depth_float_from_default",
        8,
        8,
        |gl| {
            gl.clear_depth(0.25);
            gl.clear(DEPTH_BUFFER_BIT | COLOR_BUFFER_BIT);
            gl.enable(DEPTH_TEST);
            gl.depth_func(LESS);
            depth_quad(gl, [0.5, 1.0, 0.5, 0.0], 0.5);
            gl.disable(DEPTH_TEST);
            read(gl, 2, 3, 4, 1, DEPTH_COMPONENT, FLOAT, 16)
        },
        &[probe(6, 4, [0, 0, 0, 0])],
        &expected,
    );
}

#[test]
fn read_depth_values_written_by_a_draw() {
    // Cleared to 1.0 (exact in 24 bits), the right half drawn at z = 0 with ALWAYS: 0.5
    // stored in 24 bits, read back as the nearest 24-bit value over (2^24 - 1).
    let d24 = |d: f64| ((d * 16_777_215.0).round() / 16_777_215.0) as f32;
    let row = [1.0f32, 1.0, d24(0.5), d24(0.5)];
    let expected: Vec<u8> = row.iter().flat_map(|v| v.to_le_bytes()).collect();
    read_scene(
        "read_depth_float_after_draw",
        8,
        8,
        |gl| {
            gl.clear_depth(1.0);
            gl.clear(DEPTH_BUFFER_BIT | COLOR_BUFFER_BIT);
            gl.enable(DEPTH_TEST);
            gl.depth_func(ALWAYS);
            depth_quad(gl, [0.5, 1.0, 0.5, 0.0], 0.0);
            gl.disable(DEPTH_TEST);
            read(gl, 2, 3, 4, 1, DEPTH_COMPONENT, FLOAT, 16)
        },
        &[probe(6, 4, [255, 128, 0, 255]), probe(1, 4, [0, 0, 0, 0])],
        &expected,
    );
}

#[test]
fn read_stencil_indices() {
    // Stencil cleared to 0x5A; the right half drawn with REPLACE 0x33; then a clear of
    // 0xFF through write mask 0x0F changes the low nibble of every pixel only.
    let expected = [0x5A, 0x5A, 0x33, 0x33, 0x5F, 0x5F, 0x3F, 0x3F];
    read_scene(
        "read_stencil_index",
        8,
        8,
        |gl| {
            gl.clear_stencil(0x5A);
            gl.clear(STENCIL_BUFFER_BIT | COLOR_BUFFER_BIT);
            gl.enable(STENCIL_TEST);
            gl.stencil_func(ALWAYS, 0x33, 0xFF);
            gl.stencil_op(KEEP, KEEP, REPLACE);
            depth_quad(gl, [0.5, 1.0, 0.5, 0.0], 0.0);
            gl.disable(STENCIL_TEST);
            gl.pixel_storei(PACK_ALIGNMENT, 1);
            let mut out = read(gl, 2, 3, 4, 1, STENCIL_INDEX, UNSIGNED_BYTE, 4);
            gl.stencil_mask(0x0F);
            gl.clear_stencil(0xFF);
            gl.clear(STENCIL_BUFFER_BIT);
            gl.stencil_mask(0xFF);
            out.extend(read(gl, 2, 3, 4, 1, STENCIL_INDEX, UNSIGNED_BYTE, 4));
            gl.pixel_storei(PACK_ALIGNMENT, 4);
            out
        },
        &[probe(6, 4, [255, 128, 0, 255]), probe(1, 4, [0, 0, 0, 0])],
        &expected,
    );
}

// ---------------------------------------------------------------------------------------
// Pack buffers

/// Reads the pattern's 4 x 2 rectangle at (2, 5) into a pack buffer at byte 32 and returns
/// the buffer's first 96 bytes through `fetch`.
fn pack_buffer_scene(name: &str, fetch: impl Fn(&mut dyn Gl) -> Vec<u8>) {
    let mut expected = vec![0x11u8; 96];
    expected[32..64].copy_from_slice(&layout(
        SENTINEL,
        32,
        (2, 5, 4, 2),
        |i, j| ((j * 4 + i) * 4) as usize,
        |c| c.to_vec(),
    ));
    read_scene(
        name,
        8,
        8,
        |gl| {
            pattern(gl, 8);
            let b = gl.gen_buffer();
            gl.bind_buffer(PIXEL_PACK_BUFFER, b);
            gl.buffer_data(PIXEL_PACK_BUFFER, 96, Some(&[0x11; 96]), STREAM_READ);
            gl.read_pixels_to_buffer(2, 5, 4, 2, RGBA, UNSIGNED_BYTE, 32);
            let out = fetch(gl);
            gl.bind_buffer(PIXEL_PACK_BUFFER, 0);
            out
        },
        &pattern_probes(),
        &expected,
    );
}

#[test]
fn pack_buffer_read_back_with_get_buffer_sub_data() {
    pack_buffer_scene("read_pack_buffer_get_sub_data", |gl| {
        let mut out = vec![SENTINEL; 96];
        gl.get_buffer_sub_data(PIXEL_PACK_BUFFER, 0, &mut out);
        out
    });
}

#[test]
fn pack_buffer_read_back_by_mapping() {
    pack_buffer_scene("read_pack_buffer_map", |gl| {
        gl.read_mapped(PIXEL_PACK_BUFFER, 0, 96)
    });
}

#[test]
fn pack_buffer_with_row_length_and_alignment() {
    // RGB into a pack buffer with PACK_ROW_LENGTH 5 and alignment 8: rows of 15 bytes
    // padded to 16; 3 x 2 pixels at (1, 1), from byte 0.
    let expected = layout(
        0,
        48,
        (1, 1, 3, 2),
        |i, j| (j * 16 + i * 3) as usize,
        |c| c[..3].to_vec(),
    );
    read_scene(
        "read_pack_buffer_row_length_alignment",
        8,
        8,
        |gl| {
            pattern(gl, 8);
            let b = gl.gen_buffer();
            gl.bind_buffer(PIXEL_PACK_BUFFER, b);
            gl.buffer_data(PIXEL_PACK_BUFFER, 48, Some(&[0; 48]), STREAM_READ);
            gl.pixel_storei(PACK_ROW_LENGTH, 5);
            gl.pixel_storei(PACK_ALIGNMENT, 8);
            gl.read_pixels_to_buffer(1, 1, 3, 2, RGB, UNSIGNED_BYTE, 0);
            gl.pixel_storei(PACK_ROW_LENGTH, 0);
            gl.pixel_storei(PACK_ALIGNMENT, 4);
            let mut out = vec![SENTINEL; 48];
            gl.get_buffer_sub_data(PIXEL_PACK_BUFFER, 0, &mut out);
            gl.bind_buffer(PIXEL_PACK_BUFFER, 0);
            out
        },
        &pattern_probes(),
        &expected,
    );
}

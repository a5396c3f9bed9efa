//! `glGetTextureSubImage` and `glGetCompressedTextureSubImage` (GL 4.5,
//! `ARB_get_texture_sub_image`) against the native driver on both backends (Vulkan with the
//! validation layer on, which must report nothing): boxes of 1D, 2D, 2D array, 3D and cube
//! map images (faces as z) under pack states, into client memory and a pixel pack buffer,
//! boxes of RGTC blocks, and Mesa's errors, every byte and error exactly the native one.

#![expect(
    unsafe_code,
    reason = "the native driver's entry points, called through their C signatures"
)]

use std::ffi::c_void;

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::{Pixels, PixelsMut};
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// A box: offset and size.
type Region = ([i32; 3], [i32; 3]);

/// What a scene read: each read's bytes and the error it raised.
type Transcript = Vec<(Vec<u8>, GLenum)>;

/// The calls these transcripts make, beyond [`Gl`].
trait SubImage: Gl {
    /// `glGetTextureSubImage` into `buf_size` bytes of client memory (the bytes, which
    /// start as 0xEE).
    fn sub_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        region: Region,
        format: (GLenum, GLenum),
        buf_size: usize,
    ) -> Vec<u8>;
    /// `glGetTextureSubImage` into the pixel pack buffer at `offset`.
    fn sub_image_to_buffer(
        &mut self,
        texture: GLuint,
        level: GLint,
        region: Region,
        format: (GLenum, GLenum),
        offset: usize,
    );
    /// `glGetCompressedTextureSubImage` into `buf_size` bytes of client memory.
    fn compressed_sub_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        region: Region,
        buf_size: usize,
    ) -> Vec<u8>;
    /// `glCompressedTexImage2D`.
    fn compressed_image_2d(&mut self, target: GLenum, format: GLenum, w: i32, h: i32, d: &[u8]);
}

impl SubImage for Context {
    fn sub_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        (o, s): Region,
        (format, ty): (GLenum, GLenum),
        buf_size: usize,
    ) -> Vec<u8> {
        let mut out = vec![0xEE; buf_size];
        let px = PixelsMut::Bytes(&mut out);
        self.get_texture_sub_image(texture, level, o, s, format, ty, buf_size as i32, px);
        out
    }
    fn sub_image_to_buffer(
        &mut self,
        texture: GLuint,
        level: GLint,
        (o, s): Region,
        (format, ty): (GLenum, GLenum),
        offset: usize,
    ) {
        let px = PixelsMut::Offset(offset);
        self.get_texture_sub_image(texture, level, o, s, format, ty, 0, px);
    }
    fn compressed_sub_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        (o, s): Region,
        buf_size: usize,
    ) -> Vec<u8> {
        let mut out = vec![0xEE; buf_size];
        let px = PixelsMut::Bytes(&mut out);
        self.get_compressed_texture_sub_image(texture, level, o, s, buf_size as i32, px);
        out
    }
    fn compressed_image_2d(&mut self, target: GLenum, format: GLenum, w: i32, h: i32, d: &[u8]) {
        let n = d.len() as i32;
        self.compressed_tex_image_2d(target, 0, format, w, h, 0, n, Pixels::Bytes(d));
    }
}

/// The native entry point `name` as the C signature `F`.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point::<F>(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

type GetSub = unsafe extern "system" fn(
    GLuint,
    GLint,
    GLint,
    GLint,
    GLint,
    GLsizei,
    GLsizei,
    GLsizei,
    GLenum,
    GLenum,
    GLsizei,
    *mut c_void,
);

type GetCompressedSub = unsafe extern "system" fn(
    GLuint,
    GLint,
    GLint,
    GLint,
    GLint,
    GLsizei,
    GLsizei,
    GLsizei,
    GLsizei,
    *mut c_void,
);

impl SubImage for NativeGl {
    fn sub_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        (o, s): Region,
        (format, ty): (GLenum, GLenum),
        buf_size: usize,
    ) -> Vec<u8> {
        let mut out = vec![0xEE; buf_size];
        let f: GetSub = native(self, "glGetTextureSubImage");
        let p = out.as_mut_ptr().cast();
        let n = buf_size as i32;
        // SAFETY: the native context is current; `out` holds `buf_size` bytes.
        unsafe {
            f(
                texture, level, o[0], o[1], o[2], s[0], s[1], s[2], format, ty, n, p,
            )
        };
        out
    }
    fn sub_image_to_buffer(
        &mut self,
        texture: GLuint,
        level: GLint,
        (o, s): Region,
        (format, ty): (GLenum, GLenum),
        offset: usize,
    ) {
        let f: GetSub = native(self, "glGetTextureSubImage");
        let p = offset as *mut c_void;
        // SAFETY: the native context is current; a pack buffer is bound, so `p` is an offset.
        unsafe {
            f(
                texture, level, o[0], o[1], o[2], s[0], s[1], s[2], format, ty, 0, p,
            )
        };
    }
    fn compressed_sub_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        (o, s): Region,
        buf_size: usize,
    ) -> Vec<u8> {
        let mut out = vec![0xEE; buf_size];
        let f: GetCompressedSub = native(self, "glGetCompressedTextureSubImage");
        let p = out.as_mut_ptr().cast();
        let n = buf_size as i32;
        // SAFETY: the native context is current; `out` holds `buf_size` bytes.
        unsafe { f(texture, level, o[0], o[1], o[2], s[0], s[1], s[2], n, p) };
        out
    }
    fn compressed_image_2d(&mut self, target: GLenum, format: GLenum, w: i32, h: i32, d: &[u8]) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLint,
            GLenum,
            GLsizei,
            GLsizei,
            GLint,
            GLsizei,
            *const c_void,
        );
        let f: F = native(self, "glCompressedTexImage2D");
        let n = d.len() as i32;
        // SAFETY: the native context is current; `d` holds `n` bytes.
        unsafe { f(target, 0, format, w, h, 0, n, d.as_ptr().cast()) };
    }
}

/// `n` bytes of a pattern seeded by `seed`.
fn bytes(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(29).wrapping_add(seed) ^ (i >> 8) as u8)
        .collect()
}

const RGBA_BYTES: (GLenum, GLenum) = (RGBA, UNSIGNED_BYTE);

/// A texture of `target` bound and given `level` images by `define`.
fn texture(gl: &mut dyn SubImage, target: GLenum, define: impl Fn(&mut dyn SubImage)) -> GLuint {
    let t = gl.gen_texture();
    gl.bind_texture(target, t);
    define(gl);
    t
}

/// The transcript of uncompressed boxes and errors: the bytes each read leaves and the
/// error after it.
fn uncompressed(gl: &mut dyn SubImage) -> Transcript {
    let mut t = Vec::new();
    let d2 = texture(gl, TEXTURE_2D, |gl| {
        let b = bytes(8 * 8 * 4, 1);
        gl.tex_image_2d(
            TEXTURE_2D,
            0,
            RGBA8 as i32,
            8,
            8,
            0,
            RGBA,
            UNSIGNED_BYTE,
            Some(&b),
        );
        let b = bytes(4 * 4 * 4, 9);
        gl.tex_image_2d(
            TEXTURE_2D,
            1,
            RGBA8 as i32,
            4,
            4,
            0,
            RGBA,
            UNSIGNED_BYTE,
            Some(&b),
        );
    });
    let mut read = |gl: &mut dyn SubImage, tex, level, region, format, n| {
        let got = gl.sub_image(tex, level, region, format, n);
        let err = gl.get_error();
        t.push((got, err));
    };
    read(gl, d2, 0, ([2, 3, 0], [4, 2, 1]), RGBA_BYTES, 64);
    read(gl, d2, 1, ([0, 0, 0], [4, 4, 1]), RGBA_BYTES, 64);
    read(gl, d2, 1, ([1, 1, 0], [3, 3, 1]), RGBA_BYTES, 64);
    read(gl, d2, 0, ([0, 0, 0], [8, 8, 1]), RGBA_BYTES, 256);
    read(gl, d2, 0, ([5, 1, 0], [3, 2, 1]), (RGB, UNSIGNED_BYTE), 32);
    read(gl, d2, 0, ([5, 1, 0], [3, 2, 1]), (BGRA, UNSIGNED_BYTE), 32);
    read(gl, d2, 0, ([5, 1, 0], [2, 2, 1]), (RGBA, FLOAT), 64);
    // The pack state shapes the box as it shapes a whole image.
    gl.pixel_storei(PACK_ROW_LENGTH, 7);
    gl.pixel_storei(PACK_SKIP_PIXELS, 1);
    gl.pixel_storei(PACK_SKIP_ROWS, 2);
    read(gl, d2, 0, ([1, 1, 0], [3, 3, 1]), RGBA_BYTES, 160);
    read(gl, d2, 0, ([1, 1, 0], [3, 3, 1]), RGBA_BYTES, 130);
    gl.pixel_storei(PACK_ROW_LENGTH, 0);
    gl.pixel_storei(PACK_SKIP_PIXELS, 0);
    gl.pixel_storei(PACK_SKIP_ROWS, 0);
    gl.pixel_storei(PACK_ALIGNMENT, 8);
    read(gl, d2, 0, ([0, 0, 0], [3, 2, 1]), (RGB, UNSIGNED_BYTE), 32);
    gl.pixel_storei(PACK_ALIGNMENT, 4);
    // Errors, in Mesa's order.
    for (level, region, format, n) in [
        (0, ([2, 3, 0], [4, 2, 1]), RGBA_BYTES, 31),
        (0, ([-1, 0, 0], [1, 1, 1]), RGBA_BYTES, 64),
        (0, ([0, 0, 0], [-1, 1, 1]), RGBA_BYTES, 64),
        (0, ([0, 0, 1], [1, 1, 1]), RGBA_BYTES, 64),
        (0, ([0, 0, 0], [1, 1, 2]), RGBA_BYTES, 64),
        (0, ([6, 0, 0], [3, 1, 1]), RGBA_BYTES, 64),
        (0, ([0, 7, 0], [1, 2, 1]), RGBA_BYTES, 64),
        (1, ([0, 0, 0], [5, 1, 1]), RGBA_BYTES, 128),
        (2, ([0, 0, 0], [1, 1, 1]), RGBA_BYTES, 64),
        (3, ([0, 0, 0], [0, 0, 1]), RGBA_BYTES, 64),
        (-1, ([0, 0, 0], [1, 1, 1]), RGBA_BYTES, 64),
        (20, ([0, 0, 0], [1, 1, 1]), RGBA_BYTES, 64),
        (0, ([0, 0, 0], [1, 1, 1]), (RGBA, 0x1234), 64),
        (0, ([0, 0, 0], [1, 1, 1]), (0x1234, UNSIGNED_BYTE), 64),
        (0, ([0, 0, 0], [1, 1, 1]), (RGBA_INTEGER, UNSIGNED_BYTE), 64),
        (0, ([0, 0, 0], [1, 1, 1]), (DEPTH_COMPONENT, FLOAT), 64),
        (0, ([0, 0, 0], [1, 1, 1]), (RGB, UNSIGNED_SHORT_4_4_4_4), 64),
        (0, ([0, 0, 0], [0, 1, 1]), RGBA_BYTES, 0),
        (0, ([9, 0, 0], [0, 1, 1]), RGBA_BYTES, 0),
    ] {
        read(gl, d2, level, region, format, n);
    }
    read(gl, 999, 0, ([0, 0, 0], [1, 1, 1]), RGBA_BYTES, 64);
    let reserved = gl.gen_texture();
    read(gl, reserved, 0, ([0, 0, 0], [1, 1, 1]), RGBA_BYTES, 64);
    let ms = texture(gl, TEXTURE_2D_MULTISAMPLE, |_| {});
    read(gl, ms, 0, ([0, 0, 0], [1, 1, 1]), RGBA_BYTES, 64);
    // 1D: one row.
    let d1 = texture(gl, TEXTURE_1D, |gl| {
        let b = bytes(8 * 4, 3);
        gl.tex_image_1d(
            TEXTURE_1D,
            0,
            RGBA8 as i32,
            8,
            0,
            RGBA,
            UNSIGNED_BYTE,
            Some(&b),
        );
    });
    read(gl, d1, 0, ([3, 0, 0], [4, 1, 1]), RGBA_BYTES, 32);
    read(gl, d1, 0, ([3, 0, 0], [4, 2, 1]), RGBA_BYTES, 64);
    read(gl, d1, 0, ([3, 1, 0], [4, 1, 1]), RGBA_BYTES, 64);
    // A 2D array: layers as z; a 3D texture: slices.
    for target in [TEXTURE_2D_ARRAY, TEXTURE_3D] {
        let tex = texture(gl, target, |gl| {
            let b = bytes(4 * 4 * 5 * 4, 5);
            let i = RGBA8 as i32;
            gl.tex_image_3d(target, 0, i, 4, 4, 5, 0, RGBA, UNSIGNED_BYTE, Some(&b));
        });
        read(gl, tex, 0, ([1, 0, 1], [2, 3, 3]), RGBA_BYTES, 96);
        read(gl, tex, 0, ([0, 0, 4], [4, 4, 1]), RGBA_BYTES, 64);
        read(gl, tex, 0, ([0, 0, 3], [4, 4, 3]), RGBA_BYTES, 256);
        gl.pixel_storei(PACK_IMAGE_HEIGHT, 5);
        gl.pixel_storei(PACK_SKIP_IMAGES, 1);
        read(gl, tex, 0, ([1, 1, 1], [2, 2, 2]), RGBA_BYTES, 256);
        gl.pixel_storei(PACK_IMAGE_HEIGHT, 0);
        gl.pixel_storei(PACK_SKIP_IMAGES, 0);
    }
    // A cube map: faces as z, cube complete or INVALID_OPERATION.
    let cube = texture(gl, TEXTURE_CUBE_MAP, |gl| {
        for face in 0..6 {
            let b = bytes(4 * 4 * 4, 40 + face as u8);
            let target = TEXTURE_CUBE_MAP_POSITIVE_X + face;
            gl.tex_image_2d(
                target,
                0,
                RGBA8 as i32,
                4,
                4,
                0,
                RGBA,
                UNSIGNED_BYTE,
                Some(&b),
            );
        }
    });
    read(gl, cube, 0, ([1, 1, 2], [2, 3, 3]), RGBA_BYTES, 96);
    read(gl, cube, 0, ([0, 0, 0], [4, 4, 6]), RGBA_BYTES, 384);
    read(gl, cube, 0, ([0, 0, 5], [4, 4, 1]), RGBA_BYTES, 64);
    read(gl, cube, 0, ([0, 0, 4], [1, 1, 3]), RGBA_BYTES, 64);
    read(gl, cube, 0, ([0, 0, 6], [1, 1, 1]), RGBA_BYTES, 64);
    gl.pixel_storei(PACK_IMAGE_HEIGHT, 5);
    read(gl, cube, 0, ([1, 1, 1], [2, 2, 2]), RGBA_BYTES, 96);
    gl.pixel_storei(PACK_IMAGE_HEIGHT, 0);
    let half = texture(gl, TEXTURE_CUBE_MAP, |gl| {
        let b = bytes(4 * 4 * 4, 7);
        let target = TEXTURE_CUBE_MAP_POSITIVE_X;
        gl.tex_image_2d(
            target,
            0,
            RGBA8 as i32,
            4,
            4,
            0,
            RGBA,
            UNSIGNED_BYTE,
            Some(&b),
        );
    });
    read(gl, half, 0, ([0, 0, 0], [1, 1, 1]), RGBA_BYTES, 64);
    // An integer texture reads as integers only.
    let int = texture(gl, TEXTURE_2D, |gl| {
        let b = bytes(4 * 4 * 4, 11);
        let i = RGBA8UI as i32;
        gl.tex_image_2d(
            TEXTURE_2D,
            0,
            i,
            4,
            4,
            0,
            RGBA_INTEGER,
            UNSIGNED_BYTE,
            Some(&b),
        );
    });
    read(
        gl,
        int,
        0,
        ([1, 1, 0], [2, 2, 1]),
        (RGBA_INTEGER, UNSIGNED_BYTE),
        16,
    );
    read(gl, int, 0, ([1, 1, 0], [2, 2, 1]), RGBA_BYTES, 16);
    // Into a pixel pack buffer: the box lands at the offset, the rest of the buffer stays.
    let buffer = gl.gen_buffer();
    gl.bind_buffer(PIXEL_PACK_BUFFER, buffer);
    gl.buffer_data(PIXEL_PACK_BUFFER, 256, Some(&[0x55; 256]), STREAM_READ);
    for (tex, region, offset) in [
        (d2, ([2, 3, 0], [4, 2, 1]), 16),
        (cube, ([1, 0, 3], [3, 2, 2]), 100),
        (d2, ([0, 0, 0], [8, 8, 1]), 4),
        (d2, ([0, 0, 0], [8, 8, 1]), 0),
    ] {
        gl.sub_image_to_buffer(tex, 0, region, RGBA_BYTES, offset);
        let err = gl.get_error();
        let mut out = vec![0; 256];
        gl.get_buffer_sub_data(PIXEL_PACK_BUFFER, 0, &mut out);
        t.push((out, err));
    }
    gl.bind_buffer(PIXEL_PACK_BUFFER, 0);
    t
}

/// The transcript of compressed boxes (RGTC blocks of 8 bytes) and errors.
fn compressed(gl: &mut dyn SubImage) -> Transcript {
    let mut t = Vec::new();
    let rgtc = COMPRESSED_RED_RGTC1;
    let d2 = texture(gl, TEXTURE_2D, |gl| {
        gl.compressed_image_2d(TEXTURE_2D, rgtc, 12, 10, &bytes(3 * 3 * 8, 3));
    });
    let cube = texture(gl, TEXTURE_CUBE_MAP, |gl| {
        for face in 0..6 {
            let target = TEXTURE_CUBE_MAP_POSITIVE_X + face;
            gl.compressed_image_2d(target, rgtc, 8, 8, &bytes(2 * 2 * 8, 60 + face as u8));
        }
    });
    let plain = texture(gl, TEXTURE_2D, |gl| {
        let b = bytes(4 * 4 * 4, 1);
        gl.tex_image_2d(
            TEXTURE_2D,
            0,
            RGBA8 as i32,
            4,
            4,
            0,
            RGBA,
            UNSIGNED_BYTE,
            Some(&b),
        );
    });
    for (tex, level, region, n) in [
        (d2, 0, ([4, 4, 0], [4, 4, 1]), 32),
        (d2, 0, ([0, 0, 0], [12, 10, 1]), 96),
        (d2, 0, ([4, 8, 0], [8, 2, 1]), 32),
        (d2, 0, ([8, 0, 0], [4, 8, 1]), 32),
        (d2, 0, ([4, 4, 0], [4, 4, 1]), 7),
        (d2, 0, ([2, 0, 0], [4, 4, 1]), 32),
        (d2, 0, ([0, 2, 0], [4, 4, 1]), 32),
        (d2, 0, ([0, 0, 0], [2, 4, 1]), 32),
        (d2, 0, ([0, 0, 0], [4, 6, 1]), 32),
        (d2, 0, ([0, 0, 0], [16, 4, 1]), 32),
        (d2, 0, ([0, 0, 1], [4, 4, 1]), 32),
        (d2, 0, ([0, 0, 0], [0, 4, 1]), 32),
        (d2, -1, ([0, 0, 0], [4, 4, 1]), 32),
        (d2, 1, ([0, 0, 0], [4, 4, 1]), 32),
        (cube, 0, ([4, 0, 1], [4, 8, 4]), 256),
        (cube, 0, ([0, 0, 5], [8, 8, 1]), 32),
        (cube, 0, ([0, 0, 5], [8, 8, 2]), 256),
        (plain, 0, ([0, 0, 0], [4, 4, 1]), 64),
        (999, 0, ([0, 0, 0], [4, 4, 1]), 64),
    ] {
        let got = gl.compressed_sub_image(tex, level, region, n);
        let err = gl.get_error();
        t.push((got, err));
    }
    // The pack state's compressed block parameters.
    gl.pixel_storei(PACK_COMPRESSED_BLOCK_WIDTH, 4);
    gl.pixel_storei(PACK_COMPRESSED_BLOCK_HEIGHT, 4);
    gl.pixel_storei(PACK_COMPRESSED_BLOCK_SIZE, 8);
    gl.pixel_storei(PACK_ROW_LENGTH, 12);
    gl.pixel_storei(PACK_SKIP_PIXELS, 4);
    let got = gl.compressed_sub_image(d2, 0, ([4, 0, 0], [8, 8, 1]), 64);
    let err = gl.get_error();
    t.push((got, err));
    gl.pixel_storei(PACK_SKIP_PIXELS, 2);
    let got = gl.compressed_sub_image(d2, 0, ([4, 0, 0], [8, 8, 1]), 64);
    let err = gl.get_error();
    t.push((got, err));
    t
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare(scene: fn(&mut dyn SubImage) -> Transcript) {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    assert!(
        expected.iter().any(|(_, e)| *e == NO_ERROR)
            && expected.iter().any(|(_, e)| *e != NO_ERROR),
        "the transcript has reads and errors"
    );
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = scene(&mut ctx);
            for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
                assert!(
                    g == e,
                    "{} {}: step {i}: got {g:?}, native {e:?}",
                    backend.name(),
                    transport.name()
                );
            }
            assert_eq!(got.len(), expected.len());
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

#[test]
fn boxes_of_uncompressed_images_match_the_native_driver() {
    compare(uncompressed);
}

#[test]
fn boxes_of_compressed_images_match_the_native_driver() {
    compare(compressed);
}

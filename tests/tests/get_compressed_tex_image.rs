//! `glGetCompressedTexImage` against the native driver on both backends (Vulkan with the
//! validation layer on, which must report nothing): the errors (targets, levels, an
//! uncompressed image, skips that are not whole blocks, a pack buffer too small), and the
//! blocks read back from RGTC, BPTC and ETC2/EAC images (2D of sizes off the block grid,
//! immutable storage, a 2D array, cube faces, a 3D texture) after compressed sub-images and copies between
//! compressed images, tightly packed and placed by the pack state's compressed block
//! parameters (`ARB_compressed_texture_pixel_storage`: row length, skipped pixels, rows
//! and images, image height), into client memory and into a pixel pack buffer. Errors and
//! bytes (the untouched ones too) must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's compressed-image entry points, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::PixelsMut;
use tessera_tests::gl::NativeGl;

use super::texture_compression_bptc::BptcGl;

/// The read-back calls, besides what [`BptcGl`] has.
trait ReadBackGl: BptcGl {
    /// `glGetCompressedTexImage` into `out` (client memory; no pack buffer bound).
    fn get_compressed(&mut self, target: GLenum, level: GLint, out: &mut [u8]);
    /// `glGetCompressedTexImage` at `offset` of the bound pixel pack buffer.
    fn get_compressed_at(&mut self, target: GLenum, level: GLint, offset: usize);
    /// `glCopyImageSubData` between two textures of `target`.
    fn copy_image(
        &mut self,
        target: GLenum,
        src: (GLuint, [i32; 3]),
        dst: (GLuint, [i32; 3]),
        size: [i32; 3],
    );
}

impl ReadBackGl for Context {
    fn get_compressed(&mut self, target: GLenum, level: GLint, out: &mut [u8]) {
        // What the C ABI hands over: the bytes the call may touch.
        let n = self
            .get_compressed_tex_image_len(target, level)
            .min(out.len());
        self.get_compressed_tex_image(target, level, PixelsMut::Bytes(&mut out[..n]));
    }
    fn get_compressed_at(&mut self, target: GLenum, level: GLint, offset: usize) {
        self.get_compressed_tex_image(target, level, PixelsMut::Offset(offset));
    }
    fn copy_image(
        &mut self,
        target: GLenum,
        src: (GLuint, [i32; 3]),
        dst: (GLuint, [i32; 3]),
        [w, h, d]: [i32; 3],
    ) {
        let (s, t) = (src.1, dst.1);
        self.copy_image_sub_data(
            src.0, target, 0, s[0], s[1], s[2], dst.0, target, 0, t[0], t[1], t[2], w, h, d,
        );
    }
}

/// Calls the native entry point `$name` of C signature `$ty` with `$args`.
macro_rules! native {
    ($gl:expr, $name:literal, $ty:ty, $($args:expr),*) => {{
        let f: $ty = $gl.entry_point($name).expect($name);
        // SAFETY: the pointer is the driver's `$name` with its exact C signature `$ty`, called
        // while the context is current; every argument is by value or a pointer valid for
        // what the call reads or writes.
        unsafe { f($($args),*) }
    }};
}

impl ReadBackGl for NativeGl {
    fn get_compressed(&mut self, target: GLenum, level: GLint, out: &mut [u8]) {
        type F = unsafe extern "system" fn(GLenum, GLint, *mut u8);
        native!(
            self,
            "glGetCompressedTexImage",
            F,
            target,
            level,
            out.as_mut_ptr()
        )
    }
    fn get_compressed_at(&mut self, target: GLenum, level: GLint, offset: usize) {
        type F = unsafe extern "system" fn(GLenum, GLint, *mut u8);
        native!(
            self,
            "glGetCompressedTexImage",
            F,
            target,
            level,
            offset as *mut u8
        )
    }
    fn copy_image(
        &mut self,
        target: GLenum,
        src: (GLuint, [i32; 3]),
        dst: (GLuint, [i32; 3]),
        [w, h, d]: [i32; 3],
    ) {
        type F = unsafe extern "system" fn(
            GLuint,
            GLenum,
            GLint,
            GLint,
            GLint,
            GLint,
            GLuint,
            GLenum,
            GLint,
            GLint,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
            GLsizei,
        );
        let (s, t) = (src.1, dst.1);
        native!(
            self,
            "glCopyImageSubData",
            F,
            src.0,
            target,
            0,
            s[0],
            s[1],
            s[2],
            dst.0,
            target,
            0,
            t[0],
            t[1],
            t[2],
            w,
            h,
            d
        )
    }
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match step
/// by step with no validation message; returns the native result.
fn compare_read(
    scene: impl Fn(&mut dyn ReadBackGl) -> Vec<(GLenum, Vec<u8>)>,
) -> Vec<(GLenum, Vec<u8>)> {
    let native = {
        let mut gl = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
        scene(&mut gl)
    };
    for backend in tessera_tests::differential::Backend::ALL {
        for transport in [
            tessera_engine::wire::TransportKind::Inproc,
            tessera_engine::wire::TransportKind::Thread,
        ] {
            let mut ctx =
                tessera_tests::differential::tessera_on(backend, transport.clone(), 16, 16);
            let got = scene(&mut ctx);
            for (i, (g, n)) in got.iter().zip(&native).enumerate() {
                assert_eq!(g, n, "{} {}: step {i}", backend.name(), transport.name());
            }
            assert_eq!(got.len(), native.len());
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    native
}

/// Pseudo-random bytes (every bit pattern is a valid RGTC, BPTC or ETC2/EAC block as far
/// as storage goes).
fn noise(seed: u32, n: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761).max(1);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 11) as u8
        })
        .collect()
}

/// Bytes of one block of `format`.
fn block(format: GLenum) -> usize {
    match format {
        COMPRESSED_RED_RGTC1
        | COMPRESSED_SIGNED_RED_RGTC1
        | COMPRESSED_RGB8_ETC2
        | COMPRESSED_SRGB8_ETC2
        | COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2
        | COMPRESSED_R11_EAC
        | COMPRESSED_SIGNED_R11_EAC => 8,
        _ => 16,
    }
}

/// Bytes of a `w`x`h` image of `format`.
fn image_bytes(format: GLenum, w: i32, h: i32) -> usize {
    (w as usize).div_ceil(4) * (h as usize).div_ceil(4) * block(format)
}

/// A read-back into 1024 bytes of client memory filled with 0xa5: the error and the bytes.
fn read(gl: &mut dyn ReadBackGl, target: GLenum, level: GLint) -> (GLenum, Vec<u8>) {
    let mut out = vec![0xa5; 1024];
    gl.get_compressed(target, level, &mut out);
    (gl.get_error(), out)
}

/// Sets the pack state's compressed block to `[width, height, depth, size]` and
/// `[row length, skip pixels, skip rows, image height, skip images]`.
fn pack(
    gl: &mut dyn ReadBackGl,
    blocks: [GLint; 4],
    [row, pixels, rows, height, images]: [GLint; 5],
) {
    let names = [
        PACK_COMPRESSED_BLOCK_WIDTH,
        PACK_COMPRESSED_BLOCK_HEIGHT,
        PACK_COMPRESSED_BLOCK_DEPTH,
        PACK_COMPRESSED_BLOCK_SIZE,
    ];
    for (p, v) in names.into_iter().zip(blocks) {
        gl.pixel_storei(p, v);
    }
    for (p, v) in [
        (PACK_ROW_LENGTH, row),
        (PACK_SKIP_PIXELS, pixels),
        (PACK_SKIP_ROWS, rows),
        (PACK_IMAGE_HEIGHT, height),
        (PACK_SKIP_IMAGES, images),
    ] {
        gl.pixel_storei(p, v);
    }
}

/// The errors: a target without images, levels out of range, a level without an image
/// (`INVALID_VALUE` for 2D, as Mesa checks its 0x0x0 size; no error for an array), an uncompressed image, a skip that is not whole blocks, a pack
/// buffer too small, and a pixel pack buffer offset that fits.
fn errors(gl: &mut dyn ReadBackGl) -> Vec<(GLenum, Vec<u8>)> {
    let f = COMPRESSED_RED_RGTC1;
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    gl.compressed_image_2d(TEXTURE_2D, 0, f, [8, 8], 0, &noise(1, 32));
    let mut out = vec![(gl.get_error(), Vec::new())];
    out.push(read(gl, TEXTURE_CUBE_MAP, 0));
    out.push(read(gl, TEXTURE_2D_MULTISAMPLE, 0));
    out.push(read(gl, TEXTURE_2D, -1));
    out.push(read(gl, TEXTURE_2D, 20));
    out.push(read(gl, TEXTURE_2D, 2));
    let e = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D_ARRAY, e);
    out.push(read(gl, TEXTURE_2D_ARRAY, 0));
    pack(gl, [4, 4, 1, 8], [0, 3, 0, 0, 0]);
    out.push(read(gl, TEXTURE_2D, 0));
    pack(gl, [4, 4, 1, 8], [0, 0, 2, 0, 0]);
    out.push(read(gl, TEXTURE_2D, 0));
    // Skips count only with the block size set.
    pack(gl, [4, 4, 1, 0], [0, 3, 2, 0, 0]);
    out.push(read(gl, TEXTURE_2D, 0));
    pack(gl, [0; 4], [0; 5]);
    let u = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, u);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        4,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    out.push(read(gl, TEXTURE_2D, 0));
    gl.bind_texture(TEXTURE_2D, t);
    let pbo = gl.gen_buffer();
    gl.bind_buffer(PIXEL_PACK_BUFFER, pbo);
    gl.buffer_data(PIXEL_PACK_BUFFER, 40, Some(&[0x5a; 40]), STREAM_READ);
    for offset in [9, 8, 0] {
        gl.get_compressed_at(TEXTURE_2D, 0, offset);
        let mut bytes = vec![0; 40];
        let e = gl.get_error();
        gl.get_buffer_sub_data(PIXEL_PACK_BUFFER, 0, &mut bytes);
        out.push((e, bytes));
    }
    gl.bind_buffer(PIXEL_PACK_BUFFER, 0);
    out
}

#[test]
fn errors_match_the_native_driver() {
    let lines = compare_read(errors);
    let e: Vec<GLenum> = lines.iter().map(|l| l.0).collect();
    assert_eq!(
        e,
        [
            NO_ERROR,
            INVALID_ENUM,
            INVALID_ENUM,
            INVALID_VALUE,
            INVALID_VALUE,
            INVALID_VALUE,
            NO_ERROR,
            INVALID_OPERATION,
            INVALID_OPERATION,
            NO_ERROR,
            INVALID_OPERATION,
            INVALID_OPERATION,
            NO_ERROR,
            NO_ERROR,
        ]
    );
    assert!(
        lines[5].1.iter().all(|&b| b == 0xa5),
        "a level without an image writes nothing"
    );
}

/// Every family's blocks in 2D images of sizes on and off the block grid, after a
/// compressed sub-image, and a copy between two images of one format.
fn blocks_2d(gl: &mut dyn ReadBackGl) -> Vec<(GLenum, Vec<u8>)> {
    let mut out = Vec::new();
    for (i, f) in [
        COMPRESSED_RED_RGTC1,
        COMPRESSED_SIGNED_RG_RGTC2,
        COMPRESSED_RGBA_BPTC_UNORM,
        COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT,
        COMPRESSED_RGB8_ETC2,
        COMPRESSED_RGBA8_ETC2_EAC,
        COMPRESSED_R11_EAC,
        COMPRESSED_SIGNED_RG11_EAC,
    ]
    .into_iter()
    .enumerate()
    {
        let seed = i as u32 * 16;
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, t);
        let bytes = noise(seed + 1, image_bytes(f, 10, 6));
        gl.compressed_image_2d(TEXTURE_2D, 0, f, [10, 6], 0, &bytes);
        out.push(read(gl, TEXTURE_2D, 0));
        let sub = noise(seed + 2, image_bytes(f, 6, 2));
        gl.compressed_sub_image_2d(TEXTURE_2D, 0, [4, 4, 6, 2], f, &sub, sub.len());
        out.push(read(gl, TEXTURE_2D, 0));
        let bytes = noise(seed + 3, image_bytes(f, 2, 2));
        gl.compressed_image_2d(
            TEXTURE_2D,
            1,
            f,
            [5, 3],
            0,
            &noise(seed + 4, image_bytes(f, 5, 3)),
        );
        gl.compressed_image_2d(TEXTURE_2D, 2, f, [2, 1], 0, &bytes[..block(f)]);
        out.push(read(gl, TEXTURE_2D, 1));
        out.push(read(gl, TEXTURE_2D, 2));
        let e = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D_ARRAY, e);
        out.push(read(gl, TEXTURE_2D_ARRAY, 0));
        // Complete textures, as glCopyImageSubData asks.
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_LEVEL, 2);
        let u = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, u);
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_LEVEL, 0);
        let n = image_bytes(f, 10, 8);
        gl.compressed_image_2d(TEXTURE_2D, 0, f, [10, 8], 0, &noise(seed + 5, n));
        gl.copy_image(TEXTURE_2D, (t, [4, 0, 0]), (u, [4, 4, 0]), [6, 4, 1]);
        out.push(read(gl, TEXTURE_2D, 0));
    }
    out
}

/// Immutable storage of ETC2/EAC and RGTC: level 1 written whole by a sub-image (what
/// storage holds before a write is undefined, and native llvmpipe's is not zeros).
fn storage(gl: &mut dyn ReadBackGl) -> Vec<(GLenum, Vec<u8>)> {
    let mut out = Vec::new();
    for (i, f) in [
        COMPRESSED_RGBA8_ETC2_EAC,
        COMPRESSED_RG11_EAC,
        COMPRESSED_RED_RGTC1,
    ]
    .into_iter()
    .enumerate()
    {
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, t);
        gl.tex_storage_2d(TEXTURE_2D, 3, f, 12, 8);
        let sub = noise(90 + i as u32, image_bytes(f, 6, 4));
        gl.compressed_sub_image_2d(TEXTURE_2D, 1, [0, 0, 6, 4], f, &sub, sub.len());
        out.push(read(gl, TEXTURE_2D, 1));
    }
    out
}

#[test]
fn immutable_storage_reads_back_as_on_the_native_driver() {
    let lines = compare_read(storage);
    let e: Vec<GLenum> = lines.iter().map(|l| l.0).collect();
    assert!(e.iter().all(|&e| e == NO_ERROR), "{e:?}");
    assert!(lines[0].1.iter().any(|&b| b != 0 && b != 0xa5));
}

#[test]
fn blocks_read_back_as_on_the_native_driver() {
    let lines = compare_read(blocks_2d);
    let e: Vec<GLenum> = lines.iter().map(|l| l.0).collect();
    assert!(e.iter().all(|&e| e == NO_ERROR), "{e:?}");
    assert_ne!(lines[0].1, lines[1].1, "the sub-image changed blocks");
}

/// A 2D array, cube faces and a 3D texture, tight and placed by the pack state into client
/// memory, then into a pixel pack buffer (tightly, and with gaps).
fn layered(gl: &mut dyn ReadBackGl) -> Vec<(GLenum, Vec<u8>)> {
    let mut out = Vec::new();
    let f = COMPRESSED_RGBA_BPTC_UNORM;
    let a = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D_ARRAY, a);
    let n = image_bytes(f, 8, 8) * 3;
    gl.compressed_image_3d(TEXTURE_2D_ARRAY, 0, f, [8, 8, 3], &noise(40, n), n);
    out.push(read(gl, TEXTURE_2D_ARRAY, 0));
    // Row length 12 texels (3 blocks), one block skipped each way, slices of 3 block rows,
    // one slice skipped.
    pack(gl, [4, 4, 1, 16], [12, 4, 4, 12, 1]);
    out.push(read(gl, TEXTURE_2D_ARRAY, 0));
    // A block height of 8 copies one block row a slice, as Mesa counts.
    pack(gl, [4, 8, 1, 16], [0, 0, 0, 0, 0]);
    out.push(read(gl, TEXTURE_2D_ARRAY, 0));
    pack(gl, [0; 4], [0; 5]);
    let c = gl.gen_texture();
    gl.bind_texture(TEXTURE_CUBE_MAP, c);
    let g = COMPRESSED_RG_RGTC2;
    for face in 0..6 {
        let target = TEXTURE_CUBE_MAP_POSITIVE_X + face;
        gl.compressed_image_2d(target, 0, g, [4, 4], 0, &noise(50 + face, 16));
    }
    out.push(read(gl, TEXTURE_CUBE_MAP_NEGATIVE_Y, 0));
    let d = gl.gen_texture();
    gl.bind_texture(TEXTURE_3D, d);
    let n = image_bytes(f, 4, 8) * 2;
    gl.compressed_image_3d(TEXTURE_3D, 0, f, [4, 8, 2], &noise(60, n), n);
    pack(gl, [4, 4, 1, 16], [8, 0, 4, 0, 0]);
    out.push(read(gl, TEXTURE_3D, 0));
    pack(gl, [0; 4], [0; 5]);
    let pbo = gl.gen_buffer();
    gl.bind_buffer(PIXEL_PACK_BUFFER, pbo);
    gl.buffer_data(PIXEL_PACK_BUFFER, 1024, Some(&[0x3c; 1024]), STREAM_READ);
    gl.bind_texture(TEXTURE_2D_ARRAY, a);
    gl.get_compressed_at(TEXTURE_2D_ARRAY, 0, 16);
    let e = gl.get_error();
    let mut bytes = vec![0; 1024];
    gl.get_buffer_sub_data(PIXEL_PACK_BUFFER, 0, &mut bytes);
    out.push((e, bytes));
    pack(gl, [4, 4, 1, 16], [12, 4, 4, 12, 1]);
    gl.buffer_data(PIXEL_PACK_BUFFER, 1024, Some(&[0x3c; 1024]), STREAM_READ);
    gl.get_compressed_at(TEXTURE_2D_ARRAY, 0, 0);
    let e = gl.get_error();
    let mut bytes = vec![0; 1024];
    gl.get_buffer_sub_data(PIXEL_PACK_BUFFER, 0, &mut bytes);
    out.push((e, bytes));
    gl.bind_buffer(PIXEL_PACK_BUFFER, 0);
    pack(gl, [0; 4], [0; 5]);
    out
}

#[test]
fn layered_images_and_pack_state_place_blocks_as_on_the_native_driver() {
    let lines = compare_read(layered);
    let e: Vec<GLenum> = lines.iter().map(|l| l.0).collect();
    assert!(e.iter().all(|&e| e == NO_ERROR), "{e:?}");
    assert_ne!(lines[0].1, lines[1].1, "the pack state moved the blocks");
}

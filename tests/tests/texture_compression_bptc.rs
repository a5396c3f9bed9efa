//! BPTC compressed textures (GL 4.2's `ARB_texture_compression_bptc`: BC7's
//! `COMPRESSED_RGBA_BPTC_UNORM` and `COMPRESSED_SRGB_ALPHA_BPTC_UNORM`, BC6H's
//! `COMPRESSED_RGB_BPTC_SIGNED_FLOAT` and `COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT`) against the
//! native driver on both backends (Vulkan with the validation layer on, which must report
//! nothing): the errors and level queries of compressed images, sub-images, immutable
//! storage and 3D textures, and frames sampling blocks of every BC7 and BC6H mode (a
//! hand-made white block and blocks of pseudo-random bits behind each mode's bits), through
//! `texelFetch` into a float framebuffer. Values, errors and pixels must be exactly the
//! native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's compressed-image entry points, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::Pixels;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
pub(crate) trait BptcGl: Gl {
    /// `glCompressedTexImage2D` (`size`: width, height).
    fn compressed_image_2d(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        size: [i32; 2],
        border: GLint,
        data: &[u8],
    );
    /// `glCompressedTexImage3D` (`size`: width, height, depth) of `len` bytes (the unpack
    /// state may read more of `data`).
    fn compressed_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        size: [i32; 3],
        data: &[u8],
        len: usize,
    );
    /// `glCompressedTexSubImage2D` of `(x, y, width, height)` of `len` bytes (the unpack
    /// state may read more of `data`).
    fn compressed_sub_image_2d(
        &mut self,
        target: GLenum,
        level: GLint,
        rect: [i32; 4],
        format: GLenum,
        data: &[u8],
        len: usize,
    );
    /// `glCompressedTexSubImage3D` at `at` of `size`.
    fn compressed_sub_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        at: [i32; 3],
        size: [i32; 3],
        format: GLenum,
        data: &[u8],
    );
    /// `glCompressedTexSubImage2D` of `len` bytes from the bound pixel unpack buffer at
    /// `offset`.
    fn compressed_sub_image_2d_at(
        &mut self,
        target: GLenum,
        rect: [i32; 4],
        format: GLenum,
        len: usize,
        offset: usize,
    );
    /// `glTexStorage2D`.
    fn tex_storage_2d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internal: GLenum,
        w: GLsizei,
        h: GLsizei,
    );
    /// `glTexStorage3D`.
    fn tex_storage_3d(&mut self, target: GLenum, levels: GLsizei, internal: GLenum, size: [i32; 3]);
    /// `glGetTexLevelParameteriv` of one value (-7 where nothing is written).
    fn level_parameter(&mut self, target: GLenum, level: GLint, pname: GLenum) -> GLint;
}

impl BptcGl for Context {
    fn compressed_image_2d(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        [w, h]: [i32; 2],
        border: GLint,
        data: &[u8],
    ) {
        let n = data.len() as GLsizei;
        Context::compressed_tex_image_2d(
            self,
            target,
            level,
            format,
            w,
            h,
            border,
            n,
            Pixels::Bytes(data),
        )
    }
    fn compressed_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        [w, h, d]: [i32; 3],
        data: &[u8],
        len: usize,
    ) {
        let n = len as GLsizei;
        Context::compressed_tex_image_3d(
            self,
            target,
            level,
            format,
            w,
            h,
            d,
            0,
            n,
            Pixels::Bytes(data),
        )
    }
    fn compressed_sub_image_2d(
        &mut self,
        target: GLenum,
        level: GLint,
        [x, y, w, h]: [i32; 4],
        format: GLenum,
        data: &[u8],
        len: usize,
    ) {
        let n = len as GLsizei;
        Context::compressed_tex_sub_image_2d(
            self,
            target,
            level,
            x,
            y,
            w,
            h,
            format,
            n,
            Pixels::Bytes(data),
        )
    }
    fn compressed_sub_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        [x, y, z]: [i32; 3],
        [w, h, d]: [i32; 3],
        format: GLenum,
        data: &[u8],
    ) {
        let n = data.len() as GLsizei;
        Context::compressed_tex_sub_image_3d(
            self,
            target,
            level,
            x,
            y,
            z,
            w,
            h,
            d,
            format,
            n,
            Pixels::Bytes(data),
        )
    }
    fn compressed_sub_image_2d_at(
        &mut self,
        target: GLenum,
        [x, y, w, h]: [i32; 4],
        format: GLenum,
        len: usize,
        offset: usize,
    ) {
        let n = len as GLsizei;
        Context::compressed_tex_sub_image_2d(
            self,
            target,
            0,
            x,
            y,
            w,
            h,
            format,
            n,
            Pixels::Offset(offset),
        )
    }
    fn tex_storage_2d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internal: GLenum,
        w: GLsizei,
        h: GLsizei,
    ) {
        Context::tex_storage_2d(self, target, levels, internal, w, h)
    }
    fn tex_storage_3d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internal: GLenum,
        [w, h, d]: [i32; 3],
    ) {
        Context::tex_storage_3d(self, target, levels, internal, w, h, d)
    }
    fn level_parameter(&mut self, target: GLenum, level: GLint, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_tex_level_parameteriv(self, target, level, pname, &mut v);
        v[0]
    }
}

/// Calls the native entry point `$name` of C signature `$ty` with `$args` (the native
/// context is current on this thread).
macro_rules! native {
    ($gl:expr, $name:literal, $ty:ty, $($args:expr),*) => {{
        let f: $ty = $gl.entry_point($name).expect($name);
        // SAFETY: the pointer is the driver's `$name` with its exact C signature `$ty`, called
        // while the context is current; every argument is by value or a pointer valid for
        // what the call reads or writes.
        unsafe { f($($args),*) }
    }};
}

impl BptcGl for NativeGl {
    fn compressed_image_2d(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        [w, h]: [i32; 2],
        border: GLint,
        data: &[u8],
    ) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLint,
            GLenum,
            GLsizei,
            GLsizei,
            GLint,
            GLsizei,
            *const u8,
        );
        let n = data.len() as GLsizei;
        native!(
            self,
            "glCompressedTexImage2D",
            F,
            target,
            level,
            format,
            w,
            h,
            border,
            n,
            data.as_ptr()
        )
    }
    fn compressed_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        [w, h, d]: [i32; 3],
        data: &[u8],
        len: usize,
    ) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLint,
            GLenum,
            GLsizei,
            GLsizei,
            GLsizei,
            GLint,
            GLsizei,
            *const u8,
        );
        let n = len as GLsizei;
        native!(
            self,
            "glCompressedTexImage3D",
            F,
            target,
            level,
            format,
            w,
            h,
            d,
            0,
            n,
            data.as_ptr()
        )
    }
    fn compressed_sub_image_2d(
        &mut self,
        target: GLenum,
        level: GLint,
        [x, y, w, h]: [i32; 4],
        format: GLenum,
        data: &[u8],
        len: usize,
    ) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLint,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
            GLenum,
            GLsizei,
            *const u8,
        );
        let n = len as GLsizei;
        native!(
            self,
            "glCompressedTexSubImage2D",
            F,
            target,
            level,
            x,
            y,
            w,
            h,
            format,
            n,
            data.as_ptr()
        )
    }
    fn compressed_sub_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        [x, y, z]: [i32; 3],
        [w, h, d]: [i32; 3],
        format: GLenum,
        data: &[u8],
    ) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLint,
            GLint,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
            GLsizei,
            GLenum,
            GLsizei,
            *const u8,
        );
        let n = data.len() as GLsizei;
        native!(
            self,
            "glCompressedTexSubImage3D",
            F,
            target,
            level,
            x,
            y,
            z,
            w,
            h,
            d,
            format,
            n,
            data.as_ptr()
        )
    }
    fn compressed_sub_image_2d_at(
        &mut self,
        target: GLenum,
        [x, y, w, h]: [i32; 4],
        format: GLenum,
        len: usize,
        offset: usize,
    ) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLint,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
            GLenum,
            GLsizei,
            *const u8,
        );
        // A pixel unpack buffer is bound: the pointer is an offset into it.
        let at = offset as *const u8;
        native!(
            self,
            "glCompressedTexSubImage2D",
            F,
            target,
            0,
            x,
            y,
            w,
            h,
            format,
            len as GLsizei,
            at
        )
    }
    fn tex_storage_2d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internal: GLenum,
        w: GLsizei,
        h: GLsizei,
    ) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei);
        native!(self, "glTexStorage2D", F, target, levels, internal, w, h)
    }
    fn tex_storage_3d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internal: GLenum,
        [w, h, d]: [i32; 3],
    ) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei, GLsizei);
        native!(self, "glTexStorage3D", F, target, levels, internal, w, h, d)
    }
    fn level_parameter(&mut self, target: GLenum, level: GLint, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLint, GLenum, *mut GLint);
        let mut v = -7;
        native!(
            self,
            "glGetTexLevelParameteriv",
            F,
            target,
            level,
            pname,
            &mut v
        );
        v
    }
}

pub(crate) const SIZE: i32 = 16;

/// The four BPTC formats.
const FORMATS: [GLenum; 4] = [
    COMPRESSED_RGBA_BPTC_UNORM,
    COMPRESSED_SRGB_ALPHA_BPTC_UNORM,
    COMPRESSED_RGB_BPTC_SIGNED_FLOAT,
    COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT,
];

/// Runs `scene` natively and on both backends (inproc and thread), which must match; returns
/// the native result.
pub(crate) fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn BptcGl) -> T) -> T {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = scene(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    expected
}

/// What a level reports: `COMPRESSED`, `COMPRESSED_IMAGE_SIZE`, `INTERNAL_FORMAT`, the red
/// and alpha sizes and types, the width and depth, and the error after the queries.
type Level = [GLint; 10];

fn level(gl: &mut dyn BptcGl, target: GLenum, lvl: GLint) -> Level {
    let mut out = [0; 10];
    for (o, pname) in out.iter_mut().zip([
        TEXTURE_COMPRESSED,
        TEXTURE_COMPRESSED_IMAGE_SIZE,
        TEXTURE_INTERNAL_FORMAT,
        TEXTURE_RED_SIZE,
        TEXTURE_ALPHA_SIZE,
        TEXTURE_RED_TYPE,
        TEXTURE_ALPHA_TYPE,
        TEXTURE_WIDTH,
        TEXTURE_DEPTH,
    ]) {
        *o = gl.level_parameter(target, lvl, pname);
    }
    out[9] = gl.get_error() as GLint;
    out
}

/// One line of the transcript: the call, its error, and the level it names, as queried after.
type Line = (&'static str, GLenum, Option<Level>);

/// Compressed images, sub-images and storage of every BPTC format, with their errors.
fn transcript(gl: &mut dyn BptcGl) -> Vec<Line> {
    let blocks = vec![0x5au8; 1024];
    let b = &blocks[..];
    let mut out = Vec::new();
    let mut step = |gl: &mut dyn BptcGl,
                    call: &'static str,
                    at: Option<(GLenum, GLint)>,
                    f: &dyn Fn(&mut dyn BptcGl)| {
        f(gl);
        let e = gl.get_error();
        let l = at.map(|(t, lvl)| level(gl, t, lvl));
        out.push((call, e, l));
    };
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    let at0 = Some((TEXTURE_2D, 0));
    for (i, f) in FORMATS.into_iter().enumerate() {
        let call = [
            "2D unorm",
            "2D srgb",
            "2D signed float",
            "2D unsigned float",
        ][i];
        step(gl, call, at0, &|gl| {
            gl.compressed_image_2d(TEXTURE_2D, 0, f, [8, 8], 0, &b[..64])
        });
    }
    let u = FORMATS[0];
    step(gl, "5x5: 4 blocks", at0, &|gl| {
        gl.compressed_image_2d(TEXTURE_2D, 0, u, [5, 5], 0, &b[..64])
    });
    step(gl, "5x5 in 2 blocks", None, &|gl| {
        gl.compressed_image_2d(TEXTURE_2D, 0, u, [5, 5], 0, &b[..32])
    });
    step(gl, "3x3 level 1", Some((TEXTURE_2D, 1)), &|gl| {
        gl.compressed_image_2d(TEXTURE_2D, 1, u, [3, 3], 0, &b[..16])
    });
    step(gl, "border 1", None, &|gl| {
        gl.compressed_image_2d(TEXTURE_2D, 0, u, [8, 8], 1, &b[..64])
    });
    step(gl, "rectangle", None, &|gl| {
        gl.compressed_image_2d(TEXTURE_RECTANGLE, 0, u, [8, 8], 0, &b[..64])
    });
    step(gl, "8x8 again", at0, &|gl| {
        gl.compressed_image_2d(TEXTURE_2D, 0, u, [8, 8], 0, &b[..64])
    });
    let sub = |rect: [i32; 4], f: GLenum, n: usize| {
        move |gl: &mut dyn BptcGl| gl.compressed_sub_image_2d(TEXTURE_2D, 0, rect, f, b, n)
    };
    step(gl, "sub 4,4", None, &sub([4, 4, 4, 4], u, 16));
    step(gl, "sub off the grid", None, &sub([2, 0, 4, 4], u, 16));
    step(gl, "sub 3 wide", None, &sub([0, 0, 3, 4], u, 16));
    step(
        gl,
        "sub of another format",
        None,
        &sub([0, 0, 4, 4], FORMATS[1], 16),
    );
    step(gl, "sub size", None, &sub([0, 0, 4, 4], u, 32));
    step(gl, "sub outside", None, &sub([8, 0, 4, 4], u, 16));
    step(gl, "6x6", at0, &|gl| {
        gl.compressed_image_2d(TEXTURE_2D, 0, u, [6, 6], 0, &b[..64])
    });
    step(gl, "sub to the corner", None, &sub([4, 4, 2, 2], u, 16));
    step(gl, "sub to the edge", None, &sub([4, 0, 2, 4], u, 16));
    let t3 = gl.gen_texture();
    gl.bind_texture(TEXTURE_3D, t3);
    let at3 = Some((TEXTURE_3D, 0));
    step(gl, "3D unorm", at3, &|gl| {
        gl.compressed_image_3d(TEXTURE_3D, 0, u, [8, 8, 2], b, 128)
    });
    step(gl, "3D sub", None, &|gl| {
        gl.compressed_sub_image_3d(TEXTURE_3D, 0, [4, 0, 1], [4, 4, 1], u, &b[..16])
    });
    step(gl, "3D signed float", at3, &|gl| {
        gl.compressed_image_3d(TEXTURE_3D, 0, FORMATS[2], [8, 8, 3], b, 192)
    });
    step(gl, "3D RGTC", None, &|gl| {
        gl.compressed_image_3d(TEXTURE_3D, 0, COMPRESSED_RED_RGTC1, [8, 8, 2], b, 64)
    });
    let ta = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D_ARRAY, ta);
    step(gl, "array", Some((TEXTURE_2D_ARRAY, 0)), &|gl| {
        gl.compressed_image_3d(TEXTURE_2D_ARRAY, 0, FORMATS[3], [8, 8, 2], b, 128)
    });
    step(gl, "array sub", None, &|gl| {
        gl.compressed_sub_image_3d(
            TEXTURE_2D_ARRAY,
            0,
            [4, 0, 1],
            [4, 4, 1],
            FORMATS[3],
            &b[..16],
        )
    });
    let tc = gl.gen_texture();
    gl.bind_texture(TEXTURE_CUBE_MAP, tc);
    step(
        gl,
        "cube face",
        Some((TEXTURE_CUBE_MAP_POSITIVE_X, 0)),
        &|gl| {
            gl.compressed_image_2d(
                TEXTURE_CUBE_MAP_POSITIVE_X,
                0,
                FORMATS[1],
                [4, 4],
                0,
                &b[..16],
            )
        },
    );
    let ts = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, ts);
    step(gl, "storage 16x8, 3 levels", Some((TEXTURE_2D, 2)), &|gl| {
        gl.tex_storage_2d(TEXTURE_2D, 3, u, 16, 8)
    });
    step(gl, "storage level 0", at0, &|_| {});
    step(
        gl,
        "storage sub level 2",
        None,
        &sub_level(2, [0, 0, 4, 2], u, &b[..16]),
    );
    step(
        gl,
        "storage sub level 0",
        None,
        &sub_level(0, [0, 0, 16, 8], u, &b[..128]),
    );
    step(gl, "storage redefined", None, &|gl| {
        gl.compressed_image_2d(TEXTURE_2D, 0, u, [8, 8], 0, &b[..64])
    });
    let ts3 = gl.gen_texture();
    gl.bind_texture(TEXTURE_3D, ts3);
    step(gl, "3D storage", at3, &|gl| {
        gl.tex_storage_3d(TEXTURE_3D, 1, FORMATS[2], [8, 8, 4])
    });
    out
}

/// A compressed sub-image of level `lvl` of the bound 2D texture.
fn sub_level<'a>(
    lvl: GLint,
    rect: [i32; 4],
    f: GLenum,
    data: &'a [u8],
) -> impl Fn(&mut dyn BptcGl) + 'a {
    move |gl| gl.compressed_sub_image_2d(TEXTURE_2D, lvl, rect, f, data, data.len())
}

#[test]
fn bptc_state_matches_the_native_driver() {
    let lines = compare(transcript);
    assert_eq!(lines[0].1, NO_ERROR);
    let l = lines[0].2.expect("queried");
    assert_eq!(&l[..3], &[1, 64, COMPRESSED_RGBA_BPTC_UNORM as GLint]);
    assert!(lines.iter().any(|l| l.1 == INVALID_OPERATION));
    assert!(lines.iter().any(|l| l.1 == INVALID_VALUE));
}

/// Deterministic pseudo-random bytes (xorshift).
fn noise(seed: u32, n: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 7) as u8
        })
        .collect()
}

/// 16 BC7 blocks: a hand-made white block (mode 6, every endpoint and p-bit set), a black
/// one (mode 0, all zero), two of pseudo-random bits behind each mode's bits (the first
/// byte's lowest set bit is the mode), and a reserved one (no mode bit).
pub(crate) fn bc7_blocks() -> Vec<u8> {
    let mut out = Vec::new();
    out.push(0xc0);
    out.extend([0xff; 15]);
    out.push(0x01);
    out.extend([0; 15]);
    for i in 0..13u8 {
        let mode = i % 8;
        let mut b = noise(0x9e37 + u32::from(i) * 977, 16);
        b[0] = (b[0] & !((2u8 << mode).wrapping_sub(1))) | (1 << mode);
        out.extend(b);
    }
    let mut reserved = noise(7, 16);
    reserved[0] = 0;
    out.extend(reserved);
    out
}

/// 16 BC6H blocks: one of pseudo-random bits behind each of the 14 modes' bits (2 bits, or
/// 5 where the low two are 1x), and two behind reserved mode bits.
pub(crate) fn bc6h_blocks() -> Vec<u8> {
    let modes = [
        0b00u8, 0b01, 0x02, 0x06, 0x0a, 0x0e, 0x12, 0x16, 0x1a, 0x1e, 0x03, 0x07, 0x0b, 0x0f, 0x13,
        0x1f,
    ];
    let mut out = Vec::new();
    for (i, m) in modes.into_iter().enumerate() {
        let mut b = noise(0x51ed + i as u32 * 613, 16);
        let bits = if m < 2 { 2 } else { 5 };
        b[0] = (b[0] & !((1u8 << bits) - 1)) | m;
        out.extend(b);
    }
    out
}

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

/// A frame's bytes, shown in a failure as their length, a checksum and the first texels.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Frame(pub Vec<u8>);

impl std::fmt::Debug for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sum = self
            .0
            .iter()
            .fold(0u32, |h, b| h.rotate_left(5) ^ u32::from(*b));
        let floats: Vec<f32> = self
            .0
            .chunks(4)
            .take(12)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        write!(
            f,
            "{} bytes, checksum {sum:08x}, first texels {floats:?}",
            self.0.len()
        )
    }
}

impl Frame {
    /// Whether some texel's colour channels are not all zero.
    pub(crate) fn has_colour(&self) -> bool {
        self.0.chunks(16).any(|p| p[..12] != [0; 12])
    }
}

/// Draws a full-window quad whose fragments fetch texel (x, y) of level `lvl` (layer or
/// slice `z`) of `sampler` (GLSL type) from unit 0 into an RGBA32F framebuffer, and reads
/// it back as floats' bytes.
pub(crate) fn fetch_frame(gl: &mut dyn BptcGl, sampler: &str, lvl: i32, z: i32) -> Frame {
    let coord = if sampler == "sampler2D" {
        "ivec2(gl_FragCoord.xy) >> lod".to_owned()
    } else {
        format!("ivec3(ivec2(gl_FragCoord.xy) >> lod, {z})")
    };
    let fs = format!(
        "#version 330
uniform {sampler} tex;
const int lod = {lvl};
out vec4 color;
void main() {{ color = texelFetch(tex, {coord}, lod); }}
"
    );
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, fs.as_str())] {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        assert_eq!(
            gl.get_shaderi(s, COMPILE_STATUS),
            TRUE as i32,
            "{}",
            gl.shader_info_log(s)
        );
        gl.attach_shader(p, s);
    }
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "{}",
        gl.program_info_log(p)
    );
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let quad: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    gl.buffer_data(ARRAY_BUFFER, quad.len(), Some(&quad), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let fbo = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fbo);
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA32F, SIZE, SIZE);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    gl.viewport(0, 0, SIZE, SIZE);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut out = vec![0u8; (SIZE * SIZE * 16) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, FLOAT, &mut out);
    assert_eq!(gl.get_error(), NO_ERROR);
    Frame(out)
}

/// The blocks of `format` for a 16x16 image.
fn blocks_of(format: GLenum) -> Vec<u8> {
    if matches!(
        format,
        COMPRESSED_RGBA_BPTC_UNORM | COMPRESSED_SRGB_ALPHA_BPTC_UNORM
    ) {
        bc7_blocks()
    } else {
        bc6h_blocks()
    }
}

/// A 16x16 2D image of `format`, then its top-right block replaced by the first block
/// through a sub-image, fetched.
fn frame_2d(gl: &mut dyn BptcGl, format: GLenum) -> Frame {
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
    let blocks = blocks_of(format);
    gl.compressed_image_2d(TEXTURE_2D, 0, format, [SIZE, SIZE], 0, &blocks);
    gl.compressed_sub_image_2d(TEXTURE_2D, 0, [12, 12, 4, 4], format, &blocks, 16);
    assert_eq!(gl.get_error(), NO_ERROR);
    fetch_frame(gl, "sampler2D", 0, 0)
}

#[test]
fn bc7_blocks_sample_as_on_the_native_driver() {
    let unorm = compare(|gl| frame_2d(gl, COMPRESSED_RGBA_BPTC_UNORM));
    let white = 1.0f32.to_le_bytes().repeat(4);
    assert_eq!(&unorm.0[..16], &white[..], "the hand-made block is white");
    assert!(
        unorm
            .0
            .chunks(16)
            .any(|p| p != &white[..] && p[..12] != [0; 12])
    );
    let srgb = compare(|gl| frame_2d(gl, COMPRESSED_SRGB_ALPHA_BPTC_UNORM));
    assert_ne!(unorm, srgb, "sRGB decodes to linear");
}

#[test]
fn bc6h_blocks_sample_as_on_the_native_driver() {
    let signed = compare(|gl| frame_2d(gl, COMPRESSED_RGB_BPTC_SIGNED_FLOAT));
    let unsigned = compare(|gl| frame_2d(gl, COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT));
    assert_ne!(signed, unsigned);
    assert!(signed.has_colour(), "some texel is not black");
}

/// Immutable storage of two levels, level 1 (8x8) written by a sub-image, fetched at lod 1;
/// and a 3D texture of two slices of 16x16, slice 1 fetched.
fn storage_and_3d(gl: &mut dyn BptcGl) -> (Frame, Frame) {
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    gl.tex_storage_2d(TEXTURE_2D, 2, COMPRESSED_RGBA_BPTC_UNORM, SIZE, SIZE);
    let blocks = bc7_blocks();
    gl.compressed_sub_image_2d(
        TEXTURE_2D,
        1,
        [0, 0, 8, 8],
        COMPRESSED_RGBA_BPTC_UNORM,
        &blocks[64..],
        64,
    );
    gl.tex_parameteri(
        TEXTURE_2D,
        TEXTURE_MIN_FILTER,
        NEAREST_MIPMAP_NEAREST as GLint,
    );
    assert_eq!(gl.get_error(), NO_ERROR);
    let level1 = fetch_frame(gl, "sampler2D", 1, 0);
    let t3 = gl.gen_texture();
    gl.bind_texture(TEXTURE_3D, t3);
    gl.tex_parameteri(TEXTURE_3D, TEXTURE_MIN_FILTER, NEAREST as GLint);
    let mut slices = bc6h_blocks();
    slices.extend(bc6h_blocks().iter().rev());
    gl.compressed_image_3d(
        TEXTURE_3D,
        0,
        COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT,
        [SIZE, SIZE, 2],
        &slices,
        slices.len(),
    );
    assert_eq!(gl.get_error(), NO_ERROR);
    let slice1 = fetch_frame(gl, "sampler3D", 0, 1);
    (level1, slice1)
}

#[test]
fn bptc_storage_and_3d_textures_sample_as_on_the_native_driver() {
    let (level1, slice1) = compare(storage_and_3d);
    assert!(level1.has_colour());
    assert!(slice1.has_colour());
}

/// The texels of the uncompressed uploads: every channel a line along the texels in row
/// order over 16x16, as floats (what one-subset blocks hold well).
fn gradient(format: GLenum, x: i32, y: i32) -> [f32; 4] {
    let t = (x + 16 * y) as f32;
    match format {
        COMPRESSED_RGB_BPTC_SIGNED_FLOAT => [t / 64.0 - 2.0, t / 32.0, 1.0 + t / 128.0, 1.0],
        COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT => [t / 64.0, t / 32.0, 1.0 + t / 128.0, 1.0],
        _ => [
            t / 255.0,
            1.0 - t / 255.0,
            0.25 + t / 510.0,
            1.0 - t / 510.0,
        ],
    }
}

/// What texel (x, y) of [`encoded_frame`] was given as.
fn given(format: GLenum, x: i32, y: i32) -> [f32; 4] {
    if (4..8).contains(&x) && (8..12).contains(&y) {
        gradient(format, 15 - (x - 4), 15 - (y - 8))
    } else {
        gradient(format, x, y)
    }
}

/// Uncompressed texels given for a BPTC texture, which GL compresses (Mesa with its
/// encoder, Tessera with its own, so the blocks differ): a 16x16 gradient through
/// `glTexImage2D`, a 4x4 block of it replaced through `glTexSubImage2D`, fetched.
fn encoded_frame(gl: &mut dyn BptcGl, format: GLenum) -> Frame {
    let bytes = |w: i32, h: i32, f: &dyn Fn(i32, i32) -> [f32; 4]| -> Vec<u8> {
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .flat_map(|(x, y)| f(x, y))
            .flat_map(|v| v.to_le_bytes())
            .collect()
    };
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
    let data = bytes(SIZE, SIZE, &|x, y| gradient(format, x, y));
    let internal = format as GLint;
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        internal,
        SIZE,
        SIZE,
        0,
        RGBA,
        FLOAT,
        Some(&data),
    );
    let patch = bytes(4, 4, &|x, y| gradient(format, 15 - x, 15 - y));
    gl.tex_sub_image_2d(TEXTURE_2D, 0, 4, 8, 4, 4, RGBA, FLOAT, &patch);
    assert_eq!(gl.get_error(), NO_ERROR);
    fetch_frame(gl, "sampler2D", 0, 0)
}

/// The largest difference of a frame of [`encoded_frame`] from the texels given (relative
/// above 1; sRGB colour channels compared as encoded, as the encoders saw them; the float
/// formats' alpha is 1).
fn encoding_error(format: GLenum, frame: &Frame) -> f32 {
    let srgb = format == COMPRESSED_SRGB_ALPHA_BPTC_UNORM;
    let encode = |v: f32| {
        if v <= 0.003_130_8 {
            12.92 * v
        } else {
            1.055 * v.powf(1.0 / 2.4) - 0.055
        }
    };
    let mut worst = 0.0f32;
    for (i, c) in frame.0.chunks(4).enumerate() {
        let v = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        let (x, y, ch) = ((i / 4) as i32 % SIZE, (i / 4) as i32 / SIZE, i % 4);
        let got = if srgb && ch < 3 { encode(v) } else { v };
        let want = given(format, x, y)[ch];
        worst = worst.max((got - want).abs() / want.abs().max(1.0));
    }
    worst
}

/// Uncompressed uploads of each BPTC format: the frames of both backends (inproc and
/// thread) are equal, and no further from the texels given than native llvmpipe's (Mesa's
/// encoder's; both are lossy, and Mesa's blocks are not Tessera's).
#[test]
fn uncompressed_texels_are_encoded_as_closely_as_by_the_native_driver() {
    for format in FORMATS {
        let mut native =
            NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
        let native_error = encoding_error(format, &encoded_frame(&mut native, format));
        drop(native);
        let mut first: Option<Frame> = None;
        for backend in Backend::ALL {
            for transport in [TransportKind::Inproc, TransportKind::Thread] {
                let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
                let got = encoded_frame(&mut ctx, format);
                let error = encoding_error(format, &got);
                let at = format!("{format:#x} {} {}", backend.name(), transport.name());
                assert!(
                    error <= native_error,
                    "{at}: {error} from the texels given, native {native_error}"
                );
                match &first {
                    Some(f) => assert_eq!(&got, f, "{at}"),
                    None => first = Some(got),
                }
                ctx.finish();
                assert!(!ctx.is_lost(), "{at}: the session ended");
                let events: Vec<Event> = ctx.take_events();
                assert!(events.is_empty(), "{at}: {events:?}");
            }
        }
        eprintln!(
            "{format:#x}: {} from the texels given, native {native_error}",
            encoding_error(format, first.as_ref().unwrap())
        );
    }
}

/// Whether `ctx` advertises `GL_ARB_texture_compression_bptc`.
fn advertises_bptc(ctx: &mut Context) -> bool {
    let n = ctx.get_integer(NUM_EXTENSIONS);
    (0..n as GLuint).any(|i| {
        ctx.get_stringi(EXTENSIONS, i).as_deref() == Some("GL_ARB_texture_compression_bptc")
    })
}

/// The extension is advertised on GLES (through `EXT_texture_compression_bptc`) and Vulkan
/// (BC7 and BC6H), not on a GLES backend whose driver lacks the ES extension (an ES 3.0
/// backend that ignores the driver's extensions).
#[test]
fn bptc_is_advertised_where_the_backend_has_it() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 4, 4);
        assert!(advertises_bptc(&mut ctx), "{}", backend.name());
    }
    assert!(!advertises_bptc(&mut tessera_es30(4, 4)));
}

//! `KHR_robustness` and `ARB_robustness` (GL 4.5) against the native driver on both
//! backends (Vulkan with the validation layer on, which must report nothing): the
//! bounds-checked getters `glReadnPixels`, `glGetnTexImage`, `glGetnCompressedTexImage` and
//! `glGetnUniform{f,i,ui,d}v` with destinations exactly large enough, a byte short, empty
//! and negative, with a pixel pack buffer bound, rectangles clipped by the framebuffer and
//! wholly outside it, and the errors that come before the size check; the context queries
//! (`RESET_NOTIFICATION_STRATEGY`, `CONTEXT_ROBUST_ACCESS`, `CONTEXT_FLAGS`) and
//! `glGetGraphicsResetStatus`. Errors, values and pixels must be exactly the native ones.
//! Then the strings on both backends, and a context created with `LOSE_CONTEXT_ON_RESET`
//! whose server dies.

#![expect(
    unsafe_code,
    reason = "the native driver's bounds-checked getters, called through their C signatures"
)]

use std::ffi::c_void;

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::{Pixels, PixelsMut};
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls the shared [`Gl`] table has no entry for. Each takes a destination at least
/// `buf_size` long and tells the driver it holds `buf_size` bytes.
trait RobustGl: Gl {
    /// `glReadnPixels`.
    #[expect(clippy::too_many_arguments, reason = "mirrors glReadnPixels")]
    fn readn_pixels(
        &mut self,
        x: GLint,
        y: GLint,
        width: GLsizei,
        height: GLsizei,
        format: GLenum,
        ty: GLenum,
        buf_size: GLsizei,
        out: &mut [u8],
    );
    /// `glReadnPixels` into the pixel pack buffer at `offset`.
    fn readn_pixels_to_buffer(&mut self, width: GLsizei, buf_size: GLsizei, offset: usize);
    /// `glGetnTexImage`.
    fn getn_tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        ty: GLenum,
        buf_size: GLsizei,
        out: &mut [u8],
    );
    /// `glGetnCompressedTexImage`.
    fn getn_compressed_tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        buf_size: GLsizei,
        out: &mut [u8],
    );
    /// `glCompressedTexImage2D` from client memory.
    fn compressed_tex_image_2d(&mut self, format: GLenum, width: GLsizei, data: &[u8]);
    /// `glGetnUniformfv`.
    fn getn_uniformfv(&mut self, p: GLuint, loc: GLint, buf_size: GLsizei, out: &mut [f32]);
    /// `glGetnUniformiv`.
    fn getn_uniformiv(&mut self, p: GLuint, loc: GLint, buf_size: GLsizei, out: &mut [i32]);
    /// `glGetnUniformuiv`.
    fn getn_uniformuiv(&mut self, p: GLuint, loc: GLint, buf_size: GLsizei, out: &mut [u32]);
    /// `glGetnUniformdv`.
    fn getn_uniformdv(&mut self, p: GLuint, loc: GLint, buf_size: GLsizei, out: &mut [f64]);
    /// `glGetGraphicsResetStatus`.
    fn reset_status(&mut self) -> GLenum;
}

/// The elements of `out` that `buf_size` bytes hold (none for a negative size).
fn part<T>(out: &mut [T], buf_size: GLsizei, unit: usize) -> &mut [T] {
    let n = usize::try_from(buf_size)
        .map_or(0, |b| b / unit)
        .min(out.len());
    &mut out[..n]
}

impl RobustGl for Context {
    fn readn_pixels(
        &mut self,
        x: GLint,
        y: GLint,
        width: GLsizei,
        height: GLsizei,
        format: GLenum,
        ty: GLenum,
        buf_size: GLsizei,
        out: &mut [u8],
    ) {
        let px = PixelsMut::Bytes(out);
        Context::readn_pixels(self, x, y, width, height, format, ty, buf_size, px);
    }
    fn readn_pixels_to_buffer(&mut self, width: GLsizei, buf_size: GLsizei, offset: usize) {
        let px = PixelsMut::Offset(offset);
        Context::readn_pixels(self, 0, 0, width, 1, RGBA, UNSIGNED_BYTE, buf_size, px);
    }
    fn getn_tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        ty: GLenum,
        buf_size: GLsizei,
        out: &mut [u8],
    ) {
        let px = PixelsMut::Bytes(out);
        Context::getn_tex_image(self, target, level, format, ty, buf_size, px);
    }
    fn getn_compressed_tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        buf_size: GLsizei,
        out: &mut [u8],
    ) {
        let px = PixelsMut::Bytes(out);
        Context::getn_compressed_tex_image(self, target, level, buf_size, px);
    }
    fn compressed_tex_image_2d(&mut self, format: GLenum, width: GLsizei, data: &[u8]) {
        let size = data.len() as GLsizei;
        let px = Pixels::Bytes(data);
        Context::compressed_tex_image_2d(self, TEXTURE_2D, 0, format, width, width, 0, size, px);
    }
    fn getn_uniformfv(&mut self, p: GLuint, loc: GLint, buf_size: GLsizei, out: &mut [f32]) {
        Context::getn_uniformfv(self, p, loc, buf_size, part(out, buf_size, 4));
    }
    fn getn_uniformiv(&mut self, p: GLuint, loc: GLint, buf_size: GLsizei, out: &mut [i32]) {
        Context::getn_uniformiv(self, p, loc, buf_size, part(out, buf_size, 4));
    }
    fn getn_uniformuiv(&mut self, p: GLuint, loc: GLint, buf_size: GLsizei, out: &mut [u32]) {
        Context::getn_uniformuiv(self, p, loc, buf_size, part(out, buf_size, 4));
    }
    fn getn_uniformdv(&mut self, p: GLuint, loc: GLint, buf_size: GLsizei, out: &mut [f64]) {
        Context::getn_uniformdv(self, p, loc, buf_size, part(out, buf_size, 8));
    }
    fn reset_status(&mut self) -> GLenum {
        self.get_graphics_reset_status()
    }
}

/// A native entry point by name. Mesa dispatches the `ARB_robustness` names of these
/// getters (the core names of some of them are missing from its dispatch table).
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

type GetnUniform<T> = unsafe extern "system" fn(GLuint, GLint, GLsizei, *mut T);

impl RobustGl for NativeGl {
    fn readn_pixels(
        &mut self,
        x: GLint,
        y: GLint,
        width: GLsizei,
        height: GLsizei,
        format: GLenum,
        ty: GLenum,
        buf_size: GLsizei,
        out: &mut [u8],
    ) {
        type F = unsafe extern "system" fn(
            GLint,
            GLint,
            GLsizei,
            GLsizei,
            GLenum,
            GLenum,
            GLsizei,
            *mut c_void,
        );
        let f: F = native(self, "glReadnPixelsARB");
        assert!(out.len() >= buf_size.max(0) as usize);
        // SAFETY: the context is current on this thread; `out` holds at least `buf_size`
        // bytes, and more (Mesa may write a clipped rectangle's pixels past it, and the
        // whole rectangle for a negative size).
        unsafe {
            f(
                x,
                y,
                width,
                height,
                format,
                ty,
                buf_size,
                out.as_mut_ptr().cast(),
            )
        }
    }
    fn readn_pixels_to_buffer(&mut self, width: GLsizei, buf_size: GLsizei, offset: usize) {
        type F = unsafe extern "system" fn(
            GLint,
            GLint,
            GLsizei,
            GLsizei,
            GLenum,
            GLenum,
            GLsizei,
            *mut c_void,
        );
        let f: F = native(self, "glReadnPixelsARB");
        // SAFETY: the context is current; a pack buffer is bound, so the pointer is an offset.
        unsafe {
            f(
                0,
                0,
                width,
                1,
                RGBA,
                UNSIGNED_BYTE,
                buf_size,
                offset as *mut c_void,
            )
        }
    }
    fn getn_tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        ty: GLenum,
        buf_size: GLsizei,
        out: &mut [u8],
    ) {
        type F = unsafe extern "system" fn(GLenum, GLint, GLenum, GLenum, GLsizei, *mut c_void);
        let f: F = native(self, "glGetnTexImageARB");
        assert!(out.len() >= buf_size.max(0) as usize);
        // SAFETY: the context is current; `out` holds at least `buf_size` bytes, and what
        // the image needs where that is negative (the cases keep it so).
        unsafe { f(target, level, format, ty, buf_size, out.as_mut_ptr().cast()) }
    }
    fn getn_compressed_tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        buf_size: GLsizei,
        out: &mut [u8],
    ) {
        type F = unsafe extern "system" fn(GLenum, GLint, GLsizei, *mut c_void);
        let f: F = native(self, "glGetnCompressedTexImageARB");
        assert!(out.len() >= buf_size.max(0) as usize);
        // SAFETY: the context is current; `out` holds at least `buf_size` bytes.
        unsafe { f(target, level, buf_size, out.as_mut_ptr().cast()) }
    }
    fn compressed_tex_image_2d(&mut self, format: GLenum, width: GLsizei, data: &[u8]) {
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
        let size = data.len() as GLsizei;
        // SAFETY: the context is current; `data` holds `size` bytes.
        unsafe {
            f(
                TEXTURE_2D,
                0,
                format,
                width,
                width,
                0,
                size,
                data.as_ptr().cast(),
            )
        }
    }
    fn getn_uniformfv(&mut self, p: GLuint, loc: GLint, buf_size: GLsizei, out: &mut [f32]) {
        let f: GetnUniform<f32> = native(self, "glGetnUniformfvARB");
        assert!(out.len() * 4 >= buf_size.max(0) as usize);
        // SAFETY: the context is current; `out` holds `buf_size` bytes.
        unsafe { f(p, loc, buf_size, out.as_mut_ptr()) }
    }
    fn getn_uniformiv(&mut self, p: GLuint, loc: GLint, buf_size: GLsizei, out: &mut [i32]) {
        let f: GetnUniform<i32> = native(self, "glGetnUniformivARB");
        assert!(out.len() * 4 >= buf_size.max(0) as usize);
        // SAFETY: the context is current; `out` holds `buf_size` bytes.
        unsafe { f(p, loc, buf_size, out.as_mut_ptr()) }
    }
    fn getn_uniformuiv(&mut self, p: GLuint, loc: GLint, buf_size: GLsizei, out: &mut [u32]) {
        let f: GetnUniform<u32> = native(self, "glGetnUniformuivARB");
        assert!(out.len() * 4 >= buf_size.max(0) as usize);
        // SAFETY: the context is current; `out` holds `buf_size` bytes.
        unsafe { f(p, loc, buf_size, out.as_mut_ptr()) }
    }
    fn getn_uniformdv(&mut self, p: GLuint, loc: GLint, buf_size: GLsizei, out: &mut [f64]) {
        let f: GetnUniform<f64> = native(self, "glGetnUniformdvARB");
        assert!(out.len() * 8 >= buf_size.max(0) as usize);
        // SAFETY: the context is current; `out` holds `buf_size` bytes.
        unsafe { f(p, loc, buf_size, out.as_mut_ptr()) }
    }
    fn reset_status(&mut self) -> GLenum {
        type F = unsafe extern "system" fn() -> GLenum;
        let f: F = native(self, "glGetGraphicsResetStatus");
        // SAFETY: the context is current on this thread.
        unsafe { f() }
    }
}

const SIZE: i32 = 16;

/// Bytes a getter left alone keep this value.
const UNTOUCHED: u8 = 0xA5;

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn RobustGl) -> T) {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = scene(&mut ctx);
            if got != expected {
                let (g, e) = (format!("{got:?}"), format!("{expected:?}"));
                let at = g.bytes().zip(e.bytes()).take_while(|(a, b)| a == b).count();
                let from = g[..at].rfind("), (").unwrap_or(0);
                panic!(
                    "{} {}: differs from the native driver at {from}:\n tessera {}\n native  {}",
                    backend.name(),
                    transport.name(),
                    &g[from..(at + 200).min(g.len())],
                    &e[from..(at + 200).min(e.len())],
                );
            }
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

/// One read: its error and the bytes of the destination it was given.
type Read = (GLenum, Vec<u8>);

/// x, y, width, height, format, type, bufSize, and the bytes of the destination compared.
type ReadCase = (i32, i32, i32, i32, GLenum, GLenum, i32, usize);

/// `glReadnPixels` of the window framebuffer, cleared to a colour with a scissored square of
/// another: each case's error and the first `keep` bytes of its destination.
fn readn_cases(gl: &mut dyn RobustGl) -> Vec<Read> {
    gl.clear_color(0.25, 0.5, 0.75, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.enable(SCISSOR_TEST);
    gl.scissor(2, 3, 5, 4);
    gl.clear_color(1.0, 0.0, 0.5, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.disable(SCISSOR_TEST);
    assert_eq!(gl.get_error(), NO_ERROR);
    let mut out = Vec::new();
    // (x, y, width, height, format, type, bufSize, bytes compared)
    let cases: &[ReadCase] = &[
        // Exactly large enough, a byte short, empty, negative.
        (0, 0, 8, 8, RGBA, UNSIGNED_BYTE, 256, 256),
        (0, 0, 8, 8, RGBA, UNSIGNED_BYTE, 255, 255),
        (0, 0, 8, 8, RGBA, UNSIGNED_BYTE, 0, 0),
        // A negative size bounds nothing (Mesa reads it as unsigned).
        (0, 0, 8, 8, RGBA, UNSIGNED_BYTE, -1, 256),
        // An empty rectangle needs nothing.
        (0, 0, 0, 8, RGBA, UNSIGNED_BYTE, 0, 0),
        // Floats: 4 bytes a channel.
        (1, 2, 3, 3, RGBA, FLOAT, 144, 144),
        (1, 2, 3, 3, RGBA, FLOAT, 143, 143),
        // Errors before the size: a negative width, a bad format, an integer format of a
        // normalized buffer.
        (0, 0, -1, 8, RGBA, UNSIGNED_BYTE, 0, 0),
        (0, 0, 8, 8, 0x1234, UNSIGNED_BYTE, 0, 0),
        (0, 0, 8, 8, RGBA_INTEGER, UNSIGNED_BYTE, 0, 0),
        // Wholly outside the framebuffer: nothing read, no size needed.
        (SIZE, 0, 4, 4, RGBA, UNSIGNED_BYTE, 0, 0),
        (-8, -8, 4, 4, RGBA, UNSIGNED_BYTE, 0, 0),
        // Clipped: the check is of the clipped width and height (12 of 16 columns, 2
        // rows under the pack state's unclipped row length: 12 * 4 + 16 * 4 bytes).
        (4, SIZE - 2, 16, 4, RGBA, UNSIGNED_BYTE, 112, 0),
        (4, SIZE - 2, 16, 4, RGBA, UNSIGNED_BYTE, 111, 0),
        // Clipped on the left: 4 columns of one row.
        (-4, 0, 8, 1, RGBA, UNSIGNED_BYTE, 15, 0),
        (-4, 0, 8, 1, RGBA, UNSIGNED_BYTE, 16, 0),
    ];
    for &(x, y, w, h, format, ty, buf_size, keep) in cases {
        let mut dst = vec![UNTOUCHED; 4096];
        gl.readn_pixels(x, y, w, h, format, ty, buf_size, &mut dst);
        out.push((gl.get_error(), dst[..keep].to_vec()));
    }
    // Rows padded to the pack alignment: 3 RGB pixels a row, rows of 12 bytes at alignment
    // 4, the last row 9 bytes: 33 in all.
    for buf_size in [33, 32, 36] {
        let mut dst = vec![UNTOUCHED; 64];
        gl.readn_pixels(2, 2, 3, 3, RGB, UNSIGNED_BYTE, buf_size, &mut dst);
        out.push((gl.get_error(), dst[..buf_size as usize].to_vec()));
    }
    gl.pixel_storei(PACK_ALIGNMENT, 1);
    for buf_size in [27, 26] {
        let mut dst = vec![UNTOUCHED; 64];
        gl.readn_pixels(2, 2, 3, 3, RGB, UNSIGNED_BYTE, buf_size, &mut dst);
        out.push((gl.get_error(), dst[..buf_size as usize].to_vec()));
    }
    gl.pixel_storei(PACK_ALIGNMENT, 4);
    // A pack buffer: bufSize plays no part, the buffer's size and the offset's alignment do.
    let b = gl.gen_buffer();
    gl.bind_buffer(PIXEL_PACK_BUFFER, b);
    gl.buffer_data(PIXEL_PACK_BUFFER, 64, Some(&[0; 64]), STREAM_READ);
    for (width, buf_size, offset) in [
        (4, 0, 0),
        (4, 1, 48),
        (4, 0, 49),
        (14, 64, 4),
        (17, 4096, 0),
    ] {
        gl.readn_pixels_to_buffer(width, buf_size, offset);
        let e = gl.get_error();
        let mut back = vec![0u8; 64];
        gl.get_buffer_sub_data(PIXEL_PACK_BUFFER, 0, &mut back);
        out.push((e, back));
    }
    gl.bind_buffer(PIXEL_PACK_BUFFER, 0);
    out
}

#[test]
fn readn_pixels_matches_the_native_driver() {
    compare(|gl| {
        let got = readn_cases(gl);
        assert_eq!(got[0].0, NO_ERROR);
        assert_eq!(got[1].0, INVALID_OPERATION, "a byte short");
        assert!(
            got[1].1.iter().all(|&b| b == UNTOUCHED),
            "written when refused"
        );
        got
    });
}

/// `glGetnTexImage` and `glGetnCompressedTexImage`: a 4x4 RGBA8 texture with two levels and
/// an 8x8 RGTC1 texture, each case's error and destination.
fn get_tex_cases(gl: &mut dyn RobustGl) -> Vec<Read> {
    let mut out = Vec::new();
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    let texels: Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(37)).collect();
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        4,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&texels),
    );
    gl.tex_image_2d(
        TEXTURE_2D,
        1,
        RGBA8 as GLint,
        2,
        2,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&texels[..16]),
    );
    gl.tex_image_2d(
        TEXTURE_2D,
        2,
        RGBA8 as GLint,
        1,
        1,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&texels[..4]),
    );
    assert_eq!(gl.get_error(), NO_ERROR);
    // (target, level, format, type, bufSize)
    let cases: &[(GLenum, GLint, GLenum, GLenum, i32)] = &[
        (TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, 64),
        (TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, 63),
        (TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, 0),
        (TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, -4),
        (TEXTURE_2D, 1, RGBA, UNSIGNED_BYTE, 16),
        (TEXTURE_2D, 1, RGBA, UNSIGNED_BYTE, 15),
        (TEXTURE_2D, 0, RGBA, FLOAT, 256),
        (TEXTURE_2D, 0, RGBA, FLOAT, 255),
        // Padded rows: 3 RGB bytes a texel, 12 a row, at alignment 4 (48 bytes).
        (TEXTURE_2D, 0, RGB, UNSIGNED_BYTE, 48),
        (TEXTURE_2D, 0, RGB, UNSIGNED_BYTE, 47),
        // Errors before the size: a bad target, a bad level, a bad format; a level
        // without an image reads nothing.
        (TEXTURE_RECTANGLE + 7, 0, RGBA, UNSIGNED_BYTE, 0),
        (TEXTURE_2D, -1, RGBA, UNSIGNED_BYTE, 0),
        (TEXTURE_2D, 0, DEPTH_COMPONENT, FLOAT, 0),
        (TEXTURE_2D, 5, RGBA, UNSIGNED_BYTE, 0),
    ];
    for &(target, level, format, ty, buf_size) in cases {
        let mut dst = vec![UNTOUCHED; 512];
        gl.getn_tex_image(target, level, format, ty, buf_size, &mut dst);
        let keep = buf_size.max(0) as usize;
        out.push((gl.get_error(), dst[..keep].to_vec()));
    }
    // RGTC1: 8 bytes a 4x4 block, 4 blocks. Mesa checks no size here (its
    // glGetnCompressedTexImage passes INT_MAX on): a short destination gets the blocks that
    // fit and no error.
    let c = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, c);
    assert_eq!(gl.get_error(), NO_ERROR, "before");
    let blocks: Vec<u8> = (0..32u8)
        .map(|i| i.wrapping_mul(91).wrapping_add(3))
        .collect();
    gl.compressed_tex_image_2d(COMPRESSED_RED_RGTC1, 8, &blocks);
    assert_eq!(gl.get_error(), NO_ERROR);
    for (level, buf_size) in [(0, 32), (0, 31), (0, 0), (-1, 0), (0, 64)] {
        let mut dst = vec![UNTOUCHED; 64];
        gl.getn_compressed_tex_image(TEXTURE_2D, level, buf_size, &mut dst);
        out.push((gl.get_error(), dst[..buf_size as usize].to_vec()));
    }
    // An uncompressed image: not compressed comes first.
    gl.bind_texture(TEXTURE_2D, t);
    let mut dst = vec![UNTOUCHED; 64];
    gl.getn_compressed_tex_image(TEXTURE_2D, 0, 0, &mut dst);
    out.push((gl.get_error(), Vec::new()));
    out
}

#[test]
fn getn_tex_image_matches_the_native_driver() {
    compare(|gl| {
        let got = get_tex_cases(gl);
        assert_eq!(got[0].0, NO_ERROR);
        assert_eq!(got[1].0, INVALID_OPERATION, "a byte short");
        got
    });
}

const VS: &str = "#version 330
layout(location = 0) in vec4 position;
uniform vec4 v4;
uniform ivec2 i2;
uniform uvec3 u3;
uniform float f[3];
uniform mat2 m2;
uniform bool b;
void main() {
    gl_Position = position + v4 + vec4(i2, u3.x, f[2]) + vec4(m2[1], float(b), u3.z);
}
";

const FS: &str = "#version 330
uniform sampler2D s;
out vec4 color;
void main() { color = texture(s, vec2(0.5)); }
";

/// Every value one getter gave, or its error.
#[derive(Debug, PartialEq)]
enum Got {
    F(GLenum, Vec<f32>),
    I(GLenum, Vec<i32>),
    U(GLenum, Vec<u32>),
    D(GLenum, Vec<f64>),
}

/// `glGetnUniform*v` of each uniform kind with sizes exactly enough and one byte short,
/// and the errors before the size (no program, a shader's name, location -1, an unknown
/// location).
fn uniform_cases(gl: &mut dyn RobustGl) -> Vec<Got> {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)] {
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
    let loc = |gl: &mut dyn RobustGl, name: &str| gl.get_uniform_location(p, name);
    let v4 = loc(gl, "v4");
    gl.uniform4fv(v4, &[1.5, -2.25, 3.0, 0.125]);
    let i2 = loc(gl, "i2");
    gl.uniform2iv(i2, &[-7, 9]);
    let u3 = loc(gl, "u3");
    gl.uniform3uiv(u3, &[2_000_000_000, 2, 3]);
    let f = loc(gl, "f[1]");
    gl.uniform1fv(f, &[2.5]);
    let m2 = loc(gl, "m2");
    gl.uniform_matrix2fv(m2, false, &[1.0, 2.0, 3.0, 4.0]);
    let b = loc(gl, "b");
    gl.uniform1iv(b, &[1]);
    let s = loc(gl, "s");
    gl.uniform1iv(s, &[3]);
    assert_eq!(gl.get_error(), NO_ERROR);
    let shader = gl.create_shader(VERTEX_SHADER);
    let mut out = Vec::new();
    // (location, components)
    let uniforms = [(v4, 4), (i2, 2), (u3, 3), (f, 1), (m2, 4), (b, 1), (s, 1)];
    for (l, n) in uniforms {
        for bytes in [n * 4, n * 4 - 1] {
            let mut v = vec![-1.0f32; 8];
            gl.getn_uniformfv(p, l, bytes, &mut v);
            out.push(Got::F(gl.get_error(), v));
            let mut v = vec![-1i32; 8];
            gl.getn_uniformiv(p, l, bytes, &mut v);
            out.push(Got::I(gl.get_error(), v));
            let mut v = vec![7u32; 8];
            gl.getn_uniformuiv(p, l, bytes, &mut v);
            out.push(Got::U(gl.get_error(), v));
        }
        for bytes in [n * 8, n * 8 - 1, n * 4] {
            let mut v = vec![-1.0f64; 8];
            gl.getn_uniformdv(p, l, bytes, &mut v);
            out.push(Got::D(gl.get_error(), v));
        }
    }
    for (program, l, bytes) in [
        (p, v4, -1),
        (p, -1, 32),
        (p, 1000, 32),
        (9999, v4, 32),
        (shader, v4, 32),
        (p, v4, 0),
    ] {
        let mut v = vec![-1.0f32; 8];
        gl.getn_uniformfv(program, l, bytes, &mut v);
        out.push(Got::F(gl.get_error(), v));
    }
    out
}

#[test]
fn getn_uniform_matches_the_native_driver() {
    compare(|gl| {
        let got = uniform_cases(gl);
        assert_eq!(
            got[0],
            Got::F(
                NO_ERROR,
                vec![1.5, -2.25, 3.0, 0.125, -1.0, -1.0, -1.0, -1.0]
            )
        );
        assert!(
            matches!(got[3], Got::F(INVALID_OPERATION, _)),
            "{:?}",
            got[3]
        );
        got
    });
}

/// The context's robustness queries and its reset status.
fn queries(gl: &mut dyn RobustGl) -> Vec<GLint> {
    let mut out = Vec::new();
    for pname in [
        RESET_NOTIFICATION_STRATEGY,
        CONTEXT_ROBUST_ACCESS,
        CONTEXT_FLAGS,
    ] {
        let mut v = [-1];
        gl.get_integerv(pname, &mut v);
        out.extend([v[0], gl.get_error() as GLint]);
    }
    out.push(gl.reset_status() as GLint);
    out
}

#[test]
fn robustness_queries_match_the_native_driver() {
    compare(|gl| {
        let got = queries(gl);
        assert_eq!(got[..4], [NO_RESET_NOTIFICATION as GLint, 0, 0, 0]);
        assert_eq!(got[5] & CONTEXT_FLAG_ROBUST_ACCESS_BIT as GLint, 0);
        got
    });
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

/// Both strings on both backends: every part is the frontend's.
#[test]
fn robustness_is_advertised_on_both_backends() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        for name in ["GL_KHR_robustness", "GL_ARB_robustness"] {
            assert!(
                names.iter().any(|e| e == name),
                "{}: {name}",
                backend.name()
            );
        }
    }
}

/// A context created to lose itself on a reset reports the strategy, and
/// `UNKNOWN_CONTEXT_RESET` once its server is killed.
#[test]
fn a_lose_context_on_reset_context_reports_the_reset() {
    use crate::transport::{Server, remote_context};
    let mut server = Server::start_with(&["--isolation", "threads"]);
    let kind = server
        .kinds()
        .into_iter()
        .find(|(n, _)| *n == "unix")
        .unwrap()
        .1;
    let mut ctx = remote_context(&kind);
    ctx.set_reset_strategy(LOSE_CONTEXT_ON_RESET);
    assert_eq!(
        ctx.get_integer(RESET_NOTIFICATION_STRATEGY) as GLenum,
        LOSE_CONTEXT_ON_RESET
    );
    ctx.clear(COLOR_BUFFER_BIT);
    ctx.finish();
    assert_eq!(ctx.get_graphics_reset_status(), NO_ERROR);
    server.kill();
    ctx.clear(COLOR_BUFFER_BIT);
    ctx.flush();
    assert_eq!(ctx.get_graphics_reset_status(), UNKNOWN_CONTEXT_RESET);
    // Getters on the lost context return at once and leave the destination alone.
    let mut dst = [UNTOUCHED; 64];
    ctx.readn_pixels(
        0,
        0,
        4,
        4,
        RGBA,
        UNSIGNED_BYTE,
        64,
        PixelsMut::Bytes(&mut dst),
    );
    assert!(dst.iter().all(|&b| b == UNTOUCHED));
}

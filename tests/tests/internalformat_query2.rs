//! Internal-format queries (`ARB_internalformat_query2`, GL 4.3) against the native driver
//! on both backends: every pname of the extension for every target and a list of internal
//! formats (sized, unsized, generic and specific compressed, depth and stencil, and names
//! that are no internal format), through `glGetInternalformativ` and
//! `glGetInternalformati64v`, with their errors and the number of values written.
//!
//! Where Tessera's answer is meant to differ from llvmpipe's, [`intended`] names the
//! question and the reason (a feature the context does not advertise, or a format Tessera
//! stores or renders otherwise); every other answer must be llvmpipe's. Two questions are
//! not asked: the 64-bit query with `bufSize` 0 of `MAX_COMBINED_DIMENSIONS` and with a
//! negative `bufSize`, where native Mesa 22 copies an unwritten value or writes past the
//! buffer.

#![expect(
    unsafe_code,
    reason = "the native driver's glGetInternalformat*v, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// How many values each call may write (`bufSize`), and the buffer's length.
const N: usize = 16;

/// The calls the shared [`Gl`] table has no entry for.
trait FormatGl: Gl {
    /// `glGetInternalformativ` into a buffer of [`N`] values filled with -7 first.
    fn iv(&mut self, target: GLenum, format: GLenum, pname: GLenum, n: GLsizei) -> [GLint; N];
    /// `glGetInternalformati64v` into a buffer of [`N`] values filled with -7 first.
    fn i64v(&mut self, target: GLenum, format: GLenum, pname: GLenum, n: GLsizei) -> [i64; N];
}

impl FormatGl for Context {
    fn iv(&mut self, target: GLenum, format: GLenum, pname: GLenum, n: GLsizei) -> [GLint; N] {
        let mut v = [-7; N];
        let len = n.clamp(0, N as GLsizei) as usize;
        self.get_internalformativ(target, format, pname, n, &mut v[..len]);
        v
    }

    fn i64v(&mut self, target: GLenum, format: GLenum, pname: GLenum, n: GLsizei) -> [i64; N] {
        let mut v = [-7; N];
        let len = n.clamp(0, N as GLsizei) as usize;
        self.get_internalformati64v(target, format, pname, n, &mut v[..len]);
        v
    }
}

impl FormatGl for NativeGl {
    fn iv(&mut self, target: GLenum, format: GLenum, pname: GLenum, n: GLsizei) -> [GLint; N] {
        type F = unsafe extern "system" fn(GLenum, GLenum, GLenum, GLsizei, *mut GLint);
        let f: F = self
            .entry_point("glGetInternalformativ")
            .unwrap_or_else(|e| panic!("glGetInternalformativ: {e}"));
        let mut v = [-7; N];
        // SAFETY: the context is current; `bufSize` is at most the N values of `v`.
        unsafe { f(target, format, pname, n.min(N as GLsizei), v.as_mut_ptr()) };
        v
    }

    fn i64v(&mut self, target: GLenum, format: GLenum, pname: GLenum, n: GLsizei) -> [i64; N] {
        type F = unsafe extern "system" fn(GLenum, GLenum, GLenum, GLsizei, *mut i64);
        let f: F = self
            .entry_point("glGetInternalformati64v")
            .unwrap_or_else(|e| panic!("glGetInternalformati64v: {e}"));
        let mut v = [-7; N];
        // SAFETY: the context is current; `bufSize` is at most the N values of `v`.
        unsafe { f(target, format, pname, n.min(N as GLsizei), v.as_mut_ptr()) };
        v
    }
}

/// Every target the extension names.
const TARGETS: [GLenum; 12] = [
    TEXTURE_1D,
    TEXTURE_1D_ARRAY,
    TEXTURE_2D,
    TEXTURE_2D_ARRAY,
    TEXTURE_3D,
    TEXTURE_CUBE_MAP,
    TEXTURE_CUBE_MAP_ARRAY,
    TEXTURE_RECTANGLE,
    TEXTURE_BUFFER,
    RENDERBUFFER,
    TEXTURE_2D_MULTISAMPLE,
    TEXTURE_2D_MULTISAMPLE_ARRAY,
];

/// Every pname of the extension (`SAMPLES` and `NUM_SAMPLE_COUNTS` of query1 too).
const PNAMES: [GLenum; 71] = [
    NUM_SAMPLE_COUNTS,
    SAMPLES,
    INTERNALFORMAT_SUPPORTED,
    INTERNALFORMAT_PREFERRED,
    INTERNALFORMAT_RED_SIZE,
    INTERNALFORMAT_GREEN_SIZE,
    INTERNALFORMAT_BLUE_SIZE,
    INTERNALFORMAT_ALPHA_SIZE,
    INTERNALFORMAT_DEPTH_SIZE,
    INTERNALFORMAT_STENCIL_SIZE,
    INTERNALFORMAT_SHARED_SIZE,
    INTERNALFORMAT_RED_TYPE,
    INTERNALFORMAT_GREEN_TYPE,
    INTERNALFORMAT_BLUE_TYPE,
    INTERNALFORMAT_ALPHA_TYPE,
    INTERNALFORMAT_DEPTH_TYPE,
    INTERNALFORMAT_STENCIL_TYPE,
    MAX_WIDTH,
    MAX_HEIGHT,
    MAX_DEPTH,
    MAX_LAYERS,
    MAX_COMBINED_DIMENSIONS,
    COLOR_COMPONENTS,
    DEPTH_COMPONENTS,
    STENCIL_COMPONENTS,
    COLOR_RENDERABLE,
    DEPTH_RENDERABLE,
    STENCIL_RENDERABLE,
    FRAMEBUFFER_RENDERABLE,
    FRAMEBUFFER_RENDERABLE_LAYERED,
    FRAMEBUFFER_BLEND,
    READ_PIXELS,
    READ_PIXELS_FORMAT,
    READ_PIXELS_TYPE,
    TEXTURE_IMAGE_FORMAT,
    TEXTURE_IMAGE_TYPE,
    GET_TEXTURE_IMAGE_FORMAT,
    GET_TEXTURE_IMAGE_TYPE,
    MIPMAP,
    MANUAL_GENERATE_MIPMAP,
    AUTO_GENERATE_MIPMAP,
    COLOR_ENCODING,
    SRGB_READ,
    SRGB_WRITE,
    FILTER,
    VERTEX_TEXTURE,
    TESS_CONTROL_TEXTURE,
    TESS_EVALUATION_TEXTURE,
    GEOMETRY_TEXTURE,
    FRAGMENT_TEXTURE,
    COMPUTE_TEXTURE,
    TEXTURE_SHADOW,
    TEXTURE_GATHER,
    TEXTURE_GATHER_SHADOW,
    SHADER_IMAGE_LOAD,
    SHADER_IMAGE_STORE,
    SHADER_IMAGE_ATOMIC,
    IMAGE_TEXEL_SIZE,
    IMAGE_COMPATIBILITY_CLASS,
    IMAGE_PIXEL_FORMAT,
    IMAGE_PIXEL_TYPE,
    IMAGE_FORMAT_COMPATIBILITY_TYPE,
    SIMULTANEOUS_TEXTURE_AND_DEPTH_TEST,
    SIMULTANEOUS_TEXTURE_AND_STENCIL_TEST,
    SIMULTANEOUS_TEXTURE_AND_DEPTH_WRITE,
    SIMULTANEOUS_TEXTURE_AND_STENCIL_WRITE,
    TEXTURE_COMPRESSED,
    TEXTURE_COMPRESSED_BLOCK_WIDTH,
    TEXTURE_COMPRESSED_BLOCK_HEIGHT,
    TEXTURE_COMPRESSED_BLOCK_SIZE,
    CLEAR_BUFFER,
];

/// The pnames after the 71 above: `TEXTURE_VIEW`, `VIEW_COMPATIBILITY_CLASS`, and
/// `CLEAR_TEXTURE`, which GL 4.4's `ARB_clear_texture` brings.
const MORE_PNAMES: [GLenum; 3] = [TEXTURE_VIEW, VIEW_COMPATIBILITY_CLASS, CLEAR_TEXTURE];

/// The internal formats asked about: every sized format of GL 4.3, the unsized and
/// generic compressed ones, the specific compressed ones, and names that are not internal
/// formats of a core context (`ALPHA8`, `LUMINANCE8`, S3TC, 0, `TEXTURE_2D`).
const FORMATS: [GLenum; 112] = [
    R8,
    R8_SNORM,
    R16,
    R16_SNORM,
    RG8,
    RG8_SNORM,
    RG16,
    RG16_SNORM,
    R3_G3_B2,
    RGB4,
    RGB5,
    RGB565,
    RGB8,
    RGB8_SNORM,
    RGB10,
    RGB12,
    RGB16,
    RGB16_SNORM,
    RGBA2,
    RGBA4,
    RGB5_A1,
    RGBA8,
    RGBA8_SNORM,
    RGB10_A2,
    RGB10_A2UI,
    RGBA12,
    RGBA16,
    RGBA16_SNORM,
    SRGB8,
    SRGB8_ALPHA8,
    R16F,
    RG16F,
    RGB16F,
    RGBA16F,
    R32F,
    RG32F,
    RGB32F,
    RGBA32F,
    R11F_G11F_B10F,
    RGB9_E5,
    R8I,
    R8UI,
    R16I,
    R16UI,
    R32I,
    R32UI,
    RG8I,
    RG8UI,
    RG16I,
    RG16UI,
    RG32I,
    RG32UI,
    RGB8I,
    RGB8UI,
    RGB16I,
    RGB16UI,
    RGB32I,
    RGB32UI,
    RGBA8I,
    RGBA8UI,
    RGBA16I,
    RGBA16UI,
    RGBA32I,
    RGBA32UI,
    DEPTH_COMPONENT16,
    DEPTH_COMPONENT24,
    DEPTH_COMPONENT32,
    DEPTH_COMPONENT32F,
    DEPTH24_STENCIL8,
    DEPTH32F_STENCIL8,
    STENCIL_INDEX1,
    STENCIL_INDEX4,
    STENCIL_INDEX8,
    STENCIL_INDEX16,
    RED,
    RG,
    RGB,
    RGBA,
    SRGB,
    SRGB_ALPHA,
    DEPTH_COMPONENT,
    DEPTH_STENCIL,
    STENCIL_INDEX,
    COMPRESSED_RED,
    COMPRESSED_RG,
    COMPRESSED_RGB,
    COMPRESSED_RGBA,
    COMPRESSED_SRGB,
    COMPRESSED_SRGB_ALPHA,
    COMPRESSED_RED_RGTC1,
    COMPRESSED_SIGNED_RED_RGTC1,
    COMPRESSED_RG_RGTC2,
    COMPRESSED_SIGNED_RG_RGTC2,
    COMPRESSED_RGBA_BPTC_UNORM,
    COMPRESSED_SRGB_ALPHA_BPTC_UNORM,
    COMPRESSED_RGB_BPTC_SIGNED_FLOAT,
    COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT,
    COMPRESSED_RGB8_ETC2,
    COMPRESSED_SRGB8_ETC2,
    COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2,
    COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2,
    COMPRESSED_RGBA8_ETC2_EAC,
    COMPRESSED_SRGB8_ALPHA8_ETC2_EAC,
    COMPRESSED_R11_EAC,
    COMPRESSED_SIGNED_R11_EAC,
    COMPRESSED_RG11_EAC,
    COMPRESSED_SIGNED_RG11_EAC,
    0x803C,
    0x8040,
    0x83F0,
    0,
    TEXTURE_2D,
];

/// One answer: target, format, pname, `bufSize`, the error, and the values written (-7: not
/// written).
type Line = (GLenum, GLenum, GLenum, GLsizei, GLenum, Vec<i64>);

fn transcript(gl: &mut dyn FormatGl) -> Vec<Line> {
    let mut out = Vec::new();
    let mut iv = |gl: &mut dyn FormatGl, t: GLenum, f: GLenum, p: GLenum, n: GLsizei| {
        let v = gl.iv(t, f, p, n).map(i64::from).to_vec();
        out.push((t, f, p, n, gl.get_error(), v));
    };
    for &target in &TARGETS {
        for &format in &FORMATS {
            for &pname in PNAMES.iter().chain(&MORE_PNAMES) {
                iv(gl, target, format, pname, N as GLsizei);
            }
        }
    }
    // bufSize: none, one value (of a list and of MAX_COMBINED_DIMENSIONS' two halves),
    // negative; errors: a target or pname outside the lists, and both faults at once.
    iv(gl, RENDERBUFFER, RGBA8, SAMPLES, 0);
    iv(gl, RENDERBUFFER, RGBA8, NUM_SAMPLE_COUNTS, 0);
    iv(gl, TEXTURE_2D_MULTISAMPLE, RGBA8, SAMPLES, 1);
    iv(gl, TEXTURE_2D, RGBA8, MAX_COMBINED_DIMENSIONS, 1);
    iv(gl, TEXTURE_2D, RGBA8, INTERNALFORMAT_SUPPORTED, -1);
    iv(
        gl,
        ARRAY_BUFFER,
        RGBA8,
        INTERNALFORMAT_SUPPORTED,
        N as GLsizei,
    );
    iv(gl, TEXTURE_2D, RGBA8, TEXTURE_WIDTH, N as GLsizei);
    iv(gl, TEXTURE_2D, RGBA8, 0, N as GLsizei);
    iv(gl, ARRAY_BUFFER, RGBA8, INTERNALFORMAT_SUPPORTED, -1);
    iv(gl, TEXTURE_2D, RGBA8, TEXTURE_WIDTH, -1);
    // The 64-bit query: a value past 32 bits, lists, values left alone, errors.
    let mut i64v = |gl: &mut dyn FormatGl, t: GLenum, f: GLenum, p: GLenum, n: GLsizei| {
        let v = gl.i64v(t, f, p, n).to_vec();
        out.push((t | 1 << 31, f, p, n, gl.get_error(), v));
    };
    for target in [
        TEXTURE_2D_ARRAY,
        TEXTURE_CUBE_MAP_ARRAY,
        TEXTURE_3D,
        TEXTURE_2D_MULTISAMPLE_ARRAY,
    ] {
        // Not 0: native Mesa copies the 64-bit value from an unwritten buffer then.
        for n in [1, 2, N as GLsizei] {
            i64v(gl, target, RGBA8, MAX_COMBINED_DIMENSIONS, n);
        }
    }
    for (t, f, p) in [
        (RENDERBUFFER, RGBA8, SAMPLES),
        (TEXTURE_2D, RGBA8, SAMPLES),
        (RENDERBUFFER, RGBA8, NUM_SAMPLE_COUNTS),
        (TEXTURE_2D, RGBA16F, INTERNALFORMAT_RED_TYPE),
        (TEXTURE_2D, DEPTH24_STENCIL8, INTERNALFORMAT_STENCIL_SIZE),
        (
            TEXTURE_2D,
            COMPRESSED_RG_RGTC2,
            TEXTURE_COMPRESSED_BLOCK_SIZE,
        ),
        (TEXTURE_2D, RGBA8, FRAMEBUFFER_RENDERABLE),
        (TEXTURE_2D, 0, INTERNALFORMAT_SUPPORTED),
    ] {
        for n in [0, 1, N as GLsizei] {
            i64v(gl, t, f, p, n);
        }
    }
    // A negative bufSize is left out: native Mesa writes past the buffer then.
    i64v(
        gl,
        ARRAY_BUFFER,
        RGBA8,
        INTERNALFORMAT_SUPPORTED,
        N as GLsizei,
    );
    i64v(gl, TEXTURE_2D, RGBA8, CLEAR_TEXTURE, N as GLsizei);
    out
}

/// The image-unit pnames (`ARB_shader_image_load_store`).
const IMAGE_PNAMES: [GLenum; 8] = [
    SHADER_IMAGE_LOAD,
    SHADER_IMAGE_STORE,
    SHADER_IMAGE_ATOMIC,
    IMAGE_TEXEL_SIZE,
    IMAGE_COMPATIBILITY_CLASS,
    IMAGE_PIXEL_FORMAT,
    IMAGE_PIXEL_TYPE,
    IMAGE_FORMAT_COMPATIBILITY_TYPE,
];

/// The pnames whose answer says whether a format can be rendered to.
const RENDER_PNAMES: [GLenum; 8] = [
    SAMPLES,
    NUM_SAMPLE_COUNTS,
    INTERNALFORMAT_PREFERRED,
    COLOR_RENDERABLE,
    FRAMEBUFFER_RENDERABLE,
    FRAMEBUFFER_RENDERABLE_LAYERED,
    FRAMEBUFFER_BLEND,
    MAX_COMBINED_DIMENSIONS,
];

/// The `INTERNALFORMAT_*_SIZE` pnames of colour channels.
const COLOR_SIZES: [GLenum; 4] = [
    INTERNALFORMAT_RED_SIZE,
    INTERNALFORMAT_GREEN_SIZE,
    INTERNALFORMAT_BLUE_SIZE,
    INTERNALFORMAT_ALPHA_SIZE,
];

/// Why Tessera's answer to a question differs from native llvmpipe's, where it is meant to.
fn intended(
    backend: Backend,
    target: GLenum,
    format: GLenum,
    pname: GLenum,
) -> Option<&'static str> {
    let target = target & !(1 << 31);
    if backend == Backend::Gles && IMAGE_PNAMES.contains(&pname) {
        return Some(
            "GL_ARB_shader_image_load_store is not advertised on GLES: unsupported answers",
        );
    }
    if matches!(format, STENCIL_INDEX1 | STENCIL_INDEX4 | STENCIL_INDEX16)
        && pname == INTERNALFORMAT_STENCIL_SIZE
    {
        return Some("the size GL names, as RENDERBUFFER_STENCIL_SIZE reports it (llvmpipe's 8)");
    }
    if format == 0x83F0 {
        return Some("S3TC (EXT_texture_compression_s3tc) is not advertised");
    }
    if matches!(
        format,
        COMPRESSED_RGB | COMPRESSED_RGBA | COMPRESSED_SRGB | COMPRESSED_SRGB_ALPHA
    ) && COLOR_SIZES.contains(&pname)
    {
        return Some("generic compressed formats are stored uncompressed (llvmpipe picks S3TC)");
    }
    if matches!(format, RGBA2 | RGB12 | RGBA12) && COLOR_SIZES.contains(&pname) {
        return Some("the sizes GL names for the format, as TEXTURE_*_SIZE reports them");
    }
    let not_rendered = matches!(
        format,
        RGB16F
            | RGB32F
            | RGB9_E5
            | SRGB
            | SRGB8
            | COMPRESSED_SRGB
            | RGB8I
            | RGB8UI
            | RGB16I
            | RGB16UI
            | RGB32I
            | RGB32UI
            | R8_SNORM
            | RG8_SNORM
            | RGB8_SNORM
            | RGBA8_SNORM
            | R16_SNORM
            | RG16_SNORM
            | RGB16_SNORM
            | RGBA16_SNORM
    );
    let rendering = matches!(
        target,
        RENDERBUFFER | TEXTURE_2D_MULTISAMPLE | TEXTURE_2D_MULTISAMPLE_ARRAY
    ) || RENDER_PNAMES.contains(&pname);
    if not_rendered && rendering {
        return Some(
            "renderbuffers, multisample textures and attachments take the formats GL requires \
             to be renderable; llvmpipe renders to these too",
        );
    }
    None
}

#[test]
fn answers_match_the_native_driver() {
    let mut native = NativeGl::new(4, 4).expect("native desktop GL through the system EGL");
    let expected = transcript(&mut native);
    let mut native_buffer_size = [0];
    native.get_integerv(MAX_TEXTURE_BUFFER_SIZE, &mut native_buffer_size);
    drop(native);
    let mut report = String::new();
    let mut listed = 0;
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 4, 4);
            let mut buffer_size = [0];
            ctx.get_integerv(MAX_TEXTURE_BUFFER_SIZE, &mut buffer_size);
            let got = transcript(&mut ctx);
            assert_eq!(got.len(), expected.len());
            for (g, e) in got.iter().zip(&expected) {
                let mut e = e.clone();
                // A buffer texture's MAX_WIDTH is the context's MAX_TEXTURE_BUFFER_SIZE, the
                // backend's own limit (and so its MAX_COMBINED_DIMENSIONS).
                if e.0 == TEXTURE_BUFFER
                    && matches!(e.2, MAX_WIDTH | MAX_COMBINED_DIMENSIONS)
                    && e.5[0] == i64::from(native_buffer_size[0])
                {
                    e.5[0] = i64::from(buffer_size[0]);
                }
                if *g == e {
                    continue;
                }
                if intended(backend, e.0, e.1, e.2).is_some() {
                    listed += 1;
                    continue;
                }
                report += &format!(
                    "{} {}: {:#06x} {:#06x} {:#06x} bufSize {}: got {:#x} {:?}, native {:#x} {:?}\n",
                    backend.name(),
                    transport.name(),
                    e.0,
                    e.1,
                    e.2,
                    e.3,
                    g.4,
                    written(&g.5),
                    e.4,
                    written(&e.5)
                );
            }
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    assert!(report.is_empty(), "(got, native):\n{report}");
    // The listed differences stay a small part of each of the four runs.
    assert!(
        listed / 4 < expected.len() / 10,
        "{listed} listed differences"
    );
    let answer = |t: GLenum, f: GLenum, p: GLenum| {
        expected
            .iter()
            .find(|l| (l.0, l.1, l.2, l.3) == (t, f, p, N as GLsizei))
            .map(|l| (l.4, written(&l.5).to_vec()))
            .unwrap()
    };
    assert_eq!(
        answer(TEXTURE_2D, RGBA8, INTERNALFORMAT_SUPPORTED),
        (NO_ERROR, vec![1])
    );
    assert_eq!(
        answer(TEXTURE_2D, RGBA8, INTERNALFORMAT_RED_SIZE),
        (NO_ERROR, vec![8])
    );
    assert_eq!(
        answer(TEXTURE_2D, 0, INTERNALFORMAT_SUPPORTED),
        (NO_ERROR, vec![0])
    );
    assert_eq!(
        answer(TEXTURE_2D, RGBA8, CLEAR_TEXTURE),
        (INVALID_ENUM, vec![])
    );
}

/// The values a call wrote.
fn written(v: &[i64]) -> &[i64] {
    &v[..v.iter().take_while(|&&x| x != -7).count()]
}

//! Internal-format sample counts (`ARB_internalformat_query`, GL 4.2) against the native
//! driver on both backends: `glGetInternalformativ`'s `NUM_SAMPLE_COUNTS` and `SAMPLES` for
//! the three targets and colour, depth, stencil, integer and non-renderable formats, its
//! errors (target, pname, `bufSize`) and that it writes at most `bufSize` values. The counts
//! come from the engine's rounding of sample counts, so a backend whose counts differ from
//! the native driver's would differ here (lavapipe and llvmpipe's GLES both have 4, as native
//! llvmpipe). `RGB9_E5` is left out: llvmpipe renders to it and gives it 4 samples, while
//! Tessera, as GL requires of no implementation, does not render to it and gives none.

#![expect(
    unsafe_code,
    reason = "the native driver's glGetInternalformativ, called through its C signature"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The call the shared [`Gl`] table has no entry for.
trait FormatGl: Gl {
    /// `glGetInternalformativ` into a buffer of 6 values filled with -7 first.
    fn internalformat(
        &mut self,
        target: GLenum,
        format: GLenum,
        pname: GLenum,
        buf_size: GLsizei,
    ) -> [GLint; 6];
}

impl FormatGl for Context {
    fn internalformat(
        &mut self,
        target: GLenum,
        format: GLenum,
        pname: GLenum,
        buf_size: GLsizei,
    ) -> [GLint; 6] {
        let mut v = [-7; 6];
        let n = buf_size.clamp(0, 6) as usize;
        Context::get_internalformativ(self, target, format, pname, buf_size, &mut v[..n]);
        v
    }
}

impl FormatGl for NativeGl {
    fn internalformat(
        &mut self,
        target: GLenum,
        format: GLenum,
        pname: GLenum,
        buf_size: GLsizei,
    ) -> [GLint; 6] {
        type F = unsafe extern "system" fn(GLenum, GLenum, GLenum, GLsizei, *mut GLint);
        let f: F = self
            .entry_point("glGetInternalformativ")
            .unwrap_or_else(|e| panic!("glGetInternalformativ: {e}"));
        let mut v = [-7; 6];
        // SAFETY: the context is current; `bufSize` is at most the 6 values of `v`.
        unsafe { f(target, format, pname, buf_size.min(6), v.as_mut_ptr()) };
        v
    }
}

/// What was asked, the error, and the values (-7: not written).
type Line = (GLenum, GLenum, GLenum, GLsizei, GLenum, [GLint; 6]);

fn transcript(gl: &mut dyn FormatGl) -> Vec<Line> {
    let mut out = Vec::new();
    let mut ask = |gl: &mut dyn FormatGl, t: GLenum, f: GLenum, p: GLenum, n: GLsizei| {
        let v = gl.internalformat(t, f, p, n);
        out.push((t, f, p, n, gl.get_error(), v));
    };
    for target in [
        RENDERBUFFER,
        TEXTURE_2D_MULTISAMPLE,
        TEXTURE_2D_MULTISAMPLE_ARRAY,
    ] {
        for format in [
            RGBA8,
            R8,
            RGB10_A2,
            SRGB8_ALPHA8,
            RGBA16F,
            RGBA32F,
            RG16I,
            RGBA32UI,
            DEPTH_COMPONENT16,
            DEPTH24_STENCIL8,
            DEPTH_COMPONENT32F,
            STENCIL_INDEX8,
            COMPRESSED_RED_RGTC1,
        ] {
            for pname in [NUM_SAMPLE_COUNTS, SAMPLES] {
                ask(gl, target, format, pname, 6);
            }
        }
    }
    ask(gl, RENDERBUFFER, RGBA8, SAMPLES, 0);
    ask(gl, RENDERBUFFER, RGBA8, NUM_SAMPLE_COUNTS, 0);
    ask(gl, RENDERBUFFER, RGBA8, SAMPLES, 1);
    ask(gl, RENDERBUFFER, RGBA8, SAMPLES, -1);
    ask(gl, ARRAY_BUFFER, RGBA8, SAMPLES, 6);
    ask(gl, RENDERBUFFER, RGBA8, TEXTURE_WIDTH, 6);
    ask(gl, ARRAY_BUFFER, RGBA8, SAMPLES, -1);
    ask(gl, RENDERBUFFER, RGBA8, TEXTURE_WIDTH, -1);
    out
}

#[test]
fn sample_counts_match_the_native_driver() {
    let mut native = NativeGl::new(4, 4).expect("native desktop GL through the system EGL");
    let expected = transcript(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 4, 4);
            let got = transcript(&mut ctx);
            let differ: Vec<_> = got.iter().zip(&expected).filter(|(g, e)| g != e).collect();
            assert!(
                differ.is_empty() && got.len() == expected.len(),
                "{} {}: (got, native) {differ:?}",
                backend.name(),
                transport.name()
            );
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    // RGBA8's counts, and none for a format that cannot be rendered to.
    assert_eq!(expected[0].5[0], 1);
    assert_eq!(expected[1].5[..2], [4, -7]);
    let rgtc = expected
        .iter()
        .find(|l| l.1 == COMPRESSED_RED_RGTC1 && l.2 == NUM_SAMPLE_COUNTS)
        .unwrap();
    assert_eq!(rgtc.5[0], 0);
}

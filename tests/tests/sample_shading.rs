//! Sample shading's state (`ARB_sample_shading`, GL 4.0) against the native driver on both
//! backends: `glMinSampleShading` clamped to [0, 1], the `SAMPLE_SHADING` capability and
//! their queries. Values and errors must be exactly the native ones. (No backend shades
//! per sample yet, so the extension is not advertised and no frame is compared.)

#![expect(
    unsafe_code,
    reason = "the native driver's glIsEnabled, called through its C signature"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// `glIsEnabled`, which the shared [`Gl`] table has no entry for.
trait ShadingGl: Gl {
    /// `glIsEnabled`.
    fn is_enabled_cap(&mut self, cap: GLenum) -> bool;
}

impl ShadingGl for Context {
    fn is_enabled_cap(&mut self, cap: GLenum) -> bool {
        self.is_enabled(cap) != 0
    }
}

impl ShadingGl for NativeGl {
    fn is_enabled_cap(&mut self, cap: GLenum) -> bool {
        type F = unsafe extern "system" fn(GLenum) -> GLboolean;
        let f: F = self
            .entry_point("glIsEnabled")
            .unwrap_or_else(|e| panic!("glIsEnabled: {e}"));
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(cap) != 0 }
    }
}

const SIZE: i32 = 8;

/// One line of the transcript: the call, what the queries answer, the error after them.
type Line = (&'static str, f32, GLint, bool, GLint, GLenum);

fn line(gl: &mut dyn ShadingGl, call: &'static str) -> Line {
    let mut f = [-7.0];
    gl.get_floatv(MIN_SAMPLE_SHADING_VALUE, &mut f);
    let mut i = [-7];
    gl.get_integerv(MIN_SAMPLE_SHADING_VALUE, &mut i);
    let on = gl.is_enabled_cap(SAMPLE_SHADING);
    let mut b = [-7];
    gl.get_integerv(SAMPLE_SHADING, &mut b);
    (call, f[0], i[0], on, b[0], gl.get_error())
}

/// The state after each call, from the defaults on.
fn transcript(gl: &mut dyn ShadingGl) -> Vec<Line> {
    let mut out = vec![line(gl, "defaults")];
    let mut step = |gl: &mut dyn ShadingGl, call: &'static str, f: &dyn Fn(&mut dyn ShadingGl)| {
        f(gl);
        let e = gl.get_error();
        let mut l = line(gl, call);
        if l.5 == NO_ERROR {
            l.5 = e;
        }
        out.push(l);
    };
    step(gl, "min 0.25", &|gl| gl.min_sample_shading(0.25));
    step(gl, "enable", &|gl| gl.enable(SAMPLE_SHADING));
    step(gl, "min 2.0", &|gl| gl.min_sample_shading(2.0));
    step(gl, "min 0.6", &|gl| gl.min_sample_shading(0.6));
    step(gl, "min -1.0", &|gl| gl.min_sample_shading(-1.0));
    step(gl, "disable", &|gl| gl.disable(SAMPLE_SHADING));
    step(gl, "min 1.0", &|gl| gl.min_sample_shading(1.0));
    step(gl, "enable", &|gl| gl.enable(SAMPLE_SHADING));
    out
}

#[test]
fn sample_shading_state_matches_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = transcript(&mut native);
    drop(native);
    assert_eq!(expected[0], ("defaults", 0.0, 0, false, 0, NO_ERROR));
    assert_eq!(expected[3].1, 1.0, "clamped to 1");
    assert_eq!(expected[5].1, 0.0, "clamped to 0");
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = transcript(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

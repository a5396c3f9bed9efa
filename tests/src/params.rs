//! Texture and sampler parameter reads and a native-versus-Tessera comparison shared by the
//! sampler-state tests (`texture_mirror_clamp.rs`, `texture_filter_anisotropic.rs`): the
//! getters the shared [`Gl`] table has no entry for, and a runner that checks a scene's
//! result on both backends over `inproc` and `thread` against the native driver's.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};

use crate::differential::{Backend, tessera_on};
use crate::gl::{Gl, NativeGl};

/// Parameter getters of one value (-7 where nothing was written), and the extension list.
pub trait ParamGl: Gl {
    /// `glGetTexParameteriv`.
    fn tex_param(&mut self, target: GLenum, pname: GLenum) -> GLint;
    /// `glGetTexParameterfv`.
    fn tex_paramf(&mut self, target: GLenum, pname: GLenum) -> GLfloat;
    /// `glGetSamplerParameteriv`.
    fn sampler_param(&mut self, sampler: GLuint, pname: GLenum) -> GLint;
    /// `glGetSamplerParameterfv`.
    fn sampler_paramf(&mut self, sampler: GLuint, pname: GLenum) -> GLfloat;
    /// Whether the context advertises extension `name`.
    fn advertises(&mut self, name: &str) -> bool;
}

impl ParamGl for Context {
    fn tex_param(&mut self, target: GLenum, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_tex_parameteriv(self, target, pname, &mut v);
        v[0]
    }
    fn tex_paramf(&mut self, target: GLenum, pname: GLenum) -> GLfloat {
        let mut v = [-7.0];
        Context::get_tex_parameterfv(self, target, pname, &mut v);
        v[0]
    }
    fn sampler_param(&mut self, sampler: GLuint, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_sampler_parameteriv(self, sampler, pname, &mut v);
        v[0]
    }
    fn sampler_paramf(&mut self, sampler: GLuint, pname: GLenum) -> GLfloat {
        let mut v = [-7.0];
        Context::get_sampler_parameterfv(self, sampler, pname, &mut v);
        v[0]
    }
    fn advertises(&mut self, name: &str) -> bool {
        let mut n = [0];
        Context::get_integerv(self, NUM_EXTENSIONS, &mut n);
        (0..n[0].max(0) as GLuint).any(|i| self.get_stringi(EXTENSIONS, i).as_deref() == Some(name))
    }
}

/// One value of a native `glGet*Parameter*v(object, pname, out)` entry point.
fn native_get<T: Copy>(gl: &NativeGl, entry: &str, object: GLuint, pname: GLenum, init: T) -> T {
    type F<T> = unsafe extern "system" fn(GLuint, GLenum, *mut T);
    let f: F<T> = gl
        .entry_point(entry)
        .unwrap_or_else(|e| panic!("{entry}: {e}"));
    let mut v = init;
    // SAFETY: the driver's entry point with its C signature (a texture target and a sampler
    // name are both a GLuint); the context is current; the pnames asked have one value.
    unsafe { f(object, pname, &mut v) };
    v
}

impl ParamGl for NativeGl {
    fn tex_param(&mut self, target: GLenum, pname: GLenum) -> GLint {
        native_get(self, "glGetTexParameteriv", target, pname, -7)
    }
    fn tex_paramf(&mut self, target: GLenum, pname: GLenum) -> GLfloat {
        native_get(self, "glGetTexParameterfv", target, pname, -7.0)
    }
    fn sampler_param(&mut self, sampler: GLuint, pname: GLenum) -> GLint {
        native_get(self, "glGetSamplerParameteriv", sampler, pname, -7)
    }
    fn sampler_paramf(&mut self, sampler: GLuint, pname: GLenum) -> GLfloat {
        native_get(self, "glGetSamplerParameterfv", sampler, pname, -7.0)
    }
    fn advertises(&mut self, name: &str) -> bool {
        self.extensions().iter().any(|e| e == name)
    }
}

/// Runs `scene` natively and on both backends (inproc and thread) on a `width` x `height`
/// target; each backend's result must be `same` as the native one, its session alive and its
/// events none (but the Vulkan backend's one note that it keeps rectangle textures as 2D
/// ones, sampled with normalized coordinates). Returns the native result and each backend's.
pub fn compare_by<T: std::fmt::Debug>(
    width: i32,
    height: i32,
    scene: impl Fn(&mut dyn ParamGl) -> T,
    same: impl Fn(&T, &T) -> bool,
) -> (T, Vec<T>) {
    let mut native =
        NativeGl::new(width, height).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    let mut others = Vec::new();
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx: Context = tessera_on(backend, transport.clone(), width, height);
            let got = scene(&mut ctx);
            assert!(
                same(&got, &expected),
                "{} {}: {got:?}, native {expected:?}",
                backend.name(),
                transport.name()
            );
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx
                .take_events()
                .into_iter()
                .filter(|e| {
                    !matches!(e, Event::Unsupported { what }
                        if what.starts_with("rectangle textures are 2D textures"))
                })
                .collect();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
            others.push(got);
        }
    }
    (expected, others)
}

//! `eglCreateContext` requests answered by the system EGL (Mesa, llvmpipe: the oracle) and by
//! Tessera's EGL, for tests of which context attributes are granted and what the created
//! contexts report.
//!
//! A request is an attribute list (without `EGL_NONE`) and, optionally, the index of an
//! earlier request whose context to share with. Each answer is the EGL error of the call
//! (`EGL_SUCCESS` when a context was made) and, for a made context, the values of the asked
//! `glGetIntegerv` names followed by `glGetError` after `glEnable` of an enum that names no
//! capability (`INVALID_ENUM`, except in a no-error context).

use std::ffi::c_void;

use tessera_engine::egl::{EglError, Thread, registry, tokens as egl};
use tessera_engine::gl::{GLenum, GLint};

use crate::gl::NativeGl;

/// `EGL_SUCCESS`.
pub const EGL_SUCCESS: i32 = 0x3000;
/// `EGL_BAD_ATTRIBUTE`.
pub const EGL_BAD_ATTRIBUTE: i32 = 0x3004;
/// `EGL_BAD_MATCH`.
pub const EGL_BAD_MATCH: i32 = 0x3009;

/// An attribute list and the index of the request whose context it shares with.
pub type Request = (Vec<i32>, Option<usize>);

/// One request's EGL error, and the made context's values ([module docs](self)).
pub type Answer = (i32, Option<Vec<GLint>>);

/// An enum `glEnable` refuses: `INVALID_ENUM` in any context but a no-error one.
const NO_CAPABILITY: GLenum = 0x1234;

/// A 3.3 core attribute list plus `extra`.
pub fn core(extra: &[i32]) -> Vec<i32> {
    let mut list = vec![
        egl::CONTEXT_MAJOR_VERSION,
        3,
        egl::CONTEXT_MINOR_VERSION,
        3,
        egl::CONTEXT_OPENGL_PROFILE_MASK,
        egl::CONTEXT_OPENGL_CORE_PROFILE_BIT,
    ];
    list.extend_from_slice(extra);
    list
}

type EglDisplay = *mut c_void;
type EglContext = *mut c_void;

/// The system EGL's answers to `requests`, on its surfaceless platform.
pub fn native(requests: &[Request], pnames: &[GLenum]) -> Vec<Answer> {
    // The oracle's own context loads the system EGL and GL (by full path).
    let _gl = NativeGl::new(8, 8).expect("native desktop GL through the system EGL");
    let path = [
        "/usr/lib/x86_64-linux-gnu/libEGL.so.1",
        "/usr/lib64/libEGL.so.1",
        "/usr/lib/libEGL.so.1",
    ]
    .into_iter()
    .find(|p| std::path::Path::new(p).exists())
    .expect("the system libEGL.so.1");
    // SAFETY: the library is loaded already (by the oracle); loading it again runs nothing.
    let lib = unsafe {
        libloading::os::unix::Library::open(
            Some(path),
            libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_NODELETE,
        )
    }
    .expect("the system libEGL.so.1");
    type GetPlatformDisplay =
        unsafe extern "system" fn(u32, *mut c_void, *const isize) -> EglDisplay;
    type Initialize = unsafe extern "system" fn(EglDisplay, *mut i32, *mut i32) -> u32;
    type BindApi = unsafe extern "system" fn(u32) -> u32;
    type CreateContext =
        unsafe extern "system" fn(EglDisplay, *mut c_void, EglContext, *const i32) -> EglContext;
    type MakeCurrent =
        unsafe extern "system" fn(EglDisplay, *mut c_void, *mut c_void, EglContext) -> u32;
    type GetError = unsafe extern "system" fn() -> i32;
    type GetProc = unsafe extern "system" fn(*const u8) -> *const c_void;
    type GetIntegerv = unsafe extern "system" fn(GLenum, *mut GLint);
    type Enable = unsafe extern "system" fn(GLenum);
    type GlGetError = unsafe extern "system" fn() -> GLenum;
    // SAFETY: each symbol is looked up with its C signature; attribute lists are
    // EGL_NONE-terminated and outlive the calls; out-parameters are live locals; GL is
    // called only while a context is current, through pointers eglGetProcAddress gave.
    unsafe {
        let get_platform_display = *lib
            .get::<GetPlatformDisplay>(b"eglGetPlatformDisplay\0")
            .unwrap();
        let initialize = *lib.get::<Initialize>(b"eglInitialize\0").unwrap();
        let bind_api = *lib.get::<BindApi>(b"eglBindAPI\0").unwrap();
        let create_context = *lib.get::<CreateContext>(b"eglCreateContext\0").unwrap();
        let make_current = *lib.get::<MakeCurrent>(b"eglMakeCurrent\0").unwrap();
        let get_error = *lib.get::<GetError>(b"eglGetError\0").unwrap();
        let get_proc = *lib.get::<GetProc>(b"eglGetProcAddress\0").unwrap();
        let gl = |name: &[u8]| {
            let p = get_proc(name.as_ptr());
            assert!(!p.is_null());
            p
        };
        let get_integerv: GetIntegerv = std::mem::transmute(gl(b"glGetIntegerv\0"));
        let enable: Enable = std::mem::transmute(gl(b"glEnable\0"));
        let gl_get_error: GlGetError = std::mem::transmute(gl(b"glGetError\0"));
        let display = get_platform_display(
            egl::PLATFORM_SURFACELESS_MESA as u32,
            std::ptr::null_mut(),
            std::ptr::null(),
        );
        let (mut major, mut minor) = (0, 0);
        assert_ne!(initialize(display, &mut major, &mut minor), 0);
        assert_ne!(bind_api(egl::OPENGL_API as u32), 0);
        let mut made: Vec<EglContext> = Vec::new();
        let mut out = Vec::new();
        for (list, share) in requests {
            let mut list = list.clone();
            list.push(egl::NONE);
            let share = share.map_or(std::ptr::null_mut(), |s| made[s]);
            let ctx = create_context(display, std::ptr::null_mut(), share, list.as_ptr());
            let error = get_error();
            made.push(ctx);
            if ctx.is_null() {
                out.push((error, None));
                continue;
            }
            assert_ne!(
                make_current(display, std::ptr::null_mut(), std::ptr::null_mut(), ctx),
                0
            );
            let mut values = Vec::new();
            for &pname in pnames {
                let mut v = -1;
                get_integerv(pname, &mut v);
                values.push(v);
            }
            enable(NO_CAPABILITY);
            values.push(gl_get_error() as GLint);
            out.push((error, Some(values)));
        }
        make_current(
            display,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        );
        out
    }
}

/// Tessera's EGL's answers to `requests` (surfaceless display, `EGL_NO_CONFIG_KHR`), on the
/// backend `TESSERA_BACKEND` names.
pub fn tessera(requests: &[Request], pnames: &[GLenum]) -> Vec<Answer> {
    crate::ensure_runtime_dir();
    let mut t = Thread::new();
    let dpy = {
        let mut reg = registry();
        let dpy = reg
            .get_platform_display(egl::PLATFORM_SURFACELESS_MESA, true, &[])
            .unwrap();
        reg.initialize(dpy).unwrap();
        dpy
    };
    t.bind_api(egl::OPENGL_API).unwrap();
    let mut made = Vec::new();
    let mut out = Vec::new();
    for (list, share) in requests {
        let pairs: Vec<(i32, i32)> = list.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let share = share.map_or(0, |s: usize| made[s]);
        let mut reg = registry();
        match t.create_context(&mut reg, dpy, 0, share, &pairs) {
            Err(e) => {
                made.push(0);
                let code = match e {
                    EglError::BadMatch => EGL_BAD_MATCH,
                    EglError::BadAttribute => EGL_BAD_ATTRIBUTE,
                    other => panic!("unexpected {other:?}"),
                };
                out.push((code, None));
            }
            Ok(ctx) => {
                made.push(ctx);
                t.make_current(&mut reg, dpy, 0, 0, ctx).unwrap();
                drop(reg);
                let gl = t.gl().unwrap();
                let mut values: Vec<GLint> = pnames.iter().map(|&p| gl.get_integer(p)).collect();
                gl.enable(NO_CAPABILITY);
                values.push(gl.get_error() as GLint);
                out.push((EGL_SUCCESS, Some(values)));
            }
        }
    }
    let mut reg = registry();
    t.make_current(&mut reg, dpy, 0, 0, 0).unwrap();
    for ctx in made.into_iter().filter(|&c| c != 0) {
        t.destroy_context(&mut reg, dpy, ctx).unwrap();
    }
    out
}

//! `GL_KHR_no_error` contexts (GL 4.6) against the native driver: `eglCreateContext` with
//! `EGL_CONTEXT_OPENGL_NO_ERROR_KHR` granted and refused as the system EGL (Mesa, llvmpipe)
//! grants and refuses it — with a debug or robust-access context, below OpenGL 2.0, and
//! sharing with a context of the other setting — and the created contexts' `CONTEXT_FLAGS`
//! and `glGetError` after a call that raises an error elsewhere, equal to native's; a scene
//! drawn in no-error contexts on both backends (Vulkan with the validation layer on, which
//! must report nothing) giving native's pixels; and invalid calls in a no-error context,
//! which neither panic nor reach a backend, raise nothing and leave the next frame native's.

#![expect(
    unsafe_code,
    reason = "the system EGL and GL, called through their C signatures"
)]

use std::ffi::c_void;

use tessera_engine::Context;
use tessera_engine::config::{BackendKind, Config, SurfaceConfig};
use tessera_engine::egl::{EglError, Thread, registry, tokens as egl};
use tessera_engine::gl::*;
use tessera_engine::wire::Event;
use tessera_tests::differential::Backend;
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

const SIZE: i32 = 8;

const EGL_SUCCESS: i32 = 0x3000;
const EGL_BAD_ATTRIBUTE: i32 = 0x3004;
const EGL_BAD_MATCH: i32 = 0x3009;

/// An attribute list: 3.3 core plus `extra`.
fn core(extra: &[i32]) -> Vec<i32> {
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

const NO_ERROR_ON: [i32; 2] = [egl::CONTEXT_OPENGL_NO_ERROR_KHR, egl::TRUE];

/// The requests compared: `(attributes, index of the request whose context to share with)`.
fn requests() -> Vec<(Vec<i32>, Option<usize>)> {
    vec![
        // 0: a no-error context, and 1: a plain one.
        (core(&NO_ERROR_ON), None),
        (core(&[]), None),
        // With a debug context, by flag and by attribute; with robust access.
        (
            core(&[
                egl::CONTEXT_OPENGL_NO_ERROR_KHR,
                egl::TRUE,
                egl::CONTEXT_FLAGS_KHR,
                egl::CONTEXT_OPENGL_DEBUG_BIT_KHR,
            ]),
            None,
        ),
        (
            core(&[
                egl::CONTEXT_OPENGL_DEBUG,
                egl::TRUE,
                egl::CONTEXT_OPENGL_NO_ERROR_KHR,
                egl::TRUE,
            ]),
            None,
        ),
        (
            core(&[
                egl::CONTEXT_OPENGL_NO_ERROR_KHR,
                egl::TRUE,
                egl::CONTEXT_OPENGL_ROBUST_ACCESS,
                egl::TRUE,
            ]),
            None,
        ),
        // Off, with a debug context: no conflict.
        (
            core(&[
                egl::CONTEXT_OPENGL_NO_ERROR_KHR,
                egl::FALSE,
                egl::CONTEXT_OPENGL_DEBUG,
                egl::TRUE,
            ]),
            None,
        ),
        // OpenGL 1.0 (no version asked for).
        (NO_ERROR_ON.to_vec(), None),
        // Sharing: no-error with no-error, no-error with plain, plain with no-error.
        (core(&NO_ERROR_ON), Some(0)),
        (core(&NO_ERROR_ON), Some(1)),
        (core(&[]), Some(0)),
        // Any non-zero value is true.
        (core(&[egl::CONTEXT_OPENGL_NO_ERROR_KHR, 2]), Some(0)),
    ]
}

/// What a created context answers: `CONTEXT_FLAGS`, and `glGetError` after `glEnable` of
/// an enum that names no capability (`INVALID_ENUM` unless the context is a no-error one).
type Answers = (GLint, GLenum);

type EglDisplay = *mut c_void;
type EglContext = *mut c_void;

/// The system EGL's answers to [`requests`]: each request's error, and each created
/// context's [`Answers`].
fn native() -> Vec<(i32, Option<Answers>)> {
    // The oracle's own context loads the system EGL and GL (by full path).
    let _gl = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    // By full path, as the oracle's: never Tessera's own libEGL.
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
        for (list, share) in requests() {
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
            let mut flags = 0;
            get_integerv(CONTEXT_FLAGS, &mut flags);
            enable(0x1234);
            out.push((error, Some((flags, gl_get_error()))));
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

/// Tessera's EGL's answers to [`requests`] (surfaceless display, `EGL_NO_CONFIG_KHR`).
fn tessera() -> Vec<(i32, Option<Answers>)> {
    tessera_tests::ensure_runtime_dir();
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
    for (list, share) in requests() {
        let pairs: Vec<(i32, i32)> = list.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let share = share.map_or(0, |s: usize| made[s]);
        let mut reg = registry();
        let created = t.create_context(&mut reg, dpy, 0, share, &pairs);
        match created {
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
                let flags = gl.get_integer(CONTEXT_FLAGS);
                gl.enable(0x1234);
                out.push((EGL_SUCCESS, Some((flags, gl.get_error()))));
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

#[test]
fn no_error_contexts_are_granted_and_refused_as_native_egl_does() {
    let expected = native();
    // The oracle is a fair one: it grants no-error contexts, flags them, and raises
    // INVALID_ENUM in the plain context only.
    assert_eq!(expected[0], (EGL_SUCCESS, Some((0x8, NO_ERROR))));
    assert_eq!(expected[1], (EGL_SUCCESS, Some((0, INVALID_ENUM))));
    assert_eq!(expected[2].0, EGL_BAD_MATCH);
    let got = tessera();
    for (i, (request, _)) in requests().iter().enumerate() {
        assert_eq!(got[i], expected[i], "request {i}: {request:x?}");
    }
}

#[test]
fn the_egl_and_gl_strings_name_no_error() {
    let mut reg = registry();
    let dpy = reg
        .get_platform_display(egl::PLATFORM_SURFACELESS_MESA, true, &[])
        .unwrap();
    reg.initialize(dpy).unwrap();
    let egl_extensions = reg.query_string(Some(dpy), egl::EXTENSIONS).unwrap();
    assert!(
        egl_extensions
            .to_str()
            .unwrap()
            .split(' ')
            .any(|e| e == "EGL_KHR_create_context_no_error"),
        "{egl_extensions:?}"
    );
    drop(reg);
    for backend in Backend::ALL {
        let mut ctx = no_error_context(backend);
        let names: Vec<String> = (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
            .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
            .collect();
        assert!(
            names.iter().any(|e| e == "GL_KHR_no_error"),
            "{}: {names:?}",
            backend.name()
        );
    }
}

/// A no-error context on `backend` (Vulkan with the validation layer on), inproc.
fn no_error_context(backend: Backend) -> Context {
    tessera_tests::ensure_runtime_dir();
    let config = Config {
        backend: BackendKind::Gles,
        surface: Some(SurfaceConfig::new(SIZE as u32, SIZE as u32)),
        no_error: true,
        ..Config::default()
    };
    let ctx = match backend {
        Backend::Gles => Context::new(&config).expect("the GLES backend (Mesa llvmpipe)"),
        Backend::Vulkan => {
            tessera_tests::ensure_lavapipe();
            let options = tessera_backend_vk::VkOptions {
                validation: true,
                ..Default::default()
            };
            let vk = tessera_backend_vk::VulkanBackend::with_options(&options)
                .expect("the Vulkan backend (lavapipe, vulkan-validationlayers)");
            Context::with_backend(&config, Box::new(vk))
        }
    };
    assert!(ctx.no_error());
    ctx
}

const VS: &str = "#version 330
in vec2 pos;
uniform vec2 shift;
void main() { gl_Position = vec4(pos + shift, 0.0, 1.0); }
";

const FS: &str = "#version 330
uniform vec4 colour;
out vec4 o;
void main() { o = colour; }
";

/// Two frames of a triangle moved and coloured by uniforms, blended over a clear; with
/// `invalid`, calls that raise errors in other contexts come between the frames' valid
/// ones. Returns the frames and `glGetError` at the end.
fn scene(gl: &mut dyn Gl, invalid: bool) -> (Vec<Vec<u8>>, GLenum) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let bytes: Vec<u8> = [-0.75f32, -0.75, 0.75, -0.5, -0.25, 0.75]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    let p = link_program(gl, VS, FS);
    gl.use_program(p);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let shift = gl.get_uniform_location(p, "shift");
    let colour = gl.get_uniform_location(p, "colour");
    gl.viewport(0, 0, SIZE, SIZE);
    gl.enable(BLEND);
    gl.blend_func(SRC_ALPHA, ONE_MINUS_SRC_ALPHA);
    let mut frames = Vec::new();
    for s in [[0.0f32, 0.0], [0.25, -0.125]] {
        gl.clear_color(0.125, 0.25, 0.5, 1.0);
        gl.clear(COLOR_BUFFER_BIT);
        if invalid {
            invalid_calls(gl, p);
        }
        gl.uniform2fv(shift, &s);
        gl.uniform4fv(colour, &[1.0, 0.5, 0.25, 0.75]);
        gl.draw_arrays(TRIANGLES, 0, 3);
        let mut px = vec![0; (SIZE * SIZE * 4) as usize];
        gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
        frames.push(px);
    }
    (frames, gl.get_error())
}

/// Calls that raise errors in a context that checks them: a draw of no known mode, of a
/// negative count, of an unknown index type and past a missing element buffer, a capability,
/// a blend factor, a buffer target and a texture target that do not exist, a name never
/// generated, a negative viewport, uniforms at locations the program lacks and of kinds
/// its uniforms are not, a deleted program. None may panic, reach a backend, or change what
/// the valid calls draw.
fn invalid_calls(gl: &mut dyn Gl, program: GLuint) {
    gl.draw_arrays(0x1234, 0, 3);
    gl.draw_arrays(TRIANGLES, 0, -3);
    gl.draw_elements(TRIANGLES, 3, FLOAT, 0);
    gl.draw_elements(TRIANGLES, 3, UNSIGNED_SHORT, 0);
    gl.enable(0x1234);
    gl.disable(0x1234);
    gl.blend_func(0x1234, ONE);
    gl.bind_buffer(0x1234, 7);
    gl.bind_texture(0x1234, 7);
    gl.bind_buffer(ARRAY_BUFFER, 0xdead);
    gl.viewport(0, 0, -1, -1);
    gl.uniform4fv(1000, &[0.0; 4]);
    gl.uniform1fv(-7, &[0.0]);
    gl.uniform1iv(0, &[1 << 20]);
    gl.uniform4fv(0, &[9.0, 9.0, 9.0, 9.0]);
    gl.use_program(0xbeef);
    gl.delete_program(0xbeef);
    gl.active_texture(TEXTURE0 + 100_000);
    gl.vertex_attrib_pointer(100_000, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(100_000);
    gl.bind_vertex_array(0xcafe);
    // The uniforms' own values and the program stay as the valid calls set them.
    gl.use_program(program);
}

#[test]
fn a_no_error_context_draws_native_s_pixels_on_both_backends() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native, false);
    drop(native);
    assert_eq!(expected.1, NO_ERROR);
    assert_ne!(expected.0[0], expected.0[1], "the frames differ");
    for backend in Backend::ALL {
        let mut ctx = no_error_context(backend);
        assert_eq!(ctx.get_integer(CONTEXT_FLAGS), 0x8, "{}", backend.name());
        let got = scene(&mut ctx, false);
        ctx.finish();
        let events: Vec<Event> = ctx.take_events();
        assert_eq!(got, expected, "{}", backend.name());
        assert!(events.is_empty(), "{}: {events:?}", backend.name());
    }
}

#[test]
fn invalid_calls_in_a_no_error_context_raise_nothing_and_change_nothing_drawn() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native, false);
    drop(native);
    for backend in Backend::ALL {
        // In a context that checks them, the calls raise errors (so they are invalid).
        let mut checked = tessera_tests::differential::tessera_on(
            backend,
            tessera_engine::wire::TransportKind::Inproc,
            SIZE,
            SIZE,
        );
        let (frames, error) = scene(&mut checked, true);
        assert_ne!(error, NO_ERROR, "{}", backend.name());
        drop(frames);
        let mut ctx = no_error_context(backend);
        let got = scene(&mut ctx, true);
        ctx.finish();
        let events: Vec<Event> = ctx.take_events();
        assert!(!ctx.is_lost(), "{}", backend.name());
        assert_eq!(got, expected, "{}", backend.name());
        assert!(events.is_empty(), "{}: {events:?}", backend.name());
    }
}

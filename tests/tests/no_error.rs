//! `GL_KHR_no_error` contexts (GL 4.6) against the native driver: `eglCreateContext` with
//! `EGL_CONTEXT_OPENGL_NO_ERROR_KHR` granted and refused as the system EGL (Mesa, llvmpipe)
//! grants and refuses it — with a debug or robust-access context, below OpenGL 2.0, and
//! sharing with a context of the other setting — and the created contexts' `CONTEXT_FLAGS`
//! and `glGetError` after a call that raises an error elsewhere, equal to native's; a scene
//! drawn in no-error contexts on both backends (Vulkan with the validation layer on, which
//! must report nothing) giving native's pixels; and invalid calls in a no-error context,
//! which neither panic nor reach a backend, raise nothing and leave the next frame native's.

use tessera_engine::Context;
use tessera_engine::config::{BackendKind, Config, SurfaceConfig};
use tessera_engine::egl::{registry, tokens as egl};
use tessera_engine::gl::*;
use tessera_engine::wire::Event;
use tessera_tests::differential::Backend;
use tessera_tests::egl_requests::{self, EGL_BAD_MATCH, EGL_SUCCESS, Request, core};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

const SIZE: i32 = 8;

const NO_ERROR_ON: [i32; 2] = [egl::CONTEXT_OPENGL_NO_ERROR_KHR, egl::TRUE];

/// The requests compared: `(attributes, index of the request whose context to share with)`.
fn requests() -> Vec<Request> {
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

#[test]
fn no_error_contexts_are_granted_and_refused_as_native_egl_does() {
    // Each made context's CONTEXT_FLAGS, and glGetError after glEnable of no capability.
    let expected = egl_requests::native(&requests(), &[CONTEXT_FLAGS]);
    // The oracle is a fair one: it grants no-error contexts, flags them, and raises
    // INVALID_ENUM in the plain context only.
    assert_eq!(
        expected[0],
        (EGL_SUCCESS, Some(vec![0x8, NO_ERROR as GLint]))
    );
    assert_eq!(
        expected[1],
        (EGL_SUCCESS, Some(vec![0, INVALID_ENUM as GLint]))
    );
    assert_eq!(expected[2].0, EGL_BAD_MATCH);
    let got = egl_requests::tessera(&requests(), &[CONTEXT_FLAGS]);
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

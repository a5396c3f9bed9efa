//! Robust-access contexts (`GL_ARB_robust_buffer_access_behavior`, GL 4.3 core): EGL grants
//! `EGL_CONTEXT_OPENGL_ROBUST_ACCESS` (by attribute and by flag) as the system EGL (native
//! llvmpipe) does, and the contexts report `CONTEXT_FLAGS`, `CONTEXT_ROBUST_ACCESS` and the
//! reset strategy as native's; then, on both backends (Vulkan with the validation layer on,
//! which must report nothing), draws whose vertex fetches and storage-buffer reads run past
//! their buffers give only what the extension allows — zero or values from within the
//! buffer — and exactly native llvmpipe's pixels.

use tessera_engine::Context;
use tessera_engine::egl::tokens as egl;
use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::egl_requests::{self, EGL_SUCCESS, Request, core};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::{f32_bytes, link_program};

const SIZE: i32 = 16;

/// What a made context answers, before `glGetError`.
const PNAMES: [GLenum; 3] = [
    CONTEXT_FLAGS,
    CONTEXT_ROBUST_ACCESS,
    RESET_NOTIFICATION_STRATEGY,
];

fn requests() -> Vec<Request> {
    let robust = [egl::CONTEXT_OPENGL_ROBUST_ACCESS, egl::TRUE];
    let mut v32 = core(&[
        egl::CONTEXT_FLAGS_KHR,
        egl::CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR,
    ]);
    v32[3] = 2;
    vec![
        // 0: by attribute; 1: not robust; 2: by flag, at 3.2.
        (core(&robust), None),
        (core(&[]), None),
        (v32, None),
        // 3: with a reset notification strategy.
        (
            core(&[
                egl::CONTEXT_OPENGL_ROBUST_ACCESS,
                egl::TRUE,
                egl::CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
                egl::LOSE_CONTEXT_ON_RESET,
            ]),
            None,
        ),
        // 4: explicitly not robust.
        (core(&[egl::CONTEXT_OPENGL_ROBUST_ACCESS, egl::FALSE]), None),
        // 5: sharing with a context of the other setting.
        (core(&robust), Some(1)),
    ]
}

#[test]
fn robust_access_contexts_are_granted_as_native_egl_grants_them() {
    let expected = egl_requests::native(&requests(), &PNAMES);
    // The oracle grants robust contexts and flags them.
    assert_eq!(expected[0].0, EGL_SUCCESS);
    assert_eq!(
        expected[0].1.as_ref().unwrap()[..2],
        [CONTEXT_FLAG_ROBUST_ACCESS_BIT as GLint, 1]
    );
    let got = egl_requests::tessera(&requests(), &PNAMES);
    for (i, (request, _)) in requests().iter().enumerate() {
        assert_eq!(got[i], expected[i], "request {i}: {request:x?}");
    }
}

/// A robust-access context on `backend`, as the Rust API makes one.
fn robust_context(backend: Backend) -> Context {
    let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
    ctx.set_context_flags(CONTEXT_FLAG_ROBUST_ACCESS_BIT);
    assert_eq!(
        ctx.get_integer(CONTEXT_ROBUST_ACCESS),
        1,
        "{}",
        backend.name()
    );
    let names: Vec<String> = (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect();
    assert!(
        names
            .iter()
            .any(|e| e == "GL_ARB_robust_buffer_access_behavior"),
        "{}",
        backend.name()
    );
    ctx
}

const POINTS_VS: &str = "#version 330
in vec2 pos;
in vec4 colour;
out vec4 v_colour;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    gl_PointSize = 1.0;
    v_colour = colour;
}
";

const POINTS_FS: &str = "#version 330
in vec4 v_colour;
out vec4 o;
void main() { o = v_colour; }
";

/// 64 points from arrays of 4: every position component in the buffer is 0.5 and every
/// colour component 1.0, so a fetch past the end gives a position of 0.5s and 0s and a
/// colour of 1s and 0s (or (0, 0, 0, x)).
fn points<G: Gl + ?Sized>(gl: &mut G) -> Vec<u8> {
    let program = link_program(gl, POINTS_VS, POINTS_FS);
    gl.use_program(program);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let pos = [0.5f32; 8];
    let colour = [1.0f32; 16];
    for (index, data, size) in [(0, &pos[..], 2), (1, &colour[..], 4)] {
        let buffer = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, buffer);
        gl.buffer_data(
            ARRAY_BUFFER,
            data.len() * 4,
            Some(&f32_bytes(data)),
            STATIC_DRAW,
        );
        let location = gl.get_attrib_location(program, ["pos", "colour"][index]);
        gl.vertex_attrib_pointer(location as GLuint, size, FLOAT, false, 0, 0);
        gl.enable_vertex_attrib_array(location as GLuint);
    }
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(POINTS, 0, 64);
    let mut out = vec![0; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut out);
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

const STORAGE_VS: &str = "#version 330
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

/// Each pixel column reads element `x * 4` of a bound range of 8 floats.
const STORAGE_FS: &str = "#version 430
layout(std430, binding = 0) buffer Data { float v[]; };
out vec4 o;
void main() {
    int i = int(gl_FragCoord.x) * 4;
    float value = v[i];
    o = vec4(value, value == 0.0 ? 1.0 : 0.0, float(v.length()) / 255.0, 1.0);
}
";

/// A storage buffer of 64 floats (0.25 in the bound range of 8, 1.0 elsewhere) bound from
/// byte 64 for 32 bytes: reads past the range give 0 or values from the buffer.
fn storage<G: Gl + ?Sized>(gl: &mut G) -> Vec<u8> {
    let program = link_program(gl, STORAGE_VS, STORAGE_FS);
    gl.use_program(program);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let quad = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    let vbo = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vbo);
    gl.buffer_data(ARRAY_BUFFER, 32, Some(&f32_bytes(&quad)), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let mut data = [1.0f32; 64];
    data[16..24].fill(0.25);
    let ssbo = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, ssbo);
    gl.buffer_data(
        SHADER_STORAGE_BUFFER,
        256,
        Some(&f32_bytes(&data)),
        STATIC_DRAW,
    );
    gl.bind_buffer_range(SHADER_STORAGE_BUFFER, 0, ssbo, 64, 32);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut out = vec![0; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut out);
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

/// The pixel at `(x, y)`.
fn at(image: &[u8], x: i32, y: i32) -> [u8; 4] {
    let i = ((y * SIZE + x) * 4) as usize;
    image[i..i + 4].try_into().unwrap()
}

#[test]
fn reads_past_a_buffer_give_zero_or_its_values_as_native() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = (points(&mut native), storage(&mut native));
    // What the extension allows: points only where positions of 0.5s and 0s land, in
    // colours of 1s and 0s; storage reads of 0.25 inside the range, 0 or a buffer value
    // past it, and a length of 8.
    // (0.5 falls on the edge between pixels 11 and 12, 0 between 7 and 8.)
    let lit = |c: i32| [7, 8, 11, 12].contains(&c);
    for y in 0..SIZE {
        for x in 0..SIZE {
            let p = at(&expected.0, x, y);
            assert!(
                p == [0; 4] || (lit(x) && lit(y)),
                "native point at {x},{y}: {p:?}"
            );
            assert!(p.iter().all(|&c| c == 0 || c == 255), "{p:?}");
            let s = at(&expected.1, x, y);
            assert_eq!(s[2], 8, "length");
            let allowed: &[[u8; 2]] = if x < 2 {
                &[[64, 0]]
            } else {
                &[[0, 255], [64, 0], [255, 0]]
            };
            assert!(allowed.contains(&[s[0], s[1]]), "native read at {x}: {s:?}");
        }
    }
    assert_eq!(at(&expected.0, 11, 11), [255; 4]);
    for backend in Backend::ALL {
        let mut ctx = robust_context(backend);
        let got = (points(&mut ctx), storage(&mut ctx));
        assert_eq!(got.0, expected.0, "{} points", backend.name());
        assert_eq!(got.1, expected.1, "{} storage", backend.name());
    }
}

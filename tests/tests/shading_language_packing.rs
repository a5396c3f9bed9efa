//! GLSL 4.20's packing functions (`ARB_shading_language_packing`, GL 4.2) against the native
//! driver on both backends (Vulkan with the validation layer on, which must report nothing):
//! `packSnorm2x16`, `packUnorm2x16`, `packHalf2x16`, `packUnorm4x8`, `packSnorm4x8` and their
//! `unpack*` forms, in GLSL 4.20 and in GLSL 3.30 through the extension, written as exact
//! 32-bit values into an integer colour buffer. Values must be exactly the native ones.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

const SIZE: i32 = 8;

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

/// Advertised on GLES (ES 3.1 and later: GLSL ES 3.10 has the 4x8 forms) and Vulkan, not on
/// a GLES backend told to use ES 3.0.
#[test]
fn packing_is_advertised_only_where_the_backend_has_it() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        assert!(
            names.iter().any(|e| e == "GL_ARB_shading_language_packing"),
            "{}: {names:?}",
            backend.name()
        );
    }
    let mut ctx = tessera_es30(SIZE, SIZE);
    let names = advertised(&mut ctx);
    assert!(!names.iter().any(|e| e == "GL_ARB_shading_language_packing"));
}

const VS: &str = "#version 330 core
layout(location = 0) in vec2 pos;
out vec2 v;
void main() { v = pos * vec2(1.37, -2.11) + vec2(0.013, 0.029); gl_Position = vec4(pos, 0.0, 1.0); }
";

/// Per-fragment operands: floats `c` (some outside [-1, 1], so the packing clamps) and bit
/// patterns `a`, `b`.
const OPERANDS: &str = "
in vec2 v;
layout(location = 0) out uvec4 o;
void main() {
    uvec2 p = uvec2(gl_FragCoord.xy);
    vec4 c = vec4(v, v.x * v.y, v.y - 0.7) * 1.3;
    uint a = (p.x * 2654435761u) ^ (p.y * 40503u) ^ 0x9e3779b9u;
    uint b = (a * 16777619u + 2166136261u) & 0x7bff7bffu;
";

const BODIES: &[&str] = &[
    "o = uvec4(packSnorm2x16(c.xy), packUnorm2x16(c.zw), packHalf2x16(c.xz * 37.1),
        packUnorm4x8(c) ^ (packSnorm4x8(c) << 1));",
    "o = uvec4(floatBitsToUint(unpackSnorm2x16(a)), floatBitsToUint(unpackHalf2x16(b)));",
    "o = uvec4(floatBitsToUint(unpackUnorm2x16(a)), floatBitsToUint(unpackUnorm4x8(b).yw));",
    "o = floatBitsToUint(unpackSnorm4x8(a));",
];

/// Draws each body in GLSL 4.20 and in GLSL 3.30 with the extension into an RGBA32UI
/// renderbuffer; returns the values read back and the error at the end.
fn packed(gl: &mut dyn Gl) -> (Vec<Vec<u8>>, GLenum) {
    tessera_tests::scenes::viewport_quad(gl);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA32UI, SIZE, SIZE);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    gl.viewport(0, 0, SIZE, SIZE);
    let mut frames = Vec::new();
    for head in [
        "#version 420 core\n",
        "#version 330 core\n#extension GL_ARB_shading_language_packing : require\n",
    ] {
        for body in BODIES {
            let fs = format!("{head}{OPERANDS}    {body}\n}}\n");
            let p = link_program(gl, VS, &fs);
            gl.use_program(p);
            gl.clear_bufferuiv(COLOR, 0, &[1, 2, 3, 4]);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
            let mut px = vec![0; (SIZE * SIZE * 16) as usize];
            gl.read_pixels(0, 0, SIZE, SIZE, RGBA_INTEGER, UNSIGNED_INT, &mut px);
            frames.push(px);
        }
    }
    (frames, gl.get_error())
}

#[test]
fn packing_functions_match_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = packed(&mut native);
    drop(native);
    assert_eq!(expected.1, NO_ERROR);
    assert_eq!(
        expected.0[..4],
        expected.0[4..],
        "4.20 and the extension alike"
    );
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = packed(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

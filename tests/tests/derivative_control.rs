//! GLSL 4.50's derivative control (`ARB_derivative_control`, GL 4.5) against the native driver
//! on both backends (Vulkan with the validation layer on, which must report nothing):
//! `dFdxFine`, `dFdyFine`, `dFdxCoarse`, `dFdyCoarse`, `fwidthFine` and `fwidthCoarse` of
//! interpolated and per-pixel values, in GLSL 4.50 and in GLSL 3.30 through the extension,
//! written as exact 32-bit patterns into an integer colour buffer. Values must be exactly the
//! native ones.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

const SIZE: i32 = 8;

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

/// Advertised on both backends: Vulkan's SPIR-V has the `DerivativeControl` capability on
/// every device; the GLES backend computes every derivative with GLSL ES's `dFdx`/`dFdy`,
/// which llvmpipe computes per pixel, as its desktop contexts compute both kinds.
#[test]
fn derivative_control_is_advertised_on_both_backends() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        assert!(
            names.iter().any(|e| e == "GL_ARB_derivative_control"),
            "{}: {names:?}",
            backend.name()
        );
    }
}

const VS: &str = "#version 330 core
layout(location = 0) in vec2 pos;
out vec2 v;
void main() { v = pos * vec2(1.37, -2.11) + vec2(0.013, 0.029); gl_Position = vec4(pos, 0.0, 1.0); }
";

/// Values that change non-linearly across each 2x2 quad: an interpolated input squared, and a
/// function of the window position whose every product is exact (half-integers times powers
/// of two), so no contraction into fused multiply-adds can change it.
const OPERANDS: &str = "
in vec2 v;
layout(location = 0) out uvec4 o;
void main() {
    vec2 p = gl_FragCoord.xy;
    float a = v.x * v.x * 3.1 + v.y * v.x;
    float b = p.x * p.x * 0.25 + p.y * p.y * p.x * 0.125;
";

const BODIES: &[&str] = &[
    "o = floatBitsToUint(vec4(dFdxFine(a), dFdyFine(a), dFdxCoarse(a), dFdyCoarse(a)));",
    "o = floatBitsToUint(vec4(dFdxFine(b), dFdyFine(b), dFdxCoarse(b), dFdyCoarse(b)));",
    "o = floatBitsToUint(vec4(fwidthFine(a), fwidthCoarse(a), fwidthFine(b), fwidthCoarse(b)));",
    "o = floatBitsToUint(vec4(dFdx(b), dFdy(b), fwidth(b), dFdxFine(vec2(a, b)).y));",
];

/// Draws each body in GLSL 4.50 and in GLSL 3.30 with the extension into an RGBA32UI
/// renderbuffer; returns the values read back and the error at the end.
fn derivatives(gl: &mut dyn Gl) -> (Vec<Vec<u8>>, GLenum) {
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
        "#version 450 core\n",
        "#version 330 core\n#extension GL_ARB_derivative_control : require\n",
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

/// The four 32-bit values of pixel (x, y).
fn texel(frame: &[u8], x: i32, y: i32) -> [u32; 4] {
    let i = ((y * SIZE + x) * 16) as usize;
    std::array::from_fn(|c| u32::from_le_bytes(frame[i + 4 * c..i + 4 * c + 4].try_into().unwrap()))
}

#[test]
fn derivative_functions_match_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = derivatives(&mut native);
    drop(native);
    assert_eq!(expected.0.len(), 2 * BODIES.len());
    assert_eq!(expected.1, NO_ERROR);
    assert_eq!(
        expected.0[..BODIES.len()],
        expected.0[BODIES.len()..],
        "4.50 and the extension alike"
    );
    // The derivatives of `b` grow across the target: they are not constants the drivers
    // could agree on by accident.
    let b = &expected.0[1];
    assert_ne!(texel(b, 0, 0), texel(b, 6, 6));
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = derivatives(&mut ctx);
            let name = format!("{} {}", backend.name(), transport.name());
            assert_eq!(got.1, expected.1, "{name}");
            for (k, (g, e)) in got.0.iter().zip(&expected.0).enumerate() {
                for (x, y) in (0..SIZE).flat_map(|y| (0..SIZE).map(move |x| (x, y))) {
                    let (g, e) = (texel(g, x, y), texel(e, x, y));
                    assert_eq!(
                        g.map(f32::from_bits),
                        e.map(f32::from_bits),
                        "{name}: body {k} at ({x}, {y})"
                    );
                }
            }
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

/// The extension's macro is defined, and a GLSL 3.30 shader that names the functions
/// without enabling it fails to compile, as natively.
#[test]
fn derivative_control_needs_the_extension_in_glsl_330() {
    let check = |gl: &mut dyn Gl| -> Vec<i32> {
        let mut out = Vec::new();
        for src in [
            "#version 330 core\nout vec4 o;\nvoid main() {\n#ifdef GL_ARB_derivative_control\n    o = vec4(1.0);\n#else\n    o = vec4(dFdxFine(1.0));\n#endif\n}\n",
            "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(dFdxCoarse(gl_FragCoord.x)); }\n",
        ] {
            let s = gl.create_shader(FRAGMENT_SHADER);
            gl.shader_source(s, src);
            gl.compile_shader(s);
            out.push(gl.get_shaderi(s, COMPILE_STATUS));
            gl.delete_shader(s);
        }
        out
    };
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = check(&mut native);
    drop(native);
    assert_eq!(expected, [TRUE as i32, FALSE as i32]);
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        assert_eq!(check(&mut ctx), expected, "{}", backend.name());
    }
}

//! The texture barrier (`ARB_texture_barrier`, GL 4.5) against the native driver: draws that
//! sample the texture they render to, each reading what the draw before the barrier wrote
//! (piglit's `blending-in-shader` way), into part of the texture and then all of it. The
//! GLES backend advertises the extension and must give exactly the native pixels; the Vulkan
//! backend does not advertise it (an image cannot be sampled and attached in one pass), and
//! the call still raises no error there.

#![expect(
    unsafe_code,
    reason = "the native driver's glTextureBarrier, called through its C signature"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

const SIZE: i32 = 16;

/// The call the shared [`Gl`] table has no entry for.
trait BarrierGl: Gl {
    /// `glTextureBarrier`.
    fn barrier(&mut self);
}

impl BarrierGl for Context {
    fn barrier(&mut self) {
        self.texture_barrier();
    }
}

impl BarrierGl for NativeGl {
    fn barrier(&mut self) {
        type F = unsafe extern "system" fn();
        let f: F = self
            .entry_point("glTextureBarrier")
            .unwrap_or_else(|e| panic!("glTextureBarrier: {e}"));
        // SAFETY: the context is current on this thread; no arguments.
        unsafe { f() }
    }
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

#[test]
fn texture_barrier_is_advertised_on_gles_only() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        let has = names.iter().any(|e| e == "GL_ARB_texture_barrier");
        assert_eq!(has, backend == Backend::Gles, "{}", backend.name());
        ctx.texture_barrier();
        assert_eq!(ctx.get_error(), NO_ERROR, "{}", backend.name());
    }
    // An ES 3.0 driver has no glMemoryBarrier: not advertised, and the call is harmless.
    let mut ctx = tessera_es30(SIZE, SIZE);
    let names = advertised(&mut ctx);
    assert!(!names.iter().any(|e| e == "GL_ARB_texture_barrier"));
    ctx.texture_barrier();
    ctx.finish();
    assert_eq!(ctx.get_error(), NO_ERROR);
    assert!(!ctx.is_lost(), "the ES 3.0 session ended");
    assert!(ctx.take_events().is_empty());
}

const VS: &str = "#version 330 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

/// Adds a step to what the texel holds: each channel wraps at its own pace, so every pass
/// changes every texel it covers.
const FS: &str = "#version 330 core
uniform sampler2D self_;
out vec4 color;
void main() {
    vec4 t = texelFetch(self_, ivec2(gl_FragCoord.xy), 0);
    color = fract(t + vec4(0.125, 0.0625, 0.25, 0.03125) * (1.0 + gl_FragCoord.x / 16.0));
}
";

/// Renders passes into the texture it samples, with a barrier after each: the quad over the
/// lower-left quarter, then the whole target; returns the pixels after each stage.
fn passes(gl: &mut dyn BarrierGl) -> Vec<Vec<u8>> {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let quads: [f32; 16] = [
        -1.0, -1.0, 0.0, -1.0, -1.0, 0.0, 0.0, 0.0, //
        -1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0,
    ];
    let bytes: Vec<u8> = quads.iter().flat_map(|v| v.to_le_bytes()).collect();
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let tex = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, tex);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        SIZE,
        SIZE,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as GLint);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, tex, 0);
    gl.viewport(0, 0, SIZE, SIZE);
    gl.clear_color(0.0, 0.25, 0.5, 0.75);
    gl.clear(COLOR_BUFFER_BIT);
    gl.barrier();
    let p = link_program(gl, VS, FS);
    gl.use_program(p);
    let loc = gl.get_uniform_location(p, "self_");
    gl.uniform1i(loc, 0);
    let mut out = Vec::new();
    for (first, count) in [(0, 4), (4, 4)] {
        for _ in 0..5 {
            gl.draw_arrays(TRIANGLE_STRIP, first, count);
            gl.barrier();
        }
        let mut px = vec![0; (SIZE * SIZE * 4) as usize];
        gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
        out.push(px);
    }
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

#[test]
fn draws_after_texture_barriers_match_the_native_driver_on_gles() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = passes(&mut native);
    drop(native);
    // Every pass changed the texels it covered: the lower-left quarter moved on in the first
    // stage, the rest only in the second.
    let at = |p: &[u8], x: i32, y: i32| p[((y * SIZE + x) * 4) as usize..][..4].to_vec();
    assert_ne!(at(&expected[0], 2, 2), at(&expected[0], 12, 12));
    assert_ne!(at(&expected[1], 12, 12), at(&expected[0], 12, 12));
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let mut ctx = tessera_on(Backend::Gles, transport.clone(), SIZE, SIZE);
        let got = passes(&mut ctx);
        assert_eq!(got, expected, "gles {}", transport.name());
        ctx.finish();
        let events: Vec<Event> = ctx.take_events();
        assert!(events.is_empty(), "gles: {events:?}");
    }
}

//! The texture barrier (`ARB_texture_barrier`, GL 4.5) against the native driver: draws that
//! sample the texture they render to. Each scene reads back what native llvmpipe draws and
//! both backends must give exactly its pixels, over inproc and thread, with no backend event
//! (on Vulkan: no validation message):
//! - passes that each read what the pass before the barrier wrote (piglit's
//!   `blending-in-shader` way), into part of the texture and then all of it;
//! - ping-pong between the two halves of one texture, each half read while the other is
//!   written;
//! - blending emulated in the shader: one draw of several quads, each fragment reading and
//!   writing its own texel once (the one case the extension defines without a barrier
//!   between the read and the write), the draws overlapping across barriers;
//! - a depth texture sampled while attached with depth writes off (its depth test still on);
//! - level 1 of a texture rendered from level 0 of the same texture (no loop, one image).
//!
//! Both backends advertise the extension; an ES 3.0 GLES driver cannot (no `glMemoryBarrier`),
//! and the call raises no error there.

#![expect(
    unsafe_code,
    reason = "the native driver's glTextureBarrier, called through its C signature"
)]

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_engine::{Config, Context, SurfaceConfig};
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
fn texture_barrier_is_advertised() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        let has = names.iter().any(|e| e == "GL_ARB_texture_barrier");
        assert!(has, "{}", backend.name());
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

/// Runs `scene` natively and on both backends over inproc and thread: the same pixels, no
/// GL error, no backend event. `check` looks at the native pixels first (so the scene
/// cannot pass by drawing nothing).
fn compare(name: &str, scene: fn(&mut dyn BarrierGl) -> Vec<Vec<u8>>, check: impl Fn(&[Vec<u8>])) {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    check(&expected);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let label = format!("{name}: {} {}", backend.name(), transport.name());
            let mut ctx = tessera_on(backend, transport, SIZE, SIZE);
            let got = scene(&mut ctx);
            assert_eq!(got.len(), expected.len(), "{label}");
            for (k, (g, e)) in got.iter().zip(&expected).enumerate() {
                assert!(
                    g == e,
                    "{label}: read-back {k} differs from the native driver's"
                );
            }
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{label}: {events:?}");
        }
    }
}

/// The RGBA8 texel at (x, y) of a `SIZE`-wide read-back.
fn at(p: &[u8], x: i32, y: i32) -> [u8; 4] {
    let i = ((y * SIZE + x) * 4) as usize;
    [p[i], p[i + 1], p[i + 2], p[i + 3]]
}

#[test]
fn draws_after_texture_barriers_match_the_native_driver() {
    // Every pass changed the texels it covered: the lower-left quarter moved on in the first
    // stage, the rest only in the second.
    compare("passes", passes, |p| {
        assert_ne!(at(&p[0], 2, 2), at(&p[0], 12, 12));
        assert_ne!(at(&p[1], 12, 12), at(&p[0], 12, 12));
    });
}

/// A vertex array of 2D positions at location 0.
fn vertices(gl: &mut dyn BarrierGl, positions: &[f32]) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let bytes: Vec<u8> = positions.iter().flat_map(|v| v.to_le_bytes()).collect();
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
}

/// A `SIZE` x `SIZE` RGBA8 texture (nearest filtering) holding a pattern, bound to unit 0
/// and attached as colour attachment 0 of a new framebuffer.
fn target_texture(gl: &mut dyn BarrierGl) -> GLuint {
    let tex = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, tex);
    let texels: Vec<u8> = (0..SIZE * SIZE)
        .flat_map(|i| {
            let (x, y) = (i % SIZE, i / SIZE);
            [(x * 16) as u8, (y * 16) as u8, ((x ^ y) * 16) as u8, 255]
        })
        .collect();
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        SIZE,
        SIZE,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&texels),
    );
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as GLint);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, tex, 0);
    gl.viewport(0, 0, SIZE, SIZE);
    tex
}

fn read(gl: &mut dyn BarrierGl) -> Vec<u8> {
    let mut px = vec![0; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
    px
}

/// Each half of the texture in turn becomes what its mirror image in the other half held,
/// moved on by a step: eight draws, a barrier after each.
fn ping_pong(gl: &mut dyn BarrierGl) -> Vec<Vec<u8>> {
    const FS: &str = "#version 330 core
uniform sampler2D self_;
out vec4 color;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 t = texelFetch(self_, ivec2(15 - p.x, p.y), 0);
    color = fract(t.gbra + vec4(0.0625, 0.125, 0.03125, 0.25));
}
";
    // The left half, then the right half, as two strips.
    vertices(
        gl,
        &[
            -1.0, -1.0, 0.0, -1.0, -1.0, 1.0, 0.0, 1.0, //
            0.0, -1.0, 1.0, -1.0, 0.0, 1.0, 1.0, 1.0,
        ],
    );
    target_texture(gl);
    let p = link_program(gl, VS, FS);
    gl.use_program(p);
    let loc = gl.get_uniform_location(p, "self_");
    gl.uniform1i(loc, 0);
    let mut out = Vec::new();
    for round in 0..4 {
        for first in [0, 4] {
            gl.draw_arrays(TRIANGLE_STRIP, first, 4);
            gl.barrier();
        }
        if round % 2 == 1 {
            out.push(read(gl));
        }
    }
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

#[test]
fn ping_pong_between_halves_matches_the_native_driver() {
    compare("ping-pong", ping_pong, |p| {
        // Both halves moved on, and differently.
        assert_ne!(at(&p[0], 3, 3), [48, 48, 0, 255]);
        assert_ne!(at(&p[1], 12, 3), at(&p[0], 12, 3));
        assert_ne!(at(&p[1], 3, 3), at(&p[1], 12, 3));
    });
}

/// Blending done by the shader: each draw is four quads over disjoint squares, each fragment
/// reading its own texel and writing it once ("over" with the draw's colour); the draws
/// overlap one another, with a barrier between them.
fn blend_in_shader(gl: &mut dyn BarrierGl) -> Vec<Vec<u8>> {
    const FS: &str = "#version 330 core
uniform sampler2D self_;
uniform vec4 paint;
out vec4 color;
void main() {
    vec4 dst = texelFetch(self_, ivec2(gl_FragCoord.xy), 0);
    color = vec4(paint.rgb * paint.a + dst.rgb * (1.0 - paint.a), paint.a + dst.a * (1.0 - paint.a));
}
";
    // Four 6x6 squares of a 16x16 target (in NDC, 6 texels are 0.75), as a triangle list,
    // moved by each draw's offset.
    let mut quads = Vec::new();
    for (x, y) in [(0.0f32, 0.0f32), (8.0, 0.0), (0.0, 8.0), (8.0, 8.0)] {
        let (x0, y0) = (x / 8.0 - 1.0, y / 8.0 - 1.0);
        let (x1, y1) = (x0 + 0.75, y0 + 0.75);
        quads.extend_from_slice(&[x0, y0, x1, y0, x0, y1, x1, y0, x1, y1, x0, y1]);
    }
    const OFFSET: &str = "#version 330 core
layout(location = 0) in vec2 pos;
uniform vec2 offset;
void main() { gl_Position = vec4(pos + offset, 0.0, 1.0); }
";
    vertices(gl, &quads);
    target_texture(gl);
    let p = link_program(gl, OFFSET, FS);
    gl.use_program(p);
    let loc = gl.get_uniform_location(p, "self_");
    gl.uniform1i(loc, 0);
    let paint = gl.get_uniform_location(p, "paint");
    let offset = gl.get_uniform_location(p, "offset");
    let draws: [([f32; 4], [f32; 2]); 5] = [
        ([1.0, 0.0, 0.0, 0.5], [0.0, 0.0]),
        ([0.0, 1.0, 0.0, 0.25], [0.25, 0.125]),
        ([0.0, 0.0, 1.0, 0.75], [0.125, 0.25]),
        ([1.0, 1.0, 1.0, 0.375], [0.375, 0.375]),
        ([0.5, 0.25, 0.0, 0.625], [0.5, 0.0]),
    ];
    let mut out = Vec::new();
    for (c, o) in draws {
        gl.uniform4fv(paint, &c);
        gl.uniform2fv(offset, &o);
        gl.draw_arrays(TRIANGLES, 0, 24);
        gl.barrier();
        out.push(read(gl));
    }
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

#[test]
fn blending_in_the_shader_matches_the_native_driver() {
    compare("blend-in-shader", blend_in_shader, |p| {
        // Texel (1, 1) was painted by the first draw over the pattern, then by the second.
        assert_ne!(at(&p[0], 1, 1), [16, 16, 0, 255]);
        assert_ne!(at(&p[1], 3, 3), at(&p[0], 3, 3));
        // Texel (7, 7) lies outside every square of the first draw.
        assert_eq!(at(&p[0], 7, 7), [112, 112, 0, 255]);
    });
}

/// A depth texture drawn into with depth writes on, then sampled by a draw into a colour
/// texture of the same framebuffer while still attached, depth writes off and the depth
/// test on (the sampled depths pass into the colour).
fn depth_sampled(gl: &mut dyn BarrierGl) -> Vec<Vec<u8>> {
    const DEPTH_VS: &str = "#version 330 core
layout(location = 0) in vec2 pos;
uniform float z;
void main() { gl_Position = vec4(pos, z, 1.0); }
";
    const RED: &str = "#version 330 core
out vec4 color;
void main() { color = vec4(1.0, 0.0, 0.0, 1.0); }
";
    const SHOW: &str = "#version 330 core
uniform sampler2D depth;
out vec4 color;
void main() {
    float d = texelFetch(depth, ivec2(gl_FragCoord.xy), 0).r;
    color = vec4(d, fract(d * 8.0), 0.5, 1.0);
}
";
    // A full quad, then a quad over the lower-left 10x10 texels, then one over the upper
    // right.
    vertices(
        gl,
        &[
            -1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0, //
            -1.0, -1.0, 0.25, -1.0, -1.0, 0.25, 0.25, 0.25, //
            -0.25, -0.25, 1.0, -0.25, -0.25, 1.0, 1.0, 1.0,
        ],
    );
    let color = gl.gen_texture();
    gl.active_texture(TEXTURE1);
    gl.bind_texture(TEXTURE_2D, color);
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
    let depth = gl.gen_texture();
    gl.active_texture(TEXTURE0);
    gl.bind_texture(TEXTURE_2D, depth);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        DEPTH_COMPONENT32F as GLint,
        SIZE,
        SIZE,
        0,
        DEPTH_COMPONENT,
        FLOAT,
        None,
    );
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as GLint);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, color, 0);
    gl.framebuffer_texture_2d(FRAMEBUFFER, DEPTH_ATTACHMENT, TEXTURE_2D, depth, 0);
    gl.viewport(0, 0, SIZE, SIZE);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear_depth(1.0);
    gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
    gl.enable(DEPTH_TEST);
    gl.depth_func(LESS);
    let p = link_program(gl, DEPTH_VS, RED);
    gl.use_program(p);
    let z = gl.get_uniform_location(p, "z");
    gl.uniform1f(z, 0.5);
    gl.draw_arrays(TRIANGLE_STRIP, 4, 4);
    gl.uniform1f(z, -0.25);
    gl.draw_arrays(TRIANGLE_STRIP, 8, 4);
    gl.barrier();
    let show = link_program(gl, DEPTH_VS, SHOW);
    gl.use_program(show);
    let loc = gl.get_uniform_location(show, "depth");
    gl.uniform1i(loc, 0);
    let z = gl.get_uniform_location(show, "z");
    gl.uniform1f(z, 0.0);
    gl.depth_mask(0);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut out = vec![read(gl)];
    // Depth writes back on: the depth image leaves the loop and takes a depth-only draw.
    gl.depth_mask(1);
    gl.depth_func(ALWAYS);
    gl.use_program(p);
    let z = gl.get_uniform_location(p, "z");
    gl.uniform1f(z, 0.75);
    gl.draw_arrays(TRIANGLE_STRIP, 4, 4);
    gl.barrier();
    gl.use_program(show);
    gl.depth_mask(0);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    out.push(read(gl));
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

#[test]
fn a_depth_texture_sampled_while_attached_matches_the_native_driver() {
    compare("depth", depth_sampled, |p| {
        // Where the first quad drew (depth 0.75) the shown depth passed the test (0.5 <
        // 0.75) and is 0.75; where nothing drew, the cleared 1.0; where the second quad
        // drew (0.375), the test failed and the red stayed.
        assert_eq!(at(&p[0], 1, 1), [191, 0, 128, 255]);
        assert_eq!(at(&p[0], 1, 14), [255, 0, 128, 255]);
        assert_eq!(at(&p[0], 14, 14), [255, 0, 0, 255]);
        assert_ne!(at(&p[1], 1, 1), at(&p[0], 1, 1));
    });
}

/// Level 1 of a texture drawn from its level 0 while level 1 is attached (the level range
/// keeps level 1 out of sampling: no feedback loop, but one image), then level 0 drawn from
/// level 1 likewise.
fn levels(gl: &mut dyn BarrierGl) -> Vec<Vec<u8>> {
    const FS: &str = "#version 330 core
uniform sampler2D tex;
uniform int level;
uniform int scale;
out vec4 color;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 t = texelFetch(tex, p * scale / 2, level);
    color = t.brga;
}
";
    vertices(gl, &[-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]);
    let tex = target_texture(gl);
    gl.tex_image_2d(
        TEXTURE_2D,
        1,
        RGBA8 as GLint,
        SIZE / 2,
        SIZE / 2,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    let p = link_program(gl, VS, FS);
    gl.use_program(p);
    let loc = gl.get_uniform_location(p, "tex");
    gl.uniform1i(loc, 0);
    let level = gl.get_uniform_location(p, "level");
    let scale = gl.get_uniform_location(p, "scale");
    // Level 0 into level 1.
    gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, tex, 1);
    gl.viewport(0, 0, SIZE / 2, SIZE / 2);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, 0);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_LEVEL, 0);
    gl.uniform1i(level, 0);
    gl.uniform1i(scale, 4);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut half = vec![0; (SIZE * SIZE) as usize];
    gl.read_pixels(0, 0, SIZE / 2, SIZE / 2, RGBA, UNSIGNED_BYTE, &mut half);
    let mut out = vec![half];
    // Level 1 into level 0.
    gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, tex, 0);
    gl.viewport(0, 0, SIZE, SIZE);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, 1);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_LEVEL, 1);
    gl.uniform1i(level, 0);
    gl.uniform1i(scale, 1);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    out.push(read(gl));
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

#[test]
fn rendering_one_level_from_another_matches_the_native_driver() {
    compare("levels", levels, |p| {
        // Level 1's texel (1, 1) is level 0's (2, 2) swizzled; level 0's (3, 3) is level
        // 1's (1, 1) swizzled again.
        let l1 = |x: usize, y: usize| p[0][(y * 8 + x) * 4..][..4].to_vec();
        assert_eq!(l1(1, 1), vec![0, 32, 32, 255]);
        assert_eq!(at(&p[1], 3, 3), [32, 0, 32, 255]);
    });
}

/// The Vulkan backend on the Vulkan 1.1 floor (no `VK_EXT_attachment_feedback_loop_layout`):
/// the string is not advertised, and a draw rendering one level of a texture from another
/// (which GL defines without the extension) still gives the native pixels with no validation
/// message (the image is `GENERAL` for the pass and the descriptor).
#[test]
fn the_vulkan_floor_renders_levels_without_advertising_the_extension() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = levels(&mut native);
    drop(native);
    tessera_tests::ensure_runtime_dir();
    tessera_tests::ensure_lavapipe();
    let options = tessera_backend_vk::VkOptions {
        validation: true,
        floor: true,
        ..tessera_backend_vk::VkOptions::default()
    };
    let vk = tessera_backend_vk::VulkanBackend::with_options(&options)
        .expect("the Vulkan backend (lavapipe, vulkan-validationlayers) on this machine");
    let config = Config {
        transport: TransportKind::Inproc,
        surface: Some(SurfaceConfig::new(SIZE as u32, SIZE as u32)),
        ..Config::default()
    };
    let mut ctx = Context::with_backend(&config, Box::new(vk));
    let names = advertised(&mut ctx);
    assert!(!names.iter().any(|e| e == "GL_ARB_texture_barrier"));
    assert!(levels(&mut ctx) == expected);
    ctx.finish();
    assert!(!ctx.is_lost(), "the session ended");
    let events = ctx.take_events();
    assert!(events.is_empty(), "{events:?}");
}

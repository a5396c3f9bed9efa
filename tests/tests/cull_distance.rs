//! Cull distances (`ARB_cull_distance`, GL 4.5) against the native driver on both backends
//! (Vulkan with the validation layer on, which must report nothing): `gl_CullDistance`
//! written by the vertex stage, alone and beside `gl_ClipDistance`, in GLSL 4.50 and in GLSL
//! 3.30 through the extension, culling the triangles whose every vertex has a negative
//! distance and keeping (unclipped) those with some; `MAX_CULL_DISTANCES` and
//! `MAX_COMBINED_CLIP_AND_CULL_DISTANCES`. Pixels and values must be exactly the native ones.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

const SIZE: i32 = 32;

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

/// Advertised on both backends: Vulkan's `shaderCullDistance` (lavapipe has it), a GLES
/// driver's `GL_EXT_clip_cull_distance` (llvmpipe has it); not on a GLES backend without the
/// driver extension, which answers neither limit.
#[test]
fn cull_distance_is_advertised_where_the_backend_culls() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        assert!(
            names.iter().any(|e| e == "GL_ARB_cull_distance"),
            "{}: {names:?}",
            backend.name()
        );
    }
    let mut ctx = tessera_es30(SIZE, SIZE);
    let names = advertised(&mut ctx);
    assert!(!names.iter().any(|e| e == "GL_ARB_cull_distance"));
    for pname in [MAX_CULL_DISTANCES, MAX_COMBINED_CLIP_AND_CULL_DISTANCES] {
        let mut v = [0];
        ctx.get_integerv(pname, &mut v);
        assert_eq!(ctx.get_error(), INVALID_ENUM);
    }
}

/// Each vertex's distances come from its third and fourth components.
const VS_BODY: &str = "
layout(location = 0) in vec4 position;
void main() {
    gl_Position = vec4(position.xy, 0.0, 1.0);
    gl_CullDistance[0] = position.z;
    gl_CullDistance[1] = position.w;
    CLIP
}
";

const FS: &str = "#version 330 core
out vec4 color;
void main() { color = vec4(gl_FragCoord.xy / 32.0, 0.5, 1.0); }
";

/// Six triangles: both distances positive (kept); one vertex's first distance negative
/// (kept, not clipped); all three first distances negative (culled); all three second
/// distances negative (culled); each distance negative at different vertices (kept); all
/// second distances zero (kept: culling needs negative distances).
const VERTICES: [[f32; 4]; 18] = [
    [-1.0, -1.0, 1.0, 1.0],
    [-0.4, -1.0, 1.0, 1.0],
    [-1.0, -0.4, 1.0, 1.0],
    [-0.3, -1.0, -2.0, 1.0],
    [0.3, -1.0, 1.0, 1.0],
    [-0.3, -0.4, 1.0, 1.0],
    [0.4, -1.0, -1.0, 1.0],
    [1.0, -1.0, -0.5, 1.0],
    [0.4, -0.4, -0.1, 1.0],
    [-1.0, 0.0, 1.0, -1.0],
    [-0.4, 0.0, 1.0, -0.5],
    [-1.0, 0.6, 1.0, -0.25],
    [-0.3, 0.0, -1.0, 1.0],
    [0.3, 0.0, 1.0, -1.0],
    [-0.3, 0.6, -1.0, 1.0],
    [0.4, 0.0, 1.0, 0.0],
    [1.0, 0.0, 1.0, 0.0],
    [0.4, 0.6, 1.0, 0.0],
];

/// Draws the triangles with each shader head (GLSL 4.50, GLSL 3.30 with the extension) and
/// with and without a clip distance beside the cull distances; returns the frames, the two
/// limits and the error at the end.
fn culled(gl: &mut dyn Gl) -> (Vec<Vec<u8>>, [GLint; 2], GLenum) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let bytes: Vec<u8> = VERTICES
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 4, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA8, SIZE, SIZE);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    gl.viewport(0, 0, SIZE, SIZE);
    let mut frames = Vec::new();
    for head in [
        "#version 450 core\n",
        "#version 330 core\n#extension GL_ARB_cull_distance : require\n",
    ] {
        for clip in ["", "gl_ClipDistance[0] = position.x + 0.8;"] {
            let vs = format!("{head}{}", VS_BODY.replace("CLIP", clip));
            let p = link_program(gl, &vs, FS);
            gl.use_program(p);
            if clip.is_empty() {
                gl.disable(CLIP_DISTANCE0);
            } else {
                gl.enable(CLIP_DISTANCE0);
            }
            gl.clear_color(0.0, 0.0, 0.0, 0.0);
            gl.clear(COLOR_BUFFER_BIT);
            gl.draw_arrays(TRIANGLES, 0, VERTICES.len() as GLsizei);
            let mut px = vec![0; (SIZE * SIZE * 4) as usize];
            gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
            frames.push(px);
        }
    }
    let (mut cull, mut combined) = ([0], [0]);
    gl.get_integerv(MAX_CULL_DISTANCES, &mut cull);
    gl.get_integerv(MAX_COMBINED_CLIP_AND_CULL_DISTANCES, &mut combined);
    (frames, [cull[0], combined[0]], gl.get_error())
}

/// Whether anything was drawn at (x, y).
fn drawn(frame: &[u8], x: i32, y: i32) -> bool {
    frame[((y * SIZE + x) * 4 + 3) as usize] != 0
}

#[test]
fn cull_distances_match_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = culled(&mut native);
    drop(native);
    assert_eq!(expected.2, NO_ERROR);
    assert_eq!(expected.0[0], expected.0[2], "4.50 and the extension alike");
    // Kept: the first triangle and the one with one negative vertex; culled: the third.
    let first = &expected.0[0];
    assert!(drawn(first, 2, 2) && drawn(first, 12, 2));
    assert!(!drawn(first, 24, 2), "the all-negative triangle was drawn");
    // The clip distance clips the left of the target away.
    assert!(!drawn(&expected.0[1], 2, 2));
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = culled(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

//! Differential smoke test: the same calls on Tessera (GLES backend) and on the native driver
//! give the same pixels.

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::gl::{Gl, NativeGl};

const VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";
const FS: &str = "#version 330 core
uniform vec4 color;
out vec4 frag;
void main() { frag = color; }
";

fn triangle(gl: &mut dyn Gl) -> Vec<u8> {
    gl.viewport(0, 0, 32, 32);
    gl.clear_color(0.0, 0.25, 0.5, 1.0);
    gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)] {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        assert_eq!(
            gl.get_shaderi(s, COMPILE_STATUS),
            TRUE as i32,
            "{}",
            gl.shader_info_log(s)
        );
        gl.attach_shader(p, s);
    }
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "{}",
        gl.program_info_log(p)
    );
    gl.use_program(p);
    let loc = gl.get_uniform_location(p, "color");
    gl.uniform4f(loc, 1.0, 0.5, 0.0, 1.0);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let verts: Vec<u8> = [-0.9f32, -0.9, 0.9, -0.9, -0.9, 0.9]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.draw_arrays(TRIANGLES, 0, 3);
    let mut pixels = vec![0u8; 32 * 32 * 4];
    gl.read_pixels(0, 0, 32, 32, RGBA, UNSIGNED_BYTE, &mut pixels);
    assert_eq!(gl.get_error(), NO_ERROR);
    pixels
}

#[test]
fn a_triangle_matches_the_native_driver() {
    let mut native = NativeGl::new(32, 32).expect("native desktop GL through the system EGL");
    let expected = triangle(&mut native);
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let config = Config {
            backend: BackendKind::Gles,
            transport: transport.clone(),
            surface: Some(SurfaceConfig::new(32, 32)),
            ..Config::default()
        };
        let mut ctx = Context::new(&config).expect("the GLES backend on this machine");
        let got = triangle(&mut ctx);
        let at = |p: &[u8], x: usize, y: usize| p[(y * 32 + x) * 4..][..4].to_vec();
        assert_eq!(
            at(&got, 4, 4),
            [255, 128, 0, 255],
            "{transport:?}: inside the triangle"
        );
        assert_eq!(
            at(&got, 30, 30),
            [0, 64, 128, 255],
            "{transport:?}: outside"
        );
        assert!(
            got == expected,
            "{transport:?}: pixels differ from the native driver's"
        );
    }
}

#[test]
fn the_harness_checks_probes_and_pixels() {
    tessera_tests::differential::check(
        "harness_clear_and_scissor",
        16,
        16,
        |gl| {
            gl.clear_color(1.0, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            gl.enable(SCISSOR_TEST);
            gl.scissor(0, 0, 8, 8);
            gl.clear_color(0.0, 1.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
        },
        &[
            tessera_tests::differential::probe(1, 1, [0, 255, 0, 255]),
            tessera_tests::differential::probe(12, 12, [255, 0, 0, 255]),
        ],
    );
}

#[test]
fn a_context_released_on_one_thread_renders_on_another() {
    // The in-process GLES backend's native context is current on the thread that applied
    // the last batch; releasing the GL context (as eglMakeCurrent does) must let another
    // thread carry on.
    let mut ctx = tessera_tests::differential::tessera(TransportKind::Inproc, 32, 32);
    ctx.clear_color(1.0, 0.0, 0.0, 1.0);
    ctx.clear(COLOR_BUFFER_BIT);
    ctx.finish();
    ctx.release_thread();
    let pixels = std::thread::spawn(move || {
        let gl: &mut dyn Gl = &mut ctx;
        gl.clear_color(0.0, 1.0, 0.0, 1.0);
        gl.clear(COLOR_BUFFER_BIT);
        let pixels = tessera_tests::differential::read_back(gl, 32, 32);
        assert_eq!(gl.get_error(), NO_ERROR);
        assert!(!ctx.is_lost(), "the session survived the move");
        pixels
    })
    .join()
    .expect("the second thread");
    assert_eq!(&pixels[..4], &[0, 255, 0, 255]);
}

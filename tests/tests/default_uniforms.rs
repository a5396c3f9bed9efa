//! The default uniform block on the GLES backend, which hands it to the driver as plain
//! uniforms where it can (every member of a stage's block one scalar type) and as a uniform
//! buffer where it cannot: the same draws, changing one uniform at a time, switching between
//! programs of either kind and between two programs of the same code (one native program),
//! give the native driver's pixels, and so does the uniform buffer for every program
//! (`GlesOptions::uniform_buffer`).

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::{link_program, viewport_quad};

const SIZE: i32 = 32;
const TILE: i32 = 8;

/// Floats only, in both stages: matrices, a float array indexed by a uniform-derived value,
/// an array of structs.
const FLOAT_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
uniform mat4 mvp;
uniform float scale[3];
uniform float pick;
void main() {
    gl_Position = mvp * vec4(position * scale[int(pick)], 0.0, 1.0);
}
";
const FLOAT_FS: &str = "#version 330 core
struct Light { vec3 color; float weight; };
uniform Light lights[2];
uniform vec4 tint;
uniform mat2x3 bias;
out vec4 frag;
void main() {
    vec3 lit = lights[0].color * lights[0].weight + lights[1].color * lights[1].weight;
    frag = vec4(lit, 1.0) * tint + vec4(bias * vec2(0.25, 0.5), 0.0);
}
";

/// A block that mixes integers, a bool and floats: the uniform-buffer path (every stage
/// declares the program's whole block).
const MIXED_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
uniform vec2 shrink;
void main() { gl_Position = vec4(position * shrink, 0.0, 1.0); }
";
const MIXED_FS: &str = "#version 330 core
uniform int mode;
uniform bool flag;
uniform vec4 colors[3];
out vec4 frag;
void main() { frag = flag ? colors[mode] : vec4(0.0, 0.0, 1.0, 1.0); }
";

/// Integers only, and unsigned integers only (after a vertex stage that declares only the
/// engine's float point size: a float array there, an integer one here).
const INT_FS: &str = "#version 330 core
uniform ivec2 a;
uniform int b[2];
out vec4 frag;
void main() { frag = vec4(float(a.x) / 4.0, float(a.y) / 4.0, float(b[0] + b[1]) / 8.0, 1.0); }
";
const UINT_FS: &str = "#version 330 core
uniform uvec3 u;
out vec4 frag;
void main() { frag = vec4(vec3(u) / 4.0, 1.0); }
";
const PLAIN_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

/// Identity scaled by `s`.
fn scaled(s: f32) -> [f32; 16] {
    [
        s, 0.0, 0.0, 0.0, 0.0, s, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]
}

fn scene(gl: &mut dyn Gl) -> Vec<u8> {
    gl.viewport(0, 0, SIZE, SIZE);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    viewport_quad(gl);
    let float = link_program(gl, FLOAT_VS, FLOAT_FS);
    // The same code again: the GLES backend links it once and both share the native one.
    let twin = link_program(gl, FLOAT_VS, FLOAT_FS);
    let mixed = link_program(gl, MIXED_VS, MIXED_FS);
    let int = link_program(gl, PLAIN_VS, INT_FS);
    let uint = link_program(gl, PLAIN_VS, UINT_FS);
    let mut tile = 0;
    let mut draw = |gl: &mut dyn Gl| {
        gl.viewport((tile % 4) * TILE, (tile / 4) * TILE, TILE, TILE);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        tile += 1;
    };
    for p in [float, twin] {
        gl.use_program(p);
        let at = |gl: &mut dyn Gl, name: &str| gl.get_uniform_location(p, name);
        let l = at(gl, "mvp");
        gl.uniform_matrix4fv(l, false, &scaled(1.0));
        let l = at(gl, "scale");
        gl.uniform1fv(l, &[1.0, 0.5, 0.75]);
        let l = at(gl, "lights[0].color");
        gl.uniform3fv(l, &[1.0, 0.5, 0.0]);
        let l = at(gl, "lights[0].weight");
        gl.uniform1fv(l, &[0.5]);
        let l = at(gl, "lights[1].color");
        gl.uniform3fv(l, &[0.0, 0.5, 1.0]);
        let l = at(gl, "lights[1].weight");
        gl.uniform1fv(l, &[0.25]);
        let l = at(gl, "tint");
        gl.uniform4fv(l, &[1.0, 1.0, 1.0, 1.0]);
        let l = at(gl, "bias");
        gl.uniform_matrix2x3fv(l, false, &[0.0, 0.25, 0.0, 0.5, 0.0, 0.25]);
    }
    gl.use_program(float);
    draw(gl);
    // One member at a time.
    let tint = gl.get_uniform_location(float, "tint");
    gl.uniform4fv(tint, &[0.5, 1.0, 0.25, 1.0]);
    draw(gl);
    let weight = gl.get_uniform_location(float, "lights[1].weight");
    gl.uniform1fv(weight, &[1.0]);
    draw(gl);
    let pick = gl.get_uniform_location(float, "pick");
    gl.uniform1fv(pick, &[1.0]);
    draw(gl);
    // The twin holds its own values; the first program keeps its own after it.
    gl.use_program(twin);
    let twin_tint = gl.get_uniform_location(twin, "tint");
    gl.uniform4fv(twin_tint, &[0.0, 0.5, 1.0, 1.0]);
    draw(gl);
    gl.use_program(float);
    draw(gl);
    // Mixed: the uniform buffer, between programs of plain uniforms.
    gl.use_program(mixed);
    let l = gl.get_uniform_location(mixed, "shrink");
    gl.uniform2fv(l, &[0.5, 1.0]);
    let colors = gl.get_uniform_location(mixed, "colors");
    gl.uniform4fv(
        colors,
        &[1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0],
    );
    let flag = gl.get_uniform_location(mixed, "flag");
    gl.uniform1iv(flag, &[1]);
    draw(gl);
    let mode = gl.get_uniform_location(mixed, "mode");
    gl.uniform1iv(mode, &[2]);
    draw(gl);
    gl.uniform1iv(flag, &[0]);
    draw(gl);
    gl.use_program(float);
    let mvp = gl.get_uniform_location(float, "mvp");
    gl.uniform_matrix4fv(mvp, false, &scaled(0.5));
    draw(gl);
    gl.use_program(int);
    let a = gl.get_uniform_location(int, "a");
    gl.uniform2iv(a, &[1, 3]);
    let b = gl.get_uniform_location(int, "b");
    gl.uniform1iv(b, &[2, 4]);
    draw(gl);
    gl.uniform1iv(b, &[-2, 4]);
    draw(gl);
    gl.use_program(uint);
    let u = gl.get_uniform_location(uint, "u");
    gl.uniform3uiv(u, &[4, 2, 1]);
    draw(gl);
    gl.uniform3uiv(u, &[0, 3, 2]);
    draw(gl);
    gl.use_program(twin);
    draw(gl);
    let mut pixels = vec![0u8; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut pixels);
    assert_eq!(gl.get_error(), NO_ERROR);
    pixels
}

#[test]
fn default_block_uniforms_match_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    // Every tile drew something other than the clear colour.
    for tile in 0..15usize {
        let (x, y) = ((tile % 4) * 8 + 4, (tile / 4) * 8 + 4);
        let at = (y * SIZE as usize + x) * 4;
        assert_ne!(expected[at..at + 4], [0, 0, 0, 0], "tile {tile}");
    }
    // Plain uniforms where they can be, and the uniform buffer for every program.
    for uniform_buffer in [false, true] {
        let options = tessera_backend_gles::GlesOptions {
            uniform_buffer,
            ..tessera_backend_gles::GlesOptions::default()
        };
        let gles = tessera_backend_gles::GlesBackend::with_options(&options)
            .expect("a GLES backend on Mesa llvmpipe");
        let config = Config {
            backend: BackendKind::Gles,
            transport: TransportKind::Inproc,
            surface: Some(SurfaceConfig::new(SIZE as u32, SIZE as u32)),
            ..Config::default()
        };
        let mut ctx = Context::with_backend(&config, Box::new(gles));
        let got = scene(&mut ctx);
        for (i, (g, e)) in got.chunks(4).zip(expected.chunks(4)).enumerate() {
            let (x, y) = (i % SIZE as usize, i / SIZE as usize);
            assert_eq!(g, e, "pixel ({x}, {y}), uniform buffer: {uniform_buffer}");
        }
    }
}

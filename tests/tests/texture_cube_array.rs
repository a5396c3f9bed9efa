//! Cube map array textures (`TEXTURE_CUBE_MAP_ARRAY`, GL 4.0's `ARB_texture_cube_map_array`)
//! against the native driver: the errors of image calls (depth not a multiple of six,
//! faces that are not square, 2D calls), the binding query, and draws sampling every face
//! of two cubes through `samplerCubeArray`, `isamplerCubeArray` and
//! `samplerCubeArrayShadow`, after rendering into one layer and generating mipmaps, on both
//! backends (Vulkan with the validation layer on, which must report nothing). Values,
//! errors and pixels must be exactly the native ones.

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

/// Runs `scene` on the native driver and on both backends, over the in-process and the
/// render-thread transports; each result must be the native one, with no backend event.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn Gl) -> T) {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = scene(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

/// A transcript line: what was done, and the values or error it gave.
type Line = (&'static str, Vec<GLint>);

fn err(gl: &mut dyn Gl, out: &mut Vec<Line>, what: &'static str) {
    let e = gl.get_error() as GLint;
    out.push((what, vec![e]));
}

fn integer(gl: &mut dyn Gl, pname: GLenum) -> GLint {
    let mut v = [0];
    gl.get_integerv(pname, &mut v);
    v[0]
}

/// Errors of the image calls on cube map arrays and the binding state, in call order.
fn transcript(gl: &mut dyn Gl) -> Vec<Line> {
    let mut out = Vec::new();
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_CUBE_MAP_ARRAY, t);
    err(gl, &mut out, "bind");
    out.push((
        "binding",
        vec![
            integer(gl, TEXTURE_BINDING_CUBE_MAP_ARRAY),
            integer(gl, TEXTURE_BINDING_2D_ARRAY),
        ],
    ));
    let tex = |gl: &mut dyn Gl, w, h, d| {
        gl.tex_image_3d(
            TEXTURE_CUBE_MAP_ARRAY,
            0,
            RGBA8 as i32,
            w,
            h,
            d,
            0,
            RGBA,
            UNSIGNED_BYTE,
            None,
        )
    };
    tex(gl, 4, 4, 5);
    err(gl, &mut out, "depth 5");
    tex(gl, 4, 8, 6);
    err(gl, &mut out, "not square");
    tex(gl, 4, 4, 0);
    err(gl, &mut out, "depth 0");
    tex(gl, 4, 4, 12);
    err(gl, &mut out, "two cubes");
    gl.tex_image_3d(
        TEXTURE_CUBE_MAP_ARRAY,
        1,
        RGBA8 as i32,
        2,
        2,
        9,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    err(gl, &mut out, "level 1 depth 9");
    gl.tex_image_2d(
        TEXTURE_CUBE_MAP_ARRAY,
        0,
        RGBA8 as i32,
        4,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    err(gl, &mut out, "2D image");
    gl.generate_mipmap(TEXTURE_CUBE_MAP_ARRAY);
    err(gl, &mut out, "mipmaps");
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_layer(FRAMEBUFFER, COLOR_ATTACHMENT0, t, 0, 11);
    err(gl, &mut out, "attach layer 11");
    out.push((
        "status",
        vec![gl.check_framebuffer_status(FRAMEBUFFER) as GLint],
    ));
    gl.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT0, t, 1);
    err(gl, &mut out, "attach layered");
    out.push((
        "layered status",
        vec![gl.check_framebuffer_status(FRAMEBUFFER) as GLint],
    ));
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    gl.bind_texture(TEXTURE_2D, t);
    err(gl, &mut out, "bind as 2D");
    out
}

const VS: &str = "#version 400 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

/// The direction and cube of a 4 x 4 cell of the 16 x 16 frame: cells 0..12 read face
/// `cell % 6` of cube `cell / 6`, the others cube 1 with `lod`.
const PICK: &str = "
const vec3 dirs[6] = vec3[6](vec3(1, 0.2, -0.1), vec3(-1, -0.3, 0.2), vec3(0.1, 1, 0.3),
    vec3(-0.2, -1, 0.1), vec3(0.3, -0.1, 1), vec3(0.2, 0.1, -1));
int cell() { ivec2 c = ivec2(gl_FragCoord.xy) / 4; return c.y * 4 + c.x; }
vec4 coord() { int n = cell() % 12; return vec4(dirs[n % 6], float(n / 6)); }
";

fn fs(head: &str, body: &str) -> String {
    format!("#version 400 core\n{head}\n{PICK}\nout vec4 color;\nvoid main() {{ {body} }}\n")
}

/// A vertex array holding a quad covering the viewport (a triangle strip).
fn quad(gl: &mut dyn Gl) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let bytes: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
}

fn draw_and_read(gl: &mut dyn Gl) -> Vec<u8> {
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut px = vec![0; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut px);
    px
}

/// `n` solid 4 x 4 layers of `bytes`-sized texels, layer `z` of `texel(z)`.
fn layers(n: usize, texel: impl Fn(usize) -> Vec<u8>) -> Vec<u8> {
    (0..n).flat_map(|z| texel(z).repeat(16)).collect()
}

fn nearest(gl: &mut dyn Gl, target: GLenum, min: GLenum) {
    gl.tex_parameteri(target, TEXTURE_MIN_FILTER, min as i32);
    gl.tex_parameteri(target, TEXTURE_MAG_FILTER, NEAREST as i32);
}

/// Draws sampling two cubes of solid faces: as floats, after rendering into layer 7 and
/// after generating mipmaps (level 2 read by `textureLod`), as integers, and as depths
/// compared with 0.5. Returns the frames and the error at the end.
fn sampled(gl: &mut dyn Gl) -> (Vec<Vec<u8>>, GLenum) {
    quad(gl);
    let mut frames = Vec::new();
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_CUBE_MAP_ARRAY, t);
    let data = layers(12, |z| {
        vec![20 * z as u8, 255 - 20 * z as u8, 40 + 10 * z as u8, 255]
    });
    gl.tex_image_3d(
        TEXTURE_CUBE_MAP_ARRAY,
        0,
        RGBA8 as i32,
        4,
        4,
        12,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&data),
    );
    nearest(gl, TEXTURE_CUBE_MAP_ARRAY, NEAREST);
    let p = link_program(
        gl,
        VS,
        &fs(
            "uniform samplerCubeArray tex;",
            "color = texture(tex, coord());",
        ),
    );
    gl.use_program(p);
    frames.push(draw_and_read(gl));

    // Layer 7 (face 1 of cube 1) cleared through a framebuffer.
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_layer(FRAMEBUFFER, COLOR_ATTACHMENT0, t, 0, 7);
    gl.viewport(0, 0, 4, 4);
    gl.clear_color(1.0, 0.0, 1.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    frames.push(draw_and_read(gl));

    gl.generate_mipmap(TEXTURE_CUBE_MAP_ARRAY);
    nearest(gl, TEXTURE_CUBE_MAP_ARRAY, NEAREST_MIPMAP_NEAREST);
    let lod = link_program(
        gl,
        VS,
        &fs(
            "uniform samplerCubeArray tex;",
            "color = textureLod(tex, coord(), 2.0);",
        ),
    );
    gl.use_program(lod);
    frames.push(draw_and_read(gl));

    let it = gl.gen_texture();
    gl.bind_texture(TEXTURE_CUBE_MAP_ARRAY, it);
    let ints = layers(12, |z| {
        [z as i32 - 6, 3 * z as i32, -100, 7]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect()
    });
    gl.tex_image_3d(
        TEXTURE_CUBE_MAP_ARRAY,
        0,
        RGBA32I as i32,
        4,
        4,
        12,
        0,
        RGBA_INTEGER,
        INT,
        Some(&ints),
    );
    nearest(gl, TEXTURE_CUBE_MAP_ARRAY, NEAREST);
    let pi = link_program(
        gl,
        VS,
        &fs(
            "uniform isamplerCubeArray tex;",
            "ivec4 v = texture(tex, coord()); color = vec4(v + ivec4(8, 1, 110, 0)) / 40.0;",
        ),
    );
    gl.use_program(pi);
    frames.push(draw_and_read(gl));

    let dt = gl.gen_texture();
    gl.bind_texture(TEXTURE_CUBE_MAP_ARRAY, dt);
    let depths = layers(12, |z| (z as f32 / 11.0).to_le_bytes().to_vec());
    gl.tex_image_3d(
        TEXTURE_CUBE_MAP_ARRAY,
        0,
        DEPTH_COMPONENT32F as i32,
        4,
        4,
        12,
        0,
        DEPTH_COMPONENT,
        FLOAT,
        Some(&depths),
    );
    nearest(gl, TEXTURE_CUBE_MAP_ARRAY, NEAREST);
    gl.tex_parameteri(
        TEXTURE_CUBE_MAP_ARRAY,
        TEXTURE_COMPARE_MODE,
        COMPARE_REF_TO_TEXTURE as i32,
    );
    gl.tex_parameteri(TEXTURE_CUBE_MAP_ARRAY, TEXTURE_COMPARE_FUNC, LESS as i32);
    let ps = link_program(
        gl,
        VS,
        &fs(
            "uniform samplerCubeArrayShadow tex;",
            "color = vec4(texture(tex, coord(), 0.5), 0.25, 0.5, 1.0);",
        ),
    );
    gl.use_program(ps);
    frames.push(draw_and_read(gl));
    (frames, gl.get_error())
}

#[test]
fn cube_map_array_errors_and_state_match_the_native_driver() {
    compare(transcript);
}

#[test]
fn draws_sampling_cube_map_arrays_match_the_native_driver() {
    compare(|gl| {
        let (frames, error) = sampled(gl);
        assert_eq!(error, NO_ERROR);
        assert_ne!(frames[0], frames[1], "layer 7 rendered");
        assert_ne!(frames[3], frames[4]);
        (frames, error)
    });
}

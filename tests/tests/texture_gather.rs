//! Texture gathers (`ARB_texture_gather`, GL 4.0, and the gather functions of
//! `ARB_gpu_shader5`) against the native driver on both backends (Vulkan with the validation
//! layer on, which must report nothing): `textureGather`, `textureGatherOffset` and
//! `textureGatherOffsets` on every sampler type that has them — 2D, 2D array, cube, cube array
//! and rectangle textures of floats and integers, and their shadow forms with a reference
//! value — with each component, constant and non-constant offsets past the texel-offset
//! range, in GLSL 4.00 and in GLSL 3.30 through the extension, and the gather limits. Pixels,
//! values and errors must be exactly the native ones.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

const SIZE: i32 = 16;

/// Runs `scene` on the native driver and on both backends, over the in-process and the
/// render-thread transports; each result must be the native one, with no backend event.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn Gl) -> T) -> T {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = scene(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            // The Vulkan backend says once that it keeps rectangle textures as 2D ones, which
            // it samples with normalized coordinates (the shader front end rewrites them).
            let events: Vec<Event> = ctx
                .take_events()
                .into_iter()
                .filter(|e| {
                    !matches!(e, Event::Unsupported { what }
                        if what.starts_with("rectangle textures are 2D textures"))
                })
                .collect();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    expected
}

fn integer(gl: &mut dyn Gl, pname: GLenum) -> GLint {
    let mut v = [-99];
    gl.get_integerv(pname, &mut v);
    v[0]
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

#[test]
fn gather_limits_match_the_native_driver() {
    let limits = compare(|gl| {
        (
            integer(gl, MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS_ARB),
            integer(gl, MIN_PROGRAM_TEXTURE_GATHER_OFFSET),
            integer(gl, MAX_PROGRAM_TEXTURE_GATHER_OFFSET),
            gl.get_error(),
        )
    });
    // llvmpipe's (and lavapipe's) range.
    assert_eq!(limits, (4, -32, 31, NO_ERROR));
}

/// `GL_ARB_texture_gather` is advertised where the backend gathers (GLES 3.1 and later,
/// Vulkan); a GLES backend told to use ES 3.0 has no gathers and does not advertise it.
#[test]
fn gathers_are_advertised_only_where_the_backend_has_them() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        assert!(
            names.iter().any(|e| e == "GL_ARB_texture_gather"),
            "{}: {names:?}",
            backend.name()
        );
    }
    let mut ctx = tessera_es30(SIZE, SIZE);
    let names = advertised(&mut ctx);
    assert!(
        !names.iter().any(|e| e == "GL_ARB_texture_gather"),
        "{names:?}"
    );
}

const VS: &str = "#version 400 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

/// What every fragment shader has: the texture coordinate of the fragment (no texel
/// boundary falls on one), a direction into cube face `face()` and the output.
const COMMON: &str = "
vec2 uv() { return gl_FragCoord.xy / 16.0; }
int face() { return (int(gl_FragCoord.x) / 4 + int(gl_FragCoord.y) / 4) % 6; }
vec3 dir() {
    vec2 st = (fract(gl_FragCoord.xy / 4.0) * 2.0 - 1.0) * 0.9;
    float s = st.x, t = st.y;
    switch (face()) {
    case 0: return vec3(1.0, -t, -s);
    case 1: return vec3(-1.0, -t, s);
    case 2: return vec3(s, 1.0, t);
    case 3: return vec3(s, -1.0, -t);
    case 4: return vec3(s, -t, 1.0);
    default: return vec3(-s, -t, -1.0);
    }
}
out vec4 color;
";

/// A texel of layer `z` at `n` (row-major in a 4 x 4 image): every component differs.
fn texel(z: usize, n: usize) -> [u8; 4] {
    [
        ((8 * n + 1 + 37 * z) % 256) as u8,
        ((255 - 8 * n + 53 * z) % 256) as u8,
        ((8 * n + 64 + 11 * z) % 256) as u8,
        ((250 - 4 * n + 29 * z) % 256) as u8,
    ]
}

fn rgba8(layers: usize) -> Vec<u8> {
    (0..layers)
        .flat_map(|z| (0..16).flat_map(move |n| texel(z, n)))
        .collect()
}

/// Depths of `layers` 4 x 4 layers: texel `n` of layer `z` holds `(n + z) % 16 / 16 + 1/32`.
fn depths(layers: usize) -> Vec<u8> {
    (0..layers)
        .flat_map(|z| (0..16).map(move |n| ((n + z) % 16) as f32 / 16.0 + 1.0 / 32.0))
        .flat_map(|d| d.to_le_bytes())
        .collect()
}

fn nearest(gl: &mut dyn Gl, target: GLenum) {
    gl.tex_parameteri(target, TEXTURE_MIN_FILTER, NEAREST as i32);
    gl.tex_parameteri(target, TEXTURE_MAG_FILTER, NEAREST as i32);
}

fn compare_mode(gl: &mut dyn Gl, target: GLenum) {
    gl.tex_parameteri(target, TEXTURE_COMPARE_MODE, COMPARE_REF_TO_TEXTURE as i32);
    gl.tex_parameteri(target, TEXTURE_COMPARE_FUNC, LEQUAL as i32);
}

/// Texture units of the scene's textures.
const U_2D: i32 = 0;
const U_ARRAY: i32 = 1;
const U_CUBE: i32 = 2;
const U_CUBE_ARRAY: i32 = 3;
const U_RECT: i32 = 4;
const U_INT: i32 = 5;
const U_UINT: i32 = 6;
const U_DEPTH: i32 = 7;
const U_DEPTH_ARRAY: i32 = 8;
const U_DEPTH_CUBE: i32 = 9;
const U_DEPTH_CUBE_ARRAY: i32 = 10;
const U_DEPTH_RECT: i32 = 11;

/// Makes the scene's textures, one per unit.
fn textures(gl: &mut dyn Gl) {
    let bind = |gl: &mut dyn Gl, unit: i32, target: GLenum| {
        gl.active_texture(TEXTURE0 + unit as u32);
        let t = gl.gen_texture();
        gl.bind_texture(target, t);
        nearest(gl, target);
    };
    let image2d = |gl: &mut dyn Gl, target: GLenum, internal: GLenum, format, ty, data: &[u8]| {
        gl.tex_image_2d(target, 0, internal as i32, 4, 4, 0, format, ty, Some(data));
    };
    let image3d =
        |gl: &mut dyn Gl, target: GLenum, internal: GLenum, d, format, ty, data: &[u8]| {
            gl.tex_image_3d(
                target,
                0,
                internal as i32,
                4,
                4,
                d,
                0,
                format,
                ty,
                Some(data),
            );
        };
    bind(gl, U_2D, TEXTURE_2D);
    image2d(gl, TEXTURE_2D, RGBA8, RGBA, UNSIGNED_BYTE, &rgba8(1));
    bind(gl, U_ARRAY, TEXTURE_2D_ARRAY);
    image3d(
        gl,
        TEXTURE_2D_ARRAY,
        RGBA8,
        3,
        RGBA,
        UNSIGNED_BYTE,
        &rgba8(3),
    );
    bind(gl, U_CUBE, TEXTURE_CUBE_MAP);
    let faces = rgba8(6);
    for f in 0..6 {
        let face = &faces[f * 64..f * 64 + 64];
        image2d(
            gl,
            TEXTURE_CUBE_MAP_POSITIVE_X + f as u32,
            RGBA8,
            RGBA,
            UNSIGNED_BYTE,
            face,
        );
    }
    bind(gl, U_CUBE_ARRAY, TEXTURE_CUBE_MAP_ARRAY);
    image3d(
        gl,
        TEXTURE_CUBE_MAP_ARRAY,
        RGBA8,
        12,
        RGBA,
        UNSIGNED_BYTE,
        &rgba8(12),
    );
    bind(gl, U_RECT, TEXTURE_RECTANGLE);
    image2d(gl, TEXTURE_RECTANGLE, RGBA8, RGBA, UNSIGNED_BYTE, &rgba8(1));
    let ints: Vec<u8> = rgba8(1)
        .iter()
        .flat_map(|&b| (i32::from(b) - 128).to_le_bytes())
        .collect();
    bind(gl, U_INT, TEXTURE_2D);
    image2d(gl, TEXTURE_2D, RGBA32I, RGBA_INTEGER, INT, &ints);
    bind(gl, U_UINT, TEXTURE_2D);
    image2d(
        gl,
        TEXTURE_2D,
        RGBA8UI,
        RGBA_INTEGER,
        UNSIGNED_BYTE,
        &rgba8(1),
    );
    let depth = |gl: &mut dyn Gl, unit, target| {
        bind(gl, unit, target);
        compare_mode(gl, target);
    };
    depth(gl, U_DEPTH, TEXTURE_2D);
    image2d(
        gl,
        TEXTURE_2D,
        DEPTH_COMPONENT32F,
        DEPTH_COMPONENT,
        FLOAT,
        &depths(1),
    );
    depth(gl, U_DEPTH_ARRAY, TEXTURE_2D_ARRAY);
    image3d(
        gl,
        TEXTURE_2D_ARRAY,
        DEPTH_COMPONENT32F,
        3,
        DEPTH_COMPONENT,
        FLOAT,
        &depths(3),
    );
    depth(gl, U_DEPTH_CUBE, TEXTURE_CUBE_MAP);
    let faces = depths(6);
    for f in 0..6 {
        let face = &faces[f * 64..f * 64 + 64];
        let target = TEXTURE_CUBE_MAP_POSITIVE_X + f as u32;
        image2d(gl, target, DEPTH_COMPONENT32F, DEPTH_COMPONENT, FLOAT, face);
    }
    depth(gl, U_DEPTH_CUBE_ARRAY, TEXTURE_CUBE_MAP_ARRAY);
    let d = depths(12);
    image3d(
        gl,
        TEXTURE_CUBE_MAP_ARRAY,
        DEPTH_COMPONENT32F,
        12,
        DEPTH_COMPONENT,
        FLOAT,
        &d,
    );
    depth(gl, U_DEPTH_RECT, TEXTURE_RECTANGLE);
    image2d(
        gl,
        TEXTURE_RECTANGLE,
        DEPTH_COMPONENT32F,
        DEPTH_COMPONENT,
        FLOAT,
        &depths(1),
    );
    gl.active_texture(TEXTURE0);
}

/// A quad covering the viewport (a triangle strip).
fn quad(gl: &mut dyn Gl) {
    tessera_tests::scenes::viewport_quad(gl);
}

/// The gathers drawn: a name, the sampler declaration, its unit and the body that sets
/// `color` (GLSL 4.00 unless the declaration starts with a `#extension`).
const GATHERS: &[(&str, &str, i32, &str)] = &[
    (
        "2d",
        "uniform sampler2D t;",
        U_2D,
        "color = textureGather(t, uv());",
    ),
    (
        "2d green",
        "uniform sampler2D t;",
        U_2D,
        "color = textureGather(t, uv(), 1);",
    ),
    (
        "2d blue",
        "uniform sampler2D t;",
        U_2D,
        "color = textureGather(t, uv(), 2);",
    ),
    (
        "2d alpha",
        "uniform sampler2D t;",
        U_2D,
        "color = textureGather(t, uv(), 3);",
    ),
    (
        "2d offset",
        "uniform sampler2D t;",
        U_2D,
        "color = textureGatherOffset(t, uv(), ivec2(1, -1), 1);",
    ),
    (
        "2d wide offset",
        "uniform sampler2D t;",
        U_2D,
        "color = textureGatherOffset(t, uv(), ivec2(-32, 31));",
    ),
    (
        "2d variable offset",
        "uniform sampler2D t;",
        U_2D,
        "color = textureGatherOffset(t, uv(), ivec2(gl_FragCoord.yx) % 5 - 2, 2);",
    ),
    (
        "2d offsets",
        "uniform sampler2D t;",
        U_2D,
        "color = textureGatherOffsets(t, uv(),
            ivec2[4](ivec2(0, 0), ivec2(1, 0), ivec2(-2, 1), ivec2(3, 3)), 3);",
    ),
    (
        "2d array",
        "uniform sampler2DArray t;",
        U_ARRAY,
        "color = textureGather(t, vec3(uv(), float(face() % 3)), 1);",
    ),
    (
        "2d array offset",
        "uniform sampler2DArray t;",
        U_ARRAY,
        "color = textureGatherOffset(t, vec3(uv(), 2.0), ivec2(-1, 2), 3);",
    ),
    (
        "2d array offsets",
        "uniform sampler2DArray t;",
        U_ARRAY,
        "color = textureGatherOffsets(t, vec3(uv(), 1.0),
            ivec2[4](ivec2(-1, -1), ivec2(2, 0), ivec2(0, 2), ivec2(1, 1)));",
    ),
    (
        "cube",
        "uniform samplerCube t;",
        U_CUBE,
        "color = textureGather(t, dir());",
    ),
    (
        "cube blue",
        "uniform samplerCube t;",
        U_CUBE,
        "color = textureGather(t, dir(), 2);",
    ),
    (
        "cube array",
        "uniform samplerCubeArray t;",
        U_CUBE_ARRAY,
        "color = textureGather(t, vec4(dir(), 1.0), 1);",
    ),
    (
        "rect",
        "uniform sampler2DRect t;",
        U_RECT,
        "color = textureGather(t, uv() * 4.0);",
    ),
    (
        "rect offset",
        "uniform sampler2DRect t;",
        U_RECT,
        "color = textureGatherOffset(t, uv() * 4.0, ivec2(1, 1), 3);",
    ),
    (
        "int",
        "uniform isampler2D t;",
        U_INT,
        "color = vec4(textureGather(t, uv(), 1) + 128) / 255.0;",
    ),
    (
        "int offsets",
        "uniform isampler2D t;",
        U_INT,
        "color = vec4(textureGatherOffsets(t, uv(),
            ivec2[4](ivec2(1, 0), ivec2(0, 1), ivec2(1, 1), ivec2(-1, -1)), 2) + 128) / 255.0;",
    ),
    (
        "uint",
        "uniform usampler2D t;",
        U_UINT,
        "color = vec4(textureGatherOffset(t, uv(), ivec2(-2, 0), 3)) / 255.0;",
    ),
    (
        "shadow",
        "uniform sampler2DShadow t;",
        U_DEPTH,
        "color = textureGather(t, uv(), 0.5);",
    ),
    (
        "shadow offset",
        "uniform sampler2DShadow t;",
        U_DEPTH,
        "color = textureGatherOffset(t, uv(), 0.3, ivec2(1, 2));",
    ),
    (
        "shadow offsets",
        "uniform sampler2DShadow t;",
        U_DEPTH,
        "color = textureGatherOffsets(t, uv(), 0.7,
            ivec2[4](ivec2(1, 0), ivec2(0, 3), ivec2(-3, 1), ivec2(2, -2)));",
    ),
    (
        "shadow array",
        "uniform sampler2DArrayShadow t;",
        U_DEPTH_ARRAY,
        "color = textureGather(t, vec3(uv(), float(face() % 3)), 0.5);",
    ),
    (
        "shadow cube",
        "uniform samplerCubeShadow t;",
        U_DEPTH_CUBE,
        "color = textureGather(t, dir(), 0.4);",
    ),
    (
        "shadow cube array",
        "uniform samplerCubeArrayShadow t;",
        U_DEPTH_CUBE_ARRAY,
        "color = textureGather(t, vec4(dir(), 1.0), 0.6);",
    ),
    (
        "shadow rect",
        "uniform sampler2DRectShadow t;",
        U_DEPTH_RECT,
        "color = textureGatherOffset(t, uv() * 4.0, 0.5, ivec2(0, 1));",
    ),
    (
        "extension",
        "#extension GL_ARB_texture_gather : require\nuniform sampler2D t;",
        U_2D,
        "color = textureGatherOffset(t, uv(), ivec2(-3, 2)) + textureGather(t, uv()) * 0.0;",
    ),
];

/// Draws each gather of [`GATHERS`] over the scene's textures; returns the frames and the
/// error at the end.
fn gathered(gl: &mut dyn Gl) -> (Vec<(&'static str, Vec<u8>)>, GLenum) {
    textures(gl);
    quad(gl);
    let mut frames = Vec::new();
    for &(name, decl, unit, body) in GATHERS {
        let fs = if decl.starts_with("#extension") {
            format!("#version 330 core\n{decl}\n{COMMON}\nvoid main() {{ {body} }}\n")
        } else {
            format!("#version 400 core\n{decl}\n{COMMON}\nvoid main() {{ {body} }}\n")
        };
        let p = link_program(gl, VS, &fs);
        gl.use_program(p);
        let t = gl.get_uniform_location(p, "t");
        gl.uniform1i(t, unit);
        gl.viewport(0, 0, SIZE, SIZE);
        gl.clear_color(0.0, 0.0, 0.0, 0.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        let mut px = vec![0; (SIZE * SIZE * 4) as usize];
        gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
        frames.push((name, px));
    }
    (frames, gl.get_error())
}

#[test]
fn gathers_match_the_native_driver() {
    let (frames, error) = compare(gathered);
    assert_eq!(error, NO_ERROR);
    // The frames are not all alike (each gather reads something of its own).
    for (name, px) in &frames {
        assert!(
            px.chunks(4).any(|p| p != [0, 0, 0, 0]),
            "{name}: nothing drawn"
        );
    }
}

/// Whether shaders compile as on the native driver: constant offsets past
/// `MAX_PROGRAM_TEXTURE_GATHER_OFFSET` compile (Mesa checks gather offsets only when it
/// draws), a component that is not a constant does not, and neither does a gather in GLSL
/// 3.30 that does not enable the extension. (A constant component out of 0..3, which GLSL
/// makes an error, Mesa compiles and glslang refuses; it is left out.)
#[test]
fn gather_compile_errors_match_the_native_driver() {
    let cases: &[&str] = &[
        "#version 400 core\nuniform sampler2D t;\nout vec4 c;\nvoid main() { c = textureGatherOffset(t, vec2(0.5), ivec2(32, 0)); }\n",
        "#version 400 core\nuniform sampler2D t;\nout vec4 c;\nvoid main() { c = textureGatherOffset(t, vec2(0.5), ivec2(0, -33)); }\n",
        "#version 400 core\nuniform sampler2D t;\nuniform int k;\nout vec4 c;\nvoid main() { c = textureGather(t, vec2(0.5), k); }\n",
        "#version 330 core\n#extension GL_ARB_texture_gather : require\nuniform sampler2D t;\nout vec4 c;\nvoid main() { c = textureGather(t, vec2(0.5)); }\n",
        "#version 330 core\nuniform sampler2D t;\nout vec4 c;\nvoid main() { c = textureGather(t, vec2(0.5)); }\n",
    ];
    compare(|gl| {
        cases
            .iter()
            .map(|src| {
                let s = gl.create_shader(FRAGMENT_SHADER);
                gl.shader_source(s, src);
                gl.compile_shader(s);
                let ok = gl.get_shaderi(s, COMPILE_STATUS);
                gl.delete_shader(s);
                ok
            })
            .collect::<Vec<_>>()
    });
}

//! `textureQueryLevels` (`ARB_texture_query_levels`) and `textureQueryLod`
//! (`ARB_texture_query_lod`) on both backends (and a GLES backend limited to ES 3.0) against
//! the native driver: the GLES backend lowers both to uniforms and arithmetic
//! (`backend_gles/src/texture_query.rs`), the Vulkan backend runs `OpImageQueryLevels` and
//! `OpImageQueryLod` (with the validation layer on, which must report nothing). Each scene draws into a floating-point colour
//! buffer and reads the values back: level counts (exact) of textures of several shapes,
//! level ranges and completeness, and levels of detail (within 1e-5, see [`Lods`]) of every
//! pixel for several texture shapes, coordinate scales, filters, sampler biases and LOD
//! ranges.

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_stages;

const SIZE: i32 = 16;

/// Runs `scene` on the native driver and on `backends`, over the in-process and the
/// render-thread transports, and with GLES on a GLES backend limited to ES 3.0 without
/// extensions too; each result must be the native one, with no backend event.
fn compare<T: PartialEq + std::fmt::Debug>(
    backends: &[Backend],
    scene: impl Fn(&mut dyn Gl) -> T,
) -> T {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    let runs = backends.iter().flat_map(|&b| {
        [TransportKind::Inproc, TransportKind::Thread]
            .into_iter()
            .map(move |t| (b, Some(t)))
    });
    // And a GLES backend limited to ES 3.0 and no extensions.
    let es30 = backends
        .contains(&Backend::Gles)
        .then_some((Backend::Gles, None));
    for (backend, transport) in runs.chain(es30) {
        let name = transport.as_ref().map_or("es3.0", |t| t.name());
        let mut ctx = match transport {
            Some(t) => tessera_on(backend, t, SIZE, SIZE),
            None => tessera_es30(SIZE, SIZE),
        };
        let got = scene(&mut ctx);
        ctx.finish();
        let events: Vec<Event> = ctx.take_events();
        if got != expected {
            let (g, e) = (format!("{got:#?}"), format!("{expected:#?}"));
            let (n, (g, e)) = g
                .lines()
                .zip(e.lines())
                .enumerate()
                .find(|(_, (g, e))| g != e)
                .unwrap_or((0, ("(longer)", "(shorter)")));
            panic!(
                "{} {name}: line {n}: got {g}, native {e}; events {events:?}",
                backend.name(),
            );
        }
        assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
        assert!(events.is_empty(), "{}: {events:?}", backend.name());
    }
    expected
}

const VS: &str = "#version 330
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

/// A quad covering the viewport (a triangle strip) at attribute 0, drawn into an RGBA32F
/// texture of `SIZE` x `SIZE`.
fn setup(gl: &mut dyn Gl) {
    tessera_tests::scenes::viewport_quad(gl);
    gl.active_texture(TEXTURE0 + 15);
    let target = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, target);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA32F as i32,
        SIZE,
        SIZE,
        0,
        RGBA,
        FLOAT,
        None,
    );
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, target, 0);
    gl.viewport(0, 0, SIZE, SIZE);
}

/// Links `stages` with `pos` at attribute 0 and makes the program current.
fn program(gl: &mut dyn Gl, stages: &[(GLenum, &str)]) -> GLuint {
    let p = link_stages(gl, stages);
    gl.bind_attrib_location(p, 0, "pos");
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        1,
        "{}",
        gl.program_info_log(p)
    );
    gl.use_program(p);
    p
}

/// Draws the quad and reads the floats back, as `[x, y, z, w]` per pixel, row by row.
fn draw(gl: &mut dyn Gl) -> Vec<[f32; 4]> {
    gl.clear_bufferfv(COLOR, 0, &[-1.0, -1.0, -1.0, -1.0]);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut bytes = vec![0u8; (SIZE * SIZE * 16) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, FLOAT, &mut bytes);
    bytes
        .chunks_exact(16)
        .map(|p| {
            std::array::from_fn(|i| f32::from_le_bytes(p[4 * i..4 * i + 4].try_into().unwrap()))
        })
        .collect()
}

/// A `size` x `size` RGBA8 texture of `target` (2D, 2D array of 3 layers, cube map, 3D of
/// depth `size`) with the levels `levels` of its chain, on the active unit.
fn texture(gl: &mut dyn Gl, target: GLenum, size: i32, levels: std::ops::Range<i32>) -> GLuint {
    let t = gl.gen_texture();
    gl.bind_texture(target, t);
    for level in levels {
        let s = (size >> level).max(1);
        match target {
            TEXTURE_2D => gl.tex_image_2d(
                target,
                level,
                RGBA8 as i32,
                s,
                s,
                0,
                RGBA,
                UNSIGNED_BYTE,
                None,
            ),
            TEXTURE_CUBE_MAP => {
                for face in 0..6 {
                    gl.tex_image_2d(
                        TEXTURE_CUBE_MAP_POSITIVE_X + face,
                        level,
                        RGBA8 as i32,
                        s,
                        s,
                        0,
                        RGBA,
                        UNSIGNED_BYTE,
                        None,
                    );
                }
            }
            TEXTURE_2D_ARRAY => gl.tex_image_3d(
                target,
                level,
                RGBA8 as i32,
                s,
                s,
                3,
                0,
                RGBA,
                UNSIGNED_BYTE,
                None,
            ),
            _ => gl.tex_image_3d(
                target,
                level,
                RGBA8 as i32,
                s,
                s,
                s,
                0,
                RGBA,
                UNSIGNED_BYTE,
                None,
            ),
        }
    }
    t
}

/// `textureQueryLevels` of a full chain, base and maximum levels, a partial chain, a
/// chain broken by a level of the wrong size, an incomplete texture and an empty unit (1, as llvmpipe),
/// a texture changed between draws, and the elements of a sampler array;
/// from the fragment and the vertex stage.
#[test]
fn texture_query_levels_matches_the_native_driver() {
    const DECLS: &str = "uniform sampler2D a;\nuniform sampler2DArray b;\nuniform samplerCube c;\n\
                         uniform sampler3D d;\nuniform sampler2D e;\nuniform sampler2D f;\n\
                         uniform usampler2D g[2];\n";
    const COUNTS: &str = "vec4(textureQueryLevels(a) + 16 * textureQueryLevels(b), \
                          textureQueryLevels(c) + 16 * textureQueryLevels(d), \
                          textureQueryLevels(e) + 16 * textureQueryLevels(f), \
                          textureQueryLevels(g[0]) + 16 * textureQueryLevels(g[1]))";
    let head = "#version 330\n#extension GL_ARB_texture_query_levels : require\n";
    let fs = format!("{head}{DECLS}out vec4 o;\nvoid main() {{ o = {COUNTS}; }}\n");
    let vs_counting = format!(
        "{head}{DECLS}in vec2 pos;\nout vec4 v;\n\
         void main() {{ v = {COUNTS}; gl_Position = vec4(pos, 0.0, 1.0); }}\n"
    );
    let fs_passing = "#version 330\nin vec4 v;\nout vec4 o;\nvoid main() { o = v; }\n";
    let results = compare(&Backend::ALL, |gl| {
        setup(gl);
        let unit = |gl: &mut dyn Gl, u: u32| gl.active_texture(TEXTURE0 + u);
        // a: 32 x 32, every level, base 1 and max 3: 3 levels.
        unit(gl, 0);
        let a = texture(gl, TEXTURE_2D, 32, 0..6);
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, 1);
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_LEVEL, 3);
        // b: a 16 x 16 x 3 array, every level.
        unit(gl, 1);
        texture(gl, TEXTURE_2D_ARRAY, 16, 0..5);
        // c: a cube map of 8 x 8 faces, every level, a non-mipmap filter.
        unit(gl, 2);
        texture(gl, TEXTURE_CUBE_MAP, 8, 0..4);
        gl.tex_parameteri(TEXTURE_CUBE_MAP, TEXTURE_MIN_FILTER, LINEAR as i32);
        // d: a 3D texture of 8^3, levels 0 to 2, max level 2.
        unit(gl, 3);
        texture(gl, TEXTURE_3D, 8, 0..3);
        gl.tex_parameteri(TEXTURE_3D, TEXTURE_MAX_LEVEL, 2);
        // e: a 2D texture missing level 2 of its chain, mipmap filter: incomplete.
        unit(gl, 4);
        let e = texture(gl, TEXTURE_2D, 16, 0..2);
        gl.tex_image_2d(
            TEXTURE_2D,
            3,
            RGBA8 as i32,
            2,
            2,
            0,
            RGBA,
            UNSIGNED_BYTE,
            None,
        );
        // f: nothing bound at unit 5.
        // g: integer textures of 1 and 4 levels, nearest filters.
        for (u, levels) in [(6u32, 1), (7, 4)] {
            unit(gl, u);
            let t = gl.gen_texture();
            gl.bind_texture(TEXTURE_2D, t);
            for level in 0..levels {
                let s = 8 >> level;
                gl.tex_image_2d(
                    TEXTURE_2D,
                    level,
                    RGBA8UI as i32,
                    s,
                    s,
                    0,
                    RGBA_INTEGER,
                    UNSIGNED_BYTE,
                    None,
                );
            }
            gl.tex_parameteri(
                TEXTURE_2D,
                TEXTURE_MIN_FILTER,
                NEAREST_MIPMAP_NEAREST as i32,
            );
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
        }
        let mut results = Vec::new();
        for stages in [
            [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, fs.as_str())],
            [
                (VERTEX_SHADER, vs_counting.as_str()),
                (FRAGMENT_SHADER, fs_passing),
            ],
        ] {
            let p = program(gl, &stages);
            for (name, u) in [("a", 0), ("b", 1), ("c", 2), ("d", 3), ("e", 4), ("f", 5)] {
                let l = gl.get_uniform_location(p, name);
                gl.uniform1i(l, u);
            }
            let l = gl.get_uniform_location(p, "g");
            gl.uniform1iv(l, &[6, 7]);
            results.push(draw(gl)[0]);
            gl.uniform1iv(l, &[7, 6]);
            results.push(draw(gl)[0]);
            // Changed between draws: a's base level, e completed, c's filter.
            gl.active_texture(TEXTURE0);
            gl.bind_texture(TEXTURE_2D, a);
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, 0);
            gl.active_texture(TEXTURE4);
            gl.bind_texture(TEXTURE_2D, e);
            gl.tex_image_2d(
                TEXTURE_2D,
                2,
                RGBA8 as i32,
                4,
                4,
                0,
                RGBA,
                UNSIGNED_BYTE,
                None,
            );
            gl.tex_image_2d(
                TEXTURE_2D,
                4,
                RGBA8 as i32,
                1,
                1,
                0,
                RGBA,
                UNSIGNED_BYTE,
                None,
            );
            results.push(draw(gl)[0]);
            gl.active_texture(TEXTURE0);
            gl.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, 1);
            gl.active_texture(TEXTURE4);
            gl.tex_image_2d(
                TEXTURE_2D,
                2,
                RGBA8 as i32,
                3,
                3,
                0,
                RGBA,
                UNSIGNED_BYTE,
                None,
            );
        }
        (results, gl.get_error())
    });
    assert_eq!(results.1, NO_ERROR);
    // Counts that tell the cases apart: a's 3 levels, then 4 from base 0.
    assert_eq!(results.0[0][0] as i32 % 16, 3);
    assert_eq!(results.0[2][0] as i32 % 16, 4);
}

/// The textures of the LOD scenes, each on its own unit: a 2D texture of 64 x 64, a 2D
/// array of 64 x 64 x 3, a 3D texture of 32^3, a cube map of 32 x 32 faces, a 1D texture of
/// 64 and a 1D array of 64 x 3, every level.
fn lod_textures(gl: &mut dyn Gl) {
    for (u, (target, size)) in [
        (TEXTURE_2D, 64),
        (TEXTURE_2D_ARRAY, 64),
        (TEXTURE_3D, 32),
        (TEXTURE_CUBE_MAP, 32),
    ]
    .into_iter()
    .enumerate()
    {
        gl.active_texture(TEXTURE0 + u as u32);
        let levels = 32 - (size as u32).leading_zeros() as i32;
        texture(gl, target, size, 0..levels);
        gl.tex_parameteri(target, TEXTURE_MIN_FILTER, LINEAR_MIPMAP_LINEAR as i32);
    }
    for (u, target) in [(4, TEXTURE_1D), (5, TEXTURE_1D_ARRAY)] {
        gl.active_texture(TEXTURE0 + u);
        let t = gl.gen_texture();
        gl.bind_texture(target, t);
        for level in 0..7 {
            let w = 64 >> level;
            if target == TEXTURE_1D {
                gl.tex_image_1d(target, level, RGBA8 as i32, w, 0, RGBA, UNSIGNED_BYTE, None);
            } else {
                gl.tex_image_2d(
                    target,
                    level,
                    RGBA8 as i32,
                    w,
                    3,
                    0,
                    RGBA,
                    UNSIGNED_BYTE,
                    None,
                );
            }
        }
    }
}

/// The sampling state of a LOD scene, set on each texture of [`lod_textures`].
#[derive(Clone, Copy)]
struct Sampling {
    min_filter: GLenum,
    mag_filter: GLenum,
    bias: f32,
    min_lod: f32,
    max_lod: f32,
    base: i32,
    max_level: i32,
}

const DEFAULT: Sampling = Sampling {
    min_filter: LINEAR_MIPMAP_LINEAR,
    mag_filter: LINEAR,
    bias: 0.0,
    min_lod: -1000.0,
    max_lod: 1000.0,
    base: 0,
    max_level: 1000,
};

fn apply(gl: &mut dyn Gl, s: Sampling) {
    for (u, target) in [
        TEXTURE_2D,
        TEXTURE_2D_ARRAY,
        TEXTURE_3D,
        TEXTURE_CUBE_MAP,
        TEXTURE_1D,
        TEXTURE_1D_ARRAY,
    ]
    .into_iter()
    .enumerate()
    {
        gl.active_texture(TEXTURE0 + u as u32);
        gl.tex_parameteri(target, TEXTURE_MIN_FILTER, s.min_filter as i32);
        gl.tex_parameteri(target, TEXTURE_MAG_FILTER, s.mag_filter as i32);
        gl.tex_parameterfv(target, TEXTURE_LOD_BIAS, &[s.bias]);
        gl.tex_parameterfv(target, TEXTURE_MIN_LOD, &[s.min_lod]);
        gl.tex_parameterfv(target, TEXTURE_MAX_LOD, &[s.max_lod]);
        gl.tex_parameteri(target, TEXTURE_BASE_LEVEL, s.base);
        gl.tex_parameteri(target, TEXTURE_MAX_LEVEL, s.max_level);
    }
}

/// The coordinate scales of the LOD scenes: magnified, one texel a pixel, minified,
/// stretched one way more than the other, and far beyond the last level.
const SCALES: [[f32; 2]; 6] = [
    [0.25, 0.25],
    [1.0, 1.0],
    [3.0, 3.0],
    [5.0, 0.75],
    [0.5, 11.0],
    [900.0, 900.0],
];

/// The `(x, y)` of each pixel of a LOD draw, equal to another's when every value is within
/// 1e-5 of it: the shader's derivatives on the GLES backend and the native sampler's can
/// differ in their last bits away from the first pixel of a 2 x 2 quad.
#[derive(Debug)]
struct Lods(Vec<[f32; 2]>);

impl PartialEq for Lods {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                .all(|(a, b)| (a[0] - b[0]).abs() <= 1e-5 && (a[1] - b[1]).abs() <= 1e-5)
    }
}

/// `textureQueryLod` of `sampler` at `coord` (an expression of `uv`, the fragment's
/// position scaled by the uniform `scale`) through each filter and sampler state, at each
/// scale: `(x, y)` of every pixel.
fn lod_scene(sampler: &str, unit: i32, coord: &str) -> Vec<Lods> {
    let fs = format!(
        "#version 330\n#extension GL_ARB_texture_query_lod : require\n\
         uniform {sampler} t;\nuniform vec2 scale;\nout vec4 o;\n\
         void main() {{\n    vec2 uv = gl_FragCoord.xy / 16.0 * scale;\n    \
         o = vec4(textureQueryLOD(t, {coord}), 0.0, 1.0);\n}}\n"
    );
    let mut states = vec![
        DEFAULT,
        Sampling {
            min_filter: NEAREST_MIPMAP_NEAREST,
            bias: 1.0,
            ..DEFAULT
        },
        Sampling {
            min_filter: LINEAR_MIPMAP_NEAREST,
            bias: -0.75,
            min_lod: 1.25,
            max_lod: 3.5,
            ..DEFAULT
        },
        // No mipmap filter, minification and magnification filters that differ.
        Sampling {
            min_filter: LINEAR,
            mag_filter: NEAREST,
            bias: 2.0,
            ..DEFAULT
        },
        Sampling {
            min_filter: NEAREST_MIPMAP_LINEAR,
            base: 1,
            max_level: 3,
            ..DEFAULT
        },
    ];
    // No mipmap filter, equal minification and magnification filters: not matched on GLES
    // for cube maps, whose level of detail llvmpipe then takes from the face coordinates'
    // differences across the quad.
    if sampler != "samplerCube" {
        states.push(Sampling {
            min_filter: NEAREST,
            mag_filter: NEAREST,
            bias: -1.0,
            ..DEFAULT
        });
    }
    // A reversed LOD range: llvmpipe clamps to the maximum, then to the minimum. The Vulkan
    // backend's samplers give another level there (not compared).
    let reversed = Sampling {
        min_filter: LINEAR_MIPMAP_LINEAR,
        min_lod: 4.0,
        max_lod: 2.0,
        ..DEFAULT
    };
    let mut results = lod_states(&Backend::ALL, &fs, unit, &states);
    results.extend(lod_states(&[Backend::Gles], &fs, unit, &[reversed]));
    results
}

/// [`lod_scene`]'s draws with each of `states`, compared on `backends`.
fn lod_states(backends: &[Backend], fs: &str, unit: i32, states: &[Sampling]) -> Vec<Lods> {
    let (results, error) = compare(backends, |gl| {
        setup(gl);
        lod_textures(gl);
        let p = program(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, fs)]);
        let l = gl.get_uniform_location(p, "t");
        gl.uniform1i(l, unit);
        let scale = gl.get_uniform_location(p, "scale");
        let mut results = Vec::new();
        for &state in states {
            apply(gl, state);
            for s in SCALES {
                gl.uniform2fv(scale, &s);
                let pixels = draw(gl);
                results.push(Lods(pixels.iter().map(|p| [p[0], p[1]]).collect()));
            }
        }
        (results, gl.get_error())
    });
    assert_eq!(error, NO_ERROR);
    results
}

/// The distinct `x` values of a LOD scene, to show its cases differ.
fn distinct(results: &[Lods]) -> usize {
    let mut xs: Vec<u32> = results
        .iter()
        .flat_map(|l| &l.0)
        .map(|v| v[0].to_bits())
        .collect();
    xs.sort_unstable();
    xs.dedup();
    xs.len()
}

#[test]
fn texture_query_lod_of_2d_textures_matches_the_native_driver() {
    let results = lod_scene("sampler2D", 0, "uv + uv.yx * vec2(0.3, -0.6)");
    assert!(distinct(&results) >= 8, "{results:?}");
}

#[test]
fn texture_query_lod_of_2d_array_textures_matches_the_native_driver() {
    let results = lod_scene("sampler2DArray", 1, "uv");
    assert!(distinct(&results) >= 8, "{results:?}");
}

#[test]
fn texture_query_lod_of_3d_textures_matches_the_native_driver() {
    let results = lod_scene("sampler3D", 2, "vec3(uv, uv.x * 0.5 + uv.y)");
    assert!(distinct(&results) >= 8, "{results:?}");
}

#[test]
fn texture_query_lod_of_cube_maps_matches_the_native_driver() {
    let results = lod_scene("samplerCube", 3, "vec3(uv.x - 0.3, 1.0, uv.y * 0.7 - 0.2)");
    assert!(distinct(&results) >= 8, "{results:?}");
}

#[test]
fn texture_query_lod_of_1d_textures_matches_the_native_driver() {
    let results = lod_scene("sampler1D", 4, "uv.x + uv.y * 0.25");
    assert!(distinct(&results) >= 8, "{results:?}");
}

#[test]
fn texture_query_lod_of_1d_array_textures_matches_the_native_driver() {
    let results = lod_scene("sampler1DArray", 5, "uv.x - uv.y * 0.5");
    assert!(distinct(&results) >= 8, "{results:?}");
}

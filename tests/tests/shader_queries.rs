//! Four small GLSL extensions against the native driver (Vulkan with the validation layer
//! on, which must report nothing): `textureQueryLod` (`ARB_texture_query_lod`, GL 4.0) and
//! `textureQueryLevels` (`ARB_texture_query_levels`, GL 4.3) in their core GLSL versions on
//! the Vulkan backend, whose SPIR-V has `OpImageQueryLod` and `OpImageQueryLevels` (both
//! backends through the extensions: `texture_queries.rs`); depth layout qualifiers
//! (`ARB_conservative_depth`, GL 4.2) and `gl_Layer` and `gl_ViewportIndex` read by fragment
//! shaders (`ARB_fragment_layer_viewport`, GL 4.3) on both backends. Each is drawn in its core GLSL
//! version and in an earlier one through its `#extension`; the compile statuses of shaders
//! that use the features with and without the extensions must be the native ones too.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_stages;

const SIZE: i32 = 32;

/// Runs `scene` on the native driver and on `backends`, over the in-process and the
/// render-thread transports; each result must be the native one, with no backend event.
fn compare<T: PartialEq + std::fmt::Debug>(
    backends: &[Backend],
    scene: impl Fn(&mut dyn Gl) -> T,
) -> T {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for &backend in backends {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = scene(&mut ctx);
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            if got != expected {
                // The first line of the two renderings that differs, not all of both.
                let (g, e) = (format!("{got:#?}"), format!("{expected:#?}"));
                let (n, (g, e)) = g
                    .lines()
                    .zip(e.lines())
                    .enumerate()
                    .find(|(_, (g, e))| g != e)
                    .unwrap_or((0, ("(longer)", "(shorter)")));
                panic!(
                    "{} {}: line {n}: got {g}, native {e}; events {events:?}",
                    backend.name(),
                    transport.name()
                );
            }
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    expected
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

/// The texture queries, the depth layouts and the fragment stage's layer and viewport are
/// advertised on both backends.
#[test]
fn the_extensions_are_advertised_where_the_backend_carries_them_out() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        let has = |e: &str| names.iter().any(|n| n == e);
        assert!(has("GL_ARB_texture_query_lod"), "{}", backend.name());
        assert!(has("GL_ARB_texture_query_levels"), "{}", backend.name());
        assert!(has("GL_ARB_conservative_depth"), "{}", backend.name());
        assert!(has("GL_ARB_fragment_layer_viewport"), "{}", backend.name());
    }
}

const VS: &str = "#version 150
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

/// A quad covering the viewport (a triangle strip) at attribute 0.
fn quad(gl: &mut dyn Gl) {
    tessera_tests::scenes::viewport_quad(gl);
}

/// Links `vs` and `fs` with `pos` at attribute 0.
fn program(gl: &mut dyn Gl, stages: &[(GLenum, &str)]) -> GLuint {
    let p = link_stages(gl, stages);
    gl.bind_attrib_location(p, 0, "pos");
    gl.link_program(p);
    gl.use_program(p);
    p
}

/// A frame's RGBA8 pixels, shown in failures by the pixels that differ from another's.
#[derive(PartialEq)]
struct Frame(Vec<u8>);

impl std::fmt::Debug for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Row by row, each pixel's bytes; short enough to compare two failing frames.
        for (y, row) in self.0.chunks((SIZE * 4) as usize).enumerate() {
            writeln!(f, "{y:2}: {:?}", row.chunks(4).collect::<Vec<_>>())?;
        }
        Ok(())
    }
}

impl std::ops::Deref for Frame {
    type Target = Vec<u8>;
    fn deref(&self) -> &Vec<u8> {
        &self.0
    }
}

fn frame(gl: &mut dyn Gl) -> Frame {
    let mut px = vec![0; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
    Frame(px)
}

/// A `size` x `size` RGBA8 2D texture with every level of its chain, on the bound unit.
fn mipmapped(gl: &mut dyn Gl, target: GLenum, size: i32) -> GLuint {
    let t = gl.gen_texture();
    gl.bind_texture(target, t);
    let mut level = 0;
    let mut s = size;
    while s >= 1 {
        let texels = vec![(40 * level + 20) as u8; (s * s * 4) as usize];
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
                Some(&texels),
            ),
            _ => {
                let layers = vec![(40 * level + 20) as u8; (s * s * 4 * 3) as usize];
                gl.tex_image_3d(
                    target,
                    level,
                    RGBA8 as i32,
                    s,
                    s,
                    3,
                    0,
                    RGBA,
                    UNSIGNED_BYTE,
                    Some(&layers),
                );
            }
        }
        level += 1;
        s /= 2;
    }
    gl.tex_parameteri(target, TEXTURE_MIN_FILTER, LINEAR_MIPMAP_LINEAR as i32);
    gl.tex_parameteri(target, TEXTURE_MAG_FILTER, LINEAR as i32);
    t
}

/// `textureQueryLod` at several scales of the coordinates (magnified, minified, stretched
/// more in one direction than the other), in GLSL 4.00 and as `textureQueryLOD` in GLSL 1.50
/// through the extension, on a 2D texture and a 2D array texture: the level the lookup
/// would use and the level of detail, each scaled into a byte.
#[test]
fn texture_query_lod_matches_the_native_driver() {
    let bodies = [
        ("#version 400\n", "sampler2D", "textureQueryLod(t, uv)"),
        ("#version 400\n", "sampler2DArray", "textureQueryLod(t, uv)"),
        (
            "#version 150\n#extension GL_ARB_texture_query_lod : require\n",
            "sampler2D",
            "textureQueryLOD(t, uv)",
        ),
    ];
    let frames = compare(&[Backend::Vulkan], |gl| {
        quad(gl);
        gl.active_texture(TEXTURE0);
        mipmapped(gl, TEXTURE_2D, 64);
        gl.active_texture(TEXTURE1);
        mipmapped(gl, TEXTURE_2D_ARRAY, 64);
        let mut frames = Vec::new();
        for (head, sampler, call) in bodies {
            let fs = format!(
                "{head}uniform {sampler} t;\nuniform vec2 scale;\nout vec4 color;\n\
                 void main() {{\n    vec2 uv = gl_FragCoord.xy / 32.0 * scale;\n    \
                 vec2 lod = {call};\n    \
                 color = vec4(lod.x / 8.0, lod.y / 16.0 + 0.5, fract(lod * 4.0));\n}}\n"
            );
            let p = program(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, &fs)]);
            let t = gl.get_uniform_location(p, "t");
            gl.uniform1i(t, if sampler == "sampler2D" { 0 } else { 1 });
            let scale = gl.get_uniform_location(p, "scale");
            for s in [
                [0.25f32, 0.25],
                [1.0, 1.0],
                [2.0, 2.0],
                [3.0, 0.5],
                [12.0, 40.0],
                [600.0, 600.0],
            ] {
                gl.uniform2fv(scale, &s);
                gl.clear_color(0.0, 0.0, 0.0, 0.0);
                gl.clear(COLOR_BUFFER_BIT);
                gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
                frames.push(frame(gl));
            }
        }
        (frames, gl.get_error())
    });
    assert_eq!(frames.1, NO_ERROR);
    // The scales give different levels.
    let centre = |f: &Frame| f[((SIZE / 2 * SIZE + SIZE / 2) * 4) as usize];
    assert!(
        frames
            .0
            .iter()
            .map(centre)
            .collect::<std::collections::BTreeSet<_>>()
            .len()
            >= 4
    );
}

/// `textureQueryLevels` on textures of every shape with full and partial chains, base and
/// maximum levels and a texture of one level, from the fragment and the
/// vertex stage, in GLSL 4.30 and in 3.30 through the extension: the counts as bytes.
#[test]
fn texture_query_levels_matches_the_native_driver() {
    let sources = [
        (
            "#version 430\n".to_string(),
            "#version 430\nin vec2 pos;\nout vec4 v;\n".to_string(),
        ),
        (
            "#version 330\n#extension GL_ARB_texture_query_levels : require\n".to_string(),
            "#version 330\n#extension GL_ARB_texture_query_levels : enable\n\
             in vec2 pos;\nout vec4 v;\n"
                .to_string(),
        ),
    ];
    const DECLS: &str = "uniform sampler2D a;\nuniform sampler2DArray b;\nuniform samplerCube c;\n\
                         uniform sampler3D d;\nuniform isampler2D e;\nuniform sampler2DShadow f;\n";
    const COUNTS: &str = "vec4(textureQueryLevels(a), textureQueryLevels(b) + 16 * textureQueryLevels(c), \
                          textureQueryLevels(d) + 16 * textureQueryLevels(e), textureQueryLevels(f)) / 255.0";
    let (frames, error) = compare(&[Backend::Vulkan], |gl| {
        quad(gl);
        let unit = |gl: &mut dyn Gl, u: u32| gl.active_texture(TEXTURE0 + u);
        // a: 32 x 32 with levels 0..=5, base 1 and max 3.
        unit(gl, 0);
        mipmapped(gl, TEXTURE_2D, 32);
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, 1);
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_LEVEL, 3);
        // b: a 16 x 16 x 3 array with its whole chain.
        unit(gl, 1);
        mipmapped(gl, TEXTURE_2D_ARRAY, 16);
        // c: a cube map of 8 x 8 faces, level 0 only.
        unit(gl, 2);
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_CUBE_MAP, t);
        for face in 0..6 {
            gl.tex_image_2d(
                TEXTURE_CUBE_MAP_POSITIVE_X + face,
                0,
                RGBA8 as i32,
                8,
                8,
                0,
                RGBA,
                UNSIGNED_BYTE,
                None,
            );
        }
        gl.tex_parameteri(TEXTURE_CUBE_MAP, TEXTURE_MIN_FILTER, NEAREST as i32);
        // d: a 3D texture of 3 levels from 16 x 8 x 4 (a partial chain).
        unit(gl, 3);
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_3D, t);
        for (level, (w, h, d)) in [(16, 8, 4), (8, 4, 2), (4, 2, 1)].into_iter().enumerate() {
            gl.tex_image_3d(
                TEXTURE_3D,
                level as i32,
                RGBA8 as i32,
                w,
                h,
                d,
                0,
                RGBA,
                UNSIGNED_BYTE,
                None,
            );
        }
        gl.tex_parameteri(TEXTURE_3D, TEXTURE_MAX_LEVEL, 2);
        // e: an integer 2D texture of 4 x 4 and 2 x 2 levels, max level 1.
        unit(gl, 4);
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, t);
        gl.tex_image_2d(
            TEXTURE_2D,
            0,
            RGBA8I as i32,
            4,
            4,
            0,
            RGBA_INTEGER,
            BYTE,
            None,
        );
        gl.tex_image_2d(
            TEXTURE_2D,
            1,
            RGBA8I as i32,
            2,
            2,
            0,
            RGBA_INTEGER,
            BYTE,
            None,
        );
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_LEVEL, 1);
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
        // f: a depth texture of 8 x 8 with compare mode and its 4 levels.
        unit(gl, 5);
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, t);
        for (level, size) in [8, 4, 2, 1].into_iter().enumerate() {
            gl.tex_image_2d(
                TEXTURE_2D,
                level as i32,
                DEPTH_COMPONENT32F as i32,
                size,
                size,
                0,
                DEPTH_COMPONENT,
                FLOAT,
                None,
            );
        }
        gl.tex_parameteri(
            TEXTURE_2D,
            TEXTURE_COMPARE_MODE,
            COMPARE_REF_TO_TEXTURE as i32,
        );
        let mut frames = Vec::new();
        for (fs_head, vs_head) in &sources {
            let fragment =
                format!("{fs_head}{DECLS}out vec4 color;\nvoid main() {{ color = {COUNTS}; }}\n");
            let vertex = format!(
                "{vs_head}{DECLS}void main() {{ gl_Position = vec4(pos, 0.0, 1.0); v = {COUNTS}; }}\n"
            );
            let passed = format!(
                "{}in vec4 v;\nout vec4 color;\nvoid main() {{ color = v; }}\n",
                &vs_head[..13]
            );
            for stages in [
                [(VERTEX_SHADER, VS.to_string()), (FRAGMENT_SHADER, fragment)],
                [(VERTEX_SHADER, vertex), (FRAGMENT_SHADER, passed)],
            ] {
                let stages: Vec<(GLenum, &str)> =
                    stages.iter().map(|(k, s)| (*k, s.as_str())).collect();
                let p = program(gl, &stages);
                for (k, name) in ["a", "b", "c", "d", "e", "f"].iter().enumerate() {
                    let l = gl.get_uniform_location(p, name);
                    gl.uniform1i(l, k as i32);
                }
                gl.clear_color(0.0, 0.0, 0.0, 0.0);
                gl.clear(COLOR_BUFFER_BIT);
                gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
                let px = frame(gl);
                frames.push(px[..4].to_vec());
            }
        }
        (frames, gl.get_error())
    });
    assert_eq!(error, NO_ERROR);
    // Native llvmpipe's counts: 3 (levels 1..=3); 5 (the array's chain) + 16 (the cube's
    // one level); 3 (levels 0..=2) + 16 (the integer texture sampled without mipmaps, as
    // Mesa counts it); 4. Every stage and version gives the same.
    for f in &frames {
        assert_eq!(f, &[3, 5 + 16, 3 + 16, 4]);
    }
}

/// Depth layouts on a redeclared `gl_FragDepth` (any, greater, less, unchanged), each
/// program moving the depth its own way, drawn over a quad at depth 0.5 with `LESS`, in
/// GLSL 4.20 and in 3.30 through the extension.
#[test]
fn conservative_depth_matches_the_native_driver() {
    let layouts = [
        ("depth_any", "gl_FragCoord.z - 0.3"),
        (
            "depth_greater",
            "gl_FragCoord.z + 0.2 * fract(gl_FragCoord.x / 8.0)",
        ),
        (
            "depth_less",
            "gl_FragCoord.z - 0.4 * fract(gl_FragCoord.y / 8.0)",
        ),
        ("depth_unchanged", "gl_FragCoord.z"),
    ];
    let (frames, error) = compare(&Backend::ALL, |gl| {
        quad(gl);
        gl.enable(DEPTH_TEST);
        gl.depth_func(LESS);
        let mut frames = Vec::new();
        for head in [
            "#version 420\n",
            "#version 330\n#extension GL_ARB_conservative_depth : enable\n",
        ] {
            for (layout, depth) in layouts {
                let back = "#version 150\nout vec4 color;\nvoid main() { color = vec4(0.0, 0.0, 1.0, 1.0); gl_FragDepth = 0.5; }\n";
                let fs = format!(
                    "{head}layout({layout}) out float gl_FragDepth;\nout vec4 color;\n\
                     void main() {{ color = vec4(1.0, gl_FragCoord.xy / 32.0, 1.0); gl_FragDepth = {depth}; }}\n"
                );
                gl.clear_color(0.0, 0.0, 0.0, 0.0);
                gl.clear_depth(1.0);
                gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
                program(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, back)]);
                gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
                // The front quad runs from depth 0.3 (left) to 0.7 (right): z = x * 0.4.
                let vs = "#version 150\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, pos.x * 0.4, 1.0); }\n";
                program(gl, &[(VERTEX_SHADER, vs), (FRAGMENT_SHADER, &fs)]);
                gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
                frames.push(frame(gl));
            }
        }
        (frames, gl.get_error())
    });
    assert_eq!(error, NO_ERROR);
    // Each layout's frame has the front quad in it, and some have the back one showing.
    for f in &frames {
        assert!(f.chunks(4).any(|p| p[0] == 255));
    }
    assert!(
        frames
            .iter()
            .any(|f| f.chunks(4).any(|p| p == [0, 0, 255, 255]))
    );
}

/// What the fragment stage's `gl_Layer` and `gl_ViewportIndex` read: written by a geometry
/// shader into the four layers of a layered framebuffer and into viewports 0..3 (each
/// quadrant a viewport, each layer its own colour), and with no geometry stage or one that
/// writes neither (both read 0), in GLSL 4.30 and in 1.50 through the extension, whose
/// shaders write `gl_FragColor`.
#[test]
fn fragment_layer_and_viewport_match_the_native_driver() {
    let heads = [
        ("#version 430\nout vec4 color;\n", "color"),
        (
            "#version 150\n#extension GL_ARB_fragment_layer_viewport : require\n",
            "gl_FragColor",
        ),
    ];
    let gs_writes = |what: &str| {
        format!(
            "#version 150\n#extension GL_ARB_viewport_array : enable\n\
             layout(triangles) in;\nlayout(triangle_strip, max_vertices = 12) out;\n\
             void main() {{\n    for (int k = 0; k < 4; k++) {{\n        \
             for (int i = 0; i < 3; i++) {{\n            \
             vec4 p = gl_in[i].gl_Position;\n            \
             gl_Position = vec4(p.xy * 0.5 + vec2(k % 2, k / 2) - 0.5, 0.0, 1.0);\n            \
             {what}\n            EmitVertex();\n        }}\n        EndPrimitive();\n    }}\n}}\n"
        )
    };
    let (frames, error) = compare(&Backend::ALL, |gl| {
        quad(gl);
        let mut frames = Vec::new();
        let fbo = gl.gen_framebuffer();
        let layers = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D_ARRAY, layers);
        gl.tex_image_3d(
            TEXTURE_2D_ARRAY,
            0,
            RGBA8 as i32,
            SIZE,
            SIZE,
            4,
            0,
            RGBA,
            UNSIGNED_BYTE,
            None,
        );
        for (head, out) in heads {
            let fs = format!(
                "{head}void main() {{ {out} = vec4(float(gl_Layer) / 4.0, float(gl_ViewportIndex) / 4.0, \
                 gl_FragCoord.xy / 32.0); }}\n"
            );
            // Layers: each quadrant's copy of the quad goes to layer k.
            gl.bind_framebuffer(FRAMEBUFFER, fbo);
            gl.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT0, layers, 0);
            let gs = gs_writes("gl_Layer = k;");
            program(
                gl,
                &[
                    (VERTEX_SHADER, VS),
                    (GEOMETRY_SHADER, &gs),
                    (FRAGMENT_SHADER, &fs),
                ],
            );
            gl.clear_color(0.0, 0.0, 0.0, 0.0);
            gl.clear(COLOR_BUFFER_BIT);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
            let read = gl.gen_framebuffer();
            gl.bind_framebuffer(READ_FRAMEBUFFER, read);
            for layer in 0..4 {
                gl.framebuffer_texture_layer(READ_FRAMEBUFFER, COLOR_ATTACHMENT0, layers, 0, layer);
                frames.push(frame(gl));
            }
            gl.bind_framebuffer(FRAMEBUFFER, 0);
            // Viewports: all of them the whole window, each quadrant's copy to viewport k.
            let gs = gs_writes("gl_ViewportIndex = k;");
            for stages in [
                vec![
                    (VERTEX_SHADER, VS),
                    (GEOMETRY_SHADER, gs.as_str()),
                    (FRAGMENT_SHADER, fs.as_str()),
                ],
                vec![(VERTEX_SHADER, VS), (FRAGMENT_SHADER, fs.as_str())],
            ] {
                program(gl, &stages);
                gl.clear(COLOR_BUFFER_BIT);
                gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
                frames.push(frame(gl));
            }
            // A geometry stage that writes neither.
            let gs = gs_writes("");
            program(
                gl,
                &[
                    (VERTEX_SHADER, VS),
                    (GEOMETRY_SHADER, &gs),
                    (FRAGMENT_SHADER, &fs),
                ],
            );
            gl.clear(COLOR_BUFFER_BIT);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
            frames.push(frame(gl));
        }
        (frames, gl.get_error())
    });
    assert_eq!(error, NO_ERROR);
    // Layer k's frame has layer k's red (k / 4 as a byte) where it was drawn.
    for (k, f) in frames[..4].iter().enumerate() {
        let red = [0, 64, 128, 191][k];
        assert!(f.chunks(4).any(|p| p[0] == red && p[3] != 0), "layer {k}");
    }
    // The viewport frame has four greens.
    let greens: std::collections::BTreeSet<u8> = frames[4]
        .chunks(4)
        .filter(|p| p[3] != 0)
        .map(|p| p[1])
        .collect();
    assert_eq!(greens.len(), 4, "{greens:?}");
}

/// Compile statuses: each feature without its extension below its core version fails,
/// with it compiles, and the extensions' macros are defined (the texture queries' shaders
/// only where the backend advertises them).
#[test]
fn compile_statuses_match_the_native_driver() {
    let frag = |src: &'static str| (FRAGMENT_SHADER, src);
    let vert = |src: &'static str| (VERTEX_SHADER, src);
    let both: &[(GLenum, &str)] = &[
        frag("#version 330\nout vec4 c;\nvoid main() { c = vec4(gl_Layer); }\n"),
        frag(
            "#version 330\n#extension GL_ARB_fragment_layer_viewport : enable\nout vec4 c;\nvoid main() { c = vec4(gl_Layer + gl_ViewportIndex); }\n",
        ),
        frag(
            "#version 330\n#extension GL_ARB_fragment_layer_viewport : disable\nout vec4 c;\nvoid main() { c = vec4(gl_ViewportIndex); }\n",
        ),
        vert(
            "#version 330\n#extension GL_ARB_fragment_layer_viewport : require\nvoid main() { gl_Position = vec4(0.0); }\n",
        ),
        frag(
            "#version 400\nlayout(depth_greater) out float gl_FragDepth;\nvoid main() { gl_FragDepth = 1.0; }\n",
        ),
        frag(
            "#version 400\n#extension GL_ARB_conservative_depth : require\nlayout(depth_greater) out float gl_FragDepth;\nvoid main() { gl_FragDepth = 1.0; }\n",
        ),
        frag(
            "#version 420\nlayout(depth_unchanged) out float gl_FragDepth;\nvoid main() { gl_FragDepth = gl_FragCoord.z; }\n",
        ),
        frag(
            "#version 150\n#if !defined GL_ARB_conservative_depth || !defined GL_ARB_fragment_layer_viewport\n#error undefined\n#endif\nvoid main() {}\n",
        ),
    ];
    let vulkan: &[(GLenum, &str)] = &[
        frag(
            "#version 330\nuniform sampler2D s;\nout vec4 c;\nvoid main() { c = vec4(textureQueryLevels(s)); }\n",
        ),
        frag(
            "#version 330\n#extension GL_ARB_texture_query_levels : require\nuniform sampler2D s;\nout vec4 c;\nvoid main() { c = vec4(textureQueryLevels(s)); }\n",
        ),
        vert(
            "#version 150\n#extension GL_ARB_texture_query_lod : require\nuniform sampler2D s;\nvoid main() { gl_Position = vec4(textureQueryLOD(s, vec2(0.0)), 0.0, 1.0); }\n",
        ),
        frag(
            "#version 140\n#extension GL_ARB_texture_query_lod : require\nuniform sampler2D s;\nout vec4 c;\nvoid main() { c = vec4(textureQueryLOD(s, vec2(0.5)), 0.0, 1.0); }\n",
        ),
        frag(
            "#version 330\nuniform sampler2D s;\nout vec4 c;\nvoid main() { c = vec4(textureQueryLOD(s, vec2(0.5)), 0.0, 1.0); }\n",
        ),
        frag(
            "#version 400\n#if !defined GL_ARB_texture_query_lod || !defined GL_ARB_texture_query_levels\n#error undefined\n#endif\nvoid main() {}\n",
        ),
    ];
    let got = compare(&Backend::ALL, |gl| statuses(gl, both));
    assert_eq!(got, [0, 1, 0, 1, 0, 1, 1, 1]);
    let got = compare(&[Backend::Vulkan], |gl| statuses(gl, vulkan));
    assert_eq!(got[..2], [0, 1]);
}

/// Each shader's `COMPILE_STATUS`.
fn statuses(gl: &mut dyn Gl, cases: &[(GLenum, &str)]) -> Vec<GLint> {
    cases
        .iter()
        .map(|&(kind, src)| {
            let s = gl.create_shader(kind);
            gl.shader_source(s, src);
            gl.compile_shader(s);
            let ok = gl.get_shaderi(s, COMPILE_STATUS);
            gl.delete_shader(s);
            ok
        })
        .collect()
}

//! GLSL 4.50's sample counts (`GL_ARB_shader_texture_image_samples`, GL 4.5) against the
//! native driver on both backends (Vulkan with the validation layer on, which must report
//! nothing): `textureSamples()` of `sampler2DMS` and `sampler2DMSArray` (float, integer and
//! unsigned forms) holding textures asked for 1, 2, 3 and 4 samples (llvmpipe and lavapipe
//! give each 4), read in the vertex and fragment
//! stages, in GLSL 4.50 and in GLSL 1.50 through the extension, written into an integer
//! colour buffer. Values must be exactly the native ones. Vulkan reads the counts with
//! SPIR-V's `OpImageQuerySamples`; the GLES backend, whose GLSL ES has no such function,
//! from a uniform array it sets from the bound textures (`backend_gles/src/texture_query.rs`).
//! `imageSamples()` compiles as natively; no backend binds multisampled images yet
//! (`MAX_IMAGE_SAMPLES` is 0), so no image has a count to read.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

const SIZE: i32 = 4;

/// The sample counts asked of the textures.
const ASKED: [i32; 3] = [1, 2, 4];

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

#[test]
fn texture_image_samples_is_advertised_on_both_backends() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        assert!(
            names
                .iter()
                .any(|e| e == "GL_ARB_shader_texture_image_samples"),
            "{}: {names:?}",
            backend.name()
        );
    }
}

/// The samplers every program reads, on units 0 to 3.
const SAMPLERS: &str = "uniform sampler2DMS s0;
uniform isampler2DMSArray s1;
uniform usampler2DMS s2;
uniform sampler2DMSArray s3;
";

const COUNTS: &str =
    "ivec4(textureSamples(s0), textureSamples(s1), textureSamples(s2), textureSamples(s3))";

const VS_PLAIN: &str = "layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

/// The programs' sources: the counts read in the fragment stage, then in the vertex stage,
/// each in GLSL 4.50 and in GLSL 1.50 with the extension.
fn programs() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for head in [
        "#version 450 core\n",
        "#version 150\n#extension GL_ARB_shader_texture_image_samples : require\n#extension GL_ARB_explicit_attrib_location : require\n",
    ] {
        out.push((
            format!("{head}{VS_PLAIN}"),
            format!("{head}{SAMPLERS}out ivec4 o;\nvoid main() {{ o = {COUNTS}; }}\n"),
        ));
        out.push((
            format!(
                "{head}{SAMPLERS}layout(location = 0) in vec2 pos;\nflat out ivec4 v;\n\
                 void main() {{ v = {COUNTS}; gl_Position = vec4(pos, 0.0, 1.0); }}\n"
            ),
            format!("{head}flat in ivec4 v;\nout ivec4 o;\nvoid main() {{ o = v; }}\n"),
        ));
    }
    out
}

/// For each asked count, the four textures on units 0 to 3 (2D, 2D array of 3 layers,
/// 2D, 2D array), drawn with every program; the pixel (1, 2) of each frame and the error
/// at the end.
fn counts(gl: &mut dyn Gl) -> (Vec<[i32; 4]>, GLenum) {
    tessera_tests::scenes::viewport_quad(gl);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA32I, SIZE, SIZE);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    gl.viewport(0, 0, SIZE, SIZE);
    let linked: Vec<GLuint> = programs()
        .iter()
        .map(|(vs, fs)| {
            let p = link_program(gl, vs, fs);
            gl.use_program(p);
            for unit in 0..4 {
                let at = gl.get_uniform_location(p, &format!("s{unit}"));
                if at >= 0 {
                    gl.uniform1i(at, unit);
                }
            }
            p
        })
        .collect();
    let mut frames = Vec::new();
    let formats = [
        (TEXTURE_2D_MULTISAMPLE, RGBA8),
        (TEXTURE_2D_MULTISAMPLE_ARRAY, RGBA8I),
        (TEXTURE_2D_MULTISAMPLE, RGBA16UI),
        (TEXTURE_2D_MULTISAMPLE_ARRAY, R32F),
    ];
    for asked in ASKED {
        for (unit, (target, format)) in formats.iter().enumerate() {
            let t = gl.gen_texture();
            gl.active_texture(TEXTURE0 + unit as GLenum);
            gl.bind_texture(*target, t);
            // Each texture asks one more sample than the one before it, up to 4.
            let samples = (asked + unit as i32 % 2).min(4);
            if *target == TEXTURE_2D_MULTISAMPLE {
                gl.tex_image_2d_multisample(
                    *target,
                    samples,
                    *format as GLint,
                    8,
                    8,
                    TRUE as GLboolean,
                );
            } else {
                gl.tex_image_3d_multisample(
                    *target,
                    samples,
                    *format as GLint,
                    8,
                    8,
                    3,
                    TRUE as GLboolean,
                );
            }
        }
        for &p in &linked {
            gl.use_program(p);
            gl.clear_bufferiv(COLOR, 0, &[-1, -2, -3, -4]);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
            let mut px = vec![0; (SIZE * SIZE * 16) as usize];
            gl.read_pixels(0, 0, SIZE, SIZE, RGBA_INTEGER, INT, &mut px);
            let i = ((2 * SIZE + 1) * 16) as usize;
            frames.push(std::array::from_fn(|c| {
                i32::from_le_bytes(px[i + 4 * c..i + 4 * c + 4].try_into().unwrap())
            }));
        }
    }
    (frames, gl.get_error())
}

#[test]
fn texture_samples_match_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = counts(&mut native);
    drop(native);
    assert_eq!(expected.1, NO_ERROR);
    let programs = programs().len();
    assert_eq!(expected.0.len(), ASKED.len() * programs);
    // llvmpipe multisamples with 4 samples only, so every count asked becomes 4 (Tessera
    // rounds the same way, to the counts the backend has): not 0, what an unset count
    // uniform or an unbound texture would read.
    assert!(
        expected.0.iter().flatten().all(|&n| n == 4),
        "{:?}",
        expected.0
    );
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = counts(&mut ctx);
            let name = format!("{} {}", backend.name(), transport.name());
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert_eq!(got, expected, "{name}: {events:?}");
            assert!(events.is_empty(), "{name}: {events:?}");
        }
    }
}

/// What compiles: both functions in GLSL 4.50 and in 1.50 with the extension (its macro
/// defined), neither in 3.30 without it, as natively.
#[test]
fn sample_count_functions_compile_where_the_native_driver_compiles_them() {
    let sources = [
        "#version 450 core\nuniform sampler2DMS s;\nout vec4 o;\nvoid main() { o = vec4(textureSamples(s)); }\n",
        "#version 150\n#extension GL_ARB_shader_texture_image_samples : require\nuniform isampler2DMSArray s;\nout vec4 o;\nvoid main() { o = vec4(textureSamples(s)); }\n",
        "#version 330 core\nuniform sampler2DMS s;\nout vec4 o;\nvoid main() { o = vec4(textureSamples(s)); }\n",
        "#version 450 core\nlayout(rgba8) writeonly uniform image2DMS i;\nout vec4 o;\nvoid main() { o = vec4(imageSamples(i)); }\n",
        "#version 150\n#extension GL_ARB_shader_image_load_store : require\n#extension GL_ARB_shader_texture_image_samples : require\nwriteonly uniform uimage2DMSArray i;\nvoid main() { gl_FragColor = vec4(imageSamples(i)); }\n",
        "#version 330 core\n#extension GL_ARB_shader_image_load_store : require\nwriteonly uniform image2DMS i;\nout vec4 o;\nvoid main() { o = vec4(imageSamples(i)); }\n",
        "#version 330 core\nout vec4 o;\nvoid main() {\n#if GL_ARB_shader_texture_image_samples == 1\n    o = vec4(1.0);\n#else\n    undefined();\n#endif\n}\n",
    ];
    let check = |gl: &mut dyn Gl| -> Vec<i32> {
        sources
            .iter()
            .map(|src| {
                let s = gl.create_shader(FRAGMENT_SHADER);
                gl.shader_source(s, src);
                gl.compile_shader(s);
                let status = gl.get_shaderi(s, COMPILE_STATUS);
                gl.delete_shader(s);
                status
            })
            .collect()
    };
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = check(&mut native);
    drop(native);
    let (t, f) = (TRUE as i32, FALSE as i32);
    assert_eq!(expected, [t, t, f, t, t, f, t]);
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        assert_eq!(check(&mut ctx), expected, "{}", backend.name());
    }
}

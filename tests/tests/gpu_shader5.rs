//! GLSL 4.00's `ARB_gpu_shader5` (GL 4.0) against the native driver on both backends (Vulkan
//! with the validation layer on, which must report nothing): the integer functions
//! (`bitfieldExtract`, `bitfieldInsert`, `bitfieldReverse`, `bitCount`, `findLSB`, `findMSB`,
//! `uaddCarry`, `usubBorrow`, `umulExtended`, `imulExtended`), `fma`, `frexp`, `ldexp` and the
//! packing functions written as exact 32-bit values into an integer colour buffer; sampler and
//! uniform block arrays indexed by a uniform; a geometry shader of several invocations;
//! `interpolateAtCentroid`, `interpolateAtSample` and `interpolateAtOffset` into a 4x
//! renderbuffer; `precise`; implicit `int` to `uint` conversions; and the limits. Values,
//! pixels and errors must be exactly the native ones.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::{link_program, link_stages};

const SIZE: i32 = 8;

/// Runs `scene` on the native driver and on both backends, over the in-process and the
/// render-thread transports; each result must be the native one, with no backend event.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn Gl) -> T) -> T {
    compare_on(&Backend::ALL, scene)
}

/// [`compare`] on some backends only.
fn compare_on<T: PartialEq + std::fmt::Debug>(
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
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
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

fn float(gl: &mut dyn Gl, pname: GLenum) -> f32 {
    let mut v = [-99.0];
    gl.get_floatv(pname, &mut v);
    v[0]
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

/// The limits, answered where the backend has all of `ARB_gpu_shader5` (Caps::gpu_shader5
/// and four vertex streams): both backends (on Vulkan, lavapipe lacks
/// `shaderSampledImageArrayDynamicIndexing`, so the link indexes sampler arrays by
/// constants; on GLES, streams other than 0 are passes of their own).
#[test]
fn gpu_shader5_limits_match_the_native_driver() {
    let limits = compare_on(&Backend::ALL, |gl| {
        (
            integer(gl, MAX_GEOMETRY_SHADER_INVOCATIONS),
            float(gl, MIN_FRAGMENT_INTERPOLATION_OFFSET),
            float(gl, MAX_FRAGMENT_INTERPOLATION_OFFSET),
            integer(gl, FRAGMENT_INTERPOLATION_OFFSET_BITS),
            gl.get_error(),
        )
    });
    assert_eq!(limits, (32, -0.5, 0.5, 4, NO_ERROR));
}

/// `GL_ARB_gpu_shader5` is advertised on the Vulkan backend and on a GLES 3.2 one (whose
/// shaders have all of it but vertex streams, which are passes of their own there), with
/// four vertex streams; not on ES 3.0 (no geometry shaders), which neither advertises it
/// nor answers its limits.
#[test]
fn gpu_shader5_is_advertised_where_the_backend_has_it() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        assert!(
            names.iter().any(|e| e == "GL_ARB_gpu_shader5"),
            "{}",
            backend.name()
        );
        assert_eq!(integer(&mut ctx, MAX_VERTEX_STREAMS), 4);
    }
    let mut ctx = tessera_es30(SIZE, SIZE);
    assert!(
        !advertised(&mut ctx)
            .iter()
            .any(|e| e == "GL_ARB_gpu_shader5")
    );
    assert_eq!(integer(&mut ctx, MAX_GEOMETRY_SHADER_INVOCATIONS), -99);
    assert_eq!(ctx.get_error(), INVALID_ENUM);
}

const VS: &str = "#version 400 core
layout(location = 0) in vec2 pos;
out vec2 v;
void main() { v = pos * vec2(0.77, -1.31) + vec2(0.013, 0.029); gl_Position = vec4(pos, 0.0, 1.0); }
";

/// A quad covering the viewport (a triangle strip).
fn quad(gl: &mut dyn Gl) {
    tessera_tests::scenes::viewport_quad(gl);
}

/// What every integer-function shader starts with: per-fragment operands `a` and `b`
/// (unsigned, and as signed `ia`, `ib`) and floats `x`, `y`, `z`.
const OPERANDS: &str = "#version 400 core
uniform uint k;
in vec2 v;
layout(location = 0) out uvec4 o;
void main() {
    uvec2 p = uvec2(gl_FragCoord.xy);
    uint a = (p.x * 2654435761u) ^ (p.y * 40503u) ^ k;
    uint b = a * 16777619u + 2166136261u;
    int ia = int(a), ib = int(b);
    float x = float(p.x) * 0.37 + 0.1, y = float(p.y) * -1.3 - 0.7, z = v.x * 1000.0;
";

/// The bodies of the integer frames: each sets `o`.
const INTEGER_FRAMES: &[(&str, &str)] = &[
    (
        "bitfields",
        "o = uvec4(bitfieldExtract(a, 3, 7), uint(bitfieldExtract(ia, 5, 20)),
            bitfieldInsert(a, b, 8, 12), bitfieldReverse(a));",
    ),
    (
        "bits",
        "o = uvec4(bitCount(a) + 100u * uint(bitCount(ib)), uint(findLSB(a)) ^ (uint(findLSB(0u)) << 8),
            uint(findMSB(ia)) ^ (uint(findMSB(-1)) << 8), uint(findMSB(a) + 64 * findMSB(0)));",
    ),
    (
        "carry",
        "uint c, d; uint s = uaddCarry(a, b, c); uint t = usubBorrow(a, b, d); o = uvec4(s, c, t, d);",
    ),
    (
        "multiply",
        "uint hi, lo; int ihi, ilo; umulExtended(a, b, hi, lo); imulExtended(ia, ib, ihi, ilo);
        o = uvec4(hi, lo, uint(ihi), uint(ilo));",
    ),
    (
        "floats",
        "int e; float m = frexp(y * 13.7, e);
        o = uvec4(floatBitsToUint(fma(x, y, z)), floatBitsToUint(m), uint(e),
            floatBitsToUint(ldexp(x, int(p.y) - 3)));",
    ),
    (
        "packing",
        "vec4 c = vec4(x * 0.3, y * 0.1, v * 0.9);
        o = uvec4(packUnorm4x8(c), packSnorm4x8(c), packUnorm2x16(c.xw), packUnorm2x16(c.yz));",
    ),
    (
        "unpacking",
        "o = uvec4(floatBitsToUint(unpackUnorm4x8(a).yw), floatBitsToUint(unpackSnorm4x8(b).xz));",
    ),
    (
        "precise and conversions",
        "precise float q = x * y + z;
        uint u = ia;
        uint w = 7;
        o = uvec4(floatBitsToUint(q), u + 1, a + ib, w * 3u);",
    ),
];

/// Draws each integer frame into an RGBA32UI renderbuffer; returns the values read back and
/// the error at the end.
fn integer_functions(gl: &mut dyn Gl) -> (Vec<(&'static str, Vec<u8>)>, GLenum) {
    quad(gl);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA32UI, SIZE, SIZE);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    gl.viewport(0, 0, SIZE, SIZE);
    let mut frames = Vec::new();
    for &(name, body) in INTEGER_FRAMES {
        let fs = format!("{OPERANDS}    {body}\n}}\n");
        let p = link_program(gl, VS, &fs);
        gl.use_program(p);
        let k = gl.get_uniform_location(p, "k");
        gl.uniform1uiv(k, &[0x9e37_79b9]);
        gl.clear_bufferuiv(COLOR, 0, &[1, 2, 3, 4]);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        let mut px = vec![0; (SIZE * SIZE * 16) as usize];
        gl.read_pixels(0, 0, SIZE, SIZE, RGBA_INTEGER, UNSIGNED_INT, &mut px);
        frames.push((name, px));
    }
    (frames, gl.get_error())
}

#[test]
fn integer_and_float_functions_match_the_native_driver() {
    let (frames, error) = compare(integer_functions);
    assert_eq!(error, NO_ERROR);
    for (name, px) in &frames {
        assert!(
            px.chunks(16)
                .any(|p| p != [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]),
            "{name}: nothing drawn"
        );
    }
}

/// Draws with a sampler array and a uniform block array, each indexed by a uniform, for each
/// index; returns the frames and the error at the end.
fn dynamic_indexing(gl: &mut dyn Gl) -> (Vec<Vec<u8>>, GLenum) {
    quad(gl);
    let fs = "#version 400 core
uniform sampler2D s[4];
uniform int i;
uniform B { vec4 c; } b[3];
out vec4 color;
void main() { color = texture(s[i], vec2(0.5)) * 0.5 + b[i % 3].c * 0.5; }
";
    let p = link_program(gl, VS, fs);
    gl.use_program(p);
    let s = gl.get_uniform_location(p, "s");
    gl.uniform1iv(s, &[3, 1, 0, 2]);
    for unit in 0..4u8 {
        gl.active_texture(TEXTURE0 + u32::from(unit));
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, t);
        let texel = [60 * unit, 255 - 50 * unit, 30 + 40 * unit, 255];
        gl.tex_image_2d(
            TEXTURE_2D,
            0,
            RGBA8 as i32,
            1,
            1,
            0,
            RGBA,
            UNSIGNED_BYTE,
            Some(&texel),
        );
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
    }
    gl.active_texture(TEXTURE0);
    for block in 0..3u32 {
        let name = format!("B[{block}]");
        let index = gl.get_uniform_block_index(p, &name);
        gl.uniform_block_binding(p, index, block);
        let buf = gl.gen_buffer();
        gl.bind_buffer(UNIFORM_BUFFER, buf);
        let c: Vec<u8> = [0.2 * block as f32, 1.0 - 0.3 * block as f32, 0.6, 1.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        gl.buffer_data(UNIFORM_BUFFER, c.len(), Some(&c), STATIC_DRAW);
        gl.bind_buffer_base(UNIFORM_BUFFER, block, buf);
    }
    let i = gl.get_uniform_location(p, "i");
    let mut frames = Vec::new();
    gl.viewport(0, 0, SIZE, SIZE);
    for index in 0..4 {
        gl.uniform1i(i, index);
        gl.clear(COLOR_BUFFER_BIT);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        let mut px = vec![0; (SIZE * SIZE * 4) as usize];
        gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
        frames.push(px);
    }
    (frames, gl.get_error())
}

#[test]
fn sampler_and_block_arrays_indexed_by_uniforms_match_the_native_driver() {
    let (frames, error) = compare(dynamic_indexing);
    assert_eq!(error, NO_ERROR);
    assert_ne!(frames[0], frames[1]);
}

/// A geometry shader of four invocations, each drawing the triangle into its own quadrant in
/// its own colour; returns the frame, the program's `GEOMETRY_SHADER_INVOCATIONS` and the
/// error.
fn geometry_invocations(gl: &mut dyn Gl) -> (Vec<u8>, GLint, GLenum) {
    quad(gl);
    let gs = "#version 400 core
layout(triangles, invocations = 4) in;
layout(triangle_strip, max_vertices = 3) out;
out vec4 c;
void main() {
    vec2 shift = vec2(gl_InvocationID % 2, gl_InvocationID / 2) - 0.5;
    for (int n = 0; n < 3; n++) {
        c = vec4(float(gl_InvocationID) / 3.0, float(gl_PrimitiveIDIn), 0.5, 1.0);
        gl_Position = vec4(gl_in[n].gl_Position.xy * 0.5 + shift, 0.0, 1.0);
        EmitVertex();
    }
}
";
    let fs = "#version 400 core
in vec4 c;
out vec4 color;
void main() { color = c; }
";
    let p = link_stages(
        gl,
        &[
            (VERTEX_SHADER, VS),
            (GEOMETRY_SHADER, gs),
            (FRAGMENT_SHADER, fs),
        ],
    );
    gl.use_program(p);
    let invocations = gl.get_programi(p, GEOMETRY_SHADER_INVOCATIONS);
    gl.viewport(0, 0, SIZE, SIZE);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut px = vec![0; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
    (px, invocations, gl.get_error())
}

/// The frames on both backends; `GEOMETRY_SHADER_INVOCATIONS` where the extension is
/// advertised, on Vulkan (a GLES backend raises `INVALID_ENUM` for it: see
/// [`gpu_shader5_is_advertised_where_the_backend_has_it`]).
#[test]
fn geometry_shader_invocations_match_the_native_driver() {
    let (_, invocations, error) = compare_on(&[Backend::Vulkan], geometry_invocations);
    assert_eq!((invocations, error), (4, NO_ERROR));
    compare_on(&[Backend::Gles], |gl| geometry_invocations(gl).0);
}

/// Interpolation at the centroid, at samples and at offsets into a 4x renderbuffer, resolved
/// with `glBlitFramebuffer`; returns the frames and the error.
fn interpolation(gl: &mut dyn Gl) -> (Vec<Vec<u8>>, GLenum) {
    let bodies = [
        "color = vec4(fract(interpolateAtCentroid(v) * 3.0), fract(v * 5.0));",
        "color = vec4(fract(interpolateAtSample(v, 3) * 7.0), fract(interpolateAtSample(v, gl_SampleID) * 2.0));",
        "color = vec4(fract(interpolateAtOffset(v, vec2(0.25, -0.375)) * 9.0),
            fract(interpolateAtOffset(v, vec2(-0.5, 0.4375)) * 4.0));",
    ];
    interpolation_of(gl, VS, "in vec2 v;", &bodies)
}

/// A vertex stage whose output is a member of a block (and of a structure in it).
const BLOCK_VS: &str = "#version 400 core
layout(location = 0) in vec2 pos;
struct S { float pad; vec2 w; };
out Block { vec2 v; S s; } b;
void main() {
    b.v = pos * vec2(0.77, -1.31) + vec2(0.013, 0.029);
    b.s = S(0.5, pos * vec2(-0.43, 0.91) + vec2(0.031, 0.007));
    gl_Position = vec4(pos, 0.0, 1.0);
}
";

/// The interpolation functions of members of an input block and of a structure in it,
/// which GLSL ES refuses as interpolants: the GLES backend flattens the blocks of such a
/// program into plain variables (`interpolates_members`).
fn member_interpolation(gl: &mut dyn Gl) -> (Vec<Vec<u8>>, GLenum) {
    let bodies = [
        "color = vec4(fract(interpolateAtSample(b.v, 3) * 7.0), fract(interpolateAtSample(b.s.w, gl_SampleID) * 2.0));",
        "color = vec4(fract(interpolateAtOffset(b.v, vec2(0.25, -0.375)) * 9.0),
            fract(interpolateAtOffset(b.s.w, vec2(-0.5, 0.4375)) * 4.0));",
    ];
    interpolation_of(gl, BLOCK_VS, "in Block { vec2 v; S s; } b;", &bodies)
}

/// Each fragment stage of `bodies` (reading `inputs`) after `vs`, drawn into a 4x
/// multisampled renderbuffer and resolved: the frames.
fn interpolation_of(
    gl: &mut dyn Gl,
    vs: &str,
    inputs: &str,
    bodies: &[&str],
) -> (Vec<Vec<u8>>, GLenum) {
    quad(gl);
    let mut fbos = [0; 2];
    for (n, samples) in [(0, 4), (1, 0)] {
        fbos[n] = gl.gen_framebuffer();
        gl.bind_framebuffer(FRAMEBUFFER, fbos[n]);
        let rb = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, rb);
        gl.renderbuffer_storage_multisample(RENDERBUFFER, samples, RGBA8, SIZE, SIZE);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    }
    gl.viewport(0, 0, SIZE, SIZE);
    let mut frames = Vec::new();
    for body in bodies {
        let fs = format!(
            "#version 400 core\nstruct S {{ float pad; vec2 w; }};\n{inputs}\nout vec4 color;\nvoid main() {{ {body} }}\n"
        );
        let p = link_program(gl, vs, &fs);
        gl.use_program(p);
        gl.bind_framebuffer(FRAMEBUFFER, fbos[0]);
        gl.clear_color(0.0, 0.0, 0.0, 0.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        gl.bind_framebuffer(READ_FRAMEBUFFER, fbos[0]);
        gl.bind_framebuffer(DRAW_FRAMEBUFFER, fbos[1]);
        gl.blit_framebuffer(
            0,
            0,
            SIZE,
            SIZE,
            0,
            0,
            SIZE,
            SIZE,
            COLOR_BUFFER_BIT,
            NEAREST,
        );
        gl.bind_framebuffer(READ_FRAMEBUFFER, fbos[1]);
        let mut px = vec![0; (SIZE * SIZE * 4) as usize];
        gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
        frames.push(px);
    }
    (frames, gl.get_error())
}

/// GLES only: on Vulkan (lavapipe) some pixels of the resolved frames differ from native's
/// (README).
#[test]
fn interpolation_functions_match_the_native_driver() {
    let (_, error) = compare_on(&[Backend::Gles], interpolation);
    assert_eq!(error, NO_ERROR);
}

/// Members of blocks and structures interpolated at samples and offsets (on GLES, from
/// flattened blocks), as natively.
#[test]
fn interpolation_of_block_members_matches_the_native_driver() {
    let (frames, error) = compare_on(&[Backend::Gles], member_interpolation);
    assert_eq!(error, NO_ERROR);
    assert!(frames.iter().all(|f| f.iter().any(|&b| b != 0)));
}

/// `interpolateAtCentroid`, with the input read plainly too (at the pixel centre).
const AT_CENTROID: &str = "color = vec4(fract(interpolateAtCentroid(v) * 3.0), fract(v * 5.0));";
/// `interpolateAtSample` at a constant sample and at the sample being shaded.
const AT_SAMPLE: &str = "color = vec4(fract(interpolateAtSample(v, 3) * 7.0), fract(interpolateAtSample(v, gl_SampleID) * 2.0));";
/// `interpolateAtOffset` at two offsets.
const AT_OFFSET: &str = "color = vec4(fract(interpolateAtOffset(v, vec2(0.25, -0.375)) * 9.0),
    fract(interpolateAtOffset(v, vec2(-0.5, 0.4375)) * 4.0));";

/// Fragment shaders of `bodies` into a 4x multisample texture, each sample then fetched
/// (`texelFetch` of a `sampler2DMS`) into a pixel of its own of a single-sample target four
/// times as wide: the values at each sample, with no resolve between; returns the frames and
/// the error.
fn interpolation_per_sample(gl: &mut dyn Gl, bodies: &[&str]) -> (Vec<Vec<u8>>, GLenum) {
    quad(gl);
    let ms = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D_MULTISAMPLE, ms);
    gl.tex_image_2d_multisample(TEXTURE_2D_MULTISAMPLE, 4, RGBA8 as i32, SIZE, SIZE, 1);
    let drawn = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, drawn);
    gl.framebuffer_texture_2d(
        FRAMEBUFFER,
        COLOR_ATTACHMENT0,
        TEXTURE_2D_MULTISAMPLE,
        ms,
        0,
    );
    let samples = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, samples);
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage_multisample(RENDERBUFFER, 0, RGBA8, 4 * SIZE, SIZE);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    let fetch = link_program(
        gl,
        VS,
        "#version 400 core
uniform sampler2DMS t;
out vec4 color;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    color = texelFetch(t, ivec2(p.x / 4, p.y), p.x % 4);
}
",
    );
    let mut frames = Vec::new();
    for body in bodies {
        let fs =
            format!("#version 400 core\nin vec2 v;\nout vec4 color;\nvoid main() {{ {body} }}\n");
        let p = link_program(gl, VS, &fs);
        gl.use_program(p);
        gl.bind_framebuffer(FRAMEBUFFER, drawn);
        gl.viewport(0, 0, SIZE, SIZE);
        gl.clear_color(0.0, 0.0, 0.0, 0.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        gl.use_program(fetch);
        gl.bind_framebuffer(FRAMEBUFFER, samples);
        gl.viewport(0, 0, 4 * SIZE, SIZE);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        let mut px = vec![0; (4 * SIZE * SIZE * 4) as usize];
        gl.read_pixels(0, 0, 4 * SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
        frames.push(px);
    }
    (frames, gl.get_error())
}

/// Each sample's value of `interpolateAtSample` and `interpolateAtOffset` is native's on both
/// backends.
#[test]
fn interpolation_at_samples_and_offsets_matches_the_native_driver() {
    let (frames, error) = compare(|gl| interpolation_per_sample(gl, &[AT_SAMPLE, AT_OFFSET]));
    assert_eq!(error, NO_ERROR);
    // interpolateAtSample(v, gl_SampleID) differs between the samples of a pixel.
    assert_ne!(frames[0][6..8], frames[0][10..12]);
}

/// `interpolateAtCentroid` at each sample, GLES only: lavapipe interpolates the plain reads of
/// an input that `interpolateAtCentroid` also reads at the centroid too, so where the two
/// triangles of the quad split a pixel its samples differ from native's (README).
#[test]
fn interpolation_at_the_centroid_matches_the_native_driver() {
    let (frames, error) = compare_on(&[Backend::Gles], |gl| {
        interpolation_per_sample(gl, &[AT_CENTROID])
    });
    assert_eq!(error, NO_ERROR);
    assert_ne!(frames[0][0..4], frames[0][4 * 4 * 7..4 * 4 * 7 + 4]);
}

//! Sample shading (`ARB_sample_shading`, GL 4.0) against the native driver on both backends
//! (Vulkan with the validation layer on, which must report nothing): `glMinSampleShading`
//! clamped to [0, 1], the `SAMPLE_SHADING` capability and their queries, and frames of a 4x
//! multisample renderbuffer shaded per sample (forced by `gl_SampleID` or
//! `gl_SamplePosition`, or by `glMinSampleShading(1.0)` as `gl_SampleMaskIn` shows), each
//! sample picked out by the sample mask and resolved with `glBlitFramebuffer`; and
//! `gl_NumSamples` read from the fragment and the vertex stage as draws go to framebuffers
//! of 4, 1 and 0 samples and to the default one (the front end makes it a hidden uniform the
//! engine fills, which must follow the draw framebuffer with nothing else changed), and
//! `gl_SampleMask` written into a single-sampled framebuffer, which GL ignores. Pixels,
//! values and errors must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's glIsEnabled, called through its C signature"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// `glIsEnabled`, which the shared [`Gl`] table has no entry for.
trait ShadingGl: Gl {
    /// `glIsEnabled`.
    fn is_enabled_cap(&mut self, cap: GLenum) -> bool;
}

impl ShadingGl for Context {
    fn is_enabled_cap(&mut self, cap: GLenum) -> bool {
        self.is_enabled(cap) != 0
    }
}

impl ShadingGl for NativeGl {
    fn is_enabled_cap(&mut self, cap: GLenum) -> bool {
        type F = unsafe extern "system" fn(GLenum) -> GLboolean;
        let f: F = self
            .entry_point("glIsEnabled")
            .unwrap_or_else(|e| panic!("glIsEnabled: {e}"));
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(cap) != 0 }
    }
}

const SIZE: i32 = 8;

/// One line of the transcript: the call, what the queries answer, the error after them.
type Line = (&'static str, f32, GLint, bool, GLint, GLenum);

fn line(gl: &mut dyn ShadingGl, call: &'static str) -> Line {
    let mut f = [-7.0];
    gl.get_floatv(MIN_SAMPLE_SHADING_VALUE, &mut f);
    let mut i = [-7];
    gl.get_integerv(MIN_SAMPLE_SHADING_VALUE, &mut i);
    let on = gl.is_enabled_cap(SAMPLE_SHADING);
    let mut b = [-7];
    gl.get_integerv(SAMPLE_SHADING, &mut b);
    (call, f[0], i[0], on, b[0], gl.get_error())
}

/// The state after each call, from the defaults on.
fn transcript(gl: &mut dyn ShadingGl) -> Vec<Line> {
    let mut out = vec![line(gl, "defaults")];
    let mut step = |gl: &mut dyn ShadingGl, call: &'static str, f: &dyn Fn(&mut dyn ShadingGl)| {
        f(gl);
        let e = gl.get_error();
        let mut l = line(gl, call);
        if l.5 == NO_ERROR {
            l.5 = e;
        }
        out.push(l);
    };
    step(gl, "min 0.25", &|gl| gl.min_sample_shading(0.25));
    step(gl, "enable", &|gl| gl.enable(SAMPLE_SHADING));
    step(gl, "min 2.0", &|gl| gl.min_sample_shading(2.0));
    step(gl, "min 0.6", &|gl| gl.min_sample_shading(0.6));
    step(gl, "min -1.0", &|gl| gl.min_sample_shading(-1.0));
    step(gl, "disable", &|gl| gl.disable(SAMPLE_SHADING));
    step(gl, "min 1.0", &|gl| gl.min_sample_shading(1.0));
    step(gl, "enable", &|gl| gl.enable(SAMPLE_SHADING));
    out
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match; returns
/// the native result.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn ShadingGl) -> T) -> T {
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
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    expected
}

#[test]
fn sample_shading_state_matches_the_native_driver() {
    let expected = compare(transcript);
    assert_eq!(expected[0], ("defaults", 0.0, 0, false, 0, NO_ERROR));
    assert_eq!(expected[3].1, 1.0, "clamped to 1");
    assert_eq!(expected[5].1, 0.0, "clamped to 0");
}

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

/// Each sample's index, as red rising and green falling.
const FS_ID: &str = "#version 400
out vec4 color;
void main() { color = vec4(float(gl_SampleID) / 3.0, 1.0 - float(gl_SampleID) / 3.0, 0.0, 1.0); }
";

/// Each sample's position in the pixel, through the extension in GLSL 3.30.
const FS_POSITION: &str = "#version 330
#extension GL_ARB_sample_shading : require
out vec4 color;
void main() { color = vec4(gl_SamplePosition, 0.0, 1.0); }
";

/// How many samples the invocation shades: 4 per pixel, 1 per sample.
const FS_MASK_IN: &str = "#version 400
out vec4 color;
void main() { color = vec4(float(bitCount(gl_SampleMaskIn[0])) / 4.0, 0.0, 0.0, 1.0); }
";

/// White, shaded per pixel unless told otherwise.
const FS_WHITE: &str = "#version 330
out vec4 color;
void main() { color = vec4(1.0); }
";

fn shader(gl: &mut dyn ShadingGl, kind: GLenum, src: &str) -> GLuint {
    let s = gl.create_shader(kind);
    gl.shader_source(s, src);
    gl.compile_shader(s);
    assert_eq!(
        gl.get_shaderi(s, COMPILE_STATUS),
        TRUE as i32,
        "{}",
        gl.shader_info_log(s)
    );
    s
}

/// Draws with `fs` into a 4x RGBA8 renderbuffer cleared to transparent black: `SIZE / 4`
/// rows for each sample `k`, written alone (sample mask `1 << k`) when `masks` says so,
/// with `setup(gl, k)` called first; then resolves it with `glBlitFramebuffer` and returns
/// the pixels.
fn frame(
    gl: &mut dyn ShadingGl,
    fs: &str,
    masks: bool,
    setup: &dyn Fn(&mut dyn ShadingGl, i32),
) -> Vec<u8> {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, fs)] {
        let s = shader(gl, kind, src);
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
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let quad: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    gl.buffer_data(ARRAY_BUFFER, quad.len(), Some(&quad), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let mut fbos = [0; 2];
    for (i, samples) in [(0, 4), (1, 0)] {
        fbos[i] = gl.gen_framebuffer();
        gl.bind_framebuffer(FRAMEBUFFER, fbos[i]);
        let rb = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, rb);
        gl.renderbuffer_storage_multisample(RENDERBUFFER, samples, RGBA8, SIZE, SIZE);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    }
    gl.bind_framebuffer(FRAMEBUFFER, fbos[0]);
    gl.viewport(0, 0, SIZE, SIZE);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.enable(SCISSOR_TEST);
    if masks {
        gl.enable(SAMPLE_MASK);
    }
    let rows = SIZE / 4;
    for k in 0..4 {
        gl.scissor(0, k * rows, SIZE, rows);
        gl.sample_maski(0, 1 << k);
        setup(gl, k);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    }
    gl.disable(SCISSOR_TEST);
    gl.disable(SAMPLE_MASK);
    gl.disable(SAMPLE_SHADING);
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
    let mut out = vec![0u8; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut out);
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

/// The first pixel of each sample's rows.
fn rows(p: &[u8]) -> Vec<[u8; 4]> {
    (0..4)
        .map(|k| {
            let i = (k * SIZE / 4 * SIZE * 4) as usize;
            [p[i], p[i + 1], p[i + 2], p[i + 3]]
        })
        .collect()
}

#[test]
fn gl_sample_id_shades_each_sample_as_the_native_driver_does() {
    let p = compare(|gl| frame(gl, FS_ID, true, &|_, _| {}));
    let r = rows(&p);
    // One sample of four written in each row: its index shows in red and green.
    assert!(r.windows(2).all(|w| w[0][0] < w[1][0]), "{r:?}");
    assert!(r.iter().all(|c| c[3] == 64), "{r:?}");
}

#[test]
fn gl_sample_position_shades_each_sample_as_the_native_driver_does() {
    let p = compare(|gl| frame(gl, FS_POSITION, true, &|_, _| {}));
    let r = rows(&p);
    // Four distinct positions.
    for i in 0..4 {
        for j in 0..i {
            assert_ne!(r[i], r[j], "{r:?}");
        }
    }
}

#[test]
fn min_sample_shading_shades_each_sample_as_the_native_driver_does() {
    // Rows 0 and 1 per pixel (the first with SAMPLE_SHADING on but a minimum of 0), rows 2
    // and 3 per sample (the last after a minimum above 1 was clamped).
    let p = compare(|gl| {
        frame(gl, FS_MASK_IN, false, &|gl, k| {
            let (on, min) = [(false, 1.0), (true, 0.0), (true, 1.0), (true, 5.0)][k as usize];
            if on {
                gl.enable(SAMPLE_SHADING);
            } else {
                gl.disable(SAMPLE_SHADING);
            }
            gl.min_sample_shading(min);
        })
    });
    let r = rows(&p);
    assert_eq!(r[0], [255, 0, 0, 255], "{r:?}");
    assert_eq!(r[3], [64, 0, 0, 255], "{r:?}");
}

/// `gl_NumSamples / 16` in red, `k` in green, from the fragment stage (GLSL 4.00).
const FS_NUM_SAMPLES: &str = "#version 400
uniform float k;
out vec4 color;
void main() { color = vec4(float(gl_NumSamples) / 16.0, k, 0.0, 1.0); }
";

/// The same through the extension in GLSL 3.30, `gl_NumSamples` read by the vertex stage.
const VS_NUM_SAMPLES: &str = "#version 330
#extension GL_ARB_sample_shading : require
layout(location = 0) in vec2 position;
out float n;
void main() { n = float(gl_NumSamples) / 16.0; gl_Position = vec4(position, 0.0, 1.0); }
";
const FS_VARYING: &str = "#version 330
in float n;
out vec4 color;
void main() { color = vec4(n, 0.5, 0.0, 1.0); }
";

/// An active uniform: name, size, type, block index, offset, array stride and name length,
/// and the location `glGetUniformLocation` gives its name.
type ActiveUniform = (String, GLint, GLenum, [GLint; 4], GLint);

/// What programs reading `gl_NumSamples` report and draw: the compile statuses of shaders
/// that name it (GLSL 3.30 without the extension, 4.00's vertex stage), the two programs'
/// active uniforms (Mesa lists `gl_NumSamples` among them), then the pixel each draw leaves, a draw per framebuffer (4x, 1x, 0x
/// renderbuffers resolved with `glBlitFramebuffer`, and the default framebuffer), with only
/// the binding changed between draws, then `k` changed, then the other program.
fn num_samples_scene(gl: &mut dyn ShadingGl) -> (Vec<GLint>, Vec<ActiveUniform>, Vec<[u8; 4]>) {
    let mut info = Vec::new();
    let mut uniforms = Vec::new();
    for (kind, src) in [
        (
            FRAGMENT_SHADER,
            "#version 330\nout vec4 c;\nvoid main() { c = vec4(gl_NumSamples); }\n",
        ),
        (
            VERTEX_SHADER,
            "#version 400\nvoid main() { gl_Position = vec4(gl_NumSamples); }\n",
        ),
    ] {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        info.push(gl.get_shaderi(s, COMPILE_STATUS));
    }
    let mut programs = [0; 2];
    for (i, (vs, fs)) in [(VS, FS_NUM_SAMPLES), (VS_NUM_SAMPLES, FS_VARYING)]
        .into_iter()
        .enumerate()
    {
        let p = gl.create_program();
        for (kind, src) in [(VERTEX_SHADER, vs), (FRAGMENT_SHADER, fs)] {
            let s = shader(gl, kind, src);
            gl.attach_shader(p, s);
        }
        gl.link_program(p);
        info.push(gl.get_programi(p, LINK_STATUS));
        let n = gl.get_programi(p, ACTIVE_UNIFORMS);
        info.push(n);
        for u in 0..n as GLuint {
            let (name, size, ty) = gl.get_active_uniform(p, u);
            let mut q = [0; 4];
            let pnames = [
                UNIFORM_BLOCK_INDEX,
                UNIFORM_OFFSET,
                UNIFORM_ARRAY_STRIDE,
                UNIFORM_NAME_LENGTH,
            ];
            for (pname, out) in pnames.into_iter().zip(&mut q) {
                let mut v = [-7];
                gl.get_active_uniformsiv(p, &[u], pname, &mut v);
                *out = v[0];
            }
            let location = gl.get_uniform_location(p, &name);
            uniforms.push((name, size, ty, q, location));
        }
        programs[i] = p;
    }
    gl.use_program(programs[0]);
    let k = gl.get_uniform_location(programs[0], "k");
    gl.uniform1f(k, 0.25);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let quad: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    gl.buffer_data(ARRAY_BUFFER, quad.len(), Some(&quad), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    // Framebuffers of 4, 1 and 0 samples, and the single-sampled one they resolve into.
    let mut fbos = [0; 4];
    for (i, samples) in [4, 1, 0, 0].into_iter().enumerate() {
        fbos[i] = gl.gen_framebuffer();
        gl.bind_framebuffer(FRAMEBUFFER, fbos[i]);
        let rb = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, rb);
        gl.renderbuffer_storage_multisample(RENDERBUFFER, samples, RGBA8, SIZE, SIZE);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
        let mut n = [-1];
        gl.get_integerv(SAMPLES, &mut n);
        info.push(n[0]);
    }
    gl.viewport(0, 0, SIZE, SIZE);
    let mut pixels = Vec::new();
    let mut draw = |gl: &mut dyn ShadingGl, fbo: Option<GLuint>| {
        gl.bind_framebuffer(FRAMEBUFFER, fbo.unwrap_or(0));
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        if let Some(fbo) = fbo {
            gl.bind_framebuffer(READ_FRAMEBUFFER, fbo);
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, fbos[3]);
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
            gl.bind_framebuffer(READ_FRAMEBUFFER, fbos[3]);
        } else {
            gl.bind_framebuffer(READ_FRAMEBUFFER, 0);
        }
        let mut out = [0u8; 4];
        gl.read_pixels(SIZE / 2, SIZE / 2, 1, 1, RGBA, UNSIGNED_BYTE, &mut out);
        pixels.push(out);
    };
    for fbo in [
        Some(fbos[0]),
        Some(fbos[1]),
        Some(fbos[2]),
        None,
        Some(fbos[0]),
    ] {
        draw(gl, fbo);
    }
    gl.uniform1f(k, 0.75);
    draw(gl, Some(fbos[0]));
    gl.use_program(programs[1]);
    for fbo in [Some(fbos[0]), Some(fbos[2]), None, Some(fbos[0])] {
        draw(gl, fbo);
    }
    info.push(gl.get_error() as GLint);
    (info, uniforms, pixels)
}

#[test]
fn gl_num_samples_follows_the_draw_framebuffer_as_on_the_native_driver() {
    let (info, uniforms, pixels) = compare(num_samples_scene);
    // 3.30 without the extension does not declare it; 4.00's vertex stage has it (a
    // built-in uniform of every stage); each program lists it, with no location.
    assert_eq!(&info[..6], &[0, 1, 1, 2, 1, 1], "{info:?}");
    assert_eq!(info[6], 4, "{info:?}");
    let num_samples = ("gl_NumSamples".to_string(), 1, INT, [-1, -1, -1, 14], -1);
    assert_eq!(uniforms[0], num_samples);
    assert_eq!(uniforms[2], num_samples);
    // 4 samples, then 1.
    assert_eq!(pixels[0][0], 64, "{pixels:?}");
    assert_eq!(pixels[2][0], 16, "{pixels:?}");
    assert_eq!(pixels[5][1], 191, "{pixels:?}");
}

/// `gl_SampleMask` from the fragment's column: even columns write no sample.
const FS_SAMPLE_MASK: &str = "#version 130
#extension GL_ARB_sample_shading : enable
out vec4 color;
void main()
{
  gl_SampleMask[0] = int(gl_FragCoord.x);
  color = vec4(1.0, 0.5, 0.0, 1.0);
}
";

/// One row of pixels drawn with [`FS_SAMPLE_MASK`] into a single-sampled renderbuffer (where
/// GL ignores `gl_SampleMask`), then into a 4x one resolved with `glBlitFramebuffer` (where
/// it keeps the odd columns' samples).
fn sample_mask_scene(gl: &mut dyn ShadingGl) -> Vec<Vec<u8>> {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS_SAMPLE_MASK)] {
        let s = shader(gl, kind, src);
        gl.attach_shader(p, s);
    }
    gl.link_program(p);
    assert_eq!(gl.get_programi(p, LINK_STATUS), TRUE as i32);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let quad: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    gl.buffer_data(ARRAY_BUFFER, quad.len(), Some(&quad), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let mut fbos = [0; 3];
    for (i, samples) in [0, 4, 0].into_iter().enumerate() {
        fbos[i] = gl.gen_framebuffer();
        gl.bind_framebuffer(FRAMEBUFFER, fbos[i]);
        let rb = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, rb);
        gl.renderbuffer_storage_multisample(RENDERBUFFER, samples, RGBA8, SIZE, SIZE);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    }
    gl.viewport(0, 0, SIZE, SIZE);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    let mut rows = Vec::new();
    for fbo in [fbos[0], fbos[1]] {
        gl.bind_framebuffer(FRAMEBUFFER, fbo);
        gl.clear(COLOR_BUFFER_BIT);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        gl.bind_framebuffer(READ_FRAMEBUFFER, fbo);
        gl.bind_framebuffer(DRAW_FRAMEBUFFER, fbos[2]);
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
        gl.bind_framebuffer(READ_FRAMEBUFFER, fbos[2]);
        let mut out = vec![0u8; (SIZE * 4) as usize];
        gl.read_pixels(0, 0, SIZE, 1, RGBA, UNSIGNED_BYTE, &mut out);
        rows.push(out);
    }
    assert_eq!(gl.get_error(), NO_ERROR);
    rows
}

#[test]
fn gl_sample_mask_is_ignored_without_multisampling_as_on_the_native_driver() {
    let rows = compare(sample_mask_scene);
    // Every pixel written at one sample; the 4x frame keeps the odd columns' samples only.
    assert!(
        rows[0].chunks(4).all(|p| p == [255, 128, 0, 255]),
        "{rows:?}"
    );
    assert_eq!(&rows[1][..4], &[0, 0, 0, 0], "{rows:?}");
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

/// Both backends advertise the extension on their drivers here (lavapipe has
/// `sampleRateShading`, llvmpipe's GLES is 3.2), as native llvmpipe does.
#[test]
fn sample_shading_is_advertised_on_both_backends() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        assert!(
            names.iter().any(|e| e == "GL_ARB_sample_shading"),
            "{}",
            backend.name()
        );
    }
}

/// On a GLES driver without ES 3.2 or `OES_sample_shading` (the backend told to use ES 3.0
/// and no extension), sample shading enabled is reported as unsupported (and the caps keep
/// the extension string off, once it is advertised at all).
#[test]
fn sample_shading_is_reported_without_it_on_gles() {
    let mut ctx = tessera_es30(SIZE, SIZE);
    let names = advertised(&mut ctx);
    assert!(!names.iter().any(|e| e == "GL_ARB_sample_shading"));
    ctx.enable(SAMPLE_SHADING);
    ctx.min_sample_shading(1.0);
    frame(&mut ctx, FS_WHITE, false, &|_, _| {});
    ctx.finish();
    let events = ctx.take_events();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Unsupported { what }
            if what.starts_with("per-sample shading"))),
        "{events:?}"
    );
}

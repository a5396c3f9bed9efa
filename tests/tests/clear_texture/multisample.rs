//! Clears of multisample textures (`TEXTURE_2D_MULTISAMPLE` and
//! `TEXTURE_2D_MULTISAMPLE_ARRAY`, four samples) against the native driver on both backends:
//! unsigned normalized, float and integer colour formats and depth formats, cleared whole,
//! in a box and in one array layer, with texels converted from other client types and
//! without data. After each step the error, and every texel read back two ways — resolved
//! by a blit into a single-sampled framebuffer (colour formats), and every sample of every
//! layer fetched by a shader (`texelFetch`) into a 32-bit render target, four samples side
//! by side — must be the native ones. Then the errors of boxes a multisample image refuses.

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::NativeGl;
use tessera_tests::scenes::link_program;

use super::{ClearGl, bytes_of, compare_on};

/// The first difference between two transcripts, told briefly (they are long).
fn first_difference(got: &[Vec<Line>], expected: &[Vec<Line>]) -> Option<String> {
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        for (gl, el) in g.iter().zip(e) {
            if gl.0 != el.0 || gl.1 != el.1 {
                return Some(format!(
                    "scene {i} {}: error {:#x}, native {:#x}",
                    el.0, gl.1, el.1
                ));
            }
            if let Some(at) = gl.2.iter().zip(&el.2).position(|(a, b)| a != b) {
                let from = at - at % 16;
                let to = (from + 16).min(el.2.len());
                return Some(format!(
                    "scene {i} {}: byte {at} of {}: {:?}, native {:?}",
                    el.0,
                    el.2.len(),
                    &gl.2[from..to],
                    &el.2[from..to]
                ));
            }
        }
    }
    None
}

/// Runs `scene` natively and on `backends` (inproc and thread), which must match, as
/// [`super::compare_on`] does, a mismatch told by its first difference.
fn compare_transcripts(
    backends: &[Backend],
    scene: impl Fn(&mut dyn ClearGl) -> Vec<Vec<Line>>,
) -> Vec<Vec<Line>> {
    let mut native = NativeGl::new(8, 8).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for &backend in backends {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 8, 8);
            let got = scene(&mut ctx);
            if let Some(d) = first_difference(&got, &expected) {
                panic!("{} {}: {d}", backend.name(), transport.name());
            }
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    expected
}

const W: i32 = 8;
const H: i32 = 6;
const LAYERS: i32 = 3;
const SAMPLES: i32 = 4;

/// The numeric class of a format, which picks the sampler, the fetch target and the
/// read-back layout.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Float,
    Int,
    Uint,
    Depth,
}

/// One multisample texture of the scenes.
#[derive(Clone, Copy)]
struct Ms {
    array: bool,
    internal: GLenum,
    class: Class,
    /// Whether the read-back fetches every sample too (else it only resolves).
    fetch: bool,
}

impl Ms {
    fn target(&self) -> GLenum {
        if self.array {
            TEXTURE_2D_MULTISAMPLE_ARRAY
        } else {
            TEXTURE_2D_MULTISAMPLE
        }
    }

    fn layers(&self) -> i32 {
        if self.array { LAYERS } else { 1 }
    }

    fn create(&self, gl: &mut dyn ClearGl) -> GLuint {
        let t = gl.gen_texture();
        gl.bind_texture(self.target(), t);
        let i = self.internal as GLint;
        if self.array {
            gl.tex_image_3d_multisample(self.target(), SAMPLES, i, W, H, LAYERS, 1);
        } else {
            gl.tex_image_2d_multisample(self.target(), SAMPLES, i, W, H, 1);
        }
        t
    }
}

/// The objects the read-backs use.
struct Reader {
    vao: GLuint,
    read_fb: GLuint,
    draw_fb: GLuint,
    /// A single-sampled renderbuffer per colour format (the resolve's destination).
    resolved: GLuint,
    /// The fetch program and its 32-bit target.
    program: GLuint,
    fetched: GLuint,
}

impl Reader {
    fn new(gl: &mut dyn ClearGl, ms: Ms) -> Self {
        let vao = gl.gen_vertex_array();
        gl.bind_vertex_array(vao);
        let (read_fb, draw_fb) = (gl.gen_framebuffer(), gl.gen_framebuffer());
        let resolved = gl.gen_renderbuffer();
        if ms.class != Class::Depth {
            gl.bind_renderbuffer(RENDERBUFFER, resolved);
            gl.renderbuffer_storage(RENDERBUFFER, ms.internal, W, H);
        }
        let (prefix, out, fetched_format) = match ms.class {
            Class::Float | Class::Depth => ("", "vec4", RGBA32F),
            Class::Int => ("i", "ivec4", RGBA32I),
            Class::Uint => ("u", "uvec4", RGBA32UI),
        };
        let sampler = if ms.array {
            format!("{prefix}sampler2DMSArray")
        } else {
            format!("{prefix}sampler2DMS")
        };
        let at = if ms.array {
            "ivec3(p.x / 4, p.y, layer)"
        } else {
            "ivec2(p.x / 4, p.y)"
        };
        let vs = "#version 330 core\n\
                  void main() {\n\
                      vec2 pos = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0;\n\
                      gl_Position = vec4(pos, 0.0, 1.0);\n\
                  }\n";
        let fs = format!(
            "#version 330 core\n\
             uniform {sampler} s;\n\
             uniform int layer;\n\
             out {out} o;\n\
             void main() {{\n\
                 ivec2 p = ivec2(gl_FragCoord.xy);\n\
                 o = texelFetch(s, {at}, p.x % 4);\n\
             }}\n"
        );
        let program = if ms.fetch {
            link_program(gl, vs, &fs)
        } else {
            0
        };
        let fetched = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, fetched);
        gl.renderbuffer_storage(RENDERBUFFER, fetched_format, W * SAMPLES, H);
        Self {
            vao,
            read_fb,
            draw_fb,
            resolved,
            program,
            fetched,
        }
    }

    /// Every layer resolved (colour formats), then every sample fetched.
    fn contents(&self, gl: &mut dyn ClearGl, ms: Ms, t: GLuint) -> Vec<u8> {
        let mut out = Vec::new();
        let (format, ty, texel) = match ms.class {
            Class::Float | Class::Depth => (RGBA, FLOAT, 16),
            Class::Int => (RGBA_INTEGER, INT, 16),
            Class::Uint => (RGBA_INTEGER, UNSIGNED_INT, 16),
        };
        for layer in 0..ms.layers() {
            if ms.class == Class::Depth {
                continue;
            }
            gl.bind_framebuffer(READ_FRAMEBUFFER, self.read_fb);
            if ms.array {
                gl.framebuffer_texture_layer(READ_FRAMEBUFFER, COLOR_ATTACHMENT0, t, 0, layer);
            } else {
                gl.framebuffer_texture_2d(READ_FRAMEBUFFER, COLOR_ATTACHMENT0, ms.target(), t, 0);
            }
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, self.draw_fb);
            gl.framebuffer_renderbuffer(
                DRAW_FRAMEBUFFER,
                COLOR_ATTACHMENT0,
                RENDERBUFFER,
                self.resolved,
            );
            gl.blit_framebuffer(0, 0, W, H, 0, 0, W, H, COLOR_BUFFER_BIT, NEAREST);
            gl.bind_framebuffer(READ_FRAMEBUFFER, self.draw_fb);
            let mut bytes = vec![0xa5u8; (W * H) as usize * texel];
            gl.read_pixels(0, 0, W, H, format, ty, &mut bytes);
            out.extend_from_slice(&bytes);
        }
        if !ms.fetch {
            return out;
        }
        gl.bind_framebuffer(FRAMEBUFFER, self.draw_fb);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, self.fetched);
        gl.viewport(0, 0, W * SAMPLES, H);
        gl.bind_vertex_array(self.vao);
        gl.use_program(self.program);
        gl.active_texture(TEXTURE0);
        gl.bind_texture(ms.target(), t);
        let s = gl.get_uniform_location(self.program, "s");
        gl.uniform1i(s, 0);
        let layer_at = gl.get_uniform_location(self.program, "layer");
        for layer in 0..ms.layers() {
            if layer_at >= 0 {
                gl.uniform1i(layer_at, layer);
            }
            gl.draw_arrays(TRIANGLES, 0, 3);
            let mut bytes = vec![0xa5u8; (W * SAMPLES * H) as usize * texel];
            gl.read_pixels(0, 0, W * SAMPLES, H, format, ty, &mut bytes);
            out.extend_from_slice(&bytes);
        }
        out
    }
}

/// One line: what was done, the error, and the texture's contents after it.
type Line = (&'static str, GLenum, Vec<u8>);

/// One step of a scene.
type Step<'a> = dyn Fn(&mut dyn ClearGl, GLuint) + 'a;

/// Clears a new texture of `ms` with each of `steps` in turn, recording the error and the
/// contents after each (the first clears every texel).
fn run(gl: &mut dyn ClearGl, ms: Ms, steps: &[(&'static str, &Step)]) -> Vec<Line> {
    gl.pixel_storei(PACK_ALIGNMENT, 1);
    let t = ms.create(gl);
    let reader = Reader::new(gl, ms);
    let mut out = vec![("create", gl.get_error(), Vec::new())];
    for (what, step) in steps {
        step(gl, t);
        let e = gl.get_error();
        out.push((*what, e, reader.contents(gl, ms, t)));
    }
    out
}

/// The colour scenes: whole, a box, one layer of an array, converted texels and no data.
fn colour_transcript(gl: &mut dyn ClearGl, array: bool, fetch: bool) -> Vec<Vec<Line>> {
    let ub = bytes_of(&[0x10u8, 0x80, 0xf0, 0xff]);
    let f4 = bytes_of(&[0.25f32, 0.5, 0.75, 1.0]);
    let f4_wide = bytes_of(&[-2.0f32, 0.125, 1536.0, 0.5]);
    let ints = bytes_of(&[-5i32, 300, -200, 7]);
    let shorts = bytes_of(&[1u16, 65535, 1234, 0]);
    let uints = bytes_of(&[70_000u32, 3, 255, 9]);
    let layer = |gl: &mut dyn ClearGl, t, f, ty, d: &[u8]| {
        let z = if array { 1 } else { 0 };
        gl.clear_sub(t, 0, [0, 0, z], [W, H, 1], f, ty, Some(d));
    };
    let boxed = |gl: &mut dyn ClearGl, t, f, ty, d: Option<&[u8]>| {
        let (z, d_layers) = if array { (0, 2) } else { (0, 1) };
        gl.clear_sub(t, 0, [2, 1, z], [4, 3, d_layers], f, ty, d);
    };
    let mut all = Vec::new();
    // Bytes into half and packed floats are left out: both backends round them to the
    // nearest float where Mesa truncates (the upload path's conversion, README).
    for (internal, (first_ty, first)) in [
        (RGBA8, (UNSIGNED_BYTE, &ub)),
        (RGBA32F, (UNSIGNED_BYTE, &ub)),
        (RGBA16F, (FLOAT, &f4)),
        (R11F_G11F_B10F, (FLOAT, &f4)),
    ] {
        let ms = Ms {
            array,
            internal,
            class: Class::Float,
            fetch,
        };
        all.push(run(
            gl,
            ms,
            &[
                ("whole", &|gl, t| {
                    gl.clear_image(t, 0, RGBA, first_ty, Some(first))
                }),
                ("floats in a box", &|gl, t| {
                    boxed(gl, t, RGBA, FLOAT, Some(&f4_wide))
                }),
                ("floats in a layer", &|gl, t| layer(gl, t, RGBA, FLOAT, &f4)),
                ("no data, RGB", &|gl, t| boxed(gl, t, RGB, FLOAT, None)),
            ],
        ));
    }
    for (internal, class) in [
        (RGBA8I, Class::Int),
        (RG32I, Class::Int),
        (RGBA16UI, Class::Uint),
        (R8UI, Class::Uint),
    ] {
        let ms = Ms {
            array,
            internal,
            class,
            fetch,
        };
        all.push(run(
            gl,
            ms,
            &[
                ("ints", &|gl, t| {
                    gl.clear_image(t, 0, RGBA_INTEGER, INT, Some(&ints))
                }),
                ("shorts in a box", &|gl, t| {
                    boxed(gl, t, RGBA_INTEGER, UNSIGNED_SHORT, Some(&shorts))
                }),
                ("uints in a layer", &|gl, t| {
                    layer(gl, t, RGBA_INTEGER, UNSIGNED_INT, &uints)
                }),
                ("no data in a box", &|gl, t| {
                    boxed(gl, t, RGB_INTEGER, INT, None)
                }),
            ],
        ));
    }
    all
}

/// The depth scenes: whole, a box and a layer, from floats, shorts and packed depth-stencil
/// data, read through the fetch.
fn depth_transcript(gl: &mut dyn ClearGl, array: bool) -> Vec<Vec<Line>> {
    // Depths exact in 16 and 24 bits whichever way a conversion rounds (Mesa truncates).
    let fifth = bytes_of(&[0.2f32]);
    let three_quarters = bytes_of(&[0.75f32]);
    let half_short = bytes_of(&[0x8000u16]);
    let packed = bytes_of(&[0x4000_00abu32]);
    let mut all = Vec::new();
    let z = if array { 2 } else { 0 };
    for internal in [DEPTH_COMPONENT32F, DEPTH_COMPONENT16, DEPTH24_STENCIL8] {
        let ms = Ms {
            array,
            internal,
            class: Class::Depth,
            fetch: true,
        };
        let (f, ty, d) = if internal == DEPTH24_STENCIL8 {
            (DEPTH_STENCIL, UNSIGNED_INT_24_8, &packed)
        } else {
            (DEPTH_COMPONENT, UNSIGNED_SHORT, &half_short)
        };
        all.push(run(
            gl,
            ms,
            &[
                ("floats", &|gl, t| {
                    gl.clear_image(t, 0, DEPTH_COMPONENT, FLOAT, Some(&fifth))
                }),
                ("other data in a box", &|gl, t| {
                    gl.clear_sub(t, 0, [1, 2, 0], [5, 3, 1], f, ty, Some(d))
                }),
                ("floats in a layer", &|gl, t| {
                    gl.clear_sub(
                        t,
                        0,
                        [0, 0, z],
                        [W, H, 1],
                        DEPTH_COMPONENT,
                        FLOAT,
                        Some(&three_quarters),
                    )
                }),
            ],
        ));
    }
    all
}

/// Boxes and levels a multisample image refuses, and a clear of an empty box: the errors.
fn errors(gl: &mut dyn ClearGl) -> Vec<GLenum> {
    let f4 = bytes_of(&[0.25f32, 0.5, 0.75, 1.0]);
    let mut out = Vec::new();
    for array in [false, true] {
        let ms = Ms {
            array,
            internal: RGBA8,
            class: Class::Float,
            fetch: false,
        };
        let t = ms.create(gl);
        let d = Some(f4.as_slice());
        gl.clear_image(t, 1, RGBA, FLOAT, d);
        out.push(gl.get_error());
        gl.clear_sub(t, 0, [0, 0, ms.layers()], [1, 1, 1], RGBA, FLOAT, d);
        out.push(gl.get_error());
        gl.clear_sub(t, 0, [W - 1, 0, 0], [2, 1, 1], RGBA, FLOAT, d);
        out.push(gl.get_error());
        gl.clear_sub(t, 0, [0, 0, 0], [1, -1, 1], RGBA, FLOAT, d);
        out.push(gl.get_error());
        gl.clear_sub(t, 0, [0, 0, 0], [0, 1, 1], RGBA, FLOAT, d);
        out.push(gl.get_error());
        gl.clear_image(t, 0, RGBA_INTEGER, INT, d);
        out.push(gl.get_error());
        gl.clear_image(t, 0, DEPTH_COMPONENT, FLOAT, d);
        out.push(gl.get_error());
    }
    out
}

#[test]
fn multisample_colour_clears_match_native() {
    compare_transcripts(&Backend::ALL, |gl| colour_transcript(gl, false, true));
}

/// Array layers resolved and fetched on Vulkan; on GLES resolved only: the GLES backend
/// refuses programs that read a `sampler2DMSArray` (`GL_OUT_OF_MEMORY` at the next
/// `glGetError`, and their draws read nothing, whatever the texture holds).
#[test]
fn multisample_array_colour_clears_match_native() {
    compare_transcripts(&[Backend::Vulkan], |gl| colour_transcript(gl, true, true));
    compare_transcripts(&[Backend::Gles], |gl| colour_transcript(gl, true, false));
}

/// Depth is read through the fetch alone (a resolve of depth is not a read GL defines
/// sample by sample): 2D on both backends, arrays on Vulkan (see above for GLES).
#[test]
fn multisample_depth_clears_match_native() {
    compare_transcripts(&Backend::ALL, |gl| depth_transcript(gl, false));
    compare_transcripts(&[Backend::Vulkan], |gl| depth_transcript(gl, true));
}

#[test]
fn multisample_clear_errors_match_native() {
    let errors = compare_on(&Backend::ALL, errors);
    assert!(errors.iter().any(|&e| e != NO_ERROR), "{errors:?}");
}

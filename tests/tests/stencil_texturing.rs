//! Stencil texturing (`ARB_stencil_texturing`, GL 4.3) against the native driver on both
//! backends (Vulkan with the validation layer on, which must report nothing):
//! `DEPTH_STENCIL_TEXTURE_MODE` as a texture parameter with Mesa's errors (a value other
//! than `STENCIL_INDEX` or `DEPTH_COMPONENT`, buffer textures and sampler objects
//! `INVALID_ENUM`), its value on multisample and array targets and on a texture view,
//! and `DEPTH24_STENCIL8` and `DEPTH32F_STENCIL8` textures sampled through `usampler2D` for
//! their stencil, through `sampler2D` for their depth, and incomplete in stencil mode with a
//! linear filter. Values, pixels and errors must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's parameter getters, glTexStorage2D and glTextureView, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls the shared [`Gl`] table has no entry for.
trait StencilGl: Gl {
    /// `glGetTexParameteriv` of one value (-7 where nothing was written).
    fn tex_value(&mut self, target: GLenum, pname: GLenum) -> GLint;
    /// `glGetSamplerParameteriv` of one value (-7 where nothing was written).
    fn sampler_value(&mut self, sampler: GLuint, pname: GLenum) -> GLint;
    /// `glTexStorage2D`.
    fn tex_storage_2d(&mut self, target: GLenum, levels: i32, internal: GLenum, w: i32, h: i32);
    /// `glTextureView` of all levels and layer 0.
    fn texture_view(&mut self, view: GLuint, target: GLenum, orig: GLuint, internal: GLenum);
    /// Whether `glGetStringi(EXTENSIONS, i)` lists `name`.
    fn advertises(&mut self, name: &str) -> bool;
}

impl StencilGl for Context {
    fn tex_value(&mut self, target: GLenum, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_tex_parameteriv(self, target, pname, &mut v);
        v[0]
    }
    fn sampler_value(&mut self, sampler: GLuint, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_sampler_parameteriv(self, sampler, pname, &mut v);
        v[0]
    }
    fn tex_storage_2d(&mut self, target: GLenum, levels: i32, internal: GLenum, w: i32, h: i32) {
        Context::tex_storage_2d(self, target, levels, internal, w, h)
    }
    fn texture_view(&mut self, view: GLuint, target: GLenum, orig: GLuint, internal: GLenum) {
        Context::texture_view(self, view, target, orig, internal, 0, 1, 0, 1)
    }
    fn advertises(&mut self, name: &str) -> bool {
        let mut n = [0];
        Context::get_integerv(self, NUM_EXTENSIONS, &mut n);
        (0..n[0].max(0) as GLuint).any(|i| self.get_stringi(EXTENSIONS, i).as_deref() == Some(name))
    }
}

/// An entry point of the native driver, by name and C signature.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl StencilGl for NativeGl {
    fn tex_value(&mut self, target: GLenum, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLenum, *mut GLint);
        let f: F = native(self, "glGetTexParameteriv");
        let mut v = -7;
        // SAFETY: the pnames asked have one value.
        unsafe { f(target, pname, &mut v) };
        v
    }
    fn sampler_value(&mut self, sampler: GLuint, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLuint, GLenum, *mut GLint);
        let f: F = native(self, "glGetSamplerParameteriv");
        let mut v = -7;
        // SAFETY: the pnames asked have one value.
        unsafe { f(sampler, pname, &mut v) };
        v
    }
    fn tex_storage_2d(&mut self, target: GLenum, levels: i32, internal: GLenum, w: i32, h: i32) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei);
        let f: F = native(self, "glTexStorage2D");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(target, levels, internal, w, h) }
    }
    fn texture_view(&mut self, view: GLuint, target: GLenum, orig: GLuint, internal: GLenum) {
        type F = unsafe extern "system" fn(
            GLuint,
            GLenum,
            GLuint,
            GLenum,
            GLuint,
            GLuint,
            GLuint,
            GLuint,
        );
        let f: F = native(self, "glTextureView");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(view, target, orig, internal, 0, 1, 0, 1) }
    }
    fn advertises(&mut self, name: &str) -> bool {
        self.extensions().iter().any(|e| e == name)
    }
}

const SIZE: i32 = 8;

/// Runs `scene` natively and on both backends (inproc and thread), which must match; returns
/// the native result.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn StencilGl) -> T) -> T {
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

/// What was done, the error, and the mode read back (-7: nothing written).
type Line = (&'static str, GLenum, GLint);

fn transcript(gl: &mut dyn StencilGl) -> (bool, Vec<Line>) {
    let advertised = gl.advertises("GL_ARB_stencil_texturing");
    let mut out: Vec<Line> = Vec::new();
    let mode = DEPTH_STENCIL_TEXTURE_MODE;
    let mut step = |gl: &mut dyn StencilGl,
                    what: &'static str,
                    target: GLenum,
                    f: &dyn Fn(&mut dyn StencilGl)| {
        f(gl);
        let e = gl.get_error();
        let v = gl.tex_value(target, mode);
        let e2 = gl.get_error();
        out.push((what, e, v));
        if e2 != NO_ERROR {
            out.push(("query error", e2, 0));
        }
    };
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    let d2 = TEXTURE_2D;
    step(gl, "initial", d2, &|_| {});
    step(gl, "STENCIL_INDEX", d2, &|gl| {
        gl.tex_parameteri(d2, mode, STENCIL_INDEX as i32)
    });
    step(gl, "RED refused", d2, &|gl| {
        gl.tex_parameteri(d2, mode, RED as i32)
    });
    step(gl, "STENCIL refused", d2, &|gl| {
        gl.tex_parameteri(d2, mode, STENCIL as i32)
    });
    step(gl, "DEPTH_COMPONENT", d2, &|gl| {
        gl.tex_parameteri(d2, mode, DEPTH_COMPONENT as i32)
    });
    step(gl, "as a float", d2, &|gl| {
        gl.tex_parameterf(d2, mode, STENCIL_INDEX as f32)
    });
    step(gl, "as floats", d2, &|gl| {
        gl.tex_parameterfv(d2, mode, &[DEPTH_COMPONENT as f32])
    });
    let ms = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D_MULTISAMPLE, ms);
    let m = TEXTURE_2D_MULTISAMPLE;
    step(gl, "multisample", m, &|gl| {
        gl.tex_parameteri(m, mode, STENCIL_INDEX as i32)
    });
    let array = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D_ARRAY, array);
    let a = TEXTURE_2D_ARRAY;
    step(gl, "array", a, &|gl| {
        gl.tex_parameteri(a, mode, STENCIL_INDEX as i32)
    });
    let buf = gl.gen_texture();
    gl.bind_texture(TEXTURE_BUFFER, buf);
    step(gl, "buffer texture", TEXTURE_BUFFER, &|gl| {
        gl.tex_parameteri(TEXTURE_BUFFER, mode, STENCIL_INDEX as i32)
    });
    let s = gl.gen_sampler();
    gl.bind_sampler(0, s);
    gl.sampler_parameteri(s, mode, STENCIL_INDEX as i32);
    let e = gl.get_error();
    out.push(("sampler object", e, gl.sampler_value(s, mode)));
    out.push(("sampler query", gl.get_error(), 0));
    // A view of a storage texture in stencil mode.
    let orig = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, orig);
    gl.tex_storage_2d(TEXTURE_2D, 1, DEPTH24_STENCIL8, 4, 4);
    gl.tex_parameteri(TEXTURE_2D, mode, STENCIL_INDEX as i32);
    let view = gl.gen_texture();
    gl.texture_view(view, TEXTURE_2D, orig, DEPTH24_STENCIL8);
    let e = gl.get_error();
    gl.bind_texture(TEXTURE_2D, view);
    out.push(("view", e, gl.tex_value(TEXTURE_2D, mode)));
    (advertised, out)
}

#[test]
fn depth_stencil_texture_mode_matches_the_native_driver() {
    let (advertised, lines) = compare(transcript);
    assert!(advertised);
    let find = |what: &str| {
        *lines
            .iter()
            .find(|l| l.0 == what)
            .unwrap_or_else(|| panic!("{what}"))
    };
    assert_eq!(find("initial").2, DEPTH_COMPONENT as i32);
    assert_eq!(
        find("STENCIL_INDEX"),
        ("STENCIL_INDEX", NO_ERROR, STENCIL_INDEX as i32)
    );
    assert_eq!(find("RED refused").1, INVALID_ENUM);
    assert_eq!(find("sampler object").1, INVALID_ENUM);
    // A view starts in depth mode whatever its texture's.
    assert_eq!(find("view"), ("view", NO_ERROR, DEPTH_COMPONENT as i32));
}

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

/// The texel under the fragment: the stencil sample as it is but for its alpha, which is
/// only told apart from 0 (an incomplete texture's 1 reads as 1 on Tessera and as the bits
/// of 1.0 on Mesa, whose incomplete texture is a float one), the depth sample as 0-255.
const FS: &str = "#version 330
uniform usampler2D stencil;
uniform sampler2D depth;
uniform bool read_depth;
out uvec4 color;
void main() {
    vec2 at = gl_FragCoord.xy / 8.0;
    uvec4 s = texture(stencil, at);
    color = read_depth
        ? uvec4(texture(depth, at) * 255.0 + 0.5)
        : uvec4(s.rgb, s.a == 0u ? 0u : 1u);
}
";

fn build_program(gl: &mut dyn StencilGl) -> GLuint {
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
    p
}

/// An 8x8 depth-stencil image whose texel (x, y) has stencil `x * 29 + y * 3` and depth
/// `(x + y) / 16`, uploaded as `format`/`ty` into `internal`; frames of its stencil (twice:
/// in stencil mode with NEAREST filters, then with a LINEAR magnification filter, which
/// leaves it incomplete), and of its depth (back in depth mode). Each frame is the RGBA32UI
/// renderbuffer's words.
fn frames(gl: &mut dyn StencilGl, internal: GLenum) -> Vec<Vec<u32>> {
    let p = build_program(gl);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let quad: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    gl.buffer_data(ARRAY_BUFFER, quad.len(), Some(&quad), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let texel = |x: u32, y: u32| ((x + y) as f32 / 16.0, (x * 29 + y * 3) as u8);
    let data: Vec<u8> = (0..64)
        .flat_map(|i| {
            let (d, s) = texel(i % 8, i / 8);
            if internal == DEPTH32F_STENCIL8 {
                // FLOAT_32_UNSIGNED_INT_24_8_REV: the float, then the stencil in the low
                // byte of the second word.
                let mut w = d.to_le_bytes().to_vec();
                w.extend_from_slice(&u32::from(s).to_le_bytes());
                w
            } else {
                let d24 = (f64::from(d) * f64::from((1u32 << 24) - 1)).round() as u32;
                ((d24 << 8) | u32::from(s)).to_le_bytes().to_vec()
            }
        })
        .collect();
    let ty = if internal == DEPTH32F_STENCIL8 {
        FLOAT_32_UNSIGNED_INT_24_8_REV
    } else {
        UNSIGNED_INT_24_8
    };
    let t = gl.gen_texture();
    gl.active_texture(TEXTURE0);
    gl.bind_texture(TEXTURE_2D, t);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        internal as i32,
        SIZE,
        SIZE,
        0,
        DEPTH_STENCIL,
        ty,
        Some(&data),
    );
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
    gl.tex_parameteri(TEXTURE_2D, DEPTH_STENCIL_TEXTURE_MODE, STENCIL_INDEX as i32);
    // Samplers of two types read two units (one unit must not serve both).
    gl.active_texture(TEXTURE1);
    gl.bind_texture(TEXTURE_2D, t);
    for (name, unit) in [("stencil", 0), ("depth", 1)] {
        let loc = gl.get_uniform_location(p, name);
        gl.uniform1i(loc, unit);
    }
    let read_depth = gl.get_uniform_location(p, "read_depth");
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA32UI, SIZE, SIZE);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    assert_eq!(
        gl.check_framebuffer_status(FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    gl.viewport(0, 0, SIZE, SIZE);
    let frame = |gl: &mut dyn StencilGl| {
        gl.clear_bufferuiv(COLOR, 0, &[7, 7, 7, 7]);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        let mut out = vec![0u8; (SIZE * SIZE * 16) as usize];
        gl.read_pixels(0, 0, SIZE, SIZE, RGBA_INTEGER, UNSIGNED_INT, &mut out);
        out.chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect::<Vec<u32>>()
    };
    gl.uniform1i(read_depth, 0);
    let stencil = frame(gl);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, LINEAR as i32);
    let incomplete = frame(gl);
    gl.tex_parameteri(
        TEXTURE_2D,
        DEPTH_STENCIL_TEXTURE_MODE,
        DEPTH_COMPONENT as i32,
    );
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
    gl.uniform1i(read_depth, 1);
    let depth = frame(gl);
    assert_eq!(gl.get_error(), NO_ERROR);
    vec![stencil, incomplete, depth]
}

fn check(frames: &[Vec<u32>]) {
    // Texel (3, 2): stencil 93, depth 5/16 (80 of 255).
    let at = (2 * 8 + 3) * 4;
    assert_eq!(frames[0][at..at + 4], [93, 0, 0, 1]);
    assert_eq!(frames[1][at..at + 4], [0, 0, 0, 1], "incomplete");
    assert_eq!(frames[2][at], 80);
}

#[test]
fn depth24_stencil8_textures_sample_their_stencil() {
    let f = compare(|gl| frames(gl, DEPTH24_STENCIL8));
    check(&f);
}

#[test]
fn depth32f_stencil8_textures_sample_their_stencil() {
    let f = compare(|gl| frames(gl, DEPTH32F_STENCIL8));
    check(&f);
}

//! Three-component 32-bit buffer textures (`ARB_texture_buffer_object_rgb32`, GL 4.0)
//! against the native driver on both backends (Vulkan with the validation layer on, which
//! must report nothing): `glTexBuffer` and `glTexBufferRange` take `RGB32F`, `RGB32I` and
//! `RGB32UI` (and still refuse other three-component formats), the texture's width counts
//! 12-byte texels, and shaders fetch them as `(r, g, b, 1)` through `samplerBuffer`,
//! `isamplerBuffer` and `usamplerBuffer`, written bit for bit into a 32-bit integer
//! framebuffer. Values and errors must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's glTexBufferRange and glGetTexLevelParameteriv, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls the shared [`Gl`] table has no entry for.
trait Rgb32Gl: Gl {
    /// `glTexBufferRange`.
    fn tex_buffer_range(&mut self, internal: GLenum, buffer: GLuint, offset: isize, size: isize);
    /// `glGetTexLevelParameteriv` of one value of the buffer texture (-7 where nothing was
    /// written).
    fn level_value(&mut self, pname: GLenum) -> GLint;
    /// Whether `glGetStringi(EXTENSIONS, i)` lists `name`.
    fn advertises(&mut self, name: &str) -> bool;
}

impl Rgb32Gl for Context {
    fn tex_buffer_range(&mut self, internal: GLenum, buffer: GLuint, offset: isize, size: isize) {
        Context::tex_buffer_range(self, TEXTURE_BUFFER, internal, buffer, offset, size)
    }
    fn level_value(&mut self, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_tex_level_parameteriv(self, TEXTURE_BUFFER, 0, pname, &mut v);
        v[0]
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

impl Rgb32Gl for NativeGl {
    fn tex_buffer_range(&mut self, internal: GLenum, buffer: GLuint, offset: isize, size: isize) {
        type F = unsafe extern "system" fn(GLenum, GLenum, GLuint, isize, isize);
        let f: F = native(self, "glTexBufferRange");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(TEXTURE_BUFFER, internal, buffer, offset, size) }
    }
    fn level_value(&mut self, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLint, GLenum, *mut GLint);
        let f: F = native(self, "glGetTexLevelParameteriv");
        let mut v = -7;
        // SAFETY: the pnames asked have one value.
        unsafe { f(TEXTURE_BUFFER, 0, pname, &mut v) };
        v
    }
    fn advertises(&mut self, name: &str) -> bool {
        self.extensions().iter().any(|e| e == name)
    }
}

const SIZE: i32 = 8;

/// Runs `scene` natively and on both backends (inproc and thread), which must match; returns
/// the native result.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn Rgb32Gl) -> T) -> T {
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

/// What was done, the error, and the buffer texture's internal format, width, offset and
/// size.
type Line = (&'static str, GLenum, [GLint; 4]);

fn transcript(gl: &mut dyn Rgb32Gl) -> (bool, Vec<Line>) {
    let advertised = gl.advertises("GL_ARB_texture_buffer_object_rgb32");
    let mut out: Vec<Line> = Vec::new();
    let texture = gl.gen_texture();
    gl.bind_texture(TEXTURE_BUFFER, texture);
    let b = gl.gen_buffer();
    gl.bind_buffer(TEXTURE_BUFFER, b);
    gl.buffer_data(TEXTURE_BUFFER, 256, None, STATIC_DRAW);
    let mut align = [-7];
    gl.get_integerv(TEXTURE_BUFFER_OFFSET_ALIGNMENT, &mut align);
    let a = align[0].max(1) as isize;
    let mut step = |gl: &mut dyn Rgb32Gl, what: &'static str, f: &dyn Fn(&mut dyn Rgb32Gl)| {
        f(gl);
        let e = gl.get_error();
        let v = [
            TEXTURE_INTERNAL_FORMAT,
            TEXTURE_WIDTH,
            TEXTURE_BUFFER_OFFSET,
            TEXTURE_BUFFER_SIZE,
        ]
        .map(|p| gl.level_value(p));
        out.push((what, e, v));
    };
    step(gl, "RGB32F", &|gl| gl.tex_buffer(TEXTURE_BUFFER, RGB32F, b));
    step(gl, "RGB8 refused", &|gl| {
        gl.tex_buffer(TEXTURE_BUFFER, RGB8, b)
    });
    step(gl, "RGB32I", &|gl| gl.tex_buffer(TEXTURE_BUFFER, RGB32I, b));
    step(gl, "RGB16F refused", &|gl| {
        gl.tex_buffer(TEXTURE_BUFFER, RGB16F, b)
    });
    step(gl, "RGB32UI", &|gl| {
        gl.tex_buffer(TEXTURE_BUFFER, RGB32UI, b)
    });
    step(gl, "RGB32UI, 40 bytes", &|gl| {
        gl.tex_buffer_range(RGB32UI, b, a, 40)
    });
    step(gl, "RGB32F, 12 bytes at the end", &|gl| {
        gl.tex_buffer_range(RGB32F, b, 256 - a, 12)
    });
    step(gl, "RGB32I, misaligned", &|gl| {
        gl.tex_buffer_range(RGB32I, b, 12, 24)
    });
    step(gl, "RGB16I refused", &|gl| {
        gl.tex_buffer_range(RGB16I, b, 0, 24)
    });
    step(gl, "RGB32I, 11 bytes", &|gl| {
        gl.tex_buffer_range(RGB32I, b, 0, 11)
    });
    (advertised, out)
}

#[test]
fn rgb32_buffer_texture_state_matches_the_native_driver() {
    let (advertised, lines) = compare(transcript);
    assert!(advertised);
    let find = |what: &str| {
        *lines
            .iter()
            .find(|l| l.0 == what)
            .unwrap_or_else(|| panic!("{what}"))
    };
    assert_eq!(
        find("RGB32F"),
        ("RGB32F", NO_ERROR, [RGB32F as i32, 21, 0, 256])
    );
    assert_eq!(find("RGB8 refused").1, INVALID_ENUM);
    assert_eq!(find("RGB32UI, 40 bytes").2[1], 3);
    assert_eq!(find("RGB32I, 11 bytes").2[1], 0);
}

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

/// Column `x` of row 0 shows float texel `x`'s bits, of row 1 the signed texel, of row 2
/// the unsigned one, each with its `textureSize` in place of the alpha (which must read 1).
const FS: &str = "#version 330
uniform samplerBuffer floats;
uniform isamplerBuffer ints;
uniform usamplerBuffer uints;
out uvec4 color;
void main() {
    int x = int(gl_FragCoord.x);
    int y = int(gl_FragCoord.y);
    if (y == 0) {
        vec4 t = texelFetch(floats, x);
        color = uvec4(floatBitsToUint(t.rgb), uint(textureSize(floats)) * 16u + uint(t.a));
    } else if (y == 1) {
        ivec4 t = texelFetch(ints, x);
        color = uvec4(uvec3(t.rgb), uint(textureSize(ints)) * 16u + uint(t.a));
    } else {
        uvec4 t = texelFetch(uints, x);
        color = uvec4(t.rgb, uint(textureSize(uints)) * 16u + t.a);
    }
}
";

fn build_program(gl: &mut dyn Rgb32Gl) -> GLuint {
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

/// One buffer of 32-bit words viewed three ways: as RGB32F from its start, RGB32I from the
/// alignment, RGB32UI from twice it (a range of 7 texels); drawn into an 8x3 RGBA32UI
/// renderbuffer and read back as words.
fn fetch_frame(gl: &mut dyn Rgb32Gl) -> Vec<u32> {
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
    // 96 words: floats k * 0.75 - 20 for word k; read as ints they are other words, which is
    // what the integer views must show too.
    let words: Vec<u8> = (0..96)
        .flat_map(|k| (k as f32 * 0.75 - 20.0).to_le_bytes())
        .collect();
    let b = gl.gen_buffer();
    gl.bind_buffer(TEXTURE_BUFFER, b);
    gl.buffer_data(TEXTURE_BUFFER, words.len(), Some(&words), STATIC_DRAW);
    let mut align = [-7];
    gl.get_integerv(TEXTURE_BUFFER_OFFSET_ALIGNMENT, &mut align);
    let a = align[0].max(1) as isize;
    for (unit, name, internal, range) in [
        (0, "floats", RGB32F, None),
        (1, "ints", RGB32I, Some((a, 96))),
        (2, "uints", RGB32UI, Some((2 * a, 84))),
    ] {
        let t = gl.gen_texture();
        gl.active_texture(TEXTURE0 + unit);
        gl.bind_texture(TEXTURE_BUFFER, t);
        match range {
            None => gl.tex_buffer(TEXTURE_BUFFER, internal, b),
            Some((offset, size)) => gl.tex_buffer_range(internal, b, offset, size),
        }
        let loc = gl.get_uniform_location(p, name);
        gl.uniform1i(loc, unit as i32);
    }
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA32UI, SIZE, 3);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    assert_eq!(
        gl.check_framebuffer_status(FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    gl.viewport(0, 0, SIZE, 3);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut out = vec![0u8; (SIZE * 3 * 16) as usize];
    gl.read_pixels(0, 0, SIZE, 3, RGBA_INTEGER, UNSIGNED_INT, &mut out);
    assert_eq!(gl.get_error(), NO_ERROR);
    out.chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

#[test]
fn shaders_fetch_rgb32_texels() {
    let words = compare(fetch_frame);
    let float_bits = |k: u32| (k as f32 * 0.75 - 20.0).to_bits();
    // Float texel 2: words 6, 7, 8; 32 texels in the 384-byte buffer, alpha 1.
    assert_eq!(
        words[8..12],
        [float_bits(6), float_bits(7), float_bits(8), 32 * 16 + 1]
    );
    // The unsigned view's texel 0 is words 8, 9, 10; it has 7 texels, and its eighth,
    // past the range's end, reads 0.
    assert_eq!(
        words[64..68],
        [float_bits(8), float_bits(9), float_bits(10), 7 * 16 + 1]
    );
    assert_eq!(words[64 + 28..64 + 31], [0, 0, 0]);
}

//! Buffer texture ranges (`ARB_texture_buffer_range`, GL 4.3) against the native driver on
//! both backends (Vulkan with the validation layer on, which must report nothing):
//! `glTexBufferRange`'s errors in Mesa's order (target, buffer name, the range and its
//! alignment to `TEXTURE_BUFFER_OFFSET_ALIGNMENT`, then the internal format), the
//! `TEXTURE_BUFFER_OFFSET`/`_SIZE` and width queries after ranges, whole buffers and
//! detaching, and a fragment stage fetching the texels of a range (and its `textureSize`).
//! Pixels, values and errors must be exactly the native ones.

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
trait RangeGl: Gl {
    /// `glTexBufferRange`.
    fn tex_buffer_range(
        &mut self,
        target: GLenum,
        internal: GLenum,
        buffer: GLuint,
        offset: isize,
        size: isize,
    );
    /// `glGetTexLevelParameteriv` of one value of level 0 (-7 where nothing was written).
    fn level_value(&mut self, target: GLenum, pname: GLenum) -> GLint;
}

impl RangeGl for Context {
    fn tex_buffer_range(
        &mut self,
        target: GLenum,
        internal: GLenum,
        buffer: GLuint,
        offset: isize,
        size: isize,
    ) {
        Context::tex_buffer_range(self, target, internal, buffer, offset, size)
    }
    fn level_value(&mut self, target: GLenum, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_tex_level_parameteriv(self, target, 0, pname, &mut v);
        v[0]
    }
}

/// An entry point of the native driver, by name and C signature.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl RangeGl for NativeGl {
    fn tex_buffer_range(
        &mut self,
        target: GLenum,
        internal: GLenum,
        buffer: GLuint,
        offset: isize,
        size: isize,
    ) {
        type F = unsafe extern "system" fn(GLenum, GLenum, GLuint, isize, isize);
        let f: F = native(self, "glTexBufferRange");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(target, internal, buffer, offset, size) }
    }
    fn level_value(&mut self, target: GLenum, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLint, GLenum, *mut GLint);
        let f: F = native(self, "glGetTexLevelParameteriv");
        let mut v = -7;
        // SAFETY: the pnames asked have one value.
        unsafe { f(target, 0, pname, &mut v) };
        v
    }
}

const SIZE: i32 = 8;

/// Runs `scene` natively and on both backends (inproc and thread), which must match; returns
/// the native result.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn RangeGl) -> T) -> T {
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

/// What was done, the error, and the bound buffer texture's offset, size, width, internal
/// format and buffer.
type Line = (&'static str, GLenum, [GLint; 5]);

fn transcript(gl: &mut dyn RangeGl) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let mut align = [-7];
    gl.get_integerv(TEXTURE_BUFFER_OFFSET_ALIGNMENT, &mut align);
    out.push(("alignment", gl.get_error(), [align[0], 0, 0, 0, 0]));
    let texture = gl.gen_texture();
    gl.bind_texture(TEXTURE_BUFFER, texture);
    let unbound = gl.gen_buffer();
    let b = gl.gen_buffer();
    gl.bind_buffer(TEXTURE_BUFFER, b);
    gl.buffer_data(TEXTURE_BUFFER, 256, None, STATIC_DRAW);
    let a = align[0].max(1) as isize;
    let mut step = |gl: &mut dyn RangeGl, what: &'static str, f: &dyn Fn(&mut dyn RangeGl)| {
        f(gl);
        let e = gl.get_error();
        let v = [
            TEXTURE_BUFFER_OFFSET,
            TEXTURE_BUFFER_SIZE,
            TEXTURE_WIDTH,
            TEXTURE_INTERNAL_FORMAT,
            TEXTURE_BUFFER_DATA_STORE_BINDING,
        ]
        .map(|p| gl.level_value(TEXTURE_BUFFER, p));
        out.push((what, e, v));
    };
    step(gl, "defaults", &|_| {});
    step(gl, "bad target", &|gl| {
        gl.tex_buffer_range(TEXTURE_2D, RGBA8, b, 0, 16)
    });
    step(gl, "no such buffer", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, RGBA8, 999, 0, 16)
    });
    step(gl, "generated buffer", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, RGBA8, unbound, 0, 16)
    });
    step(gl, "negative offset", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, RGBA8, b, -a, 16)
    });
    step(gl, "size 0", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, RGBA8, b, 0, 0)
    });
    step(gl, "negative size", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, RGBA8, b, 0, -4)
    });
    step(gl, "past the end", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, RGBA8, b, a, 256)
    });
    step(gl, "misaligned", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, RGBA8, b, 4, 16)
    });
    step(gl, "bad format, bad range", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, RGB8, b, 4, 16)
    });
    step(gl, "bad format", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, RGB8, b, 0, 16)
    });
    step(gl, "range", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, RGBA8, b, a, 32)
    });
    step(gl, "odd size", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, RG16, b, 2 * a, 30)
    });
    step(gl, "to the end", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, R32F, b, 256 - a, a)
    });
    step(gl, "whole buffer", &|gl| {
        gl.tex_buffer(TEXTURE_BUFFER, RGBA32UI, b)
    });
    step(gl, "range again", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, R8UI, b, 0, 7)
    });
    step(gl, "detach, range ignored", &|gl| {
        gl.tex_buffer_range(TEXTURE_BUFFER, RGBA8, 0, -1, -1)
    });
    out
}

#[test]
fn texture_buffer_range_state_matches_the_native_driver() {
    let expected = compare(transcript);
    let find = |what: &str| {
        *expected
            .iter()
            .find(|l| l.0 == what)
            .unwrap_or_else(|| panic!("{what}"))
    };
    assert_eq!(find("misaligned").1, INVALID_VALUE);
    assert_eq!(find("bad format").1, INVALID_ENUM);
    let range = find("range");
    assert_eq!((range.1, range.2[1], range.2[2]), (NO_ERROR, 32, 8));
}

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

/// Column `x` shows texel `x` of the range; magenta where its size is not 8 texels.
const FS: &str = "#version 330
uniform samplerBuffer texels;
out vec4 color;
void main() {
    color = textureSize(texels) == 8
        ? texelFetch(texels, int(gl_FragCoord.x))
        : vec4(1.0, 0.0, 1.0, 1.0);
}
";

/// A buffer of 64 RGBA8 texels, each its index in red and green falling, viewed 8 texels at a
/// time from texel 16 (an aligned offset), then from texel 40, and drawn.
fn fetch_frame(gl: &mut dyn RangeGl) -> (Vec<u8>, Vec<u8>) {
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
    let texels: Vec<u8> = (0..64u8)
        .flat_map(|i| [i * 4, 255 - i * 4, 128, 255])
        .collect();
    let b = gl.gen_buffer();
    gl.bind_buffer(TEXTURE_BUFFER, b);
    gl.buffer_data(TEXTURE_BUFFER, texels.len(), Some(&texels), STATIC_DRAW);
    let t = gl.gen_texture();
    gl.active_texture(TEXTURE0);
    gl.bind_texture(TEXTURE_BUFFER, t);
    let loc = gl.get_uniform_location(p, "texels");
    gl.uniform1i(loc, 0);
    let frame = |gl: &mut dyn RangeGl, first: isize| {
        gl.tex_buffer_range(TEXTURE_BUFFER, RGBA8, b, first * 4, 32);
        gl.viewport(0, 0, SIZE, SIZE);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        let mut out = vec![0u8; (SIZE * SIZE * 4) as usize];
        gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut out);
        out
    };
    let first = frame(gl, 16);
    let second = frame(gl, 40);
    assert_eq!(gl.get_error(), NO_ERROR);
    (first, second)
}

#[test]
fn shaders_fetch_only_the_range() {
    let (first, second) = compare(fetch_frame);
    assert_eq!(first[..4], [64, 191, 128, 255]);
    assert_eq!(second[4..8], [164, 91, 128, 255]);
}

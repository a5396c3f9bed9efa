//! Packed-float vertex attributes (`GL_ARB_vertex_type_10f_11f_11f_rev`, GL 4.4) against
//! the native driver on both backends (Vulkan with the validation layer on, which must
//! report nothing): `UNSIGNED_INT_10F_11F_11F_REV` arrays through `glVertexAttribPointer`
//! and `glVertexAttribFormat` with Mesa's errors (three components only, no integer or BGRA
//! form) and their state, and points whose flat colour is such an attribute (normal values,
//! the largest, denormals, infinity), read back as floats, from a tightly packed array, an
//! interleaved one at an offset and a binding of stride 0. Values, errors and the floats
//! must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's glVertexAttribP*ui and glGetVertexAttrib*v, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

const WIDTH: i32 = 8;
const HEIGHT: i32 = 3;

/// The calls the shared [`Gl`] table has no entry for.
trait PackedGl: Gl {
    /// `glVertexAttribP{size}ui`.
    fn attrib_p(&mut self, index: GLuint, ty: GLenum, size: usize, value: GLuint);
    /// `glGetVertexAttribiv` of one value (-7 where nothing was written).
    fn attrib_value(&mut self, index: GLuint, pname: GLenum) -> GLint;
    /// `glGetVertexAttribfv(CURRENT_VERTEX_ATTRIB)`.
    fn current(&mut self, index: GLuint) -> [GLfloat; 4];
    /// Whether `glGetStringi(EXTENSIONS, i)` lists `name`.
    fn advertises(&mut self, name: &str) -> bool;
}

impl PackedGl for Context {
    fn attrib_p(&mut self, index: GLuint, ty: GLenum, size: usize, value: GLuint) {
        let n = FALSE as GLboolean;
        match size {
            1 => Context::vertex_attrib_p1ui(self, index, ty, n, value),
            2 => Context::vertex_attrib_p2ui(self, index, ty, n, value),
            3 => Context::vertex_attrib_p3ui(self, index, ty, n, value),
            _ => Context::vertex_attrib_p4ui(self, index, ty, n, value),
        }
    }
    fn attrib_value(&mut self, index: GLuint, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_vertex_attribiv(self, index, pname, &mut v);
        v[0]
    }
    fn current(&mut self, index: GLuint) -> [GLfloat; 4] {
        let mut v = [-7.0; 4];
        Context::get_vertex_attribfv(self, index, CURRENT_VERTEX_ATTRIB, &mut v);
        v
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

impl PackedGl for NativeGl {
    fn attrib_p(&mut self, index: GLuint, ty: GLenum, size: usize, value: GLuint) {
        type F = unsafe extern "system" fn(GLuint, GLenum, GLboolean, GLuint);
        let f: F = native(self, &format!("glVertexAttribP{size}ui"));
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(index, ty, FALSE as GLboolean, value) }
    }
    fn attrib_value(&mut self, index: GLuint, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLuint, GLenum, *mut GLint);
        let f: F = native(self, "glGetVertexAttribiv");
        let mut v = -7;
        // SAFETY: the pnames asked have one value.
        unsafe { f(index, pname, &mut v) };
        v
    }
    fn current(&mut self, index: GLuint) -> [GLfloat; 4] {
        type F = unsafe extern "system" fn(GLuint, GLenum, *mut GLfloat);
        let f: F = native(self, "glGetVertexAttribfv");
        let mut v = [-7.0; 4];
        // SAFETY: CURRENT_VERTEX_ATTRIB has four values.
        unsafe { f(index, CURRENT_VERTEX_ATTRIB, v.as_mut_ptr()) };
        v
    }
    fn advertises(&mut self, name: &str) -> bool {
        self.extensions().iter().any(|e| e == name)
    }
}

/// Runs `scene` natively and on both backends (inproc and thread), whose results must be
/// `same` as the native one; returns the native result and each backend's.
fn compare_by<T: std::fmt::Debug>(
    scene: impl Fn(&mut dyn PackedGl) -> T,
    same: impl Fn(&T, &T) -> bool,
) -> (T, Vec<T>) {
    let mut native =
        NativeGl::new(WIDTH, HEIGHT).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    let mut others = Vec::new();
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx: Context = tessera_on(backend, transport.clone(), WIDTH, HEIGHT);
            let got = scene(&mut ctx);
            assert!(
                same(&got, &expected),
                "{} {}: {got:?}, native {expected:?}",
                backend.name(),
                transport.name()
            );
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
            others.push(got);
        }
    }
    (expected, others)
}

/// What was done, the error, and attribute 1's `VERTEX_ATTRIB_ARRAY_SIZE`, `_TYPE` and
/// `_NORMALIZED`.
type Line = (&'static str, GLenum, [GLint; 3]);

const TYPE: GLenum = UNSIGNED_INT_10F_11F_11F_REV;

/// `glVertexAttribP{size}ui` of a packed-float word: the error and attribute 2's current
/// value as bits.
type Current = (usize, GLenum, [u32; 4]);

fn transcript(gl: &mut dyn PackedGl) -> (bool, Vec<Line>, Vec<Current>) {
    let advertised = gl.advertises("GL_ARB_vertex_type_10f_11f_11f_rev");
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    gl.buffer_data(ARRAY_BUFFER, 64, None, STATIC_DRAW);
    let mut out: Vec<Line> = Vec::new();
    let mut step = |gl: &mut dyn PackedGl, what: &'static str, f: &dyn Fn(&mut dyn PackedGl)| {
        f(gl);
        let e = gl.get_error();
        let v = [
            VERTEX_ATTRIB_ARRAY_SIZE,
            VERTEX_ATTRIB_ARRAY_TYPE,
            VERTEX_ATTRIB_ARRAY_NORMALIZED,
        ]
        .map(|p| gl.attrib_value(1, p));
        out.push((what, e, v));
    };
    step(gl, "pointer, 3", &|gl| {
        gl.vertex_attrib_pointer(1, 3, TYPE, false, 0, 0)
    });
    step(gl, "pointer, 3, normalized", &|gl| {
        gl.vertex_attrib_pointer(1, 3, TYPE, true, 8, 4)
    });
    step(gl, "pointer, 4", &|gl| {
        gl.vertex_attrib_pointer(1, 4, TYPE, false, 0, 0)
    });
    step(gl, "pointer, 1", &|gl| {
        gl.vertex_attrib_pointer(1, 1, TYPE, false, 0, 0)
    });
    step(gl, "pointer, BGRA", &|gl| {
        gl.vertex_attrib_pointer(1, BGRA as GLint, TYPE, true, 0, 0)
    });
    step(gl, "pointer, 5", &|gl| {
        gl.vertex_attrib_pointer(1, 5, TYPE, false, 0, 0)
    });
    step(gl, "integer pointer", &|gl| {
        gl.vertex_attrib_i_pointer(1, 3, TYPE, 0, 0)
    });
    step(gl, "format, 3", &|gl| {
        gl.vertex_attrib_format(1, 3, TYPE, FALSE as GLboolean, 16)
    });
    step(gl, "format, 2", &|gl| {
        gl.vertex_attrib_format(1, 2, TYPE, FALSE as GLboolean, 0)
    });
    step(gl, "integer format", &|gl| {
        gl.vertex_attrib_i_format(1, 3, TYPE, 0)
    });
    let mut current = Vec::new();
    for (size, value) in [
        (3, 0x3c0),
        (1, 0x7ff_03c0),
        (2, 0xfff0_0fc0),
        (4, 0x4003_c3c0),
    ] {
        gl.attrib_p(2, TYPE, size, value);
        current.push((size, gl.get_error(), gl.current(2).map(f32::to_bits)));
    }
    (advertised, out, current)
}

#[test]
fn packed_float_attribute_state_matches_the_native_driver() {
    let ((advertised, lines, current), _) = compare_by(transcript, |a, b| a == b);
    // glVertexAttribP3ui reads (1, 0, 0) and a w of 1; P4ui refuses the type (as Mesa).
    assert_eq!(
        current[0],
        (3, NO_ERROR, [1.0f32, 0.0, 0.0, 1.0].map(f32::to_bits))
    );
    assert_eq!(current[3].1, INVALID_ENUM);
    assert!(advertised);
    assert_eq!(lines[0], ("pointer, 3", NO_ERROR, [3, TYPE as GLint, 0]));
    assert_eq!(lines[2].1, INVALID_OPERATION);
    assert_eq!(lines[5].1, INVALID_VALUE);
    assert_eq!(lines[6].1, INVALID_ENUM);
}

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
layout(location = 1) in vec4 attrib;
flat out vec4 value;
void main() {
    gl_Position = vec4(position, 0.0, 1.0);
    gl_PointSize = 1.0;
    value = attrib;
}
";

const FS: &str = "#version 330
flat in vec4 value;
out vec4 color;
void main() { color = value; }
";

fn build_program(gl: &mut dyn PackedGl) -> GLuint {
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

/// A packed word of an 11-bit red, an 11-bit green and a 10-bit blue field.
fn word(r: u32, g: u32, b: u32) -> u32 {
    r | (g << 11) | (b << 22)
}

/// Eight points in each of three rows of an RGBA32F frame, row 0 reading a tightly packed
/// array, row 1 an array interleaved with other words at an offset (stride 12, offset 4),
/// row 2 one element for every vertex (a binding of stride 0); each point's colour is its
/// attribute (alpha 1). The frame's floats as bits.
fn frame(gl: &mut dyn PackedGl) -> Vec<u32> {
    let p = build_program(gl);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let words = [
        word(15 << 6, 14 << 6 | 1, 16 << 5),
        word(0, 0, 0),
        word(30 << 6 | 63, 30 << 6 | 63, 30 << 5 | 31),
        word(1, 63, 31),
        word(31 << 6, 0, 31 << 5),
        word(17 << 6 | 40, 3 << 6 | 7, 20 << 5 | 9),
        word(13 << 6, 12 << 6, 11 << 5),
        word(0x7ff, 0, 0x3ff),
    ];
    let mut positions = Vec::new();
    for row in 0..3 {
        for x in 0..8 {
            for v in [
                (x as f32 + 0.5) / WIDTH as f32 * 2.0 - 1.0,
                (row as f32 + 0.5) / HEIGHT as f32 * 2.0 - 1.0,
            ] {
                positions.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    let pb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, pb);
    gl.buffer_data(ARRAY_BUFFER, positions.len(), Some(&positions), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let packed: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    // A 4-byte header, 8 elements vertices 0..8 would read, then the words reversed.
    let mut interleaved = vec![0xabu8; 4];
    for _ in 0..8 {
        interleaved.extend_from_slice(&word(16 << 6, 16 << 6, 16 << 5).to_le_bytes());
        interleaved.extend_from_slice(&[0xcd; 8]);
    }
    for w in words.iter().rev() {
        interleaved.extend_from_slice(&w.to_le_bytes());
        interleaved.extend_from_slice(&[0xcd; 8]);
    }
    let ab = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, ab);
    gl.buffer_data(ARRAY_BUFFER, packed.len(), Some(&packed), STATIC_DRAW);
    gl.enable_vertex_attrib_array(1);
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA32F, WIDTH, HEIGHT);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    assert_eq!(
        gl.check_framebuffer_status(FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    gl.viewport(0, 0, WIDTH, HEIGHT);
    gl.clear_color(0.25, 0.25, 0.25, 0.25);
    gl.clear(COLOR_BUFFER_BIT);
    // Row 0: tightly packed, vertices 0..8 read elements 0..8.
    gl.vertex_attrib_pointer(1, 3, TYPE, false, 0, 0);
    gl.draw_arrays(POINTS, 0, 8);
    // Row 1: interleaved, reversed; vertices 8..16 read elements 8..16.
    let ib = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, ib);
    gl.buffer_data(
        ARRAY_BUFFER,
        interleaved.len(),
        Some(&interleaved),
        STATIC_DRAW,
    );
    gl.vertex_attrib_pointer(1, 3, TYPE, false, 12, 4);
    gl.draw_arrays(POINTS, 8, 8);
    // Row 2: a binding of stride 0 at the third word: every vertex reads it.
    gl.vertex_attrib_format(1, 3, TYPE, FALSE as GLboolean, 0);
    gl.vertex_attrib_binding(1, 1);
    gl.bind_vertex_buffer(1, ab, 8, 0);
    gl.draw_arrays(POINTS, 16, 8);
    let mut out = vec![0u8; (WIDTH * HEIGHT * 16) as usize];
    gl.read_pixels(0, 0, WIDTH, HEIGHT, RGBA, FLOAT, &mut out);
    assert_eq!(gl.get_error(), NO_ERROR);
    out.chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

#[test]
fn packed_float_attributes_draw_as_the_native_driver() {
    let (bits, _) = compare_by(frame, |a, b| a == b);
    let px = |x: usize, y: usize| -> [f32; 4] {
        let i = (y * WIDTH as usize + x) * 4;
        [0, 1, 2, 3].map(|c| f32::from_bits(bits[i + c]))
    };
    assert_eq!(px(0, 0), [1.0, 0.5 * (1.0 + 1.0 / 64.0), 2.0, 1.0]);
    assert_eq!(px(2, 0), [65024.0, 65024.0, 64512.0, 1.0]);
    // Row 1 reads the words reversed.
    assert_eq!(px(7, 1), px(0, 0));
    // Row 2: every point reads the third word.
    assert_eq!(px(5, 2), px(2, 0));
}

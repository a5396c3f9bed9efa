//! Multi-bind (GL 4.4's `ARB_multi_bind`) against the native driver on both backends
//! (Vulkan with the validation layer on, which must report nothing): `glBindBuffersBase` and
//! `glBindBuffersRange` on the four indexed targets, `glBindTextures`, `glBindSamplers`,
//! `glBindImageTextures` and `glBindVertexBuffers`, each with valid and invalid entries
//! mixed (names that are no object, misaligned or negative offsets, sizes, strides, images
//! without a level-0 image or with a format no image unit takes), ranges past the limits,
//! unknown targets, null arrays and the general buffer binding points, which the calls leave
//! alone. After each call the error and every binding it could touch must be the native
//! ones. A draw whose vertex buffer, uniform blocks, textures and samplers were all bound
//! by the multi-bind calls must give the native pixels.

#![expect(
    unsafe_code,
    reason = "the native driver's multi-bind and indexed-query entry points, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

/// The calls the shared [`Gl`] table has no entry for.
trait MultiGl: Gl {
    /// `glBindBuffersBase`.
    fn buffers_base(&mut self, target: GLenum, first: GLuint, count: GLsizei, b: Option<&[u32]>);
    /// `glBindBuffersRange` (`offsets` and `sizes` passed only with names).
    fn buffers_range(
        &mut self,
        target: GLenum,
        first: GLuint,
        count: GLsizei,
        b: Option<(&[u32], &[isize], &[isize])>,
    );
    /// `glBindTextures`.
    fn textures(&mut self, first: GLuint, count: GLsizei, t: Option<&[u32]>);
    /// `glBindSamplers`.
    fn samplers(&mut self, first: GLuint, count: GLsizei, s: Option<&[u32]>);
    /// `glBindImageTextures`.
    fn image_textures(&mut self, first: GLuint, count: GLsizei, t: Option<&[u32]>);
    /// `glBindVertexBuffers` (`offsets` and `strides` passed only with names).
    fn vertex_buffers(
        &mut self,
        first: GLuint,
        count: GLsizei,
        b: Option<(&[u32], &[isize], &[i32])>,
    );
    /// `glGetInteger64i_v`, one value (`i64::MIN` if nothing was written).
    fn integer64_i(&mut self, target: GLenum, index: GLuint) -> i64;
}

impl MultiGl for Context {
    fn buffers_base(&mut self, target: GLenum, first: GLuint, count: GLsizei, b: Option<&[u32]>) {
        self.bind_buffers_base(target, first, count, b)
    }
    fn buffers_range(
        &mut self,
        target: GLenum,
        first: GLuint,
        count: GLsizei,
        b: Option<(&[u32], &[isize], &[isize])>,
    ) {
        match b {
            Some((n, o, s)) => self.bind_buffers_range(target, first, count, Some(n), o, s),
            None => self.bind_buffers_range(target, first, count, None, &[], &[]),
        }
    }
    fn textures(&mut self, first: GLuint, count: GLsizei, t: Option<&[u32]>) {
        self.bind_textures(first, count, t)
    }
    fn samplers(&mut self, first: GLuint, count: GLsizei, s: Option<&[u32]>) {
        self.bind_samplers(first, count, s)
    }
    fn image_textures(&mut self, first: GLuint, count: GLsizei, t: Option<&[u32]>) {
        self.bind_image_textures(first, count, t)
    }
    fn vertex_buffers(
        &mut self,
        first: GLuint,
        count: GLsizei,
        b: Option<(&[u32], &[isize], &[i32])>,
    ) {
        match b {
            Some((n, o, s)) => self.bind_vertex_buffers(first, count, Some(n), o, s),
            None => self.bind_vertex_buffers(first, count, None, &[], &[]),
        }
    }
    fn integer64_i(&mut self, target: GLenum, index: GLuint) -> i64 {
        let mut v = [i64::MIN];
        self.get_integer64i_v(target, index, &mut v);
        v[0]
    }
}

/// An entry point of the native driver, by name and C signature.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The pointer of an optional array: null for none.
fn ptr_of<T>(a: Option<&[T]>) -> *const T {
    a.map_or(std::ptr::null(), <[T]>::as_ptr)
}

impl MultiGl for NativeGl {
    fn buffers_base(&mut self, target: GLenum, first: GLuint, count: GLsizei, b: Option<&[u32]>) {
        type F = unsafe extern "system" fn(GLenum, GLuint, GLsizei, *const GLuint);
        let f: F = native(self, "glBindBuffersBase");
        // SAFETY: the array is null or holds `count` names (every caller passes
        // `count == len` or a call that fails before reading).
        unsafe { f(target, first, count, ptr_of(b)) }
    }
    fn buffers_range(
        &mut self,
        target: GLenum,
        first: GLuint,
        count: GLsizei,
        b: Option<(&[u32], &[isize], &[isize])>,
    ) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLuint,
            GLsizei,
            *const GLuint,
            *const isize,
            *const isize,
        );
        let f: F = native(self, "glBindBuffersRange");
        let (n, o, s) = match b {
            Some((n, o, s)) => (n.as_ptr(), o.as_ptr(), s.as_ptr()),
            None => (std::ptr::null(), std::ptr::null(), std::ptr::null()),
        };
        // SAFETY: as in `buffers_base`; the three arrays have one length.
        unsafe { f(target, first, count, n, o, s) }
    }
    fn textures(&mut self, first: GLuint, count: GLsizei, t: Option<&[u32]>) {
        type F = unsafe extern "system" fn(GLuint, GLsizei, *const GLuint);
        let f: F = native(self, "glBindTextures");
        // SAFETY: as in `buffers_base`.
        unsafe { f(first, count, ptr_of(t)) }
    }
    fn samplers(&mut self, first: GLuint, count: GLsizei, s: Option<&[u32]>) {
        type F = unsafe extern "system" fn(GLuint, GLsizei, *const GLuint);
        let f: F = native(self, "glBindSamplers");
        // SAFETY: as in `buffers_base`.
        unsafe { f(first, count, ptr_of(s)) }
    }
    fn image_textures(&mut self, first: GLuint, count: GLsizei, t: Option<&[u32]>) {
        type F = unsafe extern "system" fn(GLuint, GLsizei, *const GLuint);
        let f: F = native(self, "glBindImageTextures");
        // SAFETY: as in `buffers_base`.
        unsafe { f(first, count, ptr_of(t)) }
    }
    fn vertex_buffers(
        &mut self,
        first: GLuint,
        count: GLsizei,
        b: Option<(&[u32], &[isize], &[i32])>,
    ) {
        type F =
            unsafe extern "system" fn(GLuint, GLsizei, *const GLuint, *const isize, *const i32);
        let f: F = native(self, "glBindVertexBuffers");
        let (n, o, s) = match b {
            Some((n, o, s)) => (n.as_ptr(), o.as_ptr(), s.as_ptr()),
            None => (std::ptr::null(), std::ptr::null(), std::ptr::null()),
        };
        // SAFETY: as in `buffers_range`.
        unsafe { f(first, count, n, o, s) }
    }
    fn integer64_i(&mut self, target: GLenum, index: GLuint) -> i64 {
        type F = unsafe extern "system" fn(GLenum, GLuint, *mut i64);
        let f: F = native(self, "glGetInteger64i_v");
        let mut v = [i64::MIN; 4];
        // SAFETY: the context is current on this thread; these queries write one value.
        unsafe { f(target, index, v.as_mut_ptr()) };
        v[0]
    }
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match; returns
/// the native result.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn MultiGl) -> T) -> T {
    let mut native = NativeGl::new(8, 8).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 8, 8);
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

/// One line: what was done, the error, and the state read after it.
type Line = (&'static str, GLenum, Vec<i64>);

fn integer(gl: &mut dyn MultiGl, pname: GLenum) -> i64 {
    let mut v = [i32::MIN];
    gl.get_integerv(pname, &mut v);
    i64::from(v[0])
}

/// The general binding, then name, start and size of the first four indexed bindings of
/// `target` (`binding` names the queries).
fn buffer_state(gl: &mut dyn MultiGl, binding: GLenum, start: GLenum, size: GLenum) -> Vec<i64> {
    let mut out = vec![integer(gl, binding)];
    for i in 0..4 {
        out.push(gl.integer64_i(binding, i));
        out.push(gl.integer64_i(start, i));
        out.push(gl.integer64_i(size, i));
    }
    out
}

fn buffer_transcript(gl: &mut dyn MultiGl) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let b: Vec<u32> = (0..3)
        .map(|_| {
            let b = gl.gen_buffer();
            gl.bind_buffer(ARRAY_BUFFER, b);
            gl.buffer_data(ARRAY_BUFFER, 4096, None, STATIC_DRAW);
            b
        })
        .collect();
    // Generated and never bound: no buffer object yet.
    let unbound = gl.gen_buffer();
    let max_ubo = integer(gl, MAX_UNIFORM_BUFFER_BINDINGS) as u32;
    let max_acb = integer(gl, MAX_ATOMIC_COUNTER_BUFFER_BINDINGS) as u32;
    let mut step = |gl: &mut dyn MultiGl,
                    what: &'static str,
                    names: [GLenum; 3],
                    f: &dyn Fn(&mut dyn MultiGl)| {
        f(gl);
        let e = gl.get_error();
        let state = buffer_state(gl, names[0], names[1], names[2]);
        out.push((what, e, state));
    };
    let ubo = [
        UNIFORM_BUFFER_BINDING,
        UNIFORM_BUFFER_START,
        UNIFORM_BUFFER_SIZE,
    ];
    let ssbo = [
        SHADER_STORAGE_BUFFER_BINDING,
        SHADER_STORAGE_BUFFER_START,
        SHADER_STORAGE_BUFFER_SIZE,
    ];
    let acb = [
        ATOMIC_COUNTER_BUFFER_BINDING,
        ATOMIC_COUNTER_BUFFER_START,
        ATOMIC_COUNTER_BUFFER_SIZE,
    ];
    let tfb = [
        TRANSFORM_FEEDBACK_BUFFER_BINDING,
        TRANSFORM_FEEDBACK_BUFFER_START,
        TRANSFORM_FEEDBACK_BUFFER_SIZE,
    ];
    gl.bind_buffer(UNIFORM_BUFFER, b[0]);
    step(gl, "ubo base, one name no buffer", ubo, &|gl| {
        gl.buffers_base(UNIFORM_BUFFER, 0, 3, Some(&[b[1], unbound, b[2]]))
    });
    step(gl, "bad target", ubo, &|gl| {
        gl.buffers_base(0x1234, 0, 1, Some(&[b[1]]))
    });
    step(gl, "ubo past the last binding", ubo, &|gl| {
        gl.buffers_base(UNIFORM_BUFFER, max_ubo - 1, 2, Some(&[b[0], b[0]]))
    });
    step(gl, "ubo up to the last binding", ubo, &|gl| {
        gl.buffers_base(UNIFORM_BUFFER, max_ubo - 1, 1, Some(&[b[0]]))
    });
    step(gl, "ubo range, one misaligned", ubo, &|gl| {
        gl.buffers_range(
            UNIFORM_BUFFER,
            0,
            4,
            Some((&[b[1], b[2], b[0], 0], &[0, 256, 4, 16], &[16, 32, 16, 8])),
        )
    });
    step(gl, "ubo range, zero size and negative offset", ubo, &|gl| {
        gl.buffers_range(
            UNIFORM_BUFFER,
            1,
            3,
            Some((&[b[0], b[0], b[2]], &[0, -256, 512], &[0, 16, 64])),
        )
    });
    step(gl, "ubo range, null names", ubo, &|gl| {
        gl.buffers_range(UNIFORM_BUFFER, 1, 2, None)
    });
    step(gl, "ubo base, null names", ubo, &|gl| {
        gl.buffers_base(UNIFORM_BUFFER, 0, 2, None)
    });
    step(gl, "ssbo range", ssbo, &|gl| {
        gl.buffers_range(
            SHADER_STORAGE_BUFFER,
            0,
            3,
            Some((&[b[2], b[1], unbound], &[256, 0, 0], &[64, 128, 4])),
        )
    });
    step(gl, "ssbo base", ssbo, &|gl| {
        gl.buffers_base(SHADER_STORAGE_BUFFER, 1, 3, Some(&[b[0], 0, b[1]]))
    });
    step(gl, "acb range, misaligned", acb, &|gl| {
        gl.buffers_range(
            ATOMIC_COUNTER_BUFFER,
            0,
            3,
            Some((&[b[1], b[2], b[0]], &[4, 6, 8], &[8, 8, 3])),
        )
    });
    step(gl, "acb past the last binding", acb, &|gl| {
        gl.buffers_base(ATOMIC_COUNTER_BUFFER, max_acb, 1, Some(&[b[0]]))
    });
    step(gl, "tfb range, size not a multiple of 4", tfb, &|gl| {
        gl.buffers_range(
            TRANSFORM_FEEDBACK_BUFFER,
            0,
            3,
            Some((&[b[1], b[2], b[0]], &[4, 8, 2], &[6, 8, 8])),
        )
    });
    step(gl, "tfb past the last binding", tfb, &|gl| {
        gl.buffers_base(TRANSFORM_FEEDBACK_BUFFER, 3, 2, Some(&[b[1], b[1]]))
    });
    step(gl, "tfb base", tfb, &|gl| {
        gl.buffers_base(
            TRANSFORM_FEEDBACK_BUFFER,
            0,
            4,
            Some(&[b[2], 0, b[0], b[1]]),
        )
    });
    step(gl, "tfb null names", tfb, &|gl| {
        gl.buffers_base(TRANSFORM_FEEDBACK_BUFFER, 2, 2, None)
    });
    out
}

/// Every indexed buffer target's multi-bind calls, their errors and the bindings after.
#[test]
fn buffers_match_native() {
    compare(buffer_transcript);
}

/// The 2D, cube and sampler bindings of units 0-3, and the active unit (which the calls
/// keep).
fn unit_state(gl: &mut dyn MultiGl) -> Vec<i64> {
    let active = integer(gl, ACTIVE_TEXTURE);
    let mut out = vec![active];
    for unit in 0..4 {
        gl.active_texture(TEXTURE0 + unit);
        out.push(integer(gl, TEXTURE_BINDING_2D));
        out.push(integer(gl, TEXTURE_BINDING_CUBE_MAP));
        out.push(integer(gl, SAMPLER_BINDING));
    }
    gl.active_texture(active as GLenum);
    out
}

/// The image unit state of units 0-4.
fn image_state(gl: &mut dyn MultiGl) -> Vec<i64> {
    let mut out = Vec::new();
    for unit in 0..5 {
        for pname in [
            IMAGE_BINDING_NAME,
            IMAGE_BINDING_LEVEL,
            IMAGE_BINDING_LAYERED,
            IMAGE_BINDING_LAYER,
            IMAGE_BINDING_ACCESS,
            IMAGE_BINDING_FORMAT,
        ] {
            out.push(gl.integer64_i(pname, unit));
        }
    }
    out
}

fn texture_transcript(gl: &mut dyn MultiGl) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let texture = |gl: &mut dyn MultiGl, target: GLenum, internal: GLenum, image: bool| {
        let t = gl.gen_texture();
        gl.bind_texture(target, t);
        if image {
            match target {
                TEXTURE_2D_ARRAY => {
                    gl.tex_image_3d(target, 0, internal as GLint, 4, 4, 3, 0, RGBA, FLOAT, None)
                }
                TEXTURE_CUBE_MAP => {
                    for face in 0..6 {
                        gl.tex_image_2d(
                            TEXTURE_CUBE_MAP_POSITIVE_X + face,
                            0,
                            internal as GLint,
                            4,
                            4,
                            0,
                            RGBA,
                            UNSIGNED_BYTE,
                            None,
                        );
                    }
                }
                _ => gl.tex_image_2d(
                    target,
                    0,
                    internal as GLint,
                    4,
                    4,
                    0,
                    RGBA,
                    UNSIGNED_BYTE,
                    None,
                ),
            }
        }
        gl.bind_texture(target, 0);
        t
    };
    let t2d = texture(gl, TEXTURE_2D, RGBA8, true);
    let cube = texture(gl, TEXTURE_CUBE_MAP, RGBA8, true);
    let unsized_rgba = texture(gl, TEXTURE_2D, RGBA, true);
    let empty = texture(gl, TEXTURE_2D, RGBA8, false);
    let array = texture(gl, TEXTURE_2D_ARRAY, RGBA32F, true);
    let unbound = gl.gen_texture();
    let s1 = gl.gen_sampler();
    let s2 = gl.gen_sampler();
    let max_units = integer(gl, MAX_COMBINED_TEXTURE_IMAGE_UNITS) as u32;
    let max_images = integer(gl, MAX_IMAGE_UNITS) as u32;
    gl.active_texture(TEXTURE0 + 2);
    let mut step = |gl: &mut dyn MultiGl,
                    what: &'static str,
                    state: fn(&mut dyn MultiGl) -> Vec<i64>,
                    f: &dyn Fn(&mut dyn MultiGl)| {
        f(gl);
        let e = gl.get_error();
        let state = state(gl);
        out.push((what, e, state));
    };
    step(gl, "textures, one never bound", unit_state, &|gl| {
        gl.textures(0, 4, Some(&[t2d, unbound, cube, array]))
    });
    step(gl, "textures, a cube beside a 2D", unit_state, &|gl| {
        gl.textures(0, 3, Some(&[cube, t2d, 12345]))
    });
    step(
        gl,
        "textures, zero unbinds every target",
        unit_state,
        &|gl| gl.textures(0, 2, Some(&[0, empty])),
    );
    step(gl, "textures past the last unit", unit_state, &|gl| {
        gl.textures(max_units - 1, 2, Some(&[t2d, t2d]))
    });
    step(gl, "textures up to the last unit", unit_state, &|gl| {
        gl.textures(max_units - 1, 1, Some(&[t2d]))
    });
    step(gl, "textures, null names", unit_state, &|gl| {
        gl.textures(1, 2, None)
    });
    step(gl, "samplers, one no sampler", unit_state, &|gl| {
        gl.samplers(0, 4, Some(&[s1, 4321, s2, s1]))
    });
    step(gl, "samplers past the last unit", unit_state, &|gl| {
        gl.samplers(max_units, 1, Some(&[s1]))
    });
    step(gl, "samplers, null names", unit_state, &|gl| {
        gl.samplers(2, 2, None)
    });
    step(gl, "images", image_state, &|gl| {
        gl.image_textures(0, 5, Some(&[t2d, unsized_rgba, empty, array, cube]))
    });
    step(gl, "images, names no texture", image_state, &|gl| {
        gl.image_textures(0, 3, Some(&[unbound, 999, t2d]))
    });
    step(gl, "images past the last unit", image_state, &|gl| {
        gl.image_textures(max_images - 1, 2, Some(&[t2d, t2d]))
    });
    step(gl, "images, zero and null names", image_state, &|gl| {
        gl.image_textures(3, 1, Some(&[0]));
        gl.image_textures(0, 2, None);
    });
    out
}

/// The texture, sampler and image multi-bind calls, their errors and the bindings after.
#[test]
fn textures_samplers_and_images_match_native() {
    compare(texture_transcript);
}

/// Buffer, offset and stride of vertex binding points 0-4.
fn vertex_state(gl: &mut dyn MultiGl) -> Vec<i64> {
    let mut out = Vec::new();
    for i in 0..5 {
        out.push(gl.integer64_i(VERTEX_BINDING_BUFFER, i));
        out.push(gl.integer64_i(VERTEX_BINDING_OFFSET, i));
        out.push(gl.integer64_i(VERTEX_BINDING_STRIDE, i));
    }
    out
}

fn vertex_transcript(gl: &mut dyn MultiGl) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let b1 = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b1);
    let b2 = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b2);
    let unbound = gl.gen_buffer();
    let max = integer(gl, MAX_VERTEX_ATTRIB_BINDINGS) as u32;
    gl.vertex_buffers(0, 1, Some((&[b1], &[0], &[4])));
    out.push(("no vertex array", gl.get_error(), Vec::new()));
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let mut step = |gl: &mut dyn MultiGl, what: &'static str, f: &dyn Fn(&mut dyn MultiGl)| {
        f(gl);
        let e = gl.get_error();
        let state = vertex_state(gl);
        out.push((what, e, state));
    };
    step(gl, "buffers", &|gl| {
        gl.vertex_buffers(
            0,
            5,
            Some((
                &[b1, unbound, b2, 0, b1],
                &[0, 4, 8, 12, 16],
                &[4, 8, 12, 16, 0],
            )),
        )
    });
    step(gl, "negative offset and stride, stride too large", &|gl| {
        gl.vertex_buffers(
            0,
            4,
            Some((&[b2, b2, b2, b1], &[-4, 4, 8, 32], &[8, -8, 4096, 2048])),
        )
    });
    step(gl, "past the last binding", &|gl| {
        gl.vertex_buffers(max - 1, 2, Some((&[b1, b1], &[0, 0], &[4, 4])))
    });
    step(gl, "null names", &|gl| gl.vertex_buffers(1, 3, None));
    out
}

/// `glBindVertexBuffers`, its errors and the binding points after.
#[test]
fn vertex_buffers_match_native() {
    compare(vertex_transcript);
}

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 uv;
out vec2 v_uv;
void main() {
    v_uv = uv;
    gl_Position = vec4(position, 0.0, 1.0);
}
";

const FS: &str = "#version 330
uniform sampler2D a;
uniform sampler2D b;
layout(std140) uniform A { vec4 scale; };
layout(std140) uniform B { vec4 bias; };
in vec2 v_uv;
out vec4 frag;
void main() {
    frag = texture(a, v_uv) * scale + texture(b, v_uv) + bias;
}
";

/// A draw whose every input was bound by multi-bind: the pixels of an 8x8 target.
fn draw_scene(gl: &mut dyn MultiGl) -> (GLenum, Vec<u8>) {
    let program = link_program(gl, VS, FS);
    gl.use_program(program);
    let la = gl.get_uniform_location(program, "a");
    let lb = gl.get_uniform_location(program, "b");
    gl.uniform1iv(la, &[2]);
    gl.uniform1iv(lb, &[3]);
    let ia = gl.get_uniform_block_index(program, "A");
    let ib = gl.get_uniform_block_index(program, "B");
    gl.uniform_block_binding(program, ia, 1);
    gl.uniform_block_binding(program, ib, 2);
    // Two 2x2 textures: a nearest-sampled checker and a linear-sampled ramp.
    let mut tex = [0; 2];
    let texels: [[u8; 16]; 2] = [
        [
            200, 0, 0, 255, 0, 200, 0, 255, 0, 0, 200, 255, 200, 200, 200, 255,
        ],
        [0, 0, 0, 0, 40, 40, 40, 0, 0, 40, 0, 0, 40, 0, 40, 0],
    ];
    for (t, data) in tex.iter_mut().zip(texels) {
        *t = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, *t);
        gl.tex_image_2d(
            TEXTURE_2D,
            0,
            RGBA8 as GLint,
            2,
            2,
            0,
            RGBA,
            UNSIGNED_BYTE,
            Some(&data),
        );
    }
    gl.bind_texture(TEXTURE_2D, 0);
    let nearest = gl.gen_sampler();
    gl.sampler_parameteri(nearest, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.sampler_parameteri(nearest, TEXTURE_MAG_FILTER, NEAREST as GLint);
    let linear = gl.gen_sampler();
    gl.sampler_parameteri(linear, TEXTURE_MIN_FILTER, LINEAR as GLint);
    gl.sampler_parameteri(linear, TEXTURE_MAG_FILTER, LINEAR as GLint);
    gl.textures(2, 2, Some(&tex));
    gl.samplers(2, 2, Some(&[nearest, linear]));
    // Uniform blocks from one buffer at two aligned offsets.
    let ubo = gl.gen_buffer();
    gl.bind_buffer(UNIFORM_BUFFER, ubo);
    let mut blocks = vec![0u8; 512];
    for (i, v) in [0.5f32, 1.0, 0.75, 1.0].iter().enumerate() {
        blocks[i * 4..i * 4 + 4].copy_from_slice(&v.to_le_bytes());
    }
    for (i, v) in [0.1f32, 0.0, 0.2, 0.0].iter().enumerate() {
        blocks[256 + i * 4..256 + i * 4 + 4].copy_from_slice(&v.to_le_bytes());
    }
    gl.buffer_data(UNIFORM_BUFFER, blocks.len(), Some(&blocks), STATIC_DRAW);
    gl.bind_buffer(UNIFORM_BUFFER, 0);
    gl.buffers_range(
        UNIFORM_BUFFER,
        1,
        2,
        Some((&[ubo, ubo], &[0, 256], &[16, 16])),
    );
    // Positions and texture coordinates in two buffers, bound in one call.
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let quad: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    let uv: [f32; 12] = [9.0, 9.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 9.0, 9.0];
    let mut vb = [0; 2];
    for (b, data) in vb.iter_mut().zip([&quad[..], &uv[..]]) {
        *b = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, *b);
        let bytes: Vec<u8> = data.iter().flat_map(|f| f.to_le_bytes()).collect();
        gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    }
    gl.bind_buffer(ARRAY_BUFFER, 0);
    for attrib in 0..2 {
        gl.enable_vertex_attrib_array(attrib);
        gl.vertex_attrib_format(attrib, 2, FLOAT, FALSE as GLboolean, 0);
        gl.vertex_attrib_binding(attrib, attrib);
    }
    gl.vertex_buffers(0, 2, Some((&vb, &[0, 8], &[8, 8])));
    gl.viewport(0, 0, 8, 8);
    gl.clear_color(0.0, 0.0, 0.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let e = gl.get_error();
    let mut pixels = vec![0u8; 8 * 8 * 4];
    gl.read_pixels(0, 0, 8, 8, RGBA, UNSIGNED_BYTE, &mut pixels);
    (e, pixels)
}

/// A draw through vertex buffers, uniform blocks, textures and samplers all bound by
/// multi-bind gives the native pixels.
#[test]
fn draw_through_multi_bind_matches_native() {
    let (e, pixels) = compare(draw_scene);
    assert_eq!(e, NO_ERROR);
    // The scene drew: no pixel is the clear colour.
    assert!(pixels.chunks(4).all(|p| p != [0, 0, 0, 255]));
}

/// The string is advertised on both backends and on a GLES backend limited to ES 3.0,
/// whose want of image units makes `glBindImageTextures` `INVALID_OPERATION` (as Mesa
/// answers without `GL_ARB_shader_image_load_store`) while the other calls work.
#[test]
fn advertised_on_every_backend() {
    let mut contexts: Vec<(&str, Context)> = Backend::ALL
        .into_iter()
        .map(|b| (b.name(), tessera_on(b, TransportKind::Inproc, 8, 8)))
        .collect();
    contexts.push(("gles es3.0", tessera_es30(8, 8)));
    for (name, mut ctx) in contexts {
        let advertised: Vec<String> = (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
            .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
            .collect();
        assert!(
            advertised.iter().any(|e| e == "GL_ARB_multi_bind"),
            "{name}"
        );
        let images = advertised
            .iter()
            .any(|e| e == "GL_ARB_shader_image_load_store");
        ctx.bind_image_textures(0, 1, None);
        let expected = if images { NO_ERROR } else { INVALID_OPERATION };
        assert_eq!(ctx.get_error(), expected, "{name}");
        let s = ctx.gen_sampler();
        ctx.bind_samplers(0, 1, Some(&[s]));
        assert_eq!(ctx.get_error(), NO_ERROR, "{name}");
        ctx.finish();
        assert!(ctx.take_events().is_empty(), "{name}");
    }
}

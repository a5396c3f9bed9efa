//! `ARB_ES2_compatibility` (GL 4.1) against the native driver on both backends (Vulkan with
//! the validation layer on, which must report nothing): `glGetShaderPrecisionFormat`,
//! `glShaderBinary` (no format: its errors), `glReleaseShaderCompiler`, `glDepthRangef`,
//! `glClearDepthf`, the vec4 limits, `SHADER_COMPILER`, `FIXED` vertex attributes (their
//! errors and their values drawn, with and without `normalized`, with fewer components than
//! the shader reads), and `RGB565` textures and renderbuffers (completeness,
//! `IMPLEMENTATION_COLOR_READ_FORMAT`/`_TYPE`, pixels read back as 5-6-5). Pixels, values and
//! errors must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's ES2-compatibility entry points, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls the shared [`Gl`] table has no entry for.
trait Es2Gl: Gl {
    /// `glReleaseShaderCompiler`.
    fn release_shader_compiler(&mut self);
    /// `glShaderBinary` of `count` names from `shaders` and a 4-byte binary of `length`.
    fn shader_binary(
        &mut self,
        count: GLsizei,
        shaders: &[GLuint],
        format: GLenum,
        length: GLsizei,
    );
    /// `glGetShaderPrecisionFormat`: (range, precision), -7 where nothing was written.
    fn precision_format(&mut self, shader: GLenum, precision: GLenum) -> ([GLint; 2], GLint);
    /// `glDepthRangef`.
    fn depth_rangef(&mut self, near: GLfloat, far: GLfloat);
    /// `glClearDepthf`.
    fn clear_depthf(&mut self, depth: GLfloat);
    /// `glGetVertexAttribiv` of one value.
    fn vertex_attrib_value(&mut self, index: GLuint, pname: GLenum) -> GLint;
    /// `glGetTexLevelParameteriv` of one value (-7 where nothing was written).
    fn tex_level_value(&mut self, target: GLenum, level: GLint, pname: GLenum) -> GLint;
}

impl Es2Gl for Context {
    fn release_shader_compiler(&mut self) {
        Context::release_shader_compiler(self)
    }
    fn shader_binary(
        &mut self,
        count: GLsizei,
        shaders: &[GLuint],
        format: GLenum,
        length: GLsizei,
    ) {
        Context::shader_binary(self, count, shaders, format, None, length)
    }
    fn precision_format(&mut self, shader: GLenum, precision: GLenum) -> ([GLint; 2], GLint) {
        let (mut range, mut bits) = ([-7; 2], -7);
        Context::get_shader_precision_format(self, shader, precision, &mut range, Some(&mut bits));
        (range, bits)
    }
    fn depth_rangef(&mut self, near: GLfloat, far: GLfloat) {
        Context::depth_rangef(self, near, far)
    }
    fn clear_depthf(&mut self, depth: GLfloat) {
        Context::clear_depthf(self, depth)
    }
    fn vertex_attrib_value(&mut self, index: GLuint, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_vertex_attribiv(self, index, pname, &mut v);
        v[0]
    }
    fn tex_level_value(&mut self, target: GLenum, level: GLint, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_tex_level_parameteriv(self, target, level, pname, &mut v);
        v[0]
    }
}

/// An entry point of the native driver, by name and C signature.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl Es2Gl for NativeGl {
    fn release_shader_compiler(&mut self) {
        let f: unsafe extern "system" fn() = native(self, "glReleaseShaderCompiler");
        // SAFETY: the context is current on this thread.
        unsafe { f() }
    }
    fn shader_binary(
        &mut self,
        count: GLsizei,
        shaders: &[GLuint],
        format: GLenum,
        length: GLsizei,
    ) {
        type F = unsafe extern "system" fn(GLsizei, *const GLuint, GLenum, *const u8, GLsizei);
        let f: F = native(self, "glShaderBinary");
        assert!(
            count <= 0 || count as usize <= shaders.len(),
            "the driver reads count names"
        );
        let binary = [0u8; 4];
        // SAFETY: `shaders` holds the `count` names read; no format is loaded, so the
        // binary is never read past the checks (and holds 4 bytes).
        unsafe { f(count, shaders.as_ptr(), format, binary.as_ptr(), length) }
    }
    fn precision_format(&mut self, shader: GLenum, precision: GLenum) -> ([GLint; 2], GLint) {
        type F = unsafe extern "system" fn(GLenum, GLenum, *mut GLint, *mut GLint);
        let f: F = native(self, "glGetShaderPrecisionFormat");
        let (mut range, mut bits) = ([-7; 2], -7);
        // SAFETY: room for two range values and one precision.
        unsafe { f(shader, precision, range.as_mut_ptr(), &mut bits) };
        (range, bits)
    }
    fn depth_rangef(&mut self, near: GLfloat, far: GLfloat) {
        let f: unsafe extern "system" fn(GLfloat, GLfloat) = native(self, "glDepthRangef");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(near, far) }
    }
    fn clear_depthf(&mut self, depth: GLfloat) {
        let f: unsafe extern "system" fn(GLfloat) = native(self, "glClearDepthf");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(depth) }
    }
    fn vertex_attrib_value(&mut self, index: GLuint, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLuint, GLenum, *mut GLint);
        let f: F = native(self, "glGetVertexAttribiv");
        let mut v = -7;
        // SAFETY: the pnames asked have one value.
        unsafe { f(index, pname, &mut v) };
        v
    }
    fn tex_level_value(&mut self, target: GLenum, level: GLint, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLint, GLenum, *mut GLint);
        let f: F = native(self, "glGetTexLevelParameteriv");
        let mut v = -7;
        // SAFETY: the pnames asked have one value.
        unsafe { f(target, level, pname, &mut v) };
        v
    }
}

const SIZE: i32 = 8;

/// Runs `scene` natively and on both backends (inproc and thread), which must match; returns
/// the native result.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn Es2Gl) -> T) -> T {
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

/// One line of a transcript: what was done, the values it gave, the error after it.
type Line = (String, Vec<i64>, GLenum);

/// Calls, queries and errors, from the defaults on.
fn transcript(gl: &mut dyn Es2Gl) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let mut push = |gl: &mut dyn Es2Gl, what: String, values: Vec<i64>| {
        let e = gl.get_error();
        out.push((what, values, e));
    };
    for shader in [
        VERTEX_SHADER,
        FRAGMENT_SHADER,
        GEOMETRY_SHADER,
        COMPUTE_SHADER,
    ] {
        for precision in [
            LOW_FLOAT,
            MEDIUM_FLOAT,
            HIGH_FLOAT,
            LOW_INT,
            MEDIUM_INT,
            HIGH_INT,
            FLOAT,
        ] {
            let (r, p) = gl.precision_format(shader, precision);
            let values = vec![r[0].into(), r[1].into(), p.into()];
            push(gl, format!("precision {shader:#x} {precision:#x}"), values);
        }
    }
    for pname in [
        NUM_SHADER_BINARY_FORMATS,
        SHADER_BINARY_FORMATS,
        SHADER_COMPILER,
    ] {
        let mut v = [-7];
        gl.get_integerv(pname, &mut v);
        push(gl, format!("get {pname:#x}"), vec![v[0].into()]);
    }
    // The vec4 limits are the component limits counted in vec4s (their values are each
    // implementation's: Tessera's uniform and varying limits are its own, below
    // llvmpipe's).
    for (vectors, components) in [
        (MAX_VARYING_VECTORS, MAX_VARYING_COMPONENTS),
        (MAX_VERTEX_UNIFORM_VECTORS, MAX_VERTEX_UNIFORM_COMPONENTS),
        (
            MAX_FRAGMENT_UNIFORM_VECTORS,
            MAX_FRAGMENT_UNIFORM_COMPONENTS,
        ),
    ] {
        let (mut v, mut c) = ([-7], [-7]);
        gl.get_integerv(vectors, &mut v);
        gl.get_integerv(components, &mut c);
        let counted = i64::from(v[0] > 0 && v[0] * 4 == c[0]);
        push(
            gl,
            format!("get {vectors:#x} * 4 == {components:#x}"),
            vec![counted],
        );
    }

    gl.release_shader_compiler();
    push(gl, "release compiler".into(), vec![]);
    let vs = gl.create_shader(VERTEX_SHADER);
    let fs = gl.create_shader(FRAGMENT_SHADER);
    let program = gl.create_program();
    for (what, count, names, format, length) in [
        ("binary", 1, vec![vs], 0x1234, 4),
        ("binary of two", 2, vec![vs, fs], 0x1234, 4),
        ("no shader", 0, vec![], 0x1234, 4),
        ("negative count", -1, vec![vs], 0x1234, 4),
        ("negative length", 1, vec![vs], 0x1234, -1),
        ("a program", 1, vec![program], 0x1234, 4),
        ("no object", 1, vec![99], 0x1234, 4),
        ("shader then program", 2, vec![vs, program], 0, 4),
        ("format 0", 1, vec![fs], 0, 0),
    ] {
        gl.shader_binary(count, &names, format, length);
        push(gl, format!("shader binary: {what}"), vec![]);
    }

    let mut depth = |gl: &mut dyn Es2Gl, what: &str| {
        let mut range = [-7.0; 2];
        gl.get_floatv(DEPTH_RANGE, &mut range);
        let mut clear = [-7.0];
        gl.get_floatv(DEPTH_CLEAR_VALUE, &mut clear);
        let values = [range[0], range[1], clear[0]]
            .iter()
            .map(|v| (v * 1e6).round() as i64)
            .collect();
        push(gl, what.to_owned(), values);
    };
    depth(gl, "depth defaults");
    gl.depth_rangef(0.25, 2.0);
    gl.clear_depthf(-0.5);
    depth(gl, "depth range 0.25..2 (clamped), clear -0.5 (clamped)");
    gl.depth_rangef(0.75, 0.125);
    gl.clear_depthf(0.375);
    depth(gl, "depth range 0.75..0.125, clear 0.375");

    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buffer = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buffer);
    gl.buffer_data(ARRAY_BUFFER, 64, None, STATIC_DRAW);
    let mut attrib = |gl: &mut dyn Es2Gl, what: &str, index: GLuint| {
        let values = [
            VERTEX_ATTRIB_ARRAY_TYPE,
            VERTEX_ATTRIB_ARRAY_SIZE,
            VERTEX_ATTRIB_ARRAY_NORMALIZED,
            VERTEX_ATTRIB_ARRAY_INTEGER,
        ]
        .map(|p| i64::from(gl.vertex_attrib_value(index, p)))
        .to_vec();
        push(gl, what.to_owned(), values);
    };
    gl.vertex_attrib_pointer(0, 3, FIXED, false, 0, 0);
    attrib(gl, "pointer FIXED 3", 0);
    gl.vertex_attrib_pointer(1, 2, FIXED, true, 8, 4);
    attrib(gl, "pointer FIXED 2 normalized", 1);
    gl.vertex_attrib_pointer(2, BGRA as GLint, FIXED, true, 0, 0);
    attrib(gl, "pointer FIXED BGRA", 2);
    gl.vertex_attrib_i_pointer(2, 4, FIXED, 0, 0);
    attrib(gl, "I pointer FIXED", 2);
    gl.vertex_attrib_format(3, 4, FIXED, 0, 0);
    attrib(gl, "format FIXED 4", 3);
    gl.vertex_attrib_i_format(3, 1, FIXED, 0);
    attrib(gl, "I format FIXED", 3);
    gl.vertex_attrib_pointer(4, 5, FIXED, false, 0, 0);
    attrib(gl, "pointer FIXED 5", 4);

    let texture = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, texture);
    let mut level = |gl: &mut dyn Es2Gl, what: &str| {
        let values = [
            TEXTURE_INTERNAL_FORMAT,
            TEXTURE_RED_SIZE,
            TEXTURE_GREEN_SIZE,
            TEXTURE_BLUE_SIZE,
            TEXTURE_ALPHA_SIZE,
            TEXTURE_RED_TYPE,
        ]
        .map(|p| i64::from(gl.tex_level_value(TEXTURE_2D, 0, p)))
        .to_vec();
        push(gl, what.to_owned(), values);
    };
    for (what, format, ty) in [
        ("RGB565 from 5-6-5", RGB, UNSIGNED_SHORT_5_6_5),
        ("RGB565 from bytes", RGB, UNSIGNED_BYTE),
        ("RGB565 from RGBA floats", RGBA, FLOAT),
        ("RGB565 from integers", RGB_INTEGER, UNSIGNED_BYTE),
        ("RGB565 from RGBA 5-6-5", RGBA, UNSIGNED_SHORT_5_6_5),
    ] {
        gl.tex_image_2d(TEXTURE_2D, 0, RGB565 as GLint, 4, 4, 0, format, ty, None);
        level(gl, what);
    }
    let fbo = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fbo);
    gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, texture, 0);
    let status = gl.check_framebuffer_status(FRAMEBUFFER);
    let mut read = [-7; 2];
    gl.get_integerv(IMPLEMENTATION_COLOR_READ_FORMAT, &mut read[..1]);
    gl.get_integerv(IMPLEMENTATION_COLOR_READ_TYPE, &mut read[1..]);
    push(
        gl,
        "RGB565 texture attached".into(),
        vec![status.into(), read[0].into(), read[1].into()],
    );
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGB565, 4, 4);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    let status = gl.check_framebuffer_status(FRAMEBUFFER);
    push(
        gl,
        "RGB565 renderbuffer attached".into(),
        vec![status.into()],
    );
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    out
}

#[test]
fn es2_compatibility_state_matches_the_native_driver() {
    let expected = compare(transcript);
    let find = |what: &str| {
        expected
            .iter()
            .find(|l| l.0 == what)
            .unwrap_or_else(|| panic!("{what}"))
            .clone()
    };
    assert_eq!(
        find("precision 0x8b31 0x8df2").1,
        [127, 127, 23],
        "highp float"
    );
    assert_eq!(find("shader binary: binary").2, INVALID_ENUM);
    assert_eq!(find("shader binary: a program").2, INVALID_OPERATION);
    assert_eq!(find("get 0x8df9").1, [0], "no shader binary format");
    assert!(
        expected
            .iter()
            .filter(|l| l.0.contains(" * 4 == "))
            .all(|l| l.1 == [1])
    );
    assert_eq!(find("pointer FIXED 3").1[0], i64::from(FIXED));
    assert_eq!(find("I pointer FIXED").2, INVALID_ENUM);
    assert_eq!(find("RGB565 from 5-6-5").1[..4], [0x8D62, 5, 6, 5]);
}

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
layout(location = 1) in vec4 color;
layout(location = 2) in float depth;
out vec4 v_color;
void main() {
    gl_Position = vec4(position, depth, 1.0);
    v_color = color;
}
";

const FS: &str = "#version 330
in vec4 v_color;
out vec4 out_color;
void main() { out_color = v_color; }
";

fn program(gl: &mut dyn Es2Gl) -> GLuint {
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

/// 16.16 fixed point.
fn fixed(v: f64) -> [u8; 4] {
    ((v * 65536.0).round() as i32).to_le_bytes()
}

/// Quads drawn from `FIXED` positions, colours and depths into `SIZE` x `SIZE` pixels of
/// the default framebuffer and of an `RGB565` renderbuffer (read back as 5-6-5), under
/// `glDepthRangef` and `glClearDepthf`: the positions have two components, the colours
/// three (alpha is GL's default 1) or four with `normalized` set (which `FIXED` ignores);
/// where the second quad overlaps the first, and everywhere for the third, the depth test
/// fails.
fn fixed_frame(gl: &mut dyn Es2Gl) -> (Vec<u8>, Vec<u8>) {
    let p = program(gl);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    // Per vertex: position (2 FIXED), colour (4 FIXED, three used by the first quads),
    // depth (1 FIXED): 28 bytes.
    let quads: [([f64; 4], [f64; 4], f64); 3] = [
        ([-1.0, -1.0, 0.5, 0.5], [1.0, 0.25, 0.5, 0.5], -0.5),
        ([-0.5, -0.5, 1.0, 1.0], [0.125, 1.0, 0.75, 0.25], 0.25),
        ([-1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0], 0.9),
    ];
    let mut bytes = Vec::new();
    for (rect, color, depth) in quads {
        let [x0, y0, x1, y1] = rect;
        for (x, y) in [(x0, y0), (x1, y0), (x0, y1), (x1, y0), (x1, y1), (x0, y1)] {
            for v in [x, y].into_iter().chain(color).chain([depth]) {
                bytes.extend(fixed(v));
            }
        }
    }
    let buffer = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buffer);
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    for i in 0..3 {
        gl.enable_vertex_attrib_array(i);
    }
    gl.vertex_attrib_pointer(0, 2, FIXED, false, 28, 0);
    gl.vertex_attrib_pointer(2, 1, FIXED, false, 28, 24);
    gl.enable(DEPTH_TEST);
    gl.depth_func(LESS);
    gl.depth_rangef(0.0, 0.5);
    gl.clear_depthf(0.4);
    let frame = |gl: &mut dyn Es2Gl, format: GLenum, ty: GLenum, pixel: usize| {
        gl.viewport(0, 0, SIZE, SIZE);
        gl.clear_color(0.0, 0.0, 0.0, 1.0);
        gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
        gl.vertex_attrib_pointer(1, 3, FIXED, false, 28, 8);
        gl.draw_arrays(TRIANGLES, 0, 6);
        gl.vertex_attrib_pointer(1, 4, FIXED, true, 28, 8);
        gl.draw_arrays(TRIANGLES, 6, 12);
        let mut out = vec![0u8; (SIZE * SIZE) as usize * pixel];
        gl.read_pixels(0, 0, SIZE, SIZE, format, ty, &mut out);
        out
    };
    let default = frame(gl, RGBA, UNSIGNED_BYTE, 4);
    let fbo = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fbo);
    let color = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, color);
    gl.renderbuffer_storage(RENDERBUFFER, RGB565, SIZE, SIZE);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, color);
    let depth = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, depth);
    gl.renderbuffer_storage(RENDERBUFFER, DEPTH_COMPONENT24, SIZE, SIZE);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, DEPTH_ATTACHMENT, RENDERBUFFER, depth);
    assert_eq!(
        gl.check_framebuffer_status(FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    let rgb565 = frame(gl, RGB, UNSIGNED_SHORT_5_6_5, 2);
    assert_eq!(gl.get_error(), NO_ERROR);
    (default, rgb565)
}

#[test]
fn fixed_attributes_and_rgb565_draw_as_on_the_native_driver() {
    let (default, rgb565) = compare(fixed_frame);
    let px = |x: i32, y: i32| &default[((y * SIZE + x) * 4) as usize..][..4];
    // The first quad (three components: alpha 1), the second over it (all four), the third
    // behind the cleared depth.
    assert_eq!(px(1, 1), [255, 64, 128, 255]);
    assert_eq!(px(7, 7), [32, 255, 191, 64]);
    assert_eq!(px(1, 7), [0, 0, 0, 255]);
    assert!(rgb565.iter().any(|b| *b != 0));
}

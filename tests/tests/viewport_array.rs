//! Viewport arrays (`ARB_viewport_array`, GL 4.1) against the native driver on both backends
//! (Vulkan with the validation layer on, which must report nothing): a geometry shader
//! sending one triangle into four viewports through `gl_ViewportIndex`, each with its own
//! scissor rectangle, scissor test and depth range; the indexed calls' and queries'
//! transcript with Mesa's errors and clamping; and steady frames that make no pipeline.
//! Pixels, depths, values and errors must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's viewport-array calls, called through their C signatures"
)]

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The viewport-array calls these scenes make, which the shared [`Gl`] table lacks.
trait ViewportGl: Gl {
    fn viewport_arrayv(&mut self, first: GLuint, count: GLsizei, v: &[f32]);
    fn viewport_indexedf(&mut self, index: GLuint, x: f32, y: f32, w: f32, h: f32);
    fn scissor_arrayv(&mut self, first: GLuint, count: GLsizei, v: &[i32]);
    fn scissor_indexed(&mut self, index: GLuint, x: i32, y: i32, w: i32, h: i32);
    fn depth_range_arrayv(&mut self, first: GLuint, count: GLsizei, v: &[f64]);
    fn depth_range_indexed(&mut self, index: GLuint, near: f64, far: f64);
    /// `glGetIntegeri_v` of four values.
    fn get_integer4_i(&mut self, target: GLenum, index: GLuint) -> [i32; 4];
    /// `glGetFloati_v` of four values (two for a depth range, the rest left at -1).
    fn get_float4_i(&mut self, target: GLenum, index: GLuint) -> [f32; 4];
    /// `glGetDoublei_v` of two values.
    fn get_double2_i(&mut self, target: GLenum, index: GLuint) -> [f64; 2];
    fn is_enabled_i(&mut self, cap: GLenum, index: GLuint) -> bool;
    fn is_enabled_cap(&mut self, cap: GLenum) -> bool;
}

impl ViewportGl for Context {
    fn viewport_arrayv(&mut self, first: GLuint, count: GLsizei, v: &[f32]) {
        Context::viewport_arrayv(self, first, count, v);
    }
    fn viewport_indexedf(&mut self, index: GLuint, x: f32, y: f32, w: f32, h: f32) {
        Context::viewport_indexedf(self, index, x, y, w, h);
    }
    fn scissor_arrayv(&mut self, first: GLuint, count: GLsizei, v: &[i32]) {
        Context::scissor_arrayv(self, first, count, v);
    }
    fn scissor_indexed(&mut self, index: GLuint, x: i32, y: i32, w: i32, h: i32) {
        Context::scissor_indexed(self, index, x, y, w, h);
    }
    fn depth_range_arrayv(&mut self, first: GLuint, count: GLsizei, v: &[f64]) {
        Context::depth_range_arrayv(self, first, count, v);
    }
    fn depth_range_indexed(&mut self, index: GLuint, near: f64, far: f64) {
        Context::depth_range_indexed(self, index, near, far);
    }
    fn get_integer4_i(&mut self, target: GLenum, index: GLuint) -> [i32; 4] {
        let mut v = [-1; 4];
        self.get_integeri_v(target, index, &mut v);
        v
    }
    fn get_float4_i(&mut self, target: GLenum, index: GLuint) -> [f32; 4] {
        let mut v = [-1.0; 4];
        self.get_floati_v(target, index, &mut v);
        v
    }
    fn get_double2_i(&mut self, target: GLenum, index: GLuint) -> [f64; 2] {
        let mut v = [-1.0; 2];
        self.get_doublei_v(target, index, &mut v);
        v
    }
    fn is_enabled_i(&mut self, cap: GLenum, index: GLuint) -> bool {
        self.is_enabledi(cap, index) != 0
    }
    fn is_enabled_cap(&mut self, cap: GLenum) -> bool {
        self.is_enabled(cap) != 0
    }
}

/// A native entry point by name (the context is current on this thread).
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl ViewportGl for NativeGl {
    fn viewport_arrayv(&mut self, first: GLuint, count: GLsizei, v: &[f32]) {
        let f: unsafe extern "system" fn(GLuint, GLsizei, *mut f32) =
            native(self, "glViewportArrayv");
        // Mesa clamps the values in the caller's array: give it a copy it may write.
        let mut v = v.to_vec();
        // SAFETY: the context is current; `v` holds the values the call reads and writes
        // (the scenes pass as many as `count` names, or make a call that fails first).
        unsafe { f(first, count, v.as_mut_ptr()) }
    }
    fn viewport_indexedf(&mut self, index: GLuint, x: f32, y: f32, w: f32, h: f32) {
        let f: unsafe extern "system" fn(GLuint, f32, f32, f32, f32) =
            native(self, "glViewportIndexedf");
        // SAFETY: the context is current; plain values.
        unsafe { f(index, x, y, w, h) }
    }
    fn scissor_arrayv(&mut self, first: GLuint, count: GLsizei, v: &[i32]) {
        let f: unsafe extern "system" fn(GLuint, GLsizei, *mut i32) =
            native(self, "glScissorArrayv");
        let mut v = v.to_vec();
        // SAFETY: as in `viewport_arrayv`.
        unsafe { f(first, count, v.as_mut_ptr()) }
    }
    fn scissor_indexed(&mut self, index: GLuint, x: i32, y: i32, w: i32, h: i32) {
        let f: unsafe extern "system" fn(GLuint, i32, i32, i32, i32) =
            native(self, "glScissorIndexed");
        // SAFETY: the context is current; plain values.
        unsafe { f(index, x, y, w, h) }
    }
    fn depth_range_arrayv(&mut self, first: GLuint, count: GLsizei, v: &[f64]) {
        let f: unsafe extern "system" fn(GLuint, GLsizei, *mut f64) =
            native(self, "glDepthRangeArrayv");
        let mut v = v.to_vec();
        // SAFETY: as in `viewport_arrayv`.
        unsafe { f(first, count, v.as_mut_ptr()) }
    }
    fn depth_range_indexed(&mut self, index: GLuint, near: f64, far: f64) {
        let f: unsafe extern "system" fn(GLuint, f64, f64) = native(self, "glDepthRangeIndexed");
        // SAFETY: the context is current; plain values.
        unsafe { f(index, near, far) }
    }
    fn get_integer4_i(&mut self, target: GLenum, index: GLuint) -> [i32; 4] {
        let f: unsafe extern "system" fn(GLenum, GLuint, *mut i32) =
            native(self, "glGetIntegeri_v");
        let mut v = [-1; 4];
        // SAFETY: the context is current; room for the four values any target here has.
        unsafe { f(target, index, v.as_mut_ptr()) };
        v
    }
    fn get_float4_i(&mut self, target: GLenum, index: GLuint) -> [f32; 4] {
        let f: unsafe extern "system" fn(GLenum, GLuint, *mut f32) = native(self, "glGetFloati_v");
        let mut v = [-1.0; 4];
        // SAFETY: as above.
        unsafe { f(target, index, v.as_mut_ptr()) };
        v
    }
    fn get_double2_i(&mut self, target: GLenum, index: GLuint) -> [f64; 2] {
        let f: unsafe extern "system" fn(GLenum, GLuint, *mut f64) = native(self, "glGetDoublei_v");
        let mut v = [-1.0; 4];
        // SAFETY: as above (room for four, the scenes ask two-valued targets).
        unsafe { f(target, index, v.as_mut_ptr()) };
        [v[0], v[1]]
    }
    fn is_enabled_i(&mut self, cap: GLenum, index: GLuint) -> bool {
        let f: unsafe extern "system" fn(GLenum, GLuint) -> GLboolean =
            native(self, "glIsEnabledi");
        // SAFETY: the context is current; plain values.
        unsafe { f(cap, index) != 0 }
    }
    fn is_enabled_cap(&mut self, cap: GLenum) -> bool {
        let f: unsafe extern "system" fn(GLenum) -> GLboolean = native(self, "glIsEnabled");
        // SAFETY: as above.
        unsafe { f(cap) != 0 }
    }
}

const SIZE: i32 = 32;

const VS: &str = "#version 330
layout(location = 0) in vec3 position;
void main() { gl_Position = vec4(position, 1.0); }
";

/// Each triangle four times, into viewport 0 to 3, each copy its own colour.
const GS_410: &str = "#version 410
layout(triangles) in;
layout(triangle_strip, max_vertices = 12) out;
out vec4 color;
const vec4 colors[4] = vec4[4](vec4(1, 0, 0, 1), vec4(0, 1, 0, 1), vec4(0, 0, 1, 1),
                               vec4(1, 1, 0, 1));
void main() {
    for (int v = 0; v < 4; v++) {
        for (int i = 0; i < 3; i++) {
            gl_Position = gl_in[i].gl_Position;
            gl_ViewportIndex = v;
            color = colors[v];
            EmitVertex();
        }
        EndPrimitive();
    }
}
";

/// The same through GLSL 3.30 and the extension, in reverse order of viewports.
const GS_330: &str = "#version 330
#extension GL_ARB_viewport_array : require
layout(triangles) in;
layout(triangle_strip, max_vertices = 12) out;
out vec4 color;
void main() {
    for (int v = 3; v >= 0; v--) {
        for (int i = 0; i < 3; i++) {
            gl_Position = gl_in[i].gl_Position;
            gl_ViewportIndex = v;
            color = vec4(0.25 * float(v), 0.5, 1.0 - 0.25 * float(v), 1.0);
            EmitVertex();
        }
        EndPrimitive();
    }
}
";

const FS: &str = "#version 330
in vec4 color;
layout(location = 0) out vec4 out0;
void main() { out0 = color; }
";

/// A fragment stage without a geometry stage before it (ES 3.0 has none).
const FS_PLAIN: &str = "#version 330
layout(location = 0) out vec4 out0;
void main() { out0 = vec4(1.0); }
";

fn shader(gl: &mut dyn ViewportGl, kind: GLenum, src: &str) -> GLuint {
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

fn program(gl: &mut dyn ViewportGl, gs: &str) -> GLuint {
    let p = gl.create_program();
    for (kind, src) in [
        (VERTEX_SHADER, VS),
        (GEOMETRY_SHADER, gs),
        (FRAGMENT_SHADER, FS),
    ] {
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
    p
}

/// The triangle (depth varying across it), a framebuffer of an RGBA8 colour and a 32-bit
/// float depth renderbuffer, and the program of `gs` in use.
fn setup(gl: &mut dyn ViewportGl, gs: &str) {
    let p = program(gl, gs);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let triangle: Vec<u8> = [-0.9f32, -0.9, -0.5, 0.9, -0.7, 0.0, -0.2, 0.9, 0.75]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    gl.buffer_data(ARRAY_BUFFER, triangle.len(), Some(&triangle), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 3, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let fbo = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fbo);
    for (attachment, format) in [
        (COLOR_ATTACHMENT0, RGBA8),
        (DEPTH_ATTACHMENT, DEPTH_COMPONENT32F),
    ] {
        let rb = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, rb);
        gl.renderbuffer_storage(RENDERBUFFER, format, SIZE, SIZE);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, attachment, RENDERBUFFER, rb);
    }
    assert_eq!(gl.get_error(), NO_ERROR);
}

/// Four viewports in the quadrants, each scissored to a different part of itself (the
/// test off for viewport 2) and with its own depth range (viewport 2's reversed).
fn per_viewport_state(gl: &mut dyn ViewportGl) {
    let h = (SIZE / 2) as f32;
    gl.viewport_arrayv(
        0,
        4,
        &[0.0, 0.0, h, h, h, 0.0, h, h, 0.0, h, h, h, h, h, h, h],
    );
    let q = SIZE / 2;
    gl.scissor_arrayv(0, 2, &[2, 3, 10, 12, q + 4, 0, 8, 16]);
    gl.scissor_indexed(2, 0, 0, 1, 1);
    gl.scissor_indexed(3, q + 1, q + 5, 14, 6);
    gl.enable(SCISSOR_TEST);
    gl.disablei(SCISSOR_TEST, 2);
    gl.depth_range_arrayv(0, 2, &[0.0, 1.0, 0.25, 0.5]);
    gl.depth_range_indexed(2, 0.75, 0.25);
    gl.depth_range_indexed(3, 0.5, 0.625);
    gl.enable(DEPTH_TEST);
    gl.depth_func(LESS);
}

/// The colour and depth of every pixel.
fn read(gl: &mut dyn ViewportGl) -> (Vec<u8>, Vec<u32>) {
    let mut color = vec![0u8; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut color);
    let mut depth = vec![0u8; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, DEPTH_COMPONENT, FLOAT, &mut depth);
    let depth = depth
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    (color, depth)
}

/// Clears (scissored by rectangle 0 only, as GL says) and draws.
fn frame(gl: &mut dyn ViewportGl) {
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear_depth(1.0);
    gl.disable(SCISSOR_TEST);
    gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
    per_viewport_state(gl);
    gl.draw_arrays(TRIANGLES, 0, 3);
}

/// Draws with `gs`: per-viewport state, then `glViewport`, `glScissor` and `glDepthRange`
/// setting every index alike again; the pixels and depths after each.
fn draws(gl: &mut dyn ViewportGl, gs: &str) -> Vec<(Vec<u8>, Vec<u32>)> {
    setup(gl, gs);
    let mut out = Vec::new();
    frame(gl);
    out.push(read(gl));
    // A clear scissored by rectangle 0 (enabled) over the drawing.
    gl.clear_color(0.5, 0.5, 0.5, 0.5);
    gl.clear(COLOR_BUFFER_BIT);
    out.push(read(gl));
    // The non-indexed calls: every viewport the whole target, every scissor one box, so
    // the four copies land on each other (the last drawn wins where depths tie).
    gl.disable(SCISSOR_TEST);
    gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
    gl.viewport(0, 0, SIZE, SIZE);
    gl.scissor(4, 4, 20, 20);
    gl.enablei(SCISSOR_TEST, 1);
    gl.depth_range(0.25, 0.75);
    gl.draw_arrays(TRIANGLES, 0, 3);
    out.push(read(gl));
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn ViewportGl) -> T) {
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
}

/// The pixel at (x, y) of a colour read-back.
fn at(p: &[u8], x: i32, y: i32) -> [u8; 4] {
    let i = ((y * SIZE + x) * 4) as usize;
    [p[i], p[i + 1], p[i + 2], p[i + 3]]
}

#[test]
fn a_geometry_shader_routes_a_triangle_into_four_viewports_as_natively() {
    compare(|gl| {
        let got = draws(gl, GS_410);
        let (color, _) = &got[0];
        // Each quadrant holds its own copy (scissored), viewport 2's unscissored.
        assert_eq!(at(color, 6, 8), [255, 0, 0, 255]);
        assert_eq!(at(color, 1, 1), [0, 0, 0, 0], "outside scissor 0");
        assert_eq!(at(color, 20, 8), [0, 255, 0, 255]);
        assert_eq!(at(color, 6, 24), [0, 0, 255, 255]);
        assert_eq!(at(color, 22, 23), [255, 255, 0, 255]);
        got
    });
}

#[test]
fn glsl_330_writes_gl_viewport_index_with_the_extension_as_natively() {
    compare(|gl| draws(gl, GS_330));
}

/// Every indexed call and query, with the error each raised: Mesa's clamping, rounding and
/// errors.
fn transcript(gl: &mut dyn ViewportGl) -> Vec<String> {
    let mut out = Vec::new();
    macro_rules! log {
        ($($what:tt)*) => {{
            let v = format!($($what)*);
            let e = gl.get_error();
            out.push(format!("{v} -> {e:#x}"));
        }};
    }
    let mut i = [0; 4];
    let mut f = [0.0f32; 4];
    for pname in [
        MAX_VIEWPORTS,
        VIEWPORT_SUBPIXEL_BITS,
        VIEWPORT_INDEX_PROVOKING_VERTEX,
        LAYER_PROVOKING_VERTEX,
    ] {
        gl.get_integerv(pname, &mut i[..1]);
        log!("{pname:#x} {}", i[0]);
    }
    gl.get_floatv(VIEWPORT_BOUNDS_RANGE, &mut f[..2]);
    log!("bounds {:?}", &f[..2]);
    // Every index starts at the surface's size.
    for index in [0, 5, 15] {
        log!("viewport {index} {:?}", gl.get_integer4_i(VIEWPORT, index));
        log!(
            "scissor {index} {:?}",
            gl.get_integer4_i(SCISSOR_BOX, index)
        );
        log!("depth {index} {:?}", gl.get_double2_i(DEPTH_RANGE, index));
        log!(
            "scissor test {index} {}",
            gl.is_enabled_i(SCISSOR_TEST, index)
        );
    }
    // Fractions round away from zero for integer queries; corners clamp to the bounds,
    // sizes to MAX_VIEWPORT_DIMS.
    gl.viewport_indexedf(2, 1.5, -2.5, 10.5, 3.49);
    log!("indexedf 2");
    log!("viewport 2 {:?}", gl.get_integer4_i(VIEWPORT, 2));
    log!("viewport 2 {:?}", gl.get_float4_i(VIEWPORT, 2));
    gl.viewport_indexedf(3, -40000.0, 40000.0, 1e9, 1e9);
    log!("viewport 3 {:?}", gl.get_float4_i(VIEWPORT, 3));
    gl.viewport_indexedf(4, -1.5, -2.5, 3.5, 4.5);
    log!("viewport 4 {:?}", gl.get_integer4_i(VIEWPORT, 4));
    gl.viewport_indexedf(16, 0.0, 0.0, 1.0, 1.0);
    log!("indexedf 16");
    gl.viewport_indexedf(0, 0.0, 0.0, 1.0, -1.0);
    log!("indexedf negative height");
    log!("viewport 16 {:?}", gl.get_integer4_i(VIEWPORT, 16));
    // Arrays: first + count past 16, a negative size in the second rectangle (sets
    // neither), and Mesa's unsigned sum of first and a negative count (1 + -1 passes and
    // sets nothing, 0 + -1 does not).
    gl.viewport_arrayv(14, 3, &[0.0; 12]);
    log!("arrayv 14+3");
    gl.viewport_arrayv(6, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, -7.0, 8.0]);
    log!("arrayv negative");
    log!("viewport 6 {:?}", gl.get_float4_i(VIEWPORT, 6));
    gl.viewport_arrayv(1, -1, &[0.0; 4]);
    log!("arrayv 1, -1");
    gl.viewport_arrayv(0, -1, &[0.0; 4]);
    log!("arrayv 0, -1");
    gl.viewport_arrayv(6, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
    log!("viewport 7 {:?}", gl.get_float4_i(VIEWPORT, 7));
    // Scissors.
    gl.scissor_indexed(1, -5, -6, 7, 8);
    log!("scissor 1 {:?}", gl.get_integer4_i(SCISSOR_BOX, 1));
    gl.scissor_indexed(1, 0, 0, -7, 8);
    log!("scissor negative");
    gl.scissor_indexed(16, 0, 0, 1, 1);
    log!("scissor 16");
    gl.scissor_arrayv(15, 2, &[0; 8]);
    log!("scissor arrayv 15+2");
    gl.scissor_arrayv(9, 2, &[1, 2, 3, 4, 5, 6, 7, -8]);
    log!("scissor arrayv negative");
    gl.scissor_arrayv(9, 2, &[1, 2, 3, 4, 5, 6, 7, 8]);
    log!("scissor 10 {:?}", gl.get_integer4_i(SCISSOR_BOX, 10));
    log!("scissor 10 {:?}", gl.get_float4_i(SCISSOR_BOX, 10));
    log!("scissor 10 {:?}", gl.get_double2_i(SCISSOR_BOX, 10));
    // Depth ranges clamp to [0, 1]; integer queries of them round.
    gl.depth_range_indexed(2, 0.25, 0.75);
    log!("depth 2 {:?}", gl.get_integer4_i(DEPTH_RANGE, 2));
    log!("depth 2 {:?}", gl.get_float4_i(DEPTH_RANGE, 2));
    gl.depth_range_indexed(1, -0.5, 2.0);
    log!("depth 1 {:?}", gl.get_double2_i(DEPTH_RANGE, 1));
    gl.depth_range_indexed(16, 0.5, 0.5);
    log!("depth 16");
    gl.depth_range_arrayv(15, 2, &[0.0; 4]);
    log!("depth arrayv 15+2");
    gl.depth_range_arrayv(0, -1, &[0.0; 2]);
    log!("depth arrayv 0, -1");
    gl.depth_range_arrayv(11, 2, &[0.125, 0.875, 1.5, -1.0]);
    log!("depth 12 {:?}", gl.get_double2_i(DEPTH_RANGE, 12));
    // The non-indexed queries read index 0.
    gl.get_floatv(DEPTH_RANGE, &mut f[..2]);
    log!("depth range {:?}", &f[..2]);
    // The scissor test per index.
    gl.enablei(SCISSOR_TEST, 3);
    log!(
        "enablei 3: {} {} {}",
        gl.is_enabled_i(SCISSOR_TEST, 3),
        gl.is_enabled_cap(SCISSOR_TEST),
        gl.is_enabled_i(SCISSOR_TEST, 4)
    );
    gl.enablei(SCISSOR_TEST, 16);
    log!("enablei 16");
    log!("isenabledi 16 {}", gl.is_enabled_i(SCISSOR_TEST, 16));
    gl.enable(SCISSOR_TEST);
    log!("enable: {}", gl.is_enabled_i(SCISSOR_TEST, 15));
    gl.disablei(SCISSOR_TEST, 0);
    log!(
        "disablei 0: {} {}",
        gl.is_enabled_cap(SCISSOR_TEST),
        gl.is_enabled_i(SCISSOR_TEST, 1)
    );
    log!("scissor test int {:?}", gl.get_integer4_i(SCISSOR_TEST, 0));
    log!("scissor test float {:?}", gl.get_float4_i(SCISSOR_TEST, 0));
    gl.enablei(DEPTH_TEST, 0);
    log!("enablei depth");
    // glViewport, glScissor and glDepthRange set every index.
    gl.viewport(3, 4, 5, 6);
    gl.scissor(7, 8, 9, 10);
    gl.depth_range(0.5, 0.25);
    log!("viewport 15 {:?}", gl.get_integer4_i(VIEWPORT, 15));
    log!("scissor 15 {:?}", gl.get_integer4_i(SCISSOR_BOX, 15));
    log!("depth 15 {:?}", gl.get_double2_i(DEPTH_RANGE, 15));
    gl.get_integerv(VIEWPORT, &mut i);
    log!("viewport {i:?}");
    gl.get_floatv(VIEWPORT, &mut f);
    log!("viewport {f:?}");
    // Other indexed state through the float and double queries.
    log!("blend src {:?}", gl.get_float4_i(BLEND_SRC_RGB, 0)[0]);
    log!("color mask {:?}", gl.get_float4_i(COLOR_WRITEMASK, 1));
    log!("blend 9 {:?}", gl.get_double2_i(BLEND_SRC_RGB, 9));
    out
}

#[test]
fn indexed_viewport_calls_and_queries_match_the_native_driver() {
    compare(|gl| {
        let t = transcript(gl);
        assert_eq!(t.len(), 63);
        assert!(
            t.iter().any(|l| l == "viewport 2 [2, -3, 11, 3] -> 0x0"),
            "{t:#?}"
        );
        t
    });
}

#[test]
fn steady_multi_viewport_frames_make_no_pipelines_on_the_vulkan_backend() {
    tessera_tests::ensure_lavapipe();
    let vk = tessera_backend_vk::VulkanBackend::with_options(&tessera_backend_vk::VkOptions {
        validation: true,
        ..tessera_backend_vk::VkOptions::default()
    })
    .expect("the Vulkan backend (lavapipe) on this machine");
    let probe = vk.probe();
    let config = Config {
        backend: BackendKind::Vulkan,
        transport: TransportKind::Inproc,
        surface: Some(SurfaceConfig::new(SIZE as u32, SIZE as u32)),
        ..Config::default()
    };
    let mut ctx = Context::with_backend(&config, Box::new(vk));
    setup(&mut ctx, GS_410);
    frame(&mut ctx);
    let first = read(&mut ctx);
    let stats = probe.stats();
    for i in 0..5 {
        frame(&mut ctx);
        // Another viewport and scissor each frame: dynamic state, no pipeline.
        ctx.viewport_indexedf(1, 16.0 + i as f32, 0.0, 16.0, 16.0);
        ctx.scissor_indexed(3, 17, 21, 14 - i, 6);
        ctx.draw_arrays(TRIANGLES, 0, 3);
        ctx.flush();
    }
    frame(&mut ctx);
    assert_eq!(read(&mut ctx), first);
    let steady = probe.stats();
    assert_eq!(
        steady.pipelines, stats.pipelines,
        "pipelines made in steady frames"
    );
    assert_eq!(steady.validation_messages, 0);
    assert_eq!(ctx.get_error(), NO_ERROR);
    let events = ctx.take_events();
    assert!(events.is_empty(), "{events:?}");
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

/// `GL_ARB_viewport_array` is advertised where the backend has 16 viewports chosen per
/// primitive: GLES (llvmpipe's `OES_viewport_array`) and Vulkan (`multiViewport`).
#[test]
fn viewport_array_is_advertised_on_both_backends() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        assert!(
            names.iter().any(|e| e == "GL_ARB_viewport_array"),
            "{}: {names:?}",
            backend.name()
        );
    }
}

/// On a GLES driver without `OES_viewport_array` (the backend told to use ES 3.0 and no
/// extension), the extension is not advertised, and viewports that differ are reported as
/// unsupported (viewport 0 applies to all).
#[test]
fn viewport_arrays_are_reported_without_oes_viewport_array_on_gles() {
    let mut ctx = tessera_es30(SIZE, SIZE);
    let names = advertised(&mut ctx);
    assert!(!names.iter().any(|e| e == "GL_ARB_viewport_array"));
    let p = ctx.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS_PLAIN)] {
        let s = shader(&mut ctx, kind, src);
        ctx.attach_shader(p, s);
    }
    ctx.link_program(p);
    ctx.use_program(p);
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    ctx.viewport_indexedf(1, 0.0, 0.0, 8.0, 8.0);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_eq!(ctx.get_error(), NO_ERROR);
    ctx.finish();
    let events = ctx.take_events();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Unsupported { what }
            if what.starts_with("viewport arrays need OES_viewport_array"))),
        "{events:?}"
    );
}

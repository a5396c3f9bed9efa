//! Vertex attribute binding points (GL 4.3's `ARB_vertex_attrib_binding`) against the native
//! driver on both backends (Vulkan with the validation layer on, which must report nothing):
//! interleaved attributes of one binding at relative offsets (float, normalized and integer
//! formats), a second binding of per-instance data whose divisor changes, buffers rebound
//! between draws without touching formats, an attribute moved to another binding, a binding
//! of stride 0, and `glVertexAttribPointer`/`glVertexAttribDivisor` after binding changes
//! (which reset the attribute's binding as GL 4.3 §10.3 defines them). The state queries
//! (`glGetIntegeri_v`/`glGetInteger64i_v` of the `VERTEX_BINDING_*` state,
//! `glGetVertexAttribiv` of the attributes' bindings and relative offsets, the limits) and
//! the errors of misuse must be exactly the native ones. Rebinding a buffer in steady frames
//! makes no pipeline and no wait on the Vulkan backend.

#![expect(
    unsafe_code,
    reason = "the native driver's indexed queries, called through their C signatures"
)]

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The queries these scenes make that the shared [`Gl`] table has no entry for.
trait BindingGl: Gl {
    /// `glGetIntegeri_v`, one value (`i32::MIN` if nothing was written).
    fn integer_i(&mut self, target: GLenum, index: GLuint) -> GLint;
    /// `glGetInteger64i_v`, one value (`i64::MIN` if nothing was written).
    fn integer64_i(&mut self, target: GLenum, index: GLuint) -> GLint64;
    /// `glGetVertexAttribiv`, one value (`i32::MIN` if nothing was written).
    fn vertex_attrib_i(&mut self, index: GLuint, pname: GLenum) -> GLint;
    /// `glDeleteBuffers` of one name.
    fn delete_buffer(&mut self, name: GLuint);
}

impl BindingGl for Context {
    fn integer_i(&mut self, target: GLenum, index: GLuint) -> GLint {
        let mut v = [i32::MIN];
        self.get_integeri_v(target, index, &mut v);
        v[0]
    }
    fn integer64_i(&mut self, target: GLenum, index: GLuint) -> GLint64 {
        let mut v = [i64::MIN];
        self.get_integer64i_v(target, index, &mut v);
        v[0]
    }
    fn vertex_attrib_i(&mut self, index: GLuint, pname: GLenum) -> GLint {
        let mut v = [i32::MIN; 4];
        self.get_vertex_attribiv(index, pname, &mut v);
        v[0]
    }
    fn delete_buffer(&mut self, name: GLuint) {
        self.delete_buffers(1, &[name]);
    }
}

/// `glVertexAttribFormat`'s `normalized` arguments.
const NORMALIZED: GLboolean = TRUE as GLboolean;
const NOT_NORMALIZED: GLboolean = FALSE as GLboolean;

/// Calls one native entry point of signature `F`.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point::<F>(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl BindingGl for NativeGl {
    fn integer_i(&mut self, target: GLenum, index: GLuint) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLuint, *mut GLint);
        let f: F = native(self, "glGetIntegeri_v");
        let mut v = [i32::MIN; 4];
        // SAFETY: the context is current on this thread; these queries write one value.
        unsafe { f(target, index, v.as_mut_ptr()) };
        v[0]
    }
    fn integer64_i(&mut self, target: GLenum, index: GLuint) -> GLint64 {
        type F = unsafe extern "system" fn(GLenum, GLuint, *mut GLint64);
        let f: F = native(self, "glGetInteger64i_v");
        let mut v = [i64::MIN; 4];
        // SAFETY: as above.
        unsafe { f(target, index, v.as_mut_ptr()) };
        v[0]
    }
    fn vertex_attrib_i(&mut self, index: GLuint, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLuint, GLenum, *mut GLint);
        let f: F = native(self, "glGetVertexAttribiv");
        let mut v = [i32::MIN; 4];
        // SAFETY: as above; array state is one value, a current value four.
        unsafe { f(index, pname, v.as_mut_ptr()) };
        v[0]
    }
    fn delete_buffer(&mut self, name: GLuint) {
        type F = unsafe extern "system" fn(GLsizei, *const GLuint);
        let f: F = native(self, "glDeleteBuffers");
        // SAFETY: as above; one name is read.
        unsafe { f(1, &name) };
    }
}

/// A quad per instance at the instance's `offset`, coloured by a normalized attribute whose
/// blue channel is replaced by an integer attribute's first component.
const VS: &str = "#version 330
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 offset;
layout(location = 2) in vec4 color;
layout(location = 3) in uvec2 tag;
flat out vec4 v_color;
void main() {
    v_color = vec4(color.rg, float(tag.x & 255u) / 255.0, color.a);
    gl_Position = vec4(position + offset, 0.0, 1.0);
}
";

const FS: &str = "#version 330
flat in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
";

fn shader(gl: &mut dyn BindingGl, kind: GLenum, src: &str) -> GLuint {
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

fn program(gl: &mut dyn BindingGl) -> GLuint {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)] {
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

/// One interleaved vertex: position (two floats), colour (four normalized bytes), tag (two
/// unsigned shorts): 16 bytes.
fn vertex(x: f32, y: f32, rgba: [u8; 4], tag: [u16; 2]) -> Vec<u8> {
    let mut v = Vec::with_capacity(16);
    v.extend(x.to_le_bytes());
    v.extend(y.to_le_bytes());
    v.extend(rgba);
    v.extend(tag[0].to_le_bytes());
    v.extend(tag[1].to_le_bytes());
    v
}

/// Six interleaved vertices of a quad 0.5 wide at the lower left, the colours and tags
/// drawn from `seed`, and padding so that any attribute of the scene reading at a stride
/// of 8 stays inside the buffer.
fn quad(seed: u8) -> Vec<u8> {
    let corners = [
        (0.0, 0.0),
        (0.5, 0.0),
        (0.0, 0.5),
        (0.5, 0.0),
        (0.5, 0.5),
        (0.0, 0.5),
    ];
    let mut out = Vec::new();
    for (k, (x, y)) in corners.into_iter().enumerate() {
        let c = seed.wrapping_mul(37).wrapping_add(k as u8 * 40);
        out.extend(vertex(
            x - 1.0,
            y - 1.0,
            [c, 255 - c, 0, 255],
            [u16::from(seed) * 20 + k as u16, 7],
        ));
    }
    out.extend([0u8; 32]);
    out
}

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn buffer(gl: &mut dyn BindingGl, data: &[u8]) -> GLuint {
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    gl.buffer_data(ARRAY_BUFFER, data.len(), Some(data), STATIC_DRAW);
    b
}

fn pixels(gl: &mut dyn BindingGl) -> Vec<u8> {
    let mut out = vec![0u8; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut out);
    out
}

/// The buffers of [`draws`].
struct Scene {
    vertices: GLuint,
    other_vertices: GLuint,
    offsets: GLuint,
    colors: GLuint,
    positions: GLuint,
}

/// Program, vertex array and buffers; attributes 0, 2 and 3 read binding 0 (interleaved, at
/// relative offsets 0, 8 and 12), attribute 1 binding 1 (per instance).
fn setup(gl: &mut dyn BindingGl) -> Scene {
    let p = program(gl);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vertices = buffer(gl, &quad(1));
    let other_vertices = buffer(gl, &quad(2));
    let offsets: Vec<f32> = (0..8)
        .flat_map(|k| [0.5 * (k % 4) as f32, 0.5 * (k / 4) as f32])
        .collect();
    let offsets = buffer(gl, &floats(&offsets));
    let colors: Vec<u8> = (0..8u8)
        .flat_map(|k| [k * 30, 200 - k * 20, 0, 255])
        .collect();
    let colors = buffer(gl, &colors);
    let positions: Vec<f32> = [
        (0.0, 0.0),
        (0.5, 0.0),
        (0.0, 0.5),
        (0.5, 0.0),
        (0.5, 0.5),
        (0.0, 0.5),
    ]
    .iter()
    .flat_map(|&(x, y)| [x - 1.0, y - 1.0])
    .chain([0.0; 8])
    .collect();
    let positions = buffer(gl, &floats(&positions));
    gl.bind_buffer(ARRAY_BUFFER, 0);
    gl.vertex_attrib_format(0, 2, FLOAT, NOT_NORMALIZED, 0);
    gl.vertex_attrib_format(2, 4, UNSIGNED_BYTE, NORMALIZED, 8);
    gl.vertex_attrib_i_format(3, 2, UNSIGNED_SHORT, 12);
    gl.vertex_attrib_format(1, 2, FLOAT, NOT_NORMALIZED, 0);
    for attrib in [0, 2, 3] {
        gl.vertex_attrib_binding(attrib, 0);
        gl.enable_vertex_attrib_array(attrib);
    }
    gl.vertex_attrib_binding(1, 1);
    gl.enable_vertex_attrib_array(1);
    gl.bind_vertex_buffer(0, vertices, 0, 16);
    gl.bind_vertex_buffer(1, offsets, 0, 8);
    gl.vertex_binding_divisor(1, 1);
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    Scene {
        vertices,
        other_vertices,
        offsets,
        colors,
        positions,
    }
}

/// One step of [`draws`]: what changes before its draw.
type Step = dyn Fn(&mut dyn BindingGl, &Scene);

/// Draws of the scene, each after a change of bindings or formats on a cleared target: the
/// pixels of each.
fn draws(gl: &mut dyn BindingGl) -> Vec<Vec<u8>> {
    let scene = setup(gl);
    let steps: [&Step; 9] = [
        &|_, _| {},
        // Another buffer for the interleaved binding; formats untouched.
        &|gl, s| gl.bind_vertex_buffer(0, s.other_vertices, 0, 16),
        // The instanced binding advances every second instance, from its second element.
        &|gl, s| {
            gl.vertex_binding_divisor(1, 2);
            gl.bind_vertex_buffer(1, s.offsets, 8, 8);
        },
        // The colour moves to a binding of its own, per instance, at an offset.
        &|gl, s| {
            gl.vertex_attrib_format(2, 4, UNSIGNED_BYTE, NORMALIZED, 0);
            gl.vertex_attrib_binding(2, 2);
            gl.bind_vertex_buffer(2, s.colors, 4, 4);
            gl.vertex_binding_divisor(2, 1);
        },
        // A stride of 0: every vertex and instance reads the same colour.
        &|gl, s| gl.bind_vertex_buffer(2, s.colors, 12, 0),
        // The same, with a relative offset on top of the binding's offset.
        &|gl, _| gl.vertex_attrib_format(2, 4, UNSIGNED_BYTE, NORMALIZED, 8),
        // glVertexAttribPointer puts the colour back on binding 2 with the interleaved
        // buffer at its own stride; glVertexAttribDivisor makes binding 2 per vertex again.
        &|gl, s| {
            gl.bind_buffer(ARRAY_BUFFER, s.vertices);
            gl.vertex_attrib_pointer(2, 4, UNSIGNED_BYTE, true, 16, 8);
            gl.vertex_attrib_divisor(2, 0);
            gl.bind_buffer(ARRAY_BUFFER, 0);
        },
        // glVertexAttribPointer on attribute 0 rebinds binding 0 (packed positions, stride
        // 8), which attribute 3 still reads at its relative offset of 12.
        &|gl, s| {
            gl.bind_buffer(ARRAY_BUFFER, s.positions);
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.bind_buffer(ARRAY_BUFFER, 0);
        },
        // Attribute 3 moves to binding 3 of stride 0 over the other vertices.
        &|gl, s| {
            gl.vertex_attrib_binding(3, 3);
            gl.bind_vertex_buffer(3, s.other_vertices, 16, 0);
        },
    ];
    let mut out = Vec::new();
    for step in steps {
        step(gl, &scene);
        gl.clear(COLOR_BUFFER_BIT);
        gl.draw_arrays_instanced(TRIANGLES, 0, 6, 4);
        out.push(pixels(gl));
        assert_eq!(gl.get_error(), NO_ERROR);
    }
    out
}

/// The binding and attribute state after the scene's draws, then after deleting a bound
/// buffer, then without a vertex array.
fn queries(gl: &mut dyn BindingGl) -> Vec<i64> {
    let scene = setup(gl);
    let mut out = Vec::new();
    // The attributes are read while an array is bound (without one Tessera raises
    // INVALID_OPERATION where Mesa answers its default array's state).
    let read = |gl: &mut dyn BindingGl, out: &mut Vec<i64>, attribs: bool| {
        for binding in 0..5 {
            for target in [
                VERTEX_BINDING_BUFFER,
                VERTEX_BINDING_OFFSET,
                VERTEX_BINDING_STRIDE,
                VERTEX_BINDING_DIVISOR,
            ] {
                out.push(i64::from(gl.integer_i(target, binding)));
                out.push(gl.integer64_i(target, binding));
            }
        }
        for attrib in (0..5).filter(|_| attribs) {
            for pname in [
                VERTEX_ATTRIB_BINDING,
                VERTEX_ATTRIB_RELATIVE_OFFSET,
                VERTEX_ATTRIB_ARRAY_STRIDE,
                VERTEX_ATTRIB_ARRAY_BUFFER_BINDING,
                VERTEX_ATTRIB_ARRAY_DIVISOR,
                VERTEX_ATTRIB_ARRAY_SIZE,
                VERTEX_ATTRIB_ARRAY_TYPE,
                VERTEX_ATTRIB_ARRAY_NORMALIZED,
                VERTEX_ATTRIB_ARRAY_INTEGER,
                VERTEX_ATTRIB_ARRAY_ENABLED,
            ] {
                out.push(i64::from(gl.vertex_attrib_i(attrib, pname)));
            }
        }
        out.push(i64::from(gl.get_error()));
    };
    read(gl, &mut out, true);
    gl.vertex_binding_divisor(1, 3);
    gl.vertex_attrib_binding(2, 4);
    gl.bind_vertex_buffer(4, scene.colors, 1000, 2048);
    gl.vertex_attrib_format(2, BGRA as GLint, UNSIGNED_BYTE, NORMALIZED, 2047);
    gl.bind_buffer(ARRAY_BUFFER, scene.positions);
    gl.vertex_attrib_pointer(3, 3, SHORT, false, 0, 4);
    read(gl, &mut out, true);
    // Deleting a buffer unbinds it from the bound array's binding points.
    gl.delete_buffer(scene.vertices);
    gl.delete_buffer(scene.colors);
    read(gl, &mut out, true);
    gl.bind_vertex_array(0);
    read(gl, &mut out, false);
    for pname in [
        MAX_VERTEX_ATTRIB_BINDINGS,
        MAX_VERTEX_ATTRIB_RELATIVE_OFFSET,
        MAX_VERTEX_ATTRIB_STRIDE,
    ] {
        let mut v = [0];
        gl.get_integerv(pname, &mut v);
        out.push(i64::from(v[0]));
    }
    out
}

/// The errors of misuse, in order.
fn errors(gl: &mut dyn BindingGl) -> Vec<GLenum> {
    let mut e = Vec::new();
    let check = |gl: &mut dyn BindingGl, e: &mut Vec<GLenum>| e.push(gl.get_error());
    let b = gl.gen_buffer();
    // No vertex array bound: every setter, before any other check.
    gl.bind_vertex_buffer(99, b, -1, -1);
    check(gl, &mut e);
    gl.vertex_attrib_format(99, 9, 0, NOT_NORMALIZED, 5000);
    check(gl, &mut e);
    gl.vertex_attrib_i_format(99, 9, 0, 5000);
    check(gl, &mut e);
    gl.vertex_attrib_binding(99, 99);
    check(gl, &mut e);
    gl.vertex_binding_divisor(99, 1);
    check(gl, &mut e);
    // The queries answer the initial state there, and check the index.
    e.push(gl.integer_i(VERTEX_BINDING_STRIDE, 0) as GLenum);
    check(gl, &mut e);
    gl.integer_i(VERTEX_BINDING_STRIDE, 16);
    check(gl, &mut e);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    // glBindVertexBuffer: index, offset, stride (negative, past the limit), then the name.
    gl.bind_vertex_buffer(16, b, 0, 0);
    check(gl, &mut e);
    gl.bind_vertex_buffer(0, b, -4, 0);
    check(gl, &mut e);
    gl.bind_vertex_buffer(0, b, 0, -4);
    check(gl, &mut e);
    gl.bind_vertex_buffer(0, b, 0, 2049);
    check(gl, &mut e);
    gl.bind_vertex_buffer(0, 4242, 0, 16);
    check(gl, &mut e);
    gl.bind_vertex_buffer(15, b, 3, 2048);
    check(gl, &mut e);
    gl.bind_vertex_buffer(15, 0, 0, 0);
    check(gl, &mut e);
    // glVertexAttribFormat: index, type, size, BGRA rules, packed sizes, relative offset.
    gl.vertex_attrib_format(16, 4, FLOAT, NOT_NORMALIZED, 0);
    check(gl, &mut e);
    gl.vertex_attrib_format(0, 4, RGBA, NOT_NORMALIZED, 0);
    check(gl, &mut e);
    gl.vertex_attrib_format(0, 5, FLOAT, NOT_NORMALIZED, 0);
    check(gl, &mut e);
    gl.vertex_attrib_format(0, 0, FLOAT, NOT_NORMALIZED, 0);
    check(gl, &mut e);
    gl.vertex_attrib_format(0, BGRA as GLint, FLOAT, NORMALIZED, 0);
    check(gl, &mut e);
    gl.vertex_attrib_format(0, BGRA as GLint, UNSIGNED_BYTE, NOT_NORMALIZED, 0);
    check(gl, &mut e);
    gl.vertex_attrib_format(0, 3, INT_2_10_10_10_REV, NORMALIZED, 0);
    check(gl, &mut e);
    gl.vertex_attrib_format(0, 4, FLOAT, NOT_NORMALIZED, 2048);
    check(gl, &mut e);
    gl.vertex_attrib_format(0, 4, FLOAT, NOT_NORMALIZED, 2047);
    check(gl, &mut e);
    gl.vertex_attrib_format(0, BGRA as GLint, UNSIGNED_INT_2_10_10_10_REV, NORMALIZED, 0);
    check(gl, &mut e);
    // glVertexAttribIFormat: integer types only, no BGRA.
    gl.vertex_attrib_i_format(0, 4, FLOAT, 0);
    check(gl, &mut e);
    gl.vertex_attrib_i_format(0, BGRA as GLint, UNSIGNED_BYTE, 0);
    check(gl, &mut e);
    gl.vertex_attrib_i_format(0, 4, INT_2_10_10_10_REV, 0);
    check(gl, &mut e);
    gl.vertex_attrib_i_format(16, 4, INT, 0);
    check(gl, &mut e);
    gl.vertex_attrib_i_format(0, 4, INT, 2048);
    check(gl, &mut e);
    gl.vertex_attrib_i_format(0, 1, UNSIGNED_SHORT, 6);
    check(gl, &mut e);
    // glVertexAttribBinding and glVertexBindingDivisor: the indices.
    gl.vertex_attrib_binding(16, 0);
    check(gl, &mut e);
    gl.vertex_attrib_binding(0, 16);
    check(gl, &mut e);
    gl.vertex_attrib_binding(15, 15);
    check(gl, &mut e);
    gl.vertex_binding_divisor(16, 1);
    check(gl, &mut e);
    gl.vertex_binding_divisor(15, 7);
    check(gl, &mut e);
    // The queries' indices; glVertexAttribPointer's stride limit.
    gl.integer64_i(VERTEX_BINDING_OFFSET, 16);
    check(gl, &mut e);
    gl.vertex_attrib_i(16, VERTEX_ATTRIB_BINDING);
    check(gl, &mut e);
    gl.bind_buffer(ARRAY_BUFFER, b);
    gl.vertex_attrib_pointer(0, 4, FLOAT, false, 2049, 0);
    check(gl, &mut e);
    gl.vertex_attrib_pointer(0, 4, FLOAT, false, 2048, 0);
    check(gl, &mut e);
    e
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn BindingGl) -> T) {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = scene(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            // A record the wire refused would have ended the session.
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

#[test]
fn shared_bindings_draw_as_the_native_driver_draws() {
    compare(|gl| {
        let got = draws(gl);
        // Every step drew something, and each change changed the picture.
        for (i, p) in got.iter().enumerate() {
            assert!(p.iter().any(|b| *b != 0), "step {i} drew nothing");
            if i > 0 {
                assert_ne!(*p, got[i - 1], "step {i} changed nothing");
            }
        }
        got
    });
}

#[test]
fn binding_queries_match_the_native_driver() {
    compare(queries);
}

#[test]
fn binding_errors_match_the_native_driver() {
    compare(|gl| {
        let e = errors(gl);
        assert_eq!(e[..5], [INVALID_OPERATION; 5], "no vertex array");
        e
    });
}

/// On a GLES driver without ES 3.1 (the backend told to use ES 3.0 and no extension), a
/// binding of stride 0 is drawn with the largest instance divisor instead of the binding
/// API: the same pixels, nothing reported.
#[test]
fn shared_bindings_draw_the_same_without_es31() {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = draws(&mut native);
    drop(native);
    let mut ctx = tessera_es30(16, 16);
    assert_eq!(draws(&mut ctx), expected);
    let events = ctx.take_events();
    assert!(events.is_empty(), "{events:?}");
}

/// Rebinding the interleaved binding between the two vertex buffers in steady frames makes
/// no pipeline and no wait on the Vulkan backend: formats are untouched, so only the
/// attributes' buffers change.
#[test]
fn rebinding_buffers_in_steady_frames_makes_no_pipeline_on_the_vulkan_backend() {
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
        surface: Some(SurfaceConfig::new(16, 16)),
        ..Config::default()
    };
    let mut ctx = Context::with_backend(&config, Box::new(vk));
    let scene = setup(&mut ctx);
    let frame = |ctx: &mut Context, vertices: GLuint| {
        ctx.bind_vertex_buffer(0, vertices, 0, 16);
        ctx.clear(COLOR_BUFFER_BIT);
        ctx.draw_arrays_instanced(TRIANGLES, 0, 6, 4);
        ctx.flush();
    };
    frame(&mut ctx, scene.vertices);
    frame(&mut ctx, scene.other_vertices);
    let other = pixels(&mut ctx);
    let (stats, waits) = (probe.stats(), ctx.transport_stats().blocking_waits);
    for _ in 0..3 {
        frame(&mut ctx, scene.vertices);
        frame(&mut ctx, scene.other_vertices);
    }
    assert_eq!(
        ctx.transport_stats().blocking_waits,
        waits,
        "steady frames waited"
    );
    assert_eq!(pixels(&mut ctx), other);
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

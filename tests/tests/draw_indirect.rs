//! Indirect draws, multi-draw indirect and base instances (GL 4.0, 4.3, 4.2) against the
//! native driver on both backends (Vulkan with the validation layer on, which must report
//! nothing): commands read from a `DRAW_INDIRECT_BUFFER`, several at a stride, base
//! instances feeding instanced attributes (and not `gl_InstanceID`), a command written by a
//! compute shader and drawn at once, the errors in Mesa's order, and steady frames of
//! indirect draws that neither wait nor make pipelines. Pixels and errors must be exactly
//! the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's GL 4.0-4.3 entry points, called through their C signatures"
)]

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_stages;

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
trait IndirectGl: Gl {
    fn draw_arrays_indirect(&mut self, mode: GLenum, offset: usize);
    fn draw_elements_indirect(&mut self, mode: GLenum, ty: GLenum, offset: usize);
    fn multi_draw_arrays_indirect(
        &mut self,
        mode: GLenum,
        offset: usize,
        n: GLsizei,
        stride: GLsizei,
    );
    fn multi_draw_elements_indirect(
        &mut self,
        mode: GLenum,
        ty: GLenum,
        offset: usize,
        n: GLsizei,
        stride: GLsizei,
    );
    fn draw_arrays_base_instance(
        &mut self,
        mode: GLenum,
        first: GLint,
        count: GLsizei,
        instances: GLsizei,
        base: GLuint,
    );
    fn draw_elements_base_instance(
        &mut self,
        mode: GLenum,
        count: GLsizei,
        offset: usize,
        instances: GLsizei,
        base: GLuint,
    );
    fn draw_elements_base_vertex_base_instance(
        &mut self,
        mode: GLenum,
        count: GLsizei,
        offset: usize,
        instances: GLsizei,
        base_vertex: GLint,
        base: GLuint,
    );
    /// `glMapBufferRange` for reading (the mapping stays until [`IndirectGl::unmap`]).
    fn map_for_reading(&mut self, target: GLenum, length: usize);
    /// `glUnmapBuffer`.
    fn unmap(&mut self, target: GLenum);
}

impl IndirectGl for Context {
    fn draw_arrays_indirect(&mut self, mode: GLenum, offset: usize) {
        Context::draw_arrays_indirect(self, mode, offset)
    }
    fn draw_elements_indirect(&mut self, mode: GLenum, ty: GLenum, offset: usize) {
        Context::draw_elements_indirect(self, mode, ty, offset)
    }
    fn multi_draw_arrays_indirect(
        &mut self,
        mode: GLenum,
        offset: usize,
        n: GLsizei,
        stride: GLsizei,
    ) {
        Context::multi_draw_arrays_indirect(self, mode, offset, n, stride)
    }
    fn multi_draw_elements_indirect(
        &mut self,
        mode: GLenum,
        ty: GLenum,
        offset: usize,
        n: GLsizei,
        stride: GLsizei,
    ) {
        Context::multi_draw_elements_indirect(self, mode, ty, offset, n, stride)
    }
    fn draw_arrays_base_instance(
        &mut self,
        mode: GLenum,
        first: GLint,
        count: GLsizei,
        instances: GLsizei,
        base: GLuint,
    ) {
        self.draw_arrays_instanced_base_instance(mode, first, count, instances, base)
    }
    fn draw_elements_base_instance(
        &mut self,
        mode: GLenum,
        count: GLsizei,
        offset: usize,
        instances: GLsizei,
        base: GLuint,
    ) {
        self.draw_elements_instanced_base_instance(
            mode,
            count,
            UNSIGNED_INT,
            offset,
            instances,
            base,
        )
    }
    fn draw_elements_base_vertex_base_instance(
        &mut self,
        mode: GLenum,
        count: GLsizei,
        offset: usize,
        instances: GLsizei,
        base_vertex: GLint,
        base: GLuint,
    ) {
        self.draw_elements_instanced_base_vertex_base_instance(
            mode,
            count,
            UNSIGNED_INT,
            offset,
            instances,
            base_vertex,
            base,
        )
    }
    fn map_for_reading(&mut self, target: GLenum, length: usize) {
        self.map_buffer_range(target, 0, length as isize, MAP_READ_BIT);
    }
    fn unmap(&mut self, target: GLenum) {
        self.unmap_buffer(target);
    }
}

/// Calls one native entry point of signature `F`.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point::<F>(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl IndirectGl for NativeGl {
    fn draw_arrays_indirect(&mut self, mode: GLenum, offset: usize) {
        type F = unsafe extern "system" fn(GLenum, usize);
        let f: F = native(self, "glDrawArraysIndirect");
        // SAFETY: the context is current on this thread; the offset is a buffer offset.
        unsafe { f(mode, offset) }
    }
    fn draw_elements_indirect(&mut self, mode: GLenum, ty: GLenum, offset: usize) {
        type F = unsafe extern "system" fn(GLenum, GLenum, usize);
        let f: F = native(self, "glDrawElementsIndirect");
        // SAFETY: as above.
        unsafe { f(mode, ty, offset) }
    }
    fn multi_draw_arrays_indirect(
        &mut self,
        mode: GLenum,
        offset: usize,
        n: GLsizei,
        stride: GLsizei,
    ) {
        type F = unsafe extern "system" fn(GLenum, usize, GLsizei, GLsizei);
        let f: F = native(self, "glMultiDrawArraysIndirect");
        // SAFETY: as above.
        unsafe { f(mode, offset, n, stride) }
    }
    fn multi_draw_elements_indirect(
        &mut self,
        mode: GLenum,
        ty: GLenum,
        offset: usize,
        n: GLsizei,
        stride: GLsizei,
    ) {
        type F = unsafe extern "system" fn(GLenum, GLenum, usize, GLsizei, GLsizei);
        let f: F = native(self, "glMultiDrawElementsIndirect");
        // SAFETY: as above.
        unsafe { f(mode, ty, offset, n, stride) }
    }
    fn draw_arrays_base_instance(
        &mut self,
        mode: GLenum,
        first: GLint,
        count: GLsizei,
        instances: GLsizei,
        base: GLuint,
    ) {
        type F = unsafe extern "system" fn(GLenum, GLint, GLsizei, GLsizei, GLuint);
        let f: F = native(self, "glDrawArraysInstancedBaseInstance");
        // SAFETY: as above.
        unsafe { f(mode, first, count, instances, base) }
    }
    fn draw_elements_base_instance(
        &mut self,
        mode: GLenum,
        count: GLsizei,
        offset: usize,
        instances: GLsizei,
        base: GLuint,
    ) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, usize, GLsizei, GLuint);
        let f: F = native(self, "glDrawElementsInstancedBaseInstance");
        // SAFETY: as above; the offset is one into the element array buffer.
        unsafe { f(mode, count, UNSIGNED_INT, offset, instances, base) }
    }
    fn draw_elements_base_vertex_base_instance(
        &mut self,
        mode: GLenum,
        count: GLsizei,
        offset: usize,
        instances: GLsizei,
        base_vertex: GLint,
        base: GLuint,
    ) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, usize, GLsizei, GLint, GLuint);
        let f: F = native(self, "glDrawElementsInstancedBaseVertexBaseInstance");
        // SAFETY: as above.
        unsafe {
            f(
                mode,
                count,
                UNSIGNED_INT,
                offset,
                instances,
                base_vertex,
                base,
            )
        }
    }
    fn map_for_reading(&mut self, target: GLenum, length: usize) {
        NativeGl::map_for_reading(self, target, length)
    }
    fn unmap(&mut self, target: GLenum) {
        NativeGl::unmap(self, target)
    }
}

/// A 4x4-pixel square at the cell its instanced `offset` names, coloured by an attribute
/// that advances every second instance; alpha is `gl_InstanceID`, which a base instance
/// does not move.
const VS: &str = "#version 330
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 offset;
layout(location = 2) in vec3 color;
flat out vec4 v_color;
void main() {
    v_color = vec4(color, float(gl_InstanceID + 1) * 0.25);
    gl_Position = vec4(position + offset, 0.0, 1.0);
}
";

const FS: &str = "#version 330
flat in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
";

/// Writes one `DrawArraysIndirectCommand` (6 vertices, 2 instances from instance 3) at
/// word `at` of the buffer bound at binding 0.
const WRITE_COMMAND: &str = "#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Commands { uint words[]; };
uniform uint at;
void main() {
    words[at] = 6u;
    words[at + 1u] = 2u;
    words[at + 2u] = 0u;
    words[at + 3u] = 3u;
}
";

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The indirect buffer: each command at the byte offset its constant names.
const ARRAYS_AT: usize = 0;
const ELEMENTS_AT: usize = 16;
const MULTI_ARRAYS_AT: usize = 36;
const MULTI_ELEMENTS_AT: usize = 100;
const RESTART_AT: usize = 148;

fn commands() -> Vec<u32> {
    let mut w = Vec::new();
    // glDrawArraysIndirect: 6 vertices, 2 instances from instance 1.
    w.extend([6, 2, 0, 1]);
    // glDrawElementsIndirect: 6 indices from index 0, base vertex 0, instance 5.
    w.extend([6, 1, 0, 0, 5]);
    // glMultiDrawArraysIndirect, tightly packed: a command of no vertices among three.
    w.extend([6, 1, 0, 8, 3, 2, 3, 10, 0, 4, 0, 0, 6, 1, 0, 15]);
    // glMultiDrawElementsIndirect at a stride of 24 (a padding word after each).
    w.extend([6, 1, 0, 0, 12, 0xdead, 3, 1, 3, 0, 13, 0xbeef]);
    // A strip that restarts (indices 6..13), instance 6.
    w.extend([7, 1, 6, 0, 6]);
    w
}

/// Builds the scene's objects: program, vertex array, element and indirect buffers.
fn setup(gl: &mut dyn IndirectGl) -> GLuint {
    let p = link_stages(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)]);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let square = [
        0.0f32, 0.0, 0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.5, 0.5, 0.0, 0.5,
    ];
    let offsets: Vec<f32> = (0..16)
        .flat_map(|k| [-1.0 + 0.5 * (k % 4) as f32, -1.0 + 0.5 * (k / 4) as f32])
        .collect();
    let colors: Vec<f32> = (0..8)
        .flat_map(|k| {
            [
                (k & 1) as f32,
                ((k >> 1) & 1) as f32,
                0.25 + 0.25 * ((k >> 2) & 1) as f32,
            ]
        })
        .collect();
    for (index, size, data, divisor) in [
        (0, 2, floats(&square), 0),
        (1, 2, floats(&offsets), 1),
        (2, 3, floats(&colors), 2),
    ] {
        let b = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, b);
        gl.buffer_data(ARRAY_BUFFER, data.len(), Some(&data), STATIC_DRAW);
        gl.vertex_attrib_pointer(index, size, FLOAT, false, 0, 0);
        gl.enable_vertex_attrib_array(index);
        gl.vertex_attrib_divisor(index, divisor);
    }
    let indices = bytes_of(&[0, 1, 2, 3, 4, 5, 0, 1, 2, u32::MAX, 3, 4, 5]);
    let ib = gl.gen_buffer();
    gl.bind_buffer(ELEMENT_ARRAY_BUFFER, ib);
    gl.buffer_data(
        ELEMENT_ARRAY_BUFFER,
        indices.len(),
        Some(&indices),
        STATIC_DRAW,
    );
    let indirect = gl.gen_buffer();
    gl.bind_buffer(DRAW_INDIRECT_BUFFER, indirect);
    let words = bytes_of(&commands());
    gl.buffer_data(DRAW_INDIRECT_BUFFER, words.len(), Some(&words), STATIC_DRAW);
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    indirect
}

fn pixels(gl: &mut dyn IndirectGl) -> Vec<u8> {
    let mut out = vec![0u8; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut out);
    out
}

/// One step of [`draws`].
type Step = dyn Fn(&mut dyn IndirectGl);

/// Every kind of draw of the scene, each on a cleared target: the pixels of each.
fn draws(gl: &mut dyn IndirectGl) -> Vec<Vec<u8>> {
    let indirect = setup(gl);
    let mut binding = [0];
    gl.get_integerv(DRAW_INDIRECT_BUFFER_BINDING, &mut binding);
    assert_eq!(binding[0] as GLuint, indirect);
    let steps: [&Step; 10] = [
        &|gl| gl.draw_arrays_indirect(TRIANGLES, ARRAYS_AT),
        // Overlapping commands 4 bytes apart: the second has no instances.
        &|gl| gl.multi_draw_arrays_indirect(TRIANGLES, MULTI_ARRAYS_AT, 2, 4),
        &|gl| gl.draw_elements_indirect(TRIANGLES, UNSIGNED_INT, ELEMENTS_AT),
        &|gl| gl.multi_draw_arrays_indirect(TRIANGLES, MULTI_ARRAYS_AT, 4, 0),
        &|gl| gl.multi_draw_elements_indirect(TRIANGLES, UNSIGNED_INT, MULTI_ELEMENTS_AT, 2, 24),
        &|gl| {
            gl.enable(PRIMITIVE_RESTART);
            gl.primitive_restart_index(u32::MAX);
            gl.draw_elements_indirect(TRIANGLE_STRIP, UNSIGNED_INT, RESTART_AT);
            gl.disable(PRIMITIVE_RESTART);
        },
        &|gl| gl.multi_draw_arrays_indirect(TRIANGLES, MULTI_ARRAYS_AT, 0, 0),
        &|gl| gl.draw_arrays_base_instance(TRIANGLES, 0, 6, 2, 3),
        &|gl| gl.draw_elements_base_instance(TRIANGLES, 6, 0, 1, 9),
        &|gl| gl.draw_elements_base_vertex_base_instance(TRIANGLES, 3, 0, 2, 3, 11),
    ];
    let mut out = Vec::new();
    for step in steps {
        gl.clear(COLOR_BUFFER_BIT);
        step(gl);
        out.push(pixels(gl));
        assert_eq!(gl.get_error(), NO_ERROR);
    }
    out
}

/// A compute shader writes a command into the indirect buffer, and a draw reads it without
/// the client ever holding its bytes; twice, at two places.
fn compute_then_draw(gl: &mut dyn IndirectGl) -> Vec<Vec<u8>> {
    let indirect = setup(gl);
    let writer = link_stages(gl, &[(COMPUTE_SHADER, WRITE_COMMAND)]);
    let draw = link_stages(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)]);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 0, indirect);
    let at = gl.get_uniform_location(writer, "at");
    let mut out = Vec::new();
    for word in [0u32, 4] {
        gl.use_program(writer);
        gl.uniform1ui(at, word);
        gl.dispatch_compute(1, 1, 1);
        gl.memory_barrier(COMMAND_BARRIER_BIT);
        gl.use_program(draw);
        gl.clear(COLOR_BUFFER_BIT);
        gl.draw_arrays_indirect(TRIANGLES, word as usize * 4);
        out.push(pixels(gl));
    }
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

/// The errors of misuse, in order.
fn errors(gl: &mut dyn IndirectGl) -> Vec<GLenum> {
    let mut e = Vec::new();
    let check = |gl: &mut dyn IndirectGl, e: &mut Vec<GLenum>| e.push(gl.get_error());
    let p = link_stages(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)]);
    gl.use_program(p);
    // No vertex array bound.
    gl.draw_arrays_indirect(TRIANGLES, 0);
    check(gl, &mut e);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    // No indirect buffer bound; a bad mode; a misaligned offset.
    gl.draw_arrays_indirect(TRIANGLES, 0);
    check(gl, &mut e);
    gl.draw_arrays_indirect(0x20, 0);
    check(gl, &mut e);
    gl.draw_arrays_indirect(TRIANGLES, 2);
    check(gl, &mut e);
    let b = gl.gen_buffer();
    gl.bind_buffer(DRAW_INDIRECT_BUFFER, b);
    gl.buffer_data(DRAW_INDIRECT_BUFFER, 40, Some(&[0; 40]), STATIC_DRAW);
    // Past the end, and just inside it.
    gl.draw_arrays_indirect(TRIANGLES, 28);
    check(gl, &mut e);
    gl.draw_arrays_indirect(TRIANGLES, 24);
    check(gl, &mut e);
    // Elements: no element buffer, then a bad type, then past the end.
    gl.draw_elements_indirect(TRIANGLES, UNSIGNED_INT, 0);
    check(gl, &mut e);
    gl.draw_elements_indirect(TRIANGLES, FLOAT, 0);
    check(gl, &mut e);
    let ib = gl.gen_buffer();
    gl.bind_buffer(ELEMENT_ARRAY_BUFFER, ib);
    gl.buffer_data(ELEMENT_ARRAY_BUFFER, 12, Some(&[0; 12]), STATIC_DRAW);
    gl.draw_elements_indirect(TRIANGLES, UNSIGNED_INT, 24);
    check(gl, &mut e);
    gl.draw_elements_indirect(TRIANGLES, UNSIGNED_BYTE, 20);
    check(gl, &mut e);
    // Multi-draws: negative counts, misaligned strides, the last command past the end.
    gl.multi_draw_arrays_indirect(TRIANGLES, 0, -1, 0);
    check(gl, &mut e);
    gl.multi_draw_arrays_indirect(TRIANGLES, 0, 2, 18);
    check(gl, &mut e);
    gl.multi_draw_arrays_indirect(TRIANGLES, 0, 3, 0);
    check(gl, &mut e);
    gl.multi_draw_arrays_indirect(TRIANGLES, 0, 2, 24);
    check(gl, &mut e);
    gl.multi_draw_arrays_indirect(TRIANGLES, 40, 0, 0);
    check(gl, &mut e);
    gl.multi_draw_elements_indirect(TRIANGLES, UNSIGNED_INT, 0, 2, 0);
    check(gl, &mut e);
    gl.multi_draw_elements_indirect(TRIANGLES, UNSIGNED_INT, 0, 2, 22);
    check(gl, &mut e);
    gl.multi_draw_elements_indirect(TRIANGLES, UNSIGNED_INT, 0, 2, 4);
    check(gl, &mut e);
    // A mapped indirect buffer.
    gl.map_for_reading(DRAW_INDIRECT_BUFFER, 40);
    gl.draw_arrays_indirect(TRIANGLES, 0);
    check(gl, &mut e);
    gl.unmap(DRAW_INDIRECT_BUFFER);
    // Base-instance draws take the errors of their plain forms.
    gl.draw_arrays_base_instance(TRIANGLES, 0, -1, 1, 1);
    check(gl, &mut e);
    gl.draw_arrays_base_instance(TRIANGLES, 0, 3, -1, 1);
    check(gl, &mut e);
    gl.draw_elements_base_instance(0x20, 3, 0, 1, 1);
    check(gl, &mut e);
    // A geometry-less incomplete framebuffer.
    let fbo = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fbo);
    gl.draw_arrays_indirect(TRIANGLES, 0);
    check(gl, &mut e);
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    e
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn IndirectGl) -> T) {
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
fn indirect_multi_and_base_instance_draws_match_the_native_driver() {
    compare(|gl| {
        let got = draws(gl);
        // Something was drawn by every step but the empty multi-draw.
        for (i, p) in got.iter().enumerate() {
            assert_eq!(p.iter().any(|b| *b != 0), i != 6, "step {i}");
        }
        got
    });
}

#[test]
fn a_command_written_by_a_compute_shader_is_drawn_as_written() {
    compare(|gl| {
        let got = compute_then_draw(gl);
        assert!(got[0].iter().any(|b| *b != 0));
        got
    });
}

#[test]
fn indirect_draw_errors_match_the_native_driver() {
    compare(|gl| {
        let e = errors(gl);
        assert_eq!(e[0], INVALID_OPERATION, "no vertex array");
        e
    });
}

/// One frame: the multi-draws of the scene, no read-back.
fn frame(gl: &mut dyn IndirectGl) {
    gl.clear(COLOR_BUFFER_BIT);
    gl.multi_draw_arrays_indirect(TRIANGLES, MULTI_ARRAYS_AT, 4, 0);
    gl.multi_draw_elements_indirect(TRIANGLES, UNSIGNED_INT, MULTI_ELEMENTS_AT, 2, 24);
    gl.draw_arrays_indirect(TRIANGLES, ARRAYS_AT);
    gl.flush();
}

#[test]
fn steady_indirect_frames_neither_wait_nor_make_pipelines_on_the_vulkan_backend() {
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
    setup(&mut ctx);
    frame(&mut ctx);
    let first = pixels(&mut ctx);
    let (stats, waits) = (probe.stats(), ctx.transport_stats().blocking_waits);
    for _ in 0..5 {
        frame(&mut ctx);
    }
    assert_eq!(
        ctx.transport_stats().blocking_waits,
        waits,
        "steady indirect frames waited"
    );
    assert_eq!(pixels(&mut ctx), first);
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

/// On a GLES driver without ES 3.1 and `GL_EXT_base_instance` (the backend told to use ES
/// 3.0 and no extension), the backend reads the indirect commands back and moves the
/// instanced arrays by the base instance itself: the same pixels, and nothing reported as
/// unsupported but the base vertex (ES 3.0 has none: the backend rewrites the indices, a
/// known emulation of its own).
#[test]
fn indirect_and_base_instance_draws_match_without_es31_or_ext_base_instance() {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = draws(&mut native);
    drop(native);
    let mut ctx = tessera_es30(16, 16);
    assert_eq!(draws(&mut ctx), expected);
    let events = ctx.take_events();
    assert!(
        events
            .iter()
            .all(|e| matches!(e, Event::Unsupported { what } if what.starts_with("base vertex"))),
        "{events:?}"
    );
}

#[test]
fn indirect_records_cross_a_process_transport() {
    // A private server process (`fork`): the indirect records' handles, offsets and strides
    // go through the wire's validation of another process's bytes.
    let mut native = NativeGl::new(16, 16).expect("native desktop GL");
    let expected = draws(&mut native);
    drop(native);
    for backend in [BackendKind::Gles, BackendKind::Vulkan] {
        tessera_tests::ensure_lavapipe();
        let config = Config {
            backend,
            transport: TransportKind::Fork,
            surface: Some(SurfaceConfig::new(16, 16)),
            ..Config::default()
        };
        let mut ctx = Context::new(&config).expect("a private server");
        assert_eq!(draws(&mut ctx), expected, "{backend:?}");
        let events = ctx.take_events();
        assert!(events.is_empty(), "{backend:?}: {events:?}");
    }
}

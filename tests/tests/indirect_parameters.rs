//! Draw counts read from a buffer (`glMultiDrawArraysIndirectCount`,
//! `glMultiDrawElementsIndirectCount`: GL 4.6's `ARB_indirect_parameters`) against the
//! native driver on both backends (Vulkan with the validation layer on, which must report
//! nothing): counts below, at and above `maxdrawcount`, a count of 0, a count rewritten
//! between two draws of one frame, one written by a compute shader, commands that overlap
//! and draws the backends emulate from the commands' values (a line loop, a restart index
//! below the type's maximum), `gl_DrawID` under a count, `PARAMETER_BUFFER_BINDING`, and
//! the errors in Mesa's order. Pixels, values and errors must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's counted draws, called through their C signatures"
)]

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_stages;

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
trait CountGl: Gl {
    fn multi_draw_arrays_indirect_count(
        &mut self,
        mode: GLenum,
        offset: usize,
        drawcount: isize,
        max: GLsizei,
        stride: GLsizei,
    );
    fn multi_draw_elements_indirect_count(
        &mut self,
        mode: GLenum,
        ty: GLenum,
        offset: usize,
        drawcount: isize,
        max: GLsizei,
        stride: GLsizei,
    );
    /// `glMapBufferRange` for reading (the mapping stays until [`CountGl::unmap`]).
    fn map_for_reading(&mut self, target: GLenum, length: usize);
    /// `glUnmapBuffer`.
    fn unmap(&mut self, target: GLenum);
}

impl CountGl for Context {
    fn multi_draw_arrays_indirect_count(
        &mut self,
        mode: GLenum,
        offset: usize,
        drawcount: isize,
        max: GLsizei,
        stride: GLsizei,
    ) {
        Context::multi_draw_arrays_indirect_count(self, mode, offset, drawcount, max, stride)
    }
    fn multi_draw_elements_indirect_count(
        &mut self,
        mode: GLenum,
        ty: GLenum,
        offset: usize,
        drawcount: isize,
        max: GLsizei,
        stride: GLsizei,
    ) {
        Context::multi_draw_elements_indirect_count(self, mode, ty, offset, drawcount, max, stride)
    }
    fn map_for_reading(&mut self, target: GLenum, length: usize) {
        self.map_buffer_range(target, 0, length as isize, MAP_READ_BIT);
    }
    fn unmap(&mut self, target: GLenum) {
        self.unmap_buffer(target);
    }
}

/// One native entry point of signature `F`.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point::<F>(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl CountGl for NativeGl {
    fn multi_draw_arrays_indirect_count(
        &mut self,
        mode: GLenum,
        offset: usize,
        drawcount: isize,
        max: GLsizei,
        stride: GLsizei,
    ) {
        // llvmpipe is a GL 4.5 driver: the extension's name.
        type F = unsafe extern "system" fn(GLenum, usize, isize, GLsizei, GLsizei);
        let f: F = native(self, "glMultiDrawArraysIndirectCountARB");
        // SAFETY: as above; `drawcount` is an offset into the parameter buffer.
        unsafe { f(mode, offset, drawcount, max, stride) }
    }
    fn multi_draw_elements_indirect_count(
        &mut self,
        mode: GLenum,
        ty: GLenum,
        offset: usize,
        drawcount: isize,
        max: GLsizei,
        stride: GLsizei,
    ) {
        type F = unsafe extern "system" fn(GLenum, GLenum, usize, isize, GLsizei, GLsizei);
        let f: F = native(self, "glMultiDrawElementsIndirectCountARB");
        // SAFETY: as above.
        unsafe { f(mode, ty, offset, drawcount, max, stride) }
    }
    fn map_for_reading(&mut self, target: GLenum, length: usize) {
        NativeGl::map_for_reading(self, target, length)
    }
    fn unmap(&mut self, target: GLenum) {
        NativeGl::unmap(self, target)
    }
}

/// A 4x4-pixel square at the cell its instanced `offset` names, coloured by an attribute
/// that advances every instance.
const VS: &str = "#version 330
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 offset;
layout(location = 2) in vec3 color;
flat out vec4 v_color;
void main() {
    v_color = vec4(color, 1.0);
    gl_Position = vec4(position + offset, 0.0, 1.0);
}
";

/// As [`VS`], the red channel the draw's index among its call's draws.
const VS_DRAW_ID: &str = "#version 330
#extension GL_ARB_shader_draw_parameters : require
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 offset;
layout(location = 2) in vec3 color;
flat out vec4 v_color;
void main() {
    v_color = vec4(float(gl_DrawIDARB) * 0.25, color.gb, 1.0);
    gl_Position = vec4(position + offset, 0.0, 1.0);
}
";

const FS: &str = "#version 330
flat in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
";

/// Writes `value` to word `at` of the buffer bound at binding 0.
const WRITE_COUNT: &str = "#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Counts { uint words[]; };
uniform uint at;
uniform uint value;
void main() { words[at] = value; }
";

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The indirect buffer: four arrays commands, tightly packed, then three elements
/// commands 24 bytes apart, then a strip that restarts.
const ARRAYS_AT: usize = 0;
const ELEMENTS_AT: usize = 64;
const STRIP_AT: usize = 136;

fn commands() -> Vec<u32> {
    let mut w = Vec::new();
    w.extend([6, 1, 0, 1, 6, 2, 0, 4, 3, 1, 3, 9, 6, 1, 0, 15]);
    w.extend([6, 1, 0, 0, 2, 0xdead, 3, 1, 3, 0, 6, 0xbeef]);
    w.extend([6, 1, 0, 0, 12, 0]);
    w.extend([7, 1, 6, 0, 13]);
    w
}

/// The parameter buffer's words: counts at byte offsets 0, 4, ... .
const COUNTS: [u32; 6] = [0, 1, 2, 3, 4, 1000];

/// Builds the scene: program, vertex array, element, indirect and parameter buffers.
fn setup(gl: &mut dyn CountGl, vs: &str) -> GLuint {
    let p = link_stages(gl, &[(VERTEX_SHADER, vs), (FRAGMENT_SHADER, FS)]);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let square = [
        0.0f32, 0.0, 0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.5, 0.5, 0.0, 0.5,
    ];
    let offsets: Vec<f32> = (0..16)
        .flat_map(|k| [-1.0 + 0.5 * (k % 4) as f32, -1.0 + 0.5 * (k / 4) as f32])
        .collect();
    let colors: Vec<f32> = (0..16)
        .flat_map(|k| {
            [
                (k & 1) as f32,
                ((k >> 1) & 1) as f32,
                0.25 + 0.25 * ((k >> 2) & 3) as f32,
            ]
        })
        .collect();
    for (index, size, data) in [
        (0, 2, floats(&square)),
        (1, 2, floats(&offsets)),
        (2, 3, floats(&colors)),
    ] {
        let b = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, b);
        gl.buffer_data(ARRAY_BUFFER, data.len(), Some(&data), STATIC_DRAW);
        gl.vertex_attrib_pointer(index, size, FLOAT, false, 0, 0);
        gl.enable_vertex_attrib_array(index);
        gl.vertex_attrib_divisor(index, u32::from(index != 0));
    }
    let indices = bytes_of(&[0, 1, 2, 3, 4, 5, 0, 1, 2, 7, 3, 4, 5]);
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
    let counts = gl.gen_buffer();
    gl.bind_buffer(PARAMETER_BUFFER, counts);
    let words = bytes_of(&COUNTS);
    gl.buffer_data(PARAMETER_BUFFER, words.len(), Some(&words), DYNAMIC_DRAW);
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    counts
}

fn pixels(gl: &mut dyn CountGl) -> Vec<u8> {
    let mut out = vec![0u8; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut out);
    out
}

/// One step of [`draws`].
type Step = dyn Fn(&mut dyn CountGl);

/// Every kind of counted draw, each on a cleared target: the pixels of each.
fn draws(gl: &mut dyn CountGl, vs: &str) -> Vec<Vec<u8>> {
    let counts = setup(gl, vs);
    let mut binding = [0];
    gl.get_integerv(PARAMETER_BUFFER_BINDING, &mut binding);
    assert_eq!(binding[0] as GLuint, counts);
    let steps: [&Step; 11] = [
        // Counts 0, 1, 3 and 1000 of at most 4 arrays commands.
        &|gl| gl.multi_draw_arrays_indirect_count(TRIANGLES, ARRAYS_AT, 0, 4, 0),
        &|gl| gl.multi_draw_arrays_indirect_count(TRIANGLES, ARRAYS_AT, 4, 4, 0),
        &|gl| gl.multi_draw_arrays_indirect_count(TRIANGLES, ARRAYS_AT, 12, 4, 16),
        &|gl| gl.multi_draw_arrays_indirect_count(TRIANGLES, ARRAYS_AT, 20, 4, 0),
        // A count above a smaller maximum.
        &|gl| gl.multi_draw_arrays_indirect_count(TRIANGLES, ARRAYS_AT, 16, 2, 0),
        // Elements commands 24 bytes apart: 2 of 3.
        &|gl| gl.multi_draw_elements_indirect_count(TRIANGLES, UNSIGNED_INT, ELEMENTS_AT, 8, 3, 24),
        // Overlapping commands 4 bytes apart (each its own call on Vulkan): 2 of 3.
        &|gl| gl.multi_draw_arrays_indirect_count(TRIANGLES, ARRAYS_AT, 8, 3, 4),
        // A line loop (emulated from the commands' values on both backends).
        &|gl| gl.multi_draw_arrays_indirect_count(LINE_LOOP, ARRAYS_AT, 12, 4, 0),
        // A restart index below the type's maximum (rewritten indices): 1 command.
        &|gl| {
            gl.enable(PRIMITIVE_RESTART);
            gl.primitive_restart_index(7);
            gl.multi_draw_elements_indirect_count(TRIANGLE_STRIP, UNSIGNED_INT, STRIP_AT, 4, 1, 0);
            gl.disable(PRIMITIVE_RESTART);
        },
        // The count rewritten between two draws of one frame: each reads its own.
        &|gl| {
            gl.multi_draw_arrays_indirect_count(TRIANGLES, ARRAYS_AT, 0, 4, 0);
            gl.buffer_sub_data(PARAMETER_BUFFER, 0, &2u32.to_le_bytes());
            gl.multi_draw_arrays_indirect_count(TRIANGLES, ARRAYS_AT, 0, 4, 0);
            gl.buffer_sub_data(PARAMETER_BUFFER, 0, &0u32.to_le_bytes());
            gl.multi_draw_arrays_indirect_count(TRIANGLES, ARRAYS_AT, 0, 4, 0);
        },
        // No commands at all.
        &|gl| gl.multi_draw_arrays_indirect_count(TRIANGLES, ARRAYS_AT, 20, 0, 0),
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

/// A compute shader writes the count, and a draw reads it without the client ever holding
/// it; three counts in turn.
fn compute_then_draw(gl: &mut dyn CountGl) -> Vec<Vec<u8>> {
    let counts = setup(gl, VS);
    let writer = link_stages(gl, &[(COMPUTE_SHADER, WRITE_COUNT)]);
    let draw = link_stages(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)]);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 0, counts);
    let (at, value) = (
        gl.get_uniform_location(writer, "at"),
        gl.get_uniform_location(writer, "value"),
    );
    let mut out = Vec::new();
    for count in [3u32, 1, 4] {
        gl.use_program(writer);
        gl.uniform1ui(at, 5);
        gl.uniform1ui(value, count);
        gl.dispatch_compute(1, 1, 1);
        gl.memory_barrier(COMMAND_BARRIER_BIT);
        gl.use_program(draw);
        gl.clear(COLOR_BUFFER_BIT);
        gl.multi_draw_arrays_indirect_count(TRIANGLES, ARRAYS_AT, 20, 4, 0);
        out.push(pixels(gl));
    }
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

/// The errors of misuse, in order, and the binding's state.
fn errors(gl: &mut dyn CountGl) -> Vec<GLenum> {
    let mut e = Vec::new();
    let check = |gl: &mut dyn CountGl, e: &mut Vec<GLenum>| e.push(gl.get_error());
    let p = link_stages(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)]);
    gl.use_program(p);
    let mut binding = [7];
    gl.get_integerv(PARAMETER_BUFFER_BINDING, &mut binding);
    e.push(binding[0] as GLenum);
    // No vertex array bound; then no indirect buffer, with a misaligned count offset too.
    gl.multi_draw_arrays_indirect_count(TRIANGLES, 0, 0, 1, 0);
    check(gl, &mut e);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    gl.multi_draw_arrays_indirect_count(TRIANGLES, 0, 2, 1, 0);
    check(gl, &mut e);
    let b = gl.gen_buffer();
    gl.bind_buffer(DRAW_INDIRECT_BUFFER, b);
    gl.buffer_data(DRAW_INDIRECT_BUFFER, 40, Some(&[0; 40]), STATIC_DRAW);
    // Negative maximum, misaligned stride, a bad mode, the last command past the end:
    // each before the parameter buffer is looked at.
    gl.multi_draw_arrays_indirect_count(TRIANGLES, 0, 2, -1, 0);
    check(gl, &mut e);
    gl.multi_draw_arrays_indirect_count(TRIANGLES, 0, 2, 1, 6);
    check(gl, &mut e);
    gl.multi_draw_arrays_indirect_count(0x20, 0, 2, 1, 0);
    check(gl, &mut e);
    gl.multi_draw_arrays_indirect_count(TRIANGLES, 0, 0, 3, 0);
    check(gl, &mut e);
    // A misaligned count offset, then no parameter buffer.
    gl.multi_draw_arrays_indirect_count(TRIANGLES, 0, 2, 2, 0);
    check(gl, &mut e);
    gl.multi_draw_arrays_indirect_count(TRIANGLES, 0, 0, 2, 0);
    check(gl, &mut e);
    // With a maximum of 0 the parameter buffer is still checked.
    gl.multi_draw_arrays_indirect_count(TRIANGLES, 0, 0, 0, 0);
    check(gl, &mut e);
    let params = gl.gen_buffer();
    gl.bind_buffer(PARAMETER_BUFFER, params);
    gl.get_integerv(PARAMETER_BUFFER_BINDING, &mut binding);
    e.push(u32::from(binding[0] as GLuint == params));
    // A parameter buffer without storage, then 8 bytes of it: offsets 4 (the last count
    // inside), 8 and 12 (past the end), a negative offset.
    gl.multi_draw_arrays_indirect_count(TRIANGLES, 0, 0, 2, 0);
    check(gl, &mut e);
    gl.buffer_data(PARAMETER_BUFFER, 8, Some(&[0; 8]), STATIC_DRAW);
    for at in [4, 8, 12, -8] {
        gl.multi_draw_arrays_indirect_count(TRIANGLES, 0, at, 2, 0);
        check(gl, &mut e);
    }
    // A mapped parameter buffer.
    gl.map_for_reading(PARAMETER_BUFFER, 8);
    gl.multi_draw_arrays_indirect_count(TRIANGLES, 0, 0, 2, 0);
    check(gl, &mut e);
    gl.unmap(PARAMETER_BUFFER);
    // Elements: no element buffer, a bad type, a misaligned count offset, a good draw.
    gl.multi_draw_elements_indirect_count(TRIANGLES, UNSIGNED_INT, 0, 0, 1, 0);
    check(gl, &mut e);
    let ib = gl.gen_buffer();
    gl.bind_buffer(ELEMENT_ARRAY_BUFFER, ib);
    gl.buffer_data(ELEMENT_ARRAY_BUFFER, 12, Some(&[0; 12]), STATIC_DRAW);
    gl.multi_draw_elements_indirect_count(TRIANGLES, FLOAT, 0, 0, 1, 0);
    check(gl, &mut e);
    gl.multi_draw_elements_indirect_count(TRIANGLES, UNSIGNED_INT, 0, 1, 1, 0);
    check(gl, &mut e);
    gl.multi_draw_elements_indirect_count(TRIANGLES, UNSIGNED_INT, 0, 4, 2, 0);
    check(gl, &mut e);
    gl.multi_draw_elements_indirect_count(TRIANGLES, UNSIGNED_INT, 0, 4, 2, 10);
    check(gl, &mut e);
    // The target binds and unbinds as any buffer target; deleting the buffer unbinds it.
    gl.bind_buffer(PARAMETER_BUFFER, 0);
    gl.get_integerv(PARAMETER_BUFFER_BINDING, &mut binding);
    e.push(binding[0] as GLenum);
    e
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(
    backends: &[Backend],
    scene: impl Fn(&mut dyn CountGl) -> T,
) {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for &backend in backends {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = scene(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            // A record the wire refused would have ended the session.
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            // The GLES backend reports its one emulation: the restart index below the
            // type's maximum, whose indices it rewrites (as for any draw).
            let events: Vec<Event> = ctx
                .take_events()
                .into_iter()
                .filter(|e| {
                    !matches!(e, Event::Unsupported { what } if what.starts_with("GLES restarts"))
                })
                .collect();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

#[test]
fn counted_draws_match_the_native_driver() {
    compare(&Backend::ALL, |gl| {
        let got = draws(gl, VS);
        // A count of 0 and a maximum of 0 draw nothing; every other step draws.
        for (i, p) in got.iter().enumerate() {
            assert_eq!(p.iter().any(|b| *b != 0), i != 0 && i != 10, "step {i}");
        }
        // Counts 1, 3 and 4 draw different squares.
        assert_ne!(got[1], got[2]);
        assert_ne!(got[2], got[3]);
        got
    });
}

#[test]
fn a_count_written_by_a_compute_shader_is_read_as_written() {
    compare(&Backend::ALL, |gl| {
        let got = compute_then_draw(gl);
        assert_ne!(got[0], got[1]);
        assert_ne!(got[1], got[2]);
        got
    });
}

/// `gl_DrawID` under a count (Vulkan only: the GLES backend does not advertise
/// `GL_ARB_shader_draw_parameters`).
#[test]
fn draw_ids_under_a_count_match_the_native_driver() {
    compare(&[Backend::Vulkan], |gl| draws(gl, VS_DRAW_ID));
}

#[test]
fn counted_draw_errors_match_the_native_driver() {
    compare(&Backend::ALL, |gl| {
        let e = errors(gl);
        assert_eq!(e[0], 0, "nothing bound at first");
        e
    });
}

/// On a GLES driver without ES 3.1 (the backend told to use ES 3.0 and no extension),
/// counted draws read back their count and commands: the same pixels.
#[test]
fn counted_draws_match_without_es31() {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = draws(&mut native, VS);
    drop(native);
    let mut ctx = tessera_es30(16, 16);
    assert_eq!(draws(&mut ctx, VS), expected);
    // Nothing reported but the emulations an ES 3.0 driver needs anyway: the base vertex
    // and the restart index below the type's maximum, whose indices are rewritten.
    let events = ctx.take_events();
    assert!(
        events
            .iter()
            .all(|e| matches!(e, Event::Unsupported { what }
            if what.starts_with("base vertex") || what.starts_with("GLES restarts"))),
        "{events:?}"
    );
}

#[test]
fn counted_draws_cross_a_process_transport() {
    // A private server process (`fork`): `SetDrawCount`'s handle and offset go through the
    // wire's validation of another process's bytes.
    let mut native = NativeGl::new(16, 16).expect("native desktop GL");
    let expected = compute_then_draw(&mut native);
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
        assert_eq!(compute_then_draw(&mut ctx), expected, "{backend:?}");
        let events = ctx.take_events();
        assert!(events.is_empty(), "{backend:?}: {events:?}");
    }
}

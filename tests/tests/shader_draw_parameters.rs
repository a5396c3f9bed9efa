//! `gl_DrawID`, `gl_BaseVertex` and `gl_BaseInstance` (`ARB_shader_draw_parameters`, core
//! in GL 4.6) against the native driver on both backends (Vulkan with the validation layer
//! on, which must report nothing): every kind of draw — direct, instanced with a base
//! instance, indexed with a base vertex, `glMultiDrawArrays`, `glMultiDrawElementsBaseVertex`
//! (with empty draws) and the multi-draw indirect commands — writes the three values,
//! `gl_VertexID` and `gl_InstanceID` of each vertex into an integer colour buffer, one point
//! per vertex. Values must be exactly the native ones (native llvmpipe takes the `ARB`
//! names; Tessera takes GLSL 4.60's too, which must give the same values); a backend that
//! cannot carry the built-ins out (GLES) does not advertise the extension. The same scenes
//! without the built-ins check multi-draws on both backends.

#![expect(
    unsafe_code,
    reason = "the native driver's multi-draw entry points, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

const SIZE: i32 = 16;

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
trait DrawParamsGl: Gl {
    fn multi_draw_arrays(&mut self, mode: GLenum, first: &[GLint], count: &[GLsizei]);
    fn multi_draw_elements_base_vertex(
        &mut self,
        mode: GLenum,
        count: &[GLsizei],
        offsets: &[usize],
        base_vertex: &[GLint],
    );
    fn draw_arrays_base_instance(
        &mut self,
        mode: GLenum,
        first: GLint,
        count: GLsizei,
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
    fn multi_draw_arrays_indirect(&mut self, mode: GLenum, offset: usize, n: GLsizei);
    fn multi_draw_elements_indirect(&mut self, mode: GLenum, offset: usize, n: GLsizei);
}

impl DrawParamsGl for Context {
    fn multi_draw_arrays(&mut self, mode: GLenum, first: &[GLint], count: &[GLsizei]) {
        Context::multi_draw_arrays(self, mode, first, count, first.len() as GLsizei)
    }
    fn multi_draw_elements_base_vertex(
        &mut self,
        mode: GLenum,
        count: &[GLsizei],
        offsets: &[usize],
        base_vertex: &[GLint],
    ) {
        Context::multi_draw_elements_base_vertex(
            self,
            mode,
            count,
            UNSIGNED_SHORT,
            offsets,
            count.len() as GLsizei,
            Some(base_vertex),
        )
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
            UNSIGNED_SHORT,
            offset,
            instances,
            base_vertex,
            base,
        )
    }
    fn multi_draw_arrays_indirect(&mut self, mode: GLenum, offset: usize, n: GLsizei) {
        Context::multi_draw_arrays_indirect(self, mode, offset, n, 0)
    }
    fn multi_draw_elements_indirect(&mut self, mode: GLenum, offset: usize, n: GLsizei) {
        Context::multi_draw_elements_indirect(self, mode, UNSIGNED_SHORT, offset, n, 0)
    }
}

/// Calls one native entry point of signature `F`.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point::<F>(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl DrawParamsGl for NativeGl {
    fn multi_draw_arrays(&mut self, mode: GLenum, first: &[GLint], count: &[GLsizei]) {
        type F = unsafe extern "system" fn(GLenum, *const GLint, *const GLsizei, GLsizei);
        let f: F = native(self, "glMultiDrawArrays");
        // SAFETY: the context is current on this thread; both arrays hold `len` entries.
        unsafe { f(mode, first.as_ptr(), count.as_ptr(), first.len() as GLsizei) }
    }
    fn multi_draw_elements_base_vertex(
        &mut self,
        mode: GLenum,
        count: &[GLsizei],
        offsets: &[usize],
        base_vertex: &[GLint],
    ) {
        type F = unsafe extern "system" fn(
            GLenum,
            *const GLsizei,
            GLenum,
            *const usize,
            GLsizei,
            *const GLint,
        );
        let f: F = native(self, "glMultiDrawElementsBaseVertex");
        // SAFETY: as above; the offsets are ones into the element array buffer.
        unsafe {
            f(
                mode,
                count.as_ptr(),
                UNSIGNED_SHORT,
                offsets.as_ptr(),
                count.len() as GLsizei,
                base_vertex.as_ptr(),
            )
        }
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
                UNSIGNED_SHORT,
                offset,
                instances,
                base_vertex,
                base,
            )
        }
    }
    fn multi_draw_arrays_indirect(&mut self, mode: GLenum, offset: usize, n: GLsizei) {
        type F = unsafe extern "system" fn(GLenum, usize, GLsizei, GLsizei);
        let f: F = native(self, "glMultiDrawArraysIndirect");
        // SAFETY: as above; the offset is one into the draw indirect buffer.
        unsafe { f(mode, offset, n, 0) }
    }
    fn multi_draw_elements_indirect(&mut self, mode: GLenum, offset: usize, n: GLsizei) {
        type F = unsafe extern "system" fn(GLenum, GLenum, usize, GLsizei, GLsizei);
        let f: F = native(self, "glMultiDrawElementsIndirect");
        // SAFETY: as above.
        unsafe { f(mode, UNSIGNED_SHORT, offset, n, 0) }
    }
}

/// One point per vertex, at column `gl_VertexID` of row `row + gl_InstanceID`, carrying the
/// draw parameters (`{D}`, `{V}`, `{I}` are replaced by the built-ins' names).
const VS: &str = "
uniform int row;
flat out ivec4 params;
flat out int ids;
void main() {
    params = ivec4({D}, {V}, {I}, gl_VertexID);
    ids = gl_InstanceID;
    vec2 cell = vec2(float(gl_VertexID), float(row + gl_InstanceID)) + 0.5;
    gl_Position = vec4(cell / 8.0 - 1.0, 0.0, 1.0);
    gl_PointSize = 1.0;
}
";

const FS: &str = "#version 330 core
flat in ivec4 params;
flat in int ids;
layout(location = 0) out ivec4 o;
void main() { o = params + ivec4(0, 0, 0, 100 * ids); }
";

/// The vertex stage under each way of naming the built-ins.
fn vertex_shaders() -> [String; 2] {
    let arb = "#version 330 core\n#extension GL_ARB_shader_draw_parameters : require\n";
    [
        format!("{arb}{VS}")
            .replace("{D}", "gl_DrawIDARB")
            .replace("{V}", "gl_BaseVertexARB")
            .replace("{I}", "gl_BaseInstanceARB"),
        format!("#version 460 core\n{VS}")
            .replace("{D}", "gl_DrawID")
            .replace("{V}", "gl_BaseVertex")
            .replace("{I}", "gl_BaseInstance"),
    ]
}

/// The element buffer (16-bit indices) and the indirect commands.
const INDICES: [u16; 8] = [0, 2, 4, 1, 3, 5, 6, 7];
const ELEMENTS_AT: usize = 5 * 16;

fn commands() -> Vec<u32> {
    let mut w = Vec::new();
    // Arrays: count, instances, first, base instance.
    w.extend([2, 1, 0, 0, 3, 2, 4, 9, 0, 1, 0, 0, 1, 1, 12, 3, 2, 1, 8, 0]);
    // Elements: count, instances, first index, base vertex, base instance.
    w.extend([3, 1, 0, 2, 0, 2, 2, 3, 7, 11, 3, 1, 5, 1, 6]);
    w
}

type Step = dyn Fn(&mut dyn DrawParamsGl);

/// Runs every kind of draw, each at its own rows of the RGBA32I target; returns the texels
/// and the error at the end.
fn draws(gl: &mut dyn DrawParamsGl, vs: &str, program_point_size: bool) -> (Vec<[i32; 4]>, GLenum) {
    let steps: [(i32, &Step); 12] = [
        (0, &|gl| gl.draw_arrays(POINTS, 3, 4)),
        (1, &|gl| gl.draw_arrays_base_instance(POINTS, 1, 3, 2, 7)),
        (3, &|gl| {
            gl.draw_elements_base_vertex(POINTS, 3, UNSIGNED_SHORT, 2, 5)
        }),
        (4, &|gl| {
            gl.draw_elements_base_vertex_base_instance(POINTS, 3, 6, 2, 2, 3)
        }),
        (6, &|gl| {
            gl.multi_draw_arrays(POINTS, &[0, 5, 10], &[2, 3, 4])
        }),
        (7, &|gl| {
            gl.multi_draw_elements_base_vertex(POINTS, &[2, 3, 0, 2], &[0, 4, 0, 12], &[1, 8, 0, 3])
        }),
        (8, &|gl| gl.multi_draw_arrays_indirect(POINTS, 0, 5)),
        (11, &|gl| {
            gl.multi_draw_elements_indirect(POINTS, ELEMENTS_AT, 3)
        }),
        (14, &|gl| gl.draw_elements(POINTS, 4, UNSIGNED_SHORT, 8)),
        // Consecutive draws, which Tessera merges: gl_DrawID 0 in each.
        (15, &|gl| {
            gl.draw_arrays(POINTS, 0, 2);
            gl.draw_arrays(POINTS, 4, 2);
            gl.draw_elements(POINTS, 2, UNSIGNED_SHORT, 2);
            gl.draw_elements(POINTS, 2, UNSIGNED_SHORT, 12);
        }),
        // Empty draws keep their gl_DrawID, before a draw and after the last.
        (2, &|gl| {
            gl.multi_draw_arrays(POINTS, &[10, 4, 12, 0], &[2, 0, 3, 0])
        }),
        // A restart index other than the maximum: Vulkan reads the commands back and draws
        // each by itself.
        (13, &|gl| {
            gl.enable(PRIMITIVE_RESTART);
            gl.primitive_restart_index(7);
            gl.multi_draw_elements_indirect(POINTS, ELEMENTS_AT, 3);
            gl.disable(PRIMITIVE_RESTART);
        }),
    ];
    run(gl, vs, program_point_size, &steps)
}

/// Runs `steps`, each at its row, into the RGBA32I target; returns the texels and the
/// error at the end.
fn run(
    gl: &mut dyn DrawParamsGl,
    vs: &str,
    program_point_size: bool,
    steps: &[(i32, &Step)],
) -> (Vec<[i32; 4]>, GLenum) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let ib = gl.gen_buffer();
    gl.bind_buffer(ELEMENT_ARRAY_BUFFER, ib);
    let idx: Vec<u8> = INDICES.iter().flat_map(|i| i.to_le_bytes()).collect();
    gl.buffer_data(ELEMENT_ARRAY_BUFFER, idx.len(), Some(&idx), STATIC_DRAW);
    let indirect = gl.gen_buffer();
    gl.bind_buffer(DRAW_INDIRECT_BUFFER, indirect);
    let words: Vec<u8> = commands().iter().flat_map(|w| w.to_le_bytes()).collect();
    gl.buffer_data(DRAW_INDIRECT_BUFFER, words.len(), Some(&words), STATIC_DRAW);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA32I, SIZE, SIZE);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    gl.viewport(0, 0, SIZE, SIZE);
    if program_point_size {
        gl.enable(PROGRAM_POINT_SIZE);
    }
    let p = link_program(gl, vs, FS);
    gl.use_program(p);
    let row = gl.get_uniform_location(p, "row");
    gl.clear_bufferiv(COLOR, 0, &[-1, -1, -1, -1]);
    for (r, step) in steps {
        gl.uniform1iv(row, &[*r]);
        step(gl);
    }
    let mut px = vec![0u8; (SIZE * SIZE * 16) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA_INTEGER, INT, &mut px);
    let texels = px
        .chunks_exact(16)
        .map(|t| {
            std::array::from_fn(|c| i32::from_le_bytes(t[4 * c..4 * c + 4].try_into().unwrap()))
        })
        .collect();
    (texels, gl.get_error())
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

#[test]
fn draw_parameters_match_the_native_driver() {
    let [arb, core] = vertex_shaders();
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = draws(&mut native, &arb, true);
    // The size from glPointSize (1, as the stage writes): Vulkan's point variant of the
    // stage reads it from the push constants the draw parameters share.
    assert_eq!(draws(&mut native, &arb, false), expected);
    drop(native);
    assert_eq!(expected.1, NO_ERROR);
    // Every draw wrote something, and the values differ between draws: the comparison
    // cannot pass on constants.
    let written = |r: usize| {
        expected.0[r * SIZE as usize..(r + 1) * SIZE as usize]
            .iter()
            .filter(|t| t[0] >= 0)
            .count()
    };
    for r in [0, 1, 2, 3, 4, 6, 7, 8, 11, 13, 14, 15] {
        assert!(
            written(r) > 0,
            "row {r}: {:?}",
            &expected.0[r * 16..r * 16 + 16]
        );
    }
    let distinct: std::collections::BTreeSet<_> =
        expected.0.iter().map(|t| (t[0], t[1], t[2])).collect();
    assert!(distinct.len() > 8, "{distinct:?}");
    // A non-indexed draw's gl_BaseVertex is 0 (Vulkan's BaseVertex is its first vertex),
    // and gl_DrawID counts the draws of each multi-draw call.
    let at = |x: usize, y: usize| expected.0[y * SIZE as usize + x];
    assert_eq!(at(3, 0), [0, 0, 0, 3]);
    assert_eq!(at(10, 6)[0], 2);
    assert_eq!(at(13, 2)[0], 2);
    assert_eq!([at(5, 15)[0], at(7, 15)[0]], [0, 0]);
    assert_eq!(at(9, 7)[..2], [3, 3]);
    assert_eq!(at(8, 8)[0], 4);
    assert_eq!(at(10, 11)[..3], [1, 7, 11]);
    assert_eq!(at(6, 13)[..3], [2, 1, 6]);
    for backend in Backend::ALL {
        let mut probe = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        if !advertised(&mut probe)
            .iter()
            .any(|e| e == "GL_ARB_shader_draw_parameters")
        {
            assert_eq!(backend, Backend::Gles, "advertised on Vulkan");
            continue;
        }
        drop(probe);
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            for (vs, program_point_size) in [(&arb, true), (&core, true), (&arb, false)] {
                let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
                let got = draws(&mut ctx, vs, program_point_size);
                let name = format!("{} {}", backend.name(), transport.name());
                assert_eq!(got.1, expected.1, "{name}");
                for (i, (g, e)) in got.0.iter().zip(&expected.0).enumerate() {
                    assert_eq!(g, e, "{name}: {} at ({}, {})", &vs[..20], i % 16, i / 16);
                }
                ctx.finish();
                let events: Vec<Event> = ctx.take_events();
                assert!(events.is_empty(), "{name}: {events:?}");
            }
        }
    }
}

#[test]
fn a_multi_draw_drawn_one_draw_at_a_time_keeps_each_draws_gl_draw_id() {
    // A restart index other than the maximum makes Vulkan draw each draw of the call by
    // itself, with its index pushed. Native llvmpipe gives every draw of such a call 0 (it
    // loses the index where it splits the call), so the values are GL's, written out: one
    // point per index, at column index + base vertex, none for the restart index 7.
    let [arb, _] = vertex_shaders();
    let steps: [(i32, &Step); 1] = [(5, &|gl| {
        gl.enable(PRIMITIVE_RESTART);
        gl.primitive_restart_index(7);
        gl.multi_draw_elements_base_vertex(POINTS, &[2, 2, 3], &[0, 6, 10], &[0, 3, 2]);
        gl.disable(PRIMITIVE_RESTART);
    })];
    let mut ctx = tessera_on(Backend::Vulkan, TransportKind::Inproc, SIZE, SIZE);
    let (texels, error) = run(&mut ctx, &arb, true, &steps);
    assert_eq!(error, NO_ERROR);
    let row: Vec<[i32; 3]> = texels[5 * SIZE as usize..6 * SIZE as usize]
        .iter()
        .map(|t| [t[0], t[1], t[3]])
        .collect();
    let mut expected = vec![[-1; 3]; SIZE as usize];
    // Indices 0 and 2; 1 and 3 from base vertex 3; 5, 6 (and 7, restarting) from 2.
    for (column, draw, base) in [
        (0, 0, 0),
        (2, 0, 0),
        (4, 1, 3),
        (6, 1, 3),
        (7, 2, 2),
        (8, 2, 2),
    ] {
        expected[column] = [draw, base, column as i32];
    }
    assert_eq!(row, expected);
    ctx.finish();
    let events: Vec<Event> = ctx.take_events();
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn multi_draws_give_the_native_drivers_points_on_both_backends() {
    // Without the draw parameters, which the GLES backend lacks: each draw of a multi-draw
    // (one driver call where the driver has multi-draws) lands where native's does.
    let vs = format!("#version 330 core\n{VS}")
        .replace("{D}", "0")
        .replace("{V}", "0")
        .replace("{I}", "0");
    let steps: [(i32, &Step); 7] = [
        (0, &|gl| {
            gl.multi_draw_arrays(POINTS, &[0, 5, 10, 3], &[2, 3, 4, 0])
        }),
        (2, &|gl| {
            gl.multi_draw_elements_base_vertex(POINTS, &[2, 3, 0, 2], &[0, 4, 0, 12], &[1, 8, 0, 3])
        }),
        // Consecutive draws, merged.
        (10, &|gl| {
            gl.draw_arrays(POINTS, 0, 2);
            gl.draw_arrays(POINTS, 6, 3);
            gl.draw_arrays(POINTS, 12, 1);
        }),
        (12, &|gl| {
            gl.draw_elements_base_vertex(POINTS, 3, UNSIGNED_SHORT, 0, 1);
            gl.draw_elements_base_vertex(POINTS, 2, UNSIGNED_SHORT, 10, 7);
        }),
        // No base vertex.
        (4, &|gl| {
            gl.multi_draw_elements_base_vertex(POINTS, &[3, 2], &[0, 10], &[0, 0])
        }),
        // Restarting at the maximum index, and below it.
        (6, &|gl| {
            gl.enable(PRIMITIVE_RESTART_FIXED_INDEX);
            gl.multi_draw_elements_base_vertex(POINTS, &[3, 2], &[0, 10], &[4, 0]);
            gl.disable(PRIMITIVE_RESTART_FIXED_INDEX);
        }),
        (8, &|gl| {
            gl.enable(PRIMITIVE_RESTART);
            gl.primitive_restart_index(2);
            gl.multi_draw_elements_base_vertex(POINTS, &[3, 3], &[0, 8], &[0, 9]);
            gl.disable(PRIMITIVE_RESTART);
        }),
    ];
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = run(&mut native, &vs, true, &steps);
    drop(native);
    assert_eq!(expected.1, NO_ERROR);
    let at = |x: usize, y: usize| expected.0[y * SIZE as usize + x][3];
    // Columns are vertex ids: draws 0 and 1 of row 0, index 4 plus base vertex 8 in row 2,
    // the index 2 of row 8 restarting.
    assert_eq!([at(1, 0), at(7, 0), at(3, 0)], [1, 7, -1]);
    assert_eq!([at(9, 2), at(12, 2)], [9, 12]);
    assert_eq!([at(4, 8), at(2, 8)], [4, -1]);
    assert_eq!([at(7, 10), at(12, 10), at(13, 12)], [7, 12, 13]);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = run(&mut ctx, &vs, true, &steps);
            let name = format!("{} {}", backend.name(), transport.name());
            assert_eq!(got, expected, "{name}");
            ctx.finish();
            // GLES says once that it rewrites indices for the low restart index.
            let events: Vec<Event> = ctx
                .take_events()
                .into_iter()
                .filter(|e| backend != Backend::Gles || !format!("{e:?}").contains("restart"))
                .collect();
            assert!(events.is_empty(), "{name}: {events:?}");
        }
    }
}

//! Query buffer objects (GL 4.4's `ARB_query_buffer_object`) and the query half of direct
//! state access (GL 4.5's `glCreateQueries`, `glGetQueryBufferObject*v`) against the native
//! driver on both backends (Vulkan with the validation layer on, which must report nothing).
//!
//! The error transcript covers the `QUERY_BUFFER` binding, Mesa's order of checks (the
//! query, then the range past the buffer's end, then a negative offset, then the pname), the
//! named-buffer forms and `glCreateQueries`. The value scene writes the results,
//! availability and targets of occlusion and primitive queries into a query buffer with all
//! four getters, at several offsets, copies part of it with `glCopyBufferSubData` (a GPU
//! consumer recorded after the writes) and reads both buffers back: every byte must be the
//! native one. On Tessera the writes cost no round trip: the backend fills the buffer.

#![expect(
    unsafe_code,
    reason = "the native driver's query buffer entry points, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::query::QueryValueType;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

/// The calls the shared [`Gl`] table has no entry for.
trait QboGl: Gl {
    /// `glGetQueryObject{i,ui,i64,ui64}v` whose pointer is `offset` (into the bound
    /// `QUERY_BUFFER`).
    fn query_to_buffer(&mut self, id: GLuint, pname: GLenum, ty: QueryValueType, offset: isize);
    /// `glGetQueryBufferObject{i,ui,i64,ui64}v`.
    fn query_to_named(
        &mut self,
        id: GLuint,
        buffer: GLuint,
        pname: GLenum,
        ty: QueryValueType,
        offset: isize,
    );
    /// `glGetQueryObjecti64v` into client memory (`i64::MIN` if nothing was written).
    fn query_value(&mut self, id: GLuint, pname: GLenum) -> i64;
    /// `glCreateQueries` of `n` names (`n` may be negative: then none).
    fn create_queries(&mut self, target: GLenum, n: GLsizei) -> Vec<GLuint>;
    /// `glIsQuery`.
    fn is_query(&mut self, id: GLuint) -> bool;
    /// `glCopyBufferSubData`.
    fn copy_buffer(&mut self, read: GLenum, write: GLenum, src: isize, dst: isize, size: isize);
}

impl QboGl for Context {
    fn query_to_buffer(&mut self, id: GLuint, pname: GLenum, ty: QueryValueType, offset: isize) {
        assert!(self.query_buffer_bound());
        self.get_query_object_buffer(id, None, pname, ty, offset)
    }
    fn query_to_named(
        &mut self,
        id: GLuint,
        buffer: GLuint,
        pname: GLenum,
        ty: QueryValueType,
        offset: isize,
    ) {
        self.get_query_object_buffer(id, Some(buffer), pname, ty, offset)
    }
    fn query_value(&mut self, id: GLuint, pname: GLenum) -> i64 {
        assert!(!self.query_buffer_bound());
        let mut v = [i64::MIN];
        self.get_query_objecti64v(id, pname, &mut v);
        v[0]
    }
    fn create_queries(&mut self, target: GLenum, n: GLsizei) -> Vec<GLuint> {
        let mut ids = vec![0; n.max(0) as usize];
        Context::create_queries(self, target, n, &mut ids);
        ids
    }
    fn is_query(&mut self, id: GLuint) -> bool {
        Context::is_query(self, id) != 0
    }
    fn copy_buffer(&mut self, read: GLenum, write: GLenum, src: isize, dst: isize, size: isize) {
        self.copy_buffer_sub_data(read, write, src, dst, size)
    }
}

/// An entry point of the native driver, by name and C signature.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The getter of `ty`'s name: `glGetQueryObject` or `glGetQueryBufferObject` + suffix.
fn suffix(ty: QueryValueType) -> &'static str {
    match ty {
        QueryValueType::Int => "iv",
        QueryValueType::UnsignedInt => "uiv",
        QueryValueType::Int64 => "i64v",
        QueryValueType::UnsignedInt64 => "ui64v",
    }
}

impl QboGl for NativeGl {
    fn query_to_buffer(&mut self, id: GLuint, pname: GLenum, ty: QueryValueType, offset: isize) {
        type F = unsafe extern "system" fn(GLuint, GLenum, *mut u8);
        let f: F = native(self, &format!("glGetQueryObject{}", suffix(ty)));
        // SAFETY: the context is current; with a QUERY_BUFFER bound the pointer is an
        // offset into it, never dereferenced.
        unsafe { f(id, pname, std::ptr::without_provenance_mut(offset as usize)) }
    }
    fn query_to_named(
        &mut self,
        id: GLuint,
        buffer: GLuint,
        pname: GLenum,
        ty: QueryValueType,
        offset: isize,
    ) {
        type F = unsafe extern "system" fn(GLuint, GLuint, GLenum, isize);
        let f: F = native(self, &format!("glGetQueryBufferObject{}", suffix(ty)));
        // SAFETY: the context is current; plain values.
        unsafe { f(id, buffer, pname, offset) }
    }
    fn query_value(&mut self, id: GLuint, pname: GLenum) -> i64 {
        type F = unsafe extern "system" fn(GLuint, GLenum, *mut i64);
        let f: F = native(self, "glGetQueryObjecti64v");
        let mut v = i64::MIN;
        // SAFETY: the context is current and no QUERY_BUFFER is bound: one value written.
        unsafe { f(id, pname, &mut v) };
        v
    }
    fn create_queries(&mut self, target: GLenum, n: GLsizei) -> Vec<GLuint> {
        type F = unsafe extern "system" fn(GLenum, GLsizei, *mut GLuint);
        let f: F = native(self, "glCreateQueries");
        let mut ids = vec![0; n.max(0) as usize];
        // SAFETY: the context is current; room for `n` names (none when negative).
        unsafe { f(target, n, ids.as_mut_ptr()) };
        ids
    }
    fn is_query(&mut self, id: GLuint) -> bool {
        type F = unsafe extern "system" fn(GLuint) -> GLboolean;
        let f: F = native(self, "glIsQuery");
        // SAFETY: the context is current.
        unsafe { f(id) != 0 }
    }
    fn copy_buffer(&mut self, read: GLenum, write: GLenum, src: isize, dst: isize, size: isize) {
        type F = unsafe extern "system" fn(GLenum, GLenum, isize, isize, isize);
        let f: F = native(self, "glCopyBufferSubData");
        // SAFETY: the context is current; plain values.
        unsafe { f(read, write, src, dst, size) }
    }
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match; returns
/// the native result.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn QboGl) -> T) -> T {
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

/// One line: what was done, the error, and a value read after it.
type Line = (&'static str, GLenum, i64);

fn integer(gl: &mut dyn QboGl, pname: GLenum) -> i64 {
    let mut v = [i32::MIN];
    gl.get_integerv(pname, &mut v);
    i64::from(v[0])
}

const VS: &str = "#version 330 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

const FS: &str = "#version 330 core
out vec4 color;
void main() { color = vec4(0.2, 0.4, 0.6, 1.0); }
";

/// A program and a vertex array of two triangles covering the 8x8 surface.
fn quad(gl: &mut dyn QboGl) {
    let program = link_program(gl, VS, FS);
    gl.use_program(program);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vbo = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vbo);
    let quad: [f32; 12] = [
        -1.0, -1.0, 1.0, -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, 1.0,
    ];
    let bytes: Vec<u8> = quad.iter().flat_map(|f| f.to_le_bytes()).collect();
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.enable_vertex_attrib_array(0);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.viewport(0, 0, 8, 8);
}

/// Errors and state, line by line.
fn transcript(gl: &mut dyn QboGl) -> Vec<Line> {
    use QueryValueType::*;
    let mut out: Vec<Line> = Vec::new();
    let mut line = |gl: &mut dyn QboGl, what: &'static str, value: i64| {
        let e = gl.get_error();
        out.push((what, e, value));
    };
    quad(gl);
    let qbo = gl.gen_buffer();
    let v = integer(gl, QUERY_BUFFER_BINDING);
    line(gl, "initial binding", v);
    gl.bind_buffer(QUERY_BUFFER, qbo);
    let v = integer(gl, QUERY_BUFFER_BINDING);
    line(gl, "bound", v);
    gl.buffer_data(QUERY_BUFFER, 16, Some(&[0xAA; 16]), DYNAMIC_COPY);
    line(gl, "storage", 0);

    let q = gl.gen_query();
    gl.query_to_buffer(q, QUERY_RESULT, Int, 0);
    line(gl, "never begun", 0);
    gl.query_to_buffer(q + 100, QUERY_RESULT, Int, 0);
    line(gl, "never generated", 0);
    gl.query_to_buffer(0, QUERY_RESULT, Int, 0);
    line(gl, "query 0", 0);
    gl.begin_query(ANY_SAMPLES_PASSED, q);
    gl.query_to_buffer(q, QUERY_RESULT, Int, 0);
    line(gl, "active", 0);
    gl.draw_arrays(TRIANGLES, 0, 6);
    gl.end_query(ANY_SAMPLES_PASSED);
    gl.query_to_buffer(q, QUERY_RESULT, Int, 12);
    line(gl, "32 bits at the end", 0);
    gl.query_to_buffer(q, QUERY_RESULT, Int64, 12);
    line(gl, "64 bits past the end", 0);
    gl.query_to_buffer(q, QUERY_RESULT, UnsignedInt, 13);
    line(gl, "32 bits past the end", 0);
    gl.query_to_buffer(q, QUERY_RESULT, Int, -4);
    line(gl, "negative offset", 0);
    gl.query_to_buffer(q, QUERY_COUNTER_BITS, Int, 0);
    line(gl, "bad pname", 0);
    gl.query_to_buffer(q, QUERY_COUNTER_BITS, Int, 16);
    line(gl, "bad pname past the end", 0);
    gl.query_to_buffer(q, QUERY_COUNTER_BITS, Int, -8);
    line(gl, "bad pname at a negative offset", 0);
    gl.query_to_buffer(q + 100, QUERY_COUNTER_BITS, Int, 16);
    line(gl, "bad query, pname and range", 0);
    for (what, pname) in [
        ("result", QUERY_RESULT),
        ("no wait", QUERY_RESULT_NO_WAIT),
        ("available", QUERY_RESULT_AVAILABLE),
        ("target", QUERY_TARGET),
    ] {
        gl.query_to_buffer(q, pname, UnsignedInt64, 8);
        line(gl, what, 0);
    }

    // The named forms: a buffer name first, whatever is bound.
    gl.query_to_named(q, 0, QUERY_RESULT, Int, 0);
    line(gl, "named 0", 0);
    gl.query_to_named(q, qbo + 100, QUERY_RESULT, Int, 0);
    line(gl, "named never generated", 0);
    let unbound = gl.gen_buffer();
    gl.query_to_named(q, unbound, QUERY_RESULT, Int, 0);
    line(gl, "named never bound", 0);
    gl.query_to_named(q + 100, 0, QUERY_COUNTER_BITS, Int, -1);
    line(gl, "named 0, bad query", 0);
    gl.query_to_named(q, qbo, QUERY_RESULT, UnsignedInt, 4);
    line(gl, "named", 0);
    gl.query_to_named(q, qbo, QUERY_RESULT, Int64, 12);
    line(gl, "named past the end", 0);
    gl.query_to_named(q, qbo, QUERY_TARGET, Int, -4);
    line(gl, "named negative", 0);
    gl.query_to_named(q, qbo, QUERY_RESULT_AVAILABLE + 1, Int, 0);
    line(gl, "named bad pname", 0);

    // Client memory, with nothing bound to QUERY_BUFFER.
    gl.bind_buffer(QUERY_BUFFER, 0);
    for (what, pname) in [
        ("client result", QUERY_RESULT),
        ("client no wait", QUERY_RESULT_NO_WAIT),
        ("client available", QUERY_RESULT_AVAILABLE),
        ("client target", QUERY_TARGET),
        ("client bad pname", QUERY_COUNTER_BITS),
    ] {
        let v = gl.query_value(q, pname);
        line(gl, what, v);
    }

    // glCreateQueries: the target first, then n; created objects are queries at once.
    let ids = gl.create_queries(TEXTURE_2D, -1);
    line(gl, "create bad target, n < 0", ids.len() as i64);
    let ids = gl.create_queries(PRIMITIVES_GENERATED, -1);
    line(gl, "create n < 0", ids.len() as i64);
    let ids = gl.create_queries(PRIMITIVES_GENERATED, 0);
    line(gl, "create none", ids.len() as i64);
    let ids = gl.create_queries(TIME_ELAPSED, 2);
    line(gl, "create two", ids.len() as i64);
    let created = ids[0];
    let v = gl.is_query(created) as i64;
    line(gl, "created is a query", v);
    let v = gl.query_value(created, QUERY_TARGET);
    line(gl, "created target", v);
    let v = gl.query_value(created, QUERY_RESULT);
    line(gl, "created result", v);
    let v = gl.query_value(created, QUERY_RESULT_AVAILABLE);
    line(gl, "created available", v);
    gl.begin_query(SAMPLES_PASSED, created);
    line(gl, "created, begun for another target", 0);
    gl.begin_query(TIME_ELAPSED, ids[1]);
    gl.end_query(TIME_ELAPSED);
    line(gl, "created, begun", 0);
    gl.bind_buffer(QUERY_BUFFER, qbo);
    gl.query_to_buffer(created, QUERY_TARGET, Int, 0);
    line(gl, "created target into the buffer", 0);

    // What the buffer holds of the writes whose values do not vary.
    gl.finish();
    let mut bytes = [0u8; 16];
    gl.get_buffer_sub_data(QUERY_BUFFER, 0, &mut bytes);
    line(
        gl,
        "contents",
        i64::from_le_bytes(bytes[..8].try_into().unwrap()),
    );
    line(
        gl,
        "contents",
        i64::from_le_bytes(bytes[8..].try_into().unwrap()),
    );
    out
}

#[test]
fn errors_and_state_match_native() {
    let lines = compare(transcript);
    // Not a transcript of one error everywhere: each kind appears.
    for e in [NO_ERROR, INVALID_OPERATION, INVALID_VALUE, INVALID_ENUM] {
        assert!(lines.iter().any(|l| l.1 == e), "{e:#x}: {lines:?}");
    }
}

/// Occlusion and primitive queries written into a query buffer by every getter, then a
/// GPU copy out of it: the bytes of both buffers.
fn values(gl: &mut dyn QboGl) -> (GLenum, Vec<u8>, Vec<u8>) {
    use QueryValueType::*;
    quad(gl);
    let qs: Vec<GLuint> = (0..4).map(|_| gl.gen_query()).collect();
    // Samples drawn, then none (a draw of no vertices); two triangles generated, then none.
    gl.begin_query(ANY_SAMPLES_PASSED, qs[0]);
    gl.draw_arrays(TRIANGLES, 0, 6);
    gl.end_query(ANY_SAMPLES_PASSED);
    gl.begin_query(ANY_SAMPLES_PASSED, qs[1]);
    gl.draw_arrays(TRIANGLES, 0, 0);
    gl.end_query(ANY_SAMPLES_PASSED);
    gl.begin_query(PRIMITIVES_GENERATED, qs[2]);
    gl.draw_arrays(TRIANGLES, 0, 6);
    gl.end_query(PRIMITIVES_GENERATED);
    gl.begin_query(PRIMITIVES_GENERATED, qs[3]);
    gl.end_query(PRIMITIVES_GENERATED);
    let qbo = gl.gen_buffer();
    gl.bind_buffer(QUERY_BUFFER, qbo);
    gl.buffer_data(QUERY_BUFFER, 512, Some(&[0x5A; 512]), DYNAMIC_COPY);
    let mut at = 0;
    for &q in &qs {
        for pname in [
            QUERY_RESULT,
            QUERY_RESULT_NO_WAIT,
            QUERY_RESULT_AVAILABLE,
            QUERY_TARGET,
        ] {
            for ty in [Int, UnsignedInt, Int64, UnsignedInt64] {
                let width = if matches!(ty, Int | UnsignedInt) {
                    4
                } else {
                    8
                };
                if pname == QUERY_RESULT_NO_WAIT {
                    // May stay unwritten while the result is pending: read only once
                    // available, after the other three.
                    continue;
                }
                gl.query_to_buffer(q, pname, ty, at);
                at += width;
            }
        }
    }
    // The named form, into a second buffer, and a copy of the first buffer's head after it.
    let other = gl.gen_buffer();
    gl.bind_buffer(COPY_WRITE_BUFFER, other);
    gl.buffer_data(COPY_WRITE_BUFFER, 64, Some(&[0xC3; 64]), DYNAMIC_COPY);
    gl.query_to_named(qs[2], other, QUERY_RESULT, UnsignedInt, 4);
    gl.query_to_named(qs[0], other, QUERY_RESULT_AVAILABLE, Int64, 8);
    gl.copy_buffer(QUERY_BUFFER, COPY_WRITE_BUFFER, 0, 16, 48);
    gl.query_to_named(qs[2], other, QUERY_TARGET, Int, 60);
    // Once the results are known, QUERY_RESULT_NO_WAIT writes them.
    gl.finish();
    gl.bind_buffer(QUERY_BUFFER, 0);
    let _ = gl.query_value(qs[3], QUERY_RESULT);
    gl.bind_buffer(QUERY_BUFFER, qbo);
    for (i, &q) in qs.iter().enumerate() {
        gl.query_to_buffer(q, QUERY_RESULT_NO_WAIT, UnsignedInt, 496 + 4 * i as isize);
    }
    let e = gl.get_error();
    let mut first = vec![0u8; 512];
    gl.get_buffer_sub_data(QUERY_BUFFER, 0, &mut first);
    let mut second = vec![0u8; 64];
    gl.get_buffer_sub_data(COPY_WRITE_BUFFER, 0, &mut second);
    (e, first, second)
}

#[test]
fn results_in_buffers_match_native() {
    let (e, first, second) = compare(values);
    assert_eq!(e, NO_ERROR);
    // The results arrived: the first query's three 32-bit writes read 1, and primitives 2.
    assert_eq!(first[..4], 1u32.to_le_bytes());
    assert_eq!(second[4..8], 2u32.to_le_bytes());
    assert_eq!(
        first[496..512],
        [1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]
    );
    // Between the writes (288 bytes) and those, the initial bytes.
    assert!(first[288..496].iter().all(|b| *b == 0x5A));
}

/// Writing into a query buffer costs no round trip: the backend fills it, and the client
/// copy of the range is stale (a read asks the backend).
#[test]
fn no_round_trip_on_either_backend() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Thread, 8, 8);
        quad(&mut ctx);
        let q = ctx.gen_query();
        ctx.begin_query(PRIMITIVES_GENERATED, q);
        ctx.draw_arrays(TRIANGLES, 0, 6);
        ctx.end_query(PRIMITIVES_GENERATED);
        let qbo = ctx.gen_buffer();
        ctx.bind_buffer(QUERY_BUFFER, qbo);
        ctx.buffer_data(QUERY_BUFFER, 8, Some(&[0; 8]), DYNAMIC_COPY);
        let before = ctx.transport_stats().blocking_waits;
        ctx.query_to_buffer(q, QUERY_RESULT, QueryValueType::UnsignedInt64, 0);
        assert_eq!(ctx.get_error(), NO_ERROR);
        assert_eq!(
            ctx.transport_stats().blocking_waits,
            before,
            "{}",
            backend.name()
        );
        let mut bytes = [0u8; 8];
        Gl::get_buffer_sub_data(&mut ctx, QUERY_BUFFER, 0, &mut bytes);
        assert_eq!(u64::from_le_bytes(bytes), 2, "{}", backend.name());
        ctx.finish();
        assert!(ctx.take_events().is_empty(), "{}", backend.name());
    }
}

/// Both backends advertise the extension.
#[test]
fn advertised_on_both_backends() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 8, 8);
        let advertised: Vec<String> = (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
            .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
            .collect();
        assert!(
            advertised.iter().any(|e| e == "GL_ARB_query_buffer_object"),
            "{}",
            backend.name()
        );
    }
}

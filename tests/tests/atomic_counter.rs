//! Atomic counters (GL 4.2's `ARB_shader_atomic_counters`) against the native driver:
//! fragments counted with `atomicCounterIncrement` (every returned value unique), the
//! values `atomicCounterDecrement`, `atomicCounter` and `atomicCounterIncrement` return,
//! counters at offsets in two bindings and arrays of counters from a compute shader,
//! counters in a program pipeline of two programs, counters passed to functions, the
//! shaders that use a counter as GL does not allow, and the binding points' state, limits
//! and errors, the operations of `ARB_shader_atomic_counter_ops` (what each returns and
//! leaves, over many invocations, through function parameters, in fragments, and the
//! shaders that may call them), on both backends over `inproc` and `thread`
//! (Vulkan with the validation layer on, which must report nothing). Buffer contents,
//! errors and values must be exactly the native ones.

#![expect(unsafe_code, reason = "calls the native driver's glDeleteBuffers")]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
trait CounterGl: Gl {
    /// `glGetIntegeri_v` of one value.
    fn integer_index(&mut self, target: GLenum, index: GLuint) -> GLint;
    /// `glDeleteBuffers` of one buffer.
    fn delete_buffer(&mut self, buffer: GLuint);
    /// `glGetActiveAtomicCounterBufferiv` into 4 values (the rest stay -7).
    fn counter_buffer(&mut self, program: GLuint, buffer: GLuint, pname: GLenum) -> Vec<GLint>;
    /// `glGetProgramInterfaceiv` of one value.
    fn interface(&mut self, program: GLuint, interface: GLenum, pname: GLenum) -> GLint;
    /// `glGetProgramResourceIndex`.
    fn resource_index(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLuint;
    /// `glGetProgramResourceiv` of `props`, into 8 values.
    fn resource(
        &mut self,
        program: GLuint,
        interface: GLenum,
        i: GLuint,
        props: &[GLenum],
    ) -> Vec<GLint>;
    fn gen_program_pipeline(&mut self) -> GLuint;
    fn bind_program_pipeline(&mut self, pipeline: GLuint);
    fn use_program_stages(&mut self, pipeline: GLuint, stages: GLbitfield, program: GLuint);
}

impl CounterGl for Context {
    fn integer_index(&mut self, target: GLenum, index: GLuint) -> GLint {
        let mut v = [0];
        self.get_integeri_v(target, index, &mut v);
        v[0]
    }
    fn delete_buffer(&mut self, buffer: GLuint) {
        self.delete_buffers(1, &[buffer])
    }
    fn counter_buffer(&mut self, program: GLuint, buffer: GLuint, pname: GLenum) -> Vec<GLint> {
        let mut v = vec![-7; 4];
        self.get_active_atomic_counter_bufferiv(program, buffer, pname, &mut v);
        v
    }
    fn interface(&mut self, program: GLuint, interface: GLenum, pname: GLenum) -> GLint {
        let mut v = [-7];
        self.get_program_interfaceiv(program, interface, pname, &mut v);
        v[0]
    }
    fn resource_index(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLuint {
        self.get_program_resource_index(program, interface, name)
    }
    fn resource(
        &mut self,
        program: GLuint,
        interface: GLenum,
        i: GLuint,
        props: &[GLenum],
    ) -> Vec<GLint> {
        let mut v = vec![-7; 8];
        let mut length = -1;
        self.get_program_resourceiv(program, interface, i, props, 8, Some(&mut length), &mut v);
        v.truncate(length.max(0) as usize);
        v
    }
    fn gen_program_pipeline(&mut self) -> GLuint {
        Context::gen_program_pipeline(self)
    }
    fn bind_program_pipeline(&mut self, pipeline: GLuint) {
        Context::bind_program_pipeline(self, pipeline)
    }
    fn use_program_stages(&mut self, pipeline: GLuint, stages: GLbitfield, program: GLuint) {
        Context::use_program_stages(self, pipeline, stages, program)
    }
}

impl CounterGl for NativeGl {
    fn integer_index(&mut self, target: GLenum, index: GLuint) -> GLint {
        NativeGl::get_integer_index(self, target, index)
    }
    fn delete_buffer(&mut self, buffer: GLuint) {
        type F = unsafe extern "system" fn(GLsizei, *const GLuint);
        let f: F = self
            .entry_point("glDeleteBuffers")
            .expect("glDeleteBuffers");
        let p: *const GLuint = &buffer;
        // SAFETY: the driver's glDeleteBuffers with its C signature, called while the
        // context is current, reading one name.
        unsafe { f(1, p) }
    }
    fn counter_buffer(&mut self, program: GLuint, buffer: GLuint, pname: GLenum) -> Vec<GLint> {
        type F = unsafe extern "system" fn(GLuint, GLuint, GLenum, *mut GLint);
        let f: F = self
            .entry_point("glGetActiveAtomicCounterBufferiv")
            .expect("glGetActiveAtomicCounterBufferiv");
        let mut v = vec![-7; 4];
        // SAFETY: the driver's entry point with its C signature, called while the context
        // is current; the queries asked write at most 4 values.
        unsafe { f(program, buffer, pname, v.as_mut_ptr()) };
        v
    }
    fn interface(&mut self, program: GLuint, interface: GLenum, pname: GLenum) -> GLint {
        self.program_interface(program, interface, pname)
    }
    fn resource_index(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLuint {
        self.program_resource_index(program, interface, name)
    }
    fn resource(
        &mut self,
        program: GLuint,
        interface: GLenum,
        i: GLuint,
        props: &[GLenum],
    ) -> Vec<GLint> {
        let (mut v, length) = self.program_resource(program, interface, i, props, 8);
        v.truncate(length.max(0) as usize);
        v
    }
    fn gen_program_pipeline(&mut self) -> GLuint {
        type F = unsafe extern "system" fn(GLsizei, *mut GLuint);
        let f: F = self
            .entry_point("glGenProgramPipelines")
            .expect("glGenProgramPipelines");
        let mut p = 0;
        // SAFETY: the driver's entry point with its C signature, called while the context
        // is current; it writes one name.
        unsafe { f(1, &mut p) };
        p
    }
    fn bind_program_pipeline(&mut self, pipeline: GLuint) {
        type F = unsafe extern "system" fn(GLuint);
        let f: F = self
            .entry_point("glBindProgramPipeline")
            .expect("glBindProgramPipeline");
        // SAFETY: as above.
        unsafe { f(pipeline) }
    }
    fn use_program_stages(&mut self, pipeline: GLuint, stages: GLbitfield, program: GLuint) {
        type F = unsafe extern "system" fn(GLuint, GLbitfield, GLuint);
        let f: F = self
            .entry_point("glUseProgramStages")
            .expect("glUseProgramStages");
        // SAFETY: as above.
        unsafe { f(pipeline, stages, program) }
    }
}

fn shader(gl: &mut dyn CounterGl, kind: GLenum, src: &str) -> GLuint {
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

fn program(gl: &mut dyn CounterGl, stages: &[(GLenum, &str)]) -> GLuint {
    linked(gl, stages, false)
}

/// A program of `stages`, separable (for program pipelines) or not.
fn linked(gl: &mut dyn CounterGl, stages: &[(GLenum, &str)], separable: bool) -> GLuint {
    let p = gl.create_program();
    if separable {
        gl.program_parameteri(p, PROGRAM_SEPARABLE, TRUE as GLint);
    }
    for &(kind, src) in stages {
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

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

/// A buffer of `contents` bound to `target`.
fn buffer(gl: &mut dyn CounterGl, target: GLenum, contents: &[u32]) -> GLuint {
    let b = gl.gen_buffer();
    gl.bind_buffer(target, b);
    let data = bytes(contents);
    gl.buffer_data(target, data.len(), Some(&data), DYNAMIC_COPY);
    b
}

/// `n` words of buffer `b`.
fn read(gl: &mut dyn CounterGl, b: GLuint, n: usize) -> Vec<u32> {
    gl.bind_buffer(COPY_READ_BUFFER, b);
    let mut out = vec![0u8; 4 * n];
    gl.get_buffer_sub_data(COPY_READ_BUFFER, 0, &mut out);
    words(&out)
}

const COUNT_VS: &str = "#version 330
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

/// Counts fragments (GLSL 3.30 with the extension) and marks each value the counter
/// returned in a storage buffer, so each mark is 1 where every value is unique.
const COUNT_FS: &str = "#version 330
#extension GL_ARB_shader_atomic_counters : require
#extension GL_ARB_shader_storage_buffer_object : require
layout(binding = 1, offset = 8) uniform atomic_uint fragments;
layout(std430, binding = 0) buffer Seen { uint seen[]; };
out vec4 colour;
void main() {
    uint old = atomicCounterIncrement(fragments);
    atomicAdd(seen[(old - 5u) % 256u], 1u);
    colour = vec4(0.0, 1.0, 0.0, 1.0);
}
";

/// The counter buffer and the marks after a 16x16 quad (256 fragments) on a counter at 5.
fn count_fragments(gl: &mut dyn CounterGl) -> (Vec<u32>, Vec<u32>) {
    gl.viewport(0, 0, 16, 16);
    let counters = buffer(gl, ATOMIC_COUNTER_BUFFER, &[1, 2, 5, 4]);
    gl.bind_buffer_base(ATOMIC_COUNTER_BUFFER, 1, counters);
    let seen = buffer(gl, SHADER_STORAGE_BUFFER, &[0; 256]);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 0, seen);
    let p = program(
        gl,
        &[(VERTEX_SHADER, COUNT_VS), (FRAGMENT_SHADER, COUNT_FS)],
    );
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = buffer(gl, ARRAY_BUFFER, &[]);
    let verts = bytes(&[-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0].map(|v: f32| v.to_bits()));
    gl.bind_buffer(ARRAY_BUFFER, vb);
    gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.memory_barrier(ATOMIC_COUNTER_BARRIER_BIT | BUFFER_UPDATE_BARRIER_BIT);
    let c = read(gl, counters, 4);
    let s = read(gl, seen, 256);
    assert_eq!(gl.get_error(), NO_ERROR);
    (c, s)
}

/// One invocation: what each counter function returns, in order, on a counter at 10.
const RETURNS_CS: &str = "#version 420
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
layout(local_size_x = 1) in;
layout(binding = 0) uniform atomic_uint c;
layout(std430, binding = 3) buffer Out { uint r[6]; };
void main() {
    r[0] = atomicCounterDecrement(c);
    r[1] = atomicCounter(c);
    r[2] = atomicCounterIncrement(c);
    r[3] = atomicCounter(c);
    r[4] = atomicCounterDecrement(c);
    r[5] = atomicCounterDecrement(c);
}
";

fn returns(gl: &mut dyn CounterGl) -> (Vec<u32>, Vec<u32>) {
    let counters = buffer(gl, ATOMIC_COUNTER_BUFFER, &[10]);
    gl.bind_buffer_base(ATOMIC_COUNTER_BUFFER, 0, counters);
    let out = buffer(gl, SHADER_STORAGE_BUFFER, &[0; 6]);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 3, out);
    let p = program(gl, &[(COMPUTE_SHADER, RETURNS_CS)]);
    gl.use_program(p);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(ATOMIC_COUNTER_BARRIER_BIT | BUFFER_UPDATE_BARRIER_BIT);
    let r = read(gl, out, 6);
    let c = read(gl, counters, 1);
    assert_eq!(gl.get_error(), NO_ERROR);
    (r, c)
}

/// 64 invocations: an array of three counters at offset 4 of binding 0 (offsets after it
/// follow it), a counter at offset 8 of binding 2, bound to ranges at offsets 16 and 32.
const ARRAYS_CS: &str = "#version 430
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, offset = 4) uniform atomic_uint per_class[3];
layout(binding = 0) uniform atomic_uint after;
layout(binding = 2, offset = 8) uniform atomic_uint all_;
void main() {
    atomicCounterIncrement(per_class[gl_LocalInvocationIndex % 3u]);
    if (gl_LocalInvocationIndex < 5u) atomicCounterDecrement(after);
    atomicCounterIncrement(all_);
}
";

fn arrays(gl: &mut dyn CounterGl) -> (Vec<u32>, Vec<u32>) {
    let first: Vec<u32> = (0..12).map(|i| 100 * i).collect();
    let a = buffer(gl, ATOMIC_COUNTER_BUFFER, &first);
    gl.bind_buffer_range(ATOMIC_COUNTER_BUFFER, 0, a, 16, 20);
    let b = buffer(gl, ATOMIC_COUNTER_BUFFER, &[7; 12]);
    gl.bind_buffer_range(ATOMIC_COUNTER_BUFFER, 2, b, 32, 12);
    let p = program(gl, &[(COMPUTE_SHADER, ARRAYS_CS)]);
    gl.use_program(p);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(ATOMIC_COUNTER_BARRIER_BIT | BUFFER_UPDATE_BARRIER_BIT);
    let got = (read(gl, a, 12), read(gl, b, 12));
    assert_eq!(gl.get_error(), NO_ERROR);
    got
}

/// A separable vertex program counting vertices in binding 2 (a storage slot of its own)
/// before a separable fragment program with a storage block and a counter of binding 0.
const PIPELINE_VS: &str = "#version 420
layout(location = 0) in vec2 position;
layout(binding = 2) uniform atomic_uint vertices;
out gl_PerVertex { vec4 gl_Position; float gl_PointSize; };
void main() {
    atomicCounterIncrement(vertices);
    gl_Position = vec4(position, 0.0, 1.0);
    gl_PointSize = 1.0;
}
";

const PIPELINE_FS: &str = "#version 420
#extension GL_ARB_shader_storage_buffer_object : require
layout(binding = 0, offset = 4) uniform atomic_uint fragments;
layout(std430, binding = 1) buffer Marks { uint marks[2]; };
out vec4 colour;
void main() {
    atomicCounterIncrement(fragments);
    atomicAdd(marks[1], 2u);
    colour = vec4(1.0);
}
";

/// Counters in a program pipeline of two programs: 16 points (one fragment each) drawn
/// twice. Each program's counters and storage blocks keep their binding points.
fn pipeline_counts(gl: &mut dyn CounterGl) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    gl.viewport(0, 0, 16, 16);
    let fragments = buffer(gl, ATOMIC_COUNTER_BUFFER, &[3, 10, 3]);
    gl.bind_buffer_base(ATOMIC_COUNTER_BUFFER, 0, fragments);
    let vertices = buffer(gl, ATOMIC_COUNTER_BUFFER, &[100]);
    gl.bind_buffer_base(ATOMIC_COUNTER_BUFFER, 2, vertices);
    let marks = buffer(gl, SHADER_STORAGE_BUFFER, &[5, 5]);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 1, marks);
    let vp = linked(gl, &[(VERTEX_SHADER, PIPELINE_VS)], true);
    let fp = linked(gl, &[(FRAGMENT_SHADER, PIPELINE_FS)], true);
    let pipe = gl.gen_program_pipeline();
    gl.use_program_stages(pipe, VERTEX_SHADER_BIT, vp);
    gl.use_program_stages(pipe, FRAGMENT_SHADER_BIT, fp);
    gl.bind_program_pipeline(pipe);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    // Pixel centres of a 16x16 viewport's diagonal.
    let points: Vec<u32> = (0..16)
        .flat_map(|i| {
            let c = (2 * i + 1) as f32 / 16.0 - 1.0;
            [c.to_bits(), c.to_bits()]
        })
        .collect();
    buffer(gl, ARRAY_BUFFER, &points);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.draw_arrays(POINTS, 0, 16);
    gl.draw_arrays(POINTS, 0, 16);
    gl.memory_barrier(ATOMIC_COUNTER_BARRIER_BIT | BUFFER_UPDATE_BARRIER_BIT);
    let got = (
        read(gl, fragments, 3),
        read(gl, vertices, 1),
        read(gl, marks, 2),
    );
    assert_eq!(gl.get_error(), NO_ERROR);
    got
}

/// The binding points' state, limits and errors, each with the error it raised.
fn transcript(gl: &mut dyn CounterGl) -> Vec<(String, Vec<i64>)> {
    let mut t = Vec::new();
    let b = buffer(gl, ATOMIC_COUNTER_BUFFER, &[0; 64]);
    let mut get = |gl: &mut dyn CounterGl, what: &str, v: Vec<i64>| {
        let e = gl.get_error() as i64;
        t.push((what.to_string(), [v, vec![e]].concat()));
    };
    for pname in [
        MAX_ATOMIC_COUNTER_BUFFER_BINDINGS,
        MAX_ATOMIC_COUNTER_BUFFER_SIZE,
        MAX_VERTEX_ATOMIC_COUNTERS,
        MAX_FRAGMENT_ATOMIC_COUNTERS,
        MAX_COMBINED_ATOMIC_COUNTERS,
        MAX_COMPUTE_ATOMIC_COUNTERS,
        MAX_VERTEX_ATOMIC_COUNTER_BUFFERS,
        MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS,
        MAX_COMBINED_ATOMIC_COUNTER_BUFFERS,
        ATOMIC_COUNTER_BUFFER_BINDING,
    ] {
        let mut v = [0];
        gl.get_integerv(pname, &mut v);
        get(gl, &format!("get {pname:#x}"), vec![v[0] as i64]);
    }
    gl.bind_buffer_range(ATOMIC_COUNTER_BUFFER, 3, b, 8, 16);
    get(gl, "range 3", vec![]);
    gl.bind_buffer_range(ATOMIC_COUNTER_BUFFER, 4, b, 2, 16);
    get(gl, "range offset 2", vec![]);
    gl.bind_buffer_range(ATOMIC_COUNTER_BUFFER, 4, b, 4, 0);
    get(gl, "range size 0", vec![]);
    gl.bind_buffer_base(ATOMIC_COUNTER_BUFFER, 16, b);
    get(gl, "base 16", vec![]);
    for index in [3, 4, 15, 16] {
        let v: Vec<i64> = [
            ATOMIC_COUNTER_BUFFER_BINDING,
            ATOMIC_COUNTER_BUFFER_START,
            ATOMIC_COUNTER_BUFFER_SIZE,
        ]
        .iter()
        .map(|&q| gl.integer_index(q, index) as i64)
        .collect();
        get(gl, &format!("indexed {index}"), v);
    }
    let mut v = [0];
    gl.get_integerv(ATOMIC_COUNTER_BUFFER_BINDING, &mut v);
    get(gl, "generic", vec![(v[0] as u32 == b) as i64]);
    gl.delete_buffer(b);
    let v = vec![gl.integer_index(ATOMIC_COUNTER_BUFFER_BINDING, 3) as i64];
    get(gl, "deleted", v);
    gl.memory_barrier(ATOMIC_COUNTER_BARRIER_BIT);
    get(gl, "barrier", vec![]);
    t
}

const QUERY_VS: &str = "#version 420
layout(location = 0) in vec4 position;
layout(binding = 3) uniform atomic_uint vertices;
void main() { atomicCounterIncrement(vertices); gl_Position = position; }
";

const QUERY_FS: &str = "#version 420
layout(binding = 1, offset = 8) uniform atomic_uint fragments;
layout(binding = 1) uniform atomic_uint more[2];
uniform vec4 tint;
out vec4 colour;
void main() {
    uint n = atomicCounterIncrement(fragments) + atomicCounter(more[1]);
    colour = tint * float(n);
}
";

/// The reflection of a program's counters through `glGetActiveUniformsiv`,
/// `glGetActiveAtomicCounterBufferiv` and the program interface queries, and their errors.
/// GL leaves the order of resources to the implementation, so buffers are named by their
/// bindings and uniforms by their names.
fn queries(gl: &mut dyn CounterGl) -> Vec<(String, Vec<i64>)> {
    let mut t = Vec::new();
    let p = program(
        gl,
        &[(VERTEX_SHADER, QUERY_VS), (FRAGMENT_SHADER, QUERY_FS)],
    );
    let uniforms = gl.get_programi(p, ACTIVE_UNIFORMS);
    let buffers = gl.get_programi(p, ACTIVE_ATOMIC_COUNTER_BUFFERS);
    t.push(("counts".to_string(), vec![uniforms as i64, buffers as i64]));
    let mut names: Vec<(String, GLuint)> = (0..uniforms as GLuint)
        .map(|i| (gl.get_active_uniform(p, i).0, i))
        .collect();
    names.sort();
    let binding_of = |gl: &mut dyn CounterGl, b: GLint| {
        if b < 0 {
            -1
        } else {
            gl.counter_buffer(p, b as GLuint, ATOMIC_COUNTER_BUFFER_BINDING)[0] as i64
        }
    };
    for (name, i) in &names {
        let (_, size, ty) = gl.get_active_uniform(p, *i);
        let mut v = vec![size as i64, ty as i64];
        for pname in [UNIFORM_BLOCK_INDEX, UNIFORM_OFFSET, UNIFORM_ARRAY_STRIDE] {
            let mut out = [-7];
            gl.get_active_uniformsiv(p, &[*i], pname, &mut out);
            v.push(out[0] as i64);
        }
        let mut out = [-7];
        gl.get_active_uniformsiv(p, &[*i], UNIFORM_ATOMIC_COUNTER_BUFFER_INDEX, &mut out);
        v.push(binding_of(gl, out[0]));
        let r = gl.resource(
            p,
            UNIFORM,
            *i,
            &[ATOMIC_COUNTER_BUFFER_INDEX, OFFSET, LOCATION],
        );
        v.push(binding_of(gl, r[0]));
        v.push(r[1] as i64);
        // Counters have no location. (Mesa numbers the other uniforms' locations after
        // slots it keeps for the counters, Tessera from 0: GL leaves locations to the
        // implementation, so theirs are not compared.)
        if ty == UNSIGNED_INT_ATOMIC_COUNTER {
            v.push(r[2] as i64);
            v.push(gl.get_uniform_location(p, name.trim_end_matches("[0]")) as i64);
        }
        v.push(gl.get_error() as i64);
        t.push((format!("uniform {name}"), v));
    }
    let mut by_binding: Vec<(i64, GLuint)> = (0..buffers as GLuint)
        .map(|b| (binding_of(gl, b as GLint), b))
        .collect();
    by_binding.sort();
    for (binding, b) in by_binding {
        let mut v = Vec::new();
        for pname in [
            ATOMIC_COUNTER_BUFFER_DATA_SIZE,
            ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS,
            ATOMIC_COUNTER_BUFFER_REFERENCED_BY_VERTEX_SHADER,
            ATOMIC_COUNTER_BUFFER_REFERENCED_BY_FRAGMENT_SHADER,
            ATOMIC_COUNTER_BUFFER_REFERENCED_BY_COMPUTE_SHADER,
        ] {
            v.push(gl.counter_buffer(p, b, pname)[0] as i64);
        }
        // The counters' names, sorted.
        let n = v[1] as usize;
        let indices = gl.counter_buffer(p, b, ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES);
        let mut counters: Vec<String> = indices[..n]
            .iter()
            .map(|&i| gl.get_active_uniform(p, i as GLuint).0)
            .collect();
        counters.sort();
        let r = gl.resource(
            p,
            ATOMIC_COUNTER_BUFFER,
            b,
            &[
                BUFFER_BINDING,
                BUFFER_DATA_SIZE,
                NUM_ACTIVE_VARIABLES,
                REFERENCED_BY_VERTEX_SHADER,
                REFERENCED_BY_FRAGMENT_SHADER,
            ],
        );
        v.extend(r.iter().map(|&x| x as i64));
        v.push(gl.get_error() as i64);
        t.push((format!("buffer {binding}: {counters:?}"), v));
    }
    let mut get = |gl: &mut dyn CounterGl, what: &str, v: Vec<i64>| {
        let e = gl.get_error() as i64;
        t.push((what.to_string(), [v, vec![e]].concat()));
    };
    let v = gl.interface(p, ATOMIC_COUNTER_BUFFER, ACTIVE_RESOURCES) as i64;
    get(gl, "interface resources", vec![v]);
    let v = gl.interface(p, ATOMIC_COUNTER_BUFFER, MAX_NUM_ACTIVE_VARIABLES) as i64;
    get(gl, "interface max variables", vec![v]);
    gl.interface(p, ATOMIC_COUNTER_BUFFER, MAX_NAME_LENGTH);
    get(gl, "interface max name length", vec![]);
    gl.resource_index(p, ATOMIC_COUNTER_BUFFER, "fragments");
    get(gl, "resource index", vec![]);
    gl.resource(p, ATOMIC_COUNTER_BUFFER, 0, &[NAME_LENGTH]);
    get(gl, "name length", vec![]);
    gl.counter_buffer(p, buffers as GLuint, ATOMIC_COUNTER_BUFFER_BINDING);
    get(gl, "buffer past the last", vec![]);
    gl.counter_buffer(p, 0, UNIFORM_OFFSET);
    get(gl, "wrong pname", vec![]);
    t
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn CounterGl) -> T) -> T {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| scene(&mut ctx)));
            let events: Vec<Event> = ctx.take_events();
            let got = got.unwrap_or_else(|_| {
                panic!("{} {}: events {events:?}", backend.name(), transport.name())
            });
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    expected
}

#[test]
fn fragments_counted_with_atomic_counter_increment_match_the_native_driver() {
    let (counters, seen) = compare(count_fragments);
    assert_eq!(counters, [1, 2, 5 + 256, 4]);
    assert_eq!(seen, [1; 256]);
}

#[test]
fn counter_functions_return_what_the_native_driver_returns() {
    let (r, c) = compare(returns);
    // Decrement returns the new value, increment the old one.
    assert_eq!((r, c), (vec![9, 9, 9, 10, 9, 8], vec![8]));
}

#[test]
fn counters_at_offsets_and_in_arrays_of_two_bindings_match_the_native_driver() {
    let (a, b) = compare(arrays);
    // Binding 0 starts at word 4: per_class at words 5..8 (22, 21, 21 of 64), after at 8.
    assert_eq!(&a[4..9], &[400, 500 + 22, 600 + 21, 700 + 21, 800 - 5]);
    assert_eq!(b[8 + 2], 7 + 64);
}

#[test]
fn counters_in_a_program_pipeline_of_two_programs_match_the_native_driver() {
    let (fragments, vertices, marks) = compare(pipeline_counts);
    assert_eq!(
        (fragments, vertices, marks),
        (vec![3, 10 + 32, 3], vec![100 + 32], vec![5, 5 + 64])
    );
}

#[test]
fn counter_reflection_and_its_errors_match_the_native_driver() {
    let t = compare(queries);
    // 4 uniforms, 2 buffers, 7 lines of the interface and errors.
    assert_eq!(t.len(), 1 + 4 + 2 + 7, "{t:?}");
}

#[test]
fn binding_points_limits_and_errors_match_the_native_driver() {
    let t = compare(transcript);
    assert_eq!(t.len(), 21);
}

/// 64 invocations through functions that take counters (an element of an array chosen by
/// the invocation, a counter passed on from one function to another), a counter function
/// named by a macro, a binding taken from a macro, a default qualifier declaration without
/// a type, and repeated qualifiers (the last one counts).
const ARGUMENTS_CS: &str = "#version 430
#define OP atomicCounterDecrement
#define B 1
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 7, binding = 2, offset = 4) uniform;
layout(binding = 0, offset = 8, offset = 0) uniform atomic_uint per_class[3];
layout(binding = B) uniform atomic_uint down;
layout(std430, binding = 3) buffer Out { uint r[64]; };
uint bump(atomic_uint c, uint by) { return atomicCounterIncrement(c) + by; }
uint twice(const in atomic_uint c) { bump(c, 0u); return OP((c)); }
void main() {
    uint i = gl_LocalInvocationIndex;
    r[i] = bump(per_class[i % 3u], 1000u) + twice(down);
    atomicCounter(down);
}
";

fn arguments(gl: &mut dyn CounterGl) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let a = buffer(gl, ATOMIC_COUNTER_BUFFER, &[10, 20, 30, 40]);
    gl.bind_buffer_base(ATOMIC_COUNTER_BUFFER, 0, a);
    let b = buffer(gl, ATOMIC_COUNTER_BUFFER, &[500, 600]);
    gl.bind_buffer_base(ATOMIC_COUNTER_BUFFER, 1, b);
    let out = buffer(gl, SHADER_STORAGE_BUFFER, &[0; 64]);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 3, out);
    let p = program(gl, &[(COMPUTE_SHADER, ARGUMENTS_CS)]);
    gl.use_program(p);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(ATOMIC_COUNTER_BARRIER_BIT | BUFFER_UPDATE_BARRIER_BIT);
    // The returned values depend on the order of the invocations: their sum does not.
    let r = read(gl, out, 64);
    let sum = vec![r.iter().map(|&v| u64::from(v)).sum::<u64>() as u32];
    let got = (read(gl, a, 4), read(gl, b, 2), sum);
    assert_eq!(gl.get_error(), NO_ERROR);
    got
}

#[test]
fn counters_passed_to_functions_match_the_native_driver() {
    let (a, b, _) = compare(arguments);
    // 22, 21 and 21 of the 64 invocations in each class; down is incremented and
    // decremented once by each.
    assert_eq!(
        (a, b),
        (vec![10 + 22, 20 + 21, 30 + 21, 40], vec![500, 600])
    );
}

/// The compile status and whether the log is empty for shaders that use a counter as GL
/// does not allow (an assignment, an increment, a conversion, an operand, an initializer,
/// an `out` parameter) and for allowed ones.
fn compile_statuses(gl: &mut dyn CounterGl) -> Vec<(i32, bool)> {
    let bodies = [
        ("", "x = 0u;"),
        ("", "x++;"),
        ("", "x = y;"),
        ("", "float f = float(x);"),
        ("", "uint u = 1u + x;"),
        ("", "bool b = (x == 0u);"),
        ("void f(out atomic_uint c) {}\n", ""),
        ("void f(inout atomic_uint c) {}\n", ""),
        ("void f(atomic_uint c) {}\n", "f(x);"),
        (
            "",
            "uint u = atomicCounter((x)) + atomicCounterIncrement(y);",
        ),
    ];
    let mut out = Vec::new();
    for (function, body) in bodies {
        let src = format!(
            "#version 420\nlayout(binding = 0) uniform atomic_uint x;\n\
             layout(binding = 0) uniform atomic_uint y;\nout vec4 c;\n{function}\
             void main() {{ {body} c = vec4(1.0); }}\n"
        );
        let s = gl.create_shader(FRAGMENT_SHADER);
        gl.shader_source(s, &src);
        gl.compile_shader(s);
        out.push((
            gl.get_shaderi(s, COMPILE_STATUS),
            gl.shader_info_log(s).is_empty(),
        ));
    }
    let init = "#version 420\nlayout(binding = 0) uniform atomic_uint x = 0;\nvoid main() {}\n";
    let s = gl.create_shader(FRAGMENT_SHADER);
    gl.shader_source(s, init);
    gl.compile_shader(s);
    out.push((
        gl.get_shaderi(s, COMPILE_STATUS),
        gl.shader_info_log(s).is_empty(),
    ));
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

#[test]
fn invalid_counter_uses_fail_to_compile_as_in_the_native_driver() {
    let t = compare(compile_statuses);
    let ok: Vec<i32> = t.iter().map(|(s, _)| *s).collect();
    assert_eq!(ok, [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0]);
}

/// One invocation: what each operation of `ARB_shader_atomic_counter_ops` returns (the
/// value before it) and leaves, in order, on counters of two bindings, mixed with GL 4.2's
/// functions and nested in each other's data.
const OPS_CS: &str = "#version 430
#extension GL_ARB_shader_atomic_counter_ops : require
layout(local_size_x = 1) in;
layout(binding = 0) uniform atomic_uint c[3];
layout(binding = 2, offset = 4) uniform atomic_uint d;
layout(std430, binding = 3) buffer Out { uint r[16]; };
uniform uint k;
void main() {
    r[0] = atomicCounterAddARB(c[0], k);
    r[1] = atomicCounterSubtractARB(c[0], 3u);
    r[2] = atomicCounterSubtractARB(c[1], k + 100u);
    r[3] = atomicCounterMinARB(c[2], 4u);
    r[4] = atomicCounterMaxARB(c[2], k * 2u);
    r[5] = atomicCounterAndARB(d, 0xF0u);
    r[6] = atomicCounterOrARB(d, 0x0Fu);
    r[7] = atomicCounterXorARB(d, 0xFFu);
    r[8] = atomicCounterExchangeARB(c[1], 77u);
    r[9] = atomicCounterCompSwapARB(c[1], 76u, 5u);
    r[10] = atomicCounterCompSwapARB(c[1], 77u, 6u);
    r[11] = atomicCounterAddARB(c[0], 1u) + atomicCounterMinARB(d, 3u);
    r[12] = atomicCounterExchangeARB(c[2], atomicCounterMaxARB(d, 0x1000u));
    r[13] = atomicCounter(c[0]);
    r[14] = atomicCounterDecrement(c[2]);
    r[15] = atomicCounterCompSwapARB(d, 0x1000u, atomicCounterXorARB(c[0], 1u));
}
";

fn operations(gl: &mut dyn CounterGl) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let a = buffer(gl, ATOMIC_COUNTER_BUFFER, &[10, 20, 30, 40]);
    gl.bind_buffer_base(ATOMIC_COUNTER_BUFFER, 0, a);
    let b = buffer(gl, ATOMIC_COUNTER_BUFFER, &[1, 0x3C, 2]);
    gl.bind_buffer_base(ATOMIC_COUNTER_BUFFER, 2, b);
    let out = buffer(gl, SHADER_STORAGE_BUFFER, &[0; 16]);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 3, out);
    let p = program(gl, &[(COMPUTE_SHADER, OPS_CS)]);
    gl.use_program(p);
    let k = gl.get_uniform_location(p, "k");
    gl.uniform1uiv(k, &[9]);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(ATOMIC_COUNTER_BARRIER_BIT | BUFFER_UPDATE_BARRIER_BIT);
    let got = (read(gl, out, 16), read(gl, a, 4), read(gl, b, 3));
    assert_eq!(gl.get_error(), NO_ERROR);
    got
}

#[test]
fn counter_operations_return_and_leave_what_the_native_driver_does() {
    let (r, a, b) = compare(operations);
    // A few by hand: add and subtract return the value before, subtracting wraps.
    assert_eq!(&r[..3], &[10, 19, 20]);
    assert_eq!(a[3], 40);
    assert_eq!(b[0], 1);
    assert_eq!(r.len(), 16);
}

/// 64 invocations: operations whose result does not depend on the order of the
/// invocations, on counters named and passed to functions (each operation through a
/// parameter), a compare-and-swap that one invocation wins, and the fragments of a 16x16
/// quad adding their numbers (piglit's `add`).
const OPS_MANY_CS: &str = "#version 430
#extension GL_ARB_shader_atomic_counter_ops : enable
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform atomic_uint sum, diff, lo, hi, ands, ors, xors, swapped;
layout(binding = 1) uniform atomic_uint via[6];
layout(std430, binding = 3) buffer Out { uint won[64]; };
uint apply(atomic_uint c, uint i, uint op) {
    switch (op) {
    case 0u: return atomicCounterAddARB(c, i);
    case 1u: return atomicCounterSubtractARB(c, i);
    case 2u: return atomicCounterMinARB(c, i + 7u);
    case 3u: return atomicCounterMaxARB(c, i * 3u);
    case 4u: return atomicCounterOrARB(c, 1u << (i % 32u));
    default: return atomicCounterCompSwapARB(c, 0u, 9u);
    }
}
void main() {
    uint i = gl_LocalInvocationIndex;
    atomicCounterAddARB(sum, i);
    atomicCounterSubtractARB(diff, i);
    atomicCounterMinARB(lo, i + 5u);
    atomicCounterMaxARB(hi, i * 2u);
    atomicCounterAndARB(ands, ~(1u << (i % 32u)));
    atomicCounterOrARB(ors, 1u << (i % 16u));
    atomicCounterXorARB(xors, i);
    won[i] = atomicCounterCompSwapARB(swapped, 0u, 7u) == 0u ? 1u : 0u;
    for (uint op = 0u; op < 6u; op++) {
        apply(via[op], i, op);
    }
}
";

const OPS_FS: &str = "#version 140
#extension GL_ARB_shader_atomic_counters : require
#extension GL_ARB_shader_atomic_counter_ops : require
out vec4 colour;
layout(binding = 0) uniform atomic_uint counter;
void main() {
    atomicCounterAddARB(counter, uint(gl_FragCoord.x) + 16u * uint(gl_FragCoord.y));
    colour = vec4(0.0, 1.0, 0.0, 1.0);
}
";

fn many_operations(gl: &mut dyn CounterGl) -> (Vec<u32>, Vec<u32>, u32, u32) {
    let a = buffer(
        gl,
        ATOMIC_COUNTER_BUFFER,
        &[5, 1000, 500, 3, !0, 0, 0xAAAA, 0],
    );
    gl.bind_buffer_base(ATOMIC_COUNTER_BUFFER, 0, a);
    let v = buffer(gl, ATOMIC_COUNTER_BUFFER, &[1, 100_000, 900, 0, 0, 0]);
    gl.bind_buffer_base(ATOMIC_COUNTER_BUFFER, 1, v);
    let out = buffer(gl, SHADER_STORAGE_BUFFER, &[0; 64]);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 3, out);
    let p = program(gl, &[(COMPUTE_SHADER, OPS_MANY_CS)]);
    gl.use_program(p);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(ATOMIC_COUNTER_BARRIER_BIT | BUFFER_UPDATE_BARRIER_BIT);
    let won = read(gl, out, 64).iter().sum();
    let (a, v) = (read(gl, a, 8), read(gl, v, 6));
    // The fragments.
    gl.viewport(0, 0, 16, 16);
    let f = buffer(gl, ATOMIC_COUNTER_BUFFER, &[0]);
    gl.bind_buffer_base(ATOMIC_COUNTER_BUFFER, 0, f);
    let p = program(gl, &[(VERTEX_SHADER, COUNT_VS), (FRAGMENT_SHADER, OPS_FS)]);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let verts = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0].map(|v: f32| v.to_bits());
    buffer(gl, ARRAY_BUFFER, &verts);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.memory_barrier(ATOMIC_COUNTER_BARRIER_BIT);
    let fragments = read(gl, f, 1)[0];
    assert_eq!(gl.get_error(), NO_ERROR);
    (a, v, won, fragments)
}

#[test]
fn counter_operations_of_many_invocations_match_the_native_driver() {
    let (a, v, won, fragments) = compare(many_operations);
    let sum: u32 = (0..64).sum();
    assert_eq!(a[0], 5 + sum);
    assert_eq!(a[1], 1000u32.wrapping_sub(sum));
    assert_eq!((a[2], a[3]), (5, 126));
    assert_eq!((a[4], a[5], a[6], a[7]), (0, 0xFFFF, 0xAAAA, 7));
    assert_eq!(v, [1 + sum, 100_000 - sum, 7, 189, !0, 9]);
    assert_eq!(won, 1);
    assert_eq!(fragments, (0..256).sum::<u32>());
}

/// The compile status of shaders that call the operations as GL allows or not: without
/// the extension (the `ARB` names and GLSL 4.60's are both absent), with it disabled, with
/// a counter as the data, with too few arguments, and GLSL 4.60's names in a GLSL 4.20
/// shader that enables it (native Mesa declares them only in GLSL 4.60).
fn operation_compile_statuses(gl: &mut dyn CounterGl) -> Vec<i32> {
    let cases = [
        ("", "atomicCounterAddARB(x, 1u);"),
        ("", "atomicCounterAdd(x, 1u);"),
        (
            "#extension GL_ARB_shader_atomic_counter_ops : disable\n",
            "atomicCounterAddARB(x, 1u);",
        ),
        (
            "#extension GL_ARB_shader_atomic_counter_ops : enable\n",
            "atomicCounterAddARB(x, 1u);",
        ),
        (
            "#extension GL_ARB_shader_atomic_counter_ops : enable\n",
            "atomicCounterAddARB(x, y);",
        ),
        (
            "#extension GL_ARB_shader_atomic_counter_ops : enable\n",
            "atomicCounterCompSwapARB(x, 1u);",
        ),
        (
            "#extension GL_ARB_shader_atomic_counter_ops : enable\n",
            "uint u = atomicCounterCompSwap(x, 1u, 2u);",
        ),
        (
            "#extension GL_ARB_shader_atomic_counter_ops : enable\n",
            "uint u = atomicCounterCompSwapARB(x, 1u, 2u) + atomicCounterXorARB((y), 3u);",
        ),
    ];
    let mut out = Vec::new();
    for (extension, body) in cases {
        let src = format!(
            "#version 420\n{extension}layout(binding = 0) uniform atomic_uint x;\n\
             layout(binding = 0) uniform atomic_uint y;\nout vec4 c;\n\
             void main() {{ {body} c = vec4(1.0); }}\n"
        );
        let s = gl.create_shader(FRAGMENT_SHADER);
        gl.shader_source(s, &src);
        gl.compile_shader(s);
        out.push(gl.get_shaderi(s, COMPILE_STATUS));
    }
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

#[test]
fn counter_operations_compile_where_the_native_driver_compiles_them() {
    let ok = compare(operation_compile_statuses);
    assert_eq!(ok, [0, 0, 0, 1, 0, 0, 0, 1]);
}

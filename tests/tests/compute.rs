//! Compute shaders and shader storage buffers against the native driver: a prefix sum with
//! shared memory and barriers, fragments counted with `atomicAdd` into a storage buffer,
//! `glDispatchComputeIndirect`, a compute pass feeding a draw, a GLSL 1.30 program that
//! enables storage blocks (which the front end reads as 4.30), the errors GL 4.3 names and
//! the limits, on both backends (Vulkan with the validation layer on, which must report
//! nothing). Bytes, pixels and errors must be exactly the native ones, except where a
//! difference is listed with its reason.

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
trait ComputeGl: Gl {
    /// `glGetIntegeri_v` of one value.
    fn get_integer_index(&mut self, target: GLenum, index: GLuint) -> GLint;
    /// `glGetProgramResourceIndex`.
    fn program_resource_index(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLuint;
    /// `glMapBufferRange` for reading (the mapping stays until [`ComputeGl::unmap`]).
    fn map_for_reading(&mut self, target: GLenum, length: usize);
    /// `glUnmapBuffer`.
    fn unmap(&mut self, target: GLenum);
    /// `glGetProgramiv(COMPUTE_WORK_GROUP_SIZE)`.
    fn work_group_size(&mut self, program: GLuint) -> [GLint; 3];
}

impl ComputeGl for Context {
    fn get_integer_index(&mut self, target: GLenum, index: GLuint) -> GLint {
        let mut v = [0];
        self.get_integeri_v(target, index, &mut v);
        v[0]
    }
    fn program_resource_index(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLuint {
        self.get_program_resource_index(program, interface, name)
    }
    fn map_for_reading(&mut self, target: GLenum, length: usize) {
        self.map_buffer_range(target, 0, length as isize, MAP_READ_BIT);
    }
    fn unmap(&mut self, target: GLenum) {
        self.unmap_buffer(target);
    }
    fn work_group_size(&mut self, program: GLuint) -> [GLint; 3] {
        let mut v = [0; 3];
        self.get_programiv(program, COMPUTE_WORK_GROUP_SIZE, &mut v);
        v
    }
}

impl ComputeGl for NativeGl {
    fn get_integer_index(&mut self, target: GLenum, index: GLuint) -> GLint {
        NativeGl::get_integer_index(self, target, index)
    }
    fn program_resource_index(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLuint {
        NativeGl::program_resource_index(self, program, interface, name)
    }
    fn map_for_reading(&mut self, target: GLenum, length: usize) {
        NativeGl::map_for_reading(self, target, length)
    }
    fn unmap(&mut self, target: GLenum) {
        NativeGl::unmap(self, target)
    }
    fn work_group_size(&mut self, program: GLuint) -> [GLint; 3] {
        NativeGl::compute_work_group_size(self, program)
    }
}

/// An inclusive prefix sum of 1024 uints by one work group of 512 invocations: the
/// up-sweep and down-sweep of a scan in shared memory, with `barrier()` between steps.
const PREFIX_SUM: &str = "#version 430
layout(local_size_x = 512) in;
layout(std430, binding = 2) buffer Data { uint v[]; } data;
shared uint s[1024];
void main() {
    uint i = gl_LocalInvocationID.x;
    s[2u * i] = data.v[2u * i];
    s[2u * i + 1u] = data.v[2u * i + 1u];
    for (uint d = 1u; d < 1024u; d *= 2u) {
        barrier();
        memoryBarrierShared();
        uint k = 2u * d * (i + 1u) - 1u;
        if (k < 1024u) s[k] += s[k - d];
    }
    for (uint d = 256u; d >= 1u; d /= 2u) {
        barrier();
        memoryBarrierShared();
        uint k = 2u * d * (i + 1u) - 1u;
        if (k + d < 1024u) s[k + d] += s[k];
    }
    barrier();
    data.v[2u * i] = s[2u * i];
    data.v[2u * i + 1u] = s[2u * i + 1u];
}
";

/// Each work group writes its id and the dispatch's size where its flat index says.
const GROUP_IDS: &str = "#version 430
layout(local_size_x = 2, local_size_y = 1, local_size_z = 1) in;
layout(std430) buffer Out { uvec4 ids[]; };
void main() {
    uvec3 g = gl_WorkGroupID;
    uvec3 n = gl_NumWorkGroups;
    uint at = (g.z * n.y + g.y) * n.x + g.x;
    if (gl_LocalInvocationIndex == 0u) ids[at] = uvec4(g, n.x * 100u + n.y * 10u + n.z);
}
";

const VS: &str = "#version 430
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

/// Counts its fragments in a storage buffer and colours each by its count's low bits'
/// absence (the colour must not depend on the order fragments run in).
const COUNT_FS: &str = "#version 430
layout(std430, binding = 5) buffer Counter { uint fragments; uint unused; };
out vec4 frag;
void main() {
    atomicAdd(fragments, 1u);
    frag = vec4(0.0, 1.0, 0.5, 1.0);
}
";

/// Writes a triangle's three positions (`vec2` each) scaled by a uniform.
const POSITIONS: &str = "#version 430
layout(local_size_x = 3) in;
layout(std430, binding = 0) buffer Positions { vec2 p[]; };
uniform float scale;
void main() {
    uint i = gl_LocalInvocationID.x;
    vec2 corners[3] = vec2[3](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0));
    p[i] = corners[i] * scale;
}
";

const FS: &str = "#version 430
out vec4 frag;
void main() { frag = vec4(1.0, 0.5, 0.25, 1.0); }
";

fn shader(gl: &mut dyn ComputeGl, kind: GLenum, src: &str) -> GLuint {
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

fn program(gl: &mut dyn ComputeGl, stages: &[(GLenum, &str)]) -> GLuint {
    let p = gl.create_program();
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

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The buffer bound to `target`, `len` bytes of it.
fn read(gl: &mut dyn ComputeGl, target: GLenum, buffer: GLuint, len: usize) -> Vec<u32> {
    gl.bind_buffer(target, buffer);
    let mut out = vec![0u8; len];
    gl.get_buffer_sub_data(target, 0, &mut out);
    words(&out)
}

/// The prefix sum's input.
fn scan_input() -> Vec<u32> {
    (0..1024u32).map(|i| (i * 7 + 3) % 13).collect()
}

fn prefix_sum(gl: &mut dyn ComputeGl) -> Vec<u32> {
    let p = program(gl, &[(COMPUTE_SHADER, PREFIX_SUM)]);
    let b = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, b);
    let input = bytes_of(&scan_input());
    gl.buffer_data(
        SHADER_STORAGE_BUFFER,
        input.len(),
        Some(&input),
        DYNAMIC_COPY,
    );
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 2, b);
    gl.use_program(p);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
    let out = read(gl, SHADER_STORAGE_BUFFER, b, 4096);
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

fn group_ids(gl: &mut dyn ComputeGl) -> (Vec<u32>, Vec<u32>) {
    let p = program(gl, &[(COMPUTE_SHADER, GROUP_IDS)]);
    assert_eq!(gl.work_group_size(p), [2, 1, 1]);
    let out = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, out);
    gl.buffer_data(SHADER_STORAGE_BUFFER, 16 * 12, None, DYNAMIC_COPY);
    // The block has no binding: binding point 3 through glShaderStorageBlockBinding.
    let index = get_program_resource_index(gl, p, "Out");
    gl.shader_storage_block_binding(p, index, 3);
    gl.bind_buffer_range(SHADER_STORAGE_BUFFER, 3, out, 0, 16 * 12);
    gl.use_program(p);
    // Counts at byte 4 of the indirect buffer, after a word of something else.
    let indirect = gl.gen_buffer();
    gl.bind_buffer(DISPATCH_INDIRECT_BUFFER, indirect);
    let counts = bytes_of(&[99, 3, 2, 2, 99]);
    gl.buffer_data(
        DISPATCH_INDIRECT_BUFFER,
        counts.len(),
        Some(&counts),
        STATIC_DRAW,
    );
    gl.dispatch_compute_indirect(4);
    gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
    let indirect_ids = read(gl, SHADER_STORAGE_BUFFER, out, 16 * 12);
    // A direct dispatch of other counts into the same buffer.
    gl.dispatch_compute(2, 1, 3);
    gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
    let direct_ids = read(gl, SHADER_STORAGE_BUFFER, out, 16 * 12);
    assert_eq!(gl.get_error(), NO_ERROR);
    (indirect_ids, direct_ids)
}

/// Writes through a block at binding point `binding`.
fn binding_point_program(binding: u32) -> String {
    format!(
        "#version 430
layout(local_size_x = 1) in;
layout(std430, binding = {binding}) buffer Out {{ uint v[]; }};
void main() {{ v[1] = {binding}u; }}
"
    )
}

/// A dispatch writing through the last binding point (with a buffer at the one before it
/// too), then the compile and link status of a block one past the last.
fn last_binding_point(gl: &mut dyn ComputeGl) -> (Vec<u32>, Vec<u32>, [GLint; 2]) {
    let mut last = [0];
    gl.get_integerv(MAX_SHADER_STORAGE_BUFFER_BINDINGS, &mut last);
    let last = last[0] as u32 - 1;
    let p = program(gl, &[(COMPUTE_SHADER, &binding_point_program(last))]);
    let [at_last, before] = [gl.gen_buffer(), gl.gen_buffer()];
    for (b, point) in [(at_last, last), (before, last - 1)] {
        gl.bind_buffer(SHADER_STORAGE_BUFFER, b);
        gl.buffer_data(SHADER_STORAGE_BUFFER, 8, Some(&[0; 8]), DYNAMIC_COPY);
        gl.bind_buffer_base(SHADER_STORAGE_BUFFER, point, b);
    }
    gl.use_program(p);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
    let written = read(gl, SHADER_STORAGE_BUFFER, at_last, 8);
    let untouched = read(gl, SHADER_STORAGE_BUFFER, before, 8);
    assert_eq!(gl.get_error(), NO_ERROR);
    let s = gl.create_shader(COMPUTE_SHADER);
    gl.shader_source(s, &binding_point_program(last + 1));
    gl.compile_shader(s);
    let compiled = gl.get_shaderi(s, COMPILE_STATUS);
    let past = gl.create_program();
    gl.attach_shader(past, s);
    gl.link_program(past);
    let linked = gl.get_programi(past, LINK_STATUS);
    (written, untouched, [compiled, linked])
}

/// Draws two overlapping triangles counting fragments; the count and the pixels.
fn count_fragments(gl: &mut dyn ComputeGl) -> (Vec<u32>, Vec<u8>) {
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    let p = program(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, COUNT_FS)]);
    let counter = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, counter);
    gl.buffer_data(
        SHADER_STORAGE_BUFFER,
        8,
        Some(&bytes_of(&[0, 7])),
        DYNAMIC_COPY,
    );
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 5, counter);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    let verts: Vec<u8> = [
        -1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, -0.5, -0.5, 0.5, -0.5, -0.5, 0.5,
    ]
    .iter()
    .flat_map(|v| v.to_le_bytes())
    .collect();
    gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.draw_arrays(TRIANGLES, 0, 6);
    gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
    let count = read(gl, SHADER_STORAGE_BUFFER, counter, 8);
    let mut pixels = vec![0u8; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut pixels);
    assert_eq!(gl.get_error(), NO_ERROR);
    (count, pixels)
}

/// A fragment stage (GLSL 3.30 with the extension) writing one struct into a std140 and a
/// std430 block, drawn as piglit's shader_runner draws (into a framebuffer object, with
/// buffers given storage after they were bound; zeros here, where it gives none) and read
/// back with no `glMemoryBarrier`, as native Mesa allows.
const STRUCT_FS: &str = "#version 330
#extension GL_ARB_shader_storage_buffer_object : require
struct T { uint c; };
struct S { uint a; uint b[2]; T t; };
layout(binding = 0, std140) buffer ssbo_std140 { S s140; };
layout(binding = 1, std430) buffer ssbo_std430 { S s430; };
out vec4 frag;
void main() {
    S s = S(42u, uint[2](1337u, 4711u), T(815u));
    s140 = s;
    s430 = s;
    frag = vec4(1.0);
}
";

fn struct_layouts(gl: &mut dyn ComputeGl) -> (Vec<u32>, Vec<u32>) {
    gl.viewport(0, 0, 16, 16);
    let fbo = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fbo);
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA8, 16, 16);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    let p = program(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, STRUCT_FS)]);
    let buffers = [gl.gen_buffer(), gl.gen_buffer()];
    for (i, b) in buffers.iter().enumerate() {
        gl.bind_buffer_base(SHADER_STORAGE_BUFFER, i as GLuint, *b);
        gl.buffer_data(SHADER_STORAGE_BUFFER, 64, Some(&[0; 64]), DYNAMIC_DRAW);
        gl.buffer_sub_data(SHADER_STORAGE_BUFFER, 0, &[7, 0, 0, 0]);
    }
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    let verts: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.bind_buffer(SHADER_STORAGE_BUFFER, buffers[0]);
    let std140 = words(&gl.read_mapped(SHADER_STORAGE_BUFFER, 0, 64));
    let std430 = read(gl, SHADER_STORAGE_BUFFER, buffers[1], 64);
    assert_eq!(gl.get_error(), NO_ERROR);
    (std140, std430)
}

/// One frame of a compute pass writing a triangle's vertices and a draw reading them.
fn compute_then_draw(
    gl: &mut dyn ComputeGl,
    state: &mut Option<(GLuint, GLuint, GLuint)>,
) -> Vec<u8> {
    let (compute, draw, positions) = *state.get_or_insert_with(|| {
        let compute = program(gl, &[(COMPUTE_SHADER, POSITIONS)]);
        let draw = program(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)]);
        let positions = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, positions);
        gl.buffer_data(ARRAY_BUFFER, 24, None, DYNAMIC_COPY);
        let vao = gl.gen_vertex_array();
        gl.bind_vertex_array(vao);
        gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
        gl.enable_vertex_attrib_array(0);
        gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 0, positions);
        (compute, draw, positions)
    });
    let _ = positions;
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.use_program(compute);
    let scale = gl.get_uniform_location(compute, "scale");
    gl.uniform1f(scale, 0.75);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(VERTEX_ATTRIB_ARRAY_BARRIER_BIT);
    gl.use_program(draw);
    gl.draw_arrays(TRIANGLES, 0, 3);
    let mut pixels = vec![0u8; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut pixels);
    assert_eq!(gl.get_error(), NO_ERROR);
    pixels
}

/// `glGetProgramResourceIndex(SHADER_STORAGE_BLOCK)` on either implementation.
fn get_program_resource_index(gl: &mut dyn ComputeGl, program: GLuint, name: &str) -> GLuint {
    gl.program_resource_index(program, SHADER_STORAGE_BLOCK, name)
}

/// The errors of misuse, in order.
fn errors(gl: &mut dyn ComputeGl) -> Vec<GLenum> {
    let mut e = Vec::new();
    let mut check = |gl: &mut dyn ComputeGl| e.push(gl.get_error());
    // No program, then a graphics program: no compute stage.
    gl.dispatch_compute(1, 1, 1);
    check(gl);
    gl.dispatch_compute_indirect(0);
    check(gl);
    let draw = program(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)]);
    gl.use_program(draw);
    gl.dispatch_compute(1, 1, 1);
    check(gl);
    let p = program(gl, &[(COMPUTE_SHADER, GROUP_IDS)]);
    gl.use_program(p);
    // Counts over the limit (one dimension at a time), and no work at all.
    gl.dispatch_compute(65536, 1, 1);
    check(gl);
    gl.dispatch_compute(1, 1, 65536);
    check(gl);
    gl.dispatch_compute(0, 0, 0);
    check(gl);
    // Indirect: misaligned, negative, no buffer, past the end, mapped.
    gl.dispatch_compute_indirect(2);
    check(gl);
    gl.dispatch_compute_indirect(-4);
    check(gl);
    gl.dispatch_compute_indirect(0);
    check(gl);
    let b = gl.gen_buffer();
    gl.bind_buffer(DISPATCH_INDIRECT_BUFFER, b);
    gl.buffer_data(
        DISPATCH_INDIRECT_BUFFER,
        16,
        Some(&bytes_of(&[1, 1, 1, 1])),
        STATIC_DRAW,
    );
    gl.dispatch_compute_indirect(8);
    check(gl);
    gl.map_for_reading(DISPATCH_INDIRECT_BUFFER, 16);
    gl.dispatch_compute_indirect(0);
    check(gl);
    gl.unmap(DISPATCH_INDIRECT_BUFFER);
    check(gl);
    // Barriers: the region form takes fragment-side bits only.
    gl.memory_barrier(ALL_BARRIER_BITS);
    check(gl);
    gl.memory_barrier(SHADER_STORAGE_BARRIER_BIT | COMMAND_BARRIER_BIT);
    check(gl);
    gl.memory_barrier_by_region(VERTEX_ATTRIB_ARRAY_BARRIER_BIT);
    check(gl);
    gl.memory_barrier_by_region(SHADER_STORAGE_BARRIER_BIT);
    check(gl);
    // Storage binding points: past the bindings, misaligned.
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 1000, b);
    check(gl);
    gl.bind_buffer_range(SHADER_STORAGE_BUFFER, 0, b, 1, 4);
    check(gl);
    gl.bind_buffer_range(SHADER_STORAGE_BUFFER, 0, b, 0, 0);
    check(gl);
    // A program's block: past its blocks, past the binding points.
    gl.shader_storage_block_binding(p, 1, 0);
    check(gl);
    gl.shader_storage_block_binding(p, 0, 1000);
    check(gl);
    // COMPUTE_WORK_GROUP_SIZE of a graphics program.
    gl.work_group_size(draw);
    check(gl);
    // Linking compute with another stage, and a compute shader without its local size.
    let mixed = gl.create_program();
    let cs = shader(gl, COMPUTE_SHADER, GROUP_IDS);
    let vs = shader(gl, VERTEX_SHADER, VS);
    gl.attach_shader(mixed, cs);
    gl.attach_shader(mixed, vs);
    gl.link_program(mixed);
    e.push(gl.get_programi(mixed, LINK_STATUS) as GLenum);
    let no_size = gl.create_program();
    let cs = shader(gl, COMPUTE_SHADER, "#version 430\nvoid main() {}\n");
    gl.attach_shader(no_size, cs);
    gl.link_program(no_size);
    e.push(gl.get_programi(no_size, LINK_STATUS) as GLenum);
    e.push(gl.get_error());
    e
}

/// What the native driver answers differently, and why: none of it is Tessera's choice to
/// copy.
///
/// - `glMemoryBarrier` with a bit GL does not define is `INVALID_VALUE` (GL 4.5 §7.13.2);
///   Mesa 22.3 takes any bits. No call in [`errors`] passes one: the check is below.
fn undefined_barrier_bit(gl: &mut dyn ComputeGl) -> GLenum {
    gl.memory_barrier(0x10);
    gl.get_error()
}

/// The limits of a context: those that must equal the native driver's (the same
/// rasterizer's compute limits), then those that are Tessera's own.
fn limits(gl: &mut dyn ComputeGl) -> (Vec<GLint>, Vec<GLint>) {
    let mut same = Vec::new();
    for pname in [MAX_COMPUTE_WORK_GROUP_COUNT, MAX_COMPUTE_WORK_GROUP_SIZE] {
        for i in 0..3 {
            same.push(gl.get_integer_index(pname, i));
        }
        gl.get_integer_index(pname, 3);
        same.push(gl.get_error() as GLint);
    }
    let one = |gl: &mut dyn ComputeGl, pname| {
        let mut v = [0];
        gl.get_integerv(pname, &mut v);
        v[0]
    };
    same.push(one(gl, MAX_COMPUTE_WORK_GROUP_INVOCATIONS));
    same.push(one(gl, MAX_COMPUTE_SHARED_MEMORY_SIZE));
    same.push(one(gl, MAX_SHADER_STORAGE_BUFFER_BINDINGS));
    let own = [
        MAX_VERTEX_SHADER_STORAGE_BLOCKS,
        MAX_FRAGMENT_SHADER_STORAGE_BLOCKS,
        MAX_COMPUTE_SHADER_STORAGE_BLOCKS,
        MAX_COMBINED_SHADER_STORAGE_BLOCKS,
        MAX_SHADER_STORAGE_BLOCK_SIZE,
        SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT,
    ]
    .map(|p| one(gl, p))
    .to_vec();
    (same, own)
}

/// A GLSL 1.30 vertex stage that enables `GL_ARB_shader_storage_buffer_object`, with
/// `varying` (the front end reads such shaders as 4.30, where the word is refused).
const OLD_VS: &str = "#version 130
#extension GL_ARB_shader_storage_buffer_object : require
in vec2 position;
varying vec4 v;
void main() {
    v = vec4(position * 0.5 + 0.5, 0.0, 1.0);
    gl_Position = vec4(position, 0.0, 1.0);
}
";

/// Its fragment stage: `varying`, `gl_FragColor`, a storage block and the `.length()` of an
/// implicitly sized array (4: one past its largest constant index, as Mesa's link sizes it).
const OLD_FS: &str = "#version 130
#extension GL_ARB_shader_storage_buffer_object : require
varying vec4 v;
buffer Counts { vec4 tint; uint fragments; int size; };
void main() {
    float unsized[];
    unsized[3] = v.x;
    size = unsized.length();
    atomicAdd(fragments, 1u);
    gl_FragColor = tint * v;
}
";

/// Draws a triangle with [`OLD_VS`] and [`OLD_FS`]: the block's words and the pixels.
fn glsl_130_storage_block(gl: &mut dyn ComputeGl) -> (Vec<u32>, Vec<u8>) {
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    let p = program(gl, &[(VERTEX_SHADER, OLD_VS), (FRAGMENT_SHADER, OLD_FS)]);
    let block = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, block);
    let init: Vec<u8> = [1.0f32, 0.5, 0.25, 1.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .chain([0u8; 16])
        .collect();
    gl.buffer_data(SHADER_STORAGE_BUFFER, init.len(), Some(&init), DYNAMIC_COPY);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 0, block);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    let verts: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.draw_arrays(TRIANGLES, 0, 3);
    gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
    let words = read(gl, SHADER_STORAGE_BUFFER, block, 32);
    let mut pixels = vec![0u8; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut pixels);
    assert_eq!(gl.get_error(), NO_ERROR);
    (words, pixels)
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn ComputeGl) -> T) {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = scene(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

#[test]
fn a_prefix_sum_with_shared_memory_matches_the_native_driver() {
    let expected: Vec<u32> = scan_input()
        .iter()
        .scan(0, |sum, v| {
            *sum += v;
            Some(*sum)
        })
        .collect();
    compare(|gl| {
        let got = prefix_sum(gl);
        assert_eq!(got, expected);
        got
    });
}

#[test]
fn a_glsl_130_storage_block_with_varyings_and_an_implicit_length_matches_the_native_driver() {
    compare(|gl| {
        let (words, pixels) = glsl_130_storage_block(gl);
        assert_eq!(words[5], 4, "the implicitly sized array's length");
        assert!(words[4] > 64, "fragments counted: {words:?}");
        (words, pixels)
    });
}

#[test]
fn indirect_and_direct_dispatches_match_the_native_driver() {
    compare(|gl| {
        let (indirect, direct) = group_ids(gl);
        // 3 x 2 x 2 groups, then 2 x 1 x 3.
        assert_eq!(&indirect[..4], &[0, 0, 0, 322]);
        assert_eq!(&direct[4..8], &[1, 0, 0, 213]);
        (indirect, direct)
    });
}

#[test]
fn fragments_counted_with_atomic_add_match_the_native_driver() {
    compare(|gl| {
        let (count, pixels) = count_fragments(gl);
        assert_eq!(count[1], 7, "the word after the counter is untouched");
        assert!(count[0] > 128, "{count:?}");
        (count, pixels)
    });
}

#[test]
fn structs_written_by_a_fragment_stage_into_std140_and_std430_blocks_match_the_native_driver() {
    compare(|gl| {
        let (std140, std430) = struct_layouts(gl);
        assert_eq!(
            &std140[..13],
            &[42, 0, 0, 0, 1337, 0, 0, 0, 4711, 0, 0, 0, 815]
        );
        assert_eq!(&std430[..4], &[42, 1337, 4711, 815]);
        (std140, std430)
    });
}

#[test]
fn a_compute_pass_feeding_a_draw_matches_the_native_driver() {
    compare(|gl| {
        let mut state = None;
        let first = compute_then_draw(gl, &mut state);
        let second = compute_then_draw(gl, &mut state);
        assert_eq!(first, second);
        first
    });
}

#[test]
fn the_last_storage_binding_point_and_one_past_it_match_the_native_driver() {
    compare(last_binding_point);
}

#[test]
fn compute_errors_match_the_native_driver() {
    compare(errors);
    let mut native = NativeGl::new(16, 16).expect("native desktop GL");
    assert_eq!(
        undefined_barrier_bit(&mut native),
        NO_ERROR,
        "Mesa takes any bits"
    );
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 16, 16);
        assert_eq!(
            undefined_barrier_bit(&mut ctx),
            INVALID_VALUE,
            "{}",
            backend.name()
        );
    }
}

#[test]
fn compute_limits_match_the_native_driver_where_they_are_the_drivers() {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL");
    let (expected, _) = limits(&mut native);
    drop(native);
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 16, 16);
        let (same, own) = limits(&mut ctx);
        assert_eq!(same, expected, "{}", backend.name());
        // Every stage, and the program, has the wire's 16 slots' worth of blocks (what
        // llvmpipe and lavapipe give a stage); the block size and alignment are the
        // backend's.
        assert_eq!(&own[..4], &[16, 16, 16, 16], "{}", backend.name());
        assert!(own[4] >= 1 << 24, "{}: {}", backend.name(), own[4]);
        assert!(
            own[5] >= 4 && own[5] <= 256 && (own[5] as u32).is_power_of_two(),
            "{}: {}",
            backend.name(),
            own[5]
        );
        assert_eq!(ctx.get_error(), NO_ERROR);
    }
}

#[test]
fn steady_compute_and_draw_frames_create_no_pipelines_on_the_vulkan_backend() {
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
    let mut state = None;
    let first = compute_then_draw(&mut ctx, &mut state);
    ctx.finish();
    let after_first = probe.stats();
    assert!(after_first.dispatches >= 1);
    for _ in 0..5 {
        assert_eq!(compute_then_draw(&mut ctx, &mut state), first);
    }
    ctx.finish();
    let steady = probe.stats();
    assert_eq!(
        steady.pipelines, after_first.pipelines,
        "pipelines made in steady frames"
    );
    assert_eq!(steady.dispatches, after_first.dispatches + 5);
    assert_eq!(steady.validation_messages, 0);
    let events = ctx.take_events();
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn compute_records_cross_a_process_transport() {
    // A private server process (`fork`): the records and the indirect buffer's checks go
    // through the wire's validation of another process's bytes.
    let mut native = NativeGl::new(16, 16).expect("native desktop GL");
    let expected = (prefix_sum(&mut native), group_ids(&mut native));
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
        let got = (prefix_sum(&mut ctx), group_ids(&mut ctx));
        assert_eq!(got, expected, "{backend:?}");
        let events = ctx.take_events();
        assert!(events.is_empty(), "{backend:?}: {events:?}");
    }
}

/// A compute program's uniform block, and the stages GL says reference it.
const UNIFORM_BLOCK_CS: &str = "#version 430
layout(local_size_x = 1) in;
layout(std140, binding = 1) uniform Params { uint k; };
layout(std430, binding = 0) buffer Out { uint v; };
void main() { v = k * 3u; }
";

fn compute_uniform_block(gl: &mut dyn ComputeGl) -> (Vec<GLint>, Vec<u32>) {
    let p = program(gl, &[(COMPUTE_SHADER, UNIFORM_BLOCK_CS)]);
    let index = gl.get_uniform_block_index(p, "Params");
    let mut referenced = Vec::new();
    for pname in [
        UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER,
        UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER,
        UNIFORM_BLOCK_REFERENCED_BY_COMPUTE_SHADER,
        UNIFORM_BLOCK_BINDING,
    ] {
        let mut v = [-1];
        gl.get_active_uniform_blockiv(p, index, pname, &mut v);
        referenced.push(v[0]);
    }
    referenced.extend(gl.work_group_size(p));
    let ubo = gl.gen_buffer();
    gl.bind_buffer(UNIFORM_BUFFER, ubo);
    gl.buffer_data(
        UNIFORM_BUFFER,
        16,
        Some(&bytes_of(&[14, 0, 0, 0])),
        STATIC_DRAW,
    );
    gl.bind_buffer_base(UNIFORM_BUFFER, 1, ubo);
    let out = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, out);
    gl.buffer_data(SHADER_STORAGE_BUFFER, 4, None, DYNAMIC_READ);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 0, out);
    gl.use_program(p);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
    let v = read(gl, SHADER_STORAGE_BUFFER, out, 4);
    assert_eq!(gl.get_error(), NO_ERROR);
    (referenced, v)
}

#[test]
fn a_compute_programs_uniform_block_matches_the_native_driver() {
    compare(|gl| {
        let (referenced, v) = compute_uniform_block(gl);
        assert_eq!(referenced, [0, 0, 1, 1, 1, 1, 1]);
        assert_eq!(v, [42]);
        (referenced, v)
    });
}

/// A vertex stage writing each vertex's position into a storage buffer (Vulkan's
/// `vertexPipelineStoresAndAtomics`).
const STORING_VS: &str = "#version 430
layout(location = 0) in vec2 position;
layout(std430, binding = 4) buffer Seen { vec2 seen[]; };
void main() {
    seen[gl_VertexID] = position * 2.0;
    gl_Position = vec4(position, 0.0, 1.0);
}
";

fn vertex_stores(gl: &mut dyn ComputeGl) -> Vec<u32> {
    gl.viewport(0, 0, 16, 16);
    let p = program(gl, &[(VERTEX_SHADER, STORING_VS), (FRAGMENT_SHADER, FS)]);
    gl.use_program(p);
    let seen = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, seen);
    gl.buffer_data(SHADER_STORAGE_BUFFER, 48, Some(&[0; 48]), DYNAMIC_READ);
    // Only the first half is bound: the rest stays zero.
    gl.bind_buffer_range(SHADER_STORAGE_BUFFER, 4, seen, 0, 24);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    let verts: Vec<u8> = [-0.5f32, -0.25, 0.75, -0.5, -0.5, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.draw_arrays(TRIANGLES, 0, 3);
    gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
    let out = read(gl, SHADER_STORAGE_BUFFER, seen, 48);
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

#[test]
fn a_vertex_stage_writing_a_storage_buffer_matches_the_native_driver() {
    compare(|gl| {
        let got = vertex_stores(gl);
        let floats: Vec<f32> = got[..6].iter().map(|w| f32::from_bits(*w)).collect();
        assert_eq!(floats, [-1.0, -0.5, 1.5, -1.0, -1.0, 2.0]);
        assert_eq!(&got[6..], &[0; 6], "past the bound range");
        got
    });
}

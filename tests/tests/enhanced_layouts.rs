//! GL 4.4's `ARB_enhanced_layouts` against the native driver on both backends (Vulkan with
//! the validation layer on, which must report nothing), over the in-process and the thread
//! transports: transform feedback captured as the shader's `xfb_buffer`, `xfb_offset` and
//! `xfb_stride` qualifiers lay it out (gaps, strides wider than the data, several buffers,
//! block members, built-ins), read back as bytes, with the captured varyings and buffers as
//! `glGetTransformFeedbackVarying`, `glGetProgramiv` and the `TRANSFORM_FEEDBACK_VARYING` and
//! `TRANSFORM_FEEDBACK_BUFFER` program interfaces report them.
//! Bytes, values and errors must be exactly the native ones.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The program interface calls the shared [`Gl`] table has no entry for.
trait InterfaceGl: Gl {
    /// `glGetProgramInterfaceiv`.
    fn interface(&mut self, program: GLuint, interface: GLenum, pname: GLenum) -> GLint;
    /// `glGetProgramResourceName`.
    fn resource_name(&mut self, program: GLuint, interface: GLenum, index: GLuint) -> String;
    /// `glGetProgramResourceiv` of `props` (room for 16 values; those not written stay -7).
    fn resource(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        props: &[GLenum],
    ) -> Vec<GLint>;
}

impl InterfaceGl for Context {
    fn interface(&mut self, program: GLuint, interface: GLenum, pname: GLenum) -> GLint {
        let mut v = [-1];
        self.get_program_interfaceiv(program, interface, pname, &mut v);
        v[0]
    }
    fn resource_name(&mut self, program: GLuint, interface: GLenum, index: GLuint) -> String {
        let mut buf = [0u8; 64];
        let mut length = 0;
        self.get_program_resource_name(program, interface, index, 64, Some(&mut length), &mut buf);
        String::from_utf8_lossy(&buf[..length.max(0) as usize]).into_owned()
    }
    fn resource(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        props: &[GLenum],
    ) -> Vec<GLint> {
        let mut v = vec![-7; 16];
        let mut length = 0;
        self.get_program_resourceiv(
            program,
            interface,
            index,
            props,
            16,
            Some(&mut length),
            &mut v,
        );
        v.truncate(length.max(0) as usize);
        v
    }
}

impl InterfaceGl for NativeGl {
    fn interface(&mut self, program: GLuint, interface: GLenum, pname: GLenum) -> GLint {
        self.program_interface(program, interface, pname)
    }
    fn resource_name(&mut self, program: GLuint, interface: GLenum, index: GLuint) -> String {
        self.program_resource_name(program, interface, index, 64).0
    }
    fn resource(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        props: &[GLenum],
    ) -> Vec<GLint> {
        let (mut v, length) = self.program_resource(program, interface, index, props, 16);
        v.truncate(length.max(0) as usize);
        v
    }
}

const FS: &str = "#version 440
out vec4 frag;
void main() { frag = vec4(1.0); }
";

/// Buffers bound for capture, each of this many bytes, filled with 0xAA first.
const SIZE: usize = 256;

/// What one run observed.
#[derive(Debug, PartialEq)]
struct Observed {
    log: String,
    linked: GLint,
    /// `TRANSFORM_FEEDBACK_VARYINGS`, `..._VARYING_MAX_LENGTH`, `..._BUFFER_MODE`.
    program: [GLint; 3],
    /// Each varying as `glGetTransformFeedbackVarying` reports it.
    varyings: Vec<(String, GLsizei, GLenum)>,
    /// The program interfaces: each resource's name and properties.
    resources: Vec<String>,
    buffers: Vec<Vec<u8>>,
    written: u32,
    error: GLenum,
}

/// Links `vs` (with `requested` named by `glTransformFeedbackVaryings`, if any) and captures
/// two triangles into four buffers.
fn capture(gl: &mut dyn InterfaceGl, vs: &str, requested: &[&str], mode: GLenum) -> Observed {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, vs), (FRAGMENT_SHADER, FS)] {
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
    gl.bind_attrib_location(p, 0, "position");
    if !requested.is_empty() {
        gl.transform_feedback_varyings(p, requested, mode);
    }
    gl.link_program(p);
    let linked = gl.get_programi(p, LINK_STATUS);
    let log = if linked == TRUE as GLint {
        String::new()
    } else {
        gl.program_info_log(p)
    };
    let program = [
        gl.get_programi(p, TRANSFORM_FEEDBACK_VARYINGS),
        gl.get_programi(p, TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH),
        gl.get_programi(p, TRANSFORM_FEEDBACK_BUFFER_MODE),
    ];
    let varyings = (0..program[0].max(0) as GLuint)
        .map(|i| gl.get_transform_feedback_varying(p, i))
        .collect();
    let mut resources = Vec::new();
    for (interface, props) in [
        (
            TRANSFORM_FEEDBACK_VARYING,
            &[
                NAME_LENGTH,
                TYPE,
                ARRAY_SIZE,
                OFFSET,
                TRANSFORM_FEEDBACK_BUFFER_INDEX,
            ][..],
        ),
        (
            TRANSFORM_FEEDBACK_BUFFER,
            &[
                BUFFER_BINDING,
                NUM_ACTIVE_VARIABLES,
                ACTIVE_VARIABLES,
                TRANSFORM_FEEDBACK_BUFFER_STRIDE,
            ][..],
        ),
    ] {
        let n = gl.interface(p, interface, ACTIVE_RESOURCES);
        let max = gl.interface(p, interface, MAX_NAME_LENGTH);
        let error = gl.get_error();
        resources.push(format!(
            "{interface:#x}: {n} resources, max name {max}, error {error:#x}"
        ));
        for i in 0..n.max(0) as GLuint {
            let name = if interface == TRANSFORM_FEEDBACK_VARYING {
                gl.resource_name(p, interface, i)
            } else {
                String::new()
            };
            // One property a call: Mesa writes each property's values from the next
            // value on, so a property after ACTIVE_VARIABLES overwrites all but its first.
            // Mesa counts NUM_ACTIVE_VARIABLES values for ACTIVE_VARIABLES but writes only
            // those whose buffer index is the buffer's, which differ around gl_NextBuffer:
            // the transcript keeps the values written.
            let values: Vec<Vec<GLint>> = props
                .iter()
                .map(|&prop| {
                    let mut v = gl.resource(p, interface, i, &[prop]);
                    if prop == ACTIVE_VARIABLES {
                        v.retain(|&x| x != -7);
                    }
                    v
                })
                .collect();
            let error = gl.get_error();
            resources.push(format!("  {i} {name:?} {values:?} error {error:#x}"));
        }
    }
    gl.get_error();
    let mut buffers = Vec::new();
    let mut written = 0;
    if linked == TRUE as GLint {
        gl.use_program(p);
        let vao = gl.gen_vertex_array();
        gl.bind_vertex_array(vao);
        let vb = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, vb);
        let verts: Vec<u8> = [
            -1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 0.5, 0.5, -0.5, 0.25,
        ]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
        gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
        gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
        gl.enable_vertex_attrib_array(0);
        let mut bufs = Vec::new();
        for i in 0..4 {
            let b = gl.gen_buffer();
            gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, b);
            gl.buffer_data(
                TRANSFORM_FEEDBACK_BUFFER,
                SIZE,
                Some(&[0xAA; SIZE]),
                STATIC_READ,
            );
            gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, i, b);
            bufs.push(b);
        }
        gl.enable(RASTERIZER_DISCARD);
        let q = gl.gen_query();
        gl.begin_query(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q);
        gl.begin_transform_feedback(TRIANGLES);
        gl.draw_arrays(TRIANGLES, 0, 6);
        gl.end_transform_feedback();
        gl.end_query(TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
        gl.disable(RASTERIZER_DISCARD);
        for b in &bufs {
            gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, *b);
            let mut out = vec![0u8; SIZE];
            gl.get_buffer_sub_data(TRANSFORM_FEEDBACK_BUFFER, 0, &mut out);
            buffers.push(out);
        }
        written = gl.query_result(q);
    }
    Observed {
        log,
        linked,
        program,
        varyings,
        resources,
        buffers,
        written,
        error: gl.get_error(),
    }
}

fn compare(vs: &str, requested: &[&str], mode: GLenum) {
    let mut native =
        NativeGl::new_linked_fresh(16, 16).expect("native desktop GL through the system EGL");
    let expected = capture(&mut native, vs, requested, mode);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = capture(&mut ctx, vs, requested, mode);
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
            assert_eq!(got, expected, "{} {transport:?}", backend.name());
        }
    }
}

/// Two buffers laid out by offsets with gaps, a stride wider than the data, a variable of
/// the global default buffer, one not captured.
const VS_OFFSETS: &str = "#version 440
in vec2 position;
layout(xfb_offset = 8) out vec3 a;
layout(xfb_buffer = 1, xfb_stride = 32) out;
layout(xfb_buffer = 1, xfb_offset = 4) flat out ivec2 b;
layout(xfb_buffer = 0, xfb_offset = 0) out float c;
layout(xfb_buffer = 1, xfb_offset = 16) out float d;
out vec4 e;
void main() {
    gl_Position = vec4(position, 0.25, 1.0);
    a = vec3(position * 2.0, float(gl_VertexID));
    b = ivec2(gl_VertexID, -gl_VertexID * 3);
    c = float(gl_VertexID) + 0.5;
    d = position.y - 3.0;
    e = vec4(7.0);
}
";

#[test]
fn xfb_offsets_lay_out_capture_as_natively() {
    compare(VS_OFFSETS, &[], INTERLEAVED_ATTRIBS);
}

#[test]
fn xfb_qualifiers_override_requested_varyings_as_natively() {
    compare(VS_OFFSETS, &["e", "a"], SEPARATE_ATTRIBS);
}

/// Members of output blocks (with and without an instance name, a whole block given an
/// offset) and an array, over three buffers.
const VS_BLOCKS: &str = "#version 440
in vec2 position;
layout(xfb_buffer = 2, xfb_offset = 4) out Blk { vec2 x; flat int y; } blk;
layout(xfb_buffer = 1) out Anon { layout(xfb_offset = 8) vec4 p; float q; };
layout(xfb_buffer = 0, xfb_offset = 4) out float arr[3];
void main() {
    gl_Position = vec4(position, 0.25, 1.0);
    blk.x = position * 3.0;
    blk.y = gl_VertexID * 5 - 2;
    p = vec4(position.yx, 1.5, float(gl_VertexID));
    q = 9.0;
    arr[0] = 1.0;
    arr[1] = position.x;
    arr[2] = -position.y;
}
";

#[test]
fn xfb_offsets_of_block_members_and_arrays_capture_as_natively() {
    compare(VS_BLOCKS, &[], INTERLEAVED_ATTRIBS);
}

/// `gl_Position` given an offset in a redeclared `gl_PerVertex`, with a user output in
/// another buffer.
const VS_PER_VERTEX: &str = "#version 440
in vec2 position;
layout(xfb_buffer = 3, xfb_stride = 32) out gl_PerVertex { layout(xfb_offset = 16) vec4 gl_Position; };
layout(xfb_buffer = 1, xfb_offset = 0) out float c;
void main() {
    gl_Position = vec4(position, 0.25, 1.0);
    c = float(gl_VertexID) + 0.5;
}
";

/// Native llvmpipe captures nothing of a redeclared `gl_PerVertex`'s members given offsets
/// (its linker reads `xfb_offset` on user outputs only, and lists no such varying), which
/// GLSL 4.40 §4.4.2.1 captures like any output: so this checks Tessera's capture against
/// the values the shader writes, the same on both backends and transports.
#[test]
fn xfb_offsets_in_a_redeclared_per_vertex_block_capture_built_ins() {
    let positions = [
        -1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 0.5, 0.5, -0.5, 0.25,
    ];
    let mut first: Option<Observed> = None;
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = capture(&mut ctx, VS_PER_VERTEX, &[], INTERLEAVED_ATTRIBS);
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
            assert_eq!(got.linked, TRUE as GLint, "{}", got.log);
            assert_eq!(
                got.varyings,
                [
                    ("c".to_owned(), 1, FLOAT),
                    ("gl_Position".to_owned(), 1, FLOAT_VEC4)
                ]
            );
            assert_eq!(got.written, 2);
            for v in 0..6 {
                let at = v * 32 + 16;
                let word = |k: usize| {
                    let b = &got.buffers[3][at + 4 * k..at + 4 * k + 4];
                    f32::from_le_bytes([b[0], b[1], b[2], b[3]])
                };
                let expected = [positions[2 * v], positions[2 * v + 1], 0.25, 1.0];
                assert_eq!([word(0), word(1), word(2), word(3)], expected, "vertex {v}");
                assert_eq!(
                    &got.buffers[3][v * 32..at],
                    &[0xAA; 16],
                    "the gap of vertex {v}"
                );
                let c = &got.buffers[1][v * 4..v * 4 + 4];
                assert_eq!(f32::from_le_bytes([c[0], c[1], c[2], c[3]]), v as f32 + 0.5);
            }
            match &first {
                None => first = Some(got),
                Some(f) => assert_eq!(&got, f, "{} {transport:?}", backend.name()),
            }
        }
    }
}

/// No xfb qualifier: the names `glTransformFeedbackVaryings` gives are captured, and the
/// buffer queries GL 4.4 adds describe their layout.
const VS_PLAIN: &str = "#version 440
in vec2 position;
out vec3 a;
flat out ivec2 b;
out float c;
void main() {
    gl_Position = vec4(position, 0.25, 1.0);
    a = vec3(position * 2.0, float(gl_VertexID));
    b = ivec2(gl_VertexID, -gl_VertexID * 3);
    c = float(gl_VertexID) + 0.5;
}
";

#[test]
fn requested_varyings_report_their_buffers_as_natively() {
    compare(
        VS_PLAIN,
        &[
            "a",
            "gl_SkipComponents1",
            "gl_NextBuffer",
            "c",
            "gl_NextBuffer",
            "gl_NextBuffer",
            "b",
            "gl_SkipComponents2",
        ],
        INTERLEAVED_ATTRIBS,
    );
    compare(VS_PLAIN, &["c", "gl_Position", "b"], SEPARATE_ATTRIBS);
}

/// A uniform block and a storage block whose members take explicit `offset`s and `align`s
/// (std140 and std430), read by a fragment shader that writes what it read into four
/// render targets' worth of one pixel row.
const VS_QUAD: &str = "#version 440
in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

const FS_OFFSETS: &str = "#version 440
layout(std140, binding = 1) uniform U {
    layout(offset = 4) float a;
    layout(align = 32) vec2 b;
    layout(offset = 80) vec3 c;
    float d;
    layout(offset = 112, align = 16) ivec2 e[2];
};
layout(std430, binding = 2) buffer S {
    layout(offset = 8) float sa;
    layout(align = 16) vec3 sb;
    layout(offset = 64) uint sc[2];
} s;
out vec4 frag;
void main() {
    int x = int(gl_FragCoord.x);
    vec4 v;
    if (x == 0) v = vec4(a, b, c.x);
    else if (x == 1) v = vec4(c.yz, d, float(e[0].y));
    else if (x == 2) v = vec4(float(e[1].x), s.sa, s.sb.xy);
    else v = vec4(s.sb.z, float(s.sc[0]), float(s.sc[1]), 1.0);
    frag = v / 256.0;
}
";

/// Block data: each 4-byte word `i` holds `i + 1` (as a float, or as an integer in the
/// integer members' words).
fn block_words(integer_words: &[usize], n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            if integer_words.contains(&i) {
                (i as u32 + 1).to_le_bytes()
            } else {
                (i as f32 + 1.0).to_le_bytes()
            }
        })
        .collect()
}

/// The block layout queries and the pixels the fragment shader writes.
fn block_offsets(gl: &mut dyn InterfaceGl) -> Vec<String> {
    let mut lines = Vec::new();
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS_QUAD), (FRAGMENT_SHADER, FS_OFFSETS)] {
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
    gl.bind_attrib_location(p, 0, "position");
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "{}",
        gl.program_info_log(p)
    );
    for (interface, props) in [
        (
            UNIFORM,
            &[TYPE, ARRAY_SIZE, OFFSET, ARRAY_STRIDE, BLOCK_INDEX][..],
        ),
        (UNIFORM_BLOCK, &[BUFFER_BINDING, BUFFER_DATA_SIZE][..]),
        (
            BUFFER_VARIABLE,
            &[TYPE, ARRAY_SIZE, OFFSET, ARRAY_STRIDE, BLOCK_INDEX][..],
        ),
        (
            SHADER_STORAGE_BLOCK,
            &[BUFFER_BINDING, BUFFER_DATA_SIZE][..],
        ),
    ] {
        let n = gl.interface(p, interface, ACTIVE_RESOURCES);
        let mut found: Vec<String> = (0..n.max(0) as GLuint)
            .map(|i| {
                let name = gl.resource_name(p, interface, i);
                let values: Vec<Vec<GLint>> = props
                    .iter()
                    .map(|&prop| gl.resource(p, interface, i, &[prop]))
                    .collect();
                format!("{interface:#x} {name:?} {values:?}")
            })
            .collect();
        found.sort();
        lines.extend(found);
    }
    gl.use_program(p);
    let ubo = gl.gen_buffer();
    gl.bind_buffer(UNIFORM_BUFFER, ubo);
    let words = block_words(&[28, 29, 32, 33], 48);
    gl.buffer_data(UNIFORM_BUFFER, words.len(), Some(&words), STATIC_DRAW);
    gl.bind_buffer_base(UNIFORM_BUFFER, 1, ubo);
    let ssbo = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, ssbo);
    let words = block_words(&[16, 17], 24);
    gl.buffer_data(
        SHADER_STORAGE_BUFFER,
        words.len(),
        Some(&words),
        STATIC_DRAW,
    );
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 2, ssbo);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    let verts: Vec<u8> = [-1.0f32, -1.0, 3.0, -1.0, -1.0, 3.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.viewport(0, 0, 4, 1);
    gl.draw_arrays(TRIANGLES, 0, 3);
    let pixels = tessera_tests::differential::read_back(gl, 4, 1);
    lines.push(format!("pixels {pixels:?}"));
    lines.push(format!("error {:#x}", gl.get_error()));
    lines
}

#[test]
fn explicit_block_offsets_lay_out_and_read_as_natively() {
    let mut native =
        NativeGl::new_linked_fresh(16, 16).expect("native desktop GL through the system EGL");
    let expected = block_offsets(&mut native);
    assert!(
        !expected.contains(&format!("pixels {:?}", [0u8; 16])),
        "the oracle read the blocks"
    );
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 16, 16);
            let got = block_offsets(&mut ctx);
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
            assert_eq!(got, expected, "{} {transport:?}", backend.name());
        }
    }
}

/// The storage block of [`VS_STD140_LENGTH`] and [`FS_STD140_LENGTH`]: std140, with a
/// structure member later than std430 would put it (GLSL ES's storage blocks are std430, so
/// the GLES backend pads the block in both stages, which must then still match at link) and
/// a runtime array after it.
macro_rules! std140_block {
    () => {
        "#version 440
struct S { float a; vec2 b; };
layout(std140, binding = 3) buffer B {
    vec4 v;
    float f;
    S s;
    float tail[];
};
"
    };
}

/// A vertex stage (with its `gl_PerVertex` output block) writing the storage block.
const VS_STD140_LENGTH: &str = concat!(
    std140_block!(),
    "in vec2 position;
void main() {
    f = 4.0;
    gl_Position = vec4(position, 0.0, 1.0);
}
"
);

/// A fragment stage reading the `length()` of the runtime array, which names the array by
/// its member index.
const FS_STD140_LENGTH: &str = concat!(
    std140_block!(),
    "out vec4 frag;
void main() {
    tail[int(gl_FragCoord.x)] = 7.0;
    frag = vec4(float(tail.length()) / 8.0, s.b.y / 16.0, v.x / 4.0, 1.0);
}
"
);

/// The pixels and the storage block's bytes after [`FS_STD140_LENGTH`] drew 4 x 1 pixels
/// over a 112-byte block (4 elements of `tail`, 16 bytes apart in std140), and the error.
fn std140_length(gl: &mut dyn InterfaceGl) -> (Vec<u8>, Vec<u8>, GLenum) {
    let p = gl.create_program();
    for (kind, src) in [
        (VERTEX_SHADER, VS_STD140_LENGTH),
        (FRAGMENT_SHADER, FS_STD140_LENGTH),
    ] {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        gl.attach_shader(p, s);
    }
    gl.bind_attrib_location(p, 0, "position");
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "{}",
        gl.program_info_log(p)
    );
    gl.use_program(p);
    let ssbo = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, ssbo);
    let words = block_words(&[], 28);
    gl.buffer_data(
        SHADER_STORAGE_BUFFER,
        words.len(),
        Some(&words),
        STATIC_DRAW,
    );
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 3, ssbo);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    let verts: Vec<u8> = [-1.0f32, -1.0, 3.0, -1.0, -1.0, 3.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.viewport(0, 0, 4, 1);
    gl.draw_arrays(TRIANGLES, 0, 3);
    let pixels = tessera_tests::differential::read_back(gl, 4, 1);
    gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
    let mut bytes = vec![0u8; words.len()];
    gl.get_buffer_sub_data(SHADER_STORAGE_BUFFER, 0, &mut bytes);
    (pixels, bytes, gl.get_error())
}

#[test]
fn a_std140_storage_block_reads_its_runtime_array_length_as_natively() {
    let mut native =
        NativeGl::new_linked_fresh(16, 16).expect("native desktop GL through the system EGL");
    let expected = std140_length(&mut native);
    // length 4, s.b.y = word 11 = 12.0, v.x = 1.0; f (word 4) written with 4.0 and tail's
    // elements (words 12, 16, 20, 24) with 7.0.
    assert_eq!(
        expected.0,
        [128, 191, 64, 255].repeat(4),
        "the oracle's pixels"
    );
    assert_eq!(expected.1[16..20], 4.0f32.to_le_bytes(), "f");
    for w in [12, 16, 20, 24] {
        assert_eq!(
            expected.1[w * 4..w * 4 + 4],
            7.0f32.to_le_bytes(),
            "word {w}"
        );
    }
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 16, 16);
        let got = std140_length(&mut ctx);
        let events: Vec<Event> = ctx.take_events();
        assert!(events.is_empty(), "{}: {events:?}", backend.name());
        assert_eq!(got, expected, "{}", backend.name());
    }
}

/// Two fragment outputs sharing location 0 by their `component` qualifiers.
const FS_COMPONENTS: &str = "#version 440
layout(location = 0, component = 0) out vec2 a;
layout(location = 0, component = 2) out float b;
layout(location = 0, component = 3) out float c;
void main() {
    a = vec2(0.25, 0.5);
    b = 0.75;
    c = 1.0;
}
";

/// Link status and log, each output's `LOCATION` and `LOCATION_COMPONENT` (and error), and
/// the pixels.
fn component_outputs(gl: &mut dyn InterfaceGl) -> (GLint, String, Vec<String>, Vec<u8>) {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS_QUAD), (FRAGMENT_SHADER, FS_COMPONENTS)] {
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
    gl.bind_attrib_location(p, 0, "position");
    gl.link_program(p);
    let linked = gl.get_programi(p, LINK_STATUS);
    let log = if linked == TRUE as GLint {
        String::new()
    } else {
        gl.program_info_log(p)
    };
    if linked != TRUE as GLint {
        return (linked, log, Vec::new(), Vec::new());
    }
    let mut queries = Vec::new();
    for interface in [PROGRAM_OUTPUT, PROGRAM_INPUT] {
        let n = gl.interface(p, interface, ACTIVE_RESOURCES);
        let mut found: Vec<String> = (0..n.max(0) as GLuint)
            .map(|i| {
                let name = gl.resource_name(p, interface, i);
                let location = gl.resource(p, interface, i, &[LOCATION]);
                let component = gl.resource(p, interface, i, &[LOCATION_COMPONENT]);
                let error = gl.get_error();
                format!("{interface:#x} {name} {location:?} {component:?} {error:#x}")
            })
            .collect();
        found.sort();
        queries.extend(found);
    }
    // Not a property of uniforms.
    gl.resource(p, UNIFORM_BLOCK, 0, &[LOCATION_COMPONENT]);
    queries.push(format!("uniform block: {:#x}", gl.get_error()));
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    let verts: Vec<u8> = [-1.0f32, -1.0, 3.0, -1.0, -1.0, 3.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.viewport(0, 0, 4, 4);
    gl.draw_arrays(TRIANGLES, 0, 3);
    let pixels = tessera_tests::differential::read_back(gl, 4, 4);
    (linked, log, queries, pixels)
}

/// Outputs that share a location by components link, report their components
/// (`LOCATION_COMPONENT`) and write them, on Vulkan, whose SPIR-V keeps `Component`; GLSL ES has no component qualifier, so the GLES
/// backend does not carry them out (nor advertise the extension).
#[test]
fn fragment_outputs_sharing_a_location_by_components_write_as_natively() {
    let mut native =
        NativeGl::new_linked_fresh(16, 16).expect("native desktop GL through the system EGL");
    let expected = component_outputs(&mut native);
    assert_eq!(expected.0, TRUE as GLint, "{}", expected.1);
    assert_eq!(&expected.3[..4], &[64, 128, 191, 255]);
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let mut ctx = tessera_on(Backend::Vulkan, transport.clone(), 16, 16);
        let got = component_outputs(&mut ctx);
        let events: Vec<Event> = ctx.take_events();
        assert!(events.is_empty(), "{events:?}");
        assert_eq!(got, expected, "{transport:?}");
    }
}

/// The string is advertised where the backend carries components, offsets and declared
/// capture out: on Vulkan (whose SPIR-V keeps them as decorations), not on GLES (GLSL ES has
/// no `component` qualifier).
#[test]
fn enhanced_layouts_are_advertised_on_vulkan_only() {
    let advertised = |ctx: &mut Context| {
        (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
            .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
            .any(|e| e == "GL_ARB_enhanced_layouts")
    };
    for (backend, expected) in [(Backend::Vulkan, true), (Backend::Gles, false)] {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 4, 4);
        assert_eq!(advertised(&mut ctx), expected, "{}", backend.name());
    }
}

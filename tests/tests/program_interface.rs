//! Program interface queries (GL 4.3's `glGetProgramInterfaceiv`, `glGetProgramResource*`)
//! against the native driver: for each program, every active resource of every interface
//! with each property's values (or error), its lookups by name, and the errors the calls
//! name, as a transcript that must be the native one on both backends.
//!
//! GL leaves the order of resources to the implementation, so the transcript keys each
//! resource by its name and writes the indices a property holds (`BLOCK_INDEX`,
//! `ACTIVE_VARIABLES`) as the names of the resources they index. Known differences are
//! listed in [`KNOWN_DIFFERENCES`] with their reasons.

use std::collections::BTreeMap;

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The program interface calls, on either implementation.
trait InterfaceGl: Gl {
    /// `glGetProgramInterfaceiv`.
    fn interface(&mut self, program: GLuint, interface: GLenum, pname: GLenum) -> GLint;
    /// `glGetProgramResourceIndex`.
    fn resource_index(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLuint;
    /// `glGetProgramResourceName` into `buf_size` bytes: the name and the length.
    fn resource_name(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        buf_size: GLsizei,
    ) -> (String, GLsizei);
    /// `glGetProgramResourceiv` into `buf_size` values (those not written stay -7).
    fn resource(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        props: &[GLenum],
        buf_size: GLsizei,
    ) -> (Vec<GLint>, GLsizei);
    /// `glGetProgramResourceLocation`, or with `index` `glGetProgramResourceLocationIndex`.
    fn location(&mut self, program: GLuint, interface: GLenum, name: &str, index: bool) -> GLint;
}

impl InterfaceGl for Context {
    fn interface(&mut self, program: GLuint, interface: GLenum, pname: GLenum) -> GLint {
        let mut v = [-1];
        self.get_program_interfaceiv(program, interface, pname, &mut v);
        v[0]
    }
    fn resource_index(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLuint {
        self.get_program_resource_index(program, interface, name)
    }
    fn resource_name(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        buf_size: GLsizei,
    ) -> (String, GLsizei) {
        let mut buf = vec![0xAA; buf_size.max(0) as usize + 1];
        let mut length = -1;
        self.get_program_resource_name(
            program,
            interface,
            index,
            buf_size,
            Some(&mut length),
            &mut buf[..buf_size.max(0) as usize],
        );
        let end = buf.iter().position(|&b| b == 0).unwrap_or(0);
        (String::from_utf8_lossy(&buf[..end]).into_owned(), length)
    }
    fn resource(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        props: &[GLenum],
        buf_size: GLsizei,
    ) -> (Vec<GLint>, GLsizei) {
        let mut v = vec![-7; buf_size.max(0) as usize];
        let mut length = -1;
        self.get_program_resourceiv(
            program,
            interface,
            index,
            props,
            buf_size,
            Some(&mut length),
            &mut v,
        );
        (v, length)
    }
    fn location(&mut self, program: GLuint, interface: GLenum, name: &str, index: bool) -> GLint {
        if index {
            self.get_program_resource_location_index(program, interface, name)
        } else {
            self.get_program_resource_location(program, interface, name)
        }
    }
}

impl InterfaceGl for NativeGl {
    fn interface(&mut self, program: GLuint, interface: GLenum, pname: GLenum) -> GLint {
        self.program_interface(program, interface, pname)
    }
    fn resource_index(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLuint {
        self.program_resource_index(program, interface, name)
    }
    fn resource_name(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        buf_size: GLsizei,
    ) -> (String, GLsizei) {
        self.program_resource_name(program, interface, index, buf_size)
    }
    fn resource(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        props: &[GLenum],
        buf_size: GLsizei,
    ) -> (Vec<GLint>, GLsizei) {
        self.program_resource(program, interface, index, props, buf_size)
    }
    fn location(&mut self, program: GLuint, interface: GLenum, name: &str, index: bool) -> GLint {
        self.program_resource_location(program, interface, name, index)
    }
}

/// Lines of the transcript that differ from the native driver's on purpose: (a part of
/// the line, the reason).
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    (
        "active variables cut short",
        "Mesa writes every ACTIVE_VARIABLES value past bufSize and counts them in length; \
         Tessera writes bufSize values, as GL 4.3 says",
    ),
    (
        "capture: PROGRAM_OUTPUT",
        "a program without a fragment stage lists no PROGRAM_OUTPUT (its last stage's outputs \
         are not reflected as the program's); the native driver lists gl_Position",
    ),
    (
        "BUFFER_VARIABLE pairs[0]: REFERENCED_BY_COMPUTE_SHADER",
        "Mesa reports the unsized array of a std140 storage block that code indexes with a \
         variable as referenced by no stage, where its block and the block's other members \
         are; Tessera answers the stages of the block for every member",
    ),
];

/// Vertex inputs (an array, a matrix, a built-in), default-block uniforms (an array, a
/// sampler), a std140 block with an instance name and a row-major one without, used by
/// both stages, and dual-source fragment outputs.
const VS: &str = "#version 330
layout(location = 0) in vec4 position;
layout(location = 2) in vec2 uv[2];
in mat3 basis;
uniform mat4 mvp;
uniform vec3 tint[3];
layout(std140) uniform Light { vec4 colour; mat3 rot; float power[2]; } light;
layout(std140, row_major) uniform Shared { mat2x3 m; vec4 v; };
out vec2 tc;
out vec3 n;
void main() {
    gl_Position = mvp * position + light.colour * light.power[1] + v;
    tc = uv[0] + uv[1] + vec2(gl_VertexID);
    n = basis * light.rot * tint[2] + m * vec2(1.0);
}
";

const FS: &str = "#version 330
in vec2 tc;
in vec3 n;
uniform sampler2D tex;
uniform vec3 tint[3];
uniform vec4 fcolour;
layout(std140, row_major) uniform Shared { mat2x3 m; vec4 v; };
layout(location = 0, index = 0) out vec4 colour;
layout(location = 0, index = 1) out vec4 second;
void main() {
    colour = texture(tex, tc) * fcolour + vec4(tint[0] + n, 1.0) + v;
    second = vec4(m[1], 1.0);
}
";

/// Storage blocks holding structs, arrays of structs inside a top-level array of structs,
/// row-major and column-major matrices, a top-level array of a basic type, unsized arrays, a std140 block
/// and a block array; a uniform block beside them.
const CS: &str = "#version 430
layout(local_size_x = 1) in;
struct Light { vec3 pos; float r; mat2 m; };
struct Item { uint id; Light lights[2]; vec2 uv[3]; };
layout(std430, row_major, binding = 3) buffer Scene {
    mat3 basis;
    mat2x3 rm;
    Item items[2];
    float weights[4];
    Light sun;
    uvec4 tail[];
} scene;
layout(std140, binding = 1) buffer Counts { uint n; mat3x2 cm; ivec2 pairs[]; };
layout(std430, binding = 5) buffer Slots { float x; } slots[2];
layout(std140) uniform Params { vec4 scale; };
void main() {
    vec3 p = scene.basis * scene.items[1].lights[0].pos + scene.rm * vec2(scene.weights[2]);
    p += scene.sun.pos * scene.sun.r + vec3(scene.items[0].uv[2], scene.sun.m[1].x);
    scene.tail[1] = uvec4(p, scene.items[0].id) + uvec4(scale);
    pairs[n] = ivec2(slots[0].x + slots[1].x) + ivec2(cm[2]);
}
";

/// The interfaces a program has (and one of an absent feature).
const INTERFACES: [(GLenum, &str); 8] = [
    (UNIFORM, "UNIFORM"),
    (UNIFORM_BLOCK, "UNIFORM_BLOCK"),
    (PROGRAM_INPUT, "PROGRAM_INPUT"),
    (PROGRAM_OUTPUT, "PROGRAM_OUTPUT"),
    (TRANSFORM_FEEDBACK_VARYING, "TRANSFORM_FEEDBACK_VARYING"),
    (BUFFER_VARIABLE, "BUFFER_VARIABLE"),
    (SHADER_STORAGE_BLOCK, "SHADER_STORAGE_BLOCK"),
    (ATOMIC_COUNTER_BUFFER, "ATOMIC_COUNTER_BUFFER"),
];

/// Every property GL 4.3 names, asked of every resource.
const PROPERTIES: [(GLenum, &str); 25] = [
    (NAME_LENGTH, "NAME_LENGTH"),
    (TYPE, "TYPE"),
    (ARRAY_SIZE, "ARRAY_SIZE"),
    (OFFSET, "OFFSET"),
    (BLOCK_INDEX, "BLOCK_INDEX"),
    (ARRAY_STRIDE, "ARRAY_STRIDE"),
    (MATRIX_STRIDE, "MATRIX_STRIDE"),
    (IS_ROW_MAJOR, "IS_ROW_MAJOR"),
    (ATOMIC_COUNTER_BUFFER_INDEX, "ATOMIC_COUNTER_BUFFER_INDEX"),
    (BUFFER_BINDING, "BUFFER_BINDING"),
    (BUFFER_DATA_SIZE, "BUFFER_DATA_SIZE"),
    (NUM_ACTIVE_VARIABLES, "NUM_ACTIVE_VARIABLES"),
    (ACTIVE_VARIABLES, "ACTIVE_VARIABLES"),
    (REFERENCED_BY_VERTEX_SHADER, "REFERENCED_BY_VERTEX_SHADER"),
    (
        REFERENCED_BY_TESS_CONTROL_SHADER,
        "REFERENCED_BY_TESS_CONTROL_SHADER",
    ),
    (
        REFERENCED_BY_TESS_EVALUATION_SHADER,
        "REFERENCED_BY_TESS_EVALUATION_SHADER",
    ),
    (
        REFERENCED_BY_GEOMETRY_SHADER,
        "REFERENCED_BY_GEOMETRY_SHADER",
    ),
    (
        REFERENCED_BY_FRAGMENT_SHADER,
        "REFERENCED_BY_FRAGMENT_SHADER",
    ),
    (REFERENCED_BY_COMPUTE_SHADER, "REFERENCED_BY_COMPUTE_SHADER"),
    (TOP_LEVEL_ARRAY_SIZE, "TOP_LEVEL_ARRAY_SIZE"),
    (TOP_LEVEL_ARRAY_STRIDE, "TOP_LEVEL_ARRAY_STRIDE"),
    (LOCATION, "LOCATION"),
    (LOCATION_INDEX, "LOCATION_INDEX"),
    (IS_PER_PATCH, "IS_PER_PATCH"),
    (0x1234, "an enum of no property"),
];

fn shader(gl: &mut dyn InterfaceGl, kind: GLenum, src: &str) -> GLuint {
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

fn program(gl: &mut dyn InterfaceGl, stages: &[(GLenum, &str)]) -> GLuint {
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

/// The names of an interface's resources, by index.
fn names(gl: &mut dyn InterfaceGl, p: GLuint, interface: GLenum) -> Vec<String> {
    let n = gl.interface(p, interface, ACTIVE_RESOURCES).max(0);
    (0..n as GLuint)
        .map(|i| gl.resource_name(p, interface, i, 256).0)
        .collect()
}

/// The transcript of every resource of `p`, keyed by interface and name.
fn resources(gl: &mut dyn InterfaceGl, p: GLuint) -> Vec<String> {
    let mut out = Vec::new();
    let uniforms = names(gl, p, UNIFORM);
    let blocks = names(gl, p, UNIFORM_BLOCK);
    let buffer_variables = names(gl, p, BUFFER_VARIABLE);
    let storage_blocks = names(gl, p, SHADER_STORAGE_BLOCK);
    for (interface, iname) in INTERFACES {
        for pname in [ACTIVE_RESOURCES, MAX_NAME_LENGTH, MAX_NUM_ACTIVE_VARIABLES] {
            let v = gl.interface(p, interface, pname);
            let err = gl.get_error();
            out.push(format!("{iname} {pname:#x}: {v} error {err:#x}"));
        }
        let n = gl.interface(p, interface, ACTIVE_RESOURCES).max(0);
        gl.get_error();
        let mut by_name = BTreeMap::new();
        for i in 0..n as GLuint {
            let (name, length) = gl.resource_name(p, interface, i, 256);
            let mut lines = vec![format!("name length {length}")];
            let found = gl.resource_index(p, interface, &name);
            lines.push(format!("index by name is its own: {}", found == i));
            if let Some(base) = name.strip_suffix("[0]") {
                let found = gl.resource_index(p, interface, base);
                lines.push(format!("index without [0] is its own: {}", found == i));
            }
            for (prop, prop_name) in PROPERTIES {
                let (v, length) = gl.resource(p, interface, i, &[prop], 16);
                let err = gl.get_error();
                let written = &v[..length.clamp(0, 16) as usize];
                let shown: Vec<String> = written
                    .iter()
                    .map(|&x| match (interface, prop) {
                        (UNIFORM, LOCATION) => shown_location(gl, p, interface, &name, x),
                        (UNIFORM, BLOCK_INDEX) => name_at(&blocks, x),
                        (BUFFER_VARIABLE, BLOCK_INDEX) => name_at(&storage_blocks, x),
                        (UNIFORM_BLOCK, ACTIVE_VARIABLES) => name_at(&uniforms, x),
                        (SHADER_STORAGE_BLOCK, ACTIVE_VARIABLES) => name_at(&buffer_variables, x),
                        _ => x.to_string(),
                    })
                    .collect();
                lines.push(format!("{prop_name}: {shown:?} error {err:#x}"));
            }
            if matches!(interface, UNIFORM | PROGRAM_INPUT | PROGRAM_OUTPUT) {
                let l = gl.location(p, interface, &name, false);
                let err = gl.get_error();
                lines.push(format!(
                    "location {} error {err:#x}",
                    shown_location(gl, p, interface, &name, l)
                ));
            }
            if interface == PROGRAM_OUTPUT {
                let l = gl.location(p, interface, &name, true);
                let err = gl.get_error();
                lines.push(format!("location index {l} error {err:#x}"));
            }
            by_name.insert(name, lines);
        }
        for (name, lines) in by_name {
            for line in lines {
                out.push(format!("{iname} {name}: {line}"));
            }
        }
    }
    out
}

/// A location as the transcript shows it: the driver chooses the locations of uniforms, so
/// a uniform's is shown as its distance from `glGetUniformLocation` of its array's (or its
/// own) name, which must agree with it; others as they are.
fn shown_location(
    gl: &mut dyn InterfaceGl,
    p: GLuint,
    interface: GLenum,
    name: &str,
    l: GLint,
) -> String {
    if interface != UNIFORM || l < 0 {
        return l.to_string();
    }
    let base = name.rfind('[').map_or(name, |i| &name[..i]);
    let first = gl.get_uniform_location(p, base);
    format!("{base}{:+}", l - first)
}

/// The name of resource `index` of an interface, or the index if it is none: the driver
/// chooses the order.
fn shown_index(gl: &mut dyn InterfaceGl, p: GLuint, interface: GLenum, index: GLuint) -> String {
    if index == INVALID_INDEX {
        return "INVALID_INDEX".into();
    }
    let (name, _) = gl.resource_name(p, interface, index, 256);
    gl.get_error();
    format!("{name:?}")
}

/// The name at an index of `names`, or the index itself if it is none.
fn name_at(names: &[String], index: GLint) -> String {
    usize::try_from(index)
        .ok()
        .and_then(|i| names.get(i))
        .cloned()
        .unwrap_or_else(|| index.to_string())
}

/// The errors the calls name, and the answers at their edges, for a linked program `p`
/// whose uniform `tint` is an array of three and whose output `second` has index 1.
fn errors(gl: &mut dyn InterfaceGl, p: GLuint) -> Vec<String> {
    let mut out = Vec::new();
    let mut push = |gl: &mut dyn InterfaceGl, what: &str, v: String| {
        let err = gl.get_error();
        out.push(format!("{what}: {v} error {err:#x}"));
    };
    let vs = gl.create_shader(VERTEX_SHADER);
    let unlinked = gl.create_program();

    let v = gl.interface(0xBAD, UNIFORM, ACTIVE_RESOURCES);
    push(gl, "interface of no program", v.to_string());
    let v = gl.interface(vs, UNIFORM, ACTIVE_RESOURCES);
    push(gl, "interface of a shader", v.to_string());
    let v = gl.interface(p, 0x1234, ACTIVE_RESOURCES);
    push(gl, "interface of no interface", v.to_string());
    let v = gl.interface(p, UNIFORM, 0x1234);
    push(gl, "interface with no pname", v.to_string());
    let v = gl.interface(p, UNIFORM, MAX_NUM_ACTIVE_VARIABLES);
    push(gl, "MAX_NUM_ACTIVE_VARIABLES of uniforms", v.to_string());
    let v = gl.interface(p, PROGRAM_INPUT, MAX_NUM_COMPATIBLE_SUBROUTINES);
    push(
        gl,
        "MAX_NUM_COMPATIBLE_SUBROUTINES of inputs",
        v.to_string(),
    );
    for interface in [UNIFORM, PROGRAM_INPUT, UNIFORM_BLOCK] {
        let v = gl.interface(unlinked, interface, ACTIVE_RESOURCES);
        push(
            gl,
            &format!("{interface:#x} resources of an unlinked program"),
            v.to_string(),
        );
    }

    let v = gl.resource_index(p, 0x1234, "tint");
    push(gl, "index in no interface", format!("{v:#x}"));
    let v = gl.resource_index(0xBAD, UNIFORM, "tint");
    push(gl, "index in no program", format!("{v:#x}"));
    for name in [
        "tint[1]",
        "tint[0]",
        "tint",
        "mvp[0]",
        "nothing",
        "Shared",
        "Light",
        "Light.colour",
    ] {
        let v = gl.resource_index(p, UNIFORM, name);
        let err = gl.get_error();
        let v = shown_index(gl, p, UNIFORM, v);
        push(
            gl,
            &format!("UNIFORM index of {name}"),
            format!("{v} error {err:#x}"),
        );
    }
    // (Mesa finds the block of a member's name, `Light.colour`, in UNIFORM_BLOCK.)
    for name in ["Shared", "Light", "Light[0]", "nothing"] {
        let v = gl.resource_index(p, UNIFORM_BLOCK, name);
        let err = gl.get_error();
        let v = shown_index(gl, p, UNIFORM_BLOCK, v);
        push(
            gl,
            &format!("UNIFORM_BLOCK index of {name}"),
            format!("{v} error {err:#x}"),
        );
    }

    let v = gl.resource_name(p, UNIFORM, 0x100, 16);
    push(gl, "name past the last", format!("{v:?}"));
    let v = gl.resource_name(p, UNIFORM, 0, -1);
    push(gl, "name with a negative size", format!("{v:?}"));
    let v = gl.resource_name(p, 0x1234, 0, 16);
    push(gl, "name in no interface", format!("{v:?}"));
    let tint = gl.resource_index(p, UNIFORM, "tint");
    gl.get_error();
    for size in [0, 1, 4] {
        let v = gl.resource_name(p, UNIFORM, tint, size);
        push(gl, &format!("name in {size} bytes"), format!("{v:?}"));
    }

    let v = gl.resource(p, UNIFORM, tint, &[], 4);
    push(gl, "no properties", format!("{v:?}"));
    let v = gl.resource(p, UNIFORM, tint, &[TYPE], -1);
    push(gl, "a negative size", format!("{v:?}"));
    let v = gl.resource(p, UNIFORM, 0x100, &[TYPE], 4);
    push(gl, "an index past the last", format!("{v:?}"));
    let v = gl.resource(
        p,
        UNIFORM,
        tint,
        &[TYPE, ARRAY_SIZE, LOCATION, NAME_LENGTH],
        2,
    );
    push(gl, "four properties in two values", format!("{v:?}"));
    let v = gl.resource(p, UNIFORM, tint, &[TYPE, BUFFER_BINDING, ARRAY_SIZE], 4);
    push(gl, "a property of another interface", format!("{v:?}"));
    let shared = gl.resource_index(p, UNIFORM_BLOCK, "Shared");
    gl.get_error();
    let v = gl.resource(
        p,
        UNIFORM_BLOCK,
        shared,
        &[NUM_ACTIVE_VARIABLES, ACTIVE_VARIABLES],
        2,
    );
    push(gl, "active variables cut short", format!("{:?}", v.1));

    for (name, interface) in [
        ("tint[2]", UNIFORM),
        ("tint[3]", UNIFORM),
        ("tint", UNIFORM),
        ("m", UNIFORM),
        ("Light.colour", UNIFORM),
        ("uv[1]", PROGRAM_INPUT),
        ("basis", PROGRAM_INPUT),
        ("gl_VertexID", PROGRAM_INPUT),
        ("second", PROGRAM_OUTPUT),
        ("nothing", PROGRAM_OUTPUT),
        ("Shared", UNIFORM_BLOCK),
        ("tint", TRANSFORM_FEEDBACK_VARYING),
    ] {
        let v = gl.location(p, interface, name, false);
        let err = gl.get_error();
        let v = shown_location(gl, p, interface, name, v);
        push(
            gl,
            &format!("location of {name} in {interface:#x}"),
            format!("{v} error {err:#x}"),
        );
    }
    let v = gl.location(unlinked, UNIFORM, "tint", false);
    push(gl, "location in an unlinked program", v.to_string());
    for (name, interface) in [
        ("second", PROGRAM_OUTPUT),
        ("colour", PROGRAM_OUTPUT),
        ("nothing", PROGRAM_OUTPUT),
        ("position", PROGRAM_INPUT),
        ("tint", UNIFORM),
    ] {
        let v = gl.location(p, interface, name, true);
        push(
            gl,
            &format!("location index of {name} in {interface:#x}"),
            v.to_string(),
        );
    }
    let v = gl.location(unlinked, PROGRAM_OUTPUT, "second", true);
    push(gl, "location index in an unlinked program", v.to_string());
    out
}

/// The transcript of the vertex and fragment program: its resources, then the errors.
fn draw_program(gl: &mut dyn InterfaceGl) -> Vec<String> {
    let p = program(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)]);
    let mut out = resources(gl, p);
    out.extend(errors(gl, p));
    out
}

/// The transcript of the compute program with storage blocks: its resources, then the
/// lookups of buffer variables and storage blocks by name.
fn storage_program(gl: &mut dyn InterfaceGl) -> Vec<String> {
    let p = program(gl, &[(COMPUTE_SHADER, CS)]);
    let mut out = resources(gl, p);
    for name in [
        "Scene.basis",
        "Scene.items[0].lights[1].pos",
        "Scene.items[1].id",
        "Scene.items[0].uv",
        "Scene.weights",
        "Scene.weights[1]",
        "Scene.tail",
        "Scene.tail[0]",
        "scene.basis",
        "n",
        "pairs[0]",
        "Slots.x",
    ] {
        let v = gl.resource_index(p, BUFFER_VARIABLE, name);
        let err = gl.get_error();
        let v = shown_index(gl, p, BUFFER_VARIABLE, v);
        out.push(format!(
            "BUFFER_VARIABLE index of {name}: {v} error {err:#x}"
        ));
    }
    for name in [
        "Scene", "scene", "Counts", "Slots", "Slots[1]", "Slots[2]", "Params",
    ] {
        let v = gl.resource_index(p, SHADER_STORAGE_BLOCK, name);
        let err = gl.get_error();
        let v = shown_index(gl, p, SHADER_STORAGE_BLOCK, v);
        out.push(format!(
            "SHADER_STORAGE_BLOCK index of {name}: {v} error {err:#x}"
        ));
    }
    for interface in [BUFFER_VARIABLE, SHADER_STORAGE_BLOCK] {
        let v = gl.location(p, interface, "Scene.basis", false);
        let err = gl.get_error();
        out.push(format!("location in {interface:#x}: {v} error {err:#x}"));
    }
    out
}

/// A vertex-only program capturing a float, an array and `gl_Position` with transform
/// feedback (interleaved): its resources, then the lookups of the captured varyings.
fn capture_program(gl: &mut dyn InterfaceGl) -> Vec<String> {
    const XFB_VS: &str = "#version 330
in vec4 position;
out float weight;
out vec2 pair[2];
void main() {
    weight = position.x;
    pair[0] = position.xy;
    pair[1] = position.zw;
    gl_Position = position;
}
";
    let p = gl.create_program();
    let s = shader(gl, VERTEX_SHADER, XFB_VS);
    gl.attach_shader(p, s);
    gl.transform_feedback_varyings(p, &["pair", "gl_Position", "weight"], INTERLEAVED_ATTRIBS);
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "{}",
        gl.program_info_log(p)
    );
    let mut out = resources(gl, p);
    for name in ["pair", "pair[0]", "weight", "gl_Position", "nothing"] {
        let v = gl.resource_index(p, TRANSFORM_FEEDBACK_VARYING, name);
        let err = gl.get_error();
        let v = shown_index(gl, p, TRANSFORM_FEEDBACK_VARYING, v);
        out.push(format!(
            "TRANSFORM_FEEDBACK_VARYING index of {name}: {v} error {err:#x}"
        ));
    }
    out.into_iter().map(|l| format!("capture: {l}")).collect()
}

/// Compares the transcript line by line with the native one, skipping the lines of
/// [`KNOWN_DIFFERENCES`].
fn compare(scene: fn(&mut dyn InterfaceGl) -> Vec<String>) {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    let known = |line: &str| {
        KNOWN_DIFFERENCES
            .iter()
            .any(|(part, _)| line.contains(part))
    };
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 16, 16);
        let got = scene(&mut ctx);
        let want: Vec<&String> = expected.iter().filter(|l| !known(l)).collect();
        let have: Vec<&String> = got.iter().filter(|l| !known(l)).collect();
        let diff: Vec<String> = want
            .iter()
            .zip(&have)
            .filter(|(w, h)| w != h)
            .map(|(w, h)| format!("native:  {w}\ntessera: {h}"))
            .collect();
        assert!(diff.is_empty(), "{}:\n{}", backend.name(), diff.join("\n"));
        assert_eq!(have.len(), want.len(), "{}: {have:#?}", backend.name());
    }
}

#[test]
fn a_vertex_and_fragment_programs_resources_match_the_native_driver() {
    compare(draw_program);
}

#[test]
fn a_compute_programs_storage_blocks_and_buffer_variables_match_the_native_driver() {
    compare(storage_program);
}

#[test]
fn a_transform_feedback_programs_captured_varyings_match_the_native_driver() {
    compare(capture_program);
}

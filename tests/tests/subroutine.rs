//! Shader subroutines (GL 4.0's `ARB_shader_subroutine`) against the native driver: a
//! fragment stage choosing among three colour functions across draws, a vertex stage with a
//! subroutine uniform array and explicit indices and locations, subroutines in a program
//! pipeline of two separable programs and in a program loaded from a binary, and a
//! transcript of the reflection, the selections and the errors, on both backends over
//! `inproc` and `thread` (Vulkan with the validation layer on, which must report nothing),
//! the colours also on an ES 3.0 GLES backend.
//! Pixels, values and errors must be exactly the native ones; a change of selection makes no
//! new Vulkan pipeline.

#![expect(
    unsafe_code,
    reason = "calls the native driver's subroutine entry points"
)]

use std::ffi::CString;

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, read_back, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
trait SubroutineGl: Gl {
    fn uniform_subroutines(&mut self, shadertype: GLenum, indices: &[GLuint]);
    /// `glUniformSubroutinesuiv` with a `count` of its own (the indices hold at least it).
    fn uniform_subroutines_n(&mut self, shadertype: GLenum, count: GLsizei, indices: &[GLuint]);
    fn uniform_subroutine(&mut self, shadertype: GLenum, location: GLint) -> GLuint;
    fn subroutine_index(&mut self, program: GLuint, shadertype: GLenum, name: &str) -> GLuint;
    fn subroutine_uniform_location(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        name: &str,
    ) -> GLint;
    /// `glGetActiveSubroutineUniformiv` into 8 values (the rest stay -7).
    fn active_subroutine_uniform(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        index: GLuint,
        pname: GLenum,
    ) -> Vec<GLint>;
    /// `glGetActiveSubroutineUniformName` into `buf_size` bytes: the name and the length.
    fn active_subroutine_uniform_name(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        index: GLuint,
        buf_size: GLsizei,
    ) -> (String, GLsizei);
    /// `glGetActiveSubroutineName` into `buf_size` bytes: the name and the length.
    fn active_subroutine_name(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        index: GLuint,
        buf_size: GLsizei,
    ) -> (String, GLsizei);
    /// `glGetProgramStageiv` (-7 where nothing is written).
    fn program_stage(&mut self, program: GLuint, shadertype: GLenum, pname: GLenum) -> GLint;
    fn interface(&mut self, program: GLuint, interface: GLenum, pname: GLenum) -> GLint;
    fn resource_index(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLuint;
    fn resource_location(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLint;
    fn resource_name(&mut self, program: GLuint, interface: GLenum, index: GLuint) -> String;
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

fn text(bytes: &[u8], length: GLsizei) -> String {
    String::from_utf8_lossy(&bytes[..length.max(0) as usize]).into_owned()
}

impl SubroutineGl for Context {
    fn uniform_subroutines(&mut self, shadertype: GLenum, indices: &[GLuint]) {
        self.uniform_subroutinesuiv(shadertype, indices.len() as GLsizei, indices)
    }
    fn uniform_subroutines_n(&mut self, shadertype: GLenum, count: GLsizei, indices: &[GLuint]) {
        self.uniform_subroutinesuiv(shadertype, count, indices)
    }
    fn uniform_subroutine(&mut self, shadertype: GLenum, location: GLint) -> GLuint {
        let mut v = [77];
        self.get_uniform_subroutineuiv(shadertype, location, &mut v);
        v[0]
    }
    fn subroutine_index(&mut self, program: GLuint, shadertype: GLenum, name: &str) -> GLuint {
        self.get_subroutine_index(program, shadertype, name)
    }
    fn subroutine_uniform_location(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        name: &str,
    ) -> GLint {
        self.get_subroutine_uniform_location(program, shadertype, name)
    }
    fn active_subroutine_uniform(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        index: GLuint,
        pname: GLenum,
    ) -> Vec<GLint> {
        let mut v = vec![-7; 8];
        self.get_active_subroutine_uniformiv(program, shadertype, index, pname, &mut v);
        v
    }
    fn active_subroutine_uniform_name(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        index: GLuint,
        buf_size: GLsizei,
    ) -> (String, GLsizei) {
        let mut out = vec![0u8; 64];
        let mut length = -7;
        self.get_active_subroutine_uniform_name(
            program,
            shadertype,
            index,
            buf_size,
            Some(&mut length),
            &mut out,
        );
        (text(&out, length), length)
    }
    fn active_subroutine_name(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        index: GLuint,
        buf_size: GLsizei,
    ) -> (String, GLsizei) {
        let mut out = vec![0u8; 64];
        let mut length = -7;
        self.get_active_subroutine_name(
            program,
            shadertype,
            index,
            buf_size,
            Some(&mut length),
            &mut out,
        );
        (text(&out, length), length)
    }
    fn program_stage(&mut self, program: GLuint, shadertype: GLenum, pname: GLenum) -> GLint {
        let mut v = [-7];
        self.get_program_stageiv(program, shadertype, pname, &mut v);
        v[0]
    }
    fn interface(&mut self, program: GLuint, interface: GLenum, pname: GLenum) -> GLint {
        // As NativeGl::program_interface starts.
        let mut v = [-1];
        self.get_program_interfaceiv(program, interface, pname, &mut v);
        v[0]
    }
    fn resource_index(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLuint {
        self.get_program_resource_index(program, interface, name)
    }
    fn resource_location(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLint {
        self.get_program_resource_location(program, interface, name)
    }
    fn resource_name(&mut self, program: GLuint, interface: GLenum, index: GLuint) -> String {
        let mut out = vec![0u8; 64];
        let mut length = -7;
        self.get_program_resource_name(program, interface, index, 64, Some(&mut length), &mut out);
        text(&out, length)
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

/// A driver entry point of type `F`.
fn entry<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl SubroutineGl for NativeGl {
    fn uniform_subroutines(&mut self, shadertype: GLenum, indices: &[GLuint]) {
        self.uniform_subroutines_n(shadertype, indices.len() as GLsizei, indices)
    }
    fn uniform_subroutines_n(&mut self, shadertype: GLenum, count: GLsizei, indices: &[GLuint]) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, *const GLuint);
        let f: F = entry(self, "glUniformSubroutinesuiv");
        assert!(count <= 0 || indices.len() >= count as usize);
        // SAFETY: the driver's entry point with its C signature, called while the context
        // is current; it reads `count` indices, which `indices` holds.
        unsafe { f(shadertype, count, indices.as_ptr()) }
    }
    fn uniform_subroutine(&mut self, shadertype: GLenum, location: GLint) -> GLuint {
        type F = unsafe extern "system" fn(GLenum, GLint, *mut GLuint);
        let f: F = entry(self, "glGetUniformSubroutineuiv");
        let mut v = 77;
        // SAFETY: as above; it writes one value.
        unsafe { f(shadertype, location, &mut v) };
        v
    }
    fn subroutine_index(&mut self, program: GLuint, shadertype: GLenum, name: &str) -> GLuint {
        type F = unsafe extern "system" fn(GLuint, GLenum, *const std::ffi::c_char) -> GLuint;
        let f: F = entry(self, "glGetSubroutineIndex");
        let name = CString::new(name).expect("a name without NUL");
        // SAFETY: as above; `name` is NUL-terminated and outlives the call.
        unsafe { f(program, shadertype, name.as_ptr()) }
    }
    fn subroutine_uniform_location(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        name: &str,
    ) -> GLint {
        type F = unsafe extern "system" fn(GLuint, GLenum, *const std::ffi::c_char) -> GLint;
        let f: F = entry(self, "glGetSubroutineUniformLocation");
        let name = CString::new(name).expect("a name without NUL");
        // SAFETY: as above.
        unsafe { f(program, shadertype, name.as_ptr()) }
    }
    fn active_subroutine_uniform(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        index: GLuint,
        pname: GLenum,
    ) -> Vec<GLint> {
        type F = unsafe extern "system" fn(GLuint, GLenum, GLuint, GLenum, *mut GLint);
        let f: F = entry(self, "glGetActiveSubroutineUniformiv");
        let mut v = vec![-7; 8];
        // SAFETY: as above; the uniforms asked about have at most 8 compatible functions.
        unsafe { f(program, shadertype, index, pname, v.as_mut_ptr()) };
        v
    }
    fn active_subroutine_uniform_name(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        index: GLuint,
        buf_size: GLsizei,
    ) -> (String, GLsizei) {
        type F = unsafe extern "system" fn(GLuint, GLenum, GLuint, GLsizei, *mut GLsizei, *mut u8);
        let f: F = entry(self, "glGetActiveSubroutineUniformName");
        let mut out = vec![0u8; 64];
        let mut length = -7;
        assert!(buf_size <= 64);
        // SAFETY: as above; `out` has room for `buf_size` bytes.
        unsafe {
            f(
                program,
                shadertype,
                index,
                buf_size,
                &mut length,
                out.as_mut_ptr(),
            )
        };
        (text(&out, length), length)
    }
    fn active_subroutine_name(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        index: GLuint,
        buf_size: GLsizei,
    ) -> (String, GLsizei) {
        type F = unsafe extern "system" fn(GLuint, GLenum, GLuint, GLsizei, *mut GLsizei, *mut u8);
        let f: F = entry(self, "glGetActiveSubroutineName");
        let mut out = vec![0u8; 64];
        let mut length = -7;
        assert!(buf_size <= 64);
        // SAFETY: as above.
        unsafe {
            f(
                program,
                shadertype,
                index,
                buf_size,
                &mut length,
                out.as_mut_ptr(),
            )
        };
        (text(&out, length), length)
    }
    fn program_stage(&mut self, program: GLuint, shadertype: GLenum, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLuint, GLenum, GLenum, *mut GLint);
        let f: F = entry(self, "glGetProgramStageiv");
        let mut v = -7;
        // SAFETY: as above; it writes one value.
        unsafe { f(program, shadertype, pname, &mut v) };
        v
    }
    fn interface(&mut self, program: GLuint, interface: GLenum, pname: GLenum) -> GLint {
        self.program_interface(program, interface, pname)
    }
    fn resource_index(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLuint {
        self.program_resource_index(program, interface, name)
    }
    fn resource_location(&mut self, program: GLuint, interface: GLenum, name: &str) -> GLint {
        type F = unsafe extern "system" fn(GLuint, GLenum, *const std::ffi::c_char) -> GLint;
        let f: F = entry(self, "glGetProgramResourceLocation");
        let name = CString::new(name).expect("a name without NUL");
        // SAFETY: as above.
        unsafe { f(program, interface, name.as_ptr()) }
    }
    fn resource_name(&mut self, program: GLuint, interface: GLenum, index: GLuint) -> String {
        type F = unsafe extern "system" fn(GLuint, GLenum, GLuint, GLsizei, *mut GLsizei, *mut u8);
        let f: F = entry(self, "glGetProgramResourceName");
        let mut out = vec![0u8; 64];
        let mut length = -7;
        // SAFETY: as above; `out` has room for 64 bytes.
        unsafe { f(program, interface, index, 64, &mut length, out.as_mut_ptr()) };
        text(&out, length)
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
        let f: F = entry(self, "glGenProgramPipelines");
        let mut p = 0;
        // SAFETY: as above; it writes one name.
        unsafe { f(1, &mut p) };
        p
    }
    fn bind_program_pipeline(&mut self, pipeline: GLuint) {
        type F = unsafe extern "system" fn(GLuint);
        let f: F = entry(self, "glBindProgramPipeline");
        // SAFETY: as above.
        unsafe { f(pipeline) }
    }
    fn use_program_stages(&mut self, pipeline: GLuint, stages: GLbitfield, program: GLuint) {
        type F = unsafe extern "system" fn(GLuint, GLbitfield, GLuint);
        let f: F = entry(self, "glUseProgramStages");
        // SAFETY: as above.
        unsafe { f(pipeline, stages, program) }
    }
}

fn shader(gl: &mut dyn SubroutineGl, kind: GLenum, src: &str) -> GLuint {
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

fn program(gl: &mut dyn SubroutineGl, stages: &[(GLenum, &str)], separable: bool) -> GLuint {
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

/// A vertex array with a full-viewport quad at attribute 0 (a triangle strip of 4).
fn quad(gl: &mut dyn SubroutineGl) {
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
}

const PASS_VS: &str = "#version 330
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

/// Three colour functions of one type (the third reads a uniform), chosen by one
/// subroutine uniform; a second type whose function scales the colour.
const COLOURS_FS: &str = "#version 150
#extension GL_ARB_shader_subroutine : require
uniform vec4 tint;
out vec4 colour;
subroutine vec4 colour_t(vec2 at);
subroutine float scale_t();
subroutine uniform colour_t pick;
subroutine uniform scale_t scale;
subroutine(colour_t) vec4 red(vec2 at) { return vec4(1.0, at.x * 0.0625, 0.0, 1.0); }
subroutine(colour_t) vec4 green(vec2 at) { return vec4(0.0, 1.0, at.y * 0.0625, 1.0); }
subroutine(colour_t) vec4 tinted(vec2 at) { return tint; }
subroutine(scale_t) float half_() { return 0.5; }
void main() { colour = pick(gl_FragCoord.xy) * scale(); }
";

const PLAIN_FS: &str = "#version 330
out vec4 colour;
void main() { colour = vec4(1.0); }
";

/// Three draws into three columns, each with another colour function, then three more
/// after `glUseProgram` lost the selections, of the program in use and after another
/// program's draw: the frame, and the selections read back.
fn three_colours(gl: &mut dyn SubroutineGl) -> (Vec<u8>, Vec<GLuint>) {
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    let p = program(
        gl,
        &[(VERTEX_SHADER, PASS_VS), (FRAGMENT_SHADER, COLOURS_FS)],
        false,
    );
    gl.use_program(p);
    let tint = gl.get_uniform_location(p, "tint");
    gl.uniform4f(tint, 0.25, 0.5, 0.75, 1.0);
    quad(gl);
    let names = ["red", "green", "tinted"];
    let indices: Vec<GLuint> = names
        .iter()
        .map(|n| gl.subroutine_index(p, FRAGMENT_SHADER, n))
        .collect();
    let pick = gl.subroutine_uniform_location(p, FRAGMENT_SHADER, "pick") as usize;
    let scale = gl.subroutine_uniform_location(p, FRAGMENT_SHADER, "scale") as usize;
    let half = gl.subroutine_index(p, FRAGMENT_SHADER, "half_");
    let mut seen = Vec::new();
    gl.enable(SCISSOR_TEST);
    for (column, &index) in indices.iter().enumerate() {
        let mut selection = [0; 2];
        selection[pick] = index;
        selection[scale] = half;
        gl.uniform_subroutines(FRAGMENT_SHADER, &selection);
        seen.push(gl.uniform_subroutine(FRAGMENT_SHADER, pick as GLint));
        gl.scissor(5 * column as GLint, 0, 5, 16);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    }
    // glUseProgram puts every selection back to its default, which Mesa's draws see only
    // once a draw binds another program than the last draw did.
    gl.use_program(p);
    seen.push(gl.uniform_subroutine(FRAGMENT_SHADER, pick as GLint));
    seen.push(gl.uniform_subroutine(FRAGMENT_SHADER, scale as GLint));
    gl.scissor(15, 0, 1, 4);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.use_program(0);
    gl.use_program(p);
    gl.uniform4f(tint, 0.25, 0.5, 0.75, 1.0);
    gl.scissor(15, 4, 1, 4);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let other = program(
        gl,
        &[(VERTEX_SHADER, PASS_VS), (FRAGMENT_SHADER, PLAIN_FS)],
        false,
    );
    gl.use_program(other);
    gl.scissor(15, 8, 1, 1);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.use_program(p);
    gl.scissor(15, 9, 1, 7);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.disable(SCISSOR_TEST);
    assert_eq!(gl.get_error(), NO_ERROR);
    (read_back(gl, 16, 16), seen)
}

/// A vertex stage that moves its quad through an array of subroutine uniforms at an
/// explicit location and a plain one after it, with functions of explicit and assigned
/// indices; the fragment stage shows which selections were made.
const MOVE_VS: &str = "#version 330
#extension GL_ARB_shader_subroutine : require
#extension GL_ARB_explicit_uniform_location : require
layout(location = 0) in vec2 position;
out vec4 shade;
subroutine vec4 move_t(vec4 p);
layout(location = 3) subroutine uniform move_t moves[2];
subroutine uniform move_t last;
layout(index = 5) subroutine(move_t) vec4 left(vec4 p) { return p - vec4(0.5, 0.0, 0.0, 0.0); }
subroutine(move_t) vec4 up(vec4 p) { return p + vec4(0.0, 0.5, 0.0, 0.0); }
layout(index = 0) subroutine(move_t) vec4 shrink(vec4 p) { return vec4(p.xy * 0.5, p.zw); }
void main() {
    vec4 p = vec4(position, 0.0, 1.0);
    gl_Position = last(moves[1](moves[0](p)));
    shade = vec4(moves[0](vec4(0.25)).x, moves[1](vec4(0.25)).y, last(vec4(0.5)).x, 1.0);
}
";

const SHADE_FS: &str = "#version 330
in vec4 shade;
out vec4 colour;
void main() { colour = shade; }
";

/// Frames for several selections of the vertex stage's array, and the default selection.
fn moved_quads(gl: &mut dyn SubroutineGl) -> Vec<Vec<u8>> {
    gl.viewport(0, 0, 16, 16);
    let p = program(
        gl,
        &[(VERTEX_SHADER, MOVE_VS), (FRAGMENT_SHADER, SHADE_FS)],
        false,
    );
    gl.use_program(p);
    quad(gl);
    let left = gl.subroutine_index(p, VERTEX_SHADER, "left");
    let up = gl.subroutine_index(p, VERTEX_SHADER, "up");
    let shrink = gl.subroutine_index(p, VERTEX_SHADER, "shrink");
    let mut frames = Vec::new();
    let mut draw = |gl: &mut dyn SubroutineGl, selection: Option<[GLuint; 3]>| {
        if let Some(s) = selection {
            // Locations 0 to 2 are no uniform's: any value goes there.
            gl.uniform_subroutines(VERTEX_SHADER, &[9, 9, 9, s[0], s[1], s[2]]);
        }
        gl.clear_color(0.0, 0.0, 0.0, 0.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        frames.push(read_back(gl, 16, 16));
    };
    draw(gl, None);
    draw(gl, Some([shrink, left, up]));
    draw(gl, Some([left, shrink, shrink]));
    draw(gl, Some([up, up, left]));
    assert_eq!(gl.get_error(), NO_ERROR);
    frames
}

/// A program pipeline of a separable vertex program and a separable fragment program with
/// subroutines: selections go to the pipeline's fragment program.
fn pipeline_colours(gl: &mut dyn SubroutineGl) -> Vec<u8> {
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    const VS: &str = "#version 330
#extension GL_ARB_separate_shader_objects : require
layout(location = 0) in vec2 position;
out gl_PerVertex { vec4 gl_Position; };
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";
    let vp = program(gl, &[(VERTEX_SHADER, VS)], true);
    let fp = program(gl, &[(FRAGMENT_SHADER, COLOURS_FS)], true);
    let tint = gl.get_uniform_location(fp, "tint");
    gl.use_program(fp);
    gl.uniform4f(tint, 0.25, 0.5, 0.75, 1.0);
    gl.use_program(0);
    let pipe = gl.gen_program_pipeline();
    gl.use_program_stages(pipe, VERTEX_SHADER_BIT, vp);
    gl.use_program_stages(pipe, FRAGMENT_SHADER_BIT, fp);
    gl.bind_program_pipeline(pipe);
    quad(gl);
    let pick = gl.subroutine_uniform_location(fp, FRAGMENT_SHADER, "pick") as usize;
    let scale = gl.subroutine_uniform_location(fp, FRAGMENT_SHADER, "scale") as usize;
    let half = gl.subroutine_index(fp, FRAGMENT_SHADER, "half_");
    gl.enable(SCISSOR_TEST);
    for (column, name) in ["tinted", "red", "green"].iter().enumerate() {
        let mut selection = [0; 2];
        selection[pick] = gl.subroutine_index(fp, FRAGMENT_SHADER, name);
        selection[scale] = half;
        gl.uniform_subroutines(FRAGMENT_SHADER, &selection);
        gl.scissor(5 * column as GLint, 0, 5, 16);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    }
    gl.disable(SCISSOR_TEST);
    gl.bind_program_pipeline(0);
    assert_eq!(gl.get_error(), NO_ERROR);
    read_back(gl, 16, 16)
}

/// A program loaded from another's binary keeps its subroutines: its reflection and its
/// draws with two selections.
fn from_binary(gl: &mut dyn SubroutineGl) -> (Vec<GLint>, Vec<u8>) {
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    let first = program(
        gl,
        &[(VERTEX_SHADER, PASS_VS), (FRAGMENT_SHADER, COLOURS_FS)],
        false,
    );
    let mut bytes = vec![0u8; 1 << 20];
    let (length, format) = gl.get_program_binary(first, bytes.len() as GLsizei, &mut bytes);
    let p = gl.create_program();
    gl.program_binary(p, format, &bytes[..length as usize], length);
    let mut seen = vec![gl.get_programi(p, LINK_STATUS)];
    for pname in [
        ACTIVE_SUBROUTINES,
        ACTIVE_SUBROUTINE_UNIFORMS,
        ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS,
    ] {
        seen.push(gl.program_stage(p, FRAGMENT_SHADER, pname));
    }
    gl.use_program(p);
    let tint = gl.get_uniform_location(p, "tint");
    gl.uniform4f(tint, 0.25, 0.5, 0.75, 1.0);
    quad(gl);
    let pick = gl.subroutine_uniform_location(p, FRAGMENT_SHADER, "pick") as usize;
    let scale = gl.subroutine_uniform_location(p, FRAGMENT_SHADER, "scale") as usize;
    let half = gl.subroutine_index(p, FRAGMENT_SHADER, "half_");
    gl.enable(SCISSOR_TEST);
    for (column, name) in ["green", "tinted"].iter().enumerate() {
        let mut selection = [0; 2];
        selection[pick] = gl.subroutine_index(p, FRAGMENT_SHADER, name);
        selection[scale] = half;
        gl.uniform_subroutines(FRAGMENT_SHADER, &selection);
        gl.scissor(8 * column as GLint, 0, 8, 16);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    }
    gl.disable(SCISSOR_TEST);
    seen.push(gl.get_error() as GLint);
    (seen, read_back(gl, 16, 16))
}

/// The reflection of both programs' subroutines (`glGetProgramStageiv`, the names,
/// indices, locations and compatible functions, the program interfaces), the selections
/// and the errors, each line with the error it raised.
fn transcript(gl: &mut dyn SubroutineGl) -> Vec<(String, Vec<i64>)> {
    let mut t: Vec<(String, Vec<i64>)> = Vec::new();
    let mut get = |gl: &mut dyn SubroutineGl, what: &str, v: Vec<i64>| {
        let e = gl.get_error() as i64;
        t.push((what.to_string(), [v, vec![e]].concat()));
    };
    for pname in [MAX_SUBROUTINES, MAX_SUBROUTINE_UNIFORM_LOCATIONS] {
        let mut v = [0];
        gl.get_integerv(pname, &mut v);
        get(gl, &format!("limit {pname:#x}"), vec![v[0] as i64]);
    }
    let p = program(
        gl,
        &[(VERTEX_SHADER, MOVE_VS), (FRAGMENT_SHADER, COLOURS_FS)],
        false,
    );
    for stage in [VERTEX_SHADER, FRAGMENT_SHADER, GEOMETRY_SHADER] {
        let v = [
            ACTIVE_SUBROUTINES,
            ACTIVE_SUBROUTINE_UNIFORMS,
            ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS,
            ACTIVE_SUBROUTINE_MAX_LENGTH,
            ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH,
        ]
        .iter()
        .map(|&pname| gl.program_stage(p, stage, pname) as i64)
        .collect();
        get(gl, &format!("stage {stage:#x}"), v);
    }
    for stage in [VERTEX_SHADER, FRAGMENT_SHADER] {
        let n = gl.program_stage(p, stage, ACTIVE_SUBROUTINES);
        for i in 0..n as GLuint {
            let (name, length) = gl.active_subroutine_name(p, stage, i, 64);
            let index = gl.subroutine_index(p, stage, &name);
            get(
                gl,
                &format!("{stage:#x} function {i} {name}"),
                vec![length as i64, index as i64],
            );
        }
        let n = gl.program_stage(p, stage, ACTIVE_SUBROUTINE_UNIFORMS);
        for i in 0..n as GLuint {
            let (name, length) = gl.active_subroutine_uniform_name(p, stage, i, 64);
            let mut v = vec![length as i64];
            for pname in [
                NUM_COMPATIBLE_SUBROUTINES,
                UNIFORM_SIZE,
                UNIFORM_NAME_LENGTH,
            ] {
                v.push(gl.active_subroutine_uniform(p, stage, i, pname)[0] as i64);
            }
            let compatible = gl.active_subroutine_uniform(p, stage, i, COMPATIBLE_SUBROUTINES);
            v.extend(compatible[..v[1] as usize].iter().map(|&c| c as i64));
            v.push(gl.subroutine_uniform_location(p, stage, &name) as i64);
            get(gl, &format!("{stage:#x} uniform {i} {name}"), v);
        }
    }
    for name in [
        "moves", "moves[0]", "moves[1]", "moves[2]", "last", "last[0]", "pick", "x",
    ] {
        let v = gl.subroutine_uniform_location(p, VERTEX_SHADER, name) as i64;
        get(gl, &format!("location of {name}"), vec![v]);
    }
    for name in ["shrink", "main", "pick"] {
        let v = gl.subroutine_index(p, VERTEX_SHADER, name) as i64;
        get(gl, &format!("index of {name}"), vec![v]);
    }
    // The program interfaces.
    for interface in [
        VERTEX_SUBROUTINE,
        VERTEX_SUBROUTINE_UNIFORM,
        FRAGMENT_SUBROUTINE,
        FRAGMENT_SUBROUTINE_UNIFORM,
        GEOMETRY_SUBROUTINE_UNIFORM,
    ] {
        let n = gl.interface(p, interface, ACTIVE_RESOURCES);
        let longest = gl.interface(p, interface, MAX_NAME_LENGTH) as i64;
        get(
            gl,
            &format!("interface {interface:#x}"),
            vec![n as i64, longest],
        );
        let uniforms = matches!(
            interface,
            VERTEX_SUBROUTINE_UNIFORM | FRAGMENT_SUBROUTINE_UNIFORM | GEOMETRY_SUBROUTINE_UNIFORM
        );
        let v = gl.interface(p, interface, MAX_NUM_COMPATIBLE_SUBROUTINES) as i64;
        get(
            gl,
            &format!("interface {interface:#x} max compatible"),
            vec![v],
        );
        for i in 0..n.max(0) as GLuint {
            let name = gl.resource_name(p, interface, i);
            let mut v = vec![gl.resource_index(p, interface, &name) as i64];
            let props: &[GLenum] = if uniforms {
                &[
                    NAME_LENGTH,
                    ARRAY_SIZE,
                    NUM_COMPATIBLE_SUBROUTINES,
                    LOCATION,
                    COMPATIBLE_SUBROUTINES,
                ]
            } else {
                &[NAME_LENGTH]
            };
            v.extend(
                gl.resource(p, interface, i, props)
                    .iter()
                    .map(|&x| x as i64),
            );
            if uniforms {
                let base = name.trim_end_matches("[0]");
                v.push(gl.resource_location(p, interface, base) as i64);
                v.push(gl.resource_location(p, interface, &format!("{base}[1]")) as i64);
            }
            get(gl, &format!("resource {interface:#x} {i} {name}"), v);
        }
    }
    gl.resource(p, VERTEX_SUBROUTINE, 0, &[ARRAY_SIZE]);
    get(gl, "a subroutine's ARRAY_SIZE", vec![]);
    gl.resource(p, VERTEX_SUBROUTINE_UNIFORM, 0, &[TYPE]);
    get(gl, "a subroutine uniform's TYPE", vec![]);
    gl.resource_location(p, VERTEX_SUBROUTINE, "left");
    get(gl, "a subroutine's location", vec![]);
    gl.interface(p, VERTEX_SUBROUTINE, MAX_NUM_ACTIVE_VARIABLES);
    get(gl, "MAX_NUM_ACTIVE_VARIABLES", vec![]);

    // Selections: the defaults after glUseProgram (positions of the first compatible
    // functions), set and read back, and what glUseProgram does to them.
    gl.use_program(p);
    let read = |gl: &mut dyn SubroutineGl, stage: GLenum, from: GLint, to: GLint| {
        (from..to)
            .map(|l| gl.uniform_subroutine(stage, l) as i64)
            .collect::<Vec<_>>()
    };
    let v = read(gl, VERTEX_SHADER, 3, 6);
    get(gl, "vertex defaults", v);
    let v = read(gl, FRAGMENT_SHADER, 0, 2);
    get(gl, "fragment defaults", v);
    gl.uniform_subroutines(VERTEX_SHADER, &[0, 0, 0, 1, 5, 0]);
    let v = read(gl, VERTEX_SHADER, 3, 6);
    get(gl, "vertex set", v);
    // An index no function has (2) is skipped; one past the highest (6) fails there,
    // after the earlier locations took theirs.
    gl.uniform_subroutines(VERTEX_SHADER, &[0, 0, 0, 2, 0, 1]);
    let v = read(gl, VERTEX_SHADER, 3, 6);
    get(gl, "vertex with an index of no function", v);
    gl.uniform_subroutines(VERTEX_SHADER, &[0, 0, 0, 5, 6, 0]);
    let v = read(gl, VERTEX_SHADER, 3, 6);
    get(gl, "vertex with an index past the last", v);
    // The fragment stage's two uniforms have different types.
    let pick = gl.subroutine_uniform_location(p, FRAGMENT_SHADER, "pick") as usize;
    let mut wrong = [0; 2];
    wrong[pick] = gl.subroutine_index(p, FRAGMENT_SHADER, "half_");
    gl.uniform_subroutines(FRAGMENT_SHADER, &wrong);
    get(gl, "an incompatible function", vec![]);
    for count in [0, 1, 3, -1] {
        gl.uniform_subroutines_n(FRAGMENT_SHADER, count, &[0, 0, 0]);
        get(gl, &format!("count {count}"), vec![]);
    }
    gl.uniform_subroutines(GEOMETRY_SHADER, &[0]);
    get(gl, "a stage the program lacks", vec![]);
    let v = vec![gl.uniform_subroutine(GEOMETRY_SHADER, 0) as i64];
    get(gl, "get of a stage the program lacks", v);
    let v = vec![gl.uniform_subroutine(FRAGMENT_SHADER, 2) as i64];
    get(gl, "get past the locations", v);
    let v = vec![gl.uniform_subroutine(FRAGMENT_SHADER, -1) as i64];
    get(gl, "get of location -1", v);
    gl.use_program(p);
    let v = read(gl, VERTEX_SHADER, 3, 6);
    get(gl, "vertex after glUseProgram", v);

    // Queries' errors.
    let (name, length) = gl.active_subroutine_name(p, VERTEX_SHADER, 0, 3);
    get(gl, &format!("truncated name {name}"), vec![length as i64]);
    let (_, length) = gl.active_subroutine_name(p, VERTEX_SHADER, 0, 0);
    get(gl, "no room for a name", vec![length as i64]);
    gl.active_subroutine_name(p, VERTEX_SHADER, 3, 64);
    get(gl, "function past the last", vec![]);
    gl.active_subroutine_uniform_name(p, VERTEX_SHADER, 0, -1);
    get(gl, "negative buffer size", vec![]);
    gl.active_subroutine_uniform_name(p, VERTEX_SHADER, 2, 64);
    get(gl, "uniform past the last", vec![]);
    gl.active_subroutine_uniform(p, VERTEX_SHADER, 2, UNIFORM_SIZE);
    get(gl, "uniformiv past the last", vec![]);
    gl.active_subroutine_uniform(p, VERTEX_SHADER, 0, UNIFORM_TYPE);
    get(gl, "uniformiv of UNIFORM_TYPE", vec![]);
    gl.active_subroutine_uniform(p, GEOMETRY_SHADER, 0, UNIFORM_SIZE);
    get(gl, "uniformiv of a stage the program lacks", vec![]);
    gl.active_subroutine_name(p, GEOMETRY_SHADER, 0, 64);
    get(gl, "name of a stage the program lacks", vec![]);
    let v = vec![gl.subroutine_index(p, GEOMETRY_SHADER, "left") as i64];
    get(gl, "index in a stage the program lacks", v);
    let v = vec![gl.subroutine_uniform_location(p, GEOMETRY_SHADER, "last") as i64];
    get(gl, "location in a stage the program lacks", v);
    let v = vec![gl.program_stage(p, GEOMETRY_SHADER, ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS) as i64];
    get(gl, "locations of a stage the program lacks", v);
    let v = vec![gl.program_stage(p, VERTEX_SHADER, UNIFORM_SIZE) as i64];
    get(gl, "stageiv of another pname", v);
    let unlinked = gl.create_program();
    let v = vec![gl.program_stage(unlinked, VERTEX_SHADER, ACTIVE_SUBROUTINES) as i64];
    get(gl, "stageiv of an unlinked program", v);
    let v = vec![gl.subroutine_index(unlinked, VERTEX_SHADER, "left") as i64];
    get(gl, "index in an unlinked program", v);
    let v = vec![gl.subroutine_index(unlinked + 100, VERTEX_SHADER, "left") as i64];
    get(gl, "index in no program", v);
    gl.use_program(0);
    gl.uniform_subroutines(VERTEX_SHADER, &[0, 0, 0, 0, 0, 0]);
    get(gl, "no program in use", vec![]);
    let v = vec![gl.uniform_subroutine(VERTEX_SHADER, 3) as i64];
    get(gl, "get with no program in use", v);
    t
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn SubroutineGl) -> T) -> T {
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

/// The RGBA of pixel (`x`, `y`) of a 16-wide frame.
fn at(frame: &[u8], x: usize, y: usize) -> [u8; 4] {
    let i = (y * 16 + x) * 4;
    [frame[i], frame[i + 1], frame[i + 2], frame[i + 3]]
}

#[test]
fn a_fragment_stage_choosing_among_three_colour_functions_matches_the_native_driver() {
    let (frame, seen) = compare(three_colours);
    // red, green, tinted (each scaled by half); then the defaults (red, half).
    assert_eq!(seen, [0, 1, 2, 0, 3]);
    assert_eq!(at(&frame, 2, 0), [128, 20, 0, 128]);
    assert_eq!(at(&frame, 7, 3), [0, 128, 28, 128]);
    assert_eq!(at(&frame, 12, 9), [32, 64, 96, 128]);
    // Still tinted after glUseProgram, red after another program's draw.
    assert_eq!(at(&frame, 15, 2), [32, 64, 96, 128]);
    assert_eq!(at(&frame, 15, 6), [32, 64, 96, 128]);
    assert_eq!(at(&frame, 15, 8), [255; 4]);
    assert_eq!(at(&frame, 15, 12), [128, 124, 0, 128]);
}

#[test]
fn subroutines_run_on_an_es_3_0_gles_backend() {
    // Selectors are plain uint uniforms, which every GLES driver has: the extension is
    // advertised there too.
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = three_colours(&mut native);
    drop(native);
    let mut ctx = tessera_es30(16, 16);
    let names: Vec<String> = (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect();
    assert!(names.iter().any(|e| e == "GL_ARB_shader_subroutine"));
    assert_eq!(three_colours(&mut ctx), expected);
    let events = ctx.take_events();
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn a_vertex_stage_with_an_array_of_subroutine_uniforms_and_explicit_indices_matches_the_native_driver()
 {
    let frames = compare(moved_quads);
    assert_eq!(frames.len(), 4);
    // Each selection draws another frame.
    for (i, a) in frames.iter().enumerate() {
        for b in &frames[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

#[test]
fn subroutines_in_a_program_pipeline_match_the_native_driver() {
    let frame = compare(pipeline_colours);
    assert_eq!(at(&frame, 2, 0), [32, 64, 96, 128]);
    assert_eq!(at(&frame, 7, 0), [128, 60, 0, 128]);
}

#[test]
fn a_program_from_a_binary_keeps_its_subroutines() {
    let (seen, frame) = compare(from_binary);
    assert_eq!(seen, [1, 4, 2, 2, 0]);
    assert_eq!(at(&frame, 9, 0), [32, 64, 96, 128]);
}

#[test]
fn subroutine_reflection_selections_and_errors_match_the_native_driver() {
    let t = compare(transcript);
    assert_eq!(t.len(), 85, "{t:?}");
}

#[test]
fn a_change_of_selection_makes_no_new_vulkan_pipeline() {
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
    let gl: &mut dyn SubroutineGl = &mut ctx;
    let p = program(
        gl,
        &[(VERTEX_SHADER, PASS_VS), (FRAGMENT_SHADER, COLOURS_FS)],
        false,
    );
    gl.use_program(p);
    quad(gl);
    let pick = gl.subroutine_uniform_location(p, FRAGMENT_SHADER, "pick") as usize;
    let scale = gl.subroutine_uniform_location(p, FRAGMENT_SHADER, "scale") as usize;
    let mut selection = [0; 2];
    selection[scale] = gl.subroutine_index(p, FRAGMENT_SHADER, "half_");
    gl.uniform_subroutines(FRAGMENT_SHADER, &selection);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.finish();
    let first = probe.stats();
    let mut frames = Vec::new();
    for i in [1, 2, 0, 1] {
        selection[pick] = i;
        gl.uniform_subroutines(FRAGMENT_SHADER, &selection);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        frames.push(read_back(gl, 16, 16));
    }
    let steady = probe.stats();
    assert_eq!(
        steady.pipelines, first.pipelines,
        "pipelines made for selections"
    );
    assert_ne!(frames[0], frames[1]);
    assert_eq!(frames[0], frames[3]);
    assert_eq!(steady.validation_messages, 0);
    assert_eq!(ctx.get_error(), NO_ERROR);
    let events = ctx.take_events();
    assert!(events.is_empty(), "{events:?}");
}

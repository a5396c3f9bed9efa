//! Separable programs and program pipelines (GL 4.1's `ARB_separate_shader_objects`)
//! against the native driver on both backends (Vulkan with the validation layer on, which
//! must report nothing).
//!
//! One vertex program (made with `glCreateShaderProgramv`) draws with two fragment programs
//! swapped in and out of a pipeline, each program's uniforms set with `glProgramUniform*`
//! without making it current, and each with samplers and uniforms of its own, so the stages
//! of several programs draw together with each program's default block, samplers and
//! interface (matched by name in another declaration order, and by location); a program
//! made current with `glUseProgram` wins over the bound pipeline until it is unbound;
//! `glActiveShaderProgram` routes `glUniform*` to a pipeline's program. The errors and
//! queries of every pipeline entry point, validation and its info log, and steady frames
//! switching stages (no Vulkan pipeline made after the first frames) are compared too.
//! Pixels, errors and values must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's GL 4.1 entry points, called through their C signatures"
)]

use std::ffi::CString;

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

const SIZE: i32 = 16;

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
trait PipelineGl: Gl {
    fn gen_program_pipeline(&mut self) -> GLuint;
    fn delete_program_pipeline(&mut self, pipeline: GLuint);
    fn bind_program_pipeline(&mut self, pipeline: GLuint);
    fn is_program_pipeline(&mut self, pipeline: GLuint) -> bool;
    fn use_program_stages(&mut self, pipeline: GLuint, stages: GLbitfield, program: GLuint);
    fn active_shader_program(&mut self, pipeline: GLuint, program: GLuint);
    fn validate_program_pipeline(&mut self, pipeline: GLuint);
    fn get_program_pipelinei(&mut self, pipeline: GLuint, pname: GLenum) -> GLint;
    /// `glGetProgramPipelineInfoLog` with `buf_size` (the text, without its NUL).
    fn program_pipeline_log(&mut self, pipeline: GLuint, buf_size: GLsizei) -> String;
    fn create_shader_program(&mut self, kind: GLenum, source: &str) -> GLuint;
    /// `glCreateShaderProgramv` with a count but no strings (errors only).
    fn create_shader_program_count(&mut self, kind: GLenum, count: GLsizei) -> GLuint;
    fn program_uniform1i(&mut self, program: GLuint, location: GLint, v: GLint);
    fn program_uniform1f(&mut self, program: GLuint, location: GLint, v: GLfloat);
    fn program_uniform2f(&mut self, program: GLuint, location: GLint, x: GLfloat, y: GLfloat);
    fn program_uniform4fv(&mut self, program: GLuint, location: GLint, count: GLsizei, v: &[f32]);
    fn program_uniform_matrix2fv(&mut self, program: GLuint, location: GLint, v: &[f32]);
    fn get_uniformfv(&mut self, program: GLuint, location: GLint, out: &mut [f32]);
}

/// One value of `glGetIntegerv`.
fn integer(gl: &mut dyn PipelineGl, pname: GLenum) -> GLint {
    let mut v = [0; 4];
    gl.get_integerv(pname, &mut v);
    v[0]
}

impl PipelineGl for Context {
    fn gen_program_pipeline(&mut self) -> GLuint {
        Context::gen_program_pipeline(self)
    }
    fn delete_program_pipeline(&mut self, pipeline: GLuint) {
        Context::delete_program_pipelines(self, 1, &[pipeline])
    }
    fn bind_program_pipeline(&mut self, pipeline: GLuint) {
        Context::bind_program_pipeline(self, pipeline)
    }
    fn is_program_pipeline(&mut self, pipeline: GLuint) -> bool {
        Context::is_program_pipeline(self, pipeline) != 0
    }
    fn use_program_stages(&mut self, pipeline: GLuint, stages: GLbitfield, program: GLuint) {
        Context::use_program_stages(self, pipeline, stages, program)
    }
    fn active_shader_program(&mut self, pipeline: GLuint, program: GLuint) {
        Context::active_shader_program(self, pipeline, program)
    }
    fn validate_program_pipeline(&mut self, pipeline: GLuint) {
        Context::validate_program_pipeline(self, pipeline)
    }
    fn get_program_pipelinei(&mut self, pipeline: GLuint, pname: GLenum) -> GLint {
        Context::get_program_pipelinei(self, pipeline, pname)
    }
    fn program_pipeline_log(&mut self, pipeline: GLuint, buf_size: GLsizei) -> String {
        let mut buf = vec![0u8; buf_size.max(0) as usize];
        let mut length = 0;
        Context::get_program_pipeline_info_log(
            self,
            pipeline,
            buf_size,
            Some(&mut length),
            &mut buf,
        );
        String::from_utf8_lossy(&buf[..length.max(0) as usize]).into_owned()
    }
    fn create_shader_program(&mut self, kind: GLenum, source: &str) -> GLuint {
        Context::create_shader_program_v(self, kind, 1, &[source])
    }
    fn create_shader_program_count(&mut self, kind: GLenum, count: GLsizei) -> GLuint {
        Context::create_shader_program_v(self, kind, count, &[])
    }
    fn program_uniform1i(&mut self, program: GLuint, location: GLint, v: GLint) {
        Context::program_uniform1i(self, program, location, v)
    }
    fn program_uniform1f(&mut self, program: GLuint, location: GLint, v: GLfloat) {
        Context::program_uniform1f(self, program, location, v)
    }
    fn program_uniform2f(&mut self, program: GLuint, location: GLint, x: GLfloat, y: GLfloat) {
        Context::program_uniform2f(self, program, location, x, y)
    }
    fn program_uniform4fv(&mut self, program: GLuint, location: GLint, count: GLsizei, v: &[f32]) {
        Context::program_uniform4fv(self, program, location, count, v)
    }
    fn program_uniform_matrix2fv(&mut self, program: GLuint, location: GLint, v: &[f32]) {
        Context::program_uniform_matrix2fv(self, program, location, 1, FALSE as GLboolean, v)
    }
    fn get_uniformfv(&mut self, program: GLuint, location: GLint, out: &mut [f32]) {
        Context::get_uniformfv(self, program, location, out)
    }
}

/// The native entry point `name` of signature `F`.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point::<F>(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl PipelineGl for NativeGl {
    fn gen_program_pipeline(&mut self) -> GLuint {
        type F = unsafe extern "system" fn(GLsizei, *mut GLuint);
        let f: F = native(self, "glGenProgramPipelines");
        let mut name = 0;
        // SAFETY: the context is current on this thread; one writable name.
        unsafe { f(1, &mut name) };
        name
    }
    fn delete_program_pipeline(&mut self, pipeline: GLuint) {
        type F = unsafe extern "system" fn(GLsizei, *const GLuint);
        let f: F = native(self, "glDeleteProgramPipelines");
        // SAFETY: the context is current on this thread; one name.
        unsafe { f(1, &pipeline) }
    }
    fn bind_program_pipeline(&mut self, pipeline: GLuint) {
        type F = unsafe extern "system" fn(GLuint);
        let f: F = native(self, "glBindProgramPipeline");
        // SAFETY: the context is current on this thread.
        unsafe { f(pipeline) }
    }
    fn is_program_pipeline(&mut self, pipeline: GLuint) -> bool {
        type F = unsafe extern "system" fn(GLuint) -> GLboolean;
        let f: F = native(self, "glIsProgramPipeline");
        // SAFETY: the context is current on this thread.
        unsafe { f(pipeline) != 0 }
    }
    fn use_program_stages(&mut self, pipeline: GLuint, stages: GLbitfield, program: GLuint) {
        type F = unsafe extern "system" fn(GLuint, GLbitfield, GLuint);
        let f: F = native(self, "glUseProgramStages");
        // SAFETY: the context is current on this thread.
        unsafe { f(pipeline, stages, program) }
    }
    fn active_shader_program(&mut self, pipeline: GLuint, program: GLuint) {
        type F = unsafe extern "system" fn(GLuint, GLuint);
        let f: F = native(self, "glActiveShaderProgram");
        // SAFETY: the context is current on this thread.
        unsafe { f(pipeline, program) }
    }
    fn validate_program_pipeline(&mut self, pipeline: GLuint) {
        type F = unsafe extern "system" fn(GLuint);
        let f: F = native(self, "glValidateProgramPipeline");
        // SAFETY: the context is current on this thread.
        unsafe { f(pipeline) }
    }
    fn get_program_pipelinei(&mut self, pipeline: GLuint, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLuint, GLenum, *mut GLint);
        let f: F = native(self, "glGetProgramPipelineiv");
        let mut v = 0;
        // SAFETY: the context is current on this thread; one writable value.
        unsafe { f(pipeline, pname, &mut v) };
        v
    }
    fn program_pipeline_log(&mut self, pipeline: GLuint, buf_size: GLsizei) -> String {
        type F = unsafe extern "system" fn(GLuint, GLsizei, *mut GLsizei, *mut u8);
        let f: F = native(self, "glGetProgramPipelineInfoLog");
        let mut buf = vec![0u8; buf_size.max(1) as usize];
        let mut length = 0;
        // SAFETY: the context is current on this thread; `buf` holds `buf_size` bytes.
        unsafe { f(pipeline, buf_size, &mut length, buf.as_mut_ptr()) };
        String::from_utf8_lossy(&buf[..length.max(0) as usize]).into_owned()
    }
    fn create_shader_program(&mut self, kind: GLenum, source: &str) -> GLuint {
        type F = unsafe extern "system" fn(GLenum, GLsizei, *const *const u8) -> GLuint;
        let f: F = native(self, "glCreateShaderProgramv");
        let c = CString::new(source).expect("no NUL in a shader");
        let strings = [c.as_ptr().cast::<u8>()];
        // SAFETY: the context is current on this thread; one NUL-terminated string.
        unsafe { f(kind, 1, strings.as_ptr()) }
    }
    fn create_shader_program_count(&mut self, kind: GLenum, count: GLsizei) -> GLuint {
        type F = unsafe extern "system" fn(GLenum, GLsizei, *const *const u8) -> GLuint;
        let f: F = native(self, "glCreateShaderProgramv");
        // SAFETY: the context is current on this thread; the counts used (negative, or a
        // type that is no stage) make the driver read no string.
        unsafe { f(kind, count, std::ptr::null()) }
    }
    fn program_uniform1i(&mut self, program: GLuint, location: GLint, v: GLint) {
        type F = unsafe extern "system" fn(GLuint, GLint, GLint);
        let f: F = native(self, "glProgramUniform1i");
        // SAFETY: the context is current on this thread.
        unsafe { f(program, location, v) }
    }
    fn program_uniform1f(&mut self, program: GLuint, location: GLint, v: GLfloat) {
        type F = unsafe extern "system" fn(GLuint, GLint, GLfloat);
        let f: F = native(self, "glProgramUniform1f");
        // SAFETY: the context is current on this thread.
        unsafe { f(program, location, v) }
    }
    fn program_uniform2f(&mut self, program: GLuint, location: GLint, x: GLfloat, y: GLfloat) {
        type F = unsafe extern "system" fn(GLuint, GLint, GLfloat, GLfloat);
        let f: F = native(self, "glProgramUniform2f");
        // SAFETY: the context is current on this thread.
        unsafe { f(program, location, x, y) }
    }
    fn program_uniform4fv(&mut self, program: GLuint, location: GLint, count: GLsizei, v: &[f32]) {
        type F = unsafe extern "system" fn(GLuint, GLint, GLsizei, *const GLfloat);
        let f: F = native(self, "glProgramUniform4fv");
        assert!(count <= 0 || v.len() >= count as usize * 4);
        // SAFETY: the context is current on this thread; `v` holds `count` vec4s.
        unsafe { f(program, location, count, v.as_ptr()) }
    }
    fn program_uniform_matrix2fv(&mut self, program: GLuint, location: GLint, v: &[f32]) {
        type F = unsafe extern "system" fn(GLuint, GLint, GLsizei, GLboolean, *const GLfloat);
        let f: F = native(self, "glProgramUniformMatrix2fv");
        assert!(v.len() >= 4);
        // SAFETY: the context is current on this thread; `v` holds one mat2.
        unsafe { f(program, location, 1, FALSE as GLboolean, v.as_ptr()) }
    }
    fn get_uniformfv(&mut self, program: GLuint, location: GLint, out: &mut [f32]) {
        type F = unsafe extern "system" fn(GLuint, GLint, *mut GLfloat);
        let f: F = native(self, "glGetUniformfv");
        let mut v = [0.0f32; 16];
        // SAFETY: the context is current on this thread; room for a mat4.
        unsafe { f(program, location, v.as_mut_ptr()) };
        let n = out.len().min(16);
        out[..n].copy_from_slice(&v[..n]);
    }
}

/// The vertex program: a quad scaled and moved by its uniforms and by a texel of its own
/// sampler, passing a colour and coordinates on by name.
const VS: &str = "#version 330
#extension GL_ARB_separate_shader_objects : require
out gl_PerVertex { vec4 gl_Position; };
layout(location = 0) in vec2 pos;
uniform vec2 offset;
uniform float scale = 1.0;
uniform sampler2D shift;
out vec4 v_color;
out vec2 v_uv;
void main() {
    float s = texelFetch(shift, ivec2(0, 0), 0).r;
    gl_Position = vec4(pos * scale + offset + vec2(s * 0.25, 0.0), 0.0, 1.0);
    v_color = vec4(pos * 0.5 + 0.5, 0.5, 1.0);
    v_uv = pos * 0.5 + 0.5;
}
";

/// Fragment program A: the interface in another order, a colour uniform.
const FS_A: &str = "#version 330
in vec2 v_uv;
in vec4 v_color;
uniform vec4 color;
out vec4 frag;
void main() { frag = v_color * color + vec4(v_uv, 0.0, 0.0) * 0.25; }
";

/// Fragment program B: a sampler and a matrix of its own, and an unused input.
const FS_B: &str = "#version 330
in vec4 v_color;
in vec2 v_uv;
uniform mat2 swizzle;
uniform vec4 tints[2];
uniform sampler2D pattern;
out vec4 frag;
void main() {
    vec2 uv = swizzle * v_uv;
    frag = texture(pattern, uv) * tints[0] + tints[1] * v_color.b;
}
";

/// A whole (not separable) program, for `glUseProgram` over a pipeline.
const WHOLE_VS: &str = "#version 330
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos * 0.5, 0.0, 1.0); }
";
/// The same vertex stage for a separable program (which redeclares `gl_PerVertex`, as
/// Mesa requires of separable programs).
const BOTH_VS: &str = "#version 330
#extension GL_ARB_separate_shader_objects : require
out gl_PerVertex { vec4 gl_Position; };
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos * 0.5, 0.0, 1.0); }
";
const WHOLE_FS: &str = "#version 330
out vec4 frag;
void main() { frag = vec4(0.0, 1.0, 0.0, 1.0); }
";

/// Separable programs with explicit locations: the interface matches by location.
const LOC_VS: &str = "#version 330
#extension GL_ARB_separate_shader_objects : require
out gl_PerVertex { vec4 gl_Position; };
layout(location = 0) in vec2 pos;
layout(location = 3) out vec3 shade;
void main() { gl_Position = vec4(pos * 0.75, 0.0, 1.0); shade = vec3(pos * 0.5 + 0.5, 0.25); }
";
const LOC_FS: &str = "#version 330
#extension GL_ARB_separate_shader_objects : require
layout(location = 3) in vec3 tone;
out vec4 frag;
void main() { frag = vec4(tone.bgr, 1.0); }
";

/// A vertex stage with an output of its own that does not redeclare `gl_PerVertex`.
const OUTPUTS_VS: &str = "#version 330
layout(location = 0) in vec2 pos;
out vec2 shade;
void main() { gl_Position = vec4(pos * 0.5, 0.0, 1.0); shade = pos; }
";

/// A fragment program whose two samplers may share a unit (piglit's
/// `active-sampler-conflict`).
const SAMPLERS_FS: &str = "#version 330
#extension GL_ARB_separate_shader_objects : require
out vec4 out_color;
uniform sampler2D s2;
uniform sampler3D s3;
void main() { out_color = texture(s2, vec2(0)) + texture(s3, vec3(0)); }
";

fn shader(gl: &mut dyn PipelineGl, kind: GLenum, src: &str) -> GLuint {
    let s = gl.create_shader(kind);
    gl.shader_source(s, src);
    gl.compile_shader(s);
    assert_eq!(
        gl.get_shaderi(s, COMPILE_STATUS),
        1,
        "{}",
        gl.shader_info_log(s)
    );
    s
}

/// Links `stages` into one program, separable or not.
fn program(gl: &mut dyn PipelineGl, stages: &[(GLenum, &str)], separable: bool) -> GLuint {
    let p = gl.create_program();
    if separable {
        gl.program_parameteri(p, PROGRAM_SEPARABLE, TRUE as GLint);
    }
    for (kind, src) in stages {
        let s = shader(gl, *kind, src);
        gl.attach_shader(p, s);
        gl.delete_shader(s);
    }
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        1,
        "{}",
        gl.program_info_log(p)
    );
    p
}

fn pixels(gl: &mut dyn PipelineGl) -> Vec<u8> {
    let mut out = vec![0u8; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut out);
    out
}

/// The quad, a 2x2 texture on unit 1 (the fragment pattern) and a 1x1 one on unit 2 (the
/// vertex shift).
fn setup(gl: &mut dyn PipelineGl) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vbo = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vbo);
    let quad: [f32; 12] = [
        -0.5, -0.5, 0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, 0.5,
    ];
    let bytes: Vec<u8> = quad.iter().flat_map(|v| v.to_le_bytes()).collect();
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    for (unit, size, texels) in [
        (
            1,
            2,
            vec![
                255u8, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
            ],
        ),
        (2, 1, vec![128u8, 0, 0, 255]),
    ] {
        gl.active_texture(TEXTURE0 + unit);
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, t);
        gl.tex_image_2d(
            TEXTURE_2D,
            0,
            RGBA8 as GLint,
            size,
            size,
            0,
            RGBA,
            UNSIGNED_BYTE,
            Some(&texels),
        );
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as GLint);
    }
    gl.active_texture(TEXTURE0);
    gl.viewport(0, 0, SIZE, SIZE);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
}

/// The separable programs of the scenes.
struct Programs {
    vs: GLuint,
    fs_a: GLuint,
    fs_b: GLuint,
}

fn programs(gl: &mut dyn PipelineGl) -> Programs {
    let vs = gl.create_shader_program(VERTEX_SHADER, VS);
    assert_eq!(
        gl.get_programi(vs, LINK_STATUS),
        1,
        "{}",
        gl.program_info_log(vs)
    );
    let fs_a = program(gl, &[(FRAGMENT_SHADER, FS_A)], true);
    let fs_b = program(gl, &[(FRAGMENT_SHADER, FS_B)], true);
    let at = |gl: &mut dyn PipelineGl, p, n: &str| gl.get_uniform_location(p, n);
    let (offset, shift) = (at(gl, vs, "offset"), at(gl, vs, "shift"));
    gl.program_uniform2f(vs, offset, 0.125, -0.125);
    gl.program_uniform1i(vs, shift, 2);
    let color = at(gl, fs_a, "color");
    gl.program_uniform4fv(fs_a, color, 1, &[1.0, 0.5, 0.25, 1.0]);
    let (swizzle, tints, pattern) = (
        at(gl, fs_b, "swizzle"),
        at(gl, fs_b, "tints"),
        at(gl, fs_b, "pattern"),
    );
    gl.program_uniform_matrix2fv(fs_b, swizzle, &[0.0, 1.0, 1.0, 0.0]);
    gl.program_uniform4fv(
        fs_b,
        tints,
        2,
        &[0.75, 0.75, 0.75, 1.0, 0.0, 0.25, 0.0, 0.0],
    );
    gl.program_uniform1i(fs_b, pattern, 1);
    Programs { vs, fs_a, fs_b }
}

/// The draws of the pipeline scene, each on a cleared target: the pixels of each.
fn draws(gl: &mut dyn PipelineGl) -> Vec<Vec<u8>> {
    setup(gl);
    let p = programs(gl);
    let whole = program(
        gl,
        &[(VERTEX_SHADER, WHOLE_VS), (FRAGMENT_SHADER, WHOLE_FS)],
        false,
    );
    let pipe = gl.gen_program_pipeline();
    gl.use_program_stages(pipe, VERTEX_SHADER_BIT, p.vs);
    gl.use_program_stages(pipe, FRAGMENT_SHADER_BIT, p.fs_a);
    gl.bind_program_pipeline(pipe);
    let mut out = Vec::new();
    let mut draw = |gl: &mut dyn PipelineGl| {
        gl.clear(COLOR_BUFFER_BIT);
        gl.draw_arrays(TRIANGLES, 0, 6);
        out.push(pixels(gl));
    };
    // 0: vertex program + fragment program A.
    draw(gl);
    // 1: fragment program B in A's place.
    gl.use_program_stages(pipe, FRAGMENT_SHADER_BIT, p.fs_b);
    draw(gl);
    // 2: a uniform of the vertex program changed while it is not current.
    let scale = gl.get_uniform_location(p.vs, "scale");
    gl.program_uniform1f(p.vs, scale, 0.5);
    draw(gl);
    // 3: glUseProgram's program wins over the pipeline...
    gl.use_program(whole);
    draw(gl);
    // 4: ...until it is unbound.
    gl.use_program(0);
    draw(gl);
    // 5: glUniform goes to the pipeline's active program.
    gl.use_program_stages(pipe, FRAGMENT_SHADER_BIT, p.fs_a);
    gl.active_shader_program(pipe, p.fs_a);
    let color = gl.get_uniform_location(p.fs_a, "color");
    gl.uniform4f(color, 0.25, 1.0, 0.5, 1.0);
    draw(gl);
    // 6: one separable program holding both stages.
    let both = program(
        gl,
        &[(VERTEX_SHADER, BOTH_VS), (FRAGMENT_SHADER, WHOLE_FS)],
        true,
    );
    gl.use_program_stages(pipe, ALL_SHADER_BITS, both);
    draw(gl);
    // 7: an interface matched by explicit locations.
    let loc_vs = program(gl, &[(VERTEX_SHADER, LOC_VS)], true);
    let loc_fs = program(gl, &[(FRAGMENT_SHADER, LOC_FS)], true);
    gl.use_program_stages(pipe, VERTEX_SHADER_BIT, loc_vs);
    gl.use_program_stages(pipe, FRAGMENT_SHADER_BIT, loc_fs);
    draw(gl);
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

/// The errors and values of the pipeline calls, one line each.
fn transcript(gl: &mut dyn PipelineGl) -> Vec<String> {
    setup(gl);
    let mut out = Vec::new();
    let mut note = |gl: &mut dyn PipelineGl, what: &str, value: i64| {
        let e = gl.get_error();
        out.push(format!("{what}: {value} error {e:#x}"));
    };
    let p = programs(gl);
    note(gl, "programs", 0);
    let vs_fs = program(
        gl,
        &[(VERTEX_SHADER, BOTH_VS), (FRAGMENT_SHADER, WHOLE_FS)],
        true,
    );
    let whole = program(
        gl,
        &[(VERTEX_SHADER, WHOLE_VS), (FRAGMENT_SHADER, WHOLE_FS)],
        false,
    );
    let sh = gl.create_shader(VERTEX_SHADER);
    let unlinked = gl.create_program();
    note(gl, "objects", 0);
    // PROGRAM_SEPARABLE.
    let v = gl.get_programi(p.vs, PROGRAM_SEPARABLE);
    note(gl, "separable of glCreateShaderProgramv", v.into());
    let v = gl.get_programi(whole, PROGRAM_SEPARABLE);
    note(gl, "separable of a whole program", v.into());
    gl.program_parameteri(whole, PROGRAM_SEPARABLE, 2);
    note(gl, "PROGRAM_SEPARABLE 2", 0);
    gl.program_parameteri(unlinked, PROGRAM_SEPARABLE, TRUE as GLint);
    let v = gl.get_programi(unlinked, PROGRAM_SEPARABLE);
    note(gl, "separable set before a link", v.into());
    // Names.
    let pipe = gl.gen_program_pipeline();
    let v = gl.is_program_pipeline(pipe);
    note(gl, "generated is a pipeline", v.into());
    let v = gl.get_program_pipelinei(pipe, ACTIVE_PROGRAM);
    note(gl, "ACTIVE_PROGRAM of a new one", v.into());
    let v = gl.is_program_pipeline(pipe);
    note(gl, "is a pipeline once queried", v.into());
    let v = gl.is_program_pipeline(0);
    note(gl, "0 is a pipeline", v.into());
    gl.bind_program_pipeline(pipe + 100);
    note(gl, "bind an unknown name", 0);
    let v = gl.get_program_pipelinei(0, VERTEX_SHADER);
    note(gl, "query 0", v.into());
    let v = gl.get_program_pipelinei(pipe + 100, VERTEX_SHADER);
    note(gl, "query an unknown name", v.into());
    let v = gl.get_program_pipelinei(pipe, LINK_STATUS);
    note(gl, "query LINK_STATUS", v.into());
    // glUseProgramStages.
    gl.use_program_stages(pipe + 100, VERTEX_SHADER_BIT, p.vs);
    note(gl, "stages of an unknown pipeline", 0);
    gl.use_program_stages(pipe, 0x40, p.vs);
    note(gl, "an unknown stage bit", 0);
    gl.use_program_stages(pipe, VERTEX_SHADER_BIT, whole);
    note(gl, "a program linked without PROGRAM_SEPARABLE", 0);
    gl.use_program_stages(pipe, VERTEX_SHADER_BIT, unlinked);
    note(gl, "an unlinked program", 0);
    gl.use_program_stages(pipe, VERTEX_SHADER_BIT, sh);
    note(gl, "a shader", 0);
    gl.use_program_stages(pipe, VERTEX_SHADER_BIT, 9999);
    note(gl, "an unknown program", 0);
    gl.use_program_stages(pipe, ALL_SHADER_BITS, p.vs);
    note(gl, "all stages from a vertex program", 0);
    for (name, pname) in [
        ("VERTEX_SHADER", VERTEX_SHADER),
        ("FRAGMENT_SHADER", FRAGMENT_SHADER),
        ("GEOMETRY_SHADER", GEOMETRY_SHADER),
    ] {
        let v = gl.get_program_pipelinei(pipe, pname) as GLuint == p.vs;
        note(gl, &format!("{name} is the vertex program"), v.into());
    }
    gl.use_program_stages(pipe, FRAGMENT_SHADER_BIT, p.fs_a);
    let v = gl.get_program_pipelinei(pipe, FRAGMENT_SHADER) as GLuint == p.fs_a;
    note(gl, "FRAGMENT_SHADER is program A", v.into());
    // Validation.
    let v = gl.get_program_pipelinei(pipe, VALIDATE_STATUS);
    note(gl, "VALIDATE_STATUS before validating", v.into());
    gl.validate_program_pipeline(pipe);
    let v = gl.get_program_pipelinei(pipe, VALIDATE_STATUS);
    note(gl, "VALIDATE_STATUS", v.into());
    let v = gl.get_program_pipelinei(pipe, INFO_LOG_LENGTH);
    note(gl, "INFO_LOG_LENGTH", v.into());
    gl.validate_program_pipeline(pipe + 100);
    note(gl, "validate an unknown name", 0);
    // A program active for one of its two stages only.
    gl.use_program_stages(pipe, VERTEX_SHADER_BIT, vs_fs);
    gl.validate_program_pipeline(pipe);
    let v = gl.get_program_pipelinei(pipe, VALIDATE_STATUS);
    note(gl, "VALIDATE_STATUS of a half-used program", v.into());
    let v = gl.get_program_pipelinei(pipe, INFO_LOG_LENGTH) > 1;
    note(gl, "it says why", v.into());
    let log = gl.program_pipeline_log(pipe, 1024);
    let length = gl.get_program_pipelinei(pipe, INFO_LOG_LENGTH) as usize;
    note(
        gl,
        "the log's text is as long",
        (log.len() + 1 == length).into(),
    );
    let log = gl.program_pipeline_log(pipe, 4);
    note(gl, "a log cut to 4 bytes", log.len() as i64);
    gl.program_pipeline_log(pipe + 100, 16);
    note(gl, "the log of an unknown name", 0);
    gl.program_pipeline_log(pipe, -1);
    note(gl, "a log of negative size", 0);
    // Draws with it.
    gl.bind_program_pipeline(pipe);
    let v = integer(gl, PROGRAM_PIPELINE_BINDING) as GLuint == pipe;
    note(gl, "PROGRAM_PIPELINE_BINDING", v.into());
    gl.draw_arrays(TRIANGLES, 0, 6);
    note(gl, "draw with a half-used program", 0);
    gl.use_program_stages(pipe, FRAGMENT_SHADER_BIT, vs_fs);
    gl.draw_arrays(TRIANGLES, 0, 6);
    note(gl, "draw with both of its stages", 0);
    gl.use_program_stages(pipe, ALL_SHADER_BITS, 0);
    gl.draw_arrays(TRIANGLES, 0, 6);
    note(gl, "draw with an empty pipeline", 0);
    gl.use_program(whole);
    gl.draw_arrays(TRIANGLES, 0, 6);
    note(gl, "draw with glUseProgram over an empty pipeline", 0);
    let v = integer(gl, CURRENT_PROGRAM) as GLuint == whole;
    note(gl, "CURRENT_PROGRAM", v.into());
    gl.use_program(0);
    // glActiveShaderProgram and glUniform.
    gl.uniform1f(0, 1.0);
    note(gl, "glUniform with no active program", 0);
    gl.active_shader_program(pipe, 9999);
    note(gl, "activate an unknown program", 0);
    gl.active_shader_program(pipe + 100, p.fs_a);
    note(gl, "activate in an unknown pipeline", 0);
    gl.active_shader_program(pipe, unlinked);
    note(gl, "activate an unlinked program", 0);
    gl.active_shader_program(pipe, p.fs_a);
    let v = gl.get_program_pipelinei(pipe, ACTIVE_PROGRAM) as GLuint == p.fs_a;
    note(gl, "ACTIVE_PROGRAM", v.into());
    let color = gl.get_uniform_location(p.fs_a, "color");
    gl.uniform4f(color, 0.0, 0.0, 1.0, 1.0);
    note(gl, "glUniform into the active program", 0);
    let mut back = [0.0f32; 4];
    gl.get_uniformfv(p.fs_a, color, &mut back);
    note(gl, "its blue", back[2] as i64);
    gl.uniform1i(color, 1);
    note(gl, "glUniform of the wrong type", 0);
    // glProgramUniform.
    gl.program_uniform1f(0, 0, 1.0);
    note(gl, "glProgramUniform of program 0", 0);
    gl.program_uniform1f(sh, 0, 1.0);
    note(gl, "glProgramUniform of a shader", 0);
    gl.program_uniform1f(unlinked, 0, 1.0);
    note(gl, "glProgramUniform of an unlinked program", 0);
    gl.program_uniform1f(unlinked, -1, 1.0);
    note(gl, "glProgramUniform of an unlinked program at -1", 0);
    gl.program_uniform1f(p.fs_a, -1, 1.0);
    note(gl, "glProgramUniform at -1", 0);
    gl.program_uniform1i(p.fs_a, color, 1);
    note(gl, "glProgramUniform of the wrong type", 0);
    gl.program_uniform4fv(p.fs_a, color, -1, &[]);
    note(gl, "glProgramUniform of a negative count", 0);
    gl.program_uniform4fv(p.fs_a, color, 1, &[0.5, 0.5, 0.5, 1.0]);
    gl.get_uniformfv(p.fs_a, color, &mut back);
    note(gl, "glProgramUniform's value, x4", (back[0] * 4.0) as i64);
    // glCreateShaderProgramv.
    let v = gl.create_shader_program_count(0x1234, 1);
    note(gl, "glCreateShaderProgramv of no stage", v.into());
    let bad = gl.create_shader_program(FRAGMENT_SHADER, "#version 330\nvoid main() { x; }\n");
    note(
        gl,
        "glCreateShaderProgramv of bad source",
        (bad != 0).into(),
    );
    let v = gl.get_programi(bad, LINK_STATUS);
    note(gl, "its LINK_STATUS", v.into());
    let v = gl.get_programi(bad, INFO_LOG_LENGTH) > 1;
    note(gl, "its log says why", v.into());
    let v = gl.get_programi(bad, ATTACHED_SHADERS);
    note(gl, "its shaders", v.into());
    // Samplers of two targets on one unit, in a pipeline of a fragment program alone:
    // validation and draws follow the units glUniform sets.
    let samplers = gl.create_shader_program(FRAGMENT_SHADER, SAMPLERS_FS);
    let (s2, s3) = (
        gl.get_uniform_location(samplers, "s2"),
        gl.get_uniform_location(samplers, "s3"),
    );
    let sp = gl.gen_program_pipeline();
    gl.use_program_stages(sp, FRAGMENT_SHADER_BIT, samplers);
    gl.active_shader_program(sp, samplers);
    gl.bind_program_pipeline(sp);
    for (what, u2, u3) in [
        ("conflict", 1, 1),
        ("no conflict", 1, 2),
        ("conflict again", 1, 1),
    ] {
        gl.uniform1i(s2, u2);
        gl.uniform1i(s3, u3);
        gl.validate_program_pipeline(sp);
        let v = gl.get_program_pipelinei(sp, VALIDATE_STATUS);
        note(gl, &format!("VALIDATE_STATUS, {what}"), v.into());
        gl.draw_arrays(POINTS, 0, 1);
        note(gl, &format!("draw, {what}"), 0);
    }
    gl.uniform1i(s3, 2);
    gl.draw_arrays(POINTS, 0, 1);
    note(gl, "draw without validating", 0);
    gl.bind_program_pipeline(0);
    gl.delete_program_pipeline(sp);
    // gl_PerVertex: in a separable program, a vertex stage linked with a later stage that
    // writes gl_Position must redeclare it; a vertex stage alone need not.
    let alone = gl.create_shader_program(VERTEX_SHADER, OUTPUTS_VS);
    let v = gl.get_programi(alone, LINK_STATUS);
    note(
        gl,
        "separable vertex stage alone, gl_PerVertex not redeclared",
        v.into(),
    );
    let linked = gl.create_program();
    gl.program_parameteri(linked, PROGRAM_SEPARABLE, TRUE as GLint);
    for (kind, src) in [(VERTEX_SHADER, OUTPUTS_VS), (FRAGMENT_SHADER, WHOLE_FS)] {
        let s = shader(gl, kind, src);
        gl.attach_shader(linked, s);
    }
    gl.link_program(linked);
    let v = gl.get_programi(linked, LINK_STATUS);
    note(gl, "the same linked with a fragment stage", v.into());
    let v = gl.get_programi(linked, INFO_LOG_LENGTH) > 1;
    note(gl, "its log says why", v.into());
    // Deletion.
    gl.delete_program_pipeline(pipe);
    let v = integer(gl, PROGRAM_PIPELINE_BINDING);
    note(gl, "PROGRAM_PIPELINE_BINDING after deleting it", v.into());
    let v = gl.is_program_pipeline(pipe);
    note(gl, "a deleted pipeline", v.into());
    gl.delete_program_pipeline(pipe);
    note(gl, "delete it again", 0);
    out
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn PipelineGl) -> T) -> T {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = scene(&mut ctx);
            let (g, x) = (format!("{got:#?}"), format!("{expected:#?}"));
            for (i, (a, b)) in g.lines().zip(x.lines()).enumerate() {
                assert_eq!(a, b, "{} {}: line {i}", backend.name(), transport.name());
            }
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    expected
}

#[test]
fn pipelines_of_separable_programs_draw_as_the_native_driver() {
    let got = compare(draws);
    // Each draw drew something, and each change of stage or uniform changed the pixels.
    for (i, p) in got.iter().enumerate() {
        assert!(p.iter().any(|b| *b != 0), "draw {i} drew nothing");
    }
    for i in [1, 2, 3, 5, 6, 7] {
        assert_ne!(got[i], got[i - 1], "draw {i} looks like draw {}", i - 1);
    }
    assert_eq!(
        got[4], got[2],
        "the pipeline draws again after glUseProgram(0)"
    );
}

#[test]
fn pipeline_errors_and_queries_match_the_native_driver() {
    let got = compare(transcript);
    assert_eq!(got.len(), 75, "{got:#?}");
}

/// One frame of the steady scene: the vertex program with each fragment program in turn.
fn frame(gl: &mut dyn PipelineGl, pipe: GLuint, p: &Programs) {
    gl.clear(COLOR_BUFFER_BIT);
    gl.use_program_stages(pipe, FRAGMENT_SHADER_BIT, p.fs_a);
    gl.draw_arrays(TRIANGLES, 0, 6);
    gl.use_program_stages(pipe, FRAGMENT_SHADER_BIT, p.fs_b);
    gl.draw_arrays(TRIANGLES, 0, 3);
    gl.flush();
}

#[test]
fn steady_frames_switching_stages_make_no_vulkan_pipeline() {
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
        surface: Some(SurfaceConfig::new(SIZE as u32, SIZE as u32)),
        ..Config::default()
    };
    let mut ctx = Context::with_backend(&config, Box::new(vk));
    setup(&mut ctx);
    let p = programs(&mut ctx);
    let pipe = PipelineGl::gen_program_pipeline(&mut ctx);
    PipelineGl::use_program_stages(&mut ctx, pipe, VERTEX_SHADER_BIT, p.vs);
    PipelineGl::bind_program_pipeline(&mut ctx, pipe);
    frame(&mut ctx, pipe, &p);
    let first = pixels(&mut ctx);
    let stats = probe.stats();
    for _ in 0..5 {
        frame(&mut ctx, pipe, &p);
    }
    assert_eq!(pixels(&mut ctx), first);
    let steady = probe.stats();
    assert_eq!(
        steady.pipelines, stats.pipelines,
        "pipelines made in steady frames"
    );
    let events = ctx.take_events();
    assert!(events.is_empty(), "{events:?}");
    assert_eq!(steady.validation_messages, 0);
    assert_eq!(ctx.get_error(), NO_ERROR);
}

/// A separable vertex program that transform feedback captures from.
const XFB_VS: &str = "#version 330
#extension GL_ARB_separate_shader_objects : require
out gl_PerVertex { vec4 gl_Position; };
layout(location = 0) in vec2 pos;
uniform float k;
out vec4 captured;
void main() { gl_Position = vec4(pos, 0.0, 1.0); captured = vec4(pos * k, k, 1.0); }
";

/// A fragment program reading what [`XFB_VS`] writes.
const XFB_FS: &str = "#version 330
in vec4 captured;
out vec4 frag;
void main() { frag = captured; }
";

/// What transform feedback captures from a pipeline's vertex stage (a program of its own,
/// beside another program's fragment stage), with a uniform set by `glProgramUniform`.
fn capture(gl: &mut dyn PipelineGl) -> (Vec<u8>, Vec<GLenum>) {
    setup(gl);
    let p = programs(gl);
    let vs = gl.create_program();
    gl.program_parameteri(vs, PROGRAM_SEPARABLE, TRUE as GLint);
    let s = shader(gl, VERTEX_SHADER, XFB_VS);
    gl.attach_shader(vs, s);
    gl.transform_feedback_varyings(vs, &["captured"], INTERLEAVED_ATTRIBS);
    gl.link_program(vs);
    assert_eq!(
        gl.get_programi(vs, LINK_STATUS),
        1,
        "{}",
        gl.program_info_log(vs)
    );
    let k = gl.get_uniform_location(vs, "k");
    gl.program_uniform1f(vs, k, 0.5);
    let fs = program(gl, &[(FRAGMENT_SHADER, XFB_FS)], true);
    let pipe = gl.gen_program_pipeline();
    gl.use_program_stages(pipe, VERTEX_SHADER_BIT, vs);
    gl.use_program_stages(pipe, FRAGMENT_SHADER_BIT, fs);
    gl.bind_program_pipeline(pipe);
    let tfb = gl.gen_buffer();
    gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, tfb);
    gl.buffer_data(TRANSFORM_FEEDBACK_BUFFER, 6 * 16, None, STREAM_READ);
    gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
    gl.enable(RASTERIZER_DISCARD);
    let mut errors = Vec::new();
    gl.begin_transform_feedback(TRIANGLES);
    errors.push(gl.get_error());
    // The pipeline's stages cannot change while capturing.
    gl.use_program_stages(pipe, FRAGMENT_SHADER_BIT, p.fs_a);
    errors.push(gl.get_error());
    gl.bind_program_pipeline(0);
    errors.push(gl.get_error());
    gl.draw_arrays(TRIANGLES, 0, 6);
    gl.end_transform_feedback();
    errors.push(gl.get_error());
    gl.disable(RASTERIZER_DISCARD);
    let mut out = vec![0u8; 6 * 16];
    gl.get_buffer_sub_data(TRANSFORM_FEEDBACK_BUFFER, 0, &mut out);
    (out, errors)
}

#[test]
fn transform_feedback_captures_a_pipeline_stage_as_the_native_driver() {
    let (bytes, errors) = compare(capture);
    assert!(bytes.iter().any(|b| *b != 0));
    assert_eq!(
        errors,
        [NO_ERROR, INVALID_OPERATION, INVALID_OPERATION, NO_ERROR]
    );
}

/// A fragment program reading an input the vertex program does not write (GL: an undefined
/// value) draws: no error, and no backend refuses the stage set.
fn unwritten_input(gl: &mut dyn PipelineGl) -> GLenum {
    setup(gl);
    let p = programs(gl);
    let vs = gl.create_shader_program(VERTEX_SHADER, XFB_VS);
    let pipe = gl.gen_program_pipeline();
    gl.use_program_stages(pipe, VERTEX_SHADER_BIT, vs);
    gl.use_program_stages(pipe, FRAGMENT_SHADER_BIT, p.fs_a);
    gl.bind_program_pipeline(pipe);
    gl.draw_arrays(TRIANGLES, 0, 6);
    gl.finish();
    gl.get_error()
}

#[test]
fn a_fragment_input_no_stage_writes_draws_as_on_the_native_driver() {
    assert_eq!(compare(unwritten_input), NO_ERROR);
}

//! Ready-made shaders and programs for tests that need one, and the helpers that build them.
//!
//! Every helper panics with the info log when a compile or link fails: a broken fixture is a
//! bug of the test, not a GL error under test.

use tessera_engine::Context;
use tessera_engine::gl::*;

/// A vertex shader that passes `in vec4 position;` (attribute 0) through.
pub const PASS_VS: &str = "#version 330 core
layout(location = 0) in vec4 position;
void main() { gl_Position = position; }
";

/// A fragment shader that writes `uniform vec4 color;` to output 0.
pub const COLOR_FS: &str = "#version 330 core
uniform vec4 color;
out vec4 frag;
void main() { frag = color; }
";

/// A vertex shader passing `position` and `in vec2 uv;` (attribute 1) on as `v_uv`.
pub const TEXTURED_VS: &str = "#version 330 core
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 uv;
out vec2 v_uv;
void main() { v_uv = uv; gl_Position = position; }
";

/// A fragment shader sampling `uniform sampler2D tex;` at `v_uv`.
pub const TEXTURED_FS: &str = "#version 330 core
uniform sampler2D tex;
in vec2 v_uv;
out vec4 frag;
void main() { frag = texture(tex, v_uv); }
";

/// A fragment shader reading its colour from `layout(std140) uniform Material
/// { vec4 tint; float scale; };`.
pub const BLOCK_FS: &str = "#version 330 core
layout(std140) uniform Material { vec4 tint; float scale; };
out vec4 frag;
void main() { frag = tint * scale; }
";

/// Compiles a shader of `kind`; panics with the log if it does not compile.
pub fn compile(ctx: &mut Context, kind: GLenum, source: &str) -> GLuint {
    let shader = ctx.create_shader(kind);
    ctx.shader_source(shader, 1, &[source]);
    ctx.compile_shader(shader);
    assert_eq!(
        ctx.get_shaderi(shader, COMPILE_STATUS),
        1,
        "shader did not compile:\n{}\n{source}",
        ctx.shader_info_log(shader)
    );
    shader
}

/// Links a program from vertex and fragment shader sources; panics with the log if it
/// does not link. The shaders are deleted (they die with the program).
pub fn link(ctx: &mut Context, vs: &str, fs: &str) -> GLuint {
    let v = compile(ctx, VERTEX_SHADER, vs);
    let f = compile(ctx, FRAGMENT_SHADER, fs);
    let program = ctx.create_program();
    ctx.attach_shader(program, v);
    ctx.attach_shader(program, f);
    ctx.link_program(program);
    assert_eq!(
        ctx.get_programi(program, LINK_STATUS),
        1,
        "program did not link:\n{}",
        ctx.program_info_log(program)
    );
    ctx.delete_shader(v);
    ctx.delete_shader(f);
    program
}

/// The position-only pass-through with `uniform vec4 color;` ([`PASS_VS`] + [`COLOR_FS`]).
pub fn color_program(ctx: &mut Context) -> GLuint {
    link(ctx, PASS_VS, COLOR_FS)
}

/// A textured program with `uniform sampler2D tex;` ([`TEXTURED_VS`] + [`TEXTURED_FS`]).
pub fn textured_program(ctx: &mut Context) -> GLuint {
    link(ctx, TEXTURED_VS, TEXTURED_FS)
}

/// A program reading the uniform block `Material` ([`PASS_VS`] + [`BLOCK_FS`]).
pub fn block_program(ctx: &mut Context) -> GLuint {
    link(ctx, PASS_VS, BLOCK_FS)
}

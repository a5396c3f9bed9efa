//! Built-in scenes: GL call sequences shared by the main job, the benchmark and the tests.
//!
//! Each bench scene sets up its objects once and then issues `draws` draws per frame, with the
//! per-draw state changes of piglit's `drawoverhead` matrix: none (`steady`), one uniform
//! (`static`), or a block-game mix (`statechange`: bind one of 64 vertex arrays, one of 16
//! textures, set a uniform, toggle blending). Triangles are tiny: the figures measure API and
//! driver CPU cost, not rasterization.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::Pixels;

/// Vertex shader of the bench scenes: a tiny triangle moved by a uniform offset.
pub const BENCH_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
uniform vec4 offset;
out vec2 uv;
void main() {
    uv = position;
    gl_Position = vec4(position * 0.01 + offset.xy, 0.0, 1.0);
}
";

/// Fragment shader of the bench scenes: samples a texture and tints it.
pub const BENCH_FS: &str = "#version 330 core
in vec2 uv;
uniform sampler2D tex;
uniform vec4 tint;
out vec4 color;
void main() {
    color = texture(tex, uv) * tint;
}
";

/// Compiles and links a program from vertex and fragment sources, panicking with the logs on
/// failure (scenes use only shaders known to be valid).
pub fn program(ctx: &mut Context, vs: &str, fs: &str) -> GLuint {
    let p = ctx.create_program();
    for (kind, src) in [(VERTEX_SHADER, vs), (FRAGMENT_SHADER, fs)] {
        let s = ctx.create_shader(kind);
        ctx.shader_source(s, 1, &[src]);
        ctx.compile_shader(s);
        let mut ok = [0];
        ctx.get_shaderiv(s, COMPILE_STATUS, &mut ok);
        assert_eq!(ok[0], TRUE as i32, "shader failed: {}", shader_log(ctx, s));
        ctx.attach_shader(p, s);
        ctx.delete_shader(s);
    }
    ctx.link_program(p);
    let mut ok = [0];
    ctx.get_programiv(p, LINK_STATUS, &mut ok);
    assert_eq!(ok[0], TRUE as i32, "link failed: {}", program_log(ctx, p));
    p
}

/// A shader's info log.
pub fn shader_log(ctx: &mut Context, shader: GLuint) -> String {
    let mut len = [0];
    ctx.get_shaderiv(shader, INFO_LOG_LENGTH, &mut len);
    let mut buf = vec![0u8; len[0].max(1) as usize];
    ctx.get_shader_info_log(shader, buf.len() as GLsizei, None, &mut buf);
    String::from_utf8_lossy(&buf).trim_end_matches('\0').to_owned()
}

/// A program's info log.
pub fn program_log(ctx: &mut Context, program: GLuint) -> String {
    let mut len = [0];
    ctx.get_programiv(program, INFO_LOG_LENGTH, &mut len);
    let mut buf = vec![0u8; len[0].max(1) as usize];
    ctx.get_program_info_log(program, buf.len() as GLsizei, None, &mut buf);
    String::from_utf8_lossy(&buf).trim_end_matches('\0').to_owned()
}

/// A vertex array with one buffer holding a triangle at attribute 0.
pub fn triangle_vao(ctx: &mut Context, shift: f32) -> GLuint {
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    let buf = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, buf);
    let verts: [f32; 6] = [shift, 0.0, 1.0 + shift, 0.0, shift, 1.0];
    let bytes: Vec<u8> = verts.iter().flat_map(|v| v.to_le_bytes()).collect();
    ctx.buffer_data(ARRAY_BUFFER, bytes.len() as isize, Some(&bytes), STATIC_DRAW);
    ctx.vertex_attrib_pointer(0, 2, FLOAT, FALSE as u8, 0, 0);
    ctx.enable_vertex_attrib_array(0);
    ctx.bind_buffer(ARRAY_BUFFER, 0);
    vao
}

/// A 4 x 4 RGBA8 texture of one colour, complete without mipmaps.
pub fn small_texture(ctx: &mut Context, rgba: [u8; 4]) -> GLuint {
    let mut t = [0];
    ctx.gen_textures(1, &mut t);
    ctx.bind_texture(TEXTURE_2D, t[0]);
    let texels: Vec<u8> = rgba.iter().copied().cycle().take(4 * 4 * 4).collect();
    ctx.tex_image_2d(TEXTURE_2D, 0, RGBA8 as i32, 4, 4, 0, RGBA, UNSIGNED_BYTE, Pixels::Bytes(&texels));
    ctx.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
    ctx.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
    t[0]
}

/// Which per-draw changes a bench scene makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchScene {
    /// Nothing changes between draws.
    Steady,
    /// One uniform changes per draw.
    Static,
    /// Vertex array, texture, uniform and blending change per draw.
    StateChange,
}

impl BenchScene {
    /// Every bench scene.
    pub const ALL: [BenchScene; 3] = [BenchScene::Steady, BenchScene::Static, BenchScene::StateChange];

    /// The scene's name.
    pub fn name(self) -> &'static str {
        match self {
            BenchScene::Steady => "steady",
            BenchScene::Static => "static",
            BenchScene::StateChange => "statechange",
        }
    }

    /// Parses a scene name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|b| b.name() == s)
    }
}

/// The objects of a bench scene.
pub struct Bench {
    scene: BenchScene,
    offset: GLint,
    tint: GLint,
    vaos: Vec<GLuint>,
    textures: Vec<GLuint>,
    draw: u64,
}

/// Vertex arrays the statechange scene cycles through.
pub const STATECHANGE_VAOS: usize = 64;
/// Textures the statechange scene cycles through.
pub const STATECHANGE_TEXTURES: usize = 16;

impl Bench {
    /// Creates the scene's objects and state.
    pub fn setup(ctx: &mut Context, scene: BenchScene) -> Self {
        let p = program(ctx, BENCH_VS, BENCH_FS);
        ctx.use_program(p);
        let offset = ctx.get_uniform_location(p, "offset");
        let tint = ctx.get_uniform_location(p, "tint");
        let tex = ctx.get_uniform_location(p, "tex");
        ctx.uniform1i(tex, 0);
        ctx.uniform4f(tint, 1.0, 1.0, 1.0, 1.0);
        let n_vaos = if scene == BenchScene::StateChange { STATECHANGE_VAOS } else { 1 };
        let vaos: Vec<GLuint> = (0..n_vaos).map(|i| triangle_vao(ctx, i as f32 * 0.01)).collect();
        let n_tex = if scene == BenchScene::StateChange { STATECHANGE_TEXTURES } else { 1 };
        let textures: Vec<GLuint> =
            (0..n_tex).map(|i| small_texture(ctx, [(i * 16) as u8, 255 - (i * 16) as u8, 128, 255])).collect();
        ctx.bind_vertex_array(vaos[0]);
        ctx.bind_texture(TEXTURE_2D, textures[0]);
        ctx.blend_func(SRC_ALPHA, ONE_MINUS_SRC_ALPHA);
        Self { scene, offset, tint, vaos, textures, draw: 0 }
    }

    /// Issues one draw with the scene's per-draw changes.
    #[inline]
    pub fn draw(&mut self, ctx: &mut Context) {
        let i = self.draw;
        self.draw += 1;
        match self.scene {
            BenchScene::Steady => {}
            BenchScene::Static => {
                let x = (i % 200) as f32 * 0.01 - 1.0;
                ctx.uniform4f(self.offset, x, 0.0, 0.0, 0.0);
            }
            BenchScene::StateChange => {
                ctx.bind_vertex_array(self.vaos[(i % STATECHANGE_VAOS as u64) as usize]);
                ctx.bind_texture(TEXTURE_2D, self.textures[(i * 7 % STATECHANGE_TEXTURES as u64) as usize]);
                let x = (i % 200) as f32 * 0.01 - 1.0;
                ctx.uniform4f(self.offset, x, 0.0, 0.0, 0.0);
                if i % 2 == 0 {
                    ctx.enable(BLEND);
                } else {
                    ctx.disable(BLEND);
                }
            }
        }
        ctx.draw_arrays(TRIANGLES, 0, 3);
    }

    /// The tint location (tests change it).
    pub fn tint_location(&self) -> GLint {
        self.tint
    }
}

/// Vertex shader of the demo's lit, textured objects.
pub const DEMO_OBJECT_VS: &str = "#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec2 texcoord;
uniform mat4 mvp;
out vec2 uv;
void main() {
    uv = texcoord;
    gl_Position = mvp * vec4(position, 1.0);
}
";

/// Fragment shader of the demo's textured objects, with a translucent tint.
pub const DEMO_OBJECT_FS: &str = "#version 330 core
in vec2 uv;
uniform sampler2D tex;
uniform vec4 tint;
out vec4 color;
void main() {
    color = texture(tex, uv) * tint;
}
";

/// Fragment shader of the demo's render-to-texture pass: a procedural checkerboard.
pub const DEMO_PATTERN_FS: &str = "#version 330 core
in vec2 uv;
uniform float phase;
out vec4 color;
void main() {
    float c = mod(floor(uv.x * 8.0 + phase) + floor(uv.y * 8.0), 2.0);
    color = vec4(c, 0.5 * c + 0.25, 1.0 - c, 1.0);
}
";

/// A quad of two triangles (positions xyz, texcoords uv) at depth `z`, `size` wide.
fn quad(size: f32, z: f32) -> Vec<u8> {
    let s = size;
    let v: [f32; 30] = [
        -s, -s, z, 0.0, 0.0, s, -s, z, 1.0, 0.0, s, s, z, 1.0, 1.0, //
        -s, -s, z, 0.0, 0.0, s, s, z, 1.0, 1.0, -s, s, z, 0.0, 1.0,
    ];
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

fn quad_vao(ctx: &mut Context, size: f32, z: f32) -> GLuint {
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    let buf = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, buf);
    let bytes = quad(size, z);
    ctx.buffer_data(ARRAY_BUFFER, bytes.len() as isize, Some(&bytes), STATIC_DRAW);
    ctx.vertex_attrib_pointer(0, 3, FLOAT, FALSE as u8, 20, 0);
    ctx.vertex_attrib_pointer(1, 2, FLOAT, FALSE as u8, 20, 12);
    ctx.enable_vertex_attrib_array(0);
    ctx.enable_vertex_attrib_array(1);
    ctx.bind_buffer(ARRAY_BUFFER, 0);
    vao
}

/// A translation and uniform scale as a column-major matrix.
fn transform(x: f32, y: f32, scale: f32) -> [f32; 16] {
    [scale, 0.0, 0.0, 0.0, 0.0, scale, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, x, y, 0.0, 1.0]
}

/// The main job's scene: each frame renders a checkerboard into a texture (render-to-texture
/// with its own program), then draws depth-tested, blended, textured quads sampling it and a
/// second texture into the default framebuffer.
pub struct Demo {
    pattern: GLuint,
    object: GLuint,
    phase: GLint,
    mvp: GLint,
    tint: GLint,
    fbo: GLuint,
    target: GLuint,
    photo: GLuint,
    quads: Vec<GLuint>,
    size: (i32, i32),
    frame: u32,
}

/// Objects drawn per frame in the demo's main pass.
pub const DEMO_OBJECTS: usize = 24;

impl Demo {
    /// Creates the demo's objects for a `width` x `height` default framebuffer.
    pub fn setup(ctx: &mut Context, width: i32, height: i32) -> Self {
        let pattern = program(ctx, DEMO_OBJECT_VS, DEMO_PATTERN_FS);
        let object = program(ctx, DEMO_OBJECT_VS, DEMO_OBJECT_FS);
        let phase = ctx.get_uniform_location(pattern, "phase");
        let pattern_mvp = ctx.get_uniform_location(pattern, "mvp");
        ctx.use_program(pattern);
        ctx.uniform_matrix4fv(pattern_mvp, 1, FALSE as u8, &transform(0.0, 0.0, 1.0));
        let mvp = ctx.get_uniform_location(object, "mvp");
        let tint = ctx.get_uniform_location(object, "tint");
        let tex = ctx.get_uniform_location(object, "tex");
        ctx.use_program(object);
        ctx.uniform1i(tex, 0);

        // The render target: a 64 x 64 RGBA8 texture with a depth renderbuffer.
        let mut t = [0];
        ctx.gen_textures(1, &mut t);
        let target = t[0];
        ctx.bind_texture(TEXTURE_2D, target);
        ctx.tex_image_2d(TEXTURE_2D, 0, RGBA8 as i32, 64, 64, 0, RGBA, UNSIGNED_BYTE, Pixels::None);
        ctx.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, LINEAR as i32);
        let mut f = [0];
        ctx.gen_framebuffers(1, &mut f);
        let fbo = f[0];
        ctx.bind_framebuffer(FRAMEBUFFER, fbo);
        ctx.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, target, 0);
        let mut r = [0];
        ctx.gen_renderbuffers(1, &mut r);
        ctx.bind_renderbuffer(RENDERBUFFER, r[0]);
        ctx.renderbuffer_storage(RENDERBUFFER, DEPTH_COMPONENT24, 64, 64);
        ctx.framebuffer_renderbuffer(FRAMEBUFFER, DEPTH_ATTACHMENT, RENDERBUFFER, r[0]);
        assert_eq!(ctx.check_framebuffer_status(FRAMEBUFFER), FRAMEBUFFER_COMPLETE);
        ctx.bind_framebuffer(FRAMEBUFFER, 0);

        // A second texture: a 16 x 16 gradient with mipmaps.
        let mut p = [0];
        ctx.gen_textures(1, &mut p);
        let photo = p[0];
        ctx.bind_texture(TEXTURE_2D, photo);
        let texels: Vec<u8> = (0..16 * 16)
            .flat_map(|i| [(i % 16 * 16) as u8, (i / 16 * 16) as u8, 160, 255])
            .collect();
        ctx.tex_image_2d(TEXTURE_2D, 0, RGBA8 as i32, 16, 16, 0, RGBA, UNSIGNED_BYTE, Pixels::Bytes(&texels));
        ctx.generate_mipmap(TEXTURE_2D);

        let quads = (0..DEMO_OBJECTS).map(|i| quad_vao(ctx, 1.0, i as f32 / DEMO_OBJECTS as f32 - 0.5)).collect();
        ctx.enable(DEPTH_TEST);
        ctx.blend_func(SRC_ALPHA, ONE_MINUS_SRC_ALPHA);
        Self { pattern, object, phase, mvp, tint, fbo, target, photo, quads, size: (width, height), frame: 0 }
    }

    /// Renders one frame.
    pub fn frame(&mut self, ctx: &mut Context) {
        let f = self.frame as f32;
        self.frame += 1;
        // Pass 1: the checkerboard into the texture.
        ctx.bind_framebuffer(FRAMEBUFFER, self.fbo);
        ctx.viewport(0, 0, 64, 64);
        ctx.clear_color(0.0, 0.0, 0.0, 1.0);
        ctx.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
        ctx.use_program(self.pattern);
        ctx.uniform1f(self.phase, f * 0.25);
        ctx.disable(BLEND);
        ctx.bind_vertex_array(self.quads[0]);
        ctx.draw_arrays(TRIANGLES, 0, 6);
        // Pass 2: objects into the default framebuffer.
        ctx.bind_framebuffer(FRAMEBUFFER, 0);
        ctx.viewport(0, 0, self.size.0, self.size.1);
        ctx.clear_color(0.1, 0.1, 0.15, 1.0);
        ctx.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
        ctx.use_program(self.object);
        for (i, &vao) in self.quads.iter().enumerate() {
            let a = i as f32 * 0.7 + f * 0.02;
            let translucent = i % 3 == 0;
            if translucent {
                ctx.enable(BLEND);
            } else {
                ctx.disable(BLEND);
            }
            ctx.bind_texture(TEXTURE_2D, if i % 2 == 0 { self.target } else { self.photo });
            ctx.uniform4f(self.tint, 1.0, 1.0, 1.0, if translucent { 0.5 } else { 1.0 });
            ctx.uniform_matrix4fv(self.mvp, 1, FALSE as u8, &transform(a.cos() * 0.6, a.sin() * 0.6, 0.25));
            ctx.bind_vertex_array(vao);
            ctx.draw_arrays(TRIANGLES, 0, 6);
        }
        ctx.flush();
    }
}

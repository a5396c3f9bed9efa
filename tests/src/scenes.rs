//! Built-in scenes: GL call sequences shared by the main job, the benchmark and the tests.
//!
//! ## Bench scenes
//! Modelled on piglit's `drawoverhead` matrix and block-game rendering. Each sets up its
//! objects once; a frame clears, issues `draws` draws with the scene's per-draw changes, and
//! flushes:
//!
//! | scene | per draw | per frame |
//! |---|---|---|
//! | `steady` | nothing | |
//! | `static` | one uniform | |
//! | `statechange` | bind one of 64 vertex arrays and one of 16 textures, a uniform, toggle blending | |
//! | `programchange` | use one of 8 programs | |
//! | `texturechange` | bind one of 16 textures | |
//! | `ubochange` | bind one of 16 uniform buffers | |
//! | `upload` | a triangle of the uploaded buffer | 256 KiB `buffer_sub_data` |
//! | `persistent` | a triangle of the frame's section | wait on the section's fence, write 256 KiB into a persistently mapped coherent ring (three sections), fence |
//! | `readback` | one uniform | `read_pixels` of the whole target |
//! | `appwork` | [`APPWORK_ROUNDS`] rounds of integer arithmetic in the application (about a microsecond), one uniform | |
//! | `mapstream` | `map_buffer_range` of the next 24 bytes of a 64 KiB stream buffer (write, invalidate range, unsynchronized), the triangle written, unmapped, drawn | `buffer_data` orphaning the buffer when it is full |
//! | `multidraw` | a triangle, issued as `multi_draw_arrays` calls of [`MULTIDRAW_BATCH`] draws | |
//! | `manyobjects` | one uniform; the frame's first [`MANY_OBJECTS`] draws each use a buffer and a texture made this frame | [`MANY_OBJECTS`] buffers and as many textures created, filled, drawn with, deleted |
//! | `shaderheavy` | a quad covering the target, a uniform seed; the fragment shader runs a 64-round loop | |
//!
//! Triangles are tiny (two pixels on a side on the 64 x 64 target), so the figures measure
//! API and driver CPU cost, not rasterization, except in `shaderheavy`: there each draw
//! shades the whole target 64 rounds deep, so the quality of the shader the implementation
//! hands the driver dominates, and a frame makes one draw per 100 that the other scenes make
//! ([`BenchScene::draws_per_frame`]). Its loop is integer hashing and sums of halves, exact
//! in every compiler, so every driver writes the same bytes; `manyobjects` creates and deletes
//! 20 objects per frame, 10,000 per second at 2 ms per frame (1000 draws of 2 µs). Every vertex lies on a quarter-pixel grid and
//! every edge is an integer number of pixels long, so no pixel centre ever lies on an edge:
//! drivers that break such ties differently (GL's lower-left origin against Vulkan's
//! upper-left, under Zink) still cover the same pixels. The scenes are generic over [`Gl`], so
//! the identical call sequence runs on Tessera and on the native drivers; [`Bench::checksum`]
//! hashes the final image, which shows every implementation drew the same picture. Values
//! that change per draw come from tables built at setup, so the loop adds next to nothing to
//! what it measures.

use tessera_engine::Context;
use tessera_engine::gl::*;

use crate::gl::{Gl, SceneGl};

/// A triangle covering the viewport, from `gl_VertexID` alone (draw 3 vertices, no
/// attributes).
pub const FULL_TRIANGLE_VS: &str = "#version 330 core
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}";

/// Feedback scenes' fragment shader (`tests/tests/afr.rs`, `tests/tests/capture.rs`): each
/// texel of the previous frame's target (`previous`), moved one texel right and changed by
/// the frame's constant `k`: a frame's pixels depend on every frame before it.
pub const FEEDBACK_FS: &str = "#version 330 core
uniform sampler2D previous;
uniform float k;
out vec4 frag;
void main() {
    ivec2 at = ivec2(gl_FragCoord.xy);
    vec4 p = texelFetch(previous, ivec2(max(at.x - 1, 0), at.y), 0);
    frag = vec4(fract(p.gba + vec3(0.13 + k, 0.07 * k, float(at.x + at.y) / 128.0)), 1.0);
}";

/// Vertex shader of the bench scenes: a tiny triangle moved by a uniform offset.
pub const BENCH_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
uniform vec4 offset;
out vec2 uv;
void main() {
    uv = position;
    gl_Position = vec4(position * 0.0625 + offset.xy, 0.0, 1.0);
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

/// Vertex shader of `ubochange`: offset and tint come from a uniform block.
pub const BENCH_UBO_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
layout(std140) uniform Params { vec4 offset; vec4 tint; };
void main() {
    gl_Position = vec4(position * 0.0625 + offset.xy, 0.0, 1.0);
}
";

/// Fragment shader of `ubochange`.
pub const BENCH_UBO_FS: &str = "#version 330 core
layout(std140) uniform Params { vec4 offset; vec4 tint; };
out vec4 color;
void main() {
    color = tint;
}
";

/// Vertex shader of `upload`: positions are in clip space already.
pub const BENCH_UPLOAD_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
void main() {
    gl_Position = vec4(position, 0.0, 1.0);
}
";

/// Fragment shader of `upload`: one colour.
pub const BENCH_FLAT_FS: &str = "#version 330 core
uniform vec4 tint;
out vec4 color;
void main() {
    color = tint;
}
";

/// Fragment shader of `shaderheavy`: 64 rounds of an integer hash of the pixel and the
/// draw's seed, with a sum of halves beside it; both exact in any compiler, so every driver
/// writes the same bytes (a trigonometric loop would round differently between compilers).
pub const BENCH_HEAVY_FS: &str = "#version 330 core
uniform uint seed;
out vec4 color;
void main() {
    uvec2 p = uvec2(gl_FragCoord.xy);
    uint h = p.x * 1973u + p.y * 9277u + seed * 26699u + 1u;
    float sum = 0.0;
    for (int i = 0; i < 64; i++) {
        h ^= h >> 15;
        h *= 0x2c1b3c6du;
        h ^= h >> 12;
        h *= 0x297a2d39u;
        h ^= h >> 15;
        sum += float(h & 15u) * 0.5;
    }
    color = vec4(float(h & 255u) / 255.0, float((h >> 8) & 255u) / 255.0,
                 float(uint(sum) & 255u) / 255.0, 1.0);
}
";

/// Width and height of the bench scenes' target (the default framebuffer).
pub const BENCH_SIZE: i32 = 64;
/// Vertex arrays the statechange scene cycles through.
pub const STATECHANGE_VAOS: usize = 64;
/// Textures the statechange and texturechange scenes cycle through.
pub const STATECHANGE_TEXTURES: usize = 16;
/// Programs the programchange scene cycles through.
pub const BENCH_PROGRAMS: usize = 8;
/// Uniform buffers the ubochange scene cycles through.
pub const BENCH_UBOS: usize = 16;
/// Bytes the upload scene writes with `buffer_sub_data` each frame.
pub const UPLOAD_BYTES: usize = 256 << 10;
/// Sections of the persistent scene's ring (one per frame in flight).
pub const PERSISTENT_SECTIONS: usize = 3;
/// Vertex data variants the persistent scene's frames cycle through.
const PERSISTENT_VARIANTS: usize = 4;
/// How long a frame of the persistent scene waits for its section's fence at most.
const FENCE_WAIT_NS: u64 = 10_000_000_000;
/// Positions per-draw offsets cycle through (a power of two: the index is a mask).
const OFFSETS: usize = 256;
/// Rounds of `appwork`'s arithmetic per draw (a dependent xorshift-multiply chain, about a
/// microsecond).
pub const APPWORK_ROUNDS: u32 = 256;
/// Bytes of `mapstream`'s stream buffer (orphaned when full).
pub const STREAM_BYTES: usize = 64 << 10;
/// Bytes `mapstream` maps and writes per draw: one triangle of two-float positions.
const TRIANGLE_BYTES: usize = 24;
/// Draws per `multi_draw_arrays` call of `multidraw` (the last call of a frame takes what
/// is left).
pub const MULTIDRAW_BATCH: usize = 100;
/// Buffers, and as many textures, `manyobjects` creates, draws with and deletes per frame.
pub const MANY_OBJECTS: usize = 10;
/// Draws of the other scenes per `shaderheavy` draw.
pub const SHADERHEAVY_DIVISOR: u32 = 100;

/// Which per-draw changes a bench scene makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchScene {
    /// Nothing changes between draws.
    Steady,
    /// One uniform changes per draw.
    Static,
    /// Vertex array, texture, uniform and blending change per draw.
    StateChange,
    /// The program changes per draw.
    ProgramChange,
    /// The bound texture changes per draw.
    TextureChange,
    /// The bound uniform buffer changes per draw.
    UboChange,
    /// 256 KiB of vertex data uploaded per frame, then drawn from.
    Upload,
    /// 256 KiB of vertex data written per frame into a persistently mapped, coherent ring
    /// behind fences (the block-game pattern), then drawn from.
    Persistent,
    /// The whole target read back per frame.
    Readback,
    /// A fixed amount of application arithmetic between draws (for the render thread).
    AppWork,
    /// Each draw's vertices written through `map_buffer_range` (invalidate range,
    /// unsynchronized) into a stream buffer (emulators' stream buffers).
    MapStream,
    /// The frame's draws as `multi_draw_arrays` calls.
    MultiDraw,
    /// Buffers and textures created, drawn with and deleted every frame.
    ManyObjects,
    /// Few draws, each shading the whole target with a long loop (fragment-bound).
    ShaderHeavy,
}

impl BenchScene {
    /// Every bench scene.
    pub const ALL: [BenchScene; 14] = [
        BenchScene::Steady,
        BenchScene::Static,
        BenchScene::StateChange,
        BenchScene::ProgramChange,
        BenchScene::TextureChange,
        BenchScene::UboChange,
        BenchScene::Upload,
        BenchScene::Persistent,
        BenchScene::Readback,
        BenchScene::AppWork,
        BenchScene::MapStream,
        BenchScene::MultiDraw,
        BenchScene::ManyObjects,
        BenchScene::ShaderHeavy,
    ];

    /// The scene's name.
    pub fn name(self) -> &'static str {
        match self {
            BenchScene::Steady => "steady",
            BenchScene::Static => "static",
            BenchScene::StateChange => "statechange",
            BenchScene::ProgramChange => "programchange",
            BenchScene::TextureChange => "texturechange",
            BenchScene::UboChange => "ubochange",
            BenchScene::Upload => "upload",
            BenchScene::Persistent => "persistent",
            BenchScene::Readback => "readback",
            BenchScene::AppWork => "appwork",
            BenchScene::MapStream => "mapstream",
            BenchScene::MultiDraw => "multidraw",
            BenchScene::ManyObjects => "manyobjects",
            BenchScene::ShaderHeavy => "shaderheavy",
        }
    }

    /// Parses a scene name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|b| b.name() == s)
    }

    /// Whether a frame of the scene waits for the backend (it reads pixels back).
    pub fn reads_back(self) -> bool {
        self == BenchScene::Readback
    }

    /// Draws per frame of the scene for the benchmark's `--draws` of `draws`: the same,
    /// except in `shaderheavy`, whose draws each shade the whole target (one per
    /// [`SHADERHEAVY_DIVISOR`], at least one).
    pub fn draws_per_frame(self, draws: u32) -> u32 {
        match self {
            BenchScene::ShaderHeavy => (draws / SHADERHEAVY_DIVISOR).max(1),
            _ => draws,
        }
    }

    /// GL draw calls of a frame of `draws` draws: one per draw, except in `multidraw`.
    pub fn calls_per_frame(self, draws: u32) -> u32 {
        match self {
            BenchScene::MultiDraw => draws.div_ceil(MULTIDRAW_BATCH as u32),
            _ => draws,
        }
    }
}

/// The objects of a bench scene.
pub struct Bench {
    scene: BenchScene,
    programs: Vec<GLuint>,
    offset: GLint,
    tint: GLint,
    vaos: Vec<GLuint>,
    textures: Vec<GLuint>,
    ubos: Vec<GLuint>,
    offsets: Vec<[f32; 2]>,
    upload: Vec<u8>,
    upload_triangles: u64,
    /// `persistent`: the ring's mapping (null in the other scenes), the frames' vertex data
    /// (one of [`PERSISTENT_VARIANTS`] per frame, so a section's bytes change every time it
    /// is written), each section's fence, and the frames so far.
    ring: *mut u8,
    variants: Vec<Vec<u8>>,
    fences: [u64; PERSISTENT_SECTIONS],
    frame: u64,
    pixels: Vec<u8>,
    draw: u64,
    /// Draws so far in the current frame.
    in_frame: u64,
    /// `appwork`: the running result of the application's arithmetic (kept, so it cannot be
    /// optimised away).
    work: u64,
    /// `mapstream`: the triangles' bytes (one per offset) and the next free byte of the
    /// stream buffer.
    stream_triangles: Vec<u8>,
    stream_at: usize,
    /// `multidraw`: firsts of the triangles (cyclic, so any run of a batch is one slice) and
    /// the counts of a batch.
    firsts: Vec<GLint>,
    counts: Vec<GLsizei>,
    /// `manyobjects`: the buffers and textures of the current frame.
    fresh_buffers: Vec<GLuint>,
    fresh_textures: Vec<GLuint>,
}

/// Binds a new vertex array whose attribute 0 reads a quad covering the viewport, four
/// `vec2` corners for a `TRIANGLE_STRIP` of 4 vertices, from a new buffer left bound to
/// `ARRAY_BUFFER`; returns the vertex array.
pub fn viewport_quad<G: Gl + ?Sized>(gl: &mut G) -> GLuint {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let bytes = f32_bytes(&[-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]);
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    vao
}

/// Compiles and links a program through [`Gl`], panicking with the logs on failure (the
/// scenes use only shaders known to be valid).
pub fn link_program<G: Gl + ?Sized>(gl: &mut G, vs: &str, fs: &str) -> GLuint {
    link_stages(gl, &[(VERTEX_SHADER, vs), (FRAGMENT_SHADER, fs)])
}

/// [`link_program`] of any stages, each `(shader kind, source)`.
pub fn link_stages<G: Gl + ?Sized>(gl: &mut G, stages: &[(GLenum, &str)]) -> GLuint {
    let p = gl.create_program();
    for &(kind, src) in stages {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        assert_eq!(
            gl.get_shaderi(s, COMPILE_STATUS),
            TRUE as i32,
            "shader failed: {}\n{src}",
            gl.shader_info_log(s)
        );
        gl.attach_shader(p, s);
        gl.delete_shader(s);
    }
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "link failed: {}",
        gl.program_info_log(p)
    );
    p
}

/// Writes `bytes` at `offset` of the persistent ring, as a program writes a mapping.
#[expect(
    unsafe_code,
    reason = "a program writes a persistent mapping through its address"
)]
fn write_ring(ring: *mut u8, offset: usize, bytes: &[u8]) {
    // SAFETY: `ring` maps `PERSISTENT_SECTIONS * UPLOAD_BYTES` bytes for the life of the
    // scene (never unmapped), `offset` starts a section and `bytes` is one section long;
    // the section's fence signalled, so no pending command reads it.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), ring.add(offset), bytes.len()) };
}

/// Writes `bytes` to the start of a mapping (`mapstream`), as a program writes one.
#[expect(unsafe_code, reason = "a program writes a mapping through its address")]
fn write_mapping(mapping: *mut u8, bytes: &[u8]) {
    // SAFETY: `mapping` is a live write mapping of exactly `bytes.len()` bytes (the map just
    // succeeded, and the unmap comes after this write).
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), mapping, bytes.len()) };
}

/// `upload`'s vertex bytes ([`UPLOAD_BYTES`], tiny triangles at scattered offsets, zeros
/// after the last whole one) and their triangles.
pub(crate) fn upload_bytes() -> (Vec<u8>, usize) {
    let triangles = UPLOAD_BYTES / 24;
    let mut verts = Vec::with_capacity(UPLOAD_BYTES / 4);
    for [x, y] in scatter(triangles) {
        verts.extend_from_slice(&[x, y, x + SIDE, y, x, y + SIDE]);
    }
    let mut bytes = f32_bytes(&verts);
    bytes.resize(UPLOAD_BYTES, 0);
    (bytes, triangles)
}

/// `persistent`'s vertex bytes, one per frame of a cycle of [`PERSISTENT_VARIANTS`]: the
/// upload's triangles moved right by 0..3 whole pixels (the grid stays exact), so a ring
/// section's bytes change every time it is written.
pub(crate) fn persistent_variants() -> Vec<Vec<u8>> {
    let (upload, triangles) = upload_bytes();
    let base: Vec<f32> = upload
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let used = triangles * 6;
    (0..PERSISTENT_VARIANTS)
        .map(|v| {
            let dx = v as f32 * 2.0 / BENCH_SIZE as f32;
            let moved: Vec<f32> = base
                .iter()
                .enumerate()
                .map(|(i, &c)| if i < used && i % 2 == 0 { c + dx } else { c })
                .collect();
            f32_bytes(&moved)
        })
        .collect()
}

/// `appwork`'s arithmetic: [`APPWORK_ROUNDS`] rounds of a xorshift-multiply chain, each
/// round depending on the last, so no compiler shortens it.
#[inline(never)]
pub(crate) fn app_work(seed: u64) -> u64 {
    let mut x = seed | 1;
    for _ in 0..APPWORK_ROUNDS {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x = x.wrapping_mul(0x2545_f491_4f6c_dd1d);
    }
    x
}

/// `values` as little-endian bytes, as a buffer holds them.
pub fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A vertex array with one buffer holding a triangle at attribute 0.
pub fn triangle_vao<G: Gl + ?Sized>(gl: &mut G, shift: f32) -> GLuint {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let bytes = f32_bytes(&[shift, 0.0, 1.0 + shift, 0.0, shift, 1.0]);
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.bind_buffer(ARRAY_BUFFER, 0);
    vao
}

/// A 4 x 4 RGBA8 texture of one colour, complete without mipmaps.
pub fn small_texture<G: Gl + ?Sized>(gl: &mut G, rgba: [u8; 4]) -> GLuint {
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    let texels: Vec<u8> = rgba.iter().copied().cycle().take(4 * 4 * 4).collect();
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as i32,
        4,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&texels),
    );
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
    t
}

/// A deterministic scatter of `n` points over most of the target, in clip space, each a
/// quarter pixel past a pixel corner (see the module essay). Exact in `f32`.
pub(crate) fn scatter(n: usize) -> Vec<[f32; 2]> {
    let half = (BENCH_SIZE / 2) as f32;
    let span = (BENCH_SIZE - 6) as usize;
    (0..n)
        .map(|i| {
            let px = (i * 37) % span + 2;
            let py = ((i / span) * 13 + i * 5) % span + 2;
            [
                (px as f32 + 0.25) / half - 1.0,
                (py as f32 + 0.25) / half - 1.0,
            ]
        })
        .collect()
}

/// A triangle's side in clip space: two pixels.
const SIDE: f32 = 4.0 / BENCH_SIZE as f32;

/// A colour for object `i` of `n` (alpha 255).
pub(crate) fn colour(i: usize) -> [u8; 4] {
    [
        (i * 16 % 256) as u8,
        255 - (i * 16 % 256) as u8,
        (64 + i * 40 % 192) as u8,
        255,
    ]
}

impl Bench {
    /// Creates the scene's objects and state on a [`BENCH_SIZE`]² default framebuffer.
    pub fn setup<G: SceneGl + ?Sized>(gl: &mut G, scene: BenchScene) -> Self {
        let mut b = Self {
            scene,
            programs: Vec::new(),
            offset: -1,
            tint: -1,
            vaos: Vec::new(),
            textures: Vec::new(),
            ubos: Vec::new(),
            offsets: scatter(OFFSETS),
            upload: Vec::new(),
            upload_triangles: 1,
            ring: std::ptr::null_mut(),
            variants: Vec::new(),
            fences: [0; PERSISTENT_SECTIONS],
            frame: 0,
            pixels: Vec::new(),
            draw: 0,
            in_frame: 0,
            work: 0,
            stream_triangles: Vec::new(),
            stream_at: 0,
            firsts: Vec::new(),
            counts: Vec::new(),
            fresh_buffers: Vec::new(),
            fresh_textures: Vec::new(),
        };
        match scene {
            BenchScene::UboChange => b.setup_ubos(gl),
            BenchScene::Upload => b.setup_upload(gl),
            BenchScene::Persistent => b.setup_persistent(gl),
            BenchScene::MapStream => b.setup_stream(gl),
            BenchScene::MultiDraw => b.setup_multidraw(gl),
            BenchScene::ShaderHeavy => b.setup_heavy(gl),
            _ => b.setup_textured(gl),
        }
        if scene == BenchScene::ManyObjects {
            // The vertex array the frame's new buffers are attached to.
            let vao = gl.gen_vertex_array();
            gl.bind_vertex_array(vao);
            gl.enable_vertex_attrib_array(0);
            b.vaos.push(vao);
            gl.bind_vertex_array(b.vaos[0]);
        }
        if scene.reads_back() {
            b.pixels = vec![0; (BENCH_SIZE * BENCH_SIZE * 4) as usize];
        }
        gl.blend_func(SRC_ALPHA, ONE_MINUS_SRC_ALPHA);
        gl.clear_color(0.1, 0.2, 0.3, 1.0);
        b
    }

    /// The textured, uniform-driven scenes: a program per `programchange` slot (one
    /// otherwise), vertex arrays and textures.
    fn setup_textured<G: Gl + ?Sized>(&mut self, gl: &mut G) {
        let n_programs = if self.scene == BenchScene::ProgramChange {
            BENCH_PROGRAMS
        } else {
            1
        };
        for i in 0..n_programs {
            // Each program's code differs (a distinct constant), so no driver can share them.
            let fs = BENCH_FS.replace(
                "* tint;",
                &format!("* tint * {:.3};", 1.0 - i as f32 / 64.0),
            );
            let p = link_program(gl, BENCH_VS, &fs);
            gl.use_program(p);
            let offset = gl.get_uniform_location(p, "offset");
            let tint = gl.get_uniform_location(p, "tint");
            let tex = gl.get_uniform_location(p, "tex");
            gl.uniform1i(tex, 0);
            gl.uniform4f(tint, 1.0, 1.0, 1.0, 1.0);
            let [x, y] = self.offsets[i * 17 % OFFSETS];
            gl.uniform4f(offset, x, y, 0.0, 0.0);
            self.offset = offset;
            self.tint = tint;
            self.programs.push(p);
        }
        let n_vaos = if self.scene == BenchScene::StateChange {
            STATECHANGE_VAOS
        } else {
            1
        };
        // Shifted by whole pixels (half a unit of the shader's 2-pixel scale).
        self.vaos = (0..n_vaos)
            .map(|i| triangle_vao(gl, (i % 8) as f32 * 0.5))
            .collect();
        let n_tex = match self.scene {
            BenchScene::StateChange | BenchScene::TextureChange => STATECHANGE_TEXTURES,
            _ => 1,
        };
        self.textures = (0..n_tex).map(|i| small_texture(gl, colour(i))).collect();
        gl.bind_vertex_array(self.vaos[0]);
        gl.bind_texture(TEXTURE_2D, self.textures[0]);
        gl.use_program(self.programs[0]);
    }

    /// `ubochange`: one program reading `Params`, and a buffer per slot.
    fn setup_ubos<G: Gl + ?Sized>(&mut self, gl: &mut G) {
        let p = link_program(gl, BENCH_UBO_VS, BENCH_UBO_FS);
        gl.use_program(p);
        let index = gl.get_uniform_block_index(p, "Params");
        gl.uniform_block_binding(p, index, 0);
        self.programs.push(p);
        for i in 0..BENCH_UBOS {
            let [x, y] = self.offsets[i * 13 % OFFSETS];
            let c = colour(i).map(|v| f32::from(v) / 255.0);
            let bytes = f32_bytes(&[x, y, 0.0, 0.0, c[0], c[1], c[2], 1.0]);
            let ubo = gl.gen_buffer();
            gl.bind_buffer(UNIFORM_BUFFER, ubo);
            gl.buffer_data(UNIFORM_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
            self.ubos.push(ubo);
        }
        gl.bind_buffer(UNIFORM_BUFFER, 0);
        gl.bind_buffer_base(UNIFORM_BUFFER, 0, self.ubos[0]);
        self.vaos = vec![triangle_vao(gl, 0.0)];
        gl.bind_vertex_array(self.vaos[0]);
    }

    /// `upload`: a 256 KiB vertex buffer of tiny triangles, rewritten every frame.
    fn setup_upload<G: Gl + ?Sized>(&mut self, gl: &mut G) {
        let p = link_program(gl, BENCH_UPLOAD_VS, BENCH_FLAT_FS);
        gl.use_program(p);
        let tint = gl.get_uniform_location(p, "tint");
        gl.uniform4f(tint, 0.9, 0.6, 0.2, 1.0);
        self.programs.push(p);
        let (bytes, triangles) = upload_bytes();
        let vao = gl.gen_vertex_array();
        gl.bind_vertex_array(vao);
        let buf = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, buf);
        gl.buffer_data(ARRAY_BUFFER, UPLOAD_BYTES, None, STREAM_DRAW);
        gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
        gl.enable_vertex_attrib_array(0);
        // ARRAY_BUFFER stays bound: each frame's upload goes through it.
        self.vaos = vec![vao];
        self.upload = bytes;
        self.upload_triangles = triangles as u64;
    }

    /// `persistent`: the upload scene's program and triangles, in a ring of
    /// [`PERSISTENT_SECTIONS`] sections of [`UPLOAD_BYTES`] with immutable storage, mapped
    /// once (write, persistent, coherent) and never unmapped.
    fn setup_persistent<G: Gl + ?Sized>(&mut self, gl: &mut G) {
        self.setup_upload(gl);
        self.variants = persistent_variants();
        let size = UPLOAD_BYTES * PERSISTENT_SECTIONS;
        let flags = MAP_WRITE_BIT | MAP_PERSISTENT_BIT | MAP_COHERENT_BIT;
        gl.buffer_storage(ARRAY_BUFFER, size, None, flags);
        self.ring = gl.map_buffer_range_ptr(ARRAY_BUFFER, 0, size, flags);
        assert!(!self.ring.is_null(), "the persistent ring did not map");
    }

    /// The flat program of `upload` and a tiny triangle at each offset, in clip space.
    fn flat_program_and_triangles<G: Gl + ?Sized>(&mut self, gl: &mut G) -> Vec<u8> {
        let p = link_program(gl, BENCH_UPLOAD_VS, BENCH_FLAT_FS);
        gl.use_program(p);
        let tint = gl.get_uniform_location(p, "tint");
        gl.uniform4f(tint, 0.9, 0.6, 0.2, 1.0);
        self.programs.push(p);
        let verts: Vec<f32> = self
            .offsets
            .iter()
            .flat_map(|&[x, y]| [x, y, x + SIDE, y, x, y + SIDE])
            .collect();
        f32_bytes(&verts)
    }

    /// `mapstream`: the flat program, a stream buffer of [`STREAM_BYTES`] left bound to
    /// `ARRAY_BUFFER` (each draw maps the next triangle of it), and the triangles' bytes.
    fn setup_stream<G: Gl + ?Sized>(&mut self, gl: &mut G) {
        self.stream_triangles = self.flat_program_and_triangles(gl);
        let vao = gl.gen_vertex_array();
        gl.bind_vertex_array(vao);
        let buf = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, buf);
        gl.buffer_data(ARRAY_BUFFER, STREAM_BYTES, None, STREAM_DRAW);
        gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
        gl.enable_vertex_attrib_array(0);
        self.vaos = vec![vao];
    }

    /// `multidraw`: the flat program and a buffer of a triangle per offset.
    fn setup_multidraw<G: Gl + ?Sized>(&mut self, gl: &mut G) {
        let bytes = self.flat_program_and_triangles(gl);
        let vao = gl.gen_vertex_array();
        gl.bind_vertex_array(vao);
        let buf = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, buf);
        gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
        gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
        gl.enable_vertex_attrib_array(0);
        gl.bind_buffer(ARRAY_BUFFER, 0);
        self.vaos = vec![vao];
        self.firsts = (0..OFFSETS + MULTIDRAW_BATCH)
            .map(|j| (j % OFFSETS * 3) as GLint)
            .collect();
        self.counts = vec![3; MULTIDRAW_BATCH];
    }

    /// `shaderheavy`: the long-loop program and a quad covering the target.
    fn setup_heavy<G: Gl + ?Sized>(&mut self, gl: &mut G) {
        let p = link_program(gl, BENCH_UPLOAD_VS, BENCH_HEAVY_FS);
        gl.use_program(p);
        self.offset = gl.get_uniform_location(p, "seed");
        self.programs.push(p);
        self.vaos = vec![viewport_quad(gl)];
        gl.bind_buffer(ARRAY_BUFFER, 0);
    }

    /// Starts a frame: clears the target, and uploads (`upload`) or waits for the frame's
    /// section of the ring and writes it (`persistent`), or creates the frame's buffers and
    /// textures (`manyobjects`).
    #[inline]
    pub fn begin_frame<G: SceneGl + ?Sized>(&mut self, gl: &mut G) {
        gl.clear(COLOR_BUFFER_BIT);
        self.in_frame = 0;
        match self.scene {
            BenchScene::Upload => gl.buffer_sub_data(ARRAY_BUFFER, 0, &self.upload),
            BenchScene::Persistent => {
                let s = self.section();
                if self.fences[s] != 0 {
                    gl.client_wait_sync(self.fences[s], SYNC_FLUSH_COMMANDS_BIT, FENCE_WAIT_NS);
                    gl.delete_sync(self.fences[s]);
                }
                let bytes = &self.variants[(self.frame % PERSISTENT_VARIANTS as u64) as usize];
                write_ring(self.ring, s * UPLOAD_BYTES, bytes);
            }
            BenchScene::ManyObjects => {
                let triangle = f32_bytes(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0]);
                for k in 0..MANY_OBJECTS {
                    let buf = gl.gen_buffer();
                    gl.bind_buffer(ARRAY_BUFFER, buf);
                    gl.buffer_data(ARRAY_BUFFER, triangle.len(), Some(&triangle), STATIC_DRAW);
                    self.fresh_buffers.push(buf);
                    let tex = small_texture(gl, colour(k + 1));
                    self.fresh_textures.push(tex);
                }
                gl.bind_buffer(ARRAY_BUFFER, 0);
            }
            _ => {}
        }
    }

    /// `manyobjects`' draw `k` of the frame: with the frame's own buffer and texture while
    /// there are some left, then with the scene's own again.
    #[inline]
    fn fresh_objects<G: SceneGl + ?Sized>(&mut self, gl: &mut G, k: usize) {
        if let (Some(&buf), Some(&tex)) = (self.fresh_buffers.get(k), self.fresh_textures.get(k)) {
            gl.bind_vertex_array(self.vaos[1]);
            gl.bind_buffer(ARRAY_BUFFER, buf);
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.bind_buffer(ARRAY_BUFFER, 0);
            gl.bind_texture(TEXTURE_2D, tex);
        } else if k == self.fresh_buffers.len() {
            gl.bind_vertex_array(self.vaos[0]);
            gl.bind_texture(TEXTURE_2D, self.textures[0]);
        }
    }

    /// `multidraw`: the next `n` draws (at most [`MULTIDRAW_BATCH`]) as one call.
    #[inline]
    fn multi_draw<G: SceneGl + ?Sized>(&mut self, gl: &mut G, n: usize) {
        let s = (self.draw % OFFSETS as u64) as usize;
        self.draw += n as u64;
        self.in_frame += n as u64;
        gl.multi_draw_arrays(TRIANGLES, &self.firsts[s..s + n], &self.counts[..n]);
    }

    /// The ring section of the current frame (`persistent`).
    fn section(&self) -> usize {
        (self.frame % PERSISTENT_SECTIONS as u64) as usize
    }

    /// Issues one draw with the scene's per-draw changes.
    #[inline]
    pub fn draw<G: SceneGl + ?Sized>(&mut self, gl: &mut G) {
        if self.scene == BenchScene::MultiDraw {
            return self.multi_draw(gl, 1);
        }
        let i = self.draw;
        self.draw += 1;
        let k = self.in_frame as usize;
        self.in_frame += 1;
        match self.scene {
            BenchScene::Steady | BenchScene::MultiDraw => {}
            BenchScene::Static | BenchScene::Readback => {
                let [x, y] = self.offsets[i as usize % OFFSETS];
                gl.uniform4f(self.offset, x, y, 0.0, 0.0);
            }
            BenchScene::AppWork => {
                self.work = std::hint::black_box(app_work(self.work ^ i));
                let [x, y] = self.offsets[i as usize % OFFSETS];
                gl.uniform4f(self.offset, x, y, 0.0, 0.0);
            }
            BenchScene::ManyObjects => {
                self.fresh_objects(gl, k);
                let [x, y] = self.offsets[i as usize % OFFSETS];
                gl.uniform4f(self.offset, x, y, 0.0, 0.0);
            }
            BenchScene::MapStream => {
                if self.stream_at + TRIANGLE_BYTES > STREAM_BYTES {
                    gl.buffer_data(ARRAY_BUFFER, STREAM_BYTES, None, STREAM_DRAW);
                    self.stream_at = 0;
                }
                let access = MAP_WRITE_BIT | MAP_INVALIDATE_RANGE_BIT | MAP_UNSYNCHRONIZED_BIT;
                let at = self.stream_at;
                let mapping = gl.map_buffer_range_ptr(ARRAY_BUFFER, at, TRIANGLE_BYTES, access);
                assert!(!mapping.is_null(), "the stream buffer did not map");
                let t = (i as usize % OFFSETS) * TRIANGLE_BYTES;
                write_mapping(mapping, &self.stream_triangles[t..t + TRIANGLE_BYTES]);
                gl.unmap_buffer(ARRAY_BUFFER);
                self.stream_at += TRIANGLE_BYTES;
                gl.draw_arrays(TRIANGLES, (at / 8) as GLint, 3);
                return;
            }
            BenchScene::ShaderHeavy => {
                gl.uniform1ui(self.offset, i as GLuint);
                gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
                return;
            }
            BenchScene::StateChange => {
                gl.bind_vertex_array(self.vaos[(i % STATECHANGE_VAOS as u64) as usize]);
                gl.bind_texture(
                    TEXTURE_2D,
                    self.textures[(i * 7 % STATECHANGE_TEXTURES as u64) as usize],
                );
                let [x, y] = self.offsets[i as usize % OFFSETS];
                gl.uniform4f(self.offset, x, y, 0.0, 0.0);
                if i.is_multiple_of(2) {
                    gl.enable(BLEND);
                } else {
                    gl.disable(BLEND);
                }
            }
            BenchScene::ProgramChange => {
                gl.use_program(self.programs[(i % BENCH_PROGRAMS as u64) as usize])
            }
            BenchScene::TextureChange => {
                gl.bind_texture(
                    TEXTURE_2D,
                    self.textures[(i * 7 % STATECHANGE_TEXTURES as u64) as usize],
                );
            }
            BenchScene::UboChange => gl.bind_buffer_base(
                UNIFORM_BUFFER,
                0,
                self.ubos[(i % BENCH_UBOS as u64) as usize],
            ),
            BenchScene::Upload => {
                let t = i % self.upload_triangles;
                gl.draw_arrays(TRIANGLES, (t * 3) as GLint, 3);
                return;
            }
            BenchScene::Persistent => {
                let t = i % self.upload_triangles;
                let first = self.section() * UPLOAD_BYTES / 8 + t as usize * 3;
                gl.draw_arrays(TRIANGLES, first as GLint, 3);
                return;
            }
        }
        gl.draw_arrays(TRIANGLES, 0, 3);
    }

    /// Ends a frame: reads the target back (`readback`), then flushes (a frame boundary
    /// that does not wait).
    #[inline]
    pub fn end_frame<G: SceneGl + ?Sized>(&mut self, gl: &mut G) {
        if self.scene.reads_back() {
            gl.read_pixels(
                0,
                0,
                BENCH_SIZE,
                BENCH_SIZE,
                RGBA,
                UNSIGNED_BYTE,
                &mut self.pixels,
            );
        }
        if self.scene == BenchScene::Persistent {
            let s = self.section();
            self.fences[s] = gl.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
            self.frame += 1;
        }
        if self.scene == BenchScene::ManyObjects {
            gl.delete_buffers(&self.fresh_buffers);
            gl.delete_textures(&self.fresh_textures);
            self.fresh_buffers.clear();
            self.fresh_textures.clear();
        }
        gl.flush();
    }

    /// One whole frame of `draws` draws (`multidraw`: in calls of [`MULTIDRAW_BATCH`]).
    pub fn frame<G: SceneGl + ?Sized>(&mut self, gl: &mut G, draws: u32) {
        self.begin_frame(gl);
        if self.scene == BenchScene::MultiDraw {
            let mut left = draws as usize;
            while left > 0 {
                let n = left.min(MULTIDRAW_BATCH);
                self.multi_draw(gl, n);
                left -= n;
            }
        } else {
            for _ in 0..draws {
                self.draw(gl);
            }
        }
        self.end_frame(gl);
    }

    /// The running result of `appwork`'s arithmetic (0 in the other scenes).
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Waits for the work so far and hashes the whole target (FNV-1a over its RGBA8 bytes):
    /// equal on every implementation that drew the same picture.
    pub fn checksum<G: Gl + ?Sized>(&mut self, gl: &mut G) -> u64 {
        gl.finish();
        let mut pixels = vec![0u8; (BENCH_SIZE * BENCH_SIZE * 4) as usize];
        gl.read_pixels(
            0,
            0,
            BENCH_SIZE,
            BENCH_SIZE,
            RGBA,
            UNSIGNED_BYTE,
            &mut pixels,
        );
        pixels.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
        })
    }

    /// The tint location of the (first) program (tests change it).
    pub fn tint_location(&self) -> GLint {
        self.tint
    }
}

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
    String::from_utf8_lossy(&buf)
        .trim_end_matches('\0')
        .to_owned()
}

/// A program's info log.
pub fn program_log(ctx: &mut Context, program: GLuint) -> String {
    let mut len = [0];
    ctx.get_programiv(program, INFO_LOG_LENGTH, &mut len);
    let mut buf = vec![0u8; len[0].max(1) as usize];
    ctx.get_program_info_log(program, buf.len() as GLsizei, None, &mut buf);
    String::from_utf8_lossy(&buf)
        .trim_end_matches('\0')
        .to_owned()
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

fn quad_vao<G: Gl + ?Sized>(gl: &mut G, size: f32, z: f32) -> GLuint {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let bytes = quad(size, z);
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 3, FLOAT, false, 20, 0);
    gl.vertex_attrib_pointer(1, 2, FLOAT, false, 20, 12);
    gl.enable_vertex_attrib_array(0);
    gl.enable_vertex_attrib_array(1);
    gl.bind_buffer(ARRAY_BUFFER, 0);
    vao
}

/// A translation and uniform scale as a column-major matrix.
fn transform(x: f32, y: f32, scale: f32) -> [f32; 16] {
    [
        scale, 0.0, 0.0, 0.0, 0.0, scale, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, x, y, 0.0, 1.0,
    ]
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
    /// Creates the demo's objects for a `width` x `height` default framebuffer, on Tessera
    /// or (through [`Gl`]) on the native driver, which draws the oracle's frames.
    pub fn setup<G: Gl + ?Sized>(gl: &mut G, width: i32, height: i32) -> Self {
        let pattern = link_program(gl, DEMO_OBJECT_VS, DEMO_PATTERN_FS);
        let object = link_program(gl, DEMO_OBJECT_VS, DEMO_OBJECT_FS);
        let phase = gl.get_uniform_location(pattern, "phase");
        let pattern_mvp = gl.get_uniform_location(pattern, "mvp");
        gl.use_program(pattern);
        gl.uniform_matrix4fv(pattern_mvp, false, &transform(0.0, 0.0, 1.0));
        let mvp = gl.get_uniform_location(object, "mvp");
        let tint = gl.get_uniform_location(object, "tint");
        let tex = gl.get_uniform_location(object, "tex");
        gl.use_program(object);
        gl.uniform1i(tex, 0);

        // The render target: a 64 x 64 RGBA8 texture with a depth renderbuffer.
        let target = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, target);
        gl.tex_image_2d(
            TEXTURE_2D,
            0,
            RGBA8 as i32,
            64,
            64,
            0,
            RGBA,
            UNSIGNED_BYTE,
            None,
        );
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, LINEAR as i32);
        let fbo = gl.gen_framebuffer();
        gl.bind_framebuffer(FRAMEBUFFER, fbo);
        gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, target, 0);
        let depth = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, depth);
        gl.renderbuffer_storage(RENDERBUFFER, DEPTH_COMPONENT24, 64, 64);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, DEPTH_ATTACHMENT, RENDERBUFFER, depth);
        assert_eq!(
            gl.check_framebuffer_status(FRAMEBUFFER),
            FRAMEBUFFER_COMPLETE
        );
        gl.bind_framebuffer(FRAMEBUFFER, 0);

        // A second texture: a 16 x 16 gradient with mipmaps.
        let photo = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, photo);
        let texels: Vec<u8> = (0..16 * 16)
            .flat_map(|i| [(i % 16 * 16) as u8, (i / 16 * 16) as u8, 160, 255])
            .collect();
        gl.tex_image_2d(
            TEXTURE_2D,
            0,
            RGBA8 as i32,
            16,
            16,
            0,
            RGBA,
            UNSIGNED_BYTE,
            Some(&texels),
        );
        gl.generate_mipmap(TEXTURE_2D);

        let quads = (0..DEMO_OBJECTS)
            .map(|i| quad_vao(gl, 1.0, i as f32 / DEMO_OBJECTS as f32 - 0.5))
            .collect();
        gl.enable(DEPTH_TEST);
        gl.blend_func(SRC_ALPHA, ONE_MINUS_SRC_ALPHA);
        Self {
            pattern,
            object,
            phase,
            mvp,
            tint,
            fbo,
            target,
            photo,
            quads,
            size: (width, height),
            frame: 0,
        }
    }

    /// Sets the size of the default framebuffer the objects are drawn into (a resized
    /// window).
    pub fn set_size(&mut self, width: i32, height: i32) {
        self.size = (width, height);
    }

    /// Renders one frame.
    pub fn frame<G: Gl + ?Sized>(&mut self, gl: &mut G) {
        let f = self.frame as f32;
        self.frame += 1;
        // Pass 1: the checkerboard into the texture.
        gl.bind_framebuffer(FRAMEBUFFER, self.fbo);
        gl.viewport(0, 0, 64, 64);
        gl.clear_color(0.0, 0.0, 0.0, 1.0);
        gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
        gl.use_program(self.pattern);
        gl.uniform1f(self.phase, f * 0.25);
        gl.disable(BLEND);
        gl.bind_vertex_array(self.quads[0]);
        gl.draw_arrays(TRIANGLES, 0, 6);
        // Pass 2: objects into the default framebuffer.
        gl.bind_framebuffer(FRAMEBUFFER, 0);
        gl.viewport(0, 0, self.size.0, self.size.1);
        gl.clear_color(0.1, 0.1, 0.15, 1.0);
        gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
        gl.use_program(self.object);
        for (i, &vao) in self.quads.iter().enumerate() {
            let a = i as f32 * 0.7 + f * 0.02;
            let translucent = i % 3 == 0;
            if translucent {
                gl.enable(BLEND);
            } else {
                gl.disable(BLEND);
            }
            gl.bind_texture(
                TEXTURE_2D,
                if i.is_multiple_of(2) {
                    self.target
                } else {
                    self.photo
                },
            );
            gl.uniform4f(
                self.tint,
                1.0,
                1.0,
                1.0,
                if translucent { 0.5 } else { 1.0 },
            );
            gl.uniform_matrix4fv(
                self.mvp,
                false,
                &transform(a.cos() * 0.6, a.sin() * 0.6, 0.25),
            );
            gl.bind_vertex_array(vao);
            gl.draw_arrays(TRIANGLES, 0, 6);
        }
        gl.flush();
    }
}

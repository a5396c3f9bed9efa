//! Arrays of arrays (`ARB_arrays_of_arrays`, GL 4.3) against the native driver.
//!
//! The extension is advertised on both backends. The reflection: the active uniforms of a
//! default-block array of arrays and of a sampler array of arrays (each innermost array a
//! uniform of its own, `s[1][0]`), their locations and the uniform block names of a block
//! array of arrays, in GLSL 4.30 and in 1.50 with the extension, on both backends.
//!
//! The pixels: the link flattens arrays of arrays of samplers, images and blocks into
//! one-dimensional arrays (neither Vulkan's SPIR-V nor GLSL ES has them), so scenes read
//! sampler arrays of arrays whose units the program permutes, uniform and storage block
//! arrays of arrays at their bindings, each indexed by constants and by uniforms (one index
//! of each kind too), on GLES and Vulkan (validation layer on, which must report nothing)
//! over `inproc` and `thread`; and a compute shader stores into and loads from an image
//! array of arrays, whose texels are compared on Vulkan only (the GLES backend does not
//! advertise image load and store).

#![expect(
    unsafe_code,
    reason = "calls the native driver's entry points beyond the shared Gl table"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::PixelsMut;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, check, probe, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::{link_program, link_stages};

const SIZE: i32 = 4;

const VS: &str = "#version 150
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

/// Every element read (with constant indices, as GLSL 1.50 wants for blocks), so that no
/// driver may trim an array.
const FS_BODY: &str = "
uniform float a[2][3];
uniform sampler2D s[2][2];
layout(std140) uniform B { vec4 c; } b[2][3];
out vec4 o;
void main() {
    vec4 t = vec4(a[0][0] + a[0][1] + a[0][2] + a[1][0] + a[1][1] + a[1][2]);
    t += texture(s[0][0], vec2(0.5)) + texture(s[0][1], vec2(0.5));
    t += texture(s[1][0], vec2(0.5)) + texture(s[1][1], vec2(0.5));
    t += b[0][0].c + b[0][1].c + b[0][2].c + b[1][0].c + b[1][1].c + b[1][2].c;
    o = t;
}
";

const NAMES: &[&str] = &[
    "a", "a[0]", "a[0][0]", "a[0][2]", "a[1][0]", "a[1][2]", "a[1][3]", "s[0][0]", "s[0][1]",
    "s[1][0]", "s[1][1]", "s[2][0]",
];

const BLOCKS: &[&str] = &[
    "B", "B[0]", "B[0][0]", "B[0][2]", "B[1][0]", "B[1][2]", "B[2][0]",
];

/// Runs the transcript; returns its values, names and types.
fn transcript(gl: &mut dyn Gl) -> Vec<String> {
    let mut v = Vec::new();
    for head in [
        "#version 430 core\n",
        "#version 150\n#extension GL_ARB_arrays_of_arrays : require\n",
    ] {
        let fs = format!("{head}{FS_BODY}");
        let p = link_program(gl, VS, &fs);
        v.push(format!("link {}", gl.get_programi(p, LINK_STATUS)));
        let mut active: Vec<String> = (0..gl.get_programi(p, ACTIVE_UNIFORMS) as GLuint)
            .map(|i| {
                let (name, size, ty) = gl.get_active_uniform(p, i);
                format!("{name} {size} {ty:#x}")
            })
            .collect();
        // GL leaves the order of active uniforms to the implementation.
        active.sort();
        v.extend(active);
        for name in NAMES {
            let location = gl.get_uniform_location(p, name);
            v.push(format!("{name} {}", location >= 0));
        }
        let mut blocks: Vec<String> = (0..gl.get_programi(p, ACTIVE_UNIFORM_BLOCKS) as GLuint)
            .map(|i| {
                let mut size = [0];
                gl.get_active_uniform_blockiv(p, i, UNIFORM_BLOCK_DATA_SIZE, &mut size);
                format!("{} {}", gl.get_active_uniform_block_name(p, i), size[0])
            })
            .collect();
        blocks.sort();
        v.extend(blocks);
        for name in BLOCKS {
            let index = gl.get_uniform_block_index(p, name);
            v.push(format!("{name} {}", index != INVALID_INDEX));
        }
        v.push(format!("error {:#x}", gl.get_error()));
    }
    v
}

#[test]
fn arrays_of_arrays_reflect_as_in_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = transcript(&mut native);
    drop(native);
    assert!(
        expected.contains(&"s[1][0] 2 0x8b5e".to_string()),
        "{expected:?}"
    );
    assert!(expected.contains(&"B[1][2] 16".to_string()), "{expected:?}");
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let advertised = (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
                .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
                .any(|e| e == "GL_ARB_arrays_of_arrays");
            assert!(
                advertised,
                "{}: the extension is advertised",
                backend.name()
            );
            let got = transcript(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

/// A triangle over the whole target (no attributes; a vertex array is bound).
const FULL_VS: &str = "#version 430 core
void main() {
    vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));
    gl_Position = vec4(p, 0.0, 1.0);
}
";

/// The pixel scenes' target: 8 columns, 8 rows.
const PIXELS: i32 = 8;

/// Six colours, one per element of a `[2][3]` array.
const COLOURS: [[u8; 4]; 6] = [
    [255, 0, 0, 255],
    [0, 255, 0, 255],
    [0, 0, 255, 255],
    [255, 255, 0, 255],
    [0, 255, 255, 255],
    [255, 0, 255, 255],
];

/// A 1 x 1 RGBA8 texture of one colour.
fn texel_texture(gl: &mut dyn Gl, rgba: [u8; 4]) -> GLuint {
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as i32,
        1,
        1,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&rgba),
    );
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
    t
}

/// Columns 0-5 of the bottom half read `s[c / 3][c % 3]` with constant indices; the top
/// half is drawn column by column with `s[i][j]` (columns 0-5) and `s[i][2]` (columns 6-7)
/// from uniforms. The units the program gives the elements are a permutation of the
/// textures' (texture `k` on unit `k`).
const SAMPLER_FS: &str = "#version 430 core
uniform sampler2D s[2][3];
uniform int i;
uniform int j;
uniform bool by_uniform;
out vec4 o;
void main() {
    int c = int(gl_FragCoord.x);
    vec2 at = vec2(0.5);
    if (by_uniform) {
        o = c < 6 ? texture(s[i][j], at) : texture(s[i][2], at);
    } else if (c == 0) {
        o = texture(s[0][0], at);
    } else if (c == 1) {
        o = texture(s[0][1], at);
    } else if (c == 2) {
        o = texture(s[0][2], at);
    } else if (c == 3) {
        o = texture(s[1][0], at);
    } else if (c == 4) {
        o = texture(s[1][1], at);
    } else if (c == 5) {
        o = texture(s[1][2], at);
    } else {
        o = vec4(0.0, 0.0, 0.0, 1.0);
    }
}
";

/// The units of `s[0][*]` and `s[1][*]`.
const UNITS: [[i32; 3]; 2] = [[4, 2, 0], [5, 1, 3]];

fn sampler_scene(gl: &mut dyn Gl) {
    let p = link_program(gl, FULL_VS, SAMPLER_FS);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    for (k, rgba) in COLOURS.iter().enumerate() {
        gl.active_texture(TEXTURE0 + k as GLenum);
        texel_texture(gl, *rgba);
    }
    for (row, units) in UNITS.iter().enumerate() {
        let at = gl.get_uniform_location(p, &format!("s[{row}]"));
        gl.uniform1iv(at, units);
    }
    let (i, j, by_uniform) = (
        gl.get_uniform_location(p, "i"),
        gl.get_uniform_location(p, "j"),
        gl.get_uniform_location(p, "by_uniform"),
    );
    gl.enable(SCISSOR_TEST);
    gl.scissor(0, 0, PIXELS, PIXELS / 2);
    gl.draw_arrays(TRIANGLES, 0, 3);
    gl.uniform1i(by_uniform, 1);
    for c in 0..PIXELS {
        let e = c % 6;
        gl.uniform1i(i, e / 3);
        gl.uniform1i(j, e % 3);
        gl.scissor(c, PIXELS / 2, 1, PIXELS / 2);
        gl.draw_arrays(TRIANGLES, 0, 3);
    }
}

#[test]
fn sampler_arrays_of_arrays_read_their_units() {
    let colour = |row: usize, col: usize| COLOURS[UNITS[row][col] as usize];
    check(
        "arrays_of_arrays_samplers",
        PIXELS,
        PIXELS,
        sampler_scene,
        &[
            probe(0, 0, colour(0, 0)),
            probe(2, 1, colour(0, 2)),
            probe(4, 3, colour(1, 1)),
            probe(6, 0, [0, 0, 0, 255]),
            probe(1, 5, colour(0, 1)),
            probe(5, 7, colour(1, 2)),
            // Column 6 is element 0 again: s[0][2]; column 7 s[0][2] too (j unused).
            probe(6, 6, colour(0, 2)),
            probe(7, 4, colour(0, 2)),
        ],
    );
}

/// Uniform blocks `b[2][3]` (bindings 1 to 6) and storage blocks `t[2][2]` (bindings 2 to
/// 5): the bottom half reads them with constant indices (columns 0-5 `b`, 6-7 `t[1][*]`),
/// the top half column by column with `b[i][j]` (columns 0-5) and `b[1][j]` (6-7) from
/// uniforms.
const BLOCK_FS: &str = "#version 430 core
layout(std140, binding = 1) uniform B { vec4 c; } b[2][3];
layout(std430, binding = 2) readonly buffer T { vec4 c; } t[2][2];
uniform int i;
uniform int j;
uniform bool by_uniform;
out vec4 o;
void main() {
    int c = int(gl_FragCoord.x);
    if (by_uniform) {
        o = c < 6 ? b[i][j].c : b[1][j].c;
    } else if (c == 0) {
        o = b[0][0].c;
    } else if (c == 1) {
        o = b[0][1].c;
    } else if (c == 2) {
        o = b[0][2].c;
    } else if (c == 3) {
        o = b[1][0].c;
    } else if (c == 4) {
        o = b[1][1].c;
    } else if (c == 5) {
        o = b[1][2].c;
    } else if (c == 6) {
        o = t[1][0].c;
    } else {
        o = t[1][1].c;
    }
}
";

/// The storage blocks of [`BLOCK_FS`] indexed by uniforms: column `c` reads `t[i][j]`
/// (bottom half) and `t[1][j]` (top half) for element `c % 4`. GLSL ES indexes storage
/// block arrays with constants only, so the GLES backend refuses the program (a known
/// failure there, as for a one-dimensional array).
const STORAGE_FS: &str = "#version 430 core
layout(std430, binding = 2) readonly buffer T { vec4 c; } t[2][2];
uniform int i;
uniform int j;
uniform bool by_uniform;
out vec4 o;
void main() {
    o = by_uniform ? t[1][j].c : t[i][j].c;
}
";

/// The value block element `k` holds (`b` elements 0-5, then `t` elements 0-3).
fn block_value(k: usize) -> [f32; 4] {
    let v = |x: usize| ((k * 37 + x * 91) % 256) as f32 / 255.0;
    [v(0), v(1), v(2), 1.0]
}

/// Draws `fs` over the bottom half (`by_uniform` false) and the top half, column by column,
/// with `i` and `j` of `indices(column)` in both halves.
fn block_scene(gl: &mut dyn Gl, fs: &str, indices: fn(i32) -> (i32, i32)) {
    let p = link_program(gl, FULL_VS, fs);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    for k in 0..10 {
        let bytes: Vec<u8> = block_value(k)
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let buf = gl.gen_buffer();
        let (target, binding) = if k < 6 {
            (UNIFORM_BUFFER, 1 + k)
        } else {
            (SHADER_STORAGE_BUFFER, 2 + k - 6)
        };
        gl.bind_buffer(target, buf);
        gl.buffer_data(target, bytes.len(), Some(&bytes), STATIC_DRAW);
        gl.bind_buffer_base(target, binding as GLuint, buf);
    }
    let (i, j, by_uniform) = (
        gl.get_uniform_location(p, "i"),
        gl.get_uniform_location(p, "j"),
        gl.get_uniform_location(p, "by_uniform"),
    );
    gl.enable(SCISSOR_TEST);
    for (half, flag) in [(0, 0), (PIXELS / 2, 1)] {
        gl.uniform1i(by_uniform, flag);
        for c in 0..PIXELS {
            let (ii, jj) = indices(c);
            gl.uniform1i(i, ii);
            gl.uniform1i(j, jj);
            gl.scissor(c, half, 1, PIXELS / 2);
            gl.draw_arrays(TRIANGLES, 0, 3);
        }
    }
}

fn rgba(k: usize) -> [u8; 4] {
    block_value(k).map(|v| (v * 255.0).round() as u8)
}

#[test]
fn block_arrays_of_arrays_read_their_bindings() {
    check(
        "arrays_of_arrays_blocks",
        PIXELS,
        PIXELS,
        |gl| {
            block_scene(gl, BLOCK_FS, |c| {
                if c < 6 { (c / 3, c % 3) } else { (0, c - 6) }
            })
        },
        &[
            probe(0, 0, rgba(0)),
            probe(4, 2, rgba(4)),
            probe(6, 1, rgba(6 + 2)),
            probe(7, 3, rgba(6 + 3)),
            probe(2, 6, rgba(2)),
            probe(5, 5, rgba(5)),
            probe(6, 7, rgba(3)),
            probe(7, 4, rgba(4)),
        ],
    );
}

#[test]
fn storage_block_arrays_of_arrays_indexed_by_uniforms() {
    check(
        "arrays_of_arrays_storage_by_uniform",
        PIXELS,
        PIXELS,
        |gl| block_scene(gl, STORAGE_FS, |c| ((c % 4) / 2, c % 2)),
        &[
            probe(0, 0, rgba(6)),
            probe(1, 3, rgba(7)),
            probe(2, 2, rgba(8)),
            probe(7, 1, rgba(9)),
            probe(4, 7, rgba(8)),
            probe(5, 4, rgba(9)),
        ],
    );
}

/// A compute shader over 2 x 2 invocations adds, in each element of `im[2][2]`, the texel
/// of element `[i][j]` (uniforms) to its own plus a step per element (constant indices).
const IMAGE_CS: &str = "#version 430 core
layout(local_size_x = 2, local_size_y = 2) in;
layout(rgba8, binding = 1) uniform image2D im[2][2];
uniform int i;
uniform int j;
void main() {
    ivec2 at = ivec2(gl_LocalInvocationID.xy);
    vec4 other = imageLoad(im[i][j], at);
    memoryBarrierImage();
    barrier();
    imageStore(im[0][0], at, imageLoad(im[0][0], at) * 0.5 + other * 0.25);
    imageStore(im[0][1], at, imageLoad(im[0][1], at) * 0.5 + other * 0.25 + vec4(0.125));
    imageStore(im[1][0], at, imageLoad(im[1][0], at) * 0.5 + other * 0.25 + vec4(0.25));
    imageStore(im[1][1], at, imageLoad(im[1][1], at) * 0.5 + other * 0.25 + vec4(0.375));
}
";

/// The calls the image scene makes that the shared [`Gl`] table has no entry for.
trait ImageGl: Gl {
    /// `glBindImageTexture` of a whole level 0, read and write.
    fn bind_image(&mut self, unit: GLuint, texture: GLuint, format: GLenum);
    /// `glGetTexImage` of level 0 of the bound 2D texture into `out`.
    fn tex_image(&mut self, out: &mut [u8]);
}

impl ImageGl for Context {
    fn bind_image(&mut self, unit: GLuint, texture: GLuint, format: GLenum) {
        self.bind_image_texture(unit, texture, 0, FALSE as GLboolean, 0, READ_WRITE, format)
    }
    fn tex_image(&mut self, out: &mut [u8]) {
        Context::get_tex_image(
            self,
            TEXTURE_2D,
            0,
            RGBA,
            UNSIGNED_BYTE,
            PixelsMut::Bytes(out),
        )
    }
}

impl ImageGl for NativeGl {
    fn bind_image(&mut self, unit: GLuint, texture: GLuint, format: GLenum) {
        type F = unsafe extern "system" fn(GLuint, GLuint, GLint, GLboolean, GLint, GLenum, GLenum);
        let f: F = self
            .entry_point("glBindImageTexture")
            .expect("glBindImageTexture");
        // SAFETY: the driver's glBindImageTexture with its C signature, called while the
        // context is current, every argument by value.
        unsafe { f(unit, texture, 0, FALSE as GLboolean, 0, READ_WRITE, format) }
    }
    fn tex_image(&mut self, out: &mut [u8]) {
        type F = unsafe extern "system" fn(GLenum, GLint, GLenum, GLenum, *mut std::ffi::c_void);
        let f: F = self.entry_point("glGetTexImage").expect("glGetTexImage");
        // SAFETY: the driver's glGetTexImage with its C signature, called while the context
        // is current; `out` holds the 2 x 2 RGBA8 level it writes.
        unsafe { f(TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, out.as_mut_ptr().cast()) }
    }
}

/// Runs the image scene with `[i][j]`; returns the four images' texels, then the error.
fn image_scene(gl: &mut dyn ImageGl, i: i32, j: i32) -> (Vec<Vec<u8>>, GLenum) {
    let p = link_stages(gl, &[(COMPUTE_SHADER, IMAGE_CS)]);
    gl.use_program(p);
    let mut textures = Vec::new();
    for k in 0..4u8 {
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, t);
        let texels: Vec<u8> = (0..16).map(|x| x * 7 + k * 40).collect();
        gl.tex_image_2d(
            TEXTURE_2D,
            0,
            RGBA8 as i32,
            2,
            2,
            0,
            RGBA,
            UNSIGNED_BYTE,
            Some(&texels),
        );
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
        gl.bind_image(1 + u32::from(k), t, RGBA8);
        textures.push(t);
    }
    let (ui, uj) = (
        gl.get_uniform_location(p, "i"),
        gl.get_uniform_location(p, "j"),
    );
    gl.uniform1i(ui, i);
    gl.uniform1i(uj, j);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(TEXTURE_UPDATE_BARRIER_BIT);
    let images = textures
        .iter()
        .map(|&t| {
            gl.bind_texture(TEXTURE_2D, t);
            let mut out = vec![0u8; 16];
            gl.tex_image(&mut out);
            out
        })
        .collect();
    (images, gl.get_error())
}

#[test]
fn image_arrays_of_arrays_load_and_store_on_vulkan() {
    for (i, j) in [(1, 0), (0, 1)] {
        let mut native =
            NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
        let expected = image_scene(&mut native, i, j);
        drop(native);
        assert_eq!(expected.1, NO_ERROR);
        assert_ne!(expected.0[0], expected.0[1]);
        // The GLES backend does not advertise image load and store.
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(Backend::Vulkan, transport.clone(), SIZE, SIZE);
            let got = image_scene(&mut ctx, i, j);
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "vulkan: {events:?}");
            assert_eq!(got, expected, "vulkan {} [{i}][{j}]", transport.name());
        }
    }
}

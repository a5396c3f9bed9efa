//! Image load and store (GL 4.2's `ARB_shader_image_load_store`) against the native driver:
//! a compute shader blurring an RGBA8 image into another that a draw then samples, fragments
//! counted with `imageAtomicAdd` in an R32UI image (GLSL 3.30 with the extension), layered
//! and single-layer bindings of an RGBA32F 2D array, 3D image and cube map array (one slice
//! or layer-face bound alone is a 2D image), an RGBA8 texture read through an R32UI unit,
//! the errors of `glBindImageTexture` and the state and limits, on both backends over
//! `inproc` and `thread`, and the blur and the array through a private server process
//! (`fork`) (Vulkan with the validation layer on, which must report nothing; no pipeline in
//! steady frames). Texels, pixels, errors and values must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "calls the native driver's entry points beyond the shared Gl table"
)]

use tessera_engine::gl::*;
use tessera_engine::pixel::PixelsMut;
use tessera_engine::wire::{Event, TransportKind};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
pub(crate) trait ImageGl: Gl {
    /// `glBindImageTexture`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    fn bind_image(
        &mut self,
        unit: GLuint,
        texture: GLuint,
        level: GLint,
        layered: bool,
        layer: GLint,
        access: GLenum,
        format: GLenum,
    );
    /// `glTexStorage2D`.
    fn storage_2d(&mut self, target: GLenum, levels: GLsizei, internal: GLenum, w: i32, h: i32);
    /// `glTexStorage3D`.
    fn storage_3d(&mut self, target: GLenum, internal: GLenum, size: [i32; 3]);
    /// `glGetTexImage` into `out`.
    fn tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        ty: GLenum,
        out: &mut [u8],
    );
    /// `glGetIntegeri_v` of one value.
    fn integer_index(&mut self, target: GLenum, index: GLuint) -> GLint;
    /// `glGetBooleani_v` of one value.
    fn boolean_index(&mut self, target: GLenum, index: GLuint) -> GLboolean;
    /// `glGetTexParameteriv` of one value.
    fn tex_param(&mut self, target: GLenum, pname: GLenum) -> GLint;
    /// `glGetUniformiv` of one value.
    fn uniform_int(&mut self, program: GLuint, location: GLint) -> GLint;
    /// `glDeleteTextures` of one texture.
    fn delete_texture(&mut self, texture: GLuint);
}

impl ImageGl for Context {
    fn bind_image(
        &mut self,
        unit: GLuint,
        texture: GLuint,
        level: GLint,
        layered: bool,
        layer: GLint,
        access: GLenum,
        format: GLenum,
    ) {
        self.bind_image_texture(
            unit,
            texture,
            level,
            layered as GLboolean,
            layer,
            access,
            format,
        )
    }
    fn storage_2d(&mut self, target: GLenum, levels: GLsizei, internal: GLenum, w: i32, h: i32) {
        Context::tex_storage_2d(self, target, levels, internal, w, h)
    }
    fn storage_3d(&mut self, target: GLenum, internal: GLenum, [w, h, d]: [i32; 3]) {
        Context::tex_storage_3d(self, target, 1, internal, w, h, d)
    }
    fn tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        ty: GLenum,
        out: &mut [u8],
    ) {
        Context::get_tex_image(self, target, level, format, ty, PixelsMut::Bytes(out))
    }
    fn integer_index(&mut self, target: GLenum, index: GLuint) -> GLint {
        let mut v = [0];
        self.get_integeri_v(target, index, &mut v);
        v[0]
    }
    fn boolean_index(&mut self, target: GLenum, index: GLuint) -> GLboolean {
        let mut v = [0];
        self.get_booleani_v(target, index, &mut v);
        v[0]
    }
    fn tex_param(&mut self, target: GLenum, pname: GLenum) -> GLint {
        let mut v = [0];
        self.get_tex_parameteriv(target, pname, &mut v);
        v[0]
    }
    fn uniform_int(&mut self, program: GLuint, location: GLint) -> GLint {
        let mut v = [0; 16];
        self.get_uniformiv(program, location, &mut v);
        v[0]
    }
    fn delete_texture(&mut self, texture: GLuint) {
        self.delete_textures(1, &[texture])
    }
}

/// Calls the native entry point `$name` of C signature `$ty` with `$args` (the native
/// context is current on this thread: `NativeGl` is not `Send`).
macro_rules! native {
    ($gl:expr, $name:literal, $ty:ty, $($args:expr),*) => {{
        let f: $ty = $gl.entry_point($name).expect($name);
        // SAFETY: the pointer is the driver's `$name` with its exact C signature `$ty`, called
        // while the context is current; every argument is by value or a pointer valid for
        // what the call reads or writes.
        unsafe { f($($args),*) }
    }};
}

impl ImageGl for NativeGl {
    fn bind_image(
        &mut self,
        unit: GLuint,
        texture: GLuint,
        level: GLint,
        layered: bool,
        layer: GLint,
        access: GLenum,
        format: GLenum,
    ) {
        type F = unsafe extern "system" fn(GLuint, GLuint, GLint, GLboolean, GLint, GLenum, GLenum);
        let layered = layered as GLboolean;
        native!(
            self,
            "glBindImageTexture",
            F,
            unit,
            texture,
            level,
            layered,
            layer,
            access,
            format
        )
    }
    fn storage_2d(&mut self, target: GLenum, levels: GLsizei, internal: GLenum, w: i32, h: i32) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei);
        native!(self, "glTexStorage2D", F, target, levels, internal, w, h)
    }
    fn storage_3d(&mut self, target: GLenum, internal: GLenum, [w, h, d]: [i32; 3]) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei, GLsizei);
        native!(self, "glTexStorage3D", F, target, 1, internal, w, h, d)
    }
    fn tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        ty: GLenum,
        out: &mut [u8],
    ) {
        type F = unsafe extern "system" fn(GLenum, GLint, GLenum, GLenum, *mut std::ffi::c_void);
        let p = out.as_mut_ptr().cast();
        native!(self, "glGetTexImage", F, target, level, format, ty, p)
    }
    fn integer_index(&mut self, target: GLenum, index: GLuint) -> GLint {
        NativeGl::get_integer_index(self, target, index)
    }
    fn boolean_index(&mut self, target: GLenum, index: GLuint) -> GLboolean {
        type F = unsafe extern "system" fn(GLenum, GLuint, *mut GLboolean);
        let mut v = 0;
        let p: *mut GLboolean = &mut v;
        native!(self, "glGetBooleani_v", F, target, index, p);
        v
    }
    fn tex_param(&mut self, target: GLenum, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLenum, *mut GLint);
        let mut v = 0;
        let p: *mut GLint = &mut v;
        native!(self, "glGetTexParameteriv", F, target, pname, p);
        v
    }
    fn uniform_int(&mut self, program: GLuint, location: GLint) -> GLint {
        type F = unsafe extern "system" fn(GLuint, GLint, *mut GLint);
        let mut v = [0; 16];
        let p = v.as_mut_ptr();
        native!(self, "glGetUniformiv", F, program, location, p);
        v[0]
    }
    fn delete_texture(&mut self, texture: GLuint) {
        type F = unsafe extern "system" fn(GLsizei, *const GLuint);
        let p: *const GLuint = &texture;
        native!(self, "glDeleteTextures", F, 1, p)
    }
}

fn shader(gl: &mut dyn ImageGl, kind: GLenum, src: &str) -> GLuint {
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

pub(crate) fn program(gl: &mut dyn ImageGl, stages: &[(GLenum, &str)]) -> GLuint {
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

/// A horizontal three-texel box blur of an RGBA8 image into another (edges clamped). Every
/// source channel is a multiple of 3/255, so each average is exact.
const BLUR_CS: &str = "#version 430
layout(local_size_x = 4, local_size_y = 4) in;
layout(rgba8, binding = 0) readonly uniform image2D src;
layout(rgba8, binding = 1) writeonly uniform image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    int last = imageSize(src).x - 1;
    vec4 sum = imageLoad(src, ivec2(max(p.x - 1, 0), p.y)) + imageLoad(src, p)
        + imageLoad(src, ivec2(min(p.x + 1, last), p.y));
    imageStore(dst, p, sum / 3.0);
}
";

const QUAD_VS: &str = "#version 330
layout(location = 0) in vec2 position;
out vec2 uv;
void main() { uv = position * 0.5 + 0.5; gl_Position = vec4(position, 0.0, 1.0); }
";

const SAMPLE_FS: &str = "#version 330
in vec2 uv;
uniform sampler2D tex;
out vec4 frag;
void main() { frag = texture(tex, uv); }
";

/// A quad over the whole viewport in a vertex array of its own.
fn quad(gl: &mut dyn ImageGl) {
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

/// The blur's source texels: channels that are multiples of 3.
fn blur_source() -> Vec<u8> {
    (0..8 * 8 * 4)
        .map(|i: u32| ((i * 37 + i / 4 * 11) % 85 * 3) as u8)
        .collect()
}

/// Objects of the blur scene, kept across frames.
struct Blur {
    src: GLuint,
    dst: GLuint,
    compute: GLuint,
    draw: GLuint,
}

/// Blurs the source into the destination with a compute shader, then draws the
/// destination over the 16x16 framebuffer: the destination's texels and the pixels.
fn blur(gl: &mut dyn ImageGl, state: &mut Option<Blur>) -> (Vec<u8>, Vec<u8>) {
    let s = match state.take() {
        Some(s) => s,
        None => {
            let [src, dst] = [gl.gen_texture(), gl.gen_texture()];
            for t in [src, dst] {
                gl.bind_texture(TEXTURE_2D, t);
                gl.storage_2d(TEXTURE_2D, 1, RGBA8, 8, 8);
                gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
                gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
            }
            gl.bind_texture(TEXTURE_2D, src);
            gl.tex_sub_image_2d(
                TEXTURE_2D,
                0,
                0,
                0,
                8,
                8,
                RGBA,
                UNSIGNED_BYTE,
                &blur_source(),
            );
            let compute = program(gl, &[(COMPUTE_SHADER, BLUR_CS)]);
            let draw = program(
                gl,
                &[(VERTEX_SHADER, QUAD_VS), (FRAGMENT_SHADER, SAMPLE_FS)],
            );
            quad(gl);
            Blur {
                src,
                dst,
                compute,
                draw,
            }
        }
    };
    gl.viewport(0, 0, 16, 16);
    gl.bind_image(0, s.src, 0, false, 0, READ_ONLY, RGBA8);
    gl.bind_image(1, s.dst, 0, false, 0, WRITE_ONLY, RGBA8);
    gl.use_program(s.compute);
    gl.dispatch_compute(2, 2, 1);
    gl.memory_barrier(SHADER_IMAGE_ACCESS_BARRIER_BIT | TEXTURE_FETCH_BARRIER_BIT);
    gl.use_program(s.draw);
    gl.active_texture(TEXTURE0);
    gl.bind_texture(TEXTURE_2D, s.dst);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut pixels = vec![0u8; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut pixels);
    gl.memory_barrier(TEXTURE_UPDATE_BARRIER_BIT);
    let mut texels = vec![0u8; 8 * 8 * 4];
    gl.tex_image(TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, &mut texels);
    assert_eq!(gl.get_error(), NO_ERROR);
    *state = Some(s);
    (texels, pixels)
}

/// The blur computed here, for the scene's own check.
fn expected_blur() -> Vec<u8> {
    let src = blur_source();
    let at = |x: usize, y: usize, c: usize| u32::from(src[(y * 8 + x) * 4 + c]);
    let mut out = vec![0u8; 8 * 8 * 4];
    for y in 0..8 {
        for x in 0..8usize {
            for c in 0..4 {
                let sum = at(x.saturating_sub(1), y, c) + at(x, y, c) + at((x + 1).min(7), y, c);
                out[(y * 8 + x) * 4 + c] = (sum / 3) as u8;
            }
        }
    }
    out
}

/// Counts each 4x4 block's fragments in an R32UI image (GLSL 3.30 with the extension).
const COUNT_FS: &str = "#version 330
#extension GL_ARB_shader_image_load_store : require
layout(r32ui) coherent uniform uimage2D counts;
out vec4 frag;
void main() {
    uint before = imageAtomicAdd(counts, ivec2(gl_FragCoord.xy) / 4, 1u);
    frag = vec4(0.0, 1.0, float(before > 1000u), 1.0);
}
";

const COUNT_VS: &str = "#version 330
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

/// Two overlapping triangles counted per block; the counts and the pixels.
fn count_fragments(gl: &mut dyn ImageGl) -> (Vec<u32>, Vec<u8>) {
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    let counts = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, counts);
    gl.storage_2d(TEXTURE_2D, 1, R32UI, 4, 4);
    let seven = [7u32; 16]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect::<Vec<u8>>();
    gl.tex_sub_image_2d(TEXTURE_2D, 0, 0, 0, 4, 4, RED_INTEGER, UNSIGNED_INT, &seven);
    let p = program(
        gl,
        &[(VERTEX_SHADER, COUNT_VS), (FRAGMENT_SHADER, COUNT_FS)],
    );
    gl.use_program(p);
    // The unit from glUniform1i, as GL allows for image uniforms.
    let location = gl.get_uniform_location(p, "counts");
    gl.uniform1i(location, 3);
    gl.bind_image(3, counts, 0, false, 0, READ_WRITE, R32UI);
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
    gl.memory_barrier(TEXTURE_UPDATE_BARRIER_BIT);
    let mut out = vec![0u8; 16 * 4];
    gl.tex_image(TEXTURE_2D, 0, RED_INTEGER, UNSIGNED_INT, &mut out);
    let mut pixels = vec![0u8; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut pixels);
    assert_eq!(gl.get_error(), NO_ERROR);
    (words(&out), pixels)
}

/// Writes every layer of an RGBA32F 2D array through a layered binding.
const LAYERED_CS: &str = "#version 430
layout(local_size_x = 4, local_size_y = 4) in;
layout(rgba32f, binding = 2) writeonly uniform image2DArray layers;
void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    imageStore(layers, p, vec4(p, 0.5));
}
";

/// Writes one layer of it through a single-layer binding, seen as a 2D image. (It only
/// writes: GLSL ES refuses an RGBA32F image that is neither `readonly` nor `writeonly`, so
/// the GLES backend cannot run a shader that reads and writes one.)
const ONE_LAYER_CS: &str = "#version 430
layout(local_size_x = 2, local_size_y = 4) in;
layout(rgba32f, binding = 5) writeonly uniform image2D layer;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(layer, p, vec4(9.0, p.x, p.y * 10, float(imageSize(layer).x)));
}
";

/// The 4x4x3 array after a layered pass and a pass over layer 1 (the left half of it).
fn layers(gl: &mut dyn ImageGl) -> Vec<u32> {
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D_ARRAY, t);
    gl.storage_3d(TEXTURE_2D_ARRAY, RGBA32F, [4, 4, 3]);
    let layered = program(gl, &[(COMPUTE_SHADER, LAYERED_CS)]);
    let one = program(gl, &[(COMPUTE_SHADER, ONE_LAYER_CS)]);
    gl.bind_image(2, t, 0, true, 2, WRITE_ONLY, RGBA32F);
    gl.use_program(layered);
    gl.dispatch_compute(1, 1, 3);
    gl.memory_barrier(SHADER_IMAGE_ACCESS_BARRIER_BIT);
    gl.bind_image(5, t, 0, false, 1, WRITE_ONLY, RGBA32F);
    gl.use_program(one);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(TEXTURE_UPDATE_BARRIER_BIT);
    let mut out = vec![0u8; 4 * 4 * 3 * 16];
    gl.tex_image(TEXTURE_2D_ARRAY, 0, RGBA, FLOAT, &mut out);
    assert_eq!(gl.get_error(), NO_ERROR);
    words(&out)
}

/// Writes every slice of an RGBA32F 3D image through a layered binding.
const SLICES_CS: &str = "#version 430
layout(local_size_x = 4, local_size_y = 4) in;
layout(rgba32f, binding = 2) writeonly uniform image3D slices;
void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    imageStore(slices, p, vec4(p, 0.25));
}
";

/// Writes every face of every cube of an RGBA32F cube map array through a layered binding
/// (the third coordinate is the layer-face).
const CUBES_CS: &str = "#version 430
layout(local_size_x = 4, local_size_y = 4) in;
layout(rgba32f, binding = 2) writeonly uniform imageCubeArray cubes;
void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    imageStore(cubes, p, vec4(p, 0.75));
}
";

/// A 4x4 texture of `layers` layers (3D slices or cube-array layer-faces) after a layered
/// pass of `layered_cs` and [`ONE_LAYER_CS`] over layer `one` bound alone, as a 2D image.
fn layers_of(
    gl: &mut dyn ImageGl,
    target: GLenum,
    layers: i32,
    layered_cs: &str,
    one: i32,
) -> Vec<u32> {
    let t = gl.gen_texture();
    gl.bind_texture(target, t);
    gl.storage_3d(target, RGBA32F, [4, 4, layers]);
    let layered = program(gl, &[(COMPUTE_SHADER, layered_cs)]);
    let single = program(gl, &[(COMPUTE_SHADER, ONE_LAYER_CS)]);
    gl.bind_image(2, t, 0, true, 0, WRITE_ONLY, RGBA32F);
    gl.use_program(layered);
    gl.dispatch_compute(1, 1, layers as u32);
    gl.memory_barrier(SHADER_IMAGE_ACCESS_BARRIER_BIT);
    gl.bind_image(5, t, 0, false, one, WRITE_ONLY, RGBA32F);
    gl.use_program(single);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(TEXTURE_UPDATE_BARRIER_BIT);
    let mut out = vec![0u8; 4 * 4 * layers as usize * 16];
    gl.tex_image(target, 0, RGBA, FLOAT, &mut out);
    assert_eq!(gl.get_error(), NO_ERROR);
    words(&out)
}

/// Reads an RGBA8 texture's texels as R32UI words (a unit of another format of its size)
/// and writes them, swapped end for end, into an R32UI texture.
const REINTERPRET_CS: &str = "#version 430
layout(local_size_x = 4) in;
layout(r32ui, binding = 0) readonly uniform uimage2D texels;
layout(r32ui, binding = 1) writeonly uniform uimage2D words;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint w = imageLoad(texels, p).x;
    imageStore(words, ivec2(3 - p.x, p.y), uvec4((w << 16) | (w >> 16)));
}
";

/// The R32UI texture after the reinterpreting pass, and the RGBA8 one read back as bytes.
fn reinterpret(gl: &mut dyn ImageGl) -> (Vec<u32>, Vec<u8>) {
    let [packed, out] = [gl.gen_texture(), gl.gen_texture()];
    gl.bind_texture(TEXTURE_2D, packed);
    gl.storage_2d(TEXTURE_2D, 1, RGBA8, 4, 1);
    let bytes: Vec<u8> = (1..=16).collect();
    gl.tex_sub_image_2d(TEXTURE_2D, 0, 0, 0, 4, 1, RGBA, UNSIGNED_BYTE, &bytes);
    gl.bind_texture(TEXTURE_2D, out);
    gl.storage_2d(TEXTURE_2D, 1, R32UI, 4, 1);
    let p = program(gl, &[(COMPUTE_SHADER, REINTERPRET_CS)]);
    gl.bind_image(0, packed, 0, false, 0, READ_ONLY, R32UI);
    gl.bind_image(1, out, 0, false, 0, WRITE_ONLY, R32UI);
    gl.use_program(p);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(TEXTURE_UPDATE_BARRIER_BIT);
    let mut words_out = vec![0u8; 16];
    gl.tex_image(TEXTURE_2D, 0, RED_INTEGER, UNSIGNED_INT, &mut words_out);
    gl.bind_texture(TEXTURE_2D, packed);
    let mut packed_out = vec![0u8; 16];
    gl.tex_image(TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, &mut packed_out);
    assert_eq!(gl.get_error(), NO_ERROR);
    (words(&words_out), packed_out)
}

/// Reads one buffer texture's R32UI texels through an image and writes each, tripled plus
/// its index, into another's (`imageBuffer`).
const BUFFER_CS: &str = "#version 430
layout(local_size_x = 8) in;
layout(r32ui, binding = 1) readonly uniform uimageBuffer src;
layout(r32ui, binding = 2) writeonly uniform uimageBuffer dst;
void main() {
    int i = int(gl_GlobalInvocationID.x);
    uint v = imageLoad(src, i).x;
    imageStore(dst, i, uvec4(v * 3u + uint(i) + uint(imageSize(src)) * 1000u));
}
";

/// The destination buffer after the pass over two buffer textures of 16 texels.
fn buffer_images(gl: &mut dyn ImageGl) -> Vec<u32> {
    let input: Vec<u8> = (0..16u32).flat_map(|v| (v * v).to_le_bytes()).collect();
    let [a, b] = [gl.gen_buffer(), gl.gen_buffer()];
    gl.bind_buffer(TEXTURE_BUFFER, a);
    gl.buffer_data(TEXTURE_BUFFER, 64, Some(&input), STATIC_DRAW);
    gl.bind_buffer(TEXTURE_BUFFER, b);
    gl.buffer_data(TEXTURE_BUFFER, 64, Some(&[0; 64]), DYNAMIC_COPY);
    let [ta, tb] = [gl.gen_texture(), gl.gen_texture()];
    for (t, buffer) in [(ta, a), (tb, b)] {
        gl.bind_texture(TEXTURE_BUFFER, t);
        gl.tex_buffer(TEXTURE_BUFFER, R32UI, buffer);
    }
    let p = program(gl, &[(COMPUTE_SHADER, BUFFER_CS)]);
    gl.bind_image(1, ta, 0, false, 0, READ_ONLY, R32UI);
    gl.bind_image(2, tb, 0, false, 0, WRITE_ONLY, R32UI);
    gl.use_program(p);
    gl.dispatch_compute(2, 1, 1);
    gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
    gl.bind_buffer(TEXTURE_BUFFER, b);
    let mut out = vec![0u8; 64];
    gl.get_buffer_sub_data(TEXTURE_BUFFER, 0, &mut out);
    assert_eq!(gl.get_error(), NO_ERROR);
    words(&out)
}

/// A fragment program with an image array and an image, for the uniform queries.
const UNIFORMS_FS: &str = "#version 330
#extension GL_ARB_shader_image_load_store : require
layout(rgba8) readonly uniform image2D pair[2];
layout(r32i) uniform iimage2DArray stack;
out vec4 frag;
void main() {
    frag = imageLoad(pair[0], ivec2(0)) + imageLoad(pair[1], ivec2(1))
        + vec4(imageAtomicMax(stack, ivec3(0), 5));
}
";

/// `glBindImageTexture`'s errors in Mesa's order, the unit state, the limits, the texture's
/// compatibility type and the image uniforms' values and types, each step labelled.
fn transcript(gl: &mut dyn ImageGl) -> Vec<(String, Vec<i64>)> {
    let mut log: Vec<(String, Vec<i64>)> = Vec::new();
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D_ARRAY, t);
    gl.storage_3d(TEXTURE_2D_ARRAY, RGBA8, [4, 4, 2]);
    let mut max = [0];
    gl.get_integerv(MAX_IMAGE_UNITS, &mut max);
    let last = max[0] as u32 - 1;
    let calls: [(&str, GLuint, GLuint, GLint, GLint, GLenum, GLenum); 12] = [
        ("unit past the last", last + 1, t, 0, 0, READ_ONLY, RGBA8),
        (
            "unit past the last, bad access",
            last + 1,
            t,
            0,
            0,
            0,
            RGBA8,
        ),
        ("negative level", 0, t, -1, 0, READ_ONLY, RGBA8),
        ("negative layer", 0, t, 0, -1, READ_ONLY, RGBA8),
        ("bad access", 0, t, 0, 0, TEXTURE_2D, RGBA8),
        ("bad access and format", 0, t, 0, 0, 0, RGB8),
        ("RGB8", 0, t, 0, 0, READ_ONLY, RGB8),
        ("SRGB8_ALPHA8", 0, t, 0, 0, READ_ONLY, SRGB8_ALPHA8),
        ("no such texture", 0, 4321, 0, 0, READ_ONLY, RGBA8),
        ("format of another size", 1, t, 3, 7, WRITE_ONLY, RG16F),
        ("the last unit", last, t, 0, 1, READ_WRITE, R32UI),
        ("texture 0", 2, 0, 1, 0, READ_ONLY, R8),
    ];
    for (label, unit, texture, level, layer, access, format) in calls {
        gl.bind_image(unit, texture, level, true, layer, access, format);
        log.push((label.to_owned(), vec![i64::from(gl.get_error())]));
    }
    for unit in [0, 1, 2, last] {
        let mut state: Vec<i64> = [
            IMAGE_BINDING_NAME,
            IMAGE_BINDING_LEVEL,
            IMAGE_BINDING_LAYER,
            IMAGE_BINDING_ACCESS,
            IMAGE_BINDING_FORMAT,
        ]
        .iter()
        .map(|&p| i64::from(gl.integer_index(p, unit)))
        .collect();
        state.push(i64::from(gl.boolean_index(IMAGE_BINDING_LAYERED, unit)));
        state.push(i64::from(gl.get_error()));
        log.push((format!("unit {unit}"), state));
    }
    let past = gl.integer_index(IMAGE_BINDING_NAME, last + 1);
    log.push((
        "IMAGE_BINDING_NAME past the last unit".to_owned(),
        vec![i64::from(past), i64::from(gl.get_error())],
    ));
    let limits: Vec<i64> = [
        MAX_IMAGE_UNITS,
        MAX_COMBINED_IMAGE_UNITS_AND_FRAGMENT_OUTPUTS,
        MAX_VERTEX_IMAGE_UNIFORMS,
        MAX_GEOMETRY_IMAGE_UNIFORMS,
        MAX_FRAGMENT_IMAGE_UNIFORMS,
        MAX_COMPUTE_IMAGE_UNIFORMS,
        MAX_COMBINED_IMAGE_UNIFORMS,
    ]
    .iter()
    .map(|&p| {
        let mut v = [0];
        gl.get_integerv(p, &mut v);
        i64::from(v[0])
    })
    .collect::<Vec<i64>>();
    let mut limits = limits;
    limits.push(i64::from(gl.get_error()));
    log.push(("limits".to_owned(), limits));
    log.push((
        "IMAGE_FORMAT_COMPATIBILITY_TYPE".to_owned(),
        vec![
            i64::from(gl.tex_param(TEXTURE_2D_ARRAY, IMAGE_FORMAT_COMPATIBILITY_TYPE)),
            i64::from(gl.get_error()),
        ],
    ));
    // Image uniforms: types, initial units, glUniform1i and its errors.
    let p = program(
        gl,
        &[(VERTEX_SHADER, COUNT_VS), (FRAGMENT_SHADER, UNIFORMS_FS)],
    );
    let mut uniforms: Vec<(String, GLint, GLenum)> = (0..gl.get_programi(p, ACTIVE_UNIFORMS))
        .map(|i| gl.get_active_uniform(p, i as GLuint))
        .collect();
    uniforms.sort();
    for (name, size, ty) in uniforms {
        log.push((
            format!("uniform {name}"),
            vec![i64::from(size), i64::from(ty)],
        ));
    }
    gl.use_program(p);
    let pair1 = gl.get_uniform_location(p, "pair[1]");
    let stack = gl.get_uniform_location(p, "stack");
    let values = |gl: &mut dyn ImageGl| {
        vec![
            i64::from(gl.uniform_int(p, pair1)),
            i64::from(gl.uniform_int(p, stack)),
            i64::from(gl.get_error()),
        ]
    };
    log.push(("initial units".to_owned(), values(gl)));
    gl.uniform1i(pair1, 4);
    log.push(("glUniform1i 4".to_owned(), values(gl)));
    gl.uniform1i(stack, max[0]);
    log.push(("glUniform1i past the last unit".to_owned(), values(gl)));
    gl.uniform1f(stack, 1.0);
    log.push(("glUniform1f".to_owned(), values(gl)));
    gl.uniform1i(stack, -1);
    log.push(("glUniform1i -1".to_owned(), values(gl)));
    // Deleting the texture unbinds it from every unit of the context.
    gl.delete_texture(t);
    let mut names: Vec<i64> = [0, 1, last]
        .iter()
        .map(|&u| i64::from(gl.integer_index(IMAGE_BINDING_NAME, u)))
        .collect();
    names.push(i64::from(gl.integer_index(IMAGE_BINDING_FORMAT, 1)));
    names.push(i64::from(gl.get_error()));
    log.push(("after glDeleteTextures".to_owned(), names));
    log
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
pub(crate) fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn ImageGl) -> T) {
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
}

#[test]
fn a_compute_blur_drawn_through_a_barrier_matches_the_native_driver() {
    compare(|gl| {
        let mut state = None;
        let (texels, pixels) = blur(gl, &mut state);
        assert_eq!(texels, expected_blur());
        // Each texel covers 2x2 pixels.
        assert_eq!(&pixels[..4], &texels[..4]);
        assert_eq!(&pixels[8..12], &texels[4..8]);
        (texels, pixels)
    });
}

#[test]
fn fragments_counted_with_image_atomic_add_match_the_native_driver() {
    compare(|gl| {
        let (counts, pixels) = count_fragments(gl);
        // Block (1, 1) is covered by both triangles: 2 x 16 fragments on 7; block (0, 0)
        // by the large one only.
        assert_eq!((counts[0], counts[5]), (7 + 16, 7 + 32), "{counts:?}");
        (counts, pixels)
    });
}

#[test]
fn layered_and_single_layer_bindings_of_a_2d_array_match_the_native_driver() {
    compare(|gl| {
        let got = layers(gl);
        let texel = |x: usize, y: usize, l: usize| {
            let at = ((l * 4 + y) * 4 + x) * 4;
            got[at..at + 4]
                .iter()
                .map(|w| f32::from_bits(*w))
                .collect::<Vec<f32>>()
        };
        assert_eq!(texel(3, 2, 2), [3.0, 2.0, 2.0, 0.5]);
        assert_eq!(texel(1, 3, 1), [9.0, 1.0, 30.0, 4.0]);
        assert_eq!(texel(3, 3, 1), [3.0, 3.0, 1.0, 0.5]);
        got
    });
}

#[test]
fn slices_of_a_3d_image_and_layers_of_a_cube_map_array_match_the_native_driver() {
    compare(|gl| {
        let texel = |got: &[u32], x: usize, y: usize, l: usize| {
            let at = ((l * 4 + y) * 4 + x) * 4;
            got[at..at + 4]
                .iter()
                .map(|w| f32::from_bits(*w))
                .collect::<Vec<f32>>()
        };
        // Slice 2 of a 3D level bound alone is a 2D image of the level's width.
        let slices = layers_of(gl, TEXTURE_3D, 3, SLICES_CS, 2);
        assert_eq!(texel(&slices, 3, 2, 1), [3.0, 2.0, 1.0, 0.25]);
        assert_eq!(texel(&slices, 1, 3, 2), [9.0, 1.0, 30.0, 4.0]);
        assert_eq!(texel(&slices, 3, 3, 2), [3.0, 3.0, 2.0, 0.25]);
        // Layer-face 7 (face 1 of the second cube) of a two-cube array bound alone.
        let cubes = layers_of(gl, TEXTURE_CUBE_MAP_ARRAY, 12, CUBES_CS, 7);
        assert_eq!(texel(&cubes, 2, 1, 11), [2.0, 1.0, 11.0, 0.75]);
        assert_eq!(texel(&cubes, 1, 2, 7), [9.0, 1.0, 20.0, 4.0]);
        assert_eq!(texel(&cubes, 2, 0, 7), [2.0, 0.0, 7.0, 0.75]);
        (slices, cubes)
    });
}

#[test]
fn an_rgba8_texture_read_through_an_r32ui_unit_matches_the_native_driver() {
    compare(|gl| {
        let (words, bytes) = reinterpret(gl);
        assert_eq!(bytes, (1..=16).collect::<Vec<u8>>());
        assert_eq!(words[3], 0x0201_0403);
        (words, bytes)
    });
}

#[test]
fn buffer_images_match_the_native_driver() {
    compare(|gl| {
        let got = buffer_images(gl);
        assert_eq!(got[5], 25 * 3 + 5 + 16_000);
        got
    });
}

#[test]
fn image_unit_errors_state_and_limits_match_the_native_driver() {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL");
    let expected = transcript(&mut native);
    drop(native);
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 16, 16);
        let got = transcript(&mut ctx);
        tessera_tests::differential::assert_same_steps(backend.name(), &expected, &got, |v| {
            format!("{v:?}")
        });
        // No backend binds multisampled images yet: 0, where native llvmpipe has 4.
        let mut samples = [-1];
        ctx.get_integerv(MAX_IMAGE_SAMPLES, &mut samples);
        assert_eq!(samples, [0], "{}", backend.name());
        // Advertised where the backend carries all of it out (Caps::image_load_store):
        // Vulkan (lavapipe has VK_EXT_image_2d_view_of_3d) and GLES (llvmpipe has
        // GL_NV_image_formats and GL_EXT_texture_norm16; image_lowering.rs rewrites what
        // GLSL ES 3.10 refuses).
        let advertised: Vec<String> = (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
            .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
            .collect();
        let on = true;
        for name in ["GL_ARB_shader_image_load_store", "GL_ARB_shader_image_size"] {
            assert_eq!(
                advertised.iter().any(|e| e == name),
                on,
                "{name} on {}",
                backend.name()
            );
        }
    }
}

#[test]
fn steady_blur_frames_create_no_pipelines_on_the_vulkan_backend() {
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
    let first = blur(&mut ctx, &mut state);
    ctx.finish();
    let after_first = probe.stats();
    for _ in 0..5 {
        assert_eq!(blur(&mut ctx, &mut state), first);
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
fn image_records_cross_a_process_transport() {
    // A private server process (`fork`): `BindImage` and the program's image slots go
    // through the wire's validation of another process's bytes.
    let mut native = NativeGl::new(16, 16).expect("native desktop GL");
    let expected = (blur(&mut native, &mut None), layers(&mut native));
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
        let got = (blur(&mut ctx, &mut None), layers(&mut ctx));
        assert_eq!(got, expected, "{backend:?}");
        let events = ctx.take_events();
        assert!(events.is_empty(), "{backend:?}: {events:?}");
    }
}

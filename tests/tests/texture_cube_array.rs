//! Cube map array textures (`TEXTURE_CUBE_MAP_ARRAY`, GL 4.0's `ARB_texture_cube_map_array`)
//! against the native driver: the errors of image calls (depth not a multiple of six,
//! faces that are not square, 2D calls), the binding query, and draws sampling every face
//! of two cubes through `samplerCubeArray`, `isamplerCubeArray`, `usamplerCubeArray` (GLSL
//! 3.30 with the extension) and `samplerCubeArrayShadow`, after rendering into one layer and
//! generating mipmaps, immutable storage, views and copies, and where it is advertised, on both
//! backends (Vulkan with the validation layer on, which must report nothing). Values,
//! errors and pixels must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's GL 4.2/4.3 entry points, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
trait CubeGl: Gl {
    fn tex_storage_3d(&mut self, target: GLenum, levels: GLsizei, internal: GLenum, size: [i32; 3]);
    /// `glTextureView` of (min level, levels) and (min layer, layers).
    fn texture_view(
        &mut self,
        texture: GLuint,
        target: GLenum,
        orig: GLuint,
        levels: (GLuint, GLuint),
        layers: (GLuint, GLuint),
    );
    /// `glCopyTexSubImage3D` of a `w` x `h` rectangle at the read framebuffer's origin.
    fn copy_tex_sub_image_3d(&mut self, target: GLenum, at: [i32; 3], w: i32, h: i32);
    /// `glTexSubImage3D` of level 0 from the origin, RGBA8 texels from client memory.
    fn tex_sub_image_3d_rgba(&mut self, target: GLenum, size: [i32; 3], data: &[u8]);
}

impl CubeGl for Context {
    fn tex_storage_3d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internal: GLenum,
        [w, h, d]: [i32; 3],
    ) {
        Context::tex_storage_3d(self, target, levels, internal, w, h, d)
    }
    fn texture_view(
        &mut self,
        texture: GLuint,
        target: GLenum,
        orig: GLuint,
        (min_level, levels): (GLuint, GLuint),
        (min_layer, layers): (GLuint, GLuint),
    ) {
        Context::texture_view(
            self, texture, target, orig, RGBA8, min_level, levels, min_layer, layers,
        )
    }
    fn copy_tex_sub_image_3d(&mut self, target: GLenum, [x, y, z]: [i32; 3], w: i32, h: i32) {
        Context::copy_tex_sub_image_3d(self, target, 0, x, y, z, 0, 0, w, h)
    }
    fn tex_sub_image_3d_rgba(&mut self, target: GLenum, [w, h, d]: [i32; 3], data: &[u8]) {
        Context::tex_sub_image_3d(
            self,
            target,
            0,
            0,
            0,
            0,
            w,
            h,
            d,
            RGBA,
            UNSIGNED_BYTE,
            tessera_engine::pixel::Pixels::Bytes(data),
        )
    }
}

/// Calls the native entry point `$name` of C signature `$ty` with `$args` (the native
/// context is current on this thread).
macro_rules! native {
    ($gl:expr, $name:literal, $ty:ty, $($args:expr),*) => {{
        let f: $ty = $gl.entry_point($name).expect($name);
        // SAFETY: the pointer is the driver's `$name` with its exact C signature `$ty`, called
        // while the context is current; every argument is by value or a pointer valid for
        // what the call reads.
        unsafe { f($($args),*) }
    }};
}

impl CubeGl for NativeGl {
    fn tex_storage_3d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internal: GLenum,
        [w, h, d]: [i32; 3],
    ) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei, GLsizei);
        native!(self, "glTexStorage3D", F, target, levels, internal, w, h, d)
    }
    fn texture_view(
        &mut self,
        texture: GLuint,
        target: GLenum,
        orig: GLuint,
        (min_level, levels): (GLuint, GLuint),
        (min_layer, layers): (GLuint, GLuint),
    ) {
        type F = unsafe extern "system" fn(
            GLuint,
            GLenum,
            GLuint,
            GLenum,
            GLuint,
            GLuint,
            GLuint,
            GLuint,
        );
        native!(
            self,
            "glTextureView",
            F,
            texture,
            target,
            orig,
            RGBA8,
            min_level,
            levels,
            min_layer,
            layers
        )
    }
    fn copy_tex_sub_image_3d(&mut self, target: GLenum, [x, y, z]: [i32; 3], w: i32, h: i32) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLint,
            GLint,
            GLint,
            GLint,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
        );
        native!(
            self,
            "glCopyTexSubImage3D",
            F,
            target,
            0,
            x,
            y,
            z,
            0,
            0,
            w,
            h
        )
    }
    fn tex_sub_image_3d_rgba(&mut self, target: GLenum, [w, h, d]: [i32; 3], data: &[u8]) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLint,
            GLint,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
            GLsizei,
            GLenum,
            GLenum,
            *const std::ffi::c_void,
        );
        let p = data.as_ptr().cast();
        native!(
            self,
            "glTexSubImage3D",
            F,
            target,
            0,
            0,
            0,
            0,
            w,
            h,
            d,
            RGBA,
            UNSIGNED_BYTE,
            p
        )
    }
}

/// Runs `scene` on the native driver and on both backends, over the in-process and the
/// render-thread transports; each result must be the native one, with no backend event.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn CubeGl) -> T) {
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

/// A transcript line: what was done, and the values or error it gave.
type Line = (&'static str, Vec<GLint>);

fn err(gl: &mut dyn CubeGl, out: &mut Vec<Line>, what: &'static str) {
    let e = gl.get_error() as GLint;
    out.push((what, vec![e]));
}

fn integer(gl: &mut dyn CubeGl, pname: GLenum) -> GLint {
    let mut v = [0];
    gl.get_integerv(pname, &mut v);
    v[0]
}

/// Errors of the image calls on cube map arrays and the binding state, in call order.
fn transcript(gl: &mut dyn CubeGl) -> Vec<Line> {
    let mut out = Vec::new();
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_CUBE_MAP_ARRAY, t);
    err(gl, &mut out, "bind");
    out.push((
        "binding",
        vec![
            integer(gl, TEXTURE_BINDING_CUBE_MAP_ARRAY),
            integer(gl, TEXTURE_BINDING_2D_ARRAY),
        ],
    ));
    let tex = |gl: &mut dyn CubeGl, w, h, d| {
        gl.tex_image_3d(
            TEXTURE_CUBE_MAP_ARRAY,
            0,
            RGBA8 as i32,
            w,
            h,
            d,
            0,
            RGBA,
            UNSIGNED_BYTE,
            None,
        )
    };
    tex(gl, 4, 4, 5);
    err(gl, &mut out, "depth 5");
    tex(gl, 4, 8, 6);
    err(gl, &mut out, "not square");
    tex(gl, 4, 4, 0);
    err(gl, &mut out, "depth 0");
    tex(gl, 4, 4, 12);
    err(gl, &mut out, "two cubes");
    gl.tex_image_3d(
        TEXTURE_CUBE_MAP_ARRAY,
        1,
        RGBA8 as i32,
        2,
        2,
        9,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    err(gl, &mut out, "level 1 depth 9");
    gl.tex_image_2d(
        TEXTURE_CUBE_MAP_ARRAY,
        0,
        RGBA8 as i32,
        4,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    err(gl, &mut out, "2D image");
    gl.generate_mipmap(TEXTURE_CUBE_MAP_ARRAY);
    err(gl, &mut out, "mipmaps");
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_layer(FRAMEBUFFER, COLOR_ATTACHMENT0, t, 0, 11);
    err(gl, &mut out, "attach layer 11");
    out.push((
        "status",
        vec![gl.check_framebuffer_status(FRAMEBUFFER) as GLint],
    ));
    gl.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT0, t, 1);
    err(gl, &mut out, "attach layered");
    out.push((
        "layered status",
        vec![gl.check_framebuffer_status(FRAMEBUFFER) as GLint],
    ));
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    gl.bind_texture(TEXTURE_2D, t);
    err(gl, &mut out, "bind as 2D");
    out
}

const VS: &str = "#version 400 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

/// The direction and cube of a 4 x 4 cell of the 16 x 16 frame: cells 0..12 read face
/// `cell % 6` of cube `cell / 6`, the others cube 1 with `lod`.
const PICK: &str = "
const vec3 dirs[6] = vec3[6](vec3(1, 0.2, -0.1), vec3(-1, -0.3, 0.2), vec3(0.1, 1, 0.3),
    vec3(-0.2, -1, 0.1), vec3(0.3, -0.1, 1), vec3(0.2, 0.1, -1));
int cell() { ivec2 c = ivec2(gl_FragCoord.xy) / 4; return c.y * 4 + c.x; }
vec4 coord() { int n = cell() % 12; return vec4(dirs[n % 6], float(n / 6)); }
";

fn fs(head: &str, body: &str) -> String {
    format!("#version 400 core\n{head}\n{PICK}\nout vec4 color;\nvoid main() {{ {body} }}\n")
}

/// A vertex array holding a quad covering the viewport (a triangle strip).
fn quad(gl: &mut dyn CubeGl) {
    tessera_tests::scenes::viewport_quad(gl);
}

fn draw_and_read(gl: &mut dyn CubeGl) -> Vec<u8> {
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut px = vec![0; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut px);
    px
}

/// `n` solid 4 x 4 layers of `bytes`-sized texels, layer `z` of `texel(z)`.
fn layers(n: usize, texel: impl Fn(usize) -> Vec<u8>) -> Vec<u8> {
    (0..n).flat_map(|z| texel(z).repeat(16)).collect()
}

fn nearest(gl: &mut dyn CubeGl, target: GLenum, min: GLenum) {
    gl.tex_parameteri(target, TEXTURE_MIN_FILTER, min as i32);
    gl.tex_parameteri(target, TEXTURE_MAG_FILTER, NEAREST as i32);
}

/// Draws sampling two cubes of solid faces: as floats, after rendering into layer 7 and
/// after generating mipmaps (level 2 read by `textureLod`), as signed and unsigned integers,
/// and as depths compared with 0.5. Returns the frames and the error at the end.
fn sampled(gl: &mut dyn CubeGl) -> (Vec<Vec<u8>>, GLenum) {
    quad(gl);
    let mut frames = Vec::new();
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_CUBE_MAP_ARRAY, t);
    let data = layers(12, |z| {
        vec![20 * z as u8, 255 - 20 * z as u8, 40 + 10 * z as u8, 255]
    });
    gl.tex_image_3d(
        TEXTURE_CUBE_MAP_ARRAY,
        0,
        RGBA8 as i32,
        4,
        4,
        12,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&data),
    );
    nearest(gl, TEXTURE_CUBE_MAP_ARRAY, NEAREST);
    let p = link_program(
        gl,
        VS,
        &fs(
            "uniform samplerCubeArray tex;",
            "color = texture(tex, coord());",
        ),
    );
    gl.use_program(p);
    frames.push(draw_and_read(gl));

    // Layer 7 (face 1 of cube 1) cleared through a framebuffer.
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_layer(FRAMEBUFFER, COLOR_ATTACHMENT0, t, 0, 7);
    gl.viewport(0, 0, 4, 4);
    gl.clear_color(1.0, 0.0, 1.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    frames.push(draw_and_read(gl));

    gl.generate_mipmap(TEXTURE_CUBE_MAP_ARRAY);
    nearest(gl, TEXTURE_CUBE_MAP_ARRAY, NEAREST_MIPMAP_NEAREST);
    let lod = link_program(
        gl,
        VS,
        &fs(
            "uniform samplerCubeArray tex;",
            "color = textureLod(tex, coord(), 2.0);",
        ),
    );
    gl.use_program(lod);
    frames.push(draw_and_read(gl));

    let it = gl.gen_texture();
    gl.bind_texture(TEXTURE_CUBE_MAP_ARRAY, it);
    let ints = layers(12, |z| {
        [z as i32 - 6, 3 * z as i32, -100, 7]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect()
    });
    gl.tex_image_3d(
        TEXTURE_CUBE_MAP_ARRAY,
        0,
        RGBA32I as i32,
        4,
        4,
        12,
        0,
        RGBA_INTEGER,
        INT,
        Some(&ints),
    );
    nearest(gl, TEXTURE_CUBE_MAP_ARRAY, NEAREST);
    let pi = link_program(
        gl,
        VS,
        &fs(
            "uniform isamplerCubeArray tex;",
            "ivec4 v = texture(tex, coord()); color = vec4(v + ivec4(8, 1, 110, 0)) / 40.0;",
        ),
    );
    gl.use_program(pi);
    frames.push(draw_and_read(gl));

    // The same texels as unsigned integers, read by GLSL 3.30 with the extension.
    let ut = gl.gen_texture();
    gl.bind_texture(TEXTURE_CUBE_MAP_ARRAY, ut);
    gl.tex_image_3d(
        TEXTURE_CUBE_MAP_ARRAY,
        0,
        RGBA32UI as i32,
        4,
        4,
        12,
        0,
        RGBA_INTEGER,
        UNSIGNED_INT,
        Some(&ints),
    );
    nearest(gl, TEXTURE_CUBE_MAP_ARRAY, NEAREST);
    let fs330 = fs(
        "uniform usamplerCubeArray tex;",
        "uvec4 v = texture(tex, coord()); color = vec4(v & 255u) / 255.0;",
    )
    .replace(
        "#version 400 core",
        "#version 330 core\n#extension GL_ARB_texture_cube_map_array : require",
    );
    let pu = link_program(gl, VS, &fs330);
    gl.use_program(pu);
    frames.push(draw_and_read(gl));

    let dt = gl.gen_texture();
    gl.bind_texture(TEXTURE_CUBE_MAP_ARRAY, dt);
    let depths = layers(12, |z| (z as f32 / 11.0).to_le_bytes().to_vec());
    gl.tex_image_3d(
        TEXTURE_CUBE_MAP_ARRAY,
        0,
        DEPTH_COMPONENT32F as i32,
        4,
        4,
        12,
        0,
        DEPTH_COMPONENT,
        FLOAT,
        Some(&depths),
    );
    nearest(gl, TEXTURE_CUBE_MAP_ARRAY, NEAREST);
    gl.tex_parameteri(
        TEXTURE_CUBE_MAP_ARRAY,
        TEXTURE_COMPARE_MODE,
        COMPARE_REF_TO_TEXTURE as i32,
    );
    gl.tex_parameteri(TEXTURE_CUBE_MAP_ARRAY, TEXTURE_COMPARE_FUNC, LESS as i32);
    let ps = link_program(
        gl,
        VS,
        &fs(
            "uniform samplerCubeArrayShadow tex;",
            "color = vec4(texture(tex, coord(), 0.5), 0.25, 0.5, 1.0);",
        ),
    );
    gl.use_program(ps);
    frames.push(draw_and_read(gl));
    (frames, gl.get_error())
}

/// Immutable cube arrays and views: `glTexStorage3D`'s errors, views of a 2D array as a cube
/// array and of a cube array as a cube map (and their errors), a layer copied from the
/// framebuffer with `glCopyTexSubImage3D`; the frames sample the views and the copy. (The
/// copy reads a framebuffer object: on Vulkan a copy from the default framebuffer converts
/// its sRGB texels to linear, into 2D arrays as well, which native llvmpipe does not.)
fn viewed(gl: &mut dyn CubeGl) -> (Vec<Line>, Vec<Vec<u8>>) {
    let mut out = Vec::new();
    let mut frames = Vec::new();
    quad(gl);
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_CUBE_MAP_ARRAY, t);
    gl.tex_storage_3d(TEXTURE_CUBE_MAP_ARRAY, 3, RGBA8, [4, 4, 8]);
    err(gl, &mut out, "storage depth 8");
    gl.tex_storage_3d(TEXTURE_CUBE_MAP_ARRAY, 3, RGBA8, [4, 2, 6]);
    err(gl, &mut out, "storage not square");
    gl.tex_storage_3d(TEXTURE_CUBE_MAP_ARRAY, 4, RGBA8, [4, 4, 6]);
    err(gl, &mut out, "storage 4 levels");
    gl.tex_storage_3d(TEXTURE_CUBE_MAP_ARRAY, 3, RGBA8, [4, 4, 12]);
    err(gl, &mut out, "storage");

    let array = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D_ARRAY, array);
    gl.tex_storage_3d(TEXTURE_2D_ARRAY, 1, RGBA8, [4, 4, 13]);
    let data = layers(13, |z| vec![19 * z as u8, 100, 255 - 19 * z as u8, 255]);
    gl.tex_sub_image_3d_rgba(TEXTURE_2D_ARRAY, [4, 4, 13], &data);
    let v = gl.gen_texture();
    gl.texture_view(v, TEXTURE_CUBE_MAP_ARRAY, array, (0, 1), (1, 7));
    err(gl, &mut out, "view of 7 layers");
    gl.texture_view(v, TEXTURE_CUBE_MAP_ARRAY, array, (0, 1), (1, 12));
    err(gl, &mut out, "cube array view");
    gl.bind_texture(TEXTURE_CUBE_MAP_ARRAY, v);
    nearest(gl, TEXTURE_CUBE_MAP_ARRAY, NEAREST);
    let p = link_program(
        gl,
        VS,
        &fs(
            "uniform samplerCubeArray tex;",
            "color = texture(tex, coord());",
        ),
    );
    gl.use_program(p);
    frames.push(draw_and_read(gl));

    // A cube of the cube array view, and the view as a 2D array read layer by layer.
    let cube = gl.gen_texture();
    gl.texture_view(cube, TEXTURE_CUBE_MAP, v, (0, 1), (6, 6));
    err(gl, &mut out, "cube view");
    gl.bind_texture(TEXTURE_CUBE_MAP, cube);
    nearest(gl, TEXTURE_CUBE_MAP, NEAREST);
    let pc = link_program(
        gl,
        VS,
        &fs(
            "uniform samplerCube tex;",
            "color = texture(tex, coord().xyz);",
        ),
    );
    gl.use_program(pc);
    frames.push(draw_and_read(gl));

    // Layer 9 (cube 1, face 3) of a mutable cube array from the frame.
    let m = gl.gen_texture();
    gl.bind_texture(TEXTURE_CUBE_MAP_ARRAY, m);
    let data = layers(12, |z| vec![10 * z as u8, 200, 30, 255]);
    gl.tex_image_3d(
        TEXTURE_CUBE_MAP_ARRAY,
        0,
        RGBA8 as i32,
        4,
        4,
        12,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&data),
    );
    nearest(gl, TEXTURE_CUBE_MAP_ARRAY, NEAREST);
    let src = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, src);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as i32,
        4,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, src, 0);
    gl.viewport(0, 0, 4, 4);
    gl.clear_color(0.25, 0.5, 0.75, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.copy_tex_sub_image_3d(TEXTURE_CUBE_MAP_ARRAY, [0, 0, 9], 4, 4);
    err(gl, &mut out, "copy");
    gl.use_program(p);
    frames.push(draw_and_read(gl));
    out.push(("binding", vec![integer(gl, TEXTURE_BINDING_CUBE_MAP_ARRAY)]));
    err(gl, &mut out, "end");
    (out, frames)
}

#[test]
fn cube_map_array_views_storage_and_copies_match_the_native_driver() {
    compare(|gl| {
        let (lines, frames) = viewed(gl);
        assert_ne!(frames[0], frames[2], "the copied layer");
        (lines, frames)
    });
}

#[test]
fn cube_map_array_errors_and_state_match_the_native_driver() {
    compare(transcript);
}

#[test]
fn draws_sampling_cube_map_arrays_match_the_native_driver() {
    compare(|gl| {
        let (frames, error) = sampled(gl);
        assert_eq!(error, NO_ERROR);
        assert_ne!(frames[0], frames[1], "layer 7 rendered");
        assert_ne!(frames[3], frames[4]);
        assert_ne!(frames[3], frames[5]);
        (frames, error)
    });
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

/// `GL_ARB_texture_cube_map_array` is advertised where the backend has cube map arrays: GLES
/// (ES 3.2 here) and Vulkan (`imageCubeArray`). On a GLES backend told to use ES 3.0 it is
/// not, and the target is an unknown enum to `glBindTexture`.
#[test]
fn cube_map_arrays_are_advertised_only_where_the_backend_has_them() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 4, 4);
        let names = advertised(&mut ctx);
        assert!(
            names.iter().any(|e| e == "GL_ARB_texture_cube_map_array"),
            "{}: {names:?}",
            backend.name()
        );
    }
    let mut ctx = tessera_es30(4, 4);
    assert!(
        !advertised(&mut ctx)
            .iter()
            .any(|e| e == "GL_ARB_texture_cube_map_array")
    );
    let t = Gl::gen_texture(&mut ctx);
    Gl::bind_texture(&mut ctx, TEXTURE_CUBE_MAP_ARRAY, t);
    assert_eq!(ctx.get_error(), INVALID_ENUM);
}

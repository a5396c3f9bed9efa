//! Stencil-only textures (`ARB_texture_stencil8`, GL 4.4) against the native driver on both
//! backends (Vulkan with the validation layer on, which must report nothing): a transcript
//! of `STENCIL_INDEX8` (and the other stencil-only internal formats) through `glTexImage*`,
//! `glTexStorage*`, multisample storage and texture views with Mesa's errors, the level
//! queries and internal-format answers; an image uploaded whole and in part, sampled through
//! `usampler2D` and read back with `glGetTexImage`; and a texture attached as a
//! framebuffer's `STENCIL_ATTACHMENT`, written by stencil operations, tested against, then
//! sampled and read back. Values, pixels and errors must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's storage, view, level-query and read-back entry points, called through their C signatures"
)]

use std::ffi::c_void;

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::{Pixels, PixelsMut};
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls the shared [`Gl`] table has no entry for.
trait Stencil8Gl: Gl {
    /// `glTexStorage2D`.
    fn storage_2d(&mut self, target: GLenum, levels: i32, internal: GLenum, w: i32, h: i32);
    /// `glTexStorage3D`.
    fn storage_3d(&mut self, target: GLenum, levels: i32, internal: GLenum, size: [i32; 3]);
    /// `glTexStorage2DMultisample` (fixed sample locations).
    fn storage_2d_ms(&mut self, target: GLenum, samples: i32, internal: GLenum, w: i32, h: i32);
    /// `glTextureView` of level 0 and layer 0.
    fn view(&mut self, view: GLuint, target: GLenum, orig: GLuint, internal: GLenum);
    /// `glGetTexLevelParameteriv` of one value (-7 where nothing was written).
    fn level_value(&mut self, target: GLenum, pname: GLenum) -> GLint;
    /// `glGetInternalformativ` of one value (-7 where nothing was written).
    fn format_value(&mut self, target: GLenum, internal: GLenum, pname: GLenum) -> GLint;
    /// `glGetTexImage` of level 0 into `out`.
    fn get_image(&mut self, target: GLenum, f: GLenum, ty: GLenum, out: &mut [u8]);
    /// `glTexImage3D`.
    fn image_3d(&mut self, target: GLenum, internal: GLenum, size: [i32; 3], f: GLenum, ty: GLenum);
    /// Whether `glGetStringi(EXTENSIONS, i)` lists `name`.
    fn advertises(&mut self, name: &str) -> bool;
}

impl Stencil8Gl for Context {
    fn storage_2d(&mut self, target: GLenum, levels: i32, internal: GLenum, w: i32, h: i32) {
        Context::tex_storage_2d(self, target, levels, internal, w, h)
    }
    fn storage_3d(&mut self, target: GLenum, levels: i32, internal: GLenum, size: [i32; 3]) {
        Context::tex_storage_3d(self, target, levels, internal, size[0], size[1], size[2])
    }
    fn storage_2d_ms(&mut self, target: GLenum, samples: i32, internal: GLenum, w: i32, h: i32) {
        Context::tex_storage_2d_multisample(
            self,
            target,
            samples,
            internal,
            w,
            h,
            TRUE as GLboolean,
        )
    }
    fn view(&mut self, view: GLuint, target: GLenum, orig: GLuint, internal: GLenum) {
        Context::texture_view(self, view, target, orig, internal, 0, 1, 0, 1)
    }
    fn level_value(&mut self, target: GLenum, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_tex_level_parameteriv(self, target, 0, pname, &mut v);
        v[0]
    }
    fn format_value(&mut self, target: GLenum, internal: GLenum, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_internalformativ(self, target, internal, pname, 1, &mut v);
        v[0]
    }
    fn get_image(&mut self, target: GLenum, f: GLenum, ty: GLenum, out: &mut [u8]) {
        Context::get_tex_image(self, target, 0, f, ty, PixelsMut::Bytes(out))
    }
    fn image_3d(
        &mut self,
        target: GLenum,
        internal: GLenum,
        size: [i32; 3],
        f: GLenum,
        ty: GLenum,
    ) {
        let [w, h, d] = size;
        let i = internal as GLint;
        Context::tex_image_3d(self, target, 0, i, w, h, d, 0, f, ty, Pixels::None)
    }
    fn advertises(&mut self, name: &str) -> bool {
        let mut n = [0];
        Context::get_integerv(self, NUM_EXTENSIONS, &mut n);
        (0..n[0].max(0) as GLuint).any(|i| self.get_stringi(EXTENSIONS, i).as_deref() == Some(name))
    }
}

/// Calls the native entry point `$name` of C signature `$ty` with `$args`.
macro_rules! native {
    ($gl:expr, $name:literal, $ty:ty, $($args:expr),*) => {{
        let f: $ty = $gl.entry_point($name).expect($name);
        // SAFETY: the pointer is the driver's `$name` with its exact C signature `$ty`, called
        // while the context is current; every pointer is null or valid for what the call
        // reads or writes (one value for the getters; the read-back's buffer holds the level).
        unsafe { f($($args),*) }
    }};
}

impl Stencil8Gl for NativeGl {
    fn storage_2d(&mut self, target: GLenum, levels: i32, internal: GLenum, w: i32, h: i32) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei);
        native!(self, "glTexStorage2D", F, target, levels, internal, w, h)
    }
    fn storage_3d(&mut self, target: GLenum, levels: i32, internal: GLenum, size: [i32; 3]) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei, GLsizei);
        let [w, h, d] = size;
        native!(self, "glTexStorage3D", F, target, levels, internal, w, h, d)
    }
    fn storage_2d_ms(&mut self, target: GLenum, samples: i32, internal: GLenum, w: i32, h: i32) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei, GLboolean);
        native!(
            self,
            "glTexStorage2DMultisample",
            F,
            target,
            samples,
            internal,
            w,
            h,
            TRUE as GLboolean
        )
    }
    fn view(&mut self, view: GLuint, target: GLenum, orig: GLuint, internal: GLenum) {
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
            view,
            target,
            orig,
            internal,
            0,
            1,
            0,
            1
        )
    }
    fn level_value(&mut self, target: GLenum, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLint, GLenum, *mut GLint);
        let mut v = -7;
        native!(
            self,
            "glGetTexLevelParameteriv",
            F,
            target,
            0,
            pname,
            &mut v
        );
        v
    }
    fn format_value(&mut self, target: GLenum, internal: GLenum, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLenum, GLenum, GLsizei, *mut GLint);
        let mut v = -7;
        native!(
            self,
            "glGetInternalformativ",
            F,
            target,
            internal,
            pname,
            1,
            &mut v
        );
        v
    }
    fn get_image(&mut self, target: GLenum, f: GLenum, ty: GLenum, out: &mut [u8]) {
        type F = unsafe extern "system" fn(GLenum, GLint, GLenum, GLenum, *mut c_void);
        native!(
            self,
            "glGetTexImage",
            F,
            target,
            0,
            f,
            ty,
            out.as_mut_ptr().cast()
        )
    }
    fn image_3d(
        &mut self,
        target: GLenum,
        internal: GLenum,
        size: [i32; 3],
        f: GLenum,
        ty: GLenum,
    ) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
            GLsizei,
            GLint,
            GLenum,
            GLenum,
            *const c_void,
        );
        let [w, h, d] = size;
        let i = internal as GLint;
        native!(
            self,
            "glTexImage3D",
            F,
            target,
            0,
            i,
            w,
            h,
            d,
            0,
            f,
            ty,
            std::ptr::null()
        )
    }
    fn advertises(&mut self, name: &str) -> bool {
        self.extensions().iter().any(|e| e == name)
    }
}

const SIZE: i32 = 8;

/// Runs `scene` natively and on both backends (inproc and thread), which must match; returns
/// the native result.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn Stencil8Gl) -> T) -> T {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = scene(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    expected
}

/// What was done, the error, and the values read after it.
type Line = (&'static str, GLenum, Vec<GLint>);

/// The level queries of a texture's level 0 that tell its storage.
const LEVEL_PNAMES: [GLenum; 6] = [
    TEXTURE_INTERNAL_FORMAT,
    TEXTURE_WIDTH,
    TEXTURE_STENCIL_SIZE,
    TEXTURE_DEPTH_SIZE,
    TEXTURE_RED_SIZE,
    TEXTURE_SAMPLES,
];

/// The internal-format answers about stencil-only formats.
const FORMAT_PNAMES: [GLenum; 9] = [
    INTERNALFORMAT_SUPPORTED,
    INTERNALFORMAT_PREFERRED,
    INTERNALFORMAT_STENCIL_SIZE,
    INTERNALFORMAT_STENCIL_TYPE,
    STENCIL_RENDERABLE,
    FRAMEBUFFER_RENDERABLE,
    TEXTURE_IMAGE_FORMAT,
    TEXTURE_IMAGE_TYPE,
    GET_TEXTURE_IMAGE_FORMAT,
];

fn transcript(gl: &mut dyn Stencil8Gl) -> (bool, Vec<Line>) {
    let advertised = gl.advertises("GL_ARB_texture_stencil8");
    let mut out: Vec<Line> = Vec::new();
    // Each step on a texture of its own, bound to `target`; then the level queries.
    let mut step = |gl: &mut dyn Stencil8Gl,
                    what: &'static str,
                    target: GLenum,
                    f: &dyn Fn(&mut dyn Stencil8Gl)| {
        let t = gl.gen_texture();
        gl.bind_texture(target, t);
        f(gl);
        let e = gl.get_error();
        let query = match target {
            TEXTURE_CUBE_MAP => TEXTURE_CUBE_MAP_POSITIVE_X,
            t => t,
        };
        let values = LEVEL_PNAMES
            .iter()
            .map(|&p| gl.level_value(query, p))
            .collect();
        assert_eq!(gl.get_error(), NO_ERROR, "{what}: the queries");
        out.push((what, e, values));
        t
    };
    let (d2, s8) = (TEXTURE_2D, STENCIL_INDEX8);
    let bytes = [9u8; 64];
    let image = |internal: GLenum, f: GLenum, ty: GLenum| {
        move |gl: &mut dyn Stencil8Gl| {
            let i = internal as GLint;
            gl.tex_image_2d(TEXTURE_2D, 0, i, 4, 4, 0, f, ty, Some(&bytes))
        }
    };
    step(gl, "2D", d2, &image(s8, STENCIL_INDEX, UNSIGNED_BYTE));
    step(gl, "2D from floats", d2, &image(s8, STENCIL_INDEX, FLOAT));
    step(
        gl,
        "STENCIL_INDEX",
        d2,
        &image(STENCIL_INDEX, STENCIL_INDEX, UNSIGNED_BYTE),
    );
    step(gl, "depth data", d2, &image(s8, DEPTH_COMPONENT, FLOAT));
    step(
        gl,
        "integer data",
        d2,
        &image(s8, RED_INTEGER, UNSIGNED_BYTE),
    );
    step(gl, "colour data", d2, &image(s8, RGBA, UNSIGNED_BYTE));
    step(
        gl,
        "depth-stencil data",
        d2,
        &image(s8, DEPTH_STENCIL, UNSIGNED_INT_24_8),
    );
    step(
        gl,
        "stencil into RGBA8",
        d2,
        &image(RGBA8, STENCIL_INDEX, UNSIGNED_BYTE),
    );
    step(
        gl,
        "stencil into depth",
        d2,
        &image(DEPTH_COMPONENT24, STENCIL_INDEX, UNSIGNED_BYTE),
    );
    step(
        gl,
        "stencil into depth-stencil",
        d2,
        &image(DEPTH24_STENCIL8, STENCIL_INDEX, UNSIGNED_BYTE),
    );
    step(
        gl,
        "bad type",
        d2,
        &image(s8, STENCIL_INDEX, UNSIGNED_INT_24_8),
    );
    let none = |target: GLenum, internal: GLenum, size: [i32; 3]| {
        move |gl: &mut dyn Stencil8Gl| {
            gl.image_3d(target, internal, size, STENCIL_INDEX, UNSIGNED_BYTE)
        }
    };
    step(gl, "3D", TEXTURE_3D, &none(TEXTURE_3D, s8, [4, 4, 2]));
    step(
        gl,
        "2D array",
        TEXTURE_2D_ARRAY,
        &none(TEXTURE_2D_ARRAY, s8, [4, 4, 2]),
    );
    step(gl, "cube map face", TEXTURE_CUBE_MAP, &|gl| {
        let f = TEXTURE_CUBE_MAP_POSITIVE_X;
        gl.tex_image_2d(f, 0, s8 as i32, 4, 4, 0, STENCIL_INDEX, UNSIGNED_BYTE, None)
    });
    step(gl, "1D", TEXTURE_1D, &|gl| {
        gl.tex_image_1d(
            TEXTURE_1D,
            0,
            s8 as i32,
            4,
            0,
            STENCIL_INDEX,
            UNSIGNED_BYTE,
            None,
        )
    });
    step(gl, "storage", d2, &|gl| gl.storage_2d(d2, 3, s8, 4, 4));
    step(gl, "unsized storage", d2, &|gl| {
        gl.storage_2d(d2, 1, STENCIL_INDEX, 4, 4)
    });
    step(gl, "3D storage", TEXTURE_3D, &|gl| {
        gl.storage_3d(TEXTURE_3D, 1, s8, [4, 4, 2])
    });
    step(gl, "array storage", TEXTURE_2D_ARRAY, &|gl| {
        gl.storage_3d(TEXTURE_2D_ARRAY, 1, s8, [4, 4, 3])
    });
    let ms = TEXTURE_2D_MULTISAMPLE;
    step(gl, "multisample storage", ms, &|gl| {
        gl.storage_2d_ms(ms, 4, s8, 4, 4)
    });
    step(gl, "multisample image", ms, &|gl| {
        gl.tex_image_2d_multisample(ms, 4, s8 as i32, 4, 4, TRUE as GLboolean)
    });
    step(gl, "STENCIL_INDEX16 storage", d2, &|gl| {
        gl.storage_2d(d2, 1, STENCIL_INDEX16, 4, 4)
    });
    // Views: a stencil-only format is in no view class, so only its own name views it.
    let orig = step(gl, "view storage", d2, &|gl| gl.storage_2d(d2, 1, s8, 4, 4));
    step(gl, "view", d2, &|gl| {
        let v = gl.gen_texture();
        gl.view(v, d2, orig, s8);
        gl.bind_texture(d2, v)
    });
    step(gl, "view as R8UI", d2, &|gl| {
        let v = gl.gen_texture();
        gl.view(v, d2, orig, R8UI)
    });
    // Read-backs in each client format.
    let read = |f: GLenum, ty: GLenum| {
        move |gl: &mut dyn Stencil8Gl| {
            image(s8, STENCIL_INDEX, UNSIGNED_BYTE)(gl);
            let mut texels = [0u8; 64];
            gl.get_image(d2, f, ty, &mut texels);
        }
    };
    step(
        gl,
        "read as STENCIL_INDEX",
        d2,
        &read(STENCIL_INDEX, UNSIGNED_BYTE),
    );
    step(
        gl,
        "read as DEPTH_COMPONENT",
        d2,
        &read(DEPTH_COMPONENT, FLOAT),
    );
    step(
        gl,
        "read as DEPTH_STENCIL",
        d2,
        &read(DEPTH_STENCIL, UNSIGNED_INT_24_8),
    );
    step(gl, "read as RED", d2, &read(RED, UNSIGNED_BYTE));
    step(
        gl,
        "read as RED_INTEGER",
        d2,
        &read(RED_INTEGER, UNSIGNED_BYTE),
    );
    for target in [TEXTURE_2D, TEXTURE_2D_MULTISAMPLE, TEXTURE_3D] {
        let values = FORMAT_PNAMES
            .iter()
            .map(|&p| gl.format_value(target, s8, p))
            .collect();
        out.push(("internal format", gl.get_error(), values));
    }
    (advertised, out)
}

#[test]
fn stencil_index8_errors_and_queries_match_the_native_driver() {
    let (advertised, lines) = compare(transcript);
    assert!(advertised);
    let find = |what: &str| {
        lines
            .iter()
            .find(|l| l.0 == what)
            .unwrap_or_else(|| panic!("{what}"))
            .clone()
    };
    let s8 = STENCIL_INDEX8 as i32;
    assert_eq!(find("2D"), ("2D", NO_ERROR, vec![s8, 4, 8, 0, 0, 0]));
    assert_eq!(find("depth data").1, INVALID_OPERATION);
    assert_eq!(find("storage").1, NO_ERROR);
    assert_eq!(find("read as STENCIL_INDEX").1, NO_ERROR);
}

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

/// The stencil texel under the fragment but for its alpha, which is only told apart from 0
/// (an incomplete texture's 1 reads as 1 on Tessera's Vulkan backend and as the bits of 1.0
/// on Mesa, whose incomplete texture is a float one), or a constant colour where
/// `flat_colour` is set.
const FS: &str = "#version 330
uniform usampler2D stencil;
uniform bool flat_colour;
out uvec4 color;
void main() {
    uvec4 s = texture(stencil, gl_FragCoord.xy / 8.0);
    color = flat_colour ? uvec4(200u, 100u, 50u, 1u) : uvec4(s.rgb, s.a == 0u ? 0u : 1u);
}
";

fn build_program(gl: &mut dyn Stencil8Gl) -> GLuint {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)] {
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
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "{}",
        gl.program_info_log(p)
    );
    p
}

/// A program, a full-screen quad and an `RGBA32UI` colour renderbuffer of `SIZE` squared.
struct Scene {
    program: GLuint,
    colour: GLuint,
}

fn scene(gl: &mut dyn Stencil8Gl) -> Scene {
    let program = build_program(gl);
    gl.use_program(program);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let quad: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    gl.buffer_data(ARRAY_BUFFER, quad.len(), Some(&quad), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let colour = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, colour);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA32UI, SIZE, SIZE);
    gl.viewport(0, 0, SIZE, SIZE);
    Scene { program, colour }
}

/// Draws the quad into a framebuffer of `scene`'s colour renderbuffer (the stencil
/// texture's texels where `flat` is false) and reads the words back.
fn frame(gl: &mut dyn Stencil8Gl, scene: &Scene, flat: bool) -> Vec<u32> {
    let loc = gl.get_uniform_location(scene.program, "flat_colour");
    gl.uniform1i(loc, i32::from(flat));
    gl.clear_bufferuiv(COLOR, 0, &[7, 7, 7, 7]);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut out = vec![0u8; (SIZE * SIZE * 16) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA_INTEGER, UNSIGNED_INT, &mut out);
    out.chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

fn colour_framebuffer(gl: &mut dyn Stencil8Gl, scene: &Scene) -> GLuint {
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, scene.colour);
    fb
}

/// A `STENCIL_INDEX8` image whose texel (x, y) is `x * 29 + y * 3`, uploaded whole, then a
/// 3x2 box at (2, 5) replaced from floats (300.0 among them); frames sampling it (NEAREST,
/// then incomplete with a LINEAR filter) and its read-back. (Read back as `FLOAT`, Mesa 22
/// writes each row's stencil bytes at the start of the row's floats, which is not compared.)
fn uploaded(gl: &mut dyn Stencil8Gl) -> (Vec<Vec<u32>>, Vec<u8>) {
    let s = scene(gl);
    let data: Vec<u8> = (0..64u32)
        .map(|i| ((i % 8) * 29 + (i / 8) * 3) as u8)
        .collect();
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    let i = STENCIL_INDEX8 as i32;
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        i,
        SIZE,
        SIZE,
        0,
        STENCIL_INDEX,
        UNSIGNED_BYTE,
        Some(&data),
    );
    let floats: Vec<u8> = [1.0f32, 2.0, 250.0, 17.0, 300.0, 0.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.tex_sub_image_2d(TEXTURE_2D, 0, 2, 5, 3, 2, STENCIL_INDEX, FLOAT, &floats);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
    colour_framebuffer(gl, &s);
    let sampled = frame(gl, &s, false);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, LINEAR as i32);
    let incomplete = frame(gl, &s, false);
    let mut bytes = vec![0u8; 64];
    gl.get_image(TEXTURE_2D, STENCIL_INDEX, UNSIGNED_BYTE, &mut bytes);
    assert_eq!(gl.get_error(), NO_ERROR);
    (vec![sampled, incomplete], bytes)
}

#[test]
fn stencil_index8_uploads_sample_and_read_back() {
    let (frames, bytes) = compare(uploaded);
    // Texel (3, 2): 93; (2, 5) replaced by 1.
    let at = (2 * 8 + 3) * 4;
    assert_eq!(frames[0][at..at + 4], [93, 0, 0, 1]);
    assert_eq!(frames[1][at..at + 4], [0, 0, 0, 1], "incomplete");
    assert_eq!(bytes[2 * 8 + 3], 93);
    assert_eq!(bytes[5 * 8 + 2], 1);
    // 300.0 keeps its low 8 bits.
    assert_eq!(bytes[6 * 8 + 3], 44);
}

/// A `STENCIL_INDEX8` texture (storage) as a framebuffer's stencil attachment: cleared to 3,
/// the left half replaced by 5 through the stencil operations, the right half's texels
/// incremented; then a flat colour drawn where the stencil equals 5, and the texture
/// sampled and read back.
fn rendered(gl: &mut dyn Stencil8Gl) -> (GLenum, Vec<Vec<u32>>, Vec<u8>) {
    let s = scene(gl);
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    gl.storage_2d(TEXTURE_2D, 1, STENCIL_INDEX8, SIZE, SIZE);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
    // Unbound while attached: a texture bound for sampling and attached to the framebuffer
    // drawn into makes a feedback loop (GL 4.6 §9.3.1).
    gl.bind_texture(TEXTURE_2D, 0);
    let fb = colour_framebuffer(gl, &s);
    gl.framebuffer_texture_2d(FRAMEBUFFER, STENCIL_ATTACHMENT, TEXTURE_2D, t, 0);
    let status = gl.check_framebuffer_status(FRAMEBUFFER);
    gl.clear_stencil(3);
    gl.clear(STENCIL_BUFFER_BIT);
    gl.enable(STENCIL_TEST);
    gl.enable(SCISSOR_TEST);
    gl.scissor(0, 0, SIZE / 2, SIZE);
    gl.stencil_func(ALWAYS, 5, 0xff);
    gl.stencil_op(KEEP, KEEP, REPLACE);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.scissor(SIZE / 2, 0, SIZE / 2, SIZE);
    gl.stencil_op(KEEP, KEEP, INCR);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.disable(SCISSOR_TEST);
    gl.stencil_func(EQUAL, 5, 0xff);
    gl.stencil_op(KEEP, KEEP, KEEP);
    let tested = frame(gl, &s, true);
    gl.disable(STENCIL_TEST);
    // Sampled from a framebuffer without it.
    gl.framebuffer_texture_2d(FRAMEBUFFER, STENCIL_ATTACHMENT, TEXTURE_2D, 0, 0);
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.bind_texture(TEXTURE_2D, t);
    let sampled = frame(gl, &s, false);
    let mut bytes = vec![0u8; 64];
    gl.get_image(TEXTURE_2D, STENCIL_INDEX, UNSIGNED_BYTE, &mut bytes);
    assert_eq!(gl.get_error(), NO_ERROR);
    (status, vec![tested, sampled], bytes)
}

#[test]
fn stencil_index8_attachments_take_stencil_tests_and_writes() {
    let (status, frames, bytes) = compare(rendered);
    assert_eq!(status, FRAMEBUFFER_COMPLETE);
    // Left half: 5, drawn on; right half: 4, not drawn on.
    assert_eq!(frames[0][(8 + 1) * 4..(8 + 1) * 4 + 4], [200, 100, 50, 1]);
    assert_eq!(frames[0][(8 + 6) * 4..(8 + 6) * 4 + 4], [7, 7, 7, 7]);
    assert_eq!(frames[1][(8 + 1) * 4], 5);
    assert_eq!(frames[1][(8 + 6) * 4], 4);
    assert_eq!((bytes[8 + 1], bytes[8 + 6]), (5, 4));
}

//! Texture views (`glTextureView`, GL 4.3's `ARB_texture_view`) against the native driver:
//! every error and the `TEXTURE_VIEW_*`/immutable state of views, views of views and of
//! deleted textures; draws sampling a view of a level and layer range of a 2D array, views
//! in another format of the class (RGBA8 texels as R32UI and as SRGB8_ALPHA8), a cube map
//! viewed as a 2D array, rendering into views (one of another format) then reading the
//! original, and a view that outlives its original, on both backends (Vulkan with the
//! validation layer on, which must report nothing). Values, errors and pixels must be
//! exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's GL 4.2/4.3 entry points, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::{Pixels, PixelsMut};
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
trait ViewGl: Gl {
    fn tex_storage_2d(&mut self, target: GLenum, levels: GLsizei, internal: GLenum, w: i32, h: i32);
    fn tex_storage_3d(&mut self, target: GLenum, levels: GLsizei, internal: GLenum, size: [i32; 3]);
    /// `glTextureView` of (min level, levels) and (min layer, layers).
    fn texture_view(
        &mut self,
        texture: GLuint,
        target: GLenum,
        orig: GLuint,
        internal: GLenum,
        levels: (GLuint, GLuint),
        layers: (GLuint, GLuint),
    );
    /// `glGetTexParameteriv` of one value.
    fn tex_param(&mut self, target: GLenum, pname: GLenum) -> GLint;
    /// `glGetTexLevelParameteriv` of one value.
    fn level_param(&mut self, target: GLenum, level: GLint, pname: GLenum) -> GLint;
    /// `glTexSubImage3D` of RGBA8 texels from client memory.
    fn tex_sub_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        at: [i32; 3],
        size: [i32; 3],
        data: &[u8],
    );
    /// `glDeleteTextures` of one name.
    fn delete_texture(&mut self, texture: GLuint);
    fn tex_storage_1d(&mut self, levels: GLsizei, internal: GLenum, w: i32);
    /// `glTexSubImage1D` of RED/UNSIGNED_BYTE texels from client memory.
    fn tex_sub_image_1d_red(&mut self, level: GLint, data: &[u8]);
    /// `glGetTexImage` into `out`.
    fn get_tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        ty: GLenum,
        out: &mut [u8],
    );
}

impl ViewGl for Context {
    fn tex_storage_2d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internal: GLenum,
        w: i32,
        h: i32,
    ) {
        Context::tex_storage_2d(self, target, levels, internal, w, h)
    }
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
        internal: GLenum,
        (min_level, levels): (GLuint, GLuint),
        (min_layer, layers): (GLuint, GLuint),
    ) {
        Context::texture_view(
            self, texture, target, orig, internal, min_level, levels, min_layer, layers,
        )
    }
    fn tex_param(&mut self, target: GLenum, pname: GLenum) -> GLint {
        let mut v = [0];
        self.get_tex_parameteriv(target, pname, &mut v);
        v[0]
    }
    fn level_param(&mut self, target: GLenum, level: GLint, pname: GLenum) -> GLint {
        let mut v = [0];
        self.get_tex_level_parameteriv(target, level, pname, &mut v);
        v[0]
    }
    fn tex_sub_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        [x, y, z]: [i32; 3],
        [w, h, d]: [i32; 3],
        data: &[u8],
    ) {
        Context::tex_sub_image_3d(
            self,
            target,
            level,
            x,
            y,
            z,
            w,
            h,
            d,
            RGBA,
            UNSIGNED_BYTE,
            Pixels::Bytes(data),
        )
    }
    fn delete_texture(&mut self, texture: GLuint) {
        self.delete_textures(1, &[texture])
    }
    fn tex_storage_1d(&mut self, levels: GLsizei, internal: GLenum, w: i32) {
        Context::tex_storage_1d(self, TEXTURE_1D, levels, internal, w)
    }
    fn tex_sub_image_1d_red(&mut self, level: GLint, data: &[u8]) {
        let w = data.len() as GLsizei;
        Context::tex_sub_image_1d(
            self,
            TEXTURE_1D,
            level,
            0,
            w,
            RED,
            UNSIGNED_BYTE,
            Pixels::Bytes(data),
        )
    }
    fn get_tex_image(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        ty: GLenum,
        out: &mut [u8],
    ) {
        Context::get_tex_image(self, target, level, format, ty, PixelsMut::Bytes(out))
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

impl ViewGl for NativeGl {
    fn tex_storage_2d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internal: GLenum,
        w: i32,
        h: i32,
    ) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei);
        native!(self, "glTexStorage2D", F, target, levels, internal, w, h)
    }
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
        internal: GLenum,
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
            internal,
            min_level,
            levels,
            min_layer,
            layers
        )
    }
    fn tex_param(&mut self, target: GLenum, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLenum, *mut GLint);
        let mut v = 0;
        native!(self, "glGetTexParameteriv", F, target, pname, &mut v);
        v
    }
    fn level_param(&mut self, target: GLenum, level: GLint, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLint, GLenum, *mut GLint);
        let mut v = 0;
        native!(
            self,
            "glGetTexLevelParameteriv",
            F,
            target,
            level,
            pname,
            &mut v
        );
        v
    }
    fn tex_sub_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        [x, y, z]: [i32; 3],
        [w, h, d]: [i32; 3],
        data: &[u8],
    ) {
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
            level,
            x,
            y,
            z,
            w,
            h,
            d,
            RGBA,
            UNSIGNED_BYTE,
            p
        )
    }
    fn delete_texture(&mut self, texture: GLuint) {
        type F = unsafe extern "system" fn(GLsizei, *const GLuint);
        native!(self, "glDeleteTextures", F, 1, &texture)
    }
    fn tex_storage_1d(&mut self, levels: GLsizei, internal: GLenum, w: i32) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei);
        native!(self, "glTexStorage1D", F, TEXTURE_1D, levels, internal, w)
    }
    fn tex_sub_image_1d_red(&mut self, level: GLint, data: &[u8]) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLint,
            GLint,
            GLsizei,
            GLenum,
            GLenum,
            *const std::ffi::c_void,
        );
        let (w, p) = (data.len() as GLsizei, data.as_ptr().cast());
        native!(
            self,
            "glTexSubImage1D",
            F,
            TEXTURE_1D,
            level,
            0,
            w,
            RED,
            UNSIGNED_BYTE,
            p
        )
    }
    fn get_tex_image(
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
}

/// Runs `scene` on the native driver and on both backends, over the in-process and the
/// render-thread transports; each result must be the native one, with no backend event
/// (no validation message on Vulkan).
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn ViewGl) -> T) {
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

/// A `glTextureView` call: what it tests, texture, target, origtexture, format, and
/// (min level, levels) and (min layer, layers).
type ViewCall = (
    &'static str,
    GLuint,
    GLenum,
    GLuint,
    GLenum,
    (u32, u32),
    (u32, u32),
);

/// A transcript line: what was done, and the values or error it gave.
type Line = (&'static str, Vec<GLint>);

/// Appends the error state after a call.
fn err(gl: &mut dyn ViewGl, out: &mut Vec<Line>, what: &'static str) {
    let e = gl.get_error() as GLint;
    out.push((what, vec![e]));
}

/// The view and immutable state of the texture bound to `target`, and the sizes and format
/// of its levels `0..levels` (`image` names the image target of level queries).
fn state(gl: &mut dyn ViewGl, target: GLenum, image: GLenum, levels: GLint) -> Vec<GLint> {
    let mut v: Vec<GLint> = [
        TEXTURE_VIEW_MIN_LEVEL,
        TEXTURE_VIEW_NUM_LEVELS,
        TEXTURE_VIEW_MIN_LAYER,
        TEXTURE_VIEW_NUM_LAYERS,
        TEXTURE_IMMUTABLE_LEVELS,
        TEXTURE_IMMUTABLE_FORMAT,
        TEXTURE_BASE_LEVEL,
        TEXTURE_MAX_LEVEL,
    ]
    .into_iter()
    .map(|p| gl.tex_param(target, p))
    .collect();
    for level in 0..levels {
        for pname in [
            TEXTURE_WIDTH,
            TEXTURE_HEIGHT,
            TEXTURE_DEPTH,
            TEXTURE_INTERNAL_FORMAT,
        ] {
            v.push(gl.level_param(image, level, pname));
        }
    }
    v.push(gl.get_error() as GLint);
    v
}

/// A new texture bound to `target`.
fn bound(gl: &mut dyn ViewGl, target: GLenum) -> GLuint {
    let t = gl.gen_texture();
    gl.bind_texture(target, t);
    t
}

/// Every error of `glTextureView` in the order the driver checks them, and the state of
/// originals, views, views of views and a view whose original was deleted.
fn view_transcript(gl: &mut dyn ViewGl) -> Vec<Line> {
    let mut out = Vec::new();
    let array = bound(gl, TEXTURE_2D_ARRAY);
    gl.tex_storage_3d(TEXTURE_2D_ARRAY, 4, RGBA8, [16, 16, 6]);
    out.push(("array", state(gl, TEXTURE_2D_ARRAY, TEXTURE_2D_ARRAY, 4)));
    let mutable = bound(gl, TEXTURE_2D);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as i32,
        8,
        8,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    out.push(("mutable", state(gl, TEXTURE_2D, TEXTURE_2D, 1)));
    let flat = bound(gl, TEXTURE_2D);
    gl.tex_storage_2d(TEXTURE_2D, 2, RGBA8, 8, 4);
    let unbound = gl.gen_texture();
    let v = gl.gen_texture();
    let whole = (0, 100);
    let errors: [ViewCall; 15] = [
        ("texture 0", 0, TEXTURE_2D_ARRAY, array, RGBA8, whole, whole),
        (
            "texture never generated",
            9999,
            TEXTURE_2D_ARRAY,
            array,
            RGBA8,
            whole,
            whole,
        ),
        (
            "texture bound before",
            flat,
            TEXTURE_2D_ARRAY,
            array,
            RGBA8,
            whole,
            whole,
        ),
        ("origtexture 0", v, TEXTURE_2D_ARRAY, 0, RGBA8, whole, whole),
        (
            "origtexture never generated",
            v,
            TEXTURE_2D_ARRAY,
            8888,
            RGBA8,
            whole,
            whole,
        ),
        (
            "origtexture without object",
            v,
            TEXTURE_2D,
            unbound,
            RGBA8,
            whole,
            (0, 1),
        ),
        (
            "origtexture mutable",
            v,
            TEXTURE_2D,
            mutable,
            RGBA8,
            whole,
            (0, 1),
        ),
        ("array as 3D", v, TEXTURE_3D, array, RGBA8, whole, whole),
        (
            "2D as cube map",
            v,
            TEXTURE_CUBE_MAP,
            flat,
            RGBA8,
            whole,
            (0, 6),
        ),
        (
            "min level past the levels",
            v,
            TEXTURE_2D_ARRAY,
            array,
            RGBA8,
            (4, 1),
            whole,
        ),
        (
            "min layer past the layers",
            v,
            TEXTURE_2D_ARRAY,
            array,
            RGBA8,
            whole,
            (6, 1),
        ),
        (
            "unsized format",
            v,
            TEXTURE_2D_ARRAY,
            array,
            RGBA,
            whole,
            whole,
        ),
        (
            "format of another class",
            v,
            TEXTURE_2D_ARRAY,
            array,
            RGBA16F,
            whole,
            whole,
        ),
        (
            "2D of two layers",
            v,
            TEXTURE_2D,
            array,
            RGBA8,
            whole,
            (0, 2),
        ),
        (
            "cube map of five layers",
            v,
            TEXTURE_CUBE_MAP,
            array,
            RGBA8,
            whole,
            (1, 6),
        ),
    ];
    for (what, texture, target, orig, internal, levels, layers) in errors {
        gl.texture_view(texture, target, orig, internal, levels, layers);
        err(gl, &mut out, what);
    }
    let wide = bound(gl, TEXTURE_2D_ARRAY);
    gl.tex_storage_3d(TEXTURE_2D_ARRAY, 1, RGBA8, [8, 4, 6]);
    gl.texture_view(v, TEXTURE_CUBE_MAP, wide, RGBA8, whole, (0, 6));
    err(gl, &mut out, "cube map of oblong layers");

    // A view of levels 1..3 and layers 2..5, in R32UI.
    gl.texture_view(v, TEXTURE_2D_ARRAY, array, R32UI, (1, 2), (2, 3));
    err(gl, &mut out, "array view");
    gl.bind_texture(TEXTURE_2D_ARRAY, v);
    out.push((
        "array view",
        state(gl, TEXTURE_2D_ARRAY, TEXTURE_2D_ARRAY, 3),
    ));
    gl.bind_texture(TEXTURE_2D, v);
    err(gl, &mut out, "bind the view to another target");
    gl.tex_storage_3d(TEXTURE_2D_ARRAY, 1, RGBA8, [4, 4, 1]);
    err(gl, &mut out, "storage for the view");
    gl.tex_parameteri(TEXTURE_2D_ARRAY, TEXTURE_BASE_LEVEL, 7);
    gl.tex_parameteri(TEXTURE_2D_ARRAY, TEXTURE_MAX_LEVEL, 9);
    out.push((
        "view levels clamped",
        state(gl, TEXTURE_2D_ARRAY, TEXTURE_2D_ARRAY, 0),
    ));
    gl.texture_view(v, TEXTURE_2D_ARRAY, array, RGBA8, whole, whole);
    err(gl, &mut out, "view made twice");

    // A view of the view: level 1 and layer 1 of it, as 2D.
    let vv = gl.gen_texture();
    gl.texture_view(vv, TEXTURE_2D, v, RGBA8UI, (1, 5), (1, 1));
    err(gl, &mut out, "view of a view");
    gl.bind_texture(TEXTURE_2D, vv);
    out.push(("view of a view", state(gl, TEXTURE_2D, TEXTURE_2D, 2)));

    // Six layers as a cube map, and the cube map as a 2D array of its last faces.
    let cube = gl.gen_texture();
    gl.texture_view(cube, TEXTURE_CUBE_MAP, array, SRGB8_ALPHA8, (2, 2), (0, 6));
    err(gl, &mut out, "cube map view");
    gl.bind_texture(TEXTURE_CUBE_MAP, cube);
    out.push((
        "cube map view",
        state(gl, TEXTURE_CUBE_MAP, TEXTURE_CUBE_MAP_NEGATIVE_Z, 2),
    ));
    let faces = gl.gen_texture();
    gl.texture_view(faces, TEXTURE_2D_ARRAY, cube, RGBA8, whole, (4, 9));
    err(gl, &mut out, "faces view");
    gl.bind_texture(TEXTURE_2D_ARRAY, faces);
    out.push((
        "faces view",
        state(gl, TEXTURE_2D_ARRAY, TEXTURE_2D_ARRAY, 2),
    ));

    // The original deleted: its views keep the storage and their state.
    gl.delete_texture(array);
    err(gl, &mut out, "delete the original");
    gl.bind_texture(TEXTURE_2D_ARRAY, v);
    out.push((
        "view after delete",
        state(gl, TEXTURE_2D_ARRAY, TEXTURE_2D_ARRAY, 2),
    ));
    let late = gl.gen_texture();
    gl.texture_view(late, TEXTURE_2D, v, RGBA8, (0, 1), (2, 1));
    err(gl, &mut out, "view of a view of a deleted texture");
    gl.bind_texture(TEXTURE_2D, late);
    out.push(("late view", state(gl, TEXTURE_2D, TEXTURE_2D, 1)));
    out
}

const VS: &str = "#version 330 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

const FS_ARRAY: &str = "#version 330 core
uniform sampler2DArray tex;
uniform float layer;
out vec4 color;
void main() { color = texture(tex, vec3(gl_FragCoord.xy / 16.0, layer)); }
";

const FS_2D: &str = "#version 330 core
uniform sampler2D tex;
out vec4 color;
void main() { color = texture(tex, gl_FragCoord.xy / 16.0); }
";

/// The R32UI texels of a view as the bytes of an RGBA8 colour: little-endian, so the
/// frame holds the original's bytes.
const FS_UINT: &str = "#version 330 core
uniform usampler2D tex;
out vec4 color;
void main() {
    uint v = texture(tex, gl_FragCoord.xy / 16.0).r;
    color = vec4(uvec4(v, v >> 8u, v >> 16u, v >> 24u) & 255u) / 255.0;
}
";

/// A vertex array holding a quad covering the viewport (a triangle strip).
fn quad(gl: &mut dyn ViewGl) {
    tessera_tests::scenes::viewport_quad(gl);
}

/// `w` x `h` RGBA8 texels, each of its position and `tag`.
fn texels(w: usize, h: usize, tag: u8) -> Vec<u8> {
    (0..w * h)
        .flat_map(|i| {
            [
                ((i % w) as u8).wrapping_mul(16).wrapping_add(tag),
                ((i / w) as u8).wrapping_mul(16),
                tag,
                255 - tag / 2,
            ]
        })
        .collect()
}

/// Draws the quad into the default framebuffer and reads the frame.
fn draw_and_read(gl: &mut dyn ViewGl) -> Vec<u8> {
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut px = vec![0; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut px);
    px
}

/// Nearest filtering, no mipmaps, for the texture bound to `target`.
fn nearest(gl: &mut dyn ViewGl, target: GLenum) {
    gl.tex_parameteri(target, TEXTURE_MIN_FILTER, NEAREST as i32);
    gl.tex_parameteri(target, TEXTURE_MAG_FILTER, NEAREST as i32);
}

/// An immutable 2D array of `levels` levels of `size`, every level and layer filled with
/// texels tagged by both.
fn filled_array(gl: &mut dyn ViewGl, levels: i32, [w, h, d]: [i32; 3]) -> GLuint {
    let t = bound(gl, TEXTURE_2D_ARRAY);
    gl.tex_storage_3d(TEXTURE_2D_ARRAY, levels, RGBA8, [w, h, d]);
    for level in 0..levels {
        let (lw, lh) = ((w >> level).max(1), (h >> level).max(1));
        for z in 0..d {
            let data = texels(lw as usize, lh as usize, (40 * level + 10 * z) as u8);
            gl.tex_sub_image_3d(TEXTURE_2D_ARRAY, level, [0, 0, z], [lw, lh, 1], &data);
        }
    }
    t
}

/// Draws sampling views: a 2D array view of levels 1..3 and layers 1..3 of a 2D array (its
/// layers, then its base level 1), a 2D view of one layer, the same texels as R32UI and as
/// SRGB8_ALPHA8, and the view again after its original was deleted. Returns the frames
/// and the error at the end.
fn sampled(gl: &mut dyn ViewGl) -> (Vec<Vec<u8>>, GLenum) {
    quad(gl);
    let mut frames = Vec::new();
    let array = filled_array(gl, 3, [16, 16, 4]);
    let view = gl.gen_texture();
    gl.texture_view(view, TEXTURE_2D_ARRAY, array, RGBA8, (1, 2), (1, 2));
    gl.bind_texture(TEXTURE_2D_ARRAY, view);
    nearest(gl, TEXTURE_2D_ARRAY);
    let p = link_program(gl, VS, FS_ARRAY);
    gl.use_program(p);
    let layer = gl.get_uniform_location(p, "layer");
    for z in [0.0, 1.0, 5.0] {
        gl.uniform1f(layer, z);
        frames.push(draw_and_read(gl));
    }
    gl.tex_parameteri(TEXTURE_2D_ARRAY, TEXTURE_BASE_LEVEL, 1);
    frames.push(draw_and_read(gl));
    gl.tex_parameteri(TEXTURE_2D_ARRAY, TEXTURE_BASE_LEVEL, 0);

    let p2 = link_program(gl, VS, FS_2D);
    gl.use_program(p2);
    let one = gl.gen_texture();
    gl.texture_view(one, TEXTURE_2D, array, RGBA8, (0, 1), (3, 1));
    gl.bind_texture(TEXTURE_2D, one);
    nearest(gl, TEXTURE_2D);
    frames.push(draw_and_read(gl));
    let srgb = gl.gen_texture();
    gl.texture_view(srgb, TEXTURE_2D, array, SRGB8_ALPHA8, (0, 1), (2, 1));
    gl.bind_texture(TEXTURE_2D, srgb);
    nearest(gl, TEXTURE_2D);
    frames.push(draw_and_read(gl));

    let pu = link_program(gl, VS, FS_UINT);
    gl.use_program(pu);
    let uint = gl.gen_texture();
    gl.texture_view(uint, TEXTURE_2D, array, R32UI, (0, 1), (2, 1));
    gl.bind_texture(TEXTURE_2D, uint);
    nearest(gl, TEXTURE_2D);
    frames.push(draw_and_read(gl));

    // The original goes; the views still sample its storage.
    gl.delete_texture(array);
    gl.use_program(p);
    gl.bind_texture(TEXTURE_2D_ARRAY, view);
    gl.uniform1f(layer, 1.0);
    frames.push(draw_and_read(gl));
    (frames, gl.get_error())
}

/// Reads 8 x 8 RGBA8 texels of level `level`, layer `layer` of a 2D array (or cube map face)
/// `texture` through a read framebuffer.
fn read_layer(gl: &mut dyn ViewGl, texture: GLuint, level: i32, layer: i32) -> Vec<u8> {
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(READ_FRAMEBUFFER, fb);
    gl.framebuffer_texture_layer(READ_FRAMEBUFFER, COLOR_ATTACHMENT0, texture, level, layer);
    let mut px = vec![0; 8 * 8 * 4];
    gl.read_pixels(0, 0, 8, 8, RGBA, UNSIGNED_BYTE, &mut px);
    gl.bind_framebuffer(READ_FRAMEBUFFER, 0);
    px
}

/// Renders into views and reads the originals: a draw into a 2D view of level 1, layer 2 of
/// a 2D array; an R32UI view of another layer cleared with an integer; a cube map viewed as
/// a 2D array, written through the view and sampled through both. Returns the images and
/// the error at the end.
fn rendered(gl: &mut dyn ViewGl) -> (Vec<Vec<u8>>, GLenum) {
    quad(gl);
    let mut out = Vec::new();
    let array = filled_array(gl, 2, [16, 16, 3]);
    let view = gl.gen_texture();
    gl.texture_view(view, TEXTURE_2D, array, RGBA8, (1, 1), (2, 1));
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, view, 0);
    out.push(
        gl.check_framebuffer_status(FRAMEBUFFER)
            .to_le_bytes()
            .to_vec(),
    );
    let p = link_program(gl, VS, FS_ARRAY);
    gl.use_program(p);
    let other = filled_array(gl, 1, [8, 8, 1]);
    gl.bind_texture(TEXTURE_2D_ARRAY, other);
    nearest(gl, TEXTURE_2D_ARRAY);
    gl.viewport(0, 0, 8, 8);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    out.push(read_layer(gl, array, 1, 2));
    out.push(read_layer(gl, array, 1, 1));

    let uint = gl.gen_texture();
    gl.texture_view(uint, TEXTURE_2D_ARRAY, array, R32UI, (1, 1), (0, 2));
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_texture_layer(FRAMEBUFFER, COLOR_ATTACHMENT0, uint, 0, 1);
    out.push(
        gl.check_framebuffer_status(FRAMEBUFFER)
            .to_le_bytes()
            .to_vec(),
    );
    gl.clear_bufferuiv(COLOR, 0, &[0x1122_3344, 0, 0, 0]);
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    out.push(read_layer(gl, array, 1, 1));
    out.push(read_layer(gl, array, 1, 0));

    // A cube map as a 2D array: faces written through the view, sampled through both.
    let cube = bound(gl, TEXTURE_CUBE_MAP);
    gl.tex_storage_2d(TEXTURE_CUBE_MAP, 1, RGBA8, 8, 8);
    let faces = gl.gen_texture();
    gl.texture_view(faces, TEXTURE_2D_ARRAY, cube, RGBA8, (0, 1), (0, 6));
    gl.bind_texture(TEXTURE_2D_ARRAY, faces);
    for z in 0..6 {
        let data = texels(8, 8, 30 * z as u8 + 7);
        gl.tex_sub_image_3d(TEXTURE_2D_ARRAY, 0, [0, 0, z], [8, 8, 1], &data);
    }
    nearest(gl, TEXTURE_2D_ARRAY);
    let layer = gl.get_uniform_location(p, "layer");
    for z in [3.0, 5.0] {
        gl.uniform1f(layer, z);
        out.push(draw_and_read(gl));
    }
    let fb2 = gl.gen_framebuffer();
    gl.bind_framebuffer(READ_FRAMEBUFFER, fb2);
    gl.framebuffer_texture_2d(
        READ_FRAMEBUFFER,
        COLOR_ATTACHMENT0,
        TEXTURE_CUBE_MAP_POSITIVE_X + 3,
        cube,
        0,
    );
    let mut px = vec![0; 8 * 8 * 4];
    gl.read_pixels(0, 0, 8, 8, RGBA, UNSIGNED_BYTE, &mut px);
    gl.bind_framebuffer(READ_FRAMEBUFFER, 0);
    out.push(px);
    (out, gl.get_error())
}

/// Reads the same bits through views of two formats, as `glGetTexImage` hands them back:
/// an R16 1D texture of six levels, viewed as R16UI and that view as R16F (texels whose
/// bits are half-float NaNs, infinities and numbers), read level by level through both
/// after the original was deleted, and a view of the R16F view made after that. Returns
/// the bytes and the error at the end.
fn reinterpreted(gl: &mut dyn ViewGl) -> (Vec<Vec<u8>>, GLenum) {
    let mut out = Vec::new();
    let original = bound(gl, TEXTURE_1D);
    gl.tex_storage_1d(6, R16, 32);
    for level in 0..6 {
        let w = 32 >> level;
        // 0x7f7f and 0xfefe are NaNs, 0x7c7c another, 0x3c3c a number, 0x0101 a subnormal.
        let data: Vec<u8> = [127u8, 254, 124, 60, 1]
            .into_iter()
            .cycle()
            .skip(level as usize)
            .take(w)
            .collect();
        gl.tex_sub_image_1d_red(level, &data);
    }
    let (uint, half) = (gl.gen_texture(), gl.gen_texture());
    gl.texture_view(uint, TEXTURE_1D, original, R16UI, (0, 6), (0, 1));
    gl.texture_view(half, TEXTURE_1D, uint, R16F, (0, 6), (0, 1));
    gl.delete_texture(original);
    for level in 0..6 {
        let w = 32 >> level;
        for (view, format, ty) in [(uint, RED_INTEGER, UNSIGNED_SHORT), (half, RED, HALF_FLOAT)] {
            gl.bind_texture(TEXTURE_1D, view);
            let mut px = vec![0; w * 2];
            gl.get_tex_image(TEXTURE_1D, level, format, ty, &mut px);
            out.push(px);
        }
    }
    let late = gl.gen_texture();
    gl.texture_view(late, TEXTURE_1D, half, R16I, (2, 1), (0, 1));
    gl.delete_texture(uint);
    gl.delete_texture(half);
    gl.bind_texture(TEXTURE_1D, late);
    let mut px = vec![0; 16];
    gl.get_tex_image(TEXTURE_1D, 0, RED_INTEGER, SHORT, &mut px);
    out.push(px);
    (out, gl.get_error())
}

#[test]
fn reading_texels_through_views_of_other_formats_matches_the_native_driver() {
    compare(|gl| {
        let (images, error) = reinterpreted(gl);
        assert_eq!(error, NO_ERROR);
        // Both views read back the bits written, NaNs included.
        for (level, pair) in images[..12].chunks(2).enumerate() {
            let written: Vec<u8> = [127u8, 254, 124, 60, 1]
                .into_iter()
                .cycle()
                .skip(level)
                .take(32 >> level)
                .flat_map(|b| [b, b])
                .collect();
            assert_eq!(pair[0], written, "level {level} through R16UI");
            assert_eq!(pair[1], written, "level {level} through R16F");
        }
        (images, error)
    });
}

/// Mipmaps generated through a view: a 2D array view of levels 1..4 and layers 1..3 of a
/// 2D array whose every level and layer was filled; the original's levels 2 and 3 of each
/// layer read back. Returns the images and the error at the end.
fn mipmapped(gl: &mut dyn ViewGl) -> (Vec<Vec<u8>>, GLenum) {
    let array = filled_array(gl, 4, [16, 16, 4]);
    let view = gl.gen_texture();
    gl.texture_view(view, TEXTURE_2D_ARRAY, array, RGBA8, (1, 3), (1, 2));
    gl.bind_texture(TEXTURE_2D_ARRAY, view);
    gl.generate_mipmap(TEXTURE_2D_ARRAY);
    let mut out = Vec::new();
    for level in [2, 3] {
        for layer in 0..4 {
            let fb = gl.gen_framebuffer();
            gl.bind_framebuffer(READ_FRAMEBUFFER, fb);
            gl.framebuffer_texture_layer(READ_FRAMEBUFFER, COLOR_ATTACHMENT0, array, level, layer);
            let n = (16 >> level) as usize;
            let mut px = vec![0; n * n * 4];
            gl.read_pixels(0, 0, n as i32, n as i32, RGBA, UNSIGNED_BYTE, &mut px);
            gl.bind_framebuffer(READ_FRAMEBUFFER, 0);
            out.push(px);
        }
    }
    (out, gl.get_error())
}

#[test]
fn mipmaps_generated_through_a_view_match_the_native_driver() {
    compare(|gl| {
        let (images, error) = mipmapped(gl);
        assert_eq!(error, NO_ERROR);
        // Level 2 of layer 1 was generated from level 1 (native llvmpipe generates the
        // levels of every layer of the storage, those outside the view too).
        assert_ne!(images[1], texels(4, 4, 90));
        (images, error)
    });
}

#[test]
fn texture_view_errors_and_state_match_the_native_driver() {
    compare(view_transcript);
}

#[test]
fn draws_sampling_texture_views_match_the_native_driver() {
    compare(|gl| {
        let (frames, error) = sampled(gl);
        assert_eq!(error, NO_ERROR);
        assert_ne!(frames[0], frames[1], "two layers of the view");
        assert_ne!(frames[0], frames[3], "the view's base level 1");
        assert_eq!(frames[1], frames[7], "the view outlives its original");
        assert_ne!(frames[5], frames[6], "sRGB and R32UI views differ");
        (frames, error)
    });
}

#[test]
fn rendering_into_texture_views_matches_the_native_driver() {
    compare(|gl| {
        let (images, error) = rendered(gl);
        assert_eq!(error, NO_ERROR);
        assert_eq!(
            &images[4][..4],
            &[0x44, 0x33, 0x22, 0x11],
            "R32UI clear in RGBA8 bytes"
        );
        assert_ne!(images[6], images[7], "two faces");
        (images, error)
    });
}

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    let n = ctx.get_integer(NUM_EXTENSIONS);
    (0..n as GLuint)
        .map(|i| ctx.get_stringi(EXTENSIONS, i).expect("an extension name"))
        .collect()
}

/// `GL_ARB_texture_view` is advertised only where the backend carries views out: on GLES
/// and Vulkan here, not on a GLES backend whose driver lacks `OES_texture_view` (an ES 3.0
/// backend that ignores the driver's extensions), where every other extension still is.
#[test]
fn texture_views_are_advertised_only_where_the_backend_carries_them_out() {
    let mut everywhere = None;
    for backend in [Backend::Gles, Backend::Vulkan] {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 4, 4);
        let names = advertised(&mut ctx);
        assert!(
            names.iter().any(|e| e == "GL_ARB_texture_view"),
            "{backend:?}: {names:?}"
        );
        assert_eq!(ctx.get_error(), NO_ERROR);
        everywhere = Some(names);
    }
    let mut ctx = tessera_es30(4, 4);
    let names = advertised(&mut ctx);
    let mut expected = everywhere.unwrap();
    // (Nor tessellation, whose stages an ES 3.0 driver lacks: tests/tests/tessellation.rs;
    // nor per-draw-buffer blending, without its indexed calls: draw_buffers_blend.rs; nor
    // cube map arrays, below ES 3.2: texture_cube_array.rs; nor gathers and GLSL 4.20's
    // packing functions, below ES 3.1: texture_gather.rs, shading_language_packing.rs; nor
    // viewport arrays, without OES_viewport_array: viewport_array.rs; nor doubles, which no
    // GLES backend has: fp64.rs; nor BPTC, without EXT_texture_compression_bptc:
    // texture_compression_bptc.rs; nor framebuffers without attachments, below ES 3.1:
    // framebuffer_no_attachments.rs; nor compute, storage buffers, atomic counters
    // (with their operations and group votes, gated as they are) and stencil texturing,
    // below ES 3.1: compute.rs, atomic_counter.rs, shader_group_vote.rs,
    // stencil_texturing.rs; nor gl_Layer in fragment shaders and RGB32 buffer textures,
    // below ES 3.2; nor image load/store, which no GLES backend has:
    // Caps::image_load_store; nor sample shading,
    // below ES 3.2: sample_shading.rs; nor GPU shader 5, whose four vertex streams no GLES
    // backend has: gpu_shader5.rs; nor draw parameters, which GLSL ES lacks:
    // shader_draw_parameters.rs; nor the driver extensions an ES 3.0 driver without
    // extensions lacks: clip control (EXT_clip_control: clip_control.rs), cull distances
    // (EXT_clip_cull_distance: cull_distance.rs), the polygon offset clamp
    // (EXT_polygon_offset_clamp), anisotropic filtering (EXT_texture_filter_anisotropic),
    // the mirror-clamp wrap (EXT_texture_mirror_clamp_to_edge) and stencil-only textures
    // (OES_texture_stencil8, or ES 3.2: texture_stencil8.rs); nor pipeline statistics,
    // which ES cannot count: pipeline_statistics.rs; nor transform feedback overflow
    // queries: transform_feedback_overflow.rs; nor GLSL ES 3.10, whose compute shaders
    // and images an ES 3.0 driver lacks: es3_1_compatibility.rs; nor robust buffer
    // access, whose robust context (KHR_robustness) it lacks: robust_access.rs; nor the
    // texture barrier, whose glMemoryBarrier it lacks: texture_barrier.rs; nor enhanced
    // layouts, whose component qualifiers no GLES backend carries out: enhanced_layouts.rs.)
    expected.retain(|e| {
        e != "GL_ARB_texture_view"
            && e != "GL_ARB_tessellation_shader"
            && e != "GL_ARB_draw_buffers_blend"
            && e != "GL_ARB_texture_cube_map_array"
            && e != "GL_ARB_texture_gather"
            && e != "GL_ARB_shading_language_packing"
            && e != "GL_ARB_viewport_array"
            && e != "GL_ARB_gpu_shader_fp64"
            && e != "GL_ARB_vertex_attrib_64bit"
            && e != "GL_ARB_texture_compression_bptc"
            && e != "GL_ARB_framebuffer_no_attachments"
            && e != "GL_ARB_compute_shader"
            && e != "GL_ARB_shader_storage_buffer_object"
            && e != "GL_ARB_shader_atomic_counters"
            && e != "GL_ARB_shader_atomic_counter_ops"
            && e != "GL_ARB_shader_group_vote"
            && e != "GL_ARB_stencil_texturing"
            && e != "GL_ARB_fragment_layer_viewport"
            && e != "GL_ARB_texture_buffer_object_rgb32"
            && e != "GL_ARB_shader_image_load_store"
            && e != "GL_ARB_shader_image_size"
            && e != "GL_ARB_sample_shading"
            && e != "GL_ARB_gpu_shader5"
            && e != "GL_ARB_shader_draw_parameters"
            && e != "GL_ARB_clip_control"
            && e != "GL_ARB_cull_distance"
            && e != "GL_ARB_polygon_offset_clamp"
            && e != "GL_EXT_polygon_offset_clamp"
            && e != "GL_ARB_texture_filter_anisotropic"
            && e != "GL_EXT_texture_filter_anisotropic"
            && e != "GL_ARB_texture_mirror_clamp_to_edge"
            && e != "GL_ARB_pipeline_statistics_query"
            && e != "GL_ARB_transform_feedback_overflow_query"
            && e != "GL_ARB_texture_stencil8"
            && e != "GL_ARB_ES3_1_compatibility"
            && e != "GL_ARB_robust_buffer_access_behavior"
            && e != "GL_ARB_enhanced_layouts"
            && e != "GL_ARB_texture_barrier"
            && e != "GL_EXT_memory_object"
            && e != "GL_EXT_memory_object_fd"
    });
    // (Memory objects import Vulkan memory: the Vulkan backend's alone, memory_object.rs.
    // EGL images are the GLES backend's alone, and last in its list: dropin's egl_image.c.)
    expected.push("GL_OES_EGL_image".to_owned());
    assert_eq!(names, expected);
    // Past the last name: INVALID_VALUE, as for any index past NUM_EXTENSIONS.
    assert_eq!(ctx.get_stringi(EXTENSIONS, names.len() as GLuint), None);
    assert_eq!(ctx.get_error(), INVALID_VALUE);
}

//! Texture clears (GL 4.4's `ARB_clear_texture`) against the native driver on both
//! backends (Vulkan with the validation layer on, which must report nothing):
//! `glClearTexImage` and `glClearTexSubImage` on 1D, 2D, 3D, rectangle, array, cube map and
//! cube map array textures, mipmap levels, normalized, float, packed, sRGB, integer, depth
//! and depth-stencil formats, texels converted from other client formats and types, no data
//! (zeros), boxes inside images and cube faces, and every error in Mesa's order. After each
//! step the error and the whole level read back with `glGetTexImage` (every face of a cube
//! map) must be the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's texture-clear and read-back entry points, called through their C signatures"
)]

use std::ffi::c_void;

mod multisample;

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::{Pixels, PixelsMut};
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls the shared [`Gl`] table has no entry for.
trait ClearGl: Gl {
    /// `glClearTexImage`.
    fn clear_image(&mut self, t: GLuint, level: GLint, f: GLenum, ty: GLenum, d: Option<&[u8]>);
    /// `glClearTexSubImage`.
    #[expect(clippy::too_many_arguments, reason = "mirrors glClearTexSubImage")]
    fn clear_sub(
        &mut self,
        t: GLuint,
        level: GLint,
        at: [i32; 3],
        size: [i32; 3],
        f: GLenum,
        ty: GLenum,
        d: Option<&[u8]>,
    );
    /// `glGetTexImage` into `out`.
    fn get_image(&mut self, target: GLenum, level: GLint, f: GLenum, ty: GLenum, out: &mut [u8]);
    /// `glTexImage3D` without data, or `glTexImage1D`/`2D` by target.
    fn define(&mut self, target: GLenum, level: GLint, internal: GLenum, size: [i32; 3]);
}

/// A client format and type that can carry `internal`'s images without data.
fn upload_layout(internal: GLenum) -> (GLenum, GLenum) {
    match internal {
        DEPTH_COMPONENT24 | DEPTH_COMPONENT32F | DEPTH_COMPONENT16 => (DEPTH_COMPONENT, FLOAT),
        DEPTH24_STENCIL8 => (DEPTH_STENCIL, UNSIGNED_INT_24_8),
        DEPTH32F_STENCIL8 => (DEPTH_STENCIL, FLOAT_32_UNSIGNED_INT_24_8_REV),
        RGBA8UI | RGBA16UI | RG8I | R32I | RGBA32I => (RGBA_INTEGER, INT),
        _ => (RGBA, FLOAT),
    }
}

impl ClearGl for Context {
    fn clear_image(&mut self, t: GLuint, level: GLint, f: GLenum, ty: GLenum, d: Option<&[u8]>) {
        self.clear_tex_image(t, level, f, ty, d)
    }
    fn clear_sub(
        &mut self,
        t: GLuint,
        level: GLint,
        at: [i32; 3],
        size: [i32; 3],
        f: GLenum,
        ty: GLenum,
        d: Option<&[u8]>,
    ) {
        self.clear_tex_sub_image(
            t, level, at[0], at[1], at[2], size[0], size[1], size[2], f, ty, d,
        )
    }
    fn get_image(&mut self, target: GLenum, level: GLint, f: GLenum, ty: GLenum, out: &mut [u8]) {
        Context::get_tex_image(self, target, level, f, ty, PixelsMut::Bytes(out))
    }
    fn define(&mut self, target: GLenum, level: GLint, internal: GLenum, size: [i32; 3]) {
        let (f, ty) = upload_layout(internal);
        let i = internal as GLint;
        match target {
            TEXTURE_1D => self.tex_image_1d(target, level, i, size[0], 0, f, ty, Pixels::None),
            TEXTURE_3D | TEXTURE_2D_ARRAY | TEXTURE_CUBE_MAP_ARRAY => self.tex_image_3d(
                target,
                level,
                i,
                size[0],
                size[1],
                size[2],
                0,
                f,
                ty,
                Pixels::None,
            ),
            _ => self.tex_image_2d(target, level, i, size[0], size[1], 0, f, ty, Pixels::None),
        }
    }
}

/// Calls the native entry point `$name` of C signature `$ty` with `$args`.
macro_rules! native {
    ($gl:expr, $name:literal, $ty:ty, $($args:expr),*) => {{
        let f: $ty = $gl.entry_point($name).expect($name);
        // SAFETY: the pointer is the driver's `$name` with its exact C signature `$ty`, called
        // while the context is current; every pointer is null or valid for what the call
        // reads or writes (one texel of at most 16 bytes, which every caller provides; the
        // read-back's buffer holds the level).
        unsafe { f($($args),*) }
    }};
}

/// The pointer of an optional texel: null for none.
fn data_ptr(d: Option<&[u8]>) -> *const c_void {
    d.map_or(std::ptr::null(), |d| d.as_ptr().cast())
}

impl ClearGl for NativeGl {
    fn clear_image(&mut self, t: GLuint, level: GLint, f: GLenum, ty: GLenum, d: Option<&[u8]>) {
        native!(
            self,
            "glClearTexImage",
            unsafe extern "system" fn(GLuint, GLint, GLenum, GLenum, *const c_void),
            t,
            level,
            f,
            ty,
            data_ptr(d)
        )
    }
    fn clear_sub(
        &mut self,
        t: GLuint,
        level: GLint,
        at: [i32; 3],
        size: [i32; 3],
        f: GLenum,
        ty: GLenum,
        d: Option<&[u8]>,
    ) {
        native!(
            self,
            "glClearTexSubImage",
            unsafe extern "system" fn(
                GLuint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLsizei,
                GLenum,
                GLenum,
                *const c_void,
            ),
            t,
            level,
            at[0],
            at[1],
            at[2],
            size[0],
            size[1],
            size[2],
            f,
            ty,
            data_ptr(d)
        )
    }
    fn get_image(&mut self, target: GLenum, level: GLint, f: GLenum, ty: GLenum, out: &mut [u8]) {
        native!(
            self,
            "glGetTexImage",
            unsafe extern "system" fn(GLenum, GLint, GLenum, GLenum, *mut c_void),
            target,
            level,
            f,
            ty,
            out.as_mut_ptr().cast()
        )
    }
    fn define(&mut self, target: GLenum, level: GLint, internal: GLenum, size: [i32; 3]) {
        let (f, ty) = upload_layout(internal);
        let i = internal as GLint;
        let none = std::ptr::null::<c_void>();
        match target {
            TEXTURE_1D => native!(
                self,
                "glTexImage1D",
                unsafe extern "system" fn(
                    GLenum,
                    GLint,
                    GLint,
                    GLsizei,
                    GLint,
                    GLenum,
                    GLenum,
                    *const c_void,
                ),
                target,
                level,
                i,
                size[0],
                0,
                f,
                ty,
                none
            ),
            TEXTURE_3D | TEXTURE_2D_ARRAY | TEXTURE_CUBE_MAP_ARRAY => native!(
                self,
                "glTexImage3D",
                unsafe extern "system" fn(
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
                ),
                target,
                level,
                i,
                size[0],
                size[1],
                size[2],
                0,
                f,
                ty,
                none
            ),
            _ => native!(
                self,
                "glTexImage2D",
                unsafe extern "system" fn(
                    GLenum,
                    GLint,
                    GLint,
                    GLsizei,
                    GLsizei,
                    GLint,
                    GLenum,
                    GLenum,
                    *const c_void,
                ),
                target,
                level,
                i,
                size[0],
                size[1],
                0,
                f,
                ty,
                none
            ),
        }
    }
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match; returns
/// the native result.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn ClearGl) -> T) -> T {
    compare_on(&Backend::ALL, scene)
}

/// [`compare`] on some backends.
fn compare_on<T: PartialEq + std::fmt::Debug>(
    backends: &[Backend],
    scene: impl Fn(&mut dyn ClearGl) -> T,
) -> T {
    let mut native = NativeGl::new(8, 8).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for &backend in backends {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 8, 8);
            let got = scene(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            // The Vulkan backend says once that it keeps rectangle textures as 2D ones, which
            // it samples with normalized coordinates (the shader front end rewrites them).
            let events: Vec<Event> = ctx
                .take_events()
                .into_iter()
                .filter(|e| {
                    !matches!(e, Event::Unsupported { what }
                        if what.starts_with("rectangle textures are 2D textures"))
                })
                .collect();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    expected
}

/// 16 bytes of client data: `values`' bytes, then zeros.
fn bytes_of<T: Copy>(values: &[T]) -> Vec<u8> {
    let mut out = vec![0u8; 16];
    let n = size_of_val(values).min(16);
    // SAFETY: plain numbers, read as their bytes.
    let src = unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), n) };
    out[..n].copy_from_slice(src);
    out
}

/// One texture of the scenes: target, internal format, level-0 size, levels, and how its
/// contents are read back.
#[derive(Clone, Copy)]
struct Tex {
    target: GLenum,
    internal: GLenum,
    size: [i32; 3],
    levels: i32,
    read: (GLenum, GLenum),
}

impl Tex {
    const fn new(target: GLenum, internal: GLenum, size: [i32; 3], read: (GLenum, GLenum)) -> Self {
        Self {
            target,
            internal,
            size,
            levels: 1,
            read,
        }
    }

    /// The level-`level` size.
    fn level_size(&self, level: i32) -> [i32; 3] {
        let keeps_depth = matches!(self.target, TEXTURE_2D_ARRAY | TEXTURE_CUBE_MAP_ARRAY);
        let keeps_height = self.target == TEXTURE_1D_ARRAY;
        let [w, h, d] = self.size;
        [
            (w >> level).max(1),
            if keeps_height { h } else { (h >> level).max(1) },
            if keeps_depth { d } else { (d >> level).max(1) },
        ]
    }

    /// Creates it with every level defined (contents undefined until cleared).
    fn create(&self, gl: &mut dyn ClearGl) -> GLuint {
        let t = gl.gen_texture();
        gl.bind_texture(self.target, t);
        for level in 0..self.levels {
            let size = self.level_size(level);
            if self.target == TEXTURE_CUBE_MAP {
                for face in 0..6 {
                    gl.define(
                        TEXTURE_CUBE_MAP_POSITIVE_X + face,
                        level,
                        self.internal,
                        size,
                    );
                }
            } else {
                gl.define(self.target, level, self.internal, size);
            }
        }
        gl.tex_parameteri(self.target, TEXTURE_MAX_LEVEL, self.levels - 1);
        t
    }

    /// Every level's contents (each face of a cube map), read as `self.read`.
    fn contents(&self, gl: &mut dyn ClearGl, t: GLuint) -> Vec<u8> {
        gl.bind_texture(self.target, t);
        let (f, ty) = self.read;
        let texel = match (f, ty) {
            (RGBA | RGBA_INTEGER, FLOAT | INT | UNSIGNED_INT) => 16,
            (DEPTH_STENCIL, FLOAT_32_UNSIGNED_INT_24_8_REV) => 8,
            (RGBA | RGBA_INTEGER, UNSIGNED_SHORT) => 8,
            (RGBA, UNSIGNED_BYTE) => 4,
            _ => 4,
        };
        let mut out = Vec::new();
        for level in 0..self.levels {
            let [w, h, d] = self.level_size(level);
            let targets: Vec<GLenum> = if self.target == TEXTURE_CUBE_MAP {
                (0..6).map(|f| TEXTURE_CUBE_MAP_POSITIVE_X + f).collect()
            } else {
                vec![self.target]
            };
            for target in targets {
                let mut bytes = vec![0xa5u8; (w * h * d) as usize * texel];
                gl.get_image(target, level, f, ty, &mut bytes);
                out.extend_from_slice(&bytes);
            }
        }
        out
    }
}

/// One line: what was done, the error, and the texture's contents after it.
type Line = (&'static str, GLenum, Vec<u8>);

/// One step of a scene: a clear (or another call) on the texture.
type Step<'a> = dyn Fn(&mut dyn ClearGl, GLuint) + 'a;

/// Clears `tex` with each of `clears` in turn, recording the error and the contents after
/// each (the first clear sets every texel, so nothing read is undefined).
fn run(gl: &mut dyn ClearGl, tex: Tex, clears: &[(&'static str, &Step)]) -> Vec<Line> {
    gl.pixel_storei(PACK_ALIGNMENT, 1);
    let t = tex.create(gl);
    let mut out = Vec::new();
    for (what, f) in clears {
        f(gl, t);
        let e = gl.get_error();
        out.push((*what, e, tex.contents(gl, t)));
    }
    out
}

fn colour_transcript(gl: &mut dyn ClearGl, levels: i32) -> Vec<Vec<Line>> {
    let f4 = bytes_of(&[0.25f32, 0.5, 0.75, 1.0]);
    let f4b = bytes_of(&[-0.5f32, 2.0, 0.125, 0.0]);
    let ub = bytes_of(&[0x10u8, 0x80, 0xf0, 0xff]);
    let us = bytes_of(&[0x1234u16, 0xffff, 0, 0x8000]);
    // 1, 2, 0.25 and 0.5: exact in every float format.
    let half = bytes_of(&[0x3c00u16, 0x4000, 0x3400, 0x3800]);
    let int = bytes_of(&[-2i32, 300, 70_000, -70_000]);
    let packed = bytes_of(&[0xf81fu16]);
    let rgba_f = (RGBA, FLOAT);
    let rgba_ub = (RGBA, UNSIGNED_BYTE);
    let rgba_i = (RGBA_INTEGER, INT);
    let mut all = Vec::new();
    // Normalized 8-bit, several client layouts, levels, boxes, no data, and the errors.
    all.push(run(
        gl,
        Tex {
            levels,
            ..Tex::new(TEXTURE_2D, RGBA8, [8, 8, 1], rgba_ub)
        },
        &[
            ("whole level 0 from floats", &|gl, t| {
                gl.clear_image(t, 0, RGBA, FLOAT, Some(&f4))
            }),
            ("level 1 from bytes", &|gl, t| {
                gl.clear_image(t, 1, RGBA, UNSIGNED_BYTE, Some(&ub))
            }),
            ("level 2 from BGRA", &|gl, t| {
                gl.clear_image(t, 2, BGRA, UNSIGNED_BYTE, Some(&ub))
            }),
            ("box from 5-6-5", &|gl, t| {
                gl.clear_sub(
                    t,
                    0,
                    [1, 2, 0],
                    [3, 4, 1],
                    RGB,
                    UNSIGNED_SHORT_5_6_5,
                    Some(&packed),
                )
            }),
            ("box of level 1 without data", &|gl, t| {
                gl.clear_sub(t, 1, [2, 0, 0], [2, 3, 1], RGBA, FLOAT, None)
            }),
            ("box of level 0 without RGB data, alpha too", &|gl, t| {
                gl.clear_sub(t, 0, [4, 4, 0], [3, 2, 1], RGB, UNSIGNED_BYTE, None)
            }),
            ("a row of red from shorts", &|gl, t| {
                gl.clear_sub(t, 0, [0, 0, 0], [8, 1, 1], RED, UNSIGNED_SHORT, Some(&us))
            }),
            ("empty box, bad format", &|gl, t| {
                gl.clear_sub(t, 0, [0, 0, 0], [0, 4, 1], 0x1234, FLOAT, Some(&f4))
            }),
            ("empty box", &|gl, t| {
                gl.clear_sub(t, 0, [8, 8, 0], [0, 0, 1], RGBA, FLOAT, Some(&f4))
            }),
            ("negative size", &|gl, t| {
                gl.clear_sub(t, 0, [0, 0, 0], [-1, 4, 1], RGBA, FLOAT, Some(&f4))
            }),
            ("box past the image", &|gl, t| {
                gl.clear_sub(t, 0, [6, 0, 0], [3, 4, 1], RGBA, FLOAT, Some(&f4))
            }),
            ("box past the depth", &|gl, t| {
                gl.clear_sub(t, 0, [0, 0, 0], [2, 2, 2], RGBA, FLOAT, Some(&f4))
            }),
            ("negative offset", &|gl, t| {
                gl.clear_sub(t, 0, [0, -1, 0], [2, 2, 1], RGBA, FLOAT, Some(&f4))
            }),
            ("box past the image, bad format", &|gl, t| {
                gl.clear_sub(t, 0, [6, 0, 0], [3, 4, 1], 0x1234, FLOAT, Some(&f4))
            }),
            ("level without an image", &|gl, t| {
                gl.clear_image(t, 3, RGBA, FLOAT, Some(&f4))
            }),
            ("negative level", &|gl, t| {
                gl.clear_image(t, -1, RGBA, FLOAT, Some(&f4))
            }),
            ("level past the last", &|gl, t| {
                gl.clear_image(t, 20, RGBA, FLOAT, Some(&f4))
            }),
            ("depth data", &|gl, t| {
                gl.clear_image(t, 0, DEPTH_COMPONENT, FLOAT, Some(&f4))
            }),
            ("depth-stencil data", &|gl, t| {
                gl.clear_image(t, 0, DEPTH_STENCIL, UNSIGNED_BYTE, Some(&f4))
            }),
            ("depth-stencil data of its type", &|gl, t| {
                gl.clear_image(t, 0, DEPTH_STENCIL, UNSIGNED_INT_24_8, Some(&f4))
            }),
            ("integer data", &|gl, t| {
                gl.clear_image(t, 0, RGBA_INTEGER, INT, Some(&int))
            }),
            ("bad type", &|gl, t| {
                gl.clear_image(t, 0, RGBA, 0x1234, Some(&f4))
            }),
            ("format and type mismatch", &|gl, t| {
                gl.clear_image(t, 0, RGBA, UNSIGNED_SHORT_5_6_5, Some(&packed))
            }),
            ("texture zero", &|gl, _| {
                gl.clear_image(0, 0, RGBA, FLOAT, Some(&f4))
            }),
            ("no texture", &|gl, _| {
                gl.clear_image(9999, 0, RGBA, FLOAT, Some(&f4))
            }),
        ],
    ));
    // Float formats, from float data exact in each (byte data would be converted with
    // Mesa's rounding, which Tessera's conversion of uploads does not share).
    for internal in [RGBA32F, RGBA16F, R11F_G11F_B10F, RG16F] {
        all.push(run(
            gl,
            Tex::new(TEXTURE_2D, internal, [4, 3, 1], rgba_f),
            &[
                ("floats", &|gl, t| {
                    gl.clear_image(t, 0, RGBA, FLOAT, Some(&f4b))
                }),
                ("halves in a box", &|gl, t| {
                    gl.clear_sub(t, 0, [1, 1, 0], [2, 2, 1], RGBA, HALF_FLOAT, Some(&half))
                }),
                ("floats in a row", &|gl, t| {
                    gl.clear_sub(t, 0, [0, 2, 0], [4, 1, 1], RGBA, FLOAT, Some(&f4))
                }),
            ],
        ));
    }
    // Normalized, packed and sRGB formats.
    for (internal, read) in [
        (RGBA16, (RGBA, UNSIGNED_SHORT)),
        (RGB10_A2, rgba_f),
        (SRGB8_ALPHA8, rgba_ub),
        (RG8, rgba_ub),
    ] {
        all.push(run(
            gl,
            Tex::new(TEXTURE_2D, internal, [4, 3, 1], read),
            &[
                ("floats", &|gl, t| {
                    gl.clear_image(t, 0, RGBA, FLOAT, Some(&f4b))
                }),
                ("halves in a box", &|gl, t| {
                    gl.clear_sub(t, 0, [1, 1, 0], [2, 2, 1], RGBA, HALF_FLOAT, Some(&half))
                }),
                ("bytes in a row", &|gl, t| {
                    gl.clear_sub(t, 0, [0, 2, 0], [4, 1, 1], RGBA, UNSIGNED_BYTE, Some(&ub))
                }),
            ],
        ));
    }
    // Integer formats.
    for internal in [RGBA8UI, RGBA16UI, RG8I, RGBA32I] {
        all.push(run(
            gl,
            Tex::new(TEXTURE_2D, internal, [4, 4, 1], rgba_i),
            &[
                ("ints", &|gl, t| {
                    gl.clear_image(t, 0, RGBA_INTEGER, INT, Some(&int))
                }),
                ("unsigned shorts in a box", &|gl, t| {
                    gl.clear_sub(
                        t,
                        0,
                        [2, 1, 0],
                        [2, 3, 1],
                        RGBA_INTEGER,
                        UNSIGNED_SHORT,
                        Some(&us),
                    )
                }),
                ("float data", &|gl, t| {
                    gl.clear_image(t, 0, RGBA, FLOAT, Some(&f4))
                }),
            ],
        ));
    }
    all
}

/// Colour formats on a 2D texture of one level: boxes, conversions and the errors.
#[test]
fn colour_clears_match_native() {
    compare(|gl| colour_transcript(gl, 1));
}

/// The same on a texture of three levels, on Vulkan: the GLES backend reads levels past 0
/// of such a texture back as zeros (after `glTexSubImage` too), so its clears of them
/// cannot be compared.
#[test]
fn mip_level_clears_match_native_on_vulkan() {
    compare_on(&[Backend::Vulkan], |gl| colour_transcript(gl, 3));
}

/// A signed normalized format from negative and positive floats, on Vulkan: the GLES
/// backend converts client data for signed normalized images as unsigned (after
/// `glTexSubImage` too).
#[test]
fn signed_normalized_clears_match_native_on_vulkan() {
    compare_on(&[Backend::Vulkan], |gl| {
        let f4b = bytes_of(&[-0.5f32, 2.0, 0.125, 0.0]);
        run(
            gl,
            Tex::new(TEXTURE_2D, RGBA8_SNORM, [4, 3, 1], (RGBA, FLOAT)),
            &[
                ("floats", &|gl, t| {
                    gl.clear_image(t, 0, RGBA, FLOAT, Some(&f4b))
                }),
                ("none in a box", &|gl, t| {
                    gl.clear_sub(t, 0, [1, 1, 0], [2, 2, 1], RGBA, FLOAT, None)
                }),
            ],
        )
    });
}

fn target_transcript(gl: &mut dyn ClearGl, levels: i32) -> Vec<Vec<Line>> {
    let f4 = bytes_of(&[0.25f32, 0.5, 0.75, 1.0]);
    let ub = bytes_of(&[0x10u8, 0x80, 0xf0, 0xff]);
    let rgba_ub = (RGBA, UNSIGNED_BYTE);
    let mut all = Vec::new();
    for tex in [
        Tex {
            levels,
            ..Tex::new(TEXTURE_1D, RGBA8, [8, 1, 1], rgba_ub)
        },
        Tex::new(TEXTURE_1D_ARRAY, RGBA8, [8, 3, 1], rgba_ub),
        Tex::new(TEXTURE_RECTANGLE, RGBA8, [5, 3, 1], rgba_ub),
        Tex {
            levels,
            ..Tex::new(TEXTURE_2D_ARRAY, RGBA8, [4, 4, 3], rgba_ub)
        },
        Tex {
            levels,
            ..Tex::new(TEXTURE_3D, RGBA8, [4, 4, 4], rgba_ub)
        },
        Tex {
            levels,
            ..Tex::new(TEXTURE_CUBE_MAP, RGBA8, [4, 4, 1], rgba_ub)
        },
        Tex::new(TEXTURE_CUBE_MAP_ARRAY, RGBA8, [2, 2, 12], rgba_ub),
    ] {
        all.push(run(
            gl,
            tex,
            &[
                ("whole level", &|gl, t| {
                    gl.clear_image(t, 0, RGBA, FLOAT, Some(&f4))
                }),
                ("a box", &|gl, t| {
                    gl.clear_sub(t, 0, [1, 0, 1], [1, 1, 1], RGBA, UNSIGNED_BYTE, Some(&ub))
                }),
                ("a box of z 0 and 1", &|gl, t| {
                    gl.clear_sub(t, 0, [0, 0, 0], [1, 1, 2], RGBA, UNSIGNED_BYTE, Some(&ub))
                }),
                ("a box to the last z", &|gl, t| {
                    gl.clear_sub(t, 0, [0, 0, 1], [1, 1, 5], RGBA, FLOAT, None)
                }),
                ("the last level", &|gl, t| {
                    gl.clear_image(t, 1, RGBA, UNSIGNED_BYTE, Some(&ub))
                }),
            ],
        ));
    }
    all
}

/// Every texture target: whole levels and boxes (a cube map's faces as z).
#[test]
fn every_target_matches_native() {
    compare(|gl| target_transcript(gl, 1));
}

/// The same with a second level, on Vulkan (the GLES backend's read-back of levels past 0
/// is the one of `mip_level_clears_match_native_on_vulkan`).
#[test]
fn every_target_with_levels_matches_native_on_vulkan() {
    compare_on(&[Backend::Vulkan], |gl| target_transcript(gl, 2));
}

fn depth_transcript(gl: &mut dyn ClearGl, stencil: bool) -> Vec<Vec<Line>> {
    // A depth exact in 16 and 24 bits whichever way a conversion rounds.
    let depth = bytes_of(&[0.2f32]);
    let depth_stencil = bytes_of(&[0x8000_00abu32]);
    let depth_stencil_f = bytes_of(&[0.625f32, f32::from_bits(0x0000_0042)]);
    let f4 = bytes_of(&[0.25f32, 0.5, 0.75, 1.0]);
    let mut all = Vec::new();
    for internal in [DEPTH_COMPONENT24, DEPTH_COMPONENT32F, DEPTH_COMPONENT16] {
        all.push(run(
            gl,
            Tex::new(TEXTURE_2D, internal, [4, 4, 1], (DEPTH_COMPONENT, FLOAT)),
            &[
                ("depth", &|gl, t| {
                    gl.clear_image(t, 0, DEPTH_COMPONENT, FLOAT, Some(&depth))
                }),
                ("box without data", &|gl, t| {
                    gl.clear_sub(t, 0, [1, 1, 0], [2, 2, 1], DEPTH_COMPONENT, FLOAT, None)
                }),
                ("colour data", &|gl, t| {
                    gl.clear_image(t, 0, RGBA, FLOAT, Some(&f4))
                }),
            ],
        ));
    }
    let with_stencil: &[GLenum] = if stencil {
        &[DEPTH24_STENCIL8, DEPTH32F_STENCIL8]
    } else {
        &[]
    };
    for &internal in with_stencil {
        all.push(run(
            gl,
            Tex::new(
                TEXTURE_2D,
                internal,
                [4, 4, 1],
                (DEPTH_STENCIL, FLOAT_32_UNSIGNED_INT_24_8_REV),
            ),
            &[
                ("packed 24/8", &|gl, t| {
                    gl.clear_image(t, 0, DEPTH_STENCIL, UNSIGNED_INT_24_8, Some(&depth_stencil))
                }),
                ("float and 8 in a box", &|gl, t| {
                    gl.clear_sub(
                        t,
                        0,
                        [0, 1, 0],
                        [3, 2, 1],
                        DEPTH_STENCIL,
                        FLOAT_32_UNSIGNED_INT_24_8_REV,
                        Some(&depth_stencil_f),
                    )
                }),
                ("colour data", &|gl, t| {
                    gl.clear_image(t, 0, RGBA, FLOAT, Some(&f4))
                }),
            ],
        ));
    }
    all
}

/// Depth textures on both backends.
#[test]
fn depth_clears_match_native() {
    compare(|gl| depth_transcript(gl, false));
}

/// Depth and depth-stencil textures, their stencil read back with the depth.
#[test]
fn depth_stencil_clears_match_native() {
    compare(|gl| depth_transcript(gl, true));
}

//! Immutable texture storage (`glTexStorage*`, GL 4.2/4.3) and copies between images
//! (`glCopyImageSubData`, GL 4.3) against the native driver: the errors of every storage
//! call, the immutable state and the level sizes it defines, the re-specification an
//! immutable texture refuses, the base and max level it clamps, draws sampling immutable 2D
//! and array textures, copies across formats of one size class between textures,
//! renderbuffers, array layers and 3D slices, and every copy error, on both backends (Vulkan with the
//! validation layer on, which must report nothing). Values, errors and pixels must be
//! exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's GL 4.2/4.3 entry points, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::Pixels;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
trait StorageGl: Gl {
    fn tex_storage_1d(&mut self, target: GLenum, levels: GLsizei, internal: GLenum, w: GLsizei);
    fn tex_storage_2d(&mut self, target: GLenum, levels: GLsizei, internal: GLenum, w: i32, h: i32);
    fn tex_storage_3d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internal: GLenum,
        w: i32,
        h: i32,
        d: i32,
    );
    fn tex_storage_2d_ms(
        &mut self,
        target: GLenum,
        samples: GLsizei,
        internal: GLenum,
        w: i32,
        h: i32,
        fixed: GLboolean,
    );
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    fn tex_storage_3d_ms(
        &mut self,
        target: GLenum,
        samples: GLsizei,
        internal: GLenum,
        w: i32,
        h: i32,
        d: i32,
        fixed: GLboolean,
    );
    /// `glGetTexParameteriv` of one value.
    fn tex_param(&mut self, target: GLenum, pname: GLenum) -> GLint;
    /// `glGetTexLevelParameteriv` of one value.
    fn level_param(&mut self, target: GLenum, level: GLint, pname: GLenum) -> GLint;
    /// `glCopyTexImage2D`.
    fn copy_tex_image_2d(&mut self, target: GLenum, internal: GLenum, w: i32, h: i32);
    /// `glCompressedTexSubImage2D` of a whole level 0 of `size`.
    fn compressed_tex_sub_image_2d(
        &mut self,
        target: GLenum,
        format: GLenum,
        size: (i32, i32),
        data: &[u8],
    );
    /// `glCopyImageSubData` from `src` to `dst`, each (name, target, level, origin).
    fn copy_image(&mut self, src: Img, dst: Img, size: [GLsizei; 3]);
    /// `glTexSubImage3D` from client memory.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    fn tex_sub_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        offset: [GLint; 3],
        size: [GLsizei; 3],
        format: GLenum,
        ty: GLenum,
        data: &[u8],
    );
}

/// One image of a `glCopyImageSubData`: name, target, level and origin.
type Img = (GLuint, GLenum, GLint, [GLint; 3]);

impl StorageGl for Context {
    fn compressed_tex_sub_image_2d(
        &mut self,
        target: GLenum,
        format: GLenum,
        (w, h): (i32, i32),
        data: &[u8],
    ) {
        Context::compressed_tex_sub_image_2d(
            self,
            target,
            0,
            0,
            0,
            w,
            h,
            format,
            data.len() as GLsizei,
            Pixels::Bytes(data),
        )
    }
    fn tex_storage_1d(&mut self, target: GLenum, levels: GLsizei, internal: GLenum, w: GLsizei) {
        Context::tex_storage_1d(self, target, levels, internal, w)
    }
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
        levels: i32,
        internal: GLenum,
        w: i32,
        h: i32,
        d: i32,
    ) {
        Context::tex_storage_3d(self, target, levels, internal, w, h, d)
    }
    fn tex_storage_2d_ms(
        &mut self,
        target: GLenum,
        samples: i32,
        internal: GLenum,
        w: i32,
        h: i32,
        fixed: GLboolean,
    ) {
        Context::tex_storage_2d_multisample(self, target, samples, internal, w, h, fixed)
    }
    fn tex_storage_3d_ms(
        &mut self,
        target: GLenum,
        samples: i32,
        internal: GLenum,
        w: i32,
        h: i32,
        d: i32,
        fixed: GLboolean,
    ) {
        Context::tex_storage_3d_multisample(self, target, samples, internal, w, h, d, fixed)
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
    fn copy_tex_image_2d(&mut self, target: GLenum, internal: GLenum, w: i32, h: i32) {
        Context::copy_tex_image_2d(self, target, 0, internal, 0, 0, w, h, 0)
    }
    fn copy_image(&mut self, (sn, st, sl, s): Img, (dn, dt, dl, d): Img, [w, h, z]: [i32; 3]) {
        self.copy_image_sub_data(
            sn, st, sl, s[0], s[1], s[2], dn, dt, dl, d[0], d[1], d[2], w, h, z,
        )
    }
    fn tex_sub_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        [x, y, z]: [GLint; 3],
        [w, h, d]: [GLsizei; 3],
        format: GLenum,
        ty: GLenum,
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
            format,
            ty,
            Pixels::Bytes(data),
        )
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

impl StorageGl for NativeGl {
    fn compressed_tex_sub_image_2d(
        &mut self,
        target: GLenum,
        format: GLenum,
        (w, h): (i32, i32),
        data: &[u8],
    ) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLint,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
            GLenum,
            GLsizei,
            *const std::ffi::c_void,
        );
        let (n, p) = (data.len() as GLsizei, data.as_ptr().cast());
        native!(
            self,
            "glCompressedTexSubImage2D",
            F,
            target,
            0,
            0,
            0,
            w,
            h,
            format,
            n,
            p
        )
    }
    fn tex_storage_1d(&mut self, target: GLenum, levels: GLsizei, internal: GLenum, w: GLsizei) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei);
        native!(self, "glTexStorage1D", F, target, levels, internal, w)
    }
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
        levels: i32,
        internal: GLenum,
        w: i32,
        h: i32,
        d: i32,
    ) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei, GLsizei);
        native!(self, "glTexStorage3D", F, target, levels, internal, w, h, d)
    }
    fn tex_storage_2d_ms(
        &mut self,
        target: GLenum,
        samples: i32,
        internal: GLenum,
        w: i32,
        h: i32,
        fixed: GLboolean,
    ) {
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
            fixed
        )
    }
    fn tex_storage_3d_ms(
        &mut self,
        target: GLenum,
        samples: i32,
        internal: GLenum,
        w: i32,
        h: i32,
        d: i32,
        fixed: GLboolean,
    ) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLsizei,
            GLenum,
            GLsizei,
            GLsizei,
            GLsizei,
            GLboolean,
        );
        native!(
            self,
            "glTexStorage3DMultisample",
            F,
            target,
            samples,
            internal,
            w,
            h,
            d,
            fixed
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
    fn copy_tex_image_2d(&mut self, target: GLenum, internal: GLenum, w: i32, h: i32) {
        type F =
            unsafe extern "system" fn(GLenum, GLint, GLenum, GLint, GLint, GLsizei, GLsizei, GLint);
        native!(
            self,
            "glCopyTexImage2D",
            F,
            target,
            0,
            internal,
            0,
            0,
            w,
            h,
            0
        )
    }
    fn copy_image(&mut self, (sn, st, sl, s): Img, (dn, dt, dl, d): Img, [w, h, z]: [i32; 3]) {
        type F = unsafe extern "system" fn(
            GLuint,
            GLenum,
            GLint,
            GLint,
            GLint,
            GLint,
            GLuint,
            GLenum,
            GLint,
            GLint,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
            GLsizei,
        );
        native!(
            self,
            "glCopyImageSubData",
            F,
            sn,
            st,
            sl,
            s[0],
            s[1],
            s[2],
            dn,
            dt,
            dl,
            d[0],
            d[1],
            d[2],
            w,
            h,
            z
        )
    }
    fn tex_sub_image_3d(
        &mut self,
        target: GLenum,
        level: GLint,
        [x, y, z]: [GLint; 3],
        [w, h, d]: [GLsizei; 3],
        format: GLenum,
        ty: GLenum,
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
            format,
            ty,
            p
        )
    }
}

/// Runs `scene` on the native driver and on both backends, over the in-process and the
/// render-thread transports; each result must be the native one, with no backend event
/// (no validation message on Vulkan).
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn StorageGl) -> T) {
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

/// `fixedsamplelocations` true and false.
const FIXED: GLboolean = TRUE as GLboolean;
const UNFIXED: GLboolean = FALSE as GLboolean;

/// A transcript line: what was done, and the values or error it gave.
type Line = (&'static str, Vec<GLint>);

/// Appends the error state after a call.
fn err(gl: &mut dyn StorageGl, out: &mut Vec<Line>, what: &'static str) {
    let e = gl.get_error() as GLint;
    out.push((what, vec![e]));
}

/// The immutable state and the sizes of levels 0..=`levels` of `target` (`image` names
/// the image target of level queries: a cube face for cube maps).
fn state(gl: &mut dyn StorageGl, target: GLenum, image: GLenum, levels: GLint) -> Vec<GLint> {
    let mut v = vec![
        gl.tex_param(target, TEXTURE_IMMUTABLE_FORMAT),
        gl.tex_param(target, TEXTURE_IMMUTABLE_LEVELS),
        gl.tex_param(target, TEXTURE_BASE_LEVEL),
        gl.tex_param(target, TEXTURE_MAX_LEVEL),
    ];
    for level in 0..=levels {
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
fn bound(gl: &mut dyn StorageGl, target: GLenum) -> GLuint {
    let t = gl.gen_texture();
    gl.bind_texture(target, t);
    t
}

/// Storage of every target: the state and level sizes it defines, and what an immutable
/// texture still allows (sub-image uploads, mipmap generation) and refuses.
fn storage_state(gl: &mut dyn StorageGl) -> Vec<Line> {
    let mut out = Vec::new();
    bound(gl, TEXTURE_2D);
    out.push(("2d before", state(gl, TEXTURE_2D, TEXTURE_2D, 0)));
    gl.tex_storage_2d(TEXTURE_2D, 3, RGBA8, 16, 8);
    out.push(("2d", state(gl, TEXTURE_2D, TEXTURE_2D, 3)));
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as i32,
        16,
        8,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    err(gl, &mut out, "tex_image_2d on immutable");
    gl.tex_image_2d(
        TEXTURE_2D,
        4,
        RGBA8 as i32,
        1,
        1,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    err(gl, &mut out, "tex_image_2d past its levels");
    gl.copy_tex_image_2d(TEXTURE_2D, RGBA8, 4, 4);
    err(gl, &mut out, "copy_tex_image_2d on immutable");
    gl.tex_storage_2d(TEXTURE_2D, 1, RGBA8, 4, 4);
    err(gl, &mut out, "tex_storage_2d again");
    gl.tex_sub_image_2d(TEXTURE_2D, 1, 0, 0, 2, 2, RGBA, UNSIGNED_BYTE, &[7; 16]);
    err(gl, &mut out, "tex_sub_image_2d");
    gl.generate_mipmap(TEXTURE_2D);
    err(gl, &mut out, "generate_mipmap");
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, 5);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_LEVEL, 100);
    out.push(("levels clamped", state(gl, TEXTURE_2D, TEXTURE_2D, 0)));
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, 1);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_LEVEL, 0);
    out.push(("max below base", state(gl, TEXTURE_2D, TEXTURE_2D, 0)));
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_IMMUTABLE_LEVELS, 1);
    err(gl, &mut out, "set IMMUTABLE_LEVELS");

    bound(gl, TEXTURE_1D);
    gl.tex_storage_1d(TEXTURE_1D, 4, R16F, 8);
    out.push(("1d", state(gl, TEXTURE_1D, TEXTURE_1D, 4)));
    bound(gl, TEXTURE_1D_ARRAY);
    gl.tex_storage_2d(TEXTURE_1D_ARRAY, 2, RG8UI, 8, 3);
    out.push(("1d array", state(gl, TEXTURE_1D_ARRAY, TEXTURE_1D_ARRAY, 2)));
    bound(gl, TEXTURE_RECTANGLE);
    gl.tex_storage_2d(TEXTURE_RECTANGLE, 1, DEPTH_COMPONENT24, 5, 3);
    out.push((
        "rectangle",
        state(gl, TEXTURE_RECTANGLE, TEXTURE_RECTANGLE, 1),
    ));
    bound(gl, TEXTURE_CUBE_MAP);
    gl.tex_storage_2d(TEXTURE_CUBE_MAP, 2, SRGB8_ALPHA8, 8, 8);
    out.push((
        "cube",
        state(gl, TEXTURE_CUBE_MAP, TEXTURE_CUBE_MAP_NEGATIVE_Y, 2),
    ));
    gl.tex_image_2d(
        TEXTURE_CUBE_MAP_POSITIVE_Z,
        0,
        SRGB8_ALPHA8 as i32,
        8,
        8,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    err(gl, &mut out, "tex_image_2d of a face");
    bound(gl, TEXTURE_2D_ARRAY);
    gl.tex_storage_3d(TEXTURE_2D_ARRAY, 3, RGBA32F, 8, 4, 5);
    out.push(("2d array", state(gl, TEXTURE_2D_ARRAY, TEXTURE_2D_ARRAY, 3)));
    bound(gl, TEXTURE_3D);
    gl.tex_storage_3d(TEXTURE_3D, 4, RGB10_A2, 2, 4, 8);
    out.push(("3d", state(gl, TEXTURE_3D, TEXTURE_3D, 4)));
    bound(gl, TEXTURE_2D);
    gl.tex_storage_2d(TEXTURE_2D, 1, COMPRESSED_RED_RGTC1, 8, 8);
    out.push(("rgtc", state(gl, TEXTURE_2D, TEXTURE_2D, 1)));

    gl.tex_storage_2d(PROXY_TEXTURE_2D, 2, RGBA8, 8, 8);
    out.push(("proxy", state(gl, PROXY_TEXTURE_2D, PROXY_TEXTURE_2D, 2)));
    gl.tex_storage_2d(PROXY_TEXTURE_2D, 1, RGBA8, 1 << 20, 8);
    out.push((
        "proxy too large",
        state(gl, PROXY_TEXTURE_2D, PROXY_TEXTURE_2D, 1),
    ));

    bound(gl, TEXTURE_2D_MULTISAMPLE);
    gl.tex_storage_2d_ms(TEXTURE_2D_MULTISAMPLE, 4, RGBA8, 8, 4, FIXED);
    let mut ms = state(gl, TEXTURE_2D_MULTISAMPLE, TEXTURE_2D_MULTISAMPLE, 0);
    ms.push(gl.level_param(TEXTURE_2D_MULTISAMPLE, 0, TEXTURE_SAMPLES));
    out.push(("2d multisample", ms));
    gl.tex_image_2d_multisample(TEXTURE_2D_MULTISAMPLE, 4, RGBA8 as i32, 8, 4, FIXED);
    err(gl, &mut out, "tex_image_2d_multisample on immutable");
    bound(gl, TEXTURE_2D_MULTISAMPLE_ARRAY);
    gl.tex_storage_3d_ms(
        TEXTURE_2D_MULTISAMPLE_ARRAY,
        2,
        DEPTH24_STENCIL8,
        4,
        4,
        3,
        UNFIXED,
    );
    let mut ms = state(
        gl,
        TEXTURE_2D_MULTISAMPLE_ARRAY,
        TEXTURE_2D_MULTISAMPLE_ARRAY,
        0,
    );
    ms.push(gl.level_param(TEXTURE_2D_MULTISAMPLE_ARRAY, 0, TEXTURE_SAMPLES));
    out.push(("2d multisample array", ms));
    out
}

/// Every error of the storage calls, one fault at a time.
fn storage_errors(gl: &mut dyn StorageGl) -> Vec<Line> {
    let mut out = Vec::new();
    gl.tex_storage_2d(TEXTURE_2D, 1, RGBA8, 4, 4);
    err(gl, &mut out, "texture zero");
    bound(gl, TEXTURE_2D);
    gl.tex_storage_2d(TEXTURE_2D, 1, RGBA, 4, 4);
    err(gl, &mut out, "unsized RGBA");
    // Mesa takes these unsized formats: each call below gets a new texture.
    for (format, what) in [
        (SRGB_ALPHA, "unsized SRGB_ALPHA"),
        (SRGB, "unsized SRGB"),
        (COMPRESSED_RED, "generic compressed red"),
        (COMPRESSED_RG, "generic compressed rg"),
        (COMPRESSED_RGBA, "generic compressed rgba"),
        (COMPRESSED_SRGB, "generic compressed srgb"),
    ] {
        gl.tex_storage_2d(TEXTURE_2D, 1, format, 4, 4);
        err(gl, &mut out, what);
        bound(gl, TEXTURE_2D);
    }
    gl.tex_storage_2d(TEXTURE_2D, 1, DEPTH_COMPONENT, 4, 4);
    err(gl, &mut out, "unsized depth");
    gl.tex_storage_2d(TEXTURE_2D, 1, 0x1234, 4, 4);
    err(gl, &mut out, "no format");
    gl.tex_storage_2d(TEXTURE_2D, 0, RGBA8, 4, 4);
    err(gl, &mut out, "zero levels");
    gl.tex_storage_2d(TEXTURE_2D, 1, RGBA8, 0, 4);
    err(gl, &mut out, "zero width");
    gl.tex_storage_2d(TEXTURE_2D, 1, RGBA8, 4, -1);
    err(gl, &mut out, "negative height");
    gl.tex_storage_2d(TEXTURE_2D, 4, RGBA8, 4, 2);
    err(gl, &mut out, "more levels than the size has");
    gl.tex_storage_2d(TEXTURE_2D, 20, RGBA8, 4, 4);
    err(gl, &mut out, "more levels than the target has");
    gl.tex_storage_2d(TEXTURE_2D, 1, RGBA8, 1 << 20, 4);
    err(gl, &mut out, "too large");
    gl.tex_storage_2d(TEXTURE_CUBE_MAP_POSITIVE_X, 1, RGBA8, 4, 4);
    err(gl, &mut out, "a cube face");
    gl.tex_storage_2d(TEXTURE_3D, 1, RGBA8, 4, 4);
    err(gl, &mut out, "2d call, 3d target");
    gl.tex_storage_1d(TEXTURE_2D, 1, RGBA8, 4);
    err(gl, &mut out, "1d call, 2d target");
    gl.tex_storage_3d(TEXTURE_2D, 1, RGBA8, 4, 4, 1);
    err(gl, &mut out, "3d call, 2d target");
    gl.tex_storage_2d(TEXTURE_2D_MULTISAMPLE, 1, RGBA8, 4, 4);
    err(gl, &mut out, "2d call, multisample target");
    bound(gl, TEXTURE_3D);
    gl.tex_storage_3d(TEXTURE_3D, 1, DEPTH_COMPONENT24, 4, 4, 4);
    err(gl, &mut out, "depth 3d");
    gl.tex_storage_3d(TEXTURE_3D, 1, COMPRESSED_RED_RGTC1, 4, 4, 4);
    err(gl, &mut out, "rgtc 3d");
    bound(gl, TEXTURE_RECTANGLE);
    gl.tex_storage_2d(TEXTURE_RECTANGLE, 2, RGBA8, 4, 4);
    err(gl, &mut out, "rectangle levels");
    bound(gl, TEXTURE_CUBE_MAP);
    gl.tex_storage_2d(TEXTURE_CUBE_MAP, 1, RGBA8, 4, 2);
    err(gl, &mut out, "cube not square");

    gl.tex_storage_2d_ms(TEXTURE_2D_MULTISAMPLE, 4, RGBA8, 4, 4, FIXED);
    err(gl, &mut out, "multisample texture zero");
    bound(gl, TEXTURE_2D_MULTISAMPLE);
    gl.tex_storage_2d_ms(TEXTURE_2D_MULTISAMPLE, 0, RGBA8, 4, 4, FIXED);
    err(gl, &mut out, "zero samples");
    gl.tex_storage_2d_ms(TEXTURE_2D_MULTISAMPLE, 4, RGBA, 4, 4, FIXED);
    err(gl, &mut out, "multisample unsized");
    gl.tex_storage_2d_ms(TEXTURE_2D_MULTISAMPLE, 4, COMPRESSED_RED_RGTC1, 4, 4, FIXED);
    err(gl, &mut out, "multisample compressed");
    gl.tex_storage_2d_ms(TEXTURE_2D_MULTISAMPLE, 64, RGBA8, 4, 4, FIXED);
    err(gl, &mut out, "too many samples");
    gl.tex_storage_2d_ms(TEXTURE_2D, 4, RGBA8, 4, 4, FIXED);
    err(gl, &mut out, "multisample call, 2d target");
    gl.tex_storage_2d_ms(TEXTURE_2D_MULTISAMPLE, 4, RGBA8, 1 << 20, 4, FIXED);
    err(gl, &mut out, "multisample too large");
    gl.tex_storage_3d_ms(TEXTURE_2D_MULTISAMPLE, 4, RGBA8, 4, 4, 1, FIXED);
    err(gl, &mut out, "3d multisample call, 2d multisample target");
    gl.tex_storage_2d_ms(TEXTURE_2D_MULTISAMPLE, 4, RGBA8, 4, 4, FIXED);
    err(gl, &mut out, "multisample storage");
    gl.tex_storage_2d_ms(TEXTURE_2D_MULTISAMPLE, 4, RGBA8, 4, 4, FIXED);
    err(gl, &mut out, "multisample storage again");
    out
}

const VS: &str = "#version 330 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

/// Samples level 0 of the view through `textureLod` (the base level of the texture), layer
/// `layer` of an array.
const FS_2D: &str = "#version 330 core
uniform sampler2D tex;
out vec4 color;
void main() { color = textureLod(tex, gl_FragCoord.xy / 16.0, 0.0); }
";

const FS_ARRAY: &str = "#version 330 core
uniform sampler2DArray tex;
uniform float layer;
out vec4 color;
void main() { color = textureLod(tex, vec3(gl_FragCoord.xy / 16.0, layer), 0.0); }
";

/// A vertex array holding a quad covering the viewport (a triangle strip).
fn quad(gl: &mut dyn StorageGl) {
    tessera_tests::scenes::viewport_quad(gl);
}

/// `w` x `h` RGBA8 texels, each of its position and `tag`.
fn texels(w: usize, h: usize, tag: u8) -> Vec<u8> {
    (0..w * h)
        .flat_map(|i| {
            [
                ((i % w) as u8).wrapping_mul(16),
                ((i / w) as u8).wrapping_mul(16),
                tag,
                255,
            ]
        })
        .collect()
}

fn draw_and_read(gl: &mut dyn StorageGl) -> Vec<u8> {
    gl.viewport(0, 0, 16, 16);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut px = vec![0; 16 * 16 * 4];
    gl.read_pixels(0, 0, 16, 16, RGBA, UNSIGNED_BYTE, &mut px);
    px
}

/// Draws sampling immutable textures: a 2D texture of three levels with a mipmapped filter
/// and the base level past its levels (clamped to the last, so complete), then base level 1
/// (the default max level clamps to 2); and layers of an immutable 2D array. Returns the
/// frames and the error at the end.
fn sampled(gl: &mut dyn StorageGl) -> (Vec<Vec<u8>>, GLenum) {
    quad(gl);
    let mut frames = Vec::new();
    let p = link_program(gl, VS, FS_2D);
    gl.use_program(p);
    bound(gl, TEXTURE_2D);
    gl.tex_storage_2d(TEXTURE_2D, 3, RGBA8, 16, 8);
    for level in 0..3 {
        let (w, h) = (16 >> level, 8 >> level);
        let data = texels(w, h, 64 * (level as u8 + 1));
        gl.tex_sub_image_2d(
            TEXTURE_2D,
            level,
            0,
            0,
            w as i32,
            h as i32,
            RGBA,
            UNSIGNED_BYTE,
            &data,
        );
    }
    gl.tex_parameteri(
        TEXTURE_2D,
        TEXTURE_MIN_FILTER,
        NEAREST_MIPMAP_NEAREST as i32,
    );
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
    frames.push(draw_and_read(gl));
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, 7);
    frames.push(draw_and_read(gl));
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_BASE_LEVEL, 1);
    frames.push(draw_and_read(gl));

    let p = link_program(gl, VS, FS_ARRAY);
    gl.use_program(p);
    let layer = gl.get_uniform_location(p, "layer");
    bound(gl, TEXTURE_2D_ARRAY);
    gl.tex_storage_3d(TEXTURE_2D_ARRAY, 2, RGBA8, 8, 8, 3);
    for z in 0..3 {
        let data = texels(8, 8, 80 * z as u8);
        gl.tex_sub_image_3d(
            TEXTURE_2D_ARRAY,
            0,
            [0, 0, z],
            [8, 8, 1],
            RGBA,
            UNSIGNED_BYTE,
            &data,
        );
    }
    gl.tex_parameteri(TEXTURE_2D_ARRAY, TEXTURE_MIN_FILTER, NEAREST as i32);
    gl.tex_parameteri(TEXTURE_2D_ARRAY, TEXTURE_MAG_FILTER, NEAREST as i32);
    for z in [2.0, 0.0] {
        gl.uniform1f(layer, z);
        frames.push(draw_and_read(gl));
    }
    (frames, gl.get_error())
}

/// Reads `w` x `h` texels of an image through a framebuffer: `attach` attaches it to the
/// bound read framebuffer.
fn read_image(
    gl: &mut dyn StorageGl,
    attach: impl FnOnce(&mut dyn StorageGl),
    (w, h): (i32, i32),
    (format, ty, bytes): (GLenum, GLenum, usize),
) -> Vec<u8> {
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(READ_FRAMEBUFFER, fb);
    attach(gl);
    let mut px = vec![0; w as usize * h as usize * bytes];
    gl.read_pixels(0, 0, w, h, format, ty, &mut px);
    gl.bind_framebuffer(READ_FRAMEBUFFER, 0);
    px
}

/// An immutable 2D texture of `internal` with one level of `w` x `h` texels, `data` if any.
fn texture_2d(
    gl: &mut dyn StorageGl,
    internal: GLenum,
    (w, h): (i32, i32),
    data: Option<(GLenum, GLenum, &[u8])>,
) -> GLuint {
    let t = bound(gl, TEXTURE_2D);
    gl.tex_storage_2d(TEXTURE_2D, 1, internal, w, h);
    if let Some((format, ty, data)) = data {
        gl.tex_sub_image_2d(TEXTURE_2D, 0, 0, 0, w, h, format, ty, data);
    }
    t
}

/// Copies between images and reads the results: RGBA8 texels into an R32UI texture (one
/// size class), a texture level into a renderbuffer, a renderbuffer into a layer of an
/// RGBA8UI array texture, and array layers into slices of a 3D texture.
fn copies(gl: &mut dyn StorageGl) -> (Vec<Vec<u8>>, GLenum) {
    let mut out = Vec::new();
    let rgba = texels(8, 8, 99);
    let src = texture_2d(gl, RGBA8, (8, 8), Some((RGBA, UNSIGNED_BYTE, &rgba)));
    let zeros = vec![0u8; 8 * 8 * 4];
    let dst = texture_2d(gl, R32UI, (8, 8), Some((RED_INTEGER, UNSIGNED_INT, &zeros)));
    gl.copy_image(
        (src, TEXTURE_2D, 0, [2, 2, 0]),
        (dst, TEXTURE_2D, 0, [1, 3, 0]),
        [4, 5, 1],
    );
    out.push(read_image(
        gl,
        |gl| gl.framebuffer_texture_2d(READ_FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, dst, 0),
        (8, 8),
        (RED_INTEGER, UNSIGNED_INT, 4),
    ));

    // A texture's level 1 into a renderbuffer cleared before.
    let mip = bound(gl, TEXTURE_2D);
    gl.tex_storage_2d(TEXTURE_2D, 2, RGBA8, 16, 16);
    gl.tex_sub_image_2d(
        TEXTURE_2D,
        1,
        0,
        0,
        8,
        8,
        RGBA,
        UNSIGNED_BYTE,
        &texels(8, 8, 7),
    );
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA8, 8, 8);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    gl.viewport(0, 0, 8, 8);
    gl.clear_color(0.25, 0.5, 0.75, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    gl.copy_image(
        (mip, TEXTURE_2D, 1, [0, 0, 0]),
        (rb, RENDERBUFFER, 0, [3, 2, 0]),
        [5, 6, 1],
    );
    out.push(read_image(
        gl,
        |gl| gl.framebuffer_renderbuffer(READ_FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb),
        (8, 8),
        (RGBA, UNSIGNED_BYTE, 4),
    ));

    // The renderbuffer into layer 1 of an RGBA8UI array (the class of RGBA8).
    let array = bound(gl, TEXTURE_2D_ARRAY);
    gl.tex_storage_3d(TEXTURE_2D_ARRAY, 1, RGBA8UI, 8, 8, 3);
    let zeros = vec![0u8; 8 * 8 * 4 * 3];
    gl.tex_sub_image_3d(
        TEXTURE_2D_ARRAY,
        0,
        [0; 3],
        [8, 8, 3],
        RGBA_INTEGER,
        UNSIGNED_BYTE,
        &zeros,
    );
    gl.copy_image(
        (rb, RENDERBUFFER, 0, [0, 0, 0]),
        (array, TEXTURE_2D_ARRAY, 0, [0, 0, 1]),
        [8, 8, 1],
    );
    for layer in 0..2 {
        out.push(read_image(
            gl,
            |gl| gl.framebuffer_texture_layer(READ_FRAMEBUFFER, COLOR_ATTACHMENT0, array, 0, layer),
            (8, 8),
            (RGBA_INTEGER, UNSIGNED_BYTE, 4),
        ));
    }

    // Layers 1 and 2 of the array into slices 0 and 1 of a 3D texture.
    let volume = bound(gl, TEXTURE_3D);
    gl.tex_storage_3d(TEXTURE_3D, 1, RGBA8, 8, 8, 2);
    gl.copy_image(
        (array, TEXTURE_2D_ARRAY, 0, [0, 0, 1]),
        (volume, TEXTURE_3D, 0, [0, 0, 0]),
        [8, 8, 2],
    );
    out.push(read_image(
        gl,
        |gl| gl.framebuffer_texture_layer(READ_FRAMEBUFFER, COLOR_ATTACHMENT0, volume, 0, 0),
        (8, 8),
        (RGBA, UNSIGNED_BYTE, 4),
    ));

    // Face 4 of a cube map into face 1 of another (faces are z), then read.
    let faces = texels(4, 4 * 6, 3);
    let cube_src = bound(gl, TEXTURE_CUBE_MAP);
    gl.tex_storage_2d(TEXTURE_CUBE_MAP, 1, RGBA8, 4, 4);
    for face in 0..6u32 {
        let at = (face * 64) as usize;
        gl.tex_sub_image_2d(
            TEXTURE_CUBE_MAP_POSITIVE_X + face,
            0,
            0,
            0,
            4,
            4,
            RGBA,
            UNSIGNED_BYTE,
            &faces[at..at + 64],
        );
    }
    let cube_dst = bound(gl, TEXTURE_CUBE_MAP);
    gl.tex_storage_2d(TEXTURE_CUBE_MAP, 1, RGBA8UI, 4, 4);
    gl.copy_image(
        (cube_src, TEXTURE_CUBE_MAP, 0, [0, 0, 4]),
        (cube_dst, TEXTURE_CUBE_MAP, 0, [0, 0, 1]),
        [4, 4, 1],
    );
    out.push(read_image(
        gl,
        |gl| {
            gl.framebuffer_texture_2d(
                READ_FRAMEBUFFER,
                COLOR_ATTACHMENT0,
                TEXTURE_CUBE_MAP_NEGATIVE_X,
                cube_dst,
                0,
            )
        },
        (4, 4),
        (RGBA_INTEGER, UNSIGNED_BYTE, 4),
    ));

    // RGTC1 blocks (8 bytes) into RG32F texels, back into another RGTC1 texture, and its
    // right column of blocks into RG32UI texels: read as bits.
    let blocks: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(37)).collect();
    let rgtc = texture_2d(gl, COMPRESSED_RED_RGTC1, (8, 8), None);
    gl.compressed_tex_sub_image_2d(TEXTURE_2D, COMPRESSED_RED_RGTC1, (8, 8), &blocks);
    let rg32 = texture_2d(gl, RG32F, (2, 2), None);
    gl.copy_image(
        (rgtc, TEXTURE_2D, 0, [0; 3]),
        (rg32, TEXTURE_2D, 0, [0; 3]),
        [8, 8, 1],
    );
    let back = texture_2d(gl, COMPRESSED_RED_RGTC1, (8, 8), None);
    gl.copy_image(
        (rg32, TEXTURE_2D, 0, [0; 3]),
        (back, TEXTURE_2D, 0, [0; 3]),
        [2, 2, 1],
    );
    out.push(read_image(
        gl,
        |gl| gl.framebuffer_texture_2d(READ_FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, rg32, 0),
        (2, 2),
        (RG, FLOAT, 8),
    ));
    let again = texture_2d(
        gl,
        RG32UI,
        (2, 2),
        Some((RG_INTEGER, UNSIGNED_INT, &[0; 32])),
    );
    gl.copy_image(
        (back, TEXTURE_2D, 0, [4, 0, 0]),
        (again, TEXTURE_2D, 0, [1, 0, 0]),
        [4, 8, 1],
    );
    out.push(read_image(
        gl,
        |gl| gl.framebuffer_texture_2d(READ_FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, again, 0),
        (2, 2),
        (RG_INTEGER, UNSIGNED_INT, 8),
    ));
    (out, gl.get_error())
}

/// Every error of `glCopyImageSubData`, one fault at a time (and copies that are none).
fn copy_errors(gl: &mut dyn StorageGl) -> Vec<Line> {
    let mut out = Vec::new();
    let rgba = texture_2d(gl, RGBA8, (8, 8), None);
    let r32 = texture_2d(gl, R32UI, (8, 8), None);
    let rg8 = texture_2d(gl, RG8, (8, 8), None);
    let depth = texture_2d(gl, DEPTH_COMPONENT24, (8, 8), None);
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
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA8, 8, 8);
    let msrb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, msrb);
    gl.renderbuffer_storage_multisample(RENDERBUFFER, 4, RGBA8, 8, 8);
    let unbound_rb = gl.gen_renderbuffer();
    let unbound_tex = gl.gen_texture();
    let array = bound(gl, TEXTURE_2D_ARRAY);
    gl.tex_storage_3d(TEXTURE_2D_ARRAY, 1, RGBA8, 8, 8, 2);
    let rgtc = texture_2d(gl, COMPRESSED_RED_RGTC1, (8, 8), None);
    let rg32 = texture_2d(gl, RG32F, (8, 8), None);
    let t2 = |n| (n, TEXTURE_2D, 0, [0, 0, 0]);
    let rbi = |n| (n, RENDERBUFFER, 0, [0, 0, 0]);
    let cases: Vec<(&'static str, Img, Img, [i32; 3])> = vec![
        ("ok", t2(rgba), t2(r32), [8, 8, 1]),
        (
            "same image",
            t2(rgba),
            (rgba, TEXTURE_2D, 0, [4, 4, 0]),
            [4, 4, 1],
        ),
        ("ok to a renderbuffer", t2(rgba), rbi(rb), [8, 8, 1]),
        ("ok rgtc to 64-bit", t2(rgtc), t2(rg32), [8, 8, 1]),
        ("ok 64-bit to rgtc", t2(rg32), t2(rgtc), [2, 2, 1]),
        ("mutable level 0", t2(mutable), t2(rgba), [8, 8, 1]),
        ("size classes differ", t2(rgba), t2(rg8), [8, 8, 1]),
        ("depth and colour", t2(depth), t2(r32), [8, 8, 1]),
        ("samples differ", rbi(msrb), rbi(rb), [8, 8, 1]),
        (
            "source target",
            (rgba, TEXTURE_3D, 0, [0; 3]),
            t2(r32),
            [8, 8, 1],
        ),
        (
            "buffer target",
            (rgba, TEXTURE_BUFFER, 0, [0; 3]),
            t2(r32),
            [8, 8, 1],
        ),
        (
            "face target",
            (rgba, TEXTURE_CUBE_MAP_POSITIVE_X, 0, [0; 3]),
            t2(r32),
            [8, 8, 1],
        ),
        (
            "destination target",
            t2(rgba),
            (r32, TEXTURE_2D_ARRAY, 0, [0; 3]),
            [8, 8, 1],
        ),
        ("no such texture", t2(4321), t2(r32), [8, 8, 1]),
        ("texture zero", t2(0), t2(r32), [8, 8, 1]),
        ("texture never bound", t2(unbound_tex), t2(r32), [8, 8, 1]),
        ("no such renderbuffer", rbi(4321), t2(r32), [8, 8, 1]),
        (
            "renderbuffer never bound",
            rbi(unbound_rb),
            t2(r32),
            [8, 8, 1],
        ),
        (
            "renderbuffer level",
            (rb, RENDERBUFFER, 1, [0; 3]),
            t2(r32),
            [8, 8, 1],
        ),
        (
            "missing level",
            (rgba, TEXTURE_2D, 1, [0; 3]),
            t2(r32),
            [4, 4, 1],
        ),
        (
            "negative level",
            (rgba, TEXTURE_2D, -1, [0; 3]),
            t2(r32),
            [4, 4, 1],
        ),
        (
            "past the source",
            (rgba, TEXTURE_2D, 0, [4, 0, 0]),
            t2(r32),
            [8, 8, 1],
        ),
        (
            "past the destination",
            t2(rgba),
            (r32, TEXTURE_2D, 0, [0, 1, 0]),
            [8, 8, 1],
        ),
        ("negative size", t2(rgba), t2(r32), [-1, 8, 1]),
        (
            "negative origin",
            (rgba, TEXTURE_2D, 0, [-1, 0, 0]),
            t2(r32),
            [4, 4, 1],
        ),
        ("depth past a 2d image", t2(rgba), t2(r32), [8, 8, 2]),
        (
            "layers past an array",
            (array, TEXTURE_2D_ARRAY, 0, [0, 0, 1]),
            t2(r32),
            [8, 8, 2],
        ),
        (
            "unaligned rgtc",
            (rgtc, TEXTURE_2D, 0, [2, 0, 0]),
            t2(rg32),
            [4, 4, 1],
        ),
        ("zero size", t2(rgba), t2(r32), [0, 0, 0]),
    ];
    for (what, src, dst, size) in cases {
        gl.copy_image(src, dst, size);
        err(gl, &mut out, what);
    }
    out
}

#[test]
fn copies_between_images_match_the_native_driver() {
    compare(|gl| {
        let (images, error) = copies(gl);
        assert_eq!(error, NO_ERROR);
        // Every image read but layer 0 of the array (left zero) got texels.
        for (i, px) in images.iter().enumerate() {
            assert_eq!(px.iter().any(|b| *b != 0), i != 2, "image {i}");
        }
        assert_eq!(images.len(), 8);
        (images, error)
    });
}

#[test]
fn copy_image_errors_match_the_native_driver() {
    compare(copy_errors);
}

#[test]
fn immutable_storage_state_matches_the_native_driver() {
    compare(storage_state);
}

#[test]
fn immutable_storage_errors_match_the_native_driver() {
    compare(storage_errors);
}

#[test]
fn draws_sampling_immutable_textures_match_the_native_driver() {
    compare(|gl| {
        let (frames, error) = sampled(gl);
        assert_eq!(error, NO_ERROR);
        assert_ne!(frames[0], frames[2], "base level 1 samples level 1");
        assert_ne!(frames[3], frames[4], "two layers");
        (frames, error)
    });
}

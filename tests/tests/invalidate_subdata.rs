//! Invalidation (`ARB_invalidate_subdata`, GL 4.3) against the native driver on both
//! backends (Vulkan with the validation layer on, which must report nothing): every error of
//! `glInvalidateTexImage`, `glInvalidateTexSubImage`, `glInvalidateBufferData`,
//! `glInvalidateBufferSubData`, `glInvalidateFramebuffer` and `glInvalidateSubFramebuffer`
//! in Mesa's order (names, levels against `TEXTURE_MAX_LEVEL` and the single-level targets,
//! boxes against each target's dimensions, ranges and mappings, default-framebuffer buffers
//! and attachment points), and that what was not invalidated is intact afterwards (the
//! contents of what was are undefined, so nothing is read from them).

#![expect(
    unsafe_code,
    reason = "the native driver's invalidation entry points, called through their C signatures"
)]

use std::ffi::c_void;

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls the shared [`Gl`] table has no entry for.
trait InvalidateGl: Gl {
    /// `glInvalidateTexImage`.
    fn invalidate_tex_image(&mut self, texture: GLuint, level: GLint);
    /// `glInvalidateTexSubImage` of `[x, y, z, width, height, depth]`.
    fn invalidate_tex_sub_image(&mut self, texture: GLuint, level: GLint, b: [GLint; 6]);
    /// `glInvalidateBufferData`.
    fn invalidate_buffer_data(&mut self, buffer: GLuint);
    /// `glInvalidateBufferSubData`.
    fn invalidate_buffer_sub_data(&mut self, buffer: GLuint, offset: isize, length: isize);
    /// `glInvalidateFramebuffer` of `count` attachments.
    fn invalidate_framebuffer(&mut self, target: GLenum, count: GLsizei, attachments: &[GLenum]);
    /// `glInvalidateSubFramebuffer` of `count` attachments and `[x, y, width, height]`.
    fn invalidate_sub_framebuffer(
        &mut self,
        target: GLenum,
        count: GLsizei,
        attachments: &[GLenum],
        rect: [GLint; 4],
    );
    /// `glMapBufferRange`, keeping the mapping.
    fn map_range(&mut self, target: GLenum, offset: isize, length: isize, access: GLbitfield);
    /// `glUnmapBuffer`.
    fn unmap(&mut self, target: GLenum);
}

impl InvalidateGl for Context {
    fn invalidate_tex_image(&mut self, texture: GLuint, level: GLint) {
        Context::invalidate_tex_image(self, texture, level)
    }
    fn invalidate_tex_sub_image(&mut self, texture: GLuint, level: GLint, b: [GLint; 6]) {
        Context::invalidate_tex_sub_image(self, texture, level, b[0], b[1], b[2], b[3], b[4], b[5])
    }
    fn invalidate_buffer_data(&mut self, buffer: GLuint) {
        Context::invalidate_buffer_data(self, buffer)
    }
    fn invalidate_buffer_sub_data(&mut self, buffer: GLuint, offset: isize, length: isize) {
        Context::invalidate_buffer_sub_data(self, buffer, offset, length)
    }
    fn invalidate_framebuffer(&mut self, target: GLenum, count: GLsizei, attachments: &[GLenum]) {
        Context::invalidate_framebuffer(self, target, count, attachments)
    }
    fn invalidate_sub_framebuffer(
        &mut self,
        target: GLenum,
        count: GLsizei,
        attachments: &[GLenum],
        rect: [GLint; 4],
    ) {
        let [x, y, w, h] = rect;
        Context::invalidate_sub_framebuffer(self, target, count, attachments, x, y, w, h)
    }
    fn map_range(&mut self, target: GLenum, offset: isize, length: isize, access: GLbitfield) {
        Context::map_buffer_range(self, target, offset, length, access);
    }
    fn unmap(&mut self, target: GLenum) {
        Context::unmap_buffer(self, target);
    }
}

/// An entry point of the native driver, by name and C signature.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl InvalidateGl for NativeGl {
    fn invalidate_tex_image(&mut self, texture: GLuint, level: GLint) {
        let f: unsafe extern "system" fn(GLuint, GLint) = native(self, "glInvalidateTexImage");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(texture, level) }
    }
    fn invalidate_tex_sub_image(&mut self, texture: GLuint, level: GLint, b: [GLint; 6]) {
        type F = unsafe extern "system" fn(
            GLuint,
            GLint,
            GLint,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
            GLsizei,
        );
        let f: F = native(self, "glInvalidateTexSubImage");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(texture, level, b[0], b[1], b[2], b[3], b[4], b[5]) }
    }
    fn invalidate_buffer_data(&mut self, buffer: GLuint) {
        let f: unsafe extern "system" fn(GLuint) = native(self, "glInvalidateBufferData");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(buffer) }
    }
    fn invalidate_buffer_sub_data(&mut self, buffer: GLuint, offset: isize, length: isize) {
        type F = unsafe extern "system" fn(GLuint, isize, isize);
        let f: F = native(self, "glInvalidateBufferSubData");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(buffer, offset, length) }
    }
    fn invalidate_framebuffer(&mut self, target: GLenum, count: GLsizei, attachments: &[GLenum]) {
        type F = unsafe extern "system" fn(GLenum, GLsizei, *const GLenum);
        let f: F = native(self, "glInvalidateFramebuffer");
        assert!(count <= 0 || count as usize <= attachments.len());
        // SAFETY: `attachments` holds the `count` values read.
        unsafe { f(target, count, attachments.as_ptr()) }
    }
    fn invalidate_sub_framebuffer(
        &mut self,
        target: GLenum,
        count: GLsizei,
        attachments: &[GLenum],
        rect: [GLint; 4],
    ) {
        type F = unsafe extern "system" fn(
            GLenum,
            GLsizei,
            *const GLenum,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
        );
        let f: F = native(self, "glInvalidateSubFramebuffer");
        assert!(count <= 0 || count as usize <= attachments.len());
        let [x, y, w, h] = rect;
        // SAFETY: `attachments` holds the `count` values read.
        unsafe { f(target, count, attachments.as_ptr(), x, y, w, h) }
    }
    fn map_range(&mut self, target: GLenum, offset: isize, length: isize, access: GLbitfield) {
        type F = unsafe extern "system" fn(GLenum, isize, isize, GLbitfield) -> *mut c_void;
        let f: F = native(self, "glMapBufferRange");
        // SAFETY: the context is current on this thread; the mapping is never touched.
        unsafe { f(target, offset, length, access) };
    }
    fn unmap(&mut self, target: GLenum) {
        let f: unsafe extern "system" fn(GLenum) -> GLboolean = native(self, "glUnmapBuffer");
        // SAFETY: the context is current on this thread.
        unsafe { f(target) };
    }
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match; returns
/// the native result.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn InvalidateGl) -> T) -> T {
    let mut native = NativeGl::new(8, 8).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 8, 8);
            let got = scene(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            // The Vulkan backend reports every rectangle texture it makes (one here, for its
            // level checks); nothing else may be reported.
            let events: Vec<Event> = ctx
                .take_events()
                .into_iter()
                .filter(|e| !matches!(e, Event::Unsupported { what } if what.starts_with("rectangle textures")))
                .collect();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    expected
}

/// What was done and the error it raised.
type Line = (String, GLenum);

fn transcript(gl: &mut dyn InvalidateGl) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let mut step = |gl: &mut dyn InvalidateGl, what: String, f: &dyn Fn(&mut dyn InvalidateGl)| {
        f(gl);
        out.push((what, gl.get_error()));
    };
    let t: Vec<GLuint> = (0..8).map(|_| gl.gen_texture()).collect();
    let image = |gl: &mut dyn InvalidateGl, target: GLenum, texture: GLuint| {
        gl.bind_texture(target, texture);
        match target {
            // Bound only: the level checks need no image.
            TEXTURE_RECTANGLE => {}
            TEXTURE_1D => {
                gl.tex_image_1d(target, 0, RGBA8 as GLint, 4, 0, RGBA, UNSIGNED_BYTE, None)
            }
            TEXTURE_2D_ARRAY | TEXTURE_3D => gl.tex_image_3d(
                target,
                0,
                RGBA8 as GLint,
                4,
                4,
                5,
                0,
                RGBA,
                UNSIGNED_BYTE,
                None,
            ),
            TEXTURE_CUBE_MAP => {
                for face in 0..6 {
                    let f = TEXTURE_CUBE_MAP_POSITIVE_X + face;
                    gl.tex_image_2d(f, 0, RGBA8 as GLint, 4, 4, 0, RGBA, UNSIGNED_BYTE, None);
                }
            }
            TEXTURE_2D_MULTISAMPLE => {
                gl.tex_image_2d_multisample(target, 4, RGBA8 as GLint, 4, 4, TRUE as GLboolean)
            }
            _ => gl.tex_image_2d(
                target,
                0,
                RGBA8 as GLint,
                16,
                8,
                0,
                RGBA,
                UNSIGNED_BYTE,
                None,
            ),
        }
    };
    step(gl, "tex: name 0".into(), &|gl| {
        gl.invalidate_tex_image(0, 0)
    });
    step(gl, "tex: no such name".into(), &|gl| {
        gl.invalidate_tex_image(999, 0)
    });
    let unbound = t[7];
    step(gl, "tex: generated, level 0".into(), &|gl| {
        gl.invalidate_tex_image(unbound, 0)
    });
    step(gl, "tex: generated, level 1000".into(), &|gl| {
        gl.invalidate_tex_image(unbound, 1000)
    });
    step(gl, "tex: generated, level 1001".into(), &|gl| {
        gl.invalidate_tex_image(unbound, 1001)
    });
    for (target, name) in [
        (TEXTURE_2D, t[0]),
        (TEXTURE_CUBE_MAP, t[1]),
        (TEXTURE_2D_ARRAY, t[2]),
        (TEXTURE_3D, t[3]),
        (TEXTURE_RECTANGLE, t[4]),
        (TEXTURE_1D, t[5]),
        (TEXTURE_2D_MULTISAMPLE, t[6]),
    ] {
        image(gl, target, name);
        for level in [-1, 0, 1, 3, 15, 1000, 1001] {
            step(gl, format!("tex {target:#x} level {level}"), &|gl| {
                gl.invalidate_tex_image(name, level)
            });
        }
        for b in [
            [0, 0, 0, 16, 8, 1],
            [0, 0, 0, 4, 4, 1],
            [-1, 0, 0, 4, 4, 1],
            [1, 0, 0, 16, 8, 1],
            [0, 1, 0, 16, 8, 1],
            [0, 0, 0, 4, 4, 2],
            [0, 0, 1, 4, 4, 1],
            [0, 0, -1, 4, 4, 1],
            [0, 0, 0, 4, 4, 5],
            [0, 0, 1, 4, 4, 5],
            [0, 0, 0, 4, 4, 6],
            [0, 0, 0, 4, 2, 1],
            [4, 4, 0, -2, -2, -2],
            [0, 0, 0, 0, 0, 0],
        ] {
            step(gl, format!("tex {target:#x} box {b:?}"), &|gl| {
                gl.invalidate_tex_sub_image(name, 0, b)
            });
        }
        // A level without an image has no box to check. (Not asked of the single-level
        // targets: native llvmpipe crashes in glInvalidateTexSubImage of their level 2.)
        if !matches!(target, TEXTURE_RECTANGLE | TEXTURE_2D_MULTISAMPLE) {
            step(gl, format!("tex {target:#x} level 2 box"), &|gl| {
                gl.invalidate_tex_sub_image(name, 2, [0, 0, 0, 99, 99, 99])
            });
        }
    }
    gl.bind_texture(TEXTURE_2D, t[0]);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAX_LEVEL, 2);
    step(gl, "tex: level 3 over MAX_LEVEL 2".into(), &|gl| {
        gl.invalidate_tex_image(t[0], 3)
    });
    step(gl, "tex: level 2 at MAX_LEVEL 2".into(), &|gl| {
        gl.invalidate_tex_image(t[0], 2)
    });

    let unbound_buffer = gl.gen_buffer();
    let b = gl.gen_buffer();
    step(gl, "buffer: 0".into(), &|gl| gl.invalidate_buffer_data(0));
    step(gl, "buffer: no such name".into(), &|gl| {
        gl.invalidate_buffer_data(999)
    });
    step(gl, "buffer: generated".into(), &|gl| {
        gl.invalidate_buffer_data(unbound_buffer)
    });
    step(gl, "buffer: generated, sub".into(), &|gl| {
        gl.invalidate_buffer_sub_data(unbound_buffer, 0, 0)
    });
    gl.bind_buffer(ARRAY_BUFFER, b);
    step(gl, "buffer: no storage".into(), &|gl| {
        gl.invalidate_buffer_data(b)
    });
    step(gl, "buffer: no storage, sub".into(), &|gl| {
        gl.invalidate_buffer_sub_data(b, 0, 0)
    });
    let bytes: Vec<u8> = (0..64).collect();
    gl.buffer_data(ARRAY_BUFFER, 64, Some(&bytes), STATIC_DRAW);
    for (offset, length) in [(0, 64), (8, 57), (-1, 4), (4, -1), (64, 0), (16, 16)] {
        step(gl, format!("buffer sub {offset} {length}"), &|gl| {
            gl.invalidate_buffer_sub_data(b, offset, length)
        });
    }
    step(gl, "buffer: whole".into(), &|gl| {
        gl.invalidate_buffer_data(b)
    });
    gl.bind_buffer(ARRAY_BUFFER, b);
    gl.buffer_data(ARRAY_BUFFER, 64, Some(&bytes), STATIC_DRAW);
    gl.map_range(ARRAY_BUFFER, 16, 16, MAP_READ_BIT);
    step(gl, "mapped: whole".into(), &|gl| {
        gl.invalidate_buffer_data(b)
    });
    for (offset, length) in [
        (0, 16),
        (0, 17),
        (32, 16),
        (31, 16),
        (20, 0),
        (16, 0),
        (32, 0),
    ] {
        step(gl, format!("mapped: sub {offset} {length}"), &|gl| {
            gl.invalidate_buffer_sub_data(b, offset, length)
        });
    }
    gl.unmap(ARRAY_BUFFER);

    let all = [COLOR, DEPTH, STENCIL, BACK_LEFT];
    step(gl, "default: all".into(), &|gl| {
        gl.invalidate_framebuffer(FRAMEBUFFER, 4, &all)
    });
    step(gl, "bad target".into(), &|gl| {
        gl.invalidate_framebuffer(0x1234, 1, &all)
    });
    step(gl, "negative count".into(), &|gl| {
        gl.invalidate_framebuffer(FRAMEBUFFER, -1, &all)
    });
    step(gl, "no attachments".into(), &|gl| {
        gl.invalidate_framebuffer(FRAMEBUFFER, 0, &[])
    });
    for a in [
        COLOR_ATTACHMENT0,
        FRONT_LEFT,
        FRONT_RIGHT,
        BACK_RIGHT,
        FRONT,
        BACK,
        DEPTH_ATTACHMENT,
        DEPTH_STENCIL,
        NONE,
        FRONT_AND_BACK,
        LEFT,
    ] {
        step(gl, format!("default: {a:#x}"), &|gl| {
            gl.invalidate_framebuffer(DRAW_FRAMEBUFFER, 1, &[a])
        });
    }
    let fbo = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fbo);
    for a in [
        COLOR_ATTACHMENT0,
        COLOR_ATTACHMENT7,
        COLOR_ATTACHMENT8,
        COLOR_ATTACHMENT15,
        COLOR_ATTACHMENT15 + 1,
        DEPTH_ATTACHMENT,
        STENCIL_ATTACHMENT,
        DEPTH_STENCIL_ATTACHMENT,
        COLOR,
        DEPTH,
        BACK_LEFT,
        NONE,
    ] {
        step(gl, format!("fbo: {a:#x}"), &|gl| {
            gl.invalidate_framebuffer(READ_FRAMEBUFFER, 1, &[a])
        });
    }
    let first_bad = [COLOR_ATTACHMENT8, 0x1234];
    let first_enum = [0x1234, COLOR_ATTACHMENT8];
    step(gl, "fbo: operation first".into(), &|gl| {
        gl.invalidate_framebuffer(FRAMEBUFFER, 2, &first_bad)
    });
    step(gl, "fbo: enum first".into(), &|gl| {
        gl.invalidate_framebuffer(FRAMEBUFFER, 2, &first_enum)
    });
    let color = [COLOR_ATTACHMENT0];
    for (what, target, count, attachments, rect) in [
        ("sub", FRAMEBUFFER, 1, &color[..], [0, 0, 4, 4]),
        (
            "sub: negative width",
            FRAMEBUFFER,
            1,
            &color[..],
            [0, 0, -4, 4],
        ),
        (
            "sub: negative height",
            FRAMEBUFFER,
            1,
            &color[..],
            [0, 0, 4, -4],
        ),
        (
            "sub: anywhere",
            FRAMEBUFFER,
            1,
            &color[..],
            [-3, -3, 400, 400],
        ),
        (
            "sub: negative count",
            FRAMEBUFFER,
            -1,
            &color[..],
            [0, 0, -4, 4],
        ),
        (
            "sub: size before attachments",
            FRAMEBUFFER,
            2,
            &first_enum[..],
            [0, 0, -4, 4],
        ),
        ("sub: target first", 0, 1, &first_enum[..], [0, 0, -4, 4]),
    ] {
        step(gl, what.into(), &|gl| {
            gl.invalidate_sub_framebuffer(target, count, attachments, rect)
        });
    }
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    out
}

#[test]
fn invalidation_errors_match_the_native_driver() {
    let expected = compare(transcript);
    let find = |what: &str| {
        expected
            .iter()
            .find(|l| l.0 == what)
            .unwrap_or_else(|| panic!("{what}"))
            .1
    };
    assert_eq!(find("tex: name 0"), INVALID_VALUE);
    assert_eq!(find("tex: generated, level 0"), NO_ERROR);
    assert_eq!(find("tex: level 3 over MAX_LEVEL 2"), INVALID_VALUE);
    assert_eq!(find("buffer: generated"), INVALID_VALUE);
    assert_eq!(find("mapped: sub 20 0"), INVALID_OPERATION);
    assert_eq!(find("fbo: 0x8ce8"), INVALID_OPERATION);
    assert_eq!(find("default: 0x8ce0"), INVALID_ENUM);
}

/// A buffer and the default framebuffer after invalidating parts of them: the parts not
/// invalidated keep their contents (bytes 0..16 and 48..64 of the buffer, the pixels
/// outside the invalidated rectangle).
fn kept(gl: &mut dyn InvalidateGl) -> (Vec<u8>, Vec<u8>) {
    let bytes: Vec<u8> = (0..64).collect();
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    gl.buffer_data(ARRAY_BUFFER, 64, Some(&bytes), STATIC_DRAW);
    gl.invalidate_buffer_sub_data(b, 16, 32);
    let mut buffer = vec![0; 64];
    gl.get_buffer_sub_data(ARRAY_BUFFER, 0, &mut buffer);
    buffer.drain(16..48);
    gl.viewport(0, 0, 8, 8);
    gl.clear_color(0.25, 0.5, 0.75, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.invalidate_sub_framebuffer(FRAMEBUFFER, 1, &[COLOR], [0, 0, 4, 8]);
    let mut pixels = vec![0u8; 4 * 8 * 8];
    gl.read_pixels(4, 0, 4, 8, RGBA, UNSIGNED_BYTE, &mut pixels[..4 * 4 * 8]);
    pixels.truncate(4 * 4 * 8);
    assert_eq!(gl.get_error(), NO_ERROR);
    (buffer, pixels)
}

#[test]
fn what_is_not_invalidated_is_kept() {
    let (buffer, pixels) = compare(kept);
    assert_eq!(buffer[..16], (0..16).collect::<Vec<u8>>());
    assert_eq!(pixels[..4], [64, 128, 191, 255]);
}

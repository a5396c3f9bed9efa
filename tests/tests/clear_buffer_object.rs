//! Buffer clears (`ARB_clear_buffer_object`, GL 4.3) against the native driver on both
//! backends (Vulkan with the validation layer on, which must report nothing):
//! `glClearBufferData` and `glClearBufferSubData` with texels of 1 to 16 bytes converted
//! from other client formats and types (normalized values clamped and rounded, integers
//! clamped, BGRA, packed types, half floats, no data for zeros), ranges that Vulkan fills
//! with `vkCmdFillBuffer` and ones it writes, and every error in Mesa's order (targets, no
//! buffer, ranges, mappings, internal formats, integer against non-integer data, formats
//! and types, texel alignment). The bytes are read back from the backend
//! (`glGetBufferSubData`) and through a mapping (the client's copy): exactly the native
//! ones.

#![expect(
    unsafe_code,
    reason = "the native driver's buffer-clear and mapping entry points, called through their C signatures"
)]

use std::ffi::c_void;

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls the shared [`Gl`] table has no entry for.
trait ClearGl: Gl {
    /// `glClearBufferData`.
    fn clear_data(
        &mut self,
        target: GLenum,
        internal: GLenum,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    );
    /// `glClearBufferSubData`.
    #[allow(clippy::too_many_arguments, reason = "mirrors glClearBufferSubData")]
    fn clear_sub_data(
        &mut self,
        target: GLenum,
        internal: GLenum,
        offset: isize,
        size: isize,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    );
    /// `glMapBufferRange`, keeping the mapping.
    fn map_range(&mut self, target: GLenum, offset: isize, length: isize, access: GLbitfield);
    /// `glUnmapBuffer`.
    fn unmap(&mut self, target: GLenum);
}

impl ClearGl for Context {
    fn clear_data(
        &mut self,
        target: GLenum,
        internal: GLenum,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) {
        Context::clear_buffer_data(self, target, internal, format, ty, data)
    }
    fn clear_sub_data(
        &mut self,
        target: GLenum,
        internal: GLenum,
        offset: isize,
        size: isize,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) {
        Context::clear_buffer_sub_data(self, target, internal, offset, size, format, ty, data)
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

/// The data pointer of a clear: null for none.
fn data_ptr(data: Option<&[u8]>) -> *const c_void {
    data.map_or(std::ptr::null(), |d| d.as_ptr().cast())
}

impl ClearGl for NativeGl {
    fn clear_data(
        &mut self,
        target: GLenum,
        internal: GLenum,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) {
        type F = unsafe extern "system" fn(GLenum, GLenum, GLenum, GLenum, *const c_void);
        let f: F = native(self, "glClearBufferData");
        // SAFETY: the data holds one pixel of the format and type (16 bytes at most, and
        // every caller gives 16).
        unsafe { f(target, internal, format, ty, data_ptr(data)) }
    }
    fn clear_sub_data(
        &mut self,
        target: GLenum,
        internal: GLenum,
        offset: isize,
        size: isize,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) {
        type F =
            unsafe extern "system" fn(GLenum, GLenum, isize, isize, GLenum, GLenum, *const c_void);
        let f: F = native(self, "glClearBufferSubData");
        // SAFETY: as in `clear_data`.
        unsafe { f(target, internal, offset, size, format, ty, data_ptr(data)) }
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
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn ClearGl) -> T) -> T {
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
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    expected
}

/// 16 bytes of client data, read as each format and type needs.
fn bytes_of<T: Copy>(values: &[T]) -> Vec<u8> {
    let mut out = vec![0u8; 16];
    let n = size_of_val(values).min(16);
    // SAFETY: plain numbers, read as their bytes.
    let src = unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), n) };
    out[..n].copy_from_slice(src);
    out
}

/// One line: what was done, the error, and the buffer's bytes read back after it.
type Line = (&'static str, GLenum, Vec<u8>);

/// The buffer's 48 bytes, from the backend.
fn contents(gl: &mut dyn ClearGl) -> Vec<u8> {
    let mut out = vec![0u8; 48];
    gl.get_buffer_sub_data(ARRAY_BUFFER, 0, &mut out);
    out
}

fn transcript(gl: &mut dyn ClearGl) -> Vec<Line> {
    let ub = bytes_of(&[
        0x11u8, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
        0x01,
    ]);
    let fl = bytes_of(&[0.5f32, 1.5, -1.0, 0.25]);
    let int = bytes_of(&[-2i32, 300, 70_000, -70_000]);
    let us = bytes_of(&[0xf81fu16, 2, 3, 40_000]);
    let half = bytes_of(&[0x3c00u16, 0xc000, 0x3555, 0x7bff]);
    let mut out: Vec<Line> = Vec::new();
    // Whether the bound buffer can be read back (it has its 48 bytes and is not mapped).
    let readable = std::cell::Cell::new(false);
    let mut step = |gl: &mut dyn ClearGl, what: &'static str, f: &dyn Fn(&mut dyn ClearGl)| {
        f(gl);
        let e = gl.get_error();
        let bytes = if readable.get() {
            contents(gl)
        } else {
            Vec::new()
        };
        out.push((what, e, bytes));
    };
    step(gl, "no buffer", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R8, RED, UNSIGNED_BYTE, Some(&ub))
    });
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    step(gl, "no storage", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R8, RED, UNSIGNED_BYTE, Some(&ub))
    });
    gl.buffer_data(ARRAY_BUFFER, 48, None, STATIC_DRAW);
    readable.set(true);
    step(gl, "bad target", &|gl| {
        gl.clear_data(0x1234, R8, RED, UNSIGNED_BYTE, Some(&ub))
    });
    step(gl, "R8", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R8, RED, UNSIGNED_BYTE, Some(&ub))
    });
    step(gl, "RGBA8 from floats", &|gl| {
        gl.clear_data(ARRAY_BUFFER, RGBA8, RGBA, FLOAT, Some(&fl))
    });
    step(gl, "RGBA8 from 5-6-5", &|gl| {
        gl.clear_data(ARRAY_BUFFER, RGBA8, RGB, UNSIGNED_SHORT_5_6_5, Some(&us))
    });
    step(gl, "RGBA8 from BGRA", &|gl| {
        gl.clear_data(ARRAY_BUFFER, RGBA8, BGRA, UNSIGNED_BYTE, Some(&ub))
    });
    step(gl, "RG16F from floats", &|gl| {
        gl.clear_data(ARRAY_BUFFER, RG16F, RG, FLOAT, Some(&fl))
    });
    step(gl, "R16 from floats", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R16, RED, FLOAT, Some(&fl))
    });
    step(gl, "R32F from halves", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R32F, RED, HALF_FLOAT, Some(&half))
    });
    step(gl, "RGB32F", &|gl| {
        gl.clear_data(ARRAY_BUFFER, RGB32F, RGB, FLOAT, Some(&fl))
    });
    step(gl, "RGBA32F from RED", &|gl| {
        gl.clear_data(ARRAY_BUFFER, RGBA32F, RED, FLOAT, Some(&fl))
    });
    step(gl, "RGB32I", &|gl| {
        gl.clear_data(ARRAY_BUFFER, RGB32I, RGB_INTEGER, INT, Some(&int))
    });
    step(gl, "RG8I from ints", &|gl| {
        gl.clear_data(ARRAY_BUFFER, RG8I, RG_INTEGER, INT, Some(&int))
    });
    step(gl, "RGBA8UI", &|gl| {
        gl.clear_data(
            ARRAY_BUFFER,
            RGBA8UI,
            RGBA_INTEGER,
            UNSIGNED_BYTE,
            Some(&ub),
        )
    });
    step(gl, "R16UI from ints", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R16UI, RED_INTEGER, INT, Some(&int))
    });
    step(gl, "RGBA16UI from shorts", &|gl| {
        gl.clear_data(
            ARRAY_BUFFER,
            RGBA16UI,
            RGBA_INTEGER,
            UNSIGNED_SHORT,
            Some(&us),
        )
    });
    step(gl, "RG32UI from bytes", &|gl| {
        gl.clear_data(ARRAY_BUFFER, RG32UI, BGR_INTEGER, UNSIGNED_BYTE, Some(&ub))
    });
    step(gl, "RGBA32I", &|gl| {
        gl.clear_data(ARRAY_BUFFER, RGBA32I, RGBA_INTEGER, INT, Some(&int))
    });
    step(gl, "no data", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R32F, RED, FLOAT, None)
    });
    step(gl, "RGB8", &|gl| {
        gl.clear_data(ARRAY_BUFFER, RGB8, RGB, UNSIGNED_BYTE, Some(&ub))
    });
    step(gl, "R8I from RED", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R8I, RED, UNSIGNED_BYTE, Some(&ub))
    });
    step(gl, "R8 from RED_INTEGER", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R8, RED_INTEGER, UNSIGNED_BYTE, Some(&ub))
    });
    step(gl, "depth", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R32F, DEPTH_COMPONENT, FLOAT, Some(&fl))
    });
    step(gl, "stencil", &|gl| {
        gl.clear_data(ARRAY_BUFFER, RGBA8, STENCIL_INDEX, UNSIGNED_BYTE, Some(&ub))
    });
    step(gl, "bad type", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R32F, RED, 0x1234, Some(&fl))
    });
    step(gl, "packed type of RED", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R32F, RED, UNSIGNED_SHORT_5_6_5, Some(&fl))
    });
    step(gl, "bad format", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R32F, 0x1234, FLOAT, Some(&fl))
    });
    step(gl, "integer format, float type", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R32I, RED_INTEGER, FLOAT, Some(&fl))
    });
    step(gl, "RGBA8I from floats", &|gl| {
        gl.clear_data(ARRAY_BUFFER, RGBA8I, RGBA, FLOAT, Some(&fl))
    });

    let sub = |internal, offset, size, format, ty, data: &[u8]| {
        let data = data.to_vec();
        move |gl: &mut dyn ClearGl| {
            gl.clear_sub_data(
                ARRAY_BUFFER,
                internal,
                offset,
                size,
                format,
                ty,
                Some(&data),
            )
        }
    };
    step(gl, "sub RG8", &sub(RG8, 4, 8, RG, UNSIGNED_BYTE, &ub[4..]));
    step(
        gl,
        "sub R8 unaligned",
        &sub(R8, 13, 7, RED, UNSIGNED_BYTE, &ub[8..]),
    );
    step(
        gl,
        "sub RG16 from floats",
        &sub(RG16, 22, 6, RG, FLOAT, &fl),
    );
    step(gl, "sub RGBA16F", &sub(RGBA16F, 32, 16, RGBA, FLOAT, &fl));
    step(
        gl,
        "sub RGB32UI",
        &sub(RGB32UI, 24, 12, RGB_INTEGER, UNSIGNED_INT, &int),
    );
    step(
        gl,
        "sub offset misaligned",
        &sub(RG8, 3, 8, RG, UNSIGNED_BYTE, &ub),
    );
    step(
        gl,
        "sub size misaligned",
        &sub(RG8, 4, 7, RG, UNSIGNED_BYTE, &ub),
    );
    step(
        gl,
        "sub negative offset",
        &sub(RG8, -2, 8, RG, UNSIGNED_BYTE, &ub),
    );
    step(
        gl,
        "sub negative size",
        &sub(RG8, 2, -2, RG, UNSIGNED_BYTE, &ub),
    );
    step(
        gl,
        "sub past the end",
        &sub(RG8, 44, 8, RG, UNSIGNED_BYTE, &ub),
    );
    step(
        gl,
        "sub empty at the end",
        &sub(RG8, 48, 0, RG, UNSIGNED_BYTE, &ub),
    );
    step(
        gl,
        "sub bad format before alignment",
        &sub(RGB8, 3, 7, RG, UNSIGNED_BYTE, &ub),
    );
    step(
        gl,
        "sub RGB32F misaligned",
        &sub(RGB32F, 4, 12, RGB, FLOAT, &fl),
    );

    gl.map_range(ARRAY_BUFFER, 8, 8, MAP_WRITE_BIT);
    readable.set(false);
    step(gl, "mapped: whole", &|gl| {
        gl.clear_data(ARRAY_BUFFER, R8, RED, UNSIGNED_BYTE, Some(&ub))
    });
    step(
        gl,
        "mapped: sub before",
        &sub(R8, 0, 8, RED, UNSIGNED_BYTE, &ub),
    );
    step(
        gl,
        "mapped: sub after",
        &sub(R8, 16, 8, RED, UNSIGNED_BYTE, &ub[1..]),
    );
    step(
        gl,
        "mapped: sub overlapping",
        &sub(R8, 4, 8, RED, UNSIGNED_BYTE, &ub),
    );
    step(
        gl,
        "mapped: sub inside",
        &sub(R8, 8, 8, RED, UNSIGNED_BYTE, &ub),
    );
    step(
        gl,
        "mapped: sub empty",
        &sub(R8, 0, 0, RED, UNSIGNED_BYTE, &ub),
    );
    step(
        gl,
        "mapped: sub bad format",
        &sub(RGB8, 0, 8, RED, UNSIGNED_BYTE, &ub),
    );
    gl.unmap(ARRAY_BUFFER);
    readable.set(true);
    step(gl, "unmapped", &|_| {});
    // The client's copy: a mapping for reading answers from it where it knows the bytes.
    step(
        gl,
        "clear before a map",
        &sub(RGBA8, 16, 16, RGBA, UNSIGNED_BYTE, &ub[8..]),
    );
    let mapped = gl.read_mapped(ARRAY_BUFFER, 0, 48);
    out.push(("read through a mapping", gl.get_error(), mapped));
    out
}

#[test]
fn buffer_clears_match_the_native_driver() {
    let expected = compare(transcript);
    let find = |what: &str| {
        expected
            .iter()
            .find(|l| l.0 == what)
            .unwrap_or_else(|| panic!("{what}"))
            .clone()
    };
    assert_eq!(find("no buffer").1, INVALID_VALUE);
    assert_eq!(find("R8").2, [0x11; 48]);
    assert_eq!(find("RGBA8 from floats").2[..4], [0x80, 0xff, 0x00, 0x40]);
    assert_eq!(find("R8I from RED").1, INVALID_OPERATION);
    assert_eq!(find("mapped: sub overlapping").1, INVALID_OPERATION);
    assert_eq!(find("mapped: sub after").1, NO_ERROR);
}

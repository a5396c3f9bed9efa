//! Mapping alignment (GL 4.2's `ARB_map_buffer_alignment`) against the native driver on
//! both backends: `MIN_MAP_BUFFER_ALIGNMENT` is 64, and the address `glMapBufferRange`
//! returns minus the mapped offset is a multiple of it, for read maps at offsets on and off
//! that grid, each showing the buffer's bytes.

#![expect(
    unsafe_code,
    reason = "the native driver's glMapBufferRange, and reading the memory it maps"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls these scenes make that the shared [`Gl`] table has no entry for.
trait MapGl: Gl {
    /// `glMapBufferRange` of `target`: the address it returned and the `len` bytes there.
    fn map_range(
        &mut self,
        target: GLenum,
        offset: usize,
        len: usize,
        access: GLbitfield,
    ) -> (usize, Vec<u8>);
    /// `glUnmapBuffer`.
    fn unmap(&mut self, target: GLenum) -> bool;
}

impl MapGl for Context {
    fn map_range(
        &mut self,
        target: GLenum,
        offset: usize,
        len: usize,
        access: GLbitfield,
    ) -> (usize, Vec<u8>) {
        let p = self.map_buffer_range(target, offset as GLintptr, len as GLsizeiptr, access);
        let bytes = self.with_mapped(target, |b| b.to_vec()).unwrap_or_default();
        (p as usize, bytes)
    }
    fn unmap(&mut self, target: GLenum) -> bool {
        self.unmap_buffer(target) != 0
    }
}

impl MapGl for NativeGl {
    fn map_range(
        &mut self,
        target: GLenum,
        offset: usize,
        len: usize,
        access: GLbitfield,
    ) -> (usize, Vec<u8>) {
        type F = unsafe extern "system" fn(GLenum, GLintptr, GLsizeiptr, GLbitfield) -> *mut u8;
        let f: F = self
            .entry_point("glMapBufferRange")
            .expect("glMapBufferRange");
        // SAFETY: the driver's glMapBufferRange with its C signature, the context current.
        let p = unsafe { f(target, offset as GLintptr, len as GLsizeiptr, access) };
        let bytes = if p.is_null() {
            Vec::new()
        } else {
            // SAFETY: a successful read map of `len` bytes is readable at `p` until unmapped.
            unsafe { std::slice::from_raw_parts(p, len) }.to_vec()
        };
        (p as usize, bytes)
    }
    fn unmap(&mut self, target: GLenum) -> bool {
        type F = unsafe extern "system" fn(GLenum) -> GLboolean;
        let f: F = self.entry_point("glUnmapBuffer").expect("glUnmapBuffer");
        // SAFETY: the driver's glUnmapBuffer with its C signature, the context current.
        unsafe { f(target) != 0 }
    }
}

/// One map: its offset, length, the address minus the offset modulo 64, the bytes seen,
/// the error, and what unmapping returned.
type Line = (usize, usize, usize, Vec<u8>, GLenum, bool);

/// `MIN_MAP_BUFFER_ALIGNMENT`, then read maps of a 300-byte buffer at offsets on and off
/// the 64-byte grid.
fn transcript(gl: &mut dyn MapGl) -> (GLint, Vec<Line>) {
    let mut align = [-7];
    gl.get_integerv(MIN_MAP_BUFFER_ALIGNMENT, &mut align);
    let data: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
    let b = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, b);
    gl.buffer_data(ARRAY_BUFFER, data.len(), Some(&data), STATIC_DRAW);
    let mut out = Vec::new();
    for (offset, len) in [
        (0, 300),
        (1, 17),
        (63, 64),
        (64, 100),
        (100, 7),
        (129, 171),
        (255, 45),
    ] {
        let (p, bytes) = gl.map_range(ARRAY_BUFFER, offset, len, MAP_READ_BIT);
        let e = gl.get_error();
        let unmapped = gl.unmap(ARRAY_BUFFER);
        out.push((offset, len, p.wrapping_sub(offset) % 64, bytes, e, unmapped));
    }
    (align[0], out)
}

#[test]
fn maps_are_aligned_as_on_the_native_driver() {
    let mut native = NativeGl::new(8, 8).expect("native desktop GL through the system EGL");
    let expected = transcript(&mut native);
    drop(native);
    assert_eq!(expected.0, 64);
    assert!(expected.1.iter().all(|l| l.2 == 0 && l.4 == NO_ERROR));
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 8, 8);
            let got = transcript(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

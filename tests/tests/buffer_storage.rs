//! Immutable buffer storage and persistent mappings (GL 4.4's `ARB_buffer_storage`) and the
//! buffer functions of direct state access (GL 4.5), against the native driver:
//!
//! - the errors and queries of `glBufferStorage`, of maps that ask for what the storage does
//!   not allow, of updates to immutable storage, and of the named forms, call by call;
//! - the block-game pattern: every frame writes vertices into a persistently mapped, coherent
//!   buffer (a ring of three sections guarded by fences, never flushed explicitly) and draws
//!   them, giving native's pixels on both backends in process and over `shm`, `unix:` and
//!   `tcp://` to a `tessera-server`;
//! - a persistent read mapping sees what the GPU copied into the buffer once a fence has
//!   signalled, with no map or read call in between;
//! - a DSA-only program (no `glBind*` but to draw) draws native's pixels.

#![expect(
    unsafe_code,
    reason = "the native driver's entry points, and writing and reading the memory a persistent \
              mapping hands out, as a program does"
)]

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, read_back, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

use crate::transport::Server;

/// The calls these tests make that the shared [`Gl`] table has no entry for.
trait StorageGl: Gl {
    fn storage(&mut self, target: GLenum, size: isize, data: Option<&[u8]>, flags: u32);
    fn named_buffer_storage(&mut self, b: GLuint, size: isize, data: Option<&[u8]>, flags: u32);
    fn named_buffer_data(&mut self, b: GLuint, size: isize, data: Option<&[u8]>, usage: GLenum);
    fn named_buffer_sub_data(&mut self, b: GLuint, offset: isize, data: &[u8]);
    fn create_buffers(&mut self, n: usize) -> Vec<GLuint>;
    fn is_buffer_(&mut self, b: GLuint) -> bool;
    fn map_range(&mut self, target: GLenum, offset: isize, len: isize, access: u32) -> *mut u8;
    fn map_named_range(&mut self, b: GLuint, offset: isize, len: isize, access: u32) -> *mut u8;
    fn unmap_(&mut self, target: GLenum) -> bool;
    fn unmap_named(&mut self, b: GLuint) -> bool;
    fn flush_named_range(&mut self, b: GLuint, offset: isize, len: isize);
    fn copy_named(&mut self, src: GLuint, dst: GLuint, so: isize, do_: isize, size: isize);
    fn buffer_parameter(&mut self, target: GLenum, pname: GLenum) -> i64;
    fn named_buffer_parameter(&mut self, b: GLuint, pname: GLenum) -> i64;
    fn get_named_sub_data(&mut self, b: GLuint, offset: isize, len: usize) -> Vec<u8>;
    fn clear_named(&mut self, b: GLuint, internal: GLenum, format: GLenum, ty: GLenum, px: &[u8]);
    fn fence(&mut self) -> u64;
    fn wait(&mut self, sync: u64) -> GLenum;
    fn delete_fence(&mut self, sync: u64);
    fn events(&mut self) -> String {
        String::new()
    }
}

impl StorageGl for Context {
    fn storage(&mut self, target: GLenum, size: isize, data: Option<&[u8]>, flags: u32) {
        Context::buffer_storage(self, target, size, data, flags);
    }
    fn named_buffer_storage(&mut self, b: GLuint, size: isize, data: Option<&[u8]>, flags: u32) {
        Context::named_buffer_storage(self, b, size, data, flags);
    }
    fn named_buffer_data(&mut self, b: GLuint, size: isize, data: Option<&[u8]>, usage: GLenum) {
        Context::named_buffer_data(self, b, size, data, usage);
    }
    fn named_buffer_sub_data(&mut self, b: GLuint, offset: isize, data: &[u8]) {
        Context::named_buffer_sub_data(self, b, offset, data.len() as isize, data);
    }
    fn create_buffers(&mut self, n: usize) -> Vec<GLuint> {
        let mut names = vec![0; n];
        Context::create_buffers(self, n as GLsizei, &mut names);
        names
    }
    fn is_buffer_(&mut self, b: GLuint) -> bool {
        self.is_buffer(b) != 0
    }
    fn map_range(&mut self, target: GLenum, offset: isize, len: isize, access: u32) -> *mut u8 {
        self.map_buffer_range(target, offset, len, access)
    }
    fn map_named_range(&mut self, b: GLuint, offset: isize, len: isize, access: u32) -> *mut u8 {
        self.map_named_buffer_range(b, offset, len, access)
    }
    fn unmap_(&mut self, target: GLenum) -> bool {
        self.unmap_buffer(target) != 0
    }
    fn unmap_named(&mut self, b: GLuint) -> bool {
        self.unmap_named_buffer(b) != 0
    }
    fn flush_named_range(&mut self, b: GLuint, offset: isize, len: isize) {
        self.flush_mapped_named_buffer_range(b, offset, len);
    }
    fn copy_named(&mut self, src: GLuint, dst: GLuint, so: isize, do_: isize, size: isize) {
        self.copy_named_buffer_sub_data(src, dst, so, do_, size);
    }
    fn buffer_parameter(&mut self, target: GLenum, pname: GLenum) -> i64 {
        let mut v = [-1];
        self.get_buffer_parameteri64v(target, pname, &mut v);
        v[0]
    }
    fn named_buffer_parameter(&mut self, b: GLuint, pname: GLenum) -> i64 {
        let mut v = [-1];
        self.get_named_buffer_parameteri64v(b, pname, &mut v);
        v[0]
    }
    fn get_named_sub_data(&mut self, b: GLuint, offset: isize, len: usize) -> Vec<u8> {
        let mut out = vec![0xEE; len];
        self.get_named_buffer_sub_data(b, offset, len as isize, &mut out);
        out
    }
    fn clear_named(&mut self, b: GLuint, internal: GLenum, format: GLenum, ty: GLenum, px: &[u8]) {
        self.clear_named_buffer_data(b, internal, format, ty, Some(px));
    }
    fn fence(&mut self) -> u64 {
        self.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0)
    }
    fn wait(&mut self, sync: u64) -> GLenum {
        self.client_wait_sync(sync, SYNC_FLUSH_COMMANDS_BIT, WAIT_NS)
    }
    fn delete_fence(&mut self, sync: u64) {
        self.delete_sync(sync);
    }
    fn events(&mut self) -> String {
        format!("{:?}", self.take_events())
    }
}

/// How long a fence wait may take (a finite timeout: llvmpipe's fence wait fails on an
/// infinite one).
const WAIT_NS: u64 = 10_000_000_000;

/// A native entry point of C type `$ty`, called with `$args`.
macro_rules! native {
    ($gl:expr, $name:literal, $ty:ty, $($arg:expr),*) => {{
        let f: $ty = $gl.entry_point($name).expect($name);
        // SAFETY: the driver's entry point with its C signature; the context is current on
        // this thread and every pointer argument is valid for the call.
        unsafe { f($($arg),*) }
    }};
}

fn data_ptr(data: Option<&[u8]>) -> *const u8 {
    data.map_or(std::ptr::null(), <[u8]>::as_ptr)
}

impl StorageGl for NativeGl {
    fn storage(&mut self, target: GLenum, size: isize, data: Option<&[u8]>, flags: u32) {
        type F = unsafe extern "system" fn(GLenum, isize, *const u8, u32);
        native!(
            self,
            "glBufferStorage",
            F,
            target,
            size,
            data_ptr(data),
            flags
        )
    }
    fn named_buffer_storage(&mut self, b: GLuint, size: isize, data: Option<&[u8]>, flags: u32) {
        type F = unsafe extern "system" fn(GLuint, isize, *const u8, u32);
        native!(
            self,
            "glNamedBufferStorage",
            F,
            b,
            size,
            data_ptr(data),
            flags
        )
    }
    fn named_buffer_data(&mut self, b: GLuint, size: isize, data: Option<&[u8]>, usage: GLenum) {
        type F = unsafe extern "system" fn(GLuint, isize, *const u8, GLenum);
        native!(self, "glNamedBufferData", F, b, size, data_ptr(data), usage)
    }
    fn named_buffer_sub_data(&mut self, b: GLuint, offset: isize, data: &[u8]) {
        type F = unsafe extern "system" fn(GLuint, isize, isize, *const u8);
        native!(
            self,
            "glNamedBufferSubData",
            F,
            b,
            offset,
            data.len() as isize,
            data.as_ptr()
        )
    }
    fn create_buffers(&mut self, n: usize) -> Vec<GLuint> {
        type F = unsafe extern "system" fn(GLsizei, *mut GLuint);
        let mut names = vec![0; n];
        native!(self, "glCreateBuffers", F, n as GLsizei, names.as_mut_ptr());
        names
    }
    fn is_buffer_(&mut self, b: GLuint) -> bool {
        type F = unsafe extern "system" fn(GLuint) -> GLboolean;
        native!(self, "glIsBuffer", F, b) != 0
    }
    fn map_range(&mut self, target: GLenum, offset: isize, len: isize, access: u32) -> *mut u8 {
        type F = unsafe extern "system" fn(GLenum, isize, isize, u32) -> *mut u8;
        native!(self, "glMapBufferRange", F, target, offset, len, access)
    }
    fn map_named_range(&mut self, b: GLuint, offset: isize, len: isize, access: u32) -> *mut u8 {
        type F = unsafe extern "system" fn(GLuint, isize, isize, u32) -> *mut u8;
        native!(self, "glMapNamedBufferRange", F, b, offset, len, access)
    }
    fn unmap_(&mut self, target: GLenum) -> bool {
        type F = unsafe extern "system" fn(GLenum) -> GLboolean;
        native!(self, "glUnmapBuffer", F, target) != 0
    }
    fn unmap_named(&mut self, b: GLuint) -> bool {
        type F = unsafe extern "system" fn(GLuint) -> GLboolean;
        native!(self, "glUnmapNamedBuffer", F, b) != 0
    }
    fn flush_named_range(&mut self, b: GLuint, offset: isize, len: isize) {
        type F = unsafe extern "system" fn(GLuint, isize, isize);
        native!(self, "glFlushMappedNamedBufferRange", F, b, offset, len)
    }
    fn copy_named(&mut self, src: GLuint, dst: GLuint, so: isize, do_: isize, size: isize) {
        type F = unsafe extern "system" fn(GLuint, GLuint, isize, isize, isize);
        native!(self, "glCopyNamedBufferSubData", F, src, dst, so, do_, size)
    }
    fn buffer_parameter(&mut self, target: GLenum, pname: GLenum) -> i64 {
        type F = unsafe extern "system" fn(GLenum, GLenum, *mut i64);
        let mut v = -1;
        native!(self, "glGetBufferParameteri64v", F, target, pname, &mut v);
        v
    }
    fn named_buffer_parameter(&mut self, b: GLuint, pname: GLenum) -> i64 {
        type F = unsafe extern "system" fn(GLuint, GLenum, *mut i64);
        let mut v = -1;
        native!(self, "glGetNamedBufferParameteri64v", F, b, pname, &mut v);
        v
    }
    fn get_named_sub_data(&mut self, b: GLuint, offset: isize, len: usize) -> Vec<u8> {
        type F = unsafe extern "system" fn(GLuint, isize, isize, *mut u8);
        let mut out = vec![0xEE; len];
        native!(
            self,
            "glGetNamedBufferSubData",
            F,
            b,
            offset,
            len as isize,
            out.as_mut_ptr()
        );
        out
    }
    fn clear_named(&mut self, b: GLuint, internal: GLenum, format: GLenum, ty: GLenum, px: &[u8]) {
        type F = unsafe extern "system" fn(GLuint, GLenum, GLenum, GLenum, *const u8);
        native!(
            self,
            "glClearNamedBufferData",
            F,
            b,
            internal,
            format,
            ty,
            px.as_ptr()
        )
    }
    fn fence(&mut self) -> u64 {
        type F = unsafe extern "system" fn(GLenum, GLbitfield) -> u64;
        native!(self, "glFenceSync", F, SYNC_GPU_COMMANDS_COMPLETE, 0)
    }
    fn wait(&mut self, sync: u64) -> GLenum {
        type F = unsafe extern "system" fn(u64, GLbitfield, u64) -> GLenum;
        native!(
            self,
            "glClientWaitSync",
            F,
            sync,
            SYNC_FLUSH_COMMANDS_BIT,
            WAIT_NS
        )
    }
    fn delete_fence(&mut self, sync: u64) {
        type F = unsafe extern "system" fn(u64);
        native!(self, "glDeleteSync", F, sync)
    }
}

/// Writes `bytes` at `p + offset`, as a program writes into a mapping.
fn write_mapped(p: *mut u8, offset: usize, bytes: &[u8]) {
    assert!(!p.is_null());
    // SAFETY: `p` is a live mapping at least `offset + bytes.len()` long (the callers map
    // that much and keep it mapped), and nothing else refers to those bytes now.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), p.add(offset), bytes.len()) };
}

/// Reads `len` bytes at `p`, as a program reads a mapping.
fn read_mapped(p: *const u8, len: usize) -> Vec<u8> {
    assert!(!p.is_null());
    // SAFETY: `p` is a live mapping at least `len` long.
    unsafe { std::slice::from_raw_parts(p, len) }.to_vec()
}

/// One step of a walk: what was done, the error it left, and a value where it asked one.
type Step = (String, GLenum, i64);

/// The calls of the error walk and what each left: the error, and a value where it asked.
fn error_walk(gl: &mut dyn StorageGl) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut step = |gl: &mut dyn StorageGl, what: &str, value: i64| {
        steps.push((what.to_owned(), gl.get_error(), value));
    };
    const PCW: u32 = MAP_PERSISTENT_BIT | MAP_COHERENT_BIT | MAP_WRITE_BIT;
    let fresh = gl.gen_buffer();
    gl.storage(ARRAY_BUFFER, 16, None, MAP_WRITE_BIT);
    step(gl, "storage with nothing bound", 0);
    gl.bind_buffer(ARRAY_BUFFER, fresh);
    let v = gl.buffer_parameter(ARRAY_BUFFER, BUFFER_STORAGE_FLAGS);
    step(gl, "flags of a buffer without storage", v);
    let v = gl.buffer_parameter(ARRAY_BUFFER, BUFFER_IMMUTABLE_STORAGE);
    step(gl, "immutable before storage", v);
    gl.storage(0x1234, 16, None, MAP_WRITE_BIT);
    step(gl, "bad target", 0);
    gl.storage(ARRAY_BUFFER, 0, None, MAP_WRITE_BIT);
    step(gl, "size 0", 0);
    gl.storage(ARRAY_BUFFER, -4, None, MAP_WRITE_BIT);
    step(gl, "negative size", 0);
    gl.storage(ARRAY_BUFFER, 16, None, 0x0400);
    step(gl, "unknown flag", 0);
    gl.storage(ARRAY_BUFFER, 16, None, MAP_PERSISTENT_BIT);
    step(gl, "persistent without access", 0);
    gl.storage(ARRAY_BUFFER, 16, None, MAP_WRITE_BIT | MAP_COHERENT_BIT);
    step(gl, "coherent without persistent", 0);
    let data: Vec<u8> = (0..64).collect();
    gl.storage(ARRAY_BUFFER, 64, Some(&data), PCW);
    step(gl, "persistent coherent write storage", 0);
    for (name, pname) in [
        ("immutable", BUFFER_IMMUTABLE_STORAGE),
        ("flags", BUFFER_STORAGE_FLAGS),
        ("usage", BUFFER_USAGE),
        ("size", BUFFER_SIZE),
    ] {
        let v = gl.buffer_parameter(ARRAY_BUFFER, pname);
        step(gl, name, v);
    }
    gl.storage(ARRAY_BUFFER, 64, None, PCW);
    step(gl, "storage twice", 0);
    gl.buffer_data(ARRAY_BUFFER, 64, None, STATIC_DRAW);
    step(gl, "glBufferData on immutable storage", 0);
    gl.buffer_sub_data(ARRAY_BUFFER, 0, &[1, 2, 3, 4]);
    step(gl, "glBufferSubData without DYNAMIC_STORAGE", 0);
    let p = gl.map_range(ARRAY_BUFFER, 0, 16, MAP_READ_BIT);
    step(gl, "read map of write-only storage", p.is_null() as i64);
    let p = gl.map_range(ARRAY_BUFFER, 0, 0, PCW);
    step(gl, "empty persistent map", p.is_null() as i64);
    let p = gl.map_range(ARRAY_BUFFER, 0, 16, MAP_WRITE_BIT | 0x1000);
    step(gl, "unknown access bit", p.is_null() as i64);
    let p = gl.map_range(ARRAY_BUFFER, 8, 64, PCW);
    step(gl, "map past the end", p.is_null() as i64);
    let p = gl.map_range(ARRAY_BUFFER, 16, 32, PCW);
    step(gl, "persistent map", p.is_null() as i64);
    let v = read_mapped(p, 32).iter().map(|&b| i64::from(b)).sum();
    step(gl, "the mapping holds the storage's data", v);
    let v = gl.buffer_parameter(ARRAY_BUFFER, BUFFER_ACCESS_FLAGS);
    step(gl, "access flags", v);
    let p2 = gl.map_range(ARRAY_BUFFER, 0, 16, PCW);
    step(gl, "second map", p2.is_null() as i64);
    let other = gl.gen_buffer();
    gl.bind_buffer(COPY_WRITE_BUFFER, other);
    gl.buffer_data(COPY_WRITE_BUFFER, 64, None, STREAM_COPY);
    gl.bind_buffer(COPY_READ_BUFFER, fresh);
    // GL 4.4 §6.3.2: a persistently mapped buffer may be used by other commands.
    gl.copy_buffer_sub_data_(COPY_READ_BUFFER, COPY_WRITE_BUFFER, 0, 0, 64);
    step(gl, "copy from a persistently mapped buffer", 0);
    let v = gl.unmap_(ARRAY_BUFFER) as i64;
    step(gl, "unmap", v);
    // Storage from glBufferData allows read and write maps, never persistent ones.
    gl.bind_buffer(ARRAY_BUFFER, other);
    let v = gl.buffer_parameter(ARRAY_BUFFER, BUFFER_STORAGE_FLAGS);
    step(gl, "flags of glBufferData storage", v);
    let v = gl.buffer_parameter(ARRAY_BUFFER, BUFFER_IMMUTABLE_STORAGE);
    step(gl, "glBufferData storage is mutable", v);
    let p = gl.map_range(ARRAY_BUFFER, 0, 16, MAP_WRITE_BIT | MAP_PERSISTENT_BIT);
    step(
        gl,
        "persistent map of glBufferData storage",
        p.is_null() as i64,
    );
    // Dynamic storage takes glBufferSubData, and a read-write persistent map.
    let dynamic = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, dynamic);
    let rw = MAP_READ_BIT | MAP_WRITE_BIT | MAP_PERSISTENT_BIT;
    gl.storage(
        ARRAY_BUFFER,
        32,
        None,
        rw | DYNAMIC_STORAGE_BIT | CLIENT_STORAGE_BIT,
    );
    step(gl, "dynamic client storage", 0);
    gl.buffer_sub_data(ARRAY_BUFFER, 4, &[9, 9, 9, 9]);
    step(gl, "glBufferSubData of dynamic storage", 0);
    let p = gl.map_range(ARRAY_BUFFER, 0, 32, rw);
    step(gl, "read-write persistent map", p.is_null() as i64);
    gl.buffer_sub_data(ARRAY_BUFFER, 8, &[7, 7]);
    step(gl, "glBufferSubData while persistently mapped", 0);
    let v = gl.unmap_(ARRAY_BUFFER) as i64;
    step(gl, "unmap", v);
    let bytes = gl.get_buffer_sub_data_(ARRAY_BUFFER, 0, 12);
    step(gl, "contents", bytes.iter().map(|&b| i64::from(b)).sum());
    steps
}

/// `glCopyBufferSubData` and `glGetBufferSubData` under names that do not clash.
trait CopyGl {
    fn copy_buffer_sub_data_(&mut self, r: GLenum, w: GLenum, ro: isize, wo: isize, n: isize);
    fn get_buffer_sub_data_(&mut self, target: GLenum, offset: isize, len: usize) -> Vec<u8>;
}

impl<T: StorageGl + ?Sized> CopyGl for T {
    fn copy_buffer_sub_data_(&mut self, r: GLenum, w: GLenum, ro: isize, wo: isize, n: isize) {
        let (src, dst) = (buffer_on(self, r), buffer_on(self, w));
        self.copy_named(src, dst, ro, wo, n);
    }
    fn get_buffer_sub_data_(&mut self, target: GLenum, offset: isize, len: usize) -> Vec<u8> {
        let b = buffer_on(self, target);
        self.get_named_sub_data(b, offset, len)
    }
}

/// The name bound to `target` (`glGetIntegerv` of its binding).
fn buffer_on<T: StorageGl + ?Sized>(gl: &mut T, target: GLenum) -> GLuint {
    let binding = match target {
        ARRAY_BUFFER => ARRAY_BUFFER_BINDING,
        COPY_READ_BUFFER => COPY_READ_BUFFER_BINDING,
        _ => COPY_WRITE_BUFFER_BINDING,
    };
    let mut v = [0];
    gl.get_integerv(binding, &mut v);
    v[0] as GLuint
}

/// The named forms' errors: names that are not buffer objects, and objects made by
/// `glCreateBuffers` that were never bound.
fn named_walk(gl: &mut dyn StorageGl) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut step = |gl: &mut dyn StorageGl, what: &str, value: i64| {
        steps.push((what.to_owned(), gl.get_error(), value));
    };
    let generated = gl.gen_buffer();
    gl.named_buffer_data(generated, 16, None, STATIC_DRAW);
    step(gl, "glNamedBufferData of a name never bound", 0);
    gl.named_buffer_data(0, 16, None, STATIC_DRAW);
    step(gl, "glNamedBufferData of 0", 0);
    let created = gl.create_buffers(2);
    step(gl, "glCreateBuffers", 0);
    let v = gl.is_buffer_(created[0]) as i64;
    step(gl, "a created buffer is a buffer", v);
    let v = gl.named_buffer_parameter(created[0], BUFFER_SIZE);
    step(gl, "its size", v);
    let data: Vec<u8> = (0..32).map(|i| i * 3).collect();
    gl.named_buffer_storage(
        created[0],
        32,
        Some(&data),
        MAP_READ_BIT | DYNAMIC_STORAGE_BIT,
    );
    step(gl, "glNamedBufferStorage", 0);
    gl.named_buffer_sub_data(created[0], 4, &[200, 201]);
    step(gl, "glNamedBufferSubData", 0);
    let v = gl.named_buffer_parameter(created[0], BUFFER_STORAGE_FLAGS);
    step(gl, "flags", v);
    gl.named_buffer_data(created[1], 32, None, DYNAMIC_COPY);
    gl.copy_named(created[0], created[1], 0, 0, 32);
    step(gl, "glCopyNamedBufferSubData", 0);
    gl.copy_named(created[0], 12345, 0, 0, 32);
    step(gl, "copy to a name that is no buffer", 0);
    let bytes = gl.get_named_sub_data(created[1], 0, 8);
    step(
        gl,
        "glGetNamedBufferSubData",
        bytes.iter().map(|&b| i64::from(b)).sum(),
    );
    let p = gl.map_named_range(created[1], 0, 8, MAP_WRITE_BIT | MAP_FLUSH_EXPLICIT_BIT);
    step(gl, "glMapNamedBufferRange", p.is_null() as i64);
    write_mapped(p, 0, &[1, 2, 3, 4, 5, 6, 7, 8]);
    gl.flush_named_range(created[1], 2, 4);
    step(gl, "glFlushMappedNamedBufferRange", 0);
    gl.flush_named_range(created[1], 6, 4);
    step(gl, "flush past the mapping", 0);
    let v = gl.unmap_named(created[1]) as i64;
    step(gl, "glUnmapNamedBuffer", v);
    let v = gl.unmap_named(created[1]) as i64;
    step(gl, "unmap twice", v);
    // Only the flushed bytes are defined (the others of the range may or may not have
    // changed: llvmpipe maps the storage itself, Tessera sends what was flushed).
    let bytes = gl.get_named_sub_data(created[1], 2, 4);
    step(
        gl,
        "flushed bytes",
        bytes.iter().map(|&b| i64::from(b)).sum(),
    );
    gl.clear_named(created[1], R8UI, RED_INTEGER, UNSIGNED_BYTE, &[42]);
    step(gl, "glClearNamedBufferData", 0);
    let bytes = gl.get_named_sub_data(created[1], 0, 32);
    step(gl, "cleared", bytes.iter().map(|&b| i64::from(b)).sum());
    let v = gl.named_buffer_parameter(generated, BUFFER_SIZE);
    step(gl, "parameter of a name never bound", v);
    steps
}

fn assert_same_walk(walk: fn(&mut dyn StorageGl) -> Vec<Step>, backends: &[Backend]) {
    let mut native = NativeGl::new(8, 8).expect("native desktop GL");
    let expected = walk(&mut native);
    drop(native);
    for &backend in backends {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 8, 8);
        let got = walk(&mut ctx);
        for (e, g) in expected.iter().zip(&got) {
            assert_eq!(g, e, "{}: {}", backend.name(), e.0);
        }
        assert_eq!(got.len(), expected.len());
    }
}

#[test]
fn buffer_storage_errors_and_queries_match_native() {
    assert_same_walk(error_walk, &Backend::ALL);
}

#[test]
fn named_buffer_functions_match_native() {
    assert_same_walk(named_walk, &Backend::ALL);
}

const STREAM_VS: &str = "#version 330 core
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
out vec4 v_color;
void main() { gl_Position = vec4(pos, 0.0, 1.0); v_color = color; }
";
const STREAM_FS: &str = "#version 330 core
in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
";

fn link(gl: &mut dyn Gl, vs: &str, fs: &str) -> GLuint {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, vs), (FRAGMENT_SHADER, fs)] {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        assert_eq!(
            gl.get_shaderi(s, COMPILE_STATUS),
            1,
            "{}",
            gl.shader_info_log(s)
        );
        gl.attach_shader(p, s);
    }
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        1,
        "{}",
        gl.program_info_log(p)
    );
    p
}

/// Frames of the streaming scene, sections of its ring, and quads per frame.
const FRAMES: usize = 24;
const SECTIONS: usize = 3;
const QUADS: usize = 4;
/// Bytes of one vertex (vec2 position, 4 normalized bytes of color) and of one section.
const VERTEX: usize = 12;
const SECTION: usize = QUADS * 6 * VERTEX;
const SIZE: i32 = 64;

/// The vertices frame `f` writes: `QUADS` small quads at places and colors of its own.
fn frame_vertices(f: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(SECTION);
    for q in 0..QUADS {
        let i = f * QUADS + q;
        let (cx, cy) = ((i % 12) as f32 / 6.0 - 0.95, (i / 12) as f32 / 4.5 - 0.95);
        let (w, h) = (0.14, 0.2);
        let color = [
            (i * 37 % 256) as u8,
            (i * 91 % 256) as u8,
            (255 - i * 13 % 256) as u8,
            255,
        ];
        for (x, y) in [(0., 0.), (w, 0.), (0., h), (w, 0.), (w, h), (0., h)] {
            out.extend_from_slice(&(cx + x as f32).to_le_bytes());
            out.extend_from_slice(&(cy + y as f32).to_le_bytes());
            out.extend_from_slice(&color);
        }
    }
    out
}

/// The block-game pattern: a persistent, coherent ring written every frame behind fences,
/// with no explicit flush and no unmap. Returns the frame's pixels.
fn streaming_scene(gl: &mut dyn StorageGl) -> Vec<u8> {
    let program = link(gl, STREAM_VS, STREAM_FS);
    gl.use_program(program);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let ring = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, ring);
    let flags = MAP_WRITE_BIT | MAP_PERSISTENT_BIT | MAP_COHERENT_BIT;
    let total = (SECTION * SECTIONS) as isize;
    gl.storage(ARRAY_BUFFER, total, None, flags);
    let p = gl.map_range(ARRAY_BUFFER, 0, total, flags);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, VERTEX as GLsizei, 0);
    gl.vertex_attrib_pointer(1, 4, UNSIGNED_BYTE, true, VERTEX as GLsizei, 8);
    gl.enable_vertex_attrib_array(0);
    gl.enable_vertex_attrib_array(1);
    gl.viewport(0, 0, SIZE, SIZE);
    gl.clear_color(0.1, 0.1, 0.1, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    let mut fences = [0u64; SECTIONS];
    for f in 0..FRAMES {
        let s = f % SECTIONS;
        if fences[s] != 0 {
            let status = gl.wait(fences[s]);
            assert!(
                status == ALREADY_SIGNALED || status == CONDITION_SATISFIED,
                "frame {f}: glClientWaitSync gave {status:#x} ({:#x}) {}",
                gl.get_error(),
                gl.events()
            );
            gl.delete_fence(fences[s]);
        }
        write_mapped(p, s * SECTION, &frame_vertices(f));
        gl.draw_arrays(
            TRIANGLES,
            (s * SECTION / VERTEX) as GLint,
            (QUADS * 6) as GLsizei,
        );
        fences[s] = gl.fence();
        gl.flush();
    }
    assert_eq!(gl.get_error(), NO_ERROR);
    read_back(gl, SIZE, SIZE)
}

/// A Tessera context on `backend` over `transport`.
fn context_over(backend: BackendKind, transport: TransportKind) -> Context {
    tessera_tests::ensure_runtime_dir();
    let config = Config {
        backend,
        transport,
        surface: Some(SurfaceConfig::new(SIZE as u32, SIZE as u32)),
        ..Config::default()
    };
    Context::new(&config).expect("a Tessera context")
}

#[test]
fn a_persistent_coherent_ring_streams_native_pixels_on_every_transport() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL");
    let expected = streaming_scene(&mut native);
    drop(native);
    assert!(expected.chunks(4).filter(|p| p[0] != 25).count() > 1000);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = streaming_scene(&mut ctx);
            assert!(
                got == expected,
                "{} over {transport:?}: pixels differ",
                backend.name()
            );
        }
    }
    let server = Server::start();
    for (name, transport) in server.kinds() {
        if name == "fork" {
            continue;
        }
        for backend in [BackendKind::Gles, BackendKind::Vulkan] {
            if backend == BackendKind::Vulkan {
                tessera_tests::ensure_lavapipe();
            }
            let mut ctx = context_over(backend, transport.clone());
            let got = streaming_scene(&mut ctx);
            assert!(got == expected, "{backend:?} over {name}: pixels differ");
        }
    }
}

/// Over `shm` and `fork` the ring's mapping is a block of the session's mapping heap, which the server
/// reads itself: the streaming scene draws native's pixels while no byte written through the
/// mapping crosses the command ring (`persistent_bytes`: the bytes of persistent mappings sent
/// as `WriteBuffer` records, which the in-process run shows counting them), and the stage
/// carries less than the frames wrote.
#[test]
fn over_shared_memory_a_persistent_ring_sends_no_mapped_byte_through_the_ring() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL");
    let expected = streaming_scene(&mut native);
    drop(native);
    let written = (FRAMES * SECTION) as u64;
    let mut inproc = tessera_on(Backend::ALL[0], TransportKind::Inproc, SIZE, SIZE);
    assert!(
        streaming_scene(&mut inproc) == expected,
        "inproc: pixels differ"
    );
    assert!(
        inproc.device_counters().persistent_bytes >= written,
        "in process the written pages are sent as writes"
    );
    drop(inproc);
    let server = Server::start();
    let shared = server.kinds().into_iter();
    for (name, transport) in shared.filter(|(name, _)| ["shm", "fork"].contains(name)) {
        for backend in [BackendKind::Gles, BackendKind::Vulkan] {
            if backend == BackendKind::Vulkan {
                tessera_tests::ensure_lavapipe();
            }
            let mut ctx = context_over(backend, transport.clone());
            let stage0 = ctx.transport_stats().stage_bytes;
            let got = streaming_scene(&mut ctx);
            assert!(got == expected, "{backend:?} over {name}: pixels differ");
            assert_eq!(
                ctx.device_counters().persistent_bytes,
                0,
                "{backend:?} over {name}: mapped bytes crossed the ring"
            );
            let stage = ctx.transport_stats().stage_bytes - stage0;
            assert!(
                stage < written,
                "{backend:?} over {name}: {stage} stage bytes for {written} written"
            );
        }
    }
}

/// The mapping heap's memory follows the live mappings: persistent mappings of 1 MiB made,
/// written, read back and ended (unmapped and deleted, or deleted while mapped) 320 times
/// over `shm` all live in the 256 MiB heap (none falls back to sending its writes), so the
/// blocks of ended mappings are reused.
#[test]
fn over_shm_ended_persistent_mappings_give_their_heap_blocks_back() {
    const MIB: isize = 1 << 20;
    let server = Server::start();
    let shm = server.kinds().into_iter().find(|(name, _)| *name == "shm");
    let (_, shm) = shm.expect("the test server serves shm");
    let mut ctx = context_over(BackendKind::Gles, shm);
    let flags = MAP_WRITE_BIT | MAP_PERSISTENT_BIT | MAP_COHERENT_BIT;
    for i in 0..320usize {
        let b = StorageGl::create_buffers(&mut ctx, 1)[0];
        ctx.named_buffer_storage(b, MIB, None, flags);
        let p = ctx.map_named_range(b, 0, MIB, flags);
        assert!(!p.is_null(), "map {i}");
        let at = i * 3000 % (MIB as usize - 8);
        write_mapped(p, at, &[i as u8 ^ 0x5A; 8]);
        let got = ctx.get_named_sub_data(b, at as isize, 8);
        assert_eq!(got, [i as u8 ^ 0x5A; 8], "mapping {i}");
        if i % 2 == 0 {
            assert!(ctx.unmap_named(b));
        }
        ctx.delete_buffers(1, &[b]);
        assert_eq!(ctx.get_error(), NO_ERROR);
    }
    assert_eq!(ctx.device_counters().persistent_bytes, 0);
}

/// What a persistent, coherent read mapping shows after the GPU copied into the buffer and a
/// fence signalled (no map, unmap or read call in between).
fn persistent_read_scene(gl: &mut dyn StorageGl) -> Vec<u8> {
    let flags = MAP_READ_BIT | MAP_WRITE_BIT | MAP_PERSISTENT_BIT | MAP_COHERENT_BIT;
    let b = gl.create_buffers(2);
    let source: Vec<u8> = (0..256u32).map(|i| (i * 7 + 3) as u8).collect();
    gl.named_buffer_storage(b[0], 256, Some(&source), 0);
    gl.named_buffer_storage(b[1], 256, None, flags);
    let p = gl.map_named_range(b[1], 0, 256, flags);
    let mut seen = read_mapped(p, 256);
    gl.copy_named(b[0], b[1], 64, 32, 128);
    let fence = gl.fence();
    let status = gl.wait(fence);
    assert!(status == ALREADY_SIGNALED || status == CONDITION_SATISFIED);
    seen.extend(read_mapped(p, 256));
    // The program's own writes reach the GPU too: a copy out of the mapped buffer.
    write_mapped(p, 0, &[0xA5; 16]);
    gl.copy_named(b[1], b[0], 0, 240, 16);
    seen.extend(gl.get_named_sub_data(b[0], 224, 32));
    assert_eq!(gl.get_error(), NO_ERROR);
    seen
}

#[test]
fn a_persistent_read_mapping_sees_gpu_writes_after_a_fence() {
    let mut native = NativeGl::new(8, 8).expect("native desktop GL");
    let expected = persistent_read_scene(&mut native);
    drop(native);
    let mut want = vec![0u8; 256];
    want[32..160].copy_from_slice(&(64..192u32).map(|i| (i * 7 + 3) as u8).collect::<Vec<_>>());
    assert_eq!(expected[256..512], want[..], "native");
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 8, 8);
        assert_eq!(
            persistent_read_scene(&mut ctx),
            expected,
            "{}",
            backend.name()
        );
    }
    // Over `shm` the mapping is a block of the mapping heap: the read-backs land in it, and
    // the program's writes reach the copy from it.
    let server = Server::start();
    let shm = server.kinds().into_iter().find(|(name, _)| *name == "shm");
    let (_, shm) = shm.expect("the test server serves shm");
    for backend in [BackendKind::Gles, BackendKind::Vulkan] {
        if backend == BackendKind::Vulkan {
            tessera_tests::ensure_lavapipe();
        }
        let mut ctx = context_over(backend, shm.clone());
        let got = persistent_read_scene(&mut ctx);
        assert_eq!(ctx.device_counters().persistent_bytes, 0, "{backend:?}");
        assert_eq!(got, expected, "{backend:?} over shm");
    }
}

//! The parts of `ARB_ES3_compatibility` (GL 4.3) that Tessera carries out, against the native
//! driver on both backends (Vulkan with the validation layer on, which must report nothing):
//! `PRIMITIVE_RESTART_FIXED_INDEX` restarting triangle strips at the maximum of each draw's
//! index type (unsigned byte, short and int indices, direct and indirect draws; taking
//! precedence over `PRIMITIVE_RESTART`'s index) and `ANY_SAMPLES_PASSED_CONSERVATIVE`
//! queries (their results, counter bits, current query and the errors of the occlusion
//! targets sharing one binding), and the ten ETC2/EAC formats: pseudo-random blocks of each
//! (every mode) fetched into a float framebuffer, `COMPRESSED_TEXTURE_FORMATS`, level
//! queries and the errors of what GL refuses them (uncompressed images, sub-images and
//! copies, 3D images, wrong sizes). Pixels, values and errors must be exactly the native
//! ones.

#![expect(
    unsafe_code,
    reason = "the native driver's glIsEnabled and glGetQueryiv, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls the shared [`Gl`] table has no entry for.
trait Es3Gl: Gl {
    /// `glIsEnabled`.
    fn is_enabled(&mut self, cap: GLenum) -> GLboolean;
    /// `glGetInteger64v` of one value.
    fn integer64(&mut self, pname: GLenum) -> i64;
    /// `glGetQueryiv` of one value (-7 where nothing was written).
    fn query_value(&mut self, target: GLenum, pname: GLenum) -> GLint;
    /// `glBeginConditionalRender`.
    fn begin_conditional_render(&mut self, id: GLuint, mode: GLenum);
    /// `glEndConditionalRender`.
    fn end_conditional_render(&mut self);
    /// `glDrawElementsIndirect` of the command at `offset` in the bound indirect buffer.
    fn draw_elements_indirect(&mut self, mode: GLenum, ty: GLenum, offset: usize);
}

impl Es3Gl for Context {
    fn is_enabled(&mut self, cap: GLenum) -> GLboolean {
        Context::is_enabled(self, cap)
    }
    fn integer64(&mut self, pname: GLenum) -> i64 {
        let mut v = [-7];
        Context::get_integer64v(self, pname, &mut v);
        v[0]
    }
    fn query_value(&mut self, target: GLenum, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_queryiv(self, target, pname, &mut v);
        v[0]
    }
    fn begin_conditional_render(&mut self, id: GLuint, mode: GLenum) {
        Context::begin_conditional_render(self, id, mode)
    }
    fn end_conditional_render(&mut self) {
        Context::end_conditional_render(self)
    }
    fn draw_elements_indirect(&mut self, mode: GLenum, ty: GLenum, offset: usize) {
        Context::draw_elements_indirect(self, mode, ty, offset)
    }
}

/// An entry point of the native driver, by name and C signature.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl Es3Gl for NativeGl {
    fn is_enabled(&mut self, cap: GLenum) -> GLboolean {
        type F = unsafe extern "system" fn(GLenum) -> GLboolean;
        let f: F = native(self, "glIsEnabled");
        // SAFETY: the context is current on this thread; a plain value.
        unsafe { f(cap) }
    }
    fn integer64(&mut self, pname: GLenum) -> i64 {
        type F = unsafe extern "system" fn(GLenum, *mut i64);
        let f: F = native(self, "glGetInteger64v");
        let mut v = -7;
        // SAFETY: the pnames asked have one value.
        unsafe { f(pname, &mut v) };
        v
    }
    fn query_value(&mut self, target: GLenum, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLenum, *mut GLint);
        let f: F = native(self, "glGetQueryiv");
        let mut v = -7;
        // SAFETY: the pnames asked have one value.
        unsafe { f(target, pname, &mut v) };
        v
    }
    fn begin_conditional_render(&mut self, id: GLuint, mode: GLenum) {
        type F = unsafe extern "system" fn(GLuint, GLenum);
        let f: F = native(self, "glBeginConditionalRender");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(id, mode) }
    }
    fn end_conditional_render(&mut self) {
        type F = unsafe extern "system" fn();
        let f: F = native(self, "glEndConditionalRender");
        // SAFETY: the context is current on this thread.
        unsafe { f() }
    }
    fn draw_elements_indirect(&mut self, mode: GLenum, ty: GLenum, offset: usize) {
        type F = unsafe extern "system" fn(GLenum, GLenum, *const std::ffi::c_void);
        let f: F = native(self, "glDrawElementsIndirect");
        // SAFETY: an indirect buffer is bound: the pointer is an offset into it.
        unsafe { f(mode, ty, offset as *const std::ffi::c_void) }
    }
}

const W: i32 = 16;
const H: i32 = 8;

/// Runs `scene` natively and on both backends (inproc and thread), which must match; returns
/// the native result.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn Es3Gl) -> T) -> T {
    let mut native = NativeGl::new(W, H).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), W, H);
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

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

const FS: &str = "#version 330
out vec4 color;
void main() { color = vec4(1.0, 0.5, 0.0, 1.0); }
";

/// A program drawing `VS` and `FS`, current, and a vertex array of 256 positions bound:
/// vertices 0-3 a strip over the left quarter, 4-7 one over the right quarter, 255 in the
/// middle (where a strip passing through it draws), the others at the origin.
fn setup(gl: &mut dyn Es3Gl) {
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
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let mut positions = vec![[0.0f32; 2]; 256];
    positions[..8].copy_from_slice(&[
        [-1.0, -1.0],
        [-0.5, -1.0],
        [-1.0, 1.0],
        [-0.5, 1.0],
        [0.5, -1.0],
        [1.0, -1.0],
        [0.5, 1.0],
        [1.0, 1.0],
    ]);
    positions[255] = [0.0, -1.0];
    let bytes: Vec<u8> = positions
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.viewport(0, 0, W, H);
}

/// The indices `[0, 1, 2, 3, split, 4, 5, 6, 7]` as `ty` in an element buffer bound.
fn indices(gl: &mut dyn Es3Gl, ty: GLenum, split: u32) {
    let list = [0, 1, 2, 3, split, 4, 5, 6, 7];
    let bytes: Vec<u8> = match ty {
        UNSIGNED_BYTE => list.iter().map(|&i| i as u8).collect(),
        UNSIGNED_SHORT => list
            .iter()
            .flat_map(|&i| (i as u16).to_le_bytes())
            .collect(),
        _ => list.iter().flat_map(|&i| i.to_le_bytes()).collect(),
    };
    let eb = gl.gen_buffer();
    gl.bind_buffer(ELEMENT_ARRAY_BUFFER, eb);
    gl.buffer_data(ELEMENT_ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
}

/// Which of the 16 columns of the middle row are drawn ('#'), read back after a clear and
/// one strip of 9 `ty` indices.
fn frame(gl: &mut dyn Es3Gl, ty: GLenum) -> String {
    gl.clear_color(0.0, 0.0, 0.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_elements(TRIANGLE_STRIP, 9, ty, 0);
    read_row(gl)
}

/// [`frame`] drawn by `glDrawElementsIndirect` (count 9, one instance).
fn indirect_frame(gl: &mut dyn Es3Gl, ty: GLenum) -> String {
    let command: Vec<u8> = [9u32, 1, 0, 0, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let b = gl.gen_buffer();
    gl.bind_buffer(DRAW_INDIRECT_BUFFER, b);
    gl.buffer_data(
        DRAW_INDIRECT_BUFFER,
        command.len(),
        Some(&command),
        STATIC_DRAW,
    );
    gl.clear_color(0.0, 0.0, 0.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_elements_indirect(TRIANGLE_STRIP, ty, 0);
    read_row(gl)
}

/// The middle row of the frame drawn, as [`frame`] gives it.
fn read_row(gl: &mut dyn Es3Gl) -> String {
    let mut out = vec![0u8; (W * H * 4) as usize];
    gl.read_pixels(0, 0, W, H, RGBA, UNSIGNED_BYTE, &mut out);
    for px in out.chunks(4) {
        assert!(px == [0, 0, 0, 255] || px == [255, 128, 0, 255], "{px:?}");
    }
    let row = (H / 2 * W * 4) as usize;
    out[row..row + (W * 4) as usize]
        .chunks(4)
        .map(|px| if px[0] == 255 { '#' } else { '.' })
        .collect()
}

/// Strips of each index type split by the type's maximum, with the fixed index alone, with
/// `PRIMITIVE_RESTART` at another index as well (the fixed index takes precedence), and 255
/// in wider types (a vertex, not a restart).
fn restart_frames(gl: &mut dyn Es3Gl) -> Vec<(&'static str, String)> {
    setup(gl);
    let mut out = Vec::new();
    gl.enable(PRIMITIVE_RESTART_FIXED_INDEX);
    for (name, ty, max) in [
        ("ubyte", UNSIGNED_BYTE, 0xff),
        ("ushort", UNSIGNED_SHORT, 0xffff),
        ("uint", UNSIGNED_INT, u32::MAX),
    ] {
        indices(gl, ty, max);
        out.push((name, frame(gl, ty)));
        out.push((name, indirect_frame(gl, ty)));
        gl.enable(PRIMITIVE_RESTART);
        gl.primitive_restart_index(3);
        out.push((name, frame(gl, ty)));
        gl.disable(PRIMITIVE_RESTART);
        if ty != UNSIGNED_BYTE {
            indices(gl, ty, 255);
            out.push((name, frame(gl, ty)));
        }
    }
    // Off again: PRIMITIVE_RESTART's index restarts (at a type's maximum: GLES emulates
    // others and says so), and without it 255 is a vertex.
    gl.disable(PRIMITIVE_RESTART_FIXED_INDEX);
    indices(gl, UNSIGNED_BYTE, 0xff);
    gl.enable(PRIMITIVE_RESTART);
    gl.primitive_restart_index(0xff);
    out.push(("PRIMITIVE_RESTART", frame(gl, UNSIGNED_BYTE)));
    gl.disable(PRIMITIVE_RESTART);
    out.push(("no restart", frame(gl, UNSIGNED_BYTE)));
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

#[test]
fn fixed_index_restart_matches_the_native_driver() {
    let frames = compare(restart_frames);
    let split = "####........####";
    assert_eq!(frames[0].1, split);
    assert_eq!(frames[1].1, split);
    assert_eq!(frames[1].1, split, "indirect");
    assert_eq!(frames[2].1, split, "ahead of PRIMITIVE_RESTART");
    assert_ne!(frames[6].1, split, "255 is a vertex of a short strip");
    assert_eq!(frames[frames.len() - 2].1, split);
    assert_eq!(frames[frames.len() - 1].1, frames[6].1);
}

/// What was done, the error and a value.
type Line = (&'static str, GLenum, i64);

fn transcript(gl: &mut dyn Es3Gl) -> Vec<Line> {
    setup(gl);
    indices(gl, UNSIGNED_BYTE, 0xff);
    let mut out: Vec<Line> = Vec::new();
    let mut note = |gl: &mut dyn Es3Gl, what: &'static str, v: i64| {
        let e = gl.get_error();
        out.push((what, e, v));
    };
    let max = gl.integer64(MAX_ELEMENT_INDEX);
    note(gl, "MAX_ELEMENT_INDEX", max);
    let on = gl.is_enabled(PRIMITIVE_RESTART_FIXED_INDEX);
    note(gl, "fixed index at first", on.into());
    gl.enable(PRIMITIVE_RESTART_FIXED_INDEX);
    let on = gl.is_enabled(PRIMITIVE_RESTART_FIXED_INDEX);
    note(gl, "enabled", on.into());
    let mut v = [-7];
    gl.get_integerv(PRIMITIVE_RESTART_FIXED_INDEX, &mut v);
    note(gl, "get", v[0].into());
    let on = gl.is_enabled(PRIMITIVE_RESTART);
    note(gl, "PRIMITIVE_RESTART stays off", on.into());
    gl.disable(PRIMITIVE_RESTART_FIXED_INDEX);
    let on = gl.is_enabled(PRIMITIVE_RESTART_FIXED_INDEX);
    note(gl, "disabled", on.into());

    let bits = gl.query_value(ANY_SAMPLES_PASSED_CONSERVATIVE, QUERY_COUNTER_BITS);
    note(gl, "counter bits", bits.into());
    let current = gl.query_value(ANY_SAMPLES_PASSED_CONSERVATIVE, CURRENT_QUERY);
    note(gl, "no current query", current.into());
    let drawn = gl.gen_query();
    let empty = gl.gen_query();
    let exact = gl.gen_query();
    gl.begin_query(ANY_SAMPLES_PASSED_CONSERVATIVE, drawn);
    note(gl, "begin", 0);
    let current = gl.query_value(ANY_SAMPLES_PASSED_CONSERVATIVE, CURRENT_QUERY);
    note(gl, "current query", i64::from(current == drawn as i32));
    let other = gl.query_value(ANY_SAMPLES_PASSED, CURRENT_QUERY);
    note(gl, "ANY_SAMPLES_PASSED's current query", other.into());
    gl.begin_query(ANY_SAMPLES_PASSED, exact);
    note(gl, "begin ANY_SAMPLES_PASSED meanwhile", 0);
    gl.begin_query(SAMPLES_PASSED, exact);
    note(gl, "begin SAMPLES_PASSED meanwhile", 0);
    gl.end_query(ANY_SAMPLES_PASSED);
    note(gl, "end ANY_SAMPLES_PASSED", 0);
    gl.draw_elements(TRIANGLE_STRIP, 9, UNSIGNED_BYTE, 0);
    gl.end_query(ANY_SAMPLES_PASSED_CONSERVATIVE);
    note(gl, "end", 0);
    let r = gl.query_result(drawn);
    note(gl, "result of a draw", r.into());
    gl.begin_query(ANY_SAMPLES_PASSED_CONSERVATIVE, empty);
    gl.end_query(ANY_SAMPLES_PASSED_CONSERVATIVE);
    let r = gl.query_result(empty);
    note(gl, "result of nothing", r.into());
    gl.begin_query(ANY_SAMPLES_PASSED, drawn);
    note(gl, "reused for ANY_SAMPLES_PASSED", 0);
    gl.begin_query(ANY_SAMPLES_PASSED, exact);
    gl.end_query(ANY_SAMPLES_PASSED);
    gl.begin_query(ANY_SAMPLES_PASSED_CONSERVATIVE, exact);
    note(gl, "ANY_SAMPLES_PASSED's query reused", 0);
    gl.begin_conditional_render(empty, QUERY_NO_WAIT);
    note(gl, "conditional render", 0);
    gl.end_conditional_render();
    note(gl, "end conditional render", 0);
    out
}

#[test]
fn es3_compatibility_state_matches_the_native_driver() {
    let expected = compare(transcript);
    let find = |what: &str| {
        *expected
            .iter()
            .find(|l| l.0 == what)
            .unwrap_or_else(|| panic!("{what}"))
    };
    assert_eq!(find("enabled"), ("enabled", NO_ERROR, 1));
    assert_eq!(find("MAX_ELEMENT_INDEX").2, i64::from(u32::MAX));
    assert_eq!(find("result of a draw").2, 1);
    assert_eq!(find("result of nothing").2, 0);
    assert_eq!(find("begin SAMPLES_PASSED meanwhile").1, INVALID_OPERATION);
}

use crate::texture_compression_bptc::{BptcGl, Frame, compare as compare_blocks, fetch_frame};

/// The ten ETC2/EAC formats.
const ETC2: [GLenum; 10] = [
    COMPRESSED_RGB8_ETC2,
    COMPRESSED_SRGB8_ETC2,
    COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2,
    COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2,
    COMPRESSED_RGBA8_ETC2_EAC,
    COMPRESSED_SRGB8_ALPHA8_ETC2_EAC,
    COMPRESSED_R11_EAC,
    COMPRESSED_SIGNED_R11_EAC,
    COMPRESSED_RG11_EAC,
    COMPRESSED_SIGNED_RG11_EAC,
];

/// Bytes of one 4x4 block of an ETC2/EAC format.
fn etc2_block(format: GLenum) -> usize {
    match format {
        COMPRESSED_RGBA8_ETC2_EAC
        | COMPRESSED_SRGB8_ALPHA8_ETC2_EAC
        | COMPRESSED_RG11_EAC
        | COMPRESSED_SIGNED_RG11_EAC => 16,
        _ => 8,
    }
}

/// Deterministic pseudo-random bytes (xorshift): random blocks reach every ETC2 mode
/// (individual, differential, T, H, planar; opaque or not) and every EAC table and
/// multiplier.
fn noise(seed: u32, n: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 7) as u8
        })
        .collect()
}

/// A 16x16 image of `format` from pseudo-random blocks, its top-right block replaced by a
/// sub-image, fetched texel by texel into a float framebuffer.
fn etc2_frame(gl: &mut dyn BptcGl, format: GLenum) -> Frame {
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
    let block = etc2_block(format);
    let blocks = noise(format, 16 * block);
    gl.compressed_image_2d(TEXTURE_2D, 0, format, [16, 16], 0, &blocks);
    let sub = noise(format + 1, block);
    gl.compressed_sub_image_2d(TEXTURE_2D, 0, [12, 12, 4, 4], format, &sub, block);
    assert_eq!(gl.get_error(), NO_ERROR);
    fetch_frame(gl, "sampler2D", 0, 0)
}

#[test]
fn etc2_blocks_sample_as_on_the_native_driver() {
    let mut frames = Vec::new();
    for format in ETC2 {
        let f = compare_blocks(|gl| etc2_frame(gl, format));
        assert!(f.has_colour(), "{format:#x}");
        frames.push(f);
    }
    assert_ne!(frames[0], frames[1], "sRGB decodes to linear");
    assert_ne!(frames[6], frames[7], "signed EAC differs");
}

/// A level's `COMPRESSED`, `COMPRESSED_IMAGE_SIZE`, `INTERNAL_FORMAT`, red, green and
/// alpha sizes, red type, and the error after the queries.
fn etc2_level(gl: &mut dyn BptcGl, target: GLenum) -> [GLint; 8] {
    let mut out = [0; 8];
    for (o, pname) in out.iter_mut().zip([
        TEXTURE_COMPRESSED,
        TEXTURE_COMPRESSED_IMAGE_SIZE,
        TEXTURE_INTERNAL_FORMAT,
        TEXTURE_RED_SIZE,
        TEXTURE_GREEN_SIZE,
        TEXTURE_ALPHA_SIZE,
        TEXTURE_RED_TYPE,
    ]) {
        *o = gl.level_parameter(target, 0, pname);
    }
    out[7] = gl.get_error() as GLint;
    out
}

/// One line of the ETC2 transcript: what was done, its error, and values read after.
type Etc2Line = (&'static str, GLenum, Vec<GLint>);

/// `COMPRESSED_TEXTURE_FORMATS` (the ETC2/EAC ones: native llvmpipe lists S3TC and FXT1
/// too, which Tessera does not have), the level queries of each format, and the errors of
/// uncompressed images, sub-images and copies, 3D images and wrong sizes.
fn etc2_transcript(gl: &mut dyn BptcGl) -> Vec<Etc2Line> {
    let mut out: Vec<Etc2Line> = Vec::new();
    let mut n = [-7];
    gl.get_integerv(NUM_COMPRESSED_TEXTURE_FORMATS, &mut n);
    let mut list = vec![-7; n[0].max(0) as usize];
    gl.get_integerv(COMPRESSED_TEXTURE_FORMATS, &mut list);
    list.retain(|f| ETC2.contains(&(*f as GLenum)));
    let e = gl.get_error();
    out.push(("COMPRESSED_TEXTURE_FORMATS", e, list));
    let blocks = noise(7, 4096);
    for format in ETC2 {
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, t);
        let two = &blocks[..2 * etc2_block(format)];
        gl.compressed_image_2d(TEXTURE_2D, 0, format, [8, 4], 0, two);
        let e = gl.get_error();
        out.push(("image", e, etc2_level(gl, TEXTURE_2D).to_vec()));
        gl.tex_sub_image_2d(TEXTURE_2D, 0, 0, 0, 4, 4, RGBA, UNSIGNED_BYTE, &blocks);
        let e = gl.get_error();
        out.push(("uncompressed sub-image", e, Vec::new()));
        gl.tex_image_2d(
            TEXTURE_2D,
            0,
            format as GLint,
            4,
            4,
            0,
            RGBA,
            UNSIGNED_BYTE,
            None,
        );
        let e = gl.get_error();
        out.push(("uncompressed image", e, etc2_level(gl, TEXTURE_2D).to_vec()));
        gl.copy_tex_sub_image_2d(TEXTURE_2D, 0, 0, 0, 0, 0, 4, 4);
        let e = gl.get_error();
        out.push(("copy into", e, Vec::new()));
        gl.compressed_image_2d(TEXTURE_2D, 0, format, [4, 4], 0, &blocks[..3]);
        let e = gl.get_error();
        out.push(("short image", e, Vec::new()));
        let t3 = gl.gen_texture();
        gl.bind_texture(TEXTURE_3D, t3);
        let one = &blocks[..etc2_block(format)];
        gl.compressed_image_3d(TEXTURE_3D, 0, format, [4, 4, 1], one, one.len());
        let e = gl.get_error();
        out.push(("3D image", e, Vec::new()));
        let ta = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D_ARRAY, ta);
        gl.tex_storage_3d(TEXTURE_2D_ARRAY, 2, format, [8, 8, 2]);
        let e = gl.get_error();
        out.push((
            "array storage",
            e,
            etc2_level(gl, TEXTURE_2D_ARRAY).to_vec(),
        ));
    }
    out
}

#[test]
fn etc2_state_matches_the_native_driver() {
    let expected = compare_blocks(etc2_transcript);
    assert_eq!(expected[0].2.len(), 7, "{:?}", expected[0]);
    let find = |what: &str| expected.iter().find(|l| l.0 == what).unwrap().1;
    assert_eq!(find("uncompressed image"), INVALID_OPERATION);
    assert_eq!(find("image"), NO_ERROR);
    assert_eq!(find("3D image"), INVALID_ENUM);
}

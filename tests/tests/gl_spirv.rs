//! SPIR-V shaders (`ARB_gl_spirv`, GL 4.6) against the native driver, which has the
//! extension: modules compiled from GLSL with `glslangValidator -G` when the test runs
//! (package glslang-tools), given with `glShaderBinary` and specialized with
//! `glSpecializeShader`. A vertex and fragment program with loose uniforms at explicit
//! locations set by `glUniform*`, a uniform block, a sampler and specialization constants
//! draws native llvmpipe's pixels on both backends (Vulkan with the validation layer on,
//! which must report nothing); the errors of `glShaderBinary`, `glSpecializeShader`,
//! `glCompileShader` and of linking SPIR-V with GLSL, and `SPIR_V_BINARY`, are native's.
//! Atomic counters (which SPIRV-Cross writes as plain `uint`s, made counters again) count
//! as natively; a vertex stage capturing an output block it lays out itself, at a location
//! its colour output has too, and one capturing a structure capture native's bytes; a
//! uniform block two stages declare without names is one block, as natively.

#![expect(
    unsafe_code,
    reason = "the native driver's SPIR-V entry points, called through their C signatures"
)]

use std::path::PathBuf;
use std::process::Command;

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

const SIZE: i32 = 8;

/// The SPIR-V calls the scenes make, on Tessera and on the native driver.
trait SpirvGl: Gl {
    /// `glShaderBinary`; `binary` `None` passes a null pointer.
    fn shader_binary(&mut self, shaders: &[GLuint], format: GLenum, binary: Option<&[u8]>);
    /// `glShaderBinary` with a length of its own (the binary holds at least that much).
    fn shader_binary_n(&mut self, shaders: &[GLuint], binary: &[u8], length: GLsizei);
    /// `glSpecializeShader`.
    fn specialize(&mut self, shader: GLuint, entry: &str, indices: &[GLuint], values: &[GLuint]);
    /// `glGetStringi`.
    fn stringi(&mut self, name: GLenum, index: GLuint) -> Option<String>;
}

impl SpirvGl for Context {
    fn shader_binary(&mut self, shaders: &[GLuint], format: GLenum, binary: Option<&[u8]>) {
        let length = binary.map_or(0, |b| b.len() as GLsizei);
        Context::shader_binary(
            self,
            shaders.len() as GLsizei,
            shaders,
            format,
            binary,
            length,
        )
    }
    fn shader_binary_n(&mut self, shaders: &[GLuint], binary: &[u8], length: GLsizei) {
        let n = (length.max(0) as usize).min(binary.len());
        Context::shader_binary(
            self,
            shaders.len() as GLsizei,
            shaders,
            SHADER_BINARY_FORMAT_SPIR_V,
            Some(&binary[..n]),
            length,
        )
    }
    fn specialize(&mut self, shader: GLuint, entry: &str, indices: &[GLuint], values: &[GLuint]) {
        Context::specialize_shader(self, shader, entry.as_bytes(), indices, values)
    }
    fn stringi(&mut self, name: GLenum, index: GLuint) -> Option<String> {
        Context::get_stringi(self, name, index)
    }
}

/// An entry point of the native driver, by name and C signature.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl SpirvGl for NativeGl {
    fn shader_binary(&mut self, shaders: &[GLuint], format: GLenum, binary: Option<&[u8]>) {
        let length = binary.map_or(0, |b| b.len() as GLsizei);
        let p = binary.map_or(std::ptr::null(), <[u8]>::as_ptr);
        type F = unsafe extern "system" fn(GLsizei, *const GLuint, GLenum, *const u8, GLsizei);
        let f: F = native(self, "glShaderBinary");
        // SAFETY: `shaders` holds the names read, `p` (when not null) `length` bytes.
        unsafe {
            f(
                shaders.len() as GLsizei,
                shaders.as_ptr(),
                format,
                p,
                length,
            )
        }
    }
    fn shader_binary_n(&mut self, shaders: &[GLuint], binary: &[u8], length: GLsizei) {
        assert!(length <= binary.len() as GLsizei);
        type F = unsafe extern "system" fn(GLsizei, *const GLuint, GLenum, *const u8, GLsizei);
        let f: F = native(self, "glShaderBinary");
        // SAFETY: `binary` holds at least `length` bytes.
        unsafe {
            f(
                shaders.len() as GLsizei,
                shaders.as_ptr(),
                SHADER_BINARY_FORMAT_SPIR_V,
                binary.as_ptr(),
                length,
            )
        }
    }
    fn specialize(&mut self, shader: GLuint, entry: &str, indices: &[GLuint], values: &[GLuint]) {
        type F = unsafe extern "system" fn(GLuint, *const u8, GLuint, *const GLuint, *const GLuint);
        let f: F = native(self, "glSpecializeShader");
        let name = std::ffi::CString::new(entry).expect("no NUL in the name");
        assert_eq!(indices.len(), values.len());
        // SAFETY: a NUL-terminated name and `indices.len()` indices and values.
        unsafe {
            f(
                shader,
                name.as_ptr().cast(),
                indices.len() as GLuint,
                indices.as_ptr(),
                values.as_ptr(),
            )
        }
    }
    fn stringi(&mut self, name: GLenum, index: GLuint) -> Option<String> {
        type F = unsafe extern "system" fn(GLenum, GLuint) -> *const u8;
        let f: F = native(self, "glGetStringi");
        // SAFETY: the context is current; the string (when not null) is NUL-terminated and
        // copied at once.
        unsafe {
            let p = f(name, index);
            (!p.is_null()).then(|| {
                std::ffi::CStr::from_ptr(p.cast())
                    .to_string_lossy()
                    .into_owned()
            })
        }
    }
}

/// The SPIR-V module `glslangValidator -G` makes of `source` for `stage` (`vert`, `frag`).
fn spirv(stage: &str, source: &str) -> Vec<u8> {
    use std::hash::{Hash, Hasher};
    let mut hash = std::collections::hash_map::DefaultHasher::new();
    source.hash(&mut hash);
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "tessera-gl-spirv-{}-{:x}",
        std::process::id(),
        hash.finish()
    ));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let input = dir.join(format!("shader.{stage}"));
    let output = dir.join(format!("{stage}.spv"));
    std::fs::write(&input, source).expect("the GLSL written");
    let run = Command::new("glslangValidator")
        .arg("-G")
        .arg("-o")
        .arg(&output)
        .arg(&input)
        .output()
        .expect("glslangValidator (package glslang-tools)");
    assert!(
        run.status.success(),
        "glslangValidator -G: {}",
        String::from_utf8_lossy(&run.stdout)
    );
    let words = std::fs::read(&output).expect("the module");
    let _ = std::fs::remove_dir_all(&dir);
    words
}

const VS: &str = "#version 450
layout(location = 0) in vec2 pos;
layout(location = 0) out vec2 uv;
void main() {
    uv = pos * 0.5 + 0.5;
    gl_Position = vec4(pos, 0.0, 1.0);
}
";

const FS: &str = "#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 colour;
layout(location = 3) uniform vec4 tint;
layout(location = 7) uniform float gain;
layout(binding = 2, std140) uniform Block { vec4 offset; };
layout(binding = 1) uniform sampler2D tex;
layout(constant_id = 4) const float k = 0.25;
layout(constant_id = 9) const int mode = 0;
void main() {
    vec4 t = texture(tex, uv);
    colour = t * tint * gain + offset * k
        + (mode == 2 ? vec4(0.0, 0.0, 0.5, 0.0) : vec4(0.0));
}
";

/// A SPIR-V shader of `kind`, specialized at `main`.
fn spirv_shader(
    gl: &mut dyn SpirvGl,
    kind: GLenum,
    module: &[u8],
    indices: &[GLuint],
    values: &[GLuint],
) -> GLuint {
    let s = gl.create_shader(kind);
    gl.shader_binary(&[s], SHADER_BINARY_FORMAT_SPIR_V, Some(module));
    gl.specialize(s, "main", indices, values);
    s
}

/// The frames of a quad drawn with the SPIR-V program for two settings of its uniforms and
/// two specializations, the program's link status and the error.
fn draws(gl: &mut dyn SpirvGl, vs: &[u8], fs: &[u8]) -> (Vec<Vec<u8>>, Vec<GLint>, GLenum) {
    tessera_tests::scenes::viewport_quad(gl);
    let ubo = gl.gen_buffer();
    gl.bind_buffer(UNIFORM_BUFFER, ubo);
    let offset: Vec<u8> = [0.25f32, 0.5, 0.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(UNIFORM_BUFFER, offset.len(), Some(&offset), STATIC_DRAW);
    gl.bind_buffer_base(UNIFORM_BUFFER, 2, ubo);
    gl.active_texture(TEXTURE1);
    let tex = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, tex);
    let texels = [
        255u8, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
    ];
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        2,
        2,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&texels),
    );
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as GLint);
    gl.viewport(0, 0, SIZE, SIZE);
    let mut frames = Vec::new();
    let mut status = Vec::new();
    for (indices, values) in [
        (&[][..], &[][..]),
        (&[9, 4][..], &[2, 0.5f32.to_bits()][..]),
    ] {
        let v = spirv_shader(gl, VERTEX_SHADER, vs, &[], &[]);
        let f = spirv_shader(gl, FRAGMENT_SHADER, fs, indices, values);
        let p = gl.create_program();
        gl.attach_shader(p, v);
        gl.attach_shader(p, f);
        gl.link_program(p);
        status.push(gl.get_programi(p, LINK_STATUS));
        gl.use_program(p);
        for (tint, gain) in [
            ([1.0f32, 1.0, 1.0, 1.0], 1.0f32),
            ([0.5, 1.0, 0.25, 1.0], 0.5),
        ] {
            gl.uniform4fv(3, &tint);
            gl.uniform1f(7, gain);
            gl.clear_color(0.0, 0.0, 0.0, 0.0);
            gl.clear(COLOR_BUFFER_BIT);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
            let mut px = vec![0; (SIZE * SIZE * 4) as usize];
            gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
            frames.push(px);
        }
    }
    (frames, status, gl.get_error())
}

#[test]
fn a_spirv_program_draws_the_native_pixels() {
    let (vs, fs) = (spirv("vert", VS), spirv("frag", FS));
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = draws(&mut native, &vs, &fs);
    drop(native);
    assert_eq!(expected.1, [TRUE as GLint, TRUE as GLint]);
    assert_eq!(expected.2, NO_ERROR);
    // The texture's red texel, tinted, plus the block's offset times k (0.25, then 0.5
    // with mode 2's blue).
    assert_eq!(&expected.0[0][..4], &[255, 32, 0, 255]);
    assert_eq!(&expected.0[2][..4], &[255, 64, 128, 255]);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = draws(&mut ctx, &vs, &fs);
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

/// The calls' errors and the shaders' states, as (what, values) lines.
fn transcript(gl: &mut dyn SpirvGl, vs: &[u8], fs: &[u8]) -> Vec<(String, Vec<i64>)> {
    let mut out = Vec::new();
    let mut push = |gl: &mut dyn SpirvGl, what: &str, mut values: Vec<i64>| {
        values.push(i64::from(gl.get_error()));
        out.push((what.to_owned(), values));
    };
    let state = |gl: &mut dyn SpirvGl, s: GLuint| -> Vec<i64> {
        [SPIR_V_BINARY, COMPILE_STATUS, SHADER_SOURCE_LENGTH]
            .iter()
            .map(|&p| i64::from(gl.get_shaderi(s, p)))
            .collect()
    };
    let v = gl.create_shader(VERTEX_SHADER);
    let f = gl.create_shader(FRAGMENT_SHADER);
    let p = gl.create_program();
    let fresh = state(gl, v);
    push(gl, "fresh shader", fresh);
    gl.shader_binary(&[v], SHADER_BINARY_FORMAT_SPIR_V, None);
    push(gl, "null binary", vec![]);
    gl.shader_binary_n(&[v], vs, 6);
    push(gl, "length not a multiple of 4", vec![]);
    gl.shader_binary(&[v, p], SHADER_BINARY_FORMAT_SPIR_V, Some(vs));
    push(gl, "shader and program", vec![]);
    gl.shader_binary(&[v, 4242], SHADER_BINARY_FORMAT_SPIR_V, Some(vs));
    push(gl, "no object", vec![]);
    gl.shader_binary(&[v], 0x1234, Some(vs));
    push(gl, "bad format", vec![]);
    gl.shader_binary(&[], SHADER_BINARY_FORMAT_SPIR_V, Some(vs));
    push(gl, "no shader", vec![]);
    let st = state(gl, v);
    push(gl, "after refused binaries", st);
    gl.specialize(v, "main", &[], &[]);
    push(gl, "specialize a GLSL shader", vec![]);
    gl.specialize(p, "main", &[], &[]);
    push(gl, "specialize a program", vec![]);
    gl.specialize(4242, "main", &[], &[]);
    push(gl, "specialize no object", vec![]);
    gl.shader_source(v, "#version 450\nvoid main() {}\n");
    gl.shader_binary(&[v], SHADER_BINARY_FORMAT_SPIR_V, Some(vs));
    let st = state(gl, v);
    push(gl, "binary replaces a source", st);
    gl.compile_shader(v);
    push(gl, "compile a SPIR-V shader", vec![]);
    gl.specialize(v, "mian", &[], &[]);
    push(gl, "no such entry point", vec![]);
    gl.shader_binary(&[f], SHADER_BINARY_FORMAT_SPIR_V, Some(vs));
    gl.specialize(f, "main", &[], &[]);
    push(gl, "entry point of another stage", vec![]);
    gl.shader_binary(&[f], SHADER_BINARY_FORMAT_SPIR_V, Some(fs));
    gl.specialize(f, "main", &[4, 5], &[1, 2]);
    push(gl, "unknown constant index", vec![]);
    let st = state(gl, f);
    push(gl, "after refused specializations", st);
    gl.specialize(v, "main", &[], &[]);
    let st = state(gl, v);
    push(gl, "specialized", st);
    gl.specialize(v, "main", &[], &[]);
    push(gl, "specialized twice", vec![]);
    let garbage = [0x0723_0203u32, 0x0001_0000, 0, 8, 0, 0x0005_0011];
    let garbage: Vec<u8> = garbage.iter().flat_map(|w| w.to_le_bytes()).collect();
    gl.shader_binary(&[f], SHADER_BINARY_FORMAT_SPIR_V, Some(&garbage));
    gl.specialize(f, "main", &[], &[]);
    push(gl, "malformed module", vec![]);
    let st = state(gl, f);
    push(gl, "malformed, not specialized", st);

    // SPIR-V and GLSL do not link together.
    let g = gl.create_shader(FRAGMENT_SHADER);
    gl.shader_source(
        g,
        "#version 450\nlayout(location = 0) in vec2 uv;\nout vec4 o;\nvoid main() { o = vec4(uv, 0.0, 1.0); }\n",
    );
    gl.compile_shader(g);
    gl.attach_shader(p, v);
    gl.attach_shader(p, g);
    gl.link_program(p);
    let linked = gl.get_programi(p, LINK_STATUS);
    push(gl, "SPIR-V with GLSL", vec![i64::from(linked)]);
    // An unspecialized module does not link.
    gl.detach_shader(p, g);
    gl.shader_binary(&[f], SHADER_BINARY_FORMAT_SPIR_V, Some(fs));
    gl.attach_shader(p, f);
    gl.link_program(p);
    let linked = gl.get_programi(p, LINK_STATUS);
    push(gl, "unspecialized module", vec![i64::from(linked)]);
    gl.specialize(f, "main", &[], &[]);
    gl.link_program(p);
    let linked = gl.get_programi(p, LINK_STATUS);
    push(gl, "both specialized", vec![i64::from(linked)]);
    // A source breaks the association.
    gl.shader_source(v, "#version 450\nvoid main() {}\n");
    let st = state(gl, v);
    push(gl, "source after a binary", st);

    let past = gl.stringi(SPIR_V_EXTENSIONS, 1000).is_some();
    push(gl, "SPIR-V extension past the list", vec![i64::from(past)]);
    out
}

#[test]
fn spirv_errors_and_states_match_the_native_driver() {
    let (vs, fs) = (spirv("vert", VS), spirv("frag", FS));
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = transcript(&mut native, &vs, &fs);
    drop(native);
    // Spot checks of the oracle: Mesa's codes for a program among the shaders, a
    // specialization of an unknown index and a mixed link.
    assert!(
        expected.contains(&(
            "shader and program".to_owned(),
            vec![i64::from(INVALID_OPERATION)]
        )),
        "{expected:?}"
    );
    assert!(expected.contains(&(
        "unknown constant index".to_owned(),
        vec![i64::from(INVALID_VALUE)]
    )));
    assert!(expected.contains(&(
        "SPIR-V with GLSL".to_owned(),
        vec![i64::from(FALSE), i64::from(NO_ERROR)]
    )));
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let got = transcript(&mut ctx, &vs, &fs);
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!(g, e, "{}", backend.name());
        }
        assert_eq!(got.len(), expected.len());
    }
}

/// Both strings are advertised on both backends, and the SPIR-V extension list is what the
/// backend carries out: `SPV_KHR_shader_draw_parameters` where draw parameters are (Vulkan),
/// nothing on GLES; an index past it is `INVALID_VALUE`.
#[test]
fn spirv_extension_list_names_what_each_backend_carries_out() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names: Vec<String> = (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
            .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
            .collect();
        let spirv: Vec<String> = (0..ctx.get_integer(NUM_SPIR_V_EXTENSIONS) as GLuint)
            .filter_map(|i| ctx.get_stringi(SPIR_V_EXTENSIONS, i))
            .collect();
        for name in ["GL_ARB_gl_spirv", "GL_ARB_spirv_extensions"] {
            assert!(
                names.iter().any(|e| e == name),
                "{}: {name}",
                backend.name()
            );
        }
        let draw_parameters = names.iter().any(|e| e == "GL_ARB_shader_draw_parameters");
        let expected: &[&str] = if draw_parameters {
            &["SPV_KHR_shader_draw_parameters"]
        } else {
            &[]
        };
        assert_eq!(spirv, expected, "{}", backend.name());
        assert_eq!(ctx.get_error(), NO_ERROR);
        assert_eq!(ctx.get_stringi(SPIR_V_EXTENSIONS, 1), None);
        assert_eq!(ctx.get_error(), INVALID_VALUE);
    }
}

/// A fragment stage using atomic counters (SPIR-V's `AtomicCounter` variables: increment,
/// decrement and load on a counter and an array of them), run for one fragment.
const COUNTER_VS: &str = "#version 450
void main() { gl_Position = vec4(0.125, 0.125, 0.0, 1.0); }
";

const COUNTER_FS: &str = "#version 450
layout(binding = 0, offset = 4) uniform atomic_uint a;
layout(binding = 0, offset = 8) uniform atomic_uint b[2];
layout(location = 0) out vec4 colour;
void main() {
    uint x = atomicCounterIncrement(a);
    uint y = atomicCounterDecrement(b[1]);
    uint z = atomicCounter(b[0]);
    uint w = atomicCounterIncrement(b[0]);
    colour = vec4(x, y, z, w) / 255.0;
}
";

/// The pixel the one fragment wrote and the counters afterwards, the link status and the
/// error.
fn counters(gl: &mut dyn SpirvGl, vs: &[u8], fs: &[u8]) -> (Vec<u8>, Vec<u8>, GLint, GLenum) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let v = spirv_shader(gl, VERTEX_SHADER, vs, &[], &[]);
    let f = spirv_shader(gl, FRAGMENT_SHADER, fs, &[], &[]);
    let p = gl.create_program();
    gl.attach_shader(p, v);
    gl.attach_shader(p, f);
    gl.link_program(p);
    let linked = gl.get_programi(p, LINK_STATUS);
    gl.use_program(p);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ATOMIC_COUNTER_BUFFER, buf);
    let initial: Vec<u8> = [1u32, 5, 3, 9]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ATOMIC_COUNTER_BUFFER, 16, Some(&initial), DYNAMIC_COPY);
    gl.bind_buffer_base(ATOMIC_COUNTER_BUFFER, 0, buf);
    gl.viewport(0, 0, SIZE, SIZE);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(POINTS, 0, 1);
    let mut px = vec![0; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
    let mut after = vec![0; 16];
    gl.get_buffer_sub_data(ATOMIC_COUNTER_BUFFER, 0, &mut after);
    (px, after, linked, gl.get_error())
}

#[test]
fn spirv_atomic_counters_count_as_natively() {
    let (vs, fs) = (spirv("vert", COUNTER_VS), spirv("frag", COUNTER_FS));
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = counters(&mut native, &vs, &fs);
    drop(native);
    assert_eq!((expected.2, expected.3), (TRUE as GLint, NO_ERROR));
    // Pixel (4, 4): the increment's value before (5), the decrement's after (8), the load
    // (3) and the second increment's value before (3).
    let at = ((4 * SIZE + 4) * 4) as usize;
    assert_eq!(&expected.0[at..at + 4], &[5, 8, 3, 3]);
    let words: Vec<u32> = [1u32, 6, 4, 8].to_vec();
    let bytes: Vec<u8> = words.iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(expected.1, bytes);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = counters(&mut ctx, &vs, &fs);
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

/// A vertex stage capturing an output block it lays out itself (`XfbBuffer`, `XfbStride` and
/// member `Offset`s), whose `Location` the module gives a colour output too, as piglit's
/// modules do (the GLSL gives it location 1; the test moves it to 0 in the SPIR-V).
const XFB_VS: &str = "#version 450
layout(location = 0) out vec4 colour;
layout(location = 1, xfb_buffer = 0, xfb_offset = 0) out block {
    float f;
    vec4 v;
    float f2[2];
} x;
void main() {
    colour = vec4(0.0);
    x.f = 1.0 + float(gl_VertexID);
    x.v = vec4(2.0, 3.0, 4.0, 5.0);
    x.f2[0] = 6.0;
    x.f2[1] = 7.0 * float(gl_VertexID);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
";

/// `module` with every `Location 1` decoration made `Location 0`.
fn aliased(module: &[u8]) -> Vec<u8> {
    let mut words: Vec<u32> = module
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut at = 5;
    let mut moved = 0;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let opcode = words[at] & 0xffff;
        if opcode == 71 && count == 4 && words[at + 2] == 30 && words[at + 3] == 1 {
            words[at + 3] = 0;
            moved += 1;
        }
        at += count.max(1);
    }
    assert_eq!(moved, 1, "the block's Location decoration");
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The captured bytes of two points, the captured varyings' count, the link status, the
/// primitives written and the error.
fn captures(gl: &mut dyn SpirvGl, vs: &[u8]) -> (Vec<u8>, GLint, GLint, GLenum) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let v = spirv_shader(gl, VERTEX_SHADER, vs, &[], &[]);
    let p = gl.create_program();
    gl.attach_shader(p, v);
    gl.link_program(p);
    let linked = gl.get_programi(p, LINK_STATUS);
    let varyings = gl.get_programi(p, TRANSFORM_FEEDBACK_VARYINGS);
    gl.use_program(p);
    let buf = gl.gen_buffer();
    gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, buf);
    let fill = vec![0xffu8; 64];
    gl.buffer_data(TRANSFORM_FEEDBACK_BUFFER, 64, Some(&fill), STREAM_READ);
    gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, 0, buf);
    gl.enable(RASTERIZER_DISCARD);
    gl.begin_transform_feedback(POINTS);
    gl.draw_arrays(POINTS, 0, 2);
    gl.end_transform_feedback();
    gl.disable(RASTERIZER_DISCARD);
    let mut out = vec![0; 64];
    gl.get_buffer_sub_data(TRANSFORM_FEEDBACK_BUFFER, 0, &mut out);
    (out, varyings, linked, gl.get_error())
}

/// A vertex stage capturing an output of structure type (GL captures it member by member).
const XFB_STRUCT_VS: &str = "#version 450
struct S { float f; vec4 v; float f2[2]; };
layout(location = 0) out vec4 colour;
layout(location = 1, xfb_buffer = 0, xfb_offset = 0) out S x;
void main() {
    colour = vec4(0.0);
    x.f = 1.0 + float(gl_VertexID);
    x.v = vec4(2.0, 3.0, 4.0, 5.0);
    x.f2[0] = 6.0;
    x.f2[1] = 7.0 * float(gl_VertexID);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
";

#[test]
fn spirv_transform_feedback_captures_as_natively() {
    let block = aliased(&spirv("vert", XFB_VS));
    let structure = spirv("vert", XFB_STRUCT_VS);
    for vs in [block, structure] {
        transform_feedback_case(&vs);
    }
}

fn transform_feedback_case(vs: &[u8]) {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = captures(&mut native, vs);
    drop(native);
    assert_eq!(
        (expected.1, expected.2, expected.3),
        (3, TRUE as GLint, NO_ERROR)
    );
    let floats: Vec<f32> = expected
        .0
        .chunks_exact(4)
        .take(14)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(
        floats,
        [
            1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 2.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0
        ]
    );
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = captures(&mut ctx, vs);
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

/// Two stages declaring one uniform block at binding 5, each using a member of it; the test
/// strips every `OpName` and `OpMemberName` from the modules, so the block is matched by its
/// binding alone, as GL's SPIR-V matches it.
const BLOCK_VS: &str = "#version 450
layout(location = 0) in vec2 pos;
layout(location = 0) out vec4 shade;
layout(binding = 5, std140) uniform Block { vec4 a; vec2 b; } blk;
void main() {
    shade = blk.a;
    gl_Position = vec4(pos, 0.0, 1.0);
}
";

const BLOCK_FS: &str = "#version 450
layout(location = 0) in vec4 shade;
layout(location = 0) out vec4 colour;
layout(binding = 5, std140) uniform Block { vec4 a; vec2 b; } blk;
void main() { colour = shade + vec4(0.0, blk.b, 0.0); }
";

/// `module` without its `OpName` and `OpMemberName` instructions.
fn unnamed(module: &[u8]) -> Vec<u8> {
    let words: Vec<u32> = module
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut out = words[..5].to_vec();
    let mut at = 5;
    while at < words.len() {
        let count = ((words[at] >> 16) as usize).max(1);
        if !matches!(words[at] & 0xffff, 5 | 6) {
            out.extend_from_slice(&words[at..at + count]);
        }
        at += count;
    }
    assert!(out.len() < words.len(), "the module had names");
    out.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The frame drawn with the block's values, the active uniform blocks and uniforms, the
/// link status and the error.
fn shared_block(gl: &mut dyn SpirvGl, vs: &[u8], fs: &[u8]) -> (Vec<u8>, [GLint; 3], GLenum) {
    tessera_tests::scenes::viewport_quad(gl);
    let ubo = gl.gen_buffer();
    gl.bind_buffer(UNIFORM_BUFFER, ubo);
    let values: Vec<u8> = [0.5f32, 0.0, 0.0, 1.0, 0.25, 0.75, 0.0, 0.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(UNIFORM_BUFFER, values.len(), Some(&values), STATIC_DRAW);
    gl.bind_buffer_base(UNIFORM_BUFFER, 5, ubo);
    let v = spirv_shader(gl, VERTEX_SHADER, vs, &[], &[]);
    let f = spirv_shader(gl, FRAGMENT_SHADER, fs, &[], &[]);
    let p = gl.create_program();
    gl.attach_shader(p, v);
    gl.attach_shader(p, f);
    gl.link_program(p);
    let counts = [
        gl.get_programi(p, LINK_STATUS),
        gl.get_programi(p, ACTIVE_UNIFORM_BLOCKS),
        gl.get_programi(p, ACTIVE_UNIFORMS),
    ];
    gl.use_program(p);
    gl.viewport(0, 0, SIZE, SIZE);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut px = vec![0; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
    (px, counts, gl.get_error())
}

#[test]
fn spirv_blocks_without_names_match_across_stages_by_binding() {
    let (vs, fs) = (
        unnamed(&spirv("vert", BLOCK_VS)),
        unnamed(&spirv("frag", BLOCK_FS)),
    );
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = shared_block(&mut native, &vs, &fs);
    drop(native);
    assert_eq!(expected.1, [TRUE as GLint, 1, 2]);
    assert_eq!(expected.2, NO_ERROR);
    assert_eq!(&expected.0[..4], &[128, 64, 191, 255]);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = shared_block(&mut ctx, &vs, &fs);
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

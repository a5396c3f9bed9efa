//! Program binaries (GL 4.1's `ARB_get_program_binary`) against the native driver on both
//! backends (Vulkan with the validation layer on, which must report nothing).
//!
//! A program saved with `glGetProgramBinary` is loaded back with `glProgramBinary` in the
//! same context, in a context behind a render thread and in a new process (this test binary
//! run again, with the binary in a file), and must behave as the program linked from
//! source: the same uniform locations and block index, uniform values back at their
//! defaults, and the same pixels, which are also the native driver's; the block's binding
//! point is the one it had when the binary was saved, as on the native driver. Native
//! binaries are not Tessera's, so the errors and the behaviour of the calls are compared,
//! not the bytes: the error transcript of the error cases (unlinked programs, sizes,
//! formats, lengths, the retrievable hint) must be the native one, and truncated or
//! corrupted binaries fail the load — `LINK_STATUS` `FALSE`, no error — on both. Binaries
//! of another format version, build or backend are refused with an info log saying why.

use std::path::PathBuf;
use std::process::Command;

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, read_back, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

const SIZE: i32 = 16;

const VS: &str = "#version 330
layout(location = 0) in vec2 pos;
uniform float scale;
uniform vec2 offset = vec2(0.125, -0.125);
out vec4 tint;
void main() {
    gl_Position = vec4(pos * scale + offset, 0.0, 1.0);
    tint = vec4(pos * 0.5 + 0.5, 0.25, 1.0);
}
";

const FS: &str = "#version 330
in vec4 tint;
uniform vec4 color = vec4(1.0, 0.5, 0.75, 1.0);
layout(std140) uniform Extra { vec4 add; };
out vec4 frag;
void main() { frag = tint * color + add; }
";

/// Where the child process finds its work: the binary's file, and the backend.
const CHILD_ENV: &str = "TESSERA_PROGRAM_BINARY_CHILD";

fn shader(gl: &mut dyn Gl, kind: GLenum, src: &str) -> GLuint {
    let s = gl.create_shader(kind);
    gl.shader_source(s, src);
    gl.compile_shader(s);
    assert_eq!(
        gl.get_shaderi(s, COMPILE_STATUS),
        1,
        "{}",
        gl.shader_info_log(s)
    );
    s
}

fn linked(gl: &mut dyn Gl) -> GLuint {
    let p = gl.create_program();
    let (vs, fs) = (
        shader(gl, VERTEX_SHADER, VS),
        shader(gl, FRAGMENT_SHADER, FS),
    );
    gl.attach_shader(p, vs);
    gl.attach_shader(p, fs);
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        1,
        "{}",
        gl.program_info_log(p)
    );
    p
}

/// The format the driver names (`PROGRAM_BINARY_FORMATS`' one value).
fn format(gl: &mut dyn Gl) -> GLenum {
    let mut v = [0; 4];
    gl.get_integerv(PROGRAM_BINARY_FORMATS, &mut v);
    v[0] as GLenum
}

/// `glGetProgramBinary` of a linked program, checked against `PROGRAM_BINARY_LENGTH`.
fn save(gl: &mut dyn Gl, p: GLuint) -> (GLenum, Vec<u8>) {
    let n = gl.get_programi(p, PROGRAM_BINARY_LENGTH);
    assert!(n > 0, "PROGRAM_BINARY_LENGTH {n}");
    let mut bytes = vec![0u8; n as usize];
    let (length, format) = gl.get_program_binary(p, n, &mut bytes);
    assert_eq!(gl.get_error(), NO_ERROR);
    assert_eq!(length, n);
    (format, bytes)
}

/// Loads a binary into a new program: its `LINK_STATUS`.
fn load(gl: &mut dyn Gl, format: GLenum, bytes: &[u8]) -> (GLuint, GLint) {
    let p = gl.create_program();
    gl.program_binary(p, format, bytes, bytes.len() as GLsizei);
    (p, gl.get_programi(p, LINK_STATUS))
}

/// What a program looks like from outside: uniform locations, the block's index and
/// binding, and the active uniforms.
fn interface(gl: &mut dyn Gl, p: GLuint) -> Vec<String> {
    let mut out: Vec<String> = ["scale", "offset", "color", "add"]
        .iter()
        .map(|n| format!("{n} at {}", gl.get_uniform_location(p, n)))
        .collect();
    let block = gl.get_uniform_block_index(p, "Extra");
    let mut binding = [-1];
    gl.get_active_uniform_blockiv(p, block, UNIFORM_BLOCK_BINDING, &mut binding);
    out.push(format!("Extra {block} binding {}", binding[0]));
    for i in 0..gl.get_programi(p, ACTIVE_UNIFORMS) as GLuint {
        out.push(format!("{:?}", gl.get_active_uniform(p, i)));
    }
    out.push(format!(
        "attribute pos at {}",
        gl.get_attrib_location(p, "pos")
    ));
    out
}

/// Draws a quad with `p` and reads the framebuffer back. Only `scale` and the block's
/// binding are set here, so `offset` and `color` are what the program holds.
fn draw(gl: &mut dyn Gl, p: GLuint) -> Vec<u8> {
    let quad: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    let bytes: Vec<u8> = quad.iter().flat_map(|v| v.to_le_bytes()).collect();
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vbo = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vbo);
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let add: [f32; 4] = [0.0, 0.125, 0.0, 0.0];
    let ubo = gl.gen_buffer();
    gl.bind_buffer(UNIFORM_BUFFER, ubo);
    let add: Vec<u8> = add.iter().flat_map(|v| v.to_le_bytes()).collect();
    gl.buffer_data(UNIFORM_BUFFER, add.len(), Some(&add), STATIC_DRAW);
    let block = gl.get_uniform_block_index(p, "Extra");
    let mut binding = [0];
    gl.get_active_uniform_blockiv(p, block, UNIFORM_BLOCK_BINDING, &mut binding);
    gl.bind_buffer_base(UNIFORM_BUFFER, binding[0] as GLuint, ubo);
    gl.use_program(p);
    let scale = gl.get_uniform_location(p, "scale");
    gl.uniform1f(scale, 0.75);
    gl.clear_color(0.0, 0.0, 0.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let pixels = read_back(gl, SIZE, SIZE);
    gl.use_program(0);
    pixels
}

/// Changes the program's uniform values, which a binary does not keep, and its block's
/// binding point, which it keeps.
fn change_state(gl: &mut dyn Gl, p: GLuint) {
    gl.use_program(p);
    let color = gl.get_uniform_location(p, "color");
    gl.uniform4f(color, 0.0, 1.0, 0.0, 1.0);
    let offset = gl.get_uniform_location(p, "offset");
    gl.uniform2f(offset, -0.5, 0.5);
    let block = gl.get_uniform_block_index(p, "Extra");
    gl.uniform_block_binding(p, block, 3);
    gl.use_program(0);
}

/// What one context's round trip saw.
struct RoundTrip {
    /// The program linked from source, drawn.
    pixels: Vec<u8>,
    /// Its interface when its binary was saved.
    interface: Vec<String>,
    /// The interface of the program loaded from the binary.
    loaded: Vec<String>,
    /// The loaded program, drawn.
    loaded_pixels: Vec<u8>,
    /// The binary.
    bytes: Vec<u8>,
}

/// The scene of one context: a program linked from source drawn, its binary saved (after
/// its uniforms and block binding changed), loaded back into a new program, and drawn.
fn round_trip(gl: &mut dyn Gl) -> RoundTrip {
    let p = linked(gl);
    let pixels = draw(gl, p);
    change_state(gl, p);
    let interface = interface(gl, p);
    let (fmt, bytes) = save(gl, p);
    assert_eq!(fmt, format(gl));
    let (q, status) = load(gl, fmt, &bytes);
    assert_eq!(status, 1, "{}", gl.program_info_log(q));
    let loaded = self::interface(gl, q);
    let loaded_pixels = draw(gl, q);
    assert_eq!(gl.get_error(), NO_ERROR);
    RoundTrip {
        pixels,
        interface,
        loaded,
        loaded_pixels,
        bytes,
    }
}

/// The child process: loads the binary named by [`CHILD_ENV`] into a new context on the
/// named backend, draws, and writes `LINK_STATUS`, the interface and the pixels next to it.
fn child(spec: &str) {
    let (backend, file) = spec.split_once(':').expect("backend:file");
    let bytes = std::fs::read(file).expect("the binary's file");
    let mut native;
    let mut ctx;
    let gl: &mut dyn Gl = match backend {
        "native" => {
            native = NativeGl::new(SIZE, SIZE).expect("native desktop GL");
            &mut native
        }
        name => {
            let backend = *Backend::ALL
                .iter()
                .find(|b| b.name() == name)
                .expect("a backend name");
            ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
            &mut ctx
        }
    };
    let fmt = format(gl);
    let (p, status) = load(gl, fmt, &bytes);
    let mut report = format!("{status}\n{}\n", interface(gl, p).join("\n"));
    let pixels = draw(gl, p);
    report.push_str(&format!("{:?}\n{:#x}\n", pixels, gl.get_error()));
    std::fs::write(format!("{file}.out"), report).expect("writes its report");
}

/// Runs the child on `backend` with `bytes`: its report.
fn in_new_process(backend: &str, bytes: &[u8]) -> String {
    let file: PathBuf = std::env::temp_dir().join(format!(
        "tessera-program-binary-{}-{backend}",
        std::process::id()
    ));
    std::fs::write(&file, bytes).unwrap();
    let status = Command::new(std::env::current_exe().unwrap())
        .args([
            "program_binary::a_binary_loads_in_a_new_process_and_draws_as_the_source_program",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, format!("{backend}:{}", file.display()))
        .status()
        .expect("runs the child");
    assert!(status.success(), "the child on {backend} failed");
    let out = PathBuf::from(format!("{}.out", file.display()));
    let report = std::fs::read_to_string(&out).expect("the child's report");
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&out);
    report
}

/// What the child reports for a program that behaves as the source-linked one.
fn expected_report(interface: &[String], pixels: &[u8]) -> String {
    format!("1\n{}\n{pixels:?}\n0x0\n", interface.join("\n"))
}

fn assert_clean(ctx: &mut tessera_engine::Context, label: &str) {
    ctx.finish();
    assert!(!ctx.is_lost(), "{label}: the session ended");
    let events: Vec<Event> = ctx.take_events();
    assert!(events.is_empty(), "{label}: {events:?}");
}

#[test]
fn a_binary_loads_in_a_new_process_and_draws_as_the_source_program() {
    if let Ok(spec) = std::env::var(CHILD_ENV) {
        return child(&spec);
    }
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = round_trip(&mut native);
    drop(native);
    assert_eq!(
        expected.loaded, expected.interface,
        "native: the loaded program's interface"
    );
    assert!(
        expected.loaded_pixels == expected.pixels,
        "native: the loaded program's pixels"
    );
    assert_eq!(
        in_new_process("native", &expected.bytes),
        expected_report(&expected.interface, &expected.pixels),
        "native in a new process"
    );
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let got = round_trip(&mut ctx);
        let name = backend.name();
        // The order of active uniforms (and so default-block locations) is the front
        // end's, not Mesa's: the loaded program must have its source program's.
        assert!(
            got.pixels == expected.pixels,
            "{name}: the source program's pixels"
        );
        assert_eq!(
            got.loaded, got.interface,
            "{name}: the loaded program's interface"
        );
        assert!(
            got.loaded_pixels == expected.pixels,
            "{name}: the loaded program's pixels"
        );
        assert_clean(&mut ctx, name);
        drop(ctx);
        // A context of the same backend behind a render thread takes the binary too: the
        // transport is no part of what made it.
        let mut threaded = tessera_on(backend, TransportKind::Thread, SIZE, SIZE);
        let fmt = format(&mut threaded);
        let (p, status) = load(&mut threaded, fmt, &got.bytes);
        assert_eq!(status, 1, "{name} over thread");
        assert!(
            draw(&mut threaded, p) == expected.pixels,
            "{name} over thread: the loaded program's pixels"
        );
        assert_clean(&mut threaded, name);
        drop(threaded);
        assert_eq!(
            in_new_process(name, &got.bytes),
            expected_report(&got.interface, &expected.pixels),
            "{name} in a new process"
        );
    }
}

/// The calls of the error cases, each with the errors and values it gives.
fn errors(gl: &mut dyn Gl) -> Vec<(String, Vec<i64>)> {
    let mut log = Vec::new();
    let mut step = |gl: &mut dyn Gl, what: &str, values: Vec<i64>| {
        let mut v = values;
        v.push(i64::from(gl.get_error()));
        log.push((what.to_string(), v));
    };
    let mut n = [0; 4];
    gl.get_integerv(NUM_PROGRAM_BINARY_FORMATS, &mut n);
    step(gl, "NUM_PROGRAM_BINARY_FORMATS", vec![i64::from(n[0])]);
    let fmt = format(gl);
    let p = linked(gl);
    let unlinked = gl.create_program();
    let vs = shader(gl, VERTEX_SHADER, VS);
    let mut buf = vec![0u8; 1 << 20];
    let length = gl.get_programi(p, PROGRAM_BINARY_LENGTH);
    step(gl, "PROGRAM_BINARY_LENGTH > 0", vec![i64::from(length > 0)]);
    let unlinked_length = gl.get_programi(unlinked, PROGRAM_BINARY_LENGTH);
    step(gl, "unlinked length", vec![i64::from(unlinked_length)]);
    for (what, program, size) in [
        ("negative bufSize", p, -1),
        ("bufSize one short", p, length - 1),
        ("bufSize 0", p, 0),
        ("unlinked program", unlinked, length),
        ("not a name", 4321, length),
        ("a shader", vs, length),
    ] {
        let (written, format) = gl.get_program_binary(program, size, &mut buf);
        step(gl, what, vec![i64::from(written), i64::from(format)]);
    }
    let (written, got_format) = gl.get_program_binary(p, length, &mut buf);
    step(
        gl,
        "exact bufSize",
        vec![i64::from(written == length), i64::from(got_format == fmt)],
    );
    let good = buf[..length as usize].to_vec();
    // Each load goes into a linked program, so a failed load shows in LINK_STATUS.
    let mut load_into = |gl: &mut dyn Gl, what: &str, format: GLenum, bytes: &[u8], len| {
        let q = linked(gl);
        gl.program_binary(q, format, bytes, len);
        let error = gl.get_error();
        let status = gl.get_programi(q, LINK_STATUS);
        gl.use_program(q);
        let use_error = gl.get_error();
        gl.use_program(0);
        let binary_length = gl.get_programi(q, PROGRAM_BINARY_LENGTH) > 0;
        step(
            gl,
            what,
            vec![
                i64::from(error),
                i64::from(status),
                i64::from(use_error),
                i64::from(binary_length),
            ],
        );
    };
    load_into(gl, "good", fmt, &good, length);
    load_into(gl, "unknown format", 0x1234, &good, length);
    load_into(gl, "negative length", fmt, &good, -1);
    load_into(gl, "zero length", fmt, &good, 0);
    load_into(gl, "truncated", fmt, &good, length / 2);
    load_into(gl, "one byte short", fmt, &good, length - 1);
    let mut corrupt = good.clone();
    let at = corrupt.len() / 2;
    corrupt[at] ^= 0x5a;
    load_into(gl, "corrupted", fmt, &corrupt, length);
    let garbage: Vec<u8> = (0..length).map(|i| (i * 7) as u8).collect();
    load_into(gl, "garbage", fmt, &garbage, length);
    gl.program_binary(4321, fmt, &good, length);
    step(gl, "load into not a name", vec![]);
    gl.program_binary(vs, fmt, &good, length);
    step(gl, "load into a shader", vec![]);
    // A current program whose load failed draws with its last executable, as after a
    // failed link.
    let q = linked(gl);
    gl.use_program(q);
    gl.program_binary(q, fmt, &corrupt, length);
    step(gl, "failed load of the current program", vec![]);
    gl.use_program(0);
    // The retrievable hint takes effect at the next successful link.
    let h = gl.create_program();
    gl.program_parameteri(h, PROGRAM_BINARY_RETRIEVABLE_HINT, 2);
    step(gl, "hint 2", vec![]);
    gl.program_parameteri(h, 0x1234, 1);
    step(gl, "unknown parameter", vec![]);
    gl.program_parameteri(4321, PROGRAM_BINARY_RETRIEVABLE_HINT, 1);
    step(gl, "hint of not a name", vec![]);
    gl.program_parameteri(vs, PROGRAM_BINARY_RETRIEVABLE_HINT, 1);
    step(gl, "hint of a shader", vec![]);
    gl.program_parameteri(h, PROGRAM_BINARY_RETRIEVABLE_HINT, 1);
    let before = gl.get_programi(h, PROGRAM_BINARY_RETRIEVABLE_HINT);
    step(gl, "hint before the link", vec![i64::from(before)]);
    let (hv, hf) = (
        shader(gl, VERTEX_SHADER, VS),
        shader(gl, FRAGMENT_SHADER, FS),
    );
    gl.attach_shader(h, hv);
    gl.attach_shader(h, hf);
    gl.link_program(h);
    let after = gl.get_programi(h, PROGRAM_BINARY_RETRIEVABLE_HINT);
    step(gl, "hint after the link", vec![i64::from(after)]);
    log
}

#[test]
fn error_cases_match_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = errors(&mut native);
    drop(native);
    // What the spec and Mesa say, pinned so that the comparison below compares something.
    let on_native = |step: &str| &expected.iter().find(|(s, _)| s == step).expect(step).1;
    assert_eq!(on_native("NUM_PROGRAM_BINARY_FORMATS"), &[1, 0]);
    assert_eq!(
        on_native("negative bufSize"),
        &[-1, 0, i64::from(INVALID_VALUE)]
    );
    assert_eq!(
        on_native("bufSize one short"),
        &[0, 0, i64::from(INVALID_OPERATION)]
    );
    assert_eq!(
        on_native("unlinked program"),
        &[0, 0, i64::from(INVALID_OPERATION)]
    );
    let failed = [0, 0, i64::from(INVALID_OPERATION), 0, 0];
    assert_eq!(on_native("unknown format")[0], i64::from(INVALID_ENUM));
    assert_eq!(on_native("corrupted"), &failed);
    assert_eq!(on_native("truncated"), &failed);
    assert_eq!(on_native("hint after the link"), &[1, 0]);
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let got = errors(&mut ctx);
        tessera_tests::differential::assert_same_steps(backend.name(), &expected, &got, |v| {
            format!("{v:?}")
        });
        assert_clean(&mut ctx, backend.name());
    }
}

/// Rewrites a Tessera binary's header field at `at` and its checksum, so only that field
/// differs.
fn with_field(bytes: &[u8], at: usize, value: &[u8]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at..at + value.len()].copy_from_slice(value);
    let mut sum: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in &b[16..] {
        sum ^= u64::from(byte);
        sum = sum.wrapping_mul(0x0100_0000_01b3);
    }
    b[8..16].copy_from_slice(&sum.to_le_bytes());
    b
}

#[test]
fn binaries_of_another_version_build_or_backend_fail_the_load_with_a_log() {
    let mut vk = tessera_on(Backend::Vulkan, TransportKind::Inproc, SIZE, SIZE);
    let p = linked(&mut vk);
    let (fmt, bytes) = save(&mut vk, p);
    assert_eq!(fmt, 0x5445_5353, "Tessera's format");
    assert_eq!(&bytes[..4], b"TSPB");
    let cases = [
        (
            with_field(&bytes, 4, &2u32.to_le_bytes()),
            "format version 2",
        ),
        (with_field(&bytes, 16, &[0; 8]), "another Tessera build"),
        (with_field(&bytes, 24, &[0; 8]), "another Tessera build"),
        (bytes[..bytes.len() - 1].to_vec(), "corrupt or truncated"),
        (b"TSP".to_vec(), "not a Tessera program binary"),
    ];
    for (case, words) in &cases {
        let (q, status) = load(&mut vk, fmt, case);
        assert_eq!(vk.get_error(), NO_ERROR);
        assert_eq!(status, 0, "{words}");
        let log = vk.program_info_log(q);
        assert!(log.contains(words), "{words}: {log}");
    }
    assert_clean(&mut vk, "vulkan");
    drop(vk);
    let mut gles = tessera_on(Backend::Gles, TransportKind::Inproc, SIZE, SIZE);
    let (q, status) = load(&mut gles, fmt, &bytes);
    assert_eq!((status, gles.get_error()), (0, NO_ERROR));
    let log = gles.program_info_log(q);
    assert!(log.contains("made for the vulkan backend"), "{log}");
    assert_clean(&mut gles, "gles");
}

/// Loads `bytes` over the program that is current: the next draw, with no `glUseProgram`
/// in between, uses the loaded executable (GL 4.5 §7.3; piglit's
/// `restore-implicit-use-program` in a compatibility context).
fn load_over_current(gl: &mut dyn Gl) -> Vec<u8> {
    let p = linked(gl);
    change_state(gl, p);
    let (fmt, bytes) = save(gl, p);
    let red = gl.create_program();
    let vs = shader(gl, VERTEX_SHADER, VS);
    let fs = shader(
        gl,
        FRAGMENT_SHADER,
        "#version 330\nout vec4 frag; uniform Extra { vec4 add; };\n\
         void main() { frag = vec4(1.0, 0.0, 0.0, 1.0) + add; }\n",
    );
    gl.attach_shader(red, vs);
    gl.attach_shader(red, fs);
    gl.link_program(red);
    let mut pixels = draw(gl, red);
    gl.use_program(red);
    gl.program_binary(red, fmt, &bytes, bytes.len() as GLsizei);
    assert_eq!(gl.get_programi(red, LINK_STATUS), 1);
    let scale = gl.get_uniform_location(red, "scale");
    gl.uniform1f(scale, 0.5);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    pixels.extend(read_back(gl, SIZE, SIZE));
    assert_eq!(gl.get_error(), NO_ERROR);
    pixels
}

#[test]
fn loading_over_the_current_program_installs_it_as_the_native_driver_does() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = load_over_current(&mut native);
    drop(native);
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        assert!(
            load_over_current(&mut ctx) == expected,
            "{}",
            backend.name()
        );
        assert_clean(&mut ctx, backend.name());
    }
}

/// A program capturing two varyings into separate buffers, saved and loaded into a new
/// program object: its transform feedback state (piglit's `xfb-varyings` in a compatibility
/// context) and what it captures.
fn xfb_after_load(gl: &mut dyn Gl) -> Vec<String> {
    let vs = shader(
        gl,
        VERTEX_SHADER,
        "#version 330\nout vec4 a; out float b;\n\
         void main() { gl_Position = vec4(0.0); a = vec4(1.0, 2.0, 3.0, 4.0); b = 5.0; }\n",
    );
    let p = gl.create_program();
    gl.attach_shader(p, vs);
    gl.transform_feedback_varyings(p, &["b", "a"], SEPARATE_ATTRIBS);
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        1,
        "{}",
        gl.program_info_log(p)
    );
    let (fmt, bytes) = save(gl, p);
    gl.delete_program(p);
    let (q, status) = load(gl, fmt, &bytes);
    let mut out = vec![format!("status {status}")];
    for pname in [
        TRANSFORM_FEEDBACK_BUFFER_MODE,
        TRANSFORM_FEEDBACK_VARYINGS,
        TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH,
    ] {
        out.push(format!("{pname:#x} {}", gl.get_programi(q, pname)));
    }
    for i in 0..2 {
        out.push(format!("{:?}", gl.get_transform_feedback_varying(q, i)));
    }
    let buffers = [gl.gen_buffer(), gl.gen_buffer()];
    for (i, &b) in buffers.iter().enumerate() {
        gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, b);
        gl.buffer_data(TRANSFORM_FEEDBACK_BUFFER, 64, None, STREAM_READ);
        gl.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, i as GLuint, b);
    }
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    gl.use_program(q);
    gl.enable(RASTERIZER_DISCARD);
    gl.begin_transform_feedback(POINTS);
    gl.draw_arrays(POINTS, 0, 2);
    gl.end_transform_feedback();
    gl.disable(RASTERIZER_DISCARD);
    for (i, size) in [(0, 8), (1, 32)] {
        gl.bind_buffer(TRANSFORM_FEEDBACK_BUFFER, buffers[i]);
        out.push(format!(
            "{:?}",
            gl.read_mapped(TRANSFORM_FEEDBACK_BUFFER, 0, size)
        ));
    }
    out.push(format!("error {:#x}", gl.get_error()));
    out
}

#[test]
fn transform_feedback_state_and_capture_survive_a_binary_as_on_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = xfb_after_load(&mut native);
    drop(native);
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        assert_eq!(xfb_after_load(&mut ctx), expected, "{}", backend.name());
        assert_clean(&mut ctx, backend.name());
    }
}

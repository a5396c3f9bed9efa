//! Explicit uniform locations (`ARB_explicit_uniform_location`, GL 4.3) against the native
//! driver on both backends (Vulkan with the validation layer on, which must report
//! nothing): `MAX_UNIFORM_LOCATIONS`, the locations `glGetUniformLocation` answers for
//! explicit ones (arrays and arrays of arrays taking the locations after theirs) and for
//! the uniforms numbered around them, `glUniform*` through them (a frame), a location no
//! uniform takes, the link refusing overlapping locations, and a program loaded from its
//! binary keeping them.

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

const SIZE: i32 = 4;

const VS: &str = "#version 330 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

/// The fragment stage in GLSL 4.30 and in 3.30 with the extension: explicit locations on a
/// vector, an array and a struct, and uniforms without one (an array of arrays in 4.30, a
/// flat array in 3.30).
const FS_BODY: &str = "
struct S { float x; vec2 y; };
layout(location = 3) uniform vec4 e;
layout(location = 7) uniform vec4 f[2];
layout(location = 12) uniform S s;
uniform vec4 g;
#if __VERSION__ >= 430
uniform float a[2][3];
#define A12 a[1][2]
#define A01 a[0][1]
#else
uniform float a[6];
#define A12 a[5]
#define A01 a[1]
#endif
out vec4 o;
void main() {
    o = e * 0.5 + f[1] * 0.25 + g + vec4(s.x, s.y, A12) + vec4(A01);
}
";

const NAMES: &[&str] = &[
    "e", "f", "f[0]", "f[1]", "f[2]", "s.x", "s.y", "g", "a", "a[0]", "a[0][0]", "a[0][2]",
    "a[1][0]", "a[1][2]", "a[1][3]",
];

/// The values of a transcript, its frames, and for each shader version the ranges of
/// values of the program as linked and as loaded from its binary (after the load's
/// `LINK_STATUS`).
type Transcript = (Vec<i64>, Vec<Vec<u8>>, Vec<[std::ops::Range<usize>; 2]>);

/// Runs the transcript; returns its values and the frames drawn.
fn transcript(gl: &mut dyn Gl) -> Transcript {
    let mut v = Vec::new();
    let mut frames = Vec::new();
    let mut rounds = Vec::new();
    let mut max = [0];
    gl.get_integerv(MAX_UNIFORM_LOCATIONS, &mut max);
    v.push(max[0] as i64);
    v.push(gl.get_error() as i64);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let bytes: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.viewport(0, 0, SIZE, SIZE);
    for head in [
        "#version 430 core\n",
        "#version 330 core\n#extension GL_ARB_explicit_uniform_location : require\n",
    ] {
        let fs = format!("{head}{FS_BODY}");
        let mut p = link_program(gl, VS, &fs);
        let mut ranges = [0..0, 0..0];
        for (round, range) in ranges.iter_mut().enumerate() {
            if round == 1 {
                // The same program loaded from its binary.
                let mut bin = vec![0u8; gl.get_programi(p, PROGRAM_BINARY_LENGTH) as usize];
                let (len, format) = gl.get_program_binary(p, bin.len() as GLsizei, &mut bin);
                let q = gl.create_program();
                gl.program_binary(q, format, &bin[..len.max(0) as usize], len);
                v.push(gl.get_programi(q, LINK_STATUS) as i64);
                p = q;
            }
            let start = v.len();
            gl.use_program(p);
            // Names of arrays of arrays only where `a` is one (Mesa reads `a[0][2]` of a
            // flat array as `a[2]`).
            let aoa = head.contains("430");
            for name in NAMES.iter().filter(|n| aoa || !n.contains("][")) {
                v.push(gl.get_uniform_location(p, name) as i64);
            }
            gl.uniform4fv(3, &[0.2, 0.4, 0.6, 0.8]);
            gl.uniform4fv(7, &[0.0; 8]);
            gl.uniform4fv(8, &[0.4, 0.0, 0.2, 0.0]);
            gl.uniform1fv(12, &[0.1]);
            gl.uniform2fv(13, &[0.05, 0.15]);
            v.push(gl.get_error() as i64);
            let g = gl.get_uniform_location(p, "g");
            gl.uniform4fv(g, &[0.0, 0.1, 0.0, 0.0]);
            let a = gl.get_uniform_location(p, "a[1][0]");
            gl.uniform1fv(a, &[0.0, 0.0, 0.3]);
            let a = gl.get_uniform_location(p, "a[0][0]");
            gl.uniform1fv(a, &[0.9, 0.02, 0.9]);
            v.push(gl.get_error() as i64);
            // Location 5 is no uniform's; 14 is past the struct's.
            gl.uniform4fv(5, &[1.0; 4]);
            v.push(gl.get_error() as i64);
            gl.uniform1fv(14, &[1.0]);
            v.push(gl.get_error() as i64);
            gl.clear_color(0.0, 0.0, 0.0, 0.0);
            gl.clear(COLOR_BUFFER_BIT);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
            let mut px = vec![0; (SIZE * SIZE * 4) as usize];
            gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
            frames.push(px);
            *range = start..v.len();
        }
        rounds.push(ranges);
    }
    // Overlapping explicit locations, in one stage and across two, fail the link.
    for (vs, fs) in [
        (
            VS.to_string(),
            "#version 430 core\nlayout(location = 1) uniform vec4 x[3];\n\
             layout(location = 3) uniform vec4 y;\nout vec4 o;\nvoid main() { o = x[2] + y; }\n"
                .to_string(),
        ),
        (
            "#version 430 core\nlayout(location = 0) in vec2 pos;\n\
             layout(location = 2) uniform vec4 z;\n\
             void main() { gl_Position = vec4(pos, 0.0, 1.0) + z; }\n"
                .to_string(),
            "#version 430 core\nlayout(location = 2) uniform vec4 y;\nout vec4 o;\n\
             void main() { o = y; }\n"
                .to_string(),
        ),
    ] {
        let p = gl.create_program();
        for (kind, src) in [(VERTEX_SHADER, &vs), (FRAGMENT_SHADER, &fs)] {
            let s = gl.create_shader(kind);
            gl.shader_source(s, src);
            gl.compile_shader(s);
            v.push(gl.get_shaderi(s, COMPILE_STATUS) as i64);
            gl.attach_shader(p, s);
        }
        gl.link_program(p);
        v.push(gl.get_programi(p, LINK_STATUS) as i64);
    }
    v.push(gl.get_error() as i64);
    (v, frames, rounds)
}

#[test]
fn explicit_uniform_locations_match_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let mut expected = transcript(&mut native);
    drop(native);
    assert_eq!(expected.0[0], 81920);
    // A program loaded from its binary has the locations of the program linked from
    // source, so that is the oracle for it. Mesa's program binaries go through its on-disk
    // shader cache (with the cache off a load fails), which the test processes running at
    // once share and fill; under load, a program Mesa loaded has resolved `a` as `a[0]`
    // (location 4), where the same program linked from source, and every other run of
    // the load, gives -1.
    for [linked, loaded] in std::mem::take(&mut expected.2) {
        assert_eq!(expected.0[loaded.start - 1], 1, "native's load links");
        assert_eq!(linked.len(), loaded.len());
        expected.0.copy_within(linked, loaded.start);
    }
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = transcript(&mut ctx);
            assert_eq!(
                (got.0, got.1),
                (expected.0.clone(), expected.1.clone()),
                "{} {}",
                backend.name(),
                transport.name()
            );
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

/// A vertex stage for the cases that leave it alone.
const PASS_VS: &str = "#version 430 core\nlayout(location = 0) in vec2 pos;\n\
    void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";

/// One program of [`cases`]: its two stages, the names whose locations are asked, and the
/// `glUniform1fv` calls made through raw locations (each call's error is recorded).
struct Case {
    vs: &'static str,
    fs: &'static str,
    names: &'static [&'static str],
    calls: &'static [i32],
}

/// The rules beyond the plain ones: inactive uniforms keep their explicit locations (other
/// uniforms are numbered around them, an overlap with them fails the link, and
/// `glUniform*` through them is ignored without an error), every declarator of a
/// declaration takes the layout, a uniform declared in two stages with one location or
/// two, samplers, the last location, arrays used only in part, and a negative location.
const CASES: &[Case] = &[
    // piglit's inactive-uniform: the only uniform, unused.
    Case {
        vs: PASS_VS,
        fs: "#version 430 core\nlayout(location = 7) uniform float var;\nout vec4 o;\n\
             void main() { o = vec4(1.0, 0.0, 1.0, 1.0); }\n",
        names: &["var"],
        calls: &[7, 6, 8, 0],
    },
    // piglit's unused-uniform-reserve-location: an unused array's 128 locations.
    Case {
        vs: "#version 430 core\nlayout(location = 0) in vec2 pos;\n\
             layout(location = 0) uniform float array[128];\n\
             void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n",
        fs: "#version 430 core\nlayout(location = 127) uniform vec4 color;\nout vec4 o;\n\
             void main() { o = color; }\n",
        names: &["color", "array"],
        calls: &[127],
    },
    // Uniforms without a location are numbered around inactive explicit ones.
    Case {
        vs: PASS_VS,
        fs: "#version 430 core\nstruct S { float x; vec2 y; };\n\
             layout(location = 0) uniform float u[4];\nlayout(location = 6) uniform S s;\n\
             uniform vec4 g;\nuniform vec4 h[3];\nuniform float k;\nout vec4 o;\n\
             void main() { o = g + h[2] + vec4(k); }\n",
        names: &["g", "h", "h[2]", "k", "u", "u[0]", "s.x"],
        calls: &[0, 3, 4, 6, 7, 8, 9, 12],
    },
    // Every declarator of a declaration takes its layout.
    Case {
        vs: PASS_VS,
        fs: "#version 430 core\nlayout(location = 3) uniform float a, b;\nout vec4 o;\n\
             void main() { o = vec4(a, b, 0.0, 1.0); }\n",
        names: &["a", "b"],
        calls: &[3, 4],
    },
    Case {
        vs: PASS_VS,
        fs: "#version 430 core\nuniform float c, d;\nlayout(location = 1) uniform float e;\n\
             out vec4 o;\nvoid main() { o = vec4(c, d, e, 1.0); }\n",
        names: &["c", "d", "e"],
        calls: &[0, 1, 2],
    },
    // piglit's set-explicit-location-once-decl-twice, set-same-explicit-location-twice and
    // set-explicit-location-twice.
    Case {
        vs: "#version 430 core\nlayout(location = 0) in vec2 pos;\n\
             layout(location = 0) uniform vec4 foo;\n\
             void main() { gl_Position = vec4(pos, 0.0, 1.0) + foo; }\n",
        fs: "#version 430 core\nuniform vec4 foo;\nuniform vec4 bar;\nout vec4 o;\n\
             void main() { o = foo + bar; }\n",
        names: &["foo", "bar"],
        calls: &[0, 1],
    },
    Case {
        vs: "#version 430 core\nlayout(location = 0) in vec2 pos;\n\
             layout(location = 5) uniform vec4 foo;\n\
             void main() { gl_Position = vec4(pos, 0.0, 1.0) + foo; }\n",
        fs: "#version 430 core\nlayout(location = 5) uniform vec4 foo;\nout vec4 o;\n\
             void main() { o = foo; }\n",
        names: &["foo"],
        calls: &[5],
    },
    Case {
        vs: "#version 430 core\nlayout(location = 0) in vec2 pos;\n\
             layout(location = 0) uniform vec4 foo;\n\
             void main() { gl_Position = vec4(pos, 0.0, 1.0) + foo; }\n",
        fs: "#version 430 core\nlayout(location = 1) uniform vec4 foo;\nout vec4 o;\n\
             void main() { o = foo; }\n",
        names: &["foo"],
        calls: &[0],
    },
    // Explicit and implicit locations in two stages.
    Case {
        vs: "#version 430 core\nlayout(location = 0) in vec2 pos;\n\
             layout(location = 1) uniform vec4 a;\nuniform vec4 b;\n\
             void main() { gl_Position = vec4(pos, 0.0, 1.0) + a + b; }\n",
        fs: "#version 430 core\nlayout(location = 0) uniform vec4 c;\nuniform vec4 d;\n\
             out vec4 o;\nvoid main() { o = c + d; }\n",
        names: &["a", "b", "c", "d"],
        calls: &[0, 1, 2, 3],
    },
    // piglit's set-location-to-sampler, and an unused sampler array's locations.
    Case {
        vs: PASS_VS,
        fs: "#version 430 core\nlayout(location = 0) uniform sampler2D tex;\n\
             layout(location = 2) uniform sampler2D ts[2];\nuniform float f[2];\n\
             out vec4 o;\nvoid main() { o = texture(tex, vec2(0.0)) + vec4(f[1]); }\n",
        names: &["tex", "ts", "f"],
        calls: &[0, 1, 2, 3, 4],
    },
    // piglit's overlap-array-loc, overlap-array-loc-stages, overlap-location-across-stages.
    Case {
        vs: PASS_VS,
        fs: "#version 430 core\nlayout(location = 0) uniform float a[16];\n\
             layout(location = 2) uniform float r;\nout vec4 o;\n\
             void main() { o = vec4(r, 1.0, 1.0, a[a.length() - 1]); }\n",
        names: &["a", "r"],
        calls: &[],
    },
    Case {
        vs: "#version 430 core\nlayout(location = 0) in vec2 pos;\n\
             layout(location = 2) uniform vec4 v;\n\
             void main() { gl_Position = vec4(pos, 0.0, 1.0) + v; }\n",
        fs: "#version 430 core\nlayout(location = 0) uniform float a[16];\nout vec4 o;\n\
             void main() { o = vec4(a[a.length() - 1]); }\n",
        names: &["a", "v"],
        calls: &[],
    },
    Case {
        vs: "#version 430 core\nlayout(location = 0) in vec2 pos;\n\
             layout(location = 42) uniform vec4 offset;\n\
             void main() { gl_Position = vec4(pos, 0.0, 1.0) + offset; }\n",
        fs: "#version 430 core\nlayout(location = 42) uniform vec4 color;\nout vec4 o;\n\
             void main() { o = color; }\n",
        names: &["offset", "color"],
        calls: &[],
    },
    // An array used only in its first element still takes all its locations.
    Case {
        vs: PASS_VS,
        fs: "#version 430 core\nlayout(location = 0) uniform float a[4];\n\
             layout(location = 2) uniform float r;\nout vec4 o;\n\
             void main() { o = vec4(a[0], r, 0.0, 1.0); }\n",
        names: &["a", "r"],
        calls: &[0, 1, 2, 3],
    },
    // piglit's loc-boundaries: the first and the last location.
    Case {
        vs: PASS_VS,
        fs: "#version 430 core\nlayout(location = 0) uniform float a;\n\
             layout(location = 81919) uniform float b;\nout vec4 o;\n\
             void main() { o = vec4(a, b, 0.0, 1.0); }\n",
        names: &["a", "b"],
        calls: &[0, 81919, 81920, 1],
    },
    // piglit's layout-negative.
    Case {
        vs: PASS_VS,
        fs: "#version 430 core\nlayout(location = -1) uniform float foo;\nout vec4 o;\n\
             void main() { o = vec4(foo); }\n",
        names: &[],
        calls: &[],
    },
    // GLSL 3.30 with the extension: an inactive uniform reserves its location there too.
    Case {
        vs: "#version 330 core\nlayout(location = 0) in vec2 pos;\n\
             void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n",
        fs: "#version 330 core\n#extension GL_ARB_explicit_uniform_location : require\n\
             layout(location = 0) uniform vec4 unused[2];\nuniform vec4 used;\nout vec4 o;\n\
             void main() { o = used; }\n",
        names: &["used", "unused"],
        calls: &[0, 1, 2, 3],
    },
];

/// Links each of [`CASES`] and records its compile and link statuses, the locations asked
/// and the errors of the calls.
fn cases(gl: &mut dyn Gl) -> Vec<(usize, Vec<i64>)> {
    let mut out = Vec::new();
    for (n, c) in CASES.iter().enumerate() {
        let mut v = Vec::new();
        let p = gl.create_program();
        for (kind, src) in [(VERTEX_SHADER, c.vs), (FRAGMENT_SHADER, c.fs)] {
            let s = gl.create_shader(kind);
            gl.shader_source(s, src);
            gl.compile_shader(s);
            v.push(gl.get_shaderi(s, COMPILE_STATUS) as i64);
            gl.attach_shader(p, s);
        }
        gl.link_program(p);
        let linked = gl.get_programi(p, LINK_STATUS);
        v.push(linked as i64);
        if linked != 0 {
            v.push(gl.get_programi(p, ACTIVE_UNIFORMS) as i64);
            for name in c.names {
                v.push(gl.get_uniform_location(p, name) as i64);
            }
            gl.use_program(p);
            for &location in c.calls {
                gl.uniform1fv(location, &[0.5]);
                v.push(gl.get_error() as i64);
            }
            gl.use_program(0);
        }
        v.push(gl.get_error() as i64);
        out.push((n, v));
    }
    out
}

#[test]
fn explicit_location_rules_match_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = cases(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = cases(&mut ctx);
            for (g, e) in got.iter().zip(&expected) {
                assert_eq!(g, e, "{} {}", backend.name(), transport.name());
            }
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

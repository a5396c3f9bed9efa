//! The polygon offset clamp (`GL_ARB_polygon_offset_clamp`, GL 4.6, and
//! `GL_EXT_polygon_offset_clamp`) against the native driver on both backends (Vulkan with
//! the validation layer on, which must report nothing): `glPolygonOffsetClamp` and the
//! `POLYGON_OFFSET_CLAMP` state (`glPolygonOffset` clearing it), and frames where a sloped
//! quad, pulled or pushed by a polygon offset with and without clamps, meets a flat one in
//! the depth test. Values, errors and pixels must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's glPolygonOffsetClamp, called through its C signature"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

const WIDTH: i32 = 32;
const HEIGHT: i32 = 8;

/// The calls the shared [`Gl`] table has no entry for.
trait ClampGl: Gl {
    /// `glPolygonOffsetClamp`.
    fn polygon_offset_clamp(&mut self, factor: GLfloat, units: GLfloat, clamp: GLfloat);
    /// Whether `glGetStringi(EXTENSIONS, i)` lists `name`.
    fn advertises(&mut self, name: &str) -> bool;
}

impl ClampGl for Context {
    fn polygon_offset_clamp(&mut self, factor: GLfloat, units: GLfloat, clamp: GLfloat) {
        Context::polygon_offset_clamp(self, factor, units, clamp)
    }
    fn advertises(&mut self, name: &str) -> bool {
        let mut n = [0];
        Context::get_integerv(self, NUM_EXTENSIONS, &mut n);
        (0..n[0].max(0) as GLuint).any(|i| self.get_stringi(EXTENSIONS, i).as_deref() == Some(name))
    }
}

impl ClampGl for NativeGl {
    fn polygon_offset_clamp(&mut self, factor: GLfloat, units: GLfloat, clamp: GLfloat) {
        type F = unsafe extern "system" fn(GLfloat, GLfloat, GLfloat);
        let f: F = self
            .entry_point("glPolygonOffsetClamp")
            .unwrap_or_else(|e| panic!("glPolygonOffsetClamp: {e}"));
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(factor, units, clamp) }
    }
    fn advertises(&mut self, name: &str) -> bool {
        self.extensions().iter().any(|e| e == name)
    }
}

/// Runs `scene` natively and on both backends (inproc and thread), whose results must be
/// `same` as the native one; returns the native result and each backend's.
fn compare_by<T: std::fmt::Debug>(
    scene: impl Fn(&mut dyn ClampGl) -> T,
    same: impl Fn(&T, &T) -> bool,
) -> (T, Vec<T>) {
    let mut native =
        NativeGl::new(WIDTH, HEIGHT).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    let mut others = Vec::new();
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx: Context = tessera_on(backend, transport.clone(), WIDTH, HEIGHT);
            let got = scene(&mut ctx);
            assert!(
                same(&got, &expected),
                "{} {}: {got:?}, native {expected:?}",
                backend.name(),
                transport.name()
            );
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
            others.push(got);
        }
    }
    (expected, others)
}

/// What was done, the error, and `POLYGON_OFFSET_FACTOR`, `_UNITS` and `_CLAMP` as bits.
type Line = (&'static str, GLenum, [u32; 3]);

fn transcript(gl: &mut dyn ClampGl) -> (bool, bool, Vec<Line>) {
    let arb = gl.advertises("GL_ARB_polygon_offset_clamp");
    let ext = gl.advertises("GL_EXT_polygon_offset_clamp");
    let mut out: Vec<Line> = Vec::new();
    let mut step = |gl: &mut dyn ClampGl, what: &'static str, f: &dyn Fn(&mut dyn ClampGl)| {
        f(gl);
        let e = gl.get_error();
        let v = [
            POLYGON_OFFSET_FACTOR,
            POLYGON_OFFSET_UNITS,
            POLYGON_OFFSET_CLAMP,
        ]
        .map(|p| {
            let mut v = [-7.0f32];
            gl.get_floatv(p, &mut v);
            v[0].to_bits()
        });
        out.push((what, e, v));
    };
    step(gl, "initial", &|_| {});
    step(gl, "clamp 0.25", &|gl| {
        gl.polygon_offset_clamp(2.0, 3.0, 0.25)
    });
    step(gl, "glPolygonOffset clears it", &|gl| {
        gl.polygon_offset(-1.0, 4.0)
    });
    step(gl, "clamp -0.5", &|gl| {
        gl.polygon_offset_clamp(-1.0, 4.0, -0.5)
    });
    step(gl, "clamp NaN", &|gl| {
        gl.polygon_offset_clamp(1.0, 1.0, f32::NAN)
    });
    step(gl, "clamp infinite", &|gl| {
        gl.polygon_offset_clamp(0.0, 0.0, f32::INFINITY)
    });
    step(gl, "clamp 0", &|gl| gl.polygon_offset_clamp(0.0, 0.0, 0.0));
    (arb, ext, out)
}

#[test]
fn polygon_offset_clamp_state_matches_the_native_driver() {
    let ((arb, ext, lines), _) = compare_by(transcript, |a, b| a == b);
    assert!(arb && ext);
    assert_eq!(
        lines[1],
        (
            "clamp 0.25",
            NO_ERROR,
            [2.0f32, 3.0, 0.25].map(f32::to_bits)
        )
    );
    assert_eq!(lines[2].2[2], 0);
    assert!(f32::from_bits(lines[4].2[2]).is_nan());
}

const VS: &str = "#version 330
layout(location = 0) in vec3 position;
void main() { gl_Position = vec4(position, 1.0); }
";

const FS: &str = "#version 330
uniform vec4 tint;
out vec4 color;
void main() { color = tint; }
";

fn build_program(gl: &mut dyn ClampGl) -> GLuint {
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
    p
}

/// A flat red quad at depth 0.5, then a green quad whose depth runs from 0.25 to 0.75
/// across the frame, drawn with a depth test and a polygon offset of factor `factor` and
/// clamp `clamp` (`None`: `glPolygonOffset`): the frame's green columns show where the
/// offset moved the sloped quad in front. The red and green bytes of row 0.
fn frame(gl: &mut dyn ClampGl, factor: f32, clamp: Option<f32>) -> Vec<u8> {
    let p = build_program(gl);
    gl.use_program(p);
    let tint = gl.get_uniform_location(p, "tint");
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let quads: Vec<u8> = [
        [-1.0f32, -1.0, 0.0],
        [1.0, -1.0, 0.0],
        [-1.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
        [-1.0, -1.0, -0.5],
        [1.0, -1.0, 0.5],
        [-1.0, 1.0, -0.5],
        [1.0, 1.0, 0.5],
    ]
    .iter()
    .flatten()
    .flat_map(|v| v.to_le_bytes())
    .collect();
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    gl.buffer_data(ARRAY_BUFFER, quads.len(), Some(&quads), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 3, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let color = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, color);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA8, WIDTH, HEIGHT);
    let depth = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, depth);
    gl.renderbuffer_storage(RENDERBUFFER, DEPTH_COMPONENT32F, WIDTH, HEIGHT);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, color);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, DEPTH_ATTACHMENT, RENDERBUFFER, depth);
    assert_eq!(
        gl.check_framebuffer_status(FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    gl.viewport(0, 0, WIDTH, HEIGHT);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear_depth(1.0);
    gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
    gl.enable(DEPTH_TEST);
    gl.depth_func(LESS);
    gl.uniform4f(tint, 1.0, 0.0, 0.0, 1.0);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.enable(POLYGON_OFFSET_FILL);
    match clamp {
        Some(c) => gl.polygon_offset_clamp(factor, 0.0, c),
        None => gl.polygon_offset(factor, 0.0),
    }
    gl.uniform4f(tint, 0.0, 1.0, 0.0, 1.0);
    gl.draw_arrays(TRIANGLE_STRIP, 4, 4);
    let mut out = vec![0u8; (WIDTH * HEIGHT * 4) as usize];
    gl.read_pixels(0, 0, WIDTH, HEIGHT, RGBA, UNSIGNED_BYTE, &mut out);
    assert_eq!(gl.get_error(), NO_ERROR);
    out[..(WIDTH * 4) as usize]
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1]])
        .collect()
}

/// The frames of [`frame`] for offsets pulling the quad forward (factor -8) unclamped,
/// clamped to -0.01 and "clamped" to +0.01 (no effect on a negative offset), pushing it back
/// (factor 8) clamped to 0.02, and pulling it again through `glPolygonOffset` after a clamp.
fn frames(gl: &mut dyn ClampGl) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (factor, clamp) in [
        (-8.0, Some(0.0)),
        (-8.0, Some(-0.01)),
        (-8.0, Some(0.01)),
        (8.0, Some(0.02)),
        (-8.0, None),
    ] {
        out.push(frame(gl, factor, clamp));
    }
    out
}

#[test]
fn clamped_offsets_draw_as_the_native_driver() {
    let (frames, _) = compare_by(frames, |a, b| a == b);
    let green = |f: &Vec<u8>| f.chunks_exact(2).filter(|p| p[1] == 255).count();
    // Unclamped, factor -8 pulls the sloped quad in front over more columns than the
    // -0.01 clamp lets it; a positive clamp leaves a negative offset alone.
    assert!(green(&frames[0]) > green(&frames[1]), "{frames:?}");
    assert_eq!(frames[2], frames[0]);
    assert!(green(&frames[3]) < green(&frames[1]));
    assert_eq!(frames[4], frames[0]);
}

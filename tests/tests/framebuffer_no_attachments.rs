//! Framebuffers without attachments (`ARB_framebuffer_no_attachments`, GL 4.3) against the
//! native driver on both backends (Vulkan with the validation layer on, which must report
//! nothing): `glFramebufferParameteri`'s and `glGetFramebufferParameteriv`'s errors and
//! values, `MAX_FRAMEBUFFER_*`, completeness and `SAMPLES` of a framebuffer with only a
//! default size, and draws into one that count their fragments (and covered samples) with
//! storage-buffer atomics: 37x23 pixels, single-sampled and with 4 samples, and a viewport
//! larger than the framebuffer. Values, errors and counts must be exactly the native ones.

#![expect(
    unsafe_code,
    reason = "the native driver's glFramebufferParameteri and glGetFramebufferParameteriv, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The calls the shared [`Gl`] table has no entry for.
trait DefaultsGl: Gl {
    /// `glFramebufferParameteri`.
    fn framebuffer_parameteri(&mut self, target: GLenum, pname: GLenum, param: GLint);
    /// `glGetFramebufferParameteriv` of one value (-7 where nothing was written).
    fn framebuffer_parameter(&mut self, target: GLenum, pname: GLenum) -> GLint;
}

impl DefaultsGl for Context {
    fn framebuffer_parameteri(&mut self, target: GLenum, pname: GLenum, param: GLint) {
        Context::framebuffer_parameteri(self, target, pname, param)
    }
    fn framebuffer_parameter(&mut self, target: GLenum, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_framebuffer_parameteriv(self, target, pname, &mut v);
        v[0]
    }
}

/// An entry point of the native driver, by name and C signature.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl DefaultsGl for NativeGl {
    fn framebuffer_parameteri(&mut self, target: GLenum, pname: GLenum, param: GLint) {
        type F = unsafe extern "system" fn(GLenum, GLenum, GLint);
        let f: F = native(self, "glFramebufferParameteri");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(target, pname, param) }
    }
    fn framebuffer_parameter(&mut self, target: GLenum, pname: GLenum) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLenum, *mut GLint);
        let f: F = native(self, "glGetFramebufferParameteriv");
        let mut v = -7;
        // SAFETY: every pname asked has one value.
        unsafe { f(target, pname, &mut v) };
        v
    }
}

const SIZE: i32 = 16;

/// Runs `scene` natively and on both backends (inproc and thread), which must match; returns
/// the native result.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn DefaultsGl) -> T) -> T {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
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

/// What was done, the error, and the values read after it.
type Line = (&'static str, GLenum, Vec<GLint>);

const DEFAULTS: [GLenum; 5] = [
    FRAMEBUFFER_DEFAULT_WIDTH,
    FRAMEBUFFER_DEFAULT_HEIGHT,
    FRAMEBUFFER_DEFAULT_LAYERS,
    FRAMEBUFFER_DEFAULT_SAMPLES,
    FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS,
];

fn transcript(gl: &mut dyn DefaultsGl) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let int = |gl: &mut dyn DefaultsGl, p: GLenum| {
        let mut v = [-7];
        gl.get_integerv(p, &mut v);
        v[0]
    };
    let max: Vec<GLint> = [
        MAX_FRAMEBUFFER_WIDTH,
        MAX_FRAMEBUFFER_HEIGHT,
        MAX_FRAMEBUFFER_LAYERS,
        MAX_FRAMEBUFFER_SAMPLES,
    ]
    .iter()
    .map(|&p| int(gl, p))
    .collect();
    out.push(("limits", gl.get_error(), max.clone()));
    let (max_w, max_l, max_s) = (max[0], max[2], max[3]);

    // One call, its error, then the defaults of the draw framebuffer (each query's error
    // folded into the values: -1000 - error).
    let mut step =
        |gl: &mut dyn DefaultsGl, what: &'static str, f: &dyn Fn(&mut dyn DefaultsGl)| {
            f(gl);
            let e = gl.get_error();
            let mut v = Vec::new();
            for p in DEFAULTS {
                let x = gl.framebuffer_parameter(DRAW_FRAMEBUFFER, p);
                let qe = gl.get_error();
                v.push(if qe == NO_ERROR {
                    x
                } else {
                    -1000 - qe as GLint
                });
            }
            // Not SAMPLES: Mesa works out a framebuffer's samples without attachments only when
            // a draw validates it, and answers 0 before (`count_frame` asks after drawing).
            v.push(gl.check_framebuffer_status(DRAW_FRAMEBUFFER) as GLint);
            out.push((what, e, v));
        };
    let fb = FRAMEBUFFER;
    step(gl, "default framebuffer", &|_| {});
    step(gl, "set on the default framebuffer", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_WIDTH, 8)
    });
    step(gl, "samples of the default framebuffer", &|gl| {
        let v = gl.framebuffer_parameter(fb, SAMPLES);
        let b = gl.framebuffer_parameter(fb, SAMPLE_BUFFERS);
        let e = gl.get_error();
        assert_eq!((v, b, e), (0, 0, NO_ERROR));
    });
    step(gl, "bad target", &|gl| {
        gl.framebuffer_parameteri(TEXTURE_2D, FRAMEBUFFER_DEFAULT_WIDTH, 8)
    });
    step(gl, "bad target, bad pname", &|gl| {
        gl.framebuffer_parameteri(TEXTURE_2D, TEXTURE_WIDTH, 8)
    });
    step(gl, "bad pname on the default framebuffer", &|gl| {
        gl.framebuffer_parameteri(fb, TEXTURE_WIDTH, 8)
    });
    let object = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, object);
    step(gl, "new framebuffer", &|_| {});
    step(gl, "bad pname", &|gl| {
        gl.framebuffer_parameteri(fb, SAMPLES, 4)
    });
    step(gl, "query bad pname", &|gl| {
        gl.framebuffer_parameter(fb, TEXTURE_WIDTH);
    });
    step(gl, "width", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_WIDTH, 37)
    });
    step(gl, "height", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_HEIGHT, 23)
    });
    step(gl, "negative width", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_WIDTH, -1)
    });
    step(gl, "width past the limit", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_WIDTH, max_w + 1)
    });
    step(gl, "largest height", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_HEIGHT, max[1])
    });
    step(gl, "height 0", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_HEIGHT, 0)
    });
    step(gl, "height again", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_HEIGHT, 23)
    });
    step(gl, "layers past the limit", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_LAYERS, max_l + 1)
    });
    step(gl, "layers", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_LAYERS, 3)
    });
    step(gl, "layers 0", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_LAYERS, 0)
    });
    step(gl, "samples past the limit", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_SAMPLES, max_s + 1)
    });
    step(gl, "negative samples", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_SAMPLES, -1)
    });
    step(gl, "4 samples", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_SAMPLES, 4)
    });
    step(gl, "3 samples", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_SAMPLES, 3)
    });
    step(gl, "0 samples", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_SAMPLES, 0)
    });
    step(gl, "fixed locations", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS, 1)
    });
    step(gl, "fixed locations 256", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS, 256)
    });
    step(gl, "fixed locations 0", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS, 0)
    });
    step(gl, "read target, default read framebuffer", &|gl| {
        gl.bind_framebuffer(READ_FRAMEBUFFER, 0);
        gl.framebuffer_parameteri(READ_FRAMEBUFFER, FRAMEBUFFER_DEFAULT_WIDTH, 5)
    });
    step(gl, "query of the default read framebuffer", &|gl| {
        gl.framebuffer_parameter(READ_FRAMEBUFFER, FRAMEBUFFER_DEFAULT_WIDTH);
    });
    step(gl, "draw target", &|gl| {
        gl.framebuffer_parameteri(DRAW_FRAMEBUFFER, FRAMEBUFFER_DEFAULT_WIDTH, 36)
    });
    step(gl, "with a renderbuffer", &|gl| {
        let rb = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, rb);
        gl.renderbuffer_storage(RENDERBUFFER, RGBA8, 5, 6);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    });
    step(gl, "defaults kept beside it", &|gl| {
        gl.framebuffer_parameteri(fb, FRAMEBUFFER_DEFAULT_SAMPLES, 2)
    });
    step(gl, "detached", &|gl| {
        gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, 0);
    });
    out
}

#[test]
fn framebuffer_parameters_match_the_native_driver() {
    let expected = compare(transcript);
    let find = |what: &str| {
        expected
            .iter()
            .find(|l| l.0 == what)
            .unwrap_or_else(|| panic!("{what}"))
            .clone()
    };
    assert_eq!(find("set on the default framebuffer").1, INVALID_OPERATION);
    assert_eq!(find("width past the limit").1, INVALID_VALUE);
    let h = find("height");
    assert_eq!(
        (h.1, h.2[..2].to_vec(), h.2[5]),
        (NO_ERROR, vec![37, 23], FRAMEBUFFER_COMPLETE as GLint)
    );
    assert_eq!(
        find("width").2[5],
        FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT as GLint
    );
}

const VS: &str = "#version 430
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

/// Counts fragments and covered samples, and keeps the largest pixel coordinates.
const FS: &str = "#version 430
layout(std430, binding = 0) buffer Counts {
    uint fragments;
    uint samples;
    uint max_x;
    uint max_y;
};
void main() {
    atomicAdd(fragments, 1u);
    atomicAdd(samples, uint(bitCount(gl_SampleMaskIn[0])));
    atomicMax(max_x, uint(gl_FragCoord.x));
    atomicMax(max_y, uint(gl_FragCoord.y));
}
";

/// Draws a quad over the viewport into a framebuffer without attachments of 37x23 pixels
/// with `samples` default samples, with a viewport of the framebuffer's size and then one
/// larger than it; returns each draw's counts and the framebuffer's `SAMPLES`.
fn count_frame(gl: &mut dyn DefaultsGl, samples: GLint) -> (Vec<[u32; 4]>, GLint) {
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
    let quad: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    gl.buffer_data(ARRAY_BUFFER, quad.len(), Some(&quad), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    let counts = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, counts);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 0, counts);

    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    gl.framebuffer_parameteri(FRAMEBUFFER, FRAMEBUFFER_DEFAULT_WIDTH, 37);
    gl.framebuffer_parameteri(FRAMEBUFFER, FRAMEBUFFER_DEFAULT_HEIGHT, 23);
    gl.framebuffer_parameteri(FRAMEBUFFER, FRAMEBUFFER_DEFAULT_SAMPLES, samples);
    assert_eq!(
        gl.check_framebuffer_status(FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    let mut got = Vec::new();
    for (w, h) in [(37, 23), (64, 40)] {
        gl.buffer_data(SHADER_STORAGE_BUFFER, 16, Some(&[0u8; 16]), DYNAMIC_COPY);
        gl.viewport(0, 0, w, h);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
        let mut bytes = [0u8; 16];
        gl.get_buffer_sub_data(SHADER_STORAGE_BUFFER, 0, &mut bytes);
        let word = |i: usize| u32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().unwrap());
        got.push([word(0), word(1), word(2), word(3)]);
    }
    let mut s = [-7];
    gl.get_integerv(SAMPLES, &mut s);
    assert_eq!(gl.get_error(), NO_ERROR);
    (got, s[0])
}

#[test]
fn draws_without_attachments_rasterize_at_the_default_size() {
    let (counts, samples) = compare(|gl| count_frame(gl, 0));
    assert_eq!(samples, 0);
    // Every pixel of 37x23 once, one sample each, the largest pixel (36, 22); the larger
    // viewport's quad is cut to the framebuffer.
    assert_eq!(counts[0], [37 * 23, 37 * 23, 36, 22]);
    assert_eq!(counts[1][2..], [36, 22]);
}

#[test]
fn draws_without_attachments_rasterize_with_the_default_samples() {
    let (counts, samples) = compare(|gl| count_frame(gl, 4));
    assert_eq!(samples, 4);
    // Every sample of 37x23 once; pixels on the quad's diagonal are shaded once for each
    // of its triangles, so there are more fragments than pixels.
    assert_eq!(counts[0][1..], [4 * 37 * 23, 36, 22]);
    assert!(counts[0][0] > 37 * 23, "{counts:?}");
}

//! Conditional rendering (`glBeginConditionalRender`, GL 3.3, and
//! `GL_ARB_conditional_render_inverted`'s modes, GL 4.5) against the native driver on both
//! backends (Vulkan with the validation layer on, which must report nothing), in process,
//! on a render thread and in a private server process: an occlusion query that saw samples
//! or none, each of the eight modes, and each kind of verb the condition governs (a draw,
//! an indirect draw, `glClear`, `glClearBufferfv`, `glBlitFramebuffer`, and a draw after a
//! flush inside the condition), with the pixels read back exact. Each frame must also be
//! the one GL's rule gives (drawn when the query saw samples, or saw none for an inverted
//! mode; untouched otherwise), so a backend that ignored the condition fails. The errors
//! of the inverted modes match too.

#![expect(
    unsafe_code,
    reason = "the native driver's conditional-render and indirect-draw entry points, called \
              through their C signatures"
)]

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

const SIZE: i32 = 8;

/// The calls the shared [`Gl`] table has no entry for.
trait CondGl: Gl {
    /// `glBeginConditionalRender`.
    fn begin_conditional_render(&mut self, id: GLuint, mode: GLenum);
    /// `glEndConditionalRender`.
    fn end_conditional_render(&mut self);
    /// `glDrawArraysIndirect` from the bound `DRAW_INDIRECT_BUFFER`.
    fn draw_arrays_indirect(&mut self, mode: GLenum, offset: usize);
    /// `glCreateQueries` of one query.
    fn create_query(&mut self, target: GLenum) -> GLuint;
    /// Whether `glGetStringi(EXTENSIONS, i)` lists `name`.
    fn advertises(&mut self, name: &str) -> bool;
}

impl CondGl for Context {
    fn begin_conditional_render(&mut self, id: GLuint, mode: GLenum) {
        Context::begin_conditional_render(self, id, mode)
    }
    fn end_conditional_render(&mut self) {
        Context::end_conditional_render(self)
    }
    fn draw_arrays_indirect(&mut self, mode: GLenum, offset: usize) {
        Context::draw_arrays_indirect(self, mode, offset)
    }
    fn create_query(&mut self, target: GLenum) -> GLuint {
        let mut id = [0];
        Context::create_queries(self, target, 1, &mut id);
        id[0]
    }
    fn advertises(&mut self, name: &str) -> bool {
        let mut n = [0];
        Context::get_integerv(self, NUM_EXTENSIONS, &mut n);
        (0..n[0].max(0) as GLuint).any(|i| self.get_stringi(EXTENSIONS, i).as_deref() == Some(name))
    }
}

impl CondGl for NativeGl {
    fn begin_conditional_render(&mut self, id: GLuint, mode: GLenum) {
        type F = unsafe extern "system" fn(GLuint, GLenum);
        let f: F = self
            .entry_point("glBeginConditionalRender")
            .unwrap_or_else(|e| panic!("glBeginConditionalRender: {e}"));
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(id, mode) }
    }
    fn end_conditional_render(&mut self) {
        type F = unsafe extern "system" fn();
        let f: F = self
            .entry_point("glEndConditionalRender")
            .unwrap_or_else(|e| panic!("glEndConditionalRender: {e}"));
        // SAFETY: the context is current on this thread.
        unsafe { f() }
    }
    fn draw_arrays_indirect(&mut self, mode: GLenum, offset: usize) {
        type F = unsafe extern "system" fn(GLenum, *const std::ffi::c_void);
        let f: F = self
            .entry_point("glDrawArraysIndirect")
            .unwrap_or_else(|e| panic!("glDrawArraysIndirect: {e}"));
        // SAFETY: the context is current; a DRAW_INDIRECT_BUFFER is bound, so the pointer
        // is an offset into it, which holds the command.
        unsafe { f(mode, offset as *const std::ffi::c_void) }
    }
    fn create_query(&mut self, target: GLenum) -> GLuint {
        type F = unsafe extern "system" fn(GLenum, GLsizei, *mut GLuint);
        let f: F = self
            .entry_point("glCreateQueries")
            .unwrap_or_else(|e| panic!("glCreateQueries: {e}"));
        let mut id = 0;
        // SAFETY: the context is current; one name is written to `id`.
        unsafe { f(target, 1, &mut id) };
        id
    }
    fn advertises(&mut self, name: &str) -> bool {
        self.extensions().iter().any(|e| e == name)
    }
}

/// GL's eight modes: the four of GL 3.3, then their inverted forms.
const MODES: [GLenum; 8] = [
    QUERY_WAIT,
    QUERY_NO_WAIT,
    QUERY_BY_REGION_WAIT,
    QUERY_BY_REGION_NO_WAIT,
    QUERY_WAIT_INVERTED,
    QUERY_NO_WAIT_INVERTED,
    QUERY_BY_REGION_WAIT_INVERTED,
    QUERY_BY_REGION_NO_WAIT_INVERTED,
];

/// What runs between the begin and the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verb {
    /// A green quad over the frame.
    Draw,
    /// The same quad through `glDrawArraysIndirect`.
    DrawIndirect,
    /// `glClear` to red.
    Clear,
    /// `glClearBufferfv` of draw buffer 0 to blue.
    ClearBuffer,
    /// A blit of a yellow framebuffer over the frame.
    Blit,
    /// The left half drawn green, `glFlush`, then the right half cleared to red through
    /// the scissor: a submission inside the condition must not end it.
    DrawFlushClear,
}

const VERBS: [Verb; 6] = [
    Verb::Draw,
    Verb::DrawIndirect,
    Verb::Clear,
    Verb::ClearBuffer,
    Verb::Blit,
    Verb::DrawFlushClear,
];

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.5, 1.0); }
";

const FS: &str = "#version 330
uniform vec4 tint;
out vec4 color;
void main() { color = tint; }
";

/// What a scene sets up once: the program's tint location, a query for each occlusion
/// target (a query's target is fixed at its first begin), and the two framebuffers (drawn
/// into, and the blit's yellow source).
struct Setup {
    tint: GLint,
    queries: [GLuint; 2],
    fb: GLuint,
    source: GLuint,
}

fn setup(gl: &mut dyn CondGl) -> Setup {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)] {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        assert_eq!(gl.get_shaderi(s, COMPILE_STATUS), TRUE as i32);
        gl.attach_shader(p, s);
    }
    gl.link_program(p);
    assert_eq!(gl.get_programi(p, LINK_STATUS), TRUE as i32);
    gl.use_program(p);
    let tint = gl.get_uniform_location(p, "tint");
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    // A quad over the frame (strip), then its left half.
    let quads: Vec<u8> = [
        [-1.0f32, -1.0],
        [1.0, -1.0],
        [-1.0, 1.0],
        [1.0, 1.0],
        [-1.0, -1.0],
        [0.0, -1.0],
        [-1.0, 1.0],
        [0.0, 1.0],
    ]
    .iter()
    .flatten()
    .flat_map(|v| v.to_le_bytes())
    .collect();
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    gl.buffer_data(ARRAY_BUFFER, quads.len(), Some(&quads), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    // count 4, one instance, first 0, base instance 0.
    let command: Vec<u8> = [4u32, 1, 0, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let ib = gl.gen_buffer();
    gl.bind_buffer(DRAW_INDIRECT_BUFFER, ib);
    gl.buffer_data(
        DRAW_INDIRECT_BUFFER,
        command.len(),
        Some(&command),
        STATIC_DRAW,
    );
    let framebuffer = |gl: &mut dyn CondGl| {
        let color = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, color);
        gl.renderbuffer_storage(RENDERBUFFER, RGBA8, SIZE, SIZE);
        let depth = gl.gen_renderbuffer();
        gl.bind_renderbuffer(RENDERBUFFER, depth);
        gl.renderbuffer_storage(RENDERBUFFER, DEPTH_COMPONENT24, SIZE, SIZE);
        let fb = gl.gen_framebuffer();
        gl.bind_framebuffer(FRAMEBUFFER, fb);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, color);
        gl.framebuffer_renderbuffer(FRAMEBUFFER, DEPTH_ATTACHMENT, RENDERBUFFER, depth);
        assert_eq!(
            gl.check_framebuffer_status(FRAMEBUFFER),
            FRAMEBUFFER_COMPLETE
        );
        fb
    };
    let source = framebuffer(gl);
    gl.clear_color(1.0, 1.0, 0.0, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    let fb = framebuffer(gl);
    gl.viewport(0, 0, SIZE, SIZE);
    let queries = [gl.gen_query(), gl.gen_query()];
    Setup {
        tint,
        queries,
        fb,
        source,
    }
}

/// One frame: the query counts a quad that passes the depth test (`visible`) or one that
/// fails it, the frame is cleared to black, and `verb` runs under the condition in `mode`.
/// The frame's pixels, row by row.
fn frame(
    gl: &mut dyn CondGl,
    s: &Setup,
    target: GLenum,
    visible: bool,
    mode: GLenum,
    verb: Verb,
) -> Vec<u8> {
    gl.bind_framebuffer(FRAMEBUFFER, s.fb);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear_depth(1.0);
    gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
    gl.enable(DEPTH_TEST);
    gl.depth_func(if visible { LESS } else { NEVER });
    gl.uniform4f(s.tint, 1.0, 1.0, 1.0, 1.0);
    let query = s.queries[usize::from(target == ANY_SAMPLES_PASSED)];
    gl.begin_query(target, query);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.end_query(target);
    if matches!(
        mode,
        QUERY_NO_WAIT
            | QUERY_BY_REGION_NO_WAIT
            | QUERY_NO_WAIT_INVERTED
            | QUERY_BY_REGION_NO_WAIT_INVERTED
    ) {
        // The no-wait modes let the GL render while the result is pending, which native
        // llvmpipe does when its rasterizer threads have not finished the query: the result
        // is waited for first, so every implementation has it.
        gl.query_result(query);
    }
    gl.disable(DEPTH_TEST);
    gl.clear(COLOR_BUFFER_BIT);
    gl.begin_conditional_render(query, mode);
    match verb {
        Verb::Draw => {
            gl.uniform4f(s.tint, 0.0, 1.0, 0.0, 1.0);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        }
        Verb::DrawIndirect => {
            gl.uniform4f(s.tint, 0.0, 1.0, 0.0, 1.0);
            gl.draw_arrays_indirect(TRIANGLE_STRIP, 0);
        }
        Verb::Clear => {
            gl.clear_color(1.0, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
        }
        Verb::ClearBuffer => gl.clear_bufferfv(COLOR, 0, &[0.0, 0.0, 1.0, 1.0]),
        Verb::Blit => {
            gl.bind_framebuffer(READ_FRAMEBUFFER, s.source);
            gl.blit_framebuffer(
                0,
                0,
                SIZE,
                SIZE,
                0,
                0,
                SIZE,
                SIZE,
                COLOR_BUFFER_BIT,
                NEAREST,
            );
            gl.bind_framebuffer(FRAMEBUFFER, s.fb);
        }
        Verb::DrawFlushClear => {
            gl.uniform4f(s.tint, 0.0, 1.0, 0.0, 1.0);
            gl.draw_arrays(TRIANGLE_STRIP, 4, 4);
            gl.flush();
            gl.enable(SCISSOR_TEST);
            gl.scissor(SIZE / 2, 0, SIZE / 2, SIZE);
            gl.clear_color(1.0, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            gl.disable(SCISSOR_TEST);
        }
    }
    gl.end_conditional_render();
    let mut out = vec![0u8; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut out);
    assert_eq!(
        gl.get_error(),
        NO_ERROR,
        "{verb:?} {mode:#x} visible {visible}"
    );
    out
}

/// The frame GL's rule gives: `verb`'s colours where it takes effect, black otherwise.
fn expected(visible: bool, mode: GLenum, verb: Verb) -> Vec<u8> {
    let inverted = MODES[4..].contains(&mode);
    let pass = visible != inverted;
    let mut out = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    for _y in 0..SIZE {
        for x in 0..SIZE {
            let px: [u8; 4] = match (pass, verb) {
                (false, _) => [0, 0, 0, 0],
                (true, Verb::Draw | Verb::DrawIndirect) => [0, 255, 0, 255],
                (true, Verb::Clear) => [255, 0, 0, 255],
                (true, Verb::ClearBuffer) => [0, 0, 255, 255],
                (true, Verb::Blit) => [255, 255, 0, 255],
                (true, Verb::DrawFlushClear) if x < SIZE / 2 => [0, 255, 0, 255],
                (true, Verb::DrawFlushClear) => [255, 0, 0, 255],
            };
            out.extend_from_slice(&px);
        }
    }
    out
}

/// Every frame of [`frame`] for the occlusion targets, both query outcomes, every mode and
/// every verb, each checked against GL's rule; the frames in that order.
fn frames(gl: &mut dyn CondGl) -> Vec<Vec<u8>> {
    let s = setup(gl);
    let mut out = Vec::new();
    for target in [SAMPLES_PASSED, ANY_SAMPLES_PASSED] {
        for visible in [true, false] {
            for mode in MODES {
                for verb in VERBS {
                    let got = frame(gl, &s, target, visible, mode, verb);
                    assert_eq!(
                        got,
                        expected(visible, mode, verb),
                        "{target:#x} visible {visible} mode {mode:#x} {verb:?}"
                    );
                    out.push(got);
                }
            }
        }
    }
    out
}

/// The events a backend must not report: all but the GLES backend's note that it counts
/// `SAMPLES_PASSED` as `ANY_SAMPLES_PASSED`, which decides a condition the same way.
fn unexpected(events: Vec<Event>) -> Vec<Event> {
    events
        .into_iter()
        .filter(|e| {
            !matches!(e, Event::Unsupported { what }
                if what.starts_with("GLES has no SAMPLES_PASSED"))
        })
        .collect()
}

/// Runs `scene` natively, then on both backends over `transports`: each result must equal
/// the native one, the session must live, and no backend event (the Vulkan validation
/// layer's messages among them) may be reported.
fn compare<T: PartialEq + std::fmt::Debug>(
    scene: impl Fn(&mut dyn CondGl) -> T,
    transports: &[TransportKind],
) {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in transports {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = scene(&mut ctx);
            assert!(
                got == expected,
                "{} {}: {got:?}, native {expected:?}",
                backend.name(),
                transport.name()
            );
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events = unexpected(ctx.take_events());
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

#[test]
fn conditional_verbs_follow_the_query_as_natively() {
    compare(frames, &[TransportKind::Inproc, TransportKind::Thread]);
}

#[test]
fn conditional_verbs_follow_the_query_in_a_server_process() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL");
    let expected = frames(&mut native);
    drop(native);
    for backend in [BackendKind::Gles, BackendKind::Vulkan] {
        tessera_tests::ensure_lavapipe();
        let config = Config {
            backend,
            transport: TransportKind::Fork,
            surface: Some(SurfaceConfig::new(SIZE as u32, SIZE as u32)),
            ..Config::default()
        };
        let mut ctx = Context::new(&config).expect("a private server");
        assert!(frames(&mut ctx) == expected, "{backend:?}");
        assert!(!ctx.is_lost(), "{backend:?}: the session ended");
        let events = unexpected(ctx.take_events());
        assert!(events.is_empty(), "{backend:?}: {events:?}");
    }
}

/// The Vulkan backend on the Vulkan 1.1 floor (no `VK_EXT_conditional_rendering`), which
/// reads each result on the host at the begin record: the same frames, and no validation
/// message.
#[test]
fn conditional_verbs_follow_the_query_on_a_vulkan_device_without_predicates() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = frames(&mut native);
    drop(native);
    tessera_tests::ensure_runtime_dir();
    tessera_tests::ensure_lavapipe();
    let options = tessera_backend_vk::VkOptions {
        validation: true,
        floor: true,
        ..tessera_backend_vk::VkOptions::default()
    };
    let vk = tessera_backend_vk::VulkanBackend::with_options(&options)
        .expect("the Vulkan backend (lavapipe, vulkan-validationlayers) on this machine");
    let config = Config {
        transport: TransportKind::Inproc,
        surface: Some(SurfaceConfig::new(SIZE as u32, SIZE as u32)),
        ..Config::default()
    };
    let mut ctx = Context::with_backend(&config, Box::new(vk));
    assert!(CondGl::advertises(
        &mut ctx,
        "GL_ARB_conditional_render_inverted"
    ));
    assert!(frames(&mut ctx) == expected);
    ctx.finish();
    assert!(!ctx.is_lost(), "the session ended");
    let events = ctx.take_events();
    assert!(events.is_empty(), "{events:?}");
}

/// Conditions on a query that `glCreateQueries` made and nothing ever began: it has no
/// result to decide by, and Mesa renders unconditionally then (its condition is no query
/// at all), so a green quad is drawn under `QUERY_WAIT` and under `QUERY_WAIT_INVERTED`.
/// The two frames.
fn created_query(gl: &mut dyn CondGl) -> Vec<Vec<u8>> {
    let s = setup(gl);
    let q = gl.create_query(SAMPLES_PASSED);
    gl.bind_framebuffer(FRAMEBUFFER, s.fb);
    gl.uniform4f(s.tint, 0.0, 1.0, 0.0, 1.0);
    let mut frames = Vec::new();
    for mode in [QUERY_WAIT, QUERY_WAIT_INVERTED] {
        gl.clear_color(0.0, 0.0, 0.0, 0.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.begin_conditional_render(q, mode);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        gl.end_conditional_render();
        let mut out = vec![0u8; (SIZE * SIZE * 4) as usize];
        gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut out);
        assert_eq!(gl.get_error(), NO_ERROR);
        assert_eq!(out, expected(true, QUERY_WAIT, Verb::Draw), "{mode:#x}");
        frames.push(out);
    }
    frames
}

#[test]
fn a_query_never_begun_leaves_rendering_unconditional() {
    compare(created_query, &[TransportKind::Inproc]);
}

/// What was done and the error it raised.
type Line = (&'static str, GLenum);

/// The errors of the modes: each inverted mode begun and ended on an ended occlusion
/// query, a mode past them, a begin while one is active, an end with none, and a query of
/// another target. Whether the extension string is advertised comes first.
fn errors(gl: &mut dyn CondGl) -> (bool, Vec<Line>) {
    let advertised = gl.advertises("GL_ARB_conditional_render_inverted");
    let mut out: Vec<Line> = Vec::new();
    let q = gl.gen_query();
    gl.begin_query(ANY_SAMPLES_PASSED, q);
    gl.end_query(ANY_SAMPLES_PASSED);
    out.push(("query", gl.get_error()));
    for (what, mode) in [
        ("wait inverted", QUERY_WAIT_INVERTED),
        ("no wait inverted", QUERY_NO_WAIT_INVERTED),
        ("by region wait inverted", QUERY_BY_REGION_WAIT_INVERTED),
        (
            "by region no wait inverted",
            QUERY_BY_REGION_NO_WAIT_INVERTED,
        ),
    ] {
        gl.begin_conditional_render(q, mode);
        out.push((what, gl.get_error()));
        gl.end_conditional_render();
        out.push(("end", gl.get_error()));
    }
    gl.begin_conditional_render(q, QUERY_BY_REGION_NO_WAIT_INVERTED + 1);
    out.push(("mode past the inverted ones", gl.get_error()));
    gl.begin_conditional_render(q, QUERY_NO_WAIT_INVERTED);
    gl.begin_conditional_render(q, QUERY_WAIT_INVERTED);
    out.push(("begin while active", gl.get_error()));
    gl.end_conditional_render();
    gl.end_conditional_render();
    out.push(("end with none", gl.get_error()));
    let t = gl.gen_query();
    gl.begin_query(PRIMITIVES_GENERATED, t);
    gl.end_query(PRIMITIVES_GENERATED);
    gl.begin_conditional_render(t, QUERY_WAIT_INVERTED);
    out.push(("a primitives query", gl.get_error()));
    gl.begin_query(ANY_SAMPLES_PASSED, q);
    gl.begin_conditional_render(q, QUERY_WAIT_INVERTED);
    out.push(("an active query", gl.get_error()));
    gl.end_query(ANY_SAMPLES_PASSED);
    (advertised, out)
}

#[test]
fn inverted_mode_errors_match_the_native_driver() {
    compare(errors, &[TransportKind::Inproc]);
    let mut ctx = tessera_on(Backend::Gles, TransportKind::Inproc, SIZE, SIZE);
    let (advertised, lines) = errors(&mut ctx);
    assert!(advertised);
    assert_eq!(lines[1], ("wait inverted", NO_ERROR));
    assert_eq!(lines[9], ("mode past the inverted ones", INVALID_ENUM));
}

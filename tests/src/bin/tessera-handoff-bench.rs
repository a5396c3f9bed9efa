//! The CPU a frame costs to reach a host: by `glReadPixels` into client memory, or without
//! read-back: on Vulkan by `Context::export_texture` (an opaque Vulkan memory fd, the copy
//! made on the device), on GLES by `Context::hand_over_gl_texture` (a texture of the host's
//! share group, the copy made by the driver).
//!
//! Usage: `tessera-handoff-bench [FRAMES]` (release build; `VK_ICD_FILENAMES` picks the
//! Vulkan driver). Each frame clears a 1920x1080 RGBA8 texture and draws a triangle into
//! it, then hands it over one way; `finish` (glFinish, nothing handed) is the frame alone.
//! The GLES rows run on a backend sharing the bench's own ES context (the host), in
//! process; the host deletes each texture it was handed (making its context current and
//! releasing it again, as an `inproc` host does), and for `HandOverFenced` waits on the
//! fence in its context first (`glWaitSync`). Prints, per way, the mean per frame of the
//! application thread's CPU, the whole process's CPU (the driver's threads included: on
//! lavapipe and llvmpipe the device's work is CPU work) and wall time. Figures are
//! measurements, never asserted anywhere.
#![expect(
    unsafe_code,
    reason = "the host calls its own driver's sync entry points"
)]

use std::ffi::c_void;
use std::time::Instant;

use tessera_backend_gles::{GlesBackend, HostEgl};
use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::Backend;
use tessera_tests::gl::{Gl, NativeGl, SceneGl};
use tessera_tests::measure::{process_cpu_ns, thread_cpu_total_ns};
use tessera_tests::scenes::link_program;

const W: i32 = 1920;
const H: i32 = 1080;

const VS: &str = "#version 330 core
const vec2 p[3] = vec2[3](vec2(-0.9, -0.8), vec2(0.7, -0.3), vec2(-0.2, 0.9));
void main() { gl_Position = vec4(p[gl_VertexID], 0.0, 1.0); }
";
const FS: &str = "#version 330 core
out vec4 color;
void main() { color = vec4(0.2, 1.0, 0.6, 1.0); }
";

#[derive(Clone, Copy, Debug)]
enum Way {
    Finish,
    ReadPixels,
    Export,
    HandOver,
    HandOverFenced,
}

/// The bench's own ES context (llvmpipe through the system EGL), which a GLES backend shares
/// with: it takes the handed-over textures.
struct Host {
    gl: NativeGl,
    wait_sync: unsafe extern "system" fn(*const c_void, GLbitfield, u64),
    delete_sync: unsafe extern "system" fn(*const c_void),
}

impl Host {
    fn new() -> Self {
        let gl = NativeGl::new_es(64, 64).expect("the host's ES context (llvmpipe)");
        let wait_sync = gl.entry_point("glWaitSync").expect("glWaitSync");
        let delete_sync = gl.entry_point("glDeleteSync").expect("glDeleteSync");
        gl.set_current(false).expect("the host's context released");
        Self {
            gl,
            wait_sync,
            delete_sync,
        }
    }

    /// A context on a GLES backend sharing the host's context, in process.
    fn tessera(&self) -> tessera_engine::Context {
        let (display, context) = self.gl.egl_handles();
        let backend = GlesBackend::with_host_context(HostEgl { display, context })
            .expect("a GLES backend sharing the host's context");
        let config = tessera_engine::Config {
            backend: tessera_engine::BackendKind::Gles,
            transport: TransportKind::Inproc,
            surface: Some(tessera_engine::SurfaceConfig::new(64, 64)),
            ..tessera_engine::Config::default()
        };
        tessera_engine::Context::with_backend(&config, Box::new(backend))
    }

    /// What the host does with a texture it was handed: waits on its fence (if any) and
    /// deletes both, in its own context.
    fn take(&mut self, t: tessera_engine::export::HostTexture) {
        self.gl
            .set_current(true)
            .expect("the host's context current");
        if t.sync != 0 {
            let sync = t.sync as usize as *const c_void;
            // SAFETY: the host's context is current; the sync is a live sync object of its
            // share group (the hand-over's), waited on and deleted once.
            unsafe {
                (self.wait_sync)(sync, 0, u64::MAX);
                (self.delete_sync)(sync);
            }
        }
        self.gl.delete_textures(&[t.texture]);
        self.gl
            .set_current(false)
            .expect("the host's context released");
    }
}

fn main() {
    let frames: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(30);
    tessera_tests::ensure_lavapipe();
    let mut host = Host::new();
    println!(
        "way          app_cpu_ms  process_cpu_ms  wall_ms   (per frame, {W}x{H} RGBA8, inproc)"
    );
    let ways = [
        (
            Backend::Vulkan,
            [Way::Finish, Way::ReadPixels, Way::Export].as_slice(),
        ),
        (
            Backend::Gles,
            [
                Way::Finish,
                Way::ReadPixels,
                Way::HandOver,
                Way::HandOverFenced,
            ]
            .as_slice(),
        ),
    ];
    for (backend, ways) in ways {
        println!("{backend:?}");
        for &way in ways {
            run(backend, way, frames, &mut host);
        }
    }
}

/// Runs `frames` frames (after three unmeasured ones) handed over `way`, and prints a row.
fn run(backend: Backend, way: Way, frames: u32, host: &mut Host) {
    let mut ctx = match backend {
        // The validation layer off: the tests' contexts have it on, a measurement must not.
        Backend::Vulkan => {
            let vk = tessera_backend_vk::VulkanBackend::with_options(
                &tessera_backend_vk::VkOptions::default(),
            )
            .expect("the Vulkan backend (lavapipe)");
            let config = tessera_engine::Config {
                backend: tessera_engine::BackendKind::Vulkan,
                transport: TransportKind::Inproc,
                surface: Some(tessera_engine::SurfaceConfig::new(64, 64)),
                ..tessera_engine::Config::default()
            };
            tessera_engine::Context::with_backend(&config, Box::new(vk))
        }
        Backend::Gles => host.tessera(),
    };
    let tex = ctx.gen_texture();
    ctx.bind_texture(TEXTURE_2D, tex);
    Gl::tex_image_2d(
        &mut ctx,
        TEXTURE_2D,
        0,
        RGBA8 as i32,
        W,
        H,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    let fbo = ctx.gen_framebuffer();
    ctx.bind_framebuffer(FRAMEBUFFER, fbo);
    ctx.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, tex, 0);
    ctx.viewport(0, 0, W, H);
    let program = link_program(&mut ctx, VS, FS);
    ctx.use_program(program);
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    let mut pixels = vec![0u8; (W * H * 4) as usize];
    let mut frame = |ctx: &mut tessera_engine::Context, i: u32| {
        ctx.clear_color((i % 7) as f32 / 7.0, 0.2, 0.4, 1.0);
        ctx.clear(COLOR_BUFFER_BIT);
        ctx.draw_arrays(TRIANGLES, 0, 3);
        match way {
            Way::Finish => ctx.finish(),
            Way::ReadPixels => Gl::read_pixels(ctx, 0, 0, W, H, RGBA, UNSIGNED_BYTE, &mut pixels),
            Way::Export => drop(ctx.export_texture(tex).expect("an export")),
            Way::HandOver => host.take(ctx.hand_over_gl_texture(tex).expect("a hand-over")),
            Way::HandOverFenced => host.take(
                ctx.hand_over_gl_texture_signalled(tex)
                    .expect("a hand-over with a fence"),
            ),
        }
    };
    for i in 0..3 {
        frame(&mut ctx, i);
    }
    let (t0, (pu0, ps0), w0) = (thread_cpu_total_ns(), process_cpu_ns(), Instant::now());
    for i in 0..frames {
        frame(&mut ctx, i);
    }
    let (t1, (pu1, ps1), wall) = (thread_cpu_total_ns(), process_cpu_ns(), w0.elapsed());
    assert_eq!(ctx.get_error(), NO_ERROR);
    let per = |ns: u64| ns as f64 / 1e6 / f64::from(frames);
    println!(
        "{:<12} {:>10.2} {:>15.2} {:>8.2}",
        format!("{way:?}"),
        per(t1 - t0),
        per(pu1 + ps1 - pu0 - ps0),
        wall.as_secs_f64() * 1e3 / f64::from(frames),
    );
}

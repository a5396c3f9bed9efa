//! The CPU a frame costs to reach a host: by `glReadPixels` into client memory, or by
//! `Context::export_texture` (an opaque Vulkan memory fd, the copy made on the device).
//!
//! Usage: `tessera-handoff-bench [FRAMES]` (release build; `VK_ICD_FILENAMES` picks the
//! driver). Each frame clears a 1920x1080 RGBA8 texture and draws a triangle into it, then
//! hands it over one way; `finish` (glFinish, nothing handed) is the frame alone. Prints, per
//! way, the mean per frame of the application thread's CPU, the whole process's CPU (the
//! driver's threads included: on lavapipe the device's work is CPU work) and wall time.
//! Figures are measurements, never asserted anywhere.

use std::time::Instant;

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::Gl;
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
}

fn main() {
    let frames: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(30);
    tessera_tests::ensure_lavapipe();
    println!(
        "way          app_cpu_ms  process_cpu_ms  wall_ms   (per frame, {W}x{H} RGBA8, Vulkan inproc)"
    );
    for way in [Way::Finish, Way::ReadPixels, Way::Export] {
        let mut ctx = tessera_on(Backend::Vulkan, TransportKind::Inproc, 64, 64);
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
                Way::ReadPixels => {
                    Gl::read_pixels(ctx, 0, 0, W, H, RGBA, UNSIGNED_BYTE, &mut pixels)
                }
                Way::Export => drop(ctx.export_texture(tex).expect("an export")),
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
}

//! Tessera's main job: renders the built-in scene headless and reports what ran and how fast.
//!
//! Usage: tessera-demo [--frames N] [--size WxH] [--out FILE.png] [--window]
//! The backend and transport come from `TESSERA_BACKEND` (default `auto`) and
//! `TESSERA_TRANSPORT` (default `inproc`). With a backend that draws, the last frame is
//! written as a PNG (default `tessera-demo.png`). `--window` shows the scene in a window
//! instead (X11 when `DISPLAY` is set, else Wayland when `WAYLAND_DISPLAY` is), until it is
//! closed (or for `--frames N` frames), and reports frames per second and CPU per frame;
//! without a display it says so and exits with status 1. `TESSERA_CAPTURE=FILE` captures
//! the frames (each then ends with a swap) for `tessera-replay`.

use std::time::Instant;

use tessera_engine::{Config, Context, SurfaceConfig};
use tessera_tests::measure::thread_cpu_ns;
use tessera_tests::scenes::Demo;

fn main() {
    let mut frames = 300u32;
    let (mut width, mut height) = (256u32, 256u32);
    let mut out = std::path::PathBuf::from("tessera-demo.png");
    let mut window = false;
    let mut frames_given = false;
    let mut args = std::env::args().skip(1).peekable();
    while let Some(a) = args.next() {
        if a == "--window" {
            window = true;
            continue;
        }
        frames_given |= a == "--frames";
        match (a.as_str(), args.next()) {
            ("--frames", Some(v)) => {
                frames = v
                    .parse()
                    .unwrap_or_else(|e| usage(&format!("--frames: {e}")))
            }
            ("--out", Some(v)) => out = v.into(),
            ("--size", Some(v)) => {
                let (w, h) = v
                    .split_once('x')
                    .unwrap_or_else(|| usage("--size takes WxH"));
                width = w.parse().unwrap_or_else(|e| usage(&format!("--size: {e}")));
                height = h.parse().unwrap_or_else(|e| usage(&format!("--size: {e}")));
            }
            _ => usage(&format!("unknown argument {a}")),
        }
    }
    if window {
        return run_window(width, height, frames_given.then_some(frames));
    }
    let config = Config {
        surface: Some(SurfaceConfig::new(width, height)),
        ..Config::from_env()
    };
    let mut ctx = Context::new(&config).unwrap_or_else(|e| {
        eprintln!("tessera-demo: {e}");
        std::process::exit(1);
    });
    let mut demo = Demo::setup(&mut ctx, width as i32, height as i32);
    // Under TESSERA_CAPTURE each frame ends with a swap, where a capture's frames end
    // (offscreen, a swap is a `Present` and a flush); otherwise the frames only flush.
    let swaps = config.capture_file.is_some();
    demo.frame(&mut ctx);
    if swaps {
        ctx.swap_buffers();
    }
    ctx.finish();
    let draws0 = ctx.stats().draws;
    let t0 = ctx.transport_stats();
    let cso0 = ctx.cso_stats();
    let (u0, s0) = thread_cpu_ns();
    let start = Instant::now();
    for _ in 0..frames {
        demo.frame(&mut ctx);
        if swaps {
            ctx.swap_buffers();
        }
    }
    let wall = start.elapsed();
    let (u1, s1) = thread_cpu_ns();
    ctx.finish();
    let draws = ctx.stats().draws - draws0;
    let t1 = ctx.transport_stats();
    let cso1 = ctx.cso_stats();
    let backend = ctx.backend_name();
    for event in ctx.take_events() {
        eprintln!("tessera-demo: backend event: {event:?}");
    }
    let image = (backend != "null").then(|| read_back(&mut ctx, width, height));
    let error = ctx.get_error();
    let lost = ctx.is_lost();
    let per_draw = |ns: u64| ns as f64 / draws.max(1) as f64;
    println!(
        "Tessera main job: built-in scene (render-to-texture pass + {} textured, blended, depth-tested quads)",
        tessera_tests::scenes::DEMO_OBJECTS
    );
    println!(
        "  backend      {backend} (TESSERA_BACKEND={})",
        config.backend.name()
    );
    println!("  transport    {}", config.transport.name());
    println!("  surface      {width}x{height} RGBA8 + depth/stencil");
    println!(
        "  frames       {frames} in {:.1} ms ({:.0} frames/s)",
        wall.as_secs_f64() * 1e3,
        f64::from(frames) / wall.as_secs_f64()
    );
    println!(
        "  draws        {draws} ({} per frame)",
        draws / u64::from(frames.max(1))
    );
    println!(
        "  records      {} ({:.2} per draw), {} archived bytes + {} stage bytes",
        t1.records - t0.records,
        (t1.records - t0.records) as f64 / draws.max(1) as f64,
        t1.record_bytes - t0.record_bytes,
        t1.stage_bytes - t0.stage_bytes
    );
    println!(
        "  batches      {}, blocking waits {}",
        t1.batches - t0.batches,
        t1.blocking_waits - t0.blocking_waits
    );
    println!(
        "  CSO cache    {} hits, {} misses in the timed frames",
        cso1.hits - cso0.hits,
        cso1.misses - cso0.misses
    );
    println!(
        "  CPU          {:.0} ns per draw on the calling thread: frontend + in-process backend ({:.0} user + {:.0} system); wall {:.0} ns per draw",
        per_draw((u1 - u0) + (s1 - s0)),
        per_draw(u1 - u0),
        per_draw(s1 - s0),
        per_draw(wall.as_nanos() as u64)
    );
    println!(
        "  GL errors    {}",
        if error == 0 {
            "none".to_owned()
        } else {
            format!("{error:#06x}")
        }
    );
    match image {
        Some(pixels) => match write_png(&out, width, height, &pixels) {
            Ok(()) => println!("  image        {} ({width}x{height})", out.display()),
            Err(e) => {
                eprintln!("tessera-demo: writing {}: {e}", out.display());
                std::process::exit(1);
            }
        },
        None => println!("  image        none: the null backend draws nothing"),
    }
    if error != 0 || lost {
        std::process::exit(1);
    }
}

/// `--window`: the scene in a window (X11, else Wayland) until it is closed, or for `frames`
/// frames.
fn run_window(width: u32, height: u32, frames: Option<u32>) {
    use tessera_tests::window::{Window, no_display_message};
    if let Some(message) = no_display_message() {
        eprintln!("tessera-demo: {message}");
        std::process::exit(1);
    }
    let config = Config {
        surface: None,
        ..Config::from_env()
    };
    let mut ctx = Context::new(&config).unwrap_or_else(|e| {
        eprintln!("tessera-demo: {e}");
        std::process::exit(1);
    });
    let (w16, h16) = (
        u16::try_from(width).unwrap_or(u16::MAX),
        u16::try_from(height).unwrap_or(u16::MAX),
    );
    let mut win = Window::open(&mut ctx, "Tessera demo", w16, h16).unwrap_or_else(|e| {
        eprintln!("tessera-demo: cannot open a window: {e}");
        std::process::exit(1);
    });
    let mut demo = Demo::setup(&mut ctx, width as i32, height as i32);
    println!(
        "Tessera main job: built-in scene in a {width}x{height} {} window, backend {}, transport {} (close the window to stop)",
        win.platform(),
        ctx.backend_name(),
        config.transport.name()
    );
    let (u0, s0) = thread_cpu_ns();
    let start = Instant::now();
    let mut shown = 0u64;
    while frames.is_none_or(|n| shown < u64::from(n)) {
        match win.poll() {
            None => {
                if let Some(e) = win.error() {
                    eprintln!("tessera-demo: the window is gone: {e}");
                }
                break;
            }
            Some(Some((w, h))) => demo.set_size(w, h),
            Some(None) => {}
        }
        demo.frame(&mut ctx);
        if let Err(e) = win.swap_buffers(&mut ctx) {
            eprintln!("tessera-demo: the window is gone: {e}");
            break;
        }
        shown += 1;
    }
    let wall = start.elapsed().as_secs_f64();
    let (u1, s1) = thread_cpu_ns();
    let per_frame = |ns: u64| ns as f64 / shown.max(1) as f64 / 1e3;
    println!(
        "  frames       {shown} in {:.2} s ({:.1} frames/s)",
        wall,
        shown as f64 / wall.max(1e-9)
    );
    println!(
        "  CPU          {:.0} us per frame on the calling thread ({:.0} user + {:.0} system)",
        per_frame((u1 - u0) + (s1 - s0)),
        per_frame(u1 - u0),
        per_frame(s1 - s0)
    );
    let error = ctx.get_error();
    win.release(&mut ctx);
    drop(win);
    if error != 0 || ctx.is_lost() {
        eprintln!("tessera-demo: GL error {error:#06x} or lost context");
        std::process::exit(1);
    }
}

/// The default framebuffer's pixels, top row first.
fn read_back(ctx: &mut Context, width: u32, height: u32) -> Vec<u8> {
    use tessera_engine::gl::{RGBA, UNSIGNED_BYTE};
    let row = width as usize * 4;
    let mut pixels = vec![0u8; row * height as usize];
    ctx.read_pixels(
        0,
        0,
        width as i32,
        height as i32,
        RGBA,
        UNSIGNED_BYTE,
        tessera_engine::pixel::PixelsMut::Bytes(&mut pixels),
    );
    // GL rows start at the bottom; PNG rows at the top.
    let mut flipped = Vec::with_capacity(pixels.len());
    for y in (0..height as usize).rev() {
        flipped.extend_from_slice(&pixels[y * row..(y + 1) * row]);
    }
    flipped
}

fn write_png(
    path: &std::path::Path,
    width: u32,
    height: u32,
    rgba: &[u8],
) -> Result<(), Box<dyn std::error::Error>> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(rgba)?;
    Ok(())
}

fn usage(msg: &str) -> ! {
    eprintln!(
        "tessera-demo: {msg}\nusage: tessera-demo [--frames N] [--size WxH] [--out FILE.png] [--window]\n  --window  show the scene in a window (X11 if DISPLAY is set, else Wayland) until it is closed"
    );
    std::process::exit(2);
}

//! The frontend benchmark: CPU time, records and bytes per draw of the bench scenes.
//!
//! Usage: tessera-bench [--scene steady|static|statechange] [--draws N] [--frames F]
//!                      [--runs R] [--transport inproc|thread] [--backend null|sink] [--quiet]
//!
//! Each configuration (defaults: 1000 draws x 100 frames, 5 runs) runs R times, alternating configurations run by run, in a fresh context
//! each time: set up, two warm-up frames, then F timed frames of N draws with a flush at the
//! end of each (a frame boundary that does not wait). It prints medians of wall and CPU
//! (user, system) nanoseconds per draw of the calling thread, and records, bytes and
//! blocking waits per draw and frame. `--quiet` runs one configuration and prints nothing
//! (for instruction counting under callgrind: see scripts/bench-callgrind).

use std::time::Instant;

use tessera_engine::wire::TransportKind;
use tessera_engine::{Config, Context};
use tessera_tests::measure::{Sink, thread_cpu_ns, thread_cpu_total_ns};
use tessera_tests::scenes::{Bench, BenchScene};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backend {
    Null,
    Sink,
}

struct Options {
    scenes: Vec<BenchScene>,
    draws: u32,
    frames: u32,
    runs: u32,
    transports: Vec<TransportKind>,
    backends: Vec<Backend>,
    quiet: bool,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        scenes: BenchScene::ALL.to_vec(),
        draws: 1000,
        frames: 100,
        runs: 5,
        transports: vec![TransportKind::Inproc, TransportKind::Thread],
        backends: vec![Backend::Sink, Backend::Null],
        quiet: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--scene" => {
                let v = value()?;
                o.scenes = vec![BenchScene::parse(&v).ok_or_else(|| format!("unknown scene {v}"))?];
            }
            "--draws" => o.draws = value()?.parse().map_err(|e| format!("--draws: {e}"))?,
            "--frames" => o.frames = value()?.parse().map_err(|e| format!("--frames: {e}"))?,
            "--runs" => o.runs = value()?.parse().map_err(|e| format!("--runs: {e}"))?,
            "--transport" => {
                let v = value()?;
                o.transports = vec![TransportKind::parse(&v).ok_or_else(|| format!("unknown transport {v}"))?];
            }
            "--backend" => {
                o.backends = vec![match value()?.as_str() {
                    "null" => Backend::Null,
                    "sink" => Backend::Sink,
                    v => return Err(format!("unknown backend {v}")),
                }];
            }
            "--quiet" => o.quiet = true,
            "--help" | "-h" => return Err(String::new()),
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    Ok(o)
}

#[derive(Clone, Copy, Default)]
struct Sample {
    wall_ns: f64,
    cpu_ns: f64,
    user_ns: f64,
    sys_ns: f64,
    records: f64,
    bytes: f64,
    waits_per_frame: f64,
}

fn run_once(scene: BenchScene, transport: &TransportKind, backend: Backend, o: &Options) -> Sample {
    let config = Config { transport: transport.clone(), ..Config::default() };
    let mut ctx = match backend {
        Backend::Null => Context::new(&config).expect("null backend"),
        Backend::Sink => Context::with_backend(&config, Box::new(Sink)),
    };
    let mut bench = Bench::setup(&mut ctx, scene);
    for _ in 0..2 {
        for _ in 0..o.draws {
            bench.draw(&mut ctx);
        }
        ctx.flush();
    }
    ctx.finish();
    let before = ctx.transport_stats();
    let (u0, s0) = thread_cpu_ns();
    let c0 = thread_cpu_total_ns();
    let t0 = Instant::now();
    for _ in 0..o.frames {
        for _ in 0..o.draws {
            bench.draw(&mut ctx);
        }
        ctx.flush();
    }
    let wall = t0.elapsed().as_nanos() as f64;
    let c1 = thread_cpu_total_ns();
    let (u1, s1) = thread_cpu_ns();
    let after = ctx.transport_stats();
    ctx.finish();
    assert!(!ctx.is_lost(), "the session was lost during the benchmark");
    assert_eq!(ctx.get_error(), 0, "the scene raised a GL error");
    let draws = f64::from(o.draws) * f64::from(o.frames);
    Sample {
        wall_ns: wall / draws,
        cpu_ns: (c1 - c0) as f64 / draws,
        user_ns: (u1 - u0) as f64 / draws,
        sys_ns: (s1 - s0) as f64 / draws,
        records: (after.records - before.records) as f64 / draws,
        bytes: ((after.record_bytes - before.record_bytes) + (after.stage_bytes - before.stage_bytes)) as f64
            / draws,
        waits_per_frame: (after.blocking_waits - before.blocking_waits) as f64 / f64::from(o.frames),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return 0.0;
    }
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

fn main() {
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("tessera-bench: {e}");
            }
            eprintln!(
                "usage: tessera-bench [--scene steady|static|statechange] [--draws N] [--frames F] [--runs R] \
                 [--transport inproc|thread] [--backend null|sink] [--quiet]"
            );
            std::process::exit(2);
        }
    };
    if o.quiet {
        for &scene in &o.scenes {
            run_once(scene, &o.transports[0], o.backends[0], &o);
        }
        return;
    }
    let mut configs = Vec::new();
    for &scene in &o.scenes {
        for t in &o.transports {
            for &b in &o.backends {
                configs.push((scene, t.clone(), b));
            }
        }
    }
    let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); configs.len()];
    // Alternate configurations run by run so drift of the machine affects all alike.
    for _ in 0..o.runs {
        for (i, (scene, t, b)) in configs.iter().enumerate() {
            samples[i].push(run_once(*scene, t, *b, &o));
        }
    }
    println!(
        "Tessera frontend benchmark: {} draws x {} frames, median of {} runs (client thread CPU)",
        o.draws, o.frames, o.runs
    );
    println!(
        "{:<12} {:<9} {:<8} {:>12} {:>11} {:>12} {:>11} {:>12} {:>11} {:>12}",
        "scene", "transport", "backend", "wall ns/draw", "cpu ns/draw", "user ns/draw", "sys ns/draw", "records/draw",
        "bytes/draw", "waits/frame"
    );
    for (i, (scene, t, b)) in configs.iter().enumerate() {
        let s = &samples[i];
        let m = |f: fn(&Sample) -> f64| median(s.iter().map(f).collect());
        println!(
            "{:<12} {:<9} {:<8} {:>12.1} {:>11.1} {:>12.1} {:>11.1} {:>12.2} {:>11.1} {:>12.2}",
            scene.name(),
            t.name(),
            if *b == Backend::Null { "null" } else { "sink" },
            m(|s| s.wall_ns),
            m(|s| s.cpu_ns),
            m(|s| s.user_ns),
            m(|s| s.sys_ns),
            m(|s| s.records),
            m(|s| s.bytes),
            m(|s| s.waits_per_frame),
        );
    }
}

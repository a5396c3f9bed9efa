//! The worker: one implementation, every scene, in this process; and `--quiet`.

use std::time::Instant;

use tessera_engine::gl::{NO_ERROR, RGBA, UNSIGNED_BYTE};
use tessera_engine::wire::null::NullBackend;
use tessera_engine::wire::{Backend, BackendCounters, TransportKind};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::gl::{Gl, NativeGl, SceneGl};
use tessera_tests::measure::{Counted, CountersProbe, CpuClock, Sink};
use tessera_tests::raw_vk::{RawBench, RawVk};
use tessera_tests::scenes::{BENCH_SIZE, Bench, BenchScene};

use super::{Back, Imp, Options, Sample, WARMUP_FRAMES};

/// A context under test.
enum Subject {
    Tessera {
        ctx: Box<Context>,
        /// The backend's counters, when it runs in this process.
        local: Option<CountersProbe>,
        remote: bool,
    },
    Native(Box<NativeGl>),
}

/// Tessera's counters at one instant.
#[derive(Clone, Copy, Default)]
struct Counters {
    records: u64,
    bytes: u64,
    wire_bytes: u64,
    waits: u64,
    csos: u64,
    draws: u64,
    creations: Option<u64>,
    /// The server process's CPU time (user, system), for the server transports.
    server_cpu: Option<(u64, u64)>,
}

fn transport_kind(name: &str, o: &Options) -> Result<TransportKind, String> {
    let no_server =
        || "no tessera-server for this worker (run the bench without --worker)".to_owned();
    Ok(match name {
        "inproc" => TransportKind::Inproc,
        "thread" => TransportKind::Thread,
        "fork" => TransportKind::Fork,
        "shm" => TransportKind::Shm(Some(o.unix.clone().ok_or_else(no_server)?)),
        "unix" => TransportKind::Unix(o.unix.clone().ok_or_else(no_server)?),
        "tcp" => TransportKind::Tcp {
            addr: o.tcp.clone().ok_or_else(no_server)?,
            secret: o.secret.clone(),
        },
        other => return Err(format!("unknown transport {other}")),
    })
}

fn subject(imp: &Imp, o: &Options) -> Result<Subject, String> {
    let (backend, transport) = match imp {
        Imp::Native | Imp::Zink => {
            return NativeGl::new(BENCH_SIZE, BENCH_SIZE).map(|gl| Subject::Native(Box::new(gl)));
        }
        Imp::RawGles => {
            return NativeGl::new_es(BENCH_SIZE, BENCH_SIZE)
                .map(|gl| Subject::Native(Box::new(gl)));
        }
        Imp::RawVulkan => return Err("raw-vulkan runs through raw_scene".to_owned()),
        Imp::Tessera { backend, transport } => (*backend, *transport),
    };
    let kind = transport_kind(transport, o)?;
    let remote = kind.is_remote();
    let mut config = Config {
        transport: kind,
        surface: Some(SurfaceConfig::new(BENCH_SIZE as u32, BENCH_SIZE as u32)),
        backend: BackendKind::Null,
        ..Config::default()
    };
    // In this process the bench makes the backend itself, to read its counters while the
    // transport owns it; a server reports them in its probe reply.
    let local: Option<Box<dyn Backend>> = match backend {
        _ if remote => None,
        Back::Sink => Some(Box::new(Sink)),
        Back::Null => Some(Box::new(NullBackend::new(false).0)),
        Back::Gles => Some(Box::new(
            tessera_backend_gles::GlesBackend::new().map_err(|e| e.to_string())?,
        )),
        Back::Vulkan => {
            let vk = tessera_backend_vk::VulkanBackend::new().map_err(|e| e.to_string())?;
            let stats = vk.probe();
            let probe = CountersProbe::from_fn(move || {
                let s = stats.stats();
                Some(BackendCounters {
                    shaders_compiled: s.shader_modules,
                    programs_linked: 0,
                    pipelines_created: s.pipelines,
                    ..BackendCounters::default()
                })
            });
            let ctx = Context::with_backend(&config, Box::new(vk));
            return Ok(Subject::Tessera {
                ctx: Box::new(ctx),
                local: Some(probe),
                remote,
            });
        }
    };
    let (ctx, local) = match local {
        Some(b) => {
            let (counted, probe) = Counted::new(b);
            (
                Context::with_backend(&config, Box::new(counted)),
                Some(probe),
            )
        }
        None => {
            config.backend = match backend {
                Back::Sink | Back::Null => BackendKind::Null,
                Back::Gles => BackendKind::Gles,
                Back::Vulkan => BackendKind::Vulkan,
            };
            if backend == Back::Sink {
                return Err("the sink backend runs in this process only".to_owned());
            }
            (Context::new(&config).map_err(|e| e.to_string())?, None)
        }
    };
    if ctx.is_lost() {
        return Err("the session was lost at its start".to_owned());
    }
    Ok(Subject::Tessera {
        ctx: Box::new(ctx),
        local,
        remote,
    })
}

fn counters(ctx: &Context, local: &Option<CountersProbe>, remote: bool) -> Counters {
    // The probe blocks once: read it before the transport's own counters.
    let probe = if remote { ctx.server_probe() } else { None };
    let t = ctx.transport_stats();
    Counters {
        records: t.records,
        bytes: t.record_bytes + t.stage_bytes,
        wire_bytes: t.wire_bytes,
        waits: t.blocking_waits,
        csos: ctx.cso_stats().misses,
        draws: ctx.stats().draws,
        creations: match (local, &probe) {
            (Some(l), _) => l.get().map(|c| c.creations()),
            (None, Some(p)) => p.backend.map(|c| c.creations()),
            (None, None) => None,
        },
        server_cpu: probe.map(|p| (p.cpu_user_ns, p.cpu_sys_ns)),
    }
}

/// The timed frames, monomorphised per implementation so the loop adds no dispatch.
fn timed<G: SceneGl>(gl: &mut G, bench: &mut Bench, frames: u32, draws: u32) {
    for _ in 0..frames {
        bench.frame(gl, draws);
    }
}

fn run_scene(subject: &mut Subject, scene: BenchScene, o: &Options) -> Result<Sample, String> {
    let gl: &mut dyn SceneGl = match subject {
        Subject::Tessera { ctx, .. } => ctx.as_mut(),
        Subject::Native(n) => n.as_mut(),
    };
    let per_frame = scene.draws_per_frame(o.draws);
    let mut bench = Bench::setup(gl, scene);
    for _ in 0..WARMUP_FRAMES {
        bench.frame(gl, per_frame);
    }
    gl.finish();
    if o.stop_after_warmup {
        tessera_tests::measure::stop_self();
    }
    let before = match subject {
        Subject::Tessera { ctx, local, remote } => Some(counters(ctx, local, *remote)),
        Subject::Native(_) => None,
    };
    let cpu0 = CpuClock::now();
    let t0 = Instant::now();
    let mut after = None;
    match subject {
        Subject::Tessera { ctx, local, .. } => {
            timed(ctx.as_mut(), &mut bench, o.frames, per_frame);
            // Before the final finish, so its wait is not counted as the frames'.
            after = Some(counters(ctx, local, false));
            ctx.finish();
        }
        Subject::Native(n) => {
            timed(n.as_mut(), &mut bench, o.frames, per_frame);
            Gl::finish(n.as_mut());
        }
    }
    let wall = t0.elapsed().as_nanos() as f64;
    let cpu = CpuClock::now().since(&cpu0);
    // The sink answers no read-back: its rows have no picture.
    let sink = matches!(subject, Subject::Tessera { local: Some(_), .. }) && o.worker_is_sink;
    let gl: &mut dyn SceneGl = match subject {
        Subject::Tessera { ctx, .. } => ctx.as_mut(),
        Subject::Native(n) => n.as_mut(),
    };
    let checksum = (!sink).then(|| bench.checksum(gl));
    if let (Some(dir), false) = (&o.dump, sink) {
        dump(gl, dir, scene, o.worker.as_ref());
    }
    let error = gl.get_error();
    if error != NO_ERROR {
        return Err(format!("{}: GL error {error:#06x}", scene.name()));
    }
    let draws = u64::from(per_frame) * u64::from(o.frames);
    // What reaches the backend as draws: one per draw, or one per `multidraw` call.
    let calls = u64::from(scene.calls_per_frame(per_frame)) * u64::from(o.frames);
    let mut s = Sample {
        draws: draws as f64,
        frames: f64::from(o.frames),
        wall_ns: wall,
        app_user_ns: cpu.app_user as f64,
        app_sys_ns: cpu.app_sys as f64,
        srv_user_ns: cpu.rest_user as f64,
        srv_sys_ns: cpu.rest_sys as f64,
        checksum,
        ..Sample::default()
    };
    if let (Subject::Tessera { ctx, local, remote }, Some(b), Some(mut a)) =
        (subject, before, after)
    {
        if ctx.is_lost() {
            return Err(format!("{}: the session was lost", scene.name()));
        }
        if a.draws - b.draws != draws && a.draws - b.draws != calls {
            return Err(format!(
                "{}: {} of {draws} draws reached the backend",
                scene.name(),
                a.draws - b.draws
            ));
        }
        if *remote {
            // The server's CPU time after the final finish: all its work for the frames.
            let end = counters(ctx, local, true);
            a.server_cpu = end.server_cpu;
            a.creations = end.creations;
            if let (Some((u0, s0)), Some((u1, s1))) = (b.server_cpu, a.server_cpu) {
                s.srv_user_ns = u1.saturating_sub(u0) as f64;
                s.srv_sys_ns = s1.saturating_sub(s0) as f64;
            }
        }
        s.records = Some((a.records - b.records) as f64);
        s.bytes = Some((a.bytes - b.bytes) as f64);
        s.wire_bytes = Some((a.wire_bytes - b.wire_bytes) as f64);
        s.waits = Some((a.waits - b.waits) as f64);
        s.csos = Some((a.csos - b.csos) as f64);
        s.creations = b
            .creations
            .zip(a.creations)
            .map(|(b, a)| a.saturating_sub(b) as f64);
    }
    Ok(s)
}

/// Writes the target as `DIR/SCENE-IMPL.ppm` (bottom row first, as GL reads it).
fn dump(gl: &mut dyn SceneGl, dir: &std::path::Path, scene: BenchScene, imp: Option<&Imp>) {
    let mut pixels = vec![0u8; (BENCH_SIZE * BENCH_SIZE * 4) as usize];
    gl.read_pixels(
        0,
        0,
        BENCH_SIZE,
        BENCH_SIZE,
        RGBA,
        UNSIGNED_BYTE,
        &mut pixels,
    );
    let name = imp.map_or("tessera".to_owned(), |i| i.spec().replace(':', "-"));
    let mut ppm = format!("P6\n{BENCH_SIZE} {BENCH_SIZE}\n255\n").into_bytes();
    ppm.extend(pixels.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]));
    let path = dir.join(format!("{}-{name}.ppm", scene.name()));
    if let Err(e) = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, ppm)) {
        eprintln!("tessera-bench: {}: {e}", path.display());
    }
}

/// A scene on the raw-Vulkan floor: the same warm-up, timed frames and checksum as
/// [`run_scene`], the frames recorded and submitted by hand.
fn raw_scene(vk: &mut RawVk, scene: BenchScene, o: &Options) -> Result<Sample, String> {
    let per_frame = scene.draws_per_frame(o.draws);
    let mut bench = RawBench::setup(vk, scene, per_frame)?;
    for _ in 0..WARMUP_FRAMES {
        bench.frame(vk, per_frame)?;
    }
    vk.finish()?;
    if o.stop_after_warmup {
        tessera_tests::measure::stop_self();
    }
    let cpu0 = CpuClock::now();
    let t0 = Instant::now();
    for _ in 0..o.frames {
        bench.frame(vk, per_frame)?;
    }
    vk.finish()?;
    let wall = t0.elapsed().as_nanos() as f64;
    let cpu = CpuClock::now().since(&cpu0);
    let checksum = bench.checksum(vk)?;
    bench.destroy(vk);
    Ok(Sample {
        draws: f64::from(per_frame) * f64::from(o.frames),
        frames: f64::from(o.frames),
        wall_ns: wall,
        app_user_ns: cpu.app_user as f64,
        app_sys_ns: cpu.app_sys as f64,
        srv_user_ns: cpu.rest_user as f64,
        srv_sys_ns: cpu.rest_sys as f64,
        checksum: Some(checksum),
        ..Sample::default()
    })
}

/// The raw-Vulkan worker: the scenes it has, each on a fresh device; the others skipped.
fn raw_worker(o: &Options) {
    for &scene in &o.scenes {
        if !RawBench::supports(scene) {
            println!(
                "skip scene={} not written for raw Vulkan yet (n/a)",
                scene.name()
            );
            continue;
        }
        let mut vk = match RawVk::new() {
            Ok(vk) => vk,
            Err(e) => {
                println!("unavailable {}", e.replace('\n', " "));
                return;
            }
        };
        match raw_scene(&mut vk, scene, o) {
            Ok(sample) => println!("{}", sample.to_line(scene)),
            Err(e) => {
                eprintln!("tessera-bench: raw-vulkan: {}: {e}", scene.name());
                std::process::exit(1);
            }
        }
    }
}

pub(crate) fn worker(imp: &Imp, o: &Options) {
    if *imp == Imp::RawVulkan {
        return raw_worker(o);
    }
    for &scene in &o.scenes {
        if matches!(
            imp,
            Imp::Tessera {
                backend: Back::Sink,
                ..
            }
        ) && scene.reads_back()
        {
            println!(
                "skip scene={} the sink backend answers no read-back",
                scene.name()
            );
            continue;
        }
        let mut subject = match subject(imp, o) {
            Ok(s) => s,
            Err(e) => {
                println!("unavailable {}", e.replace('\n', " "));
                return;
            }
        };
        match run_scene(&mut subject, scene, o) {
            Ok(sample) => println!("{}", sample.to_line(scene)),
            Err(e) => {
                eprintln!("tessera-bench: {}: {e}", imp.spec());
                std::process::exit(1);
            }
        }
    }
}

/// `--quiet`: one configuration in this process, nothing printed (for callgrind).
pub(crate) fn quiet(o: &Options) {
    let transport = if o.quiet_transport == "thread" {
        TransportKind::Thread
    } else {
        TransportKind::Inproc
    };
    // Every backend draws into a surface, as the bench's workers do: without one the default
    // framebuffer is undefined, every draw fails its framebuffer check before validation,
    // and the counts would be those of the error path.
    let config = Config {
        transport,
        surface: Some(SurfaceConfig::new(BENCH_SIZE as u32, BENCH_SIZE as u32)),
        no_error: o.quiet_no_error,
        backend: BackendKind::Null,
        ..Config::default()
    };
    for &scene in &o.scenes {
        let backend: Box<dyn Backend> = match o.quiet_backend {
            Back::Sink if !scene.reads_back() => Box::new(Sink),
            Back::Gles => Box::new(tessera_backend_gles::GlesBackend::new().expect("GLES backend")),
            Back::Vulkan => {
                Box::new(tessera_backend_vk::VulkanBackend::new().expect("Vulkan backend"))
            }
            _ => Box::new(NullBackend::new(false).0),
        };
        let mut ctx = Context::with_backend(&config, backend);
        let per_frame = scene.draws_per_frame(o.draws);
        let mut bench = Bench::setup(&mut ctx, scene);
        for _ in 0..WARMUP_FRAMES {
            bench.frame(&mut ctx, per_frame);
        }
        timed(&mut ctx, &mut bench, o.frames, per_frame);
        ctx.finish();
        assert!(!ctx.is_lost(), "the session was lost during the benchmark");
        let error = Gl::get_error(&mut ctx);
        assert_eq!(error, NO_ERROR, "{}: GL error {error:#06x}", scene.name());
    }
}

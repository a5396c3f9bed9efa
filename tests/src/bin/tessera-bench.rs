//! The benchmark: the bench scenes on Tessera (every backend x transport), on the native
//! driver (Mesa llvmpipe through the system EGL) and on Zink (Mesa's GL on lavapipe), side by
//! side in one run.
//!
//! ```text
//! tessera-bench [--quick] [--scene S,S,..] [--impl I,I,..] [--draws N] [--frames F] [--runs R]
//! tessera-bench --worker IMPL [--scene ..] [--draws N] [--frames F] [--unix PATH] [--tcp ADDR --secret FILE] [--stop-after-warmup]
//! tessera-bench --quiet --scene S [--backend sink|null|gles|vulkan] [--transport inproc|thread] [--no-error] [--draws N] [--frames F]
//! ```
//!
//! **How it measures.** Each implementation runs in its own process: the bench re-executes
//! itself with `--worker IMPL` (Zink's worker with Mesa's Zink environment set before it loads
//! EGL), and alternates implementations run by run, so drift of a busy machine affects all
//! alike; it prints medians over the runs. A worker runs every scene in a fresh context: set
//! up, two warm-up frames, `glFinish`, then F timed frames (clear, N draws, the scene's
//! per-frame work, `glFlush`) and a final `glFinish` inside the timed span; last it reads the
//! image back and hashes it. For the server transports (`shm`, `unix`, `tcp`) the bench starts
//! a `tessera-server` (from next to this executable), whose CPU time comes back in the
//! session's probe reply.
//!
//! Defaults: 1000 draws x 10 frames, 5 runs, every scene and implementation (several minutes
//! on the 2-core CI machine; `--scene` and `--impl` narrow it); `--quick`: 100 draws x 4
//! frames, one run (a smoke test).
//!
//! **Waits.** Steady frames make no round trip; a nonzero `waits/f` on `thread` or `unix`
//! is back-pressure: the app ran a ring (4 batches) or send window ahead of a slower backend.
//!
//! **Columns.** CPU ns per draw of the app thread (user, system) and of the rest (the
//! server process for `shm`/`unix`/`tcp`; the render thread and the driver's threads for
//! `thread`; the driver's worker threads for `inproc`, native and Zink); their sum, and wall
//! ns per draw; the ratio of the sum to native llvmpipe's; records and archived + stage bytes
//! per draw, bytes that crossed a process boundary per draw; blocking waits per frame; CSOs
//! the frontend created and native programs/shaders/pipelines the backend created in the
//! timed frames (both 0 in steady state); the image checksum.
//!
//! `IMPL` is `native`, `raw-gles`, `raw-vulkan`, `zink`, or `tessera:BACKEND:TRANSPORT` with BACKEND `sink`
//! (records validated and dropped: the frontend alone), `null`, `gles` or `vulkan`, and
//! TRANSPORT `inproc`, `thread`, `shm`, `fork`, `unix` or `tcp`. `raw-gles` is the floor under
//! Tessera-on-GLES: the same scene code on an OpenGL ES 3.2 context of native llvmpipe (the
//! driver and context kind the GLES backend uses), the shaders with an ES version line and
//! high precision in place of `#version 330 core`, so its rows are what those GL calls cost
//! made directly, with no translation, validation or records in between.
//! `raw-vulkan` is the floor under Tessera-on-Vulkan and zink: the scenes hand-written with
//! ash on lavapipe (`tessera_tests::raw_vk`, every scene), drawing the same picture into a
//! 64x64 RGBA8 image.
//!
//! `--draws N` is the draws per frame of every scene but `shaderheavy`, which makes one draw
//! (a quad shading the whole target) per 100 (`BenchScene::draws_per_frame`); per-draw
//! figures are per draw made. In `multidraw` a frame's N draws are N/100 `glMultiDrawArrays`
//! calls. `--quiet` runs one scene in this
//! process and prints nothing, for instruction counting (scripts/bench-callgrind).

use std::collections::BTreeMap;
use std::path::PathBuf;

use tessera_tests::scenes::BenchScene;

// The crate root is a file of `src/bin/`, so its modules are named by path.
#[path = "tessera-bench/driver.rs"]
mod driver;
#[path = "tessera-bench/worker.rs"]
mod worker;

/// Mesa's environment for Zink on lavapipe (set before the worker loads EGL).
const ZINK_ENV: [(&str, &str); 3] = [
    ("LIBGL_ALWAYS_SOFTWARE", "1"),
    ("GALLIUM_DRIVER", "zink"),
    (
        "VK_ICD_FILENAMES",
        "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
    ),
];
/// Mesa's environment for llvmpipe: the native rows and the GLES backend's driver.
const LLVMPIPE_ENV: [(&str, &str); 2] = [
    ("LIBGL_ALWAYS_SOFTWARE", "1"),
    ("GALLIUM_DRIVER", "llvmpipe"),
];
/// Warm-up frames before the timed ones.
const WARMUP_FRAMES: u32 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Back {
    Sink,
    Null,
    Gles,
    Vulkan,
}

impl Back {
    fn name(self) -> &'static str {
        match self {
            Back::Sink => "sink",
            Back::Null => "null",
            Back::Gles => "gles",
            Back::Vulkan => "vulkan",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        [Back::Sink, Back::Null, Back::Gles, Back::Vulkan]
            .into_iter()
            .find(|b| b.name() == s)
    }
}

const TRANSPORTS: [&str; 6] = ["inproc", "thread", "shm", "fork", "unix", "tcp"];

/// One implementation a worker runs.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Imp {
    Tessera {
        backend: Back,
        transport: &'static str,
    },
    Native,
    Zink,
    /// The scenes on an OpenGL ES 3.2 context of the native driver (llvmpipe), the driver
    /// the GLES backend calls: the floor under Tessera-on-GLES.
    RawGles,
    /// The scenes hand-written with ash on lavapipe (`tessera_tests::raw_vk`): the floor
    /// under Tessera-on-Vulkan and zink.
    RawVulkan,
}

impl Imp {
    fn parse(s: &str) -> Option<Self> {
        match s {
            "native" | "llvmpipe" => return Some(Imp::Native),
            "zink" => return Some(Imp::Zink),
            "raw-gles" => return Some(Imp::RawGles),
            "raw-vulkan" => return Some(Imp::RawVulkan),
            _ => {}
        }
        let mut parts = s.split(':');
        if parts.next()? != "tessera" {
            return None;
        }
        let backend = Back::parse(parts.next()?)?;
        let t = parts.next()?;
        let transport = TRANSPORTS.into_iter().find(|n| *n == t)?;
        parts
            .next()
            .is_none()
            .then_some(Imp::Tessera { backend, transport })
    }

    fn spec(&self) -> String {
        match self {
            Imp::Tessera { backend, transport } => {
                format!("tessera:{}:{transport}", backend.name())
            }
            Imp::Native => "native".to_owned(),
            Imp::Zink => "zink".to_owned(),
            Imp::RawGles => "raw-gles".to_owned(),
            Imp::RawVulkan => "raw-vulkan".to_owned(),
        }
    }

    fn label(&self) -> String {
        match self {
            Imp::Tessera { backend, transport } => format!("{} {transport}", backend.name()),
            Imp::Native => "native llvmpipe".to_owned(),
            Imp::Zink => "zink lavapipe".to_owned(),
            Imp::RawGles => "raw GLES".to_owned(),
            Imp::RawVulkan => "raw Vulkan".to_owned(),
        }
    }

    fn needs_server(&self) -> bool {
        matches!(
            self,
            Imp::Tessera {
                transport: "shm" | "unix" | "tcp",
                ..
            }
        )
    }

    /// Whether its rows have a picture to compare (the sink and null backends draw nothing).
    fn draws_pixels(&self) -> bool {
        !matches!(
            self,
            Imp::Tessera {
                backend: Back::Sink | Back::Null,
                ..
            }
        )
    }

    /// The environment of its worker.
    fn env(&self) -> &'static [(&'static str, &'static str)] {
        match self {
            Imp::Zink => &ZINK_ENV,
            _ => &LLVMPIPE_ENV,
        }
    }
}

/// The implementations of a default run, in table order.
fn default_imps() -> Vec<Imp> {
    let mut v = vec![Imp::Tessera {
        backend: Back::Sink,
        transport: "inproc",
    }];
    for backend in [Back::Null, Back::Gles, Back::Vulkan] {
        for transport in ["inproc", "thread", "shm", "unix", "tcp"] {
            v.push(Imp::Tessera { backend, transport });
        }
    }
    v.push(Imp::Native);
    v.push(Imp::RawGles);
    v.push(Imp::RawVulkan);
    v.push(Imp::Zink);
    v
}

struct Options {
    scenes: Vec<BenchScene>,
    imps: Vec<Imp>,
    draws: u32,
    frames: u32,
    runs: u32,
    worker: Option<Imp>,
    unix: Option<PathBuf>,
    tcp: Option<String>,
    secret: Option<PathBuf>,
    quiet: bool,
    quiet_backend: Back,
    quiet_transport: &'static str,
    /// `--no-error`: the `--quiet` context is a `GL_KHR_no_error` one.
    quiet_no_error: bool,
    /// Whether this worker runs the sink backend (which answers no read-back).
    worker_is_sink: bool,
    /// Where workers write each scene's final image (`--dump DIR`).
    dump: Option<PathBuf>,
    /// Whether a worker stops itself (SIGSTOP) once each scene's warm-up frames are finished
    /// (`--stop-after-warmup`): a harness that waits for every client to stop samples the
    /// server's memory with every session at the same point, then lets them go on (SIGCONT).
    stop_after_warmup: bool,
}

const USAGE: &str = "usage: tessera-bench [--quick] [--scene S,S,..] [--impl I,I,..] [--draws N] [--frames F] [--runs R]
       tessera-bench --quiet --scene S [--backend sink|null|gles|vulkan] [--transport inproc|thread] [--no-error] [--draws N] [--frames F]
scenes: steady static statechange programchange texturechange ubochange upload persistent readback
        appwork mapstream multidraw manyobjects shaderheavy
impls:  native raw-gles raw-vulkan zink tessera:{sink,null,gles,vulkan}:{inproc,thread,shm,fork,unix,tcp}";

fn parse() -> Result<Options, String> {
    let mut o = Options {
        scenes: BenchScene::ALL.to_vec(),
        imps: default_imps(),
        draws: 1000,
        frames: 10,
        runs: 5,
        worker: None,
        unix: None,
        tcp: None,
        secret: None,
        quiet: false,
        quiet_backend: Back::Sink,
        quiet_transport: "inproc",
        quiet_no_error: false,
        worker_is_sink: false,
        dump: None,
        stop_after_warmup: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        let number = |v: String| v.parse::<u32>().map_err(|e| format!("{a}: {e}"));
        match a.as_str() {
            "--scene" | "--scenes" => {
                o.scenes = value()?
                    .split(',')
                    .map(|s| BenchScene::parse(s).ok_or_else(|| format!("unknown scene {s}")))
                    .collect::<Result<_, _>>()?;
            }
            "--impl" | "--impls" => {
                o.imps = value()?
                    .split(',')
                    .map(|s| Imp::parse(s).ok_or_else(|| format!("unknown implementation {s}")))
                    .collect::<Result<_, _>>()?;
            }
            "--draws" => o.draws = number(value()?)?.max(1),
            "--frames" => o.frames = number(value()?)?.max(1),
            "--runs" => o.runs = number(value()?)?.max(1),
            "--quick" => {
                o.draws = 100;
                o.frames = 4;
                o.runs = 1;
            }
            "--worker" => {
                let v = value()?;
                o.worker =
                    Some(Imp::parse(&v).ok_or_else(|| format!("unknown implementation {v}"))?);
                o.worker_is_sink = matches!(
                    o.worker,
                    Some(Imp::Tessera {
                        backend: Back::Sink,
                        ..
                    })
                );
            }
            "--unix" => o.unix = Some(value()?.into()),
            "--tcp" => o.tcp = Some(value()?),
            "--secret" => o.secret = Some(value()?.into()),
            "--quiet" => o.quiet = true,
            "--dump" => o.dump = Some(value()?.into()),
            "--stop-after-warmup" => o.stop_after_warmup = true,
            "--no-error" => o.quiet_no_error = true,
            "--backend" => {
                let v = value()?;
                o.quiet_backend = Back::parse(&v).ok_or_else(|| format!("unknown backend {v}"))?;
            }
            "--transport" => {
                let v = value()?;
                o.quiet_transport = match v.as_str() {
                    "inproc" => "inproc",
                    "thread" => "thread",
                    _ => return Err(format!("--quiet runs inproc or thread, not {v}")),
                };
            }
            "--help" | "-h" => return Err(String::new()),
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    Ok(o)
}

fn main() {
    let o = parse().unwrap_or_else(|e| {
        if !e.is_empty() {
            eprintln!("tessera-bench: {e}");
        }
        eprintln!("{USAGE}");
        std::process::exit(2);
    });
    tessera_tests::ensure_runtime_dir();
    if o.quiet {
        worker::quiet(&o);
    } else if let Some(imp) = o.worker.clone() {
        worker::worker(&imp, &o);
    } else {
        driver::driver(&o);
    }
}

// ---------------------------------------------------------------------------------------
// What one timed run of one scene measured: totals over its timed frames.

#[derive(Clone, Debug, Default)]
struct Sample {
    draws: f64,
    frames: f64,
    wall_ns: f64,
    app_user_ns: f64,
    app_sys_ns: f64,
    srv_user_ns: f64,
    srv_sys_ns: f64,
    /// Records, archived + stage bytes, wire bytes, blocking waits (Tessera only).
    records: Option<f64>,
    bytes: Option<f64>,
    wire_bytes: Option<f64>,
    waits: Option<f64>,
    /// CSOs the frontend created; native creations of the backend.
    csos: Option<f64>,
    creations: Option<f64>,
    checksum: Option<u64>,
}

const KEYS: [&str; 14] = [
    "draws",
    "frames",
    "wall",
    "au",
    "as",
    "su",
    "ss",
    "records",
    "bytes",
    "wire",
    "waits",
    "csos",
    "creations",
    "sum",
];

impl Sample {
    fn to_line(&self, scene: BenchScene) -> String {
        let opt = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v}"));
        let values = [
            format!("{}", self.draws),
            format!("{}", self.frames),
            format!("{}", self.wall_ns),
            format!("{}", self.app_user_ns),
            format!("{}", self.app_sys_ns),
            format!("{}", self.srv_user_ns),
            format!("{}", self.srv_sys_ns),
            opt(self.records),
            opt(self.bytes),
            opt(self.wire_bytes),
            opt(self.waits),
            opt(self.csos),
            opt(self.creations),
            self.checksum
                .map_or("-".to_owned(), |c| format!("{c:016x}")),
        ];
        let mut line = format!("sample scene={}", scene.name());
        for (k, v) in KEYS.iter().zip(values) {
            line.push_str(&format!(" {k}={v}"));
        }
        line
    }

    fn from_line(line: &str) -> Option<(BenchScene, Sample)> {
        let mut fields = line.strip_prefix("sample ")?.split(' ');
        let scene = BenchScene::parse(fields.next()?.strip_prefix("scene=")?)?;
        let map: BTreeMap<&str, &str> = fields.filter_map(|f| f.split_once('=')).collect();
        let num = |k: &str| map.get(k).and_then(|v| v.parse::<f64>().ok());
        Some((
            scene,
            Sample {
                draws: num("draws")?,
                frames: num("frames")?,
                wall_ns: num("wall")?,
                app_user_ns: num("au")?,
                app_sys_ns: num("as")?,
                srv_user_ns: num("su")?,
                srv_sys_ns: num("ss")?,
                records: num("records"),
                bytes: num("bytes"),
                wire_bytes: num("wire"),
                waits: num("waits"),
                csos: num("csos"),
                creations: num("creations"),
                checksum: map.get("sum").and_then(|v| u64::from_str_radix(v, 16).ok()),
            },
        ))
    }
}

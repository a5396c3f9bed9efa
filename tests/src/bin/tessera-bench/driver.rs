//! The driver: a server for the server transports, the workers run by run, and the table.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use tessera_engine::wire::transport::server_binary;
use tessera_tests::scenes::{BENCH_SIZE, BenchScene};

use super::{Back, Imp, LLVMPIPE_ENV, Options, Sample};

/// A `tessera-server` the bench started for the server transports; SIGTERMed on drop.
struct Server {
    child: Child,
    dir: PathBuf,
    socket: PathBuf,
    tcp: String,
    secret: PathBuf,
}

impl Server {
    fn start() -> Result<Self, String> {
        let binary = server_binary().ok_or(
            "no tessera-server next to this executable (cargo build --release -p tessera-engine --bin tessera-server)",
        )?;
        let dir = std::env::temp_dir().join(format!("tessera-bench-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let socket = dir.join("server.sock");
        let secret = dir.join("secret");
        std::fs::write(&secret, b"tessera-bench\n").map_err(|e| e.to_string())?;
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| e.to_string())?;
        let mut command = Command::new(&binary);
        command
            .arg("--unix")
            .arg(&socket)
            .args(["--tcp", "127.0.0.1:0", "--secret"])
            .arg(&secret)
            .env("TESSERA_LOG", "warn")
            .env_remove("TESSERA_PUFFIN")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (k, v) in LLVMPIPE_ENV {
            command.env(k, v);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("{}: {e}", binary.display()))?;
        let mut stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let (mut tcp, mut line) = (String::new(), String::new());
        while stdout.read_line(&mut line).map_err(|e| e.to_string())? > 0 {
            if let Some(addr) = line
                .trim()
                .strip_prefix("tessera-server: listening on tcp://")
            {
                tcp = addr.to_owned();
            }
            if line.contains("listening on unix:") {
                break;
            }
            line.clear();
        }
        if tcp.is_empty() || !socket.exists() {
            let _ = child.kill();
            let _ = child.wait();
            return Err("tessera-server did not start listening".to_owned());
        }
        // The server prints nothing more on stdout; let the pipe drain anyway.
        std::thread::spawn(move || for _ in stdout.lines() {});
        Ok(Self {
            child,
            dir,
            socket,
            tcp,
            secret,
        })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // SIGTERM (a clean shutdown) to the server this value spawned and has not reaped.
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .stderr(Stdio::null())
            .status();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What the workers of one implementation reported.
#[derive(Default)]
struct Results {
    samples: BTreeMap<&'static str, Vec<Sample>>,
    unavailable: Option<String>,
    skipped: BTreeMap<&'static str, String>,
}

fn run_worker(imp: &Imp, o: &Options, server: &Result<Server, String>, into: &mut Results) {
    if imp.needs_server()
        && let Err(e) = server
    {
        into.unavailable = Some(e.clone());
        return;
    }
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            into.unavailable = Some(format!("cannot re-execute the bench: {e}"));
            return;
        }
    };
    let scenes: Vec<&str> = o.scenes.iter().map(|s| s.name()).collect();
    let mut command = Command::new(exe);
    command
        .args(["--worker", &imp.spec(), "--scene", &scenes.join(",")])
        .args([
            "--draws",
            &o.draws.to_string(),
            "--frames",
            &o.frames.to_string(),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("TESSERA_LOG", "warn")
        .env_remove("TESSERA_PUFFIN");
    for k in [
        "LIBGL_ALWAYS_SOFTWARE",
        "GALLIUM_DRIVER",
        "VK_ICD_FILENAMES",
    ] {
        command.env_remove(k);
    }
    for (k, v) in imp.env() {
        command.env(k, v);
    }
    if let Some(dir) = &o.dump {
        command.arg("--dump").arg(dir);
    }
    if let Ok(s) = server {
        command
            .arg("--unix")
            .arg(&s.socket)
            .args(["--tcp", &s.tcp])
            .arg("--secret")
            .arg(&s.secret);
    }
    let output = match command.output() {
        Ok(out) => out,
        Err(e) => {
            into.unavailable = Some(format!("worker: {e}"));
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    for line in stdout.lines() {
        if let Some(reason) = line.strip_prefix("unavailable ") {
            into.unavailable = Some(reason.to_owned());
        } else if let Some(rest) = line.strip_prefix("skip scene=") {
            let (name, why) = rest.split_once(' ').unwrap_or((rest, ""));
            if let Some(scene) = BenchScene::parse(name) {
                into.skipped.insert(scene.name(), why.to_owned());
            }
        } else if let Some((scene, sample)) = Sample::from_line(line) {
            into.samples.entry(scene.name()).or_default().push(sample);
        }
    }
    if !output.status.success() {
        let err = String::from_utf8_lossy(&output.stderr);
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("no message");
        eprintln!(
            "tessera-bench: the {} worker failed ({}): {last}",
            imp.spec(),
            output.status
        );
        into.unavailable
            .get_or_insert_with(|| format!("the worker failed: {last}"));
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Per-draw (or per-frame) medians of one row.
struct Row {
    app_user: f64,
    app_sys: f64,
    srv_user: f64,
    srv_sys: f64,
    cpu: f64,
    wall: f64,
    records: Option<f64>,
    bytes: Option<f64>,
    wire: Option<f64>,
    waits: Option<f64>,
    csos: Option<f64>,
    creations: Option<f64>,
    checksum: Option<u64>,
}

fn row(samples: &[Sample]) -> Row {
    let per_draw =
        |f: &dyn Fn(&Sample) -> f64| median(samples.iter().map(|s| f(s) / s.draws).collect());
    let opt = |f: &dyn Fn(&Sample) -> Option<f64>, per: &dyn Fn(&Sample) -> f64| {
        samples.iter().all(|s| f(s).is_some()).then(|| {
            median(
                samples
                    .iter()
                    .map(|s| f(s).unwrap_or(0.0) / per(s))
                    .collect(),
            )
        })
    };
    let draws = |s: &Sample| s.draws;
    let frames = |s: &Sample| s.frames;
    let one = |_: &Sample| 1.0;
    Row {
        app_user: per_draw(&|s| s.app_user_ns),
        app_sys: per_draw(&|s| s.app_sys_ns),
        srv_user: per_draw(&|s| s.srv_user_ns),
        srv_sys: per_draw(&|s| s.srv_sys_ns),
        cpu: per_draw(&|s| s.app_user_ns + s.app_sys_ns + s.srv_user_ns + s.srv_sys_ns),
        wall: per_draw(&|s| s.wall_ns),
        records: opt(&|s| s.records, &draws),
        bytes: opt(&|s| s.bytes, &draws),
        wire: opt(&|s| s.wire_bytes, &draws),
        waits: opt(&|s| s.waits, &frames),
        csos: opt(&|s| s.csos, &one)
            .map(|_| samples.iter().filter_map(|s| s.csos).fold(0.0, f64::max)),
        creations: opt(&|s| s.creations, &one).map(|_| {
            samples
                .iter()
                .filter_map(|s| s.creations)
                .fold(0.0, f64::max)
        }),
        checksum: samples.last().and_then(|s| s.checksum),
    }
}

pub(crate) fn driver(o: &Options) {
    let server = if o.imps.iter().any(Imp::needs_server) {
        Server::start()
    } else {
        Err("not needed".to_owned())
    };
    let mut results: Vec<Results> = o.imps.iter().map(|_| Results::default()).collect();
    let started = Instant::now();
    // Alternate implementations run by run so drift of the machine affects all alike.
    for run in 0..o.runs {
        for (imp, into) in o.imps.iter().zip(results.iter_mut()) {
            if into.unavailable.is_some() {
                continue;
            }
            eprint!(
                "\rtessera-bench: run {}/{} {:<24}",
                run + 1,
                o.runs,
                imp.spec()
            );
            run_worker(imp, o, &server, into);
        }
    }
    eprintln!(
        "\rtessera-bench: {} runs in {:.0} s{:30}",
        o.runs,
        started.elapsed().as_secs_f64(),
        ""
    );
    print_table(o, &results);
}

fn fmt_opt(v: Option<f64>, decimals: usize) -> String {
    v.map_or("-".to_owned(), |v| format!("{v:.decimals$}"))
}

fn print_table(o: &Options, results: &[Results]) {
    println!(
        "Tessera benchmark: {} draws x {} frames per run, median of {} runs; {}x{} target; CPU and wall ns per draw",
        o.draws, o.frames, o.runs, BENCH_SIZE, BENCH_SIZE
    );
    println!(
        "app = the calling thread; srv = the server process (shm/unix/tcp), the render thread + driver threads \
         (thread), the driver's threads (inproc, native, zink)"
    );
    let header = format!(
        "{:<13} {:<16} {:>8} {:>7} {:>8} {:>7} {:>8} {:>8} {:>7} {:>8} {:>9} {:>9} {:>7} {:>5} {:>6}  {}",
        "scene",
        "implementation",
        "app usr",
        "app sys",
        "srv usr",
        "srv sys",
        "cpu",
        "wall",
        "x nat",
        "rec/draw",
        "B/draw",
        "wire B/d",
        "waits/f",
        "csos",
        "native",
        "image"
    );
    println!("{header}");
    println!("{}", "-".repeat(header.len()));
    let mut mismatches = Vec::new();
    for scene in &o.scenes {
        let native = o
            .imps
            .iter()
            .zip(results)
            .find(|(i, _)| **i == Imp::Native)
            .and_then(|(_, r)| r.samples.get(scene.name()))
            .map(|s| row(s));
        let mut vulkan_reason_printed = false;
        for (imp, r) in o.imps.iter().zip(results) {
            let label = imp.label();
            if let Some(reason) = &r.unavailable {
                if matches!(
                    imp,
                    Imp::Tessera {
                        backend: Back::Vulkan,
                        ..
                    }
                ) {
                    // One row for the whole backend while it is unavailable everywhere.
                    let all = o
                        .imps
                        .iter()
                        .zip(results)
                        .filter(|(i, _)| {
                            matches!(
                                i,
                                Imp::Tessera {
                                    backend: Back::Vulkan,
                                    ..
                                }
                            )
                        })
                        .all(|(_, r)| r.unavailable.is_some());
                    if all {
                        if !vulkan_reason_printed {
                            println!(
                                "{:<13} {:<16} unavailable: {}",
                                scene.name(),
                                "vulkan (all)",
                                short(reason)
                            );
                            vulkan_reason_printed = true;
                        }
                        continue;
                    }
                }
                println!(
                    "{:<13} {label:<16} unavailable: {}",
                    scene.name(),
                    short(reason)
                );
                continue;
            }
            if let Some(why) = r.skipped.get(scene.name()) {
                println!("{:<13} {label:<16} skipped: {why}", scene.name());
                continue;
            }
            let Some(samples) = r.samples.get(scene.name()) else {
                continue;
            };
            let row = row(samples);
            let ratio = native.as_ref().map(|n| row.cpu / n.cpu);
            let image = match (
                imp.draws_pixels(),
                row.checksum,
                native.as_ref().and_then(|n| n.checksum),
            ) {
                (false, _, _) => "-".to_owned(),
                (true, Some(c), Some(n)) if c == n => format!("{:08x}", c >> 32),
                (true, Some(c), Some(_)) => {
                    mismatches.push(format!("{} on {label}", scene.name()));
                    format!("{:08x} differs", c >> 32)
                }
                (true, Some(c), None) => format!("{:08x}", c >> 32),
                (true, None, _) => "-".to_owned(),
            };
            println!(
                "{:<13} {label:<16} {:>8.0} {:>7.0} {:>8.0} {:>7.0} {:>8.0} {:>8.0} {:>7} {:>8} {:>9} {:>9} {:>7} {:>5} {:>6}  {image}",
                scene.name(),
                row.app_user,
                row.app_sys,
                row.srv_user,
                row.srv_sys,
                row.cpu,
                row.wall,
                ratio.map_or("-".to_owned(), |r| format!("{r:.2}")),
                fmt_opt(row.records, 2),
                fmt_opt(row.bytes, 1),
                fmt_opt(row.wire.filter(|w| *w > 0.0), 1),
                fmt_opt(row.waits, 2),
                fmt_opt(row.csos, 0),
                fmt_opt(row.creations, 0),
            );
        }
    }
    println!(
        "x nat = cpu / native llvmpipe's cpu; csos = CSOs the frontend created, native = programs, shaders and \
         pipelines the backend created, both in the timed frames (most of any run); image = the final picture's hash"
    );
    if mismatches.is_empty() {
        println!(
            "images: every implementation that draws drew native llvmpipe's picture in every scene"
        );
    } else {
        println!(
            "images differ from native llvmpipe's: {}",
            mismatches.join(", ")
        );
    }
}

/// The first line of a reason, shortened for the table.
fn short(reason: &str) -> String {
    let line = reason.lines().next().unwrap_or("");
    if line.chars().count() > 110 {
        format!("{}...", line.chars().take(107).collect::<String>())
    } else {
        line.to_owned()
    }
}

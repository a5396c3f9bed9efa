//! What each `tessera-server --isolation` mode costs: sessions accepted per second, and the
//! memory and CPU of idle sessions.
//!
//! ```sh
//! cargo build --release -p tessera-engine --bin tessera-server
//! cargo run --release -p tessera-tests --example isolation_bench -- [--sessions N] [--idle M] [--null] [--warm] [--modes process,pool,threads]
//!     [--server ARGS...]
//! ```
//!
//! For each mode it starts a server (GLES backend, or the null backend with `--null`: the
//! cost of the isolation alone; `shm` transport; with `--warm`, `--warm-backend gles`), then
//! - **accept rate**: opens N sessions one after another, each a context that clears and
//!   finishes once and is dropped, and reports sessions per second (one client, so this is
//!   the latency of a whole session start: connect, hand-over, handshake, backend, a frame);
//! - **idle cost**: opens M sessions that each drew a frame and then wait, and reports the
//!   proportional set size (PSS, `/proc/PID/smaps_rollup`) and the CPU time of the server
//!   and its workers over 3 s, both minus the server's figures with no session.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The server and every process whose parent it is.
fn family(root: u32) -> Vec<u32> {
    let mut pids = vec![root];
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let after = stat.rsplit_once(") ").map_or("", |(_, r)| r);
        if after.split_whitespace().nth(1) == Some(&root.to_string()) {
            pids.push(pid);
        }
    }
    pids
}

/// PSS of the server and its workers, in KiB.
fn pss_kib(root: u32) -> u64 {
    family(root)
        .iter()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok())
        .filter_map(|s| {
            s.lines()
                .find(|l| l.starts_with("Pss:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .sum()
}

/// The largest `VmSize` and `VmData` (address space, data segment) of the server's
/// processes, in MiB: what `RLIMIT_AS` and `RLIMIT_DATA` would have to allow.
fn largest_vm(root: u32) -> (u64, u64) {
    let field = |status: &str, name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .unwrap_or(0)
            / 1024
    };
    family(root)
        .iter()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/status")).ok())
        .map(|s| (field(&s, "VmSize:"), field(&s, "VmData:")))
        .fold((0, 0), |(a, d), (x, y)| (a.max(x), d.max(y)))
}

/// CPU time (user + system) of the server and its workers, in clock ticks.
fn cpu_ticks(root: u32) -> u64 {
    family(root)
        .iter()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/stat")).ok())
        .map(|stat| {
            let after = stat.rsplit_once(") ").map_or("", |(_, r)| r).to_owned();
            let f: Vec<u64> = after
                .split_whitespace()
                .map(|v| v.parse().unwrap_or(0))
                .collect();
            // utime and stime: fields 14 and 15 of stat, 12 and 13 after the name.
            f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0)
        })
        .sum()
}

/// A server that is stopped however the run ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.0.id().to_string())
            .status();
        let _ = self.0.wait();
    }
}

fn start(mode: &str, socket: &std::path::Path) -> Running {
    let binary = tessera_engine::wire::transport::server_binary()
        .expect("tessera-server next to this example");
    let warm: &[&str] = if std::env::args().any(|a| a == "--warm") {
        &["--warm-backend", "gles"]
    } else {
        &[]
    };
    // Arguments after `--server` go to the server (`--worker-memory MIB`, ...).
    let extra: Vec<String> = std::env::args()
        .skip_while(|a| a != "--server")
        .skip(1)
        .collect();
    let mut child = Command::new(binary)
        .args(["--unix", socket.to_str().unwrap(), "--isolation", mode])
        .args(warm)
        .args(&extra)
        .env("TESSERA_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .expect("starting tessera-server");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while out.read_line(&mut line).unwrap() > 0 && !line.contains("listening on unix:") {
        line.clear();
    }
    Running(child)
}

fn session(socket: &std::path::Path) -> Context {
    let null = std::env::args().any(|a| a == "--null");
    let config = Config {
        backend: if null {
            BackendKind::Null
        } else {
            BackendKind::Gles
        },
        transport: TransportKind::Shm(Some(socket.to_owned())),
        surface: Some(SurfaceConfig::new(32, 32)),
        ..Config::default()
    };
    let mut ctx = Context::new(&config).expect("a session");
    ctx.clear_color(0.5, 0.25, 1.0, 1.0);
    ctx.clear(COLOR_BUFFER_BIT);
    ctx.finish();
    ctx
}

fn main() {
    let n = arg("--sessions", 40);
    let m = arg("--idle", 8);
    let dir = std::env::temp_dir().join(format!("tessera-isolation-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tick_ns = 1e9 / 100.0; // USER_HZ
    println!(
        "| mode | sessions/s (sequential) | idle PSS per session (MiB) | idle CPU per session \
         (% of a core) | server alone PSS (MiB) | largest VmSize / VmData (MiB) |"
    );
    println!("|---|---|---|---|---|---|");
    let modes: Vec<String> = match std::env::args().position(|a| a == "--modes") {
        Some(i) => std::env::args()
            .nth(i + 1)
            .unwrap()
            .split(',')
            .map(str::to_owned)
            .collect(),
        None => vec!["process".into(), "pool".into(), "threads".into()],
    };
    for mode in modes.iter().map(String::as_str) {
        let socket = dir.join(format!("{mode}.sock"));
        let server = start(mode, &socket);
        let pid = server.0.id();
        // Warm-up: the first session pays for the page cache.
        drop(session(&socket));
        std::thread::sleep(Duration::from_millis(300));
        let began = Instant::now();
        for _ in 0..n {
            drop(session(&socket));
        }
        let rate = n as f64 / began.elapsed().as_secs_f64();
        std::thread::sleep(Duration::from_millis(500));
        let base_pss = pss_kib(pid);
        let t0 = cpu_ticks(pid);
        std::thread::sleep(Duration::from_secs(3));
        let base_cpu = cpu_ticks(pid) - t0;
        let idle: Vec<Context> = (0..m).map(|_| session(&socket)).collect();
        std::thread::sleep(Duration::from_millis(500));
        let pss = pss_kib(pid);
        let (vm_size, vm_data) = largest_vm(pid);
        let t0 = cpu_ticks(pid);
        std::thread::sleep(Duration::from_secs(3));
        let cpu = cpu_ticks(pid) - t0;
        drop(idle);
        let per_pss = (pss as f64 - base_pss as f64) / m as f64 / 1024.0;
        let per_cpu = (cpu as f64 - base_cpu as f64) * tick_ns / 3e9 / m as f64 * 100.0;
        println!(
            "| {mode} | {rate:.1} | {per_pss:.1} | {per_cpu:.2} | {:.1} | {vm_size} / {vm_data} |",
            base_pss as f64 / 1024.0
        );
        drop(server);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

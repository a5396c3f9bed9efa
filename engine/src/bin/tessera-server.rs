//! `tessera-server`: applies the records of Tessera clients in a separate process.
//!
//! ```text
//! tessera-server [--unix PATH] [--tcp HOST:PORT --secret FILE] [--allow-capture]
//!                [--isolation process|pool|threads] [--sessions-per-worker N]
//!                [--worker-memory MIB] [--max-sessions N] [--max-sessions-per-user N]
//!                [--handshake-timeout SECS] [--max-connections N] [--max-unauthenticated N]
//!                [--placement POLICY] [--topology FILE]
//! tessera-server status [--unix PATH]
//! tessera-server lose N [--unix PATH]
//! tessera-server --fd N            (spawned by a client's `fork` transport)
//! tessera-server --worker N        (a worker process, started by the server itself)
//! ```
//!
//! Isolation (see `tessera_wire::transport::worker`): by default each session runs in a
//! worker process of its own (`--isolation process`), the server's binary re-executed with
//! `--worker`, so a native driver fault ends only that session; `pool` serves up to
//! `--sessions-per-worker N` (default 4) sessions per worker; `threads` serves every session
//! on a thread of the server process, for hosts that trust their driver. A worker's data
//! segment is limited to `--worker-memory MIB` (default 4096; 0: unlimited).
//!
//! Session caps: `--max-sessions N` in all, `--max-sessions-per-user N` per uid (every TCP
//! peer counts as one user, "remote"); a session over a cap is refused with the reason,
//! which the client reports as its context creation's error, and logged.
//!
//! Admission limits (see `tessera_wire::transport::server`): at most 256 connections at
//! once (`--max-connections`), at most 32 of them still in their handshake
//! (`--max-unauthenticated`), each given 5 s to complete its side of the handshake — Hello,
//! and over TCP the secret's proof (`--handshake-timeout`, in seconds, fractions allowed).
//! A connection over a cap is refused at once, one past the deadline is closed; both logged.
//!
//! Devices and placement (see `tessera_wire::transport::{devices, placement}`): with
//! `--placement POLICY` (`pinned`, `least-loaded`, `round-robin`, `prefer-discrete`,
//! `affinity`) each session is placed on one of the devices [`discover`] finds — Vulkan
//! physical devices and native EGL devices — and its backend made on that device; with
//! `--topology FILE` the devices are the ones the file describes instead (synthetic devices,
//! each run on the software driver of its backend; the policy defaults to `least-loaded`).
//! Each decision is logged with its reason; a client may pin a device (`TESSERA_DEVICE`)
//! if `--pin-allowed any|none|owner|uid:N,gid:N,user:NAME,group:NAME,…` (default `any`) lets it, else its pin
//! is refused with the reason. A pin of two devices joined by `+` (`TESSERA_DEVICE=0+1`)
//! runs the session with alternate-frame rendering: a backend on each device, frame `N` on
//! device `N mod 2` (`tessera_wire::transport::afr`).
//! Without either flag sessions are not placed: each backend takes its own device.
//! `tessera-server status` asks the server on the unix socket (`--unix PATH`, else the
//! default) for its devices, sessions per device, memory and policy, and prints them;
//! `tessera-server lose N` loses synthetic device `N` of a topology on demand (as its
//! scripted `lost` event would): it takes no new session, and its sessions end with a context
//! reset, as for a dead server.
//!
//! With no listener named, it listens on the unix socket clients use by default
//! (`TESSERA_SERVER`, else `$XDG_RUNTIME_DIR/tessera-server.sock`). It prints one
//! `tessera-server: listening on …` line per listener on stdout, logs sessions on stderr
//! (`TESSERA_LOG=error|warn|info|debug`, default `info`), and exits cleanly on SIGTERM.
//! `TESSERA_PUFFIN=ADDR` serves puffin profiles of the sessions (a frame per applied batch);
//! the profiler sees this process only, so it implies `--isolation threads` unless another
//! isolation is given.
//!
//! Everything but argument parsing lives in `tessera_wire::transport::server`, which needs
//! no frontend crate. The one decision made here is which backends exist: [`make_backend`]
//! maps a name a client asks for to a backend — the seam where the GLES and Vulkan backends
//! plug in. `auto` follows the same rule as an in-process context
//! ([`tessera_engine::auto`]): a hardware Vulkan device, else a hardware GLES driver, else
//! the faster software driver (GLES on llvmpipe), logged with the reason.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tessera_engine::wire::null::NullBackend;
use tessera_engine::wire::transport::afr::AfrBackend;
use tessera_engine::wire::transport::devices::{self, Probe, Topology};
use tessera_engine::wire::transport::placement::{Placer, Policy};
use tessera_engine::wire::transport::secret::Secret;
use tessera_engine::wire::transport::server::{
    Isolation, ServerConfig, serve, shared_process_driver_env,
};
use tessera_engine::wire::transport::worker::{WORKER_FLAG, serve_worker};
use tessera_engine::wire::transport::{
    BackendRequest, ServerBackend, SessionDevice, default_socket_path,
};

/// The server's devices: the topology file's when one is given, else the Vulkan physical
/// devices and the native EGL devices this machine has. The one discovery call of the
/// server; the tests' synthetic machines come through it too.
fn discover(topology: Option<&std::path::Path>) -> Result<Topology, String> {
    let vulkan: &Probe = &tessera_backend_vk::discover::devices;
    let gles: &Probe = &tessera_backend_gles::discover::devices;
    devices::discover(topology, &[vulkan, gles])
}

/// The backends this server can make, by the name a client's Hello gives; a session placed
/// on two devices gets one on each, frames alternating between them ([`AfrBackend`]).
fn make_backend(request: &BackendRequest) -> Result<ServerBackend, String> {
    let Some((first, second)) = request
        .device
        .as_ref()
        .and_then(|d| Some((d, d.alternate.as_deref()?)))
    else {
        return make_one(request);
    };
    let on = |device: &SessionDevice| BackendRequest {
        device: Some(SessionDevice {
            alternate: None,
            ..device.clone()
        }),
        ..request.clone()
    };
    let (first, second) = (on(first), on(second));
    let names =
        [&first, &second].map(|r| r.device.as_ref().map_or_else(String::new, |d| d.describe()));
    let a = make_one(&first)?;
    let b = make_one(&second)?;
    Ok(ServerBackend {
        backend: Box::new(AfrBackend::new(a.backend, b.backend, names)),
        probe: None,
    })
}

/// One backend on one device.
fn make_one(request: &BackendRequest) -> Result<ServerBackend, String> {
    match request.name.as_str() {
        "null" => {
            let (backend, probe) = NullBackend::new(request.capture);
            Ok(ServerBackend {
                backend: Box::new(backend),
                probe: Some(probe),
            })
        }
        "gles" => {
            let backend = tessera_backend_gles::GlesBackend::new().map_err(|e| e.to_string())?;
            Ok(ServerBackend {
                backend: Box::new(backend),
                probe: None,
            })
        }
        "vulkan" => {
            // A discovered device by its UUID; a synthetic one runs on the default device
            // (lavapipe where it is the only one).
            let mut options = tessera_backend_vk::VkOptions::from_env();
            if let Some(device) = request.device.as_ref().filter(|d| !d.synthetic) {
                options.device = Some(devices::uuid_text(&device.uuid));
            }
            let backend = tessera_backend_vk::VulkanBackend::with_options(&options)
                .map_err(|e| e.to_string())?;
            Ok(ServerBackend {
                backend: Box::new(backend),
                probe: None,
            })
        }
        // The engine's rule (`tessera_engine::auto`): hardware Vulkan, else hardware GLES,
        // else the faster software driver (GLES on llvmpipe); logged with its reason.
        "auto" => {
            let backend = tessera_engine::auto::backend().map_err(|e| e.to_string())?;
            Ok(ServerBackend {
                backend,
                probe: None,
            })
        }
        other => Err(format!(
            "this server has no backend named {other:?} (it has: null, gles, vulkan, auto)"
        )),
    }
}

/// Logs to stderr, one line per record.
/// Logs each record as one line on stderr.
///
/// A line goes out in a single `write`: the server and its workers share one stderr, and
/// Rust's unbuffered stderr writes a formatted line piece by piece (a `write` per argument),
/// so concurrent processes would splice their pieces into each other's lines — two sessions
/// ending at once in two workers could read as one line, the other's end seemingly lost.
/// One `write` of a line is never split by another process's (a pipe takes up to
/// `PIPE_BUF` bytes atomically; a regular file's shared offset is taken under a lock).
struct StderrLog(log::LevelFilter);

impl log::Log for StderrLog {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= self.0
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            let line = format!(
                "tessera-server[{}]: {}: {}\n",
                std::process::id(),
                record.level(),
                record.args()
            );
            let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), line.as_bytes());
        }
    }

    fn flush(&self) {}
}

fn usage() -> ! {
    eprintln!(
        "usage: tessera-server [--unix PATH] [--tcp HOST:PORT --secret FILE] [--allow-capture]\n{:22}\
         [--isolation process|pool|threads] [--sessions-per-worker N]\n{:22}\
         [--worker-memory MIB] [--max-sessions N] [--max-sessions-per-user N]\n{:22}\
         [--handshake-timeout SECS] [--max-connections N] [--max-unauthenticated N]\n{:22}\
         [--placement pinned|least-loaded|round-robin|prefer-discrete|affinity]\n{:22}\
         [--topology FILE] [--pin-allowed any|none|owner|uid:N,group:NAME,...]\n       \
         tessera-server status [--unix PATH]\n       \
         tessera-server lose N [--unix PATH]\n       \
         tessera-server --fd N",
        "", "", "", "", ""
    );
    std::process::exit(2)
}

/// A positive count, or the usage.
fn count(arg: String) -> usize {
    arg.parse()
        .ok()
        .filter(|n| *n > 0)
        .unwrap_or_else(|| usage())
}

fn main() {
    let level = match std::env::var("TESSERA_LOG").as_deref() {
        Ok("error") => log::LevelFilter::Error,
        Ok("warn") => log::LevelFilter::Warn,
        Ok("debug") | Ok("trace") => log::LevelFilter::Debug,
        _ => log::LevelFilter::Info,
    };
    let _ = log::set_boxed_logger(Box::new(StderrLog(level)));
    log::set_max_level(level);

    let mut config = ServerConfig::default();
    let mut sessions_per_worker = None;
    let mut isolation_given = false;
    let mut policy = None;
    let mut topology = None;
    let mut args = std::env::args().skip(1).peekable();
    let verb = match args.peek().map(String::as_str) {
        Some("status") => Some("status".to_owned()),
        Some("lose") => {
            args.next();
            Some(format!(
                "lose:{}",
                args.peek().cloned().unwrap_or_else(|| usage())
            ))
        }
        _ => None,
    };
    if let Some(verb) = verb {
        args.next();
        let socket = match (args.next().as_deref(), args.next()) {
            (None, _) => default_socket_path(),
            (Some("--unix"), Some(path)) => PathBuf::from(path),
            _ => usage(),
        };
        match tessera_engine::wire::transport::control(&socket, &verb) {
            Ok(report) => print!("{report}"),
            Err(e) => {
                eprintln!("tessera-server status: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--placement" => policy = Some(Policy::parse(&value()).unwrap_or_else(|| usage())),
            "--topology" => topology = Some(PathBuf::from(value())),
            "--pin-allowed" => match value().parse() {
                Ok(pins) => config.pin_allowed = pins,
                Err(e) => {
                    eprintln!("tessera-server: --pin-allowed: {e}");
                    std::process::exit(1);
                }
            },
            "--unix" => config.unix = Some(PathBuf::from(value())),
            "--tcp" => config.tcp = Some(value()),
            "--secret" => match Secret::load(&PathBuf::from(value())) {
                Ok(secret) => config.secret = Some(secret),
                Err(e) => {
                    eprintln!("tessera-server: {e}");
                    std::process::exit(1);
                }
            },
            "--fd" => config.fd = Some(value().parse().unwrap_or_else(|_| usage())),
            "--allow-capture" => config.allow_capture = true,
            "--handshake-timeout" => {
                config.handshake_timeout = value()
                    .parse::<f64>()
                    .ok()
                    .and_then(|s| Duration::try_from_secs_f64(s).ok())
                    .filter(|d| !d.is_zero())
                    .unwrap_or_else(|| usage())
            }
            "--max-connections" => config.max_connections = count(value()),
            "--max-unauthenticated" => config.max_unauthenticated = count(value()),
            "--max-sessions" => config.max_sessions = Some(count(value())),
            "--max-sessions-per-user" => config.max_sessions_per_user = Some(count(value())),
            "--isolation" => {
                config.isolation = Isolation::parse(&value()).unwrap_or_else(|| usage());
                isolation_given = true;
            }
            "--sessions-per-worker" => sessions_per_worker = Some(count(value())),
            "--warm-backend" => config.warm_backend = value(),
            "--worker-memory" => {
                config.worker_memory = value()
                    .parse::<u64>()
                    .ok()
                    .and_then(|mib| mib.checked_mul(1 << 20))
                    .unwrap_or_else(|| usage())
            }
            WORKER_FLAG => {
                // A worker: serves the sessions its server hands it, then exits.
                let fd = value().parse().unwrap_or_else(|_| usage());
                if let Err(e) = serve_worker(fd, Arc::new(make_backend)) {
                    eprintln!("tessera-server: worker: {e}");
                    std::process::exit(1);
                }
                return;
            }
            _ => usage(),
        }
    }
    if let Some(n) = sessions_per_worker {
        match config.isolation {
            Isolation::Pool(_) => config.isolation = Isolation::Pool(n),
            _ => usage(),
        }
    }
    if config.unix.is_none() && config.tcp.is_none() && config.fd.is_none() {
        config.unix = Some(default_socket_path());
    }
    if policy.is_some() || topology.is_some() {
        match discover(topology.as_deref()) {
            Ok(found) => {
                config.placement = Some(Placer::new(found, policy.unwrap_or(Policy::LeastLoaded)));
            }
            Err(e) => {
                eprintln!("tessera-server: {e}");
                std::process::exit(1);
            }
        }
    }
    // TESSERA_PUFFIN=ADDR: serve the sessions' profiles (a frame per applied batch). The
    // profiler sees the sessions of this process only, so profiling keeps them here unless
    // an isolation was asked for.
    if std::env::var_os("TESSERA_PUFFIN").is_some() && config.isolation != Isolation::Threads {
        if isolation_given {
            log::warn!(
                "TESSERA_PUFFIN: sessions run in worker processes, which it does not profile"
            );
        } else {
            log::info!("TESSERA_PUFFIN: sessions run on threads of this process, to be profiled");
            config.isolation = Isolation::Threads;
        }
    }
    if config.isolation == Isolation::Threads {
        set_shared_process_driver_env();
    }
    if let Some(Err(e)) = tessera_engine::profiling::serve_from_env() {
        eprintln!("tessera-server: TESSERA_PUFFIN: {e}");
    }
    if let Err(e) = serve(config, Arc::new(make_backend)) {
        eprintln!("tessera-server: {e}");
        std::process::exit(1);
    }
}

/// Gives the native drivers of a threads-mode server the settings for many sessions in one
/// process ([`tessera_engine::wire::transport::server::SHARED_PROCESS_DRIVER_ENV`]), where the environment does not set them.
#[expect(
    unsafe_code,
    reason = "std::env::set_var before the server starts any thread or driver"
)]
fn set_shared_process_driver_env() {
    for (name, value) in shared_process_driver_env() {
        // SAFETY: called from `main` before the profiler, the accept loop or any backend
        // starts: no other thread exists to read the environment meanwhile.
        unsafe { std::env::set_var(name, value) };
    }
}

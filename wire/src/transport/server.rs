//! The server: listeners, admission, where sessions run, clean shutdown.
//!
//! This needs `tessera-wire` and a backend only — never the frontend — so a server process is
//! built without it (the `tessera-server` binary of the engine crate is a thin `main` around
//! [`serve`]). Backends are made by name through a [`BackendFactory`], the seam where the
//! GLES and Vulkan backends plug in.
//!
//! - **unix socket**: created mode 0660; every connection is admitted by the credentials the
//!   kernel recorded (`SO_PEERCRED`, `SO_PEERGROUPS`, see `peer.rs`), refusals logged with
//!   the peer's pid, uid and gid. Offers the `shm` data plane.
//! - **TCP** (optional): requires a shared secret (`secret.rs`); a server configured for TCP
//!   without one refuses to start. Stream data plane only.
//! - **inherited socket** (`--fd N`, what `fork` uses): one session, then the server exits.
//!
//! **Admission limits** (all in [`ServerConfig`]; flags of `tessera-server`):
//! - at most [`DEFAULT_MAX_CONNECTIONS`] (256) connections at once, sessions and handshakes
//!   together (`--max-connections N`);
//! - at most [`DEFAULT_MAX_UNAUTHENTICATED`] (32) of them still in the handshake
//!   (`--max-unauthenticated N`): not yet past the Hello and, over TCP, the secret's
//!   challenge. A connection over either cap is refused at once — a `Refuse` frame with the
//!   reason, then closed — and the refusal logged; the others are not disturbed;
//! - a connection that has not completed its side of the handshake within
//!   [`DEFAULT_HANDSHAKE_TIMEOUT`] (5 s; `--handshake-timeout SECS`) is closed, logged.
//!   The clock stops once the client has said Hello (and proved the secret over TCP); making
//!   its backend is the server's time, not the client's.
//!
//! Inside a session, growth stays bounded by the wire's own limits, unchanged by the caps
//! above: frame lengths are checked before their payload is read (`frame::MAX_HANDSHAKE_FRAME`
//! during the handshake and for control frames, `frame::MAX_MESSAGE` for batches), and a
//! create may skip at most [`crate::table::MAX_SLOT_SKIP`] slots past a table's end, so a
//! client cannot make the server grow a table far beyond what it uses. Those limits bound
//! one session; the caps above bound how many there are.
//!
//! **Session caps** (optional): at most `--max-sessions N` sessions at once, and at most
//! `--max-sessions-per-user N` of one user (the uid `SO_PEERCRED` gives; every TCP peer
//! counts as one user, "remote"). They count connections admitted past the credential check,
//! in their handshake or served, and are checked at `accept`: a session over one is refused
//! with the reason in a `Refuse` frame (the client's context creation fails with it) and a
//! log line. `--max-connections` stays the server's own guard, counted before anything is
//! known of the peer.
//!
//! **Isolation** ([`Isolation`], `--isolation`): where sessions run.
//! - `process` (the default): each session in a worker process of its own, started by
//!   `exec` of this binary (`worker.rs`); a native driver's fault ends only that session.
//! - `pool`: up to N sessions per worker process (`--sessions-per-worker`, default 4); a
//!   fault ends the sessions of that worker.
//! - `threads`: every session on a thread of this process (`registry.rs`): no process per
//!   session, but a driver fault (SIGSEGV on a session thread) ends every session.
//!
//! In the worker modes this process never makes a backend: it holds each accepted
//! connection until its client speaks (a silent connection costs no process; it is closed
//! here at its deadline), then hands the socket to a worker, keeping no copy. It learns from
//! each worker when a session authenticated and when it ended, and reaps a worker that died,
//! logging each session it held and the signal or status that ended it.
//!
//! Sessions share nothing but their process: each has its own backend and thread, and a
//! session that breaks the protocol (or whose backend panics) ends alone. SIGTERM or SIGINT
//! stop accepting, shut every session's socket down (each session logs, drops its backend
//! and ends; workers are told by the close of their control socket, and killed if they are
//! not gone within 5 s), join them, remove the socket file, and return.

use std::io;
use std::net::TcpListener;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rkyv::util::AlignedVec;

use super::frame::{self, FRAME_HEADER, FrameKind, MAX_HANDSHAKE_FRAME};
use super::handshake::{self, Hello};
use super::peer::{self, ServerIdentity};
use super::placement::{Placer, Request};
use super::registry::{Load, Notify, Placement, Registry, Service, SessionNote};
use super::secret::Secret;
use super::session::{BackendFactory, SessionDevice, SessionPolicy};
use super::sys;
use super::worker::Workers;

/// How long a connection may take to complete its side of the handshake, by default.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);
/// Connections served at once (sessions and handshakes together), by default.
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;
/// Connections still in the handshake at once, by default.
pub const DEFAULT_MAX_UNAUTHENTICATED: usize = 32;
/// Sessions one `pool` worker serves at once, by default.
pub const DEFAULT_SESSIONS_PER_WORKER: usize = 4;
/// A worker's data segment limit (`RLIMIT_DATA`), by default: 4 GiB, roomy for a session
/// (an idle GLES session on llvmpipe uses tens of MiB of data) and far below what takes a
/// machine down.
pub const DEFAULT_WORKER_MEMORY: u64 = 4 << 30;

/// Where sessions run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// Each session in a worker process of its own (the `tessera-server` default).
    Process,
    /// Up to this many sessions per worker process.
    Pool(usize),
    /// Every session on a thread of the server process: cheapest, but one native driver
    /// fault ends every session. For hosts that trust their driver. The process should run
    /// with [`SHARED_PROCESS_DRIVER_ENV`] (`tessera-server` sets it).
    Threads,
}

/// Native driver settings for a process that serves several sessions on threads of its own
/// (the server in [`Isolation::Threads`], a worker of [`Isolation::Pool`] with room for more
/// than one session); [`shared_process_driver_env`] gives those the environment leaves unset.
///
/// `LP_NUM_THREADS=0`: Mesa's llvmpipe and lavapipe rasterize on the thread that flushes
/// instead of on rasterizer threads of their own, a set per context, i.e. per session: the
/// sessions' threads already keep every CPU busy. With rasterizer threads of its own, a
/// context bins frames ahead of them and keeps each scene it allocates meanwhile (up to 64,
/// with their bins and data blocks) for the rest of its life, so how much memory a session
/// held depended on how the threads happened to be scheduled. With 32 Vulkan sessions of
/// the benchmark's `statechange` scene on one threads-mode server (2 CPUs), ten rounds held
/// 546-613 MiB of anonymous memory with every session live and drew 24-56 frames per
/// second in all; with the setting, 429-467 MiB and 57-66 frames per second, for less CPU.
pub const SHARED_PROCESS_DRIVER_ENV: &[(&str, &str)] = &[("LP_NUM_THREADS", "0")];

/// The settings of [`SHARED_PROCESS_DRIVER_ENV`] that the environment does not set already:
/// what a process that serves several sessions on threads gets before its first backend.
pub fn shared_process_driver_env() -> impl Iterator<Item = (&'static str, &'static str)> {
    SHARED_PROCESS_DRIVER_ENV
        .iter()
        .copied()
        .filter(|(name, _)| std::env::var_os(name).is_none())
}

impl Isolation {
    /// Parses `process`, `pool` (with [`DEFAULT_SESSIONS_PER_WORKER`]), `pool:N` or
    /// `threads`.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "process" => Some(Self::Process),
            "pool" => Some(Self::Pool(DEFAULT_SESSIONS_PER_WORKER)),
            "threads" => Some(Self::Threads),
            _ => value
                .strip_prefix("pool:")
                .and_then(|n| n.parse().ok())
                .filter(|n| *n > 0)
                .map(Self::Pool),
        }
    }
}

/// How to run a server.
#[derive(Debug)]
pub struct ServerConfig {
    /// The unix socket to listen on.
    pub unix: Option<PathBuf>,
    /// The TCP address to listen on (`HOST:PORT`; port 0 picks one, printed at start).
    pub tcp: Option<String>,
    /// The shared secret TCP clients must prove.
    pub secret: Option<Secret>,
    /// Serve exactly one session on this inherited, connected socket, then return.
    pub fd: Option<RawFd>,
    /// Let sessions capture batches for the probe (debug servers, tests).
    pub allow_capture: bool,
    /// A listener's connection that has not completed its side of the handshake (Hello, and
    /// over TCP the secret's proof) within this is closed.
    pub handshake_timeout: Duration,
    /// Connections (sessions and handshakes) served at once; more are refused at once.
    pub max_connections: usize,
    /// Connections still in the handshake at once; more are refused at once.
    pub max_unauthenticated: usize,
    /// Sessions at once (in their handshake or served); more are refused with the reason.
    pub max_sessions: Option<usize>,
    /// Sessions of one user at once (its uid, from `SO_PEERCRED`; every TCP peer counts as
    /// one user, "remote"); more are refused with the reason.
    pub max_sessions_per_user: Option<usize>,
    /// Where sessions run.
    pub isolation: Isolation,
    /// The data segment limit of each worker process (`RLIMIT_DATA`, bytes; 0: none).
    pub worker_memory: u64,
    /// The backend a waiting worker makes and drops before its first session, so the
    /// driver is loaded when a session arrives (empty: none).
    pub warm_backend: String,
    /// The devices and the policy sessions are placed by (`placement.rs`; `tessera-server
    /// --placement`, `--topology`); `None`: every session gets its backend's own choice.
    pub placement: Option<Placer>,
    /// Which clients may pin their session to a device (`tessera-server --pin-allowed`;
    /// `peer.rs`); a pin from any other is refused.
    pub pin_allowed: peer::PinAllowed,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            unix: None,
            tcp: None,
            secret: None,
            fd: None,
            allow_capture: false,
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_unauthenticated: DEFAULT_MAX_UNAUTHENTICATED,
            max_sessions: None,
            max_sessions_per_user: None,
            isolation: Isolation::Process,
            worker_memory: DEFAULT_WORKER_MEMORY,
            warm_backend: String::new(),
            placement: None,
            pin_allowed: peer::PinAllowed::Any,
        }
    }
}

/// Why a server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Nothing to listen on.
    #[error("nothing to serve: give a unix socket, a TCP address or an inherited socket")]
    NoListener,
    /// TCP without a secret.
    #[error("TCP needs a shared secret file (--secret FILE, mode 0600)")]
    TcpWithoutSecret,
    /// The socket path is taken by a live server.
    #[error("{0} is in use by a running server")]
    InUse(String),
    /// A system call failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// Why.
        source: io::Error,
    },
}

fn io_err(what: impl Into<String>) -> impl FnOnce(io::Error) -> ServeError {
    let what = what.into();
    move |source| ServeError::Io { what, source }
}

/// Where the accept loop puts its sessions. A connection is handed on once its client has
/// spoken (so a silent connection never costs a process or a thread, and its Hello can be
/// read for placement); until then it waits here.
struct Sessions {
    mode: Mode,
    waiting: Vec<Placement>,
    /// The devices and their loads (`None`: sessions are not placed).
    placer: Option<Arc<Mutex<Placer>>>,
    /// Which clients may pin a device, for the refusal's message.
    pin_allowed: peer::PinAllowed,
}

/// Where sessions run.
enum Mode {
    /// On threads of this process.
    Threads {
        registry: Arc<Registry>,
        service: Arc<Service>,
    },
    /// In worker processes.
    Workers(Workers),
}

/// Locks the placer, whatever a panicking holder left (its counts stay consistent: each
/// change is one step).
fn lock(placer: &Mutex<Placer>) -> std::sync::MutexGuard<'_, Placer> {
    placer.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the accept loop does with a connection whose client spoke.
enum Settled {
    /// Hand it on.
    Serve(Placement),
    /// Answered or refused here.
    Done,
}

/// The Hello waiting on `sock`, read without taking it (the session reads it again). `None`
/// when what waits is not a whole Hello this build understands: the session then refuses it
/// with the reason.
fn peek_hello(sock: BorrowedFd<'_>) -> Option<Hello> {
    let mut buf = vec![0u8; FRAME_HEADER + MAX_HANDSHAKE_FRAME as usize];
    let n = sys::peek_now(sock, &mut buf).ok()??;
    let head = buf.first_chunk::<FRAME_HEADER>()?;
    let (kind, len) = frame::parse_header(head, MAX_HANDSHAKE_FRAME).ok()?;
    if kind != FrameKind::Hello || n < FRAME_HEADER + len {
        return None;
    }
    let mut payload = AlignedVec::<16>::with_capacity(len);
    payload.extend_from_slice(&buf[FRAME_HEADER..FRAME_HEADER + len]);
    let (fp, body) = handshake::split_fingerprinted(&payload).ok()?;
    if fp != crate::FINGERPRINT {
        return None;
    }
    handshake::decode::<Hello>(body).ok()
}

/// Takes the Hello off `sock` (a connection answered here), so closing it with nothing
/// unread never resets a TCP peer before it read the answer.
fn consume_hello(sock: BorrowedFd<'_>) {
    let mut payload = AlignedVec::new();
    let mut fds = Vec::new();
    let _ = frame::recv(sock, MAX_HANDSHAKE_FRAME, &mut payload, &mut fds);
}

impl Sessions {
    fn load(&self, user: Option<u32>) -> Load {
        let load = match &self.mode {
            Mode::Threads { registry, .. } => registry.load(user),
            Mode::Workers(workers) => workers.load(user),
        };
        let waiting = &self.waiting;
        Load {
            connections: load.connections + waiting.len(),
            pending: load.pending + waiting.len(),
            of_user: load.of_user + waiting.iter().filter(|p| p.user == user).count(),
        }
    }

    fn place(&mut self, placed: Placement) {
        self.waiting.push(placed);
    }

    /// Places a connection whose client spoke: answers `status` here, and gives the others
    /// their device (or refuses them with the reason placement gave).
    fn settle(&mut self, mut placed: Placement) -> Settled {
        let Some(hello) = peek_hello(placed.sock.as_fd()) else {
            return Settled::Serve(placed);
        };
        let lose = hello.backend.strip_prefix(LOSE);
        if hello.backend == STATUS || lose.is_some() {
            consume_hello(placed.sock.as_fd());
            let report = match lose {
                Some(device) => self.lose(device),
                None => self.status(),
            };
            let _ = frame::send(
                placed.sock.as_fd(),
                FrameKind::Status,
                &[report.as_bytes()],
                &[],
            );
            log::info!(
                "session {} ({}): {} asked for",
                placed.id,
                placed.peer,
                hello.backend
            );
            sys::shutdown(placed.sock.as_fd());
            return Settled::Done;
        }
        let Some(placer) = &self.placer else {
            return Settled::Serve(placed);
        };
        if hello.backend == "null" {
            return Settled::Serve(placed);
        }
        if let Some(pin) = hello.device.as_deref().filter(|_| !placed.may_pin) {
            // Refused rather than silently placed elsewhere: a client that named a device
            // would otherwise measure, or trust, a device it did not get.
            let reason = format!(
                "this client may not pin a device (TESSERA_DEVICE={pin:?}; the server allows \
                 pins from: {}); connect without a device to get the placement policy's choice",
                self.pin_allowed
            );
            consume_hello(placed.sock.as_fd());
            refuse_now(placed.sock, &placed.peer, &reason);
            return Settled::Done;
        }
        let request = Request {
            session: placed.id,
            backend: &hello.backend,
            pin: hello.device.as_deref(),
            client: &placed.client,
        };
        let mut placer = lock(placer);
        match placer.place(&request) {
            Ok(chosen) => {
                log::info!(
                    "session {} ({}): placed on device {}: {} (policy {})",
                    placed.id,
                    placed.peer,
                    chosen.index,
                    chosen.reason,
                    placer.policy().name()
                );
                placed.device = Some((
                    SessionDevice {
                        index: chosen.index,
                        name: chosen.device.name,
                        uuid: chosen.device.uuid,
                        synthetic: chosen.device.synthetic,
                        alternate: chosen.alternate.map(|(index, d)| {
                            Box::new(SessionDevice {
                                index,
                                name: d.name,
                                uuid: d.uuid,
                                synthetic: d.synthetic,
                                alternate: None,
                            })
                        }),
                    },
                    chosen.backend,
                ));
                Settled::Serve(placed)
            }
            Err(reason) => {
                drop(placer);
                consume_hello(placed.sock.as_fd());
                refuse_now(placed.sock, &placed.peer, &reason);
                Settled::Done
            }
        }
    }

    /// The status report: placement's, or that sessions are not placed.
    fn status(&self) -> String {
        let load = self.load(None);
        let mut out = format!(
            "sessions: {} (in their handshake: {})\n",
            load.connections, load.pending
        );
        match &self.placer {
            Some(placer) => out.push_str(&lock(placer).report()),
            None => out.push_str("placement: off (no --placement or --topology)\n"),
        }
        out
    }

    /// `tessera-server lose N`: loses synthetic device `N` and ends its sessions.
    fn lose(&mut self, device: &str) -> String {
        let Some(placer) = &self.placer else {
            return "error: this server does not place sessions (no --placement or --topology)\n"
                .to_owned();
        };
        let lost = device
            .trim()
            .parse::<usize>()
            .map_err(|_| format!("{device:?} is not a device index"))
            .and_then(|index| lock(placer).lose(index));
        match lost {
            Ok(()) => {
                let ended = self.end_lost();
                format!("lost; sessions ended: {ended:?}\n")
            }
            Err(e) => format!("error: {e}\n"),
        }
    }

    /// Ends the sessions of every device lost since the last call (a scripted event, or
    /// `lose`): each client sees its connection end, as when a server dies, and reports a
    /// context reset. Returns the sessions ended.
    fn end_lost(&mut self) -> Vec<u64> {
        let Some(placer) = &self.placer else {
            return Vec::new();
        };
        let lost = lock(placer).take_lost();
        let mut all = Vec::new();
        for (device, ids) in lost {
            for id in ids {
                log::warn!("session {id}: ended: its device {device} was lost");
                match &mut self.mode {
                    Mode::Threads { registry, .. } => {
                        registry.end(id);
                    }
                    Mode::Workers(workers) => workers.end(id),
                }
                all.push(id);
            }
        }
        all
    }

    fn release(&self, ended: &[u64]) {
        if let Some(placer) = &self.placer {
            let mut placer = lock(placer);
            for id in ended {
                placer.release(*id);
            }
        }
    }

    fn serve(&mut self, placed: Placement) {
        let id = placed.id;
        match &mut self.mode {
            Mode::Threads { registry, service } => {
                let notify: Notify = match &self.placer {
                    Some(placer) => {
                        let (placer, wake) = (placer.clone(), Arc::downgrade(registry));
                        Arc::new(move |id, note| match note {
                            SessionNote::Ended => lock(&placer).release(id),
                            SessionNote::Progress { applied, memory } => {
                                // A loss on frames: the accept loop ends the device's sessions.
                                if lock(&placer).progress(id, applied, memory, Instant::now())
                                    && let Some(registry) = wake.upgrade()
                                {
                                    registry.ring();
                                }
                            }
                            SessionNote::Authenticated => {}
                        })
                    }
                    None => Arc::new(|_, _| {}),
                };
                registry.spawn(placed, service, notify);
            }
            Mode::Workers(workers) => {
                if !workers.place(placed) {
                    self.release(&[id]);
                }
            }
        }
    }

    /// Hands the waiting connections whose client spoke (or hung up: the session logs it)
    /// on, and closes those whose handshake deadline passed; how long until the next
    /// deadline.
    fn hand_over(&mut self, ready: &[bool], timeout: Duration) -> Option<Duration> {
        let now = Instant::now();
        let mut next: Option<Instant> = None;
        let mut index = 0;
        for spoke in ready.iter().copied().chain(std::iter::repeat(false)) {
            if index >= self.waiting.len() {
                break;
            }
            if spoke {
                let placed = self.waiting.remove(index);
                if let Settled::Serve(placed) = self.settle(placed) {
                    self.serve(placed);
                }
            } else if self.waiting[index].deadline <= now {
                let p = self.waiting.remove(index);
                log::warn!(
                    "session {} ({}): closed: no handshake within {timeout:?} \
                     (--handshake-timeout)",
                    p.id,
                    p.peer
                );
            } else {
                let deadline = self.waiting[index].deadline;
                next = Some(next.map_or(deadline, |n| n.min(deadline)));
                index += 1;
            }
        }
        next.map(|n| n.saturating_duration_since(now))
    }
}

/// The backend name a Hello gives to ask for the server's status instead of a session
/// (`tessera-server status`).
pub const STATUS: &str = "status";

/// The backend name prefix a Hello gives to lose a synthetic device instead of starting a
/// session (`lose:N`, `tessera-server lose N`): a rehearsal of device loss on demand.
pub const LOSE: &str = "lose:";

/// How often the accept loop looks for retired workers to reap while there are any.
const REAP_EVERY: Duration = Duration::from_millis(50);

fn workers_reaping(sessions: &Sessions) -> bool {
    matches!(&sessions.mode, Mode::Workers(workers) if workers.reaping())
}

/// The user a connection counts under, as the log names it.
fn user_name(user: Option<u32>) -> String {
    user.map_or_else(
        || "remote (TCP) peers".to_owned(),
        |uid| format!("uid {uid}"),
    )
}

/// Why a new connection cannot be served now, if it cannot: the connection caps, counted
/// before anything is known of the peer.
fn over_cap(load: &Load, config: &ServerConfig) -> Option<String> {
    if load.connections >= config.max_connections {
        Some(format!(
            "server busy: {} connections already (the limit, --max-connections)",
            load.connections
        ))
    } else if load.pending >= config.max_unauthenticated {
        Some(format!(
            "server busy: {} connections already in their handshake (the limit, \
             --max-unauthenticated)",
            load.pending
        ))
    } else {
        None
    }
}

/// Why a session of `user` cannot start now, if it cannot: the session caps.
fn over_session_cap(load: &Load, user: Option<u32>, config: &ServerConfig) -> Option<String> {
    if let Some(max) = config.max_sessions
        && load.connections >= max
    {
        return Some(format!(
            "session limit reached: {} sessions already (the limit, --max-sessions {max})",
            load.connections
        ));
    }
    if let Some(max) = config.max_sessions_per_user
        && load.of_user >= max
    {
        return Some(format!(
            "session limit reached for {}: {} sessions already (the limit, \
             --max-sessions-per-user {max})",
            user_name(user),
            load.of_user
        ));
    }
    None
}

/// Refuses a connection at once: the reason in a `Refuse` frame if the socket takes it now
/// (never blocking on a peer that does not read), then closed.
fn refuse_now(sock: OwnedFd, peer: &str, reason: &str) {
    log::warn!("refused {peer}: {reason}");
    let head = frame::header(FrameKind::Refuse, reason.len());
    let _ = sys::send_some(sock.as_fd(), &[&head, reason.as_bytes()], 0, &[], true);
    sys::shutdown(sock.as_fd());
}

/// Runs a server until SIGTERM/SIGINT (or, with `fd`, until its one session ends). Prints
/// `tessera-server: listening on unix:PATH` / `tcp://ADDR` lines on stdout once listening.
///
/// With `Process` or `Pool` isolation the sessions run in worker processes started from this
/// process's own binary with [`super::worker::WORKER_FLAG`]: that binary must pass the flag
/// to [`super::worker::serve_worker`] (as `tessera-server` does).
pub fn serve(mut config: ServerConfig, factory: Arc<BackendFactory>) -> Result<(), ServeError> {
    let term = sys::termination_pipe().map_err(io_err("installing the SIGTERM handler"))?;
    if let Some(fd) = config.fd {
        return serve_inherited(fd, &config, factory, term);
    }
    if config.tcp.is_some() && config.secret.is_none() {
        return Err(ServeError::TcpWithoutSecret);
    }
    if config.unix.is_none() && config.tcp.is_none() {
        return Err(ServeError::NoListener);
    }
    let unix = match &config.unix {
        Some(path) => Some(bind_unix(path)?),
        None => None,
    };
    let tcp = match &config.tcp {
        Some(addr) => {
            let l = TcpListener::bind(addr).map_err(io_err(format!("binding tcp://{addr}")))?;
            let local = l.local_addr().map_err(io_err("tcp address"))?;
            println!("tessera-server: listening on tcp://{local}");
            Some(l)
        }
        None => None,
    };
    if let Some(path) = &config.unix {
        println!("tessera-server: listening on unix:{}", path.display());
    }
    let _ = io::Write::flush(&mut io::stdout());

    if config.isolation == Isolation::Threads {
        super::registry::limit_heaps();
    }
    let mode = match config.isolation {
        Isolation::Threads => Mode::Threads {
            registry: Arc::default(),
            service: Arc::new(Service {
                secret: config.secret.clone(),
                allow_capture: config.allow_capture,
                factory,
            }),
        },
        Isolation::Process | Isolation::Pool(_) => {
            let (per_worker, single_use) = match config.isolation {
                Isolation::Pool(n) => (n, false),
                _ => (1, true),
            };
            Mode::Workers(Workers::new(
                per_worker,
                single_use,
                config.worker_memory,
                config.handshake_timeout,
                config.allow_capture,
                config.secret.as_ref(),
                &config.warm_backend,
            ))
        }
    };
    let placer = config.placement.take().map(|placer| {
        log::info!(
            "placement: policy {}; {} device(s):\n{}",
            placer.policy().name(),
            placer.devices().len(),
            placer.devices_text()
        );
        Arc::new(Mutex::new(placer))
    });
    let mut sessions = Sessions {
        mode,
        waiting: Vec::new(),
        placer,
        pin_allowed: config.pin_allowed.clone(),
    };
    log::info!(
        "sessions run {}",
        match config.isolation {
            Isolation::Process => "each in a worker process of its own".to_owned(),
            Isolation::Pool(n) => format!("in worker processes of up to {n} sessions each"),
            Isolation::Threads => "on threads of this process".to_owned(),
        }
    );
    let identity = ServerIdentity::current();
    let mut next_id = 1u64;
    loop {
        let mut fds = vec![term.as_raw_fd()];
        let unix_at = unix.as_ref().map(|l| {
            fds.push(l.as_raw_fd());
            fds.len() - 1
        });
        let tcp_at = tcp.as_ref().map(|l| {
            fds.push(l.as_raw_fd());
            fds.len() - 1
        });
        let workers_at = fds.len();
        // Expires the waiting connections first, so the ones polled are the ones kept.
        let deadline = sessions.hand_over(&[], config.handshake_timeout);
        let reaping = workers_reaping(&sessions);
        let wait = match &mut sessions.mode {
            Mode::Threads { registry, .. } => {
                registry.reap_finished();
                fds.extend(registry.doorbell().map(|fd| fd.as_raw_fd()));
                let expiry = registry.expire_handshakes(config.handshake_timeout);
                match (expiry, deadline) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                }
            }
            Mode::Workers(workers) => {
                workers.reap_retired();
                fds.extend(workers.poll_fds());
                if reaping {
                    Some(deadline.map_or(REAP_EVERY, |d| d.min(REAP_EVERY)))
                } else {
                    deadline
                }
            }
        };
        let wait = match sessions.placer.as_ref().and_then(|p| lock(p).next_event()) {
            Some(event) => Some(wait.map_or(event, |w| w.min(event))),
            None => wait,
        };
        let waiting_at = fds.len();
        fds.extend(sessions.waiting.iter().map(|p| p.sock.as_raw_fd()));
        let ready = sys::poll_many(&fds, wait).map_err(io_err("poll"))?;
        if ready[0] {
            break;
        }
        if let Mode::Workers(workers) = &mut sessions.mode {
            let heard = workers.serve_ready(&ready[workers_at..waiting_at]);
            sessions.release(&heard.ended);
            if let Some(placer) = &sessions.placer
                && !heard.progress.is_empty()
            {
                let now = Instant::now();
                let mut placer = lock(placer);
                for (id, applied, memory) in heard.progress {
                    // A loss on frames is handled below (`end_lost`).
                    placer.progress(id, applied, memory, now);
                }
            }
        }
        sessions.hand_over(&ready[waiting_at..], config.handshake_timeout);
        sessions.end_lost();
        if let (Some(l), Some(at)) = (&unix, unix_at)
            && ready[at]
        {
            match l.accept() {
                Ok((stream, _)) => {
                    let sock = OwnedFd::from(stream);
                    let cred = sys::peer_cred(sock.as_fd()).ok();
                    let peer = match cred {
                        Some(c) => format!("a unix peer (pid {} uid {})", c.pid, c.uid),
                        None => "a unix peer".to_owned(),
                    };
                    let user = cred.map(|c| c.uid);
                    let load = sessions.load(user);
                    if let Some(reason) = over_cap(&load, &config) {
                        refuse_now(sock, &peer, &reason);
                        continue;
                    }
                    match admit_unix(sock.as_fd(), identity, &config.pin_allowed) {
                        Ok((peer, may_pin)) => {
                            if let Some(reason) = over_session_cap(&load, user, &config) {
                                refuse_now(sock, &peer, &reason);
                                continue;
                            }
                            sessions.place(Placement {
                                id: next_id,
                                sock,
                                peer,
                                user,
                                unix: true,
                                deadline: Instant::now() + config.handshake_timeout,
                                client: cred.map_or_else(String::new, |c| format!("pid {}", c.pid)),
                                device: None,
                                may_pin,
                            });
                            next_id += 1;
                        }
                        Err(reason) => {
                            log::warn!("refused a unix peer: {reason}");
                            handshake::refuse(sock.as_fd(), &reason);
                        }
                    }
                }
                Err(e) => log::warn!("accept on the unix socket: {e}"),
            }
        }
        if let (Some(l), Some(at)) = (&tcp, tcp_at)
            && ready[at]
        {
            match l.accept() {
                Ok((stream, addr)) => {
                    let peer = format!("tcp peer {addr}");
                    let load = sessions.load(None);
                    if let Some(reason) =
                        over_cap(&load, &config).or_else(|| over_session_cap(&load, None, &config))
                    {
                        refuse_now(OwnedFd::from(stream), &peer, &reason);
                        continue;
                    }
                    let _ = stream.set_nodelay(true);
                    sessions.place(Placement {
                        id: next_id,
                        sock: OwnedFd::from(stream),
                        peer,
                        user: None,
                        unix: false,
                        deadline: Instant::now() + config.handshake_timeout,
                        client: addr.ip().to_string(),
                        device: None,
                        may_pin: config.pin_allowed == peer::PinAllowed::Any,
                    });
                    next_id += 1;
                }
                Err(e) => log::warn!("accept on the TCP socket: {e}"),
            }
        }
    }
    log::info!("shutting down: ending every session");
    match &mut sessions.mode {
        Mode::Threads { registry, .. } => registry.shut_down(),
        Mode::Workers(workers) => workers.shut_down(Duration::from_secs(5)),
    }
    if let Some(path) = &config.unix {
        let _ = std::fs::remove_file(path);
    }
    log::info!("stopped");
    Ok(())
}

/// Binds the unix socket, replacing a stale socket file (one nobody answers on), and makes
/// it mode 0660.
fn bind_unix(path: &PathBuf) -> Result<UnixListener, ServeError> {
    if path.exists() {
        if std::os::unix::net::UnixStream::connect(path).is_ok() {
            return Err(ServeError::InUse(path.display().to_string()));
        }
        std::fs::remove_file(path)
            .map_err(io_err(format!("removing the stale {}", path.display())))?;
    }
    let listener =
        UnixListener::bind(path).map_err(io_err(format!("binding unix:{}", path.display())))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o660))
        .map_err(io_err(format!("chmod 0660 {}", path.display())))?;
    Ok(listener)
}

/// Checks a unix peer's credentials; describes it for the log, and says whether it may pin
/// a device.
fn admit_unix(
    sock: BorrowedFd<'_>,
    identity: ServerIdentity,
    pins: &peer::PinAllowed,
) -> Result<(String, bool), String> {
    let cred = sys::peer_cred(sock).map_err(|e| format!("SO_PEERCRED: {e}"))?;
    let groups = peer::peer_groups(sock, cred.pid);
    peer::admit(cred, &groups, identity).map_err(|e| e.to_string())?;
    let may_pin = pins.allows(cred, &groups, identity);
    Ok((format!("pid {} uid {}", cred.pid, cred.uid), may_pin))
}

/// `--fd N`: one session on an inherited socket; SIGTERM shuts it down.
fn serve_inherited(
    fd: RawFd,
    config: &ServerConfig,
    factory: Arc<BackendFactory>,
    term: OwnedFd,
) -> Result<(), ServeError> {
    // SAFETY: the caller (our own `fork` dial) passed this descriptor to us and nothing else
    // in this process owns it; a wrong number fails below as a socket error.
    let sock = unsafe { OwnedFd::from_raw_fd(fd) };
    // Keep the descriptor from leaking into anything this process spawns.
    // SAFETY: fcntl on a descriptor we own.
    unsafe { libc::fcntl(sock.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
    let dup = sock
        .try_clone()
        .map_err(io_err("duplicating the inherited socket"))?;
    let watcher = std::thread::Builder::new()
        .name("tessera-term".to_owned())
        .spawn(move || {
            // A signal ends the session as a hang-up would; the process exits once the
            // session is over, taking this thread with it.
            if sys::wait_readable(term.as_fd()).is_ok() {
                sys::shutdown(dup.as_fd());
            }
        })
        .map_err(io_err("starting the signal watcher"))?;
    let policy = SessionPolicy {
        id: 1,
        peer: "the parent process".to_owned(),
        can_share_memory: true,
        secret: None,
        allow_capture: config.allow_capture,
        factory: &*factory,
        device: None,
    };
    super::session::run(sock, &policy);
    drop(watcher);
    Ok(())
}

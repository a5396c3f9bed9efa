//! The server: listeners, admission, one thread per session, clean shutdown.
//!
//! This needs `tessera-wire` and a backend only — never the frontend — so a server process is
//! built without it (the `tessera-server` binary of the engine crate is a thin `main` around
//! [`serve`]). Backends are made by name through a [`BackendFactory`], the seam where the
//! GLES and Vulkan backends plug in.
//!
//! - **unix socket**: created mode 0660; every connection is admitted by the credentials the
//!   kernel recorded (`SO_PEERCRED`, see `peer.rs`), refusals logged with the peer's pid,
//!   uid and gid. Offers the `shm` data plane.
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
//! Sessions share nothing but the process: each has its own backend and thread, and a
//! session that breaks the protocol (or whose backend panics) ends alone. SIGTERM or SIGINT
//! stop accepting, shut every session's socket down (each session logs, drops its backend
//! and ends), join them, remove the socket file, and return.

use std::collections::HashMap;
use std::io;
use std::net::TcpListener;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::peer::{self, ServerIdentity};
use super::secret::Secret;
use super::session::{Admission, BackendFactory, SessionPolicy};
use super::sys;

/// How long a connection may take to complete its side of the handshake, by default.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);
/// Connections served at once (sessions and handshakes together), by default.
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;
/// Connections still in the handshake at once, by default.
pub const DEFAULT_MAX_UNAUTHENTICATED: usize = 32;

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

/// One connection being served.
struct Entry {
    /// A duplicate of its socket, to shut it down.
    sock: OwnedFd,
    /// Its thread.
    thread: Option<JoinHandle<()>>,
    /// Its handshake clock.
    admission: Arc<Admission>,
    /// When its handshake must be done.
    deadline: Instant,
    /// Who it is, for the log.
    peer: String,
}

/// The connections being served, by session number.
type Sessions = Arc<Mutex<HashMap<u64, Entry>>>;

/// Why a new connection cannot be served now, if it cannot.
fn over_cap(sessions: &Sessions, config: &ServerConfig) -> Option<String> {
    let map = sessions.lock().unwrap_or_else(|e| e.into_inner());
    let pending = map.values().filter(|e| e.admission.is_pending()).count();
    if map.len() >= config.max_connections {
        Some(format!(
            "server busy: {} connections already (the limit, --max-connections)",
            map.len()
        ))
    } else if pending >= config.max_unauthenticated {
        Some(format!(
            "server busy: {pending} connections already in their handshake (the limit, \
             --max-unauthenticated)"
        ))
    } else {
        None
    }
}

/// Refuses a connection at once: the reason in a `Refuse` frame if the socket takes it now
/// (never blocking on a peer that does not read), then closed.
fn refuse_now(sock: OwnedFd, peer: &str, reason: &str) {
    log::warn!("refused {peer}: {reason}");
    let head = super::frame::header(super::frame::FrameKind::Refuse, reason.len());
    let _ = sys::send_some(sock.as_fd(), &[&head, reason.as_bytes()], 0, &[], true);
    sys::shutdown(sock.as_fd());
}

/// Closes every connection whose handshake deadline passed; how long until the next one
/// (`None`: no handshake pending).
fn expire_handshakes(sessions: &Sessions, timeout: Duration) -> Option<Duration> {
    let now = Instant::now();
    let map = sessions.lock().unwrap_or_else(|e| e.into_inner());
    let mut next: Option<Instant> = None;
    for (id, entry) in map.iter() {
        if !entry.admission.is_pending() {
            continue;
        }
        if entry.deadline <= now {
            if entry.admission.expire() {
                log::warn!(
                    "session {id} ({}): closed: no handshake within {:?} (--handshake-timeout)",
                    entry.peer,
                    timeout
                );
                sys::shutdown(entry.sock.as_fd());
            }
        } else {
            next = Some(next.map_or(entry.deadline, |n| n.min(entry.deadline)));
        }
    }
    next.map(|n| n.saturating_duration_since(now))
}

/// Runs a server until SIGTERM/SIGINT (or, with `fd`, until its one session ends). Prints
/// `tessera-server: listening on unix:PATH` / `tcp://ADDR` lines on stdout once listening.
pub fn serve(config: ServerConfig, factory: Arc<BackendFactory>) -> Result<(), ServeError> {
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

    let identity = ServerIdentity::current();
    let sessions: Sessions = Arc::default();
    let config = Arc::new(config);
    let mut next_id = 1u64;
    loop {
        let mut fds = vec![term.as_raw_fd()];
        if let Some(l) = &unix {
            fds.push(l.as_raw_fd());
        }
        if let Some(l) = &tcp {
            fds.push(l.as_raw_fd());
        }
        reap_finished(&sessions);
        let wait = expire_handshakes(&sessions, config.handshake_timeout);
        let ready = poll_many(&mut fds, wait).map_err(io_err("poll"))?;
        if ready[0] {
            break;
        }
        if let Some(l) = &unix
            && ready[1]
        {
            match l.accept() {
                Ok((stream, _)) => {
                    let sock = OwnedFd::from(stream);
                    if let Some(reason) = over_cap(&sessions, &config) {
                        let peer = match sys::peer_cred(sock.as_fd()) {
                            Ok(c) => format!("a unix peer (pid {} uid {})", c.pid, c.uid),
                            Err(_) => "a unix peer".to_owned(),
                        };
                        refuse_now(sock, &peer, &reason);
                        continue;
                    }
                    match admit_unix(sock.as_fd(), identity) {
                        Ok(peer) => {
                            spawn_session(&sessions, next_id, sock, peer, true, &config, &factory);
                            next_id += 1;
                        }
                        Err(reason) => {
                            log::warn!("refused a unix peer: {reason}");
                            super::handshake::refuse(sock.as_fd(), &reason);
                        }
                    }
                }
                Err(e) => log::warn!("accept on the unix socket: {e}"),
            }
        }
        if let Some(l) = &tcp
            && ready[fds.len() - 1]
        {
            match l.accept() {
                Ok((stream, addr)) => {
                    let peer = format!("tcp peer {addr}");
                    if let Some(reason) = over_cap(&sessions, &config) {
                        refuse_now(OwnedFd::from(stream), &peer, &reason);
                        continue;
                    }
                    let _ = stream.set_nodelay(true);
                    spawn_session(
                        &sessions,
                        next_id,
                        OwnedFd::from(stream),
                        peer,
                        false,
                        &config,
                        &factory,
                    );
                    next_id += 1;
                }
                Err(e) => log::warn!("accept on the TCP socket: {e}"),
            }
        }
    }
    log::info!("shutting down: ending every session");
    shut_down(&sessions);
    if let Some(path) = &config.unix {
        let _ = std::fs::remove_file(path);
    }
    log::info!("stopped");
    Ok(())
}

/// Waits until one of `fds` is readable, or `timeout` passed; which ones are.
fn poll_many(fds: &mut [RawFd], timeout: Option<Duration>) -> io::Result<Vec<bool>> {
    // Rounded up, so a deadline is never polled for just before it passes.
    let timeout_ms = timeout.map_or(-1, |t| {
        i32::try_from(t.as_micros().div_ceil(1000)).unwrap_or(i32::MAX)
    });
    let mut pfds: Vec<libc::pollfd> = fds
        .iter()
        .map(|&fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    loop {
        // SAFETY: `pfds` is a valid array of `pfds.len()` pollfd structs.
        let ret = unsafe { libc::poll(pfds.as_mut_ptr(), pfds.len() as libc::nfds_t, timeout_ms) };
        if ret < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        return Ok(pfds.iter().map(|p| p.revents != 0).collect());
    }
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

/// Checks a unix peer's credentials; describes it for the log.
fn admit_unix(sock: BorrowedFd<'_>, identity: ServerIdentity) -> Result<String, String> {
    let cred = sys::peer_cred(sock).map_err(|e| format!("SO_PEERCRED: {e}"))?;
    let groups = peer::supplementary_groups(cred.pid);
    peer::admit(cred, &groups, identity).map_err(|e| e.to_string())?;
    Ok(format!("pid {} uid {}", cred.pid, cred.uid))
}

fn spawn_session(
    sessions: &Sessions,
    id: u64,
    sock: OwnedFd,
    peer: String,
    unix: bool,
    config: &Arc<ServerConfig>,
    factory: &Arc<BackendFactory>,
) {
    let Ok(dup) = sock.try_clone() else {
        log::warn!("session {id}: could not duplicate its socket; dropped");
        return;
    };
    let admission = Arc::new(Admission::default());
    let deadline = Instant::now() + config.handshake_timeout;
    let entry_peer = peer.clone();
    let (config, factory, registry) = (config.clone(), factory.clone(), sessions.clone());
    let clock = admission.clone();
    // Held until the entry is in, so the thread always finds its entry when it ends.
    let mut map = sessions.lock().unwrap_or_else(|e| e.into_inner());
    let spawned = std::thread::Builder::new()
        .name(format!("tessera-session-{id}"))
        .spawn(move || {
            let policy = SessionPolicy {
                id,
                peer,
                can_share_memory: unix,
                secret: if unix { None } else { config.secret.as_ref() },
                allow_capture: config.allow_capture,
                factory: &*factory,
            };
            super::session::run_admitted(sock, &policy, Some(&clock));
            // The registry's duplicate keeps the connection open until the accept loop reaps
            // this thread; shutting it down now lets the client see the end at once.
            if let Some(entry) = registry
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_mut(&id)
            {
                sys::shutdown(entry.sock.as_fd());
            }
        });
    match spawned {
        Ok(handle) => {
            map.insert(
                id,
                Entry {
                    sock: dup,
                    thread: Some(handle),
                    admission,
                    deadline,
                    peer: entry_peer,
                },
            );
        }
        Err(e) => log::warn!("session {id}: could not start its thread: {e}"),
    }
}

/// Joins sessions whose thread finished.
fn reap_finished(sessions: &Sessions) {
    let done: Vec<JoinHandle<()>> = {
        let mut map = sessions.lock().unwrap_or_else(|e| e.into_inner());
        let ids: Vec<u64> = map
            .iter()
            .filter(|(_, e)| e.thread.as_ref().is_some_and(|h| h.is_finished()))
            .map(|(id, _)| *id)
            .collect();
        ids.into_iter()
            .filter_map(|id| map.remove(&id).and_then(|e| e.thread))
            .collect()
    };
    for handle in done {
        let _ = handle.join();
    }
}

/// Shuts every session's socket down (its thread wakes, logs, frees its backend) and joins.
fn shut_down(sessions: &Sessions) {
    let all: Vec<Entry> = sessions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .drain()
        .map(|(_, v)| v)
        .collect();
    for entry in &all {
        sys::shutdown(entry.sock.as_fd());
    }
    for entry in all {
        if let Some(h) = entry.thread {
            let _ = h.join();
        }
    }
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
    };
    super::session::run(sock, &policy);
    drop(watcher);
    Ok(())
}

//! Worker processes: sessions isolated from each other's native driver faults.
//!
//! In `process` and `pool` isolation (see `server.rs`) the server process never makes a
//! backend and never loads a driver. It accepts, checks credentials and caps, and hands each
//! accepted, not yet handshaken socket to a **worker**: the server's own binary, started
//! anew with `exec` (`/proc/self/exe --worker FD`, never a bare `fork()` of a process that
//! may hold driver state), holding one end of a unix `SOCK_SEQPACKET` socketpair. The
//! socket travels over that pair with `SCM_RIGHTS`, so the worker does the whole handshake
//! itself and receives the client's shared segments itself:
//!
//! - the peer-credential check is the server's, made before the hand-over on the credentials
//!   the kernel recorded at `connect` (they belong to the socket, not to the process holding
//!   it); the TCP secret's challenge is the worker's, with the secret sent in its setup;
//! - the handshake deadline is kept by the worker (the server passes what is left of it);
//! - the backend, the segments' mappings and every native object live in the worker only.
//!
//! ```text
//! server                                  worker
//!   Setup(capture, memory limit, secret) ->
//!   Session(id, unix, deadline, peer)+fd ->   runs the session on a thread (registry.rs)
//!                                        <- Authenticated(id)   the handshake is done
//!                                        <- Ended(id)           backend dropped
//!   (closes its end)                     ->   shuts every session down, exits
//! ```
//!
//! A worker that dies (a signal, an abort, out of memory) closes the socketpair; the server
//! sees the hang-up, reaps the worker (`waitpid`), logs each session it held and why it
//! ended, and goes on accepting. The kernel closed the worker's client sockets with it, so
//! each of those clients sees the hang-up at its next wait or submit and reports a context
//! reset (`GL_UNKNOWN_CONTEXT_RESET`), within the frame it was in.
//!
//! A worker's data segment is limited (`RLIMIT_DATA`, `--worker-memory`): a worker that
//! allocates past it fails its allocation and aborts, ending only its sessions.
//! `RLIMIT_AS` cannot serve: LLVM (llvmpipe, lavapipe) reserves address space far beyond
//! what it uses, so a limit on the address space low enough to matter stops the driver from
//! starting. Shared mappings (the client's memfd rings) are not data and do not count.
//!
//! In `process` isolation a worker serves one session in its life and exits after it, and
//! one spare worker is started ahead, so a new session never waits for an `exec`; in `pool`
//! a worker serves up to N sessions at once, and a worker left without sessions exits unless
//! it is the one with room.

use std::collections::HashMap;
use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::registry::{Load, Notify, Placement, Registry, Service, SessionNote};
use super::secret::Secret;
use super::session::{BackendFactory, BackendRequest, SessionDevice};
use super::sys;

/// The flag a worker is started with: `tessera-server --worker FD`. A binary that calls
/// [`super::server::serve`] with worker isolation must call [`serve_worker`] when given it.
pub const WORKER_FLAG: &str = "--worker";

/// The program a worker runs: this very binary.
const SELF_EXE: &str = "/proc/self/exe";

/// The largest control message (a session's peer description is the only long field).
const MAX_CONTROL: usize = 4096;

const SETUP: u8 = 1;
const SESSION: u8 = 2;
const AUTHENTICATED: u8 = 3;
const ENDED: u8 = 4;
/// Server to worker: end a session (its device was lost).
const END: u8 = 5;
/// Worker to server: a session's applied batches so far.
const PROGRESS: u8 = 6;

/// What a worker is told once, before any session.
struct Setup {
    allow_capture: bool,
    /// `RLIMIT_DATA` in bytes (0: none).
    data_limit: u64,
    /// The handshake timeout, for the log line of a connection closed at its deadline.
    handshake_timeout: Duration,
    /// A backend to make and drop before the first session, so the driver's libraries are
    /// loaded and initialised while the worker waits as the spare (empty: none).
    warm: String,
    secret: Option<Vec<u8>>,
}

impl Setup {
    fn encode(&self) -> Vec<u8> {
        let mut out = vec![SETUP, u8::from(self.allow_capture)];
        out.extend_from_slice(&self.data_limit.to_le_bytes());
        out.extend_from_slice(&(self.handshake_timeout.as_micros() as u64).to_le_bytes());
        let warm = &self.warm.as_bytes()[..self.warm.len().min(255)];
        out.push(warm.len() as u8);
        out.extend_from_slice(warm);
        if let Some(secret) = &self.secret {
            out.extend_from_slice(secret);
        }
        out
    }

    fn decode(msg: &[u8]) -> Option<Self> {
        let (&[SETUP, capture], rest) = msg.split_first_chunk::<2>()? else {
            return None;
        };
        let (limit, rest) = rest.split_first_chunk::<8>()?;
        let (timeout, rest) = rest.split_first_chunk::<8>()?;
        let (&[warm_len], rest) = rest.split_first_chunk::<1>()?;
        let (warm, secret) = rest.split_at_checked(usize::from(warm_len))?;
        Some(Self {
            allow_capture: capture != 0,
            data_limit: u64::from_le_bytes(*limit),
            handshake_timeout: Duration::from_micros(u64::from_le_bytes(*timeout)),
            warm: String::from_utf8_lossy(warm).into_owned(),
            secret: (!secret.is_empty()).then(|| secret.to_vec()),
        })
    }
}

/// A session handed to a worker (its socket travels with the message).
fn encode_session(p: &Placement) -> Vec<u8> {
    let mut out = vec![SESSION];
    out.extend_from_slice(&p.id.to_le_bytes());
    out.push(u8::from(p.unix));
    let left = p.deadline.saturating_duration_since(Instant::now());
    out.extend_from_slice(&(left.as_micros() as u64).to_le_bytes());
    match &p.device {
        None => out.push(0),
        Some((device, backend)) => {
            // 2: an alternate-frame session, its second device after the first.
            out.push(if device.alternate.is_some() { 2 } else { 1 });
            encode_device(&mut out, device, backend);
            if let Some(alternate) = &device.alternate {
                encode_device(&mut out, alternate, backend);
            }
        }
    }
    let peer = p.peer.as_bytes();
    out.extend_from_slice(&peer[..peer.len().min(MAX_CONTROL - out.len())]);
    out
}

/// One device of a session handed to a worker.
fn encode_device(out: &mut Vec<u8>, device: &SessionDevice, backend: &str) {
    out.extend_from_slice(&(device.index as u32).to_le_bytes());
    out.extend_from_slice(&device.uuid);
    out.push(u8::from(device.synthetic));
    for text in [backend.as_bytes(), device.name.as_bytes()] {
        let text = &text[..text.len().min(255)];
        out.push(text.len() as u8);
        out.extend_from_slice(text);
    }
}

/// One device of a session handed to a worker, with its backend, and what follows it.
fn decode_device(msg: &[u8]) -> Option<(SessionDevice, String, &[u8])> {
    let (index, rest) = msg.split_first_chunk::<4>()?;
    let (uuid, rest) = rest.split_first_chunk::<16>()?;
    let (&[synthetic], rest) = rest.split_first_chunk::<1>()?;
    let (&[len], rest) = rest.split_first_chunk::<1>()?;
    let (backend, rest) = rest.split_at_checked(usize::from(len))?;
    let (&[len], rest) = rest.split_first_chunk::<1>()?;
    let (name, rest) = rest.split_at_checked(usize::from(len))?;
    Some((
        SessionDevice {
            index: u32::from_le_bytes(*index) as usize,
            name: String::from_utf8_lossy(name).into_owned(),
            uuid: *uuid,
            synthetic: synthetic != 0,
            alternate: None,
        },
        String::from_utf8_lossy(backend).into_owned(),
        rest,
    ))
}

fn decode_session(msg: &[u8], sock: OwnedFd) -> Option<Placement> {
    let (&[SESSION], rest) = msg.split_first_chunk::<1>()? else {
        return None;
    };
    let (id, rest) = rest.split_first_chunk::<8>()?;
    let (&[unix], rest) = rest.split_first_chunk::<1>()?;
    let (left, rest) = rest.split_first_chunk::<8>()?;
    let (&[has_device], mut peer) = rest.split_first_chunk::<1>()?;
    let device = if has_device == 0 {
        None
    } else {
        let (mut device, backend, rest) = decode_device(peer)?;
        peer = rest;
        if has_device == 2 {
            let (alternate, _, rest) = decode_device(peer)?;
            device.alternate = Some(Box::new(alternate));
            peer = rest;
        }
        Some((device, backend))
    };
    Some(Placement {
        id: u64::from_le_bytes(*id),
        sock,
        peer: String::from_utf8_lossy(peer).into_owned(),
        user: None,
        unix: unix != 0,
        deadline: Instant::now() + Duration::from_micros(u64::from_le_bytes(*left)),
        client: String::new(),
        device,
        may_pin: false,
    })
}

fn encode_note(id: u64, note: SessionNote) -> Vec<u8> {
    let mut out = vec![match note {
        SessionNote::Authenticated => AUTHENTICATED,
        SessionNote::Ended => ENDED,
        SessionNote::Progress { .. } => PROGRESS,
    }];
    out.extend_from_slice(&id.to_le_bytes());
    if let SessionNote::Progress { applied, memory } = note {
        out.extend_from_slice(&applied.to_le_bytes());
        out.extend_from_slice(&memory.to_le_bytes());
    }
    out
}

fn decode_note(msg: &[u8]) -> Option<(u64, SessionNote)> {
    let (&[kind], rest) = msg.split_first_chunk::<1>()?;
    let (id, rest) = rest.split_first_chunk::<8>()?;
    let id = u64::from_le_bytes(*id);
    match (kind, rest.len()) {
        (AUTHENTICATED, 0) => Some((id, SessionNote::Authenticated)),
        (ENDED, 0) => Some((id, SessionNote::Ended)),
        (PROGRESS, 16) => {
            let (applied, memory) = rest.split_at(8);
            Some((
                id,
                SessionNote::Progress {
                    applied: u64::from_le_bytes(applied.try_into().ok()?),
                    memory: u64::from_le_bytes(memory.try_into().ok()?),
                },
            ))
        }
        _ => None,
    }
}

/// Runs a worker on the control socket `fd` its server passed (`--worker FD`) until the
/// server closes its end (or SIGTERM/SIGINT): then every session is shut down, and this
/// returns.
pub fn serve_worker(fd: RawFd, factory: Arc<BackendFactory>) -> io::Result<()> {
    // SAFETY: the server passed this descriptor to us and nothing else in this process owns
    // it; a wrong number fails below as a socket error.
    let ctl = unsafe { OwnedFd::from_raw_fd(fd) };
    // Keep the descriptor from leaking into anything this process spawns.
    // SAFETY: fcntl on a descriptor we own.
    unsafe { libc::fcntl(ctl.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
    super::registry::limit_heaps();
    let term = sys::termination_pipe()?;
    let mut buf = vec![0u8; MAX_CONTROL];
    let mut fds = Vec::new();
    let n = sys::recv_with_fds(ctl.as_fd(), &mut buf, &mut fds)?;
    let setup = Setup::decode(&buf[..n])
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "no worker setup"))?;
    if setup.data_limit > 0
        && let Err(e) = sys::limit_data(setup.data_limit)
    {
        log::warn!("worker: could not limit its data segment: {e}");
    }
    if !setup.warm.is_empty() {
        let request = BackendRequest {
            name: setup.warm.clone(),
            capture: false,
            device: None,
        };
        // Loads and initialises the driver (its libraries stay loaded: the GLES backend opens
        // them RTLD_NODELETE, the Vulkan loader keeps its ICD), then frees the objects.
        if let Err(e) = factory(&request) {
            log::debug!("worker: warming the {} backend: {e}", setup.warm);
        }
    }
    let service = Arc::new(Service {
        secret: setup.secret.as_deref().map(Secret::from_bytes),
        allow_capture: setup.allow_capture,
        factory,
    });
    let ctl = Arc::new(ctl);
    let notify: Notify = {
        let ctl = ctl.clone();
        // One message per send on a seqpacket socket: session threads need no lock.
        Arc::new(move |id, note| {
            let _ = sys::send_all(ctl.as_fd(), &[&encode_note(id, note)], &[]);
        })
    };
    let registry = Arc::new(Registry::default());
    loop {
        registry.reap_finished();
        let wait = registry.expire_handshakes(setup.handshake_timeout);
        let mut polled = vec![term.as_raw_fd(), ctl.as_raw_fd()];
        polled.extend(registry.doorbell().map(|fd| fd.as_raw_fd()));
        let ready = sys::poll_many(&polled, wait)?;
        if ready[0] {
            break;
        }
        if !ready[1] {
            continue;
        }
        fds.clear();
        let n = match sys::recv_with_fds(ctl.as_fd(), &mut buf, &mut fds) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if let Some((&END, id)) = buf[..n].split_first()
            && let Ok(id) = <[u8; 8]>::try_from(id)
        {
            registry.end(u64::from_le_bytes(id));
            continue;
        }
        let placed = fds.pop().and_then(|sock| decode_session(&buf[..n], sock));
        match placed {
            Some(placed) => registry.spawn(placed, &service, notify.clone()),
            None => log::warn!("worker: a malformed message from the server; ignored"),
        }
    }
    registry.shut_down();
    Ok(())
}

/// A session as the server keeps it while a worker serves it.
struct Held {
    peer: String,
    user: Option<u32>,
    pending: bool,
}

/// One worker process.
struct Worker {
    child: Child,
    /// The server's end of the socketpair.
    ctl: OwnedFd,
    /// The sessions it serves now.
    held: HashMap<u64, Held>,
    /// Sessions handed to it in its life.
    served: usize,
}

/// How a worker's death reads in the log.
fn how_it_ended(status: io::Result<ExitStatus>) -> String {
    match status {
        Ok(s) => match (s.signal(), s.code()) {
            (Some(sig), _) => format!(
                "killed by signal {}{}",
                sys::signal_name(sig),
                if s.core_dumped() { ", core dumped" } else { "" }
            ),
            (None, Some(code)) => format!("exited with status {code}"),
            (None, None) => format!("ended: {s}"),
        },
        Err(e) => format!("could not be reaped: {e}"),
    }
}

/// What the server heard from its workers ([`Workers::serve_ready`]).
pub(crate) struct Heard {
    /// Sessions that ended.
    pub ended: Vec<u64>,
    /// Sessions' applied batches so far, and the device memory each holds now (bytes).
    pub progress: Vec<(u64, u64, u64)>,
}

/// The server's worker processes (`process` and `pool` isolation).
pub(crate) struct Workers {
    /// Sessions one worker serves at once.
    per_worker: usize,
    /// A worker serves one session in its life (`process`).
    single_use: bool,
    /// The setup message every worker gets first.
    setup: Vec<u8>,
    live: Vec<Worker>,
    /// Workers told to exit, not yet reaped.
    retired: Vec<Child>,
}

impl Workers {
    /// Workers serving `per_worker` sessions at once (`single_use`: one in their life), each
    /// limited to `data_limit` bytes of data segment (0: unlimited). Starts the first one.
    pub fn new(
        per_worker: usize,
        single_use: bool,
        data_limit: u64,
        handshake_timeout: Duration,
        allow_capture: bool,
        secret: Option<&Secret>,
        warm: &str,
    ) -> Self {
        let setup = Setup {
            allow_capture,
            data_limit,
            handshake_timeout,
            warm: warm.to_owned(),
            secret: secret.map(|s| s.as_bytes().to_vec()),
        };
        let mut workers = Self {
            per_worker: per_worker.max(1),
            single_use,
            setup: setup.encode(),
            live: Vec::new(),
            retired: Vec::new(),
        };
        workers.ensure_spare();
        workers
    }

    fn has_room(&self, w: &Worker) -> bool {
        if self.single_use {
            w.served == 0
        } else {
            w.held.len() < self.per_worker
        }
    }

    fn spawn(&self) -> io::Result<Worker> {
        let (ours, theirs) = sys::seqpacket_pair()?;
        let child_fd = theirs.as_raw_fd();
        let mut command = Command::new(SELF_EXE);
        command
            .arg(WORKER_FLAG)
            .arg(child_fd.to_string())
            .stdin(Stdio::null())
            // The server's stdout carries its `listening on` lines only; workers log on the
            // shared stderr.
            .stdout(Stdio::null());
        if !self.single_use && self.per_worker > 1 {
            command.envs(super::server::shared_process_driver_env());
        }
        // SAFETY: the closure runs in the child between fork and exec and calls only fcntl
        // and prctl (async-signal-safe); `child_fd` is open in the child because fork copied
        // it.
        unsafe {
            command.pre_exec(move || {
                sys::inherit(child_fd)?;
                sys::die_with_parent()
            });
        }
        let child = command.spawn()?;
        drop(theirs);
        sys::send_all(ours.as_fd(), &[&self.setup], &[])?;
        log::debug!("worker pid {} started", child.id());
        Ok(Worker {
            child,
            ctl: ours,
            held: HashMap::new(),
            served: 0,
        })
    }

    /// Starts a worker if none has room for the next session, so that session does not wait
    /// for an `exec`.
    pub fn ensure_spare(&mut self) {
        if self.live.iter().any(|w| self.has_room(w)) {
            return;
        }
        match self.spawn() {
            Ok(w) => self.live.push(w),
            Err(e) => log::error!("could not start a worker process: {e}"),
        }
    }

    /// The connections held by every worker, and those of `user`.
    pub fn load(&self, user: Option<u32>) -> Load {
        let held = || self.live.iter().flat_map(|w| w.held.values());
        Load {
            connections: held().count(),
            pending: held().filter(|h| h.pending).count(),
            of_user: held().filter(|h| h.user == user).count(),
        }
    }

    /// Hands `placed` to a worker with room (started now if none has). A failed hand-over
    /// closes the connection, logged, and returns `false`.
    pub fn place(&mut self, placed: Placement) -> bool {
        self.ensure_spare();
        let Some(index) = self.live.iter().position(|w| self.has_room(w)) else {
            log::error!(
                "session {} ({}): no worker to serve it; closed",
                placed.id,
                placed.peer
            );
            return false;
        };
        let msg = encode_session(&placed);
        let worker = &mut self.live[index];
        if let Err(e) = sys::send_all(worker.ctl.as_fd(), &[&msg], &[placed.sock.as_fd()]) {
            log::error!(
                "session {} ({}): could not hand it to worker pid {}: {e}; closed",
                placed.id,
                placed.peer,
                worker.child.id()
            );
            return false;
        }
        worker.served += 1;
        worker.held.insert(
            placed.id,
            Held {
                peer: placed.peer,
                user: placed.user,
                pending: true,
            },
        );
        log::debug!(
            "session {}: served by worker pid {}",
            placed.id,
            worker.child.id()
        );
        // The socket is the worker's now: this process keeps no copy, so a worker's death
        // closes it and its client sees the hang-up.
        drop(placed.sock);
        self.ensure_spare();
        true
    }

    /// Ends session `id` in the worker that serves it (its device was lost): the worker shuts
    /// its socket down, and its client reports a context reset.
    pub fn end(&mut self, id: u64) {
        if let Some(worker) = self.live.iter().find(|w| w.held.contains_key(&id)) {
            let mut msg = vec![END];
            msg.extend_from_slice(&id.to_le_bytes());
            if let Err(e) = sys::send_all(worker.ctl.as_fd(), &[&msg], &[]) {
                log::warn!(
                    "session {id}: could not tell worker pid {} to end it: {e}",
                    worker.child.id()
                );
            }
        }
    }

    /// The control sockets to poll, in the order [`Workers::serve_ready`] takes.
    pub fn poll_fds(&self) -> Vec<RawFd> {
        self.live.iter().map(|w| w.ctl.as_raw_fd()).collect()
    }

    /// Reads what the workers whose control sockets are `ready` sent; reaps the ones that
    /// died, logging every session they held. Returns what placement hears: the sessions
    /// that ended (theirs included) and the sessions' applied batches.
    pub fn serve_ready(&mut self, ready: &[bool]) -> Heard {
        let mut buf = [0u8; 64];
        let mut dead = Vec::new();
        let mut ended = Vec::new();
        let mut progress = Vec::new();
        for (index, _) in ready.iter().enumerate().filter(|(_, r)| **r) {
            let Some(worker) = self.live.get_mut(index) else {
                continue;
            };
            let mut fds = Vec::new();
            match sys::recv_with_fds(worker.ctl.as_fd(), &mut buf, &mut fds) {
                Ok(0) | Err(_) => dead.push(index),
                Ok(n) => match decode_note(&buf[..n]) {
                    Some((id, SessionNote::Authenticated)) => {
                        if let Some(h) = worker.held.get_mut(&id) {
                            h.pending = false;
                        }
                    }
                    Some((id, SessionNote::Ended)) => {
                        worker.held.remove(&id);
                        ended.push(id);
                    }
                    Some((id, SessionNote::Progress { applied, memory })) => {
                        progress.push((id, applied, memory))
                    }
                    None => log::warn!(
                        "worker pid {}: a malformed message; ignored",
                        worker.child.id()
                    ),
                },
            }
        }
        for index in dead.into_iter().rev() {
            let mut worker = self.live.remove(index);
            let pid = worker.child.id();
            let how = how_it_ended(worker.child.wait());
            ended.extend(worker.held.keys().copied());
            if worker.held.is_empty() {
                log::warn!("worker pid {pid} {how}; it held no session");
            } else {
                let mut ids: Vec<&u64> = worker.held.keys().collect();
                ids.sort();
                log::error!(
                    "worker pid {pid} {how}; {} session(s) ended with it: {}",
                    ids.len(),
                    ids.iter()
                        .map(|id| id.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                for id in ids {
                    log::warn!(
                        "session {id} ({}): ended: its worker (pid {pid}) {how}",
                        worker.held[id].peer
                    );
                }
            }
        }
        self.retire_idle();
        self.ensure_spare();
        Heard { ended, progress }
    }

    /// Tells workers that have served their sessions to exit: in `process` isolation every
    /// worker whose session ended; in `pool` an empty worker unless it is the one with room.
    fn retire_idle(&mut self) {
        let mut index = 0;
        while index < self.live.len() {
            let w = &self.live[index];
            let idle = w.held.is_empty() && w.served > 0;
            let others_have_room = self
                .live
                .iter()
                .enumerate()
                .any(|(i, o)| i != index && self.has_room(o));
            if idle && (self.single_use || others_have_room) {
                // Closing our end is the worker's signal to exit.
                let worker = self.live.remove(index);
                self.retired.push(worker.child);
            } else {
                index += 1;
            }
        }
        self.retired
            .retain_mut(|child| !matches!(child.try_wait(), Ok(Some(_)) | Err(_)));
    }

    /// Whether retired workers are still to be reaped (the accept loop then polls with a
    /// timeout, to reap them).
    pub fn reaping(&self) -> bool {
        !self.retired.is_empty()
    }

    /// Reaps the retired workers that exited.
    pub fn reap_retired(&mut self) {
        self.retire_idle();
    }

    /// Closes every worker's control socket (each shuts its sessions down and exits) and
    /// reaps them; a worker still running after `grace` is killed.
    pub fn shut_down(&mut self, grace: Duration) {
        let mut children: Vec<Child> = self.live.drain(..).map(|w| w.child).collect();
        children.append(&mut self.retired);
        let deadline = Instant::now() + grace;
        for mut child in children {
            loop {
                match child.try_wait() {
                    Ok(None) if Instant::now() < deadline => {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Ok(None) => {
                        log::warn!(
                            "worker pid {} did not stop in {grace:?}; killed",
                            child.id()
                        );
                        let _ = child.kill();
                        let _ = child.wait();
                        break;
                    }
                    _ => break,
                }
            }
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn control_messages_round_trip() {
        let setup = Setup {
            allow_capture: true,
            data_limit: 1 << 32,
            handshake_timeout: Duration::from_millis(1500),
            warm: "gles".to_owned(),
            secret: Some(b"s3cret".to_vec()),
        };
        let back = Setup::decode(&setup.encode()).unwrap();
        assert!(back.allow_capture);
        assert_eq!(back.data_limit, 1 << 32);
        assert_eq!(back.handshake_timeout, Duration::from_millis(1500));
        assert_eq!(back.warm, "gles");
        assert_eq!(back.secret.as_deref(), Some(&b"s3cret"[..]));
        assert_eq!(
            decode_note(&encode_note(7, SessionNote::Ended)),
            Some((7, SessionNote::Ended))
        );
        assert_eq!(
            decode_note(&encode_note(
                7,
                SessionNote::Progress {
                    applied: 1234,
                    memory: 5 << 20
                }
            )),
            Some((
                7,
                SessionNote::Progress {
                    applied: 1234,
                    memory: 5 << 20
                }
            ))
        );
        assert_eq!(decode_note(&[9, 0, 0]), None);
        let (a, _b) = sys::seqpacket_pair().unwrap();
        let placed = Placement {
            id: 42,
            sock: a,
            peer: "pid 1 uid 2".to_owned(),
            user: Some(2),
            unix: true,
            deadline: Instant::now() + Duration::from_secs(5),
            client: "pid 1".to_owned(),
            may_pin: false,
            device: Some((
                SessionDevice {
                    index: 3,
                    name: "cpu".to_owned(),
                    uuid: [7; 16],
                    synthetic: true,
                    alternate: Some(Box::new(SessionDevice {
                        index: 1,
                        name: "discrete-b".to_owned(),
                        uuid: [8; 16],
                        synthetic: true,
                        alternate: None,
                    })),
                },
                "gles".to_owned(),
            )),
        };
        let msg = encode_session(&placed);
        let placed_device = placed.device.clone();
        let back = decode_session(&msg, placed.sock).unwrap();
        assert_eq!(
            (back.id, back.unix, back.peer.as_str()),
            (42, true, "pid 1 uid 2")
        );
        assert!(back.deadline > Instant::now() + Duration::from_secs(4));
        assert_eq!(back.device, placed_device);
        assert!(decode_session(&msg[..5], back.sock).is_none());
    }
}

//! Sessions on threads of this process: the registry the accept loop keeps in `threads`
//! isolation, and each worker process keeps for the sessions handed to it.
//!
//! Each session runs [`super::session::run_admitted`] on its own thread. The registry keeps a
//! duplicate of each session's socket (to shut it down: at the handshake deadline, or when the
//! server stops), the session's handshake clock ([`Admission`]), and who it is. Whoever owns
//! the registry calls [`Registry::reap_finished`] and [`Registry::expire_handshakes`] from its
//! loop (polling [`Registry::doorbell`], which each session rings as its thread ends, so a
//! finished thread is joined and its memory returned at once, not at the next connection),
//! and [`Registry::shut_down`] at the end.

use std::collections::HashMap;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::secret::Secret;
use super::session::{Admission, BackendFactory, SessionDevice, SessionHooks, SessionPolicy};
use super::sys;

/// What every session of one server (or one worker) is served with.
pub(crate) struct Service {
    /// The shared secret TCP clients prove.
    pub secret: Option<Secret>,
    /// Whether sessions may capture batches for the probe.
    pub allow_capture: bool,
    /// Makes backends.
    pub factory: Arc<BackendFactory>,
}

/// Something a session reports to whoever placed it (a worker tells its server).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SessionNote {
    /// The client completed its part of the handshake.
    Authenticated,
    /// The session ended and its backend was dropped.
    Ended,
    /// The session applied this many batches so far, and its backend holds this many bytes
    /// of device memory now (at most every [`super::session::PROGRESS_EVERY`]).
    Progress {
        /// Batches applied so far.
        applied: u64,
        /// Device memory held now, in bytes ([`crate::BackendCounters::device_memory`]).
        memory: u64,
    },
}

/// Where a session's notes go.
pub(crate) type Notify = Arc<dyn Fn(u64, SessionNote) + Send + Sync>;

/// A connection to serve.
pub(crate) struct Placement {
    /// The session's number in the log.
    pub id: u64,
    /// Its socket, accepted and not yet handshaken.
    pub sock: OwnedFd,
    /// Who it is, for the log.
    pub peer: String,
    /// Whose session it counts as (`None`: a TCP peer).
    pub user: Option<u32>,
    /// Whether the socket is a unix socket (can carry descriptors: `shm` may be offered).
    pub unix: bool,
    /// When its handshake must be done.
    pub deadline: Instant,
    /// Who the client is, for placement's affinity: its process (`pid N`), or over TCP its
    /// address.
    pub client: String,
    /// The device placement chose, and the backend to make on it.
    pub device: Option<(SessionDevice, String)>,
    /// Whether the client may pin a device (`ServerConfig::pin_allowed`); only read before
    /// the session is placed.
    pub may_pin: bool,
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
    /// Whose session it counts as.
    user: Option<u32>,
    /// Set by its thread as the thread's last act: the thread is ending, a join returns now.
    ended: Arc<AtomicBool>,
}

/// How many connections a registry (or a server's workers) holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Load {
    /// Connections, in the handshake or served.
    pub connections: usize,
    /// Those still in the handshake.
    pub pending: usize,
    /// Those of the user asked about.
    pub of_user: usize,
}

/// The sessions served on threads of this process, by session number.
pub(crate) struct Registry {
    map: Mutex<HashMap<u64, Entry>>,
    /// Sessions whose thread has not finished yet.
    running: AtomicUsize,
    /// Rung by each session thread as it ends (an eventfd; `None` if none could be made:
    /// then finished threads are joined at the owner's next wake-up).
    doorbell: Option<OwnedFd>,
}

impl Default for Registry {
    fn default() -> Self {
        Registry {
            map: Mutex::default(),
            running: AtomicUsize::new(0),
            doorbell: sys::eventfd()
                .inspect_err(|e| log::warn!("no eventfd for the session registry: {e}"))
                .ok(),
        }
    }
}

/// The debug hook that makes a session's process raise SIGSEGV: `TESSERA_DEBUG_CRASH=ID:K`
/// crashes the process serving session `ID` once it applied `K` batches (debug builds only;
/// the fault-isolation tests use it, since no real driver fault can be had on demand).
fn crash_hook(id: u64) -> Option<u64> {
    if !cfg!(debug_assertions) {
        return None;
    }
    let value = std::env::var("TESSERA_DEBUG_CRASH").ok()?;
    let (session, batches) = value.split_once(':')?;
    (session.trim().parse::<u64>().ok()? == id)
        .then(|| batches.trim().parse().ok())
        .flatten()
}

/// Returns the free memory of every glibc heap to the system: called each time session
/// threads were joined, since their backends (the driver's context, its shader caches, the session's rings)
/// freed tens of MiB that glibc would otherwise keep for the arena of the thread that
/// allocated it — a thread that is gone. Without it a threads-mode server's resident memory
/// rises and falls by a quarter from round to round of the same load, with no object
/// leaked. `TESSERA_SERVER_TRIM=0` turns it off (to measure what it saves).
fn trim_heap() {
    if std::env::var_os("TESSERA_SERVER_TRIM").is_some_and(|v| v == "0") {
        return;
    }
    // SAFETY: no precondition; glibc releases free pages at the top of and inside its heaps.
    #[cfg(target_env = "gnu")]
    unsafe {
        libc::malloc_trim(0)
    };
}

/// Gives every thread of a process that serves sessions on threads (the server in `threads`
/// isolation, every worker) glibc's one main heap, unless `MALLOC_ARENA_MAX` says otherwise.
/// Call it before any session thread starts.
///
/// With more heaps (glibc's default is eight per CPU), what a session frees stays in the heap
/// of the thread that allocated it, and [`trim_heap`] cannot give all of it back:
/// `malloc_trim` returns the free pages inside every heap but trims the free top of the main
/// heap only, so the top of another heap keeps whatever its last sessions left there. With
/// two heaps (one per CPU), an idle threads-mode server held 12 MiB after most rounds of 32
/// GLES sessions and up to 30 MiB after one round in twenty; with one heap, 12.0-12.6 MiB
/// after every round. Session threads then share one heap's lock: the server spent 0.8-0.9 s
/// of CPU per round of 32 sessions either way (glibc's per-thread caches serve most small
/// allocations without the lock).
///
/// It also fixes glibc's thresholds (unless `MALLOC_MMAP_THRESHOLD_` or
/// `MALLOC_TRIM_THRESHOLD_` is set): a block of 128 KiB or more is mapped for itself and
/// unmapped when freed, and the heap's free top is returned past 1 MiB. By default glibc
/// raises both after the first large block is freed (up to 32 and 64 MiB), so from then on
/// the driver's large blocks (vertex data, textures, llvmpipe's scenes) stay in the heap when
/// freed: a threads-mode server then held a quarter more memory with its sessions live in
/// every round after the first than in the first (315 against 409-465 MiB of anonymous
/// memory with 32 GLES sessions), so the first round was no measure of the others; with the
/// thresholds fixed, the first round's (424 MiB) lies among the others' (401-464 MiB).
#[cfg(target_env = "gnu")]
pub(crate) fn limit_heaps() {
    let unset = |name: &str| std::env::var_os(name).is_none();
    // (parameter, value, the variable that overrides it)
    let settings = [
        (libc::M_ARENA_MAX, 1, "MALLOC_ARENA_MAX"),
        (libc::M_MMAP_THRESHOLD, 128 << 10, "MALLOC_MMAP_THRESHOLD_"),
        (libc::M_TRIM_THRESHOLD, 1 << 20, "MALLOC_TRIM_THRESHOLD_"),
    ];
    for (parameter, value, variable) in settings {
        if unset(variable) {
            // SAFETY: each parameter takes any positive value; it applies from now on.
            unsafe { libc::mallopt(parameter, value) };
        }
    }
}

/// [`limit_heaps`] with a C library other than glibc (Android's bionic): its heaps have
/// other knobs, left as they are.
#[cfg(not(target_env = "gnu"))]
pub(crate) fn limit_heaps() {}

impl Registry {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Entry>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The connections held, and those of `user`.
    pub fn load(&self, user: Option<u32>) -> Load {
        let map = self.lock();
        Load {
            connections: map.len(),
            pending: map.values().filter(|e| e.admission.is_pending()).count(),
            of_user: map.values().filter(|e| e.user == user).count(),
        }
    }

    /// Serves `placed` on a new thread; `notify` hears when it authenticates and ends.
    pub fn spawn(self: &Arc<Self>, placed: Placement, service: &Arc<Service>, notify: Notify) {
        let Placement {
            id,
            sock,
            peer,
            user,
            unix,
            deadline,
            client: _,
            device,
            may_pin: _,
        } = placed;
        let Ok(dup) = sock.try_clone() else {
            log::warn!("session {id}: could not duplicate its socket; dropped");
            notify(id, SessionNote::Ended);
            return;
        };
        let admission = Arc::new(Admission::default());
        let ended_flag = Arc::new(AtomicBool::new(false));
        let entry_ended = ended_flag.clone();
        let entry_peer = peer.clone();
        let (service, registry) = (service.clone(), self.clone());
        let clock = admission.clone();
        let ended = notify.clone();
        // Held until the entry is in, so the thread always finds its entry when it ends.
        let mut map = self.lock();
        self.running.fetch_add(1, Ordering::AcqRel);
        let spawned = std::thread::Builder::new()
            .name(format!("tessera-session-{id}"))
            .spawn(move || {
                let authenticated = || notify(id, SessionNote::Authenticated);
                let progress =
                    |applied, memory| notify(id, SessionNote::Progress { applied, memory });
                let policy = SessionPolicy {
                    id,
                    peer,
                    can_share_memory: unix,
                    secret: if unix { None } else { service.secret.as_ref() },
                    allow_capture: service.allow_capture,
                    factory: &*service.factory,
                    device,
                };
                let hooks = SessionHooks {
                    on_authenticated: Some(&authenticated),
                    crash_after: crash_hook(id),
                    on_progress: Some(&progress),
                };
                super::session::run_admitted(sock, &policy, Some(&clock), &hooks);
                registry.session_finished();
                // The registry's duplicate keeps the connection open until the owner reaps
                // this thread; shutting it down now lets the client see the end at once.
                if let Some(entry) = registry.lock().get_mut(&id) {
                    sys::shutdown(entry.sock.as_fd());
                }
                notify(id, SessionNote::Ended);
                ended_flag.store(true, Ordering::Release);
                registry.ring();
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
                        user,
                        ended: entry_ended,
                    },
                );
            }
            Err(e) => {
                log::warn!("session {id}: could not start its thread: {e}");
                self.running.fetch_sub(1, Ordering::AcqRel);
                drop(map);
                ended(id, SessionNote::Ended);
            }
        }
    }

    /// A session's thread is done with its backend. When it was the last one, the process
    /// says what native objects all its backends still hold (`crate::census`): none, unless
    /// a backend left some behind. The load test reads this line between its rounds.
    fn session_finished(&self) {
        if self.running.fetch_sub(1, Ordering::AcqRel) == 1 {
            log::info!(
                "no session live in process {}: {} held",
                std::process::id(),
                crate::census::process_live()
            );
        }
    }

    /// Wakes the owner's loop (a session thread ends, or a device is lost).
    pub(crate) fn ring(&self) {
        if let Some(fd) = &self.doorbell {
            sys::eventfd_ring(fd.as_fd());
        }
    }

    /// What the owner's loop polls, besides its own descriptors: readable when a session
    /// thread ended and [`Registry::reap_finished`] has work.
    pub fn doorbell(&self) -> Option<BorrowedFd<'_>> {
        self.doorbell.as_ref().map(|fd| fd.as_fd())
    }

    /// Joins sessions whose thread finished (or is ending: its last act was to say so), then
    /// returns their freed memory to the system ([`trim_heap`]): after the join, so what the
    /// threads' own exit freed (the driver's per-thread state) goes back too.
    pub fn reap_finished(&self) {
        if let Some(fd) = &self.doorbell {
            sys::eventfd_drain(fd.as_fd());
        }
        let done: Vec<JoinHandle<()>> = {
            let mut map = self.lock();
            let ids: Vec<u64> = map
                .iter()
                .filter(|(_, e)| {
                    e.ended.load(Ordering::Acquire)
                        || e.thread.as_ref().is_some_and(|h| h.is_finished())
                })
                .map(|(id, _)| *id)
                .collect();
            ids.into_iter()
                .filter_map(|id| map.remove(&id).and_then(|e| e.thread))
                .collect()
        };
        if done.is_empty() {
            return;
        }
        for handle in done {
            let _ = handle.join();
        }
        trim_heap();
        if self.lock().is_empty() {
            // The load test samples an idle process's memory after this line, not before:
            // until the join and the trim, the ended sessions' memory is still held.
            log::info!(
                "process {}: every session thread joined; their memory returned",
                std::process::id()
            );
        }
    }

    /// Ends session `id` as if its server had died: its socket is shut down, so its client
    /// sees the hang-up at its next wait or submit and reports a context reset. `false` if
    /// no such session is served here.
    pub fn end(&self, id: u64) -> bool {
        match self.lock().get(&id) {
            Some(entry) => {
                sys::shutdown(entry.sock.as_fd());
                true
            }
            None => false,
        }
    }

    /// Closes every connection whose handshake deadline passed; how long until the next one
    /// (`None`: no handshake pending).
    pub fn expire_handshakes(&self, timeout: Duration) -> Option<Duration> {
        let now = Instant::now();
        let map = self.lock();
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

    /// Shuts every session's socket down (its thread wakes, logs, frees its backend) and
    /// joins them.
    pub fn shut_down(&self) {
        let all: Vec<Entry> = self.lock().drain().map(|(_, v)| v).collect();
        for entry in &all {
            sys::shutdown(entry.sock.as_fd());
        }
        for entry in all {
            if let Some(h) = entry.thread {
                let _ = h.join();
            }
        }
    }
}

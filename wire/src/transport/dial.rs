//! Reaching a server: connect, handshake, then the data plane the server chose.
//!
//! - `shm[:PATH]`: the server's unix socket (`PATH`, else `TESSERA_SERVER`, else the default
//!   path), shared-memory rings.
//! - `fork`: a private server spawned from the `tessera-server` binary (next to this
//!   executable, one directory up — where test binaries live — or `TESSERA_SERVER_BIN`),
//!   over a socketpair: no socket file, nobody else can connect, and the server exits when
//!   this client goes. The binary is re-executed rather than this process forked, because a
//!   fork of a multithreaded process may only call async-signal-safe functions before exec.
//! - `unix:PATH`, `tcp://HOST:PORT`: frames on the socket. TCP proves a shared secret read
//!   from `?secret=FILE` or `TESSERA_SECRET_FILE` (mode 0600) when the server asks for one.
//!
//! [`loopback`] runs the same protocol with the server side on a thread of this process and
//! a backend the caller provides: the data planes without a server binary (embedders'
//! backends, tests).

use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::client::ServerHandle;
use super::frame::{self, FrameKind};
use super::handshake::{self, DataPlane, HandshakeError, Hello};
use super::secret::{LoadSecretError, Secret};
use super::session::{BackendRequest, ServerBackend, SessionPolicy};
use super::shm::ShmTransport;
use super::stream::StreamTransport;
use super::{Transport, TransportKind, sys};
use crate::backend::{Backend, Caps};

/// Command ring bytes a client asks for: 16 MiB, two full-size batches (`STAGE_SOFT_LIMIT`)
/// in flight. Memfd pages are only allocated when touched.
pub const DEFAULT_CMD_BYTES: u64 = 16 << 20;
/// Event ring bytes a client asks for: read-backs larger than this pass in pieces.
pub const DEFAULT_EVENT_BYTES: u64 = 4 << 20;
/// Stream send window a client asks for.
pub const DEFAULT_WINDOW_BYTES: u64 = 32 << 20;

/// What a client asks of the server besides the transport.
#[derive(Clone, Debug)]
pub struct DialOptions {
    /// The backend the server should create, by name.
    pub backend: String,
    /// Ask the server to keep every batch for [`Transport::probe`] (debug servers only).
    pub capture: bool,
    /// The shared secret, when not given by the transport or the environment.
    pub secret: Option<Secret>,
    /// The server device to run on (index, UUID or name), else `TESSERA_DEVICE`; `None`
    /// and no variable: the server's placement policy decides.
    pub device: Option<String>,
}

impl Default for DialOptions {
    fn default() -> Self {
        Self {
            backend: "null".to_owned(),
            capture: false,
            secret: None,
            device: None,
        }
    }
}

/// A session with a server.
pub struct Remote {
    /// The client's end.
    pub transport: Box<dyn Transport>,
    /// What the server's backend offers.
    pub caps: Caps,
    /// The device the server placed the session on (`index: name (uuid)`), when it places
    /// sessions.
    pub device: Option<String>,
}

/// Why a server could not be reached.
#[derive(Debug, thiserror::Error)]
pub enum DialError {
    /// The transport is not a process transport.
    #[error("{0} is not a transport to a server")]
    NotRemote(&'static str),
    /// Connecting failed.
    #[error("connecting to {target}: {source}")]
    Connect {
        /// Where.
        target: String,
        /// Why.
        source: std::io::Error,
    },
    /// The server binary could not be found or started.
    #[error("starting a private server: {0}")]
    Spawn(String),
    /// The secret file was not usable.
    #[error(transparent)]
    Secret(#[from] LoadSecretError),
    /// The handshake failed or was refused.
    #[error(transparent)]
    Handshake(#[from] HandshakeError),
    /// The shared segments could not be set up.
    #[error("shared memory: {0}")]
    Segments(String),
}

/// The socket path `shm` uses when none is given: `TESSERA_SERVER`, else
/// `$XDG_RUNTIME_DIR/tessera-server.sock`, else `/tmp/tessera-server-<uid>.sock`.
pub fn default_socket_path() -> PathBuf {
    if let Some(path) = std::env::var_os("TESSERA_SERVER") {
        return PathBuf::from(path);
    }
    if let Some(dir) = std::env::var_os("XDG_RUNTIME_DIR") {
        return Path::new(&dir).join("tessera-server.sock");
    }
    PathBuf::from(format!("/tmp/tessera-server-{}.sock", sys::own_ids().0))
}

/// Where the `tessera-server` binary is: `TESSERA_SERVER_BIN`, else next to this executable,
/// else one directory up (test binaries live in `target/<profile>/deps/`).
pub fn server_binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("TESSERA_SERVER_BIN") {
        return Some(PathBuf::from(path));
    }
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    [
        dir.join("tessera-server"),
        dir.parent()?.join("tessera-server"),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

fn hello(plane: DataPlane, options: &DialOptions, same_build: bool) -> Result<Hello, DialError> {
    let mut nonce = [0u8; 16];
    sys::random(&mut nonce).map_err(|e| DialError::Spawn(format!("random nonce: {e}")))?;
    Ok(Hello {
        build_id: handshake::build_id(),
        same_build,
        data_plane: plane,
        cmd_bytes: DEFAULT_CMD_BYTES,
        event_bytes: DEFAULT_EVENT_BYTES,
        window_bytes: DEFAULT_WINDOW_BYTES,
        backend: options.backend.clone(),
        capture: options.capture,
        device: options
            .device
            .clone()
            .or_else(|| std::env::var("TESSERA_DEVICE").ok())
            .filter(|d| !d.trim().is_empty()),
        nonce,
    })
}

/// Handshakes on `sock` and builds the client transport for the plane the server chose.
fn establish(
    kind: TransportKind,
    sock: OwnedFd,
    hello: &Hello,
    secret: Option<&Secret>,
    server: Option<ServerHandle>,
) -> Result<Remote, DialError> {
    let welcome = handshake::client(sock.as_fd(), hello, secret)?;
    let caps = welcome.caps.clone();
    let device = welcome.device.clone();
    let transport: Box<dyn Transport> = match welcome.data_plane {
        DataPlane::Shm => Box::new(
            ShmTransport::establish(kind, sock, &welcome, server).map_err(DialError::Segments)?,
        ),
        DataPlane::Stream => Box::new(StreamTransport::establish(kind, sock, &welcome, server)),
    };
    Ok(Remote {
        transport,
        caps,
        device,
    })
}

/// Connects to the server `kind` names and handshakes.
pub fn dial(kind: &TransportKind, options: &DialOptions) -> Result<Remote, DialError> {
    match kind {
        TransportKind::Inproc => Err(DialError::NotRemote("inproc")),
        TransportKind::Thread => Err(DialError::NotRemote("thread")),
        TransportKind::Shm(path) => {
            let path = path.clone().unwrap_or_else(default_socket_path);
            let sock = connect_unix(&path)?;
            establish(
                kind.clone(),
                sock,
                &hello(DataPlane::Shm, options, false)?,
                None,
                None,
            )
        }
        TransportKind::Unix(path) => {
            let sock = connect_unix(path)?;
            establish(
                kind.clone(),
                sock,
                &hello(DataPlane::Stream, options, false)?,
                None,
                None,
            )
        }
        TransportKind::Tcp { addr, secret } => {
            let secret = match (secret, std::env::var_os("TESSERA_SECRET_FILE")) {
                (Some(path), _) => Some(Secret::load(path)?),
                (None, Some(path)) => Some(Secret::load(Path::new(&path))?),
                (None, None) => options.secret.clone(),
            };
            let stream = std::net::TcpStream::connect(addr.as_str()).map_err(|source| {
                DialError::Connect {
                    target: format!("tcp://{addr}"),
                    source,
                }
            })?;
            // Replies are latency-bound: never let Nagle hold a small frame back.
            let _ = stream.set_nodelay(true);
            let hello = hello(DataPlane::Stream, options, false)?;
            establish(
                kind.clone(),
                OwnedFd::from(stream),
                &hello,
                secret.as_ref(),
                None,
            )
        }
        TransportKind::Fork => spawn_private(options),
    }
}

/// Asks the server listening on the unix socket `path` for its status report (what
/// `tessera-server status` prints): its devices, sessions per device, memory and placement
/// policy. The connection is admitted as any client's is (credentials, caps).
pub fn status(path: &Path) -> Result<String, DialError> {
    control(path, super::server::STATUS)
}

/// Sends the server on the unix socket `path` a control request instead of a session's
/// Hello (`status`, or `lose:N`: lose synthetic device `N`), admitted as any client is;
/// returns its answer.
pub fn control(path: &Path, request: &str) -> Result<String, DialError> {
    let sock = connect_unix(path)?;
    let options = DialOptions {
        backend: request.to_owned(),
        ..DialOptions::default()
    };
    let hello = hello(DataPlane::Stream, &options, false)?;
    let protocol = |e: String| DialError::Handshake(HandshakeError::Protocol(e));
    // A server that refuses this peer at once (its credentials) may have closed before the
    // Hello arrived: its reason is still waiting to be read, so a failed send reads on.
    let sent = frame::send(
        sock.as_fd(),
        FrameKind::Hello,
        &[&handshake::encode_fingerprinted(&hello)],
        &[],
    );
    let mut payload = rkyv::util::AlignedVec::new();
    let mut fds = Vec::new();
    match frame::recv(sock.as_fd(), frame::MAX_MESSAGE, &mut payload, &mut fds) {
        Ok(FrameKind::Refuse) => Err(DialError::Handshake(HandshakeError::Refused(
            String::from_utf8_lossy(&payload).into_owned(),
        ))),
        _ if sent.is_err() => Err(protocol(sent.unwrap_err().to_string())),
        Ok(FrameKind::Status) => Ok(String::from_utf8_lossy(&payload).into_owned()),
        Ok(other) => Err(protocol(format!("a {other:?} frame instead of the status"))),
        Err(e) => Err(protocol(e.to_string())),
    }
}

fn connect_unix(path: &Path) -> Result<OwnedFd, DialError> {
    UnixStream::connect(path)
        .map(OwnedFd::from)
        .map_err(|source| DialError::Connect {
            target: format!("unix:{}", path.display()),
            source,
        })
}

/// `fork`: spawns `tessera-server --fd N` on one end of a socketpair.
fn spawn_private(options: &DialOptions) -> Result<Remote, DialError> {
    let binary = server_binary().ok_or_else(|| {
        DialError::Spawn(
            "no tessera-server next to this executable; set TESSERA_SERVER_BIN".to_owned(),
        )
    })?;
    let (ours, theirs) = UnixStream::pair().map_err(|e| DialError::Spawn(e.to_string()))?;
    let child_fd = theirs.as_raw_fd();
    let mut command = std::process::Command::new(&binary);
    command
        .arg("--fd")
        .arg(child_fd.to_string())
        .stdin(std::process::Stdio::null());
    if std::env::var_os("TESSERA_LOG").is_none() {
        // The private server's stderr is this process's: only problems belong there.
        command.env("TESSERA_LOG", "warn");
    }
    if options.capture {
        // A private server serves this client alone, so its capture concerns nobody else.
        command.arg("--allow-capture");
    }
    // SAFETY: the closure runs in the child between fork and exec and calls only fcntl
    // (async-signal-safe); `child_fd` is open in the child because fork copied it.
    unsafe {
        command.pre_exec(move || sys::inherit(child_fd));
    }
    let child = command
        .spawn()
        .map_err(|e| DialError::Spawn(format!("{}: {e}", binary.display())))?;
    drop(theirs);
    let hello = hello(DataPlane::Shm, options, true)?;
    establish(
        TransportKind::Fork,
        OwnedFd::from(ours),
        &hello,
        None,
        Some(ServerHandle::Process(child)),
    )
}

/// Runs a session of `kind`'s data plane with the server side on a thread of this process,
/// applying to `backend`. `shm`/`fork` get the shared-memory rings, `unix:`/`tcp://` frames
/// on a socketpair.
pub(crate) fn loopback(
    kind: &TransportKind,
    backend: Box<dyn Backend>,
) -> Result<Box<dyn Transport>, DialError> {
    let plane = match kind {
        TransportKind::Shm(_) | TransportKind::Fork => DataPlane::Shm,
        _ => DataPlane::Stream,
    };
    let (ours, theirs) = UnixStream::pair().map_err(|e| DialError::Spawn(e.to_string()))?;
    let backend = Mutex::new(Some(backend));
    let thread = std::thread::Builder::new()
        .name("tessera-loopback".to_owned())
        .spawn(move || {
            let factory = move |_: &BackendRequest| -> Result<ServerBackend, String> {
                let backend = backend
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .take()
                    .ok_or_else(|| "the loopback backend was already used".to_owned())?;
                Ok(ServerBackend {
                    backend,
                    probe: None,
                })
            };
            let policy = SessionPolicy {
                id: 0,
                peer: "loopback".to_owned(),
                can_share_memory: true,
                secret: None,
                allow_capture: false,
                factory: &factory,
                device: None,
            };
            super::session::run(OwnedFd::from(theirs), &policy);
        })
        .map_err(|e| DialError::Spawn(e.to_string()))?;
    let hello = hello(plane, &DialOptions::default(), true)?;
    establish(
        kind.clone(),
        OwnedFd::from(ours),
        &hello,
        None,
        Some(ServerHandle::Thread(thread)),
    )
    .map(|remote| remote.transport)
}

//! The handshake on the control connection, and the messages of the session after it.
//!
//! ```text
//! client                                   server
//!   Hello(fingerprint, build, plane, sizes, backend, nonce) ->
//!                                  <- Challenge(nonce)          (TCP: a shared secret is set)
//!   Proof(HMAC over both nonces)   ->
//!                                  <- Welcome(fingerprint, caps, plane, sizes, proof)
//!                                     or Refuse(reason)
//!   Segments(cmd memfd, eventfd)   ->                           (shm only)
//!                                  <- Segments(event memfd, eventfd)
//! ```
//!
//! Hello and Welcome start with the sender's [`crate::FINGERPRINT`] as a plain little-endian
//! `u64`, before the archived body: a peer whose record schema differs reads the fingerprint,
//! refuses with a reason (the server sends `Refuse`; the client sends `Refuse` back and
//! reports it), and never tries to read a body whose layout it does not know. The build id is
//! compared only when the client asked for the same build (`fork`, which spawns a server from
//! next to itself). Sizes the client asks for are clamped by the server; the Welcome states
//! what holds.

use std::os::fd::BorrowedFd;

use rkyv::rancor;
use rkyv::util::AlignedVec;
use rkyv::{Archive, Deserialize, Serialize};

use super::frame::{self, FrameError, FrameKind, MAX_HANDSHAKE_FRAME};
use super::secret::{Secret, Side, same_mac};
use super::sys;
use crate::backend::{Caps, Event, Reply};
use crate::record::ReplyId;

/// Identifies this build: the crate version and the wire fingerprint.
pub fn build_id() -> String {
    format!(
        "tessera-wire {} {:016x}",
        env!("CARGO_PKG_VERSION"),
        crate::FINGERPRINT
    )
}

/// How batches travel after the handshake.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub enum DataPlane {
    /// Shared-memory rings (same machine, unix socket only).
    Shm,
    /// Frames on the control socket.
    Stream,
}

/// The client's opening message.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[rkyv(derive(Debug))]
pub struct Hello {
    /// The client's [`build_id`].
    pub build_id: String,
    /// Whether the server must be the same build (a spawned private server).
    pub same_build: bool,
    /// The data plane asked for.
    pub data_plane: DataPlane,
    /// Command ring bytes asked for (`shm`).
    pub cmd_bytes: u64,
    /// Event ring bytes asked for (`shm`).
    pub event_bytes: u64,
    /// Bytes the client may have in flight before waiting for progress (`stream`).
    pub window_bytes: u64,
    /// The backend to create, by name (`null`, `gles`, `vulkan`).
    pub backend: String,
    /// Keep every batch for the probe (honoured only by servers started to allow it).
    pub capture: bool,
    /// The device the client asks for (`TESSERA_DEVICE`, the engine's `Config::device`): its
    /// index, UUID or name on the server (`placement.rs`); `None`: the server's policy
    /// decides.
    pub device: Option<String>,
    /// The client's nonce for the secret's challenge.
    pub nonce: [u8; 16],
}

/// The server's acceptance.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[rkyv(derive(Debug))]
pub struct Welcome {
    /// The server's [`build_id`].
    pub build_id: String,
    /// The session's number in the server's log.
    pub session: u64,
    /// What the backend offers.
    pub caps: Caps,
    /// The data plane chosen.
    pub data_plane: DataPlane,
    /// Command ring bytes.
    pub cmd_bytes: u64,
    /// Event ring bytes.
    pub event_bytes: u64,
    /// Send window.
    pub window_bytes: u64,
    /// The device the session was placed on (`index: name (uuid)`), when the server places
    /// sessions (`placement.rs`).
    pub device: Option<String>,
    /// The server's proof of the shared secret (when one was used).
    pub proof: Option<[u8; 32]>,
}

/// A reply or an event, from server to client.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[rkyv(derive(Debug))]
pub enum Notice {
    /// The answer to a request.
    Reply {
        /// Which request.
        id: ReplyId,
        /// The answer.
        reply: Reply,
    },
    /// Something the backend reported.
    Event(Event),
}

/// What a server-side null backend saw (sessions of servers that allow capture).
#[derive(Archive, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[rkyv(derive(Debug))]
pub struct ProbeSnapshot {
    /// Batches applied.
    pub batches: u64,
    /// Records applied.
    pub records: u64,
    /// Records applied, by record name.
    pub by_name: Vec<(String, u64)>,
    /// Archived batch bytes received.
    pub record_bytes: u64,
    /// Stage bytes received.
    pub stage_bytes: u64,
    /// Every batch received since the last probe, as (archive, stage).
    pub captured: Vec<(Vec<u8>, Vec<u8>)>,
    /// Live objects per kind.
    pub live: Vec<u32>,
    /// The server process's CPU time so far, user, in nanoseconds (every thread, the native
    /// driver's included; the benchmark's server serves one session at a time).
    pub cpu_user_ns: u64,
    /// The server process's CPU time so far, system, in nanoseconds.
    pub cpu_sys_ns: u64,
    /// The session backend's native creations so far (any backend, capturing or not;
    /// `None` when it does not count them).
    pub backend: Option<crate::backend::BackendCounters>,
}

impl ProbeSnapshot {
    /// Records of one name applied so far.
    pub fn count(&self, name: &str) -> u64 {
        self.by_name
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, c)| *c)
    }
}

/// Why a handshake failed.
#[derive(Debug, thiserror::Error)]
pub enum HandshakeError {
    /// The peer refused, with its reason.
    #[error("refused: {0}")]
    Refused(String),
    /// The peer broke the protocol or the connection failed.
    #[error("handshake: {0}")]
    Protocol(String),
}

impl From<FrameError> for HandshakeError {
    fn from(e: FrameError) -> Self {
        Self::Protocol(e.to_string())
    }
}

/// What control messages are archived with ([`archive`]).
type ControlSerializer<'a> = rkyv::api::high::HighSerializer<
    AlignedVec,
    rkyv::ser::allocator::ArenaHandle<'a>,
    rancor::Error,
>;

/// Archives `value` behind a fingerprint prefix (8 bytes of fingerprint, 8 zero bytes, so the
/// archive stays 16-aligned in the receiver's buffer).
pub(crate) fn encode_fingerprinted<T>(value: &T) -> AlignedVec<16>
where
    T: for<'a> Serialize<ControlSerializer<'a>>,
{
    let body = archive(value);
    let mut out = AlignedVec::with_capacity(16 + body.len());
    out.extend_from_slice(&crate::FINGERPRINT.to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&body);
    out
}

/// Archives a message.
pub(crate) fn archive<T>(value: &T) -> AlignedVec
where
    T: for<'a> Serialize<ControlSerializer<'a>>,
{
    match rkyv::to_bytes::<rancor::Error>(value) {
        Ok(bytes) => bytes,
        // Serializing owned data into a growable buffer fails only by running out of memory,
        // which aborts before reaching here.
        Err(e) => unreachable!("archiving a control message failed: {e}"),
    }
}

/// Splits a fingerprinted payload: the peer's fingerprint and the archived body.
pub(crate) fn split_fingerprinted(payload: &[u8]) -> Result<(u64, &[u8]), HandshakeError> {
    let head = payload.first_chunk::<16>().ok_or_else(|| {
        HandshakeError::Protocol("a message too short for its fingerprint".into())
    })?;
    let mut fp = [0u8; 8];
    fp.copy_from_slice(&head[..8]);
    Ok((u64::from_le_bytes(fp), &payload[16..]))
}

/// Validates and decodes an archived message (`bytes` 16-aligned).
pub(crate) fn decode<T>(bytes: &[u8]) -> Result<T, String>
where
    T: Archive,
    T::Archived: for<'a> rkyv::bytecheck::CheckBytes<rkyv::api::high::HighValidator<'a, rancor::Error>>
        + Deserialize<T, rkyv::api::high::HighDeserializer<rancor::Error>>,
{
    if bytes.as_ptr().align_offset(16) != 0 {
        let mut copy = AlignedVec::<16>::with_capacity(bytes.len());
        copy.extend_from_slice(bytes);
        return rkyv::from_bytes::<T, rancor::Error>(&copy).map_err(|e| e.to_string());
    }
    rkyv::from_bytes::<T, rancor::Error>(bytes).map_err(|e| e.to_string())
}

fn fingerprint_mismatch(theirs: u64) -> String {
    format!(
        "wire fingerprint mismatch: peer {theirs:016x}, this side {:016x} (different record \
         schemas: update one side)",
        crate::FINGERPRINT
    )
}

/// Sends a refusal, ignoring a peer that is already gone.
pub(crate) fn refuse(sock: BorrowedFd<'_>, reason: &str) {
    let _ = frame::send(sock, FrameKind::Refuse, &[reason.as_bytes()], &[]);
}

/// The client's half: sends `hello`, answers a challenge with `secret`, and returns the
/// Welcome once it checked the server's fingerprint and proof.
pub(crate) fn client(
    sock: BorrowedFd<'_>,
    hello: &Hello,
    secret: Option<&Secret>,
) -> Result<Welcome, HandshakeError> {
    let io = |e: std::io::Error| HandshakeError::Protocol(e.to_string());
    let mut payload = AlignedVec::new();
    let mut fds = Vec::new();
    if let Err(e) = frame::send(sock, FrameKind::Hello, &[&encode_fingerprinted(hello)], &[]) {
        // A server that refuses a peer at once (its credentials) may have closed before the
        // Hello arrived; its reason is still waiting to be read.
        return match frame::recv(sock, MAX_HANDSHAKE_FRAME, &mut payload, &mut fds) {
            Ok(FrameKind::Refuse) => Err(HandshakeError::Refused(
                String::from_utf8_lossy(&payload).into_owned(),
            )),
            _ => Err(io(e)),
        };
    }
    let mut server_nonce = None;
    loop {
        let kind = frame::recv(sock, MAX_HANDSHAKE_FRAME, &mut payload, &mut fds)?;
        match kind {
            FrameKind::Challenge => {
                let nonce: [u8; 16] = payload.as_slice().try_into().map_err(|_| {
                    HandshakeError::Protocol("a challenge that is not 16 bytes".into())
                })?;
                let Some(secret) = secret else {
                    refuse(sock, "this client has no secret for the server's challenge");
                    return Err(HandshakeError::Refused(
                        "the server requires a shared secret (TESSERA_SECRET_FILE or ?secret=PATH)"
                            .into(),
                    ));
                };
                let proof = secret.proof(Side::Client, &hello.nonce, &nonce, crate::FINGERPRINT);
                frame::send(sock, FrameKind::Proof, &[&proof], &[]).map_err(io)?;
                server_nonce = Some(nonce);
            }
            FrameKind::Welcome => {
                let (fp, body) = split_fingerprinted(&payload)?;
                if fp != crate::FINGERPRINT {
                    let reason = fingerprint_mismatch(fp);
                    refuse(sock, &reason);
                    return Err(HandshakeError::Refused(reason));
                }
                let welcome: Welcome = decode(body).map_err(HandshakeError::Protocol)?;
                if let Some(secret) = secret {
                    let expected = server_nonce
                        .map(|n| secret.proof(Side::Server, &hello.nonce, &n, crate::FINGERPRINT));
                    match (expected, welcome.proof) {
                        (Some(e), Some(p)) if same_mac(&e, &p) => {}
                        _ => {
                            let reason = "the server did not prove the shared secret".to_owned();
                            refuse(sock, &reason);
                            return Err(HandshakeError::Refused(reason));
                        }
                    }
                }
                if hello.same_build && welcome.build_id != hello.build_id {
                    let reason = format!(
                        "server build {:?} is not {:?}",
                        welcome.build_id, hello.build_id
                    );
                    refuse(sock, &reason);
                    return Err(HandshakeError::Refused(reason));
                }
                return Ok(welcome);
            }
            FrameKind::Refuse => {
                return Err(HandshakeError::Refused(
                    String::from_utf8_lossy(&payload).into_owned(),
                ));
            }
            other => {
                return Err(HandshakeError::Protocol(format!(
                    "unexpected {other:?} frame"
                )));
            }
        }
    }
}

/// What the server decided for a Hello.
pub(crate) struct Accepted {
    /// The client's Hello.
    pub hello: Hello,
    /// The nonces, when a secret was proven (for the Welcome's proof).
    pub proof: Option<[u8; 32]>,
}

/// The server's first half: reads the Hello, checks the fingerprint and build, and, with a
/// `secret`, challenges the client. On refusal the `Refuse` frame was already sent.
pub(crate) fn server_accept(
    sock: BorrowedFd<'_>,
    secret: Option<&Secret>,
) -> Result<Accepted, HandshakeError> {
    let mut payload = AlignedVec::new();
    let mut fds = Vec::new();
    let kind = frame::recv(sock, MAX_HANDSHAKE_FRAME, &mut payload, &mut fds)?;
    if kind != FrameKind::Hello {
        let reason = format!("expected Hello, got {kind:?}");
        refuse(sock, &reason);
        return Err(HandshakeError::Protocol(reason));
    }
    let (fp, body) = split_fingerprinted(&payload)?;
    if fp != crate::FINGERPRINT {
        let reason = fingerprint_mismatch(fp);
        refuse(sock, &reason);
        return Err(HandshakeError::Refused(reason));
    }
    let hello: Hello = match decode(body) {
        Ok(h) => h,
        Err(e) => {
            let reason = format!("malformed Hello: {e}");
            refuse(sock, &reason);
            return Err(HandshakeError::Protocol(reason));
        }
    };
    if hello.same_build && hello.build_id != build_id() {
        let reason = format!(
            "client build {:?} is not this server's {:?}",
            hello.build_id,
            build_id()
        );
        refuse(sock, &reason);
        return Err(HandshakeError::Refused(reason));
    }
    let mut proof = None;
    if let Some(secret) = secret {
        let mut nonce = [0u8; 16];
        sys::random(&mut nonce)
            .map_err(|e| HandshakeError::Protocol(format!("random nonce: {e}")))?;
        frame::send(sock, FrameKind::Challenge, &[&nonce], &[])
            .map_err(|e| HandshakeError::Protocol(e.to_string()))?;
        let kind = frame::recv(sock, MAX_HANDSHAKE_FRAME, &mut payload, &mut fds)?;
        let expected = secret.proof(Side::Client, &hello.nonce, &nonce, crate::FINGERPRINT);
        let proven = kind == FrameKind::Proof
            && payload
                .as_slice()
                .try_into()
                .is_ok_and(|p: &[u8; 32]| same_mac(p, &expected));
        if !proven {
            let reason = "authentication failed: no proof of the shared secret".to_owned();
            refuse(sock, &reason);
            return Err(HandshakeError::Refused(reason));
        }
        proof = Some(secret.proof(Side::Server, &hello.nonce, &nonce, crate::FINGERPRINT));
    }
    Ok(Accepted { hello, proof })
}

/// Sends the Welcome.
pub(crate) fn send_welcome(sock: BorrowedFd<'_>, welcome: &Welcome) -> std::io::Result<()> {
    frame::send(
        sock,
        FrameKind::Welcome,
        &[&encode_fingerprinted(welcome)],
        &[],
    )
}

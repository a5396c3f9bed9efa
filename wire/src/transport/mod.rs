//! Transports: how batches reach a backend and how replies and events come back.
//!
//! | kind     | where the backend runs           | data plane                         |
//! |----------|----------------------------------|------------------------------------|
//! | `inproc` | the caller's thread, at flush    | the archive buffer itself          |
//! | `thread` | a render thread of this process  | an SPSC ring of batch slots        |
//!
//! Every transport carries the same archived batches; a backend cannot tell which one fed it
//! (the transport-parity test checks the bytes are identical). Steady-state frames never wait:
//! only a reply (`wait_reply`) blocks, and every such wait is counted as a round trip.

mod inproc;
mod ring;
mod thread;

pub use inproc::Inproc;
pub use thread::ThreadTransport;

use crate::backend::{Backend, BatchView, Event, Outbox, Reply, SessionError};
use crate::batch::{Encoder, access_batch};
use crate::record::ReplyId;

/// Which transport to use.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TransportKind {
    /// Apply in the calling thread at each flush.
    Inproc,
    /// Apply on a render thread.
    Thread,
}

impl TransportKind {
    /// Parses a `TESSERA_TRANSPORT` value (case-insensitive). Unknown values give `None`;
    /// the caller warns and falls back.
    pub fn parse(value: &str) -> Option<Self> {
        match value.trim().to_ascii_lowercase().as_str() {
            "inproc" | "in-process" | "direct" => Some(Self::Inproc),
            "thread" | "threaded" | "render-thread" => Some(Self::Thread),
            _ => None,
        }
    }

    /// The canonical name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Inproc => "inproc",
            Self::Thread => "thread",
        }
    }

    /// Reads `TESSERA_TRANSPORT`, warning about an unknown value; `inproc` when unset.
    pub fn from_env() -> Self {
        match std::env::var("TESSERA_TRANSPORT") {
            Ok(v) => Self::parse(&v).unwrap_or_else(|| {
                log::warn!("TESSERA_TRANSPORT={v:?} is not one of inproc, thread; using inproc");
                Self::Inproc
            }),
            Err(_) => Self::Inproc,
        }
    }
}

/// Counters a transport keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TransportStats {
    /// Batches submitted.
    pub batches: u64,
    /// Records submitted.
    pub records: u64,
    /// Archived record bytes submitted.
    pub record_bytes: u64,
    /// Stage bytes submitted.
    pub stage_bytes: u64,
    /// Times the client blocked waiting for the backend (replies, and ring space).
    pub blocking_waits: u64,
}

/// The session is over; every later call fails the same way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("session lost: {reason}")]
pub struct SessionLost {
    /// Why.
    pub reason: String,
}

/// The client's end of a session with a backend.
pub trait Transport: Send {
    /// Which transport this is.
    fn kind(&self) -> TransportKind;

    /// Hands the encoder's batch to the backend and leaves the encoder empty.
    fn submit(&mut self, encoder: &mut Encoder) -> Result<(), SessionLost>;

    /// Waits for reply `id` (its request must have been submitted).
    fn wait_reply(&mut self, id: ReplyId) -> Result<Reply, SessionLost>;

    /// Moves events the backend reported into `out`.
    fn take_events(&mut self, out: &mut Vec<Event>);

    /// Counters so far.
    fn stats(&self) -> TransportStats;
}

/// Creates a transport of `kind` in front of `backend`.
pub fn connect(kind: &TransportKind, backend: Box<dyn Backend>) -> Box<dyn Transport> {
    match kind {
        TransportKind::Inproc => Box::new(Inproc::new(backend)),
        TransportKind::Thread => Box::new(ThreadTransport::new(backend)),
    }
}

/// Validates one archived batch and applies it: the same code behind every transport.
pub(crate) fn apply_archived(
    backend: &mut dyn Backend,
    bytes: &[u8],
    stage: &[u8],
    out: &mut Outbox,
) -> Result<(), SessionError> {
    let archived = access_batch(bytes, stage)?;
    backend.apply(
        BatchView {
            archived,
            bytes,
            stage,
        },
        out,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_aliases_and_rejects_unknown() {
        assert_eq!(TransportKind::parse("INPROC"), Some(TransportKind::Inproc));
        assert_eq!(
            TransportKind::parse(" thread "),
            Some(TransportKind::Thread)
        );
        assert_eq!(
            TransportKind::parse("render-thread"),
            Some(TransportKind::Thread)
        );
        assert_eq!(TransportKind::parse("carrier-pigeon"), None);
    }
}

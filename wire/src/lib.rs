//! # tessera-wire
//!
//! The boundary between Tessera's GL frontend and its backends. This crate owns:
//!
//! - **handles** ([`handle`]): `{slot, generation}` names of objects, minted by the client;
//! - **records** ([`record`]): the gallium-shaped pipe records, and the state structs they
//!   carry ([`state`], [`format`](mod@format));
//! - **batches** ([`batch`]): records archived once per batch with rkyv, next to a separate
//!   stage area for bulk bytes;
//! - the [`Backend`] trait that consumes batches; the [`dispatch`]er that walks a batch once
//!   for every backend (decoding, span, handle and context checks) and calls the per-domain
//!   `Pipe` traits backends implement; the [`null`] backend;
//! - what backends share beyond the records: the per-kind object tables with their handle
//!   and range rules ([`table`]), a texture's images by level and face ([`images`]), the
//!   session's contexts and the state records set in each ([`context`]), client pixel sizes
//!   and conversions ([`pixel`]), and how options are read from the environment ([`env`](mod@env));
//! - **transports** ([`transport`]): how batches travel (`inproc`, `thread`) and how replies
//!   and events come back;
//! - the wire [`FINGERPRINT`].
//!
//! ## Invariants
//! - Nothing here depends on the frontend (`components`, `systems`, `engine`): a backend or a
//!   server links this crate and a backend only. A test checks it from `cargo metadata`.
//! - Records never carry pointers, addresses, file descriptors or GL names.
//! - Bytes that arrive are validated before use (rkyv with bytecheck, then every span against
//!   the stage, every handle against the dispatcher's registry). A violation ends the session with a
//!   [`SessionError`]; it never panics and never disturbs another session. The one exception is
//!   the archive a process hands its own backend (`inproc`, `thread`), which its own serializer
//!   just wrote: that is not bytechecked again; spans and handles still are.
//! - Every transport carries byte-identical batches for the same calls.
//!
//! ## What this crate must never do
//! Decide a GL error (the engine does, before a record exists), or block a steady-state frame
//! (only replies wait).

#![expect(
    unsafe_code,
    reason = "the SPSC ring hands batch slots between threads"
)]

pub mod backend;
pub mod batch;
pub mod blocks;
pub mod bptc;
pub mod capture;
pub mod census;
pub mod context;
pub mod dispatch;
pub mod env;
pub mod etc2;
pub mod fault;
pub mod fence;
pub mod format;
pub mod handle;
mod heap_ranges;
pub mod images;
pub mod null;
pub mod pixel;
pub mod record;
pub mod state;
pub mod table;
pub mod transport;

pub use backend::{
    Backend, BackendCounters, BatchView, Caps, ComputeCaps, Event, ExportedImageInfo,
    ExportedMemory, GatherCaps, HostImage, HostTexture, Outbox, Reply, SessionError, Shader5Caps,
    TessellationCaps,
};
pub use batch::{Archiver, Batch, Encoder, Stage};
pub use handle::{Handle, ObjectKind, RawHandle};
pub use record::{Record, ReplyId, Span};
pub use transport::{SessionLost, Transport, TransportKind, TransportStats};

/// Version of the wire protocol; bumped by hand for changes the schema hash cannot see
/// (a change of meaning with the same layout).
pub const WIRE_VERSION: u32 = 2;

/// Identifies the record schema, byte order and version. Two peers whose fingerprints differ
/// refuse each other at connect time.
///
/// It hashes the source text of every schema module, so any change to a record, state struct,
/// format or handle changes it — including harmless ones, which is the safe direction.
pub const FINGERPRINT: u64 = {
    let mut h = fnv1a(0xcbf2_9ce4_8422_2325, include_str!("record.rs").as_bytes());
    h = fnv1a(h, include_str!("state.rs").as_bytes());
    h = fnv1a(h, include_str!("format.rs").as_bytes());
    h = fnv1a(h, include_str!("handle.rs").as_bytes());
    h = fnv1a(h, include_str!("batch.rs").as_bytes());
    h = fnv1a(h, include_str!("backend.rs").as_bytes());
    h = fnv1a(h, &WIRE_VERSION.to_le_bytes());
    // Byte order and pointer width of the archive (fixed by the rkyv features we enable).
    fnv1a(h, b"rkyv-0.8 little_endian aligned pointer_width_32")
};

const fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

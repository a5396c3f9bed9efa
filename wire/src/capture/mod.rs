//! Capture and replay of the record stream.
//!
//! A capture is the batches a session's transport was handed, archived bytes and stage
//! bytes exactly as the transport saw them, behind a header naming the wire
//! [`FINGERPRINT`](crate::FINGERPRINT) and Tessera's version. **Capture is a transport
//! tap**: [`Capturing`] sits in front of any transport, archives each batch once more
//! (byte-identical to what the transport archives, rkyv being deterministic) and hands it to
//! a writer thread before the transport takes it. **Replay is a transport's client**:
//! [`CaptureReader`] reads the file a frame at a time and [`Replayer`] feeds the batches to a
//! backend through any [`Transport`], so through the one dispatcher every backend uses.
//!
//! ## File format
//! Eight magic bytes (`TSRCAPT1`), then chunks: a 16-byte head (kind `u32`, payload length
//! `u32`, checksum `u64` of the kind, length and payload, all little-endian), then the
//! payload:
//!
//! | kind | payload |
//! |---|---|
//! | header (first) | capture format `u32`, wire fingerprint `u64`, wire version `u32`, Tessera's version (`u16` length, UTF-8) |
//! | batch | archive length `u32`, the archive, the stage bytes (the rest) |
//! | frame end | frame index `u64`, batches in the frame `u32` |
//!
//! A frame is the batches up to and including one that holds a `Present` record. A reader
//! stops at the first chunk that is cut short or whose checksum is wrong, and replays only
//! frames whose frame-end chunk it read: a file cut anywhere (a crash, a kill) replays
//! every frame completed before the cut.
//!
//! ## Bounded memory
//! The writer thread takes batches through a channel of [`IN_FLIGHT`] slots; when it falls
//! behind, the producer waits (a blocking wait in the transport's counters), it never buffers
//! without bound. The writer hands the file each frame's bytes at its frame end (no fsync:
//! what the kernel holds survives the program being killed), so a killed program loses at
//! most the frames whose ends were still in the channel or the writer's hands:
//! [`IN_FLIGHT`] + 1.
//!
//! ## Capturing frames N..=M
//! With a frame range ([`FRAMES_VAR`], `TESSERA_CAPTURE_FRAMES=N..M`, both ends included;
//! `N..` to the end), the file holds frames `N` to `M` alone, numbered as the session
//! numbered them. Before frame `N` the tap only watches: a snapshot (the private `snapshot`
//! module) keeps the records that still decide the state of each live object and context,
//! so its memory is bounded by the live objects. When frame `N` starts, the tap reads every
//! live buffer and texture image back through the transport (what the GPU wrote into them
//! included) and writes, as the first batches of frame `N`, the kept records in their order
//! and the contents as writes. After frame `M` the tap hands batches on without writing
//! them.
//!
//! ## What a capture does not hold
//! The images: a replay reads back each presented surface itself ([`Replayer`]). Mappings in
//! a process transport's shared heap bypass the record stream, so a capturing transport
//! declines them (`Transport::heap_alloc` answers `None`) and persistent mappings keep client
//! memory, whose writes travel as records at the points the backend reads them. A capture
//! from frame N does not carry what the `snapshot` module lists.

mod snapshot;

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use rkyv::util::AlignedVec;

use crate::backend::{Event, NativeTarget, Reply};
use crate::batch::{Archiver, Encoder, STAGE_ALIGN, access_batch, decode_record};
use crate::fence::FenceMark;
use crate::format::{PixelFormat, PixelLayout, PixelType};
use crate::handle::SurfaceHandle;
use crate::record::{
    FramebufferRef, PixelDestination, ReadImage, ReadRegion, ReadSource, Record, ReplyId,
};
use crate::state::{Rect, SurfaceDesc};
use crate::transport::{
    ProbeSnapshot, ReplyWaiter, SessionLost, Transport, TransportKind, TransportStats, heap,
};

/// The first bytes of every capture file.
pub const MAGIC: [u8; 8] = *b"TSRCAPT1";

/// Version of the file layout (chunks and their payloads), bumped when it changes.
pub const FORMAT_VERSION: u32 = 1;

/// Batches the writer thread may be behind the program before the program waits.
pub const IN_FLIGHT: usize = 4;

/// Environment variable naming the file a context's share group captures into.
pub const VAR: &str = "TESSERA_CAPTURE";

/// Environment variable naming the frames a capture holds (`N..M`, both included; `N..`;
/// or `N`): the state at frame `N` is written as records first.
pub const FRAMES_VAR: &str = "TESSERA_CAPTURE_FRAMES";

/// Every frame, from the context's creation.
pub const ALL_FRAMES: RangeInclusive<u64> = 0..=u64::MAX;

/// Parses a frame range as [`FRAMES_VAR`] and `tessera-replay --frames` write it: `N..M`
/// (or `N..=M`) with both ends included, `N..` to the end, or `N` alone.
pub fn parse_frames(v: &str) -> Option<RangeInclusive<u64>> {
    let v = v.trim();
    match v.split_once("..") {
        Some((a, "")) => Some(a.parse().ok()?..=u64::MAX),
        Some((a, b)) => Some(a.parse().ok()?..=b.trim_start_matches('=').parse().ok()?),
        None => {
            let n = v.parse().ok()?;
            Some(n..=n)
        }
    }
}

/// First reply id of a capture's own read-backs (at frame `N`'s start): apart from the ids
/// a session mints and from a replay's.
const SNAPSHOT_REPLIES: u32 = 0xc000_0000;

/// Tessera's version, as written into capture headers.
pub const TESSERA_VERSION: &str = env!("CARGO_PKG_VERSION");

const CHUNK_HEADER: u32 = 1;
const CHUNK_BATCH: u32 = 2;
const CHUNK_FRAME: u32 = 3;
/// Largest chunk a reader accepts (a batch's stage is bounded by the batch limits; a
/// single upload past this is not captured whole, and the file ends there).
const MAX_CHUNK: u32 = 1 << 30;

/// A 64-bit checksum of `bytes` after `seed`, eight bytes at a time: detects a torn or
/// corrupted chunk (not an adversary).
fn checksum(seed: u64, bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = seed ^ (bytes.len() as u64).wrapping_mul(K);
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let v = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        h = (h ^ v).wrapping_mul(K).rotate_left(29);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(K).rotate_left(29);
    }
    h ^ (h >> 31)
}

fn chunk_check(kind: u32, payload: &[u8]) -> u64 {
    checksum(
        u64::from(kind) << 32 | payload.len() as u64 & 0xffff_ffff,
        payload,
    )
}

/// Writes one chunk; `parts` are its payload, concatenated.
fn write_chunk(out: &mut impl Write, kind: u32, parts: &[&[u8]]) -> io::Result<()> {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    let check = if parts.len() == 1 {
        chunk_check(kind, parts[0])
    } else {
        chunk_check(kind, &parts.concat())
    };
    let len = u32::try_from(len)
        .ok()
        .filter(|l| *l <= MAX_CHUNK)
        .ok_or_else(|| io::Error::other("a batch too large to capture"))?;
    let mut head = [0u8; 16];
    head[..4].copy_from_slice(&kind.to_le_bytes());
    head[4..8].copy_from_slice(&len.to_le_bytes());
    head[8..].copy_from_slice(&check.to_le_bytes());
    out.write_all(&head)?;
    for p in parts {
        out.write_all(p)?;
    }
    Ok(())
}

/// What a capture's header says about the build that wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The file layout's version ([`FORMAT_VERSION`]).
    pub format: u32,
    /// The wire fingerprint of the records ([`crate::FINGERPRINT`]).
    pub fingerprint: u64,
    /// The wire version ([`crate::WIRE_VERSION`]).
    pub wire_version: u32,
    /// Tessera's version.
    pub tessera: String,
}

impl Header {
    /// The header this build writes.
    pub fn current() -> Self {
        Self {
            format: FORMAT_VERSION,
            fingerprint: crate::FINGERPRINT,
            wire_version: crate::WIRE_VERSION,
            tessera: TESSERA_VERSION.to_owned(),
        }
    }

    fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(32);
        v.extend_from_slice(&self.format.to_le_bytes());
        v.extend_from_slice(&self.fingerprint.to_le_bytes());
        v.extend_from_slice(&self.wire_version.to_le_bytes());
        let name = &self.tessera.as_bytes()[..self.tessera.len().min(u16::MAX as usize)];
        v.extend_from_slice(&(name.len() as u16).to_le_bytes());
        v.extend_from_slice(name);
        v
    }

    fn decode(p: &[u8]) -> Option<Self> {
        let format = u32::from_le_bytes(p.get(0..4)?.try_into().ok()?);
        let fingerprint = u64::from_le_bytes(p.get(4..12)?.try_into().ok()?);
        let wire_version = u32::from_le_bytes(p.get(12..16)?.try_into().ok()?);
        let n = u16::from_le_bytes(p.get(16..18)?.try_into().ok()?) as usize;
        let tessera = String::from_utf8_lossy(p.get(18..18 + n)?).into_owned();
        Some(Self {
            format,
            fingerprint,
            wire_version,
            tessera,
        })
    }

    /// Whether this build can replay a capture with this header: the same file layout and
    /// the same record schema.
    pub fn compatible(&self) -> bool {
        let now = Self::current();
        self.format == now.format
            && self.fingerprint == now.fingerprint
            && self.wire_version == now.wire_version
    }
}

/// Why a capture cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// The file could not be read.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The file is not a capture (wrong magic, or no readable header).
    #[error("not a Tessera capture: {0}")]
    NotACapture(String),
    /// The capture was written by a build whose records differ from this one's.
    #[error(
        "the capture was written by Tessera {} (capture format {}, wire version {}, \
         wire fingerprint {:#018x}); this is Tessera {} (capture format {}, wire version {}, \
         wire fingerprint {:#018x}): its records cannot be replayed here",
        .found.tessera, .found.format, .found.wire_version, .found.fingerprint,
        .ours.tessera, .ours.format, .ours.wire_version, .ours.fingerprint
    )]
    Incompatible {
        /// What the file says.
        found: Header,
        /// This build.
        ours: Header,
    },
}

// ---------------------------------------------------------------------------------------
// Capture

/// A batch on its way to the writer thread.
struct Pending {
    archive: Vec<u8>,
    stage: Vec<u8>,
    frame_end: bool,
}

/// Paths capturing in this process, so a second share group given the same path writes
/// `PATH.1`, `PATH.2`, … instead of into the same file.
static IN_USE: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

fn claim_path(path: &Path) -> PathBuf {
    let mut in_use = IN_USE.lock().unwrap_or_else(PoisonError::into_inner);
    let set = in_use.get_or_insert_with(HashSet::new);
    let mut n = 0u32;
    loop {
        let candidate = if n == 0 {
            path.to_owned()
        } else {
            let mut s = path.as_os_str().to_owned();
            s.push(format!(".{n}"));
            PathBuf::from(s)
        };
        if set.insert(candidate.clone()) {
            return candidate;
        }
        n += 1;
    }
}

fn release_path(path: &Path) {
    if let Some(set) = IN_USE
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .as_mut()
    {
        set.remove(path);
    }
}

/// The writer thread: a chunk per batch, a frame-end chunk after each frame's last batch,
/// and the bytes handed to the file at each frame end.
fn write_loop(mut out: BufWriter<File>, rx: &Receiver<Pending>, path: &Path, first: u64) {
    let mut frame = first;
    let mut batches = 0u32;
    let result = (|| -> io::Result<()> {
        for p in rx {
            let len = (p.archive.len() as u32).to_le_bytes();
            write_chunk(&mut out, CHUNK_BATCH, &[&len, &p.archive, &p.stage])?;
            batches += 1;
            if p.frame_end {
                let mut payload = [0u8; 12];
                payload[..8].copy_from_slice(&frame.to_le_bytes());
                payload[8..].copy_from_slice(&batches.to_le_bytes());
                write_chunk(&mut out, CHUNK_FRAME, &[&payload])?;
                out.flush()?;
                frame += 1;
                batches = 0;
            }
        }
        out.flush()
    })();
    if let Err(e) = result {
        log::error!(
            "tessera: capture into {} stopped after {frame} frames: {e}",
            path.display()
        );
    }
}

/// Creates the capture file, writes its magic and header, and starts the writer thread.
fn start_writer(path: &Path, first: u64) -> io::Result<(SyncSender<Pending>, JoinHandle<()>)> {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
    out.write_all(&MAGIC)?;
    write_chunk(&mut out, CHUNK_HEADER, &[&Header::current().encode()])?;
    out.flush()?;
    let (tx, rx) = sync_channel(IN_FLIGHT);
    let thread_path = path.to_owned();
    let writer = std::thread::Builder::new()
        .name("tessera-capture".to_owned())
        .spawn(move || write_loop(out, &rx, &thread_path, first))?;
    Ok((tx, writer))
}

/// A transport that writes every batch it is handed into a capture file, then hands it to
/// the transport it wraps (see the [module docs](self)).
pub struct Capturing {
    inner: Box<dyn Transport>,
    archiver: Archiver,
    archive: AlignedVec<STAGE_ALIGN>,
    tx: Option<SyncSender<Pending>>,
    writer: Option<JoinHandle<()>>,
    path: PathBuf,
    waits: u64,
    /// The frames written.
    frames: RangeInclusive<u64>,
    /// The session's frame now.
    frame: u64,
    /// Before the first frame written: what the state is.
    snapshot: Option<Box<snapshot::Snapshot>>,
}

impl Capturing {
    /// Starts capturing `inner`'s batches into `path` (or `path.N` when another share group
    /// of this process captures into `path`): creates the file, writes its header and
    /// starts the writer thread. On an error `inner` is handed back with it.
    pub fn new(
        inner: Box<dyn Transport>,
        path: &Path,
    ) -> Result<Self, (Box<dyn Transport>, io::Error)> {
        Self::with_frames(inner, path, ALL_FRAMES)
    }

    /// [`Capturing::new`] writing only `frames` (see the [module docs](self)).
    pub fn with_frames(
        inner: Box<dyn Transport>,
        path: &Path,
        frames: RangeInclusive<u64>,
    ) -> Result<Self, (Box<dyn Transport>, io::Error)> {
        let path = claim_path(path);
        match start_writer(&path, *frames.start()) {
            Ok((tx, writer)) => {
                log::info!(
                    "tessera: capturing the record stream into {}",
                    path.display()
                );
                Ok(Self {
                    inner,
                    archiver: Archiver::default(),
                    archive: AlignedVec::with_capacity(64 << 10),
                    tx: Some(tx),
                    writer: Some(writer),
                    path,
                    waits: 0,
                    snapshot: (*frames.start() > 0).then(Box::default),
                    frames,
                    frame: 0,
                })
            }
            Err(e) => {
                release_path(&path);
                Err((inner, e))
            }
        }
    }

    /// `inner` capturing `frames` into `path`, or `inner` alone (with an error logged) when the file
    /// cannot be created: a capture that cannot start does not stop the program.
    pub fn wrap(
        inner: Box<dyn Transport>,
        path: &Path,
        frames: RangeInclusive<u64>,
    ) -> Box<dyn Transport> {
        match Self::with_frames(inner, path, frames) {
            Ok(c) => Box::new(c),
            Err((inner, e)) => {
                log::error!("tessera: cannot capture into {}: {e}", path.display());
                inner
            }
        }
    }

    /// The file this transport captures into.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn record(&mut self, encoder: &mut Encoder, frame_end: bool) {
        if self.tx.is_none() {
            return;
        }
        let stage = encoder
            .archive_pending(&mut self.archiver, &mut self.archive)
            .to_vec();
        let pending = Pending {
            archive: self.archive.to_vec(),
            stage,
            frame_end,
        };
        self.send(pending);
    }

    /// Hands a batch to the writer thread, waiting while it is [`IN_FLIGHT`] behind.
    fn send(&mut self, pending: Pending) {
        let Some(tx) = &self.tx else { return };
        let sent = match tx.try_send(pending) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(p)) => {
                self.waits += 1;
                tx.send(p).map_err(|_| ())
            }
            Err(TrySendError::Disconnected(_)) => Err(()),
        };
        if sent.is_err() {
            // The writer stopped (and said why); the program goes on uncaptured.
            self.tx = None;
        }
    }
}

impl Capturing {
    /// Starts writing at the first frame of the range: the state the frames before left,
    /// as records ([`snapshot`]), goes first. `encoder` is the session's, empty: the
    /// read-backs go through it.
    fn start(&mut self, encoder: &mut Encoder) -> Result<(), SessionLost> {
        let Some(mut snapshot) = self.snapshot.take() else {
            return Ok(());
        };
        let carries = snapshot.carries(SNAPSHOT_REPLIES);
        for n in snapshot.uncarried() {
            log::warn!(
                "tessera: the capture from frame {} does not carry {n}",
                self.frames.start()
            );
        }
        let mut pre = Encoder::new();
        let mut batches = Vec::new();
        snapshot.records(&mut pre, |pre| batches.push(take(pre, &mut self.archiver)));
        // The contents, read back in batches of bounded size so that the snapshot never
        // holds more than one batch's bytes besides what the writer holds.
        let mut at = 0;
        while at < carries.len() {
            let mut end = at;
            let mut bytes = 0u64;
            while end < carries.len()
                && (end == at || bytes < crate::batch::STAGE_SOFT_LIMIT as u64)
            {
                bytes += carries[end].bytes;
                encoder.push(carries[end].read.clone());
                end += 1;
            }
            self.inner.submit(encoder)?;
            for carry in &carries[at..end] {
                self.waits += 1;
                match self.inner.wait_reply(carry.reply)? {
                    Reply::Bytes(data) => {
                        let write = carry.write(&mut pre, &data);
                        pre.push(write);
                    }
                    other => log::warn!(
                        "tessera: the capture from frame {} could not read an object back: {other:?}",
                        self.frames.start()
                    ),
                }
                if pre.is_full() {
                    batches.push(take(&mut pre, &mut self.archiver));
                }
            }
            for p in batches.drain(..) {
                self.send(p);
            }
            at = end;
        }
        if !pre.is_empty() {
            batches.push(take(&mut pre, &mut self.archiver));
        }
        for p in batches.drain(..) {
            self.send(p);
        }
        Ok(())
    }
}

/// Archives what `pre` holds as a batch for the writer.
fn take(pre: &mut Encoder, archiver: &mut Archiver) -> Pending {
    let mut archive = AlignedVec::new();
    let mut stage = Vec::new();
    pre.finish(archiver, &mut archive, &mut stage);
    Pending {
        archive: archive.to_vec(),
        stage,
        frame_end: false,
    }
}

/// Whether a batch ends a frame (holds a `Present`).
fn ends_frame(encoder: &Encoder) -> bool {
    encoder
        .records()
        .iter()
        .any(|r| matches!(r, Record::Present { .. }))
}

impl Drop for Capturing {
    fn drop(&mut self) {
        self.tx = None;
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
        release_path(&self.path);
    }
}

impl Transport for Capturing {
    fn kind(&self) -> TransportKind {
        self.inner.kind()
    }

    fn submit(&mut self, encoder: &mut Encoder) -> Result<(), SessionLost> {
        let frame_end = ends_frame(encoder);
        if let Some(snapshot) = &mut self.snapshot {
            let stage = encoder.stage_bytes();
            for r in encoder.records() {
                snapshot.observe(r, stage);
            }
        } else if self.frames.contains(&self.frame) {
            self.record(encoder, frame_end);
        }
        self.inner.submit(encoder)?;
        if frame_end {
            self.frame += 1;
            if self.frame == *self.frames.start() {
                self.start(encoder)?;
            } else if self.frame > *self.frames.end() && self.tx.take().is_some() {
                log::info!(
                    "tessera: captured frames {}..={} into {}",
                    self.frames.start(),
                    self.frames.end(),
                    self.path.display()
                );
            }
        }
        Ok(())
    }

    fn wait_reply(&mut self, id: ReplyId) -> Result<Reply, SessionLost> {
        self.inner.wait_reply(id)
    }

    fn take_events(&mut self, out: &mut Vec<Event>) {
        self.inner.take_events(out);
    }

    fn fence_mark(&self) -> Arc<FenceMark> {
        self.inner.fence_mark()
    }

    fn poll_fences(&mut self, timeout_ns: u64) -> bool {
        self.inner.poll_fences(timeout_ns)
    }

    /// Declined: bytes in the shared heap would bypass the capture.
    fn heap_alloc(&mut self, _len: usize, _offset: u64) -> Option<heap::HeapBlock> {
        None
    }

    fn heap_free(&mut self, block: heap::HeapBlock) {
        self.inner.heap_free(block);
    }

    fn reply_waiter(&mut self) -> Option<Box<dyn ReplyWaiter>> {
        self.inner.reply_waiter()
    }

    fn stats(&self) -> TransportStats {
        let mut s = self.inner.stats();
        s.blocking_waits += self.waits;
        s
    }

    fn probe(&mut self) -> Result<Option<ProbeSnapshot>, SessionLost> {
        self.inner.probe()
    }

    fn release_thread(&mut self) {
        self.inner.release_thread();
    }

    fn attach_window(
        &mut self,
        surface: SurfaceHandle,
        window: Option<NativeTarget>,
        interval: i32,
    ) -> bool {
        self.inner.attach_window(surface, window, interval)
    }

    fn window_attached(&mut self, surface: SurfaceHandle) -> bool {
        self.inner.window_attached(surface)
    }
}

// ---------------------------------------------------------------------------------------
// Reading

/// One batch of a capture: its archive (16-byte aligned, as the dispatcher wants it) and
/// its stage bytes.
pub struct CapturedBatch {
    /// The archived records.
    pub archive: AlignedVec<STAGE_ALIGN>,
    /// The stage bytes.
    pub stage: Vec<u8>,
}

/// One complete frame of a capture.
pub struct CapturedFrame {
    /// Index of the frame in the capture, from 0.
    pub index: u64,
    /// Its batches; the last holds its `Present`.
    pub batches: Vec<CapturedBatch>,
}

impl CapturedFrame {
    /// The kind (variant name, as `Draw` or `Present`) of each of the frame's records, in
    /// order; a record that does not decode is `?`. `tessera-replay --bisect` names the
    /// record it finds by its index in this list and its kind.
    pub fn record_kinds(&self) -> Vec<String> {
        let mut kinds = Vec::new();
        for b in &self.batches {
            let Ok(batch) = access_batch(&b.archive, &b.stage) else {
                continue;
            };
            for r in batch.records.iter() {
                kinds.push(decode_record(r).map_or_else(
                    |_| "?".to_owned(),
                    |rec| {
                        let name = format!("{rec:?}");
                        name.split([' ', '{', '('])
                            .next()
                            .unwrap_or_default()
                            .to_owned()
                    },
                ));
            }
        }
        kinds
    }

    /// The surface this frame presents, if its `Present` decodes.
    fn presented(&self) -> Option<SurfaceHandle> {
        for b in &self.batches {
            let batch = access_batch(&b.archive, &b.stage).ok()?;
            for r in batch.records.iter() {
                if let Ok(Record::Present { surface }) = decode_record(r) {
                    return Some(surface);
                }
            }
        }
        None
    }
}

/// Reads a capture a frame at a time (only one frame's batches are held).
pub struct CaptureReader {
    input: BufReader<File>,
    header: Header,
    /// Why reading stopped before the end of the file, once it has.
    stopped: Option<String>,
    /// Batches read after the last complete frame (not replayed).
    trailing: usize,
}

impl CaptureReader {
    /// Opens a capture and checks its header: a capture of another record schema or file
    /// layout is refused, naming both builds.
    pub fn open(path: &Path) -> Result<Self, CaptureError> {
        let mut input = BufReader::with_capacity(1 << 20, File::open(path)?);
        let mut magic = [0u8; 8];
        input
            .read_exact(&mut magic)
            .map_err(|_| CaptureError::NotACapture("shorter than its magic bytes".into()))?;
        if magic != MAGIC {
            return Err(CaptureError::NotACapture(format!(
                "starts with {magic:02x?}, not {MAGIC:02x?}"
            )));
        }
        let header = match read_chunk(&mut input) {
            Chunk::Whole(CHUNK_HEADER, p) => Header::decode(&p),
            _ => None,
        }
        .ok_or_else(|| CaptureError::NotACapture("no readable header".into()))?;
        if !header.compatible() {
            return Err(CaptureError::Incompatible {
                found: header,
                ours: Header::current(),
            });
        }
        Ok(Self {
            input,
            header,
            stopped: None,
            trailing: 0,
        })
    }

    /// The capture's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Why reading stopped before the end of the file (a chunk cut short or corrupt: the
    /// program died while writing it, or the file was damaged); `None` after a clean end
    /// or before the end.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// Batches read after the last complete frame, once reading ended: not replayed, as no
    /// `Present` ends them (a program's last work after its last swap, or a frame cut short).
    pub fn trailing(&self) -> usize {
        self.trailing
    }

    /// The next complete frame, or `None` at the end of the file or at the first chunk
    /// that is cut short or corrupt ([`CaptureReader::stopped`] says which).
    pub fn next_frame(&mut self) -> Option<CapturedFrame> {
        let mut batches = Vec::new();
        loop {
            match read_chunk(&mut self.input) {
                Chunk::End => {
                    self.trailing = batches.len();
                    return None;
                }
                Chunk::Bad(why) => {
                    self.stopped = Some(why);
                    self.trailing = batches.len();
                    return None;
                }
                Chunk::Whole(CHUNK_BATCH, p) => match split_batch(&p) {
                    Some(b) => batches.push(b),
                    None => {
                        self.stopped = Some("a malformed batch chunk".to_owned());
                        self.trailing = batches.len();
                        return None;
                    }
                },
                Chunk::Whole(CHUNK_FRAME, p) if p.len() == 12 => {
                    let index = u64::from_le_bytes(p[..8].try_into().unwrap_or_default());
                    return Some(CapturedFrame { index, batches });
                }
                // Chunk kinds of later formats are skipped.
                Chunk::Whole(..) => {}
            }
        }
    }
}

fn split_batch(p: &[u8]) -> Option<CapturedBatch> {
    let n = u32::from_le_bytes(p.get(..4)?.try_into().ok()?) as usize;
    let archive_bytes = p.get(4..4usize.checked_add(n)?)?;
    let mut archive = AlignedVec::with_capacity(n);
    archive.extend_from_slice(archive_bytes);
    Some(CapturedBatch {
        archive,
        stage: p[4 + n..].to_vec(),
    })
}

enum Chunk {
    Whole(u32, Vec<u8>),
    End,
    Bad(String),
}

fn read_chunk(input: &mut impl Read) -> Chunk {
    let mut head = [0u8; 16];
    match read_full(input, &mut head) {
        Ok(0) => return Chunk::End,
        Ok(16) => {}
        Ok(_) => return Chunk::Bad("the file is cut inside a chunk's head".to_owned()),
        Err(e) => return Chunk::Bad(format!("read error: {e}")),
    }
    let kind = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    let len = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
    let check = u64::from_le_bytes(head[8..].try_into().unwrap_or_default());
    if len > MAX_CHUNK {
        return Chunk::Bad(format!("a chunk claims {len} bytes"));
    }
    let mut payload = vec![0u8; len as usize];
    match read_full(input, &mut payload) {
        Ok(n) if n == payload.len() => {}
        Ok(_) => return Chunk::Bad("the file is cut inside a chunk".to_owned()),
        Err(e) => return Chunk::Bad(format!("read error: {e}")),
    }
    if chunk_check(kind, &payload) != check {
        return Chunk::Bad("a chunk's checksum does not match".to_owned());
    }
    Chunk::Whole(kind, payload)
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

// ---------------------------------------------------------------------------------------
// Replay

/// The image of a presented surface, as a replay reads it back just before its `Present`:
/// RGBA8 rows from the bottom up, tightly packed (what `glReadPixels(0, 0, w, h, GL_RGBA,
/// GL_UNSIGNED_BYTE)` returns).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels.
    pub rgba: Vec<u8>,
}

impl FrameImage {
    /// FNV-1a (64-bit) over the RGBA8 bytes: the frame hash `tessera-replay` prints, equal
    /// to a program's own hash of the same `glReadPixels` bytes.
    pub fn hash(&self) -> u64 {
        image_hash(&self.rgba)
    }
}

/// FNV-1a (64-bit) over `bytes`: the hash of a frame's RGBA8 pixels ([`FrameImage::hash`]).
pub fn image_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// What replaying one frame did.
#[derive(Clone, Debug)]
pub struct ReplayedFrame {
    /// Index of the frame in the capture.
    pub index: u64,
    /// Batches replayed.
    pub batches: usize,
    /// Records replayed (the capture's, without the replay's read-backs).
    pub records: u64,
    /// The presented surface's image (`None` without read-back, or for a surface without
    /// colour).
    pub image: Option<FrameImage>,
}

/// Why a replay stopped.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A captured batch did not decode (a capture whose chunk checksums matched but whose
    /// records do not: written by a broken build).
    #[error("frame {frame}: {reason}")]
    Malformed {
        /// Frame index.
        frame: u64,
        /// Why.
        reason: String,
    },
    /// The backend ended the session.
    #[error("frame {frame}: {lost}")]
    Lost {
        /// Frame index.
        frame: u64,
        /// The session's end.
        lost: SessionLost,
    },
}

/// First reply id of the replay's own read-backs: far above any id a captured session
/// minted, so the two never meet.
const REPLAY_REPLIES: u32 = 0x8000_0000;

/// Feeds a capture's frames to a backend through a transport.
///
/// Each captured batch is decoded and pushed into an encoder with its stage bytes at the
/// same offsets, so the transport archives the same bytes the program's transport did (any
/// transport kind replays any capture). With read-back on, a `ReadPixels` of the presented
/// surface's colour image is inserted right before each `Present`; otherwise a `Finish`
/// ends each frame, so that every frame's work is done (and its CPU counted) before the next.
pub struct Replayer {
    transport: Box<dyn Transport>,
    encoder: Encoder,
    surfaces: HashMap<SurfaceHandle, SurfaceDesc>,
    next_reply: u32,
    events: Vec<Event>,
    /// Draws replayed so far, and the one left out ([`Replayer::skip_draw`]).
    draws: u64,
    skip_draw: Option<u64>,
}

impl Replayer {
    /// A replayer feeding `transport` (made with [`crate::transport::connect`] in front of
    /// the backend to replay on).
    pub fn new(transport: Box<dyn Transport>) -> Self {
        Self {
            transport,
            encoder: Encoder::new(),
            surfaces: HashMap::new(),
            next_reply: REPLAY_REPLIES,
            events: Vec::new(),
            draws: 0,
            skip_draw: None,
        }
    }

    /// Leaves the `nth` draw record of the replay (from 0, `Draw` and `DrawIndexed`
    /// counted) out: a fault injected so that one replay mis-renders one record, which
    /// exists to test comparisons between replays (`tessera-replay --compare`).
    pub fn skip_draw(&mut self, nth: u64) {
        self.skip_draw = Some(nth);
    }

    /// The transport's counters.
    pub fn stats(&self) -> TransportStats {
        self.transport.stats()
    }

    /// Replays one frame; with `read_back`, reads back the surface it presents.
    pub fn replay(
        &mut self,
        frame: &CapturedFrame,
        read_back: bool,
    ) -> Result<ReplayedFrame, ReplayError> {
        self.run(frame, read_back, None)
    }

    /// Replays only the first `records` records of `frame` and reads back the surface the
    /// frame presents as they left it (its image is `None` for a frame without a colour
    /// surface). The frame is left unfinished, so this is a replayer's last call:
    /// `tessera-replay --bisect` makes a fresh replayer for each prefix it tries.
    pub fn replay_prefix(
        &mut self,
        frame: &CapturedFrame,
        records: u64,
    ) -> Result<ReplayedFrame, ReplayError> {
        self.run(frame, false, Some(records))
    }

    /// [`Replayer::replay`], or with `until`, [`Replayer::replay_prefix`].
    fn run(
        &mut self,
        frame: &CapturedFrame,
        read_back: bool,
        until: Option<u64>,
    ) -> Result<ReplayedFrame, ReplayError> {
        let target = until.and(frame.presented());
        let mut cut = false;
        let malformed = |reason: String| ReplayError::Malformed {
            frame: frame.index,
            reason,
        };
        let mut records = 0u64;
        let mut reads: Vec<(ReplyId, u32, u32)> = Vec::new();
        for b in &frame.batches {
            let batch = access_batch(&b.archive, &b.stage).map_err(|e| malformed(e.to_string()))?;
            // An empty encoder puts the stage at offset 0: every captured span stays valid.
            if !b.stage.is_empty() {
                self.encoder.stage(&b.stage);
            }
            for r in batch.records.iter() {
                if until.is_some_and(|n| records >= n) {
                    cut = true;
                    break;
                }
                let record = decode_record(r).map_err(|e| malformed(e.to_string()))?;
                records += 1;
                match &record {
                    Record::CreateSurface { surface, desc } => {
                        self.surfaces.insert(*surface, *desc);
                    }
                    Record::DestroySurface { surface } => {
                        self.surfaces.remove(surface);
                    }
                    Record::Present { surface } if read_back => {
                        if let Some(desc) = self.surfaces.get(surface).filter(|d| d.color.is_some())
                        {
                            let reply = ReplyId(self.next_reply);
                            self.next_reply = self.next_reply.wrapping_add(1).max(REPLAY_REPLIES);
                            self.encoder.push(read_surface(
                                *surface,
                                desc.width,
                                desc.height,
                                reply,
                            ));
                            reads.push((reply, desc.width, desc.height));
                        }
                    }
                    Record::Draw { .. } | Record::DrawIndexed { .. } => {
                        self.draws += 1;
                        if self.skip_draw == Some(self.draws - 1) {
                            continue;
                        }
                    }
                    _ => {}
                }
                self.encoder.push(record);
            }
            let last = frame.batches.last().is_some_and(|l| std::ptr::eq(l, b));
            if until.is_some() && (cut || last) {
                cut = true;
                if let Some(desc) = target
                    .and_then(|t| self.surfaces.get(&t).map(|d| (t, *d)))
                    .filter(|(_, d)| d.color.is_some())
                {
                    let reply = ReplyId(self.next_reply);
                    self.next_reply = self.next_reply.wrapping_add(1).max(REPLAY_REPLIES);
                    self.encoder
                        .push(read_surface(desc.0, desc.1.width, desc.1.height, reply));
                    reads.push((reply, desc.1.width, desc.1.height));
                }
            }
            if (last || cut) && reads.is_empty() {
                let reply = ReplyId(self.next_reply);
                self.next_reply = self.next_reply.wrapping_add(1).max(REPLAY_REPLIES);
                self.encoder.push(Record::Finish { reply });
                reads.push((reply, 0, 0));
            }
            let lost = |lost| ReplayError::Lost {
                frame: frame.index,
                lost,
            };
            self.transport.submit(&mut self.encoder).map_err(lost)?;
            self.events.clear();
            self.transport.take_events(&mut self.events);
            if let Some(Event::SessionEnded { reason }) = self
                .events
                .iter()
                .find(|e| matches!(e, Event::SessionEnded { .. }))
            {
                return Err(lost(SessionLost {
                    reason: reason.clone(),
                }));
            }
            if cut {
                break;
            }
        }
        let mut image = None;
        for (reply, width, height) in reads {
            let answer = self
                .transport
                .wait_reply(reply)
                .map_err(|lost| ReplayError::Lost {
                    frame: frame.index,
                    lost,
                })?;
            if let Reply::Bytes(rgba) = answer {
                image = Some(FrameImage {
                    width,
                    height,
                    rgba,
                });
            }
        }
        Ok(ReplayedFrame {
            index: frame.index,
            batches: frame.batches.len(),
            records,
            image,
        })
    }
}

/// A read-back of a surface's whole colour image as RGBA8 into reply `reply`.
fn read_surface(surface: SurfaceHandle, width: u32, height: u32, reply: ReplyId) -> Record {
    Record::ReadPixels {
        src: ReadSource {
            framebuffer: FramebufferRef::Surface(surface),
            image: ReadImage::Color(0),
        },
        layout: PixelLayout {
            format: PixelFormat::Rgba,
            ty: PixelType::U8,
        },
        region: Box::new(ReadRegion {
            rect: Rect {
                x: 0,
                y: 0,
                width: width as i32,
                height: height as i32,
            },
            dst: PixelDestination::Reply(reply),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::null::NullBackend;
    use crate::transport::connect;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("tessera-capture-{}-{name}", std::process::id()))
    }

    fn surface() -> SurfaceHandle {
        SurfaceHandle {
            slot: 1,
            generation: 1,
        }
    }

    /// Three frames of two batches each through a capturing inproc transport to a null
    /// backend.
    fn capture(path: &Path) {
        let (backend, _) = NullBackend::new(false);
        let inner = connect(&TransportKind::Inproc, Box::new(backend));
        let mut t = Capturing::new(inner, path)
            .map_err(|e| e.1)
            .expect("capture file");
        let mut enc = Encoder::new();
        enc.push(Record::CreateContext { context: 1 });
        enc.push(Record::SetContext { context: 1 });
        enc.push(Record::CreateSurface {
            surface: surface(),
            desc: SurfaceDesc {
                width: 2,
                height: 2,
                color: Some(crate::format::Format::Rgba8),
                depth_stencil: None,
                samples: 0,
            },
        });
        t.submit(&mut enc).unwrap();
        for _ in 0..3 {
            enc.push(Record::Flush);
            t.submit(&mut enc).unwrap();
            enc.push(Record::Present { surface: surface() });
            t.submit(&mut enc).unwrap();
        }
        // A batch after the last frame: not a frame.
        enc.push(Record::Flush);
        t.submit(&mut enc).unwrap();
    }

    #[test]
    fn frames_round_trip_and_replay() {
        let path = temp("round-trip");
        capture(&path);
        let mut reader = CaptureReader::open(&path).unwrap();
        assert_eq!(reader.header(), &Header::current());
        let (backend, probe) = NullBackend::new(false);
        let mut replayer = Replayer::new(connect(&TransportKind::Inproc, Box::new(backend)));
        let mut frames = Vec::new();
        while let Some(f) = reader.next_frame() {
            frames.push(replayer.replay(&f, false).unwrap());
        }
        assert_eq!(
            frames
                .iter()
                .map(|f| (f.index, f.batches, f.records))
                .collect::<Vec<_>>(),
            [(0, 3, 5), (1, 2, 2), (2, 2, 2)]
        );
        assert_eq!(reader.stopped(), None);
        assert_eq!(reader.trailing(), 1);
        // 9 captured records and a Finish per frame reached the backend.
        assert_eq!(probe.stats().records, 9 + 3);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_file_cut_anywhere_keeps_the_frames_before_the_cut() {
        let path = temp("cut");
        capture(&path);
        let whole = std::fs::read(&path).unwrap();
        let cut = temp("cut-short");
        let mut seen = Vec::new();
        for len in 0..=whole.len() {
            std::fs::write(&cut, &whole[..len]).unwrap();
            let frames = match CaptureReader::open(&cut) {
                Ok(mut r) => std::iter::from_fn(|| r.next_frame()).count(),
                Err(CaptureError::NotACapture(_)) => 0,
                Err(e) => panic!("{e}"),
            };
            seen.push(frames);
        }
        // Never fewer frames for more bytes, all three with the whole file.
        assert!(seen.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(seen.last(), Some(&3));
        // A flipped bit in the middle stops the reader there.
        let mut bad = whole.clone();
        let at = bad.len() / 2;
        bad[at] ^= 0x40;
        std::fs::write(&cut, &bad).unwrap();
        let mut r = CaptureReader::open(&cut).unwrap();
        assert!(std::iter::from_fn(|| r.next_frame()).count() < 3);
        std::fs::remove_file(&path).unwrap();
        std::fs::remove_file(&cut).unwrap();
    }

    #[test]
    fn another_build_s_capture_is_refused_naming_both() {
        let path = temp("other-build");
        let mut f = File::create(&path).unwrap();
        f.write_all(&MAGIC).unwrap();
        let other = Header {
            fingerprint: crate::FINGERPRINT ^ 1,
            tessera: "0.0.1".to_owned(),
            ..Header::current()
        };
        write_chunk(&mut f, CHUNK_HEADER, &[&other.encode()]).unwrap();
        drop(f);
        let e = CaptureReader::open(&path).err().expect("refused");
        let msg = e.to_string();
        assert!(msg.contains("Tessera 0.0.1"), "{msg}");
        assert!(msg.contains(&format!("Tessera {TESSERA_VERSION}")), "{msg}");
        assert!(
            msg.contains(&format!("{:#018x}", crate::FINGERPRINT ^ 1)),
            "{msg}"
        );
        assert!(
            msg.contains(&format!("{:#018x}", crate::FINGERPRINT)),
            "{msg}"
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_second_capture_of_one_path_gets_its_own_file() {
        let path = temp("numbered");
        let a = claim_path(&path);
        let b = claim_path(&path);
        assert_eq!(a, path);
        assert_eq!(b, PathBuf::from(format!("{}.1", path.display())));
        release_path(&a);
        release_path(&b);
        assert_eq!(claim_path(&path), path);
        release_path(&path);
    }
}

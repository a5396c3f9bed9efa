//! Batches: records plus a separate stage area, archived with rkyv once per batch.
//!
//! The client appends records to an [`Encoder`] and copies bulk bytes (buffer data, texture
//! images, uniform values, SPIR-V) into its stage area, getting a [`Span`] back. At a flush
//! point the transport archives the records once into its own buffer (a ring slot, a frame)
//! and hands the stage bytes over alongside; the encoder is then empty again and keeps its
//! allocations.
//!
//! The receiving side validates the archive ([`access_batch`]) and checks every span against
//! the stage it actually received ([`Stage::get`]): the bytes may have come from another
//! process. A transport that applies its own process's batch (`inproc`, `thread`) skips only
//! the archive's validation ([`access_own_batch`]).

use rkyv::rancor;
use rkyv::util::AlignedVec;
use rkyv::{Archive, Deserialize, Serialize};

use crate::handle::BufferHandle;
use crate::record::{Record, ReplyId, Span};

/// Alignment of archived batches and of stage spans' start.
pub const STAGE_ALIGN: usize = 16;

/// Stage bytes after which the engine ends a batch early: big uploads still work (a record's
/// own data may exceed it), but run-ahead stays bounded.
pub const STAGE_SOFT_LIMIT: usize = 8 << 20;

/// Records after which the engine ends a batch early.
pub const RECORD_SOFT_LIMIT: usize = 4096;

/// The archived root of one batch.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[rkyv(derive(Debug))]
pub struct Batch {
    /// Sequence number of the batch in its session, from 0.
    pub seq: u64,
    /// Length of the stage area that travels with the batch.
    pub stage_len: u32,
    /// The records, in order.
    pub records: Vec<Record>,
}

/// Records and stage bytes taken out of an [`Encoder`] while a batch goes ahead of them.
#[derive(Debug)]
pub struct SetAside {
    records: Vec<Record>,
    stage: Vec<u8>,
}

/// Builds batches on the client.
///
/// The last record may be an *open* multi-draw ([`Encoder::open_draws`]): its draws stay
/// out of the stage area, so that later draws extend them even when other stage bytes (a
/// write put ahead of it with [`Encoder::push_before_last`]) come in between. Its `draws`
/// span is set when it is sealed: when another record is appended, and before the batch is
/// read or archived.
#[derive(Debug, Default)]
pub struct Encoder {
    batch: Batch,
    stage: Vec<u8>,
    next_reply: u32,
    /// Index of the open multi-draw record, if any (always the last record).
    open: Option<usize>,
    /// The open multi-draw's draws, in the stage's layout.
    open_draws: Vec<u8>,
}

impl Encoder {
    /// An empty encoder.
    pub fn new() -> Self {
        Self {
            batch: Batch::default(),
            stage: Vec::with_capacity(64 << 10),
            next_reply: 0,
            open: None,
            open_draws: Vec::new(),
        }
    }

    /// Appends a record.
    #[inline]
    pub fn push(&mut self, record: Record) {
        if self.open.is_some() {
            self.seal();
        }
        self.batch.records.push(record);
    }

    /// Inserts `record` before the last record (appends it if there is none); an open
    /// multi-draw stays open. For a record the engine may move ahead of the last one
    /// without changing what the batch does.
    pub fn push_before_last(&mut self, record: Record) {
        let records = &mut self.batch.records;
        let at = records.len().saturating_sub(1);
        records.insert(at, record);
        if let Some(open) = &mut self.open {
            *open += 1;
        }
    }

    /// Appends `bytes` to the data of a write record, the last record (`behind_last`: the
    /// one before it), where that record writes `buffer` up to `offset` with the same
    /// synchronization (`WriteBufferUnsynchronized` or `WriteBuffer`) and its data ends the
    /// stage area: the two writes are then one. Else changes nothing and returns `false`.
    pub fn extend_write(
        &mut self,
        behind_last: bool,
        buffer: BufferHandle,
        offset: u64,
        bytes: &[u8],
        unsynchronized: bool,
    ) -> bool {
        let records = &mut self.batch.records;
        let at = records.len().checked_sub(1 + behind_last as usize);
        let (b, o, data) = match at.and_then(|i| records.get_mut(i)) {
            Some(Record::WriteBufferUnsynchronized {
                buffer,
                offset,
                data,
            }) if unsynchronized => (*buffer, *offset, data),
            Some(Record::WriteBuffer {
                buffer,
                offset,
                data,
            }) if !unsynchronized => (*buffer, *offset, data),
            _ => return false,
        };
        let ends_stage = (data.offset + data.len) as usize == self.stage.len();
        if b != buffer || o + data.len as u64 != offset || !ends_stage {
            return false;
        }
        self.stage.extend_from_slice(bytes);
        data.len += bytes.len() as u32;
        true
    }

    /// The last record appended since the last flush, for a verb that merges into it. The
    /// `draws` span of an open multi-draw is not set yet ([`Encoder::extend_open_draws`]
    /// extends it).
    #[inline]
    pub fn last_mut(&mut self) -> Option<&mut Record> {
        self.batch.records.last_mut()
    }

    /// Replaces the last record (the draw it merges) by `record`, a `MultiDraw` or
    /// `MultiDrawIndexed` whose draws are `draws` and stay open: out of the stage area, to be
    /// extended by [`Encoder::extend_open_draws`] until the record is sealed.
    pub fn open_draws(&mut self, record: Record, draws: &[u8]) {
        debug_assert!(matches!(
            record,
            Record::MultiDraw { .. } | Record::MultiDrawIndexed { .. }
        ));
        let records = &mut self.batch.records;
        records.pop();
        records.push(record);
        self.open = Some(records.len() - 1);
        self.open_draws.clear();
        self.open_draws.extend_from_slice(draws);
    }

    /// Appends `draw` to the draws of the last record where it is an open multi-draw; else
    /// changes nothing and returns `false`.
    #[inline]
    pub fn extend_open_draws(&mut self, draw: &[u8]) -> bool {
        if self.open.is_none() {
            return false;
        }
        self.open_draws.extend_from_slice(draw);
        true
    }

    /// Stages the draws of the open multi-draw, if any, and sets its span: the batch is
    /// then as if its draws had been staged as one record. [`Encoder::finish`] and the
    /// other ways of taking the batch seal it first.
    pub fn seal(&mut self) {
        let Some(open) = self.open.take() else {
            return;
        };
        let offset = self.align_stage();
        self.stage.extend_from_slice(&self.open_draws);
        let span = Span {
            offset,
            len: self.open_draws.len() as u32,
        };
        if let Some(Record::MultiDraw { draws, .. } | Record::MultiDrawIndexed { draws, .. }) =
            self.batch.records.get_mut(open)
        {
            *draws = span;
        }
    }

    /// Copies bytes into the stage area.
    #[inline]
    pub fn stage(&mut self, bytes: &[u8]) -> Span {
        let offset = self.align_stage();
        self.stage.extend_from_slice(bytes);
        Span {
            offset,
            len: bytes.len() as u32,
        }
    }

    /// Reserves `len` stage bytes, zeroed, and lets `fill` write them in place.
    pub fn stage_with(&mut self, len: usize, fill: impl FnOnce(&mut [u8])) -> Span {
        let offset = self.align_stage();
        self.stage.resize(offset as usize + len, 0);
        fill(&mut self.stage[offset as usize..]);
        Span {
            offset,
            len: len as u32,
        }
    }

    fn align_stage(&mut self) -> u32 {
        let aligned = self.stage.len().next_multiple_of(STAGE_ALIGN);
        self.stage.resize(aligned, 0);
        aligned as u32
    }

    /// Mints the id of the next reply this session will wait for.
    pub fn mint_reply(&mut self) -> ReplyId {
        let id = ReplyId(self.next_reply);
        self.next_reply = self.next_reply.wrapping_add(1);
        id
    }

    /// The records appended since the last flush (sealed: see [`Encoder::seal`]).
    pub fn records(&self) -> &[Record] {
        debug_assert!(self.open.is_none(), "read an unsealed batch");
        &self.batch.records
    }

    /// The stage bytes of the records appended since the last flush (what their spans
    /// name).
    pub fn stage_bytes(&self) -> &[u8] {
        debug_assert!(self.open.is_none(), "read an unsealed batch");
        &self.stage
    }

    /// Stage bytes used so far.
    pub fn stage_len(&self) -> usize {
        self.stage.len()
    }

    /// Whether nothing was appended since the last flush.
    pub fn is_empty(&self) -> bool {
        self.batch.records.is_empty()
    }

    /// Whether the batch has grown past the soft limits and should be flushed.
    pub fn is_full(&self) -> bool {
        // An open multi-draw's draws are stage bytes once sealed.
        self.batch.records.len() >= RECORD_SOFT_LIMIT
            || self.stage.len() + self.open_draws_len() >= STAGE_SOFT_LIMIT
    }

    /// Bytes of the open multi-draw's draws (0 if none is open).
    fn open_draws_len(&self) -> usize {
        if self.open.is_some() {
            self.open_draws.len()
        } else {
            0
        }
    }

    /// Archives the batch into `out` (cleared first), swaps the stage area with `stage_out`
    /// (whose old contents are discarded and whose allocation is reused), and starts the next
    /// batch. Returns the number of records archived.
    pub fn finish(
        &mut self,
        archiver: &mut Archiver,
        out: &mut AlignedVec<STAGE_ALIGN>,
        stage_out: &mut Vec<u8>,
    ) -> usize {
        puffin::profile_scope!("archive_batch");
        self.seal();
        self.batch.stage_len = self.stage.len() as u32;
        archiver.archive(&self.batch, out);
        std::mem::swap(&mut self.stage, stage_out);
        self.stage.clear();
        let records = self.batch.records.len();
        self.batch.records.clear();
        self.batch.seq += 1;
        records
    }

    /// Archives the batch being built into `out` (cleared first) as [`Encoder::finish`] will,
    /// byte for byte, but leaves the encoder as it is, and returns its stage bytes: what a
    /// capture writes of the batch before the transport takes it (`crate::capture`).
    pub fn archive_pending(
        &mut self,
        archiver: &mut Archiver,
        out: &mut AlignedVec<STAGE_ALIGN>,
    ) -> &[u8] {
        self.seal();
        self.batch.stage_len = self.stage.len() as u32;
        archiver.archive(&self.batch, out);
        &self.stage
    }

    /// Takes the records and stage bytes appended since the last flush out of the encoder,
    /// which is then empty, so that a batch can be sent ahead of them; [`Encoder::put_back`]
    /// returns them (their spans stay valid: the stage comes back as it was).
    pub fn set_aside(&mut self) -> SetAside {
        self.seal();
        SetAside {
            records: std::mem::take(&mut self.batch.records),
            stage: std::mem::take(&mut self.stage),
        }
    }

    /// Returns what [`Encoder::set_aside`] took; the encoder must be empty (flushed).
    pub fn put_back(&mut self, held: SetAside) {
        debug_assert!(self.batch.records.is_empty());
        self.batch.records = held.records;
        self.stage = held.stage;
    }

    /// Sequence number of the batch being built.
    pub fn seq(&self) -> u64 {
        self.batch.seq
    }
}

/// Serializes batches, reusing its scratch space.
#[derive(Default)]
pub struct Archiver {
    arena: rkyv::ser::allocator::Arena,
}

impl std::fmt::Debug for Archiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archiver").finish_non_exhaustive()
    }
}

impl Archiver {
    /// Archives `batch` into `out` (cleared first).
    pub fn archive(&mut self, batch: &Batch, out: &mut AlignedVec<STAGE_ALIGN>) {
        out.clear();
        let written = rkyv::api::high::to_bytes_in_with_alloc::<_, _, rancor::Failure>(
            batch,
            std::mem::take(out),
            self.arena.acquire(),
        );
        match written {
            Ok(bytes) => *out = bytes,
            // Serializing plain owned data into a growable vector cannot fail short of
            // allocation failure, which aborts before reaching here.
            Err(_) => unreachable!("archiving a batch into a growable buffer failed"),
        }
    }
}

/// Why received bytes were not a valid batch.
#[derive(Debug, thiserror::Error)]
pub enum DecodeBatchError {
    /// The archive did not validate.
    #[error("malformed batch archive: {0}")]
    Malformed(String),
    /// The archive's declared stage length differs from the stage received.
    #[error("batch declares {declared} stage bytes but {received} arrived")]
    StageLength {
        /// What the batch says.
        declared: u32,
        /// What arrived.
        received: usize,
    },
}

/// Validates archived batch bytes (which must start at a 16-byte aligned address) and the
/// stage that came with them.
pub fn access_batch<'a>(
    bytes: &'a [u8],
    stage: &[u8],
) -> Result<&'a ArchivedBatch, DecodeBatchError> {
    let batch = rkyv::access::<ArchivedBatch, rancor::Error>(bytes)
        .map_err(|e| DecodeBatchError::Malformed(e.to_string()))?;
    with_its_stage(batch, stage)
}

/// `batch`, if `stage` is as long as it declares.
fn with_its_stage<'a>(
    batch: &'a ArchivedBatch,
    stage: &[u8],
) -> Result<&'a ArchivedBatch, DecodeBatchError> {
    let declared = batch.stage_len.to_native();
    if declared as usize != stage.len() {
        return Err(DecodeBatchError::StageLength {
            declared,
            received: stage.len(),
        });
    }
    Ok(batch)
}

/// [`access_batch`] for a batch this process archived ([`Encoder::finish`]) and hands to
/// its own backend (the `inproc` and `thread` transports): the archive is not validated,
/// since this process's serializer wrote it and nothing else touched it, so it is
/// well-formed by construction; the bytecheck pass that bytes from another process need
/// would cost some 25 instructions a record here for nothing. The stage's length is still
/// checked, and the backend still checks every stage span and handle. Debug builds
/// validate the archive anyway.
///
/// # Safety
/// `bytes` are exactly what [`Archiver::archive`] wrote, unchanged, at a 16-byte aligned
/// address.
pub unsafe fn access_own_batch<'a>(
    bytes: &'a [u8],
    stage: &[u8],
) -> Result<&'a ArchivedBatch, DecodeBatchError> {
    debug_assert!(
        rkyv::access::<ArchivedBatch, rancor::Error>(bytes).is_ok(),
        "a batch this process archived does not validate"
    );
    // SAFETY: the caller's contract: a whole archive of a `Batch` as rkyv wrote it (its
    // root where `access` looks for it), aligned.
    let batch = unsafe { rkyv::access_unchecked::<ArchivedBatch>(bytes) };
    with_its_stage(batch, stage)
}

/// Decodes one archived record into its native form.
pub fn decode_record(record: &ArchivedRecord) -> Result<Record, DecodeBatchError> {
    rkyv::deserialize::<Record, rancor::Error>(record)
        .map_err(|e| DecodeBatchError::Malformed(e.to_string()))
}

use crate::record::ArchivedRecord;

/// A received stage area; every span is checked against it.
#[derive(Clone, Copy, Debug)]
pub struct Stage<'a> {
    bytes: &'a [u8],
}

/// A span that does not lie inside the stage area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("stage span {offset}+{len} exceeds the {stage_len}-byte stage")]
pub struct SpanOutOfRange {
    /// Span offset.
    pub offset: u32,
    /// Span length.
    pub len: u32,
    /// Stage size.
    pub stage_len: usize,
}

impl<'a> Stage<'a> {
    /// Wraps received stage bytes.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes }
    }

    /// The bytes of a span, if it lies inside the stage.
    pub fn get(&self, span: Span) -> Result<&'a [u8], SpanOutOfRange> {
        let start = span.offset as usize;
        start
            .checked_add(span.len as usize)
            .and_then(|end| self.bytes.get(start..end))
            .ok_or(SpanOutOfRange {
                offset: span.offset,
                len: span.len,
                stage_len: self.bytes.len(),
            })
    }

    /// Size of the stage area.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the stage area is empty.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Topology;

    #[test]
    fn a_batch_round_trips_and_spans_are_checked() {
        let mut enc = Encoder::new();
        let buffer = BufferHandle {
            slot: 2,
            generation: 7,
        };
        let data = enc.stage(&[1, 2, 3]);
        enc.push(Record::CreateBuffer { buffer, size: 3 });
        enc.push(Record::WriteBuffer {
            buffer,
            offset: 0,
            data,
        });
        let mut archive = AlignedVec::new();
        let mut stage = Vec::new();
        assert_eq!(
            enc.finish(&mut Archiver::default(), &mut archive, &mut stage),
            2
        );
        assert!(enc.is_empty());
        let batch = access_batch(&archive, &stage).expect("valid");
        let records: Vec<Record> = batch
            .records
            .iter()
            .map(|r| decode_record(r).unwrap())
            .collect();
        assert_eq!(
            records[1],
            Record::WriteBuffer {
                buffer,
                offset: 0,
                data
            }
        );
        assert_eq!(Stage::new(&stage).get(data).unwrap(), &[1, 2, 3]);
        assert!(Stage::new(&stage).get(Span { offset: 1, len: 3 }).is_err());
        assert!(matches!(
            access_batch(&archive, &stage[..1]),
            Err(DecodeBatchError::StageLength { .. })
        ));
    }

    /// Finishes `enc`'s batch and decodes it: the records and the stage.
    fn finished(enc: &mut Encoder) -> (Vec<Record>, Vec<u8>) {
        let mut archive = AlignedVec::new();
        let mut stage = Vec::new();
        enc.finish(&mut Archiver::default(), &mut archive, &mut stage);
        let batch = access_batch(&archive, &stage).expect("valid");
        let records = batch.records.iter().map(|r| decode_record(r).unwrap());
        (records.collect(), stage)
    }

    #[test]
    fn an_open_multi_draw_grows_past_records_put_before_it_and_is_staged_when_sealed() {
        let mut enc = Encoder::new();
        let buffer = BufferHandle {
            slot: 1,
            generation: 1,
        };
        let draw = Record::Draw {
            topology: Topology::Triangles,
            first: 0,
            count: 3,
            instances: 1,
            base_instance: 0,
        };
        enc.push(draw.clone());
        let placeholder = Span { offset: 0, len: 0 };
        let multi = Record::MultiDraw {
            topology: Topology::Triangles,
            draws: placeholder,
            same_draw_id: true,
        };
        enc.open_draws(multi, &[1; 16]);
        // A write's bytes land in the stage between the draws' words and before the record.
        let data = enc.stage(&[9; 5]);
        let write = Record::WriteBufferUnsynchronized {
            buffer,
            offset: 0,
            data,
        };
        enc.push_before_last(write.clone());
        assert!(enc.extend_open_draws(&[2; 8]));
        // Any other record seals it: nothing extends it after.
        enc.push(draw.clone());
        assert!(!enc.extend_open_draws(&[3; 8]));
        let (records, stage) = finished(&mut enc);
        let draws = Span {
            offset: 16,
            len: 24,
        };
        let sealed = Record::MultiDraw {
            topology: Topology::Triangles,
            draws,
            same_draw_id: true,
        };
        assert_eq!(records, [write, sealed, draw]);
        let mut words = [1; 24];
        words[16..].fill(2);
        assert_eq!(Stage::new(&stage).get(draws).unwrap(), words);
        assert_eq!(Stage::new(&stage).get(data).unwrap(), [9; 5]);
    }

    #[test]
    fn a_write_is_extended_only_by_the_bytes_right_after_it_with_its_synchronization() {
        let mut enc = Encoder::new();
        let (a, b) = (
            BufferHandle {
                slot: 1,
                generation: 1,
            },
            BufferHandle {
                slot: 2,
                generation: 1,
            },
        );
        let data = enc.stage(&[1; 4]);
        enc.push(Record::WriteBufferUnsynchronized {
            buffer: a,
            offset: 8,
            data,
        });
        assert!(
            !enc.extend_write(false, b, 12, &[2; 4], true),
            "another buffer"
        );
        assert!(!enc.extend_write(false, a, 13, &[2; 4], true), "a gap");
        assert!(
            !enc.extend_write(false, a, 12, &[2; 4], false),
            "synchronized"
        );
        assert!(
            !enc.extend_write(true, a, 12, &[2; 4], true),
            "no record before it"
        );
        assert!(enc.extend_write(false, a, 12, &[2; 4], true));
        // Behind a record, and only while its bytes end the stage.
        enc.push(Record::Flush);
        assert!(enc.extend_write(true, a, 16, &[3; 2], true));
        enc.stage(&[0; 1]);
        assert!(
            !enc.extend_write(true, a, 18, &[4; 2], true),
            "not the stage's end"
        );
        let Some(Record::WriteBufferUnsynchronized { data, .. }) = enc.records().first() else {
            panic!("{:?}", enc.records());
        };
        assert_eq!(
            &enc.stage_bytes()[data.offset as usize..][..data.len as usize],
            {
                let mut w = [1; 10];
                w[4..8].fill(2);
                w[8..].fill(3);
                w
            }
        );
    }

    #[test]
    fn an_open_multi_draw_counts_towards_the_stage_limit() {
        let mut enc = Encoder::new();
        enc.push(Record::Flush);
        let multi = Record::MultiDraw {
            topology: Topology::Points,
            draws: Span { offset: 0, len: 0 },
            same_draw_id: true,
        };
        enc.open_draws(multi, &vec![0; STAGE_SOFT_LIMIT - 8]);
        assert!(!enc.is_full());
        assert!(enc.extend_open_draws(&[0; 8]));
        assert!(enc.is_full());
    }

    #[test]
    fn finishing_seals_an_open_multi_draw() {
        let mut enc = Encoder::new();
        enc.push(Record::Flush);
        enc.push(Record::Draw {
            topology: Topology::Points,
            first: 0,
            count: 1,
            instances: 1,
            base_instance: 0,
        });
        // The draw becomes a multi-draw.
        let multi = Record::MultiDraw {
            topology: Topology::Points,
            draws: Span { offset: 0, len: 0 },
            same_draw_id: true,
        };
        enc.open_draws(multi, &[7; 16]);
        let (records, stage) = finished(&mut enc);
        let [_, Record::MultiDraw { draws, .. }] = &records[..] else {
            panic!("{records:?}");
        };
        let draws = *draws;
        assert_eq!(Stage::new(&stage).get(draws).unwrap(), [7; 16]);
        // The next batch starts with nothing open.
        assert!(!enc.extend_open_draws(&[1; 8]));
    }

    #[test]
    fn corrupted_archives_are_refused() {
        let mut enc = Encoder::new();
        enc.push(Record::Flush);
        let mut archive = AlignedVec::new();
        let mut stage = Vec::new();
        enc.finish(&mut Archiver::default(), &mut archive, &mut stage);
        // Point the root's record vector far outside the archive.
        let mut bad = AlignedVec::<STAGE_ALIGN>::new();
        bad.extend_from_slice(&archive);
        let n = bad.len();
        for b in &mut bad[n - 8..n - 4] {
            *b = 0x7f;
        }
        assert!(access_batch(&bad, &stage).is_err());
        assert!(access_batch(&archive[..archive.len() / 2], &stage).is_err() || archive.len() < 16);
    }

    #[test]
    fn records_stay_small() {
        // Every record is as big as the biggest variant: keep them at 32 bytes archived by boxing
        // the payloads of rare records (copies, read-backs, texture regions and clears, CSO
        // creation).
        assert!(
            size_of::<ArchivedRecord>() <= 32,
            "ArchivedRecord is {} bytes",
            size_of::<ArchivedRecord>()
        );
    }
}

//! Buffer ranges backed by the session's mapping heap (`AttachHeapRange`), on the server's
//! side: the dispatcher's part of persistent mappings over `shm`/`fork`
//! (`crate::transport::heap`).
//!
//! The program writes a persistent mapping whenever it likes; the backend must see those
//! writes whenever it reads the buffer, which it does only while it carries out a batch. So
//! at the start of every batch, before its first record, the dispatcher looks at each
//! attached range: it copies the heap block out page by page, compares each page with a
//! twin of what the buffer holds from the block, and writes the changed 64-byte runs into
//! the buffer (the backend's ordinary `write_buffer`), so every record of the batch sees
//! every write the program made before the batch left (and perhaps later ones, as a GPU
//! reading coherent memory may). No mapped byte crosses the command ring; the cost is one
//! pass over the mapped bytes per batch, on the server's side.
//!
//! The twin holds what the buffer holds of the range *as written by the client*: the block
//! when the range was attached, the pages copied since, and what `WriteBuffer` records
//! wrote over the range (the client writes the same bytes into the mapping, so they are
//! not copied twice). What the GPU writes (copies, transform feedback, storage writes) does
//! not change the twin, so runs of bytes the program leaves alone keep the GPU's values (the
//! client-side comparison of the other transports keeps them by the page).

use crate::backend::{SessionError, bad_value};
use crate::dispatch::{BufferPipe, BufferWrite};
use crate::handle::BufferHandle;
use crate::record::HeapRange;
use crate::transport::heap::{HEAP_BYTES, HeapView};

/// The granularity of the first comparison.
const PAGE: usize = 4096;

/// The granularity of the writes: a changed byte sends its aligned run of this many (the
/// bytes beside it are the block's, unchanged, so written again only where the GPU wrote them
/// meanwhile, an overlap of program and GPU writes a well-defined program does not make).
const RUN: usize = 64;

/// One attached range.
struct Attached {
    buffer: BufferHandle,
    /// Start in the buffer.
    offset: u64,
    /// Start in the heap.
    heap: u64,
    /// What the buffer holds of the range, as last written from the client.
    twin: Vec<u8>,
}

/// The session's attached ranges.
#[derive(Default)]
pub(crate) struct HeapRanges {
    ranges: Vec<Attached>,
    /// Bytes of all twins (bounded by the heap's size: no client makes the server hold more
    /// than the heap it shared).
    bytes: u64,
    scratch: Scratch,
}

/// Reused memory of the comparison.
#[derive(Default)]
struct Scratch {
    /// One page copied out of the heap.
    page: Vec<u8>,
    /// The stretches of changed runs of one page.
    runs: Vec<(usize, usize)>,
}

impl HeapRanges {
    /// Whether any range is attached.
    pub(crate) fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// `AttachHeapRange`: copies the block into the buffer and keeps looking at it.
    pub(crate) fn attach<P: BufferPipe + ?Sized>(
        &mut self,
        pipe: &mut P,
        heap: Option<&HeapView>,
        buffer: BufferHandle,
        range: HeapRange,
    ) -> Result<(), SessionError> {
        const N: &str = "AttachHeapRange";
        let heap = heap.ok_or_else(|| bad_value(N, "the session has no mapping heap"))?;
        if range.size == 0 || !heap.contains(range.heap, range.size) {
            return Err(bad_value(
                N,
                format!(
                    "{} bytes at {} are not a block of the {}-byte heap",
                    range.size,
                    range.heap,
                    heap.len()
                ),
            ));
        }
        self.forget(buffer);
        if self.bytes + range.size > HEAP_BYTES as u64 {
            return Err(bad_value(N, "attached ranges exceed the heap's size"));
        }
        let mut twin = vec![0; range.size as usize];
        heap.read(range.heap, &mut twin);
        pipe.write_buffer(
            N,
            BufferWrite {
                buffer,
                offset: range.offset,
                bytes: &twin,
                unsynchronized: false,
            },
        )?;
        self.bytes += range.size;
        self.ranges.push(Attached {
            buffer,
            offset: range.offset,
            heap: range.heap,
            twin,
        });
        Ok(())
    }

    /// `DetachHeapRange`: copies in the last changes and stops looking.
    pub(crate) fn detach<P: BufferPipe + ?Sized>(
        &mut self,
        pipe: &mut P,
        heap: Option<&HeapView>,
        buffer: BufferHandle,
    ) -> Result<(), SessionError> {
        const N: &str = "DetachHeapRange";
        let i = self
            .ranges
            .iter()
            .position(|a| a.buffer == buffer)
            .ok_or_else(|| bad_value(N, "the buffer has no heap range attached"))?;
        if let Some(heap) = heap {
            Self::sync_one(&mut self.ranges[i], &mut self.scratch, pipe, heap)?;
        }
        let a = self.ranges.swap_remove(i);
        self.bytes -= a.twin.len() as u64;
        Ok(())
    }

    /// The buffer's storage went (destroyed or re-specified): its range is no longer looked
    /// at.
    pub(crate) fn forget(&mut self, buffer: BufferHandle) {
        if let Some(i) = self.ranges.iter().position(|a| a.buffer == buffer) {
            let a = self.ranges.swap_remove(i);
            self.bytes -= a.twin.len() as u64;
        }
    }

    /// A `WriteBuffer` wrote `bytes` at `offset` of `buffer`: the twin learns the part over
    /// an attached range.
    pub(crate) fn learn(&mut self, buffer: BufferHandle, offset: u64, bytes: &[u8]) {
        for a in &mut self.ranges {
            if a.buffer != buffer {
                continue;
            }
            let end = a.offset + a.twin.len() as u64;
            let (from, to) = (offset.max(a.offset), (offset + bytes.len() as u64).min(end));
            if from < to {
                a.twin[(from - a.offset) as usize..(to - a.offset) as usize]
                    .copy_from_slice(&bytes[(from - offset) as usize..(to - offset) as usize]);
            }
        }
    }

    /// Copies the changed bytes of every attached range into its buffer (at the start of a
    /// batch).
    pub(crate) fn sync_all<P: BufferPipe + ?Sized>(
        &mut self,
        pipe: &mut P,
        heap: &HeapView,
    ) -> Result<(), SessionError> {
        puffin::profile_scope!("heap_ranges");
        for a in &mut self.ranges {
            Self::sync_one(a, &mut self.scratch, pipe, heap)?;
        }
        Ok(())
    }

    /// Compares one range with its twin page by page, and the pages that differ by runs of
    /// [`RUN`] bytes; writes each stretch of changed runs.
    fn sync_one<P: BufferPipe + ?Sized>(
        a: &mut Attached,
        scratch: &mut Scratch,
        pipe: &mut P,
        heap: &HeapView,
    ) -> Result<(), SessionError> {
        let Scratch { page, runs } = scratch;
        page.resize(PAGE, 0);
        let n = a.twin.len();
        let mut pending: Option<(usize, usize)> = None;
        let mut i = 0;
        while i < n {
            let end = (i + PAGE).min(n);
            let chunk = &mut page[..end - i];
            // In bounds: checked when the range was attached.
            heap.read(a.heap + i as u64, chunk);
            let twin = &mut a.twin[i..end];
            if *chunk != *twin {
                runs.clear();
                for (k, (now, was)) in chunk.chunks(RUN).zip(twin.chunks(RUN)).enumerate() {
                    if now == was {
                        continue;
                    }
                    let (s, e) = (i + k * RUN, i + k * RUN + now.len());
                    match runs.last_mut() {
                        Some(last) if last.1 == s => last.1 = e,
                        _ => runs.push((s, e)),
                    }
                }
                twin.copy_from_slice(chunk);
                for &(s, e) in runs.iter() {
                    match pending {
                        Some((ps, pe)) if pe == s => pending = Some((ps, e)),
                        Some((ps, pe)) => {
                            Self::write(pipe, a, ps, pe)?;
                            pending = Some((s, e));
                        }
                        None => pending = Some((s, e)),
                    }
                }
            }
            i = end;
        }
        if let Some((s, e)) = pending {
            Self::write(pipe, a, s, e)?;
        }
        Ok(())
    }

    /// Writes `[s, e)` of the range (as its twin now holds it) into the buffer.
    fn write<P: BufferPipe + ?Sized>(
        pipe: &mut P,
        a: &Attached,
        s: usize,
        e: usize,
    ) -> Result<(), SessionError> {
        pipe.write_buffer(
            "AttachHeapRange",
            BufferWrite {
                buffer: a.buffer,
                offset: a.offset + s as u64,
                bytes: &a.twin[s..e],
                unsynchronized: false,
            },
        )
    }
}

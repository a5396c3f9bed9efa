//! A single-producer, single-consumer ring of bytes in shared memory, carrying messages.
//!
//! The `shm` data plane has two: the command ring (client to server: batch messages) and the
//! event ring (server to client: replies and events). Each is a data area of `size` bytes (a
//! multiple of [`ENTRY_ALIGN`]) and two cursors in the control page: `head`, written only by
//! the [`Writer`], and `tail`, written only by the [`Reader`]. Cursors are monotonic `u64`
//! byte counts, never reset; the byte of cursor `c` is at `c % size`.
//!
//! ## Entries
//! The ring holds entries of a 16-byte [`EntryHeader`] and a payload padded to 16 bytes:
//! - `FIRST` starts a message and carries its total length;
//! - `MORE` continues it (only messages larger than half the ring are split, into chunks of
//!   at most half the ring, so any message can pass however large it is);
//! - `PAD` fills the end of the data area when the next entry would not fit before the wrap.
//!   **An entry never straddles the wrap**: the writer pads and skips to the start. A pad is
//!   never a message and is skipped by the reader before anything is counted.
//!
//! ## Trust
//! The peer's bytes and cursors are untrusted. The reader copies each payload out of the
//! ring before anyone looks at it (so the writer cannot change it after validation), checks
//! every header (tag, lengths, no straddling, inside the published range), and requires
//! cursors to move forward and stay within one ring of each other; any violation is a
//! [`RingError`] that ends the session. Going backwards is a protocol error, never a reset.
//!
//! ## Orderings
//! The writer copies an entry, then Release-stores `head`; the reader Acquire-loads `head`,
//! then copies. The reader Release-stores `tail` after copying; the writer Acquire-loads
//! `tail` before overwriting. Waking a parked peer goes through the doorbell (`notify` after
//! each cursor store), whose fences are documented in `doorbell.rs`.
//!
//! ## Back-pressure
//! A writer that finds too little space waits until half the ring is free (or its entry
//! fits, if that needs more), and the reader notifies only when at most half the ring is in
//! use after its tail store: a writer ahead of a slower reader sleeps once per half ring of
//! messages, not once per message. The reader may skip a notification soundly: the writer's
//! `head` does not move while it waits and cursors only grow, so any `head` the reader loads
//! is at most the writer's, and if even that one leaves more than half the ring in use, the
//! writer's condition does not hold at this `tail` either.

use rkyv::util::AlignedVec;

use super::sync::{AtomicU64, Ordering};

/// Alignment and granule of entries.
pub(crate) const ENTRY_ALIGN: u64 = 16;
/// Size of an entry header.
const HEADER: u64 = 16;

const TAG_FIRST: u32 = 0x5453_4631; // "TSF1"
const TAG_MORE: u32 = 0x5453_4d32; // "TSM2"
const TAG_PAD: u32 = 0x5453_5033; // "TSP3"

/// The header of one entry, as it lies in the ring (little endian).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct EntryHeader {
    /// `TAG_FIRST`, `TAG_MORE` or `TAG_PAD`.
    tag: u32,
    /// Payload bytes that follow (before padding).
    len: u32,
    /// For `FIRST`: the whole message's length. Zero otherwise.
    total: u64,
}

impl EntryHeader {
    fn to_bytes(self) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[..4].copy_from_slice(&self.tag.to_le_bytes());
        b[4..8].copy_from_slice(&self.len.to_le_bytes());
        b[8..].copy_from_slice(&self.total.to_le_bytes());
        b
    }

    fn from_bytes(b: [u8; 16]) -> Self {
        let word =
            |r: std::ops::Range<usize>| u32::from_le_bytes(b[r].try_into().unwrap_or_default());
        Self {
            tag: word(0..4),
            len: word(4..8),
            total: u64::from_le_bytes(b[8..].try_into().unwrap_or_default()),
        }
    }
}

/// The peer broke the ring protocol.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("ring protocol: {0}")]
pub(crate) struct RingError(pub String);

/// Where a ring lives: its data area and its two cursors.
///
/// The pointers come from a mapping (or, under loom, a heap block) that the owner of the
/// `Writer`/`Reader` keeps alive for as long as they exist; `keep` holds it.
pub(crate) struct RingMem {
    /// First byte of the data area.
    pub data: *mut u8,
    /// Size of the data area: a multiple of [`ENTRY_ALIGN`], at least 4 entries.
    pub size: u64,
    /// The writer's cursor.
    pub head: *const AtomicU64,
    /// The reader's cursor.
    pub tail: *const AtomicU64,
    /// Keeps the memory behind the pointers alive.
    #[expect(
        dead_code,
        reason = "never read: it owns the memory the pointers point into"
    )]
    pub keep: std::sync::Arc<dyn Send + Sync>,
}

// SAFETY: the pointers are into memory `keep` owns (a shared mapping or a heap block that is
// itself `Send + Sync`); the cursor atomics are `Sync`, and the data bytes are only touched
// under the ring protocol (the writer writes outside `tail..head`, the reader reads inside
// it), which the cursors' Release/Acquire pairs order.
unsafe impl Send for RingMem {}

impl RingMem {
    fn head(&self) -> &AtomicU64 {
        // SAFETY: `head` points to a live, aligned `AtomicU64` (see the type's docs).
        unsafe { &*self.head }
    }

    fn tail(&self) -> &AtomicU64 {
        // SAFETY: `tail` points to a live, aligned `AtomicU64` (see the type's docs).
        unsafe { &*self.tail }
    }
}

fn round_up(len: u64) -> u64 {
    len.next_multiple_of(ENTRY_ALIGN)
}

/// The writing end. `Send`, not `Sync`.
pub(crate) struct Writer {
    mem: RingMem,
    /// Our cursor (the single writer of `mem.head`).
    head: u64,
    /// The reader's cursor as last seen.
    tail: u64,
}

/// How a writer waits for space: called with a condition that holds once there is space.
pub(crate) type SpaceWait<'a, E> = dyn FnMut(&dyn Fn() -> bool) -> Result<(), E> + 'a;

/// Why a write stopped.
#[derive(Debug)]
pub(crate) enum WriteError<E> {
    /// The reader broke the protocol.
    Ring(RingError),
    /// The wait for space was interrupted.
    Wait(E),
}

impl Writer {
    /// The writer of `mem`, whose cursors must both be 0.
    pub(crate) fn new(mem: RingMem) -> Self {
        debug_assert!(mem.size.is_multiple_of(ENTRY_ALIGN) && mem.size >= 4 * HEADER);
        Self {
            mem,
            head: 0,
            tail: 0,
        }
    }

    /// Bytes written so far (the `head` cursor).
    #[cfg(all(test, not(loom)))]
    pub(crate) fn head(&self) -> u64 {
        self.head
    }

    fn refresh(&mut self) -> Result<(), RingError> {
        // Acquire: pairs with the Release store in `Reader::poll`, so the reader's copies out
        // of the bytes we are about to overwrite happened before our writes.
        let tail = self.mem.tail().load(Ordering::Acquire);
        if tail < self.tail || tail > self.head {
            return Err(RingError(format!(
                "reader cursor moved from {} to {tail} with the writer at {}",
                self.tail, self.head
            )));
        }
        self.tail = tail;
        Ok(())
    }

    fn free(&self) -> u64 {
        self.mem.size - (self.head - self.tail)
    }

    /// Writes one message made of `parts`, splitting it if it is larger than half the ring.
    /// When the ring is full, calls `wait` with a condition that becomes true once half the
    /// ring is free and the entry fits (or the reader misbehaved); after each published entry
    /// calls `notify`. Returns whether it had to wait.
    pub(crate) fn write<E>(
        &mut self,
        parts: &[&[u8]],
        wait: &mut SpaceWait<'_, E>,
        notify: &dyn Fn(),
    ) -> Result<bool, WriteError<E>> {
        let total: u64 = parts.iter().map(|p| p.len() as u64).sum();
        let max_payload = self.mem.size / 2 - HEADER;
        let mut sent = 0u64;
        let mut waited = false;
        let mut part = 0usize;
        let mut part_at = 0usize;
        loop {
            let len = (total - sent).min(max_payload);
            let entry = HEADER + round_up(len);
            let pos = self.head % self.mem.size;
            let to_end = self.mem.size - pos;
            let need = if to_end < entry {
                to_end + entry
            } else {
                entry
            };
            if self.free() < need {
                self.refresh().map_err(WriteError::Ring)?;
            }
            while self.free() < need {
                waited = true;
                let (size, head, tail) = (self.mem.size, self.head, self.mem.tail);
                // The reader notifies only once half the ring is free (module docs).
                let resume = need.max(size / 2);
                let ready = move || {
                    // SAFETY: `tail` points to a live `AtomicU64` (see `RingMem`).
                    // Acquire: as in `refresh`.
                    let t = unsafe { &*tail }.load(Ordering::Acquire);
                    t > head || size - (head - t.min(head)) >= resume
                };
                wait(&ready).map_err(WriteError::Wait)?;
                self.refresh().map_err(WriteError::Ring)?;
            }
            if to_end < entry {
                self.put_header(
                    pos,
                    EntryHeader {
                        tag: TAG_PAD,
                        len: (to_end - HEADER) as u32,
                        total: 0,
                    },
                );
                self.head += to_end;
            }
            let pos = self.head % self.mem.size;
            self.put_header(
                pos,
                EntryHeader {
                    tag: if sent == 0 { TAG_FIRST } else { TAG_MORE },
                    len: len as u32,
                    total: if sent == 0 { total } else { 0 },
                },
            );
            let mut at = pos + HEADER;
            let mut left = len as usize;
            while left > 0 {
                let src = &parts[part][part_at..];
                let n = src.len().min(left);
                debug_assert!(at + n as u64 <= self.mem.size);
                // SAFETY:
                // - `at..at + n` lies inside the data area: the entry fits before the wrap
                //   (`entry <= size - pos`, padded above otherwise);
                // - those bytes are outside `tail..head` (we waited for `need` free bytes),
                //   so the reader is not reading them;
                // - `src` is a Rust slice that cannot overlap shared memory we write.
                unsafe {
                    std::ptr::copy_nonoverlapping(src.as_ptr(), self.mem.data.add(at as usize), n);
                }
                at += n as u64;
                left -= n;
                part_at += n;
                if part_at == parts[part].len() {
                    part += 1;
                    part_at = 0;
                }
            }
            while part < parts.len() && part_at == parts[part].len() {
                part += 1;
                part_at = 0;
            }
            self.head += entry;
            // Release: publishes the entry's bytes; pairs with the Acquire load in
            // `Reader::poll`.
            self.mem.head().store(self.head, Ordering::Release);
            notify();
            sent += len;
            if sent == total {
                return Ok(waited);
            }
        }
    }

    fn put_header(&mut self, pos: u64, header: EntryHeader) {
        let bytes = header.to_bytes();
        debug_assert!(pos + HEADER <= self.mem.size);
        // SAFETY: `pos..pos + 16` is inside the data area (entries are 16-aligned and the
        // size is a multiple of 16) and outside `tail..head` (free space the writer owns).
        unsafe {
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                self.mem.data.add(pos as usize),
                bytes.len(),
            );
        }
    }
}

/// The reading end. `Send`, not `Sync`.
pub(crate) struct Reader {
    mem: RingMem,
    /// Our cursor (the single writer of `mem.tail`).
    tail: u64,
    /// The writer's cursor as last seen.
    head: u64,
    /// Bytes still expected of the message being assembled (`None`: between messages).
    expecting: Option<u64>,
}

impl Reader {
    /// The reader of `mem`, whose cursors must both be 0.
    pub(crate) fn new(mem: RingMem) -> Self {
        Self {
            mem,
            tail: 0,
            head: 0,
            expecting: None,
        }
    }

    /// Whether the writer has published something not read yet.
    pub(crate) fn has_data(&self) -> bool {
        // Acquire: as in `poll`.
        self.mem.head().load(Ordering::Acquire) != self.tail
    }

    /// A condition for a doorbell wait: true once the writer published past `tail`.
    pub(crate) fn data_ready(&self) -> impl Fn() -> bool + use<> {
        let (head, tail) = (self.mem.head, self.tail);
        // SAFETY: `head` points to a live `AtomicU64` (see `RingMem`); Acquire as in `poll`.
        move || unsafe { &*head }.load(Ordering::Acquire) != tail
    }

    /// Reads published entries until one message is complete in `out` (returns `true`) or
    /// the ring is empty (`false`; a partly read message stays in `out` and continues at the
    /// next call). Messages longer than `cap` are refused. Calls `notify` after each tail
    /// store that leaves at most half the ring in use (a waiting writer waits for that much).
    pub(crate) fn poll(
        &mut self,
        out: &mut AlignedVec<16>,
        cap: u64,
        notify: &dyn Fn(),
    ) -> Result<bool, RingError> {
        let size = self.mem.size;
        loop {
            // Acquire: pairs with the Release store in `Writer::write`; the entries before
            // `head` are visible.
            let head = self.mem.head().load(Ordering::Acquire);
            if head < self.head || head - self.tail > size {
                return Err(RingError(format!(
                    "writer cursor moved from {} to {head} with the reader at {}",
                    self.head, self.tail
                )));
            }
            self.head = head;
            let available = head - self.tail;
            if available == 0 {
                return Ok(false);
            }
            if available < HEADER {
                return Err(RingError(format!(
                    "{available} published bytes hold no entry"
                )));
            }
            let pos = self.tail % size;
            let to_end = size - pos;
            let mut raw = [0u8; 16];
            debug_assert!(pos + HEADER <= size);
            // SAFETY: `pos..pos + 16` lies inside the data area (16-aligned cursor, size a
            // multiple of 16) and inside `tail..head`, which the writer no longer touches.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    self.mem.data.add(pos as usize),
                    raw.as_mut_ptr(),
                    16,
                );
            }
            let header = EntryHeader::from_bytes(raw);
            let entry = HEADER + round_up(u64::from(header.len));
            if entry > to_end || entry > available {
                return Err(RingError(format!(
                    "entry of {entry} bytes at {pos} overruns the ring ({to_end} to the wrap, \
                     {available} published)"
                )));
            }
            match header.tag {
                TAG_PAD => {
                    if entry != to_end {
                        return Err(RingError("padding that does not reach the wrap".to_owned()));
                    }
                }
                TAG_FIRST => {
                    if self.expecting.is_some() {
                        return Err(RingError("a message started inside another".to_owned()));
                    }
                    if header.total > cap {
                        return Err(RingError(format!(
                            "message of {} bytes exceeds the {cap}-byte cap",
                            header.total
                        )));
                    }
                    if u64::from(header.len) > header.total {
                        return Err(RingError("first chunk longer than its message".to_owned()));
                    }
                    out.clear();
                    self.expecting = Some(header.total);
                }
                TAG_MORE => match self.expecting {
                    Some(left) if u64::from(header.len) <= left && header.len > 0 => {}
                    _ => return Err(RingError("a chunk outside any message".to_owned())),
                },
                tag => return Err(RingError(format!("unknown entry tag {tag:#010x}"))),
            }
            if header.tag != TAG_PAD {
                let len = header.len as usize;
                let start = out.len();
                // Copied into spare capacity, not into zeroes written first: a batch's bytes
                // are written once on this side.
                out.reserve(len);
                debug_assert!(pos + HEADER + len as u64 <= size);
                // SAFETY: the payload lies inside the entry, which lies inside the data area
                // and inside `tail..head` (checked above); `out` has capacity for `len` more
                // bytes at `start` (reserved above), and once they are copied the first
                // `start + len` bytes are initialised.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        self.mem.data.add((pos + HEADER) as usize),
                        out.as_mut_ptr().add(start),
                        len,
                    );
                    out.set_len(start + len);
                }
                if let Some(left) = self.expecting.as_mut() {
                    *left -= u64::from(header.len);
                }
            }
            self.tail += entry;
            // Release: our copies out of the entry happen before the writer reuses it; pairs
            // with the Acquire load in `Writer::refresh`.
            self.mem.tail().store(self.tail, Ordering::Release);
            // A stale or forged `head` can only make this notify needlessly (module docs).
            let in_use = self
                .mem
                .head()
                .load(Ordering::Acquire)
                .saturating_sub(self.tail);
            if in_use <= size / 2 {
                notify();
            }
            if self.expecting == Some(0) {
                self.expecting = None;
                return Ok(true);
            }
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    struct Heap {
        head: AtomicU64,
        tail: AtomicU64,
        data: Box<[std::cell::UnsafeCell<u8>]>,
    }
    // SAFETY: the test drives both ends from one thread.
    unsafe impl Sync for Heap {}

    fn pair(size: usize) -> (Writer, Reader) {
        let heap = std::sync::Arc::new(Heap {
            head: AtomicU64::new(0),
            tail: AtomicU64::new(0),
            data: (0..size).map(|_| std::cell::UnsafeCell::new(0)).collect(),
        });
        let mem = || RingMem {
            data: heap.data[0].get(),
            size: size as u64,
            head: &raw const heap.head,
            tail: &raw const heap.tail,
            keep: heap.clone(),
        };
        (Writer::new(mem()), Reader::new(mem()))
    }

    #[test]
    fn messages_pad_at_the_wrap_and_split_only_when_large() {
        let (mut w, mut r) = pair(256);
        let mut out = AlignedVec::new();
        let mut never = |_: &dyn Fn() -> bool| -> Result<(), ()> { panic!("no wait expected") };
        for round in 0..50u8 {
            let msg: Vec<u8> = (0..(round as usize * 7) % 100)
                .map(|i| i as u8 ^ round)
                .collect();
            w.write(
                &[&msg[..msg.len() / 2], &msg[msg.len() / 2..]],
                &mut never,
                &|| {},
            )
            .unwrap();
            assert!(r.poll(&mut out, 1 << 20, &|| {}).unwrap());
            assert_eq!(&out[..], &msg[..]);
            // A small message is one entry: it never straddles the wrap.
            assert_eq!(w.head() % ENTRY_ALIGN, 0);
        }
        // Larger than half the ring: split into chunks, read back whole. One thread drives
        // both ends: the writer's wait for space lets the reader drain.
        let big: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
        let (mut w, mut r) = pair(256);
        let mut waits = 0;
        let mut complete = false;
        w.write(
            &[&big],
            &mut |_: &dyn Fn() -> bool| -> Result<(), ()> {
                waits += 1;
                complete |= r.poll(&mut out, 1 << 20, &|| {}).unwrap();
                Ok(())
            },
            &|| {},
        )
        .unwrap();
        while !complete {
            complete = r.poll(&mut out, 1 << 20, &|| {}).unwrap();
        }
        assert!(
            waits > 0,
            "a 1000-byte message cannot fit a 256-byte ring at once"
        );
        assert_eq!(&out[..], &big[..]);
    }

    #[test]
    fn forged_headers_and_cursors_are_refused() {
        let (mut w, mut r) = pair(256);
        let mut out = AlignedVec::new();
        w.write(&[b"hello"], &mut |_| Err(()), &|| {}).unwrap();
        // Corrupt the tag.
        // SAFETY: single-threaded test; byte 0 is inside the data area.
        unsafe { *w.mem.data = 0xEE };
        assert!(r.poll(&mut out, 1 << 20, &|| {}).is_err());
        // A writer cursor that jumps more than a ring ahead.
        let (w, mut r) = pair(256);
        w.mem.head().store(4096, Ordering::Release);
        assert!(r.poll(&mut out, 1 << 20, &|| {}).is_err());
        // A message over the cap.
        let (mut w, mut r) = pair(256);
        w.write(&[&[0u8; 64]], &mut |_| Err(()), &|| {}).unwrap();
        assert!(r.poll(&mut out, 32, &|| {}).is_err());
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use crate::transport::doorbell::ThreadBell;
    use crate::transport::sync::thread;

    struct Heap {
        head: AtomicU64,
        tail: AtomicU64,
        data: Box<[std::cell::UnsafeCell<u8>]>,
        /// The writer parks here waiting for space.
        writer_bell: ThreadBell,
        /// The reader parks here waiting for entries.
        reader_bell: ThreadBell,
    }
    // SAFETY: the data bytes are accessed under the ring protocol the test checks.
    unsafe impl Sync for Heap {}
    // SAFETY: as above.
    unsafe impl Send for Heap {}

    /// Messages that pad at the wrap and that are split, through a 64-byte ring, with both
    /// sides parking on doorbells: every message arrives intact and nobody sleeps forever.
    #[test]
    fn loom_byte_ring_pads_splits_and_wakes() {
        let mut builder = loom::model::Builder::new();
        builder.preemption_bound = Some(3);
        builder.check(|| {
            let heap = std::sync::Arc::new(Heap {
                head: AtomicU64::new(0),
                tail: AtomicU64::new(0),
                data: (0..64).map(|_| std::cell::UnsafeCell::new(0)).collect(),
                writer_bell: ThreadBell::new(),
                reader_bell: ThreadBell::new(),
            });
            let mem = || RingMem {
                data: heap.data[0].get(),
                size: 64,
                head: &raw const heap.head,
                tail: &raw const heap.tail,
                keep: heap.clone(),
            };
            let mut reader = Reader::new(mem());
            let mut writer = Writer::new(mem());
            let h = heap.clone();
            let consumer = thread::spawn(move || {
                let mut out = AlignedVec::new();
                let mut got = Vec::new();
                while got.len() < 2 {
                    let ready = reader.data_ready();
                    h.reader_bell.wait(ready);
                    while reader
                        .poll(&mut out, 1024, &|| h.writer_bell.ring())
                        .unwrap()
                    {
                        got.push(out.to_vec());
                    }
                }
                got
            });
            let first = [1u8; 20];
            let second = [2u8; 24];
            for msg in [&first[..], &second[..]] {
                writer
                    .write(
                        &[msg],
                        &mut |ready| {
                            heap.writer_bell.wait(ready);
                            Ok::<(), ()>(())
                        },
                        &|| heap.reader_bell.ring(),
                    )
                    .unwrap();
            }
            let got = consumer.join().unwrap();
            assert_eq!(got, vec![first.to_vec(), second.to_vec()]);
        });
    }
}

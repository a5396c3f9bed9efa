//! The mapping heap of an `shm`/`fork` session: one shared segment out of which the client
//! carves the memory of persistent buffer mappings, so that what a program writes through
//! such a mapping reaches the server without crossing the command ring.
//!
//! The client creates the heap (a memfd of [`HEAP_BYTES`], sealed against resizing like the
//! other segments; untouched pages take no memory) and passes it with the command segment.
//! The server maps it **read-only**. A persistent mapping that gets a block of the heap hands
//! the program the block's address; the engine names the block to the server once
//! (`AttachHeapRange`: buffer, offset, heap offset, size) and the dispatcher then copies into
//! the buffer, at the start of every batch, the pages of the block that changed since it last
//! looked (`crate::dispatch`). Records carry offsets into the heap, never addresses or
//! descriptors; the server checks each against the heap's size.
//!
//! A block is reused only once the server is known to be done with it: [`SharedHeap::free`]
//! is called after the batch carrying the block's `DetachHeapRange` was submitted, tags the
//! block with that batch's number, and the block returns to the free list when the server's
//! `applied` watermark has reached it. Its pages are then handed back to the system
//! (`FALLOC_FL_PUNCH_HOLE`), so the heap's memory follows the live mappings. When the heap
//! is full, a mapping falls back to the path every transport has: the client keeps the
//! mapping's memory and sends its changed pages as `WriteBuffer` records.

use std::os::fd::{AsFd, OwnedFd};
use std::sync::Arc;

use super::sys::{self, Mapping};

/// Bytes of a session's mapping heap: the most persistent mappings of one session may map
/// through the heap at once (address space only; pages take memory while mapped).
pub const HEAP_BYTES: usize = 256 << 20;

/// Blocks are whole pages, so a freed block's memory can be handed back to the system.
const HEAP_PAGE: usize = 4096;

/// The address of a block's bytes is congruent to its buffer offset modulo this (GL 4.2's
/// `MIN_MAP_BUFFER_ALIGNMENT`, which the engine's mappings keep).
const BLOCK_ALIGNMENT: usize = 64;

/// The client's side of the heap: the segment, mapped read-write, and its allocator.
pub struct SharedHeap {
    fd: OwnedFd,
    map: Arc<Mapping>,
    /// Free `[start, end)` page ranges: sorted, disjoint, not touching.
    free: Vec<(usize, usize)>,
    /// Blocks the server may still read: (the batch after which it no longer does, start,
    /// end).
    retiring: Vec<(u64, usize, usize)>,
}

impl std::fmt::Debug for SharedHeap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedHeap")
            .field("free", &self.free)
            .field("retiring", &self.retiring)
            .finish_non_exhaustive()
    }
}

impl SharedHeap {
    /// Creates the heap's segment (client side); the descriptor goes to the server.
    pub(crate) fn create() -> std::io::Result<Self> {
        let fd = sys::memfd(c"tessera-mapping-heap", HEAP_BYTES)?;
        let map = Arc::new(Mapping::new(fd.as_fd(), 0, HEAP_BYTES, true, false)?);
        Ok(Self {
            fd,
            map,
            free: vec![(0, HEAP_BYTES)],
            retiring: Vec::new(),
        })
    }

    /// The segment's descriptor, to pass to the server.
    pub(crate) fn fd(&self) -> &OwnedFd {
        &self.fd
    }

    /// A block of `len` bytes for a mapping at `offset` into its buffer (its address
    /// congruent to `offset` modulo 64), or `None` when the heap has no room (the caller
    /// falls back to client memory). `applied`: the server's `applied` watermark, which
    /// frees the blocks it has finished with first. The block reads as zeros.
    pub fn alloc(&mut self, len: usize, offset: u64, applied: u64) -> Option<HeapBlock> {
        self.reclaim(applied);
        let skew = (offset % BLOCK_ALIGNMENT as u64) as usize;
        let need = (len.checked_add(skew)?).checked_next_multiple_of(HEAP_PAGE)?;
        let i = self.free.iter().position(|&(s, e)| e - s >= need)?;
        let start = self.free[i].0;
        if self.free[i].1 - start == need {
            self.free.remove(i);
        } else {
            self.free[i].0 += need;
        }
        Some(HeapBlock {
            map: self.map.clone(),
            start,
            end: start + need,
            at: start + skew,
            len,
        })
    }

    /// Gives `block` back once the server has applied batch `batch` (the one carrying its
    /// `DetachHeapRange`, already submitted).
    pub fn free(&mut self, block: HeapBlock, batch: u64) {
        self.retiring.push((batch, block.start, block.end));
    }

    /// Returns the blocks of batches the server has applied to the free list, and their pages
    /// to the system.
    fn reclaim(&mut self, applied: u64) {
        let mut i = 0;
        while i < self.retiring.len() {
            let (batch, start, end) = self.retiring[i];
            if batch > applied {
                i += 1;
                continue;
            }
            self.retiring.swap_remove(i);
            // A failed punch only keeps the pages' memory until the heap goes.
            let _ = sys::punch_hole(self.fd.as_fd(), start, end - start);
            self.insert_free(start, end);
        }
    }

    /// Puts `[start, end)` back on the free list, merged with its neighbours.
    fn insert_free(&mut self, start: usize, end: usize) {
        let i = self.free.partition_point(|&(s, _)| s < start);
        self.free.insert(i, (start, end));
        if i + 1 < self.free.len() && self.free[i + 1].0 == end {
            self.free[i].1 = self.free[i + 1].1;
            self.free.remove(i + 1);
        }
        if i > 0 && self.free[i - 1].1 == start {
            self.free[i - 1].1 = self.free[i].1;
            self.free.remove(i);
        }
    }

    /// Bytes of the heap in blocks handed out or not yet reclaimed.
    pub fn used(&self) -> usize {
        HEAP_BYTES - self.free.iter().map(|&(s, e)| e - s).sum::<usize>()
    }
}

/// A block of the mapping heap: the memory of one persistent mapping, which the program
/// writes through its address and the server reads. It keeps the heap mapped while it lives.
pub struct HeapBlock {
    map: Arc<Mapping>,
    /// The pages the block takes: `[start, end)` of the heap.
    start: usize,
    end: usize,
    /// Where its bytes start in the heap.
    at: usize,
    /// How many bytes.
    len: usize,
}

impl std::fmt::Debug for HeapBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeapBlock")
            .field("at", &self.at)
            .field("len", &self.len)
            .finish()
    }
}

impl HeapBlock {
    /// The heap offset of the block's first byte, as `AttachHeapRange` names it.
    pub fn heap_offset(&self) -> u64 {
        self.at as u64
    }
}

impl std::ops::Deref for HeapBlock {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        debug_assert!(self.at + self.len <= self.map.len());
        // SAFETY:
        // - `[at, at + len)` lies inside the heap's mapping (`alloc` carved it out of the
        //   free list, which never reaches past `HEAP_BYTES`), which `self.map` keeps mapped;
        // - the range belongs to this block alone until it is freed, which consumes the
        //   block, so no other slice of this process overlaps it;
        // - the server maps the heap read-only, so nothing else writes it; any byte value
        //   is a valid `u8`.
        unsafe { std::slice::from_raw_parts(self.map.ptr().add(self.at), self.len) }
    }
}

impl std::ops::DerefMut for HeapBlock {
    fn deref_mut(&mut self) -> &mut [u8] {
        debug_assert!(self.at + self.len <= self.map.len());
        // SAFETY: as in `deref`; `&mut self` makes this the only slice of the block (the
        // program writes through the block's address, which is how a mapping is used).
        unsafe { std::slice::from_raw_parts_mut(self.map.ptr().add(self.at), self.len) }
    }
}

/// The server's view of a session's mapping heap: mapped read-only, read only by copying.
pub struct HeapView {
    map: Mapping,
}

impl std::fmt::Debug for HeapView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeapView")
            .field("len", &self.map.len())
            .finish()
    }
}

impl HeapView {
    /// Maps a heap a client sent, after checking its size and seals.
    pub(crate) fn map(fd: &OwnedFd) -> Result<Self, String> {
        sys::check_segment(fd.as_fd(), HEAP_BYTES)?;
        let map =
            Mapping::new(fd.as_fd(), 0, HEAP_BYTES, false, false).map_err(|e| e.to_string())?;
        Ok(Self { map })
    }

    /// Bytes of the heap.
    pub fn len(&self) -> u64 {
        self.map.len() as u64
    }

    /// Whether the heap has no bytes (never, for a mapped heap).
    pub fn is_empty(&self) -> bool {
        self.map.len() == 0
    }

    /// Whether `[at, at + len)` lies inside the heap.
    pub fn contains(&self, at: u64, len: u64) -> bool {
        at.checked_add(len).is_some_and(|end| end <= self.len())
    }

    /// Copies `[at, at + dst.len())` of the heap into `dst`; `false` (nothing copied) when
    /// the range is not inside the heap.
    pub fn read(&self, at: u64, dst: &mut [u8]) -> bool {
        if !self.contains(at, dst.len() as u64) {
            return false;
        }
        // SAFETY:
        // - the source range lies inside the mapping (checked above), which `self` keeps
        //   mapped, readable and unfaulting (the segment is sealed against shrinking);
        // - `dst` is this process's memory and cannot overlap a shared mapping;
        // - the client may write the bytes while they are copied: each byte is copied once,
        //   and any value is a valid `u8` (a torn copy is one the next look corrects).
        unsafe {
            std::ptr::copy_nonoverlapping(
                self.map.ptr().add(at as usize),
                dst.as_mut_ptr(),
                dst.len(),
            );
        }
        true
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_aligned_to_their_offset_and_reused_after_the_server_applied() {
        let mut heap = SharedHeap::create().unwrap();
        let a = heap.alloc(100, 3, 0).unwrap();
        assert_eq!(a.as_ptr() as usize % BLOCK_ALIGNMENT, 3);
        assert_eq!(a.len(), 100);
        let b = heap.alloc(HEAP_PAGE, 0, 0).unwrap();
        assert_eq!(b.heap_offset(), HEAP_PAGE as u64);
        assert_eq!(heap.used(), 2 * HEAP_PAGE);
        let a_at = a.heap_offset();
        heap.free(a, 5);
        // The server has not applied batch 5: the block stays out of the free list.
        let c = heap.alloc(10, 0, 4).unwrap();
        assert_ne!(c.heap_offset(), a_at - 3);
        heap.free(c, 6);
        heap.free(b, 6);
        let d = heap.alloc(10, 0, 6).unwrap();
        assert_eq!(d.heap_offset(), 0, "every block came back, merged");
        assert!(d.iter().all(|&x| x == 0), "a reused block reads as zeros");
        assert!(heap.alloc(HEAP_BYTES, 0, 6).is_none(), "no room: fall back");
    }

    #[test]
    fn the_server_reads_what_the_client_wrote_and_refuses_ranges_outside() {
        let mut heap = SharedHeap::create().unwrap();
        let mut block = heap.alloc(16, 0, 0).unwrap();
        block.copy_from_slice(&[7; 16]);
        let view = HeapView::map(heap.fd()).unwrap();
        let mut got = [0u8; 16];
        assert!(view.read(block.heap_offset(), &mut got));
        assert_eq!(got, [7; 16]);
        assert!(!view.read(HEAP_BYTES as u64 - 8, &mut got));
        assert!(!view.read(u64::MAX, &mut got));
    }
}

//! The shared-memory segments of an `shm` session and the control page's layout.
//!
//! | segment | created by | client maps | server maps | holds |
//! |---|---|---|---|---|
//! | command | client | page + ring read-write | page read-write, ring **read-only** | [`ControlPage`], then the command ring |
//! | event | server | ring **read-only** | read-write | the event ring (replies, events) |
//! | mapping heap | client | read-write | **read-only** | persistent mappings' memory (`heap.rs`) |
//!
//! Each segment is a memfd created by its owner, sized once and sealed against shrinking and
//! growing (a peer that truncated a segment would make the other side fault on its mapping),
//! then passed over the control socket with `SCM_RIGHTS`. The receiver checks the size and the
//! seals before mapping. The bell of each side is an eventfd it creates and passes the same way.
//!
//! ## The control page
//! One 4 KiB page, `#[repr(C)]`: a header written once by the client before the segment is
//! shared (magic, version, sizes, fingerprint — never pointers), then one cache line per
//! contention group, grouped by writer, so no two writers ever share a line:
//!
//! | line | writer | fields |
//! |---|---|---|
//! | 1 | client | `cmd_head` (command ring bytes published), `submitted` (batches published; diagnostic) |
//! | 2 | client | `event_tail` (event ring bytes consumed) |
//! | 3 | client | `client_parked` (the client's doorbell flag) |
//! | 4 | server | `retired` (command ring bytes copied out: reusable), `applied` (batches applied) |
//! | 5 | server | `completed` (GPU work finished), `present_ack` (presents returned) |
//! | 6 | server | `event_head` (event ring bytes published) |
//! | 7 | server | `server_parked` (the server's doorbell flag) |
//!
//! Every watermark is a monotonic `u64`; every wait compares with `>=`; a watermark may be
//! published late, never early, and one that goes backwards is a protocol error. `completed`
//! and `present_ack` are laid out for the backends that report GPU completion and presents;
//! the null backend reports neither, so they stay 0 and nothing waits on them yet. Each side
//! keeps its own copy of the values it writes and never reads its own fields back from the
//! page, so a peer scribbling on them can only confuse itself.

use std::os::fd::{AsFd, OwnedFd};
use std::sync::Arc;

use super::byte_ring::RingMem;
use super::sync::{AtomicU32, AtomicU64};
use super::sys::{self, Mapping};

/// Bytes of the control page (one page, so the ring after it is page-aligned for `mmap`).
pub(crate) const PAGE_BYTES: usize = 4096;

/// Magic of the control page header (`TESSCTL1`).
const PAGE_MAGIC: u64 = u64::from_le_bytes(*b"TESSCTL1");
/// Layout version of the control page.
const PAGE_VERSION: u32 = 1;

/// Smallest ring either side accepts (64 KiB: a few batches).
pub(crate) const MIN_RING_BYTES: u64 = 64 << 10;
/// Largest ring either side accepts (256 MiB).
pub(crate) const MAX_RING_BYTES: u64 = 256 << 20;

/// One cache line.
#[repr(C, align(64))]
pub(crate) struct Line<T>(pub T);

/// Written once by the client, before the segment is shared.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PageHeader {
    /// [`PAGE_MAGIC`].
    pub magic: u64,
    /// [`PAGE_VERSION`].
    pub version: u32,
    /// [`PAGE_BYTES`].
    pub page_bytes: u32,
    /// Command ring bytes.
    pub cmd_bytes: u64,
    /// Event ring bytes.
    pub event_bytes: u64,
    /// The client's wire fingerprint.
    pub fingerprint: u64,
}

impl PageHeader {
    /// The header this build writes for rings of the negotiated sizes (and expects to read).
    fn ours(cmd_bytes: u64, event_bytes: u64) -> Self {
        Self {
            magic: PAGE_MAGIC,
            version: PAGE_VERSION,
            page_bytes: PAGE_BYTES as u32,
            cmd_bytes,
            event_bytes,
            fingerprint: crate::FINGERPRINT,
        }
    }
}

/// The client's publication cursors.
#[repr(C)]
pub(crate) struct ClientCursors {
    /// Command ring bytes published. Single writer: the client. Range: `retired ..= retired +
    /// cmd_bytes`.
    pub cmd_head: AtomicU64,
    /// Batches published. Single writer: the client. A diagnostic (how far ahead the client
    /// runs); nobody waits on it.
    pub submitted: AtomicU64,
}

/// The server's progress on the command ring.
#[repr(C)]
pub(crate) struct ServerProgress {
    /// Command ring bytes copied out, so reusable by the client. Single writer: the server.
    /// Never beyond `cmd_head`.
    pub retired: AtomicU64,
    /// Batches applied. Single writer: the server. Advanced by one per batch, right after the
    /// backend returns, never batched.
    pub applied: AtomicU64,
}

/// Watermarks of GPU work.
#[repr(C)]
pub(crate) struct GpuProgress {
    /// GPU work completed up to this fence serial. Single writer: the server.
    pub completed: AtomicU64,
    /// Presents whose credit was returned. Single writer: the server.
    pub present_ack: AtomicU64,
}

/// The control page.
#[repr(C)]
pub(crate) struct ControlPage {
    /// Line 0.
    pub header: Line<PageHeader>,
    /// Line 1 (client).
    pub client: Line<ClientCursors>,
    /// Line 2 (client): event ring bytes consumed. Never beyond `event_head`.
    pub event_tail: Line<AtomicU64>,
    /// Line 3 (client): 1 while the client may be parked.
    pub client_parked: Line<AtomicU32>,
    /// Line 4 (server).
    pub server: Line<ServerProgress>,
    /// Line 5 (server).
    pub gpu: Line<GpuProgress>,
    /// Line 6 (server): event ring bytes published.
    pub event_head: Line<AtomicU64>,
    /// Line 7 (server): 1 while the server may be parked.
    pub server_parked: Line<AtomicU32>,
}

const _: () = assert!(size_of::<ControlPage>() <= PAGE_BYTES);
const _: () = assert!(size_of::<ControlPage>() == 8 * 64);

/// The mapped command segment.
pub(crate) struct CommandSegment {
    /// The control page (read-write on both sides).
    page: Mapping,
    /// The command ring (read-write for the client, read-only for the server).
    ring: Mapping,
}

impl CommandSegment {
    /// The control page.
    pub(crate) fn page(&self) -> &ControlPage {
        // SAFETY:
        // - the mapping is PAGE_BYTES long and page-aligned, and `ControlPage` fits in it with
        //   an alignment of 64 (asserted above);
        // - every field other than the header is an atomic, which may be shared between
        //   processes; the header is plain data read only through `header()` (a copy);
        // - a zero-filled page (a fresh memfd) is a valid `ControlPage`: atomics at 0.
        unsafe { &*self.page.ptr().cast::<ControlPage>() }
    }

    /// A copy of the header.
    pub(crate) fn header(&self) -> PageHeader {
        // SAFETY: the header is at the start of the page, aligned and in bounds; a volatile
        // read copies it once even if the peer writes it concurrently (its fields are plain
        // integers, any bit pattern is valid).
        unsafe { std::ptr::read_volatile(self.page.ptr().cast::<PageHeader>()) }
    }
}

/// Shares the command segment's memory with the rings built on it.
pub(crate) type SharedCommand = Arc<CommandSegment>;

/// Creates the command segment (client side): page + ring of `cmd_bytes`, header written.
pub(crate) fn create_command(
    cmd_bytes: u64,
    event_bytes: u64,
) -> std::io::Result<(OwnedFd, SharedCommand)> {
    let fd = sys::memfd(c"tessera-command", PAGE_BYTES + cmd_bytes as usize)?;
    let page = Mapping::new(fd.as_fd(), 0, PAGE_BYTES, true, false)?;
    let ring = Mapping::new(fd.as_fd(), PAGE_BYTES, cmd_bytes as usize, true, true)?;
    let header = PageHeader::ours(cmd_bytes, event_bytes);
    // SAFETY: the page is ours alone until the descriptor is sent; the header is in bounds
    // and aligned at its start.
    unsafe { std::ptr::write_volatile(page.ptr().cast::<PageHeader>(), header) };
    Ok((fd, Arc::new(CommandSegment { page, ring })))
}

/// Maps a command segment a client sent (server side), after checking its size, seals and
/// header against what was negotiated. The ring is mapped read-only.
pub(crate) fn map_command(
    fd: &OwnedFd,
    cmd_bytes: u64,
    event_bytes: u64,
) -> Result<SharedCommand, String> {
    sys::check_segment(fd.as_fd(), PAGE_BYTES + cmd_bytes as usize)?;
    let page = Mapping::new(fd.as_fd(), 0, PAGE_BYTES, true, false).map_err(|e| e.to_string())?;
    let ring = Mapping::new(fd.as_fd(), PAGE_BYTES, cmd_bytes as usize, false, true)
        .map_err(|e| e.to_string())?;
    let segment = CommandSegment { page, ring };
    let expected = PageHeader::ours(cmd_bytes, event_bytes);
    let header = segment.header();
    if header != expected {
        return Err(format!(
            "control page header {header:?} is not the negotiated {expected:?}"
        ));
    }
    Ok(Arc::new(segment))
}

/// Creates the event segment (server side).
pub(crate) fn create_event(event_bytes: u64) -> std::io::Result<(OwnedFd, Arc<Mapping>)> {
    let fd = sys::memfd(c"tessera-event", event_bytes as usize)?;
    let ring = Mapping::new(fd.as_fd(), 0, event_bytes as usize, true, true)?;
    Ok((fd, Arc::new(ring)))
}

/// Maps an event segment a server sent (client side), read-only, after checking it.
pub(crate) fn map_event(fd: &OwnedFd, event_bytes: u64) -> Result<Arc<Mapping>, String> {
    sys::check_segment(fd.as_fd(), event_bytes as usize)?;
    Mapping::new(fd.as_fd(), 0, event_bytes as usize, false, true)
        .map(Arc::new)
        .map_err(|e| e.to_string())
}

/// The command ring's memory and cursors.
pub(crate) fn command_ring(cmd: &SharedCommand) -> RingMem {
    let page = cmd.page();
    RingMem {
        data: cmd.ring.ptr(),
        size: cmd.ring.len() as u64,
        head: &raw const page.client.0.cmd_head,
        tail: &raw const page.server.0.retired,
        keep: cmd.clone(),
    }
}

/// The event ring's memory and cursors.
pub(crate) fn event_ring(cmd: &SharedCommand, event: &Arc<Mapping>) -> RingMem {
    let page = cmd.page();
    RingMem {
        data: event.ptr(),
        size: event.len() as u64,
        head: &raw const page.event_head.0,
        tail: &raw const page.event_tail.0,
        keep: Arc::new((cmd.clone(), event.clone())),
    }
}

/// Clamps a requested ring size to what this side accepts (a multiple of the page size).
pub(crate) fn clamp_ring(requested: u64) -> u64 {
    requested
        .clamp(MIN_RING_BYTES, MAX_RING_BYTES)
        .next_multiple_of(PAGE_BYTES as u64)
}

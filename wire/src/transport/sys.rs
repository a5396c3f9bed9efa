//! The operating-system calls the process transports need, each wrapped once with its safety
//! argument: memfd segments and their seals, shared mappings, eventfds, `poll`, sockets that
//! carry descriptors (`SCM_RIGHTS`), peer credentials, signals and random bytes.
//!
//! Linux only, like the rest of the process transports. Every call that can fail returns an
//! `io::Error`; nothing here panics on what the peer sent.

use std::ffi::CStr;
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, IntoRawFd, OwnedFd, RawFd};
use std::ptr::NonNull;

/// The seals every shared segment carries: its size can never change (a peer that shrank a
/// segment would make the other side fault on its mapping), and the seals themselves are
/// final.
const SEALS: libc::c_int = libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_SEAL;

fn check(ret: libc::c_int) -> io::Result<libc::c_int> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

fn check_size(ret: isize) -> io::Result<usize> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret as usize)
    }
}

/// Creates a sealed memfd segment of `size` bytes.
pub(crate) fn memfd(name: &CStr, size: usize) -> io::Result<OwnedFd> {
    // SAFETY:
    // - `name` is a valid NUL-terminated string for the duration of the call;
    // - the flags are valid memfd_create flags.
    let raw = check(unsafe {
        libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING)
    })?;
    // SAFETY: `raw` is a descriptor memfd_create just returned, owned by nobody else.
    let fd = unsafe { OwnedFd::from_raw_fd(raw) };
    let len =
        libc::off_t::try_from(size).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: `fd` is a valid memfd; ftruncate has no memory-safety preconditions.
    check(unsafe { libc::ftruncate(fd.as_raw_fd(), len) })?;
    // SAFETY: `fd` is a valid memfd created with MFD_ALLOW_SEALING; F_ADD_SEALS takes an int.
    check(unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_ADD_SEALS, SEALS) })?;
    Ok(fd)
}

/// Hands the pages of `[offset, offset + len)` of a memfd segment back to the system (they
/// read as zeros afterwards); the segment's size does not change.
pub(crate) fn punch_hole(fd: BorrowedFd<'_>, offset: usize, len: usize) -> io::Result<()> {
    let (off, len) = (
        libc::off_t::try_from(offset).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?,
        libc::off_t::try_from(len).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?,
    );
    // SAFETY: `fd` is a valid descriptor; fallocate has no memory-safety preconditions, and
    // KEEP_SIZE leaves the (sealed) size alone, so no mapping of the segment can fault.
    check(unsafe {
        libc::fallocate(
            fd.as_raw_fd(),
            libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE,
            off,
            len,
        )
    })?;
    Ok(())
}

/// Checks a segment a peer sent: exactly `size` bytes and sealed against resizing, so mapping
/// it cannot fault later.
pub(crate) fn check_segment(fd: BorrowedFd<'_>, size: usize) -> Result<(), String> {
    let mut st = std::mem::MaybeUninit::<libc::stat>::zeroed();
    // SAFETY: `st` is writable memory of the size of `stat`; `fd` is a valid descriptor.
    let ret = unsafe { libc::fstat(fd.as_raw_fd(), st.as_mut_ptr()) };
    if ret < 0 {
        return Err(format!("fstat: {}", io::Error::last_os_error()));
    }
    // SAFETY: fstat succeeded, so it initialised the struct (which was zeroed anyway).
    let st = unsafe { st.assume_init() };
    if st.st_size as u64 != size as u64 {
        return Err(format!(
            "segment is {} bytes, {size} were negotiated",
            st.st_size
        ));
    }
    // SAFETY: `fd` is a valid descriptor; F_GET_SEALS takes no argument.
    let seals = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GET_SEALS) };
    if seals < 0 || seals & SEALS != SEALS {
        return Err("segment is not sealed against resizing".to_owned());
    }
    Ok(())
}

/// A shared mapping of (part of) a segment; unmapped on drop.
pub(crate) struct Mapping {
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: a `Mapping` is a plain address range; it is unmapped exactly once (on drop), and
// what is done with the bytes is the business of the types that hold it (the rings), which
// document their own synchronisation.
unsafe impl Send for Mapping {}
// SAFETY: as above; `&Mapping` only hands out the base address and length.
unsafe impl Sync for Mapping {}

impl Mapping {
    /// Maps `len` bytes of `fd` from `offset`, shared; writable when `write`. With
    /// `populate`, every page is mapped now (`MAP_POPULATE`): a ring whose pages would
    /// otherwise each fault once in each process the first time a batch reaches them (a
    /// 16 MiB ring takes many frames to wrap) costs nothing per page in steady frames.
    pub(crate) fn new(
        fd: BorrowedFd<'_>,
        offset: usize,
        len: usize,
        write: bool,
        populate: bool,
    ) -> io::Result<Self> {
        let prot = if write {
            libc::PROT_READ | libc::PROT_WRITE
        } else {
            libc::PROT_READ
        };
        let off = libc::off_t::try_from(offset)
            .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
        // SAFETY:
        // - a null hint lets the kernel choose an address that overlaps no Rust allocation;
        // - `fd` is a valid descriptor of a segment checked to be at least `offset + len`
        //   bytes and sealed against shrinking (`check_segment` / `memfd`), so the mapping
        //   never faults.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                prot,
                if populate {
                    libc::MAP_SHARED | libc::MAP_POPULATE
                } else {
                    libc::MAP_SHARED
                },
                fd.as_raw_fd(),
                off,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        NonNull::new(ptr.cast::<u8>())
            .map(|ptr| Self { ptr, len })
            .ok_or_else(|| io::Error::from(io::ErrorKind::Other))
    }

    /// The first byte.
    pub(crate) fn ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// Length in bytes.
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: `ptr`/`len` are exactly what mmap returned and nothing uses the range after
        // the owner drops it (the rings hold the mapping for as long as they use it).
        unsafe { libc::munmap(self.ptr.as_ptr().cast(), self.len) };
    }
}

/// Creates a non-blocking eventfd (a doorbell's sleeper).
pub(crate) fn eventfd() -> io::Result<OwnedFd> {
    // SAFETY: eventfd has no memory-safety preconditions.
    let raw = check(unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) })?;
    // SAFETY: `raw` was just returned by eventfd and is owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(raw) })
}

/// Adds one to an eventfd's counter, waking whoever polls it.
pub(crate) fn eventfd_ring(fd: BorrowedFd<'_>) {
    let one = 1u64.to_ne_bytes();
    // SAFETY: `one` is 8 readable bytes, the size an eventfd write takes. A failure (the
    // counter at its maximum) means a wake is already pending, which is all a ring asks.
    unsafe { libc::write(fd.as_raw_fd(), one.as_ptr().cast(), one.len()) };
}

/// Resets an eventfd's counter.
pub(crate) fn eventfd_drain(fd: BorrowedFd<'_>) {
    let mut buf = [0u8; 8];
    // SAFETY: `buf` is 8 writable bytes; the eventfd is non-blocking, so this never blocks.
    unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
}

/// What `poll` saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Polled {
    /// The first descriptor is readable.
    pub first: bool,
    /// The second descriptor is readable, or hung up, or failed.
    pub second: bool,
}

/// Waits until `first` is readable or `second` is readable or hung up. `timeout_ms < 0`
/// waits without limit. Interrupted calls are retried.
pub(crate) fn poll2(
    first: BorrowedFd<'_>,
    second: BorrowedFd<'_>,
    timeout_ms: i32,
) -> io::Result<Polled> {
    let mut fds = [
        libc::pollfd {
            fd: first.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        },
        libc::pollfd {
            fd: second.as_raw_fd(),
            events: libc::POLLIN | libc::POLLRDHUP,
            revents: 0,
        },
    ];
    loop {
        // SAFETY: `fds` is a valid array of two pollfd structs that lives across the call.
        let ret = unsafe { libc::poll(fds.as_mut_ptr(), 2, timeout_ms) };
        if ret < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        return Ok(Polled {
            first: fds[0].revents != 0,
            second: fds[1].revents != 0,
        });
    }
}

/// Whether `fd` has something to read (data, end of stream or an error) right now.
pub(crate) fn readable_now(fd: BorrowedFd<'_>) -> bool {
    let mut pfd = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN | libc::POLLRDHUP,
        revents: 0,
    };
    // SAFETY: `pfd` is one valid pollfd; a zero timeout never blocks.
    let ret = unsafe { libc::poll(&mut pfd, 1, 0) };
    ret != 0 && pfd.revents != 0
}

/// Sends every byte of `parts` (and, with the first byte, the descriptors `fds`), blocking as
/// needed. `MSG_NOSIGNAL`: a peer that hung up is an error, never a SIGPIPE that would kill
/// the host process.
pub(crate) fn send_all(
    sock: BorrowedFd<'_>,
    parts: &[&[u8]],
    fds: &[BorrowedFd<'_>],
) -> io::Result<()> {
    let total: usize = parts.iter().map(|p| p.len()).sum();
    let mut sent = send_some(sock, parts, 0, fds, false)?;
    while sent < total {
        sent += send_some(sock, parts, sent, &[], false)?;
    }
    Ok(())
}

/// One `sendmsg` of `parts` from byte `skip` on, with `fds` attached. With `nonblocking`,
/// returns `Ok(0)` instead of blocking when the socket is full. Interrupted calls are retried.
pub(crate) fn send_some(
    sock: BorrowedFd<'_>,
    parts: &[&[u8]],
    skip: usize,
    fds: &[BorrowedFd<'_>],
    nonblocking: bool,
) -> io::Result<usize> {
    let mut iov: Vec<libc::iovec> = Vec::with_capacity(parts.len());
    let mut at = 0usize;
    for p in parts {
        let end = at + p.len();
        if end > skip && !p.is_empty() {
            let from = skip.saturating_sub(at);
            iov.push(libc::iovec {
                iov_base: p[from..].as_ptr() as *mut libc::c_void,
                iov_len: p.len() - from,
            });
        }
        at = end;
    }
    let raw_fds: Vec<RawFd> = fds.iter().map(|f| f.as_raw_fd()).collect();
    let mut control = vec![0u8; cmsg_space(raw_fds.len())];
    // SAFETY: an all-zero msghdr is a valid empty message.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = iov.as_mut_ptr();
    msg.msg_iovlen = iov.len() as _;
    if !raw_fds.is_empty() {
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = control.len() as _;
        // SAFETY: `msg` has a control buffer of CMSG_SPACE(n * 4) bytes, so CMSG_FIRSTHDR is
        // non-null and the header and its data fit in it.
        unsafe {
            let cmsg = libc::CMSG_FIRSTHDR(&msg);
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN((raw_fds.len() * 4) as u32) as _;
            std::ptr::copy_nonoverlapping(
                raw_fds.as_ptr(),
                libc::CMSG_DATA(cmsg).cast::<RawFd>(),
                raw_fds.len(),
            );
        }
    }
    let flags = libc::MSG_NOSIGNAL | if nonblocking { libc::MSG_DONTWAIT } else { 0 };
    loop {
        // SAFETY: `msg` points at `iov` (slices of `parts`, alive for the call) and at
        // `control` (alive for the call); sendmsg only reads them.
        let sent = unsafe { libc::sendmsg(sock.as_raw_fd(), &msg, flags) };
        match check_size(sent) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock && nonblocking => return Ok(0),
            Err(e) => return Err(e),
        }
    }
}

/// Waits until `sock` is readable (or hung up) or writable: `(readable, writable)`.
pub(crate) fn poll_read_write(sock: BorrowedFd<'_>) -> io::Result<(bool, bool)> {
    let r = poll_one(sock, libc::POLLIN | libc::POLLRDHUP | libc::POLLOUT)?;
    let readable = r & (libc::POLLIN | libc::POLLRDHUP | libc::POLLHUP | libc::POLLERR) != 0;
    Ok((readable, r & libc::POLLOUT != 0))
}

/// Waits until `sock` is readable or hung up.
pub(crate) fn wait_readable(sock: BorrowedFd<'_>) -> io::Result<()> {
    poll_one(sock, libc::POLLIN | libc::POLLRDHUP).map(drop)
}

/// Waits, however long it takes, for one of `events` on `sock` (retrying interrupted
/// waits): the events that happened.
fn poll_one(sock: BorrowedFd<'_>, events: i16) -> io::Result<i16> {
    let mut pfd = libc::pollfd {
        fd: sock.as_raw_fd(),
        events,
        revents: 0,
    };
    loop {
        // SAFETY: `pfd` is one valid pollfd.
        let ret = unsafe { libc::poll(&mut pfd, 1, -1) };
        if ret >= 0 {
            return Ok(pfd.revents);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

fn cmsg_space(fds: usize) -> usize {
    if fds == 0 {
        return 0;
    }
    // SAFETY: CMSG_SPACE is a pure size computation.
    unsafe { libc::CMSG_SPACE((fds * 4) as u32) as usize }
}

/// Most descriptors one message may carry.
pub(crate) const MAX_FDS: usize = 4;

/// Receives up to `buf.len()` bytes (blocking) and any descriptors sent with them. Returns 0
/// bytes at end of stream.
pub(crate) fn recv_with_fds(
    sock: BorrowedFd<'_>,
    buf: &mut [u8],
    fds: &mut Vec<OwnedFd>,
) -> io::Result<usize> {
    recvmsg_fds(sock, buf, fds, 0).map(|n| n.unwrap_or(0))
}

/// Non-blocking [`recv_with_fds`]: `Ok(None)` if nothing is available now, `Ok(Some(0))` at
/// end of stream. A client's control socket reads this way, so a descriptor the server sends
/// with a frame (an exported image's) is received, never dropped by the kernel.
pub(crate) fn recv_now_with_fds(
    sock: BorrowedFd<'_>,
    buf: &mut [u8],
    fds: &mut Vec<OwnedFd>,
) -> io::Result<Option<usize>> {
    recvmsg_fds(sock, buf, fds, libc::MSG_DONTWAIT)
}

/// One `recvmsg` with room for [`MAX_FDS`] descriptors and `flags`; `Ok(None)` when a
/// non-blocking read found nothing.
fn recvmsg_fds(
    sock: BorrowedFd<'_>,
    buf: &mut [u8],
    fds: &mut Vec<OwnedFd>,
    flags: libc::c_int,
) -> io::Result<Option<usize>> {
    // On the stack, aligned for `cmsghdr`: a client reads its control socket this way after
    // every batch on `unix:`, so no allocation per read. CMSG_SPACE of four descriptors is
    // 32 bytes on 64-bit Linux, well within it.
    let mut control = [0u64; 8];
    let control_len = cmsg_space(MAX_FDS).min(size_of_val(&control));
    loop {
        let mut iov = libc::iovec {
            iov_base: buf.as_mut_ptr().cast(),
            iov_len: buf.len(),
        };
        // SAFETY: an all-zero msghdr is a valid empty message.
        let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = control_len as _;
        // SAFETY: `msg` points at `buf` and `control`, both writable and alive for the call.
        // MSG_CMSG_CLOEXEC: received descriptors never leak into spawned processes.
        let got =
            unsafe { libc::recvmsg(sock.as_raw_fd(), &mut msg, libc::MSG_CMSG_CLOEXEC | flags) };
        let n = match check_size(got) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock && flags != 0 => return Ok(None),
            Err(e) => return Err(e),
        };
        // SAFETY: the kernel filled `control` up to `msg_controllen`; CMSG_FIRSTHDR/NXTHDR
        // walk only within it, and every SCM_RIGHTS payload holds `(len - CMSG_LEN(0)) / 4`
        // descriptors that now belong to this process.
        unsafe {
            let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
            while !cmsg.is_null() {
                if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                    let bytes = (*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize;
                    let data = libc::CMSG_DATA(cmsg).cast::<RawFd>();
                    for i in 0..bytes / 4 {
                        let raw = data.add(i).read_unaligned();
                        fds.push(OwnedFd::from_raw_fd(raw));
                    }
                }
                cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
            }
        }
        if msg.msg_flags & libc::MSG_CTRUNC != 0 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "too many descriptors in one message",
            ));
        }
        return Ok(Some(n));
    }
}

/// Reads exactly `buf.len()` bytes, collecting descriptors that arrive with them.
pub(crate) fn recv_exact(
    sock: BorrowedFd<'_>,
    mut buf: &mut [u8],
    fds: &mut Vec<OwnedFd>,
) -> io::Result<()> {
    while !buf.is_empty() {
        let n = recv_with_fds(sock, buf, fds)?;
        if n == 0 {
            return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
        }
        buf = &mut buf[n..];
    }
    Ok(())
}

/// Non-blocking peek into `buf`: the bytes waiting on `sock`, left there for the next read;
/// `Ok(None)` if nothing is available now, `Ok(Some(0))` at end of stream.
pub(crate) fn peek_now(sock: BorrowedFd<'_>, buf: &mut [u8]) -> io::Result<Option<usize>> {
    loop {
        // SAFETY: `buf` is writable for its length for the duration of the call.
        let got = unsafe {
            libc::recv(
                sock.as_raw_fd(),
                buf.as_mut_ptr().cast(),
                buf.len(),
                libc::MSG_DONTWAIT | libc::MSG_PEEK,
            )
        };
        match check_size(got) {
            Ok(n) => return Ok(Some(n)),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(None),
            Err(e) => return Err(e),
        }
    }
}

/// Credentials of the process at the other end of a unix socket (`SO_PEERCRED`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeerCred {
    /// Process id.
    pub pid: i32,
    /// Effective user id.
    pub uid: u32,
    /// Effective group id.
    pub gid: u32,
}

/// The credentials the kernel recorded for the peer of `sock` when it connected.
pub(crate) fn peer_cred(sock: BorrowedFd<'_>) -> io::Result<PeerCred> {
    let mut cred = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    let mut len = size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: `cred` is writable memory of `len` bytes, the size SO_PEERCRED writes.
    check(unsafe {
        libc::getsockopt(
            sock.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&raw mut cred).cast(),
            &mut len,
        )
    })?;
    Ok(PeerCred {
        pid: cred.pid,
        uid: cred.uid,
        gid: cred.gid,
    })
}

/// `SO_PEERGROUPS` (Linux 4.13): the peer's supplementary groups as the kernel recorded them
/// at `connect`. The value of the generic socket option table; architectures with their own
/// table fall back to `/proc`.
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "x86",
    target_arch = "aarch64",
    target_arch = "arm",
    target_arch = "riscv64"
))]
const SO_PEERGROUPS: libc::c_int = 59;

/// The supplementary groups the kernel recorded for a unix socket's peer (`SO_PEERGROUPS`);
/// an error where the kernel or the architecture lacks the option.
pub(crate) fn peer_groups(sock: BorrowedFd<'_>) -> io::Result<Vec<u32>> {
    #[cfg(any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        target_arch = "arm",
        target_arch = "riscv64"
    ))]
    {
        // Linux allows at most 65536 supplementary groups; start small and grow on ERANGE,
        // which reports the size needed in `len`.
        let mut groups = vec![0 as libc::gid_t; 64];
        loop {
            let mut len = (groups.len() * size_of::<libc::gid_t>()) as libc::socklen_t;
            // SAFETY: `groups` is writable memory of `len` bytes.
            let rc = unsafe {
                libc::getsockopt(
                    sock.as_raw_fd(),
                    libc::SOL_SOCKET,
                    SO_PEERGROUPS,
                    groups.as_mut_ptr().cast(),
                    &mut len,
                )
            };
            let n = len as usize / size_of::<libc::gid_t>();
            if rc == 0 {
                groups.truncate(n);
                return Ok(groups);
            }
            let err = io::Error::last_os_error();
            if err.raw_os_error() == Some(libc::ERANGE) && n > groups.len() {
                groups.resize(n, 0);
                continue;
            }
            return Err(err);
        }
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        target_arch = "arm",
        target_arch = "riscv64"
    )))]
    {
        let _ = sock;
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }
}

/// This process's effective user and group ids.
pub(crate) fn own_ids() -> (u32, u32) {
    // SAFETY: geteuid and getegid cannot fail and have no preconditions.
    unsafe { (libc::geteuid(), libc::getegid()) }
}

/// The id of user (`group` false) or group (`group` true) `name` from the system's user
/// database (NSS: files, LDAP, ...), `None` if it names nobody.
pub(crate) fn id_of_name(name: &str, group: bool) -> io::Result<Option<u32>> {
    let name = std::ffi::CString::new(name)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL in the name"))?;
    let mut buf = vec![0u8; 1024];
    loop {
        let (rc, id) = if group {
            let mut entry = std::mem::MaybeUninit::<libc::group>::zeroed();
            let mut result: *mut libc::group = std::ptr::null_mut();
            // SAFETY: every pointer is to live, writable memory of the right type; `buf`'s
            // length is passed with it; the entry is read only when `result` says it was found.
            let rc = unsafe {
                libc::getgrnam_r(
                    name.as_ptr(),
                    entry.as_mut_ptr(),
                    buf.as_mut_ptr().cast(),
                    buf.len(),
                    &mut result,
                )
            };
            // SAFETY: read only when the call filled the entry in (`result` non-null).
            (
                rc,
                (!result.is_null()).then(|| unsafe { entry.assume_init().gr_gid }),
            )
        } else {
            let mut entry = std::mem::MaybeUninit::<libc::passwd>::zeroed();
            let mut result: *mut libc::passwd = std::ptr::null_mut();
            // SAFETY: as for getgrnam_r above.
            let rc = unsafe {
                libc::getpwnam_r(
                    name.as_ptr(),
                    entry.as_mut_ptr(),
                    buf.as_mut_ptr().cast(),
                    buf.len(),
                    &mut result,
                )
            };
            // SAFETY: read only when the call filled the entry in (`result` non-null).
            (
                rc,
                (!result.is_null()).then(|| unsafe { entry.assume_init().pw_uid }),
            )
        };
        match rc {
            0 => return Ok(id),
            libc::ERANGE if buf.len() < 1 << 20 => buf.resize(buf.len() * 4, 0),
            // "Not found" comes back as 0 on glibc, as one of these elsewhere.
            libc::ENOENT | libc::ESRCH | libc::EBADF | libc::EPERM => return Ok(None),
            e => return Err(io::Error::from_raw_os_error(e)),
        }
    }
}

/// CPU time of this whole process so far (every thread, the native driver's included), user
/// and system, in nanoseconds; zeros if the kernel refuses.
pub(crate) fn process_cpu_ns() -> (u64, u64) {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `usage` is writable memory of the size of `rusage` (zeroed, so initialised even
    // if the call failed); RUSAGE_SELF is always valid.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
        usage.assume_init()
    };
    let ns = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1_000;
    (ns(usage.ru_utime), ns(usage.ru_stime))
}

/// Fills `buf` with random bytes from the kernel.
pub(crate) fn random(buf: &mut [u8]) -> io::Result<()> {
    let mut filled = 0;
    while filled < buf.len() {
        let rest = &mut buf[filled..];
        // SAFETY: `rest` is writable for its length.
        let got = unsafe { libc::getrandom(rest.as_mut_ptr().cast(), rest.len(), 0) };
        match check_size(got) {
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Clears `FD_CLOEXEC` so a spawned process inherits `fd`. Async-signal-safe (one fcntl), so
/// it may run between fork and exec.
pub(crate) fn inherit(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl with F_SETFD takes an int; an invalid fd is reported as EBADF.
    check(unsafe { libc::fcntl(fd, libc::F_SETFD, 0) }).map(drop)
}

/// Shuts both directions of a socket down, waking a thread blocked reading it.
pub(crate) fn shutdown(fd: BorrowedFd<'_>) {
    // SAFETY: shutdown has no memory-safety preconditions; errors (not connected) are moot.
    unsafe { libc::shutdown(fd.as_raw_fd(), libc::SHUT_RDWR) };
}

/// The write end of the self-pipe the termination handler writes to (-1: none installed).
static TERM_PIPE: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(-1);

extern "C" fn on_terminate(_signal: libc::c_int) {
    let fd = TERM_PIPE.load(std::sync::atomic::Ordering::Relaxed);
    if fd >= 0 {
        let byte = 1u8;
        // SAFETY: write is async-signal-safe; `byte` is one readable byte.
        unsafe { libc::write(fd, (&raw const byte).cast(), 1) };
    }
}

/// Routes SIGTERM and SIGINT to a pipe and returns its read end, which becomes readable when
/// either arrives: the server's accept loop polls it next to its listeners and shuts down
/// cleanly instead of dying mid-session.
pub(crate) fn termination_pipe() -> io::Result<OwnedFd> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: `fds` is two writable ints.
    check(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) })?;
    // SAFETY: pipe2 returned two fresh descriptors owned by nobody else.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    // The write end lives as long as the process: the handler may run at any time.
    let write = write.into_raw_fd();
    let old = TERM_PIPE.swap(write, std::sync::atomic::Ordering::Relaxed);
    if old >= 0 {
        // SAFETY: `old` was a write end this function leaked earlier and nothing else owns.
        drop(unsafe { OwnedFd::from_raw_fd(old) });
    }
    for signal in [libc::SIGTERM, libc::SIGINT] {
        // SAFETY: an all-zero sigaction is a valid "no flags, empty mask" action.
        let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
        action.sa_sigaction = on_terminate as *const () as usize;
        action.sa_flags = libc::SA_RESTART;
        // SAFETY: `action` is fully initialised, the handler only calls write (async-signal-
        // safe) and reads an atomic.
        check(unsafe { libc::sigaction(signal, &action, std::ptr::null_mut()) })?;
    }
    Ok(read)
}

/// A connected pair of unix `SOCK_SEQPACKET` sockets, close-on-exec: each `send` arrives as
/// one message (with its descriptors), never split or merged, so several threads may send
/// on one end without a lock. A server talks to its worker processes over one.
pub(crate) fn seqpacket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: `fds` is two writable ints.
    check(unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    })?;
    // SAFETY: socketpair returned two fresh descriptors owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Limits this process's data segment (`RLIMIT_DATA`: heap, and private writable mappings
/// since Linux 4.7) to `bytes`; an allocation past it fails, which ends the process.
pub(crate) fn limit_data(bytes: u64) -> io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: bytes as libc::rlim_t,
        rlim_max: bytes as libc::rlim_t,
    };
    // SAFETY: `limit` is a valid rlimit that lives across the call.
    check(unsafe { libc::setrlimit(libc::RLIMIT_DATA, &limit) }).map(drop)
}

/// Ends this process with SIGSEGV, as a native driver's fault would (a debug-only test
/// hook). The default action is restored first: the Rust runtime's own SIGSEGV handler,
/// which looks for stack overflows, would otherwise return from a raised signal.
pub(crate) fn raise_segv() -> ! {
    // SAFETY: restoring the default action and raising a signal have no memory-safety
    // preconditions; the default action of SIGSEGV ends the process.
    unsafe {
        libc::signal(libc::SIGSEGV, libc::SIG_DFL);
        libc::raise(libc::SIGSEGV);
    }
    std::process::abort()
}

/// The number and name of a signal, as the log shows them (`11 (SIGSEGV)`).
pub(crate) fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGKILL => "SIGKILL",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGTRAP => "SIGTRAP",
        _ => return signal.to_string(),
    };
    format!("{signal} ({name})")
}

/// Waits until one of `fds` is readable (or hung up), or `timeout` passed; which ones are.
/// Interrupted waits are retried.
pub(crate) fn poll_many(
    fds: &[RawFd],
    timeout: Option<std::time::Duration>,
) -> io::Result<Vec<bool>> {
    // Rounded up, so a deadline is never polled for just before it passes.
    let timeout_ms = timeout.map_or(-1, |t| {
        i32::try_from(t.as_micros().div_ceil(1000)).unwrap_or(i32::MAX)
    });
    let mut pfds: Vec<libc::pollfd> = fds
        .iter()
        .map(|&fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    loop {
        // SAFETY: `pfds` is a valid array of `pfds.len()` pollfd structs.
        let ret = unsafe { libc::poll(pfds.as_mut_ptr(), pfds.len() as libc::nfds_t, timeout_ms) };
        if ret < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        return Ok(pfds.iter().map(|p| p.revents != 0).collect());
    }
}

/// Makes the kernel SIGKILL this process when the thread that started it ends (a server's
/// accept loop is its main thread: when the server dies, however it dies). Async-signal-safe
/// (one prctl), so it may run between fork and exec.
pub(crate) fn die_with_parent() -> io::Result<()> {
    // SAFETY: PR_SET_PDEATHSIG takes a signal number; no memory is passed.
    check(unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) }).map(drop)
}

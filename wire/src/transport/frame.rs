//! Frames on a socket, and the batch message every process transport carries.
//!
//! ## Frames
//! A frame is a 16-byte header — magic `TSRF`, kind, payload length, a zero word — then the
//! payload. The length is checked against a cap **before** any payload byte is read, and the
//! payload buffer grows as bytes arrive, so a forged length costs the reader nothing. A bad
//! magic, kind or length ends the session (the stream cannot be resynchronised).
//!
//! ## The batch message
//! One record format on every transport: what [`crate::Encoder::finish`] produced travels
//! unchanged as `[header 16][archive][zeros to 16][stage]`, the header holding magic `TSB1`,
//! the archive length, the stage length and a zero word. On `unix:`/`tcp://` it is the payload
//! of a `Batch` frame; on `shm` it is a message of the command ring. The receiver copies it
//! into 16-aligned memory of its own, then [`decode_batch_message`] checks the header and
//! [`crate::batch::access_batch`] validates the archive (bytecheck) — the same function behind
//! every transport ([`super::apply_message`]).

use std::io;
use std::os::fd::{BorrowedFd, OwnedFd};

use rkyv::util::AlignedVec;

use super::sys;
use crate::backend::SessionError;

/// Magic of a frame header (`TSRF`).
const FRAME_MAGIC: u32 = u32::from_le_bytes(*b"TSRF");
/// Magic of a batch message header (`TSB1`).
const BATCH_MAGIC: u32 = u32::from_le_bytes(*b"TSB1");
/// Bytes of a frame header.
pub(crate) const FRAME_HEADER: usize = 16;
/// Bytes of a batch message header.
pub(crate) const BATCH_HEADER: usize = 16;

/// Largest message (frame payload, ring message) after the handshake: 1 GiB, which holds the
/// largest texture level a 3.3 context can define in one call (8192² RGBA32F is 1 GiB less
/// than nothing else). Bigger batches are refused by the sender before they leave.
pub const MAX_MESSAGE: u64 = 1 << 30;

/// Largest frame before the peer is authenticated: handshake messages are small, so an
/// unauthenticated peer can make the server buffer no more than this.
pub(crate) const MAX_HANDSHAKE_FRAME: u64 = 64 << 10;

/// Bytes read per step while a payload arrives (a forged length allocates no more than this
/// beyond what actually arrived).
const READ_STEP: usize = 1 << 20;

/// What a frame carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum FrameKind {
    /// Client: fingerprint, build, requested data plane and sizes.
    Hello = 1,
    /// Server: a nonce the client must prove the shared secret against.
    Challenge = 2,
    /// Client: the proof.
    Proof = 3,
    /// Server: caps, chosen data plane, negotiated sizes.
    Welcome = 4,
    /// Either side: the session is refused, with the reason (UTF-8).
    Refuse = 5,
    /// Either side: its shared-memory segments and doorbell, as descriptors.
    Segments = 6,
    /// Client: one batch message.
    Batch = 7,
    /// Server: a reply or an event (archived [`super::handshake::Notice`]).
    Notice = 8,
    /// Server: batches and bytes applied so far (two little-endian `u64`).
    Progress = 9,
    /// Server: the session ended, with the reason (UTF-8).
    Ended = 10,
    /// Client: asks for the server's probe (debug sessions only).
    Probe = 11,
    /// Server: the probe (archived [`super::handshake::ProbeSnapshot`]).
    ProbeReply = 12,
    /// Server: a [`Notice`](Self::Notice) compressed with LZ4 (`compress_notice`), on
    /// connections that cannot share memory (another machine) when it is large.
    CompressedNotice = 13,
    /// Server: its status report (UTF-8), the answer to a Hello that asks for the `status`
    /// backend (`tessera-server status`); then the server closes the connection.
    Status = 14,
    /// Server, on a unix socket: the descriptor of an exported image (`SCM_RIGHTS`, exactly
    /// one), for the reply its payload names (a little-endian `u32` [`crate::ReplyId`]);
    /// sent before that reply's notice.
    Descriptor = 15,
}

impl FrameKind {
    fn from_u32(v: u32) -> Option<Self> {
        use FrameKind as K;
        Some(match v {
            1 => K::Hello,
            2 => K::Challenge,
            3 => K::Proof,
            4 => K::Welcome,
            5 => K::Refuse,
            6 => K::Segments,
            7 => K::Batch,
            8 => K::Notice,
            9 => K::Progress,
            10 => K::Ended,
            11 => K::Probe,
            12 => K::ProbeReply,
            13 => K::CompressedNotice,
            14 => K::Status,
            15 => K::Descriptor,
            _ => return None,
        })
    }
}

/// Notices at least this large are compressed on connections to another machine.
pub(crate) const COMPRESS_FROM: usize = 64 << 10;

/// A notice as a `CompressedNotice` payload: its length (little-endian `u64`), then the
/// LZ4 block.
pub(crate) fn compress_notice(notice: &[u8]) -> Vec<u8> {
    let mut out = (notice.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(&lz4_flex::block::compress(notice));
    out
}

/// The notice a `CompressedNotice` payload holds; its stated length must not exceed
/// `max` and must be what the block decompresses to.
pub(crate) fn decompress_notice(payload: &[u8], max: u64) -> Result<Vec<u8>, FrameError> {
    let (len, block) = payload
        .split_first_chunk::<8>()
        .ok_or_else(|| FrameError::Bad("a compressed notice without its length".into()))?;
    let len = u64::from_le_bytes(*len);
    if len > max {
        return Err(FrameError::Bad(format!(
            "a compressed notice of {len} bytes (at most {max})"
        )));
    }
    let mut out = vec![0u8; len as usize];
    match lz4_flex::block::decompress_into(block, &mut out) {
        Ok(n) if n as u64 == len => Ok(out),
        Ok(n) => Err(FrameError::Bad(format!(
            "a compressed notice of {n} bytes, not the {len} it states"
        ))),
        Err(e) => Err(FrameError::Bad(format!("a compressed notice: {e}"))),
    }
}

/// Why a frame could not be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FrameError {
    /// The peer closed the connection.
    #[error("the peer hung up")]
    HungUp,
    /// The socket failed.
    #[error("socket: {0}")]
    Io(#[from] io::Error),
    /// The bytes were not a frame.
    #[error("bad frame: {0}")]
    Bad(String),
}

/// The header of a frame of `kind` with `len` payload bytes.
pub(crate) fn header(kind: FrameKind, len: usize) -> [u8; FRAME_HEADER] {
    let mut h = [0u8; FRAME_HEADER];
    h[..4].copy_from_slice(&FRAME_MAGIC.to_le_bytes());
    h[4..8].copy_from_slice(&(kind as u32).to_le_bytes());
    h[8..12].copy_from_slice(&(len as u32).to_le_bytes());
    h
}

/// Parses a frame header, checking the magic, the kind and the length against `cap`.
pub(crate) fn parse_header(
    h: &[u8; FRAME_HEADER],
    cap: u64,
) -> Result<(FrameKind, usize), FrameError> {
    let word = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    if word(0) != FRAME_MAGIC || word(12) != 0 {
        return Err(FrameError::Bad(format!(
            "no frame magic ({:#010x})",
            word(0)
        )));
    }
    let kind = FrameKind::from_u32(word(4))
        .ok_or_else(|| FrameError::Bad(format!("unknown frame kind {}", word(4))))?;
    let len = word(8);
    if u64::from(len) > cap {
        return Err(FrameError::Bad(format!(
            "{kind:?} frame of {len} bytes exceeds the {cap}-byte cap"
        )));
    }
    Ok((kind, len as usize))
}

/// Sends one frame (and descriptors with it), blocking until it is written.
pub(crate) fn send(
    sock: BorrowedFd<'_>,
    kind: FrameKind,
    parts: &[&[u8]],
    fds: &[BorrowedFd<'_>],
) -> io::Result<()> {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    let h = header(kind, len);
    let mut all: Vec<&[u8]> = Vec::with_capacity(parts.len() + 1);
    all.push(&h);
    all.extend_from_slice(parts);
    sys::send_all(sock, &all, fds)
}

/// Reads one frame, blocking: its kind, its payload into `payload` (16-aligned), and any
/// descriptors that came with it into `fds`.
pub(crate) fn recv(
    sock: BorrowedFd<'_>,
    cap: u64,
    payload: &mut AlignedVec<16>,
    fds: &mut Vec<OwnedFd>,
) -> Result<FrameKind, FrameError> {
    let mut h = [0u8; FRAME_HEADER];
    sys::recv_exact(sock, &mut h, fds).map_err(|e| {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            FrameError::HungUp
        } else {
            FrameError::Io(e)
        }
    })?;
    let (kind, len) = parse_header(&h, cap)?;
    payload.clear();
    while payload.len() < len {
        let start = payload.len();
        let step = (len - start).min(READ_STEP);
        payload.resize(start + step, 0);
        sys::recv_exact(sock, &mut payload[start..], fds).map_err(|e| {
            if e.kind() == io::ErrorKind::UnexpectedEof {
                FrameError::HungUp
            } else {
                FrameError::Io(e)
            }
        })?;
    }
    Ok(kind)
}

/// Frames arriving on a socket read without blocking: bytes accumulate until a frame is whole.
///
/// Descriptors that arrive (`SCM_RIGHTS`) are kept in arrival order in [`Inflow::fds`]: the
/// kernel delivers a message's descriptors with the read that returns its first byte, so a
/// frame's descriptors are there by the time the frame is whole.
#[derive(Default)]
pub(crate) struct Inflow {
    /// Receive buffer; `buf[consumed..filled]` is unparsed. Grown, never shrunk, so a steady
    /// session reads into the same memory without zeroing it again.
    buf: Vec<u8>,
    filled: usize,
    consumed: usize,
    /// Descriptors received and not yet claimed by a frame, oldest first.
    pub(crate) fds: std::collections::VecDeque<OwnedFd>,
}

impl Inflow {
    /// Reads what the socket has now. Returns `Ok(false)` at end of stream.
    pub(crate) fn fill_now(&mut self, sock: BorrowedFd<'_>) -> Result<bool, FrameError> {
        if self.consumed > 0 {
            self.buf.copy_within(self.consumed..self.filled, 0);
            self.filled -= self.consumed;
            self.consumed = 0;
        }
        let mut fds = Vec::new();
        loop {
            if self.buf.len() - self.filled < 16 * 1024 {
                let grown = (self.buf.len() * 2).max(64 * 1024);
                self.buf.resize(grown, 0);
            }
            let got = sys::recv_now_with_fds(sock, &mut self.buf[self.filled..], &mut fds);
            self.fds.extend(fds.drain(..));
            match got {
                Ok(Some(0)) => return Ok(false),
                Ok(Some(n)) => self.filled += n,
                Ok(None) => return Ok(true),
                Err(e) => return Err(FrameError::Io(e)),
            }
        }
    }

    /// Whether every byte received belongs to a frame [`Inflow::next`] returned (no frame is
    /// partly here).
    pub(crate) fn is_drained(&self) -> bool {
        self.consumed == self.filled
    }

    /// The next whole frame, if one has arrived: its kind and payload (copied to 16-aligned
    /// memory).
    pub(crate) fn next(
        &mut self,
        cap: u64,
    ) -> Result<Option<(FrameKind, AlignedVec<16>)>, FrameError> {
        let rest = &self.buf[self.consumed..self.filled];
        let Some(h) = rest.first_chunk::<FRAME_HEADER>() else {
            return Ok(None);
        };
        let (kind, len) = parse_header(h, cap)?;
        let Some(body) = rest.get(FRAME_HEADER..FRAME_HEADER + len) else {
            return Ok(None);
        };
        let mut payload = AlignedVec::with_capacity(len);
        payload.extend_from_slice(body);
        self.consumed += FRAME_HEADER + len;
        Ok(Some((kind, payload)))
    }
}

/// The header of a batch message.
pub(crate) fn batch_header(archive_len: usize, stage_len: usize) -> [u8; BATCH_HEADER] {
    let mut h = [0u8; BATCH_HEADER];
    h[..4].copy_from_slice(&BATCH_MAGIC.to_le_bytes());
    h[4..8].copy_from_slice(&(archive_len as u32).to_le_bytes());
    h[8..12].copy_from_slice(&(stage_len as u32).to_le_bytes());
    h
}

/// Zeros that pad an archive to the 16-byte boundary where its stage starts.
pub(crate) const PADDING: [u8; 16] = [0; 16];

/// The parts of a batch message, ready to send without copying: header, archive, padding,
/// stage.
pub(crate) fn batch_parts<'a>(
    header: &'a [u8; BATCH_HEADER],
    archive: &'a [u8],
    stage: &'a [u8],
) -> [&'a [u8]; 4] {
    let pad = archive.len().next_multiple_of(16) - archive.len();
    [header, archive, &PADDING[..pad], stage]
}

/// Total bytes of a batch message.
pub(crate) fn batch_len(archive_len: usize, stage_len: usize) -> u64 {
    (BATCH_HEADER + archive_len.next_multiple_of(16) + stage_len) as u64
}

/// Splits a received batch message (starting at a 16-aligned address) into its archive and
/// stage, checking its header: magic, a zero reserved word, and lengths that add up to
/// exactly the message. The archive still has to be validated ([`crate::batch::access_batch`]).
pub fn decode_batch_message(msg: &[u8]) -> Result<(&[u8], &[u8]), SessionError> {
    let bad = |what: String| SessionError::Decode(format!("batch message: {what}"));
    let h = msg
        .first_chunk::<BATCH_HEADER>()
        .ok_or_else(|| bad(format!("{} bytes hold no header", msg.len())))?;
    let word = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    if word(0) != BATCH_MAGIC || word(12) != 0 {
        return Err(bad("no batch magic".to_owned()));
    }
    let (archive_len, stage_len) = (word(4) as usize, word(8) as usize);
    let expected = batch_len(archive_len, stage_len);
    if expected != msg.len() as u64 {
        return Err(bad(format!(
            "header says {archive_len} archive and {stage_len} stage bytes ({expected} in all) \
             but {} arrived",
            msg.len()
        )));
    }
    let stage_at = BATCH_HEADER + archive_len.next_multiple_of(16);
    Ok((
        &msg[BATCH_HEADER..BATCH_HEADER + archive_len],
        &msg[stage_at..],
    ))
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn batch_messages_round_trip_and_lengths_must_add_up() {
        let archive = [7u8; 20];
        let stage = [9u8; 5];
        let h = batch_header(archive.len(), stage.len());
        let mut msg = AlignedVec::<16>::new();
        for p in batch_parts(&h, &archive, &stage) {
            msg.extend_from_slice(p);
        }
        assert_eq!(msg.len() as u64, batch_len(20, 5));
        let (a, s) = decode_batch_message(&msg).unwrap();
        assert_eq!((a, s), (&archive[..], &stage[..]));
        assert!(decode_batch_message(&msg[..msg.len() - 1]).is_err());
        let mut forged = msg.clone();
        forged[4] = 200;
        assert!(decode_batch_message(&forged).is_err());
        assert!(decode_batch_message(&[]).is_err());
    }

    #[test]
    fn frame_headers_are_checked_before_the_payload() {
        let notice: Vec<u8> = (0..200_000u32).map(|i| (i / 1000) as u8).collect();
        let packed = compress_notice(&notice);
        assert!(packed.len() < notice.len() / 10);
        assert_eq!(decompress_notice(&packed, 1 << 20).unwrap(), notice);
        assert!(
            decompress_notice(&packed, 1000).is_err(),
            "longer than allowed"
        );
        let mut forged = packed.clone();
        forged[0] ^= 1;
        assert!(
            decompress_notice(&forged, 1 << 20).is_err(),
            "a length the block is not"
        );
        assert!(decompress_notice(&packed[..4], 1 << 20).is_err());
        let h = header(FrameKind::Batch, 100);
        assert_eq!(parse_header(&h, 100).unwrap(), (FrameKind::Batch, 100));
        assert!(parse_header(&h, 99).is_err());
        let mut bad = h;
        bad[0] ^= 1;
        assert!(parse_header(&bad, 100).is_err());
        let mut kind = h;
        kind[4] = 99;
        assert!(parse_header(&kind, 100).is_err());
    }
}

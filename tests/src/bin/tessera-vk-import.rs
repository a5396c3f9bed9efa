//! The second process of the frame-export test (`tests/tests/export.rs`): a host with its
//! own Vulkan instance and device (validation layer on) that imports an image Tessera
//! exported in another process.
//!
//! Usage: `tessera-vk-import FD`, FD the inherited end of a Unix socket pair. It creates its device,
//! writes one byte (ready), then receives the image's description with its memory descriptor
//! attached (`SCM_RIGHTS`), imports it, copies it into a host-visible buffer and answers
//! with a length-prefixed message: status byte 0 and the texels (bottom row first), or 1 and
//! what failed. Any validation message is a failure.

#![expect(unsafe_code, reason = "takes over the socket inherited from the test")]

use std::io::Write;
use std::os::fd::FromRawFd;
use std::os::unix::net::UnixStream;

use tessera_tests::vk_host::{DESC_LEN, HostVk, info_from_bytes, read_frame, recv_fd, write_frame};

fn run(stream: &mut UnixStream) -> Result<Vec<u8>, String> {
    let host = HostVk::new(&[])?;
    stream.write_all(&[1]).map_err(|e| e.to_string())?;
    let (payload, fd) = recv_fd(stream, DESC_LEN).map_err(|e| e.to_string())?;
    let desc = info_from_bytes(&payload).ok_or("a malformed description")?;
    let bytes = host.import_and_read(&desc, fd)?;
    let messages = host.messages();
    if !messages.is_empty() {
        return Err(format!("validation: {}", messages.join("\n")));
    }
    Ok(bytes)
}

fn main() {
    let fd: i32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .expect("usage: tessera-vk-import FD");
    // SAFETY: the test passed this end of its socket pair to this process alone.
    let mut stream = unsafe { UnixStream::from_raw_fd(fd) };
    let answer = match run(&mut stream) {
        Ok(bytes) => [&[0u8][..], &bytes].concat(),
        Err(e) => [&[1u8][..], e.as_bytes()].concat(),
    };
    write_frame(&mut stream, &answer).expect("answering the test");
    // The test closes the socket once it has the answer.
    let _ = read_frame(&mut stream);
}

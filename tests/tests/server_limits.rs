//! The server's admission limits: silent connections are closed at the handshake deadline and
//! never keep an authenticated client from being served; connections over the cap on
//! unauthenticated ones are refused at once, without disturbing the others. Counts, not
//! timings: every wait below is bounded, and only what happened is asserted.

use std::io::{ErrorKind, Read};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_tests::assert_no_error;

use crate::transport::{Server, remote_context};

/// Silent connections each test opens.
const SILENT: usize = 500;

/// The longest any wait below may take.
const BOUND: Duration = Duration::from_secs(30);

/// A connection to the server, unix or TCP.
enum Conn {
    Unix(UnixStream),
    Tcp(TcpStream),
}

impl Conn {
    fn open(server: &Server, tcp: bool) -> Self {
        if tcp {
            Conn::Tcp(TcpStream::connect(&server.tcp).expect("connecting over TCP"))
        } else {
            Conn::Unix(UnixStream::connect(&server.socket).expect("connecting to the socket"))
        }
    }

    fn set_nonblocking(&self) {
        match self {
            Conn::Unix(s) => s.set_nonblocking(true),
            Conn::Tcp(s) => s.set_nonblocking(true),
        }
        .unwrap();
    }

    /// Reads what is there now: `Some(true)` at the end of the stream (or a reset),
    /// `Some(false)` while still open; the bytes read are appended to `got`.
    fn ended(&mut self, got: &mut Vec<u8>) -> bool {
        let mut buf = [0u8; 512];
        loop {
            let read = match self {
                Conn::Unix(s) => s.read(&mut buf),
                Conn::Tcp(s) => s.read(&mut buf),
            };
            match read {
                Ok(0) => return true,
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == ErrorKind::WouldBlock => return false,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => return true,
            }
        }
    }
}

/// Opens `n` connections and leaves them silent.
fn open_silent(server: &Server, tcp: bool, n: usize) -> Vec<Conn> {
    (0..n)
        .map(|_| {
            let c = Conn::open(server, tcp);
            c.set_nonblocking();
            c
        })
        .collect()
}

/// Polls `conns` until `want` of them ended (or [`BOUND`] passed); which ones ended, and what
/// each had received.
fn wait_ended(conns: &mut [Conn], want: usize) -> (Vec<bool>, Vec<Vec<u8>>) {
    let mut ended = vec![false; conns.len()];
    let mut got = vec![Vec::new(); conns.len()];
    let deadline = Instant::now() + BOUND;
    loop {
        for (i, c) in conns.iter_mut().enumerate() {
            if !ended[i] {
                ended[i] = c.ended(&mut got[i]);
            }
        }
        if ended.iter().filter(|e| **e).count() >= want || Instant::now() > deadline {
            return (ended, got);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Lines of the server's log containing `needle`.
fn logged(server: &Server, needle: &str) -> usize {
    server.log().iter().filter(|l| l.contains(needle)).count()
}

/// Waits (bounded) until the server logged `needle` `n` times; how many it did.
fn wait_logged(server: &Server, needle: &str, n: usize) -> usize {
    let deadline = Instant::now() + BOUND;
    while logged(server, needle) < n && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    logged(server, needle)
}

/// An authenticated client's whole session: a context, an upload, a read-back, `glFinish`.
fn served(kind: &TransportKind, name: &str) {
    let mut ctx = remote_context(kind);
    let buf = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, buf);
    let data: Vec<u8> = (0..=255).collect();
    ctx.buffer_data(ARRAY_BUFFER, 256, Some(&data), STATIC_DRAW);
    ctx.buffer_sub_data(ARRAY_BUFFER, 16, 4, &[9, 9, 9, 9]);
    let mut out = [0u8; 8];
    ctx.get_buffer_sub_data(ARRAY_BUFFER, 14, 8, &mut out);
    assert_eq!(out, [14, 15, 9, 9, 9, 9, 20, 21], "{name}: read-back");
    ctx.finish();
    assert_no_error!(ctx);
    assert_eq!(ctx.get_graphics_reset_status(), NO_ERROR, "{name}");
    assert!(!ctx.is_lost(), "{name}");
}

fn kind_of(server: &Server, tcp: bool) -> TransportKind {
    if tcp {
        server.tcp_kind(Some(server.secret.clone()))
    } else {
        TransportKind::Unix(server.socket.clone())
    }
}

#[test]
fn silent_connections_are_closed_at_the_handshake_timeout_and_spare_a_real_client() {
    for (name, tcp) in [("unix", false), ("tcp", true)] {
        // Room for every silent connection: only the deadline closes them.
        let server = Server::start_with(&[
            "--handshake-timeout",
            "1",
            "--max-unauthenticated",
            "600",
            "--max-connections",
            "700",
        ]);
        let mut silent = open_silent(&server, tcp, SILENT);
        served(&kind_of(&server, tcp), name);
        let (ended, got) = wait_ended(&mut silent, SILENT);
        assert_eq!(
            ended.iter().filter(|e| **e).count(),
            SILENT,
            "{name}: every silent connection is closed"
        );
        assert!(
            got.iter().all(Vec::is_empty),
            "{name}: a silent connection is closed without a word"
        );
        assert_eq!(
            wait_logged(&server, "no handshake within", SILENT),
            SILENT,
            "{name}: each closed at the deadline, logged"
        );
        assert_eq!(logged(&server, "server busy"), 0, "{name}: none refused");
        // The server still serves, and the real session ended normally.
        served(&kind_of(&server, tcp), name);
        assert_eq!(
            wait_logged(&server, "ended: the client hung up", 2),
            2,
            "{name}: both real sessions served and ended"
        );
    }
}

#[test]
fn connections_over_the_unauthenticated_cap_are_refused_at_once() {
    const CAP: usize = 8;
    for (name, tcp) in [("unix", false), ("tcp", true)] {
        // A deadline the test never reaches: every close seen here is a refusal.
        let server = Server::start_with(&[
            "--handshake-timeout",
            "600",
            "--max-unauthenticated",
            "8",
            "--max-connections",
            "700",
        ]);
        let mut silent = open_silent(&server, tcp, SILENT);
        let (ended, got) = wait_ended(&mut silent, SILENT - CAP);
        assert_eq!(
            ended.iter().filter(|e| **e).count(),
            SILENT - CAP,
            "{name}: all but {CAP} refused"
        );
        for (i, bytes) in got.iter().enumerate() {
            if ended[i] {
                assert!(
                    String::from_utf8_lossy(bytes).contains("server busy"),
                    "{name}: a refusal says why"
                );
            }
        }
        assert_eq!(
            wait_logged(&server, "server busy", SILENT - CAP),
            SILENT - CAP,
            "{name}: each refusal logged with its reason"
        );
        // The first CAP are the ones held, and they are still open.
        assert!(ended[..CAP].iter().all(|e| !e), "{name}: the held ones");
        let mut still: Vec<Conn> = silent.drain(..CAP).collect();
        let mut scratch = Vec::new();
        assert!(
            still.iter_mut().all(|c| !c.ended(&mut scratch)),
            "{name}: refusals disturb no other connection"
        );
        assert_eq!(logged(&server, "no handshake within"), 0, "{name}");

        // While the cap is full, one more is refused too.
        let mut extra = open_silent(&server, tcp, 1);
        let (ended, got) = wait_ended(&mut extra, 1);
        assert!(ended[0], "{name}: refused at once");
        assert!(String::from_utf8_lossy(&got[0]).contains("server busy"));

        // Once the held ones hang up, a real client is served.
        drop(still);
        assert_eq!(
            wait_logged(&server, "refused: the peer hung up", CAP),
            CAP,
            "{name}: the held ones ended"
        );
        served(&kind_of(&server, tcp), name);
    }
}

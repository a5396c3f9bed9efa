//! The `tessera-server` binary itself: how it starts, refuses, and stops.
//!
//! (Being an integration test of the engine crate also makes `cargo test --workspace` build
//! the binary, which the transport and fault tests of `tessera-tests` spawn.)

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tessera_engine::wire::transport::{DialOptions, TransportKind, dial};
use tessera_engine::wire::{Encoder, Record};

const SERVER: &str = env!("CARGO_BIN_EXE_tessera-server");

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("tessera-server-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Waits for the child to exit, at most `timeout`.
fn wait_exit(child: &mut Child, timeout: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[test]
fn sigterm_ends_sessions_removes_the_socket_and_exits_cleanly() {
    let dir = temp_dir("term");
    let socket = dir.join("s.sock");
    let mut server = Command::new(SERVER)
        .arg("--unix")
        .arg(&socket)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(server.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.contains("listening on unix:"), "{line}");
    let mode = std::fs::metadata(&socket).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o660, "the socket is created mode 0660");

    let mut remote = dial(
        &TransportKind::Shm(Some(socket.clone())),
        &DialOptions::default(),
    )
    .unwrap();
    assert_eq!(remote.caps.backend, "null");
    let mut enc = Encoder::new();
    enc.push(Record::CreateContext { context: 1 });
    let reply = enc.mint_reply();
    enc.push(Record::Finish { reply });
    remote.transport.submit(&mut enc).unwrap();
    remote.transport.wait_reply(reply).unwrap();

    Command::new("kill")
        .arg("-TERM")
        .arg(server.id().to_string())
        .status()
        .unwrap();
    let status =
        wait_exit(&mut server, Duration::from_secs(10)).expect("the server exits on SIGTERM");
    assert!(status.success(), "{status}");
    assert!(!socket.exists(), "the socket file is removed");
    let mut log = String::new();
    std::io::Read::read_to_string(&mut server.stderr.take().unwrap(), &mut log).unwrap();
    assert!(log.contains("session 1"), "{log}");
    assert!(log.contains("stopped"), "{log}");
    // The client learns at its next call; nothing hangs.
    let reply = enc.mint_reply();
    enc.push(Record::Finish { reply });
    let _ = remote.transport.submit(&mut enc);
    assert!(remote.transport.wait_reply(reply).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tcp_without_a_private_secret_does_not_start() {
    let dir = temp_dir("secret");
    let out = Command::new(SERVER)
        .args(["--tcp", "127.0.0.1:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a shared secret"));

    let secret = dir.join("secret");
    std::fs::write(&secret, "s3cret").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = Command::new(SERVER)
        .args(["--tcp", "127.0.0.1:0", "--secret"])
        .arg(&secret)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("must be 600"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_backend_is_refused_by_name() {
    let dir = temp_dir("backend");
    let socket = dir.join("s.sock");
    let mut server = Command::new(SERVER)
        .arg("--unix")
        .arg(&socket)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let options = DialOptions {
        backend: "metal".to_owned(),
        ..DialOptions::default()
    };
    let err = dial(&TransportKind::Unix(socket.clone()), &options)
        .err()
        .expect("refused");
    assert!(
        err.to_string().contains("no backend named \"metal\""),
        "{err}"
    );
    // The server is still there for a good client.
    assert!(dial(&TransportKind::Unix(socket), &DialOptions::default()).is_ok());
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn server_admission_limit_flags_are_checked_before_listening() {
    let dir = temp_dir("limits");
    let socket = dir.join("s.sock");
    for bad in [
        ["--handshake-timeout", "0"],
        ["--handshake-timeout", "soon"],
        ["--max-connections", "0"],
        ["--max-unauthenticated", "-1"],
    ] {
        let out = Command::new(SERVER)
            .arg("--unix")
            .arg(&socket)
            .args(bad)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--handshake-timeout SECS"), "{stderr}");
        assert!(!socket.exists(), "{bad:?}: never listened");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

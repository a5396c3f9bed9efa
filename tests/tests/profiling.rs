//! Profiling: a Tessera program started with `TESSERA_PUFFIN=ADDR` serves puffin frames to
//! a `puffin_http` client (what the puffin viewer uses), and those frames hold Tessera's
//! scopes — the client's verbs, validation systems, batch submission and application; and,
//! from a `tessera-server` started with `TESSERA_PUFFIN`, the server's batch application.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use puffin::{FrameView, Reader, Stream};
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::scenes::{BENCH_SIZE, Bench, BenchScene};

/// A port on 127.0.0.1 that was free a moment ago.
fn free_addr() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    format!("127.0.0.1:{}", listener.local_addr().unwrap().port())
}

/// A child process, killed and reaped on drop.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Adds the names of every scope (at any depth) of `stream` from `offset` on to `names`.
fn scope_names(view: &FrameView, stream: &Stream, offset: u64, names: &mut BTreeSet<String>) {
    let Ok(reader) = Reader::with_offset(stream, offset) else {
        return;
    };
    for scope in reader.flatten() {
        if let Some(details) = view.scope_collection().fetch_by_id(&scope.id) {
            names.insert(details.name().to_string());
        }
        scope_names(view, stream, scope.child_begin_position, names);
    }
}

/// The names of the scopes in the frames `client` received so far, and how many frames.
fn received(client: &puffin_http::Client) -> (usize, BTreeSet<String>) {
    let view = client.frame_view();
    let mut names = BTreeSet::new();
    let mut frames = 0;
    for frame in view.recent_frames() {
        frames += 1;
        if let Ok(unpacked) = frame.unpacked() {
            for stream in unpacked.thread_streams.values() {
                scope_names(&view, &stream.stream, 0, &mut names);
            }
        }
    }
    (frames, names)
}

/// Polls `client` (calling `step` in between) until its frames hold every name of `wanted`,
/// or panics after 60 s with what it did receive.
fn wait_for_scopes(
    client: &puffin_http::Client,
    wanted: &[&str],
    mut step: impl FnMut(),
) -> BTreeSet<String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (frames, names) = received(client);
        if frames > 0 && wanted.iter().all(|w| names.contains(*w)) {
            return names;
        }
        assert!(
            Instant::now() < deadline,
            "after 60 s: connected {}, {frames} frames, scopes {names:?}; wanted {wanted:?}",
            client.connected()
        );
        step();
    }
}

#[test]
fn a_client_with_tessera_puffin_serves_frames_with_tesseras_scopes() {
    let addr = free_addr();
    // The bench's worker is a plain Tessera program: the static scene, frame after frame,
    // long enough for the client to connect (it is killed once the frames arrived).
    let child = Command::new(env!("CARGO_BIN_EXE_tessera-bench"))
        .args([
            "--worker",
            "tessera:null:inproc",
            "--scene",
            "static",
            "--draws",
            "20",
            "--frames",
            "100000000",
        ])
        .env("TESSERA_PUFFIN", &addr)
        .stdout(Stdio::null())
        .spawn()
        .expect("spawning tessera-bench");
    let _child = Killed(child);
    let client = puffin_http::Client::new(addr);
    let names = wait_for_scopes(
        &client,
        &[
            "draw_arrays",
            "validate",
            "emit_uniforms",
            "flush",
            "submit_batch",
            "archive_batch",
            "apply_batch",
            "clear",
        ],
        || std::thread::sleep(Duration::from_millis(50)),
    );
    assert!(
        !names.contains("uniform4f"),
        "no scope per setter: {names:?}"
    );
}

#[test]
fn a_server_with_tessera_puffin_serves_a_frame_per_applied_batch() {
    let addr = free_addr();
    let dir = std::env::temp_dir().join(format!("tessera-profiling-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let socket = dir.join("server.sock");
    let binary = tessera_engine::wire::transport::server_binary().expect(
        "target/<profile>/tessera-server: run `cargo build -p tessera-engine --bin tessera-server`",
    );
    let mut child = Command::new(binary)
        .arg("--unix")
        .arg(&socket)
        .env("TESSERA_PUFFIN", &addr)
        .env("TESSERA_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawning tessera-server");
    let stdout = child.stdout.take().unwrap();
    let _server = Killed(child);
    let mut line = String::new();
    let mut stdout = BufReader::new(stdout);
    while !line.contains("listening on unix:") {
        line.clear();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "the server exited before listening"
        );
    }
    let config = Config {
        backend: BackendKind::Null,
        transport: TransportKind::Shm(Some(socket)),
        surface: Some(SurfaceConfig::new(BENCH_SIZE as u32, BENCH_SIZE as u32)),
        ..Config::default()
    };
    let mut ctx = Context::new(&config).expect("a session with the server");
    let mut bench = Bench::setup(&mut ctx, BenchScene::Static);
    let client = puffin_http::Client::new(addr);
    let names = wait_for_scopes(&client, &["apply_batch"], || {
        bench.frame(&mut ctx, 20);
        std::thread::sleep(Duration::from_millis(2));
    });
    // The server's frames hold the server's work only: the client's verbs are not there.
    assert!(
        !names.contains("draw_arrays"),
        "client scopes in the server's frames: {names:?}"
    );
    assert!(!ctx.is_lost());
    drop(ctx);
    let _ = std::fs::remove_dir_all(&dir);
}

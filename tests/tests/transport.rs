//! Transport parity: the same calls produce byte-identical archived batches at the null
//! backend, whichever transport carried them — in this process (`inproc`, `thread`) or in a
//! `tessera-server` process (`shm`, `fork`, `unix:`, `tcp://`). And a steady-state frame
//! blocks on nothing, on every transport.
//!
//! The server tests spawn `target/<profile>/tessera-server`, which `cargo test --workspace`
//! builds (the engine's own integration test needs it); [`Server`] starts one with a unix
//! socket, a TCP port on 127.0.0.1 and a secret, in a private temporary directory.

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{Context, SurfaceConfig};
use tessera_tests::{assert_no_error, context_with};

/// A `tessera-server` process for one test; SIGTERMed and cleaned up on drop.
pub(crate) struct Server {
    child: Child,
    /// Its private directory (socket, secret).
    pub dir: PathBuf,
    /// Its unix socket.
    pub socket: PathBuf,
    /// Its TCP address.
    pub tcp: String,
    /// The secret file TCP clients prove.
    pub secret: PathBuf,
    log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// Starts a server that allows capture, listening on a fresh socket and a free port.
    pub(crate) fn start() -> Self {
        Self::start_with(&[])
    }

    /// [`Server::start`] with more command-line arguments.
    pub(crate) fn start_with(extra: &[&str]) -> Self {
        Self::start_with_env(extra, &[])
    }

    /// [`Server::start_with`] with more environment variables for the server process.
    pub(crate) fn start_with_env(extra: &[&str], env: &[(&str, &str)]) -> Self {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "tessera-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let socket = dir.join("server.sock");
        let secret = dir.join("secret");
        std::fs::write(&secret, b"correct horse battery staple\n").unwrap();
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
        let binary = tessera_engine::wire::transport::server_binary()
            .expect("target/<profile>/tessera-server: run `cargo build -p tessera-engine --bin tessera-server`");
        let mut child = Command::new(binary)
            .args([
                "--unix",
                socket.to_str().unwrap(),
                "--tcp",
                "127.0.0.1:0",
                "--secret",
            ])
            .arg(&secret)
            .arg("--allow-capture")
            .args(extra)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawning tessera-server");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut tcp = String::new();
        let mut line = String::new();
        while stdout.read_line(&mut line).unwrap() > 0 {
            if let Some(addr) = line
                .trim()
                .strip_prefix("tessera-server: listening on tcp://")
            {
                tcp = addr.to_owned();
            }
            if line.contains("listening on unix:") {
                break;
            }
            line.clear();
        }
        assert!(
            !tcp.is_empty() && socket.exists(),
            "the server did not start listening"
        );
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = log.clone();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        Self {
            child,
            dir,
            socket,
            tcp,
            secret,
            log,
        }
    }

    /// The process transports to this server, by name.
    pub(crate) fn kinds(&self) -> Vec<(&'static str, TransportKind)> {
        vec![
            ("shm", TransportKind::Shm(Some(self.socket.clone()))),
            ("unix", TransportKind::Unix(self.socket.clone())),
            ("tcp", self.tcp_kind(Some(self.secret.clone()))),
            ("fork", TransportKind::Fork),
        ]
    }

    /// `tcp://` to this server with a secret file (or none).
    pub(crate) fn tcp_kind(&self, secret: Option<PathBuf>) -> TransportKind {
        TransportKind::Tcp {
            addr: self.tcp.clone(),
            secret,
        }
    }

    /// The server's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILLs the server and reaps it: its sockets are closed when this returns.
    pub(crate) fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Waits up to `timeout` for a log line containing every one of `needles`.
    pub(crate) fn wait_log(&self, needles: &[&str], timeout: Duration) -> Option<String> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(line) = self
                .log
                .lock()
                .unwrap()
                .iter()
                .find(|l| needles.iter().all(|n| l.contains(n)))
            {
                return Some(line.clone());
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Everything the server logged so far.
    pub(crate) fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .stderr(Stdio::null())
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A capturing context through `kind`.
pub(crate) fn remote_context(kind: &TransportKind) -> Context {
    context_with(kind.clone(), Some(SurfaceConfig::new(32, 32)))
}

/// Calls that emit objects, uploads, state and verbs.
fn scene(ctx: &mut Context) {
    let buf = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, buf);
    let data: Vec<u8> = (0..=255).collect();
    ctx.buffer_data(ARRAY_BUFFER, 256, Some(&data), STATIC_DRAW);
    ctx.buffer_sub_data(ARRAY_BUFFER, 16, 4, &[9, 9, 9, 9]);
    let mut out = [0u8; 8];
    ctx.get_buffer_sub_data(ARRAY_BUFFER, 14, 8, &mut out);
    assert_eq!(out, [14, 15, 9, 9, 9, 9, 20, 21]);
    for frame in 0..20 {
        ctx.clear_color(frame as f32 / 20.0, 0.5, 0.25, 1.0);
        ctx.enable(SCISSOR_TEST);
        ctx.scissor(frame, frame, 8, 8);
        ctx.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
        ctx.disable(SCISSOR_TEST);
        if frame % 2 == 0 {
            ctx.enable(BLEND);
        } else {
            ctx.disable(BLEND);
        }
        ctx.clear(COLOR_BUFFER_BIT);
        ctx.flush();
    }
    ctx.delete_buffers(1, &[buf]);
    ctx.finish();
    assert_no_error!(ctx);
}

fn batches_through(kind: TransportKind) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut ctx = context_with(kind.clone(), Some(SurfaceConfig::new(32, 32)));
    scene(&mut ctx);
    if kind.is_remote() {
        ctx.server_probe().expect("the server's probe").captured
    } else {
        ctx.null_probe().expect("null backend").take_batches()
    }
}

fn assert_identical(name: &str, expected: &[(Vec<u8>, Vec<u8>)], got: &[(Vec<u8>, Vec<u8>)]) {
    assert_eq!(expected.len(), got.len(), "{name}: number of batches");
    for (i, (a, b)) in expected.iter().zip(got).enumerate() {
        assert_eq!(a.0, b.0, "{name}: archive of batch {i} differs");
        assert_eq!(a.1, b.1, "{name}: stage of batch {i} differs");
    }
}

#[test]
fn inproc_and_thread_deliver_byte_identical_batches() {
    let inproc = batches_through(TransportKind::Inproc);
    let thread = batches_through(TransportKind::Thread);
    assert!(
        inproc.len() > 20,
        "the scene flushes every frame: {} batches",
        inproc.len()
    );
    assert_identical("thread", &inproc, &thread);
}

#[test]
fn server_transports_deliver_byte_identical_batches() {
    let inproc = batches_through(TransportKind::Inproc);
    let server = Server::start();
    for (name, kind) in server.kinds() {
        let got = batches_through(kind);
        assert_identical(name, &inproc, &got);
    }
}

#[test]
fn in_process_backends_run_the_server_data_planes() {
    // `connect` with a process kind runs the session's data plane on a thread of this
    // process: the same rings and frames, the embedder's backend.
    let inproc = batches_through(TransportKind::Inproc);
    for kind in [
        TransportKind::Shm(None),
        TransportKind::Unix("/nonexistent".into()),
    ] {
        let (backend, probe) = tessera_engine::wire::null::NullBackend::new(true);
        let config = tessera_engine::Config {
            transport: kind.clone(),
            surface: Some(SurfaceConfig::new(32, 32)),
            backend: tessera_engine::BackendKind::Null,
            ..tessera_engine::Config::default()
        };
        let mut ctx = Context::with_backend(&config, Box::new(backend));
        scene(&mut ctx);
        assert_identical(kind.name(), &inproc, &probe.take_batches());
    }
}

/// One steady frame of clears and uploads.
pub(crate) fn steady_frame(ctx: &mut Context, frame: u32, payload: &[u8]) {
    ctx.clear_color((frame % 7) as f32 / 7.0, 0.5, 0.25, 1.0);
    ctx.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
    ctx.buffer_sub_data(ARRAY_BUFFER, 0, payload.len() as isize, payload);
    ctx.enable(SCISSOR_TEST);
    ctx.scissor(0, 0, 8, 8);
    ctx.clear(COLOR_BUFFER_BIT);
    ctx.disable(SCISSOR_TEST);
    ctx.flush();
}

/// Sets up a buffer for [`steady_frame`] and runs a few warm-up frames.
pub(crate) fn steady_setup(ctx: &mut Context, payload: &[u8]) -> GLuint {
    let buf = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, buf);
    ctx.buffer_data(ARRAY_BUFFER, payload.len() as isize, None, DYNAMIC_DRAW);
    for frame in 0..3 {
        steady_frame(ctx, frame, payload);
    }
    buf
}

#[test]
fn steady_frames_never_block_on_any_transport() {
    let server = Server::start();
    let mut kinds = vec![
        ("inproc", TransportKind::Inproc),
        ("thread", TransportKind::Thread),
    ];
    kinds.extend(server.kinds());
    let payload = vec![0x5a_u8; 4096];
    for (name, kind) in kinds {
        let mut ctx = remote_context(&kind);
        steady_setup(&mut ctx, &payload);
        // Between frames the test waits for the backend to catch up (a finish, outside the
        // frames' counts), as a display-paced application's backend does; inside a frame
        // nothing may wait: no round trip, no back-pressure.
        let mut in_frames = 0;
        for frame in 0..50 {
            ctx.finish();
            let before = ctx.transport_stats();
            steady_frame(&mut ctx, frame, &payload);
            let after = ctx.transport_stats();
            assert_eq!(
                after.batches - before.batches,
                1,
                "{name}: one batch per frame"
            );
            in_frames += after.blocking_waits - before.blocking_waits;
        }
        assert_eq!(in_frames, 0, "{name}: blocking waits in 50 steady frames");
        let after = ctx.transport_stats();
        // The frames did arrive: a read-back (one counted wait) sees the last upload.
        let mut out = [0u8; 4];
        ctx.get_buffer_sub_data(ARRAY_BUFFER, 100, 4, &mut out);
        assert_eq!(out, [0x5a; 4], "{name}");
        assert_eq!(
            ctx.transport_stats().blocking_waits - after.blocking_waits,
            1,
            "{name}"
        );
        assert_no_error!(ctx);
    }
}

#[test]
fn transport_kinds_parse_with_aliases() {
    let p = TransportKind::parse;
    assert_eq!(p("SHM"), Some(TransportKind::Shm(None)));
    assert_eq!(
        p("shm:/run/t.sock"),
        Some(TransportKind::Shm(Some("/run/t.sock".into())))
    );
    assert_eq!(p("spawn"), Some(TransportKind::Fork));
    assert_eq!(
        p("unix:/tmp/A.sock"),
        Some(TransportKind::Unix("/tmp/A.sock".into()))
    );
    assert_eq!(
        p("tcp://10.0.0.1:7000?secret=/etc/s"),
        Some(TransportKind::Tcp {
            addr: "10.0.0.1:7000".into(),
            secret: Some("/etc/s".into())
        })
    );
    assert_eq!(p("tcp://hostonly"), None);
    assert_eq!(p("unix:"), None);
    assert_eq!(p("pigeon"), None);
}

/// Prints client CPU time and wire bytes per steady frame for each transport (a quick
/// measurement; the benchmark is the reference). Asserts only what must hold.
#[test]
fn steady_frame_costs_per_transport() {
    let server = Server::start();
    let mut kinds = vec![
        ("inproc", TransportKind::Inproc),
        ("thread", TransportKind::Thread),
    ];
    kinds.extend(server.kinds());
    let payload = vec![0x33_u8; 1024];
    const FRAMES: u32 = 2000;
    for (name, kind) in kinds {
        let mut ctx = remote_context(&kind);
        steady_setup(&mut ctx, &payload);
        let before = ctx.transport_stats();
        let (u0, s0) = tessera_tests::measure::thread_cpu_ns();
        for frame in 0..FRAMES {
            steady_frame(&mut ctx, frame, &payload);
        }
        let (u1, s1) = tessera_tests::measure::thread_cpu_ns();
        let after = ctx.transport_stats();
        let ns = (u1 + s1 - u0 - s0) / u64::from(FRAMES);
        let wire = (after.wire_bytes - before.wire_bytes) / u64::from(FRAMES);
        let records =
            (after.record_bytes + after.stage_bytes - before.record_bytes - before.stage_bytes)
                / u64::from(FRAMES);
        println!(
            "{name:>6}: client CPU {ns:>6} ns/frame, {records} batch bytes/frame, {wire} wire bytes/frame"
        );
        if kind.is_remote() {
            assert!(
                wire >= records,
                "{name}: the wire carries at least the batch"
            );
        } else {
            assert_eq!(wire, 0, "{name}: nothing crosses a process boundary");
        }
    }
}

/// A triangle over a clear, read back: the pixels a real backend produced.
fn triangle_pixels(ctx: &mut Context) -> Vec<u8> {
    use tessera_tests::gl::Gl;
    let gl: &mut dyn Gl = ctx;
    gl.clear_color(0.0, 0.25, 0.5, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    let p = tessera_tests::programs::color_program(ctx);
    let gl: &mut dyn Gl = ctx;
    gl.use_program(p);
    let loc = gl.get_uniform_location(p, "color");
    gl.uniform4f(loc, 1.0, 0.5, 0.0, 1.0);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let verts: Vec<u8> = [-0.9f32, -0.9, 0.9, -0.9, -0.9, 0.9]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, verts.len(), Some(&verts), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    gl.draw_arrays(TRIANGLES, 0, 3);
    let pixels = tessera_tests::differential::read_back(gl, 32, 32);
    assert_eq!(gl.get_error(), NO_ERROR);
    pixels
}

#[test]
fn every_transport_gives_the_gles_backends_pixels() {
    let local = |kind| {
        let mut ctx = tessera_tests::differential::tessera(kind, 32, 32);
        triangle_pixels(&mut ctx)
    };
    let expected = local(TransportKind::Inproc);
    let at = |p: &[u8], x: usize, y: usize| p[(y * 32 + x) * 4..][..4].to_vec();
    assert_eq!(at(&expected, 4, 4), [255, 128, 0, 255]);
    assert_eq!(at(&expected, 30, 30), [0, 64, 128, 255]);
    assert!(local(TransportKind::Thread) == expected, "thread");
    let server = Server::start();
    for (name, kind) in server.kinds() {
        let config = tessera_engine::Config {
            backend: tessera_engine::BackendKind::Gles,
            transport: kind,
            surface: Some(SurfaceConfig::new(32, 32)),
            ..tessera_engine::Config::default()
        };
        let mut ctx = Context::new(&config).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            triangle_pixels(&mut ctx) == expected,
            "{name}: pixels differ from inproc's"
        );
    }
}

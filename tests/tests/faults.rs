//! What happens when the other side dies or misbehaves: the server killed mid-frame, a
//! client killed while another runs, mutated batches fed to the server's decoder, peers
//! without the right credentials or secret, a forged handle, a wrong fingerprint.
//!
//! Tests that need a second client process re-run this test binary as that process (the
//! same test, with an environment variable naming its role), so nothing else is built.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tessera_engine::gl::*;
use tessera_engine::pixel::PixelsMut;
use tessera_engine::wire::null::NullBackend;
use tessera_engine::wire::transport::{self, DialOptions, TransportKind};
use tessera_engine::wire::{Encoder, Outbox, Record};
use tessera_engine::{Config, Context, SurfaceConfig};
use tessera_tests::{assert_no_error, context_with};

use crate::transport::{Server, remote_context, steady_frame, steady_setup};

/// Every call after the loss must return within this.
const PROMPT: Duration = Duration::from_millis(10);

/// Runs `f` and returns how long it took.
fn timed(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

#[test]
fn a_killed_server_is_lost_within_one_frame_and_calls_return_promptly() {
    let payload = vec![7u8; 256];
    for name in ["shm", "unix", "tcp"] {
        // Sessions on the server's own threads: killing the server kills the process that
        // serves the session at once (a worker process's death: `isolation.rs`).
        let mut server = Server::start_with(&["--isolation", "threads"]);
        let kind = server
            .kinds()
            .into_iter()
            .find(|(n, _)| *n == name)
            .unwrap()
            .1;
        let mut ctx = remote_context(&kind);
        steady_setup(&mut ctx, &payload);
        for frame in 0..5 {
            steady_frame(&mut ctx, frame, &payload);
        }
        assert_eq!(ctx.get_graphics_reset_status(), NO_ERROR, "{name}");
        // Mid-frame: some of the frame's calls are recorded, then the server dies.
        ctx.clear(COLOR_BUFFER_BIT);
        ctx.buffer_sub_data(ARRAY_BUFFER, 0, 16, &payload[..16]);
        server.kill();
        // The rest of that frame: its flush is where the loss is seen.
        ctx.clear(COLOR_BUFFER_BIT);
        ctx.flush();
        assert_eq!(
            ctx.get_graphics_reset_status(),
            UNKNOWN_CONTEXT_RESET,
            "{name}: lost within the frame"
        );
        assert!(ctx.is_lost(), "{name}");

        // Every further call returns promptly, including the ones that would wait.
        let mut slowest = Duration::ZERO;
        let mut out = [0u8; 16];
        let mut pixels = [0u8; 16];
        for _ in 0..20 {
            slowest = slowest.max(timed(|| steady_frame(&mut ctx, 9, &payload)));
            slowest = slowest.max(timed(|| {
                ctx.get_buffer_sub_data(ARRAY_BUFFER, 0, 16, &mut out)
            }));
            slowest = slowest.max(timed(|| ctx.finish()));
            slowest = slowest.max(timed(|| {
                ctx.read_pixels(
                    0,
                    0,
                    2,
                    2,
                    RGBA,
                    UNSIGNED_BYTE,
                    PixelsMut::Bytes(&mut pixels),
                )
            }));
            slowest = slowest.max(timed(|| {
                let b = ctx.gen_buffer();
                ctx.bind_buffer(COPY_WRITE_BUFFER, b);
                ctx.buffer_data(COPY_WRITE_BUFFER, 64, Some(&payload[..64]), STATIC_DRAW);
                ctx.delete_buffers(1, &[b]);
            }));
            slowest = slowest.max(timed(|| {
                assert_eq!(ctx.get_graphics_reset_status(), UNKNOWN_CONTEXT_RESET)
            }));
        }
        println!("{name}: slowest call after the loss took {slowest:?}");
        assert!(
            slowest < PROMPT,
            "{name}: a call took {slowest:?} after the loss"
        );
        let events = ctx.take_events();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, tessera_engine::wire::Event::SessionEnded { .. })),
            "{name}: the loss is reported as an event: {events:?}"
        );
        let dropped = timed(|| drop(ctx));
        assert!(
            dropped < PROMPT,
            "{name}: dropping the context took {dropped:?}"
        );
    }
}

/// The victim of the next test: a client that creates objects and renders until killed.
fn victim(socket: &str) {
    let mut ctx = remote_context(&TransportKind::Shm(Some(socket.into())));
    let payload = vec![1u8; 512];
    steady_setup(&mut ctx, &payload);
    for _ in 0..8 {
        let b = ctx.gen_buffer();
        ctx.bind_buffer(COPY_WRITE_BUFFER, b);
        ctx.buffer_data(COPY_WRITE_BUFFER, 1024, Some(&[3u8; 1024]), STATIC_DRAW);
    }
    ctx.finish();
    println!("victim ready");
    std::io::stdout().flush().unwrap();
    // Render until killed (bounded, should the parent die first).
    let end = Instant::now() + Duration::from_secs(60);
    let mut frame = 0;
    while Instant::now() < end {
        steady_frame(&mut ctx, frame, &payload);
        frame += 1;
    }
}

#[test]
fn a_killed_client_is_freed_and_spares_a_concurrent_session() {
    if let Ok(socket) = std::env::var("TESSERA_FAULTS_VICTIM") {
        return victim(&socket);
    }
    let server = Server::start();
    let kind = TransportKind::Shm(Some(server.socket.clone()));
    let mut survivor = remote_context(&kind);
    let payload: Vec<u8> = (0..=255).collect();
    steady_setup(&mut survivor, &payload);

    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "faults::a_killed_client_is_freed_and_spares_a_concurrent_session",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("TESSERA_FAULTS_VICTIM", &server.socket)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert!(
        lines
            .by_ref()
            .map_while(Result::ok)
            .any(|l| l.contains("victim ready")),
        "the victim client did not start"
    );
    // Both sessions render at the same time for a while, then the victim dies mid-frame.
    for frame in 0..50 {
        steady_frame(&mut survivor, frame, &payload);
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let freed = server.wait_log(
        &["ended: the client hung up", "live objects freed"],
        Duration::from_secs(10),
    );
    let freed = freed.unwrap_or_else(|| {
        panic!(
            "the server did not log the victim's end: {:#?}",
            server.log()
        )
    });
    // The victim made a surface, a context's objects and 9 buffers: all of them were live.
    let count: u64 = freed
        .split("hung up; ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(count >= 10, "the victim's objects were freed: {freed}");

    // The survivor goes on and gets correct results.
    for frame in 0..50 {
        steady_frame(&mut survivor, frame, &payload);
    }
    let mut out = [0u8; 8];
    survivor.get_buffer_sub_data(ARRAY_BUFFER, 100, 8, &mut out);
    assert_eq!(out, [100, 101, 102, 103, 104, 105, 106, 107]);
    assert_eq!(survivor.get_graphics_reset_status(), NO_ERROR);
    let probe = survivor
        .server_probe()
        .expect("the survivor's server-side probe");
    assert_eq!(
        probe.count("Clear"),
        2 * (3 + 50 + 50),
        "every clear of the survivor was applied"
    );
    assert_no_error!(survivor);
}

/// Records a few batches of a varied scene, as the server would receive them.
fn corpus() -> Vec<Vec<u8>> {
    let mut ctx = context_with(TransportKind::Inproc, Some(SurfaceConfig::new(16, 16)));
    let bufs = [ctx.gen_buffer(), ctx.gen_buffer()];
    ctx.bind_buffer(ARRAY_BUFFER, bufs[0]);
    ctx.buffer_data(ARRAY_BUFFER, 64, Some(&[1; 64]), STATIC_DRAW);
    ctx.bind_buffer(COPY_WRITE_BUFFER, bufs[1]);
    ctx.buffer_data(COPY_WRITE_BUFFER, 64, None, DYNAMIC_DRAW);
    ctx.copy_buffer_sub_data(ARRAY_BUFFER, COPY_WRITE_BUFFER, 8, 16, 32);
    ctx.flush();
    for frame in 0..2 {
        ctx.enable(BLEND);
        ctx.clear_color(0.5, frame as f32, 0.0, 1.0);
        ctx.enable(SCISSOR_TEST);
        ctx.scissor(1, 2, 3, 4);
        ctx.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT | STENCIL_BUFFER_BIT);
        ctx.buffer_sub_data(ARRAY_BUFFER, 4, 8, &[frame as u8; 8]);
        ctx.flush();
    }
    let mut out = [0u8; 4];
    ctx.get_buffer_sub_data(ARRAY_BUFFER, 0, 4, &mut out);
    ctx.delete_buffers(2, &bufs);
    ctx.finish();
    ctx.null_probe()
        .unwrap()
        .take_batches()
        .into_iter()
        .map(|(archive, stage)| {
            let mut msg = Vec::new();
            msg.extend_from_slice(b"TSB1");
            msg.extend_from_slice(&(archive.len() as u32).to_le_bytes());
            msg.extend_from_slice(&(stage.len() as u32).to_le_bytes());
            msg.extend_from_slice(&[0; 4]);
            msg.extend_from_slice(&archive);
            msg.resize(msg.len().next_multiple_of(16), 0);
            msg.extend_from_slice(&stage);
            msg
        })
        .collect()
}

/// xorshift64*: a fixed-seed generator, so every run feeds the same cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut Rng, msg: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        match rng.below(7) {
            2 if msg.len() >= 4 => {
                // A 32-bit word: lengths, offsets, handles, relative pointers.
                let i = rng.below(msg.len().saturating_sub(4)) & !3;
                let v: u32 = [
                    0,
                    1,
                    u32::MAX,
                    0x7fff_ffff,
                    0x8000_0000,
                    4096,
                    rng.next() as u32,
                ][rng.below(7)];
                msg[i..i + 4].copy_from_slice(&v.to_le_bytes());
            }
            0 | 2 => {
                let i = rng.below(msg.len());
                msg[i] ^= 1 << rng.below(8);
            }
            1 => {
                let i = rng.below(msg.len());
                msg[i] = [0, 0xff, 0x7f, 0x80, 1, 16][rng.below(6)];
            }
            3 => msg.truncate(rng.below(msg.len())),
            4 => msg.extend((0..rng.below(64)).map(|_| rng.next() as u8)),
            5 => {
                // Swap two words of the archive: records in the wrong place.
                let (a, b) = (rng.below(msg.len() / 4) * 4, rng.below(msg.len() / 4) * 4);
                if a + 4 <= msg.len() && b + 4 <= msg.len() {
                    for k in 0..4 {
                        msg.swap(a + k, b + k);
                    }
                }
            }
            _ => {
                // Header lengths, which the decoder checks before anything else.
                let i = 4 + 4 * rng.below(2);
                let v = (rng.next() % 4096) as u32;
                if msg.len() >= i + 4 {
                    msg[i..i + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
        }
        if msg.is_empty() {
            return;
        }
    }
}

#[test]
fn mutated_batches_never_panic_the_servers_decoder() {
    let corpus = corpus();
    assert!(corpus.len() >= 4, "{} batches", corpus.len());
    // The corpus itself applies cleanly: the decoder accepts what the engine sends.
    let (mut backend, _) = NullBackend::new(false);
    let mut out = Outbox::default();
    for msg in &corpus {
        transport::apply_message(&mut backend, msg, &mut out).expect("an unmutated batch applies");
    }
    let cases = 100_000;
    let mut rng = Rng(0x7e55_e7a0_f00d_cafe);
    let (mut accepted, mut refused, mut huge) = (0u32, 0u32, 0u32);
    let started = Instant::now();
    let mut msg = Vec::new();
    for _ in 0..cases {
        // A fresh session that applied the batches before the mutated one, as a server would.
        let target = rng.below(corpus.len());
        let (mut backend, _) = NullBackend::new(false);
        out.replies.clear();
        out.events.clear();
        let mut alive = true;
        for prior in &corpus[..target] {
            alive &= transport::apply_message(&mut backend, prior, &mut out).is_ok();
        }
        assert!(alive);
        msg.clear();
        msg.extend_from_slice(&corpus[target]);
        mutate(&mut rng, &mut msg);
        // The null backend keeps buffer bytes: a mutated size would make it allocate (and
        // zero) gigabytes. Such batches still go through the decoder; they are just not
        // applied to the null backend.
        if asks_for_a_huge_buffer(&msg) {
            huge += 1;
            continue;
        }
        match transport::apply_message(&mut backend, &msg, &mut out) {
            Ok(()) => accepted += 1,
            Err(_) => refused += 1,
        }
    }
    println!(
        "{cases} mutated batches in {:?}: {accepted} applied, {refused} refused, {huge} decoded only \
         (huge buffers)",
        started.elapsed()
    );
    assert_eq!(accepted + refused + huge, cases);
    assert!(huge < cases / 100, "{huge}");
    assert!(
        refused > cases / 2,
        "most mutations must be caught: {refused}"
    );
    assert!(
        accepted > 0,
        "some mutations are harmless (a colour, a scissor)"
    );
}

/// Whether `msg` decodes (the server's decoder: header, bytecheck, every record) and creates
/// a buffer larger than 1 MiB.
fn asks_for_a_huge_buffer(msg: &[u8]) -> bool {
    transport::decode_message(msg).is_ok_and(|records| {
        records
            .iter()
            .any(|r| matches!(r, Record::CreateBuffer { size, .. } if *size > 1 << 20))
    })
}

/// Reads one frame off a raw socket: (kind, payload).
fn read_frame(sock: &mut UnixStream) -> (u32, Vec<u8>) {
    let mut h = [0u8; 16];
    sock.read_exact(&mut h).unwrap();
    assert_eq!(&h[..4], b"TSRF");
    let kind = u32::from_le_bytes(h[4..8].try_into().unwrap());
    let len = u32::from_le_bytes(h[8..12].try_into().unwrap()) as usize;
    let mut payload = vec![0; len];
    sock.read_exact(&mut payload).unwrap();
    (kind, payload)
}

#[test]
fn a_wrong_fingerprint_is_refused_cleanly() {
    let server = Server::start();
    let mut sock = UnixStream::connect(&server.socket).unwrap();
    // A Hello from a build whose records differ: only the fingerprint is read.
    let mut payload = (tessera_engine::wire::FINGERPRINT ^ 1)
        .to_le_bytes()
        .to_vec();
    payload.extend_from_slice(&[0; 8]);
    payload.extend_from_slice(&[0xAB; 40]);
    let mut frame = b"TSRF".to_vec();
    frame.extend_from_slice(&1u32.to_le_bytes());
    frame.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    frame.extend_from_slice(&[0; 4]);
    frame.extend_from_slice(&payload);
    sock.write_all(&frame).unwrap();
    let (kind, reason) = read_frame(&mut sock);
    let reason = String::from_utf8(reason).unwrap();
    assert_eq!(kind, 5, "a Refuse frame");
    assert!(reason.contains("fingerprint mismatch"), "{reason}");
    assert!(
        server
            .wait_log(&["refused", "fingerprint mismatch"], Duration::from_secs(5))
            .is_some()
    );
    // The server carries on.
    let mut ctx = remote_context(&TransportKind::Unix(server.socket.clone()));
    ctx.finish();
    assert_eq!(ctx.get_graphics_reset_status(), NO_ERROR);
}

#[test]
fn a_forged_handle_ends_only_its_session() {
    let server = Server::start();
    let mut good = remote_context(&TransportKind::Shm(Some(server.socket.clone())));
    let payload = vec![2u8; 64];
    steady_setup(&mut good, &payload);
    for (name, kind) in [
        ("shm", TransportKind::Shm(Some(server.socket.clone()))),
        ("unix", TransportKind::Unix(server.socket.clone())),
    ] {
        let options = DialOptions::default();
        let mut remote = transport::dial(&kind, &options).unwrap();
        let mut enc = Encoder::new();
        let forged = tessera_engine::wire::handle::BufferHandle {
            slot: 77,
            generation: 3,
        };
        let data = enc.stage(&[1, 2, 3]);
        enc.push(Record::WriteBuffer {
            buffer: forged,
            offset: 0,
            data,
        });
        let reply = enc.mint_reply();
        enc.push(Record::Finish { reply });
        remote.transport.submit(&mut enc).unwrap();
        let lost = remote.transport.wait_reply(reply).unwrap_err();
        assert!(lost.reason.contains("not live"), "{name}: {}", lost.reason);
        // Every later call fails the same way, at once.
        enc.push(Record::Flush);
        assert!(remote.transport.submit(&mut enc).is_err(), "{name}");
        assert!(
            server
                .wait_log(&["ended: record WriteBuffer uses"], Duration::from_secs(5))
                .is_some(),
            "{name}"
        );
        // The other session never noticed.
        steady_frame(&mut good, 1, &payload);
        good.finish();
        assert_eq!(good.get_graphics_reset_status(), NO_ERROR, "{name}");
    }
}

#[test]
fn tcp_clients_without_the_secret_are_refused() {
    let server = Server::start();
    // No secret at all.
    let err = Context::new(&Config {
        transport: server.tcp_kind(None),
        backend: tessera_engine::BackendKind::Null,
        ..Config::default()
    })
    .err()
    .expect("refused without a secret");
    assert!(
        err.to_string().contains("requires a shared secret"),
        "{err}"
    );
    // The wrong secret.
    let wrong = server.dir.join("wrong");
    std::fs::write(&wrong, b"not the secret").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrong, std::fs::Permissions::from_mode(0o600)).unwrap();
    let err = Context::new(&Config {
        transport: server.tcp_kind(Some(wrong.clone())),
        backend: tessera_engine::BackendKind::Null,
        ..Config::default()
    })
    .err()
    .expect("refused with the wrong secret");
    assert!(err.to_string().contains("authentication failed"), "{err}");
    assert!(
        server
            .wait_log(&["refused: authentication failed"], Duration::from_secs(5))
            .is_some()
    );
    // A secret others can read is not used at all.
    std::fs::set_permissions(&wrong, std::fs::Permissions::from_mode(0o644)).unwrap();
    let err = Context::new(&Config {
        transport: server.tcp_kind(Some(wrong)),
        backend: tessera_engine::BackendKind::Null,
        ..Config::default()
    })
    .err()
    .expect("a world-readable secret is refused");
    assert!(err.to_string().contains("must be 600"), "{err}");
    // The right one works.
    let mut ctx = remote_context(&server.tcp_kind(Some(server.secret.clone())));
    ctx.finish();
    assert_eq!(ctx.get_graphics_reset_status(), NO_ERROR);
}

/// The intruder of the next test: dials as another user, reports what happened.
fn intruder(socket: &str) {
    match transport::dial(
        &TransportKind::Shm(Some(socket.into())),
        &DialOptions::default(),
    ) {
        Ok(_) => println!("intruder admitted"),
        Err(e) => println!("intruder refused: {e}"),
    }
}

#[test]
fn unix_peers_of_other_users_are_refused() {
    if let Ok(socket) = std::env::var("TESSERA_FAULTS_INTRUDER") {
        return intruder(&socket);
    }
    // The policy, with synthetic peers (the seam the server uses for every connection).
    use tessera_engine::wire::transport::peer::{PeerCred, ServerIdentity, admit};
    let server_id = ServerIdentity {
        uid: 1000,
        gid: 1000,
    };
    assert!(
        admit(
            PeerCred {
                pid: 1,
                uid: 1000,
                gid: 5
            },
            &[],
            server_id
        )
        .is_ok()
    );
    assert!(
        admit(
            PeerCred {
                pid: 1,
                uid: 0,
                gid: 0
            },
            &[],
            server_id
        )
        .is_ok()
    );
    assert!(
        admit(
            PeerCred {
                pid: 1,
                uid: 2000,
                gid: 2000
            },
            &[1000],
            server_id
        )
        .is_ok()
    );
    assert!(
        admit(
            PeerCred {
                pid: 1,
                uid: 2000,
                gid: 2000
            },
            &[7],
            server_id
        )
        .is_err()
    );

    // A real peer of another user, when this test may switch users (it runs as root in CI).
    let server = Server::start();
    if ServerIdentity::current().uid != 0 {
        println!("not root: the refusal of a real peer of another user is not exercised");
        return;
    }
    // The server is root; `nobody` is neither root, nor its user, nor in its group. Widen the
    // socket file so only the credential check stands in the way.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&server.socket, std::fs::Permissions::from_mode(0o666)).unwrap();
    use std::os::unix::process::CommandExt;
    // A copy of this test binary that `nobody` may execute wherever the checkout lives.
    let exe = server.dir.join("intruder");
    std::fs::copy(std::env::current_exe().unwrap(), &exe).unwrap();
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    let output = Command::new(&exe)
        .args([
            "faults::unix_peers_of_other_users_are_refused",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("TESSERA_FAULTS_INTRUDER", &server.socket)
        .uid(65534)
        .gid(65534)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("intruder refused"), "{stdout}");
    assert!(
        stdout.contains("uid 65534"),
        "the refusal names the peer: {stdout}"
    );
    let logged = server.wait_log(
        &["refused a unix peer", "uid 65534"],
        Duration::from_secs(5),
    );
    assert!(logged.is_some(), "{:#?}", server.log());
}

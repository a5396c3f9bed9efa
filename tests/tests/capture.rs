//! Capture and replay of the record stream (`tessera_wire::capture`): the bench's
//! `statechange` scene and the main job's scene, captured through the Rust API and through
//! the drop-in `libEGL` on one backend, replay on the other backend with every frame's image
//! hash equal to the one the live run read back before its swap, and on the null backend
//! with every captured record applied; `tessera-replay` prints the same hashes; a capture
//! whose program was killed mid-frame replays the frames completed before the kill but at
//! most the bounded number in flight; and frames 100..110 captured alone replay to the
//! images of the whole capture's, in a scene whose frames read what earlier frames wrote on
//! the GPU.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tessera_engine::gl::*;
use tessera_engine::pixel::PixelsMut;
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, assert_no_backend_events};
use tessera_tests::scenes::{BENCH_SIZE, Bench, BenchScene, Demo, FEEDBACK_FS, FULL_TRIANGLE_VS};
use tessera_wire::capture::{CaptureReader, IN_FLIGHT, ReplayedFrame, Replayer, image_hash};
use tessera_wire::null::NullBackend;
use tessera_wire::transport::connect;

/// Frames captured of each scene.
const FRAMES: usize = 5;
/// Draws per frame of `statechange`.
const DRAWS: u32 = 96;
/// The demo's default framebuffer.
const DEMO_SIZE: u32 = 96;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "tessera-capture-test-{}-{name}.tcap",
        std::process::id()
    ))
}

/// A context on `backend` capturing into `file`.
fn capturing(backend: Backend, file: &Path, size: u32) -> Context {
    tessera_tests::ensure_runtime_dir();
    let config = Config {
        backend: BackendKind::Gles,
        surface: Some(SurfaceConfig::new(size, size)),
        capture_file: Some(file.to_owned()),
        ..Config::default()
    };
    match backend {
        Backend::Gles => Context::new(&config).expect("the GLES backend (llvmpipe)"),
        Backend::Vulkan => Context::with_backend(&config, vulkan()),
    }
}

fn vulkan() -> Box<dyn tessera_wire::Backend> {
    tessera_tests::ensure_lavapipe();
    let options = tessera_backend_vk::VkOptions {
        validation: true,
        ..tessera_backend_vk::VkOptions::default()
    };
    Box::new(
        tessera_backend_vk::VulkanBackend::with_options(&options)
            .expect("the Vulkan backend (lavapipe)"),
    )
}

fn backend_of(backend: Backend) -> Box<dyn tessera_wire::Backend> {
    match backend {
        Backend::Gles => Box::new(tessera_backend_gles::GlesBackend::new().expect("GLES")),
        Backend::Vulkan => vulkan(),
    }
}

/// Reads the default framebuffer back as `glReadPixels` gives it and hashes it, then swaps:
/// the hash a replay must print for this frame.
fn read_and_swap(ctx: &mut Context, size: u32) -> u64 {
    let mut pixels = vec![0u8; (size * size * 4) as usize];
    ctx.read_pixels(
        0,
        0,
        size as i32,
        size as i32,
        RGBA,
        UNSIGNED_BYTE,
        PixelsMut::Bytes(&mut pixels),
    );
    ctx.swap_buffers();
    image_hash(&pixels)
}

/// What a live run saw: each frame's hash, and the records submitted up to its last swap.
struct Live {
    hashes: Vec<u64>,
    records: u64,
}

/// Runs `FRAMES` frames of the `statechange` scene on `backend`, capturing into `file`.
fn live_statechange(backend: Backend, file: &Path) -> Live {
    let mut ctx = capturing(backend, file, BENCH_SIZE as u32);
    let mut bench = Bench::setup(&mut ctx, BenchScene::StateChange);
    let mut hashes = Vec::new();
    for _ in 0..FRAMES {
        bench.frame(&mut ctx, DRAWS);
        hashes.push(read_and_swap(&mut ctx, BENCH_SIZE as u32));
    }
    finish_live(ctx, hashes, "statechange")
}

/// Runs `FRAMES` frames of the main job's scene on `backend`, capturing into `file`.
fn live_demo(backend: Backend, file: &Path) -> Live {
    let mut ctx = capturing(backend, file, DEMO_SIZE);
    let mut demo = Demo::setup(&mut ctx, DEMO_SIZE as i32, DEMO_SIZE as i32);
    let mut hashes = Vec::new();
    for _ in 0..FRAMES {
        demo.frame(&mut ctx);
        hashes.push(read_and_swap(&mut ctx, DEMO_SIZE));
    }
    finish_live(ctx, hashes, "demo")
}

fn finish_live(mut ctx: Context, hashes: Vec<u64>, label: &str) -> Live {
    let records = ctx.transport_stats().records;
    assert_eq!(ctx.get_error(), NO_ERROR, "{label}: a GL error");
    assert_no_backend_events(&mut ctx, label);
    // Distinct frames: a replay that drew one frame for all could not pass.
    let mut distinct = hashes.clone();
    distinct.dedup();
    assert!(distinct.len() > 1, "{label}: every frame looks the same");
    // Dropping the context ends the capture (the writer thread finishes the file).
    drop(ctx);
    Live { hashes, records }
}

/// Replays every frame of `file` on `backend` with read-back.
fn replay(
    file: &Path,
    backend: Box<dyn tessera_wire::Backend>,
    read_back: bool,
) -> Vec<ReplayedFrame> {
    let mut reader = CaptureReader::open(file).expect("a readable capture");
    let mut replayer = Replayer::new(connect(&TransportKind::Inproc, backend));
    let mut frames = Vec::new();
    while let Some(frame) = reader.next_frame() {
        frames.push(
            replayer
                .replay(&frame, read_back)
                .expect("the frame replays"),
        );
    }
    frames
}

fn hashes(frames: &[ReplayedFrame]) -> Vec<u64> {
    frames
        .iter()
        .map(|f| f.image.as_ref().expect("a read-back").hash())
        .collect()
}

/// The capture replays on `other` to the live hashes, and on null with every record
/// applied.
fn check_replays(live: &Live, file: &Path, other: Backend, label: &str) {
    let on_other = replay(file, backend_of(other), true);
    assert_eq!(on_other.len(), FRAMES, "{label}: frames in the capture");
    assert_eq!(
        hashes(&on_other),
        live.hashes,
        "{label}: replayed on {}",
        other.name()
    );
    let (null, probe) = NullBackend::new(false);
    let on_null = replay(file, Box::new(null), false);
    let captured: u64 = on_null.iter().map(|f| f.records).sum();
    assert_eq!(captured, live.records, "{label}: records in the capture");
    // Every captured record, and one `Finish` per frame the replay adds.
    assert_eq!(
        probe.stats().records,
        live.records + FRAMES as u64,
        "{label}: records the null backend applied"
    );
}

#[test]
fn statechange_captured_on_gles_replays_on_vulkan_and_null() {
    let file = temp("statechange-gles");
    let live = live_statechange(Backend::Gles, &file);
    check_replays(
        &live,
        &file,
        Backend::Vulkan,
        "statechange captured on gles",
    );
    // Replayed on the backend it was captured on, too.
    let same = replay(&file, backend_of(Backend::Gles), true);
    assert_eq!(hashes(&same), live.hashes, "statechange replayed on gles");
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn the_main_job_s_scene_captured_on_vulkan_replays_on_gles_and_null() {
    let file = temp("demo-vulkan");
    let live = live_demo(Backend::Vulkan, &file);
    // The scene's blending and filtering round a few pixels differently on the two drivers
    // (by one, in about 250 of its 9216 pixels), so a replay on GLES is compared with a
    // live run on GLES; on Vulkan, with the capturing run.
    let gles_file = temp("demo-gles");
    let live_gles = live_demo(Backend::Gles, &gles_file);
    std::fs::remove_file(&gles_file).unwrap();
    assert_eq!(
        live_gles.records, live.records,
        "the same records on both backends"
    );
    let on_vulkan = replay(&file, backend_of(Backend::Vulkan), true);
    assert_eq!(hashes(&on_vulkan), live.hashes, "demo replayed on vulkan");
    let live = Live {
        hashes: live_gles.hashes,
        records: live.records,
    };
    check_replays(&live, &file, Backend::Gles, "demo captured on vulkan");
    // `tessera-replay` prints the same hashes, one line per frame, and writes the PNGs.
    let png = temp("demo-png");
    let out = Command::new(env!("CARGO_BIN_EXE_tessera-replay"))
        .arg(&file)
        .args(["--backend", "gles", "--hash", "--png"])
        .arg(&png)
        .output()
        .expect("tessera-replay runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: Vec<u64> = stdout
        .lines()
        .filter(|l| l.starts_with("frame "))
        .map(|l| {
            let h = l
                .split_whitespace()
                .skip_while(|w| *w != "hash")
                .nth(1)
                .unwrap();
            u64::from_str_radix(h, 16).unwrap()
        })
        .collect();
    assert_eq!(printed, live.hashes, "{stdout}");
    assert!(
        stdout.contains(&format!("replayed {FRAMES} frames")),
        "{stdout}"
    );
    assert!(png.join(format!("frame-{:06}.png", FRAMES - 1)).is_file());
    // `--frames` reports a range, replaying what comes before it.
    let out = Command::new(env!("CARGO_BIN_EXE_tessera-replay"))
        .arg(&file)
        .args(["--backend", "gles", "--hash", "--frames", "2..3"])
        .output()
        .expect("tessera-replay runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("frame ")).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with("frame 2 "), "{stdout}");
    assert!(
        lines[1].contains(&format!("hash {:016x}", live.hashes[3])),
        "{stdout}"
    );
    std::fs::remove_dir_all(&png).unwrap();
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn a_capture_with_a_damaged_header_is_refused_by_tessera_replay() {
    let file = temp("foreign");
    drop(capturing(Backend::Gles, &file, 8));
    // A bit of the header's wire fingerprint flipped: its checksum no longer matches (the
    // unit tests check that a whole header of another build is refused naming both).
    let mut bytes = std::fs::read(&file).unwrap();
    let header = CaptureReader::open(&file).unwrap().header().clone();
    assert_eq!(header.fingerprint, tessera_wire::FINGERPRINT);
    bytes[8 + 16 + 4] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tessera-replay"))
        .arg(&file)
        .args(["--backend", "null"])
        .output()
        .expect("tessera-replay runs");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a Tessera capture"), "{stderr}");
    std::fs::remove_file(&file).unwrap();
}

/// The child of [`a_capture_cut_by_a_kill_replays_the_frames_before_it`]: renders the
/// demo on GLES capturing into `file`, printing each frame's hash after its swap, until
/// it is killed (bounded, should the parent die first).
fn killed_child(file: &Path) {
    let mut ctx = capturing(Backend::Gles, file, DEMO_SIZE);
    let mut demo = Demo::setup(&mut ctx, DEMO_SIZE as i32, DEMO_SIZE as i32);
    for i in 0..20_000 {
        demo.frame(&mut ctx);
        let hash = read_and_swap(&mut ctx, DEMO_SIZE);
        println!("frame {i} {hash:016x}");
    }
}

#[test]
fn a_capture_cut_by_a_kill_replays_the_frames_before_it() {
    if let Some(file) = std::env::var_os("TESSERA_CAPTURE_TEST_CHILD") {
        return killed_child(Path::new(&file));
    }
    let file = temp("killed");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "capture::a_capture_cut_by_a_kill_replays_the_frames_before_it",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("TESSERA_CAPTURE_TEST_CHILD", &file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut live = Vec::new();
    // The harness prints the test's name on the line of its first output.
    let frame_line = |line: &str| line.find("frame ").map(|at| line[at + 6..].to_owned());
    for line in lines.by_ref().map_while(Result::ok) {
        if let Some(rest) = frame_line(&line) {
            let hash = rest.split_whitespace().nth(1).unwrap();
            live.push(u64::from_str_radix(hash, 16).unwrap());
            if live.len() == 30 {
                break;
            }
        }
    }
    assert_eq!(live.len(), 30, "the child did not render");
    child.kill().unwrap();
    // Frames it printed before the kill landed.
    for line in lines.map_while(Result::ok) {
        if let Some(rest) = frame_line(&line) {
            live.push(u64::from_str_radix(rest.split_whitespace().nth(1).unwrap(), 16).unwrap());
        }
    }
    child.wait().unwrap();
    let mut reader = CaptureReader::open(&file).expect("the header was written at once");
    let mut replayer = Replayer::new(connect(&TransportKind::Inproc, backend_of(Backend::Gles)));
    let mut replayed = Vec::new();
    while let Some(frame) = reader.next_frame() {
        let f = replayer
            .replay(&frame, true)
            .expect("a complete frame replays");
        replayed.push(f.image.unwrap().hash());
    }
    // At most the frames whose ends were in the channel or in the writer's hands are lost;
    // at most one frame completed but not yet printed when the kill landed is extra.
    let completed = live.len();
    eprintln!(
        "{} frames replayed of {completed} completed before the kill",
        replayed.len()
    );
    assert!(
        replayed.len() + IN_FLIGHT + 1 >= completed && replayed.len() <= completed + 1,
        "{} frames replayed of {completed} completed ({:?})",
        replayed.len(),
        reader.stopped()
    );
    assert!(!replayed.is_empty());
    let common = replayed.len().min(completed);
    assert_eq!(replayed[..common], live[..common]);
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn a_c_program_captured_through_the_drop_in_replays_on_the_other_backend_and_null() {
    tessera_tests::ensure_runtime_dir();
    let dir = crate::dropin::dropin_dir();
    let program = dir.join("tessera-capture-frames");
    crate::dropin::compile_c(
        &crate::dropin::root().join("tests/dropin/capture_frames.c"),
        &program,
        &["-lEGL", "-lOpenGL"],
    );
    let file = temp("dropin");
    let out = Command::new(&program)
        .env_remove("TESSERA_TRANSPORT")
        .env("LD_LIBRARY_PATH", dir)
        .env("TESSERA_BACKEND", "gles")
        .env("TESSERA_CAPTURE", &file)
        .output()
        .expect("the C program runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stderr.contains("vendor: Tessera"), "not Tessera: {stderr}");
    let live: Vec<u64> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("frame "))
        .map(|l| u64::from_str_radix(l.split_whitespace().nth(1).unwrap(), 16).unwrap())
        .collect();
    assert_eq!(live.len(), 8, "{stdout}");
    let mut distinct = live.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), live.len(), "every frame differs");
    // eglTerminate ended the capture: every frame is in the file.
    for backend in [Backend::Vulkan, Backend::Gles] {
        let frames = replay(&file, backend_of(backend), true);
        assert_eq!(hashes(&frames), live, "replayed on {}", backend.name());
    }
    let (null, probe) = NullBackend::new(false);
    let on_null = replay(&file, Box::new(null), false);
    assert_eq!(on_null.len(), live.len());
    let captured: u64 = on_null.iter().map(|f| f.records).sum();
    assert_eq!(probe.stats().records, captured + live.len() as u64);

    // `--compare`: the backends agree on every frame (over the render thread, too) ...
    let compare_with = |extra: &[&str], fault: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_tessera-replay"))
            .arg(&file)
            .args(["--compare", "gles,vulkan", "--transport", "thread"])
            .args(extra)
            .env("TESSERA_FAULT", fault)
            .output()
            .expect("tessera-replay runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        (out.status.code(), text)
    };
    let compare = |extra: &[&str]| compare_with(extra, "");
    let (status, text) = compare(&["--bisect"]);
    assert_eq!(status, Some(0), "{text}");
    assert!(
        text.contains("no difference between gles and vulkan in 8 frames"),
        "{text}"
    );
    assert!(!text.contains("first differing record"), "{text}");
    // ... and where Vulkan's replay leaves one draw of frame 2 out (the 12 draws of each
    // frame count from 0), frame 2 is named as the first that differs.
    let (status, text) = compare(&["--fault-skip-draw", "26"]);
    assert_eq!(status, Some(3), "{text}");
    assert!(text.contains("first difference: frame 2 "), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.ends_with(" same")).count(),
        7,
        "{text}"
    );
    // `--bisect` narrows a mis-render of one backend to its record: the fault switch makes
    // the GLES backend (alone) leave out its 27th draw, the third `Draw` of frame 2.
    let mut reader = CaptureReader::open(&file).unwrap();
    let frame2 = std::iter::from_fn(|| reader.next_frame())
        .find(|f| f.index == 2)
        .expect("frame 2");
    let kinds = frame2.record_kinds();
    let third_draw = kinds
        .iter()
        .enumerate()
        .filter(|(_, k)| *k == "Draw")
        .nth(2)
        .map(|(i, _)| i)
        .expect("frame 2 draws");
    let (status, text) = compare_with(&["--bisect"], "misrender:27");
    assert_eq!(status, Some(3), "{text}");
    assert!(text.contains("first difference: frame 2 "), "{text}");
    assert!(
        text.lines()
            .any(|l| l == format!("first differing record: frame 2 record {third_draw} Draw")),
        "record {third_draw} of {kinds:?}: {text}"
    );
    std::fs::remove_file(&file).unwrap();
}

/// Frames of the feedback scene run live.
const FEEDBACK_FRAMES: u64 = 111;
/// The frames captured alone.
const PART: std::ops::RangeInclusive<u64> = 100..=110;
/// The feedback scene's size (its render targets' and its surface's).
const FB: i32 = 64;
/// Bytes of each of its buffers.
const FB_BUFFER: usize = 4096;

/// The presenting pass's vertex shader: its colour comes from a buffer the GPU rotates
/// every frame.
const PRESENT_VS: &str = "#version 330 core
layout(location = 0) in vec4 color;
layout(location = 1) in vec4 tint;
flat out vec4 c;
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    c = color * 0.5 + tint * 0.5;
    gl_Position = vec4(p, 0.0, 1.0);
}";

const PRESENT_FS: &str = "#version 330 core
uniform sampler2D target;
flat in vec4 c;
out vec4 frag;
void main() {
    vec3 t = texelFetch(target, ivec2(gl_FragCoord.xy), 0).rgb;
    frag = vec4(t * 0.75 + c.rgb * 0.25, 1.0);
}";

/// A scene whose frames read what earlier frames wrote on the GPU: frame `n` renders into
/// target `n mod 2` sampling the other, copies buffer `n mod 2` rotated by 4 bytes into the
/// other (GPU copies), then draws the target into the default framebuffer coloured by that
/// buffer's first bytes and tinted by bytes the CPU writes into a persistently mapped
/// (coherent) buffer. Each frame also makes and deletes a texture.
struct Feedback {
    feedback: GLuint,
    k: GLint,
    present: GLuint,
    textures: [GLuint; 2],
    framebuffers: [GLuint; 2],
    buffers: [GLuint; 2],
    vaos: [GLuint; 2],
    /// The tint buffer (16 bytes), mapped persistently and coherently.
    tint: GLuint,
}

fn feedback_setup(ctx: &mut Context) -> Feedback {
    use tessera_tests::gl::Gl;
    let feedback = tessera_tests::scenes::link_program(ctx, FULL_TRIANGLE_VS, FEEDBACK_FS);
    let present = tessera_tests::scenes::link_program(ctx, PRESENT_VS, PRESENT_FS);
    let k = Gl::get_uniform_location(ctx, feedback, "k");
    Gl::use_program(ctx, feedback);
    let previous = Gl::get_uniform_location(ctx, feedback, "previous");
    Gl::uniform1i(ctx, previous, 0);
    Gl::use_program(ctx, present);
    let target = Gl::get_uniform_location(ctx, present, "target");
    Gl::uniform1i(ctx, target, 0);
    let seed: Vec<u8> = (0..FB * FB * 4).map(|i| (i * 37 % 251) as u8).collect();
    let mut textures = [0; 2];
    let mut framebuffers = [0; 2];
    for i in 0..2 {
        textures[i] = Gl::gen_texture(ctx);
        Gl::bind_texture(ctx, TEXTURE_2D, textures[i]);
        Gl::tex_image_2d(
            ctx,
            TEXTURE_2D,
            0,
            RGBA8 as GLint,
            FB,
            FB,
            0,
            RGBA,
            UNSIGNED_BYTE,
            (i == 1).then_some(&seed[..]),
        );
        Gl::tex_parameteri(ctx, TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
        Gl::tex_parameteri(ctx, TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as GLint);
        framebuffers[i] = Gl::gen_framebuffer(ctx);
        Gl::bind_framebuffer(ctx, FRAMEBUFFER, framebuffers[i]);
        Gl::framebuffer_texture_2d(
            ctx,
            FRAMEBUFFER,
            COLOR_ATTACHMENT0,
            TEXTURE_2D,
            textures[i],
            0,
        );
    }
    Gl::bind_framebuffer(ctx, FRAMEBUFFER, 0);
    let tint_buffer = Gl::gen_buffer(ctx);
    Gl::bind_buffer(ctx, ARRAY_BUFFER, tint_buffer);
    let flags = MAP_WRITE_BIT | MAP_PERSISTENT_BIT | MAP_COHERENT_BIT;
    Gl::buffer_storage(ctx, ARRAY_BUFFER, 16, None, flags);
    let mapping = Gl::map_buffer_range_ptr(ctx, ARRAY_BUFFER, 0, 16, flags);
    assert!(!mapping.is_null(), "a persistent mapping");
    let bytes: Vec<u8> = (0..FB_BUFFER).map(|i| (i * 13 % 247) as u8).collect();
    let buffers = [Gl::gen_buffer(ctx), Gl::gen_buffer(ctx)];
    let mut vaos = [0; 2];
    for (i, b) in buffers.iter().enumerate() {
        Gl::bind_buffer(ctx, ARRAY_BUFFER, *b);
        Gl::buffer_data(
            ctx,
            ARRAY_BUFFER,
            FB_BUFFER,
            (i == 0).then_some(&bytes[..]),
            DYNAMIC_COPY,
        );
        vaos[i] = Gl::gen_vertex_array(ctx);
        Gl::bind_vertex_array(ctx, vaos[i]);
        Gl::vertex_attrib_pointer(ctx, 0, 4, UNSIGNED_BYTE, true, 4, 0);
        Gl::enable_vertex_attrib_array(ctx, 0);
        Gl::bind_buffer(ctx, ARRAY_BUFFER, tint_buffer);
        Gl::vertex_attrib_pointer(ctx, 1, 4, UNSIGNED_BYTE, true, 4, 0);
        Gl::enable_vertex_attrib_array(ctx, 1);
    }
    Feedback {
        feedback,
        k,
        present,
        textures,
        framebuffers,
        buffers,
        vaos,
        tint: tint_buffer,
    }
}

/// Draws frame `n` and returns its image's hash (read back before the swap).
fn feedback_frame(ctx: &mut Context, scene: &Feedback, n: u64) -> u64 {
    use tessera_tests::gl::Gl;
    let (target, previous) = ((n % 2) as usize, (1 - n % 2) as usize);
    // A texture made and deleted every frame: the state at frame N holds none of them.
    let transient = Gl::gen_texture(ctx);
    Gl::bind_texture(ctx, TEXTURE_2D, transient);
    Gl::tex_image_2d(
        ctx,
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        4,
        4,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&[n as u8; 64]),
    );
    ctx.delete_textures(1, &[transient]);
    // The feedback pass.
    Gl::bind_framebuffer(ctx, FRAMEBUFFER, scene.framebuffers[target]);
    Gl::viewport(ctx, 0, 0, FB, FB);
    Gl::use_program(ctx, scene.feedback);
    Gl::uniform1f(ctx, scene.k, n as f32 * 0.01);
    Gl::active_texture(ctx, TEXTURE0);
    Gl::bind_texture(ctx, TEXTURE_2D, scene.textures[previous]);
    Gl::bind_vertex_array(ctx, scene.vaos[0]);
    Gl::draw_arrays(ctx, TRIANGLES, 0, 3);
    // The buffers: the other one becomes this one rotated by 4 bytes, on the GPU.
    let (src, dst) = (scene.buffers[target], scene.buffers[previous]);
    ctx.bind_buffer(COPY_READ_BUFFER, src);
    ctx.bind_buffer(COPY_WRITE_BUFFER, dst);
    let size = FB_BUFFER as GLsizeiptr;
    ctx.copy_buffer_sub_data(COPY_READ_BUFFER, COPY_WRITE_BUFFER, 4, 0, size - 4);
    ctx.copy_buffer_sub_data(COPY_READ_BUFFER, COPY_WRITE_BUFFER, 0, size - 4, 4);
    // The tint, written through the persistent mapping (its last vertex is the provoking
    // one).
    let tint = [(n * 7) as u8, (n * 3 + 40) as u8, (255 - n) as u8, 255];
    ctx.bind_buffer(ARRAY_BUFFER, scene.tint);
    let written = ctx.with_mapped(ARRAY_BUFFER, |m| m[8..12].copy_from_slice(&tint));
    assert_eq!(written, Some(()), "the tint buffer stays mapped");
    // The presenting pass.
    Gl::bind_framebuffer(ctx, FRAMEBUFFER, 0);
    Gl::use_program(ctx, scene.present);
    Gl::bind_texture(ctx, TEXTURE_2D, scene.textures[target]);
    Gl::bind_vertex_array(ctx, scene.vaos[previous]);
    Gl::draw_arrays(ctx, TRIANGLES, 0, 3);
    read_and_swap(ctx, FB as u32)
}

/// Runs the feedback scene live on GLES capturing `frames` into `file`; its hashes.
fn live_feedback(file: &Path, frames: std::ops::RangeInclusive<u64>) -> Vec<u64> {
    tessera_tests::ensure_runtime_dir();
    let config = Config {
        backend: BackendKind::Gles,
        surface: Some(SurfaceConfig::new(FB as u32, FB as u32)),
        capture_file: Some(file.to_owned()),
        capture_frames: frames,
        ..Config::default()
    };
    let mut ctx = Context::new(&config).expect("the GLES backend (llvmpipe)");
    let scene = feedback_setup(&mut ctx);
    let hashes: Vec<u64> = (0..FEEDBACK_FRAMES)
        .map(|n| feedback_frame(&mut ctx, &scene, n))
        .collect();
    assert_eq!(ctx.get_error(), NO_ERROR, "feedback: a GL error");
    assert_no_backend_events(&mut ctx, "feedback");
    hashes
}

#[test]
fn frames_captured_alone_replay_to_the_images_of_the_whole_capture() {
    let whole = temp("feedback-whole");
    let part = temp("feedback-part");
    let live = live_feedback(&whole, tessera_wire::capture::ALL_FRAMES);
    let live_part = live_feedback(&part, PART);
    assert_eq!(
        live, live_part,
        "the scene draws the same with either capture"
    );
    let wanted: Vec<u64> = live[*PART.start() as usize..=*PART.end() as usize].to_vec();
    let mut distinct = wanted.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        wanted.len(),
        "every frame of the range differs"
    );
    let whole_size = std::fs::metadata(&whole).unwrap().len();
    let part_size = std::fs::metadata(&part).unwrap().len();
    println!("the whole capture: {whole_size} bytes; frames {PART:?} alone: {part_size} bytes");
    for backend in [Backend::Gles, Backend::Vulkan] {
        let from_whole = replay(&whole, backend_of(backend), true);
        let from_part = replay(&part, backend_of(backend), true);
        assert_eq!(
            from_part.iter().map(|f| f.index).collect::<Vec<_>>(),
            PART.collect::<Vec<_>>(),
            "the frames the part holds"
        );
        let whole_range: Vec<u64> = hashes(&from_whole)[*PART.start() as usize..].to_vec();
        assert_eq!(
            hashes(&from_part),
            whole_range,
            "frames {PART:?} alone replayed on {}",
            backend.name()
        );
        if backend == Backend::Gles {
            assert_eq!(hashes(&from_part), wanted, "the live run's images");
        }
        // After the first frame, the part holds the very records of the whole.
        let records = |frames: &[ReplayedFrame]| -> Vec<u64> {
            frames
                .iter()
                .filter(|f| f.index > *PART.start() && PART.contains(&f.index))
                .map(|f| f.records)
                .collect()
        };
        assert_eq!(records(&from_part), records(&from_whole));
    }
    // On null every record of the part applies.
    let (null, probe) = NullBackend::new(false);
    let on_null = replay(&part, Box::new(null), false);
    let records: u64 = on_null.iter().map(|f| f.records).sum();
    assert_eq!(probe.stats().records, records + on_null.len() as u64);
    std::fs::remove_file(&whole).unwrap();
    std::fs::remove_file(&part).unwrap();
}

/// The child of [`the_bench_and_main_job_scenes_captured_through_the_drop_in_replay`]: runs
/// scene `scene` (`statechange` or `demo`) through Tessera's drop-in `libEGL` (which reads
/// `TESSERA_CAPTURE` and `TESSERA_BACKEND` like any program's), printing each frame's hash
/// before its swap.
fn dropin_child(scene: &str) {
    use tessera_tests::gl::{Gl, NativeGl};
    let egl = crate::dropin::dropin_dir().join("libEGL.so.1");
    let size = if scene == "demo" {
        DEMO_SIZE
    } else {
        BENCH_SIZE as u32
    };
    let mut gl = NativeGl::through(&egl, size as i32, size as i32).expect("a context");
    let frame = |gl: &mut NativeGl, i: usize| {
        let mut pixels = vec![0u8; (size * size * 4) as usize];
        gl.read_pixels(
            0,
            0,
            size as i32,
            size as i32,
            RGBA,
            UNSIGNED_BYTE,
            &mut pixels,
        );
        assert!(gl.swap_buffers(), "eglSwapBuffers");
        println!("frame {i} {:016x}", image_hash(&pixels));
    };
    if scene == "demo" {
        let mut demo = Demo::setup(&mut gl, DEMO_SIZE as i32, DEMO_SIZE as i32);
        for i in 0..FRAMES {
            demo.frame(&mut gl);
            frame(&mut gl, i);
        }
    } else {
        let mut bench = Bench::setup(&mut gl, BenchScene::StateChange);
        for i in 0..FRAMES {
            bench.frame(&mut gl, DRAWS);
            frame(&mut gl, i);
        }
    }
    assert_eq!(gl.get_error(), NO_ERROR);
}

/// Runs [`dropin_child`] for `scene` on `backend`, capturing into `file`; its hashes.
fn run_dropin(scene: &str, backend: Backend, file: &Path) -> Vec<u64> {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "capture::the_bench_and_main_job_scenes_captured_through_the_drop_in_replay",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("TESSERA_CAPTURE_TEST_DROPIN", scene)
        .env("TESSERA_CAPTURE", file)
        .env("TESSERA_BACKEND", backend.name())
        .env_remove("TESSERA_TRANSPORT")
        .output()
        .expect("the child runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hashes: Vec<u64> = stdout
        .lines()
        .filter_map(|l| l.find("frame ").map(|at| &l[at + 6..]))
        .map(|l| u64::from_str_radix(l.split_whitespace().nth(1).unwrap(), 16).unwrap())
        .collect();
    assert_eq!(hashes.len(), FRAMES, "{stdout}");
    hashes
}

/// The capture replays on null with every captured record applied (and a `Finish` per
/// frame).
fn replays_on_null(file: &Path) {
    let (null, probe) = NullBackend::new(false);
    let on_null = replay(file, Box::new(null), false);
    assert_eq!(on_null.len(), FRAMES);
    let captured: u64 = on_null.iter().map(|f| f.records).sum();
    assert_eq!(probe.stats().records, captured + FRAMES as u64);
}

#[test]
fn the_bench_and_main_job_scenes_captured_through_the_drop_in_replay() {
    if let Ok(scene) = std::env::var("TESSERA_CAPTURE_TEST_DROPIN") {
        return dropin_child(&scene);
    }
    // The bench's statechange scene, captured through the drop-in on GLES: Vulkan replays
    // the live images.
    let file = temp("dropin-statechange");
    let live = run_dropin("statechange", Backend::Gles, &file);
    let on_vulkan = replay(&file, backend_of(Backend::Vulkan), true);
    assert_eq!(hashes(&on_vulkan), live, "statechange replayed on vulkan");
    replays_on_null(&file);
    std::fs::remove_file(&file).unwrap();
    // The main job's scene, captured through the drop-in on Vulkan: GLES replays what the
    // drop-in draws live on GLES (the two drivers round a few of its pixels differently).
    let file = temp("dropin-demo");
    let live = run_dropin("demo", Backend::Vulkan, &file);
    let on_vulkan = replay(&file, backend_of(Backend::Vulkan), true);
    assert_eq!(hashes(&on_vulkan), live, "demo replayed on vulkan");
    let gles_file = temp("dropin-demo-gles");
    let live_gles = run_dropin("demo", Backend::Gles, &gles_file);
    std::fs::remove_file(&gles_file).unwrap();
    let on_gles = replay(&file, backend_of(Backend::Gles), true);
    assert_eq!(hashes(&on_gles), live_gles, "demo replayed on gles");
    replays_on_null(&file);
    std::fs::remove_file(&file).unwrap();
}

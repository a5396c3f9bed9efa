//! The persistent cache (`tessera_cache`) across processes: a program of 200 distinct shader
//! programs runs twice, each time in a new process (this binary's [`child`] test), with
//! Mesa's own shader cache off unless said otherwise. The second run compiles nothing:
//! no glslang compile or link, no SPIR-V to GLSL ES translation, native program binaries
//! loaded where the driver has them, and the Vulkan pipeline cache reloaded, every pipeline
//! found in it (creation feedback) where the driver keeps pipelines there (Mesa 22's
//! lavapipe keeps none). Every run checks its pixels exactly, so an entry that came back
//! wrong, or a rebuilt one, cannot pass unnoticed. Also: two processes at once, eviction
//! past the size cap, a directory others may write, and garbage and truncated entries.

use std::collections::HashMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use tessera_engine::gl::*;
use tessera_tests::differential::{Backend, tessera_on};
use tessera_wire::TransportKind;

/// Distinct programs the scene links and draws with.
const PROGRAMS: u32 = 200;
/// The surface: a 4 x 4 cell per program, 16 cells a row.
const SIZE: i32 = 64;

/// The colour program `i` writes (each channel an exact multiple of 1/255).
fn colour(i: u32) -> [u8; 4] {
    [i as u8, (i * 37 % 256) as u8, 255 - (i as u8), 255]
}

fn fragment_source(i: u32) -> String {
    let [r, g, b, _] = colour(i);
    format!(
        "#version 330 core\nout vec4 c;\nvoid main() {{ c = vec4({r}.0 / 255.0, {g}.0 / 255.0, \
         {b}.0 / 255.0, 1.0); }}\n"
    )
}

const VERTEX: &str = "#version 330 core
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}
";

/// The scene, run by the child processes: links the programs, draws each into its cell,
/// reads the frame back and checks every pixel, then prints what the cache counted and the
/// time to the first frame. Not a test of its own (it is run by the tests below).
#[test]
#[ignore = "run as a child process by the other tests of this module"]
fn child() {
    let start = Instant::now();
    let backend = match std::env::var("TESSERA_CACHE_TEST_BACKEND").as_deref() {
        Ok("vulkan") => Backend::Vulkan,
        _ => Backend::Gles,
    };
    let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    ctx.clear_color(0.0, 0.0, 0.0, 0.0);
    ctx.clear(COLOR_BUFFER_BIT);
    for i in 0..PROGRAMS {
        let p = tessera_tests::scenes::program(&mut ctx, VERTEX, &fragment_source(i));
        ctx.viewport((i % 16) as i32 * 4, (i / 16) as i32 * 4, 4, 4);
        ctx.use_program(p);
        ctx.draw_arrays(TRIANGLES, 0, 3);
    }
    let mut pixels = vec![0u8; (SIZE * SIZE * 4) as usize];
    ctx.read_pixels(
        0,
        0,
        SIZE,
        SIZE,
        RGBA,
        UNSIGNED_BYTE,
        tessera_engine::pixel::PixelsMut::Bytes(&mut pixels),
    );
    let first_frame = start.elapsed();
    assert_eq!(ctx.get_error(), NO_ERROR);
    for y in 0..SIZE as u32 {
        for x in 0..SIZE as u32 {
            let i = y / 4 * 16 + x / 4;
            let want = if i < PROGRAMS { colour(i) } else { [0; 4] };
            let at = ((y * SIZE as u32 + x) * 4) as usize;
            assert_eq!(pixels[at..at + 4], want, "pixel ({x}, {y}), program {i}");
        }
    }
    // Dropping the context destroys the backend, which saves the Vulkan pipeline cache; a
    // process may also end without (`TESSERA_CACHE_TEST_EXIT`).
    if std::env::var_os("TESSERA_CACHE_TEST_EXIT").is_some() {
        std::process::exit(0);
    }
    drop(ctx);
    let c = tessera_cache::counters();
    println!(
        "CACHE-REPORT front_end={} translations={} binaries_loaded={} binaries_refused={} \
         pipeline_hits={} pipeline_misses={} hits={} misses={} rejected={} writes={} \
         evicted={} first_frame_ms={}",
        c.front_end,
        c.translations,
        c.binaries_loaded,
        c.binaries_refused,
        c.pipeline_hits,
        c.pipeline_misses,
        c.hits,
        c.misses,
        c.rejected,
        c.writes,
        c.evicted,
        first_frame.as_millis()
    );
}

/// What a child run reported.
#[derive(Debug)]
struct Report(HashMap<String, u64>);

impl Report {
    fn get(&self, name: &str) -> u64 {
        self.0[name]
    }
}

/// How a child runs.
struct Run<'a> {
    dir: &'a Path,
    backend: &'a str,
    /// Mesa's own disk cache directory (`None`: Mesa's cache off).
    mesa_cache: Option<&'a Path>,
    /// `TESSERA_CACHE_SIZE`.
    cap: Option<&'a str>,
}

impl Run<'_> {
    fn command(&self) -> Command {
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.args([
            "cache::child",
            "--exact",
            "--include-ignored",
            "--nocapture",
        ])
        .env("TESSERA_CACHE_DIR", self.dir)
        .env("TESSERA_CACHE_TEST_BACKEND", self.backend)
        .env_remove("TESSERA_CACHE")
        .env_remove("TESSERA_CACHE_SIZE");
        match self.mesa_cache {
            Some(d) => cmd
                .env("MESA_SHADER_CACHE_DISABLE", "false")
                .env("MESA_SHADER_CACHE_DIR", d),
            None => cmd.env("MESA_SHADER_CACHE_DISABLE", "true"),
        };
        if let Some(cap) = self.cap {
            cmd.env("TESSERA_CACHE_SIZE", cap);
        }
        cmd
    }

    fn run(&self) -> Report {
        report(self.command().output().expect("running the child"))
    }
}

fn report(out: Output) -> Report {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the child failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("CACHE-REPORT "))
        .unwrap_or_else(|| panic!("no report in the child's output:\n{stdout}"));
    Report(
        line.split_whitespace()
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap();
                (k.to_owned(), v.parse().unwrap())
            })
            .collect(),
    )
}

/// A fresh directory path (not created) for one test's cache.
fn fresh_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-cache-test-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect()
}

#[test]
fn a_second_run_on_gles_compiles_and_translates_nothing() {
    let dir = fresh_dir("gles");
    let run = Run {
        dir: &dir,
        backend: "gles",
        mesa_cache: None,
        cap: None,
    };
    let first = run.run();
    assert!(first.get("front_end") >= u64::from(PROGRAMS), "{first:?}");
    assert!(
        first.get("translations") >= u64::from(PROGRAMS),
        "{first:?}"
    );
    let second = run.run();
    assert_eq!(second.get("front_end"), 0, "{second:?}");
    assert_eq!(second.get("translations"), 0, "{second:?}");
    assert_eq!(second.get("rejected"), 0, "{second:?}");
    assert_eq!(second.get("writes"), 0, "{second:?}");
    println!(
        "GLES time to first frame: first run {} ms, second run {} ms",
        first.get("first_frame_ms"),
        second.get("first_frame_ms")
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_run_on_vulkan_compiles_nothing_and_reloads_the_pipeline_cache() {
    let dir = fresh_dir("vulkan");
    let run = Run {
        dir: &dir,
        backend: "vulkan",
        mesa_cache: None,
        cap: None,
    };
    let first = run.run();
    assert!(first.get("front_end") >= u64::from(PROGRAMS), "{first:?}");
    assert!(
        first.get("pipeline_misses") >= u64::from(PROGRAMS),
        "{first:?}"
    );
    // The driver's pipeline cache data, as stored: the entry's 120-byte header, then the
    // data, which begins with Vulkan's 32-byte header. Mesa 22's lavapipe keeps nothing
    // else (its pipeline cache is empty), so it finds no pipeline there; a driver whose
    // data holds more must find every one.
    let stored = entries(&dir)
        .iter()
        .find(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("vk-pipeline-cache-")
        })
        .map(|p| fs::metadata(p).unwrap().len())
        .expect("the pipeline cache is stored when the device is destroyed");
    let second = run.run();
    assert_eq!(second.get("front_end"), 0, "{second:?}");
    let created = second.get("pipeline_hits") + second.get("pipeline_misses");
    assert_eq!(created, first.get("pipeline_misses"), "{second:?}");
    if stored > 120 + 32 {
        assert_eq!(second.get("pipeline_misses"), 0, "{second:?}");
        assert!(
            second.get("pipeline_hits") >= u64::from(PROGRAMS),
            "{second:?}"
        );
    } else {
        assert_eq!(second.get("pipeline_hits"), 0, "{second:?}");
    }
    println!(
        "Vulkan time to first frame: first run {} ms, second run {} ms",
        first.get("first_frame_ms"),
        second.get("first_frame_ms")
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// A process that ends without destroying its Vulkan device still leaves its pipeline
/// cache: it is saved every 64 pipelines, not only at teardown.
#[test]
fn the_pipeline_cache_is_saved_before_teardown() {
    let dir = fresh_dir("exit");
    let run = Run {
        dir: &dir,
        backend: "vulkan",
        mesa_cache: None,
        cap: None,
    };
    let out = run
        .command()
        .env("TESSERA_CACHE_TEST_EXIT", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let names: Vec<String> = entries(&dir)
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().any(|n| n.starts_with("vk-pipeline-cache-")),
        "{names:?}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// Where the driver has program binary formats (llvmpipe's GLES does while Mesa's disk
/// cache is on), the second run links every native program from its stored binary.
#[test]
fn a_second_run_on_gles_loads_native_program_binaries() {
    let dir = fresh_dir("binaries");
    let mesa = fresh_dir("binaries-mesa");
    let run = Run {
        dir: &dir,
        backend: "gles",
        mesa_cache: Some(&mesa),
        cap: None,
    };
    let first = run.run();
    assert_eq!(first.get("binaries_loaded"), 0, "{first:?}");
    let second = run.run();
    println!(
        "GLES with native binaries, time to first frame: first run {} ms, second run {} ms",
        first.get("first_frame_ms"),
        second.get("first_frame_ms")
    );
    assert!(
        second.get("binaries_loaded") >= u64::from(PROGRAMS),
        "{second:?}"
    );
    assert_eq!(second.get("binaries_refused"), 0, "{second:?}");
    assert_eq!(second.get("translations"), 0, "{second:?}");
    fs::remove_dir_all(&dir).unwrap();
    fs::remove_dir_all(&mesa).unwrap();
}

/// A stored native binary the driver refuses (as it refuses one another build of it made) is
/// compiled again and replaced: the run renders right, and the run after loads the new one.
#[test]
fn a_native_binary_the_driver_refuses_is_rebuilt() {
    let dir = fresh_dir("refused");
    let mesa = fresh_dir("refused-mesa");
    let run = Run {
        dir: &dir,
        backend: "gles",
        mesa_cache: Some(&mesa),
        cap: None,
    };
    run.run();
    // Alter each binary after its 4-byte format word and keep its entry valid: the entry's
    // header is 120 bytes, its last 32 the SHA-256 of the payload after it.
    let mut altered = 0;
    for path in entries(&dir) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("gles-binary-") {
            continue;
        }
        let mut bytes = fs::read(&path).unwrap();
        let (header, payload) = bytes.split_at_mut(120);
        for b in payload.iter_mut().skip(4 + 16).step_by(7) {
            *b ^= 0x5a;
        }
        header[88..120].copy_from_slice(&tessera_cache::sha256::digest(payload));
        fs::write(&path, &bytes).unwrap();
        altered += 1;
    }
    assert!(altered >= PROGRAMS, "{altered} binaries stored");
    let second = run.run();
    assert!(
        second.get("binaries_refused") >= u64::from(PROGRAMS),
        "{second:?}"
    );
    assert_eq!(second.get("binaries_loaded"), 0, "{second:?}");
    assert_eq!(second.get("rejected"), 0, "valid entries: {second:?}");
    let third = run.run();
    assert!(
        third.get("binaries_loaded") >= u64::from(PROGRAMS),
        "{third:?}"
    );
    assert_eq!(third.get("binaries_refused"), 0, "{third:?}");
    fs::remove_dir_all(&dir).unwrap();
    fs::remove_dir_all(&mesa).unwrap();
}

/// Two processes filling one cache at once both render right, and leave it complete.
#[test]
fn two_processes_share_one_cache() {
    let dir = fresh_dir("shared");
    let run = Run {
        dir: &dir,
        backend: "gles",
        mesa_cache: None,
        cap: None,
    };
    let children: Vec<_> = (0..2)
        .map(|_| {
            run.command()
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        report(c.wait_with_output().unwrap());
    }
    assert!(
        entries(&dir).iter().all(|p| !p
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with(".tmp-")),
        "no temporary file is left"
    );
    let third = run.run();
    assert_eq!(third.get("front_end"), 0, "{third:?}");
    assert_eq!(third.get("translations"), 0, "{third:?}");
    assert_eq!(third.get("rejected"), 0, "{third:?}");
    fs::remove_dir_all(&dir).unwrap();
}

/// A cap far below what the scene stores: writes evict the least recently used entries and
/// the directory stays under the cap, and the pixels are right all the same.
#[test]
fn writes_past_the_cap_evict() {
    let dir = fresh_dir("cap");
    let cap = 64 << 10;
    let first = Run {
        dir: &dir,
        backend: "gles",
        mesa_cache: None,
        cap: Some("64K"),
    }
    .run();
    assert!(first.get("evicted") > 0, "{first:?}");
    let total: u64 = entries(&dir)
        .iter()
        .map(|p| fs::metadata(p).unwrap().len())
        .sum();
    assert!(total <= cap, "{total} bytes in the cache, cap {cap}");
    fs::remove_dir_all(&dir).unwrap();
}

/// A directory others may write is not used: the scene renders right, computing
/// everything, and nothing is written there.
#[test]
fn a_directory_others_can_write_is_not_used() {
    let dir = fresh_dir("mode");
    fs::create_dir(&dir).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
    let run = Run {
        dir: &dir,
        backend: "gles",
        mesa_cache: None,
        cap: None,
    };
    for _ in 0..2 {
        let r = run.run();
        assert!(r.get("front_end") >= u64::from(PROGRAMS), "{r:?}");
        assert_eq!(r.get("writes") + r.get("hits"), 0, "{r:?}");
    }
    assert!(entries(&dir).is_empty());
    let mode = fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o777, "the directory is left as it was");
    fs::remove_dir_all(&dir).unwrap();
}

/// Every entry truncated or overwritten with garbage, and garbage files added: the next run
/// rejects them, computes again and renders right; the run after finds what it rewrote.
#[test]
fn garbage_and_truncated_entries_are_rejected_and_rebuilt() {
    for backend in ["gles", "vulkan"] {
        let dir = fresh_dir(&format!("garbage-{backend}"));
        let run = Run {
            dir: &dir,
            backend,
            mesa_cache: None,
            cap: None,
        };
        run.run();
        for (n, path) in entries(&dir).iter().enumerate() {
            let mut bytes = fs::read(path).unwrap();
            match n % 3 {
                0 => bytes.truncate(bytes.len() / 2),
                1 => bytes
                    .iter_mut()
                    .skip(40)
                    .for_each(|b| *b = b.wrapping_mul(7)),
                _ => bytes = b"not an entry".repeat(n),
            }
            fs::write(path, bytes).unwrap();
        }
        for n in 0..20u8 {
            fs::write(dir.join(format!("garbage-{n}")), vec![n; 1000 * n as usize]).unwrap();
        }
        let second = run.run();
        assert!(second.get("rejected") > 0, "{backend}: {second:?}");
        assert!(second.get("front_end") > 0, "{backend}: {second:?}");
        let third = run.run();
        assert_eq!(third.get("front_end"), 0, "{backend}: {third:?}");
        assert_eq!(third.get("translations"), 0, "{backend}: {third:?}");
        assert_eq!(third.get("rejected"), 0, "{backend}: {third:?}");
        fs::remove_dir_all(&dir).unwrap();
    }
}

/// An embedder's `Config::cache` names the process's cache directory when a context is
/// created with it; `dir: None` turns the cache off.
#[test]
fn the_config_names_the_cache_directory() {
    let dir = fresh_dir("config");
    let settings = |dir: Option<PathBuf>| tessera_engine::Config {
        cache: Some(tessera_cache::Settings {
            dir,
            cap: tessera_cache::DEFAULT_CAP,
        }),
        backend: tessera_engine::BackendKind::Null,
        ..tessera_engine::Config::default()
    };
    let mut ctx = tessera_engine::Context::new(&settings(Some(dir.clone()))).unwrap();
    tessera_tests::scenes::program(&mut ctx, VERTEX, &fragment_source(1));
    let names: Vec<String> = entries(&dir)
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().any(|n| n.starts_with("glsl-compile-"))
            && names.iter().any(|n| n.starts_with("glsl-link-")),
        "{names:?}"
    );
    drop(ctx);
    let before = tessera_cache::counters().front_end;
    let mut ctx = tessera_engine::Context::new(&settings(None)).unwrap();
    let stored = entries(&dir).len();
    tessera_tests::scenes::program(&mut ctx, VERTEX, &fragment_source(2));
    assert!(
        tessera_cache::counters().front_end > before,
        "with the cache off, the front end runs"
    );
    assert_eq!(entries(&dir).len(), stored, "and nothing is written");
    fs::remove_dir_all(&dir).unwrap();
}

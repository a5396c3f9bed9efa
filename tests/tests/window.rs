//! On-screen rendering (window surfaces of EGL on X11, and GLX) seen from unmodified toolkit
//! programs: `tests/window/glfw_scene.c` and `tests/window/sdl_scene.c` open a GLFW 3 / SDL2
//! window on a private Xvfb server, create a GL 3.3 core context through GLX or EGL
//! (`--api`), draw an animated scene that carries its frame number (scene.h), and after every
//! swap read the *window* back from the X server with `XGetImage`: what a user would see,
//! not what `glReadPixels` says.
//!
//! The oracle is the same program on the native driver (Mesa's llvmpipe, with
//! `LIBGL_ALWAYS_SOFTWARE=1`): run through `LD_LIBRARY_PATH` on Tessera's drop-in library
//! (`crate::dropin::dropin_dir`), on the GLES and the Vulkan backend (validation on), in
//! process and through a `tessera-server` over shared memory, every frame must equal the
//! native one pixel for pixel, and the drawable sizes GLX / EGL report must be the native
//! ones. The matrix is {GLFW, SDL2} x {GLX, EGL} x {gles, vulkan} x {inproc, shm}; a
//! resized window, a multisampled and an sRGB default framebuffer and swap intervals 0 and 1
//! each run on the four toolkit/API pairs, with backends and transports rotated among them.
//! The native frames are checked first not to be blanks: distinct colours, the frame number
//! readable in every frame, and the same frames whichever toolkit and API drew them.
//!
//! The programs are compiled with the system gcc (`pkg-config` for GLFW and SDL2) into
//! `<target>/<profile>/window/`. Debian: xvfb libglfw3-dev libsdl2-dev libx11-dev.

mod damage;
mod glx;
mod xvfb;

use std::cell::OnceCell;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::dropin::{dropin_dir, profile_dir, root};
use crate::transport::Server;
pub(crate) use xvfb::Xvfb;

/// The toolkit programs: toolkit, source, pkg-config package.
const PROGRAMS: [(&str, &str, &str); 2] = [
    ("glfw", "glfw_scene.c", "glfw3"),
    ("sdl", "sdl_scene.c", "sdl2"),
];

/// The toolkit / window-system API pairs.
const PAIRS: [(&str, &str); 4] = [
    ("glfw", "glx"),
    ("glfw", "egl"),
    ("sdl", "glx"),
    ("sdl", "egl"),
];

/// The default frames and window size of the programs (scene.h).
const FRAMES: usize = 6;
const SIZE: (usize, usize) = (160, 120);
/// The size `--resize` gives the window before frame 3: (W + W/4) x (H - H/5).
const RESIZED: (usize, usize) = (200, 96);

/// The frame-number squares of scene.h (GL window coordinates, bottom-left origin).
const SQUARE: usize = 6;
const BITS_X: usize = 3;
const BITS_Y: usize = 3;
const BITS_STEP: usize = 8;

/// How long one program may run.
const RUN_LIMIT: Duration = Duration::from_secs(90);

const VK_LAVAPIPE: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// Where Tessera's records go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Transport {
    /// In the program's process (the default).
    Inproc,
    /// Shared memory with a `tessera-server` started for the test.
    Shm,
    /// TCP to that server (frames compressed, as to another machine).
    Tcp,
}

/// (backend, transport) of the Tessera run of each pair of [`PAIRS`] in the feature tests,
/// rotated per feature: across the features every pair meets every combination.
const ROTATION: [(&str, Transport); 4] = [
    ("gles", Transport::Inproc),
    ("vulkan", Transport::Shm),
    ("vulkan", Transport::Inproc),
    ("gles", Transport::Shm),
];

/// Compiles the C programs (once per test process; skipped when the installed ones are
/// newer than their sources) into `<target>/<profile>/window/`. Returns the directory.
fn programs_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let sources = root().join("tests/window");
        let dir = profile_dir().join("window");
        std::fs::create_dir_all(&dir).expect("create the window programs' directory");
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        for (toolkit, source, package) in PROGRAMS {
            let program = dir.join(format!("tessera-window-{toolkit}"));
            let newest_source = [sources.join(source), sources.join("scene.h")]
                .iter()
                .map(|p| modified(p).expect("the window programs' sources"))
                .max();
            if modified(&program) >= newest_source {
                continue;
            }
            let flags = Command::new("pkg-config")
                .args(["--cflags", "--libs", package])
                .output()
                .expect("pkg-config runs (Debian: pkg-config)");
            assert!(
                flags.status.success(),
                "pkg-config {package} failed (Debian: libglfw3-dev libsdl2-dev):\n{}",
                String::from_utf8_lossy(&flags.stderr)
            );
            // Made under a name of this process and renamed into place: parallel test
            // processes never run a half-written program.
            let scratch = dir.join(format!(".tessera-window-{toolkit}.{}", std::process::id()));
            let out = Command::new("gcc")
                .args(["-O1", "-Wall", "-Wextra", "-Werror"])
                .arg(sources.join(source))
                .arg("-o")
                .arg(&scratch)
                .args(String::from_utf8_lossy(&flags.stdout).split_whitespace())
                .args(["-lX11", "-ldl"])
                .output()
                .expect("gcc runs (Debian: gcc libx11-dev)");
            assert!(
                out.status.success(),
                "compiling {source} failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            std::fs::rename(&scratch, &program).expect("install the window program");
        }
        dir
    })
}

/// Builds `tessera-server` (once per test process; a no-op when up to date), which
/// [`Server`] runs.
fn build_server() {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let mut build = Command::new(cargo);
        build.current_dir(root()).args([
            "build",
            "--quiet",
            "-p",
            "tessera-engine",
            "--bin",
            "tessera-server",
        ]);
        if profile_dir().file_name().is_some_and(|p| p == "release") {
            build.arg("--release");
        }
        let out = build.output().expect("cargo runs");
        assert!(
            out.status.success(),
            "cargo build --bin tessera-server failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    });
}

/// One frame line: `frame <n> <w>x<h> <hex>` (also what `wayland.rs` crops from the
/// compositor's screenshots).
pub(crate) struct Frame {
    pub(crate) n: usize,
    pub(crate) width: usize,
    pub(crate) height: usize,
    /// Row by row from the top, each `0x00rrggbb`.
    pub(crate) pixels: Vec<u32>,
}

impl Frame {
    fn parse(line: &str) -> Result<Self, String> {
        let bad = || format!("a malformed frame line: {:.60}", line);
        let mut words = line.split(' ').skip(1);
        let n = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
        let (w, h) = words
            .next()
            .and_then(|s| s.split_once('x'))
            .ok_or_else(bad)?;
        let (width, height): (usize, usize) =
            (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
        let hex = words.next().unwrap_or_default().as_bytes();
        if hex.len() != width * height * 6 {
            return Err(bad());
        }
        let pixels = hex
            .chunks(6)
            .map(|p| {
                std::str::from_utf8(p)
                    .ok()
                    .and_then(|p| u32::from_str_radix(p, 16).ok())
            })
            .collect::<Option<Vec<u32>>>()
            .ok_or_else(bad)?;
        Ok(Self {
            n,
            width,
            height,
            pixels,
        })
    }

    /// The pixel at `x` from the left, `y` from the top.
    pub(crate) fn at(&self, x: usize, y: usize) -> u32 {
        self.pixels[y * self.width + x]
    }

    /// The number the frame's squares show (white 1, black 0), if each square's centre is
    /// white or black.
    pub(crate) fn number(&self) -> Option<usize> {
        let y = self.height - 1 - (BITS_Y + SQUARE / 2);
        (0..8).try_fold(0, |n, bit| {
            match self.at(BITS_X + bit * BITS_STEP + SQUARE / 2, y) {
                0xffffff => Some(n | 1 << bit),
                0x000000 => Some(n),
                _ => None,
            }
        })
    }

    /// How `have` differs from this (the native driver's) frame of the same size, readably:
    /// how many pixels, the first (counted from the `origin` corner) and what it shows;
    /// `None` if they are equal.
    pub(crate) fn difference(&self, have: &Frame, origin: &str) -> Option<String> {
        let differ = |(a, b): &(&u32, &u32)| a != b;
        let first = self
            .pixels
            .iter()
            .zip(&have.pixels)
            .position(|p| differ(&p))?;
        let count = self.pixels.iter().zip(&have.pixels).filter(differ).count();
        let (x, y) = (first % self.width, first / self.width);
        let number = match have.number() {
            Some(k) => format!("its squares show frame {k}"),
            None => "its squares show no frame number".to_owned(),
        };
        Some(format!(
            "{count} of {} pixels differ from the native driver's, the first at x {x}, y {y} \
             from the {origin}: {} instead of {}; {number}",
            self.pixels.len(),
            hex(have.pixels[first]),
            hex(self.pixels[first]),
        ))
    }

    /// How many colours it has.
    pub(crate) fn colours(&self) -> usize {
        let mut c = self.pixels.clone();
        c.sort_unstable();
        c.dedup();
        c.len()
    }
}

/// What one run of a program printed.
struct Run {
    /// `glfw/glx native`, `sdl/egl vulkan/shm`, ...
    label: String,
    stdout: String,
    stderr: String,
    frames: Vec<Frame>,
    /// The `size <w> <h>` lines.
    sizes: Vec<(usize, usize)>,
    /// Why the run failed (exit status, timeout, malformed output).
    failure: Option<String>,
}

impl Run {
    /// The rest of the first line starting with `key `.
    fn value(&self, key: &str) -> Option<&str> {
        self.stdout
            .lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
    }

    /// The output without the frame lines' pixels, for messages.
    fn summary(&self) -> String {
        let lines: Vec<&str> = self
            .stdout
            .lines()
            .map(|l| {
                if l.starts_with("frame ") {
                    &l[..l.len().min(40)]
                } else {
                    l
                }
            })
            .collect();
        format!(
            "{}\n-- stdout:\n{}\n-- stderr:\n{}",
            self.label,
            lines.join("\n"),
            self.stderr.trim_end()
        )
    }
}

/// One test's X server, and the `tessera-server` its shm runs share (started on first use).
struct Session {
    // Dropped before the X server.
    server: OnceCell<Server>,
    xvfb: Xvfb,
}

impl Session {
    fn new() -> Self {
        tessera_tests::ensure_runtime_dir();
        programs_dir();
        Self {
            server: OnceCell::new(),
            xvfb: Xvfb::start(),
        }
    }

    /// Runs a C program of this directory (not a toolkit program) natively (`None`) or on
    /// Tessera with a backend and transport; its stdout lines. Panics unless it succeeds.
    fn run_program(&self, program: &Path, tessera: Option<(&str, Transport)>) -> Vec<String> {
        self.run_program_env(program, tessera, &[])
    }

    /// [`run_program`](Self::run_program) with more environment variables.
    fn run_program_env(
        &self,
        program: &Path,
        tessera: Option<(&str, Transport)>,
        env: &[(&str, &str)],
    ) -> Vec<String> {
        let mut cmd = Command::new(program);
        cmd.envs(env.iter().copied());
        cmd.env_remove("LD_LIBRARY_PATH")
            .env_remove("TESSERA_TRANSPORT")
            .env_remove("WAYLAND_DISPLAY")
            .env("DISPLAY", self.xvfb.display())
            .env("LIBGL_ALWAYS_SOFTWARE", "1")
            .env("GALLIUM_DRIVER", "llvmpipe");
        if let Some((backend, transport)) = tessera {
            cmd.env("LD_LIBRARY_PATH", dropin_dir())
                .env("TESSERA_BACKEND", backend)
                .env("TESSERA_VK_VALIDATION", "1")
                .env(
                    "VK_ICD_FILENAMES",
                    std::env::var_os("VK_ICD_FILENAMES").unwrap_or_else(|| VK_LAVAPIPE.into()),
                );
            if transport != Transport::Inproc {
                let server = self.server();
                cmd.env(
                    "TESSERA_TRANSPORT",
                    match transport {
                        Transport::Tcp => {
                            format!("tcp://{}?secret={}", server.tcp, server.secret.display())
                        }
                        _ => format!("shm:{}", server.socket.display()),
                    },
                );
            }
        }
        let out = cmd.output().expect("the program runs");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success() && stdout.ends_with("done\n"),
            "{tessera:?}: {}\n{stdout}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        stdout.lines().map(str::to_owned).collect()
    }

    /// The `tessera-server` the process-transport runs share, started on first use.
    fn server(&self) -> &Server {
        self.server.get_or_init(|| {
            build_server();
            let icd = std::env::var("VK_ICD_FILENAMES").unwrap_or_else(|_| VK_LAVAPIPE.into());
            Server::start_with_env(
                &[],
                &[
                    ("DISPLAY", self.xvfb.display()),
                    ("TESSERA_VK_VALIDATION", "1"),
                    ("VK_ICD_FILENAMES", &icd),
                    ("LIBGL_ALWAYS_SOFTWARE", "1"),
                    ("GALLIUM_DRIVER", "llvmpipe"),
                ],
            )
        })
    }

    /// The command for `toolkit` with `--api api` and `args` on this X server, its
    /// environment clear of Tessera's variables and of other window systems'.
    fn command(&self, toolkit: &str, api: &str, args: &[&str]) -> Command {
        let mut cmd = Command::new(programs_dir().join(format!("tessera-window-{toolkit}")));
        cmd.args(["--api", api]).args(args);
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("TESSERA_") {
                cmd.env_remove(name);
            }
        }
        // llvmpipe for the native driver and for the GLES backend's own EGL alike.
        cmd.env_remove("LD_LIBRARY_PATH")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("RUST_BACKTRACE")
            .env("DISPLAY", self.xvfb.display())
            .env("SDL_VIDEODRIVER", "x11")
            .env("LIBGL_ALWAYS_SOFTWARE", "1")
            .env("GALLIUM_DRIVER", "llvmpipe");
        cmd
    }

    /// Runs `toolkit` over `api` on the native driver; panics unless it succeeds without
    /// loading Tessera.
    fn native(&self, toolkit: &str, api: &str, args: &[&str]) -> Run {
        let run = self.run(
            format!("{toolkit}/{api} native {}", args.join(" "))
                .trim_end()
                .to_owned(),
            self.command(toolkit, api, args),
        );
        if let Some(failure) = &run.failure {
            panic!(
                "the native run failed: {failure}\n{}\n-- Xvfb:\n{}",
                run.summary(),
                self.xvfb.log()
            );
        }
        let renderer = run.value("renderer").unwrap_or_default();
        assert!(
            !renderer.contains("Tessera"),
            "the native run must not load the drop-in:\n{}",
            run.summary()
        );
        run
    }

    /// Runs `toolkit` over `api` on Tessera with `backend` through `transport`.
    fn tessera(
        &self,
        toolkit: &str,
        api: &str,
        args: &[&str],
        backend: &str,
        transport: Transport,
    ) -> Run {
        self.tessera_with_env(toolkit, api, args, backend, transport, &[])
    }

    /// [`Session::tessera`] with more environment variables (named in the run's label).
    fn tessera_with_env(
        &self,
        toolkit: &str,
        api: &str,
        args: &[&str],
        backend: &str,
        transport: Transport,
        env: &[(&str, &str)],
    ) -> Run {
        let mut cmd = self.command(toolkit, api, args);
        cmd.env("LD_LIBRARY_PATH", dropin_dir())
            .env("TESSERA_BACKEND", backend)
            .env("TESSERA_VK_VALIDATION", "1")
            .env(
                "VK_ICD_FILENAMES",
                std::env::var_os("VK_ICD_FILENAMES").unwrap_or_else(|| VK_LAVAPIPE.into()),
            );
        if matches!(transport, Transport::Shm | Transport::Tcp) {
            let server = self.server();
            cmd.env(
                "TESSERA_TRANSPORT",
                match transport {
                    Transport::Tcp => {
                        format!("tcp://{}?secret={}", server.tcp, server.secret.display())
                    }
                    _ => format!("shm:{}", server.socket.display()),
                },
            );
        }
        let transport = match transport {
            Transport::Inproc => "inproc",
            Transport::Shm => "shm",
            Transport::Tcp => "tcp",
        };
        let mut label = format!("{toolkit}/{api} {backend}/{transport} {}", args.join(" "));
        for (name, value) in env {
            cmd.env(name, value);
            label.push_str(&format!(" {name}={value}"));
        }
        let mut run = self.run(label.trim_end().to_owned(), cmd);
        if run.failure.is_none() {
            let renderer = run.value("renderer").unwrap_or_default();
            if !renderer.starts_with(&format!("Tessera ({backend} backend")) {
                run.failure = Some(format!("not Tessera's {backend} backend: {renderer:?}"));
            } else if run.stderr.contains("tessera: backend:") {
                // Backend events (a validation message, a native error) are logged.
                run.failure = Some("backend events were logged".to_owned());
            }
        }
        if run.failure.is_some()
            && transport == "shm"
            && let Some(server) = self.server.get()
        {
            run.stderr.push_str(&format!(
                "\n-- tessera-server:\n{}",
                server.log().join("\n")
            ));
        }
        run
    }

    /// Runs `cmd` (up to [`RUN_LIMIT`]) and parses its output.
    fn run(&self, label: String, mut cmd: Command) -> Run {
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the window program runs");
        let drain = |mut pipe: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                String::from_utf8_lossy(&bytes).into_owned()
            })
        };
        let stdout = drain(Box::new(child.stdout.take().expect("piped")));
        let stderr = drain(Box::new(child.stderr.take().expect("piped")));
        let deadline = Instant::now() + RUN_LIMIT;
        let status = loop {
            match child.try_wait().expect("waiting for the window program") {
                Some(status) => break Some(status),
                None if Instant::now() > deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                None => std::thread::sleep(Duration::from_millis(10)),
            }
        };
        let stdout = stdout.join().expect("stdout");
        let stderr = stderr.join().expect("stderr");
        let mut failure = match status {
            None => Some(format!("still running after {RUN_LIMIT:?}")),
            Some(s) if !s.success() => Some(s.to_string()),
            Some(_) => None,
        };
        let mut frames = Vec::new();
        let mut sizes = Vec::new();
        for line in stdout.lines() {
            if line.starts_with("frame ") {
                match Frame::parse(line) {
                    Ok(frame) => frames.push(frame),
                    Err(e) => {
                        failure.get_or_insert(e);
                    }
                }
            } else if let Some(size) = line.strip_prefix("size ") {
                match size.split_once(' ').map(|(w, h)| (w.parse(), h.parse())) {
                    Some((Ok(w), Ok(h))) => sizes.push((w, h)),
                    _ => {
                        failure.get_or_insert(format!("a malformed size line: {line}"));
                    }
                }
            }
        }
        Run {
            label,
            stdout,
            stderr,
            frames,
            sizes,
            failure,
        }
    }
}

/// Checks that a native run drew `FRAMES` frames that are not blanks: each shows its
/// number and the colours of the clear, the triangle and the black and (but in frame 0)
/// white squares, and each has another clear colour than the one before.
fn assert_native_frames(run: &Run) {
    assert_eq!(
        run.frames.len(),
        FRAMES,
        "{} frames:\n{}",
        run.frames.len(),
        run.summary()
    );
    for (i, frame) in run.frames.iter().enumerate() {
        assert_eq!(frame.n, i, "{}", run.summary());
        assert_eq!(
            frame.number(),
            Some(i),
            "frame {i}: the squares do not show its number:\n{}",
            run.summary()
        );
        // Frame 0 has no white square.
        let colours = frame.colours();
        assert!(
            colours >= if i == 0 { 3 } else { 4 },
            "frame {i}: only {colours} colours:\n{}",
            run.summary()
        );
        if i > 0 {
            let before = &run.frames[i - 1];
            assert_ne!(
                before.at(frame.width / 2, 0),
                frame.at(frame.width / 2, 0),
                "frames {} and {i} have the same clear colour:\n{}",
                i - 1,
                run.summary()
            );
        }
    }
}

/// `0x00rrggbb` as `rrggbb`.
fn hex(p: u32) -> String {
    format!("{p:06x}")
}

/// Compares a Tessera run with the native one: it succeeded, and printed the same frames
/// and drawable sizes, and the same values for `keys` (`samples`, ...). The first
/// difference, readably.
fn compare(native: &Run, tessera: &Run, keys: &[&str]) -> Result<(), String> {
    compare_late(native, tessera, keys, 0)
}

/// [`compare`] for a run whose frames are shown `latency` swaps late (a process transport
/// with swap interval 0 shows each frame at the next swap): after swap n the window must
/// show the native run's frame n - latency; the first `latency` frames show what was there
/// before and are not compared.
fn compare_late(native: &Run, tessera: &Run, keys: &[&str], latency: usize) -> Result<(), String> {
    let label = &tessera.label;
    if let Some(failure) = &tessera.failure {
        return Err(format!("{label}: {failure}\n{}", tessera.summary()));
    }
    for key in keys {
        let (want, have) = (native.value(key), tessera.value(key));
        if want != have {
            return Err(format!(
                "{label}: {key} {have:?}, the native driver's {want:?}\n{}",
                tessera.summary()
            ));
        }
    }
    if tessera.frames.len() != native.frames.len() {
        return Err(format!(
            "{label}: {} frames, the native run {}\n{}",
            tessera.frames.len(),
            native.frames.len(),
            tessera.summary()
        ));
    }
    for (want, have) in native
        .frames
        .iter()
        .zip(tessera.frames.iter().skip(latency))
    {
        let n = have.n;
        if (have.n, have.width, have.height) != (want.n + latency, want.width, want.height) {
            return Err(format!(
                "{label}: frame line {n}: frame {} of {}x{}, the native run's frame {n} of {}x{}",
                have.n, have.width, have.height, want.width, want.height
            ));
        }
        if let Some(d) = want.difference(have, "top left") {
            return Err(format!("{label}: frame {n}: {d}"));
        }
    }
    if tessera.sizes != native.sizes {
        return Err(format!(
            "{label}: the drawable sizes GLX / EGL report are {:?}, the native driver's {:?}",
            tessera.sizes, native.sizes
        ));
    }
    Ok(())
}

/// Panics with every message, if any.
fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} of the runs differ from the native driver's:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn native_frames_are_numbered_and_distinct_and_the_same_for_every_toolkit_and_api() {
    let session = Session::new();
    let runs: Vec<Run> = PAIRS
        .iter()
        .map(|(toolkit, api)| session.native(toolkit, api, &[]))
        .collect();
    for run in &runs {
        assert_native_frames(run);
        assert_eq!(
            run.sizes,
            vec![SIZE; FRAMES],
            "the drawable sizes:\n{}",
            run.summary()
        );
        assert!(
            run.frames.iter().all(|f| (f.width, f.height) == SIZE),
            "the window sizes:\n{}",
            run.summary()
        );
    }
    // The oracle does not depend on the toolkit or window-system API: a difference in a
    // Tessera run is Tessera's.
    for run in &runs[1..] {
        for (a, b) in runs[0].frames.iter().zip(&run.frames) {
            assert!(
                a.pixels == b.pixels,
                "frame {}: {} and {} differ",
                a.n,
                runs[0].label,
                run.label
            );
        }
    }
}

/// The matrix cell `toolkit` x `api` x `backend`: the native run, then Tessera in process
/// and over shm.
fn matrix(toolkit: &str, api: &str, backend: &str) {
    let session = Session::new();
    let native = session.native(toolkit, api, &[]);
    assert_native_frames(&native);
    let failures: Vec<String> = [Transport::Inproc, Transport::Shm]
        .into_iter()
        .filter_map(|transport| {
            let run = session.tessera(toolkit, api, &[], backend, transport);
            compare(&native, &run, &["samples"]).err()
        })
        .collect();
    assert_no_failures(&failures);
}

#[test]
fn glfw_over_glx_on_gles_shows_the_native_frames() {
    matrix("glfw", "glx", "gles");
}

#[test]
fn glfw_over_glx_on_vulkan_shows_the_native_frames() {
    matrix("glfw", "glx", "vulkan");
}

#[test]
fn glfw_over_egl_on_gles_shows_the_native_frames() {
    matrix("glfw", "egl", "gles");
}

#[test]
fn glfw_over_egl_on_vulkan_shows_the_native_frames() {
    matrix("glfw", "egl", "vulkan");
}

#[test]
fn sdl_over_glx_on_gles_shows_the_native_frames() {
    matrix("sdl", "glx", "gles");
}

#[test]
fn sdl_over_glx_on_vulkan_shows_the_native_frames() {
    matrix("sdl", "glx", "vulkan");
}

#[test]
fn sdl_over_egl_on_gles_shows_the_native_frames() {
    matrix("sdl", "egl", "gles");
}

#[test]
fn sdl_over_egl_on_vulkan_shows_the_native_frames() {
    matrix("sdl", "egl", "vulkan");
}

/// Runs `args` on every toolkit/API pair natively (checked by `check_native`) and on
/// Tessera with the backend and transport of [`ROTATION`] shifted by `rotation`, comparing
/// `keys` besides frames and sizes.
fn feature(args: &[&str], rotation: usize, keys: &[&str], check_native: impl Fn(&Run)) {
    feature_known(args, rotation, keys, check_native, |_, _| false);
}

/// [`feature`], with the differences `known(backend, message)` accepts (each named with its
/// reason where it is used; a known difference that changes fails again).
fn feature_known(
    args: &[&str],
    rotation: usize,
    keys: &[&str],
    check_native: impl Fn(&Run),
    known: impl Fn(&str, &str) -> bool,
) {
    let session = Session::new();
    let mut failures = Vec::new();
    for (i, (toolkit, api)) in PAIRS.into_iter().enumerate() {
        let native = session.native(toolkit, api, args);
        check_native(&native);
        let (backend, transport) = ROTATION[(i + rotation) % ROTATION.len()];
        let run = session.tessera(toolkit, api, args, backend, transport);
        // Over a process transport with swap interval 0 a frame is shown at the next swap
        // (engine::present: no round trip per frame): one frame of latency, asserted.
        let latency =
            usize::from(matches!(transport, Transport::Shm) && args == ["--interval", "0"]);
        failures.extend(
            compare_late(&native, &run, keys, latency)
                .err()
                .filter(|m| !known(backend, m)),
        );
    }
    assert_no_failures(&failures);
}

#[test]
fn a_window_resized_between_frames_reports_its_new_size_and_shows_the_native_frames() {
    // Frames 0-2 at the first size, 3-5 at the new one: in the window, and as GLX / EGL
    // report the drawable.
    let sizes: Vec<(usize, usize)> = (0..FRAMES)
        .map(|n| if n < 3 { SIZE } else { RESIZED })
        .collect();
    feature(&["--resize"], 0, &["samples"], |native| {
        assert_native_frames(native);
        assert_eq!(native.sizes, sizes, "{}", native.summary());
        let windows: Vec<(usize, usize)> =
            native.frames.iter().map(|f| (f.width, f.height)).collect();
        assert_eq!(windows, sizes, "{}", native.summary());
    });
}

#[test]
fn a_multisampled_window_shows_the_native_frames() {
    // Known difference, on both backends: exactly the 44 partly covered pixels on the
    // triangle's edges in frame 0 resolve to other mixes than native llvmpipe's (fully
    // covered pixels, the resolve and presentation agree). Mesa stores a window's default
    // framebuffer top-down (its window framebuffers render with Y flipped), which mirrors
    // its 4x sample pattern vertically for windows only; Tessera renders the default
    // framebuffer as GL renders framebuffer objects, with the unmirrored pattern. GL leaves
    // sample positions to the implementation. The count is pinned so any change shows.
    feature_known(
        &["--samples", "4"],
        1,
        &["samples"],
        |native| {
            assert_native_frames(native);
            assert_eq!(native.value("samples"), Some("4"), "{}", native.summary());
        },
        |_, message| message.contains(": frame 0: 44 of 19200 pixels differ"),
    );
}

#[test]
fn an_srgb_window_shows_the_native_frames() {
    // GLX (GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB) and EGL (EGL_GL_COLORSPACE_SRGB) windows are
    // sRGB-capable, as every desktop GL default framebuffer on Mesa: with
    // GL_FRAMEBUFFER_SRGB enabled, writes convert.
    feature(&["--srgb"], 2, &["samples", "encoding"], |native| {
        assert_native_frames(native);
        assert_eq!(
            native.value("encoding"),
            Some("srgb"),
            "{}",
            native.summary()
        );
        // GL_FRAMEBUFFER_SRGB is on: the clear's blue 0.5 is written as 0xbc.
        assert_eq!(
            native.frames[0].at(SIZE.0 / 2, 0) & 0xff,
            0xbc,
            "{}",
            native.summary()
        );
    });
}

#[test]
fn windows_with_swap_interval_0_and_1_show_the_native_frames() {
    feature(&["--interval", "0"], 3, &["samples"], assert_native_frames);
    feature(&["--interval", "1"], 0, &["samples"], assert_native_frames);
}

/// Who showed a run's frames, from its log (`TESSERA_LOG=info`): the present modes the
/// Vulkan backend chose for its swapchains, with the swap interval and the modes the window
/// offered, if it presented the frames itself; whether the client read them back.
struct Presentation {
    /// `(mode, interval, offered)` per swapchain made, in order.
    swapchains: Vec<(String, i32, Vec<String>)>,
    /// The swap interval of each native EGL window surface the GLES backend made, in order.
    window_surfaces: Vec<i32>,
    /// The engine's decisions: the backend presents ...
    by_backend: usize,
    /// ... or the client reads back.
    by_client: usize,
}

impl Presentation {
    fn of(run: &Run) -> Result<Self, String> {
        let mut swapchains = Vec::new();
        for line in run.stderr.lines() {
            let Some(rest) = line.split_once(": present mode ").map(|(_, r)| r) else {
                continue;
            };
            let bad = || format!("{}: a malformed swapchain line: {line}", run.label);
            let (mode, rest) = rest.split_once(" for swap interval ").ok_or_else(bad)?;
            let (interval, rest) = rest.split_once(',').ok_or_else(bad)?;
            let offered = rest
                .split_once("offers [")
                .and_then(|(_, r)| r.split_once(']'))
                .map(|(list, _)| list.split(", ").map(str::to_owned).collect())
                .ok_or_else(bad)?;
            swapchains.push((
                mode.to_owned(),
                interval.parse().map_err(|_| bad())?,
                offered,
            ));
        }
        let mut window_surfaces = Vec::new();
        for line in run.stderr.lines() {
            let Some(rest) = line
                .split_once("through a native EGL window surface, swap interval ")
                .map(|(_, r)| r)
            else {
                continue;
            };
            let interval = rest
                .trim()
                .parse()
                .map_err(|_| format!("{}: a malformed window surface line: {line}", run.label))?;
            window_surfaces.push(interval);
        }
        let count = |words: &str| run.stderr.lines().filter(|l| l.contains(words)).count();
        Ok(Self {
            swapchains,
            window_surfaces,
            by_backend: count("the backend presents the frames"),
            by_client: count("frames are read back and shown by the client"),
        })
    }
}

/// The present mode Tessera's Vulkan backend must choose for a swap interval among those a
/// window offers: interval 0 takes IMMEDIATE, else MAILBOX; otherwise FIFO.
fn expected_present_mode(interval: i32, offered: &[String]) -> &'static str {
    let offers = |m: &str| offered.iter().any(|o| o == m);
    match interval {
        0 if offers("IMMEDIATE") => "IMMEDIATE",
        0 if offers("MAILBOX") => "MAILBOX",
        _ => "FIFO",
    }
}

/// Checks who presented a run's frames: in process the Vulkan backend through swapchains
/// of the present mode of the swap interval, the last one for `interval`, or the GLES
/// backend through native EGL window surfaces; the client everywhere else.
fn check_presentation(run: &Run, backend_presents: bool, interval: i32) -> Result<(), String> {
    let label = &run.label;
    let p = Presentation::of(run)?;
    if !backend_presents {
        return if p.by_client > 0
            && p.by_backend == 0
            && p.swapchains.is_empty()
            && p.window_surfaces.is_empty()
        {
            Ok(())
        } else {
            Err(format!(
                "{label}: the client must show the frames: {} decisions for the backend, {} \
                 for the client, swapchains {:?}\n{}",
                p.by_backend,
                p.by_client,
                p.swapchains,
                run.summary()
            ))
        };
    }
    if p.by_backend == 0 || p.by_client > 0 {
        return Err(format!(
            "{label}: the backend must present the frames: {} decisions for the backend, {} \
             for the client\n{}",
            p.by_backend,
            p.by_client,
            run.summary()
        ));
    }
    if !p.window_surfaces.is_empty() {
        // The GLES backend: a window surface for the wire surface, its interval set at each
        // present; the swapchain checks are the Vulkan backend's.
        return if p.swapchains.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{label}: both backends presented: {:?} {:?}",
                p.swapchains, p.window_surfaces
            ))
        };
    }
    for (mode, i, offered) in &p.swapchains {
        let want = expected_present_mode(*i, offered);
        if mode != want {
            return Err(format!(
                "{label}: present mode {mode} for swap interval {i}, not {want} (the window \
                 offers {offered:?})"
            ));
        }
    }
    match p.swapchains.last() {
        Some((_, i, _)) if *i == interval => Ok(()),
        last => Err(format!(
            "{label}: the last swapchain {last:?} is not for swap interval {interval}\n{}",
            run.summary()
        )),
    }
}

#[test]
fn in_process_the_backends_present_windows_themselves_with_the_swap_interval() {
    // vulkan in process (inproc, and thread) with TESSERA_VK_PRESENT=wsi: a WSI swapchain
    // of the window, IMMEDIATE (or
    // MAILBOX) for interval 0 and FIFO for 1, and the same frames after each swap (over
    // thread with interval 0 the render thread presents when it gets there: the frames are
    // not compared). gles in process (inproc, and thread) with TESSERA_GLES_PRESENT=native:
    // a native EGL window surface. gles and vulkan by default (on CPU drivers `auto` keeps
    // the client path, the faster there), and vulkan over shm: the client reads the frames
    // back.
    let session = Session::new();
    let mut failures = Vec::new();
    let log = ("TESSERA_LOG", "info");
    type Env<'a> = &'a [(&'a str, &'a str)];
    // TESSERA_VK_PRESENT=wsi: on a CPU device (lavapipe) `auto` keeps the client path,
    // which is the faster there; the last vulkan run checks that default.
    let wsi = ("TESSERA_VK_PRESENT", "wsi");
    let gles_native = ("TESSERA_GLES_PRESENT", "native");
    let runs: [(&str, Transport, Env); 7] = [
        ("vulkan", Transport::Inproc, &[log, wsi]),
        (
            "vulkan",
            Transport::Inproc,
            &[log, wsi, ("TESSERA_TRANSPORT", "thread")],
        ),
        ("gles", Transport::Inproc, &[log, gles_native]),
        (
            "gles",
            Transport::Inproc,
            &[log, gles_native, ("TESSERA_TRANSPORT", "thread")],
        ),
        ("gles", Transport::Inproc, &[log]),
        ("vulkan", Transport::Shm, &[log, wsi]),
        ("vulkan", Transport::Inproc, &[log]),
    ];
    for (toolkit, api) in [("glfw", "glx"), ("sdl", "egl")] {
        for (interval, arg) in [(0, "0"), (1, "1")] {
            let args = ["--interval", arg];
            let native = session.native(toolkit, api, &args);
            assert_native_frames(&native);
            for (backend, transport, env) in runs {
                let run = session.tessera_with_env(toolkit, api, &args, backend, transport, env);
                let threaded = env.iter().any(|&(name, _)| name == "TESSERA_TRANSPORT");
                let frames = if threaded && interval == 0 {
                    match &run.failure {
                        Some(f) => Err(format!("{}: {f}\n{}", run.label, run.summary())),
                        None => Ok(()),
                    }
                } else {
                    // Over shm with interval 0 a frame is shown at the next swap (see
                    // `feature_known`).
                    let latency = usize::from(transport == Transport::Shm && interval == 0);
                    compare_late(&native, &run, &["samples"], latency)
                };
                let in_process = transport == Transport::Inproc
                    && match backend {
                        "vulkan" => env.contains(&wsi),
                        _ => env.contains(&gles_native),
                    };
                failures.extend(frames.err());
                failures.extend(check_presentation(&run, in_process, interval).err());
            }
        }
    }
    assert_no_failures(&failures);
}

#[test]
fn the_demo_shows_the_scene_in_a_window_and_says_so_without_a_display() {
    let session = Session::new();
    for backend in ["gles", "vulkan"] {
        let out = Command::new(env!("CARGO_BIN_EXE_tessera-demo"))
            .args(["--window", "--frames", "3", "--size", "96x64"])
            .env("DISPLAY", session.xvfb.display())
            .env("TESSERA_BACKEND", backend)
            .env("TESSERA_VK_VALIDATION", "1")
            .env(
                "VK_ICD_FILENAMES",
                "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
            )
            .env_remove("TESSERA_TRANSPORT")
            .output()
            .expect("tessera-demo runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("frames       3 in"),
            "{backend}: {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = Command::new(env!("CARGO_BIN_EXE_tessera-demo"))
        .arg("--window")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("tessera-demo runs");
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "tessera-demo: --window needs a display: neither DISPLAY nor WAYLAND_DISPLAY is set"
    );
}

#[test]
fn over_tcp_frames_are_shown_at_their_swap_with_interval_1_and_one_swap_late_with_0() {
    // The server compresses each frame's read-back for a peer that cannot share memory.
    let session = Session::new();
    let mut failures = Vec::new();
    for (backend, interval, latency) in [("gles", "1", 0), ("vulkan", "0", 1)] {
        let args = ["--interval", interval];
        let native = session.native("glfw", "glx", &args);
        let run = session.tessera("glfw", "glx", &args, backend, Transport::Tcp);
        failures.extend(compare_late(&native, &run, &["samples"], latency).err());
    }
    assert_no_failures(&failures);
}

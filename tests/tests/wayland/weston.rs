//! A private Wayland compositor for one test: Weston's headless backend with the pixman
//! renderer (frames are composited in memory, so screenshots have content), in a runtime
//! directory of its own (mode 0700), terminated with everything it launched on drop, also
//! when the test panics.
//!
//! The desktop shell centres a fullscreen surface smaller than the output on a black
//! backdrop; the shell's animations are off, so a screenshot shows each frame as committed.
//! `--debug` lets clients use `weston_screenshooter`, through which `weston-screenshooter`
//! writes the output as a PNG into its working directory.

use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long Weston may take to open its socket.
const START_LIMIT: Duration = Duration::from_secs(20);
/// How long one screenshot may take.
const SHOT_LIMIT: Duration = Duration::from_secs(20);

/// The shell's settings: no panel, no animations (a fading or zooming surface would show
/// other colours than it was given).
const CONFIG: &str = "[shell]
panel-position=none
startup-animation=none
animation=none
close-animation=none
focus-animation=none
";

/// A PNG from the compositor: `width` x `height` pixels, row by row from the top, each
/// `0x00rrggbb`.
pub(crate) struct Screenshot {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) pixels: Vec<u32>,
}

/// `weston --backend=headless-backend.so --use-pixman --debug` on a socket of its own.
pub(crate) struct Weston {
    child: Child,
    /// Its `XDG_RUNTIME_DIR` (the socket, the config, the screenshots).
    runtime: PathBuf,
    /// The socket's name (`WAYLAND_DISPLAY`).
    socket: String,
    /// What it wrote on stdout and stderr.
    log: Arc<Mutex<String>>,
    /// Screenshots taken so far (each in a directory of its own).
    shots: AtomicUsize,
}

impl Weston {
    /// Starts Weston with one `width` x `height` output and waits until it listens on its socket.
    pub(crate) fn start(width: usize, height: usize) -> Self {
        static STARTED: AtomicUsize = AtomicUsize::new(0);
        let n = STARTED.fetch_add(1, Ordering::Relaxed);
        // Short: a socket's path has at most 107 bytes.
        let runtime = std::env::temp_dir().join(format!("tessera-wl-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&runtime);
        std::fs::create_dir_all(&runtime).expect("create Weston's runtime directory");
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700))
            .expect("make Weston's runtime directory private");
        let config = runtime.join("weston.ini");
        std::fs::write(&config, CONFIG).expect("write weston.ini");
        let socket = format!("tessera-{n}");
        let mut child = Command::new("weston")
            .arg("--backend=headless-backend.so")
            .arg("--use-pixman")
            .arg("--debug")
            .arg("--idle-time=0")
            .arg(format!("--width={width}"))
            .arg(format!("--height={height}"))
            .arg(format!("--socket={socket}"))
            .arg(format!("--config={}", config.display()))
            .env("XDG_RUNTIME_DIR", &runtime)
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("WAYLAND_SOCKET")
            .env_remove("DISPLAY")
            // Its own process group: the clients it launches (the shell's helper, the
            // input method) are ended with it.
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("weston runs (Debian: weston)");
        let log = Arc::new(Mutex::new(String::new()));
        let stdout: Box<dyn Read + Send> = Box::new(child.stdout.take().expect("piped"));
        let stderr: Box<dyn Read + Send> = Box::new(child.stderr.take().expect("piped"));
        for pipe in [stdout, stderr] {
            let sink = log.clone();
            std::thread::spawn(move || {
                let mut pipe = pipe;
                let mut buf = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    sink.lock()
                        .expect("the log")
                        .push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            });
        }
        let weston = Self {
            child,
            runtime,
            socket,
            log,
            shots: AtomicUsize::new(0),
        };
        // Connected to, not only present: libwayland binds the socket's path before it
        // listens on it, and a client connecting in between is refused.
        let deadline = Instant::now() + START_LIMIT;
        while UnixStream::connect(weston.runtime.join(&weston.socket)).is_err() {
            assert!(
                Instant::now() < deadline,
                "Weston did not listen on its socket within {START_LIMIT:?}:\n{}",
                weston.log()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        weston
    }

    /// `WAYLAND_DISPLAY` for its clients.
    pub(crate) fn socket(&self) -> &str {
        &self.socket
    }

    /// `XDG_RUNTIME_DIR` for its clients.
    pub(crate) fn runtime(&self) -> &Path {
        &self.runtime
    }

    /// What Weston wrote so far.
    pub(crate) fn log(&self) -> String {
        self.log.lock().expect("the log").clone()
    }

    /// The whole output, as `weston-screenshooter` writes it.
    pub(crate) fn screenshot(&self) -> Result<Screenshot, String> {
        let dir = self.runtime.join(format!(
            "shot-{}",
            self.shots.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut child = Command::new("weston-screenshooter")
            .current_dir(&dir)
            .env("XDG_RUNTIME_DIR", &self.runtime)
            .env("WAYLAND_DISPLAY", &self.socket)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("weston-screenshooter (Debian: weston): {e}"))?;
        let deadline = Instant::now() + SHOT_LIMIT;
        let status = loop {
            match child.try_wait().map_err(|e| e.to_string())? {
                Some(status) => break status,
                None if Instant::now() > deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "weston-screenshooter still running after {SHOT_LIMIT:?}"
                    ));
                }
                None => std::thread::sleep(Duration::from_millis(5)),
            }
        };
        let mut stderr = String::new();
        if let Some(mut pipe) = child.stderr.take() {
            let _ = pipe.read_to_string(&mut stderr);
        }
        if !status.success() {
            return Err(format!("weston-screenshooter: {status}: {}", stderr.trim()));
        }
        let png = std::fs::read_dir(&dir)
            .map_err(|e| e.to_string())?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "png"))
            .ok_or_else(|| format!("weston-screenshooter wrote no PNG: {}", stderr.trim()))?;
        let shot = decode(&png);
        let _ = std::fs::remove_dir_all(&dir);
        shot
    }
}

/// An 8-bit RGB or RGBA PNG as `0x00rrggbb` pixels (alpha dropped: what a screen shows).
fn decode(path: &Path) -> Result<Screenshot, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut reader = png::Decoder::new(file)
        .read_info()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let channels = match (info.color_type, info.bit_depth) {
        (png::ColorType::Rgb, png::BitDepth::Eight) => 3,
        (png::ColorType::Rgba, png::BitDepth::Eight) => 4,
        other => {
            return Err(format!(
                "{}: an unexpected PNG format {other:?}",
                path.display()
            ));
        }
    };
    let (width, height) = (info.width as usize, info.height as usize);
    let pixels = (0..height)
        .flat_map(|y| {
            let row = &buf[y * info.line_size..][..width * channels];
            row.chunks(channels)
                .map(|p| u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2]))
                .collect::<Vec<_>>()
        })
        .collect();
    Ok(Screenshot {
        width,
        height,
        pixels,
    })
}

impl Drop for Weston {
    fn drop(&mut self) {
        // SIGTERM to the group lets Weston remove its socket and lock file and its clients
        // see it go; SIGKILL if it does not exit.
        let group = format!("-{}", self.child.id());
        let signal = |name: &str| {
            let _ = Command::new("kill")
                .args([name, "--", &group])
                .stderr(Stdio::null())
                .status();
        };
        signal("-TERM");
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut exited = false;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                exited = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        if !exited {
            signal("-KILL");
            let _ = self.child.wait();
        }
        // The launched clients exit when their connection closes; anything left in the
        // group is ended.
        signal("-KILL");
        let _ = std::fs::remove_dir_all(&self.runtime);
    }
}

//! A private X server for one test: `Xvfb` on a display number it picks itself
//! (`-displayfd`), terminated and reaped on drop, also when the test panics.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long Xvfb may take to start listening.
const START_LIMIT: Duration = Duration::from_secs(20);

/// An `Xvfb :N -screen 0 1024x768x24 -nolisten tcp` process.
pub(crate) struct Xvfb {
    child: Child,
    /// `:N`.
    display: String,
    /// What it wrote on stderr.
    log: Arc<Mutex<String>>,
}

impl Xvfb {
    /// Starts Xvfb on a free display and waits until it accepts clients.
    pub(crate) fn start() -> Self {
        // -displayfd: Xvfb picks a free display number and writes it (with a newline) on
        // that descriptor once it is ready for clients; here on its stdout, a pipe.
        // -noreset: it keeps its state when the last client leaves (every test program is
        // the only client while it runs).
        let mut child = Command::new("Xvfb")
            .args(["-displayfd", "1", "-screen", "0", "1024x768x24"])
            .args(["-nolisten", "tcp", "-noreset"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("Xvfb runs (Debian: xvfb)");
        let log = Arc::new(Mutex::new(String::new()));
        let sink = log.clone();
        let mut stderr = child.stderr.take().expect("piped");
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .expect("the log")
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let number = rx.recv_timeout(START_LIMIT).unwrap_or_default();
        let mut xvfb = Self {
            child,
            display: String::new(),
            log,
        };
        match number.trim().parse::<u32>() {
            Ok(n) => xvfb.display = format!(":{n}"),
            Err(_) => panic!(
                "Xvfb did not report a display within {START_LIMIT:?} (got {number:?}):\n{}",
                xvfb.log()
            ),
        }
        xvfb
    }

    /// The `DISPLAY` value of this server (`:N`).
    pub(crate) fn display(&self) -> &str {
        &self.display
    }

    /// What Xvfb wrote on stderr so far.
    pub(crate) fn log(&self) -> String {
        self.log.lock().expect("the log").clone()
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        // SIGTERM lets Xvfb remove its lock file and socket; SIGKILL if it does not exit.
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .stderr(Stdio::null())
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

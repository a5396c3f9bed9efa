//! Tessera as a libglvnd vendor (`libEGL_tessera.so.0`, `libGLX_tessera.so.0`; `capi/src/glvnd/`)
//! seen from unmodified C programs linked against the system's libglvnd: `tests/glvnd/*.c`,
//! compiled with the system gcc and headers, run with the system libraries only (no
//! `LD_LIBRARY_PATH` drop-in), once with libglvnd's own vendor (Mesa) and once per backend
//! with Tessera chosen the way `scripts/dropin --glvnd` prints: `__EGL_VENDOR_LIBRARY_FILENAMES`
//! naming Tessera's vendor file for EGL, `__GLX_VENDOR_LIBRARY_NAME=tessera` with a directory
//! holding only `libGLX_tessera.so.0` on the library path for GLX.
//!
//! Each run must pass every check of its program, draw the same pixels as Mesa, report
//! Tessera's GL strings, and have the system's libglvnd libraries mapped next to Tessera's
//! library: the program's EGL and GL calls went through libglvnd to Tessera, and on the GLES
//! backend Tessera's own native calls went to Mesa's vendor library directly, not back
//! through libglvnd to itself. The EGL program needs no window system; the GLX one runs on a
//! private Xvfb (Debian: xvfb).
//!
//! The vendor form is installed in `<target>/<profile>/glvnd/`, next to the drop-in
//! directory of `crate::dropin`, whose builder builds the library.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use crate::dropin::{dropin_dir, profile_dir, root};

/// Backends the comparison runs on (Vulkan with the validation layer on).
const BACKENDS: &[&str] = &["gles", "vulkan"];

/// The C programs: source, program, libraries linked.
const PROGRAMS: [(&str, &str, &[&str]); 2] = [
    ("egl.c", "tessera-glvnd-egl", &["-lEGL", "-lOpenGL"]),
    ("glx.c", "tessera-glvnd-glx", &["-lGL", "-lX11"]),
];

/// How long one program may run.
const RUN_LIMIT_S: &str = "120";

/// The built library (through the drop-in builder, once per test run), installed as a
/// libglvnd vendor in `<target>/<profile>/glvnd/`: `libEGL_tessera.so.0`, `tessera.json`
/// naming it by absolute path, `glx/libGLX_tessera.so.0` alone in its directory, and the
/// compiled programs. Returns the directory.
fn glvnd_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        dropin_dir();
        let library = library();
        let dir = profile_dir().join("glvnd");
        std::fs::create_dir_all(dir.join("glx")).expect("create the vendor directory");
        // Test processes run in parallel (nextest): every file is made under a name of this
        // process and renamed into place, so none sees a missing or half-written file.
        let scratch = |name: &str| dir.join(format!(".{name}.{}", std::process::id()));
        let install = |from: PathBuf, to: PathBuf| {
            std::fs::rename(&from, &to).unwrap_or_else(|e| panic!("install {}: {e}", to.display()));
        };
        for name in ["libEGL_tessera.so.0", "glx/libGLX_tessera.so.0"] {
            let tmp = scratch(name.replace('/', "_").as_str());
            let _ = std::fs::remove_file(&tmp);
            std::os::unix::fs::symlink(&library, &tmp).expect("link the vendor name");
            install(tmp, dir.join(name));
        }
        let json = serde_json::json!({
            "file_format_version": "1.0.0",
            "ICD": {"library_path": dir.join("libEGL_tessera.so.0")},
        });
        std::fs::write(scratch("tessera.json"), json.to_string()).expect("write tessera.json");
        install(scratch("tessera.json"), dir.join("tessera.json"));
        for (source, program, libraries) in PROGRAMS {
            crate::dropin::compile_c(
                &root().join("tests/glvnd").join(source),
                &dir.join(program),
                libraries,
            );
        }
        dir
    })
}

/// The library the vendor names link to, its real path (as `/proc/self/maps` shows it).
fn library() -> PathBuf {
    std::fs::canonicalize(profile_dir().join("libtessera_capi.so")).expect("the built library")
}

/// Runs a program of the vendor directory with the system's libglvnd: Mesa as the vendor
/// (`backend` `None`), or Tessera on `backend`. `display` is the X server of a GLX run.
fn run(program: &str, backend: Option<&str>, display: Option<&str>) -> Output {
    tessera_tests::ensure_runtime_dir();
    let dir = glvnd_dir();
    let mut cmd = Command::new("timeout");
    cmd.args(["-k", "5", RUN_LIMIT_S])
        .arg(dir.join(program))
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("LD_PRELOAD")
        .env_remove("__EGL_VENDOR_LIBRARY_FILENAMES")
        .env_remove("__EGL_VENDOR_LIBRARY_DIRS")
        .env_remove("__GLX_VENDOR_LIBRARY_NAME")
        .env_remove("TESSERA_BACKEND")
        .env_remove("TESSERA_TRANSPORT")
        .env_remove("TESSERA_NATIVE_EGL")
        .env_remove("RUST_BACKTRACE")
        // Mesa on llvmpipe whatever the machine has, natively and under the GLES backend;
        // Mesa's default display without a window system.
        .env("LIBGL_ALWAYS_SOFTWARE", "1")
        .env("EGL_PLATFORM", "surfaceless");
    match display {
        Some(display) => cmd.env("DISPLAY", display),
        None => cmd.env_remove("DISPLAY"),
    };
    if let Some(backend) = backend {
        cmd.env("TESSERA_BACKEND", backend)
            .env("TESSERA_VK_VALIDATION", "1");
        if display.is_some() {
            cmd.env("__GLX_VENDOR_LIBRARY_NAME", "tessera")
                .env("LD_LIBRARY_PATH", dir.join("glx"));
        } else {
            cmd.env("__EGL_VENDOR_LIBRARY_FILENAMES", dir.join("tessera.json"));
        }
        if std::env::var_os("VK_ICD_FILENAMES").is_none() {
            cmd.env(
                "VK_ICD_FILENAMES",
                "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
            );
        }
    }
    cmd.output().expect("the test program runs")
}

/// What one run printed.
struct Run {
    label: String,
    stdout: String,
    stderr: String,
}

impl Run {
    fn new(label: String, out: &Output) -> Self {
        let run = Run {
            label,
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        let failed = run.lines("FAIL");
        assert!(
            failed.is_empty(),
            "{}: {}\n{}",
            run.label,
            failed.join("\n"),
            run.stderr
        );
        assert!(
            out.status.success(),
            "{}: exit status {}\n{}\n{}",
            run.label,
            out.status,
            run.stdout,
            run.stderr
        );
        assert!(
            !run.stderr.contains("tessera: backend:"),
            "{}: backend events:\n{}",
            run.label,
            run.stderr
        );
        run
    }

    /// The rest of every stdout line that starts with `label `.
    fn lines(&self, label: &str) -> Vec<&str> {
        self.stdout
            .lines()
            .filter_map(|l| l.strip_prefix(label)?.strip_prefix(' '))
            .collect()
    }

    /// The rest of the first stdout line that starts with `label `.
    fn line(&self, label: &str) -> &str {
        let found = self.lines(label).first().copied();
        found.unwrap_or_else(|| panic!("{}: no {label} line in:\n{}", self.label, self.stdout))
    }

    /// The mapped GL libraries, by file name.
    fn libraries(&self) -> Vec<PathBuf> {
        self.lines("library")
            .into_iter()
            .map(PathBuf::from)
            .collect()
    }

    /// The one mapped library whose file name starts with `prefix`, if there is one.
    fn mapped(&self, prefix: &str) -> Option<PathBuf> {
        let found: Vec<PathBuf> = self
            .libraries()
            .into_iter()
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
            })
            .collect();
        assert!(
            found.len() <= 1,
            "{}: {prefix} twice: {found:?}",
            self.label
        );
        found.into_iter().next()
    }

    /// Checks that the library `prefix` is mapped from the system's library directories.
    fn assert_system(&self, prefix: &str) {
        let path = self
            .mapped(prefix)
            .unwrap_or_else(|| panic!("{}: {prefix} is not mapped:\n{}", self.label, self.stdout));
        assert!(
            path.starts_with("/usr/lib") || path.starts_with("/lib"),
            "{}: {prefix} is {}, not the system's",
            self.label,
            path.display()
        );
    }

    /// The read-back pixels.
    fn pixels(&self) -> Vec<u8> {
        let hex = self.line("pixels");
        (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
            .collect()
    }
}

/// The checks common to the Tessera runs of both programs: Tessera's GL strings, its library
/// mapped, the scene's pixels equal to Mesa's, every check Mesa passed passed too.
fn assert_tessera(run: &Run, native: &Run, backend: &str) {
    assert_eq!(run.line("vendor"), "Tessera", "{}", run.label);
    assert!(
        run.line("renderer")
            .starts_with(&format!("Tessera ({backend} backend on ")),
        "{}: {}",
        run.label,
        run.line("renderer")
    );
    // 4.6 on the Vulkan backend (lavapipe), which has every GL 4.6 extension; 3.3 on GLES,
    // whose driver has no doubles, which GL 4.0 asks for.
    let version = if backend == "vulkan" { "4.6" } else { "3.3" };
    assert!(
        run.line("version")
            .starts_with(&format!("{version} (Core Profile) Tessera ")),
        "{}: {}",
        run.label,
        run.line("version")
    );
    assert_eq!(
        run.mapped("libtessera").as_deref(),
        Some(library().as_path()),
        "{}: Tessera's library is not mapped:\n{}",
        run.label,
        run.stdout
    );
    let (want, have) = (native.pixels(), run.pixels());
    assert_eq!(want.len(), 64 * 64 * 4);
    let differ = want
        .chunks(4)
        .zip(have.chunks(4))
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        want == have,
        "{}: {differ} pixels differ from Mesa's",
        run.label
    );
    assert_eq!(run.line("checks"), native.line("checks"), "{}", run.label);
}

/// The native run's pixels are a scene, not a blank the comparison would pass on.
fn assert_scene(native: &Run) {
    let pixels = native.pixels();
    let mut colours: Vec<&[u8]> = pixels.chunks(4).collect();
    colours.sort();
    colours.dedup();
    assert!(
        colours.len() >= 5,
        "{}: only {} distinct colours",
        native.label,
        colours.len()
    );
}

#[test]
fn an_egl_program_on_the_system_libglvnd_renders_on_tessera_as_its_vendor() {
    let program = "tessera-glvnd-egl";
    let native = Run::new("mesa".into(), &run(program, None, None));
    assert_ne!(native.line("egl vendor"), "Tessera", "{}", native.stdout);
    assert!(native.mapped("libtessera").is_none(), "{}", native.stdout);
    native.assert_system("libEGL.so.1");
    assert_scene(&native);

    for backend in BACKENDS {
        let run = Run::new(backend.to_string(), &run(program, Some(backend), None));
        assert_eq!(run.line("egl vendor"), "Tessera", "{backend}");
        assert_tessera(&run, &native, backend);
        // The program's libEGL is libglvnd's, which loaded Tessera as its vendor; Mesa's
        // vendor library is loaded only by the GLES backend (directly: libglvnd has no
        // vendor but Tessera).
        run.assert_system("libEGL.so.1");
        run.assert_system("libOpenGL.so.0");
        run.assert_system("libGLdispatch.so.0");
        if *backend == "gles" {
            run.assert_system("libEGL_mesa.so.0");
        } else {
            assert!(run.mapped("libEGL_mesa").is_none(), "{}", run.stdout);
        }
    }
}

#[test]
fn a_glx_program_on_the_system_libglvnd_renders_on_tessera_as_its_vendor() {
    let program = "tessera-glvnd-glx";
    let xvfb = crate::window::Xvfb::start();
    let display = Some(xvfb.display());
    let native = Run::new("mesa".into(), &run(program, None, display));
    assert!(native.mapped("libtessera").is_none(), "{}", native.stdout);
    native.assert_system("libGLX_mesa.so.0");
    assert_scene(&native);

    for backend in BACKENDS {
        let run = Run::new(
            format!("glx {backend}"),
            &run(program, Some(backend), display),
        );
        assert_tessera(&run, &native, backend);
        run.assert_system("libGL.so.1");
        run.assert_system("libGLX.so.0");
        run.assert_system("libGLdispatch.so.0");
        // libGLX loaded Tessera for the screen, not Mesa's GLX vendor.
        assert!(run.mapped("libGLX_mesa").is_none(), "{}", run.stdout);
        // glXSwapIntervalEXT reached Tessera through its dispatch stub.
        assert_eq!(run.line("swap interval"), "0", "{}", run.label);
    }
    drop(xvfb);
}

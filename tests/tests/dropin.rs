//! The drop-in C ABI (`tessera-capi` as `libEGL.so.1` / `libOpenGL.so.0` / `libGL.so.1`,
//! and the unversioned `libEGL.so` / `libOpenGL.so` / `libGL.so` that programs loading GL
//! at run time open) seen from unmodified C programs: `tests/dropin/*.c`, compiled with the
//! system gcc and headers and linked `-lEGL -lOpenGL` (`dlopen_names.c`: with no GL
//! library), run against the system driver and, through `LD_LIBRARY_PATH`, against Tessera.
//!
//! The library is built here with `cargo build -p tessera-capi` (a no-op when up to date;
//! `cargo test --workspace` builds it anyway) and installed as the six names in
//! `<target>/<profile>/dropin/`, as `scripts/dropin` installs release builds in
//! `<target>/dropin/`.

#![expect(
    unsafe_code,
    reason = "eglGetProcAddress is checked by loading the drop-in and calling it through C"
)]

mod entry_points;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// Backends the pixel comparison runs on (Vulkan with the validation layer on).
const BACKENDS: &[&str] = &["gles", "vulkan"];

/// The workspace root.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ lives in the workspace")
        .to_path_buf()
}

/// The profile directory this test binary was built in (`target/debug`), from its path
/// (`target/debug/deps/root-<hash>`).
pub(crate) fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    exe.parent()
        .and_then(Path::parent)
        .expect("the test binary lives in <target>/<profile>/deps")
        .to_path_buf()
}

/// The names the drop-in is installed under (as `scripts/dropin` installs them).
const NAMES: [&str; 6] = [
    "libEGL.so.1",
    "libOpenGL.so.0",
    "libGL.so.1",
    "libEGL.so",
    "libOpenGL.so",
    "libGL.so",
];

/// The C programs: source, program, libraries linked.
const PROGRAMS: [(&str, &str, &[&str]); 11] = [
    (
        "dropin.c",
        "tessera-dropin-test",
        &["-lEGL", "-lOpenGL", "-lpthread"],
    ),
    (
        "egl_errors.c",
        "tessera-egl-errors",
        &["-lEGL", "-lOpenGL", "-lpthread"],
    ),
    ("egl_device.c", "tessera-egl-device", &["-lEGL", "-lOpenGL"]),
    ("egl_sync.c", "tessera-egl-sync", &["-lEGL", "-lOpenGL"]),
    ("egl_image.c", "tessera-egl-image", &["-lEGL", "-lOpenGL"]),
    (
        "egl_renderbuffer_image.c",
        "tessera-egl-renderbuffer-image",
        &["-lEGL", "-lOpenGL"],
    ),
    (
        "unimplemented.c",
        "tessera-unimplemented",
        &["-lEGL", "-lOpenGL"],
    ),
    (
        "backend_events.c",
        "tessera-backend-events",
        &["-lEGL", "-lOpenGL"],
    ),
    ("khr_debug.c", "tessera-khr-debug", &["-lEGL", "-lOpenGL"]),
    (
        "program_binary.c",
        "tessera-program-binary",
        &["-lEGL", "-lOpenGL"],
    ),
    // Linked with no GL library: it loads them by name, as a Python process does.
    ("dlopen_names.c", "tessera-dlopen-names", &["-ldl"]),
];

/// Builds the drop-in library (once per test run), installs its names in
/// `<target>/dropin/` and compiles the C programs there. Returns the directory.
pub(crate) fn dropin_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let profile = profile_dir();
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let mut build = Command::new(cargo);
        build
            .current_dir(root())
            .args(["build", "--quiet", "-p", "tessera-capi"]);
        if profile.file_name().is_some_and(|p| p == "release") {
            build.arg("--release");
        }
        let out = build.output().expect("cargo runs");
        assert!(
            out.status.success(),
            "cargo build -p tessera-capi failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let library = profile.join("libtessera_capi.so");
        assert!(library.exists(), "{} was not built", library.display());

        // Next to the library of this profile (scripts/dropin installs release builds in
        // <target>/dropin; the two never overwrite each other).
        let dir = profile.join("dropin");
        std::fs::create_dir_all(&dir).expect("create the drop-in directory");
        // Test processes run in parallel (nextest): every file here is made under a name of
        // this process and renamed into place, which is atomic, so no process ever sees a
        // missing link or executes a program another is still writing (ETXTBSY).
        let scratch = |name: &str| dir.join(format!(".{name}.{}", std::process::id()));
        for name in NAMES {
            let tmp = scratch(name);
            let _ = std::fs::remove_file(&tmp);
            std::os::unix::fs::symlink(&library, &tmp).expect("install the drop-in name");
            std::fs::rename(&tmp, dir.join(name)).expect("install the drop-in name");
        }
        for (source, program, libraries) in PROGRAMS {
            compile_c(
                &root().join("tests/dropin").join(source),
                &dir.join(program),
                libraries,
            );
        }
        dir
    })
}

/// Compiles the C program `source` into `program` with the system gcc (warnings are
/// errors) and `args` (libraries, flags). It is made under a name of this process and
/// renamed into place: test processes run in parallel (nextest), and none ever executes a
/// program another is still writing (ETXTBSY) or sees it missing.
pub(crate) fn compile_c(source: &Path, program: &Path, args: &[&str]) {
    let scratch = program.with_file_name(format!(
        ".{}.{}",
        program
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("program"),
        std::process::id()
    ));
    let out = Command::new("gcc")
        .args(["-O1", "-Wall", "-Wextra", "-Werror"])
        .arg(source)
        .arg("-o")
        .arg(&scratch)
        .args(args)
        .output()
        .expect("gcc runs (Debian: gcc and the -dev packages of scripts/deps.sh)");
    assert!(
        out.status.success(),
        "compiling {} failed:\n{}",
        source.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::rename(&scratch, program).expect("install the compiled program");
}

/// Runs a C program of the drop-in directory, natively (`backend` `None`: the system
/// libraries) or on Tessera with `backend`.
fn run(program: &str, backend: Option<&str>) -> Output {
    run_with(program, backend, &[])
}

/// [`run`] with arguments.
/// Test program `program` with `args`, on the native driver: none of the variables that
/// would choose Tessera or its backend and transport.
fn native_command(program: &str, args: &[&str]) -> Command {
    tessera_tests::ensure_runtime_dir();
    let mut cmd = Command::new(dropin_dir().join(program));
    cmd.args(args)
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("TESSERA_BACKEND")
        .env_remove("TESSERA_TRANSPORT")
        .env_remove("RUST_BACKTRACE");
    cmd
}

/// Runs `program` natively (`transport` `None`) or on Tessera's GLES backend over
/// `transport`.
fn run_gles(program: &str, transport: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = native_command(program, args);
    if let Some(transport) = transport {
        cmd.env("LD_LIBRARY_PATH", dropin_dir())
            .env("TESSERA_BACKEND", "gles")
            .env("TESSERA_TRANSPORT", transport);
    }
    cmd.output().expect("the test program runs")
}

fn run_with(program: &str, backend: Option<&str>, args: &[&str]) -> Output {
    let dir = dropin_dir();
    let mut cmd = native_command(program, args);
    if let Some(backend) = backend {
        cmd.env("LD_LIBRARY_PATH", dir)
            .env("TESSERA_BACKEND", backend)
            .env("TESSERA_VK_VALIDATION", "1");
        if std::env::var_os("VK_ICD_FILENAMES").is_none() {
            cmd.env(
                "VK_ICD_FILENAMES",
                "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
            );
        }
    }
    cmd.output().expect("the test program runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The hex of one output line (`fbo ...`, `pbuffer ...`) as bytes.
fn image(stdout: &str, label: &str) -> Vec<u8> {
    let hex = stdout
        .lines()
        .find_map(|l| l.strip_prefix(label).map(str::trim))
        .unwrap_or_else(|| panic!("no {label} line in:\n{stdout}"));
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

#[test]
fn a_c_program_renders_the_same_pixels_on_tessera_as_on_the_native_driver() {
    let native = run("tessera-dropin-test", None);
    let native_err = text(&native.stderr);
    assert!(native.status.success(), "native run failed:\n{native_err}");
    assert!(
        !native_err.contains("vendor: Tessera"),
        "the native run must not load the drop-in:\n{native_err}"
    );
    let expected = text(&native.stdout);
    let fbo = image(&expected, "fbo");
    assert_eq!(fbo.len(), 64 * 64 * 4);
    // Texture, depth test and blending each leave their own colours: the scene is not a
    // blank the comparison would pass on.
    let mut colours: Vec<&[u8]> = fbo.chunks(4).collect();
    colours.sort();
    colours.dedup();
    assert!(
        colours.len() >= 8,
        "only {} distinct colours",
        colours.len()
    );
    assert_eq!(&image(&expected, "pbuffer")[..4], &[0x40, 0x80, 0xbf, 0xff]);

    for backend in BACKENDS {
        let tessera = run("tessera-dropin-test", Some(backend));
        let err = text(&tessera.stderr);
        assert!(tessera.status.success(), "{backend}: run failed:\n{err}");
        assert!(
            err.contains("vendor: Tessera"),
            "{backend}: not Tessera:\n{err}"
        );
        // Backend events (a validation message, a native error, a rejected program) are
        // logged by the library.
        assert!(
            !err.contains("tessera: backend:"),
            "{backend}: backend events:\n{err}"
        );
        // The Vulkan backend (lavapipe) has every GL 4.6 extension; the GLES backend stays at
        // 3.3 (OpenGL ES has no doubles, which GL 4.0 asks for).
        let version = if *backend == "vulkan" { "4.6" } else { "3.3" };
        assert!(
            err.contains(&format!("version: {version} (Core Profile) Tessera ")),
            "{backend}: {err}"
        );
        assert!(
            err.contains(&format!("renderer: Tessera ({backend} backend on ")),
            "{backend}: {err}"
        );
        assert!(
            err.contains("pbuffer viewport: 0 0 16 8"),
            "{backend}: {err}"
        );
        let got = text(&tessera.stdout);
        for label in ["fbo", "pbuffer"] {
            let (want, have) = (image(&expected, label), image(&got, label));
            let differ = want
                .chunks(4)
                .zip(have.chunks(4))
                .filter(|(a, b)| a != b)
                .count();
            assert!(
                want == have,
                "{backend}: {label}: {differ} pixels differ from the native driver's"
            );
        }
    }
}

#[test]
fn egl_errors_are_the_ones_the_specification_names() {
    let out = run("tessera-egl-errors", Some("null"));
    let stdout = text(&out.stdout);
    let failed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    // Every check ran (the program ends with its tally).
    let checks = stdout.lines().filter(|l| l.starts_with("ok ")).count();
    assert!(
        stdout.contains(&format!("checks {checks} failures 0")),
        "{stdout}"
    );
    assert!(checks >= 120, "only {checks} checks ran");
    // The null backend has every feature, so its context is a 4.6 one.
    let v46 = stdout.lines().filter(|l| l.starts_with("ok 4.6: ")).count();
    assert_eq!(v46, 10, "{stdout}");
    // The caught panic was reported (once), not swallowed, and lost the context.
    assert!(
        text(&out.stderr).contains("glGenBuffers panicked (the context is lost)"),
        "{}",
        text(&out.stderr)
    );
}

/// EGL fence syncs (`EGL_KHR_fence_sync`, `EGL_KHR_wait_sync`, EGL 1.5's) natively and on
/// each backend: every status and error of `tests/dropin/egl_sync.c`, including a fence of
/// one context waited for by a context that shares nothing with it.
#[test]
fn egl_fences_signal_and_fail_as_the_specifications_say() {
    let runs = std::iter::once(None).chain(BACKENDS.iter().copied().map(Some));
    for backend in runs {
        let out = run("tessera-egl-sync", backend);
        let backend = backend.unwrap_or("native");
        let stdout = text(&out.stdout);
        let failed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
        assert!(failed.is_empty(), "{backend}: {}", failed.join("\n"));
        assert!(
            out.status.success(),
            "{backend}: {stdout}\n{}",
            text(&out.stderr)
        );
        assert!(
            stdout.contains(&format!("checks {EGL_SYNC_CHECKS} failures 0")),
            "{backend}: {stdout}"
        );
    }
}

/// The checks `tests/dropin/egl_sync.c` makes.
const EGL_SYNC_CHECKS: usize = 43;

/// EGL images of textures between two contexts that share nothing (`tests/dropin/egl_image.c`):
/// natively, and on the GLES backend in process (`inproc` and `thread`), context B samples
/// exactly the texels context A uploaded, and every error is native llvmpipe's. The Vulkan
/// backend offers neither the EGL extensions nor `GL_OES_EGL_image`.
#[test]
fn an_egl_image_of_a_texture_gives_an_unshared_context_its_texels() {
    let program =
        |transport: Option<&str>, args: &[&str]| run_gles("tessera-egl-image", transport, args);
    let runs = [
        ("native", program(None, &[])),
        ("gles inproc", program(Some("inproc"), &[])),
        ("gles thread", program(Some("thread"), &[])),
    ];
    for (name, out) in runs {
        let stdout = text(&out.stdout);
        let failed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
        assert!(failed.is_empty(), "{name}: {}", failed.join("\n"));
        assert!(
            out.status.success(),
            "{name}: {stdout}\n{}",
            text(&out.stderr)
        );
        assert!(
            stdout.contains("ok B samples exactly A's texels")
                && stdout.contains(&format!(
                    "checks {} failures 0",
                    // Natively the destroyed image is not asked about (egl_image.c).
                    EGL_IMAGE_CHECKS - usize::from(name == "native")
                )),
            "{name}: {stdout}"
        );
    }
    let vulkan = run_with("tessera-egl-image", Some("vulkan"), &["absent"]);
    let stdout = text(&vulkan.stdout);
    assert!(
        vulkan.status.success(),
        "vulkan: {stdout}\n{}",
        text(&vulkan.stderr)
    );
    assert!(
        stdout.contains("ok the display offers no EGL images")
            && stdout.contains("ok the context offers no GL_OES_EGL_image")
            && stdout.contains("checks 2 failures 0"),
        "vulkan: {stdout}"
    );
}

/// The checks `tests/dropin/egl_image.c` makes where images are offered.
const EGL_IMAGE_CHECKS: usize = 23;

/// EGL images of renderbuffers between two contexts that share nothing
/// (`tests/dropin/egl_renderbuffer_image.c`): natively, and on the GLES backend in process
/// (`inproc` and `thread`), context B reads exactly the pixels context A drew through its own
/// renderbuffer and texture of the image, and A reads what B then drew; the errors are the
/// extensions' (Mesa's where it agrees, which the native run checks). The dma-buf extensions
/// are offered exactly where the native display offers them (not on llvmpipe's surfaceless
/// display, where the run checks the errors of calling them anyway).
#[test]
fn an_egl_image_of_a_renderbuffer_gives_an_unshared_context_its_pixels() {
    let program = |transport: Option<&str>, args: &[&str]| {
        run_gles("tessera-egl-renderbuffer-image", transport, args)
    };
    let native = program(None, &[]);
    let stdout = text(&native.stdout);
    let dma_buf = stdout
        .lines()
        .find_map(|l| l.strip_prefix("dma-buf export "))
        .and_then(|l| l.split_once(" import "))
        .map(|(e, i)| format!("dma-buf={e}{i}"))
        .unwrap_or_else(|| panic!("native: no dma-buf line: {stdout}"));
    let native_dma_buf = dma_buf != "dma-buf=00";
    let runs = [
        ("native", native),
        ("gles inproc", program(Some("inproc"), &[&dma_buf])),
        ("gles thread", program(Some("thread"), &[&dma_buf])),
    ];
    for (name, out) in runs {
        let stdout = text(&out.stdout);
        let failed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
        assert!(failed.is_empty(), "{name}: {}", failed.join("\n"));
        assert!(
            out.status.success(),
            "{name}: {stdout}\n{}",
            text(&out.stderr)
        );
        assert!(
            stdout.contains("ok B reads exactly what A drew")
                && stdout.contains("ok B samples exactly what A drew")
                && stdout.contains("ok A reads exactly what B drew into the image"),
            "{name}: {stdout}"
        );
        // Where the native display has no dma-bufs, both runs also check the errors of
        // asking for them; Tessera's run asks more than Mesa can be asked (the C program).
        if !native_dma_buf {
            let checks = if name == "native" {
                EGL_RENDERBUFFER_IMAGE_CHECKS_NATIVE
            } else {
                EGL_RENDERBUFFER_IMAGE_CHECKS_TESSERA
            };
            assert!(
                stdout.contains(&format!("checks {checks} failures 0")),
                "{name}: {stdout}"
            );
        }
    }
}

/// The checks `tests/dropin/egl_renderbuffer_image.c` makes natively on a display without
/// dma-bufs.
const EGL_RENDERBUFFER_IMAGE_CHECKS_NATIVE: usize = 21;
/// The checks it makes on Tessera there (the errors where Mesa differs from the
/// extensions, and the dma-buf calls Mesa cannot take without the extensions).
const EGL_RENDERBUFFER_IMAGE_CHECKS_TESSERA: usize = 40;

/// `TESSERA_GL_VERSION=4.0` claims 4.0 on the null backend, whose own version is 4.6: a 4.0
/// core request is granted, a 4.3 one refused, and the context reports 4.0 (the run without
/// it, above, checks the 4.6 context).
#[test]
fn a_claimed_gl_version_is_granted_and_reported() {
    tessera_tests::ensure_runtime_dir();
    let dir = dropin_dir();
    let out = Command::new(dir.join("tessera-egl-errors"))
        .env("LD_LIBRARY_PATH", dir)
        .env("TESSERA_BACKEND", "null")
        .env("TESSERA_GL_VERSION", "4.0")
        .env_remove("TESSERA_TRANSPORT")
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("the test program runs");
    let stdout = text(&out.stdout);
    let failed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    let claimed = stdout
        .lines()
        .filter(|l| l.starts_with("ok TESSERA_GL_VERSION=4.0"))
        .count();
    assert_eq!(claimed, 3, "{stdout}");
    assert!(
        stdout.contains("ok GL_VERSION is \"<version> (Core Profile) Tessera ...\""),
        "{stdout}"
    );
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
}

#[test]
fn the_unversioned_library_names_load_tessera() {
    let tessera = run("tessera-dlopen-names", Some("null"));
    let out = text(&tessera.stdout);
    assert!(tessera.status.success(), "{out}\n{}", text(&tessera.stderr));
    let library = std::fs::canonicalize(profile_dir().join("libtessera_capi.so"))
        .expect("the drop-in library's real path");
    let loaded = |out: &str, name: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(&format!("{name} ")))
            .map(PathBuf::from)
    };
    let names = ["libEGL.so", "libGL.so", "libOpenGL.so"];
    for name in names {
        assert_eq!(
            loaded(&out, name).as_deref(),
            Some(library.as_path()),
            "dlopen({name:?}) with the drop-in on LD_LIBRARY_PATH:\n{out}"
        );
    }
    assert!(out.contains("egl version 1.5 Tessera "), "{out}");

    // Without it the same program loads the system's libraries (where they are installed):
    // the check tells the two apart.
    let native = text(&run("tessera-dlopen-names", None).stdout);
    for name in names {
        assert_ne!(
            loaded(&native, name).as_deref(),
            Some(library.as_path()),
            "{native}"
        );
    }
    assert!(!native.contains("Tessera"), "{native}");
}

#[test]
fn an_egl_device_gives_a_display_that_renders_the_same_pixels_as_the_native_driver_s() {
    let native = run("tessera-egl-device", None);
    let expected = text(&native.stdout);
    assert!(
        native.status.success(),
        "native run failed:\n{expected}\n{}",
        text(&native.stderr)
    );
    assert!(
        !expected.contains("vendor Tessera"),
        "the native run must not load the drop-in:\n{expected}"
    );
    let tally = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("checks "))
            .map(str::to_owned)
    };
    for backend in BACKENDS {
        let tessera = run("tessera-egl-device", Some(backend));
        let out = text(&tessera.stdout);
        let err = text(&tessera.stderr);
        let failed: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL")).collect();
        assert!(failed.is_empty(), "{backend}: {}", failed.join("\n"));
        assert!(tessera.status.success(), "{backend}: {out}\n{err}");
        assert!(
            !err.contains("tessera: backend:"),
            "{backend}: backend events:\n{err}"
        );
        // One device, with no device extensions, whose display is Tessera's.
        for line in ["devices 1", "device extensions ''", "vendor Tessera"] {
            assert!(
                out.lines().any(|l| l == line),
                "{backend}: no {line:?}:\n{out}"
            );
        }
        // The same checks ran as on the native driver, and the same pixels came back.
        assert_eq!(tally(&out), tally(&expected), "{backend}");
        for label in ["surfaceless", "pbuffer"] {
            assert_eq!(
                image(&out, label),
                image(&expected, label),
                "{backend}: {label} differs from the native driver's"
            );
        }
    }
}

/// The functions of `GL_VERSION_1_0` .. `GL_VERSION_3_3` in the system's `glcorearb.h`.
fn gl_core_33_functions() -> Vec<String> {
    let header = std::fs::read_to_string("/usr/include/GL/glcorearb.h")
        .expect("/usr/include/GL/glcorearb.h (Debian: libgl-dev)");
    let mut names = Vec::new();
    let mut in_version = false;
    for line in header.lines() {
        if let Some(v) = line.strip_prefix("#ifndef GL_VERSION_") {
            let mut parts = v.split('_').map(|p| p.parse::<u32>().unwrap_or(99));
            in_version = (parts.next(), parts.next()) <= (Some(3), Some(3));
        } else if line.starts_with("#endif /* GL_VERSION_") {
            in_version = false;
        } else if in_version
            && line.starts_with("GLAPI ")
            && let Some(name) = line
                .split("APIENTRY ")
                .nth(1)
                .and_then(|r| r.split(' ').next())
        {
            names.push(name.to_owned());
        }
    }
    names
}

/// Every `gl*` function prototype of the Khronos registry's GL API, as Debian's libgl-dev
/// carries it: `gl.h` (the 1.0/1.1 compatibility functions), `glext.h`, `glcorearb.h`.
fn gl_registry_functions() -> Vec<String> {
    let mut names = Vec::new();
    for header in ["gl.h", "glext.h", "glcorearb.h"] {
        let text = std::fs::read_to_string(format!("/usr/include/GL/{header}"))
            .expect("/usr/include/GL (Debian: libgl-dev)");
        names.extend(
            text.lines()
                .filter(|l| l.starts_with("GLAPI "))
                .filter_map(|l| l.split("APIENTRY").nth(1))
                .filter_map(|r| r.trim_start().split([' ', '(']).next())
                .filter(|n| n.starts_with("gl"))
                .map(str::to_owned),
        );
    }
    names.sort();
    names.dedup();
    names
}

/// The EGL functions of the system's `egl.h` (EGL 1.0 .. 1.5).
fn egl_functions() -> Vec<String> {
    let header = std::fs::read_to_string("/usr/include/EGL/egl.h")
        .expect("/usr/include/EGL/egl.h (Debian: libegl-dev)");
    header
        .lines()
        .filter(|l| l.starts_with("EGLAPI "))
        .filter_map(|l| l.split("EGLAPIENTRY ").nth(1))
        .filter_map(|r| r.split([' ', '(']).next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn get_proc_address_finds_every_gl_3_3_and_egl_function_a_stub_for_other_gl_ones_and_nothing_else()
{
    let library = dropin_dir().join("libEGL.so.1");
    // SAFETY: loading the drop-in runs Rust static initializers only (no C constructors of
    // its own); RTLD_LOCAL keeps its symbols from interposing on this process's.
    let lib = unsafe {
        libloading::os::unix::Library::open(Some(&library), libc::RTLD_NOW | libc::RTLD_LOCAL)
    }
    .expect("load the drop-in");
    type GetProcAddress = unsafe extern "C" fn(*const std::ffi::c_char) -> *const std::ffi::c_void;
    // SAFETY: eglGetProcAddress has this signature (EGL 1.5 §3.10).
    let get_proc_address: GetProcAddress =
        *unsafe { lib.get::<GetProcAddress>(b"eglGetProcAddress\0") }.expect("eglGetProcAddress");
    let lookup = |name: &str| {
        let c = std::ffi::CString::new(name).expect("no NUL");
        // SAFETY: a NUL-terminated name; the function only reads it.
        unsafe { get_proc_address(c.as_ptr()) }
    };
    let exported = |name: &str| {
        let c = std::ffi::CString::new(name).expect("no NUL");
        // SAFETY: the symbol is only turned into an address.
        unsafe { lib.get::<*const std::ffi::c_void>(c.as_bytes_with_nul()) }
            .map(|s| *s)
            .unwrap_or(std::ptr::null())
    };
    let gl = gl_core_33_functions();
    assert_eq!(
        gl.len(),
        345,
        "GL 1.0-3.3 core has 345 functions in glcorearb.h"
    );
    let egl = egl_functions();
    assert_eq!(egl.len(), 44, "EGL 1.5 has 44 functions in egl.h");
    let mut missing = Vec::new();
    for name in gl.iter().chain(&egl) {
        let p = lookup(name);
        // Non-null, and the very function the library exports under that name.
        if p.is_null() || p != exported(name) {
            missing.push(name.as_str());
        }
    }
    assert!(
        missing.is_empty(),
        "not found or not the export: {missing:?}"
    );
    for name in [
        "eglGetPlatformDisplayEXT",
        "eglCreatePlatformWindowSurfaceEXT",
        "eglCreatePlatformPixmapSurfaceEXT",
        "eglQueryDevicesEXT",
        "eglQueryDeviceStringEXT",
        "eglQueryDeviceAttribEXT",
        "eglQueryDisplayAttribEXT",
    ] {
        let p = lookup(name);
        assert!(!p.is_null() && p == exported(name), "{name}");
    }
    // Every other GL function of the registry (compatibility, 4.x, extensions) is a
    // callable stub, which the library does not export.
    let registry = gl_registry_functions();
    assert!(
        registry.len() > 2900,
        "{} registry functions",
        registry.len()
    );
    let mut unresolved = Vec::new();
    for name in &registry {
        let p = lookup(name);
        let implemented = gl.contains(name);
        if p.is_null() || (implemented && p != exported(name)) {
            unresolved.push(name.as_str());
        }
    }
    assert!(
        unresolved.is_empty(),
        "registry names without an entry: {unresolved:?}"
    );
    for name in [
        "glBegin",
        "glDebugMessageCallbackARB",
        "glGenTexturesEXT",
        "glMaxShaderCompilerThreadsARB",
        "glNamedBufferStorageEXT",
    ] {
        let p = lookup(name);
        assert!(!p.is_null() && exported(name).is_null(), "{name}: a stub");
    }
    for name in [
        "",
        "glNotAFunction",
        "glFooBar123",
        "eglCreateStreamKHR",
        "eglFoo",
        "gl",
    ] {
        assert!(lookup(name).is_null(), "{name:?} must be null");
    }
    // Null is not a name either.
    // SAFETY: eglGetProcAddress accepts a null name and returns null.
    assert!(unsafe { get_proc_address(std::ptr::null()) }.is_null());
    // Never unloaded: a library that ran Rust code may have thread-exit destructors
    // registered.
    std::mem::forget(lib);
}

#[test]
fn gl_functions_tessera_lacks_are_callable_stubs_that_raise_invalid_operation() {
    let tessera = run("tessera-unimplemented", Some("null"));
    let out = text(&tessera.stdout);
    let err = text(&tessera.stderr);
    let failed: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert!(failed.is_empty(), "{}\n{err}", failed.join("\n"));
    assert!(tessera.status.success(), "{out}\n{err}");
    assert!(out.contains("vendor Tessera"), "{out}");
    assert!(out.contains("checks 23 failures 0"), "{out}");
    // One warning per name, however often it is called (glMaxShaderCompilerThreadsARB: three times,
    // the first before any EGL call).
    for name in [
        "glMaxShaderCompilerThreadsARB",
        "glNamedBufferStorageEXT",
        "glDebugMessageCallbackARB",
        "glMapNamedBufferEXT",
        "glBegin",
    ] {
        let line = format!("{name} is not implemented by Tessera");
        assert_eq!(
            err.lines().filter(|l| *l == line).count(),
            1,
            "{name}:\n{err}"
        );
    }
    // The native driver gives the same answers, those about Tessera aside.
    let native = run("tessera-unimplemented", None);
    let out = text(&native.stdout);
    assert!(
        native.status.success(),
        "native: {out}\n{}",
        text(&native.stderr)
    );
    assert!(!out.contains("vendor Tessera"), "{out}");
}

/// KHR_debug through the C ABI (`tests/dropin/khr_debug.c`): the same transcript as the
/// native driver's on both backends, line for line: limits, initial state of plain and
/// debug contexts, every error, the log's order and overflow, filters, groups, the callback
/// and labels of every object kind.
#[test]
fn khr_debug_behaves_as_on_the_native_driver() {
    let native = run("tessera-khr-debug", None);
    let expected = text(&native.stdout);
    assert!(
        native.status.success(),
        "native run failed:\n{expected}\n{}",
        text(&native.stderr)
    );
    assert!(
        !text(&native.stderr).contains("Tessera"),
        "native loaded the drop-in"
    );
    // The transcript is not one a do-nothing implementation would print.
    for line in [
        "max length 4096 logged 10 depth 64 label 256",
        "push past the maximum depth: error 0x0503",
        "pop of the default group: error 0x0504",
        "groups: message 0x824a 0x826a 42 0x826b 12 \"outer group\"",
        "callback: 1 0x824a 0x8268 13 0x9146 15 \"to the callback\" user 1",
        "debug context: output 1 sync 0 flags 0x2 logged 0 next 0 depth 1",
        "sync: 4 \"sync\"",
    ] {
        assert!(
            expected.contains(line),
            "native: no `{line}` in:\n{expected}"
        );
    }
    for backend in BACKENDS {
        let tessera = run("tessera-khr-debug", Some(backend));
        let err = text(&tessera.stderr);
        let got = text(&tessera.stdout);
        assert!(tessera.status.success(), "{backend}: {got}\n{err}");
        assert!(
            err.contains("vendor: Tessera"),
            "{backend}: not Tessera:\n{err}"
        );
        for (n, (want, have)) in expected.lines().zip(got.lines()).enumerate() {
            assert_eq!(have, want, "{backend}: line {}:\n{got}", n + 1);
        }
        assert_eq!(
            got.lines().count(),
            expected.lines().count(),
            "{backend}:\n{got}"
        );
    }
}

/// Program binaries through the C ABI (`tests/dropin/program_binary.c`): a binary saved by
/// one process and loaded by another gives native's transcript on both backends, line for
/// line: the errors, `LINK_STATUS`, the uniform back at its initializer's value and the
/// pixels, also for truncated and corrupted binaries.
#[test]
fn program_binaries_behave_as_on_the_native_driver() {
    let transcript = |backend: Option<&str>| {
        let file = std::env::temp_dir().join(format!(
            "tessera-dropin-program-binary-{}-{}",
            std::process::id(),
            backend.unwrap_or("native")
        ));
        let file = file.to_str().expect("a UTF-8 temporary path");
        let mut all = String::new();
        for step in ["save", "load"] {
            let out = run_with("tessera-program-binary", backend, &[step, file]);
            let got = text(&out.stdout);
            assert!(
                out.status.success(),
                "{backend:?} {step}:\n{got}\n{}",
                text(&out.stderr)
            );
            let err = text(&out.stderr);
            assert_eq!(
                err.contains("vendor: Tessera"),
                backend.is_some(),
                "{backend:?} {step}: {err}"
            );
            // Backend events (a validation message, a native error, a rejected program)
            // are logged by the library.
            assert!(
                !err.contains("tessera: backend:"),
                "{backend:?} {step}: backend events:\n{err}"
            );
            all.push_str(&got);
        }
        let _ = std::fs::remove_file(file);
        all
    };
    let expected = transcript(None);
    // The transcript is not one a do-nothing implementation would print.
    for line in [
        "advertised 1 formats 1",
        "hint 7: error 0x0501",
        "another parameter: error 0x0500",
        "hint after the link 1",
        "one byte short: length 0",
        "one byte short: error 0x0502",
        "saved: length matches 1 format matches 1",
        "reloaded: link 1 location 0 color 0.25 0.50 0.75 1.00",
        "new process: link 1 location 0 color 0.25 0.50 0.75 1.00",
        "truncated: link 0 location -1 color -1.00 -1.00 -1.00 -1.00",
        "corrupted: error 0x0000",
        "use of a program whose load failed: error 0x0502",
    ] {
        assert!(
            expected.contains(line),
            "native: no `{line}` in:\n{expected}"
        );
    }
    for backend in BACKENDS {
        let got = transcript(Some(backend));
        for (n, (want, have)) in expected.lines().zip(got.lines()).enumerate() {
            assert_eq!(have, want, "{backend}: line {}:\n{got}", n + 1);
        }
        assert_eq!(
            got.lines().count(),
            expected.lines().count(),
            "{backend}:\n{got}"
        );
    }
}

#[test]
fn backend_events_reach_the_log_and_a_drain_logs_at_most_its_cap() {
    // GLES only: the out-of-memory event is the GLES backend's (31-bit buffer sizes).
    let tessera = run("tessera-backend-events", Some("gles"));
    let out = text(&tessera.stdout);
    let err = text(&tessera.stderr);
    assert!(tessera.status.success(), "{out}\n{err}");
    assert!(out.contains("rounds 100 burst 100 error 0"), "{out}");
    let (phase1, phase2) = err.split_once("phase 2\n").expect("the phases");
    let words = "tessera: backend: out of memory: a 3221225472-byte buffer";
    let count = |log: &str| log.lines().filter(|l| l.starts_with(words)).count();
    // Each glFlush drained its event: every one reached the log, with its words.
    assert_eq!(count(phase1), 100, "{phase1}");
    // One glFinish found 100: the newest 64 are logged, the 36 older counted in one line.
    assert_eq!(count(phase2), 64, "{phase2}");
    assert!(
        phase2.contains(
            "tessera: backend: 36 older events dropped (more than 64 since the last flush)"
        ),
        "{phase2}"
    );
}

//! Configuration: an explicit struct for embedders, environment variables as the fallback.
//!
//! Each variable is parsed by one function that accepts aliases and warns about unknown
//! values (wgpu's `parse_backends_from_comma_list` is the model).

use tessera_wire::TransportKind;

/// Which backend applies the records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// Validates and counts records, draws nothing (tests, frontend measurements).
    Null,
    /// The native OpenGL ES driver through EGL.
    Gles,
    /// Vulkan.
    Vulkan,
    /// A hardware Vulkan device, else a hardware GLES driver, else the faster software
    /// driver (GLES on llvmpipe before Vulkan on lavapipe); see [`crate::auto`].
    Auto,
}

impl BackendKind {
    /// Parses a `TESSERA_BACKEND` value (case-insensitive, with aliases).
    pub fn parse(value: &str) -> Option<Self> {
        match value.trim().to_ascii_lowercase().as_str() {
            "null" | "none" | "noop" => Some(Self::Null),
            "gles" | "gl" | "opengles" | "es" => Some(Self::Gles),
            "vulkan" | "vk" => Some(Self::Vulkan),
            "auto" | "default" | "" => Some(Self::Auto),
            _ => None,
        }
    }

    /// The canonical name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Gles => "gles",
            Self::Vulkan => "vulkan",
            Self::Auto => "auto",
        }
    }

    /// Reads `TESSERA_BACKEND`, warning about an unknown value; `auto` when unset.
    pub fn from_env() -> Self {
        match std::env::var("TESSERA_BACKEND") {
            Ok(v) => Self::parse(&v).unwrap_or_else(|| {
                log::warn!(
                    "TESSERA_BACKEND={v:?} is not one of null, gles, vulkan, auto; using auto"
                );
                Self::Auto
            }),
            Err(_) => Self::Auto,
        }
    }
}

/// The default framebuffer of a context: an offscreen surface.
///
/// A host that shows frames in its own window binds the window instead
/// (`tessera_capi::host::WindowSurface`); one that takes frames as images exports the
/// surface ([`Context::export_surface`](crate::Context::export_surface)) after each
/// [`swap_buffers`](crate::Context::swap_buffers).
///
/// ```
/// use tessera_engine::gl::*;
/// use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
///
/// let config = Config {
///     backend: BackendKind::Null,
///     surface: Some(SurfaceConfig { samples: 4, ..SurfaceConfig::new(320, 200) }),
///     ..Config::default()
/// };
/// let mut ctx = Context::new(&config).unwrap();
/// let mut viewport = [0; 4];
/// ctx.get_integerv(VIEWPORT, &mut viewport);
/// assert_eq!(viewport, [0, 0, 320, 200]);
/// let mut samples = [0];
/// ctx.get_integerv(SAMPLES, &mut samples);
/// assert_eq!(samples, [4]);
/// ctx.swap_buffers(); // a frame boundary: the backend presents the surface
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfaceConfig {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Whether it has a 24-bit depth and 8-bit stencil buffer.
    pub depth_stencil: bool,
    /// Samples per pixel (0: single-sampled).
    pub samples: u8,
}

impl SurfaceConfig {
    /// An RGBA8 surface with depth and stencil.
    pub fn new(width: u32, height: u32) -> Self {
        Self {
            width,
            height,
            depth_stencil: true,
            samples: 0,
        }
    }
}

/// How to create a context.
///
/// `Config::default()` is what a host embedding Tessera wants: the `auto` backend (a
/// hardware Vulkan device, else a hardware GLES driver, else the faster software driver), in
/// process, a 64x64 offscreen surface. Name [`BackendKind::Null`] to run the frontend alone.
///
/// ```
/// use tessera_engine::gl::*;
/// use tessera_engine::pixel::PixelsMut;
/// use tessera_engine::{Config, Context};
///
/// let mut ctx = Context::new(&Config::default()).expect("a Vulkan or GLES driver");
/// ctx.clear_color(0.0, 1.0, 0.0, 1.0);
/// ctx.clear(COLOR_BUFFER_BIT);
/// let mut pixel = [0u8; 4];
/// ctx.read_pixels(0, 0, 1, 1, RGBA, UNSIGNED_BYTE, PixelsMut::Bytes(&mut pixel));
/// assert_eq!(pixel, [0, 255, 0, 255]);
/// assert_eq!(ctx.get_error(), NO_ERROR);
/// ```
#[derive(Clone, Debug)]
pub struct Config {
    /// Backend (default: [`BackendKind::Auto`]).
    pub backend: BackendKind,
    /// Transport between the engine and the backend.
    pub transport: TransportKind,
    /// The server device a process transport's session asks for: its index, UUID or name
    /// (else `TESSERA_DEVICE`; `None`: the server's placement policy decides). A server
    /// without such a device refuses the context, naming the devices it has.
    pub device: Option<String>,
    /// The default framebuffer (`None`: surfaceless).
    pub surface: Option<SurfaceConfig>,
    /// CSOs kept per kind before the least recently used are destroyed.
    pub cso_capacity: usize,
    /// Keep every batch the null backend receives (tests of record streams).
    pub capture: bool,
    /// The window-system connection of the display the context is made on, when it is a
    /// window platform's: an in-process GLES backend makes its EGL display on it, so it can
    /// present the display's windows itself (`tessera_backend_gles`'s `present` module).
    pub native_display: Option<tessera_wire::backend::NativeDisplay>,
    /// A GL version to report and grant whatever the backend carries out (`None`: the
    /// highest version whose features are all advertised; `crate::version`). For running
    /// a conformance suite's tests of a version before all of it is there, as Mesa's
    /// `MESA_GL_VERSION_OVERRIDE`: the extension list does not change with it.
    pub gl_version: Option<crate::version::GlVersion>,
    /// A `GL_KHR_no_error` context (`crate::no_error`): its calls skip the checks that only
    /// decide GL errors, and `glGetError` answers `NO_ERROR` but for `OUT_OF_MEMORY`.
    pub no_error: bool,
    /// The persistent cache (`tessera_cache`: compiled shaders, translations, native
    /// program binaries, pipeline caches) for this process, set when a context is created
    /// with it, before its backend (`None`: `TESSERA_CACHE`, `TESSERA_CACHE_DIR` and
    /// `TESSERA_CACHE_SIZE` decide, `$XDG_CACHE_HOME/tessera` by default; a server process
    /// has its own).
    pub cache: Option<tessera_cache::Settings>,
    /// A file the share group's record stream is captured into (`TESSERA_CAPTURE`; see
    /// `tessera_wire::capture`): every batch with its stage bytes, from the context's
    /// creation, for `tessera-replay`. `None`: no capture, at no cost.
    pub capture_file: Option<std::path::PathBuf>,
    /// The frames a capture holds (`TESSERA_CAPTURE_FRAMES=N..M`, both ends included; all by
    /// default): from frame `N` on, the state the frames before built written as records
    /// first, so that the capture replays alone.
    pub capture_frames: std::ops::RangeInclusive<u64>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            backend: BackendKind::Auto,
            transport: TransportKind::Inproc,
            device: None,
            surface: Some(SurfaceConfig::new(64, 64)),
            cso_capacity: tessera_systems::cso::DEFAULT_CSO_CAPACITY,
            capture: false,
            native_display: None,
            gl_version: None,
            no_error: false,
            cache: None,
            capture_file: None,
            capture_frames: tessera_wire::capture::ALL_FRAMES,
        }
    }
}

impl Config {
    /// The configuration the environment asks for (`TESSERA_BACKEND`, default `auto`;
    /// `TESSERA_TRANSPORT`, default `inproc`; `TESSERA_GL_VERSION`, unset by default;
    /// `TESSERA_CAPTURE`, unset by default; `TESSERA_CAPTURE_FRAMES`, every frame by default).
    pub fn from_env() -> Self {
        Self {
            backend: BackendKind::from_env(),
            transport: TransportKind::from_env(),
            gl_version: gl_version_from_env(),
            capture_file: std::env::var_os(tessera_wire::capture::VAR)
                .filter(|v| !v.is_empty())
                .map(std::path::PathBuf::from),
            capture_frames: capture_frames_from_env(),
            ..Self::default()
        }
    }
}

impl Config {
    /// Sets up the process's persistent cache as [`Config::cache`] says, if it says.
    pub(crate) fn configure_cache(&self) {
        if let Some(settings) = &self.cache {
            tessera_cache::configure(settings);
        }
    }
}

/// Reads `TESSERA_GL_VERSION` (`"4.3"`), warning about a value that names no version
/// Tessera knows (3.3 to 4.6).
fn gl_version_from_env() -> Option<crate::version::GlVersion> {
    let v = std::env::var("TESSERA_GL_VERSION").ok()?;
    let version = crate::version::GlVersion::parse(&v);
    if version.is_none() {
        log::warn!("TESSERA_GL_VERSION={v:?} is not one of 3.3 and 4.0 to 4.6; ignored");
    }
    version
}

/// `TESSERA_CAPTURE_FRAMES`, every frame when unset or unreadable (said in the log).
fn capture_frames_from_env() -> std::ops::RangeInclusive<u64> {
    use tessera_wire::capture::{ALL_FRAMES, FRAMES_VAR, parse_frames};
    match std::env::var(FRAMES_VAR) {
        Ok(v) if !v.is_empty() => parse_frames(&v).unwrap_or_else(|| {
            log::warn!("tessera: {FRAMES_VAR}={v:?} is not N..M, N.. or N: capturing every frame");
            ALL_FRAMES
        }),
        _ => ALL_FRAMES,
    }
}

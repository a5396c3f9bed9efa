//! # tessera-backend-gles
//!
//! The native-GLES backend: pipe records onto an OpenGL ES 3.0+ driver through EGL. It
//! depends on `tessera-wire` and third-party crates only, never on the GL frontend
//! (`components`, `systems`, `engine`): a server process can be built without the engine, and
//! `tests/` checks that from `cargo metadata`.
//!
//! ## How it works
//! - **Loading** (`egl.rs`, `glvnd.rs`): the driver's libglvnd vendor library
//!   (`libEGL_mesa.so.0`, found through libglvnd's vendor JSON files and talked to through
//!   its `__egl_Main`), or where there is no libglvnd the system `libEGL.so.1` by full path;
//!   always with `RTLD_LOCAL`, so a process that loaded Tessera's drop-in `libEGL` or made
//!   Tessera libglvnd's vendor never gets Tessera back. GL entry points come from that EGL's
//!   `eglGetProcAddress` into glow. One surfaceless ES 3.2 (else 3.1, else 3.0) context per
//!   backend; in process on a window platform's display, on an EGL display of the program's
//!   X connection, so the backend can present windows through native EGL window surfaces
//!   (`present.rs`, [`GlesOptions::native_display`], `TESSERA_GLES_PRESENT`).
//! - **Objects** (`device.rs`, `texture.rs`, `framebuffer.rs`, `program.rs`, `query.rs`): one
//!   dense table per handle kind; every lookup checks the handle again (a stale or unknown
//!   handle ends the session with a [`SessionError`], never a panic). Formats and texture
//!   kinds GLES lacks get stand-ins (`conv.rs`), and pixel data is converted on the CPU when
//!   GLES cannot take or give the layout asked for (`pixel.rs`); `GL_BGRA` vertex attributes
//!   read converted copies of their buffers (`vertex.rs`). Programs arrive as SPIR-V and are
//!   translated to GLSL ES by SPIRV-Cross (after `spirv.rs` adds the sampler LOD bias, which
//!   GLES samplers lack), then linked and cached by the hash of their code.
//! - **A host's context** (`host.rs`, [`GlesBackend::with_host_context`]): the context is
//!   made on the host's display in its share group, and hands textures over as native
//!   textures of that group ([`HostEgl`] has the contract).
//! - **State** (`command.rs`, `shadow.rs`): the dispatcher stores `Bind*`/`Set*` records in
//!   the current Tessera context's desired state, and the backend marks the groups they
//!   changed dirty; verbs reconcile the native state against a shadow of it and call GL only
//!   for what differs (ANGLE's `StateManagerGL`). Nothing on a draw calls `glGet*` or
//!   `glGetError`.
//! - **Records**: what each record means to the driver, as the domain traits of
//!   `tessera_wire::dispatch` (together the `Pipe` the dispatcher drives), each implemented
//!   in the file of its domain: `ContextPipe` (contexts, state records, the per-record debug
//!   check, events at the end of a batch) and `CsoPipe` in `queue.rs`, `BufferPipe` in
//!   `device.rs`, `TexturePipe` in `texture.rs`, `FramebufferPipe` in `framebuffer.rs`,
//!   `ProgramPipe` in `program.rs`, `DrawPipe` in `command.rs`, `ComputePipe` in
//!   `compute.rs`, `QueryPipe` in `query.rs`.
//!   The dispatcher in `tessera-wire` decodes each record, checks its spans and handles,
//!   keeps the contexts and files replies.
//!
//! ## What GLES lacks
//! Desktop state GLES does not have (polygon mode, logic ops, depth clamp without
//! `EXT_depth_clamp`, line smoothing, ...) is ignored and reported once per session as
//! [`Event::Unsupported`](tessera_wire::Event::Unsupported); formats and texture kinds get
//! stand-ins (see `conv.rs`). GLES has no provoking-vertex control either (flat values come
//! from a primitive's last vertex): under `FIRST_VERTEX_CONVENTION`, a draw whose fragment
//! stage reads flat values from the vertex stage draws its vertices as a list of primitives
//! each rotated to end with its first vertex (`conv::first_vertex_list`, from a temporary
//! element buffer); flat values from a geometry stage, or a draw transform feedback
//! captures, keep the last vertex's values and are reported. The default convention (last
//! vertex) costs a draw one flag test. [`GlesOptions`] can hide the driver's extensions and
//! newer ES versions, which is how the fallback paths are tested on a full driver.
//!
//! ## Safety
//! Every GL call in this crate is `unsafe` (glow's and the C API's contract). They all rely
//! on one invariant, established here: **the backend's context is current on the calling
//! thread** whenever a method that calls GL runs. [`GlesBackend::new`] makes it current to
//! set things up and releases it; [`Backend::apply`] makes it current on the applying thread
//! before the first record of each batch (a thread-id compare when it already is). Each
//! `// SAFETY:` comment names what else the call needs (live names from the tables, bound
//! objects, sizes checked against buffers).
//!
//! ## What it must never do
//! Decide a GL error (the engine did), trust a record (every span and handle is checked),
//! or block a frame outside the replies that ask for it.

#![expect(
    unsafe_code,
    reason = "EGL, GLES (through glow) and SPIRV-Cross are C APIs loaded at run time"
)]

mod block_padding;
mod census;
mod command;
mod compute;
mod condition;
mod conv;
mod device;
pub mod discover;
mod egl;
mod egl_image;
mod framebuffer;
mod glvnd;
mod host;
mod image_lowering;
mod image_unit;
mod indirect;
mod multi_draw;
mod narrow;
mod pixel;
mod present;
mod program;
mod query;
mod queue;
mod shadow;
mod spirv;
mod streams;
mod texture;
mod texture_clear;
mod texture_query;
mod vertex;
mod xfb;

use std::ffi::{CStr, c_void};
use std::thread::ThreadId;

use tessera_wire::backend::{NativeDisplay, NativeTarget};
use tessera_wire::dispatch::Dispatcher;
use tessera_wire::env;
use tessera_wire::handle::SurfaceHandle;
use tessera_wire::{Backend, BackendCounters, BatchView, Caps, Outbox, SessionError};

pub use crate::host::HostEgl;
pub use crate::present::PresentChoice;

use crate::command::GlesContext;
use crate::device::{ExtraFns, Features, GlesPipe};
use crate::egl::Egl;
use crate::program::SpirvCross;

/// Why a GLES backend could not be created.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateBackendError {
    /// No native EGL library could be opened.
    #[error(
        "no native EGL (a libglvnd vendor library or libEGL.so.1) could be loaded (set TESSERA_NATIVE_EGL to its full path): {tried}"
    )]
    LoadEgl {
        /// What was tried, and why each failed.
        tried: String,
    },
    /// A library lacks an entry point the backend needs.
    #[error("{library} lacks {symbol}")]
    MissingSymbol {
        /// The library's path.
        library: String,
        /// The missing symbol.
        symbol: &'static str,
    },
    /// No EGL display could be initialised.
    #[error(
        "eglInitialize failed on the surfaceless and the default display (EGL error {error:#x})"
    )]
    Initialize {
        /// The last EGL error.
        error: i32,
    },
    /// The host's display is not one of the native EGL's, or could not be initialised
    /// ([`GlesBackend::with_host_context`]).
    #[error("the host's EGLDisplay is not one of the native EGL's (EGL error {error:#x})")]
    HostDisplay {
        /// The EGL error.
        error: i32,
    },
    /// The native EGL has no OpenGL ES API.
    #[error("the native EGL does not offer the OpenGL ES API (eglBindAPI failed)")]
    NoGlesApi,
    /// The native EGL lacks an extension the backend needs.
    #[error("the native EGL lacks {extension}")]
    MissingExtension {
        /// The extension.
        extension: &'static str,
    },
    /// No OpenGL ES 3.x context could be created.
    #[error("no OpenGL ES 3.2, 3.1 or 3.0 context could be created (EGL error {error:#x})")]
    CreateContext {
        /// The last EGL error.
        error: i32,
    },
    /// The context could not be made current.
    #[error("eglMakeCurrent failed (EGL error {error:#x})")]
    MakeCurrent {
        /// The EGL error.
        error: i32,
    },
    /// The driver's GLES is older than 3.0.
    #[error("the native driver offers {version:?}; OpenGL ES 3.0 is the minimum")]
    TooOld {
        /// Its `GL_VERSION`.
        version: String,
    },
    /// SPIRV-Cross's C library could not be loaded.
    #[error("libspirv-cross-c-shared.so.0 (SPIRV-Cross's C API) could not be loaded: {reason}")]
    LoadSpirvCross {
        /// Why.
        reason: String,
    },
}

/// The native-GLES backend.
pub struct GlesBackend {
    dev: GlesPipe,
    dispatcher: Dispatcher<GlesContext>,
    /// The thread the EGL context is current on, if any.
    thread: Option<ThreadId>,
    /// The context shares objects with a host's ([`GlesBackend::with_host_context`]): they
    /// outlive the context, so the backend deletes its own before destroying it.
    hosted: bool,
    // Declared last: dropped after `dev`, whose objects die with the context.
    egl: Egl,
}

impl Drop for GlesBackend {
    /// Asks the driver which of the objects the census counts live the context still
    /// holds (`census.rs`), then counts them released: every GL object of the backend lives
    /// in its own context, which the `egl` field destroys right after `dev`. A context in a
    /// host's share group (`host.rs`) would leave the shareable ones to the group: those are
    /// deleted first.
    fn drop(&mut self) {
        let _serial = self.egl.serial();
        if self.make_current().is_ok() {
            if self.hosted {
                // The host's context keeps the share group alive: what is Tessera's goes now.
                self.dev.gl.delete_shared();
            }
            let check = self.dev.gl.driver_check();
            log::debug!(
                "tessera-backend-gles: at teardown the context holds {} (the driver confirms \
                 {}, {} never bound); they go with it",
                check.counted,
                check.held,
                check.unconfirmed
            );
        }
        self.dev.gl.released_with_context();
    }
}

// SAFETY: the backend holds EGL handles (raw pointers) and GL object names, which are not
// tied to the creating thread: EGL lets a context be made current on any thread once no
// other thread has it current. `new` releases the context before returning, and every
// method that calls GL runs inside `apply` (or `new`), which first makes the context current
// on the calling thread. `&mut self` on `apply` means one thread at a time; `Drop` releases
// the context only if it is current on the dropping thread and otherwise lets EGL defer the
// destruction. So moving the backend to another thread (the `thread` transport creates it on
// one and applies on another) never lets two threads use the context at once.
unsafe impl Send for GlesBackend {}

/// Choices the driver does not make for the backend.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GlesOptions {
    /// `glGetError` after every record, reported as events (`TESSERA_GLES_DEBUG=1`).
    pub debug: bool,
    /// Use at most OpenGL ES 3.`max_minor` features even if the context offers more
    /// (`TESSERA_GLES_VERSION=3.0|3.1|3.2`): how the ES 3.0 paths are tested on a 3.2 driver.
    pub max_minor: Option<u8>,
    /// Use no extension even if the driver has it (`TESSERA_GLES_EXTENSIONS=none`): every
    /// fallback path (CPU RGTC decode, float stand-ins for 16-bit norm, ...) runs.
    pub ignore_extensions: bool,
    /// The program's window-system connection, for a backend in its process: the backend
    /// makes its EGL display on it, so it can present the connection's windows itself
    /// (`Backend::attach_window`), unless `present` is [`PresentChoice::Client`].
    pub native_display: Option<NativeDisplay>,
    /// Who shows window frames (`TESSERA_GLES_PRESENT`; `None`: `auto`).
    pub present: Option<PresentChoice>,
    /// Accept doubles and compute them as floats (`TESSERA_GLES_FP64=narrow`): OpenGL ES has
    /// none, so without this the backend claims no `GL_ARB_gpu_shader_fp64` (`narrow.rs`
    /// says what is narrowed).
    pub narrow_fp64: bool,
    /// Give every program its default uniform block in a uniform buffer, as a block whose
    /// members mix floats and integers is given (`TESSERA_GLES_UNIFORMS=buffer`), instead
    /// of as plain uniforms where it can be (`program.rs`'s `PlainUniforms`): how the
    /// buffer path is tested and measured with any program.
    pub uniform_buffer: bool,
}

impl GlesOptions {
    /// Reads `TESSERA_GLES_DEBUG`, `TESSERA_GLES_VERSION`, `TESSERA_GLES_EXTENSIONS`,
    /// `TESSERA_GLES_FP64` and `TESSERA_GLES_UNIFORMS`,
    /// warning about values it does not know (they leave the default).
    pub fn from_env() -> Self {
        let debug = env::switch("TESSERA_GLES_DEBUG", "debug checks stay off");
        let max_minor = match env::value("TESSERA_GLES_VERSION").as_deref() {
            None | Some("") => None,
            Some("3.0" | "3" | "300") => Some(0),
            Some("3.1" | "310") => Some(1),
            Some("3.2" | "320") => Some(2),
            Some(other) => {
                log::warn!("TESSERA_GLES_VERSION={other:?} is not 3.0, 3.1 or 3.2: ignored");
                None
            }
        };
        let ignore_extensions = env::choice(
            "TESSERA_GLES_EXTENSIONS",
            &["none", "off", "0"],
            &["all", "native"],
            "none/all",
            "ignored",
        );
        let narrow_fp64 = env::choice(
            "TESSERA_GLES_FP64",
            &["narrow", "float", "32"],
            &["none", "off", "0"],
            "narrow/none",
            "doubles stay unsupported",
        );
        let uniform_buffer = env::choice(
            "TESSERA_GLES_UNIFORMS",
            &["buffer"],
            &["plain"],
            "plain/buffer",
            "default blocks become plain uniforms where they can",
        );
        Self {
            debug,
            max_minor,
            ignore_extensions,
            narrow_fp64,
            uniform_buffer,
            native_display: None,
            present: Some(PresentChoice::from_env()),
        }
    }
}

impl GlesBackend {
    /// Loads the native EGL and SPIRV-Cross, creates the context and reads its limits, with
    /// the options of the environment ([`GlesOptions::from_env`]).
    pub fn new() -> Result<Self, CreateBackendError> {
        Self::with_options(&GlesOptions::from_env())
    }

    /// [`GlesBackend::new`] with explicit options.
    pub fn with_options(options: &GlesOptions) -> Result<Self, CreateBackendError> {
        Self::create(options, None)
    }

    /// A backend whose context is made on the host's EGL display and shares objects with
    /// the host's context, so it hands textures to the host as native textures of that
    /// share group (`tessera_engine::Context::hand_over_gl_texture`); the options of the
    /// environment, and no window presentation (the host shows the frames). [`HostEgl`]
    /// has the contract (versions, threads, synchronisation, ownership).
    pub fn with_host_context(host: HostEgl) -> Result<Self, CreateBackendError> {
        let options = GlesOptions {
            native_display: None,
            present: Some(PresentChoice::Client),
            ..GlesOptions::from_env()
        };
        Self::create(&options, Some(host))
    }

    /// A backend with `options`, on the host's display when given one.
    fn create(options: &GlesOptions, host: Option<HostEgl>) -> Result<Self, CreateBackendError> {
        // Creation calls the driver before it is known: serialised whatever it is (egl.rs).
        let _serial = egl::Serial::lock();
        let choice = options.present.unwrap_or(PresentChoice::Auto);
        let window_system = options
            .native_display
            .filter(|_| choice != PresentChoice::Client);
        let mut egl = match host {
            Some(host) => Egl::on_host(host)?,
            None => Egl::new(window_system)?,
        };
        if window_system.is_some() && egl.window_egl().is_none() {
            let level = if choice == PresentChoice::Native {
                log::Level::Warn
            } else {
                log::Level::Info
            };
            log::log!(
                level,
                "tessera-backend-gles: TESSERA_GLES_PRESENT={choice:?}: the backend cannot \
                 present windows on this EGL; the client shows their frames"
            );
        }
        let id = egl.identity()?;
        egl.serialise_for(&id.renderer);
        let loader = |name: &CStr| -> *const c_void {
            if let Some(alias) = egl::entry_point_alias(name, &id) {
                let p = egl.proc_address(&alias);
                if !p.is_null() {
                    return p;
                }
            }
            egl.proc_address(name)
        };
        // SAFETY: the context is current on this thread (Egl::new), as glow's constructor
        // requires (it queries GL_VERSION and the extensions); the loader returns entry
        // points of this context's driver, or NULL.
        let gl = unsafe { glow::Context::from_loader_function_cstr(loader) };
        let gl = census::CountedGl::new(gl, loader);
        let minor = options.max_minor.map_or(id.minor, |m| m.min(id.minor));
        let none = std::collections::HashSet::new();
        let extensions = if options.ignore_extensions {
            &none
        } else {
            &id.extensions
        };
        let features = Features::detect(minor, extensions);
        let load = |name: &CStr, present: bool| {
            let p = if present {
                loader(name)
            } else {
                std::ptr::null()
            };
            (!p.is_null()).then_some(p)
        };
        let multi_draw = extensions.contains("GL_EXT_multi_draw_arrays");
        // SAFETY: each pointer is the entry point of that name (resolved only when the
        // version or extension that defines it is present), transmuted to the C signature
        // the ES 3.2 specification gives it.
        let extra = unsafe {
            ExtraFns {
                min_sample_shading: load(c"glMinSampleShading", features.sample_shading)
                    .map(|p| std::mem::transmute::<*const c_void, device::MinSampleShading>(p)),
                polygon_offset_clamp: load(
                    c"glPolygonOffsetClampEXT",
                    features.polygon_offset_clamp,
                )
                .map(|p| std::mem::transmute::<*const c_void, device::PolygonOffsetClampFn>(p)),
                clip_control: load(c"glClipControlEXT", features.clip_control)
                    .map(|p| std::mem::transmute::<*const c_void, device::ClipControlFn>(p)),
                viewport_arrays: match (
                    load(c"glViewportArrayvOES", features.viewport_array),
                    load(c"glDepthRangeArrayfvOES", features.viewport_array),
                    load(c"glScissorArrayvOES", features.viewport_array),
                ) {
                    (Some(v), Some(d), Some(s)) => Some(device::ViewportArrayFns {
                        viewports: std::mem::transmute::<*const c_void, device::FloatArrayFn>(v),
                        depth_ranges: std::mem::transmute::<*const c_void, device::FloatArrayFn>(d),
                        scissors: std::mem::transmute::<*const c_void, device::ScissorArrayFn>(s),
                    }),
                    _ => None,
                },
                sample_maski: load(c"glSampleMaski", features.minor >= 1)
                    .map(|p| std::mem::transmute::<*const c_void, device::SampleMaski>(p)),
                framebuffer_parameteri: load(c"glFramebufferParameteri", features.minor >= 1).map(
                    |p| std::mem::transmute::<*const c_void, device::FramebufferParameteri>(p),
                ),
                tex_buffer_range: load(c"glTexBufferRange", features.texture_buffer)
                    .map(|p| std::mem::transmute::<*const c_void, device::TexBufferRange>(p)),
                tex_storage_3d_multisample: load(
                    c"glTexStorage3DMultisample",
                    features.multisample_array,
                )
                .map(|p| std::mem::transmute::<*const c_void, device::TexStorage3DMultisample>(p)),
                texture_view: match features.texture_view {
                    Some("glTextureViewEXT") => load(c"glTextureViewEXT", true),
                    Some(_) => load(c"glTextureViewOES", true),
                    None => None,
                }
                .map(|p| std::mem::transmute::<*const c_void, device::TextureViewFn>(p)),
                multi_draw: match (
                    load(c"glMultiDrawArraysEXT", multi_draw),
                    load(c"glMultiDrawElementsEXT", multi_draw),
                ) {
                    (Some(a), Some(e)) => Some(device::MultiDrawFns {
                        arrays: std::mem::transmute::<*const c_void, device::MultiDrawArraysFn>(a),
                        elements: std::mem::transmute::<*const c_void, device::MultiDrawElementsFn>(
                            e,
                        ),
                        elements_base_vertex: load(
                            c"glMultiDrawElementsBaseVertexEXT",
                            features.base_vertex,
                        )
                        .map(|p| {
                            std::mem::transmute::<
                                *const c_void,
                                device::MultiDrawElementsBaseVertexFn,
                            >(p)
                        }),
                    }),
                    _ => None,
                },
            }
        };
        let spirv_cross = SpirvCross::load()?;
        let mut dev = GlesPipe::new(gl, features, extra, id.renderer.clone(), spirv_cross);
        dev.debug = options.debug;
        dev.narrow_fp64 = options.narrow_fp64;
        dev.plain_uniforms = !options.uniform_buffer;
        // Narrowed doubles: shaders and the default block's doubles, nothing a buffer holds.
        dev.caps.fp64 = options.narrow_fp64;
        dev.caps.fp64_narrowed = options.narrow_fp64;
        // On a software rasterizer (llvmpipe) the driver's own X11 presentation is several
        // times slower than the client path's MIT-SHM (measured with scripts/bench-window:
        // 1280x720 clear-and-swap 40-90 fps against 420-1,000), so `auto` presents
        // natively only on hardware drivers, as the Vulkan backend does.
        let native = match choice {
            PresentChoice::Auto => !env::is_software_renderer(&id.renderer),
            PresentChoice::Native => true,
            PresentChoice::Client => false,
        };
        if !native && egl.window_egl().is_some() {
            log::info!(
                "tessera-backend-gles: {} is a software rasterizer: the client shows window \
                 frames (TESSERA_GLES_PRESENT=native presents them here)",
                id.renderer
            );
        }
        dev.presenters = present::Presenters::new(egl.window_egl().filter(|_| native));
        dev.egl_images = egl.image_egl(&id);
        dev.caps.egl_images = dev.egl_images.is_some();
        // The hand-over copies with glCopyImageSubData (ES 3.2).
        dev.caps.host_textures = host.is_some() && dev.features.minor >= 2;
        // Let whichever thread applies make it current.
        egl.release();
        Ok(Self {
            dev,
            dispatcher: Dispatcher::new(),
            thread: None,
            hosted: host.is_some(),
            egl,
        })
    }

    /// Turns the debug checks on or off ([`GlesOptions::debug`]): `glGetError` after every
    /// record, each error reported as [`Event::NativeError`](tessera_wire::Event::NativeError).
    /// Costs a driver round trip per record.
    pub fn set_debug_checks(&mut self, on: bool) {
        self.dev.debug = on;
    }

    /// A session with several GL contexts may be driven from several threads at once (in
    /// process, two contexts of one share group on two threads take turns at the
    /// backend under the group's lock), and a native context is current on one thread at a
    /// time: so such a session releases its native context after every call into the
    /// driver, and the next call, on whichever thread, makes it current again. A session
    /// with one context keeps it current (it moves threads only at `release_thread`).
    fn roam(&mut self) {
        if self.dispatcher.context_count() > 1 && self.thread.is_some() {
            self.dev.presenters.forget_current();
            self.egl.release();
            self.thread = None;
        }
    }

    /// Makes the native context current on this thread unless it is. Asks EGL rather than
    /// trusting the thread it was last made current on: another backend of the process may
    /// have made its own context current on this thread since (several sessions on one
    /// thread, or a roaming session's teardown).
    fn make_current(&mut self) -> Result<(), SessionError> {
        let me = std::thread::current().id();
        if self.thread != Some(me) || !self.egl.is_current() {
            self.dev.presenters.forget_current();
            self.egl
                .make_current()
                .map_err(|e| SessionError::Backend(e.to_string()))?;
            self.thread = Some(me);
        }
        Ok(())
    }
}

/// The longest wait between two looks at pending fences ([`Backend::poll_fences`]).
const FENCE_POLL_SLICE: std::time::Duration = std::time::Duration::from_micros(200);

impl Backend for GlesBackend {
    fn caps(&self) -> Caps {
        self.dev.caps.clone()
    }

    fn apply(&mut self, batch: BatchView<'_>, out: &mut Outbox) -> Result<(), SessionError> {
        // On llvmpipe, one backend of the process calls the driver at a time (egl.rs).
        let _serial = self.egl.serial();
        // A native context that cannot be made current (EGL_CONTEXT_LOST, or a lost device
        // behind it) ends the session: reported as a lost device, which the program sees as
        // a context reset.
        let current = if self.dev.faults.lose() {
            Err(SessionError::Backend(
                "eglMakeCurrent: EGL_CONTEXT_LOST (injected by TESSERA_FAULT)".into(),
            ))
        } else {
            self.make_current()
        };
        if let Err(e) = current {
            out.events.push(tessera_wire::Event::DeviceLost {
                reason: e.to_string(),
            });
            return Err(e);
        }
        let applied = self.dispatcher.apply(&mut self.dev, batch, out);
        out.detached.append(&mut self.dev.presenters.detached);
        self.roam();
        applied
    }

    /// Looks at the pending fences in slices: each look holds the driver lock (on
    /// llvmpipe) only for a zero-timeout `glClientWaitSync` per fence, and the waits
    /// between looks (at most [`FENCE_POLL_SLICE`]) hold nothing, so other backends of
    /// the process and other threads of this session go on meanwhile.
    fn poll_fences(&mut self, timeout_ns: u64, out: &mut Outbox) -> Result<bool, SessionError> {
        if !self.dispatcher.fences_pending() {
            return Ok(false);
        }
        let deadline =
            std::time::Instant::now().checked_add(std::time::Duration::from_nanos(timeout_ns));
        loop {
            let pending = {
                let _serial = self.egl.serial();
                self.make_current()?;
                let pending = self.dispatcher.poll_fences(&mut self.dev, 0, out);
                self.roam();
                pending?
            };
            let left = match deadline {
                Some(d) => d.saturating_duration_since(std::time::Instant::now()),
                None => FENCE_POLL_SLICE,
            };
            if !pending || left.is_zero() {
                return Ok(pending);
            }
            std::thread::sleep(left.min(FENCE_POLL_SLICE));
        }
    }

    fn counters(&self) -> Option<BackendCounters> {
        Some(BackendCounters {
            shaders_compiled: self.dev.program_cache.compiled,
            programs_linked: self.dev.program_cache.linked,
            pipelines_created: 0,
            native_objects: self.dev.gl.census().live().total(),
            device_memory: self.dev.memory,
        })
    }

    fn native_census(&self) -> Option<tessera_wire::census::NativeCensus> {
        Some(self.dev.gl.census().clone())
    }

    /// Releases the native context from this thread, so the next batch can make it current
    /// on another one (EGL lets a context be current on one thread at a time).
    fn release_thread(&mut self) {
        if self.thread == Some(std::thread::current().id()) {
            let _serial = self.egl.serial();
            self.dev.presenters.forget_current();
            self.egl.release();
            self.thread = None;
        }
    }

    fn attach_window(
        &mut self,
        surface: SurfaceHandle,
        window: Option<NativeTarget>,
        interval: i32,
    ) -> bool {
        if !self.dev.presenters.available() {
            return false;
        }
        // On llvmpipe, one backend of the process calls the driver at a time (egl.rs).
        let _serial = self.egl.serial();
        if self.make_current().is_err() {
            return false;
        }
        self.dev.attach_window(surface, window, interval)
    }
}

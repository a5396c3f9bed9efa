//! GL contexts.
//!
//! A [`Context`] is one GL context: its own binding tables, render state, dirty bits and the
//! record shadow of what its backend state is, plus a share of a [`ShareGroup`]. It is used by
//! one thread at a time (GL's current-context rule), so it is `Send` but not `Sync`, and its
//! state needs no lock; only objects and record emission go through the group's lock.
//!
//! The entry points live in the modules of their domain (`buffer`, `texture`, `draw`, …) as
//! `impl Context` blocks. Each validates its arguments first and raises exactly the error the
//! OpenGL 3.3 core specification names, leaving all state untouched on error.

use std::sync::Arc;

use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::names::NameTable;
use tessera_components::state::GlState;
use tessera_systems::EmittedState;
use tessera_systems::validate::{self, Validate};
use tessera_wire::format::Format;
use tessera_wire::handle::SurfaceHandle;
use tessera_wire::null::{NullBackend, NullProbe};
use tessera_wire::record::Record;
use tessera_wire::state::SurfaceDesc;
use tessera_wire::{Backend, TransportStats};

use crate::config::{BackendKind, Config};
use crate::limits::Limits;
use crate::share::{ShareGroup, Shared, SharedNames};

/// The default framebuffer of a context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Surface {
    /// Wire handle.
    pub handle: SurfaceHandle,
    /// Its images.
    pub desc: SurfaceDesc,
}

/// Counters of one context.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContextStats {
    /// Draw calls that reached the backend (not rejected, not empty).
    pub draws: u64,
}

/// Why a context could not be created.
#[derive(Debug, thiserror::Error)]
pub enum CreateContextError {
    /// The backend could not start.
    #[error("backend {backend} is unavailable: {reason}")]
    BackendUnavailable {
        /// Which backend.
        backend: &'static str,
        /// Why.
        reason: String,
    },
}

/// A context's own state: everything but the share group.
pub struct Local {
    /// Context id on the wire.
    pub id: u32,
    /// The sticky error flag (`NO_ERROR` when clear).
    pub error: GLenum,
    /// A `GL_KHR_no_error` context ([`Config::no_error`]): the one switch of
    /// `crate::no_error`.
    pub no_error: bool,
    /// Bindings and render state.
    pub st: GlState,
    /// Groups whose records are out of date.
    pub dirty: Dirty,
    /// Texture units whose bindings changed, bit per unit.
    pub dirty_units: u64,
    /// What the backend has for this context.
    pub shadow: EmittedState,
    /// Vertex array names (per context).
    pub vertex_arrays: NameTable,
    /// Framebuffer names (per context).
    pub framebuffers: NameTable,
    /// Query names (per context).
    pub queries: NameTable,
    /// Program pipeline names (per context, as GL 4.1 §7.4 has them: not shared).
    pub pipelines: NameTable,
    /// Transform feedback objects (per context, `crate::transform_feedback`): their names,
    /// the one bound, whether its capture is paused, and the default object, made when
    /// first needed.
    pub xfb: crate::transform_feedback::XfbObjects,
    /// The subroutine selected for each subroutine uniform location of each stage (GL 4.0
    /// §2.14.8), by [`ShaderStage`](tessera_wire::format::ShaderStage) (`crate::program::
    /// subroutine`).
    pub subroutines: [Vec<u32>; 6],
    /// The error a draw raises for the bound program pipeline (`NO_ERROR` while no
    /// pipeline draws or it is valid), set when the draw resolves the pipeline.
    pub pipeline_error: GLenum,
    /// The default framebuffer, if any.
    pub surface: Option<Surface>,
    /// The cached draw-time error of the framebuffer and the program (`NO_ERROR` if they
    /// let draws proceed; the vertex array's part is checked per draw); valid while
    /// `Dirty::DRAW_CHECK` is clear.
    pub draw_error: GLenum,
    /// The current program's geometry shader input primitive (`GEOMETRY_INPUT_TYPE`), if it
    /// has one; cached with `draw_error`.
    pub draw_gs_input: Option<GLenum>,
    /// Whether the current program has a tessellation evaluation stage (`Some`), and whether
    /// a geometry stage after it, if any, takes the primitive it generates; cached with
    /// `draw_gs_input`.
    pub draw_tess: Option<bool>,
    /// Whether the current program has an evaluation stage and no control stage, so its
    /// draws link it with the default control stage (`crate::tessellation`).
    pub draw_default_control: bool,
    /// Whether the current program has shader storage blocks, which its draws may write
    /// (cached with `draw_error`).
    pub draw_writes_storage: bool,
    /// The buffer that indices in client memory are copied into for the draw that reads
    /// them (`Context::with_client_indices`); held by the context, created on first use.
    pub client_indices: Option<bevy_ecs::entity::Entity>,
    /// Where the next copy into `client_indices` goes.
    pub client_indices_cursor: u64,
    /// Implementation limits.
    pub limits: Limits,
    /// Counters.
    pub stats: ContextStats,
    /// Whether `surface` was created for this context (from its [`Config`]) and is
    /// destroyed with it; an EGL surface bound with [`Context::bind_surface`] is not.
    pub owns_surface: bool,
    /// The window the default framebuffer is presented into, if it is a window's.
    pub window: Option<Box<crate::present::WindowLink>>,
    /// Whether the viewport and scissor box were set to a default framebuffer's size yet
    /// (GL does it the first time a context is made current with a drawable).
    pub viewport_initialized: bool,
    /// Whether the default framebuffer's draw and read buffers got the initial value of a
    /// context with a surface (`BACK`): at creation with one, or at the first
    /// [`Context::bind_surface`].
    pub default_buffers_initialized: bool,
    /// `CLAMP_READ_COLOR` (`glClampColor`).
    pub clamp_read_color: GLenum,
    /// The query and mode of an active `glBeginConditionalRender`.
    pub conditional_render: Option<(bevy_ecs::entity::Entity, GLenum)>,
    /// `CONTEXT_FLAGS`: the flags the context was created with (`crate::egl::ContextAttribs`).
    pub context_flags: GLenum,
    /// `RESET_NOTIFICATION_STRATEGY` the context was created with (`crate::robustness`).
    pub reset_strategy: GLenum,
    /// Debug output, groups and filters, the message log (`crate::debug`).
    pub debug: Box<crate::debug::DebugState>,
    /// The entry point being called (`Context::enter`), named in error messages; empty
    /// when the Rust API is called directly.
    pub call: &'static str,
    /// The version [`Config::gl_version`] claims, reported instead of the one the backend
    /// carries out (`crate::version`).
    pub version_override: Option<crate::version::GlVersion>,
    /// The texture a direct-state-access call names (`crate::direct_state`): while the
    /// body it shares with the bound form runs, it stands for the texture bound to its
    /// target (`Local::bound_texture`); `None` otherwise.
    pub named_texture: Option<bevy_ecs::entity::Entity>,
    /// The client memory of the last mapping this context unmapped (at most
    /// `crate::buffer::SPARE_MAX` bytes), which the next mapping reuses: a stream buffer
    /// mapped and unmapped per draw allocates nothing.
    pub map_spare: Option<Box<[u8]>>,
    /// An export in progress asked for a `sync_file` fence (`crate::export_fence`).
    pub export_fences: bool,
    /// The token under which the backend leaves that export's fence (0: none asked).
    pub export_fence: u64,
}

impl Local {
    /// Records `error` unless an earlier error is still unread (GL keeps the first), and
    /// reports it as a debug message (each one, also when an earlier one is unread). A
    /// no-error context keeps only `OUT_OF_MEMORY` (`crate::no_error`).
    #[cold]
    #[track_caller]
    pub fn set_error(&mut self, error: GLenum) {
        if self.no_error && error != OUT_OF_MEMORY {
            return;
        }
        self.debug
            .error(error, self.call, std::panic::Location::caller());
        if self.error == NO_ERROR {
            self.error = error;
        }
    }

    /// Marks groups dirty.
    #[inline]
    pub fn touch(&mut self, groups: Dirty) {
        self.dirty |= groups;
    }

    /// The surface behind the default framebuffer.
    pub fn surface_handle(&self) -> Option<SurfaceHandle> {
        self.surface.map(|s| s.handle)
    }

    /// Runs the validation systems a verb needs (`mask`), emitting records into the group's
    /// encoder.
    #[inline]
    pub fn validate(&mut self, sh: &mut Shared, mask: Dirty) {
        if (self.dirty & mask).difference(Dirty::DRAW_CHECK).is_empty() {
            return;
        }
        // The draw framebuffer's sample count, for programs that read gl_NumSamples: only
        // the framebuffer and the default block's groups look at it.
        let draw_samples = if (self.dirty & mask).intersects(Dirty::FRAMEBUFFER | Dirty::UNIFORMS) {
            self.framebuffer_samples(sh, self.st.draw_framebuffer)
                .max(1) as u32
        } else {
            0
        };
        let Shared { world, dev, .. } = sh;
        validate::run(
            Validate {
                st: &self.st,
                surface: self.surface.map(|s| s.handle),
                draw_samples,
                world,
                dev,
                shadow: &mut self.shadow,
            },
            &mut self.dirty,
            &mut self.dirty_units,
            mask,
        );
    }
}

/// The Vulkan backend on the device it chooses.
#[cfg(not(target_os = "android"))]
pub(crate) fn vulkan_backend() -> Result<Box<dyn Backend>, CreateContextError> {
    match tessera_backend_vk::VulkanBackend::new() {
        Ok(vk) => Ok(Box::new(vk)),
        Err(e) => Err(CreateContextError::BackendUnavailable {
            backend: "vulkan",
            reason: e.to_string(),
        }),
    }
}

/// Android builds have no Vulkan backend (see the engine's `Cargo.toml`).
#[cfg(target_os = "android")]
pub(crate) fn vulkan_backend() -> Result<Box<dyn Backend>, CreateContextError> {
    Err(CreateContextError::BackendUnavailable {
        backend: "vulkan",
        reason: "not built for Android (vk-mem needs the NDK's C++ compiler)".to_owned(),
    })
}

pub(crate) fn gles_backend(
    native_display: Option<tessera_wire::backend::NativeDisplay>,
) -> Result<tessera_backend_gles::GlesBackend, CreateContextError> {
    let options = tessera_backend_gles::GlesOptions {
        native_display,
        ..tessera_backend_gles::GlesOptions::from_env()
    };
    tessera_backend_gles::GlesBackend::with_options(&options).map_err(|e| {
        CreateContextError::BackendUnavailable {
            backend: "gles",
            reason: e.to_string(),
        }
    })
}

/// A GL context.
///
/// Its methods are the GL entry points, named as in GL without the `gl` prefix and taking
/// Rust slices where GL takes pointers; errors are recorded as GL records them and read with
/// [`get_error`](Self::get_error). Contexts made with [`new_shared`](Self::new_shared) share
/// objects.
///
/// ```
/// use tessera_engine::gl::*;
/// use tessera_engine::pixel::PixelsMut;
/// use tessera_engine::{Config, Context, SurfaceConfig};
///
/// let config = Config {
///     surface: Some(SurfaceConfig::new(8, 8)),
///     ..Config::default()
/// };
/// let mut ctx = Context::new(&config).expect("a Vulkan or GLES driver");
/// // Green everywhere, then red in the lower-left 4x4 corner.
/// ctx.clear_color(0.0, 1.0, 0.0, 1.0);
/// ctx.clear(COLOR_BUFFER_BIT);
/// ctx.enable(SCISSOR_TEST);
/// ctx.scissor(0, 0, 4, 4);
/// ctx.clear_color(1.0, 0.0, 0.0, 1.0);
/// ctx.clear(COLOR_BUFFER_BIT);
/// let mut pixels = [0u8; 8 * 8 * 4];
/// ctx.read_pixels(0, 0, 8, 8, RGBA, UNSIGNED_BYTE, PixelsMut::Bytes(&mut pixels));
/// assert_eq!(pixels[..4], [255, 0, 0, 255]); // (0, 0): bottom-left, GL's origin
/// assert_eq!(pixels[pixels.len() - 4..], [0, 255, 0, 255]);
/// // An invalid call records the error the specification names and changes nothing.
/// ctx.enable(0x1234);
/// assert_eq!(ctx.get_error(), INVALID_ENUM);
/// assert_eq!(ctx.get_error(), NO_ERROR);
///
/// // A second context sharing objects with the first.
/// let other = Context::new_shared(&ctx, &config);
/// assert!(std::sync::Arc::ptr_eq(other.share_group(), ctx.share_group()));
/// ```
pub struct Context {
    pub(crate) group: Arc<ShareGroup>,
    pub(crate) local: Local,
    /// Set once a call on this context panicked ([`Context::mark_lost`]): its state may be
    /// half-updated, so the C ABI runs no more calls on it.
    lost: Option<Box<str>>,
    /// A panic armed by [`Context::arm_test_panic`]; `Off` outside that test.
    test_panic: TestPanic,
}

/// Fires a panic armed with [`Context::arm_test_panic`], disarming it.
#[cold]
fn fire_test_panic(armed: &mut TestPanic, context: u32) {
    *armed = TestPanic::Off;
    panic!("tessera test panic armed in context {context}");
}

/// Where a panic armed with [`Context::arm_test_panic`] fires. Exists only for the tests of
/// the panic-to-lost-context rule; `Off` costs one field compare in [`Context::flush`].
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TestPanic {
    /// No panic.
    #[default]
    Off,
    /// The next `flush` panics before it takes the share group's lock.
    BeforeLock,
    /// The next `flush` panics while it holds the share group's lock (poisoning it).
    UnderLock,
}

/// Whether an error occurred (used by entry points to return early).
pub(crate) type GlResult<T = ()> = Result<T, GLenum>;

impl Context {
    /// Creates a context in a new share group, with the backend and transport of `config`.
    /// For the process transports (`shm`, `fork`, `unix:`, `tcp://`) the backend is created
    /// by name in the server, which the context dials.
    pub fn new(config: &Config) -> Result<Self, CreateContextError> {
        config.configure_cache();
        if config.transport.is_remote() {
            let options = tessera_wire::transport::DialOptions {
                backend: config.backend.name().to_owned(),
                capture: config.capture,
                secret: None,
                device: config.device.clone(),
            };
            let remote =
                tessera_wire::transport::dial(&config.transport, &options).map_err(|e| {
                    CreateContextError::BackendUnavailable {
                        backend: config.backend.name(),
                        reason: e.to_string(),
                    }
                })?;
            return Ok(Self::assemble(config, remote.transport, remote.caps, None));
        }
        let (backend, probe): (Box<dyn Backend>, Option<NullProbe>) = match config.backend {
            BackendKind::Null => {
                let (backend, probe) = NullBackend::new(config.capture);
                (Box::new(backend), Some(probe))
            }
            BackendKind::Gles => (Box::new(gles_backend(config.native_display)?), None),
            BackendKind::Vulkan => (vulkan_backend()?, None),
            // Hardware Vulkan, else hardware GLES, else the faster software driver (GLES).
            BackendKind::Auto => (crate::auto::backend_on(config.native_display)?, None),
        };
        Ok(Self::connect(config, backend, probe))
    }

    /// The name of the backend this context's records go to (`null`, `gles`, ...).
    pub fn backend_name(&self) -> String {
        self.group.lock().caps.backend.clone()
    }

    /// Creates a context in a new share group whose records go to `backend` (an embedder's
    /// own backend, or an instrumented one) through `config`'s transport.
    pub fn with_backend(config: &Config, backend: Box<dyn Backend>) -> Self {
        config.configure_cache();
        Self::connect(config, backend, None)
    }

    fn connect(config: &Config, backend: Box<dyn Backend>, probe: Option<NullProbe>) -> Self {
        let caps = backend.caps();
        let transport = tessera_wire::transport::connect(&config.transport, backend);
        Self::assemble(config, transport, caps, probe)
    }

    fn assemble(
        config: &Config,
        transport: Box<dyn tessera_wire::Transport>,
        caps: tessera_wire::Caps,
        probe: Option<NullProbe>,
    ) -> Self {
        // TESSERA_PUFFIN: the first context of the process starts the profile server.
        let _ = crate::profiling::serve_from_env();
        let transport = match &config.capture_file {
            Some(path) => tessera_wire::capture::Capturing::wrap(
                transport,
                path,
                config.capture_frames.clone(),
            ),
            None => transport,
        };
        // An image's token names an image of this process, which neither another process
        // nor a capture's replay has (egl::image).
        let mut caps = caps;
        caps.egl_images &= !transport.kind().is_remote() && config.capture_file.is_none();
        let shared = Shared {
            world: bevy_ecs::world::World::new(),
            names: SharedNames::default(),
            dev: tessera_systems::Emitter::new(config.cso_capacity),
            fences: transport.fence_mark(),
            last_fence: 0,
            transport,
            caps,
            lost: None,
            events: Vec::new(),
            out_of_memory: false,
            mapped_buffers: 0,
            persistent_maps: Vec::new(),
            probe,
            memory_objects: Default::default(),
            semaphores: Default::default(),
        };
        Self::in_group(Arc::new(ShareGroup::new(shared)), config)
    }

    /// How many threads are in a `glClientWaitSync` of this context's share group past its
    /// first look at the fence, waiting without the group's lock (a diagnostic; the tests
    /// of concurrent waits use it).
    pub fn fence_waiters(&self) -> u32 {
        self.group.fence_waiters()
    }

    /// Creates a context sharing objects with `other`.
    pub fn new_shared(other: &Context, config: &Config) -> Self {
        Self::in_group(other.group.clone(), config)
    }

    fn in_group(group: Arc<ShareGroup>, config: &Config) -> Self {
        let id = group.mint_context_id();
        let mut sh = group.lock();
        sh.dev.push(Record::CreateContext { context: id });
        sh.dev.use_context(id);
        let mut limits = Limits::from_caps(&sh.caps);
        // A memory object's descriptor reaches only a backend of this process.
        limits.memory_objects &= !sh.transport.kind().is_remote();
        limits.semaphores &= !sh.transport.kind().is_remote();
        let surface = config.surface.map(|s| {
            let handle = sh.dev.alloc.mint();
            // sRGB-capable, as every desktop GL default framebuffer on Mesa (egl::config).
            let desc = SurfaceDesc {
                width: s.width,
                height: s.height,
                color: Some(crate::egl::config::color_format(s.samples)),
                depth_stencil: s.depth_stencil.then_some(Format::Depth24Stencil8),
                samples: s.samples,
            };
            sh.dev.push(Record::CreateSurface {
                surface: handle,
                desc,
            });
            Surface { handle, desc }
        });
        drop(sh);
        let (w, h) = surface.map_or((0, 0), |s| (s.desc.width as i32, s.desc.height as i32));
        let local = Local {
            id,
            error: NO_ERROR,
            no_error: config.no_error,
            st: GlState::new(w, h, surface.is_some()),
            dirty: Dirty::all(),
            dirty_units: u64::MAX,
            shadow: EmittedState::default(),
            vertex_arrays: NameTable::default(),
            framebuffers: NameTable::default(),
            queries: NameTable::default(),
            pipelines: NameTable::default(),
            subroutines: Default::default(),
            xfb: Default::default(),
            pipeline_error: NO_ERROR,
            surface,
            draw_error: NO_ERROR,
            draw_gs_input: None,
            draw_tess: None,
            draw_default_control: false,
            draw_writes_storage: false,
            client_indices: None,
            client_indices_cursor: 0,
            limits,
            stats: ContextStats::default(),
            owns_surface: surface.is_some(),
            window: None,
            viewport_initialized: w > 0 && h > 0,
            default_buffers_initialized: surface.is_some(),
            clamp_read_color: FIXED_ONLY,
            conditional_render: None,
            context_flags: if config.no_error {
                CONTEXT_FLAG_NO_ERROR_BIT
            } else {
                0
            },
            reset_strategy: NO_RESET_NOTIFICATION,
            debug: Box::new(crate::debug::DebugState::new(false)),
            call: "",
            version_override: config.gl_version,
            named_texture: None,
            map_spare: None,
            export_fences: false,
            export_fence: 0,
        };
        Self {
            group,
            local,
            lost: None,
            test_panic: TestPanic::Off,
        }
    }

    /// `glGetError`: returns and clears the first error since the last call. With none
    /// pending, an object the backend's driver refused since the group's last look
    /// (`Shared::out_of_memory`) is `GL_OUT_OF_MEMORY`.
    pub fn get_error(&mut self) -> GLenum {
        let error = std::mem::replace(&mut self.local.error, NO_ERROR);
        if error == NO_ERROR && !self.is_dead() {
            let mut sh = self.group.lock();
            // Events that arrived with the last sync point's reply (a `glFinish` over the
            // render thread waits without the group's lock, and takes none).
            sh.take_transport_events();
            if std::mem::take(&mut sh.out_of_memory) {
                return OUT_OF_MEMORY;
            }
        }
        error
    }

    /// Records a GL error decided outside the engine (the C ABI reports a caught panic as
    /// `INVALID_OPERATION`). Like every error, it is kept only if none is pending.
    #[track_caller]
    pub fn set_error(&mut self, error: GLenum) {
        self.local.set_error(error);
    }

    /// Puts back an error that [`Context::get_error`] took, without reporting it again as a
    /// debug message (the C ABI looks at the flag around queries that must not write their
    /// output on error).
    pub fn restore_error(&mut self, error: GLenum) {
        if self.local.error == NO_ERROR {
            self.local.error = error;
        }
    }

    /// Records an error (for entry points in other modules).
    #[inline]
    #[track_caller]
    pub(crate) fn error(&mut self, error: GLenum) {
        self.local.set_error(error);
    }

    /// `glFlush`: hands everything recorded so far to the backend.
    pub fn flush(&mut self) {
        {
            puffin::profile_scope!("flush");
            if self.test_panic == TestPanic::BeforeLock {
                fire_test_panic(&mut self.test_panic, self.local.id);
            }
            let mut sh = self.group.lock_for(self.local.id);
            if self.test_panic == TestPanic::UnderLock {
                fire_test_panic(&mut self.test_panic, self.local.id);
            }
            sh.dev.push(Record::Flush);
            sh.flush();
        }
        self.front_flush_hook();
        // After the scope closed, so the frame holds it.
        crate::profiling::end_frame();
    }

    /// `glFinish`: waits until the backend has done everything recorded so far.
    pub fn finish(&mut self) {
        {
            puffin::profile_scope!("finish");
            let mut sh = self.group.lock_for(self.local.id);
            let reply = sh.dev.enc.mint_reply();
            sh.dev.push(Record::Finish { reply });
            sh.flush();
            if sh.lost.is_none() {
                match sh.transport.reply_waiter() {
                    // The wait holds no lock: the group's other contexts go on meanwhile (a
                    // loss it sees is latched at the next flush).
                    Some(waiter) => {
                        drop(sh);
                        let _ = waiter.wait(reply);
                        sh = self.group.lock_for(self.local.id);
                    }
                    None => {
                        let _ = sh.wait(reply);
                    }
                }
            }
            // Everything the GPU wrote is now visible through persistent mappings.
            if !sh.persistent_maps.is_empty() {
                crate::buffer::refresh_persistent_reads(&mut sh);
            }
        }
        self.front_flush_hook();
        crate::profiling::end_frame();
    }

    /// The calling thread stops using this context for now (EGL released it): lets an
    /// in-process backend release what is bound to this thread, so the context can be made
    /// current on another one.
    pub fn release_thread(&mut self) {
        let mut sh = self.group.lock();
        sh.flush();
        sh.transport.release_thread();
    }

    /// Whether the context is lost: the session with the backend was lost, a call on this
    /// context panicked, or a call panicked while holding the share group's lock
    /// (`glGetGraphicsResetStatus` reports each).
    pub fn is_lost(&self) -> bool {
        self.is_dead() || self.group.lock().lost.is_some()
    }

    /// Whether this context must run no more calls: one of its calls panicked
    /// ([`Context::mark_lost`]), or some call panicked while holding the share group's lock
    /// (the shared objects may be half-updated). Two plain loads, for the C ABI's guard.
    #[inline]
    pub fn is_dead(&self) -> bool {
        self.lost.is_some() || self.group.is_poisoned()
    }

    /// Marks this context lost after a call on it panicked (`why`: the panic's message): it
    /// runs no more calls (the C ABI checks [`Context::is_dead`]) and
    /// `glGetGraphicsResetStatus` reports `UNKNOWN_CONTEXT_RESET`. Other contexts go on.
    ///
    /// The rule for shared state: if the panic happened while the share group's lock was
    /// held, the lock is poisoned and the shared objects, names and encoder may be
    /// half-updated, so the whole share group is lost — its session is latched lost as for
    /// a dead server (records discarded, nothing blocks) and every context of it is dead.
    /// A panic outside the lock leaves the shared state whole (every update of it happens
    /// under the lock), so only this context is lost. Returns whether this is the first
    /// time (the caller logs the panic once).
    pub fn mark_lost(&mut self, why: &str) -> bool {
        if self.group.is_poisoned() {
            let mut sh = self.group.lock();
            if sh.lost.is_none() {
                let reason = format!(
                    "a call of context {} panicked holding the share group's lock: {why}",
                    self.local.id
                );
                sh.lost = Some(tessera_wire::SessionLost { reason });
            }
        }
        if self.lost.is_some() {
            return false;
        }
        self.lost = Some(why.into());
        true
    }

    /// Arms a panic in this context's next `flush` (tests of the panic rule only; see
    /// [`TestPanic`]).
    #[doc(hidden)]
    pub fn arm_test_panic(&mut self, at: TestPanic) {
        self.test_panic = at;
    }

    /// `glGetGraphicsResetStatus`: `UNKNOWN_CONTEXT_RESET` once the session with the backend
    /// is lost (the server died or ended the session; which side was at fault is not known
    /// here) or the context is lost to a panic ([`Context::mark_lost`]), `NO_ERROR` before.
    /// The loss is noticed at the latest by the next flush.
    pub fn get_graphics_reset_status(&mut self) -> GLenum {
        if self.is_dead() {
            return UNKNOWN_CONTEXT_RESET;
        }
        let mut sh = self.group.lock();
        if sh.lost.is_none() {
            // Pick up a loss the transport noticed since the last flush (a hang-up read
            // while taking events) without emitting anything.
            let sh = &mut *sh;
            sh.transport.take_events(&mut sh.events);
            if let Some(reason) = sh.events.iter().find_map(|e| match e {
                tessera_wire::Event::SessionEnded { reason } => Some(reason.clone()),
                _ => None,
            }) {
                sh.lost = Some(tessera_wire::SessionLost { reason });
            }
        }
        if sh.lost.is_some() {
            UNKNOWN_CONTEXT_RESET
        } else {
            NO_ERROR
        }
    }

    /// What the null backend in a server process captured since the last call (process
    /// transports whose server allows capture); `None` for in-process backends (use
    /// [`Context::null_probe`]) or a lost session.
    pub fn server_probe(&self) -> Option<tessera_wire::transport::ProbeSnapshot> {
        self.group.lock().transport.probe().ok().flatten()
    }

    /// The wire id of this context.
    pub fn id(&self) -> u32 {
        self.local.id
    }

    /// The default framebuffer.
    pub fn surface(&self) -> Option<Surface> {
        self.local.surface
    }

    /// Counters of this context.
    pub fn stats(&self) -> ContextStats {
        self.local.stats
    }

    /// Counters of the share group's transport.
    pub fn transport_stats(&self) -> TransportStats {
        self.group.lock().transport.stats()
    }

    /// Counters of the share group's record emission.
    pub fn device_counters(&self) -> tessera_systems::emitter::Counters {
        self.group.lock().dev.counters
    }

    /// Live names and footprint of the share group's texture name table: tests check that
    /// its memory follows the live textures, not every name ever generated.
    #[doc(hidden)]
    pub fn texture_name_stats(&self) -> tessera_components::names::NameTableStats {
        self.group.lock().names.textures.stats()
    }

    /// Moves the share group's next texture name up to `next`, never down (see
    /// [`NameTable::advance_to`]): tests reach the top of the 32-bit name space with it. It
    /// cannot make a name collide with a live one.
    #[doc(hidden)]
    pub fn advance_texture_names(&mut self, next: GLuint) {
        self.group.lock().names.textures.advance_to(next);
    }

    /// CSO cache statistics of the share group.
    pub fn cso_stats(&self) -> tessera_systems::cso::CsoStats {
        self.group.lock().dev.csos.stats()
    }

    /// The null backend's probe, when the group's backend is the null backend.
    pub fn null_probe(&self) -> Option<NullProbe> {
        self.group.lock().probe.clone()
    }

    /// Events the backend reported since the last call; each also becomes a debug message
    /// of this context (`crate::debug`).
    pub fn take_events(&mut self) -> Vec<tessera_wire::Event> {
        let events = {
            let mut sh = self.group.lock();
            sh.take_transport_events();
            std::mem::take(&mut sh.events)
        };
        self.local.debug.backend_events(&events);
        events
    }
}

/// What EGL needs from a context: a share group to create contexts in, surfaces created
/// lazily in the group, binding them as the default framebuffer, and presenting.
impl Context {
    /// Creates a context in `group` (EGL's `share_context`), whose other contexts may be
    /// current on other threads: only the group is needed, not one of its contexts.
    pub fn new_in_group(group: &Arc<ShareGroup>, config: &Config) -> Self {
        Self::in_group(group.clone(), config)
    }

    /// The share group of this context.
    pub fn share_group(&self) -> &Arc<ShareGroup> {
        &self.group
    }

    /// Creates a surface described by `desc` in this context's share group (the wire
    /// surface behind an EGL surface, made the first time the EGL surface is current with a
    /// context of this group). The surface belongs to the caller, who destroys it with
    /// [`ShareGroup::destroy_surface`].
    pub fn create_surface(&mut self, desc: SurfaceDesc) -> Surface {
        let mut sh = self.group.lock_for(self.local.id);
        let handle = sh.dev.alloc.mint();
        sh.dev.push(Record::CreateSurface {
            surface: handle,
            desc,
        });
        Surface { handle, desc }
    }

    /// Makes `surface` the default framebuffer (`eglMakeCurrent` with a draw surface), or
    /// leaves the context without one (`None`: surfaceless, or released). The context does
    /// not own the surface. The first time a context gets a surface of non-zero size, its
    /// viewport and scissor box are set to the surface size, as GL specifies for the first
    /// make-current with a drawable; a context created surfaceless then also gets the
    /// `BACK` draw and read buffers a context created with a surface starts with.
    pub fn bind_surface(&mut self, surface: Option<Surface>) {
        if self.local.surface == surface {
            return;
        }
        if let Some(s) = surface {
            let (w, h) = (s.desc.width as i32, s.desc.height as i32);
            if !self.local.viewport_initialized && w > 0 && h > 0 {
                // Every index, as Mesa's first make-current sets them.
                self.local.st.viewports.fill([0.0, 0.0, w as f32, h as f32]);
                self.local.st.scissors.fill([0, 0, w, h]);
                self.local.viewport_initialized = true;
            }
            if !self.local.default_buffers_initialized {
                self.local.st.default_draw_buffer = BACK;
                self.local.st.default_read_buffer = BACK;
                self.local.default_buffers_initialized = true;
            }
        }
        if self.local.owns_surface
            && let Some(old) = self.local.surface
        {
            // A surface this context created is replaced: it is destroyed now.
            let mut sh = self.group.lock_for(self.local.id);
            sh.dev.push(Record::DestroySurface {
                surface: old.handle,
            });
            sh.dev.alloc.free(old.handle);
        }
        self.local.owns_surface = false;
        self.local.surface = surface;
        // Completeness, draw buffers, the framebuffer record and the scissor/viewport all
        // depend on the default framebuffer; a make-current is rare, so redo everything.
        self.local.touch(Dirty::all());
        self.local.dirty_units = u64::MAX;
    }

    /// `eglSwapBuffers` on the default framebuffer: a frame boundary. Emits `Present` for
    /// the surface and hands everything to the backend. Nothing happens without a surface.
    pub fn swap_buffers(&mut self) {
        let Some(surface) = self.local.surface else {
            return;
        };
        let mut sh = self.group.lock_for(self.local.id);
        sh.dev.push(Record::Present {
            surface: surface.handle,
        });
        sh.flush();
        crate::profiling::end_frame();
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        let group = self.group.clone();
        if group.is_poisoned() {
            // The shared state may be half-updated (see `mark_lost`): touch none of it.
            return;
        }
        let mut sh = group.lock_for(self.local.id);
        // Also for a context lost to a panic outside the lock: the backend needs its objects
        // released before the context goes. Should its half-updated state make this panic,
        // the panic poisons the lock and loses the group, by `mark_lost`'s rule.
        self.release_all(&mut sh);
        if let Some(surface) = self.local.surface.filter(|_| self.local.owns_surface) {
            sh.dev.push(Record::DestroySurface {
                surface: surface.handle,
            });
            sh.dev.alloc.free(surface.handle);
        }
        sh.dev.push(Record::DestroyContext {
            context: self.local.id,
        });
        sh.flush();
    }
}

impl Context {
    /// Drops every reference this context holds and destroys its container objects (the
    /// context is going away).
    fn release_all(&mut self, sh: &mut Shared) {
        use tessera_systems::lifecycle;
        self.drop_pipelines(sh);
        let st = &mut self.local.st;
        let mut held: Vec<bevy_ecs::entity::Entity> = Vec::new();
        held.extend(st.buffers.iter_mut().filter_map(Option::take));
        held.extend(
            st.uniform_buffers
                .iter_mut()
                .filter_map(|b| b.buffer.take()),
        );
        held.extend(
            st.transform_feedback_buffers
                .iter_mut()
                .filter_map(|b| b.buffer.take()),
        );
        held.extend(
            st.storage_buffers
                .iter_mut()
                .filter_map(|b| b.buffer.take()),
        );
        for unit in st.textures.iter_mut() {
            held.extend(unit.iter_mut().filter_map(Option::take));
        }
        held.extend(st.samplers.iter_mut().filter_map(Option::take));
        held.extend(st.program.take());
        held.extend(st.renderbuffer.take());
        held.extend(self.local.client_indices.take());
        st.vertex_array = None;
        st.draw_framebuffer = None;
        st.read_framebuffer = None;
        if let Some(mut proxies) = sh.world.get_resource_mut::<crate::texture::ProxyTextures>() {
            proxies.by_context.remove(&self.local.id);
        }
        let Shared { world, dev, .. } = sh;
        for e in held {
            lifecycle::release(world, dev, e);
        }
        crate::transform_feedback::release_objects(&mut self.local, world, dev);
        for table in [
            &mut self.local.vertex_arrays,
            &mut self.local.framebuffers,
            &mut self.local.queries,
        ] {
            for e in table.drain_objects() {
                lifecycle::unname(world, dev, e);
            }
        }
        // Shaders and programs that were only kept alive by this context lose their names.
        Self::free_released_names(sh);
    }
}

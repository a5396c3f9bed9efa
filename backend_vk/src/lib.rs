//! # tessera-backend-vk
//!
//! The Vulkan backend: pipe records onto a Vulkan 1.1+ device through ash, with memory from
//! VMA (vk-mem). It depends on `tessera-wire` and third-party crates only, never on the GL
//! frontend (`components`, `systems`, `engine`): a server process can be built without the
//! engine, and `tests/` checks that from `cargo metadata`.
//!
//! ## How it works
//! - **VkPipe** (`instance.rs`): the instance (with the Khronos validation layer and a
//!   debug-utils messenger when [`VkOptions::validation`] asks), the device chosen by
//!   `TESSERA_VK_DEVICE` or the best available, and the optional [`Tiers`] decided once.
//! - **Objects** (`device.rs`, `image.rs`, `texture.rs`, `framebuffer.rs`, `program.rs`,
//!   `query.rs`): one dense table per handle kind, checked on every use (a stale or unknown
//!   handle ends the session with a [`SessionError`], never a panic). Buffers and images
//!   come from VMA (`memory.rs`); formats map to the device's best candidate (`conv.rs`),
//!   with CPU conversion of pixel data when the image's memory layout is not the client's
//!   (`pixel.rs`).
//! - **Programs** (`program.rs`, `spirv.rs`): SPIR-V as the engine made it, reflected for
//!   what the binding contract leaves implicit, patched for GL conventions when the device
//!   lacks the extension that would do it; arrays of interface blocks into the fragment
//!   stage pass through plain variables, since Mesa's front end drops their members'
//!   interpolation qualifiers (`spirv/block_array.rs`).
//! - **State and verbs** (`command.rs`, `pipeline.rs`, `descriptor.rs`, `clear.rs`,
//!   `blit.rs`): `Bind*`/`Set*` records update the current context's desired state; draws
//!   find their pipeline in a per-program cache (created only on a miss, through a
//!   `VkPipelineCache`), open their render pass (folding whole-attachment clears into load
//!   ops), and bind only what changed.
//! - **Records**: what each record means to the device, as the methods of the domain traits
//!   of `tessera_wire::dispatch`, each implemented in the file of its domain: `BufferPipe`
//!   in `device.rs`, `TexturePipe` in `texture.rs`, `FramebufferPipe` in `framebuffer.rs`
//!   (copies through `blit.rs`), `ProgramPipe` in `program.rs`, `DrawPipe` in `command.rs`
//!   (clears in `clear.rs`, blits in `blit.rs`), `ComputePipe` in `compute.rs`, `QueryPipe`
//!   in `query.rs`, and `ContextPipe`
//!   (contexts, state changes, the end of a batch) and `CsoPipe` in `queue.rs`. The
//!   dispatcher in `tessera-wire` decodes each record, checks its spans and handles, keeps
//!   the contexts and files replies.
//! - **Submission** (`frame.rs`): one command buffer per batch, submitted with a fence at
//!   its end (or earlier for read-backs), at most three in flight; memory they read is
//!   recycled when their fence signals. A *prologue* command buffer goes ahead of it in the
//!   same submission when the batch uploaded into images no command had used yet: a
//!   texture made and filled between draws does not end the render pass.
//! - **Windows** (`present.rs`): in the program's process the engine may attach an X11
//!   window to a surface ([`Backend::attach_window`]); the backend then presents the
//!   surface through a WSI swapchain of the window, copying and flipping its colour image
//!   into a swapchain image at each `Present`, with the present mode of the swap interval
//!   ([`VkProbe::present_mode`]).
//!
//! ## GL conventions, handled once
//! - *Window origin*: nothing is flipped. Framebuffer row `r` holds GL window row `r` (GL's
//!   viewport transform and Vulkan's map NDC y to the same rows), so uploads, rendering,
//!   sampling and `ReadPixels` agree; only the sense of winding differs (`conv::map_front_face`).
//! - *Clip-space depth*: `VK_EXT_depth_clip_control` when present, else the SPIR-V's last
//!   pre-rasterization stage is patched (`z = (z + w) / 2`).
//! - *Provoking vertex*: GL's last-vertex convention through `VK_EXT_provoking_vertex`.
//! - *Point size*: when points are drawn without `PROGRAM_POINT_SIZE`, a variant of the
//!   program writes `PointSize` from a push constant (`SetPointSize`).
//! - *Line width*: dynamic state (1.0 without the `wideLines` feature, reported).
//!
//! ## Counters
//! [`VulkanBackend::probe`] returns a [`VkProbe`] whose [`VkStats`] count pipelines,
//! descriptor set layouts, shader modules (and more) created so far: steady-state frames
//! must add none.
//!
//! ## Safety
//! Every Vulkan call is `unsafe` (ash's contract). The calls rely on these invariants: the
//! device and its objects are used by one thread at a time (`&mut self`); commands are
//! recorded into the current frame's command buffer, which is recording between
//! `begin_frame` and `submit`; transfers and layout transitions happen outside render passes
//! (`transfer_begin` ends the pass first); objects are destroyed only when no submitted work
//! can use them (garbage lists retired by fence). Each `// SAFETY:` names what else a call
//! needs.
//!
//! ## What it must never do
//! Decide a GL error (the engine did), trust a record (every span and handle is checked), or
//! block a frame outside the replies that ask for it.

#![expect(unsafe_code, reason = "Vulkan calls through ash, memory through VMA")]

mod blit;
mod census;
mod clear;
mod command;
mod compute;
mod condition;
mod conv;
mod copy_image;
mod descriptor;
mod device;
pub mod discover;
mod export;
mod frame;
mod framebuffer;
mod host_device;
mod image;
mod indirect;
mod instance;
mod memory;
mod multi_draw;
mod pipeline;
mod pixel;
mod present;
mod program;
mod query;
mod queue;
mod semaphore;
mod spirv;
mod storage_image;
mod texture;
mod texture_clear;
mod xfb;

use tessera_wire::backend::NativeTarget;
use tessera_wire::dispatch::Dispatcher;
use tessera_wire::env;
use tessera_wire::handle::SurfaceHandle;
use tessera_wire::{Backend, BatchView, Caps, Outbox, SessionError};

use crate::command::VkContext;
use crate::device::VkPipe;
pub use crate::device::{VkProbe, VkStats};
pub use crate::host_device::HostDevice;
pub use crate::instance::{DeviceSummary, Tiers, probe_device};

/// Why a Vulkan backend could not be created.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateBackendError {
    /// The Vulkan loader could not be loaded.
    #[error("the Vulkan loader (libvulkan.so.1) could not be loaded: {reason}")]
    Load {
        /// Why.
        reason: String,
    },
    /// The loader or every device is older than Vulkan 1.1.
    #[error("{what} offers Vulkan {version}; 1.1 is the minimum")]
    TooOld {
        /// What is too old.
        what: String,
        /// Its version.
        version: String,
    },
    /// Validation was asked for but the Khronos layer is not installed.
    #[error("VK_LAYER_KHRONOS_validation is not installed (Debian: vulkan-validationlayers)")]
    NoValidationLayer,
    /// No usable device (Vulkan 1.1 with a graphics queue), or none matching the choice.
    #[error("no usable Vulkan device{}; found: {found}", wanted.as_ref().map(|w| format!(" matching TESSERA_VK_DEVICE={w:?}")).unwrap_or_default())]
    NoDevice {
        /// The `TESSERA_VK_DEVICE` value, if one was given.
        wanted: Option<String>,
        /// The devices found.
        found: String,
    },
    /// A Vulkan call failed.
    #[error("{call} failed: {result}")]
    Vulkan {
        /// The call.
        call: &'static str,
        /// Its result.
        result: ash::vk::Result,
    },
    /// Setting up the first frame failed.
    #[error("setting up the device failed: {reason}")]
    Setup {
        /// Why.
        reason: String,
    },
}

/// Choices the device does not make for the backend.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VkOptions {
    /// Enable `VK_LAYER_KHRONOS_validation` with a debug-utils messenger; every message
    /// becomes an [`Event::NativeError`](tessera_wire::Event::NativeError)
    /// (`TESSERA_VK_VALIDATION=1`).
    pub validation: bool,
    /// The device to use: index, UUID or name substring (else `TESSERA_VK_DEVICE`, else the
    /// best available).
    pub device: Option<String>,
    /// Use the Vulkan 1.1 floor only, no optional extension (`TESSERA_VK_TIERS=none`): how
    /// the fallback paths (patched depth, descriptor pools, fan emulation, ...) are tested
    /// on a full driver. Windows are then never presented by the backend (no WSI
    /// extensions): the client shows their frames.
    pub floor: bool,
}

impl VkOptions {
    /// Reads `TESSERA_VK_VALIDATION`, `TESSERA_VK_DEVICE` and `TESSERA_VK_TIERS`, warning
    /// about values it does not know (they leave the default).
    pub fn from_env() -> Self {
        let validation = env::switch("TESSERA_VK_VALIDATION", "validation stays off");
        let floor = env::choice(
            "TESSERA_VK_TIERS",
            &["none", "floor", "1.1"],
            &["all", "auto"],
            "none/all",
            "ignored",
        );
        Self {
            validation,
            device: None,
            floor,
        }
    }
}

/// The Vulkan backend.
pub struct VulkanBackend {
    dispatcher: Dispatcher<VkContext>,
    dev: VkPipe,
}

// SAFETY: the backend holds Vulkan handles (integers and dispatchable pointers, which Vulkan
// lets any thread use as long as calls on one object are externally synchronized), VMA's
// allocator, and raw pointers into persistently mapped host memory (arena chunks). Nothing
// is tied to the creating thread: no thread-local state, no TLS-bound context as in EGL.
// Every use goes through `&mut self` (`apply`, `attach_window`), so one thread at a time
// records, submits, presents and touches mapped memory; the debug messenger's callback
// reaches only an `Arc<Mutex<_>>`. The XCB connection of a window presented into is the
// program's, and libxcb serializes its use across threads itself.
// Moving the backend to the render thread (the `thread` transport) is therefore sound.
unsafe impl Send for VulkanBackend {}

impl VulkanBackend {
    /// Loads Vulkan, chooses the device and creates it, with the options of the environment
    /// ([`VkOptions::from_env`]).
    pub fn new() -> Result<Self, CreateBackendError> {
        Self::with_options(&VkOptions::from_env())
    }

    /// [`VulkanBackend::new`] with explicit options.
    pub fn with_options(options: &VkOptions) -> Result<Self, CreateBackendError> {
        Self::on_gpu(instance::Gpu::new(options)?)
    }

    /// The backend on a device already made (its own, or a host's).
    fn on_gpu(gpu: instance::Gpu) -> Result<Self, CreateBackendError> {
        let mut dev = VkPipe::new(gpu)?;
        // Id 0 of every CSO kind is its default value: a new context binds them.
        dev.interned.blend.intern(&Default::default());
        dev.interned.depth_stencil.intern(&Default::default());
        dev.interned.raster.intern(&Default::default());
        dev.interned.intern_layout(&Default::default());
        Ok(Self {
            dispatcher: Dispatcher::new(),
            dev,
        })
    }

    /// The counters of this backend, shared (they stay readable after the backend moved
    /// into a transport).
    pub fn probe(&self) -> VkProbe {
        VkProbe(self.dev.stats.clone())
    }

    /// The optional capabilities chosen at creation.
    pub fn tiers(&self) -> &Tiers {
        &self.dev.tiers
    }
}

impl Backend for VulkanBackend {
    fn counters(&self) -> Option<tessera_wire::BackendCounters> {
        let s = self.probe().stats();
        Some(tessera_wire::BackendCounters {
            shaders_compiled: s.shader_modules,
            programs_linked: 0,
            pipelines_created: s.pipelines,
            native_objects: self.dev.gpu.host.census().live().total(),
            device_memory: self.dev.device_memory(),
        })
    }

    fn native_census(&self) -> Option<tessera_wire::census::NativeCensus> {
        Some(self.dev.gpu.host.census().clone())
    }

    fn caps(&self) -> Caps {
        self.dev.caps.clone()
    }

    /// Applies a batch. A lost device (`VK_ERROR_DEVICE_LOST` from any call) ends the
    /// session and is reported as [`tessera_wire::Event::DeviceLost`], which the program sees
    /// as a context reset.
    fn apply(&mut self, batch: BatchView<'_>, out: &mut Outbox) -> Result<(), SessionError> {
        let applied = if self.dev.faults.lose() {
            Err(device::vk_error(
                "vkQueueSubmit (injected by TESSERA_FAULT)",
                ash::vk::Result::ERROR_DEVICE_LOST,
            ))
        } else {
            self.dispatcher.apply(&mut self.dev, batch, out)
        };
        if let Err(SessionError::Backend(why)) = &applied
            && why.contains(&ash::vk::Result::ERROR_DEVICE_LOST.to_string())
        {
            out.events.push(tessera_wire::Event::DeviceLost {
                reason: format!("VK_ERROR_DEVICE_LOST: {why}"),
            });
        }
        applied
    }

    /// `vkWaitForFences` on the oldest pending fence's submission, with the timeout.
    fn poll_fences(&mut self, timeout_ns: u64, out: &mut Outbox) -> Result<bool, SessionError> {
        self.dispatcher.poll_fences(&mut self.dev, timeout_ns, out)
    }

    fn attach_window(
        &mut self,
        surface: SurfaceHandle,
        window: Option<NativeTarget>,
        interval: i32,
    ) -> bool {
        self.dev.attach_window(surface, window, interval)
    }
}

//! The `Backend` trait: what consumes records.
//!
//! A backend applies batches in order and answers the records that need a reply. It knows
//! only what records told it: it never reads frontend memory, never holds a frontend pointer
//! and never asks the frontend a question. GL errors were decided by the engine before a
//! record was written, so a backend has no user errors to report; what it can report is what
//! the frontend cannot know (out of memory, device lost, a shader the driver refused), as
//! [`Event`]s. A record that breaks the protocol (an unknown or stale handle, a span outside
//! the stage, an impossible value) ends the session with a [`SessionError`].

use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rkyv::{Archive, Deserialize, Serialize};

use crate::batch::{ArchivedBatch, DecodeBatchError, SpanOutOfRange};
use crate::handle::{ObjectKind, RawHandle, SurfaceHandle};
use crate::record::ReplyId;

/// The answer to a record that asked for one.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[rkyv(derive(Debug))]
pub enum Reply {
    /// Bytes read back (`ReadPixels`, `ReadBuffer`).
    Bytes(Vec<u8>),
    /// A query result.
    Query(u64),
    /// Whether a fence signalled before the timeout.
    Fence(bool),
    /// The work before a `Finish` completed.
    Done,
    /// An image's memory exported for a host (`ExportTexture`), after the work that drew it
    /// completed on the device.
    Exported(ExportedMemory),
    /// An image handed to the host that lent the backend its device (`HandOverTexture`),
    /// after the work that drew it completed.
    HostImage(HostImage),
    /// A texture handed to the host whose GL share group the backend's context is in
    /// (`HandOverTexture` with `gl_texture`).
    HostTexture(HostTexture),
    /// The token of an `EGLImage` made of a texture (`ExportEglImage`; 0: none was made).
    EglImage(u64),
    /// An `EGLImage`'s dma-buf (`ExportDmaBuf`; `None`: the driver exports none).
    DmaBuf(Option<DmaBufPlanes>),
}

/// An `EGLImage` exported as a dma-buf (`EGL_MESA_image_dma_buf_export`): its DRM format and
/// modifier, and per plane a descriptor the backend left in the process's table
/// ([`hand_over_fd`]; the engine takes it), its stride and offset in bytes. Sent only on the
/// in-process transports, where the table is the engine's.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct DmaBufPlanes {
    /// DRM fourcc (`DRM_FORMAT_*`).
    pub fourcc: i32,
    /// DRM format modifier of every plane.
    pub modifier: u64,
    /// Per plane: the descriptor's token, stride and offset.
    pub planes: Vec<DmaBufPlane>,
}

/// One plane of [`DmaBufPlanes`].
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct DmaBufPlane {
    /// The token of its descriptor in the process's table ([`take_handed_fd`]).
    pub fd_token: u64,
    /// Bytes per row.
    pub stride: i32,
    /// Bytes from the start of the buffer.
    pub offset: i32,
}

/// A copy of a texture's image made on a device a host lent the backend, handed to the host
/// (raw Vulkan handles of the host's own device, meaningful in its process only; the engine
/// asks for one only on the in-process transports). The image and its memory belong to the
/// host, which destroys them.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct HostImage {
    /// The `VkImage` (`vk::Handle::as_raw`).
    pub image: u64,
    /// Its dedicated `VkDeviceMemory`.
    pub memory: u64,
    /// `VkFormat` of the image.
    pub vk_format: i32,
    /// Width and height in pixels.
    pub extent: [u32; 2],
    /// `VkImageLayout` the image is in (`SHADER_READ_ONLY_OPTIMAL`).
    pub layout: i32,
    /// `VkImageUsageFlags` it was made with.
    pub usage: u32,
    /// The queue family that owns it (the lent queue's).
    pub queue_family: u32,
    /// A binary `VkSemaphore` (`vk::Handle::as_raw`) of the host's device that the copy's
    /// submission signals, when the hand-over asked for one: the host waits on it in its
    /// own submission instead of the backend waiting on the CPU, and destroys it once that
    /// wait completed. 0 when the backend waited for the copy itself.
    pub semaphore: u64,
}

/// A copy of a texture's level 0 as a new native GL texture of the share group of a host's
/// context, which the backend's context joined (raw names and pointers of the host's
/// process; the engine asks for one only on the in-process transports). The texture belongs
/// to the host, which deletes it; the sync object too, when there is one.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct HostTexture {
    /// The texture's name (`GL_TEXTURE_2D`, one level, immutable storage).
    pub texture: u32,
    /// Its sized internal format, as the driver stores it.
    pub internal_format: u32,
    /// Width and height in pixels.
    pub extent: [u32; 2],
    /// A `GLsync` (the pointer as an integer) the copy signals, when the hand-over asked for
    /// one: the host waits on it in its own context (`glWaitSync` or `glClientWaitSync`)
    /// and deletes it. 0 when the backend waited for the copy itself.
    pub sync: u64,
}

/// A copy of a texture's image in memory exported as a file descriptor
/// (`VK_KHR_external_memory_fd`: opaque, or a dma-buf where the device can), with what an
/// importer needs to make the same image of it.
///
/// The descriptor number is valid in the backend's own process only: a server sends the
/// descriptor itself to its client ahead of the reply (`SCM_RIGHTS`), and the client's
/// transport puts its own number here (`transport::client`). The receiver owns the
/// descriptor ([`ExportedMemory::take_fd`]); the backend keeps no reference to the memory.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct ExportedMemory {
    /// The file descriptor (`vkGetMemoryFdKHR`).
    pub fd: i32,
    /// What an importer needs to make the same image of it.
    pub info: ExportedImageInfo,
}

/// What an importer needs of an exported image apart from its descriptor: the same
/// description in the backend's reply, in the engine's `ExportedImage` for hosts, and in any
/// message a host sends to another process with the descriptor.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct ExportedImageInfo {
    /// Its `VkExternalMemoryHandleTypeFlagBits`: `OPAQUE_FD`, or `DMA_BUF_EXT` where the
    /// device exports dma-bufs.
    pub handle_type: u32,
    /// Of a dma-buf: the DRM fourcc of the format (0 if it has none).
    pub drm_fourcc: u32,
    /// Of a dma-buf: the DRM format modifier (`DRM_FORMAT_MOD_LINEAR`, 0: linear tiling).
    pub drm_modifier: u64,
    /// `VkFormat` of the image.
    pub vk_format: i32,
    /// Width and height in pixels.
    pub extent: [u32; 2],
    /// `VkImageTiling` (`LINEAR`).
    pub tiling: i32,
    /// `VkImageUsageFlags` the image was made with (an importer's image must have the same).
    pub usage: u32,
    /// `VkImageLayout` the image is in at hand-over.
    pub layout: i32,
    /// Bytes of the allocation (`VkMemoryAllocateInfo::allocationSize` of the import).
    pub allocation_size: u64,
    /// Memory type bits of the image's requirements on the exporting device.
    pub memory_type_bits: u32,
    /// Byte offset of the first row in the memory (linear layout).
    pub offset: u64,
    /// Bytes from one row to the next (linear layout).
    pub row_pitch: u64,
    /// `VkPhysicalDeviceIDProperties::driverUUID` of the exporting device: an importer must
    /// have the same.
    pub driver_uuid: [u8; 16],
    /// `VkPhysicalDeviceIDProperties::deviceUUID` of the exporting device.
    pub device_uuid: [u8; 16],
}

impl ExportedMemory {
    /// Takes ownership of the descriptor: the caller closes it (or hands it to an import,
    /// which takes it over). Call once per reply; the number is meaningless in another
    /// process.
    pub fn take_fd(&self) -> std::os::fd::OwnedFd {
        use std::os::fd::FromRawFd;
        // SAFETY: `fd` is a descriptor `vkGetMemoryFdKHR` created in this process for this
        // reply alone; nothing else owns or closes it.
        unsafe { std::os::fd::OwnedFd::from_raw_fd(self.fd) }
    }
}

/// Descriptors the engine hands to a backend of its own process with a record
/// (`ImportTextureMemory`), by token: a record carries the token, never the descriptor's
/// number, so a record from another process (a server's client) finds nothing here and
/// cannot name one of the process's own descriptors.
static HANDED_FDS: Mutex<(u64, Vec<(u64, std::os::fd::OwnedFd)>)> = Mutex::new((0, Vec::new()));

/// Leaves `fd` in the process's table for the backend; returns its token (never 0).
pub fn hand_over_fd(fd: std::os::fd::OwnedFd) -> u64 {
    let mut t = HANDED_FDS.lock().unwrap_or_else(PoisonError::into_inner);
    t.0 += 1;
    let token = t.0;
    t.1.push((token, fd));
    token
}

/// Reserves a token of the process's table for a descriptor the backend leaves there later
/// ([`leave_fd`]): an export's `sync_file` fence, which the engine then takes with
/// [`take_handed_fd`]. The token is never 0.
pub fn reserve_fd_token() -> u64 {
    let mut t = HANDED_FDS.lock().unwrap_or_else(PoisonError::into_inner);
    t.0 += 1;
    t.0
}

/// Leaves `fd` in the process's table under `token`, one [`reserve_fd_token`] gave.
pub fn leave_fd(token: u64, fd: std::os::fd::OwnedFd) {
    let mut t = HANDED_FDS.lock().unwrap_or_else(PoisonError::into_inner);
    t.1.push((token, fd));
}

/// Takes the descriptor [`hand_over_fd`] left under `token`, once; `None` when this
/// process's table has none (a record from another process, or one taken already).
pub fn take_handed_fd(token: u64) -> Option<std::os::fd::OwnedFd> {
    let mut t = HANDED_FDS.lock().unwrap_or_else(PoisonError::into_inner);
    let at = t.1.iter().position(|(k, _)| *k == token)?;
    Some(t.1.swap_remove(at).1)
}

/// Something the backend reports without being asked.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[rkyv(derive(Debug))]
pub enum Event {
    /// The backend ran out of memory applying a record.
    OutOfMemory {
        /// What was being done.
        what: String,
    },
    /// The device was lost; the session is over.
    DeviceLost {
        /// The driver's words.
        reason: String,
    },
    /// The native driver refused a program the engine had linked.
    ProgramRejected {
        /// The driver's log.
        log: String,
    },
    /// The session ended because of a protocol violation.
    SessionEnded {
        /// Why.
        reason: String,
    },
    /// The native driver lacks something a record asked for; the backend carried on without
    /// it, or with the stand-in the message names. Reported once per feature and session;
    /// also once each time the backend stops presenting a surface into a window it could
    /// no longer present to (the client shows its frames instead; [`Outbox::detached`]).
    Unsupported {
        /// What is missing, and what was done instead.
        what: String,
    },
    /// A native API error caught by a backend's debug checks (`TESSERA_GLES_DEBUG=1`): a bug
    /// of the backend or of the driver, never of the application.
    NativeError {
        /// The record, and the driver's words.
        what: String,
    },
    /// Every live fence with a sequence up to `seq` signalled (the session's completion
    /// watermark moved; `crate::fence`). Client transports take it out of the event stream
    /// and publish it in their [`FenceMark`](crate::fence::FenceMark); a program never sees it.
    FencesCompleted {
        /// The new watermark.
        seq: u64,
    },
}

/// What a backend produced while applying a batch.
#[derive(Debug, Default)]
pub struct Outbox {
    /// Replies, in request order.
    pub replies: Vec<(ReplyId, Reply)>,
    /// Events.
    pub events: Vec<Event>,
    /// Surfaces the backend stopped presenting to their native window
    /// ([`Backend::attach_window`]): the surface was destroyed, or the window was lost (with
    /// an event saying why). Read by the in-process transports only: a backend in a server
    /// is never given a window.
    pub detached: Vec<SurfaceHandle>,
}

impl Outbox {
    /// Whether nothing was produced.
    pub fn is_empty(&self) -> bool {
        self.replies.is_empty() && self.events.is_empty() && self.detached.is_empty()
    }
}

/// A native window a backend in the program's own process may present a surface into
/// ([`Backend::attach_window`]). It is handed over out of band, never in a record: it holds
/// a pointer into the program's window-system connection, which means nothing to another
/// process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NativeTarget {
    kind: TargetKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TargetKind {
    Xcb {
        connection: *mut c_void,
        window: u32,
        visual: u32,
    },
    Wayland(WaylandTarget),
}

/// A Wayland window as a backend in the program's process presents into it
/// ([`NativeTarget::wayland`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaylandTarget {
    /// The program's `wl_display*`.
    pub display: *mut c_void,
    /// The program's `wl_surface*` the window shows.
    pub surface: *mut c_void,
    /// The program's `wl_egl_window*`, for its size. It is freed once its life ended: a
    /// backend reads it only while a hook it registered there has not run, under a lock
    /// that hook takes.
    pub window: *mut c_void,
    /// The window's life (an `Arc<WindowLife>` the window system holds; a backend that
    /// keeps the target takes a count of its own with [`WaylandTarget::life`]).
    life: *const WindowLife,
}

impl WaylandTarget {
    /// The window's life, a count of its own: hooks registered there run when the program
    /// destroys the window, before its `wl_surface` may go.
    pub fn life(&self) -> Arc<WindowLife> {
        // SAFETY: `life` is `Arc::as_ptr` of an `Arc` the window system keeps alive while
        // the target is valid (`NativeTarget::wayland`'s contract), so the count can be
        // raised and an `Arc` owning the new count made of the pointer.
        unsafe {
            Arc::increment_strong_count(self.life);
            Arc::from_raw(self.life)
        }
    }
}

/// Whether a native window still lives, and what must run before it goes.
///
/// A window system whose windows can be destroyed under a backend that presents into them
/// (Wayland: the program destroys its `wl_egl_window`, then its `wl_surface`) keeps one
/// per window and calls [`end`](Self::end) from wherever it learns the window is going
/// (libwayland-egl's destroy callback, in the program's thread, before the surface can be
/// destroyed). A backend registers a hook ([`on_end`](Self::on_end)) that tears down what
/// it made of the window; `end` returns only when every hook has run, so nothing of the
/// backend's outlives the window.
#[derive(Default)]
pub struct WindowLife {
    /// The hooks to run, by id; `None` once the window ended.
    hooks: Mutex<Option<Vec<(u64, EndHook)>>>,
    next: AtomicU64,
}

/// What a backend runs when a window ends.
pub type EndHook = Box<dyn FnOnce() + Send>;

impl std::fmt::Debug for WindowLife {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WindowLife")
            .field("ended", &self.ended())
            .finish()
    }
}

impl WindowLife {
    /// A live window's.
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            hooks: Mutex::new(Some(Vec::new())),
            next: AtomicU64::new(0),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Vec<(u64, EndHook)>>> {
        self.hooks.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the window ended.
    pub fn ended(&self) -> bool {
        self.lock().is_none()
    }

    /// Registers `hook` to run when the window ends; returns its id, or `None` (and drops
    /// the hook unrun) if the window ended already.
    pub fn on_end(&self, hook: EndHook) -> Option<u64> {
        let mut hooks = self.lock();
        let list = hooks.as_mut()?;
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        list.push((id, hook));
        Some(id)
    }

    /// Takes back hook `id` unrun (if it has not run).
    pub fn forget(&self, id: u64) {
        if let Some(list) = self.lock().as_mut() {
            list.retain(|(i, _)| *i != id);
        }
    }

    /// The window ends: runs every hook (on this thread, outside the lock, in the order
    /// they were registered), and from now on [`ended`](Self::ended) is true. A second
    /// call does nothing.
    pub fn end(&self) {
        let hooks = self.lock().take();
        for (_, hook) in hooks.into_iter().flatten() {
            hook();
        }
    }
}

// SAFETY: the connection pointer is never dereferenced here; it is an address handed to the
// backend's window-system binding (Vulkan's `VK_KHR_xcb_surface`). libxcb locks every
// connection internally, so its functions may be called from any thread, which is what
// presenting from the `thread` transport's render thread does; the pointer's validity is
// the contract of `NativeTarget::xcb`, which does not depend on the thread. The same holds
// of a Wayland target's display and surface (libwayland-client locks its display; proxies
// may be used from any thread), its `wl_egl_window` is read only under its life's rule
// (`NativeTarget::wayland`), and `WindowLife` is `Sync`.
unsafe impl Send for NativeTarget {}
// SAFETY: as for `Send`: shared references give only copies of the address and ids.
unsafe impl Sync for NativeTarget {}

impl NativeTarget {
    /// An X11 window reached through an XCB connection, with the window's visual (0 where
    /// it is not known).
    ///
    /// # Safety
    /// `connection` is a live `xcb_connection_t*` that stays open for as long as a backend
    /// may present to the window: until the surface the target was attached to is
    /// detached or destroyed, or the session with the backend ends.
    pub unsafe fn xcb(connection: *mut c_void, window: u32, visual: u32) -> Self {
        Self {
            kind: TargetKind::Xcb {
                connection,
                window,
                visual,
            },
        }
    }

    /// A Wayland window: the program's `wl_display*`, the `wl_surface*` it shows and its
    /// `wl_egl_window*`, and the window's life, which its window system ends
    /// ([`WindowLife::end`]) before the window is freed.
    ///
    /// # Safety
    /// `display` and `surface` are live proxies of the program's connection, and `window`
    /// the program's `wl_egl_window*` on `surface`; `life` stays alive (the window system
    /// holds it) until the surface the target was attached to is detached or destroyed, or
    /// the session with the backend ends; and the window system ends `life` before
    /// `window` is freed and before it stops watching the window.
    pub unsafe fn wayland(
        display: *mut c_void,
        surface: *mut c_void,
        window: *mut c_void,
        life: &Arc<WindowLife>,
    ) -> Self {
        Self {
            kind: TargetKind::Wayland(WaylandTarget {
                display,
                surface,
                window,
                life: Arc::as_ptr(life),
            }),
        }
    }

    /// The XCB connection, window and visual of an X11 window.
    pub fn as_xcb(&self) -> Option<(*mut c_void, u32, u32)> {
        match self.kind {
            TargetKind::Xcb {
                connection,
                window,
                visual,
            } => Some((connection, window, visual)),
            TargetKind::Wayland(_) => None,
        }
    }

    /// A Wayland window's display, surface, `wl_egl_window` and life.
    pub fn as_wayland(&self) -> Option<WaylandTarget> {
        match self.kind {
            TargetKind::Wayland(w) => Some(w),
            TargetKind::Xcb { .. } => None,
        }
    }
}

/// The program's window-system connection, for a backend in the program's own process that
/// can present windows only as objects of the same connection (the GLES backend: an EGL
/// context can only be made current with window surfaces of its own `EGLDisplay`, so its
/// display must be made on the connection the windows live on). Handed over when the
/// backend is created, never in a record, for the reason [`NativeTarget`] gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NativeDisplay {
    kind: DisplayKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DisplayKind {
    Xcb {
        connection: *mut c_void,
        screen: u32,
    },
    Wayland {
        display: *mut c_void,
    },
}

// SAFETY: as for `NativeTarget`: the pointer is an address handed to the backend's window
// system binding (EGL's XCB platform), whose libxcb locks every connection internally.
unsafe impl Send for NativeDisplay {}
// SAFETY: as for `Send`: shared references give only copies of the address.
unsafe impl Sync for NativeDisplay {}

impl NativeDisplay {
    /// An X11 display reached through an XCB connection, and its screen number.
    ///
    /// # Safety
    /// `connection` is a live `xcb_connection_t*` that stays open for as long as a backend
    /// created with it exists.
    pub unsafe fn xcb(connection: *mut c_void, screen: u32) -> Self {
        Self {
            kind: DisplayKind::Xcb { connection, screen },
        }
    }

    /// A Wayland display: the program's `wl_display*`.
    ///
    /// # Safety
    /// `display` is a live `wl_display*` that stays connected for as long as a backend
    /// created with it exists.
    pub unsafe fn wayland(display: *mut c_void) -> Self {
        Self {
            kind: DisplayKind::Wayland { display },
        }
    }

    /// The XCB connection and screen number of an X11 display.
    pub fn as_xcb(&self) -> Option<(*mut c_void, u32)> {
        match self.kind {
            DisplayKind::Xcb { connection, screen } => Some((connection, screen)),
            DisplayKind::Wayland { .. } => None,
        }
    }

    /// The `wl_display*` of a Wayland display.
    pub fn as_wayland(&self) -> Option<*mut c_void> {
        match self.kind {
            DisplayKind::Wayland { display } => Some(display),
            DisplayKind::Xcb { .. } => None,
        }
    }

    /// Whether `target` is a window of this display.
    pub fn holds(&self, target: &NativeTarget) -> bool {
        match (self.kind, target.kind) {
            (DisplayKind::Xcb { connection, .. }, TargetKind::Xcb { connection: c, .. }) => {
                connection == c
            }
            (DisplayKind::Wayland { display }, TargetKind::Wayland(w)) => display == w.display,
            _ => false,
        }
    }
}

/// Limits and capabilities a backend reports when a session starts.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct Caps {
    /// Backend name (`null`, `gles`, `vulkan`).
    pub backend: String,
    /// The native device, in the driver's words.
    pub device: String,
    /// Largest 1D/2D texture dimension.
    pub max_texture_size: u32,
    /// Largest 3D texture dimension.
    pub max_3d_texture_size: u32,
    /// Most array layers.
    pub max_array_layers: u32,
    /// Largest cube map face.
    pub max_cube_size: u32,
    /// Largest renderbuffer dimension.
    pub max_renderbuffer_size: u32,
    /// Most samples of a multisampled image.
    pub max_samples: u32,
    /// The sample counts multisampled images can have, bit `k` for `2^k` samples (Vulkan's
    /// `VkSampleCountFlags` encoding; bit 0, one sample, is always set). The engine rounds an
    /// image's requested count up to one of these, since that is what the backend allocates.
    pub sample_counts: u32,
    /// Largest viewport dimension.
    pub max_viewport_size: u32,
    /// Alignment of a buffer texture's range offset (`TEXTURE_BUFFER_OFFSET_ALIGNMENT`:
    /// Vulkan's `minTexelBufferOffsetAlignment`, the GLES driver's query of GL's name).
    pub texture_buffer_offset_alignment: u32,
    /// The largest index an indexed draw honours (`MAX_ELEMENT_INDEX`: Vulkan's
    /// `maxDrawIndexedIndexValue`, the GLES driver's query of GL's name).
    pub max_element_index: u32,
    /// Most components of the vertex stage's outputs (`MAX_VERTEX_OUTPUT_COMPONENTS`).
    pub max_vertex_output_components: u32,
    /// Most components of the geometry stage's inputs (`MAX_GEOMETRY_INPUT_COMPONENTS`).
    pub max_geometry_input_components: u32,
    /// Compute and shader storage buffer limits.
    pub compute: ComputeCaps,
    /// Tessellation limits.
    pub tessellation: TessellationCaps,
    /// Texture gathers (`GL_ARB_texture_gather`), `None` where the backend has none (a GLES
    /// driver below ES 3.1).
    pub gather: Option<GatherCaps>,
    /// The rest of GLSL 4.00's `GL_ARB_gpu_shader5` (`interpolateAt*`, geometry shader
    /// invocations, sampler and block arrays indexed by dynamically uniform expressions,
    /// `fma`, `precise`), `None` where the backend lacks some of it (a GLES driver below ES
    /// 3.2).
    pub gpu_shader5: Option<Shader5Caps>,
    /// Whether shaders have GLSL 4.20's packing functions (`GL_ARB_shading_language_packing`;
    /// Vulkan always, a GLES driver's ES 3.1, whose GLSL ES has the 4x8 forms).
    pub packing: bool,
    /// Whether the backend can view one texture's storage through another
    /// (`GL_ARB_texture_view`; a GLES driver needs `OES_texture_view` or `EXT_texture_view`).
    pub texture_views: bool,
    /// Whether the backend samples BPTC's four formats from their blocks
    /// (`GL_ARB_texture_compression_bptc`; Vulkan's BC7 and BC6H formats, a GLES driver's
    /// `EXT_texture_compression_bptc`).
    pub bptc: bool,
    /// Whether each draw buffer blends with its own enable, factors and equations
    /// (`GL_ARB_draw_buffers_blend`; Vulkan's `independentBlend`, a GLES driver's ES 3.2 or
    /// `*_draw_buffers_indexed`).
    pub indexed_blend: bool,
    /// Whether the backend has cube map array textures and samplers
    /// (`GL_ARB_texture_cube_map_array`; Vulkan's `imageCubeArray`, a GLES driver's ES 3.2).
    pub cube_map_arrays: bool,
    /// Whether the backend shades per sample (`GL_ARB_sample_shading`; Vulkan's
    /// `sampleRateShading`, a GLES driver's ES 3.2 or `OES_sample_shading`).
    pub sample_shading: bool,
    /// Whether the backend has GL's 16 viewports and scissor rectangles, chosen per primitive
    /// by `gl_ViewportIndex` (`GL_ARB_viewport_array`; Vulkan's `multiViewport` with at least
    /// 16 `maxViewports`, a GLES driver's `OES_viewport_array` or `NV_viewport_array`).
    pub viewport_arrays: bool,
    /// Whether shaders may use doubles (`GL_ARB_gpu_shader_fp64`): Vulkan's `shaderFloat64`;
    /// a GLES driver has none, so only where the embedder lets the GLES backend narrow them
    /// to floats (`TESSERA_GLES_FP64=narrow`). Without it a program with doubles fails to
    /// link.
    pub fp64: bool,
    /// Whether the doubles of [`Caps::fp64`] are computed as floats (the GLES backend's
    /// narrowing): the backend converts the default block's doubles, so a program with
    /// doubles in a buffer-backed block or captured by transform feedback, whose bytes it
    /// cannot convert, fails to link.
    pub fp64_narrowed: bool,
    /// Whether vertex arrays of doubles reach `double`/`dvec*` inputs
    /// (`GL_ARB_vertex_attrib_64bit`): Vulkan's `R64*_SFLOAT` vertex formats with
    /// `shaderFloat64`; on GLES as [`Caps::fp64`].
    pub vertex_attrib_64bit: bool,
    /// Whether the backend carries out image load and store in full
    /// (`GL_ARB_shader_image_load_store`, `GL_ARB_shader_image_size`): Vulkan with one slice
    /// of a 3D level as a 2D storage image (`VK_EXT_image_2d_view_of_3d`); not a GLES
    /// driver, whose GLSL ES 3.10 refuses read-write images of formats other than `r32*`,
    /// images without a format qualifier, `rg*` formats and image arrays indexed with a
    /// non-constant expression, which the translation does not rewrite.
    pub image_load_store: bool,
    /// Whether buffer textures may hold three-component 32-bit texels, `RGB32F`, `RGB32I`
    /// and `RGB32UI` (`GL_ARB_texture_buffer_object_rgb32`): Vulkan's `R32G32B32_*` formats
    /// with the `UNIFORM_TEXEL_BUFFER` buffer feature, a GLES driver's buffer textures (ES
    /// 3.2's and `OES/EXT_texture_buffer`'s formats include the three).
    pub texture_buffer_rgb32: bool,
    /// Whether textures of depth-stencil formats can be sampled for their stencil
    /// (`GL_ARB_stencil_texturing`): Vulkan's stencil-aspect views, a GLES driver's ES 3.1
    /// `DEPTH_STENCIL_TEXTURE_MODE`.
    pub stencil_texturing: bool,
    /// Whether textures may be stencil-only, `STENCIL_INDEX8` (`GL_ARB_texture_stencil8`):
    /// sampled through unsigned samplers, attached for stencil tests, uploaded and read
    /// back. Vulkan's `S8_UINT` where the device samples and attaches it, a GLES driver's ES
    /// 3.2 or `OES_texture_stencil8`.
    pub texture_stencil8: bool,
    /// Whether shaders may query a texture's level of detail and level count
    /// (`textureQueryLod`, `textureQueryLevels`: `GL_ARB_texture_query_lod` and
    /// `GL_ARB_texture_query_levels`): Vulkan's `OpImageQueryLod` and `OpImageQueryLevels`;
    /// not a GLES driver, whose GLSL ES has neither.
    pub texture_level_queries: bool,
    /// Whether fragment shaders read `gl_Layer` (`GL_ARB_fragment_layer_viewport`, with
    /// [`Caps::viewport_arrays`] for `gl_ViewportIndex`): Vulkan's geometry shaders, a GLES
    /// driver's ES 3.2.
    pub fragment_layer: bool,
    /// The vertex streams a geometry shader may emit to and transform feedback captures
    /// (`MAX_VERTEX_STREAMS`): Vulkan's `maxTransformFeedbackStreams` (up to 4) with the
    /// `geometryStreams` feature, else 1 (a GLES driver has one stream).
    pub max_vertex_streams: u32,
    /// Whether the backend carries out `glClipControl` (`GL_ARB_clip_control`): the upper-left
    /// origin (Vulkan's negative viewport height with the winding flipped) and the [0, 1]
    /// clip-space depth (Vulkan's own, where `VK_EXT_depth_clip_control` maps GL's [-1, 1]
    /// per pipeline; without it the SPIR-V is patched for [-1, 1] alone), a GLES driver's
    /// `GL_EXT_clip_control`.
    pub clip_control: bool,
    /// Whether vertex stages read `gl_DrawID`, `gl_BaseVertex` and `gl_BaseInstance`
    /// (`GL_ARB_shader_draw_parameters`): Vulkan 1.1's `shaderDrawParameters`; no GLES
    /// driver (GLSL ES has none of the three).
    pub draw_parameters: bool,
    /// `MAX_CULL_DISTANCES` (`GL_ARB_cull_distance`): Vulkan's `maxCullDistances` with the
    /// `shaderCullDistance` feature, a GLES driver's with `GL_EXT_clip_cull_distance`; 0
    /// where the backend has no cull distances.
    pub max_cull_distances: u32,
    /// `MAX_COMBINED_CLIP_AND_CULL_DISTANCES`, from the same source (0 without cull
    /// distances).
    pub max_combined_clip_and_cull_distances: u32,
    /// Whether a draw may sample a texture it renders to, and see after a texture barrier
    /// what earlier draws wrote to it (`GL_ARB_texture_barrier`): a GLES driver, which
    /// samples an attached texture and orders the writes at `glMemoryBarrier`; not Vulkan,
    /// where an image cannot be in the sampled and the attachment layout at once.
    pub texture_barrier: bool,
    /// Whether samplers take `MIRROR_CLAMP_TO_EDGE` (`GL_ARB_texture_mirror_clamp_to_edge`):
    /// Vulkan's `VK_KHR_sampler_mirror_clamp_to_edge`, a GLES driver's
    /// `GL_EXT_texture_mirror_clamp_to_edge`.
    pub mirror_clamp_to_edge: bool,
    /// Whether the depth bias may be clamped (`GL_ARB_polygon_offset_clamp`): Vulkan's
    /// `depthBiasClamp` feature, a GLES driver's `GL_EXT_polygon_offset_clamp`.
    pub polygon_offset_clamp: bool,
    /// The largest anisotropy samplers filter with (`MAX_TEXTURE_MAX_ANISOTROPY`,
    /// `GL_ARB_texture_filter_anisotropic`), 0 where they have none: Vulkan's
    /// `maxSamplerAnisotropy` with the `samplerAnisotropy` feature, a GLES driver's
    /// `GL_EXT_texture_filter_anisotropic` query.
    pub max_anisotropy: u32,
    /// Whether vertex arrays of `UNSIGNED_INT_10F_11F_11F_REV` reach float inputs
    /// (`GL_ARB_vertex_type_10f_11f_11f_rev`): Vulkan's `B10G11R11_UFLOAT_PACK32` vertex
    /// format; a GLES driver, which has none, reads a converted copy of the array.
    pub vertex_10f_11f_11f: bool,
    /// Whether queries count the pipeline's work (`GL_ARB_pipeline_statistics_query`:
    /// vertices and primitives submitted, shader invocations per stage, clipping's input and
    /// output): Vulkan's `pipelineStatisticsQuery`; no GLES driver (ES has no such query).
    pub pipeline_statistics: bool,
    /// Whether queries tell a captured vertex stream's overflow
    /// (`GL_ARB_transform_feedback_overflow_query`): Vulkan's transform feedback stream
    /// queries, which count the primitives written and those the stream needed; not GLES.
    pub transform_feedback_overflow: bool,
    /// Whether the backend's buffer reads stay inside their buffers (GL robust buffer
    /// access, `GL_ARB_robust_buffer_access_behavior`): a shader's or a vertex fetch's read
    /// past a bound range gives zero or values from within the buffer, and a write past it
    /// is dropped. Vulkan's `robustBufferAccess` feature, which the backend enables wherever
    /// the device has it; a GLES driver's robust-access context
    /// (`EGL_EXT_create_context_robustness`), which the backend asks for wherever the driver
    /// offers it. A robust-access context (`EGL_CONTEXT_OPENGL_ROBUST_ACCESS`) needs it.
    pub robust_buffer_access: bool,
    /// Whether shaders' enhanced layouts reach the backend (`GL_ARB_enhanced_layouts`):
    /// `component` qualifiers on inputs and outputs, explicit block member offsets of any
    /// block, and the transform feedback a shader declares. Vulkan's SPIR-V carries them
    /// as decorations; a GLES driver's GLSL ES has no `component` qualifier (the translation
    /// refuses them) nor explicit offsets in push-constant-like blocks.
    pub enhanced_layouts: bool,
    /// Whether a texture's image can be exported as Vulkan memory (`ExportTexture`; the
    /// Vulkan backend on a device with `VK_KHR_external_memory_fd`).
    pub memory_export: bool,
    /// The driver UUID and the device UUID of the backend's Vulkan device
    /// (`VkPhysicalDeviceIDProperties`), which `GL_EXT_memory_object`'s queries answer; zero
    /// where the backend has none (no `memory_export`).
    pub device_uuids: [[u8; 16]; 2],
    /// Whether the backend renders on a device a host lent it, and hands textures to the
    /// host as images of that device (`HandOverTexture`).
    pub host_images: bool,
    /// Whether the backend imports semaphores a Vulkan program exported as opaque
    /// descriptors and waits on and signals them (`WaitSemaphore`, `SignalSemaphore`;
    /// the Vulkan backend on a device with `VK_KHR_external_semaphore_fd` that imports
    /// `OPAQUE_FD`).
    pub semaphore_fd: bool,
    /// Whether an export can come with a `sync_file` fence instead of the backend waiting
    /// for the copy (`ExportTexture`'s `fence_token`; the Vulkan backend on a device with
    /// `VK_KHR_external_semaphore_fd` that exports `SYNC_FD`).
    pub sync_fd_export: bool,
    /// Whether the backend's context is in the share group of a host's GL context, and
    /// hands textures to the host as native textures of that group (`HandOverTexture` with
    /// `gl_texture`).
    pub host_textures: bool,
    /// Whether the backend shares textures between sessions of the process as native
    /// `EGLImage`s (`ExportEglImage`, `ImportEglImage`; the GLES backend on a driver with
    /// `EGL_KHR_gl_texture_2D_image` and `GL_OES_EGL_image`).
    pub egl_images: bool,
}

/// A backend's compute and shader storage buffer limits (Vulkan's `maxCompute*` and
/// storage-buffer limits, the GLES driver's queries of GL's names).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct ComputeCaps {
    /// Most work groups of one dispatch, per dimension.
    pub max_work_group_count: [u32; 3],
    /// Largest work group, per dimension.
    pub max_work_group_size: [u32; 3],
    /// Most invocations of one work group.
    pub max_work_group_invocations: u32,
    /// Most bytes of `shared` variables.
    pub max_shared_memory_size: u32,
    /// Most storage buffers one stage reads (vertex, fragment and compute alike).
    pub max_storage_blocks: u32,
    /// Largest storage buffer range a shader reads.
    pub max_storage_block_size: u32,
    /// Alignment of a bound storage buffer range's offset.
    pub storage_offset_alignment: u32,
}

/// A backend's texture gathers: the range of their texel offsets (Vulkan's
/// `minTexelGatherOffset`/`maxTexelGatherOffset`, the GLES driver's
/// `MIN/MAX_PROGRAM_TEXTURE_GATHER_OFFSET`) and whether offsets may vary and come four at a
/// time (`textureGatherOffsets`: `GL_ARB_gpu_shader5`'s gathers; Vulkan's
/// `shaderImageGatherExtended`, a GLES driver's ES 3.2 or `EXT_gpu_shader5`).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct GatherCaps {
    /// `MIN_PROGRAM_TEXTURE_GATHER_OFFSET`.
    pub min_offset: i32,
    /// `MAX_PROGRAM_TEXTURE_GATHER_OFFSET`.
    pub max_offset: i32,
    /// Non-constant offsets and `textureGatherOffsets`.
    pub extended: bool,
}

/// A backend's limits of GLSL 4.00's `GL_ARB_gpu_shader5`.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct Shader5Caps {
    /// Most invocations of a geometry shader (`MAX_GEOMETRY_SHADER_INVOCATIONS`: Vulkan's
    /// `maxGeometryShaderInvocations`, the GLES driver's ES 3.2 query).
    pub max_geometry_invocations: u32,
}

/// A backend's tessellation limits (Vulkan's `maxTessellation*`, the GLES driver's queries of
/// GL's names); all zero where the backend has no tessellation stages.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct TessellationCaps {
    /// Most vertices of a patch (`MAX_PATCH_VERTICES`).
    pub max_patch_vertices: u32,
    /// Largest tessellation level (`MAX_TESS_GEN_LEVEL`).
    pub max_gen_level: u32,
    /// Most components of a control stage's per-vertex inputs.
    pub max_control_input_components: u32,
    /// Most components of a control stage's per-vertex outputs.
    pub max_control_output_components: u32,
    /// Most components of a control stage's per-patch outputs.
    pub max_patch_components: u32,
    /// Most components of all of a control stage's outputs.
    pub max_control_total_output_components: u32,
    /// Most components of an evaluation stage's per-vertex inputs.
    pub max_evaluation_input_components: u32,
    /// Most components of an evaluation stage's outputs.
    pub max_evaluation_output_components: u32,
}

impl TessellationCaps {
    /// No tessellation stages (a GLES driver without them): the engine then refuses the
    /// tessellation shader types and `PATCHES`.
    pub fn none() -> Self {
        Self {
            max_patch_vertices: 0,
            max_gen_level: 0,
            max_control_input_components: 0,
            max_control_output_components: 0,
            max_patch_components: 0,
            max_control_total_output_components: 0,
            max_evaluation_input_components: 0,
            max_evaluation_output_components: 0,
        }
    }

    /// GL 4.0's minimums (what the null backend offers).
    pub fn gl40_minimum() -> Self {
        Self {
            max_patch_vertices: 32,
            max_gen_level: 64,
            max_control_input_components: 128,
            max_control_output_components: 128,
            max_patch_components: 120,
            max_control_total_output_components: 4096,
            max_evaluation_input_components: 128,
            max_evaluation_output_components: 128,
        }
    }
}

impl ComputeCaps {
    /// No compute stage and no storage buffers (a GLES 3.0 driver): the engine then
    /// refuses `GL_COMPUTE_SHADER` and reports these zeros.
    pub fn none() -> Self {
        Self {
            max_work_group_count: [0; 3],
            max_work_group_size: [0; 3],
            max_work_group_invocations: 0,
            max_shared_memory_size: 0,
            max_storage_blocks: 0,
            max_storage_block_size: 0,
            storage_offset_alignment: 4,
        }
    }

    /// GL 4.3's minimums (what the null backend offers).
    pub fn gl43_minimum() -> Self {
        Self {
            max_work_group_count: [65535; 3],
            max_work_group_size: [1024, 1024, 64],
            max_work_group_invocations: 1024,
            max_shared_memory_size: 32768,
            max_storage_blocks: 8,
            max_storage_block_size: 1 << 24,
            storage_offset_alignment: 256,
        }
    }
}

impl Caps {
    /// The GL 3.3 minimum limits (what the null backend offers).
    pub fn gl33_minimum(backend: &str) -> Self {
        Self {
            backend: backend.to_owned(),
            device: "none".to_owned(),
            max_texture_size: 8192,
            max_3d_texture_size: 2048,
            max_array_layers: 2048,
            max_cube_size: 8192,
            max_renderbuffer_size: 8192,
            max_samples: 4,
            // 1 and 4 samples, as Mesa's software drivers (llvmpipe, lavapipe) have.
            sample_counts: 0b101,
            max_viewport_size: 8192,
            // GL 4.3's largest allowed value.
            texture_buffer_offset_alignment: 256,
            // OpenGL ES 3.0's and Vulkan's minimum.
            max_element_index: (1 << 24) - 1,
            max_vertex_output_components: 64,
            max_geometry_input_components: 64,
            compute: ComputeCaps::gl43_minimum(),
            tessellation: TessellationCaps::gl40_minimum(),
            gather: Some(GatherCaps {
                min_offset: -8,
                max_offset: 7,
                extended: true,
            }),
            gpu_shader5: Some(Shader5Caps {
                max_geometry_invocations: 32,
            }),
            packing: true,
            texture_views: true,
            bptc: true,
            indexed_blend: true,
            cube_map_arrays: true,
            sample_shading: true,
            viewport_arrays: true,
            fp64: true,
            fp64_narrowed: false,
            vertex_attrib_64bit: true,
            image_load_store: true,
            texture_buffer_rgb32: true,
            stencil_texturing: true,
            texture_stencil8: true,
            texture_level_queries: true,
            fragment_layer: true,
            max_vertex_streams: 4,
            clip_control: true,
            draw_parameters: true,
            max_cull_distances: 8,
            max_combined_clip_and_cull_distances: 8,
            texture_barrier: true,
            mirror_clamp_to_edge: true,
            polygon_offset_clamp: true,
            // Mesa's software drivers' (llvmpipe, lavapipe).
            max_anisotropy: 16,
            vertex_10f_11f_11f: true,
            pipeline_statistics: true,
            transform_feedback_overflow: true,
            robust_buffer_access: true,
            enhanced_layouts: true,
            memory_export: false,
            device_uuids: [[0; 16]; 2],
            host_images: false,
            semaphore_fd: false,
            sync_fd_export: false,
            host_textures: false,
            egl_images: false,
        }
    }
}

/// Why a session ended.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The batch bytes did not decode.
    #[error("{0}")]
    Decode(String),
    /// A span lay outside the stage.
    #[error(transparent)]
    Span(#[from] SpanOutOfRange),
    /// A record used a handle that is not live (never created, destroyed, or an old
    /// generation).
    #[error("record {record} uses {kind:?} handle {handle}, which is not live")]
    StaleHandle {
        /// Record name.
        record: &'static str,
        /// Kind of the handle.
        kind: ObjectKind,
        /// The handle.
        handle: RawHandle,
    },
    /// A create record reused a live slot or did not advance its generation.
    #[error("record {record} creates {kind:?} handle {handle} over a live or newer object")]
    BadCreate {
        /// Record name.
        record: &'static str,
        /// Kind of the handle.
        kind: ObjectKind,
        /// The handle.
        handle: RawHandle,
    },
    /// A record carried a value no engine would produce.
    #[error("record {record}: {what}")]
    BadValue {
        /// Record name.
        record: &'static str,
        /// What was wrong.
        what: String,
    },
    /// The peer went away or the transport broke.
    #[error("transport: {0}")]
    Transport(String),
    /// The backend itself failed.
    #[error("backend: {0}")]
    Backend(String),
}

/// A record that carried a value no engine would produce: [`SessionError::BadValue`].
pub fn bad_value(record: &'static str, what: impl Into<String>) -> SessionError {
    SessionError::BadValue {
        record,
        what: what.into(),
    }
}

impl From<DecodeBatchError> for SessionError {
    fn from(e: DecodeBatchError) -> Self {
        SessionError::Decode(e.to_string())
    }
}

/// Native work a backend did that a steady-state frame must never need: what the benchmark
/// prints and the steady-state tests assert is zero. Running totals since the backend was
/// created; backends that create nothing natively (null) report zeros.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct BackendCounters {
    /// Native shaders compiled (GLES: `glCompileShader`).
    pub shaders_compiled: u64,
    /// Native programs linked (GLES: `glLinkProgram`).
    pub programs_linked: u64,
    /// Native pipelines created (Vulkan: graphics pipelines).
    pub pipelines_created: u64,
    /// Native objects live now (`crate::census`): not a running total.
    pub native_objects: i64,
    /// Device memory the backend holds now, in bytes: not a running total (Vulkan: what its
    /// allocator took from the device; GLES: an estimate, the sizes of the buffers and
    /// texture images it created; null: 0). Read from running totals, so cheap enough
    /// to read every progress report (the server's placement weighs it: `placement.rs`).
    pub device_memory: u64,
}

impl BackendCounters {
    /// Every creation counted, of any kind.
    pub fn creations(&self) -> u64 {
        self.shaders_compiled + self.programs_linked + self.pipelines_created
    }
}

/// Consumes batches of records.
pub trait Backend: Send {
    /// Limits and names, reported once when the session starts.
    fn caps(&self) -> Caps;

    /// Applies one validated batch. An error ends the session: the caller reports it and
    /// applies nothing more.
    fn apply(&mut self, batch: BatchView<'_>, out: &mut Outbox) -> Result<(), SessionError>;

    /// Native creations so far (a server reports them in its probe reply); `None` for a
    /// backend that does not count them.
    fn counters(&self) -> Option<BackendCounters> {
        None
    }

    /// The backend's count of the native objects it holds (`crate::census`), which stays
    /// readable after the backend is dropped: what it still counts then was left behind.
    /// `None` for a backend that creates nothing natively.
    fn native_census(&self) -> Option<crate::census::NativeCensus> {
        None
    }

    /// The thread that applied the last batch will not apply the next one (its GL context
    /// is being made current elsewhere): release whatever is bound to that thread, such as a
    /// native context that must be current on exactly one thread. Called by the in-process
    /// transport on the releasing thread; other transports apply on threads of their own.
    fn release_thread(&mut self) {}

    /// Looks at the session's pending fences (`crate::fence`), waiting up to `timeout_ns`
    /// for the oldest, and reports a moved watermark in `out` as
    /// [`Event::FencesCompleted`]. Returns whether fences are still pending. Called between
    /// batches by a transport whose backend would otherwise not look until the next batch
    /// (the in-process transport when a client polls; the render thread while idle).
    ///
    /// Required, with no default: a backend that wraps another must forward it, or a client
    /// waiting on a fence sees it signal only when some later batch arrives. A backend
    /// without a dispatcher's fences returns `Ok(false)` (nothing pending).
    fn poll_fences(&mut self, timeout_ns: u64, out: &mut Outbox) -> Result<bool, SessionError>;

    /// Presents `surface` into `window` from now on (`None`: stops): at each `Present` of
    /// the surface the backend shows its colour image in the window itself, with swap
    /// interval `interval` (0: as soon as possible; 1: at most once per vertical blank), and
    /// the frame is on its way to the window by the time the batch is applied. Returns
    /// whether it does; `false` (the default: a backend that cannot present, or not to this
    /// window) leaves showing frames to the client. Called between batches, by the
    /// in-process transports only, after the batch that created the surface; asking again
    /// with the same window is cheap. The backend reports a surface it stops presenting on
    /// its own (the window is lost, the surface destroyed) in [`Outbox::detached`].
    fn attach_window(
        &mut self,
        _surface: SurfaceHandle,
        _window: Option<NativeTarget>,
        _interval: i32,
    ) -> bool {
        false
    }
}

/// One received batch, already validated.
#[derive(Clone, Copy, Debug)]
pub struct BatchView<'a> {
    /// The validated archive.
    pub archived: &'a ArchivedBatch,
    /// The archive's bytes, exactly as received.
    pub bytes: &'a [u8],
    /// The stage area that came with it (check spans with [`crate::batch::Stage`]).
    pub stage: &'a [u8],
    /// The session's mapping heap, where its transport has one (`shm`, `fork`): what
    /// `AttachHeapRange` records name.
    pub heap: Option<&'a crate::transport::heap::HeapView>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn a_window_life_runs_each_hook_once_at_its_end_and_none_it_took_back() {
        let life = WindowLife::new();
        let ran = Arc::new(AtomicUsize::new(0));
        let hook = |n: usize| -> EndHook {
            let ran = ran.clone();
            Box::new(move || {
                ran.fetch_add(n, Ordering::SeqCst);
            })
        };
        let kept = life.on_end(hook(1)).expect("a live window takes hooks");
        let forgotten = life.on_end(hook(10)).expect("a live window takes hooks");
        assert_ne!(kept, forgotten);
        life.forget(forgotten);
        assert!(!life.ended());
        life.end();
        assert!(life.ended());
        assert_eq!(ran.load(Ordering::SeqCst), 1);
        life.end();
        assert_eq!(ran.load(Ordering::SeqCst), 1);
        assert_eq!(life.on_end(hook(100)), None);
        assert_eq!(ran.load(Ordering::SeqCst), 1);
    }
}

/// libwayland-egl's `struct wl_egl_window` (`wayland-egl-backend.h`, version 3): the stable
/// ABI between a `wl_egl_window`'s owner (the program, or the GLES backend for its own
/// window surface) and the EGL driver that presents into it, which reads the size and the
/// surface and sets the callbacks.
#[repr(C)]
#[derive(Debug)]
pub struct WlEglWindow {
    /// [`WL_EGL_WINDOW_VERSION`].
    pub version: isize,
    /// The size the owner asked for.
    pub width: i32,
    /// The size the owner asked for.
    pub height: i32,
    /// The attach offset of the next buffer.
    pub dx: i32,
    /// The attach offset of the next buffer.
    pub dy: i32,
    /// The size of the buffer last attached.
    pub attached_width: i32,
    /// The size of the buffer last attached.
    pub attached_height: i32,
    /// The driver's state.
    pub driver_private: *mut c_void,
    /// Called by `wl_egl_window_resize`.
    pub resize_callback: Option<unsafe extern "C" fn(*mut WlEglWindow, *mut c_void)>,
    /// Called by `wl_egl_window_destroy`.
    pub destroy_window_callback: Option<unsafe extern "C" fn(*mut c_void)>,
    /// The `wl_surface`.
    pub surface: *mut c_void,
}

/// The `version` of [`WlEglWindow`]'s layout. Before it, the struct began with the surface
/// pointer, whose value is never this small.
pub const WL_EGL_WINDOW_VERSION: isize = 3;

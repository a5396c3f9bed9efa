//! Presenting surfaces into X11 windows: a `VkSurfaceKHR` of the window and a swapchain
//! per attached surface, and what `Present` does for such a surface.
//!
//! In the program's own process the engine may hand the backend the window of a surface
//! (`Backend::attach_window`, out of band: a window is never in a record). The backend
//! then makes a surface of it (`VK_KHR_xcb_surface`, on the program's XCB connection),
//! checks that its queue family can present there, and makes a swapchain:
//!
//! - **format**: `B8G8R8A8`, else `R8G8B8A8`, else what the window offers, with the
//!   encoding of the surface's colour image (sRGB-encoded images go to an sRGB swapchain:
//!   the copy keeps the stored bytes, as the client's read-back would), and which the device
//!   can blit into;
//! - **extent**: the window's (`currentExtent`), else the surface's;
//! - **present mode**: swap interval 0 takes `IMMEDIATE`, else `MAILBOX`, where the window
//!   offers them; otherwise, and for interval 1, `FIFO`. The choice is logged (info) and
//!   kept in the probe ([`VkProbe::present_mode`](crate::VkProbe::present_mode)).
//!
//! At `Present` of such a surface: acquire an image (semaphore, bounded wait), then in the
//! batch's command buffer make the colour image a transfer source (resolving it first when
//! multisampled, as `ReadPixels` does), blit it into the swapchain image at the window's
//! top-left corner, flipped from GL's bottom-up rows to the window's top-down ones (the
//! rectangle the client's read-back would show; the rest of a larger window is cleared),
//! move that to `PRESENT_SRC`, submit signalling a semaphore, and queue the present on it.
//! With `VK_KHR_present_wait` and interval 1, `Present` then waits (at most a second) until
//! the frame is shown; drivers whose window-system integration puts the image
//! synchronously (lavapipe's on X11) have it shown when `vkQueuePresentKHR` returns.
//!
//! **Which path.** `TESSERA_VK_PRESENT` chooses: `wsi` (this module), `client` (the engine
//! reads each frame back and shows it, as over a process transport), or `auto` (the
//! default): this module on a GPU, the client path on a CPU device. On lavapipe the client
//! path is the faster (a 1280x720 clear-and-swap loop: about 240 frames/s against 110),
//! because lavapipe draws the flipping blit as a shader pass and its X11 WSI puts each image
//! through the socket, where the client path uses MIT-SHM.
//!
//! A suboptimal or out-of-date swapchain is made again at the next present. A lost surface
//! (the window was destroyed, its connection broke) or any other failure detaches the
//! surface: an `Unsupported` event says why, [`Outbox::detached`] names the surface, and the
//! engine shows its frames itself from then on. Nothing here panics or waits without a
//! bound on the window system. Destroying or detaching the surface destroys the swapchain
//! and the `VkSurfaceKHR` once the queue is idle.
//!
//! [`Outbox::detached`]: tessera_wire::Outbox::detached

use ash::vk;
use tessera_wire::backend::NativeTarget;
use tessera_wire::handle::SurfaceHandle;
use tessera_wire::{Event, SessionError};

use crate::device::{VkPipe, count, vk_error};
use crate::framebuffer::ImageRef;
use crate::image::{ImageSource, transition};

/// How long acquiring a swapchain image may take before the frame is dropped.
const ACQUIRE_TIMEOUT_NS: u64 = 1_000_000_000;

/// How long a swap at interval 1 waits for its frame to be shown (`VK_KHR_present_wait`).
const PRESENT_WAIT_NS: u64 = 1_000_000_000;

/// A surface's presentation into a window.
pub(crate) struct Presenter {
    target: NativeTarget,
    /// The X11 window (for messages).
    window: u32,
    interval: i32,
    surface: vk::SurfaceKHR,
    swapchain: vk::SwapchainKHR,
    images: Vec<vk::Image>,
    extent: vk::Extent2D,
    mode: vk::PresentModeKHR,
    /// One per swapchain image: signalled by the copy into it, waited by its present.
    copied: Vec<vk::Semaphore>,
    /// Acquire semaphores, each with the serial of the submission that last waited on it
    /// (0: none); one is reused once that submission has retired.
    acquire: Vec<(vk::Semaphore, u64)>,
    /// Make the swapchain again before the next present (suboptimal, out of date, a new
    /// swap interval).
    stale: bool,
    /// The id of the last present (`VK_KHR_present_id`).
    presented: u64,
}

/// The present mode for a swap interval among those a surface offers: interval 0 (or less)
/// takes `IMMEDIATE`, else `MAILBOX`; otherwise `FIFO`, which every surface offers.
pub(crate) fn choose_present_mode(
    interval: i32,
    offered: &[vk::PresentModeKHR],
) -> vk::PresentModeKHR {
    if interval <= 0 {
        for mode in [vk::PresentModeKHR::IMMEDIATE, vk::PresentModeKHR::MAILBOX] {
            if offered.contains(&mode) {
                return mode;
            }
        }
    }
    vk::PresentModeKHR::FIFO
}

/// The swapchain format for a colour image that is (`srgb`) or is not sRGB-encoded, among
/// those a surface offers (in the sRGB non-linear colour space) and that `blittable` accepts:
/// `B8G8R8A8`, then `R8G8B8A8`, then any other with the same encoding. A surface that
/// offers only `UNDEFINED` takes any format: `B8G8R8A8`.
pub(crate) fn choose_format(
    offered: &[vk::SurfaceFormatKHR],
    srgb: bool,
    blittable: impl Fn(vk::Format) -> bool,
) -> Option<vk::SurfaceFormatKHR> {
    let (bgra, rgba) = if srgb {
        (vk::Format::B8G8R8A8_SRGB, vk::Format::R8G8B8A8_SRGB)
    } else {
        (vk::Format::B8G8R8A8_UNORM, vk::Format::R8G8B8A8_UNORM)
    };
    let nonlinear = vk::ColorSpaceKHR::SRGB_NONLINEAR;
    if offered.len() == 1 && offered[0].format == vk::Format::UNDEFINED {
        return blittable(bgra).then_some(vk::SurfaceFormatKHR {
            format: bgra,
            color_space: nonlinear,
        });
    }
    let usable = |f: &&vk::SurfaceFormatKHR| f.color_space == nonlinear && blittable(f.format);
    let named = |want: vk::Format| {
        offered
            .iter()
            .filter(usable)
            .find(|f| f.format == want)
            .copied()
    };
    named(bgra).or_else(|| named(rgba)).or_else(|| {
        offered
            .iter()
            .filter(usable)
            .find(|f| is_srgb(f.format) == srgb)
            .copied()
    })
}

/// Whether a swapchain format is sRGB-encoded.
fn is_srgb(f: vk::Format) -> bool {
    matches!(
        f,
        vk::Format::B8G8R8A8_SRGB
            | vk::Format::R8G8B8A8_SRGB
            | vk::Format::A8B8G8R8_SRGB_PACK32
            | vk::Format::R8G8B8_SRGB
            | vk::Format::B8G8R8_SRGB
    )
}

/// The swapchain extent: the window's when the surface fixes it, else `wanted` clamped to
/// what the surface allows.
fn choose_extent(caps: &vk::SurfaceCapabilitiesKHR, wanted: (u32, u32)) -> vk::Extent2D {
    if caps.current_extent.width != u32::MAX {
        return caps.current_extent;
    }
    vk::Extent2D {
        width: wanted
            .0
            .clamp(caps.min_image_extent.width, caps.max_image_extent.width),
        height: wanted
            .1
            .clamp(caps.min_image_extent.height, caps.max_image_extent.height),
    }
}

/// Why presenting into a window stopped or could not start.
enum Failure {
    /// A Vulkan call failed.
    Call(&'static str, vk::Result),
    /// The window or device lacks something.
    Lacks(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Call(call, r) => write!(f, "{call}: {r}"),
            Self::Lacks(what) => f.write_str(what),
        }
    }
}

impl VkPipe {
    /// Whether this backend presents windows itself (`TESSERA_VK_PRESENT`, see the module
    /// documentation).
    fn wsi_wanted(&self) -> bool {
        static CHOICE: std::sync::OnceLock<Option<bool>> = std::sync::OnceLock::new();
        let forced = *CHOICE.get_or_init(|| {
            match tessera_wire::env::value("TESSERA_VK_PRESENT").as_deref() {
                None | Some("" | "auto") => None,
                Some("wsi") => Some(true),
                Some("client") => Some(false),
                Some(other) => {
                    log::warn!("TESSERA_VK_PRESENT={other:?} is not auto, wsi or client: auto");
                    None
                }
            }
        });
        forced.unwrap_or(self.gpu.props.device_type != vk::PhysicalDeviceType::CPU)
    }

    /// `Backend::attach_window`: presents `handle` into `window` from now on (see the
    /// module's documentation); `None` stops. Returns whether the surface is presented.
    pub fn attach_window(
        &mut self,
        handle: SurfaceHandle,
        window: Option<NativeTarget>,
        interval: i32,
    ) -> bool {
        let Some(window) = window else {
            self.detach(handle);
            return false;
        };
        if self.gpu.wsi.is_none() || self.surfaces.live(handle).is_none() || !self.wsi_wanted() {
            return false;
        }
        let Some((_, xid, _)) = window.as_xcb() else {
            return false;
        };
        if let Some(mut p) = self.presenters.remove(&handle) {
            if p.target == window {
                if p.interval != interval {
                    p.interval = interval;
                    if let Err(why) = self.build(handle, &mut p) {
                        self.destroy_presenter(p);
                        self.detached.push(handle);
                        log::info!(
                            "tessera-backend-vk: surface {}: presenting to X11 window {xid:#x} \
                             with swap interval {interval} failed ({why}): the client shows \
                             its frames",
                            handle.slot
                        );
                        return false;
                    }
                }
                self.presenters.insert(handle, p);
                return true;
            }
            self.destroy_presenter(p);
            self.detached.push(handle);
        }
        // Another surface presenting into this window (the one a resize replaces) yields.
        let others: Vec<SurfaceHandle> = self
            .presenters
            .iter()
            .filter(|(_, p)| p.target == window)
            .map(|(h, _)| *h)
            .collect();
        for h in others {
            self.detach(h);
        }
        match self.new_presenter(handle, window, interval) {
            Ok(p) => {
                self.presenters.insert(handle, p);
                true
            }
            Err(why) => {
                log::info!(
                    "tessera-backend-vk: surface {}: cannot present to X11 window {xid:#x} \
                     ({why}): the client shows its frames",
                    handle.slot
                );
                false
            }
        }
    }

    /// Stops presenting `handle` (if it was), once the queue no longer uses what it
    /// presented with.
    pub fn detach(&mut self, handle: SurfaceHandle) {
        if let Some(p) = self.presenters.remove(&handle) {
            self.destroy_presenter(p);
            self.detached.push(handle);
        }
    }

    /// Makes the `VkSurfaceKHR` of `window` and its first swapchain.
    fn new_presenter(
        &mut self,
        handle: SurfaceHandle,
        target: NativeTarget,
        interval: i32,
    ) -> Result<Presenter, Failure> {
        let Some(wsi) = self.gpu.wsi.as_ref() else {
            return Err(Failure::Lacks("no VK_KHR_xcb_surface".to_owned()));
        };
        let Some((connection, window, visual)) = target.as_xcb() else {
            return Err(Failure::Lacks("not an X11 window".to_owned()));
        };
        let (phys, family) = (self.gpu.phys, self.gpu.family);
        if visual != 0 {
            // SAFETY: a physical device of this instance and its queue family; the
            // connection is live (`NativeTarget::xcb`'s contract) and the visual is the
            // window's.
            let supported = unsafe {
                (wsi.xcb
                    .fp()
                    .get_physical_device_xcb_presentation_support_khr)(
                    phys,
                    family,
                    connection.cast(),
                    visual,
                )
            };
            if supported != vk::TRUE {
                return Err(Failure::Lacks(format!(
                    "the queue family cannot present to visual {visual:#x}"
                )));
            }
        }
        let info = vk::XcbSurfaceCreateInfoKHR::default()
            .connection(connection.cast())
            .window(window);
        // SAFETY: a live instance with VK_KHR_xcb_surface enabled; the connection is live
        // and stays open while the surface exists (`NativeTarget::xcb`'s contract: the
        // surface is destroyed when the wire surface is, or detached, or at teardown).
        let surface = unsafe { wsi.xcb.create_xcb_surface(&info, None) }
            .map_err(|e| Failure::Call("vkCreateXcbSurfaceKHR", e))?;
        let mut p = Presenter {
            target,
            window,
            interval,
            surface,
            swapchain: vk::SwapchainKHR::null(),
            images: Vec::new(),
            extent: vk::Extent2D::default(),
            mode: vk::PresentModeKHR::FIFO,
            copied: Vec::new(),
            acquire: Vec::new(),
            stale: true,
            presented: 0,
        };
        // SAFETY: a physical device of this instance, its queue family, a live surface.
        let supported = unsafe {
            wsi.surface
                .get_physical_device_surface_support(phys, family, surface)
        };
        let built = match supported {
            Ok(true) => self.build(handle, &mut p),
            Ok(false) => Err(Failure::Lacks(
                "the queue family cannot present to it".to_owned(),
            )),
            Err(e) => Err(Failure::Call("vkGetPhysicalDeviceSurfaceSupportKHR", e)),
        };
        match built {
            Ok(()) => Ok(p),
            Err(why) => {
                self.destroy_presenter(p);
                Err(why)
            }
        }
    }

    /// Makes `p`'s swapchain for the surface's colour image and the window as they are
    /// now (replacing the old one, destroyed once the queue is idle).
    fn build(&mut self, handle: SurfaceHandle, p: &mut Presenter) -> Result<(), Failure> {
        let Some(wsi) = self.gpu.wsi.as_ref() else {
            return Err(Failure::Lacks("no VK_KHR_swapchain".to_owned()));
        };
        let Some(s) = self.surfaces.live(handle) else {
            return Err(Failure::Lacks("the surface was destroyed".to_owned()));
        };
        let Some(color) = s.color.as_ref() else {
            return Err(Failure::Lacks("the surface has no colour image".to_owned()));
        };
        if !color
            .native
            .features
            .contains(vk::FormatFeatureFlags::BLIT_SRC)
        {
            return Err(Failure::Lacks(format!(
                "the device cannot blit from {:?}",
                color.native.vk
            )));
        }
        let srgb = color.format.info().srgb;
        let wanted = (s.desc.width.max(1), s.desc.height.max(1));
        let (phys, surface) = (self.gpu.phys, p.surface);
        // SAFETY: a physical device of this instance and a live surface of it.
        let (caps, formats, modes) = unsafe {
            (
                wsi.surface
                    .get_physical_device_surface_capabilities(phys, surface)
                    .map_err(|e| Failure::Call("vkGetPhysicalDeviceSurfaceCapabilitiesKHR", e))?,
                wsi.surface
                    .get_physical_device_surface_formats(phys, surface)
                    .map_err(|e| Failure::Call("vkGetPhysicalDeviceSurfaceFormatsKHR", e))?,
                wsi.surface
                    .get_physical_device_surface_present_modes(phys, surface)
                    .map_err(|e| Failure::Call("vkGetPhysicalDeviceSurfacePresentModesKHR", e))?,
            )
        };
        let instance = &self.gpu.instance;
        let blittable = |f: vk::Format| {
            // SAFETY: a physical device of this instance; any format value.
            unsafe { instance.get_physical_device_format_properties(phys, f) }
                .optimal_tiling_features
                .contains(vk::FormatFeatureFlags::BLIT_DST)
        };
        let format = choose_format(&formats, srgb, blittable).ok_or_else(|| {
            Failure::Lacks(format!(
                "no {} format the device can blit into among {formats:?}",
                if srgb { "sRGB" } else { "linear" }
            ))
        })?;
        if !caps
            .supported_usage_flags
            .contains(vk::ImageUsageFlags::TRANSFER_DST)
        {
            return Err(Failure::Lacks(
                "its images cannot be transfer destinations".to_owned(),
            ));
        }
        let extent = choose_extent(&caps, wanted);
        if extent.width == 0 || extent.height == 0 {
            return Err(Failure::Lacks("the window has no area".to_owned()));
        }
        let mode = choose_present_mode(p.interval, &modes);
        let mut images = caps.min_image_count.max(2);
        if caps.max_image_count > 0 {
            images = images.min(caps.max_image_count);
        }
        let alpha = [
            vk::CompositeAlphaFlagsKHR::OPAQUE,
            vk::CompositeAlphaFlagsKHR::INHERIT,
            vk::CompositeAlphaFlagsKHR::PRE_MULTIPLIED,
            vk::CompositeAlphaFlagsKHR::POST_MULTIPLIED,
        ]
        .into_iter()
        .find(|a| caps.supported_composite_alpha.contains(*a))
        .unwrap_or(vk::CompositeAlphaFlagsKHR::OPAQUE);
        let transform = if caps
            .supported_transforms
            .contains(vk::SurfaceTransformFlagsKHR::IDENTITY)
        {
            vk::SurfaceTransformFlagsKHR::IDENTITY
        } else {
            caps.current_transform
        };
        let old = p.swapchain;
        let info = vk::SwapchainCreateInfoKHR::default()
            .surface(surface)
            .min_image_count(images)
            .image_format(format.format)
            .image_color_space(format.color_space)
            .image_extent(extent)
            .image_array_layers(1)
            .image_usage(vk::ImageUsageFlags::TRANSFER_DST)
            .image_sharing_mode(vk::SharingMode::EXCLUSIVE)
            .pre_transform(transform)
            .composite_alpha(alpha)
            .present_mode(mode)
            .clipped(true)
            .old_swapchain(old);
        // SAFETY: a live device with VK_KHR_swapchain enabled and a live surface; every
        // value was checked against the surface's capabilities, formats and modes above;
        // `old` is this surface's swapchain (or null), retired by this call.
        let swapchain = unsafe { wsi.swapchain.create_swapchain(&info, None) }
            .map_err(|e| Failure::Call("vkCreateSwapchainKHR", e))?;
        // SAFETY: the swapchain just made.
        let chain_images = match unsafe { wsi.swapchain.get_swapchain_images(swapchain) } {
            Ok(i) => i,
            Err(e) => {
                // SAFETY: the swapchain just made, never used.
                unsafe { wsi.swapchain.destroy_swapchain(swapchain, None) };
                return Err(Failure::Call("vkGetSwapchainImagesKHR", e));
            }
        };
        self.retire_swapchain(p);
        p.swapchain = swapchain;
        let raw = self.raw.clone();
        for _ in &chain_images {
            // SAFETY: a live device.
            match unsafe { raw.create_semaphore(&vk::SemaphoreCreateInfo::default(), None) } {
                Ok(s) => p.copied.push(s),
                Err(e) => return Err(Failure::Call("vkCreateSemaphore", e)),
            }
        }
        p.images = chain_images;
        p.extent = extent;
        p.mode = mode;
        p.stale = false;
        count(&self.stats.swapchains);
        self.stats.set_present_mode(mode);
        log::info!(
            "tessera-backend-vk: surface {}: presenting to X11 window {:#x}: present mode \
             {mode:?} for swap interval {}, {} {:?} images of {}x{} (the window offers \
             {modes:?})",
            handle.slot,
            p.window,
            p.interval,
            p.images.len(),
            format.format,
            extent.width,
            extent.height,
        );
        Ok(())
    }

    /// Destroys `p`'s swapchain and its semaphores once the queue is idle (it may still
    /// read the images or wait on the semaphores).
    fn retire_swapchain(&mut self, p: &mut Presenter) {
        if p.swapchain == vk::SwapchainKHR::null() && p.copied.is_empty() {
            return;
        }
        let Some(wsi) = self.gpu.wsi.as_ref() else {
            return;
        };
        // SAFETY: the queue is used by this thread only; after the wait nothing submitted
        // or presented uses the swapchain, its images or the semaphores, and each is
        // destroyed once (taken out of `p`).
        unsafe {
            let _ = self.raw.queue_wait_idle(self.gpu.queue);
            if p.swapchain != vk::SwapchainKHR::null() {
                wsi.swapchain.destroy_swapchain(p.swapchain, None);
            }
            for s in p.copied.drain(..) {
                self.raw.destroy_semaphore(s, None);
            }
        }
        p.swapchain = vk::SwapchainKHR::null();
        p.images.clear();
    }

    /// Destroys a presenter: its swapchain, semaphores and `VkSurfaceKHR`.
    pub fn destroy_presenter(&mut self, mut p: Presenter) {
        self.retire_swapchain(&mut p);
        let Some(wsi) = self.gpu.wsi.as_ref() else {
            return;
        };
        // SAFETY: the queue is idle (retire_swapchain waited, or nothing was presented);
        // the surface has no swapchain left; each object is destroyed once.
        unsafe {
            let _ = self.raw.queue_wait_idle(self.gpu.queue);
            for (s, _) in p.acquire.drain(..) {
                self.raw.destroy_semaphore(s, None);
            }
            wsi.surface.destroy_surface(p.surface, None);
        }
    }

    /// Every presenter, at teardown (the device is idle).
    pub fn destroy_presenters(&mut self) {
        let all: Vec<SurfaceHandle> = self.presenters.keys().copied().collect();
        for h in all {
            if let Some(p) = self.presenters.remove(&h) {
                self.destroy_presenter(p);
            }
        }
    }

    /// Stops presenting `handle` after a failure: the engine shows its frames from now on.
    fn lose(&mut self, handle: SurfaceHandle, p: Presenter, why: Failure) {
        let window = p.window;
        self.destroy_presenter(p);
        self.detached.push(handle);
        self.events.push(Event::Unsupported {
            what: format!(
                "presenting to X11 window {window:#x} failed ({why}): its frames are shown by \
                 the client"
            ),
        });
    }

    /// An acquire semaphore of `p` no pending submission waits on (a new one if none).
    fn acquire_semaphore(&mut self, p: &mut Presenter) -> Result<usize, SessionError> {
        let completed = self.frames.completed;
        if let Some(i) = p.acquire.iter().position(|&(_, s)| s <= completed) {
            return Ok(i);
        }
        // SAFETY: a live device.
        let s = unsafe {
            self.raw
                .create_semaphore(&vk::SemaphoreCreateInfo::default(), None)
        }
        .map_err(|e| vk_error("vkCreateSemaphore", e))?;
        p.acquire.push((s, 0));
        Ok(p.acquire.len() - 1)
    }

    /// Acquires an image of `p`'s swapchain, making the swapchain again first when it is
    /// stale or out of date.
    fn acquire_image(
        &mut self,
        handle: SurfaceHandle,
        p: &mut Presenter,
    ) -> Result<Acquired, SessionError> {
        for _ in 0..2 {
            if p.stale
                && let Err(why) = self.build(handle, p)
            {
                return Ok(Acquired::Lost(why));
            }
            let sem = self.acquire_semaphore(p)?;
            let Some(wsi) = self.gpu.wsi.as_ref() else {
                return Ok(Acquired::Skip);
            };
            // SAFETY: a live swapchain of this device; the semaphore is unsignalled with no
            // pending wait (its last waiting submission retired, or it never was waited on
            // or signalled); the timeout bounds the wait.
            let acquired = unsafe {
                wsi.swapchain.acquire_next_image(
                    p.swapchain,
                    ACQUIRE_TIMEOUT_NS,
                    p.acquire[sem].0,
                    vk::Fence::null(),
                )
            };
            match acquired {
                Ok((index, suboptimal)) => {
                    p.stale |= suboptimal;
                    return Ok(Acquired::Image(index, sem));
                }
                Err(vk::Result::ERROR_OUT_OF_DATE_KHR) => p.stale = true,
                Err(vk::Result::TIMEOUT | vk::Result::NOT_READY) => {
                    log::debug!(
                        "tessera-backend-vk: surface {}: no swapchain image within a second: \
                         the frame is not shown",
                        handle.slot
                    );
                    return Ok(Acquired::Skip);
                }
                Err(e) => return Ok(Acquired::Lost(Failure::Call("vkAcquireNextImageKHR", e))),
            }
        }
        Ok(Acquired::Lost(Failure::Lacks(
            "the swapchain stays out of date".to_owned(),
        )))
    }

    /// Records the copy of the surface's colour image into swapchain image `image` (of
    /// `extent`), flipped to the window's row order, leaving it in `PRESENT_SRC`.
    fn record_copy(
        &mut self,
        handle: SurfaceHandle,
        image: vk::Image,
        extent: vk::Extent2D,
    ) -> Result<(), SessionError> {
        const N: &str = "Present";
        self.transfer_begin();
        let raw = self.raw.clone();
        let r = ImageRef {
            src: ImageSource::SurfaceColor(handle),
            level: 0,
            layer: 0,
            layered: false,
            view: None,
        };
        let source = match self.image_mut(N, r.src)? {
            Some(s) => Some((s.samples, s.level_extent(0))),
            None => None,
        };
        let source = match source {
            Some((samples, e)) if samples != vk::SampleCountFlags::TYPE_1 => {
                self.resolve_to_temp(r)?.map(|(src, _, _)| (src, e))
            }
            Some((_, e)) => Some((r.src, e)),
            None => None,
        };
        let cmd = self.rec.cmd;
        let range = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: 1,
        };
        let barrier = |from, to, src_access, dst_access, src_stage, dst_stage| {
            let b = vk::ImageMemoryBarrier::default()
                .src_access_mask(src_access)
                .dst_access_mask(dst_access)
                .old_layout(from)
                .new_layout(to)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image)
                .subresource_range(range);
            // SAFETY: recording outside a render pass (transfer_begin ended it); a live
            // swapchain image acquired for this submission.
            unsafe {
                raw.cmd_pipeline_barrier(
                    cmd,
                    src_stage,
                    dst_stage,
                    vk::DependencyFlags::empty(),
                    &[],
                    &[],
                    &[b],
                )
            };
        };
        let transfer = vk::PipelineStageFlags::TRANSFER;
        let dst = vk::ImageLayout::TRANSFER_DST_OPTIMAL;
        // The acquire semaphore is waited at the transfer stage: the layout change follows it.
        barrier(
            vk::ImageLayout::UNDEFINED,
            dst,
            vk::AccessFlags::empty(),
            vk::AccessFlags::TRANSFER_WRITE,
            transfer,
            transfer,
        );
        let (w, h) = match source {
            Some((_, e)) => (e[0].min(extent.width), e[1].min(extent.height)),
            None => (0, 0),
        };
        if (w, h) != (extent.width, extent.height) {
            let black = vk::ClearColorValue {
                float32: [0.0, 0.0, 0.0, 1.0],
            };
            // SAFETY: recording outside a render pass; the image is in TRANSFER_DST and was
            // made with TRANSFER_DST usage.
            unsafe { raw.cmd_clear_color_image(cmd, image, dst, &black, &[range]) };
            barrier(
                dst,
                dst,
                vk::AccessFlags::TRANSFER_WRITE,
                vk::AccessFlags::TRANSFER_WRITE,
                transfer,
                transfer,
            );
        }
        if let Some((src, _)) = source
            && w > 0
            && h > 0
            && let Some(st) = self.image_mut(N, src)?
        {
            let from = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
            transition(&raw, cmd, st, from);
            let layers = vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: 1,
            };
            let corner = |x: u32, y: u32, z: i32| vk::Offset3D {
                x: x as i32,
                y: y as i32,
                z,
            };
            // GL row r of the frame goes to window row h - 1 - r.
            let region = vk::ImageBlit {
                src_subresource: layers,
                src_offsets: [corner(0, 0, 0), corner(w, h, 1)],
                dst_subresource: layers,
                dst_offsets: [corner(0, h, 0), corner(w, 0, 1)],
            };
            // SAFETY: recording outside a render pass; a single-sampled source in
            // TRANSFER_SRC whose format supports BLIT_SRC (checked when the swapchain was
            // made) and a destination in TRANSFER_DST of a format chosen for BLIT_DST; both
            // regions lie inside their images (clipped to the smaller of the two).
            unsafe {
                raw.cmd_blit_image(
                    cmd,
                    st.image,
                    from,
                    image,
                    dst,
                    &[region],
                    vk::Filter::NEAREST,
                )
            };
        }
        barrier(
            dst,
            vk::ImageLayout::PRESENT_SRC_KHR,
            vk::AccessFlags::TRANSFER_WRITE,
            vk::AccessFlags::empty(),
            transfer,
            vk::PipelineStageFlags::BOTTOM_OF_PIPE,
        );
        self.rec.dirty_mem = true;
        Ok(())
    }

    /// `Present` of a surface presented into a window (any other surface: submits).
    pub fn present_window(&mut self, handle: SurfaceHandle) -> Result<(), SessionError> {
        let Some(mut p) = self.presenters.remove(&handle) else {
            return self.submit().map(drop);
        };
        let (index, sem) = match self.acquire_image(handle, &mut p)? {
            Acquired::Image(index, sem) => (index, sem),
            Acquired::Skip => {
                self.presenters.insert(handle, p);
                return self.submit().map(drop);
            }
            Acquired::Lost(why) => {
                self.lose(handle, p, why);
                return self.submit().map(drop);
            }
        };
        let image = p.images[index as usize];
        let copied = p.copied[index as usize];
        let acquired = p.acquire[sem].0;
        let recorded = self.record_copy(handle, image, p.extent);
        // Submitted even when recording failed: the acquire semaphore is signalled and must
        // be waited on.
        let serial = self.submit_with(&[(acquired, vk::PipelineStageFlags::TRANSFER)], &[copied]);
        let serial = match (recorded, serial) {
            (Ok(()), Ok(serial)) => serial,
            (Err(e), _) | (_, Err(e)) => {
                self.presenters.insert(handle, p);
                return Err(e);
            }
        };
        p.acquire[sem].1 = serial;
        let Some(wsi) = self.gpu.wsi.as_ref() else {
            return Ok(());
        };
        let waits = [copied];
        let chains = [p.swapchain];
        let indices = [index];
        let ids = [p.presented + 1];
        let mut id = vk::PresentIdKHR::default().present_ids(&ids);
        let mut info = vk::PresentInfoKHR::default()
            .wait_semaphores(&waits)
            .swapchains(&chains)
            .image_indices(&indices);
        if wsi.present_wait.is_some() {
            info = info.push_next(&mut id);
        }
        // SAFETY: the queue is used by this thread only; the image was acquired from the
        // swapchain and is in PRESENT_SRC after the submission that signals `copied`;
        // present ids grow by one per present of the swapchain.
        let presented = unsafe { wsi.swapchain.queue_present(self.gpu.queue, &info) };
        match presented {
            Ok(suboptimal) => p.stale |= suboptimal,
            Err(vk::Result::ERROR_OUT_OF_DATE_KHR) => p.stale = true,
            Err(e) => {
                self.lose(handle, p, Failure::Call("vkQueuePresentKHR", e));
                return Ok(());
            }
        }
        p.presented += 1;
        count(&self.stats.window_presents);
        if p.interval > 0
            && let Some(wait) = wsi.present_wait.as_ref()
        {
            // SAFETY: a live swapchain of this device with present id `p.presented` queued.
            match unsafe { wait.wait_for_present(p.swapchain, p.presented, PRESENT_WAIT_NS) } {
                Ok(()) => {}
                Err(vk::Result::ERROR_OUT_OF_DATE_KHR) => p.stale = true,
                Err(vk::Result::ERROR_SURFACE_LOST_KHR) => {
                    let why =
                        Failure::Call("vkWaitForPresentKHR", vk::Result::ERROR_SURFACE_LOST_KHR);
                    self.lose(handle, p, why);
                    return Ok(());
                }
                Err(e) => log::debug!(
                    "tessera-backend-vk: surface {}: frame {} not shown within a second: {e}",
                    handle.slot,
                    p.presented
                ),
            }
        }
        self.presenters.insert(handle, p);
        Ok(())
    }
}

/// What acquiring a swapchain image gave.
enum Acquired {
    /// The image's index, and the index of the acquire semaphore it signals.
    Image(u32, usize),
    /// No image in time: the frame is not shown.
    Skip,
    /// The window cannot be presented to any more.
    Lost(Failure),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::VkOptions;
    use tessera_wire::Backend;

    const ALL_MODES: [vk::PresentModeKHR; 4] = [
        vk::PresentModeKHR::IMMEDIATE,
        vk::PresentModeKHR::MAILBOX,
        vk::PresentModeKHR::FIFO,
        vk::PresentModeKHR::FIFO_RELAXED,
    ];

    #[test]
    fn interval_0_takes_immediate_then_mailbox_and_interval_1_fifo() {
        use vk::PresentModeKHR as M;
        assert_eq!(choose_present_mode(0, &ALL_MODES), M::IMMEDIATE);
        assert_eq!(choose_present_mode(0, &[M::FIFO, M::MAILBOX]), M::MAILBOX);
        assert_eq!(choose_present_mode(0, &[M::FIFO]), M::FIFO);
        assert_eq!(choose_present_mode(-1, &ALL_MODES), M::IMMEDIATE);
        assert_eq!(choose_present_mode(1, &ALL_MODES), M::FIFO);
        assert_eq!(choose_present_mode(1, &[M::FIFO]), M::FIFO);
    }

    #[test]
    fn the_format_keeps_the_encoding_and_prefers_bgra() {
        use vk::Format as F;
        let nonlinear = vk::ColorSpaceKHR::SRGB_NONLINEAR;
        let offered = |formats: &[F]| -> Vec<vk::SurfaceFormatKHR> {
            formats
                .iter()
                .map(|&format| vk::SurfaceFormatKHR {
                    format,
                    color_space: nonlinear,
                })
                .collect()
        };
        let any = |_| true;
        let x11 = offered(&[F::B8G8R8A8_SRGB, F::B8G8R8A8_UNORM]);
        let pick = |o: &[vk::SurfaceFormatKHR], srgb| choose_format(o, srgb, any).map(|f| f.format);
        assert_eq!(pick(&x11, false), Some(F::B8G8R8A8_UNORM));
        assert_eq!(pick(&x11, true), Some(F::B8G8R8A8_SRGB));
        let rgba = offered(&[F::R8G8B8A8_UNORM, F::A2B10G10R10_UNORM_PACK32]);
        assert_eq!(pick(&rgba, false), Some(F::R8G8B8A8_UNORM));
        // No format of the encoding: none (the client shows the frames).
        assert_eq!(pick(&rgba, true), None);
        assert_eq!(
            pick(&offered(&[F::UNDEFINED]), true),
            Some(F::B8G8R8A8_SRGB)
        );
        // A format the device cannot blit into is passed over.
        let no_bgra = |f| f != F::B8G8R8A8_UNORM;
        let both = offered(&[F::B8G8R8A8_UNORM, F::R8G8B8A8_UNORM]);
        assert_eq!(
            choose_format(&both, false, no_bgra).map(|f| f.format),
            Some(F::R8G8B8A8_UNORM)
        );
        // Another colour space is not the window's sRGB.
        let hdr = [vk::SurfaceFormatKHR {
            format: F::B8G8R8A8_UNORM,
            color_space: vk::ColorSpaceKHR::EXTENDED_SRGB_LINEAR_EXT,
        }];
        assert_eq!(pick(&hdr, false), None);
    }

    #[test]
    fn the_extent_is_the_windows_where_it_fixes_one() {
        let caps = vk::SurfaceCapabilitiesKHR {
            current_extent: vk::Extent2D {
                width: 160,
                height: 120,
            },
            ..Default::default()
        };
        assert_eq!(
            choose_extent(&caps, (200, 96)),
            vk::Extent2D {
                width: 160,
                height: 120
            }
        );
        let free = vk::SurfaceCapabilitiesKHR {
            current_extent: vk::Extent2D {
                width: u32::MAX,
                height: u32::MAX,
            },
            min_image_extent: vk::Extent2D {
                width: 1,
                height: 1,
            },
            max_image_extent: vk::Extent2D {
                width: 180,
                height: 4096,
            },
            ..Default::default()
        };
        assert_eq!(
            choose_extent(&free, (200, 96)),
            vk::Extent2D {
                width: 180,
                height: 96
            }
        );
    }

    /// On lavapipe (the tests' device) the instance and device have what presenting needs;
    /// a window is never attached to a surface that does not exist (its connection is then
    /// not used), nor without a window; the 1.1 floor never presents.
    #[test]
    fn windows_are_attached_only_to_live_surfaces() {
        let options = VkOptions {
            validation: true,
            ..VkOptions::default()
        };
        let mut backend = crate::VulkanBackend::with_options(&options).expect("a Vulkan device");
        assert!(backend.tiers().present, "{:?}", backend.tiers());
        let surface = SurfaceHandle {
            slot: 3,
            generation: 1,
        };
        // SAFETY: the connection is never used: the surface does not exist.
        let target = unsafe { NativeTarget::xcb(std::ptr::null_mut(), 0x40_0001, 0x21) };
        assert!(!backend.attach_window(surface, Some(target), 1));
        assert!(!backend.attach_window(surface, None, 0));
        assert_eq!(backend.probe().present_mode(), None);
        assert_eq!(backend.probe().stats().validation_messages, 0);
        let floor = crate::VulkanBackend::with_options(&VkOptions {
            floor: true,
            ..options
        })
        .expect("a Vulkan device");
        assert!(!floor.tiers().present && !floor.tiers().present_wait);
    }
}

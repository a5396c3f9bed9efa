//! Framebuffers: renderbuffers, surfaces (the default framebuffers, as offscreen images),
//! framebuffer objects, the render targets verbs draw into, and the records that read or
//! copy framebuffer images: the `FramebufferPipe` methods (`ReadPixels` here, `CopyTexture`
//! through `blit.rs`, which also has `Blit`).
//!
//! ## Orientation
//! Nothing is flipped: framebuffer row `r` of every image is GL window row `r` (GL's origin
//! is the lower left, and GL's and Vulkan's viewport transforms map NDC y to the same row
//! numbers), so textures uploaded bottom row first, rendered into and sampled agree with each
//! other and with `ReadPixels`. The one difference, the sense of "clockwise", is handled in
//! `conv::map_front_face`. (A negative viewport height would be needed only to draw into a
//! window, whose row 0 is the top; surfaces are offscreen images, and presenting one into a
//! window flips it in the copy, `present.rs`.)
//!
//! ## Targets
//! A [`Target`] is what a verb draws into: the attachment images of the bound framebuffer
//! for the bound draw buffers (draw buffer `i` is subpass colour attachment `i`), their
//! render pass compatibility class and a `VkFramebuffer`. It is cached on the framebuffer
//! (or surface) object and rebuilt when the draw buffers, `FRAMEBUFFER_SRGB` (which picks
//! the sRGB or UNORM views of sRGB images, `image.rs`) or the device epoch change.

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::backend::bad_value;
use tessera_wire::dispatch::{self, Bytes, FramebufferPipe, R, RenderbufferStorage};
use tessera_wire::format::{Format, PixelLayout};
use tessera_wire::handle::{FramebufferHandle, RenderbufferHandle, SurfaceHandle, TextureHandle};
use tessera_wire::pixel::pixel_size;
use tessera_wire::record::{DRAW_BUFFER_NONE, FramebufferRef, ReadImage, ReadSource, TextureCopy};
use tessera_wire::state::{Attachment, FramebufferState, MAX_DRAW_BUFFERS, Rect, SurfaceDesc};

use crate::conv;
use crate::device::{MAX_READBACK, Missing, VkPipe, count, vk_error};
use crate::frame::Garbage;
use crate::image::{AttachAs, ImageSource, Storage, transition};
use crate::pipeline::PassKey;
use crate::spirv::NumClass;
use crate::texture::{LevelRegion, class_of};

/// A renderbuffer.
pub(crate) struct Renderbuffer {
    pub storage: Option<Storage>,
}

impl Renderbuffer {
    pub fn destroy(self, raw: &ash::Device, alloc: &vk_mem::Allocator) {
        if let Some(s) = self.storage {
            s.destroy_now(raw, alloc);
        }
    }
}

/// A surface: the images of a default framebuffer.
pub(crate) struct Surface {
    pub color: Option<Storage>,
    pub depth_stencil: Option<Storage>,
    pub desc: SurfaceDesc,
    cache: Option<Target>,
}

impl Surface {
    pub fn destroy(self, raw: &ash::Device, alloc: &vk_mem::Allocator) {
        for s in [self.color, self.depth_stencil].into_iter().flatten() {
            s.destroy_now(raw, alloc);
        }
        if let Some(t) = self.cache {
            // SAFETY: teardown after the device went idle.
            unsafe { raw.destroy_framebuffer(t.framebuffer, None) };
        }
    }
}

/// A framebuffer object.
pub(crate) struct Framebuffer {
    pub state: FramebufferState,
    cache: Option<Target>,
}

impl Framebuffer {
    pub fn destroy(self, raw: &ash::Device) {
        if let Some(t) = self.cache {
            // SAFETY: teardown after the device went idle.
            unsafe { raw.destroy_framebuffer(t.framebuffer, None) };
        }
    }
}

/// One image of a framebuffer: which object, which level and layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ImageRef {
    pub src: ImageSource,
    pub level: u32,
    pub layer: u32,
    pub layered: bool,
    /// A texture view's format and layers (its level and layer are the storage's already).
    pub view: Option<AttachAs>,
}

/// What a verb draws into.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    pub fb: FramebufferRef,
    pub draw_buffers: [u8; MAX_DRAW_BUFFERS],
    pub epoch: u64,
    /// `FRAMEBUFFER_SRGB`: sRGB images are attached through sRGB views (else their UNORM
    /// twins), and the pass key names those formats.
    pub srgb: bool,
    pub framebuffer: vk::Framebuffer,
    /// Compatibility class (no clears).
    pub pass: PassKey,
    pub pass_id: u32,
    pub extent: vk::Extent2D,
    pub layers: u32,
    /// Images in attachment order (colours by draw buffer, then depth-stencil).
    pub images: Vec<ImageRef>,
    /// Attachment index of each draw buffer.
    pub slot: [Option<u8>; MAX_DRAW_BUFFERS],
    /// Numeric class of each draw buffer's attachment.
    pub class: [NumClass; MAX_DRAW_BUFFERS],
    /// Attachment index of the depth-stencil image, and its aspects.
    pub depth_stencil: Option<(u8, bool, bool)>,
}

impl Target {
    /// The bit of attachment `at` in a pass key's per-attachment masks: its draw buffer's
    /// bit for a colour image, bit 8 for the depth-stencil image.
    pub fn attachment_bit(&self, at: usize) -> u16 {
        if self
            .depth_stencil
            .is_some_and(|(d, ..)| usize::from(d) == at)
        {
            return 1 << 8;
        }
        self.slot
            .iter()
            .position(|s| s.is_some_and(|s| usize::from(s) == at))
            .map_or(0, |i| 1 << i)
    }
}

impl FramebufferPipe for VkPipe {
    /// `CreateSurface`: a colour image and a depth-stencil image.
    fn create_surface(&mut self, handle: SurfaceHandle, desc: SurfaceDesc) -> R {
        const N: &str = "CreateSurface";
        self.surfaces.check_create(N, handle)?;
        let color = match desc.color {
            Some(f) => self.render_storage(f, desc.width, desc.height, desc.samples)?,
            None => None,
        };
        let depth_stencil = match desc.depth_stencil {
            Some(f) => self.render_storage(f, desc.width, desc.height, desc.samples)?,
            None => None,
        };
        self.surfaces.insert(
            N,
            handle,
            Surface {
                color,
                depth_stencil,
                desc,
                cache: None,
            },
        )
    }

    /// `DestroySurface` (and the presentation into its window, if any).
    fn destroy_surface(&mut self, handle: SurfaceHandle) -> R {
        self.surfaces.get("DestroySurface", handle)?;
        self.detach(handle);
        let s = self.remove_target_object("DestroySurface", handle, |p| &mut p.surfaces)?;
        let garbage = &mut self.frames.current.garbage;
        for st in [s.color, s.depth_stencil].into_iter().flatten() {
            st.retire(garbage);
        }
        if let Some(t) = s.cache {
            garbage.push(Garbage::Framebuffer(t.framebuffer));
        }
        Ok(())
    }

    /// `CreateFramebuffer`.
    fn create_framebuffer(&mut self, handle: FramebufferHandle) -> R {
        self.framebuffers.insert(
            "CreateFramebuffer",
            handle,
            Framebuffer {
                state: FramebufferState::default(),
                cache: None,
            },
        )
    }

    /// `SetFramebufferState`.
    fn set_framebuffer_state(&mut self, handle: FramebufferHandle, state: FramebufferState) -> R {
        const N: &str = "SetFramebufferState";
        for a in state.colors.iter().chain([&state.depth, &state.stencil]) {
            match a {
                Attachment::None => {}
                Attachment::Texture { texture, .. } => {
                    let owner = self.owner(N, *texture)?.handle;
                    for t in [*texture, owner] {
                        self.textures.get_mut(N, t)?.attached = true;
                    }
                }
                Attachment::Renderbuffer(rb) => {
                    self.renderbuffers.get(N, *rb)?;
                }
            }
        }
        self.framebuffers.get(N, handle)?;
        self.invalidate_targets();
        self.framebuffers.get_mut(N, handle)?.state = state;
        Ok(())
    }

    /// `DestroyFramebuffer`.
    fn destroy_framebuffer(&mut self, handle: FramebufferHandle) -> R {
        let fb =
            self.remove_target_object("DestroyFramebuffer", handle, |p| &mut p.framebuffers)?;
        if let Some(t) = fb.cache {
            self.defer(Garbage::Framebuffer(t.framebuffer));
        }
        Ok(())
    }

    /// `CreateRenderbuffer`.
    fn create_renderbuffer(&mut self, handle: RenderbufferHandle) -> R {
        self.renderbuffers
            .insert("CreateRenderbuffer", handle, Renderbuffer { storage: None })
    }

    /// `DefineRenderbuffer`.
    fn define_renderbuffer(&mut self, handle: RenderbufferHandle, s: RenderbufferStorage) -> R {
        const N: &str = "DefineRenderbuffer";
        let RenderbufferStorage {
            format,
            width,
            height,
            samples,
        } = s;
        self.renderbuffers.get(N, handle)?;
        let storage = self.render_storage(format, width, height, samples)?;
        self.invalidate_targets();
        let rb = self.renderbuffers.get_mut(N, handle)?;
        if let Some(old) = std::mem::replace(&mut rb.storage, storage) {
            old.retire(&mut self.frames.current.garbage);
        }
        Ok(())
    }

    /// `DestroyRenderbuffer`.
    fn destroy_renderbuffer(&mut self, handle: RenderbufferHandle) -> R {
        let rb =
            self.remove_target_object("DestroyRenderbuffer", handle, |p| &mut p.renderbuffers)?;
        if let Some(s) = rb.storage {
            s.retire(&mut self.frames.current.garbage);
        }
        Ok(())
    }

    /// `ReadPixels`: copies the rectangle (clipped to the image) and converts on the CPU.
    fn read_pixels(&mut self, src: ReadSource, rect: Rect, layout: PixelLayout) -> Bytes {
        const N: &str = "ReadPixels";
        let (w, h) = (rect.width.max(0) as usize, rect.height.max(0) as usize);
        let px = pixel_size(layout.format, layout.ty);
        let size = (w * h)
            .checked_mul(px)
            .filter(|&n| n <= MAX_READBACK)
            .ok_or_else(|| bad_value(N, format!("a {w}x{h} read-back is too large")))?;
        let mut out = vec![0u8; size];
        if size == 0 {
            return Ok(out);
        }
        let Some(r) = self.read_ref(N, &src)? else {
            return Ok(out);
        };
        self.end_pass()?;
        let Some(s) = self.image_mut(N, r.src)? else {
            return Ok(out);
        };
        let e = s.level_extent(r.level.min(s.levels - 1));
        let native = s.native;
        let (slice_layer, slice_z) = s.slice(r.layer);
        let multisampled = s.samples != vk::SampleCountFlags::TYPE_1;
        // The part of the rectangle inside the image.
        let x0 = rect.x.max(0);
        let y0 = rect.y.max(0);
        let x1 = (rect.x + rect.width).min(e[0] as i32);
        let y1 = (rect.y + rect.height).min(e[1] as i32);
        if x1 <= x0 || y1 <= y0 {
            return Ok(out);
        }
        let (cw, ch) = ((x1 - x0) as u32, (y1 - y0) as u32);
        let source = if multisampled {
            match self.resolve_to_temp(r)? {
                Some(t) => t,
                None => return Ok(out),
            }
        } else {
            (r.src, r.level, slice_layer)
        };
        let z = if multisampled { 0 } else { slice_z };
        let count = (cw * ch) as usize;
        let aspects: Vec<vk::ImageAspectFlags> = match src.image {
            ReadImage::Color(_) => vec![vk::ImageAspectFlags::COLOR],
            ReadImage::Depth if native.depth.is_some() => vec![vk::ImageAspectFlags::DEPTH],
            ReadImage::Stencil if native.stencil => vec![vk::ImageAspectFlags::STENCIL],
            ReadImage::DepthStencil if native.depth.is_some() && native.stencil => {
                vec![vk::ImageAspectFlags::DEPTH, vk::ImageAspectFlags::STENCIL]
            }
            _ => return Ok(out),
        };
        // Texels only for depth and stencil reads: a colour read converts directly.
        let mut texels = Vec::new();
        let mut direct = None;
        for aspect in aspects {
            let region = LevelRegion {
                level: source.1,
                offset: [x0, y0, z],
                extent: [cw, ch, 1],
                layers: (source.2, 1),
            };
            let size = count * native.aspect_texel_size(aspect);
            let bytes = self.copy_from_image(N, source.0, region, aspect, size)?;
            if aspect == vk::ImageAspectFlags::COLOR {
                // The read-back buffer is converted in place where it can be (RGBA8 to BGRA8).
                direct = crate::pixel::convert_owned(native.upload, layout, bytes, count);
            } else if aspect == vk::ImageAspectFlags::DEPTH {
                if texels.is_empty() {
                    texels = vec![[0.0, 0.0, 0.0, 1.0]; count];
                }
                if let Some(d) = native.depth {
                    crate::pixel::decode_depth(d, &bytes, &mut texels);
                }
            } else {
                if texels.is_empty() {
                    texels = vec![[0.0, 0.0, 0.0, 1.0]; count];
                }
                for (t, &s) in texels.iter_mut().zip(&bytes) {
                    t[1] = f64::from(s);
                }
            }
        }
        let packed = match direct {
            Some(p) => p,
            None => crate::pixel::encode(layout, &texels),
        };
        // The whole rectangle inside the image (a window's frame): the rows are the reply.
        if (x0, y0, cw as usize, ch as usize) == (rect.x, rect.y, w, h) && packed.len() == size {
            return Ok(packed);
        }
        // Place the clipped rows into the full rectangle.
        let row = cw as usize * px;
        for y in 0..ch as usize {
            let dst = ((y + (y0 - rect.y) as usize) * w + (x0 - rect.x) as usize) * px;
            if let (Some(d), Some(s)) = (
                out.get_mut(dst..dst + row),
                packed.get(y * row..(y + 1) * row),
            ) {
                d.copy_from_slice(s);
            }
        }
        Ok(out)
    }

    /// `CopyTexture`: the copy is a blit (`blit.rs`).
    fn copy_texture(&mut self, t: TextureHandle, at: dispatch::ImageRef, r: TextureCopy) -> R {
        self.copy_to_texture(t, at.level, at.face, r)
    }
}

impl VkPipe {
    /// Storage for a renderbuffer or a surface image (`None`: the device has no format for it).
    fn render_storage(
        &mut self,
        format: Format,
        width: u32,
        height: u32,
        samples: u8,
    ) -> Result<Option<Storage>, SessionError> {
        let Some(native) = self.format(format) else {
            return Ok(None);
        };
        let max = self.caps.max_renderbuffer_size;
        let samples = conv::map_samples(samples, self.limits.color_samples);
        Storage::new(
            &self.alloc,
            format,
            native,
            vk::ImageType::TYPE_2D,
            [width.clamp(1, max), height.clamp(1, max), 1],
            1,
            1,
            samples,
            false,
        )
        .map(Some)
        .map_err(|e| vk_error("vmaCreateImage", e))
    }

    fn attachment_ref(&self, a: &Attachment) -> Option<ImageRef> {
        match *a {
            Attachment::None => None,
            Attachment::Texture {
                texture,
                level,
                layer,
            } => {
                // A view's images are its storage owner's, from its first level and layer.
                let o = self.owner("", texture).ok()?;
                let layered = layer == tessera_wire::state::LAYERED;
                let view = match o.view {
                    Some(v) => Some(AttachAs {
                        format: self.formats.get(v.format as usize).copied().flatten()?,
                        wire: v.format,
                        first_layer: v.min_layer,
                        layers: v.layers,
                    }),
                    None => None,
                };
                Some(ImageRef {
                    src: ImageSource::Texture(texture),
                    level: u32::from(level) + o.level,
                    layer: if layered { 0 } else { layer + o.layer },
                    layered,
                    view,
                })
            }
            Attachment::Renderbuffer(rb) => Some(ImageRef {
                src: ImageSource::Renderbuffer(rb),
                level: 0,
                layer: 0,
                layered: false,
                view: None,
            }),
        }
    }

    /// Whether framebuffer `fb` has an image of texture `t`'s storage attached (any level or
    /// layer, in any attachment point): a draw into it that samples `t` is a feedback loop,
    /// which keeps the image in the feedback layout (`image.rs`).
    pub fn renders_to(&self, fb: FramebufferRef, t: TextureHandle) -> bool {
        let FramebufferRef::Object(h) = fb else {
            return false;
        };
        let Some(f) = self.framebuffers.live(h) else {
            return false;
        };
        let Ok(owner) = self.owner("", t) else {
            return false;
        };
        f.state
            .colors
            .iter()
            .chain([&f.state.depth, &f.state.stencil])
            .any(|a| match *a {
                Attachment::Texture { texture, .. } => self
                    .owner("", texture)
                    .is_ok_and(|o| o.handle == owner.handle),
                _ => false,
            })
    }

    /// The image a read source names.
    pub fn read_ref(
        &self,
        record: &'static str,
        src: &ReadSource,
    ) -> Result<Option<ImageRef>, SessionError> {
        Ok(match src.framebuffer {
            FramebufferRef::None => None,
            FramebufferRef::Surface(h) => {
                self.surfaces.get(record, h)?;
                Some(ImageRef {
                    src: match src.image {
                        ReadImage::Color(_) => ImageSource::SurfaceColor(h),
                        _ => ImageSource::SurfaceDepth(h),
                    },
                    level: 0,
                    layer: 0,
                    layered: false,
                    view: None,
                })
            }
            FramebufferRef::Object(h) => {
                let fb = self.framebuffers.get(record, h)?;
                let a = match src.image {
                    ReadImage::Color(j) => {
                        fb.state.colors[usize::from(j).min(MAX_DRAW_BUFFERS - 1)]
                    }
                    ReadImage::Depth | ReadImage::DepthStencil => fb.state.depth,
                    ReadImage::Stencil => fb.state.stencil,
                };
                self.attachment_ref(&a)
            }
        })
    }

    /// The render target of a framebuffer with draw buffers; `None`: nothing to draw into.
    pub fn target(
        &mut self,
        fb: FramebufferRef,
        draw_buffers: &[u8; MAX_DRAW_BUFFERS],
        srgb: bool,
    ) -> Result<Option<Target>, SessionError> {
        let epoch = self.epoch;
        let cached = match fb {
            FramebufferRef::None => return Ok(None),
            FramebufferRef::Surface(h) => match self.surfaces.live(h) {
                Some(s) => s.cache.as_ref(),
                None => return Ok(None),
            },
            FramebufferRef::Object(h) => match self.framebuffers.live(h) {
                Some(f) => f.cache.as_ref(),
                None => return Ok(None),
            },
        };
        if let Some(t) = cached
            && t.epoch == epoch
            && t.draw_buffers == *draw_buffers
            && t.srgb == srgb
        {
            return Ok(Some(t.clone()));
        }
        // Which images, in attachment order.
        let mut colors: [Option<ImageRef>; MAX_DRAW_BUFFERS] = [None; MAX_DRAW_BUFFERS];
        let mut ds: Option<(ImageRef, bool, bool)> = None;
        let mut defaults = None;
        match fb {
            FramebufferRef::Surface(h) => {
                if draw_buffers[0] != DRAW_BUFFER_NONE {
                    colors[0] = Some(ImageRef {
                        src: ImageSource::SurfaceColor(h),
                        level: 0,
                        layer: 0,
                        layered: false,
                        view: None,
                    });
                }
                if let Some(f) = self.surfaces.live(h).and_then(|s| s.desc.depth_stencil) {
                    let r = ImageRef {
                        src: ImageSource::SurfaceDepth(h),
                        level: 0,
                        layer: 0,
                        layered: false,
                        view: None,
                    };
                    ds = Some((r, f.has_depth(), f.has_stencil()));
                }
            }
            FramebufferRef::Object(h) => {
                let state = match self.framebuffers.live(h) {
                    Some(f) => f.state,
                    None => return Ok(None),
                };
                defaults = Some(state.defaults);
                for (i, &b) in draw_buffers.iter().enumerate() {
                    if b != DRAW_BUFFER_NONE && usize::from(b) < MAX_DRAW_BUFFERS {
                        if i >= self.limits.max_color_attachments {
                            continue;
                        }
                        colors[i] = self.attachment_ref(&state.colors[usize::from(b)]);
                    }
                }
                let d = self.attachment_ref(&state.depth);
                let s = self.attachment_ref(&state.stencil);
                ds = match (d, s) {
                    (Some(d), Some(s)) if d == s => Some((d, true, true)),
                    (Some(d), _) => Some((d, true, false)),
                    (None, Some(s)) => Some((s, false, true)),
                    (None, None) => None,
                };
            }
            FramebufferRef::None => return Ok(None),
        }
        // Views, formats, extent.
        let raw = self.raw.clone();
        let mut views = Vec::new();
        let mut images = Vec::new();
        let mut key = PassKey {
            colors: [vk::Format::UNDEFINED; MAX_DRAW_BUFFERS],
            depth_stencil: vk::Format::UNDEFINED,
            samples: vk::SampleCountFlags::TYPE_1,
            blendable: 0,
            clears: 0,
        };
        let mut slot = [None; MAX_DRAW_BUFFERS];
        let mut class = [NumClass::Float; MAX_DRAW_BUFFERS];
        let mut extent = [u32::MAX, u32::MAX];
        let mut layers = u32::MAX;
        let mut samples = None;
        let mut add = |dev: &mut VkPipe,
                       r: ImageRef|
         -> Result<
            Option<(vk::Format, vk::FormatFeatureFlags, Format, u8)>,
            SessionError,
        > {
            let Some(s) = dev.image_mut("", r.src).ok().flatten() else {
                return Ok(None);
            };
            if !s.native.renderable() || r.level >= s.levels {
                return Ok(None);
            }
            if samples.is_some_and(|n| n != s.samples) {
                return Ok(None);
            }
            samples = Some(s.samples);
            let e = s.level_extent(r.level);
            extent = [extent[0].min(e[0]), extent[1].min(e[1])];
            layers = layers.min(match r.view {
                Some(v) if r.layered && !s.three_d => v.layers,
                _ if r.layered => s.attach_layers(r.level),
                _ => 1,
            });
            let v = s.attachment_view(&raw, r.level, r.layer, r.layered, srgb, r.view)?;
            let out = match r.view {
                Some(v) if v.format.vk != s.native.vk => {
                    (v.format.vk, v.format.features, v.wire, images.len() as u8)
                }
                _ => (
                    s.attachment_format(srgb),
                    s.native.features,
                    s.format,
                    images.len() as u8,
                ),
            };
            views.push(v);
            images.push(r);
            Ok(Some(out))
        };
        for (i, c) in colors.iter().enumerate() {
            let Some(r) = *c else { continue };
            if let Some((f, features, wire, at)) = add(self, r)? {
                key.colors[i] = f;
                if features.contains(vk::FormatFeatureFlags::COLOR_ATTACHMENT_BLEND) {
                    key.blendable |= 1 << i;
                }
                slot[i] = Some(at);
                class[i] = class_of(wire);
            }
        }
        let mut depth_stencil = None;
        if let Some((r, d, s)) = ds
            && let Some((f, _, wire, at)) = add(self, r)?
        {
            key.depth_stencil = f;
            depth_stencil = Some((at, d && wire.has_depth(), s && wire.has_stencil()));
        }
        if images.is_empty() {
            // A framebuffer object without images (ARB_framebuffer_no_attachments): a pass
            // without attachments over its default size, rasterizing with its default
            // samples; the engine calls it complete only with a width and a height.
            let Some(d) = defaults.filter(|d| d.width > 0 && d.height > 0) else {
                return Ok(None);
            };
            let max = self.caps.max_renderbuffer_size;
            extent = [d.width.min(max), d.height.min(max)];
            layers = d.layers;
            samples = Some(if d.samples == 0 {
                vk::SampleCountFlags::TYPE_1
            } else {
                conv::map_samples(d.samples, self.limits.no_attachment_samples)
            });
        }
        key.samples = samples.unwrap_or(vk::SampleCountFlags::TYPE_1);
        let pass = self.render_pass(&key)?;
        let pass_id = self.pipes.compat.intern(&key);
        let info = vk::FramebufferCreateInfo::default()
            .render_pass(pass)
            .attachments(&views)
            .width(extent[0])
            .height(extent[1])
            .layers(layers.max(1));
        // SAFETY: views of live images in the pass's attachment order, with its formats and
        // sample count; the extent is the smallest attachment's.
        let framebuffer = unsafe { self.raw.create_framebuffer(&info, None) }
            .map_err(|e| vk_error("vkCreateFramebuffer", e))?;
        count(&self.stats.framebuffers);
        let target = Target {
            fb,
            draw_buffers: *draw_buffers,
            epoch,
            srgb,
            framebuffer,
            pass: key,
            pass_id,
            extent: vk::Extent2D {
                width: extent[0],
                height: extent[1],
            },
            layers: layers.max(1),
            images,
            slot,
            class,
            depth_stencil,
        };
        let old = match fb {
            FramebufferRef::Surface(h) => self
                .surfaces
                .get_mut("", h)
                .ok()
                .and_then(|s| s.cache.replace(target.clone())),
            FramebufferRef::Object(h) => self
                .framebuffers
                .get_mut("", h)
                .ok()
                .and_then(|f| f.cache.replace(target.clone())),
            FramebufferRef::None => None,
        };
        if let Some(old) = old {
            self.defer(Garbage::Framebuffer(old.framebuffer));
        }
        Ok(Some(target))
    }

    /// Resolves a multisampled colour image into a temporary single-sampled one (freed with
    /// the current submission): (source, level, layer) of the result.
    pub(crate) fn resolve_to_temp(
        &mut self,
        r: ImageRef,
    ) -> Result<Option<(ImageSource, u32, u32)>, SessionError> {
        let raw = self.raw.clone();
        self.transfer_begin();
        let cmd = self.rec.cmd;
        let Some(s) = self.image_mut("", r.src)? else {
            return Ok(None);
        };
        if s.native.is_depth_stencil() {
            self.report(
                Missing::Blit,
                "multisampled depth and stencil are not resolved for reading: zeros instead",
            );
            return Ok(None);
        }
        let (format, native, extent) = (s.format, s.native, s.level_extent(r.level));
        let mut temp = Storage::new(
            &self.alloc,
            format,
            native,
            vk::ImageType::TYPE_2D,
            extent,
            1,
            1,
            vk::SampleCountFlags::TYPE_1,
            false,
        )
        .map_err(|e| vk_error("vmaCreateImage", e))?;
        let Some(s) = self.image_mut("", r.src)? else {
            return Ok(None);
        };
        let src_layout = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
        let dst_layout = vk::ImageLayout::TRANSFER_DST_OPTIMAL;
        transition(&raw, cmd, s, src_layout);
        transition(&raw, cmd, &mut temp, dst_layout);
        let region = vk::ImageResolve {
            src_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: r.level,
                base_array_layer: r.layer,
                layer_count: 1,
            },
            src_offset: vk::Offset3D::default(),
            dst_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: 1,
            },
            dst_offset: vk::Offset3D::default(),
            extent: vk::Extent3D {
                width: extent[0],
                height: extent[1],
                depth: 1,
            },
        };
        // SAFETY: recording outside a render pass; a multisampled source in TRANSFER_SRC
        // and a single-sampled destination of the same format and extent in TRANSFER_DST.
        unsafe {
            raw.cmd_resolve_image(cmd, s.image, src_layout, temp.image, dst_layout, &[region])
        };
        self.rec.dirty_mem = true;
        // The temporary is the device's scratch image until the next one.
        if let Some(old) = self.temp.replace(temp) {
            old.retire(&mut self.frames.current.garbage);
        }
        Ok(Some((ImageSource::Temp, 0, 0)))
    }
}

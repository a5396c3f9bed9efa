//! Images: a `VkImage` with its memory, format, shape, tracked layout and cached views
//! ([`Storage`], shared by textures, renderbuffers and surfaces), layout transitions, and the
//! placeholder images unbound sampler slots read.
//!
//! ## Layouts
//! Each image has one layout for all its subresources (`Storage::layout`); a use that needs
//! another transitions the whole image with a full barrier, always outside a render pass.
//!
//! ## Feedback loops
//! A draw may sample a texture whose image its framebuffer has attached
//! (`GL_ARB_texture_barrier`: a level other than the attached one, or texels no draw since the
//! last `glTextureBarrier` wrote, or each fragment's own texel before it writes it). Such an
//! image cannot be `SHADER_READ_ONLY_OPTIMAL` for the descriptor and an attachment layout for
//! the pass at once, so it takes one layout for both, `VkPipe::feedback_layout`: gathering
//! the draw's descriptors puts it there and notes it (`Recording::feedback`), the pass begun
//! for the draw keeps it there (`VkPipe::render_pass_with`: its attachment references and
//! initial and final layouts name it), and any other use moves it back to that use's
//! layout, so only draws that loop change layouts. `glTextureBarrier` travels as a
//! `MemoryBarrier`, which ends the pass and orders its writes before later reads; the pass
//! of the next draw loads what it wrote.
//!
//! Core Vulkan lets a subpass read an image it writes as an attachment only as an input
//! attachment (VUID-vkCmdDraw-None-06538), so sampling the texels a pass renders is defined
//! only with `VK_EXT_attachment_feedback_loop_layout`: there the layout is
//! `ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT`, images both sampled and renderable carry the
//! `ATTACHMENT_FEEDBACK_LOOP_EXT` usage, and the pipelines of a pass with such attachments
//! are made with the matching feedback-loop flags (`PipelineKey::feedback`); the device
//! reports `GL_ARB_texture_barrier` then. Without it the layout is `GENERAL`, which still
//! serves what GL defines without the extension: a draw sampling one level of a texture
//! while rendering to another.
//!
//! ## sRGB
//! Desktop GL converts writes into an sRGB image only while `FRAMEBUFFER_SRGB` is enabled.
//! A renderable sRGB image is made with `MUTABLE_FORMAT`, and a view of it names either its
//! own format or its UNORM twin (`conv::linear_twin`, [`ViewKey::linear`]): render targets
//! take the twin while the switch is off (`framebuffer.rs`), so writes, blending and clears
//! store values as they are; samplers always take the sRGB view and decode. Transfer
//! commands see the image's own (sRGB) format: `blit.rs` copies where GL converts nothing.

use std::collections::HashMap;

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::format::Format;
use tessera_wire::handle::{RenderbufferHandle, SurfaceHandle, TextureHandle};
use vk_mem::Alloc;

use crate::conv::{self, NativeFormat};
use crate::device::{VkPipe, vk_error};
use crate::frame::Garbage;
use crate::spirv::NumClass;

/// One view of an image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ViewKey {
    pub ty: vk::ImageViewType,
    pub aspect: vk::ImageAspectFlags,
    pub base_level: u32,
    pub levels: u32,
    pub base_layer: u32,
    pub layers: u32,
    pub swizzle: [vk::ComponentSwizzle; 4],
    /// The view names the image's UNORM twin (only for [`Storage::linear`] images).
    pub linear: bool,
    /// A format of the image's view class other than its own (a GL texture view's;
    /// `UNDEFINED`: the image's own format or twin).
    pub format: vk::Format,
    /// A storage image view (`GL_ARB_shader_image_load_store`): its usage is `STORAGE`
    /// alone, whatever else the image has.
    pub storage: bool,
}

/// A `VkImage` with its memory, format, shape, layout and views.
pub(crate) struct Storage {
    pub image: vk::Image,
    allocation: Option<Backing>,
    pub native: NativeFormat,
    pub format: Format,
    pub extent: [u32; 3],
    pub levels: u32,
    pub layers: u32,
    /// A 3D image: framebuffer "layers" are its depth slices.
    pub three_d: bool,
    /// A 1D image: its attachment views are 1D (a 2D view of it is invalid,
    /// VUID-VkImageViewCreateInfo-subResourceRange-01021).
    pub one_d: bool,
    pub samples: vk::SampleCountFlags,
    pub layout: vk::ImageLayout,
    /// The UNORM twin of a renderable sRGB image made `MUTABLE_FORMAT` (module docs).
    pub linear: Option<vk::Format>,
    /// The usage the image was made with (a view in another format takes what of it that
    /// format supports).
    pub usage: vk::ImageUsageFlags,
    /// A 3D storage image made `2D_VIEW_COMPATIBLE_EXT`: one slice of a level may be bound
    /// as a 2D storage image.
    pub slices_2d: bool,
    views: Vec<(ViewKey, vk::ImageView)>,
}

/// The memory of a [`Storage`]'s image.
enum Backing {
    /// The backend's own allocation.
    Vma(vk_mem::Allocation),
    /// Memory a host handed over (`GL_EXT_memory_object_fd`), imported for this image
    /// alone and freed with it.
    Imported(vk::DeviceMemory),
}

/// What a texture's image is made with apart from its shape ([`Storage::new_texture`]).
struct TextureUsage {
    usage: vk::ImageUsageFlags,
    flags: vk::ImageCreateFlags,
    linear: Option<vk::Format>,
    slices_2d: bool,
}

impl TextureUsage {
    /// The usage and flags of a texture's image (see [`Storage::new_texture`]).
    fn of(
        native: NativeFormat,
        ty: vk::ImageType,
        samples: vk::SampleCountFlags,
        cube: bool,
        slices_2d: bool,
        feedback_loop: bool,
    ) -> Self {
        let f = native.features;
        let mut usage = vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST;
        if f.contains(vk::FormatFeatureFlags::SAMPLED_IMAGE) {
            usage |= vk::ImageUsageFlags::SAMPLED;
        }
        if f.contains(vk::FormatFeatureFlags::COLOR_ATTACHMENT) {
            usage |= vk::ImageUsageFlags::COLOR_ATTACHMENT;
        }
        if f.contains(vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT) {
            usage |= vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT;
        }
        // Any texture may be bound to an image unit (a view in another format of its size
        // takes this usage too, where that format supports it).
        if f.contains(vk::FormatFeatureFlags::STORAGE_IMAGE)
            && samples == vk::SampleCountFlags::TYPE_1
        {
            usage |= vk::ImageUsageFlags::STORAGE;
        }
        if feedback_loop
            && usage.contains(vk::ImageUsageFlags::SAMPLED)
            && usage.intersects(
                vk::ImageUsageFlags::COLOR_ATTACHMENT
                    | vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT,
            )
        {
            usage |= vk::ImageUsageFlags::ATTACHMENT_FEEDBACK_LOOP_EXT;
        }
        let mut flags = vk::ImageCreateFlags::empty();
        if cube {
            flags |= vk::ImageCreateFlags::CUBE_COMPATIBLE;
        }
        if ty == vk::ImageType::TYPE_3D && usage.contains(vk::ImageUsageFlags::COLOR_ATTACHMENT) {
            flags |= vk::ImageCreateFlags::TYPE_2D_ARRAY_COMPATIBLE;
        }
        // A 2D storage view of a 3D image needs this flag
        // (VUID-VkDescriptorImageInfo-descriptorType-06713).
        let slices_2d = slices_2d
            && ty == vk::ImageType::TYPE_3D
            && usage.contains(vk::ImageUsageFlags::STORAGE);
        if slices_2d {
            flags |= vk::ImageCreateFlags::TYPE_2D_VIEW_COMPATIBLE_EXT;
        }
        let linear = usage
            .contains(vk::ImageUsageFlags::COLOR_ATTACHMENT)
            .then(|| conv::linear_twin(native.vk))
            .flatten();
        // GL texture views may give a colour image any format of its view class (GL 4.3
        // §8.18); the image cannot know whether a view will, so every colour image may.
        if linear.is_some() || native.aspect() == vk::ImageAspectFlags::COLOR {
            flags |= vk::ImageCreateFlags::MUTABLE_FORMAT;
        }
        Self {
            usage,
            flags,
            linear,
            slices_2d,
        }
    }
}

/// A host's memory a texture's image is made in (`ImportTextureMemory`).
pub(crate) struct HostMemory {
    /// The opaque descriptor, which the import takes over.
    pub fd: std::os::fd::OwnedFd,
    /// Bytes of the memory object.
    pub size: u64,
    /// Where the image starts.
    pub offset: u64,
    /// Whether the memory is a dedicated allocation of the exporter's image.
    pub dedicated: bool,
}

impl Storage {
    /// Creates an image (contents undefined, layout UNDEFINED).
    #[expect(
        clippy::too_many_arguments,
        reason = "the shape of an image, field by field"
    )]
    pub fn new(
        alloc: &vk_mem::Allocator,
        format: Format,
        native: NativeFormat,
        ty: vk::ImageType,
        extent: [u32; 3],
        levels: u32,
        layers: u32,
        samples: vk::SampleCountFlags,
        cube: bool,
    ) -> Result<Self, vk::Result> {
        Self::new_texture(
            alloc, format, native, ty, extent, levels, layers, samples, cube, false, false,
        )
    }

    /// [`Storage::new`] for a texture: where `slices_2d` (the device's
    /// `VK_EXT_image_2d_view_of_3d`), a 3D storage image is made `2D_VIEW_COMPATIBLE_EXT`,
    /// since a GL image unit may bind one slice of it as a 2D image; where `feedback_loop`
    /// (the device's `VK_EXT_attachment_feedback_loop_layout`), an image both sampled and
    /// rendered to may take the feedback-loop layout (module docs).
    #[expect(
        clippy::too_many_arguments,
        reason = "the shape of an image, field by field"
    )]
    pub fn new_texture(
        alloc: &vk_mem::Allocator,
        format: Format,
        native: NativeFormat,
        ty: vk::ImageType,
        extent: [u32; 3],
        levels: u32,
        layers: u32,
        samples: vk::SampleCountFlags,
        cube: bool,
        slices_2d: bool,
        feedback_loop: bool,
    ) -> Result<Self, vk::Result> {
        let TextureUsage {
            usage,
            flags,
            linear,
            slices_2d,
        } = TextureUsage::of(native, ty, samples, cube, slices_2d, feedback_loop);
        let info = vk::ImageCreateInfo::default()
            .flags(flags)
            .image_type(ty)
            .format(native.vk)
            .extent(vk::Extent3D {
                width: extent[0].max(1),
                height: extent[1].max(1),
                depth: extent[2].max(1),
            })
            .mip_levels(levels.max(1))
            .array_layers(layers.max(1))
            .samples(samples)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        let ainfo = crate::memory::device_local();
        // SAFETY: a valid create info (extent >= 1, levels and layers >= 1, usage the format
        // supports); the allocator outlives the image (freed through `destroy` or garbage).
        let (image, allocation) = unsafe { alloc.create_image(&info, &ainfo) }?;
        Ok(Self {
            image,
            allocation: Some(Backing::Vma(allocation)),
            native,
            format,
            extent: [extent[0].max(1), extent[1].max(1), extent[2].max(1)],
            levels: levels.max(1),
            layers: layers.max(1),
            three_d: ty == vk::ImageType::TYPE_3D,
            one_d: ty == vk::ImageType::TYPE_1D,
            samples,
            layout: vk::ImageLayout::UNDEFINED,
            linear,
            usage,
            slices_2d,
            views: Vec::new(),
        })
    }

    /// A 2D texture's image made in a host's memory (`GL_EXT_memory_object_fd`): the image
    /// [`Storage::new_texture`] would make (optimal tiling, the same usage and flags), with
    /// `levels` levels, created for `OPAQUE_FD` external memory, bound at `memory.offset` of
    /// the descriptor imported as a new allocation of `memory.size` bytes (dedicated to this
    /// image where the memory is a dedicated one) of the lowest memory type the image allows,
    /// device-local first. `Ok(None)`: the driver refused the import or the image does not
    /// fit in the memory at that offset; the descriptor is closed then.
    #[expect(
        clippy::too_many_arguments,
        reason = "the shape of an image and its memory"
    )]
    pub fn new_imported_2d(
        raw: &ash::Device,
        memory_props: &vk::PhysicalDeviceMemoryProperties,
        format: Format,
        native: NativeFormat,
        extent: [u32; 2],
        levels: u32,
        feedback_loop: bool,
        memory: HostMemory,
    ) -> Result<Option<Self>, vk::Result> {
        use std::os::fd::IntoRawFd;
        let samples = vk::SampleCountFlags::TYPE_1;
        let ty = vk::ImageType::TYPE_2D;
        let TextureUsage {
            usage,
            flags,
            linear,
            slices_2d,
        } = TextureUsage::of(native, ty, samples, false, false, feedback_loop);
        let mut external = vk::ExternalMemoryImageCreateInfo::default()
            .handle_types(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
        let info = vk::ImageCreateInfo::default()
            .flags(flags)
            .image_type(ty)
            .format(native.vk)
            .extent(vk::Extent3D {
                width: extent[0].max(1),
                height: extent[1].max(1),
                depth: 1,
            })
            .mip_levels(levels.max(1))
            .array_layers(1)
            .samples(samples)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .push_next(&mut external);
        // SAFETY: a valid create info (extent >= 1, levels >= 1, usage the format supports);
        // the chained struct is core Vulkan 1.1, which `memory_export` requires.
        let image = unsafe { raw.create_image(&info, None) }?;
        // SAFETY: a live image of this device.
        let req = unsafe { raw.get_image_memory_requirements(image) };
        let type_index = (0..memory_props.memory_type_count)
            .filter(|&i| req.memory_type_bits & (1 << i) != 0)
            .max_by_key(|&i| {
                let flags = memory_props.memory_types[i as usize].property_flags;
                (
                    flags.contains(vk::MemoryPropertyFlags::DEVICE_LOCAL),
                    u32::MAX - i,
                )
            });
        let fits = memory.offset.is_multiple_of(req.alignment.max(1))
            && memory
                .offset
                .checked_add(req.size)
                .is_some_and(|end| end <= memory.size);
        let Some(type_index) = type_index.filter(|_| fits) else {
            // SAFETY: the image was never bound or used.
            unsafe { raw.destroy_image(image, None) };
            return Ok(None);
        };
        let fd = memory.fd.into_raw_fd();
        let mut import = vk::ImportMemoryFdInfoKHR::default()
            .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD)
            .fd(fd);
        let mut dedicated = vk::MemoryDedicatedAllocateInfo::default().image(image);
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(memory.size)
            .memory_type_index(type_index)
            .push_next(&mut import);
        let alloc = if memory.dedicated {
            alloc.push_next(&mut dedicated)
        } else {
            alloc
        };
        // SAFETY: `fd` is an opaque descriptor the host exported for a device with this
        // device's UUIDs (the EXT's contract, which the host checked against an export's UUIDs);
        // the import owns it on success.
        let device_memory = match unsafe { raw.allocate_memory(&alloc, None) } {
            Ok(m) => m,
            Err(e) => {
                // SAFETY: a failed import leaves the descriptor with the caller; the image
                // was never bound or used.
                unsafe {
                    drop(<std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd));
                    raw.destroy_image(image, None);
                }
                log::warn!("tessera: vkAllocateMemory(import) refused the host's memory: {e}");
                return Ok(None);
            }
        };
        // SAFETY: memory of a type the image allows; the image fits at an aligned offset.
        if let Err(e) = unsafe { raw.bind_image_memory(image, device_memory, memory.offset) } {
            // SAFETY: the image was never used; the memory has no other user.
            unsafe {
                raw.destroy_image(image, None);
                raw.free_memory(device_memory, None);
            }
            return Err(e);
        }
        Ok(Some(Self {
            image,
            allocation: Some(Backing::Imported(device_memory)),
            native,
            format,
            extent: [extent[0].max(1), extent[1].max(1), 1],
            levels: levels.max(1),
            layers: 1,
            three_d: false,
            one_d: false,
            samples,
            layout: vk::ImageLayout::UNDEFINED,
            linear,
            usage,
            slices_2d,
            views: Vec::new(),
        }))
    }

    /// The extent of a level.
    pub fn level_extent(&self, level: u32) -> [u32; 3] {
        self.extent.map(|e| (e >> level).max(1))
    }

    /// A view of the image, created on first use.
    pub fn view(&mut self, raw: &ash::Device, key: ViewKey) -> Result<vk::ImageView, SessionError> {
        self.view_as(raw, key, None)
    }

    /// [`Storage::view`], in another format of the image's class (`key.format`) whose
    /// features `features` are: the view's usage is what of the image's they support.
    pub fn view_as(
        &mut self,
        raw: &ash::Device,
        key: ViewKey,
        features: Option<vk::FormatFeatureFlags>,
    ) -> Result<vk::ImageView, SessionError> {
        if let Some((_, v)) = self.views.iter().find(|(k, _)| *k == key) {
            return Ok(*v);
        }
        let format = match self.linear {
            _ if key.format != vk::Format::UNDEFINED => key.format,
            Some(twin) if key.linear => twin,
            _ => self.native.vk,
        };
        let mut usage = self.usage;
        if key.storage {
            usage = vk::ImageUsageFlags::STORAGE;
        } else if let Some(f) = features.filter(|_| format != self.native.vk) {
            for (bit, feature) in [
                (
                    vk::ImageUsageFlags::SAMPLED,
                    vk::FormatFeatureFlags::SAMPLED_IMAGE,
                ),
                (
                    vk::ImageUsageFlags::COLOR_ATTACHMENT,
                    vk::FormatFeatureFlags::COLOR_ATTACHMENT,
                ),
                (
                    vk::ImageUsageFlags::STORAGE,
                    vk::FormatFeatureFlags::STORAGE_IMAGE,
                ),
            ] {
                if !f.contains(feature) {
                    usage &= !bit;
                }
            }
        }
        let mut usage_info = vk::ImageViewUsageCreateInfo::default().usage(usage);
        let info = vk::ImageViewCreateInfo::default()
            .push_next(&mut usage_info)
            .image(self.image)
            .view_type(key.ty)
            .format(format)
            .components(vk::ComponentMapping {
                r: key.swizzle[0],
                g: key.swizzle[1],
                b: key.swizzle[2],
                a: key.swizzle[3],
            })
            .subresource_range(vk::ImageSubresourceRange {
                aspect_mask: key.aspect,
                base_mip_level: key.base_level,
                level_count: key.levels,
                base_array_layer: key.base_layer,
                layer_count: key.layers,
            });
        // SAFETY: a live image; the range lies inside it (callers clamp to levels/layers);
        // the view type is compatible with the image type and flags (cube views only of
        // cube-compatible images, 2D views of 3D slices only of 2D-array-compatible ones,
        // or of 2D-view-compatible ones for storage views);
        // a format other than the image's only for MUTABLE_FORMAT images, and then its
        // same-class UNORM twin or a format of its view class the engine checked; the
        // view's usage is the image's, less what that format does not support.
        let v = unsafe { raw.create_image_view(&info, None) }
            .map_err(|e| vk_error("vkCreateImageView", e))?;
        self.views.push((key, v));
        Ok(v)
    }

    /// A single-level (single-layer unless `layered`) view for rendering, through the
    /// UNORM twin of an sRGB image unless `srgb` (`FRAMEBUFFER_SRGB`) asks for conversion.
    /// A texture view's (`view`) is in its format (with that format's features), and a
    /// layered one covers its layers only.
    pub fn attachment_view(
        &mut self,
        raw: &ash::Device,
        level: u32,
        layer: u32,
        layered: bool,
        srgb: bool,
        view: Option<AttachAs>,
    ) -> Result<vk::ImageView, SessionError> {
        let level = level.min(self.levels - 1);
        let count = self.attach_layers(level);
        let (array, single) = if self.one_d {
            (vk::ImageViewType::TYPE_1D_ARRAY, vk::ImageViewType::TYPE_1D)
        } else {
            (vk::ImageViewType::TYPE_2D_ARRAY, vk::ImageViewType::TYPE_2D)
        };
        let (ty, base_layer, layers) = match view {
            Some(v) if layered && !self.three_d => (
                array,
                v.first_layer.min(count - 1),
                v.layers.clamp(1, count - v.first_layer.min(count - 1)),
            ),
            _ if layered => (array, 0, count),
            _ => (single, layer.min(count - 1), 1),
        };
        let format = view.map_or(vk::Format::UNDEFINED, |v| v.format.vk);
        let format = if format == self.native.vk {
            vk::Format::UNDEFINED
        } else {
            format
        };
        let key = ViewKey {
            ty,
            aspect: self.native.aspect(),
            base_level: level,
            levels: 1,
            base_layer,
            layers,
            swizzle: [vk::ComponentSwizzle::IDENTITY; 4],
            linear: format == vk::Format::UNDEFINED && !srgb && self.linear.is_some(),
            format,
            storage: false,
        };
        self.view_as(raw, key, view.map(|v| v.format.features))
    }

    /// Layers a framebuffer can address at a level: array layers, or a 3D level's depth
    /// slices (2D views of slices need `2D_ARRAY_COMPATIBLE`, set for renderable 3D images).
    pub fn attach_layers(&self, level: u32) -> u32 {
        if self.three_d {
            self.level_extent(level)[2]
        } else {
            self.layers
        }
    }

    /// (array layer, z offset) of framebuffer layer `layer` in a copy region.
    pub fn slice(&self, layer: u32) -> (u32, i32) {
        if self.three_d {
            (0, layer as i32)
        } else {
            (layer, 0)
        }
    }

    /// Hands the image and its views to the garbage of the current submission.
    pub fn retire(mut self, garbage: &mut Vec<Garbage>) {
        for (_, v) in self.views.drain(..) {
            garbage.push(Garbage::View(v));
        }
        match self.allocation.take() {
            Some(Backing::Vma(a)) => garbage.push(Garbage::Image(self.image, a)),
            Some(Backing::Imported(m)) => garbage.push(Garbage::ImportedImage(self.image, m)),
            None => {}
        }
    }

    /// Destroys the image now (the device is idle).
    pub fn destroy_now(mut self, raw: &ash::Device, alloc: &vk_mem::Allocator) {
        // SAFETY: teardown after the device went idle; each object once.
        unsafe {
            for (_, v) in self.views.drain(..) {
                raw.destroy_image_view(v, None);
            }
            match self.allocation.take() {
                Some(Backing::Vma(mut a)) => alloc.destroy_image(self.image, &mut a),
                Some(Backing::Imported(m)) => {
                    raw.destroy_image(self.image, None);
                    raw.free_memory(m, None);
                }
                None => {}
            }
        }
    }

    /// The format a render target view of the image has (`attachment_view`; a texture view's may differ).
    pub fn attachment_format(&self, srgb: bool) -> vk::Format {
        match self.linear {
            Some(twin) if !srgb => twin,
            _ => self.native.vk,
        }
    }

    /// Whether the image lives in memory a host handed over (`GL_EXT_memory_object_fd`):
    /// such an image is shared with another API, across `VK_QUEUE_FAMILY_EXTERNAL`.
    pub fn is_imported(&self) -> bool {
        matches!(self.allocation, Some(Backing::Imported(_)))
    }

    /// The whole image's subresource range.
    pub fn range(&self) -> vk::ImageSubresourceRange {
        vk::ImageSubresourceRange {
            aspect_mask: self.native.aspect(),
            base_mip_level: 0,
            level_count: vk::REMAINING_MIP_LEVELS,
            base_array_layer: 0,
            layer_count: vk::REMAINING_ARRAY_LAYERS,
        }
    }
}

/// What a texture view attached to a framebuffer renders as: its format, and its layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AttachAs {
    pub format: NativeFormat,
    pub wire: Format,
    pub first_layer: u32,
    pub layers: u32,
}

/// Records a whole-image layout transition with a full barrier (outside a render pass).
pub(crate) fn transition(
    raw: &ash::Device,
    cmd: vk::CommandBuffer,
    s: &mut Storage,
    to: vk::ImageLayout,
) {
    if s.layout == to {
        return;
    }
    let barrier = vk::ImageMemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::MEMORY_WRITE)
        .dst_access_mask(vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE)
        .old_layout(s.layout)
        .new_layout(to)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(s.image)
        .subresource_range(s.range());
    // SAFETY: recording, outside a render pass (callers end it first); a live image whose
    // tracked layout is `s.layout`.
    unsafe {
        raw.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[barrier],
        )
    };
    s.layout = to;
}

/// Records a global memory barrier within `stages`: writes of `src` made available to
/// accesses of `dst` (outside a render pass).
pub(crate) fn memory_barrier(
    raw: &ash::Device,
    cmd: vk::CommandBuffer,
    stages: vk::PipelineStageFlags,
    src: vk::AccessFlags,
    dst: vk::AccessFlags,
) {
    let barrier = vk::MemoryBarrier::default()
        .src_access_mask(src)
        .dst_access_mask(dst);
    // SAFETY: recording, outside a render pass (callers end it first); a global barrier
    // names no object.
    unsafe {
        raw.cmd_pipeline_barrier(
            cmd,
            stages,
            stages,
            vk::DependencyFlags::empty(),
            &[barrier],
            &[],
            &[],
        )
    };
}

/// A resolve of the texels a copy region names.
pub(crate) fn resolve_of(c: vk::ImageCopy) -> vk::ImageResolve {
    vk::ImageResolve {
        src_subresource: c.src_subresource,
        src_offset: c.src_offset,
        dst_subresource: c.dst_subresource,
        dst_offset: c.dst_offset,
        extent: c.extent,
    }
}

/// An image a verb reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ImageSource {
    Texture(TextureHandle),
    Renderbuffer(RenderbufferHandle),
    SurfaceColor(SurfaceHandle),
    SurfaceDepth(SurfaceHandle),
    /// The device's scratch image (a resolved copy being read).
    Temp,
}

/// Images of unbound sampler slots: 1x1 (0, 0, 0, 1) per view type and numeric class.
#[derive(Default)]
pub(crate) struct Placeholders {
    images: HashMap<(i32, NumClass, bool), (Storage, vk::ImageView)>,
    texel: HashMap<NumClass, vk::BufferView>,
    /// Storage texel buffers of unbound buffer image slots, per class (views of the sink).
    pub(crate) storage_texel: HashMap<NumClass, vk::BufferView>,
    /// Storage images of unbound image slots, per view type and class (`GENERAL`).
    pub(crate) storage: HashMap<(i32, NumClass), (Storage, vk::ImageView)>,
    pub sampler: Option<vk::Sampler>,
}

impl Placeholders {
    /// Whether the placeholder of a view type and class exists already.
    pub fn has(&self, ty: vk::ImageViewType, class: NumClass, ms: bool) -> bool {
        self.images.contains_key(&(ty.as_raw(), class, ms))
    }

    /// Whether the storage placeholder of a view type and class exists already.
    pub fn has_storage(&self, ty: vk::ImageViewType, class: NumClass) -> bool {
        self.storage.contains_key(&(ty.as_raw(), class))
    }

    pub fn destroy(&mut self, raw: &ash::Device, alloc: &vk_mem::Allocator) {
        for (_, (s, _)) in self.images.drain().chain(
            self.storage
                .drain()
                .map(|(_, v)| ((0, NumClass::Float, false), v)),
        ) {
            s.destroy_now(raw, alloc);
        }
        // SAFETY: teardown after the device went idle; each object once.
        unsafe {
            for (_, v) in self.texel.drain().chain(self.storage_texel.drain()) {
                raw.destroy_buffer_view(v, None);
            }
            if let Some(s) = self.sampler.take() {
                raw.destroy_sampler(s, None);
            }
        }
    }
}

impl VkPipe {
    /// The placeholder sampler (nearest, clamp to edge).
    pub fn placeholder_sampler(&mut self) -> Result<vk::Sampler, SessionError> {
        if let Some(s) = self.placeholders.sampler {
            return Ok(s);
        }
        let info = vk::SamplerCreateInfo::default()
            .mag_filter(vk::Filter::NEAREST)
            .min_filter(vk::Filter::NEAREST)
            .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
            .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
            .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE)
            .max_lod(0.25);
        // SAFETY: a valid create info.
        let s = unsafe { self.raw.create_sampler(&info, None) }
            .map_err(|e| vk_error("vkCreateSampler", e))?;
        self.placeholders.sampler = Some(s);
        Ok(s)
    }

    /// The placeholder image view of a view type and class, made (and cleared to
    /// (0, 0, 0, 1)) on first use; must be called outside a render pass.
    pub fn placeholder_view(
        &mut self,
        ty: vk::ImageViewType,
        class: NumClass,
        multisampled: bool,
    ) -> Result<vk::ImageView, SessionError> {
        let key = (ty.as_raw(), class, multisampled);
        if let Some((_, v)) = self.placeholders.images.get(&key) {
            return Ok(*v);
        }
        let format = match class {
            NumClass::Float => Format::Rgba8,
            NumClass::Int => Format::Rgba8i,
            NumClass::Uint => Format::Rgba8ui,
        };
        let Some(native) = self.format(format) else {
            return Err(SessionError::Backend("no RGBA8 format".to_owned()));
        };
        let (image_ty, layers, cube) = match ty {
            vk::ImageViewType::TYPE_1D | vk::ImageViewType::TYPE_1D_ARRAY => {
                (vk::ImageType::TYPE_1D, 1, false)
            }
            vk::ImageViewType::TYPE_3D => (vk::ImageType::TYPE_3D, 1, false),
            vk::ImageViewType::CUBE | vk::ImageViewType::CUBE_ARRAY => {
                (vk::ImageType::TYPE_2D, 6, true)
            }
            _ => (vk::ImageType::TYPE_2D, 1, false),
        };
        let samples = if multisampled {
            conv::map_samples(4, self.limits.color_samples)
        } else {
            vk::SampleCountFlags::TYPE_1
        };
        let mut s = Storage::new(
            &self.alloc,
            format,
            native,
            image_ty,
            [1, 1, 1],
            1,
            layers,
            samples,
            cube,
        )
        .map_err(|e| vk_error("vmaCreateImage", e))?;
        self.transfer_begin();
        let (raw, cmd) = (self.raw.clone(), self.rec.cmd);
        transition(&raw, cmd, &mut s, vk::ImageLayout::TRANSFER_DST_OPTIMAL);
        let value = match class {
            NumClass::Float => vk::ClearColorValue {
                float32: [0.0, 0.0, 0.0, 1.0],
            },
            NumClass::Int => vk::ClearColorValue {
                int32: [0, 0, 0, 1],
            },
            NumClass::Uint => vk::ClearColorValue {
                uint32: [0, 0, 0, 1],
            },
        };
        // SAFETY: recording outside a render pass; a new image in TRANSFER_DST_OPTIMAL with
        // TRANSFER_DST usage; the whole range.
        unsafe {
            raw.cmd_clear_color_image(
                cmd,
                s.image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &value,
                &[s.range()],
            )
        };
        transition(&raw, cmd, &mut s, vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL);
        self.rec.dirty_mem = true;
        let key_view = ViewKey {
            ty,
            aspect: vk::ImageAspectFlags::COLOR,
            base_level: 0,
            levels: 1,
            base_layer: 0,
            layers,
            swizzle: [vk::ComponentSwizzle::IDENTITY; 4],
            linear: false,
            format: vk::Format::UNDEFINED,
            storage: false,
        };
        let v = s.view(&raw, key_view)?;
        self.placeholders.images.insert(key, (s, v));
        Ok(v)
    }

    /// The placeholder texel buffer view of a class (reads zeros).
    pub fn placeholder_texel(&mut self, class: NumClass) -> Result<vk::BufferView, SessionError> {
        if let Some(v) = self.placeholders.texel.get(&class) {
            return Ok(*v);
        }
        let format = match class {
            NumClass::Float => vk::Format::R32G32B32A32_SFLOAT,
            NumClass::Int => vk::Format::R32G32B32A32_SINT,
            NumClass::Uint => vk::Format::R32G32B32A32_UINT,
        };
        let info = vk::BufferViewCreateInfo::default()
            .buffer(self.zero_buffer())
            .format(format)
            .offset(0)
            .range(256);
        // SAFETY: the zero buffer has UNIFORM_TEXEL_BUFFER usage and 64 KiB; offset 0.
        let v = unsafe { self.raw.create_buffer_view(&info, None) }
            .map_err(|e| vk_error("vkCreateBufferView", e))?;
        self.placeholders.texel.insert(class, v);
        Ok(v)
    }
}

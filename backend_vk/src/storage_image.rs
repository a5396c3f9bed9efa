//! Storage images (`GL_ARB_shader_image_load_store`): the image views of `BindImage`
//! bindings and the placeholders of unbound image slots.
//!
//! Every colour image whose format supports it is made with `STORAGE` usage (and, as every
//! colour image, `MUTABLE_FORMAT`), so any texture can be bound to an image unit: the view
//! is of the bound level, of its layers or the one bound, in the unit's format, with
//! `STORAGE` usage alone (one slice of a 3D level, bound alone, is a 2D view of it: 3D
//! images are made `2D_VIEW_COMPATIBLE_EXT` where the device has
//! `VK_EXT_image_2d_view_of_3d`). An image is in `GENERAL` layout while a draw or dispatch uses it
//! as a storage image: gathering the descriptors transitions it outside the pass, as
//! sampling transitions it back to `SHADER_READ_ONLY_OPTIMAL`. What shaders write reaches
//! later passes, transfers and dispatches through the global barrier that follows every
//! pass and dispatch (`VkPipe::sync`).
//!
//! An image slot whose unit holds no usable image (the engine binds `None`, or the device
//! cannot view it so) reads a 1x1 placeholder of zeros; GL drops stores there, here they
//! land in the placeholder, which no other slot reads as anything but undefined values.

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::format::Format;
use tessera_wire::handle::TextureHandle;
use tessera_wire::record::ImageBinding;

use crate::device::{Missing, VkPipe, vk_error};
use crate::image::{Storage, ViewKey, transition};
use crate::spirv::{Dim, NumClass};

/// The view type of a storage image of `dim` (arrayed or not).
pub(crate) fn view_type(dim: Dim, arrayed: bool) -> vk::ImageViewType {
    match (dim, arrayed) {
        (Dim::D1, false) => vk::ImageViewType::TYPE_1D,
        (Dim::D1, true) => vk::ImageViewType::TYPE_1D_ARRAY,
        (Dim::D3, _) => vk::ImageViewType::TYPE_3D,
        (Dim::Cube, false) => vk::ImageViewType::CUBE,
        (Dim::Cube, true) => vk::ImageViewType::CUBE_ARRAY,
        (_, true) => vk::ImageViewType::TYPE_2D_ARRAY,
        _ => vk::ImageViewType::TYPE_2D,
    }
}

impl VkPipe {
    /// The storage view of an image binding for a slot of view type `ty`, with the image's
    /// layout; `None` where the device cannot view it so (the slot then reads the
    /// placeholder).
    pub(crate) fn storage_view(
        &mut self,
        b: ImageBinding,
        ty: vk::ImageViewType,
    ) -> Option<(vk::ImageView, vk::ImageLayout)> {
        let raw = self.raw.clone();
        let o = self.owner("", b.texture).ok()?;
        let native = self.format(b.format)?;
        if !native
            .features
            .contains(vk::FormatFeatureFlags::STORAGE_IMAGE)
        {
            self.report(
                Missing::Format,
                &format!("the device has no storage images of {:?}", b.format),
            );
            return None;
        }
        let s = self.textures.get_mut("", o.handle).ok()?.storage.as_mut()?;
        if !s.usage.contains(vk::ImageUsageFlags::STORAGE) {
            return None;
        }
        let one_d = matches!(
            ty,
            vk::ImageViewType::TYPE_1D | vk::ImageViewType::TYPE_1D_ARRAY
        );
        let three_d = ty == vk::ImageViewType::TYPE_3D;
        // One slice of a 3D level bound alone is a 2D image (GL 4.2 §3.9.20), viewed so
        // where the image is 2D_VIEW_COMPATIBLE (VK_EXT_image_2d_view_of_3d).
        let slice = s.three_d && b.layer.is_some();
        let dims_match = if slice {
            ty == vk::ImageViewType::TYPE_2D && s.slices_2d
        } else {
            one_d == s.one_d && three_d == s.three_d
        };
        if !dims_match {
            // Another dimensionality than the texture's (undefined in GL), or a slice on a
            // device without 2D views of 3D images.
            return None;
        }
        let level = o.level + b.level;
        if level >= s.levels {
            return None;
        }
        let view_layers = if slice {
            s.level_extent(level)[2]
        } else {
            o.view.map_or(s.layers, |v| v.layers)
        };
        let (base_layer, layers) = match (b.layer, ty) {
            (Some(l), _) if l < view_layers => (o.layer + l, 1),
            (Some(_), _) => return None,
            (
                None,
                vk::ImageViewType::TYPE_1D
                | vk::ImageViewType::TYPE_2D
                | vk::ImageViewType::TYPE_3D,
            ) => (o.layer, 1),
            (None, _) => (o.layer, view_layers),
        };
        let cube = matches!(ty, vk::ImageViewType::CUBE | vk::ImageViewType::CUBE_ARRAY);
        if cube && layers % 6 != 0 {
            return None;
        }
        let key = ViewKey {
            ty,
            aspect: vk::ImageAspectFlags::COLOR,
            base_level: level,
            levels: 1,
            base_layer,
            layers,
            swizzle: [vk::ComponentSwizzle::IDENTITY; 4],
            linear: false,
            format: native.vk,
            storage: true,
        };
        let v = s.view_as(&raw, key, Some(native.features)).ok()?;
        Some((v, s.layout))
    }

    /// The storage texel buffer view of a buffer texture bound to an image unit: its texel
    /// view, when the unit's format is the texture's (every buffer has
    /// `STORAGE_TEXEL_BUFFER` usage); for another format of its size, a view in that format
    /// made for this draw, destroyed when the frame retires.
    pub(crate) fn storage_texel_view(&mut self, b: ImageBinding) -> Option<vk::BufferView> {
        let (buffer, format, offset, size) = self.textures.live(b.texture)?.buffer?;
        if format == b.format {
            return self.texel_view(b.texture);
        }
        let live = self.buffers.live(buffer)?;
        let (vkbuf, bsize) = (live.owned.buffer, live.size);
        let native = self.format(b.format)?;
        let range = if size == 0 {
            bsize.saturating_sub(offset)
        } else {
            size.min(bsize.saturating_sub(offset))
        };
        if range == 0 || offset % self.limits.texel_buffer_align != 0 {
            return None;
        }
        let info = vk::BufferViewCreateInfo::default()
            .buffer(vkbuf)
            .format(native.vk)
            .offset(offset)
            .range(range);
        // SAFETY: a live buffer with STORAGE_TEXEL_BUFFER usage; the range lies inside it
        // and the offset is aligned to minTexelBufferOffsetAlignment.
        let v = unsafe { self.raw.create_buffer_view(&info, None) }.ok()?;
        self.frames
            .current
            .garbage
            .push(crate::frame::Garbage::BufferView(v));
        Some(v)
    }

    /// The storage texel buffer placeholder of a class: a view of the sink buffer, which
    /// stores of unbound slots may write.
    pub(crate) fn placeholder_storage_texel(
        &mut self,
        class: NumClass,
    ) -> Result<vk::BufferView, SessionError> {
        if let Some(v) = self.placeholders.storage_texel.get(&class) {
            return Ok(*v);
        }
        let format = match class {
            NumClass::Float => vk::Format::R32G32B32A32_SFLOAT,
            NumClass::Int => vk::Format::R32G32B32A32_SINT,
            NumClass::Uint => vk::Format::R32G32B32A32_UINT,
        };
        let info = vk::BufferViewCreateInfo::default()
            .buffer(self.sink_buffer())
            .format(format)
            .offset(0)
            .range(256);
        // SAFETY: the sink buffer has STORAGE_TEXEL_BUFFER usage and 64 KiB; offset 0; the
        // RGBA32 formats have the storage texel buffer feature on every device.
        let v = unsafe { self.raw.create_buffer_view(&info, None) }
            .map_err(|e| vk_error("vkCreateBufferView", e))?;
        self.placeholders.storage_texel.insert(class, v);
        Ok(v)
    }

    /// Makes a texture's storage usable as a storage image (outside a pass).
    pub(crate) fn make_general(&mut self, handle: TextureHandle) {
        let (raw, cmd) = (self.raw.clone(), self.rec.cmd);
        let Ok(o) = self.owner("", handle) else {
            return;
        };
        if let Some(s) = self
            .textures
            .get_mut("", o.handle)
            .ok()
            .and_then(|t| t.storage.as_mut())
        {
            transition(&raw, cmd, s, vk::ImageLayout::GENERAL);
        }
    }

    /// The storage placeholder of a view type and class, made (cleared to zeros, in
    /// `GENERAL`) on first use; must be called outside a render pass.
    pub(crate) fn placeholder_storage(
        &mut self,
        ty: vk::ImageViewType,
        class: NumClass,
    ) -> Result<vk::ImageView, SessionError> {
        let key = (ty.as_raw(), class);
        if let Some((_, v)) = self.placeholders.storage.get(&key) {
            return Ok(*v);
        }
        let format = match class {
            NumClass::Float => Format::Rgba32f,
            NumClass::Int => Format::Rgba32i,
            NumClass::Uint => Format::Rgba32ui,
        };
        let Some(native) = self.format(format) else {
            return Err(SessionError::Backend("no RGBA32 format".to_owned()));
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
        let mut s = Storage::new(
            &self.alloc,
            format,
            native,
            image_ty,
            [1, 1, 1],
            1,
            layers,
            vk::SampleCountFlags::TYPE_1,
            cube,
        )
        .map_err(|e| vk_error("vmaCreateImage", e))?;
        self.transfer_begin();
        let (raw, cmd) = (self.raw.clone(), self.rec.cmd);
        transition(&raw, cmd, &mut s, vk::ImageLayout::TRANSFER_DST_OPTIMAL);
        // SAFETY: recording outside a render pass; a new image in TRANSFER_DST_OPTIMAL with
        // TRANSFER_DST usage; the whole range.
        unsafe {
            raw.cmd_clear_color_image(
                cmd,
                s.image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &vk::ClearColorValue { uint32: [0; 4] },
                &[s.range()],
            )
        };
        transition(&raw, cmd, &mut s, vk::ImageLayout::GENERAL);
        self.rec.dirty_mem = true;
        let view = ViewKey {
            ty,
            aspect: vk::ImageAspectFlags::COLOR,
            base_level: 0,
            levels: 1,
            base_layer: 0,
            layers,
            swizzle: [vk::ComponentSwizzle::IDENTITY; 4],
            linear: false,
            format: vk::Format::UNDEFINED,
            storage: true,
        };
        let v = s.view(&raw, view)?;
        self.placeholders.storage.insert(key, (s, v));
        Ok(v)
    }
}

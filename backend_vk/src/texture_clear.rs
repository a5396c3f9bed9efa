//! `ClearTexture` (`glClearTexSubImage` of a multisample texture): every sample of a box of
//! one image set to a value the engine already converted to the image's format.
//!
//! A box that covers whole layers of a level is cleared with `vkCmdClearColorImage` or
//! `vkCmdClearDepthStencilImage` over its layer range, outside any render pass. Any other
//! box, and any image those commands would convert for (an sRGB image, whose clear colour
//! they take as linear, or a texture view in another format than its storage's), is cleared
//! with `vkCmdClearAttachments` over the box in a render pass of its own on a view of the
//! layers (the UNORM twin of an sRGB image, so the value is stored as it is). The open pass
//! ends first, and so does the command buffer's conditional rendering: GL does not make
//! texture clears conditional, and Vulkan predicates `vkCmdClearAttachments` (the next
//! governed verb begins it again).

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::dispatch::{R, TextureClear};
use tessera_wire::handle::TextureHandle;
use tessera_wire::record::ClearValue;

use crate::device::{VkPipe, count, vk_error};
use crate::frame::Garbage;
use crate::image::{ImageSource, ViewKey, transition};
use crate::pipeline::PassKey;
use crate::texture::LevelRegion;

/// The Vulkan clear value of a record's value, and the aspects it clears (`None`: a colour
/// value for a depth or stencil image, or the reverse, which the engine never sends).
fn vk_value(
    value: ClearValue,
    aspect: vk::ImageAspectFlags,
) -> Option<(vk::ClearValue, vk::ImageAspectFlags)> {
    let color = aspect == vk::ImageAspectFlags::COLOR;
    let ds = |depth: f32, stencil: u8| vk::ClearValue {
        depth_stencil: vk::ClearDepthStencilValue {
            depth: depth.clamp(0.0, 1.0),
            stencil: u32::from(stencil),
        },
    };
    let has = |a| aspect.contains(a);
    let (v, a) = match value {
        ClearValue::Float(c) if color => (
            vk::ClearValue {
                color: vk::ClearColorValue { float32: c },
            },
            aspect,
        ),
        ClearValue::Int(c) if color => (
            vk::ClearValue {
                color: vk::ClearColorValue { int32: c },
            },
            aspect,
        ),
        ClearValue::Uint(c) if color => (
            vk::ClearValue {
                color: vk::ClearColorValue { uint32: c },
            },
            aspect,
        ),
        ClearValue::Depth(d) if has(vk::ImageAspectFlags::DEPTH) => {
            (ds(d, 0), vk::ImageAspectFlags::DEPTH)
        }
        ClearValue::Stencil(s) if has(vk::ImageAspectFlags::STENCIL) => {
            (ds(0.0, s), vk::ImageAspectFlags::STENCIL)
        }
        ClearValue::DepthStencil(d, s) if !color => (ds(d, s), aspect),
        _ => return None,
    };
    Some((v, a))
}

impl VkPipe {
    /// `ClearTexture`.
    pub(crate) fn clear_texture_box(&mut self, handle: TextureHandle, c: TextureClear) -> R {
        const N: &str = "ClearTexture";
        let Some((native, region)) = self.region_of(
            N,
            handle,
            c.at.level,
            c.at.face,
            c.region.origin,
            c.region.size,
        )?
        else {
            return Ok(());
        };
        let src = ImageSource::Texture(handle);
        let (image, storage_native, extent, srgb_twin, three_d) = {
            let Some(s) = self.image_mut(N, src)? else {
                return Ok(());
            };
            (
                s.image,
                s.native,
                s.level_extent(region.level),
                s.linear.is_some(),
                s.three_d,
            )
        };
        let Some((value, aspect)) = vk_value(c.value, native.aspect()) else {
            log::warn!(
                "tessera-backend-vk: {N} of a value of another kind than the image: skipped"
            );
            return Ok(());
        };
        let whole = region.offset == [0, 0, 0]
            && region.extent[..2] == extent[..2]
            && (!three_d || region.extent[2] == extent[2]);
        let converts = srgb_twin || native.vk != storage_native.vk;
        if whole && !converts {
            return self.clear_image(src, image, &region, value, aspect);
        }
        self.clear_in_pass(src, &region, value, aspect, native.vk != storage_native.vk)
    }

    /// Clears whole layers of a level with the transfer clear commands.
    fn clear_image(
        &mut self,
        src: ImageSource,
        image: vk::Image,
        region: &LevelRegion,
        value: vk::ClearValue,
        aspect: vk::ImageAspectFlags,
    ) -> R {
        self.transfer_begin();
        let (raw, cmd) = (self.raw.clone(), self.rec.cmd);
        let layout = vk::ImageLayout::TRANSFER_DST_OPTIMAL;
        if let Some(s) = self.image_mut("ClearTexture", src)? {
            transition(&raw, cmd, s, layout);
        }
        let range = vk::ImageSubresourceRange {
            aspect_mask: aspect,
            base_mip_level: region.level,
            level_count: 1,
            base_array_layer: region.layers.0,
            layer_count: region.layers.1,
        };
        // SAFETY: recording outside a render pass (transfer_begin); the image is in
        // TRANSFER_DST_OPTIMAL (transitioned above) and was made with TRANSFER_DST usage;
        // the range lies inside it (region_of checked) and names aspects it has; a colour
        // value for a colour image, a depth-stencil one in [0, 1] for the others.
        unsafe {
            if aspect == vk::ImageAspectFlags::COLOR {
                raw.cmd_clear_color_image(cmd, image, layout, &value.color, &[range]);
            } else {
                raw.cmd_clear_depth_stencil_image(
                    cmd,
                    image,
                    layout,
                    &value.depth_stencil,
                    &[range],
                );
            }
        }
        self.rec.dirty_mem = true;
        Ok(())
    }

    /// Clears a box with `vkCmdClearAttachments` in a render pass on a view of its layers.
    fn clear_in_pass(
        &mut self,
        src: ImageSource,
        region: &LevelRegion,
        value: vk::ClearValue,
        aspect: vk::ImageAspectFlags,
        view_format: bool,
    ) -> Result<(), SessionError> {
        const N: &str = "ClearTexture";
        self.transfer_begin();
        self.predicate_end();
        let (raw, cmd) = (self.raw.clone(), self.rec.cmd);
        let view_native = match self.textures_view_format(src, view_format)? {
            Some(f) => Some(f),
            None if view_format => return Ok(()),
            None => None,
        };
        let Some(s) = self.image_mut(N, src)? else {
            return Ok(());
        };
        let color = aspect == vk::ImageAspectFlags::COLOR;
        let depth_stencil = s.native.is_depth_stencil();
        let layout = if depth_stencil {
            vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL
        } else {
            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL
        };
        transition(&raw, cmd, s, layout);
        // A 3D level's slices are the layers of a 2D array view (renderable 3D images are
        // 2D-array compatible).
        let (first, layers) = if s.three_d {
            (region.offset[2] as u32, region.extent[2])
        } else {
            region.layers
        };
        let key = ViewKey {
            ty: if s.one_d {
                vk::ImageViewType::TYPE_1D_ARRAY
            } else {
                vk::ImageViewType::TYPE_2D_ARRAY
            },
            aspect: s.native.aspect(),
            base_level: region.level,
            levels: 1,
            base_layer: first,
            layers,
            swizzle: [vk::ComponentSwizzle::IDENTITY; 4],
            linear: view_native.is_none() && s.linear.is_some(),
            format: view_native.map_or(vk::Format::UNDEFINED, |f| f.vk),
            storage: false,
        };
        let format = match (view_native, s.linear) {
            (Some(f), _) => f.vk,
            (None, Some(twin)) => twin,
            (None, None) => s.native.vk,
        };
        let view = s.view_as(&raw, key, view_native.map(|f| f.features))?;
        let samples = s.samples;
        let e = s.level_extent(region.level);
        let mut pass_key = PassKey {
            colors: [vk::Format::UNDEFINED; tessera_wire::state::MAX_DRAW_BUFFERS],
            depth_stencil: vk::Format::UNDEFINED,
            samples,
            blendable: 0,
            clears: 0,
        };
        if depth_stencil {
            pass_key.depth_stencil = format;
        } else {
            pass_key.colors[0] = format;
        }
        let pass = self.render_pass(&pass_key)?;
        let views = [view];
        let info = vk::FramebufferCreateInfo::default()
            .render_pass(pass)
            .attachments(&views)
            .width(e[0])
            .height(e[1])
            .layers(layers);
        // SAFETY: one view of a live image, single-level, of the pass's format and sample
        // count, at least as large as the framebuffer.
        let framebuffer = unsafe { raw.create_framebuffer(&info, None) }
            .map_err(|e| vk_error("vkCreateFramebuffer", e))?;
        count(&self.stats.framebuffers);
        let area = vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent: vk::Extent2D {
                width: e[0],
                height: e[1],
            },
        };
        let values = [vk::ClearValue::default()];
        let begin = vk::RenderPassBeginInfo::default()
            .render_pass(pass)
            .framebuffer(framebuffer)
            .render_area(area)
            .clear_values(&values);
        let attachment = vk::ClearAttachment {
            aspect_mask: aspect,
            color_attachment: 0,
            clear_value: value,
        };
        let rect = vk::ClearRect {
            rect: vk::Rect2D {
                offset: vk::Offset2D {
                    x: region.offset[0],
                    y: region.offset[1],
                },
                extent: vk::Extent2D {
                    width: region.extent[0],
                    height: region.extent[1],
                },
            },
            base_array_layer: 0,
            layer_count: layers,
        };
        debug_assert!(color || aspect != vk::ImageAspectFlags::COLOR);
        // SAFETY: recording outside any render pass and without conditional rendering
        // (ended above); the framebuffer was made for this pass; the image is in the
        // layout the pass's attachment expects (transitioned above); the attachment is
        // colour attachment 0 or the depth-stencil one with the aspects cleared; the
        // rectangle and layers lie inside the render area and the framebuffer's layers.
        unsafe {
            raw.cmd_begin_render_pass(cmd, &begin, vk::SubpassContents::INLINE);
            raw.cmd_clear_attachments(cmd, &[attachment], &[rect]);
            raw.cmd_end_render_pass(cmd);
        }
        self.defer(Garbage::Framebuffer(framebuffer));
        self.rec.work = true;
        self.rec.dirty_mem = true;
        Ok(())
    }

    /// The format a texture view clears in, where it differs from its storage's.
    fn textures_view_format(
        &self,
        src: ImageSource,
        differs: bool,
    ) -> Result<Option<crate::conv::NativeFormat>, SessionError> {
        let ImageSource::Texture(h) = src else {
            return Ok(None);
        };
        if !differs {
            return Ok(None);
        }
        let o = self.owner("ClearTexture", h)?;
        Ok(o.view
            .and_then(|v| self.formats.get(v.format as usize).copied().flatten()))
    }
}

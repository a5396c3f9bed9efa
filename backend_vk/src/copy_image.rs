//! `CopyImage` (`glCopyImageSubData`): one `vkCmdCopyImage` outside any render pass.
//!
//! The open pass ends first (running its pending clears) and earlier writes are made
//! visible (`transfer_begin`); the source goes to `TRANSFER_SRC_OPTIMAL` and the
//! destination to `TRANSFER_DST_OPTIMAL` (both to `GENERAL` when they are one image), each
//! transition with its barrier. GL's origin `z` is an array layer, a cube face (both layers
//! of the image) or the slice of a 3D texture; a copy between a 3D texture and a layered one
//! moves `depth` slices to as many layers, as Vulkan 1.1 allows. The engine decided the GL
//! errors; a copy the storage cannot take (no storage yet, a region outside it, native
//! formats of different texel size or aspect, as when one GL format is stored in a wider
//! native one) is skipped with a warning.

use ash::vk;
use tessera_wire::dispatch::R;
use tessera_wire::format::TextureKind;
use tessera_wire::record::{ImageCopy, ImageCopyEnd, ImageObject};

use crate::conv::NativeFormat;
use crate::device::VkPipe;
use crate::image::{ImageSource, transition};

/// What a copy checks of an image: its native format, the extent of the level copied, its
/// levels, layers and samples.
type Info = (NativeFormat, [u32; 3], u32, u32, vk::SampleCountFlags);

/// How one end of a copy lies in its Vulkan image.
#[derive(Clone, Copy, Debug)]
struct Place {
    src: ImageSource,
    three_d: bool,
    /// Offset of the first texel (z only for 3D images).
    offset: [i32; 3],
    /// First array layer.
    layer: u32,
}

impl VkPipe {
    /// The image source and the texture kind (`None`: a renderbuffer) of a copy end.
    fn place(&self, end: ImageCopyEnd) -> Result<Place, tessera_wire::SessionError> {
        const N: &str = "CopyImage";
        let [x, y, z] = end.origin;
        let (src, kind) = match end.object {
            ImageObject::Texture(t) => {
                (ImageSource::Texture(t), Some(self.textures.get(N, t)?.kind))
            }
            ImageObject::Renderbuffer(r) => {
                self.renderbuffers.get(N, r)?;
                (ImageSource::Renderbuffer(r), None)
            }
        };
        let (offset, layer, three_d) = match kind {
            Some(TextureKind::D3) => ([x, y, z], 0, true),
            Some(TextureKind::D1 | TextureKind::D1Array) => ([x, 0, 0], z, false),
            Some(
                TextureKind::D2Array
                | TextureKind::Cube
                | TextureKind::D2MultisampleArray
                | TextureKind::CubeArray,
            ) => ([x, y, 0], z, false),
            _ => ([x, y, 0], 0, false),
        };
        Ok(Place {
            src,
            three_d,
            offset: offset.map(|v| v as i32),
            layer,
        })
    }

    /// `CopyImage`.
    pub(crate) fn copy_image_region(&mut self, c: ImageCopy) -> R {
        const N: &str = "CopyImage";
        let (sp, dp) = (self.place(c.src)?, self.place(c.dst)?);
        let [w, h, d] = c.size;
        // Layers each end covers, and the depth of the extent.
        let (depth, src_layers, dst_layers) = match (sp.three_d, dp.three_d) {
            (true, true) => (d, 1, 1),
            (true, false) => (d, 1, d),
            (false, true) => (d, d, 1),
            (false, false) => (1, d, d),
        };
        let dst_extent = {
            let Some(s) = self.image_mut(N, dp.src)? else {
                log::warn!("tessera-backend-vk: CopyImage into an image with no storage: skipped");
                return Ok(());
            };
            (
                s.native,
                s.level_extent(u32::from(c.dst.level)),
                s.levels,
                s.layers,
                s.samples,
            )
        };
        let src_info = {
            let Some(s) = self.image_mut(N, sp.src)? else {
                log::warn!("tessera-backend-vk: CopyImage from an image with no storage: skipped");
                return Ok(());
            };
            (
                s.native,
                s.level_extent(u32::from(c.src.level)),
                s.levels,
                s.layers,
                s.samples,
            )
        };
        let depth_of = |three_d: bool| if three_d { d } else { 1 };
        let fits =
            |(_, e, levels, layers, _): Info, level: u8, p: &Place, size: [u32; 3], count: u32| {
                u32::from(level) < levels
                    && (p.offset[0] as u32)
                        .checked_add(size[0])
                        .is_some_and(|v| v <= e[0])
                    && (p.offset[1] as u32)
                        .checked_add(size[1])
                        .is_some_and(|v| v <= e[1])
                    && (p.offset[2] as u32)
                        .checked_add(size[2])
                        .is_some_and(|v| v <= e[2])
                    && p.layer.checked_add(count).is_some_and(|v| v <= layers)
            };
        let (sn, dn) = (src_info.0, dst_extent.0);
        let block = |n: NativeFormat| if n.compressed { 4 } else { 1 };
        let (src_block, dst_block) = (block(sn), block(dn));
        let dst_size = [
            w * dst_block / src_block,
            h * dst_block / src_block,
            depth_of(dp.three_d),
        ];
        if sn.aspect() != dn.aspect()
            || sn.texel_size != dn.texel_size
            || src_info.4 != dst_extent.4
            || !fits(
                src_info,
                c.src.level,
                &sp,
                [w, h, depth_of(sp.three_d)],
                src_layers,
            )
            || !fits(dst_extent, c.dst.level, &dp, dst_size, dst_layers)
        {
            log::warn!("tessera-backend-vk: CopyImage the storage cannot take: skipped");
            return Ok(());
        }
        self.transfer_begin();
        let (raw, cmd) = (self.raw.clone(), self.rec.cmd);
        let same = sp.src == dp.src;
        let (src_layout, dst_layout) = if same {
            (vk::ImageLayout::GENERAL, vk::ImageLayout::GENERAL)
        } else {
            (
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            )
        };
        let src_image = {
            let Some(s) = self.image_mut(N, sp.src)? else {
                return Ok(());
            };
            transition(&raw, cmd, s, src_layout);
            s.image
        };
        let dst_image = {
            let Some(s) = self.image_mut(N, dp.src)? else {
                return Ok(());
            };
            transition(&raw, cmd, s, dst_layout);
            s.image
        };
        let aspect = sn.aspect();
        let subresource = |level: u8, layer: u32, count: u32| vk::ImageSubresourceLayers {
            aspect_mask: aspect,
            mip_level: u32::from(level),
            base_array_layer: layer,
            layer_count: count,
        };
        let offset = |o: [i32; 3], z: i32| vk::Offset3D {
            x: o[0],
            y: o[1],
            z: o[2] + z,
        };
        let region = vk::ImageCopy {
            src_subresource: subresource(c.src.level, sp.layer, src_layers),
            src_offset: offset(sp.offset, 0),
            dst_subresource: subresource(c.dst.level, dp.layer, dst_layers),
            dst_offset: offset(dp.offset, 0),
            extent: vk::Extent3D {
                width: w,
                height: h,
                depth,
            },
        };
        // SAFETY: recording, outside a render pass (transfer_begin); both images are in
        // the layouts named (transitioned above); the regions lie inside their levels and
        // layers (checked above), and the formats have the same texel size and aspect.
        unsafe {
            raw.cmd_copy_image(cmd, src_image, src_layout, dst_image, dst_layout, &[region]);
        }
        self.rec.dirty_mem = true;
        Ok(())
    }
}

//! Copies between framebuffer images: `Blit` (scaled, flipped, resolved) and `CopyTexture`
//! (a framebuffer rectangle into a texture image).
//!
//! Both end the open pass and work with transfer commands: `vkCmdCopyImage` when formats
//! match and nothing scales, `vkCmdResolveImage` for a multisampled source, else
//! `vkCmdBlitImage` (which needs the formats' blit features). GL clips the destination to
//! the scissor and to the images; the source rectangle follows proportionally.

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::dispatch::{BlitArgs, R};
use tessera_wire::handle::TextureHandle;
use tessera_wire::record::{ReadSource, TextureCopy, blit_mask};
use tessera_wire::state::{MAX_DRAW_BUFFERS, Rect};

use crate::command::VkContext;
use crate::conv::NativeFormat;
use crate::device::{Missing, VkPipe};
use crate::framebuffer::ImageRef;
use crate::image::{ImageSource, resolve_of, transition};

/// What a blit reads of one side's image.
struct BlitSide {
    image: vk::Image,
    native: NativeFormat,
    /// The level's extent.
    extent: [u32; 3],
    samples: vk::SampleCountFlags,
    /// The array layer and the z of the slice (a 3D image's layers are its slices).
    layer: u32,
    z: i32,
}

impl VkPipe {
    // ---- Blits ----

    /// `Blit`: from a read source into the context's draw buffers.
    pub fn blit_framebuffer(&mut self, ctx: &mut VkContext, blit: BlitArgs) -> R {
        const N: &str = "Blit";
        let BlitArgs {
            src,
            regions,
            mask,
            linear,
        } = blit;
        let Some(target) = self.ctx_target(ctx)? else {
            return Ok(());
        };
        let raster = *self.interned.raster.value(ctx.raster);
        let clip = raster.scissor.then_some(ctx.desired.scissor);
        let [s, d] = regions;
        let sr = [s.x0, s.y0, s.x1, s.y1];
        let dr = [d.x0, d.y0, d.x1, d.y1];
        let filter = if linear {
            vk::Filter::LINEAR
        } else {
            vk::Filter::NEAREST
        };
        self.end_pass()?;
        if mask & blit_mask::COLOR != 0 {
            let Some(from) = self.read_ref(N, &src)? else {
                return Ok(());
            };
            for i in 0..MAX_DRAW_BUFFERS {
                let Some(at) = target.slot[i] else { continue };
                let to = target.images[usize::from(at)];
                self.blit_images(from, sr, to, dr, 0, filter, clip)?;
            }
        }
        if mask & (blit_mask::DEPTH | blit_mask::STENCIL) != 0
            && let Some((at, _, _)) = target.depth_stencil
        {
            let image = if mask & blit_mask::DEPTH != 0 {
                tessera_wire::record::ReadImage::Depth
            } else {
                tessera_wire::record::ReadImage::Stencil
            };
            let from = self.read_ref(
                N,
                &ReadSource {
                    framebuffer: src.framebuffer,
                    image,
                },
            )?;
            if let Some(from) = from {
                let to: ImageRef = target.images[usize::from(at)];
                self.blit_images(from, sr, to, dr, 0, vk::Filter::NEAREST, clip)?;
            }
        }
        Ok(())
    }

    /// `CopyTexture`: a framebuffer rectangle into one image of a texture.
    pub fn copy_to_texture(&mut self, t: TextureHandle, level: u8, face: u8, c: TextureCopy) -> R {
        const N: &str = "CopyTexture";
        let TextureCopy { src, origin, rect } = c;
        let kind = self.textures.get(N, t)?.kind;
        let Some(r) = self.read_ref(N, &src)? else {
            return Ok(());
        };
        if rect.width <= 0 || rect.height <= 0 {
            return Ok(());
        }
        self.end_pass()?;
        let dst = ImageRef {
            src: ImageSource::Texture(t),
            level: u32::from(level),
            layer: match kind {
                tessera_wire::format::TextureKind::Cube => u32::from(face),
                tessera_wire::format::TextureKind::D1Array => origin[1],
                tessera_wire::format::TextureKind::D3 => 0,
                _ => origin[2],
            },
            layered: false,
        };
        let z = if kind == tessera_wire::format::TextureKind::D3 {
            origin[2] as i32
        } else {
            0
        };
        let dy = if kind == tessera_wire::format::TextureKind::D1Array {
            0
        } else {
            origin[1] as i32
        };
        let src_region = [rect.x, rect.y, rect.x + rect.width, rect.y + rect.height];
        let dst_region = [
            origin[0] as i32,
            dy,
            origin[0] as i32 + rect.width,
            dy + if kind == tessera_wire::format::TextureKind::D1Array {
                1
            } else {
                rect.height
            },
        ];
        self.blit_images(r, src_region, dst, dst_region, z, vk::Filter::NEAREST, None)
    }

    /// One side of a blit; `None` where the image or its level does not exist.
    fn blit_side(
        &mut self,
        record: &'static str,
        r: &ImageRef,
    ) -> Result<Option<BlitSide>, SessionError> {
        let Some(s) = self.image_mut(record, r.src)? else {
            return Ok(None);
        };
        if r.level >= s.levels {
            return Ok(None);
        }
        let (layer, z) = s.slice(r.layer);
        Ok(Some(BlitSide {
            image: s.image,
            native: s.native,
            extent: s.level_extent(r.level),
            samples: s.samples,
            layer,
            z,
        }))
    }

    /// Copies (or scales) a region between two images: `vkCmdCopyImage` when the formats
    /// are equal and nothing scales, else `vkCmdBlitImage`. Regions are clipped to both
    /// images (and to `clip` on the destination).
    #[expect(clippy::too_many_arguments, reason = "the blit's coordinates")]
    pub fn blit_images(
        &mut self,
        from: ImageRef,
        src: [i32; 4],
        to: ImageRef,
        dst: [i32; 4],
        dst_z: i32,
        filter: vk::Filter,
        clip: Option<Rect>,
    ) -> Result<(), SessionError> {
        const N: &str = "Blit";
        let raw = self.raw.clone();
        self.transfer_begin();
        let cmd = self.rec.cmd;
        let Some(source) = self.blit_side(N, &from)? else {
            return Ok(());
        };
        let Some(dest) = self.blit_side(N, &to)? else {
            return Ok(());
        };
        let dst_z = dst_z + dest.z;
        let (src_image, dst_image) = (source.image, dest.image);
        // Clip the destination to its image and the scissor, mapping back to the source.
        let [sx0, sy0, sx1, sy1] = src.map(f64::from);
        let [dx0, dy0, dx1, dy1] = dst.map(f64::from);
        let mut lo = [dx0.min(dx1), dy0.min(dy1)];
        let mut hi = [dx0.max(dx1), dy0.max(dy1)];
        lo = [lo[0].max(0.0), lo[1].max(0.0)];
        hi = [
            hi[0].min(f64::from(dest.extent[0])),
            hi[1].min(f64::from(dest.extent[1])),
        ];
        if let Some(c) = clip {
            lo = [lo[0].max(f64::from(c.x)), lo[1].max(f64::from(c.y))];
            hi = [
                hi[0].min(f64::from(c.x + c.width)),
                hi[1].min(f64::from(c.y + c.height)),
            ];
        }
        if hi[0] <= lo[0] || hi[1] <= lo[1] || dx0 == dx1 || dy0 == dy1 {
            return Ok(());
        }
        let map =
            |d: f64, d0: f64, d1: f64, s0: f64, s1: f64| s0 + (d - d0) * (s1 - s0) / (d1 - d0);
        let (nx0, nx1) = if dx0 <= dx1 {
            (lo[0], hi[0])
        } else {
            (hi[0], lo[0])
        };
        let (ny0, ny1) = if dy0 <= dy1 {
            (lo[1], hi[1])
        } else {
            (hi[1], lo[1])
        };
        let s = [
            map(nx0, dx0, dx1, sx0, sx1),
            map(ny0, dy0, dy1, sy0, sy1),
            map(nx1, dx0, dx1, sx0, sx1),
            map(ny1, dy0, dy1, sy0, sy1),
        ]
        .map(|v| v.round() as i32);
        let s = [
            s[0].clamp(0, source.extent[0] as i32),
            s[1].clamp(0, source.extent[1] as i32),
            s[2].clamp(0, source.extent[0] as i32),
            s[3].clamp(0, source.extent[1] as i32),
        ];
        let d = [nx0, ny0, nx1, ny1].map(|v| v as i32);
        if s[0] == s[2] || s[1] == s[3] {
            return Ok(());
        }
        let same_image = src_image == dst_image;
        let (src_layout, dst_layout) = if same_image {
            (vk::ImageLayout::GENERAL, vk::ImageLayout::GENERAL)
        } else {
            (
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            )
        };
        if let Some(st) = self.image_mut(N, from.src)? {
            transition(&raw, cmd, st, src_layout);
        }
        if let Some(dt) = self.image_mut(N, to.src)? {
            transition(&raw, cmd, dt, dst_layout);
        }
        let aspect = source.native.aspect() & dest.native.aspect();
        let layers = |r: &ImageRef, layer: u32| vk::ImageSubresourceLayers {
            aspect_mask: aspect,
            mip_level: r.level,
            base_array_layer: layer,
            layer_count: 1,
        };
        let unscaled = (s[2] - s[0]) == (d[2] - d[0]) && (s[3] - s[1]) == (d[3] - d[1]);
        // The region of an unscaled copy or resolve.
        let copy = vk::ImageCopy {
            src_subresource: layers(&from, source.layer),
            src_offset: vk::Offset3D {
                x: s[0],
                y: s[1],
                z: source.z,
            },
            dst_subresource: layers(&to, dest.layer),
            dst_offset: vk::Offset3D {
                x: d[0],
                y: d[1],
                z: dst_z,
            },
            extent: vk::Extent3D {
                width: (s[2] - s[0]) as u32,
                height: (s[3] - s[1]) as u32,
                depth: 1,
            },
        };
        if source.samples != vk::SampleCountFlags::TYPE_1 {
            if !unscaled || source.native.vk != dest.native.vk || s[0] > s[2] || s[1] > s[3] {
                self.report(
                    Missing::Blit,
                    "multisampled blits that scale, flip or convert are not supported: skipped",
                );
                return Ok(());
            }
            let region = resolve_of(copy);
            // SAFETY: recording outside a render pass; images in the layouts set above;
            // equal formats; regions inside both images (clipped above).
            unsafe {
                raw.cmd_resolve_image(cmd, src_image, src_layout, dst_image, dst_layout, &[region])
            };
        } else if unscaled && s[0] < s[2] && s[1] < s[3] && source.native.vk == dest.native.vk {
            // SAFETY: as above; equal formats, unscaled regions inside both images.
            unsafe {
                raw.cmd_copy_image(cmd, src_image, src_layout, dst_image, dst_layout, &[copy])
            };
        } else {
            let blit_ok = source
                .native
                .features
                .contains(vk::FormatFeatureFlags::BLIT_SRC)
                && dest
                    .native
                    .features
                    .contains(vk::FormatFeatureFlags::BLIT_DST);
            if !blit_ok {
                self.report(
                    Missing::Blit,
                    "a blit between formats the device cannot blit: skipped",
                );
                return Ok(());
            }
            let filter = if source.native.linear_filter() && !source.native.is_depth_stencil() {
                filter
            } else {
                vk::Filter::NEAREST
            };
            // From the copy region's corners to the opposite ones, flipped as they are.
            let region = vk::ImageBlit {
                src_subresource: copy.src_subresource,
                src_offsets: [
                    copy.src_offset,
                    vk::Offset3D {
                        x: s[2],
                        y: s[3],
                        z: source.z + 1,
                    },
                ],
                dst_subresource: copy.dst_subresource,
                dst_offsets: [
                    copy.dst_offset,
                    vk::Offset3D {
                        x: d[2],
                        y: d[3],
                        z: dst_z + 1,
                    },
                ],
            };
            // SAFETY: as above; both formats support blitting (checked), regions inside
            // both images, a filter the source format supports.
            unsafe {
                raw.cmd_blit_image(
                    cmd,
                    src_image,
                    src_layout,
                    dst_image,
                    dst_layout,
                    &[region],
                    filter,
                )
            };
        }
        self.rec.dirty_mem = true;
        Ok(())
    }
}

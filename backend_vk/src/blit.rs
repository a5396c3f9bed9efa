//! Copies between framebuffer images: `Blit` (scaled, flipped, resolved) and `CopyTexture`
//! (a framebuffer rectangle into a texture image).
//!
//! Both end the open pass and work with transfer commands: `vkCmdCopyImage` when formats
//! match and nothing scales, `vkCmdResolveImage` for a multisampled source, else
//! `vkCmdBlitImage` (which needs the formats' blit features). GL clips the destination to
//! the scissor and to the images; the source rectangle follows proportionally.
//!
//! ## sRGB
//! A blit decodes an sRGB source and encodes into an sRGB destination only while
//! `FRAMEBUFFER_SRGB` is enabled (Mesa's rule; `vkCmdBlitImage` always converts by the
//! images' formats). With the switch off, an unscaled, unflipped blit between an sRGB image
//! and its UNORM twin is a `vkCmdCopyImage` (the same bits); one that scales or flips goes
//! through scratch images of the UNORM twins: the sRGB source copied into one, the blit
//! made into another and copied into the sRGB destination.

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::dispatch::{BlitArgs, R};
use tessera_wire::handle::TextureHandle;
use tessera_wire::record::{ReadSource, TextureCopy, blit_mask};
use tessera_wire::state::{MAX_DRAW_BUFFERS, Rect};

use crate::command::VkContext;
use crate::conv::{self, NativeFormat};
use crate::device::{Missing, VkPipe, vk_error};
use crate::framebuffer::ImageRef;
use crate::image::{ImageSource, Storage, resolve_of, transition};

/// A colour format with its sRGB encoding removed (the format itself if it has none).
fn linear_of(f: vk::Format) -> vk::Format {
    conv::linear_twin(f).unwrap_or(f)
}

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
    /// A 1D image: `vkCmdCopyImage` copies only between images of one type (or 2D and 3D,
    /// VUID-vkCmdCopyImage-srcImage-07743), so a copy to or from another type blits.
    one_d: bool,
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
        let srgb = raster.framebuffer_srgb;
        // Blits are scissored by rectangle 0 alone.
        let clip = (raster.scissor & 1 != 0).then_some(ctx.desired.scissors[0]);
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
                self.blit_images(from, sr, to, dr, 0, filter, clip, srgb)?;
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
                self.blit_images(from, sr, to, dr, 0, vk::Filter::NEAREST, clip, srgb)?;
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
        // A view's images are its storage owner's, from its first level and layer.
        let o = self.owner(N, t)?;
        let dst = ImageRef {
            src: ImageSource::Texture(t),
            level: u32::from(level) + o.level,
            layer: o.layer
                + match kind {
                    tessera_wire::format::TextureKind::Cube => u32::from(face),
                    tessera_wire::format::TextureKind::D1Array => origin[1],
                    tessera_wire::format::TextureKind::D3 => 0,
                    _ => origin[2],
                },
            layered: false,
            view: None,
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
        // Copies convert as blits with FRAMEBUFFER_SRGB on did before that switch was honoured.
        self.blit_images(
            r,
            src_region,
            dst,
            dst_region,
            z,
            vk::Filter::NEAREST,
            None,
            true,
        )
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
            one_d: s.one_d,
        }))
    }

    /// Copies (or scales) a region between two images: `vkCmdCopyImage` when the formats
    /// are equal (or, without `srgb` conversion, UNORM and sRGB twins) and nothing scales,
    /// else `vkCmdBlitImage`. Regions are clipped to both images (and to `clip` on the
    /// destination).
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
        srgb: bool,
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
            let same = source.native.vk == dest.native.vk;
            if !unscaled
                || !same && linear_of(source.native.vk) != linear_of(dest.native.vk)
                || s[0] > s[2]
                || s[1] > s[3]
            {
                self.report(
                    Missing::Blit,
                    "multisampled blits that scale, flip or convert are not supported: skipped",
                );
                return Ok(());
            }
            let region = resolve_of(copy);
            if same {
                // SAFETY: recording outside a render pass; images in the layouts set above;
                // equal formats; regions inside both images (clipped above).
                unsafe {
                    raw.cmd_resolve_image(
                        cmd,
                        src_image,
                        src_layout,
                        dst_image,
                        dst_layout,
                        &[region],
                    )
                };
            } else {
                self.resolve_through_scratch(&source, &dest, [src_image, dst_image], copy)?;
            }
        } else if unscaled
            && source.one_d == dest.one_d
            && s[0] < s[2]
            && s[1] < s[3]
            && (source.native.vk == dest.native.vk
                || !srgb && linear_of(source.native.vk) == linear_of(dest.native.vk))
        {
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
            let src_twin = conv::linear_twin(source.native.vk).filter(|_| !srgb);
            let dst_twin = conv::linear_twin(dest.native.vk).filter(|_| !srgb);
            if src_twin.is_none() && dst_twin.is_none() {
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
            } else {
                self.blit_through_twins(
                    [&source, &dest],
                    [src_image, dst_image],
                    [src_layout, dst_layout],
                    region,
                    [src_twin, dst_twin],
                    filter,
                )?;
            }
        }
        self.rec.dirty_mem = true;
        Ok(())
    }

    /// A blit that converts nothing between sRGB images (`FRAMEBUFFER_SRGB` off, module
    /// docs): each sRGB side with a `twin` is replaced by a scratch image of that UNORM
    /// format, the source's region copied into it first, the destination's copied out of
    /// it after. The scratch images are freed with the current submission.
    fn blit_through_twins(
        &mut self,
        sides: [&BlitSide; 2],
        images: [vk::Image; 2],
        layouts: [vk::ImageLayout; 2],
        region: vk::ImageBlit,
        twins: [Option<vk::Format>; 2],
        filter: vk::Filter,
    ) -> Result<(), SessionError> {
        let raw = self.raw.clone();
        let cmd = self.rec.cmd;
        let (general_src, general_dst) = (
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
        );
        // The rectangle of a blit side, as a copy region between an image and its scratch.
        let rect = |o: [vk::Offset3D; 2]| {
            let lo = vk::Offset3D {
                x: o[0].x.min(o[1].x),
                y: o[0].y.min(o[1].y),
                z: o[0].z.min(o[1].z),
            };
            let extent = vk::Extent3D {
                width: o[0].x.abs_diff(o[1].x),
                height: o[0].y.abs_diff(o[1].y),
                depth: o[0].z.abs_diff(o[1].z).max(1),
            };
            (lo, extent)
        };
        let scratch_layers = vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: 1,
        };
        let scratch = |dev: &mut VkPipe, side: &BlitSide, twin: vk::Format| {
            let mut native = side.native;
            native.vk = twin;
            let mut st = Storage::new(
                &dev.alloc,
                tessera_wire::format::Format::Rgba8,
                native,
                // The side's own type, for the copy between them.
                if side.one_d {
                    vk::ImageType::TYPE_1D
                } else {
                    vk::ImageType::TYPE_2D
                },
                [side.extent[0], side.extent[1], 1],
                1,
                1,
                vk::SampleCountFlags::TYPE_1,
                false,
            )
            .map_err(|e| vk_error("vmaCreateImage", e))?;
            transition(&raw, cmd, &mut st, general_dst);
            Ok::<Storage, SessionError>(st)
        };
        let mut blit = region;
        let mut src_scratch = None;
        if let Some(twin) = twins[0] {
            let mut st = scratch(self, sides[0], twin)?;
            let (lo, extent) = rect(region.src_offsets);
            let copy = vk::ImageCopy {
                src_subresource: region.src_subresource,
                src_offset: lo,
                dst_subresource: scratch_layers,
                dst_offset: vk::Offset3D { z: 0, ..lo },
                extent: vk::Extent3D { depth: 1, ..extent },
            };
            // SAFETY: recording outside a render pass; the source in `layouts[0]`, the
            // scratch image (same size class, the source level's extent) in TRANSFER_DST;
            // the region lies inside both.
            unsafe {
                raw.cmd_copy_image(cmd, images[0], layouts[0], st.image, general_dst, &[copy])
            };
            transition(&raw, cmd, &mut st, general_src);
            blit.src_subresource = scratch_layers;
            for o in &mut blit.src_offsets {
                o.z -= lo.z;
            }
            src_scratch = Some(st);
        }
        let mut dst_scratch = None;
        if let Some(twin) = twins[1] {
            let st = scratch(self, sides[1], twin)?;
            blit.dst_subresource = scratch_layers;
            let z = region.dst_offsets[0].z.min(region.dst_offsets[1].z);
            for o in &mut blit.dst_offsets {
                o.z -= z;
            }
            dst_scratch = Some(st);
        }
        let (src_image, src_layout) = match &src_scratch {
            Some(st) => (st.image, general_src),
            None => (images[0], layouts[0]),
        };
        let (dst_image, dst_layout) = match &dst_scratch {
            Some(st) => (st.image, general_dst),
            None => (images[1], layouts[1]),
        };
        // SAFETY: recording outside a render pass; each image in the layout named with it;
        // UNORM scratch images have the blit features of the images they stand for (a
        // required feature of the four-byte UNORM formats); regions inside every image.
        unsafe {
            raw.cmd_blit_image(
                cmd,
                src_image,
                src_layout,
                dst_image,
                dst_layout,
                &[blit],
                filter,
            )
        };
        if let Some(mut st) = dst_scratch {
            transition(&raw, cmd, &mut st, general_src);
            let (lo, extent) = rect(region.dst_offsets);
            let copy = vk::ImageCopy {
                src_subresource: scratch_layers,
                src_offset: vk::Offset3D { z: 0, ..lo },
                dst_subresource: region.dst_subresource,
                dst_offset: lo,
                extent: vk::Extent3D { depth: 1, ..extent },
            };
            // SAFETY: as above; the scratch image in TRANSFER_SRC, the destination in
            // `layouts[1]`; the region lies inside both.
            unsafe {
                raw.cmd_copy_image(cmd, st.image, general_src, images[1], layouts[1], &[copy])
            };
            st.retire(&mut self.frames.current.garbage);
        }
        if let Some(st) = src_scratch {
            st.retire(&mut self.frames.current.garbage);
        }
        Ok(())
    }

    /// A resolve between formats that differ only in sRGB encoding (which
    /// `vkCmdResolveImage` refuses): into a scratch image of the source's format, then
    /// copied, bits as they are, into the destination (layouts as `blit_images` set them).
    fn resolve_through_scratch(
        &mut self,
        source: &BlitSide,
        dest: &BlitSide,
        images: [vk::Image; 2],
        copy: vk::ImageCopy,
    ) -> Result<(), SessionError> {
        let raw = self.raw.clone();
        let cmd = self.rec.cmd;
        let (src_layout, dst_layout) = (
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
        );
        let mut st = Storage::new(
            &self.alloc,
            tessera_wire::format::Format::Rgba8,
            source.native,
            vk::ImageType::TYPE_2D,
            [dest.extent[0], dest.extent[1], 1],
            1,
            1,
            vk::SampleCountFlags::TYPE_1,
            false,
        )
        .map_err(|e| vk_error("vmaCreateImage", e))?;
        transition(&raw, cmd, &mut st, dst_layout);
        let scratch_layers = vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: 1,
        };
        let into = vk::ImageCopy {
            dst_subresource: scratch_layers,
            dst_offset: vk::Offset3D {
                z: 0,
                ..copy.dst_offset
            },
            ..copy
        };
        // SAFETY: recording outside a render pass; the multisampled source in
        // TRANSFER_SRC, the single-sampled scratch image of the same format in
        // TRANSFER_DST; the region lies inside both (the scratch has the destination's size).
        unsafe {
            raw.cmd_resolve_image(
                cmd,
                images[0],
                src_layout,
                st.image,
                dst_layout,
                &[resolve_of(into)],
            )
        };
        transition(&raw, cmd, &mut st, src_layout);
        let out = vk::ImageCopy {
            src_subresource: scratch_layers,
            src_offset: into.dst_offset,
            ..copy
        };
        // SAFETY: as above; the scratch image in TRANSFER_SRC and the destination (a
        // format of the same size class) in TRANSFER_DST; the region lies inside both.
        unsafe { raw.cmd_copy_image(cmd, st.image, src_layout, images[1], dst_layout, &[out]) };
        st.retire(&mut self.frames.current.garbage);
        Ok(())
    }
}

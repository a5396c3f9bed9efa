//! Textures: GL's mutable per-level images onto immutable `VkImage`s, uploads (converted on
//! the CPU when the image's memory layout is not the client's), read-backs, mipmap
//! generation, views, buffer textures, and the placeholders unbound sampler slots read.
//!
//! ## Storage
//! GL defines a texture one image at a time (`DefineTextureImage` per level and face); a
//! `VkImage` has its size, format and level count fixed. The first definition fixes the
//! storage: the level-0 extent (derived from the level defined, if it is not 0), the full mip
//! chain, the layers (six for a cube map, the layer count of an array). Further definitions
//! consistent with it change nothing; one that is not (another size or format for level 0)
//! makes new storage (contents undefined, as GL's are for a redefined image), moves the
//! device epoch so framebuffers re-attach, and defers the old image's destruction. The
//! sampled view covers the consecutive defined levels from the base level, so a chain
//! defined level by level samples only what exists.

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::backend::bad_value;
use tessera_wire::blocks::{self, BlockShadow};
use tessera_wire::dispatch::{
    BlockReadback, BlockWrite, Bytes, FromBuffer, ImageRef, R, TexelBuffer, TextureClear,
    TextureImage, TexturePipe, TextureReadback, TextureWrite,
};
use tessera_wire::format::{Format, FormatClass, PixelLayout, TextureKind};
use tessera_wire::handle::{BufferHandle, TextureHandle};
use tessera_wire::images::{FACES, ImageDesc, LevelImages};
use tessera_wire::pixel::pixel_size;
use tessera_wire::record::{
    BufferBlocks, BufferRange, ImageCopy, ImageCopyEnd, ImageObject, TextureRegion, TextureViewDesc,
};
use tessera_wire::state::TextureView;

use crate::conv::{self, NativeFormat};
use crate::device::{MAX_READBACK, Missing, VkPipe, vk_error};
use crate::frame::Garbage;
use crate::image::{ImageSource, Storage, ViewKey, memory_barrier, transition};
use crate::memory;
use crate::pixel;
use crate::spirv::NumClass;

/// Mip levels a texture can have.
const MAX_LEVELS: usize = 16;

/// A texture object.
pub(crate) struct Texture {
    pub kind: TextureKind,
    /// Images by `level * 6 + face`.
    images: LevelImages,
    pub storage: Option<Storage>,
    pub view: TextureView,
    /// A buffer texture's range: (buffer, format, offset, size).
    pub buffer: Option<(BufferHandle, Format, u64, u64)>,
    /// The buffer view made for `buffer`.
    pub buffer_view: Option<TexelView>,
    /// The last sampled view draws asked for, valid while `VkPipe::changes` has not moved.
    sampled: Option<SampledView>,
    /// A texture view's range of another texture's storage (it has no storage of its own).
    pub view_of: Option<ViewOf>,
    /// The blocks of its images of formats stored decoded (ETC2/EAC), which the device
    /// cannot hand back (`ReadCompressedTexture` answers from them).
    blocks: BlockShadow,
    /// A framebuffer named it, or a view of it, as an attachment: render targets may hold
    /// its images. Defining or destroying a texture no framebuffer ever named leaves the
    /// render targets, and the open render pass, as they are.
    pub attached: bool,
}

/// A buffer texture's view: the Vulkan buffer of the GL buffer it was made for, the view, and
/// the buffer it views where that is not the GL buffer's own (see
/// [`memory::uniform_texel_alias`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TexelView {
    pub held: vk::Buffer,
    pub view: vk::BufferView,
    pub alias: Option<vk::Buffer>,
}

impl TexelView {
    /// Defers the destruction of the view and its alias buffer.
    fn retire(self, garbage: &mut Vec<Garbage>) {
        garbage.push(Garbage::BufferView(self.view));
        if let Some(b) = self.alias {
            garbage.push(Garbage::RawBuffer(b));
        }
    }
}

/// The levels and layers of another texture's storage a texture view sees, and its format.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ViewOf {
    /// The texture that owns the storage.
    pub storage: TextureHandle,
    pub format: Format,
    pub min_level: u32,
    pub levels: u32,
    pub min_layer: u32,
    pub layers: u32,
}

/// Where a texture's images live: the texture that owns the storage, the storage level and
/// layer of its level 0 and first layer, and, for a view, its range and format.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Owner {
    pub handle: TextureHandle,
    pub level: u32,
    pub layer: u32,
    pub view: Option<ViewOf>,
}

/// A texture's sampled view for one view type, as [`VkPipe::sampled_view`] derived it.
#[derive(Clone, Copy, Debug)]
struct SampledView {
    /// `VkPipe::changes` when it was derived.
    changes: u64,
    ty: vk::ImageViewType,
    /// The view and whether it filters linearly; `None`: the texture cannot be sampled so.
    view: Option<(vk::ImageView, bool)>,
}

impl Texture {
    fn image(&self, level: usize, face: usize) -> Option<ImageDesc> {
        self.images.get(level, face)
    }

    /// Destroys everything now (the device is idle).
    pub fn destroy(self, raw: &ash::Device, alloc: &vk_mem::Allocator) {
        if let Some(s) = self.storage {
            s.destroy_now(raw, alloc);
        }
        if let Some(v) = self.buffer_view {
            // SAFETY: teardown after the device went idle; the view before the buffer it
            // views.
            unsafe {
                raw.destroy_buffer_view(v.view, None);
                if let Some(b) = v.alias {
                    raw.destroy_buffer(b, None);
                }
            }
        }
    }

    /// Layers of the storage for a definition of this kind.
    fn layers(&self, size: [u32; 3]) -> u32 {
        match self.kind {
            TextureKind::Cube => 6,
            TextureKind::D1Array => {
                if size[2] > 1 {
                    size[2]
                } else {
                    size[1]
                }
            }
            TextureKind::D2Array | TextureKind::D2MultisampleArray | TextureKind::CubeArray => {
                size[2].max(1)
            }
            _ => 1,
        }
    }

    /// The level-0 extent of a definition at `level`.
    fn base_extent(&self, level: u32, size: [u32; 3]) -> [u32; 3] {
        let up = |v: u32| (v.max(1) << level).max(1);
        match self.kind {
            TextureKind::D1 | TextureKind::D1Array => [up(size[0]), 1, 1],
            TextureKind::D3 => [up(size[0]), up(size[1]), up(size[2])],
            _ => [up(size[0]), up(size[1]), 1],
        }
    }
}

fn full_chain(extent: [u32; 3]) -> u32 {
    let m = extent[0].max(extent[1]).max(extent[2]).max(1);
    (32 - m.leading_zeros()).min(MAX_LEVELS as u32)
}

/// The array layers a region of `kind` covers: (first layer, count, z, depth).
fn region_layers(
    kind: TextureKind,
    face: u8,
    origin: [u32; 3],
    size: [u32; 3],
) -> (u32, u32, u32, u32) {
    match kind {
        TextureKind::Cube => (u32::from(face), 1, 0, 1),
        TextureKind::D1Array => {
            if size[2] > 1 || origin[2] > 0 {
                (origin[2], size[2], 0, 1)
            } else {
                (origin[1], size[1], 0, 1)
            }
        }
        TextureKind::D2Array | TextureKind::D2MultisampleArray | TextureKind::CubeArray => {
            (origin[2], size[2], 0, 1)
        }
        TextureKind::D3 => (0, 1, origin[2], size[2]),
        _ => (0, 1, 0, 1),
    }
}

/// A region of one level of an image.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LevelRegion {
    pub level: u32,
    /// The first texel (x, y, z).
    pub offset: [i32; 3],
    /// The size in texels.
    pub extent: [u32; 3],
    /// The array layers: (first, count).
    pub layers: (u32, u32),
}

impl LevelRegion {
    /// The copy between the region's `aspect` and tightly packed bytes at `buffer_offset`.
    fn buffer_copy(&self, aspect: vk::ImageAspectFlags, buffer_offset: u64) -> vk::BufferImageCopy {
        let ([x, y, z], [width, height, depth]) = (self.offset, self.extent);
        vk::BufferImageCopy {
            buffer_offset,
            buffer_row_length: 0,
            buffer_image_height: 0,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: aspect,
                mip_level: self.level,
                base_array_layer: self.layers.0,
                layer_count: self.layers.1,
            },
            image_offset: vk::Offset3D { x, y, z },
            image_extent: vk::Extent3D {
                width,
                height,
                depth,
            },
        }
    }
}

impl TexturePipe for VkPipe {
    /// `CreateTexture`.
    fn create_texture(&mut self, handle: TextureHandle, kind: TextureKind) -> R {
        if kind == TextureKind::Rectangle {
            self.report(
                Missing::Rectangle,
                "rectangle textures are 2D textures here (normalized coordinates)",
            );
        }
        self.textures.insert(
            "CreateTexture",
            handle,
            Texture {
                kind,
                images: LevelImages::default(),
                storage: None,
                view: TextureView::default(),
                buffer: None,
                buffer_view: None,
                sampled: None,
                view_of: None,
                blocks: BlockShadow::default(),
                attached: false,
            },
        )
    }

    /// `CreateTextureView`: a texture without storage of its own, whose images are the
    /// view's range of the storage owner's (every use goes through [`VkPipe::owner`]).
    fn create_texture_view(&mut self, handle: TextureHandle, view: TextureViewDesc) -> R {
        const N: &str = "CreateTextureView";
        let owner = self.textures.get(N, view.storage)?;
        if owner.view_of.is_some() {
            return Err(bad_value(N, "the storage texture is itself a view"));
        }
        let mut images = LevelImages::default();
        let faces = if view.kind == TextureKind::Cube {
            FACES
        } else {
            1
        };
        for level in 0..usize::from(view.levels) {
            let Some(b) = owner.image(usize::from(view.min_level) + level, 0) else {
                continue;
            };
            let [w, h, d] = b.size;
            let size = match view.kind {
                TextureKind::D2Array | TextureKind::D2MultisampleArray | TextureKind::CubeArray => {
                    [w, h, view.layers]
                }
                TextureKind::D1Array => [w, 1, view.layers],
                TextureKind::D3 => [w, h, d],
                _ => [w, h, 1],
            };
            let desc = ImageDesc {
                format: view.format,
                size,
                ..b
            };
            for face in 0..faces {
                images.set(level, face, desc);
            }
        }
        self.textures.insert(
            N,
            handle,
            Texture {
                kind: view.kind,
                images,
                storage: None,
                view: TextureView::default(),
                buffer: None,
                buffer_view: None,
                sampled: None,
                view_of: Some(ViewOf {
                    storage: view.storage,
                    format: view.format,
                    min_level: u32::from(view.min_level),
                    levels: u32::from(view.levels),
                    min_layer: view.min_layer,
                    layers: view.layers,
                }),
                blocks: BlockShadow::default(),
                attached: false,
            },
        )
    }

    /// `DestroyTexture`.
    fn destroy_texture(&mut self, handle: TextureHandle) -> R {
        self.textures.get("DestroyTexture", handle)?;
        if self
            .textures
            .live(handle)
            .is_some_and(|t| t.attached && (t.storage.is_some() || t.view_of.is_some()))
        {
            self.invalidate_targets();
        }
        let t = self.textures.remove("DestroyTexture", handle)?;
        if let Some(s) = t.storage {
            s.retire(&mut self.frames.current.garbage);
        }
        if let Some(v) = t.buffer_view {
            v.retire(&mut self.frames.current.garbage);
        }
        Ok(())
    }

    /// `DefineTextureImage`.
    fn define_texture_image(&mut self, handle: TextureHandle, image: TextureImage) -> R {
        const N: &str = "DefineTextureImage";
        let TextureImage {
            at: ImageRef { level, face },
            format,
            size,
            samples,
            // Vulkan's standard sample locations are fixed: nothing to ask for.
            fixed_sample_locations: _,
        } = image;
        LevelImages::check(N, level, face, MAX_LEVELS)?;
        let native = self.format(format);
        let color_samples = self.limits.color_samples;
        let t = self.textures.get_mut(N, handle)?;
        if t.kind == TextureKind::Buffer {
            return Ok(());
        }
        let desc = ImageDesc {
            format,
            size,
            samples,
        };
        t.images.set(usize::from(level), usize::from(face), desc);
        let at = ImageRef { level, face };
        match native {
            Some(n) if n.decode.is_some() => t.blocks.define(at, format, size),
            _ => t.blocks.remove(at),
        }
        let Some(native) = native else {
            return Ok(());
        };
        let multisampled = matches!(
            t.kind,
            TextureKind::D2Multisample | TextureKind::D2MultisampleArray
        );
        let extent = t.base_extent(u32::from(level), size);
        let layers = t.layers(size);
        let samples = if multisampled {
            conv::map_samples(samples, color_samples)
        } else {
            vk::SampleCountFlags::TYPE_1
        };
        let levels = if multisampled || t.kind == TextureKind::Rectangle {
            1
        } else {
            full_chain(extent)
        };
        if let Some(s) = &t.storage {
            let fits = s.format == format
                && s.extent == extent
                && s.layers == layers
                && s.samples == samples;
            if fits {
                return Ok(());
            }
            if level > 0 {
                // An image inconsistent with level 0: GL keeps it (the texture is then
                // incomplete); nothing samples or renders it here.
                return Ok(());
            }
        }
        let kind = t.kind;
        // A square array of six layers or more may be viewed as a cube map.
        let cube = kind == TextureKind::Cube
            || ((kind == TextureKind::D2Array || kind == TextureKind::CubeArray)
                && extent[0] == extent[1]
                && layers >= 6);
        let storage = Storage::new_texture(
            &self.alloc,
            format,
            native,
            conv::map_image_type(kind),
            extent,
            levels,
            layers,
            samples,
            cube,
            self.tiers.view_2d_of_3d,
            self.tiers.feedback_loop,
        )
        .map_err(|e| vk_error("vmaCreateImage", e))?;
        if self.textures.get(N, handle)?.attached {
            self.invalidate_targets();
        }
        let t = self.textures.get_mut(N, handle)?;
        if let Some(old) = t.storage.replace(storage) {
            old.retire(&mut self.frames.current.garbage);
        }
        Ok(())
    }

    /// `WriteTexture`.
    fn write_texture(&mut self, handle: TextureHandle, write: TextureWrite<'_>) -> R {
        const N: &str = "WriteTexture";
        let TextureWrite {
            at: ImageRef { level, face },
            region: TextureRegion { origin, size },
            layout,
            bytes: data,
        } = write;
        let Some((native, region)) = self.region_of(N, handle, level, face, origin, size)? else {
            return Ok(());
        };
        let count = size.iter().map(|&v| v as usize).product::<usize>();
        if native.compressed {
            // GL compresses texels given for a compressed format: BPTC here, as blocks of
            // Tessera's own encoder, on block boundaries (RGTC's are not encoded yet).
            let kind =
                conv::bptc_kind(native.vk).filter(|_| origin[..2].iter().all(|o| o % 4 == 0));
            let Some(kind) = kind else {
                self.report(
                    Missing::Format,
                    "uncompressed uploads into RGTC or off the block grid are skipped",
                );
                return Ok(());
            };
            let texels = tessera_wire::pixel::decode(layout, data, count)
                .ok_or_else(|| bad_value(N, "short pixel data"))?;
            let [w, h, d] = size.map(|v| v as usize);
            let bytes = &tessera_wire::bptc::encode(kind, &texels, w, h, d);
            let at = ImageRef { level, face };
            let region = TextureRegion { origin, size };
            return self.write_compressed_texture(handle, BlockWrite { at, region, bytes });
        }
        let align = lcm(u64::from(native.texel_size.max(1)), 16);
        if native.is_depth_stencil() {
            let texels = pixel::decode(layout, data, count)
                .ok_or_else(|| bad_value(N, "short pixel data"))?;
            if let Some(d) = native.depth {
                let bytes = pixel::encode_depth(d, &texels);
                self.copy_to_image(N, handle, region, vk::ImageAspectFlags::DEPTH, &bytes, 16)?;
            }
            if native.stencil && layout.format != tessera_wire::format::PixelFormat::DepthComponent
            {
                // Stencil indices keep their low 8 bits (GL masks them; Mesa casts).
                let bytes: Vec<u8> = texels.iter().map(|t| t[1] as i64 as u8).collect();
                self.copy_to_image(N, handle, region, vk::ImageAspectFlags::STENCIL, &bytes, 16)?;
            }
            return Ok(());
        }
        let converted;
        let bytes = if layout == native.upload {
            let n = count * pixel_size(layout.format, layout.ty);
            data.get(..n)
                .ok_or_else(|| bad_value(N, "short pixel data"))?
        } else {
            converted = pixel::convert(layout, native.upload, data, count)
                .ok_or_else(|| bad_value(N, "short pixel data"))?;
            &converted
        };
        self.copy_to_image(N, handle, region, vk::ImageAspectFlags::COLOR, bytes, align)
    }

    /// `WriteCompressedTexture`: blocks copied as they are (or, on a device without the
    /// compressed format, reported and skipped).
    fn write_compressed_texture(&mut self, handle: TextureHandle, write: BlockWrite<'_>) -> R {
        const N: &str = "WriteCompressedTexture";
        let BlockWrite {
            at: ImageRef { level, face },
            region: TextureRegion { origin, size },
            bytes: data,
        } = write;
        let Some((native, region)) = self.region_of(N, handle, level, face, origin, size)? else {
            return Ok(());
        };
        if let Some(kind) = native.decode {
            // ETC2/EAC into its uncompressed stand-in: each slice's blocks decoded, and kept
            // as they are for read-backs.
            let at = ImageRef { level, face };
            let blocks = &mut self.textures.get_mut(N, handle)?.blocks;
            blocks.write(at, origin, size, data);
            let [w, h, d] = region.extent;
            let (w, h) = (w as usize, h as usize);
            let slices = (d * region.layers.1) as usize;
            let slice = w.div_ceil(4) * h.div_ceil(4) * kind.block_bytes();
            let mut texels = Vec::with_capacity(w * h * slices * kind.texel_bytes());
            for z in 0..slices {
                let blocks = data
                    .get(z * slice..(z + 1) * slice)
                    .ok_or_else(|| bad_value(N, "short block data"))?;
                let decoded = tessera_wire::etc2::decode(kind, blocks, w, h)
                    .ok_or_else(|| bad_value(N, "short block data"))?;
                texels.extend_from_slice(&decoded);
            }
            let align = lcm(u64::from(native.texel_size.max(1)), 16);
            let color = vk::ImageAspectFlags::COLOR;
            return self.copy_to_image(N, handle, region, color, &texels, align);
        }
        if !native.compressed {
            self.report(
                Missing::Format,
                "the device lacks the compressed format (BC4/BC5, BC6H/BC7): compressed uploads \
                 are skipped",
            );
            return Ok(());
        }
        let [w, h, d] = region.extent;
        let blocks = (w.div_ceil(4) * h.div_ceil(4) * d * region.layers.1) as usize;
        let n = blocks * native.texel_size as usize;
        let bytes = data
            .get(..n)
            .ok_or_else(|| bad_value(N, "short block data"))?;
        self.copy_to_image(N, handle, region, vk::ImageAspectFlags::COLOR, bytes, 16)
    }

    /// `WriteTextureFromBuffer`: the buffer is read back and the pixels written as client
    /// data (a GPU copy would need the layouts to match; this path is rare and never per
    /// frame in the programs of interest).
    fn write_texture_from_buffer(&mut self, handle: TextureHandle, write: FromBuffer) -> R {
        const N: &str = "WriteTextureFromBuffer";
        let FromBuffer {
            at: image,
            layout,
            source,
        } = write;
        let [w, h, d] = source.region.size.map(u64::from);
        if w == 0 || h == 0 || d == 0 {
            return Ok(());
        }
        let px = pixel_size(layout.format, layout.ty) as u64;
        let extent = (d - 1) * u64::from(source.image_stride)
            + (h - 1) * u64::from(source.row_stride)
            + w * px;
        let bytes = self.read_buffer_range(N, source.buffer, source.offset, extent)?;
        let mut packed = Vec::with_capacity((w * h * d * px) as usize);
        for z in 0..d {
            for y in 0..h {
                let at = (z * u64::from(source.image_stride) + y * u64::from(source.row_stride))
                    as usize;
                let row = bytes
                    .get(at..at + (w * px) as usize)
                    .ok_or_else(|| bad_value(N, "rows outside the buffer"))?;
                if source.swap_bytes {
                    let c = pixel_size(tessera_wire::format::PixelFormat::Red, layout.ty).max(1);
                    for chunk in row.chunks(c) {
                        packed.extend(chunk.iter().rev());
                    }
                } else {
                    packed.extend_from_slice(row);
                }
            }
        }
        let write = TextureWrite {
            at: image,
            region: source.region,
            layout,
            bytes: &packed,
        };
        self.write_texture(handle, write)
    }

    /// `WriteCompressedTextureFromBuffer`: the blocks are read back, then uploaded as
    /// client data.
    fn write_blocks_from_buffer(&mut self, t: TextureHandle, at: ImageRef, src: BufferBlocks) -> R {
        const N: &str = "WriteCompressedTextureFromBuffer";
        let BufferRange { offset, size } = src.range;
        let blocks = self.read_buffer_range(N, src.buffer, offset, size)?;
        let (region, bytes) = (src.region, &blocks[..]);
        self.write_compressed_texture(t, BlockWrite { at, region, bytes })
    }

    /// `ReadTexture`: one whole image, as tightly packed rows of `layout`.
    fn read_texture(&mut self, handle: TextureHandle, read: TextureReadback) -> Bytes {
        const N: &str = "ReadTexture";
        let (ImageRef { level, face }, layout, size) = (read.at, read.layout, read.size);
        let count = size.iter().map(|&v| v as usize).product::<usize>();
        let out_size = count
            .checked_mul(pixel_size(layout.format, layout.ty))
            .filter(|&n| n <= MAX_READBACK)
            .ok_or_else(|| bad_value(N, "read-back too large"))?;
        let origin = [0; 3];
        let Some((native, region)) = self.region_of(N, handle, level, face, origin, size)? else {
            return Ok(vec![0; out_size]);
        };
        let aspect = native.sampled_aspect();
        if native.compressed {
            return Ok(vec![0; out_size]);
        }
        let src = ImageSource::Texture(handle);
        if let Some(depth) = native.depth.filter(|_| native.stencil) {
            use tessera_wire::format::PixelFormat as P;
            if matches!(layout.format, P::DepthStencil | P::StencilIndex) {
                // Both aspects of a depth-stencil image (its stencil alone for
                // `STENCIL_INDEX`): one copy each, the stencil bytes into channel 1.
                const STENCIL: vk::ImageAspectFlags = vk::ImageAspectFlags::STENCIL;
                let stencil = self.copy_from_image(N, src, region, STENCIL, count)?;
                let mut texels = vec![[0.0, 0.0, 0.0, 1.0]; count];
                if layout.format == P::DepthStencil {
                    let size = count * native.aspect_texel_size(aspect);
                    let raw = self.copy_from_image(N, src, region, aspect, size)?;
                    pixel::decode_depth(depth, &raw, &mut texels);
                }
                for (t, s) in texels.iter_mut().zip(&stencil) {
                    t[1] = f64::from(*s);
                }
                return Ok(pixel::encode(layout, &texels));
            }
        }
        let size = count * native.aspect_texel_size(aspect);
        let raw_bytes = self.copy_from_image(N, src, region, aspect, size)?;
        self.decode_read(native, aspect, &raw_bytes, count, layout)
            .ok_or_else(|| bad_value(N, "read-back conversion failed"))
    }

    /// `ImportTextureMemory`: the texture's image remade in the host's memory
    /// ([`Storage::new_imported_2d`]); the images the engine defined just before (its
    /// immutable levels) stay as they are. A refused import, or a token this process's table
    /// does not hold, is reported as [`tessera_wire::Event::OutOfMemory`] (`GL_OUT_OF_MEMORY`)
    /// and the texture keeps its own storage.
    fn import_texture_memory(
        &mut self,
        handle: TextureHandle,
        memory: tessera_wire::record::TextureMemory,
    ) -> R {
        const N: &str = "ImportTextureMemory";
        let fd = tessera_wire::backend::take_handed_fd(memory.fd_token);
        let refused = |pipe: &mut Self, why: &str| {
            let what = format!("a texture in a host's memory object ({why})");
            pipe.events.push(tessera_wire::Event::OutOfMemory { what });
            Ok(())
        };
        let Some(fd) = fd else {
            return refused(self, "no descriptor of this process");
        };
        if !self.tiers.memory_export {
            return Err(bad_value(N, "the device imports no memory"));
        }
        let t = self.textures.get_mut(N, handle)?;
        if t.kind != TextureKind::D2 {
            return Err(bad_value(N, "not a 2D texture"));
        }
        let Some(s) = &t.storage else {
            return Err(bad_value(N, "the texture has no storage"));
        };
        let (format, native, [w, h, _]) = (s.format, s.native, s.extent);
        // SAFETY: the physical device of this instance.
        let props = unsafe {
            self.gpu
                .instance
                .get_physical_device_memory_properties(self.gpu.phys)
        };
        let host = crate::image::HostMemory {
            fd,
            size: memory.size,
            offset: memory.offset,
            dedicated: memory.dedicated,
        };
        let made = Storage::new_imported_2d(
            &self.raw,
            &props,
            format,
            native,
            [w, h],
            memory.levels,
            self.tiers.feedback_loop,
            host,
        )
        .map_err(|e| vk_error("vkBindImageMemory", e))?;
        let Some(storage) = made else {
            return refused(
                self,
                "the driver refused the import, or the image does not fit",
            );
        };
        self.invalidate_targets();
        let t = self.textures.get_mut(N, handle)?;
        if let Some(old) = t.storage.replace(storage) {
            old.retire(&mut self.frames.current.garbage);
        }
        Ok(())
    }

    /// `WaitSemaphore` (`semaphore.rs`).
    fn wait_semaphore(&mut self, op: tessera_wire::record::SemaphoreOp) -> R {
        self.wait_external_semaphore(op)
    }

    /// `SignalSemaphore` (`semaphore.rs`).
    fn signal_semaphore(&mut self, op: tessera_wire::record::SemaphoreOp) -> R {
        self.signal_external_semaphore(op)
    }

    /// `ExportTexture` (`export.rs`).
    fn export_texture(
        &mut self,
        handle: TextureHandle,
        fence_token: u64,
    ) -> Result<tessera_wire::ExportedMemory, SessionError> {
        self.export_texture_memory(handle, fence_token)
    }

    /// `ExportSurface` (`export.rs`).
    fn export_surface(
        &mut self,
        surface: tessera_wire::handle::SurfaceHandle,
        fence_token: u64,
    ) -> Result<tessera_wire::ExportedMemory, SessionError> {
        self.export_surface_memory(surface, fence_token)
    }

    /// `HandOverTexture` (`export.rs`).
    fn hand_over_texture(
        &mut self,
        handle: TextureHandle,
        signal: bool,
    ) -> Result<tessera_wire::HostImage, SessionError> {
        self.hand_over_texture_image(handle, signal)
    }

    /// `ReadCompressedTexture`: the image's blocks, copied from the device where it stores
    /// the compressed format, or the copy kept of an image stored decoded (ETC2/EAC). A
    /// view of such an image has no copy of its own: its read-back is empty (the engine
    /// pads it with zeros).
    fn read_compressed_texture(&mut self, handle: TextureHandle, read: BlockReadback) -> Bytes {
        const N: &str = "ReadCompressedTexture";
        let (ImageRef { level, face }, size) = (read.at, read.size);
        if let Some(blocks) = self.textures.get(N, handle)?.blocks.read(read.at) {
            return Ok(blocks.to_vec());
        }
        let origin = [0; 3];
        let Some((native, region)) = self.region_of(N, handle, level, face, origin, size)? else {
            return Ok(Vec::new());
        };
        if !native.compressed {
            log::warn!("tessera-backend-vk: {N}: no blocks kept of the image: nothing read");
            return Ok(Vec::new());
        }
        let [w, h, d] = region.extent;
        let n = (w.div_ceil(4) as usize)
            .checked_mul(h.div_ceil(4) as usize)
            .and_then(|b| b.checked_mul((d * region.layers.1) as usize))
            .and_then(|b| b.checked_mul(native.texel_size as usize))
            .filter(|&n| n <= MAX_READBACK)
            .ok_or_else(|| bad_value(N, "read-back too large"))?;
        let src = ImageSource::Texture(handle);
        self.copy_from_image(N, src, region, vk::ImageAspectFlags::COLOR, n)
    }

    /// `GenerateMipmap`: each level blitted from the one before, in GENERAL layout.
    fn generate_mipmap(&mut self, handle: TextureHandle, base: u8, max: u8) -> R {
        const N: &str = "GenerateMipmap";
        self.transfer_begin();
        let (raw, cmd) = (self.raw.clone(), self.rec.cmd);
        let o = self.owner(N, handle)?;
        let t = self.textures.get_mut(N, handle)?;
        let kind = t.kind;
        let faces = if kind == TextureKind::Cube { FACES } else { 1 };
        let levels = match o.view {
            Some(v) => v.levels,
            None => match t.storage.as_ref() {
                Some(s) => s.levels,
                None => return Ok(()),
            },
        };
        let last = u32::from(max).min(levels.max(1) - 1);
        if u32::from(base) >= last {
            return Ok(());
        }
        // The generated levels are defined images from now on (GL defines them).
        for face in 0..faces {
            let Some(b) = t.image(usize::from(base), face) else {
                continue;
            };
            for level in u32::from(base) + 1..=last {
                let shift = level - u32::from(base);
                let size = match kind {
                    TextureKind::D1 | TextureKind::D1Array => {
                        [(b.size[0] >> shift).max(1), b.size[1], b.size[2]]
                    }
                    TextureKind::D3 => b.size.map(|v| (v >> shift).max(1)),
                    _ => [
                        (b.size[0] >> shift).max(1),
                        (b.size[1] >> shift).max(1),
                        b.size[2],
                    ],
                };
                t.images.set(level as usize, face, ImageDesc { size, ..b });
            }
        }
        let Some(s) = self.textures.get_mut(N, o.handle)?.storage.as_mut() else {
            return Ok(());
        };
        // Every layer of the image, a view's too: Mesa generates a view's levels for all
        // the layers of its storage, and native llvmpipe is what programs see.
        let (first_layer, layer_count) = (0, s.layers);
        transition(&raw, cmd, s, vk::ImageLayout::GENERAL);
        let filter = if s.native.linear_filter() && !s.native.is_depth_stencil() {
            vk::Filter::LINEAR
        } else {
            vk::Filter::NEAREST
        };
        let aspect = s.native.aspect();
        for level in u32::from(base) + 1 + o.level..=last + o.level {
            let (a, b) = (s.level_extent(level - 1), s.level_extent(level));
            let corner = |e: [u32; 3]| vk::Offset3D {
                x: e[0] as i32,
                y: e[1] as i32,
                z: e[2] as i32,
            };
            let layers = |l| vk::ImageSubresourceLayers {
                aspect_mask: aspect,
                mip_level: l,
                base_array_layer: first_layer,
                layer_count,
            };
            let blit = vk::ImageBlit {
                src_subresource: layers(level - 1),
                src_offsets: [vk::Offset3D::default(), corner(a)],
                dst_subresource: layers(level),
                dst_offsets: [vk::Offset3D::default(), corner(b)],
            };
            // Orders the previous level's write before this read (outside a render pass:
            // transfer_begin).
            memory_barrier(
                &raw,
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::AccessFlags::TRANSFER_WRITE,
                vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE,
            );
            let (image, layout) = (s.image, vk::ImageLayout::GENERAL);
            // SAFETY: recording outside a render pass; source and destination levels are
            // different subresources of one image in GENERAL layout; the regions are the
            // levels' full extents; the barrier above orders the previous level's write
            // before this read.
            unsafe { raw.cmd_blit_image(cmd, image, layout, image, layout, &[blit], filter) };
        }
        self.rec.dirty_mem = true;
        Ok(())
    }

    /// `ClearTexture` (`texture_clear.rs`).
    fn clear_texture(&mut self, handle: TextureHandle, clear: TextureClear) -> R {
        self.clear_texture_box(handle, clear)
    }

    fn copy_image(&mut self, copy: ImageCopy) -> R {
        self.copy_blocks(&copy)?;
        let copy = ImageCopy {
            src: self.owner_end(copy.src)?,
            dst: self.owner_end(copy.dst)?,
            ..copy
        };
        self.copy_image_region(copy)
    }

    /// `SetTextureView`.
    fn set_texture_view(&mut self, handle: TextureHandle, view: TextureView) -> R {
        self.textures.get_mut("SetTextureView", handle)?.view = view;
        Ok(())
    }

    /// `SetTextureBuffer`.
    fn set_texture_buffer(&mut self, handle: TextureHandle, texels: TexelBuffer) -> R {
        const N: &str = "SetTextureBuffer";
        let TexelBuffer {
            buffer,
            format,
            range: BufferRange { offset, size },
        } = texels;
        if let Some(b) = buffer {
            self.buffers.get(N, b)?;
        }
        let t = self.textures.get_mut(N, handle)?;
        t.buffer = buffer.map(|b| (b, format, offset, size));
        if let Some(v) = t.buffer_view.take() {
            v.retire(&mut self.frames.current.garbage);
        }
        Ok(())
    }
}

impl VkPipe {
    /// The storage of a texture, for `record`.
    fn storage_of(
        &mut self,
        record: &'static str,
        handle: TextureHandle,
    ) -> Result<Option<&mut Storage>, SessionError> {
        let owner = self.owner(record, handle)?.handle;
        Ok(self.textures.get_mut(record, owner)?.storage.as_mut())
    }

    /// Where a texture's images live (a view's in its storage owner's storage).
    pub fn owner(
        &self,
        record: &'static str,
        handle: TextureHandle,
    ) -> Result<Owner, SessionError> {
        let t = self.textures.get(record, handle)?;
        Ok(match t.view_of {
            Some(v) => Owner {
                handle: v.storage,
                level: v.min_level,
                layer: v.min_layer,
                view: Some(v),
            },
            None => Owner {
                handle,
                level: 0,
                layer: 0,
                view: None,
            },
        })
    }

    /// A `CopyImage` end on a view as the same texels of its storage owner.
    fn owner_end(&self, end: ImageCopyEnd) -> Result<ImageCopyEnd, SessionError> {
        let ImageObject::Texture(t) = end.object else {
            return Ok(end);
        };
        let o = self.owner("CopyImage", t)?;
        if o.view.is_none() {
            return Ok(end);
        }
        let owner_kind = self.textures.get("CopyImage", o.handle)?.kind;
        let [x, y, z] = end.origin;
        let z = if owner_kind == TextureKind::D3 {
            z
        } else {
            z + o.layer
        };
        Ok(ImageCopyEnd {
            object: ImageObject::Texture(o.handle),
            level: (u32::from(end.level) + o.level).min(255) as u8,
            origin: [x, y, z],
        })
    }

    /// Copies staged bytes (tightly packed) into a region of one image.
    fn copy_to_image(
        &mut self,
        record: &'static str,
        handle: TextureHandle,
        region: LevelRegion,
        aspect: vk::ImageAspectFlags,
        bytes: &[u8],
        align: u64,
    ) -> Result<(), SessionError> {
        let src = self.arena(bytes.len() as u64, align)?;
        src.write(bytes);
        let raw = self.raw.clone();
        // An image no command has used yet is filled in the frame's prologue, and left
        // ready to sample, so that the frame's render pass goes on (`VkPipe::prologue`).
        let unused = self
            .storage_of(record, handle)?
            .is_some_and(|s| s.layout == vk::ImageLayout::UNDEFINED);
        let cmd = if unused {
            self.prologue()?
        } else {
            self.transfer_begin();
            self.rec.cmd
        };
        let Some(s) = self.storage_of(record, handle)? else {
            return Ok(());
        };
        let layout = vk::ImageLayout::TRANSFER_DST_OPTIMAL;
        transition(&raw, cmd, s, layout);
        let region = region.buffer_copy(aspect, src.offset);
        // SAFETY: recording, outside a render pass (the prologue has none; else
        // transfer_begin ended it); the image is in TRANSFER_DST_OPTIMAL; the region lies
        // inside the level (checked by the caller) and the staged bytes cover it.
        unsafe { raw.cmd_copy_buffer_to_image(cmd, src.buffer, s.image, layout, &[region]) };
        if unused {
            // Ready to sample where it may be (a format without sampling stays a transfer
            // destination until its first use, VUID-VkImageMemoryBarrier-oldLayout-01212).
            if s.usage.contains(vk::ImageUsageFlags::SAMPLED) {
                transition(&raw, cmd, s, vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL);
            }
        } else {
            self.rec.dirty_mem = true;
        }
        Ok(())
    }

    /// Applies a `CopyImage` to the destination's copy of its blocks (an ETC2/EAC image):
    /// the source's blocks, which is then ETC2/EAC too (a copy between compressed images
    /// stays in one format class).
    fn copy_blocks(&mut self, c: &ImageCopy) -> R {
        const N: &str = "CopyImage";
        let (ImageObject::Texture(src), ImageObject::Texture(dst)) = (c.src.object, c.dst.object)
        else {
            return Ok(());
        };
        let s = self.textures.get(N, src)?;
        let source = blocks::copy_source(&s.blocks, s.kind == TextureKind::Cube, c);
        let d = self.textures.get_mut(N, dst)?;
        if blocks::copy_into(&mut d.blocks, d.kind == TextureKind::Cube, c, source) {
            log::warn!(
                "tessera-backend-vk: {N}: an ETC2/EAC image's blocks copied from a source without a copy of its own: its compressed read-back keeps the blocks it had"
            );
        }
        Ok(())
    }

    /// Checks a region against a level of a texture's storage: the storage's format and the
    /// region.
    pub(crate) fn region_of(
        &self,
        record: &'static str,
        handle: TextureHandle,
        level: u8,
        face: u8,
        origin: [u32; 3],
        size: [u32; 3],
    ) -> Result<Option<(NativeFormat, LevelRegion)>, SessionError> {
        let kind = self.textures.get(record, handle)?.kind;
        let o = self.owner(record, handle)?;
        let view_native = match o.view {
            Some(v)
                if self
                    .formats
                    .get(v.format as usize)
                    .copied()
                    .flatten()
                    .is_none() =>
            {
                return Ok(None);
            }
            Some(v) => self.formats.get(v.format as usize).copied().flatten(),
            None => None,
        };
        let t = self.textures.get(record, o.handle)?;
        let Some(s) = &t.storage else {
            return Ok(None);
        };
        let level = u32::from(level) + o.level;
        if level >= s.levels {
            return Ok(None);
        }
        let e = s.level_extent(level);
        let (layer, layer_count, z, depth) = region_layers(kind, face, origin, size);
        let layer = layer + o.layer;
        let (x, y, w, h) = match t.kind {
            TextureKind::D1 | TextureKind::D1Array => (origin[0], 0, size[0], 1),
            _ => (origin[0], origin[1], size[0], size[1]),
        };
        let inside = x.checked_add(w).is_some_and(|v| v <= e[0])
            && y.checked_add(h).is_some_and(|v| v <= e[1])
            && z.checked_add(depth).is_some_and(|v| v <= e[2])
            && layer
                .checked_add(layer_count)
                .is_some_and(|v| v <= s.layers);
        if !inside || w == 0 || h == 0 || depth == 0 || layer_count == 0 {
            log::warn!("tessera-backend-vk: {record} outside its image: skipped");
            return Ok(None);
        }
        let region = LevelRegion {
            level,
            offset: [x as i32, y as i32, z as i32],
            extent: [w, h, depth],
            layers: (layer, layer_count),
        };
        Ok(Some((view_native.unwrap_or(s.native), region)))
    }

    /// Converts bytes read from an image (in its memory layout) to `layout`.
    pub fn decode_read(
        &mut self,
        native: NativeFormat,
        aspect: vk::ImageAspectFlags,
        raw: &[u8],
        count: usize,
        layout: PixelLayout,
    ) -> Option<Vec<u8>> {
        if aspect == vk::ImageAspectFlags::DEPTH {
            let mut texels = vec![[0.0, 0.0, 0.0, 1.0]; count];
            pixel::decode_depth(native.depth?, raw, &mut texels);
            return Some(pixel::encode(layout, &texels));
        }
        if aspect == vk::ImageAspectFlags::STENCIL {
            let texels: Vec<pixel::Texel> =
                raw.iter().map(|&s| [0.0, f64::from(s), 0.0, 1.0]).collect();
            return Some(pixel::encode(layout, &texels));
        }
        pixel::convert(native.upload, layout, raw, count)
    }

    /// Copies a region of an image into a readback buffer and waits: the bytes, tightly
    /// packed in the image's memory layout.
    pub fn copy_from_image(
        &mut self,
        record: &'static str,
        src: ImageSource,
        region: LevelRegion,
        aspect: vk::ImageAspectFlags,
        size: usize,
    ) -> Result<Vec<u8>, SessionError> {
        let staging = memory::host_buffer(
            &self.alloc,
            size as u64,
            vk::BufferUsageFlags::TRANSFER_DST,
            true,
        )
        .map_err(|e| vk_error("vmaCreateBuffer", e))?;
        self.transfer_begin();
        let (raw, cmd) = (self.raw.clone(), self.rec.cmd);
        let Some(s) = self.image_mut(record, src)? else {
            memory::free_buffer(&self.alloc, staging);
            return Ok(vec![0; size]);
        };
        let layout = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
        transition(&raw, cmd, s, layout);
        let region = region.buffer_copy(aspect, 0);
        // SAFETY: recording, outside a render pass; the image is in TRANSFER_SRC_OPTIMAL;
        // the region lies inside it (callers clip) and the staging buffer holds `size`
        // bytes, the region's tightly packed size.
        unsafe { raw.cmd_copy_image_to_buffer(cmd, s.image, layout, staging.buffer, &[region]) };
        self.rec.dirty_mem = true;
        self.finish_readback()?;
        let mut out = vec![0u8; size];
        // SAFETY: the copy completed; the mapping holds `size` bytes.
        unsafe { std::ptr::copy_nonoverlapping(staging.ptr, out.as_mut_ptr(), size) };
        memory::free_buffer(&self.alloc, staging);
        Ok(out)
    }

    /// The storage of an image source, mutably.
    pub fn image_mut(
        &mut self,
        record: &'static str,
        src: ImageSource,
    ) -> Result<Option<&mut Storage>, SessionError> {
        Ok(match src {
            ImageSource::Texture(h) => {
                let owner = self.owner(record, h)?.handle;
                self.textures.get_mut(record, owner)?.storage.as_mut()
            }
            ImageSource::Renderbuffer(h) => self.renderbuffers.get_mut(record, h)?.storage.as_mut(),
            ImageSource::SurfaceColor(h) => self.surfaces.get_mut(record, h)?.color.as_mut(),
            ImageSource::SurfaceDepth(h) => {
                self.surfaces.get_mut(record, h)?.depth_stencil.as_mut()
            }
            ImageSource::Temp => self.temp.as_mut(),
        })
    }

    /// The sampled view of a texture for a binding expecting `ty`, and whether its format
    /// can be filtered linearly. `None`: the texture cannot be sampled that way (missing
    /// storage, another view type, no defined base level): the slot reads the placeholder.
    ///
    /// Draws ask for the same views again and again: the answer is kept in the texture
    /// until a record that may change it (any but draws and state records) moves
    /// `changes`; only the layout, which draws and passes change, is read each time.
    #[inline]
    pub fn sampled_view(
        &mut self,
        handle: TextureHandle,
        ty: vk::ImageViewType,
    ) -> Option<(vk::ImageView, bool, vk::ImageLayout)> {
        let t = self.textures.live(handle)?;
        match t.sampled {
            Some(c) if c.changes == self.changes && c.ty == ty => {
                let (view, linear) = c.view?;
                let storage = match t.view_of {
                    Some(v) => self.textures.live(v.storage)?.storage.as_ref()?,
                    None => t.storage.as_ref()?,
                };
                Some((view, linear, storage.layout))
            }
            _ => self.derive_sampled_view(handle, ty),
        }
    }

    /// [`VkPipe::sampled_view`] derived from the texture's state, and kept.
    #[inline(never)]
    fn derive_sampled_view(
        &mut self,
        handle: TextureHandle,
        ty: vk::ImageViewType,
    ) -> Option<(vk::ImageView, bool, vk::ImageLayout)> {
        let found = self.find_sampled_view(handle, ty);
        let changes = self.changes;
        let t = self.textures.get_mut("", handle).ok()?;
        t.sampled = Some(SampledView {
            changes,
            ty,
            view: found.map(|(v, linear, _)| (v, linear)),
        });
        found
    }

    fn find_sampled_view(
        &mut self,
        handle: TextureHandle,
        ty: vk::ImageViewType,
    ) -> Option<(vk::ImageView, bool, vk::ImageLayout)> {
        let raw = self.raw.clone();
        let o = self.owner("", handle).ok()?;
        let view_native = match o.view {
            Some(v) => Some(self.formats.get(v.format as usize).copied().flatten()?),
            None => None,
        };
        let t = self.textures.get_mut("", handle).ok()?;
        if conv::map_view_type(t.kind) != ty {
            return None;
        }
        let view = t.view;
        let base = view.base_level.min(MAX_LEVELS as u32 - 1);
        let mut defined = 0;
        while ((base + defined) as usize) < MAX_LEVELS
            && base + defined <= view.max_level
            && t.image((base + defined) as usize, 0).is_some()
        {
            defined += 1;
        }
        let s = self.textures.get_mut("", o.handle).ok()?.storage.as_mut()?;
        let (first_level, level_count) = o.view.map_or((0, s.levels), |v| (v.min_level, v.levels));
        if defined == 0 || base >= level_count || first_level + level_count > s.levels {
            return None;
        }
        let levels = defined.min(level_count - base);
        let native = view_native.unwrap_or(s.native);
        let depth = native.depth.is_some();
        let fix = |sw: tessera_wire::format::Swizzle| {
            use tessera_wire::format::Swizzle as S;
            match sw {
                S::Alpha if native.alpha_one || depth => vk::ComponentSwizzle::ONE,
                S::Green | S::Blue if depth => vk::ComponentSwizzle::ZERO,
                other => conv::map_swizzle(other),
            }
        };
        let single = ty == vk::ImageViewType::TYPE_2D
            || ty == vk::ImageViewType::TYPE_1D
            || ty == vk::ImageViewType::TYPE_3D;
        let (base_layer, layers) = match o.view {
            Some(v) if single => (v.min_layer, 1),
            Some(v) => (v.min_layer, v.layers),
            None if single => (0, 1),
            None => (0, s.layers),
        };
        // DEPTH_STENCIL_TEXTURE_MODE = STENCIL_INDEX: the stencil aspect, read as unsigned
        // integers (never filtered: the engine makes such a texture complete with NEAREST
        // filters only).
        let stencil = view.stencil && native.stencil;
        let key = ViewKey {
            ty,
            aspect: if stencil {
                vk::ImageAspectFlags::STENCIL
            } else {
                native.sampled_aspect()
            },
            base_level: first_level + base,
            levels,
            base_layer,
            layers,
            swizzle: view.swizzle.map(fix),
            linear: false,
            format: view_native.map_or(vk::Format::UNDEFINED, |n| n.vk),
            storage: false,
        };
        let linear = native.linear_filter() && !stencil;
        let v = s.view_as(&raw, key, view_native.map(|n| n.features)).ok()?;
        Some((v, linear, s.layout))
    }

    /// Puts a sampled texture's image in `layout` (outside a pass): `SHADER_READ_ONLY_OPTIMAL`,
    /// or the feedback-loop layout of an image the draw also renders to (`image.rs`).
    pub fn make_sampled(&mut self, handle: TextureHandle, layout: vk::ImageLayout) {
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
            transition(&raw, cmd, s, layout);
        }
    }

    /// Notes that the draw being prepared samples texture `t` while rendering to it
    /// (`Recording::feedback`).
    pub fn note_feedback(&mut self, handle: TextureHandle) {
        let Ok(o) = self.owner("", handle) else {
            return;
        };
        let Some(image) = self
            .textures
            .live(o.handle)
            .and_then(|t| t.storage.as_ref())
            .map(|s| s.image)
        else {
            return;
        };
        if !self.rec.feedback.contains(&image) {
            self.rec.feedback.push(image);
        }
    }

    /// The buffer view of a buffer texture, made when first needed.
    pub fn texel_view(&mut self, handle: TextureHandle) -> Option<vk::BufferView> {
        let t = self.textures.live(handle)?;
        let (buffer, format, offset, size) = t.buffer?;
        let b = self.buffers.live(buffer)?;
        let vkbuf = b.owned.buffer;
        let bsize = b.size;
        if let Some(v) = t.buffer_view
            && v.held == vkbuf
        {
            return Some(v.view);
        }
        let native = self.format(format)?;
        let range = if size == 0 {
            bsize.saturating_sub(offset)
        } else {
            size
        };
        // Whole texels (GL reads `floor(size / texel)` of them; Vulkan wants a multiple).
        let texel = format
            .info()
            .rgba_bits
            .iter()
            .map(|b| u64::from(*b))
            .sum::<u64>()
            .div_ceil(8)
            .max(1);
        let range = range.min(bsize.saturating_sub(offset)) / texel * texel;
        if range == 0 || offset % self.limits.texel_buffer_align != 0 {
            return None;
        }
        let vk_format = conv::map_texel_buffer_format(format, native.vk);
        // The three-component formats, which devices have for uniform but not storage texel
        // buffers (lavapipe), cannot view the GL buffer, whose usage includes
        // STORAGE_TEXEL_BUFFER (VUID-VkBufferViewCreateInfo-buffer-00934): they view a
        // buffer of the same memory with UNIFORM_TEXEL_BUFFER usage alone.
        let three = matches!(format, Format::Rgb32f | Format::Rgb32i | Format::Rgb32ui);
        let alias = if three {
            let owned = &self.buffers.live(buffer)?.owned;
            Some(memory::uniform_texel_alias(&self.raw, &self.alloc, owned)?)
        } else {
            None
        };
        let info = vk::BufferViewCreateInfo::default()
            .buffer(alias.unwrap_or(vkbuf))
            .format(vk_format)
            .offset(offset)
            .range(range.min(bsize.saturating_sub(offset)));
        // SAFETY: a live buffer with UNIFORM_TEXEL_BUFFER usage (or one bound to its memory
        // with that usage alone, of its size); the range lies inside it and the offset is
        // aligned to minTexelBufferOffsetAlignment.
        let v = match unsafe { self.raw.create_buffer_view(&info, None) } {
            Ok(v) => v,
            Err(_) => {
                if let Some(b) = alias {
                    self.frames.current.garbage.push(Garbage::RawBuffer(b));
                }
                return None;
            }
        };
        let t = self.textures.get_mut("", handle).ok()?;
        let new = TexelView {
            held: vkbuf,
            view: v,
            alias,
        };
        if let Some(old) = t.buffer_view.replace(new) {
            old.retire(&mut self.frames.current.garbage);
        }
        Some(v)
    }
}

fn lcm(a: u64, b: u64) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    a / gcd(a, b) * b
}

/// Whether a format's class reads as integers.
pub(crate) fn class_of(format: Format) -> NumClass {
    match format.info().class {
        FormatClass::Int => NumClass::Int,
        FormatClass::Uint => NumClass::Uint,
        _ => NumClass::Float,
    }
}

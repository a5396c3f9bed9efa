//! Descriptors: what a draw's set 0 refers to, gathered before its pass begins (sampled
//! images are made shader-readable and placeholders created there, since neither can happen
//! inside a pass), then written only when it changed.
//!
//! The gathered resources form a key (set layout, then every view, sampler, buffer, offset
//! and range). With descriptor pools, a set is allocated and written only when the key
//! differs from the last set's; the default uniform block, rewritten into the frame's arena
//! whenever its bytes change, moves by its *dynamic offset*, which needs no new set. With
//! push descriptors the writes are pushed when the key (which then includes the default
//! block's offset) changed, and only the writes whose part of the key changed when the
//! layout is the one pushed last: push descriptors update incrementally, and a driver
//! (lavapipe) then rebinds only those (a new default block offset rebinds one uniform
//! buffer, not every texture of the set).

use ash::vk;
use ash::vk::Handle as _;
use tessera_wire::SessionError;
use tessera_wire::handle::ProgramHandle;

use crate::command::VkContext;
use crate::device::{Missing, VkPipe, backend_bug, count};
use crate::memory::Slice;
use crate::program::DescSlot;
use crate::spirv::{Dim, NumClass, ResourceKind};

impl VkPipe {
    /// Resolves every descriptor of the program into the scratch lists (and the key that
    /// identifies them), transitioning sampled images and creating placeholders; runs
    /// before the pass begins. For a draw (`graphics`), a sampled texture whose image the
    /// context's framebuffer has attached is a feedback loop: its image is put in the
    /// feedback layout and noted, so the pass keeps it there (`image.rs`).
    pub(crate) fn gather_descriptors(
        &mut self,
        ctx: &mut VkContext,
        handle: ProgramHandle,
        set_layout: vk::DescriptorSetLayout,
        block_size: u32,
        push: bool,
        graphics: bool,
    ) -> Result<(), SessionError> {
        let mut key = std::mem::take(&mut self.rec.key);
        let mut images = std::mem::take(&mut self.rec.images);
        let mut buffers = std::mem::take(&mut self.rec.buffers);
        let mut texels = std::mem::take(&mut self.rec.texels);
        let mut writes = std::mem::take(&mut self.rec.writes);
        let mut spans = std::mem::take(&mut self.rec.spans);
        spans.clear();
        key.clear();
        images.clear();
        buffers.clear();
        texels.clear();
        writes.clear();
        key.push(set_layout.as_raw());
        self.rec.feedback.clear();
        self.rec.only_changed = None;
        // Each write's span of the key: the key entries its slot pushed (a slot is closed
        // when the next begins, or after the last).
        let close =
            |spans: &mut Vec<(usize, usize)>, (k, w): (usize, usize), key: usize, writes| {
                spans.extend((w..writes).map(|_| (k, key)));
            };
        let mut open = (key.len(), writes.len());
        let result = (|| -> Result<(), SessionError> {
            let n = self.programs.live(handle).map_or(0, |p| p.slots.len());
            for i in 0..n {
                close(&mut spans, open, key.len(), writes.len());
                open = (key.len(), writes.len());
                let Some(slot) = self
                    .programs
                    .live(handle)
                    .and_then(|p| p.slots.get(i).copied())
                else {
                    break;
                };
                match slot {
                    DescSlot::Default => {
                        let (slice, size) = self.default_block(ctx, block_size)?;
                        key.push(slice.buffer.as_raw());
                        if push {
                            key.push(slice.offset);
                        }
                        writes.push((
                            0,
                            if push {
                                vk::DescriptorType::UNIFORM_BUFFER
                            } else {
                                vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC
                            },
                            buffers.len(),
                            1,
                        ));
                        buffers.push(vk::DescriptorBufferInfo {
                            buffer: slice.buffer,
                            offset: if push { slice.offset } else { 0 },
                            range: size,
                        });
                        // The dynamic offset travels apart from the set.
                        self.rec.dyn_offset_next = Some(slice.offset as u32);
                    }
                    DescSlot::Sampler {
                        binding,
                        first,
                        count: n,
                        kind,
                    } => match kind {
                        ResourceKind::TexelBuffer { class } => {
                            writes.push((
                                binding,
                                vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
                                texels.len(),
                                n,
                            ));
                            for k in 0..n as usize {
                                let t = ctx.desired.textures.get(first + k).and_then(|t| t.0);
                                let v = match t.and_then(|t| self.texel_view(t)) {
                                    Some(v) => v,
                                    None => self.placeholder_texel(class)?,
                                };
                                key.push(v.as_raw());
                                texels.push(v);
                            }
                        }
                        ResourceKind::Sampled {
                            dim,
                            arrayed,
                            multisampled,
                            class,
                        } => {
                            let ty = match (dim, arrayed) {
                                (Dim::D1, false) => vk::ImageViewType::TYPE_1D,
                                (Dim::D1, true) => vk::ImageViewType::TYPE_1D_ARRAY,
                                (Dim::D3, _) => vk::ImageViewType::TYPE_3D,
                                (Dim::Cube, false) => vk::ImageViewType::CUBE,
                                (Dim::Cube, true) => vk::ImageViewType::CUBE_ARRAY,
                                (_, true) => vk::ImageViewType::TYPE_2D_ARRAY,
                                _ => vk::ImageViewType::TYPE_2D,
                            };
                            writes.push((
                                binding,
                                vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                                images.len(),
                                n,
                            ));
                            for k in 0..n as usize {
                                let (tex, smp) = ctx
                                    .desired
                                    .textures
                                    .get(first + k)
                                    .copied()
                                    .unwrap_or((None, None));
                                let found = tex.and_then(|t| {
                                    self.sampled_view(t, ty)
                                        .map(|(v, linear, layout)| (t, v, linear, layout))
                                });
                                let info = match found {
                                    Some((t, view, linear, layout)) => {
                                        let want = if graphics
                                            && self.renders_to(ctx.desired.framebuffer, t)
                                        {
                                            self.note_feedback(t);
                                            self.feedback_layout
                                        } else {
                                            vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL
                                        };
                                        if layout != want {
                                            if self.rec.pass.is_some() {
                                                self.end_pass()?;
                                            }
                                            self.sync();
                                            self.make_sampled(t, want);
                                        }
                                        let sampler = match smp {
                                            Some(s) if linear => {
                                                self.samplers.live(s).map(|s| s.raw)
                                            }
                                            Some(s) => self.nearest_sampler(s),
                                            None => None,
                                        };
                                        let sampler = match sampler {
                                            Some(s) => s,
                                            None => self.placeholder_sampler()?,
                                        };
                                        vk::DescriptorImageInfo {
                                            sampler,
                                            image_view: view,
                                            image_layout: want,
                                        }
                                    }
                                    None => {
                                        if self.rec.pass.is_some()
                                            && !self.has_placeholder(ty, class, multisampled)
                                        {
                                            self.end_pass()?;
                                        }
                                        let view =
                                            self.placeholder_view(ty, class, multisampled)?;
                                        vk::DescriptorImageInfo {
                                            sampler: self.placeholder_sampler()?,
                                            image_view: view,
                                            image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                                        }
                                    }
                                };
                                key.push(info.image_view.as_raw());
                                key.push(info.sampler.as_raw());
                                // The same view is written again when its layout changed.
                                key.push(info.image_layout.as_raw() as u64);
                                images.push(info);
                            }
                        }
                        ResourceKind::UniformBuffer
                        | ResourceKind::StorageBuffer
                        | ResourceKind::StorageImage { .. } => {}
                    },
                    DescSlot::Image {
                        binding,
                        first,
                        count: n,
                        kind,
                    } => {
                        let ResourceKind::StorageImage {
                            dim,
                            arrayed,
                            class,
                        } = kind
                        else {
                            continue;
                        };
                        if dim == Dim::Buffer {
                            writes.push((
                                binding,
                                vk::DescriptorType::STORAGE_TEXEL_BUFFER,
                                texels.len(),
                                n,
                            ));
                            for k in 0..n as usize {
                                let bound = ctx.desired.images.get(first + k).copied().flatten();
                                let v = match bound.and_then(|b| self.storage_texel_view(b)) {
                                    Some(v) => v,
                                    None => self.placeholder_storage_texel(class)?,
                                };
                                key.push(v.as_raw());
                                texels.push(v);
                            }
                            continue;
                        }
                        let ty = crate::storage_image::view_type(dim, arrayed);
                        writes.push((binding, vk::DescriptorType::STORAGE_IMAGE, images.len(), n));
                        for k in 0..n as usize {
                            let bound = ctx.desired.images.get(first + k).copied().flatten();
                            let found =
                                bound.and_then(|b| self.storage_view(b, ty).map(|v| (b, v)));
                            let view = match found {
                                Some((b, (view, layout))) => {
                                    if layout != vk::ImageLayout::GENERAL {
                                        if self.rec.pass.is_some() {
                                            self.end_pass()?;
                                        }
                                        self.sync();
                                        self.make_general(b.texture);
                                    }
                                    view
                                }
                                None => {
                                    if self.rec.pass.is_some()
                                        && !self.placeholders.has_storage(ty, class)
                                    {
                                        self.end_pass()?;
                                    }
                                    self.placeholder_storage(ty, class)?
                                }
                            };
                            key.push(view.as_raw());
                            images.push(vk::DescriptorImageInfo {
                                sampler: vk::Sampler::null(),
                                image_view: view,
                                image_layout: vk::ImageLayout::GENERAL,
                            });
                        }
                    }
                    DescSlot::Storage {
                        binding,
                        first,
                        count: n,
                    } => {
                        writes.push((
                            binding,
                            vk::DescriptorType::STORAGE_BUFFER,
                            buffers.len(),
                            n,
                        ));
                        for k in 0..n as usize {
                            let (b, offset, bsize) = ctx
                                .desired
                                .storage_buffers
                                .get(first + k)
                                .copied()
                                .unwrap_or((None, 0, 0));
                            let live = b.and_then(|h| {
                                self.buffers.live(h).map(|x| (x.owned.buffer, x.size))
                            });
                            let info = match live {
                                Some((buffer, total))
                                    if offset < total && offset % self.limits.ssbo_align == 0 =>
                                {
                                    let range = if bsize == 0 {
                                        total - offset
                                    } else {
                                        bsize.min(total - offset)
                                    };
                                    vk::DescriptorBufferInfo {
                                        buffer,
                                        offset,
                                        range: range.min(self.limits.max_ssbo_range),
                                    }
                                }
                                other => {
                                    if other.is_some() {
                                        self.report(
                                            Missing::Misaligned,
                                            "a storage buffer range not aligned to the device's minStorageBufferOffsetAlignment reads and writes a scratch buffer",
                                        );
                                    }
                                    vk::DescriptorBufferInfo {
                                        buffer: self.sink_buffer(),
                                        offset: 0,
                                        range: 1 << 16,
                                    }
                                }
                            };
                            key.push(info.buffer.as_raw());
                            key.push(info.offset);
                            key.push(info.range);
                            buffers.push(info);
                        }
                    }
                    DescSlot::Block {
                        binding,
                        first,
                        count: n,
                        size,
                    } => {
                        writes.push((
                            binding,
                            vk::DescriptorType::UNIFORM_BUFFER,
                            buffers.len(),
                            n,
                        ));
                        for k in 0..n as usize {
                            let (b, offset, bsize) = ctx
                                .desired
                                .uniform_buffers
                                .get(first + k)
                                .copied()
                                .unwrap_or((None, 0, 0));
                            let live = b.and_then(|h| {
                                self.buffers.live(h).map(|x| (x.owned.buffer, x.size))
                            });
                            let info = match live {
                                Some((buffer, total))
                                    if offset < total && offset % self.limits.ubo_align == 0 =>
                                {
                                    let range = if bsize == 0 {
                                        total - offset
                                    } else {
                                        bsize.min(total - offset)
                                    };
                                    vk::DescriptorBufferInfo {
                                        buffer,
                                        offset,
                                        range: range.min(self.limits.max_ubo_range),
                                    }
                                }
                                other => {
                                    if other.is_some() {
                                        self.report(
                                            Missing::Misaligned,
                                            "a uniform buffer range not aligned to the device's minUniformBufferOffsetAlignment reads zeros",
                                        );
                                    }
                                    vk::DescriptorBufferInfo {
                                        buffer: self.zero_buffer(),
                                        offset: 0,
                                        range: u64::from(size.max(16)).min(1 << 16),
                                    }
                                }
                            };
                            key.push(info.buffer.as_raw());
                            key.push(info.offset);
                            key.push(info.range);
                            buffers.push(info);
                        }
                    }
                }
            }
            Ok(())
        })();
        close(&mut spans, open, key.len(), writes.len());
        self.rec.key = key;
        self.rec.images = images;
        self.rec.buffers = buffers;
        self.rec.texels = texels;
        self.rec.writes = writes;
        self.rec.spans = spans;
        result
    }

    /// The arena copy of the default block for a draw and its bound size: the copy made
    /// since the values last changed in this command buffer, else a new one.
    fn default_block(
        &mut self,
        ctx: &mut VkContext,
        block_size: u32,
    ) -> Result<(Slice, u64), SessionError> {
        let size = u64::from(block_size.max(16)).next_multiple_of(16);
        if let Some((serial, s)) = ctx.uniform_at
            && serial == self.rec.serial
        {
            return Ok((s, size));
        }
        let s = self.arena(size, self.limits.ubo_align)?;
        let n = ctx.desired.uniforms.len().min(size as usize);
        s.write(&ctx.desired.uniforms[..n]);
        if n < size as usize {
            s.zero_at(n, size as usize - n);
        }
        ctx.uniform_at = Some((self.rec.serial, s));
        Ok((s, size))
    }

    /// [`VkPipe::gather_descriptors`] after a change of the default block's values alone
    /// (`dirty::UNIFORMS`), while the gathered descriptors are still the last draw's of
    /// this context and program: only the default block's write, its part of the key and
    /// its dynamic offset change, so binding then pushes that one write again (or rebinds
    /// the set at the new offset). Nothing else is looked up.
    pub(crate) fn regather_default_block(
        &mut self,
        ctx: &mut VkContext,
        block_size: u32,
        push: bool,
    ) -> Result<(), SessionError> {
        // The default block is binding 0 (`DescSlot::Default`); a program without one
        // has nothing to redo.
        let Some(w) = self.rec.writes.iter().position(|&(binding, ty, ..)| {
            binding == 0
                && matches!(
                    ty,
                    vk::DescriptorType::UNIFORM_BUFFER | vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC
                )
        }) else {
            return Ok(());
        };
        let (slice, size) = self.default_block(ctx, block_size)?;
        let (_, _, at, _) = self.rec.writes[w];
        let Some(&(a, _)) = self.rec.spans.get(w) else {
            backend_bug("a gathered write without its span of the key");
        };
        // The key entries `gather_descriptors` pushed for the default slot.
        self.rec.key[a] = slice.buffer.as_raw();
        if push {
            self.rec.key[a + 1] = slice.offset;
        }
        self.rec.buffers[at] = vk::DescriptorBufferInfo {
            buffer: slice.buffer,
            offset: if push { slice.offset } else { 0 },
            range: size,
        };
        self.rec.dyn_offset_next = Some(slice.offset as u32);
        self.rec.only_changed = Some(w);
        Ok(())
    }

    fn has_placeholder(&self, ty: vk::ImageViewType, class: NumClass, ms: bool) -> bool {
        self.placeholders.has(ty, class, ms)
    }

    /// Writes (or pushes) and binds the gathered descriptors when they changed.
    pub(crate) fn bind_descriptors(
        &mut self,
        set_layout: vk::DescriptorSetLayout,
        layout: vk::PipelineLayout,
        push: bool,
    ) -> Result<(), SessionError> {
        self.bind_descriptors_at(vk::PipelineBindPoint::GRAPHICS, set_layout, layout, push)
    }

    /// [`VkPipe::bind_descriptors`] at a bind point (a compute dispatch's is `COMPUTE`,
    /// where nothing is known to be bound: its caller forgets the graphics set after).
    pub(crate) fn bind_descriptors_at(
        &mut self,
        bind_point: vk::PipelineBindPoint,
        set_layout: vk::DescriptorSetLayout,
        layout: vk::PipelineLayout,
        push: bool,
    ) -> Result<(), SessionError> {
        let cmd = self.rec.cmd;
        if self.rec.writes.is_empty() {
            // A program without resources reads no set.
            self.rec.dyn_offset_next = None;
            self.rec.only_changed = None;
            return Ok(());
        }
        let only_changed = self.rec.only_changed.take();
        if push
            && let Some(w) = only_changed
            && self.pushed_this_shape(bind_point, layout)
            && let Some(&(a, b)) = self.rec.spans.get(w)
            && let Some((held, _)) = &self.rec.set
        {
            // Only the default block moved since the set pushed last (a regather): its
            // one write, if its part of the key changed, with no look at the others.
            self.rec.dyn_offset_next = None;
            if held[a..b] != self.rec.key[a..b] {
                let scratch = std::mem::take(&mut self.rec.write_scratch);
                let writes =
                    self.descriptor_writes_of(scratch, vk::DescriptorSet::null(), w..w + 1);
                if let Some(push) = &self.gpu.push {
                    // SAFETY: recording; the layout's set 0 was created with the
                    // push-descriptor flag; the write refers to the arena buffer the
                    // default block was just written to.
                    unsafe { push.cmd_push_descriptor_set(cmd, bind_point, layout, 0, &writes) };
                }
                self.rec.write_scratch = recycle(writes);
                count(&self.stats.descriptor_sets);
                if let Some((held, _)) = &mut self.rec.set {
                    held[a..b].copy_from_slice(&self.rec.key[a..b]);
                }
            }
            return Ok(());
        }
        let same = bind_point == vk::PipelineBindPoint::GRAPHICS
            && self.rec.layout == layout
            && self
                .rec
                .set
                .as_ref()
                .is_some_and(|(k, _)| *k == self.rec.key);
        let dyn_offset = self.rec.dyn_offset_next.take();
        if push {
            if !same {
                let scratch = std::mem::take(&mut self.rec.write_scratch);
                let mut writes = self.descriptor_writes(scratch, vk::DescriptorSet::null());
                // The set pushed last had this layout and this shape: push only the writes
                // whose resources changed (the others keep their descriptors).
                if self.pushed_this_shape(bind_point, layout)
                    && self.rec.spans.len() == writes.len()
                    && let Some((held, _)) = &self.rec.set
                {
                    let (key, spans) = (&self.rec.key, &self.rec.spans);
                    let mut i = 0;
                    writes.retain(|_| {
                        let (a, b) = spans[i];
                        i += 1;
                        held[a..b] != key[a..b]
                    });
                }
                if let Some(push) = &self.gpu.push
                    && !writes.is_empty()
                {
                    // SAFETY: recording; the layout's set 0 was created with the
                    // push-descriptor flag; every write refers to live views, samplers
                    // and buffers gathered for this draw.
                    unsafe { push.cmd_push_descriptor_set(cmd, bind_point, layout, 0, &writes) };
                }
                self.rec.write_scratch = recycle(writes);
                count(&self.stats.descriptor_sets);
                self.remember_set(vk::DescriptorSet::null());
                let mut pushed = std::mem::take(&mut self.rec.pushed_spans);
                pushed.clear();
                pushed.extend_from_slice(&self.rec.spans);
                self.rec.pushed_spans = pushed;
                self.rec.layout = layout;
            }
            return Ok(());
        }
        let set = if same {
            match &self.rec.set {
                Some((_, s)) => *s,
                None => backend_bug("a matching set key without a set"),
            }
        } else {
            let set = self.allocate_set(set_layout)?;
            let scratch = std::mem::take(&mut self.rec.write_scratch);
            let writes = self.descriptor_writes(scratch, set);
            // SAFETY: a set of this frame's pool, not in use by any command yet; the writes
            // refer to live resources with matching descriptor types.
            unsafe { self.raw.update_descriptor_sets(&writes, &[]) };
            self.rec.write_scratch = recycle(writes);
            self.remember_set(set);
            set
        };
        if !same || self.rec.dyn_offset != dyn_offset || self.rec.layout != layout {
            let offsets: &[u32] = match &dyn_offset {
                Some(o) => std::slice::from_ref(o),
                None => &[],
            };
            // SAFETY: recording; the set matches the layout's set 0; one dynamic offset
            // when the layout has the dynamic default block, aligned to
            // minUniformBufferOffsetAlignment (arena allocations are).
            unsafe {
                self.raw
                    .cmd_bind_descriptor_sets(cmd, bind_point, layout, 0, &[set], offsets)
            };
            self.rec.dyn_offset = dyn_offset;
            self.rec.layout = layout;
        }
        Ok(())
    }

    /// Whether the set pushed last at the graphics bind point had `layout` and the gathered
    /// descriptors' shape (the same writes over the same spans of a key as long): then only
    /// the writes whose part of the key differs need pushing.
    fn pushed_this_shape(
        &self,
        bind_point: vk::PipelineBindPoint,
        layout: vk::PipelineLayout,
    ) -> bool {
        bind_point == vk::PipelineBindPoint::GRAPHICS
            && self.rec.layout == layout
            && self.rec.spans == self.rec.pushed_spans
            && self
                .rec
                .set
                .as_ref()
                .is_some_and(|(held, _)| held.len() == self.rec.key.len())
    }

    /// Records the gathered key as the key of `set` (reusing the old key's allocation).
    fn remember_set(&mut self, set: vk::DescriptorSet) {
        let mut held = self.rec.set.take().map(|(k, _)| k).unwrap_or_default();
        held.clear();
        held.extend_from_slice(&self.rec.key);
        self.rec.set = Some((held, set));
    }

    /// The gathered descriptors as writes into `set`, in `scratch`'s allocation.
    fn descriptor_writes(
        &self,
        scratch: Vec<vk::WriteDescriptorSet<'static>>,
        set: vk::DescriptorSet,
    ) -> Vec<vk::WriteDescriptorSet<'_>> {
        self.descriptor_writes_of(scratch, set, 0..self.rec.writes.len())
    }

    /// [`VkPipe::descriptor_writes`] of the gathered entries in `entries` only.
    fn descriptor_writes_of(
        &self,
        scratch: Vec<vk::WriteDescriptorSet<'static>>,
        set: vk::DescriptorSet,
        entries: std::ops::Range<usize>,
    ) -> Vec<vk::WriteDescriptorSet<'_>> {
        let mut out = recycle(scratch);
        let entries = self.rec.writes.get(entries).unwrap_or_default();
        out.extend(entries.iter().map(|&(binding, ty, at, n)| {
            let w = vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(binding)
                .descriptor_type(ty);
            let n = n as usize;
            match ty {
                vk::DescriptorType::COMBINED_IMAGE_SAMPLER | vk::DescriptorType::STORAGE_IMAGE => {
                    w.image_info(&self.rec.images[at..at + n])
                }
                vk::DescriptorType::UNIFORM_TEXEL_BUFFER
                | vk::DescriptorType::STORAGE_TEXEL_BUFFER => {
                    w.texel_buffer_view(&self.rec.texels[at..at + n])
                }
                _ => w.buffer_info(&self.rec.buffers[at..at + n]),
            }
        }));
        out
    }
}

/// An empty vector of writes with `v`'s allocation, for another lifetime (the writes point
/// into the scratch lists of one draw): no allocation per draw. The collection happens in
/// place (the standard library reuses the buffer of a vector iterated into one of a type of
/// the same size and alignment), and there is nothing to map.
fn recycle<'a, 'b>(mut v: Vec<vk::WriteDescriptorSet<'a>>) -> Vec<vk::WriteDescriptorSet<'b>> {
    v.clear();
    v.into_iter()
        .map(|_| backend_bug("an emptied vector yielded a write"))
        .collect()
}

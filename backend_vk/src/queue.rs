//! Record dispatch: each archived record is decoded, checked (spans against the stage, handles against the
//! tables) and dispatched to the device (objects, uploads) or to the current context (state)
//! and its verbs; replies go to the outbox in request order.

use tessera_wire::batch::decode_record;
use tessera_wire::context::slot_mut;
use tessera_wire::record::{FramebufferRef, PixelDestination, Record};
use tessera_wire::{BatchView, Outbox, Reply, SessionError, Stage};

use crate::VulkanBackend;
use crate::command::ContextState;

impl VulkanBackend {
    /// Applies every record of a batch, then submits what it recorded.
    pub(crate) fn apply_batch(
        &mut self,
        batch: BatchView<'_>,
        out: &mut Outbox,
    ) -> Result<(), SessionError> {
        let stage = Stage::new(batch.stage);
        let mut result = Ok(());
        for archived in batch.archived.records.iter() {
            let record = decode_record(archived)?;
            if let Err(e) = self.apply_record(&record, stage, out) {
                result = Err(e);
                break;
            }
        }
        if result.is_ok() && self.dev.rec.work && self.dev.rec.active_queries == 0 {
            result = self.dev.submit().map(|_| ());
        }
        self.dev.drain_messages();
        out.events.append(&mut self.dev.events);
        result
    }

    fn apply_record(
        &mut self,
        record: &Record,
        stage: Stage<'_>,
        out: &mut Outbox,
    ) -> Result<(), SessionError> {
        use Record as R;
        let dev = &mut self.dev;
        match record {
            R::CreateContext { context } => {
                self.contexts.create(*context, || Ok(ContextState::new()))?
            }
            R::SetContext { context } => {
                self.contexts.set_current(*context)?;
            }
            R::DestroyContext { context } => {
                self.contexts.destroy(*context)?;
            }

            R::CreateSurface { surface, desc } => dev.create_surface(*surface, *desc)?,
            R::DestroySurface { surface } => dev.destroy_surface(*surface)?,
            R::CreateFramebuffer { framebuffer } => dev.create_framebuffer(*framebuffer)?,
            R::SetFramebufferState { framebuffer, state } => {
                dev.set_framebuffer_state(*framebuffer, **state)?
            }
            R::DestroyFramebuffer { framebuffer } => dev.destroy_framebuffer(*framebuffer)?,
            R::BindFramebuffer { framebuffer } => {
                match framebuffer {
                    FramebufferRef::None => {}
                    FramebufferRef::Surface(h) => {
                        dev.surfaces.get("BindFramebuffer", *h)?;
                    }
                    FramebufferRef::Object(h) => {
                        dev.framebuffers.get("BindFramebuffer", *h)?;
                    }
                }
                let ctx = self.contexts.current("BindFramebuffer")?;
                ctx.desired.framebuffer = *framebuffer;
            }
            R::SetDrawBuffers { buffers } => {
                let ctx = self.contexts.current("SetDrawBuffers")?;
                ctx.desired.draw_buffers = *buffers;
            }

            R::CreateBuffer { buffer, size } => dev.create_buffer(*buffer, *size)?,
            R::DestroyBuffer { buffer } => dev.destroy_buffer(*buffer)?,
            R::WriteBuffer {
                buffer,
                offset,
                data,
            } => dev.write_buffer(*buffer, *offset, stage.get(*data)?)?,
            R::CopyBuffer { src, dst, region } => dev.copy_buffer(
                *src,
                *dst,
                region.src_offset,
                region.dst_offset,
                region.size,
            )?,
            R::ReadBuffer {
                buffer,
                range,
                reply,
            } => {
                let bytes = dev.read_buffer("ReadBuffer", *buffer, range.offset, range.size)?;
                out.replies.push((*reply, Reply::Bytes(bytes)));
            }

            R::CreateTexture { texture, kind } => dev.create_texture(*texture, *kind)?,
            R::DestroyTexture { texture } => dev.destroy_texture(*texture)?,
            R::DefineTextureImage {
                texture,
                level,
                face,
                format,
                width,
                height,
                depth,
                samples,
                fixed_sample_locations: _,
            } => dev.define_texture_image(
                *texture,
                *level,
                *face,
                *format,
                [*width, *height, *depth],
                *samples,
            )?,
            R::WriteTexture {
                texture,
                level,
                face,
                region,
                layout,
                data,
            } => dev.write_texture(
                *texture,
                *level,
                *face,
                region.origin,
                region.size,
                *layout,
                stage.get(*data)?,
            )?,
            R::WriteCompressedTexture {
                texture,
                level,
                face,
                region,
                data,
            } => dev.write_compressed_texture(
                *texture,
                *level,
                *face,
                region.origin,
                region.size,
                stage.get(*data)?,
            )?,
            R::WriteTextureFromBuffer {
                texture,
                level,
                face,
                layout,
                source,
            } => dev.write_texture_from_buffer(*texture, *level, *face, *layout, source)?,
            R::WriteCompressedTextureFromBuffer {
                texture,
                level,
                face,
                source,
            } => {
                let blocks = dev.read_buffer(
                    "WriteCompressedTextureFromBuffer",
                    source.buffer,
                    source.range.offset,
                    source.range.size,
                )?;
                dev.write_compressed_texture(
                    *texture,
                    *level,
                    *face,
                    source.region.origin,
                    source.region.size,
                    &blocks,
                )?;
            }
            R::ReadTexture {
                texture,
                level,
                face,
                layout,
                read,
            } => {
                let bytes = dev.read_texture(*texture, *level, *face, *layout, read.size)?;
                self.deliver("ReadTexture", bytes, &read.dst, out)?;
            }
            R::CopyTexture {
                texture,
                level,
                face,
                region,
            } => dev.copy_texture(
                *texture,
                *level,
                *face,
                &region.src,
                region.origin,
                region.rect,
            )?,
            R::GenerateMipmap { texture, base, max } => {
                dev.generate_mipmap(*texture, *base, *max)?
            }
            R::SetTextureView { texture, view } => dev.set_texture_view(*texture, *view)?,
            R::SetTextureBuffer {
                texture,
                buffer,
                format,
                range,
            } => dev.set_texture_buffer(*texture, *buffer, *format, range.offset, range.size)?,
            R::CreateRenderbuffer { renderbuffer } => dev.create_renderbuffer(*renderbuffer)?,
            R::DefineRenderbuffer {
                renderbuffer,
                format,
                width,
                height,
                samples,
            } => dev.define_renderbuffer(*renderbuffer, *format, *width, *height, *samples)?,
            R::DestroyRenderbuffer { renderbuffer } => dev.destroy_renderbuffer(*renderbuffer)?,

            R::CreateBlendState { cso, state } => {
                let id = dev.interned.blend.intern(state);
                dev.blends.insert("CreateBlendState", *cso, id)?
            }
            R::BindBlendState { cso } => {
                let id = *dev.blends.get("BindBlendState", *cso)?;
                let ctx = self.contexts.current("BindBlendState")?;
                ctx.blend = id;
            }
            R::DestroyBlendState { cso } => {
                dev.blends.remove("DestroyBlendState", *cso)?;
            }
            R::CreateDepthStencilState { cso, state } => {
                let id = dev.interned.depth_stencil.intern(state);
                dev.depth_stencils
                    .insert("CreateDepthStencilState", *cso, id)?
            }
            R::BindDepthStencilState { cso } => {
                let id = *dev.depth_stencils.get("BindDepthStencilState", *cso)?;
                let ctx = self.contexts.current("BindDepthStencilState")?;
                ctx.depth_stencil = id;
            }
            R::DestroyDepthStencilState { cso } => {
                dev.depth_stencils
                    .remove("DestroyDepthStencilState", *cso)?;
            }
            R::CreateRasterState { cso, state } => {
                let id = dev.interned.raster.intern(state);
                dev.rasters.insert("CreateRasterState", *cso, id)?
            }
            R::BindRasterState { cso } => {
                let id = *dev.rasters.get("BindRasterState", *cso)?;
                let ctx = self.contexts.current("BindRasterState")?;
                ctx.raster = id;
            }
            R::DestroyRasterState { cso } => {
                dev.rasters.remove("DestroyRasterState", *cso)?;
            }
            R::CreateSamplerState { cso, state } => dev.create_sampler(*cso, state)?,
            R::DestroySamplerState { cso } => dev.destroy_sampler(*cso)?,
            R::CreateVertexLayout { cso, layout } => {
                let id = dev.interned.layout.intern(layout);
                dev.layouts.insert("CreateVertexLayout", *cso, id)?
            }
            R::BindVertexLayout { cso } => {
                let id = *dev.layouts.get("BindVertexLayout", *cso)?;
                let ctx = self.contexts.current("BindVertexLayout")?;
                ctx.layout = id;
            }
            R::DestroyVertexLayout { cso } => {
                dev.layouts.remove("DestroyVertexLayout", *cso)?;
            }

            R::CreateProgram { program, desc } => dev.create_program(*program, desc, stage)?,
            R::BindProgram { program } => {
                dev.programs.check("BindProgram", *program)?;
                let ctx = self.contexts.current("BindProgram")?;
                ctx.desired.program = *program;
            }
            R::DestroyProgram { program } => dev.destroy_program(*program)?,
            R::SetUniforms { data } => {
                let bytes = stage.get(*data)?;
                self.contexts.current("SetUniforms")?.set_uniforms(bytes);
            }
            R::BindUniformBuffer {
                slot,
                buffer,
                offset,
                size,
            } => {
                const N: &str = "BindUniformBuffer";
                dev.buffers.check(N, *buffer)?;
                let ctx = self.contexts.current(N)?;
                *slot_mut(N, &mut ctx.desired.uniform_buffers, *slot)? = (*buffer, *offset, *size);
            }
            R::BindTexture {
                slot,
                texture,
                sampler,
            } => {
                const N: &str = "BindTexture";
                dev.textures.check(N, *texture)?;
                dev.samplers.check(N, *sampler)?;
                let ctx = self.contexts.current(N)?;
                *slot_mut(N, &mut ctx.desired.textures, *slot)? = (*texture, *sampler);
            }

            R::SetVertexBuffer {
                slot,
                buffer,
                offset,
            } => {
                const N: &str = "SetVertexBuffer";
                dev.buffers.check(N, *buffer)?;
                let ctx = self.contexts.current(N)?;
                *slot_mut(N, &mut ctx.desired.vertex_buffers, *slot)? = (*buffer, *offset);
            }
            R::SetIndexBuffer { buffer } => {
                dev.buffers.check("SetIndexBuffer", *buffer)?;
                let ctx = self.contexts.current("SetIndexBuffer")?;
                ctx.desired.index_buffer = *buffer;
            }
            R::SetGenericAttrib { index, value } => {
                const N: &str = "SetGenericAttrib";
                let ctx = self.contexts.current(N)?;
                *slot_mut(N, &mut ctx.desired.generic, *index)? = *value;
                ctx.generic_at = None;
            }
            R::SetPrimitiveRestart { enabled, index } => {
                let ctx = self.contexts.current("SetPrimitiveRestart")?;
                ctx.desired.primitive_restart = (*enabled, *index);
            }

            R::SetViewport { rect, near, far } => {
                let ctx = self.contexts.current("SetViewport")?;
                ctx.desired.viewport = (*rect, *near, *far);
            }
            R::SetScissor { rect } => {
                let ctx = self.contexts.current("SetScissor")?;
                ctx.desired.scissor = *rect;
            }
            R::SetBlendColor { color } => {
                let ctx = self.contexts.current("SetBlendColor")?;
                ctx.desired.blend_color = *color;
            }
            R::SetStencilRef { front, back } => {
                let ctx = self.contexts.current("SetStencilRef")?;
                ctx.desired.stencil_ref = (*front, *back);
            }
            R::SetDepthBias { factor, units } => {
                let ctx = self.contexts.current("SetDepthBias")?;
                ctx.desired.depth_bias = (*factor, *units);
            }
            R::SetLineWidth { width } => {
                let ctx = self.contexts.current("SetLineWidth")?;
                ctx.desired.line_width = *width;
            }
            R::SetPointSize { size } => {
                let ctx = self.contexts.current("SetPointSize")?;
                ctx.desired.point_size = *size;
            }
            R::SetSampleMask {
                coverage,
                invert,
                mask,
            } => {
                let ctx = self.contexts.current("SetSampleMask")?;
                ctx.desired.sample_mask = (*coverage, *invert, *mask);
            }

            R::Draw {
                topology,
                first,
                count,
                instances,
            } => {
                let ctx = self.contexts.current("Draw")?;
                self.dev.draw(ctx, *topology, *first, *count, *instances)?;
            }
            R::DrawIndexed {
                topology,
                index_type,
                offset,
                count,
                instances,
                base_vertex,
            } => {
                let ctx = self.contexts.current("DrawIndexed")?;
                self.dev.draw_indexed(
                    ctx,
                    *topology,
                    *index_type,
                    *offset,
                    *count,
                    *instances,
                    *base_vertex,
                )?;
            }
            R::Clear {
                mask,
                color,
                depth,
                stencil,
            } => {
                let ctx = self.contexts.current("Clear")?;
                self.dev.clear(ctx, *mask, *color, *depth, *stencil)?;
            }
            R::ClearBuffer { draw_buffer, value } => {
                let ctx = self.contexts.current("ClearBuffer")?;
                self.dev.clear_buffer(ctx, *draw_buffer, *value)?;
            }
            R::Blit {
                src,
                regions,
                mask,
                linear,
            } => {
                let ctx = self.contexts.current("Blit")?;
                self.dev.blit(ctx, src, regions, *mask, *linear)?;
            }
            R::ReadPixels {
                src,
                layout,
                region,
            } => {
                let bytes = dev.read_pixels(src, region.rect, *layout)?;
                self.deliver("ReadPixels", bytes, &region.dst, out)?;
            }
            R::Flush => {
                if dev.rec.work {
                    dev.submit()?;
                }
            }
            R::Present { surface } => {
                dev.surfaces.get("Present", *surface)?;
                dev.submit()?;
            }
            R::Finish { reply } => {
                let serial = dev.submit()?;
                dev.wait_serial(serial)?;
                out.replies.push((*reply, Reply::Done));
            }

            R::CreateQuery { query, kind } => dev.create_query(*query, *kind)?,
            R::BeginQuery { query } => dev.begin_query(*query)?,
            R::EndQuery { query } => dev.end_query(*query)?,
            R::QueryTimestamp { query } => dev.query_timestamp(*query)?,
            R::QueryResult { query, reply } => {
                let v = dev.query_result(*query)?;
                out.replies.push((*reply, Reply::Query(v)));
            }
            R::DestroyQuery { query } => dev.destroy_query(*query)?,
            R::InsertFence { fence } => dev.insert_fence(*fence)?,
            R::WaitFence {
                fence,
                timeout_ns,
                reply,
            } => {
                let signalled = dev.wait_fence(*fence, *timeout_ns)?;
                out.replies.push((*reply, Reply::Fence(signalled)));
            }
            R::DestroyFence { fence } => dev.destroy_fence(*fence)?,
        }
        Ok(())
    }

    /// Puts read-back bytes where the record asked: a reply, or a buffer range.
    fn deliver(
        &mut self,
        record: &'static str,
        bytes: Vec<u8>,
        dst: &PixelDestination,
        out: &mut Outbox,
    ) -> Result<(), SessionError> {
        match dst {
            PixelDestination::Reply(reply) => out.replies.push((*reply, Reply::Bytes(bytes))),
            PixelDestination::Buffer { buffer, offset } => {
                self.dev
                    .buffer_range(record, *buffer, *offset, bytes.len() as u64)?;
                self.dev.write_buffer(*buffer, *offset, &bytes)?;
            }
        }
        Ok(())
    }
}

//! # The dispatcher: one walk over a batch for every backend
//!
//! A backend writes only what each record means to its driver. Everything else about
//! applying a batch happens here, once, for the null, GLES and Vulkan backends alike:
//!
//! - **decoding**: each record is matched in its archived form, straight out of the
//!   validated batch; its fields are read in place (a `u32_le` is a `u32` on every target
//!   Tessera builds for), and no owned [`Record`](crate::record::Record) is built. The one
//!   record whose payload owns memory, `CreateProgram`, has its [`ProgramDesc`] (a few short
//!   vectors) deserialized: it is rare, and the backend then compiles shaders;
//! - **spans**: every stage span is checked against the stage before a backend sees its
//!   bytes;
//! - **handles**: the [`Registry`] keeps one generation-checked table per object kind (the
//!   same [`SlotTable`] every backend uses for its own objects), so a create must take a free
//!   slot with a newer generation, and every other use must name a live object of the right
//!   kind: a backend never sees a stale or forged handle. A bound CSO may not be destroyed;
//!   program descriptions must be whole SPIR-V modules with well-formed slot arrays;
//! - **contexts**: `CreateContext`/`SetContext`/`DestroyContext` are carried out on the
//!   session's [`Contexts`]; every state record and verb reaches the backend with the current
//!   context's state;
//! - **state records** (`Set*`, and the `Bind*` records of resources) store their values in
//!   the current context's [`DesiredState`] here, then tell the backend which
//!   [`StateGroup`] changed: backends differ in what they do about a change (dirty bits,
//!   descriptor invalidation), not in what the state is;
//! - **replies**: the backend returns the value a record asks for (bytes, a query result, a
//!   fence status), and the dispatcher files it under the record's reply id, or writes read
//!   pixels into the pack buffer the record names.
//!
//! ## Adding a record
//! A new record touches three places, and the compiler finds the rest:
//! 1. the record itself, in [`crate::record::Record`] (the wire fingerprint changes with it);
//! 2. its emitter in the frontend (`systems` or `engine`), at the verb or setter that needs it;
//! 3. one method per backend (null, GLES, Vulkan): add it to the domain trait it belongs to
//!    ([`BufferPipe`], [`TexturePipe`], [`FramebufferPipe`], [`CsoPipe`], [`ProgramPipe`],
//!    [`DrawPipe`], [`ComputePipe`], [`TransformFeedbackPipe`], [`QueryPipe`], or a new one
//!    that [`Pipe`]
//!    then requires) with its arm in
//!    `Dispatcher::apply_record` below: the arm checks the record's spans and handles and
//!    calls the method, and every backend fails to build until it implements it. A state
//!    record instead gets a field in [`DesiredState`] and a [`StateGroup`]; every backend's
//!    `state_changed` matches on the groups exhaustively, so each of them fails to build
//!    until it says what the new group means to it.
//!
//! Example: tessellation's `SetPatchVertices { count }` record has a `patch_vertices`
//! field in [`DesiredState`], [`StateGroup::PatchVertices`], an arm here storing the count,
//! and a line in each backend's `state_changed`. The compute verbs
//! (`Dispatch`, `DispatchIndirect`, `MemoryBarrier`) went the other way: methods of
//! [`ComputePipe`], an arm each here, and one implementation per backend; their state
//! record, `BindStorageBuffer`, is [`StateGroup::StorageBuffers`].

use rkyv::Deserialize;
use rkyv::rancor::{Failure, Strategy};

use crate::backend::{BatchView, Outbox, Reply, SessionError};
use crate::batch::Stage;
use crate::context::{Contexts, DesiredState, slot_mut, viewport_range};
use crate::format::{IndexType, PixelLayout, QueryKind, ShaderStage, TextureKind, Topology};
use crate::handle::{
    BlendHandle, BufferHandle, DepthStencilHandle, FenceHandle, FramebufferHandle, Handle,
    ObjectKind, ProgramHandle, QueryHandle, RasterHandle, RawHandle, RenderbufferHandle,
    SamplerHandle, SurfaceHandle, TextureHandle, TransformFeedbackHandle, VertexLayoutHandle,
};
use crate::heap_ranges::HeapRanges;
use crate::record::{
    ArchivedRecord, BufferBlocks, BufferCopy, BufferPixels, BufferRange, ClearValue,
    FramebufferRef, HeapRange, ImageCopy, ImageObject, MAX_XFB_BUFFERS, MULTI_DRAW_INDEXED_SIZE,
    MULTI_DRAW_SIZE, PixelDestination, ProgramDesc, QueryWrite, ReadSource, TextureCopy,
    TextureRegion, TextureViewDesc, XfbBinding, XfbPrimitive,
};
use crate::state::{
    Attachment, BlendState, DepthStencilState, FramebufferState, RasterState, Rect, Region,
    SamplerState, SurfaceDesc, TextureView, VertexLayout,
};
use crate::table::{Keyed, SlotTable};
use crate::transport::heap::HeapView;

/// Reads an archived value as its native type. For the plain-data types records carry
/// this is a field-by-field load (little-endian integers are native on every target), and
/// it never allocates.
#[inline(always)]
fn de<T, A>(archived: &A) -> Result<T, SessionError>
where
    A: Deserialize<T, Strategy<(), Failure>> + ?Sized,
{
    archived
        .deserialize(Strategy::wrap(&mut ()))
        .map_err(|_| SessionError::Decode("a record field did not decode".to_owned()))
}

/// A group of a context's state that a record changed, for [`ContextPipe::state_changed`]. The
/// new values are already in the context's [`DesiredState`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateGroup {
    /// `BindFramebuffer`: [`DesiredState::framebuffer`].
    Framebuffer,
    /// `SetDrawBuffers`: [`DesiredState::draw_buffers`].
    DrawBuffers,
    /// `SetViewport`.
    Viewport,
    /// `SetScissor`.
    Scissor,
    /// `SetBlendColor`.
    BlendColor,
    /// `SetStencilRef`.
    StencilRef,
    /// `SetDepthBias`.
    DepthBias,
    /// `SetLineWidth`.
    LineWidth,
    /// `SetPointSize`.
    PointSize,
    /// `SetPatchVertices`.
    PatchVertices,
    /// `DesiredState::draw_id` (a multi-draw drawn one draw at a time).
    DrawId,
    /// `SetDrawCount`.
    DrawCount,
    /// `SetSampleMask`.
    SampleMask,
    /// `BindProgram`.
    Program,
    /// `SetUniforms`: new default-block bytes.
    Uniforms,
    /// `BindUniformBuffer`.
    UniformBuffers,
    /// `BindStorageBuffer`.
    StorageBuffers,
    /// `BindTexture`.
    Textures,
    /// `BindImage`.
    Images,
    /// `SetVertexBuffer`.
    VertexBuffers,
    /// `SetIndexBuffer`.
    IndexBuffer,
    /// `SetGenericAttrib`.
    GenericAttribs,
    /// `SetPrimitiveRestart`.
    PrimitiveRestart,
}

/// A backend's per-context state: it holds the context's [`DesiredState`], which the
/// dispatcher writes for state records.
pub trait PipeContext {
    /// The state the context's records have set.
    fn desired(&mut self) -> &mut DesiredState;
}

impl PipeContext for DesiredState {
    fn desired(&mut self) -> &mut DesiredState {
        self
    }
}

/// What each record means to a backend: one method per record kind (state records share
/// [`ContextPipe::state_changed`]), grouped by domain as a backend's files are (gallium's
/// `pipe_context`, wgpu-hal's `Device` and `CommandEncoder`). A backend implements each
/// group where its domain lives, and is a [`Pipe`] once it implements them all.
/// Arguments are checked before a method runs: every handle names a live object of its
/// kind (creates: a free slot), every byte slice lies inside the stage. An error ends the
/// session.
pub trait Pipe:
    ContextPipe
    + BufferPipe
    + TexturePipe
    + FramebufferPipe
    + CsoPipe
    + ProgramPipe
    + DrawPipe
    + ComputePipe
    + QueryPipe
    + TransformFeedbackPipe
{
}

impl<T> Pipe for T where
    T: ContextPipe
        + BufferPipe
        + TexturePipe
        + FramebufferPipe
        + CsoPipe
        + ProgramPipe
        + DrawPipe
        + ComputePipe
        + QueryPipe
        + TransformFeedbackPipe
{
}

/// Contexts, state records, and what happens around each record and batch.
pub trait ContextPipe {
    /// The backend's state of one GL context.
    type Context: PipeContext;

    /// `CreateContext`: a context at GL's initial state.
    fn create_context(&mut self) -> Result<Self::Context, SessionError>;
    /// `SetContext` made `ctx` current after another context (native state is whatever
    /// the previous one left).
    fn context_switched(&mut self, ctx: &mut Self::Context);
    /// `DestroyContext`.
    fn destroy_context(&mut self, ctx: Self::Context);
    /// A state record changed `group` of the current context (already in its
    /// [`DesiredState`]).
    fn state_changed(&mut self, ctx: &mut Self::Context, group: StateGroup);
    /// Called after each record applied without error (debug checks, statistics).
    fn record_applied(&mut self, _name: &'static str, _record: &ArchivedRecord) {}
    /// Called once per batch after its last record (or the failing one): submit what was
    /// recorded, hand over events. What it returns is the batch's result.
    fn batch_applied(&mut self, result: R, _out: &mut Outbox) -> R {
        result
    }
}

/// Buffer objects.
pub trait BufferPipe {
    /// `CreateBuffer`: new storage of `size` zero bytes, for a new handle or a live one.
    fn create_buffer(&mut self, buffer: BufferHandle, size: u64) -> R;
    /// `DestroyBuffer`.
    fn destroy_buffer(&mut self, buffer: BufferHandle) -> R;
    /// `WriteBuffer`, and read-backs into a pack buffer (`record` names which).
    fn write_buffer(&mut self, record: &'static str, write: BufferWrite<'_>) -> R;
    /// `CopyBuffer`.
    fn copy_buffer(&mut self, src: BufferHandle, dst: BufferHandle, region: BufferCopy) -> R;
    /// `FillBuffer`: by default the pattern repeated over the range and written as a
    /// `WriteBuffer` is (the GLES backend's way: ES has no buffer clear).
    fn fill_buffer(&mut self, buffer: BufferHandle, range: BufferRange, pattern: &[u8]) -> R {
        let bytes = crate::pixel::repeat_pattern(pattern, range.size);
        let write = BufferWrite {
            buffer,
            offset: range.offset,
            bytes: &bytes,
            unsynchronized: false,
        };
        self.write_buffer("FillBuffer", write)
    }
    /// `ReadBuffer`: the bytes of the range.
    fn read_buffer(&mut self, buffer: BufferHandle, range: BufferRange) -> Bytes;
}

/// Textures: images, uploads, read-backs, views.
pub trait TexturePipe {
    /// `CreateTexture`.
    fn create_texture(&mut self, texture: TextureHandle, kind: TextureKind) -> R;
    /// `CreateTextureView` (the storage texture is live).
    fn create_texture_view(&mut self, texture: TextureHandle, view: TextureViewDesc) -> R;
    /// `DestroyTexture`.
    fn destroy_texture(&mut self, texture: TextureHandle) -> R;
    /// `DefineTextureImage`.
    fn define_texture_image(&mut self, texture: TextureHandle, image: TextureImage) -> R;
    /// `WriteTexture`.
    fn write_texture(&mut self, texture: TextureHandle, write: TextureWrite<'_>) -> R;
    /// `WriteCompressedTexture`.
    fn write_compressed_texture(&mut self, texture: TextureHandle, write: BlockWrite<'_>) -> R;
    /// `WriteTextureFromBuffer`.
    fn write_texture_from_buffer(&mut self, texture: TextureHandle, write: FromBuffer) -> R;
    /// `WriteCompressedTextureFromBuffer`.
    fn write_blocks_from_buffer(&mut self, t: TextureHandle, at: ImageRef, src: BufferBlocks) -> R;
    /// `ClearTexture`: the box of the image set to the value, every sample of it.
    fn clear_texture(&mut self, texture: TextureHandle, clear: TextureClear) -> R;
    /// `ReadTexture`: the image as tightly packed rows of `read.layout`.
    fn read_texture(&mut self, texture: TextureHandle, read: TextureReadback) -> Bytes;
    /// `ReadCompressedTexture`: the image's blocks, slice by slice, rows tightly packed.
    fn read_compressed_texture(&mut self, texture: TextureHandle, read: BlockReadback) -> Bytes;
    /// `ExportTexture`: level 0 copied into exportable memory once the work before it
    /// completed, as an opaque file descriptor. A backend that cannot (its caps say so, and
    /// the engine never asks it) ends the session.
    fn export_texture(
        &mut self,
        texture: TextureHandle,
        fence_token: u64,
    ) -> Result<crate::backend::ExportedMemory, SessionError> {
        let _ = (texture, fence_token);
        Err(crate::backend::bad_value(
            "ExportTexture",
            "this backend exports no memory",
        ))
    }
    /// `ExportSurface`: the surface's colour image, as `ExportTexture`.
    fn export_surface(
        &mut self,
        surface: SurfaceHandle,
        fence_token: u64,
    ) -> Result<crate::backend::ExportedMemory, SessionError> {
        let _ = (surface, fence_token);
        Err(crate::backend::bad_value(
            "ExportSurface",
            "this backend exports no memory",
        ))
    }
    /// `HandOverTexture`: level 0 copied into a new image of the host's device once the
    /// work before it completed, or (`signal`) with a semaphore the copy signals. A backend
    /// on its own device ends the session.
    fn hand_over_texture(
        &mut self,
        texture: TextureHandle,
        signal: bool,
    ) -> Result<crate::backend::HostImage, SessionError> {
        let _ = (texture, signal);
        Err(crate::backend::bad_value(
            "HandOverTexture",
            "this backend renders on no host's device",
        ))
    }
    /// `HandOverTexture` with `gl_texture`: level 0 copied into a new native texture of the
    /// host's GL share group once the work before it completed, or (`signal`) with a native
    /// fence after the copy. A backend not in a host's share group ends the session.
    fn hand_over_gl_texture(
        &mut self,
        texture: TextureHandle,
        signal: bool,
    ) -> Result<crate::backend::HostTexture, SessionError> {
        let _ = (texture, signal);
        Err(crate::backend::bad_value(
            "HandOverTexture",
            "this backend shares no host's GL context",
        ))
    }
    /// `ImportTextureMemory`: the texture's storage moved into the host's memory, the
    /// descriptor taken from the process's table. A backend whose caps have no
    /// `memory_export` (the engine never asks it) closes the descriptor and ends the session.
    fn import_texture_memory(
        &mut self,
        texture: TextureHandle,
        memory: crate::record::TextureMemory,
    ) -> R {
        let _ = texture;
        drop(crate::backend::take_handed_fd(memory.fd_token));
        Err(crate::backend::bad_value(
            "ImportTextureMemory",
            "this backend imports no memory",
        ))
    }
    /// `ExportEglImage`: a native `EGLImage` of level 0 once the work before it completed,
    /// as a token of the process's table (0: the driver refused). A backend whose caps have
    /// no `egl_images` (the engine never asks it) ends the session.
    fn export_egl_image(&mut self, texture: TextureHandle) -> Result<u64, SessionError> {
        let _ = texture;
        Err(crate::backend::bad_value(
            "ExportEglImage",
            "this backend makes no EGL images",
        ))
    }
    /// `ImportEglImage`: level 0 of `texture` becomes the token's image.
    fn import_egl_image(&mut self, texture: TextureHandle, token: u64) -> R {
        let _ = (texture, token);
        Err(crate::backend::bad_value(
            "ImportEglImage",
            "this backend makes no EGL images",
        ))
    }
    /// `DestroyEglImage`: the token's image released.
    fn destroy_egl_image(&mut self, token: u64) -> R {
        let _ = token;
        Ok(())
    }
    /// `ExportEglRenderbufferImage`: a native `EGLImage` of a renderbuffer once the work
    /// before it completed, as a token of the process's table (0: the driver refused). A
    /// backend whose caps have no `egl_images` (the engine never asks it) ends the session.
    fn export_egl_renderbuffer_image(
        &mut self,
        renderbuffer: RenderbufferHandle,
    ) -> Result<u64, SessionError> {
        let _ = renderbuffer;
        Err(crate::backend::bad_value(
            "ExportEglRenderbufferImage",
            "this backend makes no EGL images",
        ))
    }
    /// `ExportDmaBuf`: the token's image as a dma-buf whose descriptors the backend left in
    /// the process's table, or `None` where the driver exports none.
    fn export_dma_buf(
        &mut self,
        token: u64,
    ) -> Result<Option<crate::backend::DmaBufPlanes>, SessionError> {
        let _ = token;
        Ok(None)
    }
    /// `ImportDmaBufTexture`: level 0 of `texture` becomes a native image of the dma-buf,
    /// whose descriptors the backend takes from the process's table (and closes). A backend
    /// whose display imports no dma-bufs closes them and leaves the texture its own storage.
    fn import_dma_buf_texture(
        &mut self,
        texture: TextureHandle,
        image: crate::record::DmaBufImport,
    ) -> R {
        let _ = texture;
        for plane in &image.planes {
            drop(crate::backend::take_handed_fd(plane.fd_token));
        }
        Ok(())
    }
    /// `ImportEglRenderbufferImage`: the renderbuffer's storage becomes the token's image.
    fn import_egl_renderbuffer_image(&mut self, renderbuffer: RenderbufferHandle, token: u64) -> R {
        let _ = (renderbuffer, token);
        Err(crate::backend::bad_value(
            "ImportEglRenderbufferImage",
            "this backend makes no EGL images",
        ))
    }
    /// `WaitSemaphore`: later work waits for the semaphore. A backend whose caps have no
    /// `semaphore_fd` (the engine never asks it) closes the descriptor and ends the session.
    fn wait_semaphore(&mut self, op: crate::record::SemaphoreOp) -> R {
        drop(crate::backend::take_handed_fd(op.fd_token));
        Err(crate::backend::bad_value(
            "WaitSemaphore",
            "this backend imports no semaphore",
        ))
    }
    /// `SignalSemaphore`: earlier work submitted signalling the semaphore, as
    /// `wait_semaphore` is refused elsewhere.
    fn signal_semaphore(&mut self, op: crate::record::SemaphoreOp) -> R {
        drop(crate::backend::take_handed_fd(op.fd_token));
        Err(crate::backend::bad_value(
            "SignalSemaphore",
            "this backend imports no semaphore",
        ))
    }
    /// `GenerateMipmap`: levels `base + 1 ..= max` from level `base`.
    fn generate_mipmap(&mut self, texture: TextureHandle, base: u8, max: u8) -> R;
    /// `SetTextureView`.
    fn set_texture_view(&mut self, texture: TextureHandle, view: TextureView) -> R;
    /// `SetTextureBuffer`.
    fn set_texture_buffer(&mut self, texture: TextureHandle, buffer: TexelBuffer) -> R;
    /// `CopyImage` (every object it names is live).
    fn copy_image(&mut self, copy: ImageCopy) -> R;
}

/// Surfaces, framebuffer objects, renderbuffers, and the verbs that read a framebuffer into
/// memory or a texture.
pub trait FramebufferPipe {
    /// `CreateSurface`.
    fn create_surface(&mut self, surface: SurfaceHandle, desc: SurfaceDesc) -> R;
    /// `DestroySurface`.
    fn destroy_surface(&mut self, surface: SurfaceHandle) -> R;
    /// `CreateFramebuffer`.
    fn create_framebuffer(&mut self, framebuffer: FramebufferHandle) -> R;
    /// `SetFramebufferState` (every attachment names a live object).
    fn set_framebuffer_state(&mut self, fb: FramebufferHandle, state: FramebufferState) -> R;
    /// `DestroyFramebuffer`.
    fn destroy_framebuffer(&mut self, framebuffer: FramebufferHandle) -> R;
    /// `CreateRenderbuffer`.
    fn create_renderbuffer(&mut self, renderbuffer: RenderbufferHandle) -> R;
    /// `DefineRenderbuffer`.
    fn define_renderbuffer(&mut self, rb: RenderbufferHandle, storage: RenderbufferStorage) -> R;
    /// `DestroyRenderbuffer`.
    fn destroy_renderbuffer(&mut self, renderbuffer: RenderbufferHandle) -> R;
    /// `ReadPixels`: the rectangle as tightly packed rows of `layout`.
    fn read_pixels(&mut self, src: ReadSource, rect: Rect, layout: PixelLayout) -> Bytes;
    /// `CopyTexture`: a framebuffer rectangle into one image of a texture.
    fn copy_texture(&mut self, texture: TextureHandle, at: ImageRef, region: TextureCopy) -> R;
}

/// Constant state objects.
pub trait CsoPipe: ContextPipe {
    /// `CreateBlendState`.
    fn create_blend_state(&mut self, cso: BlendHandle, state: BlendState) -> R;
    /// `BindBlendState`.
    fn bind_blend_state(&mut self, ctx: &mut Self::Context, cso: BlendHandle) -> R;
    /// `DestroyBlendState` (never the bound one).
    fn destroy_blend_state(&mut self, cso: BlendHandle) -> R;
    /// `CreateDepthStencilState`.
    fn create_depth_stencil_state(&mut self, cso: DepthStencilHandle, s: DepthStencilState) -> R;
    /// `BindDepthStencilState`.
    fn bind_depth_stencil_state(&mut self, ctx: &mut Self::Context, cso: DepthStencilHandle) -> R;
    /// `DestroyDepthStencilState`.
    fn destroy_depth_stencil_state(&mut self, cso: DepthStencilHandle) -> R;
    /// `CreateRasterState`.
    fn create_raster_state(&mut self, cso: RasterHandle, state: RasterState) -> R;
    /// `BindRasterState`.
    fn bind_raster_state(&mut self, ctx: &mut Self::Context, cso: RasterHandle) -> R;
    /// `DestroyRasterState`.
    fn destroy_raster_state(&mut self, cso: RasterHandle) -> R;
    /// `CreateSamplerState`.
    fn create_sampler_state(&mut self, cso: SamplerHandle, state: SamplerState) -> R;
    /// `DestroySamplerState`.
    fn destroy_sampler_state(&mut self, cso: SamplerHandle) -> R;
    /// `CreateVertexLayout`.
    fn create_vertex_layout(&mut self, cso: VertexLayoutHandle, layout: VertexLayout) -> R;
    /// `BindVertexLayout`.
    fn bind_vertex_layout(&mut self, ctx: &mut Self::Context, cso: VertexLayoutHandle) -> R;
    /// `DestroyVertexLayout`.
    fn destroy_vertex_layout(&mut self, cso: VertexLayoutHandle) -> R;
}

/// Programs.
pub trait ProgramPipe {
    /// `CreateProgram`: stage code checked to be whole SPIR-V modules inside the stage.
    fn create_program(&mut self, program: ProgramHandle, desc: &ProgramDesc, stage: Stage<'_>)
    -> R;
    /// `DestroyProgram`.
    fn destroy_program(&mut self, program: ProgramHandle) -> R;
}

/// The verbs that draw into the current context's framebuffer, and submission.
pub trait DrawPipe: ContextPipe {
    /// `Draw`.
    fn draw(&mut self, ctx: &mut Self::Context, draw: DrawArgs) -> R;
    /// `DrawIndexed`.
    fn draw_indexed(&mut self, ctx: &mut Self::Context, draw: DrawIndexedArgs) -> R;
    /// `MultiDraw` and `MultiDrawIndexed`: by default each draw in turn, with
    /// [`DesiredState::draw_id`] its index, or 0 for merged draws (a backend whose driver
    /// draws several in one call, keeping `gl_DrawID` right, overrides it).
    fn multi_draw(&mut self, ctx: &mut Self::Context, draw: MultiDrawArgs<'_>) -> R {
        let mut result = Ok(());
        for (i, d) in draw.draws().enumerate() {
            if i > 0 && !draw.same_draw_id {
                ctx.desired().draw_id = i as u32;
                self.state_changed(ctx, StateGroup::DrawId);
            }
            result = match d {
                DirectDraw::Arrays(a) => self.draw(ctx, a),
                DirectDraw::Elements(e) => self.draw_indexed(ctx, e),
            };
            if result.is_err() {
                break;
            }
        }
        if draw.len() > 1 && !draw.same_draw_id {
            ctx.desired().draw_id = 0;
            self.state_changed(ctx, StateGroup::DrawId);
        }
        result
    }
    /// `DrawIndirect` and `DrawIndexedIndirect`: the buffer is live and holds every
    /// command. Where the context's [`DesiredState::draw_count`] is set, only the first
    /// `min(count, draws)` commands are drawn (the count buffer was live when set; the
    /// backend checks that its `u32` lies inside it).
    fn draw_indirect(&mut self, ctx: &mut Self::Context, draw: DrawIndirectArgs) -> R;
    /// `Clear`.
    fn clear(&mut self, ctx: &mut Self::Context, clear: ClearArgs) -> R;
    /// `ClearBuffer`.
    fn clear_buffer(&mut self, ctx: &mut Self::Context, draw_buffer: u8, value: ClearValue) -> R;
    /// `Blit`.
    fn blit(&mut self, ctx: &mut Self::Context, blit: BlitArgs) -> R;
    /// `BeginConditionalRender` (the query is live): until `end_conditional_render`, the
    /// context's draws, clears, blits and dispatches take effect only if the query's
    /// result now is nonzero (zero when `inverted`). A begin while one is active replaces
    /// it.
    fn begin_conditional_render(
        &mut self,
        ctx: &mut Self::Context,
        query: QueryHandle,
        inverted: bool,
    ) -> R;
    /// `EndConditionalRender` (nothing to do when none is active).
    fn end_conditional_render(&mut self, ctx: &mut Self::Context) -> R;
    /// `Flush`.
    fn flush(&mut self) -> R;
    /// `Finish`: returns once all work completed.
    fn finish(&mut self) -> R;
    /// `Present`.
    fn present(&mut self, surface: SurfaceHandle) -> R;
}

/// Compute dispatches and the memory barriers between shader writes and later uses.
pub trait ComputePipe: ContextPipe {
    /// `Dispatch`: the bound program is a compute program; no count is 0.
    fn dispatch(&mut self, ctx: &mut Self::Context, groups: [u32; 3]) -> R;
    /// `DispatchIndirect`: the buffer is live; `offset` is a multiple of 4.
    fn dispatch_indirect(
        &mut self,
        ctx: &mut Self::Context,
        buffer: BufferHandle,
        offset: u64,
    ) -> R;
    /// `MemoryBarrier`.
    fn memory_barrier(&mut self, ctx: &mut Self::Context, barriers: u32) -> R;
}

/// Transform feedback (capture of the last pre-rasterization stage's outputs) and its
/// objects: a begun capture belongs to its object, which may be paused while another of
/// the same context captures, and which keeps its count after the end for draws from it.
pub trait TransformFeedbackPipe: ContextPipe {
    /// `CreateTransformFeedback`.
    fn create_transform_feedback(&mut self, xfb: TransformFeedbackHandle) -> R;
    /// `DestroyTransformFeedback`.
    fn destroy_transform_feedback(&mut self, xfb: TransformFeedbackHandle) -> R;
    /// `BeginTransformFeedback`: buffer handles checked to be live.
    fn begin_transform_feedback(
        &mut self,
        ctx: &mut Self::Context,
        xfb: TransformFeedbackHandle,
        primitive: XfbPrimitive,
        buffers: [XfbBinding; MAX_XFB_BUFFERS],
    ) -> R;
    /// `PauseTransformFeedback`.
    fn pause_transform_feedback(
        &mut self,
        ctx: &mut Self::Context,
        xfb: TransformFeedbackHandle,
    ) -> R;
    /// `ResumeTransformFeedback`.
    fn resume_transform_feedback(
        &mut self,
        ctx: &mut Self::Context,
        xfb: TransformFeedbackHandle,
    ) -> R;
    /// `EndTransformFeedback`.
    fn end_transform_feedback(
        &mut self,
        ctx: &mut Self::Context,
        xfb: TransformFeedbackHandle,
    ) -> R;
    /// `DrawTransformFeedback`.
    fn draw_transform_feedback(
        &mut self,
        ctx: &mut Self::Context,
        topology: Topology,
        xfb: TransformFeedbackHandle,
        instances: u32,
        binding: u8,
    ) -> R;
}

/// Queries and fences.
pub trait QueryPipe {
    /// `CreateQuery`.
    fn create_query(&mut self, query: QueryHandle, kind: QueryKind) -> R;
    /// `BeginQuery`.
    fn begin_query(&mut self, query: QueryHandle) -> R;
    /// `BeginQueryIndexed`.
    fn begin_query_indexed(&mut self, query: QueryHandle, index: u32) -> R;
    /// `EndQuery`.
    fn end_query(&mut self, query: QueryHandle) -> R;
    /// `QueryTimestamp`.
    fn query_timestamp(&mut self, query: QueryHandle) -> R;
    /// `QueryResult`: the result, once available.
    fn query_result(&mut self, query: QueryHandle) -> Result<u64, SessionError>;
    /// `DestroyQuery`.
    fn destroy_query(&mut self, query: QueryHandle) -> R;
    /// `InsertFence`.
    fn insert_fence(&mut self, fence: FenceHandle) -> R;
    /// `WaitFence`: whether the fence signalled within the timeout.
    fn wait_fence(&mut self, fence: FenceHandle, timeout_ns: u64) -> Result<bool, SessionError>;
    /// `DestroyFence`.
    fn destroy_fence(&mut self, fence: FenceHandle) -> R;
}

/// What most [`Pipe`] methods return: done, or the session ends.
pub type R = Result<(), SessionError>;

/// What read-back methods return: the bytes, or the session ends.
pub type Bytes = Result<Vec<u8>, SessionError>;

/// `WriteBuffer`'s write (and a read-back into a pack buffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferWrite<'a> {
    /// The buffer.
    pub buffer: BufferHandle,
    /// Byte offset.
    pub offset: u64,
    /// The bytes (inside the stage, or read back).
    pub bytes: &'a [u8],
    /// No pending command reads or writes these bytes (`WriteBufferUnsynchronized`): they
    /// may land at once instead of in command order.
    pub unsynchronized: bool,
}

/// `WriteTexture`'s upload into one image of a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureWrite<'a> {
    /// Which image.
    pub at: ImageRef,
    /// Where in it.
    pub region: TextureRegion,
    /// Layout of `bytes` (tightly packed rows).
    pub layout: PixelLayout,
    /// The pixels, in the stage.
    pub bytes: &'a [u8],
}

/// `ClearTexture`'s clear of a box of one image of a texture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextureClear {
    /// Which image.
    pub at: ImageRef,
    /// The box (x, y, and the layers of an array as z).
    pub region: TextureRegion,
    /// The value, converted to the image's format (see `Record::ClearTexture`).
    pub value: ClearValue,
}

/// `WriteCompressedTexture`'s upload of compressed blocks into one image of a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockWrite<'a> {
    /// Which image.
    pub at: ImageRef,
    /// Where in it (whole blocks).
    pub region: TextureRegion,
    /// The blocks, in the stage.
    pub bytes: &'a [u8],
}

/// `WriteTextureFromBuffer`'s upload from a pixel unpack buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FromBuffer {
    /// Which image.
    pub at: ImageRef,
    /// Layout of the buffer's pixels.
    pub layout: PixelLayout,
    /// The buffer, region and strides.
    pub source: BufferPixels,
}

/// `ReadTexture`'s read-back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureReadback {
    /// Which image.
    pub at: ImageRef,
    /// Layout of the returned rows.
    pub layout: PixelLayout,
    /// The image's size.
    pub size: [u32; 3],
}

/// `ReadCompressedTexture`'s read-back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockReadback {
    /// Which image.
    pub at: ImageRef,
    /// The image's size in texels (width, height, and depth or layers).
    pub size: [u32; 3],
}

/// `SetTextureBuffer`'s buffer range (`buffer: None`: no buffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexelBuffer {
    /// The buffer.
    pub buffer: Option<BufferHandle>,
    /// Texel format.
    pub format: crate::format::Format,
    /// Byte range.
    pub range: BufferRange,
}

/// One image of a texture: mip level, and cube face (0 otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageRef {
    /// Mip level.
    pub level: u8,
    /// Cube map face, 0 for other kinds.
    pub face: u8,
}

/// `DefineTextureImage`'s image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureImage {
    /// Which image.
    pub at: ImageRef,
    /// Its format.
    pub format: crate::format::Format,
    /// Width, height, and depth (3D) or layers (arrays).
    pub size: [u32; 3],
    /// Samples (0 or 1: single-sampled).
    pub samples: u8,
    /// Whether sample locations are fixed.
    pub fixed_sample_locations: bool,
}

/// `DefineRenderbuffer`'s storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderbufferStorage {
    /// Format.
    pub format: crate::format::Format,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Samples (0: single-sampled).
    pub samples: u8,
}

/// `Draw`'s arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawArgs {
    /// Primitive topology.
    pub topology: Topology,
    /// First vertex.
    pub first: u32,
    /// Vertices.
    pub count: u32,
    /// Instances.
    pub instances: u32,
    /// First element of instanced attributes (not added to `gl_InstanceID`).
    pub base_instance: u32,
}

/// `DrawIndirect`'s and `DrawIndexedIndirect`'s arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawIndirectArgs {
    /// Primitive topology.
    pub topology: Topology,
    /// The index type of an indexed draw (`DrawIndexedIndirect`), `None` for arrays.
    pub index_type: Option<IndexType>,
    /// The buffer the commands are read from.
    pub buffer: BufferHandle,
    /// Byte offset of the first command (a multiple of 4).
    pub offset: u64,
    /// Commands.
    pub draws: u32,
    /// Bytes from one command to the next: a multiple of 4, not 0 (GL reads 0 as the
    /// command's size, which the engine sends instead); commands may overlap.
    pub stride: u32,
}

impl DrawIndirectArgs {
    /// Bytes of one command: 16 for arrays, 20 for elements.
    pub fn command_size(&self) -> u32 {
        if self.index_type.is_some() { 20 } else { 16 }
    }

    /// Byte offset of command `i`.
    pub fn command_offset(&self, i: u32) -> u64 {
        self.offset + u64::from(i) * u64::from(self.stride)
    }

    /// The direct draws that the commands stand for, in order, from `bytes`: the buffer's
    /// bytes from [`Self::offset`] on, at least as many as the commands span (a backend
    /// that cannot draw them from the buffer reads them back and draws these).
    pub fn direct_draws<'a>(&self, bytes: &'a [u8]) -> impl Iterator<Item = DirectDraw> + 'a {
        let draw = *self;
        (0..draw.draws).map(move |i| {
            let at = (u64::from(i) * u64::from(draw.stride)) as usize;
            let word = |k: usize| {
                let b = &bytes[at + 4 * k..at + 4 * k + 4];
                u32::from_le_bytes([b[0], b[1], b[2], b[3]])
            };
            match draw.index_type {
                None => DirectDraw::Arrays(DrawArgs {
                    topology: draw.topology,
                    count: word(0),
                    instances: word(1),
                    first: word(2),
                    base_instance: word(3),
                }),
                Some(index_type) => DirectDraw::Elements(DrawIndexedArgs {
                    topology: draw.topology,
                    index_type,
                    count: word(0),
                    instances: word(1),
                    offset: u64::from(word(2)) * u64::from(index_type.size()),
                    base_vertex: word(3) as i32,
                    base_instance: word(4),
                }),
            }
        })
    }
}

/// `MultiDraw`'s and `MultiDrawIndexed`'s arguments: the per-draw words, checked to be
/// whole draws, one at least.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MultiDrawArgs<'a> {
    /// Primitive topology.
    pub topology: Topology,
    /// The index type of `MultiDrawIndexed`, `None` for `MultiDraw`.
    pub index_type: Option<IndexType>,
    /// The draws as the record's span holds them ([`MULTI_DRAW_SIZE`] or
    /// [`MULTI_DRAW_INDEXED_SIZE`] bytes each).
    pub bytes: &'a [u8],
    /// Every draw's `gl_DrawID` is 0 (draw calls the engine merged), not its index.
    pub same_draw_id: bool,
}

impl<'a> MultiDrawArgs<'a> {
    /// The arguments of `record`, or the error for bytes that are not whole draws.
    pub fn new(
        record: &'static str,
        topology: Topology,
        index_type: Option<IndexType>,
        bytes: &'a [u8],
    ) -> Result<Self, SessionError> {
        let draw = Self {
            topology,
            index_type,
            bytes,
            same_draw_id: false,
        };
        if bytes.is_empty() || !bytes.len().is_multiple_of(draw.draw_size()) {
            return Err(SessionError::BadValue {
                record,
                what: format!("{} bytes are not whole draws", bytes.len()),
            });
        }
        Ok(draw)
    }

    /// Bytes of one draw.
    pub fn draw_size(&self) -> usize {
        if self.index_type.is_some() {
            MULTI_DRAW_INDEXED_SIZE
        } else {
            MULTI_DRAW_SIZE
        }
    }

    /// The number of draws.
    pub fn len(&self) -> usize {
        self.bytes.len() / self.draw_size()
    }

    /// Whether there are no draws (never, once checked by [`MultiDrawArgs::new`]).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The draws, in order, as direct draws of one instance.
    pub fn draws(&self) -> impl Iterator<Item = DirectDraw> + 'a {
        let (topology, index_type) = (self.topology, self.index_type);
        self.bytes.chunks_exact(self.draw_size()).map(move |d| {
            let word =
                |k: usize| u32::from_le_bytes([d[4 * k], d[4 * k + 1], d[4 * k + 2], d[4 * k + 3]]);
            match index_type {
                None => DirectDraw::Arrays(DrawArgs {
                    topology,
                    first: word(0),
                    count: word(1),
                    instances: 1,
                    base_instance: 0,
                }),
                Some(index_type) => DirectDraw::Elements(DrawIndexedArgs {
                    topology,
                    index_type,
                    offset: u64::from(word(0)) | (u64::from(word(1)) << 32),
                    count: word(2),
                    instances: 1,
                    base_vertex: word(3) as i32,
                    base_instance: 0,
                }),
            }
        })
    }
}

/// One command of an indirect draw as a direct draw ([`DrawIndirectArgs::direct_draws`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirectDraw {
    /// `DrawArraysIndirectCommand`: count, instances, first, base instance.
    Arrays(DrawArgs),
    /// `DrawElementsIndirectCommand`: count, instances, first index, base vertex, base
    /// instance.
    Elements(DrawIndexedArgs),
}

/// The alignment rules of an indirect draw that the engine keeps (a backend reads the
/// commands as 32-bit words).
fn check_indirect(record: &'static str, draw: &DrawIndirectArgs) -> Result<(), SessionError> {
    if !draw.offset.is_multiple_of(4) || !draw.stride.is_multiple_of(4) || draw.stride == 0 {
        return Err(SessionError::BadValue {
            record,
            what: format!(
                "indirect offset {} or stride {} is misaligned",
                draw.offset, draw.stride
            ),
        });
    }
    Ok(())
}

/// `DrawIndexed`'s arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawIndexedArgs {
    /// Primitive topology.
    pub topology: Topology,
    /// Index type.
    pub index_type: IndexType,
    /// Byte offset of the first index in the index buffer.
    pub offset: u64,
    /// Indices.
    pub count: u32,
    /// Instances.
    pub instances: u32,
    /// Added to every index.
    pub base_vertex: i32,
    /// First element of instanced attributes (not added to `gl_InstanceID`).
    pub base_instance: u32,
}

/// `Blit`'s arguments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlitArgs {
    /// What is read.
    pub src: ReadSource,
    /// Source, then destination rectangle (with layers).
    pub regions: [Region; 2],
    /// Colour (bit 0), depth (bit 1), stencil (bit 2).
    pub mask: u8,
    /// Linear filtering.
    pub linear: bool,
}

/// `Clear`'s arguments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClearArgs {
    /// Draw buffers (bits 0..8), depth and stencil ([`crate::record::clear_mask`]).
    pub mask: u16,
    /// Colour.
    pub color: [f32; 4],
    /// Depth.
    pub depth: f32,
    /// Stencil.
    pub stencil: u8,
}

/// The CSOs bound last (by any context), which may not be destroyed.
#[derive(Default)]
struct BoundCsos {
    blend: Option<RawHandle>,
    depth_stencil: Option<RawHandle>,
    raster: Option<RawHandle>,
    vertex_layout: Option<RawHandle>,
}

/// Which objects of each kind are live in a session: one [`SlotTable`] per kind holding
/// nothing but generations. Every record's handles are checked here before a backend sees
/// them.
#[derive(Default)]
pub struct Registry {
    buffers: SlotTable<BufferHandle, ()>,
    textures: SlotTable<TextureHandle, ()>,
    renderbuffers: SlotTable<RenderbufferHandle, ()>,
    framebuffers: SlotTable<FramebufferHandle, ()>,
    surfaces: SlotTable<SurfaceHandle, ()>,
    programs: SlotTable<ProgramHandle, ()>,
    queries: SlotTable<QueryHandle, ()>,
    transform_feedbacks: SlotTable<TransformFeedbackHandle, ()>,
    fences: SlotTable<FenceHandle, ()>,
    blends: SlotTable<BlendHandle, ()>,
    depth_stencils: SlotTable<DepthStencilHandle, ()>,
    rasters: SlotTable<RasterHandle, ()>,
    samplers: SlotTable<SamplerHandle, ()>,
    layouts: SlotTable<VertexLayoutHandle, ()>,
    bound: BoundCsos,
}

impl Registry {
    /// Live objects per kind (indexed by [`ObjectKind::index`]).
    pub fn live_counts(&self) -> [u32; ObjectKind::COUNT] {
        fn put<H: Handle>(live: &mut [u32; ObjectKind::COUNT], table: &SlotTable<H, ()>) {
            live[H::KIND.index()] = table.len() as u32;
        }
        let mut live = [0; ObjectKind::COUNT];
        put(&mut live, &self.buffers);
        put(&mut live, &self.textures);
        put(&mut live, &self.renderbuffers);
        put(&mut live, &self.framebuffers);
        put(&mut live, &self.surfaces);
        put(&mut live, &self.programs);
        put(&mut live, &self.queries);
        put(&mut live, &self.fences);
        put(&mut live, &self.blends);
        put(&mut live, &self.depth_stencils);
        put(&mut live, &self.rasters);
        put(&mut live, &self.samplers);
        put(&mut live, &self.layouts);
        put(&mut live, &self.transform_feedbacks);
        live
    }

    fn blends(&mut self) -> Bindable<'_, BlendHandle> {
        Bindable {
            table: &mut self.blends,
            bound: &mut self.bound.blend,
        }
    }

    fn depth_stencils(&mut self) -> Bindable<'_, DepthStencilHandle> {
        Bindable {
            table: &mut self.depth_stencils,
            bound: &mut self.bound.depth_stencil,
        }
    }

    fn rasters(&mut self) -> Bindable<'_, RasterHandle> {
        Bindable {
            table: &mut self.rasters,
            bound: &mut self.bound.raster,
        }
    }

    fn layouts(&mut self) -> Bindable<'_, VertexLayoutHandle> {
        Bindable {
            table: &mut self.layouts,
            bound: &mut self.bound.vertex_layout,
        }
    }

    fn framebuffer_ref(&self, n: &'static str, f: FramebufferRef) -> Result<(), SessionError> {
        match f {
            FramebufferRef::None => Ok(()),
            FramebufferRef::Surface(s) => self.surfaces.check(n, Some(s)),
            FramebufferRef::Object(fb) => self.framebuffers.check(n, Some(fb)),
        }
    }

    fn attachment(&self, n: &'static str, a: &Attachment) -> Result<(), SessionError> {
        match *a {
            Attachment::None => Ok(()),
            Attachment::Texture { texture, .. } => self.textures.check(n, Some(texture)),
            Attachment::Renderbuffer(rb) => self.renderbuffers.check(n, Some(rb)),
        }
    }

    fn destination(&self, n: &'static str, dst: PixelDestination) -> Result<(), SessionError> {
        match dst {
            PixelDestination::Reply(_) => Ok(()),
            PixelDestination::Buffer { buffer, .. } => self.buffers.check(n, Some(buffer)),
        }
    }
}

/// A bindable CSO kind's live table and the CSO bound last (which may not be destroyed).
struct Bindable<'a, H> {
    table: &'a mut SlotTable<H, ()>,
    bound: &'a mut Option<RawHandle>,
}

impl<H: Keyed> Bindable<'_, H> {
    /// `Create*`: takes a free slot.
    fn create(self, n: &'static str, h: H) -> Result<H, SessionError> {
        self.table.insert(n, h, ()).map(|()| h)
    }

    /// `Bind*`: a live CSO, now the bound one.
    fn bind(self, n: &'static str, h: H) -> Result<H, SessionError> {
        self.table.get(n, h)?;
        *self.bound = Some(h.raw());
        Ok(h)
    }

    /// `Destroy*`: a live CSO that is not the bound one.
    fn destroy(self, n: &'static str, h: H) -> Result<H, SessionError> {
        if *self.bound == Some(h.raw()) {
            return Err(SessionError::BadValue {
                record: n,
                what: format!("destroys the bound CSO {}", h.raw()),
            });
        }
        self.table.remove(n, h).map(|()| h)
    }
}

/// Checks a program description: whole SPIR-V modules inside the stage, one per stage
/// kind, and slot arrays whose elements follow each other.
fn check_program(
    n: &'static str,
    desc: &ProgramDesc,
    stage: Stage<'_>,
) -> Result<(), SessionError> {
    let bad = |what: String| SessionError::BadValue { record: n, what };
    for (i, code) in desc.stages.iter().enumerate() {
        let bytes = stage.get(code.spirv)?;
        if bytes.len() % 4 != 0 || bytes.len() < 20 {
            return Err(bad(format!(
                "SPIR-V of {} bytes is not a whole module",
                bytes.len()
            )));
        }
        if bytes[..4] != [0x03, 0x02, 0x23, 0x07] {
            return Err(bad("SPIR-V without its magic number".into()));
        }
        if desc.stages[..i].iter().any(|s| s.stage == code.stage) {
            return Err(bad(format!("two {:?} stages", code.stage)));
        }
    }
    // An array element continues the slot before it (see ProgramDesc).
    let broken = |elements: &[u32]| {
        (0..elements.len()).find(|&i| {
            let e = elements[i];
            !(e == 0 || (i > 0 && elements[i - 1].checked_add(1) == Some(e)))
        })
    };
    let samplers: Vec<u32> = desc.samplers.iter().map(|s| s.element).collect();
    if let Some(i) = broken(&samplers) {
        return Err(bad(format!("sampler slot {i} continues no array")));
    }
    let blocks: Vec<u32> = desc.uniform_blocks.iter().map(|b| b.element).collect();
    if let Some(i) = broken(&blocks) {
        return Err(bad(format!("uniform block slot {i} continues no array")));
    }
    let storage: Vec<u32> = desc.storage_blocks.iter().map(|b| b.element).collect();
    if let Some(i) = broken(&storage) {
        return Err(bad(format!("storage block slot {i} continues no array")));
    }
    let images: Vec<u32> = desc.images.iter().map(|i| i.element).collect();
    if let Some(i) = broken(&images) {
        return Err(bad(format!("image slot {i} continues no array")));
    }
    if desc.images.len() > crate::state::MAX_IMAGE_SLOTS {
        return Err(bad(format!("{} image slots", desc.images.len())));
    }
    let compute = desc.stages.iter().any(|s| s.stage == ShaderStage::Compute);
    if compute && desc.stages.len() != 1 {
        return Err(bad("a compute stage with other stages".into()));
    }
    if compute == desc.local_size.contains(&0) {
        return Err(bad(format!(
            "work group size {:?} for a {}compute program",
            desc.local_size,
            if compute { "" } else { "non-" }
        )));
    }
    if let Some(o) = desc
        .xfb
        .iter()
        .find(|o| usize::from(o.buffer) >= MAX_XFB_BUFFERS)
    {
        return Err(bad(format!("captured output in buffer {}", o.buffer)));
    }
    Ok(())
}

/// The session's side of applying batches: the live objects, the contexts and their
/// state. A backend owns one next to its [`Pipe`].
pub struct Dispatcher<C> {
    registry: Registry,
    contexts: Contexts<C>,
    fences: FenceQueue,
    /// Buffer ranges backed by the mapping heap (`crate::heap_ranges`).
    heap_ranges: HeapRanges,
}

impl<C> Default for Dispatcher<C> {
    fn default() -> Self {
        Self {
            registry: Registry::default(),
            contexts: Contexts::new(),
            fences: FenceQueue::default(),
            heap_ranges: HeapRanges::default(),
        }
    }
}

/// The session's fences not yet known to have signalled, oldest first, and the completion
/// watermark reported so far (`crate::fence`).
#[derive(Default)]
struct FenceQueue {
    pending: std::collections::VecDeque<(u64, FenceHandle)>,
    /// The sequence of the last fence inserted.
    last: u64,
    /// The watermark last reported.
    reported: u64,
}

impl FenceQueue {
    /// The highest sequence the watermark may reach with nothing pending.
    fn idle_mark(&self) -> u64 {
        self.last
    }
}

impl<C: PipeContext> Dispatcher<C> {
    /// A session with no objects and no contexts.
    pub fn new() -> Self {
        Self::default()
    }

    /// Which objects are live.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Applies every record of a validated batch through `pipe`, in order; replies go to
    /// `out`. The first error stops the batch and ends the session.
    pub fn apply<P: Pipe<Context = C>>(
        &mut self,
        pipe: &mut P,
        batch: BatchView<'_>,
        out: &mut Outbox,
    ) -> Result<(), SessionError> {
        let stage = Stage::new(batch.stage);
        let mut result = Ok(());
        // What the program wrote through heap-backed mappings reaches the buffers before any
        // record of the batch reads them.
        if !self.heap_ranges.is_empty()
            && let Some(heap) = batch.heap
        {
            result = self.heap_ranges.sync_all(pipe, heap);
        }
        for record in batch.archived.records.iter() {
            if result.is_err() {
                break;
            }
            match self.apply_record(pipe, record, stage, batch.heap, out) {
                Ok(name) => pipe.record_applied(name, record),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        let result = pipe.batch_applied(result, out);
        if result.is_ok() && self.fences_pending() {
            self.poll_fences(pipe, 0, out)?;
        }
        result
    }

    /// Whether the watermark reported so far is behind the last fence inserted: fences not
    /// yet seen signalled, or destroyed since the last report.
    pub fn fences_pending(&self) -> bool {
        self.fences.reported < self.fences.last
    }

    /// How many contexts the session has.
    pub fn context_count(&self) -> usize {
        self.contexts.len()
    }

    /// Checks the pending fences oldest first, waiting up to `timeout_ns` for the oldest and
    /// not at all for the others, drops those that signalled, and reports a moved watermark
    /// as [`Event::FencesCompleted`](crate::Event::FencesCompleted). Returns whether fences
    /// are still pending.
    pub fn poll_fences<P: Pipe<Context = C>>(
        &mut self,
        pipe: &mut P,
        timeout_ns: u64,
        out: &mut Outbox,
    ) -> Result<bool, SessionError> {
        let mut timeout = timeout_ns;
        while let Some(&(_, fence)) = self.fences.pending.front() {
            if !pipe.wait_fence(fence, timeout)? {
                break;
            }
            timeout = 0;
            self.fences.pending.pop_front();
        }
        let mark = match self.fences.pending.front() {
            Some(&(seq, _)) => seq - 1,
            None => self.fences.idle_mark(),
        };
        if mark > self.fences.reported {
            self.fences.reported = mark;
            out.events
                .push(crate::backend::Event::FencesCompleted { seq: mark });
        }
        Ok(self.fences_pending())
    }

    /// Stores a state record's value in the current context and tells the backend.
    #[inline(always)]
    fn set<P: Pipe<Context = C>>(
        &mut self,
        pipe: &mut P,
        n: &'static str,
        group: StateGroup,
        store: impl FnOnce(&mut DesiredState) -> Result<(), SessionError>,
    ) -> Result<&'static str, SessionError> {
        let ctx = self.contexts.current(n)?;
        store(ctx.desired())?;
        pipe.state_changed(ctx, group);
        Ok(n)
    }

    #[expect(
        clippy::too_many_lines,
        reason = "one arm per record kind: the one match over records in the project"
    )]
    fn apply_record<P: Pipe<Context = C>>(
        &mut self,
        pipe: &mut P,
        record: &ArchivedRecord,
        stage: Stage<'_>,
        heap: Option<&HeapView>,
        out: &mut Outbox,
    ) -> Result<&'static str, SessionError> {
        use ArchivedRecord as A;
        let reg = &mut self.registry;
        let name = match record {
            // ---- Contexts ----
            A::CreateContext { context } => {
                self.contexts
                    .create(context.to_native(), || pipe.create_context())?;
                "CreateContext"
            }
            A::SetContext { context } => {
                if let Some(ctx) = self.contexts.set_current(context.to_native())? {
                    pipe.context_switched(ctx);
                }
                "SetContext"
            }
            A::DestroyContext { context } => {
                pipe.destroy_context(self.contexts.destroy(context.to_native())?);
                "DestroyContext"
            }

            // ---- Surfaces and framebuffers ----
            A::CreateSurface { surface, desc } => {
                const N: &str = "CreateSurface";
                let surface = de(surface)?;
                reg.surfaces.check_create(N, surface)?;
                pipe.create_surface(surface, de(desc)?)?;
                reg.surfaces.insert(N, surface, ())?;
                N
            }
            A::DestroySurface { surface } => {
                const N: &str = "DestroySurface";
                let surface = de(surface)?;
                reg.surfaces.remove(N, surface)?;
                pipe.destroy_surface(surface)?;
                N
            }
            A::CreateFramebuffer { framebuffer } => {
                const N: &str = "CreateFramebuffer";
                let framebuffer = de(framebuffer)?;
                reg.framebuffers.insert(N, framebuffer, ())?;
                pipe.create_framebuffer(framebuffer)?;
                N
            }
            A::SetFramebufferState { framebuffer, state } => {
                const N: &str = "SetFramebufferState";
                let framebuffer = de(framebuffer)?;
                let state: FramebufferState = de(&**state)?;
                reg.framebuffers.get(N, framebuffer)?;
                for a in state.colors.iter().chain([&state.depth, &state.stencil]) {
                    reg.attachment(N, a)?;
                }
                pipe.set_framebuffer_state(framebuffer, state)?;
                N
            }
            A::DestroyFramebuffer { framebuffer } => {
                const N: &str = "DestroyFramebuffer";
                let framebuffer = de(framebuffer)?;
                reg.framebuffers.remove(N, framebuffer)?;
                pipe.destroy_framebuffer(framebuffer)?;
                N
            }
            A::BindFramebuffer { framebuffer } => {
                const N: &str = "BindFramebuffer";
                let framebuffer = de(framebuffer)?;
                reg.framebuffer_ref(N, framebuffer)?;
                self.set(pipe, N, StateGroup::Framebuffer, |d| {
                    d.framebuffer = framebuffer;
                    Ok(())
                })?
            }
            A::SetDrawBuffers { buffers } => {
                self.set(pipe, "SetDrawBuffers", StateGroup::DrawBuffers, |d| {
                    d.draw_buffers = *buffers;
                    Ok(())
                })?
            }

            // ---- Buffers ----
            A::CreateBuffer { buffer, size } => {
                const N: &str = "CreateBuffer";
                let buffer = de(buffer)?;
                // Re-specifying the storage of a live buffer is allowed; a new handle must
                // take a free slot.
                if reg.buffers.live(buffer).is_none() {
                    reg.buffers.insert(N, buffer, ())?;
                }
                self.heap_ranges.forget(buffer);
                pipe.create_buffer(buffer, size.to_native())?;
                N
            }
            A::DestroyBuffer { buffer } => {
                const N: &str = "DestroyBuffer";
                let buffer = de(buffer)?;
                reg.buffers.remove(N, buffer)?;
                self.heap_ranges.forget(buffer);
                pipe.destroy_buffer(buffer)?;
                N
            }
            A::AttachHeapRange { buffer, range } => {
                const N: &str = "AttachHeapRange";
                let buffer = de(buffer)?;
                reg.buffers.get(N, buffer)?;
                let range: HeapRange = de(range.as_ref())?;
                self.heap_ranges.attach(pipe, heap, buffer, range)?;
                N
            }
            A::DetachHeapRange { buffer } => {
                const N: &str = "DetachHeapRange";
                let buffer = de(buffer)?;
                reg.buffers.get(N, buffer)?;
                self.heap_ranges.detach(pipe, heap, buffer)?;
                N
            }
            A::WriteBuffer {
                buffer,
                offset,
                data,
            }
            | A::WriteBufferUnsynchronized {
                buffer,
                offset,
                data,
            } => {
                let unsynchronized = matches!(record, A::WriteBufferUnsynchronized { .. });
                let n = if unsynchronized {
                    "WriteBufferUnsynchronized"
                } else {
                    "WriteBuffer"
                };
                let buffer = de(buffer)?;
                reg.buffers.get(n, buffer)?;
                let bytes = stage.get(de(data)?)?;
                let write = BufferWrite {
                    buffer,
                    offset: offset.to_native(),
                    bytes,
                    unsynchronized,
                };
                pipe.write_buffer(n, write)?;
                if !self.heap_ranges.is_empty() {
                    self.heap_ranges.learn(buffer, write.offset, bytes);
                }
                n
            }
            A::FillBuffer {
                buffer,
                range,
                pattern,
            } => {
                const N: &str = "FillBuffer";
                let buffer = de(buffer)?;
                reg.buffers.get(N, buffer)?;
                let pattern = stage.get(de(pattern)?)?;
                let range: BufferRange = de(&**range)?;
                let n = pattern.len() as u64;
                if !(1..=16).contains(&n)
                    || !range.offset.is_multiple_of(n)
                    || !range.size.is_multiple_of(n)
                {
                    return Err(SessionError::BadValue {
                        record: N,
                        what: format!("a pattern of {n} bytes for {range:?}"),
                    });
                }
                pipe.fill_buffer(buffer, range, pattern)?;
                N
            }
            A::CopyBuffer { src, dst, region } => {
                const N: &str = "CopyBuffer";
                let (src, dst) = (de(src)?, de(dst)?);
                reg.buffers.get(N, src)?;
                reg.buffers.get(N, dst)?;
                pipe.copy_buffer(src, dst, de(&**region)?)?;
                N
            }
            A::ReadBuffer {
                buffer,
                range,
                reply,
            } => {
                const N: &str = "ReadBuffer";
                let buffer = de(buffer)?;
                reg.buffers.get(N, buffer)?;
                let bytes = pipe.read_buffer(buffer, de(&**range)?)?;
                out.replies.push((de(reply)?, Reply::Bytes(bytes)));
                N
            }

            // ---- Textures and renderbuffers ----
            A::CreateTexture { texture, kind } => {
                const N: &str = "CreateTexture";
                let texture = de(texture)?;
                reg.textures.insert(N, texture, ())?;
                pipe.create_texture(texture, de(kind)?)?;
                N
            }
            A::CreateTextureView { texture, view } => {
                const N: &str = "CreateTextureView";
                let texture = de(texture)?;
                let view: TextureViewDesc = de(&**view)?;
                reg.textures.get(N, view.storage)?;
                reg.textures.insert(N, texture, ())?;
                pipe.create_texture_view(texture, view)?;
                N
            }
            A::DestroyTexture { texture } => {
                const N: &str = "DestroyTexture";
                let texture = de(texture)?;
                reg.textures.remove(N, texture)?;
                pipe.destroy_texture(texture)?;
                N
            }
            A::DefineTextureImage {
                texture,
                level,
                face,
                format,
                width,
                height,
                depth,
                samples,
                fixed_sample_locations,
            } => {
                const N: &str = "DefineTextureImage";
                let texture = de(texture)?;
                reg.textures.get(N, texture)?;
                let image = TextureImage {
                    at: ImageRef {
                        level: *level,
                        face: *face,
                    },
                    format: de(format)?,
                    size: [width.to_native(), height.to_native(), depth.to_native()],
                    samples: *samples,
                    fixed_sample_locations: *fixed_sample_locations,
                };
                pipe.define_texture_image(texture, image)?;
                N
            }
            A::WriteTexture {
                texture,
                level,
                face,
                region,
                layout,
                data,
            } => {
                const N: &str = "WriteTexture";
                let texture = de(texture)?;
                reg.textures.get(N, texture)?;
                let bytes = stage.get(de(data)?)?;
                let at = ImageRef {
                    level: *level,
                    face: *face,
                };
                let write = TextureWrite {
                    at,
                    region: de(&**region)?,
                    layout: de(layout)?,
                    bytes,
                };
                pipe.write_texture(texture, write)?;
                N
            }
            A::ClearTexture {
                texture,
                level,
                face,
                region,
                value,
            } => {
                const N: &str = "ClearTexture";
                let texture = de(texture)?;
                reg.textures.get(N, texture)?;
                let clear = TextureClear {
                    at: ImageRef {
                        level: *level,
                        face: *face,
                    },
                    region: de(&**region)?,
                    value: de(&**value)?,
                };
                pipe.clear_texture(texture, clear)?;
                N
            }
            A::WriteCompressedTexture {
                texture,
                level,
                face,
                region,
                data,
            } => {
                const N: &str = "WriteCompressedTexture";
                let texture = de(texture)?;
                reg.textures.get(N, texture)?;
                let bytes = stage.get(de(data)?)?;
                let at = ImageRef {
                    level: *level,
                    face: *face,
                };
                let write = BlockWrite {
                    at,
                    region: de(&**region)?,
                    bytes,
                };
                pipe.write_compressed_texture(texture, write)?;
                N
            }
            A::WriteTextureFromBuffer {
                texture,
                level,
                face,
                layout,
                source,
            } => {
                const N: &str = "WriteTextureFromBuffer";
                let texture = de(texture)?;
                let source: BufferPixels = de(&**source)?;
                reg.textures.get(N, texture)?;
                reg.buffers.get(N, source.buffer)?;
                let at = ImageRef {
                    level: *level,
                    face: *face,
                };
                let write = FromBuffer {
                    at,
                    layout: de(layout)?,
                    source,
                };
                pipe.write_texture_from_buffer(texture, write)?;
                N
            }
            A::WriteCompressedTextureFromBuffer {
                texture,
                level,
                face,
                source,
            } => {
                const N: &str = "WriteCompressedTextureFromBuffer";
                let texture = de(texture)?;
                let source: BufferBlocks = de(&**source)?;
                reg.textures.get(N, texture)?;
                reg.buffers.get(N, source.buffer)?;
                let at = ImageRef {
                    level: *level,
                    face: *face,
                };
                pipe.write_blocks_from_buffer(texture, at, source)?;
                N
            }
            A::ReadTexture {
                texture,
                level,
                face,
                layout,
                read,
            } => {
                const N: &str = "ReadTexture";
                let texture = de(texture)?;
                reg.textures.get(N, texture)?;
                let dst = de(&read.dst)?;
                reg.destination(N, dst)?;
                let at = ImageRef {
                    level: *level,
                    face: *face,
                };
                let read = TextureReadback {
                    at,
                    layout: de(layout)?,
                    size: read.size.map(|s| s.to_native()),
                };
                let bytes = pipe.read_texture(texture, read)?;
                deliver(pipe, N, bytes, dst, out)?;
                N
            }
            A::ReadCompressedTexture {
                texture,
                level,
                face,
                read,
            } => {
                const N: &str = "ReadCompressedTexture";
                let texture = de(texture)?;
                reg.textures.get(N, texture)?;
                let dst = de(&read.dst)?;
                reg.destination(N, dst)?;
                let read = BlockReadback {
                    at: ImageRef {
                        level: *level,
                        face: *face,
                    },
                    size: read.size.map(|s| s.to_native()),
                };
                let bytes = pipe.read_compressed_texture(texture, read)?;
                deliver(pipe, N, bytes, dst, out)?;
                N
            }
            A::CopyTexture {
                texture,
                level,
                face,
                region,
            } => {
                const N: &str = "CopyTexture";
                let texture = de(texture)?;
                let region: TextureCopy = de(&**region)?;
                reg.textures.get(N, texture)?;
                reg.framebuffer_ref(N, region.src.framebuffer)?;
                let at = ImageRef {
                    level: *level,
                    face: *face,
                };
                pipe.copy_texture(texture, at, region)?;
                N
            }
            A::GenerateMipmap { texture, base, max } => {
                const N: &str = "GenerateMipmap";
                let texture = de(texture)?;
                reg.textures.get(N, texture)?;
                pipe.generate_mipmap(texture, *base, *max)?;
                N
            }
            A::SetTextureView { texture, view } => {
                const N: &str = "SetTextureView";
                let texture = de(texture)?;
                reg.textures.get(N, texture)?;
                pipe.set_texture_view(texture, de(view)?)?;
                N
            }
            A::SetTextureBuffer {
                texture,
                buffer,
                format,
                range,
            } => {
                const N: &str = "SetTextureBuffer";
                let (texture, buffer) = (de(texture)?, de(buffer)?);
                reg.textures.get(N, texture)?;
                reg.buffers.check(N, buffer)?;
                let texels = TexelBuffer {
                    buffer,
                    format: de(format)?,
                    range: de(&**range)?,
                };
                pipe.set_texture_buffer(texture, texels)?;
                N
            }
            A::CopyImage { copy } => {
                const N: &str = "CopyImage";
                let copy: ImageCopy = de(&**copy)?;
                for end in [copy.src, copy.dst] {
                    match end.object {
                        ImageObject::Texture(t) => {
                            reg.textures.get(N, t)?;
                        }
                        ImageObject::Renderbuffer(r) => {
                            reg.renderbuffers.get(N, r)?;
                        }
                    }
                }
                pipe.copy_image(copy)?;
                N
            }
            A::CreateRenderbuffer { renderbuffer } => {
                const N: &str = "CreateRenderbuffer";
                let renderbuffer = de(renderbuffer)?;
                reg.renderbuffers.insert(N, renderbuffer, ())?;
                pipe.create_renderbuffer(renderbuffer)?;
                N
            }
            A::DefineRenderbuffer {
                renderbuffer,
                format,
                width,
                height,
                samples,
            } => {
                const N: &str = "DefineRenderbuffer";
                let renderbuffer = de(renderbuffer)?;
                reg.renderbuffers.get(N, renderbuffer)?;
                let storage = RenderbufferStorage {
                    format: de(format)?,
                    width: width.to_native(),
                    height: height.to_native(),
                    samples: *samples,
                };
                pipe.define_renderbuffer(renderbuffer, storage)?;
                N
            }
            A::DestroyRenderbuffer { renderbuffer } => {
                const N: &str = "DestroyRenderbuffer";
                let renderbuffer = de(renderbuffer)?;
                reg.renderbuffers.remove(N, renderbuffer)?;
                pipe.destroy_renderbuffer(renderbuffer)?;
                N
            }

            // ---- Constant state objects ----
            A::CreateBlendState { cso, state } => {
                const N: &str = "CreateBlendState";
                let cso = reg.blends().create(N, de(cso)?)?;
                pipe.create_blend_state(cso, de(&**state)?)?;
                N
            }
            A::BindBlendState { cso } => {
                const N: &str = "BindBlendState";
                let cso = reg.blends().bind(N, de(cso)?)?;
                pipe.bind_blend_state(self.contexts.current(N)?, cso)?;
                N
            }
            A::DestroyBlendState { cso } => {
                const N: &str = "DestroyBlendState";
                pipe.destroy_blend_state(reg.blends().destroy(N, de(cso)?)?)?;
                N
            }
            A::CreateDepthStencilState { cso, state } => {
                const N: &str = "CreateDepthStencilState";
                let cso = reg.depth_stencils().create(N, de(cso)?)?;
                pipe.create_depth_stencil_state(cso, de(state)?)?;
                N
            }
            A::BindDepthStencilState { cso } => {
                const N: &str = "BindDepthStencilState";
                let cso = reg.depth_stencils().bind(N, de(cso)?)?;
                pipe.bind_depth_stencil_state(self.contexts.current(N)?, cso)?;
                N
            }
            A::DestroyDepthStencilState { cso } => {
                const N: &str = "DestroyDepthStencilState";
                pipe.destroy_depth_stencil_state(reg.depth_stencils().destroy(N, de(cso)?)?)?;
                N
            }
            A::CreateRasterState { cso, state } => {
                const N: &str = "CreateRasterState";
                let cso = reg.rasters().create(N, de(cso)?)?;
                pipe.create_raster_state(cso, de(&**state)?)?;
                N
            }
            A::BindRasterState { cso } => {
                const N: &str = "BindRasterState";
                let cso = reg.rasters().bind(N, de(cso)?)?;
                pipe.bind_raster_state(self.contexts.current(N)?, cso)?;
                N
            }
            A::DestroyRasterState { cso } => {
                const N: &str = "DestroyRasterState";
                pipe.destroy_raster_state(reg.rasters().destroy(N, de(cso)?)?)?;
                N
            }
            A::CreateSamplerState { cso, state } => {
                const N: &str = "CreateSamplerState";
                let cso = de(cso)?;
                reg.samplers.insert(N, cso, ())?;
                pipe.create_sampler_state(cso, de(&**state)?)?;
                N
            }
            A::DestroySamplerState { cso } => {
                const N: &str = "DestroySamplerState";
                let cso = de(cso)?;
                reg.samplers.remove(N, cso)?;
                pipe.destroy_sampler_state(cso)?;
                N
            }
            A::CreateVertexLayout { cso, layout } => {
                const N: &str = "CreateVertexLayout";
                let cso = reg.layouts().create(N, de(cso)?)?;
                pipe.create_vertex_layout(cso, de(&**layout)?)?;
                N
            }
            A::BindVertexLayout { cso } => {
                const N: &str = "BindVertexLayout";
                let cso = reg.layouts().bind(N, de(cso)?)?;
                pipe.bind_vertex_layout(self.contexts.current(N)?, cso)?;
                N
            }
            A::DestroyVertexLayout { cso } => {
                const N: &str = "DestroyVertexLayout";
                pipe.destroy_vertex_layout(reg.layouts().destroy(N, de(cso)?)?)?;
                N
            }

            // ---- Programs and resources ----
            A::CreateProgram { program, desc } => {
                const N: &str = "CreateProgram";
                let program = de(program)?;
                let desc: ProgramDesc = de(&**desc)?;
                reg.programs.check_create(N, program)?;
                check_program(N, &desc, stage)?;
                reg.programs.insert(N, program, ())?;
                pipe.create_program(program, &desc, stage)?;
                N
            }
            A::BindProgram { program } => {
                const N: &str = "BindProgram";
                let program = de(program)?;
                reg.programs.check(N, program)?;
                self.set(pipe, N, StateGroup::Program, |d| {
                    d.program = program;
                    Ok(())
                })?
            }
            A::DestroyProgram { program } => {
                const N: &str = "DestroyProgram";
                let program = de(program)?;
                reg.programs.remove(N, program)?;
                pipe.destroy_program(program)?;
                N
            }
            A::SetUniforms { data } => {
                let bytes = stage.get(de(data)?)?;
                self.set(pipe, "SetUniforms", StateGroup::Uniforms, |d| {
                    d.uniforms.clear();
                    d.uniforms.extend_from_slice(bytes);
                    Ok(())
                })?
            }
            A::BindUniformBuffer {
                slot,
                buffer,
                offset,
                size,
            } => {
                const N: &str = "BindUniformBuffer";
                let buffer = de(buffer)?;
                reg.buffers.check(N, buffer)?;
                let value = (buffer, offset.to_native(), size.to_native());
                self.set(pipe, N, StateGroup::UniformBuffers, |d| {
                    *slot_mut(N, &mut d.uniform_buffers, *slot)? = value;
                    Ok(())
                })?
            }
            A::BindStorageBuffer {
                slot,
                buffer,
                offset,
                size,
            } => {
                const N: &str = "BindStorageBuffer";
                let buffer = de(buffer)?;
                reg.buffers.check(N, buffer)?;
                let value = (buffer, offset.to_native(), size.to_native());
                self.set(pipe, N, StateGroup::StorageBuffers, |d| {
                    *slot_mut(N, &mut d.storage_buffers, *slot)? = value;
                    Ok(())
                })?
            }
            A::BindImage { slot, image } => {
                const N: &str = "BindImage";
                let image: Option<crate::record::ImageBinding> = de(image)?;
                reg.textures.check(N, image.map(|i| i.texture))?;
                self.set(pipe, N, StateGroup::Images, |d| {
                    *slot_mut(N, &mut d.images, *slot)? = image;
                    Ok(())
                })?
            }
            A::BindTexture {
                slot,
                texture,
                sampler,
            } => {
                const N: &str = "BindTexture";
                let (texture, sampler) = (de(texture)?, de(sampler)?);
                reg.textures.check(N, texture)?;
                reg.samplers.check(N, sampler)?;
                self.set(pipe, N, StateGroup::Textures, |d| {
                    *slot_mut(N, &mut d.textures, *slot)? = (texture, sampler);
                    Ok(())
                })?
            }

            // ---- Vertex input ----
            A::SetVertexBuffer {
                slot,
                buffer,
                offset,
            } => {
                const N: &str = "SetVertexBuffer";
                let buffer = de(buffer)?;
                reg.buffers.check(N, buffer)?;
                let value = (buffer, offset.to_native());
                self.set(pipe, N, StateGroup::VertexBuffers, |d| {
                    *slot_mut(N, &mut d.vertex_buffers, *slot)? = value;
                    Ok(())
                })?
            }
            A::SetIndexBuffer { buffer } => {
                const N: &str = "SetIndexBuffer";
                let buffer = de(buffer)?;
                reg.buffers.check(N, buffer)?;
                self.set(pipe, N, StateGroup::IndexBuffer, |d| {
                    d.index_buffer = buffer;
                    Ok(())
                })?
            }
            A::SetGenericAttrib { index, value } => {
                const N: &str = "SetGenericAttrib";
                let value = value.map(|v| v.to_native());
                self.set(pipe, N, StateGroup::GenericAttribs, |d| {
                    *slot_mut(N, &mut d.generic, *index)? = value;
                    Ok(())
                })?
            }
            A::SetPrimitiveRestart {
                enabled,
                index,
                fixed,
            } => {
                let value = (*enabled, index.to_native(), *fixed);
                self.set(
                    pipe,
                    "SetPrimitiveRestart",
                    StateGroup::PrimitiveRestart,
                    |d| {
                        d.primitive_restart = value;
                        Ok(())
                    },
                )?
            }

            // ---- Dynamic state ----
            A::SetViewport {
                first,
                count,
                rect,
                near,
                far,
            } => {
                let range = viewport_range("SetViewport", *first, *count)?;
                let value = (
                    rect.map(|v| v.to_native()),
                    near.to_native(),
                    far.to_native(),
                );
                self.set(pipe, "SetViewport", StateGroup::Viewport, |d| {
                    d.viewports[range].fill(value);
                    Ok(())
                })?
            }
            A::SetScissor { first, count, rect } => {
                let range = viewport_range("SetScissor", *first, *count)?;
                let rect = de(rect)?;
                self.set(pipe, "SetScissor", StateGroup::Scissor, |d| {
                    d.scissors[range].fill(rect);
                    Ok(())
                })?
            }
            A::SetBlendColor { color } => {
                let color = color.map(|c| c.to_native());
                self.set(pipe, "SetBlendColor", StateGroup::BlendColor, |d| {
                    d.blend_color = color;
                    Ok(())
                })?
            }
            A::SetStencilRef { front, back } => {
                let value = (*front, *back);
                self.set(pipe, "SetStencilRef", StateGroup::StencilRef, |d| {
                    d.stencil_ref = value;
                    Ok(())
                })?
            }
            A::SetDepthBias {
                factor,
                units,
                clamp,
            } => {
                let value = (factor.to_native(), units.to_native(), clamp.to_native());
                self.set(pipe, "SetDepthBias", StateGroup::DepthBias, |d| {
                    d.depth_bias = value;
                    Ok(())
                })?
            }
            A::SetLineWidth { width } => {
                let width = width.to_native();
                self.set(pipe, "SetLineWidth", StateGroup::LineWidth, |d| {
                    d.line_width = width;
                    Ok(())
                })?
            }
            A::SetPointSize { size } => {
                let size = size.to_native();
                self.set(pipe, "SetPointSize", StateGroup::PointSize, |d| {
                    d.point_size = size;
                    Ok(())
                })?
            }
            A::SetPatchVertices { count } => {
                let count = *count;
                if !(1..=32).contains(&count) {
                    return Err(crate::backend::bad_value(
                        "SetPatchVertices",
                        "patch vertices out of 1..=32",
                    ));
                }
                self.set(pipe, "SetPatchVertices", StateGroup::PatchVertices, |d| {
                    d.patch_vertices = count;
                    Ok(())
                })?
            }
            A::SetDrawCount { buffer, offset } => {
                const N: &str = "SetDrawCount";
                let buffer = de(buffer)?;
                let offset = offset.to_native();
                reg.buffers.check(N, buffer)?;
                if !offset.is_multiple_of(4) {
                    return Err(crate::backend::bad_value(
                        N,
                        format!("draw count offset {offset} is misaligned"),
                    ));
                }
                self.set(pipe, N, StateGroup::DrawCount, |d| {
                    d.draw_count = buffer.map(|b| (b, offset));
                    Ok(())
                })?
            }
            A::SetSampleMask {
                coverage,
                invert,
                mask,
            } => {
                let value = (de(coverage)?, *invert, de(mask)?);
                self.set(pipe, "SetSampleMask", StateGroup::SampleMask, |d| {
                    d.sample_mask = value;
                    Ok(())
                })?
            }

            // ---- Verbs ----
            A::Dispatch { groups } => {
                const N: &str = "Dispatch";
                let groups: [u32; 3] = de(groups)?;
                if groups.contains(&0) {
                    return Err(SessionError::BadValue {
                        record: N,
                        what: "a dispatch of no work groups".into(),
                    });
                }
                pipe.dispatch(self.contexts.current(N)?, groups)?;
                N
            }
            A::DispatchIndirect { buffer, offset } => {
                const N: &str = "DispatchIndirect";
                let buffer = de(buffer)?;
                reg.buffers.check(N, Some(buffer))?;
                let offset = offset.to_native();
                if offset % 4 != 0 {
                    return Err(SessionError::BadValue {
                        record: N,
                        what: format!("indirect offset {offset} is not a multiple of 4"),
                    });
                }
                pipe.dispatch_indirect(self.contexts.current(N)?, buffer, offset)?;
                N
            }
            A::MemoryBarrier { barriers } => {
                const N: &str = "MemoryBarrier";
                pipe.memory_barrier(self.contexts.current(N)?, barriers.to_native())?;
                N
            }
            A::Draw {
                topology,
                first,
                count,
                instances,
                base_instance,
            } => {
                const N: &str = "Draw";
                let draw = DrawArgs {
                    topology: de(topology)?,
                    first: first.to_native(),
                    count: count.to_native(),
                    instances: instances.to_native(),
                    base_instance: base_instance.to_native(),
                };
                pipe.draw(self.contexts.current(N)?, draw)?;
                N
            }
            A::DrawIndexed {
                topology,
                index_type,
                offset,
                count,
                instances,
                base_vertex,
                base_instance,
            } => {
                const N: &str = "DrawIndexed";
                let draw = DrawIndexedArgs {
                    topology: de(topology)?,
                    index_type: de(index_type)?,
                    offset: offset.to_native(),
                    count: count.to_native(),
                    instances: instances.to_native(),
                    base_vertex: base_vertex.to_native(),
                    base_instance: base_instance.to_native(),
                };
                pipe.draw_indexed(self.contexts.current(N)?, draw)?;
                N
            }
            A::MultiDraw {
                topology,
                draws,
                same_draw_id,
            } => {
                const N: &str = "MultiDraw";
                let mut draw = MultiDrawArgs::new(N, de(topology)?, None, stage.get(de(draws)?)?)?;
                draw.same_draw_id = *same_draw_id;
                pipe.multi_draw(self.contexts.current(N)?, draw)?;
                N
            }
            A::MultiDrawIndexed {
                topology,
                index_type,
                draws,
                same_draw_id,
            } => {
                const N: &str = "MultiDrawIndexed";
                let (topology, index_type) = (de(topology)?, Some(de(index_type)?));
                let mut draw = MultiDrawArgs::new(N, topology, index_type, stage.get(de(draws)?)?)?;
                draw.same_draw_id = *same_draw_id;
                pipe.multi_draw(self.contexts.current(N)?, draw)?;
                N
            }
            A::DrawIndirect {
                topology,
                buffer,
                offset,
                draws,
                stride,
            } => {
                const N: &str = "DrawIndirect";
                let draw = DrawIndirectArgs {
                    topology: de(topology)?,
                    index_type: None,
                    buffer: de(buffer)?,
                    offset: offset.to_native(),
                    draws: draws.to_native(),
                    stride: stride.to_native(),
                };
                reg.buffers.get(N, draw.buffer)?;
                check_indirect(N, &draw)?;
                pipe.draw_indirect(self.contexts.current(N)?, draw)?;
                N
            }
            A::DrawIndexedIndirect {
                topology,
                index_type,
                buffer,
                offset,
                draws,
                stride,
            } => {
                const N: &str = "DrawIndexedIndirect";
                let draw = DrawIndirectArgs {
                    topology: de(topology)?,
                    index_type: Some(de(index_type)?),
                    buffer: de(buffer)?,
                    offset: offset.to_native(),
                    draws: draws.to_native(),
                    stride: stride.to_native(),
                };
                reg.buffers.get(N, draw.buffer)?;
                check_indirect(N, &draw)?;
                pipe.draw_indirect(self.contexts.current(N)?, draw)?;
                N
            }
            A::Clear {
                mask,
                color,
                depth,
                stencil,
            } => {
                const N: &str = "Clear";
                let clear = ClearArgs {
                    mask: mask.to_native(),
                    color: color.map(|c| c.to_native()),
                    depth: depth.to_native(),
                    stencil: *stencil,
                };
                pipe.clear(self.contexts.current(N)?, clear)?;
                N
            }
            A::ClearBuffer { draw_buffer, value } => {
                const N: &str = "ClearBuffer";
                let value = de(value)?;
                pipe.clear_buffer(self.contexts.current(N)?, *draw_buffer, value)?;
                N
            }
            A::Blit {
                src,
                regions,
                mask,
                linear,
            } => {
                const N: &str = "Blit";
                let src: ReadSource = de(src)?;
                reg.framebuffer_ref(N, src.framebuffer)?;
                let blit = BlitArgs {
                    src,
                    regions: de(&**regions)?,
                    mask: *mask,
                    linear: *linear,
                };
                pipe.blit(self.contexts.current(N)?, blit)?;
                N
            }
            A::ReadPixels {
                src,
                layout,
                region,
            } => {
                const N: &str = "ReadPixels";
                let src: ReadSource = de(src)?;
                reg.framebuffer_ref(N, src.framebuffer)?;
                let rect: Rect = de(&region.rect)?;
                let dst = de(&region.dst)?;
                reg.destination(N, dst)?;
                let bytes = pipe.read_pixels(src, rect, de(layout)?)?;
                deliver(pipe, N, bytes, dst, out)?;
                N
            }
            A::Flush => {
                pipe.flush()?;
                "Flush"
            }
            A::Finish { reply } => {
                pipe.finish()?;
                out.replies.push((de(reply)?, Reply::Done));
                "Finish"
            }
            A::ExportTexture {
                texture,
                reply,
                fence_token,
            } => {
                const N: &str = "ExportTexture";
                let texture = de(texture)?;
                reg.textures.get(N, texture)?;
                let exported = pipe.export_texture(texture, fence_token.to_native())?;
                out.replies.push((de(reply)?, Reply::Exported(exported)));
                N
            }
            A::ExportSurface {
                surface,
                reply,
                fence_token,
            } => {
                const N: &str = "ExportSurface";
                let surface = de(surface)?;
                reg.surfaces.get(N, surface)?;
                let exported = pipe.export_surface(surface, fence_token.to_native())?;
                out.replies.push((de(reply)?, Reply::Exported(exported)));
                N
            }
            A::HandOverTexture {
                texture,
                reply,
                signal,
                gl_texture,
            } => {
                const N: &str = "HandOverTexture";
                let texture = de(texture)?;
                reg.textures.get(N, texture)?;
                let handed = if *gl_texture {
                    Reply::HostTexture(pipe.hand_over_gl_texture(texture, *signal)?)
                } else {
                    Reply::HostImage(pipe.hand_over_texture(texture, *signal)?)
                };
                out.replies.push((de(reply)?, handed));
                N
            }
            A::WaitSemaphore { op } => {
                pipe.wait_semaphore(de(&**op)?)?;
                "WaitSemaphore"
            }
            A::SignalSemaphore { op } => {
                pipe.signal_semaphore(de(&**op)?)?;
                "SignalSemaphore"
            }
            A::ImportTextureMemory { texture, memory } => {
                const N: &str = "ImportTextureMemory";
                let texture = de(texture)?;
                let memory: crate::record::TextureMemory = de(&**memory)?;
                if let Err(e) = reg.textures.get(N, texture) {
                    drop(crate::backend::take_handed_fd(memory.fd_token));
                    return Err(e);
                }
                pipe.import_texture_memory(texture, memory)?;
                N
            }
            A::ExportEglImage { texture, reply } => {
                const N: &str = "ExportEglImage";
                let texture = de(texture)?;
                reg.textures.get(N, texture)?;
                let token = pipe.export_egl_image(texture)?;
                out.replies.push((de(reply)?, Reply::EglImage(token)));
                N
            }
            A::ImportEglImage { texture, token } => {
                const N: &str = "ImportEglImage";
                let texture = de(texture)?;
                reg.textures.get(N, texture)?;
                pipe.import_egl_image(texture, de(token)?)?;
                N
            }
            A::DestroyEglImage { token } => {
                pipe.destroy_egl_image(de(token)?)?;
                "DestroyEglImage"
            }
            A::ExportEglRenderbufferImage {
                renderbuffer,
                reply,
            } => {
                const N: &str = "ExportEglRenderbufferImage";
                let renderbuffer = de(renderbuffer)?;
                reg.renderbuffers.get(N, renderbuffer)?;
                let token = pipe.export_egl_renderbuffer_image(renderbuffer)?;
                out.replies.push((de(reply)?, Reply::EglImage(token)));
                N
            }
            A::ImportDmaBufTexture { texture, image } => {
                const N: &str = "ImportDmaBufTexture";
                let texture = de(texture)?;
                let image: crate::record::DmaBufImport = de(&**image)?;
                if let Err(e) = reg.textures.get(N, texture) {
                    for plane in &image.planes {
                        drop(crate::backend::take_handed_fd(plane.fd_token));
                    }
                    return Err(e);
                }
                pipe.import_dma_buf_texture(texture, image)?;
                N
            }
            A::ExportDmaBuf { token, reply } => {
                let planes = pipe.export_dma_buf(de(token)?)?;
                out.replies.push((de(reply)?, Reply::DmaBuf(planes)));
                "ExportDmaBuf"
            }
            A::ImportEglRenderbufferImage {
                renderbuffer,
                token,
            } => {
                const N: &str = "ImportEglRenderbufferImage";
                let renderbuffer = de(renderbuffer)?;
                reg.renderbuffers.get(N, renderbuffer)?;
                pipe.import_egl_renderbuffer_image(renderbuffer, de(token)?)?;
                N
            }
            A::Present { surface } => {
                const N: &str = "Present";
                let surface = de(surface)?;
                reg.surfaces.get(N, surface)?;
                pipe.present(surface)?;
                N
            }

            // ---- Transform feedback ----
            A::CreateTransformFeedback { xfb } => {
                const N: &str = "CreateTransformFeedback";
                let xfb = de(xfb)?;
                reg.transform_feedbacks.insert(N, xfb, ())?;
                pipe.create_transform_feedback(xfb)?;
                N
            }
            A::DestroyTransformFeedback { xfb } => {
                const N: &str = "DestroyTransformFeedback";
                let xfb = de(xfb)?;
                reg.transform_feedbacks.remove(N, xfb)?;
                pipe.destroy_transform_feedback(xfb)?;
                N
            }
            A::BeginTransformFeedback {
                xfb,
                primitive,
                buffers,
            } => {
                const N: &str = "BeginTransformFeedback";
                let xfb = de(xfb)?;
                reg.transform_feedbacks.get(N, xfb)?;
                let buffers: [XfbBinding; MAX_XFB_BUFFERS] = de(&**buffers)?;
                for b in &buffers {
                    if let Some(h) = b.buffer {
                        reg.buffers.get(N, h)?;
                    }
                }
                let primitive = de(primitive)?;
                pipe.begin_transform_feedback(self.contexts.current(N)?, xfb, primitive, buffers)?;
                N
            }
            A::PauseTransformFeedback { xfb } => {
                const N: &str = "PauseTransformFeedback";
                let xfb = de(xfb)?;
                reg.transform_feedbacks.get(N, xfb)?;
                pipe.pause_transform_feedback(self.contexts.current(N)?, xfb)?;
                N
            }
            A::ResumeTransformFeedback { xfb } => {
                const N: &str = "ResumeTransformFeedback";
                let xfb = de(xfb)?;
                reg.transform_feedbacks.get(N, xfb)?;
                pipe.resume_transform_feedback(self.contexts.current(N)?, xfb)?;
                N
            }
            A::EndTransformFeedback { xfb } => {
                const N: &str = "EndTransformFeedback";
                let xfb = de(xfb)?;
                reg.transform_feedbacks.get(N, xfb)?;
                pipe.end_transform_feedback(self.contexts.current(N)?, xfb)?;
                N
            }
            A::DrawTransformFeedback {
                topology,
                xfb,
                instances,
                binding,
            } => {
                const N: &str = "DrawTransformFeedback";
                let xfb = de(xfb)?;
                reg.transform_feedbacks.get(N, xfb)?;
                let topology = de(topology)?;
                pipe.draw_transform_feedback(
                    self.contexts.current(N)?,
                    topology,
                    xfb,
                    instances.to_native(),
                    *binding,
                )?;
                N
            }

            // ---- Queries and fences ----
            A::CreateQuery { query, kind } => {
                const N: &str = "CreateQuery";
                let query = de(query)?;
                reg.queries.insert(N, query, ())?;
                pipe.create_query(query, de(kind)?)?;
                N
            }
            A::BeginQuery { query } => {
                const N: &str = "BeginQuery";
                let query = de(query)?;
                reg.queries.get(N, query)?;
                pipe.begin_query(query)?;
                N
            }
            A::BeginQueryIndexed { query, index } => {
                const N: &str = "BeginQueryIndexed";
                let query = de(query)?;
                reg.queries.get(N, query)?;
                pipe.begin_query_indexed(query, index.to_native())?;
                N
            }
            A::EndQuery { query } => {
                const N: &str = "EndQuery";
                let query = de(query)?;
                reg.queries.get(N, query)?;
                pipe.end_query(query)?;
                N
            }
            A::QueryTimestamp { query } => {
                const N: &str = "QueryTimestamp";
                let query = de(query)?;
                reg.queries.get(N, query)?;
                pipe.query_timestamp(query)?;
                N
            }
            A::QueryResult { query, reply } => {
                const N: &str = "QueryResult";
                let query = de(query)?;
                reg.queries.get(N, query)?;
                let value = pipe.query_result(query)?;
                out.replies.push((de(reply)?, Reply::Query(value)));
                N
            }
            A::QueryResultToBuffer {
                query,
                buffer,
                write,
            } => {
                // Every backend the same way: the result as `QueryResult` reads it (a
                // backend-side wait, no round trip to the client), written as `WriteBuffer`
                // writes, so it lands between the records before and after it.
                const N: &str = "QueryResultToBuffer";
                let query = de(query)?;
                let buffer = de(buffer)?;
                reg.queries.get(N, query)?;
                reg.buffers.get(N, buffer)?;
                let QueryWrite {
                    offset,
                    available,
                    width,
                    max,
                } = de(&**write)?;
                let width = usize::from(width);
                if width != 4 && width != 8 {
                    return Err(crate::backend::bad_value(
                        N,
                        format!("a result of {width} bytes"),
                    ));
                }
                let value = pipe.query_result(query)?;
                let value = if available { 1 } else { value.min(max) };
                let bytes = value.to_le_bytes();
                let write = BufferWrite {
                    buffer,
                    offset,
                    bytes: &bytes[..width],
                    unsynchronized: false,
                };
                pipe.write_buffer(N, write)?;
                N
            }
            A::BeginConditionalRender { query, inverted } => {
                const N: &str = "BeginConditionalRender";
                let query = de(query)?;
                reg.queries.get(N, query)?;
                pipe.begin_conditional_render(self.contexts.current(N)?, query, *inverted)?;
                N
            }
            A::EndConditionalRender => {
                const N: &str = "EndConditionalRender";
                pipe.end_conditional_render(self.contexts.current(N)?)?;
                N
            }
            A::DestroyQuery { query } => {
                const N: &str = "DestroyQuery";
                let query = de(query)?;
                reg.queries.remove(N, query)?;
                pipe.destroy_query(query)?;
                N
            }
            A::InsertFence { fence, seq } => {
                const N: &str = "InsertFence";
                let fence = de(fence)?;
                let seq = seq.to_native();
                if seq <= self.fences.last {
                    return Err(crate::backend::bad_value(
                        N,
                        format!("fence sequence {seq} after {}", self.fences.last),
                    ));
                }
                reg.fences.insert(N, fence, ())?;
                pipe.insert_fence(fence)?;
                self.fences.last = seq;
                self.fences.pending.push_back((seq, fence));
                N
            }
            A::WaitFence {
                fence,
                timeout_ns,
                reply,
            } => {
                const N: &str = "WaitFence";
                let fence = de(fence)?;
                reg.fences.get(N, fence)?;
                let signalled = pipe.wait_fence(fence, timeout_ns.to_native())?;
                out.replies.push((de(reply)?, Reply::Fence(signalled)));
                N
            }
            A::DestroyFence { fence } => {
                const N: &str = "DestroyFence";
                let fence = de(fence)?;
                reg.fences.remove(N, fence)?;
                pipe.destroy_fence(fence)?;
                self.fences.pending.retain(|&(_, f)| f != fence);
                N
            }
        };
        Ok(name)
    }
}

/// Puts read-back bytes where the record asked: a reply, or a pack buffer range.
fn deliver<P: Pipe>(
    pipe: &mut P,
    n: &'static str,
    bytes: Vec<u8>,
    dst: PixelDestination,
    out: &mut Outbox,
) -> Result<(), SessionError> {
    match dst {
        PixelDestination::Reply(reply) => out.replies.push((reply, Reply::Bytes(bytes))),
        PixelDestination::Buffer { buffer, offset } => {
            let write = BufferWrite {
                buffer,
                offset,
                bytes: &bytes,
                unsynchronized: false,
            };
            pipe.write_buffer(n, write)?;
        }
    }
    Ok(())
}

//! The pipe records: the only thing a backend ever sees.
//!
//! Records are gallium-shaped. Objects and CSOs have `Create*` / `Bind*` / `Destroy*`; small
//! mutable values have `Set*`; verbs are named by what they do (`Draw`, `Clear`, `Blit`,
//! `ReadPixels`, `Finish`, `Present`). A record never contains a pointer, an address, a file
//! descriptor number or a GL name: objects are named by [handles](crate::handle), bulk bytes
//! live in the batch's stage area and are named by a [`Span`].
//!
//! Ordering is the contract: a backend applies records in order, and a record may only use a
//! handle created by an earlier record (of this or an earlier batch) and not yet destroyed.
//! `Bind*` and `Set*` state belongs to the current context (`SetContext`) and persists across
//! draws and batches until changed. Objects are shared by all contexts of the session.
//! Destroying an object may leave a binding of it dangling in some context; the engine rebinds
//! before any verb could use it, so a backend only has to tolerate the dangling binding.
//!
//! Every change to this file changes [`crate::FINGERPRINT`], so two builds that disagree on
//! the schema refuse each other at connect time instead of misreading records.

use rkyv::{Archive, Deserialize, Serialize};

use crate::format::{
    Format, ImageAccess, IndexType, PixelLayout, QueryKind, ShaderStage, TextureKind, Topology,
};
use crate::handle::{
    BlendHandle, BufferHandle, DepthStencilHandle, FenceHandle, FramebufferHandle, ProgramHandle,
    QueryHandle, RasterHandle, RenderbufferHandle, SamplerHandle, SurfaceHandle, TextureHandle,
    TransformFeedbackHandle, VertexLayoutHandle,
};
use crate::state::{
    BlendState, DepthStencilState, FramebufferState, MAX_DRAW_BUFFERS, RasterState, Rect, Region,
    SamplerState, SurfaceDesc, TextureView, VertexLayout,
};

/// Bytes of one draw of a [`Record::MultiDraw`]: first vertex and vertex count.
pub const MULTI_DRAW_SIZE: usize = 8;

/// Bytes of one draw of a [`Record::MultiDrawIndexed`]: index offset, index count and base
/// vertex.
pub const MULTI_DRAW_INDEXED_SIZE: usize = 16;

/// A byte range of the batch's stage area.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[rkyv(derive(Debug))]
pub struct Span {
    /// Offset from the start of the stage area.
    pub offset: u32,
    /// Length in bytes.
    pub len: u32,
}

impl Span {
    /// The empty span.
    pub const EMPTY: Span = Span { offset: 0, len: 0 };
}

/// Names the answer to a record that needs one (`ReadPixels`, `ReadBuffer`, `QueryResult`,
/// `WaitFence`, `Finish`). Minted by the client, increasing by one per request in a session,
/// so replies arrive in the order they were asked for.
#[derive(
    Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[rkyv(derive(Debug, PartialEq, Eq))]
pub struct ReplyId(pub u32);

/// A framebuffer as a record refers to it.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub enum FramebufferRef {
    /// No framebuffer at all (a surfaceless context with the default framebuffer bound).
    None,
    /// The default framebuffer of a surface.
    Surface(SurfaceHandle),
    /// A framebuffer object.
    Object(FramebufferHandle),
}

/// Which image of a framebuffer a read verb reads.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub enum ReadImage {
    /// Colour attachment `i` (of a surface: its one colour image, `i = 0`).
    Color(u8),
    /// The depth image.
    Depth,
    /// The stencil image.
    Stencil,
    /// Depth and stencil together (packed reads).
    DepthStencil,
}

/// The source of a read verb.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct ReadSource {
    /// Framebuffer read from.
    pub framebuffer: FramebufferRef,
    /// Image of it.
    pub image: ReadImage,
}

/// Where `ReadPixels` puts the pixels.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub enum PixelDestination {
    /// Into a reply, tightly packed rows of the record's layout.
    Reply(ReplyId),
    /// Into a buffer object at an offset (pixel pack buffer), tightly packed.
    Buffer {
        /// The pack buffer.
        buffer: BufferHandle,
        /// Byte offset.
        offset: u64,
    },
}

/// Value of a `ClearBuffer` record.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[rkyv(derive(Debug))]
pub enum ClearValue {
    /// Colour of a float/normalized draw buffer.
    Float([f32; 4]),
    /// Colour of a signed integer draw buffer.
    Int([i32; 4]),
    /// Colour of an unsigned integer draw buffer.
    Uint([u32; 4]),
    /// Depth.
    Depth(f32),
    /// Stencil.
    Stencil(u8),
    /// Depth and stencil together.
    DepthStencil(f32, u8),
}

/// SPIR-V of one stage of a program.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[rkyv(derive(Debug))]
pub struct StageCode {
    /// The stage.
    pub stage: ShaderStage,
    /// SPIR-V words (little endian) in the stage area, with the `Location`, `Index`,
    /// `Binding` and `DescriptorSet` decorations of [`ProgramDesc`]'s layout; entry point
    /// `main`.
    pub spirv: Span,
}

/// One sampler slot of a program: a combined image-sampler descriptor.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct SamplerSlot {
    /// The kind of texture it reads (shadow and integer samplers read the same kinds).
    pub kind: TextureKind,
    /// Its element in a sampler array (0 for a plain sampler and for an array's first
    /// element): slot `s` with element `e` is array element `e` of binding `1 + s - e`.
    pub element: u32,
}

/// One uniform block slot of a program: a uniform buffer descriptor.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct BlockSlot {
    /// Bytes the shaders read from the bound range (`UNIFORM_BLOCK_DATA_SIZE`).
    pub size: u32,
    /// Its element in an array of blocks (0 otherwise), as for [`SamplerSlot::element`].
    pub element: u32,
}

/// One shader storage block slot of a program: a storage buffer descriptor.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct StorageSlot {
    /// Its element in an array of blocks (0 otherwise), as for [`SamplerSlot::element`].
    pub element: u32,
}

/// One image slot of a program: a storage image descriptor
/// (`GL_ARB_shader_image_load_store`).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct ImageSlot {
    /// The kind of texture its image uniform declares (`image2DArray`: [`TextureKind::D2Array`]).
    pub kind: TextureKind,
    /// Its element in an image array (0 otherwise), as for [`SamplerSlot::element`].
    pub element: u32,
}

/// The image a `BindImage` record binds to an image slot: one level of a texture, all its
/// layers or one, seen in `format` (the image unit's format, which the engine checked to be
/// compatible with the texture's: same size or same class).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct ImageBinding {
    /// The texture (a view resolves to its storage like any texture record).
    pub texture: TextureHandle,
    /// Its level.
    pub level: u32,
    /// `None`: every layer (GL's `layered` of an array, cube or 3D texture, as the image
    /// uniform's type sees them); `Some(l)`: layer (or cube face, or 3D slice) `l` alone,
    /// as a 2D image.
    pub layer: Option<u32>,
    /// The format shaders read and write it in.
    pub format: Format,
    /// What shaders may do with it.
    pub access: ImageAccess,
}

/// A linked program as the backend needs it: code per stage, and the interface the engine
/// assigned.
///
/// ## Binding layout (the contract between the front end and both backends)
/// Every resource is in descriptor set 0, numbered for the whole program (the same number
/// in every stage that uses it):
/// - **binding 0**: the default uniform block (GL's loose uniforms, std140,
///   `default_block_size` bytes, contents from `SetUniforms`). The number is reserved
///   whether or not the program has one.
/// - **bindings `1 ..= S`** (`S = samplers.len()`): combined image-samplers, binding
///   `1 + s` for sampler slot `s`; `BindTexture { slot: s }` binds it. A GLSL sampler array
///   is one SPIR-V variable: it is decorated with the binding of its first slot and has as
///   many array elements as it has slots; the bindings of its other slots are unused.
/// - **bindings `S + 1 ..= S + B`** (`B = uniform_blocks.len()`): uniform buffers, binding
///   `1 + S + b` for uniform block `b` (GL's block index); `BindUniformBuffer { slot: b }`
///   binds it. Arrays of blocks work like sampler arrays.
/// - **bindings `S + B + 1 ..= S + B + K`** (`K = storage_blocks.len()`): storage
///   buffers, binding `1 + S + B + k` for shader storage block `k`;
///   `BindStorageBuffer { slot: k }` binds it. Arrays of blocks work like sampler arrays.
/// - **bindings `S + B + K + 1 ..= S + B + K + I`** (`I = images.len()`): storage images,
///   binding `1 + S + B + K + i` for image slot `i`; `BindImage { slot: i }` binds it.
///   Arrays of images work like sampler arrays. Each image variable's type carries the
///   format of its `layout` qualifier (`Unknown` for a `writeonly` image declared without).
/// - Resource variables no code uses may carry numbers above `S + B + K + I`; no descriptor
///   is needed for them.
///
/// A compute program has one stage, [`ShaderStage::Compute`], and the same layout; it is
/// run by `Dispatch`/`DispatchIndirect` with its `local_size` (`COMPUTE_WORK_GROUP_SIZE`),
/// which the code declares too.
///
/// Stage interfaces: vertex inputs are at the locations `SetVertexBuffer`/vertex layouts
/// use (GL's attribute locations); fragment outputs at their colour numbers (`Index 1` for
/// the second source of dual-source blending); varyings at matching locations in
/// consecutive stages.
///
/// ## What the code already does for GL
/// The front end rewrites the SPIR-V where GL means what neither Vulkan nor GLSL ES can
/// say, so a backend runs it as it is:
/// - **Point size**: the default block ends with a 16-byte hidden slot (`default_block_size`
///   counts it; it is there whenever the size is not 0), whose first float the engine sets
///   in every `SetUniforms`: `glPointSize`'s value while `PROGRAM_POINT_SIZE` is off, else
///   0. The last stage before rasterization (the vertex stage, or a geometry stage emitting
///   points) writes `PointSize` from it when it is positive, else its own value (1.0 if it
///   writes none). A backend never needs `SetPointSize`.
/// - **Rectangle textures**: no `Dim Rect` image remains. Samplers of
///   [`TextureKind::Rectangle`] slots are 2D in the code and sample with normalized
///   coordinates (the code divides by the size of level 0), so a backend binds a rectangle
///   texture as a one-level 2D image with an ordinary sampler.
/// - **Uniform initializers** are in the engine's `SetUniforms` data like any other value.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[rkyv(derive(Debug))]
pub struct ProgramDesc {
    /// Code of every linked stage, in pipeline order.
    pub stages: Vec<StageCode>,
    /// Size in bytes of the default uniform block (`SetUniforms` data), 0 if none; it
    /// includes the hidden point-size slot (see above).
    pub default_block_size: u32,
    /// Sampler slots, in slot order.
    pub samplers: Vec<SamplerSlot>,
    /// Uniform block slots, in block-index order.
    pub uniform_blocks: Vec<BlockSlot>,
    /// Shader storage block slots, in block-index order.
    pub storage_blocks: Vec<StorageSlot>,
    /// Image slots, in slot order.
    pub images: Vec<ImageSlot>,
    /// A compute program's work group size (zeros for other programs).
    pub local_size: [u32; 3],
    /// The outputs transform feedback captures, in GL's order (empty: none). The last
    /// stage before rasterization already carries their `XfbBuffer`/`XfbStride`/`Offset`
    /// decorations (what Vulkan captures by); a backend that names varyings to its driver
    /// instead reads them here.
    pub xfb: Vec<XfbOutput>,
}

/// Where a captured output comes from in the last stage before rasterization.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub enum XfbSource {
    /// The whole user output at this `Location` (a captured member of an interface block
    /// has an output of its own, which the front end adds).
    Location(u32),
    /// `gl_Position`.
    Position,
    /// `gl_PointSize`.
    PointSize,
    /// The whole `gl_ClipDistance` array.
    ClipDistance,
    /// `gl_Layer`.
    Layer,
    /// `gl_ViewportIndex`.
    ViewportIndex,
    /// `gl_PrimitiveID` (a geometry shader's output).
    PrimitiveId,
    /// `gl_SkipComponents1`..`4` (the components skipped), or `gl_NextBuffer` (0): the
    /// layout names of interleaved capture, which capture nothing; a backend that names
    /// varyings to its driver names these too.
    Skip(u8),
}

/// One captured output of a program.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct XfbOutput {
    /// What is captured.
    pub source: XfbSource,
    /// The buffer binding it is written to (`< MAX_XFB_BUFFERS`): when interleaved, 0 up to
    /// the first `gl_NextBuffer`, then one more past each; its index in the list when
    /// separate.
    pub buffer: u8,
}

/// Transform feedback buffer bindings (GL's `MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS`).
pub const MAX_XFB_BUFFERS: usize = 4;

/// The primitive kind transform feedback captures (`glBeginTransformFeedback`'s mode):
/// every primitive drawn is written as a list of these.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub enum XfbPrimitive {
    /// `POINTS`.
    Points,
    /// `LINES`.
    Lines,
    /// `TRIANGLES`.
    Triangles,
}

/// A buffer range bound for capture (`buffer: None`: nothing bound at that index).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[rkyv(derive(Debug))]
pub struct XfbBinding {
    /// The buffer.
    pub buffer: Option<BufferHandle>,
    /// Start of the range, a multiple of 4.
    pub offset: u64,
    /// Bytes of the range, a multiple of 4 (the rest of the buffer for `glBindBufferBase`).
    pub size: u64,
    /// Bytes the program writes into this binding for each vertex (its `XfbStride`): what
    /// a draw from the capture divides the written bytes by.
    pub stride: u32,
}

/// Where and how `QueryResultToBuffer` writes a query's result.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct QueryWrite {
    /// Byte offset in the buffer.
    pub offset: u64,
    /// Whether to write the availability (1) instead of the result.
    pub available: bool,
    /// Bytes written: 4 or 8, little-endian.
    pub width: u8,
    /// The largest value the getter's type holds (the result is clamped to it).
    pub max: u64,
}

/// A byte range of a buffer.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct BufferRange {
    /// Start.
    pub offset: u64,
    /// Length (0 in `SetTextureBuffer`: to the end of the buffer).
    pub size: u64,
}

/// `AttachHeapRange`'s ranges.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct HeapRange {
    /// Start in the buffer.
    pub offset: u64,
    /// Start in the mapping heap.
    pub heap: u64,
    /// Length of both.
    pub size: u64,
}

/// The ranges of a `CopyBuffer`.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct BufferCopy {
    /// Start in the source.
    pub src_offset: u64,
    /// Start in the destination.
    pub dst_offset: u64,
    /// Bytes copied.
    pub size: u64,
}

/// Where a texture's storage lives when it is a host's memory (`ImportTextureMemory`,
/// `GL_EXT_memory_object_fd`).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct TextureMemory {
    /// The token of an opaque Vulkan memory file descriptor (`OPAQUE_FD`) the engine left
    /// in its process's table ([`crate::backend::hand_over_fd`]); the backend takes it
    /// ([`crate::backend::take_handed_fd`]) and its import owns it. Another process's table
    /// has no such token, so the record means nothing there and is sent only in process.
    pub fd_token: u64,
    /// Bytes of the memory object (the allocation size the exporter made).
    pub size: u64,
    /// Where the image starts in the memory.
    pub offset: u64,
    /// Whether the memory is a dedicated allocation (`DEDICATED_MEMORY_OBJECT_EXT`).
    pub dedicated: bool,
    /// Mip levels of the image (the texture's immutable levels).
    pub levels: u32,
}

/// The layout a texture's image is in at a semaphore operation (`GL_EXT_semaphore`'s
/// `LAYOUT_*_EXT`, Vulkan's `VkImageLayout` of the same names).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub enum SemaphoreLayout {
    /// `NONE`: contents undefined (`VK_IMAGE_LAYOUT_UNDEFINED`).
    Undefined,
    General,
    ColorAttachment,
    DepthStencilAttachment,
    DepthStencilReadOnly,
    ShaderReadOnly,
    TransferSrc,
    TransferDst,
    DepthReadOnlyStencilAttachment,
    DepthAttachmentStencilReadOnly,
}

/// A texture named by a semaphore operation, with the layout it is in (a wait) or is to be
/// left in (a signal).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct SemaphoreTexture {
    pub texture: TextureHandle,
    pub layout: SemaphoreLayout,
}

/// A wait on or a signal of a semaphore a Vulkan program exported (`WaitSemaphore`,
/// `SignalSemaphore`, `GL_EXT_semaphore_fd`).
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct SemaphoreOp {
    /// The token of a duplicate of the semaphore's opaque descriptor (`OPAQUE_FD`) the
    /// engine left in its process's table ([`crate::backend::hand_over_fd`]); the backend
    /// takes it and imports it into a semaphore of its own, which shares the payload.
    pub fd_token: u64,
    /// The textures whose images the semaphore hands over, with their layouts.
    pub textures: Vec<SemaphoreTexture>,
}

/// A dma-buf an `EGLImage` is made of (`eglCreateImage` with `EGL_LINUX_DMA_BUF_EXT`), as
/// `ImportDmaBufTexture` carries it.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct DmaBufImport {
    /// Width and height in pixels.
    pub size: [i32; 2],
    /// DRM fourcc.
    pub fourcc: i32,
    /// The planes, 1 to 4.
    pub planes: Vec<DmaBufImportPlane>,
    /// The other attributes the application gave (colour-space and siting hints), as
    /// `(name, value)` pairs passed on unchanged.
    pub hints: Vec<(i32, i32)>,
}

/// One plane of a [`DmaBufImport`].
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[rkyv(derive(Debug))]
pub struct DmaBufImportPlane {
    /// The token of a duplicate of its descriptor in the process's table
    /// ([`crate::backend::hand_over_fd`]).
    pub fd_token: u64,
    /// Bytes from the start of the buffer.
    pub offset: i32,
    /// Bytes per row.
    pub pitch: i32,
    /// Its DRM format modifier, where the application gave one.
    pub modifier: Option<u64>,
}

/// A box of texels of one image.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct TextureRegion {
    /// First texel (x, y, and z or layer).
    pub origin: [u32; 3],
    /// Extent (width, height, and depth or layers).
    pub size: [u32; 3],
}

/// Where a `CopyTexture` reads and writes.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct TextureCopy {
    /// The framebuffer image read.
    pub src: ReadSource,
    /// First texel written (x, y, and z or layer).
    pub origin: [u32; 3],
    /// The framebuffer rectangle read.
    pub rect: Rect,
}

/// The texture or renderbuffer one end of a `CopyImage` names.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub enum ImageObject {
    /// A texture.
    Texture(TextureHandle),
    /// A renderbuffer.
    Renderbuffer(RenderbufferHandle),
}

/// One end of a `CopyImage`.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct ImageCopyEnd {
    /// The image object.
    pub object: ImageObject,
    /// Mip level (0 for renderbuffers).
    pub level: u8,
    /// First texel, as `glCopyImageSubData` names it: x, y, and z, which is the array layer
    /// (of a 1D array too: y is 0 there), the cube face, or the slice of a 3D texture.
    pub origin: [u32; 3],
}

/// What a `CopyImage` copies: `size` texels of the source (width, height, and layers,
/// faces or slices), at the same place in texels or blocks in the destination.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct ImageCopy {
    /// Where it reads.
    pub src: ImageCopyEnd,
    /// Where it writes.
    pub dst: ImageCopyEnd,
    /// Texels of the source region (width, height, depth).
    pub size: [u32; 3],
}

/// What a `CreateTextureView` makes: a texture of `kind` and `format` that shares levels
/// and layers of another texture's storage (`glTextureView`). `storage` is the texture that
/// owns the storage, never a view itself: the engine composes a view of a view into one
/// range of the owner, and keeps the owner alive while views of it live.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct TextureViewDesc {
    /// The view's kind (its GL target).
    pub kind: TextureKind,
    /// The texture that owns the storage.
    pub storage: TextureHandle,
    /// The view's format, of the storage format's view class.
    pub format: Format,
    /// The storage level that is the view's level 0.
    pub min_level: u8,
    /// Levels the view has.
    pub levels: u8,
    /// The storage layer (cube face, array layer) that is the view's first.
    pub min_layer: u32,
    /// Layers the view has (6 for a cube map).
    pub layers: u32,
}

/// What a `ReadPixels` reads and where it puts it.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct ReadRegion {
    /// The framebuffer rectangle read.
    pub rect: Rect,
    /// Where the tightly packed pixels go.
    pub dst: PixelDestination,
}

/// Where a `WriteTextureFromBuffer` reads its pixels (a pixel unpack buffer).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct BufferPixels {
    /// The texels written.
    pub region: TextureRegion,
    /// The buffer read.
    pub buffer: BufferHandle,
    /// Byte offset of the first pixel in the buffer.
    pub offset: u64,
    /// Bytes from one row to the next.
    pub row_stride: u32,
    /// Bytes from one slice (or layer) to the next.
    pub image_stride: u32,
    /// Whether multi-byte components are byte-swapped (`UNPACK_SWAP_BYTES`).
    pub swap_bytes: bool,
}

/// Where a `WriteCompressedTextureFromBuffer` reads its blocks.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct BufferBlocks {
    /// The texels written.
    pub region: TextureRegion,
    /// The buffer read.
    pub buffer: BufferHandle,
    /// The bytes of the blocks in the buffer.
    pub range: BufferRange,
}

/// What a `ReadTexture` reads and where it puts it.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rkyv(derive(Debug))]
pub struct TextureRead {
    /// Extent of the image (width, height, and depth or layers).
    pub size: [u32; 3],
    /// Where the tightly packed pixels go.
    pub dst: PixelDestination,
}

/// Which buffers a `Clear` clears: bit `i` (0..8) colour draw buffer `i`, then depth, stencil.
pub mod clear_mask {
    /// Depth buffer bit.
    pub const DEPTH: u16 = 1 << 8;
    /// Stencil buffer bit.
    pub const STENCIL: u16 = 1 << 9;
    /// All colour draw buffers.
    pub const COLOR_ALL: u16 = 0xff;
}

/// Which buffers a `Blit` copies.
pub mod blit_mask {
    /// Colour.
    pub const COLOR: u8 = 1;
    /// Depth.
    pub const DEPTH: u8 = 2;
    /// Stencil.
    pub const STENCIL: u8 = 4;
}

/// A draw buffer that writes nowhere (`GL_NONE`) in [`Record::SetDrawBuffers`].
pub const DRAW_BUFFER_NONE: u8 = 0xff;

/// One pipe record.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[rkyv(derive(Debug))]
pub enum Record {
    // ---- Contexts ----
    /// Creates the backend state of a GL context (bindings, dynamic state), all at defaults.
    CreateContext { context: u32 },
    /// Makes the following records apply to a context's state (until the next `SetContext`).
    SetContext { context: u32 },
    /// Destroys a context's state.
    DestroyContext { context: u32 },

    // ---- Surfaces and framebuffers ----
    /// Creates a surface's images.
    CreateSurface {
        surface: SurfaceHandle,
        desc: SurfaceDesc,
    },
    /// Destroys a surface.
    DestroySurface { surface: SurfaceHandle },
    /// Creates an empty framebuffer object.
    CreateFramebuffer { framebuffer: FramebufferHandle },
    /// Replaces a framebuffer object's attachments.
    SetFramebufferState {
        framebuffer: FramebufferHandle,
        state: Box<FramebufferState>,
    },
    /// Destroys a framebuffer object.
    DestroyFramebuffer { framebuffer: FramebufferHandle },
    /// Makes a framebuffer the target of draws and clears.
    BindFramebuffer { framebuffer: FramebufferRef },
    /// Maps fragment outputs to colour attachments of the bound framebuffer: entry `i` is the
    /// attachment index draw buffer `i` writes, or [`DRAW_BUFFER_NONE`].
    SetDrawBuffers { buffers: [u8; MAX_DRAW_BUFFERS] },

    // ---- Buffers ----
    /// (Re)allocates a buffer's storage; previous contents are discarded (zeroed).
    CreateBuffer { buffer: BufferHandle, size: u64 },
    /// Destroys a buffer.
    DestroyBuffer { buffer: BufferHandle },
    /// Writes stage bytes into a buffer.
    WriteBuffer {
        buffer: BufferHandle,
        offset: u64,
        data: Span,
    },
    /// A `WriteBuffer` of bytes no pending command reads or writes, as the program promised
    /// by mapping them `MAP_UNSYNCHRONIZED_BIT`: a backend whose buffer memory the CPU can
    /// write may write them at once, ahead of commands recorded but not yet run, instead
    /// of through a transfer ordered with them.
    WriteBufferUnsynchronized {
        buffer: BufferHandle,
        offset: u64,
        data: Span,
    },
    /// Fills a buffer range with a pattern of stage bytes (GL 4.3's `glClearBufferSubData`:
    /// one texel of 1 to 16 bytes, which the range's offset and size are multiples of),
    /// repeated from the range's start.
    FillBuffer {
        buffer: BufferHandle,
        range: Box<BufferRange>,
        pattern: Span,
    },
    /// Copies between (or within, without overlap) buffers.
    CopyBuffer {
        src: BufferHandle,
        dst: BufferHandle,
        region: Box<BufferCopy>,
    },
    /// Reads a buffer range back into a reply.
    ReadBuffer {
        buffer: BufferHandle,
        range: Box<BufferRange>,
        reply: ReplyId,
    },
    /// Backs a range of a buffer with a block of the session's mapping heap (`shm`/`fork`:
    /// a persistent mapping's memory, which both processes map): the block is copied into
    /// the range now, and at the start of each later batch the pages that changed since are
    /// copied in, until `DetachHeapRange`. Refused on a session without a heap, and for a
    /// block outside it.
    AttachHeapRange {
        buffer: BufferHandle,
        range: Box<HeapRange>,
    },
    /// Copies in the last changes of the buffer's heap block and ends its backing.
    DetachHeapRange { buffer: BufferHandle },

    // ---- Textures and renderbuffers ----
    /// Creates a texture of a kind, with no images.
    CreateTexture {
        texture: TextureHandle,
        kind: TextureKind,
    },
    /// Creates a texture that views another texture's storage (GL 4.3 texture views): its
    /// images are those of the range the view names, and writes through either are seen
    /// through both.
    CreateTextureView {
        texture: TextureHandle,
        view: Box<TextureViewDesc>,
    },
    /// Destroys a texture.
    DestroyTexture { texture: TextureHandle },
    /// (Re)defines one image (level, and face of a cube map); contents undefined.
    /// `depth` is the depth of a 3D level or the layer count of an array level.
    DefineTextureImage {
        texture: TextureHandle,
        level: u8,
        face: u8,
        format: Format,
        width: u32,
        height: u32,
        depth: u32,
        samples: u8,
        fixed_sample_locations: bool,
    },
    /// Writes tightly packed client pixels into a region of one image.
    WriteTexture {
        texture: TextureHandle,
        level: u8,
        face: u8,
        region: Box<TextureRegion>,
        layout: PixelLayout,
        data: Span,
    },
    /// Writes compressed blocks into a region of one image.
    WriteCompressedTexture {
        texture: TextureHandle,
        level: u8,
        face: u8,
        region: Box<TextureRegion>,
        data: Span,
    },
    /// Writes pixels from a buffer object into a region of one image.
    WriteTextureFromBuffer {
        texture: TextureHandle,
        level: u8,
        face: u8,
        layout: PixelLayout,
        source: Box<BufferPixels>,
    },
    /// Writes compressed blocks from a buffer object into a region of one image.
    WriteCompressedTextureFromBuffer {
        texture: TextureHandle,
        level: u8,
        face: u8,
        source: Box<BufferBlocks>,
    },
    /// Clears a box of one image to one value (`glClearTexSubImage` of a multisample
    /// texture, whose images take no uploads): `value` is the clear value already converted
    /// to the image's format by the engine (a colour of its numeric class with every
    /// channel quantized as the format stores it; depth, stencil, or both for depth and
    /// stencil formats, where `Depth` leaves a depth-stencil image's stencil as it is), and
    /// `region` the box (x, y, and the first layer and layer count of an array as z).
    ClearTexture {
        texture: TextureHandle,
        level: u8,
        face: u8,
        region: Box<TextureRegion>,
        value: Box<ClearValue>,
    },
    /// Reads one whole image as tightly packed rows of `layout`.
    ReadTexture {
        texture: TextureHandle,
        level: u8,
        face: u8,
        layout: PixelLayout,
        read: Box<TextureRead>,
    },
    /// Reads one whole compressed image as its blocks: slice by slice, rows of 4x4 blocks
    /// tightly packed (`glGetCompressedTexImage`).
    ReadCompressedTexture {
        texture: TextureHandle,
        level: u8,
        face: u8,
        read: Box<TextureRead>,
    },
    /// Copies a rectangle of a framebuffer into a region of one image (`origin[2]` of the
    /// region is the layer or z slice; its size is the rectangle's).
    CopyTexture {
        texture: TextureHandle,
        level: u8,
        face: u8,
        region: Box<TextureCopy>,
    },
    /// Fills levels `base+1 ..= max` from level `base` (of every face).
    GenerateMipmap {
        texture: TextureHandle,
        base: u8,
        max: u8,
    },
    /// Sets a texture's level range and swizzle.
    SetTextureView {
        texture: TextureHandle,
        view: TextureView,
    },
    /// Makes a buffer texture view a buffer range (`None`: no buffer).
    SetTextureBuffer {
        texture: TextureHandle,
        buffer: Option<BufferHandle>,
        format: Format,
        range: Box<BufferRange>,
    },
    /// Copies texels between images of textures and renderbuffers of one size class, bit
    /// for bit (`glCopyImageSubData`).
    CopyImage { copy: Box<ImageCopy> },
    /// Creates a renderbuffer with no storage.
    CreateRenderbuffer { renderbuffer: RenderbufferHandle },
    /// (Re)allocates a renderbuffer's storage.
    DefineRenderbuffer {
        renderbuffer: RenderbufferHandle,
        format: Format,
        width: u32,
        height: u32,
        samples: u8,
    },
    /// Destroys a renderbuffer.
    DestroyRenderbuffer { renderbuffer: RenderbufferHandle },

    // ---- Constant state objects ----
    /// Creates a blend CSO.
    CreateBlendState {
        cso: BlendHandle,
        state: Box<BlendState>,
    },
    /// Binds a blend CSO.
    BindBlendState { cso: BlendHandle },
    /// Destroys a blend CSO (never the bound one).
    DestroyBlendState { cso: BlendHandle },
    /// Creates a depth-stencil CSO.
    CreateDepthStencilState {
        cso: DepthStencilHandle,
        state: DepthStencilState,
    },
    /// Binds a depth-stencil CSO.
    BindDepthStencilState { cso: DepthStencilHandle },
    /// Destroys a depth-stencil CSO.
    DestroyDepthStencilState { cso: DepthStencilHandle },
    /// Creates a rasterizer CSO.
    CreateRasterState {
        cso: RasterHandle,
        state: Box<RasterState>,
    },
    /// Binds a rasterizer CSO.
    BindRasterState { cso: RasterHandle },
    /// Destroys a rasterizer CSO.
    DestroyRasterState { cso: RasterHandle },
    /// Creates a sampler CSO.
    CreateSamplerState {
        cso: SamplerHandle,
        state: Box<SamplerState>,
    },
    /// Destroys a sampler CSO.
    DestroySamplerState { cso: SamplerHandle },
    /// Creates a vertex-layout CSO.
    CreateVertexLayout {
        cso: VertexLayoutHandle,
        layout: Box<VertexLayout>,
    },
    /// Binds a vertex-layout CSO.
    BindVertexLayout { cso: VertexLayoutHandle },
    /// Destroys a vertex-layout CSO.
    DestroyVertexLayout { cso: VertexLayoutHandle },

    // ---- Programs and resources ----
    /// Creates a linked program; its SPIR-V lives in the stage area.
    CreateProgram {
        program: ProgramHandle,
        desc: Box<ProgramDesc>,
    },
    /// Binds a program (`None`: no program).
    BindProgram { program: Option<ProgramHandle> },
    /// Destroys a program.
    DestroyProgram { program: ProgramHandle },
    /// Replaces the bound program's default uniform block contents (std140 bytes).
    SetUniforms { data: Span },
    /// Binds a buffer range to uniform block `slot` of the bound program (`size` 0: to the
    /// end of the buffer).
    BindUniformBuffer {
        slot: u8,
        buffer: Option<BufferHandle>,
        offset: u64,
        size: u64,
    },
    /// Binds a buffer range to shader storage block `slot` of the bound program (`size` 0:
    /// to the end of the buffer).
    BindStorageBuffer {
        slot: u8,
        buffer: Option<BufferHandle>,
        offset: u64,
        size: u64,
    },
    /// Binds an image to image slot `slot` of the bound program (the engine resolves GL's
    /// image units through the program's image uniforms; `None`: nothing usable is bound
    /// to the unit, and loads read 0 while stores are dropped).
    BindImage {
        slot: u8,
        image: Option<ImageBinding>,
    },
    /// Binds a texture and sampler CSO to sampler `slot` of the bound program (the engine
    /// resolves GL's texture units through the program's sampler uniforms; `None`: the
    /// texture is missing or incomplete, and sampling returns (0, 0, 0, 1)).
    BindTexture {
        slot: u8,
        texture: Option<TextureHandle>,
        sampler: Option<SamplerHandle>,
    },

    // ---- Vertex input ----
    /// Sets the buffer and offset vertex attribute `slot` reads.
    SetVertexBuffer {
        slot: u8,
        buffer: Option<BufferHandle>,
        offset: u64,
    },
    /// Sets the index buffer of indexed draws.
    SetIndexBuffer { buffer: Option<BufferHandle> },
    /// Sets the value a disabled attribute reads (raw bits of four floats or integers).
    SetGenericAttrib { index: u8, value: [u32; 4] },
    /// Enables primitive restart with an index (`enabled`), or at the maximum of each draw's
    /// index type (`fixed`, GL 4.3's `PRIMITIVE_RESTART_FIXED_INDEX`, which takes precedence).
    SetPrimitiveRestart {
        enabled: bool,
        index: u32,
        fixed: bool,
    },

    // ---- Dynamic state ----
    /// Sets viewports `first..first + count` to one rectangle (x, y, width, height: GL 4.1
    /// keeps them as floats) and depth range. `glViewport` sets every viewport alike, so the
    /// single-viewport case is one record; a geometry stage's `gl_ViewportIndex` picks one.
    SetViewport {
        first: u8,
        count: u8,
        rect: [f32; 4],
        near: f32,
        far: f32,
    },
    /// Sets scissor rectangles `first..first + count` to one rectangle (each used while the
    /// raster state enables scissoring for its index).
    SetScissor { first: u8, count: u8, rect: Rect },
    /// Sets the constant blend colour.
    SetBlendColor { color: [f32; 4] },
    /// Sets the stencil reference values.
    SetStencilRef { front: u8, back: u8 },
    /// Sets the polygon offset factor and units, and the clamp of the offset's magnitude
    /// (`glPolygonOffsetClamp`; 0 or NaN: none, as GL says).
    SetDepthBias { factor: f32, units: f32, clamp: f32 },
    /// Sets the rasterized line width.
    SetLineWidth { width: f32 },
    /// Sets the point size used when the program does not write `gl_PointSize`. Programs
    /// already read it from their default block (see [`ProgramDesc`]): a backend may ignore
    /// this record.
    SetPointSize { size: f32 },
    /// Sets the vertices of each patch a `Patches` draw reads (`PATCH_VERTICES`, 1 to 32).
    SetPatchVertices { count: u8 },
    /// Sets where the next indirect draws read how many of their commands to draw
    /// (`glMultiDraw*IndirectCount`, GL 4.6): while `buffer` is set, `DrawIndirect` and
    /// `DrawIndexedIndirect` draw the first `min(count, draws)` of their commands, `count`
    /// being the `u32` at `offset` (a multiple of 4) in `buffer` as the device holds it when
    /// the draw runs. The engine sets it just before such a draw and clears it after.
    SetDrawCount {
        buffer: Option<BufferHandle>,
        offset: u64,
    },
    /// Sets sample coverage and the sample mask.
    SetSampleMask {
        coverage: Option<f32>,
        invert: bool,
        mask: Option<u32>,
    },

    // ---- Verbs ----
    /// Runs the bound compute program over `groups` work groups (each at most the
    /// backend's `Caps::compute` count; none of them 0). Outside any render pass.
    Dispatch { groups: [u32; 3] },
    /// Runs the bound compute program over the work groups three `u32`s of `buffer` at
    /// `offset` (a multiple of 4, inside the buffer) give.
    DispatchIndirect { buffer: BufferHandle, offset: u64 },
    /// `glMemoryBarrier`: GL's barrier bits (`GL_*_BARRIER_BIT`), ordering the writes of
    /// earlier shader invocations before the accesses of later commands the bits name.
    MemoryBarrier { barriers: u32 },
    /// Draws non-indexed primitives; instanced attributes start at element
    /// `base_instance` (`gl_InstanceID` does not include it).
    Draw {
        topology: Topology,
        first: u32,
        count: u32,
        instances: u32,
        base_instance: u32,
    },
    /// Draws indexed primitives from the bound index buffer.
    DrawIndexed {
        topology: Topology,
        index_type: IndexType,
        offset: u64,
        count: u32,
        instances: u32,
        base_vertex: i32,
        base_instance: u32,
    },
    /// Draws the draws of one `glMultiDrawArrays` call, one instance each: `draws` holds
    /// [`MULTI_DRAW_SIZE`] bytes per draw, its first vertex and its vertex count as
    /// little-endian `u32`s. Draw `i`'s `gl_DrawID` is `i`; a draw of no vertices draws
    /// nothing but keeps its index. The engine sends a call of two draws or more this way,
    /// and consecutive `glDrawArrays`-like draws of one instance with nothing between them
    /// (as Mesa's threaded dispatch merges them) with `same_draw_id`: every draw's
    /// `gl_DrawID` is then 0.
    MultiDraw {
        topology: Topology,
        draws: Span,
        same_draw_id: bool,
    },
    /// Draws the draws of one `glMultiDrawElements(BaseVertex)` call from the bound index
    /// buffer, one instance each: `draws` holds [`MULTI_DRAW_INDEXED_SIZE`] bytes per draw,
    /// the byte offset of its first index (`u64`), its index count (`u32`) and its base
    /// vertex (`i32`), little-endian. `gl_DrawID`, and merged draws, as in
    /// [`Record::MultiDraw`].
    MultiDrawIndexed {
        topology: Topology,
        index_type: IndexType,
        draws: Span,
        same_draw_id: bool,
    },
    /// Draws `draws` non-indexed commands read from `buffer` (GL's
    /// `DrawArraysIndirectCommand`: count, instances, first, base instance; four `u32`s)
    /// from `offset` on, `stride` bytes apart. The offset and stride are multiples of 4 and
    /// every command lies inside the buffer (the engine checked); the backend reads the
    /// buffer as the device has it, since a shader may have written it.
    DrawIndirect {
        topology: Topology,
        buffer: BufferHandle,
        offset: u64,
        draws: u32,
        stride: u32,
    },
    /// Draws `draws` indexed commands read from `buffer` (GL's
    /// `DrawElementsIndirectCommand`: count, instances, first index, base vertex, base
    /// instance; five 32-bit words) with the bound index buffer, as [`Record::DrawIndirect`].
    DrawIndexedIndirect {
        topology: Topology,
        index_type: IndexType,
        buffer: BufferHandle,
        offset: u64,
        draws: u32,
        stride: u32,
    },
    /// Clears draw buffers of the bound framebuffer, honouring the bound masks and scissor.
    Clear {
        mask: u16,
        color: [f32; 4],
        depth: f32,
        stencil: u8,
    },
    /// Clears one draw buffer (or depth/stencil) of the bound framebuffer.
    ClearBuffer { draw_buffer: u8, value: ClearValue },
    /// Copies a region of a framebuffer into the bound draw framebuffer's draw buffers
    /// (`regions`: source, then destination).
    Blit {
        src: ReadSource,
        regions: Box<[Region; 2]>,
        mask: u8,
        linear: bool,
    },
    /// Reads pixels of a framebuffer.
    ReadPixels {
        src: ReadSource,
        layout: PixelLayout,
        region: Box<ReadRegion>,
    },
    /// Submits the work recorded so far.
    Flush,
    /// Waits for all work, then replies.
    Finish { reply: ReplyId },
    /// Presents a surface (a frame boundary).
    Present { surface: SurfaceHandle },
    /// Copies level 0 of a 2D texture into new exportable device memory once the work
    /// before it has completed, and replies with the memory as an opaque file descriptor
    /// (`Reply::Exported`). Sent on every transport that can pass a descriptor (not
    /// `tcp://`; a server sends it ahead of the reply, `transport::client`), to a backend
    /// whose caps have `memory_export`; the engine checked that the texture has a defined,
    /// uncompressed colour level 0 and is no view.
    ///
    /// With a `fence_token` (not 0; in process only, to a backend whose caps have
    /// `sync_fd_export`) the backend does not wait: it submits the copy signalling a
    /// semaphore, leaves that semaphore's `sync_file` under the token in the process's
    /// table (`backend::leave_fd`) and replies at once; the importer waits on the fence.
    ExportTexture {
        texture: TextureHandle,
        reply: ReplyId,
        fence_token: u64,
    },
    /// Copies the colour image of a surface into new exportable device memory, as
    /// `ExportTexture` copies a texture's level 0 (the engine checked that the surface is
    /// single-sampled and has colour).
    ExportSurface {
        surface: SurfaceHandle,
        reply: ReplyId,
        fence_token: u64,
    },
    /// Copies level 0 of a 2D texture into a new image of the device a host lent the
    /// backend once the work before it has completed, and replies with the image and its
    /// memory, which then belong to the host (`Reply::HostImage`). Sent only on in-process
    /// transports, to a backend whose caps have `host_images`, with the checks of
    /// `ExportTexture`. With `signal`, the backend does not wait: the copy's submission
    /// signals a new semaphore of the host's device, which the reply carries. With
    /// `gl_texture`, the copy is a new native texture of the share group of a host's GL
    /// context, which the backend's context joined (`Reply::HostTexture`, caps
    /// `host_textures`); `signal` then asks for a native `GLsync` instead of a wait.
    HandOverTexture {
        texture: TextureHandle,
        reply: ReplyId,
        signal: bool,
        gl_texture: bool,
    },
    /// Moves the storage of a 2D texture the engine just defined with immutable levels
    /// (`glTexStorageMem2DEXT`) into a host's memory: a new image of the texture's format,
    /// extent and `memory.levels`, bound at `memory.offset` of the imported descriptor.
    /// Sent only on in-process transports, to a backend whose caps have `memory_export`;
    /// the engine decided every GL error. A driver that refuses the import, an image too
    /// large for the memory at that offset, or a token this process's table does not hold,
    /// is reported as a refused object and the texture keeps its own storage.
    ImportTextureMemory {
        texture: TextureHandle,
        memory: Box<TextureMemory>,
    },
    /// `glWaitSemaphoreEXT`: the backend's later work on the device waits for the semaphore
    /// (the work recorded before is submitted first); the textures' images are in the
    /// layouts given. Sent only in process, to a backend whose caps have `semaphore_fd`;
    /// the engine decided every GL error. A token this process's table does not hold (a
    /// replay) waits for nothing.
    WaitSemaphore { op: Box<SemaphoreOp> },
    /// `glSignalSemaphoreEXT`: the textures' images moved to the layouts given, then
    /// everything recorded before is submitted signalling the semaphore. Sent as
    /// `WaitSemaphore` is.
    SignalSemaphore { op: Box<SemaphoreOp> },
    /// Makes an `EGLImage` of level 0 of a 2D texture in the backend's own native context
    /// once the work before it completed, keeps it in the process's table of images and
    /// replies with its token (`Reply::EglImage`; 0: the driver refused it). Sent only on
    /// in-process transports, to a backend whose caps have `egl_images`; the engine checked
    /// the texture as for `ExportTexture` and decided every EGL error.
    ExportEglImage {
        texture: TextureHandle,
        reply: ReplyId,
    },
    /// Makes level 0 of a 2D texture the image of the token an `ExportEglImage` of this
    /// process replied (`glEGLImageTargetTexture2DOES`), possibly another session's: the
    /// engine defined the texture's level 0 with the image's format and size just before.
    ImportEglImage { texture: TextureHandle, token: u64 },
    /// Releases the process's image of a token (`eglDestroyImage`); textures made of it
    /// keep their storage.
    DestroyEglImage { token: u64 },
    /// Makes an `EGLImage` of a single-sampled colour renderbuffer in the backend's own
    /// native context once the work before it completed (`EGL_KHR_gl_renderbuffer_image`),
    /// kept in the same table as `ExportEglImage`'s and replied as its token
    /// (`Reply::EglImage`; 0: the driver refused it). The engine decided every EGL error.
    ExportEglRenderbufferImage {
        renderbuffer: RenderbufferHandle,
        reply: ReplyId,
    },
    /// Makes a renderbuffer's storage the image of a token of this process's table
    /// (`glEGLImageTargetRenderbufferStorageOES`): the engine defined it with the image's
    /// format and size just before (`DefineRenderbuffer`, single-sampled); framebuffers it
    /// is attached to see the new storage.
    ImportEglRenderbufferImage {
        renderbuffer: RenderbufferHandle,
        token: u64,
    },
    /// Exports the image of a token of this process's table as a dma-buf
    /// (`EGL_MESA_image_dma_buf_export`) once the work before it completed, replying
    /// `Reply::DmaBuf` (`None` where the native display exports none). The engine decided
    /// every EGL error and sends it only on the in-process transports.
    ExportDmaBuf { token: u64, reply: ReplyId },
    /// Makes level 0 of a 2D texture a native `EGLImage` of a dma-buf
    /// (`EGL_EXT_image_dma_buf_import`, `glEGLImageTargetTexture2DOES`): the engine defined
    /// the level with the image's size and a format of its fourcc just before, checked the
    /// attributes and left a duplicate of each plane's descriptor in the process's table.
    /// The backend makes the native image on its own display, binds it and releases it (the
    /// texture keeps the memory). Sent only on the in-process transports.
    ImportDmaBufTexture {
        texture: TextureHandle,
        image: Box<DmaBufImport>,
    },

    // ---- Transform feedback ----
    /// Creates a transform feedback object: a capture's bindings and write positions,
    /// which outlive the capture for draws from it.
    CreateTransformFeedback { xfb: TransformFeedbackHandle },
    /// Destroys a transform feedback object (never the current context's active one).
    DestroyTransformFeedback { xfb: TransformFeedbackHandle },
    /// Starts capturing into `xfb` the current program's captured outputs of every draw
    /// into the buffers, from the start of each range, until `EndTransformFeedback`. The
    /// engine has checked everything GL checks: a program that captures is bound and stays
    /// bound while capture is not paused, draws use primitives of `primitive`'s kind, the
    /// buffers the program writes are bound and not otherwise used by the draws, and no
    /// other object of the context captures unpaused.
    BeginTransformFeedback {
        xfb: TransformFeedbackHandle,
        primitive: XfbPrimitive,
        buffers: Box<[XfbBinding; MAX_XFB_BUFFERS]>,
    },
    /// Suspends capture into `xfb` (begun, not paused): draws are not captured; the write
    /// positions stay.
    PauseTransformFeedback { xfb: TransformFeedbackHandle },
    /// Resumes capture into `xfb` (paused) where it stopped.
    ResumeTransformFeedback { xfb: TransformFeedbackHandle },
    /// Stops capturing into `xfb` (begun, paused or not); the captured bytes are visible
    /// to every later record, and the object keeps how many vertices it captured.
    EndTransformFeedback { xfb: TransformFeedbackHandle },
    /// Draws `instances` instances of the vertices the last capture into `xfb` wrote
    /// (GL's `glDrawTransformFeedback*`), from vertex 0: their count is the bytes written
    /// into binding `binding` (the first buffer of the vertex stream drawn) divided by that
    /// binding's stride. The engine checked that the capture ended at least once.
    DrawTransformFeedback {
        topology: Topology,
        xfb: TransformFeedbackHandle,
        instances: u32,
        binding: u8,
    },

    // ---- Queries and fences ----
    /// Creates a query object of a kind.
    CreateQuery { query: QueryHandle, kind: QueryKind },
    /// Starts counting.
    BeginQuery { query: QueryHandle },
    /// Starts counting vertex stream `index` (`PrimitivesGenerated` and
    /// `TransformFeedbackPrimitivesWritten` queries; `index` below the backend's
    /// `max_vertex_streams`, and above 0: stream 0's is `BeginQuery`).
    BeginQueryIndexed { query: QueryHandle, index: u32 },
    /// Stops counting.
    EndQuery { query: QueryHandle },
    /// Records a timestamp into a query.
    QueryTimestamp { query: QueryHandle },
    /// Replies with a query's result once available.
    QueryResult { query: QueryHandle, reply: ReplyId },
    /// Writes a query's result, once available, into a buffer, in order with the other
    /// records (`glGetQueryObject*` with a `QUERY_BUFFER` bound): `width` (4 or 8)
    /// little-endian bytes at `offset`, the result clamped to `max`, or 1 where `available`
    /// asks whether it is available (it is, once waited for). The engine checked the range.
    QueryResultToBuffer {
        query: QueryHandle,
        buffer: BufferHandle,
        write: Box<QueryWrite>,
    },
    /// Destroys a query.
    DestroyQuery { query: QueryHandle },

    // ---- Conditional rendering ----
    /// Makes the current context's rendering conditional (`glBeginConditionalRender`):
    /// until its `EndConditionalRender`, the context's draws of every kind, `Clear`,
    /// `ClearBuffer`, `Blit`, `Dispatch` and `DispatchIndirect` take effect only if
    /// `query`'s result as of this record is nonzero (zero when `inverted`). The engine
    /// checked that the query is an occlusion query, not active, and that the context has
    /// no conditional rendering active. A query never ended has no result to decide by: the
    /// verbs take effect (as on Mesa).
    BeginConditionalRender { query: QueryHandle, inverted: bool },
    /// Makes the current context's rendering unconditional again.
    EndConditionalRender,
    /// Inserts a fence after the work recorded so far. `seq` is the fence's place in the
    /// session's completion watermark (`crate::fence`): greater than every earlier fence's.
    InsertFence { fence: FenceHandle, seq: u64 },
    /// Replies whether a fence signalled, waiting up to `timeout_ns`.
    WaitFence {
        fence: FenceHandle,
        timeout_ns: u64,
        reply: ReplyId,
    },
    /// Destroys a fence.
    DestroyFence { fence: FenceHandle },
}

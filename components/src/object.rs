//! GL objects as entity components.
//!
//! Every GL object is an entity of its share group's `World`, with one main component per
//! kind (`Buffer`, `Texture`, …) and a [`Life`] that keeps it alive while referenced. The
//! components hold GL's view of the object (what `glGet*` reads back) and the wire handle
//! the backend knows it by. Mutations that a backend must see bump the component's
//! `generation`, so caches derived from an object (a vertex layout CSO, a sampler CSO, a
//! framebuffer's completeness) can tell they are stale with one compare.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;

use crate::gl::*;
use crate::state::TextureTarget;
use tessera_wire::format::Format;
use tessera_wire::format::ShaderStage;
use tessera_wire::handle::{
    BufferHandle, FenceHandle, FramebufferHandle, ProgramHandle, QueryHandle, RenderbufferHandle,
    SamplerHandle, TextureHandle, VertexLayoutHandle,
};
use tessera_wire::state::{MAX_DRAW_BUFFERS, MAX_VERTEX_ATTRIBS, TextureView};
use tessera_wire::transport::heap::HeapBlock;

/// What keeps an object alive. An object dies (one `Destroy*` record, its entity despawned,
/// its wire slot freed) when it has no name and no references.
///
/// Most objects lose their name at `delete_*` and live on unnamed while referenced. Shaders
/// and programs keep their name while a deletion is pending (GL lets the application still
/// query them): for those `delete_pending` is set instead, and the name is freed when the
/// object finally dies.
#[derive(Component, Debug, Default)]
pub struct Life {
    /// The GL name while the application has not deleted it; 0 after deletion.
    pub name: u32,
    /// Binding points (in any context), attachments to containers, current-program uses and
    /// shader attachments that refer to the object.
    pub refs: Refs,
    /// Deleted while referenced, keeping its name until it dies (shaders, programs).
    pub delete_pending: bool,
}

impl Life {
    /// A new, named object with no references.
    pub fn named(name: u32) -> Self {
        Self {
            name,
            refs: Refs::default(),
            delete_pending: false,
        }
    }

    /// Whether nothing keeps the object alive any more.
    pub fn is_dead(&self) -> bool {
        (self.name == 0 || self.delete_pending) && self.refs.get() == 0
    }
}

/// The references to an object ([`Life::refs`]). Counted through a shared borrow of the
/// component: binding an object retains it and releases what was bound, on every bind, and
/// a shared lookup of a component costs less than half of a mutable one (which also stamps
/// change ticks that nothing in Tessera reads).
#[derive(Debug, Default)]
pub struct Refs(std::sync::atomic::AtomicU32);

impl Refs {
    /// A count of `n` references.
    pub fn new(n: u32) -> Self {
        Self(std::sync::atomic::AtomicU32::new(n))
    }

    /// How many references there are.
    pub fn get(&self) -> u32 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Adds a reference.
    pub fn add(&self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Drops a reference (never below zero: a release without its retain leaves the count
    /// at zero in a release build).
    pub fn sub(&self) {
        let before = self.0.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        debug_assert!(before > 0, "releasing an object with no references");
        if before == 0 {
            self.0.store(0, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// An object's debug label (`glObjectLabel`, `KHR_debug`): shorter than `MAX_LABEL_LENGTH`
/// bytes. Absent when the object has none; despawned with the object.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Label(pub Box<str>);

// ---------------------------------------------------------------------------------------
// Buffers

/// A client mapping of a buffer range (`map_buffer_range`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    /// `BUFFER_MAP_OFFSET`.
    pub offset: i64,
    /// `BUFFER_MAP_LENGTH`.
    pub length: i64,
    /// `BUFFER_ACCESS_FLAGS`.
    pub access: GLbitfield,
    /// The client memory handed to the application; its address is `BUFFER_MAP_POINTER`.
    pub bytes: MappedBytes,
    /// What `bytes` held when the mapping was handed out, kept only when unmapping must
    /// upload just the bytes the application changed (an unsynchronized write map, without
    /// explicit flushes, over bytes the client does not know): see the engine's `buffer`.
    /// For a persistent write map without explicit flushes it is the twin: what the backend
    /// holds of the range, brought up to date each time the changed pages are sent.
    pub initial: Option<Box<[u8]>>,
}

/// `MIN_MAP_BUFFER_ALIGNMENT` (GL 4.2's `ARB_map_buffer_alignment`): the address of a
/// mapping minus its offset into the buffer is a multiple of this.
pub const MAP_ALIGNMENT: usize = 64;

/// The memory of a mapping: `len` bytes placed so that their address is congruent to the
/// mapped offset modulo [`MAP_ALIGNMENT`], as GL 4.2 requires (a program may read the
/// buffer's aligned vectors through the pointer). Client memory (a heap block), or, for a
/// persistent mapping over `shm`/`fork`, a block of the session's mapping heap that the
/// server reads itself ([`HeapBlock`]). The memory never moves while the mapping lives, so
/// the address stays valid when the `Mapping` does.
#[derive(Debug)]
pub struct MappedBytes(Memory);

#[derive(Debug)]
enum Memory {
    Client {
        block: Box<[u8]>,
        start: usize,
        len: usize,
    },
    Heap(HeapBlock),
}

impl MappedBytes {
    /// `len` zero bytes of client memory for a mapping at `offset` into its buffer.
    pub fn zeroed(len: usize, offset: u64) -> Self {
        Self::zeroed_in(None, len, offset)
    }

    /// As [`MappedBytes::zeroed`], in `spare` (a block an earlier mapping gave up with
    /// [`MappedBytes::into_client_block`]) where it is large enough, allocating nothing.
    pub fn zeroed_in(spare: Option<Box<[u8]>>, len: usize, offset: u64) -> Self {
        let mut bytes = Self::reused(spare, len, offset);
        bytes.fill(0);
        bytes
    }

    /// As [`MappedBytes::zeroed_in`], but a reused block keeps whatever bytes it held
    /// (a new one is zeros): for a mapping whose every byte the caller writes next.
    pub fn reused(spare: Option<Box<[u8]>>, len: usize, offset: u64) -> Self {
        let size = len + MAP_ALIGNMENT - 1;
        let block = match spare {
            Some(b) if b.len() >= size => b,
            _ => vec![0u8; size].into_boxed_slice(),
        };
        let want = (offset % MAP_ALIGNMENT as u64) as usize;
        let have = block.as_ptr() as usize % MAP_ALIGNMENT;
        let start = (want + MAP_ALIGNMENT - have) % MAP_ALIGNMENT;
        Self(Memory::Client { block, start, len })
    }

    /// Gives up the memory, returning the client block (for [`MappedBytes::zeroed_in`]) if
    /// it was one.
    pub fn into_client_block(self) -> Option<Box<[u8]>> {
        match self.0 {
            Memory::Client { block, .. } => Some(block),
            Memory::Heap(_) => None,
        }
    }

    /// A block of the mapping heap (already placed for its offset by the heap).
    pub fn heap(block: HeapBlock) -> Self {
        Self(Memory::Heap(block))
    }

    /// The block of the mapping heap, for a mapping that has one.
    pub fn heap_block(&self) -> Option<&HeapBlock> {
        match &self.0 {
            Memory::Heap(b) => Some(b),
            Memory::Client { .. } => None,
        }
    }

    /// Gives up the memory, returning the heap block if it was one.
    pub fn into_heap_block(self) -> Option<HeapBlock> {
        match self.0 {
            Memory::Heap(b) => Some(b),
            Memory::Client { .. } => None,
        }
    }
}

/// A clone is client memory holding the same bytes (a heap block has one owner).
impl Clone for MappedBytes {
    fn clone(&self) -> Self {
        let mut copy = Self::zeroed(self.len(), self.as_ptr() as u64);
        copy.copy_from_slice(self);
        copy
    }
}

impl PartialEq for MappedBytes {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for MappedBytes {}

impl std::ops::Deref for MappedBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Memory::Client { block, start, len } => &block[*start..*start + *len],
            Memory::Heap(b) => b,
        }
    }
}

impl std::ops::DerefMut for MappedBytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        match &mut self.0 {
            Memory::Client { block, start, len } => &mut block[*start..*start + *len],
            Memory::Heap(b) => b,
        }
    }
}

/// The client's copy of a buffer's contents: every byte the client sent (`glBufferData`,
/// `glBufferSubData`, mappings) or read back, and the ranges the GPU may have written since
/// (copies, read-pixels or texture read-backs into the buffer), whose bytes here are stale.
/// A range with no stale byte is exactly what the backend holds at this point of the
/// record stream, so it can be read or kept without a round trip.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BufferShadow {
    /// The contents as last known, one byte per byte of the buffer.
    bytes: Vec<u8>,
    /// `[start, end)` ranges the GPU may have written since: sorted, disjoint, not touching.
    stale: Vec<(u64, u64)>,
}

impl BufferShadow {
    /// New storage of `size` bytes, known to read as zeros (`CreateBuffer`'s contract).
    pub fn zeroed(size: usize) -> Self {
        Self {
            bytes: vec![0; size],
            stale: Vec::new(),
        }
    }

    /// Storage holding `data`.
    pub fn with(data: &[u8]) -> Self {
        Self {
            bytes: data.to_vec(),
            stale: Vec::new(),
        }
    }

    /// The buffer's size.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the buffer has no storage.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The bytes of `[offset, offset + len)`, as last known (stale where
    /// [`Self::is_known`] says so).
    pub fn bytes(&self, offset: u64, len: u64) -> &[u8] {
        &self.bytes[offset as usize..(offset + len) as usize]
    }

    /// Whether no byte of `[offset, offset + len)` is stale.
    pub fn is_known(&self, offset: u64, len: u64) -> bool {
        self.stale_in(offset, len).next().is_none()
    }

    /// The stale parts of `[offset, offset + len)`, in order, clipped to it.
    pub fn stale_in(&self, offset: u64, len: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        let end = offset + len;
        self.stale
            .iter()
            .filter(move |&&(s, e)| s < end && offset < e)
            .map(move |&(s, e)| (s.max(offset), e.min(end)))
    }

    /// The client sent (or read back) `data` at `offset`: those bytes are known now.
    pub fn write(&mut self, offset: u64, data: &[u8]) {
        let len = data.len() as u64;
        self.bytes[offset as usize..(offset + len) as usize].copy_from_slice(data);
        self.remove_stale(offset, offset + len);
    }

    /// The GPU may write `[offset, offset + len)`: its bytes here are stale from now on.
    pub fn mark_stale(&mut self, offset: u64, len: u64) {
        if len == 0 {
            return;
        }
        let (mut s, mut e) = (offset, offset + len);
        // Merge with every range that overlaps or touches.
        self.stale.retain(|&(a, b)| {
            if a <= e && s <= b {
                s = s.min(a);
                e = e.max(b);
                false
            } else {
                true
            }
        });
        let at = self.stale.partition_point(|&(a, _)| a < s);
        self.stale.insert(at, (s, e));
    }

    /// Forgets stale marks inside `[start, end)`.
    fn remove_stale(&mut self, start: u64, end: u64) {
        if start >= end || self.stale.is_empty() {
            return;
        }
        let mut out = Vec::with_capacity(self.stale.len() + 1);
        for &(a, b) in &self.stale {
            if b <= start || end <= a {
                out.push((a, b));
                continue;
            }
            if a < start {
                out.push((a, start));
            }
            if end < b {
                out.push((end, b));
            }
        }
        self.stale = out;
    }
}

/// A buffer object.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// Wire handle.
    pub handle: BufferHandle,
    /// `BUFFER_SIZE`.
    pub size: i64,
    /// `BUFFER_USAGE`.
    pub usage: GLenum,
    /// The active mapping (`BUFFER_MAPPED`).
    pub mapping: Option<Mapping>,
    /// Bumped whenever the storage is re-specified (`buffer_data`).
    pub generation: u32,
    /// `BUFFER_IMMUTABLE_STORAGE`: the storage came from `glBufferStorage`.
    pub immutable: bool,
    /// `BUFFER_STORAGE_FLAGS`: what `glBufferStorage` allowed (`glBufferData` allows
    /// `MAP_READ_BIT | MAP_WRITE_BIT | DYNAMIC_STORAGE_BIT`, as Mesa reports it).
    pub storage_flags: GLbitfield,
    /// The client's copy of the contents; `None` where the engine keeps none (storage too
    /// large to mirror), so everything must be read back.
    pub shadow: Option<BufferShadow>,
}

impl Buffer {
    /// A buffer with no storage yet, as `glBindBuffer` creates it.
    pub fn new(handle: BufferHandle) -> Self {
        Self {
            handle,
            size: 0,
            usage: STATIC_DRAW,
            mapping: None,
            generation: 0,
            immutable: false,
            storage_flags: 0,
            shadow: Some(BufferShadow::default()),
        }
    }

    /// Whether the buffer is mapped in a way that forbids other uses (any mapping but a
    /// persistent one: GL 4.4 §6.3.2).
    pub fn mapped_exclusively(&self) -> bool {
        self.mapping
            .as_ref()
            .is_some_and(|m| m.access & MAP_PERSISTENT_BIT == 0)
    }
}

// ---------------------------------------------------------------------------------------
// Vertex arrays

/// Vertex buffer binding points of a vertex array (`MAX_VERTEX_ATTRIB_BINDINGS`, GL 4.3's
/// `ARB_vertex_attrib_binding`): one per attribute, as in Mesa.
pub const MAX_VERTEX_ATTRIB_BINDINGS: usize = MAX_VERTEX_ATTRIBS;

/// One attribute of a vertex array, as GL stores it: its format, its offset relative to
/// its binding, and which binding point it reads (GL 4.3 §10.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VertexAttribGl {
    /// `VERTEX_ATTRIB_ARRAY_ENABLED`.
    pub enabled: bool,
    /// `VERTEX_ATTRIB_ARRAY_SIZE` (1..4, or `BGRA`).
    pub size: GLint,
    /// `VERTEX_ATTRIB_ARRAY_TYPE`.
    pub ty: GLenum,
    /// `VERTEX_ATTRIB_ARRAY_NORMALIZED`.
    pub normalized: bool,
    /// `VERTEX_ATTRIB_ARRAY_INTEGER`.
    pub integer: bool,
    /// `VERTEX_ATTRIB_ARRAY_LONG`: doubles read as doubles by a `double`/`dvec*` input
    /// (`glVertexAttribLPointer`, GL 4.1's `ARB_vertex_attrib_64bit`).
    pub long: bool,
    /// `VERTEX_ATTRIB_RELATIVE_OFFSET`: bytes from the binding's offset to the first element.
    pub relative_offset: u32,
    /// `VERTEX_ATTRIB_BINDING`: the binding point (index into [`VertexArray::bindings`]).
    pub binding: u8,
    /// `VERTEX_ATTRIB_ARRAY_STRIDE` as the last `glVertexAttrib*Pointer` gave it (0 =
    /// tightly packed); only queried: the binding's stride is what is fetched.
    pub stride: GLsizei,
    /// `VERTEX_ATTRIB_ARRAY_POINTER` as the last `glVertexAttrib*Pointer` gave it; only
    /// queried: the binding's offset is what is fetched.
    pub pointer: usize,
}

impl Default for VertexAttribGl {
    fn default() -> Self {
        Self {
            enabled: false,
            size: 4,
            ty: FLOAT,
            normalized: false,
            integer: false,
            long: false,
            relative_offset: 0,
            binding: 0,
            stride: 0,
            pointer: 0,
        }
    }
}

/// One vertex buffer binding point of a vertex array (GL 4.3 §10.3.1): the buffer, where
/// its first element starts, the distance between elements and the instance divisor, shared
/// by every attribute that reads the binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VertexBindingGl {
    /// `VERTEX_BINDING_BUFFER`.
    pub buffer: Option<Entity>,
    /// Wire handle of `buffer` (an entity's handle never changes, so it is cached here to
    /// keep buffer lookups off the draw path).
    pub buffer_handle: Option<BufferHandle>,
    /// `VERTEX_BINDING_OFFSET`.
    pub offset: u64,
    /// `VERTEX_BINDING_STRIDE`: the stride fetched (0 reads the same element for every
    /// vertex; `glVertexAttribPointer`'s 0 is stored here as the packed size).
    pub stride: u32,
    /// `VERTEX_BINDING_DIVISOR`.
    pub divisor: GLuint,
}

impl Default for VertexBindingGl {
    /// GL's initial state: no buffer, offset 0, stride 16 (four floats), divisor 0.
    fn default() -> Self {
        Self {
            buffer: None,
            buffer_handle: None,
            offset: 0,
            stride: 16,
            divisor: 0,
        }
    }
}

/// A vertex array object (per context).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct VertexArray {
    /// Attributes.
    pub attribs: [VertexAttribGl; MAX_VERTEX_ATTRIBS],
    /// Vertex buffer binding points.
    pub bindings: [VertexBindingGl; MAX_VERTEX_ATTRIB_BINDINGS],
    /// `ELEMENT_ARRAY_BUFFER_BINDING`.
    pub element_buffer: Option<Entity>,
    /// Wire handle of `element_buffer`.
    pub element_buffer_handle: Option<BufferHandle>,
    /// Bumped when anything the vertex layout CSO depends on changes (enable, format, an
    /// attribute's binding, a binding's stride or divisor).
    pub layout_generation: u32,
    /// Bumped when what an attribute fetches from changes (a binding's buffer or offset,
    /// an attribute's binding or relative offset).
    pub buffers_generation: u32,
    /// Whether the array was ever bound (`is_vertex_array` is false before that).
    pub bound_once: bool,
    /// The vertex layout CSO of `layout_generation`, once computed.
    pub layout_cso: Option<(u32, VertexLayoutHandle)>,
}

impl Default for VertexArray {
    /// GL's initial state: attribute `i` reads binding point `i`.
    fn default() -> Self {
        Self {
            attribs: std::array::from_fn(|i| VertexAttribGl {
                binding: i as u8,
                ..VertexAttribGl::default()
            }),
            bindings: [VertexBindingGl::default(); MAX_VERTEX_ATTRIB_BINDINGS],
            element_buffer: None,
            element_buffer_handle: None,
            layout_generation: 0,
            buffers_generation: 0,
            bound_once: false,
            layout_cso: None,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Textures and samplers

/// Most mip levels of one image chain: enough for 2^15 texels, beyond any limit we report.
pub const MAX_LEVELS: usize = 16;

/// One image (a level of one face) of a texture.
///
/// Sizes are GL's: a 1D array keeps its layers in `height`, a 2D array in `depth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Image {
    /// `TEXTURE_WIDTH`.
    pub width: i32,
    /// `TEXTURE_HEIGHT`.
    pub height: i32,
    /// `TEXTURE_DEPTH` (layers of an array).
    pub depth: i32,
    /// `TEXTURE_INTERNAL_FORMAT` as specified (0 = no image).
    pub internal_format: GLenum,
    /// The storage format it resolved to.
    pub format: Option<Format>,
    /// `TEXTURE_SAMPLES`.
    pub samples: i32,
    /// `TEXTURE_FIXED_SAMPLE_LOCATIONS`.
    pub fixed_sample_locations: bool,
    /// `TEXTURE_COMPRESSED_IMAGE_SIZE` of a compressed image.
    pub compressed_size: i32,
}

impl Default for Image {
    /// No image: zero sizes, and `TEXTURE_FIXED_SAMPLE_LOCATIONS` true as GL reports it for
    /// every image that is not multisample.
    fn default() -> Self {
        Self {
            width: 0,
            height: 0,
            depth: 0,
            internal_format: 0,
            format: None,
            samples: 0,
            fixed_sample_locations: true,
            compressed_size: 0,
        }
    }
}

impl Image {
    /// Whether the image was specified (possibly with zero size).
    #[inline]
    pub fn is_defined(&self) -> bool {
        self.internal_format != 0
    }
}

/// Sampling parameters, shared by textures and sampler objects.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerParams {
    /// `TEXTURE_MIN_FILTER`.
    pub min_filter: GLenum,
    /// `TEXTURE_MAG_FILTER`.
    pub mag_filter: GLenum,
    /// `TEXTURE_WRAP_S`, `_T`, `_R`.
    pub wrap: [GLenum; 3],
    /// `TEXTURE_MIN_LOD`.
    pub min_lod: f32,
    /// `TEXTURE_MAX_LOD`.
    pub max_lod: f32,
    /// `TEXTURE_LOD_BIAS`.
    pub lod_bias: f32,
    /// `TEXTURE_COMPARE_MODE`.
    pub compare_mode: GLenum,
    /// `TEXTURE_COMPARE_FUNC`.
    pub compare_func: GLenum,
    /// `TEXTURE_BORDER_COLOR` as raw words (floats by bits, or integers).
    pub border_color: [u32; 4],
    /// How the border colour was last set: `FLOAT`, `INT` or `UNSIGNED_INT`.
    pub border_kind: GLenum,
    /// `TEXTURE_MAX_ANISOTROPY`.
    pub max_anisotropy: f32,
}

impl SamplerParams {
    /// Initial sampling parameters of a texture of `target`, or of a sampler object
    /// (`None`). Rectangle textures start with `LINEAR` and `CLAMP_TO_EDGE`; multisample
    /// textures, which are never filtered, report `NEAREST` and `CLAMP_TO_EDGE` (as Mesa
    /// does).
    pub fn initial(target: Option<TextureTarget>) -> Self {
        let rect = target == Some(TextureTarget::Rectangle);
        let multisample = matches!(
            target,
            Some(TextureTarget::D2Multisample | TextureTarget::D2MultisampleArray)
        );
        let (min_filter, mag_filter) = if multisample {
            (NEAREST, NEAREST)
        } else if rect {
            (LINEAR, LINEAR)
        } else {
            (NEAREST_MIPMAP_LINEAR, LINEAR)
        };
        Self {
            min_filter,
            mag_filter,
            wrap: if rect || multisample {
                [CLAMP_TO_EDGE; 3]
            } else {
                [REPEAT; 3]
            },
            min_lod: -1000.0,
            max_lod: 1000.0,
            lod_bias: 0.0,
            compare_mode: NONE,
            compare_func: LEQUAL,
            border_color: [0; 4],
            border_kind: FLOAT,
            max_anisotropy: 1.0,
        }
    }
}

/// A texture object.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Texture {
    /// Wire handle.
    pub handle: TextureHandle,
    /// The target fixed at first bind (`None` before).
    pub target: Option<TextureTarget>,
    /// Images by face (0 unless a cube map) and level.
    pub images: [[Image; MAX_LEVELS]; 6],
    /// Sampling parameters.
    pub sampler: SamplerParams,
    /// `TEXTURE_BASE_LEVEL`.
    pub base_level: i32,
    /// `TEXTURE_MAX_LEVEL`.
    pub max_level: i32,
    /// `TEXTURE_SWIZZLE_R/G/B/A`.
    pub swizzle: [GLenum; 4],
    /// `DEPTH_STENCIL_TEXTURE_MODE` is `STENCIL_INDEX` (GL 4.3; `DEPTH_COMPONENT` when
    /// false): a depth-stencil image is sampled for its stencil.
    pub stencil_sampling: bool,
    /// `TEXTURE_IMMUTABLE_LEVELS`: the levels `glTexStorage*` gave the texture (0: its
    /// storage is mutable; `TEXTURE_IMMUTABLE_FORMAT` is whether this is positive).
    pub immutable_levels: i32,
    /// The levels and layers of the storage this texture sees (`TEXTURE_VIEW_MIN_LEVEL`,
    /// `…_NUM_LEVELS`, `…_MIN_LAYER`, `…_NUM_LAYERS`): the whole storage of an immutable
    /// texture, a view's range of its storage, zeros for a mutable texture.
    pub view_range: ViewRange,
    /// The texture whose storage a view shares (the storage's owner, never a view), which
    /// the view keeps alive; `None` unless this is a view.
    pub view_of: Option<Entity>,
    /// The buffer of a buffer texture, its offset and size
    /// (`TEXTURE_BUFFER_DATA_STORE_BINDING`, `…_OFFSET`, `…_SIZE`).
    pub buffer: Option<TextureBufferRange>,
    /// The texel format the last `glTexBuffer` named (`TEXTURE_BUFFER_FORMAT`; `R8` before
    /// one). Kept apart from [`Self::buffer`] because `glTexBuffer(target, format, 0)`
    /// detaches the buffer and still sets the format.
    pub buffer_format: GLenum,
    /// Bumped when images change (completeness and views depend on them).
    pub images_generation: u32,
    /// Bumped when sampling parameters, level range or swizzle change.
    pub params_generation: u32,
    /// The view the backend last got in a `SetTextureView` (it depends on the level range,
    /// the swizzle and on which levels are defined).
    pub view_synced: Option<TextureView>,
    /// What binding this texture for sampling resolved to last time, valid while the
    /// generations it records are current (keeps completeness checks and sampler-state
    /// hashing off the draw path when textures are merely rebound).
    pub binding_cache: Option<TextureBindingCache>,
}

/// A range of levels and layers of a texture's storage (GL 4.3 texture views).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ViewRange {
    /// First level.
    pub min_level: i32,
    /// Level count.
    pub num_levels: i32,
    /// First layer (array layer or cube face).
    pub min_layer: i32,
    /// Layer count.
    pub num_layers: i32,
}

/// The cached outcome of binding a texture for sampling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureBindingCache {
    /// `images_generation` it was computed at.
    pub images: u32,
    /// `params_generation` it was computed at.
    pub params: u32,
    /// The sampler object (and its generation) that overrode the texture's parameters.
    pub sampler: Option<(Entity, u32)>,
    /// Whether the texture was complete.
    pub complete: bool,
    /// The sampler CSO it used (check it is still live before reuse).
    pub cso: Option<SamplerHandle>,
}

/// The buffer range a buffer texture reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureBufferRange {
    /// The buffer.
    pub buffer: Entity,
    /// Start of the range.
    pub offset: i64,
    /// Size of the range (-1: the whole buffer, as `tex_buffer` specifies it).
    pub size: i64,
}

impl Texture {
    /// A texture with no target and no images, as `glBindTexture` of a new name creates it
    /// (the target is set by the bind).
    pub fn new(handle: TextureHandle, target: Option<TextureTarget>) -> Self {
        Self {
            handle,
            target,
            images: [[Image::default(); MAX_LEVELS]; 6],
            sampler: SamplerParams::initial(target),
            base_level: 0,
            max_level: 1000,
            swizzle: [RED, GREEN, BLUE, ALPHA],
            stencil_sampling: false,
            immutable_levels: 0,
            view_range: ViewRange::default(),
            view_of: None,
            buffer: None,
            buffer_format: R8,
            images_generation: 0,
            params_generation: 0,
            view_synced: None,
            binding_cache: None,
        }
    }

    /// The base and max level sampling and mipmap generation use: `TEXTURE_BASE_LEVEL` and
    /// `TEXTURE_MAX_LEVEL` as set, or for an immutable texture clamped to its levels (the
    /// base to `[0, levels - 1]`, the max to `[base, levels - 1]`, GL 4.5 §8.14.3; a view's
    /// to the levels it views). Queries report the values as set.
    pub fn level_range(&self) -> (i32, i32) {
        if self.immutable_levels > 0 {
            let last = self.view_range.num_levels.max(1) - 1;
            let base = self.base_level.clamp(0, last);
            (base, self.max_level.clamp(base, last))
        } else {
            (self.base_level, self.max_level)
        }
    }
}

/// A sampler object.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Sampler {
    /// Sampling parameters.
    pub params: SamplerParams,
    /// Bumped when a parameter changes.
    pub generation: u32,
}

impl Sampler {
    /// A sampler with GL's initial parameters, as `glGenSamplers` creates it.
    pub fn new() -> Self {
        Self {
            params: SamplerParams::initial(None),
            generation: 0,
        }
    }
}

impl Default for Sampler {
    fn default() -> Self {
        Self::new()
    }
}

// ---------------------------------------------------------------------------------------
// Renderbuffers and framebuffers

/// A renderbuffer.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Renderbuffer {
    /// Wire handle.
    pub handle: RenderbufferHandle,
    /// `RENDERBUFFER_INTERNAL_FORMAT` as the application gave it (`RGBA` before storage is
    /// given, GL 3.3 table 6.35).
    pub internal_format: GLenum,
    /// The storage format, once allocated.
    pub format: Option<Format>,
    /// `RENDERBUFFER_WIDTH`.
    pub width: i32,
    /// `RENDERBUFFER_HEIGHT`.
    pub height: i32,
    /// `RENDERBUFFER_SAMPLES`: the sample count allocated (0, or at least the count asked
    /// for).
    pub samples: i32,
    /// Bumped when the storage changes.
    pub generation: u32,
}

impl Renderbuffer {
    /// A renderbuffer with no storage, as `glBindRenderbuffer` of a new name creates it.
    pub fn new(handle: RenderbufferHandle) -> Self {
        Self {
            handle,
            internal_format: RGBA,
            format: None,
            width: 0,
            height: 0,
            samples: 0,
            generation: 0,
        }
    }
}

/// What an attachment point of a framebuffer object refers to, as GL stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AttachmentGl {
    /// `FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE = NONE`.
    #[default]
    None,
    /// A texture image.
    Texture {
        /// The texture entity.
        texture: Entity,
        /// `FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL`.
        level: i32,
        /// `FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER` (array layer or 3D slice).
        layer: i32,
        /// `FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE` (the face enum, or 0).
        cube_face: GLenum,
        /// `FRAMEBUFFER_ATTACHMENT_LAYERED`.
        layered: bool,
    },
    /// A renderbuffer.
    Renderbuffer(Entity),
}

/// Attachment points of a framebuffer object: colour 0..8, then depth, then stencil.
pub const FRAMEBUFFER_ATTACHMENTS: usize = MAX_DRAW_BUFFERS + 2;
/// Index of the depth attachment in [`Framebuffer::attachments`].
pub const DEPTH_ATTACHMENT_INDEX: usize = MAX_DRAW_BUFFERS;
/// Index of the stencil attachment in [`Framebuffer::attachments`].
pub const STENCIL_ATTACHMENT_INDEX: usize = MAX_DRAW_BUFFERS + 1;

/// A framebuffer object (per context).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Framebuffer {
    /// Wire handle.
    pub handle: FramebufferHandle,
    /// Attachments: colour 0..8, depth, stencil.
    pub attachments: [AttachmentGl; FRAMEBUFFER_ATTACHMENTS],
    /// `DRAW_BUFFERi`.
    pub draw_buffers: [GLenum; MAX_DRAW_BUFFERS],
    /// `READ_BUFFER`.
    pub read_buffer: GLenum,
    /// Whether the framebuffer was ever bound (`is_framebuffer` is false before).
    pub bound_once: bool,
    /// Bumped when attachments change (draw buffers travel in their own record).
    pub generation: u32,
    /// `generation` when the backend last got this framebuffer's attachments.
    pub synced: Option<u32>,
    /// `FRAMEBUFFER_DEFAULT_*` (`glFramebufferParameteri`, GL 4.3): the size a framebuffer
    /// without attachments rasterizes at.
    pub defaults: FramebufferDefaults,
}

/// A framebuffer object's default geometry (`ARB_framebuffer_no_attachments`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FramebufferDefaults {
    /// `FRAMEBUFFER_DEFAULT_WIDTH`.
    pub width: u32,
    /// `FRAMEBUFFER_DEFAULT_HEIGHT`.
    pub height: u32,
    /// `FRAMEBUFFER_DEFAULT_LAYERS`.
    pub layers: u32,
    /// `FRAMEBUFFER_DEFAULT_SAMPLES`.
    pub samples: u32,
    /// The samples the framebuffer rasterizes with while nothing is attached (`SAMPLES`):
    /// `samples` rounded as an image's would be.
    pub allocated_samples: u32,
    /// `FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS`, as Mesa keeps it (a `GLboolean` holding
    /// the parameter's low byte).
    pub fixed_sample_locations: u8,
}

impl Framebuffer {
    /// A framebuffer with nothing attached.
    pub fn new(handle: FramebufferHandle) -> Self {
        let mut draw_buffers = [NONE; MAX_DRAW_BUFFERS];
        draw_buffers[0] = COLOR_ATTACHMENT0;
        Self {
            handle,
            attachments: [AttachmentGl::None; FRAMEBUFFER_ATTACHMENTS],
            draw_buffers,
            read_buffer: COLOR_ATTACHMENT0,
            bound_once: false,
            generation: 0,
            synced: None,
            defaults: FramebufferDefaults::default(),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Shaders and programs

/// A shader object.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Shader {
    /// `SHADER_TYPE`.
    pub kind: GLenum,
    /// The stage.
    pub stage: ShaderStage,
    /// The source strings, concatenated (`SHADER_SOURCE_LENGTH` is its length + 1).
    pub source: String,
    /// The source as of the last successful compile: what linking uses (GL links the
    /// compiled shader, not a source set since).
    pub compiled_source: Option<String>,
    /// `COMPILE_STATUS`.
    pub compiled: bool,
    /// `INFO_LOG_LENGTH` is its length + 1 when non-empty.
    pub info_log: String,
    /// `DELETE_STATUS`.
    pub delete_pending: bool,
}

/// An active uniform of a linked program (`glGetActiveUniform`, `glGetUniformLocation`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveUniform {
    /// Name as GL reports it (arrays end in `[0]`).
    pub name: String,
    /// GL type enum (`FLOAT_VEC4`, `SAMPLER_2D`, …).
    pub ty: GLenum,
    /// Array size (1 for non-arrays).
    pub size: i32,
    /// Uniform block index, or -1 for the default block.
    pub block_index: i32,
    /// Byte offset in its block (default block: in the default block storage).
    pub offset: i32,
    /// `UNIFORM_ARRAY_STRIDE`.
    pub array_stride: i32,
    /// `UNIFORM_MATRIX_STRIDE`.
    pub matrix_stride: i32,
    /// `UNIFORM_IS_ROW_MAJOR`.
    pub row_major: bool,
    /// First location (default-block uniforms only; elements take consecutive locations).
    pub location: i32,
    /// For samplers: index of the program's sampler binding of element 0.
    pub sampler_binding: i32,
    /// Which stages reference it (bit per [`ShaderStage`]; `REFERENCED_BY_*_SHADER`).
    pub stages: u8,
}

/// What a geometry shader declares (`GEOMETRY_VERTICES_OUT`, `_INPUT_TYPE`, `_OUTPUT_TYPE`,
/// `GEOMETRY_SHADER_INVOCATIONS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeometryInfo {
    /// `GEOMETRY_VERTICES_OUT`.
    pub vertices_out: i32,
    /// `GEOMETRY_INPUT_TYPE` (a primitive enum).
    pub input_type: GLenum,
    /// `GEOMETRY_OUTPUT_TYPE`.
    pub output_type: GLenum,
    /// `GEOMETRY_SHADER_INVOCATIONS` (1 unless the shader declares `invocations`).
    pub invocations: i32,
}

/// What a program's tessellation evaluation shader generates (`TESS_GEN_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TessGenInfo {
    /// `TESS_GEN_MODE`: `TRIANGLES`, `QUADS` or `ISOLINES`.
    pub mode: GLenum,
    /// `TESS_GEN_SPACING`.
    pub spacing: GLenum,
    /// `TESS_GEN_VERTEX_ORDER`.
    pub vertex_order: GLenum,
    /// `TESS_GEN_POINT_MODE`.
    pub point_mode: bool,
}

/// An active uniform block of a linked program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveUniformBlock {
    /// `UNIFORM_BLOCK_NAME`.
    pub name: String,
    /// `UNIFORM_BLOCK_DATA_SIZE`.
    pub data_size: i32,
    /// `UNIFORM_BLOCK_BINDING` (set by `uniform_block_binding`).
    pub binding: u32,
    /// Indices of its active uniforms.
    pub uniforms: Vec<u32>,
    /// Which stages reference it (bit per [`ShaderStage`]).
    pub stages: u8,
}

/// An active shader storage block of a linked program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveStorageBlock {
    /// Its name (`Name[i]` for an element of a block array).
    pub name: String,
    /// `BUFFER_BINDING` (set by `shader_storage_block_binding`).
    pub binding: u32,
    /// Which stages reference it (bit per [`ShaderStage`]).
    pub stages: u8,
    /// Its element in an array of blocks (0 otherwise).
    pub element: u32,
    /// `BUFFER_DATA_SIZE`.
    pub data_size: i32,
    /// Indices of its buffer variables (`ACTIVE_VARIABLES`).
    pub variables: Vec<u32>,
}

/// An active atomic counter buffer of a linked program (`ATOMIC_COUNTER_BUFFER` interface).
/// Its counters are storage-buffer atomics: it binds, as a storage slot after the program's
/// storage blocks, to its `ATOMIC_COUNTER_BUFFER` binding point's range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveAtomicBuffer {
    /// `BUFFER_BINDING` (the counters' `layout(binding)`).
    pub binding: u32,
    /// `BUFFER_DATA_SIZE`.
    pub data_size: i32,
    /// Indices of its counters in [`LinkedProgram::atomic_counters`].
    pub counters: Vec<u32>,
    /// Which stages reference it (bit per [`ShaderStage`]).
    pub stages: u8,
}

/// An active atomic counter of a linked program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveAtomicCounter {
    /// Name as GL reports it (arrays end in `[0]`).
    pub name: String,
    /// Array size (1 for non-arrays).
    pub size: i32,
    /// `OFFSET` in its buffer.
    pub offset: i32,
    /// `ARRAY_STRIDE` (4 for arrays, else 0).
    pub array_stride: i32,
    /// `ATOMIC_COUNTER_BUFFER_INDEX`.
    pub buffer: u32,
    /// Which stages reference it (bit per [`ShaderStage`]).
    pub stages: u8,
}

/// An active buffer variable (a member of a shader storage block) of a linked program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveBufferVariable {
    /// Name as GL reports it (arrays end in `[0]`).
    pub name: String,
    /// GL type enum.
    pub ty: GLenum,
    /// `ARRAY_SIZE` (1 for non-arrays, 0 for an unsized array).
    pub size: i32,
    /// `BLOCK_INDEX`.
    pub block_index: i32,
    /// `OFFSET`.
    pub offset: i32,
    /// `ARRAY_STRIDE`.
    pub array_stride: i32,
    /// `MATRIX_STRIDE`.
    pub matrix_stride: i32,
    /// `IS_ROW_MAJOR`.
    pub row_major: bool,
    /// `TOP_LEVEL_ARRAY_SIZE`.
    pub top_level_size: i32,
    /// `TOP_LEVEL_ARRAY_STRIDE`.
    pub top_level_stride: i32,
    /// Which stages reference it (bit per [`ShaderStage`]).
    pub stages: u8,
}

/// An active attribute or fragment output of a linked program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveVariable {
    /// Name.
    pub name: String,
    /// GL type enum.
    pub ty: GLenum,
    /// Array size.
    pub size: i32,
    /// Assigned location.
    pub location: i32,
    /// Fragment output index (dual-source blending), 0 otherwise.
    pub index: i32,
    /// `LOCATION_COMPONENT`: the first component of its location (GL 4.4).
    pub component: i32,
}

/// What linking produced: reflection and the default uniform block storage.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct LinkedProgram {
    /// Active uniforms, in the order `glGetActiveUniform` enumerates them.
    pub uniforms: Vec<ActiveUniform>,
    /// Uniform location -> (uniform index, array element).
    pub locations: Vec<(u32, u32)>,
    /// Active uniform blocks.
    pub blocks: Vec<ActiveUniformBlock>,
    /// Active vertex attributes.
    pub attributes: Vec<ActiveVariable>,
    /// Fragment outputs.
    pub outputs: Vec<ActiveVariable>,
    /// Default uniform block values (std140), the bytes of `SetUniforms`.
    pub default_block: Vec<u8>,
    /// Where `gl_DepthRange` (three floats: near, far, diff) lives in the default block, if
    /// the program reads it; `SetUniforms` carries `glDepthRange`'s values there.
    pub depth_range_offset: Option<u32>,
    /// Where `gl_NumSamples` (an `int`) lives in the default block, if the program reads it;
    /// `SetUniforms` carries the draw framebuffer's sample count there.
    pub num_samples_offset: Option<u32>,
    /// Texture unit per sampler binding (`glUniform1i` on a sampler sets it).
    pub sampler_units: Vec<u32>,
    /// Texture target each sampler binding reads.
    pub sampler_targets: Vec<TextureTarget>,
    /// Image unit per image slot (`glUniform1i` on an image uniform sets it).
    pub image_units: Vec<u32>,
    /// Texture target each image slot's uniform declares.
    pub image_targets: Vec<TextureTarget>,
    /// Locations of the active vertex attributes, bit per location.
    pub attribute_mask: u16,
    /// The second locations of `dvec3` and `dvec4` attributes (GL 4.1's
    /// `ARB_vertex_attrib_64bit`: each takes two), bit per location: their generic value
    /// is the last two doubles of the location before.
    pub wide_attribute_mask: u16,
    /// Stages present (bit per [`ShaderStage`]).
    pub stages: u8,
    /// Geometry shader parameters, if the program has a geometry shader.
    pub geometry: Option<GeometryInfo>,
    /// `TESS_CONTROL_OUTPUT_VERTICES`, if the program has a tessellation control shader.
    pub tess_control_vertices: Option<i32>,
    /// Tessellation evaluation shader parameters, if the program has one.
    pub tess_gen: Option<TessGenInfo>,
    /// The varyings transform feedback captures, in `glGetTransformFeedbackVarying` order.
    pub xfb: Vec<CapturedVarying>,
    /// Bytes per vertex each transform feedback buffer receives (0: not written).
    pub xfb_strides: [u32; 4],
    /// The vertex stream each transform feedback buffer captures (0: stream 0 or not
    /// written).
    pub xfb_streams: [u32; 4],
    /// Active shader storage blocks, in block-index order.
    pub storage_blocks: Vec<ActiveStorageBlock>,
    /// Active buffer variables, in `BUFFER_VARIABLE` index order.
    pub buffer_variables: Vec<ActiveBufferVariable>,
    /// Active atomic counters, buffer by buffer.
    pub atomic_counters: Vec<ActiveAtomicCounter>,
    /// Active atomic counter buffers, in binding order.
    pub atomic_buffers: Vec<ActiveAtomicBuffer>,
    /// `COMPUTE_WORK_GROUP_SIZE` of a compute program (`None` for other programs).
    pub local_size: Option<[u32; 3]>,
    /// Each stage's subroutines (GL 4.0), for the stages that have some.
    pub subroutines: Vec<StageSubroutines>,
}

/// A subroutine function of a linked stage (`*_SUBROUTINE` interface).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubroutineFunction {
    /// Its name.
    pub name: String,
    /// Its index: what `glGetSubroutineIndex` returns and a selection names.
    pub index: u32,
    /// Its subroutine types, as indices among the stage's types.
    pub types: Vec<u32>,
}

/// A subroutine uniform of a linked stage (`*_SUBROUTINE_UNIFORM` interface).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubroutineUniform {
    /// Its name as GL reports it (arrays end in `[0]`).
    pub name: String,
    /// Its subroutine type, an index among the stage's types.
    pub ty: u32,
    /// Array elements (1 for non-arrays).
    pub size: u32,
    /// Its first location; elements follow.
    pub location: u32,
    /// Byte offset of its first element's selector (a `uint`) in the default block, if
    /// the block has one, and the bytes between elements.
    pub offset: Option<u32>,
    /// Bytes between its elements' selectors.
    pub stride: u32,
}

/// One linked stage's subroutines: its functions in declaration order (their positions
/// are GL's resource indices) and its subroutine uniforms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageSubroutines {
    /// The stage.
    pub stage: ShaderStage,
    /// Subroutine functions, in declaration order.
    pub functions: Vec<SubroutineFunction>,
    /// Subroutine uniforms, in declaration order.
    pub uniforms: Vec<SubroutineUniform>,
    /// `ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS`.
    pub locations: u32,
}

impl StageSubroutines {
    /// The uniform at `location` and the element there.
    pub fn at(&self, location: u32) -> Option<(&SubroutineUniform, u32)> {
        self.uniforms
            .iter()
            .find(|u| location >= u.location && location < u.location + u.size)
            .map(|u| (u, location - u.location))
    }

    /// Positions of the functions compatible with uniform `u` (`COMPATIBLE_SUBROUTINES`).
    pub fn compatible(&self, u: &SubroutineUniform) -> Vec<u32> {
        self.functions
            .iter()
            .enumerate()
            .filter(|(_, f)| f.types.contains(&u.ty))
            .map(|(i, _)| i as u32)
            .collect()
    }

    /// The selection of each location after `glUseProgram`: for each uniform, the position
    /// (not the index, as in Mesa) of its first compatible function, else 0; 0 where no
    /// uniform is.
    pub fn defaults(&self) -> Vec<u32> {
        let mut out = vec![0; self.locations as usize];
        for u in &self.uniforms {
            let first = self.compatible(u).first().copied().unwrap_or(0);
            for e in 0..u.size {
                if let Some(v) = out.get_mut((u.location + e) as usize) {
                    *v = first;
                }
            }
        }
        out
    }
}

/// One varying a program captures with transform feedback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CapturedVarying {
    /// Name, as requested.
    pub name: String,
    /// GL type enum.
    pub ty: GLenum,
    /// Array size (1 for non-arrays).
    pub size: i32,
    /// Byte offset in a vertex's record of its buffer (`OFFSET`, as Mesa answers it).
    pub offset: i32,
    /// The buffer binding it is written to (a `gl_NextBuffer`: that of the varying before
    /// it, as Mesa files it; `NUM_ACTIVE_VARIABLES` of a buffer counts these).
    pub buffer: u32,
    /// `TRANSFORM_FEEDBACK_BUFFER_INDEX`, as Mesa counts it: the buffer's place among the
    /// buffers the layout moves through (a declared layout's buffers in order, or the
    /// `gl_NextBuffer`s before it, a separator counting in the buffer it ends; the varying's
    /// own place in separate mode).
    pub buffer_index: i32,
}

/// A program object.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Wire handle of the last successful link.
    pub handle: Option<ProgramHandle>,
    /// Attached shader entities (`ATTACHED_SHADERS`).
    pub attached: Vec<Entity>,
    /// `LINK_STATUS`.
    pub linked: bool,
    /// `VALIDATE_STATUS`.
    pub validated: bool,
    /// `INFO_LOG_LENGTH` is its length + 1 when non-empty.
    pub info_log: String,
    /// `DELETE_STATUS`.
    pub delete_pending: bool,
    /// `bind_attrib_location` requests, applied at the next link.
    pub attrib_bindings: Vec<(String, u32)>,
    /// `bind_frag_data_location(_indexed)` requests: (name, colour number, index).
    pub frag_data_bindings: Vec<(String, u32, u32)>,
    /// The result of the last successful link.
    pub linked_state: Option<LinkedProgram>,
    /// Bumped by every successful link and by uniform-block-binding changes.
    pub generation: u32,
    /// Bumped by every uniform value change.
    pub uniforms_generation: u32,
}

// ---------------------------------------------------------------------------------------
// Queries and syncs

/// A query object (per context).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// Wire handle.
    pub handle: QueryHandle,
    /// The target fixed at first `begin_query` (0 before).
    pub target: GLenum,
    /// Whether it is active now.
    pub active: bool,
    /// The result, once read back.
    pub result: Option<u64>,
    /// Whether a result is pending (ended, not yet read).
    pub pending: bool,
}

/// A sync object.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Sync {
    /// Wire handle.
    pub handle: FenceHandle,
    /// `SYNC_STATUS`: `SIGNALED` or `UNSIGNALED`.
    pub status: GLenum,
    /// The fence's place in the session's completion watermark: it signalled once the
    /// watermark reaches it (`tessera_wire::fence`).
    pub seq: u64,
}

#[cfg(test)]
mod shadow_tests {
    use super::BufferShadow;

    #[test]
    fn stale_ranges_merge_split_and_clip() {
        let mut s = BufferShadow::zeroed(32);
        assert!(s.is_known(0, 32));
        s.mark_stale(4, 4);
        s.mark_stale(8, 4);
        s.mark_stale(20, 2);
        assert_eq!(s.stale_in(0, 32).collect::<Vec<_>>(), [(4, 12), (20, 22)]);
        assert_eq!(s.stale_in(6, 16).collect::<Vec<_>>(), [(6, 12), (20, 22)]);
        assert!(s.is_known(0, 4) && s.is_known(12, 8) && !s.is_known(11, 1));
        // A client write in the middle learns those bytes only.
        s.write(6, &[1, 2]);
        assert_eq!(
            s.stale_in(0, 32).collect::<Vec<_>>(),
            [(4, 6), (8, 12), (20, 22)]
        );
        assert_eq!(s.bytes(5, 4), [0, 1, 2, 0]);
        s.write(0, &[9; 24]);
        assert!(s.is_known(0, 32));
        s.mark_stale(0, 0);
        assert!(s.is_known(0, 32));
    }
}

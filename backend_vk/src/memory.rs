//! Memory: every buffer and image comes from VMA; host-visible memory is always
//! `HOST_COHERENT`, so nothing is flushed or invalidated by hand. The one exception owns no
//! memory: a buffer texture whose format the device has for uniform but not storage texel
//! buffers views a second buffer bound to its GL buffer's allocation
//! ([`uniform_texel_alias`]), which is why object buffers are allocated `CAN_ALIAS`.
//!
//! Where every device-local memory type is also host-visible ([`unified`]: lavapipe,
//! integrated GPUs), buffer objects live in mapped memory ([`object_buffer`]): a new buffer's
//! zeros and the writes of unsynchronized maps are copied in by the CPU, with no transfer to
//! end the render pass (`VkPipe::write_buffer`).
//!
//! The [`Arena`] is a per-submission linear allocator over mapped, host-visible buffers:
//! default uniform blocks, staging bytes of uploads, generated indices and generic attribute
//! values are written there and read by the GPU from there. An arena is reset only when the
//! submission that used it has retired (its fence signalled), so the GPU never reads bytes
//! the CPU has overwritten.

use ash::vk;
use vk_mem::Alloc;

use crate::device::backend_bug;

/// Size of one arena chunk (allocations bigger than a quarter of it get their own).
const CHUNK: u64 = 1 << 20;

/// A buffer with its memory.
pub(crate) struct Owned {
    pub buffer: vk::Buffer,
    pub allocation: vk_mem::Allocation,
    /// Mapped bytes of host-visible buffers (null otherwise).
    pub ptr: *mut u8,
    pub size: u64,
}

/// What every buffer object can be used for: GL lets any buffer be bound anywhere
/// (transform feedback too, where the device captures: `xfb`).
pub(crate) fn object_usage(xfb: bool) -> vk::BufferUsageFlags {
    let usage = vk::BufferUsageFlags::TRANSFER_SRC
        | vk::BufferUsageFlags::TRANSFER_DST
        | vk::BufferUsageFlags::VERTEX_BUFFER
        | vk::BufferUsageFlags::INDEX_BUFFER
        | vk::BufferUsageFlags::UNIFORM_BUFFER
        | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
        | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
        | vk::BufferUsageFlags::STORAGE_BUFFER
        | vk::BufferUsageFlags::INDIRECT_BUFFER;
    if xfb {
        usage | vk::BufferUsageFlags::TRANSFORM_FEEDBACK_BUFFER_EXT
    } else {
        usage
    }
}

/// Where buffers and images the device uses live: device memory where there is some.
pub(crate) fn device_local() -> vk_mem::AllocationCreateInfo {
    vk_mem::AllocationCreateInfo {
        usage: vk_mem::MemoryUsage::AutoPreferDevice,
        ..Default::default()
    }
}

/// Whether every device-local memory type is also host-visible and coherent (and there is
/// one): memory the device reads at full speed that the CPU can write directly.
pub(crate) fn unified(memory: &vk::PhysicalDeviceMemoryProperties) -> bool {
    let types = &memory.memory_types[..memory.memory_type_count as usize];
    let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
    let mut local = types
        .iter()
        .filter(|t| {
            t.property_flags
                .contains(vk::MemoryPropertyFlags::DEVICE_LOCAL)
        })
        .peekable();
    local.peek().is_some() && local.all(|t| t.property_flags.contains(host))
}

/// Creates a buffer object's buffer: device-local, and mapped where `mapped` (the device's
/// memory is [`unified`]), so the CPU can write it without a transfer.
pub(crate) fn object_buffer(
    alloc: &vk_mem::Allocator,
    size: u64,
    usage: vk::BufferUsageFlags,
    mapped: bool,
) -> Result<Owned, vk::Result> {
    if !mapped {
        return device_buffer(alloc, size, usage);
    }
    let info = vk::BufferCreateInfo::default()
        .size(size.max(4))
        .usage(usage)
        .sharing_mode(vk::SharingMode::EXCLUSIVE);
    // CAN_ALIAS as in device_buffer.
    let ainfo = vk_mem::AllocationCreateInfo {
        flags: vk_mem::AllocationCreateFlags::CAN_ALIAS
            | vk_mem::AllocationCreateFlags::MAPPED
            | vk_mem::AllocationCreateFlags::HOST_ACCESS_SEQUENTIAL_WRITE,
        required_flags: vk::MemoryPropertyFlags::HOST_VISIBLE
            | vk::MemoryPropertyFlags::HOST_COHERENT,
        ..device_local()
    };
    mapped_buffer(alloc, &info, &ainfo, size)
}

/// Creates a buffer whose allocation info asks for `MAPPED` host-visible memory, with its
/// mapping.
fn mapped_buffer(
    alloc: &vk_mem::Allocator,
    info: &vk::BufferCreateInfo<'_>,
    ainfo: &vk_mem::AllocationCreateInfo,
    size: u64,
) -> Result<Owned, vk::Result> {
    // SAFETY: as in device_buffer; MAPPED keeps the memory mapped for the allocation's life.
    let (buffer, allocation) = unsafe { alloc.create_buffer(info, ainfo) }?;
    let ptr = alloc
        .get_allocation_info(&allocation)
        .mapped_data
        .cast::<u8>();
    if ptr.is_null() {
        backend_bug("a MAPPED host-visible allocation has no mapping");
    }
    Ok(Owned {
        buffer,
        allocation,
        ptr,
        size,
    })
}

/// Creates a device-local buffer.
pub(crate) fn device_buffer(
    alloc: &vk_mem::Allocator,
    size: u64,
    usage: vk::BufferUsageFlags,
) -> Result<Owned, vk::Result> {
    let info = vk::BufferCreateInfo::default()
        .size(size.max(4))
        .usage(usage)
        .sharing_mode(vk::SharingMode::EXCLUSIVE);
    // Without a dedicated allocation's binding to this buffer alone: a buffer texture may
    // view the memory through another buffer (uniform_texel_alias).
    let ainfo = vk_mem::AllocationCreateInfo {
        flags: vk_mem::AllocationCreateFlags::CAN_ALIAS,
        ..device_local()
    };
    // SAFETY: a valid create info (size > 0, exclusive); the allocator outlives the buffer
    // (VkPipe::drop frees every buffer before dropping the allocator).
    let (buffer, allocation) = unsafe { alloc.create_buffer(&info, &ainfo) }?;
    Ok(Owned {
        buffer,
        allocation,
        ptr: std::ptr::null_mut(),
        size,
    })
}

/// Creates a mapped host-visible, coherent buffer; `readback` prefers cached memory.
pub(crate) fn host_buffer(
    alloc: &vk_mem::Allocator,
    size: u64,
    usage: vk::BufferUsageFlags,
    readback: bool,
) -> Result<Owned, vk::Result> {
    let info = vk::BufferCreateInfo::default()
        .size(size.max(4))
        .usage(usage)
        .sharing_mode(vk::SharingMode::EXCLUSIVE);
    let access = if readback {
        vk_mem::AllocationCreateFlags::HOST_ACCESS_RANDOM
    } else {
        vk_mem::AllocationCreateFlags::HOST_ACCESS_SEQUENTIAL_WRITE
    };
    let ainfo = vk_mem::AllocationCreateInfo {
        flags: access | vk_mem::AllocationCreateFlags::MAPPED,
        usage: vk_mem::MemoryUsage::Auto,
        required_flags: vk::MemoryPropertyFlags::HOST_VISIBLE
            | vk::MemoryPropertyFlags::HOST_COHERENT,
        preferred_flags: if readback {
            vk::MemoryPropertyFlags::HOST_CACHED
        } else {
            vk::MemoryPropertyFlags::empty()
        },
        ..Default::default()
    };
    mapped_buffer(alloc, &info, &ainfo, size)
}

/// A buffer of `owned`'s size bound to its memory with `UNIFORM_TEXEL_BUFFER` usage alone,
/// for views in formats the device has for uniform texel buffers only; the caller destroys
/// it (with `vkDestroyBuffer`: it owns no memory) before or with `owned`. Buffers alias
/// memory freely (they are linear), so it reads what is written through `owned`, under the
/// same barriers. `None` where the device refuses it or its memory requirements do not fit
/// `owned`'s allocation.
pub(crate) fn uniform_texel_alias(
    raw: &ash::Device,
    alloc: &vk_mem::Allocator,
    owned: &Owned,
) -> Option<vk::Buffer> {
    let info = vk::BufferCreateInfo::default()
        .size(owned.size.max(4))
        .usage(vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER)
        .sharing_mode(vk::SharingMode::EXCLUSIVE);
    // SAFETY: a valid create info (size > 0, exclusive).
    let buffer = unsafe { raw.create_buffer(&info, None) }.ok()?;
    // SAFETY: a buffer just created on this device.
    let req = unsafe { raw.get_buffer_memory_requirements(buffer) };
    let at = alloc.get_allocation_info(&owned.allocation);
    let fits = req.memory_type_bits & (1 << at.memory_type) != 0
        && at.offset.is_multiple_of(req.alignment.max(1))
        && req.size <= at.size;
    // SAFETY: the buffer is unbound; the allocation is live and its memory type, offset
    // alignment and size meet the buffer's requirements (checked above).
    if fits && unsafe { alloc.bind_buffer_memory(&owned.allocation, buffer) }.is_ok() {
        return Some(buffer);
    }
    // SAFETY: created above, never used.
    unsafe { raw.destroy_buffer(buffer, None) };
    None
}

/// Frees a buffer made by [`device_buffer`] or [`host_buffer`].
pub(crate) fn free_buffer(alloc: &vk_mem::Allocator, mut b: Owned) {
    // SAFETY: the buffer and allocation were created together by this allocator and are no
    // longer used by any pending command (callers free retired resources only).
    unsafe { alloc.destroy_buffer(b.buffer, &mut b.allocation) };
}

/// A range of arena memory: the buffer the GPU reads, the offset, and the CPU pointer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slice {
    pub buffer: vk::Buffer,
    pub offset: u64,
    pub ptr: *mut u8,
}

impl Slice {
    /// Copies `bytes` into the slice (which holds at least `bytes.len()` bytes).
    pub fn write(&self, bytes: &[u8]) {
        // SAFETY: the slice was allocated with at least this many bytes (Arena::alloc's
        // callers ask for `bytes.len()` or more), inside a mapped, live buffer that no
        // pending GPU work reads (the arena is reset only after its submission retired).
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr, bytes.len()) };
    }

    /// Copies `bytes` at `at` bytes into the slice.
    pub fn write_at(&self, at: usize, bytes: &[u8]) {
        // SAFETY: as for `write`, with the caller's slice sized for `at + bytes.len()`.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr.add(at), bytes.len()) };
    }

    /// Writes `len` zero bytes at `at` bytes into the slice.
    pub fn zero_at(&self, at: usize, len: usize) {
        // SAFETY: as for `write`, with the caller's slice sized for `at + len`.
        unsafe { std::ptr::write_bytes(self.ptr.add(at), 0, len) };
    }

    /// Writes 32-bit words, little-endian, from the start of the slice (which holds at
    /// least `4 * words.len()` bytes).
    pub fn write_words(&self, words: impl Iterator<Item = u32>) {
        for (k, w) in words.enumerate() {
            self.write_at(4 * k, &w.to_le_bytes());
        }
    }
}

/// One submission's linear allocator.
#[derive(Default)]
pub(crate) struct Arena {
    chunks: Vec<Owned>,
    /// Index of the chunk being filled, and its fill.
    current: usize,
    used: u64,
    /// Dedicated buffers of big allocations, freed at reset.
    big: Vec<Owned>,
}

impl Arena {
    /// Allocates `size` bytes aligned to `align` (a power of two or any multiple needed by
    /// a texel size: the offset is rounded up to a multiple of it).
    pub fn alloc(
        &mut self,
        alloc: &vk_mem::Allocator,
        size: u64,
        align: u64,
    ) -> Result<Slice, vk::Result> {
        let align = align.max(1);
        if size > CHUNK / 4 {
            let b = host_buffer(alloc, size, arena_usage(), false)?;
            let s = Slice {
                buffer: b.buffer,
                offset: 0,
                ptr: b.ptr,
            };
            self.big.push(b);
            return Ok(s);
        }
        loop {
            if let Some(c) = self.chunks.get(self.current) {
                let offset = self.used.div_ceil(align) * align;
                if offset + size <= c.size {
                    self.used = offset + size;
                    // SAFETY: `offset + size <= c.size`, inside the mapped chunk.
                    let ptr = unsafe { c.ptr.add(offset as usize) };
                    return Ok(Slice {
                        buffer: c.buffer,
                        offset,
                        ptr,
                    });
                }
                self.current += 1;
                self.used = 0;
                continue;
            }
            self.chunks
                .push(host_buffer(alloc, CHUNK, arena_usage(), false)?);
        }
    }

    /// Makes every byte reusable (the submission retired). Keeps the chunks.
    pub fn reset(&mut self, alloc: &vk_mem::Allocator) {
        self.current = 0;
        self.used = 0;
        for b in self.big.drain(..) {
            free_buffer(alloc, b);
        }
        // Keep a bounded number of chunks between frames.
        while self.chunks.len() > 8 {
            if let Some(c) = self.chunks.pop() {
                free_buffer(alloc, c);
            }
        }
    }

    /// Frees everything.
    pub fn destroy(&mut self, alloc: &vk_mem::Allocator) {
        self.reset(alloc);
        for c in self.chunks.drain(..) {
            free_buffer(alloc, c);
        }
    }
}

fn arena_usage() -> vk::BufferUsageFlags {
    vk::BufferUsageFlags::TRANSFER_SRC
        | vk::BufferUsageFlags::TRANSFER_DST
        | vk::BufferUsageFlags::VERTEX_BUFFER
        | vk::BufferUsageFlags::INDEX_BUFFER
        | vk::BufferUsageFlags::UNIFORM_BUFFER
}

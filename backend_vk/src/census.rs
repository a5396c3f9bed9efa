//! Counting the native objects of a session from the driver's side (`tessera_wire::census`).
//!
//! The instance is created with host allocation callbacks of the backend's own
//! ([`HostAllocator`]), which every allocation of the loader, the layers and the driver for
//! this instance and its device goes through (an object created with no allocator of its
//! own uses its device's, which is its instance's). Each allocation is counted live until
//! freed: all of them as [`NativeKind::DriverAllocation`], and those the driver made for an
//! object (scope `OBJECT`: a buffer, an image, a view, a pipeline, a memory allocation, a
//! descriptor set...) as [`NativeKind::DriverObject`]. No call site counts anything, so
//! nothing can be missed; and after `vkDestroyInstance` both must be back to zero, since a
//! driver frees no object the application did not destroy: whatever is left then is what
//! the backend leaked. Memory the driver says is a command's (scope `COMMAND`) is not
//! counted: it lives only while a command runs. (lavapipe allocates its recorded commands
//! with scope `OBJECT`, so those are counted, and freed when their pool is reset.) Counting
//! is on the calling thread's lane of the census (`NativeCensus::here`): a plain load and
//! store per kind, where atomic additions (four per allocation and four per free, with the
//! process's totals) cost more than the allocation itself.
//!
//! The callbacks are also the driver's heap. A driver that records command buffers on the
//! host (lavapipe) allocates an entry per recorded command, and a few more per bound set or
//! vertex buffer, and frees them all when the frame's command pool is reset: through
//! glibc's `malloc` that is some 400 instructions per command, about half the backend's
//! cost per draw. Small blocks (up to [`POOLED_MAX`] bytes with their header, alignment 16
//! or less) therefore come from free lists of their size class, refilled from the global
//! allocator only while the live count of a class grows, and go back to their list when
//! freed: after the first frames, recording allocates nothing from the system. The lists
//! are the calling thread's own (a block is plain memory of its class, so any instance and
//! any thread may reuse it), threaded through the free blocks themselves: taking and giving
//! a block is a pop and a push of a pointer, with no lock or atomic operation.

use std::alloc::Layout;
use std::cell::Cell;
use std::ffi::c_void;

use ash::vk;
use tessera_wire::census::{NativeCensus, NativeKind};

/// Bytes kept before each allocation: its size, alignment and scope.
const HEADER: usize = 32;

/// Bytes of a size class (blocks of class `c` hold `(c + 1) * CLASS` bytes, header included).
const CLASS: usize = 16;

/// The largest block (header included) served from the free lists.
const POOLED_MAX: usize = 1024;

/// Size classes of pooled blocks.
const CLASSES: usize = POOLED_MAX / CLASS;

/// Free blocks a thread keeps per class at most (beyond, freed blocks return to the
/// system): a frame's worth of recorded commands for a few frames in flight.
const KEEP_PER_CLASS: usize = 1 << 16;

/// A thread's free pooled blocks per size class, each list threaded through its blocks
/// (a free block's first word is the next one's address), returned to the system when the
/// thread ends.
struct FreeLists {
    heads: [Cell<*mut u8>; CLASSES],
    kept: [Cell<usize>; CLASSES],
}

impl Drop for FreeLists {
    fn drop(&mut self) {
        for (class, head) in self.heads.iter().enumerate() {
            let mut block = head.replace(std::ptr::null_mut());
            while !block.is_null() {
                // SAFETY: a free block of this class, allocated with its layout, holding the
                // next one's address; no driver holds it (it was given back).
                unsafe {
                    let next = block.cast::<*mut u8>().read();
                    std::alloc::dealloc(block, class_layout(class));
                    block = next;
                }
            }
        }
    }
}

thread_local! {
    /// This thread's free lists.
    static FREE: FreeLists = const {
        FreeLists {
            heads: [const { Cell::new(std::ptr::null_mut()) }; CLASSES],
            kept: [const { Cell::new(0) }; CLASSES],
        }
    };
}

/// The allocation callbacks of one instance, and the census they count into. Boxed: the
/// callbacks point at it for as long as the instance lives.
pub(crate) struct HostAllocator {
    census: NativeCensus,
}

impl HostAllocator {
    /// A census with nothing counted.
    pub fn new() -> Box<Self> {
        Box::new(Self {
            census: NativeCensus::new(),
        })
    }

    /// A block of class `class`: a free one of this thread's, else a new one from the
    /// global allocator.
    #[inline]
    fn take(&self, class: usize) -> *mut u8 {
        let recycled = FREE
            .try_with(|f| {
                let (head, kept) = (f.heads.get(class)?, f.kept.get(class)?);
                let block = head.get();
                if block.is_null() {
                    return None;
                }
                // SAFETY: a free block of this thread's list: its first word is the next.
                head.set(unsafe { block.cast::<*mut u8>().read() });
                kept.set(kept.get() - 1);
                Some(block)
            })
            .ok()
            .flatten();
        match recycled {
            Some(base) => base,
            // SAFETY: a nonzero size (a class holds at least CLASS bytes).
            None => unsafe { std::alloc::alloc(class_layout(class)) },
        }
    }

    /// Returns a block of class `class` to this thread's free list (or to the system when
    /// the list is full, or the thread is ending).
    ///
    /// # Safety
    /// `base` came from [`HostAllocator::take`] with this class and is no longer used.
    #[inline]
    unsafe fn give(&self, class: usize, base: *mut u8) {
        let kept = FREE
            .try_with(|f| {
                let (Some(head), Some(kept)) = (f.heads.get(class), f.kept.get(class)) else {
                    return false;
                };
                if kept.get() >= KEEP_PER_CLASS {
                    return false;
                }
                // SAFETY: the caller's contract: the block is this thread's now, and holds
                // at least a word (CLASS bytes, aligned to 16).
                unsafe { base.cast::<*mut u8>().write(head.get()) };
                head.set(base);
                kept.set(kept.get() + 1);
                true
            })
            .unwrap_or(false);
        if !kept {
            // SAFETY: the caller's contract: allocated with this class's layout.
            unsafe { std::alloc::dealloc(base, class_layout(class)) };
        }
    }

    /// The census (shared: it stays readable after the backend is gone).
    pub fn census(&self) -> &NativeCensus {
        &self.census
    }

    /// The callbacks to give `vkCreateInstance` and `vkDestroyInstance`; valid while `self`
    /// is.
    pub fn callbacks(&self) -> vk::AllocationCallbacks<'static> {
        vk::AllocationCallbacks {
            p_user_data: std::ptr::from_ref(self).cast_mut().cast(),
            pfn_allocation: Some(allocate),
            pfn_reallocation: Some(reallocate),
            pfn_free: Some(free),
            pfn_internal_allocation: None,
            pfn_internal_free: None,
            _marker: std::marker::PhantomData,
        }
    }

    /// Counts `n` allocations of `scope` (recorded commands' are not counted: see the
    /// module's docs).
    /// The calling thread's lane of the census, so the callbacks count with no atomic
    /// read-modify-write (`NativeCensus::here`).
    #[inline]
    fn count(&self, scope: u32, n: i64) {
        if scope == vk::SystemAllocationScope::COMMAND.as_raw() as u32 {
            return;
        }
        let here = self.census.here();
        here.add(NativeKind::DriverAllocation, n);
        if scope == vk::SystemAllocationScope::OBJECT.as_raw() as u32 {
            here.add(NativeKind::DriverObject, n);
        }
    }
}

fn layout(size: usize, align: usize) -> Option<(Layout, usize)> {
    let pad = align.max(HEADER);
    let layout = Layout::from_size_align(size.checked_add(pad)?, align.max(16)).ok()?;
    Some((layout, pad))
}

/// The size class of a block of `size` bytes aligned to `align` (its header included),
/// `None` when it is not pooled. A function of the size and alignment recorded in the
/// header, so `free` finds the class `allocate` used.
fn class_of(size: usize, align: usize) -> Option<usize> {
    if align > 16 {
        return None;
    }
    let total = size.checked_add(HEADER)?;
    (total <= POOLED_MAX).then(|| total.div_ceil(CLASS).max(1) - 1)
}

/// The layout of every block of `class`.
fn class_layout(class: usize) -> Layout {
    match Layout::from_size_align((class + 1) * CLASS, 16) {
        Ok(l) => l,
        Err(_) => unreachable!("class sizes are small multiples of 16"),
    }
}

/// The header before `p`: size, alignment, scope.
///
/// # Safety
/// `p` came from [`allocate`] or [`reallocate`] and was not freed.
unsafe fn header(p: *mut c_void) -> *mut [usize; 3] {
    // SAFETY: the caller's contract; the header lies in the same allocation, aligned
    // (the pad is a multiple of 16, at least 32 bytes).
    unsafe { p.cast::<u8>().sub(3 * size_of::<usize>()).cast() }
}

unsafe extern "system" fn allocate(
    user: *mut c_void,
    size: usize,
    align: usize,
    scope: vk::SystemAllocationScope,
) -> *mut c_void {
    // SAFETY: `user` is the HostAllocator these callbacks were made from, alive while the
    // instance is.
    let host = unsafe { &*user.cast::<HostAllocator>() };
    let (base, pad) = match class_of(size, align) {
        Some(class) => (host.take(class), HEADER),
        None => {
            let Some((layout, pad)) = layout(size, align) else {
                return std::ptr::null_mut();
            };
            // SAFETY: a non-zero size (the pad).
            (unsafe { std::alloc::alloc(layout) }, pad)
        }
    };
    if base.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: `pad` < the block's size (a pooled block holds HEADER + size bytes, aligned to
    // 16, which serves any alignment up to 16); the header fits before the returned pointer.
    let p = unsafe { base.add(pad) }.cast::<c_void>();
    let scope = scope.as_raw() as u32;
    // SAFETY: just allocated.
    unsafe { header(p).write([size, align, scope as usize]) };
    host.count(scope, 1);
    p
}

unsafe extern "system" fn free(user: *mut c_void, p: *mut c_void) {
    if p.is_null() {
        return;
    }
    // SAFETY: Vulkan frees only what these callbacks allocated, once.
    let [size, align, scope] = unsafe { header(p).read() };
    // SAFETY: see `allocate`.
    let host = unsafe { &*user.cast::<HostAllocator>() };
    if let Some(class) = class_of(size, align) {
        // SAFETY: the block `allocate` took for this class (the header's size and
        // alignment are the ones it was classed by), HEADER bytes before `p`.
        unsafe { host.give(class, p.cast::<u8>().sub(HEADER)) };
    } else {
        let Some((layout, pad)) = layout(size, align) else {
            return;
        };
        // SAFETY: the same layout and base as at allocation.
        unsafe { std::alloc::dealloc(p.cast::<u8>().sub(pad), layout) };
    }
    host.count(scope as u32, -1);
}

unsafe extern "system" fn reallocate(
    user: *mut c_void,
    original: *mut c_void,
    size: usize,
    align: usize,
    scope: vk::SystemAllocationScope,
) -> *mut c_void {
    if original.is_null() {
        // SAFETY: forwarded.
        return unsafe { allocate(user, size, align, scope) };
    }
    if size == 0 {
        // SAFETY: forwarded.
        unsafe { free(user, original) };
        return std::ptr::null_mut();
    }
    // SAFETY: Vulkan reallocates only live blocks of these callbacks.
    let [old_size, old_align, old_scope] = unsafe { header(original).read() };
    if let Some(class) = class_of(size, align)
        && class_of(old_size, old_align) == Some(class)
        && old_align == align
    {
        // The same pooled block holds the new size: only its header changes (the census
        // counts one allocation either way; its scope is the original's).
        // SAFETY: a live block of this class; the header lies before it.
        unsafe { header(original).write([size, align, old_scope]) };
        return original;
    }
    // SAFETY: forwarded; on failure the original stays, as Vulkan requires.
    let p = unsafe { allocate(user, size, align, scope) };
    if !p.is_null() {
        // SAFETY: both live; the original holds `old_size` bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(
                original.cast::<u8>(),
                p.cast::<u8>(),
                old_size.min(size),
            );
            free(user, original);
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::VkOptions;
    use tessera_wire::Backend;

    /// Small blocks come from the free lists: aligned, kept in place when a reallocation
    /// stays in their class, copied when it does not, counted while live, and a freed
    /// block is the next one its class hands out; big or over-aligned ones bypass the lists.
    #[test]
    fn pooled_blocks_are_recycled_and_counted() {
        use vk::SystemAllocationScope as S;
        let host = HostAllocator::new();
        let user = host.callbacks().p_user_data;
        let live = |kind| host.census().live().get(kind);
        // SAFETY: the callbacks of a live HostAllocator, used as Vulkan would: every block
        // freed once, sizes within what was asked.
        unsafe {
            let a = allocate(user, 40, 8, S::OBJECT);
            assert_eq!(a as usize % 16, 0);
            std::ptr::write_bytes(a.cast::<u8>(), 0xab, 40);
            let b = reallocate(user, a, 44, 8, S::OBJECT);
            assert_eq!(a, b, "a growth within the class stays in place");
            let c = reallocate(user, b, 600, 8, S::OBJECT);
            assert_ne!(b, c);
            assert!((0..40).all(|i| *c.cast::<u8>().add(i) == 0xab));
            assert_eq!(live(NativeKind::DriverAllocation), 1);
            assert_eq!(live(NativeKind::DriverObject), 1);
            free(user, c);
            assert_eq!(live(NativeKind::DriverAllocation), 0);
            assert_eq!(live(NativeKind::DriverObject), 0);
            let d = allocate(user, 600, 16, S::DEVICE);
            assert_eq!(c, d, "the freed block of the class is reused");
            assert_eq!(live(NativeKind::DriverAllocation), 1);
            assert_eq!(live(NativeKind::DriverObject), 0);
            free(user, d);
            // Recorded commands' memory is not counted.
            let e = allocate(user, 100, 8, S::COMMAND);
            assert!(host.census().live().is_zero());
            free(user, e);
            let big = allocate(user, 4096, 64, S::OBJECT);
            assert_eq!(big as usize % 64, 0);
            std::ptr::write_bytes(big.cast::<u8>(), 1, 4096);
            free(user, big);
            assert!(host.census().live().is_zero());
        }
    }

    /// The driver's allocations are counted while the backend lives, none is left once it
    /// is gone, and an object the backend never destroyed is seen.
    #[test]
    fn driver_objects_are_counted_and_a_leak_is_seen() {
        let options = VkOptions {
            validation: false,
            ..VkOptions::default()
        };
        let backend = crate::VulkanBackend::with_options(&options).expect("a Vulkan device");
        let census = backend.native_census().expect("a census");
        let live = census.live();
        assert!(live.get(NativeKind::DriverObject) > 0, "{live}");
        assert!(live.get(NativeKind::DriverAllocation) >= live.get(NativeKind::DriverObject));
        drop(backend);
        assert!(census.live().is_zero(), "{}", census.live());

        let backend = crate::VulkanBackend::with_options(&options).expect("a Vulkan device");
        let census = backend.native_census().expect("a census");
        let info = vk::SamplerCreateInfo::default();
        // SAFETY: a live device; the sampler is left alive on purpose (the leak).
        let _leaked = unsafe { backend.dev.gpu.device.create_sampler(&info, None) }.unwrap();
        drop(backend);
        assert!(
            census.live().get(NativeKind::DriverObject) > 0,
            "{}",
            census.live()
        );
    }
}

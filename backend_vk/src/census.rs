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
//! the backend leaked.

use std::alloc::Layout;
use std::ffi::c_void;

use ash::vk;
use tessera_wire::census::{NativeCensus, NativeKind};

/// Bytes kept before each allocation: its size, alignment and scope.
const HEADER: usize = 32;

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

    fn count(&self, scope: u32, n: i64) {
        self.census.add(NativeKind::DriverAllocation, n);
        if scope == vk::SystemAllocationScope::OBJECT.as_raw() as u32 {
            self.census.add(NativeKind::DriverObject, n);
        }
    }
}

fn layout(size: usize, align: usize) -> Option<(Layout, usize)> {
    let pad = align.max(HEADER);
    let layout = Layout::from_size_align(size.checked_add(pad)?, align.max(16)).ok()?;
    Some((layout, pad))
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
    let Some((layout, pad)) = layout(size, align) else {
        return std::ptr::null_mut();
    };
    // SAFETY: a non-zero size (the pad).
    let base = unsafe { std::alloc::alloc(layout) };
    if base.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: `pad` < the layout's size; the header fits before the returned pointer.
    let p = unsafe { base.add(pad) }.cast::<c_void>();
    let scope = scope.as_raw() as u32;
    // SAFETY: just allocated.
    unsafe { header(p).write([size, align, scope as usize]) };
    // SAFETY: `user` is the HostAllocator these callbacks were made from, alive while the
    // instance is.
    unsafe { &*user.cast::<HostAllocator>() }.count(scope, 1);
    p
}

unsafe extern "system" fn free(user: *mut c_void, p: *mut c_void) {
    if p.is_null() {
        return;
    }
    // SAFETY: Vulkan frees only what these callbacks allocated, once.
    let [size, align, scope] = unsafe { header(p).read() };
    let Some((layout, pad)) = layout(size, align) else {
        return;
    };
    // SAFETY: the same layout and base as at allocation.
    unsafe { std::alloc::dealloc(p.cast::<u8>().sub(pad), layout) };
    // SAFETY: see `allocate`.
    unsafe { &*user.cast::<HostAllocator>() }.count(scope as u32, -1);
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
    // SAFETY: forwarded; on failure the original stays, as Vulkan requires.
    let p = unsafe { allocate(user, size, align, scope) };
    if !p.is_null() {
        // SAFETY: both live; the old size is in its header.
        unsafe {
            let old = header(original).read()[0];
            std::ptr::copy_nonoverlapping(original.cast::<u8>(), p.cast::<u8>(), old.min(size));
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

//! The Vulkan devices of this machine, as a server's device list sees them
//! (`tessera_wire::transport::devices`): what `tessera-server` places sessions on when no
//! topology describes a machine instead.

use ash::vk;
use tessera_wire::transport::devices::{Device, DeviceKind};

/// Every Vulkan physical device of the system, in enumeration order (the index
/// `TESSERA_VK_DEVICE` takes): name, vendor, UUID, kind, the budget of its largest
/// device-local heap (live from `VK_EXT_memory_budget` where the device has it, else the
/// heap's size), and a few limits. Empty when Vulkan cannot be loaded. A bare instance (no
/// layer, no device) is made for the query and destroyed.
pub fn devices() -> Vec<Device> {
    // SAFETY: loading libvulkan runs its initialisers; it is the system's Vulkan loader.
    let Ok(entry) = (unsafe { ash::Entry::load() }) else {
        return Vec::new();
    };
    let app = vk::ApplicationInfo::default()
        .application_name(c"tessera")
        .engine_name(c"tessera")
        .api_version(vk::API_VERSION_1_1);
    let info = vk::InstanceCreateInfo::default().application_info(&app);
    // SAFETY: every pointer in `info` points at data alive for this call.
    let Ok(instance) = (unsafe { entry.create_instance(&info, None) }) else {
        return Vec::new();
    };
    // SAFETY: a live instance.
    let physicals = unsafe { instance.enumerate_physical_devices() }.unwrap_or_default();
    let found = physicals
        .iter()
        .map(|&phys| describe(&instance, phys))
        .collect();
    // SAFETY: nothing was created from the instance; destroyed once, after its last use.
    unsafe { instance.destroy_instance(None) };
    found
}

fn describe(instance: &ash::Instance, phys: vk::PhysicalDevice) -> Device {
    let mut id = vk::PhysicalDeviceIDProperties::default();
    let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut id);
    // SAFETY: a physical device of this instance; the chain is well formed.
    unsafe { instance.get_physical_device_properties2(phys, &mut props2) };
    let props = props2.properties;
    let uuid = id.device_uuid;
    // SAFETY: a physical device of this instance.
    let has_budget = unsafe { instance.enumerate_device_extension_properties(phys) }
        .unwrap_or_default()
        .iter()
        .any(|e| e.extension_name_as_c_str() == Ok(ash::ext::memory_budget::NAME));
    let mut budget_props = vk::PhysicalDeviceMemoryBudgetPropertiesEXT::default();
    let mut memory2 = vk::PhysicalDeviceMemoryProperties2::default();
    if has_budget {
        memory2 = memory2.push_next(&mut budget_props);
    }
    // SAFETY: a physical device of this instance; the chained struct is one the device
    // supports (its extension is present) or none.
    unsafe { instance.get_physical_device_memory_properties2(phys, &mut memory2) };
    let memory = memory2.memory_properties;
    let heaps = &memory.memory_heaps[..memory.memory_heap_count as usize];
    let local = heaps
        .iter()
        .enumerate()
        .filter(|(_, h)| h.flags.contains(vk::MemoryHeapFlags::DEVICE_LOCAL))
        .max_by_key(|(_, h)| h.size)
        .or_else(|| heaps.iter().enumerate().max_by_key(|(_, h)| h.size));
    let budget = match local {
        Some((index, heap)) if has_budget => {
            let live = budget_props.heap_budget[index];
            if live > 0 { live } else { heap.size }
        }
        Some((_, heap)) => heap.size,
        None => 0,
    };
    let kind = match props.device_type {
        vk::PhysicalDeviceType::DISCRETE_GPU => DeviceKind::Discrete,
        vk::PhysicalDeviceType::INTEGRATED_GPU => DeviceKind::Integrated,
        vk::PhysicalDeviceType::VIRTUAL_GPU => DeviceKind::Virtual,
        vk::PhysicalDeviceType::CPU => DeviceKind::Cpu,
        _ => DeviceKind::Other,
    };
    let limits = &props.limits;
    Device {
        name: props
            .device_name_as_c_str()
            .map(|c| c.to_string_lossy().into_owned())
            .unwrap_or_default(),
        vendor: format!("{:#06x}", props.vendor_id),
        uuid,
        kind,
        backends: vec!["vulkan".to_owned()],
        budget,
        speed: default_speed(kind),
        limits: vec![
            (
                "maxImageDimension2D".to_owned(),
                u64::from(limits.max_image_dimension2_d),
            ),
            (
                "maxComputeWorkGroupInvocations".to_owned(),
                u64::from(limits.max_compute_work_group_invocations),
            ),
            (
                "maxMemoryAllocationCount".to_owned(),
                u64::from(limits.max_memory_allocation_count),
            ),
        ],
        synthetic: false,
        events: Vec::new(),
    }
}

/// The relative speed a discovered device is given by its kind (no benchmark runs at
/// discovery): discrete 4, integrated and virtual 2, a CPU rasterizer 1.
pub fn default_speed(kind: DeviceKind) -> f64 {
    match kind {
        DeviceKind::Discrete => 4.0,
        DeviceKind::Integrated | DeviceKind::Virtual => 2.0,
        DeviceKind::Cpu | DeviceKind::Other => 1.0,
    }
}

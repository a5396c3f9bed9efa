//! GL–Vulkan interop (`GL_EXT_memory_object`, `GL_EXT_memory_object_fd`): a Vulkan program
//! (the test's own instance and device, validation on) allocates an RGBA8 image's memory
//! exportable and hands the opaque descriptor to Tessera's Vulkan backend in the same process,
//! which draws the scene into a texture made of that memory (`glTexStorageMem2DEXT`); after
//! `glFinish` the Vulkan side copies its image to a host buffer and reads exactly what native
//! llvmpipe draws. Also the errors the EXT names, which the engine decides.
#![expect(unsafe_code, reason = "frees the host's own Vulkan image and memory")]

use ash::vk;
use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::{Backend, assert_no_backend_events, tessera_on};
use tessera_tests::vk_host::{H, HostVk, W, native_pixels, scene, scene_on};

/// The usage and flags the backend gives an RGBA8 texture's image (`memory_object` module
/// docs), which the Vulkan side's image must have too.
const USAGE: vk::ImageUsageFlags = vk::ImageUsageFlags::from_raw(
    vk::ImageUsageFlags::TRANSFER_SRC.as_raw()
        | vk::ImageUsageFlags::TRANSFER_DST.as_raw()
        | vk::ImageUsageFlags::SAMPLED.as_raw()
        | vk::ImageUsageFlags::COLOR_ATTACHMENT.as_raw()
        | vk::ImageUsageFlags::STORAGE.as_raw(),
);

fn extensions(ctx: &mut Context) -> Vec<String> {
    let mut n = [0];
    ctx.get_integerv(NUM_EXTENSIONS, &mut n);
    (0..n[0] as u32)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

/// The device UUIDs of Tessera's backend, as an export describes them.
fn tessera_uuids(ctx: &mut Context) -> ([u8; 16], [u8; 16]) {
    let tex = scene(ctx);
    let e = ctx.export_texture(tex).expect("an export");
    (e.info.driver_uuid, e.info.device_uuid)
}

#[test]
fn gl_draws_into_vulkan_memory() {
    tessera_tests::ensure_lavapipe();
    let expected = native_pixels();
    let host = HostVk::new(&[]).expect("the host's Vulkan device");
    let extent = vk::Extent3D {
        width: W as u32,
        height: H as u32,
        depth: 1,
    };
    let (image, memory, size, fd) = host
        .exportable_image(
            vk::Format::R8G8B8A8_UNORM,
            extent,
            USAGE,
            vk::ImageCreateFlags::MUTABLE_FORMAT,
        )
        .expect("an exportable image");

    let mut ctx = tessera_on(Backend::Vulkan, TransportKind::Inproc, W, H);
    let exts = extensions(&mut ctx);
    assert!(exts.iter().any(|e| e == "GL_EXT_memory_object"));
    assert!(exts.iter().any(|e| e == "GL_EXT_memory_object_fd"));
    assert_eq!(
        tessera_uuids(&mut ctx),
        host.uuids(),
        "both sides on the same physical device"
    );
    let (mut driver, mut device, mut count) = ([0u8; 16], [0u8; 16], [0]);
    ctx.get_unsigned_bytev(DRIVER_UUID_EXT, &mut driver);
    ctx.get_unsigned_bytei_v(DEVICE_UUID_EXT, 0, &mut device);
    ctx.get_integerv(NUM_DEVICE_UUIDS_EXT, &mut count);
    assert_eq!(ctx.get_error(), NO_ERROR);
    assert_eq!((driver, device), host.uuids(), "the UUID queries");
    assert_eq!(count, [1]);
    ctx.get_unsigned_bytei_v(DEVICE_UUID_EXT, 1, &mut device);
    assert_eq!(ctx.get_error(), INVALID_VALUE);
    ctx.get_unsigned_bytev(DEVICE_UUID_EXT, &mut driver);
    assert_eq!(ctx.get_error(), INVALID_ENUM);

    let mut mo = [0];
    ctx.create_memory_objects(1, &mut mo);
    assert!(ctx.is_memory_object(mo[0]));
    ctx.memory_object_parameteriv(mo[0], DEDICATED_MEMORY_OBJECT_EXT, &[1]);
    let mut dedicated = [0];
    ctx.get_memory_object_parameteriv(mo[0], DEDICATED_MEMORY_OBJECT_EXT, &mut dedicated);
    assert_eq!(dedicated, [1]);
    assert!(
        ctx.import_memory_fd(mo[0], size, HANDLE_TYPE_OPAQUE_FD_EXT, fd)
            .is_none(),
        "the import takes the descriptor"
    );
    assert_eq!(ctx.get_error(), NO_ERROR);

    let mut tex = [0];
    ctx.gen_textures(1, &mut tex);
    ctx.bind_texture(TEXTURE_2D, tex[0]);
    ctx.tex_storage_mem_2d(TEXTURE_2D, 1, RGBA8, W, H, mo[0], 0);
    assert_eq!(ctx.get_error(), NO_ERROR);
    // The memory object may go: the texture keeps the memory.
    ctx.delete_memory_objects(1, &mo);
    assert!(!ctx.is_memory_object(mo[0]));
    scene_on(&mut ctx, tex[0]);
    ctx.finish();
    assert_eq!(ctx.get_error(), NO_ERROR);
    assert_no_backend_events(&mut ctx, "memory object");

    // glFinish returned: the device completed the draws into the shared memory. No
    // semaphore hands over a layout: the Vulkan side takes the image as GENERAL from the
    // external queue family (module docs of tessera_engine::memory_object).
    let got = host
        .read_image(
            image,
            extent,
            u64::from(extent.width * extent.height * 4),
            vk::ImageLayout::GENERAL,
            vk::QUEUE_FAMILY_EXTERNAL,
        )
        .expect("the Vulkan side's read");
    let differing = got
        .chunks(4)
        .zip(expected.chunks(4))
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(differing, 0, "{differing} pixels differ from native");
    assert_eq!(got, expected);
    drop(ctx);
    // SAFETY: the read completed; Tessera's context, whose image shared the memory, is gone.
    unsafe {
        host.device.destroy_image(image, None);
        host.device.free_memory(memory, None);
    }
    assert_eq!(host.messages(), Vec::<String>::new(), "validation messages");
}

#[test]
fn memory_object_errors() {
    tessera_tests::ensure_lavapipe();
    let host = HostVk::new(&[]).expect("the host's Vulkan device");
    let extent = vk::Extent3D {
        width: 8,
        height: 8,
        depth: 1,
    };
    let (image, memory, size, fd) = host
        .exportable_image(
            vk::Format::R8G8B8A8_UNORM,
            extent,
            USAGE,
            vk::ImageCreateFlags::MUTABLE_FORMAT,
        )
        .expect("an exportable image");
    let mut ctx = tessera_on(Backend::Vulkan, TransportKind::Inproc, W, H);
    let mut mo = [0; 3];
    ctx.create_memory_objects(-1, &mut mo);
    assert_eq!(ctx.get_error(), INVALID_VALUE);
    ctx.create_memory_objects(3, &mut mo);
    assert_eq!(ctx.get_error(), NO_ERROR);
    let [a, empty, small] = mo;

    // The host's allocation is a dedicated one.
    ctx.memory_object_parameteriv(a, DEDICATED_MEMORY_OBJECT_EXT, &[1]);
    // A handle type other than OPAQUE_FD: the descriptor stays the caller's.
    let fd = ctx
        .import_memory_fd(a, size, 0x9587, fd)
        .expect("handed back");
    assert_eq!(ctx.get_error(), INVALID_ENUM);
    let fd = ctx
        .import_memory_fd(4242, size, HANDLE_TYPE_OPAQUE_FD_EXT, fd)
        .expect("handed back");
    assert_eq!(ctx.get_error(), INVALID_VALUE);
    assert!(
        ctx.import_memory_fd(a, size, HANDLE_TYPE_OPAQUE_FD_EXT, fd)
            .is_none()
    );
    assert_eq!(ctx.get_error(), NO_ERROR);
    // Importing twice.
    let again = host.memory_fd(memory).expect("another descriptor");
    assert!(
        ctx.import_memory_fd(a, size, HANDLE_TYPE_OPAQUE_FD_EXT, again)
            .is_some()
    );
    assert_eq!(ctx.get_error(), INVALID_OPERATION);
    // Parameters are fixed once memory is imported; unknown ones are no parameter.
    ctx.memory_object_parameteriv(a, DEDICATED_MEMORY_OBJECT_EXT, &[1]);
    assert_eq!(ctx.get_error(), INVALID_OPERATION);
    ctx.memory_object_parameteriv(empty, TEXTURE_2D, &[1]);
    assert_eq!(ctx.get_error(), INVALID_ENUM);
    let mut v = [7];
    ctx.get_memory_object_parameteriv(4242, DEDICATED_MEMORY_OBJECT_EXT, &mut v);
    assert_eq!(ctx.get_error(), INVALID_VALUE);
    assert_eq!(v, [7]);

    let mut tex = [0; 3];
    ctx.gen_textures(3, &mut tex);
    ctx.bind_texture(TEXTURE_2D, tex[0]);
    // No memory imported yet.
    ctx.tex_storage_mem_2d(TEXTURE_2D, 1, RGBA8, 8, 8, empty, 0);
    assert_eq!(ctx.get_error(), INVALID_OPERATION);
    // Memory object 0, and a name that is none.
    ctx.tex_storage_mem_2d(TEXTURE_2D, 1, RGBA8, 8, 8, 0, 0);
    assert_eq!(ctx.get_error(), INVALID_VALUE);
    ctx.tex_storage_mem_2d(TEXTURE_2D, 1, RGBA8, 8, 8, 4242, 0);
    assert_eq!(ctx.get_error(), INVALID_VALUE);
    // Too small: 16 bytes said for an 8x8 RGBA8 image, or the image past the end.
    let dup = host.memory_fd(memory).expect("another descriptor");
    assert!(
        ctx.import_memory_fd(small, 16, HANDLE_TYPE_OPAQUE_FD_EXT, dup)
            .is_none()
    );
    ctx.tex_storage_mem_2d(TEXTURE_2D, 1, RGBA8, 8, 8, small, 0);
    assert_eq!(ctx.get_error(), INVALID_VALUE);
    ctx.tex_storage_mem_2d(TEXTURE_2D, 1, RGBA8, 8, 8, a, size - 4);
    assert_eq!(ctx.get_error(), INVALID_VALUE);
    // A texture that failed stays mutable: a good call succeeds on it afterwards.
    ctx.tex_storage_mem_2d(TEXTURE_2D, 1, RGBA8, 8, 8, a, 0);
    assert_eq!(ctx.get_error(), NO_ERROR);
    // Immutable now, as after glTexStorage2D.
    ctx.tex_storage_mem_2d(TEXTURE_2D, 1, RGBA8, 8, 8, a, 0);
    assert_eq!(ctx.get_error(), INVALID_OPERATION);
    // Other targets are not built; depth formats neither.
    ctx.bind_texture(TEXTURE_2D_ARRAY, tex[1]);
    ctx.tex_storage_mem_2d(TEXTURE_2D_ARRAY, 1, RGBA8, 8, 8, a, 0);
    assert_eq!(ctx.get_error(), INVALID_ENUM);
    ctx.bind_texture(TEXTURE_2D, tex[2]);
    ctx.tex_storage_mem_2d(TEXTURE_2D, 1, DEPTH_COMPONENT24, 8, 8, a, 0);
    assert_eq!(ctx.get_error(), INVALID_OPERATION);
    // The named form, on a texture glCreateTextures made.
    let mut named = [0];
    ctx.create_textures(TEXTURE_2D, 1, &mut named);
    ctx.texture_storage_mem_2d(named[0], 1, RGBA8, 8, 8, a, 0);
    assert_eq!(ctx.get_error(), NO_ERROR);
    ctx.finish();
    assert_no_backend_events(&mut ctx, "memory object errors");
    ctx.delete_memory_objects(-1, &mo);
    assert_eq!(ctx.get_error(), INVALID_VALUE);
    drop(ctx);
    // SAFETY: Tessera's context, whose images shared the memory, is gone.
    unsafe {
        host.device.destroy_image(image, None);
        host.device.free_memory(memory, None);
    }
    assert_eq!(host.messages(), Vec::<String>::new(), "validation messages");

    // Not advertised, and refused, where the descriptor cannot reach the backend.
    for (backend, transport) in [
        (Backend::Gles, TransportKind::Inproc),
        (Backend::Vulkan, TransportKind::Fork),
    ] {
        let mut other = tessera_on(backend, transport.clone(), W, H);
        assert!(
            !extensions(&mut other)
                .iter()
                .any(|e| e.starts_with("GL_EXT_memory_object")),
            "{transport:?}"
        );
        let mut m = [0];
        other.create_memory_objects(1, &mut m);
        assert_eq!(other.get_error(), INVALID_OPERATION, "{transport:?}");
    }
}

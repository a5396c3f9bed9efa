//! GL–Vulkan interop: `GL_EXT_memory_object` and `GL_EXT_memory_object_fd`, textures whose
//! storage is memory a Vulkan program allocated ([`Context::tex_storage_mem_2d`]).
//!
//! Emulators that mix the two APIs allocate an image's memory with Vulkan, export it as an
//! opaque file descriptor (`vkGetMemoryFdKHR`), and let GL draw into it. Here a memory
//! object keeps the imported descriptor ([`Context::import_memory_fd`] takes ownership);
//! each texture made of it gets a duplicate, which the Vulkan backend imports
//! (`VkImportMemoryFdInfoKHR`, dedicated to the texture's image where the memory object is
//! `DEDICATED_MEMORY_OBJECT_EXT`) and binds a new image to at the offset given. The image
//! lives and dies with the texture; deleting the memory object closes only its own
//! descriptor.
//!
//! ## The image both sides make
//! The opaque handle carries no layout: the Vulkan program's image must be the one the
//! backend makes, which is the EXT's default, `OPTIMAL_TILING_EXT`: a 2D image of the
//! texture's `VkFormat` (`RGBA8`: `R8G8B8A8_UNORM`), its extent and levels, one layer and
//! sample, `VK_IMAGE_TILING_OPTIMAL`, exclusive sharing, `VkExternalMemoryImageCreateInfo`
//! naming `OPAQUE_FD`, flags `MUTABLE_FORMAT`, and the usage the format allows of
//! `TRANSFER_SRC | TRANSFER_DST | SAMPLED | COLOR_ATTACHMENT | STORAGE` (plus
//! `ATTACHMENT_FEEDBACK_LOOP_EXT` on a device with `VK_EXT_attachment_feedback_loop_layout`).
//! The memory type is the lowest one the image's requirements allow, device-local ones
//! first. `TEXTURE_TILING_EXT` (linear tiling) is not built. Both devices must be the same
//! physical device: compare `glGetUnsignedBytevEXT(DRIVER_UUID_EXT)` and
//! `glGetUnsignedBytei_vEXT(DEVICE_UUID_EXT, 0)` ([`Context::get_unsigned_bytev`],
//! [`Context::get_unsigned_bytei_v`]) with the Vulkan device's
//! `VkPhysicalDeviceIDProperties`.
//!
//! ## Synchronisation
//! Where `GL_EXT_semaphore_fd` is advertised ([`crate::semaphore`]; not on lavapipe), the
//! two sides hand the texture over with semaphores and layouts. Elsewhere, after GL's last
//! command on the texture, `glFinish` returns once the device completed it, and the Vulkan
//! program may then read the memory. Without a semaphore GL hands over no layout: the
//! Vulkan program transitions the image from `GENERAL` as if acquired from
//! `VK_QUEUE_FAMILY_EXTERNAL` (on lavapipe, as in CI, layouts have no effect on memory).
//!
//! ## Where it works
//! The Vulkan backend on a device with `VK_KHR_external_memory_fd`, through `inproc` or
//! `thread`: the descriptor reaches the backend through a table of the process
//! (`tessera_wire::backend::hand_over_fd`), never as a number in a record. Elsewhere
//! (the GLES and null backends, `shm`, `fork`, `unix:` and `tcp://`) the extensions are
//! not advertised and every call records `INVALID_OPERATION`.
//!
//! ## Errors (decided here, as the EXT specifications name them)
//! - `glCreateMemoryObjectsEXT`, `glDeleteMemoryObjectsEXT`: `n < 0` is `INVALID_VALUE`.
//! - `glMemoryObjectParameterivEXT`: a name that is no memory object is `INVALID_VALUE`; a
//!   pname other than `DEDICATED_MEMORY_OBJECT_EXT` or `PROTECTED_MEMORY_OBJECT_EXT` is
//!   `INVALID_ENUM`; a memory object with memory imported is `INVALID_OPERATION`.
//! - `glGetMemoryObjectParameterivEXT`: as above, without the last.
//! - `glImportMemoryFdEXT`: a handle type other than `HANDLE_TYPE_OPAQUE_FD_EXT` is
//!   `INVALID_ENUM`; a name that is no memory object is `INVALID_VALUE`; one that has
//!   memory already is `INVALID_OPERATION`. On an error the descriptor is not taken.
//! - `glTexStorageMem2DEXT`: a name that is no memory object (0 included) is
//!   `INVALID_VALUE`; one without imported memory is `INVALID_OPERATION`; a target other
//!   than `TEXTURE_2D` is `INVALID_ENUM` (other targets are not built); a depth, stencil or
//!   compressed format is `INVALID_OPERATION` (not built); `offset` plus the tightly
//!   packed size of the levels past the memory's size is `INVALID_VALUE`; then every error
//!   of `glTexStorage2D`. Memory the driver refuses (an image larger than the memory at that
//!   offset) is `GL_OUT_OF_MEMORY` at the next `glGetError`, the texture keeping storage of
//!   its own.

use std::collections::HashMap;
use std::os::fd::OwnedFd;

use tessera_components::gl::*;
use tessera_components::object::Texture;
use tessera_components::state::TextureTarget;
use tessera_wire::record::{Record, TextureMemory};

use crate::context::{Context, GlResult};
use crate::share::Shared;
use crate::texture::block_bytes;
use crate::texture::format::texture_format;

/// The memory objects of a share group, by name.
#[derive(Default)]
pub struct MemoryObjects {
    /// The last name handed out.
    last: GLuint,
    objects: HashMap<GLuint, MemoryObject>,
}

/// A memory object: its parameters and, once imported, its memory.
#[derive(Default)]
struct MemoryObject {
    dedicated: bool,
    protected: bool,
    imported: Option<Imported>,
}

/// Memory a memory object imported.
struct Imported {
    fd: OwnedFd,
    size: u64,
}

impl Context {
    /// Whether the extensions are available to this context: the Vulkan backend with
    /// `VK_KHR_external_memory_fd`, in process (module docs).
    fn memory_objects_available(&mut self) -> GlResult {
        if self.local.limits.memory_objects {
            Ok(())
        } else {
            Err(INVALID_OPERATION)
        }
    }

    /// `glCreateMemoryObjectsEXT`: `n` new memory objects, not dedicated, no memory.
    pub fn create_memory_objects(&mut self, n: GLsizei, memory_objects: &mut [GLuint]) {
        let r = self.memory_objects_available().and_then(|()| {
            if n < 0 {
                return Err(INVALID_VALUE);
            }
            let group = self.group.clone();
            let mut sh = group.lock_for(self.local.id);
            let mo = &mut sh.memory_objects;
            for out in memory_objects.iter_mut().take(n as usize) {
                mo.last += 1;
                mo.objects.insert(mo.last, MemoryObject::default());
                *out = mo.last;
            }
            Ok(())
        });
        if let Err(e) = r {
            self.error(e);
        }
    }

    /// `glDeleteMemoryObjectsEXT`: closes each memory object's descriptor (textures made of
    /// it keep their memory); names that are no memory object are ignored.
    pub fn delete_memory_objects(&mut self, n: GLsizei, memory_objects: &[GLuint]) {
        let r = self.memory_objects_available().and_then(|()| {
            if n < 0 {
                return Err(INVALID_VALUE);
            }
            let group = self.group.clone();
            let mut sh = group.lock_for(self.local.id);
            for name in memory_objects.iter().take(n as usize) {
                sh.memory_objects.objects.remove(name);
            }
            Ok(())
        });
        if let Err(e) = r {
            self.error(e);
        }
    }

    /// `glIsMemoryObjectEXT`.
    pub fn is_memory_object(&mut self, memory: GLuint) -> bool {
        if self.local.limits.memory_objects {
            let group = self.group.clone();
            let sh = group.lock_for(self.local.id);
            sh.memory_objects.objects.contains_key(&memory)
        } else {
            self.error(INVALID_OPERATION);
            false
        }
    }

    /// `glMemoryObjectParameterivEXT`: `DEDICATED_MEMORY_OBJECT_EXT` or
    /// `PROTECTED_MEMORY_OBJECT_EXT`, before memory is imported.
    pub fn memory_object_parameteriv(&mut self, memory: GLuint, pname: GLenum, params: &[GLint]) {
        let r = self.memory_objects_available().and_then(|()| {
            let group = self.group.clone();
            let mut sh = group.lock_for(self.local.id);
            let m = sh
                .memory_objects
                .objects
                .get_mut(&memory)
                .ok_or(INVALID_VALUE)?;
            let value = params.first().copied().unwrap_or(0) != 0;
            let slot = match pname {
                DEDICATED_MEMORY_OBJECT_EXT => &mut m.dedicated,
                PROTECTED_MEMORY_OBJECT_EXT => &mut m.protected,
                _ => return Err(INVALID_ENUM),
            };
            if m.imported.is_some() {
                return Err(INVALID_OPERATION);
            }
            *slot = value;
            Ok(())
        });
        if let Err(e) = r {
            self.error(e);
        }
    }

    /// `glGetMemoryObjectParameterivEXT`.
    pub fn get_memory_object_parameteriv(
        &mut self,
        memory: GLuint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        let r = self.memory_objects_available().and_then(|()| {
            let group = self.group.clone();
            let sh = group.lock_for(self.local.id);
            let m = sh
                .memory_objects
                .objects
                .get(&memory)
                .ok_or(INVALID_VALUE)?;
            let value = match pname {
                DEDICATED_MEMORY_OBJECT_EXT => m.dedicated,
                PROTECTED_MEMORY_OBJECT_EXT => m.protected,
                _ => return Err(INVALID_ENUM),
            };
            if let Some(p) = params.first_mut() {
                *p = GLint::from(value);
            }
            Ok(())
        });
        if let Err(e) = r {
            self.error(e);
        }
    }

    /// `glImportMemoryFdEXT`: the memory object takes `fd`, an opaque Vulkan memory
    /// descriptor of `size` bytes. On a GL error the descriptor is handed back (`Some`),
    /// not closed, as the EXT leaves it with the application then.
    pub fn import_memory_fd(
        &mut self,
        memory: GLuint,
        size: GLuint64,
        handle_type: GLenum,
        fd: OwnedFd,
    ) -> Option<OwnedFd> {
        let r = self.memory_objects_available().and_then(|()| {
            if handle_type != HANDLE_TYPE_OPAQUE_FD_EXT {
                return Err(INVALID_ENUM);
            }
            let group = self.group.clone();
            let mut sh = group.lock_for(self.local.id);
            let m = sh
                .memory_objects
                .objects
                .get_mut(&memory)
                .ok_or(INVALID_VALUE)?;
            if m.imported.is_some() {
                return Err(INVALID_OPERATION);
            }
            Ok(())
        });
        match r {
            Ok(()) => {
                let group = self.group.clone();
                let mut sh = group.lock_for(self.local.id);
                if let Some(m) = sh.memory_objects.objects.get_mut(&memory) {
                    m.imported = Some(Imported { fd, size });
                }
                None
            }
            Err(e) => {
                self.error(e);
                Some(fd)
            }
        }
    }

    /// `glGetUnsignedBytevEXT`: `DRIVER_UUID_EXT`, the Vulkan driver's UUID (16 bytes), to
    /// compare with the Vulkan program's `VkPhysicalDeviceIDProperties::driverUUID`. Any
    /// other name is `INVALID_ENUM` (`NUM_DEVICE_UUIDS_EXT`, 1, is `glGetIntegerv`'s).
    pub fn get_unsigned_bytev(&mut self, pname: GLenum, data: &mut [u8]) {
        let r = self.memory_objects_available().and_then(|()| {
            let [driver, _] = self.device_uuids();
            let value: &[u8] = match pname {
                DRIVER_UUID_EXT => &driver,
                _ => return Err(INVALID_ENUM),
            };
            let n = value.len().min(data.len());
            data[..n].copy_from_slice(&value[..n]);
            Ok(())
        });
        if let Err(e) = r {
            self.error(e);
        }
    }

    /// `glGetUnsignedBytei_vEXT`: `DEVICE_UUID_EXT` of device `index` (16 bytes), to compare
    /// with `VkPhysicalDeviceIDProperties::deviceUUID`. The one device is 0; another index
    /// is `INVALID_VALUE`, another name `INVALID_ENUM`.
    pub fn get_unsigned_bytei_v(&mut self, target: GLenum, index: GLuint, data: &mut [u8]) {
        let r = self.memory_objects_available().and_then(|()| {
            if target != DEVICE_UUID_EXT {
                return Err(INVALID_ENUM);
            }
            if index != 0 {
                return Err(INVALID_VALUE);
            }
            let [_, device] = self.device_uuids();
            let n = device.len().min(data.len());
            data[..n].copy_from_slice(&device[..n]);
            Ok(())
        });
        if let Err(e) = r {
            self.error(e);
        }
    }

    /// The backend's driver and device UUIDs (`Caps::device_uuids`).
    fn device_uuids(&mut self) -> [[u8; 16]; 2] {
        let group = self.group.clone();
        let sh = group.lock_for(self.local.id);
        sh.caps.device_uuids
    }

    /// `glTexStorageMem2DEXT`: `glTexStorage2D` whose storage is `memory` from `offset` on
    /// (module docs: the image, the errors).
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn tex_storage_mem_2d(
        &mut self,
        target: GLenum,
        levels: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
        memory: GLuint,
        offset: GLuint64,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let r = self.tex_storage_mem_locked(
            &mut sh,
            target,
            levels,
            internalformat,
            [width, height],
            memory,
            offset,
        );
        if let Err(e) = r {
            self.error(e);
        }
    }

    /// `glTextureStorageMem2DEXT`: [`Context::tex_storage_mem_2d`] of a named 2D texture.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn texture_storage_mem_2d(
        &mut self,
        texture: GLuint,
        levels: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
        memory: GLuint,
        offset: GLuint64,
    ) {
        if let Err(e) = self.memory_objects_available() {
            return self.error(e);
        }
        self.on_texture(
            texture,
            INVALID_OPERATION,
            |t| t == TextureTarget::D2,
            |c, t| {
                c.tex_storage_mem_2d(
                    t.to_gl(),
                    levels,
                    internalformat,
                    width,
                    height,
                    memory,
                    offset,
                );
            },
        );
    }

    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    fn tex_storage_mem_locked(
        &mut self,
        sh: &mut Shared,
        target: GLenum,
        levels: GLsizei,
        internal: GLenum,
        [w, h]: [GLsizei; 2],
        memory: GLuint,
        offset: GLuint64,
    ) -> GlResult {
        self.memory_objects_available()?;
        let m = sh
            .memory_objects
            .objects
            .get(&memory)
            .ok_or(INVALID_VALUE)?;
        let imported = m.imported.as_ref().ok_or(INVALID_OPERATION)?;
        let (size, dedicated) = (imported.size, m.dedicated);
        if target != TEXTURE_2D {
            return Err(INVALID_ENUM);
        }
        if let Some(format) = texture_format(internal, NONE) {
            let info = format.info();
            if info.depth_bits != 0 || info.stencil_bits != 0 || block_bytes(format).is_some() {
                return Err(INVALID_OPERATION);
            }
            // The tightly packed levels: a lower bound of any image's size, which the
            // backend checks exactly (module docs).
            let texel = info
                .rgba_bits
                .iter()
                .map(|&b| u64::from(b))
                .sum::<u64>()
                .div_ceil(8);
            let bytes: u64 = (0..levels.clamp(0, 32) as u32)
                .map(|l| {
                    let lw = (w.max(1) as u64 >> l).max(1);
                    let lh = (h.max(1) as u64 >> l).max(1);
                    lw * lh * texel
                })
                .sum();
            if offset.checked_add(bytes).is_none_or(|end| end > size) {
                return Err(INVALID_VALUE);
            }
        }
        self.tex_storage_locked(sh, 2, target, levels, internal, [w, h, 1])?;
        let m = sh
            .memory_objects
            .objects
            .get(&memory)
            .ok_or(INVALID_VALUE)?;
        let Some(fd) = m.imported.as_ref().and_then(|i| i.fd.try_clone().ok()) else {
            // No descriptor left for another import (the process's limit).
            return Err(OUT_OF_MEMORY);
        };
        let e = self.target_texture(sh, TextureTarget::D2);
        let handle = sh.world.get::<Texture>(e).ok_or(INVALID_OPERATION)?.handle;
        let fd_token = tessera_wire::backend::hand_over_fd(fd);
        sh.dev.push(Record::ImportTextureMemory {
            texture: handle,
            memory: Box::new(TextureMemory {
                fd_token,
                size,
                offset,
                dedicated,
                levels: levels as u32,
            }),
        });
        Ok(())
    }
}

//! Texture objects: names, units and bindings, images, parameters, mipmaps.
//!
//! A texture is an entity of the share group's `World` with a [`Texture`] component. Its
//! name becomes an object at the first `bind_texture`, which also fixes its target for good
//! and gives it a wire object (`CreateTexture` with the target's [`TextureKind`]).
//!
//! ## Images
//! Image calls (`tex_image_*`, `copy_tex_*`, `compressed_*`, multisample images,
//! `generate_mipmap`) validate everything first, then update the component, emit the object
//! record at once (`DefineTextureImage`, `WriteTexture` with the pixels unpacked to tight rows
//! in the stage, ...), bump the texture's generations and mark [`Dirty::TEXTURES`] for the
//! units of this context that have the texture bound: the slot bindings are resolved again
//! at the next draw, where completeness is decided (`tessera_systems::texture`).
//!
//! ## Texture zero and proxies
//! GL's texture object zero is a real texture per target that `bind_texture(target, 0)`
//! binds. Ours are created on first use, one per target for the share group (as Mesa shares
//! them), held alive by [`DefaultTextures`] and named 0, so binding queries report 0. A unit
//! binding that was never set (`None`) means texture zero too: the first use of a default
//! texture in a context puts it in every such slot of that context.
//!
//! Proxy targets (`PROXY_TEXTURE_*`) only record whether an image would fit; their images
//! live in [`ProxyTextures`], per context, and show only in `get_tex_level_parameter`.
//!
//! ## Layout
//! `format` holds the format rules, `image` the image calls and uploads, `compressed` the
//! compressed ones, `immutable` immutable storage (`tex_storage_*`), `storage` multisample
//! images and buffer textures, `copy` the framebuffer copies, mipmap generation and
//! read-backs, `copy_image` copies between images (`copy_image_sub_data`), `params`
//! texture parameters and level queries (and the sampling-parameter rules sampler objects
//! share), `view` texture views (`texture_view`).

mod clear;
mod compressed;
mod copy;
mod copy_image;
pub(crate) mod format;
mod image;
mod immutable;
pub(crate) mod params;
mod storage;
mod view;

pub(crate) use copy::{ReadBox, check_read_format};
pub(crate) use format::check_format_type;
pub(crate) use format::{block_bytes, internal_format};
pub(crate) use image::store_for;
pub(crate) use storage::buffer_texture_format;

use std::collections::HashMap;

use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::{Image, Life, MAX_LEVELS, Texture};
use tessera_components::state::{TEXTURE_TARGETS, TextureTarget};
use tessera_systems::lifecycle;
use tessera_wire::format::TextureKind;
use tessera_wire::record::Record;
use tessera_wire::state::MAX_TEXTURE_UNITS;

use crate::context::{Context, Local};
use crate::get::{Value, name_of};
use crate::limits::Limits;
use crate::share::Shared;

/// The default textures (texture object zero) of a share group, by [`TextureTarget`]. Each
/// holds one reference to its texture, so they never die.
#[derive(Resource, Default)]
pub(crate) struct DefaultTextures {
    by_target: [Option<Entity>; TEXTURE_TARGETS],
}

/// The proxy images of one context, by [`TextureTarget`] and level (a cube map's in face
/// 0).
type ProxyImages = [[Image; MAX_LEVELS]; TEXTURE_TARGETS];

/// Proxy texture images of the contexts of a share group, by context id. Proxies are
/// per-context state; they sit here because the context's own state has no slot for them
/// (an entry outlives its context by a few kilobytes).
#[derive(Resource, Default)]
pub(crate) struct ProxyTextures {
    /// Proxy images by context id (a context going away may remove its entry).
    pub(crate) by_context: HashMap<u32, Box<ProxyImages>>,
}

/// The wire kind of a texture target.
pub(crate) fn texture_kind(t: TextureTarget) -> TextureKind {
    match t {
        TextureTarget::D1 => TextureKind::D1,
        TextureTarget::D2 => TextureKind::D2,
        TextureTarget::D3 => TextureKind::D3,
        TextureTarget::D1Array => TextureKind::D1Array,
        TextureTarget::D2Array => TextureKind::D2Array,
        TextureTarget::Rectangle => TextureKind::Rectangle,
        TextureTarget::Cube => TextureKind::Cube,
        TextureTarget::Buffer => TextureKind::Buffer,
        TextureTarget::D2Multisample => TextureKind::D2Multisample,
        TextureTarget::D2MultisampleArray => TextureKind::D2MultisampleArray,
        TextureTarget::CubeArray => TextureKind::CubeArray,
    }
}

/// An image target as image calls and level queries name it: a texture target, a cube face,
/// or a proxy target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ImageTarget {
    /// The texture target (`Cube` for faces and `PROXY_TEXTURE_CUBE_MAP`).
    pub target: TextureTarget,
    /// Cube face index (0 otherwise).
    pub face: usize,
    /// A proxy target.
    pub proxy: bool,
}

/// Every image target GL 3.3 has; `TEXTURE_CUBE_MAP` itself is none (its faces are).
pub(crate) fn image_target(target: GLenum) -> Option<ImageTarget> {
    let plain = |t| ImageTarget {
        target: t,
        face: 0,
        proxy: false,
    };
    let proxy = |t| ImageTarget {
        target: t,
        face: 0,
        proxy: true,
    };
    Some(match target {
        TEXTURE_CUBE_MAP_POSITIVE_X..=TEXTURE_CUBE_MAP_NEGATIVE_Z => ImageTarget {
            target: TextureTarget::Cube,
            face: (target - TEXTURE_CUBE_MAP_POSITIVE_X) as usize,
            proxy: false,
        },
        TEXTURE_CUBE_MAP => return None,
        PROXY_TEXTURE_1D => proxy(TextureTarget::D1),
        PROXY_TEXTURE_2D => proxy(TextureTarget::D2),
        PROXY_TEXTURE_3D => proxy(TextureTarget::D3),
        PROXY_TEXTURE_1D_ARRAY => proxy(TextureTarget::D1Array),
        PROXY_TEXTURE_2D_ARRAY => proxy(TextureTarget::D2Array),
        PROXY_TEXTURE_RECTANGLE => proxy(TextureTarget::Rectangle),
        PROXY_TEXTURE_CUBE_MAP => proxy(TextureTarget::Cube),
        PROXY_TEXTURE_2D_MULTISAMPLE => proxy(TextureTarget::D2Multisample),
        PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY => proxy(TextureTarget::D2MultisampleArray),
        PROXY_TEXTURE_CUBE_MAP_ARRAY => proxy(TextureTarget::CubeArray),
        t => plain(TextureTarget::from_gl(t)?),
    })
}

/// Levels a texture of `target` can have (`log2(max size) + 1`; one for rectangle,
/// multisample and buffer textures).
pub(crate) fn max_levels(limits: &Limits, target: TextureTarget) -> i32 {
    let levels = |size: i32| (32 - (size.max(1) as u32).leading_zeros()) as i32;
    let n = match target {
        TextureTarget::D1 | TextureTarget::D2 | TextureTarget::D1Array | TextureTarget::D2Array => {
            levels(limits.max_texture_size)
        }
        TextureTarget::D3 => levels(limits.max_3d_texture_size),
        TextureTarget::Cube | TextureTarget::CubeArray => levels(limits.max_cube_size),
        _ => 1,
    };
    n.min(MAX_LEVELS as i32)
}

/// Whether an image of `w` x `h` x `d` fits level `level` of a `target` texture: sizes
/// within the maximum for the level, array layers within the layer limit, cube faces square.
/// Negative sizes never fit.
pub(crate) fn fits(
    limits: &Limits,
    target: TextureTarget,
    level: i32,
    w: i32,
    h: i32,
    d: i32,
) -> bool {
    if w < 0 || h < 0 || d < 0 {
        return false;
    }
    let at = |max: i32| max >> level.clamp(0, 31);
    let layers = limits.max_array_layers;
    match target {
        TextureTarget::D1 => w <= at(limits.max_texture_size),
        TextureTarget::D2 => w <= at(limits.max_texture_size) && h <= at(limits.max_texture_size),
        TextureTarget::D1Array => w <= at(limits.max_texture_size) && h <= layers,
        TextureTarget::D2Array => {
            w <= at(limits.max_texture_size) && h <= at(limits.max_texture_size) && d <= layers
        }
        TextureTarget::D3 => {
            let max = at(limits.max_3d_texture_size);
            w <= max && h <= max && d <= max
        }
        TextureTarget::Rectangle => {
            w <= limits.max_rectangle_size && h <= limits.max_rectangle_size
        }
        TextureTarget::Cube => w == h && w <= at(limits.max_cube_size),
        // Whole cubes only: six layers each.
        TextureTarget::CubeArray => {
            w == h && w <= at(limits.max_cube_size) && d <= layers && d % 6 == 0
        }
        TextureTarget::D2Multisample => {
            w <= limits.max_texture_size && h <= limits.max_texture_size
        }
        TextureTarget::D2MultisampleArray => {
            w <= limits.max_texture_size && h <= limits.max_texture_size && d <= layers
        }
        TextureTarget::Buffer => false,
    }
}

impl Context {
    /// `glActiveTexture`.
    pub fn active_texture(&mut self, texture: GLenum) {
        let unit = texture.wrapping_sub(TEXTURE0);
        if texture < TEXTURE0 || unit as usize >= MAX_TEXTURE_UNITS {
            return self.error(INVALID_ENUM);
        }
        self.local.st.active_texture = unit;
    }

    /// `glGenTextures`.
    pub fn gen_textures(&mut self, n: GLsizei, textures: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let n = (n as usize).min(textures.len());
        let mut sh = self.group.lock();
        if sh.names.textures.generate(&mut textures[..n]).is_err() {
            self.local.set_error(OUT_OF_MEMORY);
        }
    }

    /// Generates one texture name.
    pub fn gen_texture(&mut self) -> GLuint {
        let mut name = [0];
        self.gen_textures(1, &mut name);
        name[0]
    }

    /// `glIsTexture`: true for names that have an object (bound at least once).
    pub fn is_texture(&mut self, texture: GLuint) -> GLboolean {
        let sh = self.group.lock();
        sh.names.textures.get(texture).is_some() as GLboolean
    }

    /// `glBindTexture`. The first bind of a generated name creates the texture with that
    /// target; binding it to another target afterwards is `INVALID_OPERATION`, as is a name
    /// that was never generated.
    pub fn bind_texture(&mut self, target: GLenum, texture: GLuint) {
        // Without the backend's cube map arrays their target is an unknown enum, as in a
        // context without `GL_ARB_texture_cube_map_array`.
        let Some(t) = TextureTarget::from_gl(target)
            .filter(|t| *t != TextureTarget::CubeArray || self.local.limits.cube_map_arrays)
        else {
            return self.error(INVALID_ENUM);
        };
        // Bind is on the draw path of texture-heavy programs: no Arc clone, one lock.
        let mut sh = self.group.lock_for(self.local.id);
        let e = if texture == 0 {
            default_texture_if_any(&sh, t)
        } else {
            match sh.names.textures.entry(texture) {
                NameEntry::Free => return self.local.set_error(INVALID_OPERATION),
                NameEntry::Object(e) => {
                    if sh.world.get::<Texture>(e).and_then(|x| x.target) != Some(t) {
                        return self.local.set_error(INVALID_OPERATION);
                    }
                    Some(e)
                }
                NameEntry::Reserved => {
                    let e = create_texture(&mut sh, Life::named(texture), t);
                    sh.names.textures.bind_object(texture, e);
                    Some(e)
                }
            }
        };
        let unit = self.local.st.active_texture as usize;
        bind_unit(&mut self.local, &mut sh, unit, t, e);
    }

    /// `glDeleteTextures`: unbinds each texture from every unit of this context and from
    /// the framebuffers bound here, then drops its name; it lives on while other contexts or
    /// unbound framebuffers still refer to it.
    pub fn delete_textures(&mut self, n: GLsizei, textures: &[GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let n = (n as usize).min(textures.len());
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        for &name in &textures[..n] {
            if name == 0 {
                continue;
            }
            let Some(e) = sh.names.textures.get(name) else {
                sh.names.textures.free(name);
                continue;
            };
            if let Some(t) = sh.world.get::<Texture>(e).and_then(|x| x.target) {
                let fallback = default_texture_if_any(&sh, t);
                for unit in 0..MAX_TEXTURE_UNITS {
                    if self.local.st.textures[unit][t as usize] == Some(e) {
                        self.set_texture_binding(&mut sh, unit, t, fallback);
                    }
                }
            }
            self.local.detach_from_bound_framebuffers(&mut sh, e);
            self.detach_from_image_units(&mut sh, name);
            sh.names.textures.free(name);
            let Shared { world, dev, .. } = &mut *sh;
            lifecycle::unname(world, dev, e);
        }
    }

    /// Points unit `unit`'s binding of `t` at `e`, keeping references counted and the unit
    /// marked for the next draw.
    fn set_texture_binding(
        &mut self,
        sh: &mut Shared,
        unit: usize,
        t: TextureTarget,
        e: Option<Entity>,
    ) {
        bind_unit(&mut self.local, sh, unit, t, e);
    }

    /// The texture image calls on `t` work on: the one bound to the active unit, or the
    /// default texture (created on first use, and then bound wherever this context binds
    /// texture zero to `t`).
    pub(crate) fn target_texture(&mut self, sh: &mut Shared, t: TextureTarget) -> Entity {
        if let Some(e) = self.local.bound_texture(t) {
            return e;
        }
        let e = match default_texture_if_any(sh, t) {
            Some(e) => e,
            None => {
                let e = create_texture(sh, Life::named(0), t);
                lifecycle::retain(&mut sh.world, e);
                sh.world
                    .get_resource_or_insert_with(DefaultTextures::default)
                    .by_target[t as usize] = Some(e);
                e
            }
        };
        for unit in 0..MAX_TEXTURE_UNITS {
            if self.local.st.textures[unit][t as usize].is_none() {
                self.set_texture_binding(sh, unit, t, Some(e));
            }
        }
        e
    }

    /// Marks for the next draw every unit of this context that has texture `e` bound (its
    /// images or parameters changed).
    pub(crate) fn touch_texture(&mut self, e: Entity, t: TextureTarget) {
        let mut units = 0u64;
        for (unit, bindings) in self.local.st.textures.iter().enumerate() {
            if bindings[t as usize] == Some(e) {
                units |= 1 << unit;
            }
        }
        if units != 0 {
            self.local.dirty_units |= units;
            self.local.touch(Dirty::TEXTURES);
        }
    }

    /// The proxy images of this context.
    pub(crate) fn proxy_images<'a>(&self, sh: &'a mut Shared) -> &'a mut ProxyImages {
        sh.world
            .get_resource_or_insert_with(ProxyTextures::default)
            .into_inner()
            .by_context
            .entry(self.local.id)
            .or_insert_with(|| Box::new([[Image::default(); MAX_LEVELS]; TEXTURE_TARGETS]))
    }

    /// Texture state for `glGet*` that `get` does not answer itself:
    /// `TEXTURE_BUFFER_DATA_STORE_BINDING` and `TEXTURE_BUFFER_FORMAT` (the buffer and texel
    /// format of the buffer texture bound to the active unit; GL 3.3 queries them with
    /// `glGetIntegerv`, the format being `R8` until `glTexBuffer` names one).
    pub(crate) fn texture_state_value(&self, sh: &Shared, pname: GLenum) -> Option<Value> {
        /// `GL_TEXTURE_BUFFER_FORMAT` (GL 3.1 state table, queried with `glGetIntegerv`).
        const TEXTURE_BUFFER_FORMAT: GLenum = 0x8C2E;
        match pname {
            TEXTURE_BUFFER_FORMAT => {
                let format = self
                    .local
                    .st
                    .active_texture_binding(TextureTarget::Buffer)
                    .and_then(|e| sh.world.get::<Texture>(e))
                    .map_or(R8, |t| t.buffer_format);
                Some(Value::int(i64::from(format)))
            }
            TEXTURE_BUFFER_DATA_STORE_BINDING => {
                let buffer = self
                    .local
                    .st
                    .active_texture_binding(TextureTarget::Buffer)
                    .and_then(|e| sh.world.get::<Texture>(e))
                    .and_then(|t| t.buffer)
                    .map(|b| b.buffer);
                Some(Value::int(name_of(sh, buffer)))
            }
            _ => None,
        }
    }
}

impl Local {
    /// The texture the texture calls on target `t` find: the one a direct-state-access
    /// call names while its body runs, else the one bound to `t` on the active unit (`None`:
    /// texture zero).
    #[inline]
    pub(crate) fn bound_texture(&self, t: TextureTarget) -> Option<Entity> {
        self.named_texture
            .or_else(|| self.st.active_texture_binding(t))
    }
}

/// The share group's default texture of `t`, if one was created.
pub(crate) fn default_texture_if_any(sh: &Shared, t: TextureTarget) -> Option<Entity> {
    sh.world
        .get_resource::<DefaultTextures>()
        .and_then(|d| d.by_target[t as usize])
}

/// Creates a texture object of target `t` with its wire object.
pub(crate) fn create_texture(sh: &mut Shared, life: Life, t: TextureTarget) -> Entity {
    let handle = sh.dev.alloc.mint();
    sh.dev.push(Record::CreateTexture {
        texture: handle,
        kind: texture_kind(t),
    });
    sh.world.spawn((life, Texture::new(handle, Some(t)))).id()
}

/// Points unit `unit`'s binding of `t` at `e`, keeping references counted and the unit
/// marked for the next draw.
#[inline]
pub(crate) fn bind_unit(
    local: &mut Local,
    sh: &mut Shared,
    unit: usize,
    t: TextureTarget,
    e: Option<Entity>,
) {
    let slot = &mut local.st.textures[unit][t as usize];
    if *slot == e {
        return;
    }
    let old = std::mem::replace(slot, e);
    let Shared { world, dev, .. } = sh;
    lifecycle::replace(world, dev, old, e);
    local.dirty_units |= 1 << unit;
    local.touch(Dirty::TEXTURES);
}

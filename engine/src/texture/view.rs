//! Texture views (`glTextureView`: GL 4.3's `ARB_texture_view`).
//!
//! A view is a texture of its own (name, target, parameters, format) over a range of levels
//! and layers of an immutable texture's storage. Its images are the range's, with the view's
//! format; its `TEXTURE_VIEW_*` range is relative to the storage, so a view of a view
//! composes both offsets, and the backend gets one `CreateTextureView` naming the texture
//! that owns the storage (`Texture::view_of`). The view holds a reference to that owner, so
//! deleting the original texture keeps the storage (and its wire object) alive while views
//! of it live.
//!
//! Errors are decided in Mesa's order (`textureview.c`): `texture` zero `INVALID_VALUE`; a
//! name never generated, or one that already has an object, `INVALID_OPERATION`; an
//! `origtexture` that names no object `INVALID_VALUE`; one that is not immutable, or a
//! target its target cannot be viewed as (GL 4.5 table 8.21), `INVALID_OPERATION`; a first
//! level or layer past the original's `INVALID_VALUE`; a format outside the original
//! format's view class `INVALID_OPERATION` (an unsized one too: no class has it), another
//! unsized one `INVALID_ENUM`; then, with the level and layer counts clamped to what the
//! original has, sizes the target cannot take, more than one layer for a target without
//! layers, or a cube map of other than six layers `INVALID_VALUE`, and a cube map of faces
//! that are not square `INVALID_OPERATION`.

use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::{Image, Life, MAX_LEVELS, Texture, ViewRange};
use tessera_components::state::TextureTarget;
use tessera_systems::lifecycle;
use tessera_wire::record::{Record, TextureViewDesc};

use super::copy_image::view_class;
use super::format::{compressed_size, internal_format};
use super::immutable::is_sized;
use super::{fits, texture_kind};
use crate::context::{Context, GlResult};
use crate::share::Shared;

/// Whether a texture of target `orig` may be viewed as `target` (GL 4.5 table 8.21).
fn target_compatible(orig: TextureTarget, target: TextureTarget) -> bool {
    use TextureTarget as T;
    match orig {
        T::D1 | T::D1Array => matches!(target, T::D1 | T::D1Array),
        T::D2 => matches!(target, T::D2 | T::D2Array),
        T::D3 => target == T::D3,
        T::Rectangle => target == T::Rectangle,
        T::Cube | T::D2Array | T::CubeArray => {
            matches!(target, T::D2 | T::D2Array | T::Cube | T::CubeArray)
        }
        T::D2Multisample | T::D2MultisampleArray => {
            matches!(target, T::D2Multisample | T::D2MultisampleArray)
        }
        T::Buffer => false,
    }
}

/// Whether a view may have `internal` as its format when its original's level 0 has `orig`:
/// the same format, or one of the same view class (GL 4.5 table 8.22).
fn format_compatible(orig: GLenum, internal: GLenum) -> bool {
    orig == internal || view_class(orig).is_some_and(|c| view_class(internal) == Some(c))
}

impl Context {
    /// `glTextureView`: makes `texture`, a generated name without an object, a view of
    /// levels `minlevel..` and layers `minlayer..` of `origtexture`'s storage with target
    /// `target` and format `internalformat` (module docs).
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn texture_view(
        &mut self,
        texture: GLuint,
        target: GLenum,
        origtexture: GLuint,
        internalformat: GLenum,
        minlevel: GLuint,
        numlevels: GLuint,
        minlayer: GLuint,
        numlayers: GLuint,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let range = [minlevel, numlevels, minlayer, numlayers];
        if let Err(err) =
            self.texture_view_locked(&mut sh, texture, target, origtexture, internalformat, range)
        {
            self.error(err);
        }
    }

    fn texture_view_locked(
        &mut self,
        sh: &mut Shared,
        texture: GLuint,
        target: GLenum,
        origtexture: GLuint,
        internal: GLenum,
        [minlevel, numlevels, minlayer, numlayers]: [GLuint; 4],
    ) -> GlResult {
        if texture == 0 {
            return Err(INVALID_VALUE);
        }
        if sh.names.textures.entry(texture) != NameEntry::Reserved {
            return Err(INVALID_OPERATION);
        }
        let orig_e = match sh.names.textures.entry(origtexture) {
            _ if origtexture == 0 => return Err(INVALID_VALUE),
            NameEntry::Free => return Err(INVALID_VALUE),
            // A generated name without an object: a texture with no storage.
            NameEntry::Reserved => return Err(INVALID_OPERATION),
            NameEntry::Object(e) => e,
        };
        let orig = sh
            .world
            .get::<Texture>(orig_e)
            .ok_or(INVALID_OPERATION)?
            .clone();
        if orig.immutable_levels == 0 {
            return Err(INVALID_OPERATION);
        }
        let orig_target = orig.target.ok_or(INVALID_OPERATION)?;
        let cube_arrays = self.local.limits.cube_map_arrays;
        let t = TextureTarget::from_gl(target)
            .filter(|&t| target_compatible(orig_target, t))
            .filter(|&t| cube_arrays || t != TextureTarget::CubeArray)
            .ok_or(INVALID_OPERATION)?;
        let have = orig.view_range;
        let (minlevel, minlayer) = (minlevel.min(i32::MAX as u32) as i32, minlayer as i64);
        if minlevel >= have.num_levels {
            return Err(INVALID_VALUE);
        }
        if minlayer >= i64::from(have.num_layers) {
            return Err(INVALID_VALUE);
        }
        let minlayer = minlayer as i32;
        if !format_compatible(orig.images[0][0].internal_format, internal) {
            return Err(INVALID_OPERATION);
        }
        if !is_sized(internal, self.local.limits.texture_stencil8) {
            return Err(INVALID_ENUM);
        }
        let levels = (numlevels.min(i32::MAX as u32) as i32).min(have.num_levels - minlevel);
        let layers = (numlayers.min(i32::MAX as u32) as i32).min(have.num_layers - minlayer);
        let at = |level: i32| orig.images[0][level as usize];
        let first = at(minlevel);
        let shape = |image: Image| -> (i32, i32, i32) {
            let (w, h, d) = (image.width, image.height, image.depth);
            match t {
                TextureTarget::D1 | TextureTarget::D3 => (w, h, d),
                TextureTarget::D1Array => (w, layers, d),
                TextureTarget::D2Array
                | TextureTarget::D2MultisampleArray
                | TextureTarget::CubeArray => (w, h, layers),
                _ => (w, h, 1),
            }
        };
        let (w, h, d) = shape(first);
        // Square faces are checked last (`INVALID_OPERATION`), not with the sizes.
        let sized_as = match t {
            TextureTarget::Cube => TextureTarget::D2,
            TextureTarget::CubeArray => TextureTarget::D2Array,
            t => t,
        };
        if !fits(&self.local.limits, sized_as, 0, w, h, d) {
            return Err(INVALID_VALUE);
        }
        match t {
            TextureTarget::D1
            | TextureTarget::D2
            | TextureTarget::D3
            | TextureTarget::Rectangle
            | TextureTarget::D2Multisample
                if numlayers != 1 =>
            {
                return Err(INVALID_VALUE);
            }
            TextureTarget::Cube if layers != 6 => return Err(INVALID_VALUE),
            TextureTarget::CubeArray if layers % 6 != 0 => return Err(INVALID_VALUE),
            _ => {}
        }
        let cubes = matches!(t, TextureTarget::Cube | TextureTarget::CubeArray);
        if cubes && first.width != first.height {
            return Err(INVALID_OPERATION);
        }

        // The view: its own object over the storage's owner.
        let format = super::format::texture_format(internal, NONE).ok_or(INVALID_ENUM)?;
        let block = internal_format(internal, true).and_then(|k| k.block_bytes);
        let root = orig.view_of.unwrap_or(orig_e);
        let storage = sh
            .world
            .get::<Texture>(root)
            .ok_or(INVALID_OPERATION)?
            .handle;
        let handle = sh.dev.alloc.mint();
        let range = ViewRange {
            min_level: have.min_level + minlevel,
            num_levels: levels,
            min_layer: have.min_layer + minlayer,
            num_layers: layers,
        };
        let mut view = Texture::new(handle, Some(t));
        let faces = if t == TextureTarget::Cube { 6 } else { 1 };
        for level in 0..levels.min(MAX_LEVELS as i32) {
            let (w, h, d) = shape(at(minlevel + level));
            let image = Image {
                width: w,
                height: h,
                depth: d,
                internal_format: internal,
                format: Some(format),
                compressed_size: block.map_or(0, |b| compressed_size(b, w, h, d) as i32),
                ..at(minlevel + level)
            };
            for face in view.images.iter_mut().take(faces) {
                face[level as usize] = image;
            }
        }
        view.immutable_levels = orig.immutable_levels;
        view.view_range = range;
        view.view_of = Some(root);
        sh.dev.push(Record::CreateTextureView {
            texture: handle,
            view: Box::new(TextureViewDesc {
                kind: texture_kind(t),
                storage,
                format,
                min_level: range.min_level.clamp(0, 255) as u8,
                levels: range.num_levels.clamp(0, 255) as u8,
                min_layer: range.min_layer.max(0) as u32,
                layers: range.num_layers.max(0) as u32,
            }),
        });
        lifecycle::retain(&mut sh.world, root);
        let e = sh.world.spawn((Life::named(texture), view)).id();
        sh.names.textures.bind_object(texture, e);
        Ok(())
    }
}

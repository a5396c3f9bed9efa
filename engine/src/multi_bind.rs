//! GL 4.4's multi-bind (`ARB_multi_bind`): `glBindBuffersBase`, `glBindBuffersRange`,
//! `glBindTextures`, `glBindSamplers`, `glBindImageTextures` and `glBindVertexBuffers` set
//! `count` consecutive binding points from `first` in one call.
//!
//! Each is a loop over the single-binding path (`bind_buffer_indexed`, the texture units,
//! `bind_sampler`, the image units, `bind_vertex_buffer`), so a binding set here is the same
//! state, with the same dirty bits, as one set singly. What differs is GL's error rule for
//! them (the extension's issue 11, as Mesa carries it out): a range beyond the binding points
//! (`first + count`, added as Mesa adds a `GLuint` and a `GLsizei`) is `INVALID_OPERATION`
//! and changes nothing; otherwise an invalid entry (a name that is no object, a bad offset,
//! size or stride) raises its error and leaves only its own binding point as it was, while
//! the others are still bound. A name must be an existing object: a buffer name generated but
//! never bound is no buffer here (`INVALID_OPERATION`), where `glBindBufferBase` would create
//! it. A null array of names unbinds the whole range (offsets, sizes and strides to their
//! initial values). The buffer calls leave the target's general binding point
//! (`glBindBuffer`'s) as it was, where `glBindBufferBase` sets it too.

use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::object::Texture;
use tessera_components::state::{BufferTarget, IMAGE_UNITS, ImageUnit, TextureTarget};
use tessera_systems::lifecycle;

use crate::context::Context;
use crate::image::is_image_format;
use crate::limits::{self, ACB_BINDINGS, SSBO_BINDINGS, UBO_BINDINGS, UBO_OFFSET_ALIGNMENT};
use crate::vertex_array::ArrayRef;

/// `MAX_TRANSFORM_FEEDBACK_BUFFERS`.
const TF_BINDINGS: u32 = 4;
/// `VERTEX_BINDING_STRIDE` of a binding point that `glBindVertexBuffers` resets (GL 4.3's
/// initial value).
const INITIAL_STRIDE: GLsizei = 16;

/// Whether `first + count` binding points from `first` pass `limit`, computed as Mesa does
/// (`count` converted to unsigned, the sum wrapping).
fn beyond(first: GLuint, count: GLsizei, limit: u32) -> bool {
    first.wrapping_add(count as u32) > limit
}

/// The entries a loop visits: `count` of them, none for a negative count (which Mesa's
/// signed loops never enter).
fn entries(count: GLsizei) -> std::ops::Range<usize> {
    0..count.max(0) as usize
}

impl Context {
    /// `glBindBuffersBase` (GL 4.4).
    pub fn bind_buffers_base(
        &mut self,
        target: GLenum,
        first: GLuint,
        count: GLsizei,
        buffers: Option<&[GLuint]>,
    ) {
        self.bind_buffers(target, first, count, buffers, None);
    }

    /// `glBindBuffersRange` (GL 4.4): `offsets` and `sizes` are read only where `buffers`
    /// is given.
    pub fn bind_buffers_range(
        &mut self,
        target: GLenum,
        first: GLuint,
        count: GLsizei,
        buffers: Option<&[GLuint]>,
        offsets: &[GLintptr],
        sizes: &[GLsizeiptr],
    ) {
        self.bind_buffers(target, first, count, buffers, Some((offsets, sizes)));
    }

    /// Both buffer calls: `ranges` holds the offsets and sizes of `glBindBuffersRange`.
    fn bind_buffers(
        &mut self,
        target: GLenum,
        first: GLuint,
        count: GLsizei,
        buffers: Option<&[GLuint]>,
        ranges: Option<(&[GLintptr], &[GLsizeiptr])>,
    ) {
        let (t, limit) = match target {
            UNIFORM_BUFFER => (BufferTarget::Uniform, UBO_BINDINGS as u32),
            SHADER_STORAGE_BUFFER => (BufferTarget::ShaderStorage, SSBO_BINDINGS as u32),
            ATOMIC_COUNTER_BUFFER => (BufferTarget::AtomicCounter, ACB_BINDINGS as u32),
            TRANSFORM_FEEDBACK_BUFFER => (BufferTarget::TransformFeedback, TF_BINDINGS),
            _ => return self.error(INVALID_ENUM),
        };
        if t == BufferTarget::TransformFeedback && self.local.st.transform_feedback_mode.is_some() {
            return self.error(INVALID_OPERATION);
        }
        if beyond(first, count, limit) {
            return self.error(INVALID_OPERATION);
        }
        // `bind_buffer_indexed` moves the general binding point too; it is put back after
        // the loop (held meanwhile, so a buffer only it kept alive survives the loop).
        let general = self.local.st.buffer(t);
        if let Some(e) = general {
            lifecycle::retain(&mut self.group.lock_for(self.local.id).world, e);
        }
        let align = match t {
            BufferTarget::Uniform => UBO_OFFSET_ALIGNMENT as i64,
            BufferTarget::ShaderStorage => i64::from(self.local.limits.storage_offset_alignment),
            _ => 4,
        };
        for i in entries(count) {
            let index = first + i as u32;
            let Some(buffers) = buffers else {
                self.bind_buffer_indexed(target, index, 0, 0, 0, false);
                continue;
            };
            let Some(&name) = buffers.get(i) else { break };
            let (offset, size) = match ranges {
                Some((offsets, sizes)) => {
                    let (Some(&offset), Some(&size)) = (offsets.get(i), sizes.get(i)) else {
                        break;
                    };
                    let (offset, size) = (offset as i64, size as i64);
                    if offset < 0 || size <= 0 || offset % align != 0 {
                        self.error(INVALID_VALUE);
                        continue;
                    }
                    if t == BufferTarget::TransformFeedback && size % 4 != 0 {
                        self.error(INVALID_VALUE);
                        continue;
                    }
                    (offset, size)
                }
                None => (0, 0),
            };
            if name != 0 && self.group.lock().names.buffers.get(name).is_none() {
                self.error(INVALID_OPERATION);
                continue;
            }
            // Unbinding resets the offset and size, except transform feedback's, which
            // Mesa keeps as given.
            let range = ranges.is_some() && (name != 0 || t == BufferTarget::TransformFeedback);
            self.bind_buffer_indexed(target, index, name, offset, size, range);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        self.set_buffer_binding(&mut sh, t, general);
        if let Some(e) = general {
            let crate::share::Shared { world, dev, .. } = &mut *sh;
            lifecycle::release(world, dev, e);
        }
    }

    /// `glBindTextures` (GL 4.4): each texture goes to its own target of unit `first + i`
    /// (the active unit stays); a zero name, or a null array, unbinds every target of the
    /// unit.
    pub fn bind_textures(&mut self, first: GLuint, count: GLsizei, textures: Option<&[GLuint]>) {
        if beyond(first, count, limits::COMBINED_UNITS as u32) {
            return self.error(INVALID_OPERATION);
        }
        // Through `bind_texture` on each unit, the active unit put back after.
        let active = self.local.st.active_texture;
        for i in entries(count) {
            let unit = first + i as u32;
            let name = match textures {
                Some(names) => match names.get(i) {
                    Some(&name) => name,
                    None => break,
                },
                None => 0,
            };
            if name == 0 {
                self.local.st.active_texture = unit;
                let cube_arrays = self.local.limits.cube_map_arrays;
                for t in TextureTarget::ALL {
                    if t != TextureTarget::CubeArray || cube_arrays {
                        self.bind_texture(t.to_gl(), 0);
                    }
                }
                continue;
            }
            // An existing texture, with a target: `bind_texture` would create one for a
            // name generated and never bound.
            let target = {
                let sh = self.group.lock();
                sh.names
                    .textures
                    .get(name)
                    .and_then(|e| sh.world.get::<Texture>(e)?.target)
            };
            match target {
                Some(t) => {
                    self.local.st.active_texture = unit;
                    self.bind_texture(t.to_gl(), name);
                }
                None => self.error(INVALID_OPERATION),
            }
        }
        self.local.st.active_texture = active;
    }

    /// `glBindSamplers` (GL 4.4).
    pub fn bind_samplers(&mut self, first: GLuint, count: GLsizei, samplers: Option<&[GLuint]>) {
        if beyond(first, count, limits::COMBINED_UNITS as u32) {
            return self.error(INVALID_OPERATION);
        }
        for i in entries(count) {
            let name = match samplers {
                Some(names) => match names.get(i) {
                    Some(&name) => name,
                    None => break,
                },
                None => 0,
            };
            self.bind_sampler(first + i as u32, name);
        }
    }

    /// `glBindImageTextures` (GL 4.4): unit `first + i` gets level 0 of the texture, all
    /// its layers where it has layers, `READ_WRITE`, in the internal format of its level-0
    /// image (a buffer texture's texel format), which must be an image format; a zero name
    /// gives the unit its initial state.
    pub fn bind_image_textures(
        &mut self,
        first: GLuint,
        count: GLsizei,
        textures: Option<&[GLuint]>,
    ) {
        // Without image units (a GLES backend short of ES 3.1's images) the call is
        // refused, as Mesa refuses it without `GL_ARB_shader_image_load_store`.
        if !self.local.limits.image_load_store || beyond(first, count, IMAGE_UNITS as u32) {
            return self.error(INVALID_OPERATION);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        for i in entries(count) {
            let unit = first as usize + i;
            let name = match textures {
                Some(names) => match names.get(i) {
                    Some(&name) => name,
                    None => break,
                },
                None => 0,
            };
            if name == 0 {
                self.set_image_unit(&mut sh, unit, ImageUnit::default());
                continue;
            }
            match image_binding(&sh, name) {
                Ok(value) => self.set_image_unit(&mut sh, unit, value),
                Err(err) => self.error(err),
            }
        }
    }

    /// `glBindVertexBuffers` (GL 4.4): `offsets` and `strides` are read only where
    /// `buffers` is given.
    pub fn bind_vertex_buffers(
        &mut self,
        first: GLuint,
        count: GLsizei,
        buffers: Option<&[GLuint]>,
        offsets: &[GLintptr],
        strides: &[GLsizei],
    ) {
        self.vertex_buffers_of(ArrayRef::Bound, first, count, buffers, offsets, strides);
    }

    /// `glBindVertexBuffers` on the vertex array `r` names (`glVertexArrayVertexBuffers`
    /// names one).
    pub(crate) fn vertex_buffers_of(
        &mut self,
        r: ArrayRef,
        first: GLuint,
        count: GLsizei,
        buffers: Option<&[GLuint]>,
        offsets: &[GLintptr],
        strides: &[GLsizei],
    ) {
        if let Err(err) = self.local.array(r) {
            return self.error(err);
        }
        if beyond(first, count, limits::VERTEX_ATTRIB_BINDINGS as u32) {
            return self.error(INVALID_OPERATION);
        }
        for i in entries(count) {
            let index = first + i as u32;
            let Some(buffers) = buffers else {
                self.vertex_buffer(r, index, 0, 0, INITIAL_STRIDE);
                continue;
            };
            let (Some(&name), Some(&offset), Some(&stride)) =
                (buffers.get(i), offsets.get(i), strides.get(i))
            else {
                break;
            };
            if offset < 0 || !(0..=limits::MAX_VERTEX_ATTRIB_STRIDE).contains(&stride) {
                self.error(INVALID_VALUE);
                continue;
            }
            if name != 0 && self.group.lock().names.buffers.get(name).is_none() {
                self.error(INVALID_OPERATION);
                continue;
            }
            self.vertex_buffer(r, index, name, offset, stride);
        }
    }
}

/// The image unit `glBindImageTextures` makes of texture `name`, or its error
/// (`INVALID_OPERATION` for a name that is no texture, an empty level-0 image and a format
/// that is no image format).
fn image_binding(sh: &crate::share::Shared, name: GLuint) -> Result<ImageUnit, GLenum> {
    let e: Entity = sh.names.textures.get(name).ok_or(INVALID_OPERATION)?;
    let tex = sh.world.get::<Texture>(e).ok_or(INVALID_OPERATION)?;
    let target = tex.target.ok_or(INVALID_OPERATION)?;
    let format = if target == TextureTarget::Buffer {
        tex.buffer_format
    } else {
        let image = &tex.images[0][0];
        if image.width == 0 || image.height == 0 || image.depth == 0 {
            return Err(INVALID_OPERATION);
        }
        image.internal_format
    };
    if !is_image_format(format) {
        return Err(INVALID_OPERATION);
    }
    let layered = matches!(
        target,
        TextureTarget::D1Array
            | TextureTarget::D2Array
            | TextureTarget::D3
            | TextureTarget::Cube
            | TextureTarget::D2MultisampleArray
            | TextureTarget::CubeArray
    );
    Ok(ImageUnit {
        name,
        texture: Some(e),
        level: 0,
        layered,
        layer: 0,
        access: READ_WRITE,
        format,
    })
}

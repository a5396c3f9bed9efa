//! How much client memory a C caller's pointer must cover.
//!
//! The Rust API takes slices, whose lengths the engine checks; the C ABI receives bare
//! pointers and must build those slices first. How many bytes or values a call reads or
//! writes depends on GL state (the pixel store, the bound pack/unpack buffers, a texture
//! level's size, a uniform's type, a query's value count), so the C ABI asks here. None of
//! these raises a GL error or changes any state: the entry point the C ABI then calls
//! decides every error, exactly as for a Rust caller. When the arguments are invalid, the
//! answer is 0 and the entry point reports why.

use tessera_components::gl::*;
use tessera_components::state::BufferTarget;
use tessera_shader::gltype;
use tessera_systems::conv::{map_pixel_format, map_pixel_type};

use crate::context::Context;
use crate::get::Value;
use crate::pixel::{client_layout, pixel_size};

impl Context {
    /// Whether a buffer is bound to `PIXEL_UNPACK_BUFFER` (the `pixels` argument of uploads
    /// is then an offset into it).
    pub fn unpack_buffer_bound(&self) -> bool {
        self.local.st.buffer(BufferTarget::PixelUnpack).is_some()
    }

    /// Whether a buffer is bound to `PIXEL_PACK_BUFFER` (read-backs then write into it).
    pub fn pack_buffer_bound(&self) -> bool {
        self.local.st.buffer(BufferTarget::PixelPack).is_some()
    }

    fn image_len(&self, pack: bool, dims: u8, format: GLenum, ty: GLenum, size: [i32; 3]) -> usize {
        let (Some(format), Some(ty)) = (map_pixel_format(format), map_pixel_type(ty)) else {
            return 0;
        };
        let mut store = if pack {
            self.local.st.pack
        } else {
            self.local.st.unpack
        };
        // SKIP_IMAGES and IMAGE_HEIGHT only apply to three-dimensional images.
        if dims < 3 {
            store.skip_images = 0;
            store.image_height = 0;
        }
        let [w, h, d] = size.map(|v| usize::try_from(v).unwrap_or(0));
        client_layout(&store, pixel_size(format, ty), w, h, d).end
    }

    /// Bytes of client memory an upload of a `w` x `h` x `d` image of `format`/`ty` in
    /// `dims` dimensions reads under the unpack state (0 if `format`/`ty` are not pixel
    /// formats or a size is not positive).
    pub fn unpack_len(&self, dims: u8, format: GLenum, ty: GLenum, size: [i32; 3]) -> usize {
        self.image_len(false, dims, format, ty, size)
    }

    /// Bytes of client memory a read-back of a `w` x `h` x `d` image writes under the pack
    /// state.
    pub fn pack_len(&self, dims: u8, format: GLenum, ty: GLenum, size: [i32; 3]) -> usize {
        self.image_len(true, dims, format, ty, size)
    }

    /// A texture level parameter, without raising an error (0 when the query would fail).
    fn level_parameter(&mut self, target: GLenum, level: GLint, pname: GLenum) -> GLint {
        let saved = self.local.error;
        let mut v = [0];
        self.get_tex_level_parameteriv(target, level, pname, &mut v);
        self.local.error = saved;
        v[0]
    }

    /// Bytes `glGetTexImage(target, level, format, ty)` writes to client memory.
    pub fn get_tex_image_len(
        &mut self,
        target: GLenum,
        level: GLint,
        format: GLenum,
        ty: GLenum,
    ) -> usize {
        let size = [TEXTURE_WIDTH, TEXTURE_HEIGHT, TEXTURE_DEPTH]
            .map(|p| self.level_parameter(target, level, p));
        let dims = match target {
            TEXTURE_1D => 1,
            TEXTURE_3D | TEXTURE_2D_ARRAY => 3,
            _ => 2,
        };
        self.pack_len(dims, format, ty, size)
    }

    /// Bytes `glGetCompressedTexImage(target, level)` may write: the level's blocks as the
    /// pack state's compressed block parameters place them.
    pub fn get_compressed_tex_image_len(&mut self, target: GLenum, level: GLint) -> usize {
        self.compressed_pack_len(target, level)
    }

    /// Values `glGetUniform*v(program, location)` writes (0 for an invalid program or
    /// location).
    pub fn uniform_len(&mut self, program: GLuint, location: GLint) -> usize {
        let saved = self.local.error;
        let n = self
            .with_linked(program, |l| {
                let (ui, _) = usize::try_from(location)
                    .ok()
                    .and_then(|loc| l.locations.get(loc))
                    .copied()
                    .ok_or(INVALID_OPERATION)?;
                let u = l.uniforms.get(ui as usize).ok_or(INVALID_OPERATION)?;
                Ok(gltype::info(u.ty).map_or(0, |i| i.components()))
            })
            .unwrap_or(0);
        self.local.error = saved;
        n
    }

    /// Values `glGetActiveUniformBlockiv(program, index, UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES)`
    /// writes: the block's `UNIFORM_BLOCK_ACTIVE_UNIFORMS`.
    pub fn uniform_block_uniforms(&mut self, program: GLuint, index: GLuint) -> usize {
        let saved = self.local.error;
        let mut v = [0];
        self.get_active_uniform_blockiv(program, index, UNIFORM_BLOCK_ACTIVE_UNIFORMS, &mut v);
        self.local.error = saved;
        usize::try_from(v[0]).unwrap_or(0)
    }

    /// The value of state variable `pname` for `glGet*v`, raising the query's error (and
    /// returning `None`) if there is none: `INVALID_ENUM` for an unknown `pname`. The C ABI
    /// writes `Value::len` values.
    pub fn get_value(&mut self, pname: GLenum) -> Option<Value> {
        let value = {
            let mut sh = self.group.lock_for(self.local.id);
            self.query_value(&mut sh, pname)
        };
        match value {
            Ok(v) => Some(v),
            Err(e) => {
                self.error(e);
                None
            }
        }
    }
}

//! One GL API over Tessera and over the native driver, so the same test body runs on both.
//!
//! [`Gl`] lists the calls scenes and differential tests make. It is implemented by
//! Tessera's [`Context`] (forwarding to the engine's entry points) and by [`NativeGl`]: a
//! desktop OpenGL 3.3 core context of the system's driver (Mesa llvmpipe in CI), created
//! through the system EGL on the surfaceless platform with a pbuffer as its default
//! framebuffer. The native driver is the oracle: differential tests compare pixels, `glGet*`
//! values and errors between the two.
//!
//! Most calls are declared once in the `gl_api!` table below, which generates the trait
//! method, the forwarding to `Context`, and the native function pointer with its exact C
//! signature. Calls whose Rust API differs from C (slices, strings, pixel data, offsets) are
//! written out by hand under the table. To add a call, add a line to the table.

use std::ffi::{CString, c_void};

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::{Pixels, PixelsMut};

/// Room the native `glGet*v` wrappers give the driver: more than any list state of a real
/// driver (`COMPRESSED_TEXTURE_FORMATS`, `PROGRAM_BINARY_FORMATS`), so tests may walk any
/// pname without knowing its length.
const NATIVE_GET_VALUES: usize = 4096;

macro_rules! gl_api {
    ($( $(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)? = $sym:literal; )*) => {
        /// The GL calls tests make, on Tessera or on the native driver.
        #[allow(clippy::too_many_arguments, reason = "methods mirror GL entry points such as glBlitFramebuffer")]
        pub trait Gl {
            $( $(#[$doc])* fn $name(&mut self, $($arg: $ty),*) $(-> $ret)?; )*
            /// `glShaderSource` with one string.
            fn shader_source(&mut self, shader: GLuint, source: &str);
            /// `glGetShaderiv`, one value.
            fn get_shaderi(&mut self, shader: GLuint, pname: GLenum) -> GLint;
            /// `glGetProgramiv`, one value.
            fn get_programi(&mut self, program: GLuint, pname: GLenum) -> GLint;
            /// `glGetShaderInfoLog`.
            fn shader_info_log(&mut self, shader: GLuint) -> String;
            /// `glGetProgramInfoLog`.
            fn program_info_log(&mut self, program: GLuint) -> String;
            /// `glGetUniformLocation`.
            fn get_uniform_location(&mut self, program: GLuint, name: &str) -> GLint;
            /// `glGetAttribLocation`.
            fn get_attrib_location(&mut self, program: GLuint, name: &str) -> GLint;
            /// `glGetUniformBlockIndex`.
            fn get_uniform_block_index(&mut self, program: GLuint, name: &str) -> GLuint;
            /// `glBindAttribLocation`.
            fn bind_attrib_location(&mut self, program: GLuint, index: GLuint, name: &str);
            /// `glBindFragDataLocation`.
            fn bind_frag_data_location(&mut self, program: GLuint, color: GLuint, name: &str);
            /// `glGetFragDataLocation`.
            fn get_frag_data_location(&mut self, program: GLuint, name: &str) -> GLint;
            /// `glGetActiveUniform`: (name, size, type) of active uniform `index`.
            fn get_active_uniform(&mut self, program: GLuint, index: GLuint) -> (String, GLint, GLenum);
            /// `glGetActiveAttrib`: (name, size, type) of active attribute `index`.
            fn get_active_attrib(&mut self, program: GLuint, index: GLuint) -> (String, GLint, GLenum);
            /// `glGetActiveUniformsiv`: one value of `pname` per index into `out`.
            fn get_active_uniformsiv(&mut self, program: GLuint, indices: &[GLuint], pname: GLenum, out: &mut [GLint]);
            /// `glGetUniformIndices`: one index per name.
            fn get_uniform_indices(&mut self, program: GLuint, names: &[&str]) -> Vec<GLuint>;
            /// `glGetActiveUniformBlockiv` into `out` (as many values as the pname writes).
            fn get_active_uniform_blockiv(&mut self, program: GLuint, index: GLuint, pname: GLenum, out: &mut [GLint]);
            /// `glGetActiveUniformBlockName`.
            fn get_active_uniform_block_name(&mut self, program: GLuint, index: GLuint) -> String;
            /// `glGenBuffers`, one name.
            fn gen_buffer(&mut self) -> GLuint;
            /// `glGenVertexArrays`, one name.
            fn gen_vertex_array(&mut self) -> GLuint;
            /// `glGenTextures`, one name.
            fn gen_texture(&mut self) -> GLuint;
            /// `glGenSamplers`, one name.
            fn gen_sampler(&mut self) -> GLuint;
            /// `glGenFramebuffers`, one name.
            fn gen_framebuffer(&mut self) -> GLuint;
            /// `glGenRenderbuffers`, one name.
            fn gen_renderbuffer(&mut self) -> GLuint;
            /// `glBufferData` (`None`: uninitialised storage).
            fn buffer_data(&mut self, target: GLenum, size: usize, data: Option<&[u8]>, usage: GLenum);
            /// `glBufferStorage` (GL 4.4; `None`: zeros).
            fn buffer_storage(&mut self, target: GLenum, size: usize, data: Option<&[u8]>, flags: GLbitfield);
            /// `glMapBufferRange`: the address of the mapping, which the caller writes or reads
            /// while it is mapped (a persistent mapping: until it is unmapped).
            fn map_buffer_range_ptr(&mut self, target: GLenum, offset: usize, length: usize, access: GLbitfield) -> *mut u8;
            /// `glBufferSubData`.
            fn buffer_sub_data(&mut self, target: GLenum, offset: usize, data: &[u8]);
            /// `glVertexAttribPointer` with a buffer offset.
            fn vertex_attrib_pointer(&mut self, index: GLuint, size: GLint, ty: GLenum, normalized: bool, stride: GLsizei, offset: usize);
            /// `glVertexAttribIPointer` with a buffer offset.
            fn vertex_attrib_i_pointer(&mut self, index: GLuint, size: GLint, ty: GLenum, stride: GLsizei, offset: usize);
            /// `glDrawElements` with an element-buffer offset.
            fn draw_elements(&mut self, mode: GLenum, count: GLsizei, ty: GLenum, offset: usize);
            /// `glDrawElementsBaseVertex` with an element-buffer offset.
            fn draw_elements_base_vertex(&mut self, mode: GLenum, count: GLsizei, ty: GLenum, offset: usize, base_vertex: GLint);
            /// `glDrawElementsInstanced` with an element-buffer offset.
            fn draw_elements_instanced(&mut self, mode: GLenum, count: GLsizei, ty: GLenum, offset: usize, instances: GLsizei);
            /// `glDrawRangeElements` with an element-buffer offset.
            fn draw_range_elements(&mut self, mode: GLenum, start: GLuint, end: GLuint, count: GLsizei, ty: GLenum, offset: usize);
            /// `glTexImage2D` (`None`: no data, or offset 0 of a bound unpack buffer).
            #[allow(clippy::too_many_arguments, reason = "mirrors glTexImage2D")]
            fn tex_image_2d(&mut self, target: GLenum, level: GLint, internal_format: GLint, width: GLsizei, height: GLsizei, border: GLint, format: GLenum, ty: GLenum, data: Option<&[u8]>);
            /// `glTexImage3D`.
            #[allow(clippy::too_many_arguments, reason = "mirrors glTexImage3D")]
            fn tex_image_3d(&mut self, target: GLenum, level: GLint, internal_format: GLint, width: GLsizei, height: GLsizei, depth: GLsizei, border: GLint, format: GLenum, ty: GLenum, data: Option<&[u8]>);
            /// `glTexSubImage2D`.
            #[allow(clippy::too_many_arguments, reason = "mirrors glTexSubImage2D")]
            fn tex_sub_image_2d(&mut self, target: GLenum, level: GLint, x: GLint, y: GLint, width: GLsizei, height: GLsizei, format: GLenum, ty: GLenum, data: &[u8]);
            /// `glTexParameterfv`.
            fn tex_parameterfv(&mut self, target: GLenum, pname: GLenum, params: &[GLfloat]);
            /// `glDrawBuffers`.
            fn draw_buffers(&mut self, bufs: &[GLenum]);
            /// `glClearBufferfv`.
            fn clear_bufferfv(&mut self, buffer: GLenum, drawbuffer: GLint, value: &[GLfloat]);
            /// `glUniform4fv`.
            fn uniform4fv(&mut self, location: GLint, value: &[GLfloat]);
            /// `glUniformMatrix4fv`.
            fn uniform_matrix4fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]);
            /// `glUniform1fv`, as many elements as `value` holds.
            fn uniform1fv(&mut self, location: GLint, value: &[GLfloat]);
            /// `glUniform2fv`, as many elements as `value` holds.
            fn uniform2fv(&mut self, location: GLint, value: &[GLfloat]);
            /// `glUniform3fv`, as many elements as `value` holds.
            fn uniform3fv(&mut self, location: GLint, value: &[GLfloat]);
            /// `glUniform1iv`, as many elements as `value` holds.
            fn uniform1iv(&mut self, location: GLint, value: &[GLint]);
            /// `glUniform2iv`, as many elements as `value` holds.
            fn uniform2iv(&mut self, location: GLint, value: &[GLint]);
            /// `glUniform3iv`, as many elements as `value` holds.
            fn uniform3iv(&mut self, location: GLint, value: &[GLint]);
            /// `glUniform4iv`, as many elements as `value` holds.
            fn uniform4iv(&mut self, location: GLint, value: &[GLint]);
            /// `glUniform1uiv`, as many elements as `value` holds.
            fn uniform1uiv(&mut self, location: GLint, value: &[GLuint]);
            /// `glUniform2uiv`, as many elements as `value` holds.
            fn uniform2uiv(&mut self, location: GLint, value: &[GLuint]);
            /// `glUniform3uiv`, as many elements as `value` holds.
            fn uniform3uiv(&mut self, location: GLint, value: &[GLuint]);
            /// `glUniform4uiv`, as many elements as `value` holds.
            fn uniform4uiv(&mut self, location: GLint, value: &[GLuint]);
            /// `glUniformMatrix2fv`, as many matrices as `value` holds.
            fn uniform_matrix2fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]);
            /// `glUniformMatrix3fv`, as many matrices as `value` holds.
            fn uniform_matrix3fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]);
            /// `glUniformMatrix2x3fv`, as many matrices as `value` holds.
            fn uniform_matrix2x3fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]);
            /// `glUniformMatrix3x2fv`, as many matrices as `value` holds.
            fn uniform_matrix3x2fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]);
            /// `glUniformMatrix2x4fv`, as many matrices as `value` holds.
            fn uniform_matrix2x4fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]);
            /// `glUniformMatrix4x2fv`, as many matrices as `value` holds.
            fn uniform_matrix4x2fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]);
            /// `glUniformMatrix3x4fv`, as many matrices as `value` holds.
            fn uniform_matrix3x4fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]);
            /// `glUniformMatrix4x3fv`, as many matrices as `value` holds.
            fn uniform_matrix4x3fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]);
            /// `glGetIntegerv`, up to 16 values.
            fn get_integerv(&mut self, pname: GLenum, out: &mut [GLint]);
            /// `glGetFloatv`, up to 16 values.
            fn get_floatv(&mut self, pname: GLenum, out: &mut [GLfloat]);
            /// `glReadPixels` into client memory.
            #[allow(clippy::too_many_arguments, reason = "mirrors glReadPixels")]
            fn read_pixels(&mut self, x: GLint, y: GLint, width: GLsizei, height: GLsizei, format: GLenum, ty: GLenum, out: &mut [u8]);
            /// `glTexImage1D`.
            #[allow(clippy::too_many_arguments, reason = "mirrors glTexImage1D")]
            fn tex_image_1d(&mut self, target: GLenum, level: GLint, internal_format: GLint, width: GLsizei, border: GLint, format: GLenum, ty: GLenum, data: Option<&[u8]>);
            /// `glSamplerParameterfv`.
            fn sampler_parameterfv(&mut self, sampler: GLuint, pname: GLenum, params: &[GLfloat]);
            /// `glPatchParameterfv` (GL 4.0; up to four values).
            fn patch_parameterfv(&mut self, pname: GLenum, values: &[GLfloat]);
            /// `glClearBufferiv`.
            fn clear_bufferiv(&mut self, buffer: GLenum, drawbuffer: GLint, value: &[GLint]);
            /// `glClearBufferuiv`.
            fn clear_bufferuiv(&mut self, buffer: GLenum, drawbuffer: GLint, value: &[GLuint]);
            /// `glReadPixels` into the bound `PIXEL_PACK_BUFFER` at `offset`.
            #[allow(clippy::too_many_arguments, reason = "mirrors glReadPixels")]
            fn read_pixels_to_buffer(&mut self, x: GLint, y: GLint, width: GLsizei, height: GLsizei, format: GLenum, ty: GLenum, offset: usize);
            /// `glGetBufferSubData` of `out.len()` bytes at `offset`.
            fn get_buffer_sub_data(&mut self, target: GLenum, offset: usize, out: &mut [u8]);
            /// `glTransformFeedbackVaryings`.
            fn transform_feedback_varyings(&mut self, program: GLuint, varyings: &[&str], mode: GLenum);
            /// `glGetTransformFeedbackVarying`: name, size and type of captured varying `index`.
            fn get_transform_feedback_varying(&mut self, program: GLuint, index: GLuint) -> (String, GLsizei, GLenum);
            /// `glGenQueries` of one name.
            fn gen_query(&mut self) -> GLuint;
            /// `glGetQueryObjectuiv(QUERY_RESULT)`.
            fn query_result(&mut self, id: GLuint) -> GLuint;
            /// `glMapBufferRange` with `MAP_READ_BIT`, a copy of the mapped bytes, `glUnmapBuffer`.
            fn read_mapped(&mut self, target: GLenum, offset: usize, length: usize) -> Vec<u8>;
            /// `glDebugMessageInsert` of `text`.
            fn debug_message_insert(&mut self, source: GLenum, ty: GLenum, id: GLuint, severity: GLenum, text: &str);
            /// `glDebugMessageControl` of `ids`.
            fn debug_message_control(&mut self, source: GLenum, ty: GLenum, severity: GLenum, ids: &[GLuint], enabled: bool);
            /// `glPushDebugGroup` with `message`.
            fn push_debug_group(&mut self, source: GLenum, id: GLuint, message: &str);
            /// `glGetDebugMessageLog`, one message at a time until the log is empty: (source,
            /// type, id, severity, text) of each.
            fn take_debug_messages(&mut self) -> Vec<(GLenum, GLenum, GLuint, GLenum, String)>;
            /// `glObjectLabel` (`None`: a null label, which removes it).
            fn object_label(&mut self, identifier: GLenum, name: GLuint, label: Option<&str>);
            /// `glGetObjectLabel` into a 256-byte buffer.
            fn get_object_label(&mut self, identifier: GLenum, name: GLuint) -> String;
            /// `glGetProgramBinary` into `out` with `buf_size` as its size (which may say less or
            /// more than `out` holds): (length, format) as written, (-1, 0) where the call left
            /// them alone.
            fn get_program_binary(&mut self, program: GLuint, buf_size: GLsizei, out: &mut [u8]) -> (GLsizei, GLenum);
            /// `glProgramBinary` of `binary` with `length` (which may be negative or differ
            /// from the bytes given).
            fn program_binary(&mut self, program: GLuint, format: GLenum, binary: &[u8], length: GLsizei);
        }

        impl Gl for Context {
            $( fn $name(&mut self, $($arg: $ty),*) $(-> $ret)? { Context::$name(self, $($arg),*) } )*
            fn shader_source(&mut self, shader: GLuint, source: &str) { Context::shader_source(self, shader, 1, &[source]) }
            fn get_shaderi(&mut self, shader: GLuint, pname: GLenum) -> GLint { let mut v = [0]; Context::get_shaderiv(self, shader, pname, &mut v); v[0] }
            fn get_programi(&mut self, program: GLuint, pname: GLenum) -> GLint { let mut v = [0]; Context::get_programiv(self, program, pname, &mut v); v[0] }
            fn shader_info_log(&mut self, shader: GLuint) -> String { crate::scenes::shader_log(self, shader) }
            fn program_info_log(&mut self, program: GLuint) -> String { crate::scenes::program_log(self, program) }
            fn get_uniform_location(&mut self, program: GLuint, name: &str) -> GLint { Context::get_uniform_location(self, program, name) }
            fn get_attrib_location(&mut self, program: GLuint, name: &str) -> GLint { Context::get_attrib_location(self, program, name) }
            fn get_uniform_block_index(&mut self, program: GLuint, name: &str) -> GLuint { Context::get_uniform_block_index(self, program, name) }
            fn bind_attrib_location(&mut self, program: GLuint, index: GLuint, name: &str) { Context::bind_attrib_location(self, program, index, name) }
            fn bind_frag_data_location(&mut self, program: GLuint, color: GLuint, name: &str) { Context::bind_frag_data_location(self, program, color, name) }
            fn get_frag_data_location(&mut self, program: GLuint, name: &str) -> GLint { Context::get_frag_data_location(self, program, name) }
            fn get_active_uniform(&mut self, program: GLuint, index: GLuint) -> (String, GLint, GLenum) {
                let (mut buf, mut len, mut size, mut ty) = (vec![0u8; 1024], 0, 0, 0);
                Context::get_active_uniform(self, program, index, 1024, Some(&mut len), &mut size, &mut ty, &mut buf);
                (String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned(), size, ty)
            }
            fn get_active_attrib(&mut self, program: GLuint, index: GLuint) -> (String, GLint, GLenum) {
                let (mut buf, mut len, mut size, mut ty) = (vec![0u8; 1024], 0, 0, 0);
                Context::get_active_attrib(self, program, index, 1024, Some(&mut len), &mut size, &mut ty, &mut buf);
                (String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned(), size, ty)
            }
            fn get_active_uniformsiv(&mut self, program: GLuint, indices: &[GLuint], pname: GLenum, out: &mut [GLint]) { Context::get_active_uniformsiv(self, program, indices.len() as GLsizei, indices, pname, out) }
            fn get_uniform_indices(&mut self, program: GLuint, names: &[&str]) -> Vec<GLuint> {
                let mut out = vec![0; names.len()];
                Context::get_uniform_indices(self, program, names.len() as GLsizei, names, &mut out);
                out
            }
            fn get_active_uniform_blockiv(&mut self, program: GLuint, index: GLuint, pname: GLenum, out: &mut [GLint]) { Context::get_active_uniform_blockiv(self, program, index, pname, out) }
            fn get_active_uniform_block_name(&mut self, program: GLuint, index: GLuint) -> String {
                let (mut buf, mut len) = (vec![0u8; 1024], 0);
                Context::get_active_uniform_block_name(self, program, index, 1024, Some(&mut len), &mut buf);
                String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned()
            }
            fn gen_buffer(&mut self) -> GLuint { Context::gen_buffer(self) }
            fn gen_vertex_array(&mut self) -> GLuint { Context::gen_vertex_array(self) }
            fn gen_texture(&mut self) -> GLuint { Context::gen_texture(self) }
            fn gen_sampler(&mut self) -> GLuint { Context::gen_sampler(self) }
            fn gen_framebuffer(&mut self) -> GLuint { Context::gen_framebuffer(self) }
            fn gen_renderbuffer(&mut self) -> GLuint { Context::gen_renderbuffer(self) }
            fn buffer_data(&mut self, target: GLenum, size: usize, data: Option<&[u8]>, usage: GLenum) { Context::buffer_data(self, target, size as isize, data, usage) }
            fn buffer_storage(&mut self, target: GLenum, size: usize, data: Option<&[u8]>, flags: GLbitfield) { Context::buffer_storage(self, target, size as isize, data, flags) }
            fn map_buffer_range_ptr(&mut self, target: GLenum, offset: usize, length: usize, access: GLbitfield) -> *mut u8 { Context::map_buffer_range(self, target, offset as isize, length as isize, access) }
            fn buffer_sub_data(&mut self, target: GLenum, offset: usize, data: &[u8]) { Context::buffer_sub_data(self, target, offset as isize, data.len() as isize, data) }
            fn vertex_attrib_pointer(&mut self, index: GLuint, size: GLint, ty: GLenum, normalized: bool, stride: GLsizei, offset: usize) { Context::vertex_attrib_pointer(self, index, size, ty, normalized as GLboolean, stride, offset) }
            fn vertex_attrib_i_pointer(&mut self, index: GLuint, size: GLint, ty: GLenum, stride: GLsizei, offset: usize) { Context::vertex_attrib_i_pointer(self, index, size, ty, stride, offset) }
            fn draw_elements(&mut self, mode: GLenum, count: GLsizei, ty: GLenum, offset: usize) { Context::draw_elements(self, mode, count, ty, offset) }
            fn draw_elements_base_vertex(&mut self, mode: GLenum, count: GLsizei, ty: GLenum, offset: usize, base_vertex: GLint) { Context::draw_elements_base_vertex(self, mode, count, ty, offset, base_vertex) }
            fn draw_elements_instanced(&mut self, mode: GLenum, count: GLsizei, ty: GLenum, offset: usize, instances: GLsizei) { Context::draw_elements_instanced(self, mode, count, ty, offset, instances) }
            fn draw_range_elements(&mut self, mode: GLenum, start: GLuint, end: GLuint, count: GLsizei, ty: GLenum, offset: usize) { Context::draw_range_elements(self, mode, start, end, count, ty, offset) }
            fn tex_image_2d(&mut self, target: GLenum, level: GLint, internal_format: GLint, width: GLsizei, height: GLsizei, border: GLint, format: GLenum, ty: GLenum, data: Option<&[u8]>) { Context::tex_image_2d(self, target, level, internal_format, width, height, border, format, ty, Pixels::from(data)) }
            fn tex_image_3d(&mut self, target: GLenum, level: GLint, internal_format: GLint, width: GLsizei, height: GLsizei, depth: GLsizei, border: GLint, format: GLenum, ty: GLenum, data: Option<&[u8]>) { Context::tex_image_3d(self, target, level, internal_format, width, height, depth, border, format, ty, Pixels::from(data)) }
            fn tex_sub_image_2d(&mut self, target: GLenum, level: GLint, x: GLint, y: GLint, width: GLsizei, height: GLsizei, format: GLenum, ty: GLenum, data: &[u8]) { Context::tex_sub_image_2d(self, target, level, x, y, width, height, format, ty, Pixels::Bytes(data)) }
            fn tex_parameterfv(&mut self, target: GLenum, pname: GLenum, params: &[GLfloat]) { Context::tex_parameterfv(self, target, pname, params) }
            fn draw_buffers(&mut self, bufs: &[GLenum]) { Context::draw_buffers(self, bufs.len() as GLsizei, bufs) }
            fn clear_bufferfv(&mut self, buffer: GLenum, drawbuffer: GLint, value: &[GLfloat]) { Context::clear_bufferfv(self, buffer, drawbuffer, value) }
            fn uniform4fv(&mut self, location: GLint, value: &[GLfloat]) { Context::uniform4fv(self, location, (value.len() / 4) as GLsizei, value) }
            fn uniform_matrix4fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) { Context::uniform_matrix4fv(self, location, (value.len() / 16) as GLsizei, transpose as GLboolean, value) }
            fn uniform1fv(&mut self, location: GLint, value: &[GLfloat]) { Context::uniform1fv(self, location, value.len() as GLsizei, value) }
            fn uniform2fv(&mut self, location: GLint, value: &[GLfloat]) { Context::uniform2fv(self, location, (value.len() / 2) as GLsizei, value) }
            fn uniform3fv(&mut self, location: GLint, value: &[GLfloat]) { Context::uniform3fv(self, location, (value.len() / 3) as GLsizei, value) }
            fn uniform1iv(&mut self, location: GLint, value: &[GLint]) { Context::uniform1iv(self, location, value.len() as GLsizei, value) }
            fn uniform2iv(&mut self, location: GLint, value: &[GLint]) { Context::uniform2iv(self, location, (value.len() / 2) as GLsizei, value) }
            fn uniform3iv(&mut self, location: GLint, value: &[GLint]) { Context::uniform3iv(self, location, (value.len() / 3) as GLsizei, value) }
            fn uniform4iv(&mut self, location: GLint, value: &[GLint]) { Context::uniform4iv(self, location, (value.len() / 4) as GLsizei, value) }
            fn uniform1uiv(&mut self, location: GLint, value: &[GLuint]) { Context::uniform1uiv(self, location, value.len() as GLsizei, value) }
            fn uniform2uiv(&mut self, location: GLint, value: &[GLuint]) { Context::uniform2uiv(self, location, (value.len() / 2) as GLsizei, value) }
            fn uniform3uiv(&mut self, location: GLint, value: &[GLuint]) { Context::uniform3uiv(self, location, (value.len() / 3) as GLsizei, value) }
            fn uniform4uiv(&mut self, location: GLint, value: &[GLuint]) { Context::uniform4uiv(self, location, (value.len() / 4) as GLsizei, value) }
            fn uniform_matrix2fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) { Context::uniform_matrix2fv(self, location, (value.len() / 4) as GLsizei, transpose as GLboolean, value) }
            fn uniform_matrix3fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) { Context::uniform_matrix3fv(self, location, (value.len() / 9) as GLsizei, transpose as GLboolean, value) }
            fn uniform_matrix2x3fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) { Context::uniform_matrix2x3fv(self, location, (value.len() / 6) as GLsizei, transpose as GLboolean, value) }
            fn uniform_matrix3x2fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) { Context::uniform_matrix3x2fv(self, location, (value.len() / 6) as GLsizei, transpose as GLboolean, value) }
            fn uniform_matrix2x4fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) { Context::uniform_matrix2x4fv(self, location, (value.len() / 8) as GLsizei, transpose as GLboolean, value) }
            fn uniform_matrix4x2fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) { Context::uniform_matrix4x2fv(self, location, (value.len() / 8) as GLsizei, transpose as GLboolean, value) }
            fn uniform_matrix3x4fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) { Context::uniform_matrix3x4fv(self, location, (value.len() / 12) as GLsizei, transpose as GLboolean, value) }
            fn uniform_matrix4x3fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) { Context::uniform_matrix4x3fv(self, location, (value.len() / 12) as GLsizei, transpose as GLboolean, value) }
            fn get_integerv(&mut self, pname: GLenum, out: &mut [GLint]) { Context::get_integerv(self, pname, out) }
            fn get_floatv(&mut self, pname: GLenum, out: &mut [GLfloat]) { Context::get_floatv(self, pname, out) }
            fn read_pixels(&mut self, x: GLint, y: GLint, width: GLsizei, height: GLsizei, format: GLenum, ty: GLenum, out: &mut [u8]) { Context::read_pixels(self, x, y, width, height, format, ty, PixelsMut::Bytes(out)) }
            fn tex_image_1d(&mut self, target: GLenum, level: GLint, internal_format: GLint, width: GLsizei, border: GLint, format: GLenum, ty: GLenum, data: Option<&[u8]>) { Context::tex_image_1d(self, target, level, internal_format, width, border, format, ty, Pixels::from(data)) }
            fn sampler_parameterfv(&mut self, sampler: GLuint, pname: GLenum, params: &[GLfloat]) { Context::sampler_parameterfv(self, sampler, pname, params) }
            fn patch_parameterfv(&mut self, pname: GLenum, values: &[GLfloat]) { Context::patch_parameter_fv(self, pname, values) }
            fn clear_bufferiv(&mut self, buffer: GLenum, drawbuffer: GLint, value: &[GLint]) { Context::clear_bufferiv(self, buffer, drawbuffer, value) }
            fn clear_bufferuiv(&mut self, buffer: GLenum, drawbuffer: GLint, value: &[GLuint]) { Context::clear_bufferuiv(self, buffer, drawbuffer, value) }
            fn read_pixels_to_buffer(&mut self, x: GLint, y: GLint, width: GLsizei, height: GLsizei, format: GLenum, ty: GLenum, offset: usize) { Context::read_pixels(self, x, y, width, height, format, ty, PixelsMut::Offset(offset)) }
            fn get_buffer_sub_data(&mut self, target: GLenum, offset: usize, out: &mut [u8]) { Context::get_buffer_sub_data(self, target, offset as isize, out.len() as isize, out) }
            fn transform_feedback_varyings(&mut self, program: GLuint, varyings: &[&str], mode: GLenum) { Context::transform_feedback_varyings(self, program, varyings.len() as GLsizei, varyings, mode) }
            fn get_transform_feedback_varying(&mut self, program: GLuint, index: GLuint) -> (String, GLsizei, GLenum) {
                let (mut buf, mut len, mut size, mut ty) = (vec![0u8; 1024], 0, 0, 0);
                Context::get_transform_feedback_varying(self, program, index, 1024, Some(&mut len), &mut size, &mut ty, &mut buf);
                (String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned(), size, ty)
            }
            fn gen_query(&mut self) -> GLuint { Context::gen_query(self) }
            fn query_result(&mut self, id: GLuint) -> GLuint { let mut v = [0]; Context::get_query_objectuiv(self, id, QUERY_RESULT, &mut v); v[0] }
            fn read_mapped(&mut self, target: GLenum, offset: usize, length: usize) -> Vec<u8> {
                Context::map_buffer_range(self, target, offset as isize, length as isize, MAP_READ_BIT);
                let bytes = Context::with_mapped(self, target, |b| b.to_vec()).unwrap_or_default();
                Context::unmap_buffer(self, target);
                bytes
            }
            fn debug_message_insert(&mut self, source: GLenum, ty: GLenum, id: GLuint, severity: GLenum, text: &str) {
                Context::debug_message_insert(self, source, ty, id, severity, text)
            }
            fn debug_message_control(&mut self, source: GLenum, ty: GLenum, severity: GLenum, ids: &[GLuint], enabled: bool) {
                Context::debug_message_control(self, source, ty, severity, ids.len() as GLsizei, ids, enabled)
            }
            fn push_debug_group(&mut self, source: GLenum, id: GLuint, message: &str) { Context::push_debug_group(self, source, id, message) }
            fn take_debug_messages(&mut self) -> Vec<(GLenum, GLenum, GLuint, GLenum, String)> {
                Context::get_debug_message_log(self, u32::MAX, None)
                    .into_iter()
                    .map(|m| (m.source, m.ty, m.id, m.severity, m.text))
                    .collect()
            }
            fn object_label(&mut self, identifier: GLenum, name: GLuint, label: Option<&str>) { Context::object_label(self, identifier, name, label) }
            fn get_object_label(&mut self, identifier: GLenum, name: GLuint) -> String {
                Context::get_object_label(self, identifier, name, 256).unwrap_or_default()
            }
            fn get_program_binary(&mut self, program: GLuint, buf_size: GLsizei, out: &mut [u8]) -> (GLsizei, GLenum) {
                let (mut length, mut format) = (-1, 0);
                Context::get_program_binary(self, program, buf_size, Some(&mut length), Some(&mut format), out);
                (length, format)
            }
            fn program_binary(&mut self, program: GLuint, format: GLenum, binary: &[u8], length: GLsizei) {
                Context::program_binary(self, program, format, binary, length)
            }
        }

        /// Native entry points, loaded through `eglGetProcAddress`.
        #[allow(non_snake_case, reason = "fields are named as the GL symbols they hold")]
        struct NativeFns {
            $( $name: unsafe extern "system" fn($($ty),*) $(-> $ret)?, )*
            shader_source: unsafe extern "system" fn(GLuint, GLsizei, *const *const u8, *const GLint),
            get_shaderiv: unsafe extern "system" fn(GLuint, GLenum, *mut GLint),
            get_programiv: unsafe extern "system" fn(GLuint, GLenum, *mut GLint),
            get_shader_info_log: unsafe extern "system" fn(GLuint, GLsizei, *mut GLsizei, *mut u8),
            get_program_info_log: unsafe extern "system" fn(GLuint, GLsizei, *mut GLsizei, *mut u8),
            get_uniform_location: unsafe extern "system" fn(GLuint, *const u8) -> GLint,
            get_attrib_location: unsafe extern "system" fn(GLuint, *const u8) -> GLint,
            get_uniform_block_index: unsafe extern "system" fn(GLuint, *const u8) -> GLuint,
            bind_attrib_location: unsafe extern "system" fn(GLuint, GLuint, *const u8),
            bind_frag_data_location: unsafe extern "system" fn(GLuint, GLuint, *const u8),
            get_frag_data_location: unsafe extern "system" fn(GLuint, *const u8) -> GLint,
            get_active_uniform: unsafe extern "system" fn(GLuint, GLuint, GLsizei, *mut GLsizei, *mut GLint, *mut GLenum, *mut u8),
            debug_message_insert: unsafe extern "system" fn(GLenum, GLenum, GLuint, GLenum, GLsizei, *const u8),
            debug_message_control: unsafe extern "system" fn(GLenum, GLenum, GLenum, GLsizei, *const GLuint, GLboolean),
            push_debug_group: unsafe extern "system" fn(GLenum, GLuint, GLsizei, *const u8),
            get_debug_message_log: unsafe extern "system" fn(GLuint, GLsizei, *mut GLenum, *mut GLenum, *mut GLuint, *mut GLenum, *mut GLsizei, *mut u8) -> GLuint,
            object_label: unsafe extern "system" fn(GLenum, GLuint, GLsizei, *const u8),
            get_object_label: unsafe extern "system" fn(GLenum, GLuint, GLsizei, *mut GLsizei, *mut u8),
            get_program_binary: unsafe extern "system" fn(GLuint, GLsizei, *mut GLsizei, *mut GLenum, *mut c_void),
            program_binary: unsafe extern "system" fn(GLuint, GLenum, *const c_void, GLsizei),
            get_active_attrib: unsafe extern "system" fn(GLuint, GLuint, GLsizei, *mut GLsizei, *mut GLint, *mut GLenum, *mut u8),
            get_active_uniformsiv: unsafe extern "system" fn(GLuint, GLsizei, *const GLuint, GLenum, *mut GLint),
            get_uniform_indices: unsafe extern "system" fn(GLuint, GLsizei, *const *const u8, *mut GLuint),
            get_active_uniform_blockiv: unsafe extern "system" fn(GLuint, GLuint, GLenum, *mut GLint),
            get_active_uniform_block_name: unsafe extern "system" fn(GLuint, GLuint, GLsizei, *mut GLsizei, *mut u8),
            gen_buffers: unsafe extern "system" fn(GLsizei, *mut GLuint),
            gen_vertex_arrays: unsafe extern "system" fn(GLsizei, *mut GLuint),
            gen_textures: unsafe extern "system" fn(GLsizei, *mut GLuint),
            gen_samplers: unsafe extern "system" fn(GLsizei, *mut GLuint),
            gen_framebuffers: unsafe extern "system" fn(GLsizei, *mut GLuint),
            gen_renderbuffers: unsafe extern "system" fn(GLsizei, *mut GLuint),
            buffer_data: unsafe extern "system" fn(GLenum, isize, *const c_void, GLenum),
            buffer_storage: unsafe extern "system" fn(GLenum, isize, *const c_void, GLbitfield),
            buffer_sub_data: unsafe extern "system" fn(GLenum, isize, isize, *const c_void),
            vertex_attrib_pointer: unsafe extern "system" fn(GLuint, GLint, GLenum, GLboolean, GLsizei, *const c_void),
            vertex_attrib_i_pointer: unsafe extern "system" fn(GLuint, GLint, GLenum, GLsizei, *const c_void),
            draw_elements: unsafe extern "system" fn(GLenum, GLsizei, GLenum, *const c_void),
            draw_elements_base_vertex: unsafe extern "system" fn(GLenum, GLsizei, GLenum, *const c_void, GLint),
            draw_elements_instanced: unsafe extern "system" fn(GLenum, GLsizei, GLenum, *const c_void, GLsizei),
            draw_range_elements: unsafe extern "system" fn(GLenum, GLuint, GLuint, GLsizei, GLenum, *const c_void),
            tex_image_2d: unsafe extern "system" fn(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, *const c_void),
            tex_image_3d: unsafe extern "system" fn(GLenum, GLint, GLint, GLsizei, GLsizei, GLsizei, GLint, GLenum, GLenum, *const c_void),
            tex_sub_image_2d: unsafe extern "system" fn(GLenum, GLint, GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, *const c_void),
            tex_parameterfv: unsafe extern "system" fn(GLenum, GLenum, *const GLfloat),
            draw_buffers: unsafe extern "system" fn(GLsizei, *const GLenum),
            clear_bufferfv: unsafe extern "system" fn(GLenum, GLint, *const GLfloat),
            uniform4fv: unsafe extern "system" fn(GLint, GLsizei, *const GLfloat),
            uniform_matrix4fv: unsafe extern "system" fn(GLint, GLsizei, GLboolean, *const GLfloat),
            uniform1fv: unsafe extern "system" fn(GLint, GLsizei, *const GLfloat),
            uniform2fv: unsafe extern "system" fn(GLint, GLsizei, *const GLfloat),
            uniform3fv: unsafe extern "system" fn(GLint, GLsizei, *const GLfloat),
            uniform1iv: unsafe extern "system" fn(GLint, GLsizei, *const GLint),
            uniform2iv: unsafe extern "system" fn(GLint, GLsizei, *const GLint),
            uniform3iv: unsafe extern "system" fn(GLint, GLsizei, *const GLint),
            uniform4iv: unsafe extern "system" fn(GLint, GLsizei, *const GLint),
            uniform1uiv: unsafe extern "system" fn(GLint, GLsizei, *const GLuint),
            uniform2uiv: unsafe extern "system" fn(GLint, GLsizei, *const GLuint),
            uniform3uiv: unsafe extern "system" fn(GLint, GLsizei, *const GLuint),
            uniform4uiv: unsafe extern "system" fn(GLint, GLsizei, *const GLuint),
            uniform_matrix2fv: unsafe extern "system" fn(GLint, GLsizei, GLboolean, *const GLfloat),
            uniform_matrix3fv: unsafe extern "system" fn(GLint, GLsizei, GLboolean, *const GLfloat),
            uniform_matrix2x3fv: unsafe extern "system" fn(GLint, GLsizei, GLboolean, *const GLfloat),
            uniform_matrix3x2fv: unsafe extern "system" fn(GLint, GLsizei, GLboolean, *const GLfloat),
            uniform_matrix2x4fv: unsafe extern "system" fn(GLint, GLsizei, GLboolean, *const GLfloat),
            uniform_matrix4x2fv: unsafe extern "system" fn(GLint, GLsizei, GLboolean, *const GLfloat),
            uniform_matrix3x4fv: unsafe extern "system" fn(GLint, GLsizei, GLboolean, *const GLfloat),
            uniform_matrix4x3fv: unsafe extern "system" fn(GLint, GLsizei, GLboolean, *const GLfloat),
            get_integerv: unsafe extern "system" fn(GLenum, *mut GLint),
            get_floatv: unsafe extern "system" fn(GLenum, *mut GLfloat),
            read_pixels: unsafe extern "system" fn(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, *mut c_void),
            tex_image_1d: unsafe extern "system" fn(GLenum, GLint, GLint, GLsizei, GLint, GLenum, GLenum, *const c_void),
            sampler_parameterfv: unsafe extern "system" fn(GLuint, GLenum, *const GLfloat),
            patch_parameterfv: unsafe extern "system" fn(GLenum, *const GLfloat),
            clear_bufferiv: unsafe extern "system" fn(GLenum, GLint, *const GLint),
            clear_bufferuiv: unsafe extern "system" fn(GLenum, GLint, *const GLuint),
            get_buffer_sub_data: unsafe extern "system" fn(GLenum, isize, isize, *mut c_void),
            transform_feedback_varyings: unsafe extern "system" fn(GLuint, GLsizei, *const *const std::ffi::c_char, GLenum),
            get_transform_feedback_varying: unsafe extern "system" fn(GLuint, GLuint, GLsizei, *mut GLsizei, *mut GLsizei, *mut GLenum, *mut u8),
            gen_queries: unsafe extern "system" fn(GLsizei, *mut GLuint),
            get_query_objectuiv: unsafe extern "system" fn(GLuint, GLenum, *mut GLuint),
            map_buffer_range: unsafe extern "system" fn(GLenum, isize, isize, GLbitfield) -> *mut c_void,
            unmap_buffer: unsafe extern "system" fn(GLenum) -> GLboolean,
            multi_draw_arrays: unsafe extern "system" fn(GLenum, *const GLint, *const GLsizei, GLsizei),
            delete_buffers: unsafe extern "system" fn(GLsizei, *const GLuint),
            delete_textures: unsafe extern "system" fn(GLsizei, *const GLuint),
        }

        impl NativeFns {
            fn load(egl: &NativeEgl) -> Result<Self, String> {
                Ok(Self {
                    $( $name: egl.proc($sym)?, )*
                    shader_source: egl.proc("glShaderSource")?,
                    get_shaderiv: egl.proc("glGetShaderiv")?,
                    get_programiv: egl.proc("glGetProgramiv")?,
                    get_shader_info_log: egl.proc("glGetShaderInfoLog")?,
                    get_program_info_log: egl.proc("glGetProgramInfoLog")?,
                    get_uniform_location: egl.proc("glGetUniformLocation")?,
                    get_attrib_location: egl.proc("glGetAttribLocation")?,
                    get_uniform_block_index: egl.proc("glGetUniformBlockIndex")?,
                    bind_attrib_location: egl.proc("glBindAttribLocation")?,
                    bind_frag_data_location: egl.proc("glBindFragDataLocation")?,
                    get_frag_data_location: egl.proc("glGetFragDataLocation")?,
                    get_active_uniform: egl.proc("glGetActiveUniform")?,
                    debug_message_insert: egl.proc("glDebugMessageInsert")?,
                    debug_message_control: egl.proc("glDebugMessageControl")?,
                    push_debug_group: egl.proc("glPushDebugGroup")?,
                    get_debug_message_log: egl.proc("glGetDebugMessageLog")?,
                    object_label: egl.proc("glObjectLabel")?,
                    get_object_label: egl.proc("glGetObjectLabel")?,
                    get_program_binary: egl.proc("glGetProgramBinary")?,
                    program_binary: egl.proc("glProgramBinary")?,
                    get_active_attrib: egl.proc("glGetActiveAttrib")?,
                    get_active_uniformsiv: egl.proc("glGetActiveUniformsiv")?,
                    get_uniform_indices: egl.proc("glGetUniformIndices")?,
                    get_active_uniform_blockiv: egl.proc("glGetActiveUniformBlockiv")?,
                    get_active_uniform_block_name: egl.proc("glGetActiveUniformBlockName")?,
                    gen_buffers: egl.proc("glGenBuffers")?,
                    gen_vertex_arrays: egl.proc("glGenVertexArrays")?,
                    gen_textures: egl.proc("glGenTextures")?,
                    gen_samplers: egl.proc("glGenSamplers")?,
                    gen_framebuffers: egl.proc("glGenFramebuffers")?,
                    gen_renderbuffers: egl.proc("glGenRenderbuffers")?,
                    buffer_data: egl.proc("glBufferData")?,
                    buffer_storage: egl.proc("glBufferStorage")?,
                    buffer_sub_data: egl.proc("glBufferSubData")?,
                    vertex_attrib_pointer: egl.proc("glVertexAttribPointer")?,
                    vertex_attrib_i_pointer: egl.proc("glVertexAttribIPointer")?,
                    draw_elements: egl.proc("glDrawElements")?,
                    draw_elements_base_vertex: egl.proc("glDrawElementsBaseVertex")?,
                    draw_elements_instanced: egl.proc("glDrawElementsInstanced")?,
                    draw_range_elements: egl.proc("glDrawRangeElements")?,
                    tex_image_2d: egl.proc("glTexImage2D")?,
                    tex_image_3d: egl.proc("glTexImage3D")?,
                    tex_sub_image_2d: egl.proc("glTexSubImage2D")?,
                    tex_parameterfv: egl.proc("glTexParameterfv")?,
                    draw_buffers: egl.proc("glDrawBuffers")?,
                    clear_bufferfv: egl.proc("glClearBufferfv")?,
                    uniform4fv: egl.proc("glUniform4fv")?,
                    uniform_matrix4fv: egl.proc("glUniformMatrix4fv")?,
                    uniform1fv: egl.proc("glUniform1fv")?,
                    uniform2fv: egl.proc("glUniform2fv")?,
                    uniform3fv: egl.proc("glUniform3fv")?,
                    uniform1iv: egl.proc("glUniform1iv")?,
                    uniform2iv: egl.proc("glUniform2iv")?,
                    uniform3iv: egl.proc("glUniform3iv")?,
                    uniform4iv: egl.proc("glUniform4iv")?,
                    uniform1uiv: egl.proc("glUniform1uiv")?,
                    uniform2uiv: egl.proc("glUniform2uiv")?,
                    uniform3uiv: egl.proc("glUniform3uiv")?,
                    uniform4uiv: egl.proc("glUniform4uiv")?,
                    uniform_matrix2fv: egl.proc("glUniformMatrix2fv")?,
                    uniform_matrix3fv: egl.proc("glUniformMatrix3fv")?,
                    uniform_matrix2x3fv: egl.proc("glUniformMatrix2x3fv")?,
                    uniform_matrix3x2fv: egl.proc("glUniformMatrix3x2fv")?,
                    uniform_matrix2x4fv: egl.proc("glUniformMatrix2x4fv")?,
                    uniform_matrix4x2fv: egl.proc("glUniformMatrix4x2fv")?,
                    uniform_matrix3x4fv: egl.proc("glUniformMatrix3x4fv")?,
                    uniform_matrix4x3fv: egl.proc("glUniformMatrix4x3fv")?,
                    get_integerv: egl.proc("glGetIntegerv")?,
                    get_floatv: egl.proc("glGetFloatv")?,
                    read_pixels: egl.proc("glReadPixels")?,
                    tex_image_1d: egl.proc("glTexImage1D")?,
                    sampler_parameterfv: egl.proc("glSamplerParameterfv")?,
                    patch_parameterfv: egl.proc("glPatchParameterfv")?,
                    clear_bufferiv: egl.proc("glClearBufferiv")?,
                    clear_bufferuiv: egl.proc("glClearBufferuiv")?,
                    get_buffer_sub_data: egl.proc("glGetBufferSubData")?,
                    transform_feedback_varyings: egl.proc("glTransformFeedbackVaryings")?,
                    get_transform_feedback_varying: egl.proc("glGetTransformFeedbackVarying")?,
                    gen_queries: egl.proc("glGenQueries")?,
                    get_query_objectuiv: egl.proc("glGetQueryObjectuiv")?,
                    map_buffer_range: egl.proc("glMapBufferRange")?,
                    unmap_buffer: egl.proc("glUnmapBuffer")?,
                    // OpenGL ES has the call as EXT_multi_draw_arrays' (one entry point).
                    multi_draw_arrays: egl.proc("glMultiDrawArrays").or_else(|_| egl.proc("glMultiDrawArraysEXT"))?,
                    delete_buffers: egl.proc("glDeleteBuffers")?,
                    delete_textures: egl.proc("glDeleteTextures")?,
                })
            }
        }

        impl Gl for NativeGl {
            $(
                fn $name(&mut self, $($arg: $ty),*) $(-> $ret)? {
                    // SAFETY: the native context is current on this thread (NativeGl is
                    // neither Send nor Sync and made its context current when created), the
                    // function pointer came from eglGetProcAddress for this symbol with its
                    // exact C signature, and every argument is passed by value.
                    unsafe { (self.f.$name)($($arg),*) }
                }
            )*
            fn shader_source(&mut self, shader: GLuint, source: &str) {
                let es_source;
                let source = if self.es {
                    es_source = es_shader(source);
                    es_source.as_str()
                } else {
                    source
                };
                let ptr = source.as_ptr();
                let len = source.len() as GLint;
                // SAFETY: one string pointer and its length, both valid for the call.
                unsafe { (self.f.shader_source)(shader, 1, &ptr, &len) }
            }
            fn get_shaderi(&mut self, shader: GLuint, pname: GLenum) -> GLint {
                let mut v = 0;
                // SAFETY: one writable GLint for a single-valued query.
                unsafe { (self.f.get_shaderiv)(shader, pname, &mut v) };
                v
            }
            fn get_programi(&mut self, program: GLuint, pname: GLenum) -> GLint {
                let mut v = 0;
                // SAFETY: as in get_shaderi (the pnames tests use are single-valued).
                unsafe { (self.f.get_programiv)(program, pname, &mut v) };
                v
            }
            fn shader_info_log(&mut self, shader: GLuint) -> String {
                let len = self.get_shaderi(shader, INFO_LOG_LENGTH).max(1);
                let mut buf = vec![0u8; len as usize];
                let mut written = 0;
                // SAFETY: `buf` holds `len` writable bytes.
                unsafe { (self.f.get_shader_info_log)(shader, len, &mut written, buf.as_mut_ptr()) };
                String::from_utf8_lossy(&buf[..written.max(0) as usize]).into_owned()
            }
            fn program_info_log(&mut self, program: GLuint) -> String {
                let len = self.get_programi(program, INFO_LOG_LENGTH).max(1);
                let mut buf = vec![0u8; len as usize];
                let mut written = 0;
                // SAFETY: `buf` holds `len` writable bytes.
                unsafe { (self.f.get_program_info_log)(program, len, &mut written, buf.as_mut_ptr()) };
                String::from_utf8_lossy(&buf[..written.max(0) as usize]).into_owned()
            }
            fn get_uniform_location(&mut self, program: GLuint, name: &str) -> GLint {
                let c = CString::new(name).unwrap_or_default();
                // SAFETY: a NUL-terminated string valid for the call.
                unsafe { (self.f.get_uniform_location)(program, c.as_ptr().cast()) }
            }
            fn get_attrib_location(&mut self, program: GLuint, name: &str) -> GLint {
                let c = CString::new(name).unwrap_or_default();
                // SAFETY: a NUL-terminated string valid for the call.
                unsafe { (self.f.get_attrib_location)(program, c.as_ptr().cast()) }
            }
            fn get_uniform_block_index(&mut self, program: GLuint, name: &str) -> GLuint {
                let c = CString::new(name).unwrap_or_default();
                // SAFETY: a NUL-terminated string valid for the call.
                unsafe { (self.f.get_uniform_block_index)(program, c.as_ptr().cast()) }
            }
            fn bind_attrib_location(&mut self, program: GLuint, index: GLuint, name: &str) {
                let c = CString::new(name).unwrap_or_default();
                // SAFETY: a NUL-terminated string valid for the call.
                unsafe { (self.f.bind_attrib_location)(program, index, c.as_ptr().cast()) }
            }
            fn bind_frag_data_location(&mut self, program: GLuint, color: GLuint, name: &str) {
                let c = CString::new(name).unwrap_or_default();
                // SAFETY: a NUL-terminated string valid for the call.
                unsafe { (self.f.bind_frag_data_location)(program, color, c.as_ptr().cast()) }
            }
            fn get_frag_data_location(&mut self, program: GLuint, name: &str) -> GLint {
                let c = CString::new(name).unwrap_or_default();
                // SAFETY: a NUL-terminated string valid for the call.
                unsafe { (self.f.get_frag_data_location)(program, c.as_ptr().cast()) }
            }
            fn get_active_uniform(&mut self, program: GLuint, index: GLuint) -> (String, GLint, GLenum) {
                let (mut buf, mut len, mut size, mut ty) = (vec![0u8; 1024], 0, 0, 0);
                // SAFETY: `buf` holds the 1024 writable bytes passed as its size; the other
                // out-parameters are live locals.
                unsafe { (self.f.get_active_uniform)(program, index, 1024, &mut len, &mut size, &mut ty, buf.as_mut_ptr()) };
                (String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned(), size, ty)
            }
            fn get_active_attrib(&mut self, program: GLuint, index: GLuint) -> (String, GLint, GLenum) {
                let (mut buf, mut len, mut size, mut ty) = (vec![0u8; 1024], 0, 0, 0);
                // SAFETY: as for get_active_uniform.
                unsafe { (self.f.get_active_attrib)(program, index, 1024, &mut len, &mut size, &mut ty, buf.as_mut_ptr()) };
                (String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned(), size, ty)
            }
            fn get_active_uniformsiv(&mut self, program: GLuint, indices: &[GLuint], pname: GLenum, out: &mut [GLint]) {
                assert!(out.len() >= indices.len(), "one output per index");
                // SAFETY: `indices` is readable and `out` writable for `indices.len()` values.
                unsafe { (self.f.get_active_uniformsiv)(program, indices.len() as GLsizei, indices.as_ptr(), pname, out.as_mut_ptr()) }
            }
            fn get_uniform_indices(&mut self, program: GLuint, names: &[&str]) -> Vec<GLuint> {
                let c: Vec<CString> = names.iter().map(|n| CString::new(*n).unwrap_or_default()).collect();
                let ptrs: Vec<*const u8> = c.iter().map(|n| n.as_ptr().cast()).collect();
                let mut out = vec![0; names.len()];
                // SAFETY: `ptrs` holds `names.len()` NUL-terminated strings that outlive the
                // call (owned by `c`); `out` is writable for as many indices.
                unsafe { (self.f.get_uniform_indices)(program, ptrs.len() as GLsizei, ptrs.as_ptr(), out.as_mut_ptr()) };
                out
            }
            fn get_active_uniform_blockiv(&mut self, program: GLuint, index: GLuint, pname: GLenum, out: &mut [GLint]) {
                if pname == UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES {
                    let mut n = 0;
                    // SAFETY: a single-valued query into a live local.
                    unsafe { (self.f.get_active_uniform_blockiv)(program, index, UNIFORM_BLOCK_ACTIVE_UNIFORMS, &mut n) };
                    assert!(out.len() >= n.max(0) as usize, "room for every active uniform index of the block");
                }
                assert!(!out.is_empty(), "room for one value");
                // SAFETY: `out` is writable for every value the pname writes (checked above).
                unsafe { (self.f.get_active_uniform_blockiv)(program, index, pname, out.as_mut_ptr()) }
            }
            fn get_active_uniform_block_name(&mut self, program: GLuint, index: GLuint) -> String {
                let (mut buf, mut len) = (vec![0u8; 1024], 0);
                // SAFETY: `buf` holds the 1024 writable bytes passed as its size.
                unsafe { (self.f.get_active_uniform_block_name)(program, index, 1024, &mut len, buf.as_mut_ptr()) };
                String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned()
            }
            fn gen_buffer(&mut self) -> GLuint {
                let mut n = 0;
                // SAFETY: one writable name for a count of one.
                unsafe { (self.f.gen_buffers)(1, &mut n) };
                n
            }
            fn gen_vertex_array(&mut self) -> GLuint {
                let mut n = 0;
                // SAFETY: one writable name for a count of one.
                unsafe { (self.f.gen_vertex_arrays)(1, &mut n) };
                n
            }
            fn gen_texture(&mut self) -> GLuint {
                let mut n = 0;
                // SAFETY: one writable name for a count of one.
                unsafe { (self.f.gen_textures)(1, &mut n) };
                n
            }
            fn gen_sampler(&mut self) -> GLuint {
                let mut n = 0;
                // SAFETY: one writable name for a count of one.
                unsafe { (self.f.gen_samplers)(1, &mut n) };
                n
            }
            fn gen_framebuffer(&mut self) -> GLuint {
                let mut n = 0;
                // SAFETY: one writable name for a count of one.
                unsafe { (self.f.gen_framebuffers)(1, &mut n) };
                n
            }
            fn gen_renderbuffer(&mut self) -> GLuint {
                let mut n = 0;
                // SAFETY: one writable name for a count of one.
                unsafe { (self.f.gen_renderbuffers)(1, &mut n) };
                n
            }
            fn buffer_data(&mut self, target: GLenum, size: usize, data: Option<&[u8]>, usage: GLenum) {
                let ptr = data.map_or(std::ptr::null(), |d| { assert!(d.len() >= size); d.as_ptr().cast() });
                // SAFETY: `ptr` is null or points to at least `size` readable bytes.
                unsafe { (self.f.buffer_data)(target, size as isize, ptr, usage) }
            }
            fn buffer_storage(&mut self, target: GLenum, size: usize, data: Option<&[u8]>, flags: GLbitfield) {
                let ptr = data.map_or(std::ptr::null(), |d| d.as_ptr().cast());
                // SAFETY: the context is current; a non-null `data` holds `size` bytes.
                unsafe { (self.f.buffer_storage)(target, size as isize, ptr, flags) }
            }
            fn map_buffer_range_ptr(&mut self, target: GLenum, offset: usize, length: usize, access: GLbitfield) -> *mut u8 {
                // SAFETY: the context is current; the caller uses the pointer as the mapping.
                unsafe { (self.f.map_buffer_range)(target, offset as isize, length as isize, access).cast() }
            }
            fn buffer_sub_data(&mut self, target: GLenum, offset: usize, data: &[u8]) {
                // SAFETY: `data` is readable for its length.
                unsafe { (self.f.buffer_sub_data)(target, offset as isize, data.len() as isize, data.as_ptr().cast()) }
            }
            fn vertex_attrib_pointer(&mut self, index: GLuint, size: GLint, ty: GLenum, normalized: bool, stride: GLsizei, offset: usize) {
                // SAFETY: with a buffer bound the pointer is an offset, never dereferenced here.
                unsafe { (self.f.vertex_attrib_pointer)(index, size, ty, normalized as GLboolean, stride, offset as *const c_void) }
            }
            fn vertex_attrib_i_pointer(&mut self, index: GLuint, size: GLint, ty: GLenum, stride: GLsizei, offset: usize) {
                // SAFETY: as for vertex_attrib_pointer.
                unsafe { (self.f.vertex_attrib_i_pointer)(index, size, ty, stride, offset as *const c_void) }
            }
            fn draw_elements(&mut self, mode: GLenum, count: GLsizei, ty: GLenum, offset: usize) {
                assert!(self.has_element_buffer(), "native draws read indices from a buffer only");
                // SAFETY: an element buffer is bound, so the pointer is an offset into it.
                unsafe { (self.f.draw_elements)(mode, count, ty, offset as *const c_void) }
            }
            fn draw_elements_base_vertex(&mut self, mode: GLenum, count: GLsizei, ty: GLenum, offset: usize, base_vertex: GLint) {
                assert!(self.has_element_buffer(), "native draws read indices from a buffer only");
                // SAFETY: as for draw_elements.
                unsafe { (self.f.draw_elements_base_vertex)(mode, count, ty, offset as *const c_void, base_vertex) }
            }
            fn draw_elements_instanced(&mut self, mode: GLenum, count: GLsizei, ty: GLenum, offset: usize, instances: GLsizei) {
                assert!(self.has_element_buffer(), "native draws read indices from a buffer only");
                // SAFETY: as for draw_elements.
                unsafe { (self.f.draw_elements_instanced)(mode, count, ty, offset as *const c_void, instances) }
            }
            fn draw_range_elements(&mut self, mode: GLenum, start: GLuint, end: GLuint, count: GLsizei, ty: GLenum, offset: usize) {
                assert!(self.has_element_buffer(), "native draws read indices from a buffer only");
                // SAFETY: as for draw_elements.
                unsafe { (self.f.draw_range_elements)(mode, start, end, count, ty, offset as *const c_void) }
            }
            fn tex_image_2d(&mut self, target: GLenum, level: GLint, internal_format: GLint, width: GLsizei, height: GLsizei, border: GLint, format: GLenum, ty: GLenum, data: Option<&[u8]>) {
                let ptr = data.map_or(std::ptr::null(), |d| d.as_ptr().cast());
                // SAFETY: tests pass images at least as large as the unpack state reads.
                unsafe { (self.f.tex_image_2d)(target, level, internal_format, width, height, border, format, ty, ptr) }
            }
            fn tex_image_3d(&mut self, target: GLenum, level: GLint, internal_format: GLint, width: GLsizei, height: GLsizei, depth: GLsizei, border: GLint, format: GLenum, ty: GLenum, data: Option<&[u8]>) {
                let ptr = data.map_or(std::ptr::null(), |d| d.as_ptr().cast());
                // SAFETY: as for tex_image_2d.
                unsafe { (self.f.tex_image_3d)(target, level, internal_format, width, height, depth, border, format, ty, ptr) }
            }
            fn tex_sub_image_2d(&mut self, target: GLenum, level: GLint, x: GLint, y: GLint, width: GLsizei, height: GLsizei, format: GLenum, ty: GLenum, data: &[u8]) {
                // SAFETY: as for tex_image_2d.
                unsafe { (self.f.tex_sub_image_2d)(target, level, x, y, width, height, format, ty, data.as_ptr().cast()) }
            }
            fn tex_parameterfv(&mut self, target: GLenum, pname: GLenum, params: &[GLfloat]) {
                // SAFETY: tests pass as many values as the pname takes.
                unsafe { (self.f.tex_parameterfv)(target, pname, params.as_ptr()) }
            }
            fn draw_buffers(&mut self, bufs: &[GLenum]) {
                // SAFETY: `bufs` holds the number of entries passed.
                unsafe { (self.f.draw_buffers)(bufs.len() as GLsizei, bufs.as_ptr()) }
            }
            fn clear_bufferfv(&mut self, buffer: GLenum, drawbuffer: GLint, value: &[GLfloat]) {
                // SAFETY: tests pass 4 values for colour, 1 for depth.
                unsafe { (self.f.clear_bufferfv)(buffer, drawbuffer, value.as_ptr()) }
            }
            fn uniform4fv(&mut self, location: GLint, value: &[GLfloat]) {
                // SAFETY: `value` holds count * 4 floats.
                unsafe { (self.f.uniform4fv)(location, (value.len() / 4) as GLsizei, value.as_ptr()) }
            }
            fn uniform_matrix4fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) {
                // SAFETY: `value` holds count * 16 floats.
                unsafe { (self.f.uniform_matrix4fv)(location, (value.len() / 16) as GLsizei, transpose as GLboolean, value.as_ptr()) }
            }
            fn uniform1fv(&mut self, location: GLint, value: &[GLfloat]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform1fv)(location, value.len() as GLsizei, value.as_ptr()) }
            }
            fn uniform2fv(&mut self, location: GLint, value: &[GLfloat]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform2fv)(location, (value.len() / 2) as GLsizei, value.as_ptr()) }
            }
            fn uniform3fv(&mut self, location: GLint, value: &[GLfloat]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform3fv)(location, (value.len() / 3) as GLsizei, value.as_ptr()) }
            }
            fn uniform1iv(&mut self, location: GLint, value: &[GLint]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform1iv)(location, value.len() as GLsizei, value.as_ptr()) }
            }
            fn uniform2iv(&mut self, location: GLint, value: &[GLint]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform2iv)(location, (value.len() / 2) as GLsizei, value.as_ptr()) }
            }
            fn uniform3iv(&mut self, location: GLint, value: &[GLint]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform3iv)(location, (value.len() / 3) as GLsizei, value.as_ptr()) }
            }
            fn uniform4iv(&mut self, location: GLint, value: &[GLint]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform4iv)(location, (value.len() / 4) as GLsizei, value.as_ptr()) }
            }
            fn uniform1uiv(&mut self, location: GLint, value: &[GLuint]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform1uiv)(location, value.len() as GLsizei, value.as_ptr()) }
            }
            fn uniform2uiv(&mut self, location: GLint, value: &[GLuint]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform2uiv)(location, (value.len() / 2) as GLsizei, value.as_ptr()) }
            }
            fn uniform3uiv(&mut self, location: GLint, value: &[GLuint]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform3uiv)(location, (value.len() / 3) as GLsizei, value.as_ptr()) }
            }
            fn uniform4uiv(&mut self, location: GLint, value: &[GLuint]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform4uiv)(location, (value.len() / 4) as GLsizei, value.as_ptr()) }
            }
            fn uniform_matrix2fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform_matrix2fv)(location, (value.len() / 4) as GLsizei, transpose as GLboolean, value.as_ptr()) }
            }
            fn uniform_matrix3fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform_matrix3fv)(location, (value.len() / 9) as GLsizei, transpose as GLboolean, value.as_ptr()) }
            }
            fn uniform_matrix2x3fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform_matrix2x3fv)(location, (value.len() / 6) as GLsizei, transpose as GLboolean, value.as_ptr()) }
            }
            fn uniform_matrix3x2fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform_matrix3x2fv)(location, (value.len() / 6) as GLsizei, transpose as GLboolean, value.as_ptr()) }
            }
            fn uniform_matrix2x4fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform_matrix2x4fv)(location, (value.len() / 8) as GLsizei, transpose as GLboolean, value.as_ptr()) }
            }
            fn uniform_matrix4x2fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform_matrix4x2fv)(location, (value.len() / 8) as GLsizei, transpose as GLboolean, value.as_ptr()) }
            }
            fn uniform_matrix3x4fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform_matrix3x4fv)(location, (value.len() / 12) as GLsizei, transpose as GLboolean, value.as_ptr()) }
            }
            fn uniform_matrix4x3fv(&mut self, location: GLint, transpose: bool, value: &[GLfloat]) {
                // SAFETY: `value` holds the whole elements counted.
                unsafe { (self.f.uniform_matrix4x3fv)(location, (value.len() / 12) as GLsizei, transpose as GLboolean, value.as_ptr()) }
            }
            fn get_integerv(&mut self, pname: GLenum, out: &mut [GLint]) {
                // What the driver leaves unwritten keeps the caller's values (sentinels show
                // how many values a pname has), as on Tessera.
                let mut all = [0; NATIVE_GET_VALUES];
                let n = out.len().min(16);
                all[..n].copy_from_slice(&out[..n]);
                // SAFETY: `all` has room for the longest list a driver answers
                // (`COMPRESSED_TEXTURE_FORMATS` and the like), so any pname can be asked.
                unsafe { (self.f.get_integerv)(pname, all.as_mut_ptr()) };
                out[..n].copy_from_slice(&all[..n]);
            }
            fn get_floatv(&mut self, pname: GLenum, out: &mut [GLfloat]) {
                let mut all = [0.0; NATIVE_GET_VALUES];
                let n = out.len().min(16);
                all[..n].copy_from_slice(&out[..n]);
                // SAFETY: as for get_integerv.
                unsafe { (self.f.get_floatv)(pname, all.as_mut_ptr()) };
                out[..n].copy_from_slice(&all[..n]);
            }
            fn read_pixels(&mut self, x: GLint, y: GLint, width: GLsizei, height: GLsizei, format: GLenum, ty: GLenum, out: &mut [u8]) {
                // SAFETY: tests size `out` for the rectangle under the pack state they set.
                unsafe { (self.f.read_pixels)(x, y, width, height, format, ty, out.as_mut_ptr().cast()) }
            }
            fn tex_image_1d(&mut self, target: GLenum, level: GLint, internal_format: GLint, width: GLsizei, border: GLint, format: GLenum, ty: GLenum, data: Option<&[u8]>) {
                let ptr = data.map_or(std::ptr::null(), |d| d.as_ptr().cast());
                // SAFETY: as for tex_image_2d.
                unsafe { (self.f.tex_image_1d)(target, level, internal_format, width, border, format, ty, ptr) }
            }
            fn patch_parameterfv(&mut self, pname: GLenum, values: &[GLfloat]) {
                let mut all = [0.0; 4];
                let n = values.len().min(4);
                all[..n].copy_from_slice(&values[..n]);
                // SAFETY: four floats, as many as any pname reads.
                unsafe { (self.f.patch_parameterfv)(pname, all.as_ptr()) }
            }
            fn sampler_parameterfv(&mut self, sampler: GLuint, pname: GLenum, params: &[GLfloat]) {
                // SAFETY: tests pass as many values as the pname takes.
                unsafe { (self.f.sampler_parameterfv)(sampler, pname, params.as_ptr()) }
            }
            fn clear_bufferiv(&mut self, buffer: GLenum, drawbuffer: GLint, value: &[GLint]) {
                // SAFETY: tests pass 4 values for colour, 1 for stencil.
                unsafe { (self.f.clear_bufferiv)(buffer, drawbuffer, value.as_ptr()) }
            }
            fn clear_bufferuiv(&mut self, buffer: GLenum, drawbuffer: GLint, value: &[GLuint]) {
                // SAFETY: tests pass 4 values.
                unsafe { (self.f.clear_bufferuiv)(buffer, drawbuffer, value.as_ptr()) }
            }
            fn read_pixels_to_buffer(&mut self, x: GLint, y: GLint, width: GLsizei, height: GLsizei, format: GLenum, ty: GLenum, offset: usize) {
                // SAFETY: with a pack buffer bound the pointer is an offset into it, never
                // dereferenced as client memory.
                unsafe { (self.f.read_pixels)(x, y, width, height, format, ty, offset as *mut c_void) }
            }
            fn get_buffer_sub_data(&mut self, target: GLenum, offset: usize, out: &mut [u8]) {
                // SAFETY: `out` is writable for its length.
                unsafe { (self.f.get_buffer_sub_data)(target, offset as isize, out.len() as isize, out.as_mut_ptr().cast()) }
            }
            fn transform_feedback_varyings(&mut self, program: GLuint, varyings: &[&str], mode: GLenum) {
                let owned: Vec<std::ffi::CString> = varyings.iter().map(|v| std::ffi::CString::new(*v).unwrap_or_default()).collect();
                let ptrs: Vec<*const std::ffi::c_char> = owned.iter().map(|c| c.as_ptr()).collect();
                // SAFETY: `ptrs` holds one NUL-terminated string per varying, alive for the call.
                unsafe { (self.f.transform_feedback_varyings)(program, ptrs.len() as GLsizei, ptrs.as_ptr(), mode) }
            }
            fn get_transform_feedback_varying(&mut self, program: GLuint, index: GLuint) -> (String, GLsizei, GLenum) {
                let (mut buf, mut len, mut size, mut ty) = (vec![0u8; 1024], 0, 0, 0);
                // SAFETY: as for get_active_uniform.
                unsafe { (self.f.get_transform_feedback_varying)(program, index, 1024, &mut len, &mut size, &mut ty, buf.as_mut_ptr()) };
                (String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned(), size, ty)
            }
            fn gen_query(&mut self) -> GLuint {
                let mut id = 0;
                // SAFETY: room for one name.
                unsafe { (self.f.gen_queries)(1, &mut id) };
                id
            }
            fn query_result(&mut self, id: GLuint) -> GLuint {
                let mut v = 0;
                // SAFETY: room for one value.
                unsafe { (self.f.get_query_objectuiv)(id, QUERY_RESULT, &mut v) };
                v
            }
            fn read_mapped(&mut self, target: GLenum, offset: usize, length: usize) -> Vec<u8> {
                // SAFETY: a successful map returns a pointer readable for `length` bytes until
                // glUnmapBuffer, which comes after the copy; a failed one returns null.
                unsafe {
                    let p = (self.f.map_buffer_range)(target, offset as isize, length as isize, MAP_READ_BIT);
                    let bytes = if p.is_null() { Vec::new() } else { std::slice::from_raw_parts(p.cast::<u8>(), length).to_vec() };
                    (self.f.unmap_buffer)(target);
                    bytes
                }
            }
            fn debug_message_insert(&mut self, source: GLenum, ty: GLenum, id: GLuint, severity: GLenum, text: &str) {
                // SAFETY: `text` holds `text.len()` bytes, valid for the call.
                unsafe { (self.f.debug_message_insert)(source, ty, id, severity, text.len() as GLsizei, text.as_ptr()) }
            }
            fn debug_message_control(&mut self, source: GLenum, ty: GLenum, severity: GLenum, ids: &[GLuint], enabled: bool) {
                // SAFETY: `ids` holds `ids.len()` ids, valid for the call.
                unsafe { (self.f.debug_message_control)(source, ty, severity, ids.len() as GLsizei, ids.as_ptr(), enabled as GLboolean) }
            }
            fn push_debug_group(&mut self, source: GLenum, id: GLuint, message: &str) {
                // SAFETY: `message` holds `message.len()` bytes, valid for the call.
                unsafe { (self.f.push_debug_group)(source, id, message.len() as GLsizei, message.as_ptr()) }
            }
            fn take_debug_messages(&mut self) -> Vec<(GLenum, GLenum, GLuint, GLenum, String)> {
                let mut out = Vec::new();
                loop {
                    let (mut source, mut ty, mut id, mut severity, mut length) = (0, 0, 0, 0, 0);
                    let mut text = vec![0u8; 4096];
                    // SAFETY: one entry per array for a count of 1, and `text` holds the
                    // 4096 bytes passed as its size.
                    let n = unsafe {
                        (self.f.get_debug_message_log)(1, 4096, &mut source, &mut ty, &mut id, &mut severity, &mut length, text.as_mut_ptr())
                    };
                    if n == 0 {
                        return out;
                    }
                    let len = (length.max(1) - 1) as usize;
                    out.push((source, ty, id, severity, String::from_utf8_lossy(&text[..len]).into_owned()));
                }
            }
            fn object_label(&mut self, identifier: GLenum, name: GLuint, label: Option<&str>) {
                let (len, ptr) = label.map_or((0, std::ptr::null()), |l| (l.len() as GLsizei, l.as_ptr()));
                // SAFETY: a null label, or `len` bytes valid for the call.
                unsafe { (self.f.object_label)(identifier, name, len, ptr) }
            }
            fn get_object_label(&mut self, identifier: GLenum, name: GLuint) -> String {
                let mut buf = vec![0u8; 256];
                let mut written = 0;
                // SAFETY: `buf` holds the 256 bytes passed as its size.
                unsafe { (self.f.get_object_label)(identifier, name, 256, &mut written, buf.as_mut_ptr()) };
                String::from_utf8_lossy(&buf[..written.max(0) as usize]).into_owned()
            }
            fn get_program_binary(&mut self, program: GLuint, buf_size: GLsizei, out: &mut [u8]) -> (GLsizei, GLenum) {
                assert!(buf_size <= 0 || buf_size as usize <= out.len(), "the driver writes up to buf_size bytes");
                let (mut length, mut format) = (-1, 0);
                // SAFETY: `out` holds at least the `buf_size` bytes the driver may write.
                unsafe { (self.f.get_program_binary)(program, buf_size, &mut length, &mut format, out.as_mut_ptr().cast()) };
                (length, format)
            }
            fn program_binary(&mut self, program: GLuint, format: GLenum, binary: &[u8], length: GLsizei) {
                assert!(length <= 0 || length as usize <= binary.len(), "the driver reads length bytes");
                // SAFETY: `binary` holds at least the `length` bytes the driver reads.
                unsafe { (self.f.program_binary)(program, format, binary.as_ptr().cast(), length) }
            }
        }
    };
}

gl_api! {
    /// `glGetError`.
    fn get_error() -> GLenum = "glGetError";
    fn pop_debug_group() = "glPopDebugGroup";
    /// `glFinish`.
    fn finish() = "glFinish";
    /// `glFlush`.
    fn flush() = "glFlush";
    /// `glFenceSync` (the sync object as its address).
    fn fence_sync(condition: GLenum, flags: GLbitfield) -> u64 = "glFenceSync";
    /// `glClientWaitSync`.
    fn client_wait_sync(sync: u64, flags: GLbitfield, timeout: u64) -> GLenum = "glClientWaitSync";
    /// `glDeleteSync`.
    fn delete_sync(sync: u64) = "glDeleteSync";
    /// `glViewport`.
    fn viewport(x: GLint, y: GLint, width: GLsizei, height: GLsizei) = "glViewport";
    /// `glScissor`.
    fn scissor(x: GLint, y: GLint, width: GLsizei, height: GLsizei) = "glScissor";
    /// `glEnable`.
    fn enable(cap: GLenum) = "glEnable";
    /// `glDisable`.
    fn disable(cap: GLenum) = "glDisable";
    /// `glEnablei`.
    fn enablei(cap: GLenum, index: GLuint) = "glEnablei";
    /// `glDisablei`.
    fn disablei(cap: GLenum, index: GLuint) = "glDisablei";
    /// `glClearColor`.
    fn clear_color(r: GLfloat, g: GLfloat, b: GLfloat, a: GLfloat) = "glClearColor";
    /// `glClearColorIiEXT` (EXT_texture_integer).
    fn clear_color_i(r: GLint, g: GLint, b: GLint, a: GLint) = "glClearColorIiEXT";
    /// `glClearColorIuiEXT` (EXT_texture_integer).
    fn clear_color_ui(r: GLuint, g: GLuint, b: GLuint, a: GLuint) = "glClearColorIuiEXT";
    /// `glClearDepth`.
    fn clear_depth(depth: GLdouble) = "glClearDepth";
    /// `glClearStencil`.
    fn clear_stencil(s: GLint) = "glClearStencil";
    /// `glClear`.
    fn clear(mask: GLbitfield) = "glClear";
    /// `glBlendFunc`.
    fn blend_func(src: GLenum, dst: GLenum) = "glBlendFunc";
    /// `glBlendFuncSeparate`.
    fn blend_func_separate(src_rgb: GLenum, dst_rgb: GLenum, src_alpha: GLenum, dst_alpha: GLenum) = "glBlendFuncSeparate";
    /// `glBlendEquation`.
    fn blend_equation(mode: GLenum) = "glBlendEquation";
    /// `glBlendEquationSeparate`.
    fn blend_equation_separate(rgb: GLenum, alpha: GLenum) = "glBlendEquationSeparate";
    /// `glBlendFunci` (GL 4.0, ARB_draw_buffers_blend).
    fn blend_funci(buf: GLuint, src: GLenum, dst: GLenum) = "glBlendFunci";
    /// `glBlendFuncSeparatei` (GL 4.0).
    fn blend_func_separatei(buf: GLuint, src_rgb: GLenum, dst_rgb: GLenum, src_alpha: GLenum, dst_alpha: GLenum) = "glBlendFuncSeparatei";
    /// `glBlendEquationi` (GL 4.0).
    fn blend_equationi(buf: GLuint, mode: GLenum) = "glBlendEquationi";
    /// `glBlendEquationSeparatei` (GL 4.0).
    fn blend_equation_separatei(buf: GLuint, rgb: GLenum, alpha: GLenum) = "glBlendEquationSeparatei";
    /// `glBlendColor`.
    fn blend_color(r: GLfloat, g: GLfloat, b: GLfloat, a: GLfloat) = "glBlendColor";
    /// `glColorMask`.
    fn color_mask(r: GLboolean, g: GLboolean, b: GLboolean, a: GLboolean) = "glColorMask";
    /// `glColorMaski`.
    fn color_maski(index: GLuint, r: GLboolean, g: GLboolean, b: GLboolean, a: GLboolean) = "glColorMaski";
    /// `glDepthFunc`.
    fn depth_func(func: GLenum) = "glDepthFunc";
    /// `glDepthMask`.
    fn depth_mask(flag: GLboolean) = "glDepthMask";
    /// `glDepthRange`.
    fn depth_range(near: GLdouble, far: GLdouble) = "glDepthRange";
    /// `glStencilFunc`.
    fn stencil_func(func: GLenum, reference: GLint, mask: GLuint) = "glStencilFunc";
    /// `glStencilFuncSeparate`.
    fn stencil_func_separate(face: GLenum, func: GLenum, reference: GLint, mask: GLuint) = "glStencilFuncSeparate";
    /// `glStencilOp`.
    fn stencil_op(sfail: GLenum, dpfail: GLenum, dppass: GLenum) = "glStencilOp";
    /// `glStencilOpSeparate`.
    fn stencil_op_separate(face: GLenum, sfail: GLenum, dpfail: GLenum, dppass: GLenum) = "glStencilOpSeparate";
    /// `glStencilMask`.
    fn stencil_mask(mask: GLuint) = "glStencilMask";
    /// `glCullFace`.
    fn cull_face(mode: GLenum) = "glCullFace";
    /// `glFrontFace`.
    fn front_face(mode: GLenum) = "glFrontFace";
    /// `glPolygonOffset`.
    fn polygon_offset(factor: GLfloat, units: GLfloat) = "glPolygonOffset";
    /// `glLineWidth`.
    fn line_width(width: GLfloat) = "glLineWidth";
    /// `glPointSize`.
    fn point_size(size: GLfloat) = "glPointSize";
    /// `glPrimitiveRestartIndex`.
    fn primitive_restart_index(index: GLuint) = "glPrimitiveRestartIndex";
    /// `glProvokingVertex`.
    fn provoking_vertex(mode: GLenum) = "glProvokingVertex";
    /// `glPointParameteri`.
    fn point_parameteri(pname: GLenum, param: GLint) = "glPointParameteri";
    /// `glPixelStorei`.
    fn pixel_storei(pname: GLenum, param: GLint) = "glPixelStorei";
    /// `glBindBuffer`.
    fn bind_buffer(target: GLenum, buffer: GLuint) = "glBindBuffer";
    /// `glBeginTransformFeedback`.
    fn begin_transform_feedback(mode: GLenum) = "glBeginTransformFeedback";
    /// `glEndTransformFeedback`.
    fn end_transform_feedback() = "glEndTransformFeedback";
    /// `glBeginQuery`.
    fn begin_query(target: GLenum, id: GLuint) = "glBeginQuery";
    /// `glEndQuery`.
    fn end_query(target: GLenum) = "glEndQuery";
    /// `glBindBufferBase`.
    fn bind_buffer_base(target: GLenum, index: GLuint, buffer: GLuint) = "glBindBufferBase";
    /// `glBindBufferRange`.
    fn bind_buffer_range(target: GLenum, index: GLuint, buffer: GLuint, offset: GLintptr, size: GLsizeiptr) = "glBindBufferRange";
    /// `glBindVertexArray`.
    fn bind_vertex_array(array: GLuint) = "glBindVertexArray";
    /// `glDispatchCompute` (GL 4.3).
    fn dispatch_compute(x: GLuint, y: GLuint, z: GLuint) = "glDispatchCompute";
    /// `glDispatchComputeIndirect` (GL 4.3).
    fn dispatch_compute_indirect(indirect: GLintptr) = "glDispatchComputeIndirect";
    /// `glProgramParameteri` (GL 4.1).
    fn program_parameteri(program: GLuint, pname: GLenum, value: GLint) = "glProgramParameteri";
    /// `glMemoryBarrier` (GL 4.2).
    fn memory_barrier(barriers: GLbitfield) = "glMemoryBarrier";
    /// `glPatchParameteri` (GL 4.0).
    fn patch_parameter_i(pname: GLenum, value: GLint) = "glPatchParameteri";
    /// `glMemoryBarrierByRegion` (GL 4.5).
    fn memory_barrier_by_region(barriers: GLbitfield) = "glMemoryBarrierByRegion";
    /// `glShaderStorageBlockBinding` (GL 4.3).
    fn shader_storage_block_binding(program: GLuint, index: GLuint, binding: GLuint) = "glShaderStorageBlockBinding";
    /// `glEnableVertexAttribArray`.
    fn enable_vertex_attrib_array(index: GLuint) = "glEnableVertexAttribArray";
    /// `glDisableVertexAttribArray`.
    fn disable_vertex_attrib_array(index: GLuint) = "glDisableVertexAttribArray";
    /// `glVertexAttribDivisor`.
    fn vertex_attrib_divisor(index: GLuint, divisor: GLuint) = "glVertexAttribDivisor";
    /// `glBindVertexBuffer` (GL 4.3).
    fn bind_vertex_buffer(binding_index: GLuint, buffer: GLuint, offset: GLintptr, stride: GLsizei) = "glBindVertexBuffer";
    /// `glVertexAttribFormat` (GL 4.3).
    fn vertex_attrib_format(index: GLuint, size: GLint, ty: GLenum, normalized: GLboolean, relative_offset: GLuint) = "glVertexAttribFormat";
    /// `glVertexAttribIFormat` (GL 4.3).
    fn vertex_attrib_i_format(index: GLuint, size: GLint, ty: GLenum, relative_offset: GLuint) = "glVertexAttribIFormat";
    /// `glVertexAttribBinding` (GL 4.3).
    fn vertex_attrib_binding(attrib_index: GLuint, binding_index: GLuint) = "glVertexAttribBinding";
    /// `glVertexBindingDivisor` (GL 4.3).
    fn vertex_binding_divisor(binding_index: GLuint, divisor: GLuint) = "glVertexBindingDivisor";
    /// `glVertexAttrib4f`.
    fn vertex_attrib_4f(index: GLuint, x: GLfloat, y: GLfloat, z: GLfloat, w: GLfloat) = "glVertexAttrib4f";
    /// `glActiveTexture`.
    fn active_texture(unit: GLenum) = "glActiveTexture";
    /// `glBindTexture`.
    fn bind_texture(target: GLenum, texture: GLuint) = "glBindTexture";
    /// `glTexParameteri`.
    fn tex_parameteri(target: GLenum, pname: GLenum, param: GLint) = "glTexParameteri";
    /// `glTexParameterf`.
    fn tex_parameterf(target: GLenum, pname: GLenum, param: GLfloat) = "glTexParameterf";
    /// `glGenerateMipmap`.
    fn generate_mipmap(target: GLenum) = "glGenerateMipmap";
    /// `glBindSampler`.
    fn bind_sampler(unit: GLuint, sampler: GLuint) = "glBindSampler";
    /// `glSamplerParameteri`.
    fn sampler_parameteri(sampler: GLuint, pname: GLenum, param: GLint) = "glSamplerParameteri";
    /// `glBindFramebuffer`.
    fn bind_framebuffer(target: GLenum, framebuffer: GLuint) = "glBindFramebuffer";
    /// `glFramebufferTexture2D`.
    fn framebuffer_texture_2d(target: GLenum, attachment: GLenum, textarget: GLenum, texture: GLuint, level: GLint) = "glFramebufferTexture2D";
    /// `glFramebufferTextureLayer`.
    fn framebuffer_texture_layer(target: GLenum, attachment: GLenum, texture: GLuint, level: GLint, layer: GLint) = "glFramebufferTextureLayer";
    /// `glFramebufferRenderbuffer`.
    fn framebuffer_renderbuffer(target: GLenum, attachment: GLenum, rbtarget: GLenum, renderbuffer: GLuint) = "glFramebufferRenderbuffer";
    /// `glCheckFramebufferStatus`.
    fn check_framebuffer_status(target: GLenum) -> GLenum = "glCheckFramebufferStatus";
    /// `glBindRenderbuffer`.
    fn bind_renderbuffer(target: GLenum, renderbuffer: GLuint) = "glBindRenderbuffer";
    /// `glRenderbufferStorage`.
    fn renderbuffer_storage(target: GLenum, internal_format: GLenum, width: GLsizei, height: GLsizei) = "glRenderbufferStorage";
    /// `glRenderbufferStorageMultisample`.
    fn renderbuffer_storage_multisample(target: GLenum, samples: GLsizei, internal_format: GLenum, width: GLsizei, height: GLsizei) = "glRenderbufferStorageMultisample";
    /// `glReadBuffer`.
    fn read_buffer(src: GLenum) = "glReadBuffer";
    /// `glBlitFramebuffer`.
    fn blit_framebuffer(sx0: GLint, sy0: GLint, sx1: GLint, sy1: GLint, dx0: GLint, dy0: GLint, dx1: GLint, dy1: GLint, mask: GLbitfield, filter: GLenum) = "glBlitFramebuffer";
    /// `glCreateShader`.
    fn create_shader(kind: GLenum) -> GLuint = "glCreateShader";
    /// `glCompileShader`.
    fn compile_shader(shader: GLuint) = "glCompileShader";
    /// `glDeleteShader`.
    fn delete_shader(shader: GLuint) = "glDeleteShader";
    /// `glDeleteProgram`.
    fn delete_program(program: GLuint) = "glDeleteProgram";
    /// `glCreateProgram`.
    fn create_program() -> GLuint = "glCreateProgram";
    /// `glAttachShader`.
    fn attach_shader(program: GLuint, shader: GLuint) = "glAttachShader";
    /// `glDetachShader`.
    fn detach_shader(program: GLuint, shader: GLuint) = "glDetachShader";
    /// `glLinkProgram`.
    fn link_program(program: GLuint) = "glLinkProgram";
    /// `glUseProgram`.
    fn use_program(program: GLuint) = "glUseProgram";
    /// `glUniformBlockBinding`.
    fn uniform_block_binding(program: GLuint, index: GLuint, binding: GLuint) = "glUniformBlockBinding";
    /// `glUniform1i`.
    fn uniform1i(location: GLint, v: GLint) = "glUniform1i";
    /// `glUniform1f`.
    fn uniform1f(location: GLint, v: GLfloat) = "glUniform1f";
    /// `glUniform2f`.
    fn uniform2f(location: GLint, x: GLfloat, y: GLfloat) = "glUniform2f";
    /// `glUniform4f`.
    fn uniform4f(location: GLint, x: GLfloat, y: GLfloat, z: GLfloat, w: GLfloat) = "glUniform4f";
    /// `glUniform3f`.
    fn uniform3f(location: GLint, x: GLfloat, y: GLfloat, z: GLfloat) = "glUniform3f";
    /// `glUniform2i`.
    fn uniform2i(location: GLint, x: GLint, y: GLint) = "glUniform2i";
    /// `glUniform3i`.
    fn uniform3i(location: GLint, x: GLint, y: GLint, z: GLint) = "glUniform3i";
    /// `glUniform4i`.
    fn uniform4i(location: GLint, x: GLint, y: GLint, z: GLint, w: GLint) = "glUniform4i";
    /// `glUniform1ui`.
    fn uniform1ui(location: GLint, x: GLuint) = "glUniform1ui";
    /// `glUniform2ui`.
    fn uniform2ui(location: GLint, x: GLuint, y: GLuint) = "glUniform2ui";
    /// `glUniform3ui`.
    fn uniform3ui(location: GLint, x: GLuint, y: GLuint, z: GLuint) = "glUniform3ui";
    /// `glUniform4ui`.
    fn uniform4ui(location: GLint, x: GLuint, y: GLuint, z: GLuint, w: GLuint) = "glUniform4ui";
    /// `glVertexAttribI4i`.
    fn vertex_attrib_i4i(index: GLuint, x: GLint, y: GLint, z: GLint, w: GLint) = "glVertexAttribI4i";
    /// `glDrawArrays`.
    fn draw_arrays(mode: GLenum, first: GLint, count: GLsizei) = "glDrawArrays";
    /// `glDrawArraysInstanced`.
    fn draw_arrays_instanced(mode: GLenum, first: GLint, count: GLsizei, instances: GLsizei) = "glDrawArraysInstanced";
    /// `glTexBuffer`.
    fn tex_buffer(target: GLenum, internal_format: GLenum, buffer: GLuint) = "glTexBuffer";
    /// `glTexImage2DMultisample`.
    fn tex_image_2d_multisample(target: GLenum, samples: GLsizei, internal_format: GLint, width: GLsizei, height: GLsizei, fixed_locations: GLboolean) = "glTexImage2DMultisample";
    /// `glTexImage3DMultisample`.
    fn tex_image_3d_multisample(target: GLenum, samples: GLsizei, internal_format: GLint, width: GLsizei, height: GLsizei, depth: GLsizei, fixed_locations: GLboolean) = "glTexImage3DMultisample";
    /// `glSampleMaski`.
    fn sample_maski(index: GLuint, mask: GLbitfield) = "glSampleMaski";
    /// `glMinSampleShading` (GL 4.0, ARB_sample_shading).
    fn min_sample_shading(value: GLfloat) = "glMinSampleShading";
    /// `glSamplerParameterf`.
    fn sampler_parameterf(sampler: GLuint, pname: GLenum, param: GLfloat) = "glSamplerParameterf";
    /// `glDrawBuffer`.
    fn draw_buffer(buf: GLenum) = "glDrawBuffer";
    /// `glFramebufferTexture` (layered when the texture has layers).
    fn framebuffer_texture(target: GLenum, attachment: GLenum, texture: GLuint, level: GLint) = "glFramebufferTexture";
    /// `glCopyTexSubImage2D`.
    fn copy_tex_sub_image_2d(target: GLenum, level: GLint, xoffset: GLint, yoffset: GLint, x: GLint, y: GLint, width: GLsizei, height: GLsizei) = "glCopyTexSubImage2D";
}

/// The calls of the benchmark scenes (`crate::scenes`) that the shared [`Gl`] table lacks:
/// a trait of its own, because test files declare the same calls in their own tables, which
/// would turn ambiguous if [`Gl`] had them too.
pub trait SceneGl: Gl {
    /// `glMultiDrawArrays`: one draw per entry of `first` and `count` (equal lengths).
    fn multi_draw_arrays(&mut self, mode: GLenum, first: &[GLint], count: &[GLsizei]);
    /// `glUnmapBuffer`.
    fn unmap_buffer(&mut self, target: GLenum) -> GLboolean;
    /// `glDeleteBuffers` of every name in `names`.
    fn delete_buffers(&mut self, names: &[GLuint]);
    /// `glDeleteTextures` of every name in `names`.
    fn delete_textures(&mut self, names: &[GLuint]);
}

impl SceneGl for Context {
    fn multi_draw_arrays(&mut self, mode: GLenum, first: &[GLint], count: &[GLsizei]) {
        let n = first.len().min(count.len()) as GLsizei;
        Context::multi_draw_arrays(self, mode, first, count, n)
    }
    fn unmap_buffer(&mut self, target: GLenum) -> GLboolean {
        Context::unmap_buffer(self, target)
    }
    fn delete_buffers(&mut self, names: &[GLuint]) {
        Context::delete_buffers(self, names.len() as GLsizei, names)
    }
    fn delete_textures(&mut self, names: &[GLuint]) {
        Context::delete_textures(self, names.len() as GLsizei, names)
    }
}

impl SceneGl for NativeGl {
    fn multi_draw_arrays(&mut self, mode: GLenum, first: &[GLint], count: &[GLsizei]) {
        let n = first.len().min(count.len()) as GLsizei;
        // SAFETY: the context is current on this thread (the type is not Send); both arrays
        // hold at least `n` entries, read during the call.
        unsafe { (self.f.multi_draw_arrays)(mode, first.as_ptr(), count.as_ptr(), n) }
    }
    fn unmap_buffer(&mut self, target: GLenum) -> GLboolean {
        // SAFETY: the context is current on this thread.
        unsafe { (self.f.unmap_buffer)(target) }
    }
    fn delete_buffers(&mut self, names: &[GLuint]) {
        // SAFETY: the context is current; `names` holds the count passed.
        unsafe { (self.f.delete_buffers)(names.len() as GLsizei, names.as_ptr()) }
    }
    fn delete_textures(&mut self, names: &[GLuint]) {
        // SAFETY: the context is current; `names` holds the count passed.
        unsafe { (self.f.delete_textures)(names.len() as GLsizei, names.as_ptr()) }
    }
}

/// A desktop GLSL source as OpenGL ES 3.2 compiles it: `#version 320 es` and high precision
/// for floats, integers and 2D samplers in place of a `#version 3xx/4xx core` line (the
/// bench scenes' shaders use nothing else that differs); other sources unchanged.
fn es_shader(source: &str) -> String {
    let (first, rest) = source.split_once('\n').unwrap_or((source, ""));
    if first.starts_with("#version") && first.ends_with(" core") {
        format!(
            "#version 320 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n{rest}"
        )
    } else {
        source.to_owned()
    }
}

impl NativeGl {
    fn has_element_buffer(&mut self) -> bool {
        let mut v = [0];
        self.get_integerv(ELEMENT_ARRAY_BUFFER_BINDING, &mut v);
        v[0] != 0
    }
}

// ---------------------------------------------------------------------------------------
// The native context

type EglDisplay = *mut c_void;
type EglConfig = *mut c_void;
type EglContext = *mut c_void;
type EglSurface = *mut c_void;

const EGL_PLATFORM_SURFACELESS_MESA: u32 = 0x31DD;
const EGL_SURFACE_TYPE: i32 = 0x3033;
const EGL_PBUFFER_BIT: i32 = 0x0001;
const EGL_RENDERABLE_TYPE: i32 = 0x3040;
const EGL_OPENGL_BIT: i32 = 0x0008;
const EGL_RED_SIZE: i32 = 0x3024;
const EGL_GREEN_SIZE: i32 = 0x3023;
const EGL_BLUE_SIZE: i32 = 0x3022;
const EGL_ALPHA_SIZE: i32 = 0x3021;
const EGL_DEPTH_SIZE: i32 = 0x3025;
const EGL_STENCIL_SIZE: i32 = 0x3026;
const EGL_WIDTH: i32 = 0x3057;
const EGL_HEIGHT: i32 = 0x3056;
const EGL_NONE: i32 = 0x3038;
const EGL_OPENGL_API: u32 = 0x30A2;
const EGL_OPENGL_ES_API: u32 = 0x30A0;
const EGL_OPENGL_ES3_BIT: i32 = 0x0040;
const EGL_CONTEXT_MAJOR_VERSION: i32 = 0x3098;
const EGL_CONTEXT_MINOR_VERSION: i32 = 0x30FB;
const EGL_CONTEXT_OPENGL_PROFILE_MASK: i32 = 0x30FD;
const EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT: i32 = 0x1;

struct NativeEgl {
    lib: libloading::Library,
    get_proc_address: unsafe extern "system" fn(*const u8) -> *const c_void,
}

impl NativeEgl {
    fn open() -> Result<Self, String> {
        // By full path: a test process may have Tessera's own drop-in libEGL on its library
        // path, and the oracle must be the system's.
        let path = [
            "/usr/lib/x86_64-linux-gnu/libEGL.so.1",
            "/usr/lib64/libEGL.so.1",
            "/usr/lib/libEGL.so.1",
        ]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .ok_or("no system libEGL.so.1 (Debian package libegl1)")?;
        Self::open_at(path)
    }

    /// The EGL of the library at `path`.
    fn open_at(path: &str) -> Result<Self, String> {
        // Never unloaded (RTLD_NODELETE): EGL and the driver it loads leave thread-specific
        // data whose destructors run at each thread's exit; if the last NativeGl of the
        // process closed the library first, a test thread exiting later would call into
        // unmapped code (a SIGSEGV in __nptl_deallocate_tsd, seen with parallel tests).
        let flags = libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_NODELETE;
        // SAFETY: loading the system EGL runs its initialisers, which have no preconditions.
        let lib = unsafe { libloading::os::unix::Library::open(Some(path), flags) }
            .map(libloading::Library::from)
            .map_err(|e| e.to_string())?;
        // SAFETY: eglGetProcAddress has this C signature in every EGL.
        let get_proc_address = unsafe {
            *lib.get::<unsafe extern "system" fn(*const u8) -> *const c_void>(
                b"eglGetProcAddress\0",
            )
            .map_err(|e| e.to_string())?
        };
        Ok(Self {
            lib,
            get_proc_address,
        })
    }

    /// A function pointer of type `F` for `name` (an EGL function from the library, a GL
    /// function through eglGetProcAddress).
    fn proc<F: Copy>(&self, name: &str) -> Result<F, String> {
        let c = CString::new(name).map_err(|e| e.to_string())?;
        // SAFETY: a NUL-terminated name; the result is checked for null below.
        let mut p = unsafe { (self.get_proc_address)(c.as_ptr().cast()) };
        if p.is_null() {
            // SAFETY: looking a symbol up has no preconditions.
            p = unsafe { self.lib.get::<*const c_void>(c.as_bytes_with_nul()) }
                .map(|s| *s)
                .unwrap_or(std::ptr::null());
        }
        if p.is_null() {
            return Err(format!("the native driver has no {name}"));
        }
        debug_assert_eq!(size_of::<F>(), size_of::<*const c_void>());
        // SAFETY: `F` is a function pointer type matching the C signature of `name` (callers
        // name each symbol with its exact type), and `p` is non-null.
        Ok(unsafe { std::mem::transmute_copy::<*const c_void, F>(&p) })
    }
}

/// A native desktop OpenGL 3.3 core context (or an OpenGL ES 3.2 one, [`NativeGl::new_es`])
/// with a `width` x `height` RGBA8 pbuffer (24-bit depth, 8-bit stencil) as its default
/// framebuffer, current on the creating thread.
pub struct NativeGl {
    f: NativeFns,
    egl: NativeEgl,
    display: EglDisplay,
    context: EglContext,
    surface: EglSurface,
    /// Whether the context is an OpenGL ES 3.2 one ([`NativeGl::new_es`]).
    es: bool,
    /// Keeps the type off other threads: the context is current on this one.
    _not_send: std::marker::PhantomData<*const ()>,
}

impl NativeGl {
    /// Creates the native context, or says why the system cannot.
    pub fn new(width: i32, height: i32) -> Result<Self, String> {
        Self::create(width, height, false)
    }

    /// [`NativeGl::new`] with Mesa's on-disk shader cache off for this context, so every
    /// program is linked by Mesa's linker. A program Mesa finds in its cache is restored
    /// from the cache's copy, and some answers differ from the linker's: a `gl_NextBuffer`'s
    /// `TRANSFORM_FEEDBACK_BUFFER_INDEX` reads 0 instead of the buffer it ends. The cache is
    /// shared by every process of the machine, so whether a test's program is in it depends
    /// on what ran before. Mesa reads the switch when it makes the context's screen, so it
    /// is set only around that. Program binaries need the cache: Mesa refuses to load one
    /// without it.
    pub fn new_linked_fresh(width: i32, height: i32) -> Result<Self, String> {
        const SWITCH: &str = "MESA_SHADER_CACHE_DISABLE";
        let before = std::env::var_os(SWITCH);
        // SAFETY: set_var races only with concurrent readers of the environment; tests
        // make their native context first, before they start threads (each test runs in
        // a process of its own under nextest).
        unsafe { std::env::set_var(SWITCH, "true") };
        let made = Self::new(width, height);
        // SAFETY: as above.
        unsafe {
            match before {
                Some(v) => std::env::set_var(SWITCH, v),
                None => std::env::remove_var(SWITCH),
            }
        }
        made
    }

    /// A native OpenGL ES 3.2 context instead (the benchmark's `raw-gles` floor: what the
    /// GLES backend's driver costs called directly), on the same kind of pbuffer. Shader
    /// sources written for desktop GL reach the driver with an ES version line and precisions.
    pub fn new_es(width: i32, height: i32) -> Result<Self, String> {
        Self::create(width, height, true)
    }

    /// A desktop OpenGL 3.3 core context made through the EGL library at `egl` instead of
    /// the system's: Tessera's drop-in `libEGL`, so that a scene written against [`Gl`]
    /// runs through the C ABI a program links against.
    pub fn through(egl: &std::path::Path, width: i32, height: i32) -> Result<Self, String> {
        let path = egl.to_str().ok_or("a library path that is not UTF-8")?;
        Self::create_with(NativeEgl::open_at(path)?, width, height, false)
    }

    /// `eglSwapBuffers` of the pbuffer (a frame's end; on Tessera's drop-in, a `Present`).
    pub fn swap_buffers(&mut self) -> bool {
        type SwapBuffers = unsafe extern "system" fn(EglDisplay, EglSurface) -> u32;
        let Ok(swap) = self.egl.proc::<SwapBuffers>("eglSwapBuffers") else {
            return false;
        };
        // SAFETY: the display and surface are this context's, alive while `self` is.
        unsafe { swap(self.display, self.surface) != 0 }
    }

    fn create(width: i32, height: i32, es: bool) -> Result<Self, String> {
        Self::create_with(NativeEgl::open()?, width, height, es)
    }

    fn create_with(egl: NativeEgl, width: i32, height: i32, es: bool) -> Result<Self, String> {
        crate::ensure_runtime_dir();
        type GetPlatformDisplay =
            unsafe extern "system" fn(u32, *mut c_void, *const isize) -> EglDisplay;
        type Initialize = unsafe extern "system" fn(EglDisplay, *mut i32, *mut i32) -> u32;
        type BindApi = unsafe extern "system" fn(u32) -> u32;
        type ChooseConfig =
            unsafe extern "system" fn(EglDisplay, *const i32, *mut EglConfig, i32, *mut i32) -> u32;
        type CreatePbuffer =
            unsafe extern "system" fn(EglDisplay, EglConfig, *const i32) -> EglSurface;
        type CreateContext =
            unsafe extern "system" fn(EglDisplay, EglConfig, EglContext, *const i32) -> EglContext;
        type MakeCurrent =
            unsafe extern "system" fn(EglDisplay, EglSurface, EglSurface, EglContext) -> u32;
        let get_platform_display: GetPlatformDisplay = egl.proc("eglGetPlatformDisplay")?;
        let initialize: Initialize = egl.proc("eglInitialize")?;
        let bind_api: BindApi = egl.proc("eglBindAPI")?;
        let choose_config: ChooseConfig = egl.proc("eglChooseConfig")?;
        let create_pbuffer: CreatePbuffer = egl.proc("eglCreatePbufferSurface")?;
        let create_context: CreateContext = egl.proc("eglCreateContext")?;
        let make_current: MakeCurrent = egl.proc("eglMakeCurrent")?;
        // SAFETY: each EGL pointer below was loaded for its symbol with its C signature;
        // attribute lists are EGL_NONE-terminated arrays that outlive the calls;
        // out-parameters point to live locals; failures are checked before use.
        unsafe {
            let display = get_platform_display(
                EGL_PLATFORM_SURFACELESS_MESA,
                std::ptr::null_mut(),
                std::ptr::null(),
            );
            if display.is_null() {
                return Err("no surfaceless EGL display (Debian package libegl-mesa0)".into());
            }
            let (mut major, mut minor) = (0, 0);
            if initialize(display, &mut major, &mut minor) == 0 {
                return Err("eglInitialize failed".into());
            }
            let (api, renderable) = if es {
                (EGL_OPENGL_ES_API, EGL_OPENGL_ES3_BIT)
            } else {
                (EGL_OPENGL_API, EGL_OPENGL_BIT)
            };
            if bind_api(api) == 0 {
                return Err("the system EGL has no such API".into());
            }
            let attribs = [
                EGL_SURFACE_TYPE,
                EGL_PBUFFER_BIT,
                EGL_RENDERABLE_TYPE,
                renderable,
                EGL_RED_SIZE,
                8,
                EGL_GREEN_SIZE,
                8,
                EGL_BLUE_SIZE,
                8,
                EGL_ALPHA_SIZE,
                8,
                EGL_DEPTH_SIZE,
                24,
                EGL_STENCIL_SIZE,
                8,
                EGL_NONE,
            ];
            let mut config: EglConfig = std::ptr::null_mut();
            let mut count = 0;
            if choose_config(display, attribs.as_ptr(), &mut config, 1, &mut count) == 0
                || count < 1
            {
                return Err("no RGBA8 + depth/stencil pbuffer config".into());
            }
            let surface = create_pbuffer(
                display,
                config,
                [EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE].as_ptr(),
            );
            if surface.is_null() {
                return Err("eglCreatePbufferSurface failed".into());
            }
            let ctx_attribs = if es {
                [
                    EGL_CONTEXT_MAJOR_VERSION,
                    3,
                    EGL_CONTEXT_MINOR_VERSION,
                    2,
                    EGL_NONE,
                    EGL_NONE,
                    EGL_NONE,
                ]
            } else {
                [
                    EGL_CONTEXT_MAJOR_VERSION,
                    3,
                    EGL_CONTEXT_MINOR_VERSION,
                    3,
                    EGL_CONTEXT_OPENGL_PROFILE_MASK,
                    EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                    EGL_NONE,
                ]
            };
            let context =
                create_context(display, config, std::ptr::null_mut(), ctx_attribs.as_ptr());
            if context.is_null() {
                return Err(if es {
                    "no OpenGL ES 3.2 context".into()
                } else {
                    "no desktop GL 3.3 core context".into()
                });
            }
            if make_current(display, surface, surface, context) == 0 {
                return Err("eglMakeCurrent failed".into());
            }
            let f = NativeFns::load(&egl)?;
            Ok(Self {
                f,
                egl,
                display,
                context,
                surface,
                es,
                _not_send: std::marker::PhantomData,
            })
        }
    }

    /// `glGetIntegeri_v` of one value (GL 4.3's indexed limits and bindings).
    pub fn get_integer_index(&mut self, target: GLenum, index: GLuint) -> GLint {
        type F = unsafe extern "system" fn(GLenum, GLuint, *mut GLint);
        let Ok(f) = self.egl.proc::<F>("glGetIntegeri_v") else {
            return 0;
        };
        let mut v = 0;
        // SAFETY: the context is current on this thread (the type is not Send); the
        // queries asked write one value at most.
        unsafe { f(target, index, &mut v) };
        v
    }

    /// `glGetProgramiv(COMPUTE_WORK_GROUP_SIZE)`: three values (GL 4.3).
    pub fn compute_work_group_size(&mut self, program: GLuint) -> [GLint; 3] {
        let mut v = [0; 3];
        // SAFETY: the context is current; the query writes three values at most.
        unsafe { (self.f.get_programiv)(program, COMPUTE_WORK_GROUP_SIZE, v.as_mut_ptr()) };
        v
    }

    /// `glGetProgramResourceIndex` (GL 4.3).
    pub fn program_resource_index(
        &mut self,
        program: GLuint,
        interface: GLenum,
        name: &str,
    ) -> GLuint {
        type F = unsafe extern "system" fn(GLuint, GLenum, *const u8) -> GLuint;
        let (Ok(f), Ok(name)) = (
            self.egl.proc::<F>("glGetProgramResourceIndex"),
            CString::new(name),
        ) else {
            return INVALID_INDEX;
        };
        // SAFETY: the context is current; a NUL-terminated name, read during the call.
        unsafe { f(program, interface, name.as_ptr().cast()) }
    }

    /// `glGetProgramInterfaceiv` (GL 4.3): the value, -1 if the driver lacks the function.
    pub fn program_interface(
        &mut self,
        program: GLuint,
        interface: GLenum,
        pname: GLenum,
    ) -> GLint {
        type F = unsafe extern "system" fn(GLuint, GLenum, GLenum, *mut GLint);
        let Ok(f) = self.egl.proc::<F>("glGetProgramInterfaceiv") else {
            return -1;
        };
        let mut v = -1;
        // SAFETY: the context is current; the query writes one value.
        unsafe { f(program, interface, pname, &mut v) };
        v
    }

    /// `glGetProgramResourceName` (GL 4.3) into a buffer of `buf_size` bytes: the name and
    /// the length written.
    pub fn program_resource_name(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        buf_size: GLsizei,
    ) -> (String, GLsizei) {
        type F = unsafe extern "system" fn(GLuint, GLenum, GLuint, GLsizei, *mut GLsizei, *mut u8);
        let Ok(f) = self.egl.proc::<F>("glGetProgramResourceName") else {
            return (String::new(), -1);
        };
        let mut buf = vec![0xAAu8; buf_size.max(0) as usize + 1];
        let mut length = -1;
        // SAFETY: the context is current; `buf` has room for `buf_size` bytes.
        unsafe {
            f(
                program,
                interface,
                index,
                buf_size,
                &mut length,
                buf.as_mut_ptr(),
            )
        };
        let end = buf.iter().position(|&b| b == 0).unwrap_or(0);
        (String::from_utf8_lossy(&buf[..end]).into_owned(), length)
    }

    /// `glGetProgramResourceiv` (GL 4.3) into `buf_size` values: the first `buf_size`
    /// values of a list that starts at -7, and the length reported.
    pub fn program_resource(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        props: &[GLenum],
        buf_size: GLsizei,
    ) -> (Vec<GLint>, GLsizei) {
        type F = unsafe extern "system" fn(
            GLuint,
            GLenum,
            GLuint,
            GLsizei,
            *const GLenum,
            GLsizei,
            *mut GLsizei,
            *mut GLint,
        );
        let Ok(f) = self.egl.proc::<F>("glGetProgramResourceiv") else {
            return (Vec::new(), -1);
        };
        // Room past `buf_size`: Mesa writes every ACTIVE_VARIABLES value whatever the size.
        let mut v = vec![-7; buf_size.max(0) as usize + 256];
        let mut length = -1;
        // SAFETY: the context is current; `props` holds its length of values, `v` has room
        // for `buf_size` and for all the active variables of any block of the tests.
        unsafe {
            f(
                program,
                interface,
                index,
                props.len() as GLsizei,
                props.as_ptr(),
                buf_size,
                &mut length,
                v.as_mut_ptr(),
            )
        };
        v.truncate(buf_size.max(0) as usize);
        (v, length)
    }

    /// `glGetProgramResourceLocation` (GL 4.3), or with `index`
    /// `glGetProgramResourceLocationIndex`.
    pub fn program_resource_location(
        &mut self,
        program: GLuint,
        interface: GLenum,
        name: &str,
        index: bool,
    ) -> GLint {
        type F = unsafe extern "system" fn(GLuint, GLenum, *const u8) -> GLint;
        let entry = if index {
            "glGetProgramResourceLocationIndex"
        } else {
            "glGetProgramResourceLocation"
        };
        let (Ok(f), Ok(name)) = (self.egl.proc::<F>(entry), CString::new(name)) else {
            return -2;
        };
        // SAFETY: the context is current; a NUL-terminated name, read during the call.
        unsafe { f(program, interface, name.as_ptr().cast()) }
    }

    /// `glMapBufferRange(target, 0, length, MAP_READ_BIT)`, the mapping left in place.
    pub fn map_for_reading(&mut self, target: GLenum, length: usize) {
        // SAFETY: the context is current; the returned pointer is not used.
        unsafe { (self.f.map_buffer_range)(target, 0, length as isize, MAP_READ_BIT) };
    }

    /// `glUnmapBuffer`.
    pub fn unmap(&mut self, target: GLenum) {
        // SAFETY: the context is current.
        unsafe { (self.f.unmap_buffer)(target) };
    }

    /// The native driver's entry point `name` as a function pointer of type `F`, for the
    /// calls of a test's own table (`F` must be the function's exact C signature, and the
    /// pointer is called only while this context is current, on this thread).
    pub fn entry_point<F: Copy>(&self, name: &str) -> Result<F, String> {
        self.egl.proc(name)
    }

    /// The native `EGLDisplay` and `EGLContext`, for a backend that shares with the context
    /// (`tessera_backend_gles::HostEgl`).
    pub fn egl_handles(&self) -> (*mut c_void, *mut c_void) {
        (self.display, self.context)
    }

    /// Releases the context from this thread (`eglMakeCurrent` with `EGL_NO_CONTEXT`), or
    /// makes it (with its pbuffer) current again.
    pub fn set_current(&self, current: bool) -> Result<(), String> {
        type MakeCurrent =
            unsafe extern "system" fn(EglDisplay, EglSurface, EglSurface, EglContext) -> u32;
        let make_current: MakeCurrent = self.egl.proc("eglMakeCurrent")?;
        let (surface, context) = if current {
            (self.surface, self.context)
        } else {
            (std::ptr::null_mut(), std::ptr::null_mut())
        };
        // SAFETY: the display, surface and context are this value's live objects (or none),
        // used on the thread that made them (the type is not Send).
        if unsafe { make_current(self.display, surface, surface, context) } == 0 {
            return Err("eglMakeCurrent failed".into());
        }
        Ok(())
    }

    /// The extensions the native context advertises (`glGetStringi(EXTENSIONS, i)`).
    pub fn extensions(&mut self) -> Vec<String> {
        type GetStringi = unsafe extern "system" fn(GLenum, GLuint) -> *const u8;
        let Ok(get_stringi) = self.egl.proc::<GetStringi>("glGetStringi") else {
            return Vec::new();
        };
        let mut n = [0];
        self.get_integerv(NUM_EXTENSIONS, &mut n);
        (0..n[0].max(0) as GLuint)
            .filter_map(|i| {
                // SAFETY: the context is current on this thread (the type is not Send) and
                // `i` is below NUM_EXTENSIONS; the driver returns a NUL-terminated string
                // that lives as long as the context, copied here at once.
                let p = unsafe { get_stringi(EXTENSIONS, i) };
                (!p.is_null()).then(|| {
                    // SAFETY: as above: non-null and NUL-terminated.
                    let s = unsafe { std::ffi::CStr::from_ptr(p.cast()) };
                    s.to_string_lossy().into_owned()
                })
            })
            .collect()
    }
}

impl Drop for NativeGl {
    fn drop(&mut self) {
        type MakeCurrent =
            unsafe extern "system" fn(EglDisplay, EglSurface, EglSurface, EglContext) -> u32;
        type DestroyContext = unsafe extern "system" fn(EglDisplay, EglContext) -> u32;
        type DestroySurface = unsafe extern "system" fn(EglDisplay, EglSurface) -> u32;
        let (Ok(make_current), Ok(destroy_context), Ok(destroy_surface)) = (
            self.egl.proc::<MakeCurrent>("eglMakeCurrent"),
            self.egl.proc::<DestroyContext>("eglDestroyContext"),
            self.egl.proc::<DestroySurface>("eglDestroySurface"),
        ) else {
            return;
        };
        // SAFETY: releasing and destroying the objects this value created, on the thread they
        // are current on.
        unsafe {
            make_current(
                self.display,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            );
            destroy_context(self.display, self.context);
            destroy_surface(self.display, self.surface);
        }
    }
}

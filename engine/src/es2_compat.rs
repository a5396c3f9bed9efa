//! GL 4.1's `ARB_ES2_compatibility` calls that have no state of their own:
//! `glReleaseShaderCompiler`, `glShaderBinary` and `glGetShaderPrecisionFormat`.
//!
//! The rest of the extension lives with the state it touches: `glDepthRangef` and
//! `glClearDepthf` (`render_state`), `FIXED` vertex attributes (`vertex_array`; the wire's
//! `AttribType::Fixed`), `RGB565` images (`texture::format`), the vec4 limits,
//! `SHADER_COMPILER` and `NUM_SHADER_BINARY_FORMATS` (`get`), and
//! `IMPLEMENTATION_COLOR_READ_FORMAT`/`_TYPE` (`framebuffer`).

use tessera_components::gl::*;

use crate::context::Context;

/// `glGetShaderPrecisionFormat`'s answer for a precision type: the range's log2 bounds and
/// the precision bits, as Mesa's llvmpipe reports them (its shaders compute in 32-bit
/// floats and integers, and the low and medium types are declared with the range and
/// precision of 16-bit ones).
fn precision(precision_type: GLenum) -> Option<([GLint; 2], GLint)> {
    match precision_type {
        LOW_FLOAT | MEDIUM_FLOAT => Some(([15, 15], 10)),
        HIGH_FLOAT => Some(([127, 127], 23)),
        LOW_INT | MEDIUM_INT => Some(([15, 14], 0)),
        HIGH_INT => Some(([31, 30], 0)),
        _ => None,
    }
}

impl Context {
    /// `glReleaseShaderCompiler`: a hint that Tessera, which compiles on the client with
    /// the front end loaded once per process, has no use for.
    pub fn release_shader_compiler(&mut self) {}

    /// `glShaderBinary`, with Mesa's checks in its order: a negative count or length is
    /// `INVALID_VALUE`, then each name must be a shader (`INVALID_VALUE` for no object,
    /// `INVALID_OPERATION` for a program), then the format: `SHADER_BINARY_FORMAT_SPIR_V`
    /// (`ARB_gl_spirv`, [`crate::gl_spirv`]) is the only one Tessera loads, any other is
    /// `INVALID_ENUM`. `binary` is the C pointer's `length` bytes (`None` for null).
    pub fn shader_binary(
        &mut self,
        count: GLsizei,
        shaders: &[GLuint],
        binary_format: GLenum,
        binary: Option<&[u8]>,
        length: GLsizei,
    ) {
        if count < 0 || length < 0 {
            return self.error(INVALID_VALUE);
        }
        let checked: Result<Vec<_>, _> = {
            let sh = self.group.lock();
            shaders
                .iter()
                .take(count as usize)
                .map(|&s| Self::shader_entity(&sh, s))
                .collect()
        };
        let entities = match checked {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        if binary_format == SHADER_BINARY_FORMAT_SPIR_V {
            self.spirv_shader_binary(&entities, binary);
        } else {
            self.error(INVALID_ENUM);
        }
    }

    /// `glGetShaderPrecisionFormat`: the vertex and fragment stages' ranges and precisions
    /// ([`precision`]); any other stage or type is `INVALID_ENUM` and writes nothing.
    pub fn get_shader_precision_format(
        &mut self,
        shader_type: GLenum,
        precision_type: GLenum,
        range: &mut [GLint],
        bits: Option<&mut GLint>,
    ) {
        if !matches!(shader_type, VERTEX_SHADER | FRAGMENT_SHADER) {
            return self.error(INVALID_ENUM);
        }
        let Some((r, p)) = precision(precision_type) else {
            return self.error(INVALID_ENUM);
        };
        for (o, v) in range.iter_mut().zip(r) {
            *o = v;
        }
        if let Some(b) = bits {
            *b = p;
        }
    }
}

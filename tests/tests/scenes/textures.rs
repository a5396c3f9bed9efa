//! Texture sampling scenes on the 2D target, and the helpers every module of this group
//! (`targets`, `framebuffers`, `readback`) shares. The scenes live in submodules by
//! concern: `filtering` (magnification filters, wrap modes, swizzle, sampler objects,
//! several units, incomplete textures), `levels` (mipmap filters, explicit and generated
//! levels, LOD clamps, lookup functions), `depth` (depth textures with and without compare)
//! and `formats` (integer textures, the unpack state and format/type pairs of uploads).
//!
//! Every scene draws one full-screen quad whose `uv` runs from 0 to 1 across the
//! framebuffer, so a pixel's centre samples at `uv = (x + 0.5) / width`. Probes sit where the
//! sampled value is exact: texel centres or whole texels for NEAREST, and linear weights that
//! are multiples of 1/16 on texel values that are multiples of 16 (llvmpipe filters unorm8
//! with 8-bit weights, so these blends have no rounding).

mod depth;
mod filtering;
mod formats;
mod levels;

use tessera_engine::gl::*;
use tessera_tests::differential::{Probe, probe};
use tessera_tests::gl::Gl;

// ---------------------------------------------------------------------------------------
// Helpers shared by the group's scenes

/// Passes `pos` through and derives `uv` (0..1 across the quad).
pub(super) const VS: &str = "#version 330 core
layout(location = 0) in vec2 pos;
out vec2 uv;
void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }
";

/// Like [`VS`], with `uniform vec4 xf` placing the quad: `pos * xf.xy + xf.zw`.
pub(super) const VS_XF: &str = "#version 330 core
layout(location = 0) in vec2 pos;
uniform vec4 xf;
out vec2 uv;
void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos * xf.xy + xf.zw, 0.0, 1.0); }
";

/// Like [`VS`], with `uv` running from -1 to 2 (three periods of a texture).
const VS_WIDE: &str = "#version 330 core
layout(location = 0) in vec2 pos;
out vec2 uv;
void main() { uv = (pos * 0.5 + 0.5) * 3.0 - 1.0; gl_Position = vec4(pos, 0.0, 1.0); }
";

/// Samples `tex` at `uv`.
pub(super) const FS_SAMPLE: &str = "#version 330 core
uniform sampler2D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = texture(tex, uv); }
";

/// Compiles and links `vs` + `fs`, asserting success with the logs.
pub(super) fn program(gl: &mut dyn Gl, vs: &str, fs: &str) -> GLuint {
    tessera_tests::scenes::link_program(gl, vs, fs)
}

/// Binds a new vertex array holding the full-screen quad (a 4-vertex strip at attribute 0).
pub(super) fn quad(gl: &mut dyn Gl) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let bytes = floats(&[-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]);
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
}

/// Draws the quad of [`quad`].
pub(super) fn draw_quad(gl: &mut dyn Gl) {
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
}

/// Links [`VS`] + `fs`, uses it and binds the quad; returns the program.
pub(super) fn full_screen(gl: &mut dyn Gl, fs: &str) -> GLuint {
    let p = program(gl, VS, fs);
    gl.use_program(p);
    quad(gl);
    p
}

/// Sets the sampler uniform `name` of the current program `p` to `unit`.
pub(super) fn sampler_unit(gl: &mut dyn Gl, p: GLuint, name: &str, unit: GLint) {
    let loc = gl.get_uniform_location(p, name);
    assert!(loc >= 0, "no uniform {name}");
    gl.uniform1i(loc, unit);
}

/// A new texture bound to `target` on the active unit, with NEAREST filters.
pub(super) fn texture(gl: &mut dyn Gl, target: GLenum) -> GLuint {
    let t = gl.gen_texture();
    gl.bind_texture(target, t);
    gl.tex_parameteri(target, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.tex_parameteri(target, TEXTURE_MAG_FILTER, NEAREST as GLint);
    t
}

/// A new RGBA8 2D texture (NEAREST) with `texels`, bottom row first.
pub(super) fn rgba_texture(gl: &mut dyn Gl, width: i32, height: i32, texels: &[[u8; 4]]) -> GLuint {
    let t = texture(gl, TEXTURE_2D);
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        width,
        height,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&texels.concat()),
    );
    t
}

/// Little-endian bytes of `values`.
pub(super) fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// `n` copies of one RGBA8 texel.
pub(super) fn solid(rgba: [u8; 4], n: usize) -> Vec<u8> {
    rgba.iter().copied().cycle().take(n * 4).collect()
}

/// Probes at the centres of a `cols` x `rows` grid of `cell`-pixel blocks, with the colour
/// `at(col, row)`.
pub(super) fn grid(
    cols: i32,
    rows: i32,
    cell: i32,
    at: impl Fn(i32, i32) -> [u8; 4],
) -> Vec<Probe> {
    (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (c, r)))
        .map(|(c, r)| probe(c * cell + cell / 2, r * cell + cell / 2, at(c, r)))
        .collect()
}

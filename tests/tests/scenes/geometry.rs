//! Geometry scenes: what reaches the rasterizer. Each topology, indexed draws over every
//! index type, base vertex, primitive restart, instancing with divisors, the attribute
//! formats (integer, normalized, interleaved, generic values of disabled arrays) and face
//! culling.
//!
//! Coordinates are chosen in pixels of a 32 x 32 framebuffer and converted to NDC, with
//! edges on pixel boundaries (or lines and points on pixel centres) so that every probed
//! pixel centre lies well inside or outside a primitive. The helpers here are shared by the
//! other modules of this group (`state`, `uniforms`).

use tessera_engine::gl::*;
use tessera_tests::differential::{check, probe};
use tessera_tests::gl::Gl;

/// Side of the framebuffer of every scene in this group.
pub(super) const W: i32 = 32;

/// The NDC coordinate of pixel-space coordinate `p` (0 = left/bottom edge, `W` = right/top).
pub(super) fn ndc(p: f32) -> f32 {
    p * 2.0 / W as f32 - 1.0
}

/// Little-endian bytes of `values` with the element encoder `f` (`f32::to_le_bytes`, ...).
pub(super) fn le<T: Copy, const N: usize>(values: &[T], f: fn(T) -> [u8; N]) -> Vec<u8> {
    values.iter().flat_map(|&v| f(v)).collect()
}

/// A colour as the floats that convert back to exactly these RGBA8 values.
pub(super) fn unorm(c: [u8; 4]) -> [f32; 4] {
    c.map(|v| f32::from(v) / 255.0)
}

/// Compiles and links a program; panics with the logs on failure (scenes use valid shaders).
pub(super) fn program(gl: &mut dyn Gl, vs: &str, fs: &str) -> GLuint {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, vs), (FRAGMENT_SHADER, fs)] {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        assert_eq!(gl.get_shaderi(s, COMPILE_STATUS), TRUE as i32, "{}\n{src}", gl.shader_info_log(s));
        gl.attach_shader(p, s);
        gl.delete_shader(s);
    }
    gl.link_program(p);
    assert_eq!(gl.get_programi(p, LINK_STATUS), TRUE as i32, "{}", gl.program_info_log(p));
    p
}

/// A new buffer bound to `target` holding `data`.
pub(super) fn buffer(gl: &mut dyn Gl, target: GLenum, data: &[u8]) -> GLuint {
    let b = gl.gen_buffer();
    gl.bind_buffer(target, b);
    gl.buffer_data(target, data.len(), Some(data), STATIC_DRAW);
    b
}

/// A new vertex array, bound.
pub(super) fn vertex_array(gl: &mut dyn Gl) -> GLuint {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    vao
}

/// Two triangles covering the pixel rectangle [x0, x1) x [y0, y1) at depth `z`, as xyz.
pub(super) fn rect(x0: f32, y0: f32, x1: f32, y1: f32, z: f32) -> Vec<f32> {
    let (a, b, c, d) = (ndc(x0), ndc(y0), ndc(x1), ndc(y1));
    vec![a, b, z, c, b, z, c, d, z, a, b, z, c, d, z, a, d, z]
}

/// Vertex shader of [`Painter`]: an xyz position at location 0.
pub(super) const POSITION_VS: &str = "#version 330 core
layout(location = 0) in vec3 position;
void main() { gl_Position = vec4(position, 1.0); }
";

/// Fragment shader of [`Painter`]: one uniform colour.
pub(super) const COLOR_FS: &str = "#version 330 core
uniform vec4 color;
out vec4 frag;
void main() { frag = color; }
";

/// Fills pixel rectangles with flat colours: a program, a vertex array and a buffer that
/// each [`Painter::fill`] refills.
pub(super) struct Painter {
    program: GLuint,
    color: GLint,
    vao: GLuint,
    buf: GLuint,
}

impl Painter {
    /// Creates the program and vertex array (leaves them bound).
    pub(super) fn new(gl: &mut dyn Gl) -> Self {
        let program = program(gl, POSITION_VS, COLOR_FS);
        let color = gl.get_uniform_location(program, "color");
        let vao = vertex_array(gl);
        let buf = buffer(gl, ARRAY_BUFFER, &[0; 4]);
        gl.vertex_attrib_pointer(0, 3, FLOAT, false, 0, 0);
        gl.enable_vertex_attrib_array(0);
        Self { program, color, vao, buf }
    }

    /// Draws the pixel rectangle [x0, x1) x [y0, y1) at depth `z` in `rgba`
    /// (counter-clockwise).
    pub(super) fn fill(&self, gl: &mut dyn Gl, [x0, y0, x1, y1]: [i32; 4], z: f32, rgba: [u8; 4]) {
        self.draw(gl, &rect(x0 as f32, y0 as f32, x1 as f32, y1 as f32, z), rgba);
    }

    /// As [`Painter::fill`], with clockwise triangles.
    pub(super) fn fill_cw(&self, gl: &mut dyn Gl, [x0, y0, x1, y1]: [i32; 4], z: f32, rgba: [u8; 4]) {
        let v = rect(x0 as f32, y0 as f32, x1 as f32, y1 as f32, z);
        let reversed: Vec<f32> = v.chunks(3).rev().flatten().copied().collect();
        self.draw(gl, &reversed, rgba);
    }

    /// Draws triangles given as xyz NDC coordinates in `rgba`.
    pub(super) fn draw(&self, gl: &mut dyn Gl, xyz: &[f32], rgba: [u8; 4]) {
        gl.use_program(self.program);
        gl.bind_vertex_array(self.vao);
        gl.bind_buffer(ARRAY_BUFFER, self.buf);
        gl.buffer_data(ARRAY_BUFFER, xyz.len() * 4, Some(&le(xyz, f32::to_le_bytes)), STREAM_DRAW);
        let [r, g, b, a] = unorm(rgba);
        gl.uniform4f(self.color, r, g, b, a);
        gl.draw_arrays(TRIANGLES, 0, (xyz.len() / 3) as GLsizei);
    }
}

/// Clears the colour buffer to `rgba` (and depth to 1, stencil to 0).
pub(super) fn clear(gl: &mut dyn Gl, rgba: [u8; 4]) {
    let [r, g, b, a] = unorm(rgba);
    gl.clear_color(r, g, b, a);
    gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT | STENCIL_BUFFER_BIT);
}

/// Background of most scenes.
pub(super) const BG: [u8; 4] = [0, 0, 64, 255];
/// Opaque red.
pub(super) const RED: [u8; 4] = [255, 0, 0, 255];
/// Opaque green.
pub(super) const GREEN: [u8; 4] = [0, 255, 0, 255];
/// Opaque blue.
pub(super) const BLUE: [u8; 4] = [0, 0, 255, 255];
/// Opaque yellow.
pub(super) const YELLOW: [u8; 4] = [255, 255, 0, 255];

/// A program drawing xy positions (location 0) in a uniform colour, with a vertex array
/// reading attribute 0 as two floats from a new buffer of `xy` pixel coordinates.
fn flat_xy(gl: &mut dyn Gl, xy: &[f32], rgba: [u8; 4]) -> GLuint {
    let p = program(gl, POSITION_VS, COLOR_FS);
    gl.use_program(p);
    let loc = gl.get_uniform_location(p, "color");
    let [r, g, b, a] = unorm(rgba);
    gl.uniform4f(loc, r, g, b, a);
    vertex_array(gl);
    let v: Vec<f32> = xy.iter().map(|&c| ndc(c)).collect();
    buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
    p
}

#[test]
fn triangle() {
    check(
        "geometry_triangle",
        W,
        W,
        |gl| {
            clear(gl, BG);
            flat_xy(gl, &[4.0, 4.0, 28.0, 4.0, 4.0, 28.0], [255, 128, 0, 255]);
            gl.draw_arrays(TRIANGLES, 0, 3);
        },
        &[probe(6, 6, [255, 128, 0, 255]), probe(14, 14, [255, 128, 0, 255]), probe(20, 20, BG), probe(2, 2, BG)],
    );
}

const COLOR_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
layout(location = 1) in vec4 color;
out vec4 v_color;
void main() { v_color = color; gl_Position = vec4(position, 0.0, 1.0); }
";
const COLOR_VARYING_FS: &str = "#version 330 core
in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
";

#[test]
fn smooth_varyings() {
    // Red runs from -4/255 at the left edge to 252/255 at the right: at pixel centre
    // x + 0.5 it is exactly 8x/255. Green runs the same way from bottom to top.
    check(
        "geometry_smooth_varyings",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, COLOR_VS, COLOR_VARYING_FS);
            gl.use_program(p);
            vertex_array(gl);
            let (lo, hi) = (-4.0 / 255.0, 252.0 / 255.0);
            #[rustfmt::skip]
            let v: [f32; 24] = [
                -1.0, -1.0, lo, lo, 0.0, 1.0,
                1.0, -1.0, hi, lo, 0.0, 1.0,
                -1.0, 1.0, lo, hi, 0.0, 1.0,
                1.0, 1.0, hi, hi, 0.0, 1.0,
            ];
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 24, 0);
            gl.vertex_attrib_pointer(1, 4, FLOAT, false, 24, 8);
            gl.enable_vertex_attrib_array(0);
            gl.enable_vertex_attrib_array(1);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        &[
            probe(0, 0, [0, 0, 0, 255]),
            probe(31, 0, [248, 0, 0, 255]),
            probe(16, 5, [128, 40, 0, 255]),
            probe(3, 31, [24, 248, 0, 255]),
            probe(20, 12, [160, 96, 0, 255]),
        ],
    );
}

const FLAT_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
layout(location = 1) in vec4 color;
flat out vec4 v_color;
void main() { v_color = color; gl_Position = vec4(position, 0.0, 1.0); }
";
const FLAT_FS: &str = "#version 330 core
flat in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
";

#[test]
fn flat_last_vertex() {
    // A flat output takes the value of the provoking vertex: the last one by default.
    check(
        "geometry_flat_last_vertex",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, FLAT_VS, FLAT_FS);
            gl.use_program(p);
            vertex_array(gl);
            let (a, b, c, d) = (ndc(2.0), ndc(14.0), ndc(18.0), ndc(30.0));
            #[rustfmt::skip]
            let v: [f32; 36] = [
                a, a, 1.0, 0.0, 0.0, 1.0,
                b, a, 0.0, 1.0, 0.0, 1.0,
                a, b, 0.0, 0.0, 1.0, 1.0,
                c, c, 0.0, 0.0, 1.0, 1.0,
                d, c, 1.0, 0.0, 0.0, 1.0,
                c, d, 1.0, 1.0, 0.0, 1.0,
            ];
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 24, 0);
            gl.vertex_attrib_pointer(1, 4, FLOAT, false, 24, 8);
            gl.enable_vertex_attrib_array(0);
            gl.enable_vertex_attrib_array(1);
            gl.draw_arrays(TRIANGLES, 0, 6);
        },
        &[probe(4, 4, BLUE), probe(20, 20, YELLOW), probe(16, 16, BG)],
    );
}

const POINT_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
layout(location = 1) in float size;
void main() { gl_PointSize = size; gl_Position = vec4(position, 0.0, 1.0); }
";

#[test]
fn points_with_program_point_size() {
    // Square points centred on pixel centres (odd sizes) or pixel corners (even sizes).
    check(
        "geometry_points_program_point_size",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(PROGRAM_POINT_SIZE);
            let p = program(gl, POINT_VS, COLOR_FS);
            gl.use_program(p);
            let loc = gl.get_uniform_location(p, "color");
            gl.uniform4f(loc, 1.0, 1.0, 0.0, 1.0);
            vertex_array(gl);
            #[rustfmt::skip]
            let v: [f32; 9] = [
                ndc(8.5), ndc(8.5), 5.0,
                ndc(20.5), ndc(20.5), 1.0,
                ndc(24.0), ndc(8.0), 4.0,
            ];
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 12, 0);
            gl.vertex_attrib_pointer(1, 1, FLOAT, false, 12, 8);
            gl.enable_vertex_attrib_array(0);
            gl.enable_vertex_attrib_array(1);
            gl.draw_arrays(POINTS, 0, 3);
        },
        &[
            probe(8, 8, YELLOW),
            probe(6, 6, YELLOW),
            probe(10, 10, YELLOW),
            probe(11, 8, BG),
            probe(5, 8, BG),
            probe(20, 20, YELLOW),
            probe(21, 20, BG),
            probe(20, 19, BG),
            probe(22, 6, YELLOW),
            probe(25, 9, YELLOW),
            probe(26, 8, BG),
            probe(21, 8, BG),
        ],
    );
}

#[test]
fn lines() {
    // One horizontal and one vertical segment along pixel centres; probes away from the ends.
    check(
        "geometry_lines",
        W,
        W,
        |gl| {
            clear(gl, BG);
            flat_xy(gl, &[2.0, 4.5, 30.0, 4.5, 8.5, 8.0, 8.5, 30.0], GREEN);
            gl.draw_arrays(LINES, 0, 4);
        },
        &[
            probe(15, 4, GREEN),
            probe(15, 5, BG),
            probe(15, 3, BG),
            probe(8, 20, GREEN),
            probe(7, 20, BG),
            probe(9, 20, BG),
        ],
    );
}

/// The corners of a square outline for the strip and the loop, a quarter pixel off the
/// pixel centres of columns 3 and 27 and rows 4 and 27. Not on the centres: Mesa rasterizes
/// its window-system buffers (the native pbuffer) upside down, and a line that starts exactly
/// on a pixel centre then lights that pixel on one side and not on the other (the FBO behind
/// Tessera's default framebuffer).
const OUTLINE: [f32; 8] = [3.25, 4.25, 27.75, 4.25, 27.75, 27.75, 3.25, 27.75];

#[test]
fn line_strip() {
    check(
        "geometry_line_strip",
        W,
        W,
        |gl| {
            clear(gl, BG);
            flat_xy(gl, &OUTLINE, GREEN);
            gl.draw_arrays(LINE_STRIP, 0, 4);
        },
        &[probe(15, 4, GREEN), probe(27, 15, GREEN), probe(15, 27, GREEN), probe(3, 15, BG), probe(15, 15, BG)],
    );
}

#[test]
fn line_loop() {
    // As the strip, plus the closing segment on the left.
    check(
        "geometry_line_loop",
        W,
        W,
        |gl| {
            clear(gl, BG);
            flat_xy(gl, &OUTLINE, GREEN);
            gl.draw_arrays(LINE_LOOP, 0, 4);
        },
        &[probe(15, 4, GREEN), probe(27, 15, GREEN), probe(15, 27, GREEN), probe(3, 15, GREEN), probe(15, 15, BG)],
    );
}

#[test]
fn triangle_strip() {
    // Five vertices: three triangles making a quad [2,16) x [4,20) and a triangle to its
    // lower right.
    check(
        "geometry_triangle_strip",
        W,
        W,
        |gl| {
            clear(gl, BG);
            flat_xy(gl, &[2.0, 4.0, 2.0, 20.0, 16.0, 4.0, 16.0, 20.0, 30.0, 4.0], RED);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 5);
        },
        &[probe(4, 6, RED), probe(14, 18, RED), probe(18, 6, RED), probe(28, 18, BG), probe(10, 24, BG)],
    );
}

#[test]
fn triangle_fan() {
    // A centre and five rim points: four triangles; the gap between the last and first rim
    // point stays empty (a fan does not close).
    check(
        "geometry_triangle_fan",
        W,
        W,
        |gl| {
            clear(gl, BG);
            flat_xy(gl, &[16.0, 16.0, 30.0, 16.0, 30.0, 30.0, 2.0, 30.0, 2.0, 2.0, 16.0, 2.0], BLUE);
            gl.draw_arrays(TRIANGLE_FAN, 0, 6);
        },
        &[probe(26, 20, BLUE), probe(20, 26, BLUE), probe(6, 16, BLUE), probe(10, 5, BLUE), probe(22, 12, BG)],
    );
}

/// A 3 x 3 grid of points at pixel coordinates {2, 16, 30}^2, vertex i at column i % 3, row
/// i / 3, as xy floats.
fn grid() -> Vec<f32> {
    (0..9).flat_map(|i| [[2.0, 16.0, 30.0][i % 3], [2.0, 16.0, 30.0][i / 3]]).collect()
}

/// Indices of the grid's lower-left cell (two triangles) and its upper-right cell.
const GRID_CELLS: [u32; 12] = [0, 1, 4, 0, 4, 3, 4, 5, 8, 4, 8, 7];

/// An indexed draw of [`GRID_CELLS`] with `ty` indices, after `pad` unused indices.
fn indexed(gl: &mut dyn Gl, ty: GLenum, pad: usize) {
    clear(gl, BG);
    flat_xy(gl, &grid(), GREEN);
    let ids: Vec<u32> = std::iter::repeat_n(7, pad).chain(GRID_CELLS).collect();
    let (bytes, size) = match ty {
        UNSIGNED_BYTE => (ids.iter().map(|&i| i as u8).collect(), 1),
        UNSIGNED_SHORT => (le(&ids.iter().map(|&i| i as u16).collect::<Vec<_>>(), u16::to_le_bytes), 2),
        _ => (le(&ids, u32::to_le_bytes), 4),
    };
    buffer(gl, ELEMENT_ARRAY_BUFFER, &bytes);
    gl.draw_elements(TRIANGLES, 12, ty, pad * size);
}

const GRID_PROBES: [tessera_tests::differential::Probe; 4] =
    [probe(8, 8, GREEN), probe(24, 24, GREEN), probe(24, 8, BG), probe(8, 24, BG)];

#[test]
fn indexed_u8() {
    check("geometry_indexed_u8", W, W, |gl| indexed(gl, UNSIGNED_BYTE, 3), &GRID_PROBES);
}

#[test]
fn indexed_u16() {
    check("geometry_indexed_u16", W, W, |gl| indexed(gl, UNSIGNED_SHORT, 2), &GRID_PROBES);
}

#[test]
fn indexed_u32() {
    check("geometry_indexed_u32", W, W, |gl| indexed(gl, UNSIGNED_INT, 1), &GRID_PROBES);
}

const VERTEX_ID_FS: &str = "#version 330 core
flat in int v_id;
out vec4 frag;
void main() { frag = vec4(float(v_id) * 16.0 / 255.0, 0.0, 1.0, 1.0); }
";
const VERTEX_ID_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
flat out int v_id;
void main() { v_id = gl_VertexID; gl_Position = vec4(position, 0.0, 1.0); }
";

#[test]
fn base_vertex() {
    // Eight vertices: a quad on the left (0-3) and one on the right (4-7). The same four
    // indices drawn with base vertex 4 draw the right quad; gl_VertexID includes the base.
    check(
        "geometry_base_vertex",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, VERTEX_ID_VS, VERTEX_ID_FS);
            gl.use_program(p);
            vertex_array(gl);
            let quads: Vec<f32> = [2.0, 18.0]
                .iter()
                .flat_map(|&x0| [x0, 4.0, x0 + 12.0, 4.0, x0, 28.0, x0 + 12.0, 28.0])
                .map(ndc)
                .collect();
            buffer(gl, ARRAY_BUFFER, &le(&quads, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            buffer(gl, ELEMENT_ARRAY_BUFFER, &le(&[9u16, 0, 1, 2, 2, 1, 3], u16::to_le_bytes));
            gl.draw_elements_base_vertex(TRIANGLES, 6, UNSIGNED_SHORT, 2, 4);
        },
        // Last vertices 6 (first triangle) and 7 (second): the lower-right half shows 6.
        &[probe(6, 16, BG), probe(19, 5, [96, 0, 255, 255]), probe(28, 26, [112, 0, 255, 255])],
    );
}

#[test]
fn vertex_id_with_first() {
    // gl_VertexID counts from `first` in draw_arrays.
    check(
        "geometry_vertex_id_first",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, VERTEX_ID_VS, VERTEX_ID_FS);
            gl.use_program(p);
            vertex_array(gl);
            let v: Vec<f32> = [0.0, 0.0, 0.0, 0.0, 2.0, 2.0, 30.0, 2.0, 2.0, 30.0].into_iter().map(ndc).collect();
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            gl.draw_arrays(TRIANGLES, 2, 3);
        },
        &[probe(5, 5, [64, 0, 255, 255]), probe(26, 26, BG)],
    );
}

/// Two quads in a triangle strip separated by the restart index `restart` (of type `ty`):
/// with restart the strip does not join them across the gap [14, 18) x [4, 28).
fn restart_strip(gl: &mut dyn Gl, ty: GLenum, restart: u32) {
    clear(gl, BG);
    let xy = [2.0, 4.0, 14.0, 4.0, 2.0, 28.0, 14.0, 28.0, 18.0, 4.0, 30.0, 4.0, 18.0, 28.0, 30.0, 28.0];
    flat_xy(gl, &xy, GREEN);
    let ids = [0, 1, 2, 3, restart, 4, 5, 6, 7];
    let bytes = match ty {
        UNSIGNED_BYTE => ids.iter().map(|&i| i as u8).collect(),
        UNSIGNED_SHORT => le(&ids.map(|i| i as u16), u16::to_le_bytes),
        _ => le(&ids, u32::to_le_bytes),
    };
    buffer(gl, ELEMENT_ARRAY_BUFFER, &bytes);
    gl.enable(PRIMITIVE_RESTART);
    gl.primitive_restart_index(restart);
    gl.draw_elements(TRIANGLE_STRIP, 9, ty, 0);
}

const RESTART_PROBES: [tessera_tests::differential::Probe; 4] =
    [probe(8, 16, GREEN), probe(24, 16, GREEN), probe(16, 6, BG), probe(16, 26, BG)];

#[test]
fn primitive_restart_u8() {
    check("geometry_primitive_restart_u8", W, W, |gl| restart_strip(gl, UNSIGNED_BYTE, 0xFF), &RESTART_PROBES);
}

#[test]
fn primitive_restart_u16() {
    check("geometry_primitive_restart_u16", W, W, |gl| restart_strip(gl, UNSIGNED_SHORT, 0xFFFF), &RESTART_PROBES);
}

#[test]
fn primitive_restart_u32() {
    check(
        "geometry_primitive_restart_u32",
        W,
        W,
        |gl| restart_strip(gl, UNSIGNED_INT, 0xFFFF_FFFF),
        &RESTART_PROBES,
    );
}

#[test]
fn primitive_restart_non_maximal_index() {
    // Desktop GL restarts at any index; GLES only at the type's maximum.
    check(
        "geometry_primitive_restart_non_maximal",
        W,
        W,
        |gl| restart_strip(gl, UNSIGNED_SHORT, 100),
        &RESTART_PROBES,
    );
}

#[test]
fn draw_range_elements() {
    check(
        "geometry_draw_range_elements",
        W,
        W,
        |gl| {
            clear(gl, BG);
            flat_xy(gl, &grid(), YELLOW);
            buffer(gl, ELEMENT_ARRAY_BUFFER, &le(&[4u16, 5, 8, 4, 8, 7], u16::to_le_bytes));
            gl.draw_range_elements(TRIANGLES, 4, 8, 6, UNSIGNED_SHORT, 0);
        },
        &[probe(24, 24, YELLOW), probe(8, 8, BG), probe(24, 8, BG)],
    );
}

const INSTANCED_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 offset;
layout(location = 2) in vec4 color;
out vec4 v_color;
void main() { v_color = color; gl_Position = vec4(position + offset, 0.0, 1.0); }
";

#[test]
fn instanced_arrays_with_divisors() {
    // Four instances of a 6 x 6 quad: the offset advances per instance (divisor 1), the
    // colour every two instances (divisor 2).
    check(
        "geometry_instanced_divisors",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, INSTANCED_VS, COLOR_VARYING_FS);
            gl.use_program(p);
            vertex_array(gl);
            let quad: Vec<f32> = [1.0, 1.0, 7.0, 1.0, 1.0, 7.0, 7.0, 7.0].into_iter().map(ndc).collect();
            buffer(gl, ARRAY_BUFFER, &le(&quad, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            // Offsets in NDC: 8 pixels = 0.5.
            let offsets = [0.0f32, 0.0, 0.5, 0.0, 1.0, 0.0, 1.0, 0.5];
            buffer(gl, ARRAY_BUFFER, &le(&offsets, f32::to_le_bytes));
            gl.vertex_attrib_pointer(1, 2, FLOAT, false, 0, 0);
            gl.vertex_attrib_divisor(1, 1);
            gl.enable_vertex_attrib_array(1);
            buffer(gl, ARRAY_BUFFER, &[255, 0, 0, 255, 0, 255, 255, 255]);
            gl.vertex_attrib_pointer(2, 4, UNSIGNED_BYTE, true, 0, 0);
            gl.vertex_attrib_divisor(2, 2);
            gl.enable_vertex_attrib_array(2);
            gl.draw_arrays_instanced(TRIANGLE_STRIP, 0, 4, 4);
        },
        &[
            probe(4, 4, RED),
            probe(12, 4, RED),
            probe(20, 4, [0, 255, 255, 255]),
            probe(20, 12, [0, 255, 255, 255]),
            probe(28, 4, BG),
            probe(4, 12, BG),
        ],
    );
}

const INSTANCE_ID_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
flat out int v_instance;
void main() {
    v_instance = gl_InstanceID;
    gl_Position = vec4(position + vec2(0.0, 0.5 * float(gl_InstanceID)), 0.0, 1.0);
}
";
const INSTANCE_ID_FS: &str = "#version 330 core
flat in int v_instance;
out vec4 frag;
void main() { frag = vec4(0.0, float(v_instance + 1) * 64.0 / 255.0, 0.0, 1.0); }
";

#[test]
fn instanced_elements_instance_id() {
    // Three instances of an indexed quad, each 8 pixels above the previous, coloured by
    // gl_InstanceID.
    check(
        "geometry_instanced_elements_instance_id",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, INSTANCE_ID_VS, INSTANCE_ID_FS);
            gl.use_program(p);
            vertex_array(gl);
            let quad: Vec<f32> = [4.0, 1.0, 28.0, 1.0, 4.0, 7.0, 28.0, 7.0].into_iter().map(ndc).collect();
            buffer(gl, ARRAY_BUFFER, &le(&quad, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            buffer(gl, ELEMENT_ARRAY_BUFFER, &le(&[0u32, 1, 2, 2, 1, 3], u32::to_le_bytes));
            gl.draw_elements_instanced(TRIANGLES, 6, UNSIGNED_INT, 0, 3);
        },
        &[
            probe(16, 4, [0, 64, 0, 255]),
            probe(16, 12, [0, 128, 0, 255]),
            probe(16, 20, [0, 192, 0, 255]),
            probe(16, 28, BG),
            probe(2, 12, BG),
        ],
    );
}

const INTEGER_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
layout(location = 1) in ivec2 signed_pair;
layout(location = 2) in uvec2 unsigned_pair;
layout(location = 3) in int wide;
flat out ivec4 v_values;
void main() {
    v_values = ivec4(signed_pair, ivec2(unsigned_pair)) + ivec4(0, 0, 0, wide >> 24);
    gl_Position = vec4(position, 0.0, 1.0);
}
";
const INTEGER_FS: &str = "#version 330 core
flat in ivec4 v_values;
out vec4 frag;
void main() { frag = vec4(v_values + ivec4(128, 128, 0, 0)) / 255.0; }
";

#[test]
fn integer_attributes() {
    // Byte and int signed pairs, unsigned-short pairs and a full 32-bit int reach the
    // shader as integers, unconverted; flat outputs carry them to the fragment.
    check(
        "geometry_integer_attributes",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, INTEGER_VS, INTEGER_FS);
            gl.use_program(p);
            vertex_array(gl);
            let v: Vec<f32> = [
                2.0, 2.0, 14.0, 2.0, 2.0, 30.0, 14.0, 30.0, 18.0, 2.0, 30.0, 2.0, 18.0, 30.0, 30.0, 30.0,
            ]
            .into_iter()
            .map(ndc)
            .collect();
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            // Signed pairs: bytes for the left quad's vertices, the same values for the right.
            let signed: Vec<i8> = [-100i8, 50].repeat(4).into_iter().chain([120i8, -128].repeat(4)).collect();
            buffer(gl, ARRAY_BUFFER, &signed.iter().map(|&b| b as u8).collect::<Vec<_>>());
            gl.vertex_attrib_i_pointer(1, 2, BYTE, 0, 0);
            gl.enable_vertex_attrib_array(1);
            let unsigned: Vec<u16> = [17u16, 200].repeat(4).into_iter().chain([255u16, 0].repeat(4)).collect();
            buffer(gl, ARRAY_BUFFER, &le(&unsigned, u16::to_le_bytes));
            gl.vertex_attrib_i_pointer(2, 2, UNSIGNED_SHORT, 0, 0);
            gl.enable_vertex_attrib_array(2);
            let wide: Vec<i32> = [0x3700_0000i32; 4].into_iter().chain([0x7F12_3456; 4]).collect();
            buffer(gl, ARRAY_BUFFER, &le(&wide, i32::to_le_bytes));
            gl.vertex_attrib_i_pointer(3, 1, INT, 0, 0);
            gl.enable_vertex_attrib_array(3);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
            gl.draw_arrays(TRIANGLE_STRIP, 4, 4);
        },
        &[probe(8, 16, [28, 178, 17, 200 + 0x37]), probe(24, 16, [248, 0, 255, 127]), probe(16, 16, BG)],
    );
}

const NORMALIZED_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
layout(location = 1) in vec4 color;
layout(location = 2) in float scale;
out vec4 v_color;
void main() { v_color = color * scale; gl_Position = vec4(position, 0.0, 1.0); }
";

#[test]
fn normalized_attributes() {
    // Positions as normalized shorts (16384 = 0.5), colours as normalized bytes, and a
    // scale as an unnormalized byte (converted to float, 1 stays 1.0).
    check(
        "geometry_normalized_attributes",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, NORMALIZED_VS, COLOR_VARYING_FS);
            gl.use_program(p);
            vertex_array(gl);
            let pos = [-16384i16, -16384, 16384, -16384, -16384, 16384, 16384, 16384];
            buffer(gl, ARRAY_BUFFER, &le(&pos, i16::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, SHORT, true, 0, 0);
            gl.enable_vertex_attrib_array(0);
            buffer(gl, ARRAY_BUFFER, &[51, 102, 204, 255].repeat(4));
            gl.vertex_attrib_pointer(1, 4, UNSIGNED_BYTE, true, 0, 0);
            gl.enable_vertex_attrib_array(1);
            buffer(gl, ARRAY_BUFFER, &[1, 0].repeat(4));
            gl.vertex_attrib_pointer(2, 1, UNSIGNED_BYTE, false, 2, 0);
            gl.enable_vertex_attrib_array(2);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        &[probe(16, 16, [51, 102, 204, 255]), probe(9, 9, [51, 102, 204, 255]), probe(6, 16, BG), probe(25, 16, BG)],
    );
}

#[test]
fn normalized_signed_colors() {
    // Signed normalized shorts: 32767 is 1.0 and -32768 clamps to -1.0 (then to 0 in the
    // colour buffer); 0 is 0.0 under either conversion rule.
    check(
        "geometry_normalized_signed_colors",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, COLOR_VS, COLOR_VARYING_FS);
            gl.use_program(p);
            vertex_array(gl);
            let pos: Vec<f32> = [4.0, 4.0, 28.0, 4.0, 4.0, 28.0, 28.0, 28.0].into_iter().map(ndc).collect();
            buffer(gl, ARRAY_BUFFER, &le(&pos, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            buffer(gl, ARRAY_BUFFER, &le(&[32767i16, -32768, 0, 32767].repeat(4), i16::to_le_bytes));
            gl.vertex_attrib_pointer(1, 4, SHORT, true, 0, 0);
            gl.enable_vertex_attrib_array(1);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        &[probe(16, 16, [255, 0, 0, 255]), probe(2, 2, BG)],
    );
}

#[test]
fn generic_attribute_of_disabled_array() {
    // Attribute 1 (the colour) has no enabled array: the draw reads the current generic
    // value, which is context state and survives binding another vertex array.
    check(
        "geometry_generic_attribute",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, COLOR_VS, COLOR_VARYING_FS);
            gl.use_program(p);
            let left = vertex_array(gl);
            let v: Vec<f32> = [2.0, 4.0, 14.0, 4.0, 2.0, 28.0, 14.0, 28.0].into_iter().map(ndc).collect();
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            gl.disable_vertex_attrib_array(1);
            let right = vertex_array(gl);
            let v: Vec<f32> = [18.0, 4.0, 30.0, 4.0, 18.0, 28.0, 30.0, 28.0].into_iter().map(ndc).collect();
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            gl.vertex_attrib_4f(1, 0.2, 0.4, 0.6, 1.0);
            gl.bind_vertex_array(left);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
            gl.vertex_attrib_4f(1, 1.0, 0.8, 0.0, 1.0);
            gl.bind_vertex_array(right);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        &[probe(8, 16, [51, 102, 153, 255]), probe(24, 16, [255, 204, 0, 255]), probe(16, 16, BG)],
    );
}

#[test]
fn interleaved_stride_and_offset() {
    // One buffer: 16 bytes of header, then vertices of { vec2 position; u8x4 colour; pad }
    // with stride 16; the colour is per vertex and flat (last vertex).
    check(
        "geometry_interleaved",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, FLAT_VS, FLAT_FS);
            gl.use_program(p);
            vertex_array(gl);
            let mut data = vec![0xEEu8; 16];
            let verts = [
                (4.0, 4.0, [9, 9, 9, 9]),
                (28.0, 4.0, [9, 9, 9, 9]),
                (4.0, 28.0, [255, 0, 128, 255]),
                (28.0, 28.0, [0, 128, 255, 255]),
            ];
            for (x, y, c) in verts {
                data.extend(le(&[ndc(x), ndc(y)], f32::to_le_bytes));
                data.extend(c);
                data.extend([0xAB; 4]);
            }
            buffer(gl, ARRAY_BUFFER, &data);
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 16, 16);
            gl.vertex_attrib_pointer(1, 4, UNSIGNED_BYTE, true, 16, 24);
            gl.enable_vertex_attrib_array(0);
            gl.enable_vertex_attrib_array(1);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        // Triangle (0,1,2) ends at vertex 2, triangle (1,2,3) at vertex 3.
        &[probe(6, 6, [255, 0, 128, 255]), probe(26, 26, [0, 128, 255, 255]), probe(2, 2, BG)],
    );
}

/// A counter-clockwise triangle on the left and a clockwise one on the right.
const WINDINGS: [f32; 12] = [2.0, 4.0, 14.0, 4.0, 2.0, 28.0, 18.0, 4.0, 18.0, 28.0, 30.0, 4.0];

#[test]
fn cull_back_faces() {
    check(
        "geometry_cull_back",
        W,
        W,
        |gl| {
            clear(gl, BG);
            flat_xy(gl, &WINDINGS, RED);
            gl.enable(CULL_FACE);
            gl.draw_arrays(TRIANGLES, 0, 6);
        },
        &[probe(5, 8, RED), probe(21, 8, BG)],
    );
}

#[test]
fn front_face_clockwise() {
    // Clockwise is front: culling back faces removes the counter-clockwise triangle.
    check(
        "geometry_front_face_cw",
        W,
        W,
        |gl| {
            clear(gl, BG);
            flat_xy(gl, &WINDINGS, RED);
            gl.enable(CULL_FACE);
            gl.front_face(CW);
            gl.cull_face(BACK);
            gl.draw_arrays(TRIANGLES, 0, 6);
        },
        &[probe(5, 8, BG), probe(21, 8, RED)],
    );
}

#[test]
fn cull_front_and_back() {
    // Both triangles culled; lines are never culled.
    check(
        "geometry_cull_front_and_back",
        W,
        W,
        |gl| {
            clear(gl, BG);
            flat_xy(gl, &[&WINDINGS[..], &[2.0, 8.5, 30.0, 8.5]].concat(), RED);
            gl.enable(CULL_FACE);
            gl.cull_face(FRONT_AND_BACK);
            gl.draw_arrays(TRIANGLES, 0, 6);
            gl.draw_arrays(LINES, 6, 2);
        },
        &[probe(5, 12, BG), probe(21, 12, BG), probe(16, 8, RED), probe(5, 7, BG)],
    );
}

const FRONT_FACING_FS: &str = "#version 330 core
out vec4 frag;
void main() { frag = gl_FrontFacing ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 1.0, 1.0); }
";

#[test]
fn front_facing_follows_front_face() {
    // gl_FrontFacing with the default winding, then with clockwise front faces (no culling).
    check(
        "geometry_front_facing",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, POSITION_VS, FRONT_FACING_FS);
            gl.use_program(p);
            vertex_array(gl);
            let lower: Vec<f32> = WINDINGS.iter().enumerate().map(|(i, &c)| ndc(if i % 2 == 1 { c * 0.5 } else { c })).collect();
            let upper: Vec<f32> =
                WINDINGS.iter().enumerate().map(|(i, &c)| ndc(if i % 2 == 1 { 16.0 + c * 0.5 } else { c })).collect();
            buffer(gl, ARRAY_BUFFER, &le(&[lower, upper].concat(), f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            gl.draw_arrays(TRIANGLES, 0, 6);
            gl.front_face(CW);
            gl.draw_arrays(TRIANGLES, 6, 6);
        },
        &[
            probe(4, 4, GREEN),
            probe(20, 4, [255, 0, 255, 255]),
            probe(4, 20, [255, 0, 255, 255]),
            probe(20, 20, GREEN),
        ],
    );
}

#[test]
fn element_buffer_per_vertex_array() {
    // The element buffer is vertex-array state: two arrays with their own vertex and index
    // buffers, drawn alternately.
    check(
        "geometry_element_buffer_per_vertex_array",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, POSITION_VS, COLOR_FS);
            gl.use_program(p);
            let loc = gl.get_uniform_location(p, "color");
            let mut arrays = Vec::new();
            for (x0, ids) in [(2.0, [0u16, 1, 2, 2, 1, 3]), (18.0, [3u16, 2, 1, 0, 0, 0])] {
                arrays.push(vertex_array(gl));
                let v: Vec<f32> = [x0, 2.0, x0 + 12.0, 2.0, x0, 14.0, x0 + 12.0, 14.0].into_iter().map(ndc).collect();
                let up: Vec<f32> = v.iter().enumerate().map(|(i, &c)| if i % 2 == 1 { c + 1.0 } else { c }).collect();
                buffer(gl, ARRAY_BUFFER, &le(&[v, up].concat(), f32::to_le_bytes));
                gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
                gl.enable_vertex_attrib_array(0);
                buffer(gl, ELEMENT_ARRAY_BUFFER, &le(&ids, u16::to_le_bytes));
            }
            // Left array: its quad (two triangles). Right array: one triangle (3, 2, 1),
            // then its upper copy through base vertex 4.
            gl.bind_vertex_array(arrays[0]);
            gl.uniform4f(loc, 1.0, 0.0, 0.0, 1.0);
            gl.draw_elements(TRIANGLES, 6, UNSIGNED_SHORT, 0);
            gl.bind_vertex_array(arrays[1]);
            gl.uniform4f(loc, 0.0, 1.0, 0.0, 1.0);
            gl.draw_elements(TRIANGLES, 3, UNSIGNED_SHORT, 0);
            gl.bind_vertex_array(arrays[0]);
            gl.uniform4f(loc, 0.0, 0.0, 1.0, 1.0);
            gl.draw_elements_base_vertex(TRIANGLES, 3, UNSIGNED_SHORT, 6, 4);
        },
        // Right: triangle (3, 2, 1) is the upper-right half of its quad. Upper left: triangle
        // (2, 1, 3) of the upper copy, also the upper-right half.
        &[
            probe(4, 4, RED),
            probe(12, 12, RED),
            probe(28, 12, GREEN),
            probe(20, 4, BG),
            probe(12, 28, BLUE),
            probe(4, 20, BG),
        ],
    );
}

#[test]
fn buffer_updates_between_draws() {
    // Vertex and index data rewritten between draws: each draw sees the data of its time.
    check(
        "geometry_buffer_updates_between_draws",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, POSITION_VS, COLOR_FS);
            gl.use_program(p);
            let loc = gl.get_uniform_location(p, "color");
            vertex_array(gl);
            let quad = |x0: f32, y0: f32| -> Vec<u8> {
                let v: Vec<f32> = [x0, y0, x0 + 12.0, y0, x0, y0 + 12.0, x0 + 12.0, y0 + 12.0].into_iter().map(ndc).collect();
                le(&v, f32::to_le_bytes)
            };
            buffer(gl, ARRAY_BUFFER, &quad(2.0, 2.0));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            buffer(gl, ELEMENT_ARRAY_BUFFER, &[0, 1, 2, 2, 1, 3]);
            gl.uniform4f(loc, 1.0, 0.0, 0.0, 1.0);
            gl.draw_elements(TRIANGLES, 6, UNSIGNED_BYTE, 0);
            gl.buffer_sub_data(ARRAY_BUFFER, 0, &quad(18.0, 2.0));
            gl.uniform4f(loc, 0.0, 1.0, 0.0, 1.0);
            gl.draw_elements(TRIANGLES, 6, UNSIGNED_BYTE, 0);
            gl.buffer_sub_data(ARRAY_BUFFER, 0, &quad(2.0, 18.0));
            gl.buffer_sub_data(ELEMENT_ARRAY_BUFFER, 3, &[0, 1, 2]);
            gl.uniform4f(loc, 0.0, 0.0, 1.0, 1.0);
            gl.draw_elements(TRIANGLES, 6, UNSIGNED_BYTE, 0);
        },
        // The third draw: (0, 1, 2) twice, the lower-left half of the upper-left quad.
        &[probe(8, 8, RED), probe(24, 8, GREEN), probe(4, 20, BLUE), probe(12, 28, BG), probe(24, 24, BG)],
    );
}

#[test]
fn primitive_restart_non_maximal_with_base_vertex_then_plain_draw() {
    // An emulated restart (index 100, base vertex 2) followed by a plain indexed draw from
    // the same element buffer, which must still be the vertex array's.
    check(
        "geometry_primitive_restart_non_maximal_then_plain",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let xy = [
                0.0, 0.0, 0.0, 0.0, 2.0, 4.0, 14.0, 4.0, 2.0, 14.0, 14.0, 14.0, 18.0, 4.0, 30.0, 4.0, 18.0, 14.0, 30.0,
                14.0,
            ];
            let p = flat_xy(gl, &xy, GREEN);
            let ids = le(&[0u16, 1, 2, 3, 100, 4, 5, 6, 7, 0, 1, 2, 2, 1, 3], u16::to_le_bytes);
            buffer(gl, ELEMENT_ARRAY_BUFFER, &ids);
            gl.enable(PRIMITIVE_RESTART);
            gl.primitive_restart_index(100);
            gl.draw_elements_base_vertex(TRIANGLE_STRIP, 9, UNSIGNED_SHORT, 0, 2);
            gl.disable(PRIMITIVE_RESTART);
            let loc = gl.get_uniform_location(p, "color");
            gl.uniform4f(loc, 0.0, 0.0, 1.0, 1.0);
            // Indices 0, 1, 2, 2, 1, 3 (from byte 18) + 6: the right quad.
            gl.draw_elements_base_vertex(TRIANGLES, 6, UNSIGNED_SHORT, 18, 6);
        },
        &[probe(8, 9, GREEN), probe(16, 9, BG), probe(24, 9, BLUE), probe(16, 20, BG)],
    );
}

#[test]
fn primitive_restart_line_strip() {
    // A u32 line strip split in two by the fixed restart index: no segment across the gap.
    check(
        "geometry_primitive_restart_line_strip",
        W,
        W,
        |gl| {
            clear(gl, BG);
            flat_xy(gl, &[2.0, 8.5, 12.0, 8.5, 20.0, 8.5, 30.0, 8.5], YELLOW);
            buffer(gl, ELEMENT_ARRAY_BUFFER, &le(&[0u32, 1, u32::MAX, 2, 3], u32::to_le_bytes));
            gl.enable(PRIMITIVE_RESTART);
            gl.primitive_restart_index(u32::MAX);
            gl.draw_elements(LINE_STRIP, 5, UNSIGNED_INT, 0);
        },
        &[probe(6, 8, YELLOW), probe(25, 8, YELLOW), probe(16, 8, BG)],
    );
}

#[test]
fn packed_unaligned_attributes() {
    // Stride 7: two normalized shorts of position, then three normalized bytes of colour at
    // offset 4 + 7i (unaligned).
    check(
        "geometry_packed_unaligned_attributes",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, COLOR_VS, COLOR_VARYING_FS);
            gl.use_program(p);
            vertex_array(gl);
            let mut data = Vec::new();
            for (x, y) in [(-16384i16, -16384i16), (16384, -16384), (-16384, 16384), (16384, 16384)] {
                data.extend(le(&[x, y], i16::to_le_bytes));
                data.extend([51, 204, 255]);
            }
            buffer(gl, ARRAY_BUFFER, &data);
            gl.vertex_attrib_pointer(0, 2, SHORT, true, 7, 0);
            gl.vertex_attrib_pointer(1, 3, UNSIGNED_BYTE, true, 7, 4);
            gl.enable_vertex_attrib_array(0);
            gl.enable_vertex_attrib_array(1);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        &[probe(16, 16, [51, 204, 255, 255]), probe(4, 4, BG)],
    );
}

#[test]
fn viewport_maps_ndc() {
    // The full NDC square drawn through two viewports.
    check(
        "geometry_viewport",
        W,
        W,
        |gl| {
            clear(gl, BG);
            flat_xy(gl, &[0.0, 0.0, 32.0, 0.0, 0.0, 32.0, 32.0, 32.0], RED);
            gl.viewport(8, 4, 16, 12);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
            gl.viewport(24, 20, 8, 8);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        &[
            probe(8, 4, RED),
            probe(23, 15, RED),
            probe(7, 4, BG),
            probe(8, 16, BG),
            probe(24, 20, RED),
            probe(31, 27, RED),
            probe(31, 28, BG),
        ],
    );
}

#[test]
fn points_with_fixed_point_size() {
    // PROGRAM_POINT_SIZE off and no gl_PointSize written: glPointSize (4) sizes the points.
    check(
        "geometry_points_fixed_size",
        W,
        W,
        |gl| {
            clear(gl, BG);
            flat_xy(gl, &[8.0, 8.0, 20.5, 20.5], YELLOW);
            gl.point_size(4.0);
            gl.draw_arrays(POINTS, 0, 1);
            gl.point_size(3.0);
            gl.draw_arrays(POINTS, 1, 1);
        },
        &[
            probe(6, 6, YELLOW),
            probe(9, 9, YELLOW),
            probe(10, 8, BG),
            probe(5, 8, BG),
            probe(19, 19, YELLOW),
            probe(21, 21, YELLOW),
            probe(22, 20, BG),
            probe(18, 20, BG),
        ],
    );
}

#[test]
fn points_ignore_shader_size_without_program_point_size() {
    // The shader writes gl_PointSize = 7, but with PROGRAM_POINT_SIZE disabled desktop GL
    // uses glPointSize (3).
    check(
        "geometry_points_shader_size_disabled",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, POINT_VS, COLOR_FS);
            gl.use_program(p);
            let loc = gl.get_uniform_location(p, "color");
            gl.uniform4f(loc, 1.0, 1.0, 0.0, 1.0);
            vertex_array(gl);
            buffer(gl, ARRAY_BUFFER, &le(&[ndc(8.5), ndc(8.5), 7.0], f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 12, 0);
            gl.vertex_attrib_pointer(1, 1, FLOAT, false, 12, 8);
            gl.enable_vertex_attrib_array(0);
            gl.enable_vertex_attrib_array(1);
            gl.point_size(3.0);
            gl.draw_arrays(POINTS, 0, 1);
        },
        &[probe(8, 8, YELLOW), probe(7, 9, YELLOW), probe(10, 8, BG), probe(6, 6, BG)],
    );
}

const LOCATIONS_VS: &str = "#version 330 core
in vec2 position;
in vec4 color;
in float scale;
out vec4 v_color;
void main() { v_color = color * scale; gl_Position = vec4(position, 0.0, 1.0); }
";

#[test]
fn attribute_locations_assigned_and_bound() {
    // No layout qualifiers: `color` is bound to 5 before linking, the others are assigned
    // by the implementation and queried, as applications do.
    check(
        "geometry_attribute_locations",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = gl.create_program();
            for (kind, src) in [(VERTEX_SHADER, LOCATIONS_VS), (FRAGMENT_SHADER, COLOR_VARYING_FS)] {
                let s = gl.create_shader(kind);
                gl.shader_source(s, src);
                gl.compile_shader(s);
                gl.attach_shader(p, s);
            }
            gl.bind_attrib_location(p, 5, "color");
            gl.link_program(p);
            assert_eq!(gl.get_programi(p, LINK_STATUS), TRUE as i32);
            assert_eq!(gl.get_attrib_location(p, "color"), 5);
            gl.use_program(p);
            vertex_array(gl);
            let v: Vec<f32> = [4.0, 4.0, 28.0, 4.0, 4.0, 28.0, 28.0, 28.0].into_iter().map(ndc).collect();
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            let position = gl.get_attrib_location(p, "position") as GLuint;
            gl.vertex_attrib_pointer(position, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(position);
            buffer(gl, ARRAY_BUFFER, &[40, 80, 120, 255].repeat(4));
            gl.vertex_attrib_pointer(5, 4, UNSIGNED_BYTE, true, 0, 0);
            gl.enable_vertex_attrib_array(5);
            let scale = gl.get_attrib_location(p, "scale") as GLuint;
            gl.vertex_attrib_4f(scale, 1.0, 0.0, 0.0, 1.0);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        &[probe(16, 16, [40, 80, 120, 255]), probe(2, 2, BG)],
    );
}

#[test]
fn packed_attribute_formats() {
    // Half-float positions, UNSIGNED_INT_2_10_10_10_REV normalized colours (1023, 0, 512,
    // 3) and INT_2_10_10_10_REV unnormalized scales (1, 1, 1, 1) multiplying them.
    check(
        "geometry_packed_attribute_formats",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(
                gl,
                "#version 330 core
layout(location = 0) in vec2 position;
layout(location = 1) in vec4 color;
layout(location = 2) in vec4 scale;
out vec4 v_color;
void main() { v_color = color * scale; gl_Position = vec4(position, 0.0, 1.0); }
",
                COLOR_VARYING_FS,
            );
            gl.use_program(p);
            vertex_array(gl);
            // Half floats: -0.5 = 0xB800, 0.5 = 0x3800.
            let pos = [0xB800u16, 0xB800, 0x3800, 0xB800, 0xB800, 0x3800, 0x3800, 0x3800];
            buffer(gl, ARRAY_BUFFER, &le(&pos, u16::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, HALF_FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            let color = 1023u32 | (512 << 20) | (3 << 30);
            buffer(gl, ARRAY_BUFFER, &le(&[color; 4], u32::to_le_bytes));
            gl.vertex_attrib_pointer(1, 4, UNSIGNED_INT_2_10_10_10_REV, true, 0, 0);
            gl.enable_vertex_attrib_array(1);
            let ones = 1u32 | (1 << 10) | (1 << 20) | (1 << 30);
            buffer(gl, ARRAY_BUFFER, &le(&[ones; 4], u32::to_le_bytes));
            gl.vertex_attrib_pointer(2, 4, INT_2_10_10_10_REV, false, 0, 0);
            gl.enable_vertex_attrib_array(2);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        &[probe(16, 16, [255, 0, 128, 255]), probe(4, 4, BG)],
    );
}

#[test]
fn bgra_attribute() {
    // Size GL_BGRA: the bytes B, G, R, A of each vertex arrive as (R, G, B, A).
    check(
        "geometry_bgra_attribute",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, COLOR_VS, COLOR_VARYING_FS);
            gl.use_program(p);
            vertex_array(gl);
            let v: Vec<f32> = [4.0, 4.0, 28.0, 4.0, 4.0, 28.0, 28.0, 28.0].into_iter().map(ndc).collect();
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            buffer(gl, ARRAY_BUFFER, &[200, 100, 50, 255].repeat(4));
            gl.vertex_attrib_pointer(1, BGRA as GLint, UNSIGNED_BYTE, true, 0, 0);
            gl.enable_vertex_attrib_array(1);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        &[probe(16, 16, [50, 100, 200, 255]), probe(2, 2, BG)],
    );
}

#[test]
fn integer_instanced_attribute() {
    // A per-instance uint attribute (divisor 1) picks each instance's row and colour.
    check(
        "geometry_integer_instanced_attribute",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(
                gl,
                "#version 330 core
layout(location = 0) in vec2 position;
layout(location = 1) in uint row;
flat out uint v_row;
void main() { v_row = row; gl_Position = vec4(position + vec2(0.0, 0.5 * float(row)), 0.0, 1.0); }
",
                "#version 330 core
flat in uint v_row;
out vec4 frag;
void main() { frag = vec4(float(v_row * 60u) / 255.0, 1.0, 0.0, 1.0); }
",
            );
            gl.use_program(p);
            vertex_array(gl);
            let v: Vec<f32> = [4.0, 1.0, 28.0, 1.0, 4.0, 7.0, 28.0, 7.0].into_iter().map(ndc).collect();
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            buffer(gl, ARRAY_BUFFER, &[3, 0, 2]);
            gl.vertex_attrib_i_pointer(1, 1, UNSIGNED_BYTE, 0, 0);
            gl.vertex_attrib_divisor(1, 1);
            gl.enable_vertex_attrib_array(1);
            gl.draw_arrays_instanced(TRIANGLE_STRIP, 0, 4, 3);
        },
        &[probe(16, 4, [0, 255, 0, 255]), probe(16, 12, BG), probe(16, 20, [120, 255, 0, 255]), probe(16, 28, [180, 255, 0, 255])],
    );
}

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

mod attributes;
mod draws;

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
    tessera_tests::scenes::link_program(gl, vs, fs)
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
        Self {
            program,
            color,
            vao,
            buf,
        }
    }

    /// Draws the pixel rectangle [x0, x1) x [y0, y1) at depth `z` in `rgba`
    /// (counter-clockwise).
    pub(super) fn fill(&self, gl: &mut dyn Gl, [x0, y0, x1, y1]: [i32; 4], z: f32, rgba: [u8; 4]) {
        self.draw(
            gl,
            &rect(x0 as f32, y0 as f32, x1 as f32, y1 as f32, z),
            rgba,
        );
    }

    /// As [`Painter::fill`], with clockwise triangles.
    pub(super) fn fill_cw(
        &self,
        gl: &mut dyn Gl,
        [x0, y0, x1, y1]: [i32; 4],
        z: f32,
        rgba: [u8; 4],
    ) {
        let v = rect(x0 as f32, y0 as f32, x1 as f32, y1 as f32, z);
        let reversed: Vec<f32> = v.chunks(3).rev().flatten().copied().collect();
        self.draw(gl, &reversed, rgba);
    }

    /// Draws triangles given as xyz NDC coordinates in `rgba`.
    pub(super) fn draw(&self, gl: &mut dyn Gl, xyz: &[f32], rgba: [u8; 4]) {
        gl.use_program(self.program);
        gl.bind_vertex_array(self.vao);
        gl.bind_buffer(ARRAY_BUFFER, self.buf);
        gl.buffer_data(
            ARRAY_BUFFER,
            xyz.len() * 4,
            Some(&le(xyz, f32::to_le_bytes)),
            STREAM_DRAW,
        );
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
        &[
            probe(6, 6, [255, 128, 0, 255]),
            probe(14, 14, [255, 128, 0, 255]),
            probe(20, 20, BG),
            probe(2, 2, BG),
        ],
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

#[test]
fn flat_first_vertex() {
    // Under FIRST_VERTEX_CONVENTION a flat output takes the first vertex's value: a
    // triangle's first, strip triangle i's vertex i, fan triangle i's vertex i + 1 (GL 3.3,
    // table 2.15), also in an indexed strip that restarts. One quadrant each (16 x 16).
    let colour = |k: u8| {
        [
            10 + 12 * k,
            250 - 12 * k,
            ((60 * u32::from(k)) % 251) as u8,
            255,
        ]
    };
    // Quad corners of the quadrant at (x, y), counter-clockwise from the lower left.
    let quad = |x: f32, y: f32| [(x, y), (x + 16.0, y), (x + 16.0, y + 16.0), (x, y + 16.0)];
    let [q0, q1, q2, q3] = quad(0.0, 0.0);
    let [s0, s1, s2, s3] = quad(16.0, 0.0);
    let [f0, f1, f2, f3] = quad(0.0, 16.0);
    let [r0, r1, r2, r3] = quad(16.0, 16.0);
    // Vertices 0-5: two triangles; 6-9: a strip; 10-13: a fan; 14-19: two restarted strips.
    let positions = [
        q0, q1, q2, q2, q3, q0, s0, s1, s3, s2, f0, f1, f2, f3, r0, r1, r3, r3, r1, r2,
    ];
    let vertices: Vec<f32> = positions
        .iter()
        .enumerate()
        .flat_map(|(k, &(x, y))| {
            let [r, g, b, a] = unorm(colour(k as u8));
            [ndc(x), ndc(y), r, g, b, a]
        })
        .collect();
    let probes = [
        // Triangles (0 1 2) and (3 4 5): lower right and upper left halves.
        probe(12, 3, colour(0)),
        probe(3, 12, colour(3)),
        // Strip (6 7 8), (8 7 9): lower left, upper right halves.
        probe(19, 3, colour(6)),
        probe(28, 12, colour(7)),
        // Fan (10 11 12), (10 12 13): lower right, upper left halves.
        probe(12, 19, colour(11)),
        probe(3, 28, colour(12)),
        // Strips (14 15 16) and (17 18 19) after a restart: lower left, upper right halves.
        probe(19, 19, colour(14)),
        probe(28, 28, colour(17)),
    ];
    check(
        "geometry_flat_first_vertex",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(gl, FLAT_VS, FLAT_FS);
            gl.use_program(p);
            vertex_array(gl);
            buffer(gl, ARRAY_BUFFER, &le(&vertices, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 24, 0);
            gl.vertex_attrib_pointer(1, 4, FLOAT, false, 24, 8);
            gl.enable_vertex_attrib_array(0);
            gl.enable_vertex_attrib_array(1);
            gl.provoking_vertex(FIRST_VERTEX_CONVENTION);
            gl.draw_arrays(TRIANGLES, 0, 6);
            gl.draw_arrays(TRIANGLE_STRIP, 6, 4);
            gl.draw_arrays(TRIANGLE_FAN, 10, 4);
            let indices: [u16; 7] = [14, 15, 16, 0xffff, 17, 18, 19];
            buffer(gl, ELEMENT_ARRAY_BUFFER, &le(&indices, u16::to_le_bytes));
            gl.enable(PRIMITIVE_RESTART);
            gl.primitive_restart_index(0xffff);
            gl.draw_elements(TRIANGLE_STRIP, 7, UNSIGNED_SHORT, 0);
        },
        &probes,
    );
}

const BLOCK_ARRAY_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
layout(location = 1) in vec4 color;
flat out vec4 f_ref;
noperspective out float np_ref;
out float s_ref;
centroid out float c_ref;
out Blk {
    flat vec4 f;
    noperspective float np;
    float s;
    centroid float c;
} ifc[2];
void main() {
    float w = 1.0 + float(gl_VertexID % 3);
    float v = color.r + 2.0 * color.g + 4.0 * color.b;
    f_ref = color;
    np_ref = v;
    s_ref = v;
    c_ref = v;
    for (int i = 0; i < 2; i++) {
        ifc[i].f = color;
        ifc[i].np = v;
        ifc[i].s = v;
        ifc[i].c = v;
    }
    gl_Position = vec4(position * w, 0.0, w);
}
";
const BLOCK_ARRAY_FS: &str = "#version 330 core
flat in vec4 f_ref;
noperspective in float np_ref;
in float s_ref;
centroid in float c_ref;
in Blk {
    flat vec4 f;
    noperspective float np;
    float s;
    centroid float c;
} ifc[2];
out vec4 frag;
void main() {
    bool ok = true;
    for (int i = 0; i < 2; i++) {
        ok = ok && ifc[i].f == f_ref && ifc[i].np == np_ref && ifc[i].s == s_ref
            && ifc[i].c == c_ref;
    }
    frag = ok ? f_ref : vec4(1.0, 0.0, 1.0, 1.0);
}
";

const BLOCK_ARRAY_PASS_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
layout(location = 1) in vec4 color;
out vec4 g_color;
void main() { g_color = color; gl_Position = vec4(position, 0.0, 1.0); }
";
/// [`BLOCK_ARRAY_VS`]'s outputs written by a geometry stage, vertex by vertex.
const BLOCK_ARRAY_GS: &str = "#version 330 core
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 g_color[];
flat out vec4 f_ref;
noperspective out float np_ref;
out float s_ref;
centroid out float c_ref;
out Blk {
    flat vec4 f;
    noperspective float np;
    float s;
    centroid float c;
} ifc[2];
void main() {
    for (int k = 0; k < 3; k++) {
        vec4 color = g_color[k];
        float v = color.r + 2.0 * color.g + 4.0 * color.b;
        float w = 1.0 + float(k);
        f_ref = color;
        np_ref = v;
        s_ref = v;
        c_ref = v;
        for (int i = 0; i < 2; i++) {
            ifc[i].f = color;
            ifc[i].np = v;
            ifc[i].s = v;
            ifc[i].c = v;
        }
        gl_Position = vec4(gl_in[k].gl_Position.xy * w, 0.0, w);
        EmitVertex();
    }
}
";

/// Two triangles (red, green, blue and blue, red, yellow vertices) drawn with `stages`,
/// whose fragment stage is [`BLOCK_ARRAY_FS`]: each shows its last vertex's colour where the
/// block members match the plain varyings.
fn block_array_scene(name: &str, stages: &[(GLenum, &str)]) {
    check(
        name,
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = tessera_tests::scenes::link_stages(gl, stages);
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
        &[
            probe(4, 4, BLUE),
            probe(10, 3, BLUE),
            probe(3, 10, BLUE),
            probe(20, 20, YELLOW),
            probe(26, 19, YELLOW),
            probe(16, 16, BG),
        ],
    );
}

#[test]
fn interpolation_qualifiers_in_an_array_of_blocks() {
    // Members of an array of interface blocks interpolate as their qualifiers say, like the
    // plain varyings beside them (magenta where one differs); the vertices' w differ, so
    // perspective-correct and linear interpolation differ too.
    block_array_scene(
        "geometry_block_array_interpolation",
        &[
            (VERTEX_SHADER, BLOCK_ARRAY_VS),
            (FRAGMENT_SHADER, BLOCK_ARRAY_FS),
        ],
    );
}

#[test]
fn interpolation_qualifiers_in_an_array_of_blocks_from_a_geometry_stage() {
    block_array_scene(
        "geometry_block_array_interpolation_gs",
        &[
            (VERTEX_SHADER, BLOCK_ARRAY_PASS_VS),
            (GEOMETRY_SHADER, BLOCK_ARRAY_GS),
            (FRAGMENT_SHADER, BLOCK_ARRAY_FS),
        ],
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
        &[
            probe(15, 4, GREEN),
            probe(27, 15, GREEN),
            probe(15, 27, GREEN),
            probe(3, 15, BG),
            probe(15, 15, BG),
        ],
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
        &[
            probe(15, 4, GREEN),
            probe(27, 15, GREEN),
            probe(15, 27, GREEN),
            probe(3, 15, GREEN),
            probe(15, 15, BG),
        ],
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
            flat_xy(
                gl,
                &[2.0, 4.0, 2.0, 20.0, 16.0, 4.0, 16.0, 20.0, 30.0, 4.0],
                RED,
            );
            gl.draw_arrays(TRIANGLE_STRIP, 0, 5);
        },
        &[
            probe(4, 6, RED),
            probe(14, 18, RED),
            probe(18, 6, RED),
            probe(28, 18, BG),
            probe(10, 24, BG),
        ],
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
            flat_xy(
                gl,
                &[
                    16.0, 16.0, 30.0, 16.0, 30.0, 30.0, 2.0, 30.0, 2.0, 2.0, 16.0, 2.0,
                ],
                BLUE,
            );
            gl.draw_arrays(TRIANGLE_FAN, 0, 6);
        },
        &[
            probe(26, 20, BLUE),
            probe(20, 26, BLUE),
            probe(6, 16, BLUE),
            probe(10, 5, BLUE),
            probe(22, 12, BG),
        ],
    );
}

/// A counter-clockwise triangle on the left and a clockwise one on the right.
const WINDINGS: [f32; 12] = [
    2.0, 4.0, 14.0, 4.0, 2.0, 28.0, 18.0, 4.0, 18.0, 28.0, 30.0, 4.0,
];

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
        &[
            probe(5, 12, BG),
            probe(21, 12, BG),
            probe(16, 8, RED),
            probe(5, 7, BG),
        ],
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
            let lower: Vec<f32> = WINDINGS
                .iter()
                .enumerate()
                .map(|(i, &c)| ndc(if i % 2 == 1 { c * 0.5 } else { c }))
                .collect();
            let upper: Vec<f32> = WINDINGS
                .iter()
                .enumerate()
                .map(|(i, &c)| ndc(if i % 2 == 1 { 16.0 + c * 0.5 } else { c }))
                .collect();
            buffer(
                gl,
                ARRAY_BUFFER,
                &le(&[lower, upper].concat(), f32::to_le_bytes),
            );
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
fn point_coord_follows_the_sprite_origin() {
    // gl_PointCoord as colour, for 8-pixel points drawn with each POINT_SPRITE_COORD_ORIGIN.
    // The top-left pixel of a point has s = t = 1/16 from the upper left (16, 16), and
    // t = 15/16 (239) from the lower left. The origin changes before a clear and then a draw
    // (a clear does not use the program), and changes back.
    let (upper, lower) = ([16, 16, 0, 255], [16, 239, 0, 255]);
    check(
        "geometry_point_coord_origin",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = program(
                gl,
                POSITION_VS,
                "#version 330 core
out vec4 frag;
void main() { frag = vec4(gl_PointCoord, 0.0, 1.0); }
",
            );
            gl.use_program(p);
            vertex_array(gl);
            let v: Vec<f32> = [8.0, 8.0, 24.0, 8.0, 8.0, 24.0]
                .iter()
                .map(|&c| ndc(c))
                .collect();
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            gl.point_size(8.0);
            gl.draw_arrays(POINTS, 0, 1);
            gl.point_parameteri(POINT_SPRITE_COORD_ORIGIN, LOWER_LEFT as GLint);
            gl.enable(SCISSOR_TEST);
            gl.scissor(28, 28, 4, 4);
            gl.clear(COLOR_BUFFER_BIT);
            gl.disable(SCISSOR_TEST);
            gl.draw_arrays(POINTS, 1, 1);
            gl.point_parameteri(POINT_SPRITE_COORD_ORIGIN, UPPER_LEFT as GLint);
            gl.draw_arrays(POINTS, 2, 1);
        },
        &[
            probe(4, 11, upper),
            probe(20, 11, lower),
            probe(4, 27, upper),
            probe(12, 4, BG),
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
            buffer(
                gl,
                ARRAY_BUFFER,
                &le(&[ndc(8.5), ndc(8.5), 7.0], f32::to_le_bytes),
            );
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 12, 0);
            gl.vertex_attrib_pointer(1, 1, FLOAT, false, 12, 8);
            gl.enable_vertex_attrib_array(0);
            gl.enable_vertex_attrib_array(1);
            gl.point_size(3.0);
            gl.draw_arrays(POINTS, 0, 1);
        },
        &[
            probe(8, 8, YELLOW),
            probe(7, 9, YELLOW),
            probe(10, 8, BG),
            probe(6, 6, BG),
        ],
    );
}

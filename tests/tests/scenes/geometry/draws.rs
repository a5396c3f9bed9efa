//! Draw calls: indexed draws over each index type, base vertex, primitive restart (fixed
//! and emulated indices), draw_range_elements, instancing with divisors and gl_InstanceID,
//! element buffers as vertex-array state, and buffer updates between draws.

use super::*;

/// A 3 x 3 grid of points at pixel coordinates {2, 16, 30}^2, vertex i at column i % 3, row
/// i / 3, as xy floats.
fn grid() -> Vec<f32> {
    (0..9)
        .flat_map(|i| [[2.0, 16.0, 30.0][i % 3], [2.0, 16.0, 30.0][i / 3]])
        .collect()
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
        UNSIGNED_SHORT => (
            le(
                &ids.iter().map(|&i| i as u16).collect::<Vec<_>>(),
                u16::to_le_bytes,
            ),
            2,
        ),
        _ => (le(&ids, u32::to_le_bytes), 4),
    };
    buffer(gl, ELEMENT_ARRAY_BUFFER, &bytes);
    gl.draw_elements(TRIANGLES, 12, ty, pad * size);
}

const GRID_PROBES: [tessera_tests::differential::Probe; 4] = [
    probe(8, 8, GREEN),
    probe(24, 24, GREEN),
    probe(24, 8, BG),
    probe(8, 24, BG),
];

#[test]
fn indexed_u8() {
    check(
        "geometry_indexed_u8",
        W,
        W,
        |gl| indexed(gl, UNSIGNED_BYTE, 3),
        &GRID_PROBES,
    );
}

#[test]
fn indexed_u16() {
    check(
        "geometry_indexed_u16",
        W,
        W,
        |gl| indexed(gl, UNSIGNED_SHORT, 2),
        &GRID_PROBES,
    );
}

#[test]
fn indexed_u32() {
    check(
        "geometry_indexed_u32",
        W,
        W,
        |gl| indexed(gl, UNSIGNED_INT, 1),
        &GRID_PROBES,
    );
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
            buffer(
                gl,
                ELEMENT_ARRAY_BUFFER,
                &le(&[9u16, 0, 1, 2, 2, 1, 3], u16::to_le_bytes),
            );
            gl.draw_elements_base_vertex(TRIANGLES, 6, UNSIGNED_SHORT, 2, 4);
        },
        // Last vertices 6 (first triangle) and 7 (second): the lower-right half shows 6.
        &[
            probe(6, 16, BG),
            probe(19, 5, [96, 0, 255, 255]),
            probe(28, 26, [112, 0, 255, 255]),
        ],
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
            let v: Vec<f32> = [0.0, 0.0, 0.0, 0.0, 2.0, 2.0, 30.0, 2.0, 2.0, 30.0]
                .into_iter()
                .map(ndc)
                .collect();
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
    let xy = [
        2.0, 4.0, 14.0, 4.0, 2.0, 28.0, 14.0, 28.0, 18.0, 4.0, 30.0, 4.0, 18.0, 28.0, 30.0, 28.0,
    ];
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

const RESTART_PROBES: [tessera_tests::differential::Probe; 4] = [
    probe(8, 16, GREEN),
    probe(24, 16, GREEN),
    probe(16, 6, BG),
    probe(16, 26, BG),
];

#[test]
fn primitive_restart_u8() {
    check(
        "geometry_primitive_restart_u8",
        W,
        W,
        |gl| restart_strip(gl, UNSIGNED_BYTE, 0xFF),
        &RESTART_PROBES,
    );
}

#[test]
fn primitive_restart_u16() {
    check(
        "geometry_primitive_restart_u16",
        W,
        W,
        |gl| restart_strip(gl, UNSIGNED_SHORT, 0xFFFF),
        &RESTART_PROBES,
    );
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
                0.0, 0.0, 0.0, 0.0, 2.0, 4.0, 14.0, 4.0, 2.0, 14.0, 14.0, 14.0, 18.0, 4.0, 30.0,
                4.0, 18.0, 14.0, 30.0, 14.0,
            ];
            let p = flat_xy(gl, &xy, GREEN);
            let ids = le(
                &[0u16, 1, 2, 3, 100, 4, 5, 6, 7, 0, 1, 2, 2, 1, 3],
                u16::to_le_bytes,
            );
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
        &[
            probe(8, 9, GREEN),
            probe(16, 9, BG),
            probe(24, 9, BLUE),
            probe(16, 20, BG),
        ],
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
            buffer(
                gl,
                ELEMENT_ARRAY_BUFFER,
                &le(&[0u32, 1, u32::MAX, 2, 3], u32::to_le_bytes),
            );
            gl.enable(PRIMITIVE_RESTART);
            gl.primitive_restart_index(u32::MAX);
            gl.draw_elements(LINE_STRIP, 5, UNSIGNED_INT, 0);
        },
        &[probe(6, 8, YELLOW), probe(25, 8, YELLOW), probe(16, 8, BG)],
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
            buffer(
                gl,
                ELEMENT_ARRAY_BUFFER,
                &le(&[4u16, 5, 8, 4, 8, 7], u16::to_le_bytes),
            );
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
            let quad: Vec<f32> = [1.0, 1.0, 7.0, 1.0, 1.0, 7.0, 7.0, 7.0]
                .into_iter()
                .map(ndc)
                .collect();
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
            let quad: Vec<f32> = [4.0, 1.0, 28.0, 1.0, 4.0, 7.0, 28.0, 7.0]
                .into_iter()
                .map(ndc)
                .collect();
            buffer(gl, ARRAY_BUFFER, &le(&quad, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            buffer(
                gl,
                ELEMENT_ARRAY_BUFFER,
                &le(&[0u32, 1, 2, 2, 1, 3], u32::to_le_bytes),
            );
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
                let v: Vec<f32> = [x0, 2.0, x0 + 12.0, 2.0, x0, 14.0, x0 + 12.0, 14.0]
                    .into_iter()
                    .map(ndc)
                    .collect();
                let up: Vec<f32> = v
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| if i % 2 == 1 { c + 1.0 } else { c })
                    .collect();
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
                let v: Vec<f32> = [x0, y0, x0 + 12.0, y0, x0, y0 + 12.0, x0 + 12.0, y0 + 12.0]
                    .into_iter()
                    .map(ndc)
                    .collect();
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
        &[
            probe(8, 8, RED),
            probe(24, 8, GREEN),
            probe(4, 20, BLUE),
            probe(12, 28, BG),
            probe(24, 24, BG),
        ],
    );
}

//! Vertex attribute formats: integer attributes (ivec/uvec, per vertex and per instance),
//! normalized and unnormalized conversions, packed formats (half float, 2_10_10_10, BGRA),
//! interleaving with stride and offset, unaligned packing, generic values of disabled arrays,
//! and locations assigned by the implementation or bound before linking.

use super::*;

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
                2.0, 2.0, 14.0, 2.0, 2.0, 30.0, 14.0, 30.0, 18.0, 2.0, 30.0, 2.0, 18.0, 30.0, 30.0,
                30.0,
            ]
            .into_iter()
            .map(ndc)
            .collect();
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            // Signed pairs: bytes for the left quad's vertices, the same values for the right.
            let signed: Vec<i8> = [-100i8, 50]
                .repeat(4)
                .into_iter()
                .chain([120i8, -128].repeat(4))
                .collect();
            buffer(
                gl,
                ARRAY_BUFFER,
                &signed.iter().map(|&b| b as u8).collect::<Vec<_>>(),
            );
            gl.vertex_attrib_i_pointer(1, 2, BYTE, 0, 0);
            gl.enable_vertex_attrib_array(1);
            let unsigned: Vec<u16> = [17u16, 200]
                .repeat(4)
                .into_iter()
                .chain([255u16, 0].repeat(4))
                .collect();
            buffer(gl, ARRAY_BUFFER, &le(&unsigned, u16::to_le_bytes));
            gl.vertex_attrib_i_pointer(2, 2, UNSIGNED_SHORT, 0, 0);
            gl.enable_vertex_attrib_array(2);
            let wide: Vec<i32> = [0x3700_0000i32; 4]
                .into_iter()
                .chain([0x7F12_3456; 4])
                .collect();
            buffer(gl, ARRAY_BUFFER, &le(&wide, i32::to_le_bytes));
            gl.vertex_attrib_i_pointer(3, 1, INT, 0, 0);
            gl.enable_vertex_attrib_array(3);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
            gl.draw_arrays(TRIANGLE_STRIP, 4, 4);
        },
        &[
            probe(8, 16, [28, 178, 17, 200 + 0x37]),
            probe(24, 16, [248, 0, 255, 127]),
            probe(16, 16, BG),
        ],
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
            let v: Vec<f32> = [4.0, 1.0, 28.0, 1.0, 4.0, 7.0, 28.0, 7.0]
                .into_iter()
                .map(ndc)
                .collect();
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            buffer(gl, ARRAY_BUFFER, &[3, 0, 2]);
            gl.vertex_attrib_i_pointer(1, 1, UNSIGNED_BYTE, 0, 0);
            gl.vertex_attrib_divisor(1, 1);
            gl.enable_vertex_attrib_array(1);
            gl.draw_arrays_instanced(TRIANGLE_STRIP, 0, 4, 3);
        },
        &[
            probe(16, 4, [0, 255, 0, 255]),
            probe(16, 12, BG),
            probe(16, 20, [120, 255, 0, 255]),
            probe(16, 28, [180, 255, 0, 255]),
        ],
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
            let pos = [
                -16384i16, -16384, 16384, -16384, -16384, 16384, 16384, 16384,
            ];
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
        &[
            probe(16, 16, [51, 102, 204, 255]),
            probe(9, 9, [51, 102, 204, 255]),
            probe(6, 16, BG),
            probe(25, 16, BG),
        ],
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
            let pos: Vec<f32> = [4.0, 4.0, 28.0, 4.0, 4.0, 28.0, 28.0, 28.0]
                .into_iter()
                .map(ndc)
                .collect();
            buffer(gl, ARRAY_BUFFER, &le(&pos, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            buffer(
                gl,
                ARRAY_BUFFER,
                &le(&[32767i16, -32768, 0, 32767].repeat(4), i16::to_le_bytes),
            );
            gl.vertex_attrib_pointer(1, 4, SHORT, true, 0, 0);
            gl.enable_vertex_attrib_array(1);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        &[probe(16, 16, [255, 0, 0, 255]), probe(2, 2, BG)],
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
            let pos = [
                0xB800u16, 0xB800, 0x3800, 0xB800, 0xB800, 0x3800, 0x3800, 0x3800,
            ];
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
            let v: Vec<f32> = [4.0, 4.0, 28.0, 4.0, 4.0, 28.0, 28.0, 28.0]
                .into_iter()
                .map(ndc)
                .collect();
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
        &[
            probe(6, 6, [255, 0, 128, 255]),
            probe(26, 26, [0, 128, 255, 255]),
            probe(2, 2, BG),
        ],
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
            for (x, y) in [
                (-16384i16, -16384i16),
                (16384, -16384),
                (-16384, 16384),
                (16384, 16384),
            ] {
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
            let v: Vec<f32> = [2.0, 4.0, 14.0, 4.0, 2.0, 28.0, 14.0, 28.0]
                .into_iter()
                .map(ndc)
                .collect();
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            gl.disable_vertex_attrib_array(1);
            let right = vertex_array(gl);
            let v: Vec<f32> = [18.0, 4.0, 30.0, 4.0, 18.0, 28.0, 30.0, 28.0]
                .into_iter()
                .map(ndc)
                .collect();
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
        &[
            probe(8, 16, [51, 102, 153, 255]),
            probe(24, 16, [255, 204, 0, 255]),
            probe(16, 16, BG),
        ],
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
            for (kind, src) in [
                (VERTEX_SHADER, LOCATIONS_VS),
                (FRAGMENT_SHADER, COLOR_VARYING_FS),
            ] {
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
            let v: Vec<f32> = [4.0, 4.0, 28.0, 4.0, 4.0, 28.0, 28.0, 28.0]
                .into_iter()
                .map(ndc)
                .collect();
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

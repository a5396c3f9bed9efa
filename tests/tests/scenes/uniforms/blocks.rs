//! Uniform blocks: std140 layouts (scalars, vectors, arrays, matrices in both majors, block-
//! level row_major with member overrides, nested structs, bools), buffers bound by range at
//! aligned offsets, uniform_block_binding, blocks shared by both stages with an instance
//! name, arrays of blocks, and buffer updates between draws.

use super::*;

/// A uniform buffer of `size` bytes filled with 0xEE, with `blocks` written at their offsets.
fn uniform_buffer(gl: &mut dyn Gl, size: usize, blocks: &[(usize, Vec<u8>)]) -> GLuint {
    let mut data = vec![0xEE; size];
    for (at, bytes) in blocks {
        data[*at..*at + bytes.len()].copy_from_slice(bytes);
    }
    buffer(gl, UNIFORM_BUFFER, &data)
}

/// std140 block contents: values written at byte offsets of a zeroed block.
struct Std140(Vec<u8>);

impl Std140 {
    fn new(size: usize) -> Self {
        Self(vec![0; size])
    }
    /// Floats k/255 from `at`.
    fn f(mut self, at: usize, v: &[u8]) -> Self {
        self.0[at..at + 4 * v.len()].copy_from_slice(&le(&ks(v), f32::to_le_bytes));
        self
    }
    /// 32-bit ints from `at`.
    fn i(mut self, at: usize, v: &[i32]) -> Self {
        self.0[at..at + 4 * v.len()].copy_from_slice(&le(v, i32::to_le_bytes));
        self
    }
}

/// Draws the cells of a program reading block `name`, whose contents lie at byte 256 of a
/// buffer bound to binding point 2 by range.
fn block_scene(name: &str, decls: &str, cells: &[&str], block: Std140, expected: &[[u8; 4]]) {
    let size = block.0.len();
    cells_scene(
        name,
        decls,
        cells,
        |gl, p| {
            let b = uniform_buffer(gl, 1024, &[(256, block.0.clone())]);
            let index = gl.get_uniform_block_index(p, "Block");
            gl.uniform_block_binding(p, index, 2);
            gl.bind_buffer_range(UNIFORM_BUFFER, 2, b, 256, size.max(256) as GLsizeiptr);
        },
        expected,
    );
}

#[test]
fn std140_block_scalars_and_vectors() {
    // Offsets: f 0, v2 8, v3 16, after_v3 28 (packed into v3's last word), v4 32, i 48,
    // u 52, b 56, iv 64.
    block_scene(
        "uniforms_std140_basic",
        "layout(std140) uniform Block { float f; vec2 v2; vec3 v3; float after_v3; vec4 v4; int i; uint u; bool b;
ivec3 iv; };",
        &[
            "vec4(f, v2, after_v3)",
            "vec4(v3, 1.0)",
            "v4",
            "vec4(ivec4(i, int(u >> 24u), b ? 255 : 0, 255)) / 255.0",
            "vec4(ivec4(iv, 255) + ivec4(128, 128, 128, 0)) / 255.0",
        ],
        Std140::new(80)
            .f(0, &[10])
            .f(8, &[20, 30])
            .f(16, &[50, 60, 70])
            .f(28, &[40])
            .f(32, &[80, 90, 100, 110])
            .i(48, &[120, 0x8300_0000u32 as i32, 1])
            .i(64, &[-128, 0, 127]),
        &[[10, 20, 30, 40], [50, 60, 70, 255], [80, 90, 100, 110], [120, 131, 255, 255], [0, 128, 255, 255]],
    );
}

#[test]
fn std140_block_arrays() {
    // Array elements advance by 16 bytes: a 0/16/32, b 48/64, c 80/96, d 112/128, tail 144.
    block_scene(
        "uniforms_std140_arrays",
        "layout(std140) uniform Block { float a[3]; vec2 b[2]; vec3 c[2]; ivec4 d[2]; float tail; };",
        &[
            "vec4(a[0], a[1], a[2], tail)",
            "vec4(b[0], b[1])",
            "vec4(c[0], 1.0)",
            "vec4(c[1], 1.0)",
            "vec4(d[0]) / 255.0",
            "vec4(d[1]) / 255.0",
        ],
        Std140::new(160)
            .f(0, &[10])
            .f(16, &[20])
            .f(32, &[30])
            .f(48, &[50, 60])
            .f(64, &[70, 80])
            .f(80, &[90, 100, 110])
            .f(96, &[120, 130, 140])
            .i(112, &[150, 160, 170, 180])
            .i(128, &[190, 200, 210, 220])
            .f(144, &[40]),
        &[
            [10, 20, 30, 40],
            [50, 60, 70, 80],
            [90, 100, 110, 255],
            [120, 130, 140, 255],
            [150, 160, 170, 180],
            [190, 200, 210, 220],
        ],
    );
}

#[test]
fn std140_block_matrices() {
    // cm: column-major mat4 at 0 (column j at 16j); rm: row_major mat4 at 64 (row r at
    // 64 + 16r); cm23: mat2x3 columns at 128 and 144; rm23: row_major mat2x3, rows (of two)
    // at 160, 176, 192; m3a: mat3[2] at 208 and 256, columns 16 bytes apart.
    let mut block = Std140::new(304);
    for j in 0..4u8 {
        block = block.f(
            16 * j as usize,
            &[10 + 4 * j, 11 + 4 * j, 12 + 4 * j, 13 + 4 * j],
        );
    }
    for r in 0..4u8 {
        // rm[c][r] = 30 + 4c + r, stored in row r.
        block = block.f(64 + 16 * r as usize, &[30 + r, 34 + r, 38 + r, 42 + r]);
    }
    block = block.f(128, &[50, 51, 52]).f(144, &[53, 54, 55]);
    for r in 0..3u8 {
        // rm23[c][r] = 60 + 3c + r.
        block = block.f(160 + 16 * r as usize, &[60 + r, 63 + r]);
    }
    for (i, at) in [(0u8, 208), (1, 256)] {
        for j in 0..3u8 {
            let v = 100 + 30 * i + 3 * j;
            block = block.f(at + 16 * j as usize, &[v, v + 1, v + 2]);
        }
    }
    let mut cells: Vec<String> = (0..4).map(|j| format!("cm[{j}]")).collect();
    cells.extend((0..4).map(|j| format!("rm[{j}]")));
    cells.extend((0..2).map(|j| format!("vec4(cm23[{j}], 1.0)")));
    cells.extend((0..2).map(|j| format!("vec4(rm23[{j}], 1.0)")));
    cells.extend((0..3).map(|j| format!("vec4(m3a[1][{j}], 1.0)")));
    cells.push("vec4(m3a[0][2], 1.0)".into());
    let refs: Vec<&str> = cells.iter().map(String::as_str).collect();
    let mut expected: Vec<[u8; 4]> = (0..4u8)
        .map(|j| [10 + 4 * j, 11 + 4 * j, 12 + 4 * j, 13 + 4 * j])
        .collect();
    expected.extend((0..4u8).map(|c| [30 + 4 * c, 31 + 4 * c, 32 + 4 * c, 33 + 4 * c]));
    expected.extend([
        [50, 51, 52, 255],
        [53, 54, 55, 255],
        [60, 61, 62, 255],
        [63, 64, 65, 255],
    ]);
    expected.extend([
        [130, 131, 132, 255],
        [133, 134, 135, 255],
        [136, 137, 138, 255],
        [106, 107, 108, 255],
    ]);
    block_scene(
        "uniforms_std140_matrices",
        "layout(std140) uniform Block { mat4 cm; layout(row_major) mat4 rm; mat2x3 cm23;
layout(row_major) mat2x3 rm23; mat3 m3a[2]; };",
        &refs,
        block,
        &expected,
    );
}

#[test]
fn std140_row_major_block_and_member_override() {
    // Block-level row_major: m (mat3) stored as rows 0/16/32; n (mat2x4) as four rows of two
    // at 48/64/80/96; c (column_major override, mat2) columns at 112/128; flags bool[2] at
    // 144/160 (any non-zero word is true).
    let mut block = Std140::new(176);
    for r in 0..3u8 {
        // m[c][r] = 10 + 3c + r.
        block = block.f(16 * r as usize, &[10 + r, 13 + r, 16 + r]);
    }
    for r in 0..4u8 {
        // n[c][r] = 30 + 4c + r.
        block = block.f(48 + 16 * r as usize, &[30 + r, 34 + r]);
    }
    block = block
        .f(112, &[50, 51])
        .f(128, &[52, 53])
        .i(144, &[7])
        .i(160, &[0]);
    block_scene(
        "uniforms_std140_row_major_block",
        "layout(std140, row_major) uniform Block { mat3 m; mat2x4 n; layout(column_major) mat2 c; bool flags[2]; };",
        &[
            "vec4(m[0], 1.0)",
            "vec4(m[1], 1.0)",
            "vec4(m[2], 1.0)",
            "n[0]",
            "n[1]",
            "vec4(c[0], c[1])",
            "vec4(flags[0], flags[1], 0.0, 1.0)",
        ],
        block,
        &[
            [10, 11, 12, 255],
            [13, 14, 15, 255],
            [16, 17, 18, 255],
            [30, 31, 32, 33],
            [34, 35, 36, 37],
            [50, 51, 52, 53],
            [255, 0, 0, 255],
        ],
    );
}

#[test]
fn std140_block_nested_structs() {
    // Inner { vec2 a; float b; } is 16 bytes. Outer: x 0, inner[2] 16/32, y 48, m columns
    // 64/80 (96 bytes). Block: o 0, solo 96, tail 112.
    block_scene(
        "uniforms_std140_nested_structs",
        "struct Inner { vec2 a; float b; };
struct Outer { float x; Inner inner[2]; vec3 y; mat2 m; };
layout(std140) uniform Block { Outer o; Inner solo; float tail; };",
        &[
            "vec4(o.x, o.y)",
            "vec4(o.inner[0].a, o.inner[0].b, 1.0)",
            "vec4(o.inner[1].a, o.inner[1].b, 1.0)",
            "vec4(o.m[0], o.m[1])",
            "vec4(solo.a, solo.b, tail)",
        ],
        Std140::new(128)
            .f(0, &[10])
            .f(16, &[50, 60, 70])
            .f(32, &[80, 90, 100])
            .f(48, &[20, 30, 40])
            .f(64, &[110, 120])
            .f(80, &[130, 140])
            .f(96, &[150, 160, 170])
            .f(112, &[180]),
        &[
            [10, 20, 30, 40],
            [50, 60, 70, 255],
            [80, 90, 100, 255],
            [110, 120, 130, 140],
            [150, 160, 170, 180],
        ],
    );
}

#[test]
fn two_blocks_with_their_bindings() {
    // A reads binding 3 (offset 256), B binding 1 (offset 512). Then, for a second draw on
    // the top half, B is moved to binding 3 and binding 3 to offset 0.
    let mut cells = vec!["a", "b"];
    cells.resize(16, "");
    cells.extend(["a", "b"]);
    cells_scene(
        "uniforms_two_blocks_bindings",
        "layout(std140) uniform A { vec4 a; }; layout(std140) uniform B { vec4 b; };",
        &cells,
        |gl, p| {
            let b = uniform_buffer(
                gl,
                1024,
                &[
                    (0, Std140::new(16).f(0, &[10, 20, 30, 40]).0),
                    (256, Std140::new(16).f(0, &[50, 60, 70, 80]).0),
                    (512, Std140::new(16).f(0, &[90, 100, 110, 120]).0),
                ],
            );
            let (ia, ib) = (
                gl.get_uniform_block_index(p, "A"),
                gl.get_uniform_block_index(p, "B"),
            );
            gl.bind_buffer_base(UNIFORM_BUFFER, 0, b);
            gl.uniform_block_binding(p, ia, 3);
            gl.uniform_block_binding(p, ib, 1);
            gl.bind_buffer_range(UNIFORM_BUFFER, 1, b, 512, 16);
            gl.bind_buffer_range(UNIFORM_BUFFER, 3, b, 256, 16);
            vertex_array(gl);
            gl.draw_arrays(TRIANGLES, 0, 3);
            gl.enable(SCISSOR_TEST);
            gl.scissor(0, 16, CW, 16);
            gl.uniform_block_binding(p, ib, 3);
            gl.bind_buffer_range(UNIFORM_BUFFER, 3, b, 0, 16);
        },
        &{
            let mut e = vec![[50, 60, 70, 80], [90, 100, 110, 120]];
            e.resize(16, [0, 0, 64, 255]);
            e.extend([[10, 20, 30, 40], [10, 20, 30, 40]]);
            e
        },
    );
}

#[test]
fn block_in_both_stages_with_instance_name() {
    // One block (instance name `xf`) read by both stages: the transform by the vertex
    // shader, the tint by the fragment shader.
    check(
        "uniforms_block_both_stages",
        CW,
        CH,
        |gl| {
            gl.clear_color(0.0, 0.0, k(64), 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let p = program(
                gl,
                "#version 330 core
layout(location = 0) in vec4 position;
layout(std140) uniform Xform { mat4 mvp; vec4 tint; } xf;
void main() { gl_Position = xf.mvp * position; }
",
                "#version 330 core
layout(std140) uniform Xform { mat4 mvp; vec4 tint; } xf;
out vec4 frag;
void main() { frag = xf.tint; }
",
            );
            gl.use_program(p);
            let mut block = le(&MVP, f32::to_le_bytes);
            block.extend(le(&ks(&[90, 80, 70, 60]), f32::to_le_bytes));
            let b = uniform_buffer(gl, 512, &[(256, block)]);
            let index = gl.get_uniform_block_index(p, "Xform");
            gl.uniform_block_binding(p, index, 5);
            gl.bind_buffer_range(UNIFORM_BUFFER, 5, b, 256, 80);
            unit_square(gl);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        &[
            probe(40, 8, [90, 80, 70, 60]),
            probe(20, 8, [0, 0, 64, 255]),
        ],
    );
}

#[test]
fn block_arrays() {
    // An array of blocks: Item[0] and Item[1] are separate blocks with their own bindings.
    cells_scene(
        "uniforms_block_array",
        "layout(std140) uniform Item { vec4 color; } items[2];",
        &["items[0].color", "items[1].color"],
        |gl, p| {
            let b = uniform_buffer(
                gl,
                1024,
                &[
                    (256, Std140::new(16).f(0, &[1, 2, 3, 4]).0),
                    (512, Std140::new(16).f(0, &[5, 6, 7, 8]).0),
                ],
            );
            for (name, binding, offset) in [("Item[0]", 4, 512), ("Item[1]", 6, 256)] {
                let index = gl.get_uniform_block_index(p, name);
                gl.uniform_block_binding(p, index, binding);
                gl.bind_buffer_range(UNIFORM_BUFFER, binding, b, offset, 16);
            }
        },
        &[[5, 6, 7, 8], [1, 2, 3, 4]],
    );
}

#[test]
fn block_updated_between_draws() {
    // The buffer behind a block rewritten between two draws (bottom half, then top half).
    cells_scene(
        "uniforms_block_updated_between_draws",
        "layout(std140) uniform Block { vec4 v; };",
        &[
            "v", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "v",
        ],
        |gl, p| {
            let b = uniform_buffer(gl, 256, &[(0, Std140::new(16).f(0, &[11, 22, 33, 44]).0)]);
            let index = gl.get_uniform_block_index(p, "Block");
            gl.uniform_block_binding(p, index, 0);
            gl.bind_buffer_base(UNIFORM_BUFFER, 0, b);
            gl.enable(SCISSOR_TEST);
            gl.scissor(0, 0, CW, 16);
            vertex_array(gl);
            gl.draw_arrays(TRIANGLES, 0, 3);
            gl.buffer_sub_data(
                UNIFORM_BUFFER,
                0,
                &Std140::new(16).f(0, &[55, 66, 77, 88]).0,
            );
            gl.scissor(0, 16, CW, 16);
        },
        &{
            let mut e = vec![[11, 22, 33, 44]];
            e.resize(16, [0, 0, 64, 255]);
            e.push([55, 66, 77, 88]);
            e
        },
    );
}

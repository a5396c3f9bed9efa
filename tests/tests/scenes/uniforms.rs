//! Uniform scenes: values of every basic type in the default block (scalars, vectors,
//! booleans set through float/int/uint calls, square and non-square matrices with and
//! without transpose, arrays, structs, arrays of structs), uniform blocks with std140
//! layout bound at aligned offsets, and programs that keep their own values.
//!
//! Each scene draws one full-screen triangle whose fragment shader splits a 64 x 32
//! framebuffer into 8 x 4 cells of 8 pixels and shows one value per cell as a colour, so one
//! draw checks many values. Values are k/255 (floats) or small integers, so that every colour
//! is exact in RGBA8.

use tessera_engine::gl::*;
use tessera_tests::differential::{Probe, check, probe};
use tessera_tests::gl::Gl;

use super::geometry::{buffer, le, program, vertex_array};

mod blocks;

/// Framebuffer width of the cell scenes (height 32): 8 x 4 cells.
const CW: i32 = 64;
const CH: i32 = 32;

/// A full-screen triangle from gl_VertexID alone.
const CELL_VS: &str = "#version 330 core
void main() {
    vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID >> 1) * 4 - 1));
    gl_Position = vec4(p, 0.0, 1.0);
}
";

/// The fragment shader showing `cells[i]` (a vec4 expression) in cell i; empty cells show
/// the background (0, 0, 64, 255).
fn cell_fs(decls: &str, cells: &[&str]) -> String {
    let mut s = format!("#version 330 core\n{decls}\nout vec4 frag;\nvoid main() {{\n");
    s += "    ivec2 cell_xy = ivec2(gl_FragCoord.xy) / 8;\n    int cell = cell_xy.x + 8 * cell_xy.y;\n";
    s += "    vec4 shown = vec4(0.0, 0.0, 64.0 / 255.0, 1.0);\n";
    for (i, e) in cells.iter().enumerate() {
        if !e.is_empty() {
            s += &format!("    if (cell == {i}) shown = {e};\n");
        }
    }
    s + "    frag = shown;\n}\n"
}

/// Links the cell program for `cells`, lets `set` load its uniforms, and draws.
fn draw_cells(
    gl: &mut dyn Gl,
    decls: &str,
    cells: &[&str],
    set: impl FnOnce(&mut dyn Gl, GLuint),
) -> GLuint {
    let p = program(gl, CELL_VS, &cell_fs(decls, cells));
    gl.use_program(p);
    set(gl, p);
    vertex_array(gl);
    gl.draw_arrays(TRIANGLES, 0, 3);
    p
}

/// A probe at the centre of each cell with an expected value.
fn cell_probes(expected: &[[u8; 4]]) -> Vec<Probe> {
    expected
        .iter()
        .enumerate()
        .map(|(i, &c)| probe(8 * (i as i32 % 8) + 4, 8 * (i as i32 / 8) + 4, c))
        .collect()
}

/// k / 255.
fn k(v: u8) -> f32 {
    f32::from(v) / 255.0
}

/// k / 255 for each value.
fn ks(v: &[u8]) -> Vec<f32> {
    v.iter().map(|&x| k(x)).collect()
}

/// Runs a cell scene: the probes are checked at the first `expected.len()` cells, the
/// others must show the background.
fn cells_scene(
    name: &str,
    decls: &str,
    cells: &[&str],
    set: impl Fn(&mut dyn Gl, GLuint),
    expected: &[[u8; 4]],
) {
    let mut all = expected.to_vec();
    all.push([0, 0, 64, 255]);
    check(
        name,
        CW,
        CH,
        |gl| {
            draw_cells(gl, decls, cells, &set);
        },
        &cell_probes(&all),
    );
}

#[test]
fn float_vectors() {
    cells_scene(
        "uniforms_float_vectors",
        "uniform float f; uniform vec2 v2; uniform vec3 v3; uniform vec4 v4; uniform vec4 v4b;",
        &[
            "vec4(f, f, f, 1.0)",
            "vec4(v2, 0.0, 1.0)",
            "vec4(v3, 1.0)",
            "v4",
            "v4b",
            "vec4(v2.yx, v3.z, f)",
        ],
        |gl, p| {
            let loc = |gl: &mut dyn Gl, n: &str| gl.get_uniform_location(p, n);
            let l = loc(gl, "f");
            gl.uniform1fv(l, &[k(51)]);
            let l = loc(gl, "v2");
            gl.uniform2f(l, k(10), k(20));
            let l = loc(gl, "v3");
            gl.uniform3fv(l, &ks(&[30, 40, 50]));
            let l = loc(gl, "v4");
            gl.uniform4f(l, k(60), k(70), k(80), k(90));
            let l = loc(gl, "v4b");
            gl.uniform4fv(l, &ks(&[100, 110, 120, 130]));
        },
        &[
            [51, 51, 51, 255],
            [10, 20, 0, 255],
            [30, 40, 50, 255],
            [60, 70, 80, 90],
            [100, 110, 120, 130],
            [20, 10, 50, 51],
        ],
    );
}

#[test]
fn int_vectors() {
    // s() shows signed values offset by 128; the wide ints show their bytes.
    cells_scene(
        "uniforms_int_vectors",
        "uniform int i1; uniform ivec2 i2; uniform ivec3 i3; uniform ivec4 i4; uniform int big; uniform int neg;
vec4 s(ivec4 v) { return vec4(v + 128) / 255.0; }
vec4 bytes(int v) { return vec4(float((v >> 24) & 255), float(v & 255), float((v >> 8) & 255), 255.0) / 255.0; }",
        &["s(ivec4(i1, 0, 0, 127))", "s(ivec4(i2, -128, 127))", "s(ivec4(i3, 127))", "s(i4)", "bytes(big)", "bytes(neg)"],
        |gl, p| {
            let loc = |gl: &mut dyn Gl, n: &str| gl.get_uniform_location(p, n);
            let l = loc(gl, "i1");
            gl.uniform1i(l, -100);
            let l = loc(gl, "i2");
            gl.uniform2i(l, 5, -5);
            let l = loc(gl, "i3");
            gl.uniform3iv(l, &[-1, 0, 1]);
            let l = loc(gl, "i4");
            gl.uniform4i(l, -128, 127, 64, -64);
            let l = loc(gl, "big");
            gl.uniform1iv(l, &[0x1234_5678]);
            let l = loc(gl, "neg");
            gl.uniform1i(l, -2);
        },
        &[
            [28, 128, 128, 255],
            [133, 123, 0, 255],
            [127, 128, 129, 255],
            [0, 255, 192, 64],
            [0x12, 0x78, 0x56, 255],
            [255, 254, 255, 255],
        ],
    );
}

#[test]
fn uint_vectors() {
    // bytes() shows a uint's four bytes, most significant first.
    cells_scene(
        "uniforms_uint_vectors",
        "uniform uint u1; uniform uvec2 u2; uniform uvec3 u3; uniform uvec4 u4;
vec4 bytes(uint v) { return vec4(float(v >> 24u), float((v >> 16u) & 255u), float((v >> 8u) & 255u), float(v & 255u)) / 255.0; }",
        &["bytes(u1)", "bytes(u2.x)", "bytes(u2.y)", "bytes(u3.x)", "bytes(u3.y)", "bytes(u3.z)", "vec4(u4) / 255.0"],
        |gl, p| {
            let loc = |gl: &mut dyn Gl, n: &str| gl.get_uniform_location(p, n);
            let l = loc(gl, "u1");
            gl.uniform1ui(l, 0xC0FF_EE42);
            let l = loc(gl, "u2");
            gl.uniform2uiv(l, &[0x0102_0304, 0xFFFF_FFFF]);
            let l = loc(gl, "u3");
            gl.uniform3ui(l, 0x8000_0000, 0x7F7F_7F7F, 0x11);
            let l = loc(gl, "u4");
            gl.uniform4uiv(l, &[1, 2, 250, 255]);
        },
        &[
            [0xC0, 0xFF, 0xEE, 0x42],
            [1, 2, 3, 4],
            [255, 255, 255, 255],
            [128, 0, 0, 0],
            [127, 127, 127, 127],
            [0, 0, 0, 17],
            [1, 2, 250, 255],
        ],
    );
}

#[test]
fn bool_vectors_from_float_int_and_uint_calls() {
    // Booleans may be loaded with the f, i and ui calls: any non-zero value is true.
    cells_scene(
        "uniforms_bool_vectors",
        "uniform bool b1; uniform bool b1f; uniform bvec2 b2; uniform bvec3 b3; uniform bvec4 b4; uniform bvec4 b4u;",
        &[
            "vec4(b1, b1f, 0.0, 1.0)",
            "vec4(b2, 0.0, 1.0)",
            "vec4(b3, 1.0)",
            "vec4(b4)",
            "vec4(b4u)",
            "vec4(b1 && b2.y, any(b3), all(b4), 1.0)",
        ],
        |gl, p| {
            let loc = |gl: &mut dyn Gl, n: &str| gl.get_uniform_location(p, n);
            let l = loc(gl, "b1");
            gl.uniform1i(l, 1);
            let l = loc(gl, "b1f");
            gl.uniform1f(l, 0.0);
            let l = loc(gl, "b2");
            gl.uniform2i(l, 0, 5);
            let l = loc(gl, "b3");
            gl.uniform3f(l, 0.0, 1.0, -0.5);
            let l = loc(gl, "b4");
            gl.uniform4iv(l, &[1, 0, 0, -1]);
            let l = loc(gl, "b4u");
            gl.uniform4ui(l, 0, 7, 0, 0xFFFF_FFFF);
        },
        &[
            [255, 0, 0, 255],
            [0, 255, 0, 255],
            [0, 255, 255, 255],
            [255, 0, 0, 255],
            [0, 255, 0, 255],
            [255, 255, 0, 255],
        ],
    );
}

/// A matrix uniform: GLSL type, columns, rows, first value.
struct Mat {
    ty: &'static str,
    cols: usize,
    rows: usize,
    base: u8,
}

/// Loads `data` into the matrix uniform at `loc` with the call for its shape.
fn uniform_matrix(gl: &mut dyn Gl, m: &Mat, loc: GLint, transpose: bool, data: &[f32]) {
    match (m.cols, m.rows) {
        (2, 2) => gl.uniform_matrix2fv(loc, transpose, data),
        (3, 3) => gl.uniform_matrix3fv(loc, transpose, data),
        (4, 4) => gl.uniform_matrix4fv(loc, transpose, data),
        (2, 3) => gl.uniform_matrix2x3fv(loc, transpose, data),
        (3, 2) => gl.uniform_matrix3x2fv(loc, transpose, data),
        (2, 4) => gl.uniform_matrix2x4fv(loc, transpose, data),
        (4, 2) => gl.uniform_matrix4x2fv(loc, transpose, data),
        (3, 4) => gl.uniform_matrix3x4fv(loc, transpose, data),
        (4, 3) => gl.uniform_matrix4x3fv(loc, transpose, data),
        _ => unreachable!("matrix shapes are 2..4 x 2..4"),
    }
}

/// One cell per column of each matrix `m{i}` (padded with 0, 1), loaded from the values
/// base, base + 1, ... in column-major order, or row-major with `transpose`. The expected
/// column c holds element (c, r) = data[c * rows + r], or data[r * cols + c] transposed.
fn matrices_scene(name: &str, mats: &[Mat], transpose: bool) {
    let decls: String = mats
        .iter()
        .enumerate()
        .map(|(i, m)| format!("uniform {} m{i};\n", m.ty))
        .collect();
    let mut cells = Vec::new();
    let mut expected = Vec::new();
    for (i, m) in mats.iter().enumerate() {
        for c in 0..m.cols {
            cells.push(match m.rows {
                2 => format!("vec4(m{i}[{c}], 0.0, 1.0)"),
                3 => format!("vec4(m{i}[{c}], 1.0)"),
                _ => format!("m{i}[{c}]"),
            });
            let mut px = [0, 0, 0, 255];
            for (r, value) in px.iter_mut().enumerate().take(m.rows) {
                let at = if transpose {
                    r * m.cols + c
                } else {
                    c * m.rows + r
                };
                *value = m.base + at as u8;
            }
            expected.push(px);
        }
    }
    let cell_refs: Vec<&str> = cells.iter().map(String::as_str).collect();
    cells_scene(
        name,
        &decls,
        &cell_refs,
        |gl, p| {
            for (i, m) in mats.iter().enumerate() {
                let loc = gl.get_uniform_location(p, &format!("m{i}"));
                let data: Vec<f32> = (0..m.cols * m.rows).map(|j| k(m.base + j as u8)).collect();
                uniform_matrix(gl, m, loc, transpose, &data);
            }
        },
        &expected,
    );
}

const SQUARE: [Mat; 3] = [
    Mat {
        ty: "mat2",
        cols: 2,
        rows: 2,
        base: 10,
    },
    Mat {
        ty: "mat3",
        cols: 3,
        rows: 3,
        base: 20,
    },
    Mat {
        ty: "mat4",
        cols: 4,
        rows: 4,
        base: 40,
    },
];

const NON_SQUARE: [Mat; 6] = [
    Mat {
        ty: "mat2x3",
        cols: 2,
        rows: 3,
        base: 10,
    },
    Mat {
        ty: "mat3x2",
        cols: 3,
        rows: 2,
        base: 20,
    },
    Mat {
        ty: "mat2x4",
        cols: 2,
        rows: 4,
        base: 30,
    },
    Mat {
        ty: "mat4x2",
        cols: 4,
        rows: 2,
        base: 40,
    },
    Mat {
        ty: "mat3x4",
        cols: 3,
        rows: 4,
        base: 50,
    },
    Mat {
        ty: "mat4x3",
        cols: 4,
        rows: 3,
        base: 70,
    },
];

#[test]
fn square_matrices() {
    matrices_scene("uniforms_matrices_square", &SQUARE, false);
}

#[test]
fn square_matrices_transposed() {
    matrices_scene("uniforms_matrices_square_transposed", &SQUARE, true);
}

#[test]
fn non_square_matrices() {
    matrices_scene("uniforms_matrices_non_square", &NON_SQUARE, false);
}

#[test]
fn non_square_matrices_transposed() {
    matrices_scene("uniforms_matrices_non_square_transposed", &NON_SQUARE, true);
}

#[test]
fn arrays_of_scalars_and_vectors() {
    // Whole arrays, then single elements and tails through the location of an element.
    cells_scene(
        "uniforms_arrays_scalars_vectors",
        "uniform float fa[3]; uniform int ia[2]; uniform uint ua[2]; uniform bool ba[3]; uniform vec4 va[3];
uniform ivec2 iva[2]; uniform vec3 v3a[2];",
        &[
            "vec4(fa[0], fa[1], fa[2], 1.0)",
            "vec4(ivec4(ia[0], ia[1], 0, 255)) / 255.0",
            "vec4(uvec4(ua[0] >> 24u, ua[1] & 255u, 0u, 255u)) / 255.0",
            "vec4(ba[0], ba[1], ba[2], 1.0)",
            "va[0]",
            "va[1]",
            "va[2]",
            "vec4(vec2(iva[0]), vec2(iva[1])) / 255.0",
            "vec4(v3a[0], 1.0)",
            "vec4(v3a[1], 1.0)",
        ],
        |gl, p| {
            let loc = |gl: &mut dyn Gl, n: &str| gl.get_uniform_location(p, n);
            let l = loc(gl, "fa");
            gl.uniform1fv(l, &ks(&[10, 20, 30]));
            let l = loc(gl, "fa[2]");
            gl.uniform1f(l, k(33));
            let l = loc(gl, "ia");
            gl.uniform1iv(l, &[7, 200]);
            let l = loc(gl, "ua[0]");
            gl.uniform1uiv(l, &[0xAB00_0000, 0x1234_5699]);
            let l = loc(gl, "ba");
            gl.uniform1iv(l, &[0, 1, 1]);
            let l = loc(gl, "ba[2]");
            gl.uniform1i(l, 0);
            let l = loc(gl, "va");
            gl.uniform4fv(l, &ks(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
            let l = loc(gl, "va[1]");
            gl.uniform4fv(l, &ks(&[50, 60, 70, 80, 90, 100, 110, 120]));
            let l = loc(gl, "iva");
            gl.uniform2iv(l, &[1, 2, 3, 4]);
            let l = loc(gl, "v3a");
            gl.uniform3fv(l, &ks(&[11, 22, 33, 44, 55, 66]));
        },
        &[
            [10, 20, 33, 255],
            [7, 200, 0, 255],
            [171, 153, 0, 255],
            [0, 255, 0, 255],
            [1, 2, 3, 4],
            [50, 60, 70, 80],
            [90, 100, 110, 120],
            [1, 2, 3, 4],
            [11, 22, 33, 255],
            [44, 55, 66, 255],
        ],
    );
}

#[test]
fn arrays_of_matrices() {
    // mat2[2] in one call; mat3x2[2] transposed (row-major input); mat4[2] one element at a
    // time through "m4a" and "m4a[1]".
    cells_scene(
        "uniforms_arrays_matrices",
        "uniform mat2 m2a[2]; uniform mat3x2 m32a[2]; uniform mat4 m4a[2];",
        &[
            "vec4(m2a[0][0], m2a[0][1])",
            "vec4(m2a[1][0], m2a[1][1])",
            "vec4(m32a[0][0], m32a[0][1])",
            "vec4(m32a[0][2], m32a[1][0])",
            "vec4(m32a[1][1], m32a[1][2])",
            "m4a[0][3]",
            "m4a[1][0]",
            "m4a[1][1]",
            "m4a[1][2]",
            "m4a[1][3]",
        ],
        |gl, p| {
            let loc = |gl: &mut dyn Gl, n: &str| gl.get_uniform_location(p, n);
            let l = loc(gl, "m2a");
            gl.uniform_matrix2fv(l, false, &ks(&[1, 2, 3, 4, 5, 6, 7, 8]));
            let l = loc(gl, "m32a");
            gl.uniform_matrix3x2fv(
                l,
                true,
                &ks(&[10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25]),
            );
            let l = loc(gl, "m4a");
            gl.uniform_matrix4fv(l, false, &ks(&(30..46).collect::<Vec<u8>>()));
            let l = loc(gl, "m4a[1]");
            gl.uniform_matrix4fv(l, false, &ks(&(100..116).collect::<Vec<u8>>()));
        },
        &[
            [1, 2, 3, 4],
            [5, 6, 7, 8],
            [10, 13, 11, 14],
            [12, 15, 20, 23],
            [21, 24, 22, 25],
            [42, 43, 44, 45],
            [100, 101, 102, 103],
            [104, 105, 106, 107],
            [108, 109, 110, 111],
            [112, 113, 114, 115],
        ],
    );
}

#[test]
fn structs() {
    cells_scene(
        "uniforms_struct",
        "struct S { vec4 color; float scale; int offset; mat2 m; bool flag; uvec2 pair; };
uniform S s;",
        &[
            "s.color",
            "vec4(s.scale, float(s.offset + 100) / 255.0, 0.0, 1.0)",
            "vec4(s.m[0], s.m[1])",
            "vec4(s.flag, !s.flag, 0.0, 1.0)",
            "vec4(vec2(s.pair), 0.0, 255.0) / 255.0",
        ],
        |gl, p| {
            let loc = |gl: &mut dyn Gl, n: &str| gl.get_uniform_location(p, n);
            let l = loc(gl, "s.color");
            gl.uniform4f(l, k(10), k(20), k(30), k(40));
            let l = loc(gl, "s.scale");
            gl.uniform1f(l, k(51));
            let l = loc(gl, "s.offset");
            gl.uniform1i(l, 23);
            let l = loc(gl, "s.m");
            gl.uniform_matrix2fv(l, false, &ks(&[60, 61, 62, 63]));
            let l = loc(gl, "s.flag");
            gl.uniform1i(l, 1);
            let l = loc(gl, "s.pair");
            gl.uniform2ui(l, 77, 88);
        },
        &[
            [10, 20, 30, 40],
            [51, 123, 0, 255],
            [60, 61, 62, 63],
            [255, 0, 0, 255],
            [77, 88, 0, 255],
        ],
    );
}

#[test]
fn arrays_of_structs() {
    // Light j: pos (10j + 1, 10j + 2, 10j + 3), w 100 + j, idx [(j + 1, 2j + 5), (50 + j,
    // 60 + j)]; the last idx element of light 2 set through its own location.
    let cells: Vec<String> = (0..3)
        .flat_map(|j| {
            [
                format!("vec4(lights[{j}].pos, lights[{j}].w)"),
                format!("vec4(vec2(lights[{j}].idx[0]), vec2(lights[{j}].idx[1])) / 255.0"),
            ]
        })
        .collect();
    let refs: Vec<&str> = cells.iter().map(String::as_str).collect();
    let expected: Vec<[u8; 4]> = (0..3u8)
        .flat_map(|j| {
            [
                [10 * j + 1, 10 * j + 2, 10 * j + 3, 100 + j],
                [j + 1, 2 * j + 5, 50 + j, 60 + j],
            ]
        })
        .collect();
    cells_scene(
        "uniforms_arrays_of_structs",
        "struct Light { vec3 pos; float w; ivec2 idx[2]; };
uniform Light lights[3];",
        &refs,
        |gl, p| {
            for j in 0..3u8 {
                let l = gl.get_uniform_location(p, &format!("lights[{j}].pos"));
                gl.uniform3fv(l, &ks(&[10 * j + 1, 10 * j + 2, 10 * j + 3]));
                let l = gl.get_uniform_location(p, &format!("lights[{j}].w"));
                gl.uniform1f(l, k(100 + j));
                let l = gl.get_uniform_location(p, &format!("lights[{j}].idx"));
                let j = i32::from(j);
                if j < 2 {
                    gl.uniform2iv(l, &[j + 1, 2 * j + 5, 50 + j, 60 + j]);
                } else {
                    gl.uniform2iv(l, &[j + 1, 2 * j + 5]);
                    let l = gl.get_uniform_location(p, "lights[2].idx[1]");
                    gl.uniform2i(l, 50 + j, 60 + j);
                }
            }
        },
        &expected,
    );
}

#[test]
fn unset_and_relinked_uniforms_are_zero() {
    // Never-set uniforms read 0; a successful relink resets values set before it to 0.
    check(
        "uniforms_unset_and_relinked",
        CW,
        CH,
        |gl| {
            let p = draw_cells(
                gl,
                "uniform vec4 never_set; uniform int never_i; uniform vec4 reset;",
                &[
                    "vec4(never_set.rgb, 1.0)",
                    "vec4(float(never_i + 10) / 255.0, 0.0, 0.0, 1.0)",
                    "reset + vec4(0.0, 0.0, 0.0, 1.0)",
                ],
                |gl, p| {
                    let l = gl.get_uniform_location(p, "reset");
                    gl.uniform4f(l, 1.0, 1.0, 1.0, 0.0);
                    gl.link_program(p);
                },
            );
            assert_eq!(gl.get_programi(p, LINK_STATUS), TRUE as i32);
        },
        &cell_probes(&[
            [0, 0, 0, 255],
            [10, 0, 0, 255],
            [0, 0, 0, 255],
            [0, 0, 64, 255],
        ]),
    );
}

const QUAD_VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

#[test]
fn two_programs_keep_their_own_uniforms() {
    // Each program's uniforms are set once; draws alternate programs, and each draw sees its
    // own program's values (the locations differ between the programs).
    check(
        "uniforms_two_programs",
        CW,
        CH,
        |gl| {
            gl.clear_color(0.0, 0.0, k(64), 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let p1 = program(
                gl,
                QUAD_VS,
                "#version 330 core\nuniform vec4 color; out vec4 frag; void main() { frag = color; }\n",
            );
            let p2 = program(
                gl,
                QUAD_VS,
                "#version 330 core\nuniform float extra; uniform vec4 color; out vec4 frag;
void main() { frag = color + vec4(extra, 0.0, 0.0, 0.0); }\n",
            );
            gl.use_program(p1);
            let l = gl.get_uniform_location(p1, "color");
            gl.uniform4f(l, k(10), k(20), k(30), 1.0);
            gl.use_program(p2);
            let l = gl.get_uniform_location(p2, "color");
            gl.uniform4f(l, k(100), k(110), k(120), 1.0);
            let l = gl.get_uniform_location(p2, "extra");
            gl.uniform1f(l, k(5));
            vertex_array(gl);
            let quads: Vec<f32> = (0..4)
                .flat_map(|i| {
                    let x0 = -1.0 + 0.5 * i as f32;
                    [
                        x0,
                        -1.0,
                        x0 + 0.5,
                        -1.0,
                        x0,
                        1.0,
                        x0,
                        1.0,
                        x0 + 0.5,
                        -1.0,
                        x0 + 0.5,
                        1.0,
                    ]
                })
                .collect();
            buffer(gl, ARRAY_BUFFER, &le(&quads, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            for i in 0..4 {
                gl.use_program(if i % 2 == 0 { p1 } else { p2 });
                gl.draw_arrays(TRIANGLES, 6 * i, 6);
            }
        },
        &[
            probe(8, 16, [10, 20, 30, 255]),
            probe(24, 16, [105, 110, 120, 255]),
            probe(40, 16, [10, 20, 30, 255]),
            probe(56, 16, [105, 110, 120, 255]),
        ],
    );
}

const STAGES_VS: &str = "#version 330 core
layout(location = 0) in vec4 position;
uniform mat4 mvp;
uniform vec4 shared_tint;
flat out vec4 v_tint;
void main() { v_tint = shared_tint; gl_Position = mvp * position; }
";
const STAGES_FS: &str = "#version 330 core
uniform vec4 shared_tint;
uniform float fs_only;
flat in vec4 v_tint;
out vec4 frag;
void main() { frag = vec4(v_tint.rg, shared_tint.b, fs_only); }
";

/// A vertex array with the NDC square [-1, 1]^2 as a 4-vertex strip at attribute 0.
fn unit_square(gl: &mut dyn Gl) {
    vertex_array(gl);
    buffer(
        gl,
        ARRAY_BUFFER,
        &le(
            &[-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0],
            f32::to_le_bytes,
        ),
    );
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
}

/// Column-major: x' = 0.5x + 0.25 (pixels 24..56 of 64), y' = 0.25y - 0.5 (pixels 4..12).
const MVP: [f32; 16] = [
    0.5, 0.0, 0.0, 0.0, 0.0, 0.25, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.25, -0.5, 0.0, 1.0,
];

#[test]
fn uniforms_in_both_stages() {
    // A matrix used by the vertex shader only, a uniform declared in both stages (one
    // value), and one used by the fragment shader only.
    check(
        "uniforms_vertex_and_fragment_stages",
        CW,
        CH,
        |gl| {
            gl.clear_color(0.0, 0.0, k(64), 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let p = program(gl, STAGES_VS, STAGES_FS);
            gl.use_program(p);
            let l = gl.get_uniform_location(p, "mvp");
            gl.uniform_matrix4fv(l, false, &MVP);
            let l = gl.get_uniform_location(p, "shared_tint");
            gl.uniform4f(l, k(10), k(20), k(30), k(40));
            let l = gl.get_uniform_location(p, "fs_only");
            gl.uniform1f(l, k(250));
            unit_square(gl);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        &[
            probe(40, 8, [10, 20, 30, 250]),
            probe(25, 5, [10, 20, 30, 250]),
            probe(20, 8, [0, 0, 64, 255]),
            probe(40, 14, [0, 0, 64, 255]),
        ],
    );
}

#[test]
fn vertex_stage_with_only_integer_uniforms() {
    // The vertex stage reads its integer uniforms before it touches a vec4, so its default
    // block's struct comes before the stage's first vec4 type in the SPIR-V; the hidden
    // point-size vec4 the link adds to that struct must still be declared before it.
    let vs = "#version 330 core
uniform int red;
uniform int right_quarters;
flat out int v_red;
void main() {
    v_red = red;
    float right = float(right_quarters) / 4.0 - 1.0;
    vec2 p = vec2((gl_VertexID & 1) == 1 ? right : -1.0, float((gl_VertexID >> 1) * 2 - 1));
    gl_Position = vec4(p, 0.0, 1.0);
}
";
    let fs = "#version 330 core
flat in int v_red;
out vec4 frag;
void main() { frag = vec4(float(v_red) / 255.0, 0.0, 0.0, 1.0); }
";
    check(
        "uniforms_integer_only_vertex_block",
        CW,
        CH,
        |gl| {
            gl.clear_color(0.0, 0.0, k(64), 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let p = program(gl, vs, fs);
            gl.use_program(p);
            let l = gl.get_uniform_location(p, "red");
            gl.uniform1i(l, 200);
            let l = gl.get_uniform_location(p, "right_quarters");
            gl.uniform1i(l, 4);
            vertex_array(gl);
            gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        },
        &[
            probe(16, 16, [200, 0, 0, 255]),
            probe(31, 30, [200, 0, 0, 255]),
            probe(33, 16, [0, 0, 64, 255]),
            probe(60, 4, [0, 0, 64, 255]),
        ],
    );
}

#[test]
fn uniform_initializers() {
    // GLSL 1.20+ initializers give uniforms their value at link; a later glUniform replaces
    // it.
    cells_scene(
        "uniforms_initializers",
        "uniform vec4 tint = vec4(0.2, 0.4, 0.6, 0.8); uniform int count = 77; uniform mat2 m = mat2(0.2, 0.4, 0.6, 0.8);
uniform float replaced = 0.2;",
        &["tint", "vec4(float(count) / 255.0, 0.0, 0.0, 1.0)", "vec4(m[0], m[1])", "vec4(replaced, 0.0, 0.0, 1.0)"],
        |gl, p| {
            let l = gl.get_uniform_location(p, "replaced");
            gl.uniform1f(l, k(99));
        },
        &[[51, 102, 153, 204], [77, 0, 0, 255], [51, 102, 153, 204], [99, 0, 0, 255]],
    );
}

#[test]
fn array_upload_past_the_end_is_truncated() {
    // A count larger than the elements left from a location writes only those elements.
    cells_scene(
        "uniforms_array_upload_truncated",
        "uniform vec4 va[3]; uniform float tail;",
        &["va[0]", "va[1]", "va[2]", "vec4(tail, 0.0, 0.0, 1.0)"],
        |gl, p| {
            let l = gl.get_uniform_location(p, "va");
            gl.uniform4fv(l, &ks(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
            let l = gl.get_uniform_location(p, "tail");
            gl.uniform1f(l, k(13));
            let l = gl.get_uniform_location(p, "va[2]");
            gl.uniform4fv(
                l,
                &ks(&[90, 91, 92, 93, 200, 201, 202, 203, 210, 211, 212, 213]),
            );
        },
        &[
            [1, 2, 3, 4],
            [5, 6, 7, 8],
            [90, 91, 92, 93],
            [13, 0, 0, 255],
        ],
    );
}

#[test]
fn gl_depth_range_follows_gl_depth_range() {
    // gl_DepthRange in a fragment shader: the default range on the left half, then
    // glDepthRange(0.2, 0.6) on the right half with the same program (the backend's copy of
    // the default block must follow it).
    let fs = "#version 330 core\nuniform vec4 tint;\nout vec4 frag;\nvoid main() {\n\
              frag = vec4(gl_DepthRange.near, gl_DepthRange.far, gl_DepthRange.diff, 1.0) \
              * tint;\n}\n";
    check(
        "uniforms_gl_depth_range",
        CW,
        CH,
        |gl| {
            let p = program(gl, CELL_VS, fs);
            gl.use_program(p);
            let l = gl.get_uniform_location(p, "tint");
            gl.uniform4f(l, 1.0, 1.0, 1.0, 1.0);
            vertex_array(gl);
            gl.draw_arrays(TRIANGLES, 0, 3);
            gl.depth_range(k(51).into(), k(153).into());
            gl.enable(SCISSOR_TEST);
            gl.scissor(CW / 2, 0, CW / 2, CH);
            gl.draw_arrays(TRIANGLES, 0, 3);
        },
        &[
            probe(4, 4, [0, 255, 255, 255]),
            probe(CW - 4, 4, [51, 153, 102, 255]),
        ],
    );
}

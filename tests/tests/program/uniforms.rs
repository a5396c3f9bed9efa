//! Uniforms: reflection (names, types, sizes, locations, std140 layouts, blocks) compared
//! with Mesa's answers for the same shaders, every error of the uniform entry points, and
//! value round trips.

use tessera_engine::gl::*;
use tessera_tests::programs::{self, COLOR_FS, PASS_VS};
use tessera_tests::{assert_error, assert_no_error, context, records};
use tessera_wire::record::Record;

use super::{INVALID_INDEX_VALUE, QUERY_FS, QUERY_VS, name_of, program, shader};

// ---------------------------------------------------------------------------------------
// Uniform reflection

/// Every active uniform as (name, type, size).
fn active_uniforms(ctx: &mut tessera_engine::Context, p: GLuint) -> Vec<(String, GLenum, GLint)> {
    let n = ctx.get_programi(p, ACTIVE_UNIFORMS) as GLuint;
    (0..n)
        .map(|i| {
            let (mut size, mut ty, mut len) = (0, 0, 0);
            let mut buf = [0u8; 64];
            ctx.get_active_uniform(p, i, 64, Some(&mut len), &mut size, &mut ty, &mut buf);
            (name_of(&buf, len), ty, size)
        })
        .collect()
}

fn uniform(list: &[(String, GLenum, GLint)], name: &str) -> (GLenum, GLint) {
    list.iter()
        .find(|u| u.0 == name)
        .map(|u| (u.1, u.2))
        .unwrap_or_else(|| panic!("no uniform {name} in {list:?}"))
}

#[test]
fn uniform_types_sizes_and_names_match_mesa() {
    let mut ctx = context();
    let vs = "#version 330 core
struct L { vec3 dir; float k[2]; mat2 m; };
uniform L ls[2];
uniform mat3 ms[2];
uniform bvec3 bv;
uniform uint u;
uniform ivec2 iv;
uniform mat2x3 m23;
uniform vec3 offs[4];
uniform float unused;
in vec4 p;
void main() {
    gl_Position = p + vec4(ls[1].dir + ms[1][0] + vec3(bv) + float(u) + vec3(iv, 0) + m23[0]
        + offs[2], ls[0].k[1] + ls[1].m[0][0]);
}
";
    let fs = "#version 330 core
uniform sampler2D tex;
uniform sampler2DShadow shadow;
uniform isampler2DArray layers[2];
uniform vec4 color;
out vec4 o;
void main() {
    o = texture(tex, vec2(0.5)) * color + vec4(texture(shadow, vec3(0.5)))
        + vec4(texture(layers[1], vec3(0.5)));
}
";
    let p = programs::link(&mut ctx, vs, fs);
    let list = active_uniforms(&mut ctx, p);
    // Mesa's answers for the same shaders.
    let expect = [
        ("ls[0].dir", FLOAT_VEC3, 1),
        ("ls[0].k[0]", FLOAT, 2),
        ("ls[0].m", FLOAT_MAT2, 1),
        ("ls[1].dir", FLOAT_VEC3, 1),
        ("ls[1].k[0]", FLOAT, 2),
        ("ls[1].m", FLOAT_MAT2, 1),
        ("ms[0]", FLOAT_MAT3, 2),
        ("bv", BOOL_VEC3, 1),
        ("u", UNSIGNED_INT, 1),
        ("iv", INT_VEC2, 1),
        ("m23", FLOAT_MAT2x3, 1),
        ("offs[0]", FLOAT_VEC3, 3),
        ("tex", SAMPLER_2D, 1),
        ("shadow", SAMPLER_2D_SHADOW, 1),
        ("layers[0]", INT_SAMPLER_2D_ARRAY, 2),
        ("color", FLOAT_VEC4, 1),
    ];
    assert_eq!(list.len(), expect.len(), "{list:?}");
    for (name, ty, size) in expect {
        assert_eq!(uniform(&list, name), (ty, size), "{name}");
    }
    assert_eq!(ctx.get_uniform_location(p, "unused"), -1);
    // Locations: every element has one, consecutive within an array.
    let offs = ctx.get_uniform_location(p, "offs");
    assert!(offs >= 0);
    assert_eq!(ctx.get_uniform_location(p, "offs[0]"), offs);
    assert_eq!(ctx.get_uniform_location(p, "offs[2]"), offs + 2);
    assert_eq!(
        ctx.get_uniform_location(p, "offs[3]"),
        -1,
        "beyond the active size"
    );
    let k = ctx.get_uniform_location(p, "ls[1].k");
    assert_eq!(ctx.get_uniform_location(p, "ls[1].k[1]"), k + 1);
    let layers = ctx.get_uniform_location(p, "layers");
    assert_eq!(ctx.get_uniform_location(p, "layers[1]"), layers + 1);
    assert!(ctx.get_uniform_location(p, "ls[1].dir") >= 0);
    assert_eq!(ctx.get_uniform_location(p, "ls[2].dir"), -1);
    assert_eq!(ctx.get_uniform_location(p, "ls"), -1);
    assert_eq!(
        ctx.get_uniform_location(p, "color[0]"),
        ctx.get_uniform_location(p, "color")
    );
    assert_no_error!(ctx);
    // Default-block uniforms have no GL-visible layout.
    let color = list.iter().position(|u| u.0 == "color").expect("color") as GLuint;
    for pname in [
        UNIFORM_OFFSET,
        UNIFORM_ARRAY_STRIDE,
        UNIFORM_MATRIX_STRIDE,
        UNIFORM_BLOCK_INDEX,
    ] {
        let mut v = [0];
        ctx.get_active_uniformsiv(p, 1, &[color], pname, &mut v);
        assert_eq!(v, [-1], "{pname:#x}");
    }
    assert_no_error!(ctx);
}

#[test]
fn uniform_names_and_locations_match_mesa() {
    let mut ctx = context();
    let p = programs::link(&mut ctx, QUERY_VS, QUERY_FS);
    let unlinked = ctx.create_program();
    let color = ctx.get_uniform_location(p, "color");
    let arr = ctx.get_uniform_location(p, "arr");
    assert!(color >= 0 && arr >= 0);
    assert_eq!(
        ["arr[0]", "arr[2]", "arr[3]", "zz", "x", "UB.x", "ub.x"]
            .map(|n| ctx.get_uniform_location(p, n)),
        [arr, arr + 2, -1, -1, -1, -1, -1]
    );
    assert!(ctx.get_uniform_location(p, "t") >= 0);
    assert_no_error!(ctx);
    assert_eq!(ctx.get_uniform_location(unlinked, "color"), -1);
    assert_error!(ctx, INVALID_OPERATION);
    assert_eq!(ctx.get_uniform_location(999, "color"), -1);
    assert_error!(ctx, INVALID_VALUE);
    let mut indices = [0; 3];
    ctx.get_uniform_indices(p, 3, &["color", "zz", "ub.x"], &mut indices);
    assert_ne!(indices[0], INVALID_INDEX_VALUE);
    assert_eq!(&indices[1..], [INVALID_INDEX_VALUE; 2]);
    let list = active_uniforms(&mut ctx, p);
    assert_eq!(list[indices[0] as usize].0, "color");
    ctx.get_uniform_indices(p, 1, &["UB.x"], &mut indices);
    assert_eq!(list[indices[0] as usize].0, "UB.x");
    ctx.get_uniform_indices(p, -1, &[], &mut indices);
    assert_error!(ctx, INVALID_VALUE);
    // Errors of the other uniform queries.
    let (mut size, mut ty) = (0, 0);
    ctx.get_active_uniform(p, 50, 10, None, &mut size, &mut ty, &mut [0; 10]);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_active_uniform(p, 0, -1, None, &mut size, &mut ty, &mut [0; 10]);
    assert_error!(ctx, INVALID_VALUE);
    let mut out = [-7; 2];
    ctx.get_active_uniformsiv(p, 1, &[0], 0x1234, &mut out);
    assert_error!(ctx, INVALID_ENUM);
    ctx.get_active_uniformsiv(p, 2, &[0, 50], UNIFORM_TYPE, &mut out);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_active_uniformsiv(p, -1, &[0], UNIFORM_TYPE, &mut out);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_active_uniformsiv(unlinked, 1, &[0], UNIFORM_TYPE, &mut out);
    assert_error!(ctx, INVALID_VALUE);
    assert_eq!(out, [-7; 2], "nothing written on error");
    let mut buf = [0u8; 16];
    let mut len = 0;
    ctx.get_active_uniform_name(p, indices[0], 16, Some(&mut len), &mut buf);
    assert_eq!(name_of(&buf, len), "UB.x");
    ctx.get_active_uniform_name(p, 50, 16, None, &mut buf);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_active_uniform_name(p, 0, -1, None, &mut buf);
    assert_error!(ctx, INVALID_VALUE);
}

/// A std140 block Mesa was asked about: member -> (offset, array stride, matrix stride,
/// row-major, type, size). Block data size 304.
const STD140_FS: &str = "#version 330 core
struct S { vec2 x; float y; };
layout(std140) uniform Block {
    float a;
    vec2 b;
    vec3 c;
    float d;
    mat3 e;
    float f[3];
    vec3 g[2];
    mat2x3 h;
    S s;
    bool i;
    ivec3 j;
    layout(row_major) mat4x3 k;
    uvec2 l;
};
out vec4 o;
void main() {
    o = vec4(a + b.x + c.x + d + e[0][0] + f[1] + g[1].x + h[0][0] + s.y + float(i)
        + float(j.x) + k[0][0] + float(l.y));
}
";

#[test]
fn std140_offsets_match_mesa() {
    let mut ctx = context();
    let p = programs::link(&mut ctx, PASS_VS, STD140_FS);
    let expect: [(&str, i32, i32, i32, i32, GLenum, i32); 14] = [
        ("a", 0, 0, 0, 0, FLOAT, 1),
        ("b", 8, 0, 0, 0, FLOAT_VEC2, 1),
        ("c", 16, 0, 0, 0, FLOAT_VEC3, 1),
        ("d", 28, 0, 0, 0, FLOAT, 1),
        ("e", 32, 0, 16, 0, FLOAT_MAT3, 1),
        ("f[0]", 80, 16, 0, 0, FLOAT, 3),
        ("g[0]", 128, 16, 0, 0, FLOAT_VEC3, 2),
        ("h", 160, 0, 16, 0, FLOAT_MAT2x3, 1),
        ("s.x", 192, 0, 0, 0, FLOAT_VEC2, 1),
        ("s.y", 200, 0, 0, 0, FLOAT, 1),
        ("i", 208, 0, 0, 0, BOOL, 1),
        ("j", 224, 0, 0, 0, INT_VEC3, 1),
        ("k", 240, 0, 16, 1, FLOAT_MAT4x3, 1),
        ("l", 288, 0, 0, 0, UNSIGNED_INT_VEC2, 1),
    ];
    let names: Vec<&str> = expect.iter().map(|e| e.0).collect();
    let mut indices = [0; 14];
    ctx.get_uniform_indices(p, 14, &names, &mut indices);
    let query = |ctx: &mut tessera_engine::Context, pname| {
        let mut v = [0; 14];
        ctx.get_active_uniformsiv(p, 14, &indices, pname, &mut v);
        v
    };
    let offsets = query(&mut ctx, UNIFORM_OFFSET);
    let array_strides = query(&mut ctx, UNIFORM_ARRAY_STRIDE);
    let matrix_strides = query(&mut ctx, UNIFORM_MATRIX_STRIDE);
    let row_major = query(&mut ctx, UNIFORM_IS_ROW_MAJOR);
    let types = query(&mut ctx, UNIFORM_TYPE);
    let sizes = query(&mut ctx, UNIFORM_SIZE);
    let blocks = query(&mut ctx, UNIFORM_BLOCK_INDEX);
    let name_lengths = query(&mut ctx, UNIFORM_NAME_LENGTH);
    assert_no_error!(ctx);
    for (i, e) in expect.iter().enumerate() {
        let got = (
            e.0,
            offsets[i],
            array_strides[i],
            matrix_strides[i],
            row_major[i],
            types[i] as GLenum,
            sizes[i],
        );
        assert_eq!(got, *e);
        assert_eq!(blocks[i], 0, "{}", e.0);
        assert_eq!(name_lengths[i], e.0.len() as GLint + 1);
    }
    let b = ctx.get_uniform_block_index(p, "Block");
    assert_eq!(b, 0);
    let blockiv = |ctx: &mut tessera_engine::Context, pname| {
        let mut v = [0];
        ctx.get_active_uniform_blockiv(p, b, pname, &mut v);
        v[0]
    };
    assert_eq!(blockiv(&mut ctx, UNIFORM_BLOCK_DATA_SIZE), 304);
    assert_eq!(blockiv(&mut ctx, UNIFORM_BLOCK_ACTIVE_UNIFORMS), 14);
    assert_eq!(blockiv(&mut ctx, UNIFORM_BLOCK_NAME_LENGTH), 6);
    assert_eq!(blockiv(&mut ctx, UNIFORM_BLOCK_BINDING), 0);
    assert_eq!(
        blockiv(&mut ctx, UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER),
        0
    );
    assert_eq!(
        blockiv(&mut ctx, UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER),
        0
    );
    assert_eq!(
        blockiv(&mut ctx, UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER),
        1
    );
    let mut members = [0; 14];
    ctx.get_active_uniform_blockiv(p, b, UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES, &mut members);
    let mut sorted_members = members;
    sorted_members.sort();
    let mut sorted_indices = indices.map(|i| i as GLint);
    sorted_indices.sort();
    assert_eq!(sorted_members, sorted_indices);
    assert_no_error!(ctx);
}

#[test]
fn unused_std140_blocks_are_active_with_all_members() {
    // As in Mesa: U1 and U2 are active though unused, and referenced by no stage.
    let mut ctx = context();
    let vs = "#version 330\nlayout(std140) uniform U1 { vec4 a; };\nuniform U2 { vec4 b; float \
              unused_member; };\nlayout(std140) uniform U3 { vec4 c; };\nin vec4 p;\n\
              void main() { gl_Position = p + c; }\n";
    let p = programs::link(&mut ctx, vs, COLOR_FS);
    assert_eq!(ctx.get_programi(p, ACTIVE_UNIFORM_BLOCKS), 3);
    for (name, members, vertex) in [("U1", 1, 0), ("U2", 2, 0), ("U3", 1, 1)] {
        let b = ctx.get_uniform_block_index(p, name);
        assert_ne!(b, INVALID_INDEX_VALUE, "{name}");
        let mut v = [0];
        ctx.get_active_uniform_blockiv(p, b, UNIFORM_BLOCK_ACTIVE_UNIFORMS, &mut v);
        assert_eq!(v[0], members, "{name}");
        ctx.get_active_uniform_blockiv(p, b, UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER, &mut v);
        assert_eq!(v[0], vertex, "{name}");
        ctx.get_active_uniform_blockiv(p, b, UNIFORM_BLOCK_DATA_SIZE, &mut v);
        assert_eq!(v[0], if name == "U2" { 32 } else { 16 }, "{name}");
    }
    assert_no_error!(ctx);
}

#[test]
fn uniform_block_errors_and_binding() {
    let mut ctx = context();
    let p = programs::block_program(&mut ctx);
    let unlinked = ctx.create_program();
    let b = ctx.get_uniform_block_index(p, "Material");
    assert_eq!(b, 0);
    assert_eq!(ctx.get_uniform_block_index(p, "zz"), INVALID_INDEX_VALUE);
    assert_eq!(
        ctx.get_uniform_block_index(unlinked, "Material"),
        INVALID_INDEX_VALUE
    );
    assert_no_error!(ctx);
    ctx.get_uniform_block_index(999, "Material");
    assert_error!(ctx, INVALID_VALUE);
    let mut v = [-7];
    ctx.get_active_uniform_blockiv(p, 5, UNIFORM_BLOCK_DATA_SIZE, &mut v);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_active_uniform_blockiv(p, 0, 0x1234, &mut v);
    assert_error!(ctx, INVALID_ENUM);
    assert_eq!(v, [-7]);
    ctx.uniform_block_binding(p, 5, 0);
    assert_error!(ctx, INVALID_VALUE);
    ctx.uniform_block_binding(p, 0, 1000);
    assert_error!(ctx, INVALID_VALUE);
    ctx.uniform_block_binding(999, 0, 0);
    assert_error!(ctx, INVALID_VALUE);
    ctx.uniform_block_binding(unlinked, 0, 0);
    assert_error!(ctx, INVALID_VALUE, "an unlinked program has no blocks");
    ctx.uniform_block_binding(p, 0, 7);
    assert_no_error!(ctx);
    ctx.get_active_uniform_blockiv(p, 0, UNIFORM_BLOCK_BINDING, &mut v);
    assert_eq!(v, [7]);
    ctx.get_active_uniform_blockiv(p, 0, UNIFORM_BLOCK_DATA_SIZE, &mut v);
    assert_eq!(v, [32]);
    let mut buf = [0u8; 16];
    let mut len = 0;
    ctx.get_active_uniform_block_name(p, 0, 16, Some(&mut len), &mut buf);
    assert_eq!(name_of(&buf, len), "Material");
    ctx.get_active_uniform_block_name(p, 0, 4, Some(&mut len), &mut buf);
    assert_eq!(name_of(&buf, len), "Mat");
    ctx.get_active_uniform_block_name(p, 3, 16, None, &mut buf);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_active_uniform_block_name(p, 0, -1, None, &mut buf);
    assert_error!(ctx, INVALID_VALUE);
}

// ---------------------------------------------------------------------------------------
// Uniform values

#[test]
fn uniform_values_round_trip() {
    let mut ctx = context();
    let p = programs::link(&mut ctx, QUERY_VS, QUERY_FS);
    ctx.use_program(p);
    let loc = |ctx: &mut tessera_engine::Context, n: &str| ctx.get_uniform_location(p, n);
    let mut f = [0.0f32; 16];
    let mut i = [0i32; 16];
    let mut u = [0u32; 16];

    let color = loc(&mut ctx, "color");
    ctx.uniform4f(color, 1.6, -2.5, 3.0, 4.0);
    ctx.get_uniformfv(p, color, &mut f);
    assert_eq!(f[..4], [1.6, -2.5, 3.0, 4.0]);
    ctx.get_uniformiv(p, color, &mut i);
    assert_eq!(i[..4], [2, -3, 3, 4], "rounded as Mesa does");

    let m = loc(&mut ctx, "m");
    ctx.uniform_matrix3fv(m, 1, 1, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
    ctx.get_uniformfv(p, m, &mut f);
    assert_eq!(
        f[..9],
        [1.0, 4.0, 7.0, 2.0, 5.0, 8.0, 3.0, 6.0, 9.0],
        "stored transposed"
    );
    ctx.uniform_matrix3fv(m, 1, 0, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
    ctx.get_uniformfv(p, m, &mut f);
    assert_eq!(f[..9], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);

    let b = loc(&mut ctx, "b");
    ctx.uniform1f(b, 2.5);
    ctx.get_uniformfv(p, b, &mut f);
    ctx.get_uniformiv(p, b, &mut i);
    assert_eq!((f[0], i[0]), (1.0, 1));
    ctx.uniform1i(b, 0);
    ctx.get_uniformfv(p, b, &mut f);
    assert_eq!(f[0], 0.0);
    ctx.uniform1ui(b, 3);
    ctx.get_uniformuiv(p, b, &mut u);
    assert_eq!(u[0], 1);

    let arr = loc(&mut ctx, "arr");
    ctx.uniform1fv(arr, 3, &[1.0, 2.0, 3.0]);
    let arr1 = loc(&mut ctx, "arr[1]");
    ctx.uniform1fv(arr1, 2, &[7.0, 8.0]);
    let got: Vec<f32> = (0..3)
        .map(|e| {
            ctx.get_uniformfv(p, arr + e, &mut f);
            f[0]
        })
        .collect();
    assert_eq!(got, [1.0, 7.0, 8.0]);
    // Elements past the end are ignored.
    let arr2 = loc(&mut ctx, "arr[2]");
    ctx.uniform1fv(arr2, 3, &[9.0, 10.0, 11.0]);
    ctx.get_uniformfv(p, arr + 2, &mut f);
    assert_eq!(f[0], 9.0);

    let int = loc(&mut ctx, "i");
    ctx.uniform1i(int, -5);
    ctx.get_uniformfv(p, int, &mut f);
    ctx.get_uniformuiv(p, int, &mut u);
    assert_eq!(
        (f[0], u[0]),
        (-5.0, 0),
        "negative reads as 0 unsigned, as in Mesa"
    );
    let uint = loc(&mut ctx, "u");
    ctx.uniform1ui(uint, 4_000_000_000);
    ctx.get_uniformuiv(p, uint, &mut u);
    ctx.get_uniformiv(p, uint, &mut i);
    assert_eq!((u[0], i[0]), (4_000_000_000, i32::MAX));
    let iv = loc(&mut ctx, "iv");
    ctx.uniform2i(iv, 5, -6);
    ctx.get_uniformiv(p, iv, &mut i);
    assert_eq!(i[..2], [5, -6]);
    let t = loc(&mut ctx, "t");
    ctx.uniform1i(t, 7);
    ctx.get_uniformiv(p, t, &mut i);
    assert_eq!(i[0], 7);
    assert_no_error!(ctx);
}

#[test]
fn every_uniform_setter_shape() {
    let mut ctx = context();
    let fs = "#version 330
uniform float f1; uniform vec2 f2; uniform vec3 f3; uniform vec4 f4;
uniform int i1; uniform ivec2 i2; uniform ivec3 i3; uniform ivec4 i4;
uniform uint u1; uniform uvec2 u2; uniform uvec3 u3; uniform uvec4 u4;
uniform mat2 m2; uniform mat3 m3; uniform mat4 m4; uniform mat2x3 m23; uniform mat3x2 m32;
uniform mat2x4 m24; uniform mat4x2 m42; uniform mat3x4 m34; uniform mat4x3 m43;
out vec4 o;
void main() {
    o = vec4(f1) + vec4(f2, 0, 0) + vec4(f3, 0) + f4 + vec4(i1) + vec4(i2, 0, 0) + vec4(i3, 0)
        + vec4(i4) + vec4(u1) + vec4(u2, 0, 0) + vec4(u3, 0) + vec4(u4) + vec4(m2[1], 0, 0)
        + vec4(m3[2], 0) + m4[3] + vec4(m23[1], 0) + vec4(m32[2], 0, 0) + m24[1]
        + vec4(m42[3], 0, 0) + m34[2] + vec4(m43[3], 0);
}
";
    let p = programs::link(&mut ctx, PASS_VS, fs);
    ctx.use_program(p);
    let v: Vec<f32> = (1..=16).map(|x| x as f32).collect();
    let vi: Vec<i32> = (1..=16).collect();
    let vu: Vec<u32> = (1..=16).collect();
    let mut l = |n: &str| ctx.get_uniform_location(p, n);
    let (f1, f2, f3, f4) = (l("f1"), l("f2"), l("f3"), l("f4"));
    let (i1, i2, i3, i4) = (l("i1"), l("i2"), l("i3"), l("i4"));
    let (u1, u2, u3, u4) = (l("u1"), l("u2"), l("u3"), l("u4"));
    let mats = ["m2", "m3", "m4", "m23", "m32", "m24", "m42", "m34", "m43"].map(l);
    ctx.uniform1f(f1, 1.0);
    ctx.uniform2f(f2, 1.0, 2.0);
    ctx.uniform3f(f3, 1.0, 2.0, 3.0);
    ctx.uniform4f(f4, 1.0, 2.0, 3.0, 4.0);
    ctx.uniform1i(i1, 1);
    ctx.uniform2i(i2, 1, 2);
    ctx.uniform3i(i3, 1, 2, 3);
    ctx.uniform4i(i4, 1, 2, 3, 4);
    ctx.uniform1ui(u1, 1);
    ctx.uniform2ui(u2, 1, 2);
    ctx.uniform3ui(u3, 1, 2, 3);
    ctx.uniform4ui(u4, 1, 2, 3, 4);
    assert_no_error!(ctx);
    let mut f = [0.0f32; 16];
    let mut i = [0; 16];
    let mut u = [0u32; 16];
    for (loc, n) in [(f1, 1), (f2, 2), (f3, 3), (f4, 4)] {
        ctx.get_uniformfv(p, loc, &mut f);
        assert_eq!(f[..n], v[..n]);
    }
    for (loc, n) in [(i1, 1), (i2, 2), (i3, 3), (i4, 4)] {
        ctx.get_uniformiv(p, loc, &mut i);
        assert_eq!(i[..n], vi[..n]);
    }
    for (loc, n) in [(u1, 1), (u2, 2), (u3, 3), (u4, 4)] {
        ctx.get_uniformuiv(p, loc, &mut u);
        assert_eq!(u[..n], vu[..n]);
    }
    ctx.uniform1fv(f1, 1, &v);
    ctx.uniform2fv(f2, 1, &v[1..]);
    ctx.uniform3fv(f3, 1, &v[2..]);
    ctx.uniform4fv(f4, 1, &v[3..]);
    ctx.uniform1iv(i1, 1, &vi[4..]);
    ctx.uniform2iv(i2, 1, &vi[4..]);
    ctx.uniform3iv(i3, 1, &vi[4..]);
    ctx.uniform4iv(i4, 1, &vi[4..]);
    ctx.uniform1uiv(u1, 1, &vu[5..]);
    ctx.uniform2uiv(u2, 1, &vu[5..]);
    ctx.uniform3uiv(u3, 1, &vu[5..]);
    ctx.uniform4uiv(u4, 1, &vu[5..]);
    assert_no_error!(ctx);
    ctx.get_uniformfv(p, f4, &mut f);
    assert_eq!(f[..4], v[3..7]);
    ctx.get_uniformiv(p, i3, &mut i);
    assert_eq!(i[..3], vi[4..7]);
    ctx.get_uniformuiv(p, u2, &mut u);
    assert_eq!(u[..2], vu[5..7]);
    ctx.uniform_matrix2fv(mats[0], 1, 0, &v);
    ctx.uniform_matrix3fv(mats[1], 1, 0, &v);
    ctx.uniform_matrix4fv(mats[2], 1, 0, &v);
    ctx.uniform_matrix2x3fv(mats[3], 1, 0, &v);
    ctx.uniform_matrix3x2fv(mats[4], 1, 0, &v);
    ctx.uniform_matrix2x4fv(mats[5], 1, 0, &v);
    ctx.uniform_matrix4x2fv(mats[6], 1, 0, &v);
    ctx.uniform_matrix3x4fv(mats[7], 1, 0, &v);
    ctx.uniform_matrix4x3fv(mats[8], 1, 0, &v);
    assert_no_error!(ctx);
    for (loc, n) in mats.iter().zip([4, 9, 16, 6, 6, 8, 8, 12, 12]) {
        ctx.get_uniformfv(p, *loc, &mut f);
        assert_eq!(f[..n], v[..n], "location {loc}");
    }
    // A mat3x2 (3 columns of 2) given row-major: 2 rows of 3.
    ctx.uniform_matrix3x2fv(mats[4], 1, 1, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    ctx.get_uniformfv(p, mats[4], &mut f);
    assert_eq!(f[..6], [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    // Each matrix shape accepts only its own setter.
    ctx.uniform_matrix2x3fv(mats[4], 1, 0, &v);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.uniform_matrix4fv(mats[1], 1, 0, &v);
    assert_error!(ctx, INVALID_OPERATION);
}

#[test]
fn uniform_errors_match_mesa() {
    let mut ctx = context();
    let p = programs::link(&mut ctx, QUERY_VS, QUERY_FS);
    let l = |ctx: &mut tessera_engine::Context, n: &str| ctx.get_uniform_location(p, n);
    let color = l(&mut ctx, "color");
    ctx.uniform1f(color, 1.0);
    assert_error!(ctx, INVALID_OPERATION, "no current program");
    ctx.use_program(p);
    let v = [1.0f32; 16];
    let (arr, b, i, u, t, m, iv) = (
        l(&mut ctx, "arr"),
        l(&mut ctx, "b"),
        l(&mut ctx, "i"),
        l(&mut ctx, "u"),
        l(&mut ctx, "t"),
        l(&mut ctx, "m"),
        l(&mut ctx, "iv"),
    );
    ctx.uniform1f(-1, 1.0);
    assert_no_error!(ctx);
    ctx.uniform1f(999, 1.0);
    assert_error!(ctx, INVALID_OPERATION, "unknown location");
    ctx.uniform3f(color, 1.0, 2.0, 3.0);
    assert_error!(ctx, INVALID_OPERATION, "component count");
    ctx.uniform4i(color, 1, 2, 3, 4);
    assert_error!(ctx, INVALID_OPERATION, "type");
    ctx.uniform4fv(color, 2, &v);
    assert_error!(ctx, INVALID_OPERATION, "count 2 on a non-array");
    ctx.uniform4fv(color, -1, &v);
    assert_error!(ctx, INVALID_VALUE);
    ctx.uniform1fv(-1, -1, &v);
    assert_error!(ctx, INVALID_VALUE, "count is checked before the location");
    ctx.uniform4fv(color, 0, &v);
    assert_no_error!(ctx);
    ctx.uniform1fv(arr, 5, &v);
    assert_no_error!(ctx);
    ctx.uniform1f(b, 2.0);
    ctx.uniform1i(b, 0);
    ctx.uniform1ui(b, 3);
    assert_no_error!(ctx);
    ctx.uniform1ui(i, 3);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.uniform1i(u, 3);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.uniform1f(i, 3.0);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.uniform1i(t, 3);
    ctx.uniform1iv(t, 1, &[4]);
    assert_no_error!(ctx);
    ctx.uniform1ui(t, 3);
    assert_error!(ctx, INVALID_OPERATION, "samplers take only uniform1i");
    ctx.uniform1f(t, 3.0);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.uniform1i(t, 48);
    assert_error!(ctx, INVALID_VALUE, "past MAX_COMBINED_TEXTURE_IMAGE_UNITS");
    ctx.uniform1i(t, -1);
    assert_error!(ctx, INVALID_VALUE);
    ctx.uniform3fv(m, 1, &v);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.uniform_matrix4fv(m, 1, 0, &v);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.uniform_matrix2fv(color, 1, 0, &v);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.uniform_matrix3fv(m, -1, 0, &v);
    assert_error!(ctx, INVALID_VALUE);
    ctx.uniform2i(iv, 5, 6);
    assert_no_error!(ctx);
    let mut out = [0.0f32; 4];
    ctx.get_uniformfv(p, t, &mut out);
    assert_eq!(out[0], 4.0, "the failed calls changed nothing");
    ctx.get_uniformfv(p, 999, &mut out);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.get_uniformfv(p, -1, &mut out);
    assert_error!(ctx, INVALID_OPERATION);
    let unlinked = ctx.create_program();
    ctx.get_uniformiv(unlinked, 0, &mut [0]);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.get_uniformuiv(999, 0, &mut [0]);
    assert_error!(ctx, INVALID_VALUE);
}

#[test]
fn a_failed_relink_keeps_the_current_executable() {
    let mut ctx = context();
    let v = shader(&mut ctx, VERTEX_SHADER, PASS_VS);
    let f = shader(&mut ctx, FRAGMENT_SHADER, COLOR_FS);
    let bad = shader(
        &mut ctx,
        FRAGMENT_SHADER,
        "#version 330\nout vec4 c;\nvoid f() { c = vec4(1.0); }\n",
    );
    let p = program(&mut ctx, &[v, f]);
    ctx.use_program(p);
    let color = ctx.get_uniform_location(p, "color");
    records(&mut ctx);
    ctx.detach_shader(p, f);
    ctx.attach_shader(p, bad);
    ctx.link_program(p);
    assert_eq!(ctx.get_programi(p, LINK_STATUS), 0);
    assert!(
        !records(&mut ctx).iter().any(|r| matches!(
            r,
            Record::DestroyProgram { .. } | Record::CreateProgram { .. }
        )),
        "the executable stays"
    );
    assert_eq!(ctx.get_integer(CURRENT_PROGRAM), p as GLint);
    // As in Mesa: the program's uniforms and queries are those of an unlinked program.
    ctx.uniform4f(color, 1.0, 1.0, 1.0, 1.0);
    assert_error!(ctx, INVALID_OPERATION);
    assert_eq!(ctx.get_uniform_location(p, "color"), -1);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.use_program(p);
    assert_error!(ctx, INVALID_OPERATION);
    // Once nothing uses it, the old executable goes.
    ctx.use_program(0);
    let destroyed = records(&mut ctx)
        .iter()
        .filter(|r| matches!(r, Record::DestroyProgram { .. }))
        .count();
    assert_eq!(destroyed, 0, "a named program keeps it until its next link");
    ctx.link_program(p);
    let destroyed = records(&mut ctx)
        .iter()
        .filter(|r| matches!(r, Record::DestroyProgram { .. }))
        .count();
    assert_eq!(destroyed, 1);
}

#[test]
fn samplers_of_different_targets_on_one_unit_fail_validation() {
    let mut ctx = context();
    let fs = "#version 330\nuniform sampler2D a;\nuniform samplerCube b;\nout vec4 o;\n\
              void main() { o = texture(a, vec2(0.0)) + texture(b, vec3(1.0)); }\n";
    let p = programs::link(&mut ctx, PASS_VS, fs);
    ctx.use_program(p);
    ctx.validate_program(p);
    assert_eq!(ctx.get_programi(p, VALIDATE_STATUS), 0, "both read unit 0");
    assert_eq!(
        ctx.program_info_log(p),
        "active samplers with a different type refer to the same texture image unit"
    );
    // A draw with the program in use refuses the conflict too (Mesa's valid-to-render
    // check; piglit's 420pack `active sampler conflict`), and follows the units.
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_error!(ctx, INVALID_OPERATION);
    let b = ctx.get_uniform_location(p, "b");
    ctx.uniform1i(b, 1);
    ctx.validate_program(p);
    assert_eq!(ctx.get_programi(p, VALIDATE_STATUS), 1);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_no_error!(ctx);
    ctx.uniform1i(b, 0);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_error!(ctx, INVALID_OPERATION);
}

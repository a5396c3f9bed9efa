//! Vertex array objects and vertex attributes: names, per-array state, generic attribute
//! values, and every error GL 3.3 core lists (checked against Mesa llvmpipe, which keeps a
//! default vertex array even in a core context and so accepts some calls core GL refuses).

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_tests::{assert_error, assert_no_error, context};

use crate::state_query::assert_ints;

const T: GLboolean = TRUE as GLboolean;
const F: GLboolean = FALSE as GLboolean;

/// The array state of attribute `index` read with `get_vertex_attribiv` and
/// `get_vertex_attribfv` (which must agree), plus its pointer: (enabled, size, stride, type,
/// normalized, integer, divisor, buffer, pointer).
fn attrib(ctx: &mut Context, index: GLuint) -> [i64; 9] {
    let pnames = [
        VERTEX_ATTRIB_ARRAY_ENABLED,
        VERTEX_ATTRIB_ARRAY_SIZE,
        VERTEX_ATTRIB_ARRAY_STRIDE,
        VERTEX_ATTRIB_ARRAY_TYPE,
        VERTEX_ATTRIB_ARRAY_NORMALIZED,
        VERTEX_ATTRIB_ARRAY_INTEGER,
        VERTEX_ATTRIB_ARRAY_DIVISOR,
        VERTEX_ATTRIB_ARRAY_BUFFER_BINDING,
    ];
    let mut out = [0i64; 9];
    for (o, p) in out.iter_mut().zip(pnames) {
        let mut i = [-7];
        let mut f = [-7.0];
        ctx.get_vertex_attribiv(index, p, &mut i);
        assert_error!(ctx, NO_ERROR, "attrib {index} {p:#x}");
        ctx.get_vertex_attribfv(index, p, &mut f);
        assert_error!(ctx, NO_ERROR, "attrib {index} {p:#x}");
        assert_eq!(f[0], i[0] as f32, "attrib {index} {p:#x}");
        *o = i64::from(i[0]);
    }
    out[8] = ctx.get_vertex_attrib_pointerv(index, VERTEX_ATTRIB_ARRAY_POINTER) as i64;
    assert_no_error!(ctx);
    out
}

/// (index, size, type, normalized, stride, pointer, expected error, what).
type PointerCase = (
    GLuint,
    GLint,
    GLenum,
    GLboolean,
    GLsizei,
    usize,
    GLenum,
    &'static str,
);

const INITIAL: [i64; 9] = [0, 4, 0, FLOAT as i64, 0, 0, 0, 0, 0];

/// `CURRENT_VERTEX_ATTRIB` read as floats.
fn current(ctx: &mut Context, index: GLuint) -> [f32; 4] {
    let mut v = [-7.0; 4];
    ctx.get_vertex_attribfv(index, CURRENT_VERTEX_ATTRIB, &mut v);
    assert_no_error!(ctx);
    v
}

/// A context with a bound vertex array and an array buffer.
fn with_array() -> (Context, GLuint, GLuint) {
    let mut ctx = context();
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    let b = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, b);
    ctx.buffer_data(ARRAY_BUFFER, 64, None, STATIC_DRAW);
    assert_no_error!(ctx);
    (ctx, vao, b)
}

#[test]
fn names_exist_from_their_first_bind() {
    let mut ctx = context();
    let mut names = [0; 2];
    ctx.gen_vertex_arrays(-1, &mut names);
    assert_error!(ctx, INVALID_VALUE);
    ctx.gen_vertex_arrays(2, &mut names);
    assert_no_error!(ctx);
    assert_eq!(ctx.is_vertex_array(names[0]), F, "generated only");
    assert_eq!(ctx.is_vertex_array(0), F);
    ctx.bind_vertex_array(999);
    assert_error!(ctx, INVALID_OPERATION, "never generated");
    assert_ints(&mut ctx, VERTEX_ARRAY_BINDING, &[0]);
    ctx.bind_vertex_array(names[0]);
    assert_no_error!(ctx);
    assert_eq!(ctx.is_vertex_array(names[0]), T);
    assert_ints(&mut ctx, VERTEX_ARRAY_BINDING, &[i64::from(names[0])]);
    ctx.delete_vertex_arrays(-1, &names);
    assert_error!(ctx, INVALID_VALUE);
    assert_ints(&mut ctx, VERTEX_ARRAY_BINDING, &[i64::from(names[0])]);
    // Deleting the bound array binds 0; 0, unknown and generated-only names are ignored.
    ctx.delete_vertex_arrays(4, &[names[0], 0, 999, names[1]]);
    assert_no_error!(ctx);
    assert_ints(&mut ctx, VERTEX_ARRAY_BINDING, &[0]);
    assert_eq!(ctx.is_vertex_array(names[0]), F);
    ctx.bind_vertex_array(names[1]);
    assert_error!(ctx, INVALID_OPERATION, "deleted before use");
    ctx.bind_vertex_array(0);
    assert_no_error!(ctx);
}

#[test]
fn vertex_array_names_are_per_context() {
    let mut a = context();
    let vao = a.gen_vertex_array();
    a.bind_vertex_array(vao);
    let mut b = Context::new_shared(&a, &tessera_engine::Config::default());
    assert_eq!(b.is_vertex_array(vao), F);
    b.bind_vertex_array(vao);
    assert_error!(b, INVALID_OPERATION);
    assert_no_error!(a);
}

#[test]
fn initial_attribute_state() {
    let (mut ctx, _, _) = with_array();
    let max = ctx.get_integer(MAX_VERTEX_ATTRIBS) as GLuint;
    assert_eq!(max, 16);
    for i in 0..max {
        assert_eq!(attrib(&mut ctx, i), INITIAL, "attribute {i}");
        assert_eq!(current(&mut ctx, i), [0.0, 0.0, 0.0, 1.0]);
        let mut iv = [-7; 4];
        ctx.get_vertex_attribiv(i, CURRENT_VERTEX_ATTRIB, &mut iv);
        assert_eq!(iv, [0, 0, 0, 1]);
    }
    assert_ints(&mut ctx, ELEMENT_ARRAY_BUFFER_BINDING, &[0]);
}

#[test]
fn pointers_set_the_array_state() {
    let (mut ctx, _, b) = with_array();
    let b = i64::from(b);
    ctx.vertex_attrib_pointer(1, 3, SHORT, T, 12, 8);
    assert_no_error!(ctx);
    assert_eq!(attrib(&mut ctx, 1), [0, 3, 12, SHORT as i64, 1, 0, 0, b, 8]);
    ctx.vertex_attrib_i_pointer(2, 2, UNSIGNED_INT, 0, 16);
    assert_eq!(
        attrib(&mut ctx, 2),
        [0, 2, 0, UNSIGNED_INT as i64, 0, 1, 0, b, 16]
    );
    ctx.vertex_attrib_pointer(3, BGRA as GLint, UNSIGNED_BYTE, T, 4, 0);
    assert_eq!(
        attrib(&mut ctx, 3),
        [0, BGRA as i64, 4, UNSIGNED_BYTE as i64, 1, 0, 0, b, 0]
    );
    ctx.vertex_attrib_pointer(4, 4, INT_2_10_10_10_REV, F, 0, 0);
    ctx.vertex_attrib_pointer(5, BGRA as GLint, UNSIGNED_INT_2_10_10_10_REV, T, 0, 0);
    ctx.vertex_attrib_pointer(6, 2, DOUBLE, F, 0, 0);
    ctx.vertex_attrib_pointer(7, 1, HALF_FLOAT, F, 0, 0);
    assert_no_error!(ctx);
    assert_eq!(attrib(&mut ctx, 6)[3], DOUBLE as i64);
    // A pointer of 0 with no array buffer detaches the attribute.
    ctx.bind_buffer(ARRAY_BUFFER, 0);
    ctx.vertex_attrib_pointer(1, 4, FLOAT, F, 0, 0);
    assert_no_error!(ctx);
    assert_eq!(attrib(&mut ctx, 1), INITIAL);
    ctx.enable_vertex_attrib_array(1);
    ctx.vertex_attrib_divisor(1, 3);
    assert_no_error!(ctx);
    assert_eq!(attrib(&mut ctx, 1)[..7], [1, 4, 0, FLOAT as i64, 0, 0, 3]);
    ctx.disable_vertex_attrib_array(1);
    assert_eq!(attrib(&mut ctx, 1)[0], 0);
}

#[test]
fn pointer_errors_change_nothing() {
    let (mut ctx, _, b) = with_array();
    ctx.vertex_attrib_pointer(0, 2, FLOAT, F, 8, 4);
    let before = attrib(&mut ctx, 0);
    let errors: [PointerCase; 10] = [
        (
            16,
            4,
            FLOAT,
            F,
            0,
            0,
            INVALID_VALUE,
            "index past MAX_VERTEX_ATTRIBS",
        ),
        (0, 0, FLOAT, F, 0, 0, INVALID_VALUE, "size 0"),
        (0, 5, FLOAT, F, 0, 0, INVALID_VALUE, "size 5"),
        (0, 4, 0x1234, F, 0, 0, INVALID_ENUM, "bad type"),
        (
            0,
            5,
            0x1234,
            F,
            0,
            0,
            INVALID_ENUM,
            "the type before the size (as Mesa)",
        ),
        (0, 4, FLOAT, F, -1, 0, INVALID_VALUE, "negative stride"),
        (
            0,
            BGRA as GLint,
            UNSIGNED_BYTE,
            F,
            0,
            0,
            INVALID_OPERATION,
            "BGRA not normalized",
        ),
        (
            0,
            BGRA as GLint,
            FLOAT,
            T,
            0,
            0,
            INVALID_OPERATION,
            "BGRA of floats",
        ),
        (
            0,
            3,
            INT_2_10_10_10_REV,
            F,
            0,
            0,
            INVALID_OPERATION,
            "packed type of size 3",
        ),
        (
            0,
            4,
            UNSIGNED_INT_10F_11F_11F_REV,
            F,
            0,
            0,
            INVALID_OPERATION,
            "packed floats of size 4",
        ),
    ];
    for (index, size, ty, norm, stride, pointer, err, what) in errors {
        ctx.vertex_attrib_pointer(index, size, ty, norm, stride, pointer);
        assert_error!(ctx, err, "{what}");
    }
    for (size, ty, err, what) in [
        (
            4,
            FLOAT,
            INVALID_ENUM,
            "integer pointers take integer types",
        ),
        (
            4,
            INT_2_10_10_10_REV,
            INVALID_ENUM,
            "no packed integer pointers",
        ),
        (
            BGRA as GLint,
            UNSIGNED_BYTE,
            INVALID_VALUE,
            "no BGRA integer pointers",
        ),
        (0, INT, INVALID_VALUE, "size 0"),
        (5, FLOAT, INVALID_ENUM, "the type before the size (as Mesa)"),
    ] {
        ctx.vertex_attrib_i_pointer(0, size, ty, 0, 0);
        assert_error!(ctx, err, "{what}");
    }
    ctx.vertex_attrib_i_pointer(16, 4, INT, 0, 0);
    assert_error!(ctx, INVALID_VALUE);
    // Core GL: no client arrays — a non-zero pointer needs an array buffer.
    ctx.bind_buffer(ARRAY_BUFFER, 0);
    ctx.vertex_attrib_pointer(0, 4, FLOAT, F, 0, 16);
    assert_error!(ctx, INVALID_OPERATION, "client array");
    ctx.vertex_attrib_i_pointer(0, 4, INT, 0, 16);
    assert_error!(ctx, INVALID_OPERATION, "client array");
    assert_eq!(attrib(&mut ctx, 0), before);
    assert_eq!(before[7], i64::from(b));
}

#[test]
fn calls_needing_a_vertex_array_fail_without_one() {
    // GL 3.3 core has no default vertex array (Mesa keeps one and accepts the enable,
    // divisor and queries). Enabling and disabling raise nothing, as in Mesa, whose change
    // of its hidden array nothing can draw with; the rest fail.
    let mut ctx = context();
    let b = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, b);
    ctx.vertex_attrib_pointer(0, 4, FLOAT, F, 0, 0);
    assert_error!(ctx, INVALID_OPERATION, "pointer");
    ctx.vertex_attrib_i_pointer(0, 4, INT, 0, 0);
    assert_error!(ctx, INVALID_OPERATION, "integer pointer");
    ctx.enable_vertex_attrib_array(0);
    assert_error!(ctx, NO_ERROR, "enable");
    ctx.disable_vertex_attrib_array(0);
    assert_error!(ctx, NO_ERROR, "disable");
    ctx.vertex_attrib_divisor(0, 1);
    assert_error!(ctx, INVALID_OPERATION, "divisor");
    let mut v = [-7];
    ctx.get_vertex_attribiv(0, VERTEX_ATTRIB_ARRAY_ENABLED, &mut v);
    assert_error!(ctx, INVALID_OPERATION, "query");
    assert_eq!(v, [-7]);
    assert_eq!(
        ctx.get_vertex_attrib_pointerv(0, VERTEX_ATTRIB_ARRAY_POINTER),
        0
    );
    assert_error!(ctx, INVALID_OPERATION, "pointer query");
    // Argument errors come first.
    ctx.enable_vertex_attrib_array(16);
    assert_error!(ctx, INVALID_VALUE);
    // Generic values are context state: no array needed.
    ctx.vertex_attrib_4f(0, 1.0, 2.0, 3.0, 4.0);
    assert_eq!(current(&mut ctx, 0), [1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn enable_and_divisor_validate_the_index() {
    let (mut ctx, _, _) = with_array();
    ctx.enable_vertex_attrib_array(16);
    assert_error!(ctx, INVALID_VALUE);
    ctx.disable_vertex_attrib_array(16);
    assert_error!(ctx, INVALID_VALUE);
    ctx.vertex_attrib_divisor(16, 1);
    assert_error!(ctx, INVALID_VALUE);
    ctx.enable_vertex_attrib_array(15);
    ctx.vertex_attrib_divisor(15, 7);
    assert_no_error!(ctx);
    assert_eq!(attrib(&mut ctx, 15)[..7], [1, 4, 0, FLOAT as i64, 0, 0, 7]);
}

#[test]
fn generic_attribute_values() {
    let mut ctx = context();
    ctx.vertex_attrib_1f(1, 5.0);
    ctx.vertex_attrib_2f(2, 5.0, 6.0);
    ctx.vertex_attrib_3f(3, 5.0, 6.0, 7.0);
    ctx.vertex_attrib_4fv(4, &[5.0, 6.0, 7.0, 8.0]);
    ctx.vertex_attrib_4nub(5, 255, 0, 51, 255);
    assert_no_error!(ctx);
    assert_eq!(current(&mut ctx, 1), [5.0, 0.0, 0.0, 1.0]);
    assert_eq!(current(&mut ctx, 2), [5.0, 6.0, 0.0, 1.0]);
    assert_eq!(current(&mut ctx, 3), [5.0, 6.0, 7.0, 1.0]);
    assert_eq!(current(&mut ctx, 4), [5.0, 6.0, 7.0, 8.0]);
    assert_eq!(current(&mut ctx, 5), [1.0, 0.0, 0.2, 1.0]);
    // Integer queries of float values round to nearest (GL 3.3 §6.1.2; Mesa truncates).
    ctx.vertex_attrib_4f(6, 1.5, -2.5, 0.4, -0.6);
    let mut iv = [0; 4];
    ctx.get_vertex_attribiv(6, CURRENT_VERTEX_ATTRIB, &mut iv);
    assert_eq!(iv, [2, -3, 0, -1]);
    ctx.vertex_attrib_i4i(7, -1, 2, -3, 4);
    let mut iiv = [0; 4];
    ctx.get_vertex_attrib_iiv(7, CURRENT_VERTEX_ATTRIB, &mut iiv);
    assert_eq!(iiv, [-1, 2, -3, 4]);
    ctx.vertex_attrib_i4ui(8, u32::MAX, 1, 2, 3);
    let mut uiv = [0; 4];
    ctx.get_vertex_attrib_iuiv(8, CURRENT_VERTEX_ATTRIB, &mut uiv);
    assert_eq!(uiv, [u32::MAX, 1, 2, 3]);
    assert_no_error!(ctx);
    for i in 0..4 {
        ctx.vertex_attrib_4f(16, 1.0, 1.0, 1.0, 1.0);
        ctx.vertex_attrib_1f(16 + i, 1.0);
        ctx.vertex_attrib_i4i(16, 1, 1, 1, 1);
        ctx.vertex_attrib_i4ui(16, 1, 1, 1, 1);
        assert_error!(ctx, INVALID_VALUE, "index past MAX_VERTEX_ATTRIBS");
    }
    assert_eq!(current(&mut ctx, 15), [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn attribute_query_errors() {
    let (mut ctx, _, _) = with_array();
    let mut iv = [-7; 4];
    let mut fv = [-7.0; 4];
    let mut uiv = [7u32; 4];
    ctx.get_vertex_attribiv(16, VERTEX_ATTRIB_ARRAY_SIZE, &mut iv);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_vertex_attribfv(16, CURRENT_VERTEX_ATTRIB, &mut fv);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_vertex_attrib_iiv(16, CURRENT_VERTEX_ATTRIB, &mut iv);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_vertex_attrib_iuiv(16, CURRENT_VERTEX_ATTRIB, &mut uiv);
    assert_error!(ctx, INVALID_VALUE);
    ctx.get_vertex_attribiv(16, 0x1234, &mut iv);
    assert_error!(ctx, INVALID_VALUE, "the index before the pname (as Mesa)");
    ctx.get_vertex_attribiv(0, 0x1234, &mut iv);
    assert_error!(ctx, INVALID_ENUM);
    ctx.get_vertex_attribfv(0, VERTEX_ATTRIB_ARRAY_POINTER, &mut fv);
    assert_error!(ctx, INVALID_ENUM, "the pointer has its own query");
    ctx.get_vertex_attrib_iuiv(0, 0x1234, &mut uiv);
    assert_error!(ctx, INVALID_ENUM);
    assert_eq!((iv, fv, uiv), ([-7; 4], [-7.0; 4], [7; 4]));
    assert_eq!(
        ctx.get_vertex_attrib_pointerv(16, VERTEX_ATTRIB_ARRAY_POINTER),
        0
    );
    assert_error!(ctx, INVALID_VALUE);
    assert_eq!(
        ctx.get_vertex_attrib_pointerv(0, VERTEX_ATTRIB_ARRAY_SIZE),
        0
    );
    assert_error!(ctx, INVALID_ENUM);
}

#[test]
fn array_state_belongs_to_the_bound_array() {
    let (mut ctx, first, b) = with_array();
    ctx.vertex_attrib_pointer(0, 2, FLOAT, F, 8, 4);
    ctx.enable_vertex_attrib_array(0);
    ctx.bind_buffer(ELEMENT_ARRAY_BUFFER, b);
    let second = ctx.gen_vertex_array();
    ctx.bind_vertex_array(second);
    assert_eq!(attrib(&mut ctx, 0), INITIAL);
    assert_ints(&mut ctx, ELEMENT_ARRAY_BUFFER_BINDING, &[0]);
    // The array buffer binding is context state, not array state.
    assert_ints(&mut ctx, ARRAY_BUFFER_BINDING, &[i64::from(b)]);
    ctx.bind_vertex_array(first);
    assert_eq!(
        attrib(&mut ctx, 0),
        [1, 2, 8, FLOAT as i64, 0, 0, 0, i64::from(b), 4]
    );
    assert_ints(&mut ctx, ELEMENT_ARRAY_BUFFER_BINDING, &[i64::from(b)]);
    assert_no_error!(ctx);
}

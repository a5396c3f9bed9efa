//! Buffer objects: errors (checked against Mesa llvmpipe), state, data round trips through
//! the backend and mapping behaviour.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_tests::{assert_error, assert_no_error, context, records};
use tessera_wire::record::Record;

use crate::state_query::{assert_ints, indexed};

/// A buffer bound to `target` holding `data`.
fn buffer_with(ctx: &mut Context, target: GLenum, data: &[u8]) -> GLuint {
    let b = ctx.gen_buffer();
    ctx.bind_buffer(target, b);
    ctx.buffer_data(target, data.len() as GLsizeiptr, Some(data), DYNAMIC_DRAW);
    assert_no_error!(ctx);
    b
}

/// The bytes of the buffer bound to `target`, read back from the backend.
fn contents(ctx: &mut Context, target: GLenum, len: usize) -> Vec<u8> {
    let mut out = vec![0xEE; len];
    ctx.get_buffer_sub_data(target, 0, len as GLsizeiptr, &mut out);
    assert_no_error!(ctx);
    out
}

/// One buffer parameter through both queries (they must agree).
fn param(ctx: &mut Context, target: GLenum, pname: GLenum) -> i64 {
    let mut i = [-77];
    let mut l = [-77i64];
    ctx.get_buffer_parameteriv(target, pname, &mut i);
    assert_error!(ctx, NO_ERROR, "{pname:#x}");
    ctx.get_buffer_parameteri64v(target, pname, &mut l);
    assert_error!(ctx, NO_ERROR, "{pname:#x}");
    assert_eq!(i64::from(i[0]), l[0], "{pname:#x}");
    l[0]
}

/// (SIZE, USAGE, ACCESS, ACCESS_FLAGS, MAPPED, MAP_OFFSET, MAP_LENGTH).
fn params(ctx: &mut Context, target: GLenum) -> [i64; 7] {
    [
        BUFFER_SIZE,
        BUFFER_USAGE,
        BUFFER_ACCESS,
        BUFFER_ACCESS_FLAGS,
        BUFFER_MAPPED,
        BUFFER_MAP_OFFSET,
        BUFFER_MAP_LENGTH,
    ]
    .map(|p| param(ctx, target, p))
}

const UNMAPPED: [i64; 5] = [READ_WRITE as i64, 0, 0, 0, 0];

fn unmapped(size: i64, usage: GLenum) -> [i64; 7] {
    let [a, f, m, o, l] = UNMAPPED;
    [size, i64::from(usage), a, f, m, o, l]
}

#[test]
fn data_round_trips_through_the_backend() {
    let mut ctx = context();
    let b = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, b);
    ctx.buffer_data(
        ARRAY_BUFFER,
        8,
        Some(&[1, 2, 3, 4, 5, 6, 7, 8]),
        STATIC_DRAW,
    );
    ctx.buffer_sub_data(ARRAY_BUFFER, 2, 2, &[20, 30]);
    let mut out = [0u8; 8];
    ctx.get_buffer_sub_data(ARRAY_BUFFER, 0, 8, &mut out);
    assert_no_error!(ctx);
    assert_eq!(out, [1, 2, 20, 30, 5, 6, 7, 8]);
    let mut part = [0u8; 3];
    ctx.get_buffer_sub_data(ARRAY_BUFFER, 5, 3, &mut part);
    assert_eq!(part, [6, 7, 8]);
    // Zero-sized calls at the end are valid and touch nothing.
    ctx.buffer_sub_data(ARRAY_BUFFER, 8, 0, &[]);
    ctx.get_buffer_sub_data(ARRAY_BUFFER, 8, 0, &mut []);
    assert_no_error!(ctx);
}

#[test]
fn bind_of_a_name_never_generated_is_invalid_operation() {
    let mut ctx = context();
    ctx.bind_buffer(ARRAY_BUFFER, 77);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.bind_buffer(0x1234, 0);
    assert_error!(ctx, INVALID_ENUM);
    assert_ints(&mut ctx, ARRAY_BUFFER_BINDING, &[0]);
}

#[test]
fn names_exist_from_their_first_bind() {
    let mut ctx = context();
    let mut names = [0; 3];
    ctx.gen_buffers(-1, &mut names);
    assert_error!(ctx, INVALID_VALUE);
    assert_eq!(names, [0; 3]);
    ctx.gen_buffers(3, &mut names);
    assert_no_error!(ctx);
    assert_eq!(
        ctx.is_buffer(names[0]),
        FALSE as GLboolean,
        "generated only"
    );
    assert_eq!(ctx.is_buffer(0), FALSE as GLboolean);
    ctx.bind_buffer(COPY_READ_BUFFER, names[0]);
    assert_eq!(ctx.is_buffer(names[0]), TRUE as GLboolean);
    assert_ints(&mut ctx, COPY_READ_BUFFER, &[i64::from(names[0])]);
    ctx.delete_buffers(-1, &names);
    assert_error!(ctx, INVALID_VALUE);
    assert_eq!(ctx.is_buffer(names[0]), TRUE as GLboolean);
    // Deleting unbinds; 0 and unknown names are ignored.
    ctx.delete_buffers(3, &[names[0], 0, 999]);
    assert_no_error!(ctx);
    assert_eq!(ctx.is_buffer(names[0]), FALSE as GLboolean);
    assert_ints(&mut ctx, COPY_READ_BUFFER, &[0]);
    ctx.bind_buffer(COPY_READ_BUFFER, names[0]);
    assert_error!(ctx, INVALID_OPERATION, "a deleted name");
}

#[test]
fn every_target_binds() {
    let mut ctx = context();
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    for (target, binding) in [
        (ARRAY_BUFFER, ARRAY_BUFFER_BINDING),
        (ELEMENT_ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER_BINDING),
        (COPY_READ_BUFFER, COPY_READ_BUFFER),
        (COPY_WRITE_BUFFER, COPY_WRITE_BUFFER),
        (PIXEL_PACK_BUFFER, PIXEL_PACK_BUFFER_BINDING),
        (PIXEL_UNPACK_BUFFER, PIXEL_UNPACK_BUFFER_BINDING),
        (TEXTURE_BUFFER, TEXTURE_BUFFER),
        (TRANSFORM_FEEDBACK_BUFFER, TRANSFORM_FEEDBACK_BUFFER_BINDING),
        (UNIFORM_BUFFER, UNIFORM_BUFFER_BINDING),
    ] {
        let b = ctx.gen_buffer();
        ctx.bind_buffer(target, b);
        assert_no_error!(ctx);
        assert_ints(&mut ctx, binding, &[i64::from(b)]);
        ctx.bind_buffer(target, 0);
        assert_ints(&mut ctx, binding, &[0]);
    }
}

#[test]
fn indexed_bindings() {
    let mut ctx = context();
    let b = buffer_with(&mut ctx, ARRAY_BUFFER, &[0; 1024]);
    let ubos = ctx.get_integer(MAX_UNIFORM_BUFFER_BINDINGS) as GLuint;
    let align = i64::from(ctx.get_integer(UNIFORM_BUFFER_OFFSET_ALIGNMENT));
    ctx.bind_buffer_range(UNIFORM_BUFFER, 3, b, align as GLintptr, 64);
    assert_no_error!(ctx);
    assert_eq!(
        indexed(&mut ctx, UNIFORM_BUFFER_BINDING, 3, 1),
        [i64::from(b)]
    );
    assert_eq!(indexed(&mut ctx, UNIFORM_BUFFER_START, 3, 1), [align]);
    assert_eq!(indexed(&mut ctx, UNIFORM_BUFFER_SIZE, 3, 1), [64]);
    assert_ints(&mut ctx, UNIFORM_BUFFER_BINDING, &[i64::from(b)]);
    ctx.bind_buffer_base(TRANSFORM_FEEDBACK_BUFFER, 1, b);
    assert_no_error!(ctx);
    assert_eq!(
        indexed(&mut ctx, TRANSFORM_FEEDBACK_BUFFER_BINDING, 1, 1),
        [i64::from(b)]
    );
    assert_eq!(
        indexed(&mut ctx, TRANSFORM_FEEDBACK_BUFFER_START, 1, 1),
        [0]
    );
    assert_eq!(indexed(&mut ctx, TRANSFORM_FEEDBACK_BUFFER_SIZE, 1, 1), [0]);
    ctx.bind_buffer_range(TRANSFORM_FEEDBACK_BUFFER, 2, b, 8, 12);
    assert_no_error!(ctx);
    // Buffer 0 needs no valid range.
    ctx.bind_buffer_range(UNIFORM_BUFFER, 5, 0, 0, 0);
    assert_no_error!(ctx);

    let errors: [(GLenum, GLuint, GLuint, GLintptr, GLsizeiptr, GLenum, &str); 10] = [
        (
            ARRAY_BUFFER,
            0,
            b,
            0,
            4,
            INVALID_ENUM,
            "not an indexed target",
        ),
        (0x1234, 0, b, 0, 4, INVALID_ENUM, "bad target"),
        (
            UNIFORM_BUFFER,
            ubos,
            b,
            0,
            4,
            INVALID_VALUE,
            "index past the UBO bindings",
        ),
        (
            TRANSFORM_FEEDBACK_BUFFER,
            4,
            b,
            0,
            4,
            INVALID_VALUE,
            "index past the TF bindings",
        ),
        (UNIFORM_BUFFER, 0, b, 0, 0, INVALID_VALUE, "size 0"),
        (
            UNIFORM_BUFFER,
            0,
            b,
            -align as GLintptr,
            4,
            INVALID_VALUE,
            "negative offset",
        ),
        (
            UNIFORM_BUFFER,
            0,
            b,
            4,
            4,
            INVALID_VALUE,
            "misaligned UBO offset",
        ),
        (
            TRANSFORM_FEEDBACK_BUFFER,
            0,
            b,
            2,
            4,
            INVALID_VALUE,
            "TF offset not a multiple of 4",
        ),
        (
            TRANSFORM_FEEDBACK_BUFFER,
            0,
            b,
            0,
            3,
            INVALID_VALUE,
            "TF size not a multiple of 4",
        ),
        (
            UNIFORM_BUFFER,
            0,
            999,
            0,
            4,
            INVALID_OPERATION,
            "a name never generated",
        ),
    ];
    for (target, index, buffer, offset, size, err, what) in errors {
        ctx.bind_buffer_range(target, index, buffer, offset, size);
        assert_error!(ctx, err, "{what}");
    }
    ctx.bind_buffer_base(ARRAY_BUFFER, 0, b);
    assert_error!(ctx, INVALID_ENUM);
    ctx.bind_buffer_base(UNIFORM_BUFFER, ubos, b);
    assert_error!(ctx, INVALID_VALUE);
    ctx.bind_buffer_base(UNIFORM_BUFFER, 0, 999);
    assert_error!(ctx, INVALID_OPERATION);
    // Nothing changed.
    assert_eq!(indexed(&mut ctx, UNIFORM_BUFFER_BINDING, 0, 1), [0]);
    assert_eq!(
        indexed(&mut ctx, TRANSFORM_FEEDBACK_BUFFER_BINDING, 0, 1),
        [0]
    );
    assert_eq!(indexed(&mut ctx, UNIFORM_BUFFER_START, 3, 1), [align]);
    assert_eq!(
        indexed(&mut ctx, TRANSFORM_FEEDBACK_BUFFER_SIZE, 2, 1),
        [12]
    );
    assert_ints(&mut ctx, UNIFORM_BUFFER_BINDING, &[0]);
}

#[test]
fn buffer_data_sets_size_and_usage() {
    let mut ctx = context();
    let b = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, b);
    // A new buffer: table 6.8's initial parameters.
    assert_eq!(params(&mut ctx, ARRAY_BUFFER), unmapped(0, STATIC_DRAW));
    for usage in [
        STREAM_DRAW,
        STREAM_READ,
        STREAM_COPY,
        STATIC_DRAW,
        STATIC_READ,
        STATIC_COPY,
        DYNAMIC_DRAW,
        DYNAMIC_READ,
        DYNAMIC_COPY,
    ] {
        ctx.buffer_data(ARRAY_BUFFER, 12, None, usage);
        assert_no_error!(ctx);
        assert_eq!(params(&mut ctx, ARRAY_BUFFER), unmapped(12, usage));
    }
    records(&mut ctx);
    ctx.buffer_data(ARRAY_BUFFER, 4, Some(&[9, 8, 7, 6]), STREAM_DRAW);
    let recs = records(&mut ctx);
    assert!(
        matches!(
            recs[..],
            [
                Record::CreateBuffer { size: 4, .. },
                Record::WriteBuffer { offset: 0, .. }
            ]
        ),
        "{recs:?}"
    );
    assert_eq!(contents(&mut ctx, ARRAY_BUFFER, 4), [9, 8, 7, 6]);
    // No data: new storage, zeroed by the backend.
    ctx.buffer_data(ARRAY_BUFFER, 6, None, STREAM_DRAW);
    assert_eq!(contents(&mut ctx, ARRAY_BUFFER, 6), [0; 6]);
}

#[test]
fn buffer_data_errors_change_nothing() {
    let mut ctx = context();
    ctx.buffer_data(ARRAY_BUFFER, 4, None, STATIC_DRAW);
    assert_error!(ctx, INVALID_OPERATION, "nothing bound");
    ctx.buffer_data(0x1234, 4, None, STATIC_DRAW);
    assert_error!(ctx, INVALID_ENUM, "bad target");
    ctx.buffer_data(0x1234, -1, None, STATIC_DRAW);
    assert_error!(ctx, INVALID_ENUM, "the target first (as Mesa)");
    buffer_with(&mut ctx, ARRAY_BUFFER, &[1, 2, 3]);
    ctx.buffer_data(ARRAY_BUFFER, -1, None, STATIC_DRAW);
    assert_error!(ctx, INVALID_VALUE, "negative size");
    ctx.buffer_data(ARRAY_BUFFER, 4, None, 0x1234);
    assert_error!(ctx, INVALID_ENUM, "bad usage");
    ctx.buffer_data(ARRAY_BUFFER, 4, None, READ_ONLY);
    assert_error!(ctx, INVALID_ENUM, "an access is no usage");
    ctx.buffer_data(ARRAY_BUFFER, -1, None, 0x1234);
    assert_error!(ctx, INVALID_VALUE, "the size before the usage (as Mesa)");
    assert_eq!(params(&mut ctx, ARRAY_BUFFER), unmapped(3, DYNAMIC_DRAW));
    assert_eq!(contents(&mut ctx, ARRAY_BUFFER, 3), [1, 2, 3]);
}

#[test]
fn sub_data_errors_change_nothing() {
    let mut ctx = context();
    buffer_with(&mut ctx, ARRAY_BUFFER, &[1, 2, 3, 4]);
    let mut out = [0xAAu8; 4];
    for (offset, size, what) in [
        (-1, 1, "negative offset"),
        (0, -1, "negative size"),
        (2, 3, "past the end"),
        (5, 0, "offset past the end"),
    ] {
        ctx.buffer_sub_data(ARRAY_BUFFER, offset, size, &[9; 4]);
        assert_error!(ctx, INVALID_VALUE, "buffer_sub_data: {what}");
        ctx.get_buffer_sub_data(ARRAY_BUFFER, offset, size, &mut out);
        assert_error!(ctx, INVALID_VALUE, "get_buffer_sub_data: {what}");
    }
    ctx.buffer_sub_data(0x1234, 0, 1, &[9]);
    assert_error!(ctx, INVALID_ENUM);
    ctx.get_buffer_sub_data(0x1234, 0, 1, &mut out);
    assert_error!(ctx, INVALID_ENUM);
    ctx.buffer_sub_data(COPY_READ_BUFFER, 0, 1, &[9]);
    assert_error!(ctx, INVALID_OPERATION, "nothing bound");
    ctx.get_buffer_sub_data(COPY_READ_BUFFER, 0, 1, &mut out);
    assert_error!(ctx, INVALID_OPERATION, "nothing bound");
    // GL 3.3 §2.9.3: a mapped buffer is off limits (Mesa allows sub-data outside the
    // mapped range).
    ctx.map_buffer_range(ARRAY_BUFFER, 2, 2, MAP_READ_BIT);
    assert_no_error!(ctx);
    ctx.buffer_sub_data(ARRAY_BUFFER, 0, 1, &[9]);
    assert_error!(ctx, INVALID_OPERATION, "mapped");
    ctx.get_buffer_sub_data(ARRAY_BUFFER, 0, 1, &mut out);
    assert_error!(ctx, INVALID_OPERATION, "mapped");
    assert_eq!(out, [0xAA; 4], "nothing read on error");
    assert_eq!(ctx.unmap_buffer(ARRAY_BUFFER), TRUE as GLboolean);
    assert_eq!(contents(&mut ctx, ARRAY_BUFFER, 4), [1, 2, 3, 4]);
}

#[test]
fn copies_between_and_within_buffers() {
    let mut ctx = context();
    buffer_with(&mut ctx, COPY_READ_BUFFER, &[1, 2, 3, 4, 5, 6, 7, 8]);
    buffer_with(&mut ctx, COPY_WRITE_BUFFER, &[0; 8]);
    ctx.copy_buffer_sub_data(COPY_READ_BUFFER, COPY_WRITE_BUFFER, 2, 4, 3);
    assert_no_error!(ctx);
    assert_eq!(
        contents(&mut ctx, COPY_WRITE_BUFFER, 8),
        [0, 0, 0, 0, 3, 4, 5, 0]
    );
    // Within one buffer, without overlap.
    ctx.copy_buffer_sub_data(COPY_READ_BUFFER, COPY_READ_BUFFER, 0, 4, 4);
    assert_no_error!(ctx);
    assert_eq!(
        contents(&mut ctx, COPY_READ_BUFFER, 8),
        [1, 2, 3, 4, 1, 2, 3, 4]
    );

    let errors: [(GLenum, GLenum, GLintptr, GLintptr, GLsizeiptr, GLenum, &str); 9] = [
        (
            0x1234,
            COPY_WRITE_BUFFER,
            0,
            0,
            1,
            INVALID_ENUM,
            "bad read target",
        ),
        (
            COPY_READ_BUFFER,
            0x1234,
            0,
            0,
            1,
            INVALID_ENUM,
            "bad write target",
        ),
        (
            ARRAY_BUFFER,
            COPY_WRITE_BUFFER,
            0,
            0,
            1,
            INVALID_OPERATION,
            "nothing bound",
        ),
        (
            COPY_READ_BUFFER,
            -1i64 as GLenum,
            0,
            0,
            1,
            INVALID_ENUM,
            "bad write target",
        ),
        (
            COPY_READ_BUFFER,
            COPY_WRITE_BUFFER,
            -1,
            0,
            1,
            INVALID_VALUE,
            "negative read offset",
        ),
        (
            COPY_READ_BUFFER,
            COPY_WRITE_BUFFER,
            0,
            -1,
            1,
            INVALID_VALUE,
            "negative write offset",
        ),
        (
            COPY_READ_BUFFER,
            COPY_WRITE_BUFFER,
            0,
            0,
            -1,
            INVALID_VALUE,
            "negative size",
        ),
        (
            COPY_READ_BUFFER,
            COPY_WRITE_BUFFER,
            6,
            0,
            4,
            INVALID_VALUE,
            "past the source",
        ),
        (
            COPY_READ_BUFFER,
            COPY_READ_BUFFER,
            0,
            2,
            4,
            INVALID_VALUE,
            "overlap in one buffer",
        ),
    ];
    for (read, write, ro, wo, size, err, what) in errors {
        ctx.copy_buffer_sub_data(read, write, ro, wo, size);
        assert_error!(ctx, err, "{what}");
    }
    ctx.copy_buffer_sub_data(COPY_READ_BUFFER, COPY_WRITE_BUFFER, 0, 6, 4);
    assert_error!(ctx, INVALID_VALUE, "past the destination");
    ctx.map_buffer_range(COPY_WRITE_BUFFER, 0, 1, MAP_READ_BIT);
    ctx.copy_buffer_sub_data(COPY_READ_BUFFER, COPY_WRITE_BUFFER, 0, 0, 1);
    assert_error!(ctx, INVALID_OPERATION, "destination mapped");
    ctx.unmap_buffer(COPY_WRITE_BUFFER);
    assert_eq!(
        contents(&mut ctx, COPY_READ_BUFFER, 8),
        [1, 2, 3, 4, 1, 2, 3, 4]
    );
    assert_eq!(
        contents(&mut ctx, COPY_WRITE_BUFFER, 8),
        [0, 0, 0, 0, 3, 4, 5, 0]
    );
}

#[test]
fn map_buffer_range_errors_change_nothing() {
    let mut ctx = context();
    buffer_with(&mut ctx, ARRAY_BUFFER, &[0; 16]);
    let errors: [(GLenum, GLintptr, GLsizeiptr, GLbitfield, GLenum, &str); 13] = [
        (0x1234, 0, 4, MAP_READ_BIT, INVALID_ENUM, "bad target"),
        (
            COPY_READ_BUFFER,
            0,
            4,
            MAP_READ_BIT,
            INVALID_OPERATION,
            "nothing bound",
        ),
        (
            ARRAY_BUFFER,
            -1,
            4,
            MAP_READ_BIT,
            INVALID_VALUE,
            "negative offset",
        ),
        (
            ARRAY_BUFFER,
            0,
            -4,
            MAP_READ_BIT,
            INVALID_VALUE,
            "negative length",
        ),
        (
            ARRAY_BUFFER,
            8,
            9,
            MAP_READ_BIT,
            INVALID_VALUE,
            "past the end",
        ),
        (
            ARRAY_BUFFER,
            0,
            4,
            MAP_READ_BIT | 0x100,
            INVALID_VALUE,
            "unknown access bit",
        ),
        (
            ARRAY_BUFFER,
            0,
            0,
            MAP_READ_BIT,
            INVALID_OPERATION,
            "length 0 (as Mesa)",
        ),
        (
            ARRAY_BUFFER,
            0,
            4,
            MAP_INVALIDATE_RANGE_BIT,
            INVALID_OPERATION,
            "neither read nor write",
        ),
        (
            ARRAY_BUFFER,
            0,
            4,
            MAP_READ_BIT | MAP_INVALIDATE_RANGE_BIT,
            INVALID_OPERATION,
            "read + invalidate range",
        ),
        (
            ARRAY_BUFFER,
            0,
            4,
            MAP_READ_BIT | MAP_INVALIDATE_BUFFER_BIT,
            INVALID_OPERATION,
            "read + invalidate buffer",
        ),
        (
            ARRAY_BUFFER,
            0,
            4,
            MAP_READ_BIT | MAP_UNSYNCHRONIZED_BIT,
            INVALID_OPERATION,
            "read + unsynchronized",
        ),
        (
            ARRAY_BUFFER,
            0,
            4,
            MAP_READ_BIT | MAP_FLUSH_EXPLICIT_BIT,
            INVALID_OPERATION,
            "flush explicit without write",
        ),
        (ARRAY_BUFFER, 0, 4, 0, INVALID_OPERATION, "no access"),
    ];
    for (target, offset, length, access, err, what) in errors {
        let p = ctx.map_buffer_range(target, offset, length, access);
        assert!(p.is_null(), "{what}");
        assert_error!(ctx, err, "{what}");
    }
    assert_eq!(params(&mut ctx, ARRAY_BUFFER), unmapped(16, DYNAMIC_DRAW));
    assert!(
        ctx.get_buffer_pointerv(ARRAY_BUFFER, BUFFER_MAP_POINTER)
            .is_null()
    );
    assert!(
        !ctx.map_buffer_range(ARRAY_BUFFER, 0, 4, MAP_WRITE_BIT)
            .is_null()
    );
    assert!(
        ctx.map_buffer_range(ARRAY_BUFFER, 8, 4, MAP_READ_BIT)
            .is_null()
    );
    assert_error!(ctx, INVALID_OPERATION, "already mapped");
    assert_eq!(param(&mut ctx, ARRAY_BUFFER, BUFFER_MAP_OFFSET), 0);
}

#[test]
fn mapped_state_reads_back() {
    let mut ctx = context();
    buffer_with(&mut ctx, ARRAY_BUFFER, &[0; 16]);
    let p = ctx.map_buffer_range(ARRAY_BUFFER, 4, 8, MAP_WRITE_BIT | MAP_INVALIDATE_RANGE_BIT);
    assert_no_error!(ctx);
    assert!(!p.is_null());
    assert_eq!(
        params(&mut ctx, ARRAY_BUFFER),
        [
            16,
            i64::from(DYNAMIC_DRAW),
            i64::from(WRITE_ONLY),
            i64::from(MAP_WRITE_BIT | MAP_INVALIDATE_RANGE_BIT),
            1,
            4,
            8
        ]
    );
    assert_eq!(ctx.get_buffer_pointerv(ARRAY_BUFFER, BUFFER_MAP_POINTER), p);
    assert_eq!(ctx.unmap_buffer(ARRAY_BUFFER), TRUE as GLboolean);
    assert_no_error!(ctx);
    assert_eq!(params(&mut ctx, ARRAY_BUFFER), unmapped(16, DYNAMIC_DRAW));
    assert!(
        ctx.get_buffer_pointerv(ARRAY_BUFFER, BUFFER_MAP_POINTER)
            .is_null()
    );
    // glMapBuffer maps everything with the access it names.
    for (access, bits) in [
        (READ_ONLY, MAP_READ_BIT),
        (WRITE_ONLY, MAP_WRITE_BIT),
        (READ_WRITE, MAP_READ_BIT | MAP_WRITE_BIT),
    ] {
        assert!(!ctx.map_buffer(ARRAY_BUFFER, access).is_null());
        assert_no_error!(ctx);
        let p = params(&mut ctx, ARRAY_BUFFER);
        assert_eq!(
            p[2..],
            [i64::from(access), i64::from(bits), 1, 0, 16],
            "{access:#x}"
        );
        assert_eq!(ctx.unmap_buffer(ARRAY_BUFFER), TRUE as GLboolean);
    }
    assert_no_error!(ctx);
}

#[test]
fn read_maps_see_the_contents() {
    let mut ctx = context();
    buffer_with(&mut ctx, ARRAY_BUFFER, &[10, 11, 12, 13, 14, 15]);
    ctx.map_buffer_range(ARRAY_BUFFER, 1, 4, MAP_READ_BIT);
    assert_eq!(
        ctx.with_mapped(ARRAY_BUFFER, |m| m.to_vec()),
        Some(vec![11, 12, 13, 14])
    );
    ctx.unmap_buffer(ARRAY_BUFFER);
    ctx.map_buffer(ARRAY_BUFFER, READ_WRITE);
    assert_eq!(
        ctx.with_mapped(ARRAY_BUFFER, |m| m.to_vec()),
        Some(vec![10, 11, 12, 13, 14, 15])
    );
    ctx.unmap_buffer(ARRAY_BUFFER);
    assert_eq!(ctx.with_mapped(ARRAY_BUFFER, |m| m.len()), None);
    assert_no_error!(ctx);
}

#[test]
fn write_maps_reach_the_buffer_and_keep_unwritten_bytes() {
    let mut ctx = context();
    buffer_with(&mut ctx, ARRAY_BUFFER, &[1, 2, 3, 4, 5, 6, 7, 8]);
    // Not invalidating: bytes the application leaves alone keep their values.
    ctx.map_buffer_range(ARRAY_BUFFER, 2, 4, MAP_WRITE_BIT);
    ctx.with_mapped(ARRAY_BUFFER, |m| m[1] = 40);
    assert_eq!(ctx.unmap_buffer(ARRAY_BUFFER), TRUE as GLboolean);
    assert_eq!(
        contents(&mut ctx, ARRAY_BUFFER, 8),
        [1, 2, 3, 40, 5, 6, 7, 8]
    );
    // Invalidating the range: what is written arrives; the rest of the buffer stays.
    ctx.map_buffer_range(ARRAY_BUFFER, 4, 2, MAP_WRITE_BIT | MAP_INVALIDATE_RANGE_BIT);
    ctx.with_mapped(ARRAY_BUFFER, |m| m.copy_from_slice(&[50, 60]));
    ctx.unmap_buffer(ARRAY_BUFFER);
    assert_eq!(
        contents(&mut ctx, ARRAY_BUFFER, 8),
        [1, 2, 3, 40, 50, 60, 7, 8]
    );
    // Invalidating the buffer: the written range arrives (the rest is undefined).
    ctx.map_buffer_range(
        ARRAY_BUFFER,
        0,
        3,
        MAP_WRITE_BIT | MAP_INVALIDATE_BUFFER_BIT,
    );
    ctx.with_mapped(ARRAY_BUFFER, |m| m.copy_from_slice(&[7, 8, 9]));
    ctx.unmap_buffer(ARRAY_BUFFER);
    assert_eq!(contents(&mut ctx, ARRAY_BUFFER, 8)[..3], [7, 8, 9]);
    // Read-write: read, modify, write back.
    ctx.map_buffer(ARRAY_BUFFER, READ_WRITE);
    ctx.with_mapped(ARRAY_BUFFER, |m| m.iter_mut().for_each(|b| *b += 1));
    let before = contents_after_unmap(&mut ctx);
    assert_eq!(before[..3], [8, 9, 10]);
    assert_no_error!(ctx);
}

fn contents_after_unmap(ctx: &mut Context) -> Vec<u8> {
    assert_eq!(ctx.unmap_buffer(ARRAY_BUFFER), TRUE as GLboolean);
    contents(ctx, ARRAY_BUFFER, 8)
}

#[test]
fn unsynchronized_maps_write_with_the_unsynchronized_record() {
    let mut ctx = context();
    buffer_with(&mut ctx, ARRAY_BUFFER, &[0; 8]);
    records(&mut ctx);
    let unsynchronized = MAP_WRITE_BIT | MAP_UNSYNCHRONIZED_BIT;
    ctx.map_buffer_range(
        ARRAY_BUFFER,
        2,
        2,
        unsynchronized | MAP_INVALIDATE_RANGE_BIT,
    );
    ctx.with_mapped(ARRAY_BUFFER, |m| m.copy_from_slice(&[1, 2]));
    ctx.unmap_buffer(ARRAY_BUFFER);
    let recs = records(&mut ctx);
    assert!(
        matches!(
            recs[..],
            [Record::WriteBufferUnsynchronized { offset: 2, .. }]
        ),
        "{recs:?}"
    );
    ctx.map_buffer_range(ARRAY_BUFFER, 4, 4, unsynchronized | MAP_FLUSH_EXPLICIT_BIT);
    ctx.with_mapped(ARRAY_BUFFER, |m| m.copy_from_slice(&[3, 4, 5, 6]));
    ctx.flush_mapped_buffer_range(ARRAY_BUFFER, 1, 2);
    ctx.unmap_buffer(ARRAY_BUFFER);
    let recs = records(&mut ctx);
    assert!(
        matches!(
            recs[..],
            [Record::WriteBufferUnsynchronized { offset: 5, .. }]
        ),
        "{recs:?}"
    );
    // A synchronized map keeps command order.
    ctx.map_buffer_range(ARRAY_BUFFER, 0, 2, MAP_WRITE_BIT | MAP_INVALIDATE_RANGE_BIT);
    ctx.unmap_buffer(ARRAY_BUFFER);
    let recs = records(&mut ctx);
    assert!(
        matches!(recs[..], [Record::WriteBuffer { offset: 0, .. }]),
        "{recs:?}"
    );
    assert_no_error!(ctx);
    assert_eq!(contents(&mut ctx, ARRAY_BUFFER, 8)[2..7], [1, 2, 0, 4, 5]);
}

#[test]
fn explicit_flushes_upload_the_flushed_ranges() {
    let mut ctx = context();
    buffer_with(&mut ctx, ARRAY_BUFFER, &[0; 8]);
    ctx.map_buffer_range(ARRAY_BUFFER, 2, 6, MAP_WRITE_BIT | MAP_FLUSH_EXPLICIT_BIT);
    ctx.with_mapped(ARRAY_BUFFER, |m| m.copy_from_slice(&[1, 2, 3, 4, 5, 6]));
    records(&mut ctx);
    // Offsets are relative to the mapped range.
    ctx.flush_mapped_buffer_range(ARRAY_BUFFER, 1, 2);
    assert_no_error!(ctx);
    assert!(matches!(
        records(&mut ctx)[..],
        [Record::WriteBuffer { offset: 3, .. }]
    ));
    ctx.flush_mapped_buffer_range(ARRAY_BUFFER, 5, 1);
    ctx.flush_mapped_buffer_range(ARRAY_BUFFER, 6, 0);
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    assert!(
        matches!(recs[..], [Record::WriteBuffer { offset: 7, .. }]),
        "an empty flush sends nothing: {recs:?}"
    );
    for (offset, length, what) in [
        (-1, 1, "negative offset"),
        (0, -1, "negative length"),
        (4, 3, "past the mapping"),
    ] {
        ctx.flush_mapped_buffer_range(ARRAY_BUFFER, offset, length);
        assert_error!(ctx, INVALID_VALUE, "{what}");
    }
    ctx.flush_mapped_buffer_range(0x1234, 0, 1);
    assert_error!(ctx, INVALID_ENUM);
    ctx.flush_mapped_buffer_range(COPY_READ_BUFFER, 0, 1);
    assert_error!(ctx, INVALID_OPERATION, "nothing bound");
    assert_eq!(ctx.unmap_buffer(ARRAY_BUFFER), TRUE as GLboolean);
    // Only the flushed bytes were sent; unmapping sends nothing more.
    assert!(
        records(&mut ctx)
            .iter()
            .all(|r| !matches!(r, Record::WriteBuffer { .. }))
    );
    let got = contents(&mut ctx, ARRAY_BUFFER, 8);
    assert_eq!((got[3], got[4], got[7]), (2, 3, 6));

    ctx.flush_mapped_buffer_range(ARRAY_BUFFER, 0, 1);
    assert_error!(ctx, INVALID_OPERATION, "not mapped");
    ctx.map_buffer_range(ARRAY_BUFFER, 0, 4, MAP_WRITE_BIT);
    ctx.flush_mapped_buffer_range(ARRAY_BUFFER, 0, 1);
    assert_error!(ctx, INVALID_OPERATION, "mapped without FLUSH_EXPLICIT");
    ctx.unmap_buffer(ARRAY_BUFFER);
    assert_no_error!(ctx);
}

#[test]
fn unmap_and_map_buffer_errors() {
    let mut ctx = context();
    assert_eq!(ctx.unmap_buffer(ARRAY_BUFFER), FALSE as GLboolean);
    assert_error!(ctx, INVALID_OPERATION, "nothing bound");
    assert_eq!(ctx.unmap_buffer(0x1234), FALSE as GLboolean);
    assert_error!(ctx, INVALID_ENUM);
    assert!(ctx.map_buffer(ARRAY_BUFFER, READ_ONLY).is_null());
    assert_error!(ctx, INVALID_OPERATION, "nothing bound");
    assert!(ctx.map_buffer(0x1234, READ_ONLY).is_null());
    assert_error!(ctx, INVALID_ENUM);
    let b = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, b);
    assert!(ctx.map_buffer(ARRAY_BUFFER, READ_ONLY).is_null());
    assert_error!(ctx, INVALID_OPERATION, "an empty buffer (length 0)");
    ctx.buffer_data(ARRAY_BUFFER, 4, None, STATIC_DRAW);
    assert_eq!(ctx.unmap_buffer(ARRAY_BUFFER), FALSE as GLboolean);
    assert_error!(ctx, INVALID_OPERATION, "not mapped");
    assert!(ctx.map_buffer(ARRAY_BUFFER, MAP_READ_BIT).is_null());
    assert_error!(ctx, INVALID_ENUM, "bits are no access enum");
    assert!(ctx.map_buffer(ARRAY_BUFFER, 0x1234).is_null());
    assert_error!(ctx, INVALID_ENUM);
    assert!(!ctx.map_buffer(ARRAY_BUFFER, WRITE_ONLY).is_null());
    assert!(ctx.map_buffer(ARRAY_BUFFER, READ_ONLY).is_null());
    assert_error!(ctx, INVALID_OPERATION, "already mapped");
    assert_eq!(
        param(&mut ctx, ARRAY_BUFFER, BUFFER_ACCESS),
        i64::from(WRITE_ONLY)
    );
    // Respecifying the storage unmaps (as Mesa).
    ctx.buffer_data(ARRAY_BUFFER, 4, None, STATIC_DRAW);
    assert_no_error!(ctx);
    assert_eq!(param(&mut ctx, ARRAY_BUFFER, BUFFER_MAPPED), 0);
}

#[test]
fn parameter_query_errors() {
    let mut ctx = context();
    let mut v = [-5];
    let mut l = [-5i64];
    ctx.get_buffer_parameteriv(ARRAY_BUFFER, BUFFER_SIZE, &mut v);
    assert_error!(ctx, INVALID_OPERATION, "nothing bound");
    ctx.get_buffer_parameteri64v(0x1234, BUFFER_SIZE, &mut l);
    assert_error!(ctx, INVALID_ENUM, "bad target");
    buffer_with(&mut ctx, ARRAY_BUFFER, &[0; 4]);
    ctx.get_buffer_parameteriv(ARRAY_BUFFER, 0x1234, &mut v);
    assert_error!(ctx, INVALID_ENUM, "bad pname");
    ctx.get_buffer_parameteri64v(ARRAY_BUFFER, BUFFER_MAP_POINTER, &mut l);
    assert_error!(ctx, INVALID_ENUM, "the pointer is not an integer parameter");
    assert_eq!((v, l), ([-5], [-5]));
    assert!(ctx.get_buffer_pointerv(ARRAY_BUFFER, BUFFER_SIZE).is_null());
    assert_error!(ctx, INVALID_ENUM, "bad pname");
    assert!(
        ctx.get_buffer_pointerv(0x1234, BUFFER_MAP_POINTER)
            .is_null()
    );
    assert_error!(ctx, INVALID_ENUM, "bad target");
    assert!(
        ctx.get_buffer_pointerv(COPY_READ_BUFFER, BUFFER_MAP_POINTER)
            .is_null()
    );
    assert_error!(ctx, INVALID_OPERATION, "nothing bound");
}

#[test]
fn deleting_a_bound_buffer_unbinds_it_everywhere_in_the_context() {
    let mut ctx = context();
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    let b = buffer_with(&mut ctx, ARRAY_BUFFER, &[0; 256]);
    ctx.bind_buffer(ELEMENT_ARRAY_BUFFER, b);
    ctx.bind_buffer_base(UNIFORM_BUFFER, 2, b);
    ctx.vertex_attrib_pointer(0, 4, FLOAT, FALSE as GLboolean, 0, 0);
    assert_no_error!(ctx);
    records(&mut ctx);
    ctx.delete_buffers(1, &[b]);
    assert_no_error!(ctx);
    for pname in [
        ARRAY_BUFFER_BINDING,
        ELEMENT_ARRAY_BUFFER_BINDING,
        UNIFORM_BUFFER_BINDING,
    ] {
        assert_ints(&mut ctx, pname, &[0]);
    }
    assert_eq!(indexed(&mut ctx, UNIFORM_BUFFER_BINDING, 2, 1), [0]);
    let mut v = [-1];
    ctx.get_vertex_attribiv(0, VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &mut v);
    assert_eq!(v, [0]);
    assert!(
        records(&mut ctx)
            .iter()
            .any(|r| matches!(r, Record::DestroyBuffer { .. })),
        "nothing holds it any more"
    );
}

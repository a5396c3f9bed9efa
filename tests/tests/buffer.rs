//! Buffer objects: errors, state, data round trips through the backend.

use tessera_engine::gl::*;
use tessera_tests::{assert_error, assert_no_error, context};

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
}

#[test]
fn bind_of_a_name_never_generated_is_invalid_operation() {
    let mut ctx = context();
    ctx.bind_buffer(ARRAY_BUFFER, 77);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.bind_buffer(0x1234, 0);
    assert_error!(ctx, INVALID_ENUM);
}

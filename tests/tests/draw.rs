//! Draws and clears: argument errors, the state errors a draw can raise (no vertex array,
//! mapped buffers, an undefined default framebuffer), and the clear record. Checked against
//! Mesa llvmpipe; none of these needs a program.

use tessera_engine::draw::ElementsCall;
use tessera_engine::gl::*;
use tessera_engine::{Config, Context};
use tessera_tests::{assert_error, assert_no_error, context, records, surfaceless};
use tessera_wire::record::{Record, clear_mask};

/// Binds a new vertex array with attribute 0 reading a new 64-byte buffer, which is also
/// the element array buffer; returns the buffer.
fn bind_arrays(ctx: &mut Context) -> GLuint {
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    let b = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, b);
    ctx.buffer_data(ARRAY_BUFFER, 64, None, STATIC_DRAW);
    ctx.vertex_attrib_pointer(0, 4, FLOAT, FALSE as GLboolean, 0, 0);
    ctx.enable_vertex_attrib_array(0);
    ctx.bind_buffer(ELEMENT_ARRAY_BUFFER, b);
    assert_no_error!(ctx);
    b
}

/// Calls every draw entry point once with valid arguments, asserting `err` after each.
fn every_draw_raises(ctx: &mut Context, err: GLenum) {
    let t = TRIANGLES;
    let u = UNSIGNED_SHORT;
    ctx.draw_arrays(t, 0, 3);
    assert_error!(ctx, err, "draw_arrays");
    ctx.draw_arrays_instanced(t, 0, 3, 2);
    assert_error!(ctx, err, "draw_arrays_instanced");
    ctx.draw_elements(t, 3, u, 0);
    assert_error!(ctx, err, "draw_elements");
    ctx.draw_elements_instanced(t, 3, u, 0, 2);
    assert_error!(ctx, err, "draw_elements_instanced");
    ctx.draw_elements_base_vertex(t, 3, u, 0, 1);
    assert_error!(ctx, err, "draw_elements_base_vertex");
    ctx.draw_elements_instanced_base_vertex(t, 3, u, 0, 2, 1);
    assert_error!(ctx, err, "draw_elements_instanced_base_vertex");
    ctx.draw_range_elements(t, 0, 2, 3, u, 0);
    assert_error!(ctx, err, "draw_range_elements");
    ctx.draw_range_elements_base_vertex(t, 0, 2, 3, u, 0, 1);
    assert_error!(ctx, err, "draw_range_elements_base_vertex");
    ctx.multi_draw_arrays(t, &[0, 3], &[3, 3], 2);
    assert_error!(ctx, err, "multi_draw_arrays");
    ctx.multi_draw_elements(t, &[3, 3], u, &[0, 6], 2);
    assert_error!(ctx, err, "multi_draw_elements");
    ctx.multi_draw_elements_base_vertex(t, &[3], u, &[0], 1, Some(&[2]));
    assert_error!(ctx, err, "multi_draw_elements_base_vertex");
}

#[test]
fn draws_with_valid_state_raise_nothing() {
    let mut ctx = context();
    bind_arrays(&mut ctx);
    every_draw_raises(&mut ctx, NO_ERROR);
    // Without a program nothing is drawn (no error in a core context, as in Mesa).
    assert!(
        records(&mut ctx)
            .iter()
            .all(|r| !matches!(r, Record::Draw { .. } | Record::DrawIndexed { .. }))
    );
    assert_eq!(ctx.stats().draws, 0);
    // A negative first is no error GL 3.3 names (Mesa raises none either).
    ctx.draw_arrays(TRIANGLES, -1, 3);
    assert_no_error!(ctx);
}

#[test]
fn bad_modes_and_types_are_invalid_enum() {
    let mut ctx = context();
    bind_arrays(&mut ctx);
    // Made up and compatibility-only (QUADS, POLYGON).
    for mode in [0x1234, 0x0007, 0x0009] {
        ctx.draw_arrays(mode, 0, 3);
        assert_error!(ctx, INVALID_ENUM, "draw_arrays {mode:#x}");
        ctx.draw_arrays_instanced(mode, 0, 3, 1);
        assert_error!(ctx, INVALID_ENUM);
        ctx.draw_elements(mode, 3, UNSIGNED_INT, 0);
        assert_error!(ctx, INVALID_ENUM, "draw_elements {mode:#x}");
        ctx.draw_elements_instanced_base_vertex(mode, 3, UNSIGNED_INT, 0, 1, 0);
        assert_error!(ctx, INVALID_ENUM);
        ctx.draw_range_elements(mode, 0, 1, 3, UNSIGNED_INT, 0);
        assert_error!(ctx, INVALID_ENUM);
        ctx.multi_draw_arrays(mode, &[0], &[3], 1);
        assert_error!(ctx, INVALID_ENUM);
        ctx.multi_draw_elements(mode, &[3], UNSIGNED_INT, &[0], 1);
        assert_error!(ctx, INVALID_ENUM);
    }
    // GL 4.0's PATCHES (the backend has tessellation stages) without a tessellation
    // evaluation stage: INVALID_OPERATION, as Mesa raises it.
    ctx.draw_arrays(PATCHES, 0, 3);
    assert_error!(ctx, INVALID_OPERATION, "draw_arrays PATCHES");
    ctx.draw_elements(PATCHES, 3, UNSIGNED_INT, 0);
    assert_error!(ctx, INVALID_OPERATION, "draw_elements PATCHES");
    ctx.multi_draw_arrays(PATCHES, &[0], &[3], 1);
    assert_error!(ctx, INVALID_OPERATION, "multi_draw_arrays PATCHES");
    for ty in [FLOAT, BYTE, SHORT, INT, 0x1234] {
        ctx.draw_elements(TRIANGLES, 3, ty, 0);
        assert_error!(ctx, INVALID_ENUM, "index type {ty:#x}");
        ctx.draw_elements_base_vertex(TRIANGLES, 3, ty, 0, 0);
        assert_error!(ctx, INVALID_ENUM);
        ctx.draw_range_elements_base_vertex(TRIANGLES, 0, 1, 3, ty, 0, 0);
        assert_error!(ctx, INVALID_ENUM);
        ctx.multi_draw_elements_base_vertex(TRIANGLES, &[3], ty, &[0], 1, None);
        assert_error!(ctx, INVALID_ENUM);
    }
    // Every GL 3.3 mode is accepted.
    for mode in [
        POINTS,
        LINES,
        LINE_LOOP,
        LINE_STRIP,
        TRIANGLES,
        TRIANGLE_STRIP,
        TRIANGLE_FAN,
        LINES_ADJACENCY,
        LINE_STRIP_ADJACENCY,
        TRIANGLES_ADJACENCY,
        TRIANGLE_STRIP_ADJACENCY,
    ] {
        ctx.draw_arrays(mode, 0, 6);
        ctx.draw_elements(mode, 6, UNSIGNED_BYTE, 0);
        assert_error!(ctx, NO_ERROR, "mode {mode:#x}");
    }
}

#[test]
fn negative_counts_are_invalid_value() {
    let mut ctx = context();
    bind_arrays(&mut ctx);
    let u = UNSIGNED_INT;
    ctx.draw_arrays(TRIANGLES, 0, -1);
    assert_error!(ctx, INVALID_VALUE, "count");
    ctx.draw_arrays_instanced(TRIANGLES, 0, 3, -1);
    assert_error!(ctx, INVALID_VALUE, "instance count");
    ctx.draw_elements(TRIANGLES, -1, u, 0);
    assert_error!(ctx, INVALID_VALUE, "count");
    ctx.draw_elements_instanced(TRIANGLES, 3, u, 0, -1);
    assert_error!(ctx, INVALID_VALUE, "instance count");
    ctx.draw_elements_instanced_base_vertex(TRIANGLES, -3, u, 0, 1, 0);
    assert_error!(ctx, INVALID_VALUE);
    ctx.draw_range_elements(TRIANGLES, 5, 4, 3, u, 0);
    assert_error!(ctx, INVALID_VALUE, "end < start");
    ctx.draw_range_elements(0x1234, 5, 4, 3, u, 0);
    assert_error!(ctx, INVALID_VALUE, "end < start before the mode (as Mesa)");
    ctx.draw_range_elements_base_vertex(TRIANGLES, 0, 4, -3, u, 0, 0);
    assert_error!(ctx, INVALID_VALUE, "count");
    ctx.multi_draw_arrays(TRIANGLES, &[0], &[3], -1);
    assert_error!(ctx, INVALID_VALUE, "draw count");
    ctx.multi_draw_arrays(TRIANGLES, &[0, 0], &[3, -3], 2);
    assert_error!(ctx, INVALID_VALUE, "one count");
    ctx.multi_draw_elements(TRIANGLES, &[3], u, &[0], -1);
    assert_error!(ctx, INVALID_VALUE, "draw count");
    ctx.multi_draw_elements_base_vertex(TRIANGLES, &[-3], u, &[0], 1, None);
    assert_error!(ctx, INVALID_VALUE, "one count");
    // The negative count wins over the bad type (as Mesa).
    ctx.draw_elements(TRIANGLES, -3, FLOAT, 0);
    assert_error!(ctx, INVALID_VALUE);
}

#[test]
fn drawing_without_a_vertex_array_is_invalid_operation() {
    let mut ctx = context();
    every_draw_raises(&mut ctx, INVALID_OPERATION);
    // Argument errors come first.
    ctx.draw_arrays(0x1234, 0, 3);
    assert_error!(ctx, INVALID_ENUM);
    ctx.draw_arrays(TRIANGLES, 0, -3);
    assert_error!(ctx, INVALID_VALUE);
    // Clears need no vertex array.
    ctx.clear(COLOR_BUFFER_BIT);
    assert_no_error!(ctx);
    // Binding one and unbinding it again.
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_no_error!(ctx);
    ctx.bind_vertex_array(0);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_error!(ctx, INVALID_OPERATION);
}

#[test]
fn indexed_draws_need_an_element_array_buffer() {
    // Core GL has no client-side indices: the Rust API's offsets need a buffer (the C ABI's
    // pointers may point at client memory, below; Mesa crashes on a null one).
    let mut ctx = context();
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    ctx.draw_elements(TRIANGLES, 3, UNSIGNED_INT, 0);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.draw_range_elements(TRIANGLES, 0, 2, 3, UNSIGNED_INT, 0);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.multi_draw_elements(TRIANGLES, &[3], UNSIGNED_INT, &[0], 1);
    assert_error!(ctx, INVALID_OPERATION);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_no_error!(ctx);
}

#[test]
fn indices_in_client_memory_are_copied_for_the_draw_and_leave_no_binding() {
    let mut ctx = context();
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    // The 16-bit indices 2, 1, 0.
    let bytes: &[u8] = &[2, 0, 1, 0, 0, 0];
    let read = |len: usize| &bytes[..len];
    // A null address with no buffer is refused, as in the Rust API.
    ctx.draw_elements_from_pointer(ElementsCall::new(TRIANGLES, 3, UNSIGNED_SHORT, 0), &read);
    assert_error!(ctx, INVALID_OPERATION, "null client indices");
    // A range whose end is below its start is INVALID_VALUE before anything else.
    let range = ElementsCall {
        range: Some((2, 1)),
        ..ElementsCall::new(TRIANGLES, 3, UNSIGNED_SHORT, 0x1000)
    };
    ctx.draw_elements_from_pointer(range, &read);
    assert_error!(ctx, INVALID_VALUE, "bad range");
    records(&mut ctx);
    let call = ElementsCall::new(TRIANGLES, 3, UNSIGNED_SHORT, 0x1000);
    ctx.draw_elements_from_pointer(call, &read);
    ctx.multi_draw_elements_from_pointers(
        TRIANGLES,
        &[3, 2],
        UNSIGNED_SHORT,
        &[0x1000, 0x2000],
        2,
        None,
        &|_, len| &bytes[..len],
    );
    assert_no_error!(ctx);
    // The copies land one after the other (4-byte aligned) in the context's buffer, those
    // of a multi-draw's draws in one write, each draw's at a 4-byte boundary.
    let writes: Vec<(u64, u32)> = records(&mut ctx)
        .iter()
        .filter_map(|r| match r {
            Record::WriteBuffer { offset, data, .. } => Some((*offset, data.len)),
            _ => None,
        })
        .collect();
    assert_eq!(writes, [(0, 6), (8, 12)]);
    // The vertex array still has no element array buffer.
    assert_eq!(ctx.get_integer(ELEMENT_ARRAY_BUFFER_BINDING), 0);
    ctx.draw_elements(TRIANGLES, 3, UNSIGNED_SHORT, 0);
    assert_error!(ctx, INVALID_OPERATION, "no buffer after client draws");
}

#[test]
fn drawing_from_a_mapped_buffer_is_invalid_operation() {
    let mut ctx = context();
    let b = bind_arrays(&mut ctx);
    ctx.bind_buffer(COPY_WRITE_BUFFER, b);
    ctx.map_buffer_range(COPY_WRITE_BUFFER, 0, 4, MAP_WRITE_BIT);
    assert_no_error!(ctx);
    every_draw_raises(&mut ctx, INVALID_OPERATION);
    ctx.unmap_buffer(COPY_WRITE_BUFFER);
    every_draw_raises(&mut ctx, NO_ERROR);

    // A mapped buffer only matters where a draw reads it: not through a disabled array.
    let other = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, other);
    ctx.buffer_data(ARRAY_BUFFER, 16, None, STATIC_DRAW);
    ctx.vertex_attrib_pointer(1, 4, FLOAT, FALSE as GLboolean, 0, 0);
    ctx.map_buffer(ARRAY_BUFFER, READ_ONLY);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_no_error!(ctx);
    ctx.enable_vertex_attrib_array(1);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_error!(ctx, INVALID_OPERATION, "enabled array mapped");
    ctx.disable_vertex_attrib_array(1);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_no_error!(ctx);
    ctx.enable_vertex_attrib_array(1);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_error!(ctx, INVALID_OPERATION);
    // Respecifying the storage ends the mapping.
    ctx.buffer_data(ARRAY_BUFFER, 16, None, STATIC_DRAW);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_no_error!(ctx);

    // The element buffer, for indexed draws.
    ctx.map_buffer(ELEMENT_ARRAY_BUFFER, READ_ONLY);
    ctx.draw_elements(TRIANGLES, 3, UNSIGNED_BYTE, 0);
    assert_error!(ctx, INVALID_OPERATION, "element buffer mapped");
    ctx.unmap_buffer(ELEMENT_ARRAY_BUFFER);
    ctx.draw_elements(TRIANGLES, 3, UNSIGNED_BYTE, 0);
    assert_no_error!(ctx);
}

#[test]
fn a_buffer_mapped_by_another_context_of_the_share_group_refuses_the_draws_that_read_it() {
    let mut ctx = context();
    let b = bind_arrays(&mut ctx);
    every_draw_raises(&mut ctx, NO_ERROR);
    // The mapping is the buffer's, wherever it was made (as in Mesa): this context's
    // state did not change, and its next draws are refused.
    let mut other = Context::new_shared(&ctx, &Config::default());
    other.bind_buffer(COPY_WRITE_BUFFER, b);
    other.map_buffer_range(COPY_WRITE_BUFFER, 0, 4, MAP_WRITE_BIT);
    assert_no_error!(other);
    every_draw_raises(&mut ctx, INVALID_OPERATION);
    other.unmap_buffer(COPY_WRITE_BUFFER);
    assert_no_error!(other);
    every_draw_raises(&mut ctx, NO_ERROR);
}

#[test]
fn a_persistently_mapped_buffer_may_be_drawn_from_beside_one_that_may_not() {
    let mut ctx = context();
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    let ring = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, ring);
    let flags = MAP_WRITE_BIT | MAP_PERSISTENT_BIT;
    ctx.buffer_storage(ARRAY_BUFFER, 64, None, flags);
    ctx.vertex_attrib_pointer(0, 4, FLOAT, FALSE as GLboolean, 0, 0);
    ctx.enable_vertex_attrib_array(0);
    let mapping = ctx.map_buffer_range(ARRAY_BUFFER, 0, 64, flags);
    assert!(!mapping.is_null());
    assert_no_error!(ctx);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    // A persistent mapping lets draws read the buffer.
    assert_no_error!(ctx);
    // Another buffer mapped without MAP_PERSISTENT_BIT: draws that read it are refused,
    // draws that do not still proceed.
    let other = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, other);
    ctx.buffer_data(ARRAY_BUFFER, 64, None, STATIC_DRAW);
    ctx.map_buffer_range(ARRAY_BUFFER, 0, 64, MAP_WRITE_BIT);
    assert_no_error!(ctx);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    // The mapped buffer is not read.
    assert_no_error!(ctx);
    ctx.vertex_attrib_pointer(1, 4, FLOAT, FALSE as GLboolean, 0, 0);
    ctx.enable_vertex_attrib_array(1);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "attribute 1 reads the mapped buffer"
    );
    ctx.unmap_buffer(ARRAY_BUFFER);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_no_error!(ctx);
}

#[test]
fn a_surfaceless_context_cannot_draw_or_clear() {
    let mut ctx = surfaceless();
    bind_arrays(&mut ctx);
    every_draw_raises(&mut ctx, INVALID_FRAMEBUFFER_OPERATION);
    ctx.clear(COLOR_BUFFER_BIT);
    assert_error!(ctx, INVALID_FRAMEBUFFER_OPERATION);
    ctx.clear(0);
    assert_error!(
        ctx,
        INVALID_FRAMEBUFFER_OPERATION,
        "even with nothing to clear (as Mesa)"
    );
    // Argument errors come first.
    ctx.draw_arrays(0x1234, 0, 3);
    assert_error!(ctx, INVALID_ENUM);
    ctx.draw_elements(TRIANGLES, -1, UNSIGNED_INT, 0);
    assert_error!(ctx, INVALID_VALUE);
    ctx.clear(0x1);
    assert_error!(ctx, INVALID_VALUE);
    // The framebuffer check comes before the vertex array check (as Mesa).
    ctx.bind_vertex_array(0);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_error!(ctx, INVALID_FRAMEBUFFER_OPERATION);
    assert!(
        records(&mut ctx)
            .iter()
            .all(|r| !matches!(r, Record::Clear { .. }))
    );
}

#[test]
fn clear_records_the_clear_values() {
    let mut ctx = context();
    ctx.clear_color(0.25, 0.5, 0.75, 1.0);
    ctx.clear_depth(0.5);
    ctx.clear_stencil(0x1234);
    records(&mut ctx);
    ctx.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT | STENCIL_BUFFER_BIT);
    assert_no_error!(ctx);
    let clears: Vec<Record> = records(&mut ctx)
        .into_iter()
        .filter(|r| matches!(r, Record::Clear { .. }))
        .collect();
    assert_eq!(
        clears,
        [Record::Clear {
            mask: clear_mask::COLOR_ALL | clear_mask::DEPTH | clear_mask::STENCIL,
            color: [0.25, 0.5, 0.75, 1.0],
            depth: 0.5,
            stencil: 0x34,
        }]
    );
    ctx.clear(DEPTH_BUFFER_BIT);
    let recs = records(&mut ctx);
    assert!(recs.contains(&Record::Clear {
        mask: clear_mask::DEPTH,
        color: [0.25, 0.5, 0.75, 1.0],
        depth: 0.5,
        stencil: 0x34,
    }));
    // An empty mask, and rasterizer discard, clear nothing.
    ctx.clear(0);
    ctx.enable(RASTERIZER_DISCARD);
    ctx.clear(COLOR_BUFFER_BIT);
    assert_no_error!(ctx);
    assert!(
        records(&mut ctx)
            .iter()
            .all(|r| !matches!(r, Record::Clear { .. }))
    );
    // Bits outside the three buffers (ACCUM_BUFFER_BIT is compatibility-only).
    for mask in [0x1, 0x200, COLOR_BUFFER_BIT | 0x8000_0000] {
        ctx.clear(mask);
        assert_error!(ctx, INVALID_VALUE, "mask {mask:#x}");
    }
}

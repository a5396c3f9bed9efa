//! Record streams: what a draw emits, exactly. The first draw sends everything; an identical
//! draw sends only itself; each single state change sends exactly its group's records;
//! redundant sets send nothing; CSOs are created once per distinct state.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_tests::scenes::program;
use tessera_tests::{assert_no_error, context, records};
use tessera_wire::format::{IndexType, Topology};
use tessera_wire::record::{FramebufferRef, Record, Span};

const VS: &str = "#version 330 core
layout(location = 0) in vec2 position;
uniform vec4 offset;
void main() { gl_Position = vec4(position, 0.0, 1.0) + offset; }
";
const FS: &str = "#version 330 core
uniform vec4 color;
out vec4 frag;
void main() { frag = color; }
";

/// The record's variant name.
fn name(r: &Record) -> String {
    let debug = format!("{r:?}");
    debug
        .split([' ', '{', '('])
        .next()
        .unwrap_or_default()
        .to_owned()
}

fn names(records: &[Record]) -> Vec<String> {
    records.iter().map(name).collect()
}

/// A context with a program, a vertex array with one triangle, both bound; setup records
/// already taken.
fn scene() -> (Context, GLint, GLint) {
    let mut ctx = context();
    let p = program(&mut ctx, VS, FS);
    let offset = ctx.get_uniform_location(p, "offset");
    let color = ctx.get_uniform_location(p, "color");
    ctx.use_program(p);
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    let buf = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, buf);
    let verts: Vec<u8> = [0.0f32, 0.0, 1.0, 0.0, 0.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    ctx.buffer_data(ARRAY_BUFFER, 24, Some(&verts), STATIC_DRAW);
    ctx.vertex_attrib_pointer(0, 2, FLOAT, FALSE as u8, 0, 0);
    ctx.enable_vertex_attrib_array(0);
    let setup = names(&records(&mut ctx));
    for expected in [
        "CreateContext",
        "CreateSurface",
        "CreateProgram",
        "CreateBuffer",
        "WriteBuffer",
    ] {
        assert!(
            setup.iter().any(|n| n == expected),
            "setup emitted {expected}: {setup:?}"
        );
    }
    assert!(
        !setup.iter().any(|n| n == "Draw"),
        "nothing drawn yet: {setup:?}"
    );
    (ctx, offset, color)
}

#[test]
fn first_draw_sends_every_group_then_only_draws() {
    let (mut ctx, _, _) = scene();
    ctx.draw_arrays(TRIANGLES, 0, 3);
    let first = records(&mut ctx);
    assert_eq!(
        names(&first),
        [
            "BindFramebuffer",
            "SetDrawBuffers",
            "SetViewport",
            "SetScissor",
            "CreateBlendState",
            "BindBlendState",
            "SetBlendColor",
            "CreateDepthStencilState",
            "BindDepthStencilState",
            "SetStencilRef",
            "CreateRasterState",
            "BindRasterState",
            "SetDepthBias",
            "SetLineWidth",
            "SetPointSize",
            "SetPatchVertices",
            "SetSampleMask",
            "SetPrimitiveRestart",
            "BindProgram",
            "SetUniforms",
            "CreateVertexLayout",
            "BindVertexLayout",
            "SetVertexBuffer",
            "SetIndexBuffer",
            "Draw",
        ]
    );
    let surface = ctx.surface().unwrap().handle;
    assert_eq!(
        first[0],
        Record::BindFramebuffer {
            framebuffer: FramebufferRef::Surface(surface)
        }
    );
    assert!(matches!(
        first.last(),
        Some(Record::Draw {
            first: 0,
            count: 3,
            instances: 1,
            ..
        })
    ));
    ctx.draw_arrays(TRIANGLES, 0, 3);
    assert_eq!(
        names(&records(&mut ctx)),
        ["Draw"],
        "an identical draw sends only itself"
    );
    assert_no_error!(ctx);
}

/// Applies `change`, draws, and returns the record names of that draw.
fn after(ctx: &mut Context, change: impl FnOnce(&mut Context)) -> Vec<String> {
    change(ctx);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    let n = names(&records(ctx));
    assert_no_error!(ctx);
    n
}

#[test]
fn a_multi_draw_call_is_one_record() {
    let (mut ctx, _, _) = scene();
    ctx.draw_arrays(TRIANGLES, 0, 3);
    records(&mut ctx);
    let before = ctx.stats().draws;
    // Two draws that draw, with an empty one between them (it keeps its gl_DrawID) and one
    // after them (left out): one record of three draws.
    ctx.multi_draw_arrays(TRIANGLES, &[0, 1, 0, 2], &[3, 0, 3, 0], 4);
    let got = records(&mut ctx);
    assert!(
        matches!(
            got[..],
            [Record::MultiDraw {
                topology: Topology::Triangles,
                draws: Span { len: 24, .. },
                same_draw_id: false,
            }]
        ),
        "{got:?}"
    );
    assert_eq!(ctx.stats().draws - before, 2);
    let buf = ctx.gen_buffer();
    ctx.bind_buffer(ELEMENT_ARRAY_BUFFER, buf);
    ctx.buffer_data(
        ELEMENT_ARRAY_BUFFER,
        12,
        Some(&[0, 0, 1, 0, 2, 0, 2, 0, 1, 0, 0, 0]),
        STATIC_DRAW,
    );
    records(&mut ctx);
    ctx.multi_draw_elements_base_vertex(
        TRIANGLES,
        &[3, 3],
        UNSIGNED_SHORT,
        &[0, 6],
        2,
        Some(&[0, 1]),
    );
    let got = records(&mut ctx);
    assert!(
        matches!(
            got[..],
            [
                Record::SetIndexBuffer { .. },
                Record::MultiDrawIndexed {
                    topology: Topology::Triangles,
                    index_type: IndexType::U16,
                    draws: Span { len: 32, .. },
                    same_draw_id: false,
                }
            ]
        ),
        "{got:?}"
    );
    // One draw is the single-draw record; no draw that draws, no record.
    ctx.multi_draw_elements(TRIANGLES, &[3], UNSIGNED_SHORT, &[0], 1);
    ctx.multi_draw_arrays(TRIANGLES, &[0, 0], &[0, 0], 2);
    let got = records(&mut ctx);
    assert!(
        matches!(got[..], [Record::DrawIndexed { count: 3, .. }]),
        "{got:?}"
    );
    assert_no_error!(ctx);
}

#[test]
fn consecutive_draws_with_nothing_between_them_are_one_record() {
    let (mut ctx, offset, _) = scene();
    ctx.draw_arrays(TRIANGLES, 0, 3);
    records(&mut ctx);
    let before = ctx.stats().draws;
    ctx.draw_arrays(TRIANGLES, 0, 3);
    ctx.draw_arrays(TRIANGLES, 1, 2);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    // A state change ends the run; another topology, or an instanced draw, is a draw record
    // of its own.
    ctx.uniform4f(offset, 0.5, 0.0, 0.0, 0.0);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    ctx.draw_arrays(POINTS, 0, 3);
    ctx.draw_arrays_instanced(POINTS, 0, 3, 2);
    let got = records(&mut ctx);
    assert!(
        matches!(
            got[..],
            [
                Record::MultiDraw {
                    topology: Topology::Triangles,
                    draws: Span { len: 24, .. },
                    same_draw_id: true,
                },
                Record::SetUniforms { .. },
                Record::Draw {
                    topology: Topology::Triangles,
                    ..
                },
                Record::Draw {
                    topology: Topology::Points,
                    instances: 1,
                    ..
                },
                Record::Draw {
                    topology: Topology::Points,
                    instances: 2,
                    ..
                },
            ]
        ),
        "{got:?}"
    );
    assert_eq!(ctx.stats().draws - before, 6);
    // Indexed draws of one index type merge too.
    let buf = ctx.gen_buffer();
    ctx.bind_buffer(ELEMENT_ARRAY_BUFFER, buf);
    ctx.buffer_data(
        ELEMENT_ARRAY_BUFFER,
        6,
        Some(&[0, 0, 1, 0, 2, 0]),
        STATIC_DRAW,
    );
    records(&mut ctx);
    ctx.draw_elements(TRIANGLES, 3, UNSIGNED_SHORT, 0);
    ctx.draw_elements_base_vertex(TRIANGLES, 3, UNSIGNED_SHORT, 0, 1);
    ctx.draw_elements(TRIANGLES, 3, UNSIGNED_BYTE, 0);
    let got = records(&mut ctx);
    assert!(
        matches!(
            got[..],
            [
                Record::SetIndexBuffer { .. },
                Record::MultiDrawIndexed {
                    index_type: IndexType::U16,
                    draws: Span { len: 32, .. },
                    same_draw_id: true,
                    ..
                },
                Record::DrawIndexed {
                    index_type: IndexType::U8,
                    ..
                },
            ]
        ),
        "{got:?}"
    );
    assert_no_error!(ctx);
}

#[test]
fn unsynchronized_writes_between_draws_go_ahead_of_them_and_adjacent_ones_and_the_draws_merge() {
    let (mut ctx, _, _) = scene();
    ctx.draw_arrays(TRIANGLES, 0, 3);
    records(&mut ctx);
    // A stream buffer's pattern: draw, then map the next bytes unsynchronized, write, unmap.
    let unsynchronized = MAP_WRITE_BIT | MAP_INVALIDATE_RANGE_BIT | MAP_UNSYNCHRONIZED_BIT;
    // The first two ranges are adjacent (one write), the third is not.
    for (i, (at, len)) in [(0, 8), (8, 8), (20, 4)].into_iter().enumerate() {
        ctx.draw_arrays(TRIANGLES, 0, 3);
        ctx.map_buffer_range(ARRAY_BUFFER, at, len, unsynchronized);
        ctx.with_mapped(ARRAY_BUFFER, |m| m.fill(i as u8));
        ctx.unmap_buffer(ARRAY_BUFFER);
    }
    ctx.draw_arrays(TRIANGLES, 0, 3);
    // A synchronized write keeps its place, after the draws before it.
    ctx.buffer_sub_data(ARRAY_BUFFER, 0, 8, &[0; 8]);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    let got = records(&mut ctx);
    assert!(
        matches!(
            got[..],
            [
                Record::WriteBufferUnsynchronized {
                    offset: 0,
                    data: Span { len: 16, .. },
                    ..
                },
                Record::WriteBufferUnsynchronized {
                    offset: 20,
                    data: Span { len: 4, .. },
                    ..
                },
                Record::MultiDraw {
                    topology: Topology::Triangles,
                    draws: Span { len: 32, .. },
                    same_draw_id: true,
                },
                Record::WriteBuffer { offset: 0, .. },
                Record::Draw { .. },
            ]
        ),
        "{got:?}"
    );
    assert_no_error!(ctx);
}

#[test]
fn each_state_change_sends_exactly_its_group() {
    let (mut ctx, offset, color) = scene();
    ctx.draw_arrays(TRIANGLES, 0, 3);
    records(&mut ctx);
    assert_eq!(
        after(&mut ctx, |c| c.uniform4f(offset, 0.5, 0.0, 0.0, 0.0)),
        ["SetUniforms", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.uniform4f(color, 1.0, 0.0, 0.0, 1.0)),
        ["SetUniforms", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.viewport(1, 2, 30, 40)),
        ["SetViewport", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.scissor(1, 2, 3, 4)),
        ["SetScissor", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.blend_color(0.5, 0.5, 0.5, 0.5)),
        ["SetBlendColor", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.enable(BLEND)),
        ["CreateBlendState", "BindBlendState", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.enable(DEPTH_TEST)),
        ["CreateDepthStencilState", "BindDepthStencilState", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.enable(CULL_FACE)),
        ["CreateRasterState", "BindRasterState", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.stencil_func(ALWAYS, 3, 0xff)),
        ["SetStencilRef", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.polygon_offset(1.0, 2.0)),
        ["SetDepthBias", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.line_width(2.0)),
        ["SetLineWidth", "Draw"]
    );
    // The fixed point size also lives in the default block's hidden slot (tessera-shader).
    assert_eq!(
        after(&mut ctx, |c| c.point_size(3.0)),
        ["SetPointSize", "SetUniforms", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.enable(PROGRAM_POINT_SIZE)),
        [
            "CreateRasterState",
            "BindRasterState",
            "SetUniforms",
            "Draw"
        ]
    );
    assert_eq!(
        after(&mut ctx, |c| c.enable(PRIMITIVE_RESTART)),
        ["SetPrimitiveRestart", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.enable(SAMPLE_COVERAGE)),
        ["SetSampleMask", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.vertex_attrib_divisor(0, 1)),
        ["CreateVertexLayout", "BindVertexLayout", "Draw"]
    );
    assert_eq!(
        after(&mut ctx, |c| c.vertex_attrib_divisor(0, 0)),
        ["BindVertexLayout", "Draw"],
        "CSO reused"
    );
}

#[test]
fn redundant_sets_send_nothing() {
    let (mut ctx, offset, _) = scene();
    ctx.uniform4f(offset, 0.25, 0.0, 0.0, 0.0);
    ctx.draw_arrays(TRIANGLES, 0, 3);
    records(&mut ctx);
    let same = after(&mut ctx, |c| {
        c.viewport(0, 0, 64, 64);
        c.scissor(0, 0, 64, 64);
        c.disable(BLEND);
        c.disable(DEPTH_TEST);
        c.blend_func(ONE, ZERO);
        c.depth_func(LESS);
        c.blend_color(0.0, 0.0, 0.0, 0.0);
        c.line_width(1.0);
        c.enable(BLEND);
        c.disable(BLEND);
    });
    assert_eq!(same, ["Draw"]);
}

#[test]
fn toggling_blend_a_hundred_times_creates_two_blend_states_then_only_binds() {
    let (mut ctx, _, _) = scene();
    ctx.draw_arrays(TRIANGLES, 0, 3);
    records(&mut ctx);
    let mut all = Vec::new();
    for i in 0..100 {
        if i % 2 == 0 {
            ctx.enable(BLEND);
        } else {
            ctx.disable(BLEND);
        }
        ctx.draw_arrays(TRIANGLES, 0, 3);
        all.extend(names(&records(&mut ctx)));
    }
    let count = |n: &str| all.iter().filter(|x| *x == n).count();
    // The disabled state was created by the first draw; enabling creates the second.
    assert_eq!(count("CreateBlendState"), 1);
    assert_eq!(count("BindBlendState"), 100);
    assert_eq!(count("Draw"), 100);
    assert_eq!(all.len(), 201);
    let probe = ctx.null_probe().unwrap().stats();
    assert_eq!(
        probe.count("CreateBlendState"),
        2,
        "two blend CSOs in the whole session"
    );
}

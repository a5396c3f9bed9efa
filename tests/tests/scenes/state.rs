//! Render-state scenes: depth (compare functions, mask, range, clear value), stencil
//! (functions, every operation, separate faces, masks, clear value), blending (every equation
//! and factor group), scissor, colour mask, polygon offset and rasterizer discard.
//!
//! Blend inputs use channels of 0 or 255 wherever a factor multiplies them, so that the
//! products are exact in 8-bit arithmetic and the expected pixels follow from the equations
//! without rounding questions.

use tessera_engine::gl::*;
use tessera_tests::differential::{check, probe};
use tessera_tests::gl::Gl;

use super::geometry::{
    BG, BLUE, GREEN, POSITION_VS, Painter, RED, W, YELLOW, buffer, clear, le, ndc, program, rect,
    vertex_array,
};

mod blend;
mod stencil;

const ON: GLboolean = 1;
const OFF: GLboolean = 0;
const MAGENTA: [u8; 4] = [255, 0, 255, 255];

/// The whole framebuffer.
const FULL: [i32; 4] = [0, 0, W, W];

#[test]
fn depth_less() {
    // Red at depth 0.5, green at 0.25 over part of it, blue at 0.75 passing only where
    // nothing nearer was drawn.
    check(
        "state_depth_less",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(DEPTH_TEST);
            let p = Painter::new(gl);
            p.fill(gl, [4, 4, 20, 20], 0.0, RED);
            p.fill(gl, [12, 12, 28, 28], -0.5, GREEN);
            p.fill(gl, [8, 8, 24, 24], 0.5, BLUE);
        },
        &[
            probe(6, 6, RED),
            probe(10, 10, RED),
            probe(16, 16, GREEN),
            probe(26, 26, GREEN),
            probe(22, 10, BLUE),
            probe(2, 2, BG),
        ],
    );
}

#[test]
fn depth_gequal() {
    // Depth cleared to 0: red at 0.5 passes, green at 0.25 fails over red, blue at 0.5
    // passes over red (equal) and green (greater).
    check(
        "state_depth_gequal",
        W,
        W,
        |gl| {
            gl.clear_depth(0.0);
            clear(gl, BG);
            gl.enable(DEPTH_TEST);
            gl.depth_func(GEQUAL);
            let p = Painter::new(gl);
            p.fill(gl, [4, 4, 20, 20], 0.0, RED);
            p.fill(gl, [12, 12, 28, 28], -0.5, GREEN);
            p.fill(gl, [8, 8, 16, 16], 0.0, BLUE);
        },
        &[
            probe(6, 6, RED),
            probe(10, 10, BLUE),
            probe(18, 18, RED),
            probe(24, 24, GREEN),
            probe(2, 2, BG),
        ],
    );
}

#[test]
fn depth_equal_with_depth_ranges() {
    // Red writes depth 0.5 through the range [0.25, 0.75]; EQUAL then passes for z = 0 under
    // the full range and for any z under the range [0.5, 0.5], and fails for z = 0.1.
    check(
        "state_depth_equal_ranges",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(DEPTH_TEST);
            let p = Painter::new(gl);
            gl.depth_range(0.25, 0.75);
            p.fill(gl, [4, 4, 28, 28], 0.0, RED);
            gl.depth_func(EQUAL);
            gl.depth_range(0.0, 1.0);
            p.fill(gl, [0, 0, 16, 32], 0.0, GREEN);
            gl.depth_range(0.5, 0.5);
            p.fill(gl, [16, 0, 32, 16], 0.7, BLUE);
            gl.depth_range(0.0, 1.0);
            p.fill(gl, [16, 16, 32, 32], 0.1, YELLOW);
        },
        &[
            probe(8, 16, GREEN),
            probe(22, 8, BLUE),
            probe(22, 22, RED),
            probe(2, 2, BG),
            probe(30, 30, BG),
        ],
    );
}

#[test]
fn depth_mask_off() {
    // Red drawn near with depth writes off leaves depth at 1: green (far) still covers it;
    // blue, farther than green, fails only where green wrote depth.
    check(
        "state_depth_mask_off",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(DEPTH_TEST);
            let p = Painter::new(gl);
            gl.depth_mask(OFF);
            p.fill(gl, [4, 4, 20, 20], -0.5, RED);
            gl.depth_mask(ON);
            p.fill(gl, [12, 12, 28, 28], 0.5, GREEN);
            p.fill(gl, [8, 20, 28, 28], 0.9, BLUE);
        },
        &[
            probe(6, 6, RED),
            probe(16, 16, GREEN),
            probe(10, 24, BLUE),
            probe(20, 24, GREEN),
        ],
    );
}

#[test]
fn depth_range_maps_depth() {
    // Red at z = 0.5 through [0, 0.5] is at 0.375. Green at z = -0.9 through [0.5, 1] is at
    // 0.525 (fails); blue at z = -0.3 is at 0.35 (passes); yellow at z = 0.9 through the
    // reversed range [1, 0] is at 0.05 (passes).
    check(
        "state_depth_range",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(DEPTH_TEST);
            let p = Painter::new(gl);
            gl.depth_range(0.0, 0.5);
            p.fill(gl, [4, 4, 28, 28], 0.5, RED);
            gl.depth_range(0.5, 1.0);
            p.fill(gl, [4, 4, 16, 16], -0.9, GREEN);
            gl.depth_range(0.0, 1.0);
            p.fill(gl, [16, 4, 28, 16], -0.3, BLUE);
            gl.depth_range(1.0, 0.0);
            p.fill(gl, [4, 16, 16, 28], 0.9, YELLOW);
        },
        &[
            probe(8, 8, RED),
            probe(20, 8, BLUE),
            probe(8, 20, YELLOW),
            probe(20, 20, RED),
            probe(2, 2, BG),
        ],
    );
}

#[test]
fn clear_depth_and_stencil_values() {
    // Depth cleared to 0.3 and stencil to 3, observed by later tests.
    check(
        "state_clear_depth_stencil_values",
        W,
        W,
        |gl| {
            gl.clear_depth(0.3);
            gl.clear_stencil(3);
            clear(gl, BG);
            gl.enable(DEPTH_TEST);
            let p = Painter::new(gl);
            p.fill(gl, [0, 0, 32, 16], -0.5, RED);
            p.fill(gl, [0, 16, 32, 32], -0.3, GREEN);
            gl.enable(STENCIL_TEST);
            gl.stencil_func(EQUAL, 3, 0xFF);
            p.fill(gl, [0, 0, 16, 32], -1.0, BLUE);
            gl.stencil_func(EQUAL, 4, 0xFF);
            p.fill(gl, [16, 0, 32, 32], -1.0, YELLOW);
        },
        &[
            probe(8, 8, BLUE),
            probe(8, 24, BLUE),
            probe(24, 8, RED),
            probe(24, 24, BG),
        ],
    );
}

#[test]
fn masked_clears() {
    // A depth clear with depth writes off leaves depth alone; a stencil clear writes only
    // the bits of the stencil write mask: 0x30 | (0xFF & 0x0F) = 0x3F.
    check(
        "state_masked_clears",
        W,
        W,
        |gl| {
            gl.clear_depth(0.3);
            gl.clear_stencil(0x30);
            clear(gl, BG);
            gl.depth_mask(OFF);
            gl.clear_depth(1.0);
            gl.clear(DEPTH_BUFFER_BIT);
            gl.depth_mask(ON);
            gl.stencil_mask(0x0F);
            gl.clear_stencil(0xFF);
            gl.clear(STENCIL_BUFFER_BIT);
            gl.stencil_mask(0xFF);
            gl.enable(DEPTH_TEST);
            let p = Painter::new(gl);
            p.fill(gl, [0, 0, 16, 32], -0.3, RED);
            p.fill(gl, [16, 0, 32, 32], -0.5, GREEN);
            gl.enable(STENCIL_TEST);
            gl.depth_func(ALWAYS);
            gl.stencil_func(EQUAL, 0x3F, 0xFF);
            p.fill(gl, [0, 16, 32, 32], 0.0, BLUE);
        },
        &[
            probe(8, 8, BG),
            probe(24, 8, GREEN),
            probe(8, 24, BLUE),
            probe(24, 24, BLUE),
        ],
    );
}

#[test]
fn scissor_draw() {
    check(
        "state_scissor_draw",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = Painter::new(gl);
            gl.enable(SCISSOR_TEST);
            gl.scissor(8, 4, 16, 12);
            p.fill(gl, FULL, 0.0, RED);
            gl.scissor(20, 20, 100, 100);
            p.fill(gl, [0, 0, 26, 26], 0.0, GREEN);
            gl.disable(SCISSOR_TEST);
            p.fill(gl, [0, 28, 4, 32], 0.0, BLUE);
        },
        &[
            probe(9, 5, RED),
            probe(22, 14, RED),
            probe(7, 5, BG),
            probe(24, 5, BG),
            probe(9, 3, BG),
            probe(9, 16, BG),
            probe(21, 21, GREEN),
            probe(27, 27, BG),
            probe(19, 21, BG),
            probe(1, 30, BLUE),
        ],
    );
}

#[test]
fn scissor_clear_color_and_depth() {
    // Scissored clears: colour in a box; depth to 0 in another box, observed by a depth test.
    check(
        "state_scissor_clear",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(SCISSOR_TEST);
            gl.scissor(2, 2, 12, 12);
            gl.clear_color(0.0, 1.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            gl.scissor(16, 0, 16, 32);
            gl.clear_depth(0.0);
            gl.clear(DEPTH_BUFFER_BIT);
            gl.disable(SCISSOR_TEST);
            gl.enable(DEPTH_TEST);
            let p = Painter::new(gl);
            p.fill(gl, [0, 16, 32, 32], 0.0, RED);
        },
        &[
            probe(8, 8, GREEN),
            probe(1, 1, BG),
            probe(14, 8, BG),
            probe(8, 24, RED),
            probe(24, 24, BG),
        ],
    );
}

#[test]
fn color_mask_on_draw_and_clear() {
    // Draw white with red and blue writable: (255, bg, 255, bg). Clear to (0, 255, 0, 0)
    // with only green and alpha writable in the top half (scissored).
    check(
        "state_color_mask",
        W,
        W,
        |gl| {
            clear(gl, [30, 40, 50, 60]);
            let p = Painter::new(gl);
            gl.color_mask(ON, OFF, ON, OFF);
            p.fill(gl, [0, 0, 16, 32], 0.0, [255, 255, 255, 255]);
            gl.color_mask(OFF, ON, OFF, ON);
            gl.enable(SCISSOR_TEST);
            gl.scissor(0, 16, 32, 16);
            gl.clear_color(0.0, 1.0, 0.0, 0.0);
            gl.clear(COLOR_BUFFER_BIT);
        },
        &[
            probe(8, 8, [255, 40, 255, 60]),
            probe(24, 8, [30, 40, 50, 60]),
            probe(8, 24, [255, 255, 255, 0]),
            probe(24, 24, [30, 255, 50, 0]),
        ],
    );
}

#[test]
fn polygon_offset_coplanar_quads() {
    // Red at depth 0.5. Coplanar quads: LESS fails without offset and passes with units -2;
    // LEQUAL passes without offset and fails with units +2. The quads are flat, so only the
    // units term (the depth format's resolution) applies.
    check(
        "state_polygon_offset",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(DEPTH_TEST);
            let p = Painter::new(gl);
            p.fill(gl, FULL, 0.0, RED);
            p.fill(gl, [4, 4, 16, 16], 0.0, GREEN);
            gl.enable(POLYGON_OFFSET_FILL);
            gl.polygon_offset(0.0, -2.0);
            p.fill(gl, [16, 4, 28, 16], 0.0, BLUE);
            gl.disable(POLYGON_OFFSET_FILL);
            gl.depth_func(LEQUAL);
            p.fill(gl, [4, 16, 16, 28], 0.0, YELLOW);
            gl.enable(POLYGON_OFFSET_FILL);
            gl.polygon_offset(0.0, 2.0);
            p.fill(gl, [16, 16, 28, 28], 0.0, GREEN);
        },
        &[
            probe(8, 8, RED),
            probe(20, 8, BLUE),
            probe(8, 20, YELLOW),
            probe(20, 20, RED),
            probe(2, 2, RED),
        ],
    );
}

#[test]
fn polygon_offset_slope_factor() {
    // A quad sloping in depth from 0.25 (left) to 0.75 (right), then bands in its plane:
    // with factor -1 (the slope, 1/64 per pixel) they pass LESS; with factor +1 they fail
    // LEQUAL. (Without offset, coplanar triangles with other vertices may differ in the last
    // bit of depth: no band is drawn that way.)
    check(
        "state_polygon_offset_slope",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(DEPTH_TEST);
            let p = Painter::new(gl);
            let band = |y0: f32, y1: f32| -> Vec<f32> {
                let (a, b, c, d) = (-1.0, ndc(y0), 1.0, ndc(y1));
                vec![
                    a, b, -0.5, c, b, 0.5, c, d, 0.5, a, b, -0.5, c, d, 0.5, a, d, -0.5,
                ]
            };
            let all = band(0.0, 32.0);
            p.draw(gl, &all, RED);
            gl.enable(POLYGON_OFFSET_FILL);
            gl.polygon_offset(-1.0, 0.0);
            p.draw(gl, &band(12.0, 20.0), BLUE);
            gl.depth_func(LEQUAL);
            gl.polygon_offset(1.0, 0.0);
            p.draw(gl, &band(22.0, 30.0), YELLOW);
        },
        &[
            probe(8, 6, RED),
            probe(8, 16, BLUE),
            probe(24, 16, BLUE),
            probe(8, 26, RED),
            probe(24, 26, RED),
        ],
    );
}

#[test]
fn rasterizer_discard() {
    // With RASTERIZER_DISCARD on, draws and clears change nothing.
    check(
        "state_rasterizer_discard",
        W,
        W,
        |gl| {
            clear(gl, BG);
            let p = Painter::new(gl);
            p.fill(gl, [0, 0, 16, 32], 0.0, RED);
            gl.enable(RASTERIZER_DISCARD);
            p.fill(gl, FULL, 0.0, GREEN);
            gl.clear_color(0.0, 0.0, 1.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            gl.disable(RASTERIZER_DISCARD);
            p.fill(gl, [24, 24, 32, 32], 0.0, YELLOW);
        },
        &[probe(8, 8, RED), probe(24, 8, BG), probe(28, 28, YELLOW)],
    );
}

#[test]
fn depth_funcs_never_always_greater_notequal_lequal() {
    // Reference depth 0.5 everywhere; each row is one function, drawn (without depth writes)
    // at 0.25, 0.5 and 0.75 in three columns.
    let funcs = [NEVER, ALWAYS, GREATER, NOTEQUAL, LEQUAL];
    check(
        "state_depth_funcs_other",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(DEPTH_TEST);
            let p = Painter::new(gl);
            p.fill(gl, FULL, 0.0, RED);
            gl.depth_mask(OFF);
            for (row, func) in funcs.iter().enumerate() {
                gl.depth_func(*func);
                let y = 1 + 6 * row as i32;
                for (col, z) in [-0.5, 0.0, 0.5].into_iter().enumerate() {
                    let x = 11 * col as i32;
                    p.fill(gl, [x, y, x + 10, y + 5], z, GREEN);
                }
            }
        },
        &{
            let pass = [
                [false; 3],
                [true; 3],
                [false, false, true],
                [true, false, true],
                [true, true, false],
            ];
            let mut probes = Vec::new();
            for (row, cols) in pass.iter().enumerate() {
                for (col, &p) in cols.iter().enumerate() {
                    probes.push(probe(
                        11 * col as i32 + 5,
                        6 * row as i32 + 3,
                        if p { GREEN } else { RED },
                    ));
                }
            }
            probes
        },
    );
}

#[test]
fn clear_buffer_depth() {
    // glClearBufferfv for depth (0.25), observed by a depth test. (Not for colour here: the
    // native driver ignores glClearBufferfv(COLOR, 0) on its pbuffer, whose draw buffer is
    // BACK of a single-buffered surface, while glClear works.)
    check(
        "state_clear_buffer_depth",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.clear_bufferfv(DEPTH, 0, &[0.25]);
            gl.enable(DEPTH_TEST);
            let p = Painter::new(gl);
            p.fill(gl, [0, 0, 16, 32], -0.3, RED);
            p.fill(gl, [16, 0, 32, 32], -0.7, GREEN);
        },
        &[probe(8, 8, BG), probe(24, 24, GREEN)],
    );
}

#[test]
fn frag_depth_written_by_the_shader() {
    // The fragment shader writes gl_FragDepth (0.2 or 0.7 by column); a later quad at 0.5
    // passes LESS only where 0.7 was written.
    check(
        "state_frag_depth",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(DEPTH_TEST);
            let p = program(
                gl,
                POSITION_VS,
                "#version 330 core
out vec4 frag;
void main() { gl_FragDepth = gl_FragCoord.x < 16.0 ? 0.2 : 0.7; frag = vec4(1.0, 0.0, 0.0, 1.0); }
",
            );
            let painter = Painter::new(gl);
            gl.use_program(p);
            vertex_array(gl);
            let v = rect(0.0, 0.0, 32.0, 32.0, 0.0);
            buffer(gl, ARRAY_BUFFER, &le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 3, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            gl.draw_arrays(TRIANGLES, 0, 6);
            painter.fill(gl, [0, 0, 32, 16], 0.0, GREEN);
        },
        &[
            probe(8, 8, RED),
            probe(24, 8, GREEN),
            probe(8, 24, RED),
            probe(24, 24, RED),
        ],
    );
}

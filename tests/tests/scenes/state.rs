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

use super::geometry::{BG, BLUE, GREEN, Painter, RED, W, YELLOW, clear, ndc};

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
        &[probe(6, 6, RED), probe(10, 10, BLUE), probe(18, 18, RED), probe(24, 24, GREEN), probe(2, 2, BG)],
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
        &[probe(8, 16, GREEN), probe(22, 8, BLUE), probe(22, 22, RED), probe(2, 2, BG), probe(30, 30, BG)],
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
        &[probe(6, 6, RED), probe(16, 16, GREEN), probe(10, 24, BLUE), probe(20, 24, GREEN)],
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
        &[probe(8, 8, RED), probe(20, 8, BLUE), probe(8, 20, YELLOW), probe(20, 20, RED), probe(2, 2, BG)],
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
        &[probe(8, 8, BLUE), probe(8, 24, BLUE), probe(24, 8, RED), probe(24, 24, BG)],
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
        &[probe(8, 8, BG), probe(24, 8, GREEN), probe(8, 24, BLUE), probe(24, 24, BLUE)],
    );
}

#[test]
fn stencil_replace_then_equal_and_notequal() {
    check(
        "state_stencil_replace_equal_notequal",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(STENCIL_TEST);
            let p = Painter::new(gl);
            gl.stencil_func(ALWAYS, 1, 0xFF);
            gl.stencil_op(KEEP, KEEP, REPLACE);
            gl.color_mask(OFF, OFF, OFF, OFF);
            p.fill(gl, [8, 8, 24, 24], 0.0, RED);
            gl.color_mask(ON, ON, ON, ON);
            gl.stencil_op(KEEP, KEEP, KEEP);
            gl.stencil_func(EQUAL, 1, 0xFF);
            p.fill(gl, [0, 0, 32, 16], 0.0, GREEN);
            gl.stencil_func(NOTEQUAL, 1, 0xFF);
            p.fill(gl, [0, 16, 32, 32], 0.0, BLUE);
        },
        &[probe(12, 12, GREEN), probe(4, 4, BG), probe(12, 20, BG), probe(4, 20, BLUE), probe(28, 28, BLUE)],
    );
}

/// Draws one full-screen fill per (reference, colour) with stencil EQUAL, keeping stencil.
fn show_stencil(gl: &mut dyn Gl, p: &Painter, values: &[(i32, [u8; 4])]) {
    gl.color_mask(ON, ON, ON, ON);
    gl.stencil_op(KEEP, KEEP, KEEP);
    for &(reference, rgba) in values {
        gl.stencil_func(EQUAL, reference, 0xFF);
        p.fill(gl, FULL, 0.0, rgba);
    }
}

#[test]
fn stencil_incr_decr_invert() {
    // From 5: INCR twice on the left half, DECR on the bottom half, INVERT in the top-right
    // corner. Bottom-left 6, bottom-right 4, top-left 7, top-right 5, corner !5 = 250.
    check(
        "state_stencil_incr_decr_invert",
        W,
        W,
        |gl| {
            gl.clear_stencil(5);
            clear(gl, BG);
            gl.enable(STENCIL_TEST);
            let p = Painter::new(gl);
            gl.color_mask(OFF, OFF, OFF, OFF);
            gl.stencil_func(ALWAYS, 0, 0xFF);
            gl.stencil_op(KEEP, KEEP, INCR);
            p.fill(gl, [0, 0, 16, 32], 0.0, RED);
            p.fill(gl, [0, 0, 16, 32], 0.0, RED);
            gl.stencil_op(KEEP, KEEP, DECR);
            p.fill(gl, [0, 0, 32, 16], 0.0, RED);
            gl.stencil_op(KEEP, KEEP, INVERT);
            p.fill(gl, [24, 24, 32, 32], 0.0, RED);
            show_stencil(gl, &p, &[(6, GREEN), (4, BLUE), (7, RED), (5, YELLOW), (250, MAGENTA)]);
        },
        &[
            probe(8, 8, GREEN),
            probe(24, 8, BLUE),
            probe(8, 24, RED),
            probe(20, 20, YELLOW),
            probe(28, 28, MAGENTA),
        ],
    );
}

#[test]
fn stencil_wrap_clamp_and_zero() {
    // Bottom row of columns from 0: DECR clamps (0), DECR_WRAP wraps (255), INCR after it
    // clamps (255), INCR_WRAP after it wraps (0). Top: REPLACE 9 everywhere, then ZERO on
    // the left.
    check(
        "state_stencil_wrap_clamp_zero",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(STENCIL_TEST);
            let p = Painter::new(gl);
            gl.color_mask(OFF, OFF, OFF, OFF);
            gl.stencil_func(ALWAYS, 9, 0xFF);
            gl.stencil_op(KEEP, KEEP, DECR);
            p.fill(gl, [0, 0, 8, 16], 0.0, RED);
            gl.stencil_op(KEEP, KEEP, DECR_WRAP);
            p.fill(gl, [8, 0, 32, 16], 0.0, RED);
            gl.stencil_op(KEEP, KEEP, INCR);
            p.fill(gl, [16, 0, 24, 16], 0.0, RED);
            gl.stencil_op(KEEP, KEEP, INCR_WRAP);
            p.fill(gl, [24, 0, 32, 16], 0.0, RED);
            gl.stencil_op(KEEP, KEEP, REPLACE);
            p.fill(gl, [0, 16, 32, 32], 0.0, RED);
            gl.stencil_op(KEEP, KEEP, ZERO);
            p.fill(gl, [0, 16, 16, 32], 0.0, RED);
            show_stencil(gl, &p, &[(0, GREEN), (255, RED), (9, BLUE)]);
        },
        &[
            probe(4, 8, GREEN),
            probe(12, 8, RED),
            probe(20, 8, RED),
            probe(28, 8, GREEN),
            probe(8, 24, GREEN),
            probe(24, 24, BLUE),
        ],
    );
}

#[test]
fn stencil_fail_and_depth_fail_ops() {
    // The three op slots: stencil fail (INCR), depth fail (INVERT), both pass (DECR), from a
    // stencil of 1 on the right half and depth 0 on the top half. Left: 0 fails EQUAL 1 and
    // becomes 1; right bottom passes both (0); right top fails depth (!1 = 254).
    check(
        "state_stencil_fail_ops",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(STENCIL_TEST);
            gl.enable(DEPTH_TEST);
            let p = Painter::new(gl);
            gl.color_mask(OFF, OFF, OFF, OFF);
            gl.depth_func(ALWAYS);
            gl.stencil_func(ALWAYS, 1, 0xFF);
            gl.stencil_op(KEEP, KEEP, REPLACE);
            p.fill(gl, [16, 0, 32, 32], 1.0, RED);
            gl.stencil_op(KEEP, KEEP, KEEP);
            p.fill(gl, [0, 16, 32, 32], -1.0, RED);
            gl.depth_func(LESS);
            gl.stencil_func(EQUAL, 1, 0xFF);
            gl.stencil_op(INCR, INVERT, DECR);
            p.fill(gl, FULL, 0.0, RED);
            gl.disable(DEPTH_TEST);
            show_stencil(gl, &p, &[(1, GREEN), (0, YELLOW), (254, BLUE)]);
        },
        &[probe(8, 8, GREEN), probe(8, 24, GREEN), probe(24, 8, YELLOW), probe(24, 24, BLUE)],
    );
}

#[test]
fn stencil_separate_faces() {
    // Front faces (counter-clockwise) REPLACE with 1; back faces (clockwise) INCR from 5.
    // Then front faces test EQUAL 1 and back faces EQUAL 6.
    check(
        "state_stencil_separate",
        W,
        W,
        |gl| {
            gl.clear_stencil(5);
            clear(gl, BG);
            gl.enable(STENCIL_TEST);
            let p = Painter::new(gl);
            gl.color_mask(OFF, OFF, OFF, OFF);
            gl.stencil_func_separate(FRONT, ALWAYS, 1, 0xFF);
            gl.stencil_func_separate(BACK, ALWAYS, 2, 0xFF);
            gl.stencil_op_separate(FRONT, KEEP, KEEP, REPLACE);
            gl.stencil_op_separate(BACK, KEEP, KEEP, INCR);
            p.fill(gl, [0, 0, 16, 32], 0.0, RED);
            p.fill_cw(gl, [16, 0, 32, 32], 0.0, RED);
            gl.color_mask(ON, ON, ON, ON);
            gl.stencil_op(KEEP, KEEP, KEEP);
            gl.stencil_func_separate(FRONT, EQUAL, 1, 0xFF);
            gl.stencil_func_separate(BACK, EQUAL, 6, 0xFF);
            p.fill(gl, [0, 16, 32, 32], 0.0, GREEN);
            p.fill_cw(gl, [0, 0, 32, 16], 0.0, BLUE);
        },
        &[probe(8, 24, GREEN), probe(24, 24, BG), probe(8, 8, BG), probe(24, 8, BLUE)],
    );
}

#[test]
fn stencil_write_and_compare_masks() {
    // REPLACE 0xFF through write mask 0x0F stores 0x0F on the left. EQUAL 0x0F passes there;
    // EQUAL 0x1F with compare mask 0x0F also passes there (0x0F == 0x0F), not on the right.
    check(
        "state_stencil_masks",
        W,
        W,
        |gl| {
            clear(gl, BG);
            gl.enable(STENCIL_TEST);
            let p = Painter::new(gl);
            gl.color_mask(OFF, OFF, OFF, OFF);
            gl.stencil_mask(0x0F);
            gl.stencil_func(ALWAYS, 0xFF, 0xFF);
            gl.stencil_op(KEEP, KEEP, REPLACE);
            p.fill(gl, [0, 0, 16, 32], 0.0, RED);
            gl.stencil_mask(0xFF);
            gl.color_mask(ON, ON, ON, ON);
            gl.stencil_op(KEEP, KEEP, KEEP);
            gl.stencil_func(EQUAL, 0x0F, 0xFF);
            p.fill(gl, [0, 0, 32, 16], 0.0, GREEN);
            gl.stencil_func(EQUAL, 0x1F, 0x0F);
            p.fill(gl, [0, 16, 32, 32], 0.0, BLUE);
        },
        &[probe(8, 8, GREEN), probe(8, 24, BLUE), probe(24, 8, BG), probe(24, 24, BG)],
    );
}

/// Paints `dst` colours into four quadrants without blending, then `src` over each with
/// blending enabled after `setup`.
fn blend_quadrants(gl: &mut dyn Gl, cells: [([u8; 4], [u8; 4]); 4], setup: impl Fn(&mut dyn Gl, usize)) {
    clear(gl, BG);
    let p = Painter::new(gl);
    let rects = [[0, 0, 16, 16], [16, 0, 32, 16], [0, 16, 16, 32], [16, 16, 32, 32]];
    for (rect, (dst, _)) in rects.iter().zip(cells) {
        p.fill(gl, *rect, 0.0, dst);
    }
    gl.enable(BLEND);
    for (i, (rect, (_, src))) in rects.iter().zip(cells).enumerate() {
        setup(gl, i);
        p.fill(gl, *rect, 0.0, src);
    }
}

/// Probes at the centre of each quadrant of [`blend_quadrants`].
fn quadrant_probes(expected: [[u8; 4]; 4]) -> [tessera_tests::differential::Probe; 4] {
    let [a, b, c, d] = expected;
    [probe(8, 8, a), probe(24, 8, b), probe(8, 24, c), probe(24, 24, d)]
}

#[test]
fn blend_equation_add() {
    check(
        "state_blend_add",
        W,
        W,
        |gl| {
            blend_quadrants(
                gl,
                [
                    ([100, 50, 0, 255], [20, 30, 255, 0]),
                    ([200, 10, 7, 100], [100, 20, 8, 100]),
                    ([0, 0, 0, 0], [1, 2, 3, 4]),
                    ([255, 255, 255, 255], [255, 0, 0, 0]),
                ],
                |gl, _| gl.blend_func(ONE, ONE),
            )
        },
        &quadrant_probes([[120, 80, 255, 255], [255, 30, 15, 200], [1, 2, 3, 4], [255, 255, 255, 255]]),
    );
}

#[test]
fn blend_equation_subtract() {
    // src - dst, clamped at 0.
    check(
        "state_blend_subtract",
        W,
        W,
        |gl| {
            blend_quadrants(
                gl,
                [
                    ([50, 100, 80, 0], [200, 100, 50, 255]),
                    ([10, 20, 30, 40], [15, 25, 35, 45]),
                    ([255, 0, 255, 0], [0, 255, 0, 255]),
                    ([0, 0, 0, 0], [9, 8, 7, 6]),
                ],
                |gl, _| {
                    gl.blend_equation(FUNC_SUBTRACT);
                    gl.blend_func(ONE, ONE);
                },
            )
        },
        &quadrant_probes([[150, 0, 0, 255], [5, 5, 5, 5], [0, 255, 0, 255], [9, 8, 7, 6]]),
    );
}

#[test]
fn blend_equation_reverse_subtract() {
    // dst - src, clamped at 0.
    check(
        "state_blend_reverse_subtract",
        W,
        W,
        |gl| {
            blend_quadrants(
                gl,
                [
                    ([50, 100, 80, 0], [200, 100, 50, 255]),
                    ([10, 20, 30, 40], [15, 25, 35, 45]),
                    ([255, 0, 255, 0], [0, 255, 0, 255]),
                    ([90, 80, 70, 60], [9, 8, 7, 6]),
                ],
                |gl, _| {
                    gl.blend_equation(FUNC_REVERSE_SUBTRACT);
                    gl.blend_func(ONE, ONE);
                },
            )
        },
        &quadrant_probes([[0, 0, 30, 0], [0, 0, 0, 0], [255, 0, 255, 0], [81, 72, 63, 54]]),
    );
}

#[test]
fn blend_equation_min() {
    // MIN ignores the factors (ZERO here).
    check(
        "state_blend_min",
        W,
        W,
        |gl| {
            blend_quadrants(
                gl,
                [
                    ([50, 100, 80, 0], [200, 100, 50, 255]),
                    ([10, 20, 30, 40], [15, 5, 35, 1]),
                    ([255, 0, 255, 0], [0, 255, 0, 255]),
                    ([90, 80, 70, 60], [91, 79, 71, 59]),
                ],
                |gl, _| {
                    gl.blend_equation(MIN);
                    gl.blend_func(ZERO, ZERO);
                },
            )
        },
        &quadrant_probes([[50, 100, 50, 0], [10, 5, 30, 1], [0, 0, 0, 0], [90, 79, 70, 59]]),
    );
}

#[test]
fn blend_equation_max() {
    // MAX ignores the factors (ZERO here).
    check(
        "state_blend_max",
        W,
        W,
        |gl| {
            blend_quadrants(
                gl,
                [
                    ([50, 100, 80, 0], [200, 100, 50, 255]),
                    ([10, 20, 30, 40], [15, 5, 35, 1]),
                    ([255, 0, 255, 0], [0, 255, 0, 255]),
                    ([90, 80, 70, 60], [91, 79, 71, 59]),
                ],
                |gl, _| {
                    gl.blend_equation(MAX);
                    gl.blend_func(ZERO, ZERO);
                },
            )
        },
        &quadrant_probes([[200, 100, 80, 255], [15, 20, 35, 40], [255, 255, 255, 255], [91, 80, 71, 60]]),
    );
}

#[test]
fn blend_factors_zero_one() {
    // (ZERO, ONE) keeps dst; (ONE, ZERO) writes src; (ONE, ONE) adds; (ZERO, ZERO) clears.
    check(
        "state_blend_zero_one",
        W,
        W,
        |gl| {
            let cell = ([10, 20, 30, 40], [100, 110, 120, 130]);
            blend_quadrants(gl, [cell; 4], |gl, i| {
                let [s, d] = [[ZERO, ONE], [ONE, ZERO], [ONE, ONE], [ZERO, ZERO]][i];
                gl.blend_func(s, d);
            })
        },
        &quadrant_probes([[10, 20, 30, 40], [100, 110, 120, 130], [110, 130, 150, 170], [0, 0, 0, 0]]),
    );
}

#[test]
fn blend_factors_src_and_dst_color() {
    // (DST_COLOR, ZERO): src * dst; (ZERO, SRC_COLOR): dst * src; (SRC_COLOR, ZERO):
    // src * src; (ZERO, DST_COLOR): dst * dst. Factors of 0 and 255 keep products exact.
    check(
        "state_blend_src_dst_color",
        W,
        W,
        |gl| {
            blend_quadrants(
                gl,
                [
                    ([10, 20, 30, 40], [255, 0, 255, 255]),
                    ([10, 20, 30, 40], [0, 255, 255, 0]),
                    ([10, 20, 30, 40], [255, 0, 0, 255]),
                    ([255, 0, 255, 0], [10, 20, 30, 40]),
                ],
                |gl, i| {
                    let [s, d] = [[DST_COLOR, ZERO], [ZERO, SRC_COLOR], [SRC_COLOR, ZERO], [ZERO, DST_COLOR]][i];
                    gl.blend_func(s, d);
                },
            )
        },
        &quadrant_probes([[10, 0, 30, 40], [0, 20, 30, 0], [255, 0, 0, 255], [255, 0, 255, 0]]),
    );
}

#[test]
fn blend_factors_one_minus_color() {
    // (ONE_MINUS_DST_COLOR, ZERO) with src 255: 255 - dst; (ZERO, ONE_MINUS_SRC_COLOR):
    // dst where src is 0, 0 where src is 255; then the same with the inputs swapped.
    check(
        "state_blend_one_minus_color",
        W,
        W,
        |gl| {
            blend_quadrants(
                gl,
                [
                    ([10, 20, 30, 40], [255, 255, 255, 255]),
                    ([10, 20, 30, 40], [0, 255, 0, 255]),
                    ([255, 0, 255, 0], [10, 20, 30, 40]),
                    ([0, 255, 255, 0], [255, 255, 0, 255]),
                ],
                |gl, i| {
                    let [s, d] = [
                        [ONE_MINUS_DST_COLOR, ZERO],
                        [ZERO, ONE_MINUS_SRC_COLOR],
                        [ONE_MINUS_DST_COLOR, ZERO],
                        [ONE_MINUS_SRC_COLOR, ONE],
                    ][i];
                    gl.blend_func(s, d);
                },
            )
        },
        &quadrant_probes([[245, 235, 225, 215], [10, 0, 30, 0], [0, 20, 0, 40], [0, 255, 255, 0]]),
    );
}

#[test]
fn blend_factors_src_and_dst_alpha() {
    // Channels of 0/255 weighted by alpha: src * As + dst * (1 - As), src * Ad, and their
    // complements.
    check(
        "state_blend_src_dst_alpha",
        W,
        W,
        |gl| {
            blend_quadrants(
                gl,
                [
                    ([0, 255, 0, 255], [255, 0, 255, 255]),
                    ([0, 255, 255, 255], [255, 255, 0, 51]),
                    ([0, 0, 0, 102], [255, 0, 255, 255]),
                    ([255, 0, 0, 102], [0, 255, 0, 255]),
                ],
                |gl, i| {
                    let [s, d] = [
                        [SRC_ALPHA, ONE_MINUS_SRC_ALPHA],
                        [SRC_ALPHA, ONE_MINUS_SRC_ALPHA],
                        [DST_ALPHA, ZERO],
                        [ONE_MINUS_DST_ALPHA, DST_ALPHA],
                    ][i];
                    gl.blend_func(s, d);
                },
            )
        },
        &quadrant_probes([[255, 0, 255, 255], [51, 255, 204, 214], [102, 0, 102, 102], [102, 153, 0, 194]]),
    );
}

#[test]
fn blend_factors_constant() {
    // blend_color (0.2, 0.4, 0.6, 0.8) is (51, 102, 153, 204) in 8 bits; sources of 255.
    check(
        "state_blend_constant",
        W,
        W,
        |gl| {
            let white = [255, 255, 255, 255];
            blend_quadrants(gl, [([0, 0, 0, 0], white); 4], |gl, i| {
                gl.blend_color(0.2, 0.4, 0.6, 0.8);
                let s = [CONSTANT_COLOR, CONSTANT_ALPHA, ONE_MINUS_CONSTANT_COLOR, ONE_MINUS_CONSTANT_ALPHA][i];
                gl.blend_func(s, ZERO);
            })
        },
        &quadrant_probes([[51, 102, 153, 204], [204, 204, 204, 204], [204, 153, 102, 51], [51, 51, 51, 51]]),
    );
}

#[test]
fn blend_factor_src_alpha_saturate() {
    // RGB factor min(As, 1 - Ad), alpha factor 1.
    check(
        "state_blend_src_alpha_saturate",
        W,
        W,
        |gl| {
            blend_quadrants(
                gl,
                [
                    ([0, 0, 0, 100], [255, 255, 0, 200]),
                    ([0, 0, 0, 200], [255, 0, 255, 100]),
                    ([0, 0, 0, 0], [255, 255, 255, 255]),
                    ([0, 0, 0, 255], [255, 255, 255, 255]),
                ],
                |gl, _| gl.blend_func(SRC_ALPHA_SATURATE, ZERO),
            )
        },
        &quadrant_probes([[155, 155, 0, 200], [55, 0, 55, 100], [255, 255, 255, 255], [0, 0, 0, 255]]),
    );
}

#[test]
fn blend_separate_rgb_and_alpha() {
    // Separate factors: RGB from src, alpha kept from dst; then separate equations: RGB
    // added, alpha MIN; then RGB MAX, alpha REVERSE_SUBTRACT; then RGB from dst, alpha
    // from src.
    check(
        "state_blend_separate",
        W,
        W,
        |gl| {
            let cell = ([10, 200, 30, 140], [100, 20, 120, 40]);
            blend_quadrants(gl, [cell; 4], |gl, i| match i {
                0 => {
                    gl.blend_func_separate(ONE, ZERO, ZERO, ONE);
                }
                1 => {
                    gl.blend_func_separate(ONE, ONE, ONE, ONE);
                    gl.blend_equation_separate(FUNC_ADD, MIN);
                }
                2 => {
                    gl.blend_equation_separate(MAX, FUNC_REVERSE_SUBTRACT);
                }
                _ => {
                    gl.blend_equation(FUNC_ADD);
                    gl.blend_func_separate(ZERO, ONE, ONE, ZERO);
                }
            })
        },
        &quadrant_probes([[100, 20, 120, 140], [110, 220, 150, 40], [100, 200, 120, 100], [10, 200, 30, 40]]),
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
        &[probe(8, 8, GREEN), probe(1, 1, BG), probe(14, 8, BG), probe(8, 24, RED), probe(24, 24, BG)],
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
        &[probe(8, 8, RED), probe(20, 8, BLUE), probe(8, 20, YELLOW), probe(20, 20, RED), probe(2, 2, RED)],
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
                vec![a, b, -0.5, c, b, 0.5, c, d, 0.5, a, b, -0.5, c, d, 0.5, a, d, -0.5]
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
        &[probe(8, 6, RED), probe(8, 16, BLUE), probe(24, 16, BLUE), probe(8, 26, RED), probe(24, 26, RED)],
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
fn blend_with_color_mask() {
    // Blending over a half-transparent destination, ONE_MINUS_SRC_ALPHA on RGB only while
    // the alpha channel is masked: checks colour-mask and blend interplay.
    check(
        "state_blend_color_mask",
        W,
        W,
        |gl| {
            clear(gl, [255, 255, 255, 128]);
            let p = Painter::new(gl);
            gl.enable(BLEND);
            gl.blend_func(ONE, ONE_MINUS_SRC_ALPHA);
            gl.color_mask(ON, ON, ON, OFF);
            p.fill(gl, [0, 0, 16, 32], 0.0, [0, 255, 0, 255]);
            gl.color_mask(ON, ON, ON, ON);
            p.fill(gl, [16, 0, 32, 32], 0.0, [0, 0, 0, 0]);
        },
        &[probe(8, 8, [0, 255, 0, 128]), probe(24, 8, [255, 255, 255, 128])],
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
            let pass = [[false; 3], [true; 3], [false, false, true], [true, false, true], [true, true, false]];
            let mut probes = Vec::new();
            for (row, cols) in pass.iter().enumerate() {
                for (col, &p) in cols.iter().enumerate() {
                    probes.push(probe(11 * col as i32 + 5, 6 * row as i32 + 3, if p { GREEN } else { RED }));
                }
            }
            probes
        },
    );
}

#[test]
fn stencil_compare_funcs() {
    // Stencil 5 everywhere; the test is `ref OP stored` under the compare mask. Nine cells:
    // LESS 3 (pass), LESS 5 (fail), GREATER 6 (pass), GREATER 3 (fail), LEQUAL 5 (pass),
    // GEQUAL 4 (fail), NEVER, ALWAYS, EQUAL 0x85 with mask 0x0F (pass).
    let cells = [
        (LESS, 3, 0xFF, true),
        (LESS, 5, 0xFF, false),
        (GREATER, 6, 0xFF, true),
        (GREATER, 3, 0xFF, false),
        (LEQUAL, 5, 0xFF, true),
        (GEQUAL, 4, 0xFF, false),
        (NEVER, 5, 0xFF, false),
        (ALWAYS, 0, 0xFF, true),
        (EQUAL, 0x85, 0x0F, true),
    ];
    check(
        "state_stencil_compare_funcs",
        W,
        W,
        |gl| {
            gl.clear_stencil(5);
            clear(gl, BG);
            gl.enable(STENCIL_TEST);
            let p = Painter::new(gl);
            for (i, &(func, reference, mask, _)) in cells.iter().enumerate() {
                gl.stencil_func(func, reference, mask);
                let (x, y) = (11 * (i as i32 % 3), 11 * (i as i32 / 3));
                p.fill(gl, [x, y, x + 10, y + 10], 0.0, GREEN);
            }
        },
        &cells
            .iter()
            .enumerate()
            .map(|(i, c)| probe(11 * (i as i32 % 3) + 5, 11 * (i as i32 / 3) + 5, if c.3 { GREEN } else { BG }))
            .collect::<Vec<_>>(),
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
            let p = super::geometry::program(
                gl,
                super::geometry::POSITION_VS,
                "#version 330 core
out vec4 frag;
void main() { gl_FragDepth = gl_FragCoord.x < 16.0 ? 0.2 : 0.7; frag = vec4(1.0, 0.0, 0.0, 1.0); }
",
            );
            let painter = Painter::new(gl);
            gl.use_program(p);
            super::geometry::vertex_array(gl);
            let v = super::geometry::rect(0.0, 0.0, 32.0, 32.0, 0.0);
            super::geometry::buffer(gl, ARRAY_BUFFER, &super::geometry::le(&v, f32::to_le_bytes));
            gl.vertex_attrib_pointer(0, 3, FLOAT, false, 0, 0);
            gl.enable_vertex_attrib_array(0);
            gl.draw_arrays(TRIANGLES, 0, 6);
            painter.fill(gl, [0, 0, 32, 16], 0.0, GREEN);
        },
        &[probe(8, 8, RED), probe(24, 8, GREEN), probe(8, 24, RED), probe(24, 24, RED)],
    );
}

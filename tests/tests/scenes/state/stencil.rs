//! Stencil scenes: REPLACE then EQUAL/NOTEQUAL, every operation (INCR, DECR, their wrapping
//! forms, INVERT, ZERO) in each op slot, every compare function, separate front/back state,
//! write and compare masks.

use super::*;

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
        &[
            probe(12, 12, GREEN),
            probe(4, 4, BG),
            probe(12, 20, BG),
            probe(4, 20, BLUE),
            probe(28, 28, BLUE),
        ],
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
            show_stencil(
                gl,
                &p,
                &[(6, GREEN), (4, BLUE), (7, RED), (5, YELLOW), (250, MAGENTA)],
            );
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
        &[
            probe(8, 8, GREEN),
            probe(8, 24, GREEN),
            probe(24, 8, YELLOW),
            probe(24, 24, BLUE),
        ],
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
            .map(|(i, c)| {
                probe(
                    11 * (i as i32 % 3) + 5,
                    11 * (i as i32 / 3) + 5,
                    if c.3 { GREEN } else { BG },
                )
            })
            .collect::<Vec<_>>(),
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
        &[
            probe(8, 24, GREEN),
            probe(24, 24, BG),
            probe(8, 8, BG),
            probe(24, 8, BLUE),
        ],
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
        &[
            probe(8, 8, GREEN),
            probe(8, 24, BLUE),
            probe(24, 8, BG),
            probe(24, 24, BG),
        ],
    );
}

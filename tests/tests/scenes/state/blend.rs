//! Blend scenes: every equation (ADD, SUBTRACT, REVERSE_SUBTRACT, MIN, MAX) and each factor
//! group (ZERO/ONE, SRC/DST_COLOR and their complements, SRC/DST_ALPHA, CONSTANT_COLOR/ALPHA
//! with blend_color, SRC_ALPHA_SATURATE), separate RGB/alpha state, and blending under a
//! colour mask.
//!
//! Each scene paints destination colours into four quadrants without blending, then blends
//! a source colour over each quadrant under that quadrant's state.

use super::*;

/// Paints `dst` colours into four quadrants without blending, then `src` over each with
/// blending enabled after `setup`.
fn blend_quadrants(
    gl: &mut dyn Gl,
    cells: [([u8; 4], [u8; 4]); 4],
    setup: impl Fn(&mut dyn Gl, usize),
) {
    clear(gl, BG);
    let p = Painter::new(gl);
    let rects = [
        [0, 0, 16, 16],
        [16, 0, 32, 16],
        [0, 16, 16, 32],
        [16, 16, 32, 32],
    ];
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
    [
        probe(8, 8, a),
        probe(24, 8, b),
        probe(8, 24, c),
        probe(24, 24, d),
    ]
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
        &quadrant_probes([
            [120, 80, 255, 255],
            [255, 30, 15, 200],
            [1, 2, 3, 4],
            [255, 255, 255, 255],
        ]),
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
        &quadrant_probes([
            [150, 0, 0, 255],
            [5, 5, 5, 5],
            [0, 255, 0, 255],
            [9, 8, 7, 6],
        ]),
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
        &quadrant_probes([
            [0, 0, 30, 0],
            [0, 0, 0, 0],
            [255, 0, 255, 0],
            [81, 72, 63, 54],
        ]),
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
        &quadrant_probes([
            [50, 100, 50, 0],
            [10, 5, 30, 1],
            [0, 0, 0, 0],
            [90, 79, 70, 59],
        ]),
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
        &quadrant_probes([
            [200, 100, 80, 255],
            [15, 20, 35, 40],
            [255, 255, 255, 255],
            [91, 80, 71, 60],
        ]),
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
        &quadrant_probes([
            [10, 20, 30, 40],
            [100, 110, 120, 130],
            [110, 130, 150, 170],
            [0, 0, 0, 0],
        ]),
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
                    let [s, d] = [
                        [DST_COLOR, ZERO],
                        [ZERO, SRC_COLOR],
                        [SRC_COLOR, ZERO],
                        [ZERO, DST_COLOR],
                    ][i];
                    gl.blend_func(s, d);
                },
            )
        },
        &quadrant_probes([
            [10, 0, 30, 40],
            [0, 20, 30, 0],
            [255, 0, 0, 255],
            [255, 0, 255, 0],
        ]),
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
        &quadrant_probes([
            [245, 235, 225, 215],
            [10, 0, 30, 0],
            [0, 20, 0, 40],
            [0, 255, 255, 0],
        ]),
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
        &quadrant_probes([
            [255, 0, 255, 255],
            [51, 255, 204, 214],
            [102, 0, 102, 102],
            [102, 153, 0, 194],
        ]),
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
                let s = [
                    CONSTANT_COLOR,
                    CONSTANT_ALPHA,
                    ONE_MINUS_CONSTANT_COLOR,
                    ONE_MINUS_CONSTANT_ALPHA,
                ][i];
                gl.blend_func(s, ZERO);
            })
        },
        &quadrant_probes([
            [51, 102, 153, 204],
            [204, 204, 204, 204],
            [204, 153, 102, 51],
            [51, 51, 51, 51],
        ]),
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
        &quadrant_probes([
            [155, 155, 0, 200],
            [55, 0, 55, 100],
            [255, 255, 255, 255],
            [0, 0, 0, 255],
        ]),
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
        &quadrant_probes([
            [100, 20, 120, 140],
            [110, 220, 150, 40],
            [100, 200, 120, 100],
            [10, 200, 30, 40],
        ]),
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
        &[
            probe(8, 8, [0, 255, 0, 128]),
            probe(24, 8, [255, 255, 255, 128]),
        ],
    );
}

#[test]
fn blend_factors_set_while_blending_is_off_apply_when_it_is_on_again() {
    // Blending off between draws: a draw without blending, then factors and an equation
    // changed while it is off, then blending on again with them. A backend that keeps the
    // native factors while blending is off must still set the new ones at the next draw
    // that blends.
    check(
        "state_blend_toggled",
        W,
        W,
        |gl| {
            blend_quadrants(
                gl,
                [
                    ([100, 100, 100, 255], [20, 30, 40, 255]),
                    ([200, 200, 200, 255], [10, 20, 30, 255]),
                    ([50, 60, 70, 255], [255, 255, 255, 255]),
                    ([200, 200, 200, 255], [50, 100, 150, 0]),
                ],
                |gl, i| match i {
                    0 => gl.blend_func(ONE, ONE),
                    1 => {
                        gl.disable(BLEND);
                        gl.blend_func(ZERO, ONE);
                    }
                    2 => gl.enable(BLEND),
                    _ => {
                        gl.disable(BLEND);
                        gl.blend_equation(FUNC_REVERSE_SUBTRACT);
                        gl.blend_func(ONE, ONE);
                        gl.enable(BLEND);
                    }
                },
            )
        },
        &quadrant_probes([
            [120, 130, 140, 255],
            [10, 20, 30, 255],
            [50, 60, 70, 255],
            [150, 100, 50, 255],
        ]),
    );
}

//! The egui frame the test and the example draw: a window with text, buttons, a checkbox and
//! an `egui_plot` plot of two curves, from a fixed [`egui::RawInput`] (screen size, one pixel
//! per point, a clock that advances 1/60 s a pass, no events) and no animations, so every run
//! produces the same meshes and the same font atlas.

use std::sync::Arc;

use egui_glow::glow::{self, HasContext as _};

/// The frame's width in pixels.
pub const WIDTH: u32 = 480;
/// The frame's height in pixels.
pub const HEIGHT: u32 = 320;
/// Passes run before the one whose pixels are read: egui sizes windows in its first pass and
/// may ask for a second.
const PASSES: u32 = 3;

/// The fixed input of pass `pass`.
fn input(pass: u32) -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(WIDTH as f32, HEIGHT as f32),
        )),
        time: Some(f64::from(pass) / 60.0),
        predicted_dt: 1.0 / 60.0,
        ..egui::RawInput::default()
    }
}

/// The UI: a window with a heading, text, two buttons, a checkbox and a plot.
fn ui(ctx: &egui::Context) {
    egui::Window::new("Tessera")
        .fixed_pos(egui::pos2(16.0, 16.0))
        .fixed_size(egui::vec2(420.0, 260.0))
        .collapsible(false)
        .show(ctx, |ui| {
            ui.heading("egui on Tessera");
            ui.label("This frame went through glow to Tessera's engine.");
            ui.horizontal(|ui| {
                let _ = ui.button("Draw");
                let _ = ui.button("Export");
                let mut on = true;
                ui.checkbox(&mut on, "sRGB");
            });
            egui_plot::Plot::new("curves")
                .height(150.0)
                .show(ui, |plot| {
                    let sine: Vec<[f64; 2]> = (0..=200)
                        .map(|i| {
                            let x = f64::from(i) / 20.0;
                            [x, x.sin()]
                        })
                        .collect();
                    let parabola: Vec<[f64; 2]> = (0..=200)
                        .map(|i| {
                            let x = f64::from(i) / 20.0;
                            [x, (x - 5.0) * (x - 5.0) / 25.0 - 0.5]
                        })
                        .collect();
                    plot.line(egui_plot::Line::new(
                        "sin",
                        egui_plot::PlotPoints::new(sine),
                    ));
                    plot.line(egui_plot::Line::new(
                        "parabola",
                        egui_plot::PlotPoints::new(parabola),
                    ));
                });
        });
}

/// Draws the frame through `gl` with `egui_glow`'s painter and reads it back: `WIDTH` x
/// `HEIGHT` RGBA8 pixels, bottom row first (as `glReadPixels` gives them). Also returns the
/// first GL error the context reported after the frame (`NO_ERROR` when none).
pub fn draw(gl: Arc<glow::Context>) -> (Vec<u8>, u32) {
    let ctx = egui::Context::default();
    ctx.all_styles_mut(|style| style.animation_time = 0.0);
    let mut painter =
        egui_glow::Painter::new(Arc::clone(&gl), "", None, false).expect("egui_glow's painter");
    let size = [WIDTH, HEIGHT];
    for pass in 0..PASSES {
        let mut output = ctx.run_ui(input(pass), |ui| self::ui(ui.ctx()));
        assert_eq!(output.pixels_per_point, 1.0);
        let primitives = ctx.tessellate(output.shapes, output.pixels_per_point);
        painter.clear(size, [0.1, 0.1, 0.12, 1.0]);
        painter.paint_and_update_textures(
            size,
            output.pixels_per_point,
            &primitives,
            &mut output.textures_delta,
        );
    }
    let mut pixels = vec![0u8; (WIDTH * HEIGHT * 4) as usize];
    // SAFETY: the context is current on this thread; the slice holds WIDTH x HEIGHT RGBA8
    // pixels with the default pack alignment of 4 (rows of WIDTH * 4 bytes).
    let error = unsafe {
        gl.bind_framebuffer(glow::FRAMEBUFFER, None);
        gl.read_pixels(
            0,
            0,
            WIDTH as i32,
            HEIGHT as i32,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelPackData::Slice(Some(&mut pixels)),
        );
        gl.get_error()
    };
    painter.destroy();
    (pixels, error)
}

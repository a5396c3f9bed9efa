//! An `egui_glow` UI drawn by Tessera in process: a window with text, buttons and a plot,
//! painted through `tessera_glow` on an offscreen surface, then read back. Prints a hash of
//! the pixels; with a path argument, also writes the frame there as a binary PPM.
//!
//! The backend is `TESSERA_BACKEND` (`gles`, `vulkan`; `auto` when unset).
//!
//! ```text
//! cargo run -p tessera-glow --example egui -- /tmp/egui.ppm
//! ```

#![expect(
    unsafe_code,
    reason = "the scene reads the frame back through glow's unsafe calls"
)]

#[path = "../tests/scene/mod.rs"]
mod scene;

use std::sync::Arc;

use scene::{HEIGHT, WIDTH};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let backend = BackendKind::from_env();
    let config = Config {
        backend,
        surface: Some(SurfaceConfig::new(WIDTH, HEIGHT)),
        ..Config::default()
    };
    let context = Context::new(&config)?;
    let current = tessera_glow::Current::new(context)?;
    let (pixels, error) = scene::draw(Arc::new(current.glow()));
    if error != 0 {
        return Err(format!("GL error {error:#x}").into());
    }
    // FNV-1a over the frame.
    let hash = pixels.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    println!("{WIDTH}x{HEIGHT} frame on {}: {hash:016x}", backend.name());
    if let Some(path) = std::env::args().nth(1) {
        // PPM rows run top to bottom; glReadPixels gives the bottom row first.
        let mut ppm = format!("P6\n{WIDTH} {HEIGHT}\n255\n").into_bytes();
        for row in pixels.chunks((WIDTH * 4) as usize).rev() {
            ppm.extend(row.chunks(4).flat_map(|p| &p[..3]));
        }
        std::fs::write(&path, ppm)?;
        println!("wrote {path}");
    }
    Ok(())
}

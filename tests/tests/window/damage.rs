//! `eglSwapBuffersWithDamageKHR` on an X11 window (`tests/window/damage.c`): after a swap
//! that declares the whole window damaged, a swap that declares a band shows the new frame
//! in that band; on Tessera only there (its read-back covers only the band's rows, which is
//! all that travels over `tcp://`), and a swap without rectangles shows the whole frame.

use super::{Session, Transport};
use crate::dropin::{profile_dir, root};

/// Rows of frame 1 from the top: the band is rows 8-15 from the bottom of 48.
const BANDED: &str = "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrbbbbbbbbrrrrrrrr";

fn program() -> std::path::PathBuf {
    let dir = profile_dir().join("window");
    std::fs::create_dir_all(&dir).expect("the window programs' directory");
    let program = dir.join("tessera-damage");
    crate::dropin::compile_c(
        &root().join("tests/window/damage.c"),
        &program,
        &["-lEGL", "-lGL", "-lX11"],
    );
    program
}

#[test]
fn a_damaged_swap_shows_the_damaged_rows_in_process_and_over_tcp() {
    let session = Session::new();
    let program = program();
    let native = session.run_program(&program, None);
    for (backend, transport) in [("gles", Transport::Inproc), ("vulkan", Transport::Tcp)] {
        let lines = session.run_program(&program, Some((backend, transport)));
        let frame = |n: usize| {
            lines
                .iter()
                .find_map(|l| l.strip_prefix(&format!("frame {n} ")))
        };
        assert_eq!(lines.first().map(String::as_str), Some("damage yes"));
        assert_eq!(
            frame(0),
            Some("r".repeat(48).as_str()),
            "{backend}: {lines:?}"
        );
        assert_eq!(frame(1), Some(BANDED), "{backend}: {lines:?}");
        assert_eq!(
            frame(2),
            Some("g".repeat(48).as_str()),
            "{backend}: {lines:?}"
        );
    }
    // The native driver may show more than the damage; the band is the new frame there too.
    let frame1 = native
        .iter()
        .find_map(|l| l.strip_prefix("frame 1 "))
        .expect("frame 1");
    assert_eq!(&frame1[32..40], "bbbbbbbb", "{native:?}");
}

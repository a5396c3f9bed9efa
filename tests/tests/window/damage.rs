//! `eglSwapBuffersWithDamageKHR` on an X11 window (`tests/window/damage.c`): after a swap
//! that declares the whole window damaged, a swap that declares a band shows the new frame
//! in that band; on Tessera only there (its read-back covers only the band's rows, which is
//! all that travels over `tcp://`), and a swap without rectangles shows the whole frame.
//! That is the client path's; a backend presenting the window itself (GLES in process, by
//! default) shows whole frames, as the native driver may: the band is the new frame there.

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
    // The native driver may show more than the damage, and so does the GLES backend
    // presenting in process; the band is the new frame there too.
    let presented = session.run_program_env(
        &program,
        Some(("gles", Transport::Inproc)),
        &[("TESSERA_GLES_PRESENT", "native")],
    );
    for lines in [&native, &presented] {
        let frame = |n: usize| {
            lines
                .iter()
                .find_map(|l| l.strip_prefix(&format!("frame {n} ")))
                .unwrap_or_default()
        };
        assert_eq!(frame(0), "r".repeat(48), "{lines:?}");
        assert_eq!(frame(1).get(32..40), Some("bbbbbbbb"), "{lines:?}");
        assert_eq!(frame(2), "g".repeat(48), "{lines:?}");
    }
}

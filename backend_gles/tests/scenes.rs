//! Scenes on Mesa llvmpipe through the GLES backend: hand-built record streams applied
//! through a transport, checked pixel by pixel (exact RGBA8 values) from `ReadPixels`, with
//! `glGetError` after every record (a native error fails the scene).
//!
//! The scenes both backends share live in `tessera-backend-harness` and run here through its
//! macros; this file adds how a GLES backend is made, its ES 3.0 variant without
//! extensions (the fallback paths), and the scenes about what only GLES does.

use tessera_backend_gles::{GlesBackend, GlesOptions};
use tessera_backend_harness::scenes::textures;
use tessera_backend_harness::{BLACK, RGBA8, Scene, WHITE, floats, set_env_once, whole};
use tessera_wire::format::{PolygonMode, Topology};
use tessera_wire::state::RasterState;
use tessera_wire::{Event, TransportKind};

/// EGL without a display server, Mesa's software rasterizer, and a runtime directory of
/// this process's own.
fn setup() {
    set_env_once(|| {
        let dir = std::env::temp_dir().join(format!("tessera-gles-xdg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("runtime dir");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        }
        vec![
            ("EGL_PLATFORM", "surfaceless".into()),
            ("LIBGL_ALWAYS_SOFTWARE", "1".into()),
            ("GALLIUM_DRIVER", "llvmpipe".into()),
            ("XDG_RUNTIME_DIR", dir.into()),
        ]
    });
}

/// A scene on a GLES backend of `options`, debug checks on: every scene runs with
/// `glGetError` after each record, so a native error is a bug.
fn with(kind: TransportKind, options: &GlesOptions) -> Scene {
    setup();
    let options = GlesOptions {
        debug: true,
        ..options.clone()
    };
    let backend = GlesBackend::with_options(&options).expect("a GLES backend on Mesa llvmpipe");
    Scene::new(&kind, Box::new(backend))
}

/// A scene on a GLES backend with everything the driver has.
fn gles(kind: TransportKind) -> Scene {
    with(kind, &GlesOptions::default())
}

/// A scene whose backend uses only ES 3.0 and no extension: the fallback paths.
fn bare() -> Scene {
    let options = GlesOptions {
        max_minor: Some(0),
        ignore_extensions: true,
        ..GlesOptions::default()
    };
    with(TransportKind::Inproc, &options).labelled("ES 3.0, no extensions")
}

tessera_backend_harness::shared_scenes!(gles => basics, framebuffers, geometry, textures);
tessera_backend_harness::scene_tests!(gles(TransportKind::Inproc) =>
    geometry: base_vertex_draws_natively = base_vertex;
);

// The fallbacks: GLSL ES 3.00 has no layout(binding) (units and block bindings are set
// after linking), formats without extensions have stand-ins, RGTC is decoded on the CPU.
tessera_backend_harness::scene_tests!(bare() =>
    basics: triangle_with_es30_and_no_extensions = triangle;
    geometry: base_vertex_rewrites_indices_on_es30 = base_vertex;
    textures: textured_quad_with_es30_and_no_extensions = textured_quad,
        formats_round_trip_through_stand_ins = formats_round_trip, rgtc_decoded_on_the_cpu = rgtc;
);

/// GL's completeness rule: an integer texture filtered linearly is incomplete, and an
/// incomplete texture reads (0, 0, 0, 1).
#[test]
fn texture_kinds_sample_as_gl_does() {
    textures::texture_kinds(gles(TransportKind::Inproc), BLACK);
}

#[test]
fn what_gles_lacks_is_reported_once() {
    let mut s = gles(TransportKind::Inproc);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.solid_triangle();
    s.raster(RasterState {
        polygon_mode: PolygonMode::Line,
        ..RasterState::default()
    });
    s.uniforms([1.0, 1.0, 1.0, 1.0], [0.0; 4]);
    s.draw(Topology::Triangles, 3);
    s.draw(Topology::Triangles, 3);
    // Filled instead.
    s.expect_pixels(&[(32, 32, WHITE)]);
    let unsupported: Vec<_> = s
        .events()
        .into_iter()
        .filter(|e| matches!(e, Event::Unsupported { what } if what.contains("polygon mode")))
        .collect();
    assert_eq!(unsupported.len(), 1);
}

#[test]
fn a_refused_program_is_an_event_and_draws_nothing() {
    let mut s = gles(TransportKind::Inproc);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    // The vertex stage writes an output the fragment stage reads with another type: SPIR-V
    // translates, the native linker refuses.
    let vs = r"#version 450
layout(location = 0) in vec2 pos;
layout(location = 0) out vec4 v;
void main() { v = vec4(1.0); gl_Position = vec4(pos, 0.0, 1.0); }
";
    let fs = r"#version 450
layout(location = 0) flat in ivec4 v;
layout(location = 0) out vec4 o;
void main() { o = vec4(v); }
";
    s.program(vs, fs, 0, 0, 0);
    let vb = s.buffer(&floats(&[-1.0, -1.0, 1.0, -1.0, 0.0, 1.0]));
    s.vertices(vb, &[(2, 8, 0)]);
    s.draw(Topology::Triangles, 3);
    s.expect_pixels(&[(32, 20, BLACK)]);
    s.expect_event(|e| matches!(e, Event::ProgramRejected { log } if log.contains("link")));
}

#[test]
fn debug_checks_report_native_errors() {
    let mut s = gles(TransportKind::Inproc);
    let texture = s.texture(2, 2, None);
    // A region past the image: GL refuses it (INVALID_VALUE), the debug checks say so.
    let mut region = whole([2, 2, 1]);
    region.origin = [1, 1, 0];
    s.write_texture(texture, 0, region, RGBA8, &[0; 16]);
    s.submit().expect("alive");
    s.expect_event(|e| {
        matches!(e, Event::NativeError { what }
            if what.starts_with("WriteTexture") && what.contains("0x0501"))
    });
}

/// A program of a vertex stage alone (GL rasterizes without colour output; GLSL ES needs a
/// fragment stage, which the backend makes) writes depth in a depth-only pass; a colour pass
/// behind it is depth-tested against it.
#[test]
fn a_vertex_only_program_writes_depth() {
    use tessera_backend_harness::{SOLID_FS, SOLID_VS};
    use tessera_wire::format::{CompareFunc, ShaderStage};
    use tessera_wire::state::{BlendState, DepthStencilState};
    for mut s in [gles(TransportKind::Inproc), bare()] {
        s.clear([0.0, 0.0, 0.0, 1.0]);
        s.depth_stencil(DepthStencilState {
            depth_test: true,
            depth_write: true,
            depth_func: CompareFunc::Less,
            ..DepthStencilState::default()
        });
        // The left half at depth 0.5, colour writes off.
        s.program_of(&[(ShaderStage::Vertex, SOLID_VS)], 32, 0, 0);
        let left = s.buffer(&floats(&[-1.0, -1.0, 0.0, -1.0, -1.0, 1.0, 0.0, 1.0]));
        s.vertices(left, &[(2, 8, 0)]);
        s.blend(BlendState {
            color_write_mask: 0,
            ..BlendState::default()
        });
        s.uniforms([1.0; 4], [0.0; 4]);
        s.draw(Topology::TriangleStrip, 4);
        s.expect_pixels(&[(16, 32, BLACK), (48, 32, BLACK)]);
        // The whole target in white at depth 0.75: only the right half passes.
        s.blend(BlendState::default());
        s.program(SOLID_VS, SOLID_FS, 32, 0, 0);
        let whole = s.buffer(&floats(&[-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]));
        s.vertices(whole, &[(2, 8, 0)]);
        s.uniforms([1.0; 4], [0.0, 0.0, 0.5, 0.0]);
        s.draw(Topology::TriangleStrip, 4);
        s.expect_pixels(&[
            (16, 32, BLACK),
            (48, 32, WHITE),
            (31, 10, BLACK),
            (33, 10, WHITE),
        ]);
        s.assert_no_events();
        s.finish();
    }
}

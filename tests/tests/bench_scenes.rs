//! The benchmark's scenes draw native llvmpipe's picture: every [`BenchScene`] on both
//! backends (Vulkan with the validation layer on, which must report nothing) and on the
//! native OpenGL ES 3.2 context of the bench's `raw-gles` floor, after a few frames, with
//! no GL error. The bench compares the same hashes; this keeps a scene that one
//! implementation draws differently from reaching a benchmark run.

use tessera_engine::gl::NO_ERROR;
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::{Backend, assert_no_backend_events, tessera_on};
use tessera_tests::gl::{NativeGl, SceneGl};
use tessera_tests::scenes::{BENCH_SIZE, Bench, BenchScene};

/// Draws per frame: more than a `multidraw` batch and than `manyobjects`' new objects, not a
/// multiple of the batch (a short last call), and one `shaderheavy` quad.
const DRAWS: u32 = 130;
const FRAMES: u32 = 3;

/// The final image's hash after `FRAMES` frames of `scene`, and the GL error left.
fn run(gl: &mut dyn SceneGl, scene: BenchScene) -> (u64, u32) {
    let mut bench = Bench::setup(gl, scene);
    for _ in 0..FRAMES {
        bench.frame(gl, scene.draws_per_frame(DRAWS));
    }
    let hash = bench.checksum(gl);
    (hash, gl.get_error())
}

/// Native llvmpipe's hash of every scene.
fn native_hashes() -> Vec<u64> {
    BenchScene::ALL
        .iter()
        .map(|&scene| {
            let mut gl = NativeGl::new(BENCH_SIZE, BENCH_SIZE).expect("native llvmpipe");
            let (hash, error) = run(&mut gl, scene);
            assert_eq!(error, NO_ERROR, "{} on native llvmpipe", scene.name());
            hash
        })
        .collect()
}

fn on_backend(backend: Backend) {
    let native = native_hashes();
    for (&scene, &expected) in BenchScene::ALL.iter().zip(&native) {
        let case = format!("{} on {}", scene.name(), backend.name());
        let mut ctx = tessera_on(backend, TransportKind::Inproc, BENCH_SIZE, BENCH_SIZE);
        let (hash, error) = run(&mut ctx, scene);
        assert_eq!(error, NO_ERROR, "{case}: a GL error");
        assert!(!ctx.is_lost(), "{case}: the session was lost");
        assert_no_backend_events(&mut ctx, &case);
        assert_eq!(hash, expected, "{case}: not native llvmpipe's picture");
    }
}

#[test]
fn every_bench_scene_draws_natives_picture_on_the_gles_backend() {
    on_backend(Backend::Gles);
}

#[test]
fn every_bench_scene_draws_natives_picture_on_the_vulkan_backend() {
    on_backend(Backend::Vulkan);
}

#[test]
fn every_bench_scene_draws_natives_picture_on_a_native_es_context() {
    let native = native_hashes();
    for (&scene, &expected) in BenchScene::ALL.iter().zip(&native) {
        let mut gl = NativeGl::new_es(BENCH_SIZE, BENCH_SIZE).expect("native OpenGL ES 3.2");
        let (hash, error) = run(&mut gl, scene);
        assert_eq!(error, NO_ERROR, "{} on native ES: a GL error", scene.name());
        assert_eq!(hash, expected, "{} on native ES", scene.name());
    }
}

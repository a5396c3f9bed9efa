//! The steady-state counter scene: the bench's statechange pattern creates nothing after
//! its warm-up frame (pipelines, set layouts, shader modules), and prints its CPU cost.

use std::time::Instant;

use tessera_backend_harness::{RGBA8, Scene, floats};
use tessera_wire::TransportKind;
use tessera_wire::format::{BlendFactor, Topology};
use tessera_wire::handle::{BufferHandle, TextureHandle};
use tessera_wire::record::Record;
use tessera_wire::state::{BlendFunc, BlendState, MAX_DRAW_BUFFERS};

use super::with;

/// The bench's statechange program: an offset uniform, a texture, a tint.
const BENCH_VS: &str = r"#version 450
layout(location = 0) in vec2 position;
layout(std140, set = 0, binding = 0) uniform DefaultBlock { vec4 offset; vec4 tint; };
layout(location = 0) out vec2 uv;
void main() { uv = position; gl_Position = vec4(position * 0.01 + offset.xy, 0.0, 1.0); }
";

const BENCH_FS: &str = r"#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(std140, set = 0, binding = 0) uniform DefaultBlock { vec4 offset; vec4 tint; };
layout(set = 0, binding = 1) uniform sampler2D tex;
void main() { color = texture(tex, uv) * tint; }
";

/// CPU time of the calling thread in nanoseconds (Linux schedstat; 0 elsewhere).
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

/// The bench's statechange pattern: per draw, bind one of 64 vertex buffers, one of 16
/// textures, set the uniforms, toggle blending. After one warm-up frame, steady frames
/// create no pipeline, no descriptor set layout and no shader module.
fn statechange(floor: bool, label: &str) {
    const VAOS: usize = 64;
    const TEXTURES: usize = 16;
    const DRAWS: usize = 200;
    const FRAMES: usize = 10;
    let (mut s, probe) = with(TransportKind::Inproc, floor);
    s.program(BENCH_VS, BENCH_FS, 32, 1, 0);
    let layout = s.layout(&[(2, 8)]);
    s.push(Record::BindVertexLayout { cso: layout });
    let buffers: Vec<BufferHandle> = (0..VAOS)
        .map(|i| {
            let d = i as f32 * 0.01;
            s.buffer(&floats(&[d, d, 1.0 + d, d, d, 1.0 + d]))
        })
        .collect();
    let textures: Vec<TextureHandle> = (0..TEXTURES)
        .map(|i| {
            let c = [(i * 16) as u8, 255 - (i * 16) as u8, 128, 255];
            let texels: Vec<u8> = (0..4).flat_map(|_| c).collect();
            s.texture(2, 2, Some((RGBA8, &texels)))
        })
        .collect();
    let sampler = s.nearest_sampler();
    let opaque = s.blend_state(BlendState::default());
    let blended = s.blend_state(BlendState {
        enable_mask: 1,
        funcs: [BlendFunc {
            src_rgb: BlendFactor::SrcAlpha,
            dst_rgb: BlendFactor::OneMinusSrcAlpha,
            src_alpha: BlendFactor::SrcAlpha,
            dst_alpha: BlendFactor::OneMinusSrcAlpha,
            ..BlendFunc::default()
        }; MAX_DRAW_BUFFERS],
        ..BlendState::default()
    });
    let mut draw = 0usize;
    let mut frame = |s: &mut Scene| {
        s.clear([0.0, 0.0, 0.0, 1.0]);
        for _ in 0..DRAWS {
            s.push(Record::SetVertexBuffer {
                slot: 0,
                buffer: Some(buffers[draw % VAOS]),
                offset: 0,
            });
            s.bind_texture(Some(textures[draw % TEXTURES]), sampler);
            let x = (draw % 100) as f32 * 0.02 - 1.0;
            s.uniforms([x, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]);
            let cso = if draw.is_multiple_of(2) {
                blended
            } else {
                opaque
            };
            s.push(Record::BindBlendState { cso });
            s.draw(Topology::Triangles, 3);
            draw += 1;
        }
        s.push(Record::Present { surface: s.surface });
        s.submit().expect("alive");
    };
    frame(&mut s);
    s.finish();
    let before = probe.stats();
    let start = Instant::now();
    let cpu = thread_cpu_ns();
    for _ in 0..FRAMES {
        frame(&mut s);
    }
    s.finish();
    let cpu = thread_cpu_ns() - cpu;
    let elapsed = start.elapsed();
    let after = probe.stats();
    let per_draw = (FRAMES * DRAWS) as f64;
    println!(
        "statechange ({label}): {:.0} ns CPU per draw on the applying thread (records encoded, \
         decoded and recorded; lavapipe executes on its own threads), {:.0} ns wall, \
         {} descriptor sets, {} submits",
        cpu as f64 / per_draw,
        elapsed.as_nanos() as f64 / per_draw,
        after.descriptor_sets - before.descriptor_sets,
        after.submits - before.submits,
    );
    assert_eq!(after.draws - before.draws, (FRAMES * DRAWS) as u64);
    assert_eq!(
        after.pipelines, before.pipelines,
        "no pipeline in steady frames"
    );
    assert_eq!(
        after.descriptor_set_layouts, before.descriptor_set_layouts,
        "no descriptor set layout in steady frames"
    );
    assert_eq!(
        after.shader_modules, before.shader_modules,
        "no shader module in steady frames"
    );
    assert_eq!(after.render_passes, before.render_passes);
    assert_eq!(after.framebuffers, before.framebuffers);
    assert_eq!(before.pipelines, 2, "one pipeline per blend state");
    s.assert_quiet();
}

#[test]
fn steady_state_frames_create_nothing() {
    statechange(false, "tiers");
}

#[test]
fn steady_state_frames_create_nothing_on_the_floor() {
    statechange(true, "floor");
}

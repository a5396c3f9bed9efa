//! Transport parity: the same calls produce byte-identical archived batches at the null
//! backend, whichever transport carried them.

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{Context, SurfaceConfig};
use tessera_tests::{assert_no_error, context_with};

/// Calls that emit objects, uploads, state and verbs.
fn scene(ctx: &mut Context) {
    let buf = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, buf);
    let data: Vec<u8> = (0..=255).collect();
    ctx.buffer_data(ARRAY_BUFFER, 256, Some(&data), STATIC_DRAW);
    ctx.buffer_sub_data(ARRAY_BUFFER, 16, 4, &[9, 9, 9, 9]);
    let mut out = [0u8; 8];
    ctx.get_buffer_sub_data(ARRAY_BUFFER, 14, 8, &mut out);
    assert_eq!(out, [14, 15, 9, 9, 9, 9, 20, 21]);
    for frame in 0..20 {
        ctx.clear_color(frame as f32 / 20.0, 0.5, 0.25, 1.0);
        ctx.enable(SCISSOR_TEST);
        ctx.scissor(frame, frame, 8, 8);
        ctx.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
        ctx.disable(SCISSOR_TEST);
        if frame % 2 == 0 {
            ctx.enable(BLEND);
        } else {
            ctx.disable(BLEND);
        }
        ctx.clear(COLOR_BUFFER_BIT);
        ctx.flush();
    }
    ctx.delete_buffers(1, &[buf]);
    ctx.finish();
    assert_no_error!(ctx);
}

fn batches_through(kind: TransportKind) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut ctx = context_with(kind, Some(SurfaceConfig::new(32, 32)));
    scene(&mut ctx);
    ctx.null_probe().expect("null backend").take_batches()
}

#[test]
fn inproc_and_thread_deliver_byte_identical_batches() {
    let inproc = batches_through(TransportKind::Inproc);
    let thread = batches_through(TransportKind::Thread);
    assert!(inproc.len() > 20, "the scene flushes every frame: {} batches", inproc.len());
    assert_eq!(inproc.len(), thread.len());
    for (i, (a, b)) in inproc.iter().zip(&thread).enumerate() {
        assert_eq!(a.0, b.0, "archive of batch {i} differs");
        assert_eq!(a.1, b.1, "stage of batch {i} differs");
    }
}

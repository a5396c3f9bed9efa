//! Wire handles: minting, generations, delete-while-bound lifetimes, and stale handles at the
//! backend.

use tessera_engine::gl::*;
use tessera_tests::{assert_no_error, context, records};
use tessera_wire::backend::Event;
use tessera_wire::handle::BufferHandle;
use tessera_wire::null::NullBackend;
use tessera_wire::record::{Record, Span};
use tessera_wire::transport::{self, TransportKind};
use tessera_wire::{Encoder, SessionLost};

fn created_buffers(records: &[Record]) -> Vec<BufferHandle> {
    records
        .iter()
        .filter_map(|r| match r {
            Record::CreateBuffer { buffer, size: 0 } => Some(*buffer),
            _ => None,
        })
        .collect()
}

fn destroyed_buffers(records: &[Record]) -> Vec<BufferHandle> {
    records
        .iter()
        .filter_map(|r| match r {
            Record::DestroyBuffer { buffer } => Some(*buffer),
            _ => None,
        })
        .collect()
}

#[test]
fn a_recreated_name_gets_the_freed_slot_with_a_higher_generation() {
    let mut ctx = context();
    let a = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, a);
    let first = created_buffers(&records(&mut ctx));
    assert_eq!(first.len(), 1);
    ctx.delete_buffers(1, &[a]);
    assert_eq!(destroyed_buffers(&records(&mut ctx)), first);
    let b = ctx.gen_buffer();
    assert_ne!(a, b, "GL names count up, like Mesa's");
    ctx.bind_buffer(ARRAY_BUFFER, b);
    let second = created_buffers(&records(&mut ctx));
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].slot, first[0].slot);
    assert_eq!(second[0].generation, first[0].generation + 1);
    assert_no_error!(ctx);
}

#[test]
fn a_buffer_of_an_unbound_vertex_array_lives_until_the_array_dies() {
    let mut ctx = context();
    let vao = ctx.gen_vertex_array();
    ctx.bind_vertex_array(vao);
    let buf = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, buf);
    ctx.buffer_data(ARRAY_BUFFER, 64, None, STATIC_DRAW);
    ctx.vertex_attrib_pointer(0, 4, FLOAT, FALSE as u8, 0, 0);
    ctx.bind_vertex_array(0);
    ctx.bind_buffer(ARRAY_BUFFER, 0);
    let created = created_buffers(&records(&mut ctx));
    ctx.delete_buffers(1, &[buf]);
    assert_eq!(ctx.is_buffer(buf), FALSE as u8, "the name is gone at once");
    assert!(
        destroyed_buffers(&records(&mut ctx)).is_empty(),
        "the unbound array still refers to it"
    );
    ctx.delete_vertex_arrays(1, &[vao]);
    assert_eq!(
        destroyed_buffers(&records(&mut ctx)),
        created,
        "exactly one destroy"
    );
    assert_no_error!(ctx);
}

#[test]
fn deleting_in_one_context_keeps_a_binding_of_another_alive() {
    let mut a = context();
    let mut b = tessera_engine::Context::new_shared(&a, &tessera_engine::Config::default());
    let buf = a.gen_buffer();
    a.bind_buffer(COPY_READ_BUFFER, buf);
    b.bind_buffer(COPY_WRITE_BUFFER, buf);
    let created = created_buffers(&records(&mut a));
    a.delete_buffers(1, &[buf]);
    assert!(
        destroyed_buffers(&records(&mut a)).is_empty(),
        "context b still binds it"
    );
    b.bind_buffer(COPY_WRITE_BUFFER, 0);
    assert_eq!(destroyed_buffers(&records(&mut a)), created);
    assert_no_error!(a);
    assert_no_error!(b);
}

/// A batch that destroys a buffer and then writes to it.
fn stale_batch() -> Encoder {
    let mut enc = Encoder::new();
    let buffer = BufferHandle {
        slot: 0,
        generation: 1,
    };
    enc.push(Record::CreateBuffer { buffer, size: 16 });
    enc.push(Record::DestroyBuffer { buffer });
    enc.push(Record::WriteBuffer {
        buffer,
        offset: 0,
        data: Span::EMPTY,
    });
    enc
}

#[test]
fn a_stale_handle_ends_the_session_with_a_reported_reason() {
    for kind in [TransportKind::Inproc, TransportKind::Thread] {
        let (backend, probe) = NullBackend::new(false);
        let mut transport = transport::connect(&kind, Box::new(backend));
        let mut enc = stale_batch();
        // The thread transport reports the loss on the next call that talks to the backend.
        let first = transport.submit(&mut enc);
        let reply = enc.mint_reply();
        enc.push(Record::Finish { reply });
        let second = transport
            .submit(&mut enc)
            .and_then(|()| transport.wait_reply(reply).map(|_| ()));
        let lost: SessionLost = first.err().or(second.err()).expect("the session must end");
        assert!(
            lost.reason.contains("WriteBuffer") && lost.reason.contains("not live"),
            "{}",
            lost.reason
        );
        let mut events = Vec::new();
        transport.take_events(&mut events);
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::SessionEnded { reason } if reason == &lost.reason)),
            "{kind:?}: {events:?}"
        );
        // Everything before the stale record was applied; nothing after it.
        let stats = probe.stats();
        assert_eq!(
            (
                stats.count("CreateBuffer"),
                stats.count("DestroyBuffer"),
                stats.count("WriteBuffer")
            ),
            (1, 1, 0)
        );
        // Later calls fail at once instead of hanging.
        let mut more = Encoder::new();
        more.push(Record::Flush);
        assert!(transport.submit(&mut more).is_err());
    }
}

#[test]
fn a_forged_generation_is_refused() {
    let (backend, _probe) = NullBackend::new(false);
    let mut transport = transport::connect(&TransportKind::Inproc, Box::new(backend));
    let mut enc = Encoder::new();
    enc.push(Record::CreateBuffer {
        buffer: BufferHandle {
            slot: 3,
            generation: 1,
        },
        size: 4,
    });
    enc.push(Record::DestroyBuffer {
        buffer: BufferHandle {
            slot: 3,
            generation: 2,
        },
    });
    let lost = transport
        .submit(&mut enc)
        .expect_err("a handle of a generation never created");
    assert!(lost.reason.contains("DestroyBuffer"), "{}", lost.reason);
}

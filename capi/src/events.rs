//! Backend events (out of memory, a program the driver rejected, a feature it lacks, a
//! native error, a lost device or session) reach the log.
//!
//! The engine queues every event the backend reports until someone takes them
//! ([`Context::take_events`]); a C program never does, so the C ABI takes them at the
//! natural points where a batch has just gone to the backend or come back from it:
//! after `glFlush`, `glFinish`, `glReadPixels`, `glClientWaitSync` and `eglSwapBuffers`.
//! Taking them also makes each a `KHR_debug` message of the current context
//! (`tessera_engine::debug`), delivered to its callback or log on this thread.
//! Each taken event is logged with its words (`tessera: backend: ...`; error for what
//! loses work: out of memory, device or session lost; warn for the rest) and dropped: the
//! C ABI keeps no queue of its own, so what the engine holds is at most the events of the
//! batches since the last of those calls.
//!
//! A single drain logs at most [`CAP`] events, the newest; the older ones are dropped and
//! counted in one line, so a program that triggers an event per draw (a debug build of a
//! driver with `TESSERA_GLES_DEBUG=1`, say) does not flood the log once per frame by the
//! thousand.

use tessera_engine::Context;
use tessera_engine::wire::Event;

/// The most events one drain logs; older ones beyond it are dropped and counted.
pub const CAP: usize = 64;

/// Takes the context's pending backend events and logs them ([`report`]).
pub fn drain(c: &mut Context) {
    report(c.take_events());
}

/// Logs `events` (oldest first), at most [`CAP`] of them: the oldest beyond it are dropped
/// and counted in one line first. Returns how many events were logged.
pub fn report(mut events: Vec<Event>) -> usize {
    let dropped = events.len().saturating_sub(CAP);
    if dropped > 0 {
        log::warn!(
            "tessera: backend: {dropped} older events dropped (more than {CAP} since the last flush)"
        );
        events.drain(..dropped);
    }
    for event in &events {
        let (level, text) = line(event);
        log::log!(level, "{text}");
    }
    events.len()
}

/// The level and words of one event's log line.
pub fn line(event: &Event) -> (log::Level, String) {
    use log::Level::{Error, Warn};
    match event {
        Event::OutOfMemory { what } => (Error, format!("tessera: backend: out of memory: {what}")),
        Event::DeviceLost { reason } => (Error, format!("tessera: backend: device lost: {reason}")),
        Event::SessionEnded { reason } => {
            (Error, format!("tessera: backend: session ended: {reason}"))
        }
        Event::ProgramRejected { log } => (
            Warn,
            format!("tessera: backend: the driver rejected a program: {log}"),
        ),
        Event::Unsupported { what } => (Warn, format!("tessera: backend: unsupported: {what}")),
        Event::NativeError { what } => (Warn, format!("tessera: backend: native error: {what}")),
        // Transports publish these in their fence watermark; one reaching here is only news.
        Event::FencesCompleted { seq } => (
            log::Level::Debug,
            format!("tessera: backend: fences up to {seq} signalled"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use tessera_engine::gl::{ARRAY_BUFFER, NO_ERROR, OUT_OF_MEMORY, STATIC_DRAW};
    use tessera_engine::{BackendKind, Config};

    use super::*;

    #[test]
    fn a_drain_logs_at_most_the_cap_and_counts_the_rest() {
        let events: Vec<Event> = (0..1000)
            .map(|i| Event::NativeError {
                what: format!("Draw: GL error {i}"),
            })
            .collect();
        assert_eq!(report(events.clone()), CAP);
        assert_eq!(report(events[..3].to_vec()), 3);
        assert_eq!(report(Vec::new()), 0);
    }

    #[test]
    fn every_event_has_its_words_at_warn_or_error() {
        let words = "the driver's own words";
        for event in [
            Event::OutOfMemory { what: words.into() },
            Event::DeviceLost {
                reason: words.into(),
            },
            Event::ProgramRejected { log: words.into() },
            Event::SessionEnded {
                reason: words.into(),
            },
            Event::Unsupported { what: words.into() },
            Event::NativeError { what: words.into() },
        ] {
            let (level, text) = line(&event);
            assert!(level <= log::Level::Warn, "{event:?}");
            assert!(text.starts_with("tessera: backend: "), "{text}");
            assert!(text.ends_with(words), "{text}");
        }
    }

    /// On the GLES backend (Mesa llvmpipe), a buffer over GLES's 31-bit sizes is an
    /// out-of-memory event per `glBufferData`; draining at each flush keeps the engine's
    /// queue empty however many there are.
    #[test]
    fn draining_at_each_flush_keeps_the_queue_empty() {
        let config = Config {
            backend: BackendKind::Gles,
            ..Config::default()
        };
        let Ok(mut ctx) = Context::new(&config) else {
            eprintln!("no GLES driver: skipped");
            return;
        };
        let buffer = ctx.gen_buffer();
        ctx.bind_buffer(ARRAY_BUFFER, buffer);
        let mut taken = Vec::new();
        for round in 0..200 {
            ctx.buffer_data(ARRAY_BUFFER, 3 << 30, None, STATIC_DRAW);
            ctx.flush();
            if round % 50 == 0 {
                // Look at what a drain would take, then log it as the drain does.
                let events = ctx.take_events();
                assert_eq!(events.len(), 1, "{events:?}");
                taken.extend(events.iter().cloned());
                assert_eq!(report(events), 1);
            } else {
                drain(&mut ctx);
            }
            assert!(ctx.take_events().is_empty(), "round {round}");
        }
        // The driver's refusal reaches the program as GL says: GL_OUT_OF_MEMORY, once.
        assert_eq!(ctx.get_error(), OUT_OF_MEMORY);
        assert_eq!(ctx.get_error(), NO_ERROR);
        let (level, text) = line(&taken[0]);
        assert_eq!(level, log::Level::Error);
        assert!(
            text.contains("out of memory: a 3221225472-byte buffer"),
            "{text}"
        );
    }
}

//! KHR_debug through the Rust API: the log, filters, groups and labels compared with the
//! native driver on both backends; what the engine generates (a message per GL error, one
//! per backend event), the callback on the calling thread, debug contexts, and labels that
//! go with their objects. The C program of `dropin::khr_debug_behaves_as_on_the_native_driver`
//! compares the rest of the specification's outcomes through the C ABI.

use std::sync::{Arc, Mutex};

use tessera_engine::debug::{BackendMessage, DebugCallback, DebugMessage};
use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::{assert_error, assert_no_error, context};

/// Takes every logged message.
fn log(ctx: &mut Context) -> Vec<DebugMessage> {
    ctx.get_debug_message_log(u32::MAX, None)
}

/// The log's messages as lines: generated ones by source, type and severity only, their ids
/// and words being each implementation's own.
fn log_lines(messages: Vec<(GLenum, GLenum, GLuint, GLenum, String)>, out: &mut Vec<String>) {
    for (source, ty, id, severity, text) in messages {
        out.push(
            if source == DEBUG_SOURCE_APPLICATION || source == DEBUG_SOURCE_THIRD_PARTY {
                format!("{source:#x} {ty:#x} {id} {severity:#x} {text:?}")
            } else {
                format!("{source:#x} {ty:#x} {severity:#x} (generated)")
            },
        );
    }
}

/// One line per observation: errors, the log (generated messages by source, type and
/// severity only, their ids and words being each implementation's own), labels.
fn transcript(gl: &mut impl Gl) -> Vec<String> {
    let mut out = Vec::new();
    let mut output = [-1];
    gl.get_integerv(DEBUG_OUTPUT, &mut output);
    out.push(format!("output {}", output[0]));
    gl.enable(DEBUG_OUTPUT);
    let app = DEBUG_SOURCE_APPLICATION;
    gl.debug_message_insert(app, DEBUG_TYPE_MARKER, 1, DEBUG_SEVERITY_HIGH, "one");
    gl.debug_message_insert(app, DEBUG_TYPE_MARKER, 2, DEBUG_SEVERITY_LOW, "low: off");
    gl.push_debug_group(app, 3, "group");
    gl.debug_message_control(app, DEBUG_TYPE_MARKER, DONT_CARE, &[4], false);
    gl.debug_message_control(DONT_CARE, DONT_CARE, DEBUG_SEVERITY_LOW, &[], true);
    gl.debug_message_insert(app, DEBUG_TYPE_MARKER, 4, DEBUG_SEVERITY_HIGH, "4: off");
    gl.debug_message_insert(app, DEBUG_TYPE_MARKER, 5, DEBUG_SEVERITY_LOW, "low: on");
    gl.pop_debug_group();
    gl.debug_message_insert(
        app,
        DEBUG_TYPE_MARKER,
        4,
        DEBUG_SEVERITY_HIGH,
        "4: on again",
    );
    gl.debug_message_insert(
        app,
        DEBUG_TYPE_MARKER,
        5,
        DEBUG_SEVERITY_LOW,
        "low: off again",
    );
    gl.pop_debug_group();
    out.push(format!("underflow {:#x}", gl.get_error()));
    gl.debug_message_control(app, DONT_CARE, DONT_CARE, &[1], true);
    out.push(format!("ids without a type {:#x}", gl.get_error()));
    log_lines(gl.take_debug_messages(), &mut out);

    let buffer = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buffer);
    let texture = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, texture);
    gl.object_label(BUFFER, buffer, Some("vertices"));
    gl.object_label(TEXTURE, texture, Some("albedo"));
    out.push(format!(
        "labels {:?} {:?} {:#x}",
        gl.get_object_label(BUFFER, buffer),
        gl.get_object_label(TEXTURE, texture),
        gl.get_error()
    ));
    gl.object_label(TEXTURE, 4242, Some("x"));
    out.push(format!("label of no texture {:#x}", gl.get_error()));
    gl.object_label(BUFFER, buffer, None);
    out.push(format!("removed {:?}", gl.get_object_label(BUFFER, buffer)));
    log_lines(gl.take_debug_messages(), &mut out);
    out
}

#[test]
fn the_log_filters_groups_and_labels_are_the_native_driver_s_on_both_backends() {
    let mut native = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
    let expected = transcript(&mut native);
    // Not a transcript a do-nothing implementation would give.
    for line in [
        "0x824a 0x8268 1 0x9146 \"one\"",
        "0x824a 0x8269 3 0x826b \"group\"",
        "0x824a 0x8268 5 0x9148 \"low: on\"",
        "0x824a 0x826a 3 0x826b \"group\"",
        "underflow 0x504",
        "labels \"vertices\" \"albedo\" 0x0",
    ] {
        assert!(
            expected.iter().any(|l| l == line),
            "native: no `{line}` in {expected:#?}"
        );
    }
    for backend in [Backend::Gles, Backend::Vulkan] {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, 16, 16);
        assert_eq!(transcript(&mut ctx), expected, "{backend:?}");
    }
}

#[test]
fn every_error_is_a_message_naming_the_call_and_the_check() {
    let mut ctx = context();
    // Off by default, as native Mesa: nothing is logged.
    assert_eq!(ctx.is_enabled(DEBUG_OUTPUT), FALSE as GLboolean);
    ctx.enable(0xdead);
    assert_error!(ctx, INVALID_ENUM);
    assert!(log(&mut ctx).is_empty());

    ctx.enable(DEBUG_OUTPUT);
    ctx.enter("glEnable");
    ctx.enable(0xdead);
    ctx.enter("glBindBuffer");
    ctx.bind_buffer(ARRAY_BUFFER, 4242);
    // The flag keeps the first error; the log has both.
    assert_error!(ctx, INVALID_ENUM);
    let messages = log(&mut ctx);
    assert_eq!(messages.len(), 2, "{messages:?}");
    for (m, error, call) in [
        (
            &messages[0],
            INVALID_ENUM,
            "glEnable: GL_INVALID_ENUM (engine/src/",
        ),
        (
            &messages[1],
            INVALID_OPERATION,
            "glBindBuffer: GL_INVALID_OPERATION (engine/src/",
        ),
    ] {
        assert_eq!(
            (m.source, m.ty, m.id, m.severity),
            (
                DEBUG_SOURCE_API,
                DEBUG_TYPE_ERROR,
                error,
                DEBUG_SEVERITY_HIGH
            )
        );
        assert!(m.text.starts_with(call), "{}", m.text);
    }
    // Filtered like any message: disabling errors of the API silences them.
    ctx.debug_message_control(DEBUG_SOURCE_API, DEBUG_TYPE_ERROR, DONT_CARE, 0, &[], false);
    ctx.enable(0xdead);
    assert_error!(ctx, INVALID_ENUM);
    assert!(log(&mut ctx).is_empty());
}

#[test]
fn a_backend_event_is_a_message_when_the_events_are_taken() {
    let config = Config {
        backend: BackendKind::Gles,
        ..Config::default()
    };
    let Ok(mut ctx) = Context::new(&config) else {
        eprintln!("no GLES driver: skipped");
        return;
    };
    ctx.enable(DEBUG_OUTPUT);
    // Over GLES's 31-bit buffer sizes: the driver refuses it, an out-of-memory event.
    let buffer = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, buffer);
    ctx.buffer_data(ARRAY_BUFFER, 3 << 30, None, STATIC_DRAW);
    ctx.finish();
    assert_eq!(ctx.take_events().len(), 1);
    let messages = log(&mut ctx);
    assert_eq!(messages.len(), 1, "{messages:?}");
    let m = &messages[0];
    assert_eq!(
        (m.source, m.ty, m.id, m.severity),
        (
            DEBUG_SOURCE_API,
            DEBUG_TYPE_ERROR,
            BackendMessage::OutOfMemory as GLuint,
            DEBUG_SEVERITY_HIGH
        )
    );
    assert!(m.text.contains("a 3221225472-byte buffer"), "{}", m.text);
    assert_eq!(ctx.get_error(), OUT_OF_MEMORY);
}

#[test]
fn the_callback_runs_on_the_thread_of_the_call() {
    let mut ctx = context();
    ctx.enable(DEBUG_OUTPUT);
    let seen: Arc<Mutex<Vec<(std::thread::ThreadId, DebugMessage)>>> = Arc::default();
    let sink = seen.clone();
    ctx.debug_message_callback(
        Some(DebugCallback {
            deliver: Box::new(move |m| {
                sink.lock()
                    .unwrap()
                    .push((std::thread::current().id(), m.clone()));
            }),
        }),
        (1, 2),
    );
    assert_eq!(ctx.get_pointerv(DEBUG_CALLBACK_FUNCTION), 1);
    assert_eq!(ctx.get_pointerv(DEBUG_CALLBACK_USER_PARAM), 2);
    let (mut ctx, id) = std::thread::spawn(move || {
        ctx.debug_message_insert(
            DEBUG_SOURCE_APPLICATION,
            DEBUG_TYPE_MARKER,
            7,
            DEBUG_SEVERITY_HIGH,
            "from another thread",
        );
        ctx.enable(0xdead);
        (ctx, std::thread::current().id())
    })
    .join()
    .unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2);
    assert!(seen.iter().all(|(thread, _)| *thread == id));
    assert_eq!(seen[0].1.text, "from another thread");
    assert_eq!(seen[1].1.id, INVALID_ENUM);
    // With a callback nothing is logged.
    assert_eq!(ctx.get_integer(DEBUG_LOGGED_MESSAGES), 0);
}

#[test]
fn a_debug_context_starts_with_output_on() {
    let mut ctx = context();
    ctx.set_context_flags(CONTEXT_FLAG_DEBUG_BIT);
    assert_eq!(
        ctx.get_integer(CONTEXT_FLAGS),
        CONTEXT_FLAG_DEBUG_BIT as GLint
    );
    assert_eq!(ctx.is_enabled(DEBUG_OUTPUT), TRUE as GLboolean);
    ctx.enable(0xdead);
    assert_eq!(ctx.get_integer(DEBUG_LOGGED_MESSAGES), 1);
}

#[test]
fn labels_go_with_their_objects() {
    let mut ctx = context();
    let texture = ctx.gen_texture();
    ctx.bind_texture(TEXTURE_2D, texture);
    ctx.object_label(TEXTURE, texture, Some("albedo"));
    assert_eq!(
        ctx.get_object_label(TEXTURE, texture, 64).as_deref(),
        Some("albedo")
    );
    ctx.object_label(TEXTURE, texture, None);
    assert_eq!(
        ctx.get_object_label(TEXTURE, texture, 64).as_deref(),
        Some("")
    );
    ctx.object_label(TEXTURE, texture, Some("albedo"));
    assert_no_error!(ctx);
    ctx.delete_textures(1, &[texture]);
    assert_eq!(ctx.get_object_label(TEXTURE, texture, 64), None);
    assert_error!(ctx, INVALID_VALUE);
    // A texture name generated but never bound names no object yet (as on native Mesa,
    // whose glGenTextures makes none either).
    let reserved = ctx.gen_texture();
    ctx.object_label(TEXTURE, reserved, Some("x"));
    assert_error!(ctx, INVALID_VALUE);
    // A buffer name generated but not bound takes a label (as on native Mesa), which its
    // object keeps once the name is bound; deleting the name drops it.
    let early = ctx.gen_buffer();
    ctx.object_label(BUFFER, early, Some("early"));
    assert_eq!(
        ctx.get_object_label(BUFFER, early, 64).as_deref(),
        Some("early")
    );
    ctx.bind_buffer(ARRAY_BUFFER, early);
    assert_eq!(
        ctx.get_object_label(BUFFER, early, 64).as_deref(),
        Some("early")
    );
    let dropped = ctx.gen_buffer();
    ctx.object_label(BUFFER, dropped, Some("dropped"));
    ctx.delete_buffers(1, &[dropped]);
    assert_no_error!(ctx);
    assert_eq!(ctx.get_object_label(BUFFER, dropped, 64), None);
    assert_error!(ctx, INVALID_VALUE);
    // Labels are shared-group state: another context of the group reads them.
    let buffer = ctx.gen_buffer();
    ctx.bind_buffer(ARRAY_BUFFER, buffer);
    ctx.object_label(BUFFER, buffer, Some("vertices"));
    let mut other = Context::new_shared(&ctx, &Config::default());
    assert_eq!(
        other.get_object_label(BUFFER, buffer, 64).as_deref(),
        Some("vertices")
    );
    // The longest label is one byte under MAX_LABEL_LENGTH.
    let max = ctx.get_integer(MAX_LABEL_LENGTH) as usize;
    ctx.object_label(BUFFER, buffer, Some(&"b".repeat(max)));
    assert_error!(ctx, INVALID_VALUE);
    ctx.object_label(BUFFER, buffer, Some(&"b".repeat(max - 1)));
    assert_no_error!(ctx);
}

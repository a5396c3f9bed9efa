//! Debug output (`KHR_debug`, core in GL 4.3): messages, their filters and debug groups, the
//! message log and the application's callback, and object labels.
//!
//! ## Messages
//! A message is `(source, type, id, severity, text)`. The application inserts its own
//! (`glDebugMessageInsert`, and the push/pop messages of debug groups); the engine generates:
//! - one `DEBUG_TYPE_ERROR` message of source `DEBUG_SOURCE_API`, severity `HIGH`, per GL
//!   error raised (every error passes through `Local::set_error`), whose id is the error code
//!   and whose text names the entry point, the error and the engine check that decided it
//!   (`glEnable: GL_INVALID_ENUM (engine/src/render_state.rs:85)`), also when an earlier
//!   error is still unread (the sticky flag keeps the first, the log has each, as Mesa);
//! - one message per backend event, when the events are taken ([`Context::take_events`]; the
//!   C ABI takes them after `glFlush`, `glFinish`, `glReadPixels`, `glClientWaitSync` and
//!   `eglSwapBuffers`): a program the driver refused (`DEBUG_SOURCE_SHADER_COMPILER`,
//!   `ERROR`, `HIGH`), out of memory and a lost device or session (`API`, `ERROR`, `HIGH`),
//!   and what the driver or its validation reported (`DEBUG_SOURCE_OTHER`, `OTHER`,
//!   `MEDIUM`), with the ids of [`BackendMessage`].
//!
//! A message passes when `DEBUG_OUTPUT` is enabled and the filter of the current debug group
//! enables it. It then goes to the callback if one is set, else to the log, which keeps the
//! oldest [`MAX_LOGGED_MESSAGES`] and drops newer ones while full. The callback is called on
//! the thread making the GL call, inside the call (so `DEBUG_OUTPUT_SYNCHRONOUS` holds
//! whether enabled or not).
//!
//! ## Initial state, as native Mesa
//! `DEBUG_OUTPUT` starts disabled, and enabled in a context created with the debug flag
//! (`EGL_CONTEXT_OPENGL_DEBUG`, `EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR`, `GLX_CONTEXT_DEBUG_BIT_ARB`),
//! which also reports `CONTEXT_FLAG_DEBUG_BIT` in `CONTEXT_FLAGS`. Every message is enabled
//! but those of severity `LOW`.
//!
//! ## Filters
//! `glDebugMessageControl` calls are kept as rules in the order given; a message takes the
//! state of the newest rule that matches it (the specification's "last call wins"), else the
//! initial one. A rule that covers an older one entirely replaces it, so a program that sets
//! the same filter every frame keeps one rule. Each debug group has its own rules: a push
//! copies the current group's, a pop drops them. The push message is filtered by the new
//! group's rules, the pop message by those of the group popped back to.
//!
//! ## Labels
//! A label is the [`Label`] component of the object's entity, so it is freed with the
//! object; the default transform feedback object (name 0, the only one GL 3.3 has) keeps its
//! label here. Program pipelines do not exist in GL 3.3: every name is `INVALID_VALUE`. A
//! name generated but not bound yet takes a label where native Mesa takes one (buffers,
//! vertex arrays, framebuffers, renderbuffers and queries, whose `glGen*` Mesa answers with
//! objects, or stand-ins); its name table keeps it until the object exists, which then
//! keeps it (Mesa's stand-ins for buffers, framebuffers and renderbuffers lose it there).

use std::collections::VecDeque;

use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::object::{Label, Program, Shader};

use tessera_components::names::{NameEntry, NameTable};

use crate::context::{Context, Local};
use crate::share::SharedNames;

/// `MAX_DEBUG_MESSAGE_LENGTH`: Mesa's value, so a message that fits native fits here.
pub const MAX_MESSAGE_LENGTH: usize = 4096;
/// `MAX_DEBUG_LOGGED_MESSAGES`: Mesa's value.
pub const MAX_LOGGED_MESSAGES: usize = 10;
/// `MAX_DEBUG_GROUP_STACK_DEPTH`: Mesa's value (the default group counts).
pub const MAX_GROUP_STACK_DEPTH: usize = 64;
/// `MAX_LABEL_LENGTH`: Mesa's value.
pub const MAX_LABEL_LEN: usize = 256;

/// One debug message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DebugMessage {
    /// `DEBUG_SOURCE_*`.
    pub source: GLenum,
    /// `DEBUG_TYPE_*`.
    pub ty: GLenum,
    /// The id, unique per source and type.
    pub id: GLuint,
    /// `DEBUG_SEVERITY_*`.
    pub severity: GLenum,
    /// The words, shorter than [`MAX_MESSAGE_LENGTH`] bytes.
    pub text: String,
}

/// The application's debug callback (`glDebugMessageCallback`).
pub struct DebugCallback {
    /// Called with each message that passes the filter, on the thread of the GL call.
    pub deliver: Box<dyn FnMut(&DebugMessage) + Send>,
}

/// The ids of the messages that backend events become.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum BackendMessage {
    /// The backend ran out of memory.
    OutOfMemory = 1,
    /// The device was lost.
    DeviceLost = 2,
    /// The session with the backend ended.
    SessionEnded = 3,
    /// The driver refused a program.
    ProgramRejected = 4,
    /// The driver lacks a feature.
    Unsupported = 5,
    /// The driver, or its validation, reported an error.
    NativeError = 6,
}

/// One `glDebugMessageControl` call; `None` is `DONT_CARE`, `ids` `None` is every id.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Rule {
    source: Option<GLenum>,
    ty: Option<GLenum>,
    severity: Option<GLenum>,
    ids: Option<Box<[GLuint]>>,
    enabled: bool,
}

impl Rule {
    fn matches(&self, m: &DebugMessage) -> bool {
        self.source.is_none_or(|s| s == m.source)
            && self.ty.is_none_or(|t| t == m.ty)
            && self.severity.is_none_or(|s| s == m.severity)
            && self.ids.as_ref().is_none_or(|ids| ids.contains(&m.id))
    }

    /// Whether every message `older` matches also matches `self`.
    fn covers(&self, older: &Rule) -> bool {
        fn wider(new: Option<GLenum>, old: Option<GLenum>) -> bool {
            new.is_none() || new == old
        }
        wider(self.source, older.source)
            && wider(self.ty, older.ty)
            && wider(self.severity, older.severity)
            && match (&self.ids, &older.ids) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(new), Some(old)) => old.iter().all(|id| new.contains(id)),
            }
    }
}

/// A debug group: the message of its push, and its filter.
#[derive(Clone, Debug, Default)]
struct Group {
    source: GLenum,
    id: GLuint,
    message: String,
    rules: Vec<Rule>,
}

/// A context's debug output state.
pub struct DebugState {
    /// `DEBUG_OUTPUT`.
    pub output: bool,
    /// `DEBUG_OUTPUT_SYNCHRONOUS` (delivery is synchronous either way).
    pub synchronous: bool,
    callback: Option<DebugCallback>,
    /// `DEBUG_CALLBACK_FUNCTION` and `DEBUG_CALLBACK_USER_PARAM`, as the C ABI gave them.
    callback_pointers: (usize, usize),
    log: VecDeque<DebugMessage>,
    /// The group stack, the default group first; never empty.
    groups: Vec<Group>,
    /// The label of the default transform feedback object.
    default_transform_feedback_label: Option<Box<str>>,
}

impl DebugState {
    /// The state of a new context: output on only in a debug context.
    pub fn new(debug_context: bool) -> Self {
        Self {
            output: debug_context,
            synchronous: false,
            callback: None,
            callback_pointers: (0, 0),
            log: VecDeque::new(),
            groups: vec![Group::default()],
            default_transform_feedback_label: None,
        }
    }

    fn enabled(&self, m: &DebugMessage) -> bool {
        if !self.output {
            return false;
        }
        let group = self
            .groups
            .last()
            .expect("the default group is never popped");
        match group.rules.iter().rev().find(|r| r.matches(m)) {
            Some(rule) => rule.enabled,
            None => m.severity != DEBUG_SEVERITY_LOW,
        }
    }

    /// Delivers `m` if it passes the filter: to the callback, else to the log.
    pub fn emit(&mut self, mut m: DebugMessage) {
        if !self.enabled(&m) {
            return;
        }
        if m.text.len() >= MAX_MESSAGE_LENGTH {
            let mut end = MAX_MESSAGE_LENGTH - 1;
            while !m.text.is_char_boundary(end) {
                end -= 1;
            }
            m.text.truncate(end);
        }
        match &mut self.callback {
            Some(callback) => (callback.deliver)(&m),
            None if self.log.len() < MAX_LOGGED_MESSAGES => self.log.push_back(m),
            None => {}
        }
    }

    /// The message of a GL error raised by `call`, decided at `at`.
    #[cold]
    pub fn error(&mut self, error: GLenum, call: &str, at: &std::panic::Location<'_>) {
        if !self.output {
            return;
        }
        let call = if call.is_empty() { "a GL call" } else { call };
        self.emit(DebugMessage {
            source: DEBUG_SOURCE_API,
            ty: DEBUG_TYPE_ERROR,
            id: error,
            severity: DEBUG_SEVERITY_HIGH,
            text: format!(
                "{call}: {} ({}:{})",
                error_name(error),
                at.file(),
                at.line()
            ),
        });
    }

    /// The messages of backend events.
    pub fn backend_events(&mut self, events: &[tessera_wire::Event]) {
        use tessera_wire::Event;
        if !self.output {
            return;
        }
        for event in events {
            let (source, ty, id, severity, text) = match event {
                Event::OutOfMemory { what } => (
                    DEBUG_SOURCE_API,
                    DEBUG_TYPE_ERROR,
                    BackendMessage::OutOfMemory,
                    DEBUG_SEVERITY_HIGH,
                    format!("GL_OUT_OF_MEMORY: the backend ran out of memory: {what}"),
                ),
                Event::DeviceLost { reason } => (
                    DEBUG_SOURCE_API,
                    DEBUG_TYPE_ERROR,
                    BackendMessage::DeviceLost,
                    DEBUG_SEVERITY_HIGH,
                    format!("the backend's device was lost: {reason}"),
                ),
                Event::SessionEnded { reason } => (
                    DEBUG_SOURCE_API,
                    DEBUG_TYPE_ERROR,
                    BackendMessage::SessionEnded,
                    DEBUG_SEVERITY_HIGH,
                    format!("the session with the backend ended: {reason}"),
                ),
                Event::ProgramRejected { log } => (
                    DEBUG_SOURCE_SHADER_COMPILER,
                    DEBUG_TYPE_ERROR,
                    BackendMessage::ProgramRejected,
                    DEBUG_SEVERITY_HIGH,
                    format!("the driver rejected a program: {log}"),
                ),
                Event::Unsupported { what } => (
                    DEBUG_SOURCE_OTHER,
                    DEBUG_TYPE_OTHER,
                    BackendMessage::Unsupported,
                    DEBUG_SEVERITY_MEDIUM,
                    format!("the driver lacks a feature: {what}"),
                ),
                Event::NativeError { what } => (
                    DEBUG_SOURCE_OTHER,
                    DEBUG_TYPE_OTHER,
                    BackendMessage::NativeError,
                    DEBUG_SEVERITY_MEDIUM,
                    format!("the driver reported: {what}"),
                ),
                Event::FencesCompleted { .. } => continue,
            };
            self.emit(DebugMessage {
                source,
                ty,
                id: id as GLuint,
                severity,
                text,
            });
        }
    }

    /// Sets `DEBUG_OUTPUT` or `DEBUG_OUTPUT_SYNCHRONOUS`; false for another capability.
    pub fn set_capability(&mut self, cap: GLenum, on: bool) -> bool {
        match cap {
            DEBUG_OUTPUT => self.output = on,
            DEBUG_OUTPUT_SYNCHRONOUS => self.synchronous = on,
            _ => return false,
        }
        true
    }

    /// `glIsEnabled` of `DEBUG_OUTPUT` or `DEBUG_OUTPUT_SYNCHRONOUS`.
    pub fn capability(&self, cap: GLenum) -> Option<bool> {
        match cap {
            DEBUG_OUTPUT => Some(self.output),
            DEBUG_OUTPUT_SYNCHRONOUS => Some(self.synchronous),
            _ => None,
        }
    }

    /// The `glGet*` value of a debug pname, if it is one.
    pub fn value(&self, pname: GLenum) -> Option<i64> {
        Some(match pname {
            DEBUG_OUTPUT => i64::from(self.output),
            DEBUG_OUTPUT_SYNCHRONOUS => i64::from(self.synchronous),
            MAX_DEBUG_MESSAGE_LENGTH => MAX_MESSAGE_LENGTH as i64,
            MAX_DEBUG_LOGGED_MESSAGES => MAX_LOGGED_MESSAGES as i64,
            MAX_DEBUG_GROUP_STACK_DEPTH => MAX_GROUP_STACK_DEPTH as i64,
            MAX_LABEL_LENGTH => MAX_LABEL_LEN as i64,
            DEBUG_LOGGED_MESSAGES => self.log.len() as i64,
            DEBUG_NEXT_LOGGED_MESSAGE_LENGTH => {
                self.log.front().map_or(0, |m| m.text.len() as i64 + 1)
            }
            DEBUG_GROUP_STACK_DEPTH => self.groups.len() as i64,
            _ => return None,
        })
    }
}

/// The name of a GL error code.
pub fn error_name(error: GLenum) -> &'static str {
    match error {
        INVALID_ENUM => "GL_INVALID_ENUM",
        INVALID_VALUE => "GL_INVALID_VALUE",
        INVALID_OPERATION => "GL_INVALID_OPERATION",
        STACK_OVERFLOW => "GL_STACK_OVERFLOW",
        STACK_UNDERFLOW => "GL_STACK_UNDERFLOW",
        OUT_OF_MEMORY => "GL_OUT_OF_MEMORY",
        INVALID_FRAMEBUFFER_OPERATION => "GL_INVALID_FRAMEBUFFER_OPERATION",
        _ => "a GL error",
    }
}

fn is_source(v: GLenum) -> bool {
    matches!(
        v,
        DEBUG_SOURCE_API
            | DEBUG_SOURCE_WINDOW_SYSTEM
            | DEBUG_SOURCE_SHADER_COMPILER
            | DEBUG_SOURCE_THIRD_PARTY
            | DEBUG_SOURCE_APPLICATION
            | DEBUG_SOURCE_OTHER
    )
}

fn is_type(v: GLenum) -> bool {
    matches!(
        v,
        DEBUG_TYPE_ERROR
            | DEBUG_TYPE_DEPRECATED_BEHAVIOR
            | DEBUG_TYPE_UNDEFINED_BEHAVIOR
            | DEBUG_TYPE_PORTABILITY
            | DEBUG_TYPE_PERFORMANCE
            | DEBUG_TYPE_OTHER
            | DEBUG_TYPE_MARKER
            | DEBUG_TYPE_PUSH_GROUP
            | DEBUG_TYPE_POP_GROUP
    )
}

fn is_severity(v: GLenum) -> bool {
    matches!(
        v,
        DEBUG_SEVERITY_HIGH
            | DEBUG_SEVERITY_MEDIUM
            | DEBUG_SEVERITY_LOW
            | DEBUG_SEVERITY_NOTIFICATION
    )
}

/// `value` if it is one of `valid`, `None` for `DONT_CARE`, `Err` otherwise.
fn dont_care_or(value: GLenum, valid: fn(GLenum) -> bool) -> Result<Option<GLenum>, ()> {
    if value == DONT_CARE {
        Ok(None)
    } else if valid(value) {
        Ok(Some(value))
    } else {
        Err(())
    }
}

/// Which object a label names.
enum Labelled {
    Entity(Entity),
    /// A name generated but not bound yet: its label waits in the name table.
    Reserved(GLenum, GLuint),
    DefaultTransformFeedback,
}

/// The name table of the objects `identifier` labels.
fn names_of<'a>(
    local: &'a mut Local,
    names: &'a mut SharedNames,
    identifier: GLenum,
) -> Option<&'a mut NameTable> {
    Some(match identifier {
        BUFFER => &mut names.buffers,
        TEXTURE => &mut names.textures,
        SAMPLER => &mut names.samplers,
        RENDERBUFFER => &mut names.renderbuffers,
        SHADER | PROGRAM => &mut names.shader_programs,
        VERTEX_ARRAY => &mut local.vertex_arrays,
        FRAMEBUFFER => &mut local.framebuffers,
        QUERY => &mut local.queries,
        PROGRAM_PIPELINE => &mut local.pipelines,
        TRANSFORM_FEEDBACK => &mut local.xfb.names,
        _ => return None,
    })
}

impl Context {
    /// Sets `CONTEXT_FLAGS` as the context was created (`crate::egl::ContextAttribs`); the
    /// debug flag turns debug output on, as native Mesa does for a debug context. The
    /// robust-access flag is kept only where the backend keeps buffer reads inside their
    /// buffers (`crate::robustness`).
    pub fn set_context_flags(&mut self, flags: GLenum) {
        let flags = if self.local.limits.robust_buffer_access {
            flags
        } else {
            flags & !CONTEXT_FLAG_ROBUST_ACCESS_BIT
        };
        self.local.context_flags = flags;
        if flags & CONTEXT_FLAG_DEBUG_BIT != 0 {
            self.local.debug.output = true;
        }
    }

    /// Names the entry point being called, for the words of the error messages (the C ABI
    /// calls it for every GL call).
    #[inline]
    pub fn enter(&mut self, call: &'static str) {
        self.local.call = call;
    }

    /// `glDebugMessageCallback`: `callback` gets every message that passes the filter
    /// instead of the log; `pointers` are what `glGetPointerv` answers for
    /// `DEBUG_CALLBACK_FUNCTION` and `DEBUG_CALLBACK_USER_PARAM`.
    pub fn debug_message_callback(
        &mut self,
        callback: Option<DebugCallback>,
        pointers: (usize, usize),
    ) {
        self.local.debug.callback = callback;
        self.local.debug.callback_pointers = pointers;
    }

    /// `glGetPointerv` of the debug callback's pointers, if `pname` is one.
    pub(crate) fn debug_pointer(&self, pname: GLenum) -> Option<usize> {
        match pname {
            DEBUG_CALLBACK_FUNCTION => Some(self.local.debug.callback_pointers.0),
            DEBUG_CALLBACK_USER_PARAM => Some(self.local.debug.callback_pointers.1),
            _ => None,
        }
    }

    /// `glDebugMessageControl` with the first `count` of `ids` (`count` as the application
    /// passed it: negative is `INVALID_VALUE`).
    pub fn debug_message_control(
        &mut self,
        source: GLenum,
        ty: GLenum,
        severity: GLenum,
        count: GLsizei,
        ids: &[GLuint],
        enabled: bool,
    ) {
        let (Ok(source), Ok(ty), Ok(severity)) = (
            dont_care_or(source, is_source),
            dont_care_or(ty, is_type),
            dont_care_or(severity, is_severity),
        ) else {
            return self.error(INVALID_ENUM);
        };
        if count < 0 {
            return self.error(INVALID_VALUE);
        }
        if count > 0 && (source.is_none() || ty.is_none() || severity.is_some()) {
            return self.error(INVALID_OPERATION);
        }
        let ids = (count > 0).then(|| {
            let n = (count as usize).min(ids.len());
            ids[..n].to_vec().into_boxed_slice()
        });
        let rule = Rule {
            source,
            ty,
            severity,
            ids,
            enabled,
        };
        let group = self
            .local
            .debug
            .groups
            .last_mut()
            .expect("the default group is never popped");
        group.rules.retain(|old| !rule.covers(old));
        group.rules.push(rule);
    }

    /// `glDebugMessageInsert` (`text` as `length` and `buf` give it).
    pub fn debug_message_insert(
        &mut self,
        source: GLenum,
        ty: GLenum,
        id: GLuint,
        severity: GLenum,
        text: &str,
    ) {
        if !matches!(source, DEBUG_SOURCE_APPLICATION | DEBUG_SOURCE_THIRD_PARTY)
            || !is_type(ty)
            || !is_severity(severity)
        {
            return self.error(INVALID_ENUM);
        }
        if text.len() >= MAX_MESSAGE_LENGTH {
            return self.error(INVALID_VALUE);
        }
        self.local.debug.emit(DebugMessage {
            source,
            ty,
            id,
            severity,
            text: text.to_owned(),
        });
    }

    /// `glGetDebugMessageLog`: takes up to `count` messages, oldest first. With `text_room`
    /// (the `bufSize` of a non-null `messageLog`) it stops at the first message whose text
    /// and terminator do not fit in what is left; a negative room is `INVALID_VALUE`.
    pub fn get_debug_message_log(
        &mut self,
        count: GLuint,
        text_room: Option<GLsizei>,
    ) -> Vec<DebugMessage> {
        if text_room.is_some_and(|r| r < 0) {
            self.error(INVALID_VALUE);
            return Vec::new();
        }
        let mut room = text_room.map(|r| r as usize);
        let mut out = Vec::new();
        let log = &mut self.local.debug.log;
        while out.len() < count as usize {
            let Some(next) = log.front() else { break };
            if let Some(room) = &mut room {
                let need = next.text.len() + 1;
                if need > *room {
                    break;
                }
                *room -= need;
            }
            out.extend(log.pop_front());
        }
        out
    }

    /// `glPushDebugGroup`.
    pub fn push_debug_group(&mut self, source: GLenum, id: GLuint, message: &str) {
        if !matches!(source, DEBUG_SOURCE_APPLICATION | DEBUG_SOURCE_THIRD_PARTY) {
            return self.error(INVALID_ENUM);
        }
        if message.len() >= MAX_MESSAGE_LENGTH {
            return self.error(INVALID_VALUE);
        }
        let debug = &mut self.local.debug;
        if debug.groups.len() >= MAX_GROUP_STACK_DEPTH {
            return self.error(STACK_OVERFLOW);
        }
        let rules = debug
            .groups
            .last()
            .map(|g| g.rules.clone())
            .unwrap_or_default();
        debug.groups.push(Group {
            source,
            id,
            message: message.to_owned(),
            rules,
        });
        debug.emit(DebugMessage {
            source,
            ty: DEBUG_TYPE_PUSH_GROUP,
            id,
            severity: DEBUG_SEVERITY_NOTIFICATION,
            text: message.to_owned(),
        });
    }

    /// `glPopDebugGroup`.
    pub fn pop_debug_group(&mut self) {
        let debug = &mut self.local.debug;
        if debug.groups.len() <= 1 {
            return self.error(STACK_UNDERFLOW);
        }
        let group = debug.groups.pop().expect("more than the default group");
        debug.emit(DebugMessage {
            source: group.source,
            ty: DEBUG_TYPE_POP_GROUP,
            id: group.id,
            severity: DEBUG_SEVERITY_NOTIFICATION,
            text: group.message,
        });
    }

    /// The object `name` of kind `identifier` names, or the error its lookup raises.
    ///
    /// A name generated but not bound yet is labelled as native Mesa allows it: for the
    /// kinds whose `glGen*` Mesa answers with an object (buffers, vertex arrays,
    /// framebuffers, renderbuffers, queries, program pipelines, transform feedback objects;
    /// not textures). The label is kept with the name
    /// and moves to the object once it exists, at its next label call.
    fn labelled(&mut self, identifier: GLenum, name: GLuint) -> Result<Labelled, GLenum> {
        match identifier {
            TRANSFORM_FEEDBACK if name == 0 => return Ok(Labelled::DefaultTransformFeedback),
            _ => {}
        }
        let mut guard = self.group.lock();
        let sh = &mut *guard;
        let Some(table) = names_of(&mut self.local, &mut sh.names, identifier) else {
            return Err(INVALID_ENUM);
        };
        match table.entry(name) {
            NameEntry::Object(e) => {
                let kind_matches = match identifier {
                    SHADER => sh.world.get::<Shader>(e).is_some(),
                    PROGRAM => sh.world.get::<Program>(e).is_some(),
                    _ => true,
                };
                if !kind_matches {
                    return Err(INVALID_VALUE);
                }
                if let Some(label) = table.take_reserved_label(name)
                    && let Ok(mut entity) = sh.world.get_entity_mut(e)
                    && !entity.contains::<Label>()
                {
                    entity.insert(Label(label));
                }
                Ok(Labelled::Entity(e))
            }
            NameEntry::Reserved
                if matches!(
                    identifier,
                    BUFFER
                        | VERTEX_ARRAY
                        | FRAMEBUFFER
                        | RENDERBUFFER
                        | QUERY
                        | PROGRAM_PIPELINE
                        | TRANSFORM_FEEDBACK
                ) =>
            {
                Ok(Labelled::Reserved(identifier, name))
            }
            _ => Err(INVALID_VALUE),
        }
    }

    fn set_label(&mut self, object: Labelled, label: Option<&str>) {
        if label.is_some_and(|l| l.len() >= MAX_LABEL_LEN) {
            return self.error(INVALID_VALUE);
        }
        let label: Option<Box<str>> = label.map(Into::into);
        match object {
            Labelled::DefaultTransformFeedback => {
                self.local.debug.default_transform_feedback_label = label;
            }
            Labelled::Reserved(identifier, name) => {
                let mut guard = self.group.lock();
                if let Some(table) = names_of(&mut self.local, &mut guard.names, identifier) {
                    table.set_reserved_label(name, label);
                }
            }
            Labelled::Entity(e) => {
                let mut sh = self.group.lock();
                // Looked up under an earlier hold of the lock: gone if another thread
                // deleted it since, when there is nothing left to label.
                let Ok(mut entity) = sh.world.get_entity_mut(e) else {
                    return;
                };
                match label {
                    Some(label) => {
                        entity.insert(Label(label));
                    }
                    None => {
                        entity.remove::<Label>();
                    }
                }
            }
        }
    }

    fn label_of(&mut self, object: Labelled) -> String {
        match object {
            Labelled::DefaultTransformFeedback => self
                .local
                .debug
                .default_transform_feedback_label
                .as_deref()
                .unwrap_or("")
                .to_owned(),
            Labelled::Reserved(identifier, name) => {
                let mut guard = self.group.lock();
                names_of(&mut self.local, &mut guard.names, identifier)
                    .and_then(|t| t.reserved_label(name))
                    .unwrap_or("")
                    .to_owned()
            }
            Labelled::Entity(e) => {
                let sh = self.group.lock();
                sh.world
                    .get::<Label>(e)
                    .map_or_else(String::new, |l| l.0.to_string())
            }
        }
    }

    /// `glObjectLabel` (`None` removes the label).
    pub fn object_label(&mut self, identifier: GLenum, name: GLuint, label: Option<&str>) {
        match self.labelled(identifier, name) {
            Ok(object) => self.set_label(object, label),
            Err(e) => self.error(e),
        }
    }

    /// `glGetObjectLabel`: the label (empty if none), `None` after an error. `buf_size` is
    /// the application's, checked here; the caller copies what fits.
    pub fn get_object_label(
        &mut self,
        identifier: GLenum,
        name: GLuint,
        buf_size: GLsizei,
    ) -> Option<String> {
        if buf_size < 0 {
            self.error(INVALID_VALUE);
            return None;
        }
        match self.labelled(identifier, name) {
            Ok(object) => Some(self.label_of(object)),
            Err(e) => {
                self.error(e);
                None
            }
        }
    }

    fn sync_labelled(&mut self, sync: u64) -> Option<Labelled> {
        let entity = u32::try_from(sync)
            .ok()
            .and_then(|name| self.group.lock().names.syncs.get(name));
        if entity.is_none() {
            self.error(INVALID_VALUE);
        }
        entity.map(Labelled::Entity)
    }

    /// `glObjectPtrLabel` of a sync object (`sync` as `fence_sync` returned it).
    pub fn object_ptr_label(&mut self, sync: u64, label: Option<&str>) {
        if let Some(object) = self.sync_labelled(sync) {
            self.set_label(object, label);
        }
    }

    /// `glGetObjectPtrLabel`: as [`Context::get_object_label`], of a sync object.
    pub fn get_object_ptr_label(&mut self, sync: u64, buf_size: GLsizei) -> Option<String> {
        if buf_size < 0 {
            self.error(INVALID_VALUE);
            return None;
        }
        let object = self.sync_labelled(sync)?;
        Some(self.label_of(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(source: GLenum, ty: GLenum, id: GLuint, severity: GLenum) -> DebugMessage {
        DebugMessage {
            source,
            ty,
            id,
            severity,
            text: String::new(),
        }
    }

    #[test]
    fn the_newest_matching_rule_decides_and_covered_rules_go() {
        let mut d = DebugState::new(true);
        let m = message(
            DEBUG_SOURCE_APPLICATION,
            DEBUG_TYPE_MARKER,
            7,
            DEBUG_SEVERITY_LOW,
        );
        assert!(!d.enabled(&m));
        let rule = |severity, ids: Option<&[GLuint]>, enabled| Rule {
            source: ids.map(|_| DEBUG_SOURCE_APPLICATION),
            ty: ids.map(|_| DEBUG_TYPE_MARKER),
            severity,
            ids: ids.map(Into::into),
            enabled,
        };
        let rules = &mut d.groups[0].rules;
        rules.push(rule(Some(DEBUG_SEVERITY_LOW), None, true));
        rules.push(rule(None, Some(&[7][..]), false));
        assert!(!d.enabled(&m));
        let newer = rule(Some(DEBUG_SEVERITY_LOW), None, true);
        assert!(newer.covers(&d.groups[0].rules[0]));
        assert!(!newer.covers(&d.groups[0].rules[1]));
        d.groups[0].rules.push(newer);
        assert!(d.enabled(&m));
        let all = rule(None, None, false);
        assert!(d.groups[0].rules.iter().all(|r| all.covers(r)));
        d.output = false;
        assert!(!d.enabled(&message(
            DEBUG_SOURCE_API,
            DEBUG_TYPE_ERROR,
            1,
            DEBUG_SEVERITY_HIGH
        )));
    }

    #[test]
    fn backend_events_become_messages_of_their_kind_and_the_log_keeps_the_oldest() {
        use tessera_wire::Event;
        let mut d = DebugState::new(true);
        let words = || "words".to_owned();
        d.backend_events(&[
            Event::ProgramRejected { log: words() },
            Event::FencesCompleted { seq: 3 },
            Event::NativeError {
                what: format!("validation: {}", "x".repeat(2 * MAX_MESSAGE_LENGTH)),
            },
            Event::Unsupported { what: words() },
            Event::OutOfMemory { what: words() },
            Event::DeviceLost { reason: words() },
            Event::SessionEnded { reason: words() },
        ]);
        let got: Vec<_> = d
            .log
            .iter()
            .map(|m| (m.source, m.ty, m.id, m.severity))
            .collect();
        use BackendMessage as B;
        assert_eq!(
            got,
            [
                (
                    DEBUG_SOURCE_SHADER_COMPILER,
                    DEBUG_TYPE_ERROR,
                    B::ProgramRejected as u32,
                    DEBUG_SEVERITY_HIGH
                ),
                (
                    DEBUG_SOURCE_OTHER,
                    DEBUG_TYPE_OTHER,
                    B::NativeError as u32,
                    DEBUG_SEVERITY_MEDIUM
                ),
                (
                    DEBUG_SOURCE_OTHER,
                    DEBUG_TYPE_OTHER,
                    B::Unsupported as u32,
                    DEBUG_SEVERITY_MEDIUM
                ),
                (
                    DEBUG_SOURCE_API,
                    DEBUG_TYPE_ERROR,
                    B::OutOfMemory as u32,
                    DEBUG_SEVERITY_HIGH
                ),
                (
                    DEBUG_SOURCE_API,
                    DEBUG_TYPE_ERROR,
                    B::DeviceLost as u32,
                    DEBUG_SEVERITY_HIGH
                ),
                (
                    DEBUG_SOURCE_API,
                    DEBUG_TYPE_ERROR,
                    B::SessionEnded as u32,
                    DEBUG_SEVERITY_HIGH
                ),
            ]
        );
        assert!(d.log[0].text.ends_with("words"));
        // A generated message longer than the limit is cut to fit it.
        assert_eq!(d.log[1].text.len(), MAX_MESSAGE_LENGTH - 1);
        // Full: newer messages are dropped, the oldest kept.
        for i in 0..MAX_LOGGED_MESSAGES as u32 {
            d.emit(DebugMessage {
                id: 100 + i,
                ..message(
                    DEBUG_SOURCE_APPLICATION,
                    DEBUG_TYPE_MARKER,
                    0,
                    DEBUG_SEVERITY_HIGH,
                )
            });
        }
        assert_eq!(d.log.len(), MAX_LOGGED_MESSAGES);
        assert_eq!(d.log[0].ty, DEBUG_TYPE_ERROR);
        assert_eq!(d.log[MAX_LOGGED_MESSAGES - 1].id, 103);
    }
}

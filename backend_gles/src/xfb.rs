//! Transform feedback on native GLES 3.x.
//!
//! The program names what it captures to the driver: `CreateProgram`'s captured outputs
//! become `glTransformFeedbackVaryings` before the native link, by the names the translated
//! GLSL gives them (`ts_io<location>` for user outputs, see `program.rs`; built-ins by
//! their GLSL names, `gl_Position`, `gl_Layer`, ...), interleaved or separate as their
//! buffers say. GL 4.0's layout names (`gl_SkipComponents1`..`4`, `gl_NextBuffer`) are
//! passed on as they are: GLES has none, but Mesa's GLES drivers take them (they parse them
//! for every API), and a driver that refuses them fails the native link, which is reported.
//! The `Xfb*` decorations the front end wrote for Vulkan are removed before translation
//! ([`strip_decorations`]): GLSL ES has no `xfb_*` layouts.
//!
//! Capture itself is a native transform feedback object per begun capture, active only
//! around the draws of the wire context that began it: the first draw binds the object and
//! its buffer ranges and begins, later draws resume; after each draw it is paused and
//! unbound. So the rest of the backend (its blits and clears, other wire contexts on the
//! same native context) may change programs and bindings as GLES allows only while capture
//! is paused, and the native offsets carry on from draw to draw as GL's do.
//! `EndTransformFeedback` ends and deletes the object.
//!
//! Each capture belongs to its transform feedback object ([`XfbObject`]); pausing leaves
//! the native object paused between draws, and resuming lets the next draw resume it.
//! GLES has no `glDrawTransformFeedback`, so a `TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN`
//! query of the backend's own counts each captured draw, and `DrawTransformFeedback` sums
//! them (waiting for their results) and draws that many primitives' vertices. GLES counts
//! one such query at a time, so a program's own query active across a captured draw is
//! split around it and counts the draw's query too (`query.rs`).
//!
//! GLES 3.0 restricts capture more than GL: no indexed draws, no geometry shaders, draw
//! modes equal to the captured one, and an error for a draw that would overflow a buffer.
//! ES 3.2 (and `OES_geometry_shader`), which Mesa's GLES drivers offer, lift these, and
//! then the native behaviour is GL's; on a plain ES 3.0 driver such draws raise a native
//! error that the debug checks report.

use glow::HasContext;
use tessera_wire::dispatch::{DrawArgs, DrawPipe, R, TransformFeedbackPipe};
use tessera_wire::format::Topology;
use tessera_wire::handle::TransformFeedbackHandle;
use tessera_wire::record::{MAX_XFB_BUFFERS, XfbBinding, XfbOutput, XfbPrimitive, XfbSource};

use std::sync::Arc;

use crate::command::GlesContext;
use crate::device::GlesPipe;
use crate::query::release_parts;

/// A transform feedback object: its last capture, if it was ever begun.
#[derive(Debug, Default)]
pub(crate) struct XfbObject {
    pub capture: Option<Capture>,
}

/// A capture, begun (and perhaps ended).
#[derive(Debug)]
pub(crate) struct Capture {
    pub mode: u32,
    pub buffers: [XfbBinding; MAX_XFB_BUFFERS],
    /// The native object, made at the first draw; deleted at the end.
    native: Option<glow::TransformFeedback>,
    /// The primitives-written queries of the captured draws.
    written: Vec<Arc<glow::Query>>,
    /// The query of the draw being captured.
    counting: Option<glow::Query>,
    /// The sum of `written`'s results, once asked for.
    primitives: Option<u64>,
    /// Vertex streams 1 to 3's objects and counts (`streams.rs`).
    pub streams: [crate::streams::StreamCapture; crate::streams::STREAMS - 1],
    /// The stream each buffer captures, fixed at the first draw.
    buffer_streams: [u8; MAX_XFB_BUFFERS],
}

/// The names and buffer mode `glTransformFeedbackVaryings` gets for a program's captured
/// outputs (none: the program captures nothing).
pub(crate) fn varyings(xfb: &[XfbOutput]) -> Option<(Vec<String>, u32)> {
    if xfb.is_empty() {
        return None;
    }
    let names = xfb
        .iter()
        .map(|o| match o.source {
            XfbSource::Location(l) => format!("ts_io{l}"),
            XfbSource::Position => "gl_Position".to_owned(),
            XfbSource::PointSize => "gl_PointSize".to_owned(),
            XfbSource::ClipDistance => "gl_ClipDistance".to_owned(),
            XfbSource::Layer => "gl_Layer".to_owned(),
            XfbSource::ViewportIndex => "gl_ViewportIndex".to_owned(),
            XfbSource::PrimitiveId => "gl_PrimitiveID".to_owned(),
            XfbSource::Skip(0) => "gl_NextBuffer".to_owned(),
            XfbSource::Skip(n) => format!("gl_SkipComponents{n}"),
        })
        .collect();
    // Layout names come only with interleaved capture, whose `gl_NextBuffer` moves the
    // varyings after it to other buffers.
    let separate = xfb.iter().any(|o| o.buffer != 0)
        && !xfb.iter().any(|o| matches!(o.source, XfbSource::Skip(_)));
    let mode = if separate {
        glow::SEPARATE_ATTRIBS
    } else {
        glow::INTERLEAVED_ATTRIBS
    };
    Some((names, mode))
}

/// `Capability TransformFeedback`, `ExecutionMode Xfb` and the `XfbBuffer`, `XfbStride`
/// and `Offset` decorations of outputs, removed (`None`: the module has none).
pub(crate) fn strip_decorations(words: &[u32]) -> Option<Vec<u32>> {
    const CAPABILITY: u32 = 17;
    const EXECUTION_MODE: u32 = 16;
    const DECORATE: u32 = 71;
    const MEMBER_DECORATE: u32 = 72;
    const VARIABLE: u32 = 59;
    const TYPE_POINTER: u32 = 32;
    const CAP_TRANSFORM_FEEDBACK: u32 = 53;
    const MODE_XFB: u32 = 11;
    const OFFSET: u32 = 35;
    const XFB_BUFFER: u32 = 36;
    const XFB_STRIDE: u32 = 37;
    let insts = || {
        let mut at = 5;
        std::iter::from_fn(move || {
            let first = *words.get(at)?;
            let n = (first >> 16) as usize;
            if n == 0 || at + n > words.len() {
                return None;
            }
            let i = &words[at..at + n];
            at += n;
            Some(i)
        })
    };
    let op = |i: &[u32]| i[0] & 0xffff;
    // The variables captured, and the struct types of captured blocks.
    let captured: Vec<u32> = insts()
        .filter(|i| op(i) == DECORATE && i.len() >= 3 && i[2] == XFB_BUFFER)
        .map(|i| i[1])
        .collect();
    if captured.is_empty() {
        return None;
    }
    let pointers: Vec<u32> = insts()
        .filter(|i| op(i) == VARIABLE && i.len() >= 3 && captured.contains(&i[2]))
        .map(|i| i[1])
        .collect();
    let structs: Vec<u32> = insts()
        .filter(|i| op(i) == TYPE_POINTER && i.len() >= 4 && pointers.contains(&i[1]))
        .map(|i| i[3])
        .collect();
    let mut out = words[..5.min(words.len())].to_vec();
    for i in insts() {
        let drop = match op(i) {
            CAPABILITY => i.get(1) == Some(&CAP_TRANSFORM_FEEDBACK),
            EXECUTION_MODE => i.get(2) == Some(&MODE_XFB),
            DECORATE => {
                i.len() >= 3
                    && (matches!(i[2], XFB_BUFFER | XFB_STRIDE)
                        || (i[2] == OFFSET && captured.contains(&i[1])))
            }
            MEMBER_DECORATE => i.len() >= 4 && i[3] == OFFSET && structs.contains(&i[1]),
            _ => false,
        };
        if !drop {
            out.extend_from_slice(i);
        }
    }
    Some(out)
}

/// Binds the ranges of `buffers` that capture vertex stream `stream` (`streams`: each
/// buffer's) to the native transform feedback object bound.
///
/// # Safety
/// The context is current, the object bound is not active, and the buffer names are live
/// (the dispatcher checked the handles) with the ranges inside them (the engine clamps them
/// to the storage).
pub(crate) unsafe fn bind_ranges(
    gl: &glow::Context,
    table: &tessera_wire::table::SlotTable<
        tessera_wire::handle::BufferHandle,
        crate::device::Buffer,
    >,
    buffers: &[XfbBinding; MAX_XFB_BUFFERS],
    streams: &[u8; MAX_XFB_BUFFERS],
    stream: u8,
) {
    for (i, b) in buffers.iter().enumerate() {
        let name = b
            .buffer
            .and_then(|h| table.get("Draw", h).ok().map(|b| b.name));
        if let Some(name) = name
            && b.size > 0
            && streams[i] == stream
        {
            // SAFETY: as the function's contract says.
            unsafe {
                gl.bind_buffer_range(
                    glow::TRANSFORM_FEEDBACK_BUFFER,
                    i as u32,
                    Some(name),
                    b.offset as i32,
                    b.size as i32,
                )
            };
        }
    }
}

impl GlesPipe {
    /// Before a draw of `ctx`: binds and begins (or resumes) its capture, if it has one,
    /// and begins counting what the draw writes.
    pub(crate) fn xfb_before_draw(&mut self, ctx: &mut GlesContext) {
        if ctx.xfb.is_none() {
            return;
        }
        // The program's own primitives-written query yields to the draw's (`query.rs`).
        if let Some(q) = self
            .xfb_written_query
            .and_then(|h| self.queries.get_mut("Draw", h).ok())
            // SAFETY: context current; this query is the active one of its target.
            && let Ok(fresh) = unsafe { self.gl.create_query() }
        {
            // SAFETY: as above.
            unsafe {
                self.gl
                    .end_query(glow::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
            };
            let ended = std::mem::replace(&mut q.name, fresh);
            q.parts.push(Arc::new(ended));
        }
        // A program with other vertex streams captures only stream 0's buffers here.
        let streams = ctx
            .desired
            .program
            .and_then(|h| self.programs.get("Draw", h).ok())
            .and_then(|p| p.streams.as_ref())
            .map_or([0; MAX_XFB_BUFFERS], |s| s.buffers);
        if self.captures_stream_zero(ctx) == Some(false) {
            return;
        }
        let Some(c) = ctx
            .xfb
            .and_then(|h| self.xfbs.get_mut("Draw", h).ok())
            .and_then(|o| o.capture.as_mut())
        else {
            return;
        };
        let gl = &self.gl;
        // SAFETY: context current; the program is reconciled (linked, current, capturing);
        // the object is this capture's, paused or new; the buffer names are live (the
        // dispatcher checked the handles) and the ranges lie in them (the engine clamps
        // them to the storage); no other primitives-written query is active when one is
        // begun.
        unsafe {
            match c.native {
                Some(tf) => {
                    gl.bind_transform_feedback(glow::TRANSFORM_FEEDBACK, Some(tf));
                    gl.resume_transform_feedback();
                }
                None => {
                    let Ok(tf) = gl.create_transform_feedback() else {
                        return;
                    };
                    c.buffer_streams = streams;
                    gl.bind_transform_feedback(glow::TRANSFORM_FEEDBACK, Some(tf));
                    bind_ranges(gl, &self.buffers, &c.buffers, &streams, 0);
                    gl.begin_transform_feedback(c.mode);
                    c.native = Some(tf);
                }
            }
            if let Ok(q) = gl.create_query() {
                gl.begin_query(glow::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q);
                c.counting = Some(q);
                c.primitives = None;
            }
        }
    }

    /// After a draw of `ctx`: stops counting, pauses and unbinds its capture.
    pub(crate) fn xfb_after_draw(&mut self, ctx: &mut GlesContext) {
        let Some(c) = ctx
            .xfb
            .and_then(|h| self.xfbs.get_mut("Draw", h).ok())
            .and_then(|o| o.capture.as_mut())
            .filter(|c| c.native.is_some())
        else {
            return;
        };
        let mut counted = None;
        // SAFETY: context current; the capture's object is bound and active, and its
        // counting query (if any) is the active primitives-written query.
        unsafe {
            if let Some(q) = c.counting.take() {
                self.gl
                    .end_query(glow::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
                let q = Arc::new(q);
                c.written.push(q.clone());
                counted = Some(q);
            }
            self.gl.pause_transform_feedback();
            self.gl
                .bind_transform_feedback(glow::TRANSFORM_FEEDBACK, None);
        }
        // The program's own query counts the draw too, and goes on counting.
        if let Some(q) = self
            .xfb_written_query
            .and_then(|h| self.queries.get_mut("Draw", h).ok())
        {
            q.parts.extend(counted);
            // SAFETY: context current; no primitives-written query is active now, and the
            // query's fresh name was never begun.
            unsafe {
                self.gl
                    .begin_query(glow::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q.name)
            };
        }
    }

    /// Ends a capture's native objects (at `EndTransformFeedback`); its counts stay.
    fn xfb_end_native(&mut self, c: &mut Capture) {
        let streams = c.streams.iter_mut().filter_map(|s| s.native.take());
        for tf in c.native.take().into_iter().chain(streams) {
            // SAFETY: context current; the object is this capture's, paused; ending a
            // paused capture is allowed, and the object is deleted once unbound.
            unsafe {
                self.gl
                    .bind_transform_feedback(glow::TRANSFORM_FEEDBACK, Some(tf));
                self.gl.end_transform_feedback();
                self.gl
                    .bind_transform_feedback(glow::TRANSFORM_FEEDBACK, None);
                self.gl.delete_transform_feedback(tf);
            }
        }
    }

    /// Drops a capture: ends its native object and deletes its queries.
    fn xfb_drop_capture(&mut self, c: Option<Capture>) {
        let Some(mut c) = c else { return };
        self.xfb_end_native(&mut c);
        release_parts(&self.gl, c.written);
        for s in c.streams {
            release_parts(&self.gl, s.written);
        }
    }
}

impl TransformFeedbackPipe for GlesPipe {
    fn create_transform_feedback(&mut self, xfb: TransformFeedbackHandle) -> R {
        self.xfbs
            .insert("CreateTransformFeedback", xfb, XfbObject::default())
    }

    fn destroy_transform_feedback(&mut self, xfb: TransformFeedbackHandle) -> R {
        let o = self.xfbs.remove("DestroyTransformFeedback", xfb)?;
        self.xfb_drop_capture(o.capture);
        Ok(())
    }

    fn begin_transform_feedback(
        &mut self,
        ctx: &mut GlesContext,
        xfb: TransformFeedbackHandle,
        primitive: XfbPrimitive,
        buffers: [XfbBinding; MAX_XFB_BUFFERS],
    ) -> R {
        const N: &str = "BeginTransformFeedback";
        let old = self.xfbs.get_mut(N, xfb)?.capture.take();
        self.xfb_drop_capture(old);
        self.xfbs.get_mut(N, xfb)?.capture = Some(Capture {
            mode: match primitive {
                XfbPrimitive::Points => glow::POINTS,
                XfbPrimitive::Lines => glow::LINES,
                XfbPrimitive::Triangles => glow::TRIANGLES,
            },
            buffers,
            native: None,
            written: Vec::new(),
            counting: None,
            primitives: None,
            streams: Default::default(),
            buffer_streams: [0; MAX_XFB_BUFFERS],
        });
        ctx.xfb = Some(xfb);
        Ok(())
    }

    fn pause_transform_feedback(&mut self, ctx: &mut GlesContext, _: TransformFeedbackHandle) -> R {
        ctx.xfb = None;
        Ok(())
    }

    fn resume_transform_feedback(
        &mut self,
        ctx: &mut GlesContext,
        xfb: TransformFeedbackHandle,
    ) -> R {
        ctx.xfb = Some(xfb);
        Ok(())
    }

    fn end_transform_feedback(&mut self, ctx: &mut GlesContext, xfb: TransformFeedbackHandle) -> R {
        if ctx.xfb == Some(xfb) {
            ctx.xfb = None;
        }
        let mut c = self
            .xfbs
            .get_mut("EndTransformFeedback", xfb)?
            .capture
            .take();
        if let Some(c) = c.as_mut() {
            self.xfb_end_native(c);
        }
        self.xfbs.get_mut("EndTransformFeedback", xfb)?.capture = c;
        Ok(())
    }

    fn draw_transform_feedback(
        &mut self,
        ctx: &mut GlesContext,
        topology: Topology,
        xfb: TransformFeedbackHandle,
        instances: u32,
        binding: u8,
    ) -> R {
        if ctx.discarding {
            return Ok(());
        }
        // The draw counts what the capture wrote to the stream of `binding` (module docs;
        // other streams' counts are their passes', `streams.rs`).
        let gl = &self.gl;
        let Some(c) = self
            .xfbs
            .get_mut("DrawTransformFeedback", xfb)?
            .capture
            .as_mut()
        else {
            return Ok(());
        };
        let stream = c
            .buffer_streams
            .get(usize::from(binding))
            .map_or(0, |&s| usize::from(s));
        let (written, primitives) = match stream.checked_sub(1) {
            Some(s) if s < c.streams.len() => (&c.streams[s].written, &mut c.streams[s].primitives),
            _ => (&c.written, &mut c.primitives),
        };
        let primitives = *primitives.get_or_insert_with(|| {
            written
                .iter()
                // SAFETY: context current; ended queries of this capture (a query is
                // ended after its draw), whose results the driver waits for.
                .map(|q| u64::from(unsafe { gl.get_query_parameter_u32(**q, glow::QUERY_RESULT) }))
                .sum()
        });
        let per_primitive = match c.mode {
            glow::POINTS => 1,
            glow::LINES => 2,
            _ => 3,
        };
        let count = u32::try_from(primitives * per_primitive).unwrap_or(u32::MAX);
        self.draw(
            ctx,
            DrawArgs {
                topology,
                first: 0,
                count,
                instances,
                base_instance: 0,
            },
        )
    }
}

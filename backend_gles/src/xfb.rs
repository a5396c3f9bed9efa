//! Transform feedback on native GLES 3.x.
//!
//! The program names what it captures to the driver: `CreateProgram`'s captured outputs
//! become `glTransformFeedbackVaryings` before the native link, by the names the translated
//! GLSL gives them (`ts_io<location>` for user outputs, see `program.rs`; built-ins by
//! their GLSL names, `gl_Position`, `gl_Layer`, ...), interleaved or separate as their buffers say. The `Xfb*` decorations the
//! front end wrote for Vulkan are removed before translation ([`strip_decorations`]): GLSL
//! ES has no `xfb_*` layouts.
//!
//! Capture itself is a native transform feedback object per begun capture, active only
//! around the draws of the wire context that began it: the first draw binds the object and
//! its buffer ranges and begins, later draws resume; after each draw it is paused and
//! unbound. So the rest of the backend (its blits and clears, other wire contexts on the
//! same native context) may change programs and bindings as GLES allows only while capture
//! is paused, and the native offsets carry on from draw to draw as GL's do.
//! `EndTransformFeedback` ends and deletes the object.
//!
//! GLES 3.0 restricts capture more than GL: no indexed draws, no geometry shaders, draw
//! modes equal to the captured one, and an error for a draw that would overflow a buffer.
//! ES 3.2 (and `OES_geometry_shader`), which Mesa's GLES drivers offer, lift these, and
//! then the native behaviour is GL's; on a plain ES 3.0 driver such draws raise a native
//! error that the debug checks report.

use glow::HasContext;
use tessera_wire::dispatch::{R, TransformFeedbackPipe};
use tessera_wire::record::{MAX_XFB_BUFFERS, XfbBinding, XfbOutput, XfbPrimitive, XfbSource};

use crate::command::GlesContext;
use crate::device::GlesPipe;

/// A begun capture of one wire context.
#[derive(Debug)]
pub(crate) struct Capture {
    mode: u32,
    buffers: [XfbBinding; MAX_XFB_BUFFERS],
    /// The native object, made at the first draw.
    native: Option<glow::TransformFeedback>,
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
        })
        .collect();
    let separate = xfb.iter().any(|o| o.buffer != 0);
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

impl GlesPipe {
    /// Before a draw of `ctx`: binds and begins (or resumes) its capture, if it has one.
    pub(crate) fn xfb_before_draw(&mut self, ctx: &mut GlesContext) {
        let Some(c) = ctx.xfb.as_mut() else { return };
        let gl = &self.gl;
        // SAFETY: context current; the program is reconciled (linked, current, capturing);
        // the object is this capture's, paused or new; the buffer names are live (the
        // dispatcher checked the handles) and the ranges lie in them (the engine clamps
        // them to the storage).
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
                    gl.bind_transform_feedback(glow::TRANSFORM_FEEDBACK, Some(tf));
                    for (i, b) in c.buffers.iter().enumerate() {
                        let name = b
                            .buffer
                            .and_then(|h| self.buffers.get("Draw", h).ok().map(|b| b.name));
                        if let Some(name) = name
                            && b.size > 0
                        {
                            gl.bind_buffer_range(
                                glow::TRANSFORM_FEEDBACK_BUFFER,
                                i as u32,
                                Some(name),
                                b.offset as i32,
                                b.size as i32,
                            );
                        }
                    }
                    gl.begin_transform_feedback(c.mode);
                    c.native = Some(tf);
                }
            }
        }
    }

    /// After a draw of `ctx`: pauses and unbinds its capture.
    pub(crate) fn xfb_after_draw(&mut self, ctx: &mut GlesContext) {
        if ctx.xfb.as_ref().is_some_and(|c| c.native.is_some()) {
            // SAFETY: context current; the capture's object is bound and active.
            unsafe {
                self.gl.pause_transform_feedback();
                self.gl
                    .bind_transform_feedback(glow::TRANSFORM_FEEDBACK, None);
            }
        }
    }

    /// Ends a capture (at `EndTransformFeedback`, or when its context goes).
    pub(crate) fn xfb_end(&mut self, ctx: &mut GlesContext) {
        let Some(c) = ctx.xfb.take() else { return };
        if let Some(tf) = c.native {
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
}

impl TransformFeedbackPipe for GlesPipe {
    fn begin_transform_feedback(
        &mut self,
        ctx: &mut GlesContext,
        primitive: XfbPrimitive,
        buffers: [XfbBinding; MAX_XFB_BUFFERS],
    ) -> R {
        self.xfb_end(ctx);
        ctx.xfb = Some(Capture {
            mode: match primitive {
                XfbPrimitive::Points => glow::POINTS,
                XfbPrimitive::Lines => glow::LINES,
                XfbPrimitive::Triangles => glow::TRIANGLES,
            },
            buffers,
            native: None,
        });
        Ok(())
    }

    fn end_transform_feedback(&mut self, ctx: &mut GlesContext) -> R {
        self.xfb_end(ctx);
        Ok(())
    }
}

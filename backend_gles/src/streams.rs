//! Vertex streams on GLES: one geometry pass per stream.
//!
//! GL 4.0 (`GL_ARB_transform_feedback3` with `GL_ARB_gpu_shader5`) gives geometry shaders
//! four vertex streams: `EmitStreamVertex(n)` / `EndStreamPrimitive(n)` build primitives on
//! stream `n`, each transform feedback buffer captures one stream, `PRIMITIVES_GENERATED`
//! and `TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN` count per stream (`glBeginQueryIndexed`), and
//! only stream 0 is rasterized. GLSL ES has one stream, so a program whose geometry stage
//! emits to other streams is linked once per stream it emits to:
//!
//! - the program itself keeps stream 0: its geometry stage's emits and ends of other
//!   streams are removed ([`select_stream`]) and it captures stream 0's outputs;
//! - a *stream program* for each other stream `s` turns `s`'s emits and ends into plain
//!   `EmitVertex` / `EndPrimitive`, removes the rest, and captures `s`'s outputs into `s`'s
//!   buffers (their binding indices kept with `gl_NextBuffer` separators, [`varyings`]).
//!
//! A draw runs the program as usual, then, for each stream `s` that something observes (the
//! capture has buffers on `s`, or a query of `s` is active), draws again with `s`'s program
//! and rasterizer discard, into a native transform feedback object of `s`'s own, counting
//! with native queries that add to the stream's (`draw_streams`). Streams that nothing
//! observes cost nothing: their primitives would only be discarded. The program's own
//! stream-0 counting queries are split around the extra passes, as around captured draws
//! (`query.rs`), so they count stream 0 only.
//!
//! The geometry stage runs once per observed stream, so side effects of its own (image or
//! storage buffer writes, atomic counters) happen that many times; GL programs with
//! streams capture, they rarely write memory from the geometry stage.

use std::sync::Arc;

use glow::HasContext;
use tessera_wire::record::{MAX_XFB_BUFFERS, XfbOutput, XfbSource};

use crate::command::GlesContext;
use crate::device::GlesPipe;
use crate::query::release_parts;

/// GL's vertex streams (`MAX_VERTEX_STREAMS`).
pub(crate) const STREAMS: usize = 4;

const OP_DECORATE: u32 = 71;
const OP_MEMBER_DECORATE: u32 = 72;
const OP_CAPABILITY: u32 = 17;
const OP_CONSTANT: u32 = 43;
const OP_EMIT_VERTEX: u32 = 218;
const OP_END_PRIMITIVE: u32 = 219;
const OP_EMIT_STREAM_VERTEX: u32 = 220;
const OP_END_STREAM_PRIMITIVE: u32 = 221;
const CAP_GEOMETRY_STREAMS: u32 = 54;
const DECORATION_STREAM: u32 = 29;
const DECORATION_LOCATION: u32 = 30;

/// The instructions of a module, past its header.
fn instructions(words: &[u32]) -> impl Iterator<Item = &[u32]> {
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
}

fn opcode(i: &[u32]) -> u32 {
    i[0] & 0xffff
}

/// The value of each 32-bit `OpConstant`, by result id.
fn constants(words: &[u32]) -> std::collections::HashMap<u32, u32> {
    instructions(words)
        .filter(|i| opcode(i) == OP_CONSTANT && i.len() == 4)
        .map(|i| (i[2], i[3]))
        .collect()
}

/// The streams a geometry stage emits to (bit `n`: stream `n`). Stream operands are
/// constant integral expressions (GLSL requires it), so each is an `OpConstant`.
pub(crate) fn emitted(words: &[u32]) -> u8 {
    let values = constants(words);
    instructions(words)
        .filter(|i| opcode(i) == OP_EMIT_STREAM_VERTEX && i.len() == 2)
        .filter_map(|i| values.get(&i[1]))
        .filter(|&&v| (v as usize) < STREAMS)
        .fold(0, |m, &v| m | 1 << v)
}

/// The geometry stage for stream `s`: its emits and ends of `s` become plain ones, those of
/// other streams are removed, and the `GeometryStreams` capability and `Stream`
/// decorations go (GLSL ES has neither).
pub(crate) fn select_stream(words: &[u32], s: u32) -> Vec<u32> {
    let values = constants(words);
    let mut out = words[..5.min(words.len())].to_vec();
    for i in instructions(words) {
        match opcode(i) {
            OP_CAPABILITY if i.get(1) == Some(&CAP_GEOMETRY_STREAMS) => {}
            OP_DECORATE if i.get(2) == Some(&DECORATION_STREAM) => {}
            OP_MEMBER_DECORATE if i.get(3) == Some(&DECORATION_STREAM) => {}
            op @ (OP_EMIT_STREAM_VERTEX | OP_END_STREAM_PRIMITIVE) => {
                if i.get(1).and_then(|id| values.get(id)) == Some(&s) {
                    let plain = if op == OP_EMIT_STREAM_VERTEX {
                        OP_EMIT_VERTEX
                    } else {
                        OP_END_PRIMITIVE
                    };
                    out.push(1 << 16 | plain);
                }
            }
            _ => out.extend_from_slice(i),
        }
    }
    out
}

/// The stream of each output location of a geometry stage (outputs without a `Stream`
/// decoration are stream 0's): `(location, stream)`.
pub(crate) fn location_streams(words: &[u32]) -> Vec<(u32, u8)> {
    let mut locations = Vec::new();
    let mut streams = Vec::new();
    let mut member_locations = Vec::new();
    let mut member_streams = Vec::new();
    for i in instructions(words) {
        match opcode(i) {
            OP_DECORATE if i.len() >= 4 => match i[2] {
                DECORATION_LOCATION => locations.push((i[1], i[3])),
                DECORATION_STREAM => streams.push((i[1], i[3] as u8)),
                _ => {}
            },
            OP_MEMBER_DECORATE if i.len() >= 5 => match i[3] {
                DECORATION_LOCATION => member_locations.push(((i[1], i[2]), i[4])),
                DECORATION_STREAM => member_streams.push(((i[1], i[2]), i[4] as u8)),
                _ => {}
            },
            _ => {}
        }
    }
    let stream_of = |id| streams.iter().find(|(v, _)| *v == id).map_or(0, |s| s.1);
    let member_stream_of = |key| {
        member_streams
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(0, |s| s.1)
    };
    locations
        .iter()
        .map(|&(id, l)| (l, stream_of(id)))
        .chain(
            member_locations
                .iter()
                .map(|&(key, l)| (l, member_stream_of(key))),
        )
        .collect()
}

/// The stream each transform feedback buffer captures: that of its first captured
/// output (GL's link refuses buffers with outputs of two streams); 0 without any.
pub(crate) fn buffer_streams(xfb: &[XfbOutput], streams: &[(u32, u8)]) -> [u8; MAX_XFB_BUFFERS] {
    let mut out = [0; MAX_XFB_BUFFERS];
    for (b, stream) in out.iter_mut().enumerate() {
        *stream = xfb
            .iter()
            .filter(|o| usize::from(o.buffer) == b)
            .find_map(|o| match o.source {
                XfbSource::Location(l) => {
                    Some(streams.iter().find(|(at, _)| l == *at).map_or(0, |s| s.1))
                }
                XfbSource::Skip(_) => None,
                _ => Some(0),
            })
            .unwrap_or(0);
    }
    out
}

/// What stream `s`'s program captures: the outputs of the buffers on `s`, in their buffers
/// (interleaved, a `gl_NextBuffer` before each further buffer), or `None` when no buffer
/// captures `s`. Also the mask of those buffers.
pub(crate) fn varyings(
    xfb: &[XfbOutput],
    buffers: &[u8; MAX_XFB_BUFFERS],
    s: u8,
) -> (Option<(Vec<String>, u32)>, u8) {
    let mut names = Vec::new();
    let mut mask = 0u8;
    let mut next = 0;
    for (b, &stream) in buffers.iter().enumerate() {
        let outputs: Vec<&XfbOutput> = xfb
            .iter()
            .filter(|o| usize::from(o.buffer) == b && !matches!(o.source, XfbSource::Skip(0)))
            .collect();
        if stream != s || outputs.is_empty() {
            continue;
        }
        names.extend((next..b).map(|_| "gl_NextBuffer".to_owned()));
        next = b;
        mask |= 1 << b;
        let renumbered: Vec<XfbOutput> = outputs
            .iter()
            .map(|o| XfbOutput {
                source: o.source,
                buffer: 0,
            })
            .collect();
        if let Some((n, _)) = crate::xfb::varyings(&renumbered) {
            names.extend(n);
        }
    }
    if names.is_empty() {
        (None, 0)
    } else {
        (Some((names, glow::INTERLEAVED_ATTRIBS)), mask)
    }
}

/// A program's stream programs (streams 1 to 3; the program itself is stream 0's).
#[derive(Debug)]
pub(crate) struct StreamPrograms {
    /// Each stream's native program (`None`: the geometry stage does not emit to it, or the
    /// driver refused the link, which was reported) and its `ts_lod_bias` location.
    pub programs: [Option<(glow::Program, Option<glow::UniformLocation>)>; STREAMS - 1],
    /// The stream each transform feedback buffer captures.
    pub buffers: [u8; MAX_XFB_BUFFERS],
    /// Bit `s`: some buffer captures stream `s`'s outputs.
    pub captures: u8,
}

/// A capture's native objects for streams 1 to 3 (the capture's own object is stream 0's).
#[derive(Debug, Default)]
pub(crate) struct StreamCapture {
    /// The native object, made at the first pass that captures the stream.
    pub native: Option<glow::TransformFeedback>,
    /// The primitives-written queries of its passes.
    pub written: Vec<Arc<glow::Query>>,
    /// The sum of `written`'s results, once asked for.
    pub primitives: Option<u64>,
}

/// Query kinds counted per stream: `PRIMITIVES_GENERATED`, then
/// `TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN`.
pub(crate) const GENERATED: usize = 0;
pub(crate) const WRITTEN: usize = 1;

impl GlesPipe {
    /// Whether `ctx`'s program, one with other vertex streams, captures stream 0 (`None`:
    /// no such program).
    pub(crate) fn captures_stream_zero(&self, ctx: &GlesContext) -> Option<bool> {
        let p = self.programs.get("Draw", ctx.desired.program?).ok()?;
        p.streams.as_ref().map(|s| s.captures & 1 != 0)
    }

    /// Whether a query of a stream above 0 is active.
    pub(crate) fn stream_queries_active(&self) -> bool {
        self.stream_queries.iter().flatten().any(Option::is_some)
    }

    /// The stream programs of `ctx`'s program when a draw must run some of them: the
    /// program emits to other streams and a capture or a stream query is active.
    pub(crate) fn observed_streams(&self, ctx: &GlesContext) -> Option<Arc<StreamPrograms>> {
        if ctx.xfb.is_none() && !self.stream_queries_active() {
            return None;
        }
        let p = self.programs.get("Draw", ctx.desired.program?).ok()?;
        p.streams.clone()
    }

    /// After a draw of `ctx` (its capture paused): draws again with each observed stream's
    /// program, `draw` making the same native draw call (module docs).
    pub(crate) fn draw_streams(
        &mut self,
        ctx: &mut GlesContext,
        streams: &StreamPrograms,
        draw: &dyn Fn(&glow::Context),
    ) {
        let Some(main) = ctx
            .desired
            .program
            .and_then(|h| self.programs.get("Draw", h).ok())
            .and_then(|p| p.native)
        else {
            return;
        };
        let capture = ctx.xfb;
        let mut suspended = false;
        for s in 1..STREAMS {
            let Some((program, lod_bias)) = streams.programs[s - 1] else {
                continue;
            };
            let captures = capture.is_some() && streams.captures & 1 << s != 0;
            let counting = self.stream_queries[s - 1];
            if !captures && counting.iter().all(Option::is_none) {
                continue;
            }
            if !suspended {
                self.suspend_counting();
                self.shadow
                    .enable(&self.gl, crate::shadow::Cap::RasterizerDiscard, true);
                suspended = true;
            }
            self.shadow.use_program(&self.gl, Some(program));
            if let Some(location) = lod_bias {
                let count = self
                    .programs
                    .get("Draw", ctx.desired.program.expect("checked above"))
                    .map_or(0, |p| p.sampler_targets.len());
                self.apply_lod_biases("Draw", ctx, (location, program), count);
            }
            self.stream_pass(ctx, streams, s, counting, draw);
        }
        if suspended {
            self.shadow.use_program(&self.gl, Some(main));
            self.shadow.enable(
                &self.gl,
                crate::shadow::Cap::RasterizerDiscard,
                ctx.raster.rasterizer_discard,
            );
            self.resume_counting();
        }
    }

    /// One stream's pass: its capture bound and resumed (made and begun on first use), its
    /// queries counting, the draw, then all paused again.
    fn stream_pass(
        &mut self,
        ctx: &GlesContext,
        streams: &StreamPrograms,
        s: usize,
        counting: [Option<tessera_wire::handle::QueryHandle>; 2],
        draw: &dyn Fn(&glow::Context),
    ) {
        let gl = &self.gl;
        let begin = |target| {
            // SAFETY: context current; no query of `target` is active (the program's own
            // are suspended, the passes' are ended before the next).
            unsafe {
                let q = gl.create_query().ok()?;
                gl.begin_query(target, q);
                Some(q)
            }
        };
        let generated = counting[GENERATED].and_then(|_| begin(glow::PRIMITIVES_GENERATED));
        let mut written = None;
        let capture = ctx
            .xfb
            .and_then(|h| self.xfbs.get_mut("Draw", h).ok())
            .and_then(|o| o.capture.as_mut());
        let mut capturing = false;
        if let Some(c) = capture
            && streams.captures & 1 << s != 0
        {
            let sc = &mut c.streams[s - 1];
            // SAFETY: context current; the stream's program is current and captures the
            // buffers bound here (their names live, ranges inside them); no other object is
            // active (the capture's own is paused and unbound after its draw).
            unsafe {
                match sc.native {
                    Some(tf) => {
                        gl.bind_transform_feedback(glow::TRANSFORM_FEEDBACK, Some(tf));
                        gl.resume_transform_feedback();
                        capturing = true;
                    }
                    None => {
                        if let Ok(tf) = gl.create_transform_feedback() {
                            gl.bind_transform_feedback(glow::TRANSFORM_FEEDBACK, Some(tf));
                            crate::xfb::bind_ranges(
                                gl,
                                &self.buffers,
                                &c.buffers,
                                &streams.buffers,
                                s as u8,
                            );
                            gl.begin_transform_feedback(c.mode);
                            sc.native = Some(tf);
                            capturing = true;
                        }
                    }
                }
            }
            if capturing {
                written = begin(glow::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
            }
            draw(gl);
            // SAFETY: context current; the queries begun above are the active ones of their
            // targets; the stream's object is bound and active.
            unsafe {
                if written.is_some() {
                    gl.end_query(glow::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
                }
                if capturing {
                    gl.pause_transform_feedback();
                    gl.bind_transform_feedback(glow::TRANSFORM_FEEDBACK, None);
                }
            }
            let written = written.map(Arc::new);
            if let Some(q) = &written {
                sc.written.push(q.clone());
                sc.primitives = None;
            }
            self.end_stream_queries(s, counting, generated, written);
            return;
        }
        draw(gl);
        self.end_stream_queries(s, counting, generated, None);
    }

    /// Ends a pass's generated query and hands both to the stream's queries.
    fn end_stream_queries(
        &mut self,
        s: usize,
        counting: [Option<tessera_wire::handle::QueryHandle>; 2],
        generated: Option<glow::Query>,
        written: Option<Arc<glow::Query>>,
    ) {
        if generated.is_some() {
            // SAFETY: context current; the pass's generated query is the active one.
            unsafe { self.gl.end_query(glow::PRIMITIVES_GENERATED) };
        }
        let generated = generated.map(Arc::new);
        for (kind, part) in [(GENERATED, generated), (WRITTEN, written)] {
            let query = counting[kind].and_then(|h| self.queries.get_mut("Draw", h).ok());
            match (query, part) {
                (Some(q), Some(part)) => q.parts.push(part),
                (None, Some(part)) => release_parts(&self.gl, vec![part]),
                _ => {}
            }
        }
        let _ = s;
    }

    /// Ends the program's active stream-0 counting queries, their counts kept as parts,
    /// so the stream passes do not add to them.
    fn suspend_counting(&mut self) {
        for (handle, target) in [
            (self.generated_query, glow::PRIMITIVES_GENERATED),
            (
                self.xfb_written_query,
                glow::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN,
            ),
        ] {
            if let Some(q) = handle.and_then(|h| self.queries.get_mut("Draw", h).ok())
                // SAFETY: context current.
                && let Ok(fresh) = unsafe { self.gl.create_query() }
            {
                // SAFETY: context current; the query is the active one of `target`.
                unsafe { self.gl.end_query(target) };
                let ended = std::mem::replace(&mut q.name, fresh);
                q.parts.push(Arc::new(ended));
            }
        }
    }

    /// Begins the fresh names of the queries [`suspend_counting`](Self::suspend_counting)
    /// ended.
    fn resume_counting(&mut self) {
        for (handle, target) in [
            (self.generated_query, glow::PRIMITIVES_GENERATED),
            (
                self.xfb_written_query,
                glow::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN,
            ),
        ] {
            if let Some(q) = handle.and_then(|h| self.queries.get("Draw", h).ok()) {
                // SAFETY: context current; no query of `target` is active, and the fresh
                // name was never begun.
                unsafe { self.gl.begin_query(target, q.name) };
            }
        }
    }

    /// Deletes a program's stream programs (their cache entry or program is gone).
    pub(crate) fn delete_stream_programs(&mut self, streams: Option<Arc<StreamPrograms>>) {
        let Some(streams) = streams else { return };
        for (p, _) in streams.programs.iter().flatten() {
            self.program_cache.lod_biases.remove(p);
            self.shadow.delete_program(&self.gl, *p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `layout(points) in; layout(points, max_vertices = 4) out;` with outputs at locations
    /// 0 (stream 0), 1 (stream 1) and 2 (stream 2), emitting to streams 0, 1 and 2, as
    /// glslang writes it (the parts these passes read).
    fn module() -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 100, 0];
        let mut push = |op: u32, operands: &[u32]| {
            w.push(((operands.len() as u32 + 1) << 16) | op);
            w.extend_from_slice(operands);
        };
        push(OP_CAPABILITY, &[2]);
        push(OP_CAPABILITY, &[CAP_GEOMETRY_STREAMS]);
        for (var, l, s) in [(10, 0, 0), (11, 1, 1), (12, 2, 2)] {
            push(OP_DECORATE, &[var, DECORATION_LOCATION, l]);
            push(OP_DECORATE, &[var, DECORATION_STREAM, s]);
        }
        push(OP_CONSTANT, &[1, 20, 0]);
        push(OP_CONSTANT, &[1, 21, 1]);
        push(OP_CONSTANT, &[1, 22, 2]);
        push(OP_EMIT_STREAM_VERTEX, &[20]);
        push(OP_END_STREAM_PRIMITIVE, &[20]);
        push(OP_EMIT_STREAM_VERTEX, &[21]);
        push(OP_EMIT_STREAM_VERTEX, &[22]);
        w
    }

    fn ops(words: &[u32]) -> Vec<u32> {
        instructions(words).map(opcode).collect()
    }

    #[test]
    fn emitted_streams_are_found() {
        assert_eq!(emitted(&module()), 0b111);
    }

    #[test]
    fn a_stream_keeps_its_emits_only() {
        let zero = select_stream(&module(), 0);
        let tail: Vec<u32> = ops(&zero).into_iter().rev().take(2).collect();
        assert_eq!(tail, [OP_END_PRIMITIVE, OP_EMIT_VERTEX]);
        assert!(!ops(&zero).contains(&OP_EMIT_STREAM_VERTEX));
        assert!(!zero.contains(&CAP_GEOMETRY_STREAMS));
        let two = select_stream(&module(), 2);
        let emits = ops(&two).iter().filter(|&&o| o == OP_EMIT_VERTEX).count();
        assert_eq!(emits, 1);
        assert!(!ops(&two).contains(&OP_END_PRIMITIVE));
        assert_eq!(emitted(&two), 0);
    }

    #[test]
    fn buffers_take_their_outputs_stream() {
        let streams = location_streams(&module());
        assert_eq!(streams, [(0, 0), (1, 1), (2, 2)]);
        let out = |l, buffer| XfbOutput {
            source: XfbSource::Location(l),
            buffer,
        };
        let xfb = [out(0, 0), out(1, 1), out(2, 2), out(1, 3)];
        let buffers = buffer_streams(&xfb, &streams);
        assert_eq!(buffers, [0, 1, 2, 1]);
        let (one, mask) = varyings(&xfb, &buffers, 1);
        let (names, mode) = one.unwrap();
        assert_eq!(
            names,
            [
                "gl_NextBuffer",
                "ts_io1",
                "gl_NextBuffer",
                "gl_NextBuffer",
                "ts_io1"
            ]
        );
        assert_eq!((mode, mask), (glow::INTERLEAVED_ATTRIBS, 0b1010));
        assert_eq!(varyings(&xfb, &buffers, 3), (None, 0));
    }
}

//! Transform feedback the shader lays out itself (GL 4.4, `ARB_enhanced_layouts`): a last
//! stage before rasterization that uses any of the `xfb_buffer`, `xfb_offset` and
//! `xfb_stride` qualifiers is in capturing mode (GLSL 4.40 §4.4.2.1) and captures exactly
//! the outputs it gives an `xfb_offset`; the names `glTransformFeedbackVaryings` gave are
//! ignored (GL 4.4 §11.1.2.1).
//!
//! glslang already writes what Vulkan captures by into the SPIR-V: `ExecutionMode Xfb` on
//! any module that uses the qualifiers, `XfbBuffer` and `XfbStride` on each output that
//! names a buffer, `Offset` on each output (or block member) with an offset, members of a
//! block given offsets after the first one's. So this pass reads the layout back rather than
//! making it, and lists the captured varyings as Mesa's linker does: ordered by buffer, then
//! offset; a member of a block with an instance name as `Block.member`, of one without as
//! `member`; built-ins of a redeclared `gl_PerVertex` by their names.
//!
//! A member of a user output block is captured as a requested member is (see the parent
//! module): an output of its own past every other location, copied from the member before
//! each vertex is emitted, carries the block's decorations, which the block itself loses, so
//! a backend that names captured outputs to its driver names it by its location. Members of
//! block arrays and outputs of structure type are refused at link with a log saying so.

use super::{
    BUILT_IN_CLIP_DISTANCE, BUILT_IN_LAYER, BUILT_IN_POINT_SIZE, BUILT_IN_POSITION,
    BUILT_IN_PRIMITIVE_ID, BUILT_IN_VIEWPORT_INDEX, DECO_STREAM, DECO_XFB_BUFFER, DECO_XFB_STRIDE,
    Found, MAX_INTERLEAVED_COMPONENTS, MAX_SEPARATE_ATTRIBS, MODE_XFB, OP_EXECUTION_MODE, Shadow,
    Xfb, XfbSource, XfbVarying, copy_members, describe, free_location,
};
use crate::edit::{Editor, inst, op, opcode};
use crate::spirv::{Module, Type, deco, instructions, storage};

/// Whether the module declares its own capture: glslang marks every module that uses an
/// `xfb_*` qualifier with `ExecutionMode Xfb` (Mesa's `has_xfb_qualifiers`).
pub(crate) fn declares(words: &[u32]) -> bool {
    instructions(words)
        .any(|i| i.is_ok_and(|(_, o, w)| o == OP_EXECUTION_MODE && w.get(2) == Some(&MODE_XFB)))
}

/// The capture source and GL name of a built-in.
fn builtin(b: u32) -> Option<(XfbSource, &'static str)> {
    Some(match b {
        BUILT_IN_POSITION => (XfbSource::Position, "gl_Position"),
        BUILT_IN_POINT_SIZE => (XfbSource::PointSize, "gl_PointSize"),
        BUILT_IN_CLIP_DISTANCE => (XfbSource::ClipDistance, "gl_ClipDistance"),
        BUILT_IN_LAYER => (XfbSource::Layer, "gl_Layer"),
        BUILT_IN_VIEWPORT_INDEX => (XfbSource::ViewportIndex, "gl_ViewportIndex"),
        BUILT_IN_PRIMITIVE_ID => (XfbSource::PrimitiveId, "gl_PrimitiveID"),
        _ => return None,
    })
}

/// One captured output before ordering.
struct Entry {
    varying: XfbVarying,
    found: Found,
    stream: u32,
}

/// Reads the layout the stage declares (see the module docs), moves captured members of
/// user blocks to outputs of their own, and returns the SPIR-V with what it captures; `Err`
/// is the link log.
pub(crate) fn layout(words: &[u32]) -> Result<(Vec<u32>, Xfb), String> {
    let malformed = || "error: internal error: malformed SPIR-V\n".to_string();
    let m = Module::parse(words.to_vec()).map_err(|_| malformed())?;
    let mut e = Editor::parse(words).map_err(|_| malformed())?;
    let mut next_location = free_location(&m);
    let mut entries: Vec<Entry> = Vec::new();
    // Block variables whose members moved to outputs of their own, and those members.
    let mut moved_blocks: Vec<u32> = Vec::new();
    let mut moved_members: Vec<(u32, u32)> = Vec::new();
    let mut strides = [0u32; MAX_SEPARATE_ATTRIBS as usize];
    let uncapturable = |name: &str| {
        format!("error: Transform feedback varying {name} has a type that cannot be captured.\n")
    };
    for v in m.vars(storage::OUTPUT) {
        let buffer = m.decoration(v.id, DECO_XFB_BUFFER).unwrap_or(0);
        let var_stream = m.decoration(v.id, DECO_STREAM).unwrap_or(0);
        let block = match m.ty(m.strip_arrays(v.ty)) {
            Some(Type::Struct { members }) => Some((m.strip_arrays(v.ty), members.clone())),
            _ => None,
        };
        let mut captures_here = false;
        match block {
            Some((st, members)) => {
                let offsets: Vec<(u32, u32)> = (0..members.len() as u32)
                    .filter_map(|i| m.member_decoration(st, i, deco::OFFSET).map(|o| (i, o)))
                    .collect();
                let whole = m.decoration(v.id, deco::OFFSET).is_some();
                if offsets.is_empty() && !whole {
                    continue;
                }
                if whole || m.decoration(st, deco::BLOCK).is_none() || st != v.ty {
                    let name = m.name(v.id);
                    return Err(format!(
                        "error: capturing `{name}' with xfb_offset is not supported: declare \
                         its members as outputs of their own\n"
                    ));
                }
                let instance = m.name(v.id);
                for (i, offset) in offsets {
                    let ty = members[i as usize];
                    let stream = m
                        .member_decoration(st, i, DECO_STREAM)
                        .unwrap_or(var_stream);
                    let member_builtin = m
                        .member_decoration(st, i, deco::BUILT_IN)
                        .map(|b| builtin(b).ok_or_else(|| uncapturable(m.member_name(st, i))))
                        .transpose()?;
                    let (source, name, found_var, member, shadow) = match member_builtin {
                        Some((source, name)) => {
                            (source, name.to_owned(), v.id, Some((st, i)), None)
                        }
                        None => {
                            let member_name = m.member_name(st, i);
                            let name = if instance.is_empty() {
                                member_name.to_owned()
                            } else {
                                format!("{}.{member_name}", m.name(st))
                            };
                            let pointer = e.pointer(storage::OUTPUT, ty);
                            let own = e.fresh();
                            e.global(inst(op::VARIABLE, &[pointer, own, storage::OUTPUT]));
                            e.annotate(inst(op::DECORATE, &[own, deco::LOCATION, next_location]));
                            if stream != 0 {
                                e.annotate(inst(op::DECORATE, &[own, DECO_STREAM, stream]));
                            }
                            e.add_interface(own);
                            let source = XfbSource::Location(next_location);
                            next_location += m.slots(ty);
                            moved_members.push((st, i));
                            if !moved_blocks.contains(&v.id) {
                                moved_blocks.push(v.id);
                            }
                            let shadow = Shadow {
                                block: v.id,
                                path: vec![i],
                                ty,
                            };
                            (source, name, own, None, Some(shadow))
                        }
                    };
                    let (gl, size, components) =
                        describe(&m, ty).ok_or_else(|| uncapturable(&name))?;
                    entries.push(Entry {
                        varying: XfbVarying {
                            name,
                            ty: gl,
                            size,
                            source,
                            buffer,
                            offset,
                            components,
                            element: None,
                        },
                        found: Found {
                            var: found_var,
                            member,
                            source,
                            ty: gl,
                            size,
                            components,
                            array: m.array(ty).is_some(),
                            shadow,
                        },
                        stream,
                    });
                    captures_here = true;
                }
            }
            None => {
                let Some(offset) = m.decoration(v.id, deco::OFFSET) else {
                    continue;
                };
                let (source, name) = match m.decoration(v.id, deco::BUILT_IN) {
                    Some(b) => {
                        let (source, name) =
                            builtin(b).ok_or_else(|| uncapturable(m.name(v.id)))?;
                        (source, name.to_owned())
                    }
                    None => {
                        let location = m
                            .decoration(v.id, deco::LOCATION)
                            .ok_or_else(|| uncapturable(m.name(v.id)))?;
                        (XfbSource::Location(location), m.name(v.id).to_owned())
                    }
                };
                let (gl, size, components) =
                    describe(&m, v.ty).ok_or_else(|| uncapturable(&name))?;
                entries.push(Entry {
                    varying: XfbVarying {
                        name,
                        ty: gl,
                        size,
                        source,
                        buffer,
                        offset,
                        components,
                        element: None,
                    },
                    found: Found {
                        var: v.id,
                        member: None,
                        source,
                        ty: gl,
                        size,
                        components,
                        array: m.array(v.ty).is_some(),
                        shadow: None,
                    },
                    stream: var_stream,
                });
                captures_here = true;
            }
        }
        if captures_here {
            if buffer >= MAX_SEPARATE_ATTRIBS {
                return Err("error: Too many transform feedback buffers.\n".into());
            }
            let stride = m.decoration(v.id, DECO_XFB_STRIDE).unwrap_or(0);
            let b = &mut strides[buffer as usize];
            *b = (*b).max(stride);
        }
    }
    // Mesa's order: by buffer, then offset.
    entries.sort_by_key(|en| (en.varying.buffer, en.varying.offset));
    let mut out = Xfb {
        declared: true,
        ..Xfb::default()
    };
    for en in &entries {
        let b = en.varying.buffer as usize;
        let end = en.varying.offset + en.varying.components * 4;
        // A buffer whose stride glslang left out ends at its last captured byte.
        strides[b] = strides[b].max(end);
    }
    if strides.iter().any(|s| s / 4 > MAX_INTERLEAVED_COMPONENTS) {
        return Err(
            "error: The MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS limit has been exceeded.\n"
                .into(),
        );
    }
    // Each buffer captures one vertex stream (Mesa's link error, as for requested names).
    let mut stream_of: [Option<u32>; MAX_SEPARATE_ATTRIBS as usize] = [None; 4];
    for en in &entries {
        let b = en.varying.buffer as usize;
        match stream_of[b] {
            Some(s) if s != en.stream => {
                return Err(format!(
                    "error: Transform feedback can't capture varyings belonging to different \
                     vertex streams in a single buffer. Varying {} writes to buffer from \
                     stream {}, other varyings in the same buffer write from stream {s}.\n",
                    en.varying.name, en.stream
                ));
            }
            _ => stream_of[b] = Some(en.stream),
        }
    }
    out.streams = stream_of.map(|s| s.unwrap_or(0));
    for (b, s) in strides.iter().enumerate() {
        if stream_of[b].is_some() {
            out.strides[b] = *s;
        }
    }
    let found: Vec<&Found> = entries.iter().map(|en| &en.found).collect();
    copy_members(&mut e, &m, &found);
    // The moved members' own outputs carry the capture; the blocks no longer do. Outputs
    // that name a buffer without an offset capture nothing and lose the buffer too.
    let captured_vars: Vec<u32> = entries.iter().map(|en| en.found.var).collect();
    e.insts.retain(|i| match opcode(i) {
        op::MEMBER_DECORATE => {
            !(i.len() >= 4 && i[3] == deco::OFFSET && moved_members.contains(&(i[1], i[2])))
        }
        op::DECORATE => {
            !(i.len() >= 3
                && matches!(i[2], DECO_XFB_BUFFER | DECO_XFB_STRIDE)
                && (moved_blocks.contains(&i[1]) || !captured_vars.contains(&i[1])))
        }
        _ => true,
    });
    for en in entries.iter().filter(|en| en.found.shadow.is_some()) {
        let (var, v) = (en.found.var, &en.varying);
        let stride = out.strides[v.buffer as usize];
        e.annotate(inst(op::DECORATE, &[var, DECO_XFB_BUFFER, v.buffer]));
        e.annotate(inst(op::DECORATE, &[var, DECO_XFB_STRIDE, stride]));
        e.annotate(inst(op::DECORATE, &[var, deco::OFFSET, v.offset]));
    }
    out.varyings = entries.into_iter().map(|en| en.varying).collect();
    Ok((e.finish(), out))
}

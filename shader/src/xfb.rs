//! Transform feedback at link (GL 3.3 §2.17): the varyings `glTransformFeedbackVaryings`
//! named are found among the outputs of the last stage before rasterization (the geometry
//! stage if there is one, else the vertex stage), laid out in their buffers, and written
//! into that stage's SPIR-V as Vulkan captures them: `Capability TransformFeedback`,
//! `ExecutionMode Xfb`, and `XfbBuffer`/`XfbStride`/`Offset` on each captured output (on
//! the `gl_PerVertex` block and its members for built-ins).
//!
//! Layout: in `INTERLEAVED_ATTRIBS` mode every varying goes to buffer 0, one after the other
//! in request order, and a vertex takes the sum of their sizes; GL 4.0's
//! `gl_SkipComponents1`..`4` leave that many components unwritten and `gl_NextBuffer` moves
//! the varyings after it to the next buffer (`ARB_transform_feedback3`); in
//! `SEPARATE_ATTRIBS` mode varying `i` goes alone to buffer `i`. Every component is 4 bytes (GL 3.3 captures no
//! doubles before GL 4.0).
//!
//! A captured output is one SPIR-V variable (or one member of the built-in block), which
//! Vulkan captures whole: so requests for elements of an array (`v[0]`, `v[1]`, ...) are
//! captured when they name every element, in order, one after the other in one buffer
//! (the whole array, laid out as they ask); any other request for elements (`v[1]` alone,
//! `gl_ClipDistance[2]`) is refused at link with a log that says so. Built-ins captured in
//! separate mode must go to one buffer (the block has one `XfbBuffer`). Both are rare in
//! GL 3.x programs; a request GL would refuse (an unknown name, a name given twice, a limit
//! exceeded) fails the link with Mesa's wording.
//!
//! Members of output interface blocks are named as GLSL 1.50 §4.3.7 says the API names
//! them: `a` for a member of a block without instance name, `Block.c` for a member of a
//! block with one (the block name, never the instance name), `Block[1].e` for a member of
//! an element of a block array, and `Block[1].g[2]` for an element of an array member.
//! Vulkan captures a block member only whole and only with its block's one `XfbBuffer`, and
//! the elements of a block array go to consecutive buffers: none of that fits GL's layouts.
//! So each requested member (or element) gets an output of its own, at a location past
//! every other output (no later stage reads it), and the stage copies the member into it
//! before each `OpEmitVertex` (geometry) or return of `main` (vertex); that output is the
//! one decorated and captured, and the record names it by its location like any user
//! output. A block the stage never writes has no location and nothing is copied: GL leaves
//! such a capture undefined.

mod declared;

pub(crate) use declared::{declares, layout as declared_layout};

use crate::edit::{Editor, inst, op, opcode};
use crate::gltype::{self, Base};
use crate::spirv::{Module, Type, deco, storage};

/// `MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS`, as the engine reports it (Mesa's 64).
pub const MAX_INTERLEAVED_COMPONENTS: u32 = 64;
/// `MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS` (GL's minimum, and Mesa's 4).
pub const MAX_SEPARATE_ATTRIBS: u32 = 4;
/// `MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS` (GL's minimum, and Mesa's 4).
pub const MAX_SEPARATE_COMPONENTS: u32 = 4;

/// `Capability TransformFeedback`.
const CAPABILITY_TRANSFORM_FEEDBACK: u32 = 53;
/// `ExecutionMode Xfb`.
const MODE_XFB: u32 = 11;
/// `OpExecutionMode`.
const OP_EXECUTION_MODE: u16 = 16;
/// `Decoration XfbBuffer`.
const DECO_XFB_BUFFER: u32 = 36;
/// `Decoration XfbStride`.
const DECO_XFB_STRIDE: u32 = 37;
/// `Decoration Stream`: the vertex stream of a geometry stage's output (none: stream 0).
const DECO_STREAM: u32 = 29;
/// `BuiltIn Position`, `PointSize`, `ClipDistance`, `PrimitiveId`, `Layer`,
/// `ViewportIndex`.
const BUILT_IN_POSITION: u32 = 0;
const BUILT_IN_POINT_SIZE: u32 = 1;
const BUILT_IN_CLIP_DISTANCE: u32 = 3;
const BUILT_IN_PRIMITIVE_ID: u32 = 7;
const BUILT_IN_LAYER: u32 = 9;
const BUILT_IN_VIEWPORT_INDEX: u32 = 10;

/// Where a captured varying comes from in the stage's interface.
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum XfbSource {
    /// A user output at this `Location` (a whole variable; for a block member, the output
    /// of its own that the capture adds).
    Location(u32),
    /// `gl_Position`.
    Position,
    /// `gl_PointSize`.
    PointSize,
    /// The whole `gl_ClipDistance` array.
    ClipDistance,
    /// `gl_Layer`.
    Layer,
    /// `gl_ViewportIndex`.
    ViewportIndex,
    /// `gl_PrimitiveID` (a geometry shader's output).
    PrimitiveId,
    /// `gl_SkipComponents1`..`4` (the components skipped), or `gl_NextBuffer` (0): GL 4.0's
    /// layout names of interleaved capture, which capture nothing.
    Skip(u32),
}

/// The components `gl_SkipComponents1`..`4` skip, 0 for `gl_NextBuffer` (`None`: another
/// name).
pub fn layout_name(name: &str) -> Option<u32> {
    match name {
        "gl_NextBuffer" => Some(0),
        "gl_SkipComponents1" => Some(1),
        "gl_SkipComponents2" => Some(2),
        "gl_SkipComponents3" => Some(3),
        "gl_SkipComponents4" => Some(4),
        _ => None,
    }
}

/// One captured varying.
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct XfbVarying {
    /// The name as requested (`glGetTransformFeedbackVarying` reports it).
    pub name: String,
    /// GL type enum.
    pub ty: u32,
    /// Array size (1 for non-arrays).
    pub size: i32,
    /// Where it comes from.
    pub source: XfbSource,
    /// Buffer binding index it is written to.
    pub buffer: u32,
    /// Byte offset in a vertex's record of that buffer.
    pub offset: u32,
    /// Components captured (`size` times the type's).
    pub components: u32,
    /// For a request of one element of an array (`v[k]`): `k`. Only a request of every
    /// element, in order and one after the other, is captured: it is the whole array,
    /// which the request of element 0 stands for on the wire.
    pub element: Option<u32>,
}

/// What a program captures.
#[derive(
    rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Clone, Debug, Default, PartialEq, Eq,
)]
pub struct Xfb {
    /// Captured varyings, in request order.
    pub varyings: Vec<XfbVarying>,
    /// `SEPARATE_ATTRIBS` (else interleaved).
    pub separate: bool,
    /// Bytes per vertex in each buffer (0: the buffer is not written).
    pub strides: [u32; MAX_SEPARATE_ATTRIBS as usize],
    /// The vertex stream each buffer captures (0 for a buffer not written, as Mesa keeps
    /// it): `glDrawTransformFeedbackStream` draws the count of the first buffer of its
    /// stream.
    pub streams: [u32; MAX_SEPARATE_ATTRIBS as usize],
    /// Laid out by the shader's own `xfb_buffer`/`xfb_offset`/`xfb_stride` qualifiers (GL
    /// 4.4, `declared.rs`): `varyings` are ordered by buffer and offset, and the bytes
    /// between them (and up to each stride) are left unwritten.
    pub declared: bool,
}

impl Xfb {
    /// The captured outputs as a driver that takes names captures them: each with its
    /// buffer, in interleaved order. A declared layout's gaps become `gl_SkipComponents`
    /// runs (every offset is a multiple of 4) and its moves to a later buffer
    /// `gl_NextBuffer`s, so such a driver writes the bytes the qualifiers place; an array
    /// requested element by element is its element 0.
    pub fn outputs(&self) -> Vec<(XfbSource, u32)> {
        if !self.declared {
            return self
                .varyings
                .iter()
                .filter(|v| v.element.is_none_or(|k| k == 0))
                .map(|v| (v.source, v.buffer))
                .collect();
        }
        let mut out = Vec::new();
        let skip = |out: &mut Vec<(XfbSource, u32)>, buffer: u32, mut at: u32, to: u32| {
            while at + 4 <= to {
                let n = ((to - at) / 4).min(4);
                out.push((XfbSource::Skip(n), buffer));
                at += n * 4;
            }
        };
        let mut current = 0;
        for (b, &stride) in self.strides.iter().enumerate() {
            let b = b as u32;
            if stride == 0 {
                continue;
            }
            while current < b {
                current += 1;
                out.push((XfbSource::Skip(0), current));
            }
            let mut at = 0;
            for v in self.varyings.iter().filter(|v| v.buffer == b) {
                skip(&mut out, b, at, v.offset);
                out.push((v.source, b));
                at = v.offset + v.components * 4;
            }
            skip(&mut out, b, at, stride);
        }
        out
    }
}

/// A member of a block: its struct type and index.
type Member = (u32, u32);

/// A captured block member: the block variable and the literal indices of the access
/// chain to the value (block array element, member, member array element).
struct Shadow {
    block: u32,
    path: Vec<u32>,
    /// The value's SPIR-V type.
    ty: u32,
}

/// A resolved request before layout: the variable (or block variable and member).
struct Found {
    var: u32,
    member: Option<Member>,
    source: XfbSource,
    ty: u32,
    size: i32,
    components: u32,
    /// Whether the value is an array.
    array: bool,
    /// For a block member, where `var` (its own output) copies it from.
    shadow: Option<Shadow>,
}

/// The GL type and component count of a scalar, vector or matrix SPIR-V type.
fn gl_type(m: &Module, ty: u32) -> Option<(u32, u32)> {
    let (scalar, rows, columns) = match m.ty(ty)? {
        Type::Vector { component, count } => (*component, *count, 1),
        Type::Matrix { column, count } => match m.ty(*column)? {
            Type::Vector {
                component,
                count: rows,
            } => (*component, *rows, *count),
            _ => return None,
        },
        _ => (ty, 1, 1),
    };
    let base = match m.ty(scalar)? {
        Type::Float { width: 32 } => Base::Float,
        Type::Int {
            width: 32,
            signed: true,
        } => Base::Int,
        Type::Int {
            width: 32,
            signed: false,
        } => Base::Uint,
        _ => return None,
    };
    let gl = gltype::from_parts(base, rows as u8, columns as u8)?;
    Some((gl, rows * columns))
}

/// The GL type, array size and components of a captured value of `ty`.
fn describe(m: &Module, ty: u32) -> Option<(u32, i32, u32)> {
    match m.array(ty) {
        Some((element, length)) if length > 0 => {
            let (gl, n) = gl_type(m, element)?;
            Some((gl, length as i32, n * length))
        }
        Some(_) => None,
        None => {
            let (gl, n) = gl_type(m, ty)?;
            Some((gl, 1, n))
        }
    }
}

/// Finds a built-in output: a variable of its own, or a member of an output block (the
/// `gl_PerVertex` glslang declares). Returns the variable, the block's struct type and
/// member (for a member), and the value's type.
fn find_builtin(m: &Module, builtin: u32) -> Option<(u32, Option<Member>, u32)> {
    m.vars(storage::OUTPUT).find_map(|v| {
        if m.decoration(v.id, deco::BUILT_IN) == Some(builtin) {
            return Some((v.id, None, v.ty));
        }
        let Some(Type::Struct { members }) = m.ty(v.ty) else {
            return None;
        };
        members.iter().enumerate().find_map(|(i, mt)| {
            (m.member_decoration(v.ty, i as u32, deco::BUILT_IN) == Some(builtin)).then_some((
                v.id,
                Some((v.ty, i as u32)),
                *mt,
            ))
        })
    })
}

/// Resolves one requested name.
fn find(m: &Module, name: &str) -> Result<Found, String> {
    let builtin = match name {
        "gl_Position" => Some((BUILT_IN_POSITION, XfbSource::Position)),
        "gl_PointSize" => Some((BUILT_IN_POINT_SIZE, XfbSource::PointSize)),
        "gl_ClipDistance" => Some((BUILT_IN_CLIP_DISTANCE, XfbSource::ClipDistance)),
        "gl_Layer" => Some((BUILT_IN_LAYER, XfbSource::Layer)),
        "gl_ViewportIndex" => Some((BUILT_IN_VIEWPORT_INDEX, XfbSource::ViewportIndex)),
        "gl_PrimitiveID" => Some((BUILT_IN_PRIMITIVE_ID, XfbSource::PrimitiveId)),
        _ => None,
    };
    let undeclared = || format!("error: Transform feedback varying {name} undeclared.\n");
    if let Some((b, source)) = builtin {
        let (var, member, ty) = find_builtin(m, b).ok_or_else(undeclared)?;
        let (gl, size, components) = describe(m, ty).ok_or_else(undeclared)?;
        return Ok(Found {
            var,
            member,
            source,
            ty: gl,
            size,
            components,
            array: m.array(ty).is_some(),
            shadow: None,
        });
    }
    if name.contains('[') {
        return Err(undeclared());
    }
    let v = m
        .vars(storage::OUTPUT)
        .find(|v| m.name(v.id) == name && !m.is_builtin(v))
        .ok_or_else(undeclared)?;
    let location = m.decoration(v.id, deco::LOCATION).ok_or_else(undeclared)?;
    let (gl, size, components) = describe(m, v.ty).ok_or_else(|| {
        format!("error: Transform feedback varying {name} has a type that cannot be captured.\n")
    })?;
    Ok(Found {
        var: v.id,
        member: None,
        source: XfbSource::Location(location),
        ty: gl,
        size,
        components,
        array: m.array(v.ty).is_some(),
        shadow: None,
    })
}

/// Resolves a request of a member of an output interface block (see the module docs for
/// the names): the block variable, the access chain's literal indices and the value's
/// type. `None`: the name is no block member.
fn find_member(m: &Module, name: &str) -> Option<Shadow> {
    let (block, rest) = match name.split_once('.') {
        Some((b, r)) => (Some(b), r),
        None => (None, name),
    };
    let (member, element) = match element_of(rest) {
        Some((b, k)) => (b, Some(k)),
        None => (rest, None),
    };
    let (block, index) = match block.map(|b| element_of(b).ok_or(b)) {
        Some(Ok((b, i))) => (Some(b), Some(i)),
        Some(Err(b)) => (Some(b), None),
        None => (None, None),
    };
    let plain = |s: &str| !s.is_empty() && !s.contains(['[', ']', '.']);
    if !plain(member) || block.is_some_and(|b| !plain(b)) {
        return None;
    }
    m.vars(storage::OUTPUT)
        .filter(|v| !m.is_builtin(v))
        .find_map(|v| {
            let (st, length) = match m.array(v.ty) {
                Some((e, n)) => (e, Some(n)),
                None => (v.ty, None),
            };
            let Some(Type::Struct { members }) = m.ty(st) else {
                return None;
            };
            m.decoration(st, deco::BLOCK)?;
            let instance = m.name(v.id);
            match block {
                None if !instance.is_empty() || length.is_some() => return None,
                Some(b) if instance.is_empty() || m.name(st) != b => return None,
                _ => {}
            }
            let mut path = Vec::new();
            match (length, index) {
                (Some(n), Some(i)) if i < n => path.push(i),
                (None, None) => {}
                _ => return None,
            }
            let at = (0..members.len() as u32).find(|&i| m.member_name(st, i) == member)?;
            path.push(at);
            let mut ty = members[at as usize];
            if let Some(k) = element {
                let (e, n) = m.array(ty)?;
                if k >= n {
                    return None;
                }
                path.push(k);
                ty = e;
            }
            Some(Shadow {
                block: v.id,
                path,
                ty,
            })
        })
}

/// The first location past every output of the stage.
fn free_location(m: &Module) -> u32 {
    m.vars(storage::OUTPUT)
        .filter(|v| !m.is_builtin(v))
        .filter_map(|v| {
            let own = m.decoration(v.id, deco::LOCATION);
            let st = m.strip_arrays(v.ty);
            let members = match m.ty(st) {
                Some(Type::Struct { members }) => members.len() as u32,
                _ => 0,
            };
            let first = (0..members)
                .filter_map(|i| m.member_decoration(st, i, deco::LOCATION))
                .max();
            // A member's own location bounds the block's end loosely: past the block's
            // every slot.
            own.max(first).map(|l| l + m.slots(v.ty))
        })
        .max()
        .unwrap_or(0)
}

/// Whether the block variable has a location (the stage writes it).
fn located(m: &Module, var: u32, ty: u32) -> bool {
    let st = m.strip_arrays(ty);
    m.decoration(var, deco::LOCATION).is_some()
        || match m.ty(st) {
            Some(Type::Struct { members }) => (0..members.len() as u32)
                .any(|i| m.member_decoration(st, i, deco::LOCATION).is_some()),
            _ => false,
        }
}

/// `v[k]` as `("v", k)`.
fn element_of(name: &str) -> Option<(&str, u32)> {
    let (base, rest) = name.split_once('[')?;
    let k = rest.strip_suffix(']')?;
    if k.is_empty() || !k.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((base, k.parse().ok()?))
}

/// Resolves the request `names[at]`, element `k` of the array `base`: one element of the
/// whole array captured by the requests of all its elements, in order, from `names[at -
/// k]` on. The result describes the element (its type, size 1, its components).
fn find_element(
    m: &Module,
    names: &[String],
    at: usize,
    base: &str,
    k: u32,
    separate: bool,
) -> Result<Found, String> {
    let name = &names[at];
    let undeclared = || format!("error: Transform feedback varying {name} undeclared.\n");
    let whole = find(m, base).map_err(|_| undeclared())?;
    let length = whole.size.max(1) as u32;
    if k >= length || !whole.array {
        return Err(undeclared());
    }
    let start = at.checked_sub(k as usize);
    let all_in_order = !separate
        && start.is_some_and(|s| {
            (0..length).all(|j| names.get(s + j as usize) == Some(&format!("{base}[{j}]")))
        });
    if !all_in_order {
        return Err(format!(
            "error: capturing some elements of the array `{base}' is not supported: capture \
             all of them, in order, one after the other (or the whole array)\n"
        ));
    }
    Ok(Found {
        size: 1,
        components: whole.components / length,
        ..whole
    })
}

/// Lays out the requested varyings of the last stage before rasterization and decorates
/// its SPIR-V; `Err` is the link log.
pub(crate) fn capture(
    words: &[u32],
    names: &[String],
    separate: bool,
) -> Result<(Vec<u32>, Xfb), String> {
    let m = Module::parse(words.to_vec())
        .map_err(|_| "error: internal error: malformed SPIR-V\n".to_string())?;
    if separate && names.len() > MAX_SEPARATE_ATTRIBS as usize {
        return Err(format!(
            "error: Too many transform feedback attributes (at most {MAX_SEPARATE_ATTRIBS}).\n"
        ));
    }
    let mut out = Xfb {
        separate,
        ..Xfb::default()
    };
    let mut e = Editor::parse(words).map_err(|_| "error: internal error: malformed SPIR-V\n")?;
    let mut next_location = free_location(&m);
    let mut found = Vec::new();
    // The buffer interleaved varyings go to: `gl_NextBuffer` moves it.
    let mut interleaved = 0u32;
    for (i, name) in names.iter().enumerate() {
        if let Some(skip) = layout_name(name) {
            if separate {
                return Err(format!(
                    "error: Transform feedback varying {name} undeclared.\n"
                ));
            }
            if skip == 0 {
                interleaved += 1;
                if interleaved >= MAX_SEPARATE_ATTRIBS {
                    return Err("error: Too many transform feedback buffers.\n".into());
                }
            }
            let offset = out.strides[interleaved as usize];
            out.strides[interleaved as usize] += skip * 4;
            out.varyings.push(XfbVarying {
                name: name.clone(),
                ty: 0,
                size: skip as i32,
                source: XfbSource::Skip(skip),
                buffer: interleaved,
                offset,
                components: skip,
                element: None,
            });
            found.push(None);
            continue;
        }
        if names[..i].contains(name) {
            return Err(format!(
                "error: Transform feedback varying `{name}' specified more than once.\n"
            ));
        }
        let (f, element) = if let Some(shadow) = find_member(&m, name) {
            let capturable = format!(
                "error: Transform feedback varying {name} has a type that cannot be captured.\n"
            );
            let (gl, size, components) = describe(&m, shadow.ty).ok_or(capturable)?;
            let pointer = e.pointer(storage::OUTPUT, shadow.ty);
            let var = e.fresh();
            e.global(inst(op::VARIABLE, &[pointer, var, storage::OUTPUT]));
            e.annotate(inst(op::DECORATE, &[var, deco::LOCATION, next_location]));
            if let Some(stream) = m.decoration(shadow.block, DECO_STREAM) {
                e.annotate(inst(op::DECORATE, &[var, DECO_STREAM, stream]));
            }
            e.add_interface(var);
            let location = next_location;
            next_location += m.slots(shadow.ty);
            let f = Found {
                var,
                member: None,
                source: XfbSource::Location(location),
                ty: gl,
                size,
                components,
                array: m.array(shadow.ty).is_some(),
                shadow: Some(shadow),
            };
            (f, None)
        } else {
            match element_of(name) {
                Some((base, k)) => (find_element(&m, names, i, base, k, separate)?, Some(k)),
                None => (find(&m, name)?, None),
            }
        };
        if separate && f.components > MAX_SEPARATE_COMPONENTS {
            return Err(format!(
                "error: Transform feedback varying {name} exceeds \
                 MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS.\n"
            ));
        }
        let buffer = if separate { i as u32 } else { interleaved };
        let offset = out.strides[buffer as usize];
        out.strides[buffer as usize] += f.components * 4;
        out.varyings.push(XfbVarying {
            name: name.clone(),
            ty: f.ty,
            size: f.size,
            source: f.source,
            buffer,
            offset,
            components: f.components,
            element,
        });
        found.push(Some(f));
    }
    if !separate
        && out
            .strides
            .iter()
            .any(|s| s / 4 > MAX_INTERLEAVED_COMPONENTS)
    {
        return Err(
            "error: The MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS limit has been exceeded.\n"
                .into(),
        );
    }
    // Each buffer captures one vertex stream (Mesa's link error, naming the first varying
    // of another stream).
    let mut stream_of: [Option<u32>; MAX_SEPARATE_ATTRIBS as usize] = [None; 4];
    for (f, v) in found.iter().zip(&out.varyings) {
        let Some(f) = f else { continue };
        let stream = match f.member {
            Some((st, member)) => m.member_decoration(st, member, DECO_STREAM),
            None => None,
        }
        .or_else(|| m.decoration(f.var, DECO_STREAM))
        .unwrap_or(0);
        match stream_of[v.buffer as usize] {
            Some(s) if s != stream => {
                return Err(format!(
                    "error: Transform feedback can't capture varyings belonging to different \
                     vertex streams in a single buffer. Varying {} writes to buffer from \
                     stream {stream}, other varyings in the same buffer write from stream {s}.\n",
                    v.name
                ));
            }
            _ => stream_of[v.buffer as usize] = Some(stream),
        }
    }
    out.streams = stream_of.map(|s| s.unwrap_or(0));
    // Built-ins share their block's one XfbBuffer.
    let mut block_buffer: Option<(u32, u32)> = None;
    let captured = || {
        found
            .iter()
            .zip(&out.varyings)
            .filter_map(|(f, v)| f.as_ref().map(|f| (f, v)))
    };
    for (f, v) in captured() {
        if f.member.is_some() {
            match block_buffer {
                Some((var, b)) if var == f.var && b != v.buffer => {
                    return Err(
                        "error: capturing built-ins into different buffers is not supported\n"
                            .into(),
                    );
                }
                _ => block_buffer = Some((f.var, v.buffer)),
            }
        }
    }
    let found: Vec<&Found> = found.iter().flatten().collect();
    copy_members(&mut e, &m, &found);
    e.capability(CAPABILITY_TRANSFORM_FEEDBACK);
    let (at, _, entry) = e
        .entry_point()
        .ok_or("error: internal error: no entry point\n")?;
    e.insts
        .insert(at + 1, inst(OP_EXECUTION_MODE, &[entry, MODE_XFB]));
    let mut decorated_vars: Vec<u32> = Vec::new();
    for (f, v) in captured() {
        if v.element.is_some_and(|k| k > 0) {
            // Captured with element 0, which decorates the whole array.
            continue;
        }
        let stride = out.strides[v.buffer as usize];
        if !decorated_vars.contains(&f.var) {
            e.annotate(inst(op::DECORATE, &[f.var, DECO_XFB_BUFFER, v.buffer]));
            e.annotate(inst(op::DECORATE, &[f.var, DECO_XFB_STRIDE, stride]));
            decorated_vars.push(f.var);
        }
        match f.member {
            Some((st, member)) => e.annotate(inst(
                op::MEMBER_DECORATE,
                &[st, member, deco::OFFSET, v.offset],
            )),
            None => e.annotate(inst(op::DECORATE, &[f.var, deco::OFFSET, v.offset])),
        }
    }
    Ok((e.finish(), out))
}

/// Copies each captured block member into its own output (see the module docs): before
/// every `OpEmitVertex` and `OpEmitStreamVertex` of a geometry stage, before every return of
/// a vertex stage's entry point.
fn copy_members(e: &mut Editor, m: &Module, found: &[&Found]) {
    const MODEL_GEOMETRY: u32 = 3;
    let shadows: Vec<(u32, &Shadow)> = found
        .iter()
        .filter_map(|f| f.shadow.as_ref().map(|s| (f.var, s)))
        .filter(|(_, s)| {
            m.vars(storage::OUTPUT)
                .any(|v| v.id == s.block && located(m, v.id, v.ty))
        })
        .collect();
    let Some((_, model, entry)) = e.entry_point() else {
        return;
    };
    if shadows.is_empty() {
        return;
    }
    // Declarations first: they move the instructions after them.
    let int = e.int();
    // (own output, pointer type, value type, access chain base and indices)
    let chains: Vec<(u32, u32, u32, Vec<u32>)> = shadows
        .iter()
        .map(|(var, s)| {
            let pointer = e.pointer(storage::OUTPUT, s.ty);
            let mut chain = vec![s.block];
            chain.extend(s.path.iter().map(|&k| e.constant(int, k)));
            (*var, pointer, s.ty, chain)
        })
        .collect();
    let mut sites = Vec::new();
    let mut in_entry = false;
    for (at, i) in e.insts.iter().enumerate() {
        match opcode(i) {
            op::FUNCTION => in_entry = i.get(2) == Some(&entry),
            op::FUNCTION_END => in_entry = false,
            op::EMIT_VERTEX | op::EMIT_STREAM_VERTEX if model == MODEL_GEOMETRY => sites.push(at),
            op::RETURN if model != MODEL_GEOMETRY && in_entry => sites.push(at),
            _ => {}
        }
    }
    for at in sites.into_iter().rev() {
        let mut code = Vec::new();
        for (var, pointer, ty, chain) in &chains {
            let (p, value) = (e.fresh(), e.fresh());
            let mut operands = vec![*pointer, p];
            operands.extend(chain);
            code.push(inst(op::ACCESS_CHAIN, &operands));
            code.push(inst(op::LOAD, &[*ty, value, p]));
            code.push(inst(op::STORE, &[*var, value]));
        }
        e.insert(at, code);
    }
}

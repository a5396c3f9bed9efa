//! Arrays of interface blocks whose members carry interpolation qualifiers, between the
//! fragment stage and the stage before it, passed through plain variables.
//!
//! Mesa's SPIR-V front end (lavapipe's, and every Mesa Vulkan driver's) keeps a block
//! member's `Flat`, `NoPerspective`, `Centroid` or `Sample` only when the interface
//! variable is the block itself (or a per-vertex array of it): an array of blocks, such as
//! GLSL's `in Blk { flat float f; centroid float c; } ifc[2];`, is one variable whose members
//! all interpolate as the variable does, smoothly at the pixel centre. So such an array
//! becomes a `Private` array of the same type on both sides of the interface, with one
//! variable per element and member in between, each at the location the member had
//! (elements in order, members in order within an element) and with the fragment stage's
//! member decorations as its own. The fragment stage fills its array from its new inputs at
//! the start of the entry point; the stage before it copies its array to its new outputs
//! before each `EmitVertex` (geometry) or each return of the entry point (vertex). Only the
//! storage class of the pointers into the arrays changes elsewhere in the modules. Both
//! sides change, or neither: Vulkan matches an interface by location and type, so a block
//! array on one side never matches plain variables on the other.
//!
//! Modules are left as they are where the rewrite would not be the same program: an
//! `InterpolateAt*` (its operand must stay an input), members with locations, transform
//! feedback offsets or streams of their own, member types without a location size here
//! (structs), an output array the stage before does not declare alike, or a pointer into an
//! array used other than by loads, stores and access chains.

use super::{
    Builder, DEC_BUILTIN, DEC_FLAT, DEC_LOCATION, MODEL_FRAGMENT, MODEL_GEOMETRY, OP_ACCESS_CHAIN,
    OP_DECORATE, OP_ENTRY_POINT, OP_FUNCTION, OP_LOAD, OP_MEMBER_DECORATE, OP_STORE, OP_TYPE_ARRAY,
    OP_TYPE_FLOAT, OP_TYPE_INT, OP_TYPE_MATRIX, OP_TYPE_POINTER, OP_TYPE_STRUCT, OP_TYPE_VECTOR,
    OP_VARIABLE, Parsed, SC_INPUT, SC_OUTPUT, SC_PRIVATE, constant, decl, find_type, inst, op,
    parse, retype_to_private, variables,
};

const OP_EXT_INST: u32 = 12;
const OP_LABEL: u32 = 248;
const DEC_BLOCK: u32 = 2;
const DEC_NO_PERSPECTIVE: u32 = 13;
const DEC_CENTROID: u32 = 16;
const DEC_SAMPLE: u32 = 17;
const DEC_STREAM: u32 = 29;
const DEC_OFFSET: u32 = 35;
const DEC_XFB_BUFFER: u32 = 36;
const DEC_XFB_STRIDE: u32 = 37;
const OP_EMIT_VERTEX: u32 = 218;
const OP_EMIT_STREAM_VERTEX: u32 = 220;
const OP_RETURN: u32 = 253;
/// GLSL.std.450 `InterpolateAtCentroid`, `InterpolateAtSample`, `InterpolateAtOffset`.
const INTERPOLATE_AT: std::ops::RangeInclusive<u32> = 76..=78;

/// One member of the block: its type, its first location within an element, and its
/// interpolation decorations.
struct Member {
    ty: u32,
    location: u32,
    decorations: Vec<u32>,
}

/// An interface variable to split.
struct Split {
    var: u32,
    array: u32,
    len: u32,
    location: u32,
    /// Locations one element takes.
    stride: u32,
    members: Vec<Member>,
}

/// The words of the producer and the fragment stage, rewritten.
pub(crate) type Rewritten = (Vec<u32>, Vec<u32>);

/// The `(producer, fragment)` stages with their arrays of blocks split (see the module
/// docs), or `None` where there is nothing to split or the rewrite does not apply.
pub(crate) fn split_block_arrays(
    producer: &[u32],
    fragment: &[u32],
) -> Result<Option<Rewritten>, String> {
    let f = parse(fragment)?;
    let p = parse(producer)?;
    let (Some(f_entry), Some(p_entry)) = (entry_point(&f), entry_point(&p)) else {
        return Err("no entry point".to_owned());
    };
    if f.insts[f_entry][1] != MODEL_FRAGMENT
        || f.insts
            .iter()
            .any(|i| op(i) == OP_EXT_INST && i.len() > 4 && INTERPOLATE_AT.contains(&i[4]))
    {
        return Ok(None);
    }
    let inputs: Vec<Split> = variables(&f, SC_INPUT)
        .filter_map(|(ptr, var)| candidate(&f, ptr, var))
        .filter(|s| s.members.iter().any(|m| !m.decorations.is_empty()))
        .collect();
    if inputs.is_empty() {
        return Ok(None);
    }
    let mut outputs = Vec::new();
    for input in &inputs {
        let Some(mut output) = variables(&p, SC_OUTPUT)
            .filter_map(|(ptr, var)| candidate(&p, ptr, var))
            .find(|o| o.location == input.location && o.len == input.len)
        else {
            return Ok(None);
        };
        if output.stride != input.stride || output.members.len() != input.members.len() {
            return Ok(None);
        }
        for (o, i) in output.members.iter_mut().zip(&input.members) {
            if o.location != i.location {
                return Ok(None);
            }
            o.decorations.clone_from(&i.decorations);
        }
        outputs.push(output);
    }
    let (Some(p), Some(f)) = (
        rewrite(p, p_entry, &outputs, SC_OUTPUT),
        rewrite(f, f_entry, &inputs, SC_INPUT),
    ) else {
        return Ok(None);
    };
    Ok(Some((p, f)))
}

fn entry_point(p: &Parsed) -> Option<usize> {
    p.insts
        .iter()
        .position(|i| op(i) == OP_ENTRY_POINT && i.len() > 2)
}

/// Locations a value of type `ty` takes as an interface variable, if it is a scalar,
/// vector, matrix or array of those.
pub(super) fn locations(p: &Parsed, ty: u32) -> Option<u32> {
    let t = decl(p, ty)?;
    match op(t) {
        OP_TYPE_INT | OP_TYPE_FLOAT => Some(1),
        OP_TYPE_VECTOR => {
            let wide = decl(p, t[2]).and_then(|c| c.get(2).copied()) == Some(64);
            Some(if wide && t[3] > 2 { 2 } else { 1 })
        }
        OP_TYPE_MATRIX => Some(t[3] * locations(p, t[2])?),
        OP_TYPE_ARRAY => {
            let len = decl(p, t[3]).filter(|c| c.len() > 3)?[3];
            Some(len * locations(p, t[2])?)
        }
        _ => None,
    }
}

/// The split of interface variable `var` (of pointer type `ptr`), if it is an array of a
/// block that this rewrite handles.
fn candidate(p: &Parsed, ptr: u32, var: u32) -> Option<Split> {
    let array = decl(p, ptr).filter(|t| op(t) == OP_TYPE_POINTER)?[3];
    let a = decl(p, array).filter(|t| op(t) == OP_TYPE_ARRAY)?;
    let len = decl(p, a[3]).filter(|c| c.len() > 3)?[3];
    let block = a[2];
    let s = decl(p, block).filter(|t| op(t) == OP_TYPE_STRUCT)?;
    let decorated = |target: u32, dec: u32| {
        p.insts
            .iter()
            .find(|i| op(i) == OP_DECORATE && i.len() > 2 && i[1] == target && i[2] == dec)
    };
    decorated(block, DEC_BLOCK)?;
    let location = decorated(var, DEC_LOCATION).and_then(|i| i.get(3).copied())?;
    if [DEC_STREAM, DEC_XFB_BUFFER, DEC_XFB_STRIDE]
        .iter()
        .any(|&d| decorated(var, d).is_some())
    {
        return None;
    }
    let mut members = Vec::new();
    let mut at = 0;
    for (m, &ty) in s[2..].iter().enumerate() {
        let mut decorations = Vec::new();
        for i in p.insts.iter().filter(|i| {
            op(i) == OP_MEMBER_DECORATE && i.len() > 3 && i[1] == block && i[2] == m as u32
        }) {
            match i[3] {
                DEC_LOCATION | DEC_BUILTIN | DEC_STREAM | DEC_OFFSET => return None,
                DEC_FLAT | DEC_NO_PERSPECTIVE | DEC_CENTROID | DEC_SAMPLE => {
                    decorations.push(i[3]);
                }
                _ => {}
            }
        }
        members.push(Member {
            ty,
            location: at,
            decorations,
        });
        at += locations(p, ty)?;
    }
    Some(Split {
        var,
        array,
        len,
        location,
        stride: at,
        members,
    })
}

/// The module with `splits` of its variables of storage class `sc` (input or output)
/// applied, or `None` where a pointer into a split array has a use the rewrite does not
/// follow.
fn rewrite(mut p: Parsed, entry_at: usize, splits: &[Split], sc: u32) -> Option<Vec<u32>> {
    let mut b = Builder {
        next: p.header[3],
        decls: Vec::new(),
        annots: Vec::new(),
    };
    let int = find_type(&p, &mut b, OP_TYPE_INT, &[32, 1]);
    let split_vars: Vec<u32> = splits.iter().map(|s| s.var).collect();
    let (model, main) = (p.insts[entry_at][1], p.insts[entry_at][2]);

    // Pointers into the arrays: their types move from `sc` to Private.
    retype_to_private(&mut p, &mut b, &split_vars, true)?;

    // The arrays become Private variables (declared after their new pointer types), and
    // their elements' members variables of storage class `sc` of their own; each copy moves
    // one member of one element between the two.
    p.insts.retain(|i| {
        !(op(i) == OP_VARIABLE && i.len() > 2 && split_vars.contains(&i[2])
            || op(i) == OP_DECORATE && i.len() > 1 && split_vars.contains(&i[1]))
    });
    let mut interface = Vec::new();
    // (member type, Private pointer type, array, element, member index, plain variable)
    let mut copies = Vec::new();
    for s in splits {
        let ptr = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_PRIVATE, s.array]);
        b.decls.push(inst(OP_VARIABLE, &[ptr, s.var, SC_PRIVATE]));
        for e in 0..s.len {
            let element = constant(&mut b, int, e);
            for (m, member) in s.members.iter().enumerate() {
                let plain = find_type(&p, &mut b, OP_TYPE_POINTER, &[sc, member.ty]);
                let private = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_PRIVATE, member.ty]);
                let v = b.id();
                b.decls.push(inst(OP_VARIABLE, &[plain, v, sc]));
                let location = s.location + e * s.stride + member.location;
                b.annots
                    .push(inst(OP_DECORATE, &[v, DEC_LOCATION, location]));
                for &d in &member.decorations {
                    b.annots.push(inst(OP_DECORATE, &[v, d]));
                }
                interface.push(v);
                let index = constant(&mut b, int, m as u32);
                copies.push((member.ty, private, s.var, element, index, v));
            }
        }
    }
    let code = |b: &mut Builder| -> Vec<Vec<u32>> {
        let mut code = Vec::new();
        for &(ty, private, array, element, index, plain) in &copies {
            let (value, at) = (b.id(), b.id());
            code.push(inst(OP_ACCESS_CHAIN, &[private, at, array, element, index]));
            if sc == SC_INPUT {
                code.push(inst(OP_LOAD, &[ty, value, plain]));
                code.push(inst(OP_STORE, &[at, value]));
            } else {
                code.push(inst(OP_LOAD, &[ty, value, at]));
                code.push(inst(OP_STORE, &[plain, value]));
            }
        }
        code
    };

    // The entry point's interface: the new variables instead of the arrays (a Private
    // variable is listed only from SPIR-V 1.4 on).
    let entry = &p.insts[entry_at];
    let name_words = entry[3..].iter().position(|w| w >> 24 == 0)? + 1;
    let (head, ids) = entry.split_at(3 + name_words);
    let mut new_entry = head.to_vec();
    let keep_private = p.header[1] >= 0x0001_0400;
    new_entry.extend(
        ids.iter()
            .filter(|id| keep_private || !split_vars.contains(id)),
    );
    new_entry.extend(&interface);
    new_entry[0] = ((new_entry.len() as u32) << 16) | OP_ENTRY_POINT;
    p.insts[entry_at] = new_entry;

    if sc == SC_INPUT {
        // The copies open the entry point, after its function-local variables.
        let f = p
            .insts
            .iter()
            .position(|i| op(i) == OP_FUNCTION && i.len() > 2 && i[2] == main)?;
        let label = f + p.insts[f..].iter().position(|i| op(i) == OP_LABEL)?;
        let body = label
            + 1
            + p.insts[label + 1..]
                .iter()
                .position(|i| op(i) != OP_VARIABLE)?;
        let opening = code(&mut b);
        p.insts.splice(body..body, opening);
    } else {
        // The copies precede each vertex emitted (geometry) or each return of the entry
        // point (vertex).
        let mut out = Vec::with_capacity(p.insts.len() + 16);
        let mut in_main = false;
        for i in std::mem::take(&mut p.insts) {
            let o = op(&i);
            if o == OP_FUNCTION && i.len() > 2 {
                in_main = i[2] == main;
            }
            let site = if model == MODEL_GEOMETRY {
                o == OP_EMIT_VERTEX || o == OP_EMIT_STREAM_VERTEX
            } else {
                in_main && o == OP_RETURN
            };
            if site {
                out.extend(code(&mut b));
            }
            out.push(i);
        }
        p.insts = out;
    }

    Some(super::assemble(p, b))
}

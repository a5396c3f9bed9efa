//! Arrays of scalars in interface blocks, packed four to a location where the interface
//! would take more locations than the device has.
//!
//! GL counts interface components, and drivers pack a `float f[64]` into 16 locations; in
//! SPIR-V for Vulkan each array element takes a whole location, so the same block takes 64,
//! past what a device such as lavapipe carries between stages (`maxGeometryInputComponents`
//! is 64 there, 16 locations, and values at location 63 and beyond read wrong). Where a
//! block (or a per-vertex array of blocks, into a geometry stage) ends past the device's
//! locations, each of its members that is an array of 32-bit scalars becomes an array of
//! four-component vectors on both sides of the interface, and every access chain to
//! element `i` of such a member reaches component `i & 3` of vector `i >> 2` instead.
//! Nothing else changes: the loads and stores through the chains keep their scalar types.
//!
//! Modules are left as they are where the rewrite would not be the same program: members
//! with locations, transform feedback offsets or streams of their own, a block the other
//! side does not declare alike, or a use of the block other than access chains to its
//! members (a whole-block or whole-array load or store, a pointer passed on).

use super::{
    Builder, DEC_BUILTIN, DEC_LOCATION, MODEL_GEOMETRY, OP_ACCESS_CHAIN, OP_CONSTANT, OP_DECORATE,
    OP_ENTRY_POINT, OP_FUNCTION, OP_IN_BOUNDS_ACCESS_CHAIN, OP_MEMBER_DECORATE, OP_TYPE_ARRAY,
    OP_TYPE_FLOAT, OP_TYPE_INT, OP_TYPE_POINTER, OP_TYPE_STRUCT, OP_TYPE_VECTOR, OP_VARIABLE,
    Parsed, SC_INPUT, SC_OUTPUT, constant, decl, find_type, inst, op, parse, variables,
};

const OP_NAME: u32 = 5;
const OP_MEMBER_NAME: u32 = 6;
const OP_TYPE_RUNTIME_ARRAY: u32 = 29;
const OP_TYPE_FUNCTION: u32 = 33;
const OP_SHIFT_RIGHT_LOGICAL: u32 = 194;
const OP_BITWISE_AND: u32 = 199;
const DEC_BLOCK: u32 = 2;
const DEC_STREAM: u32 = 29;
const DEC_OFFSET: u32 = 35;
const DEC_XFB_BUFFER: u32 = 36;

/// One interface block to pack: its variable, struct type and the members to pack
/// `(index, length, scalar type)`.
struct Pack {
    var: u32,
    location: u32,
    block: u32,
    members: Vec<(u32, u32, u32)>,
    /// The struct's member types, for matching the other side.
    shape: Vec<Shape>,
}

/// A member's shape, compared between the two sides.
#[derive(PartialEq, Eq)]
enum Shape {
    /// An array of `len` 32-bit scalars of this opcode (float or int).
    Scalars { opcode: u32, len: u32 },
    /// Anything else, taking this many locations.
    Other(u32),
}

/// The `(producer, consumer)` stages with their scalar arrays packed (module docs), or
/// `None` where nothing needs packing or the rewrite does not apply.
pub(crate) fn pack_scalar_arrays(
    producer: &[u32],
    consumer: &[u32],
    max_locations: u32,
) -> Result<Option<super::block_array::Rewritten>, String> {
    let c = parse(consumer)?;
    let p = parse(producer)?;
    let c_model = c
        .insts
        .iter()
        .find(|i| op(i) == OP_ENTRY_POINT && i.len() > 2)
        .ok_or("no entry point")?[1];
    let inputs: Vec<Pack> = variables(&c, SC_INPUT)
        .filter_map(|(ptr, var)| candidate(&c, ptr, var, c_model == MODEL_GEOMETRY))
        .filter(|k| k.location + k.shape.iter().map(locations_of).sum::<u32>() > max_locations)
        .collect();
    if inputs.is_empty() {
        return Ok(None);
    }
    let mut outputs = Vec::new();
    for input in &inputs {
        let Some(output) = variables(&p, SC_OUTPUT)
            .filter_map(|(ptr, var)| candidate(&p, ptr, var, false))
            .find(|o| o.location == input.location)
        else {
            return Ok(None);
        };
        if output.shape != input.shape {
            return Ok(None);
        }
        outputs.push(output);
    }
    let (Some(p), Some(c)) = (
        rewrite(p, &outputs, false),
        rewrite(c, &inputs, c_model == MODEL_GEOMETRY),
    ) else {
        return Ok(None);
    };
    Ok(Some((p, c)))
}

fn locations_of(s: &Shape) -> u32 {
    match *s {
        Shape::Scalars { len, .. } => len,
        Shape::Other(n) => n,
    }
}

fn decorated(p: &Parsed, target: u32, dec: u32) -> Option<&[u32]> {
    p.insts
        .iter()
        .find(|i| op(i) == OP_DECORATE && i.len() > 2 && i[1] == target && i[2] == dec)
        .map(Vec::as_slice)
}

/// The packing of interface variable `var` (pointer type `ptr`; `arrayed`: per vertex), if
/// it is a block with a member that is an array of 32-bit scalars.
fn candidate(p: &Parsed, ptr: u32, var: u32, arrayed: bool) -> Option<Pack> {
    let mut ty = decl(p, ptr).filter(|t| op(t) == OP_TYPE_POINTER)?[3];
    if arrayed {
        ty = decl(p, ty).filter(|t| op(t) == OP_TYPE_ARRAY)?[2];
    }
    let s = decl(p, ty).filter(|t| op(t) == OP_TYPE_STRUCT)?;
    decorated(p, ty, DEC_BLOCK)?;
    let location = decorated(p, var, DEC_LOCATION)?.get(3).copied()?;
    if [DEC_STREAM, DEC_XFB_BUFFER]
        .iter()
        .any(|&d| decorated(p, var, d).is_some())
    {
        return None;
    }
    let member_decorations = p
        .insts
        .iter()
        .filter(|i| op(i) == OP_MEMBER_DECORATE && i.len() > 3 && i[1] == ty);
    for i in member_decorations {
        if matches!(i[3], DEC_LOCATION | DEC_BUILTIN | DEC_STREAM | DEC_OFFSET) {
            return None;
        }
    }
    let mut members = Vec::new();
    let mut shape = Vec::new();
    for (m, &mt) in s[2..].iter().enumerate() {
        let t = decl(p, mt)?;
        let scalar = (op(t) == OP_TYPE_ARRAY)
            .then(|| decl(p, t[2]))
            .flatten()
            .filter(|e| matches!(op(e), OP_TYPE_FLOAT | OP_TYPE_INT) && e[2] == 32);
        let len = (op(t) == OP_TYPE_ARRAY)
            .then(|| decl(p, t[3]).filter(|c| c.len() > 3).map(|c| c[3]))
            .flatten();
        match (scalar, len) {
            (Some(e), Some(len)) if len > 1 => {
                members.push((m as u32, len, t[2]));
                shape.push(Shape::Scalars { opcode: op(e), len });
            }
            _ => shape.push(Shape::Other(super::block_array::locations(p, mt)?)),
        }
    }
    (!members.is_empty()).then_some(Pack {
        var,
        location,
        block: ty,
        members,
        shape,
    })
}

/// The ids a global declaration refers to (types, initializers).
fn id_operands(i: &[u32]) -> &[u32] {
    match op(i) {
        OP_TYPE_ARRAY | OP_TYPE_RUNTIME_ARRAY | OP_TYPE_STRUCT | OP_TYPE_FUNCTION
            if i.len() > 2 =>
        {
            &i[2..]
        }
        OP_TYPE_POINTER if i.len() > 3 => &i[3..4],
        OP_VARIABLE if i.len() > 4 => &i[1..2],
        OP_VARIABLE | OP_CONSTANT..=52 if i.len() > 1 => &i[1..2],
        _ => &[],
    }
}

/// The module with `packs` applied, or `None` where a use of a packed block is one the
/// rewrite does not follow.
fn rewrite(mut p: Parsed, packs: &[Pack], arrayed: bool) -> Option<Vec<u32>> {
    let mut b = Builder {
        next: p.header[3],
        decls: Vec::new(),
        annots: Vec::new(),
    };
    let uint = find_type(&p, &mut b, OP_TYPE_INT, &[32, 0]);
    let first_fn = p.insts.iter().position(|i| op(i) == OP_FUNCTION)?;

    // The packed member types, declared first; then each block and what depends on it,
    // moved after them.
    let mut moved: std::collections::HashSet<u32> = std::collections::HashSet::new();
    for k in packs {
        let s_at = p.insts[..first_fn]
            .iter()
            .position(|i| op(i) == OP_TYPE_STRUCT && i[1] == k.block)?;
        for &(m, len, scalar) in &k.members {
            let vec4 = find_type(&p, &mut b, OP_TYPE_VECTOR, &[scalar, 4]);
            let count = constant(&mut b, uint, len.div_ceil(4));
            let array = b.id();
            b.decls.push(inst(OP_TYPE_ARRAY, &[array, vec4, count]));
            p.insts[s_at][2 + m as usize] = array;
        }
        moved.insert(k.block);
    }
    let mut tail = Vec::new();
    let mut kept = Vec::with_capacity(p.insts.len());
    for (at, i) in std::mem::take(&mut p.insts).into_iter().enumerate() {
        let result = match op(&i) {
            OP_VARIABLE | OP_CONSTANT..=52 => i.get(2).copied(),
            _ => i.get(1).copied(),
        };
        let depends = at < first_fn
            && (result.is_some_and(|r| moved.contains(&r) && op(&i) == OP_TYPE_STRUCT)
                || id_operands(&i).iter().any(|w| moved.contains(w)));
        if depends {
            if let Some(r) = result {
                moved.insert(r);
            }
            tail.push(i);
        } else {
            kept.push(i);
        }
    }
    p.insts = kept;
    b.decls.extend(tail);

    // The result type of an element index (a constant or a value of a function).
    let type_of = |p: &Parsed, id: u32| {
        p.insts
            .iter()
            .find(|i| {
                i.len() > 2 && i[2] == id && !matches!(op(i), OP_NAME | OP_MEMBER_NAME | 71..=75)
            })
            .map(|i| i[1])
    };
    let prefix = usize::from(arrayed);
    let mut out = Vec::with_capacity(p.insts.len() + 16);
    let first_fn = p.insts.iter().position(|i| op(i) == OP_FUNCTION)?;
    for (at, i) in p.insts.iter().enumerate() {
        if at < first_fn {
            out.push(i.clone());
            continue;
        }
        let chain = matches!(op(i), OP_ACCESS_CHAIN | OP_IN_BOUNDS_ACCESS_CHAIN);
        let Some(k) = packs
            .iter()
            .find(|k| i.len() > 1 && i[1..].contains(&k.var))
        else {
            out.push(i.clone());
            continue;
        };
        if !chain || i[3] != k.var {
            return None;
        }
        // [type, result, base, (vertex,) member, element...]
        let indices = &i[4..];
        let member = decl(&p, *indices.get(prefix)?)
            .filter(|c| op(c) == OP_CONSTANT)?
            .get(3)
            .copied()?;
        if !k.members.iter().any(|&(m, _, _)| m == member) {
            out.push(i.clone());
            continue;
        }
        if indices.len() != prefix + 2 {
            return None;
        }
        let element = indices[prefix + 1];
        let ty = type_of(&p, element)?;
        let (two, three) = (constant(&mut b, ty, 2), constant(&mut b, ty, 3));
        let (vector, component) = (b.id(), b.id());
        out.push(inst(OP_SHIFT_RIGHT_LOGICAL, &[ty, vector, element, two]));
        out.push(inst(OP_BITWISE_AND, &[ty, component, element, three]));
        let mut chain = i.clone();
        chain.truncate(4 + prefix + 1);
        chain.push(vector);
        chain.push(component);
        chain[0] = ((chain.len() as u32) << 16) | op(i);
        out.push(chain);
    }
    p.insts = out;
    Some(super::assemble(p, b))
}

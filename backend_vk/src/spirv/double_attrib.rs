//! Double vertex inputs (GL 4.1's `ARB_vertex_attrib_64bit`) fetched as 32-bit words.
//!
//! A device need not fetch 64-bit vertex formats (lavapipe's `R64*_SFLOAT` have no
//! `VERTEX_BUFFER` feature), so every `double`, `dvec*` and `dmat*` input (and array of
//! them) is fetched as unsigned 32-bit words instead (`R32G32B32A32_UINT` and narrower,
//! `pipeline.rs`): each of its vectors (a matrix's columns, an array's elements) reads one
//! `uvec4` at its GL location and, past two components, another at location
//! `16 + location` ([`crate::pipeline::WIDE`]). GL gives a `dvec3` or `dvec4` vertex input
//! one location where SPIR-V would give it two, so the front end numbers the inputs GL's
//! way and the second halves take locations GL does not use. The input becomes a `Private`
//! variable that the entry point fills first, each double rebuilt from its two words with
//! `OpBitcast`; the words are the bytes of the application's array as they are, or the
//! generic value the engine splits over the two locations.

use super::{
    Builder, DEC_LOCATION, OP_CONSTANT, OP_DECORATE, OP_ENTRY_POINT, OP_FUNCTION, OP_LOAD,
    OP_STORE, OP_TYPE_ARRAY, OP_TYPE_FLOAT, OP_TYPE_INT, OP_TYPE_MATRIX, OP_TYPE_POINTER,
    OP_TYPE_VECTOR, OP_VARIABLE, Parsed, SC_INPUT, SC_PRIVATE, decl, find_type, inst, op, parse,
    retype_to_private,
};

const OP_COMPOSITE_CONSTRUCT: u32 = 80;
const OP_COMPOSITE_EXTRACT: u32 = 81;
const OP_BITCAST: u32 = 124;
const OP_LABEL: u32 = 248;

/// The vertex stage `words` with its double inputs fetched as 32-bit words (module docs);
/// `Ok(None)` where it has none. An input the rewrite cannot follow (a pointer into it used
/// otherwise than loaded) is an error: the pipeline could not fetch it.
pub(crate) fn apply_double_attribs(words: &[u32]) -> Result<Option<Vec<u32>>, String> {
    let p = parse(words)?;
    let doubles: Vec<(u32, u32, u32, u32)> = p
        .insts
        .iter()
        .filter(|i| op(i) == OP_VARIABLE && i.len() > 3 && i[3] == SC_INPUT)
        .filter_map(|i| {
            let pointee = decl(&p, i[1]).filter(|t| op(t) == OP_TYPE_POINTER)?[3];
            let shape = double_shape(&p, pointee)?;
            let location = p.insts.iter().find_map(|d| {
                (op(d) == OP_DECORATE && d.len() == 4 && d[1] == i[2] && d[2] == DEC_LOCATION)
                    .then(|| d[3])
            })?;
            Some((i[2], pointee, location, shape))
        })
        .collect();
    if doubles.is_empty() {
        return Ok(None);
    }
    rewrite(p, &doubles)
        .map(Some)
        .ok_or_else(|| "a double vertex input the 32-bit fetch cannot rebuild".to_owned())
}

/// The shape of a 64-bit float input type: (array elements, columns, rows) of a scalar,
/// vector, matrix or array of one of them, packed as `elements << 8 | columns << 4 | rows`.
fn double_shape(p: &Parsed, ty: u32) -> Option<u32> {
    let t = decl(p, ty)?;
    let (t, elements) = match op(t) {
        OP_TYPE_ARRAY => {
            let length = decl(p, t[3]).filter(|c| op(c) == OP_CONSTANT && c.len() > 3)?[3];
            (decl(p, t[2])?, length)
        }
        _ => (t, 1),
    };
    let (column, columns) = match op(t) {
        OP_TYPE_MATRIX => (decl(p, t[2])?, t[3]),
        _ => (t, 1),
    };
    let (scalar, rows) = match op(column) {
        OP_TYPE_VECTOR => (decl(p, column[2])?, column[3]),
        _ => (column, 1),
    };
    (op(scalar) == OP_TYPE_FLOAT && scalar.get(2) == Some(&64) && elements <= 16)
        .then_some(elements << 8 | columns << 4 | rows)
}

fn rewrite(mut p: Parsed, doubles: &[(u32, u32, u32, u32)]) -> Option<Vec<u32>> {
    let mut b = Builder {
        next: p.header[3],
        decls: Vec::new(),
        annots: Vec::new(),
    };
    let entry_at = p.insts.iter().position(|i| op(i) == OP_ENTRY_POINT)?;
    let main = p.insts[entry_at][2];
    let vars: Vec<u32> = doubles.iter().map(|d| d.0).collect();
    retype_to_private(&mut p, &mut b, &vars, false)?;
    let uint = find_type(&p, &mut b, OP_TYPE_INT, &[32, 0]);
    let uvec2 = find_type(&p, &mut b, OP_TYPE_VECTOR, &[uint, 2]);
    let uvec4 = find_type(&p, &mut b, OP_TYPE_VECTOR, &[uint, 4]);
    let input_uvec4 = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_INPUT, uvec4]);
    let double = p
        .insts
        .iter()
        .find(|i| op(i) == OP_TYPE_FLOAT && i.get(2) == Some(&64))?[1];
    let mut inputs = Vec::new();
    let mut opening = Vec::new();
    for &(var, ty, location, shape) in doubles {
        let (elements, columns, rows) = (shape >> 8, shape >> 4 & 15, shape & 15);
        p.insts.retain(|i| {
            !(op(i) == OP_VARIABLE && i.len() > 2 && i[2] == var
                || op(i) == OP_DECORATE && i.len() > 2 && i[1] == var && i[2] == DEC_LOCATION)
        });
        let private_ptr = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_PRIVATE, ty]);
        b.decls
            .push(inst(OP_VARIABLE, &[private_ptr, var, SC_PRIVATE]));
        let element_ty = match decl(&p, ty) {
            Some(t) if op(t) == OP_TYPE_ARRAY => t[2],
            _ => ty,
        };
        let column_ty = match decl(&p, element_ty) {
            Some(t) if op(t) == OP_TYPE_MATRIX => t[2],
            _ => element_ty,
        };
        let mut built_elements = Vec::new();
        for e in 0..elements {
            let mut built_columns = Vec::new();
            for c in 0..columns {
                // The vector's words: one uvec4 at its GL location, and past two doubles
                // another at a location of its own.
                let at = location + e * columns + c;
                let mut words = Vec::new();
                let wide = (rows > 2).then_some(crate::pipeline::WIDE + at);
                for l in std::iter::once(at).chain(wide) {
                    let input = b.id();
                    b.decls
                        .push(inst(OP_VARIABLE, &[input_uvec4, input, SC_INPUT]));
                    b.annots.push(inst(OP_DECORATE, &[input, DEC_LOCATION, l]));
                    inputs.push(input);
                    let loaded = b.id();
                    opening.push(inst(OP_LOAD, &[uvec4, loaded, input]));
                    for k in 0..4 {
                        let w = b.id();
                        opening.push(inst(OP_COMPOSITE_EXTRACT, &[uint, w, loaded, k]));
                        words.push(w);
                    }
                }
                let mut components = Vec::new();
                for r in 0..rows as usize {
                    let pair = b.id();
                    opening.push(inst(
                        OP_COMPOSITE_CONSTRUCT,
                        &[uvec2, pair, words[2 * r], words[2 * r + 1]],
                    ));
                    let d = b.id();
                    opening.push(inst(OP_BITCAST, &[double, d, pair]));
                    components.push(d);
                }
                built_columns.push(construct(
                    &mut b,
                    &mut opening,
                    column_ty,
                    &components,
                    rows > 1,
                ));
            }
            built_elements.push(construct(
                &mut b,
                &mut opening,
                element_ty,
                &built_columns,
                columns > 1,
            ));
        }
        let value = construct(&mut b, &mut opening, ty, &built_elements, element_ty != ty);
        opening.push(inst(OP_STORE, &[var, value]));
    }

    // The entry point's interface: the word inputs instead of the doubles (a Private
    // variable is listed only from SPIR-V 1.4 on).
    let entry = &p.insts[entry_at];
    let name_words = entry[3..].iter().position(|w| w >> 24 == 0)? + 1;
    let (head, ids) = entry.split_at(3 + name_words);
    let mut new_entry = head.to_vec();
    let keep_private = p.header[1] >= 0x0001_0400;
    new_entry.extend(
        ids.iter()
            .filter(|&&id| keep_private || !vars.contains(&id)),
    );
    new_entry.extend(&inputs);
    new_entry[0] = ((new_entry.len() as u32) << 16) | OP_ENTRY_POINT;
    p.insts[entry_at] = new_entry;

    // The doubles, first in the entry point.
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
    p.insts.splice(body..body, opening);
    Some(super::assemble(p, b))
}

/// A composite of type `ty` from `parts`, or the one part where `ty` is no composite.
fn construct(
    b: &mut Builder,
    opening: &mut Vec<Vec<u32>>,
    ty: u32,
    parts: &[u32],
    composite: bool,
) -> u32 {
    if !composite {
        return parts[0];
    }
    let v = b.id();
    let mut operands = vec![ty, v];
    operands.extend(parts);
    opening.push(inst(OP_COMPOSITE_CONSTRUCT, &operands));
    v
}

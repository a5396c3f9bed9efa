//! `gl_DrawID` and `gl_BaseVertex` in a vertex stage (`ARB_shader_draw_parameters`, GL 4.6).
//!
//! The front end reads them as SPIR-V's `DrawIndex` and `BaseVertex`, which differ from GL's
//! in two ways:
//! - Vulkan's `DrawIndex` counts the draws of one indirect call only, while GL's
//!   `gl_DrawID` counts the draws of every `glMultiDraw*` call, which the backend may draw
//!   one at a time (`multi_draw.rs`, `indirect.rs`);
//! - Vulkan's `BaseVertex` of a non-indexed draw is its first vertex, while GL's (and
//!   Mesa's) `gl_BaseVertex` is 0 there.
//!
//! The rewrite makes each built-in a `Private` integer that the entry point fills first,
//! from a new input variable that carries the decoration and the push-constant block
//! [`DRAW_ID_OFFSET`] and [`INDEXED_OFFSET`] lie in: `DrawIndex + draw_id` and
//! `BaseVertex * indexed` (`indexed` is 1 for the indexed draws, else 0). The block's first
//! member is the point size, at offset 0, so `spirv::patch` uses the same block where a
//! point variant of the stage needs the size (an entry point uses one push-constant block).
//! Only the storage class of the pointers into the built-ins changes elsewhere in the
//! module.

use super::{
    Builder, DEC_BLOCK, DEC_BUILTIN, DEC_OFFSET, OP_ACCESS_CHAIN, OP_DECORATE, OP_ENTRY_POINT,
    OP_FUNCTION, OP_LOAD, OP_MEMBER_DECORATE, OP_STORE, OP_TYPE_FLOAT, OP_TYPE_POINTER,
    OP_TYPE_STRUCT, OP_VARIABLE, Parsed, SC_INPUT, SC_PRIVATE, SC_PUSH_CONSTANT, constant, decl,
    find_type, inst, op, parse, retype_to_private,
};

const OP_IADD: u32 = 128;
const OP_IMUL: u32 = 132;
const OP_LABEL: u32 = 248;
const BUILTIN_BASE_VERTEX: u32 = 4424;
const BUILTIN_DRAW_INDEX: u32 = 4426;

/// Where the draw's `gl_DrawID` base lies in the push constants (an `int`).
pub(crate) const DRAW_ID_OFFSET: u32 = 4;
/// Where 1 for an indexed draw, else 0, lies in the push constants (an `int`).
pub(crate) const INDEXED_OFFSET: u32 = 8;

/// The vertex stage `words` with `gl_DrawID` and `gl_BaseVertex` as GL counts them (module
/// docs); `Ok(None)` where it reads neither, or where a pointer into one has a use the
/// rewrite does not follow (then the module is used as it is).
pub(crate) fn apply_draw_params(words: &[u32]) -> Result<Option<Vec<u32>>, String> {
    let p = parse(words)?;
    let builtin_var = |builtin: u32| {
        p.insts.iter().find_map(|i| {
            let decorated = op(i) == OP_DECORATE && i.len() == 4 && i[2] == DEC_BUILTIN;
            (decorated && i[3] == builtin).then(|| i[1])
        })
    };
    let draw_index = builtin_var(BUILTIN_DRAW_INDEX);
    let base_vertex = builtin_var(BUILTIN_BASE_VERTEX);
    if draw_index.is_none() && base_vertex.is_none() {
        return Ok(None);
    }
    Ok(rewrite(p, draw_index, base_vertex))
}

fn rewrite(mut p: Parsed, draw_index: Option<u32>, base_vertex: Option<u32>) -> Option<Vec<u32>> {
    let mut b = Builder {
        next: p.header[3],
        decls: Vec::new(),
        annots: Vec::new(),
    };
    let entry_at = p.insts.iter().position(|i| op(i) == OP_ENTRY_POINT)?;
    let main = p.insts[entry_at][2];
    // (built-in variable, its member of the block, its opcode with the member, decoration)
    let rewritten: Vec<(u32, u32, u32, u32)> = [
        draw_index.map(|v| (v, 1, OP_IADD, BUILTIN_DRAW_INDEX)),
        base_vertex.map(|v| (v, 2, OP_IMUL, BUILTIN_BASE_VERTEX)),
    ]
    .into_iter()
    .flatten()
    .collect();
    let vars: Vec<u32> = rewritten.iter().map(|r| r.0).collect();
    // Every one is an `int` input.
    let mut input_ptr = 0;
    for &var in &vars {
        let var_decl = p
            .insts
            .iter()
            .find(|i| op(i) == OP_VARIABLE && i.len() > 3 && i[2] == var && i[3] == SC_INPUT)?;
        input_ptr = var_decl[1];
    }
    let int = decl(&p, input_ptr).filter(|t| op(t) == OP_TYPE_POINTER)?[3];
    retype_to_private(&mut p, &mut b, &vars, false)?;
    p.insts.retain(|i| {
        let is_var = op(i) == OP_VARIABLE && i.len() > 2 && vars.contains(&i[2]);
        let is_builtin =
            op(i) == OP_DECORATE && i.len() > 2 && vars.contains(&i[1]) && i[2] == DEC_BUILTIN;
        !(is_var || is_builtin)
    });
    let private_ptr = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_PRIVATE, int]);

    // The push-constant block { float size; int draw_id; int indexed; }.
    let float = find_type(&p, &mut b, OP_TYPE_FLOAT, &[32]);
    let block = b.id();
    b.decls
        .push(inst(OP_TYPE_STRUCT, &[block, float, int, int]));
    b.annots.push(inst(OP_DECORATE, &[block, DEC_BLOCK]));
    for (member, offset) in [(0, 0), (1, DRAW_ID_OFFSET), (2, INDEXED_OFFSET)] {
        b.annots.push(inst(
            OP_MEMBER_DECORATE,
            &[block, member, DEC_OFFSET, offset],
        ));
    }
    let ptr_block = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_PUSH_CONSTANT, block]);
    let ptr_int = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_PUSH_CONSTANT, int]);
    let pc = b.id();
    b.decls
        .push(inst(OP_VARIABLE, &[ptr_block, pc, SC_PUSH_CONSTANT]));

    let mut inputs = Vec::new();
    let mut opening = Vec::new();
    for &(var, member, opcode, builtin) in &rewritten {
        b.decls
            .push(inst(OP_VARIABLE, &[private_ptr, var, SC_PRIVATE]));
        let input = b.id();
        b.decls
            .push(inst(OP_VARIABLE, &[input_ptr, input, SC_INPUT]));
        b.annots
            .push(inst(OP_DECORATE, &[input, DEC_BUILTIN, builtin]));
        inputs.push(input);
        let index = constant(&mut b, int, member);
        let [value, at, operand, result] = std::array::from_fn(|_| b.id());
        opening.push(inst(OP_LOAD, &[int, value, input]));
        opening.push(inst(OP_ACCESS_CHAIN, &[ptr_int, at, pc, index]));
        opening.push(inst(OP_LOAD, &[int, operand, at]));
        opening.push(inst(opcode, &[int, result, value, operand]));
        opening.push(inst(OP_STORE, &[var, result]));
    }

    // The entry point's interface: the new inputs instead of the built-ins (Private and
    // push-constant variables are listed only from SPIR-V 1.4 on).
    let entry = &p.insts[entry_at];
    let name_words = entry[3..].iter().position(|w| w >> 24 == 0)? + 1;
    let (head, ids) = entry.split_at(3 + name_words);
    let mut new_entry = head.to_vec();
    let v14 = p.header[1] >= 0x0001_0400;
    new_entry.extend(ids.iter().filter(|&&id| v14 || !vars.contains(&id)));
    new_entry.extend(inputs);
    if v14 {
        new_entry.push(pc);
    }
    new_entry[0] = ((new_entry.len() as u32) << 16) | OP_ENTRY_POINT;
    p.insts[entry_at] = new_entry;

    // The values, first in the entry point.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_without_draw_parameters_is_left_alone() {
        let words = super::super::clear_fragment(&[super::super::NumClass::Float]);
        assert_eq!(apply_draw_params(&words), Ok(None));
    }
}

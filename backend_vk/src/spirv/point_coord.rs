//! `POINT_SPRITE_COORD_ORIGIN` in a fragment stage that reads `gl_PointCoord`.
//!
//! Vulkan has no sprite origin state: its `PointCoord` runs from the upper left of the
//! framebuffer, and since images are not flipped that is GL's lower left, so without help
//! `UPPER_LEFT` (GL's default) reads as `LOWER_LEFT` and back. The rewrite makes the
//! built-in a `Private` vector that the entry point fills first from a new input variable
//! that carries the `BuiltIn PointCoord` decoration: `(x, origin ? y : 1 - y)`, where
//! `origin` is a boolean specialization constant ([`POINT_ORIGIN_SPEC_ID`]) that is true for
//! `LOWER_LEFT`. The pipeline gives its value from the raster state, which is part of the
//! pipeline key already: the origin costs nothing at a draw, and a program that switches it
//! has one pipeline per origin. Only the storage class of the pointers into the built-in
//! changes elsewhere in the module; other functions see the filled vector too.

use super::{
    Builder, DEC_BUILTIN, OP_COMPOSITE_EXTRACT, OP_COMPOSITE_INSERT, OP_DECORATE, OP_ENTRY_POINT,
    OP_FUNCTION, OP_LOAD, OP_STORE, OP_TYPE_FLOAT, OP_TYPE_POINTER, OP_VARIABLE, Parsed, SC_INPUT,
    SC_PRIVATE, constant, decl, find_type, inst, op, parse, retype_to_private,
};

/// The `SpecId` of the boolean constant that selects `LOWER_LEFT` (true) or `UPPER_LEFT`.
pub(crate) const POINT_ORIGIN_SPEC_ID: u32 = 0;

const OP_TYPE_BOOL: u32 = 20;
const OP_SPEC_CONSTANT_FALSE: u32 = 49;
const OP_FSUB: u32 = 131;
const OP_SELECT: u32 = 169;
const OP_LABEL: u32 = 248;
const DEC_SPEC_ID: u32 = 1;
const BUILTIN_POINT_COORD: u32 = 16;

/// The fragment stage `words` with its `gl_PointCoord` following [`POINT_ORIGIN_SPEC_ID`]
/// (module docs); `Ok(None)` where it does not read it, or where a pointer into it has a use
/// the rewrite does not follow (then the module is used as it is).
pub(crate) fn apply_point_origin(words: &[u32]) -> Result<Option<Vec<u32>>, String> {
    let p = parse(words)?;
    let Some(var) = p.insts.iter().find_map(|i| {
        let builtin = op(i) == OP_DECORATE && i.len() == 4 && i[2] == DEC_BUILTIN;
        (builtin && i[3] == BUILTIN_POINT_COORD).then(|| i[1])
    }) else {
        return Ok(None);
    };
    Ok(rewrite(p, var))
}

fn rewrite(mut p: Parsed, var: u32) -> Option<Vec<u32>> {
    let mut b = Builder {
        next: p.header[3],
        decls: Vec::new(),
        annots: Vec::new(),
    };
    let entry_at = p.insts.iter().position(|i| op(i) == OP_ENTRY_POINT)?;
    let main = p.insts[entry_at][2];
    let var_decl = p
        .insts
        .iter()
        .find(|i| op(i) == OP_VARIABLE && i.len() > 3 && i[2] == var && i[3] == SC_INPUT)?;
    let input_ptr = var_decl[1];
    let vec2 = decl(&p, input_ptr).filter(|t| op(t) == OP_TYPE_POINTER)?[3];
    let float = find_type(&p, &mut b, OP_TYPE_FLOAT, &[32]);

    // Pointers into the built-in: their types move from Input to Private.
    retype_to_private(&mut p, &mut b, &[var], false)?;

    // The built-in becomes a Private variable (declared after its new pointer type); a new
    // input variable carries the decoration.
    p.insts.retain(|i| {
        !(op(i) == OP_VARIABLE && i.len() > 2 && i[2] == var
            || op(i) == OP_DECORATE && i.len() > 1 && i[1] == var && i[2] == DEC_BUILTIN)
    });
    let private_ptr = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_PRIVATE, vec2]);
    b.decls
        .push(inst(OP_VARIABLE, &[private_ptr, var, SC_PRIVATE]));
    let input = b.id();
    b.decls
        .push(inst(OP_VARIABLE, &[input_ptr, input, SC_INPUT]));
    b.annots.push(inst(
        OP_DECORATE,
        &[input, DEC_BUILTIN, BUILTIN_POINT_COORD],
    ));
    let bool_ty = find_type(&p, &mut b, OP_TYPE_BOOL, &[]);
    let lower_left = b.id();
    b.decls
        .push(inst(OP_SPEC_CONSTANT_FALSE, &[bool_ty, lower_left]));
    b.annots.push(inst(
        OP_DECORATE,
        &[lower_left, DEC_SPEC_ID, POINT_ORIGIN_SPEC_ID],
    ));
    let one = constant(&mut b, float, 1.0f32.to_bits());

    // The entry point's interface: the new input instead of the built-in (a Private
    // variable is listed only from SPIR-V 1.4 on).
    let entry = &p.insts[entry_at];
    let name_words = entry[3..].iter().position(|w| w >> 24 == 0)? + 1;
    let (head, ids) = entry.split_at(3 + name_words);
    let mut new_entry = head.to_vec();
    let keep_private = p.header[1] >= 0x0001_0400;
    new_entry.extend(ids.iter().filter(|&&id| keep_private || id != var));
    new_entry.push(input);
    new_entry[0] = ((new_entry.len() as u32) << 16) | OP_ENTRY_POINT;
    p.insts[entry_at] = new_entry;

    // The copy opens the entry point, after its function-local variables:
    // var = (x, lower_left ? y : 1 - y).
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
    let [value, y, flipped, chosen, result] = std::array::from_fn(|_| b.id());
    let opening = vec![
        inst(OP_LOAD, &[vec2, value, input]),
        inst(OP_COMPOSITE_EXTRACT, &[float, y, value, 1]),
        inst(OP_FSUB, &[float, flipped, one, y]),
        inst(OP_SELECT, &[float, chosen, lower_left, y, flipped]),
        inst(OP_COMPOSITE_INSERT, &[vec2, result, chosen, value, 1]),
        inst(OP_STORE, &[var, result]),
    ];
    p.insts.splice(body..body, opening);
    Some(super::assemble(p, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_without_point_coord_is_left_alone() {
        let words = super::super::clear_fragment(&[super::super::NumClass::Float]);
        assert_eq!(apply_point_origin(&words), Ok(None));
    }
}

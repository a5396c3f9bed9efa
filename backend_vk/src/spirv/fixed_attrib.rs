//! `FIXED` vertex attributes (GL 4.1's `ARB_ES2_compatibility`) in a vertex stage.
//!
//! Vulkan has no 16.16 fixed-point vertex format. A `FIXED` attribute is fetched as 32-bit
//! signed integers (`R32..._SINT`), and the vertex stage of its pipelines reads it through a
//! rewrite: the float input at its location becomes a `Private` variable that the entry
//! point fills first from a new integer input at that location, converted and scaled by
//! 2^-16, with the components the attribute lacks set to GL's defaults (0, 0, 1), since
//! Vulkan fills an integer format's missing alpha with the integer 1. Pointers into the
//! input change storage class only. The rewrite depends on the vertex layout, so the
//! backend makes one module per program and set of fixed attributes (`program.rs`).

use super::{
    Builder, DEC_LOCATION, OP_COMPOSITE_INSERT, OP_DECORATE, OP_ENTRY_POINT, OP_FMUL, OP_FUNCTION,
    OP_LOAD, OP_STORE, OP_TYPE_FLOAT, OP_TYPE_INT, OP_TYPE_POINTER, OP_TYPE_VECTOR, OP_VARIABLE,
    Parsed, SC_INPUT, SC_PRIVATE, constant, decl, find_type, inst, op, parse, retype_to_private,
};

const OP_CONVERT_S_TO_F: u32 = 111;
const OP_VECTOR_TIMES_SCALAR: u32 = 142;
const OP_LABEL: u32 = 248;

/// The vertex stage `words` reading each `(location, components)` of `fixed` as a `FIXED`
/// attribute fetched as signed integers (module docs); `Ok(None)` where an input at one of
/// those locations is not a 32-bit float scalar or vector, or a pointer into it has a use
/// the rewrite does not follow (then the attribute reads integer bits: the caller reports
/// it).
pub(crate) fn apply_fixed_attribs(
    words: &[u32],
    fixed: &[(u32, u8)],
) -> Result<Option<Vec<u32>>, String> {
    let p = parse(words)?;
    Ok(rewrite(p, fixed))
}

fn rewrite(mut p: Parsed, fixed: &[(u32, u8)]) -> Option<Vec<u32>> {
    let mut b = Builder {
        next: p.header[3],
        decls: Vec::new(),
        annots: Vec::new(),
    };
    let entry_at = p.insts.iter().position(|i| op(i) == OP_ENTRY_POINT)?;
    let main = p.insts[entry_at][2];
    let int = find_type(&p, &mut b, OP_TYPE_INT, &[32, 1]);
    let mut opening = Vec::new();
    let mut replaced = Vec::new();
    for &(location, components) in fixed {
        // The input variable at the location (a location the stage does not read needs
        // nothing).
        let Some(var) = p.insts.iter().find_map(|i| {
            let located = op(i) == OP_DECORATE && i.len() == 4 && i[2] == DEC_LOCATION;
            (located && i[3] == location)
                .then(|| i[1])
                .filter(|v| is_input(&p, *v))
        }) else {
            continue;
        };
        let input_ptr = p
            .insts
            .iter()
            .find(|i| op(i) == OP_VARIABLE && i.len() > 3 && i[2] == var)?[1];
        let ty = decl(&p, input_ptr).filter(|t| op(t) == OP_TYPE_POINTER)?[3];
        let t = decl(&p, ty)?;
        let (float, n) = match op(t) {
            OP_TYPE_FLOAT if t[2] == 32 => (ty, 1),
            OP_TYPE_VECTOR => {
                let c = decl(&p, t[2]).filter(|c| op(c) == OP_TYPE_FLOAT && c[2] == 32)?;
                (c[1], t[3])
            }
            _ => return None,
        };
        let int_ty = if n == 1 {
            int
        } else {
            find_type(&p, &mut b, OP_TYPE_VECTOR, &[int, n])
        };
        retype_to_private(&mut p, &mut b, &[var], false)?;
        p.insts
            .retain(|i| !(op(i) == OP_VARIABLE && i.len() > 2 && i[2] == var));
        let private_ptr = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_PRIVATE, ty]);
        b.decls
            .push(inst(OP_VARIABLE, &[private_ptr, var, SC_PRIVATE]));
        let int_ptr = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_INPUT, int_ty]);
        let input = b.id();
        b.decls.push(inst(OP_VARIABLE, &[int_ptr, input, SC_INPUT]));
        // The location moves to the new input.
        for i in &mut p.insts {
            if op(i) == OP_DECORATE && i.len() == 4 && i[1] == var && i[2] == DEC_LOCATION {
                i[1] = input;
            }
        }
        replaced.push((var, input));

        // var = float(input) * 2^-16, then GL's defaults past the attribute's components.
        let scale = constant(&mut b, float, (1.0f32 / 65536.0).to_bits());
        let [loaded, converted, scaled] = std::array::from_fn(|_| b.id());
        opening.push(inst(OP_LOAD, &[int_ty, loaded, input]));
        opening.push(inst(OP_CONVERT_S_TO_F, &[ty, converted, loaded]));
        let scale_op = if n == 1 {
            OP_FMUL
        } else {
            OP_VECTOR_TIMES_SCALAR
        };
        opening.push(inst(scale_op, &[ty, scaled, converted, scale]));
        let mut value = scaled;
        for c in u32::from(components.clamp(1, 4))..n {
            let default = constant(&mut b, float, if c == 3 { 1.0f32 } else { 0.0 }.to_bits());
            let next = b.id();
            opening.push(inst(OP_COMPOSITE_INSERT, &[ty, next, default, value, c]));
            value = next;
        }
        opening.push(inst(OP_STORE, &[var, value]));
    }
    if replaced.is_empty() {
        return None;
    }

    // The entry point's interface: the new inputs instead of the old (a Private variable
    // is listed only from SPIR-V 1.4 on).
    let entry = &p.insts[entry_at];
    let name_words = entry[3..].iter().position(|w| w >> 24 == 0)? + 1;
    let (head, ids) = entry.split_at(3 + name_words);
    let keep_private = p.header[1] >= 0x0001_0400;
    let mut new_entry = head.to_vec();
    new_entry.extend(
        ids.iter()
            .filter(|&&id| keep_private || replaced.iter().all(|r| r.0 != id)),
    );
    new_entry.extend(replaced.iter().map(|r| r.1));
    new_entry[0] = ((new_entry.len() as u32) << 16) | OP_ENTRY_POINT;
    p.insts[entry_at] = new_entry;

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
    p.insts.splice(body..body, opening);
    Some(super::assemble(p, b))
}

/// Whether `var` is a global variable of the Input storage class.
fn is_input(p: &Parsed, var: u32) -> bool {
    p.insts
        .iter()
        .any(|i| op(i) == OP_VARIABLE && i.len() > 3 && i[2] == var && i[3] == SC_INPUT)
}

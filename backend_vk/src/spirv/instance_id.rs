//! `gl_InstanceID` in a vertex stage drawn with a base instance.
//!
//! The front end reads `gl_InstanceID` as Vulkan's `InstanceIndex`, which counts from the
//! draw's first instance, where GL's `gl_InstanceID` counts from 0 whatever the base
//! instance (`glDrawArraysInstancedBaseInstance`, an indirect command's `baseInstance`).
//! The rewrite makes the built-in a `Private` integer that the entry point fills first with
//! `InstanceIndex - BaseInstance` (SPIR-V's `DrawParameters`, core in Vulkan 1.1 with the
//! `shaderDrawParameters` feature), from two new input variables that carry the
//! decorations. Only the storage class of the pointers into the built-in changes
//! elsewhere in the module; other functions see the filled value too.

use super::{
    Builder, DEC_BUILTIN, OP_DECORATE, OP_ENTRY_POINT, OP_FUNCTION, OP_LOAD, OP_STORE,
    OP_TYPE_POINTER, OP_VARIABLE, Parsed, SC_INPUT, SC_PRIVATE, decl, find_type, inst, op, parse,
    retype_to_private,
};

const OP_EXTENSION: u32 = 10;
const OP_CAPABILITY: u32 = 17;
const OP_ISUB: u32 = 130;
const OP_LABEL: u32 = 248;
const CAPABILITY_DRAW_PARAMETERS: u32 = 4427;
const BUILTIN_INSTANCE_INDEX: u32 = 43;
const BUILTIN_BASE_INSTANCE: u32 = 4425;

/// The vertex stage `words` with `gl_InstanceID` counted from 0 (module docs); `Ok(None)`
/// where it does not read it, or where a pointer into it has a use the rewrite does not
/// follow (then the module is used as it is).
pub(crate) fn apply_instance_id(words: &[u32]) -> Result<Option<Vec<u32>>, String> {
    let p = parse(words)?;
    let Some(var) = p.insts.iter().find_map(|i| {
        let builtin = op(i) == OP_DECORATE && i.len() == 4 && i[2] == DEC_BUILTIN;
        (builtin && i[3] == BUILTIN_INSTANCE_INDEX).then(|| i[1])
    }) else {
        return Ok(None);
    };
    Ok(rewrite(p, var))
}

/// The words of a SPIR-V literal string (NUL-terminated, padded to a word).
fn string_words(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
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
    let int = decl(&p, input_ptr).filter(|t| op(t) == OP_TYPE_POINTER)?[3];

    retype_to_private(&mut p, &mut b, &[var], false)?;
    p.insts.retain(|i| {
        !(op(i) == OP_VARIABLE && i.len() > 2 && i[2] == var
            || op(i) == OP_DECORATE && i.len() > 1 && i[1] == var && i[2] == DEC_BUILTIN)
    });
    let private_ptr = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_PRIVATE, int]);
    b.decls
        .push(inst(OP_VARIABLE, &[private_ptr, var, SC_PRIVATE]));
    // A stage that reads gl_BaseInstance has its input already (an entry point's inputs
    // carry each built-in once).
    let read_base = p.insts.iter().find_map(|i| {
        let builtin = op(i) == OP_DECORATE && i.len() == 4 && i[2] == DEC_BUILTIN;
        (builtin && i[3] == BUILTIN_BASE_INSTANCE).then(|| i[1])
    });
    let instance = b.id();
    let base = read_base.unwrap_or_else(|| b.id());
    for (id, builtin) in [
        (instance, BUILTIN_INSTANCE_INDEX),
        (base, BUILTIN_BASE_INSTANCE),
    ] {
        if id == base && read_base.is_some() {
            continue;
        }
        b.decls.push(inst(OP_VARIABLE, &[input_ptr, id, SC_INPUT]));
        b.annots
            .push(inst(OP_DECORATE, &[id, DEC_BUILTIN, builtin]));
    }

    // The entry point's interface: the new inputs instead of the built-in (a Private
    // variable is listed only from SPIR-V 1.4 on).
    let entry = &p.insts[entry_at];
    let name_words = entry[3..].iter().position(|w| w >> 24 == 0)? + 1;
    let (head, ids) = entry.split_at(3 + name_words);
    let mut new_entry = head.to_vec();
    let keep_private = p.header[1] >= 0x0001_0400;
    new_entry.extend(ids.iter().filter(|&&id| keep_private || id != var));
    new_entry.push(instance);
    if read_base.is_none() {
        new_entry.push(base);
    }
    new_entry[0] = ((new_entry.len() as u32) << 16) | OP_ENTRY_POINT;
    p.insts[entry_at] = new_entry;

    // var = InstanceIndex - BaseInstance, first in the entry point.
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
    let [index, first, value] = std::array::from_fn(|_| b.id());
    let opening = vec![
        inst(OP_LOAD, &[int, index, instance]),
        inst(OP_LOAD, &[int, first, base]),
        inst(OP_ISUB, &[int, value, index, first]),
        inst(OP_STORE, &[var, value]),
    ];
    p.insts.splice(body..body, opening);

    // The capability (and before SPIR-V 1.3 its extension) after the module's own.
    let last_cap = p.insts.iter().rposition(|i| op(i) == OP_CAPABILITY)?;
    let mut head = vec![inst(OP_CAPABILITY, &[CAPABILITY_DRAW_PARAMETERS])];
    if p.header[1] < 0x0001_0300 {
        head.push(inst(
            OP_EXTENSION,
            &string_words("SPV_KHR_shader_draw_parameters"),
        ));
    }
    p.insts.splice(last_cap + 1..last_cap + 1, head);
    Some(super::assemble(p, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_without_instance_id_is_left_alone() {
        let words = super::super::clear_fragment(&[super::super::NumClass::Float]);
        assert_eq!(apply_instance_id(&words), Ok(None));
    }

    #[test]
    fn strings_are_nul_terminated_and_padded() {
        assert_eq!(string_words("abc"), [u32::from_le_bytes(*b"abc\0")]);
        assert_eq!(string_words("abcd").len(), 2);
    }
}

//! Inputs and outputs that several shader objects of one stage declare: GL links them into
//! one variable (`gl_FragColor` written in two fragment shaders is one output), while
//! glslang's linked module keeps one `OpVariable` per object, each at the same location,
//! which the interface numbering would see as two colliding outputs and Vulkan refuses.
//! [`merge`] keeps the first variable of each name, type and storage class and makes the
//! code use it in place of the others, which it removes with their names and decorations.

use std::collections::HashMap;

use crate::edit::{Editor, op, opcode};
use crate::spirv::{Malformed, storage};

/// `OpFunctionCall` and `OpCopyMemory`, which take pointers too.
const FUNCTION_CALL: u16 = 57;
const COPY_MEMORY: u16 = 63;

/// The text of a literal string starting at `words[0]`.
fn string(words: &[u32]) -> String {
    let bytes: &[u8] = bytemuck::cast_slice(words);
    let len = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..len]).into_owned()
}

/// The operand positions of `i` that hold a pointer to a variable.
fn pointer_operands(i: &[u32]) -> std::ops::Range<usize> {
    let r = match opcode(i) {
        op::LOAD | op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN => 3..4,
        op::STORE => 1..2,
        COPY_MEMORY => 1..3,
        FUNCTION_CALL => 4..i.len(),
        _ => 0..0,
    };
    r.start.min(i.len())..r.end.min(i.len())
}

/// One variable per name, type and storage class among a module's inputs and outputs.
pub(crate) fn merge(words: &[u32]) -> Result<Vec<u32>, Malformed> {
    let mut e = Editor::parse(words)?;
    let names: HashMap<u32, String> = e
        .insts
        .iter()
        .filter(|i| opcode(i) == op::NAME && i.len() > 2)
        .map(|i| (i[1], string(&i[2..])))
        .collect();
    let start = e.functions_start();
    let mut first: HashMap<(&str, u32, u32), u32> = HashMap::new();
    let mut replace: HashMap<u32, u32> = HashMap::new();
    for i in &e.insts[..start] {
        if opcode(i) != op::VARIABLE
            || i.len() < 4
            || !matches!(i[3], storage::INPUT | storage::OUTPUT)
        {
            continue;
        }
        let Some(name) = names.get(&i[2]) else {
            continue;
        };
        let kept = *first.entry((name.as_str(), i[1], i[3])).or_insert(i[2]);
        if kept != i[2] {
            replace.insert(i[2], kept);
        }
    }
    if replace.is_empty() {
        return Ok(words.to_vec());
    }
    for i in &mut e.insts[start..] {
        for at in pointer_operands(i) {
            if let Some(&kept) = replace.get(&i[at]) {
                i[at] = kept;
            }
        }
    }
    // A variable the code still names some other way stays (and its duplicate with it).
    let named_elsewhere = |id: u32| {
        e.insts[start..]
            .iter()
            .any(|i| i.iter().skip(1).any(|&w| w == id))
    };
    replace.retain(|&id, _| !named_elsewhere(id));
    e.insts.retain(|i| match opcode(i) {
        op::VARIABLE => !(i.len() > 2 && replace.contains_key(&i[2])),
        op::NAME | op::DECORATE => !(i.len() > 1 && replace.contains_key(&i[1])),
        _ => true,
    });
    for &id in replace.keys() {
        e.remove_interface(id);
    }
    Ok(e.finish())
}

//! Vertex inputs declared as arrays (`in vec3 c[2]`, GLSL 1.50 §4.3.4): GL gives each
//! element its own attribute location(s), one after another, and so does a Vulkan input
//! array; but OpenGL ES has no array vertex inputs (SPIRV-Cross refuses to translate
//! them). So every array input of the vertex stage becomes one variable per element, at the
//! element's locations, and each access to an element reads its own variable.
//!
//! Only arrays whose every use indexes an element with a constant are split (the others
//! stay arrays, as the Vulkan backend takes them).

use crate::edit::{Editor, inst, op, opcode};
use crate::spirv::{Malformed, deco, storage};

/// `OpTypeMatrix`.
const TYPE_MATRIX: u16 = 24;

/// One array input to split.
struct ArrayInput {
    var: u32,
    element: u32,
    len: u32,
    location: u32,
    /// Locations one element takes (the columns of a matrix, else 1).
    slots: u32,
}

/// Whether instruction `i` of a function body names `var`, and if so whether only as the
/// base of a constant-indexed access to an element (`Some(element)`).
fn use_of(e: &Editor, i: &[u32], var: u32, len: u32) -> Option<Option<u32>> {
    if !i.iter().skip(1).any(|&w| w == var) {
        return None;
    }
    let chain = matches!(opcode(i), op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN);
    if chain && i.len() >= 5 && i[3] == var && !i[4..].contains(&var) {
        return Some(e.constant_value(i[4]).filter(|&k| k < len));
    }
    Some(None)
}

/// The array inputs of a module that can be split.
fn array_inputs(e: &Editor) -> Vec<ArrayInput> {
    let start = e.functions_start();
    let mut out = Vec::new();
    for v in &e.insts[..start] {
        if opcode(v) != op::VARIABLE || v.len() < 4 || v[3] != storage::INPUT {
            continue;
        }
        let var = v[2];
        let Some(&[_, _, _, pointee]) = e.declaration(v[1]) else {
            continue;
        };
        let Some(&[h, _, element, length]) = e.declaration(pointee) else {
            continue;
        };
        if opcode(&[h]) != op::TYPE_ARRAY {
            continue;
        }
        let Some(len) = e.constant_value(length) else {
            continue;
        };
        let location = e.insts[..start].iter().find_map(|d| {
            (opcode(d) == op::DECORATE && d.len() == 4 && d[1] == var && d[2] == deco::LOCATION)
                .then(|| d[3])
        });
        let Some(location) = location else { continue };
        let slots = match e.declaration(element) {
            Some(d) if opcode(d) == TYPE_MATRIX && d.len() == 4 => d[3],
            _ => 1,
        };
        let splittable = e.insts[start..]
            .iter()
            .all(|i| !matches!(use_of(e, i, var, len), Some(None)));
        if splittable {
            out.push(ArrayInput {
                var,
                element,
                len,
                location,
                slots,
            });
        }
    }
    out
}

/// Splits the module's array inputs into one variable per element.
pub(crate) fn split(words: &[u32]) -> Result<Vec<u32>, Malformed> {
    let mut e = Editor::parse(words)?;
    let arrays = array_inputs(&e);
    if arrays.is_empty() {
        return Ok(words.to_vec());
    }
    for a in arrays {
        let pointer = e.pointer(storage::INPUT, a.element);
        let elements: Vec<u32> = (0..a.len).map(|_| e.fresh()).collect();
        for (k, &id) in elements.iter().enumerate() {
            e.global(inst(op::VARIABLE, &[pointer, id, storage::INPUT]));
            let location = a.location + k as u32 * a.slots;
            e.annotate(inst(op::DECORATE, &[id, deco::LOCATION, location]));
        }
        // The element accesses read their element's variable (no index left: a pointer to
        // the element itself).
        let start = e.functions_start();
        for i in start..e.insts.len() {
            let k = match use_of(&e, &e.insts[i], a.var, a.len) {
                Some(Some(k)) => k,
                _ => continue,
            };
            let chain = &mut e.insts[i];
            chain[3] = elements[k as usize];
            chain.remove(4);
            chain[0] = ((chain.len() as u32) << 16) | u32::from(opcode(chain));
        }
        // The array variable goes, with its names and decorations, from the interface too.
        e.insts.retain(|i| match opcode(i) {
            op::VARIABLE => i.get(2) != Some(&a.var),
            op::NAME | op::DECORATE => i.get(1) != Some(&a.var),
            _ => true,
        });
        e.remove_interface(a.var);
        for id in elements {
            e.add_interface(id);
        }
    }
    Ok(e.finish())
}

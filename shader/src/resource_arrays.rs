//! Arrays of arrays of samplers, images and blocks (`ARB_arrays_of_arrays`) as
//! one-dimensional arrays.
//!
//! GL gives each element of `uniform sampler2D s[2][3]` a unit of its own and each element
//! of `uniform B { ... } b[2][3]` a block (a binding of its own, the next one), in
//! row-major order. A `UniformConstant`, `Uniform` or `StorageBuffer` variable of SPIR-V for
//! Vulkan is one resource or a one-dimensional array of them (the validation layer refuses
//! more), and GLSL ES has no arrays of arrays of blocks, so every such variable is
//! rewritten at link as the one-dimensional array of its elements in the same order: each
//! access chain's array indices become one linear index (`(i * 3 + j)` for `[i][j]`,
//! folded when the indices are constants, else computed with `OpIMul`/`OpIAdd` before the
//! chain). The numbering the link gave the variable stays: it binds the first element,
//! and the elements follow it (the Vulkan backend already counts every element of the
//! array as a descriptor), so bindings and the reflection are GL's.
//!
//! A variable used other than as the base of access chains that index every one of its
//! array levels (passed whole to a function, say) is left as it is.

use crate::edit::{Editor, inst, op, opcode};
use crate::spirv::Malformed;

/// Storage classes of resources: `UniformConstant`, `Uniform`, `StorageBuffer`.
const RESOURCE_CLASSES: [u32; 3] = [0, 2, 12];
/// `OpIMul` and `OpIAdd`.
const I_MUL: u16 = 132;
const I_ADD: u16 = 128;

/// One variable to flatten.
struct Flat {
    var: u32,
    /// Index of its `OpVariable`.
    at: usize,
    class: u32,
    /// Its array lengths, outermost first.
    dims: Vec<u32>,
    /// The type of one element (no array).
    element: u32,
}

/// The array lengths and element type of `ty` (no lengths if it is no sized array).
fn dims_of(e: &Editor, mut ty: u32) -> Option<(Vec<u32>, u32)> {
    let mut dims = Vec::new();
    while let Some(d) = e.declaration(ty) {
        if opcode(d) != op::TYPE_ARRAY || d.len() != 4 {
            break;
        }
        dims.push(e.constant_value(d[3])?);
        ty = d[2];
    }
    Some((dims, ty))
}

/// Whether instruction `i` of a function body names `var` only as the base of an access
/// chain with at least `levels` indices (`Some(true)`), not at all (`None`), or otherwise
/// (`Some(false)`).
fn use_of(i: &[u32], var: u32, levels: usize) -> Option<bool> {
    if !i.iter().skip(1).any(|&w| w == var) {
        return None;
    }
    let chain = matches!(opcode(i), op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN);
    Some(chain && i.len() >= 4 + levels && i[3] == var && !i[4..].contains(&var))
}

/// The variables of a module to flatten.
fn flats(e: &Editor) -> Vec<Flat> {
    let start = e.functions_start();
    let mut out = Vec::new();
    for (at, v) in e.insts[..start].iter().enumerate() {
        if opcode(v) != op::VARIABLE || v.len() < 4 || !RESOURCE_CLASSES.contains(&v[3]) {
            continue;
        }
        let var = v[2];
        let Some(&[_, _, _, pointee]) = e.declaration(v[1]) else {
            continue;
        };
        let Some((dims, element)) = dims_of(e, pointee) else {
            continue;
        };
        if dims.len() < 2 || dims.contains(&0) {
            continue;
        }
        let flattenable = e.insts[start..]
            .iter()
            .all(|i| use_of(i, var, dims.len()) != Some(false));
        if flattenable {
            out.push(Flat {
                var,
                at,
                class: v[3],
                dims,
                element,
            });
        }
    }
    out
}

/// Rewrites every resource array of arrays of a module as a one-dimensional array.
pub(crate) fn flatten(words: &[u32]) -> Result<Vec<u32>, Malformed> {
    let mut e = Editor::parse(words)?;
    let found = flats(&e);
    if found.is_empty() {
        return Ok(words.to_vec());
    }
    // The variables move to the end of the globals, after their new types (latest first,
    // so the indices of the others stay right).
    let mut moved = Vec::with_capacity(found.len());
    for f in found.iter().rev() {
        moved.push(e.insts.remove(f.at));
    }
    for (f, mut v) in found.iter().zip(moved.into_iter().rev()) {
        let total: u32 = f.dims.iter().product();
        let uint = e.uint();
        let length = e.constant(uint, total);
        let array = e.ty(op::TYPE_ARRAY, &[f.element, length]);
        let pointer = e.pointer(f.class, array);
        v[1] = pointer;
        e.global(v);
    }
    let int = e.int();
    for f in &found {
        let levels = f.dims.len();
        let mut i = e.functions_start();
        while i < e.insts.len() {
            if use_of(&e.insts[i], f.var, levels) != Some(true) {
                i += 1;
                continue;
            }
            let indices: Vec<u32> = e.insts[i][4..4 + levels].to_vec();
            let globals = e.insts.len();
            let constants: Option<Vec<u32>> =
                indices.iter().map(|&k| e.constant_value(k)).collect();
            let mut code = Vec::new();
            let linear = match constants {
                Some(values) => {
                    let value = values
                        .iter()
                        .zip(&f.dims)
                        .fold(0u32, |acc, (&k, &d)| acc.wrapping_mul(d).wrapping_add(k));
                    e.constant(int, value)
                }
                None => {
                    // ((i0 * d1 + i1) * d2 + i2) ...: GLSL's indices are 32-bit, and
                    // OpIMul/OpIAdd take operands of either signedness.
                    let mut acc = indices[0];
                    for (&k, &d) in indices.iter().zip(&f.dims).skip(1) {
                        let dim = e.constant(int, d);
                        let product = e.fresh();
                        code.push(inst(I_MUL, &[int, product, acc, dim]));
                        let sum = e.fresh();
                        code.push(inst(I_ADD, &[int, sum, product, k]));
                        acc = sum;
                    }
                    acc
                }
            };
            // Constants the editor added went before the functions: the chain moved.
            let at = i + (e.insts.len() - globals);
            let at = e.insert(at, code);
            let chain = &mut e.insts[at];
            chain.splice(4..4 + levels, [linear]);
            chain[0] = ((chain.len() as u32) << 16) | u32::from(opcode(chain));
            i = at + 1;
        }
    }
    Ok(e.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::literal;
    use crate::spirv::instructions;

    fn has_arrays_of_arrays(words: &[u32]) -> bool {
        Editor::parse(words).is_ok_and(|e| !flats(&e).is_empty())
    }

    /// `uniform sampler2D s[2][3];` read at `s[1][2]` and `s[k][j]` (`k`, `j` results of
    /// function code).
    fn module() -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 40, 0];
        let mut ep = vec![4, 1];
        ep.extend(literal("main"));
        w.extend(inst(op::ENTRY_POINT, &ep));
        let mut name = vec![10];
        name.extend(literal("s"));
        w.extend(inst(op::NAME, &name));
        w.extend(inst(op::DECORATE, &[10, 33, 1]));
        w.extend(inst(op::TYPE_INT, &[2, 32, 1]));
        w.extend(inst(op::CONSTANT, &[2, 3, 2]));
        w.extend(inst(op::CONSTANT, &[2, 5, 3]));
        w.extend(inst(op::CONSTANT, &[2, 6, 1]));
        w.extend(inst(op::TYPE_FLOAT, &[7, 32]));
        w.extend(inst(op::TYPE_IMAGE, &[8, 7, 1, 0, 0, 0, 1, 0]));
        w.extend(inst(op::TYPE_SAMPLED_IMAGE, &[9, 8]));
        w.extend(inst(op::TYPE_ARRAY, &[11, 9, 5]));
        w.extend(inst(op::TYPE_ARRAY, &[12, 11, 3]));
        w.extend(inst(op::TYPE_POINTER, &[13, 0, 12]));
        w.extend(inst(op::TYPE_POINTER, &[14, 0, 9]));
        w.extend(inst(op::VARIABLE, &[13, 10, 0]));
        w.extend(inst(op::FUNCTION, &[15, 1, 0, 16]));
        w.extend(inst(op::ACCESS_CHAIN, &[14, 20, 10, 6, 3]));
        w.extend(inst(op::LOAD, &[2, 21, 30]));
        w.extend(inst(op::LOAD, &[2, 22, 31]));
        w.extend(inst(op::ACCESS_CHAIN, &[14, 23, 10, 21, 22]));
        w.extend(inst(op::FUNCTION_END, &[]));
        w
    }

    #[test]
    fn flattens_sampler_arrays_of_arrays() {
        let words = module();
        assert!(has_arrays_of_arrays(&words));
        let out = flatten(&words).expect("flattens");
        assert!(!has_arrays_of_arrays(&out));
        let insts: Vec<(u16, Vec<u32>)> = instructions(&out)
            .map(|i| i.map(|(_, o, w)| (o, w.to_vec())))
            .collect::<Result<_, _>>()
            .expect("well formed");
        let e = Editor::parse(&out).expect("parses");
        // The variable is an array of 6 sampled images.
        let var = insts
            .iter()
            .find(|(o, w)| *o == op::VARIABLE && w[2] == 10)
            .expect("variable");
        let pointee = e.declaration(var.1[1]).expect("pointer")[3];
        let array = e.declaration(pointee).expect("array");
        assert_eq!((opcode(array), array[2]), (op::TYPE_ARRAY, 9));
        assert_eq!(e.constant_value(array[3]), Some(6));
        let chains: Vec<&Vec<u32>> = insts
            .iter()
            .filter(|(o, _)| *o == op::ACCESS_CHAIN)
            .map(|(_, w)| w)
            .collect();
        assert_eq!(chains.len(), 2);
        // s[1][2] is element 5.
        assert_eq!(chains[0].len(), 5);
        assert_eq!(e.constant_value(chains[0][4]), Some(5));
        // s[k][j] is element k * 3 + j.
        let mul = insts.iter().find(|(o, _)| *o == I_MUL).expect("OpIMul");
        assert_eq!((mul.1[3], e.constant_value(mul.1[4])), (21, Some(3)));
        let add = insts.iter().find(|(o, _)| *o == I_ADD).expect("OpIAdd");
        assert_eq!((add.1[3], add.1[4]), (mul.1[2], 22));
        assert_eq!(chains[1][4], add.1[2]);
        // The variable follows its new type, and every id is below the bound.
        let var_at = insts.iter().position(|(_, w)| w == &var.1).expect("var");
        let ty_at = insts
            .iter()
            .position(|(o, w)| *o == op::TYPE_POINTER && w[1] == var.1[1])
            .expect("pointer type");
        assert!(ty_at < var_at);
    }

    #[test]
    fn leaves_whole_uses_alone() {
        let mut words = module();
        // A use of the whole array (a function call's argument).
        let end = words.len() - 1;
        words.splice(end..end, inst(57, &[2, 24, 15, 10]));
        assert!(!has_arrays_of_arrays(&words));
        assert_eq!(flatten(&words).expect("parses"), words);
    }
}

//! Sampler and image arrays indexed by non-constant expressions, as a switch over constant
//! indices.
//!
//! GLSL 4.00 (`ARB_gpu_shader5`) indexes arrays of samplers with dynamically uniform
//! expressions, and GLSL 4.20 arrays of images likewise. Vulkan carries such an access only
//! where the device has `shaderSampledImageArrayDynamicIndexing` (and
//! `shaderStorageImageArrayDynamicIndexing`), which lavapipe lacks, so every stage is
//! rewritten at link to index them with constants only:
//!
//! ```text
//!   %p = OpAccessChain %ptr %samplers %i      OpSelectionMerge %m None
//!   %s = OpLoad %sampled %p                   OpSwitch %i %l0 1 %l1 ... (n-1) %ln
//!   %c = OpLoad %v2float %uv          =>      %l0: the same code with constant index 0
//!   %t = OpImageSampleImplicitLod ...              OpBranch %m
//!   ... (rest of the block)                   ...
//!                                             %m: %t = OpPhi %v4float %t0 %l0 %t1 %l1 ...
//!                                                 ... (rest of the block)
//! ```
//!
//! The code that is copied into each case is the run of the block from the access chain to
//! the last instruction that uses it or an opaque value made from it (the loaded sampler,
//! `OpImage` of it, a texel pointer), so no opaque value crosses blocks; every other value
//! that the run defines and later code reads becomes an `OpPhi` of the merge block under its
//! own id, and the code after the run moves into the merge block with the block's
//! terminator (phis that named the block as predecessor name the merge block instead). An
//! index outside the array reads element 0 (GL leaves that undefined).
//!
//! Left as they are: accesses through function parameters, runs in a loop's header block,
//! and runs whose opaque values are used elsewhere or whose other values are opaque and
//! used after the run. Uniform and storage block arrays are not touched: Vulkan devices
//! with geometry shaders index those dynamically (lavapipe does).

use std::collections::{HashMap, HashSet};

use crate::edit::{Editor, inst, op, opcode};
use crate::spirv::Malformed;

const OP_TYPE_SAMPLER: u16 = 26;
const OP_PHI: u16 = 245;
const OP_LOOP_MERGE: u16 = 246;
const OP_SELECTION_MERGE: u16 = 247;
const OP_LABEL: u16 = 248;
const OP_BRANCH: u16 = 249;
const OP_SWITCH: u16 = 251;
/// Storage class `UniformConstant`.
const UNIFORM_CONSTANT: u32 = 0;
/// At most this many accesses are rewritten in one module (each copies its run once per
/// element; nested runs multiply).
const MAX_REWRITES: usize = 512;

/// Whether an opcode ends a block.
fn is_terminator(o: u16) -> bool {
    matches!(o, 249..=255 | 4416)
}

/// Opcodes of function code that produce no value (their second word is no result id).
fn has_no_result(o: u16) -> bool {
    matches!(
        o,
        8 | 56 | 62 | 63 | 99 | 218..=221 | 224 | 225 | 228 | 246..=255 | 317 | 4416 | 5380
    )
}

/// The result id and type of a function instruction, if it defines a value.
fn result(i: &[u32]) -> Option<(u32, u32)> {
    let o = opcode(i);
    (!has_no_result(o) && o != OP_LABEL && i.len() >= 3).then(|| (i[2], i[1]))
}

/// The positions of an instruction's operands that are ids (literals left out for the
/// instructions a stage's code has them in).
fn id_operands(i: &[u32]) -> Vec<usize> {
    let o = opcode(i);
    let first = if has_no_result(o) { 1 } else { 3 };
    let literal: &dyn Fn(usize) -> bool = match o {
        8 => &|_| true,
        // OpExtInst: the instruction number.
        12 => &|k| k == 4,
        // OpVariable: the storage class.
        59 => &|k| k == 3,
        // OpLoad: memory operands.
        61 => &|k| k >= 4,
        // OpStore, OpCopyMemory: memory operands.
        62 | 63 => &|k| k >= 3,
        // OpArrayLength: the member.
        68 => &|k| k == 4,
        // OpVectorShuffle, OpCompositeInsert: components and indices.
        79 | 82 => &|k| k >= 5,
        // OpCompositeExtract: indices.
        81 => &|k| k >= 4,
        // Image operand masks.
        87 | 88 | 91 | 92 | 95 | 98 => &|k| k == 5,
        89 | 90 | 93 | 94 | 96 | 97 => &|k| k == 6,
        99 => &|k| k == 4,
        _ => &|_| false,
    };
    (first..i.len()).filter(|k| !literal(*k)).collect()
}

/// Whether instruction `i` reads any id of `ids`.
fn reads(i: &[u32], ids: &HashSet<u32>) -> bool {
    id_operands(i).into_iter().any(|k| ids.contains(&i[k]))
}

/// Rewrites a module's sampler and image arrays indexed by non-constant expressions.
pub(crate) fn lower(words: &[u32]) -> Result<Vec<u32>, Malformed> {
    let mut e = Editor::parse(words)?;
    let start = e.functions_start();
    // Opaque array variables (UniformConstant arrays of samplers or images) -> length.
    let mut arrays: HashMap<u32, u32> = HashMap::new();
    for i in &e.insts[..start] {
        if opcode(i) != op::VARIABLE || i.len() < 4 || i[3] != UNIFORM_CONSTANT {
            continue;
        }
        let Some(ptr) = e.declaration(i[1]) else {
            continue;
        };
        let Some(array) = ptr.get(3).and_then(|t| e.declaration(*t)) else {
            continue;
        };
        if opcode(array) != op::TYPE_ARRAY || array.len() != 4 {
            continue;
        }
        let opaque = e.declaration(array[2]).is_some_and(|t| {
            matches!(
                opcode(t),
                op::TYPE_IMAGE | OP_TYPE_SAMPLER | op::TYPE_SAMPLED_IMAGE
            )
        });
        if let (true, Some(n)) = (opaque, e.constant_value(array[3])) {
            arrays.insert(i[2], n);
        }
    }
    if arrays.is_empty() {
        return Ok(words.to_vec());
    }
    let mut skipped: HashSet<u32> = HashSet::new();
    for _ in 0..MAX_REWRITES {
        let start = e.functions_start();
        // Constants (OpConstant, OpSpecConstant), the rewrites' own among them.
        let constants: HashSet<u32> = e.insts[..start]
            .iter()
            .filter(|i| matches!(opcode(i), 43 | 50))
            .filter_map(|i| i.get(2).copied())
            .collect();
        let found = e.insts[start..].iter().find_map(|i| {
            let chain = matches!(opcode(i), op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN);
            let n = *arrays.get(i.get(3)?)?;
            let index = *i.get(4)?;
            (chain && !constants.contains(&index) && !skipped.contains(&i[2]))
                .then_some((i[2], index, n))
        });
        let Some((chain, index, n)) = found else {
            break;
        };
        if !rewrite(&mut e, chain, index, n) {
            skipped.insert(chain);
        }
    }
    Ok(e.finish())
}

/// Whether a type id is opaque or a pointer (no `OpPhi` may carry it).
fn is_opaque(e: &Editor, ty: u32) -> bool {
    e.declaration(ty).is_none_or(|t| {
        matches!(
            opcode(t),
            op::TYPE_POINTER | op::TYPE_IMAGE | OP_TYPE_SAMPLER | op::TYPE_SAMPLED_IMAGE
        ) || opcode(t) == 19
    })
}

/// Rewrites the access `chain` (indexing an array of `n` with `index`) as a switch;
/// false where it is left as it is.
fn rewrite(e: &mut Editor, chain: u32, index: u32, n: u32) -> bool {
    // The index's type, and its constants (declared first: they move the code).
    let Some(index_ty) = e
        .insts
        .iter()
        .skip(e.functions_start())
        .find(|i| result(i).is_some_and(|(id, _)| id == index))
        .map(|i| i[1])
    else {
        return false;
    };
    let cases: Vec<u32> = (0..n).map(|k| e.constant(index_ty, k)).collect();
    let Some(at) = e.insts.iter().position(|i| {
        matches!(opcode(i), op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN)
            && i.get(2) == Some(&chain)
    }) else {
        return false;
    };
    // The block and the function around the access.
    let Some(label_at) = (0..at).rev().find(|&k| opcode(&e.insts[k]) == OP_LABEL) else {
        return false;
    };
    let Some(function_at) = (0..at).rev().find(|&k| opcode(&e.insts[k]) == op::FUNCTION) else {
        return false;
    };
    let Some(end_at) = (at..e.insts.len()).find(|&k| opcode(&e.insts[k]) == op::FUNCTION_END)
    else {
        return false;
    };
    let Some(term) = (at..end_at).find(|&k| is_terminator(opcode(&e.insts[k]))) else {
        return false;
    };
    let tail = match opcode(&e.insts[term - 1]) {
        OP_LOOP_MERGE => return false,
        OP_SELECTION_MERGE => term - 1,
        _ => term,
    };
    // The run: up to the last user of an opaque value made from the access.
    let mut opaque: HashSet<u32> = HashSet::from([chain]);
    let mut last = at;
    for k in at + 1..tail {
        let i = &e.insts[k];
        if reads(i, &opaque) {
            last = k;
            if let Some((id, ty)) = result(i)
                && is_opaque(e, ty)
            {
                opaque.insert(id);
            }
        }
    }
    let outside = |k: usize| k < at || k > last;
    let body = function_at..end_at;
    if body
        .clone()
        .any(|k| outside(k) && reads(&e.insts[k], &opaque))
    {
        return false;
    }
    // Values the run defines that later code reads.
    let defined: Vec<(u32, u32)> = (at..=last).filter_map(|k| result(&e.insts[k])).collect();
    let mut escaping = Vec::new();
    for &(id, ty) in &defined {
        let one = HashSet::from([id]);
        if body.clone().any(|k| outside(k) && reads(&e.insts[k], &one)) {
            if is_opaque(e, ty) {
                return false;
            }
            escaping.push((id, ty));
        }
    }
    let block = e.insts[label_at][1];
    let merge = e.fresh();
    let labels: Vec<u32> = (0..n).map(|_| e.fresh()).collect();
    let run: Vec<Vec<u32>> = e.insts[at..=last].to_vec();
    let mut code = Vec::new();
    code.push(inst(OP_SELECTION_MERGE, &[merge, 0]));
    let mut switch = vec![index, labels[0]];
    for (k, label) in labels.iter().enumerate().skip(1) {
        switch.extend([k as u32, *label]);
    }
    code.push(inst(OP_SWITCH, &switch));
    let mut copies: Vec<HashMap<u32, u32>> = Vec::with_capacity(n as usize);
    for (k, &label) in labels.iter().enumerate() {
        code.push(inst(OP_LABEL, &[label]));
        let mut ids: HashMap<u32, u32> = HashMap::new();
        for (r, original) in run.iter().enumerate() {
            let mut i = original.clone();
            for w in id_operands(&i) {
                if let Some(&new) = ids.get(&i[w]) {
                    i[w] = new;
                }
            }
            if r == 0 {
                i[4] = cases[k];
            }
            if let Some((id, _)) = result(&i) {
                let new = e.fresh();
                ids.insert(id, new);
                i[2] = new;
            }
            code.push(i);
        }
        code.push(inst(OP_BRANCH, &[merge]));
        copies.push(ids);
    }
    code.push(inst(OP_LABEL, &[merge]));
    for &(id, ty) in &escaping {
        let mut phi = vec![ty, id];
        for (ids, &label) in copies.iter().zip(&labels) {
            phi.extend([ids[&id], label]);
        }
        code.push(inst(OP_PHI, &phi));
    }
    // Phis of the blocks the terminator leads to now come from the merge block.
    for k in function_at..end_at {
        let i = &mut e.insts[k];
        if opcode(i) == OP_PHI {
            for w in (4..i.len()).step_by(2) {
                if i[w] == block {
                    i[w] = merge;
                }
            }
        }
    }
    e.insts.splice(at..=last, code);
    true
}

#[cfg(test)]
mod tests {
    use crate::tests::validate;
    use crate::{Limits, LinkRequest, Stage, link};

    const VS: &str = "#version 400\nin vec4 p;\nvoid main() { gl_Position = p; }\n";

    fn fragment(fs: &str) -> Vec<u32> {
        let shaders = [(Stage::Vertex, VS), (Stage::Fragment, fs)];
        let p = link(&LinkRequest {
            shaders: &shaders,
            attrib_bindings: &[],
            frag_data_bindings: &[],
            limits: Limits::default(),
            xfb_varyings: &[],
            xfb_separate: false,
            separable: false,
        })
        .expect("links");
        p.stages
            .into_iter()
            .find(|(s, _)| *s == Stage::Fragment)
            .expect("a fragment stage")
            .1
    }

    /// The access chains into sampler or image arrays whose index is no constant.
    fn dynamic_accesses(words: &[u32]) -> usize {
        let e = crate::edit::Editor::parse(words).expect("parses");
        let constants: Vec<u32> = e
            .insts
            .iter()
            .filter(|i| crate::edit::opcode(i) == 43)
            .map(|i| i[2])
            .collect();
        let start = e.functions_start();
        let arrays: Vec<u32> = e.insts[..start]
            .iter()
            .filter(|i| crate::edit::opcode(i) == 59 && i[3] == 0)
            .map(|i| i[2])
            .collect();
        e.insts
            .iter()
            .filter(|i| crate::edit::opcode(i) == 65 && arrays.contains(&i[3]))
            .filter(|i| !constants.contains(&i[4]))
            .count()
    }

    /// The module's `OpSwitch` instructions.
    fn switches(words: &[u32]) -> usize {
        crate::spirv::instructions(words)
            .flatten()
            .filter(|(_, o, _)| *o == 251)
            .count()
    }

    #[test]
    fn sampler_arrays_indexed_by_uniforms_become_switches() {
        let fs = "#version 400
uniform sampler2D s[4];
uniform isampler2D t[3];
uniform int n;
uniform Blk { int m; };
out vec4 c;
vec4 f(sampler2D x) { return texture(x, vec2(0.5)); }
void main() {
    c = texture(s[n], vec2(0.25)) + float(textureSize(s[m], 0).x) * vec4(1.0);
    c += f(s[n + 1]);
    if (n > 1)
        c += vec4(texelFetch(t[m], ivec2(0), 0));
    c += textureLod(s[n & 3], vec2(0.75), 0.0);
}
";
        let words = fragment(fs);
        validate(&words);
        assert_eq!(dynamic_accesses(&words), 0);
        // s[n], s[m], s[n + 1] (passed to f), t[m] and s[n & 3].
        assert_eq!(switches(&words), 5);
    }

    #[test]
    fn constant_indices_are_left_alone() {
        let fs = "#version 400
uniform sampler2D s[4];
out vec4 c;
void main() { c = texture(s[2], vec2(0.25)) + texture(s[0], vec2(0.5)); }
";
        let words = fragment(fs);
        validate(&words);
        assert_eq!(switches(&words), 0);
    }

    #[test]
    fn image_arrays_in_loops_become_switches() {
        let fs = "#version 420
layout(rgba8) uniform image2D img[2];
uniform int n;
out vec4 c;
void main() {
    c = vec4(0.0);
    for (int i = 0; i < n; i++)
        c += imageLoad(img[i & 1], ivec2(i, 0));
}
";
        let words = fragment(fs);
        validate(&words);
        assert_eq!(dynamic_accesses(&words), 0);
        assert_eq!(switches(&words), 1);
    }
}

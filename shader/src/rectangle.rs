//! Rectangle textures as 2D ones: SPIR-V's `Dim Rect` (GL's `sampler2DRect`) exists in
//! neither Vulkan nor GLSL ES, so every stage is rewritten at link to read the rectangle
//! texture as a one-level 2D texture:
//! - each `Rect` image type becomes `2D` (merged with an identical 2D type if the module
//!   has one, since SPIR-V forbids declaring a type twice) and `SampledRect` goes;
//! - sampling coordinates, which address texels, are divided by the size of level 0
//!   (`OpImageQuerySizeLod`): the first two components of plain, `Dref` and `Gather`
//!   coordinates and of the `Proj` variants (whose `q` is left alone, so the division by
//!   `q` commutes), and both explicit gradients of `Grad`. Texel offsets stay as they are:
//!   they are in texels for 2D textures too. `texelFetch` addresses texels already;
//! - `textureSize` (`OpImageQuerySize`, which a sampled 2D image does not allow) becomes
//!   `OpImageQuerySizeLod` of level 0.
//!
//! A rectangle texture has one level, clamps its coordinates and is filtered as GL filters
//! it; a backend binds it as a 2D texture and samples it with normalized coordinates.

use std::collections::{HashMap, HashSet};

use crate::edit::{Editor, inst, op, opcode};
use crate::spirv::Malformed;

/// `Dim Rect` and `Dim 2D`.
const DIM_RECT: u32 = 4;
const DIM_2D: u32 = 1;
/// `Capability SampledRect` and `Capability ImageQuery`.
const CAPABILITY_SAMPLED_RECT: u32 = 37;
const CAPABILITY_IMAGE_QUERY: u32 = 50;
/// Image operand bits before `Grad`, and `Grad`.
const IMAGE_OPERAND_BIAS: u32 = 0x1;
const IMAGE_OPERAND_LOD: u32 = 0x2;
const IMAGE_OPERAND_GRAD: u32 = 0x4;

/// Opcodes of function code that produce no value (their second word is no result id).
fn has_no_result(opcode: u16) -> bool {
    matches!(
        opcode,
        8 | 56 | 62 | 63 | 99 | 218..=221 | 224 | 225 | 228 | 246..=255 | 317
    )
}

/// Whether a module uses rectangle images (the pass is needed).
pub(crate) fn uses_rectangles(words: &[u32]) -> bool {
    crate::spirv::instructions(words)
        .flatten()
        .any(|(_, o, w)| o == op::TYPE_IMAGE && w.get(3) == Some(&DIM_RECT))
}

/// Rewrites a module's rectangle images as 2D ones.
pub(crate) fn patch(words: &[u32]) -> Result<Vec<u32>, Malformed> {
    let mut e = Editor::parse(words)?;
    let rect_images: HashSet<u32> = e
        .insts
        .iter()
        .filter(|i| opcode(i) == op::TYPE_IMAGE && i.get(3) == Some(&DIM_RECT))
        .map(|i| i[1])
        .collect();
    if rect_images.is_empty() {
        return Ok(words.to_vec());
    }
    // Sampled image type -> its (rectangle) image type.
    let rect_sampled: HashMap<u32, u32> = e
        .insts
        .iter()
        .filter(|i| opcode(i) == op::TYPE_SAMPLED_IMAGE && i.len() == 3)
        .filter(|i| rect_images.contains(&i[2]))
        .map(|i| (i[1], i[2]))
        .collect();
    // The type of every value.
    let start = e.functions_start();
    let mut types: HashMap<u32, u32> = HashMap::new();
    for (n, i) in e.insts.iter().enumerate() {
        let o = opcode(i);
        let value = if n < start {
            matches!(o, 41..=52 | op::VARIABLE | op::UNDEF)
        } else {
            !has_no_result(o) && o != 248
        };
        if value && i.len() >= 3 {
            types.insert(i[2], i[1]);
        }
    }
    // Storage images (`image2DRect`, Sampled 2) keep `OpImageQuerySize`, which they
    // allow and `OpImageQuerySizeLod` does not (VUID-StandaloneSpirv-OpImageQuerySizeLod-04659).
    let storage: HashSet<u32> = e
        .insts
        .iter()
        .filter(|i| opcode(i) == op::TYPE_IMAGE && i.get(3) == Some(&DIM_RECT))
        .filter(|i| i.get(7) == Some(&2))
        .map(|i| i[1])
        .collect();
    for i in &mut e.insts {
        if opcode(i) == op::TYPE_IMAGE && i.get(3) == Some(&DIM_RECT) {
            i[3] = DIM_2D;
        }
    }
    e.insts
        .retain(|i| !(opcode(i) == op::CAPABILITY && i.get(1) == Some(&CAPABILITY_SAMPLED_RECT)));

    let float = e.float();
    let int = e.int();
    let v2float = e.vector(float, 2);
    let v2int = e.vector(int, 2);
    let zero = e.constant(int, 0);
    let one = e.constant(float, 1f32.to_bits());
    let mut queried = false;
    let mut at = e.functions_start();
    while at < e.insts.len() {
        let i = e.insts[at].clone();
        let o = opcode(&i);
        if o == op::IMAGE_QUERY_SIZE
            && i.len() == 4
            && types
                .get(&i[3])
                .is_some_and(|t| rect_images.contains(t) && !storage.contains(t))
        {
            e.insts[at] = inst(op::IMAGE_QUERY_SIZE_LOD, &[i[1], i[2], i[3], zero]);
            queried = true;
            at += 1;
            continue;
        }
        let sampling = matches!(
            o,
            op::IMAGE_SAMPLE_IMPLICIT_LOD
                ..=op::IMAGE_SAMPLE_PROJ_DREF_EXPLICIT_LOD
                    | op::IMAGE_GATHER
                    | op::IMAGE_DREF_GATHER
        );
        let image = i
            .get(3)
            .and_then(|si| types.get(si))
            .and_then(|t| rect_sampled.get(t));
        let (true, Some(&image), true) = (sampling, image, i.len() >= 5) else {
            at += 1;
            continue;
        };
        queried = true;
        let mut code = Vec::new();
        let img = e.fresh();
        code.push(inst(op::IMAGE, &[image, img, i[3]]));
        let size = e.fresh();
        code.push(inst(op::IMAGE_QUERY_SIZE_LOD, &[v2int, size, img, zero]));
        let sizef = e.fresh();
        code.push(inst(op::CONVERT_S_TO_F, &[v2float, sizef, size]));
        let mut patched = i.clone();
        // The coordinate: its first two components are texel coordinates.
        let coordinate = i[4];
        let components = types
            .get(&coordinate)
            .and_then(|t| e.declaration(*t))
            .filter(|t| opcode(t) == op::TYPE_VECTOR && t.len() == 4)
            .map_or(2, |t| t[3]);
        let (coordinate_ty, divisor) = if components == 2 {
            (v2float, sizef)
        } else {
            let ty = e.vector(float, components);
            let d = e.fresh();
            let mut parts = vec![ty, d, sizef];
            parts.extend(std::iter::repeat_n(one, components as usize - 2));
            code.push(inst(op::COMPOSITE_CONSTRUCT, &parts));
            (ty, d)
        };
        let normalized = e.fresh();
        code.push(inst(
            op::F_DIV,
            &[coordinate_ty, normalized, coordinate, divisor],
        ));
        patched[4] = normalized;
        // Explicit gradients are in texels too. Image operands follow the coordinate and
        // the Dref (or Gather's component), if any.
        let fifth_operand = matches!(
            o,
            op::IMAGE_SAMPLE_DREF_IMPLICIT_LOD
                | op::IMAGE_SAMPLE_DREF_EXPLICIT_LOD
                | op::IMAGE_SAMPLE_PROJ_DREF_IMPLICIT_LOD
                | op::IMAGE_SAMPLE_PROJ_DREF_EXPLICIT_LOD
                | op::IMAGE_GATHER
                | op::IMAGE_DREF_GATHER
        );
        let mask_at = if fifth_operand { 6 } else { 5 };
        if let Some(&mask) = patched.get(mask_at)
            && mask & IMAGE_OPERAND_GRAD != 0
        {
            let skip = usize::from(mask & IMAGE_OPERAND_BIAS != 0)
                + usize::from(mask & IMAGE_OPERAND_LOD != 0);
            let first = mask_at + 1 + skip;
            for g in first..(first + 2).min(patched.len()) {
                let d = e.fresh();
                code.push(inst(op::F_DIV, &[v2float, d, patched[g], sizef]));
                patched[g] = d;
            }
        }
        e.insts[at] = patched;
        at = e.insert(at, code) + 1;
    }
    if queried {
        e.capability(CAPABILITY_IMAGE_QUERY);
    }
    dedupe(&mut e, op::TYPE_IMAGE);
    dedupe(&mut e, op::TYPE_SAMPLED_IMAGE);
    Ok(e.finish())
}

/// Merges declarations of one type kind that became identical, keeping the first (every
/// use of a later one comes after the first's declaration).
fn dedupe(e: &mut Editor, kind: u16) {
    loop {
        let decls: Vec<Vec<u32>> = e
            .insts
            .iter()
            .filter(|i| opcode(i) == kind)
            .cloned()
            .collect();
        let pair = decls.iter().enumerate().find_map(|(n, a)| {
            decls[n + 1..]
                .iter()
                .find(|b| b[2..] == a[2..])
                .map(|b| (b[1], a[1]))
        });
        match pair {
            Some((later, first)) => e.replace_type(later, first),
            None => return,
        }
    }
}

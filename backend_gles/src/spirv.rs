//! The SPIR-V patches the GLES backend makes before translation: the sampler LOD bias, 1D
//! `texelFetchOffset` offsets folded into the coordinate ([`fold_1d_fetch_offsets`]), 1D
//! array textures made 2D array ones ([`widen_1d_arrays`]), fine and coarse derivatives made
//! plain ones ([`plain_derivatives`]) and group votes made single invocations' votes
//! ([`single_invocation_votes`]).
//!
//! The LOD bias: GLES samplers have no `TEXTURE_LOD_BIAS` (Vulkan's have `mipLodBias`), so each stage that
//! samples gets a plain uniform `float ts_lod_bias[S]` (`S` sampler slots) and every sampling
//! instruction whose sampled image comes from a slot's variable adds `ts_lod_bias[slot]` to
//! its level of detail, as GL adds the sampler's bias to the shader's:
//! - implicit-LOD sampling gets it as its `Bias` operand (summed with the shader's own);
//! - explicit-LOD sampling adds it to its `Lod`.
//!
//! Left alone: gradients (`Grad` cannot take a bias), gathers and fetches (no LOD), depth
//! comparisons of array or cube textures (GLSL ES has no biased or explicit-LOD variant of
//! those), and sampled images that are not loaded straight from a slot's variable (a
//! sampler passed to a function). The backend sets the uniform from the bound sampler CSOs
//! when it binds textures.

use std::collections::HashMap;

/// Name of the bias uniform in the translated GLSL.
pub(crate) const LOD_BIAS: &str = "ts_lod_bias";

pub(crate) mod op {
    pub const NAME: u16 = 5;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_FLOAT: u16 = 22;
    pub const TYPE_IMAGE: u16 = 25;
    pub const TYPE_SAMPLED_IMAGE: u16 = 27;
    pub const TYPE_ARRAY: u16 = 28;
    pub const TYPE_POINTER: u16 = 32;
    pub const CONSTANT: u16 = 43;
    pub const FUNCTION: u16 = 54;
    pub const VARIABLE: u16 = 59;
    pub const LOAD: u16 = 61;
    pub const ACCESS_CHAIN: u16 = 65;
    pub const DECORATE: u16 = 71;
    pub const SAMPLE_IMPLICIT: u16 = 87;
    pub const SAMPLE_EXPLICIT: u16 = 88;
    pub const SAMPLE_DREF_IMPLICIT: u16 = 89;
    pub const SAMPLE_DREF_EXPLICIT: u16 = 90;
    pub const SAMPLE_PROJ_IMPLICIT: u16 = 91;
    pub const SAMPLE_PROJ_EXPLICIT: u16 = 92;
    pub const SAMPLE_PROJ_DREF_IMPLICIT: u16 = 93;
    pub const SAMPLE_PROJ_DREF_EXPLICIT: u16 = 94;
    pub const IMAGE_FETCH: u16 = 95;
    pub const IMAGE: u16 = 100;
    pub const IMAGE_QUERY_SIZE_LOD: u16 = 103;
    pub const IMAGE_QUERY_SIZE: u16 = 104;
    pub const TYPE_VECTOR: u16 = 23;
    pub const CONSTANT_COMPOSITE: u16 = 44;
    pub const CONSTANT_NULL: u16 = 46;
    pub const VECTOR_SHUFFLE: u16 = 79;
    pub const COMPOSITE_CONSTRUCT: u16 = 80;
    pub const I_ADD: u16 = 128;
    pub const F_ADD: u16 = 129;
}

pub(crate) const STORAGE_UNIFORM_CONSTANT: u32 = 0;
pub(crate) const DECORATION_BINDING: u32 = 33;
const DIM_1D: u32 = 0;
const DIM_2D: u32 = 1;
const DIM_CUBE: u32 = 3;
const OPERAND_BIAS: u32 = 0x1;
const OPERAND_LOD: u32 = 0x2;
const OPERAND_GRAD: u32 = 0x4;
const OPERAND_CONST_OFFSET: u32 = 0x8;
const OPERAND_OFFSET: u32 = 0x10;

pub(crate) fn opcode(i: &[u32]) -> u16 {
    (i[0] & 0xffff) as u16
}

pub(crate) fn inst(opcode: u16, operands: &[u32]) -> Vec<u32> {
    let mut v = Vec::with_capacity(operands.len() + 1);
    v.push(((operands.len() as u32 + 1) << 16) | u32::from(opcode));
    v.extend_from_slice(operands);
    v
}

/// Whether an opcode belongs before the types section.
pub(crate) fn is_preamble(opcode: u16) -> bool {
    matches!(
        opcode,
        0..=8 | 10 | 11 | 14..=17 | 71..=75 | 317 | 330..=332 | 5632 | 5633
    )
}

/// What a sampling instruction needs: where its image operands start and which it may get.
fn sampling(opcode: u16) -> Option<(usize, bool, bool)> {
    // (index of the image operand mask, implicit LOD, depth comparison)
    Some(match opcode {
        op::SAMPLE_IMPLICIT | op::SAMPLE_PROJ_IMPLICIT => (5, true, false),
        op::SAMPLE_EXPLICIT | op::SAMPLE_PROJ_EXPLICIT => (5, false, false),
        op::SAMPLE_DREF_IMPLICIT | op::SAMPLE_PROJ_DREF_IMPLICIT => (6, true, true),
        op::SAMPLE_DREF_EXPLICIT | op::SAMPLE_PROJ_DREF_EXPLICIT => (6, false, true),
        _ => return None,
    })
}

/// A module split into instructions.
pub(crate) struct Module {
    pub header: Vec<u32>,
    pub insts: Vec<Vec<u32>>,
}

impl Module {
    pub fn parse(words: &[u32]) -> Option<Self> {
        if words.len() < 5 || words[0] != 0x0723_0203 {
            return None;
        }
        let mut insts = Vec::new();
        let mut at = 5;
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            if count == 0 || at + count > words.len() {
                return None;
            }
            insts.push(words[at..at + count].to_vec());
            at += count;
        }
        Some(Self {
            header: words[..5].to_vec(),
            insts,
        })
    }

    pub fn fresh(&mut self) -> u32 {
        let id = self.header[3];
        self.header[3] += 1;
        id
    }

    pub fn functions_start(&self) -> usize {
        self.insts
            .iter()
            .position(|i| opcode(i) == op::FUNCTION)
            .unwrap_or(self.insts.len())
    }

    fn types_start(&self) -> usize {
        self.insts
            .iter()
            .position(|i| !is_preamble(opcode(i)))
            .unwrap_or(self.insts.len())
    }

    /// A scalar type, declared at the start of the types section if missing.
    pub fn scalar(&mut self, opcode_: u16, operands: &[u32]) -> u32 {
        if let Some(i) = self.insts[..self.functions_start()]
            .iter()
            .find(|i| opcode(i) == opcode_ && i.len() >= 2 && i[2..] == *operands)
        {
            return i[1];
        }
        let id = self.fresh();
        let mut ops = vec![id];
        ops.extend_from_slice(operands);
        let at = self.types_start();
        self.insts.insert(at, inst(opcode_, &ops));
        id
    }

    /// Appends a global declaration.
    pub fn global(&mut self, i: Vec<u32>) {
        let at = self.functions_start();
        self.insts.insert(at, i);
    }

    pub fn declaration(&self, id: u32) -> Option<&[u32]> {
        self.insts[..self.functions_start()]
            .iter()
            .find(|i| match opcode(i) {
                19..=39 => i.get(1) == Some(&id),
                41..=52 | op::VARIABLE => i.get(2) == Some(&id),
                _ => false,
            })
            .map(Vec::as_slice)
    }

    /// The type of a value: a global's from its declaration, a function's from the first
    /// instruction that names it as its result (definitions come before uses in SPIR-V's
    /// block order).
    pub fn type_of(&self, id: u32) -> Option<u32> {
        if let Some(d) = self.declaration(id) {
            return (opcode(d) >= 41).then(|| d[1]);
        }
        let start = self.functions_start();
        self.insts[start..]
            .iter()
            .find(|i| i.len() >= 3 && i[2] == id)
            .map(|i| i[1])
    }

    /// The component type and count of a vector type.
    fn vector_of(&self, ty: u32) -> Option<(u32, u32)> {
        self.declaration(ty)
            .filter(|d| opcode(d) == op::TYPE_VECTOR && d.len() == 4)
            .map(|d| (d[2], d[3]))
    }

    /// A vector type, declared after the other globals if missing.
    pub fn vector(&mut self, component: u32, count: u32) -> u32 {
        let start = self.functions_start();
        if let Some(i) = self.insts[..start]
            .iter()
            .find(|i| opcode(i) == op::TYPE_VECTOR && i[2..] == [component, count])
        {
            return i[1];
        }
        let id = self.fresh();
        self.global(inst(op::TYPE_VECTOR, &[id, component, count]));
        id
    }

    /// The null constant of a type, declared after the other globals if missing.
    fn null(&mut self, ty: u32) -> u32 {
        let start = self.functions_start();
        if let Some(i) = self.insts[..start]
            .iter()
            .find(|i| opcode(i) == op::CONSTANT_NULL && i[1] == ty)
        {
            return i[2];
        }
        let id = self.fresh();
        self.global(inst(op::CONSTANT_NULL, &[ty, id]));
        id
    }

    #[cfg(test)]
    fn vector_of_id(&self, component: u32, count: u32) -> Option<u32> {
        self.insts
            .iter()
            .find(|i| opcode(i) == op::TYPE_VECTOR && i[2..] == [component, count])
            .map(|i| i[1])
    }

    pub fn finish(self) -> Vec<u32> {
        let mut out = self.header;
        for i in self.insts {
            out.extend(i);
        }
        out
    }
}

/// Adds the sampler LOD bias to a stage; `None` when it samples nothing it applies to.
pub(crate) fn add_lod_bias(words: &[u32], samplers: u32) -> Option<Vec<u32>> {
    if samplers == 0 {
        return None;
    }
    let mut m = Module::parse(words)?;
    let start = m.functions_start();
    // Sampler variables and their slots (binding 1 + slot).
    let slot_of = |m: &Module, var: u32| {
        m.insts.iter().find_map(|i| {
            (opcode(i) == op::DECORATE && i.len() == 4 && i[1] == var && i[2] == DECORATION_BINDING)
                .then(|| i[3].checked_sub(1))
                .flatten()
                .filter(|s| *s < samplers)
        })
    };
    // Function-local definitions of loads and access chains.
    let defs: HashMap<u32, Vec<u32>> = m.insts[start..]
        .iter()
        .filter(|i| matches!(opcode(i), op::LOAD | op::ACCESS_CHAIN) && i.len() >= 4)
        .map(|i| (i[2], i.clone()))
        .collect();
    // Each sampling instruction that can take the bias, by result id: (slot, array index).
    let mut sites = HashMap::new();
    for i in &m.insts[start..] {
        let Some((mask_at, implicit, dref)) = sampling(opcode(i)) else {
            continue;
        };
        let Some(load) = i.get(3).and_then(|si| defs.get(si)) else {
            continue;
        };
        if opcode(load) != op::LOAD {
            continue;
        }
        let (var, index) = match defs.get(&load[3]) {
            Some(chain) if opcode(chain) == op::ACCESS_CHAIN && chain.len() == 5 => {
                (chain[3], Some(chain[4]))
            }
            Some(_) => continue,
            None => (load[3], None),
        };
        let Some(slot) = slot_of(&m, var) else {
            continue;
        };
        let mask = i.get(mask_at).copied().unwrap_or(0);
        if !implicit && mask & OPERAND_LOD == 0 {
            continue;
        }
        if dref {
            // The image type: sampled image type -> image; arrayed or cube comparisons have
            // no biased or explicit-LOD form in GLSL ES.
            let image = m
                .declaration(load[1])
                .filter(|t| opcode(t) == op::TYPE_SAMPLED_IMAGE)
                .and_then(|t| m.declaration(t[2]))
                .filter(|t| opcode(t) == op::TYPE_IMAGE && t.len() >= 6);
            match image {
                Some(t) if t[3] != DIM_CUBE && t[5] == 0 => {}
                _ => continue,
            }
        }
        sites.insert(i[2], (slot, index));
    }
    if sites.is_empty() {
        return None;
    }

    // The uniform: `float ts_lod_bias[samplers]`, and a constant per slot used.
    let float = m.scalar(op::TYPE_FLOAT, &[32]);
    let int = m.scalar(op::TYPE_INT, &[32, 1]);
    let uint = m.scalar(op::TYPE_INT, &[32, 0]);
    let length = m.fresh();
    m.global(inst(op::CONSTANT, &[uint, length, samplers]));
    let array = m.fresh();
    m.global(inst(op::TYPE_ARRAY, &[array, float, length]));
    let array_ptr = m.fresh();
    m.global(inst(
        op::TYPE_POINTER,
        &[array_ptr, STORAGE_UNIFORM_CONSTANT, array],
    ));
    let float_ptr = m.fresh();
    m.global(inst(
        op::TYPE_POINTER,
        &[float_ptr, STORAGE_UNIFORM_CONSTANT, float],
    ));
    let bias = m.fresh();
    m.global(inst(
        op::VARIABLE,
        &[array_ptr, bias, STORAGE_UNIFORM_CONSTANT],
    ));
    let mut name = vec![bias];
    name.extend(literal(LOD_BIAS));
    let at = m
        .insts
        .iter()
        .position(|i| matches!(opcode(i), 71..=75 | 332 | 5632 | 5633) || !is_preamble(opcode(i)))
        .unwrap_or(0);
    m.insts.insert(at, inst(op::NAME, &name));
    let mut constants = HashMap::new();
    for (slot, _) in sites.values() {
        if !constants.contains_key(slot) {
            let id = m.fresh();
            m.global(inst(op::CONSTANT, &[int, id, *slot]));
            constants.insert(*slot, id);
        }
    }

    // The code, before each site.
    let mut at = m.functions_start();
    while at < m.insts.len() {
        let site = m.insts[at].get(2).and_then(|id| sites.get(id)).copied();
        let (Some((slot, index)), Some((mask_at, implicit, _))) =
            (site, sampling(opcode(&m.insts[at])))
        else {
            at += 1;
            continue;
        };
        let mut code = Vec::new();
        let element = match index {
            Some(idx) => {
                let e = m.fresh();
                code.push(inst(op::I_ADD, &[int, e, constants[&slot], idx]));
                e
            }
            None => constants[&slot],
        };
        let p = m.fresh();
        code.push(inst(op::ACCESS_CHAIN, &[float_ptr, p, bias, element]));
        let b = m.fresh();
        code.push(inst(op::LOAD, &[float, b, p]));
        let mut s = m.insts[at].clone();
        let mask = s.get(mask_at).copied().unwrap_or(0);
        if !implicit || mask & OPERAND_BIAS != 0 {
            // The shader's own bias, or the explicit LOD (after a bias, which an explicit
            // LOD never has).
            let operand = mask_at + 1 + usize::from(!implicit && mask & OPERAND_BIAS != 0);
            let sum = m.fresh();
            code.push(inst(op::F_ADD, &[float, sum, s[operand], b]));
            s[operand] = sum;
        } else if s.len() > mask_at {
            // Bias is the first of the image operands.
            s[mask_at] |= OPERAND_BIAS;
            s.insert(mask_at + 1, b);
        } else {
            s.push(OPERAND_BIAS);
            s.push(b);
        }
        s[0] = ((s.len() as u32) << 16) | (s[0] & 0xffff);
        m.insts[at] = s;
        let added = code.len();
        m.insts.splice(at..at, code);
        at += added + 1;
    }
    Some(m.finish())
}

/// Folds the constant offset of each `texelFetchOffset` of a non-arrayed 1D texture into
/// its coordinate; `None` when the stage has none.
///
/// SPIRV-Cross writes 1D textures as 2D ones for GLSL ES (`sampler2D`, the coordinate
/// widened to `ivec2(x, 0)`) but passes the offset on as the one-component `int` it is in
/// SPIR-V, which no GLSL ES `texelFetchOffset` takes. A fetch addresses texels, so
/// `texelFetch(s, x + offset, lod)` reads the same texel as `texelFetchOffset(s, x, lod,
/// offset)`: the pass adds the offset to the coordinate and drops the `ConstOffset` operand.
pub(crate) fn fold_1d_fetch_offsets(words: &[u32]) -> Option<Vec<u32>> {
    let mut m = Module::parse(words)?;
    let start = m.functions_start();
    let images_1d: Vec<u32> = m.insts[..start]
        .iter()
        .filter(|i| opcode(i) == op::TYPE_IMAGE && i.len() >= 9)
        .filter(|i| i[3] == DIM_1D && i[5] == 0)
        .map(|i| i[1])
        .collect();
    if images_1d.is_empty() {
        return None;
    }
    // Images of those types (`OpImage` of a sampled image), by result id.
    let images: Vec<u32> = m.insts[start..]
        .iter()
        .filter(|i| opcode(i) == op::IMAGE && i.len() == 4 && images_1d.contains(&i[1]))
        .map(|i| i[2])
        .collect();
    let mut at = start;
    let mut folded = false;
    while at < m.insts.len() {
        let i = &m.insts[at];
        let mask = i.get(5).copied().unwrap_or(0);
        if opcode(i) != op::IMAGE_FETCH
            || !images.contains(&i[3])
            || mask & OPERAND_CONST_OFFSET == 0
        {
            at += 1;
            continue;
        }
        // Operands in mask-bit order: Bias, Lod (one each) and Grad (two) come first.
        let skip = (mask & (OPERAND_BIAS | OPERAND_LOD)).count_ones() as usize
            + 2 * usize::from(mask & OPERAND_GRAD != 0);
        let offset_at = 6 + skip;
        let Some(&offset) = i.get(offset_at) else {
            at += 1;
            continue;
        };
        let Some(int) = m.declaration(offset).map(|d| d[1]) else {
            at += 1;
            continue;
        };
        let mut fetch = i.clone();
        let sum = m.fresh();
        let add = inst(op::I_ADD, &[int, sum, fetch[4], offset]);
        fetch[4] = sum;
        fetch.remove(offset_at);
        fetch[5] &= !OPERAND_CONST_OFFSET;
        if fetch[5] == 0 {
            fetch.truncate(5);
        }
        fetch[0] = ((fetch.len() as u32) << 16) | u32::from(op::IMAGE_FETCH);
        m.insts[at] = fetch;
        m.insts.insert(at, add);
        folded = true;
        at += 2;
    }
    folded.then(|| m.finish())
}

/// Makes every 1D array texture of a stage a 2D array one; `None` when it has none.
///
/// GLSL ES has no 1D textures and the backend stores a 1D array as a 2D array of height 1.
/// SPIRV-Cross writes a 1D array's sampler as a `sampler2DArray` and widens the coordinate
/// of a lookup to `(x, 0, layer)`, but passes every other operand on in its 1D form, which
/// no GLSL ES function takes: `textureSize` keeps only the width (`.x` of the 2D array's
/// size, where the layers are asked too), and an offset or gradient stays an `int` or a
/// `float` where the 2D array form takes an `ivec2` or a `vec2`. So the pass changes the
/// image type itself to a 2D array and each use of it to the 2D array form that reads the
/// same texels:
/// - a coordinate `(x, layer, ...)` becomes `(x, 0, layer)` (an `OpVectorShuffle` with zeros);
/// - an offset `o` becomes `(o, 0)`, a gradient `d` becomes `(d, 0)`;
/// - a size query asks for `(width, 1, layers)` and keeps `(width, layers)`.
///
/// Row 0 of a height-1 image is the only row, so sampling, fetching and filtering are
/// unchanged.
pub(crate) fn widen_1d_arrays(words: &[u32]) -> Option<Vec<u32>> {
    let mut m = Module::parse(words)?;
    let start = m.functions_start();
    let arrays: Vec<usize> = (0..start)
        .filter(|&at| {
            let i = &m.insts[at];
            opcode(i) == op::TYPE_IMAGE && i.len() >= 9 && i[3] == DIM_1D && i[5] == 1
        })
        .collect();
    if arrays.is_empty() {
        return None;
    }
    let mut typed: Vec<u32> = arrays.iter().map(|&at| m.insts[at][1]).collect();
    for &at in &arrays {
        m.insts[at][3] = DIM_2D;
    }
    typed.extend(
        m.insts[..start]
            .iter()
            .filter(|i| opcode(i) == op::TYPE_SAMPLED_IMAGE && typed.contains(&i[2]))
            .map(|i| i[1])
            .collect::<Vec<_>>(),
    );
    // Values of those types (loads, `OpSampledImage`, `OpImage`, parameters, copies).
    let values: Vec<u32> = m.insts[start..]
        .iter()
        .filter(|i| i.len() >= 3 && typed.contains(&i[1]))
        .map(|i| i[2])
        .collect();
    let mut at = m.functions_start();
    let mut changed = false;
    while at < m.insts.len() {
        let code = opcode(&m.insts[at]);
        let uses = m.insts[at].len() >= 4 && values.contains(&m.insts[at][3]);
        if !uses {
            at += 1;
            continue;
        }
        let fs = m.functions_start();
        let mut before = Vec::new();
        let mut after = Vec::new();
        let mut i = m.insts[at].clone();
        match code {
            op::IMAGE_QUERY_SIZE_LOD | op::IMAGE_QUERY_SIZE => {
                // (width, layers) -> ask (width, 1, layers), keep components 0 and 2.
                let Some((comp, 2)) = m.vector_of(i[1]) else {
                    at += 1;
                    continue;
                };
                let wide = m.vector(comp, 3);
                let sum = m.fresh();
                let (ty, id) = (i[1], i[2]);
                i[1] = wide;
                i[2] = sum;
                after.push(inst(op::VECTOR_SHUFFLE, &[ty, id, sum, sum, 0, 2]));
            }
            op::IMAGE_FETCH | op::SAMPLE_IMPLICIT..=op::SAMPLE_DREF_EXPLICIT => {
                let mask_at = if code == op::IMAGE_FETCH {
                    5
                } else {
                    let Some((mask_at, _, _)) = sampling(code) else {
                        at += 1;
                        continue;
                    };
                    mask_at
                };
                // The coordinate (x, layer) -> (x, 0, layer).
                let coord = i[4];
                let Some(ty) = m.type_of(coord) else {
                    at += 1;
                    continue;
                };
                // (A depth comparison's may carry the reference as a third component.)
                let Some((comp, n @ 2..)) = m.vector_of(ty) else {
                    at += 1;
                    continue;
                };
                let wide = m.vector(comp, 3);
                let zeros = m.null(ty);
                let id = m.fresh();
                before.push(inst(op::VECTOR_SHUFFLE, &[wide, id, coord, zeros, 0, n, 1]));
                i[4] = id;
                let mask = i.get(mask_at).copied().unwrap_or(0);
                let mut o = mask_at + 1;
                for bit in 0..8 {
                    let flag = 1u32 << bit;
                    if mask & flag == 0 {
                        continue;
                    }
                    let count = if flag == OPERAND_GRAD { 2 } else { 1 };
                    if flag & (OPERAND_GRAD | OPERAND_CONST_OFFSET | OPERAND_OFFSET) != 0 {
                        for k in 0..count {
                            let Some(&scalar) = i.get(o + k) else { break };
                            let Some(sty) = m.type_of(scalar) else { break };
                            let pair = m.vector(sty, 2);
                            let zero = m.null(sty);
                            if flag == OPERAND_CONST_OFFSET {
                                let id = m.fresh();
                                m.global(inst(op::CONSTANT_COMPOSITE, &[pair, id, scalar, zero]));
                                i[o + k] = id;
                            } else {
                                let id = m.fresh();
                                before
                                    .push(inst(op::COMPOSITE_CONSTRUCT, &[pair, id, scalar, zero]));
                                i[o + k] = id;
                            }
                        }
                    }
                    o += count;
                }
            }
            _ => {
                at += 1;
                continue;
            }
        }
        // Globals the pass declared for this instruction moved it down.
        let at_now = at + (m.functions_start() - fs);
        changed = true;
        let n_before = before.len();
        let n_after = after.len();
        m.insts[at_now] = i;
        for (k, b) in before.into_iter().enumerate() {
            m.insts.insert(at_now + k, b);
        }
        for (k, a) in after.into_iter().enumerate() {
            m.insts.insert(at_now + n_before + 1 + k, a);
        }
        at = at_now + n_before + 1 + n_after;
    }
    changed.then(|| m.finish())
}

/// A literal string as SPIR-V words.
pub(crate) fn literal(s: &str) -> Vec<u32> {
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

/// GLSL ES has only `dFdx`, `dFdy` and `fwidth`: the fine and coarse forms (GLSL 4.50's,
/// `GL_ARB_derivative_control`) become them and the `DerivativeControl` capability goes.
/// GL leaves the plain forms' precision to the implementation, and llvmpipe computes every
/// derivative per pixel within its 2x2 quads, the fine forms' way, in its desktop contexts as
/// in its GLES ones (tests/tests/derivative_control.rs compares the coarse forms with them).
/// `None` when the module has no fine or coarse derivative.
pub(crate) fn plain_derivatives(words: &[u32]) -> Option<Vec<u32>> {
    const CAPABILITY: u16 = 17;
    const DERIVATIVE_CONTROL: u32 = 51;
    const DPDX: u16 = 207;
    const DPDX_FINE: u16 = 210;
    const FWIDTH_COARSE: u16 = 215;
    let controlled = |o: u16| (DPDX_FINE..=FWIDTH_COARSE).contains(&o);
    let mut at = 5;
    let mut found = false;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return None;
        }
        found |= controlled(opcode(&words[at..]));
        at += count;
    }
    if !found {
        return None;
    }
    let mut out = Vec::with_capacity(words.len());
    out.extend_from_slice(&words[..5]);
    let mut at = 5;
    while at < words.len() {
        let i = &words[at..at + (words[at] >> 16) as usize];
        at += i.len();
        let o = opcode(i);
        if o == CAPABILITY && i.get(1) == Some(&DERIVATIVE_CONTROL) {
            continue;
        }
        out.extend_from_slice(i);
        if controlled(o) {
            // DPdxFine, DPdyFine, FwidthFine, DPdxCoarse, ... in threes after DPdx, DPdy, Fwidth.
            let start = out.len() - i.len();
            out[start] = (out[start] & 0xffff_0000) | u32::from(DPDX + (o - DPDX_FINE) % 3);
        }
    }
    Some(out)
}

/// GLSL ES has no group votes (`GL_ARB_shader_group_vote`'s `anyInvocationARB`,
/// `allInvocationsARB` and `allInvocationsEqualARB`, GLSL 4.60's names without `ARB`, which
/// glslang makes `OpSubgroupAnyKHR`, `OpSubgroupAllKHR` and `OpSubgroupAllEqualKHR`): each
/// invocation is a group of its own, which the extension allows ("simply returning <value>
/// for anyInvocationARB() and allInvocationsARB() and returning true for
/// allInvocationsEqualARB() is a legal implementation"). Any and all become a copy of the
/// value, all-equal the value compared with itself, and the `SubgroupVoteKHR` capability and
/// the `SPV_KHR_subgroup_vote` extension go. `None` when the module votes nowhere.
pub(crate) fn single_invocation_votes(words: &[u32]) -> Option<Vec<u32>> {
    const CAPABILITY: u16 = 17;
    const EXTENSION: u16 = 10;
    const COPY_OBJECT: u16 = 83;
    const LOGICAL_EQUAL: u16 = 164;
    const ALL: u16 = 4428;
    const ANY: u16 = 4429;
    const ALL_EQUAL: u16 = 4430;
    const SUBGROUP_VOTE: u32 = 4431;
    let vote = |o: u16| (ALL..=ALL_EQUAL).contains(&o);
    let mut at = 5;
    let mut found = false;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return None;
        }
        found |= vote(opcode(&words[at..]));
        at += count;
    }
    if !found {
        return None;
    }
    let extension = literal("SPV_KHR_subgroup_vote");
    let mut out = Vec::with_capacity(words.len());
    out.extend_from_slice(&words[..5]);
    let mut at = 5;
    while at < words.len() {
        let i = &words[at..at + (words[at] >> 16) as usize];
        at += i.len();
        match opcode(i) {
            CAPABILITY if i.get(1) == Some(&SUBGROUP_VOTE) => {}
            EXTENSION if i[1..] == extension[..] => {}
            ANY | ALL if i.len() == 4 => out.extend(inst(COPY_OBJECT, &i[1..])),
            ALL_EQUAL if i.len() == 4 => out.extend(inst(LOGICAL_EQUAL, &[i[1], i[2], i[3], i[3]])),
            _ => out.extend_from_slice(i),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fragment module sampling slot 1 (binding 2) with implicit and explicit LOD.
    fn module() -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 17, 0];
        let mut ep = vec![4, 1];
        ep.extend(literal("main"));
        for i in [
            inst(17, &[1]),
            inst(14, &[0, 1]),
            inst(15, &ep),
            inst(op::DECORATE, &[10, DECORATION_BINDING, 2]),
            inst(op::TYPE_FLOAT, &[2, 32]),
            inst(23, &[3, 2, 4]),
            inst(23, &[4, 2, 2]),
            inst(op::TYPE_IMAGE, &[5, 2, 1, 0, 0, 0, 1, 0]),
            inst(op::TYPE_SAMPLED_IMAGE, &[6, 5]),
            inst(op::TYPE_POINTER, &[7, STORAGE_UNIFORM_CONSTANT, 6]),
            inst(op::VARIABLE, &[7, 10, STORAGE_UNIFORM_CONSTANT]),
            inst(19, &[8]),
            inst(33, &[9, 8]),
            inst(46, &[4, 11]),
            inst(op::CONSTANT, &[2, 15, 0]),
            inst(op::FUNCTION, &[8, 1, 0, 9]),
            inst(248, &[12]),
            inst(op::LOAD, &[6, 13, 10]),
            inst(op::SAMPLE_IMPLICIT, &[3, 14, 13, 11]),
            inst(op::SAMPLE_EXPLICIT, &[3, 16, 13, 11, OPERAND_LOD, 15]),
            inst(253, &[]),
            inst(56, &[]),
        ] {
            w.extend(i);
        }
        w
    }

    /// A geometry module fetching a 1D texture (x + 7) at level 2.
    fn fetch_1d(const_offset: bool) -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 30, 0];
        let mut ep = vec![3, 1];
        ep.extend(literal("main"));
        let fetch = if const_offset {
            inst(
                op::IMAGE_FETCH,
                &[3, 16, 14, 15, OPERAND_LOD | OPERAND_CONST_OFFSET, 12, 11],
            )
        } else {
            inst(op::IMAGE_FETCH, &[3, 16, 14, 15, OPERAND_LOD, 12])
        };
        for i in [
            inst(17, &[1]),
            inst(14, &[0, 1]),
            inst(15, &ep),
            inst(op::DECORATE, &[10, DECORATION_BINDING, 1]),
            inst(op::TYPE_FLOAT, &[2, 32]),
            inst(23, &[3, 2, 4]),
            inst(op::TYPE_INT, &[4, 32, 1]),
            inst(op::TYPE_IMAGE, &[5, 2, DIM_1D, 0, 0, 0, 1, 0]),
            inst(op::TYPE_SAMPLED_IMAGE, &[6, 5]),
            inst(op::TYPE_POINTER, &[7, STORAGE_UNIFORM_CONSTANT, 6]),
            inst(op::VARIABLE, &[7, 10, STORAGE_UNIFORM_CONSTANT]),
            inst(op::CONSTANT, &[4, 11, 7]),
            inst(op::CONSTANT, &[4, 12, 2]),
            inst(op::CONSTANT, &[4, 15, 3]),
            inst(19, &[8]),
            inst(33, &[9, 8]),
            inst(op::FUNCTION, &[8, 1, 0, 9]),
            inst(248, &[17]),
            inst(op::LOAD, &[6, 13, 10]),
            inst(op::IMAGE, &[5, 14, 13]),
            fetch,
            inst(253, &[]),
            inst(56, &[]),
        ] {
            w.extend(i);
        }
        w
    }

    /// A module querying the size of a 1D array texture (level 2) and fetching its texel
    /// (3, layer 1) + 7 at level 2.
    fn fetch_1d_array() -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 40, 0];
        let mut ep = vec![3, 1];
        ep.extend(literal("main"));
        for i in [
            inst(17, &[1]),
            inst(14, &[0, 1]),
            inst(15, &ep),
            inst(op::DECORATE, &[10, DECORATION_BINDING, 1]),
            inst(op::TYPE_FLOAT, &[2, 32]),
            inst(op::TYPE_VECTOR, &[3, 2, 4]),
            inst(op::TYPE_INT, &[4, 32, 1]),
            inst(op::TYPE_IMAGE, &[5, 2, DIM_1D, 0, 1, 0, 1, 0]),
            inst(op::TYPE_SAMPLED_IMAGE, &[6, 5]),
            inst(op::TYPE_POINTER, &[7, STORAGE_UNIFORM_CONSTANT, 6]),
            inst(op::VARIABLE, &[7, 10, STORAGE_UNIFORM_CONSTANT]),
            inst(op::TYPE_VECTOR, &[20, 4, 2]),
            inst(op::CONSTANT, &[4, 11, 7]),
            inst(op::CONSTANT, &[4, 12, 2]),
            inst(op::CONSTANT, &[4, 21, 3]),
            inst(op::CONSTANT, &[4, 22, 1]),
            inst(op::CONSTANT_COMPOSITE, &[20, 15, 21, 22]),
            inst(19, &[8]),
            inst(33, &[9, 8]),
            inst(op::FUNCTION, &[8, 1, 0, 9]),
            inst(248, &[17]),
            inst(op::LOAD, &[6, 13, 10]),
            inst(op::IMAGE, &[5, 14, 13]),
            inst(op::IMAGE_QUERY_SIZE_LOD, &[20, 18, 14, 12]),
            inst(
                op::IMAGE_FETCH,
                &[3, 16, 14, 15, OPERAND_LOD | OPERAND_CONST_OFFSET, 12, 11],
            ),
            inst(253, &[]),
            inst(56, &[]),
        ] {
            w.extend(i);
        }
        w
    }

    #[test]
    fn a_1d_array_becomes_a_2d_array() {
        assert!(widen_1d_arrays(&fetch_1d(true)).is_none(), "no 1D array");
        let out = widen_1d_arrays(&fetch_1d_array()).expect("widened");
        let m = Module::parse(&out).expect("well formed");
        let find = |code: u16| {
            m.insts
                .iter()
                .position(|i| opcode(i) == code)
                .expect("instruction")
        };
        assert_eq!(m.insts[find(op::TYPE_IMAGE)][3], DIM_2D);
        let ivec3 = m.vector_of_id(4, 3).expect("an ivec3 type");
        // The size: (width, 1, layers) asked, (width, layers) kept under the old id.
        let q = find(op::IMAGE_QUERY_SIZE_LOD);
        let query = &m.insts[q];
        assert_eq!((query[1], query[3], query[4]), (ivec3, 14, 12));
        assert_eq!(m.insts[q + 1][1..], [20, 18, query[2], query[2], 0, 2]);
        // The fetch: coordinate (3, 0, 1), offset (7, 0).
        let f = find(op::IMAGE_FETCH);
        let shuffle = &m.insts[f - 1];
        assert_eq!(opcode(shuffle), op::VECTOR_SHUFFLE);
        assert_eq!(shuffle[1], ivec3);
        assert_eq!((shuffle[3], shuffle[5..].to_vec()), (15, vec![0, 2, 1]));
        let null = m.declaration(shuffle[4]).expect("the zeros");
        assert_eq!((opcode(null), null[1]), (op::CONSTANT_NULL, 20));
        let fetch = &m.insts[f];
        assert_eq!(fetch[4], shuffle[2]);
        assert_eq!(fetch[5..7], [OPERAND_LOD | OPERAND_CONST_OFFSET, 12]);
        let offset = m.declaration(fetch[7]).expect("the offset");
        assert_eq!(opcode(offset), op::CONSTANT_COMPOSITE);
        assert_eq!(offset[1], 20);
        assert_eq!(offset[3], 11);
        let zero = m.declaration(offset[4]).expect("a zero");
        assert_eq!((opcode(zero), zero[1]), (op::CONSTANT_NULL, 4));
        // Every new declaration comes before the function.
        assert!(find(op::CONSTANT_COMPOSITE) < find(op::FUNCTION));
    }

    #[test]
    fn a_1d_array_comparison_keeps_its_reference_out_of_the_coordinate() {
        // texture(sampler1DArrayShadow, (0.5, 1, 0.25)) at level 0: SPIR-V passes the
        // reference both as a third coordinate component and as its Dref operand.
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 40, 0];
        let mut ep = vec![4, 1];
        ep.extend(literal("main"));
        let explicit = op::SAMPLE_DREF_EXPLICIT;
        for i in [
            inst(17, &[1]),
            inst(14, &[0, 1]),
            inst(15, &ep),
            inst(op::TYPE_FLOAT, &[2, 32]),
            inst(op::TYPE_VECTOR, &[3, 2, 3]),
            inst(op::TYPE_IMAGE, &[5, 2, DIM_1D, 1, 1, 0, 1, 0]),
            inst(op::TYPE_SAMPLED_IMAGE, &[6, 5]),
            inst(op::TYPE_POINTER, &[7, STORAGE_UNIFORM_CONSTANT, 6]),
            inst(op::VARIABLE, &[7, 10, STORAGE_UNIFORM_CONSTANT]),
            inst(op::CONSTANT, &[2, 11, 0x3f00_0000]),
            inst(op::CONSTANT, &[2, 12, 0x3f80_0000]),
            inst(op::CONSTANT, &[2, 13, 0x3e80_0000]),
            inst(op::CONSTANT, &[2, 14, 0]),
            inst(op::CONSTANT_COMPOSITE, &[3, 15, 11, 12, 13]),
            inst(19, &[8]),
            inst(33, &[9, 8]),
            inst(op::FUNCTION, &[8, 1, 0, 9]),
            inst(248, &[17]),
            inst(op::LOAD, &[6, 16, 10]),
            inst(explicit, &[2, 18, 16, 15, 13, OPERAND_LOD, 14]),
            inst(253, &[]),
            inst(56, &[]),
        ] {
            w.extend(i);
        }
        let out = widen_1d_arrays(&w).expect("widened");
        let m = Module::parse(&out).expect("well formed");
        let at = m
            .insts
            .iter()
            .position(|i| opcode(i) == explicit)
            .expect("the lookup");
        let shuffle = &m.insts[at - 1];
        assert_eq!(opcode(shuffle), op::VECTOR_SHUFFLE);
        // (x, 0, layer): component 3 is the first of the zeros.
        assert_eq!((shuffle[1], shuffle[3]), (3, 15));
        assert_eq!(shuffle[5..], [0, 3, 1]);
        assert_eq!(m.insts[at][3..], [16, shuffle[2], 13, OPERAND_LOD, 14]);
    }

    #[test]
    fn a_1d_fetch_offset_moves_into_the_coordinate() {
        assert!(
            fold_1d_fetch_offsets(&fetch_1d(false)).is_none(),
            "no offset"
        );
        let out = fold_1d_fetch_offsets(&fetch_1d(true)).expect("folded");
        let m = Module::parse(&out).expect("well formed");
        let at = m
            .insts
            .iter()
            .position(|i| opcode(i) == op::IMAGE_FETCH)
            .expect("the fetch");
        // texelFetch(s, 3 + 7, 2): Lod only.
        let fetch = &m.insts[at];
        assert_eq!(fetch[1..4], [3, 16, 14]);
        assert_eq!(fetch[5..], [OPERAND_LOD, 12]);
        let add = &m.insts[at - 1];
        assert_eq!(opcode(add), op::I_ADD);
        assert_eq!([add[1], add[2], add[3], add[4]], [4, fetch[4], 15, 11]);
    }

    #[test]
    fn sampling_adds_the_slot_bias() {
        assert!(add_lod_bias(&module(), 0).is_none(), "no sampler slots");
        let out = add_lod_bias(&module(), 3).expect("patched");
        let m = Module::parse(&out).expect("well formed");
        let find = |o: u16| m.insts.iter().find(|i| opcode(i) == o).expect("present");
        let name = find(op::NAME);
        assert_eq!(name[2..], literal(LOD_BIAS)[..]);
        let bias = name[1];
        // float ts_lod_bias[3], read at constant 1 (slot 1).
        let var = m.declaration(bias).expect("declared");
        let array = m.declaration(var[1]).expect("pointer")[3];
        let length = m.declaration(array).expect("array")[3];
        assert_eq!(m.declaration(length).expect("length")[3], 3);
        // Each site loads ts_lod_bias[1] (slot 1) before itself.
        let bias_load = |id: u32| {
            let load = m
                .insts
                .iter()
                .find(|i| opcode(i) == op::LOAD && i[2] == id)
                .expect("a load");
            let chain = m
                .insts
                .iter()
                .find(|i| opcode(i) == op::ACCESS_CHAIN && i[2] == load[3])
                .expect("an access chain");
            chain[3] == bias && m.declaration(chain[4]).expect("index")[3] == 1
        };
        // Implicit LOD: a Bias operand; explicit: the LOD plus the bias.
        let implicit = find(op::SAMPLE_IMPLICIT);
        assert_eq!(implicit[5], OPERAND_BIAS);
        assert!(bias_load(implicit[6]));
        let explicit = find(op::SAMPLE_EXPLICIT);
        assert_eq!(explicit[5], OPERAND_LOD);
        let sum = m
            .insts
            .iter()
            .find(|i| opcode(i) == op::F_ADD && i[2] == explicit[6])
            .expect("lod + bias");
        assert_eq!(sum[3], 15);
        assert!(bias_load(sum[4]));
    }

    #[test]
    fn fine_and_coarse_derivatives_become_plain_ones() {
        // Header, OpCapability Shader, OpCapability DerivativeControl, then %3 = OpDPdxFine
        // %1 %2, %4 = OpFwidthCoarse %1 %3.
        let words = [
            0x0723_0203,
            0x0001_0000,
            0,
            5,
            0, //
            (2 << 16) | 17,
            1, //
            (2 << 16) | 17,
            51, //
            (4 << 16) | 210,
            1,
            3,
            2, //
            (4 << 16) | 215,
            1,
            4,
            3,
        ];
        let out = plain_derivatives(&words).expect("derivatives to lower");
        assert_eq!(
            out[5..],
            [
                (2 << 16) | 17,
                1,
                (4 << 16) | 207,
                1,
                3,
                2,
                (4 << 16) | 209,
                1,
                4,
                3
            ]
        );
        assert!(plain_derivatives(&out).is_none());
    }

    #[test]
    fn votes_are_single_invocation_ones() {
        let mut words = vec![0x0723_0203, 0x0001_0000, 0, 9, 0];
        for i in [
            inst(17, &[1]),
            inst(17, &[4431]),
            inst(10, &literal("SPV_KHR_subgroup_vote")),
            inst(4429, &[2, 5, 3]),
            inst(4428, &[2, 6, 3]),
            inst(4430, &[2, 7, 4]),
        ] {
            words.extend(i);
        }
        let out = single_invocation_votes(&words).expect("votes to lower");
        let mut expected = vec![0x0723_0203, 0x0001_0000, 0, 9, 0];
        for i in [
            inst(17, &[1]),
            inst(83, &[2, 5, 3]),
            inst(83, &[2, 6, 3]),
            inst(164, &[2, 7, 4, 4]),
        ] {
            expected.extend(i);
        }
        assert_eq!(out, expected);
        assert!(single_invocation_votes(&out).is_none());
    }
}

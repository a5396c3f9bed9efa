//! Doubles narrowed to floats, for an embedder that accepts them (`TESSERA_GLES_FP64=narrow`,
//! [`crate::GlesOptions::narrow_fp64`]): OpenGL ES has no doubles, so a stage's SPIR-V is
//! rewritten before translation to compute every `double`, `dvec*` and `dmat*` in 32 bits,
//! as MobileGL does.
//!
//! - Each 64-bit float type becomes a 32-bit one (the module then declares two float types,
//!   which SPIRV-Cross reads as one), each 64-bit constant the nearest float, each
//!   conversion between the two widths a copy, and the `Float64` capability goes.
//! - The default uniform block (binding 0, whose bytes the records carry laid out with
//!   doubles as GL's std140 lays them) is declared again with std140's float layout, and
//!   [`Repack`] says where each of its scalars moves, so the backend converts the block's
//!   bytes on their way to the driver.
//!
//! What cannot be narrowed is refused: `packDouble2x32`/`unpackDouble2x32` and bit casts of
//! doubles, and doubles in any other block (their bytes are the application's buffer's,
//! which the engine refuses to link where the backend narrows).

use std::collections::{HashMap, HashSet};

mod op {
    pub const EXT_INST_IMPORT: u32 = 11;
    pub const EXT_INST: u32 = 12;
    pub const CAPABILITY: u32 = 17;
    pub const TYPE_BOOL: u32 = 20;
    pub const TYPE_INT: u32 = 21;
    pub const TYPE_FLOAT: u32 = 22;
    pub const TYPE_VECTOR: u32 = 23;
    pub const TYPE_MATRIX: u32 = 24;
    pub const TYPE_ARRAY: u32 = 28;
    pub const TYPE_STRUCT: u32 = 30;
    pub const TYPE_POINTER: u32 = 32;
    pub const CONSTANT: u32 = 43;
    pub const SPEC_CONSTANT: u32 = 50;
    pub const VARIABLE: u32 = 59;
    pub const DECORATE: u32 = 71;
    pub const MEMBER_DECORATE: u32 = 72;
    pub const COPY_OBJECT: u32 = 83;
    pub const F_CONVERT: u32 = 115;
    pub const BITCAST: u32 = 124;
}

const CAPABILITY_FLOAT64: u32 = 10;
const STORAGE_UNIFORM: u32 = 2;
const STORAGE_STORAGE_BUFFER: u32 = 12;
const DECORATION_ROW_MAJOR: u32 = 4;
const DECORATION_ARRAY_STRIDE: u32 = 6;
const DECORATION_MATRIX_STRIDE: u32 = 7;
const DECORATION_BINDING: u32 = 33;
const DECORATION_OFFSET: u32 = 35;
const GLSL_PACK_DOUBLE_2X32: u32 = 59;
const GLSL_UNPACK_DOUBLE_2X32: u32 = 60;

/// Where the default block's scalars move when its doubles become floats.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Repack {
    /// Bytes of the narrowed block.
    pub size: u32,
    /// (offset in the records' block, offset in the narrowed one, whether it was a double).
    pub moves: Vec<(u32, u32, bool)>,
}

impl Repack {
    /// The narrowed block of `block`'s bytes (missing bytes read as zeros).
    pub(crate) fn apply(&self, block: &[u8], out: &mut Vec<u8>) {
        out.clear();
        out.resize(self.size as usize, 0);
        for &(from, to, double) in &self.moves {
            let (from, to) = (from as usize, to as usize);
            let word = if double {
                let mut b = [0u8; 8];
                if let Some(src) = block.get(from..from + 8) {
                    b.copy_from_slice(src);
                }
                (f64::from_le_bytes(b) as f32).to_le_bytes()
            } else {
                let mut b = [0u8; 4];
                if let Some(src) = block.get(from..from + 4) {
                    b.copy_from_slice(src);
                }
                b
            };
            if let Some(dst) = out.get_mut(to..to + 4) {
                dst.copy_from_slice(&word);
            }
        }
    }
}

/// One stage narrowed: its words, and the default block's repacking if it declares one.
pub(crate) struct Narrowed {
    pub words: Vec<u32>,
    pub repack: Option<Repack>,
}

fn op(i: &[u32]) -> u32 {
    i[0] & 0xffff
}

fn inst(opcode: u32, operands: &[u32]) -> Vec<u32> {
    let mut v = Vec::with_capacity(operands.len() + 1);
    v.push(((operands.len() as u32 + 1) << 16) | opcode);
    v.extend_from_slice(operands);
    v
}

/// Narrows a stage's doubles; `Ok(None)` when it has none.
pub(crate) fn narrow(words: &[u32]) -> Result<Option<Narrowed>, String> {
    if words.len() < 5 || words[0] != 0x0723_0203 {
        return Err("not a SPIR-V module".into());
    }
    let header = &words[..5];
    let mut insts: Vec<Vec<u32>> = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return Err("a truncated instruction".into());
        }
        insts.push(words[at..at + count].to_vec());
        at += count;
    }
    let doubles: HashSet<u32> = insts
        .iter()
        .filter(|i| op(i) == op::TYPE_FLOAT && i.get(2) == Some(&64))
        .map(|i| i[1])
        .collect();
    if doubles.is_empty() {
        return Ok(None);
    }
    // Types declared (by id), and which hold doubles.
    let types: HashMap<u32, Vec<u32>> = insts
        .iter()
        .filter(|i| (op::TYPE_BOOL..=op::TYPE_POINTER).contains(&op(i)) && i.len() > 1)
        .map(|i| (i[1], i.clone()))
        .collect();
    let mut double_types = doubles.clone();
    loop {
        let before = double_types.len();
        for (id, t) in &types {
            let holds = match op(t) {
                op::TYPE_VECTOR | op::TYPE_MATRIX | op::TYPE_ARRAY => double_types.contains(&t[2]),
                op::TYPE_STRUCT => t[2..].iter().any(|m| double_types.contains(m)),
                op::TYPE_POINTER => double_types.contains(&t[3]),
                _ => false,
            };
            if holds {
                double_types.insert(*id);
            }
        }
        if double_types.len() == before {
            break;
        }
    }
    // The type of every result, for the conversions' operands.
    let mut result_type: HashMap<u32, u32> = HashMap::new();
    for i in &insts {
        if i.len() > 2 && !(op::TYPE_BOOL..=op::TYPE_POINTER).contains(&op(i)) {
            result_type.insert(i[2], i[1]);
        }
    }
    let glsl = insts
        .iter()
        .find(|i| op(i) == op::EXT_INST_IMPORT && literal(&i[2..]) == "GLSL.std.450")
        .map(|i| i[1]);
    let constants: HashMap<u32, u32> = insts
        .iter()
        .filter(|i| op(i) == op::CONSTANT && i.len() == 4)
        .map(|i| (i[2], i[3]))
        .collect();

    // The default block: a uniform variable at binding 0.
    let bindings: HashMap<u32, u32> = insts
        .iter()
        .filter(|i| op(i) == op::DECORATE && i.len() > 3 && i[2] == DECORATION_BINDING)
        .map(|i| (i[1], i[3]))
        .collect();
    let mut default_struct = None;
    for i in insts
        .iter()
        .filter(|i| op(i) == op::VARIABLE && i.len() > 3)
    {
        let Some(pointer) = types.get(&i[1]) else {
            continue;
        };
        let storage = i[3];
        if storage != STORAGE_UNIFORM && storage != STORAGE_STORAGE_BUFFER {
            continue;
        }
        if !double_types.contains(&pointer[3]) {
            continue;
        }
        if storage == STORAGE_UNIFORM && bindings.get(&i[2]) == Some(&0) {
            default_struct = Some(pointer[3]);
        } else {
            return Err("doubles in a uniform or storage block cannot be narrowed".into());
        }
    }

    let mut out: Vec<Vec<u32>> = Vec::with_capacity(insts.len());
    for mut i in insts.clone() {
        match op(&i) {
            op::CAPABILITY if i.get(1) == Some(&CAPABILITY_FLOAT64) => continue,
            op::TYPE_FLOAT if doubles.contains(&i[1]) => i[2] = 32,
            op::CONSTANT | op::SPEC_CONSTANT if doubles.contains(&i[1]) && i.len() == 5 => {
                let bits = u64::from(i[3]) | (u64::from(i[4]) << 32);
                let narrowed = (f64::from_bits(bits) as f32).to_bits();
                i = inst(op(&i), &[i[1], i[2], narrowed]);
            }
            op::F_CONVERT if i.len() == 4 => {
                let from = result_type.get(&i[3]).copied().unwrap_or(0);
                if double_types.contains(&i[1]) || double_types.contains(&from) {
                    i[0] = (i[0] & 0xffff_0000) | op::COPY_OBJECT;
                }
            }
            op::BITCAST if i.len() == 4 => {
                let from = result_type.get(&i[3]).copied().unwrap_or(0);
                if double_types.contains(&i[1]) || double_types.contains(&from) {
                    return Err("a bit cast of a double cannot be narrowed".into());
                }
            }
            op::EXT_INST
                if i.len() > 4
                    && Some(i[3]) == glsl
                    && matches!(i[4], GLSL_PACK_DOUBLE_2X32 | GLSL_UNPACK_DOUBLE_2X32) =>
            {
                return Err("packDouble2x32 and unpackDouble2x32 cannot be narrowed".into());
            }
            _ => {}
        }
        out.push(i);
    }

    let repack = match default_struct {
        Some(s) => {
            let mut layout = Layout {
                types: &types,
                scalars64: &doubles,
                constants: &constants,
                member: HashMap::new(),
                array_stride: HashMap::new(),
                new_member: HashMap::new(),
                new_array_stride: HashMap::new(),
                new_matrix_stride: HashMap::new(),
                moves: Vec::new(),
            };
            for i in &out {
                match op(i) {
                    op::MEMBER_DECORATE if i.len() > 4 => {
                        let e = layout.member.entry((i[1], i[2])).or_default();
                        match i[3] {
                            DECORATION_OFFSET => e.offset = i[4],
                            DECORATION_MATRIX_STRIDE => e.matrix_stride = i[4],
                            _ => {}
                        }
                    }
                    op::MEMBER_DECORATE if i.len() == 4 && i[3] == DECORATION_ROW_MAJOR => {
                        layout.member.entry((i[1], i[2])).or_default().row_major = true;
                    }
                    op::DECORATE if i.len() > 3 && i[2] == DECORATION_ARRAY_STRIDE => {
                        layout.array_stride.insert(i[1], i[3]);
                    }
                    _ => {}
                }
            }
            let (_, size) = layout.walk_struct(s, 0, 0)?;
            for i in &mut out {
                match op(i) {
                    op::MEMBER_DECORATE if i.len() > 4 => {
                        let key = (i[1], i[2]);
                        match i[3] {
                            DECORATION_OFFSET => {
                                if let Some(&o) = layout.new_member.get(&key) {
                                    i[4] = o;
                                }
                            }
                            DECORATION_MATRIX_STRIDE => {
                                if let Some(&m) = layout.new_matrix_stride.get(&key) {
                                    i[4] = m;
                                }
                            }
                            _ => {}
                        }
                    }
                    op::DECORATE if i.len() > 3 && i[2] == DECORATION_ARRAY_STRIDE => {
                        if let Some(&a) = layout.new_array_stride.get(&i[1]) {
                            i[3] = a;
                        }
                    }
                    _ => {}
                }
            }
            Some(Repack {
                size: size.next_multiple_of(16),
                moves: layout.moves,
            })
        }
        None => None,
    };
    let mut words = header.to_vec();
    for i in out {
        words.extend_from_slice(&i);
    }
    Ok(Some(Narrowed { words, repack }))
}

/// A string literal's text.
fn literal(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// A struct member's layout decorations.
#[derive(Clone, Copy, Default)]
struct Member {
    offset: u32,
    matrix_stride: u32,
    row_major: bool,
}

/// The default block's old layout (as decorated) and its std140 float layout.
struct Layout<'a> {
    types: &'a HashMap<u32, Vec<u32>>,
    scalars64: &'a HashSet<u32>,
    constants: &'a HashMap<u32, u32>,
    member: HashMap<(u32, u32), Member>,
    array_stride: HashMap<u32, u32>,
    new_member: HashMap<(u32, u32), u32>,
    new_array_stride: HashMap<u32, u32>,
    new_matrix_stride: HashMap<(u32, u32), u32>,
    moves: Vec<(u32, u32, bool)>,
}

impl Layout<'_> {
    fn ty(&self, id: u32) -> Result<&[u32], String> {
        self.types
            .get(&id)
            .map(Vec::as_slice)
            .ok_or_else(|| format!("type {id} of the default block is not declared"))
    }

    /// std140 (alignment, size) of `id` with its doubles narrowed.
    fn std140(&self, id: u32, row_major: bool) -> Result<(u32, u32), String> {
        let t = self.ty(id)?;
        Ok(match op(t) {
            op::TYPE_BOOL | op::TYPE_INT | op::TYPE_FLOAT => (4, 4),
            op::TYPE_VECTOR => {
                let n = t[3];
                (if n == 2 { 8 } else { 16 }, 4 * n)
            }
            op::TYPE_MATRIX => {
                let column = self.ty(t[2])?;
                let (rows, columns) = (column[3], t[3]);
                let vectors = if row_major { rows } else { columns };
                (16, 16 * vectors)
            }
            op::TYPE_ARRAY => {
                let n = self.constants.get(&t[3]).copied().unwrap_or(1);
                let (align, size) = self.std140(t[2], row_major)?;
                let stride = size.next_multiple_of(align.max(16));
                (align.max(16), stride * n)
            }
            op::TYPE_STRUCT => {
                let mut offset = 0u32;
                let mut max_align = 16;
                for (k, &m) in t[2..].iter().enumerate() {
                    let rm = self
                        .member
                        .get(&(id, k as u32))
                        .is_some_and(|m| m.row_major);
                    let (align, size) = self.std140(m, rm)?;
                    offset = offset.next_multiple_of(align) + size;
                    max_align = max_align.max(align);
                }
                (max_align, offset.next_multiple_of(max_align))
            }
            _ => return Err("an opaque type in the default block".into()),
        })
    }

    /// Lays out struct `id` from `old`/`new`, recording its scalars' moves; (align, size).
    fn walk_struct(&mut self, id: u32, old: u32, new: u32) -> Result<(u32, u32), String> {
        let members = self.ty(id)?[2..].to_vec();
        let mut offset = 0u32;
        let mut max_align = 16;
        for (k, &m) in members.iter().enumerate() {
            let key = (id, k as u32);
            let decorations = self.member.get(&key).copied().unwrap_or_default();
            let (align, size) = self.std140(m, decorations.row_major)?;
            offset = offset.next_multiple_of(align);
            self.new_member.insert(key, offset);
            self.new_matrix_stride.insert(key, 16);
            self.walk(m, decorations, old + decorations.offset, new + offset)?;
            offset += size;
            max_align = max_align.max(align);
        }
        Ok((max_align, offset.next_multiple_of(max_align)))
    }

    fn walk(&mut self, id: u32, member: Member, old: u32, new: u32) -> Result<(), String> {
        let t = self.ty(id)?.to_vec();
        match op(&t) {
            op::TYPE_BOOL | op::TYPE_INT | op::TYPE_FLOAT => {
                self.moves.push((old, new, self.scalars64.contains(&id)));
            }
            op::TYPE_VECTOR => {
                let wide = self.scalars64.contains(&t[2]);
                let scalar = if wide { 8 } else { 4 };
                for c in 0..t[3] {
                    self.moves.push((old + c * scalar, new + c * 4, wide));
                }
            }
            op::TYPE_MATRIX => {
                let column = self.ty(t[2])?.to_vec();
                let wide = self.scalars64.contains(&column[2]);
                let scalar = if wide { 8 } else { 4 };
                let (rows, columns) = (column[3], t[3]);
                for c in 0..columns {
                    for r in 0..rows {
                        let (v, e) = if member.row_major { (r, c) } else { (c, r) };
                        self.moves.push((
                            old + v * member.matrix_stride + e * scalar,
                            new + v * 16 + e * 4,
                            wide,
                        ));
                    }
                }
            }
            op::TYPE_ARRAY => {
                let n = self.constants.get(&t[3]).copied().unwrap_or(1);
                let old_stride = self.array_stride.get(&id).copied().unwrap_or(0);
                let (align, size) = self.std140(t[2], member.row_major)?;
                let stride = size.next_multiple_of(align.max(16));
                self.new_array_stride.insert(id, stride);
                for e in 0..n {
                    self.walk(t[2], member, old + e * old_stride, new + e * stride)?;
                }
            }
            op::TYPE_STRUCT => {
                self.walk_struct(id, old, new)?;
            }
            _ => return Err("an opaque type in the default block".into()),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_of_doubles_repacks_to_floats() {
        let r = Repack {
            size: 16,
            moves: vec![(0, 0, true), (8, 4, false)],
        };
        let mut block = 0.5f64.to_le_bytes().to_vec();
        block.extend_from_slice(&7u32.to_le_bytes());
        let mut out = Vec::new();
        r.apply(&block, &mut out);
        assert_eq!(out[..4], 0.5f32.to_le_bytes());
        assert_eq!(out[4..8], 7u32.to_le_bytes());
        assert_eq!(out.len(), 16);
    }
}

//! Explicit block member offsets (GL 4.4's `offset` and `align` qualifiers) in GLSL ES.
//!
//! A uniform or storage block whose members sit past where std140 (std430 for storage
//! blocks) would put them cannot be written in GLSL ES, which has no `offset` qualifier:
//! SPIRV-Cross refuses it. Its bytes can be described all the same, by members that fill
//! the gaps: this pass gives such a block's structure (and any structure inside one) unused
//! `float` and `vec4` members, each decorated with its offset, before every member that
//! starts later than the standard layout would start it, so the standard layout of the
//! padded structure is the explicit one. The member indices that name a later member in
//! access chains, composite extractions and a runtime array's `length()` move with it. A
//! block whose members sit earlier than the standard allows (which GLSL's rules never
//! produce) is left alone, and so is one whose value a shader builds whole: SPIRV-Cross
//! then reports what it cannot translate.
//!
//! A std140 storage block comes here too: the pass takes storage blocks as std430 (GLSL
//! ES's only layout for them), so a std140 block's structures and arrays, aligned to 16,
//! read as members that start late and are padded the same way.

use std::collections::HashMap;

use crate::spirv::{Module, inst, opcode};

const TYPE_INT: u16 = 21;
const TYPE_FLOAT: u16 = 22;
const TYPE_VECTOR: u16 = 23;
const TYPE_MATRIX: u16 = 24;
const TYPE_ARRAY: u16 = 28;
const TYPE_RUNTIME_ARRAY: u16 = 29;
const TYPE_STRUCT: u16 = 30;
const TYPE_POINTER: u16 = 32;
const CONSTANT: u16 = 43;
const VARIABLE: u16 = 59;
const ACCESS_CHAIN: u16 = 65;
const IN_BOUNDS_ACCESS_CHAIN: u16 = 66;
const PTR_ACCESS_CHAIN: u16 = 67;
const ARRAY_LENGTH: u16 = 68;
const MEMBER_NAME: u16 = 6;
const DECORATE: u16 = 71;
const MEMBER_DECORATE: u16 = 72;
const COMPOSITE_CONSTRUCT: u16 = 80;
const COMPOSITE_EXTRACT: u16 = 81;
const COMPOSITE_INSERT: u16 = 82;
const COPY_LOGICAL: u16 = 400;

const DECO_BLOCK: u32 = 2;
const DECO_BUFFER_BLOCK: u32 = 3;
const DECO_ROW_MAJOR: u32 = 4;
const DECO_ARRAY_STRIDE: u32 = 6;
const DECO_MATRIX_STRIDE: u32 = 7;
const DECO_OFFSET: u32 = 35;

const STORAGE_INPUT: u32 = 1;
const STORAGE_OUTPUT: u32 = 3;
const STORAGE_PUSH_CONSTANT: u32 = 9;
const STORAGE_STORAGE_BUFFER: u32 = 12;

/// What the pass knows of the module's types.
struct Types {
    /// Type declarations by id.
    decl: HashMap<u32, Vec<u32>>,
    /// `(id, decoration) -> first operand`.
    deco: HashMap<(u32, u32), u32>,
    /// `(struct, member, decoration) -> first operand` (`ROW_MAJOR` maps to 0).
    member: HashMap<(u32, u32, u32), u32>,
    /// Integer constants' values.
    constants: HashMap<u32, u32>,
}

impl Types {
    fn members(&self, st: u32) -> &[u32] {
        self.decl.get(&st).map_or(&[], |d| &d[2..])
    }

    /// Base alignment of `ty` (std430 unless `std140`).
    fn align(&self, ty: u32, std140: bool) -> u32 {
        let Some(d) = self.decl.get(&ty) else {
            return 4;
        };
        let round = |a: u32| if std140 { a.max(16) } else { a };
        match opcode(d) {
            TYPE_INT | TYPE_FLOAT => d[2] / 8,
            TYPE_VECTOR => {
                let s = self.align(d[2], std140);
                if d[3] == 2 { 2 * s } else { 4 * s }
            }
            TYPE_MATRIX => round(self.align(d[2], std140)),
            TYPE_ARRAY | TYPE_RUNTIME_ARRAY => round(self.align(d[2], std140)),
            TYPE_STRUCT => round(
                d[2..]
                    .iter()
                    .map(|&m| self.align(m, std140))
                    .max()
                    .unwrap_or(4),
            ),
            _ => 4,
        }
    }

    /// Bytes `ty` takes as member `index` of `st`.
    fn size(&self, st: u32, index: u32, ty: u32, std140: bool) -> u32 {
        let Some(d) = self.decl.get(&ty) else {
            return 4;
        };
        match opcode(d) {
            TYPE_INT | TYPE_FLOAT => d[2] / 8,
            TYPE_VECTOR => d[3] * self.size(st, index, d[2], std140),
            TYPE_MATRIX => {
                let stride = self
                    .member
                    .get(&(st, index, DECO_MATRIX_STRIDE))
                    .copied()
                    .unwrap_or(16);
                let vectors = if self.member.contains_key(&(st, index, DECO_ROW_MAJOR)) {
                    self.decl.get(&d[2]).map_or(4, |c| c[3])
                } else {
                    d[3]
                };
                stride * vectors
            }
            TYPE_ARRAY => {
                let stride = self
                    .deco
                    .get(&(ty, DECO_ARRAY_STRIDE))
                    .copied()
                    .unwrap_or(0);
                stride * self.constants.get(&d[3]).copied().unwrap_or(0)
            }
            TYPE_STRUCT => {
                let last = d.len() - 3;
                let end = self
                    .member
                    .get(&(ty, last as u32, DECO_OFFSET))
                    .map_or(0, |&o| o + self.size(ty, last as u32, d[2 + last], std140));
                let a = self.align(ty, std140);
                end.div_ceil(a) * a
            }
            _ => 0,
        }
    }
}

/// One structure's padding: the pads' sizes (4 or 16) before each member, by old index.
struct Padding {
    before: Vec<Vec<u32>>,
}

impl Padding {
    /// The new index of old member `i`.
    fn index(&self, i: u32) -> u32 {
        i + self.before[..=i as usize]
            .iter()
            .map(|p| p.len() as u32)
            .sum::<u32>()
    }
}

/// Pads what needs padding (see the module docs); `None`: nothing to do, or not possible.
pub(crate) fn pad(words: &[u32]) -> Option<Vec<u32>> {
    let mut m = Module::parse(words)?;
    let types = Types {
        decl: m
            .insts
            .iter()
            .filter(|i| (19..=39).contains(&opcode(i)) && i.len() >= 2)
            .map(|i| (i[1], i.clone()))
            .collect(),
        deco: m
            .insts
            .iter()
            .filter(|i| opcode(i) == DECORATE && i.len() >= 3)
            .map(|i| ((i[1], i[2]), i.get(3).copied().unwrap_or(0)))
            .collect(),
        member: m
            .insts
            .iter()
            .filter(|i| opcode(i) == MEMBER_DECORATE && i.len() >= 4)
            .map(|i| ((i[1], i[2], i[3]), i.get(4).copied().unwrap_or(0)))
            .collect(),
        constants: m
            .insts
            .iter()
            .filter(|i| opcode(i) == CONSTANT && i.len() == 4)
            .map(|i| (i[2], i[3]))
            .collect(),
    };
    // Block structures and their layout: std430 for storage blocks, std140 for the rest.
    let mut layouts: Vec<(u32, bool)> = Vec::new();
    for &(id, d) in types.deco.keys() {
        if d != DECO_BLOCK && d != DECO_BUFFER_BLOCK {
            continue;
        }
        let storage = m.insts.iter().find_map(|i| {
            let pointee_is = |p: u32| {
                types
                    .decl
                    .get(&p)
                    .is_some_and(|pd| opcode(pd) == TYPE_POINTER && strip(&types, pd[3]) == id)
            };
            (opcode(i) == VARIABLE && pointee_is(i[1])).then(|| i[3])
        });
        // Input and output blocks (a vertex stage's `gl_PerVertex`) have no offsets to keep.
        if matches!(storage, Some(STORAGE_INPUT | STORAGE_OUTPUT)) {
            continue;
        }
        let std430 = d == DECO_BUFFER_BLOCK
            || matches!(
                storage,
                Some(STORAGE_STORAGE_BUFFER | STORAGE_PUSH_CONSTANT)
            );
        collect(&types, id, !std430, &mut layouts);
    }
    let mut paddings: HashMap<u32, Padding> = HashMap::new();
    for &(st, std140) in &layouts {
        let members = types.members(st);
        let mut before = vec![Vec::new(); members.len()];
        let mut cur = 0u32;
        let mut any = false;
        for (i, &ty) in members.iter().enumerate() {
            let offset = *types.member.get(&(st, i as u32, DECO_OFFSET))?;
            let a = types.align(ty, std140);
            let natural = cur.div_ceil(a) * a;
            if offset < natural {
                return None;
            }
            if offset > natural {
                let mut at = cur;
                while at < offset {
                    let pad = if at.is_multiple_of(16) && offset - at >= 16 {
                        16
                    } else {
                        4
                    };
                    before[i].push(pad);
                    at += pad;
                }
                any = true;
            }
            cur = offset + types.size(st, i as u32, ty, std140);
        }
        if any {
            paddings.insert(st, Padding { before });
        }
    }
    if paddings.is_empty() {
        return None;
    }
    // A structure the code builds whole would need its pads built too.
    let builds_padded = m.insts.iter().any(|i| {
        matches!(opcode(i), COMPOSITE_CONSTRUCT | COPY_LOGICAL)
            && i.get(1).is_some_and(|t| paddings.contains_key(t))
    });
    if builds_padded {
        return None;
    }
    // The pads' float and vec4 types, declared before every structure if missing.
    let float = match m
        .insts
        .iter()
        .find(|i| opcode(i) == TYPE_FLOAT && i.get(2) == Some(&32))
    {
        Some(i) => i[1],
        None => {
            let id = m.fresh();
            let at = types_start(&m);
            m.insts.insert(at, inst(TYPE_FLOAT, &[id, 32]));
            id
        }
    };
    let vec4 = match m
        .insts
        .iter()
        .find(|i| opcode(i) == TYPE_VECTOR && i[2..] == [float, 4])
    {
        Some(i) => i[1],
        None => {
            let id = m.fresh();
            let at = m.insts.iter().position(|i| i.get(1) == Some(&float))? + 1;
            m.insts.insert(at, inst(TYPE_VECTOR, &[id, float, 4]));
            id
        }
    };
    let position = |m: &Module, id: u32| {
        m.insts
            .iter()
            .position(|i| (19..=39).contains(&opcode(i)) && i.get(1) == Some(&id))
    };
    for &st in paddings.keys() {
        if position(&m, vec4)? > position(&m, st)? || position(&m, float)? > position(&m, st)? {
            return None;
        }
    }
    // Rewrite the structures, their member decorations and names, and the indices into them.
    let mut extra = Vec::new();
    for i in &mut m.insts {
        match opcode(i) {
            TYPE_STRUCT if paddings.contains_key(&i[1]) => {
                let p = &paddings[&i[1]];
                let mut members = vec![i[1]];
                let mut new_index = 0u32;
                for (k, &ty) in i[2..].iter().enumerate() {
                    let offset = types.member[&(i[1], k as u32, DECO_OFFSET)];
                    let mut at = offset - p.before[k].iter().sum::<u32>();
                    for &pad in &p.before[k] {
                        members.push(if pad == 16 { vec4 } else { float });
                        extra.push(inst(MEMBER_DECORATE, &[i[1], new_index, DECO_OFFSET, at]));
                        new_index += 1;
                        at += pad;
                    }
                    members.push(ty);
                    new_index += 1;
                }
                *i = inst(TYPE_STRUCT, &members);
            }
            MEMBER_DECORATE | MEMBER_NAME if i.len() >= 3 && paddings.contains_key(&i[1]) => {
                i[2] = paddings[&i[1]].index(i[2]);
            }
            _ => {}
        }
    }
    let at = m
        .insts
        .iter()
        .rposition(|i| opcode(i) == MEMBER_DECORATE)
        .map_or_else(|| types_start(&m), |p| p + 1);
    m.insts.splice(at..at, extra);
    // Indices: constants in access chains, literals in composite extractions.
    let mut new_constants: HashMap<(u32, u32), u32> = HashMap::new();
    let mut declared_constants = Vec::new();
    let start = m.functions_start();
    for k in start..m.insts.len() {
        let o = opcode(&m.insts[k]);
        let (ty, first_index, literal) = match o {
            ACCESS_CHAIN | IN_BOUNDS_ACCESS_CHAIN | PTR_ACCESS_CHAIN => {
                let base = m.insts[k][3];
                let pointer = m.type_of(base)?;
                let pointee = types.decl.get(&pointer).map(|d| d[3])?;
                let first = if o == PTR_ACCESS_CHAIN { 5 } else { 4 };
                (pointee, first, false)
            }
            // The runtime array's member index, a literal like an extraction's.
            ARRAY_LENGTH => {
                let pointer = m.type_of(m.insts[k][3])?;
                let pointee = types.decl.get(&pointer).map(|d| d[3])?;
                (pointee, 4, true)
            }
            COMPOSITE_EXTRACT => (m.type_of(m.insts[k][3])?, 4, true),
            COMPOSITE_INSERT => (m.type_of(m.insts[k][4])?, 5, true),
            _ => continue,
        };
        let mut ty = ty;
        for n in first_index..m.insts[k].len() {
            let Some(d) = types.decl.get(&ty) else { break };
            match opcode(d) {
                TYPE_STRUCT => {
                    let operand = m.insts[k][n];
                    let old = if literal {
                        operand
                    } else {
                        *types.constants.get(&operand)?
                    };
                    if let Some(p) = paddings.get(&ty) {
                        let new = p.index(old);
                        let value = if literal {
                            new
                        } else {
                            let const_ty = const_type(&m, operand)?;
                            match new_constants.get(&(const_ty, new)) {
                                Some(&id) => id,
                                None => {
                                    let id = m.fresh();
                                    declared_constants.push(inst(CONSTANT, &[const_ty, id, new]));
                                    new_constants.insert((const_ty, new), id);
                                    id
                                }
                            }
                        };
                        m.insts[k][n] = value;
                    }
                    ty = *d.get(2 + old as usize)?;
                }
                TYPE_ARRAY | TYPE_RUNTIME_ARRAY | TYPE_VECTOR | TYPE_MATRIX => ty = d[2],
                _ => break,
            }
        }
    }
    let at = m.functions_start();
    m.insts.splice(at..at, declared_constants);
    Some(m.finish())
}

/// The structure inside arrays of `ty`.
fn strip(types: &Types, mut ty: u32) -> u32 {
    while let Some(d) = types.decl.get(&ty) {
        match opcode(d) {
            TYPE_ARRAY | TYPE_RUNTIME_ARRAY => ty = d[2],
            _ => break,
        }
    }
    ty
}

/// `st` and every structure inside it, with the layout they take.
fn collect(types: &Types, st: u32, std140: bool, out: &mut Vec<(u32, bool)>) {
    if out.iter().any(|&(s, _)| s == st) {
        return;
    }
    out.push((st, std140));
    for &m in types.members(st) {
        let inner = strip(types, m);
        if types
            .decl
            .get(&inner)
            .is_some_and(|d| opcode(d) == TYPE_STRUCT)
        {
            collect(types, inner, std140, out);
        }
    }
}

/// Where the types section starts.
fn types_start(m: &Module) -> usize {
    m.insts
        .iter()
        .position(|i| !crate::spirv::is_preamble(opcode(i)))
        .unwrap_or(m.insts.len())
}

/// The type of an integer constant.
fn const_type(m: &Module, id: u32) -> Option<u32> {
    m.declaration(id)
        .filter(|d| opcode(d) == CONSTANT)
        .map(|d| d[1])
}

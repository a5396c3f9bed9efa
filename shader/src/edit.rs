//! A SPIR-V editor for the link-time passes ([`crate::point_size`], [`crate::rectangle`]):
//! the module as a list of instructions that a pass can extend with new ids, types,
//! constants, decorations and code.
//!
//! It knows the module's layout rules and nothing else: capabilities go first, names and
//! decorations at the end of their sections, scalar types at the start of the types section
//! and vectors right after their component type (they depend on nothing else, and a type a
//! pass extends may need them), every other new global at the end of the globals, and
//! non-aggregate types are looked up before being declared (SPIR-V forbids declaring one
//! twice). Passes insert code with [`Editor::insert`] before
//! an instruction of a function body, so nothing of the module's own moves in its block.

use crate::spirv::{Malformed, instructions, is_preamble};

/// Opcodes the passes read or write.
pub(crate) mod op {
    pub const NAME: u16 = 5;
    pub const MEMBER_NAME: u16 = 6;
    pub const ENTRY_POINT: u16 = 15;
    pub const CAPABILITY: u16 = 17;
    pub const TYPE_BOOL: u16 = 20;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_FLOAT: u16 = 22;
    pub const TYPE_VECTOR: u16 = 23;
    pub const TYPE_IMAGE: u16 = 25;
    pub const TYPE_SAMPLED_IMAGE: u16 = 27;
    pub const TYPE_ARRAY: u16 = 28;
    pub const TYPE_RUNTIME_ARRAY: u16 = 29;
    pub const TYPE_STRUCT: u16 = 30;
    pub const TYPE_POINTER: u16 = 32;
    pub const TYPE_FUNCTION: u16 = 33;
    pub const CONSTANT: u16 = 43;
    pub const FUNCTION: u16 = 54;
    pub const FUNCTION_END: u16 = 56;
    pub const VARIABLE: u16 = 59;
    pub const LOAD: u16 = 61;
    pub const STORE: u16 = 62;
    pub const ACCESS_CHAIN: u16 = 65;
    pub const IN_BOUNDS_ACCESS_CHAIN: u16 = 66;
    pub const DECORATE: u16 = 71;
    pub const MEMBER_DECORATE: u16 = 72;
    pub const COMPOSITE_CONSTRUCT: u16 = 80;
    pub const IMAGE_SAMPLE_IMPLICIT_LOD: u16 = 87;
    pub const IMAGE_SAMPLE_DREF_IMPLICIT_LOD: u16 = 89;
    pub const IMAGE_SAMPLE_DREF_EXPLICIT_LOD: u16 = 90;
    pub const IMAGE_SAMPLE_PROJ_DREF_IMPLICIT_LOD: u16 = 93;
    pub const IMAGE_SAMPLE_PROJ_DREF_EXPLICIT_LOD: u16 = 94;
    pub const IMAGE_GATHER: u16 = 96;
    pub const IMAGE_DREF_GATHER: u16 = 97;
    pub const IMAGE: u16 = 100;
    pub const IMAGE_QUERY_SIZE_LOD: u16 = 103;
    pub const IMAGE_QUERY_SIZE: u16 = 104;
    pub const CONVERT_S_TO_F: u16 = 111;
    pub const F_DIV: u16 = 136;
    pub const SELECT: u16 = 169;
    pub const F_ORD_GREATER_THAN: u16 = 186;
    pub const RETURN: u16 = 253;
    pub const EMIT_VERTEX: u16 = 218;
    pub const EMIT_STREAM_VERTEX: u16 = 220;
    pub const UNDEF: u16 = 1;
}

/// Builds one instruction from its opcode and operands.
pub(crate) fn inst(opcode: u16, operands: &[u32]) -> Vec<u32> {
    let mut v = Vec::with_capacity(operands.len() + 1);
    v.push(((operands.len() as u32 + 1) << 16) | u32::from(opcode));
    v.extend_from_slice(operands);
    v
}

/// A literal string as SPIR-V words (NUL-terminated, padded with NULs to a word).
///
/// SPIR-V puts the first character in the lowest-order byte of its word: the first byte of
/// the word's memory on a little-endian host, the only kind Tessera supports.
pub(crate) fn literal(s: &str) -> Vec<u32> {
    let mut words = vec![0u32; s.len() / 4 + 1];
    bytemuck::cast_slice_mut::<u32, u8>(&mut words)[..s.len()].copy_from_slice(s.as_bytes());
    words
}

/// The opcode of an instruction.
pub(crate) fn opcode(i: &[u32]) -> u16 {
    (i[0] & 0xffff) as u16
}

/// Opcodes whose first operand is a literal or a string, never an id.
fn literal_first_operand(opcode: u16) -> bool {
    matches!(opcode, 2 | 3 | 4 | 10 | 14 | 15 | 17 | 330)
}

/// A module being edited.
pub(crate) struct Editor {
    header: [u32; 5],
    /// Every instruction, in module order.
    pub insts: Vec<Vec<u32>>,
}

impl Editor {
    /// Splits a module into instructions.
    pub fn parse(words: &[u32]) -> Result<Self, Malformed> {
        if words.len() < 5 || words[0] != 0x0723_0203 {
            return Err(Malformed);
        }
        let mut insts = Vec::new();
        for i in instructions(words) {
            insts.push(i?.2.to_vec());
        }
        Ok(Self {
            header: [words[0], words[1], words[2], words[3], words[4]],
            insts,
        })
    }

    /// The module's words.
    pub fn finish(self) -> Vec<u32> {
        let mut out = self.header.to_vec();
        for i in self.insts {
            out.extend(i);
        }
        out
    }

    /// A new id.
    pub fn fresh(&mut self) -> u32 {
        let id = self.header[3];
        self.header[3] += 1;
        id
    }

    /// Index of the first instruction after the preamble (capabilities, entry points,
    /// names, decorations): where the types section starts.
    pub fn types_start(&self) -> usize {
        self.insts
            .iter()
            .position(|i| !is_preamble(opcode(i)))
            .unwrap_or(self.insts.len())
    }

    /// Index of the first `OpFunction`: where the globals end.
    pub fn functions_start(&self) -> usize {
        self.insts
            .iter()
            .position(|i| opcode(i) == op::FUNCTION)
            .unwrap_or(self.insts.len())
    }

    /// The global instruction that declares `id` (a type, a constant or a variable).
    pub fn declaration(&self, id: u32) -> Option<&[u32]> {
        self.insts[..self.functions_start()]
            .iter()
            .find(|i| result_id(i) == Some(id))
            .map(Vec::as_slice)
    }

    /// The type declared with `opcode` and exactly `operands` (after the result id).
    fn find_type(&self, opcode_: u16, operands: &[u32]) -> Option<u32> {
        self.insts[..self.functions_start()]
            .iter()
            .find(|i| opcode(i) == opcode_ && i.len() >= 2 && i[2..] == *operands)
            .map(|i| i[1])
    }

    /// A scalar type (`OpTypeBool`, `OpTypeInt`, `OpTypeFloat`), declared at the start of
    /// the types section if the module has none.
    pub fn scalar(&mut self, opcode_: u16, operands: &[u32]) -> u32 {
        if let Some(id) = self.find_type(opcode_, operands) {
            return id;
        }
        let id = self.fresh();
        let mut ops = vec![id];
        ops.extend_from_slice(operands);
        let at = self.types_start();
        self.insts.insert(at, inst(opcode_, &ops));
        id
    }

    /// `float` (32 bits).
    pub fn float(&mut self) -> u32 {
        self.scalar(op::TYPE_FLOAT, &[32])
    }

    /// `int` (32 bits, signed).
    pub fn int(&mut self) -> u32 {
        self.scalar(op::TYPE_INT, &[32, 1])
    }

    /// `uint` (32 bits).
    pub fn uint(&mut self) -> u32 {
        self.scalar(op::TYPE_INT, &[32, 0])
    }

    /// `bool`.
    pub fn bool(&mut self) -> u32 {
        self.scalar(op::TYPE_BOOL, &[])
    }

    /// A non-scalar type: the module's own if it declares it, else a new declaration at the
    /// end of the globals. Aggregates (`OpTypeArray`, `OpTypeStruct`) are always new.
    pub fn ty(&mut self, opcode_: u16, operands: &[u32]) -> u32 {
        let aggregate = matches!(opcode_, op::TYPE_ARRAY | op::TYPE_STRUCT);
        if !aggregate && let Some(id) = self.find_type(opcode_, operands) {
            return id;
        }
        let id = self.fresh();
        let mut ops = vec![id];
        ops.extend_from_slice(operands);
        self.global(inst(opcode_, &ops));
        id
    }

    /// A vector of `count` components of `component`, declared right after the component
    /// type if the module has none (so that a type the module declares later may use it).
    pub fn vector(&mut self, component: u32, count: u32) -> u32 {
        if let Some(id) = self.find_type(op::TYPE_VECTOR, &[component, count]) {
            return id;
        }
        let id = self.fresh();
        let at = self.insts[..self.functions_start()]
            .iter()
            .position(|i| is_type(opcode(i)) && i.get(1) == Some(&component))
            .map_or_else(|| self.types_start(), |n| n + 1);
        self.insts
            .insert(at, inst(op::TYPE_VECTOR, &[id, component, count]));
        id
    }

    /// A pointer type.
    pub fn pointer(&mut self, storage: u32, pointee: u32) -> u32 {
        self.ty(op::TYPE_POINTER, &[storage, pointee])
    }

    /// A 32-bit scalar constant of type `ty` with the bits `value`.
    pub fn constant(&mut self, ty: u32, value: u32) -> u32 {
        if let Some(i) = self.insts[..self.functions_start()]
            .iter()
            .find(|i| opcode(i) == op::CONSTANT && i.len() == 4 && i[1] == ty && i[3] == value)
        {
            return i[2];
        }
        let id = self.fresh();
        self.global(inst(op::CONSTANT, &[ty, id, value]));
        id
    }

    /// Appends a global declaration (after every other).
    pub fn global(&mut self, i: Vec<u32>) {
        let at = self.functions_start();
        self.insts.insert(at, i);
    }

    /// Declares a capability unless the module already does.
    pub fn capability(&mut self, cap: u32) {
        let has = self
            .insts
            .iter()
            .any(|i| opcode(i) == op::CAPABILITY && i.get(1) == Some(&cap));
        if !has {
            self.insts.insert(0, inst(op::CAPABILITY, &[cap]));
        }
    }

    /// Appends a decoration (`OpDecorate`, `OpMemberDecorate`) to the annotations.
    pub fn annotate(&mut self, i: Vec<u32>) {
        let at = self.types_start();
        self.insts.insert(at, i);
    }

    /// Names an id or a structure member (debug names, for translators).
    pub fn name(&mut self, i: Vec<u32>) {
        let at = self
            .insts
            .iter()
            .position(|i| {
                let o = opcode(i);
                matches!(o, 71..=75 | 332 | 5632 | 5633) || !is_preamble(o)
            })
            .unwrap_or(self.insts.len());
        self.insts.insert(at, i);
    }

    /// The entry point's function id, execution model and interface start.
    pub fn entry_point(&self) -> Option<(usize, u32, u32)> {
        let at = self
            .insts
            .iter()
            .position(|i| opcode(i) == op::ENTRY_POINT)?;
        let i = &self.insts[at];
        Some((at, *i.get(1)?, *i.get(2)?))
    }

    /// Adds a variable to the entry point's interface.
    pub fn add_interface(&mut self, var: u32) {
        if let Some((at, _, _)) = self.entry_point() {
            let i = &mut self.insts[at];
            i.push(var);
            let count = i.len() as u32;
            i[0] = (count << 16) | u32::from(op::ENTRY_POINT);
        }
    }

    /// Removes a variable from the entry point's interface.
    pub fn remove_interface(&mut self, var: u32) {
        if let Some((at, _, _)) = self.entry_point() {
            let i = &mut self.insts[at];
            // The interface follows the entry point's name, a literal string (its last
            // word ends in a NUL byte).
            let name_words = i[3..]
                .iter()
                .position(|w| w.to_le_bytes().contains(&0))
                .map_or(i.len(), |n| n + 1);
            let interface = (3 + name_words).min(i.len());
            let mut k = interface;
            while k < i.len() {
                if i[k] == var {
                    i.remove(k);
                } else {
                    k += 1;
                }
            }
            let count = i.len() as u32;
            i[0] = (count << 16) | u32::from(op::ENTRY_POINT);
        }
    }

    /// The value of an integer constant.
    pub fn constant_value(&self, id: u32) -> Option<u32> {
        self.declaration(id)
            .filter(|i| opcode(i) == op::CONSTANT && i.len() == 4)
            .map(|i| i[3])
    }

    /// Inserts `code` before instruction `at` and returns the index of that instruction.
    pub fn insert(&mut self, at: usize, code: Vec<Vec<u32>>) -> usize {
        let n = code.len();
        self.insts.splice(at..at, code);
        at + n
    }

    /// Replaces every use of the id `old` by `new`, and drops the declaration, names and
    /// decorations of `old`. Only for type ids: those appear as the result type of an
    /// instruction or as an operand of another type declaration.
    pub fn replace_type(&mut self, old: u32, new: u32) {
        self.insts.retain(|i| {
            let o = opcode(i);
            let drops = match o {
                op::NAME | op::DECORATE | op::MEMBER_NAME | op::MEMBER_DECORATE => {
                    i.get(1) == Some(&old)
                }
                _ => result_id(i) == Some(old) && is_type(o),
            };
            !drops
        });
        for i in &mut self.insts {
            let o = opcode(i);
            let from = match o {
                op::TYPE_SAMPLED_IMAGE
                | op::TYPE_ARRAY
                | op::TYPE_RUNTIME_ARRAY
                | op::TYPE_STRUCT
                | op::TYPE_FUNCTION => 2,
                op::TYPE_POINTER => 3,
                _ if is_type(o) || literal_first_operand(o) => continue,
                _ => 1,
            };
            let end = if matches!(o, op::TYPE_ARRAY) {
                3
            } else if from == 1 {
                2
            } else {
                i.len()
            };
            for w in i.iter_mut().take(end).skip(from) {
                if *w == old {
                    *w = new;
                }
            }
        }
    }
}

/// Whether an opcode declares a type.
fn is_type(opcode: u16) -> bool {
    (19..=39).contains(&opcode) || opcode == 322 || opcode == 327
}

/// The result id a global instruction declares, if any.
fn result_id(i: &[u32]) -> Option<u32> {
    let o = opcode(i);
    if is_type(o) {
        i.get(1).copied()
    } else if matches!(o, 41..=52 | op::VARIABLE | op::UNDEF) {
        i.get(2).copied()
    } else {
        None
    }
}

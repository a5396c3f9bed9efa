//! Just enough SPIR-V: read a module's globals, types and decorations, and rewrite the
//! decorations that bind its interface.
//!
//! glslang numbers locations and bindings per stage, and its automatic numbering collides
//! with explicit qualifiers; Tessera numbers them for the whole program instead (see the
//! crate docs) and writes them here. The rewrite never adds ids, types or code: it drops the
//! `Location`/`Index`/`Binding`/`DescriptorSet` decorations of the variables it assigns,
//! inserts its own at the end of the annotation section, and may drop unused variables from
//! `OpEntryPoint` interfaces.

use std::collections::{HashMap, HashSet};

/// Opcodes read or written.
mod op {
    pub const NAME: u16 = 5;
    pub const MEMBER_NAME: u16 = 6;
    pub const ENTRY_POINT: u16 = 15;
    pub const TYPE_BOOL: u16 = 20;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_FLOAT: u16 = 22;
    pub const TYPE_VECTOR: u16 = 23;
    pub const TYPE_MATRIX: u16 = 24;
    pub const TYPE_IMAGE: u16 = 25;
    pub const TYPE_SAMPLER: u16 = 26;
    pub const TYPE_SAMPLED_IMAGE: u16 = 27;
    pub const TYPE_ARRAY: u16 = 28;
    pub const TYPE_RUNTIME_ARRAY: u16 = 29;
    pub const TYPE_STRUCT: u16 = 30;
    pub const TYPE_POINTER: u16 = 32;
    pub const CONSTANT: u16 = 43;
    pub const FUNCTION: u16 = 54;
    pub const VARIABLE: u16 = 59;
    pub const ACCESS_CHAIN: u16 = 65;
    pub const IN_BOUNDS_ACCESS_CHAIN: u16 = 66;
    pub const DECORATE: u16 = 71;
    pub const MEMBER_DECORATE: u16 = 72;
}

/// Decorations read or written.
pub mod deco {
    /// `Block`.
    pub const BLOCK: u32 = 2;
    /// `RowMajor`.
    pub const ROW_MAJOR: u32 = 4;
    /// `ArrayStride`.
    pub const ARRAY_STRIDE: u32 = 6;
    /// `MatrixStride`.
    pub const MATRIX_STRIDE: u32 = 7;
    /// `BuiltIn`.
    pub const BUILT_IN: u32 = 11;
    /// `Patch` (a tessellation stage's per-patch input or output).
    pub const PATCH: u32 = 15;
    /// `Location`.
    pub const LOCATION: u32 = 30;
    /// `Index`.
    pub const INDEX: u32 = 32;
    /// `Binding`.
    pub const BINDING: u32 = 33;
    /// `DescriptorSet`.
    pub const DESCRIPTOR_SET: u32 = 34;
    /// `Offset`.
    pub const OFFSET: u32 = 35;
}

/// Storage classes of global variables.
pub mod storage {
    /// Samplers and images.
    pub const UNIFORM_CONSTANT: u32 = 0;
    /// Stage inputs.
    pub const INPUT: u32 = 1;
    /// Uniform blocks.
    pub const UNIFORM: u32 = 2;
    /// Stage outputs.
    pub const OUTPUT: u32 = 3;
}

/// A type declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// `bool`.
    Bool,
    /// An integer.
    Int {
        /// Bits.
        width: u32,
        /// Signedness.
        signed: bool,
    },
    /// A float.
    Float {
        /// Bits.
        width: u32,
    },
    /// A vector.
    Vector {
        /// Component type.
        component: u32,
        /// Components.
        count: u32,
    },
    /// A matrix.
    Matrix {
        /// Column type.
        column: u32,
        /// Columns.
        count: u32,
    },
    /// An image, a sampler or a combined image-sampler.
    Opaque,
    /// A sized array.
    Array {
        /// Element type.
        element: u32,
        /// Elements (0 if the length is no plain constant).
        length: u32,
    },
    /// A runtime-sized array.
    RuntimeArray {
        /// Element type.
        element: u32,
    },
    /// A structure.
    Struct {
        /// Member types.
        members: Vec<u32>,
    },
    /// A pointer.
    Pointer {
        /// Storage class.
        storage: u32,
        /// Pointee type.
        pointee: u32,
    },
}

/// A global variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Var {
    /// Its id.
    pub id: u32,
    /// The type it holds (the pointee of its pointer type).
    pub ty: u32,
    /// Storage class.
    pub storage: u32,
}

/// A module whose SPIR-V did not parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Malformed;

/// What a new decoration sets on one variable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Assign {
    /// The variable.
    pub id: u32,
    /// Its `Location` (replacing any), for stage inputs and outputs.
    pub location: Option<u32>,
    /// Its `Index` (fragment outputs; replaced whenever `location` is set).
    pub index: Option<u32>,
    /// Its `Binding` in descriptor set 0 (replacing any binding and set), for resources.
    pub binding: Option<u32>,
}

/// A parsed module.
#[derive(Clone, Debug, Default)]
pub struct Module {
    words: Vec<u32>,
    names: HashMap<u32, String>,
    member_names: HashMap<(u32, u32), String>,
    decorations: HashMap<u32, Vec<(u32, u32)>>,
    member_decorations: HashMap<(u32, u32), Vec<(u32, u32)>>,
    types: HashMap<u32, Type>,
    constants: HashMap<u32, u32>,
    vars: Vec<Var>,
    used: HashSet<u32>,
}

/// Decodes a literal string starting at `words[0]` (see [`crate::edit::literal`] for the
/// byte order).
fn string(words: &[u32]) -> String {
    let bytes: &[u8] = bytemuck::cast_slice(words);
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// The instructions of a module after its header: (offset of the first word, opcode, words).
pub(crate) fn instructions(
    words: &[u32],
) -> impl Iterator<Item = Result<(usize, u16, &[u32]), Malformed>> {
    let mut at = 5;
    std::iter::from_fn(move || {
        if at >= words.len() {
            return None;
        }
        let first = words[at];
        let count = (first >> 16) as usize;
        let opcode = (first & 0xffff) as u16;
        if count == 0 || at + count > words.len() {
            at = words.len();
            return Some(Err(Malformed));
        }
        let inst = &words[at..at + count];
        let start = at;
        at += count;
        Some(Ok((start, opcode, inst)))
    })
}

/// Whether an instruction belongs before the types section (debug, annotations, modes).
pub(crate) fn is_preamble(opcode: u16) -> bool {
    matches!(
        opcode,
        0 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 10 | 11 | 14 | 15 | 16 | 17 | 71..=75
            | 317
            | 330..=332
            | 5632
            | 5633
    )
}

impl Module {
    /// Parses a module.
    pub fn parse(words: Vec<u32>) -> Result<Self, Malformed> {
        if words.len() < 5 || words[0] != 0x0723_0203 {
            return Err(Malformed);
        }
        let mut m = Module::default();
        let mut in_functions = false;
        let mut global_ids: HashSet<u32> = HashSet::new();
        for inst in instructions(&words) {
            let (_, opcode, w) = inst?;
            let arg = |i: usize| w.get(i).copied().ok_or(Malformed);
            if in_functions {
                for &word in &w[1..] {
                    if global_ids.contains(&word) {
                        m.used.insert(word);
                    }
                }
                continue;
            }
            match opcode {
                op::NAME => {
                    m.names.insert(arg(1)?, string(&w[2..]));
                }
                op::MEMBER_NAME => {
                    m.member_names.insert((arg(1)?, arg(2)?), string(&w[3..]));
                }
                op::DECORATE => {
                    let value = w.get(3).copied().unwrap_or(0);
                    m.decorations
                        .entry(arg(1)?)
                        .or_default()
                        .push((arg(2)?, value));
                }
                op::MEMBER_DECORATE => {
                    let value = w.get(4).copied().unwrap_or(0);
                    m.member_decorations
                        .entry((arg(1)?, arg(2)?))
                        .or_default()
                        .push((arg(3)?, value));
                }
                op::TYPE_BOOL => {
                    m.types.insert(arg(1)?, Type::Bool);
                }
                op::TYPE_INT => {
                    m.types.insert(
                        arg(1)?,
                        Type::Int {
                            width: arg(2)?,
                            signed: arg(3)? != 0,
                        },
                    );
                }
                op::TYPE_FLOAT => {
                    m.types.insert(arg(1)?, Type::Float { width: arg(2)? });
                }
                op::TYPE_VECTOR => {
                    m.types.insert(
                        arg(1)?,
                        Type::Vector {
                            component: arg(2)?,
                            count: arg(3)?,
                        },
                    );
                }
                op::TYPE_MATRIX => {
                    m.types.insert(
                        arg(1)?,
                        Type::Matrix {
                            column: arg(2)?,
                            count: arg(3)?,
                        },
                    );
                }
                op::TYPE_IMAGE | op::TYPE_SAMPLER | op::TYPE_SAMPLED_IMAGE => {
                    m.types.insert(arg(1)?, Type::Opaque);
                }
                op::TYPE_ARRAY => {
                    let length = m.constants.get(&arg(3)?).copied().unwrap_or(0);
                    m.types.insert(
                        arg(1)?,
                        Type::Array {
                            element: arg(2)?,
                            length,
                        },
                    );
                }
                op::TYPE_RUNTIME_ARRAY => {
                    m.types
                        .insert(arg(1)?, Type::RuntimeArray { element: arg(2)? });
                }
                op::TYPE_STRUCT => {
                    m.types.insert(
                        arg(1)?,
                        Type::Struct {
                            members: w[2..].to_vec(),
                        },
                    );
                }
                op::TYPE_POINTER => {
                    m.types.insert(
                        arg(1)?,
                        Type::Pointer {
                            storage: arg(2)?,
                            pointee: arg(3)?,
                        },
                    );
                }
                op::CONSTANT => {
                    if matches!(m.types.get(&arg(1)?), Some(Type::Int { width: 32, .. })) {
                        m.constants.insert(arg(2)?, arg(3)?);
                    }
                }
                op::VARIABLE => {
                    let id = arg(2)?;
                    let storage = arg(3)?;
                    if let Some(Type::Pointer { pointee, .. }) = m.types.get(&arg(1)?) {
                        m.vars.push(Var {
                            id,
                            ty: *pointee,
                            storage,
                        });
                        global_ids.insert(id);
                    }
                }
                op::FUNCTION => in_functions = true,
                _ => {}
            }
        }
        m.words = words;
        Ok(m)
    }

    /// The module's words.
    pub fn words(&self) -> &[u32] {
        &self.words
    }

    /// Global variables of a storage class, in declaration order.
    pub fn vars(&self, storage: u32) -> impl Iterator<Item = &Var> {
        self.vars.iter().filter(move |v| v.storage == storage)
    }

    /// Whether code of the module refers to a global variable.
    pub fn is_used(&self, id: u32) -> bool {
        self.used.contains(&id)
    }

    /// `OpName` of an id ("" if none).
    pub fn name(&self, id: u32) -> &str {
        self.names.get(&id).map_or("", String::as_str)
    }

    /// `OpMemberName` of a structure member ("" if none).
    pub fn member_name(&self, st: u32, member: u32) -> &str {
        self.member_names
            .get(&(st, member))
            .map_or("", String::as_str)
    }

    /// A type declaration.
    pub fn ty(&self, id: u32) -> Option<&Type> {
        self.types.get(&id)
    }

    /// The first operand of a decoration of an id (`Some(0)` for decorations without one).
    pub fn decoration(&self, id: u32, decoration: u32) -> Option<u32> {
        self.decorations
            .get(&id)?
            .iter()
            .find(|(d, _)| *d == decoration)
            .map(|(_, v)| *v)
    }

    /// The first operand of a decoration of a structure member.
    pub fn member_decoration(&self, st: u32, member: u32, decoration: u32) -> Option<u32> {
        self.member_decorations
            .get(&(st, member))?
            .iter()
            .find(|(d, _)| *d == decoration)
            .map(|(_, v)| *v)
    }

    /// `ty` with every array level removed.
    pub fn strip_arrays(&self, mut ty: u32) -> u32 {
        while let Some(Type::Array { element, .. } | Type::RuntimeArray { element }) =
            self.types.get(&ty)
        {
            ty = *element;
        }
        ty
    }

    /// The element type and length of an array type.
    pub fn array(&self, ty: u32) -> Option<(u32, u32)> {
        match self.types.get(&ty)? {
            Type::Array { element, length } => Some((*element, *length)),
            _ => None,
        }
    }

    /// The elements of an array variable that code reads, as the constant first indices of
    /// its access chains; `None` when that cannot be told (an index that is no constant, a
    /// use of the whole array). Only ever more than is read, never less.
    pub fn elements_used(&self, var: u32) -> Option<Vec<u32>> {
        let mut out = Vec::new();
        let mut in_functions = false;
        for (_, opcode, w) in instructions(&self.words).flatten() {
            in_functions |= opcode == op::FUNCTION;
            if !in_functions || !w[1..].contains(&var) {
                continue;
            }
            let chain = matches!(opcode, op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN);
            match w.get(4).and_then(|i| self.constants.get(i)) {
                Some(&element) if chain && w.get(3) == Some(&var) => out.push(element),
                _ => return None,
            }
        }
        Some(out)
    }

    /// Whether a variable is a built-in (or a block of built-ins, like `gl_PerVertex`).
    pub fn is_builtin(&self, var: &Var) -> bool {
        if self.decoration(var.id, deco::BUILT_IN).is_some() {
            return true;
        }
        let inner = self.strip_arrays(var.ty);
        match self.types.get(&inner) {
            Some(Type::Struct { members }) => (0..members.len() as u32)
                .any(|m| self.member_decoration(inner, m, deco::BUILT_IN).is_some()),
            _ => false,
        }
    }

    /// The name GL matches an interface variable by: an interface block's block name, or
    /// the variable's own name.
    pub fn interface_name(&self, var: &Var, per_vertex: bool) -> &str {
        let ty = if per_vertex {
            self.array(var.ty).map_or(var.ty, |(e, _)| e)
        } else {
            var.ty
        };
        if matches!(self.types.get(&ty), Some(Type::Struct { .. }))
            && self.decoration(ty, deco::BLOCK).is_some()
        {
            self.name(ty)
        } else {
            self.name(var.id)
        }
    }

    /// A canonical spelling of a type, equal for equal types of different modules.
    pub fn signature(&self, ty: u32) -> String {
        match self.types.get(&ty) {
            Some(Type::Bool) => "bool".into(),
            Some(Type::Int { width, signed }) => {
                format!("{}{width}", if *signed { "i" } else { "u" })
            }
            Some(Type::Float { width }) => format!("f{width}"),
            Some(Type::Vector { component, count }) => {
                format!("vec{count}<{}>", self.signature(*component))
            }
            Some(Type::Matrix { column, count }) => {
                format!("mat{count}<{}>", self.signature(*column))
            }
            Some(Type::Array { element, length }) => {
                format!("[{};{length}]", self.signature(*element))
            }
            Some(Type::RuntimeArray { element }) => format!("[{}]", self.signature(*element)),
            Some(Type::Struct { members }) => {
                let fields: Vec<String> = members
                    .iter()
                    .enumerate()
                    .map(|(i, m)| {
                        let name = self
                            .member_names
                            .get(&(ty, i as u32))
                            .map_or("", String::as_str);
                        format!("{name}:{}", self.signature(*m))
                    })
                    .collect();
                format!("{}{{{}}}", self.name(ty), fields.join(","))
            }
            Some(Type::Opaque) => "opaque".into(),
            Some(Type::Pointer { pointee, .. }) => format!("*{}", self.signature(*pointee)),
            None => "?".into(),
        }
    }

    /// Interface locations a value of `ty` takes.
    pub fn slots(&self, ty: u32) -> u32 {
        match self.types.get(&ty) {
            Some(Type::Vector { component, count }) => {
                let wide = matches!(
                    self.types.get(component),
                    Some(Type::Float { width: 64 } | Type::Int { width: 64, .. })
                );
                if wide && *count > 2 { 2 } else { 1 }
            }
            Some(Type::Matrix { column, count }) => count * self.slots(*column),
            Some(Type::Array { element, length }) => length * self.slots(*element),
            Some(Type::Struct { members }) => members.iter().map(|m| self.slots(*m)).sum(),
            _ => 1,
        }
    }

    /// Locations a vertex input of type `ty` takes in GL: one per vector (a matrix column,
    /// an array element), a `dvec3` or `dvec4` included (GL 4.1's `ARB_vertex_attrib_64bit`;
    /// [`Self::slots`] counts two for it, as SPIR-V and GL's other interfaces do).
    pub fn attribute_slots(&self, ty: u32) -> u32 {
        match self.types.get(&ty) {
            Some(Type::Matrix { count, .. }) => *count,
            Some(Type::Array { element, length }) => length * self.attribute_slots(*element),
            Some(Type::Struct { members }) => {
                members.iter().map(|m| self.attribute_slots(*m)).sum()
            }
            _ => 1,
        }
    }

    /// Rewrites the module: the decorations of `assigns` replace the variables' own, and
    /// the variables of `unlisted` leave every `OpEntryPoint` interface.
    pub fn patch(&self, assigns: &[Assign], unlisted: &[u32]) -> Vec<u32> {
        let by_id: HashMap<u32, &Assign> = assigns.iter().map(|a| (a.id, a)).collect();
        let mut out = Vec::with_capacity(self.words.len() + assigns.len() * 8);
        out.extend_from_slice(&self.words[..5]);
        let mut inserted = false;
        for (_, opcode, w) in instructions(&self.words).flatten() {
            if !inserted && !is_preamble(opcode) {
                for a in assigns {
                    let mut decorate = |d: u32, v: u32| {
                        out.extend_from_slice(&[(4 << 16) | u32::from(op::DECORATE), a.id, d, v]);
                    };
                    if let Some(l) = a.location {
                        decorate(deco::LOCATION, l);
                    }
                    // Index 0 is the default: writing it would make translators emit
                    // `index = 0`, which GLSL ES accepts only with EXT_blend_func_extended.
                    if let Some(i) = a.index.filter(|i| *i != 0) {
                        decorate(deco::INDEX, i);
                    }
                    if let Some(b) = a.binding {
                        decorate(deco::DESCRIPTOR_SET, 0);
                        decorate(deco::BINDING, b);
                    }
                }
                inserted = true;
            }
            if opcode == op::DECORATE
                && w.len() >= 3
                && let Some(a) = by_id.get(&w[1])
            {
                let io = a.location.is_some() && matches!(w[2], deco::LOCATION | deco::INDEX);
                // A resource's own Location (glslang keeps an explicit sampler's or image's
                // uniform location) goes too: the engine numbers uniform locations, and
                // Vulkan allows no Location on those storage classes.
                let resource = a.binding.is_some()
                    && (matches!(w[2], deco::BINDING | deco::DESCRIPTOR_SET)
                        || (a.location.is_none() && w[2] == deco::LOCATION));
                if io || resource {
                    continue;
                }
            }
            if opcode == op::ENTRY_POINT && !unlisted.is_empty() && w.len() > 3 {
                // Operands: execution model, function id, name (literal string), interface ids.
                let name_words = w[3..]
                    .iter()
                    .position(|x| x.to_le_bytes().contains(&0))
                    .map_or(w.len() - 3, |p| p + 1);
                let fixed = (3 + name_words).min(w.len());
                let kept: Vec<u32> = w[fixed..]
                    .iter()
                    .copied()
                    .filter(|id| !unlisted.contains(id))
                    .collect();
                let count = (fixed + kept.len()) as u32;
                out.push((count << 16) | u32::from(op::ENTRY_POINT));
                out.extend_from_slice(&w[1..fixed]);
                out.extend_from_slice(&kept);
                continue;
            }
            out.extend_from_slice(w);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(opcode: u16, args: &[u32]) -> Vec<u32> {
        let mut v = vec![((args.len() as u32 + 1) << 16) | u32::from(opcode)];
        v.extend_from_slice(args);
        v
    }

    fn lit(s: &str) -> Vec<u32> {
        crate::edit::literal(s)
    }

    /// A vertex module with `in vec4 pos;` (id 10, explicit location 3) and a function that
    /// reads it.
    fn module() -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 20, 0];
        let mut ep = vec![0, 1];
        ep.extend(lit("main"));
        ep.push(10);
        w.extend(inst(op::ENTRY_POINT, &ep));
        let mut name = vec![10];
        name.extend(lit("pos"));
        w.extend(inst(op::NAME, &name));
        w.extend(inst(op::DECORATE, &[10, deco::LOCATION, 3]));
        w.extend(inst(op::TYPE_FLOAT, &[2, 32]));
        w.extend(inst(op::TYPE_VECTOR, &[3, 2, 4]));
        w.extend(inst(op::TYPE_POINTER, &[4, storage::INPUT, 3]));
        w.extend(inst(op::VARIABLE, &[4, 10, storage::INPUT]));
        w.extend(inst(op::FUNCTION, &[5, 1, 0, 6]));
        w.extend(inst(61, &[3, 7, 10]));
        w
    }

    #[test]
    fn reads_and_patches() {
        let m = Module::parse(module()).expect("valid");
        let v = *m.vars(storage::INPUT).next().expect("one input");
        assert_eq!(m.name(v.id), "pos");
        assert_eq!(m.decoration(v.id, deco::LOCATION), Some(3));
        assert!(m.is_used(v.id));
        assert_eq!(m.signature(v.ty), "vec4<f32>");
        let patched = m.patch(
            &[Assign {
                id: 10,
                location: Some(7),
                ..Assign::default()
            }],
            &[10],
        );
        let p = Module::parse(patched).expect("still valid");
        assert_eq!(p.decoration(10, deco::LOCATION), Some(7));
        assert_eq!(p.decorations[&10].len(), 1);
        let ep = instructions(p.words())
            .flatten()
            .find(|(_, o, _)| *o == op::ENTRY_POINT)
            .expect("entry point");
        assert_eq!(ep.2.len(), 5, "the interface id is gone");
    }

    #[test]
    fn rejects_garbage() {
        assert!(Module::parse(vec![1, 2, 3]).is_err());
        let mut w = module();
        w.push(0x0009_0001);
        assert!(Module::parse(w).is_err());
    }
}

//! SPIR-V words: the little the backend reads (reflection of the interface the engine's
//! binding contract leaves implicit), the patches it makes so that GL conventions hold on
//! Vulkan, and one rewrite around a driver's limitation.
//!
//! ## Reflection
//! Vertex inputs (location and numeric class, for the generic-attribute binding and the
//! format checks), fragment outputs (which colour attachments the program writes), whether
//! the fragment stage has flat inputs (provoking vertex matters), and every descriptor of set
//! 0 with its binding, kind and count (combined image-samplers with their dimension and
//! numeric class, texel buffers, uniform buffers).
//!
//! ## Patches (applied to the last stage before rasterization)
//! - **Clip-space depth**: GL clips z to `[-w, w]`, Vulkan to `[0, w]`. Without
//!   `VK_EXT_depth_clip_control`, `gl_Position.z = (z + w) / 2` is stored before every
//!   return of `main` (vertex stage) or every `EmitVertex` (geometry stage).
//! - **Point size**: Vulkan requires the stage to write `PointSize` when drawing points; GL
//!   takes the size from `glPointSize` unless `PROGRAM_POINT_SIZE` is on. The patched variant
//!   writes `PointSize` from a 4-byte push constant at offset 0, which `SetPointSize` fills.
//!
//! Both patches append declarations after the module's own and take new ids above its bound;
//! nothing else in the module moves.
//!
//! ## Scalar arrays between stages (`pack.rs`)
//! Where an interface block would end past the locations the device carries between two
//! stages (each element of a `float[]` takes a location in SPIR-V, where GL packs four),
//! its scalar arrays become arrays of vectors on both sides.
//!
//! ## The sprite origin (`point_coord.rs`)
//! A fragment stage that reads `gl_PointCoord` reads it through a vector that the entry
//! point fills from the built-in, flipped or not by a specialization constant that the
//! pipeline sets from `POINT_SPRITE_COORD_ORIGIN`.
//!
//! ## `gl_InstanceID` under a base instance (`instance_id.rs`)
//! A vertex stage that reads `gl_InstanceID` reads `InstanceIndex - BaseInstance` through a
//! private integer the entry point fills, since Vulkan's instance index counts from the
//! draw's first instance and GL's from 0.
//!
//! ## `FIXED` vertex attributes (`fixed_attrib.rs`)
//! Vulkan has no 16.16 fixed-point vertex format: such an attribute is fetched as 32-bit
//! signed integers, and the vertex stage of its pipelines converts them into the float input
//! it declared (one module per program and set of fixed attributes).
//!
//! ## Group votes (`vote.rs`)
//! On a device without `VK_EXT_shader_subgroup_vote`, each invocation votes alone, as
//! `GL_ARB_shader_group_vote` allows.
//!
//! ## Arrays of interface blocks into the fragment stage (`block_array.rs`)
//! Mesa's SPIR-V front end drops the interpolation decorations of the members of an array of
//! blocks, so where the fragment stage reads one whose members carry them, both it and the
//! stage before pass the array through one plain variable per element and member instead.

mod block_array;
mod double_attrib;
mod draw_param;
mod fixed_attrib;
mod instance_id;
mod pack;
mod point_coord;
mod vote;

pub(crate) use block_array::split_block_arrays;
pub(crate) use double_attrib::apply_double_attribs;
pub(crate) use draw_param::{DRAW_ID_OFFSET, apply_draw_params};
pub(crate) use fixed_attrib::apply_fixed_attribs;
pub(crate) use instance_id::apply_instance_id;
pub(crate) use pack::pack_scalar_arrays;
pub(crate) use point_coord::{POINT_ORIGIN_SPEC_ID, apply_point_origin};
pub(crate) use vote::single_invocation_votes;

/// Numeric class of a shader input or sampled image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) enum NumClass {
    #[default]
    Float,
    Int,
    Uint,
}

/// `Dim` of an image type (SPIR-V's numbering).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Dim {
    D1,
    D2,
    D3,
    Cube,
    Rect,
    Buffer,
    Other,
}

/// What a descriptor binding holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ResourceKind {
    /// A combined image-sampler.
    Sampled {
        dim: Dim,
        arrayed: bool,
        multisampled: bool,
        class: NumClass,
    },
    /// A uniform texel buffer (`samplerBuffer`).
    TexelBuffer { class: NumClass },
    /// A storage image (`image2D`, ...: `GL_ARB_shader_image_load_store`).
    StorageImage {
        dim: Dim,
        arrayed: bool,
        class: NumClass,
    },
    /// A uniform buffer block.
    UniformBuffer,
    /// A shader storage buffer block.
    StorageBuffer,
}

/// One descriptor of set 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Resource {
    pub binding: u32,
    pub kind: ResourceKind,
    /// Array elements (1 for a plain variable).
    pub count: u32,
}

/// What the backend learns from one stage.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reflection {
    /// Execution model of the entry point (0 vertex, 3 geometry, 4 fragment).
    pub model: u32,
    /// Vertex inputs by location.
    pub inputs: [Option<NumClass>; 16],
    /// Components of the `double`/`dvec*` vertex input (or array element or `dmat*`
    /// column) at each GL location, 0 elsewhere: it reads an array of doubles, and a
    /// `dvec3`'s or `dvec4`'s last two doubles arrive at Vulkan location `16 + location`.
    pub double_inputs: [u8; 16],
    /// Fragment outputs written, bit per location.
    pub outputs: u8,
    /// The fragment stage has `flat` inputs.
    pub flat_inputs: bool,
    /// Descriptors of set 0.
    pub resources: Vec<Resource>,
}

// Opcodes.
const OP_ENTRY_POINT: u32 = 15;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
const OP_TYPE_VECTOR: u32 = 23;
const OP_TYPE_MATRIX: u32 = 24;
const OP_TYPE_IMAGE: u32 = 25;
const OP_TYPE_SAMPLED_IMAGE: u32 = 27;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_STRUCT: u32 = 30;
const OP_TYPE_POINTER: u32 = 32;
const OP_CONSTANT: u32 = 43;
const OP_FUNCTION: u32 = 54;
const OP_FUNCTION_END: u32 = 56;
const OP_VARIABLE: u32 = 59;
const OP_LOAD: u32 = 61;
const OP_STORE: u32 = 62;
const OP_ACCESS_CHAIN: u32 = 65;
const OP_IN_BOUNDS_ACCESS_CHAIN: u32 = 66;
const OP_DECORATE: u32 = 71;
const OP_MEMBER_DECORATE: u32 = 72;
const OP_COMPOSITE_EXTRACT: u32 = 81;
const OP_COMPOSITE_INSERT: u32 = 82;
const OP_COPY_OBJECT: u32 = 83;
const OP_FADD: u32 = 129;
const OP_FMUL: u32 = 133;
const OP_EMIT_VERTEX: u32 = 218;
const OP_EMIT_STREAM_VERTEX: u32 = 220;
const OP_RETURN: u32 = 253;
// Storage classes.
const SC_UNIFORM_CONSTANT: u32 = 0;
const SC_INPUT: u32 = 1;
const SC_UNIFORM: u32 = 2;
const SC_OUTPUT: u32 = 3;
const SC_PRIVATE: u32 = 6;
const SC_PUSH_CONSTANT: u32 = 9;
// Decorations.
const DEC_BLOCK: u32 = 2;
/// `BufferBlock`: a storage buffer's struct in SPIR-V 1.0 (storage class `Uniform`).
const DEC_BUFFER_BLOCK: u32 = 3;
const DEC_BUILTIN: u32 = 11;
const DEC_FLAT: u32 = 14;
const DEC_LOCATION: u32 = 30;
const DEC_BINDING: u32 = 33;
const DEC_DESCRIPTOR_SET: u32 = 34;
const DEC_OFFSET: u32 = 35;
// Built-ins.
const BUILTIN_POSITION: u32 = 0;
const BUILTIN_POINT_SIZE: u32 = 1;

/// Execution model of the vertex stage.
pub(crate) const MODEL_VERTEX: u32 = 0;
/// Execution model of the geometry stage.
pub(crate) const MODEL_GEOMETRY: u32 = 3;
/// Execution model of the fragment stage.
pub(crate) const MODEL_FRAGMENT: u32 = 4;

const MAGIC: u32 = 0x0723_0203;

/// A module split into instructions (each a word slice with its opcode in the low half of
/// the first word).
struct Parsed {
    header: [u32; 5],
    insts: Vec<Vec<u32>>,
}

fn parse(words: &[u32]) -> Result<Parsed, String> {
    if words.len() < 5 || words[0] != MAGIC {
        return Err("not a SPIR-V module (bad magic or too short)".to_owned());
    }
    let mut insts = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 || i + count > words.len() {
            return Err(format!("malformed instruction at word {i}"));
        }
        insts.push(words[i..i + count].to_vec());
        i += count;
    }
    Ok(Parsed {
        header: [words[0], words[1], words[2], words[3], words[4]],
        insts,
    })
}

fn op(inst: &[u32]) -> u32 {
    inst[0] & 0xffff
}

/// Moves the pointers derived from `vars` (access chains and copies of them, in the
/// functions) to the Private storage class, for a pass that turns `vars` into Private
/// variables. Loads through them are kept, and stores when `stores` (not of the pointers
/// themselves); any other use returns `None`: the pass leaves the module alone.
fn retype_to_private(p: &mut Parsed, b: &mut Builder, vars: &[u32], stores: bool) -> Option<()> {
    let mut derived: std::collections::HashSet<u32> = vars.iter().copied().collect();
    let first_fn = p.insts.iter().position(|i| op(i) == OP_FUNCTION)?;
    for at in first_fn..p.insts.len() {
        let i = &p.insts[at];
        match op(i) {
            OP_ACCESS_CHAIN | OP_IN_BOUNDS_ACCESS_CHAIN | OP_COPY_OBJECT
                if i.len() > 3 && derived.contains(&i[3]) =>
            {
                let pointee = decl(p, i[1]).filter(|t| op(t) == OP_TYPE_POINTER)?[3];
                let private = find_type(p, b, OP_TYPE_POINTER, &[SC_PRIVATE, pointee]);
                derived.insert(i[2]);
                p.insts[at][1] = private;
            }
            OP_LOAD if i.len() == 4 => {}
            OP_STORE if stores && i.len() == 3 && !derived.contains(&i[2]) => {}
            _ if i.len() > 1 && i[1..].iter().any(|w| derived.contains(w)) => return None,
            _ => {}
        }
    }
    Some(())
}

/// The global variables of storage class `sc`: (pointer type, id).
fn variables(p: &Parsed, sc: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
    p.insts
        .iter()
        .filter(move |i| op(i) == OP_VARIABLE && i.len() >= 4 && i[3] == sc)
        .map(|i| (i[1], i[2]))
}

/// The declaration of type or constant `id`.
fn decl(p: &Parsed, id: u32) -> Option<&[u32]> {
    p.insts
        .iter()
        .take_while(|i| op(i) != OP_FUNCTION)
        .find(|i| match op(i) {
            OP_TYPE_INT..=OP_TYPE_POINTER => i.len() > 1 && i[1] == id,
            OP_CONSTANT => i.len() > 3 && i[2] == id,
            _ => false,
        })
        .map(Vec::as_slice)
}

fn inst(opcode: u32, operands: &[u32]) -> Vec<u32> {
    let mut v = Vec::with_capacity(operands.len() + 1);
    v.push(((operands.len() as u32 + 1) << 16) | opcode);
    v.extend_from_slice(operands);
    v
}

/// Words of a little-endian byte string (`None`: not whole words).
pub(crate) fn words(bytes: &[u8]) -> Option<Vec<u32>> {
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    Some(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}

/// The types and decorations of a module, by id.
#[derive(Default)]
struct Index {
    types: std::collections::HashMap<u32, Vec<u32>>,
    constants: std::collections::HashMap<u32, u32>,
    decorations: std::collections::HashMap<(u32, u32), Vec<u32>>,
    member_builtins: std::collections::HashMap<(u32, u32), u32>,
    flat: std::collections::HashSet<u32>,
    flat_struct: std::collections::HashSet<u32>,
}

impl Index {
    fn build(p: &Parsed) -> Self {
        let mut ix = Index::default();
        for i in &p.insts {
            match op(i) {
                OP_TYPE_INT..=OP_TYPE_POINTER if i.len() > 1 => {
                    ix.types.insert(i[1], i.clone());
                }
                OP_CONSTANT if i.len() > 3 => {
                    ix.constants.insert(i[2], i[3]);
                }
                OP_DECORATE if i.len() > 2 => {
                    if i[2] == DEC_FLAT {
                        ix.flat.insert(i[1]);
                    }
                    ix.decorations.insert((i[1], i[2]), i[3..].to_vec());
                }
                OP_MEMBER_DECORATE if i.len() > 3 => {
                    if i[3] == DEC_BUILTIN && i.len() > 4 {
                        ix.member_builtins.insert((i[1], i[2]), i[4]);
                    }
                    if i[3] == DEC_FLAT {
                        ix.flat_struct.insert(i[1]);
                    }
                }
                _ => {}
            }
        }
        ix
    }

    fn decoration(&self, id: u32, dec: u32) -> Option<u32> {
        self.decorations
            .get(&(id, dec))
            .map(|v| v.first().copied().unwrap_or(0))
    }

    fn ty(&self, id: u32) -> Option<&[u32]> {
        self.types.get(&id).map(Vec::as_slice)
    }

    /// Strips arrays: (element type, element count).
    fn unarray(&self, mut id: u32) -> (u32, u32) {
        let mut count = 1u32;
        while let Some(t) = self.ty(id) {
            if op(t) != OP_TYPE_ARRAY || t.len() < 4 {
                break;
            }
            count = count.saturating_mul(self.constants.get(&t[3]).copied().unwrap_or(1));
            id = t[2];
        }
        (id, count)
    }

    /// Numeric class and locations of an interface type.
    fn class_and_locations(&self, id: u32) -> (NumClass, u32) {
        let (id, count) = self.unarray(id);
        let Some(t) = self.ty(id) else {
            return (NumClass::Float, count);
        };
        match op(t) {
            OP_TYPE_INT => (
                if t.get(3) == Some(&1) {
                    NumClass::Int
                } else {
                    NumClass::Uint
                },
                count,
            ),
            OP_TYPE_VECTOR => {
                let (c, _) = self.class_and_locations(t[2]);
                (c, count)
            }
            OP_TYPE_MATRIX => (NumClass::Float, count.saturating_mul(t[3])),
            _ => (NumClass::Float, count),
        }
    }

    /// The components of each 64-bit float vector an input of type `id` holds (one per
    /// array element or matrix column), `None` if it holds no doubles.
    fn double_vectors(&self, id: u32) -> Option<(u8, u32)> {
        let (id, count) = self.unarray(id);
        let t = self.ty(id)?;
        let (column, columns) = match op(t) {
            OP_TYPE_MATRIX => (self.ty(t[2])?, t[3]),
            _ => (t, 1),
        };
        let (scalar, components) = match op(column) {
            OP_TYPE_VECTOR => (self.ty(column[2])?, column[3]),
            _ => (column, 1),
        };
        (op(scalar) == OP_TYPE_FLOAT && scalar.get(2) == Some(&64))
            .then(|| (components as u8, count.saturating_mul(columns)))
    }

    fn numeric_class(&self, id: u32) -> NumClass {
        match self.ty(id) {
            Some(t) if op(t) == OP_TYPE_INT && t.get(3) == Some(&1) => NumClass::Int,
            Some(t) if op(t) == OP_TYPE_INT => NumClass::Uint,
            _ => NumClass::Float,
        }
    }
}

/// Reflects one stage.
pub(crate) fn reflect(words: &[u32]) -> Result<Reflection, String> {
    let p = parse(words)?;
    let ix = Index::build(&p);
    let mut r = Reflection::default();
    let entry = p
        .insts
        .iter()
        .find(|i| op(i) == OP_ENTRY_POINT && i.len() > 2)
        .ok_or("no entry point")?;
    r.model = entry[1];
    for i in &p.insts {
        if op(i) != OP_VARIABLE || i.len() < 4 {
            continue;
        }
        let (ptr, id, class) = (i[1], i[2], i[3]);
        let Some(pointee) = ix.ty(ptr).and_then(|t| t.get(3).copied()) else {
            continue;
        };
        match class {
            SC_INPUT if r.model == MODEL_VERTEX => {
                if let Some(loc) = ix.decoration(id, DEC_LOCATION) {
                    if let Some((components, n)) = ix.double_vectors(pointee) {
                        // Each vector takes one GL location (spirv/double_attrib.rs fetches
                        // a `dvec3`'s or `dvec4`'s second half at a location of its own).
                        for k in 0..n {
                            let l = loc.saturating_add(k) as usize;
                            if let Some(slot) = r.inputs.get_mut(l) {
                                *slot = Some(NumClass::Float);
                                r.double_inputs[l] = components;
                            }
                        }
                        continue;
                    }
                    let (c, n) = ix.class_and_locations(pointee);
                    for l in loc..loc.saturating_add(n) {
                        if let Some(slot) = r.inputs.get_mut(l as usize) {
                            *slot = Some(c);
                        }
                    }
                }
            }
            SC_INPUT if r.model == MODEL_FRAGMENT => {
                let (elem, _) = ix.unarray(pointee);
                if ix.flat.contains(&id) || ix.flat_struct.contains(&elem) {
                    r.flat_inputs = true;
                }
            }
            SC_OUTPUT if r.model == MODEL_FRAGMENT => {
                if let Some(loc) = ix.decoration(id, DEC_LOCATION) {
                    let (_, n) = ix.class_and_locations(pointee);
                    for l in loc..loc.saturating_add(n).min(8) {
                        r.outputs |= 1 << l;
                    }
                }
            }
            SC_UNIFORM_CONSTANT | SC_UNIFORM => {
                let Some(binding) = ix.decoration(id, DEC_BINDING) else {
                    continue;
                };
                if ix.decoration(id, DEC_DESCRIPTOR_SET).unwrap_or(0) != 0 {
                    continue;
                }
                let (elem, count) = ix.unarray(pointee);
                let Some(t) = ix.ty(elem) else { continue };
                let kind = match op(t) {
                    OP_TYPE_STRUCT
                        if class == SC_UNIFORM
                            && ix.decorations.contains_key(&(elem, DEC_BUFFER_BLOCK)) =>
                    {
                        ResourceKind::StorageBuffer
                    }
                    OP_TYPE_STRUCT if class == SC_UNIFORM => ResourceKind::UniformBuffer,
                    OP_TYPE_IMAGE if t.len() >= 9 && t[7] == 2 => ResourceKind::StorageImage {
                        dim: match t[3] {
                            0 => Dim::D1,
                            1 => Dim::D2,
                            2 => Dim::D3,
                            3 => Dim::Cube,
                            4 => Dim::Rect,
                            5 => Dim::Buffer,
                            _ => Dim::Other,
                        },
                        arrayed: t[5] == 1,
                        class: ix.numeric_class(t[2]),
                    },
                    OP_TYPE_SAMPLED_IMAGE => {
                        let Some(img) = ix.ty(t[2]) else { continue };
                        if op(img) != OP_TYPE_IMAGE || img.len() < 8 {
                            continue;
                        }
                        let class = ix.numeric_class(img[2]);
                        let dim = match img[3] {
                            0 => Dim::D1,
                            1 => Dim::D2,
                            2 => Dim::D3,
                            3 => Dim::Cube,
                            4 => Dim::Rect,
                            5 => Dim::Buffer,
                            _ => Dim::Other,
                        };
                        if dim == Dim::Buffer {
                            ResourceKind::TexelBuffer { class }
                        } else {
                            ResourceKind::Sampled {
                                dim,
                                arrayed: img[5] == 1,
                                multisampled: img[6] == 1,
                                class,
                            }
                        }
                    }
                    _ => continue,
                };
                r.resources.push(Resource {
                    binding,
                    kind,
                    count,
                });
            }
            _ => {}
        }
    }
    Ok(r)
}

/// What to patch into the last stage before rasterization.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Patch {
    /// Map GL clip-space depth to Vulkan's.
    pub depth: bool,
    /// Write `PointSize` from the push constant at offset 0.
    pub point_size: bool,
}

struct Builder {
    next: u32,
    decls: Vec<Vec<u32>>,
    annots: Vec<Vec<u32>>,
}

impl Builder {
    fn id(&mut self) -> u32 {
        let id = self.next;
        self.next += 1;
        id
    }
}

/// Finds (or declares) a type instruction with these operands after the result id.
fn find_type(p: &Parsed, b: &mut Builder, opcode: u32, operands: &[u32]) -> u32 {
    let found = p
        .insts
        .iter()
        .chain(b.decls.iter())
        .find(|i| op(i) == opcode && i.len() == operands.len() + 2 && i[2..] == *operands);
    if let Some(i) = found {
        return i[1];
    }
    let id = b.id();
    let mut ops = vec![id];
    ops.extend_from_slice(operands);
    b.decls.push(inst(opcode, &ops));
    id
}

fn constant(b: &mut Builder, ty: u32, value: u32) -> u32 {
    let id = b.id();
    b.decls.push(inst(OP_CONSTANT, &[ty, id, value]));
    id
}

/// Where a built-in output lives: a variable of its own, or member `m` of a block variable.
#[derive(Clone, Copy)]
enum BuiltinAt {
    Var(u32),
    Member(u32, u32),
}

impl BuiltinAt {
    /// The variable, and for a block member the constant of its index (made in `b`).
    fn var_and_member(self, b: &mut Builder, int: u32) -> (u32, Option<u32>) {
        match self {
            BuiltinAt::Var(v) => (v, None),
            BuiltinAt::Member(v, m) => (v, Some(constant(b, int, m))),
        }
    }
}

/// A pointer to the builtin: the variable itself, or an access chain (of pointer type
/// `ptr`, appended to `code`) to its member.
fn builtin_pointer(
    b: &mut Builder,
    code: &mut Vec<Vec<u32>>,
    ptr: u32,
    var: u32,
    member: Option<u32>,
) -> u32 {
    match member {
        Some(m) => {
            let p = b.id();
            code.push(inst(OP_ACCESS_CHAIN, &[ptr, p, var, m]));
            p
        }
        None => var,
    }
}

fn find_builtin(p: &Parsed, ix: &Index, builtin: u32) -> Option<BuiltinAt> {
    for i in &p.insts {
        if op(i) != OP_VARIABLE || i.len() < 4 || i[3] != SC_OUTPUT {
            continue;
        }
        let (ptr, id) = (i[1], i[2]);
        if ix.decoration(id, DEC_BUILTIN) == Some(builtin) {
            return Some(BuiltinAt::Var(id));
        }
        let pointee = ix.ty(ptr).and_then(|t| t.get(3).copied())?;
        for (&(s, m), &b) in &ix.member_builtins {
            if s == pointee && b == builtin {
                return Some(BuiltinAt::Member(id, m));
            }
        }
    }
    None
}

/// Applies `patch` to a vertex or geometry stage.
pub(crate) fn patch(words: &[u32], patch: Patch) -> Result<Vec<u32>, String> {
    let mut p = parse(words)?;
    let ix = Index::build(&p);
    let entry_at = p
        .insts
        .iter()
        .position(|i| op(i) == OP_ENTRY_POINT && i.len() > 2)
        .ok_or("no entry point")?;
    let (model, main) = (p.insts[entry_at][1], p.insts[entry_at][2]);
    let version = p.header[1];
    let mut b = Builder {
        next: p.header[3],
        decls: Vec::new(),
        annots: Vec::new(),
    };
    let float = find_type(&p, &mut b, OP_TYPE_FLOAT, &[32]);
    let int = find_type(&p, &mut b, OP_TYPE_INT, &[32, 1]);
    let mut interface = Vec::new();

    // Each inserted sequence is built per site (fresh result ids).
    type Site = Box<dyn Fn(&mut Builder) -> Vec<Vec<u32>>>;
    let mut sites: Vec<Site> = Vec::new();

    if patch.depth
        && let Some(at) = find_builtin(&p, &ix, BUILTIN_POSITION)
    {
        let vec4 = find_type(&p, &mut b, OP_TYPE_VECTOR, &[float, 4]);
        let ptr = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_OUTPUT, vec4]);
        let half = constant(&mut b, float, 0.5f32.to_bits());
        let (var, member) = at.var_and_member(&mut b, int);
        sites.push(Box::new(move |b: &mut Builder| {
            let mut code = Vec::new();
            let target = builtin_pointer(b, &mut code, ptr, var, member);
            let (v, z, w, s, h, n) = (b.id(), b.id(), b.id(), b.id(), b.id(), b.id());
            code.push(inst(OP_LOAD, &[vec4, v, target]));
            code.push(inst(OP_COMPOSITE_EXTRACT, &[float, z, v, 2]));
            code.push(inst(OP_COMPOSITE_EXTRACT, &[float, w, v, 3]));
            code.push(inst(OP_FADD, &[float, s, z, w]));
            code.push(inst(OP_FMUL, &[float, h, s, half]));
            code.push(inst(OP_COMPOSITE_INSERT, &[vec4, n, h, v, 2]));
            code.push(inst(OP_STORE, &[target, n]));
            code
        }));
    }

    if patch.point_size {
        let ptr_out = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_OUTPUT, float]);
        let at = match find_builtin(&p, &ix, BUILTIN_POINT_SIZE) {
            Some(at) => at,
            None => {
                let var = b.id();
                b.decls.push(inst(OP_VARIABLE, &[ptr_out, var, SC_OUTPUT]));
                b.annots
                    .push(inst(OP_DECORATE, &[var, DEC_BUILTIN, BUILTIN_POINT_SIZE]));
                interface.push(var);
                BuiltinAt::Var(var)
            }
        };
        // The push-constant block { float size; } at offset 0, or the block a vertex stage
        // reading draw parameters has already (its first member is the size:
        // spirv/draw_param.rs).
        let ptr_pc = find_type(&p, &mut b, OP_TYPE_POINTER, &[SC_PUSH_CONSTANT, float]);
        let pc = match variables(&p, SC_PUSH_CONSTANT).next() {
            Some((_, pc)) => pc,
            None => {
                let block = b.id();
                b.decls.push(inst(OP_TYPE_STRUCT, &[block, float]));
                b.annots.push(inst(OP_DECORATE, &[block, DEC_BLOCK]));
                b.annots
                    .push(inst(OP_MEMBER_DECORATE, &[block, 0, DEC_OFFSET, 0]));
                let ptr_block = b.id();
                b.decls
                    .push(inst(OP_TYPE_POINTER, &[ptr_block, SC_PUSH_CONSTANT, block]));
                let pc = b.id();
                b.decls
                    .push(inst(OP_VARIABLE, &[ptr_block, pc, SC_PUSH_CONSTANT]));
                if version >= 0x0001_0400 {
                    interface.push(pc);
                }
                pc
            }
        };
        let zero = constant(&mut b, int, 0);
        let (var, member) = at.var_and_member(&mut b, int);
        sites.push(Box::new(move |b: &mut Builder| {
            let mut code = Vec::new();
            let (src, value) = (b.id(), b.id());
            code.push(inst(OP_ACCESS_CHAIN, &[ptr_pc, src, pc, zero]));
            code.push(inst(OP_LOAD, &[float, value, src]));
            let target = builtin_pointer(b, &mut code, ptr_out, var, member);
            code.push(inst(OP_STORE, &[target, value]));
            code
        }));
    }

    if sites.is_empty() {
        return Ok(words.to_vec());
    }
    p.insts[entry_at].extend_from_slice(&interface);
    let n = p.insts[entry_at].len() as u32;
    p.insts[entry_at][0] = (n << 16) | OP_ENTRY_POINT;

    // Insert the code at every site.
    let mut out_insts: Vec<Vec<u32>> = Vec::with_capacity(p.insts.len() + 32);
    let mut in_main = false;
    for i in std::mem::take(&mut p.insts) {
        let o = op(&i);
        if o == OP_FUNCTION && i.len() > 2 {
            in_main = i[2] == main;
        }
        let site = match model {
            MODEL_GEOMETRY => o == OP_EMIT_VERTEX || o == OP_EMIT_STREAM_VERTEX,
            _ => in_main && o == OP_RETURN,
        };
        if site {
            for s in &sites {
                out_insts.extend(s(&mut b));
            }
        }
        if o == OP_FUNCTION_END {
            in_main = false;
        }
        out_insts.push(i);
    }
    p.insts = out_insts;
    Ok(assemble(p, b))
}

/// The words of `p` with `b`'s declarations before the first function and its annotations
/// after the last annotation, and `b`'s id bound.
fn assemble(mut p: Parsed, mut b: Builder) -> Vec<u32> {
    let mut out_insts = std::mem::take(&mut p.insts);
    let first_fn = out_insts
        .iter()
        .position(|i| op(i) == OP_FUNCTION)
        .unwrap_or(out_insts.len());
    let decls = std::mem::take(&mut b.decls);
    out_insts.splice(first_fn..first_fn, decls);
    let last_annot = out_insts
        .iter()
        .rposition(|i| matches!(op(i), OP_DECORATE | OP_MEMBER_DECORATE | 73 | 74 | 75 | 332))
        .map(|p| p + 1)
        .or_else(|| out_insts.iter().position(|i| (19..=39).contains(&op(i))))
        .unwrap_or(first_fn);
    let annots = std::mem::take(&mut b.annots);
    out_insts.splice(last_annot..last_annot, annots);

    let mut out = Vec::with_capacity(out_insts.iter().map(Vec::len).sum::<usize>() + 5);
    out.extend_from_slice(&p.header);
    out[3] = b.next;
    for i in out_insts {
        out.extend_from_slice(&i);
    }
    out
}

/// A fragment stage writing the push constant's first `vec4` (offset 0; a `float` follows
/// at 16) to one colour output per entry of `classes`, each of that numeric class (an
/// integer output takes the `vec4`'s bits): the built-in clear program's, one per subpass
/// colour count and classes, so that no output lacks an attachment or mismatches its type.
pub(crate) fn clear_fragment(classes: &[NumClass]) -> Vec<u32> {
    const OP_CAPABILITY: u32 = 17;
    const OP_MEMORY_MODEL: u32 = 14;
    const OP_EXECUTION_MODE: u32 = 16;
    const OP_TYPE_VOID: u32 = 19;
    const OP_TYPE_FUNCTION: u32 = 33;
    const OP_BITCAST: u32 = 124;
    const OP_LABEL: u32 = 248;
    let mut next = 1u32;
    let mut id = || {
        let v = next;
        next += 1;
        v
    };
    // Ids in declaration order (from_fn calls in index order).
    let [
        main,
        void,
        fn_ty,
        float,
        vec4,
        block,
        ptr_block,
        pc,
        int,
        zero,
        ptr_vec4,
        ptr_out,
        uint,
        ivec4,
        uvec4,
        ptr_out_i,
        ptr_out_u,
    ] = std::array::from_fn(|_| id());
    let outs: Vec<u32> = classes.iter().map(|_| id()).collect();
    let (label, src, value, as_int, as_uint) = (id(), id(), id(), id(), id());
    let mut code = vec![inst(OP_CAPABILITY, &[1]), inst(OP_MEMORY_MODEL, &[0, 1])];
    let mut entry = vec![MODEL_FRAGMENT, main, 0x6e69_616d, 0];
    entry.extend_from_slice(&outs);
    code.push(inst(OP_ENTRY_POINT, &entry));
    code.push(inst(OP_EXECUTION_MODE, &[main, 7]));
    for (i, &o) in outs.iter().enumerate() {
        code.push(inst(OP_DECORATE, &[o, DEC_LOCATION, i as u32]));
    }
    code.push(inst(OP_DECORATE, &[block, DEC_BLOCK]));
    code.push(inst(OP_MEMBER_DECORATE, &[block, 0, DEC_OFFSET, 0]));
    code.push(inst(OP_MEMBER_DECORATE, &[block, 1, DEC_OFFSET, 16]));
    code.push(inst(OP_TYPE_VOID, &[void]));
    code.push(inst(OP_TYPE_FUNCTION, &[fn_ty, void]));
    code.push(inst(OP_TYPE_FLOAT, &[float, 32]));
    code.push(inst(OP_TYPE_VECTOR, &[vec4, float, 4]));
    code.push(inst(OP_TYPE_STRUCT, &[block, vec4, float]));
    code.push(inst(OP_TYPE_POINTER, &[ptr_block, SC_PUSH_CONSTANT, block]));
    code.push(inst(OP_VARIABLE, &[ptr_block, pc, SC_PUSH_CONSTANT]));
    code.push(inst(OP_TYPE_INT, &[int, 32, 1]));
    code.push(inst(OP_CONSTANT, &[int, zero, 0]));
    code.push(inst(OP_TYPE_POINTER, &[ptr_vec4, SC_PUSH_CONSTANT, vec4]));
    code.push(inst(OP_TYPE_POINTER, &[ptr_out, SC_OUTPUT, vec4]));
    code.push(inst(OP_TYPE_INT, &[uint, 32, 0]));
    code.push(inst(OP_TYPE_VECTOR, &[ivec4, int, 4]));
    code.push(inst(OP_TYPE_VECTOR, &[uvec4, uint, 4]));
    code.push(inst(OP_TYPE_POINTER, &[ptr_out_i, SC_OUTPUT, ivec4]));
    code.push(inst(OP_TYPE_POINTER, &[ptr_out_u, SC_OUTPUT, uvec4]));
    for (&o, class) in outs.iter().zip(classes) {
        let ptr = match class {
            NumClass::Float => ptr_out,
            NumClass::Int => ptr_out_i,
            NumClass::Uint => ptr_out_u,
        };
        code.push(inst(OP_VARIABLE, &[ptr, o, SC_OUTPUT]));
    }
    code.push(inst(OP_FUNCTION, &[void, main, 0, fn_ty]));
    code.push(inst(OP_LABEL, &[label]));
    code.push(inst(OP_ACCESS_CHAIN, &[ptr_vec4, src, pc, zero]));
    code.push(inst(OP_LOAD, &[vec4, value, src]));
    // Integer outputs take the colour's bits: the caller pushes the integer clear value's
    // words.
    code.push(inst(OP_BITCAST, &[ivec4, as_int, value]));
    code.push(inst(OP_BITCAST, &[uvec4, as_uint, value]));
    for (&o, class) in outs.iter().zip(classes) {
        let v = match class {
            NumClass::Float => value,
            NumClass::Int => as_int,
            NumClass::Uint => as_uint,
        };
        code.push(inst(OP_STORE, &[o, v]));
    }
    code.push(inst(OP_RETURN, &[]));
    code.push(inst(OP_FUNCTION_END, &[]));
    let mut words = vec![MAGIC, 0x0001_0000, 0, next, 0];
    for i in code {
        words.extend_from_slice(&i);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clear_fragment_stage_reflects_its_outputs() {
        let words = clear_fragment(&[NumClass::Float; 3]);
        let r = reflect(&words).expect("a module");
        assert_eq!(r.model, MODEL_FRAGMENT);
        assert_eq!(r.outputs, 0b111);
        assert!(r.resources.is_empty());
    }
}

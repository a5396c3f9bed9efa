//! The buffer variables of shader storage blocks (GL 4.3 §7.3.1.1, `BUFFER_VARIABLE`), read
//! from the SPIR-V of the first stage declaring each block: the member types and their
//! `Offset`, `ArrayStride`, `MatrixStride` and `RowMajor` decorations are where the shader
//! reads, so what the application writes at a reported offset is what the shader sees.
//!
//! GL's enumeration: each member of basic type is a variable (an array of them one
//! variable named `x[0]`); struct members are walked to their basic-typed leaves; arrays of
//! structs or of arrays are walked element by element, except a top-level member's array,
//! of which only element 0 is listed (its length and stride are the
//! `TOP_LEVEL_ARRAY_SIZE` and `_STRIDE` of every variable inside; a member that is no such
//! array, an array of a basic type included, has 1 and 0, as Mesa answers). A block with an
//! instance name prefixes its members with the block name (`Block.member`).

use crate::gltype::{self, Base};
use crate::spirv::{Module, Type, deco, storage};
use crate::{BufferVariable, Stage};

/// `BufferBlock`: how SPIR-V 1.0 marks a storage block's struct.
const BUFFER_BLOCK: u32 = 3;

/// The reflection of one declared storage block: its variables (their `block` fields
/// still 0) and `BUFFER_DATA_SIZE`.
pub(crate) struct Reflected {
    pub variables: Vec<BufferVariable>,
    pub data_size: u32,
}

/// The struct type of storage block `name` in a module, and whether its variable has an
/// instance name.
fn find(m: &Module, name: &str) -> Option<(u32, bool)> {
    m.vars(storage::UNIFORM).find_map(|v| {
        let st = m.strip_arrays(v.ty);
        (m.name(st) == name
            && m.decoration(st, BUFFER_BLOCK).is_some()
            && matches!(m.ty(st), Some(Type::Struct { .. })))
        .then(|| (st, !m.name(v.id).is_empty()))
    })
}

/// What a walk passes down: where the variable's top-level member is, and the layout
/// decorations of the member holding a matrix.
#[derive(Clone, Copy)]
struct Context {
    top_size: i32,
    top_stride: i32,
    row_major: bool,
    matrix_stride: u32,
    stages: u8,
}

/// The buffer variables of storage block `name`, from the first module declaring it.
pub(crate) fn reflect(modules: &[(Stage, Module)], name: &str, stages: u8) -> Reflected {
    let mut out = Reflected {
        variables: Vec::new(),
        data_size: 0,
    };
    let Some((m, st, prefixed)) = modules
        .iter()
        .find_map(|(_, m)| find(m, name).map(|(st, p)| (m, st, p)))
    else {
        return out;
    };
    let Some(Type::Struct { members }) = m.ty(st) else {
        return out;
    };
    let mut end = 0;
    for (i, &member) in members.iter().enumerate() {
        let i = i as u32;
        let offset = m.member_decoration(st, i, deco::OFFSET).unwrap_or(0);
        let member_name = m.member_name(st, i);
        let full = if prefixed {
            format!("{name}.{member_name}")
        } else {
            member_name.to_string()
        };
        let mut cx = Context {
            top_size: 1,
            top_stride: 0,
            row_major: m.member_decoration(st, i, deco::ROW_MAJOR).is_some(),
            matrix_stride: m.member_decoration(st, i, deco::MATRIX_STRIDE).unwrap_or(0),
            stages,
        };
        let array = match m.ty(member) {
            Some(Type::Array { element, length }) => Some((*element, *length)),
            Some(Type::RuntimeArray { element }) => Some((*element, 0)),
            _ => None,
        };
        match array {
            Some((element, length)) if is_aggregate(m, element) => {
                let stride = m.decoration(member, deco::ARRAY_STRIDE).unwrap_or(0);
                cx.top_size = length as i32;
                cx.top_stride = stride as i32;
                // An unsized array takes one element's room (GL 4.3 §7.6.2.2).
                end = end.max(offset + stride * length.max(1));
                walk(m, element, format!("{full}[0]"), offset, cx, &mut out);
            }
            Some((_, length)) => {
                // An array of a basic type is one variable, not a top-level array (Mesa).
                let stride = m.decoration(member, deco::ARRAY_STRIDE).unwrap_or(0);
                let before = out.variables.len();
                walk(m, member, full, offset, cx, &mut out);
                end = end.max(offset + stride * length.max(1));
                end = end.max(extent(&out.variables[before..]));
            }
            None => {
                let before = out.variables.len();
                walk(m, member, full, offset, cx, &mut out);
                end = end.max(extent(&out.variables[before..]));
            }
        }
    }
    out.data_size = end.div_ceil(16) * 16;
    out
}

/// Whether a type is a struct or an array (whose elements GL lists one by one).
fn is_aggregate(m: &Module, ty: u32) -> bool {
    matches!(
        m.ty(ty),
        Some(Type::Struct { .. } | Type::Array { .. } | Type::RuntimeArray { .. })
    )
}

/// The end of the last byte of the given variables.
fn extent(vars: &[BufferVariable]) -> u32 {
    vars.iter()
        .map(|v| {
            let Some(info) = gltype::info(v.ty) else {
                return v.offset as u32;
            };
            let element = if info.is_matrix() {
                let vectors = if v.row_major { info.rows } else { info.columns };
                v.matrix_stride as u32 * u32::from(vectors)
            } else {
                info.scalar_bytes() as u32 * u32::from(info.rows)
            };
            let elements = v.size.max(1) as u32;
            v.offset as u32 + v.array_stride as u32 * (elements - 1) + element
        })
        .max()
        .unwrap_or(0)
}

/// Lists the variables of a value of type `ty` at `offset`, named `name`.
fn walk(m: &Module, ty: u32, name: String, offset: u32, cx: Context, out: &mut Reflected) {
    match m.ty(ty) {
        Some(Type::Struct { members }) => {
            for (i, &member) in members.iter().enumerate() {
                let i = i as u32;
                let at = offset + m.member_decoration(ty, i, deco::OFFSET).unwrap_or(0);
                let cx = Context {
                    row_major: m.member_decoration(ty, i, deco::ROW_MAJOR).is_some(),
                    matrix_stride: m.member_decoration(ty, i, deco::MATRIX_STRIDE).unwrap_or(0),
                    ..cx
                };
                walk(
                    m,
                    member,
                    format!("{name}.{}", m.member_name(ty, i)),
                    at,
                    cx,
                    out,
                );
            }
        }
        Some(Type::Array { element, length }) if is_aggregate(m, *element) => {
            let stride = m.decoration(ty, deco::ARRAY_STRIDE).unwrap_or(0);
            for e in 0..*length {
                walk(
                    m,
                    *element,
                    format!("{name}[{e}]"),
                    offset + e * stride,
                    cx,
                    out,
                );
            }
        }
        Some(Type::Array { element, .. } | Type::RuntimeArray { element }) => {
            let length = match m.ty(ty) {
                Some(Type::Array { length, .. }) => *length as i32,
                _ => 0,
            };
            let stride = m.decoration(ty, deco::ARRAY_STRIDE).unwrap_or(0);
            if let Some(gl) = basic_type(m, *element) {
                push(out, format!("{name}[0]"), gl, length, offset, stride, cx);
            }
        }
        _ => {
            if let Some(gl) = basic_type(m, ty) {
                push(out, name, gl, 1, offset, 0, cx);
            }
        }
    }
}

fn push(
    out: &mut Reflected,
    name: String,
    ty: u32,
    size: i32,
    offset: u32,
    array_stride: u32,
    cx: Context,
) {
    let matrix = gltype::info(ty).is_some_and(|i| i.is_matrix());
    out.variables.push(BufferVariable {
        name,
        ty,
        size,
        block: 0,
        offset: offset as i32,
        array_stride: array_stride as i32,
        matrix_stride: if matrix { cx.matrix_stride as i32 } else { 0 },
        row_major: matrix && cx.row_major,
        top_level_size: cx.top_size,
        top_level_stride: cx.top_stride,
        stages: cx.stages,
    });
}

/// The GL type of a scalar, vector or matrix type.
fn basic_type(m: &Module, ty: u32) -> Option<u32> {
    let scalar = |id: u32| match m.ty(id)? {
        Type::Float { width: 64 } => Some(Base::Double),
        Type::Float { .. } => Some(Base::Float),
        Type::Int { signed: true, .. } => Some(Base::Int),
        Type::Int { .. } => Some(Base::Uint),
        Type::Bool => Some(Base::Bool),
        _ => None,
    };
    match m.ty(ty)? {
        Type::Matrix { column, count } => {
            let Type::Vector {
                component,
                count: rows,
            } = m.ty(*column)?
            else {
                return None;
            };
            gltype::from_parts(scalar(*component)?, *rows as u8, *count as u8)
        }
        Type::Vector { component, count } => {
            gltype::from_parts(scalar(*component)?, *count as u8, 1)
        }
        _ => gltype::from_parts(scalar(ty)?, 1, 1),
    }
}

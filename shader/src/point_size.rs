//! The fixed point size: desktop GL sizes points with `glPointSize` unless
//! `PROGRAM_POINT_SIZE` is enabled, while GLES and Vulkan take the size from the shader's
//! `PointSize` only. So the last stage before rasterization (the vertex stage, or a geometry
//! stage that emits points) is patched, at link, to store
//!
//! ```text
//! PointSize = hidden > 0.0 ? hidden : (the shader's own PointSize, or 1.0 if it writes none)
//! ```
//!
//! before each return of `main` (vertex) or each `EmitVertex` (geometry), where `hidden` is
//! the first component of a `vec4` the crate reserves after the application's uniforms in
//! the default uniform block (see [`crate::Program::default_block_size`]). A `vec4`, not a
//! float: its offset, the block's size rounded up to 16, is where std140 puts it, which
//! translators to GLSL ES require of every member. The engine fills it when it sends the
//! block: `glPointSize`'s value while `PROGRAM_POINT_SIZE` is off, 0 while it is on. Every
//! backend gets GL's rule from the SPIR-V alone; none needs `SetPointSize`.
//!
//! A stage without a default block gets one holding just the hidden `vec4` (after padding
//! that keeps its offset, so the block stays std140 and translatable to GLSL ES).

use crate::edit::{Editor, inst, literal, op, opcode};
use crate::spirv::{Malformed, deco, storage};

/// `BuiltIn PointSize`.
const BUILT_IN_POINT_SIZE: u32 = 1;
/// `Capability GeometryPointSize`.
const CAPABILITY_GEOMETRY_POINT_SIZE: u32 = 24;
/// `ExecutionModel Geometry`.
const MODEL_GEOMETRY: u32 = 3;

/// Where the stage reads the hidden size: the default block variable and the member.
struct Hidden {
    var: u32,
    member: u32,
}

/// Patches the last stage before rasterization; `offset` is the byte offset of the hidden
/// `vec4` in the default block (binding 0), a multiple of 16.
pub(crate) fn patch(words: &[u32], offset: u32) -> Result<Vec<u32>, Malformed> {
    let mut e = Editor::parse(words)?;
    let (_, model, entry) = e.entry_point().ok_or(Malformed)?;
    let float = e.float();
    let vec4 = e.vector(float, 4);
    let hidden = hidden_member(&mut e, vec4, offset)?;
    let (target, member) = point_size_output(&mut e, float);
    let writes = writes_point_size(&e, target, member);
    if model == MODEL_GEOMETRY {
        e.capability(CAPABILITY_GEOMETRY_POINT_SIZE);
    }

    let int = e.int();
    let bool_ = e.bool();
    let zero = e.constant(float, 0f32.to_bits());
    let one = e.constant(float, 1f32.to_bits());
    let hidden_index = e.constant(int, hidden.member);
    let x = e.constant(int, 0);
    let member_index = member.map(|m| e.constant(int, m));
    let uniform_float = e.pointer(storage::UNIFORM, float);
    let output_float = e.pointer(storage::OUTPUT, float);

    // The stores: before every return of the entry point (vertex), or before every vertex
    // emitted by any function (geometry).
    let mut at = e.functions_start();
    let mut in_entry = false;
    while at < e.insts.len() {
        let o = opcode(&e.insts[at]);
        match o {
            op::FUNCTION => in_entry = e.insts[at].get(2) == Some(&entry),
            op::FUNCTION_END => in_entry = false,
            _ => {}
        }
        let site = if model == MODEL_GEOMETRY {
            matches!(o, op::EMIT_VERTEX | op::EMIT_STREAM_VERTEX)
        } else {
            in_entry && o == op::RETURN
        };
        if !site {
            at += 1;
            continue;
        }
        let mut code = Vec::new();
        let h_ptr = e.fresh();
        code.push(inst(
            op::ACCESS_CHAIN,
            &[uniform_float, h_ptr, hidden.var, hidden_index, x],
        ));
        let h = e.fresh();
        code.push(inst(op::LOAD, &[float, h, h_ptr]));
        let ptr = match member_index {
            Some(index) => {
                let p = e.fresh();
                code.push(inst(op::ACCESS_CHAIN, &[output_float, p, target, index]));
                p
            }
            None => target,
        };
        let own = if writes {
            let v = e.fresh();
            code.push(inst(op::LOAD, &[float, v, ptr]));
            v
        } else {
            one
        };
        let set = e.fresh();
        code.push(inst(op::F_ORD_GREATER_THAN, &[bool_, set, h, zero]));
        let size = e.fresh();
        code.push(inst(op::SELECT, &[float, size, set, h, own]));
        code.push(inst(op::STORE, &[ptr, size]));
        at = e.insert(at, code) + 1;
    }
    Ok(e.finish())
}

/// Moves the declaration of the `float` or vector type `id` to just before instruction `at` if it comes after
/// it; returns where the instruction that was at `at` is now.
fn hoist(e: &mut Editor, id: u32, at: usize) -> Result<usize, Malformed> {
    let types = e.types_start();
    let from = types
        + e.insts[types..e.functions_start()]
            .iter()
            .position(|i| matches!(opcode(i), op::TYPE_FLOAT | op::TYPE_VECTOR) && i[1] == id)
            .ok_or(Malformed)?;
    if from < at {
        return Ok(at);
    }
    let decl = e.insts.remove(from);
    e.insts.insert(at, decl);
    Ok(at + 1)
}

/// The default block's hidden `vec4` member, added to the stage's block (or to a new
/// block).
fn hidden_member(e: &mut Editor, vec4: u32, offset: u32) -> Result<Hidden, Malformed> {
    // The default block is the Uniform variable at binding 0 (the interface patch numbered
    // it so).
    let existing = e.insts[..e.functions_start()]
        .iter()
        .filter(|i| opcode(i) == op::VARIABLE && i.get(3) == Some(&storage::UNIFORM))
        .map(|i| (i[1], i[2]))
        .find(|(_, id)| {
            e.insts
                .iter()
                .any(|d| opcode(d) == op::DECORATE && d[1..] == [*id, deco::BINDING, 0])
        });
    if let Some((ptr_ty, var)) = existing {
        let st = match e.declaration(ptr_ty) {
            Some(p) if opcode(p) == op::TYPE_POINTER && p.len() == 4 => p[3],
            _ => return Err(Malformed),
        };
        let mut at = e
            .insts
            .iter()
            .position(|i| opcode(i) == op::TYPE_STRUCT && i.get(1) == Some(&st))
            .ok_or(Malformed)?;
        // glslang declares a type at its first use, so the module's `vec4` (and even its
        // `float`) may come after the block's struct, which is about to refer to it: move
        // them up to just before the struct.
        let float = e
            .declaration(vec4)
            .and_then(|d| d.get(2).copied())
            .ok_or(Malformed)?;
        at = hoist(e, float, at)?;
        at = hoist(e, vec4, at)?;
        let s = &mut e.insts[at];
        let member = (s.len() - 2) as u32;
        s.push(vec4);
        s[0] = ((s.len() as u32) << 16) | u32::from(op::TYPE_STRUCT);
        e.annotate(inst(
            op::MEMBER_DECORATE,
            &[st, member, deco::OFFSET, offset],
        ));
        let mut name = vec![st, member];
        name.extend(literal("ts_point_size"));
        e.name(inst(op::MEMBER_NAME, &name));
        return Ok(Hidden { var, member });
    }
    // A block of its own: `vec4 pad[offset / 16]; vec4 point_size;`.
    let mut members = Vec::new();
    if offset >= 16 {
        let uint = e.uint();
        let len = e.constant(uint, offset / 16);
        let pad = e.ty(op::TYPE_ARRAY, &[vec4, len]);
        e.annotate(inst(op::DECORATE, &[pad, deco::ARRAY_STRIDE, 16]));
        members.push((pad, 0, "ts_pad"));
    }
    members.push((vec4, offset, "ts_point_size"));
    let types: Vec<u32> = members.iter().map(|m| m.0).collect();
    let st = e.ty(op::TYPE_STRUCT, &types);
    e.annotate(inst(op::DECORATE, &[st, deco::BLOCK]));
    for (i, (_, off, name)) in members.iter().enumerate() {
        e.annotate(inst(
            op::MEMBER_DECORATE,
            &[st, i as u32, deco::OFFSET, *off],
        ));
        let mut n = vec![st, i as u32];
        n.extend(literal(name));
        e.name(inst(op::MEMBER_NAME, &n));
    }
    let mut n = vec![st];
    n.extend(literal("gl_DefaultUniformBlock"));
    e.name(inst(op::NAME, &n));
    let ptr = e.pointer(storage::UNIFORM, st);
    let var = e.fresh();
    e.global(inst(op::VARIABLE, &[ptr, var, storage::UNIFORM]));
    e.annotate(inst(op::DECORATE, &[var, deco::DESCRIPTOR_SET, 0]));
    e.annotate(inst(op::DECORATE, &[var, deco::BINDING, 0]));
    Ok(Hidden {
        var,
        member: members.len() as u32 - 1,
    })
}

/// The stage's `PointSize` output: (the `gl_PerVertex` variable and the member, or a
/// variable of its own). A stage without one gets a new output variable.
fn point_size_output(e: &mut Editor, float: u32) -> (u32, Option<u32>) {
    let decorations: Vec<Vec<u32>> = e
        .insts
        .iter()
        .filter(|i| matches!(opcode(i), op::DECORATE | op::MEMBER_DECORATE))
        .cloned()
        .collect();
    let outputs: Vec<(u32, u32)> = e.insts[..e.functions_start()]
        .iter()
        .filter(|i| opcode(i) == op::VARIABLE && i.get(3) == Some(&storage::OUTPUT))
        .map(|i| (i[1], i[2]))
        .collect();
    for (ptr_ty, var) in outputs {
        if decorations.iter().any(|d| {
            opcode(d) == op::DECORATE && d[1..] == [var, deco::BUILT_IN, BUILT_IN_POINT_SIZE]
        }) {
            return (var, None);
        }
        let Some(pointee) = e.declaration(ptr_ty).filter(|p| p.len() == 4).map(|p| p[3]) else {
            continue;
        };
        if let Some(d) = decorations.iter().find(|d| {
            opcode(d) == op::MEMBER_DECORATE
                && d.len() == 5
                && d[1] == pointee
                && d[3] == deco::BUILT_IN
                && d[4] == BUILT_IN_POINT_SIZE
        }) {
            return (var, Some(d[2]));
        }
    }
    let ptr = e.pointer(storage::OUTPUT, float);
    let var = e.fresh();
    e.global(inst(op::VARIABLE, &[ptr, var, storage::OUTPUT]));
    e.annotate(inst(
        op::DECORATE,
        &[var, deco::BUILT_IN, BUILT_IN_POINT_SIZE],
    ));
    e.add_interface(var);
    (var, None)
}

/// Whether any code of the module stores to the `PointSize` output.
fn writes_point_size(e: &Editor, var: u32, member: Option<u32>) -> bool {
    let start = e.functions_start();
    e.insts[start..].iter().any(|i| match (opcode(i), member) {
        (op::STORE, None) => i.get(1) == Some(&var),
        (op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN, Some(m)) => {
            i.get(3) == Some(&var)
                && i.get(4)
                    .and_then(|index| e.constant_value(*index))
                    .is_some_and(|v| v == m)
        }
        _ => false,
    })
}

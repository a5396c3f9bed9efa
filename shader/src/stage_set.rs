//! Stage sets: the stages of several separately linked programs (GL 4.1's program
//! pipelines) made into one program for a backend.
//!
//! Each program was linked alone, so each numbers its resources from the start of the
//! binding layout (`tessera_wire::record::ProgramDesc`: the default block at binding 0,
//! then its samplers, uniform blocks, storage blocks, atomic counter buffers and images) and has
//! a default block of its own. Put together, the programs' sampler slots come one program after
//! the other (in pipeline order), then their uniform block slots, then their storage block
//! slots, then their atomic counter buffer slots (storage slots too, after every program's
//! storage blocks, as in one program's layout), then their image slots, and their default blocks share binding 0, each at its own offset. [`combine`] rewrites each
//! stage's `Binding` decorations to the combined numbers, and moves the members of its
//! default block to the program's offset by putting padding `vec4`s before them (so the
//! block stays std140, as translators to GLSL ES require of every member), which shifts
//! the member indices its access chains name.

use crate::Stage;
use crate::edit::{Editor, inst, literal, op, opcode};
use crate::spirv::{Malformed, deco, storage};

/// One program of a stage set.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    /// The stages it gives the set (SPIR-V of its own link).
    pub stages: &'a [(Stage, Vec<u32>)],
    /// Its sampler slots.
    pub samplers: u32,
    /// Its uniform block slots.
    pub blocks: u32,
    /// Its shader storage block slots.
    pub storage_blocks: u32,
    /// Its atomic counter buffer slots (storage slots after its storage blocks').
    pub atomic_buffers: u32,
    /// Its image slots.
    pub images: u32,
    /// Where its default block starts in the set's (a multiple of 16).
    pub default_offset: u32,
}

/// The stages of `parts` (in pipeline order) with their bindings and default blocks moved
/// to the set's layout.
pub fn combine(parts: &[Part<'_>]) -> Result<Vec<(Stage, Vec<u32>)>, Malformed> {
    let samplers: u32 = parts.iter().map(|p| p.samplers).sum();
    let blocks: u32 = parts.iter().map(|p| p.blocks).sum();
    let storage_blocks: u32 = parts.iter().map(|p| p.storage_blocks).sum();
    let atomic_buffers: u32 = parts.iter().map(|p| p.atomic_buffers).sum();
    let images: u32 = parts.iter().map(|p| p.images).sum();
    let storage = storage_blocks + atomic_buffers;
    let end = 1 + samplers + blocks + storage + images;
    let (mut s0, mut b0, mut k0, mut a0, mut i0) = (0, 0, 0, 0, 0);
    let mut out: Vec<(Stage, Vec<u32>)> = Vec::new();
    for p in parts {
        let rebind = |b: u32| -> u32 {
            let (s, bl, k, a) = (p.samplers, p.blocks, p.storage_blocks, p.atomic_buffers);
            match b {
                0 => 0,
                b if b <= s => 1 + s0 + (b - 1),
                b if b <= s + bl => 1 + samplers + b0 + (b - 1 - s),
                b if b <= s + bl + k => 1 + samplers + blocks + k0 + (b - 1 - s - bl),
                b if b <= s + bl + k + a => {
                    1 + samplers + blocks + storage_blocks + a0 + (b - 1 - s - bl - k)
                }
                b if b <= s + bl + k + a + p.images => {
                    1 + samplers + blocks + storage + i0 + (b - 1 - s - bl - k - a)
                }
                // Numbers no code uses: past every slot of the set.
                b => end + b,
            }
        };
        for (stage, words) in p.stages {
            let mut e = Editor::parse(words)?;
            for i in &mut e.insts {
                if opcode(i) == op::DECORATE && i.len() == 4 && i[2] == deco::BINDING {
                    i[3] = rebind(i[3]);
                }
            }
            if p.default_offset > 0 {
                move_default_block(&mut e, p.default_offset)?;
            }
            // A fragment stage's inputs that the previous stage (another program's) does not
            // write read undefined values in GL; drivers that match interfaces strictly
            // refuse them, so they become private variables.
            if *stage == Stage::Fragment
                && let Some((_, previous)) = out.last()
            {
                let written = output_locations(&Editor::parse(previous)?);
                privatize_unwritten_inputs(&mut e, &written)?;
            }
            out.push((*stage, e.finish()));
        }
        s0 += p.samplers;
        b0 += p.blocks;
        k0 += p.storage_blocks;
        a0 += p.atomic_buffers;
        i0 += p.images;
    }
    Ok(out)
}

/// Moves the members of the stage's default block (the `Uniform` variable at binding 0)
/// `offset` bytes on, behind `offset / 16` padding `vec4`s.
fn move_default_block(e: &mut Editor, offset: u32) -> Result<(), Malformed> {
    let globals = e.functions_start();
    let Some((ptr_ty, var)) = e.insts[..globals]
        .iter()
        .filter(|i| opcode(i) == op::VARIABLE && i.get(3) == Some(&storage::UNIFORM))
        .map(|i| (i[1], i[2]))
        .find(|(_, id)| {
            e.insts
                .iter()
                .any(|d| opcode(d) == op::DECORATE && d[1..] == [*id, deco::BINDING, 0])
        })
    else {
        return Ok(());
    };
    let st = match e.declaration(ptr_ty) {
        Some(p) if opcode(p) == op::TYPE_POINTER && p.len() == 4 => p[3],
        _ => return Err(Malformed),
    };
    let pads = offset / 16;
    let float = e.float();
    let vec4 = e.vector(float, 4);
    // The struct must come after the vec4 it now names: glslang declares types at their
    // first use, so the vec4 (and its float) may follow the struct; move them before it.
    let at = e
        .insts
        .iter()
        .position(|i| opcode(i) == op::TYPE_STRUCT && i.get(1) == Some(&st))
        .ok_or(Malformed)?;
    let vec4_at = e
        .insts
        .iter()
        .position(|i| opcode(i) == op::TYPE_VECTOR && i.get(1) == Some(&vec4))
        .ok_or(Malformed)?;
    if vec4_at > at {
        let decl = e.insts.remove(vec4_at);
        e.insts.insert(at, decl);
        let float_at = e
            .insts
            .iter()
            .position(|i| opcode(i) == op::TYPE_FLOAT && i.get(1) == Some(&float))
            .ok_or(Malformed)?;
        if float_at > at {
            let decl = e.insts.remove(float_at);
            e.insts.insert(at, decl);
        }
    }
    let at = e
        .insts
        .iter()
        .position(|i| opcode(i) == op::TYPE_STRUCT && i.get(1) == Some(&st))
        .ok_or(Malformed)?;
    let s = &mut e.insts[at];
    let members: Vec<u32> = s[2..].to_vec();
    let mut ops = vec![st];
    ops.extend(std::iter::repeat_n(vec4, pads as usize));
    ops.extend(members);
    *s = inst(op::TYPE_STRUCT, &ops);
    // Member decorations and names of the struct move `pads` members on.
    for i in &mut e.insts {
        match opcode(i) {
            op::MEMBER_DECORATE if i.get(1) == Some(&st) && i.len() >= 4 => {
                i[2] += pads;
                if i[3] == deco::OFFSET && i.len() == 5 {
                    i[4] += offset;
                }
            }
            op::MEMBER_NAME if i.get(1) == Some(&st) && i.len() >= 3 => i[2] += pads,
            _ => {}
        }
    }
    for k in 0..pads {
        e.annotate(inst(op::MEMBER_DECORATE, &[st, k, deco::OFFSET, k * 16]));
        let mut n = vec![st, k];
        n.extend(literal(&format!("ts_set_pad{k}")));
        e.name(inst(op::MEMBER_NAME, &n));
    }
    // Access chains into the block name its members by constant indices: each moves
    // `pads` on (new constants first, since they go among the globals).
    let is_chain = |i: &[u32]| {
        matches!(opcode(i), op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN)
            && i.len() >= 5
            && i[3] == var
    };
    let mut indices: Vec<u32> = e
        .insts
        .iter()
        .filter(|i| is_chain(i))
        .map(|i| i[4])
        .collect();
    indices.sort_unstable();
    indices.dedup();
    let mut moved = Vec::with_capacity(indices.len());
    for index in indices {
        let decl = e.declaration(index).ok_or(Malformed)?;
        if opcode(decl) != op::CONSTANT || decl.len() != 4 {
            return Err(Malformed);
        }
        let (ty, value) = (decl[1], decl[3]);
        moved.push((index, e.constant(ty, value + pads)));
    }
    for i in &mut e.insts {
        if is_chain(i)
            && let Some((_, to)) = moved.iter().find(|(from, _)| *from == i[4])
        {
            i[4] = *to;
        }
    }
    Ok(())
}

/// The `Location`s of a stage's user outputs.
fn output_locations(e: &Editor) -> Vec<u32> {
    let outputs: Vec<u32> = e.insts[..e.functions_start()]
        .iter()
        .filter(|i| opcode(i) == op::VARIABLE && i.get(3) == Some(&storage::OUTPUT))
        .map(|i| i[2])
        .collect();
    e.insts
        .iter()
        .filter(|d| {
            opcode(d) == op::DECORATE
                && d.len() == 4
                && d[2] == deco::LOCATION
                && outputs.contains(&d[1])
        })
        .map(|d| d[3])
        .collect()
}

/// Turns the stage's plain (not block) user inputs at locations no output in `written`
/// has into `Private` variables: same type, undefined contents, out of the interface.
fn privatize_unwritten_inputs(e: &mut Editor, written: &[u32]) -> Result<(), Malformed> {
    let globals = e.functions_start();
    let inputs: Vec<(u32, u32)> = e.insts[..globals]
        .iter()
        .filter(|i| opcode(i) == op::VARIABLE && i.get(3) == Some(&storage::INPUT))
        .map(|i| (i[1], i[2]))
        .collect();
    for (ptr_ty, var) in inputs {
        let location = e
            .insts
            .iter()
            .find(|d| {
                opcode(d) == op::DECORATE && d.len() == 4 && d[1] == var && d[2] == deco::LOCATION
            })
            .map(|d| d[3]);
        let Some(location) = location else { continue };
        if written.contains(&location) {
            continue;
        }
        let pointee = match e.declaration(ptr_ty) {
            Some(p) if opcode(p) == op::TYPE_POINTER && p.len() == 4 => p[3],
            _ => return Err(Malformed),
        };
        // Blocks keep their interface (their members would need the same treatment).
        if e.insts.iter().any(|d| {
            opcode(d) == op::DECORATE && d.len() == 3 && d[1] == pointee && d[2] == deco::BLOCK
        }) {
            continue;
        }
        let private_ptr = e.pointer(PRIVATE, pointee);
        // The variable moves after its new pointer type (the end of the globals).
        let at = e
            .insts
            .iter()
            .position(|i| opcode(i) == op::VARIABLE && i.get(2) == Some(&var))
            .ok_or(Malformed)?;
        e.insts.remove(at);
        e.global(inst(op::VARIABLE, &[private_ptr, var, PRIVATE]));
        // Interface decorations do not apply to private variables.
        e.insts
            .retain(|d| !(opcode(d) == op::DECORATE && d.get(1) == Some(&var)));
        e.remove_interface(var);
        // Access chains into it point into private memory now.
        let chains: Vec<(usize, u32)> = e
            .insts
            .iter()
            .enumerate()
            .filter(|(_, i)| {
                matches!(opcode(i), op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN)
                    && i.len() >= 4
                    && i[3] == var
            })
            .map(|(n, i)| (n, i[1]))
            .collect();
        for (n, result_ty) in chains {
            let element = match e.declaration(result_ty) {
                Some(p) if opcode(p) == op::TYPE_POINTER && p.len() == 4 => p[3],
                _ => return Err(Malformed),
            };
            let ty = e.pointer(PRIVATE, element);
            // `pointer` may have added a global before the functions: find the chain again.
            let n = e
                .insts
                .iter()
                .enumerate()
                .skip(n)
                .find(|(_, i)| {
                    matches!(opcode(i), op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN)
                        && i.len() >= 4
                        && i[3] == var
                        && i[1] == result_ty
                })
                .map(|(k, _)| k)
                .ok_or(Malformed)?;
            e.insts[n][1] = ty;
        }
    }
    Ok(())
}

/// `StorageClass Private`.
const PRIVATE: u32 = 6;

//! `layout(pixel_center_integer) in vec4 gl_FragCoord` (GL_ARB_fragment_coord_conventions,
//! GLSL 1.50): glslang marks the fragment stage with the execution mode `PixelCenterInteger`,
//! which neither Vulkan nor GLSL ES has (lavapipe ignores it, SPIRV-Cross drops it for ES),
//! so the shader would read `gl_FragCoord.xy` at half-integer pixel centres. The mode is
//! removed at link and every read of `gl_FragCoord` subtracts 0.5 from x and y instead:
//! - a load of the whole vector gets `vec4(0.5, 0.5, 0.0, 0.0)` subtracted;
//! - a load of one component through an access chain gets 0.5 subtracted when the index is
//!   a constant 0 or 1, and `index < 2 ? 0.5 : 0.0` when it is computed.
//!
//! The subtraction takes the load's result id and the load a new one, so no use moves.

use std::collections::HashMap;

use crate::edit::{Editor, inst, op, opcode};
use crate::spirv::{Malformed, deco};

/// `OpExecutionMode`, `OpConstantComposite`, `OpFSub` and `OpULessThan`.
const EXECUTION_MODE: u16 = 16;
const CONSTANT_COMPOSITE: u16 = 44;
const F_SUB: u16 = 131;
const U_LESS_THAN: u16 = 176;
/// Execution mode `PixelCenterInteger` and built-in `FragCoord`.
const PIXEL_CENTER_INTEGER: u32 = 6;
const BUILT_IN_FRAG_COORD: u32 = 15;
/// 0.5 as `float` bits.
const HALF: u32 = 0x3f00_0000;

/// Whether a module asks for integer pixel centres (the pass is needed).
pub(crate) fn uses_integer_centers(words: &[u32]) -> bool {
    crate::spirv::instructions(words)
        .flatten()
        .any(|(_, o, w)| o == EXECUTION_MODE && w.get(2) == Some(&PIXEL_CENTER_INTEGER))
}

/// Removes `PixelCenterInteger` and moves every `gl_FragCoord` read to integer centres.
pub(crate) fn patch(words: &[u32]) -> Result<Vec<u32>, Malformed> {
    let mut e = Editor::parse(words)?;
    e.insts
        .retain(|i| !(opcode(i) == EXECUTION_MODE && i.get(2) == Some(&PIXEL_CENTER_INTEGER)));
    let Some(frag_coord) = e.insts.iter().find_map(|i| {
        (opcode(i) == op::DECORATE
            && i.len() == 4
            && i[2] == deco::BUILT_IN
            && i[3] == BUILT_IN_FRAG_COORD)
            .then_some(i[1])
    }) else {
        return Ok(e.finish());
    };
    // Access chains into gl_FragCoord: their component index.
    let start = e.functions_start();
    let chains: HashMap<u32, u32> = e.insts[start..]
        .iter()
        .filter(|i| {
            matches!(opcode(i), op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN)
                && i.len() == 5
                && i[3] == frag_coord
        })
        .map(|i| (i[2], i[4]))
        .collect();
    let reads = |i: &[u32]| {
        opcode(i) == op::LOAD && i.len() >= 4 && (i[3] == frag_coord || chains.contains_key(&i[3]))
    };
    if !e.insts[start..].iter().any(|i| reads(i)) {
        return Ok(e.finish());
    }
    let float = e.float();
    let vec4 = e.vector(float, 4);
    let half = e.constant(float, HALF);
    let zero = e.constant(float, 0);
    let half_xy = e.fresh();
    e.global(inst(
        CONSTANT_COMPOSITE,
        &[vec4, half_xy, half, half, zero, zero],
    ));
    // For computed indices: `uint 2` and `bool`, declared before the code is walked (a
    // global moves every instruction after it).
    let computed = chains.values().any(|&i| e.constant_value(i).is_none());
    let (two, bool_) = if computed {
        let uint = e.uint();
        (e.constant(uint, 2), e.bool())
    } else {
        (0, 0)
    };
    let mut at = e.functions_start();
    while at < e.insts.len() {
        if !reads(&e.insts[at]) {
            at += 1;
            continue;
        }
        let (ty, result, pointer) = (e.insts[at][1], e.insts[at][2], e.insts[at][3]);
        let loaded = e.fresh();
        let mut code = Vec::new();
        let offset = match chains.get(&pointer) {
            None => half_xy,
            Some(&index) => match e.constant_value(index) {
                Some(0 | 1) => half,
                Some(_) => {
                    at += 1;
                    continue;
                }
                None => {
                    let (xy, select) = (e.fresh(), e.fresh());
                    code.push(inst(U_LESS_THAN, &[bool_, xy, index, two]));
                    code.push(inst(op::SELECT, &[float, select, xy, half, zero]));
                    select
                }
            },
        };
        e.insts[at][2] = loaded;
        code.push(inst(F_SUB, &[ty, result, loaded, offset]));
        at = e.insert(at + 1, code);
    }
    Ok(e.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::literal;

    /// A fragment module reading gl_FragCoord whole, `.x`, `.z` and `[i]`.
    fn module() -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 30, 0];
        let mut ep = vec![4, 1];
        ep.extend(literal("main"));
        ep.push(10);
        for i in [
            inst(op::CAPABILITY, &[1]),
            inst(14, &[0, 1]),
            inst(op::ENTRY_POINT, &ep),
            inst(EXECUTION_MODE, &[1, PIXEL_CENTER_INTEGER]),
            inst(EXECUTION_MODE, &[1, 7]),
            inst(op::DECORATE, &[10, deco::BUILT_IN, BUILT_IN_FRAG_COORD]),
            inst(op::TYPE_FLOAT, &[2, 32]),
            inst(op::TYPE_VECTOR, &[3, 2, 4]),
            inst(op::TYPE_POINTER, &[4, 1, 3]),
            inst(op::TYPE_POINTER, &[5, 1, 2]),
            inst(op::TYPE_INT, &[6, 32, 1]),
            inst(op::CONSTANT, &[6, 7, 0]),
            inst(op::CONSTANT, &[6, 8, 2]),
            inst(op::VARIABLE, &[4, 10, 1]),
            inst(19, &[11]),
            inst(33, &[12, 11]),
            inst(op::FUNCTION, &[11, 1, 0, 12]),
            inst(248, &[13]),
            inst(op::LOAD, &[3, 14, 10]),
            inst(op::ACCESS_CHAIN, &[5, 15, 10, 7]),
            inst(op::LOAD, &[2, 16, 15]),
            inst(op::ACCESS_CHAIN, &[5, 17, 10, 8]),
            inst(op::LOAD, &[2, 18, 17]),
            inst(op::LOAD, &[6, 19, 7]),
            inst(op::ACCESS_CHAIN, &[5, 20, 10, 19]),
            inst(op::LOAD, &[2, 21, 20]),
            inst(op::RETURN, &[]),
            inst(op::FUNCTION_END, &[]),
        ] {
            w.extend(i);
        }
        w
    }

    #[test]
    fn integer_centers_subtract_a_half_from_x_and_y() {
        let words = module();
        assert!(uses_integer_centers(&words));
        let out = patch(&words).expect("patched");
        assert!(!uses_integer_centers(&out), "the mode is gone");
        let e = Editor::parse(&out).expect("well formed");
        assert!(
            e.insts
                .iter()
                .any(|i| opcode(i) == EXECUTION_MODE && i[2] == 7),
            "other modes stay"
        );
        let def = |id: u32| {
            e.insts
                .iter()
                .skip(e.types_start())
                .find(|i| !(19..=39).contains(&opcode(i)) && i.len() > 2 && i[2] == id)
                .expect("defined")
                .clone()
        };
        let float_bits = |id: u32| e.constant_value(id).expect("a constant");
        // The whole vector: minus (0.5, 0.5, 0, 0), from a fresh load of gl_FragCoord.
        let v = def(14);
        assert_eq!((opcode(&v), v[1]), (F_SUB, 3));
        let load = def(v[3]);
        assert_eq!((opcode(&load), load[3]), (op::LOAD, 10));
        let c = def(v[4]);
        assert_eq!(opcode(&c), CONSTANT_COMPOSITE);
        let parts: Vec<u32> = c[3..].iter().map(|&id| float_bits(id)).collect();
        assert_eq!(parts, [HALF, HALF, 0, 0]);
        // .x: minus 0.5.
        let x = def(16);
        assert_eq!(opcode(&x), F_SUB);
        assert_eq!(float_bits(x[4]), HALF);
        assert_eq!(def(x[3])[3], 15);
        // .z: unchanged.
        assert_eq!(opcode(&def(18)), op::LOAD);
        // [i]: minus (i < 2 ? 0.5 : 0).
        let d = def(21);
        assert_eq!(opcode(&d), F_SUB);
        let select = def(d[4]);
        assert_eq!(opcode(&select), op::SELECT);
        assert_eq!((float_bits(select[4]), float_bits(select[5])), (HALF, 0));
        let less = def(select[3]);
        assert_eq!((opcode(&less), less[3]), (U_LESS_THAN, 19));
        assert_eq!(float_bits(less[4]), 2);
        // Every result id is defined once.
        let mut ids: Vec<u32> = e
            .insts
            .iter()
            .filter(|i| matches!(opcode(i), op::LOAD | F_SUB | op::SELECT | U_LESS_THAN))
            .map(|i| i[2])
            .collect();
        let n = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), n);
    }

    #[test]
    fn modules_without_the_mode_are_left_alone() {
        let mut words = module();
        // Turn the PixelCenterInteger mode into OriginUpperLeft (7).
        let at = words
            .windows(3)
            .position(|w| {
                w == [
                    (3 << 16) | u32::from(EXECUTION_MODE),
                    1,
                    PIXEL_CENTER_INTEGER,
                ]
            })
            .expect("the mode");
        words[at + 2] = 7;
        assert!(!uses_integer_centers(&words));
    }
}

//! SPIR-V modules as shader input (GL 4.6's `ARB_gl_spirv`): what `glSpecializeShader`
//! checks, and how a specialized module joins the GLSL path.
//!
//! ## Where SPIR-V joins
//! Everything Tessera does to a program — the numbering of the whole program's interface,
//! GL reflection, the default uniform block, atomic counters as storage blocks, the
//! link-time passes — is done once, on what glslang produces from GLSL. A SPIR-V module
//! joins that path at its very start: [`to_glsl`] validates it (SPIRV-Tools, with the rules
//! of OpenGL 4.5 with `ARB_gl_spirv`), freezes its specialization constants
//! ([`specialize`]) and writes it back as GLSL 4.50 with SPIRV-Cross, keeping every explicit
//! `Location`, `Binding`, `Offset` and `Component`; the engine then links that text as it
//! links a compiled shader's. So loose uniforms at explicit locations land in the default
//! block, `AtomicCounter` variables become `atomic_uint`s the counter lowering takes, and
//! GL's `VertexId`/`InstanceId` built-ins become `gl_VertexID`/`gl_InstanceID`, without a
//! second copy of any pass.
//!
//! Where GL's SPIR-V allows what GLSL refuses, the module or the text is mended on the way:
//! the `AtomicCounter` variables SPIRV-Cross writes as plain `uint`s become counters again
//! (`atomic_counters`), captured outputs sharing another output's location lose it
//! (`unlocate_aliased_captures`), captured structures become output blocks
//! (`block_captured_structs`), and nameless blocks are named after their binding, by which
//! GL matches them across stages (`name_unnamed_blocks`).
//!
//! What GLSL cannot say about the module is what the text loses: a variable without an
//! `OpName` gets the name SPIRV-Cross makes up for it (`_12`), so name-based queries of such
//! a program see that name where a native driver sees none.
//!
//! SPIRV-Cross is the system's `libspirv-cross-c-shared.so.0` (the library the GLES backend
//! translates with), loaded by path the first time a module is specialized; without it a
//! specialized shader fails to link with a log that says so.

use std::ffi::{CStr, CString, c_char, c_void};
use std::sync::OnceLock;

use libloading::Library;

use crate::Stage;
use crate::edit::{Editor, inst, opcode};
use crate::spirv::instructions;

/// Opcodes read or rewritten.
mod op {
    pub const ENTRY_POINT: u16 = 15;
    pub const CONSTANT_TRUE: u16 = 41;
    pub const CONSTANT_FALSE: u16 = 42;
    pub const CONSTANT: u16 = 43;
    pub const SPEC_CONSTANT_TRUE: u16 = 48;
    pub const SPEC_CONSTANT_FALSE: u16 = 49;
    pub const SPEC_CONSTANT: u16 = 50;
    pub const DECORATE: u16 = 71;
}

/// The `SpecId` decoration.
const SPEC_ID: u32 = 1;

/// Why `glSpecializeShader` refuses a module (each is `INVALID_VALUE`, as in Mesa's
/// `spirv_verify_gl_specialization_constants`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecializeError {
    /// The words are not a SPIR-V module (header or instruction lengths).
    Malformed,
    /// No `OpEntryPoint` of the shader's stage has the name asked for.
    EntryPointNotFound,
    /// A constant index names no `SpecId` of the module.
    UnknownSpecIndex(u32),
}

/// The SPIR-V execution model of a stage.
fn execution_model(stage: Stage) -> u32 {
    match stage {
        Stage::Vertex => 0,
        Stage::TessControl => 1,
        Stage::TessEvaluation => 2,
        Stage::Geometry => 3,
        Stage::Fragment => 4,
        Stage::Compute => 5,
    }
}

/// The string of a literal operand.
fn literal_string(words: &[u32]) -> &[u8] {
    let bytes: &[u8] = bytemuck::cast_slice(words);
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    &bytes[..end]
}

/// `glSpecializeShader`'s checks, in Mesa's order: the module parses, it has an entry point
/// `entry` of `stage`, and every index in `indices` is the `SpecId` of one of its constants.
pub fn check_specialization(
    words: &[u32],
    stage: Stage,
    entry: &[u8],
    indices: &[u32],
) -> Result<(), SpecializeError> {
    if words.len() < 5 || words[0] != 0x0723_0203 {
        return Err(SpecializeError::Malformed);
    }
    let model = execution_model(stage);
    let mut found = false;
    let mut spec_ids = Vec::new();
    for i in instructions(words) {
        let (_, opcode, w) = i.map_err(|_| SpecializeError::Malformed)?;
        match opcode {
            op::ENTRY_POINT if w.len() >= 4 => {
                found |= w[1] == model && literal_string(&w[3..]) == entry;
            }
            op::DECORATE if w.len() >= 4 && w[2] == SPEC_ID => spec_ids.push(w[3]),
            _ => {}
        }
    }
    if !found {
        return Err(SpecializeError::EntryPointNotFound);
    }
    match indices.iter().find(|i| !spec_ids.contains(i)) {
        Some(&i) => Err(SpecializeError::UnknownSpecIndex(i)),
        None => Ok(()),
    }
}

/// Freezes the module's specialization constants: each `OpSpecConstant*` decorated with a
/// `SpecId` becomes the plain constant of the value `glSpecializeShader` gave its index (the
/// last one given wins), or of its default, and loses the decoration. A boolean takes any
/// non-zero value as true, a 32-bit scalar the value's bits, as in Mesa.
/// `OpSpecConstantOp`s and composites stay: their operands are constants now.
pub fn specialize(words: &[u32], indices: &[u32], values: &[u32]) -> Result<Vec<u32>, String> {
    let mut ed = Editor::parse(words).map_err(|_| "error: malformed SPIR-V module".to_owned())?;
    let mut spec: Vec<(u32, u32)> = Vec::new();
    ed.insts.retain(|i| {
        if opcode(i) == op::DECORATE && i.len() >= 4 && i[2] == SPEC_ID {
            spec.push((i[1], i[3]));
            false
        } else {
            true
        }
    });
    let value_of = |id: u32| -> Option<u32> {
        let (_, spec_id) = spec.iter().find(|(target, _)| *target == id)?;
        indices
            .iter()
            .zip(values)
            .rev()
            .find(|(i, _)| *i == spec_id)
            .map(|(_, v)| *v)
    };
    for i in &mut ed.insts {
        let code = opcode(i);
        if !matches!(
            code,
            op::SPEC_CONSTANT | op::SPEC_CONSTANT_TRUE | op::SPEC_CONSTANT_FALSE
        ) || i.len() < 3
        {
            continue;
        }
        let (ty, id) = (i[1], i[2]);
        let given = spec.iter().any(|(t, _)| *t == id).then(|| value_of(id));
        *i = match (code, given.flatten()) {
            (op::SPEC_CONSTANT, Some(v)) => {
                let mut operands = vec![ty, id, v];
                // A 64-bit constant keeps its high word (GL gives 32 bits per index).
                operands.extend(i.get(4..).unwrap_or(&[]).iter().copied());
                inst(op::CONSTANT, &operands)
            }
            (op::SPEC_CONSTANT, None) => inst(op::CONSTANT, &i[1..]),
            (_, Some(v)) if v != 0 => inst(op::CONSTANT_TRUE, &[ty, id]),
            (_, Some(_)) => inst(op::CONSTANT_FALSE, &[ty, id]),
            (op::SPEC_CONSTANT_TRUE, None) => inst(op::CONSTANT_TRUE, &[ty, id]),
            _ => inst(op::CONSTANT_FALSE, &[ty, id]),
        };
    }
    Ok(ed.finish())
}

/// Drops the `Binding` and `DescriptorSet` decorations of loose uniforms (`UniformConstant`
/// variables that are no sampler or image): GL's SPIR-V may carry them (glslang gives every
/// such variable one), and GLSL, which SPIRV-Cross writes them into, allows a binding only on
/// opaque uniforms and blocks.
fn unbind_loose_uniforms(words: &[u32]) -> Result<Vec<u32>, String> {
    const UNIFORM_CONSTANT: u32 = 0;
    const BINDING: u32 = 33;
    const DESCRIPTOR_SET: u32 = 34;
    let mut ed = Editor::parse(words).map_err(|_| "error: malformed SPIR-V module".to_owned())?;
    let mut types = std::collections::HashMap::new();
    for i in &ed.insts {
        if matches!(opcode(i), 25..=28 | 32) && i.len() >= 2 {
            types.insert(i[1], i.clone());
        }
    }
    // The opcode of a type once its arrays and its pointer are looked through.
    let base = |mut ty: u32| -> u16 {
        for _ in 0..64 {
            match types.get(&ty) {
                Some(t) if opcode(t) == 28 && t.len() >= 3 => ty = t[2],
                Some(t) if opcode(t) == 32 && t.len() >= 4 => ty = t[3],
                Some(t) => return opcode(t),
                None => return 0,
            }
        }
        0
    };
    let loose: Vec<u32> = ed
        .insts
        .iter()
        .filter(|i| opcode(i) == 59 && i.len() >= 4 && i[3] == UNIFORM_CONSTANT)
        .filter(|i| !matches!(base(i[1]), 25..=27))
        .map(|i| i[2])
        .collect();
    ed.insts.retain(|i| {
        !(opcode(i) == op::DECORATE
            && i.len() >= 3
            && matches!(i[2], BINDING | DESCRIPTOR_SET)
            && loose.contains(&i[1]))
    });
    Ok(ed.finish())
}

/// Names each uniform and storage block whose type has no `OpName` after its binding
/// (`_ubo5`, `_ssbo2`). GL's SPIR-V matches blocks across stages by binding, GLSL by block
/// name, and SPIRV-Cross makes up a name from the type's id (`_8_9`), which differs from
/// stage to stage: so the two stages' declarations of one block would be two blocks.
fn name_unnamed_blocks(words: &[u32]) -> Result<Vec<u32>, String> {
    const STORAGE_BUFFER: u32 = 12;
    const BUFFER_BLOCK: u32 = 3;
    let malformed = || "error: malformed SPIR-V module".to_owned();
    let m = crate::spirv::Module::parse(words.to_vec()).map_err(|_| malformed())?;
    let mut names: Vec<(u32, String)> = Vec::new();
    for storage in [crate::spirv::storage::UNIFORM, STORAGE_BUFFER] {
        for v in m.vars(storage) {
            let st = m.strip_arrays(v.ty);
            let Some(binding) = m.decoration(v.id, crate::spirv::deco::BINDING) else {
                continue;
            };
            if !m.name(st).is_empty() || names.iter().any(|(id, _)| *id == st) {
                continue;
            }
            let kind = if storage == STORAGE_BUFFER || m.decoration(st, BUFFER_BLOCK).is_some() {
                "ssbo"
            } else {
                "ubo"
            };
            names.push((st, format!("_{kind}{binding}")));
        }
    }
    if names.is_empty() {
        return Ok(words.to_vec());
    }
    let mut ed = Editor::parse(words).map_err(|_| malformed())?;
    // An empty `OpName` of a renamed type goes, so the new one is its only name.
    ed.insts
        .retain(|i| !(opcode(i) == 5 && i.len() <= 3 && names.iter().any(|(id, _)| *id == i[1])));
    for (id, name) in names {
        let mut operands = vec![id];
        operands.extend(crate::edit::literal(&name));
        ed.name(inst(5, &operands));
    }
    Ok(ed.finish())
}

/// Bytes a captured value of `ty` takes and the alignment of its start (8 for doubles).
fn capture_size(m: &crate::spirv::Module, ty: u32) -> Option<(u32, u32)> {
    use crate::spirv::Type;
    Some(match m.ty(ty)? {
        Type::Bool => (4, 4),
        Type::Int { width, .. } | Type::Float { width } => (width / 8, (width / 8).max(4)),
        Type::Vector { component, count } => {
            let (size, align) = capture_size(m, *component)?;
            (size * count, align)
        }
        Type::Matrix { column, count } => {
            let (size, align) = capture_size(m, *column)?;
            (size * count, align)
        }
        Type::Array { element, length } if *length > 0 => {
            let (size, align) = capture_size(m, *element)?;
            (size * length, align)
        }
        _ => return None,
    })
}

/// Makes each captured output of structure type (an `Offset` on the variable or on members of
/// its structure) an output block of the structure's members, each given the offset GL
/// captures it at: its own, else the previous member's end (the variable's offset for the
/// first). GL captures such a structure member by member (Mesa's linker does), which is
/// what the front end does for a block's members, while GLSL lets no structure output carry
/// `xfb_offset`. Only a structure the output alone uses, whose members are no structures, is
/// changed; arrays of structures stay as they are.
fn block_captured_structs(words: &[u32]) -> Result<Vec<u32>, String> {
    use crate::spirv::{Type, deco};
    let malformed = || "error: malformed SPIR-V module".to_owned();
    let m = crate::spirv::Module::parse(words.to_vec()).map_err(|_| malformed())?;
    let mut ed = Editor::parse(words).map_err(|_| malformed())?;
    let mut changed = false;
    for v in m.vars(crate::spirv::storage::OUTPUT) {
        let Some(Type::Struct { members }) = m.ty(v.ty) else {
            continue;
        };
        let var_offset = m.decoration(v.id, deco::OFFSET);
        let member_offsets: Vec<Option<u32>> = (0..members.len() as u32)
            .map(|i| m.member_decoration(v.ty, i, deco::OFFSET))
            .collect();
        if m.decoration(v.ty, deco::BLOCK).is_some()
            || (var_offset.is_none() && member_offsets.iter().all(Option::is_none))
        {
            continue;
        }
        // The structure's only use: the output's pointer type.
        let uses = ed
            .insts
            .iter()
            .filter(|i| match opcode(i) {
                28..=30 | 32 => i.get(2..).is_some_and(|o| o.contains(&v.ty)),
                5 | 6 | 71..=72 => false,
                _ => i.get(1) == Some(&v.ty),
            })
            .count();
        if uses != 1 {
            continue;
        }
        let mut at = var_offset.unwrap_or(0);
        let mut offsets = Vec::with_capacity(members.len());
        for (i, &ty) in members.iter().enumerate() {
            let Some((size, align)) = capture_size(&m, ty) else {
                offsets.clear();
                break;
            };
            let offset = member_offsets[i].unwrap_or(at.next_multiple_of(align));
            offsets.push(offset);
            at = offset + size;
        }
        if offsets.len() != members.len() {
            continue;
        }
        let st = v.ty;
        ed.insts.retain(|i| {
            let var_offset =
                opcode(i) == op::DECORATE && i.len() >= 3 && i[1] == v.id && i[2] == deco::OFFSET;
            let member_offset =
                opcode(i) == 72 && i.len() >= 4 && i[1] == st && i[3] == deco::OFFSET;
            !(var_offset || member_offset)
        });
        ed.annotate(inst(op::DECORATE, &[st, deco::BLOCK]));
        for (i, offset) in offsets.into_iter().enumerate() {
            ed.annotate(inst(72, &[st, i as u32, deco::OFFSET, offset]));
        }
        changed = true;
    }
    Ok(if changed { ed.finish() } else { words.to_vec() })
}

/// Drops the `Location` of captured outputs (`XfbBuffer` or `Offset` on the variable or its
/// block's members) whose locations overlap another output's. GL's SPIR-V may give an output
/// that only transform feedback reads the location of another (glslang numbers outputs
/// without one from 0, as piglit's modules show), and Mesa, which captures by the
/// decorations, accepts it; GLSL refuses overlapping locations at compile. An output that no
/// later stage reads by location needs none, so the link numbers it past the others.
fn unlocate_aliased_captures(words: &[u32]) -> Result<Vec<u32>, String> {
    const XFB_BUFFER: u32 = 36;
    let malformed = || "error: malformed SPIR-V module".to_owned();
    let m = crate::spirv::Module::parse(words.to_vec()).map_err(|_| malformed())?;
    let located: Vec<(u32, u32, u32, bool)> =
        m.vars(crate::spirv::storage::OUTPUT)
            .filter_map(|v| {
                let location = m.decoration(v.id, crate::spirv::deco::LOCATION)?;
                let st = m.strip_arrays(v.ty);
                let captured = m.decoration(v.id, XFB_BUFFER).is_some()
                    || m.decoration(v.id, crate::spirv::deco::OFFSET).is_some()
                    || match m.ty(st) {
                        Some(crate::spirv::Type::Struct { members }) => (0..members.len() as u32)
                            .any(|i| {
                                m.member_decoration(st, i, crate::spirv::deco::OFFSET)
                                    .is_some()
                            }),
                        _ => false,
                    };
                Some((v.id, location, location + m.slots(v.ty), captured))
            })
            .collect();
    let aliased: Vec<u32> = located
        .iter()
        .filter(|(id, start, end, captured)| {
            *captured
                && located
                    .iter()
                    .any(|(other, s, e, _)| other != id && s < end && start < e)
        })
        .map(|(id, ..)| *id)
        .collect();
    if aliased.is_empty() {
        return Ok(words.to_vec());
    }
    let mut ed = Editor::parse(words).map_err(|_| malformed())?;
    ed.insts.retain(|i| {
        !(opcode(i) == op::DECORATE
            && i.len() >= 4
            && i[2] == crate::spirv::deco::LOCATION
            && aliased.contains(&i[1]))
    });
    Ok(ed.finish())
}

/// The specialized module of `stage` as GLSL 4.50 source for the front end, or the log of
/// why it cannot be: it does not validate, or SPIRV-Cross refuses it.
pub fn to_glsl(
    words: &[u32],
    stage: Stage,
    entry: &str,
    indices: &[u32],
    values: &[u32],
) -> Result<String, String> {
    let module = name_unnamed_blocks(&block_captured_structs(&unlocate_aliased_captures(
        &unbind_loose_uniforms(&specialize(words, indices, values)?)?,
    )?)?)?;
    validate(&module)?;
    let cross = spirv_cross()?;
    Ok(atomic_counters(&cross.glsl(
        &module,
        entry,
        execution_model(stage),
    )?))
}

/// The GLSL functions SPIRV-Cross writes for `OpAtomic*` instructions, and what they are on an
/// `atomic_uint` (GLSL 4.60's names, `GL_ARB_shader_atomic_counter_ops`'s before it).
const COUNTER_FUNCTIONS: &[(&str, &str)] = &[
    ("atomicCounterIncrement", "atomicCounterIncrement"),
    ("atomicCounterDecrement", "atomicCounterDecrement"),
    ("atomicAdd", "atomicCounterAdd"),
    ("atomicSub", "atomicCounterSubtract"),
    ("atomicMin", "atomicCounterMin"),
    ("atomicMax", "atomicCounterMax"),
    ("atomicAnd", "atomicCounterAnd"),
    ("atomicOr", "atomicCounterOr"),
    ("atomicXor", "atomicCounterXor"),
    ("atomicExchange", "atomicCounterExchange"),
    ("atomicCompSwap", "atomicCounterCompSwap"),
];

/// Makes SPIRV-Cross's `AtomicCounter` variables GLSL atomic counters again. SPIRV-Cross
/// (Debian's 2021.01) declares such a variable with its binding and offset but no storage
/// qualifier and as a plain `uint` (`layout(binding = 3, offset = 24) uint a0;`), which no
/// GLSL compiler takes, and writes the `OpAtomic*` on it as the counter built-ins or the
/// buffer atomics. The declarations become `uniform atomic_uint`s, and each call on one of
/// them the counter function of the same meaning: `OpAtomicLoad` (`atomicAdd(c, 0)`)
/// `atomicCounter(c)`; `OpAtomicIDecrement`, whose result is the value before, the GLSL
/// decrement (which returns the value after) plus one; the other operations
/// `GL_ARB_shader_atomic_counter_ops`'s functions, which the text then enables.
fn atomic_counters(glsl: &str) -> String {
    let mut counters: Vec<&str> = Vec::new();
    let mut out = String::with_capacity(glsl.len() + 64);
    for line in glsl.split_inclusive('\n') {
        let declared = line
            .strip_prefix("layout(")
            .filter(|l| l.contains("offset = "))
            .and_then(|l| l.split_once(") uint "))
            .map(|(_, rest)| rest.trim_end());
        match declared {
            Some(rest) if rest.ends_with(';') => {
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                counters.push(&rest[..end]);
                out.push_str(&line.replacen(") uint ", ") uniform atomic_uint ", 1));
            }
            _ => out.push_str(line),
        }
    }
    if counters.is_empty() {
        return out;
    }
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let text = out;
    let mut out = String::with_capacity(text.len() + 64);
    let mut extension = false;
    let mut rest = text.as_str();
    'scan: while let Some(at) = rest.find("atomic") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let starts_word = !before.ends_with(is_ident);
        for (glsl_name, counter_name) in COUNTER_FUNCTIONS {
            let Some(args) = from
                .strip_prefix(glsl_name)
                .and_then(|a| a.strip_prefix('('))
            else {
                continue;
            };
            // The call's arguments, up to its closing parenthesis.
            let mut depth = 1usize;
            let Some(close) = args.find(|c| {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                depth == 0
            }) else {
                continue;
            };
            let inner = &args[..close];
            let target = inner.trim_start();
            let name_end = target.find(|c| !is_ident(c)).unwrap_or(target.len());
            if !starts_word || !counters.contains(&&target[..name_end]) {
                continue;
            }
            let operand = inner.split_once(',').map(|(_, v)| v.trim());
            let pointer = inner.split_once(',').map_or(inner, |(p, _)| p);
            match (*glsl_name, operand) {
                ("atomicAdd", Some("0" | "0u")) => {
                    out.push_str(&format!("atomicCounter({pointer})"));
                }
                ("atomicCounterDecrement", _) => {
                    out.push_str(&format!("(atomicCounterDecrement({inner}) + 1u)"));
                }
                ("atomicCounterIncrement", _) => {
                    out.push_str(&format!("atomicCounterIncrement({inner})"));
                }
                _ => {
                    extension = true;
                    out.push_str(&format!("{counter_name}({inner})"));
                }
            }
            rest = &args[close + 1..];
            continue 'scan;
        }
        out.push_str("atomic");
        rest = &from["atomic".len()..];
    }
    out.push_str(rest);
    if let (true, Some(end)) = (extension, out.find('\n')) {
        out.insert_str(
            end + 1,
            "#extension GL_ARB_shader_atomic_counter_ops : require\n",
        );
    }
    out
}

/// Validates a module with SPIRV-Tools against OpenGL 4.5 with `ARB_gl_spirv`.
fn validate(words: &[u32]) -> Result<(), String> {
    // SAFETY: the context is created and destroyed here; `words` is a live slice of its
    // length; the diagnostic, when SPIRV-Tools makes one, is read (its NUL-terminated
    // `error`) and destroyed before it goes out of scope.
    unsafe {
        let ctx = spvContextCreate(SPV_ENV_OPENGL_4_5);
        if ctx.is_null() {
            return Err("error: SPIRV-Tools could not create a context\n".into());
        }
        let mut diag: *mut SpvDiagnostic = std::ptr::null_mut();
        let result = spvValidateBinary(ctx, words.as_ptr(), words.len(), &mut diag);
        let message = if diag.is_null() || (*diag).error.is_null() {
            String::new()
        } else {
            CStr::from_ptr((*diag).error).to_string_lossy().into_owned()
        };
        spvDiagnosticDestroy(diag);
        spvContextDestroy(ctx);
        if result == 0 {
            Ok(())
        } else {
            Err(format!("error: SPIR-V module is not valid: {message}\n"))
        }
    }
}

/// `SPV_ENV_OPENGL_4_5` of libspirv.h's `spv_target_env`.
const SPV_ENV_OPENGL_4_5: u32 = 9;

/// libspirv.h's `spv_diagnostic_t`.
#[repr(C)]
struct SpvDiagnostic {
    line: usize,
    column: usize,
    index: usize,
    error: *const c_char,
    is_text_source: bool,
}

// SPIRV-Tools' C API, from the static library glslang already links (build.rs).
unsafe extern "C" {
    fn spvContextCreate(env: u32) -> *mut c_void;
    fn spvContextDestroy(ctx: *mut c_void);
    fn spvValidateBinary(
        ctx: *const c_void,
        words: *const u32,
        count: usize,
        diagnostic: *mut *mut SpvDiagnostic,
    ) -> i32;
    fn spvDiagnosticDestroy(diagnostic: *mut SpvDiagnostic);
}

/// Where SPIRV-Cross's C library is looked for.
const SPIRV_CROSS_PATHS: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu/libspirv-cross-c-shared.so.0",
    "/usr/lib/aarch64-linux-gnu/libspirv-cross-c-shared.so.0",
    "/usr/lib/arm-linux-gnueabihf/libspirv-cross-c-shared.so.0",
    "/usr/lib/riscv64-linux-gnu/libspirv-cross-c-shared.so.0",
    "/usr/lib64/libspirv-cross-c-shared.so.0",
    "/usr/lib/libspirv-cross-c-shared.so.0",
    "/usr/local/lib/libspirv-cross-c-shared.so.0",
];

type Handle = *mut c_void;

// spirv_cross_c.h constants (C API 0.x).
const BACKEND_GLSL: u32 = 1;
const CAPTURE_TAKE_OWNERSHIP: u32 = 1;
const OPT_VERSION: u32 = 8 | 0x200_0000;
const OPT_ES: u32 = 9 | 0x200_0000;
const OPT_VULKAN: u32 = 10 | 0x200_0000;

/// The SPIRV-Cross entry points used here.
struct SpirvCross {
    context_create: unsafe extern "C" fn(*mut Handle) -> i32,
    context_destroy: unsafe extern "C" fn(Handle),
    last_error: unsafe extern "C" fn(Handle) -> *const c_char,
    parse_spirv: unsafe extern "C" fn(Handle, *const u32, usize, *mut Handle) -> i32,
    create_compiler: unsafe extern "C" fn(Handle, u32, Handle, u32, *mut Handle) -> i32,
    create_options: unsafe extern "C" fn(Handle, *mut Handle) -> i32,
    options_set_bool: unsafe extern "C" fn(Handle, u32, u8) -> i32,
    options_set_uint: unsafe extern "C" fn(Handle, u32, u32) -> i32,
    install_options: unsafe extern "C" fn(Handle, Handle) -> i32,
    set_entry_point: unsafe extern "C" fn(Handle, *const c_char, u32) -> i32,
    compile: unsafe extern "C" fn(Handle, *mut *const c_char) -> i32,
    // Declared last: the pointers above stay valid while this is loaded.
    _lib: Library,
}

/// The process's SPIRV-Cross, loaded once.
fn spirv_cross() -> Result<&'static SpirvCross, String> {
    static CROSS: OnceLock<Result<SpirvCross, String>> = OnceLock::new();
    CROSS
        .get_or_init(SpirvCross::load)
        .as_ref()
        .map_err(Clone::clone)
}

impl SpirvCross {
    fn load() -> Result<Self, String> {
        let path = SPIRV_CROSS_PATHS
            .iter()
            .find(|p| std::path::Path::new(p).exists())
            .ok_or(
                "error: SPIR-V shaders need SPIRV-Cross (libspirv-cross-c-shared.so.0), \
                    which is not installed\n",
            )?;
        // SAFETY: loading the system's SPIRV-Cross runs its ordinary initialisers; RTLD_LOCAL
        // keeps its symbols out of the global namespace, RTLD_NODELETE keeps it mapped for
        // thread-exit destructors.
        let lib = unsafe {
            libloading::os::unix::Library::open(
                Some(path),
                libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL | 0x1000,
            )
        }
        .map_err(|e| format!("error: {path}: {e}\n"))?;
        let lib = Library::from(lib);
        fn sym<T: Copy>(lib: &Library, name: &str) -> Result<T, String> {
            let c = format!("{name}\0");
            // SAFETY: each `T` is the signature spirv_cross_c.h gives `name`; the pointer is
            // used only while `lib` stays loaded (it is kept beside them).
            unsafe { lib.get::<T>(c.as_bytes()) }
                .map(|s| *s)
                .map_err(|_| format!("error: SPIRV-Cross lacks {name}\n"))
        }
        Ok(Self {
            context_create: sym(&lib, "spvc_context_create")?,
            context_destroy: sym(&lib, "spvc_context_destroy")?,
            last_error: sym(&lib, "spvc_context_get_last_error_string")?,
            parse_spirv: sym(&lib, "spvc_context_parse_spirv")?,
            create_compiler: sym(&lib, "spvc_context_create_compiler")?,
            create_options: sym(&lib, "spvc_compiler_create_compiler_options")?,
            options_set_bool: sym(&lib, "spvc_compiler_options_set_bool")?,
            options_set_uint: sym(&lib, "spvc_compiler_options_set_uint")?,
            install_options: sym(&lib, "spvc_compiler_install_compiler_options")?,
            set_entry_point: sym(&lib, "spvc_compiler_set_entry_point")?,
            compile: sym(&lib, "spvc_compiler_compile")?,
            _lib: lib,
        })
    }

    /// The module's entry point `entry` of execution model `model` as GLSL 4.50.
    fn glsl(&self, words: &[u32], entry: &str, model: u32) -> Result<String, String> {
        let mut ctx: Handle = std::ptr::null_mut();
        // SAFETY: an out-pointer to a local.
        if unsafe { (self.context_create)(&mut ctx) } != 0 || ctx.is_null() {
            return Err("error: SPIRV-Cross could not create a context\n".into());
        }
        let entry = CString::new(entry).map_err(|_| "error: bad entry point name\n")?;
        let mut ir: Handle = std::ptr::null_mut();
        let mut compiler: Handle = std::ptr::null_mut();
        let mut options: Handle = std::ptr::null_mut();
        let mut source: *const c_char = std::ptr::null();
        // SAFETY: `ctx` is live until the destroy below; `words` is a live slice of its
        // length; every handle passed on was returned by the previous successful call and is
        // owned by `ctx`; the source string is copied before `ctx` is destroyed.
        unsafe {
            let ok = (self.parse_spirv)(ctx, words.as_ptr(), words.len(), &mut ir) == 0
                && (self.create_compiler)(
                    ctx,
                    BACKEND_GLSL,
                    ir,
                    CAPTURE_TAKE_OWNERSHIP,
                    &mut compiler,
                ) == 0
                && (self.set_entry_point)(compiler, entry.as_ptr(), model) == 0
                && (self.create_options)(compiler, &mut options) == 0
                && (self.options_set_uint)(options, OPT_VERSION, 450) == 0
                && (self.options_set_bool)(options, OPT_ES, 0) == 0
                && (self.options_set_bool)(options, OPT_VULKAN, 0) == 0
                && (self.install_options)(compiler, options) == 0
                && (self.compile)(compiler, &mut source) == 0
                && !source.is_null();
            let result = if ok {
                Ok(CStr::from_ptr(source).to_string_lossy().into_owned())
            } else {
                let e = (self.last_error)(ctx);
                let reason = if e.is_null() {
                    String::from("SPIRV-Cross failed")
                } else {
                    CStr::from_ptr(e).to_string_lossy().into_owned()
                };
                Err(format!("error: SPIR-V module not supported: {reason}\n"))
            };
            (self.context_destroy)(ctx);
            result
        }
    }
}

// SAFETY: the function pointers are plain code addresses of a library that stays loaded;
// SPIRV-Cross keeps no state outside the contexts each call creates and destroys.
unsafe impl Sync for SpirvCross {}
// SAFETY: as for Sync.
unsafe impl Send for SpirvCross {}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny fragment module: `layout(constant_id = 3) const int k = 7;` read by `main`.
    fn module(spec: u16) -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 20, 0];
        w.extend(inst(17, &[1])); // OpCapability Shader
        w.extend(inst(14, &[0, 1])); // OpMemoryModel Logical GLSL450
        let mut ep = vec![4, 1];
        ep.extend(crate::edit::literal("main"));
        w.extend(inst(op::ENTRY_POINT, &ep));
        w.extend(inst(16, &[1, 7])); // OpExecutionMode OriginUpperLeft
        w.extend(inst(op::DECORATE, &[5, SPEC_ID, 3]));
        w.extend(inst(19, &[2])); // OpTypeVoid
        w.extend(inst(33, &[3, 2])); // OpTypeFunction
        w.extend(inst(21, &[4, 32, 1])); // OpTypeInt 32 signed
        w.extend(inst(spec, &[4, 5, 7]));
        w.extend(inst(54, &[2, 1, 0, 3])); // OpFunction
        w.extend(inst(248, &[6])); // OpLabel
        w.extend(inst(253, &[])); // OpReturn
        w.extend(inst(56, &[])); // OpFunctionEnd
        w
    }

    #[test]
    fn checks_follow_mesa_order() {
        let m = module(op::SPEC_CONSTANT);
        assert_eq!(
            check_specialization(&m, Stage::Fragment, b"main", &[3]),
            Ok(())
        );
        assert_eq!(
            check_specialization(&m, Stage::Vertex, b"main", &[3]),
            Err(SpecializeError::EntryPointNotFound)
        );
        assert_eq!(
            check_specialization(&m, Stage::Fragment, b"mai", &[]),
            Err(SpecializeError::EntryPointNotFound)
        );
        assert_eq!(
            check_specialization(&m, Stage::Fragment, b"main", &[3, 4]),
            Err(SpecializeError::UnknownSpecIndex(4))
        );
        assert_eq!(
            check_specialization(&m[..6], Stage::Fragment, b"main", &[]),
            Err(SpecializeError::Malformed)
        );
        assert_eq!(
            check_specialization(&[1, 2, 3], Stage::Fragment, b"main", &[]),
            Err(SpecializeError::Malformed)
        );
    }

    #[test]
    fn specialization_freezes_values_and_defaults() {
        let m = module(op::SPEC_CONSTANT);
        let frozen = specialize(&m, &[3, 3], &[9, 11]).unwrap();
        let consts: Vec<Vec<u32>> = instructions(&frozen)
            .filter_map(|i| i.ok())
            .filter(|(_, o, _)| *o == op::CONSTANT)
            .map(|(_, _, w)| w.to_vec())
            .collect();
        assert_eq!(consts, vec![inst(op::CONSTANT, &[4, 5, 11])]);
        assert!(
            instructions(&frozen)
                .filter_map(|i| i.ok())
                .all(|(_, o, _)| o != op::DECORATE)
        );
        let default = specialize(&m, &[], &[]).unwrap();
        assert!(
            instructions(&default)
                .filter_map(|i| i.ok())
                .any(|(_, _, w)| w == inst(op::CONSTANT, &[4, 5, 7]).as_slice())
        );
        let b = specialize(&module(op::SPEC_CONSTANT_FALSE), &[3], &[2]).unwrap();
        assert!(
            instructions(&b)
                .filter_map(|i| i.ok())
                .any(|(_, o, _)| o == op::CONSTANT_TRUE)
        );
    }

    #[test]
    fn atomic_counter_variables_become_atomic_uints() {
        let cross = "#version 450\n\
            layout(binding = 3, offset = 24) uint a0;\n\
            layout(location = 0) uniform uint e[6];\n\
            layout(binding = 0, offset = 4) uint a[2][3];\n\
            void main()\n{\n\
            uint _36 = atomicCounterIncrement(a0);\n\
            uint _45 = atomicCounterDecrement(a[1][2]);\n\
            uint _55 = atomicAdd(a0, 0);\n\
            uint _56 = atomicAdd(e[(1)], 2u);\n\
            uint _57 = atomicMax(a[0][e[0]], 2u);\n}\n";
        assert_eq!(
            atomic_counters(cross),
            "#version 450\n\
            #extension GL_ARB_shader_atomic_counter_ops : require\n\
            layout(binding = 3, offset = 24) uniform atomic_uint a0;\n\
            layout(location = 0) uniform uint e[6];\n\
            layout(binding = 0, offset = 4) uniform atomic_uint a[2][3];\n\
            void main()\n{\n\
            uint _36 = atomicCounterIncrement(a0);\n\
            uint _45 = (atomicCounterDecrement(a[1][2]) + 1u);\n\
            uint _55 = atomicCounter(a0);\n\
            uint _56 = atomicAdd(e[(1)], 2u);\n\
            uint _57 = atomicCounterMax(a[0][e[0]], 2u);\n}\n"
        );
        let plain = "#version 450\nlayout(location = 0) uniform uint e;\nvoid main() {}\n";
        assert_eq!(atomic_counters(plain), plain);
    }

    #[test]
    fn captured_outputs_aliasing_a_location_lose_it() {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 20, 0];
        w.extend(inst(op::DECORATE, &[4, 30, 0])); // colour: Location 0
        w.extend(inst(op::DECORATE, &[5, 30, 0])); // captured: Location 0
        w.extend(inst(op::DECORATE, &[5, 36, 0])); // XfbBuffer 0
        w.extend(inst(op::DECORATE, &[6, 30, 1])); // captured at 1: alone there
        w.extend(inst(op::DECORATE, &[6, 36, 0]));
        w.extend(inst(22, &[2, 32])); // OpTypeFloat
        w.extend(inst(32, &[3, 3, 2])); // pointer to it, Output
        w.extend(inst(59, &[3, 4, 3])); // OpVariable
        w.extend(inst(59, &[3, 5, 3]));
        w.extend(inst(59, &[3, 6, 3]));
        let out = unlocate_aliased_captures(&w).unwrap();
        let locations: Vec<Vec<u32>> = instructions(&out)
            .filter_map(|i| i.ok())
            .filter(|(_, o, w)| *o == op::DECORATE && w[2] == 30)
            .map(|(_, _, w)| w.to_vec())
            .collect();
        assert_eq!(
            locations,
            vec![
                inst(op::DECORATE, &[4, 30, 0]),
                inst(op::DECORATE, &[6, 30, 1])
            ]
        );
    }

    #[test]
    fn unnamed_blocks_are_named_after_their_binding() {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 20, 0];
        let mut named = vec![7];
        named.extend(crate::edit::literal("Named"));
        w.extend(inst(5, &named)); // OpName %7 "Named"
        w.extend(inst(op::DECORATE, &[3, 2])); // %3 Block
        w.extend(inst(op::DECORATE, &[4, 33, 5])); // its variable: Binding 5
        w.extend(inst(op::DECORATE, &[7, 2]));
        w.extend(inst(op::DECORATE, &[9, 33, 1]));
        w.extend(inst(22, &[2, 32])); // OpTypeFloat
        w.extend(inst(30, &[3, 2])); // OpTypeStruct { float }
        w.extend(inst(32, &[5, 2, 3])); // pointer to it, Uniform
        w.extend(inst(59, &[5, 4, 2])); // OpVariable
        w.extend(inst(30, &[7, 2]));
        w.extend(inst(32, &[8, 2, 7]));
        w.extend(inst(59, &[8, 9, 2]));
        let out = name_unnamed_blocks(&w).unwrap();
        let names: Vec<(u32, Vec<u8>)> = instructions(&out)
            .filter_map(|i| i.ok())
            .filter(|(_, o, _)| *o == 5)
            .map(|(_, _, w)| (w[1], literal_string(&w[2..]).to_vec()))
            .collect();
        assert_eq!(names, vec![(7, b"Named".to_vec()), (3, b"_ubo5".to_vec())]);
    }

    #[test]
    fn loose_uniforms_lose_their_bindings_and_samplers_keep_theirs() {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 20, 0];
        w.extend(inst(op::DECORATE, &[5, 33, 3])); // loose float: Binding 3
        w.extend(inst(op::DECORATE, &[5, 34, 0])); // and DescriptorSet 0
        w.extend(inst(op::DECORATE, &[9, 33, 1])); // sampler: Binding 1
        w.extend(inst(22, &[2, 32])); // OpTypeFloat
        w.extend(inst(32, &[4, 0, 2])); // pointer to it, UniformConstant
        w.extend(inst(59, &[4, 5, 0])); // OpVariable
        w.extend(inst(25, &[6, 2, 1, 0, 0, 0, 1, 0])); // OpTypeImage 2D sampled
        w.extend(inst(27, &[7, 6])); // OpTypeSampledImage
        w.extend(inst(32, &[8, 0, 7]));
        w.extend(inst(59, &[8, 9, 0]));
        let out = unbind_loose_uniforms(&w).unwrap();
        let decorations: Vec<Vec<u32>> = instructions(&out)
            .filter_map(|i| i.ok())
            .filter(|(_, o, _)| *o == op::DECORATE)
            .map(|(_, _, w)| w.to_vec())
            .collect();
        assert_eq!(decorations, vec![inst(op::DECORATE, &[9, 33, 1])]);
    }
}

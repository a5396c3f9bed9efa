//! The SPIR-V rewrite of storage images that GLSL ES 3.10 cannot declare as GL does, made
//! before SPIRV-Cross translates a stage (`GL_ARB_shader_image_load_store`).
//!
//! - **1D and rectangle images.** GLSL ES has neither; the backend stores a 1D texture as a
//!   2D one of height 1, a 1D array as a 2D array of height 1 and a rectangle texture as a 2D
//!   one. The image type becomes the 2D (array) type, each coordinate `x` becomes `(x, 0)`
//!   and `(x, layer)` becomes `(x, 0, layer)`, and a size query asks for the 2D size and
//!   keeps the width (and the layers). Row 0 of a height-1 image is the only row.
//! - **Read-write images of other formats than `r32f`, `r32i` and `r32ui`**, which GLSL ES
//!   refuses (they must be `readonly` or `writeonly`). Such a variable becomes `readonly`
//!   and gets a `writeonly` twin that every `imageStore` through it uses instead; the twin's
//!   binding is the variable's plus [`ALIAS_OFFSET`], so slot `i`'s twin reads native image
//!   unit `i + ALIAS_OFFSET`, which `image_unit.rs` binds to the same level and layers as
//!   unit `i`. A variable only read or only written just gets the qualifier it lacks; one
//!   passed to a function is left alone (the function's parameter would need the twin too),
//!   and so is a slot past the twins' units (the driver then refuses the stage).
//! - **Images without a format qualifier** (GL allows them `writeonly`; every ES image has
//!   a format): they declare the 32-bit four-component format of their texel type
//!   (`rgba32f`, `rgba32i`, `rgba32ui`). The format a store converts to is the image unit's,
//!   which the native driver (Mesa) takes from `glBindImageTexture`, not from the
//!   declaration.
//! - **Formats ES 3.10 lacks** (`rg*`, `r8`/`r16` sizes, 16-bit normalized, `r11f_g11f_b10f`,
//!   `rgb10_a2*`) are declared as they are, with `GL_NV_image_formats` enabled
//!   ([`enable_extensions`]; the 16-bit normalized ones need `GL_EXT_texture_norm16` too); a
//!   driver without them does not advertise image load and store (`device.rs`). SPIRV-Cross
//!   refuses to write most of them for ES, so the SPIR-V declares a stand-in of the texel
//!   type (`rgba32f`, `rgba32i`, `rgba32ui`) and [`Lowered::patch`] writes the real format
//!   into the translated declaration.

use std::collections::{HashMap, HashSet};

use crate::image_unit::ALIAS_OFFSET;
use crate::spirv::{Module, inst, op, opcode};

const OP_TYPE_RUNTIME_ARRAY: u16 = 29;
const OP_FUNCTION_CALL: u16 = 57;
const OP_IMAGE_TEXEL_POINTER: u16 = 60;
const OP_IN_BOUNDS_ACCESS_CHAIN: u16 = 66;
const OP_COMPOSITE_EXTRACT: u16 = 81;
const OP_IMAGE_READ: u16 = 98;
const OP_IMAGE_WRITE: u16 = 99;

const DECORATION_NON_WRITABLE: u32 = 24;
const DECORATION_NON_READABLE: u32 = 25;
const DECORATION_BINDING: u32 = 33;

const DIM_1D: u32 = 0;
const DIM_2D: u32 = 1;
const DIM_RECT: u32 = 4;
const STORAGE_IMAGE: u32 = 2;

// SPIR-V image formats.
const FORMAT_UNKNOWN: u32 = 0;
const FORMAT_RGBA32F: u32 = 1;
const FORMAT_R32F: u32 = 3;
const FORMAT_RGBA32I: u32 = 21;
const FORMAT_R32I: u32 = 24;
const FORMAT_RGBA32UI: u32 = 30;
const FORMAT_R32UI: u32 = 33;
/// The formats GLSL ES 3.10 declares: rgba32f, rgba16f, r32f, rgba8, rgba8_snorm, rgba32i,
/// rgba16i, rgba8i, r32i, rgba32ui, rgba16ui, rgba8ui, r32ui.
const ES_FORMATS: [u32; 13] = [1, 2, 3, 4, 5, 21, 22, 23, 24, 30, 31, 32, 33];

/// Rewrites a stage's storage images for GLSL ES; `None` when it has nothing to rewrite.
///
/// `base` is the binding of image slot 0 in the engine's numbering (`program.rs`: the
/// default block, the sampler slots, the uniform and the storage blocks come first).
pub(crate) fn lower(words: &[u32], base: u32) -> Option<Lowered> {
    let mut m = Module::parse(words)?;
    let start = m.functions_start();
    let declared = declared_formats(&m, base);
    // Storage image types: (id, 1D arrayed-ness) of those widened from 1D.
    let mut widened: HashMap<u32, bool> = HashMap::new();
    let mut images: HashSet<u32> = HashSet::new();
    let mut changed = false;
    for at in 0..start {
        let i = &mut m.insts[at];
        if opcode(i) != op::TYPE_IMAGE || i.len() < 9 || i[7] != STORAGE_IMAGE {
            continue;
        }
        images.insert(i[1]);
        let format = i[8];
        match i[3] {
            DIM_1D => {
                i[3] = DIM_2D;
                widened.insert(i[1], i[5] == 1);
                changed = true;
            }
            DIM_RECT => {
                i[3] = DIM_2D;
                changed = true;
            }
            _ => {}
        }
        if format == FORMAT_UNKNOWN {
            let sampled = m.insts[at][2];
            let format = match m
                .declaration(sampled)
                .filter(|d| opcode(d) == op::TYPE_INT && d.len() >= 4)
            {
                Some(d) if d[3] == 1 => FORMAT_RGBA32I,
                Some(_) => FORMAT_RGBA32UI,
                None => FORMAT_RGBA32F,
            };
            m.insts[at][8] = format;
            changed = true;
        }
    }
    if images.is_empty() {
        return None;
    }
    let split = split_read_write(&mut m, &images, base);
    changed |= split;
    if !widened.is_empty() {
        widen(&mut m, &widened);
    }
    changed |= query_sizes(&mut m, &images);
    // Formats SPIRV-Cross refuses for ES: a stand-in of the texel type in the SPIR-V, the
    // real one written into the declaration afterwards.
    for at in 0..m.functions_start() {
        let i = &m.insts[at];
        if opcode(i) == op::TYPE_IMAGE
            && i.len() >= 9
            && images.contains(&i[1])
            && let Some(stand_in) = stand_in(i[8])
        {
            m.insts[at][8] = stand_in;
            changed = true;
        }
    }
    (changed || !declared.is_empty()).then(|| Lowered {
        words: m.finish(),
        declared,
    })
}

/// A stage's rewritten SPIR-V and what its translation still needs.
pub(crate) struct Lowered {
    pub words: Vec<u32>,
    /// Image variables whose format SPIRV-Cross does not write for ES, by binding, with
    /// the format's GLSL name: (binding, name), for [`Lowered::patch`].
    declared: Vec<(u32, &'static str)>,
}

impl Lowered {
    /// Writes the real formats into the translated declarations and enables the extensions
    /// they need.
    pub(crate) fn patch(&self, source: &mut String) {
        for &(binding, name) in &self.declared {
            // `layout(binding = N, rgba32f) uniform ... ts_f_img7;` (or `ts_f_img7[4];`)
            for suffix in [format!("_img{binding};"), format!("_img{binding}[")] {
                let Some(end) = source.find(&suffix) else {
                    continue;
                };
                let line_start = source[..end].rfind('\n').map_or(0, |i| i + 1);
                let line = &source[line_start..end];
                for stand_in in [", rgba32f)", ", rgba32i)", ", rgba32ui)"] {
                    if let Some(at) = line.find(stand_in) {
                        let at = line_start + at;
                        source.replace_range(at..at + stand_in.len(), &format!(", {name})"));
                        break;
                    }
                }
            }
        }
    }
}

/// The formats SPIRV-Cross refuses to write for ES (its `is_desktop_only_format`) and the
/// 32-bit four-component stand-in of their texel type.
fn stand_in(format: u32) -> Option<u32> {
    Some(match format {
        8..=20 => FORMAT_RGBA32F,
        27..=29 => FORMAT_RGBA32I,
        34 | 37 | 38 | 39 => FORMAT_RGBA32UI,
        _ => return None,
    })
}

/// GLSL's name of a SPIR-V image format.
fn format_name(format: u32) -> Option<&'static str> {
    Some(match format {
        8 => "r11f_g11f_b10f",
        9 => "r16f",
        10 => "rgba16",
        11 => "rgb10_a2",
        12 => "rg16",
        13 => "rg8",
        14 => "r16",
        15 => "r8",
        16 => "rgba16_snorm",
        17 => "rg16_snorm",
        18 => "rg8_snorm",
        19 => "r16_snorm",
        20 => "r8_snorm",
        27 => "rg8i",
        28 => "r16i",
        29 => "r8i",
        34 => "rgb10_a2ui",
        37 => "rg8ui",
        38 => "r16ui",
        39 => "r8ui",
        _ => return None,
    })
}

/// The image variables whose format needs [`stand_in`], by binding (a twin made later has
/// the binding plus [`ALIAS_OFFSET`], listed too).
fn declared_formats(m: &Module, base: u32) -> Vec<(u32, &'static str)> {
    let start = m.functions_start();
    let mut out = Vec::new();
    for i in &m.insts[..start] {
        if opcode(i) != op::VARIABLE || i.len() < 4 {
            continue;
        }
        let Some(ptr) = m
            .declaration(i[1])
            .filter(|d| opcode(d) == op::TYPE_POINTER)
        else {
            continue;
        };
        let Some(image) = m
            .declaration(element(m, ptr[3]))
            .filter(|d| opcode(d) == op::TYPE_IMAGE && d.len() >= 9 && d[7] == STORAGE_IMAGE)
        else {
            continue;
        };
        let Some(name) = format_name(image[8]) else {
            continue;
        };
        let binding = m.insts[..start].iter().find(|d| {
            opcode(d) == op::DECORATE && d.len() >= 4 && d[1] == i[2] && d[2] == DECORATION_BINDING
        });
        if let Some(d) = binding {
            out.push((d[3], name));
            if d[3] >= base {
                out.push((d[3] + ALIAS_OFFSET, name));
            }
        }
    }
    out
}

/// Size queries of storage images are `OpImageQuerySize`: the front end's rectangle pass
/// makes every rectangle size query one of level 0 (`shader/src/rectangle.rs`), which
/// SPIRV-Cross writes as `textureSize`, and GLSL ES has no such call for images.
fn query_sizes(m: &mut Module, images: &HashSet<u32>) -> bool {
    let start = m.functions_start();
    let values: HashSet<u32> = m.insts[start..]
        .iter()
        .filter(|i| opcode(i) == op::LOAD && i.len() >= 4 && images.contains(&i[1]))
        .map(|i| i[2])
        .collect();
    let mut changed = false;
    for i in &mut m.insts[start..] {
        if opcode(i) == op::IMAGE_QUERY_SIZE_LOD && i.len() >= 5 && values.contains(&i[3]) {
            *i = inst(op::IMAGE_QUERY_SIZE, &[i[1], i[2], i[3]]);
            changed = true;
        }
    }
    changed
}

/// The element type of an image array type, or the type itself.
fn element(m: &Module, ty: u32) -> u32 {
    match m.declaration(ty) {
        Some(d) if matches!(opcode(d), op::TYPE_ARRAY | OP_TYPE_RUNTIME_ARRAY) => element(m, d[2]),
        _ => ty,
    }
}

/// Gives read-write images of formats GLSL ES allows only one way a `writeonly` twin (module
/// docs); `true` when anything changed.
fn split_read_write(m: &mut Module, images: &HashSet<u32>, base: u32) -> bool {
    let start = m.functions_start();
    // The image variables' pointee element formats: variable -> (pointer type, format).
    let mut variables: HashMap<u32, (u32, u32)> = HashMap::new();
    for i in &m.insts[..start] {
        if opcode(i) != op::VARIABLE
            || i.len() < 4
            || i[3] != crate::spirv::STORAGE_UNIFORM_CONSTANT
        {
            continue;
        }
        let Some(ptr) = m
            .declaration(i[1])
            .filter(|d| opcode(d) == op::TYPE_POINTER)
        else {
            continue;
        };
        let image = element(m, ptr[3]);
        if !images.contains(&image) {
            continue;
        }
        let Some(format) = m.declaration(image).map(|d| d[8]) else {
            continue;
        };
        variables.insert(i[2], (i[1], format));
    }
    let mut decorated: HashMap<u32, (bool, bool, Option<u32>)> = HashMap::new();
    for i in &m.insts[..start] {
        if opcode(i) == op::DECORATE && i.len() >= 3 && variables.contains_key(&i[1]) {
            let e = decorated.entry(i[1]).or_default();
            match i[2] {
                DECORATION_NON_WRITABLE => e.0 = true,
                DECORATION_NON_READABLE => e.1 = true,
                DECORATION_BINDING if i.len() >= 4 => e.2 = Some(i[3]),
                _ => {}
            }
        }
    }
    // Where each pointer and loaded image comes from: id -> variable.
    let mut origin: HashMap<u32, u32> = variables.keys().map(|&v| (v, v)).collect();
    let mut defs: HashMap<u32, Vec<u32>> = HashMap::new();
    // Per variable: (read, written, passed to a function).
    let mut uses: HashMap<u32, (bool, bool, bool)> = HashMap::new();
    for i in &m.insts[start..] {
        match opcode(i) {
            op::ACCESS_CHAIN | OP_IN_BOUNDS_ACCESS_CHAIN | op::LOAD if i.len() >= 4 => {
                if let Some(&v) = origin.get(&i[3]) {
                    origin.insert(i[2], v);
                    defs.insert(i[2], i.clone());
                }
            }
            OP_IMAGE_READ if i.len() >= 4 => {
                if let Some(&v) = origin.get(&i[3]) {
                    uses.entry(v).or_default().0 = true;
                }
            }
            OP_IMAGE_WRITE if i.len() >= 2 => {
                if let Some(&v) = origin.get(&i[1]) {
                    uses.entry(v).or_default().1 = true;
                }
            }
            OP_IMAGE_TEXEL_POINTER if i.len() >= 4 => {
                // Atomics read and write (r32 formats only, which need no twin).
                if let Some(&v) = origin.get(&i[3]) {
                    let e = uses.entry(v).or_default();
                    e.0 = true;
                    e.1 = true;
                }
            }
            OP_FUNCTION_CALL => {
                for a in i.iter().skip(4) {
                    if let Some(&v) = origin.get(a) {
                        uses.entry(v).or_default().2 = true;
                    }
                }
            }
            _ => {}
        }
    }
    let mut changed = false;
    let mut twins: HashMap<u32, u32> = HashMap::new();
    let mut vars: Vec<u32> = variables.keys().copied().collect();
    vars.sort_unstable();
    for v in vars {
        let (ptr, format) = variables[&v];
        if matches!(format, FORMAT_R32F | FORMAT_R32I | FORMAT_R32UI) {
            continue;
        }
        let (readonly, writeonly, binding) = decorated.get(&v).copied().unwrap_or_default();
        if readonly || writeonly {
            continue;
        }
        let (read, written, called) = uses.get(&v).copied().unwrap_or_default();
        if called {
            continue;
        }
        match (read, written) {
            // Neither: readonly declares it as well as anything.
            (_, false) => {
                decorate(m, v, DECORATION_NON_WRITABLE);
                changed = true;
            }
            (false, true) => {
                decorate(m, v, DECORATION_NON_READABLE);
                changed = true;
            }
            (true, true) => {
                let Some(binding) = binding else { continue };
                // The twins' units must stay below GL's 192.
                let slot_end = binding.saturating_sub(base) + array_len(m, ptr);
                if binding < base || slot_end > ALIAS_OFFSET {
                    continue;
                }
                let twin = m.fresh();
                m.global(inst(
                    op::VARIABLE,
                    &[ptr, twin, crate::spirv::STORAGE_UNIFORM_CONSTANT],
                ));
                let copies: Vec<Vec<u32>> = m
                    .insts
                    .iter()
                    .filter(|i| {
                        opcode(i) == op::DECORATE
                            && i.len() >= 3
                            && i[1] == v
                            && i[2] != DECORATION_BINDING
                    })
                    .map(|i| {
                        let mut c = i.clone();
                        c[1] = twin;
                        c
                    })
                    .collect();
                for c in copies {
                    annotate(m, c);
                }
                annotate(
                    m,
                    inst(
                        op::DECORATE,
                        &[twin, DECORATION_BINDING, binding + ALIAS_OFFSET],
                    ),
                );
                decorate(m, twin, DECORATION_NON_READABLE);
                decorate(m, v, DECORATION_NON_WRITABLE);
                twins.insert(v, twin);
                changed = true;
            }
        }
    }
    if twins.is_empty() {
        return changed;
    }
    // Each store through a twinned variable loads the twin (through the same indices) right
    // before it and stores through that.
    let start = m.functions_start();
    let body = m.insts.split_off(start);
    let mut out = Vec::with_capacity(body.len() + 8);
    for i in &body {
        if opcode(i) == OP_IMAGE_WRITE
            && i.len() >= 2
            && let Some(twin) = origin.get(&i[1]).and_then(|v| twins.get(v))
            && let Some(load) = defs.get(&i[1])
        {
            let (image_ty, from) = (load[1], load[3]);
            let pointer = if from == origin[&i[1]] {
                *twin
            } else if let Some(chain) = defs.get(&from) {
                let id = m.fresh();
                let mut c = chain.clone();
                c[2] = id;
                c[3] = *twin;
                out.push(c);
                id
            } else {
                out.push(i.clone());
                continue;
            };
            let loaded = m.fresh();
            out.push(inst(op::LOAD, &[image_ty, loaded, pointer]));
            let mut w = i.clone();
            w[1] = loaded;
            out.push(w);
            continue;
        }
        out.push(i.clone());
    }
    m.insts.extend(out);
    true
}

/// Adds a decoration without literals (`NonWritable`, `NonReadable`).
fn decorate(m: &mut Module, target: u32, decoration: u32) {
    annotate(m, inst(op::DECORATE, &[target, decoration]));
}

/// Adds an annotation at the end of the module's annotations (before the first type).
fn annotate(m: &mut Module, i: Vec<u32>) {
    let at = m
        .insts
        .iter()
        .position(|i| !crate::spirv::is_preamble(opcode(i)))
        .unwrap_or(m.insts.len());
    m.insts.insert(at, i);
}

/// The element count of an image array variable's pointee (1 for one image).
fn array_len(m: &Module, ptr: u32) -> u32 {
    let Some(p) = m.declaration(ptr) else {
        return 1;
    };
    match m.declaration(p[3]) {
        Some(d) if opcode(d) == op::TYPE_ARRAY => m
            .declaration(d[3])
            .filter(|c| opcode(c) == op::CONSTANT && c.len() >= 4)
            .map_or(1, |c| c[3]),
        _ => 1,
    }
}

/// Widens the coordinates and size queries of the images made 2D from 1D (module docs).
fn widen(m: &mut Module, widened: &HashMap<u32, bool>) {
    let start = m.functions_start();
    // Pointers to those images (variables, access chains): pointer type -> image type.
    let pointer_types: HashMap<u32, u32> = m.insts[..start]
        .iter()
        .filter(|i| opcode(i) == op::TYPE_POINTER && i.len() >= 4)
        .filter_map(|i| {
            let e = element(m, i[3]);
            widened.contains_key(&e).then_some((i[1], e))
        })
        .collect();
    // Every value or pointer whose image is a widened one: id -> arrayed.
    let mut of: HashMap<u32, bool> = HashMap::new();
    for i in &m.insts {
        let (ty, id) = match opcode(i) {
            op::VARIABLE if i.len() >= 3 => (i[1], i[2]),
            // Not type declarations (19..=39), whose second word is no result type.
            c if !(19..=39).contains(&c) && i.len() >= 3 && !crate::spirv::is_preamble(c) => {
                (i[1], i[2])
            }
            _ => continue,
        };
        if let Some(&a) = widened.get(&ty) {
            of.insert(id, a);
        } else if let Some(image) = pointer_types.get(&ty) {
            of.insert(id, widened[image]);
        }
    }
    let body = m.insts.split_off(start);
    let mut out = Vec::with_capacity(body.len() + 16);
    for i in body {
        let code = opcode(&i);
        // (index of the image operand, index of the coordinate)
        let (image_at, coord_at) = match code {
            OP_IMAGE_READ | OP_IMAGE_TEXEL_POINTER => (3, Some(4)),
            OP_IMAGE_WRITE => (1, Some(2)),
            op::IMAGE_QUERY_SIZE | op::IMAGE_QUERY_SIZE_LOD => (3, None),
            _ => {
                out.push(i);
                continue;
            }
        };
        let Some(&arrayed) = i.get(image_at).and_then(|id| of.get(id)) else {
            out.push(i);
            continue;
        };
        let mut i = i;
        match coord_at {
            Some(c) if c < i.len() => {
                let coord = i[c];
                let Some(ty) = type_of(m, &out, coord) else {
                    out.push(i);
                    continue;
                };
                let id = m.fresh();
                if arrayed {
                    // (x, layer) -> (x, 0, layer)
                    let Some(component) = m
                        .declaration(ty)
                        .filter(|d| opcode(d) == op::TYPE_VECTOR)
                        .map(|d| d[2])
                    else {
                        out.push(i);
                        continue;
                    };
                    let wide = m.vector(component, 3);
                    let zeros = null(m, ty);
                    out.push(inst(op::VECTOR_SHUFFLE, &[wide, id, coord, zeros, 0, 2, 1]));
                } else {
                    // x -> (x, 0)
                    let pair = m.vector(ty, 2);
                    let zero = null(m, ty);
                    out.push(inst(op::COMPOSITE_CONSTRUCT, &[pair, id, coord, zero]));
                }
                i[c] = id;
                out.push(i);
            }
            Some(_) => out.push(i),
            None => {
                // width -> ask (width, height), keep .x; (width, layers) -> ask
                // (width, 1, layers), keep .xz.
                let (ty, id) = (i[1], i[2]);
                let asked = m.fresh();
                if arrayed {
                    let Some(component) = m
                        .declaration(ty)
                        .filter(|d| opcode(d) == op::TYPE_VECTOR)
                        .map(|d| d[2])
                    else {
                        out.push(i);
                        continue;
                    };
                    i[1] = m.vector(component, 3);
                    i[2] = asked;
                    out.push(i);
                    out.push(inst(op::VECTOR_SHUFFLE, &[ty, id, asked, asked, 0, 2]));
                } else {
                    i[1] = m.vector(ty, 2);
                    i[2] = asked;
                    out.push(i);
                    out.push(inst(OP_COMPOSITE_EXTRACT, &[ty, id, asked, 0]));
                }
            }
        }
    }
    m.insts.extend(out);
}

/// The type of a value: a global's, or one defined earlier in the function section being
/// rebuilt (`body`).
fn type_of(m: &Module, body: &[Vec<u32>], id: u32) -> Option<u32> {
    if let Some(d) = m.declaration(id) {
        return (opcode(d) >= 41).then(|| d[1]);
    }
    body.iter()
        .rev()
        .find(|i| i.len() >= 3 && i[2] == id && opcode(i) != op::DECORATE)
        .map(|i| i[1])
}

/// The null constant of a type, declared among the globals if missing.
fn null(m: &mut Module, ty: u32) -> u32 {
    if let Some(i) = m
        .insts
        .iter()
        .find(|i| opcode(i) == op::CONSTANT_NULL && i[1] == ty)
    {
        return i[2];
    }
    let id = m.fresh();
    m.global(inst(op::CONSTANT_NULL, &[ty, id]));
    id
}

/// Enables `GL_NV_image_formats` in a translated stage whose images have formats GLSL ES
/// 3.10 lacks (module docs), right after its `#version` line; `words` is the SPIR-V before
/// [`lower`]. (The 16-bit normalized ones need `GL_EXT_texture_norm16` on the context, which
/// no shader enables.)
pub(crate) fn enable_extensions(words: &[u32], source: &mut String) {
    let Some(m) = Module::parse(words) else {
        return;
    };
    let start = m.functions_start();
    let nv = m.insts[..start].iter().any(|i| {
        opcode(i) == op::TYPE_IMAGE
            && i.len() >= 9
            && i[7] == STORAGE_IMAGE
            && i[8] != FORMAT_UNKNOWN
            && !ES_FORMATS.contains(&i[8])
    });
    if nv {
        let at = source.find('\n').map_or(source.len(), |i| i + 1);
        source.insert_str(at, "#extension GL_NV_image_formats : require\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spirv::{STORAGE_UNIFORM_CONSTANT, literal};

    const OP_TYPE_VOID: u16 = 19;
    const OP_TYPE_FUNCTION: u16 = 33;
    const OP_LABEL: u16 = 248;
    const OP_RETURN: u16 = 253;
    const OP_FUNCTION_END: u16 = 56;

    /// A fragment module with one image variable (%10, binding 5, of `image`'s type %5 over
    /// floats %2, or ints %4 where `int_texels`) whose body is `body`; %4 is `int`, %11 the
    /// int 3, %12 `ivec2`, %13 `vec4`, %14 a `vec4` null constant.
    fn module(
        image: [u32; 5],
        int_texels: bool,
        decorations: &[Vec<u32>],
        body: &[Vec<u32>],
    ) -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 40, 0];
        let mut ep = vec![4, 1];
        ep.extend(literal("main"));
        let mut insts = vec![
            inst(17, &[1]),
            inst(14, &[0, 1]),
            inst(15, &ep),
            inst(op::DECORATE, &[10, DECORATION_BINDING, 5]),
        ];
        insts.extend(decorations.iter().cloned());
        let texel = if int_texels { 4 } else { 2 };
        let [dim, depth, arrayed, ms, format] = image;
        insts.extend([
            inst(op::TYPE_FLOAT, &[2, 32]),
            inst(op::TYPE_INT, &[4, 32, 1]),
            inst(op::TYPE_VECTOR, &[12, 4, 2]),
            inst(op::TYPE_VECTOR, &[13, 2, 4]),
            inst(
                op::TYPE_IMAGE,
                &[5, texel, dim, depth, arrayed, ms, STORAGE_IMAGE, format],
            ),
            inst(op::TYPE_POINTER, &[7, STORAGE_UNIFORM_CONSTANT, 5]),
            inst(op::VARIABLE, &[7, 10, STORAGE_UNIFORM_CONSTANT]),
            inst(op::CONSTANT, &[4, 11, 3]),
            inst(op::CONSTANT_NULL, &[13, 14]),
            inst(OP_TYPE_VOID, &[8]),
            inst(OP_TYPE_FUNCTION, &[9, 8]),
            inst(op::FUNCTION, &[8, 1, 0, 9]),
            inst(OP_LABEL, &[15]),
        ]);
        insts.extend(body.iter().cloned());
        insts.extend([inst(OP_RETURN, &[]), inst(OP_FUNCTION_END, &[])]);
        for i in insts {
            w.extend(i);
        }
        w
    }

    fn find(m: &Module, code: u16) -> Vec<Vec<u32>> {
        m.insts
            .iter()
            .filter(|i| opcode(i) == code)
            .cloned()
            .collect()
    }

    #[test]
    fn a_read_write_rgba8_image_stores_through_a_writeonly_twin() {
        // v = imageLoad(img, ivec2(3)); imageStore(img, ivec2(3), v), img rgba8 at slot 0.
        let words = module(
            [DIM_2D, 0, 0, 0, 4],
            false,
            &[],
            &[
                inst(op::COMPOSITE_CONSTRUCT, &[12, 20, 11, 11]),
                inst(op::LOAD, &[5, 21, 10]),
                inst(OP_IMAGE_READ, &[13, 22, 21, 20]),
                inst(op::LOAD, &[5, 23, 10]),
                inst(OP_IMAGE_WRITE, &[23, 20, 22]),
            ],
        );
        let lowered = lower(&words, 5).expect("rewritten");
        let m = Module::parse(&lowered.words).unwrap();
        let variables = find(&m, op::VARIABLE);
        assert_eq!(variables.len(), 2, "the image and its twin");
        let twin = variables[1][2];
        let decorations = find(&m, op::DECORATE);
        assert!(decorations.contains(&inst(op::DECORATE, &[10, DECORATION_NON_WRITABLE])));
        assert!(decorations.contains(&inst(op::DECORATE, &[twin, DECORATION_NON_READABLE])));
        assert!(decorations.contains(&inst(
            op::DECORATE,
            &[twin, DECORATION_BINDING, 5 + ALIAS_OFFSET]
        )));
        // The read keeps the image; the store loads the twin right before it.
        let read = &find(&m, OP_IMAGE_READ)[0];
        assert_eq!(read[3], 21);
        let start = m.functions_start();
        let at = m
            .insts
            .iter()
            .position(|i| opcode(i) == OP_IMAGE_WRITE)
            .unwrap();
        let load = &m.insts[at - 1];
        assert_eq!(opcode(load), op::LOAD);
        assert_eq!((load[1], load[3]), (5, twin));
        assert_eq!(m.insts[at][1], load[2]);
        assert!(at > start);
    }

    #[test]
    fn an_image_only_read_or_written_gets_the_qualifier_it_lacks() {
        let read = module(
            [DIM_2D, 0, 0, 0, 4],
            false,
            &[],
            &[
                inst(op::COMPOSITE_CONSTRUCT, &[12, 20, 11, 11]),
                inst(op::LOAD, &[5, 21, 10]),
                inst(OP_IMAGE_READ, &[13, 22, 21, 20]),
            ],
        );
        let m = Module::parse(&lower(&read, 5).unwrap().words).unwrap();
        assert_eq!(find(&m, op::VARIABLE).len(), 1, "no twin");
        assert!(
            find(&m, op::DECORATE).contains(&inst(op::DECORATE, &[10, DECORATION_NON_WRITABLE]))
        );
        // r32f images may be read and written in GLSL ES: left alone.
        let r32f = module(
            [DIM_2D, 0, 0, 0, FORMAT_R32F],
            false,
            &[],
            &[
                inst(op::COMPOSITE_CONSTRUCT, &[12, 20, 11, 11]),
                inst(op::LOAD, &[5, 21, 10]),
                inst(OP_IMAGE_READ, &[13, 22, 21, 20]),
                inst(OP_IMAGE_WRITE, &[21, 20, 22]),
            ],
        );
        assert!(lower(&r32f, 5).is_none());
    }

    #[test]
    fn a_1d_image_is_a_2d_one_of_row_0() {
        // imageStore(img1D, 3, vec4(0)); imageSize(img1D), img writeonly r16f.
        let words = module(
            [DIM_1D, 0, 0, 0, 9],
            false,
            &[inst(op::DECORATE, &[10, DECORATION_NON_READABLE])],
            &[
                inst(op::LOAD, &[5, 21, 10]),
                inst(OP_IMAGE_WRITE, &[21, 11, 14]),
                inst(op::IMAGE_QUERY_SIZE, &[4, 22, 21]),
            ],
        );
        let lowered = lower(&words, 5).expect("rewritten");
        let m = Module::parse(&lowered.words).unwrap();
        let image = &find(&m, op::TYPE_IMAGE)[0];
        assert_eq!(image[3], DIM_2D);
        assert_eq!(image[8], FORMAT_RGBA32F, "r16f's stand-in");
        // The coordinate 3 becomes (3, 0).
        let write = &find(&m, OP_IMAGE_WRITE)[0];
        let construct = find(&m, op::COMPOSITE_CONSTRUCT);
        assert_eq!(construct.len(), 1);
        assert_eq!(construct[0][2], write[2]);
        assert_eq!(construct[0][3], 11);
        assert_eq!(construct[0][1], 12, "ivec2");
        // The size asks for an ivec2 and keeps its x as the old result.
        let size = &find(&m, op::IMAGE_QUERY_SIZE)[0];
        assert_eq!(size[1], 12);
        assert_eq!(
            find(&m, OP_COMPOSITE_EXTRACT)[0],
            inst(OP_COMPOSITE_EXTRACT, &[4, 22, size[2], 0])
        );
        // The real format goes into the translated declaration.
        let mut source = "#version 310 es\nlayout(binding = 0, rgba32f) uniform writeonly highp image2D ts_f_img5;\nvoid main() {}\n".to_owned();
        lowered.patch(&mut source);
        enable_extensions(&words, &mut source);
        assert_eq!(
            source,
            "#version 310 es\n#extension GL_NV_image_formats : require\nlayout(binding = 0, r16f) uniform writeonly highp image2D ts_f_img5;\nvoid main() {}\n"
        );
    }

    #[test]
    fn an_image_without_a_format_declares_the_32_bit_one_of_its_texels() {
        let words = module(
            [DIM_2D, 0, 0, 0, FORMAT_UNKNOWN],
            true,
            &[inst(op::DECORATE, &[10, DECORATION_NON_READABLE])],
            &[],
        );
        let m = Module::parse(&lower(&words, 5).unwrap().words).unwrap();
        assert_eq!(find(&m, op::TYPE_IMAGE)[0][8], FORMAT_RGBA32I);
        let mut source = "#version 310 es\n".to_owned();
        enable_extensions(&words, &mut source);
        assert_eq!(source, "#version 310 es\n", "an ES format");
    }
}

//! The control stage GL leaves out: a program with a tessellation evaluation stage and no
//! control stage tessellates each patch with the default levels (`glPatchParameterfv`) and
//! hands the evaluation stage the patch's vertices as they are (GL 4.0 §2.14.2). Neither
//! Vulkan nor OpenGL ES has that: both need a control stage. So such a program is linked
//! again, for each patch size and pair of default levels it is drawn with, with a control
//! stage written here (as Zink writes one):
//!
//! ```glsl
//! #version 400
//! layout(vertices = N) out;
//! in vec3 colour[];                   // every per-vertex input of the evaluation stage,
//! out vec3 colour_tsh_default[];      // under its name and a renamed copy
//! void main() {
//!     gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
//!     colour_tsh_default[gl_InvocationID] = colour[gl_InvocationID];
//!     gl_TessLevelOuter[0] = uintBitsToFloat(0x3f800000u);   // the levels' exact bits
//!     ...
//! }
//! ```
//!
//! Its inputs take the names the vertex stage's outputs match, so the evaluation stage's
//! inputs are renamed (whole identifiers of its source) to the names of its outputs. The
//! evaluation stage's inputs are read from its SPIR-V after a first link: plain variables
//! and interface blocks of scalars, vectors, matrices and (in blocks) arrays of them, with
//! their `flat` and `noperspective` qualifiers; anything else (arrays outside blocks, which
//! would be arrays of arrays per vertex, and structures) is refused with a log.

use crate::spirv::{Module, Type, deco, storage};
use crate::{LinkRequest, Program, Stage, interface};

/// What a renamed evaluation-stage input is called.
const SUFFIX: &str = "_tsh_default";

/// `Flat` and `NoPerspective` decorations.
const FLAT: u32 = 14;
const NO_PERSPECTIVE: u32 = 13;

/// One per-vertex input of the evaluation stage.
struct Input {
    /// The name matched across stages (a block's block name).
    name: String,
    /// A block's members (name, GLSL type, qualifier), or the variable's type.
    shape: Shape,
}

enum Shape {
    Plain { ty: String, qualifier: &'static str },
    Block(Vec<(String, String, &'static str)>),
}

fn qualifier(flat: bool, no_perspective: bool) -> &'static str {
    if flat {
        "flat "
    } else if no_perspective {
        "noperspective "
    } else {
        ""
    }
}

/// Whether `ty` is a scalar, vector or matrix, which GLSL 4.00 can pass per vertex.
fn simple(m: &Module, ty: u32) -> bool {
    matches!(
        m.ty(ty),
        Some(
            Type::Float { .. }
                | Type::Int { .. }
                | Type::Bool
                | Type::Vector { .. }
                | Type::Matrix { .. }
        )
    )
}

/// The per-vertex inputs of an evaluation stage's SPIR-V.
fn inputs(words: &[u32]) -> Result<Vec<Input>, String> {
    let m = Module::parse(words.to_vec())
        .map_err(|_| "error: internal error: malformed SPIR-V\n".to_string())?;
    let unsupported = |name: &str| {
        format!(
            "error: tessellation evaluation shader input `{name}' cannot be passed through \
             the default tessellation control stage (only scalars, vectors, matrices and \
             blocks of them and of their arrays can)\n"
        )
    };
    let mut out = Vec::new();
    for v in m.vars(storage::INPUT) {
        if m.is_builtin(v) || m.decoration(v.id, deco::PATCH).is_some() {
            continue;
        }
        let element = m.array(v.ty).map_or(v.ty, |(e, _)| e);
        let name = m.interface_name(v, true).to_string();
        let shape = match m.ty(element) {
            Some(Type::Struct { members }) if m.decoration(element, deco::BLOCK).is_some() => {
                let mut list = Vec::new();
                for (i, &ty) in members.iter().enumerate() {
                    let i = i as u32;
                    // A member may be an array too (GLSL 4.00 copies it whole).
                    let inner = m.array(ty).map_or(ty, |(e, _)| e);
                    if !simple(&m, inner) {
                        return Err(unsupported(&name));
                    }
                    list.push((
                        m.member_name(element, i).to_string(),
                        interface::glsl_type(&m, ty),
                        qualifier(
                            m.member_decoration(element, i, FLAT).is_some(),
                            m.member_decoration(element, i, NO_PERSPECTIVE).is_some(),
                        ),
                    ));
                }
                Shape::Block(list)
            }
            _ if simple(&m, element) => Shape::Plain {
                ty: interface::glsl_type(&m, element),
                qualifier: qualifier(
                    m.decoration(v.id, FLAT).is_some(),
                    m.decoration(v.id, NO_PERSPECTIVE).is_some(),
                ),
            },
            _ => return Err(unsupported(&name)),
        };
        out.push(Input { name, shape });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// The control stage's source for `inputs`, `vertices` per patch and the levels.
fn control_source(inputs: &[Input], vertices: u32, outer: [f32; 4], inner: [f32; 2]) -> String {
    let mut decls = String::new();
    let mut copies = String::new();
    for (k, input) in inputs.iter().enumerate() {
        let renamed = format!("{}{SUFFIX}", input.name);
        match &input.shape {
            Shape::Plain { ty, qualifier } => {
                decls.push_str(&format!(
                    "{qualifier}in {ty} {name}[];\n{qualifier}out {ty} {renamed}[];\n",
                    name = input.name
                ));
                copies.push_str(&format!(
                    "    {renamed}[gl_InvocationID] = {name}[gl_InvocationID];\n",
                    name = input.name
                ));
            }
            Shape::Block(members) => {
                let body: String = members
                    .iter()
                    .map(|(n, ty, q)| format!("    {q}{ty} {n};\n"))
                    .collect();
                decls.push_str(&format!(
                    "in {name} {{\n{body}}} tsh_in{k}[];\nout {renamed} {{\n{body}}} tsh_out{k}[];\n",
                    name = input.name
                ));
                for (n, _, _) in members {
                    copies.push_str(&format!(
                        "    tsh_out{k}[gl_InvocationID].{n} = tsh_in{k}[gl_InvocationID].{n};\n"
                    ));
                }
            }
        }
    }
    let level = |v: f32| format!("uintBitsToFloat({:#010x}u)", v.to_bits());
    let mut levels = String::new();
    for (i, v) in outer.iter().enumerate() {
        levels.push_str(&format!("    gl_TessLevelOuter[{i}] = {};\n", level(*v)));
    }
    for (i, v) in inner.iter().enumerate() {
        levels.push_str(&format!("    gl_TessLevelInner[{i}] = {};\n", level(*v)));
    }
    format!(
        "#version 400\nlayout(vertices = {vertices}) out;\n{decls}void main() {{\n    \
         gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n\
         {copies}{levels}}}\n"
    )
}

/// `source` with every whole identifier `from` (not a member access) replaced by `to`.
fn rename(source: &str, from: &str, to: &str) -> String {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    while let Some(found) = source[at..].find(from) {
        let start = at + found;
        let end = start + from.len();
        let before = start.checked_sub(1).map(|i| bytes[i]);
        let whole = before.is_none_or(|b| !ident(b) && b != b'.')
            && bytes.get(end).is_none_or(|b| !ident(*b));
        out.push_str(&source[at..start]);
        out.push_str(if whole { to } else { from });
        at = end;
    }
    out.push_str(&source[at..]);
    out
}

/// Links `req` (a program with an evaluation stage and no control stage, which links as it
/// is) with the default control stage for patches of `vertices` vertices and the default
/// levels `outer` and `inner`.
pub fn link(
    req: &LinkRequest<'_>,
    vertices: u32,
    outer: [f32; 4],
    inner: [f32; 2],
) -> Result<Program, String> {
    let alone = crate::link(req)?;
    let tes = alone
        .stages
        .iter()
        .find(|(s, _)| *s == Stage::TessEvaluation)
        .ok_or_else(|| "error: no tessellation evaluation stage\n".to_string())?;
    let inputs = inputs(&tes.1)?;
    let control = control_source(&inputs, vertices, outer, inner);
    let renamed: Vec<(Stage, String)> = req
        .shaders
        .iter()
        .map(|&(stage, text)| {
            let mut text = text.to_string();
            if stage == Stage::TessEvaluation {
                for i in &inputs {
                    text = rename(&text, &i.name, &format!("{}{SUFFIX}", i.name));
                }
            }
            (stage, text)
        })
        .chain(std::iter::once((Stage::TessControl, control)))
        .collect();
    let shaders: Vec<(Stage, &str)> = renamed.iter().map(|(s, t)| (*s, t.as_str())).collect();
    crate::link(&LinkRequest {
        shaders: &shaders,
        ..*req
    })
}

#[cfg(test)]
mod tests {
    use super::rename;

    #[test]
    fn renaming_replaces_whole_identifiers_only() {
        assert_eq!(
            rename("in vec3 c[]; c2 = c[0] + s.c + cc;", "c", "d"),
            "in vec3 d[]; c2 = d[0] + s.c + cc;"
        );
    }
}

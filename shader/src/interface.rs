//! Stage interfaces: vertex attributes, varyings and fragment outputs, numbered for the
//! whole program.
//!
//! GL numbers attributes and fragment outputs with its own precedence (explicit
//! `layout(location)`, then `glBindAttribLocation` / `glBindFragDataLocation*`, then the
//! lowest free locations) and matches varyings by name. glslang numbers per stage, so the
//! numbers chosen here are written into each stage's SPIR-V (see [`crate::spirv::Assign`]).

use crate::ffi::{Decl, PipeVar, decl};
use crate::gltype;
use crate::spirv::{Assign, Module, Type, Var, deco, storage};
use crate::{Stage, Variable};

/// A free-location allocator over `limit` locations.
struct Locations {
    used: Vec<bool>,
}

impl Locations {
    fn new(limit: u32) -> Self {
        Self {
            used: vec![false; limit as usize],
        }
    }

    fn fits(&self, at: u32, slots: u32) -> bool {
        (at as usize + slots as usize) <= self.used.len()
    }

    fn take(&mut self, at: u32, slots: u32) {
        for u in self.used.iter_mut().skip(at as usize).take(slots as usize) {
            *u = true;
        }
    }

    /// The lowest run of `slots` free locations, taken.
    fn lowest(&mut self, slots: u32) -> Option<u32> {
        let n = self.used.len() as u32;
        let at = (0..n)
            .find(|&at| self.fits(at, slots) && (at..at + slots).all(|l| !self.used[l as usize]))?;
        self.take(at, slots);
        Some(at)
    }
}

/// A user-defined (not built-in) stage input or output of one module.
struct Io {
    var: Var,
    /// Its type, or the type of one vertex's element where it is a per-vertex array.
    ty: u32,
    name: String,
    slots: u32,
    /// A vertex input of `dvec3`s or `dvec4`s (or matrices of such columns): each of its
    /// locations counts twice against `GL_MAX_VERTEX_ATTRIBS`.
    dual: bool,
    explicit: Option<u32>,
    index: Option<u32>,
    /// The components of its locations it takes: its `component` qualifier (GL 4.4) and its
    /// scalar or vector's width; every component for other types.
    components: std::ops::Range<u32>,
    used: bool,
}

/// `Decoration Component`.
const DECO_COMPONENT: u32 = 31;

/// The components of each location a value of `ty` takes from `first` (see
/// [`Io::components`]).
fn components(m: &Module, ty: u32, first: Option<u32>) -> std::ops::Range<u32> {
    let element = m.array(ty).map_or(ty, |(e, _)| e);
    let width = match m.ty(element) {
        Some(Type::Vector { component, count }) => match m.ty(*component) {
            Some(Type::Float { width: 64 }) => return 0..4,
            _ => *count,
        },
        Some(Type::Float { width: 64 }) => return 0..4,
        Some(Type::Float { .. } | Type::Int { .. } | Type::Bool) => 1,
        _ => return 0..4,
    };
    let first = first.unwrap_or(0);
    first..first + width
}

/// Whether `var`, an input or output (`class`) of a module of `stage`, is an array of one
/// element per vertex: the inputs of the geometry and tessellation stages and the outputs of
/// the tessellation control stage, but for `patch` ones.
fn per_vertex(m: &Module, stage: Stage, class: u32, var: &Var) -> bool {
    let arrayed = match stage {
        Stage::Geometry | Stage::TessEvaluation => class == storage::INPUT,
        Stage::TessControl => true,
        _ => false,
    };
    arrayed && m.decoration(var.id, deco::PATCH).is_none()
}

/// The user inputs or outputs of a module, in the order the source declares them (the
/// order GL's automatic numbering follows).
fn user_io(m: &Module, stage: Stage, class: u32, decls: &[Decl]) -> Vec<Io> {
    let order = |name: &str| {
        decls
            .iter()
            .position(|d| {
                d.stage == stage as u32 && d.output == (class == storage::OUTPUT) && d.name == name
            })
            .unwrap_or(usize::MAX)
    };
    let mut io: Vec<Io> = m
        .vars(class)
        .filter(|v| !m.is_builtin(v))
        .map(|v| {
            let per_vertex = per_vertex(m, stage, class, v);
            let ty = if per_vertex {
                m.array(v.ty).map_or(v.ty, |(e, _)| e)
            } else {
                v.ty
            };
            Io {
                var: *v,
                ty,
                name: m.interface_name(v, per_vertex).to_string(),
                slots: m.slots(ty).max(1),
                dual: false,
                explicit: m.decoration(v.id, deco::LOCATION),
                index: m.decoration(v.id, deco::INDEX),
                components: components(m, ty, m.decoration(v.id, DECO_COMPONENT)),
                used: m.is_used(v.id),
            }
        })
        .collect();
    io.sort_by_key(|v| order(&v.name));
    io
}

/// The GLSL spelling of a SPIR-V type, for link logs.
pub(crate) fn glsl_type(m: &Module, ty: u32) -> String {
    let scalar = |t: Option<&Type>| match t {
        Some(Type::Float { width: 64 }) => "d",
        Some(Type::Int { signed: true, .. }) => "i",
        Some(Type::Int { signed: false, .. }) => "u",
        Some(Type::Bool) => "b",
        _ => "",
    };
    match m.ty(ty) {
        Some(Type::Float { width: 64 }) => "double".into(),
        Some(Type::Float { .. }) => "float".into(),
        Some(Type::Int { signed: true, .. }) => "int".into(),
        Some(Type::Int { signed: false, .. }) => "uint".into(),
        Some(Type::Bool) => "bool".into(),
        Some(Type::Vector { component, count }) => {
            format!("{}vec{count}", scalar(m.ty(*component)))
        }
        Some(Type::Matrix { column, count }) => {
            let rows = match m.ty(*column) {
                Some(Type::Vector { count, .. }) => *count,
                _ => 0,
            };
            if rows == *count {
                format!("mat{count}")
            } else {
                format!("mat{count}x{rows}")
            }
        }
        Some(Type::Array { element, length }) => format!("{}[{length}]", glsl_type(m, *element)),
        Some(Type::Struct { .. }) => m.name(ty).to_string(),
        _ => "?".into(),
    }
}

/// What the interface assignment produced.
pub(crate) struct Interfaces {
    /// Active attributes with their locations (built-ins at -1).
    pub attributes: Vec<Variable>,
    /// Active fragment outputs with their locations and indices.
    pub outputs: Vec<Variable>,
    /// Locations of active attributes, bit per location.
    pub attribute_mask: u16,
    /// Decorations per module (index as in the `modules` argument).
    pub assigns: Vec<Vec<Assign>>,
    /// Unused variables to drop from each module's entry point interface.
    pub unlisted: Vec<Vec<u32>>,
    /// Warnings for the link log.
    pub warnings: String,
}

/// Numbers the interfaces of the linked stages (`modules`, in pipeline order).
pub(crate) fn assign(
    modules: &[(Stage, Module)],
    inputs: &[PipeVar],
    outputs: &[PipeVar],
    attrib_bindings: &[(String, u32)],
    frag_data_bindings: &[(String, u32, u32)],
    decls: &[Decl],
    limits: &crate::Limits,
) -> Result<Interfaces, String> {
    let mut out = Interfaces {
        attributes: Vec::new(),
        outputs: Vec::new(),
        attribute_mask: 0,
        assigns: vec![Vec::new(); modules.len()],
        unlisted: vec![Vec::new(); modules.len()],
        warnings: String::new(),
    };
    for (i, (stage, m)) in modules.iter().enumerate() {
        if *stage == Stage::Vertex {
            // A vertex input takes a location per vector, a `dvec3` or `dvec4` too, unlike
            // SPIR-V (and GL's varyings), where those take two: the Vulkan backend fetches
            // their second halves at locations of its own.
            let mut io = user_io(m, *stage, storage::INPUT, decls);
            for v in &mut io {
                let slots = m.attribute_slots(v.ty).max(1);
                v.dual = m.slots(v.ty) > slots;
                v.slots = slots;
            }
            attributes(io, inputs, attrib_bindings, limits, &mut out, i)?;
        }
        if *stage == Stage::Fragment {
            let io = user_io(m, *stage, storage::OUTPUT, decls);
            fragment_outputs(io, outputs, frag_data_bindings, limits, &mut out, i)?;
        }
    }
    for i in 1..modules.len() {
        varyings(modules, i - 1, i, decls, &mut out)?;
    }
    if let Some((stage, m)) = modules.first()
        && *stage != Stage::Vertex
    {
        // A pipeline without a vertex stage: the first stage's inputs read undefined values.
        let io = user_io(m, *stage, storage::INPUT, decls);
        orphans(io, &mut out, 0);
    }
    if let Some((stage, m)) = modules.last()
        && *stage != Stage::Fragment
    {
        let io = user_io(m, *stage, storage::OUTPUT, decls);
        orphans(io, &mut out, modules.len() - 1);
    }
    Ok(out)
}

/// Gives locations to the unmatched inputs or outputs at the ends of the pipeline:
/// explicit ones keep theirs, the others take the lowest free ones in the order of their
/// names, used or not, as Mesa numbers them. The end of a pipeline is where a separable
/// program meets the stages of another program (GL 4.1 program pipelines), whose interface
/// matches by location, or by name where both sides declare the same variables (GL 4.1
/// §7.4.1): both programs number the same names alike, whatever order each declares them in.
fn orphans(mut io: Vec<Io>, out: &mut Interfaces, at: usize) {
    let mut locs = Locations::new(64);
    for v in &io {
        if let Some(l) = v.explicit {
            locs.take(l, v.slots);
        }
    }
    io.sort_by(|a, b| a.name.cmp(&b.name));
    for v in io {
        let location = v.explicit.or_else(|| locs.lowest(v.slots)).unwrap_or(0);
        if !v.used {
            out.unlisted[at].push(v.var.id);
            continue;
        }
        out.assigns[at].push(Assign {
            id: v.var.id,
            location: Some(location),
            ..Assign::default()
        });
    }
}

fn attributes(
    io: Vec<Io>,
    active: &[PipeVar],
    bindings: &[(String, u32)],
    limits: &crate::Limits,
    out: &mut Interfaces,
    at: usize,
) -> Result<(), String> {
    let limit = limits.max_vertex_attribs.max(0) as u32;
    let mut locs = Locations::new(limit);
    let mut chosen: Vec<Option<u32>> = vec![None; io.len()];
    // Explicit locations first, then bound ones: both are taken as given (GL lets bound
    // attributes alias).
    for (v, c) in io.iter().zip(chosen.iter_mut()) {
        let bound = bindings
            .iter()
            .rev()
            .find(|(n, _)| *n == v.name)
            .map(|b| b.1);
        if let Some(l) = v.explicit.or(bound) {
            if !locs.fits(l, v.slots) {
                return Err(format!(
                    "error: invalid explicit location {l} specified for `{}'\n",
                    v.name
                ));
            }
            locs.take(l, v.slots);
            *c = Some(l);
        }
    }
    let is_active = |name: &str| active.iter().any(|a| a.name == name);
    // Then the active ones, largest first, each at the lowest run that fits.
    let mut order: Vec<usize> = (0..io.len())
        .filter(|&i| chosen[i].is_none() && is_active(&io[i].name))
        .collect();
    order.sort_by_key(|&i| std::cmp::Reverse(io[i].slots));
    for i in order {
        chosen[i] = Some(locs.lowest(io[i].slots).ok_or_else(|| {
            format!(
                "error: insufficient contiguous locations available for vertex shader input \
                 `{}'\n",
                io[i].name
            )
        })?);
    }
    // As Mesa: the active inputs' locations, those of dvec3s and dvec4s counted twice, must
    // fit in the limit.
    let (mut used, mut dual) = (0u64, 0u64);
    for (v, c) in io.iter().zip(&chosen) {
        if let Some(l) = c.filter(|_| is_active(&v.name)) {
            let mask = ((1u64 << v.slots.min(32)) - 1) << l.min(32);
            used |= mask;
            if v.dual {
                dual |= mask;
            }
        }
    }
    let total = used.count_ones() + dual.count_ones();
    if total > limit {
        return Err(format!(
            "error: attempt to use {total} vertex attribute slots only {limit} available \n"
        ));
    }
    for (v, c) in io.iter().zip(&chosen) {
        let location = match c {
            Some(l) => Some(*l),
            // Inactive but referenced (dead code glslang kept): any free location will do.
            None if v.used => locs.lowest(v.slots),
            None => None,
        };
        match location {
            Some(l) => out.assigns[at].push(Assign {
                id: v.var.id,
                location: Some(l),
                ..Assign::default()
            }),
            None => out.unlisted[at].push(v.var.id),
        }
    }
    for a in active {
        let builtin = match a.name.as_str() {
            "gl_VertexIndex" => Some("gl_VertexID"),
            "gl_InstanceIndex" => Some("gl_InstanceID"),
            n if n.starts_with("gl_") => Some(n),
            _ => None,
        };
        let location = match builtin {
            Some(_) => -1,
            None => io
                .iter()
                .zip(&chosen)
                .find(|(v, _)| v.name == a.name)
                .and_then(|(_, c)| *c)
                .map_or(-1, |l| l as i32),
        };
        if location >= 0 {
            let slots = gltype::attribute_slots(a.gl_type) * a.size.max(1) as u32;
            for l in location as u32..(location as u32 + slots).min(16) {
                out.attribute_mask |= 1 << l;
            }
        }
        let component = io
            .iter()
            .find(|v| builtin.is_none() && v.name == a.name)
            .map_or(0, |v| v.components.start as i32);
        out.attributes.push(Variable {
            name: builtin.unwrap_or(&a.name).to_string(),
            ty: a.gl_type,
            size: a.size.max(1),
            location,
            index: 0,
            component,
        });
    }
    Ok(())
}

fn fragment_outputs(
    io: Vec<Io>,
    active: &[PipeVar],
    bindings: &[(String, u32, u32)],
    limits: &crate::Limits,
    out: &mut Interfaces,
    at: usize,
) -> Result<(), String> {
    let limit = limits.max_draw_buffers.max(0) as u32;
    // Index 0 and index 1 (dual-source) outputs have separate location spaces.
    let mut locs = [Locations::new(limit), Locations::new(limit)];
    let mut chosen: Vec<Option<(u32, u32)>> = vec![None; io.len()];
    for i in 0..io.len() {
        let v = &io[i];
        let bound = bindings
            .iter()
            .rev()
            .find(|(n, _, _)| *n == v.name)
            .map(|b| (b.1, b.2));
        let given = match v.explicit {
            Some(l) => Some((l, v.index.unwrap_or(0))),
            None => bound,
        };
        if let Some((l, index)) = given {
            let space = &mut locs[(index as usize).min(1)];
            if index > 1 || !space.fits(l, v.slots) || (index == 1 && l != 0) {
                return Err(format!(
                    "error: invalid explicit location {l} specified for `{}'\n",
                    v.name
                ));
            }
            // Two written outputs at one location and index, in one component (glslang has
            // refused explicit collisions already; bound ones meet here; GL 4.4's component
            // qualifiers share a location). Mesa's wording.
            let overlapping = io[..i].iter().zip(&chosen).find(|(o, c)| {
                c.is_some_and(|(ol, oi)| oi == index && ol < l + v.slots && l < ol + o.slots)
                    && o.components.start < v.components.end
                    && v.components.start < o.components.end
                    && o.used
                    && v.used
            });
            if let Some((o, _)) = overlapping {
                return Err(format!(
                    "error: overlapping component is assigned to fragment shader outputs {} \
                     and {} (component=0)\n",
                    o.name, v.name
                ));
            }
            space.take(l, v.slots);
            chosen[i] = Some((l, index));
        }
    }
    let is_active = |name: &str| active.iter().any(|a| a.name == name);
    // Like Mesa: the largest outputs first, then declaration order.
    let mut order: Vec<usize> = (0..io.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(io[i].slots));
    for i in order {
        let (v, c) = (&io[i], &mut chosen[i]);
        if c.is_none() && (is_active(&v.name) || v.used) {
            let l = locs[0].lowest(v.slots).ok_or_else(|| {
                format!(
                    "error: insufficient contiguous locations available for fragment shader \
                     output `{}'\n",
                    v.name
                )
            })?;
            *c = Some((l, 0));
        }
    }
    for (v, c) in io.iter().zip(&chosen) {
        match c {
            Some((l, index)) => out.assigns[at].push(Assign {
                id: v.var.id,
                location: Some(*l),
                index: Some(*index),
                ..Assign::default()
            }),
            None => out.unlisted[at].push(v.var.id),
        }
    }
    // The stand-ins for gl_FragColor and gl_FragData are built-ins to GL too.
    let builtin =
        |n: &str| n.starts_with("gl_") || n.starts_with(crate::late_extensions::STAND_IN_PREFIX);
    for a in active.iter().filter(|a| !builtin(&a.name)) {
        let (location, index) = io
            .iter()
            .zip(&chosen)
            .find(|(v, _)| v.name == a.name)
            .and_then(|(_, c)| *c)
            .map_or((-1, 0), |(l, i)| (l as i32, i as i32));
        let component = io
            .iter()
            .find(|v| v.name == a.name)
            .map_or(0, |v| v.components.start as i32);
        out.outputs.push(Variable {
            name: a.name.clone(),
            ty: a.gl_type,
            size: a.size.max(1),
            location,
            index,
            component,
        });
    }
    Ok(())
}

fn stage_word(s: Stage) -> &'static str {
    match s {
        Stage::Vertex => "vertex",
        Stage::Geometry => "geometry",
        Stage::Fragment => "fragment",
        Stage::Compute => "compute",
        Stage::TessControl => "tessellation control",
        Stage::TessEvaluation => "tessellation evaluation",
    }
}

/// Checks that a varying `name` output by stage `ps` and input by stage `cs` has the same
/// invariance (required before GLSL 4.20) and interpolation qualifiers (before 4.40) at
/// both ends, judged by the program's highest version as Mesa does. Interface blocks are not
/// checked. Mesa also tells no qualifier from `smooth`; glslang does not (it gives vertex
/// outputs and fragment inputs without one `smooth`), so here they are the same.
fn matching_qualifiers(decls: &[Decl], ps: Stage, cs: Stage, name: &str) -> Result<(), String> {
    let find = |stage: Stage, output: bool| {
        decls
            .iter()
            .find(|d| d.stage == stage as u32 && d.output == output && d.name == name)
    };
    let (Some(o), Some(i)) = (find(ps, true), find(cs, false)) else {
        return Ok(());
    };
    if (o.qualifiers | i.qualifiers) & decl::BLOCK != 0 {
        return Ok(());
    }
    let version = decls.iter().map(|d| d.version).max().unwrap_or(0);
    let (p_word, c_word) = (stage_word(ps), stage_word(cs));
    let invariant = |d: &Decl| d.qualifiers & decl::INVARIANT != 0;
    if version < 420 && invariant(o) != invariant(i) {
        let has = |d: &Decl| if invariant(d) { "has" } else { "lacks" };
        return Err(format!(
            "error: {p_word} shader output `{name}' {} invariant qualifier, but {c_word} shader \
             input {} invariant qualifier\n",
            has(o),
            has(i)
        ));
    }
    let interpolation =
        |d: &Decl| match d.qualifiers & (decl::SMOOTH | decl::FLAT | decl::NO_PERSPECTIVE) {
            decl::SMOOTH => "smooth",
            decl::FLAT => "flat",
            decl::NO_PERSPECTIVE => "noperspective",
            _ => "no",
        };
    let kind = |d: &Decl| d.qualifiers & (decl::FLAT | decl::NO_PERSPECTIVE);
    if version < 440 && kind(o) != kind(i) {
        return Err(format!(
            "error: {p_word} shader output `{name}' specifies {} interpolation qualifier, but \
             {c_word} shader input specifies {} interpolation qualifier\n",
            interpolation(o),
            interpolation(i)
        ));
    }
    Ok(())
}

/// Whether an output and an input of consecutive stages are one variable: the same name,
/// unless both carry explicit locations that differ (GL 4.1 §7.4.1: variables declared with
/// locations match by location, so such a pair are two variables).
/// Whether the scalars of `ty` are integers, and their bits (GL's "underlying numerical
/// type" of a varying).
fn numeric_type(m: &Module, mut ty: u32) -> Option<(bool, u32)> {
    loop {
        ty = match m.ty(ty)? {
            Type::Vector { component, .. } => *component,
            Type::Matrix { column, .. } => *column,
            Type::Int { width, .. } => return Some((true, *width)),
            Type::Float { width } => return Some((false, *width)),
            Type::Bool => return Some((true, 32)),
            _ => m.array(ty)?.0,
        };
    }
}

/// Checks that the varyings of one side of an interface (`io`, the `way` ("in" or "out")
/// of `stage`) that share a location by GL 4.4 components, in components of their own,
/// have one underlying numerical type: integer or floating-point, of one bit width
/// (GLSL 4.50 §4.4.1, "Location aliasing"), with Mesa's link error. Overlapping components
/// are glslang's error already.
fn location_aliases(m: &Module, stage: Stage, way: &str, io: &[Io]) -> Result<(), String> {
    for (k, a) in io.iter().enumerate() {
        let Some(at) = a.explicit else { continue };
        for b in &io[..k] {
            let Some(bt) = b.explicit else { continue };
            let shared = at.max(bt);
            if shared >= (at + a.slots).min(bt + b.slots) {
                continue;
            }
            let (ta, tb) = (numeric_type(m, a.ty), numeric_type(m, b.ty));
            let (Some((ia, wa)), Some((ib, wb))) = (ta, tb) else {
                continue;
            };
            let what = if ia != ib {
                "type"
            } else if wa != wb {
                "bit size"
            } else {
                continue;
            };
            return Err(format!(
                "error: {} shader has multiple {way}puts sharing the same location that \
                 don't have the same underlying numerical {what}. Location {shared} \
                 component {}.\n",
                stage_word(stage),
                a.components.start
            ));
        }
    }
    Ok(())
}

fn same_variable(output: &Io, input: &Io) -> bool {
    output.name == input.name
        && !matches!((output.explicit, input.explicit), (Some(a), Some(b)) if a != b)
}

/// Matches the outputs of `modules[p]` with the inputs of `modules[c]` by name and gives
/// both ends the same locations.
fn varyings(
    modules: &[(Stage, Module)],
    p: usize,
    c: usize,
    decls: &[Decl],
    out: &mut Interfaces,
) -> Result<(), String> {
    let (ps, pm) = (&modules[p].0, &modules[p].1);
    let (cs, cm) = (&modules[c].0, &modules[c].1);
    let produced = user_io(pm, *ps, storage::OUTPUT, decls);
    let consumed = user_io(cm, *cs, storage::INPUT, decls);
    location_aliases(pm, *ps, "out", &produced)?;
    location_aliases(cm, *cs, "in", &consumed)?;
    let mut locs = Locations::new(64);
    for v in produced.iter().chain(consumed.iter()) {
        if let Some(l) = v.explicit {
            locs.take(l, v.slots);
        }
    }
    let mut produced_at: Vec<Option<u32>> = produced.iter().map(|v| v.explicit).collect();
    for input in &consumed {
        let Some(k) = produced.iter().position(|o| same_variable(o, input)) else {
            // One with a location may be written at its location under another name.
            if input.used && input.explicit.is_none() {
                out.warnings.push_str(&format!(
                    "warning: {} shader varying {} not written by {} shader\n",
                    stage_word(*cs),
                    input.name,
                    stage_word(*ps)
                ));
            }
            continue;
        };
        let output = &produced[k];
        let (ot, it) = (pm.signature(output.ty), cm.signature(input.ty));
        if ot != it {
            return Err(format!(
                "error: {} shader output `{}' declared as type `{}', but {} shader input \
                 declared as type `{}'\n",
                stage_word(*ps),
                output.name,
                glsl_type(pm, output.ty),
                stage_word(*cs),
                glsl_type(cm, input.ty)
            ));
        }
        matching_qualifiers(decls, *ps, *cs, &output.name)?;
        if produced_at[k].is_none() {
            produced_at[k] = input.explicit.or_else(|| locs.lowest(output.slots));
        }
    }
    for (v, at) in produced.iter().zip(produced_at.iter_mut()) {
        if at.is_none() && v.used {
            *at = locs.lowest(v.slots);
        }
        match at {
            Some(l) => out.assigns[p].push(Assign {
                id: v.var.id,
                location: Some(*l),
                ..Assign::default()
            }),
            None => out.unlisted[p].push(v.var.id),
        }
    }
    for input in consumed {
        let matched = produced
            .iter()
            .zip(&produced_at)
            .find(|(o, _)| same_variable(o, &input))
            .and_then(|(_, l)| *l);
        let location = matched.or(input.explicit).or_else(|| {
            if input.used {
                locs.lowest(input.slots)
            } else {
                None
            }
        });
        match location {
            Some(l) => out.assigns[c].push(Assign {
                id: input.var.id,
                location: Some(l),
                ..Assign::default()
            }),
            None => out.unlisted[c].push(input.var.id),
        }
    }
    Ok(())
}

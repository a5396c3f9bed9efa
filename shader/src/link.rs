//! Linking: glslang links and reflects, then the program's uniforms, blocks and descriptor
//! bindings are laid out in GL terms and written into the SPIR-V.
//!
//! Uniform names, types and array sizes come from the declared block types (glslang's
//! reflection misnames arrays of structs and skips unused blocks that GL calls active);
//! offsets and strides come from the SPIR-V itself, so what the application writes is where
//! the shader reads; which default-block uniforms and samplers are active, and the stages
//! that use each block, come from glslang's reflection.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::ffi::{self, DeclaredBlock, Leaf, LinkResult};
use crate::gltype::{self, Base};
use crate::spirv::{Assign, Module, Type, deco, storage};
use crate::{
    Block, BufferVariable, Geometry, INACTIVE_LOCATION, Image, LinkRequest, Program, Sampler,
    Stage, StorageBlock, Uniform,
};
use crate::{
    atomic_counter, buffer_variable, dynamic_index, frag_coord, interface, pixel_center,
    point_size, rectangle, resource_arrays, shared_io, source, subroutine, vertex_arrays, xfb,
};

/// glslang's name for the block that holds loose uniforms.
const DEFAULT_BLOCK: &str = "gl_DefaultUniformBlock";

/// `MAX_UNIFORM_LOCATIONS`: native llvmpipe's (Mesa's sum of the five graphics stages'
/// uniform components).
pub const MAX_UNIFORM_LOCATIONS: i32 = 81920;

/// Bytes of the hidden slot at the end of the default block: a `vec4` whose first
/// component is the fixed point size (see `point_size.rs`).
const HIDDEN_SLOT: u32 = 16;

/// `GL_POINTS`, a geometry stage's output primitive.
const POINTS: u32 = 0;

/// Where a leaf lives in its block.
#[derive(Clone, Copy, Debug, Default)]
struct Layout {
    offset: u32,
    array_stride: u32,
    matrix_stride: u32,
    row_major: bool,
}

/// The struct type of a block in a module, and the block's variable.
fn find_block(m: &Module, name: &str) -> Option<(u32, u32)> {
    m.vars(storage::UNIFORM).find_map(|v| {
        let st = m.strip_arrays(v.ty);
        (m.name(st) == name && matches!(m.ty(st), Some(Type::Struct { .. }))).then_some((st, v.id))
    })
}

/// Follows a leaf's path from its block's struct type.
fn resolve(m: &Module, block: u32, leaf: &Leaf) -> Option<Layout> {
    let mut ty = block;
    let mut offset = 0;
    let mut member = None;
    for &p in &leaf.path {
        match m.ty(ty)? {
            Type::Struct { members } => {
                offset += m.member_decoration(ty, p, deco::OFFSET)?;
                member = Some((ty, p));
                ty = *members.get(p as usize)?;
            }
            Type::Array { element, .. } => {
                offset += p * m.decoration(ty, deco::ARRAY_STRIDE)?;
                ty = *element;
            }
            _ => return None,
        }
    }
    let (st, index) = member?;
    let matrix = leaf.columns > 0;
    Some(Layout {
        offset,
        array_stride: if leaf.array > 0 {
            m.decoration(ty, deco::ARRAY_STRIDE).unwrap_or(0)
        } else {
            0
        },
        matrix_stride: if matrix {
            m.member_decoration(st, index, deco::MATRIX_STRIDE)
                .unwrap_or(16)
        } else {
            0
        },
        row_major: matrix && m.member_decoration(st, index, deco::ROW_MAJOR).is_some(),
    })
}

/// The GL type of a leaf.
fn leaf_type(leaf: &Leaf) -> Option<u32> {
    let base = match leaf.basic {
        0 => Base::Float,
        1 => Base::Double,
        2 => Base::Int,
        3 => Base::Uint,
        4 => Base::Bool,
        _ => return None,
    };
    let columns = if leaf.columns > 0 { leaf.columns } else { 1 };
    gltype::from_parts(
        base,
        leaf.vector.clamp(1, 4) as u8,
        columns.clamp(1, 4) as u8,
    )
}

/// Bytes from a leaf's offset to the end of its last element.
fn leaf_extent(ty: u32, size: i32, l: &Layout) -> u32 {
    let Some(info) = gltype::info(ty) else {
        return 0;
    };
    let scalar = info.scalar_bytes() as u32;
    let element = if info.is_matrix() {
        let (vectors, length) = if l.row_major {
            (info.rows, info.columns)
        } else {
            (info.columns, info.rows)
        };
        (u32::from(vectors) - 1) * l.matrix_stride + u32::from(length) * scalar
    } else {
        u32::from(info.rows) * scalar
    };
    (size.max(1) as u32 - 1) * l.array_stride + element
}

/// Writes a leaf's initial value into the default block.
fn initialize(block: &mut [u8], leaf: &Leaf, lay: &Layout, values: &[u64]) {
    let Some(info) = leaf_type(leaf).and_then(gltype::info) else {
        return;
    };
    let scalar = info.scalar_bytes();
    let (columns, rows) = (usize::from(info.columns), usize::from(info.rows));
    let mut values = values.iter();
    for e in 0..leaf.array.max(1) as usize {
        for c in 0..columns {
            for r in 0..rows {
                let Some(v) = values.next() else { return };
                let at = lay.offset as usize
                    + e * lay.array_stride as usize
                    + c * lay.matrix_stride as usize
                    + r * scalar;
                // Native byte order: std140's little-endian on Tessera's targets.
                let word = *v as u32;
                let bytes = match scalar {
                    8 => bytemuck::bytes_of(v),
                    _ => bytemuck::bytes_of(&word),
                };
                if let Some(dst) = block.get_mut(at..at + bytes.len()) {
                    dst.copy_from_slice(bytes);
                }
            }
        }
    }
}

/// The top-level member a uniform name starts with (`ls` of `ls[1].dir`).
fn top_name(name: &str) -> &str {
    let end = name.find(['.', '[']).unwrap_or(name.len());
    &name[..end]
}

fn stage_bits(glslang_stages: u32) -> u8 {
    let mut bits = 0;
    for s in Stage::PIPELINE_ORDER {
        if glslang_stages & ffi::stage_bit(s) != 0 {
            bits |= 1 << s as u8;
        }
    }
    bits
}

fn round16(v: u32) -> u32 {
    v.div_ceil(16) * 16
}

/// Links a program.
pub(crate) fn link(req: &LinkRequest<'_>) -> Result<Program, String> {
    if req.shaders.is_empty() {
        return Err("error: no shaders attached to the program\n".into());
    }
    // GLSL 1.50 §2.12 (GL 3.2 §2.12): a geometry shader needs a vertex shader to feed it,
    // but for a separable program's, which a pipeline feeds (GL 4.1 §7.4).
    let has = |stage| req.shaders.iter().any(|(s, _)| *s == stage);
    if has(Stage::Geometry) && !has(Stage::Vertex) && !req.separable {
        return Err("error: Geometry shader must be linked with vertex shader\n".into());
    }
    // GL 4.0 §2.14.2: the tessellation stages need a vertex shader too, and, as Mesa has
    // it (the specification's text allows a control stage alone, which nothing could draw),
    // a control stage needs an evaluation stage; none of this binds a separable program.
    if has(Stage::TessControl) && !has(Stage::Vertex) && !req.separable {
        return Err(
            "error: Tessellation control shader must be linked with vertex shader\n".into(),
        );
    }
    if has(Stage::TessEvaluation) && !has(Stage::Vertex) && !req.separable {
        return Err(
            "error: Tessellation evaluation shader must be linked with vertex shader\n".into(),
        );
    }
    if has(Stage::TessControl) && !has(Stage::TessEvaluation) && !req.separable {
        return Err(
            "error: Tessellation control shader must be linked with tessellation evaluation \
             shader\n"
                .into(),
        );
    }
    // GL 4.3 §7.3: a program with a compute shader may hold no other stage.
    if has(Stage::Compute) && req.shaders.iter().any(|(s, _)| *s != Stage::Compute) {
        return Err(
            "error: Compute shaders may not be linked with any other type of shader\n".into(),
        );
    }
    // gl_FragCoord redeclarations across fragment shaders: GL's rule, then, with several
    // fragment shaders, the redeclaration in the preamble of each (see frag_coord.rs).
    let fragments: Vec<_> = req
        .shaders
        .iter()
        .filter(|(s, _)| *s == Stage::Fragment)
        .map(|(_, t)| frag_coord::usage(t))
        .collect();
    let frag_coord = frag_coord::check_link(&fragments)?.filter(|_| fragments.len() > 1);
    // Unsized geometry inputs take their size from the program's input primitive, which
    // one geometry shader object may declare for all (GLSL 1.50 §4.3.8.1); glslang sizes
    // them per object, so the objects without the layout get it at their end (no line
    // moves).
    let geometry = req.shaders.iter().filter(|(s, _)| *s == Stage::Geometry);
    let primitive = (geometry.clone().count() > 1)
        .then(|| {
            geometry
                .clone()
                .find_map(|(_, t)| source::geometry_input_primitive(t))
        })
        .flatten();
    let texts: Vec<(Stage, Cow<'_, str>)> = req
        .shaders
        .iter()
        .map(|&(s, t)| match (s, frag_coord, primitive) {
            (Stage::Fragment, Some(_), _) => (s, frag_coord::drop_all(t)),
            (Stage::Geometry, _, Some(p)) if source::geometry_input_primitive(t).is_none() => {
                (s, Cow::Owned(format!("{t}\nlayout({p}) in;\n")))
            }
            _ => (s, Cow::Borrowed(t)),
        })
        .collect();
    let shaders: Vec<(Stage, &str)> = texts.iter().map(|(s, t)| (*s, t.as_ref())).collect();
    let flags: Vec<u32> = texts
        .iter()
        .map(|(s, _)| match frag_coord {
            Some(q) if *s == Stage::Fragment && q.origin_upper_left => {
                frag_coord::FLAG_ORIGIN_UPPER_LEFT
            }
            _ => 0,
        })
        .collect();
    let integer_centers = frag_coord.is_some_and(|q| q.pixel_center_integer);
    let r = ffi::link(&shaders, &flags, &req.limits).map_err(|log| {
        let log = crate::log::from_glslang(&log);
        if log.is_empty() {
            "error: linking failed\n".to_string()
        } else {
            log
        }
    })?;
    // GLSL 4.30 §4.4.1.1: one of the compute shaders must declare the local size.
    let local_size = has(Stage::Compute)
        .then(|| r.local_size.map(|n| n.max(0) as u32))
        .filter(|n| n.iter().all(|&d| d > 0));
    if has(Stage::Compute) && local_size.is_none() {
        return Err("error: compute shader must contain a fixed local group size\n".into());
    }
    let mut modules: Vec<(Stage, Module)> = Vec::new();
    for stage in Stage::PIPELINE_ORDER {
        if let Some(mut words) = r.spirv[stage as usize].clone() {
            if shaders.iter().filter(|(s, _)| *s == stage).count() > 1 {
                words = shared_io::merge(&words)
                    .map_err(|_| "error: internal error: a SPIR-V pass failed\n")?;
            }
            let m = Module::parse(words)
                .map_err(|_| "error: internal error: glslang produced malformed SPIR-V\n")?;
            modules.push((stage, m));
        }
    }
    let io = interface::assign(
        &modules,
        &r.inputs,
        &r.outputs,
        req.attrib_bindings,
        req.frag_data_bindings,
        &r.decls,
        &req.limits,
    )?;
    let mut layout = uniforms(&r, &modules, req.shaders)?;
    (layout.storage_blocks, layout.buffer_variables) = storage_blocks(&r, &modules);
    let (atomic_counters, atomic_buffers) = atomic_counters(req.shaders)?;
    let subroutines = subroutines(req.shaders, &layout.selectors)?;
    let mut assigns = io.assigns;
    if layout.images.len() > MAX_COMBINED_IMAGE_UNIFORMS {
        return Err("error: Too many combined image uniforms\n".into());
    }
    bind_resources(&r, &modules, &mut layout, &atomic_buffers, &mut assigns)?;
    let geometry = modules
        .iter()
        .any(|(s, _)| *s == Stage::Geometry)
        .then(|| Geometry {
            vertices_out: r.geometry[0],
            input: r.geometry[1] as u32,
            output: r.geometry[2] as u32,
            invocations: r.geometry[3],
        });
    let tess_control_vertices = has(Stage::TessControl).then_some(r.tess[0]);
    let tess_gen = has(Stage::TessEvaluation)
        .then(|| tess_gen(&r.tess))
        .transpose()?;
    let malformed = |_| "error: internal error: a SPIR-V pass failed\n".to_string();
    // The stage whose PointSize rasterization uses, if it can draw points: the geometry
    // stage when there is one (and it emits points), else the tessellation evaluation
    // stage (it draws points in point mode, and lines or triangles take no size), else the
    // vertex stage.
    let sizes_points = match (geometry, tess_gen) {
        (Some(g), _) => (g.output == POINTS).then_some(Stage::Geometry),
        (None, Some(_)) => Some(Stage::TessEvaluation),
        (None, None) => Some(Stage::Vertex),
    };
    let hidden_offset = layout.default_block.len() as u32;
    let mut stages = Vec::with_capacity(modules.len());
    let mut sized = false;
    for ((s, m), (a, u)) in modules.iter().zip(assigns.iter().zip(&io.unlisted)) {
        let mut words = m.patch(a, u);
        words = resource_arrays::flatten(&words).map_err(malformed)?;
        words = dynamic_index::lower(&words).map_err(malformed)?;
        if rectangle::uses_rectangles(&words) {
            words = rectangle::patch(&words).map_err(malformed)?;
        }
        if *s == Stage::Fragment && (integer_centers || pixel_center::uses_integer_centers(&words))
        {
            words = pixel_center::patch(&words).map_err(malformed)?;
        }
        if *s == Stage::Vertex {
            words = vertex_arrays::split(&words).map_err(malformed)?;
        }
        if sizes_points == Some(*s) {
            words = point_size::patch(&words, hidden_offset).map_err(malformed)?;
            sized = true;
        }
        stages.push((*s, words));
    }
    // Transform feedback captures from the last stage before rasterization: what its own
    // xfb qualifiers declare (GL 4.4), else the varyings the program names.
    let mut captured = xfb::Xfb::default();
    if let Some((_, words)) = stages.iter_mut().rev().find(|(s, _)| *s != Stage::Fragment) {
        let layout = if xfb::declares(words) {
            Some(xfb::declared_layout(words)?)
        } else if !req.xfb_varyings.is_empty() {
            Some(xfb::capture(words, req.xfb_varyings, req.xfb_separate)?)
        } else {
            None
        };
        if let Some((patched, x)) = layout {
            *words = patched;
            captured = x;
        }
    }
    // The hidden slot ends every default block (see Program::default_block_size).
    let mut default_block = layout.default_block;
    if sized || !default_block.is_empty() {
        default_block.resize(default_block.len() + HIDDEN_SLOT as usize, 0);
    }
    let mut log = crate::log::from_glslang(&r.log);
    log.push_str(&io.warnings);
    Ok(Program {
        uniforms: layout.uniforms,
        locations: layout.locations,
        blocks: layout.blocks,
        attributes: io.attributes,
        attribute_mask: io.attribute_mask,
        outputs: io.outputs,
        default_block_size: default_block.len() as u32,
        depth_range_offset: layout.depth_range,
        num_samples_offset: layout.num_samples,
        default_block,
        samplers: layout.samplers,
        images: layout.images,
        storage_blocks: layout.storage_blocks,
        buffer_variables: layout.buffer_variables,
        atomic_counters,
        atomic_buffers,
        local_size,
        stages,
        geometry,
        tess_control_vertices,
        tess_gen,
        xfb: captured,
        subroutines,
        log,
    })
}

/// Each stage's subroutines (`subroutine.rs`), from the shader of the stage that declares
/// some, with their selectors' places in the default block (`selectors`: name, offset,
/// stride).
fn subroutines(
    shaders: &[(Stage, &str)],
    selectors: &[(String, u32, u32)],
) -> Result<Vec<crate::StageSubroutines>, String> {
    let mut out = Vec::new();
    for stage in Stage::PIPELINE_ORDER {
        let mut found = None;
        for (s, text) in shaders {
            if *s != stage {
                continue;
            }
            let d = subroutine::declared(stage, text)?;
            if !d.is_empty() && found.is_none() {
                found = Some(d);
            }
        }
        let Some(d) = found else { continue };
        out.push(crate::StageSubroutines {
            stage,
            functions: d
                .functions
                .iter()
                .map(|f| crate::SubroutineFunction {
                    name: f.name.clone(),
                    index: f.index,
                    types: f.types.iter().map(|&t| t as u32).collect(),
                })
                .collect(),
            uniforms: d
                .uniforms
                .iter()
                .map(|u| {
                    let name = subroutine::selector(stage, &u.name);
                    let place = selectors.iter().find(|(n, _, _)| *n == name);
                    crate::SubroutineUniform {
                        name: u.name.clone(),
                        array: u.array.is_some(),
                        ty: u.ty as u32,
                        size: u.array.unwrap_or(1),
                        location: u.location,
                        offset: place.map(|p| p.1),
                        stride: place.map_or(0, |p| p.2),
                    }
                })
                .collect(),
            locations: d.locations,
        });
    }
    Ok(out)
}

/// `GL_EQUAL` and `GL_CCW`, what an evaluation stage generates where it names no spacing or
/// vertex order.
const EQUAL: u32 = 0x0202;
const CCW: u32 = 0x0901;

/// The evaluation stage's layout (`tess` as [`LinkResult::tess`] holds it) in GL's terms;
/// `Err` when it names no primitive mode, which GL 4.0 §2.14.2 makes a link error.
fn tess_gen(tess: &[i32; 5]) -> Result<crate::TessGen, String> {
    if tess[1] == 0 {
        return Err(
            "error: tessellation evaluation shader didn't declare input primitive modes.\n".into(),
        );
    }
    let or = |v: i32, default| if v == 0 { default } else { v as u32 };
    Ok(crate::TessGen {
        mode: tess[1] as u32,
        spacing: or(tess[2], EQUAL),
        vertex_order: or(tess[3], CCW),
        point_mode: tess[4] != 0,
    })
}

/// Image uniforms (array elements counted) a program may have in all its stages:
/// `MAX_COMBINED_IMAGE_UNIFORMS`, llvmpipe's 192, the wire's image slots.
const MAX_COMBINED_IMAGE_UNIFORMS: usize = 192;

/// The uniform layout of a program, before the descriptor bindings are written.
struct UniformLayout {
    uniforms: Vec<Uniform>,
    locations: Vec<(u32, u32)>,
    blocks: Vec<Block>,
    /// The application's part of the default block, with the uniforms' initial values.
    default_block: Vec<u8>,
    samplers: Vec<Sampler>,
    /// SPIR-V variable name of each sampler uniform's first slot: (name, first slot).
    sampler_vars: Vec<(String, u32)>,
    /// Image slots, one per element of an image array.
    images: Vec<Image>,
    /// SPIR-V variable name of each image uniform's first slot: (name, first slot).
    image_vars: Vec<(String, u32)>,
    /// Declared block index -> first GL block index (named blocks only).
    block_first: HashMap<usize, u32>,
    /// Offset of `gl_DepthRange` in the default block, if a stage reads it.
    depth_range: Option<u32>,
    /// Offset of `gl_NumSamples` in the default block, if a stage reads it.
    num_samples: Option<u32>,
    /// Subroutine uniforms' selectors in the default block: (name, offset, array stride).
    selectors: Vec<(String, u32, u32)>,
    /// Shader storage blocks, one per element of a block array.
    storage_blocks: Vec<StorageBlock>,
    /// Their buffer variables.
    buffer_variables: Vec<BufferVariable>,
}

/// The lengths of an array type's dimensions, outermost first (none for a non-array).
fn array_dims(m: &Module, mut ty: u32) -> Vec<u32> {
    let mut dims = Vec::new();
    while let Some((element, n)) = m.array(ty) {
        dims.push(n.max(1));
        ty = element;
    }
    dims
}

/// Where the innermost array a uniform name's indices select (`[1][0]` of `s[2][3]`:
/// the second `[3]`) starts among the elements of an array of arrays with `dims`: 3.
fn element_offset(indices: &str, dims: &[u32]) -> u32 {
    let indices: Vec<u32> = indices
        .split(['[', ']'])
        .filter_map(|i| i.trim().parse().ok())
        .collect();
    // The last index is the innermost array's own `[0]`.
    let outer = indices
        .len()
        .saturating_sub(1)
        .min(dims.len().saturating_sub(1));
    indices[..outer]
        .iter()
        .enumerate()
        .map(|(k, &i)| i * dims[k + 1..].iter().product::<u32>())
        .sum()
}

/// The dimensions of block `name`'s array, outermost first, as a module declares it (a
/// uniform block, or a storage block in the Uniform or StorageBuffer class); empty when
/// none declares it as an array.
fn block_dims(modules: &[(Stage, Module)], name: &str) -> Vec<u32> {
    const STORAGE_BUFFER: u32 = 12;
    modules
        .iter()
        .find_map(|(_, m)| {
            m.vars(storage::UNIFORM)
                .chain(m.vars(STORAGE_BUFFER))
                .find(|v| m.name(m.strip_arrays(v.ty)) == name)
                .map(|v| array_dims(m, v.ty))
        })
        .unwrap_or_default()
}

/// The GL name of element `e` of a block array with `dims` (`B[1][2]` for element 5 of
/// `B[2][3]`): each element of an array of arrays of blocks is a block of its own.
fn element_name(name: &str, dims: &[u32], e: u32) -> String {
    let mut out = name.to_string();
    let mut rest = e;
    for (k, _) in dims.iter().enumerate() {
        let stride: u32 = dims[k + 1..].iter().product();
        out.push_str(&format!("[{}]", rest / stride));
        rest %= stride;
    }
    out
}

fn uniforms(
    r: &LinkResult,
    modules: &[(Stage, Module)],
    shaders: &[(Stage, &str)],
) -> Result<UniformLayout, String> {
    let mut out = UniformLayout {
        uniforms: Vec::new(),
        locations: Vec::new(),
        blocks: Vec::new(),
        default_block: Vec::new(),
        samplers: Vec::new(),
        sampler_vars: Vec::new(),
        images: Vec::new(),
        image_vars: Vec::new(),
        block_first: HashMap::new(),
        depth_range: None,
        num_samples: None,
        selectors: Vec::new(),
        storage_blocks: Vec::new(),
        buffer_variables: Vec::new(),
    };
    // glslang 12 cannot lower a sampler inside a struct to valid SPIR-V.
    if let Some(u) = r
        .uniforms
        .iter()
        .find(|u| u.is_sampler && u.name.contains('.'))
    {
        return Err(format!(
            "error: sampler `{}' inside a struct is not supported\n",
            u.name
        ));
    }
    let default_index = r.blocks.iter().position(|b| b.name == DEFAULT_BLOCK);
    let live_default = r.live_blocks.iter().position(|b| b.name == DEFAULT_BLOCK);
    let layouts = leaf_layouts(r, modules)?;

    // The default block's size covers every member, active or not: it is the storage the
    // shaders read.
    if let Some(d) = default_index {
        let end = r
            .leaves
            .iter()
            .zip(&layouts)
            .filter(|(l, _)| l.block == d)
            .filter_map(|(l, lay)| Some(leaf_extent(leaf_type(l)?, l.array, lay) + lay.offset))
            .max()
            .unwrap_or(0);
        out.default_block = vec![0; round16(end) as usize];
        for init in &r.initializers {
            if let Some((leaf, lay)) = r
                .leaves
                .iter()
                .zip(&layouts)
                .find(|(l, _)| l.block == d && l.name == init.name)
            {
                initialize(&mut out.default_block, leaf, lay, &init.values);
            }
        }
        // Subroutine uniforms' selectors, used or not: the engine fills them.
        for (leaf, lay) in r.leaves.iter().zip(&layouts) {
            let top = top_name(&leaf.name);
            if leaf.block == d && top.starts_with(subroutine::SELECTOR_PREFIX) {
                out.selectors
                    .push((top.to_string(), lay.offset, lay.array_stride));
            }
        }
    }

    // Explicit locations of loose uniforms, as declared in each stage.
    let declared: Vec<(String, u32)> = shaders
        .iter()
        .flat_map(|(_, text)| subroutine::uniform_locations(text))
        .collect();
    // Default-block uniforms and samplers, in reflection order; struct members of one
    // top-level uniform are listed together.
    let mut listed_tops: Vec<&str> = Vec::new();
    for u in &r.uniforms {
        if u.is_sampler
            && let Some(target) = gltype::image_target(u.gl_type)
        {
            // An array of arrays as for samplers (below): one variable, whose innermost
            // arrays are uniforms of their own.
            let var_name = u.name.split('[').next().unwrap_or(&u.name).to_string();
            let dims = modules
                .iter()
                .find_map(|(_, m)| {
                    m.vars(storage::UNIFORM_CONSTANT)
                        .find(|v| m.name(v.id) == var_name)
                        .map(|v| array_dims(m, v.ty))
                })
                .unwrap_or_default();
            let offset = element_offset(&u.name[var_name.len()..], &dims);
            let count = dims.iter().product::<u32>().max(u.size.max(1) as u32);
            let first = first_slot(
                &mut out.image_vars,
                &mut out.images,
                var_name,
                count,
                u.binding,
                |unit, element| Image {
                    ty: u.gl_type,
                    target,
                    unit,
                    element,
                },
            ) + offset;
            let size = match dims.len() {
                0 | 1 => u.size.max(1),
                _ => dims[dims.len() - 1] as i32,
            };
            let location = out.locations.len() as i32;
            let index = out.uniforms.len() as u32;
            for e in 0..size as u32 {
                out.locations.push((index, e));
            }
            out.uniforms.push(Uniform {
                name: u.name.clone(),
                ty: u.gl_type,
                size,
                block: -1,
                offset: -1,
                array_stride: 0,
                matrix_stride: 0,
                row_major: false,
                location,
                sampler_slot: first as i32,
                stages: stage_bits(u.stages),
            });
            continue;
        }
        if u.is_sampler {
            let Some(target) = gltype::sampler_target(u.gl_type) else {
                return Err(format!(
                    "error: sampler `{}' has a type this context does not support\n",
                    u.name
                ));
            };
            // An array of arrays is one variable whose innermost arrays are uniforms of
            // their own (`s[1][0]`, as GL names them); its slots are the variable's
            // elements in order, each innermost array's at its offset among them.
            let var_name = u.name.split('[').next().unwrap_or(&u.name).to_string();
            let dims = modules
                .iter()
                .find_map(|(_, m)| {
                    m.vars(storage::UNIFORM_CONSTANT)
                        .find(|v| m.name(v.id) == var_name)
                        .map(|v| array_dims(m, v.ty))
                })
                .ok_or_else(|| format!("error: internal error: no variable for `{}'\n", u.name))?;
            let offset = element_offset(&u.name[var_name.len()..], &dims);
            let count = dims.iter().product::<u32>().max(u.size.max(1) as u32);
            let first = first_slot(
                &mut out.sampler_vars,
                &mut out.samplers,
                var_name,
                count,
                u.binding,
                |unit, element| Sampler {
                    ty: u.gl_type,
                    target,
                    unit,
                    element,
                },
            ) + offset;
            // Mesa trims no innermost array of an array of arrays.
            let size = match dims.len() {
                0 | 1 => u.size.max(1),
                _ => dims[dims.len() - 1] as i32,
            };
            let location = out.locations.len() as i32;
            let index = out.uniforms.len() as u32;
            for e in 0..size as u32 {
                out.locations.push((index, e));
            }
            out.uniforms.push(Uniform {
                name: u.name.clone(),
                ty: u.gl_type,
                size,
                block: -1,
                offset: -1,
                array_stride: 0,
                matrix_stride: 0,
                row_major: false,
                location,
                sampler_slot: first as i32,
                stages: stage_bits(u.stages),
            });
            continue;
        }
        let (Some(d), true) = (
            default_index,
            u.block >= 0 && Some(u.block as usize) == live_default,
        ) else {
            continue;
        };
        let top = top_name(&u.name);
        if top.starts_with(subroutine::SELECTOR_PREFIX) {
            // A subroutine uniform's selector: no uniform of the program's.
            continue;
        }
        if top == source::DEPTH_RANGE {
            // gl_DepthRange: filled by the engine, no uniform of the program's.
            let near = format!("{top}.near");
            out.depth_range = r
                .leaves
                .iter()
                .zip(&layouts)
                .find(|(l, _)| l.block == d && l.name == near)
                .map(|(_, lay)| lay.offset);
            continue;
        }
        if top == crate::num_samples::NAME {
            // gl_NumSamples: filled by the engine. Mesa lists it among the active uniforms
            // under its own name, with no location (GL gives none to a gl_ name).
            out.num_samples = r
                .leaves
                .iter()
                .zip(&layouts)
                .find(|(l, _)| l.block == d && l.name == top)
                .map(|(_, lay)| lay.offset);
            // (Not when only the gl_SampleMask wrapper reads it: num_samples.rs.)
            let named = shaders.iter().any(|(_, t)| t.contains("gl_NumSamples"));
            if named && !listed_tops.contains(&top) {
                listed_tops.push(top);
                out.uniforms.push(Uniform {
                    name: "gl_NumSamples".to_string(),
                    ty: gltype::INT,
                    size: 1,
                    block: -1,
                    offset: -1,
                    array_stride: 0,
                    matrix_stride: 0,
                    row_major: false,
                    location: -1,
                    sampler_slot: -1,
                    stages: stage_bits(u.stages),
                });
            }
            continue;
        }
        if listed_tops.contains(&top) {
            continue;
        }
        listed_tops.push(top);
        let stages = default_uniform_stages(modules, top, u.stages);
        for (leaf, lay) in r.leaves.iter().zip(&layouts) {
            if leaf.block != d || top_name(&leaf.name) != top {
                continue;
            }
            let Some(ty) = leaf_type(leaf) else { continue };
            // A top-level array is as long as its last element in use (GL lets the linker
            // trim it; glslang's reflection reports that length), one with an explicit
            // location as declared (Mesa reserves every location it names).
            let size = if leaf.array > 0
                && leaf.name == format!("{top}[0]")
                && !declared.iter().any(|(name, _)| name == top)
            {
                u.size.clamp(1, leaf.array)
            } else {
                leaf.array.max(1)
            };
            let location = out.locations.len() as i32;
            let index = out.uniforms.len() as u32;
            for e in 0..size as u32 {
                out.locations.push((index, e));
            }
            out.uniforms.push(Uniform {
                name: leaf.name.clone(),
                ty,
                size,
                block: -1,
                offset: lay.offset as i32,
                array_stride: lay.array_stride as i32,
                matrix_stride: lay.matrix_stride as i32,
                row_major: lay.row_major,
                location,
                sampler_slot: -1,
                stages,
            });
        }
    }

    // The locations an inactive uniform's declaration spans: its default-block leaves'
    // elements, or a sampler's or image's.
    let declared_size = |top: &str| -> u32 {
        let leaves: u32 = default_index.map_or(0, |d| {
            r.leaves
                .iter()
                .filter(|l| l.block == d && top_name(&l.name) == top)
                .map(|l| l.array.max(1) as u32)
                .sum()
        });
        if leaves > 0 {
            return leaves;
        }
        modules
            .iter()
            .find_map(|(_, m)| {
                m.vars(storage::UNIFORM_CONSTANT)
                    .find(|v| m.name(v.id) == top)
                    .map(|v| m.array(v.ty).map_or(1, |(_, n)| n))
            })
            .unwrap_or(1)
    };
    assign_locations(&declared, &declared_size, &mut out)?;

    // Named blocks: every declared block is active (shared and std140 blocks are, and
    // packed ones may be), with all of its members.
    for (bi, b) in r.blocks.iter().enumerate() {
        if Some(bi) == default_index {
            continue;
        }
        let first = out.blocks.len() as u32;
        out.block_first.insert(bi, first);
        let mut members = Vec::new();
        let mut end = 0;
        for (leaf, lay) in r.leaves.iter().zip(&layouts) {
            if leaf.block != bi {
                continue;
            }
            let Some(ty) = leaf_type(leaf) else { continue };
            let size = leaf.array.max(1);
            end = end.max(lay.offset + leaf_extent(ty, size, lay));
            members.push(out.uniforms.len() as u32);
            out.uniforms.push(Uniform {
                name: leaf.name.clone(),
                ty,
                size,
                block: first as i32,
                offset: lay.offset as i32,
                array_stride: lay.array_stride as i32,
                matrix_stride: lay.matrix_stride as i32,
                row_major: lay.row_major,
                location: -1,
                sampler_slot: -1,
                stages: 0,
            });
        }
        let first_uniform = members.first().copied();
        push_blocks(r, modules, b, members, round16(end), &mut out.blocks);
        let stages = out.blocks[first as usize..]
            .iter()
            .fold(0, |bits, b| bits | b.stages);
        if let Some(f) = first_uniform {
            for u in &mut out.uniforms[f as usize..] {
                u.stages = stages;
            }
        }
    }
    Ok(out)
}

/// Numbers the default block's uniforms, samplers and images as Mesa does: those whose
/// top-level variable has an explicit `layout(location)` (`ARB_explicit_uniform_location`)
/// take it and the locations after it (struct members and innermost arrays in order), the
/// others the first run of free locations long enough for their elements, else the
/// locations after the last one taken. An inactive uniform with an explicit location keeps
/// its `declared_size` locations (the extension: no two uniforms share a location "even if
/// they are unused"); they map to [`INACTIVE_LOCATION`], which `glUniform*` ignores. Other
/// unused locations map to no uniform (`u32::MAX`).
fn assign_locations(
    declared: &[(String, u32)],
    declared_size: &dyn Fn(&str) -> u32,
    out: &mut UniformLayout,
) -> Result<(), String> {
    const FREE: (u32, u32) = (u32::MAX, 0);
    // One uniform declared with two locations (in two stages) fails the link, as in Mesa's
    // cross-validation of globals.
    for (k, (name, location)) in declared.iter().enumerate() {
        if declared[..k]
            .iter()
            .any(|(n, l)| n == name && l != location)
        {
            return Err(format!(
                "error: explicit locations for uniform `{name}' have differing values\n"
            ));
        }
    }
    let explicit = |top: &str| {
        declared
            .iter()
            .find(|(name, _)| name == top)
            .map(|&(_, location)| location)
    };
    let located: Vec<usize> = (0..out.uniforms.len())
        .filter(|&i| out.uniforms[i].location >= 0)
        .collect();
    let mut map: Vec<(u32, u32)> = Vec::new();
    let mut next: HashMap<String, u32> = HashMap::new();
    let take = |map: &mut Vec<(u32, u32)>,
                top: &str,
                first: u32,
                size: u32,
                entry: &dyn Fn(u32) -> (u32, u32)| {
        let end = u64::from(first) + u64::from(size);
        if end > MAX_UNIFORM_LOCATIONS as u64 {
            return Err(format!(
                "error: location(s) consumed by uniform {top} >= MAX_UNIFORM_LOCATIONS \
                 ({MAX_UNIFORM_LOCATIONS})\n"
            ));
        }
        if map.len() < end as usize {
            map.resize(end as usize, FREE);
        }
        for e in 0..size {
            let slot = &mut map[(first + e) as usize];
            if *slot != FREE {
                return Err(format!(
                    "error: location qualifier for uniform {top} overlaps previously used \
                     location\n"
                ));
            }
            *slot = entry(e);
        }
        Ok(())
    };
    for &i in &located {
        let name = out.uniforms[i].name.clone();
        let top = top_name(&name);
        let Some(base) = explicit(top) else { continue };
        let size = out.uniforms[i].size.max(1) as u32;
        let first = *next.get(top).unwrap_or(&base);
        take(&mut map, top, first, size, &|e| (i as u32, e))?;
        out.uniforms[i].location = first as i32;
        next.insert(top.to_string(), first + size);
    }
    // Inactive explicit uniforms, each declaration once.
    for (k, (top, base)) in declared.iter().enumerate() {
        if next.contains_key(top.as_str()) || declared[..k].iter().any(|(n, _)| n == top) {
            continue;
        }
        take(&mut map, top, *base, declared_size(top), &|_| {
            INACTIVE_LOCATION
        })?;
    }
    for &i in &located {
        if explicit(top_name(&out.uniforms[i].name)).is_some() {
            continue;
        }
        let size = out.uniforms[i].size.max(1) as usize;
        let fits =
            |at: usize| map[at..].len() >= size && map[at..at + size].iter().all(|&s| s == FREE);
        let first = (0..map.len()).find(|&at| fits(at)).unwrap_or(map.len());
        if map.len() < first + size {
            map.resize(first + size, FREE);
        }
        for e in 0..size {
            map[first + e] = (i as u32, e as u32);
        }
        out.uniforms[i].location = first as i32;
    }
    out.locations = map;
    Ok(())
}

/// The stages whose code reads default-block uniform `top`: those whose access chains
/// into the default block name its member (glslang's live stages count a stage that
/// declares the default block at all), or glslang's where an access cannot be told.
fn default_uniform_stages(modules: &[(Stage, Module)], top: &str, glslang_stages: u32) -> u8 {
    let live = stage_bits(glslang_stages);
    let mut bits = 0;
    for (s, m) in modules {
        let bit = 1 << *s as u8;
        let Some((st, var)) = find_block(m, DEFAULT_BLOCK) else {
            continue;
        };
        let Some(Type::Struct { members }) = m.ty(st) else {
            continue;
        };
        let Some(member) = (0..members.len() as u32).find(|&i| m.member_name(st, i) == top) else {
            continue;
        };
        match m.elements_used(var) {
            Some(used) if used.contains(&member) => bits |= bit,
            Some(_) => {}
            None => bits |= live & bit,
        }
    }
    bits
}

/// The program's shader storage blocks: every declared one is active (GL lets a linker
/// drop unused ones; Mesa keeps declared std430 and std140 blocks too), one per element of
/// a block array, in declaration order; and their buffer variables, listed once for all
/// the elements of a block array.
fn storage_blocks(
    r: &LinkResult,
    modules: &[(Stage, Module)],
) -> (Vec<StorageBlock>, Vec<BufferVariable>) {
    let mut out = Vec::new();
    let mut variables = Vec::new();
    for b in r
        .storage_blocks
        .iter()
        .filter(|b| !b.name.starts_with(atomic_counter::BLOCK_PREFIX))
    {
        let elements = if b.array > 0 { b.array } else { 1 };
        let stages = stage_bits(b.stages);
        let reflected = buffer_variable::reflect(modules, &b.name, stages);
        let first = variables.len() as u32;
        let indices: Vec<u32> = (first..first + reflected.variables.len() as u32).collect();
        let block = out.len() as u32;
        variables.extend(
            reflected
                .variables
                .into_iter()
                .map(|v| BufferVariable { block, ..v }),
        );
        let dims = match block_dims(modules, &b.name) {
            d if d.is_empty() => vec![elements as u32],
            d => d,
        };
        for e in 0..elements {
            out.push(StorageBlock {
                name: if b.array > 0 {
                    element_name(&b.name, &dims, e as u32)
                } else {
                    b.name.clone()
                },
                binding: if b.binding >= 0 {
                    (b.binding + e) as u32
                } else {
                    0
                },
                stages,
                element: e as u32,
                data_size: reflected.data_size,
                variables: indices.clone(),
            });
        }
    }
    (out, variables)
}

/// The program's atomic counters and their buffers, from each shader's declarations
/// (`atomic_counter.rs`): a counter is active where a shader uses it; a counter that several
/// shaders declare must have one binding and offset (Mesa's link error otherwise), and two
/// counters of one binding may not overlap.
fn atomic_counters(
    shaders: &[(Stage, &str)],
) -> Result<(Vec<crate::AtomicCounter>, Vec<crate::AtomicBuffer>), String> {
    // (counter, stages using it)
    let mut all: Vec<(atomic_counter::Counter, u8)> = Vec::new();
    for (stage, text) in shaders {
        let text = source::join_lines(text);
        for c in atomic_counter::counters(&text)? {
            let bit = if c.used { 1 << *stage as u8 } else { 0 };
            match all.iter_mut().find(|(a, _)| a.name == c.name) {
                Some((a, stages)) => {
                    if a.binding != c.binding || a.offset != c.offset || a.dims != c.dims {
                        return Err(format!(
                            "error: atomic counter {} declared with different binding, offset \
                             or size in different shaders\n",
                            c.name
                        ));
                    }
                    a.used |= c.used;
                    *stages |= bit;
                }
                None => all.push((c, bit)),
            }
        }
    }
    all.retain(|(c, _)| c.used);
    atomic_counter::check_limits(&all)?;
    for (i, (a, _)) in all.iter().enumerate() {
        let end = a.offset + 4 * a.array.max(1);
        if let Some((b, _)) = all[i + 1..].iter().find(|(b, _)| {
            b.binding == a.binding && b.offset < end && a.offset < b.offset + 4 * b.array.max(1)
        }) {
            return Err(format!(
                "error: atomic counter {} overlaps {} (binding {}, offset {})\n",
                b.name, a.name, a.binding, b.offset
            ));
        }
    }
    let mut bindings: Vec<u32> = all.iter().map(|(c, _)| c.binding).collect();
    bindings.sort_unstable();
    bindings.dedup();
    let mut counters = Vec::new();
    let mut buffers = Vec::new();
    for (bi, binding) in bindings.into_iter().enumerate() {
        let mut mine: Vec<&(atomic_counter::Counter, u8)> =
            all.iter().filter(|(c, _)| c.binding == binding).collect();
        mine.sort_by(|a, b| a.0.name.cmp(&b.0.name));
        let first = counters.len() as u32;
        let mut stages = 0;
        let mut data_size = 0;
        for (c, s) in &mine {
            stages |= s;
            data_size = data_size.max(c.offset + 4 * c.array.max(1));
            // An array of arrays is a counter per innermost array (`a[1][0]`), as Mesa
            // lists every array of arrays of uniforms.
            let inner = c.dims.last().copied().unwrap_or(1);
            let outer = if c.dims.len() > 1 { c.array / inner } else { 1 };
            for k in 0..outer {
                let name = match c.dims.len() {
                    0 => c.name.clone(),
                    1 => format!("{}[0]", c.name),
                    n => format!("{}[0]", element_name(&c.name, &c.dims[..n - 1], k)),
                };
                counters.push(crate::AtomicCounter {
                    name,
                    size: c.array.max(1).min(inner) as i32,
                    offset: (c.offset + 4 * inner * k) as i32,
                    array_stride: if c.array > 0 { 4 } else { 0 },
                    buffer: bi as u32,
                    stages: *s,
                });
            }
        }
        buffers.push(crate::AtomicBuffer {
            binding,
            data_size,
            counters: (first..counters.len() as u32).collect(),
            stages,
        });
    }
    Ok((counters, buffers))
}

/// Adds the GL blocks of one declared block (one per element of a block array).
///
/// The stages referencing an element are glslang's live stages of the block, less, for an
/// element of a block array, the stages whose code reads other elements only (glslang
/// counts the array as one; GL, as Mesa, per element).
fn push_blocks(
    r: &LinkResult,
    modules: &[(Stage, Module)],
    b: &DeclaredBlock,
    members: Vec<u32>,
    size: u32,
    out: &mut Vec<Block>,
) {
    let elements = if b.array > 0 { b.array } else { 1 };
    // Per stage: the elements its code reads (None: any).
    let read: Vec<(Stage, Option<Vec<u32>>)> = modules
        .iter()
        .filter_map(|(s, m)| {
            let (_, var) = find_block(m, &b.name)?;
            Some((*s, m.elements_used(var)))
        })
        .collect();
    let dims = match block_dims(modules, &b.name) {
        d if d.is_empty() => vec![elements as u32],
        d => d,
    };
    for e in 0..elements {
        let name = if b.array > 0 {
            element_name(&b.name, &dims, e as u32)
        } else {
            b.name.clone()
        };
        let mut stages = r
            .live_blocks
            .iter()
            .find(|l| l.name == name)
            .map_or(0, |l| stage_bits(l.stages));
        // The indices read are the outermost ones: only a one-dimensional array's tell.
        if b.array > 0 && dims.len() == 1 {
            for (s, used) in &read {
                if used.as_ref().is_some_and(|u| !u.contains(&(e as u32))) {
                    stages &= !(1 << *s as u8);
                }
            }
        }
        out.push(Block {
            binding: if b.binding >= 0 {
                (b.binding + e) as u32
            } else {
                0
            },
            name,
            data_size: size,
            uniforms: members.clone(),
            stages,
            element: e as u32,
        });
    }
}

/// The layout of every leaf, from the first module that declares its block.
fn leaf_layouts(r: &LinkResult, modules: &[(Stage, Module)]) -> Result<Vec<Layout>, String> {
    let mut block_struct: HashMap<usize, (usize, u32)> = HashMap::new();
    for (bi, b) in r.blocks.iter().enumerate() {
        if let Some((mi, (st, _))) = modules
            .iter()
            .enumerate()
            .find_map(|(mi, (_, m))| find_block(m, &b.name).map(|f| (mi, f)))
        {
            block_struct.insert(bi, (mi, st));
        }
    }
    r.leaves
        .iter()
        .map(|leaf| {
            let (mi, st) = block_struct.get(&leaf.block).copied().ok_or_else(|| {
                format!(
                    "error: internal error: block of `{}' not found\n",
                    leaf.name
                )
            })?;
            resolve(&modules[mi].1, st, leaf)
                .ok_or_else(|| format!("error: internal error: no layout for `{}'\n", leaf.name))
        })
        .collect()
}

/// Decides the descriptor binding of every resource variable of every module (see the crate
/// docs for the numbering), adding sampler slots for samplers that are used but inactive.
fn bind_resources(
    r: &LinkResult,
    modules: &[(Stage, Module)],
    layout: &mut UniformLayout,
    atomic_buffers: &[crate::AtomicBuffer],
    assigns: &mut [Vec<Assign>],
) -> Result<(), String> {
    // Samplers the code uses that reflection did not list (kept alive by dead code glslang
    // did not fold) still need a descriptor: they get hidden slots, unit 0.
    for (_, m) in modules {
        for v in m.vars(storage::UNIFORM_CONSTANT) {
            let name = m.name(v.id);
            if m.is_used(v.id)
                && !layout.sampler_vars.iter().any(|(n, _)| n == name)
                && !layout.image_vars.iter().any(|(n, _)| n == name)
            {
                let first = layout.samplers.len() as u32;
                let count = m.array(v.ty).map_or(1, |(_, n)| n.max(1));
                for element in 0..count {
                    layout.samplers.push(Sampler {
                        ty: gltype::SAMPLER_2D,
                        target: gltype::SamplerTarget::D2,
                        unit: 0,
                        element,
                    });
                }
                layout.sampler_vars.push((name.to_string(), first));
            }
        }
    }
    let samplers = layout.samplers.len() as u32;
    let blocks = layout.blocks.len() as u32;
    let storage = (layout.storage_blocks.len() + atomic_buffers.len()) as u32;
    let mut spare = 1 + samplers + blocks + storage + layout.images.len() as u32;
    // Declared storage block -> binding of its first element; the atomic counter buffers'
    // blocks after the application's.
    let mut storage_first = HashMap::new();
    let mut next = 1 + samplers + blocks;
    let counters =
        |b: &&ffi::DeclaredStorageBlock| b.name.starts_with(atomic_counter::BLOCK_PREFIX);
    for b in r.storage_blocks.iter().filter(|b| !counters(b)) {
        storage_first.insert(b.name.clone(), next);
        next += b.array.max(1) as u32;
    }
    for (a, buffer) in atomic_buffers.iter().enumerate() {
        let name = format!("{}{}", atomic_counter::BLOCK_PREFIX, buffer.binding);
        storage_first.insert(name, next + a as u32);
    }
    for (i, (_, m)) in modules.iter().enumerate() {
        for v in m.vars(storage::UNIFORM_CONSTANT) {
            let name = m.name(v.id);
            let image = layout.image_vars.iter().find(|(n, _)| n == name);
            let binding = match (layout.sampler_vars.iter().find(|(n, _)| n == name), image) {
                (Some((_, first)), _) => 1 + first,
                (None, Some((_, first))) => 1 + samplers + blocks + storage + first,
                (None, None) => {
                    spare += 1;
                    spare - 1
                }
            };
            assigns[i].push(Assign {
                id: v.id,
                binding: Some(binding),
                ..Assign::default()
            });
        }
        for v in m.vars(storage::UNIFORM) {
            let st = m.strip_arrays(v.ty);
            let block_name = m.name(st);
            let binding = if block_name == DEFAULT_BLOCK {
                0
            } else if let Some(&first) = storage_first.get(block_name) {
                first
            } else {
                match r
                    .blocks
                    .iter()
                    .position(|b| b.name == block_name)
                    .and_then(|bi| layout.block_first.get(&bi))
                {
                    Some(first) => 1 + samplers + first,
                    None => {
                        spare += 1;
                        spare - 1
                    }
                }
            };
            assigns[i].push(Assign {
                id: v.id,
                binding: Some(binding),
                ..Assign::default()
            });
        }
    }
    Ok(())
}

/// The slot of a sampler or image variable's first element. A variable's slots are numbered
/// at its first uniform, `count` of them (its elements, an array of arrays flattened), each
/// with its initial unit: `binding + element`, or 0 without a `layout(binding)`; later
/// uniforms of the variable (an array of arrays' innermost arrays) find them.
fn first_slot<T>(
    vars: &mut Vec<(String, u32)>,
    slots: &mut Vec<T>,
    var_name: String,
    count: u32,
    binding: i32,
    slot: impl Fn(u32, u32) -> T,
) -> u32 {
    if let Some(&(_, first)) = vars.iter().find(|(n, _)| *n == var_name) {
        return first;
    }
    let first = slots.len() as u32;
    for element in 0..count {
        let unit = if binding >= 0 {
            binding as u32 + element
        } else {
            0
        };
        slots.push(slot(unit, element));
    }
    vars.push((var_name, first));
    first
}

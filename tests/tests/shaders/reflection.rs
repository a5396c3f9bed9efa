//! Compiling, linking and reading back the reflection of one case on one implementation.

use std::collections::{BTreeMap, BTreeSet};

use tessera_engine::gl::*;
use tessera_tests::gl::Gl;

use super::corpus::Case;

/// What one implementation made of a case.
#[derive(Debug, Default)]
pub(super) struct Outcome {
    /// COMPILE_STATUS of each shader, in case order.
    pub(super) compiled: Vec<bool>,
    /// Info log of each shader.
    pub(super) shader_logs: Vec<String>,
    pub(super) linked: bool,
    pub(super) program_log: String,
    /// The first GL error the calls raised (NO_ERROR if none).
    pub(super) error: GLenum,
    /// ATTACHED_SHADERS after the link.
    pub(super) attached: GLint,
    /// Reflection of a linked program.
    pub(super) reflection: Option<Reflection>,
    /// The program object.
    pub(super) program: GLuint,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Uniform {
    pub(super) size: GLint,
    pub(super) ty: GLenum,
    /// The name of the block it is in; `None` in the default block.
    pub(super) block: Option<String>,
    pub(super) offset: GLint,
    pub(super) array_stride: GLint,
    pub(super) matrix_stride: GLint,
    pub(super) row_major: GLint,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Attribute {
    pub(super) size: GLint,
    pub(super) ty: GLenum,
    pub(super) location: GLint,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Block {
    pub(super) data_size: GLint,
    /// Names of its active uniforms.
    pub(super) members: BTreeSet<String>,
    /// UNIFORM_BLOCK_ACTIVE_UNIFORMS.
    pub(super) active_uniforms: GLint,
    pub(super) binding: GLint,
    /// REFERENCED_BY_{VERTEX, GEOMETRY, FRAGMENT}_SHADER.
    pub(super) referenced: [GLint; 3],
    /// The block name `glGetUniformBlockIndex` of its own name leads back to.
    pub(super) index_of_name: Option<String>,
}

#[derive(Debug, Default)]
pub(super) struct Reflection {
    pub(super) uniforms: BTreeMap<String, Uniform>,
    /// Uniform names of active-uniform indices, in index order (for UNIFORM_BLOCK_ACTIVE_
    /// UNIFORM_INDICES and glGetUniformIndices).
    pub(super) uniform_order: Vec<String>,
    pub(super) attributes: BTreeMap<String, Attribute>,
    pub(super) blocks: BTreeMap<String, Block>,
    /// ACTIVE_{ATTRIBUTE, UNIFORM, UNIFORM_BLOCK}_MAX_LENGTH.
    pub(super) max_lengths: [GLint; 3],
    /// GEOMETRY_{VERTICES_OUT, INPUT_TYPE, OUTPUT_TYPE} of programs with a geometry stage.
    pub(super) geometry: Option<[GLint; 3]>,
}

/// Compiles and links `case` on `gl` and reads the reflection of the result. The shaders are
/// detached and deleted before the reflection is read: a linked program keeps it.
pub(super) fn run(gl: &mut dyn Gl, case: &Case) -> Outcome {
    let mut out = Outcome::default();
    let program = gl.create_program();
    out.program = program;
    let mut shaders = Vec::new();
    for (_, kind, source) in &case.shaders {
        let s = gl.create_shader(*kind);
        gl.shader_source(s, source);
        gl.compile_shader(s);
        out.compiled
            .push(gl.get_shaderi(s, COMPILE_STATUS) == TRUE as GLint);
        out.shader_logs.push(gl.shader_info_log(s));
        gl.attach_shader(program, s);
        shaders.push(s);
    }
    for (name, index) in &case.bind_attrib {
        gl.bind_attrib_location(program, *index, name);
    }
    for (name, color) in &case.bind_frag {
        gl.bind_frag_data_location(program, *color, name);
    }
    gl.link_program(program);
    out.linked = gl.get_programi(program, LINK_STATUS) == TRUE as GLint;
    out.program_log = gl.program_info_log(program);
    out.attached = gl.get_programi(program, ATTACHED_SHADERS);
    for s in shaders {
        gl.detach_shader(program, s);
        gl.delete_shader(s);
    }
    out.error = gl.get_error();
    if out.linked {
        let has_geometry = case.shaders.iter().any(|s| s.1 == GEOMETRY_SHADER);
        out.reflection = Some(reflect(gl, program, has_geometry));
    }
    out
}

fn reflect(gl: &mut dyn Gl, program: GLuint, has_geometry: bool) -> Reflection {
    let mut r = Reflection::default();
    let block_count = gl.get_programi(program, ACTIVE_UNIFORM_BLOCKS).max(0) as GLuint;
    let block_names: Vec<String> = (0..block_count)
        .map(|b| gl.get_active_uniform_block_name(program, b))
        .collect();
    let count = gl.get_programi(program, ACTIVE_UNIFORMS).max(0) as GLuint;
    let indices: Vec<GLuint> = (0..count).collect();
    let param = |gl: &mut dyn Gl, pname| {
        let mut v = vec![0; indices.len()];
        gl.get_active_uniformsiv(program, &indices, pname, &mut v);
        v
    };
    let block_index = param(gl, UNIFORM_BLOCK_INDEX);
    let offset = param(gl, UNIFORM_OFFSET);
    let array_stride = param(gl, UNIFORM_ARRAY_STRIDE);
    let matrix_stride = param(gl, UNIFORM_MATRIX_STRIDE);
    let row_major = param(gl, UNIFORM_IS_ROW_MAJOR);
    for i in 0..count as usize {
        let (name, size, ty) = gl.get_active_uniform(program, i as GLuint);
        let block = usize::try_from(block_index[i]).ok().map(|b| {
            block_names
                .get(b)
                .cloned()
                .unwrap_or_else(|| format!("<block {b}>"))
        });
        r.uniform_order.push(name.clone());
        r.uniforms.insert(
            name,
            Uniform {
                size,
                ty,
                block,
                offset: offset[i],
                array_stride: array_stride[i],
                matrix_stride: matrix_stride[i],
                row_major: row_major[i],
            },
        );
    }
    for (b, name) in block_names.iter().enumerate() {
        let b = b as GLuint;
        let one = |gl: &mut dyn Gl, pname| {
            let mut v = [0];
            gl.get_active_uniform_blockiv(program, b, pname, &mut v);
            v[0]
        };
        let active_uniforms = one(gl, UNIFORM_BLOCK_ACTIVE_UNIFORMS);
        let mut member_indices = vec![0; active_uniforms.max(0) as usize];
        if !member_indices.is_empty() {
            gl.get_active_uniform_blockiv(
                program,
                b,
                UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES,
                &mut member_indices,
            );
        }
        let members = member_indices
            .iter()
            .map(|&u| {
                r.uniform_order
                    .get(u as usize)
                    .cloned()
                    .unwrap_or_else(|| format!("<uniform {u}>"))
            })
            .collect();
        let index_of_name = block_names
            .get(gl.get_uniform_block_index(program, name) as usize)
            .cloned();
        let block = Block {
            data_size: one(gl, UNIFORM_BLOCK_DATA_SIZE),
            members,
            active_uniforms,
            binding: one(gl, UNIFORM_BLOCK_BINDING),
            referenced: [
                one(gl, UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER),
                one(gl, UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER),
                one(gl, UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER),
            ],
            index_of_name,
        };
        r.blocks.insert(name.clone(), block);
    }
    let attributes = gl.get_programi(program, ACTIVE_ATTRIBUTES).max(0) as GLuint;
    for a in 0..attributes {
        let (name, size, ty) = gl.get_active_attrib(program, a);
        let location = gl.get_attrib_location(program, &name);
        r.attributes.insert(name, Attribute { size, ty, location });
    }
    r.max_lengths = [
        gl.get_programi(program, ACTIVE_ATTRIBUTE_MAX_LENGTH),
        gl.get_programi(program, ACTIVE_UNIFORM_MAX_LENGTH),
        gl.get_programi(program, ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH),
    ];
    if has_geometry {
        r.geometry = Some([
            gl.get_programi(program, GEOMETRY_VERTICES_OUT),
            gl.get_programi(program, GEOMETRY_INPUT_TYPE),
            gl.get_programi(program, GEOMETRY_OUTPUT_TYPE),
        ]);
    }
    r
}

/// Whether each name has a uniform location on `gl`.
pub(super) fn located(
    gl: &mut dyn Gl,
    program: GLuint,
    names: &BTreeSet<String>,
) -> BTreeMap<String, bool> {
    names
        .iter()
        .map(|n| (n.clone(), gl.get_uniform_location(program, n) != -1))
        .collect()
}

//! Program interface queries (GL 4.3 §7.3.1, `ARB_program_interface_query`): every active
//! resource of a linked program seen as a list per interface, with its name and properties.
//!
//! The lists are views of the [`LinkedProgram`] reflection the other queries read, in the
//! same order, so a resource's index here is its index for `glGetActiveUniform`,
//! `glGetActiveAttrib`, `glGetUniformBlockIndex`, `glGetTransformFeedbackVarying` and the
//! storage block calls. A variable that is an array is named with `[0]` appended, as GL
//! names it (attributes and fragment outputs are kept without it).
//!
//! The subroutine interfaces of each stage (GL 4.0 subroutines, `super::subroutine`) list
//! the stage's subroutine functions and uniforms, in the order of `glGetActiveSubroutineName`
//! and `glGetActiveSubroutineUniformName`; a function's `glGetProgramResourceIndex` is its
//! subroutine index, as Mesa answers. `ATOMIC_COUNTER_BUFFER` (GL 4.2 atomic counters) lists the atomic counter
//! buffers, which have no names: the calls that take a name or give one refuse it with
//! `INVALID_ENUM`, as GL 4.3 says; so does GL 4.4's `TRANSFORM_FEEDBACK_BUFFER`, the
//! buffers a capture writes (those a captured varying goes to, as Mesa lists them), whose
//! varyings are those whose `TRANSFORM_FEEDBACK_BUFFER_INDEX` is the buffer's index. Buffer variables are the
//! members of storage blocks as the front end reflects them (`shader/src/buffer_variable.rs`).

use tessera_components::gl::*;
use tessera_components::object::{LinkedProgram, StageSubroutines};
use tessera_wire::format::ShaderStage;

use crate::context::{Context, GlResult};
use crate::shader::{gl_length, write_string};

use super::query::uniform_location;

/// `INVALID_INDEX`, as `glGetProgramResourceIndex` returns it.
const INVALID_INDEX: GLuint = 0xFFFF_FFFF;

/// An interface Tessera has resources for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Interface {
    Uniform,
    UniformBlock,
    Input,
    Output,
    TransformFeedbackVarying,
    /// The buffers transform feedback writes (GL 4.4): those a captured varying goes to,
    /// in binding order.
    TransformFeedbackBuffer,
    BufferVariable,
    StorageBlock,
    AtomicCounterBuffer,
    /// A stage's subroutine functions (`VERTEX_SUBROUTINE`, ...).
    Subroutine(ShaderStage),
    /// A stage's subroutine uniforms (`VERTEX_SUBROUTINE_UNIFORM`, ...).
    SubroutineUniform(ShaderStage),
}

/// The subroutines of `stage` (none: an empty list).
fn subroutines(l: &LinkedProgram, stage: ShaderStage) -> &StageSubroutines {
    static NONE: StageSubroutines = StageSubroutines {
        stage: ShaderStage::Vertex,
        functions: Vec::new(),
        uniforms: Vec::new(),
        locations: 0,
    };
    super::subroutine::of_stage(l, stage).unwrap_or(&NONE)
}

impl Interface {
    /// The interface an enum names, `INVALID_ENUM` for others (those of absent features
    /// included).
    fn from_gl(interface: GLenum) -> GlResult<Self> {
        Ok(match interface {
            UNIFORM => Self::Uniform,
            UNIFORM_BLOCK => Self::UniformBlock,
            PROGRAM_INPUT => Self::Input,
            PROGRAM_OUTPUT => Self::Output,
            TRANSFORM_FEEDBACK_VARYING => Self::TransformFeedbackVarying,
            TRANSFORM_FEEDBACK_BUFFER => Self::TransformFeedbackBuffer,
            BUFFER_VARIABLE => Self::BufferVariable,
            SHADER_STORAGE_BLOCK => Self::StorageBlock,
            ATOMIC_COUNTER_BUFFER => Self::AtomicCounterBuffer,
            VERTEX_SUBROUTINE => Self::Subroutine(ShaderStage::Vertex),
            TESS_CONTROL_SUBROUTINE => Self::Subroutine(ShaderStage::TessControl),
            TESS_EVALUATION_SUBROUTINE => Self::Subroutine(ShaderStage::TessEvaluation),
            GEOMETRY_SUBROUTINE => Self::Subroutine(ShaderStage::Geometry),
            FRAGMENT_SUBROUTINE => Self::Subroutine(ShaderStage::Fragment),
            COMPUTE_SUBROUTINE => Self::Subroutine(ShaderStage::Compute),
            VERTEX_SUBROUTINE_UNIFORM => Self::SubroutineUniform(ShaderStage::Vertex),
            TESS_CONTROL_SUBROUTINE_UNIFORM => Self::SubroutineUniform(ShaderStage::TessControl),
            TESS_EVALUATION_SUBROUTINE_UNIFORM => {
                Self::SubroutineUniform(ShaderStage::TessEvaluation)
            }
            GEOMETRY_SUBROUTINE_UNIFORM => Self::SubroutineUniform(ShaderStage::Geometry),
            FRAGMENT_SUBROUTINE_UNIFORM => Self::SubroutineUniform(ShaderStage::Fragment),
            COMPUTE_SUBROUTINE_UNIFORM => Self::SubroutineUniform(ShaderStage::Compute),
            _ => return Err(INVALID_ENUM),
        })
    }

    /// Whether its resources are blocks (with active variables).
    fn is_block(self) -> bool {
        matches!(
            self,
            Self::UniformBlock
                | Self::StorageBlock
                | Self::AtomicCounterBuffer
                | Self::TransformFeedbackBuffer
        )
    }

    /// The interface an enum names for the calls that take or give resource names:
    /// `ATOMIC_COUNTER_BUFFER`'s resources have none (`INVALID_ENUM`).
    fn named_from_gl(interface: GLenum) -> GlResult<Self> {
        match Self::from_gl(interface)? {
            Self::AtomicCounterBuffer | Self::TransformFeedbackBuffer => Err(INVALID_ENUM),
            i => Ok(i),
        }
    }
}

/// The number of resources of an interface (0 for a program not linked successfully).
fn count(l: Option<&LinkedProgram>, interface: Interface) -> usize {
    let Some(l) = l else { return 0 };
    match interface {
        Interface::Uniform => l.uniforms.len(),
        Interface::UniformBlock => l.blocks.len(),
        Interface::Input => l.attributes.len(),
        Interface::Output => l.outputs.len(),
        Interface::TransformFeedbackVarying => l.xfb.len(),
        Interface::TransformFeedbackBuffer => xfb_buffers(l).count(),
        Interface::BufferVariable => l.buffer_variables.len(),
        Interface::StorageBlock => l.storage_blocks.len(),
        Interface::AtomicCounterBuffer => l.atomic_buffers.len(),
        Interface::Subroutine(s) => subroutines(l, s).functions.len(),
        Interface::SubroutineUniform(s) => subroutines(l, s).uniforms.len(),
    }
}

/// The buffer bindings transform feedback writes: each one a captured varying (not a
/// layout name) goes to, in binding order (Mesa's active buffers).
fn xfb_buffers(l: &LinkedProgram) -> impl Iterator<Item = u32> + '_ {
    (0..l.xfb_strides.len() as u32).filter(|&b| l.xfb.iter().any(|v| v.buffer == b && v.ty != NONE))
}

/// The name of resource `i` (which exists) as GL reports it.
fn name(l: &LinkedProgram, interface: Interface, i: usize) -> String {
    let array_name = |n: &str, size: i32| {
        if size > 1 && !n.ends_with(']') {
            format!("{n}[0]")
        } else {
            n.to_string()
        }
    };
    match interface {
        Interface::Uniform => l.uniforms[i].name.clone(),
        Interface::UniformBlock => l.blocks[i].name.clone(),
        Interface::Input => array_name(&l.attributes[i].name, l.attributes[i].size),
        Interface::Output => array_name(&l.outputs[i].name, l.outputs[i].size),
        Interface::TransformFeedbackVarying => l.xfb[i].name.clone(),
        Interface::BufferVariable => l.buffer_variables[i].name.clone(),
        Interface::StorageBlock => l.storage_blocks[i].name.clone(),
        Interface::AtomicCounterBuffer | Interface::TransformFeedbackBuffer => String::new(),
        Interface::Subroutine(s) => subroutines(l, s).functions[i].name.clone(),
        Interface::SubroutineUniform(s) => subroutines(l, s).uniforms[i].name.clone(),
    }
}

/// The index of the resource a name names: its own name, an array's name without `[0]`,
/// or (as Mesa takes it) a name that is not an array's with `[0]`.
fn index_of(l: &LinkedProgram, interface: Interface, wanted: &str) -> Option<usize> {
    (0..count(Some(l), interface)).find(|&i| {
        let n = name(l, interface, i);
        n == wanted
            || n.strip_suffix("[0]") == Some(wanted)
            || wanted.strip_suffix("[0]") == Some(n.as_str())
    })
}

/// The stage bit (of [`LinkedProgram::stages`]) a `REFERENCED_BY_*_SHADER` property asks
/// about.
fn referenced_stage(prop: GLenum) -> Option<Option<ShaderStage>> {
    Some(match prop {
        REFERENCED_BY_VERTEX_SHADER => Some(ShaderStage::Vertex),
        REFERENCED_BY_GEOMETRY_SHADER => Some(ShaderStage::Geometry),
        REFERENCED_BY_FRAGMENT_SHADER => Some(ShaderStage::Fragment),
        REFERENCED_BY_COMPUTE_SHADER => Some(ShaderStage::Compute),
        REFERENCED_BY_TESS_CONTROL_SHADER => Some(ShaderStage::TessControl),
        REFERENCED_BY_TESS_EVALUATION_SHADER => Some(ShaderStage::TessEvaluation),
        _ => return None,
    })
}

/// The stages referencing resource `i`, bit per [`ShaderStage`].
fn stages(l: &LinkedProgram, interface: Interface, i: usize) -> u8 {
    let first_or_last = |last: bool| {
        let mut present = [
            ShaderStage::Vertex,
            ShaderStage::TessControl,
            ShaderStage::TessEvaluation,
            ShaderStage::Geometry,
            ShaderStage::Fragment,
            ShaderStage::Compute,
        ]
        .into_iter()
        .map(|s| s as u8)
        .filter(|s| l.stages & 1 << s != 0);
        let stage = if last {
            present.next_back()
        } else {
            present.next()
        };
        stage.map_or(0, |s| 1 << s)
    };
    match interface {
        Interface::Uniform => l.uniforms[i].stages,
        Interface::UniformBlock => l.blocks[i].stages,
        Interface::StorageBlock => l.storage_blocks[i].stages,
        Interface::Input => first_or_last(false),
        Interface::Output => first_or_last(true),
        Interface::BufferVariable => l.buffer_variables[i].stages,
        Interface::AtomicCounterBuffer => l.atomic_buffers[i].stages,
        Interface::TransformFeedbackVarying
        | Interface::TransformFeedbackBuffer
        | Interface::Subroutine(_)
        | Interface::SubroutineUniform(_) => 0,
    }
}

/// The values of one property of resource `i`: `INVALID_ENUM` for a property of no
/// interface, `INVALID_OPERATION` for one this interface lacks.
fn property(
    l: &LinkedProgram,
    interface: Interface,
    i: usize,
    prop: GLenum,
) -> GlResult<Vec<GLint>> {
    use Interface as I;
    let wrong = Err(INVALID_OPERATION);
    let one = |v: GLint| Ok(vec![v]);
    // A subroutine has a name only; a subroutine uniform a name, a size, a location and
    // its compatible subroutines (positions among the stage's functions).
    match interface {
        I::Subroutine(_) if prop != NAME_LENGTH => return wrong,
        I::SubroutineUniform(s) => {
            let s = subroutines(l, s);
            let u = &s.uniforms[i];
            return match prop {
                NAME_LENGTH => one(gl_length(&u.name)),
                ARRAY_SIZE => one(u.size as GLint),
                LOCATION => one(u.location as GLint),
                NUM_COMPATIBLE_SUBROUTINES => one(s.compatible(u).len() as GLint),
                COMPATIBLE_SUBROUTINES => Ok(s.compatible(u).iter().map(|&c| c as GLint).collect()),
                _ => wrong,
            };
        }
        _ => {}
    }
    if let Some(stage) = referenced_stage(prop) {
        if matches!(
            interface,
            I::TransformFeedbackVarying | I::TransformFeedbackBuffer
        ) {
            return wrong;
        }
        let bits = stages(l, interface, i);
        return one(stage.is_some_and(|s| bits & 1 << s as u8 != 0).into());
    }
    match prop {
        NAME_LENGTH
            if matches!(
                interface,
                I::AtomicCounterBuffer | I::TransformFeedbackBuffer
            ) =>
        {
            wrong
        }
        NAME_LENGTH => one(gl_length(&name(l, interface, i))),
        TYPE | ARRAY_SIZE => {
            let (ty, size) = match interface {
                I::Uniform => (l.uniforms[i].ty, l.uniforms[i].size),
                I::Input => (l.attributes[i].ty, l.attributes[i].size),
                I::Output => (l.outputs[i].ty, l.outputs[i].size),
                I::TransformFeedbackVarying => (l.xfb[i].ty, l.xfb[i].size),
                I::BufferVariable => (l.buffer_variables[i].ty, l.buffer_variables[i].size),
                _ => return wrong,
            };
            one(if prop == TYPE { ty as GLint } else { size })
        }
        // GL 4.4 adds a captured varying's offset; Mesa answers it in every context.
        OFFSET if interface == I::TransformFeedbackVarying => one(l.xfb[i].offset),
        // A `gl_NextBuffer`'s is the buffer it ends, as Mesa's linker answers (a program
        // Mesa restores from its shader cache answers 0 instead).
        TRANSFORM_FEEDBACK_BUFFER_INDEX => match interface {
            I::TransformFeedbackVarying => one(l.xfb[i].buffer_index),
            _ => wrong,
        },
        TRANSFORM_FEEDBACK_BUFFER_STRIDE => match interface {
            I::TransformFeedbackBuffer => {
                let b = xfb_buffers(l).nth(i).unwrap_or(0);
                one(l.xfb_strides[b as usize] as GLint)
            }
            _ => wrong,
        },
        OFFSET
        | BLOCK_INDEX
        | ARRAY_STRIDE
        | MATRIX_STRIDE
        | IS_ROW_MAJOR
        | ATOMIC_COUNTER_BUFFER_INDEX => {
            if interface == I::BufferVariable && prop != ATOMIC_COUNTER_BUFFER_INDEX {
                let v = &l.buffer_variables[i];
                return one(match prop {
                    OFFSET => v.offset,
                    BLOCK_INDEX => v.block_index,
                    ARRAY_STRIDE => v.array_stride,
                    MATRIX_STRIDE => v.matrix_stride,
                    _ => v.row_major.into(),
                });
            }
            let I::Uniform = interface else { return wrong };
            let u = &l.uniforms[i];
            // Default-block uniforms and samplers have no layout GL exposes; atomic
            // counters have their offset and stride in their buffer.
            let counter = (u.ty == UNSIGNED_INT_ATOMIC_COUNTER)
                .then(|| l.atomic_counters.iter().find(|c| c.name == u.name))
                .flatten();
            let in_block = u.block_index >= 0;
            let layout = |v: i32| if in_block || counter.is_some() { v } else { -1 };
            one(match prop {
                OFFSET => layout(u.offset),
                BLOCK_INDEX => u.block_index,
                ARRAY_STRIDE => layout(u.array_stride),
                MATRIX_STRIDE => layout(u.matrix_stride),
                IS_ROW_MAJOR => GLint::from(in_block && u.row_major),
                _ => counter.map_or(-1, |c| c.buffer as GLint),
            })
        }
        BUFFER_BINDING | BUFFER_DATA_SIZE | NUM_ACTIVE_VARIABLES | ACTIVE_VARIABLES => {
            let (binding, size, vars): (u32, i32, Vec<GLint>) = match interface {
                I::UniformBlock => {
                    let b = &l.blocks[i];
                    let vars = b.uniforms.iter().map(|&u| u as GLint).collect();
                    (b.binding, b.data_size, vars)
                }
                I::StorageBlock => {
                    let b = &l.storage_blocks[i];
                    let vars = b.variables.iter().map(|&v| v as GLint).collect();
                    (b.binding, b.data_size, vars)
                }
                I::TransformFeedbackBuffer => {
                    // Its varyings: those whose buffer index is this resource's (Mesa's
                    // answer, layout names included).
                    let b = xfb_buffers(l).nth(i).unwrap_or(0);
                    let vars = (0..l.xfb.len())
                        .filter(|&k| l.xfb[k].buffer_index == i as GLint)
                        .map(|k| k as GLint)
                        .collect();
                    (b, 0, vars)
                }
                I::AtomicCounterBuffer => {
                    // Its counters as active uniforms, which follow the others.
                    let b = &l.atomic_buffers[i];
                    let first = l.uniforms.len() - l.atomic_counters.len();
                    let vars = b.counters.iter().map(|&c| (first + c as usize) as GLint);
                    (b.binding, b.data_size, vars.collect())
                }
                _ => return wrong,
            };
            match prop {
                // Mesa's count of a buffer's varyings: those filed under its binding,
                // which is not always the list above (a `gl_NextBuffer` is filed under the
                // buffer before it and listed under the one it ends).
                NUM_ACTIVE_VARIABLES if interface == I::TransformFeedbackBuffer => {
                    one(l.xfb.iter().filter(|v| v.buffer == binding).count() as GLint)
                }
                BUFFER_BINDING => one(binding as GLint),
                BUFFER_DATA_SIZE if interface == I::TransformFeedbackBuffer => wrong,
                BUFFER_DATA_SIZE => one(size),
                NUM_ACTIVE_VARIABLES => one(vars.len() as GLint),
                _ => Ok(vars),
            }
        }
        TOP_LEVEL_ARRAY_SIZE | TOP_LEVEL_ARRAY_STRIDE => {
            let I::BufferVariable = interface else {
                return wrong;
            };
            let v = &l.buffer_variables[i];
            one(if prop == TOP_LEVEL_ARRAY_SIZE {
                v.top_level_size
            } else {
                v.top_level_stride
            })
        }
        LOCATION => match interface {
            I::Uniform => {
                let u = &l.uniforms[i];
                one(if u.block_index >= 0 { -1 } else { u.location })
            }
            I::Input => one(l.attributes[i].location),
            I::Output => one(l.outputs[i].location),
            _ => wrong,
        },
        LOCATION_COMPONENT => match interface {
            I::Input => one(l.attributes[i].component),
            I::Output => one(l.outputs[i].component),
            _ => wrong,
        },
        LOCATION_INDEX => match interface {
            I::Output => one(l.outputs[i].index),
            _ => wrong,
        },
        IS_PER_PATCH => match interface {
            I::Input | I::Output => one(0),
            _ => wrong,
        },
        _ => Err(INVALID_ENUM),
    }
}

impl Context {
    /// `glGetProgramInterfaceiv`: `INVALID_OPERATION` for an interface or `pname` it does
    /// not take, as Mesa answers (GL 4.3 names `INVALID_ENUM` for these).
    pub fn get_program_interfaceiv(
        &mut self,
        program: GLuint,
        interface: GLenum,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        let result = self.with_reflection(program, |l| {
            // Mesa answers INVALID_OPERATION for an interface or pname it does not take
            // here (the other calls answer INVALID_ENUM), and so does Tessera.
            let interface = Interface::from_gl(interface).map_err(|_| INVALID_OPERATION)?;
            let n = count(l, interface);
            Ok(match pname {
                ACTIVE_RESOURCES => n as GLint,
                MAX_NAME_LENGTH
                    if !matches!(
                        interface,
                        Interface::AtomicCounterBuffer | Interface::TransformFeedbackBuffer
                    ) =>
                {
                    l.map_or(0, |l| {
                        (0..n)
                            .map(|i| gl_length(&name(l, interface, i)))
                            .max()
                            .unwrap_or(0)
                    })
                }
                MAX_NUM_COMPATIBLE_SUBROUTINES
                    if matches!(interface, Interface::SubroutineUniform(_)) =>
                {
                    l.map_or(0, |l| {
                        (0..n)
                            .map(|i| {
                                property(l, interface, i, NUM_COMPATIBLE_SUBROUTINES)
                                    .map_or(0, |v| v[0])
                            })
                            .max()
                            .unwrap_or(0)
                    })
                }
                MAX_NUM_ACTIVE_VARIABLES if interface.is_block() => l.map_or(0, |l| {
                    (0..n)
                        .map(|i| {
                            property(l, interface, i, NUM_ACTIVE_VARIABLES).map_or(0, |v| v[0])
                        })
                        .max()
                        .unwrap_or(0)
                }),
                _ => return Err(INVALID_OPERATION),
            })
        });
        match result {
            Ok(v) => {
                if let Some(out) = params.first_mut() {
                    *out = v;
                }
            }
            Err(err) => self.error(err),
        }
    }

    /// `glGetProgramResourceIndex`: `INVALID_INDEX` for a name that is no active
    /// resource of the interface (or an array's element past the first).
    pub fn get_program_resource_index(
        &mut self,
        program: GLuint,
        interface: GLenum,
        name: &str,
    ) -> GLuint {
        let result = self.with_reflection(program, |l| {
            let interface = Interface::named_from_gl(interface)?;
            Ok(l.and_then(|l| {
                let i = index_of(l, interface, name)?;
                Some(match interface {
                    // A subroutine's index is its subroutine index (Mesa's answer).
                    Interface::Subroutine(s) => subroutines(l, s).functions[i].index,
                    _ => i as GLuint,
                })
            })
            .unwrap_or(INVALID_INDEX))
        });
        result.unwrap_or_else(|err| {
            self.error(err);
            INVALID_INDEX
        })
    }

    /// `glGetProgramResourceName`.
    pub fn get_program_resource_name(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        out: &mut [u8],
    ) {
        let result = self.with_reflection(program, |l| {
            let interface = Interface::named_from_gl(interface)?;
            if buf_size < 0 || index as usize >= count(l, interface) {
                return Err(INVALID_VALUE);
            }
            Ok(l.map(|l| name(l, interface, index as usize))
                .unwrap_or_default())
        });
        match result {
            Ok(n) => write_string(&n, buf_size, length, out),
            Err(err) => self.error(err),
        }
    }

    /// `glGetProgramResourceiv`: the values of each property in turn, as many as
    /// `buf_size` holds; `length` (if given) is how many were written. A property in error
    /// stops the query there, with the values before it written and `length` untouched.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn get_program_resourceiv(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        props: &[GLenum],
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        params: &mut [GLint],
    ) {
        let room = (buf_size.max(0) as usize).min(params.len());
        let mut written = 0;
        let result = self.with_reflection(program, |l| {
            let interface = Interface::from_gl(interface)?;
            if props.is_empty() || buf_size < 0 || index as usize >= count(l, interface) {
                return Err(INVALID_VALUE);
            }
            let Some(l) = l else {
                return Err(INVALID_VALUE);
            };
            for &prop in props {
                for v in property(l, interface, index as usize, prop)? {
                    if written < room {
                        params[written] = v;
                        written += 1;
                    }
                }
            }
            Ok(())
        });
        match result {
            Ok(()) => {
                if let Some(length) = length {
                    *length = written as GLsizei;
                }
            }
            Err(err) => self.error(err),
        }
    }

    /// `glGetProgramResourceLocation`: -1 for a name that is no resource with a location
    /// (a block member, a built-in); `INVALID_OPERATION` unless the program linked.
    pub fn get_program_resource_location(
        &mut self,
        program: GLuint,
        interface: GLenum,
        name: &str,
    ) -> GLint {
        let subroutine_uniform = match Interface::from_gl(interface) {
            Ok(Interface::SubroutineUniform(s)) => Some(s),
            _ => None,
        };
        if let Some(stage) = subroutine_uniform {
            let result = self.with_linked(program, |l| {
                Ok(super::subroutine::location_of(subroutines(l, stage), name)
                    .map_or(-1, |l| l as GLint))
            });
            return result.unwrap_or_else(|err| {
                self.error(err);
                -1
            });
        }
        if !matches!(interface, UNIFORM | PROGRAM_INPUT | PROGRAM_OUTPUT) {
            // Validate the program first: a bad name is its error.
            let checked = self.with_reflection(program, |_| Ok(()));
            self.error(checked.err().unwrap_or(INVALID_ENUM));
            return -1;
        }
        if name.starts_with("gl_") {
            let checked = self.with_linked(program, |_| Ok(()));
            if let Err(err) = checked {
                self.error(err);
            }
            return -1;
        }
        match interface {
            UNIFORM => {
                let result = self.with_linked(program, |l| Ok(uniform_location(l, name)));
                result.unwrap_or_else(|err| {
                    self.error(err);
                    -1
                })
            }
            PROGRAM_INPUT => self.get_attrib_location(program, name),
            _ => self.get_frag_data_location(program, name),
        }
    }

    /// `glGetProgramResourceLocationIndex`: the fragment output index of `name`, -1 if
    /// it is no output.
    pub fn get_program_resource_location_index(
        &mut self,
        program: GLuint,
        interface: GLenum,
        name: &str,
    ) -> GLint {
        if interface != PROGRAM_OUTPUT {
            let checked = self.with_reflection(program, |_| Ok(()));
            self.error(checked.err().unwrap_or(INVALID_ENUM));
            return -1;
        }
        self.get_frag_data_index(program, name)
    }
}

//! Reflection queries of linked programs, and the binding requests that apply at the next
//! link: attributes, fragment outputs, uniforms and uniform blocks.
//!
//! Everything here reads the [`LinkedProgram`] the client-side link produced; nothing waits
//! for the backend. Name lookups scan short lists and are not on any per-draw path.

use tessera_components::gl::*;
use tessera_components::object::{LinkedProgram, Program};
use tessera_wire::state::MAX_DRAW_BUFFERS;

use crate::context::{Context, GlResult};
use crate::limits;
use crate::shader::{gl_length, write_string};

/// `INVALID_INDEX` as `glGetUniformIndices` / `glGetUniformBlockIndex` return it.
const INVALID_INDEX_VALUE: GLuint = 0xFFFF_FFFF;

/// Dual-source blending draw buffers (`MAX_DUAL_SOURCE_DRAW_BUFFERS`).
const DUAL_SOURCE_DRAW_BUFFERS: GLuint = 1;

/// Splits `name[3]` into (`name`, Some(3)); other names into (name, None). As Mesa's
/// name parsing, an index with a sign or a leading zero (`name[+1]`, `name[01]`) is no
/// index.
fn split_index(name: &str) -> (&str, Option<u32>) {
    if let Some(open) = name
        .strip_suffix(']')
        .and_then(|n| n.rfind('[').map(|i| (n, i)))
    {
        let (n, i) = open;
        let digits = &n[i + 1..];
        if let Ok(index) = digits.parse::<u32>()
            && !digits.starts_with('+')
            && !(digits.len() > 1 && digits.starts_with('0'))
        {
            return (&name[..i], Some(index));
        }
    }
    (name, None)
}

/// Finds an array-or-not entry by a GL name: `x`, `x[0]` or `x[i]` with `i < size`.
/// Returns the entry and the element.
fn find_element<'a, T>(
    items: &'a [T],
    name: &str,
    name_of: impl Fn(&T) -> &str,
    size_of: impl Fn(&T) -> i32,
) -> Option<(&'a T, u32)> {
    if let Some(t) = items.iter().find(|t| name_of(t) == name) {
        return Some((t, 0));
    }
    let (base, index) = split_index(name);
    let index = index.unwrap_or(0);
    items.iter().find_map(|t| {
        let n = name_of(t);
        // Arrays are listed as `x[0]` (uniforms) or `x` (attributes, outputs).
        let array = n == base || n.strip_suffix("[0]") == Some(base);
        (array && (index as i32) < size_of(t).max(1)).then_some((t, index))
    })
}

/// Whether a name is reserved for built-ins (`gl_` prefix), which bindings may not use.
fn reserved(name: &str) -> bool {
    name.starts_with("gl_")
}

impl Context {
    /// `glBindAttribLocation`: applies at the next link.
    pub fn bind_attrib_location(&mut self, program: GLuint, index: GLuint, name: &str) {
        if index >= limits::VERTEX_ATTRIBS as GLuint {
            return self.error(INVALID_VALUE);
        }
        let result = self.with_program_mut(program, |p| {
            if reserved(name) {
                return Err(INVALID_OPERATION);
            }
            p.attrib_bindings.retain(|(n, _)| n != name);
            p.attrib_bindings.push((name.to_string(), index));
            Ok(())
        });
        if let Err(err) = result {
            self.error(err);
        }
    }

    /// Runs `f` on a program object (any link status).
    fn with_program_mut<R>(
        &mut self,
        program: GLuint,
        f: impl FnOnce(&mut Program) -> GlResult<R>,
    ) -> GlResult<R> {
        let mut sh = self.group.lock();
        let e = Self::program_entity(&sh, program)?;
        let mut p = sh.world.get_mut::<Program>(e).ok_or(INVALID_VALUE)?;
        f(&mut p)
    }

    /// `glGetAttribLocation`: -1 for names that are no active attribute (and built-ins).
    /// An element of an array (`d[1]`) is as many locations past the first as the elements
    /// before it take (two each for a `mat2`).
    pub fn get_attrib_location(&mut self, program: GLuint, name: &str) -> GLint {
        let result = self.with_linked(program, |l| {
            Ok(
                find_element(&l.attributes, name, |a| a.name.as_str(), |a| a.size)
                    .filter(|(a, _)| a.location >= 0)
                    .map_or(-1, |(a, e)| {
                        let slots = tessera_shader::gltype::attribute_slots(a.ty);
                        a.location + (e * slots) as GLint
                    }),
            )
        });
        result.unwrap_or_else(|err| {
            self.error(err);
            -1
        })
    }

    /// `glGetActiveAttrib`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn get_active_attrib(
        &mut self,
        program: GLuint,
        index: GLuint,
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        size: &mut GLint,
        ty: &mut GLenum,
        name: &mut [u8],
    ) {
        let result = self.with_reflection(program, |l| {
            let a = l
                .and_then(|l| l.attributes.get(index as usize))
                .ok_or(INVALID_VALUE)?;
            if buf_size < 0 {
                return Err(INVALID_VALUE);
            }
            Ok((a.name.clone(), a.size, a.ty))
        });
        match result {
            Ok((n, s, t)) => {
                write_string(&n, buf_size, length, name);
                *size = s;
                *ty = t;
            }
            Err(err) => self.error(err),
        }
    }

    /// `glBindFragDataLocation`.
    pub fn bind_frag_data_location(&mut self, program: GLuint, color: GLuint, name: &str) {
        self.bind_frag_data_location_indexed(program, color, 0, name);
    }

    /// `glBindFragDataLocationIndexed`: applies at the next link.
    pub fn bind_frag_data_location_indexed(
        &mut self,
        program: GLuint,
        color: GLuint,
        index: GLuint,
        name: &str,
    ) {
        if index > 1
            || (index == 1 && color >= DUAL_SOURCE_DRAW_BUFFERS)
            || color >= MAX_DRAW_BUFFERS as GLuint
        {
            return self.error(INVALID_VALUE);
        }
        let result = self.with_program_mut(program, |p| {
            if reserved(name) {
                return Err(INVALID_OPERATION);
            }
            p.frag_data_bindings.retain(|(n, _, _)| n != name);
            p.frag_data_bindings.push((name.to_string(), color, index));
            Ok(())
        });
        if let Err(err) = result {
            self.error(err);
        }
    }

    /// `glGetFragDataLocation`: -1 for names that are no active output.
    pub fn get_frag_data_location(&mut self, program: GLuint, name: &str) -> GLint {
        let result = self.with_linked(program, |l| {
            Ok(
                find_element(&l.outputs, name, |o| o.name.as_str(), |o| o.size)
                    .map_or(-1, |(o, e)| o.location + e as GLint),
            )
        });
        result.unwrap_or_else(|err| {
            self.error(err);
            -1
        })
    }

    /// `glGetFragDataIndex`: -1 for names that are no active output.
    pub fn get_frag_data_index(&mut self, program: GLuint, name: &str) -> GLint {
        let result = self.with_linked(program, |l| {
            Ok(
                find_element(&l.outputs, name, |o| o.name.as_str(), |o| o.size)
                    .map_or(-1, |(o, _)| o.index),
            )
        });
        result.unwrap_or_else(|err| {
            self.error(err);
            -1
        })
    }

    /// `glGetUniformLocation`: -1 for names that are no active default-block uniform or
    /// element.
    pub fn get_uniform_location(&mut self, program: GLuint, name: &str) -> GLint {
        let result = self.with_linked(program, |l| Ok(uniform_location(l, name)));
        result.unwrap_or_else(|err| {
            self.error(err);
            -1
        })
    }

    /// `glGetActiveUniform`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn get_active_uniform(
        &mut self,
        program: GLuint,
        index: GLuint,
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        size: &mut GLint,
        ty: &mut GLenum,
        name: &mut [u8],
    ) {
        let result = self.with_reflection(program, |l| {
            let u = l
                .and_then(|l| l.uniforms.get(index as usize))
                .ok_or(INVALID_VALUE)?;
            if buf_size < 0 {
                return Err(INVALID_VALUE);
            }
            Ok((u.name.clone(), u.size, u.ty))
        });
        match result {
            Ok((n, s, t)) => {
                write_string(&n, buf_size, length, name);
                *size = s;
                *ty = t;
            }
            Err(err) => self.error(err),
        }
    }

    /// `glGetActiveUniformName`.
    pub fn get_active_uniform_name(
        &mut self,
        program: GLuint,
        index: GLuint,
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        name: &mut [u8],
    ) {
        if buf_size < 0 {
            return self.error(INVALID_VALUE);
        }
        let result = self.with_reflection(program, |l| {
            l.and_then(|l| l.uniforms.get(index as usize))
                .map(|u| u.name.clone())
                .ok_or(INVALID_VALUE)
        });
        match result {
            Ok(n) => write_string(&n, buf_size, length, name),
            Err(err) => self.error(err),
        }
    }

    /// `glGetActiveUniformsiv`: one value per index; nothing is written on error.
    pub fn get_active_uniformsiv(
        &mut self,
        program: GLuint,
        count: GLsizei,
        indices: &[GLuint],
        pname: GLenum,
        params: &mut [GLint],
    ) {
        if count < 0 {
            return self.error(INVALID_VALUE);
        }
        let indices = &indices[..(count as usize).min(indices.len())];
        let result = self.with_reflection(program, |l| {
            if !matches!(
                pname,
                UNIFORM_TYPE
                    | UNIFORM_SIZE
                    | UNIFORM_NAME_LENGTH
                    | UNIFORM_BLOCK_INDEX
                    | UNIFORM_OFFSET
                    | UNIFORM_ARRAY_STRIDE
                    | UNIFORM_MATRIX_STRIDE
                    | UNIFORM_IS_ROW_MAJOR
                    | UNIFORM_ATOMIC_COUNTER_BUFFER_INDEX
            ) {
                return Err(INVALID_ENUM);
            }
            let uniforms = l.map_or(&[][..], |l| &l.uniforms[..]);
            if indices.iter().any(|&i| i as usize >= uniforms.len()) {
                return Err(INVALID_VALUE);
            }
            for (out, &i) in params.iter_mut().zip(indices) {
                let u = &uniforms[i as usize];
                // Default-block uniforms and samplers have no layout GL exposes; atomic
                // counters have their offset and stride in their buffer.
                let counter = l
                    .filter(|_| u.ty == UNSIGNED_INT_ATOMIC_COUNTER)
                    .and_then(|l| l.atomic_counters.iter().find(|c| c.name == u.name));
                let in_block = u.block_index >= 0;
                let layout = |v: i32| if in_block || counter.is_some() { v } else { -1 };
                *out = match pname {
                    UNIFORM_TYPE => u.ty as GLint,
                    UNIFORM_SIZE => u.size,
                    UNIFORM_NAME_LENGTH => gl_length(&u.name),
                    UNIFORM_BLOCK_INDEX => u.block_index,
                    UNIFORM_OFFSET => layout(u.offset),
                    UNIFORM_ARRAY_STRIDE => layout(u.array_stride),
                    UNIFORM_MATRIX_STRIDE => layout(u.matrix_stride),
                    UNIFORM_ATOMIC_COUNTER_BUFFER_INDEX => counter.map_or(-1, |c| c.buffer as i32),
                    _ => GLint::from(in_block && u.row_major),
                };
            }
            Ok(())
        });
        if let Err(err) = result {
            self.error(err);
        }
    }

    /// `glGetUniformIndices`: `INVALID_INDEX` for names that are no active uniform.
    pub fn get_uniform_indices(
        &mut self,
        program: GLuint,
        count: GLsizei,
        names: &[&str],
        indices: &mut [GLuint],
    ) {
        if count < 0 {
            return self.error(INVALID_VALUE);
        }
        let n = (count as usize).min(names.len()).min(indices.len());
        let result = self.with_reflection(program, |l| {
            for (out, name) in indices.iter_mut().zip(names).take(n) {
                *out = l
                    .and_then(|l| {
                        l.uniforms.iter().position(|u| {
                            u.name == *name || u.name.strip_suffix("[0]") == Some(name)
                        })
                    })
                    .map_or(INVALID_INDEX_VALUE, |i| i as GLuint);
            }
            Ok(())
        });
        if let Err(err) = result {
            self.error(err);
        }
    }

    /// `glGetUniformBlockIndex`: `INVALID_INDEX` for names that are no active block (and,
    /// as in Mesa, for programs that are not linked).
    pub fn get_uniform_block_index(&mut self, program: GLuint, name: &str) -> GLuint {
        // An element of an array of arrays of blocks may be named without its innermost
        // `[0]`s (`B[1]` is `B[1][0]`), as Mesa finds it; the bare name finds none.
        let names = |b: &str| {
            b == name
                || (name.ends_with(']')
                    && b.strip_prefix(name).is_some_and(|rest| {
                        !rest.is_empty()
                            && rest.len() % 3 == 0
                            && rest.split_inclusive(']').all(|i| i == "[0]")
                    }))
        };
        let result = self.with_reflection(program, |l| {
            Ok(l.and_then(|l| l.blocks.iter().position(|b| names(&b.name)))
                .map_or(INVALID_INDEX_VALUE, |i| i as GLuint))
        });
        result.unwrap_or_else(|err| {
            self.error(err);
            INVALID_INDEX_VALUE
        })
    }

    /// `glGetActiveUniformBlockiv` (`UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES` writes one value
    /// per member).
    pub fn get_active_uniform_blockiv(
        &mut self,
        program: GLuint,
        index: GLuint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        let result = self.with_reflection(program, |l| {
            let b = l
                .and_then(|l| l.blocks.get(index as usize))
                .ok_or(INVALID_VALUE)?;
            let stage = |bit: u8| GLint::from(b.stages & (1 << bit) != 0);
            let v = match pname {
                UNIFORM_BLOCK_BINDING => b.binding as GLint,
                UNIFORM_BLOCK_DATA_SIZE => b.data_size,
                UNIFORM_BLOCK_NAME_LENGTH => gl_length(&b.name),
                UNIFORM_BLOCK_ACTIVE_UNIFORMS => b.uniforms.len() as GLint,
                UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES => {
                    for (out, u) in params.iter_mut().zip(&b.uniforms) {
                        *out = *u as GLint;
                    }
                    return Ok(());
                }
                UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER => stage(0),
                UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER => stage(1),
                UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER => stage(2),
                // GL 4.3 (ARB_compute_shader).
                UNIFORM_BLOCK_REFERENCED_BY_COMPUTE_SHADER => stage(3),
                // GL 4.0 (ARB_tessellation_shader).
                UNIFORM_BLOCK_REFERENCED_BY_TESS_CONTROL_SHADER => stage(4),
                UNIFORM_BLOCK_REFERENCED_BY_TESS_EVALUATION_SHADER => stage(5),
                _ => return Err(INVALID_ENUM),
            };
            if let Some(p) = params.first_mut() {
                *p = v;
            }
            Ok(())
        });
        if let Err(err) = result {
            self.error(err);
        }
    }

    /// `glGetActiveUniformBlockName`.
    pub fn get_active_uniform_block_name(
        &mut self,
        program: GLuint,
        index: GLuint,
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        name: &mut [u8],
    ) {
        if buf_size < 0 {
            return self.error(INVALID_VALUE);
        }
        let result = self.with_reflection(program, |l| {
            l.and_then(|l| l.blocks.get(index as usize))
                .map(|b| b.name.clone())
                .ok_or(INVALID_VALUE)
        });
        match result {
            Ok(n) => write_string(&n, buf_size, length, name),
            Err(err) => self.error(err),
        }
    }

    /// `glUniformBlockBinding`: the block reads the buffer range of binding point
    /// `binding`.
    pub fn uniform_block_binding(&mut self, program: GLuint, index: GLuint, binding: GLuint) {
        let mut sh = self.group.lock();
        let result = Self::program_entity(&sh, program).and_then(|e| {
            let mut p = sh.world.get_mut::<Program>(e).ok_or(INVALID_VALUE)?;
            let linked = p.linked;
            let block = p
                .linked_state
                .as_mut()
                .filter(|_| linked)
                .and_then(|l| l.blocks.get_mut(index as usize))
                .ok_or(INVALID_VALUE)?;
            if binding >= limits::UBO_BINDINGS as GLuint {
                return Err(INVALID_VALUE);
            }
            if block.binding != binding {
                block.binding = binding;
                p.generation = p.generation.wrapping_add(1);
            }
            Ok(e)
        });
        drop(sh);
        match result {
            Ok(e) => {
                if self.local.st.program == Some(e) {
                    self.local.touch(tessera_components::Dirty::UNIFORM_BUFFERS);
                }
            }
            Err(err) => self.error(err),
        }
    }
    /// `glGetActiveAtomicCounterBufferiv` (GL 4.2): `INVALID_VALUE` for a buffer index past
    /// the program's atomic counter buffers, then `INVALID_ENUM` for another name, as Mesa.
    pub fn get_active_atomic_counter_bufferiv(
        &mut self,
        program: GLuint,
        buffer: GLuint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        let result = self.with_reflection(program, |l| {
            let b = l
                .and_then(|l| l.atomic_buffers.get(buffer as usize))
                .ok_or(INVALID_VALUE)?;
            let stage =
                |s: tessera_wire::format::ShaderStage| GLint::from((b.stages >> s as u8) & 1);
            use tessera_wire::format::ShaderStage as S;
            match pname {
                ATOMIC_COUNTER_BUFFER_BINDING => params[0] = b.binding as GLint,
                ATOMIC_COUNTER_BUFFER_DATA_SIZE => params[0] = b.data_size,
                ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS => {
                    params[0] = b.counters.len() as GLint
                }
                ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES => {
                    // Indices in the active uniform list, where the counters follow the
                    // other uniforms.
                    let l = l.ok_or(INVALID_VALUE)?;
                    let first = l.uniforms.len() - l.atomic_counters.len();
                    for (out, &c) in params.iter_mut().zip(&b.counters) {
                        *out = (first + c as usize) as GLint;
                    }
                }
                ATOMIC_COUNTER_BUFFER_REFERENCED_BY_VERTEX_SHADER => params[0] = stage(S::Vertex),
                ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_CONTROL_SHADER => {
                    params[0] = stage(S::TessControl)
                }
                ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_EVALUATION_SHADER => {
                    params[0] = stage(S::TessEvaluation)
                }
                ATOMIC_COUNTER_BUFFER_REFERENCED_BY_GEOMETRY_SHADER => {
                    params[0] = stage(S::Geometry)
                }
                ATOMIC_COUNTER_BUFFER_REFERENCED_BY_FRAGMENT_SHADER => {
                    params[0] = stage(S::Fragment)
                }
                ATOMIC_COUNTER_BUFFER_REFERENCED_BY_COMPUTE_SHADER => params[0] = stage(S::Compute),
                _ => return Err(INVALID_ENUM),
            }
            Ok(())
        });
        if let Err(err) = result {
            self.error(err);
        }
    }
}

/// The location of a uniform name in a linked program, or -1.
pub(crate) fn uniform_location(l: &LinkedProgram, name: &str) -> GLint {
    let located = l.uniforms.iter().filter(|u| u.location >= 0);
    let found = located
        .clone()
        .find(|u| u.name == name)
        .map(|u| (u, 0))
        .or_else(|| {
            let (base, index) = split_index(name);
            let index = index.unwrap_or(0);
            located.clone().find_map(|u| {
                let array = u.name.strip_suffix("[0]") == Some(base) && (index as i32) < u.size;
                let plain = u.name == base && index == 0;
                (array || plain).then_some((u, index))
            })
        });
    // An innermost array of an array of arrays answers for its name without `[0]` too
    // (`a[1]` is `a[1][0]`), as in Mesa.
    found
        .or_else(|| {
            let inner = format!("{name}[0]");
            (name.ends_with(']') && split_index(name).1.is_some())
                .then(|| located.clone().find(|u| u.name == inner))
                .flatten()
                .map(|u| (u, 0))
        })
        .map_or(-1, |(u, e)| u.location + e as GLint)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_indices() {
        assert_eq!(split_index("a[3]"), ("a", Some(3)));
        assert_eq!(split_index("s[1].b[0]"), ("s[1].b", Some(0)));
        assert_eq!(split_index("a[x]"), ("a[x]", None));
        assert_eq!(split_index("a"), ("a", None));
        assert_eq!(split_index("a[+1]"), ("a[+1]", None));
        assert_eq!(split_index("a[01]"), ("a[01]", None));
        assert_eq!(split_index("a[0]"), ("a", Some(0)));
        assert_eq!(split_index("a[10]"), ("a", Some(10)));
    }
}

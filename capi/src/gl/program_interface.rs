//! Program interface queries (GL 4.3, `ARB_program_interface_query`): the engine's
//! `engine::program::resource` answers them.

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `glGetProgramInterfaceiv`: one value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetProgramInterfaceiv(
    program: GLuint,
    program_interface: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: GL contract: `params` has room for one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetProgramInterfaceiv", (), |c| {
        c.get_program_interfaceiv(program, program_interface, pname, out)
    });
}

/// `glGetProgramResourceIndex`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetProgramResourceIndex(
    program: GLuint,
    program_interface: GLenum,
    name: *const GLchar,
) -> GLuint {
    // SAFETY: GL contract: `name` is NUL-terminated.
    let name = unsafe { ptr::string(name) };
    gl_call("glGetProgramResourceIndex", u32::MAX, |c| {
        c.get_program_resource_index(program, program_interface, &name)
    })
}

/// `glGetProgramResourceName`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetProgramResourceName(
    program: GLuint,
    program_interface: GLenum,
    index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    name: *mut GLchar,
) {
    // SAFETY: GL contract: `name` has room for `buf_size` bytes, `length` for one value.
    let (out, len) = unsafe {
        (
            ptr::slice_mut(name.cast::<u8>(), ptr::len(buf_size)),
            ptr::out(length),
        )
    };
    gl_call("glGetProgramResourceName", (), |c| {
        c.get_program_resource_name(program, program_interface, index, buf_size, len, out)
    });
}

/// `glGetActiveAtomicCounterBufferiv` (GL 4.2).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetActiveAtomicCounterBufferiv(
    program: GLuint,
    buffer_index: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    // The values `pname` asks for: one, or the buffer's active counters for the indices.
    use tessera_engine::gl::{
        ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES,
        ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS,
    };
    let count = if pname == ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES {
        let mut n = [0];
        gl_call("glGetActiveAtomicCounterBufferiv", (), |c| {
            c.get_active_atomic_counter_bufferiv(
                program,
                buffer_index,
                ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS,
                &mut n,
            )
        });
        n[0].max(0) as usize
    } else {
        1
    };
    // SAFETY: GL contract: `params` has room for the values `pname` asks for.
    let out = unsafe { ptr::slice_mut(params, count) };
    gl_call("glGetActiveAtomicCounterBufferiv", (), |c| {
        c.get_active_atomic_counter_bufferiv(program, buffer_index, pname, out)
    });
}

/// `glGetProgramResourceiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetProgramResourceiv(
    program: GLuint,
    program_interface: GLenum,
    index: GLuint,
    prop_count: GLsizei,
    props: *const GLenum,
    buf_size: GLsizei,
    length: *mut GLsizei,
    params: *mut GLint,
) {
    // SAFETY: GL contract: `props` holds `prop_count` values, `params` has room for
    // `buf_size` and `length` for one.
    let (props, out, len) = unsafe {
        (
            ptr::slice(props, ptr::len(prop_count)),
            ptr::slice_mut(params, ptr::len(buf_size)),
            ptr::out(length),
        )
    };
    gl_call("glGetProgramResourceiv", (), |c| {
        // A negative count is the engine's INVALID_VALUE, as an empty list.
        let props = if prop_count <= 0 { &[][..] } else { props };
        c.get_program_resourceiv(program, program_interface, index, props, buf_size, len, out)
    });
}

/// `glGetProgramResourceLocation`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetProgramResourceLocation(
    program: GLuint,
    program_interface: GLenum,
    name: *const GLchar,
) -> GLint {
    // SAFETY: GL contract: `name` is NUL-terminated.
    let name = unsafe { ptr::string(name) };
    gl_call("glGetProgramResourceLocation", -1, |c| {
        c.get_program_resource_location(program, program_interface, &name)
    })
}

/// `glGetProgramResourceLocationIndex`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetProgramResourceLocationIndex(
    program: GLuint,
    program_interface: GLenum,
    name: *const GLchar,
) -> GLint {
    // SAFETY: GL contract: `name` is NUL-terminated.
    let name = unsafe { ptr::string(name) };
    gl_call("glGetProgramResourceLocationIndex", -1, |c| {
        c.get_program_resource_location_index(program, program_interface, &name)
    })
}

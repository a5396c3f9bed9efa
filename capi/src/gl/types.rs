//! The C types of `glcorearb.h`, as the exported signatures spell them.

pub use tessera_engine::gl::{
    GLbitfield, GLboolean, GLdouble, GLenum, GLfloat, GLint, GLint64, GLintptr, GLsizei,
    GLsizeiptr, GLuint, GLuint64,
};

/// `GLbyte`.
pub type GLbyte = i8;
/// `GLshort`.
pub type GLshort = i16;
/// `GLubyte`.
pub type GLubyte = u8;
/// `GLushort`.
pub type GLushort = u16;
/// `GLchar` (C's `char`).
pub type GLchar = std::ffi::c_char;
/// `GLsync`: an opaque pointer; Tessera's are the engine's sync values.
pub type GLsync = *mut std::ffi::c_void;

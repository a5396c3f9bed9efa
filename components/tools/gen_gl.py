#!/usr/bin/env python3
"""Generates components/src/gl.rs from the Khronos glcorearb.h header.

Usage: python3 components/tools/gen_gl.py /usr/include/GL/glcorearb.h > components/src/gl.rs

Only the constants of the core versions (GL_VERSION_1_0 .. GL_VERSION_4_6) are taken, so the
set matches what a core-profile implementation may be asked about.
"""
import re
import sys

header = open(sys.argv[1]).read()
out = []
seen = set()
in_core = False
for line in header.splitlines():
    m = re.match(r'#ifndef (GL_VERSION_\d_\d)', line)
    if m:
        in_core = True
        out.append(f"\n// {m.group(1)}")
        continue
    if re.match(r'#ifndef GL_(ARB|EXT|KHR|AMD|NV|INTEL|MESA|OVR|APPLE)_', line):
        in_core = False
        continue
    m = re.match(r'#define GL_(\w+)\s+(0x[0-9A-Fa-f]+|\d+)(?:u|ull)?\s*$', line)
    if m and in_core:
        name, value = m.groups()
        if name.startswith('VERSION_') or name in seen:
            continue
        seen.add(name)
        v = int(value, 0)
        ty = 'u64' if v > 0xFFFFFFFF else 'GLenum'
        if name[0].isdigit():
            name = '_' + name
        out.append(f"pub const {name}: {ty} = {value};")

print("""//! OpenGL constants of the core versions 1.0 through 4.6, generated from Khronos'
//! `glcorearb.h` by `components/tools/gen_gl.py`. Do not edit by hand.

#![allow(non_upper_case_globals, reason = "generated constants keep the GL registry's names (FLOAT_MAT2x3)")]

/// `GLenum`.
pub type GLenum = u32;
/// `GLbitfield`.
pub type GLbitfield = u32;
/// `GLuint`.
pub type GLuint = u32;
/// `GLint`.
pub type GLint = i32;
/// `GLsizei`.
pub type GLsizei = i32;
/// `GLboolean`.
pub type GLboolean = u8;
/// `GLfloat`.
pub type GLfloat = f32;
/// `GLdouble`.
pub type GLdouble = f64;
/// `GLintptr`.
pub type GLintptr = isize;
/// `GLsizeiptr`.
pub type GLsizeiptr = isize;
/// `GLint64`.
pub type GLint64 = i64;
/// `GLuint64`.
pub type GLuint64 = u64;
/// `GLchar`.
pub type GLchar = u8;
""" + "\n".join(out))

//! Double precision (GL 4.0's `ARB_gpu_shader_fp64`, GL 4.1's `ARB_vertex_attrib_64bit`)
//! against the native driver: double uniforms of every shape set with `glUniform*d` and
//! `glProgramUniform*d` and read back with `glGetUniformdv/fv/iv/uiv`, with Mesa's errors; a
//! draw whose colour depends on double arithmetic that floats would get wrong; double
//! vertex arrays (`glVertexAttribLPointer`: a `dvec2` position and a `dvec4`) and a
//! `glVertexAttribL4d` current value; double matrices, `dvec3`/`dvec4` inputs and arrays of
//! them at assigned and explicit locations among float and integer inputs (one GL location
//! per vector, two SPIR-V ones on Vulkan); and std140 and std430 blocks of
//! doubles read and written by a compute shader. The Vulkan backend (validation layer on,
//! which must report nothing) must give exactly the native values, pixels and errors. The
//! GLES backend has no doubles: it advertises neither extension and fails the link of a
//! program that uses them.

#![expect(
    unsafe_code,
    reason = "the native driver's double entry points, called through their C signatures"
)]

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The double entry points, which the shared [`Gl`] table has no entry for.
trait Fp64Gl: Gl {
    /// `glUniform{N}dv` or `glUniformMatrix*dv` for a shape of `rows` x `columns`.
    fn uniform_dv(&mut self, location: GLint, rows: u8, columns: u8, count: GLsizei, v: &[f64]);
    /// `glProgramUniform{N}dv` or `glProgramUniformMatrix*dv`.
    fn program_uniform_dv(
        &mut self,
        program: GLuint,
        location: GLint,
        rows: u8,
        columns: u8,
        count: GLsizei,
        v: &[f64],
    );
    /// `glUniform1d`.
    fn uniform1d(&mut self, location: GLint, x: f64);
    /// `glGetUniformdv` (16 values at most).
    fn get_uniformdv(&mut self, program: GLuint, location: GLint) -> [f64; 16];
    /// `glGetUniformfv`.
    fn get_uniformfv(&mut self, program: GLuint, location: GLint) -> [f32; 16];
    /// `glGetUniformiv`.
    fn get_uniformiv(&mut self, program: GLuint, location: GLint) -> [i32; 16];
    /// `glGetUniformuiv`.
    fn get_uniformuiv(&mut self, program: GLuint, location: GLint) -> [u32; 16];
    /// `glVertexAttribLPointer`.
    fn vertex_attrib_l_pointer(&mut self, index: GLuint, size: GLint, ty: GLenum, stride: i32);
    /// `glVertexAttribLFormat`.
    fn vertex_attrib_l_format(&mut self, index: GLuint, size: GLint, ty: GLenum, offset: GLuint);
    /// `glVertexAttribL4d`.
    fn vertex_attrib_l4d(&mut self, index: GLuint, v: [f64; 4]);
    /// `glGetVertexAttribLdv` (four values at most).
    fn get_vertex_attrib_ldv(&mut self, index: GLuint, pname: GLenum) -> [f64; 4];
    /// `glGetVertexAttribiv` of one value.
    fn get_vertex_attribi(&mut self, index: GLuint, pname: GLenum) -> GLint;
}

impl Fp64Gl for Context {
    fn uniform_dv(&mut self, location: GLint, rows: u8, columns: u8, count: GLsizei, v: &[f64]) {
        match (rows, columns) {
            (1, 1) => self.uniform1dv(location, count, v),
            (2, 1) => self.uniform2dv(location, count, v),
            (3, 1) => self.uniform3dv(location, count, v),
            (4, 1) => self.uniform4dv(location, count, v),
            (2, 2) => self.uniform_matrix2dv(location, count, 0, v),
            (3, 3) => self.uniform_matrix3dv(location, count, 0, v),
            (4, 4) => self.uniform_matrix4dv(location, count, 0, v),
            (3, 2) => self.uniform_matrix2x3dv(location, count, 0, v),
            (2, 3) => self.uniform_matrix3x2dv(location, count, 0, v),
            (4, 2) => self.uniform_matrix2x4dv(location, count, 0, v),
            (2, 4) => self.uniform_matrix4x2dv(location, count, 0, v),
            (4, 3) => self.uniform_matrix3x4dv(location, count, 0, v),
            (3, 4) => self.uniform_matrix4x3dv(location, count, 0, v),
            _ => unreachable!(),
        }
    }
    fn program_uniform_dv(
        &mut self,
        program: GLuint,
        location: GLint,
        rows: u8,
        columns: u8,
        count: GLsizei,
        v: &[f64],
    ) {
        let (p, l) = (program, location);
        match (rows, columns) {
            (1, 1) => self.program_uniform1dv(p, l, count, v),
            (2, 1) => self.program_uniform2dv(p, l, count, v),
            (3, 1) => self.program_uniform3dv(p, l, count, v),
            (4, 1) => self.program_uniform4dv(p, l, count, v),
            (2, 2) => self.program_uniform_matrix2dv(p, l, count, 0, v),
            (3, 3) => self.program_uniform_matrix3dv(p, l, count, 0, v),
            (4, 4) => self.program_uniform_matrix4dv(p, l, count, 0, v),
            (3, 2) => self.program_uniform_matrix2x3dv(p, l, count, 0, v),
            (2, 3) => self.program_uniform_matrix3x2dv(p, l, count, 0, v),
            (4, 2) => self.program_uniform_matrix2x4dv(p, l, count, 0, v),
            (2, 4) => self.program_uniform_matrix4x2dv(p, l, count, 0, v),
            (4, 3) => self.program_uniform_matrix3x4dv(p, l, count, 0, v),
            (3, 4) => self.program_uniform_matrix4x3dv(p, l, count, 0, v),
            _ => unreachable!(),
        }
    }
    fn uniform1d(&mut self, location: GLint, x: f64) {
        Context::uniform1d(self, location, x);
    }
    fn get_uniformdv(&mut self, program: GLuint, location: GLint) -> [f64; 16] {
        let mut v = [-7.0; 16];
        Context::get_uniformdv(self, program, location, &mut v);
        v
    }
    fn get_uniformfv(&mut self, program: GLuint, location: GLint) -> [f32; 16] {
        let mut v = [-7.0; 16];
        Context::get_uniformfv(self, program, location, &mut v);
        v
    }
    fn get_uniformiv(&mut self, program: GLuint, location: GLint) -> [i32; 16] {
        let mut v = [-7; 16];
        Context::get_uniformiv(self, program, location, &mut v);
        v
    }
    fn get_uniformuiv(&mut self, program: GLuint, location: GLint) -> [u32; 16] {
        let mut v = [7; 16];
        Context::get_uniformuiv(self, program, location, &mut v);
        v
    }
    fn vertex_attrib_l_pointer(&mut self, index: GLuint, size: GLint, ty: GLenum, stride: i32) {
        Context::vertex_attrib_l_pointer(self, index, size, ty, stride, 0);
    }
    fn vertex_attrib_l_format(&mut self, index: GLuint, size: GLint, ty: GLenum, offset: GLuint) {
        Context::vertex_attrib_l_format(self, index, size, ty, offset);
    }
    fn vertex_attrib_l4d(&mut self, index: GLuint, v: [f64; 4]) {
        Context::vertex_attrib_l4d(self, index, v[0], v[1], v[2], v[3]);
    }
    fn get_vertex_attrib_ldv(&mut self, index: GLuint, pname: GLenum) -> [f64; 4] {
        let mut v = [-7.0; 4];
        Context::get_vertex_attrib_ldv(self, index, pname, &mut v);
        v
    }
    fn get_vertex_attribi(&mut self, index: GLuint, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_vertex_attribiv(self, index, pname, &mut v);
        v[0]
    }
}

/// The native entry point `name` with the C signature `F`.
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

impl Fp64Gl for NativeGl {
    fn uniform_dv(&mut self, location: GLint, rows: u8, columns: u8, count: GLsizei, v: &[f64]) {
        type V = unsafe extern "system" fn(GLint, GLsizei, *const f64);
        type M = unsafe extern "system" fn(GLint, GLsizei, GLboolean, *const f64);
        let matrix = |name| native::<M>(self, name);
        let p = v.as_ptr();
        // SAFETY: the context is current on this thread; `v` holds `count` elements.
        unsafe {
            match (rows, columns) {
                (1, 1) => native::<V>(self, "glUniform1dv")(location, count, p),
                (2, 1) => native::<V>(self, "glUniform2dv")(location, count, p),
                (3, 1) => native::<V>(self, "glUniform3dv")(location, count, p),
                (4, 1) => native::<V>(self, "glUniform4dv")(location, count, p),
                (2, 2) => matrix("glUniformMatrix2dv")(location, count, 0, p),
                (3, 3) => matrix("glUniformMatrix3dv")(location, count, 0, p),
                (4, 4) => matrix("glUniformMatrix4dv")(location, count, 0, p),
                (3, 2) => matrix("glUniformMatrix2x3dv")(location, count, 0, p),
                (2, 3) => matrix("glUniformMatrix3x2dv")(location, count, 0, p),
                (4, 2) => matrix("glUniformMatrix2x4dv")(location, count, 0, p),
                (2, 4) => matrix("glUniformMatrix4x2dv")(location, count, 0, p),
                (4, 3) => matrix("glUniformMatrix3x4dv")(location, count, 0, p),
                (3, 4) => matrix("glUniformMatrix4x3dv")(location, count, 0, p),
                _ => unreachable!(),
            }
        }
    }
    fn program_uniform_dv(
        &mut self,
        program: GLuint,
        location: GLint,
        rows: u8,
        columns: u8,
        count: GLsizei,
        v: &[f64],
    ) {
        type V = unsafe extern "system" fn(GLuint, GLint, GLsizei, *const f64);
        type M = unsafe extern "system" fn(GLuint, GLint, GLsizei, GLboolean, *const f64);
        let vector = |name| native::<V>(self, name);
        let matrix = |name| native::<M>(self, name);
        let (pr, l, p) = (program, location, v.as_ptr());
        // SAFETY: the context is current on this thread; `v` holds `count` elements.
        unsafe {
            match (rows, columns) {
                (1, 1) => vector("glProgramUniform1dv")(pr, l, count, p),
                (2, 1) => vector("glProgramUniform2dv")(pr, l, count, p),
                (3, 1) => vector("glProgramUniform3dv")(pr, l, count, p),
                (4, 1) => vector("glProgramUniform4dv")(pr, l, count, p),
                (2, 2) => matrix("glProgramUniformMatrix2dv")(pr, l, count, 0, p),
                (3, 3) => matrix("glProgramUniformMatrix3dv")(pr, l, count, 0, p),
                (4, 4) => matrix("glProgramUniformMatrix4dv")(pr, l, count, 0, p),
                (3, 2) => matrix("glProgramUniformMatrix2x3dv")(pr, l, count, 0, p),
                (2, 3) => matrix("glProgramUniformMatrix3x2dv")(pr, l, count, 0, p),
                (4, 2) => matrix("glProgramUniformMatrix2x4dv")(pr, l, count, 0, p),
                (2, 4) => matrix("glProgramUniformMatrix4x2dv")(pr, l, count, 0, p),
                (4, 3) => matrix("glProgramUniformMatrix3x4dv")(pr, l, count, 0, p),
                (3, 4) => matrix("glProgramUniformMatrix4x3dv")(pr, l, count, 0, p),
                _ => unreachable!(),
            }
        }
    }
    fn uniform1d(&mut self, location: GLint, x: f64) {
        let f: unsafe extern "system" fn(GLint, f64) = native(self, "glUniform1d");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(location, x) }
    }
    fn get_uniformdv(&mut self, program: GLuint, location: GLint) -> [f64; 16] {
        let f: unsafe extern "system" fn(GLuint, GLint, *mut f64) = native(self, "glGetUniformdv");
        let mut v = [-7.0; 16];
        // SAFETY: the context is current on this thread; 16 values hold any uniform's.
        unsafe { f(program, location, v.as_mut_ptr()) };
        v
    }
    fn get_uniformfv(&mut self, program: GLuint, location: GLint) -> [f32; 16] {
        let f: unsafe extern "system" fn(GLuint, GLint, *mut f32) = native(self, "glGetUniformfv");
        let mut v = [-7.0; 16];
        // SAFETY: as `get_uniformdv`.
        unsafe { f(program, location, v.as_mut_ptr()) };
        v
    }
    fn get_uniformiv(&mut self, program: GLuint, location: GLint) -> [i32; 16] {
        let f: unsafe extern "system" fn(GLuint, GLint, *mut i32) = native(self, "glGetUniformiv");
        let mut v = [-7; 16];
        // SAFETY: as `get_uniformdv`.
        unsafe { f(program, location, v.as_mut_ptr()) };
        v
    }
    fn get_uniformuiv(&mut self, program: GLuint, location: GLint) -> [u32; 16] {
        let f: unsafe extern "system" fn(GLuint, GLint, *mut u32) = native(self, "glGetUniformuiv");
        let mut v = [7; 16];
        // SAFETY: as `get_uniformdv`.
        unsafe { f(program, location, v.as_mut_ptr()) };
        v
    }
    fn vertex_attrib_l_pointer(&mut self, index: GLuint, size: GLint, ty: GLenum, stride: i32) {
        let f: unsafe extern "system" fn(GLuint, GLint, GLenum, GLsizei, *const u8) =
            native(self, "glVertexAttribLPointer");
        // SAFETY: the context is current on this thread; offset 0 of the bound buffer.
        unsafe { f(index, size, ty, stride, std::ptr::null()) }
    }
    fn vertex_attrib_l_format(&mut self, index: GLuint, size: GLint, ty: GLenum, offset: GLuint) {
        let f: unsafe extern "system" fn(GLuint, GLint, GLenum, GLuint) =
            native(self, "glVertexAttribLFormat");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(index, size, ty, offset) }
    }
    fn vertex_attrib_l4d(&mut self, index: GLuint, v: [f64; 4]) {
        let f: unsafe extern "system" fn(GLuint, f64, f64, f64, f64) =
            native(self, "glVertexAttribL4d");
        // SAFETY: the context is current on this thread; plain values.
        unsafe { f(index, v[0], v[1], v[2], v[3]) }
    }
    fn get_vertex_attrib_ldv(&mut self, index: GLuint, pname: GLenum) -> [f64; 4] {
        let f: unsafe extern "system" fn(GLuint, GLenum, *mut f64) =
            native(self, "glGetVertexAttribLdv");
        let mut v = [-7.0; 4];
        // SAFETY: the context is current on this thread; four values hold any answer.
        unsafe { f(index, pname, v.as_mut_ptr()) };
        v
    }
    fn get_vertex_attribi(&mut self, index: GLuint, pname: GLenum) -> GLint {
        let f: unsafe extern "system" fn(GLuint, GLenum, *mut GLint) =
            native(self, "glGetVertexAttribiv");
        let mut v = [-7];
        // SAFETY: the context is current on this thread; one value.
        unsafe { f(index, pname, v.as_mut_ptr()) };
        v[0]
    }
}

const SIZE: i32 = 8;

/// Runs `scene` natively and on the Vulkan backend (inproc and thread), which must match;
/// returns the native result.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn Fp64Gl) -> T) -> T {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let mut ctx = tessera_on(Backend::Vulkan, transport.clone(), SIZE, SIZE);
        let got = scene(&mut ctx);
        assert_eq!(got, expected, "vulkan {}", transport.name());
        ctx.finish();
        assert!(!ctx.is_lost(), "vulkan: the session ended");
        let events: Vec<Event> = ctx.take_events();
        assert!(events.is_empty(), "vulkan: {events:?}");
    }
    expected
}

fn link(gl: &mut dyn Fp64Gl, stages: &[(GLenum, &str)]) -> (GLuint, GLint) {
    let p = gl.create_program();
    for &(kind, src) in stages {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        assert_eq!(
            gl.get_shaderi(s, COMPILE_STATUS),
            TRUE as i32,
            "{}",
            gl.shader_info_log(s)
        );
        gl.attach_shader(p, s);
    }
    gl.link_program(p);
    (p, gl.get_programi(p, LINK_STATUS))
}

fn program(gl: &mut dyn Fp64Gl, stages: &[(GLenum, &str)]) -> GLuint {
    let (p, status) = link(gl, stages);
    assert_eq!(status, TRUE as i32, "{}", gl.program_info_log(p));
    p
}

/// Every double shape, as uniforms of the default block (all used, so all active).
const SHAPES: &[(&str, &str, u8, u8)] = &[
    ("d", "double", 1, 1),
    ("v2", "dvec2", 2, 1),
    ("v3", "dvec3", 3, 1),
    ("v4", "dvec4", 4, 1),
    ("m2", "dmat2", 2, 2),
    ("m3", "dmat3", 3, 3),
    ("m4", "dmat4", 4, 4),
    ("m23", "dmat2x3", 3, 2),
    ("m32", "dmat3x2", 2, 3),
    ("m24", "dmat2x4", 4, 2),
    ("m42", "dmat4x2", 2, 4),
    ("m34", "dmat3x4", 4, 3),
    ("m43", "dmat4x3", 3, 4),
];

const VS: &str = "#version 330
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

fn uniforms_fs() -> String {
    let mut s = String::from("#version 400\nout vec4 colour;\nuniform float f;\nuniform bool b;\n");
    s += "uniform double arr[3];\n";
    for (name, ty, ..) in SHAPES {
        s += &format!("uniform {ty} {name};\n");
    }
    s += "void main() {\n    double t = arr[0] + arr[1] + arr[2] + double(f) + (b ? 1.0lf : 0.0lf);\n";
    for (name, _, rows, columns) in SHAPES {
        for c in 0..*columns {
            for r in 0..*rows {
                let access = match (rows, columns) {
                    (1, 1) => name.to_string(),
                    (_, 1) => format!("{name}[{r}]"),
                    _ => format!("{name}[{c}][{r}]"),
                };
                s += &format!("    t += {access};\n");
            }
        }
    }
    s += "    colour = vec4(float(t));\n}\n";
    s
}

/// One line of the uniform transcript.
type UniformLine = (
    String,
    GLenum,
    GLint,
    Vec<f64>,
    Vec<f32>,
    Vec<i32>,
    Vec<u32>,
    GLenum,
);

/// Each double uniform's reflection and values after `glUniform*d` (then
/// `glProgramUniform*d` on a program not current), read back four ways; then the errors.
fn uniform_transcript(gl: &mut dyn Fp64Gl) -> (Vec<UniformLine>, Vec<(&'static str, GLenum)>) {
    let fs = uniforms_fs();
    let p = program(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, &fs)]);
    let other = program(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, &fs)]);
    gl.use_program(p);
    let n = gl.get_programi(p, ACTIVE_UNIFORMS) as GLuint;
    let mut reflected: Vec<(String, GLint, GLenum)> =
        (0..n).map(|i| gl.get_active_uniform(p, i)).collect();
    reflected.sort();
    let mut lines = Vec::new();
    for (name, size, ty) in reflected {
        let base = name.trim_end_matches("[0]").to_owned();
        let Some(&(_, _, rows, columns)) = SHAPES.iter().find(|s| s.0 == base) else {
            lines.push((
                name,
                ty,
                size,
                Vec::new(),
                Vec::new(),
                Vec::new(),
                Vec::new(),
                0,
            ));
            continue;
        };
        let len = usize::from(rows) * usize::from(columns);
        // Values a float would round (0.1, 1 + 2^-30), negatives and halves for the integer
        // conversions.
        let values: Vec<f64> = (0..len)
            .map(|i| match i % 4 {
                0 => 0.1 * (i + 1) as f64,
                1 => 1.0 + (2.0f64).powi(-30),
                2 => -2.5 - i as f64,
                _ => 3.5e9,
            })
            .collect();
        for (target, value_scale) in [(p, 1.0), (other, -1.0)] {
            let scaled: Vec<f64> = values.iter().map(|v| v * value_scale).collect();
            let location = gl.get_uniform_location(target, &base);
            if target == p {
                gl.uniform_dv(location, rows, columns, 1, &scaled);
            } else {
                gl.program_uniform_dv(target, location, rows, columns, 1, &scaled);
            }
            let error = gl.get_error();
            let d = gl.get_uniformdv(target, location)[..len].to_vec();
            let f = gl.get_uniformfv(target, location)[..len].to_vec();
            let i = gl.get_uniformiv(target, location)[..len].to_vec();
            let u = gl.get_uniformuiv(target, location)[..len].to_vec();
            lines.push((name.clone(), ty, size, d, f, i, u, error));
        }
    }
    // The array: two elements from its second location, the third ignored past the end.
    let arr1 = gl.get_uniform_location(p, "arr[1]");
    gl.uniform_dv(arr1, 1, 1, 3, &[1.25, 2.5, 99.0]);
    let e = gl.get_error();
    let arr0 = gl.get_uniform_location(p, "arr[0]");
    let arr2 = gl.get_uniform_location(p, "arr[2]");
    let mut values = Vec::new();
    for l in [arr0, arr1, arr2] {
        values.push(gl.get_uniformdv(p, l)[0]);
    }
    lines.push((
        "arr elements".into(),
        0,
        0,
        values,
        Vec::new(),
        Vec::new(),
        Vec::new(),
        e,
    ));
    // Double reads of other kinds.
    let f = gl.get_uniform_location(p, "f");
    gl.uniform1f(f, 0.3);
    let b = gl.get_uniform_location(p, "b");
    gl.uniform1i(b, 1);
    let fd = gl.get_uniformdv(p, f)[0];
    let bd = gl.get_uniformdv(p, b)[0];
    let e = gl.get_error();
    lines.push((
        "float and bool as doubles".into(),
        0,
        0,
        vec![fd, bd],
        Vec::new(),
        Vec::new(),
        Vec::new(),
        e,
    ));

    let d = gl.get_uniform_location(p, "d");
    let v4 = gl.get_uniform_location(p, "v4");
    let m2 = gl.get_uniform_location(p, "m2");
    let mut errors = Vec::new();
    let mut step = |gl: &mut dyn Fp64Gl, what: &'static str, f: &dyn Fn(&mut dyn Fp64Gl)| {
        f(gl);
        errors.push((what, gl.get_error()));
    };
    step(gl, "uniform1f on a double", &|gl| gl.uniform1f(d, 1.0));
    step(gl, "uniform1i on a double", &|gl| gl.uniform1i(d, 1));
    step(gl, "uniform1d on a float", &|gl| gl.uniform1d(f, 1.0));
    step(gl, "uniform1d on a bool", &|gl| gl.uniform1d(b, 1.0));
    step(gl, "uniform2dv on a double", &|gl| {
        gl.uniform_dv(d, 2, 1, 1, &[1.0, 2.0])
    });
    step(gl, "uniform4fv on a dvec4", &|gl| {
        gl.uniform4fv(v4, &[1.0; 4])
    });
    step(gl, "matrix2dv on a dvec4", &|gl| {
        gl.uniform_dv(v4, 2, 2, 1, &[1.0; 4])
    });
    step(gl, "matrix2fv on a dmat2", &|gl| {
        gl.uniform_matrix2fv(m2, false, &[1.0; 4])
    });
    step(gl, "uniform1dv count 2 on a non-array", &|gl| {
        gl.uniform_dv(d, 1, 1, 2, &[1.0, 2.0])
    });
    step(gl, "uniform1dv count -1", &|gl| {
        gl.uniform_dv(d, 1, 1, -1, &[1.0])
    });
    step(gl, "uniform1d at -1", &|gl| gl.uniform1d(-1, 1.0));
    step(gl, "uniform1d at 1000", &|gl| gl.uniform1d(1000, 1.0));
    step(gl, "the double after the errors", &|gl| {
        let v = gl.get_uniformdv(p, d)[0];
        assert_eq!(v, 0.1, "failed calls changed it");
    });
    gl.use_program(0);
    step(gl, "uniform1d without a program", &|gl| {
        gl.uniform1d(d, 1.0)
    });
    (lines, errors)
}

#[test]
fn double_uniforms_match_the_native_driver() {
    let (lines, errors) = compare(uniform_transcript);
    let d = lines.iter().find(|l| l.0 == "d").expect("d is active");
    assert_eq!((d.1, d.2), (DOUBLE, 1));
    assert_eq!(d.3, [0.1]);
    let m43 = lines.iter().find(|l| l.0 == "m43").expect("m43 is active");
    assert_eq!(m43.1, DOUBLE_MAT4x3);
    assert!(
        lines
            .iter()
            .any(|l| l.0 == "arr[0]" && l.1 == DOUBLE && l.2 == 3)
    );
    assert!(errors.iter().any(|e| e.1 == INVALID_OPERATION));
}

/// A fragment colour from double arithmetic that floats get wrong: `a - b` with `a` one
/// plus 2^-40 (a float rounds it to one), a `dmat2` times a `dvec2`, and `double` literals.
const ARITH_FS: &str = "#version 330
#extension GL_ARB_gpu_shader_fp64 : require
uniform double a;
uniform double b;
uniform dmat2 m;
uniform dvec2 v;
out vec4 colour;
void main() {
    double small = (a - b) * 1099511627776.0lf;
    dvec2 mv = m * v;
    double third = 1.0lf / 3.0lf;
    double back = third * 3.0lf - 1.0lf;
    colour = vec4(float(small), float(mv.x - 0.25lf), float(mv.y * 0.5lf),
                  back == 0.0lf ? 1.0 : 0.0);
}
";

fn quad(gl: &mut dyn Fp64Gl) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    let data: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, 32, Some(&data), STATIC_DRAW);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
}

fn arithmetic(gl: &mut dyn Fp64Gl) -> (Vec<u8>, GLenum) {
    let p = program(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, ARITH_FS)]);
    gl.use_program(p);
    let a = gl.get_uniform_location(p, "a");
    gl.uniform1d(a, 1.0 + (2.0f64).powi(-40));
    let b = gl.get_uniform_location(p, "b");
    gl.uniform1d(b, 1.0);
    let m = gl.get_uniform_location(p, "m");
    gl.uniform_dv(m, 2, 2, 1, &[0.5, 0.25, 0.125, 1.0]);
    let v = gl.get_uniform_location(p, "v");
    gl.uniform_dv(v, 2, 1, 1, &[1.0, 0.5]);
    quad(gl);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut pixels = vec![0; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut pixels);
    (pixels, gl.get_error())
}

#[test]
fn double_arithmetic_draws_native_pixels() {
    let (pixels, error) = compare(arithmetic);
    assert_eq!(error, NO_ERROR);
    // (a - b) * 2^40 is 1 in doubles (0 in floats); m * v = (0.5625, 0.75).
    assert_eq!(pixels[..4], [255, 80, 96, 255]);
}

/// Positions from a `dvec2` array of doubles, colour from a `dvec4` and from
/// a `double` input whose array is disabled (its `glVertexAttribL4d` value).
const ATTRIB_VS: &str = "#version 410
layout(location = 0) in dvec2 position;
layout(location = 1) in dvec4 colour_d;
layout(location = 3) in vec2 scale;
layout(location = 4) in double bias;
out vec4 colour;
void main() {
    gl_Position = vec4(vec2(position), 0.0, 1.0);
    colour = vec4(colour_d * double(scale.x) + bias);
}
";

const ATTRIB_FS: &str = "#version 410
in vec4 colour;
out vec4 frag;
void main() { frag = colour; }
";

/// What the vertex array queries answer after `glVertexAttribLPointer`,
/// `glVertexAttribLFormat` and `glVertexAttribL4d`, and the errors of those calls.
type AttribState = (Vec<GLint>, [f64; 4], [f64; 4], Vec<GLenum>);

fn attribute_state(gl: &mut dyn Fp64Gl) -> AttribState {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let stride = 56;
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    gl.buffer_data(ARRAY_BUFFER, 4 * 56, None, STATIC_DRAW);
    gl.vertex_attrib_l_pointer(0, 2, DOUBLE, stride);
    gl.enable_vertex_attrib_array(0);
    // The colour through GL 4.3's separate format and binding.
    gl.vertex_attrib_l_format(1, 4, DOUBLE, 16);
    gl.vertex_attrib_binding(1, 0);
    gl.enable_vertex_attrib_array(1);
    gl.vertex_attrib_pointer(3, 2, FLOAT, false, stride, 48);
    gl.enable_vertex_attrib_array(3);
    // Doubles converted to floats: not LONG.
    gl.vertex_attrib_pointer(5, 3, DOUBLE, false, stride, 0);
    gl.vertex_attrib_l4d(4, [0.0625, 7.0, 8.0, 9.0]);
    let mut state = Vec::new();
    for index in [0, 1, 3, 5] {
        for pname in [
            VERTEX_ATTRIB_ARRAY_LONG,
            VERTEX_ATTRIB_ARRAY_TYPE,
            VERTEX_ATTRIB_ARRAY_SIZE,
            VERTEX_ATTRIB_ARRAY_INTEGER,
            VERTEX_ATTRIB_ARRAY_STRIDE,
            VERTEX_ATTRIB_RELATIVE_OFFSET,
        ] {
            state.push(gl.get_vertex_attribi(index, pname));
        }
    }
    let current = gl.get_vertex_attrib_ldv(4, CURRENT_VERTEX_ATTRIB);
    let size = gl.get_vertex_attrib_ldv(1, VERTEX_ATTRIB_ARRAY_SIZE);
    // Errors: a type other than DOUBLE, a size of BGRA or 5, an index past the limit.
    let mut errors = Vec::new();
    for call in 0..7 {
        match call {
            0 => gl.vertex_attrib_l_pointer(2, 2, FLOAT, 0),
            1 => gl.vertex_attrib_l_pointer(2, BGRA as GLint, DOUBLE, 0),
            2 => gl.vertex_attrib_l_pointer(2, 5, DOUBLE, 0),
            3 => gl.vertex_attrib_l_pointer(99, 2, DOUBLE, 0),
            4 => gl.vertex_attrib_l_format(99, 2, DOUBLE, 0),
            5 => gl.vertex_attrib_l_format(2, 2, INT, 0),
            _ => gl.vertex_attrib_l4d(99, [0.0; 4]),
        }
        errors.push(gl.get_error());
    }
    (state, current, size, errors)
}

#[test]
fn double_vertex_array_state_matches_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = attribute_state(&mut native);
    drop(native);
    // Engine state only: the same on both backends, whatever they fetch.
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        assert_eq!(attribute_state(&mut ctx), expected, "{}", backend.name());
    }
    assert_eq!(expected.0[..6], [1, DOUBLE as i32, 2, 0, 56, 0]);
    assert_eq!(
        expected.0[18..20],
        [0, DOUBLE as i32],
        "converted doubles are not LONG"
    );
    assert_eq!(expected.1, [0.0625, 7.0, 8.0, 9.0]);
    assert_eq!(expected.2, [4.0, -7.0, -7.0, -7.0]);
}

/// A frame drawn from double vertex arrays and a double current value, and the second
/// location of a `dvec4` read from its own array.
fn attribute_frame(gl: &mut dyn Fp64Gl) -> (Vec<u8>, GLenum) {
    let p = program(
        gl,
        &[(VERTEX_SHADER, ATTRIB_VS), (FRAGMENT_SHADER, ATTRIB_FS)],
    );
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    // Per vertex: position (2 doubles), colour (4 doubles), scale (2 floats).
    let corners = [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)];
    let mut bytes = Vec::new();
    for (i, (x, y)) in corners.iter().enumerate() {
        for v in [*x, *y, 0.125 * i as f64, 0.25, 0.5 + 1e-12, 0.375] {
            bytes.extend_from_slice(&f64::to_le_bytes(v));
        }
        for v in [2.0f32, 0.0] {
            bytes.extend_from_slice(&f32::to_le_bytes(v));
        }
    }
    let stride = 56;
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_l_pointer(0, 2, DOUBLE, stride);
    gl.enable_vertex_attrib_array(0);
    gl.vertex_attrib_l_format(1, 4, DOUBLE, 16);
    gl.vertex_attrib_binding(1, 0);
    gl.enable_vertex_attrib_array(1);
    gl.vertex_attrib_pointer(3, 2, FLOAT, false, stride, 48);
    gl.enable_vertex_attrib_array(3);
    gl.vertex_attrib_l4d(4, [0.0625, 7.0, 8.0, 9.0]);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    // Then the colour from a generic dvec4 (both locations) and the bias from an array.
    gl.disable_vertex_attrib_array(1);
    gl.vertex_attrib_l4d(1, [0.25, 0.5, 0.75, 0.125]);
    gl.vertex_attrib_l_pointer(4, 1, DOUBLE, stride);
    gl.enable_vertex_attrib_array(4);
    gl.scissor(0, 0, SIZE / 2, SIZE);
    gl.enable(SCISSOR_TEST);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.disable(SCISSOR_TEST);
    let mut pixels = vec![0; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut pixels);
    (pixels, gl.get_error())
}

/// Where the backend has `GL_ARB_vertex_attrib_64bit` (Vulkan: its double inputs are
/// fetched as 32-bit words, so lavapipe needs no 64-bit vertex format), double arrays and
/// current values draw native llvmpipe's pixels.
#[test]
fn double_vertex_attributes_draw_native_pixels() {
    let (pixels, error) = compare(attribute_frame);
    assert_eq!(error, NO_ERROR);
    assert_ne!(pixels[..4], [0, 0, 0, 0], "nothing drawn");
    assert_ne!(
        pixels[..4],
        pixels[4 * (SIZE as usize - 1)..4 * SIZE as usize],
        "one draw"
    );
}

/// The value of component `k` of double vertex input number `input`: doubles a float would
/// round (`1 + 2^-40` apart), of both signs.
fn input_value(input: usize, k: usize) -> f64 {
    let sign = if (input + k).is_multiple_of(2) {
        1.0
    } else {
        -1.0
    };
    sign * (1.0 + (input * 16 + k + 1) as f64 * 2f64.powi(-40)) * 2f64.powi(input as i32 - 3)
}

/// A GLSL constant of `ty` whose components (column by column) are `input_value(input, k)`.
fn input_constant(ty: &str, input: usize, components: usize) -> String {
    let values: Vec<String> = (0..components)
        .map(|k| format!("{:e}LF", input_value(input, k)))
        .collect();
    format!("{ty}({})", values.join(", "))
}

/// Feeds `columns` GL locations from `at` on, `rows` doubles each, with the components of
/// `input_value(input, _)` from arrays of their own (the same value for every vertex).
fn double_columns(gl: &mut dyn Fp64Gl, at: GLuint, input: usize, columns: usize, rows: usize) {
    for c in 0..columns {
        let bytes: Vec<u8> = (0..4)
            .flat_map(|_| (0..rows).map(move |r| input_value(input, c * rows + r)))
            .flat_map(f64::to_le_bytes)
            .collect();
        let vb = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, vb);
        gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
        gl.vertex_attrib_l_pointer(at + c as GLuint, rows as GLint, DOUBLE, 0);
        gl.enable_vertex_attrib_array(at + c as GLuint);
    }
}

/// Double matrix, `dvec3`/`dvec4` and array inputs mixed with float ones, at locations the
/// linker assigns (a `dvec3` or `dvec4` input is one GL location; with the doubles counted
/// twice they fill the 16): each is compared with the values the arrays hold, a channel
/// per group. Returns the locations and the pixels.
fn assigned_double_inputs(gl: &mut dyn Fp64Gl) -> (Vec<GLint>, Vec<u8>, GLenum) {
    let vs = format!(
        "#version 410
in vec2 position;
in dmat4x3 m;
in float f;
in dvec4 v[2];
in dvec3 w;
out vec4 colour;
void main() {{
    gl_Position = vec4(position, 0.0, 1.0);
    bool m_ok = m == {m};
    bool v_ok = v[0] == {v0} && v[1] == {v1};
    bool w_ok = w == {w};
    colour = vec4(m_ok ? 1.0 : 0.25, v_ok ? 1.0 : 0.25, w_ok ? 1.0 : 0.25, f);
}}
",
        m = input_constant("dmat4x3", 0, 12),
        v0 = input_constant("dvec4", 1, 4),
        v1 = input_constant("dvec4", 2, 4),
        w = input_constant("dvec3", 3, 3),
    );
    let p = program(gl, &[(VERTEX_SHADER, &vs), (FRAGMENT_SHADER, ATTRIB_FS)]);
    gl.use_program(p);
    let names = ["position", "m", "f", "v", "v[1]", "w"];
    let locations: Vec<GLint> = names.iter().map(|n| gl.get_attrib_location(p, n)).collect();
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let at = |i: usize| locations[i] as GLuint;
    let corners: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    gl.buffer_data(ARRAY_BUFFER, 32, Some(&corners), STATIC_DRAW);
    gl.vertex_attrib_pointer(at(0), 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(at(0));
    double_columns(gl, at(1), 0, 4, 3);
    gl.vertex_attrib_4f(at(2), 0.5, 0.0, 0.0, 1.0);
    double_columns(gl, at(3), 1, 1, 4);
    double_columns(gl, at(4), 2, 1, 4);
    double_columns(gl, at(5), 3, 1, 3);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut pixels = vec![0; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut pixels);
    (locations, pixels, gl.get_error())
}

/// Double matrix and vector inputs at explicit locations next to float and integer ones,
/// drawn from arrays, then with a `dvec4` and a `dmat3` column from their generic values
/// (`glVertexAttribL4d`: the last two doubles reach the shader too).
fn explicit_double_inputs(gl: &mut dyn Fp64Gl) -> (Vec<u8>, GLenum) {
    let vs = format!(
        "#version 410
layout(location = 0) in dmat3 a;
layout(location = 3) in vec2 position;
layout(location = 4) in dvec4 b;
layout(location = 5) in ivec2 k;
layout(location = 6) in dmat2x4 c;
out vec4 colour;
uniform dvec4 b_want;
uniform dvec3 a1_want;
void main() {{
    gl_Position = vec4(position, 0.0, 1.0);
    bool a_ok = a[0] == {a0} && a[1] == a1_want && a[2] == {a2};
    bool b_ok = b == b_want && c == {c};
    colour = vec4(a_ok ? 1.0 : 0.25, b_ok ? 1.0 : 0.25, k == ivec2(3, -4) ? 1.0 : 0.25, 1.0);
}}
",
        a0 = input_constant("dvec3", 4, 3),
        a2 = input_constant("dvec3", 6, 3),
        c = input_constant("dmat2x4", 7, 8),
    );
    let p = program(gl, &[(VERTEX_SHADER, &vs), (FRAGMENT_SHADER, ATTRIB_FS)]);
    gl.use_program(p);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    quad_at(gl, 3);
    double_columns(gl, 0, 4, 1, 3);
    double_columns(gl, 1, 5, 1, 3);
    double_columns(gl, 2, 6, 1, 3);
    double_columns(gl, 4, 8, 1, 4);
    double_columns(gl, 6, 7, 2, 4);
    let ints: Vec<u8> = (0..4)
        .flat_map(|_| [3i32, -4])
        .flat_map(i32::to_le_bytes)
        .collect();
    let ib = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, ib);
    gl.buffer_data(ARRAY_BUFFER, ints.len(), Some(&ints), STATIC_DRAW);
    gl.vertex_attrib_i_pointer(5, 2, INT, 0, 0);
    gl.enable_vertex_attrib_array(5);
    let want = |gl: &mut dyn Fp64Gl, name: &str, input: usize, n: usize| {
        let v: Vec<f64> = (0..n).map(|k| input_value(input, k)).collect();
        let l = gl.get_uniform_location(p, name);
        gl.uniform_dv(l, n as u8, 1, 1, &v);
    };
    want(gl, "b_want", 8, 4);
    want(gl, "a1_want", 5, 3);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    // The right half: b and a's middle column from generic values.
    let generic = |input: usize| std::array::from_fn(|k| input_value(input, k));
    gl.disable_vertex_attrib_array(4);
    gl.vertex_attrib_l4d(4, generic(9));
    gl.disable_vertex_attrib_array(1);
    gl.vertex_attrib_l4d(1, generic(10));
    want(gl, "b_want", 9, 4);
    want(gl, "a1_want", 10, 3);
    gl.scissor(SIZE / 2, 0, SIZE / 2, SIZE);
    gl.enable(SCISSOR_TEST);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    gl.disable(SCISSOR_TEST);
    let mut pixels = vec![0; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut pixels);
    (pixels, gl.get_error())
}

/// A float `vec2` quad position at location `at`.
fn quad_at(gl: &mut dyn Fp64Gl, at: GLuint) {
    let data: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let vb = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, vb);
    gl.buffer_data(ARRAY_BUFFER, 32, Some(&data), STATIC_DRAW);
    gl.vertex_attrib_pointer(at, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(at);
}

/// Double matrices, `dvec3`/`dvec4` inputs and arrays of them at the locations GL assigns
/// (one per column or element, as llvmpipe's: `glGetAttribLocation` must agree) read
/// exactly the arrays' doubles on the Vulkan backend, where each takes two SPIR-V
/// locations.
#[test]
fn double_matrix_and_wide_inputs_at_assigned_locations_match_native() {
    let (locations, pixels, error) = compare(assigned_double_inputs);
    assert_eq!(error, NO_ERROR);
    // m takes four locations, v two, the rest one each: nine in all.
    let mut sorted = locations.clone();
    sorted.sort();
    assert_eq!(sorted.last(), Some(&8), "{locations:?}");
    assert_eq!(locations[4], locations[3] + 1);
    assert_eq!(
        pixels[..4],
        [255, 255, 255, 128],
        "every input as the arrays hold it"
    );
}

/// Double matrices and vectors at explicit locations between float and integer inputs,
/// from arrays and from `glVertexAttribL4d` values, read natively's values on Vulkan.
#[test]
fn double_inputs_at_explicit_locations_match_native() {
    let (pixels, error) = compare(explicit_double_inputs);
    assert_eq!(error, NO_ERROR);
    let right = 4 * (SIZE as usize - 1);
    assert_eq!(pixels[..4], [255, 255, 255, 255], "from arrays");
    assert_eq!(
        pixels[right..right + 4],
        [255, 255, 255, 255],
        "from generic values"
    );
}

/// Link statuses of double vertex inputs around `GL_MAX_VERTEX_ATTRIBS` (16), where each
/// location of a `dvec3` or `dvec4` counts twice: a position and `dvec4 v[7]` (15) link, with
/// `dvec4 v[8]` (17) or `dvec3 w[8]` at explicit location 8 (17) they do not.
fn attribute_budget(gl: &mut dyn Fp64Gl) -> Vec<(GLint, String)> {
    let vs = |decl: &str, read: &str| {
        format!(
            "#version 410
in vec2 position;
{decl}
void main() {{ gl_Position = vec4(position, float({read}), 1.0); }}
"
        )
    };
    [
        vs("in dvec4 v[7];", "v[6].w + v[0].x"),
        vs("in dvec4 v[8];", "v[7].w + v[0].x"),
        vs("layout(location = 8) in dvec3 w[8];", "w[7].z + w[0].x"),
    ]
    .iter()
    .map(|src| {
        let (p, status) = link(gl, &[(VERTEX_SHADER, src), (FRAGMENT_SHADER, ATTRIB_FS)]);
        let log = gl.program_info_log(p);
        let slots = log.find("attempt to use").map_or(String::new(), |at| {
            log[at..].lines().next().unwrap_or("").into()
        });
        (status, slots)
    })
    .collect()
}

/// A `dvec3` or `dvec4` input location counts twice against `GL_MAX_VERTEX_ATTRIBS` at link
/// time, with Mesa's log line.
#[test]
fn double_inputs_count_twice_against_the_attribute_limit() {
    let result = compare(attribute_budget);
    assert_eq!(
        result.iter().map(|r| r.0).collect::<Vec<_>>(),
        [TRUE as i32, FALSE as i32, FALSE as i32]
    );
    assert_eq!(
        result[1].1.trim_end(),
        "attempt to use 17 vertex attribute slots only 16 available"
    );
}

/// Where `GL_ARB_vertex_attrib_64bit` is not advertised (the GLES backend, narrowing or
/// not: its driver fetches no doubles), a program with double inputs fails to link (with a
/// log) instead of reaching the driver. Native llvmpipe links it.
#[test]
fn double_vertex_inputs_fail_to_link_where_not_advertised() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let (_, status) = link(
        &mut native,
        &[(VERTEX_SHADER, ATTRIB_VS), (FRAGMENT_SHADER, ATTRIB_FS)],
    );
    assert_eq!(status, TRUE as i32);
    drop(native);
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        if advertised(&mut ctx)
            .iter()
            .any(|e| e == "GL_ARB_vertex_attrib_64bit")
        {
            continue;
        }
        let (p, status) = link(
            &mut ctx,
            &[(VERTEX_SHADER, ATTRIB_VS), (FRAGMENT_SHADER, ATTRIB_FS)],
        );
        assert_eq!(status, FALSE as i32, "{}", backend.name());
        let log = ctx.program_info_log(p);
        assert!(log.contains("GL_ARB_"), "{}: {log}", backend.name());
        ctx.finish();
        assert!(ctx.take_events().is_empty(), "{}", backend.name());
    }
}

fn advertised(ctx: &mut Context) -> Vec<String> {
    let mut n = [0];
    ctx.get_integerv(NUM_EXTENSIONS, &mut n);
    (0..n[0] as GLuint)
        .map(|i| ctx.get_stringi(EXTENSIONS, i).unwrap_or_default())
        .collect()
}

/// A std140 uniform block and a std430 storage block of doubles, read and written by a
/// compute shader.
const BLOCKS_CS: &str = "#version 430
#extension GL_ARB_gpu_shader_fp64 : require
layout(local_size_x = 1) in;
layout(std140, binding = 1) uniform In {
    double s;
    dvec3 v3;
    dmat3 m;
    double arr[2];
    dvec2 v2;
} u;
layout(std430, binding = 2) buffer Out {
    double s;
    dvec3 v3;
    double arr[2];
    dmat2x3 m;
    dvec2 v2;
    float f;
} o;
void main() {
    o.s = u.s * 3.0lf;
    o.v3 = u.m * u.v3;
    o.arr[0] = u.arr[1] / 3.0lf;
    o.arr[1] = u.arr[0] + 1.0e-13lf;
    o.m = dmat2x3(u.v3, u.v3 * u.s);
    o.v2 = u.v2 * u.v2;
    o.f = float(u.s);
}
";

/// The block members' offsets, then the storage block's bytes after the dispatch.
type BlockResult = (Vec<GLint>, Vec<u8>, GLenum);

fn blocks(gl: &mut dyn Fp64Gl) -> BlockResult {
    let p = program(gl, &[(COMPUTE_SHADER, BLOCKS_CS)]);
    gl.use_program(p);
    let names = ["In.s", "In.v3", "In.m", "In.arr[0]", "In.v2"];
    let indices = gl.get_uniform_indices(p, &names);
    let mut offsets = vec![0; names.len()];
    gl.get_active_uniformsiv(p, &indices, UNIFORM_OFFSET, &mut offsets);
    let mut strides = vec![0; names.len()];
    gl.get_active_uniformsiv(p, &indices, UNIFORM_ARRAY_STRIDE, &mut strides);
    offsets.extend(strides);
    let mut matrix = vec![0; names.len()];
    gl.get_active_uniformsiv(p, &indices, UNIFORM_MATRIX_STRIDE, &mut matrix);
    offsets.extend(matrix);
    // std140: s at 0, v3 at 32, m (3 columns 32 apart) at 64, arr (stride 16) at 160, v2
    // at 192.
    let mut input = vec![0u8; 208];
    let mut put = |at: usize, v: f64| input[at..at + 8].copy_from_slice(&v.to_le_bytes());
    put(0, 1.0 / 7.0);
    // Dyadic values: the matrix product is exact, however the driver fuses it.
    for (i, v) in [1.5, -2.25, 0.125].iter().enumerate() {
        put(32 + 8 * i, *v);
    }
    for c in 0..3 {
        for r in 0..3 {
            put(64 + 32 * c + 8 * r, (1 + c * 3 + r) as f64 / 8.0);
        }
    }
    put(160, 0.1);
    put(176, 10.0);
    put(192, 3.0);
    put(200, 1.0 + 1e-10);
    let ub = gl.gen_buffer();
    gl.bind_buffer(UNIFORM_BUFFER, ub);
    gl.buffer_data(UNIFORM_BUFFER, input.len(), Some(&input), STATIC_DRAW);
    gl.bind_buffer_base(UNIFORM_BUFFER, 1, ub);
    let sb = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, sb);
    let out_size = 176;
    gl.buffer_data(
        SHADER_STORAGE_BUFFER,
        out_size,
        Some(&vec![0xAA; out_size]),
        STATIC_DRAW,
    );
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 2, sb);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
    let mut out = vec![0u8; out_size];
    gl.get_buffer_sub_data(SHADER_STORAGE_BUFFER, 0, &mut out);
    (offsets, out, gl.get_error())
}

#[test]
fn std140_and_std430_blocks_of_doubles_match_the_native_driver() {
    let (offsets, out, error) = compare(blocks);
    assert_eq!(error, NO_ERROR);
    assert_eq!(offsets[..5], [0, 32, 64, 160, 192]);
    let s = f64::from_le_bytes(out[..8].try_into().unwrap());
    assert_eq!(s, 1.0 / 7.0 * 3.0);
}

/// The GLES backend: neither extension is advertised, and a program with doubles fails to
/// link (with a log) instead of reaching a driver that has none.
#[test]
fn the_gles_backend_has_no_doubles() {
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let mut ctx = tessera_on(Backend::Gles, transport, SIZE, SIZE);
        let names = advertised(&mut ctx);
        assert!(!names.iter().any(|e| e == "GL_ARB_gpu_shader_fp64"));
        assert!(!names.iter().any(|e| e == "GL_ARB_vertex_attrib_64bit"));
        let (p, status) = link(
            &mut ctx,
            &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, ARITH_FS)],
        );
        assert_eq!(status, FALSE as i32);
        assert!(
            ctx.program_info_log(p).contains("GL_ARB_gpu_shader_fp64"),
            "{}",
            ctx.program_info_log(p)
        );
        assert_eq!(Gl::get_error(&mut ctx), NO_ERROR);
        ctx.finish();
        assert!(ctx.take_events().is_empty());
    }
}

/// The Vulkan backend on lavapipe advertises both extensions (`shaderFloat64`).
#[test]
fn the_vulkan_backend_advertises_doubles() {
    let mut ctx = tessera_on(Backend::Vulkan, TransportKind::Inproc, SIZE, SIZE);
    let names = advertised(&mut ctx);
    assert!(names.iter().any(|e| e == "GL_ARB_gpu_shader_fp64"));
    assert!(names.iter().any(|e| e == "GL_ARB_vertex_attrib_64bit"));
}

/// A Tessera context on a GLES backend that narrows doubles to floats
/// (`TESSERA_GLES_FP64=narrow`).
fn gles_narrowing(transport: TransportKind) -> Context {
    tessera_tests::ensure_runtime_dir();
    let options = tessera_backend_gles::GlesOptions {
        narrow_fp64: true,
        ..tessera_backend_gles::GlesOptions::default()
    };
    let gles = tessera_backend_gles::GlesBackend::with_options(&options)
        .expect("a GLES backend on Mesa llvmpipe");
    let config = tessera_engine::Config {
        backend: tessera_engine::BackendKind::Gles,
        transport,
        surface: Some(tessera_engine::SurfaceConfig::new(SIZE as u32, SIZE as u32)),
        ..tessera_engine::Config::default()
    };
    Context::with_backend(&config, Box::new(gles))
}

/// Double arithmetic whose values floats hold exactly: the same frame narrowed.
const NARROW_FS: &str = "#version 400
uniform double a;
uniform double b[3];
uniform dmat3 m;
uniform dvec3 v;
uniform float f;
out vec4 colour;
void main() {
    dvec3 mv = m * v;
    double sum = b[0] + b[1] + b[2];
    colour = vec4(float(a - 0.25lf), float(mv.x), float(sum * 0.125lf), f);
}
";

fn narrowed_frame(gl: &mut dyn Fp64Gl) -> (Vec<u8>, Vec<f64>, GLenum) {
    let p = program(gl, &[(VERTEX_SHADER, VS), (FRAGMENT_SHADER, NARROW_FS)]);
    gl.use_program(p);
    let a = gl.get_uniform_location(p, "a");
    gl.uniform1d(a, 0.75);
    let b = gl.get_uniform_location(p, "b");
    gl.uniform_dv(b, 1, 1, 3, &[1.0, 2.0, 1.0]);
    let m = gl.get_uniform_location(p, "m");
    gl.uniform_dv(m, 3, 3, 1, &[0.5, 0.0, 0.0, 0.25, 1.0, 0.0, 0.0, 0.0, 1.0]);
    let v = gl.get_uniform_location(p, "v");
    gl.uniform_dv(v, 3, 1, 1, &[0.5, 1.0, 2.0]);
    let f = gl.get_uniform_location(p, "f");
    gl.uniform1f(f, 0.75);
    quad(gl);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut pixels = vec![0; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut pixels);
    let mut values = gl.get_uniformdv(p, m)[..9].to_vec();
    values.push(gl.get_uniformdv(p, a)[0]);
    (pixels, values, gl.get_error())
}

/// With narrowing the GLES backend advertises `GL_ARB_gpu_shader_fp64` (not
/// `GL_ARB_vertex_attrib_64bit`), says so in `GL_VERSION`, draws a frame of double uniforms and arithmetic whose
/// values floats hold exactly as native llvmpipe draws it, keeps the uniform transcript
/// (values are the engine's, still doubles), and fails the link of a program whose doubles
/// live in a buffer.
#[test]
fn narrowed_doubles_on_gles_match_the_native_driver_where_floats_suffice() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let frame = narrowed_frame(&mut native);
    let transcript = uniform_transcript(&mut native);
    drop(native);
    assert_eq!(frame.2, NO_ERROR);
    // a - 0.25 = 0.5, (m v).x = 0.5, (1 + 2 + 1) / 8 = 0.5, f = 0.75.
    assert_eq!(frame.0[..4], [128, 128, 128, 191]);
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let mut ctx = gles_narrowing(transport.clone());
        let names = advertised(&mut ctx);
        assert!(names.iter().any(|e| e == "GL_ARB_gpu_shader_fp64"));
        assert!(!names.iter().any(|e| e == "GL_ARB_vertex_attrib_64bit"));
        // Every other GL 4.0 feature is there on an ES 3.2 driver; 4.1 asks for double
        // vertex inputs.
        let version = ctx.get_string(VERSION).unwrap_or_default();
        assert!(
            version.starts_with("4.0 (Core Profile) Tessera ")
                && version.ends_with(", doubles narrowed to 32 bits"),
            "{version}"
        );
        assert_eq!(narrowed_frame(&mut ctx), frame, "{}", transport.name());
        assert_eq!(
            uniform_transcript(&mut ctx),
            transcript,
            "{}",
            transport.name()
        );
        let (p, status) = link(&mut ctx, &[(COMPUTE_SHADER, BLOCKS_CS)]);
        assert_eq!(status, FALSE as i32);
        assert!(
            ctx.program_info_log(p).contains("narrowed"),
            "{}",
            ctx.program_info_log(p)
        );
        ctx.finish();
        assert!(!ctx.is_lost());
        let events: Vec<Event> = ctx.take_events();
        assert!(events.is_empty(), "{events:?}");
    }
}

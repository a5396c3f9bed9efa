#!/usr/bin/env python3
"""Generates capi/src/gl/generated.rs from the Khronos header glcorearb.h.

Usage: capi/tools/gen_gl.py [/usr/include/GL/glcorearb.h]

For every function of GL_VERSION_1_0 .. GL_VERSION_3_3 the output has:
  * an entry in GL_FUNCTIONS (name, version, address), sorted by name, whose address is
    the function coerced to its exact C signature from the header: a hand-written entry
    point with a different signature fails to compile;
  * for functions whose arguments and result are all scalars (no pointer, no GLsync), the
    exported entry point itself, forwarding to the engine method of the same name in
    snake_case (glTexImage2DMultisample -> tex_image_2d_multisample).
Functions with pointers are written by hand in the other modules of capi/src/gl/ (they
turn pointers into slices and offsets) and re-exported from capi/src/gl/mod.rs, as are the
scalar functions of HAND (which do more than forward).

It also generates capi/src/gl/stubs.rs: for every other `gl*` function prototype of the
Khronos registry's GL API, as Debian's libgl-dev carries it (gl.h for the GL 1.0/1.1
compatibility functions, glext.h, glcorearb.h), one stub (capi/src/gl/unimplemented.rs
says what a stub does and why it is ABI-safe) named after the function, so
`eglGetProcAddress` returns a callable entry for every name the registry has.

The output is committed; rerun after changing this script (the test
`gl::tests::table_covers_every_gl_1_0_to_3_3_function_of_glcorearb` re-reads the header and
fails if a function of 1.0..3.3 is missing from the table).
"""
import re
import subprocess
import sys

HEADER = sys.argv[1] if len(sys.argv) > 1 else "/usr/include/GL/glcorearb.h"
OUT = "capi/src/gl/generated.rs"
STUBS_OUT = "capi/src/gl/stubs.rs"
REGISTRY = ["/usr/include/GL/gl.h", "/usr/include/GL/glext.h", "/usr/include/GL/glcorearb.h"]
LAST = (3, 3)

SCALARS = {
    "GLenum": "GLenum", "GLboolean": "GLboolean", "GLbitfield": "GLbitfield",
    "GLint": "GLint", "GLuint": "GLuint", "GLsizei": "GLsizei", "GLfloat": "GLfloat",
    "GLdouble": "GLdouble", "GLbyte": "GLbyte", "GLshort": "GLshort", "GLubyte": "GLubyte",
    "GLushort": "GLushort", "GLintptr": "GLintptr", "GLsizeiptr": "GLsizeiptr",
    "GLint64": "GLint64", "GLuint64": "GLuint64", "GLchar": "GLchar", "GLsync": "GLsync",
    "void": "c_void",
}

# Engine methods whose names do not follow the mechanical snake_case of the GL name.
ENGINE_NAMES = {}

# Scalar functions written by hand all the same: glFlush and glFinish also drain the
# backend's events into the log (capi/src/events.rs).
HAND = {"glFlush", "glFinish"}

# Functions beyond 3.3 written by hand (capi/src/gl/mod.rs BEYOND_3_3): no stub for them.
BEYOND = {
    "glGetGraphicsResetStatus", "glGetGraphicsResetStatusARB",
    # The bounds-checked getters of KHR_robustness (GL 4.5) and their ARB_robustness names.
    "glGetnCompressedTexImage", "glGetnCompressedTexImageARB", "glGetnTexImage",
    "glGetnTexImageARB", "glGetnUniformdv", "glGetnUniformdvARB", "glGetnUniformfv",
    "glGetnUniformfvARB", "glGetnUniformiv", "glGetnUniformivARB", "glGetnUniformuiv",
    "glGetnUniformuivARB", "glReadnPixels", "glReadnPixelsARB",
    # The EXT names of core functions that the advertised EXT extensions bring.
    "glClearColorIiEXT", "glClearColorIuiEXT", "glFramebufferTextureLayerEXT",
    "glGetTexParameterIivEXT", "glGetTexParameterIuivEXT", "glProvokingVertexEXT",
    "glTexParameterIivEXT", "glTexParameterIuivEXT",
    # NV_conditional_render's names of GL 3.0's conditional rendering.
    "glBeginConditionalRenderNV", "glEndConditionalRenderNV",
    # EXT_memory_object(_fd): GL–Vulkan interop (capi/src/gl/memory_object.rs).
    "glCreateMemoryObjectsEXT", "glDeleteMemoryObjectsEXT", "glIsMemoryObjectEXT",
    "glMemoryObjectParameterivEXT", "glGetMemoryObjectParameterivEXT", "glImportMemoryFdEXT",
    "glTexStorageMem2DEXT", "glTextureStorageMem2DEXT", "glGetUnsignedBytevEXT",
    "glGetUnsignedBytei_vEXT",
    # OES_EGL_image: a texture or renderbuffer made of an EGL image (capi/src/egl/image.rs).
    "glEGLImageTargetTexture2DOES", "glEGLImageTargetRenderbufferStorageOES",
    # EXT_semaphore(_fd): GL–Vulkan synchronisation (capi/src/gl/semaphore.rs).
    "glGenSemaphoresEXT", "glDeleteSemaphoresEXT", "glIsSemaphoreEXT",
    "glSemaphoreParameterui64vEXT", "glGetSemaphoreParameterui64vEXT", "glImportSemaphoreFdEXT",
    "glWaitSemaphoreEXT", "glSignalSemaphoreEXT",
    # Per-draw-buffer blend functions and equations (GL 4.0, ARB_draw_buffers_blend).
    "glBlendEquationi", "glBlendEquationSeparatei", "glBlendFunci", "glBlendFuncSeparatei",
    "glBlendEquationiARB", "glBlendEquationSeparateiARB", "glBlendFunciARB",
    "glBlendFuncSeparateiARB",
    # Sample shading (GL 4.0, ARB_sample_shading).
    "glMinSampleShading", "glMinSampleShadingARB",
    # KHR_debug (GL 4.3).
    "glDebugMessageCallback", "glDebugMessageControl", "glDebugMessageInsert",
    "glGetDebugMessageLog", "glPushDebugGroup", "glPopDebugGroup", "glObjectLabel",
    "glGetObjectLabel", "glObjectPtrLabel", "glGetObjectPtrLabel",
    # Compute shaders and shader storage blocks (GL 4.3).
    "glDispatchCompute", "glDispatchComputeIndirect", "glMemoryBarrier",
    "glMemoryBarrierByRegion", "glShaderStorageBlockBinding", "glGetProgramResourceIndex",
    # Double-precision uniforms and vertex attributes (GL 4.0, 4.1).
    "glGetUniformdv", "glGetVertexAttribLdv", "glProgramUniform1d", "glProgramUniform1dv",
    "glProgramUniform2d", "glProgramUniform2dv", "glProgramUniform3d", "glProgramUniform3dv",
    "glProgramUniform4d", "glProgramUniform4dv", "glProgramUniformMatrix2dv",
    "glProgramUniformMatrix2x3dv", "glProgramUniformMatrix2x4dv", "glProgramUniformMatrix3dv",
    "glProgramUniformMatrix3x2dv", "glProgramUniformMatrix3x4dv", "glProgramUniformMatrix4dv",
    "glProgramUniformMatrix4x2dv", "glProgramUniformMatrix4x3dv", "glUniform1d", "glUniform1dv",
    "glUniform2d", "glUniform2dv", "glUniform3d", "glUniform3dv", "glUniform4d", "glUniform4dv",
    "glUniformMatrix2dv", "glUniformMatrix2x3dv", "glUniformMatrix2x4dv", "glUniformMatrix3dv",
    "glUniformMatrix3x2dv", "glUniformMatrix3x4dv", "glUniformMatrix4dv", "glUniformMatrix4x2dv",
    "glUniformMatrix4x3dv", "glVertexAttribL1d", "glVertexAttribL1dv", "glVertexAttribL2d",
    "glVertexAttribL2dv", "glVertexAttribL3d", "glVertexAttribL3dv", "glVertexAttribL4d",
    "glVertexAttribL4dv", "glVertexAttribLFormat", "glVertexAttribLPointer",
    # Shader subroutines (GL 4.0).
    "glGetActiveSubroutineName", "glGetActiveSubroutineUniformName",
    "glGetActiveSubroutineUniformiv", "glGetProgramStageiv", "glGetSubroutineIndex",
    "glGetSubroutineUniformLocation", "glGetUniformSubroutineuiv", "glUniformSubroutinesuiv",
    # Atomic counter buffers (GL 4.2).
    "glGetActiveAtomicCounterBufferiv",
    # Program interface queries (GL 4.3).
    "glGetProgramInterfaceiv", "glGetProgramResourceName", "glGetProgramResourceiv",
    "glGetProgramResourceLocation", "glGetProgramResourceLocationIndex",
    # Immutable texture storage (GL 4.2, 4.3).
    "glTexStorage1D", "glTexStorage2D", "glTexStorage3D", "glTexStorage2DMultisample",
    "glTexStorage3DMultisample",
    # Copies between images (GL 4.3).
    "glCopyImageSubData",
    # Texture views (GL 4.3).
    "glTextureView",
    # Image load and store (GL 4.2).
    "glBindImageTexture",
    # Multi-bind (GL 4.4).
    "glBindBuffersBase", "glBindBuffersRange", "glBindTextures", "glBindSamplers",
    "glBindImageTextures", "glBindVertexBuffers",
    # Texture clears (GL 4.4).
    "glClearTexImage", "glClearTexSubImage",
    # Clip control and the texture barrier (GL 4.5).
    "glClipControl", "glTextureBarrier",
    # Polygon offset clamp (GL 4.6, ARB_polygon_offset_clamp, EXT_polygon_offset_clamp).
    "glPolygonOffsetClamp", "glPolygonOffsetClampEXT",
    # Tessellation's patch parameters (GL 4.0).
    "glPatchParameteri", "glPatchParameterfv",
    # Indirect draws, multi-draw indirect and base instances (GL 4.0, 4.2, 4.3).
    "glDrawArraysIndirect", "glDrawElementsIndirect", "glMultiDrawArraysIndirect",
    "glMultiDrawElementsIndirect", "glDrawArraysInstancedBaseInstance",
    "glDrawElementsInstancedBaseInstance", "glDrawElementsInstancedBaseVertexBaseInstance",
    # Draw counts from a buffer (GL 4.6, ARB_indirect_parameters).
    "glMultiDrawArraysIndirectCount", "glMultiDrawArraysIndirectCountARB",
    "glMultiDrawElementsIndirectCount", "glMultiDrawElementsIndirectCountARB",
    # Vertex attribute binding points (GL 4.3; glVertexAttribLFormat is with the doubles').
    "glBindVertexBuffer", "glVertexAttribBinding", "glVertexAttribFormat",
    "glVertexAttribIFormat", "glVertexBindingDivisor",
    # Program binaries (GL 4.1).
    "glGetProgramBinary", "glProgramBinary", "glProgramParameteri",
    # ARB_ES2_compatibility (GL 4.1).
    "glClearDepthf", "glDepthRangef", "glGetShaderPrecisionFormat", "glReleaseShaderCompiler",
    "glShaderBinary",
    # SPIR-V shaders (GL 4.6, ARB_gl_spirv).
    "glSpecializeShader", "glSpecializeShaderARB",
    # Buffer clears (GL 4.3).
    "glClearBufferData", "glClearBufferSubData",
    # Invalidation (GL 4.3).
    "glInvalidateBufferData", "glInvalidateBufferSubData", "glInvalidateFramebuffer",
    "glInvalidateSubFramebuffer", "glInvalidateTexImage", "glInvalidateTexSubImage",
    # Buffer texture ranges (GL 4.3).
    "glTexBufferRange",
    # Framebuffers without attachments (GL 4.3).
    "glFramebufferParameteri", "glGetFramebufferParameteriv",
    # Internal-format queries (GL 4.2, 4.3).
    "glGetInternalformativ", "glGetInternalformati64v",
    # Transform feedback objects, draws from them and the indexed queries (GL 4.0, 4.2).
    "glBeginQueryIndexed", "glBindTransformFeedback", "glDeleteTransformFeedbacks",
    "glDrawTransformFeedback", "glDrawTransformFeedbackInstanced",
    "glDrawTransformFeedbackStream", "glDrawTransformFeedbackStreamInstanced",
    "glEndQueryIndexed", "glGenTransformFeedbacks", "glGetQueryIndexediv",
    "glIsTransformFeedback", "glPauseTransformFeedback", "glResumeTransformFeedback",
    # Viewport arrays (GL 4.1).
    "glDepthRangeArrayv", "glDepthRangeIndexed", "glGetDoublei_v", "glGetFloati_v",
    "glScissorArrayv", "glScissorIndexed", "glScissorIndexedv", "glViewportArrayv",
    "glViewportIndexedf", "glViewportIndexedfv",
    # Program pipelines and separable programs (GL 4.1; glCreateProgramPipelines: 4.5).
    "glActiveShaderProgram", "glBindProgramPipeline", "glCreateProgramPipelines",
    "glCreateShaderProgramv", "glDeleteProgramPipelines", "glGenProgramPipelines",
    "glGetProgramPipelineInfoLog", "glGetProgramPipelineiv", "glIsProgramPipeline",
    "glProgramUniform1f", "glProgramUniform1fv", "glProgramUniform1i",
    "glProgramUniform1iv", "glProgramUniform1ui", "glProgramUniform1uiv",
    "glProgramUniform2f", "glProgramUniform2fv", "glProgramUniform2i",
    "glProgramUniform2iv", "glProgramUniform2ui", "glProgramUniform2uiv",
    "glProgramUniform3f", "glProgramUniform3fv", "glProgramUniform3i",
    "glProgramUniform3iv", "glProgramUniform3ui", "glProgramUniform3uiv",
    "glProgramUniform4f", "glProgramUniform4fv", "glProgramUniform4i",
    "glProgramUniform4iv", "glProgramUniform4ui", "glProgramUniform4uiv",
    "glProgramUniformMatrix2fv", "glProgramUniformMatrix2x3fv",
    "glProgramUniformMatrix2x4fv", "glProgramUniformMatrix3fv",
    "glProgramUniformMatrix3x2fv", "glProgramUniformMatrix3x4fv",
    "glProgramUniformMatrix4fv", "glProgramUniformMatrix4x2fv",
    "glProgramUniformMatrix4x3fv", "glUseProgramStages", "glValidateProgramPipeline",
    # Immutable buffer storage (GL 4.4) and the buffer functions of direct state access (4.5).
    "glBufferStorage", "glClearNamedBufferData", "glClearNamedBufferSubData",
    "glCopyNamedBufferSubData", "glCreateBuffers", "glFlushMappedNamedBufferRange",
    "glGetNamedBufferParameteri64v", "glGetNamedBufferParameteriv", "glGetNamedBufferPointerv",
    "glGetNamedBufferSubData", "glMapNamedBuffer", "glMapNamedBufferRange",
    "glNamedBufferData", "glNamedBufferStorage", "glNamedBufferSubData", "glUnmapNamedBuffer",
    # Query buffer objects (GL 4.4) and their direct state access (GL 4.5).
    "glCreateQueries", "glGetQueryBufferObjecti64v", "glGetQueryBufferObjectiv",
    "glGetQueryBufferObjectui64v", "glGetQueryBufferObjectuiv",
    # Direct state access for textures, vertex arrays, framebuffers, renderbuffers and
    # samplers (GL 4.5).
    "glBindTextureUnit", "glCheckNamedFramebufferStatus", "glCompressedTextureSubImage1D",
    "glCompressedTextureSubImage2D", "glCompressedTextureSubImage3D",
    "glCopyTextureSubImage1D", "glCopyTextureSubImage2D", "glCopyTextureSubImage3D",
    "glCreateFramebuffers", "glCreateRenderbuffers", "glCreateSamplers", "glCreateTextures",
    "glCreateTransformFeedbacks", "glCreateVertexArrays", "glDisableVertexArrayAttrib",
    "glEnableVertexArrayAttrib", "glGenerateTextureMipmap",
    "glGetNamedFramebufferAttachmentParameteriv", "glGetNamedRenderbufferParameteriv",
    "glGetTextureImage", "glGetTextureLevelParameterfv", "glGetTextureLevelParameteriv",
    "glGetTextureParameterIiv", "glGetTextureParameterIuiv", "glGetTextureParameterfv",
    "glGetTextureParameteriv", "glGetVertexArrayIndexed64iv", "glGetVertexArrayIndexediv",
    "glGetVertexArrayiv", "glNamedFramebufferDrawBuffer", "glNamedFramebufferDrawBuffers",
    "glNamedFramebufferReadBuffer", "glNamedFramebufferRenderbuffer",
    "glNamedFramebufferTexture", "glNamedFramebufferTextureLayer",
    "glNamedRenderbufferStorage", "glNamedRenderbufferStorageMultisample", "glTextureBuffer",
    "glTextureBufferRange", "glTextureParameterIiv", "glTextureParameterIuiv",
    "glTextureParameterf", "glTextureParameterfv", "glTextureParameteri",
    "glTextureParameteriv", "glTextureStorage1D", "glTextureStorage2D",
    "glTextureStorage2DMultisample", "glTextureStorage3D", "glTextureStorage3DMultisample",
    "glTextureSubImage1D", "glTextureSubImage2D", "glTextureSubImage3D",
    "glVertexArrayAttribBinding", "glVertexArrayAttribFormat", "glVertexArrayAttribIFormat",
    "glVertexArrayAttribLFormat", "glVertexArrayBindingDivisor", "glVertexArrayElementBuffer",
    "glVertexArrayVertexBuffer", "glVertexArrayVertexBuffers",
    # The rest of direct state access (GL 4.5): framebuffer verbs and parameters,
    # compressed images and transform feedback objects by name.
    "glBlitNamedFramebuffer", "glClearNamedFramebufferfi", "glClearNamedFramebufferfv",
    "glClearNamedFramebufferiv", "glClearNamedFramebufferuiv", "glGetCompressedTextureImage",
    "glGetNamedFramebufferParameteriv", "glGetTransformFeedbacki64_v",
    "glGetTransformFeedbacki_v", "glGetTransformFeedbackiv",
    "glInvalidateNamedFramebufferData", "glInvalidateNamedFramebufferSubData",
    "glNamedFramebufferParameteri", "glTransformFeedbackBufferBase",
    "glTransformFeedbackBufferRange",
    # Boxes of texture images (GL 4.5, ARB_get_texture_sub_image).
    "glGetCompressedTextureSubImage", "glGetTextureSubImage",
}

# Arguments the engine takes as another integer type than the header (the bit pattern is
# kept, so an invalid value stays invalid).
ARG_CASTS = {
    ("glTexImage2DMultisample", "internalformat"): "GLint",
    ("glTexImage3DMultisample", "internalformat"): "GLint",
}


def parse():
    src = open(HEADER).read()
    funcs = []
    for m in re.finditer(r"#ifndef (GL_VERSION_(\d)_(\d))\n#define \1 1\n(.*?)#endif /\* \1 \*/", src, re.S):
        version = (int(m.group(2)), int(m.group(3)))
        if version > LAST:
            continue
        for f in re.finditer(r"GLAPI (.*?)APIENTRY (gl\w+) \((.*?)\);", m.group(4), re.S):
            ret, name, args = f.group(1).strip(), f.group(2), " ".join(f.group(3).split())
            params = [] if args == "void" else [parse_param(a.strip()) for a in args.split(",")]
            funcs.append((name, version, rust_type(ret), params))
    return funcs


def parse_param(text):
    m = re.match(r"(.*?)(\w+)$", text)
    return (m.group(2), rust_type(m.group(1).strip()))


def rust_type(c):
    """A C type of the header as the Rust type of the signature."""
    c = c.replace("const*", "const *").strip()
    stars = c.count("*")
    base = c.replace("*", " ").split()
    consts = [i for i, w in enumerate(base) if w == "const"]
    words = [w for w in base if w != "const"]
    assert len(words) == 1, c
    ty = SCALARS[words[0]]
    if stars == 0:
        return "()" if ty == "c_void" else ty
    # Pointer constness: `const T *` and `const T *const*` point at const data.
    outer_const = c.startswith("const ")
    if stars == 1:
        return ("*const " if outer_const else "*mut ") + ty
    assert stars == 2, c
    inner = "*const " if "*const" in c.replace(" ", "") else "*mut "
    return inner + ("*const " if outer_const else "*mut ") + ty


def snake(name):
    if name in ENGINE_NAMES:
        return ENGINE_NAMES[name]
    s = name[2:]
    s = re.sub(r"(\d)D(?=[A-Z]|$)", lambda m: "_" + m.group(1) + "d_", s)
    s = re.sub(r"(?<=[a-z])([A-Z])", r"_\1", s)
    s = s.lower().replace("__", "_").strip("_")
    # glVertexAttrib1f -> vertex_attrib_1f, glVertexAttribI4i -> vertex_attrib_i4i,
    # glVertexAttribP2ui -> vertex_attrib_p2ui, glVertexAttrib4Nub -> vertex_attrib_4nub.
    s = re.sub(r"^vertex_attrib(\d)", r"vertex_attrib_\1", s)
    s = re.sub(r"^vertex_attrib_(\d)_n", r"vertex_attrib_\1n", s)
    s = re.sub(r"^vertex_attrib_i(\d)", r"vertex_attrib_i\1", s)
    s = re.sub(r"^vertex_attrib_p(\d)", r"vertex_attrib_p\1", s)
    return s


def is_scalar(ret, params):
    types = [ret] + [t for _, t in params]
    return all("*" not in t and t != "GLsync" for t in types)


def arg_name(n):
    return {"type": "ty", "ref": "reference", "mod": "mode"}.get(n, n)


def main():
    funcs = parse()
    out = []
    out.append("// @generated by capi/tools/gen_gl.py from glcorearb.h: do not edit.")
    out.append("//! The OpenGL 1.0-3.3 core entry points: the table `eglGetProcAddress` searches, and the")
    out.append("//! exported functions whose arguments are all scalars (forwarded to the engine method of")
    out.append("//! the same name). Each table entry coerces the function to the exact C signature of")
    out.append("//! `glcorearb.h`, so a hand-written entry point with another signature does not compile.")
    out.append("")
    out.append("#![allow(non_snake_case, reason = \"exported under the GL names\")]")
    out.append("#![allow(clippy::too_many_arguments, reason = \"GL's signatures\")]")
    out.append("")
    out.append("use std::ffi::c_void;")
    out.append("")
    out.append("#[allow(clippy::wildcard_imports, reason = \"the hand-written entry points the table names\")]")
    out.append("use super::*;")
    out.append("use super::types::*;")
    out.append("use crate::current::gl_call;")
    out.append("")
    scalar = 0
    for name, version, ret, params in funcs:
        if not is_scalar(ret, params) or name in HAND:
            continue
        scalar += 1
        args = ", ".join(f"{arg_name(n)}: {t}" for n, t in params)
        call = ", ".join(
            arg_name(n) + (f" as {ARG_CASTS[(name, n)]}" if (name, n) in ARG_CASTS else "")
            for n, _ in params
        )
        rt = "" if ret == "()" else f" -> {ret}"
        default = "()" if ret == "()" else "0"
        out.append(f"/// `{name}` (OpenGL {version[0]}.{version[1]}).")
        out.append("#[unsafe(no_mangle)]")
        out.append(f"pub extern \"C\" fn {name}({args}){rt} {{")
        out.append(f"    gl_call(\"{name}\", {default}, |c| c.{snake(name)}({call}))")
        out.append("}")
        out.append("")
    out.append("/// Every OpenGL 1.0-3.3 core function: name, version (major, minor), address.")
    out.append(f"pub static GL_FUNCTIONS: [(&str, (u8, u8), Proc); {len(funcs)}] = [")
    for name, version, ret, params in sorted(funcs):
        sig = ", ".join(t for _, t in params)
        rt = "" if ret == "()" else f" -> {ret}"
        out.append(f"    (\"{name}\", ({version[0]}, {version[1]}), Proc({{ const F: unsafe extern \"C\" fn({sig}){rt} = {name}; F as *const c_void }})),")
    out.append("];")
    out.append("")
    out.append(f"/// How many of the entry points above are generated here (the rest are hand-written).")
    out.append(f"pub const GENERATED: usize = {scalar};")
    open(OUT, "w").write("\n".join(out) + "\n")
    # Committed formatted, so `cargo fmt --check` holds and a rerun reproduces it exactly.
    subprocess.run(["rustfmt", "--edition", "2024", OUT], check=True)
    print(f"{OUT}: {len(funcs)} functions, {scalar} generated entry points")
    stubs = registry_stubs({name for name, _, _, _ in funcs} | BEYOND)
    write_stubs(stubs)
    print(f"{STUBS_OUT}: {len(stubs)} stubs")


def registry_stubs(implemented):
    """(name, Rust return type) of every registry function not in `implemented`, sorted."""
    found = {}
    for header in REGISTRY:
        src = open(header).read()
        for m in re.finditer(r"GLAPI\s+(.+?)\s*\b(?:GL)?APIENTRY\s+(gl\w+)\s*\(", src):
            ret, name = " ".join(m.group(1).split()), m.group(2)
            if name in implemented:
                continue
            # The register the result comes back in: a float's, or the integer one.
            ty = {"GLfloat": "f32", "GLdouble": "f64"}.get(ret, "u64")
            assert found.get(name, ty) == ty, name
            found[name] = ty
    return sorted(found.items())


def write_stubs(stubs):
    out = []
    out.append("// @generated by capi/tools/gen_gl.py from gl.h, glext.h and glcorearb.h: do not edit.")
    out.append("//! One stub per GL function of the registry that Tessera does not implement")
    out.append("//! (see [`unimplemented`](super::unimplemented)), and the table `STUBS` of them.")
    out.append("")
    out.append("#![allow(non_snake_case, reason = \"named after the GL functions\")]")
    out.append("")
    out.append("super::unimplemented::stubs! {")
    out.append(f"    {len(stubs)};")
    for name, ty in stubs:
        out.append(f"    {name}: {ty},")
    out.append("}")
    open(STUBS_OUT, "w").write("\n".join(out) + "\n")
    subprocess.run(["rustfmt", "--edition", "2024", STUBS_OUT], check=True)


if __name__ == "__main__":
    main()

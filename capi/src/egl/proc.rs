//! `eglGetProcAddress`: every exported EGL and GL function by name, from tables sorted by
//! name (binary search), and a callable stub for every other GL function of the Khronos
//! registry. Unknown names give null; EGL 1.5 (and `EGL_KHR_get_all_proc_addresses`) let
//! core functions be looked up too.
//!
//! Like the GL table, each entry coerces the function to its `EGL/egl.h` signature, so a
//! signature that drifts from the header does not compile.

use std::ffi::{CStr, c_char, c_void};

use super::*;
use crate::gl::{GL_FUNCTIONS, Proc};

/// Every exported EGL function, sorted by name.
pub static EGL_FUNCTIONS: [(&str, Proc); 64] = [
    (
        "eglBindAPI",
        Proc({
            const F: unsafe extern "C" fn(EGLenum) -> EGLBoolean = eglBindAPI;
            F as *const c_void
        }),
    ),
    (
        "eglBindTexImage",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, EGLint) -> EGLBoolean = eglBindTexImage;
            F as *const c_void
        }),
    ),
    (
        "eglChooseConfig",
        Proc({
            const F: unsafe extern "C" fn(
                Handle,
                *const EGLint,
                *mut Handle,
                EGLint,
                *mut EGLint,
            ) -> EGLBoolean = eglChooseConfig;
            F as *const c_void
        }),
    ),
    (
        "eglClientWaitSync",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, EGLint, EGLTime) -> EGLint =
                eglClientWaitSync;
            F as *const c_void
        }),
    ),
    (
        "eglClientWaitSyncKHR",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, EGLint, EGLTime) -> EGLint =
                eglClientWaitSyncKHR;
            F as *const c_void
        }),
    ),
    (
        "eglCopyBuffers",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, NativeHandle) -> EGLBoolean =
                eglCopyBuffers;
            F as *const c_void
        }),
    ),
    (
        "eglCreateContext",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, Handle, *const EGLint) -> Handle =
                eglCreateContext;
            F as *const c_void
        }),
    ),
    (
        "eglCreateImage",
        Proc({
            const F: unsafe extern "C" fn(
                Handle,
                Handle,
                EGLenum,
                Handle,
                *const EGLAttrib,
            ) -> Handle = eglCreateImage;
            F as *const c_void
        }),
    ),
    (
        "eglCreateImageKHR",
        Proc({
            const F: unsafe extern "C" fn(
                Handle,
                Handle,
                EGLenum,
                Handle,
                *const EGLint,
            ) -> Handle = eglCreateImageKHR;
            F as *const c_void
        }),
    ),
    (
        "eglCreatePbufferFromClientBuffer",
        Proc({
            const F: unsafe extern "C" fn(
                Handle,
                EGLenum,
                Handle,
                Handle,
                *const EGLint,
            ) -> Handle = eglCreatePbufferFromClientBuffer;
            F as *const c_void
        }),
    ),
    (
        "eglCreatePbufferSurface",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, *const EGLint) -> Handle =
                eglCreatePbufferSurface;
            F as *const c_void
        }),
    ),
    (
        "eglCreatePixmapSurface",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, NativeHandle, *const EGLint) -> Handle =
                eglCreatePixmapSurface;
            F as *const c_void
        }),
    ),
    (
        "eglCreatePlatformPixmapSurface",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, *mut c_void, *const EGLAttrib) -> Handle =
                eglCreatePlatformPixmapSurface;
            F as *const c_void
        }),
    ),
    (
        "eglCreatePlatformPixmapSurfaceEXT",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, *mut c_void, *const EGLint) -> Handle =
                eglCreatePlatformPixmapSurfaceEXT;
            F as *const c_void
        }),
    ),
    (
        "eglCreatePlatformWindowSurface",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, *mut c_void, *const EGLAttrib) -> Handle =
                eglCreatePlatformWindowSurface;
            F as *const c_void
        }),
    ),
    (
        "eglCreatePlatformWindowSurfaceEXT",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, *mut c_void, *const EGLint) -> Handle =
                eglCreatePlatformWindowSurfaceEXT;
            F as *const c_void
        }),
    ),
    (
        "eglCreateSync",
        Proc({
            const F: unsafe extern "C" fn(Handle, EGLenum, *const EGLAttrib) -> Handle =
                eglCreateSync;
            F as *const c_void
        }),
    ),
    (
        "eglCreateSyncKHR",
        Proc({
            const F: unsafe extern "C" fn(Handle, EGLenum, *const EGLint) -> Handle =
                eglCreateSyncKHR;
            F as *const c_void
        }),
    ),
    (
        "eglCreateWindowSurface",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, NativeHandle, *const EGLint) -> Handle =
                eglCreateWindowSurface;
            F as *const c_void
        }),
    ),
    (
        "eglDestroyContext",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle) -> EGLBoolean = eglDestroyContext;
            F as *const c_void
        }),
    ),
    (
        "eglDestroyImage",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle) -> EGLBoolean = eglDestroyImage;
            F as *const c_void
        }),
    ),
    (
        "eglDestroyImageKHR",
        Proc({
            const F: extern "C" fn(Handle, Handle) -> EGLBoolean = eglDestroyImageKHR;
            F as *const c_void
        }),
    ),
    (
        "eglDestroySurface",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle) -> EGLBoolean = eglDestroySurface;
            F as *const c_void
        }),
    ),
    (
        "eglDestroySync",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle) -> EGLBoolean = eglDestroySync;
            F as *const c_void
        }),
    ),
    (
        "eglDestroySyncKHR",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle) -> EGLBoolean = eglDestroySyncKHR;
            F as *const c_void
        }),
    ),
    (
        "eglExportDMABUFImageMESA",
        Proc({
            const F: unsafe extern "C" fn(
                Handle,
                Handle,
                *mut i32,
                *mut EGLint,
                *mut EGLint,
            ) -> EGLBoolean = eglExportDMABUFImageMESA;
            F as *const c_void
        }),
    ),
    (
        "eglExportDMABUFImageQueryMESA",
        Proc({
            const F: unsafe extern "C" fn(
                Handle,
                Handle,
                *mut EGLint,
                *mut EGLint,
                *mut u64,
            ) -> EGLBoolean = eglExportDMABUFImageQueryMESA;
            F as *const c_void
        }),
    ),
    (
        "eglGetConfigAttrib",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, EGLint, *mut EGLint) -> EGLBoolean =
                eglGetConfigAttrib;
            F as *const c_void
        }),
    ),
    (
        "eglGetConfigs",
        Proc({
            const F: unsafe extern "C" fn(Handle, *mut Handle, EGLint, *mut EGLint) -> EGLBoolean =
                eglGetConfigs;
            F as *const c_void
        }),
    ),
    (
        "eglGetCurrentContext",
        Proc({
            const F: unsafe extern "C" fn() -> Handle = eglGetCurrentContext;
            F as *const c_void
        }),
    ),
    (
        "eglGetCurrentDisplay",
        Proc({
            const F: unsafe extern "C" fn() -> Handle = eglGetCurrentDisplay;
            F as *const c_void
        }),
    ),
    (
        "eglGetCurrentSurface",
        Proc({
            const F: unsafe extern "C" fn(EGLint) -> Handle = eglGetCurrentSurface;
            F as *const c_void
        }),
    ),
    (
        "eglGetDisplay",
        Proc({
            const F: unsafe extern "C" fn(Handle) -> Handle = eglGetDisplay;
            F as *const c_void
        }),
    ),
    (
        "eglGetError",
        Proc({
            const F: unsafe extern "C" fn() -> EGLint = eglGetError;
            F as *const c_void
        }),
    ),
    (
        "eglGetPlatformDisplay",
        Proc({
            const F: unsafe extern "C" fn(EGLenum, *mut c_void, *const EGLAttrib) -> Handle =
                eglGetPlatformDisplay;
            F as *const c_void
        }),
    ),
    (
        "eglGetPlatformDisplayEXT",
        Proc({
            const F: unsafe extern "C" fn(EGLenum, *mut c_void, *const EGLint) -> Handle =
                eglGetPlatformDisplayEXT;
            F as *const c_void
        }),
    ),
    (
        "eglGetProcAddress",
        Proc({
            const F: unsafe extern "C" fn(*const c_char) -> *const c_void = eglGetProcAddress;
            F as *const c_void
        }),
    ),
    (
        "eglGetSyncAttrib",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, EGLint, *mut EGLAttrib) -> EGLBoolean =
                eglGetSyncAttrib;
            F as *const c_void
        }),
    ),
    (
        "eglGetSyncAttribKHR",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, EGLint, *mut EGLint) -> EGLBoolean =
                eglGetSyncAttribKHR;
            F as *const c_void
        }),
    ),
    (
        "eglInitialize",
        Proc({
            const F: unsafe extern "C" fn(Handle, *mut EGLint, *mut EGLint) -> EGLBoolean =
                eglInitialize;
            F as *const c_void
        }),
    ),
    (
        "eglMakeCurrent",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, Handle, Handle) -> EGLBoolean =
                eglMakeCurrent;
            F as *const c_void
        }),
    ),
    (
        "eglQueryAPI",
        Proc({
            const F: unsafe extern "C" fn() -> EGLenum = eglQueryAPI;
            F as *const c_void
        }),
    ),
    (
        "eglQueryContext",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, EGLint, *mut EGLint) -> EGLBoolean =
                eglQueryContext;
            F as *const c_void
        }),
    ),
    (
        "eglQueryDeviceAttribEXT",
        Proc({
            const F: unsafe extern "C" fn(Handle, EGLint, *mut EGLAttrib) -> EGLBoolean =
                eglQueryDeviceAttribEXT;
            F as *const c_void
        }),
    ),
    (
        "eglQueryDeviceStringEXT",
        Proc({
            const F: unsafe extern "C" fn(Handle, EGLint) -> *const c_char =
                eglQueryDeviceStringEXT;
            F as *const c_void
        }),
    ),
    (
        "eglQueryDevicesEXT",
        Proc({
            const F: unsafe extern "C" fn(EGLint, *mut Handle, *mut EGLint) -> EGLBoolean =
                eglQueryDevicesEXT;
            F as *const c_void
        }),
    ),
    (
        "eglQueryDisplayAttribEXT",
        Proc({
            const F: unsafe extern "C" fn(Handle, EGLint, *mut EGLAttrib) -> EGLBoolean =
                eglQueryDisplayAttribEXT;
            F as *const c_void
        }),
    ),
    (
        "eglQueryDmaBufFormatsEXT",
        Proc({
            const F: unsafe extern "C" fn(Handle, EGLint, *mut EGLint, *mut EGLint) -> EGLBoolean =
                eglQueryDmaBufFormatsEXT;
            F as *const c_void
        }),
    ),
    (
        "eglQueryDmaBufModifiersEXT",
        Proc({
            const F: unsafe extern "C" fn(
                Handle,
                EGLint,
                EGLint,
                *mut u64,
                *mut EGLBoolean,
                *mut EGLint,
            ) -> EGLBoolean = eglQueryDmaBufModifiersEXT;
            F as *const c_void
        }),
    ),
    (
        "eglQueryString",
        Proc({
            const F: unsafe extern "C" fn(Handle, EGLint) -> *const c_char = eglQueryString;
            F as *const c_void
        }),
    ),
    (
        "eglQuerySurface",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, EGLint, *mut EGLint) -> EGLBoolean =
                eglQuerySurface;
            F as *const c_void
        }),
    ),
    (
        "eglReleaseTexImage",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, EGLint) -> EGLBoolean =
                eglReleaseTexImage;
            F as *const c_void
        }),
    ),
    (
        "eglReleaseThread",
        Proc({
            const F: unsafe extern "C" fn() -> EGLBoolean = eglReleaseThread;
            F as *const c_void
        }),
    ),
    (
        "eglSurfaceAttrib",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, EGLint, EGLint) -> EGLBoolean =
                eglSurfaceAttrib;
            F as *const c_void
        }),
    ),
    (
        "eglSwapBuffers",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle) -> EGLBoolean = eglSwapBuffers;
            F as *const c_void
        }),
    ),
    (
        "eglSwapBuffersWithDamageEXT",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, *const EGLint, EGLint) -> EGLBoolean =
                eglSwapBuffersWithDamageEXT;
            F as *const c_void
        }),
    ),
    (
        "eglSwapBuffersWithDamageKHR",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, *const EGLint, EGLint) -> EGLBoolean =
                eglSwapBuffersWithDamageKHR;
            F as *const c_void
        }),
    ),
    (
        "eglSwapInterval",
        Proc({
            const F: unsafe extern "C" fn(Handle, EGLint) -> EGLBoolean = eglSwapInterval;
            F as *const c_void
        }),
    ),
    (
        "eglTerminate",
        Proc({
            const F: unsafe extern "C" fn(Handle) -> EGLBoolean = eglTerminate;
            F as *const c_void
        }),
    ),
    (
        "eglWaitClient",
        Proc({
            const F: unsafe extern "C" fn() -> EGLBoolean = eglWaitClient;
            F as *const c_void
        }),
    ),
    (
        "eglWaitGL",
        Proc({
            const F: unsafe extern "C" fn() -> EGLBoolean = eglWaitGL;
            F as *const c_void
        }),
    ),
    (
        "eglWaitNative",
        Proc({
            const F: unsafe extern "C" fn(EGLint) -> EGLBoolean = eglWaitNative;
            F as *const c_void
        }),
    ),
    (
        "eglWaitSync",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, EGLint) -> EGLBoolean = eglWaitSync;
            F as *const c_void
        }),
    ),
    (
        "eglWaitSyncKHR",
        Proc({
            const F: unsafe extern "C" fn(Handle, Handle, EGLint) -> EGLint = eglWaitSyncKHR;
            F as *const c_void
        }),
    ),
];

/// The address of the exported function `name`, if there is one; for a GL function of the
/// registry that Tessera does not implement, its stub
/// ([`unimplemented`](crate::gl::unimplemented)).
pub fn lookup(name: &str) -> Option<*const c_void> {
    if name.starts_with("glX") {
        crate::glx::lookup(name)
    } else if name.starts_with("gl") {
        GL_FUNCTIONS
            .binary_search_by(|e| e.0.cmp(name))
            .ok()
            .map(|i| GL_FUNCTIONS[i].2.0)
            .or_else(|| {
                let beyond = crate::gl::BEYOND_3_3.iter().find(|e| e.0 == name);
                beyond.map(|e| e.1.0)
            })
            .or_else(|| crate::gl::unimplemented::stub(name))
    } else {
        EGL_FUNCTIONS
            .binary_search_by(|e| e.0.cmp(name))
            .ok()
            .map(|i| EGL_FUNCTIONS[i].1.0)
    }
}

/// `eglGetProcAddress`.
///
/// # Safety
/// `procname` is null or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglGetProcAddress(procname: *const c_char) -> *const c_void {
    if procname.is_null() {
        return std::ptr::null();
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    let name = unsafe { CStr::from_ptr(procname) };
    // A lookup cannot panic, but no panic may cross the ABI whatever happens.
    std::panic::catch_unwind(|| name.to_str().ok().and_then(lookup))
        .ok()
        .flatten()
        .unwrap_or(std::ptr::null())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_so_binary_search_finds_everything() {
        assert!(EGL_FUNCTIONS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(GL_FUNCTIONS.windows(2).all(|w| w[0].0 < w[1].0));
        for (name, _) in &EGL_FUNCTIONS {
            assert!(lookup(name).is_some(), "{name}");
        }
        for (name, _, _) in &GL_FUNCTIONS {
            assert!(lookup(name).is_some(), "{name}");
        }
    }

    #[test]
    fn unknown_names_are_null() {
        for name in [
            "glNotAFunction",
            "glFooBar123",
            "eglNope",
            "",
            "gl",
            "eglCreateStreamKHR",
        ] {
            assert!(lookup(name).is_none(), "{name}");
        }
    }

    /// The `gl*` function prototypes of Debian's libgl-dev headers: the Khronos registry's
    /// GL API (`gl.h` for the 1.0/1.1 compatibility functions, `glext.h`, `glcorearb.h`).
    fn registry_functions() -> Vec<String> {
        let mut names = Vec::new();
        for header in ["gl.h", "glext.h", "glcorearb.h"] {
            let path = format!("/usr/include/GL/{header}");
            let text = std::fs::read_to_string(&path).expect("/usr/include/GL (Debian: libgl-dev)");
            for line in text.lines().filter(|l| l.starts_with("GLAPI ")) {
                if let Some(name) = line
                    .split("APIENTRY")
                    .nth(1)
                    .and_then(|r| r.trim_start().split([' ', '(']).next())
                    && name.starts_with("gl")
                {
                    names.push(name.to_owned());
                }
            }
        }
        names.sort();
        names.dedup();
        names
    }

    #[test]
    fn every_gl_function_of_the_registry_resolves() {
        let names = registry_functions();
        assert!(names.len() > 2900, "only {} names", names.len());
        assert!(crate::gl::stubs::STUBS.windows(2).all(|w| w[0].0 < w[1].0));
        let beyond = &crate::gl::BEYOND_3_3;
        assert_eq!(
            crate::gl::stubs::STUBS.len() + GL_FUNCTIONS.len() + beyond.len(),
            names.len(),
            "the stubs and the tables are the registry's functions, each once"
        );
        for name in &names {
            let implemented = GL_FUNCTIONS
                .iter()
                .map(|e| (e.0, e.2))
                .chain(beyond.iter().copied())
                .find(|e| e.0 == name)
                .map(|e| e.1.0);
            let stub = crate::gl::unimplemented::stub(name);
            // The implemented function where there is one, else its stub; never both.
            assert!(implemented.is_none() || stub.is_none(), "{name}");
            assert_eq!(lookup(name), implemented.or(stub), "{name}");
            assert!(lookup(name).is_some_and(|p| !p.is_null()), "{name}");
        }
        for name in [
            "glBegin",
            "glDispatchComputeGroupSizeARB",
            "glGenTexturesEXT",
            "glDebugMessageCallbackARB",
        ] {
            assert_eq!(lookup(name), crate::gl::unimplemented::stub(name), "{name}");
        }
        // The robustness query is carried out (answered on a lost context too).
        let reset = lookup("glGetGraphicsResetStatusARB").expect("an entry");
        assert_eq!(
            crate::gl::unimplemented::stub("glGetGraphicsResetStatusARB"),
            None
        );
        let entry = |name: &str| beyond.iter().find(|e| e.0 == name).map(|e| e.1.0);
        assert_eq!(Some(reset), entry("glGetGraphicsResetStatusARB"));
        // So are the EXT names of core functions the advertised EXT extensions bring.
        for name in [
            "glClearColorIiEXT",
            "glClearColorIuiEXT",
            "glTexParameterIivEXT",
            "glTexParameterIuivEXT",
            "glGetTexParameterIivEXT",
            "glGetTexParameterIuivEXT",
            "glFramebufferTextureLayerEXT",
            "glProvokingVertexEXT",
        ] {
            assert_eq!(crate::gl::unimplemented::stub(name), None, "{name}");
            assert_eq!(lookup(name), entry(name), "{name}");
        }
        // And KHR_debug's functions (GL 4.3).
        for name in [
            "glDebugMessageCallback",
            "glDebugMessageControl",
            "glDebugMessageInsert",
            "glGetDebugMessageLog",
            "glPushDebugGroup",
            "glPopDebugGroup",
            "glObjectLabel",
            "glGetObjectLabel",
            "glObjectPtrLabel",
            "glGetObjectPtrLabel",
        ] {
            assert_eq!(crate::gl::unimplemented::stub(name), None, "{name}");
            assert_eq!(lookup(name), entry(name), "{name}");
        }
        // And GL 4.3's compute and shader storage block functions.
        for name in [
            "glDispatchCompute",
            "glDispatchComputeIndirect",
            "glMemoryBarrier",
            "glMemoryBarrierByRegion",
            "glShaderStorageBlockBinding",
            "glGetProgramResourceIndex",
            "glGetProgramInterfaceiv",
            "glGetProgramResourceName",
            "glGetProgramResourceiv",
            "glGetProgramResourceLocation",
            "glGetProgramResourceLocationIndex",
        ] {
            assert_eq!(crate::gl::unimplemented::stub(name), None, "{name}");
            assert_eq!(lookup(name), entry(name), "{name}");
        }
        assert!(beyond.windows(2).all(|w| w[0].0 < w[1].0), "sorted by name");
    }

    #[test]
    fn a_stub_with_no_context_returns_zero() {
        let p = lookup("glMapNamedBuffer").expect("a stub");
        // SAFETY: a stub is an `extern "C" fn() -> u64` (see gl::unimplemented); called with
        // its own signature here.
        let f: extern "C" fn() -> u64 = unsafe { std::mem::transmute(p) };
        assert_eq!(f(), 0);
        assert_eq!(f(), 0);
    }
}

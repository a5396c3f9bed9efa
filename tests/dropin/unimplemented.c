/*
 * GL functions Tessera does not implement, fetched and called as programs and GL bindings
 * do: every name eglGetProcAddress is asked for gets a callable entry (4.x, compatibility
 * and extension functions among them), and calling one records GL_INVALID_OPERATION
 * instead of crashing; a name that is no GL function is still null.
 *
 * Output: "ok <what>" or "FAIL <what>: <why>" per check, then "checks <n> failures <m>";
 * the exit status is 1 if a check failed. tests/tests/dropin.rs runs it on Tessera (and
 * checks each stub's warning is logged once) and natively (where the checks hold too, those
 * about Tessera's answers aside: the driver implements what it has).
 */

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"


/* glBegin is a compatibility function: gl.h declares it, glcorearb.h does not. */
typedef void (*PFNGLBEGINPROC_)(GLenum mode);

int main(void)
{
    /* Before any context: a stub is callable and does nothing. */
    PFNGLMAXSHADERCOMPILERTHREADSARBPROC early =
        (PFNGLMAXSHADERCOMPILERTHREADSARBPROC)eglGetProcAddress(
            "glMaxShaderCompilerThreadsARB");
    check("glMaxShaderCompilerThreadsARB is found before a context exists", early != NULL, "null");
    if (early)
        early(1);

    EGLDisplay dpy;
    EGLContext ctx = surfaceless_core_context(&dpy);
    if (ctx == EGL_NO_CONTEXT)
        return 1;
    PFNGLGETERRORPROC getError = (PFNGLGETERRORPROC)eglGetProcAddress("glGetError");
    PFNGLGETSTRINGPROC getString = (PFNGLGETSTRINGPROC)eglGetProcAddress("glGetString");
    PFNGLCULLFACEPROC cullFace = (PFNGLCULLFACEPROC)eglGetProcAddress("glCullFace");
    if (!getError || !getString || !cullFace) {
        printf("FAIL glGetError, glGetString or glCullFace is null\n");
        return 1;
    }
    /* Natively, a 4.x driver implements the 4.x functions: only where the vendor is
       Tessera must every call below fail with GL_INVALID_OPERATION. */
    const char *vendor = (const char *)getString(GL_VENDOR);
    int tessera = vendor && strcmp(vendor, "Tessera") == 0;
    printf("vendor %s\n", vendor ? vendor : "(null)");
    while (getError() != GL_NO_ERROR)
        ;

    PFNGLMAXSHADERCOMPILERTHREADSARBPROC maxCompilerThreads =
        (PFNGLMAXSHADERCOMPILERTHREADSARBPROC)eglGetProcAddress(
            "glMaxShaderCompilerThreadsARB");
    PFNGLNAMEDBUFFERSTORAGEEXTPROC bufferStorage =
        (PFNGLNAMEDBUFFERSTORAGEEXTPROC)eglGetProcAddress("glNamedBufferStorageEXT");
    PFNGLDEBUGMESSAGECALLBACKARBPROC debugMessageCallback =
        (PFNGLDEBUGMESSAGECALLBACKARBPROC)eglGetProcAddress("glDebugMessageCallbackARB");
    PFNGLMAPNAMEDBUFFEREXTPROC mapNamedBuffer =
        (PFNGLMAPNAMEDBUFFEREXTPROC)eglGetProcAddress("glMapNamedBufferEXT");
    PFNGLBEGINPROC_ begin = (PFNGLBEGINPROC_)eglGetProcAddress("glBegin");
    check("glMaxShaderCompilerThreadsARB is non-null", maxCompilerThreads != NULL, "null");
    check("glNamedBufferStorageEXT is non-null", bufferStorage != NULL, "null");
    check("glDebugMessageCallbackARB is non-null", debugMessageCallback != NULL, "null");
    check("glMapNamedBufferEXT is non-null", mapNamedBuffer != NULL, "null");
    check("glBegin is non-null", begin != NULL, "null");
    /* (glvnd hands out a dispatch stub for any gl* name: null is Tessera's answer.) */
    check("glNotARealFunction is null",
          !tessera || eglGetProcAddress("glNotARealFunction") == NULL, "non-null");
    check("glFooBar123 is null", !tessera || eglGetProcAddress("glFooBar123") == NULL,
          "non-null");
    if (!maxCompilerThreads || !bufferStorage || !debugMessageCallback || !mapNamedBuffer ||
        !begin) {
        printf("checks %d failures %d\n", checks, failures);
        return 1;
    }

    /* Each call twice: each records the error again (read in between); the warning is
       logged once per name. */
    for (int round = 0; round < 2; round++) {
        GLuint data[4] = {1, 2, 3, 4};
        maxCompilerThreads(2);
        GLenum e = getError();
        check("glMaxShaderCompilerThreadsARB then GL_INVALID_OPERATION",
              !tessera || e == GL_INVALID_OPERATION, "another error");
        bufferStorage(12345, sizeof data, data, 0);
        e = getError();
        /* Natively (a core context: no EXT_direct_state_access), an error too. */
        check("glNamedBufferStorageEXT then GL_INVALID_OPERATION",
              tessera ? e == GL_INVALID_OPERATION : e != GL_NO_ERROR, "another error");
        debugMessageCallback(NULL, NULL);
        e = getError();
        check("glDebugMessageCallbackARB then GL_INVALID_OPERATION",
              !tessera || e == GL_INVALID_OPERATION, "another error");
        void *mapped = mapNamedBuffer(12345, GL_READ_ONLY);
        e = getError();
        check("glMapNamedBufferEXT returns null", mapped == NULL, "non-null");
        check("glMapNamedBufferEXT then an error", e != GL_NO_ERROR, "none");
        begin(GL_TRIANGLES);
        e = getError();
        check("glBegin then GL_INVALID_OPERATION",
              !tessera || e == GL_INVALID_OPERATION, "another error");
        check("nothing more is pending", getError() == GL_NO_ERROR, "another error");
    }

    /* Implemented functions are unaffected. */
    cullFace(GL_FRONT);
    check("glCullFace is implemented", getError() == GL_NO_ERROR, "an error");

    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    printf("checks %d failures %d\n", checks, failures);
    return failures != 0;
}

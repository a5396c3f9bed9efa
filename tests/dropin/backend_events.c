/*
 * Backend events reach the log, bounded: on Tessera's GLES backend a buffer larger than
 * GLES's 31-bit sizes is an out-of-memory event of the backend (the engine accepts it; the
 * native buffer is made empty). Run on Tessera only (natively it would allocate 3 GiB).
 *
 * Phase 1: ROUNDS times glBufferData(3 GiB) then glFlush: each flush drains the event
 * into the log. Phase 2: BURST glBufferData(3 GiB) then one glFinish: one drain finds
 * BURST events and logs the newest 64, counting the older ones in one line.
 * Output: "rounds <n> burst <m> error <glGetError>"; tests/tests/dropin.rs reads the log.
 */

#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>

#include "harness.h"

#define ROUNDS 100
#define BURST 100

int main(void)
{
    EGLDisplay dpy;
    EGLContext ctx = surfaceless_core_context(&dpy);
    if (ctx == EGL_NO_CONTEXT)
        return 1;
    GLuint buffer;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    const GLsizeiptr huge = (GLsizeiptr)3 << 30;
    for (int i = 0; i < ROUNDS; i++) {
        glBufferData(GL_ARRAY_BUFFER, huge, NULL, GL_STATIC_DRAW);
        glFlush();
    }
    fflush(stderr);
    fprintf(stderr, "phase 2\n");
    for (int i = 0; i < BURST; i++)
        glBufferData(GL_ARRAY_BUFFER, huge, NULL, GL_STATIC_DRAW);
    glFinish();
    printf("rounds %d burst %d error %#x\n", ROUNDS, BURST, glGetError());
    glDeleteBuffers(1, &buffer);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    return 0;
}

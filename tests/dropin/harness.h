/*
 * What the drop-in's C test programs share: counted checks ("ok <name>" / "FAIL <name>:
 * <detail>" lines, which tests/tests/dropin.rs reads), the EGL error check, and a GL 3.3
 * core context on the surfaceless display. Header-only: each program is one gcc call.
 */
#ifndef TESSERA_DROPIN_HARNESS_H
#define TESSERA_DROPIN_HARNESS_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdio.h>

#define HARNESS_UNUSED __attribute__((unused))

static int checks = 0, failures = 0;

HARNESS_UNUSED static void check(const char *name, int ok, const char *detail)
{
    checks++;
    if (ok) {
        printf("ok %s\n", name);
    } else {
        failures++;
        printf("FAIL %s: %s\n", name, detail);
    }
}

/* Checks that the last EGL call left `expected` as the thread's error. */
HARNESS_UNUSED static void expect_error(const char *name, EGLint expected)
{
    EGLint got = eglGetError();
    char detail[96];
    snprintf(detail, sizeof detail, "expected EGL error 0x%04x, got 0x%04x", expected, got);
    check(name, got == expected, detail);
}

/*
 * Initializes the surfaceless display and makes a GL 3.3 core context current on it with no
 * surface; EGL_NO_CONTEXT (after a FAIL line) if any step fails.
 */
HARNESS_UNUSED static EGLContext surfaceless_core_context(EGLDisplay *dpy)
{
    EGLint major, minor, n;
    EGLConfig config;
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                     EGL_OPENGL_BIT, EGL_NONE};
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    *dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!eglInitialize(*dpy, &major, &minor) || !eglBindAPI(EGL_OPENGL_API) ||
        !eglChooseConfig(*dpy, config_attribs, &config, 1, &n) || n != 1) {
        printf("FAIL no EGL display or config\n");
        return EGL_NO_CONTEXT;
    }
    EGLContext ctx = eglCreateContext(*dpy, config, EGL_NO_CONTEXT, context_attribs);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(*dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        printf("FAIL no GL 3.3 core context\n");
        return EGL_NO_CONTEXT;
    }
    return ctx;
}

#endif

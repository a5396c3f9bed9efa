/*
 * EGL error cases against the drop-in, as an application sees them: each check makes one
 * call that must fail (or succeed) and reads eglGetError. Prints "ok <check>" or
 * "FAIL <check>: ..." per check and "checks <n> failures <m>" last; exits non-zero on any
 * failure. tests/tests/dropin.rs runs it with LD_LIBRARY_PATH at the drop-in and
 * TESSERA_BACKEND=null (the EGL rules do not depend on the backend).
 *
 * Also checked here, because only a C caller can: GL calls without a current context do
 * nothing and return 0, the current context is per thread (EGL_BAD_ACCESS from another
 * thread), eglGetError is per thread, and a bug caught at the ABI (a panic) becomes
 * GL_INVALID_OPERATION instead of a crash.
 */

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"


static const EGLint CORE_33[] = {
    EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
    EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
};

/* Core requests above 3.3 are granted up to the version the context reports: the
 * backend's (4.6 on the null backend, which has every feature), or TESSERA_GL_VERSION's,
 * which the test sets to 4.0 in a second run, where 4.3 is refused; 4.7 names no version.
 * Leaves no context current. */
static void check_versions(EGLDisplay dpy, EGLConfig config)
{
    const EGLint v40[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 0,
                          EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                          EGL_NONE};
    const EGLint v43[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3,
                          EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                          EGL_NONE};
    const EGLint v46[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6,
                          EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                          EGL_NONE};
    const EGLint v47[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 7,
                          EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                          EGL_NONE};
    const char *claimed = getenv("TESSERA_GL_VERSION");
    check("a 4.7 core context fails", eglCreateContext(dpy, config, EGL_NO_CONTEXT, v47) == EGL_NO_CONTEXT,
          "created");
    expect_error("a 4.7 core context is EGL_BAD_MATCH", EGL_BAD_MATCH);
    if (claimed && strcmp(claimed, "4.0") == 0) {
        check("TESSERA_GL_VERSION=4.0: a 4.3 core context fails",
              eglCreateContext(dpy, config, EGL_NO_CONTEXT, v43) == EGL_NO_CONTEXT, "created");
        expect_error("TESSERA_GL_VERSION=4.0: a 4.3 core context is EGL_BAD_MATCH", EGL_BAD_MATCH);
        EGLContext v40ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, v40);
        check("TESSERA_GL_VERSION=4.0: a 4.0 core context is granted", v40ctx != EGL_NO_CONTEXT,
              "refused");
        eglDestroyContext(dpy, v40ctx);
        return;
    }
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, v46);
    check("4.6: a 4.6 core context is granted", ctx != EGL_NO_CONTEXT, "refused");
    EGLint client = 0;
    eglQueryContext(dpy, ctx, EGL_CONTEXT_CLIENT_VERSION, &client);
    check("4.6: EGL_CONTEXT_CLIENT_VERSION is 4", client == 4, "not 4");
    check("4.6: surfaceless make-current",
          eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx), "failed");
    const char *version = (const char *)glGetString(GL_VERSION);
    check("4.6: GL_VERSION is \"4.6 (Core Profile) Tessera ...\"",
          version && strncmp(version, "4.6 (Core Profile) Tessera ", 27) == 0,
          version ? version : "null");
    const char *glsl = (const char *)glGetString(GL_SHADING_LANGUAGE_VERSION);
    check("4.6: GL_SHADING_LANGUAGE_VERSION is \"4.60\"",
          glsl && strcmp(glsl, "4.60") == 0, glsl ? glsl : "null");
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    check("4.6: GL_MAJOR_VERSION 4, GL_MINOR_VERSION 6", major == 4 && minor == 6,
          "another version");
    /* GL 4.3's list of GLSL versions: 4.60 first, GLSL 1.10 as the empty string after
     * 1.20, then the ES versions "310 es", "300 es" and "100", and INVALID_VALUE past the
     * end (as native Mesa lists them). */
    PFNGLGETSTRINGIPROC get_stringi = (PFNGLGETSTRINGIPROC)eglGetProcAddress("glGetStringi");
    GLint versions = 0;
    glGetIntegerv(GL_NUM_SHADING_LANGUAGE_VERSIONS, &versions);
    check("4.6: GL_NUM_SHADING_LANGUAGE_VERSIONS is 16", versions == 16,
          "another count");
    const char *first = (const char *)get_stringi(GL_SHADING_LANGUAGE_VERSION, 0);
    const char *v110 = (const char *)get_stringi(GL_SHADING_LANGUAGE_VERSION, 12);
    const char *last = (const char *)get_stringi(GL_SHADING_LANGUAGE_VERSION, 15);
    check("4.6: GLSL versions \"460\" .. \"\" .. \"100\"",
          first && v110 && last && strcmp(first, "460") == 0 && strcmp(v110, "") == 0 &&
              strcmp(last, "100") == 0,
          "other strings");
    while (glGetError() != GL_NO_ERROR) {
    }
    check("4.6: no GLSL version past the list",
          get_stringi(GL_SHADING_LANGUAGE_VERSION, 16) == NULL && glGetError() == GL_INVALID_VALUE,
          "not INVALID_VALUE");
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    check("4.6: eglDestroyContext", eglDestroyContext(dpy, ctx), "failed");
}

struct shared {
    EGLDisplay dpy;
    EGLContext ctx;
    EGLSurface surface;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stage;
};

static void wait_stage(struct shared *s, int stage)
{
    pthread_mutex_lock(&s->lock);
    while (s->stage < stage)
        pthread_cond_wait(&s->cond, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

static void set_stage(struct shared *s, int stage)
{
    pthread_mutex_lock(&s->lock);
    s->stage = stage;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

/* Makes the context current on this thread until the main thread is done checking. */
static void *holder(void *arg)
{
    struct shared *s = arg;
    eglBindAPI(EGL_OPENGL_API);
    int ok = eglMakeCurrent(s->dpy, s->surface, s->surface, s->ctx);
    check("a second thread makes the context current", ok, "eglMakeCurrent failed");
    set_stage(s, 1);
    wait_stage(s, 2);
    eglMakeCurrent(s->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    set_stage(s, 3);
    return NULL;
}

/* A fresh thread: its API is EGL_NONE and its error EGL_SUCCESS whatever the main thread
 * did. */
static void *fresh(void *arg)
{
    struct shared *s = arg;
    check("a new thread's error is EGL_SUCCESS", eglGetError() == EGL_SUCCESS, "not EGL_SUCCESS");
    check("a new thread's API is EGL_NONE", eglQueryAPI() == EGL_NONE, "not EGL_NONE");
    EGLContext c = eglCreateContext(s->dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, CORE_33);
    check("eglCreateContext without eglBindAPI fails", c == EGL_NO_CONTEXT, "created");
    expect_error("eglCreateContext without a bound API is EGL_BAD_MATCH", EGL_BAD_MATCH);
    check("no current context on a new thread", eglGetCurrentContext() == EGL_NO_CONTEXT,
          "a context is current");
    return NULL;
}

int main(void)
{
    /* Displays. */
    EGLDisplay bad = (EGLDisplay)(uintptr_t)0x1234;
    check("eglInitialize(bad display) fails", !eglInitialize(bad, NULL, NULL), "succeeded");
    expect_error("eglInitialize(bad display) is EGL_BAD_DISPLAY", EGL_BAD_DISPLAY);
    EGLDisplay x11 = eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, EGL_DEFAULT_DISPLAY, NULL);
    check("eglGetPlatformDisplay(X11) is EGL_NO_DISPLAY", x11 == EGL_NO_DISPLAY, "a display");
    expect_error("eglGetPlatformDisplay(X11) is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    check("client extensions name the surfaceless platform",
          client && strstr(client, "EGL_MESA_platform_surfaceless"), client ? client : "null");
    check("eglQueryString(EGL_NO_DISPLAY, EGL_VENDOR) fails",
          eglQueryString(EGL_NO_DISPLAY, EGL_VENDOR) == NULL, "a string");
    expect_error("eglQueryString(EGL_NO_DISPLAY, EGL_VENDOR) is EGL_BAD_DISPLAY", EGL_BAD_DISPLAY);

    EGLDisplay dflt = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    check("eglGetDisplay(EGL_DEFAULT_DISPLAY) gives a display", dflt != EGL_NO_DISPLAY, "none");
    EGLint n = 0;
    EGLConfig configs[8];
    check("eglGetConfigs on an uninitialized display fails",
          !eglGetConfigs(dflt, configs, 8, &n), "succeeded");
    expect_error("an uninitialized display is EGL_NOT_INITIALIZED", EGL_NOT_INITIALIZED);

    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    EGLint major = 0, minor = 0;
    check("eglInitialize(surfaceless)", eglInitialize(dpy, &major, &minor) && major == 1 && minor == 5,
          "failed or not 1.5");
    expect_error("a successful call leaves EGL_SUCCESS", EGL_SUCCESS);
    const char *version = eglQueryString(dpy, EGL_VERSION);
    check("EGL_VERSION is \"1.5 Tessera ...\"", version && strncmp(version, "1.5 Tessera ", 12) == 0,
          version ? version : "null");
    const char *apis = eglQueryString(dpy, EGL_CLIENT_APIS);
    check("EGL_CLIENT_APIS is \"OpenGL\"", apis && strcmp(apis, "OpenGL") == 0, apis ? apis : "null");
    check("eglQueryString(bad name) fails", eglQueryString(dpy, 0x1234) == NULL, "a string");
    expect_error("eglQueryString(bad name) is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);

    /* Configs. */
    check("eglGetConfigs(NULL num_config) fails", !eglGetConfigs(dpy, configs, 8, NULL), "succeeded");
    expect_error("eglGetConfigs(NULL num_config) is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("eglGetConfigs lists four configs", eglGetConfigs(dpy, configs, 8, &n) && n == 4, "not 4");
    const EGLint bad_attrib[] = {0x1234, 0, EGL_NONE};
    check("eglChooseConfig(unknown attribute) fails",
          !eglChooseConfig(dpy, bad_attrib, configs, 8, &n), "succeeded");
    expect_error("eglChooseConfig(unknown attribute) is EGL_BAD_ATTRIBUTE", EGL_BAD_ATTRIBUTE);
    const EGLint want_depth[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                 EGL_DEPTH_SIZE, 24, EGL_SAMPLES, 0, EGL_NONE};
    EGLConfig with_depth, without_depth;
    check("eglChooseConfig(depth 24)", eglChooseConfig(dpy, want_depth, &with_depth, 1, &n) && n == 1,
          "no config");
    const EGLint want_plain[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                 EGL_NONE};
    check("eglChooseConfig(no depth)", eglChooseConfig(dpy, want_plain, &without_depth, 1, &n) && n == 1,
          "no config");
    EGLint value = -1;
    check("the smallest match has no depth buffer",
          eglGetConfigAttrib(dpy, without_depth, EGL_DEPTH_SIZE, &value) && value == 0, "depth");
    const EGLint want_es[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE};
    check("no config renders OpenGL ES", eglChooseConfig(dpy, want_es, configs, 8, &n) && n == 0,
          "an ES config");
    check("eglGetConfigAttrib(bad config) fails",
          !eglGetConfigAttrib(dpy, (EGLConfig)(uintptr_t)0x99, EGL_DEPTH_SIZE, &value), "succeeded");
    expect_error("a bad config is EGL_BAD_CONFIG", EGL_BAD_CONFIG);
    check("eglGetConfigAttrib(bad attribute) fails",
          !eglGetConfigAttrib(dpy, with_depth, 0x1234, &value), "succeeded");
    expect_error("a bad config attribute is EGL_BAD_ATTRIBUTE", EGL_BAD_ATTRIBUTE);

    /* Client API and contexts. */
    check("eglQueryAPI starts as EGL_NONE", eglQueryAPI() == EGL_NONE, "not EGL_NONE");
    check("eglBindAPI(OpenGL ES) fails", !eglBindAPI(EGL_OPENGL_ES_API), "succeeded");
    expect_error("eglBindAPI(OpenGL ES) is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("eglBindAPI(OpenGL)", eglBindAPI(EGL_OPENGL_API), "failed");
    const EGLint v50[] = {EGL_CONTEXT_MAJOR_VERSION, 5, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
    check("a 5.0 context fails", eglCreateContext(dpy, with_depth, EGL_NO_CONTEXT, v50) == EGL_NO_CONTEXT,
          "created");
    expect_error("a 5.0 context is EGL_BAD_MATCH", EGL_BAD_MATCH);
    check_versions(dpy, with_depth);
    const EGLint compat[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                             EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                             EGL_NONE};
    check("a compatibility context fails",
          eglCreateContext(dpy, with_depth, EGL_NO_CONTEXT, compat) == EGL_NO_CONTEXT, "created");
    expect_error("a compatibility context is EGL_BAD_MATCH", EGL_BAD_MATCH);
    const EGLint unknown[] = {0x3100 /* EGL_CONTEXT_PRIORITY_LEVEL_IMG */, 0x3102, EGL_NONE};
    check("an unknown context attribute fails",
          eglCreateContext(dpy, with_depth, EGL_NO_CONTEXT, unknown) == EGL_NO_CONTEXT, "created");
    expect_error("an unknown context attribute is EGL_BAD_ATTRIBUTE", EGL_BAD_ATTRIBUTE);
    check("eglCreateContext(bad config) fails",
          eglCreateContext(dpy, (EGLConfig)(uintptr_t)0x99, EGL_NO_CONTEXT, CORE_33) == EGL_NO_CONTEXT,
          "created");
    expect_error("eglCreateContext(bad config) is EGL_BAD_CONFIG", EGL_BAD_CONFIG);
    check("eglCreateContext(bad share context) fails",
          eglCreateContext(dpy, with_depth, (EGLContext)(uintptr_t)0x77, CORE_33) == EGL_NO_CONTEXT,
          "created");
    expect_error("a bad share context is EGL_BAD_CONTEXT", EGL_BAD_CONTEXT);
    const EGLint debug[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                            EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                            EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE,
                            EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, EGL_LOSE_CONTEXT_ON_RESET,
                            EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, with_depth, EGL_NO_CONTEXT, debug);
    check("a 3.3 core debug context", ctx != EGL_NO_CONTEXT, "not created");
    EGLContext shared_ctx = eglCreateContext(dpy, with_depth, ctx, CORE_33);
    check("a context sharing with it", shared_ctx != EGL_NO_CONTEXT, "not created");
    EGLContext plain_ctx = eglCreateContext(dpy, without_depth, EGL_NO_CONTEXT, CORE_33);
    check("a context of the other config", plain_ctx != EGL_NO_CONTEXT, "not created");
    check("eglQueryContext(EGL_CONTEXT_CLIENT_TYPE)",
          eglQueryContext(dpy, ctx, EGL_CONTEXT_CLIENT_TYPE, &value) && value == EGL_OPENGL_API,
          "not EGL_OPENGL_API");
    check("eglQueryContext(bad attribute) fails", !eglQueryContext(dpy, ctx, 0x1234, &value), "succeeded");
    expect_error("eglQueryContext(bad attribute) is EGL_BAD_ATTRIBUTE", EGL_BAD_ATTRIBUTE);

    /* GL without a current context: nothing happens, 0 comes back. */
    check("glGetString without a context is NULL", glGetString(GL_VENDOR) == NULL, "a string");
    check("glGetError without a context is 0", glGetError() == 0, "an error");
    check("glIsEnabled without a context is 0", glIsEnabled(GL_BLEND) == 0, "true");

    /* Surfaces. */
    const EGLint neg[] = {EGL_WIDTH, -1, EGL_HEIGHT, 8, EGL_NONE};
    check("a pbuffer of negative width fails",
          eglCreatePbufferSurface(dpy, with_depth, neg) == EGL_NO_SURFACE, "created");
    expect_error("a pbuffer of negative width is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("a pbuffer with an unknown attribute fails",
          eglCreatePbufferSurface(dpy, with_depth, bad_attrib) == EGL_NO_SURFACE, "created");
    expect_error("an unknown pbuffer attribute is EGL_BAD_ATTRIBUTE", EGL_BAD_ATTRIBUTE);
    check("a window surface fails",
          eglCreateWindowSurface(dpy, with_depth, (EGLNativeWindowType)1, NULL) == EGL_NO_SURFACE, "created");
    expect_error("a window surface is EGL_BAD_NATIVE_WINDOW", EGL_BAD_NATIVE_WINDOW);
    const EGLint size[] = {EGL_WIDTH, 32, EGL_HEIGHT, 16, EGL_NONE};
    EGLSurface pbuffer = eglCreatePbufferSurface(dpy, with_depth, size);
    EGLSurface other = eglCreatePbufferSurface(dpy, with_depth, size);
    check("two pbuffers", pbuffer != EGL_NO_SURFACE && other != EGL_NO_SURFACE, "not created");
    check("eglQuerySurface(EGL_WIDTH)", eglQuerySurface(dpy, pbuffer, EGL_WIDTH, &value) && value == 32,
          "not 32");
    check("eglQuerySurface(bad attribute) fails", !eglQuerySurface(dpy, pbuffer, 0x1234, &value),
          "succeeded");
    expect_error("eglQuerySurface(bad attribute) is EGL_BAD_ATTRIBUTE", EGL_BAD_ATTRIBUTE);

    /* eglMakeCurrent. */
    check("eglMakeCurrent(bad context) fails",
          !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, (EGLContext)(uintptr_t)0x77), "succeeded");
    expect_error("eglMakeCurrent(bad context) is EGL_BAD_CONTEXT", EGL_BAD_CONTEXT);
    check("eglMakeCurrent(bad surface) fails",
          !eglMakeCurrent(dpy, (EGLSurface)(uintptr_t)0x55, (EGLSurface)(uintptr_t)0x55, ctx), "succeeded");
    expect_error("eglMakeCurrent(bad surface) is EGL_BAD_SURFACE", EGL_BAD_SURFACE);
    check("eglMakeCurrent(draw without read) fails",
          !eglMakeCurrent(dpy, pbuffer, EGL_NO_SURFACE, ctx), "succeeded");
    expect_error("eglMakeCurrent(draw without read) is EGL_BAD_MATCH", EGL_BAD_MATCH);
    check("eglMakeCurrent(surfaces without a context) fails",
          !eglMakeCurrent(dpy, pbuffer, pbuffer, EGL_NO_CONTEXT), "succeeded");
    expect_error("eglMakeCurrent(surfaces without a context) is EGL_BAD_MATCH", EGL_BAD_MATCH);
    check("eglMakeCurrent(config mismatch) fails", !eglMakeCurrent(dpy, pbuffer, pbuffer, plain_ctx),
          "succeeded");
    expect_error("eglMakeCurrent(config mismatch) is EGL_BAD_MATCH", EGL_BAD_MATCH);
    check("eglMakeCurrent(bad display) fails", !eglMakeCurrent(bad, pbuffer, pbuffer, ctx), "succeeded");
    expect_error("eglMakeCurrent(bad display) is EGL_BAD_DISPLAY", EGL_BAD_DISPLAY);

    /* Current to another thread. */
    struct shared s = {dpy, ctx, pbuffer, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    pthread_t t;
    pthread_create(&t, NULL, holder, &s);
    wait_stage(&s, 1);
    check("a context current to another thread cannot be made current",
          !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx), "succeeded");
    expect_error("a context current to another thread is EGL_BAD_ACCESS", EGL_BAD_ACCESS);
    check("a surface bound on another thread cannot be bound",
          !eglMakeCurrent(dpy, pbuffer, pbuffer, shared_ctx), "succeeded");
    expect_error("a surface bound on another thread is EGL_BAD_ACCESS", EGL_BAD_ACCESS);
    check("this thread still has no current context", eglGetCurrentContext() == EGL_NO_CONTEXT,
          "a context is current");
    set_stage(&s, 2);
    wait_stage(&s, 3);
    pthread_join(t, NULL);
    pthread_create(&t, NULL, fresh, &s);
    pthread_join(t, NULL);

    /* Now this thread's. */
    check("eglSwapBuffers with no current context fails", !eglSwapBuffers(dpy, pbuffer), "succeeded");
    expect_error("eglSwapBuffers of a surface not current is EGL_BAD_SURFACE", EGL_BAD_SURFACE);
    check("eglMakeCurrent(pbuffer) once released", eglMakeCurrent(dpy, pbuffer, pbuffer, ctx), "failed");
    check("eglGetCurrentContext", eglGetCurrentContext() == ctx, "another context");
    check("eglGetCurrentSurface(EGL_DRAW)", eglGetCurrentSurface(EGL_DRAW) == pbuffer, "another surface");
    check("eglGetCurrentDisplay", eglGetCurrentDisplay() == dpy, "another display");
    eglGetCurrentSurface(0x1234);
    expect_error("eglGetCurrentSurface(bad) is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("eglQueryContext(EGL_RENDER_BUFFER) of a pbuffer is EGL_BACK_BUFFER",
          eglQueryContext(dpy, ctx, EGL_RENDER_BUFFER, &value) && value == EGL_BACK_BUFFER, "not back");
    check("eglSwapBuffers(another surface) fails", !eglSwapBuffers(dpy, other), "succeeded");
    expect_error("eglSwapBuffers(another surface) is EGL_BAD_SURFACE", EGL_BAD_SURFACE);
    check("eglSwapBuffers(current pbuffer)", eglSwapBuffers(dpy, pbuffer), "failed");
    check("eglSwapInterval with a pbuffer", eglSwapInterval(dpy, 1), "failed");

    /* GL through the context. */
    /* 4.6 on the null backend, the claimed version with TESSERA_GL_VERSION. */
    const char *gl_version = (const char *)glGetString(GL_VERSION);
    const char *claimed = getenv("TESSERA_GL_VERSION");
    const char *expected = claimed ? claimed : "4.6";
    char prefix[32];
    snprintf(prefix, sizeof prefix, "%s (Core Profile) Tessera ", expected);
    check("GL_VERSION is \"<version> (Core Profile) Tessera ...\"",
          gl_version && strncmp(gl_version, prefix, strlen(prefix)) == 0,
          gl_version ? gl_version : "null");
    check("glGetString returns the same string each time",
          gl_version == (const char *)glGetString(GL_VERSION), "another pointer");
    check("GL_VENDOR is \"Tessera\"", strcmp((const char *)glGetString(GL_VENDOR), "Tessera") == 0,
          (const char *)glGetString(GL_VENDOR));
    GLint viewport[4] = {0};
    glGetIntegerv(GL_VIEWPORT, viewport);
    check("the viewport is the pbuffer's size at the first make-current",
          viewport[2] == 32 && viewport[3] == 16, "another size");
    check("glGetError is GL_NO_ERROR", glGetError() == GL_NO_ERROR, "an error");
    glEnable(0x1234);
    check("glEnable(bad) is GL_INVALID_ENUM", glGetError() == GL_INVALID_ENUM, "another error");
    /* A call whose arguments lie about their memory trips a bug check of ours: it must never
     * crash; the panic marks the context lost, and its later calls return at once (glGetError
     * returns 0 without running). */
    glGenBuffers(4, NULL);
    check("after a caught panic the lost context's calls return at once",
          glGetError() == GL_NO_ERROR, "an error");

    /* A surface destroyed while current stays usable until released. */
    check("eglDestroySurface(current)", eglDestroySurface(dpy, pbuffer), "failed");
    check("its handle is no longer valid", !eglQuerySurface(dpy, pbuffer, EGL_WIDTH, &value), "valid");
    expect_error("a destroyed surface is EGL_BAD_SURFACE", EGL_BAD_SURFACE);
    check("eglGetCurrentSurface after its destruction is EGL_NO_SURFACE",
          eglGetCurrentSurface(EGL_DRAW) == EGL_NO_SURFACE, "the surface");
    check("eglWaitGL with a destroyed current surface fails", !eglWaitGL(), "succeeded");
    expect_error("a destroyed current surface is EGL_BAD_CURRENT_SURFACE", EGL_BAD_CURRENT_SURFACE);
    check("surfaceless eglMakeCurrent", eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx), "failed");
    check("eglWaitGL surfaceless", eglWaitGL(), "failed");

    /* A context destroyed while current stays current until released. */
    check("eglDestroyContext(current)", eglDestroyContext(dpy, ctx), "failed");
    check("a destroyed context is not reported current", eglGetCurrentContext() == EGL_NO_CONTEXT,
          "still reported");
    check("eglReleaseThread", eglReleaseThread(), "failed");
    check("eglReleaseThread resets the API", eglQueryAPI() == EGL_NONE, "not EGL_NONE");
    check("eglDestroyContext(destroyed) fails", !eglDestroyContext(dpy, ctx), "succeeded");
    expect_error("a destroyed context is EGL_BAD_CONTEXT", EGL_BAD_CONTEXT);

    /* eglGetProcAddress. */
    check("eglGetProcAddress(glDrawArrays) is the export",
          eglGetProcAddress("glDrawArrays") == (void (*)(void))glDrawArrays, "another function");
    check("eglGetProcAddress(unknown) is NULL", eglGetProcAddress("glNotAFunction") == NULL, "a function");

    /* Terminate. */
    check("eglTerminate", eglTerminate(dpy), "failed");
    check("a terminated display's configs fail", !eglGetConfigs(dpy, configs, 8, &n), "succeeded");
    expect_error("a terminated display is EGL_NOT_INITIALIZED", EGL_NOT_INITIALIZED);
    check("a terminated display's contexts are gone",
          !eglDestroyContext(dpy, shared_ctx), "succeeded");

    printf("checks %d failures %d\n", checks, failures);
    return failures ? 1 : 0;
}

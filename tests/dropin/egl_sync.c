/*
 * EGL fence syncs against the drop-in (EGL_KHR_fence_sync, EGL_KHR_wait_sync, EGL 1.5's
 * eglCreateSync): statuses and errors as the specifications name them, a fence of one
 * context waited for in a context of another share group, and what happens once a sync is
 * destroyed. The KHR functions come from eglGetProcAddress, as a portable program gets
 * them. Every check holds on Mesa's llvmpipe too (tests/tests/dropin.rs runs it there as
 * well), so the expectations are the native driver's. Prints "ok <check>" or "FAIL <check>: ..." per check and "checks <n> failures <m>"
 * last; tests/tests/dropin.rs runs it on each backend.
 */

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

static PFNEGLCREATESYNCKHRPROC create_sync;
static PFNEGLDESTROYSYNCKHRPROC destroy_sync;
static PFNEGLCLIENTWAITSYNCKHRPROC client_wait;
static PFNEGLGETSYNCATTRIBKHRPROC get_attrib;
static PFNEGLWAITSYNCKHRPROC wait_sync;

static int has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && (p = strstr(p, name)); p += n) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    }
    return 0;
}

/* The value of one attribute (0x7fffffff if the query failed). */
static EGLint attrib(EGLDisplay dpy, EGLSyncKHR sync, EGLint name)
{
    EGLint value = 0x7fffffff;
    if (!get_attrib(dpy, sync, name, &value))
        return 0x7fffffff;
    return value;
}

/* Clears a 4x4 renderbuffer of the current context to `red` (some work before a fence). */
static void draw(float red)
{
    GLuint fbo, rb;
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glClearColor(red, 0.5f, 0.25f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

int main(void)
{
    EGLint major, minor, n;
    EGLConfig config;
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                     EGL_OPENGL_BIT, EGL_NONE};
    const EGLint core33[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                             EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                             EGL_NONE};
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!eglInitialize(dpy, &major, &minor) || !eglBindAPI(EGL_OPENGL_API) ||
        !eglChooseConfig(dpy, config_attribs, &config, 1, &n) || n != 1) {
        printf("FAIL no EGL display or config\n");
        return 1;
    }
    EGLContext a = eglCreateContext(dpy, config, EGL_NO_CONTEXT, core33);
    EGLContext b = eglCreateContext(dpy, config, EGL_NO_CONTEXT, core33);
    if (a == EGL_NO_CONTEXT || b == EGL_NO_CONTEXT) {
        printf("FAIL no GL 3.3 core contexts\n");
        return 1;
    }
    create_sync = (PFNEGLCREATESYNCKHRPROC)eglGetProcAddress("eglCreateSyncKHR");
    destroy_sync = (PFNEGLDESTROYSYNCKHRPROC)eglGetProcAddress("eglDestroySyncKHR");
    client_wait = (PFNEGLCLIENTWAITSYNCKHRPROC)eglGetProcAddress("eglClientWaitSyncKHR");
    get_attrib = (PFNEGLGETSYNCATTRIBKHRPROC)eglGetProcAddress("eglGetSyncAttribKHR");
    wait_sync = (PFNEGLWAITSYNCKHRPROC)eglGetProcAddress("eglWaitSyncKHR");
    if (!create_sync || !destroy_sync || !client_wait || !get_attrib || !wait_sync) {
        printf("FAIL the KHR sync functions are not found\n");
        return 1;
    }
    check("eglGetProcAddress finds the five KHR sync functions", 1, "");

    const char *ext = eglQueryString(dpy, EGL_EXTENSIONS);
    check("the display has EGL_KHR_fence_sync", has_extension(ext, "EGL_KHR_fence_sync"), ext);
    check("the display has EGL_KHR_wait_sync", has_extension(ext, "EGL_KHR_wait_sync"), ext);
    check("the display has no EGL_ANDROID_native_fence_sync",
          !has_extension(ext, "EGL_ANDROID_native_fence_sync"), ext);

    /* Errors before any context is current. */
    check("a fence without a current context fails",
          create_sync(dpy, EGL_SYNC_FENCE_KHR, NULL) == EGL_NO_SYNC_KHR, "created");
    expect_error("a fence without a current context is EGL_BAD_MATCH", EGL_BAD_MATCH);
    check("a fence on no display fails",
          create_sync(EGL_NO_DISPLAY, EGL_SYNC_FENCE_KHR, NULL) == EGL_NO_SYNC_KHR, "created");
    expect_error("a fence on no display is EGL_BAD_DISPLAY", EGL_BAD_DISPLAY);

    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, a)) {
        printf("FAIL context A is not made current\n");
        return 1;
    }
    /* EGL_ANDROID_native_fence_sync is offered by neither Tessera nor llvmpipe. */
    check("a native fence sync (not offered) fails",
          create_sync(dpy, EGL_SYNC_NATIVE_FENCE_ANDROID, NULL) == EGL_NO_SYNC_KHR, "created");
    expect_error("eglCreateSyncKHR of an unknown type is EGL_BAD_ATTRIBUTE", EGL_BAD_ATTRIBUTE);
    check("eglCreateSync of an unknown type fails",
          eglCreateSync(dpy, EGL_SYNC_NATIVE_FENCE_ANDROID, NULL) == EGL_NO_SYNC, "created");
    expect_error("eglCreateSync of an unknown type is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    const EGLint status_attrib[] = {EGL_SYNC_STATUS_KHR, EGL_SIGNALED_KHR, EGL_NONE};
    check("a fence with an attribute fails",
          create_sync(dpy, EGL_SYNC_FENCE_KHR, status_attrib) == EGL_NO_SYNC_KHR, "created");
    expect_error("a fence with an attribute is EGL_BAD_ATTRIBUTE", EGL_BAD_ATTRIBUTE);

    /* A fence after some work, waited for. */
    draw(1.0f);
    const EGLint empty[] = {EGL_NONE};
    EGLSyncKHR fence = create_sync(dpy, EGL_SYNC_FENCE_KHR, empty);
    check("a fence after a clear is created", fence != EGL_NO_SYNC_KHR, "EGL_NO_SYNC_KHR");
    expect_error("creating it leaves EGL_SUCCESS", EGL_SUCCESS);
    check("its type is EGL_SYNC_FENCE_KHR", attrib(dpy, fence, EGL_SYNC_TYPE_KHR) == EGL_SYNC_FENCE_KHR,
          "another type");
    check("its condition is EGL_SYNC_PRIOR_COMMANDS_COMPLETE_KHR",
          attrib(dpy, fence, EGL_SYNC_CONDITION_KHR) == EGL_SYNC_PRIOR_COMMANDS_COMPLETE_KHR,
          "another condition");
    EGLint status = attrib(dpy, fence, EGL_SYNC_STATUS_KHR);
    check("its status is signaled or unsignaled",
          status == EGL_SIGNALED_KHR || status == EGL_UNSIGNALED_KHR, "neither");
    check("a wait for it with a flush is satisfied",
          client_wait(dpy, fence, EGL_SYNC_FLUSH_COMMANDS_BIT_KHR, EGL_FOREVER_KHR) ==
              EGL_CONDITION_SATISFIED_KHR,
          "not satisfied");
    check("after the wait it is signaled", attrib(dpy, fence, EGL_SYNC_STATUS_KHR) == EGL_SIGNALED_KHR,
          "unsignaled");
    check("a wait of no time for a signaled fence is satisfied",
          client_wait(dpy, fence, 0, 0) == EGL_CONDITION_SATISFIED_KHR, "not satisfied");
    EGLint dummy = 0;
    check("an attribute a sync does not have fails",
          !get_attrib(dpy, fence, EGL_WIDTH, &dummy), "answered");
    expect_error("an attribute a sync does not have is EGL_BAD_ATTRIBUTE", EGL_BAD_ATTRIBUTE);
    EGLAttrib wide = 0;
    check("eglGetSyncAttrib reads the same status",
          eglGetSyncAttrib(dpy, fence, EGL_SYNC_STATUS, &wide) && wide == EGL_SIGNALED, "differs");

    /* Server waits. */
    check("a server wait with flags fails", !wait_sync(dpy, fence, 1), "waited");
    expect_error("a server wait with flags is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("a server wait in the fence's own context succeeds", wait_sync(dpy, fence, 0) == EGL_TRUE,
          "failed");
    check("eglWaitSync (EGL 1.5) succeeds too", eglWaitSync(dpy, fence, 0) == EGL_TRUE, "failed");

    /* A fence of context A waited for in context B, which shares nothing with A. */
    draw(0.0f);
    EGLSyncKHR other = create_sync(dpy, EGL_SYNC_FENCE_KHR, NULL);
    check("a second fence of A is created", other != EGL_NO_SYNC_KHR, "EGL_NO_SYNC_KHR");
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, b)) {
        printf("FAIL context B is not made current\n");
        return 1;
    }
    check("B waits for A's fence", wait_sync(dpy, other, 0) == EGL_TRUE, "failed");
    check("once B's server wait returned, A's fence is signaled",
          attrib(dpy, other, EGL_SYNC_STATUS_KHR) == EGL_SIGNALED_KHR, "unsignaled");

    /* Without a current context: client waits work, server waits do not. */
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    check("a server wait without a current context fails", !wait_sync(dpy, other, 0), "waited");
    expect_error("a server wait without a current context is EGL_BAD_MATCH", EGL_BAD_MATCH);
    check("a client wait without a current context is satisfied",
          client_wait(dpy, other, 0, EGL_FOREVER_KHR) == EGL_CONDITION_SATISFIED_KHR,
          "not satisfied");

    /* Destroyed syncs are no syncs. */
    check("destroying a fence succeeds", destroy_sync(dpy, fence) == EGL_TRUE, "failed");
    check("destroying it again fails", !destroy_sync(dpy, fence), "destroyed");
    expect_error("destroying it again is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("waiting for a destroyed fence fails", client_wait(dpy, fence, 0, 0) == EGL_FALSE,
          "waited");
    expect_error("waiting for a destroyed fence is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("a destroyed fence has no attributes", !get_attrib(dpy, fence, EGL_SYNC_STATUS_KHR, &dummy),
          "answered");
    expect_error("a destroyed fence's attributes are EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("eglDestroySync destroys the other", eglDestroySync(dpy, other) == EGL_TRUE, "failed");

    eglDestroyContext(dpy, a);
    eglDestroyContext(dpy, b);
    eglTerminate(dpy);
    printf("checks %d failures %d\n", checks, failures);
    return failures != 0;
}

/*
 * A plain EGL + OpenGL 3.3 core program, linked with -lEGL -lOpenGL (libglvnd's), that knows
 * nothing of Tessera: tests/tests/glvnd.rs runs it with libglvnd's own vendor choice (Mesa)
 * and with __EGL_VENDOR_LIBRARY_FILENAMES naming Tessera's vendor file, and compares the
 * pixels. No window system: the default display (EGL_PLATFORM=surfaceless for Mesa's sake),
 * the surfaceless platform display, and a pbuffer.
 *
 * It checks the client extensions, gets and initializes the default display (libglvnd asks
 * its vendors for it with EGL_NONE), makes a 3.3 core context current on a 64 x 64 pbuffer,
 * draws the scene of scene.h (with glUniform4f from eglGetProcAddress, a libGLdispatch
 * stub) and reads it back; queries the devices and a device string (eglQueryDeviceStringEXT
 * reaches a vendor only through its dispatch stub), and the surfaceless platform display.
 * Output: scene.h's lines, and "egl vendor <EGL_VENDOR>".
 */

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "scene.h"

static int has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

static void check_egl(const char *name, int ok)
{
    char detail[64];
    snprintf(detail, sizeof detail, "EGL error 0x%04x", ok ? EGL_SUCCESS : eglGetError());
    check(name, ok, detail);
}

int main(void)
{
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    check("client extensions", client != NULL, "null");
    check("EGL_EXT_platform_base", has_extension(client, "EGL_EXT_platform_base"), client);
    check("EGL_MESA_platform_surfaceless",
          has_extension(client, "EGL_MESA_platform_surfaceless"), client);

    EGLDisplay dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    check_egl("eglGetDisplay(EGL_DEFAULT_DISPLAY)", dpy != EGL_NO_DISPLAY);
    EGLint major = 0, minor = 0;
    check_egl("eglInitialize", eglInitialize(dpy, &major, &minor));
    if (failures)
        return finish();
    printf("egl vendor %s\n", eglQueryString(dpy, EGL_VENDOR));
    check_egl("eglBindAPI(EGL_OPENGL_API)", eglBindAPI(EGL_OPENGL_API));
    check("eglQueryAPI", eglQueryAPI() == EGL_OPENGL_API, "not EGL_OPENGL_API");

    const EGLint config_attribs[] = {
        EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
        EGL_NONE,
    };
    EGLConfig config;
    EGLint n = 0;
    check_egl("eglChooseConfig", eglChooseConfig(dpy, config_attribs, &config, 1, &n) && n == 1);
    const EGLint context_attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
        EGL_NONE,
    };
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
    check_egl("eglCreateContext (3.3 core)", ctx != EGL_NO_CONTEXT);
    const EGLint pbuffer_attribs[] = {EGL_WIDTH, SCENE_SIZE, EGL_HEIGHT, SCENE_SIZE, EGL_NONE};
    EGLSurface pbuffer = eglCreatePbufferSurface(dpy, config, pbuffer_attribs);
    check_egl("eglCreatePbufferSurface", pbuffer != EGL_NO_SURFACE);
    if (failures)
        return finish();
    check_egl("eglMakeCurrent", eglMakeCurrent(dpy, pbuffer, pbuffer, ctx));
    check("eglGetCurrentContext", eglGetCurrentContext() == ctx, "not the context made current");
    check("eglGetCurrentSurface", eglGetCurrentSurface(EGL_DRAW) == pbuffer,
          "not the pbuffer made current");
    if (failures)
        return finish();

    print_gl_strings();
    PFNGLUNIFORM4FPROC uniform4f = (PFNGLUNIFORM4FPROC)eglGetProcAddress("glUniform4f");
    check("eglGetProcAddress(glUniform4f)", uniform4f != NULL, "null");
    if (failures)
        return finish();
    static unsigned char pixels[SCENE_SIZE * SCENE_SIZE * 4];
    draw_scene(uniform4f, pixels);
    print_hex("pixels", pixels, sizeof pixels);
    check_egl("eglSwapBuffers", eglSwapBuffers(dpy, pbuffer));

    /* Devices: the enumeration is libglvnd's; the string query goes through the dispatch
     * stub of the device's vendor. */
    PFNEGLQUERYDEVICESEXTPROC query_devices =
        (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLQUERYDEVICESTRINGEXTPROC query_device_string =
        (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    check("the device functions resolve", query_devices && query_device_string, "null");
    EGLDeviceEXT devices[8];
    EGLint count = 0;
    if (query_devices && query_device_string) {
        check_egl("eglQueryDevicesEXT", query_devices(8, devices, &count) && count >= 1);
        if (count >= 1)
            check_egl("eglQueryDeviceStringEXT(EGL_EXTENSIONS)",
                      query_device_string(devices[0], EGL_EXTENSIONS) != NULL);
    }

    EGLDisplay surfaceless =
        eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    check_egl("the surfaceless display", surfaceless != EGL_NO_DISPLAY &&
                                             eglInitialize(surfaceless, NULL, NULL));

    print_libraries();
    check_egl("eglMakeCurrent (release)",
              eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    check("nothing is current", eglGetCurrentContext() == EGL_NO_CONTEXT, "a context is");
    check_egl("eglDestroySurface", eglDestroySurface(dpy, pbuffer));
    check_egl("eglDestroyContext", eglDestroyContext(dpy, ctx));
    check_egl("eglTerminate", eglTerminate(dpy));
    return finish();
}

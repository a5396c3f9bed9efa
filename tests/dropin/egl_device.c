/*
 * The EGL device path headless programs take: EGL_EXT_device_base (enumeration and query)
 * and EGL_EXT_platform_device. It enumerates the devices, queries their strings and
 * attributes, gets the display of the first device, creates a 3.3 core context on it and
 * renders surfaceless (into a framebuffer object: a clear, a scissored clear and a draw)
 * and into a pbuffer, reading exact pixels back; and checks the error cases the extensions
 * and Mesa agree on. Every function of the extensions is looked up with eglGetProcAddress,
 * as applications do (libglvnd exports none of them).
 *
 * tests/tests/dropin.rs runs it on the system driver and on Tessera: both must pass every
 * check, and their pixels must be the same.
 *
 * Output: "ok <check>" or "FAIL <check>: ..." per check, then "devices <n>",
 * "device extensions '<string>'", "vendor <EGL_VENDOR>", "surfaceless <hex>",
 * "pbuffer <hex>", and "checks <n> failures <m>" last; exits non-zero on any failure.
 */

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"


static int has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

static void print_hex(const char *label, const unsigned char *p, size_t n)
{
    printf("%s ", label);
    for (size_t i = 0; i < n; i++)
        printf("%02x", p[i]);
    printf("\n");
}

static int finish(void)
{
    printf("checks %d failures %d\n", checks, failures);
    return failures ? 1 : 0;
}

/* A triangle covering the viewport, in a constant colour. */
static GLuint fill_program(void)
{
    const char *vs = "#version 330 core\n"
                     "void main() {\n"
                     "    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
                     "    gl_Position = vec4(p, 0.0, 1.0);\n"
                     "}\n";
    const char *fs = "#version 330 core\n"
                     "out vec4 colour;\n"
                     "void main() { colour = vec4(1.0, 0.0, 0.5, 1.0); }\n";
    GLuint v = glCreateShader(GL_VERTEX_SHADER), f = glCreateShader(GL_FRAGMENT_SHADER);
    glShaderSource(v, 1, &vs, NULL);
    glShaderSource(f, 1, &fs, NULL);
    glCompileShader(v);
    glCompileShader(f);
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    check("the fill program links", ok, "link failed");
    glDeleteShader(v);
    glDeleteShader(f);
    return p;
}

int main(void)
{
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    check("client extensions have EGL_EXT_device_base or device_enumeration + device_query",
          has_extension(client, "EGL_EXT_device_base") ||
              (has_extension(client, "EGL_EXT_device_enumeration") &&
               has_extension(client, "EGL_EXT_device_query")),
          client ? client : "null");
    check("client extensions have EGL_EXT_platform_device",
          has_extension(client, "EGL_EXT_platform_device"), client ? client : "null");

    PFNEGLQUERYDEVICESEXTPROC queryDevices =
        (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLQUERYDEVICESTRINGEXTPROC queryDeviceString =
        (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    PFNEGLQUERYDEVICEATTRIBEXTPROC queryDeviceAttrib =
        (PFNEGLQUERYDEVICEATTRIBEXTPROC)eglGetProcAddress("eglQueryDeviceAttribEXT");
    PFNEGLQUERYDISPLAYATTRIBEXTPROC queryDisplayAttrib =
        (PFNEGLQUERYDISPLAYATTRIBEXTPROC)eglGetProcAddress("eglQueryDisplayAttribEXT");
    PFNEGLGETPLATFORMDISPLAYEXTPROC getPlatformDisplayEXT =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    check("eglGetProcAddress finds the device functions",
          queryDevices && queryDeviceString && queryDeviceAttrib && queryDisplayAttrib &&
              getPlatformDisplayEXT,
          "a null function");
    if (!(queryDevices && queryDeviceString && queryDeviceAttrib && queryDisplayAttrib &&
          getPlatformDisplayEXT))
        return finish();

    /* Enumeration. */
    EGLint count = -1;
    check("eglQueryDevicesEXT(devices NULL) counts", queryDevices(0, NULL, &count), "failed");
    expect_error("counting is EGL_SUCCESS", EGL_SUCCESS);
    check("there is a device", count >= 1, "no devices");
    printf("devices %d\n", count);
    EGLDeviceEXT devices[16] = {0};
    EGLint got = -1;
    check("eglQueryDevicesEXT(16) lists them", queryDevices(16, devices, &got), "failed");
    check("as many as counted", got == count && devices[0] != EGL_NO_DEVICE_EXT, "another number");
    EGLDeviceEXT first[2] = {0};
    got = -1;
    check("eglQueryDevicesEXT(1) lists one", queryDevices(1, first, &got) && got == 1, "failed");
    check("the same first device", first[0] == devices[0] && first[1] == EGL_NO_DEVICE_EXT,
          "another device, or more than one written");
    got = -7;
    check("eglQueryDevicesEXT(0, devices) fails", !queryDevices(0, devices, &got), "succeeded");
    expect_error("max_devices 0 with devices is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("eglQueryDevicesEXT(-1, devices) fails", !queryDevices(-1, devices, &got), "succeeded");
    expect_error("max_devices -1 with devices is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("eglQueryDevicesEXT(num_devices NULL) fails", !queryDevices(16, devices, NULL),
          "succeeded");
    expect_error("num_devices NULL is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("eglQueryDevicesEXT(NULL, NULL) fails", !queryDevices(0, NULL, NULL), "succeeded");
    expect_error("counting into NULL is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("a failed call writes no count", got == -7, "written");

    /* Device queries. */
    EGLDeviceEXT dev = devices[0];
    EGLDeviceEXT bogus = (EGLDeviceEXT)(uintptr_t)0x1230;
    const char *dev_ext = queryDeviceString(dev, EGL_EXTENSIONS);
    check("eglQueryDeviceStringEXT(EGL_EXTENSIONS) is a string", dev_ext != NULL, "null");
    expect_error("the device extensions are EGL_SUCCESS", EGL_SUCCESS);
    printf("device extensions '%s'\n", dev_ext ? dev_ext : "(null)");
    check("eglQueryDeviceStringEXT(EGL_VENDOR) is null", queryDeviceString(dev, EGL_VENDOR) == NULL,
          "a string");
    expect_error("a name that is no device string is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("eglQueryDeviceStringEXT(bad device) is null",
          queryDeviceString(bogus, EGL_EXTENSIONS) == NULL, "a string");
    expect_error("a bad device's string is EGL_BAD_DEVICE_EXT", EGL_BAD_DEVICE_EXT);
    check("eglQueryDeviceStringEXT(EGL_NO_DEVICE_EXT) is null",
          queryDeviceString(EGL_NO_DEVICE_EXT, EGL_EXTENSIONS) == NULL, "a string");
    expect_error("EGL_NO_DEVICE_EXT's string is EGL_BAD_DEVICE_EXT", EGL_BAD_DEVICE_EXT);
    EGLAttrib value = 0x77;
    check("eglQueryDeviceAttribEXT(EGL_VENDOR) fails", !queryDeviceAttrib(dev, EGL_VENDOR, &value),
          "succeeded");
    expect_error("a name that is no device attribute is EGL_BAD_ATTRIBUTE", EGL_BAD_ATTRIBUTE);
    check("eglQueryDeviceAttribEXT(bad device) fails", !queryDeviceAttrib(bogus, EGL_VENDOR, &value),
          "succeeded");
    expect_error("a bad device's attribute is EGL_BAD_DEVICE_EXT", EGL_BAD_DEVICE_EXT);
    check("a failed attribute query writes nothing", value == 0x77, "written");

    /* The device's display. */
    EGLDisplay dpy = getPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, dev, NULL);
    check("eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, device) is a display",
          dpy != EGL_NO_DISPLAY, "EGL_NO_DISPLAY");
    expect_error("getting it is EGL_SUCCESS", EGL_SUCCESS);
    check("eglGetPlatformDisplay gives the same display",
          eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, dev, NULL) == dpy, "another");
    check("a bad device has no display",
          eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, bogus, NULL) == EGL_NO_DISPLAY,
          "a display");
    expect_error("a bad device's display is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("EGL_NO_DEVICE_EXT has no display",
          getPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, EGL_NO_DEVICE_EXT, NULL) == EGL_NO_DISPLAY,
          "a display");
    expect_error("EGL_NO_DEVICE_EXT's display is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    if (dpy == EGL_NO_DISPLAY)
        return finish();

    check("eglQueryDisplayAttribEXT before eglInitialize fails",
          !queryDisplayAttrib(dpy, EGL_DEVICE_EXT, &value), "succeeded");
    expect_error("an uninitialized display is EGL_NOT_INITIALIZED", EGL_NOT_INITIALIZED);
    EGLint major = 0, minor = 0;
    check("eglInitialize(device display) is EGL 1.5",
          eglInitialize(dpy, &major, &minor) && major == 1 && minor == 5, "failed or not 1.5");
    value = 0;
    check("eglQueryDisplayAttribEXT(EGL_DEVICE_EXT) succeeds",
          queryDisplayAttrib(dpy, EGL_DEVICE_EXT, &value), "failed");
    check("the display's device is the device", (EGLDeviceEXT)value == dev, "another");
    check("eglQueryDisplayAttribEXT(EGL_VENDOR) fails", !queryDisplayAttrib(dpy, EGL_VENDOR, &value),
          "succeeded");
    expect_error("a name that is no display attribute is EGL_BAD_ATTRIBUTE", EGL_BAD_ATTRIBUTE);
    check("eglQueryDisplayAttribEXT(bad display) fails",
          !queryDisplayAttrib((EGLDisplay)(uintptr_t)0x1234, EGL_DEVICE_EXT, &value), "succeeded");
    expect_error("a bad display is EGL_BAD_DISPLAY", EGL_BAD_DISPLAY);
    const char *vendor = eglQueryString(dpy, EGL_VENDOR);
    printf("vendor %s\n", vendor ? vendor : "(null)");
    const char *display_ext = eglQueryString(dpy, EGL_EXTENSIONS);
    check("the display has EGL_KHR_surfaceless_context",
          has_extension(display_ext, "EGL_KHR_surfaceless_context"),
          display_ext ? display_ext : "null");

    /* A 3.3 core context, surfaceless. */
    check("eglBindAPI(EGL_OPENGL_API)", eglBindAPI(EGL_OPENGL_API), "failed");
    const EGLint config_attribs[] = {
        EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
        EGL_NONE,
    };
    EGLConfig config = NULL;
    EGLint n = 0;
    check("eglChooseConfig(pbuffer, OpenGL, RGBA8) finds one",
          eglChooseConfig(dpy, config_attribs, &config, 1, &n) && n == 1, "none");
    const EGLint context_attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
        EGL_NONE,
    };
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
    check("eglCreateContext(3.3 core)", ctx != EGL_NO_CONTEXT, "EGL_NO_CONTEXT");
    if (ctx == EGL_NO_CONTEXT)
        return finish();
    check("eglMakeCurrent(surfaceless)",
          eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx), "failed");
    fprintf(stderr, "renderer: %s\n", (const char *)glGetString(GL_RENDERER));

    /* An 8 x 4 framebuffer: cleared, its right half cleared again (scissor), its top half
     * drawn over. */
    GLuint fbo = 0, rb = 0, vao = 0;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 8, 4);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    check("the framebuffer is complete",
          glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE, "incomplete");
    glViewport(0, 0, 8, 4);
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(4, 0, 4, 4);
    glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glScissor(0, 2, 8, 2);
    GLuint program = fill_program();
    glUseProgram(program);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_SCISSOR_TEST);
    unsigned char pixels[8 * 4 * 4];
    memset(pixels, 0x11, sizeof pixels);
    glReadPixels(0, 0, 8, 4, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    check("no GL error (surfaceless)", glGetError() == GL_NO_ERROR, "a GL error");
    const unsigned char clear[4] = {0x40, 0x80, 0xbf, 0xff};
    const unsigned char green[4] = {0x00, 0xff, 0x00, 0xff};
    const unsigned char drawn[4] = {0xff, 0x00, 0x80, 0xff};
    check("the cleared pixel is exact", !memcmp(pixels, clear, 4), "another colour");
    check("the scissored clear's pixel is exact", !memcmp(pixels + 4 * 7, green, 4),
          "another colour");
    check("the drawn pixel is exact", !memcmp(pixels + 4 * (3 * 8 + 2), drawn, 4),
          "another colour");
    print_hex("surfaceless", pixels, sizeof pixels);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(program);
    glDeleteRenderbuffers(1, &rb);
    glDeleteFramebuffers(1, &fbo);

    /* A pbuffer. */
    const EGLint pbuffer_attribs[] = {EGL_WIDTH, 4, EGL_HEIGHT, 2, EGL_NONE};
    EGLSurface pbuffer = eglCreatePbufferSurface(dpy, config, pbuffer_attribs);
    check("eglCreatePbufferSurface(4 x 2)", pbuffer != EGL_NO_SURFACE, "EGL_NO_SURFACE");
    if (pbuffer != EGL_NO_SURFACE) {
        check("eglMakeCurrent(pbuffer)", eglMakeCurrent(dpy, pbuffer, pbuffer, ctx), "failed");
        EGLint width = 0;
        check("the pbuffer is 4 wide", eglQuerySurface(dpy, pbuffer, EGL_WIDTH, &width) && width == 4,
              "another width");
        glClearColor(0.5f, 0.25f, 1.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        unsigned char small[4 * 2 * 4];
        memset(small, 0x11, sizeof small);
        glReadPixels(0, 0, 4, 2, GL_RGBA, GL_UNSIGNED_BYTE, small);
        check("no GL error (pbuffer)", glGetError() == GL_NO_ERROR, "a GL error");
        const unsigned char want[4] = {0x80, 0x40, 0xff, 0xff};
        check("the pbuffer's pixel is exact", !memcmp(small + 4 * 7, want, 4), "another colour");
        print_hex("pbuffer", small, sizeof small);
    }

    check("eglMakeCurrent(none)",
          eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT), "failed");
    if (pbuffer != EGL_NO_SURFACE)
        check("eglDestroySurface", eglDestroySurface(dpy, pbuffer), "failed");
    check("eglDestroyContext", eglDestroyContext(dpy, ctx), "failed");
    check("eglTerminate", eglTerminate(dpy), "failed");
    return finish();
}

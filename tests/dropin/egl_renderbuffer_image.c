/*
 * EGL images of GL renderbuffers between two contexts that share nothing
 * (EGL_KHR_gl_renderbuffer_image, GL_OES_EGL_image's glEGLImageTargetRenderbufferStorageOES)
 * against the drop-in: context A draws into a renderbuffer (a clear and a scissored clear)
 * and makes an image of it; context B makes its own renderbuffer of the image, reads it
 * through a framebuffer, draws into it and A reads B's pixels back; a texture of B made of
 * the same image samples A's pixels. Then the errors the extensions name. Every check holds
 * on Mesa's llvmpipe too (tests/tests/dropin.rs runs it there as well).
 *
 * The dma-buf extensions (EGL_MESA_image_dma_buf_export, EGL_EXT_image_dma_buf_import and
 * its _modifiers) are offered only where the native display offers them: the program prints
 * "dma-buf export <0|1> import <0|1>" for the display it runs on, and with the argument
 * "dma-buf=<e><i>" checks those are what it sees (the test passes the native run's). Where
 * they are absent it checks that the calls give the errors the specifications name.
 * Prints "ok <check>" or "FAIL <check>: ..." per check and "checks <n> failures <m>" last.
 */

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

typedef void (*TargetImage)(GLenum target, void *image);

/* Whether the program runs on Tessera (the test sets TESSERA_BACKEND there only). */
static int tessera;

static int has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && (p = strstr(p, name)); p += n) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    }
    return 0;
}

static int has_gl_extension(const char *name)
{
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; i++) {
        if (strcmp((const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i), name) == 0)
            return 1;
    }
    return 0;
}

static void expect_gl_error(const char *name, GLenum expected)
{
    GLenum got = glGetError();
    char detail[96];
    snprintf(detail, sizeof detail, "expected GL error 0x%04x, got 0x%04x", expected, got);
    check(name, got == expected, detail);
}

/* Reads the 4x4 renderbuffer `rb` of the current context through a new framebuffer. */
static void read_renderbuffer(GLuint rb, uint8_t out[64])
{
    GLuint fbo;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    memset(out, 0, 64);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, out);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
}

/* Clears the 4x4 renderbuffer `rb` of the current context to `base`, and its texels with
 * x >= 2 and y < 3 to `corner`. */
static void draw_renderbuffer(GLuint rb, const float base[4], const float corner[4])
{
    GLuint fbo;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glClearColor(base[0], base[1], base[2], base[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(2, 0, 2, 3);
    glClearColor(corner[0], corner[1], corner[2], corner[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glFinish();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
}

/* The texels draw_renderbuffer leaves, as RGBA8. */
static void expected(const uint8_t base[4], const uint8_t corner[4], uint8_t out[64])
{
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 4; x++)
            memcpy(out + (y * 4 + x) * 4, x >= 2 && y < 3 ? corner : base, 4);
    }
}

/* Draws `texture` (texelFetch) over a 4x4 RGBA8 framebuffer of the current context and reads
 * it back. */
static void sample(GLuint texture, uint8_t out[64])
{
    static const char *vs = "#version 330 core\n"
                            "void main() {\n"
                            "  vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
                            "  gl_Position = vec4(p, 0.0, 1.0);\n"
                            "}\n";
    static const char *fs = "#version 330 core\n"
                            "uniform sampler2D t;\n"
                            "out vec4 color;\n"
                            "void main() { color = texelFetch(t, ivec2(gl_FragCoord.xy), 0); }\n";
    GLuint v = glCreateShader(GL_VERTEX_SHADER), f = glCreateShader(GL_FRAGMENT_SHADER);
    glShaderSource(v, 1, &vs, NULL);
    glShaderSource(f, 1, &fs, NULL);
    glCompileShader(v);
    glCompileShader(f);
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    GLuint fbo, rb, vao;
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glViewport(0, 0, 4, 4);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glUseProgram(p);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    glUniform1i(glGetUniformLocation(p, "t"), 0);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    memset(out, 0, 64);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, out);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &rb);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
}

/* The dma-buf checks where the display does not offer the extensions: the errors the
 * specifications name, with `image` a live image of a renderbuffer. */
static void dma_buf_absent(EGLDisplay dpy, EGLImageKHR image, int export_offered,
                           int import_offered)
{
    if (!import_offered) {
        /* EGL_KHR_image_base: a target the display does not support is EGL_BAD_PARAMETER. */
        const EGLint attribs[] = {EGL_WIDTH, 4, EGL_HEIGHT, 4, EGL_LINUX_DRM_FOURCC_EXT,
                                  0x34324241 /* DRM_FORMAT_ABGR8888 */,
                                  EGL_DMA_BUF_PLANE0_FD_EXT, 0, EGL_DMA_BUF_PLANE0_OFFSET_EXT, 0,
                                  EGL_DMA_BUF_PLANE0_PITCH_EXT, 16, EGL_NONE};
        PFNEGLCREATEIMAGEKHRPROC create_image =
            (PFNEGLCREATEIMAGEKHRPROC)eglGetProcAddress("eglCreateImageKHR");
        check("an image of a dma-buf fails where the display cannot import them",
              create_image(dpy, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, NULL, attribs) ==
                  EGL_NO_IMAGE_KHR,
              "made");
        expect_error("an image of a dma-buf where the display cannot import them is "
                     "EGL_BAD_PARAMETER",
                     EGL_BAD_PARAMETER);
    }
    /* Mesa asserts that its display has the extension when these are called, so only
     * Tessera is asked. */
    if (!tessera)
        return;
    if (!export_offered) {
        PFNEGLEXPORTDMABUFIMAGEQUERYMESAPROC query =
            (PFNEGLEXPORTDMABUFIMAGEQUERYMESAPROC)eglGetProcAddress(
                "eglExportDMABUFImageQueryMESA");
        PFNEGLEXPORTDMABUFIMAGEMESAPROC export =
            (PFNEGLEXPORTDMABUFIMAGEMESAPROC)eglGetProcAddress("eglExportDMABUFImageMESA");
        check("Tessera has the dma-buf export entry points", query && export, "missing");
        if (query && export) {
            int fourcc = 0, planes = 0, fds[4] = {-1, -1, -1, -1};
            EGLint strides[4], offsets[4];
            EGLuint64KHR modifiers[4];
            check("querying the dma-buf of an image fails where the display cannot export",
                  !query(dpy, image, &fourcc, &planes, modifiers), "succeeded");
            expect_error("querying the dma-buf of an image where the display cannot export is "
                         "EGL_BAD_ACCESS",
                         EGL_BAD_ACCESS);
            check("exporting the dma-buf of an image fails where the display cannot export",
                  !export(dpy, image, fds, strides, offsets) && fds[0] == -1, "succeeded");
            expect_error("exporting the dma-buf of an image where the display cannot export is "
                         "EGL_BAD_ACCESS",
                         EGL_BAD_ACCESS);
            check("querying the dma-buf of no image fails",
                  !query(dpy, (EGLImageKHR)(uintptr_t)0x7777, &fourcc, &planes, modifiers),
                  "succeeded");
            expect_error("querying the dma-buf of no image is EGL_BAD_PARAMETER",
                         EGL_BAD_PARAMETER);
        }
    }
    if (!import_offered) {
        PFNEGLQUERYDMABUFFORMATSEXTPROC formats =
            (PFNEGLQUERYDMABUFFORMATSEXTPROC)eglGetProcAddress("eglQueryDmaBufFormatsEXT");
        PFNEGLQUERYDMABUFMODIFIERSEXTPROC modifiers =
            (PFNEGLQUERYDMABUFMODIFIERSEXTPROC)eglGetProcAddress("eglQueryDmaBufModifiersEXT");
        check("Tessera has the dma-buf format queries", formats && modifiers, "missing");
        if (formats && modifiers) {
            EGLint n = -1;
            check("a display that imports no dma-bufs has no formats",
                  formats(dpy, 0, NULL, &n) && n == 0, "formats");
            check("a negative max_formats fails", !formats(dpy, -1, NULL, &n), "succeeded");
            expect_error("a negative max_formats is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
            check("the modifiers of a format it does not import fail",
                  !modifiers(dpy, 0x34324241, 0, NULL, NULL, &n), "succeeded");
            expect_error("the modifiers of a format it does not import are EGL_BAD_PARAMETER",
                         EGL_BAD_PARAMETER);
        }
    }
}

int main(int argc, char **argv)
{
    const char *want_dma_buf = NULL;
    tessera = getenv("TESSERA_BACKEND") != NULL;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "dma-buf=", 8) == 0)
            want_dma_buf = argv[i] + 8;
    }
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
    if (a == EGL_NO_CONTEXT || b == EGL_NO_CONTEXT ||
        !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, a)) {
        printf("FAIL no GL 3.3 core contexts\n");
        return 1;
    }
    const char *ext = eglQueryString(dpy, EGL_EXTENSIONS);
    int dma_export = has_extension(ext, "EGL_MESA_image_dma_buf_export");
    int dma_import = has_extension(ext, "EGL_EXT_image_dma_buf_import");
    int dma_modifiers = has_extension(ext, "EGL_EXT_image_dma_buf_import_modifiers");
    printf("dma-buf export %d import %d\n", dma_export, dma_import);
    check("the display has EGL_KHR_image_base and EGL_KHR_gl_renderbuffer_image",
          has_extension(ext, "EGL_KHR_image_base") &&
              has_extension(ext, "EGL_KHR_gl_renderbuffer_image"),
          ext);
    check("the context has GL_OES_EGL_image", has_gl_extension("GL_OES_EGL_image"), "absent");
    check("the dma-buf import modifiers come with the import", !dma_modifiers || dma_import, ext);
    if (want_dma_buf) {
        char detail[64];
        snprintf(detail, sizeof detail, "export %d import %d", dma_export, dma_import);
        check("the dma-buf extensions are the native display's",
              want_dma_buf[0] - '0' == dma_export && want_dma_buf[1] - '0' == dma_import,
              detail);
    }
    PFNEGLCREATEIMAGEKHRPROC create_image =
        (PFNEGLCREATEIMAGEKHRPROC)eglGetProcAddress("eglCreateImageKHR");
    PFNEGLDESTROYIMAGEKHRPROC destroy_image =
        (PFNEGLDESTROYIMAGEKHRPROC)eglGetProcAddress("eglDestroyImageKHR");
    TargetImage target_texture = (TargetImage)eglGetProcAddress("glEGLImageTargetTexture2DOES");
    TargetImage target_renderbuffer =
        (TargetImage)eglGetProcAddress("glEGLImageTargetRenderbufferStorageOES");
    if (!create_image || !destroy_image || !target_texture || !target_renderbuffer) {
        printf("FAIL the image functions are not found\n");
        return 1;
    }

    /* A: a renderbuffer drawn into, and an image of it. */
    const float base[4] = {0.2f, 0.4f, 0.6f, 1.0f}, corner[4] = {1.0f, 0.0f, 0.8f, 0.6f};
    const uint8_t base8[4] = {51, 102, 153, 255}, corner8[4] = {255, 0, 204, 153};
    uint8_t want[64], got[64];
    expected(base8, corner8, want);
    GLuint ra;
    glGenRenderbuffers(1, &ra);
    glBindRenderbuffer(GL_RENDERBUFFER, ra);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
    draw_renderbuffer(ra, base, corner);
    read_renderbuffer(ra, got);
    check("A's renderbuffer holds what A drew", memcmp(got, want, 64) == 0, "other pixels");
    EGLImageKHR image =
        create_image(dpy, a, EGL_GL_RENDERBUFFER_KHR, (EGLClientBuffer)(uintptr_t)ra, NULL);
    check("A makes an image of its renderbuffer", image != EGL_NO_IMAGE_KHR, "no image");

    /* A's errors. */
    check("an image of renderbuffer 0 fails",
          create_image(dpy, a, EGL_GL_RENDERBUFFER_KHR, (EGLClientBuffer)0, NULL) ==
              EGL_NO_IMAGE_KHR,
          "made");
    expect_error("an image of renderbuffer 0 is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("an image of a name that is no renderbuffer fails",
          create_image(dpy, a, EGL_GL_RENDERBUFFER_KHR, (EGLClientBuffer)(uintptr_t)4321, NULL) ==
              EGL_NO_IMAGE_KHR,
          "made");
    /* The extension names EGL_BAD_PARAMETER; Mesa raises EGL_BAD_ALLOC here and for the
     * multisampled renderbuffer below, so only Tessera's error is checked. */
    if (tessera)
        expect_error("an image of a name that is no renderbuffer is EGL_BAD_PARAMETER",
                     EGL_BAD_PARAMETER);
    GLuint ms;
    glGenRenderbuffers(1, &ms);
    glBindRenderbuffer(GL_RENDERBUFFER, ms);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, 4, 4);
    check("an image of a multisampled renderbuffer fails",
          create_image(dpy, a, EGL_GL_RENDERBUFFER_KHR, (EGLClientBuffer)(uintptr_t)ms, NULL) ==
              EGL_NO_IMAGE_KHR,
          "made");
    if (tessera)
        expect_error("an image of a multisampled renderbuffer is EGL_BAD_PARAMETER",
                     EGL_BAD_PARAMETER);
    /* EGL_KHR_image_base: a resource that is already an image's sibling is EGL_BAD_ACCESS.
     * Mesa makes a second image of a renderbuffer, so only Tessera is asked. */
    if (tessera) {
        check("a second image of the renderbuffer fails",
              create_image(dpy, a, EGL_GL_RENDERBUFFER_KHR, (EGLClientBuffer)(uintptr_t)ra,
                           NULL) == EGL_NO_IMAGE_KHR,
              "made");
        expect_error("a second image of the renderbuffer is EGL_BAD_ACCESS", EGL_BAD_ACCESS);
    }

    /* B: its own renderbuffer made of the image, read, then drawn into. */
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, b)) {
        printf("FAIL context B is not made current\n");
        return 1;
    }
    GLuint rb;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    target_renderbuffer(GL_RENDERBUFFER, image);
    expect_gl_error("B's renderbuffer takes the image", GL_NO_ERROR);
    GLint w = 0, h = 0, samples = -1;
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &w);
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, &h);
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &samples);
    check("B's renderbuffer is 4x4, single-sampled", w == 4 && h == 4 && samples == 0,
          "another size");
    read_renderbuffer(rb, got);
    check("B reads exactly what A drew", memcmp(got, want, 64) == 0, "other pixels");
    GLuint tb;
    glGenTextures(1, &tb);
    glBindTexture(GL_TEXTURE_2D, tb);
    target_texture(GL_TEXTURE_2D, image);
    expect_gl_error("B's texture takes the renderbuffer's image", GL_NO_ERROR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    sample(tb, got);
    check("B samples exactly what A drew", memcmp(got, want, 64) == 0, "other texels");

    /* B draws; A reads it. */
    const float base2[4] = {0.0f, 1.0f, 0.0f, 0.2f}, corner2[4] = {0.6f, 0.2f, 1.0f, 1.0f};
    const uint8_t base28[4] = {0, 255, 0, 51}, corner28[4] = {153, 51, 255, 255};
    uint8_t want2[64];
    expected(base28, corner28, want2);
    draw_renderbuffer(rb, base2, corner2);
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, a)) {
        printf("FAIL context A is not made current again\n");
        return 1;
    }
    read_renderbuffer(ra, got);
    check("A reads exactly what B drew into the image", memcmp(got, want2, 64) == 0,
          "other pixels");
    dma_buf_absent(dpy, image, dma_export, dma_import);

    /* B's errors. */
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, b)) {
        printf("FAIL context B is not made current again\n");
        return 1;
    }
    glGetError();
    target_renderbuffer(GL_TEXTURE_2D, image);
    expect_gl_error("glEGLImageTargetRenderbufferStorageOES on TEXTURE_2D is GL_INVALID_ENUM",
                    GL_INVALID_ENUM);
    /* GL_OES_EGL_image names GL_INVALID_VALUE, as for textures; Mesa raises
     * GL_INVALID_OPERATION for a renderbuffer, so only Tessera's error is checked. */
    target_renderbuffer(GL_RENDERBUFFER, NULL);
    if (tessera)
        expect_gl_error("glEGLImageTargetRenderbufferStorageOES of no image is GL_INVALID_VALUE",
                        GL_INVALID_VALUE);
    glGetError();
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    target_renderbuffer(GL_RENDERBUFFER, image);
    expect_gl_error("glEGLImageTargetRenderbufferStorageOES with no renderbuffer bound is "
                    "GL_INVALID_OPERATION",
                    GL_INVALID_OPERATION);

    check("destroying the image succeeds", destroy_image(dpy, image) == EGL_TRUE, "failed");
    read_renderbuffer(rb, got);
    check("B's renderbuffer keeps the pixels once the image is destroyed",
          memcmp(got, want2, 64) == 0, "other pixels");

    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, a);
    eglDestroyContext(dpy, b);
    eglTerminate(dpy);
    printf("checks %d failures %d\n", checks, failures);
    return failures != 0;
}

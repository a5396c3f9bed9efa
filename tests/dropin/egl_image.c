/*
 * EGL images of GL textures between two contexts that share nothing (EGL_KHR_image_base,
 * EGL_KHR_gl_texture_2D_image, GL_OES_EGL_image) against the drop-in: context A uploads
 * known texels and makes an image of its texture, context B makes its own texture of the
 * image with glEGLImageTargetTexture2DOES, samples it into its framebuffer and reads back
 * exactly A's texels, also after the image is destroyed; then the errors. Every check holds
 * on Mesa's llvmpipe too (tests/tests/dropin.rs runs it there as well). With the argument
 * "absent" it checks instead that neither the display nor the context offers images (the
 * Vulkan backend). Prints "ok <check>" or "FAIL <check>: ..." per check and
 * "checks <n> failures <m>" last.
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

typedef void (*TargetTexture2D)(GLenum target, void *image);

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

/* The 4x4 texels A uploads: each one different. */
static void texels(uint8_t out[64])
{
    for (int i = 0; i < 16; i++) {
        out[i * 4 + 0] = (uint8_t)(i * 16 + 3);
        out[i * 4 + 1] = (uint8_t)(255 - i * 13);
        out[i * 4 + 2] = (uint8_t)(i * 7 + 40);
        out[i * 4 + 3] = (uint8_t)(i < 8 ? 255 : 128 + i);
    }
}

/* Draws `texture` (NEAREST) over a 4x4 RGBA8 framebuffer of the current context and reads
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
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &rb);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
}

int main(int argc, char **argv)
{
    int absent = argc > 1 && strcmp(argv[1], "absent") == 0;
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
    int egl_images = has_extension(ext, "EGL_KHR_image_base") &&
                     has_extension(ext, "EGL_KHR_gl_texture_2D_image");
    int oes = has_gl_extension("GL_OES_EGL_image");
    if (absent) {
        check("the display offers no EGL images", !egl_images, ext);
        check("the context offers no GL_OES_EGL_image", !oes, "offered");
        printf("checks %d failures %d\n", checks, failures);
        return failures != 0;
    }
    check("the display has EGL_KHR_image_base and EGL_KHR_gl_texture_2D_image", egl_images, ext);
    check("the context has GL_OES_EGL_image", oes, "absent");
    PFNEGLCREATEIMAGEKHRPROC create_image =
        (PFNEGLCREATEIMAGEKHRPROC)eglGetProcAddress("eglCreateImageKHR");
    PFNEGLDESTROYIMAGEKHRPROC destroy_image =
        (PFNEGLDESTROYIMAGEKHRPROC)eglGetProcAddress("eglDestroyImageKHR");
    TargetTexture2D target_texture =
        (TargetTexture2D)eglGetProcAddress("glEGLImageTargetTexture2DOES");
    if (!create_image || !destroy_image || !target_texture) {
        printf("FAIL the image functions are not found\n");
        return 1;
    }

    /* A: a texture with known texels, and an image of it. */
    uint8_t want[64], got[64];
    texels(want);
    GLuint ta;
    glGenTextures(1, &ta);
    glBindTexture(GL_TEXTURE_2D, ta);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, want);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    const EGLint level0[] = {EGL_GL_TEXTURE_LEVEL_KHR, 0, EGL_NONE};
    EGLImageKHR image = create_image(dpy, a, EGL_GL_TEXTURE_2D_KHR,
                                     (EGLClientBuffer)(uintptr_t)ta, level0);
    check("A makes an image of its texture", image != EGL_NO_IMAGE_KHR, "no image");
    glFinish();

    /* A's errors. */
    check("an image of texture 0 fails",
          create_image(dpy, a, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)0, level0) ==
              EGL_NO_IMAGE_KHR,
          "made");
    expect_error("an image of texture 0 is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("an image of a name that is no texture fails",
          create_image(dpy, a, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)4321, level0) ==
              EGL_NO_IMAGE_KHR,
          "made");
    expect_error("an image of a name that is no texture is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    GLuint cube, empty;
    glGenTextures(1, &cube);
    glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
    glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 want);
    check("a 2D image of a cube map fails",
          create_image(dpy, a, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)cube, level0) ==
              EGL_NO_IMAGE_KHR,
          "made");
    expect_error("a 2D image of a cube map is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    glGenTextures(1, &empty);
    glBindTexture(GL_TEXTURE_2D, empty);
    check("an image of a texture without images fails",
          create_image(dpy, a, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)empty, level0) ==
              EGL_NO_IMAGE_KHR,
          "made");
    expect_error("an image of a texture without images is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    check("destroying a handle that is no image fails",
          !destroy_image(dpy, (EGLImageKHR)(uintptr_t)0x7777), "destroyed");
    expect_error("destroying a handle that is no image is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);

    /* B: its own texture made of the image, sampled. */
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, b)) {
        printf("FAIL context B is not made current\n");
        return 1;
    }
    GLuint tb;
    glGenTextures(1, &tb);
    glBindTexture(GL_TEXTURE_2D, tb);
    target_texture(GL_TEXTURE_2D, image);
    expect_gl_error("B's texture takes the image", GL_NO_ERROR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    GLint w = 0, h = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &h);
    check("B's texture is 4x4", w == 4 && h == 4, "another size");
    sample(tb, got);
    check("B samples exactly A's texels", memcmp(got, want, 64) == 0, "other texels");

    check("destroying the image succeeds", destroy_image(dpy, image) == EGL_TRUE, "failed");
    check("destroying it again fails", !destroy_image(dpy, image), "destroyed");
    expect_error("destroying it again is EGL_BAD_PARAMETER", EGL_BAD_PARAMETER);
    sample(tb, got);
    check("B's texture keeps the texels once the image is destroyed", memcmp(got, want, 64) == 0,
          "other texels");

    /* B's errors. */
    glGetError();
    target_texture(GL_TEXTURE_3D, image);
    expect_gl_error("glEGLImageTargetTexture2DOES on TEXTURE_3D is GL_INVALID_ENUM",
                    GL_INVALID_ENUM);
    target_texture(GL_TEXTURE_2D, NULL);
    expect_gl_error("glEGLImageTargetTexture2DOES of no image is GL_INVALID_VALUE",
                    GL_INVALID_VALUE);
    /* A destroyed image: Tessera raises GL_INVALID_VALUE, as for no image. Mesa reads the
     * freed image (undefined behaviour there: llvmpipe crashes now and then), so the native
     * run, which leaves TESSERA_BACKEND unset, does not ask. */
    if (getenv("TESSERA_BACKEND")) {
        target_texture(GL_TEXTURE_2D, image);
        expect_gl_error("glEGLImageTargetTexture2DOES of a destroyed image is GL_INVALID_VALUE",
                        GL_INVALID_VALUE);
    }

    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, a);
    eglDestroyContext(dpy, b);
    eglTerminate(dpy);
    printf("checks %d failures %d\n", checks, failures);
    return failures != 0;
}

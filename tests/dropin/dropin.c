/*
 * A plain EGL + OpenGL 3.3 core program, compiled with the system headers and linked with
 * -lEGL -lOpenGL, that knows nothing of Tessera. Run as it is, it renders with the system
 * driver; run with LD_LIBRARY_PATH pointing at Tessera's drop-in directory (scripts/dropin),
 * it renders with Tessera. tests/tests/dropin.rs runs it both ways and compares the pixels.
 *
 * It creates a surfaceless 3.3 core context (EGL_PLATFORM_SURFACELESS_MESA), renders into a
 * 64 x 64 framebuffer object (RGBA8 texture + depth/stencil renderbuffer):
 *   - a textured quad (a 4 x 4 checkerboard texture, nearest filtering) at depth 0.5,
 *   - a green quad in front of it (depth -0.25) over part of it,
 *   - a blue quad behind both (depth 0.75) that the depth test keeps only where nothing is,
 *   - a half-transparent red quad blended over everything (no depth test),
 * then a pbuffer frame: clears a 16 x 8 pbuffer, swaps, reads it back.
 *
 * Output: stdout has "fbo <hex of 64*64 RGBA bytes>" and "pbuffer <hex>" lines; stderr has
 * the GL strings ("vendor: ...") and any error. Exit status 0 only if no GL or EGL error.
 */

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 64

static int failures = 0;

static void check_gl(const char *where)
{
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        fprintf(stderr, "GL error 0x%04x at %s\n", e, where);
        failures++;
    }
}

static void die_egl(const char *where)
{
    fprintf(stderr, "EGL error 0x%04x at %s\n", eglGetError(), where);
    exit(2);
}

static GLuint compile(GLenum kind, const char *source)
{
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &source, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        fprintf(stderr, "shader: %s\n", log);
        exit(3);
    }
    return s;
}

static GLuint program(const char *vs, const char *fs)
{
    GLuint p = glCreateProgram();
    GLuint v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
    glAttachShader(p, v);
    glAttachShader(p, f);
    glBindAttribLocation(p, 0, "position");
    glBindAttribLocation(p, 1, "uv");
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        fprintf(stderr, "link: %s\n", log);
        exit(3);
    }
    glDeleteShader(v);
    glDeleteShader(f);
    return p;
}

static const char *VS =
    "#version 330 core\n"
    "in vec3 position;\n"
    "in vec2 uv;\n"
    "out vec2 v_uv;\n"
    "void main() { v_uv = uv; gl_Position = vec4(position, 1.0); }\n";

static const char *FS_TEXTURED =
    "#version 330 core\n"
    "uniform sampler2D tex;\n"
    "in vec2 v_uv;\n"
    "out vec4 color;\n"
    "void main() { color = texture(tex, v_uv); }\n";

static const char *FS_FLAT =
    "#version 330 core\n"
    "uniform vec4 flat_color;\n"
    "out vec4 color;\n"
    "void main() { color = flat_color; }\n";

/* A quad from (x0, y0) to (x1, y1) at depth z, as two triangles of (x, y, z, u, v). */
static void quad(GLfloat *out, float x0, float y0, float x1, float y1, float z)
{
    const float v[6][5] = {
        {x0, y0, z, 0, 0}, {x1, y0, z, 1, 0}, {x1, y1, z, 1, 1},
        {x0, y0, z, 0, 0}, {x1, y1, z, 1, 1}, {x0, y1, z, 0, 1},
    };
    memcpy(out, v, sizeof v);
}

static void print_hex(const char *label, const unsigned char *p, size_t n)
{
    printf("%s ", label);
    for (size_t i = 0; i < n; i++)
        printf("%02x", p[i]);
    printf("\n");
}

int main(void)
{
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY)
        die_egl("eglGetPlatformDisplay");
    EGLint major, minor;
    if (!eglInitialize(dpy, &major, &minor))
        die_egl("eglInitialize");
    if (!eglBindAPI(EGL_OPENGL_API))
        die_egl("eglBindAPI");
    const EGLint config_attribs[] = {
        EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
        EGL_NONE,
    };
    EGLConfig config;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, config_attribs, &config, 1, &n) || n < 1)
        die_egl("eglChooseConfig");
    const EGLint context_attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
        EGL_NONE,
    };
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
    if (ctx == EGL_NO_CONTEXT)
        die_egl("eglCreateContext");
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
        die_egl("eglMakeCurrent (surfaceless)");

    fprintf(stderr, "egl: %d.%d %s\n", major, minor, eglQueryString(dpy, EGL_VENDOR));
    fprintf(stderr, "vendor: %s\n", (const char *)glGetString(GL_VENDOR));
    fprintf(stderr, "renderer: %s\n", (const char *)glGetString(GL_RENDERER));
    fprintf(stderr, "version: %s\n", (const char *)glGetString(GL_VERSION));

    /* The framebuffer object. */
    GLuint color_tex, depth_rb, fbo;
    glGenTextures(1, &color_tex);
    glBindTexture(GL_TEXTURE_2D, color_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, SIZE, SIZE, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glGenRenderbuffers(1, &depth_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, depth_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, SIZE, SIZE);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_tex, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth_rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "framebuffer incomplete\n");
        return 4;
    }
    check_gl("framebuffer");

    /* The checkerboard texture: 4 x 4 texels of two colours, uploaded with an unpack
     * alignment of 1 and a row length, so the pixel store path is exercised too. */
    unsigned char texels[4 * 6 * 4];
    memset(texels, 0xEE, sizeof texels);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            unsigned char *t = &texels[(y * 6 + x) * 4];
            int odd = (x + y) & 1;
            t[0] = odd ? 255 : 32;
            t[1] = odd ? 192 : 64;
            t[2] = odd ? 0 : 128;
            t[3] = 255;
        }
    GLuint tex;
    glGenTextures(1, &tex);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 6);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    check_gl("texture");

    /* Geometry: four quads in one buffer. */
    GLfloat vertices[4][6 * 5];
    quad(vertices[0], -0.75f, -0.75f, 0.75f, 0.75f, 0.5f);   /* textured */
    quad(vertices[1], -0.25f, -1.0f, 0.5f, 0.25f, -0.25f);   /* green, in front */
    quad(vertices[2], -1.0f, -1.0f, 1.0f, 1.0f, 0.75f);      /* blue, behind */
    quad(vertices[3], -0.5f, 0.0f, 1.0f, 0.5f, 0.0f);        /* red, blended */
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof vertices, vertices, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 5 * sizeof(GLfloat), (const void *)0);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 5 * sizeof(GLfloat), (const void *)(3 * sizeof(GLfloat)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    check_gl("vertices");

    GLuint textured = program(VS, FS_TEXTURED), flat = program(VS, FS_FLAT);
    GLint flat_color = glGetUniformLocation(flat, "flat_color");

    glViewport(0, 0, SIZE, SIZE);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);

    glUseProgram(textured);
    glUniform1i(glGetUniformLocation(textured, "tex"), 0);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glUseProgram(flat);
    /* The green and blue quads take their indices from client memory (no element array
     * buffer is bound), which core GL leaves out and Mesa reads; programs rely on it. */
    static const GLushort green_indices[6] = {6, 7, 8, 9, 10, 11};
    static const GLubyte blue_indices[2][3] = {{12, 13, 14}, {15, 16, 17}};
    const GLsizei blue_counts[2] = {3, 3};
    const void *blue_pointers[2] = {blue_indices[0], blue_indices[1]};
    glUniform4f(flat_color, 0.0f, 1.0f, 0.0f, 1.0f);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, green_indices);
    glUniform4f(flat_color, 0.0f, 0.0f, 1.0f, 1.0f);
    glMultiDrawElements(GL_TRIANGLES, blue_counts, GL_UNSIGNED_BYTE, blue_pointers, 2);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUniform4f(flat_color, 1.0f, 0.0f, 0.0f, 0.5f);
    glDrawArrays(GL_TRIANGLES, 18, 6);
    glDisable(GL_BLEND);
    check_gl("draws");

    static unsigned char pixels[SIZE * SIZE * 4];
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    check_gl("glReadPixels");
    print_hex("fbo", pixels, sizeof pixels);

    /* A pbuffer frame: the default framebuffer of a 16 x 8 pbuffer. */
    const EGLint pbuffer_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 8, EGL_NONE};
    EGLSurface pbuffer = eglCreatePbufferSurface(dpy, config, pbuffer_attribs);
    if (pbuffer == EGL_NO_SURFACE)
        die_egl("eglCreatePbufferSurface");
    if (!eglMakeCurrent(dpy, pbuffer, pbuffer, ctx))
        die_egl("eglMakeCurrent (pbuffer)");
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    GLint viewport[4];
    glGetIntegerv(GL_VIEWPORT, viewport);
    fprintf(stderr, "pbuffer viewport: %d %d %d %d\n", viewport[0], viewport[1], viewport[2], viewport[3]);
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (!eglSwapBuffers(dpy, pbuffer))
        die_egl("eglSwapBuffers");
    static unsigned char small[16 * 8 * 4];
    glReadPixels(0, 0, 16, 8, GL_RGBA, GL_UNSIGNED_BYTE, small);
    check_gl("pbuffer");
    print_hex("pbuffer", small, sizeof small);

    glDeleteProgram(textured);
    glDeleteProgram(flat);
    glDeleteBuffers(1, &vbo);
    glDeleteVertexArrays(1, &vao);
    glDeleteTextures(1, &tex);
    glDeleteTextures(1, &color_tex);
    glDeleteRenderbuffers(1, &depth_rb);
    glDeleteFramebuffers(1, &fbo);
    check_gl("cleanup");
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroySurface(dpy, pbuffer);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    return failures ? 1 : 0;
}

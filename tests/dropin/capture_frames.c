/*
 * A plain EGL + OpenGL 3.3 core program that renders frames into a 64 x 64 pbuffer and
 * swaps after each, for tests/tests/capture.rs: run on Tessera's drop-in with
 * TESSERA_CAPTURE=FILE, its frames are captured, and a replay must read back the images it
 * read itself.
 *
 * Each frame clears to a colour of its own, then draws 12 flat quads whose positions and
 * colours change with the frame (vertices on whole pixels, colours of whole 1/255 steps:
 * every driver covers and writes the same pixels), reads the pbuffer back and prints
 * "frame N HASH" (FNV-1a of the RGBA8 bytes as glReadPixels gives them, 16 hex digits), then
 * swaps. Exit status 0 only if no GL or EGL error.
 */

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>
#include <stdlib.h>

#define SIZE 64
#define FRAMES 8
#define QUADS 12

static void die(const char *what)
{
    fprintf(stderr, "error at %s (EGL 0x%04x, GL 0x%04x)\n", what, eglGetError(), glGetError());
    exit(2);
}

static GLuint compile(GLenum kind, const char *source)
{
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &source, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok)
        die("glCompileShader");
    return s;
}

static const char *VS = "#version 330 core\n"
                        "layout(location = 0) in vec2 position;\n"
                        "uniform vec2 offset;\n"
                        "void main() { gl_Position = vec4(position + offset, 0.0, 1.0); }\n";

static const char *FS = "#version 330 core\n"
                        "uniform vec4 flat_color;\n"
                        "out vec4 color;\n"
                        "void main() { color = flat_color; }\n";

int main(void)
{
    EGLint major, minor, n;
    EGLConfig config;
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                     EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_ALPHA_SIZE, 8,
                                     EGL_NONE};
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    const EGLint pbuffer_attribs[] = {EGL_WIDTH, SIZE, EGL_HEIGHT, SIZE, EGL_NONE};
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!eglInitialize(dpy, &major, &minor) || !eglBindAPI(EGL_OPENGL_API) ||
        !eglChooseConfig(dpy, config_attribs, &config, 1, &n) || n != 1)
        die("EGL display");
    EGLSurface pbuffer = eglCreatePbufferSurface(dpy, config, pbuffer_attribs);
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
    if (pbuffer == EGL_NO_SURFACE || ctx == EGL_NO_CONTEXT ||
        !eglMakeCurrent(dpy, pbuffer, pbuffer, ctx))
        die("EGL context");
    fprintf(stderr, "vendor: %s\n", (const char *)glGetString(GL_VENDOR));

    GLuint p = glCreateProgram();
    glAttachShader(p, compile(GL_VERTEX_SHADER, VS));
    glAttachShader(p, compile(GL_FRAGMENT_SHADER, FS));
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok)
        die("glLinkProgram");
    glUseProgram(p);
    GLint offset = glGetUniformLocation(p, "offset");
    GLint colour = glGetUniformLocation(p, "flat_color");

    /* An 8 x 8 pixel square at the bottom left (a pixel is 2/64 of clip space). */
    const float s = 8.0f * 2.0f / SIZE;
    const float quad[12] = {-1, -1, -1 + s, -1, -1 + s, -1 + s, -1, -1, -1 + s, -1 + s, -1, -1 + s};
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glViewport(0, 0, SIZE, SIZE);

    static unsigned char pixels[SIZE * SIZE * 4];
    for (int frame = 0; frame < FRAMES; frame++) {
        glClearColor((float)(frame * 20) / 255.0f, 32.0f / 255.0f, 64.0f / 255.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        for (int q = 0; q < QUADS; q++) {
            int x = (q * 5 + frame * 3) % 56, y = (q * 11 + frame * 7) % 56;
            glUniform2f(offset, x * 2.0f / SIZE, y * 2.0f / SIZE);
            glUniform4f(colour, (float)((q * 40 + frame) % 256) / 255.0f,
                        (float)((q * 90) % 256) / 255.0f, (float)(255 - q * 10) / 255.0f, 1.0f);
            glDrawArrays(GL_TRIANGLES, 0, 6);
        }
        glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
        unsigned long long h = 0xcbf29ce484222325ull;
        for (size_t i = 0; i < sizeof pixels; i++)
            h = (h ^ pixels[i]) * 0x100000001b3ull;
        printf("frame %d %016llx\n", frame, h);
        if (!eglSwapBuffers(dpy, pbuffer))
            die("eglSwapBuffers");
    }
    if (glGetError() != GL_NO_ERROR)
        die("the frames");
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglDestroySurface(dpy, pbuffer);
    eglTerminate(dpy);
    return 0;
}

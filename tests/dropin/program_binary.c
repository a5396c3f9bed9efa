/*
 * ARB_get_program_binary through the C ABI: a transcript, one observation per line, which
 * tests/tests/dropin.rs compares line for line between the native driver and Tessera.
 * Binaries are each implementation's own, so the transcript holds what the calls do (errors,
 * LINK_STATUS, uniform values, pixels), never the bytes or the format's value.
 *
 *   program_binary save FILE   links a program, changes a uniform, saves its binary in FILE,
 *                              checks the errors of glGetProgramBinary/glProgramParameteri
 *                              and a reload in this process, and draws;
 *   program_binary load FILE   in a new process: loads FILE, reads the uniform (back at its
 *                              initializer's value) and draws, then loads FILE truncated and
 *                              corrupted (LINK_STATUS FALSE, no error).
 *
 * Drawing is into an 8 x 8 framebuffer object, printed as "pixels <hex>".
 */

#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define SIZE 8

static const char *vs_text = "#version 330\n"
                             "layout(location = 0) in vec2 pos;\n"
                             "void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char *fs_text = "#version 330\n"
                             "uniform vec4 color = vec4(0.25, 0.5, 0.75, 1.0);\n"
                             "out vec4 frag;\n"
                             "void main() { frag = color; }\n";

static void error(const char *what)
{
    printf("%s: error 0x%04x\n", what, glGetError());
}

static GLuint shader(GLenum kind, const char *text)
{
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &text, NULL);
    glCompileShader(s);
    return s;
}

static GLuint linked(void)
{
    GLuint p = glCreateProgram();
    glAttachShader(p, shader(GL_VERTEX_SHADER, vs_text));
    glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs_text));
    glLinkProgram(p);
    return p;
}

static GLint program_int(GLuint p, GLenum pname)
{
    GLint v = -1;
    glGetProgramiv(p, pname, &v);
    return v;
}

/* Prints the program's status and its `color` uniform. */
static void describe(const char *what, GLuint p)
{
    GLfloat c[4] = {-1, -1, -1, -1};
    GLint loc = -1;
    if (program_int(p, GL_LINK_STATUS)) {
        loc = glGetUniformLocation(p, "color");
        glGetUniformfv(p, loc, c);
    }
    printf("%s: link %d location %d color %.2f %.2f %.2f %.2f\n", what,
           program_int(p, GL_LINK_STATUS), loc, c[0], c[1], c[2], c[3]);
    error(what);
}

/* Draws a quad with `p` into the framebuffer object and prints the pixels. */
static void draw(const char *what, GLuint p)
{
    static const GLfloat quad[] = {-1, -1, 0.5f, -1, -1, 0.5f, 0.5f, 0.5f};
    GLuint vao, vbo;
    unsigned char pixels[SIZE * SIZE * 4];
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    glUseProgram(p);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    glUseProgram(0);
    printf("%s: pixels ", what);
    for (size_t i = 0; i < sizeof pixels; i++)
        printf("%02x", pixels[i]);
    printf("\n");
    error(what);
}

static void framebuffer(void)
{
    GLuint fbo, rb;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, SIZE, SIZE);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glViewport(0, 0, SIZE, SIZE);
}

static GLenum format(void)
{
    GLint f = 0;
    glGetIntegerv(GL_PROGRAM_BINARY_FORMATS, &f);
    return (GLenum)f;
}

static int save(const char *file)
{
    GLint n = -1, advertised = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; i++)
        advertised |= !strcmp((const char *)glGetStringi(GL_EXTENSIONS, i),
                              "GL_ARB_get_program_binary");
    glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &n);
    printf("advertised %d formats %d\n", advertised, n);
    error("formats");

    GLuint p = glCreateProgram();
    glProgramParameteri(p, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
    error("hint");
    glProgramParameteri(p, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, 7);
    error("hint 7");
    glProgramParameteri(p, GL_GEOMETRY_VERTICES_OUT, 3);
    error("another parameter");
    GLint length = -1;
    GLenum fmt = 0;
    unsigned char small[16];
    glGetProgramBinary(p, sizeof small, &length, &fmt, small);
    printf("unlinked: length %d\n", length);
    error("unlinked");
    glAttachShader(p, shader(GL_VERTEX_SHADER, vs_text));
    glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs_text));
    printf("hint before the link %d\n", program_int(p, GL_PROGRAM_BINARY_RETRIEVABLE_HINT));
    glLinkProgram(p);
    printf("hint after the link %d\n", program_int(p, GL_PROGRAM_BINARY_RETRIEVABLE_HINT));
    describe("linked", p);

    /* A changed value is not part of the binary. */
    glUseProgram(p);
    glUniform4f(glGetUniformLocation(p, "color"), 1, 0, 0, 1);
    glUseProgram(0);
    describe("changed", p);

    GLint size = program_int(p, GL_PROGRAM_BINARY_LENGTH);
    printf("length positive %d\n", size > 0);
    unsigned char *binary = malloc(size > 0 ? size : 1);
    length = -1;
    glGetProgramBinary(p, size - 1, &length, &fmt, binary);
    printf("one byte short: length %d\n", length);
    error("one byte short");
    glGetProgramBinary(p, -1, &length, &fmt, binary);
    error("negative size");
    glGetProgramBinary(p, size, &length, &fmt, binary);
    printf("saved: length matches %d format matches %d\n", length == size, fmt == format());
    error("saved");
    FILE *out = fopen(file, "wb");
    if (!out || fwrite(binary, 1, size, out) != (size_t)size || fclose(out)) {
        printf("FAIL cannot write %s\n", file);
        return 1;
    }

    framebuffer();
    draw("source", p);
    GLuint q = glCreateProgram();
    glProgramBinary(q, fmt, binary, size);
    describe("reloaded", q);
    draw("reloaded", q);
    glProgramBinary(q, 0x1234, binary, size);
    error("unknown format");
    describe("after an unknown format", q);

    /* Loading over the current program leaves it current, now the loaded one. */
    GLuint r = linked();
    glUseProgram(r);
    glProgramBinary(r, fmt, binary, size);
    error("over the current program");
    GLint current = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &current);
    printf("current is the loaded program %d\n", (GLuint)current == r);
    describe("loaded over the current program", r);
    glUseProgram(0);
    free(binary);
    return 0;
}

static int load(const char *file)
{
    FILE *in = fopen(file, "rb");
    static unsigned char binary[1 << 20];
    size_t size = in ? fread(binary, 1, sizeof binary, in) : 0;
    if (in)
        fclose(in);
    if (size == 0) {
        printf("FAIL cannot read %s\n", file);
        return 1;
    }
    framebuffer();
    GLuint p = glCreateProgram();
    glProgramBinary(p, format(), binary, (GLsizei)size);
    describe("new process", p);
    draw("new process", p);

    GLuint t = linked();
    glProgramBinary(t, format(), binary, (GLsizei)size / 2);
    describe("truncated", t);
    binary[size / 2] ^= 0x5a;
    GLuint c = linked();
    glProgramBinary(c, format(), binary, (GLsizei)size);
    describe("corrupted", c);
    glUseProgram(c);
    error("use of a program whose load failed");
    return 0;
}

int main(int argc, char **argv)
{
    EGLDisplay dpy;
    if (argc != 3) {
        fprintf(stderr, "usage: %s save|load FILE\n", argv[0]);
        return 2;
    }
    if (surfaceless_core_context(&dpy) == EGL_NO_CONTEXT)
        return 1;
    fprintf(stderr, "vendor: %s\n", (const char *)glGetString(GL_VENDOR));
    int status = !strcmp(argv[1], "save") ? save(argv[2]) : load(argv[2]);
    eglTerminate(dpy);
    return status;
}

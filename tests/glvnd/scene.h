/*
 * What the libglvnd vendor test programs (egl.c, glx.c) share: counted checks, the GL 3.3
 * core scene they draw and read back, and the list of the GL libraries mapped into the
 * process. Header-only: each program is one gcc call. tests/tests/glvnd.rs runs the
 * programs on the system's libglvnd with its own vendor (Mesa) and with Tessera as the
 * vendor, and compares what they print.
 *
 * Output lines (stdout):
 *   ok <check> / FAIL <check>: <detail>
 *   vendor <GL_VENDOR> / renderer <GL_RENDERER> / version <GL_VERSION>
 *   pixels <hex of the 64 x 64 RGBA8 read-back, bottom row first>
 *   library <path>     every mapped file whose name starts with libEGL, libGL, libOpenGL
 *                      or libtessera, once, from /proc/self/maps (symlinks resolved)
 *   checks <n> failures <m>   last; the exit status is 1 if any check failed
 */
#ifndef TESSERA_GLVND_SCENE_H
#define TESSERA_GLVND_SCENE_H

#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCENE_UNUSED __attribute__((unused))
#define SCENE_SIZE 64

static int checks = 0, failures = 0;

SCENE_UNUSED static void check(const char *name, int ok, const char *detail)
{
    checks++;
    if (ok) {
        printf("ok %s\n", name);
    } else {
        failures++;
        printf("FAIL %s: %s\n", name, detail);
    }
}

SCENE_UNUSED static int finish(void)
{
    printf("checks %d failures %d\n", checks, failures);
    return failures ? 1 : 0;
}

static const char *gl_string(GLenum name)
{
    const char *s = (const char *)glGetString(name);
    return s ? s : "(null)";
}

/* The GL strings, one line each. */
SCENE_UNUSED static void print_gl_strings(void)
{
    printf("vendor %s\n", gl_string(GL_VENDOR));
    printf("renderer %s\n", gl_string(GL_RENDERER));
    printf("version %s\n", gl_string(GL_VERSION));
}

static GLuint compile(GLenum kind, const char *source)
{
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &source, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    check("a shader compiles", ok, "compile failed");
    return s;
}

/*
 * Draws into the current framebuffer (SCENE_SIZE x SCENE_SIZE) and reads it back into
 * `pixels`: a clear, a scissored clear, a flat triangle, and a half-transparent quad blended
 * over it. The colours are set with `uniform4f`, glUniform4f as the caller looked it up with
 * its window system's GetProcAddress.
 */
SCENE_UNUSED static void draw_scene(PFNGLUNIFORM4FPROC uniform4f, unsigned char *pixels)
{
    static const char *vs = "#version 330 core\n"
                            "in vec2 position;\n"
                            "void main() { gl_Position = vec4(position, 0.0, 1.0); }\n";
    static const char *fs = "#version 330 core\n"
                            "uniform vec4 colour;\n"
                            "out vec4 result;\n"
                            "void main() { result = colour; }\n";
    GLuint program = glCreateProgram();
    GLuint v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
    glAttachShader(program, v);
    glAttachShader(program, f);
    glBindAttribLocation(program, 0, "position");
    glLinkProgram(program);
    GLint linked = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    check("the program links", linked, "link failed");
    glDeleteShader(v);
    glDeleteShader(f);

    /* A triangle, then a quad as two triangles. */
    static const GLfloat vertices[] = {
        -0.75f, -0.75f, 0.75f, -0.5f, -0.25f, 0.75f,
        -0.5f, -0.25f, 1.0f, -0.25f, 1.0f, 0.5f,
        -0.5f, -0.25f, 1.0f, 0.5f, -0.5f, 0.5f,
    };
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof vertices, vertices, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(GLfloat), (const void *)0);
    glEnableVertexAttribArray(0);

    glViewport(0, 0, SCENE_SIZE, SCENE_SIZE);
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(8, 40, 20, 16);
    glClearColor(1.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);

    glUseProgram(program);
    GLint colour = glGetUniformLocation(program, "colour");
    uniform4f(colour, 0.0f, 1.0f, 0.0f, 1.0f);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    uniform4f(colour, 1.0f, 0.0f, 0.0f, 0.5f);
    glDrawArrays(GL_TRIANGLES, 3, 6);
    glDisable(GL_BLEND);

    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, SCENE_SIZE, SCENE_SIZE, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    GLenum error = glGetError();
    char detail[64];
    snprintf(detail, sizeof detail, "GL error 0x%04x", error);
    check("the scene draws without a GL error", error == GL_NO_ERROR, detail);

    glDeleteProgram(program);
    glDeleteBuffers(1, &vbo);
    glDeleteVertexArrays(1, &vao);
}

SCENE_UNUSED static void print_hex(const char *label, const unsigned char *p, size_t n)
{
    printf("%s ", label);
    for (size_t i = 0; i < n; i++)
        printf("%02x", p[i]);
    printf("\n");
}

/* The GL libraries mapped into this process, each once. */
SCENE_UNUSED static void print_libraries(void)
{
    static const char *prefixes[] = {"libEGL", "libGL", "libOpenGL", "libtessera"};
    char seen[32][512];
    int n_seen = 0;
    FILE *maps = fopen("/proc/self/maps", "r");
    check("/proc/self/maps opens", maps != NULL, "fopen failed");
    if (!maps)
        return;
    char line[1024];
    while (fgets(line, sizeof line, maps)) {
        char *path = strchr(line, '/');
        if (!path)
            continue;
        path[strcspn(path, "\n")] = '\0';
        const char *base = strrchr(path, '/') + 1;
        int wanted = 0;
        for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
            wanted |= strncmp(base, prefixes[i], strlen(prefixes[i])) == 0;
        int known = 0;
        for (int i = 0; i < n_seen; i++)
            known |= strcmp(seen[i], path) == 0;
        if (!wanted || known || n_seen == 32 || strlen(path) >= sizeof seen[0])
            continue;
        strcpy(seen[n_seen++], path);
        printf("library %s\n", path);
    }
    fclose(maps);
}

#endif

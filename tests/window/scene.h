/*
 * What the on-screen test programs (glfw_scene.c, sdl_scene.c) share: the command line, the
 * GL functions they load through their toolkit, the animated, frame-numbered scene, and the
 * read-back of the window's contents from the X server (wayland_scene.c takes all but the
 * read-back: its frames are read from the compositor). Header-only: each program is one gcc
 * call. tests/tests/window.rs runs the programs on the system driver and on Tessera and
 * compares what they print.
 *
 * Command line (every option has a default):
 *   --api glx|egl      how the toolkit creates the context (default glx)
 *   --frames N         frames drawn and read back (default 6)
 *   --size WxH         the window's size (default 160x120)
 *   --resize           before frame 3 the window is resized to (W + W/4) x (H - H/5)
 *   --samples N        a multisampled default framebuffer with N samples (default 0: none)
 *   --srgb             an sRGB-capable default framebuffer, GL_FRAMEBUFFER_SRGB enabled
 *   --interval 0|1     the swap interval (default: the toolkit's)
 *
 * The scene of frame n (GL 3.3 core, a window-sized viewport):
 *   - a clear to a colour derived from n,
 *   - a triangle of a colour derived from n at a position derived from n (a shader program
 *     with two uniforms),
 *   - n's 8 low bits as 8 squares of SQUARE x SQUARE pixels in the bottom-left corner,
 *     bit i at x = BITS_X + i * BITS_STEP, y = BITS_Y (GL window coordinates): white for 1,
 *     black for 0 (scissored clears), so a dropped, repeated or late frame is visible.
 *
 * After each swap the program calls XSync and reads the window (not the GL framebuffer) back
 * with XGetImage. Output, on stdout, one line each:
 *   api <glx|egl>
 *   vendor <GL_VENDOR>  /  renderer <GL_RENDERER>  /  version <GL_VERSION>
 *   samples <GL_SAMPLES of the default framebuffer>
 *   encoding <linear|srgb>   (the back buffer's GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING)
 *   interval <n>             (only with --interval; SDL: the interval it reports back, or
 *                            "unsupported" when the window system has no swap control)
 *   then per frame n:
 *   size <w> <h>             the drawable's size as GLX (glXQueryDrawable GLX_WIDTH /
 *                            GLX_HEIGHT) or EGL (eglQuerySurface EGL_WIDTH / EGL_HEIGHT)
 *                            reports it after the swap
 *   frame <n> <w>x<h> <hex>  the window's size and pixels: for each row from the top, for
 *                            each pixel from the left, the XGetImage pixel value masked
 *                            with 0x00ffffff as 6 hex digits (rrggbb on a TrueColor visual)
 * Any failure (toolkit, window, context, GL error after a frame, X error) prints one line
 * "error: ..." on stderr and exits with status 1.
 */
#ifndef TESSERA_WINDOW_SCENE_H
#define TESSERA_WINDOW_SCENE_H

#define EGL_EGL_PROTOTYPES 0
#include <EGL/egl.h>
#include <GL/glcorearb.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SCENE_UNUSED __attribute__((unused))

/* The frame-number squares (GL window coordinates, bottom-left origin). */
#define SQUARE 6
#define BITS_X 3
#define BITS_Y 3
#define BITS_STEP 8

/* GLX's names (GL/glx.h would bring the compatibility gl.h, which clashes with glcorearb.h). */
#define SCENE_GLX_WIDTH 0x801D
#define SCENE_GLX_HEIGHT 0x801E
#ifndef GL_FRAMEBUFFER_SRGB
#define GL_FRAMEBUFFER_SRGB 0x8DB9
#endif

enum api { API_GLX, API_EGL };

struct options {
    enum api api;
    int frames;
    int width, height;
    int resize;
    int samples;
    int srgb;
    int interval; /* -1: not set */
};

SCENE_UNUSED __attribute__((noreturn, format(printf, 1, 2))) static void fail(const char *format,
                                                                              ...)
{
    va_list args;
    va_start(args, format);
    fputs("error: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    fflush(stdout);
    exit(1);
}

static struct options parse_options(int argc, char **argv)
{
    struct options o = {API_GLX, 6, 160, 120, 0, 0, 0, -1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--resize")) {
            o.resize = 1;
        } else if (!strcmp(a, "--srgb")) {
            o.srgb = 1;
        } else if (!v) {
            fail("%s: unknown option or missing value", a);
        } else if (!strcmp(a, "--api")) {
            if (!strcmp(v, "glx"))
                o.api = API_GLX;
            else if (!strcmp(v, "egl"))
                o.api = API_EGL;
            else
                fail("--api %s: not glx or egl", v);
            i++;
        } else if (!strcmp(a, "--frames")) {
            o.frames = atoi(v);
            i++;
        } else if (!strcmp(a, "--size")) {
            if (sscanf(v, "%dx%d", &o.width, &o.height) != 2)
                fail("--size %s: not WxH", v);
            i++;
        } else if (!strcmp(a, "--samples")) {
            o.samples = atoi(v);
            i++;
        } else if (!strcmp(a, "--interval")) {
            o.interval = atoi(v);
            i++;
        } else {
            fail("%s: unknown option", a);
        }
    }
    if (o.frames < 1 || o.frames > 255 || o.width < 72 || o.height < 24 || o.width > 1024 ||
        o.height > 768 || o.samples < 0 || o.interval < -1 || o.interval > 1)
        fail("options out of range");
    if (o.resize && o.frames < 4)
        fail("--resize needs 4 frames or more");
    printf("api %s\n", o.api == API_GLX ? "glx" : "egl");
    return o;
}

/* The size the window is resized to with --resize: wider and lower. */
SCENE_UNUSED static void resized(const struct options *o, int *w, int *h)
{
    *w = o->width + o->width / 4;
    *h = o->height - o->height / 5;
}

/* Milliseconds of a monotonic clock. */
SCENE_UNUSED static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

SCENE_UNUSED static void sleep_ms(int ms)
{
    struct timespec t = {0, ms * 1000000L};
    nanosleep(&t, NULL);
}

/* ---- GL functions, loaded through the toolkit ---- */

#define SCENE_GL_FUNCTIONS(X)                                                                  \
    X(PFNGLGETERRORPROC, glGetError)                                                           \
    X(PFNGLGETSTRINGPROC, glGetString)                                                         \
    X(PFNGLGETINTEGERVPROC, glGetIntegerv)                                                     \
    X(PFNGLGETFRAMEBUFFERATTACHMENTPARAMETERIVPROC, glGetFramebufferAttachmentParameteriv)    \
    X(PFNGLVIEWPORTPROC, glViewport)                                                           \
    X(PFNGLSCISSORPROC, glScissor)                                                             \
    X(PFNGLENABLEPROC, glEnable)                                                               \
    X(PFNGLDISABLEPROC, glDisable)                                                             \
    X(PFNGLCLEARCOLORPROC, glClearColor)                                                       \
    X(PFNGLCLEARPROC, glClear)                                                                 \
    X(PFNGLCREATESHADERPROC, glCreateShader)                                                   \
    X(PFNGLSHADERSOURCEPROC, glShaderSource)                                                   \
    X(PFNGLCOMPILESHADERPROC, glCompileShader)                                                 \
    X(PFNGLGETSHADERIVPROC, glGetShaderiv)                                                     \
    X(PFNGLGETSHADERINFOLOGPROC, glGetShaderInfoLog)                                           \
    X(PFNGLCREATEPROGRAMPROC, glCreateProgram)                                                 \
    X(PFNGLATTACHSHADERPROC, glAttachShader)                                                   \
    X(PFNGLLINKPROGRAMPROC, glLinkProgram)                                                     \
    X(PFNGLGETPROGRAMIVPROC, glGetProgramiv)                                                   \
    X(PFNGLGETPROGRAMINFOLOGPROC, glGetProgramInfoLog)                                         \
    X(PFNGLUSEPROGRAMPROC, glUseProgram)                                                       \
    X(PFNGLGETUNIFORMLOCATIONPROC, glGetUniformLocation)                                       \
    X(PFNGLUNIFORM2FPROC, glUniform2f)                                                         \
    X(PFNGLUNIFORM4FPROC, glUniform4f)                                                         \
    X(PFNGLGENVERTEXARRAYSPROC, glGenVertexArrays)                                             \
    X(PFNGLBINDVERTEXARRAYPROC, glBindVertexArray)                                             \
    X(PFNGLGENBUFFERSPROC, glGenBuffers)                                                       \
    X(PFNGLBINDBUFFERPROC, glBindBuffer)                                                       \
    X(PFNGLBUFFERDATAPROC, glBufferData)                                                       \
    X(PFNGLVERTEXATTRIBPOINTERPROC, glVertexAttribPointer)                                     \
    X(PFNGLENABLEVERTEXATTRIBARRAYPROC, glEnableVertexAttribArray)                             \
    X(PFNGLDRAWARRAYSPROC, glDrawArrays)

/* Static pointers named as the functions (glcorearb.h declares no prototypes without
 * GL_GLEXT_PROTOTYPES, and static names are not exported, so nothing is interposed). */
#define SCENE_DECLARE(type, name) static type name;
SCENE_GL_FUNCTIONS(SCENE_DECLARE)
#undef SCENE_DECLARE

typedef void *(*get_proc_fn)(const char *name);

static void load_gl(get_proc_fn get_proc)
{
#define SCENE_LOAD(type, name)                                                                 \
    name = (type)get_proc(#name);                                                              \
    if (!name)                                                                                 \
        fail("no " #name);
    SCENE_GL_FUNCTIONS(SCENE_LOAD)
#undef SCENE_LOAD
}

/*
 * A window-system function (glXQueryDrawable, eglQuerySurface, ...) from the library the
 * toolkit uses: through the toolkit's GetProcAddress, else from the library already loaded
 * under one of its names.
 */
static void *window_system_proc(get_proc_fn get_proc, const char *name)
{
    void *p = get_proc(name);
    const char *libraries[] = {"libGL.so.1", "libGLX.so.0", "libEGL.so.1", "libGL.so",
                               "libEGL.so"};
    for (size_t i = 0; !p && i < sizeof libraries / sizeof *libraries; i++) {
        void *lib = dlopen(libraries[i], RTLD_LAZY | RTLD_NOLOAD);
        if (lib)
            p = dlsym(lib, name);
    }
    if (!p)
        fail("no %s", name);
    return p;
}

/* ---- The scene ---- */

static GLuint program;
static GLint offset_location, colour_location;

static const char *vertex_source = "#version 330 core\n"
                                   "layout(location = 0) in vec2 position;\n"
                                   "uniform vec2 offset;\n"
                                   "void main() { gl_Position = vec4(position + offset, 0.0, 1.0); }\n";
static const char *fragment_source = "#version 330 core\n"
                                     "uniform vec4 colour;\n"
                                     "out vec4 fragment;\n"
                                     "void main() { fragment = colour; }\n";

static void check_gl(const char *where)
{
    GLenum e = glGetError();
    if (e != GL_NO_ERROR)
        fail("GL error 0x%04x %s", e, where);
}

static GLuint compile(GLenum kind, const char *source)
{
    GLuint s = glCreateShader(kind);
    GLint ok = 0;
    glShaderSource(s, 1, &source, NULL);
    glCompileShader(s);
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        for (char *c = log; *c; c++)
            if (*c == '\n')
                *c = ' ';
        fail("shader: %s", log);
    }
    return s;
}

/*
 * Loads GL, prints the context's strings and framebuffer, builds the program and the
 * triangle's vertex array, and enables sRGB writes if asked. The context is current.
 */
SCENE_UNUSED static void scene_init(get_proc_fn get_proc, const struct options *o)
{
    static const GLfloat triangle[] = {-0.25f, -0.25f, 0.25f, -0.2f, 0.0f, 0.3f};
    GLint ok = 0, samples = -1, encoding = 0;
    GLuint vao, vbo;

    load_gl(get_proc);
    printf("vendor %s\nrenderer %s\nversion %s\n", (const char *)glGetString(GL_VENDOR),
           (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
    glGetIntegerv(GL_SAMPLES, &samples);
    glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_BACK_LEFT,
                                          GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING, &encoding);
    check_gl("querying the default framebuffer");
    printf("samples %d\nencoding %s\n", samples,
           encoding == GL_SRGB ? "srgb" : encoding == GL_LINEAR ? "linear" : "other");

    program = glCreateProgram();
    glAttachShader(program, compile(GL_VERTEX_SHADER, vertex_source));
    glAttachShader(program, compile(GL_FRAGMENT_SHADER, fragment_source));
    glLinkProgram(program);
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        fail("link: %s", log);
    }
    offset_location = glGetUniformLocation(program, "offset");
    colour_location = glGetUniformLocation(program, "colour");
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof triangle, triangle, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    if (o->srgb)
        glEnable(GL_FRAMEBUFFER_SRGB);
    check_gl("setting up the scene");
}

/* Draws frame n into a w x h default framebuffer (the toolkit swaps). */
SCENE_UNUSED static void scene_draw(int n, int w, int h)
{
    glViewport(0, 0, w, h);
    glDisable(GL_SCISSOR_TEST);
    glClearColor((n * 40 % 256) / 255.0f, (255 - n * 24 % 256) / 255.0f, 0.5f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);

    glUseProgram(program);
    glUniform2f(offset_location, -0.5f + 0.125f * (n % 9), -0.25f + 0.0625f * (n % 7));
    glUniform4f(colour_location, 1.0f - (n * 16 % 256) / 255.0f, (n * 56 % 256) / 255.0f,
                0.25f, 1.0f);
    glDrawArrays(GL_TRIANGLES, 0, 3);

    glEnable(GL_SCISSOR_TEST);
    for (int bit = 0; bit < 8; bit++) {
        float v = (n >> bit) & 1 ? 1.0f : 0.0f;
        glScissor(BITS_X + bit * BITS_STEP, BITS_Y, SQUARE, SQUARE);
        glClearColor(v, v, v, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    glDisable(GL_SCISSOR_TEST);
}

/* Fails unless frame n left no GL error. */
SCENE_UNUSED static void scene_check(int n)
{
    char where[32];
    snprintf(where, sizeof where, "in frame %d", n);
    check_gl(where);
}

/* ---- The drawable's size as GLX or EGL reports it ---- */

typedef Display *(*glx_get_current_display_fn)(void);
typedef XID (*glx_get_current_drawable_fn)(void);
typedef void (*glx_query_drawable_fn)(Display *, XID, int, unsigned int *);

/* Prints "size <w> <h>" for the current context's draw surface. */
SCENE_UNUSED static void print_drawable_size(get_proc_fn get_proc, enum api api)
{
    if (api == API_GLX) {
        glx_get_current_display_fn get_display =
            (glx_get_current_display_fn)window_system_proc(get_proc, "glXGetCurrentDisplay");
        glx_get_current_drawable_fn get_drawable =
            (glx_get_current_drawable_fn)window_system_proc(get_proc, "glXGetCurrentDrawable");
        glx_query_drawable_fn query =
            (glx_query_drawable_fn)window_system_proc(get_proc, "glXQueryDrawable");
        unsigned int w = 0, h = 0;
        Display *dpy = get_display();
        XID drawable = get_drawable();
        if (!dpy || !drawable)
            fail("no current GLX display or drawable");
        query(dpy, drawable, SCENE_GLX_WIDTH, &w);
        query(dpy, drawable, SCENE_GLX_HEIGHT, &h);
        printf("size %u %u\n", w, h);
    } else {
        PFNEGLGETCURRENTDISPLAYPROC get_display =
            (PFNEGLGETCURRENTDISPLAYPROC)window_system_proc(get_proc, "eglGetCurrentDisplay");
        PFNEGLGETCURRENTSURFACEPROC get_surface =
            (PFNEGLGETCURRENTSURFACEPROC)window_system_proc(get_proc, "eglGetCurrentSurface");
        PFNEGLQUERYSURFACEPROC query =
            (PFNEGLQUERYSURFACEPROC)window_system_proc(get_proc, "eglQuerySurface");
        EGLint w = 0, h = 0;
        EGLDisplay dpy = get_display();
        EGLSurface surface = get_surface(EGL_DRAW);
        if (dpy == EGL_NO_DISPLAY || surface == EGL_NO_SURFACE)
            fail("no current EGL display or surface");
        if (!query(dpy, surface, EGL_WIDTH, &w) || !query(dpy, surface, EGL_HEIGHT, &h))
            fail("eglQuerySurface failed");
        printf("size %d %d\n", w, h);
    }
}

/* ---- The window's contents, from the X server ---- */

static int x_error_code;

static int record_x_error(Display *dpy, XErrorEvent *e)
{
    (void)dpy;
    x_error_code = e->error_code;
    return 0;
}

/* The window's size as the X server has it. */
SCENE_UNUSED static void window_size(Display *dpy, Window window, int *w, int *h)
{
    XWindowAttributes a;
    XSync(dpy, False);
    if (!XGetWindowAttributes(dpy, window, &a))
        fail("XGetWindowAttributes failed");
    *w = a.width;
    *h = a.height;
}

/* Waits (up to 5 s) until the window is mapped and viewable; `pump` handles the toolkit's
 * events. */
SCENE_UNUSED static void wait_viewable(Display *dpy, Window window, void (*pump)(void))
{
    double deadline = now_ms() + 5000;
    for (;;) {
        XWindowAttributes a;
        pump();
        XSync(dpy, False);
        if (XGetWindowAttributes(dpy, window, &a) && a.map_state == IsViewable)
            return;
        if (now_ms() > deadline)
            fail("the window was not mapped within 5 s");
        sleep_ms(5);
    }
}

/*
 * Waits (up to 5 s) until the X server and the toolkit (`framebuffer_size`) both have the
 * window at w x h; `pump` handles the toolkit's events.
 */
SCENE_UNUSED static void wait_size(Display *dpy, Window window, int w, int h, void (*pump)(void),
                                   void (*framebuffer_size)(int *, int *))
{
    double deadline = now_ms() + 5000;
    for (;;) {
        int xw, xh, fw, fh;
        pump();
        window_size(dpy, window, &xw, &xh);
        framebuffer_size(&fw, &fh);
        if (xw == w && xh == h && fw == w && fh == h)
            return;
        if (now_ms() > deadline)
            fail("the window is %dx%d (framebuffer %dx%d), not %dx%d, 5 s after the resize", xw,
                 xh, fw, fh, w, h);
        sleep_ms(5);
    }
}

/* Syncs with the X server, reads the whole window with XGetImage and prints its frame line. */
SCENE_UNUSED static void dump_window(Display *dpy, Window window, int n)
{
    int w, h;
    XImage *image;
    int (*previous)(Display *, XErrorEvent *);
    static const char digits[] = "0123456789abcdef";
    char *line;

    window_size(dpy, window, &w, &h);
    x_error_code = 0;
    previous = XSetErrorHandler(record_x_error);
    image = XGetImage(dpy, window, 0, 0, (unsigned)w, (unsigned)h, AllPlanes, ZPixmap);
    XSync(dpy, False);
    XSetErrorHandler(previous);
    if (!image || x_error_code)
        fail("XGetImage of frame %d failed (X error %d)", n, x_error_code);
    line = malloc((size_t)w * 6 + 1);
    if (!line)
        fail("out of memory");
    printf("frame %d %dx%d ", n, w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            unsigned long p = XGetPixel(image, x, y) & 0x00ffffffUL;
            for (int d = 0; d < 6; d++)
                line[x * 6 + d] = digits[(p >> (20 - 4 * d)) & 0xf];
        }
        line[w * 6] = '\0';
        fputs(line, stdout);
    }
    putchar('\n');
    fflush(stdout);
    free(line);
    XDestroyImage(image);
}

#endif

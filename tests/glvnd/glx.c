/*
 * A plain GLX + OpenGL 3.3 core program, linked with -lGL -lX11 (libglvnd's libGL), that
 * knows nothing of Tessera: tests/tests/glvnd.rs runs it on an Xvfb server with libGLX's
 * own vendor choice (Mesa) and with __GLX_VENDOR_LIBRARY_NAME=tessera, and compares the
 * pixels.
 *
 * It chooses a double-buffered window config, creates a 64 x 64 window, a 3.3 core context
 * with glXCreateContextAttribsARB (from glXGetProcAddressARB: libGLX's own dispatch by
 * config), makes it current on the window, draws the scene of scene.h (with glUniform4f
 * from glXGetProcAddressARB) into the back buffer and reads it back, sets the swap interval
 * with glXSwapIntervalEXT where the screen offers GLX_EXT_swap_control (an extension
 * function libGLX reaches only through the vendor's dispatch stub) and swaps.
 * Output: scene.h's lines, and "swap interval <n>" or "swap interval unsupported".
 */

#define GL_GLEXT_PROTOTYPES 1
#include <GL/glx.h>
#include <X11/Xlib.h>

#include "scene.h"

typedef GLXContext (*CreateContextAttribs)(Display *, GLXFBConfig, GLXContext, Bool,
                                           const int *);
typedef void (*SwapIntervalExt)(Display *, GLXDrawable, int);

static int has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

int main(void)
{
    Display *dpy = XOpenDisplay(NULL);
    check("XOpenDisplay", dpy != NULL, "no X server (DISPLAY)");
    if (!dpy)
        return finish();
    int screen = DefaultScreen(dpy);
    int major = 0, minor = 0;
    check("glXQueryVersion", glXQueryVersion(dpy, &major, &minor) && (major > 1 || minor >= 3),
          "no GLX 1.3");

    const int config_attribs[] = {
        GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
        GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DOUBLEBUFFER, True,
        GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, GLX_ALPHA_SIZE, 8,
        None,
    };
    int n = 0;
    GLXFBConfig *configs = glXChooseFBConfig(dpy, screen, config_attribs, &n);
    check("glXChooseFBConfig", configs != NULL && n > 0, "no config");
    if (failures)
        return finish();
    GLXFBConfig config = configs[0];
    XFree(configs);
    XVisualInfo *visual = glXGetVisualFromFBConfig(dpy, config);
    check("glXGetVisualFromFBConfig", visual != NULL, "no visual");
    if (failures)
        return finish();

    Window root = RootWindow(dpy, screen);
    XSetWindowAttributes attributes = {0};
    attributes.colormap = XCreateColormap(dpy, root, visual->visual, AllocNone);
    attributes.event_mask = StructureNotifyMask;
    Window window = XCreateWindow(dpy, root, 0, 0, SCENE_SIZE, SCENE_SIZE, 0, visual->depth,
                                  InputOutput, visual->visual, CWColormap | CWEventMask,
                                  &attributes);
    XFree(visual);
    XMapWindow(dpy, window);
    for (XEvent event;;) {
        XNextEvent(dpy, &event);
        if (event.type == MapNotify)
            break;
    }

    CreateContextAttribs create_context_attribs = (CreateContextAttribs)glXGetProcAddressARB(
        (const GLubyte *)"glXCreateContextAttribsARB");
    check("glXGetProcAddressARB(glXCreateContextAttribsARB)", create_context_attribs != NULL,
          "null");
    if (failures)
        return finish();
    const int context_attribs[] = {
        GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
        GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
        None,
    };
    GLXContext ctx = create_context_attribs(dpy, config, NULL, True, context_attribs);
    check("glXCreateContextAttribsARB (3.3 core)", ctx != NULL, "no context");
    if (failures)
        return finish();
    check("glXMakeContextCurrent", glXMakeContextCurrent(dpy, window, window, ctx), "failed");
    check("glXGetCurrentContext", glXGetCurrentContext() == ctx, "not the context made current");
    if (failures)
        return finish();

    print_gl_strings();
    PFNGLUNIFORM4FPROC uniform4f =
        (PFNGLUNIFORM4FPROC)glXGetProcAddressARB((const GLubyte *)"glUniform4f");
    check("glXGetProcAddressARB(glUniform4f)", uniform4f != NULL, "null");
    if (failures)
        return finish();
    static unsigned char pixels[SCENE_SIZE * SCENE_SIZE * 4];
    draw_scene(uniform4f, pixels);
    print_hex("pixels", pixels, sizeof pixels);

    const char *extensions = glXQueryExtensionsString(dpy, screen);
    SwapIntervalExt swap_interval =
        (SwapIntervalExt)glXGetProcAddressARB((const GLubyte *)"glXSwapIntervalEXT");
    if (has_extension(extensions, "GLX_EXT_swap_control") && swap_interval) {
        swap_interval(dpy, window, 0);
        unsigned int interval = 99;
        glXQueryDrawable(dpy, window, GLX_SWAP_INTERVAL_EXT, &interval);
        printf("swap interval %u\n", interval);
    } else {
        printf("swap interval unsupported\n");
    }
    glXSwapBuffers(dpy, window);
    XSync(dpy, False);

    print_libraries();
    check("glXMakeContextCurrent (release)", glXMakeContextCurrent(dpy, None, None, NULL),
          "failed");
    check("nothing is current", glXGetCurrentContext() == NULL, "a context is");
    glXDestroyContext(dpy, ctx);
    XDestroyWindow(dpy, window);
    XCloseDisplay(dpy);
    return finish();
}

/*
 * The on-screen scene of scene.h in a GLFW 3 window on X11, its GL 3.3 core context created
 * through GLX (--api glx: GLFW_NATIVE_CONTEXT_API) or EGL (--api egl: GLFW_EGL_CONTEXT_API).
 * GL functions come from glfwGetProcAddress; the window's contents from XGetImage on
 * glfwGetX11Window. Options and output: scene.h.
 */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#define GLFW_EXPOSE_NATIVE_X11
#include <GLFW/glfw3native.h>

#include "scene.h"

static GLFWwindow *window;

static void on_error(int code, const char *description)
{
    fail("GLFW error 0x%x: %s", code, description);
}

static void *get_proc(const char *name)
{
    return (void *)glfwGetProcAddress(name);
}

static void pump(void)
{
    glfwPollEvents();
}

static void framebuffer_size(int *w, int *h)
{
    glfwGetFramebufferSize(window, w, h);
}

int main(int argc, char **argv)
{
    struct options o = parse_options(argc, argv);
    Display *dpy;
    Window xwindow;
    int w, h;

    glfwSetErrorCallback(on_error);
    if (!glfwInit())
        fail("glfwInit failed");
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_API);
    glfwWindowHint(GLFW_CONTEXT_CREATION_API,
                   o.api == API_EGL ? GLFW_EGL_CONTEXT_API : GLFW_NATIVE_CONTEXT_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_DOUBLEBUFFER, GLFW_TRUE);
    glfwWindowHint(GLFW_SAMPLES, o.samples);
    glfwWindowHint(GLFW_SRGB_CAPABLE, o.srgb ? GLFW_TRUE : GLFW_FALSE);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    window = glfwCreateWindow(o.width, o.height, "tessera window test", NULL, NULL);
    if (!window)
        fail("glfwCreateWindow failed");
    glfwMakeContextCurrent(window);
    if (o.interval >= 0) {
        glfwSwapInterval(o.interval);
        printf("interval %d\n", o.interval);
    }
    dpy = glfwGetX11Display();
    xwindow = glfwGetX11Window(window);
    if (!dpy || !xwindow)
        fail("no X11 display or window");
    wait_viewable(dpy, xwindow, pump);
    scene_init(get_proc, &o);

    for (int n = 0; n < o.frames; n++) {
        if (o.resize && n == 3) {
            resized(&o, &w, &h);
            glfwSetWindowSize(window, w, h);
            wait_size(dpy, xwindow, w, h, pump, framebuffer_size);
        }
        framebuffer_size(&w, &h);
        scene_draw(n, w, h);
        glfwSwapBuffers(window);
        scene_check(n);
        XSync(dpy, False);
        print_drawable_size(get_proc, o.api);
        dump_window(dpy, xwindow, n);
        glfwPollEvents();
    }
    glfwDestroyWindow(window);
    glfwTerminate();
    return 0;
}

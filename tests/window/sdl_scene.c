/*
 * The on-screen scene of scene.h in an SDL2 window on X11, its GL 3.3 core context created
 * through GLX (--api glx) or EGL (--api egl: the SDL_VIDEO_X11_FORCE_EGL hint). GL functions
 * come from SDL_GL_GetProcAddress; the window's contents from XGetImage on the X11 window of
 * SDL_GetWindowWMInfo. Options and output: scene.h.
 */
#include <SDL.h>
#include <SDL_syswm.h>

#include "scene.h"

static SDL_Window *window;

static void *get_proc(const char *name)
{
    return SDL_GL_GetProcAddress(name);
}

static void pump(void)
{
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
    }
}

static void framebuffer_size(int *w, int *h)
{
    SDL_GL_GetDrawableSize(window, w, h);
}

int main(int argc, char **argv)
{
    struct options o = parse_options(argc, argv);
    SDL_GLContext context;
    SDL_SysWMinfo info;
    Display *dpy;
    Window xwindow;
    int w, h;

    SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11");
    SDL_SetHint(SDL_HINT_VIDEO_X11_FORCE_EGL, o.api == API_EGL ? "1" : "0");
    if (SDL_Init(SDL_INIT_VIDEO) != 0)
        fail("SDL_Init: %s", SDL_GetError());
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, o.samples > 0);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, o.samples);
    SDL_GL_SetAttribute(SDL_GL_FRAMEBUFFER_SRGB_CAPABLE, o.srgb);
    window = SDL_CreateWindow("tessera window test", SDL_WINDOWPOS_UNDEFINED,
                              SDL_WINDOWPOS_UNDEFINED, o.width, o.height,
                              SDL_WINDOW_OPENGL | SDL_WINDOW_SHOWN | SDL_WINDOW_RESIZABLE);
    if (!window)
        fail("SDL_CreateWindow: %s", SDL_GetError());
    context = SDL_GL_CreateContext(window);
    if (!context)
        fail("SDL_GL_CreateContext: %s", SDL_GetError());
    if (SDL_GL_MakeCurrent(window, context) != 0)
        fail("SDL_GL_MakeCurrent: %s", SDL_GetError());
    if (o.interval >= 0) {
        /* Not fatal: Mesa's GLX on Xvfb (software, no DRI) offers no swap control
         * extension, and SDL says so; GLFW ignores it silently. */
        if (SDL_GL_SetSwapInterval(o.interval) != 0)
            printf("interval unsupported\n");
        else
            printf("interval %d\n", SDL_GL_GetSwapInterval());
    }
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11)
        fail("SDL_GetWindowWMInfo: not an X11 window: %s", SDL_GetError());
    dpy = info.info.x11.display;
    xwindow = info.info.x11.window;
    wait_viewable(dpy, xwindow, pump);
    scene_init(get_proc, &o);

    for (int n = 0; n < o.frames; n++) {
        if (o.resize && n == 3) {
            resized(&o, &w, &h);
            SDL_SetWindowSize(window, w, h);
            wait_size(dpy, xwindow, w, h, pump, framebuffer_size);
        }
        framebuffer_size(&w, &h);
        scene_draw(n, w, h);
        SDL_GL_SwapWindow(window);
        scene_check(n);
        XSync(dpy, False);
        print_drawable_size(get_proc, o.api);
        dump_window(dpy, xwindow, n);
        pump();
    }
    SDL_GL_DeleteContext(context);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return 0;
}

/*
 * The on-screen scene of scene.h in a Wayland window: a fullscreen xdg-shell toplevel whose
 * wl_surface is shown through a wl_egl_window and an EGL window surface (EGL loaded at run
 * time from libEGL.so.1, as toolkits do), with a GL 3.3 core context. The compositor centres
 * the surface on its output; the program never reads its own pixels back: the test takes
 * the compositor's screenshot of each frame (tests/tests/wayland.rs).
 *
 * Options: those of scene.h (--api must be egl; --samples and --srgb are not offered), and
 *   --step             after each frame, wait for a line on stdin (the test's screenshot)
 *   --get-display      eglGetDisplay / eglCreateWindowSurface instead of the EGL 1.5
 *                      platform calls (the display's platform is guessed)
 *   --zero             before frame 2, the wl_egl_window is resized to 0 x 0, a frame is
 *                      drawn and swapped, and it is resized back; prints
 *                      "zero swap <ok|0xNNNN>" and "zero size <w> <h>" (eglQuerySurface)
 *   --destroy          after frame 0, destroy the wl_egl_window under the surface, draw
 *                      frame 1 and report what eglSwapBuffers says, then clean up
 * Output: that of scene.h without the frame lines, and per frame n, once the compositor
 * has the frame (a round trip after the swap):
 *   size <w> <h>       eglQuerySurface's EGL_WIDTH / EGL_HEIGHT after the swap
 *   shown <n> <w>x<h>  the size of the wl_egl_window the frame was drawn for
 * With --destroy, instead of frame 1's lines:
 *   destroyed swap <ok|0xNNNN>   eglSwapBuffers' result (the EGL error)
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <wayland-client.h>
#include <wayland-egl.h>

#include "scene.h"
#include "xdg-shell-client-protocol.h"

#define EGL_FUNCTIONS(X)                                                                       \
    X(PFNEGLGETPROCADDRESSPROC, eglGetProcAddress)                                             \
    X(PFNEGLGETERRORPROC, eglGetError)                                                         \
    X(PFNEGLGETDISPLAYPROC, eglGetDisplay)                                                     \
    X(PFNEGLGETPLATFORMDISPLAYPROC, eglGetPlatformDisplay)                                     \
    X(PFNEGLINITIALIZEPROC, eglInitialize)                                                     \
    X(PFNEGLTERMINATEPROC, eglTerminate)                                                       \
    X(PFNEGLBINDAPIPROC, eglBindAPI)                                                           \
    X(PFNEGLCHOOSECONFIGPROC, eglChooseConfig)                                                 \
    X(PFNEGLGETCONFIGATTRIBPROC, eglGetConfigAttrib)                                           \
    X(PFNEGLCREATECONTEXTPROC, eglCreateContext)                                               \
    X(PFNEGLDESTROYCONTEXTPROC, eglDestroyContext)                                             \
    X(PFNEGLCREATEWINDOWSURFACEPROC, eglCreateWindowSurface)                                   \
    X(PFNEGLCREATEPLATFORMWINDOWSURFACEPROC, eglCreatePlatformWindowSurface)                   \
    X(PFNEGLDESTROYSURFACEPROC, eglDestroySurface)                                             \
    X(PFNEGLMAKECURRENTPROC, eglMakeCurrent)                                                   \
    X(PFNEGLSWAPBUFFERSPROC, eglSwapBuffers)                                                   \
    X(PFNEGLQUERYSURFACEPROC, eglQuerySurface)                                                 \
    X(PFNEGLSWAPINTERVALPROC, eglSwapInterval)

#define EGL_DECLARE(type, name) static type name;
EGL_FUNCTIONS(EGL_DECLARE)
#undef EGL_DECLARE

#ifndef EGL_PLATFORM_WAYLAND_KHR
#define EGL_PLATFORM_WAYLAND_KHR 0x31D8
#endif

static void load_egl(void)
{
    void *lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!lib)
        fail("dlopen libEGL.so.1: %s", dlerror());
#define EGL_LOAD(type, name)                                                                   \
    name = (type)dlsym(lib, #name);                                                            \
    if (!name)                                                                                 \
        fail("no " #name);
    EGL_FUNCTIONS(EGL_LOAD)
#undef EGL_LOAD
}

static void *get_proc(const char *name)
{
    return (void *)eglGetProcAddress(name);
}

/* ---- Wayland ---- */

static struct wl_compositor *compositor;
static struct xdg_wm_base *wm_base;
static int configured;

static void global(void *data, struct wl_registry *registry, uint32_t name,
                   const char *interface, uint32_t version)
{
    (void)data;
    (void)version;
    if (!strcmp(interface, wl_compositor_interface.name))
        compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
    else if (!strcmp(interface, xdg_wm_base_interface.name))
        wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
    (void)data;
    (void)registry;
    (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

static void ping(void *data, struct xdg_wm_base *base, uint32_t serial)
{
    (void)data;
    xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {ping};

static void surface_configure(void *data, struct xdg_surface *surface, uint32_t serial)
{
    (void)data;
    xdg_surface_ack_configure(surface, serial);
    configured = 1;
}

static const struct xdg_surface_listener xdg_surface_listener = {surface_configure};

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t w, int32_t h,
                               struct wl_array *states)
{
    (void)data;
    (void)toplevel;
    (void)w;
    (void)h;
    (void)states;
}

static void toplevel_close(void *data, struct xdg_toplevel *toplevel)
{
    (void)data;
    (void)toplevel;
}

/* Bound at version 1: configure_bounds and wm_capabilities never come. */
static const struct xdg_toplevel_listener toplevel_listener = {.configure = toplevel_configure,
                                                               .close = toplevel_close};

/*
 * The first config of 8-bit red, green, blue and alpha (an ARGB8888 window; the scene's
 * alpha is 1 everywhere), as toolkits match the sizes they ask for: eglChooseConfig alone
 * sorts deeper colour (10 bits) first. Mesa 22's llvmpipe leaves the clears of a window of
 * a config without alpha (XRGB8888) zero on Wayland, so that one is taken only when there
 * is no other.
 */
static EGLConfig choose_config(EGLDisplay dpy, const EGLint *attribs)
{
    EGLConfig configs[256];
    EGLint n = 0;
    EGLConfig found = NULL;
    if (!eglChooseConfig(dpy, attribs, configs, 256, &n) || n < 1)
        fail("eglChooseConfig: no config (0x%04x)", eglGetError());
    for (EGLint i = 0; i < n; i++) {
        EGLint r = 0, g = 0, b = 0, a = 0;
        eglGetConfigAttrib(dpy, configs[i], EGL_RED_SIZE, &r);
        eglGetConfigAttrib(dpy, configs[i], EGL_GREEN_SIZE, &g);
        eglGetConfigAttrib(dpy, configs[i], EGL_BLUE_SIZE, &b);
        eglGetConfigAttrib(dpy, configs[i], EGL_ALPHA_SIZE, &a);
        if (r != 8 || g != 8 || b != 8)
            continue;
        if (a == 8)
            return configs[i];
        if (!found)
            found = configs[i];
    }
    if (!found)
        fail("no config of 8-bit red, green and blue");
    return found;
}

/* Waits for a line on stdin (the test took its screenshot); EOF ends the program. */
static void step(int on)
{
    char line[64];
    if (on && !fgets(line, sizeof line, stdin))
        fail("stdin closed");
}

int main(int argc, char **argv)
{
    char *rest[64];
    int n_rest = 0, stepping = 0, get_display = 0, destroy = 0, zero = 0;
    struct options o;
    struct wl_display *display;
    struct wl_registry *registry;
    struct wl_surface *surface;
    struct xdg_surface *xdg_surface;
    struct xdg_toplevel *toplevel;
    struct wl_egl_window *egl_window;
    EGLDisplay dpy;
    EGLConfig config;
    EGLContext context;
    EGLSurface egl_surface;
    EGLint major, minor;
    int w, h;
    static const EGLint config_attribs[] = {EGL_SURFACE_TYPE,
                                            EGL_WINDOW_BIT,
                                            EGL_RENDERABLE_TYPE,
                                            EGL_OPENGL_BIT,
                                            EGL_RED_SIZE,
                                            8,
                                            EGL_GREEN_SIZE,
                                            8,
                                            EGL_BLUE_SIZE,
                                            8,
                                            EGL_NONE};
    static const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                             3,
                                             EGL_CONTEXT_MINOR_VERSION,
                                             3,
                                             EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                             EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                             EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE,
                                             EGL_TRUE,
                                             EGL_NONE};

    for (int i = 0; i < argc && n_rest < 64; i++) {
        if (!strcmp(argv[i], "--step"))
            stepping = 1;
        else if (!strcmp(argv[i], "--get-display"))
            get_display = 1;
        else if (!strcmp(argv[i], "--zero"))
            zero = 1;
        else if (!strcmp(argv[i], "--destroy"))
            destroy = 1;
        else
            rest[n_rest++] = argv[i];
    }
    o = parse_options(n_rest, rest);
    if (o.api != API_EGL || o.samples || o.srgb)
        fail("only --api egl, without --samples or --srgb");
    if (destroy && o.frames < 2)
        fail("--destroy needs 2 frames or more");
    setvbuf(stdout, NULL, _IOLBF, 0);

    display = wl_display_connect(NULL);
    if (!display)
        fail("wl_display_connect failed (WAYLAND_DISPLAY %s, XDG_RUNTIME_DIR %s): %s",
             getenv("WAYLAND_DISPLAY"), getenv("XDG_RUNTIME_DIR"), strerror(errno));
    registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!compositor || !wm_base)
        fail("the compositor offers no wl_compositor or xdg_wm_base");
    xdg_wm_base_add_listener(wm_base, &wm_base_listener, NULL);

    surface = wl_compositor_create_surface(compositor);
    xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
    xdg_surface_add_listener(xdg_surface, &xdg_surface_listener, NULL);
    toplevel = xdg_surface_get_toplevel(xdg_surface);
    xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
    xdg_toplevel_set_title(toplevel, "tessera wayland test");
    xdg_toplevel_set_fullscreen(toplevel, NULL);
    wl_surface_commit(surface);
    while (!configured)
        if (wl_display_dispatch(display) < 0)
            fail("the compositor went away before configuring the window");

    load_egl();
    if (get_display)
        dpy = eglGetDisplay((EGLNativeDisplayType)display);
    else
        dpy = eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, display, NULL);
    if (dpy == EGL_NO_DISPLAY)
        fail("no EGL display for the wl_display (0x%04x)", eglGetError());
    if (!eglInitialize(dpy, &major, &minor))
        fail("eglInitialize: 0x%04x", eglGetError());
    if (!eglBindAPI(EGL_OPENGL_API))
        fail("eglBindAPI: 0x%04x", eglGetError());
    config = choose_config(dpy, config_attribs);
    context = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
    if (context == EGL_NO_CONTEXT)
        fail("eglCreateContext: 0x%04x", eglGetError());
    egl_window = wl_egl_window_create(surface, o.width, o.height);
    if (!egl_window)
        fail("wl_egl_window_create failed");
    if (get_display)
        egl_surface = eglCreateWindowSurface(dpy, config, (EGLNativeWindowType)(uintptr_t)egl_window,
                                             NULL);
    else
        egl_surface = eglCreatePlatformWindowSurface(dpy, config, egl_window, NULL);
    if (egl_surface == EGL_NO_SURFACE)
        fail("creating the window surface: 0x%04x", eglGetError());
    if (!eglMakeCurrent(dpy, egl_surface, egl_surface, context))
        fail("eglMakeCurrent: 0x%04x", eglGetError());
    if (o.interval >= 0) {
        if (!eglSwapInterval(dpy, o.interval))
            fail("eglSwapInterval: 0x%04x", eglGetError());
        printf("interval %d\n", o.interval);
    }
    scene_init(get_proc, &o);

    w = o.width;
    h = o.height;
    for (int n = 0; n < o.frames; n++) {
        if (o.resize && n == 3) {
            resized(&o, &w, &h);
            wl_egl_window_resize(egl_window, w, h, 0, 0);
        }
        if (zero && n == 2) {
            /* The window shrinks to nothing for a frame, then comes back. */
            wl_egl_window_resize(egl_window, 0, 0, 0, 0);
            scene_draw(n, 0, 0);
            if (eglSwapBuffers(dpy, egl_surface))
                printf("zero swap ok\n");
            else
                printf("zero swap 0x%04x\n", eglGetError());
            EGLint zw = -1, zh = -1;
            eglQuerySurface(dpy, egl_surface, EGL_WIDTH, &zw);
            eglQuerySurface(dpy, egl_surface, EGL_HEIGHT, &zh);
            printf("zero size %d %d\n", zw, zh);
            wl_egl_window_resize(egl_window, w, h, 0, 0);
        }
        if (destroy && n == 1) {
            wl_egl_window_destroy(egl_window);
            egl_window = NULL;
            scene_draw(n, w, h);
            if (eglSwapBuffers(dpy, egl_surface))
                printf("destroyed swap ok\n");
            else
                printf("destroyed swap 0x%04x\n", eglGetError());
            break;
        }
        scene_draw(n, w, h);
        if (!eglSwapBuffers(dpy, egl_surface))
            fail("eglSwapBuffers of frame %d: 0x%04x", n, eglGetError());
        scene_check(n);
        print_drawable_size(get_proc, API_EGL);
        if (wl_display_roundtrip(display) < 0)
            fail("the compositor went away after frame %d", n);
        printf("shown %d %dx%d\n", n, w, h);
        step(stepping);
    }

    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroySurface(dpy, egl_surface);
    eglDestroyContext(dpy, context);
    eglTerminate(dpy);
    if (egl_window)
        wl_egl_window_destroy(egl_window);
    xdg_toplevel_destroy(toplevel);
    xdg_surface_destroy(xdg_surface);
    wl_surface_destroy(surface);
    xdg_wm_base_destroy(wm_base);
    wl_compositor_destroy(compositor);
    wl_registry_destroy(registry);
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    printf("done\n");
    return 0;
}

/*
 * eglSwapBuffersWithDamageKHR on an X11 window: frame 0 is red and declares the whole window
 * damaged; frame 1
 * is blue everywhere but declares only rows 8-15 (from the bottom) damaged; frame 2 is green
 * and swapped with no rectangles (the whole frame). After each swap the window is read back
 * with XGetImage and printed one letter per row, top row first (r, g, b, or ? for anything
 * else): "frame <n> <letters>". tests/tests/window.rs checks that the damaged rows show the
 * new frame (and, on Tessera, that only they do).
 */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <string.h>

#define W 64
#define H 48

static void print_rows(Display *dpy, Window win, int n)
{
	XSync(dpy, False);
	XImage *im = XGetImage(dpy, win, 0, 0, W, H, AllPlanes, ZPixmap);
	printf("frame %d ", n);
	for (int y = 0; y < H; y++) {
		unsigned long p = XGetPixel(im, 0, y) & 0xffffff;
		char c = p == 0xff0000 ? 'r' : p == 0x00ff00 ? 'g' : p == 0x0000ff ? 'b' : '?';
		for (int x = 1; x < W; x++)
			if ((XGetPixel(im, x, y) & 0xffffff) != p)
				c = '?';
		putchar(c);
	}
	putchar('\n');
	XDestroyImage(im);
}

int main(void)
{
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy)
		return 1;
	EGLDisplay e = eglGetDisplay((EGLNativeDisplayType)dpy);
	if (!eglInitialize(e, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API))
		return 1;
	const char *ext = eglQueryString(e, EGL_EXTENSIONS);
	printf("damage %s\n", ext && strstr(ext, "EGL_KHR_swap_buffers_with_damage") ? "yes" : "no");
	PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC swap = (PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC)
		eglGetProcAddress("eglSwapBuffersWithDamageKHR");
	EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
			    EGL_NONE};
	EGLConfig config;
	EGLint n = 0;
	if (!eglChooseConfig(e, attribs, &config, 1, &n) || n == 0 || !swap)
		return 1;
	EGLint vid = 0;
	eglGetConfigAttrib(e, config, EGL_NATIVE_VISUAL_ID, &vid);
	XVisualInfo tmpl = {.visualid = (VisualID)vid};
	int count = 0;
	XVisualInfo *vi = XGetVisualInfo(dpy, VisualIDMask, &tmpl, &count);
	if (!vi)
		return 1;
	XSetWindowAttributes swa = {0};
	swa.colormap = XCreateColormap(dpy, DefaultRootWindow(dpy), vi->visual, AllocNone);
	Window win = XCreateWindow(dpy, DefaultRootWindow(dpy), 0, 0, W, H, 0, vi->depth,
				   InputOutput, vi->visual, CWColormap, &swa);
	XMapWindow(dpy, win);
	XSync(dpy, False);
	EGLSurface s = eglCreateWindowSurface(e, config, (EGLNativeWindowType)win, NULL);
	EGLint ca[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
		       EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
		       EGL_NONE};
	EGLContext c = eglCreateContext(e, config, EGL_NO_CONTEXT, ca);
	if (s == EGL_NO_SURFACE || c == EGL_NO_CONTEXT || !eglMakeCurrent(e, s, s, c))
		return 1;
	eglSwapInterval(e, 1);
	const float colours[3][3] = {{1, 0, 0}, {0, 0, 1}, {0, 1, 0}};
	EGLint whole[4] = {0, 0, W, H};
	EGLint band[4] = {0, 8, W, 8};
	for (int f = 0; f < 3; f++) {
		glClearColor(colours[f][0], colours[f][1], colours[f][2], 1);
		glClear(GL_COLOR_BUFFER_BIT);
		if (!swap(e, s, f == 0 ? whole : f == 1 ? band : NULL, f < 2 ? 1 : 0))
			return 1;
		print_rows(dpy, win, f);
	}
	eglMakeCurrent(e, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglTerminate(e);
	XFree(vi);
	XCloseDisplay(dpy);
	printf("done\n");
	return 0;
}

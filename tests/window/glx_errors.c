/*
 * GLX as a program meets it, beyond drawing: configs and visuals, the errors
 * glXCreateContextAttribsARB sends through Xlib's error handler, a debug context's flag,
 * pbuffers, sizes after a resize, swap intervals, and a window destroyed under a current
 * context. One line per check
 * on stdout ("<check> <result>"); tests/tests/window/glx.rs runs it on Tessera (and on the
 * native driver, where the checks are the same) and compares the lines it names.
 */
#include <GL/glx.h>
#include <GL/glxext.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int last_error, error_base;

static int on_error(Display *dpy, XErrorEvent *e)
{
	(void)dpy;
	last_error = e->error_code;
	return 0;
}

/* The last X error, as "none", "core N" or "glx N" (N from the GLX error base). */
static const char *error_name(void)
{
	static char text[32];
	if (last_error == 0)
		return "none";
	if (last_error >= error_base && last_error < error_base + 32)
		snprintf(text, sizeof text, "glx %d", last_error - error_base);
	else
		snprintf(text, sizeof text, "core %d", last_error);
	last_error = 0;
	return text;
}

int main(void)
{
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy) {
		fprintf(stderr, "error: no display\n");
		return 1;
	}
	XSetErrorHandler(on_error);
	int event_base;
	printf("extension %d\n", glXQueryExtension(dpy, &error_base, &event_base));
	int major = 0, minor = 0;
	glXQueryVersion(dpy, &major, &minor);
	printf("version %d.%d\n", major, minor);

	int attribs[] = {GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT | GLX_PBUFFER_BIT, GLX_RENDER_TYPE,
			 GLX_RGBA_BIT, GLX_DOUBLEBUFFER, True, GLX_RED_SIZE, 8, GLX_DEPTH_SIZE, 24,
			 None};
	int n = 0;
	GLXFBConfig *configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attribs, &n);
	printf("configs %s\n", configs && n > 0 ? "some" : "none");
	if (!configs || n == 0)
		return 1;
	GLXFBConfig config = configs[0];
	int red = 0, depth = 0, visual_id = 0;
	glXGetFBConfigAttrib(dpy, config, GLX_RED_SIZE, &red);
	glXGetFBConfigAttrib(dpy, config, GLX_DEPTH_SIZE, &depth);
	glXGetFBConfigAttrib(dpy, config, GLX_VISUAL_ID, &visual_id);
	printf("config red %d depth>=24 %d\n", red, depth >= 24);
	XVisualInfo *vi = glXGetVisualFromFBConfig(dpy, config);
	printf("visual %s\n", vi && (int)vi->visualid == visual_id ? "matches" : "differs");

	PFNGLXCREATECONTEXTATTRIBSARBPROC create = (PFNGLXCREATECONTEXTATTRIBSARBPROC)
		glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
	/* A version no OpenGL specification defines: BadMatch. */
	int undefined[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 2, GLX_CONTEXT_MINOR_VERSION_ARB, 5,
			   None};
	GLXContext bad = create(dpy, config, NULL, True, undefined);
	XSync(dpy, False);
	printf("create 2.5 %s %s\n", bad ? "context" : "null", error_name());
	/* What every implementation of these tests offers. */
	int core33[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
			GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
	GLXContext ctx = create(dpy, config, NULL, True, core33);
	XSync(dpy, False);
	printf("create 3.3 core %s %s\n", ctx ? "context" : "null", error_name());
	/* Beyond what Tessera offers (the native driver may offer them). */
	int core46[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 4, GLX_CONTEXT_MINOR_VERSION_ARB, 6,
			GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
	GLXContext c46 = create(dpy, config, NULL, True, core46);
	XSync(dpy, False);
	printf("create 4.6 core %s %s\n", c46 ? "context" : "null", error_name());
	int compat[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
			GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB,
			None};
	GLXContext ccompat = create(dpy, config, NULL, True, compat);
	XSync(dpy, False);
	printf("create 3.3 compatibility %s %s\n", ccompat ? "context" : "null", error_name());
	if (!ctx)
		return 1;

	/* A pbuffer: made current, cleared, read back. */
	int pb_attribs[] = {GLX_PBUFFER_WIDTH, 32, GLX_PBUFFER_HEIGHT, 16, None};
	GLXPbuffer pb = glXCreatePbuffer(dpy, config, pb_attribs);
	unsigned w = 0, h = 0;
	glXQueryDrawable(dpy, pb, GLX_WIDTH, &w);
	glXQueryDrawable(dpy, pb, GLX_HEIGHT, &h);
	printf("pbuffer %ux%u\n", w, h);
	glXMakeContextCurrent(dpy, pb, pb, ctx);
	glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	unsigned char px[4] = {0};
	glReadPixels(4, 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	printf("pbuffer pixel %02x%02x%02x%02x\n", px[0], px[1], px[2], px[3]);

	/* A debug context (GLX_CONTEXT_DEBUG_BIT_ARB) reports its flag and starts with debug
	 * output on (KHR_debug); the plain one has neither. */
	int debug33[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
			 GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
			 GLX_CONTEXT_FLAGS_ARB, GLX_CONTEXT_DEBUG_BIT_ARB, None};
	GLXContext dctx = create(dpy, config, NULL, True, debug33);
	XSync(dpy, False);
	GLint flags = -1;
	GLboolean output = GL_FALSE;
	if (dctx && glXMakeContextCurrent(dpy, pb, pb, dctx)) {
		glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
		output = glIsEnabled(GL_DEBUG_OUTPUT);
	}
	printf("debug context %s flags 0x%x output %d %s\n", dctx ? "context" : "null", flags,
	       output, error_name());
	glXMakeContextCurrent(dpy, pb, pb, ctx);
	glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
	printf("plain context flags 0x%x output %d\n", flags, glIsEnabled(GL_DEBUG_OUTPUT));
	if (dctx)
		glXDestroyContext(dpy, dctx);

	/* A window: its size follows a resize; a swap interval is kept. */
	XSetWindowAttributes swa = {0};
	swa.colormap = XCreateColormap(dpy, DefaultRootWindow(dpy), vi->visual, AllocNone);
	Window win = XCreateWindow(dpy, DefaultRootWindow(dpy), 0, 0, 64, 48, 0, vi->depth,
				   InputOutput, vi->visual, CWColormap, &swa);
	XMapWindow(dpy, win);
	XSync(dpy, False);
	printf("make current %d\n", glXMakeCurrent(dpy, win, ctx));
	glXQueryDrawable(dpy, win, GLX_WIDTH, &w);
	glXQueryDrawable(dpy, win, GLX_HEIGHT, &h);
	printf("window %ux%u\n", w, h);
	XResizeWindow(dpy, win, 80, 40);
	XSync(dpy, False);
	glXQueryDrawable(dpy, win, GLX_WIDTH, &w);
	glXQueryDrawable(dpy, win, GLX_HEIGHT, &h);
	printf("resized %ux%u\n", w, h);
	const char *extensions = glXQueryExtensionsString(dpy, DefaultScreen(dpy));
	PFNGLXSWAPINTERVALEXTPROC interval =
		(PFNGLXSWAPINTERVALEXTPROC)glXGetProcAddressARB((const GLubyte *)"glXSwapIntervalEXT");
	if (strstr(extensions, "GLX_EXT_swap_control")) {
		interval(dpy, win, 0);
		unsigned v = 9;
		glXQueryDrawable(dpy, win, GLX_SWAP_INTERVAL_EXT, &v);
		printf("interval %u\n", v);
	} else {
		printf("interval unsupported\n");
	}
	glClear(GL_COLOR_BUFFER_BIT);
	glXSwapBuffers(dpy, win);
	XSync(dpy, False);
	printf("swap %s\n", error_name());

	/* The window goes away under the current context: no crash, whatever error. */
	XDestroyWindow(dpy, win);
	XSync(dpy, False);
	glClear(GL_COLOR_BUFFER_BIT);
	glXSwapBuffers(dpy, win);
	XSync(dpy, False);
	error_name();
	printf("release %d\n", glXMakeCurrent(dpy, None, NULL));

	/* Forty windows made current without glXCreateWindow, each destroyed after a frame:
	 * GLX forgets the gone ones (past a few dozen) and the next window still works. */
	int ok = 1;
	for (int i = 0; i < 41; i++) {
		Window w2 = XCreateWindow(dpy, DefaultRootWindow(dpy), 0, 0, 16, 16, 0, vi->depth,
					  InputOutput, vi->visual, CWColormap, &swa);
		XMapWindow(dpy, w2);
		XSync(dpy, False);
		ok &= glXMakeCurrent(dpy, w2, ctx);
		glClear(GL_COLOR_BUFFER_BIT);
		glXSwapBuffers(dpy, w2);
		if (i < 40) {
			glXMakeCurrent(dpy, None, NULL);
			XDestroyWindow(dpy, w2);
			XSync(dpy, False);
		} else {
			glReadPixels(4, 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
			ok &= px[2] == 0xbf;
			glXMakeCurrent(dpy, None, NULL);
			XDestroyWindow(dpy, w2);
		}
	}
	XSync(dpy, False);
	printf("many windows %s %s\n", ok ? "ok" : "failed", error_name());
	glXDestroyPbuffer(dpy, pb);
	glXDestroyContext(dpy, ctx);
	XFree(vi);
	XFree(configs);
	XCloseDisplay(dpy);
	printf("done\n");
	return 0;
}

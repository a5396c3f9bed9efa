/*
 * A single-buffered GLX window (GLX_DOUBLEBUFFER False): what is drawn is shown in the
 * window at glFlush, glFinish and glXWaitGL, never swapped. Frame 0 is a red clear with a
 * blue quad drawn over part of it, then glFlush; frame 1 a green clear with a scissored
 * yellow box, then glFinish; frame 2 a blue clear, then glXWaitGL; frame 3 a white clear
 * followed by glXSwapBuffers (no glFlush). After each, the window is read back with XGetImage
 * and printed as "frame <n> <w>x<h> <hex>" (0xrrggbb per pixel, rows from the top). Also
 * printed: the config's GLX_DOUBLEBUFFER, the default draw and read buffers, what
 * glDrawBuffer(GL_BACK) and glReadBuffer(GL_FRONT) answer, and a pixel read from GL_FRONT.
 */
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>

#define W 64
#define H 48

static void print_frame(Display *dpy, Window win, int n)
{
	XSync(dpy, False);
	XImage *im = XGetImage(dpy, win, 0, 0, W, H, AllPlanes, ZPixmap);
	if (!im) {
		printf("frame %d none\n", n);
		return;
	}
	printf("frame %d %dx%d ", n, W, H);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			printf("%06lx", XGetPixel(im, x, y) & 0xffffff);
	putchar('\n');
	XDestroyImage(im);
}

static const char *vs = "#version 330 core\n"
			"layout(location = 0) in vec2 p;\n"
			"void main() { gl_Position = vec4(p, 0.0, 1.0); }\n";
static const char *fs = "#version 330 core\n"
			"out vec4 colour;\n"
			"void main() { colour = vec4(0.0, 0.0, 1.0, 1.0); }\n";

static GLuint shader(GLenum kind, const char *src)
{
	GLuint s = glCreateShader(kind);
	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	return s;
}

int main(void)
{
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy)
		return 1;
	int attribs[] = {GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT,
			 GLX_DOUBLEBUFFER, False, GLX_RED_SIZE, 8, None};
	int n = 0;
	GLXFBConfig *configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attribs, &n);
	printf("configs %s\n", configs && n > 0 ? "some" : "none");
	if (!configs || n == 0)
		return 1;
	GLXFBConfig config = configs[0];
	int double_buffer = -1;
	glXGetFBConfigAttrib(dpy, config, GLX_DOUBLEBUFFER, &double_buffer);
	printf("doublebuffer %d\n", double_buffer);
	XVisualInfo *vi = glXGetVisualFromFBConfig(dpy, config);
	if (!vi)
		return 1;
	XSetWindowAttributes swa = {0};
	swa.colormap = XCreateColormap(dpy, DefaultRootWindow(dpy), vi->visual, AllocNone);
	Window win = XCreateWindow(dpy, DefaultRootWindow(dpy), 0, 0, W, H, 0, vi->depth,
				   InputOutput, vi->visual, CWColormap, &swa);
	XMapWindow(dpy, win);
	XSync(dpy, False);
	PFNGLXCREATECONTEXTATTRIBSARBPROC create = (PFNGLXCREATECONTEXTATTRIBSARBPROC)
		glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
	int core33[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
			GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
	GLXContext ctx = create(dpy, config, NULL, True, core33);
	if (!ctx || !glXMakeCurrent(dpy, win, ctx))
		return 1;

	GLint draw = 0, read = 0;
	glGetIntegerv(GL_DRAW_BUFFER, &draw);
	glGetIntegerv(GL_READ_BUFFER, &read);
	printf("buffers draw 0x%x read 0x%x\n", draw, read);
	/* GL 4.6 §17.4.1: on a single-buffered default framebuffer BACK names the front. */
	glDrawBuffer(GL_BACK);
	glGetIntegerv(GL_DRAW_BUFFER, &draw);
	printf("drawbuffer back 0x%x now 0x%x\n", glGetError(), draw);
	glDrawBuffer(GL_BACK_LEFT);
	printf("drawbuffer back_left 0x%x\n", glGetError());
	glReadBuffer(GL_FRONT);
	printf("readbuffer front 0x%x\n", glGetError());
	glDrawBuffer(GL_FRONT);
	printf("drawbuffer front 0x%x\n", glGetError());

	/* Frame 0: red, and a blue quad over pixels 16-47 x 12-35 (pixel-aligned edges). */
	GLuint prog = glCreateProgram();
	glAttachShader(prog, shader(GL_VERTEX_SHADER, vs));
	glAttachShader(prog, shader(GL_FRAGMENT_SHADER, fs));
	glLinkProgram(prog);
	const float quad[] = {-0.5f, -0.5f, 0.5f, -0.5f, -0.5f, 0.5f, 0.5f, 0.5f};
	GLuint vao, vbo;
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glGenBuffers(1, &vbo);
	glBindBuffer(GL_ARRAY_BUFFER, vbo);
	glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
	glEnableVertexAttribArray(0);
	glViewport(0, 0, W, H);
	glClearColor(1, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glUseProgram(prog);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	glFlush();
	print_frame(dpy, win, 0);
	unsigned char px[4] = {0};
	glReadPixels(W / 2, H / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	printf("front pixel %02x%02x%02x%02x\n", px[0], px[1], px[2], px[3]);

	/* Frame 1: green, a yellow box at 4-11 x 4-7 from the bottom left; glFinish. */
	glClearColor(0, 1, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glEnable(GL_SCISSOR_TEST);
	glScissor(4, 4, 8, 4);
	glClearColor(1, 1, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glDisable(GL_SCISSOR_TEST);
	glFinish();
	print_frame(dpy, win, 1);

	/* Frame 2: blue; glXWaitGL. */
	glClearColor(0, 0, 1, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glXWaitGL();
	print_frame(dpy, win, 2);

	/* Frame 3: white, then glXSwapBuffers alone. */
	glClearColor(1, 1, 1, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glXSwapBuffers(dpy, win);
	print_frame(dpy, win, 3);

	glXMakeCurrent(dpy, None, NULL);
	glXDestroyContext(dpy, ctx);
	XDestroyWindow(dpy, win);
	XFree(vi);
	XFree(configs);
	XCloseDisplay(dpy);
	printf("done\n");
	return 0;
}

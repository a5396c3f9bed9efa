/*
 * The on-screen benchmark: frames per second and CPU per frame of a window on X11, through
 * GLX or EGL, with swap interval 0. scripts/bench-window runs it on native drivers and on
 * Tessera and prints the table.
 *
 *   swap_bench --api glx|egl --mode clear|scene [--size WxH] [--frames N]
 *
 * clear: each frame clears the window to a colour of the frame number and swaps.
 * scene: each frame renders a 64x64 pattern into a texture, then clears the window and draws
 *        48 textured quads over it (every third blended), and swaps — the shape of the
 *        built-in demo scene.
 * After 20 warm-up frames, N frames (default 300) are timed. Output, one line:
 *   fps <frames per second> user_us <user CPU per frame> sys_us <system CPU per frame>
 * CPU is the process's (getrusage), all threads.
 */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <GL/glcorearb.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef GLXContext (*create_context_attribs)(Display *, GLXFBConfig, GLXContext, Bool, const int *);
typedef void (*swap_interval_ext)(Display *, GLXDrawable, int);

static void die(const char *what)
{
	fprintf(stderr, "error: %s\n", what);
	exit(1);
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static double cpu_us(int user)
{
	struct rusage r;
	getrusage(RUSAGE_SELF, &r);
	struct timeval t = user ? r.ru_utime : r.ru_stime;
	return t.tv_sec * 1e6 + t.tv_usec;
}

static GLuint shader(GLenum kind, const char *src)
{
	GLuint s = glCreateShader(kind);
	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	GLint ok = 0;
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok)
		die("shader compile");
	return s;
}

static GLuint program(const char *vs, const char *fs)
{
	GLuint p = glCreateProgram();
	glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
	glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
	glBindAttribLocation(p, 0, "pos");
	glLinkProgram(p);
	GLint ok = 0;
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok)
		die("program link");
	return p;
}

int main(int argc, char **argv)
{
	const char *api = "glx", *mode = "clear";
	int w = 1280, h = 720, frames = 300;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--api"))
			api = argv[i + 1];
		else if (!strcmp(argv[i], "--mode"))
			mode = argv[i + 1];
		else if (!strcmp(argv[i], "--size"))
			sscanf(argv[i + 1], "%dx%d", &w, &h);
		else if (!strcmp(argv[i], "--frames"))
			frames = atoi(argv[i + 1]);
	}
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy)
		die("no X display");
	Window win = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 0, 0, w, h, 0, 0, 0);
	XMapWindow(dpy, win);
	XSync(dpy, False);
	int glx = !strcmp(api, "glx");
	EGLDisplay edpy = EGL_NO_DISPLAY;
	EGLSurface esurf = EGL_NO_SURFACE;
	if (glx) {
		int attribs[] = {GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT,
				 GLX_DOUBLEBUFFER, True, GLX_DEPTH_SIZE, 24, None};
		int n = 0;
		GLXFBConfig *configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attribs, &n);
		if (!configs || n == 0)
			die("glXChooseFBConfig");
		create_context_attribs create = (create_context_attribs)glXGetProcAddressARB(
			(const GLubyte *)"glXCreateContextAttribsARB");
		int ca[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
			    GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
		GLXContext ctx = create(dpy, configs[0], NULL, True, ca);
		if (!ctx || !glXMakeCurrent(dpy, win, ctx))
			die("GLX context");
		swap_interval_ext interval = (swap_interval_ext)glXGetProcAddressARB(
			(const GLubyte *)"glXSwapIntervalEXT");
		if (interval)
			interval(dpy, win, 0);
		XFree(configs);
	} else {
		edpy = eglGetDisplay((EGLNativeDisplayType)dpy);
		if (!eglInitialize(edpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API))
			die("eglInitialize");
		EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE,
				    EGL_OPENGL_BIT, EGL_DEPTH_SIZE, 24, EGL_NONE};
		EGLConfig config;
		EGLint n = 0;
		if (!eglChooseConfig(edpy, attribs, &config, 1, &n) || n == 0)
			die("eglChooseConfig");
		esurf = eglCreateWindowSurface(edpy, config, (EGLNativeWindowType)win, NULL);
		EGLint ca[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
			       EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
			       EGL_NONE};
		EGLContext ctx = eglCreateContext(edpy, config, EGL_NO_CONTEXT, ca);
		if (esurf == EGL_NO_SURFACE || ctx == EGL_NO_CONTEXT ||
		    !eglMakeCurrent(edpy, esurf, esurf, ctx))
			die("EGL context");
		eglSwapInterval(edpy, 0);
	}

	int scene = !strcmp(mode, "scene");
	GLuint pattern = 0, object = 0, fbo = 0, target = 0, vao = 0, phase = 0, mvp = 0,
	       tint = 0;
	if (scene) {
		pattern = program("#version 330 core\nin vec2 pos;\nout vec2 uv;\n"
				  "void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0, 1); }\n",
				  "#version 330 core\nin vec2 uv;\nuniform float phase;\nout vec4 c;\n"
				  "void main() { float k = step(0.5, fract((uv.x + uv.y) * 4.0 + phase));"
				  " c = vec4(k, uv, 1); }\n");
		object = program("#version 330 core\nin vec2 pos;\nuniform mat4 mvp;\nout vec2 uv;\n"
				 "void main() { uv = pos * 0.5 + 0.5; gl_Position = mvp * vec4(pos, 0, 1); }\n",
				 "#version 330 core\nin vec2 uv;\nuniform sampler2D tex;\nuniform vec4 tint;\n"
				 "out vec4 c;\nvoid main() { c = texture(tex, uv) * tint; }\n");
		phase = glGetUniformLocation(pattern, "phase");
		mvp = glGetUniformLocation(object, "mvp");
		tint = glGetUniformLocation(object, "tint");
		glGenTextures(1, &target);
		glBindTexture(GL_TEXTURE_2D, target);
		glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
		glGenFramebuffers(1, &fbo);
		glBindFramebuffer(GL_FRAMEBUFFER, fbo);
		glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
		static const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
		GLuint vbo;
		glGenVertexArrays(1, &vao);
		glBindVertexArray(vao);
		glGenBuffers(1, &vbo);
		glBindBuffer(GL_ARRAY_BUFFER, vbo);
		glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
		glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
		glEnableVertexAttribArray(0);
		glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
		glEnable(GL_DEPTH_TEST);
	}

	double t0 = 0, u0 = 0, s0 = 0;
	for (int f = 0; f < frames + 20; f++) {
		if (f == 20) {
			glFinish();
			t0 = now_s();
			u0 = cpu_us(1);
			s0 = cpu_us(0);
		}
		if (scene) {
			glBindFramebuffer(GL_FRAMEBUFFER, fbo);
			glViewport(0, 0, 64, 64);
			glClear(GL_COLOR_BUFFER_BIT);
			glUseProgram(pattern);
			glUniform1f(phase, f * 0.25f);
			glDisable(GL_BLEND);
			glDrawArrays(GL_TRIANGLES, 0, 6);
			glBindFramebuffer(GL_FRAMEBUFFER, 0);
			glViewport(0, 0, w, h);
			glClearColor(0.1f, 0.1f, 0.15f, 1);
			glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
			glUseProgram(object);
			for (int i = 0; i < 48; i++) {
				float a = i * 0.7f + f * 0.02f;
				if (i % 3 == 0)
					glEnable(GL_BLEND);
				else
					glDisable(GL_BLEND);
				glUniform4f(tint, 1, 1, 1, i % 3 == 0 ? 0.5f : 1.0f);
				float m[16] = {0.25f, 0, 0, 0, 0, 0.25f, 0, 0, 0, 0, 1, 0,
					       0.6f * __builtin_cosf(a), 0.6f * __builtin_sinf(a), 0, 1};
				glUniformMatrix4fv(mvp, 1, GL_FALSE, m);
				glDrawArrays(GL_TRIANGLES, 0, 6);
			}
		} else {
			glClearColor((f % 64) / 63.0f, 0.5f, 0.25f, 1);
			glClear(GL_COLOR_BUFFER_BIT);
		}
		if (glx)
			glXSwapBuffers(dpy, win);
		else
			eglSwapBuffers(edpy, esurf);
	}
	glFinish();
	XSync(dpy, False);
	double t = now_s() - t0;
	if (glGetError() != GL_NO_ERROR)
		die("GL error");
	printf("fps %.1f user_us %.0f sys_us %.0f\n", frames / t, (cpu_us(1) - u0) / frames,
	       (cpu_us(0) - s0) / frames);
	return 0;
}

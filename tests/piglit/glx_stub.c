/*
 * GLX symbols for piglit's libpiglitutil_gl.so.0 when it runs on Tessera's drop-in.
 *
 * Debian's piglit links its GL utility library against libGL.so.1 with BIND_NOW, so every GLX
 * function that library references must resolve when a test starts, even on the surfaceless
 * EGL platform where none is called. Tessera's libGL.so.1 exports EGL and GL but no GLX, so
 * scripts/piglit preloads this object. Its functions return "nothing" (NULL / False), except
 * glXGetProcAddress(ARB): piglit's dispatch resolves every GL function through it, and it
 * answers with the drop-in's eglGetProcAddress.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

typedef void (*proc)(void);
typedef proc (*get_proc_address)(const char *);

static proc egl_proc_address(const char *name)
{
	static get_proc_address egl_get_proc_address;
	if (!egl_get_proc_address)
		egl_get_proc_address =
			(get_proc_address)dlsym(RTLD_DEFAULT, "eglGetProcAddress");
	return egl_get_proc_address ? egl_get_proc_address(name) : NULL;
}

proc glXGetProcAddress(const unsigned char *name)
{
	return egl_proc_address((const char *)name);
}

proc glXGetProcAddressARB(const unsigned char *name)
{
	return egl_proc_address((const char *)name);
}

/* The rest are never reached on the surfaceless platform; each answers "none". */
#define NOTHING(name) \
	void *name(void) { return NULL; }

NOTHING(glXChooseVisual)
NOTHING(glXCreateContext)
NOTHING(glXCreateNewContext)
NOTHING(glXCreatePixmap)
NOTHING(glXDestroyContext)
NOTHING(glXGetCurrentDisplay)
NOTHING(glXGetCurrentDrawable)
NOTHING(glXGetFBConfigAttrib)
NOTHING(glXGetFBConfigs)
NOTHING(glXGetVisualFromFBConfig)
NOTHING(glXMakeCurrent)
NOTHING(glXQueryExtension)
NOTHING(glXQueryExtensionsString)
NOTHING(glXQueryVersion)

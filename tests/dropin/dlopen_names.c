/*
 * Loads the GL libraries by their unversioned names, as Python GL bindings do
 * (dlopen("libEGL.so"), "libGL.so", "libOpenGL.so"), and says which file each one is. It
 * is linked with no GL library, so nothing is loaded before the dlopen calls.
 *
 * Output, one line per name: "<name> <real path of the file defining its first symbol>";
 * then "egl version <eglQueryString(EGL_NO_DISPLAY, EGL_VERSION)>" from libEGL.so. A name
 * that does not load prints "<name> dlopen failed: <dlerror>" and the exit status is 1.
 * tests/tests/dropin.rs runs it with the drop-in directory on LD_LIBRARY_PATH (every name
 * must be Tessera's library) and without (none may be).
 */

#define _GNU_SOURCE
#include <EGL/egl.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    static const char *const names[][2] = {
        {"libEGL.so", "eglGetProcAddress"},
        {"libGL.so", "glClear"},
        {"libOpenGL.so", "glClear"},
    };
    int status = 0;
    void *egl = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *lib = dlopen(names[i][0], RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            printf("%s dlopen failed: %s\n", names[i][0], dlerror());
            status = 1;
            continue;
        }
        if (i == 0)
            egl = lib;
        void *symbol = dlsym(lib, names[i][1]);
        Dl_info info;
        char real[PATH_MAX];
        if (!symbol || !dladdr(symbol, &info) || !info.dli_fname ||
            !realpath(info.dli_fname, real)) {
            printf("%s no %s\n", names[i][0], names[i][1]);
            status = 1;
            continue;
        }
        printf("%s %s\n", names[i][0], real);
        /* Never closed: a library that ran code may have thread-exit destructors. */
    }
    if (egl) {
        const char *(*query_string)(EGLDisplay, EGLint) =
            (const char *(*)(EGLDisplay, EGLint))dlsym(egl, "eglQueryString");
        const char *version = query_string ? query_string(EGL_NO_DISPLAY, EGL_VERSION) : NULL;
        printf("egl version %s\n", version ? version : "(null)");
    }
    return status;
}

/*
 * KHR_debug through the C ABI: a transcript of what the GL reports, one observation per
 * line, which tests/tests/dropin.rs compares line for line between the native driver and
 * Tessera. Messages the application inserts are printed whole; messages the GL generates
 * (errors) by source, type and severity only, since their ids and words are each
 * implementation's own.
 *
 * Covered: the limits and initial state of a plain and of a debug context (EGL 1.5's
 * EGL_CONTEXT_OPENGL_DEBUG), the enables, every error of the debug entry points, the log
 * (order, overflow, partial reads), filtering by source/type/severity and by id, debug
 * groups (their messages and per-group filters), the callback (its arguments, the pointers
 * glGetPointerv returns, no logging while it is set), and labels of every object kind.
 */

#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

static void error(const char *what)
{
    printf("%s: error 0x%04x\n", what, glGetError());
}

static GLint integer(GLenum pname)
{
    GLint v = -1;
    glGetIntegerv(pname, &v);
    return v;
}

static void state(const char *when)
{
    printf("%s: output %d sync %d flags 0x%x logged %d next %d depth %d\n", when,
           glIsEnabled(GL_DEBUG_OUTPUT), glIsEnabled(GL_DEBUG_OUTPUT_SYNCHRONOUS),
           integer(GL_CONTEXT_FLAGS), integer(GL_DEBUG_LOGGED_MESSAGES),
           integer(GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH), integer(GL_DEBUG_GROUP_STACK_DEPTH));
}

/* Prints and removes every logged message, oldest first. */
static void drain(const char *when)
{
    GLenum source, type, severity;
    GLuint id;
    GLsizei length;
    char text[4096];
    int n = 0;
    while (glGetDebugMessageLog(1, sizeof text, &source, &type, &id, &severity, &length, text)) {
        n++;
        if (source == GL_DEBUG_SOURCE_APPLICATION || source == GL_DEBUG_SOURCE_THIRD_PARTY)
            printf("%s: message 0x%x 0x%x %u 0x%x %d \"%s\"\n", when, source, type, id, severity,
                   length, text);
        else
            printf("%s: message 0x%x 0x%x 0x%x (generated)\n", when, source, type, severity);
    }
    printf("%s: %d messages\n", when, n);
}

static void insert(GLuint id, GLenum severity, const char *text)
{
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, id, severity, -1,
                         text);
}

struct seen {
    int calls;
    GLenum source, type, severity;
    GLuint id;
    GLsizei length;
    char text[64];
    const void *user;
};

static void APIENTRY callback(GLenum source, GLenum type, GLuint id, GLenum severity,
                              GLsizei length, const GLchar *message, const void *user)
{
    struct seen *s = (struct seen *)user;
    s->calls++;
    s->source = source;
    s->type = type;
    s->id = id;
    s->severity = severity;
    s->length = length;
    snprintf(s->text, sizeof s->text, "%s", message);
    s->user = user;
    /* GL leaves calls from the callback undefined; they must at least return. */
    (void)glGetString(GL_VENDOR);
    (void)eglGetCurrentContext();
}

static void limits_and_errors(void)
{
    printf("max length %d logged %d depth %d label %d\n", integer(GL_MAX_DEBUG_MESSAGE_LENGTH),
           integer(GL_MAX_DEBUG_LOGGED_MESSAGES), integer(GL_MAX_DEBUG_GROUP_STACK_DEPTH),
           integer(GL_MAX_LABEL_LENGTH));
    error("limits");

    glDebugMessageInsert(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_MARKER, 1, GL_DEBUG_SEVERITY_LOW, -1,
                         "x");
    error("insert from the API source");
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 1, GL_DONT_CARE, -1,
                         "x");
    error("insert with DONT_CARE severity");
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_BUFFER, 1, GL_DEBUG_SEVERITY_LOW, -1,
                         "x");
    error("insert with a bad type");
    static char long_text[5000];
    memset(long_text, 'a', sizeof long_text - 1);
    GLint max = integer(GL_MAX_DEBUG_MESSAGE_LENGTH);
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 1,
                         GL_DEBUG_SEVERITY_LOW, max, long_text);
    error("insert of the maximum length");
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 1,
                         GL_DEBUG_SEVERITY_LOW, max - 1, long_text);
    error("insert of one less");
    long_text[max] = 0;
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 1,
                         GL_DEBUG_SEVERITY_LOW, -1, long_text);
    error("insert of the maximum length, NUL-terminated");

    GLuint ids[2] = {1, 2};
    glDebugMessageControl(GL_DONT_CARE, GL_DEBUG_TYPE_MARKER, GL_DONT_CARE, 2, ids, GL_FALSE);
    error("control of ids with any source");
    glDebugMessageControl(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER,
                          GL_DEBUG_SEVERITY_LOW, 2, ids, GL_FALSE);
    error("control of ids with a severity");
    glDebugMessageControl(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, GL_DONT_CARE, -1, ids,
                          GL_FALSE);
    error("control with a negative count");
    glDebugMessageControl(GL_BUFFER, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_FALSE);
    error("control with a bad source");
    glDebugMessageControl(GL_DONT_CARE, GL_BUFFER, GL_DONT_CARE, 0, NULL, GL_FALSE);
    error("control with a bad type");
    glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_BUFFER, 0, NULL, GL_FALSE);
    error("control with a bad severity");

    char text[8];
    GLuint got = glGetDebugMessageLog(1, -1, NULL, NULL, NULL, NULL, NULL, text);
    printf("log with a negative size: %u\n", got);
    error("log with a negative size");

    glPushDebugGroup(GL_DEBUG_SOURCE_API, 1, -1, "x");
    error("push from the API source");
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, max, long_text);
    error("push of the maximum length");
    glPopDebugGroup();
    error("pop of the default group");
    GLint depth = integer(GL_MAX_DEBUG_GROUP_STACK_DEPTH);
    for (int i = 1; i < depth; i++)
        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, i, -1, "g");
    error("pushes to the maximum depth");
    printf("depth %d\n", integer(GL_DEBUG_GROUP_STACK_DEPTH));
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, -1, "g");
    error("push past the maximum depth");
    for (int i = 1; i < depth; i++)
        glPopDebugGroup();
    error("pops back to the default group");
    printf("depth %d\n", integer(GL_DEBUG_GROUP_STACK_DEPTH));
    drain("errors");
}

static void log_and_filters(void)
{
    glEnable(GL_DEBUG_OUTPUT);
    state("enabled");
    drain("before");
    insert(1, GL_DEBUG_SEVERITY_HIGH, "high");
    insert(2, GL_DEBUG_SEVERITY_MEDIUM, "medium");
    insert(3, GL_DEBUG_SEVERITY_LOW, "low (disabled by default)");
    insert(4, GL_DEBUG_SEVERITY_NOTIFICATION, "notification");
    glDebugMessageInsert(GL_DEBUG_SOURCE_THIRD_PARTY, GL_DEBUG_TYPE_OTHER, 5,
                         GL_DEBUG_SEVERITY_HIGH, 5, "third party, cut");
    state("inserted");
    drain("inserted");

    /* Generated: every error is a message. */
    glEnable(GL_BUFFER);
    glBindBuffer(GL_ARRAY_BUFFER, 12345);
    error("errors");
    /* Not state(): the next message's length is that of the implementation's words. */
    printf("errors: logged %d\n", integer(GL_DEBUG_LOGGED_MESSAGES));
    drain("errors");

    /* Overflow keeps the oldest; a partial read stops at the first message that does not fit. */
    char text[64];
    for (int i = 0; i < 20; i++) {
        snprintf(text, sizeof text, "message %d", i);
        insert(100 + i, GL_DEBUG_SEVERITY_HIGH, text);
    }
    state("overflowed");
    GLenum sources[4], types[4], severities[4];
    GLuint ids[4];
    GLsizei lengths[4];
    char buffer[24];
    memset(buffer, '#', sizeof buffer);
    GLuint got = glGetDebugMessageLog(4, sizeof buffer, sources, types, ids, severities, lengths,
                                      buffer);
    printf("partial: %u", got);
    for (GLuint i = 0; i < got; i++)
        printf(" [%u %d]", ids[i], lengths[i]);
    printf(" \"%s\" \"%s\"\n", buffer, buffer + lengths[0]);
    got = glGetDebugMessageLog(2, 0, sources, types, ids, severities, lengths, NULL);
    printf("no text: %u [%u %d] [%u %d]\n", got, ids[0], lengths[0], ids[1], lengths[1]);
    state("partly read");
    drain("overflowed");

    /* An empty message, a zero count, the log read through glGetIntegerv and glGetBooleanv. */
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 99,
                         GL_DEBUG_SEVERITY_HIGH, 0, "not this");
    got = glGetDebugMessageLog(0, sizeof buffer, sources, types, ids, severities, lengths, buffer);
    GLboolean on = GL_FALSE;
    glGetBooleanv(GL_DEBUG_OUTPUT, &on);
    printf("empty: %u logged %d next %d output %d\n", got, integer(GL_DEBUG_LOGGED_MESSAGES),
           integer(GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH), on);
    drain("empty");

    /* Filters: by severity, by id, by source; DONT_CARE everywhere resets. */
    glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_LOW, 0, NULL, GL_TRUE);
    GLuint quiet[2] = {7, 8};
    glDebugMessageControl(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, GL_DONT_CARE, 2, quiet,
                          GL_FALSE);
    error("controls");
    insert(6, GL_DEBUG_SEVERITY_LOW, "low, enabled");
    insert(7, GL_DEBUG_SEVERITY_HIGH, "id 7, disabled");
    insert(8, GL_DEBUG_SEVERITY_LOW, "id 8, disabled");
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_OTHER, 7,
                         GL_DEBUG_SEVERITY_HIGH, -1, "id 7 of another type");
    glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_HIGH, 0, NULL, GL_TRUE);
    insert(7, GL_DEBUG_SEVERITY_HIGH, "id 7, high enabled again");
    insert(8, GL_DEBUG_SEVERITY_LOW, "id 8 still disabled");
    glDebugMessageControl(GL_DEBUG_SOURCE_THIRD_PARTY, GL_DONT_CARE, GL_DONT_CARE, 0, NULL,
                          GL_FALSE);
    glDebugMessageInsert(GL_DEBUG_SOURCE_THIRD_PARTY, GL_DEBUG_TYPE_OTHER, 9,
                         GL_DEBUG_SEVERITY_HIGH, -1, "third party disabled");
    drain("filtered");

    /* Groups: their messages, filters pushed and popped with them. */
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 42, -1, "outer group");
    state("pushed");
    glDebugMessageControl(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, GL_DONT_CARE, 1,
                          quiet + 1, GL_TRUE);
    insert(8, GL_DEBUG_SEVERITY_LOW, "id 8 enabled in the group");
    glPushDebugGroup(GL_DEBUG_SOURCE_THIRD_PARTY, 43, 5, "inner group");
    glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_FALSE);
    insert(10, GL_DEBUG_SEVERITY_HIGH, "everything disabled in the inner group");
    glPopDebugGroup();
    insert(11, GL_DEBUG_SEVERITY_HIGH, "back in the outer group");
    glDebugMessageControl(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_POP_GROUP, GL_DONT_CARE, 0,
                          NULL, GL_FALSE);
    glPopDebugGroup();
    insert(8, GL_DEBUG_SEVERITY_LOW, "id 8 disabled again");
    insert(12, GL_DEBUG_SEVERITY_HIGH, "default group");
    state("popped");
    drain("groups");

    /* The callback: called instead of logging, with the user's pointer. */
    struct seen seen = {0};
    glDebugMessageCallback(callback, &seen);
    void *function = NULL, *user = NULL;
    glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION, &function);
    glGetPointerv(GL_DEBUG_CALLBACK_USER_PARAM, &user);
    printf("pointers: function %d user %d\n", function == (void *)callback, user == &seen);
    insert(13, GL_DEBUG_SEVERITY_HIGH, "to the callback");
    printf("callback: %d 0x%x 0x%x %u 0x%x %d \"%s\" user %d\n", seen.calls, seen.source, seen.type,
           seen.id, seen.severity, seen.length, seen.text, seen.user == &seen);
    glEnable(GL_BUFFER);
    printf("callback: %d 0x%x 0x%x 0x%x (generated)\n", seen.calls, seen.source, seen.type,
           seen.severity);
    error("callback");
    state("callback");
    glDisable(GL_DEBUG_OUTPUT);
    insert(14, GL_DEBUG_SEVERITY_HIGH, "output disabled");
    printf("disabled: %d calls\n", seen.calls);
    glEnable(GL_DEBUG_OUTPUT);
    glDebugMessageCallback(NULL, NULL);
    glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION, &function);
    glGetPointerv(GL_DEBUG_CALLBACK_USER_PARAM, &user);
    printf("pointers: %d %d\n", function == NULL, user == NULL);
    glGetPointerv(GL_BUFFER, &function);
    error("pointer of a bad pname");
    drain("callback");
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    state("synchronous");
    glDisable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDisable(GL_DEBUG_OUTPUT);
}

static void label(GLenum identifier, GLuint name, const char *kind)
{
    char text[64], what[96];
    GLsizei length = -1;
    glObjectLabel(identifier, name, -1, kind);
    glGetObjectLabel(identifier, name, sizeof text, &length, text);
    snprintf(what, sizeof what, "label of a %s", kind);
    printf("%s: %d \"%s\"\n", what, length, length >= 0 ? text : "");
    error(what);
}

static void labels(void)
{
    GLuint buffer, texture, vao, fbo, rbo, sampler, query;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &rbo);
    glBindRenderbuffer(GL_RENDERBUFFER, rbo);
    glGenSamplers(1, &sampler);
    glBindSampler(0, sampler);
    glGenQueries(1, &query);
    glBeginQuery(GL_SAMPLES_PASSED, query);
    glEndQuery(GL_SAMPLES_PASSED);
    GLuint shader = glCreateShader(GL_VERTEX_SHADER);
    GLuint program = glCreateProgram();
    label(GL_BUFFER, buffer, "buffer");
    label(GL_TEXTURE, texture, "texture");
    label(GL_VERTEX_ARRAY, vao, "vertex array");
    label(GL_FRAMEBUFFER, fbo, "framebuffer");
    label(GL_RENDERBUFFER, rbo, "renderbuffer");
    label(GL_SAMPLER, sampler, "sampler");
    label(GL_QUERY, query, "query");
    label(GL_SHADER, shader, "shader");
    label(GL_PROGRAM, program, "program");
    label(GL_TRANSFORM_FEEDBACK, 0, "default transform feedback");

    char text[64];
    GLsizei length = -1;
    /* A short buffer gets the label's start; a null one, its length. */
    glGetObjectLabel(GL_BUFFER, buffer, 4, &length, text);
    printf("short: %d \"%s\"\n", length, text);
    length = -1;
    glGetObjectLabel(GL_BUFFER, buffer, 0, &length, NULL);
    printf("no buffer: %d\n", length);
    glObjectLabel(GL_BUFFER, buffer, 3, "bufferless");
    glGetObjectLabel(GL_BUFFER, buffer, sizeof text, &length, text);
    printf("counted: %d \"%s\"\n", length, text);
    glObjectLabel(GL_BUFFER, buffer, 0, NULL);
    length = -1;
    glGetObjectLabel(GL_BUFFER, buffer, sizeof text, &length, text);
    printf("removed: %d \"%s\"\n", length, text);
    error("labels");

    /* Errors. */
    glObjectLabel(GL_BUFFER, 9999, -1, "x");
    error("label of a name that is no buffer");
    glObjectLabel(GL_SHADER, program, -1, "x");
    error("shader label of a program");
    glObjectLabel(GL_PROGRAM, shader, -1, "x");
    error("program label of a shader");
    glObjectLabel(GL_TEXTURE_2D, texture, -1, "x");
    error("label with a bad identifier");
    glObjectLabel(GL_PROGRAM_PIPELINE, 1, -1, "x");
    error("label of a name that is no pipeline");
    glObjectLabel(GL_TRANSFORM_FEEDBACK, 1, -1, "x");
    error("label of a name that is no transform feedback");
    static char long_label[300];
    memset(long_label, 'b', sizeof long_label - 1);
    GLint max = integer(GL_MAX_LABEL_LENGTH);
    glObjectLabel(GL_BUFFER, buffer, max, long_label);
    error("label of the maximum length");
    glObjectLabel(GL_BUFFER, buffer, max - 1, long_label);
    error("label of one less");
    glGetObjectLabel(GL_BUFFER, buffer, 0, &length, NULL);
    printf("longest: %d\n", length);
    glGetObjectLabel(GL_BUFFER, buffer, -1, &length, text);
    error("get label with a negative size");
    glGetObjectLabel(GL_BUFFER, 9999, sizeof text, &length, text);
    error("get label of a name that is no buffer");

    /* Names generated but never bound: GL creates some objects at glGen* time. */
    GLuint reserved[6];
    glGenBuffers(1, &reserved[0]);
    glGenTextures(1, &reserved[1]);
    glGenVertexArrays(1, &reserved[2]);
    glGenFramebuffers(1, &reserved[3]);
    glGenRenderbuffers(1, &reserved[4]);
    glGenQueries(1, &reserved[5]);
    const GLenum reserved_kinds[6] = {GL_BUFFER,      GL_TEXTURE,      GL_VERTEX_ARRAY,
                                      GL_FRAMEBUFFER, GL_RENDERBUFFER, GL_QUERY};
    for (int i = 0; i < 6; i++) {
        glObjectLabel(reserved_kinds[i], reserved[i], -1, "reserved");
        printf("label of a reserved name 0x%x: error 0x%04x\n", reserved_kinds[i], glGetError());
    }

    /* An empty label, a zero-sized buffer with room given, an empty message. */
    glObjectLabel(GL_TEXTURE, texture, 0, "");
    memset(text, '#', sizeof text);
    length = -1;
    glGetObjectLabel(GL_TEXTURE, texture, sizeof text, &length, text);
    printf("empty label: %d %d\n", length, text[0]);
    glObjectLabel(GL_TEXTURE, texture, -1, "texture");
    memset(text, '#', sizeof text);
    length = -1;
    glGetObjectLabel(GL_TEXTURE, texture, 0, &length, text);
    printf("zero-sized buffer: %d %d\n", length, text[0]);
    error("empty labels");

    /* Syncs, by pointer. */
    GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glObjectPtrLabel(sync, -1, "sync");
    glGetObjectPtrLabel(sync, sizeof text, &length, text);
    printf("sync: %d \"%s\"\n", length, text);
    error("sync label");
    glObjectPtrLabel((GLsync)(size_t)0x7777, -1, "x");
    error("label of a pointer that is no sync");
    glGetObjectPtrLabel((GLsync)(size_t)0x7777, sizeof text, &length, text);
    error("get label of a pointer that is no sync");
    glGetObjectPtrLabel(sync, -1, &length, text);
    error("get sync label with a negative size");
    glDeleteSync(sync);

    /* A deleted object's label goes with it: a new object under the same name has none. */
    glDeleteBuffers(1, &buffer);
    glObjectLabel(GL_BUFFER, buffer, -1, "x");
    error("label of a deleted buffer");
    GLuint again;
    glGenBuffers(1, &again);
    glBindBuffer(GL_ARRAY_BUFFER, again);
    length = -1;
    glGetObjectLabel(GL_BUFFER, again, sizeof text, &length, text);
    printf("new buffer %d: %d\n", again == buffer, length);
    error("new buffer");
    glDeleteShader(shader);
    glDeleteProgram(program);
}

static void debug_context(EGLDisplay dpy)
{
    EGLint n;
    EGLConfig config;
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                     EGL_OPENGL_BIT, EGL_NONE};
    eglChooseConfig(dpy, config_attribs, &config, 1, &n);
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK,
                              EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_CONTEXT_OPENGL_DEBUG,
                              EGL_TRUE, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        printf("FAIL no debug context\n");
        return;
    }
    state("debug context");
    glEnable(GL_BUFFER);
    error("debug context");
    insert(1, GL_DEBUG_SEVERITY_HIGH, "debug context");
    drain("debug context");
    const EGLint khr_attribs[] = {EGL_CONTEXT_MAJOR_VERSION_KHR, 3, EGL_CONTEXT_MINOR_VERSION_KHR,
                                  3, EGL_CONTEXT_OPENGL_PROFILE_MASK_KHR,
                                  EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT_KHR, EGL_CONTEXT_FLAGS_KHR,
                                  EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR, EGL_NONE};
    EGLContext khr = eglCreateContext(dpy, config, EGL_NO_CONTEXT, khr_attribs);
    if (khr == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, khr)) {
        printf("FAIL no KHR debug context\n");
        return;
    }
    state("KHR debug context");
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, khr);
    eglDestroyContext(dpy, ctx);
}

int main(void)
{
    EGLDisplay dpy;
    EGLContext ctx = surfaceless_core_context(&dpy);
    if (ctx == EGL_NO_CONTEXT)
        return 1;
    fprintf(stderr, "vendor: %s\n", (const char *)glGetString(GL_VENDOR));
    state("initial");
    insert(1, GL_DEBUG_SEVERITY_HIGH, "output disabled");
    glEnable(GL_BUFFER);
    error("plain context");
    state("plain context");
    drain("plain context");
    limits_and_errors();
    log_and_filters();
    labels();
    debug_context(dpy);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    return 0;
}

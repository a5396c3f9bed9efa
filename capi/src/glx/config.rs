//! `GLXFBConfig`s and visuals: the engine's configs (RGBA8, with or without depth 24 /
//! stencil 8, single-sampled or 4x), each double-buffered and single-buffered as Mesa offers
//! them, window- and pbuffer-capable, all shown in the screen's TrueColor visual.
//!
//! A single-buffered config's window is front-buffered: its one colour buffer is `FRONT`,
//! what the program draws is shown at each `glFlush`, `glFinish` and `glXWaitGL`, and
//! `glXSwapBuffers` on it does nothing (`tessera_engine::present`).

use std::ffi::{c_int, c_void};

use tessera_engine::egl::config::MAX_PBUFFER_SIZE;
use tessera_engine::egl::{CONFIGS, Config, registry};

use super::tokens::*;
use super::{GlxHandle, XBool, XDisplay, engine_display};
use crate::ptr;
use crate::winsys::x11::{XVisualInfo, Xlib};

unsafe extern "C" {
    fn malloc(size: usize) -> *mut c_void;
}

/// A `GLXFBConfig`: an engine config, double- or single-buffered.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct GlxConfig {
    /// `GLX_FBCONFIG_ID`: the engine config's for double-buffered configs, 4 more for
    /// single-buffered ones.
    pub id: i32,
    /// The engine config (what the context and the surface are made with).
    pub config: &'static Config,
    /// `GLX_DOUBLEBUFFER`.
    pub double: bool,
}

/// Every `GLXFBConfig`, double-buffered first (in the engine's order), then single-buffered.
pub(crate) static GLX_CONFIGS: [GlxConfig; 8] = [
    GlxConfig {
        id: 1,
        config: &CONFIGS[0],
        double: true,
    },
    GlxConfig {
        id: 2,
        config: &CONFIGS[1],
        double: true,
    },
    GlxConfig {
        id: 3,
        config: &CONFIGS[2],
        double: true,
    },
    GlxConfig {
        id: 4,
        config: &CONFIGS[3],
        double: true,
    },
    GlxConfig {
        id: 5,
        config: &CONFIGS[0],
        double: false,
    },
    GlxConfig {
        id: 6,
        config: &CONFIGS[1],
        double: false,
    },
    GlxConfig {
        id: 7,
        config: &CONFIGS[2],
        double: false,
    },
    GlxConfig {
        id: 8,
        config: &CONFIGS[3],
        double: false,
    },
];

/// The `GLXFBConfig` handle of a config (the address of its entry).
pub(crate) fn glx_config_handle(c: &'static GlxConfig) -> GlxHandle {
    std::ptr::from_ref(c).cast_mut().cast()
}

/// The config of a `GLXFBConfig` handle, if it is one.
pub(crate) fn glx_config(handle: GlxHandle) -> Option<&'static GlxConfig> {
    GLX_CONFIGS
        .iter()
        .find(|c| std::ptr::eq(std::ptr::from_ref(*c).cast(), handle.cast_const()))
}

/// The visual ID of the display's configs (0 if the display cannot be used).
pub(crate) fn visual_id(dpy: XDisplay) -> i32 {
    let mut reg = registry();
    engine_display(&mut reg, dpy)
        .and_then(|d| reg.visual(d))
        .map_or(0, |v| v.id)
}

/// A config's GLX attribute; `None` for a token that is not one.
pub(crate) fn attrib(g: &GlxConfig, visual: i32, screen: i32, attribute: i32) -> Option<i32> {
    let c = g.config;
    Some(match attribute {
        GLX_USE_GL | GLX_RGBA | GLX_X_RENDERABLE => 1,
        GLX_DOUBLEBUFFER => i32::from(g.double),
        GLX_BUFFER_SIZE => 32,
        GLX_LEVEL | GLX_STEREO | GLX_AUX_BUFFERS => 0,
        GLX_RED_SIZE | GLX_GREEN_SIZE | GLX_BLUE_SIZE | GLX_ALPHA_SIZE => 8,
        GLX_DEPTH_SIZE => c.depth,
        GLX_STENCIL_SIZE => c.stencil,
        GLX_ACCUM_RED_SIZE | GLX_ACCUM_GREEN_SIZE | GLX_ACCUM_BLUE_SIZE | GLX_ACCUM_ALPHA_SIZE => 0,
        GLX_CONFIG_CAVEAT | GLX_TRANSPARENT_TYPE => GLX_NONE,
        GLX_TRANSPARENT_INDEX_VALUE
        | GLX_TRANSPARENT_RED_VALUE
        | GLX_TRANSPARENT_GREEN_VALUE
        | GLX_TRANSPARENT_BLUE_VALUE
        | GLX_TRANSPARENT_ALPHA_VALUE => 0,
        GLX_X_VISUAL_TYPE => GLX_TRUE_COLOR,
        GLX_VISUAL_ID => visual,
        GLX_SCREEN => screen,
        GLX_DRAWABLE_TYPE => GLX_WINDOW_BIT | GLX_PBUFFER_BIT,
        GLX_RENDER_TYPE => GLX_RGBA_BIT,
        GLX_FBCONFIG_ID => g.id,
        GLX_MAX_PBUFFER_WIDTH | GLX_MAX_PBUFFER_HEIGHT => MAX_PBUFFER_SIZE,
        GLX_MAX_PBUFFER_PIXELS => MAX_PBUFFER_SIZE * MAX_PBUFFER_SIZE,
        GLX_SAMPLE_BUFFERS => i32::from(c.samples > 0),
        GLX_SAMPLES => c.samples,
        // Every config is sRGB-capable (`_ARB` and `_EXT` share the token): as on Mesa,
        // whose desktop GL default framebuffers all are, writes convert only while
        // GL_FRAMEBUFFER_SRGB is enabled (tessera_engine::egl::config).
        GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB => 1,
        _ => return None,
    })
}

/// How `glXChooseFBConfig` compares an attribute (GLX 1.4 table 3.4).
enum Rule {
    AtLeast,
    Exact,
    Mask,
    Ignore,
}

fn rule(attribute: i32) -> Rule {
    match attribute {
        GLX_BUFFER_SIZE | GLX_AUX_BUFFERS | GLX_RED_SIZE | GLX_GREEN_SIZE | GLX_BLUE_SIZE
        | GLX_ALPHA_SIZE | GLX_DEPTH_SIZE | GLX_STENCIL_SIZE | GLX_ACCUM_RED_SIZE
        | GLX_ACCUM_GREEN_SIZE | GLX_ACCUM_BLUE_SIZE | GLX_ACCUM_ALPHA_SIZE
        | GLX_SAMPLE_BUFFERS | GLX_SAMPLES => Rule::AtLeast,
        // Asking for False is met by a capable config too: it converts nothing unless the
        // program enables GL_FRAMEBUFFER_SRGB, as Mesa's non-sRGB configs do.
        GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB => Rule::AtLeast,
        GLX_DRAWABLE_TYPE | GLX_RENDER_TYPE => Rule::Mask,
        GLX_MAX_PBUFFER_WIDTH | GLX_MAX_PBUFFER_HEIGHT | GLX_MAX_PBUFFER_PIXELS | GLX_VISUAL_ID => {
            Rule::Ignore
        }
        _ => Rule::Exact,
    }
}

/// The configs matching a `glXChooseFBConfig` list, best first (`None`: a bad attribute).
pub(crate) fn choose(list: &[(i32, i32)], visual: i32) -> Option<Vec<&'static GlxConfig>> {
    for &(a, _) in list {
        if a != GLX_FBCONFIG_ID && attrib(&GLX_CONFIGS[0], visual, 0, a).is_none() {
            return None;
        }
    }
    if let Some(&(_, id)) = list.iter().find(|(a, _)| *a == GLX_FBCONFIG_ID)
        && id != GLX_DONT_CARE
    {
        return Some(GLX_CONFIGS.iter().filter(|c| c.id == id).collect());
    }
    let mut found: Vec<&'static GlxConfig> = GLX_CONFIGS
        .iter()
        .filter(|c| {
            list.iter().all(|&(a, want)| {
                if want == GLX_DONT_CARE {
                    return true;
                }
                let have = attrib(c, visual, 0, a).unwrap_or(0);
                match rule(a) {
                    Rule::AtLeast => have >= want,
                    Rule::Exact => have == want,
                    Rule::Mask => have & want == want,
                    Rule::Ignore => true,
                }
            })
        })
        .collect();
    // GLX 1.4 §3.3.3: single-buffered first (when the list leaves GLX_DOUBLEBUFFER at
    // GLX_DONT_CARE, as Mesa sorts them), then fewer sample buffers and samples, then the
    // larger depth buffer, then the smaller stencil buffer.
    found.sort_by_key(|g| {
        let c = g.config;
        (
            g.double,
            c.samples > 0,
            c.samples,
            -c.depth,
            c.stencil,
            g.id,
        )
    });
    Some(found)
}

/// Config handles in memory the program frees with `XFree` (which is `free`).
fn malloc_configs(found: &[&'static GlxConfig], n: *mut c_int) -> *mut GlxHandle {
    // SAFETY: `n` is null or valid for one write (the caller's contract).
    unsafe { ptr::write(n, found.len() as c_int) };
    if found.is_empty() {
        return std::ptr::null_mut();
    }
    // SAFETY: plain allocation; checked for null below.
    let out = unsafe { malloc(found.len() * size_of::<GlxHandle>()) }.cast::<GlxHandle>();
    if out.is_null() {
        return out;
    }
    for (i, c) in found.iter().enumerate() {
        // SAFETY: `out` holds `found.len()` handles.
        unsafe { out.add(i).write(glx_config_handle(c)) };
    }
    out
}

/// `glXGetFBConfigs`: every config, the one `glXCreateContext` uses for the visual
/// ([`config_of_visual`]) first. All configs show the same visual, and programs that hold a
/// visual find "its" config as the first one listed with that `GLX_VISUAL_ID` (piglit's GLX
/// tests do): a `GLXWindow` made with that config then takes the visual's contexts.
///
/// # Safety
/// `dpy` is a live display; `nelements` is valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXGetFBConfigs(
    dpy: XDisplay,
    screen: c_int,
    nelements: *mut c_int,
) -> *mut GlxHandle {
    let _ = (dpy, screen);
    let first = config_of_visual();
    let all: Vec<&'static GlxConfig> = std::iter::once(first)
        .chain(GLX_CONFIGS.iter().filter(|c| c.id != first.id))
        .collect();
    malloc_configs(&all, nelements)
}

/// `glXChooseFBConfig`.
///
/// # Safety
/// `dpy` is a live display; `attrib_list` is null or `None`-terminated; `nelements` is
/// valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXChooseFBConfig(
    dpy: XDisplay,
    screen: c_int,
    attrib_list: *const c_int,
    nelements: *mut c_int,
) -> *mut GlxHandle {
    let _ = screen;
    // SAFETY: the caller's contract (GLX lists end with None = 0, as EGL's do not).
    let list = unsafe { glx_attribs(attrib_list) };
    match choose(&list, visual_id(dpy)) {
        Some(found) => malloc_configs(&found, nelements),
        None => {
            // SAFETY: the caller's contract.
            unsafe { ptr::write(nelements, 0) };
            std::ptr::null_mut()
        }
    }
}

/// A `None`-terminated GLX attribute list as pairs.
///
/// # Safety
/// `list` is null or a valid `None`-terminated list.
pub(crate) unsafe fn glx_attribs(list: *const c_int) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    if list.is_null() {
        return out;
    }
    let mut i = 0;
    // SAFETY: the caller's contract: every read is before the terminator.
    unsafe {
        while *list.add(i) != 0 && out.len() < 512 {
            out.push((*list.add(i), *list.add(i + 1)));
            i += 2;
        }
    }
    out
}

/// `glXGetFBConfigAttrib`: `GLX_BAD_ATTRIBUTE` for an unknown one.
///
/// # Safety
/// `dpy` is a live display; `value` is valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXGetFBConfigAttrib(
    dpy: XDisplay,
    config: GlxHandle,
    attribute: c_int,
    value: *mut c_int,
) -> c_int {
    let Some(c) = glx_config(config) else {
        return GLX_BAD_VALUE;
    };
    // SAFETY: a live display.
    let screen = unsafe { crate::winsys::x11::X11::default_screen(dpy) } as i32;
    match attrib(c, visual_id(dpy), screen, attribute) {
        Some(v) => {
            // SAFETY: the caller's contract.
            unsafe { ptr::write(value, v) };
            0
        }
        None => GLX_BAD_ATTRIBUTE,
    }
}

/// The `XVisualInfo` of the display's visual, allocated by Xlib (the program frees it with
/// `XFree`).
pub(crate) fn visual_info(dpy: XDisplay) -> *mut XVisualInfo {
    let Some(xlib) = Xlib::get() else {
        return std::ptr::null_mut();
    };
    let id = visual_id(dpy);
    if id == 0 {
        return std::ptr::null_mut();
    }
    // SAFETY: a plain-data template.
    let mut template: XVisualInfo = unsafe { std::mem::zeroed() };
    template.visualid = id as std::ffi::c_ulong;
    let mut n = 0;
    // VisualIDMask.
    // SAFETY: a live display, a template and a count.
    unsafe { (xlib.get_visual_info)(dpy, 0x1, &mut template, &mut n) }
}

/// `glXGetVisualFromFBConfig`.
///
/// # Safety
/// `dpy` is a live display.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXGetVisualFromFBConfig(
    dpy: XDisplay,
    config: GlxHandle,
) -> *mut XVisualInfo {
    if glx_config(config).is_none() {
        return std::ptr::null_mut();
    }
    visual_info(dpy)
}

/// `glXChooseVisual`: the old-style list (`GLX_RGBA`, `GLX_DOUBLEBUFFER` and
/// `GLX_STEREO` stand alone; the others take a value). Only RGBA configs exist; a list
/// asking for colour index, stereo or accumulation gets `NULL`. Every config shows the same
/// visual, so double- and single-buffered lists get the same one ([`config_of_visual`]).
///
/// # Safety
/// `dpy` is a live display; `attrib_list` is null or `None`-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXChooseVisual(
    dpy: XDisplay,
    screen: c_int,
    attrib_list: *const c_int,
) -> *mut XVisualInfo {
    let _ = screen;
    let mut rgba = false;
    let mut list = Vec::new();
    if !attrib_list.is_null() {
        let mut i = 0;
        // SAFETY: the caller's contract: every read is before the terminator.
        unsafe {
            while *attrib_list.add(i) != 0 && i < 512 {
                let a = *attrib_list.add(i);
                match a {
                    GLX_RGBA => rgba = true,
                    GLX_DOUBLEBUFFER => {}
                    GLX_STEREO => list.push((GLX_STEREO, 1)),
                    GLX_USE_GL => {}
                    _ => {
                        list.push((a, *attrib_list.add(i + 1)));
                        i += 1;
                    }
                }
                i += 1;
            }
        }
    }
    if !rgba {
        return std::ptr::null_mut();
    }
    match choose(&list, visual_id(dpy)) {
        Some(found) if !found.is_empty() => visual_info(dpy),
        _ => std::ptr::null_mut(),
    }
}

/// `glXGetConfig`: the attributes of the configs shown in `vis` (the display's one
/// visual: the values of the config with depth and stencil, single-sampled).
///
/// # Safety
/// `dpy` is a live display; `vis` is null or a valid `XVisualInfo`; `value` is valid for
/// one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXGetConfig(
    dpy: XDisplay,
    vis: *const XVisualInfo,
    attribute: c_int,
    value: *mut c_int,
) -> c_int {
    if vis.is_null() {
        return GLX_BAD_VISUAL;
    }
    // SAFETY: the caller's contract.
    let vid = unsafe { (*vis).visualid } as i32;
    let visual = visual_id(dpy);
    if vid != visual {
        // Not a GL visual: only GLX_USE_GL is answered (false).
        if attribute == GLX_USE_GL {
            // SAFETY: the caller's contract.
            unsafe { ptr::write(value, 0) };
            return 0;
        }
        return GLX_BAD_VISUAL;
    }
    match attrib(config_of_visual(), visual, 0, attribute) {
        Some(v) => {
            // SAFETY: the caller's contract.
            unsafe { ptr::write(value, v) };
            0
        }
        None => GLX_BAD_ATTRIBUTE,
    }
}

/// The config `glXCreateContext` uses for a visual: double-buffered, depth and stencil,
/// single-sampled. (Mesa gives each config a visual of its own, so a visual chosen without
/// `GLX_DOUBLEBUFFER` is single-buffered there; here every config shares the screen's one
/// visual, whose contexts are double-buffered.)
pub(crate) fn config_of_visual() -> &'static GlxConfig {
    &GLX_CONFIGS[1]
}

/// `glXQueryVersion`: GLX 1.4.
///
/// # Safety
/// `major` and `minor` are null or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXQueryVersion(
    dpy: XDisplay,
    major: *mut c_int,
    minor: *mut c_int,
) -> XBool {
    let _ = dpy;
    // SAFETY: the caller's contract.
    unsafe {
        ptr::write(major, 1);
        ptr::write(minor, 4);
    }
    1
}

/// `glXQueryExtension`: the server's GLX extension bases (direct rendering needs no
/// protocol, but errors are numbered from its base).
///
/// # Safety
/// `error_base` and `event_base` are null or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXQueryExtension(
    dpy: XDisplay,
    error_base: *mut c_int,
    event_base: *mut c_int,
) -> XBool {
    let (_, error) = super::extension(dpy).unwrap_or((0, 0));
    // SAFETY: the caller's contract.
    unsafe {
        ptr::write(error_base, c_int::from(error));
        ptr::write(event_base, 0);
    }
    1
}

/// The GLX extensions Tessera carries out.
pub(crate) const EXTENSIONS: &std::ffi::CStr = c"GLX_ARB_create_context GLX_ARB_create_context_no_error GLX_ARB_create_context_profile GLX_ARB_create_context_robustness GLX_ARB_framebuffer_sRGB GLX_ARB_get_proc_address GLX_ARB_multisample GLX_EXT_framebuffer_sRGB GLX_EXT_swap_control GLX_EXT_visual_info GLX_MESA_swap_control GLX_SGI_swap_control ";

fn client_string(name: c_int) -> *const std::ffi::c_char {
    match name {
        GLX_VENDOR => c"Tessera".as_ptr(),
        GLX_VERSION => c"1.4".as_ptr(),
        GLX_EXTENSIONS => EXTENSIONS.as_ptr(),
        _ => std::ptr::null(),
    }
}

/// `glXGetClientString`.
#[unsafe(no_mangle)]
pub extern "C" fn glXGetClientString(dpy: XDisplay, name: c_int) -> *const std::ffi::c_char {
    let _ = dpy;
    client_string(name)
}

/// `glXQueryServerString`: direct rendering only, so the server strings are Tessera's.
#[unsafe(no_mangle)]
pub extern "C" fn glXQueryServerString(
    dpy: XDisplay,
    screen: c_int,
    name: c_int,
) -> *const std::ffi::c_char {
    let _ = (dpy, screen);
    client_string(name)
}

/// `glXQueryExtensionsString`.
#[unsafe(no_mangle)]
pub extern "C" fn glXQueryExtensionsString(
    dpy: XDisplay,
    screen: c_int,
) -> *const std::ffi::c_char {
    let _ = (dpy, screen);
    EXTENSIONS.as_ptr()
}

//! Callable entries for the GL functions Tessera does not implement.
//!
//! Programs and GL bindings (Python's among them) load every function name they know through
//! `eglGetProcAddress` and may call a 4.x function without checking the context's version,
//! as Mesa hands out an entry for every name. So `eglGetProcAddress` returns, for every
//! function of the Khronos registry's GL API that Tessera does not implement (the `gl*`
//! prototypes of `gl.h`, `glext.h` and `glcorearb.h`: compatibility-profile, 4.x and
//! extension functions), one of the stubs of [`stubs`](super::stubs), generated one per
//! name by `capi/tools/gen_gl.py` so the log names the function. A stub records
//! `GL_INVALID_OPERATION` in the current context (if any), logs
//! "glFoo is not implemented by Tessera" once per name (warn), and returns 0. Names that are
//! not GL functions still give null.
//!
//! ## Why a stub with no parameters serves every signature
//! A stub is an `extern "C" fn() -> u64` (or `-> f32` / `-> f64` for the few functions that
//! return a float), called through whatever pointer type the caller gives it, with the
//! caller's arguments. On the C ABIs of x86-64 (System V) and aarch64 (AAPCS64) this is
//! sound in practice for any C signature of the registry: arguments travel in registers
//! and in stack slots the *caller* reserves and releases, so a callee that reads none of
//! them leaves nothing unbalanced; no GL function returns a struct (which would need a
//! hidden result pointer); and the result comes back in the return register the caller
//! reads for the declared type (`rax` / `x0` for integers, pointers, `GLenum`,
//! `GLboolean`, zero-extended from 64 bits; `xmm0` / `v0` for floats), which the stub sets
//! to 0. A caller declaring `void` ignores it.

use std::sync::atomic::{AtomicBool, Ordering};

use tessera_engine::gl::INVALID_OPERATION;

use crate::current::gl_call;

/// What every stub does: `GL_INVALID_OPERATION` in the current context, and one warning
/// per name (`logged` is the stub's own flag).
#[cold]
#[inline(never)]
pub(crate) fn not_implemented(name: &'static str, logged: &AtomicBool) {
    if !logged.swap(true, Ordering::Relaxed) {
        // Called before any EGL function, the logger may not be installed yet.
        crate::logging::init();
        log::warn!("{name} is not implemented by Tessera");
    }
    gl_call(name, (), |c| c.set_error(INVALID_OPERATION));
}

/// Defines one stub per `name: return type` and the table `STUBS` of them, sorted as listed.
macro_rules! stubs {
    ($count:literal; $($name:ident: $ret:ty,)*) => {
        $(
            #[doc = concat!("`", stringify!($name), "`: not implemented by Tessera.")]
            extern "C" fn $name() -> $ret {
                static LOGGED: ::std::sync::atomic::AtomicBool =
                    ::std::sync::atomic::AtomicBool::new(false);
                $crate::gl::unimplemented::not_implemented(stringify!($name), &LOGGED);
                <$ret>::default()
            }
        )*

        /// Every GL function of the registry Tessera does not implement, sorted by name,
        /// with the address of its stub.
        pub static STUBS: [(&str, $crate::gl::Proc); $count] = [
            $((
                stringify!($name),
                $crate::gl::Proc({
                    const F: extern "C" fn() -> $ret = $name;
                    F as *const ::std::ffi::c_void
                }),
            ),)*
        ];
    };
}

pub(crate) use stubs;

/// The stub of `name`, if `name` is a GL function of the registry Tessera does not
/// implement.
pub fn stub(name: &str) -> Option<*const std::ffi::c_void> {
    let table = &super::stubs::STUBS;
    table
        .binary_search_by(|e| e.0.cmp(name))
        .ok()
        .map(|i| table[i].1.0)
}

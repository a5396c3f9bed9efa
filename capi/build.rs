//! Links `libtessera_capi.so` with `-Bsymbolic-functions`: every reference the library makes
//! to one of its own exported functions (a call, or an address in the `eglGetProcAddress`
//! tables) is bound when it is linked, never looked up in the process's global scope. Loaded
//! as a libglvnd vendor, the library shares its exported names (`eglMakeCurrent`, `glClear`,
//! ...) with libglvnd's libraries, which come first in that scope; bound at load time, those
//! references would reach libglvnd's functions, which dispatch straight back here.

fn main() {
    println!("cargo::rustc-cdylib-link-arg=-Wl,-Bsymbolic-functions");
}

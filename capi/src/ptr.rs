//! Raw pointers from C into the slices, strings and attribute lists the engine takes.
//!
//! Each helper's safety contract is the GL or EGL caller's: a non-null pointer is valid for
//! the elements the call's specification says it reads or writes. Null pointers and
//! non-positive counts become empty slices, so a call with invalid arguments reaches the
//! engine, which raises the error the specification names, without anything being read.

use std::borrow::Cow;
use std::ffi::{CStr, c_char};

/// A count argument as a length (negative counts read nothing; the engine reports them).
pub(crate) fn len(n: impl TryInto<usize>) -> usize {
    n.try_into().unwrap_or(0)
}

/// `len` elements at `p` (empty if `p` is null or `len` is 0).
///
/// # Safety
/// A non-null `p` is valid for reads of `len` elements for `'a` (the caller's obligation
/// under the GL/EGL specification of the call).
pub(crate) unsafe fn slice<'a, T>(p: *const T, len: usize) -> &'a [T] {
    if p.is_null() || len == 0 {
        return &[];
    }
    // SAFETY: `p` is non-null and, by this function's contract, valid and aligned for
    // `len` reads of `T` for `'a`.
    unsafe { std::slice::from_raw_parts(p, len) }
}

/// `len` writable elements at `p` (empty if `p` is null or `len` is 0).
///
/// # Safety
/// A non-null `p` is valid for writes of `len` elements for `'a`, and nothing else accesses
/// them meanwhile.
pub(crate) unsafe fn slice_mut<'a, T>(p: *mut T, len: usize) -> &'a mut [T] {
    if p.is_null() || len == 0 {
        return &mut [];
    }
    // SAFETY: `p` is non-null and, by this function's contract, valid, aligned and
    // unaliased for `len` writes of `T` for `'a`.
    unsafe { std::slice::from_raw_parts_mut(p, len) }
}

/// The object `p` points at, if `p` is not null.
///
/// # Safety
/// A non-null `p` is valid for writes of one `T` for `'a`.
pub(crate) unsafe fn out<'a, T>(p: *mut T) -> Option<&'a mut T> {
    // SAFETY: by this function's contract, a non-null `p` is valid and aligned for `'a`.
    unsafe { p.as_mut() }
}

/// Writes `value` to `*p` if `p` is not null.
///
/// # Safety
/// A non-null `p` is valid for one write of `T`.
pub(crate) unsafe fn write<T>(p: *mut T, value: T) {
    if !p.is_null() {
        // SAFETY: non-null and valid for one write by this function's contract.
        unsafe { p.write(value) };
    }
}

/// A NUL-terminated string (`""` for null); invalid UTF-8 is replaced, as no GL name or
/// GLSL source can contain it meaningfully.
///
/// # Safety
/// A non-null `p` points at a NUL-terminated string valid for `'a`.
pub(crate) unsafe fn string<'a>(p: *const c_char) -> Cow<'a, str> {
    if p.is_null() {
        return Cow::Borrowed("");
    }
    // SAFETY: non-null and NUL-terminated by this function's contract.
    unsafe { CStr::from_ptr(p) }.to_string_lossy()
}

/// A string of `len` bytes (no terminator needed), or NUL-terminated if `len` is negative.
///
/// # Safety
/// A non-null `p` is valid for `len` bytes (or up to its NUL when `len < 0`) for `'a`.
pub(crate) unsafe fn string_n<'a>(p: *const c_char, len: i32) -> Cow<'a, str> {
    if len < 0 {
        // SAFETY: forwarded contract (NUL-terminated when the length is negative).
        return unsafe { string(p) };
    }
    // SAFETY: forwarded contract (`len` readable bytes).
    let bytes = unsafe { slice(p.cast::<u8>(), len as usize) };
    String::from_utf8_lossy(bytes)
}

/// The `(attribute, value)` pairs of an `EGL_NONE`-terminated `EGLint` list (empty for
/// null).
///
/// # Safety
/// A non-null `list` is an `EGL_NONE`-terminated attribute list, as EGL requires.
pub(crate) unsafe fn attribs(list: *const i32) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    if list.is_null() {
        return out;
    }
    let mut i = 0;
    loop {
        // SAFETY: the list is readable up to and including its EGL_NONE attribute, and
        // every attribute before it is followed by its value.
        let attribute = unsafe { *list.add(i) };
        if attribute == tessera_engine::egl::tokens::NONE {
            return out;
        }
        // SAFETY: as above: a value follows every attribute that is not EGL_NONE.
        let value = unsafe { *list.add(i + 1) };
        out.push((attribute, value));
        i += 2;
    }
}

/// The pairs of an `EGL_NONE`-terminated `EGLAttrib` list (EGL 1.5's pointer-sized
/// attributes; every attribute Tessera accepts fits in an `EGLint`, larger values are
/// clamped so they stay invalid).
///
/// # Safety
/// As [`attribs`].
pub(crate) unsafe fn attribs_wide(list: *const isize) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    if list.is_null() {
        return out;
    }
    let narrow = |v: isize| i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX });
    let mut i = 0;
    loop {
        // SAFETY: as in `attribs`.
        let attribute = unsafe { *list.add(i) };
        if attribute == tessera_engine::egl::tokens::NONE as isize {
            return out;
        }
        // SAFETY: as in `attribs`.
        let value = unsafe { *list.add(i + 1) };
        out.push((narrow(attribute), narrow(value)));
        i += 2;
    }
}

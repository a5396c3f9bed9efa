//! Counting the native objects of a session (`tessera_wire::census`).
//!
//! [`CountedGl`] is the backend's GL function table: glow's context, plus a census of every
//! object created and deleted through it. It shadows glow's `create_*`, `fence_sync` and
//! `delete_*` methods with its own of the same signature, so every call site that reaches GL
//! through the backend's table (`self.gl`, or a `&CountedGl` passed on) counts without a
//! hook of its own; everything else derefs to glow. It also keeps the names it counts live,
//! so that before the native context is destroyed the backend can ask the driver
//! ([`CountedGl::driver_check`], `glIs*`) which of them it still holds: they go with the
//! context, and the census drops them once the context is gone.

use std::cell::RefCell;
use std::collections::HashSet;
use std::ffi::{CStr, c_void};

use glow::HasContext;
use tessera_wire::census::{KINDS, NativeCensus, NativeCounts, NativeKind};

type IsFn = unsafe extern "system" fn(u32) -> u8;

/// The kinds named by a GL name, with the entry point that asks the driver about one.
const NAMED: [(NativeKind, &CStr); 10] = [
    (NativeKind::Buffer, c"glIsBuffer"),
    (NativeKind::Texture, c"glIsTexture"),
    (NativeKind::Renderbuffer, c"glIsRenderbuffer"),
    (NativeKind::Framebuffer, c"glIsFramebuffer"),
    (NativeKind::Sampler, c"glIsSampler"),
    (NativeKind::Program, c"glIsProgram"),
    (NativeKind::Shader, c"glIsShader"),
    (NativeKind::VertexArray, c"glIsVertexArray"),
    (NativeKind::Query, c"glIsQuery"),
    (NativeKind::TransformFeedback, c"glIsTransformFeedback"),
];

/// glow's context with a census of the objects made through it.
pub(crate) struct CountedGl {
    gl: glow::Context,
    census: NativeCensus,
    /// The names (sync: the pointer) counted live, per kind.
    live: RefCell<[HashSet<usize>; KINDS]>,
    /// `glIs*` of each named kind, where the driver has it.
    is: [Option<IsFn>; 10],
}

impl std::ops::Deref for CountedGl {
    type Target = glow::Context;

    fn deref(&self) -> &glow::Context {
        &self.gl
    }
}

/// What the driver said about the objects counted live.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct DriverCheck {
    /// Objects counted live that the driver holds (`glIs*` true).
    pub held: i64,
    /// Objects counted live the driver does not know as objects: a framebuffer, vertex
    /// array, query or transform feedback that was never bound is only a reserved name.
    pub unconfirmed: i64,
    /// Counted live of every kind.
    pub counted: NativeCounts,
}

impl CountedGl {
    /// Wraps `gl`; `loader` resolves the `glIs*` entry points of the same context.
    pub fn new(gl: glow::Context, loader: impl Fn(&CStr) -> *const c_void) -> Self {
        let is = NAMED.map(|(_, name)| {
            let p = loader(name);
            // SAFETY: a non-null pointer is the driver's entry point of that name, whose C
            // signature is `GLboolean (GLuint)` in ES 3.0.
            (!p.is_null()).then(|| unsafe { std::mem::transmute::<*const c_void, IsFn>(p) })
        });
        Self {
            gl,
            census: NativeCensus::new(),
            live: RefCell::new(std::array::from_fn(|_| HashSet::new())),
            is,
        }
    }

    /// The census (shared: it stays readable after the backend is gone).
    pub fn census(&self) -> &NativeCensus {
        &self.census
    }

    fn count<T>(
        &self,
        kind: NativeKind,
        made: Result<T, String>,
        key: impl Fn(&T) -> usize,
    ) -> Result<T, String> {
        if let Ok(object) = &made
            && self.live.borrow_mut()[kind as usize].insert(key(object))
        {
            self.census.created(kind);
        }
        made
    }

    fn uncount(&self, kind: NativeKind, key: usize) {
        if self.live.borrow_mut()[kind as usize].remove(&key) {
            self.census.released(kind);
        }
    }

    /// Asks the driver, on the current context, about every object still counted live.
    /// Syncs are asked with `glIsSync`.
    pub fn driver_check(&self) -> DriverCheck {
        let live = self.live.borrow();
        let mut check = DriverCheck {
            counted: self.census.live(),
            ..DriverCheck::default()
        };
        for (i, (kind, _)) in NAMED.iter().enumerate() {
            let Some(is) = self.is[i] else { continue };
            for name in &live[*kind as usize] {
                // SAFETY: the context is current (the caller's contract); any name is valid
                // input to `glIs*`.
                if unsafe { is(*name as u32) } != 0 {
                    check.held += 1;
                } else {
                    check.unconfirmed += 1;
                }
            }
        }
        for sync in &live[NativeKind::Sync as usize] {
            // SAFETY: the context is current; the pointer is a sync this context made and
            // has not deleted.
            let held = unsafe { self.gl.is_sync(glow::NativeFence(*sync as _)) };
            if held {
                check.held += 1;
            } else {
                check.unconfirmed += 1;
            }
        }
        check
    }

    /// Deletes every object counted live of the kinds a share group holds (buffers,
    /// textures, renderbuffers, samplers, programs, shaders, syncs), on the current context:
    /// a context sharing with another's leaves them to the group when it is destroyed.
    pub fn delete_shared(&self) {
        let take = |kind: NativeKind| -> Vec<std::num::NonZeroU32> {
            self.live.borrow()[kind as usize]
                .iter()
                .filter_map(|&n| std::num::NonZeroU32::new(n as u32))
                .collect()
        };
        // SAFETY: every call below deletes, on the current context (the caller's contract),
        // a name made through this table in it and not deleted since (it is counted live).
        unsafe {
            for n in take(NativeKind::Buffer) {
                self.delete_buffer(glow::NativeBuffer(n));
            }
            for n in take(NativeKind::Texture) {
                self.delete_texture(glow::NativeTexture(n));
            }
            for n in take(NativeKind::Renderbuffer) {
                self.delete_renderbuffer(glow::NativeRenderbuffer(n));
            }
            for n in take(NativeKind::Sampler) {
                self.delete_sampler(glow::NativeSampler(n));
            }
            for n in take(NativeKind::Program) {
                self.delete_program(glow::NativeProgram(n));
            }
            for n in take(NativeKind::Shader) {
                self.delete_shader(glow::NativeShader(n));
            }
            let syncs: Vec<usize> = self.live.borrow()[NativeKind::Sync as usize]
                .iter()
                .copied()
                .collect();
            for s in syncs {
                self.delete_sync(glow::NativeFence(s as _));
            }
        }
    }

    /// The context that held every object counted live was destroyed: they went with it.
    pub fn released_with_context(&self) {
        let mut live = self.live.borrow_mut();
        for kind in NativeKind::ALL {
            live[kind as usize].clear();
            self.census.release_all(kind);
        }
    }
}

/// A pair of `create_*`/`delete_*` methods of one kind, shadowing glow's.
macro_rules! counted {
    ($($create:ident, $delete:ident, $ty:ty, $kind:ident;)*) => {
        // Inherent methods win method resolution over the ones reached through `Deref`.
        #[allow(clippy::missing_safety_doc, reason = "glow's contracts")]
        impl CountedGl {
            $(
                pub unsafe fn $create(&self) -> Result<$ty, String> {
                    // SAFETY: glow's contract, which the caller keeps.
                    let made = unsafe { self.gl.$create() };
                    self.count(NativeKind::$kind, made, |o| o.0.get() as usize)
                }

                pub unsafe fn $delete(&self, object: $ty) {
                    self.uncount(NativeKind::$kind, object.0.get() as usize);
                    // SAFETY: glow's contract, which the caller keeps.
                    unsafe { self.gl.$delete(object) }
                }
            )*
        }
    };
}

counted! {
    create_buffer, delete_buffer, glow::Buffer, Buffer;
    create_texture, delete_texture, glow::Texture, Texture;
    create_renderbuffer, delete_renderbuffer, glow::Renderbuffer, Renderbuffer;
    create_framebuffer, delete_framebuffer, glow::Framebuffer, Framebuffer;
    create_sampler, delete_sampler, glow::Sampler, Sampler;
    create_program, delete_program, glow::Program, Program;
    create_vertex_array, delete_vertex_array, glow::VertexArray, VertexArray;
    create_query, delete_query, glow::Query, Query;
    create_transform_feedback, delete_transform_feedback, glow::TransformFeedback, TransformFeedback;
}

// The kinds whose creation takes arguments.
#[allow(clippy::missing_safety_doc, reason = "glow's contracts")]
impl CountedGl {
    pub unsafe fn create_shader(&self, stage: u32) -> Result<glow::Shader, String> {
        // SAFETY: glow's contract, which the caller keeps.
        let made = unsafe { self.gl.create_shader(stage) };
        self.count(NativeKind::Shader, made, |o| o.0.get() as usize)
    }

    pub unsafe fn delete_shader(&self, object: glow::Shader) {
        self.uncount(NativeKind::Shader, object.0.get() as usize);
        // SAFETY: glow's contract, which the caller keeps.
        unsafe { self.gl.delete_shader(object) }
    }

    pub unsafe fn fence_sync(&self, condition: u32, flags: u32) -> Result<glow::Fence, String> {
        // SAFETY: glow's contract, which the caller keeps.
        let made = unsafe { self.gl.fence_sync(condition, flags) };
        self.count(NativeKind::Sync, made, |f| f.0 as usize)
    }

    pub unsafe fn delete_sync(&self, object: glow::Fence) {
        self.uncount(NativeKind::Sync, object.0 as usize);
        // SAFETY: glow's contract, which the caller keeps.
        unsafe { self.gl.delete_sync(object) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_wire::Backend;

    /// Creations and deletions through the table are counted; the driver confirms the
    /// objects counted live; nothing is counted once the backend (and its context) is gone.
    #[test]
    fn objects_are_counted_confirmed_and_released_with_the_context() {
        let mut backend = crate::GlesBackend::new().expect("the GLES backend");
        let census = backend.native_census().expect("a census");
        let before = census.live();
        let _serial = backend.egl.serial();
        backend.make_current().unwrap();
        let gl = &backend.dev.gl;
        // SAFETY: the context is current; the objects are this test's.
        let (buffer, texture) = unsafe {
            let buffer = gl.create_buffer().unwrap();
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
            (buffer, gl.create_texture().unwrap())
        };
        let live = census.live();
        assert_eq!(
            live.get(NativeKind::Buffer),
            before.get(NativeKind::Buffer) + 1
        );
        assert_eq!(
            live.get(NativeKind::Texture),
            before.get(NativeKind::Texture) + 1
        );
        let check = gl.driver_check();
        assert_eq!(check.held + check.unconfirmed, live.total());
        assert!(check.held >= 1, "{check:?}");
        // SAFETY: as above.
        unsafe { gl.delete_buffer(buffer) };
        assert_eq!(
            census.live().get(NativeKind::Buffer),
            before.get(NativeKind::Buffer)
        );
        let _ = texture;
        drop(_serial);
        drop(backend);
        assert!(census.live().is_zero(), "{}", census.live());
    }
}

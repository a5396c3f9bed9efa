//! # Handle keys: wire handles as slotmap keys
//!
//! This module owns the one mapping between a wire [`RawHandle`] and a `slotmap` key, the
//! key type of every object kind ([`Keyed`]), and the limits of that mapping. The client's
//! allocator mints handles from a `slotmap::SlotMap` through it, and every backend's
//! [`SlotTable`](super::SlotTable) admits a create only through it, so both sides agree on
//! which handles can exist.
//!
//! ## The mapping
//!
//! - **slot ↔ index**: slotmap index = `slot + 1`. Every slotmap keeps a sentinel at index
//!   0, so the first key a map hands out has index 1; the wire's first slot is 0.
//! - **generation ↔ version**: slotmap version = `2 * generation - 1`. A slotmap slot's
//!   version is odd while occupied; a remove makes it even and the next insert in that slot
//!   odd again, so one reuse of a slot is exactly one generation, and generation 1 is the
//!   first version (1) of a fresh slot.
//!
//! The key's bits come from `KeyData::from_ffi`/`as_ffi`, whose layout in slotmap 1.x is
//! `version << 32 | index`; `tests::slotmap_keys_are_the_handles_the_wire_expects` pins
//! that against a real `SlotMap`, so a slotmap that changed it fails a test, not a session.
//!
//! ## Invariants
//!
//! - [`key_of`] and [`handle_of`] are inverse on every handle [`key_of`] accepts.
//! - [`key_of`] accepts only generations `1..=MAX_GENERATION` and slots `0..=MAX_SLOT`:
//!   it never makes a key whose version slotmap would have wrapped to reach, nor slotmap's
//!   null key (index `u32::MAX`).
//! - No slot ever goes past [`MAX_GENERATION`]: slotmap's versions are `u32`s that wrap
//!   (`wrapping_add`) after about 2^31 reuses of a slot, after which a key of the slot's
//!   first life would match again (ABA). So a slot whose generation reaches the limit is
//!   retired for good by the client (its allocator keeps it occupied forever), and a create
//!   of a later generation is refused by every backend.

use slotmap::{Key, KeyData};

use crate::handle::{
    BlendHandle, BufferHandle, DepthStencilHandle, FenceHandle, FramebufferHandle, Handle,
    ProgramHandle, QueryHandle, RasterHandle, RawHandle, RenderbufferHandle, SamplerHandle,
    SurfaceHandle, TextureHandle, TransformFeedbackHandle, VertexLayoutHandle,
};

/// The last generation a slot may hold: the highest odd `u32` version, `2^32 - 1`, is
/// generation `2^31`. A slot that reaches it is retired, never reused.
pub const MAX_GENERATION: u32 = 1 << 31;

/// The highest slot a handle may name: its index, `slot + 1`, must stay below slotmap's
/// null index (`u32::MAX`).
pub const MAX_SLOT: u32 = u32::MAX - 2;

/// A handle type with its kind's slotmap key: the key a client's allocator mints for this
/// kind, and the one a backend's table makes from the client's handle.
pub trait Keyed: Handle {
    /// The slotmap key of this kind (keys of different kinds do not mix).
    type Key: Key;
}

/// The slotmap key data of `raw`, or `None` if the handle is outside the mapping: slot
/// above [`MAX_SLOT`], generation 0 or above [`MAX_GENERATION`].
pub const fn key_data(raw: RawHandle) -> Option<KeyData> {
    if raw.slot > MAX_SLOT || raw.generation == 0 || raw.generation > MAX_GENERATION {
        return None;
    }
    // In range, neither sum overflows: index <= u32::MAX - 1, version <= u32::MAX.
    let index = raw.slot as u64 + 1;
    let version = 2 * raw.generation as u64 - 1;
    Some(KeyData::from_ffi(version << 32 | index))
}

/// The key of kind `K` that names `raw` (see [`key_data`] for the handles refused).
pub fn key_of<K: Key>(raw: RawHandle) -> Option<K> {
    key_data(raw).map(K::from)
}

/// The wire handle `key` names. For a key no slotmap handed out (the null key, or index 0)
/// the slot is above [`MAX_SLOT`], so [`key_of`] and every table refuse it.
pub fn handle_of<K: Key>(key: K) -> RawHandle {
    let ffi = key.data().as_ffi();
    let index = ffi as u32;
    // Always odd (slotmap forces it); (version + 1) / 2 without overflowing at u32::MAX.
    let version = (ffi >> 32) as u32;
    RawHandle {
        slot: index.wrapping_sub(1),
        generation: version / 2 + 1,
    }
}

macro_rules! keys {
    ($($(#[$doc:meta])* $key:ident => $handle:ident;)*) => {
        slotmap::new_key_type! {$(
            $(#[$doc])*
            pub struct $key;
        )*}

        $(impl Keyed for $handle {
            type Key = $key;
        })*
    };
}

keys! {
    /// The slotmap key of a buffer.
    BufferKey => BufferHandle;
    /// The slotmap key of a texture.
    TextureKey => TextureHandle;
    /// The slotmap key of a renderbuffer.
    RenderbufferKey => RenderbufferHandle;
    /// The slotmap key of a framebuffer object.
    FramebufferKey => FramebufferHandle;
    /// The slotmap key of a linked program.
    ProgramKey => ProgramHandle;
    /// The slotmap key of a query object.
    QueryKey => QueryHandle;
    /// The slotmap key of a fence.
    FenceKey => FenceHandle;
    /// The slotmap key of a surface.
    SurfaceKey => SurfaceHandle;
    /// The slotmap key of a blend-state CSO.
    BlendKey => BlendHandle;
    /// The slotmap key of a depth-stencil-state CSO.
    DepthStencilKey => DepthStencilHandle;
    /// The slotmap key of a rasterizer-state CSO.
    RasterKey => RasterHandle;
    /// The slotmap key of a sampler-state CSO.
    SamplerKey => SamplerHandle;
    /// The slotmap key of a vertex-layout CSO.
    VertexLayoutKey => VertexLayoutHandle;
    /// The slotmap key of a transform feedback object.
    TransformFeedbackKey => TransformFeedbackHandle;
}

#[cfg(test)]
mod tests {
    use super::*;
    use slotmap::SlotMap;

    fn raw(slot: u32, generation: u32) -> RawHandle {
        RawHandle { slot, generation }
    }

    #[test]
    fn keys_round_trip_over_the_whole_range() {
        for slot in [0, 1, 2, 1000, MAX_SLOT - 1, MAX_SLOT] {
            for generation in [1, 2, 3, 1 << 20, MAX_GENERATION - 1, MAX_GENERATION] {
                let h = raw(slot, generation);
                let key: BufferKey = key_of(h).expect("in range");
                assert_eq!(handle_of(key), h);
                assert!(!key.is_null(), "{h}");
            }
        }
    }

    #[test]
    fn handles_outside_the_mapping_have_no_key() {
        for h in [
            raw(0, 0),
            raw(0, MAX_GENERATION + 1),
            raw(0, u32::MAX),
            raw(MAX_SLOT + 1, 1),
            raw(u32::MAX, 1),
        ] {
            assert_eq!(key_of::<TextureKey>(h), None, "{h}");
        }
        // Keys no slotmap hands out map to slots no table accepts.
        assert!(handle_of(BufferKey::null()).slot > MAX_SLOT);
        assert!(handle_of(BufferKey::from(KeyData::from_ffi(1 << 32))).slot > MAX_SLOT);
    }

    #[test]
    fn slotmap_keys_are_the_handles_the_wire_expects() {
        let mut map = SlotMap::<BufferKey, ()>::with_key();
        let a = map.insert(());
        let b = map.insert(());
        assert_eq!((handle_of(a), handle_of(b)), (raw(0, 1), raw(1, 1)));
        // Reuse: most recently freed first, one generation later; the old key stays stale.
        map.remove(a);
        map.remove(b);
        let b2 = map.insert(());
        let a2 = map.insert(());
        assert_eq!((handle_of(b2), handle_of(a2)), (raw(1, 2), raw(0, 2)));
        assert_eq!(key_of::<BufferKey>(raw(0, 2)), Some(a2));
        assert!(!map.contains_key(a) && map.contains_key(a2));
        // A key made from a handle finds the slotmap's entry; a stale one does not.
        assert!(map.contains_key(key_of::<BufferKey>(raw(1, 2)).unwrap()));
        assert!(!map.contains_key(key_of::<BufferKey>(raw(1, 1)).unwrap()));
    }
}

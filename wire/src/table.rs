//! # Slot tables: a backend's objects of one kind, by handle
//!
//! The client mints handles densely from a `slotmap::SlotMap` per kind (a freed slot comes
//! back with `generation + 1`), so a backend keeps each kind in a [`SlotTable`]: a vector
//! indexed by `slot` whose entries remember the generation they hold or last held. One
//! table type serves every backend (the null one included), so the rules below are the same
//! everywhere:
//!
//! - a create takes a slot that holds no live object, with a generation newer than any the
//!   slot held ([`SlotTable::check_create`]); generation 0 is never live;
//! - a create must name a handle the client's allocator could have minted: it passes
//!   through [`key_of`], the one mapping from wire handles to the kind's slotmap key
//!   ([`key`] owns it), so a generation above [`MAX_GENERATION`] or a slot above
//!   [`MAX_SLOT`] is refused. A slot that held [`MAX_GENERATION`] is thereby retired here
//!   too, as the allocator retires it, and no generation ever wraps back to an old one;
//! - every other use names the live generation ([`SlotTable::get`]);
//! - a violation is a [`SessionError`] for the session (`BadCreate`, `StaleHandle`), never a
//!   panic and never undefined behaviour;
//! - a create may not skip more than [`MAX_SLOT_SKIP`] slots past the end, so a hostile peer
//!   cannot make the server allocate for slots no client would use. This module is the one
//!   place that bounds how far a client may grow a table.
//!
//! A table is typed by its handle: a texture handle cannot reach the buffer table.
//!
//! Records that address bytes of an object (buffer ranges) are checked by the same rule in
//! every backend: [`buffer_range`], through [`SlotTable::get_range`] and
//! [`SlotTable::copy_ranges`] for objects that are [`ByteSized`].
//!
//! ## Why a vector and not a `slotmap::SecondaryMap`
//!
//! The client's keys would fit a `SecondaryMap`, but it cannot keep this table's rules: a
//! vacant `SecondaryMap` slot forgets its version (so after a remove the old generation
//! could be created again), and its insert decides "newer" by slotmap's wrapping version
//! compare, which a hostile create 2^31 versions ahead would win. So the storage is a dense
//! vector that keeps each slot's last generation, while the handle-to-key mapping and the
//! generation limit are the shared code in [`key`] that the client's allocator
//! mints through. Lookups compare the handle's generation with the stored one directly: a
//! stored generation always passed [`key_of`], so a handle outside the mapping never
//! matches one.

use std::marker::PhantomData;

use crate::SessionError;
use crate::backend::bad_value;
use crate::record::BufferCopy;

pub mod key;

pub use key::{
    BlendKey, BufferKey, DepthStencilKey, FenceKey, FramebufferKey, Keyed, MAX_GENERATION,
    MAX_SLOT, ProgramKey, QueryKey, RasterKey, RenderbufferKey, SamplerKey, SurfaceKey, TextureKey,
    TransformFeedbackKey, VertexLayoutKey, handle_of, key_data, key_of,
};

/// How far past the end of a table a create may reach. Clients mint slots densely; this
/// bound only refuses absurd indices.
pub const MAX_SLOT_SKIP: usize = 1 << 20;

/// Checks that the range `offset..offset + len` lies inside a buffer of `size` bytes: the
/// range's end, or `BadValue` for `record`.
pub fn buffer_range(
    record: &'static str,
    offset: u64,
    len: u64,
    size: u64,
) -> Result<u64, SessionError> {
    match offset.checked_add(len) {
        Some(end) if end <= size => Ok(end),
        _ => Err(bad_value(
            record,
            format!("range {offset}+{len} outside a {size}-byte buffer"),
        )),
    }
}

/// An object records address byte ranges of (a buffer): its size in bytes.
pub trait ByteSized {
    /// Bytes a range may reach.
    fn byte_size(&self) -> u64;
}

/// One slot: the generation it holds (or last held) and the object, while live.
struct Slot<T> {
    generation: u32,
    object: Option<T>,
}

/// A backend's objects of the kind `H` names: slot -> (generation, object).
pub struct SlotTable<H, T> {
    slots: Vec<Slot<T>>,
    /// Live objects (slots with `Some`).
    live: usize,
    kind: PhantomData<fn(H)>,
}

impl<H, T> Default for SlotTable<H, T> {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            live: 0,
            kind: PhantomData,
        }
    }
}

// What needs no handle: making, counting and emptying a table.
impl<H, T> SlotTable<H, T> {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many objects are live.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether no object is live.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Takes every live object out of the table (teardown); slots keep their generations.
    pub fn drain(&mut self) -> impl Iterator<Item = T> + '_ {
        let live = &mut self.live;
        self.slots.iter_mut().filter_map(move |s| {
            let object = s.object.take();
            if object.is_some() {
                *live -= 1;
            }
            object
        })
    }
}

impl<H: Keyed, T> SlotTable<H, T> {
    fn stale(record: &'static str, handle: H) -> SessionError {
        SessionError::StaleHandle {
            record,
            kind: H::KIND,
            handle: handle.raw(),
        }
    }

    /// The live object of `handle`; `StaleHandle` if there is none.
    pub fn get(&self, record: &'static str, handle: H) -> Result<&T, SessionError> {
        self.live(handle).ok_or_else(|| Self::stale(record, handle))
    }

    /// The live object of `handle`, mutably; `StaleHandle` if there is none.
    pub fn get_mut(&mut self, record: &'static str, handle: H) -> Result<&mut T, SessionError> {
        let slot = self.slot_mut(handle);
        slot.and_then(|s| s.object.as_mut())
            .ok_or_else(|| Self::stale(record, handle))
    }

    /// The live object of `handle`, if any (for references that may dangle, such as
    /// bindings of objects destroyed since).
    pub fn live(&self, handle: H) -> Option<&T> {
        let raw = handle.raw();
        let slot = self.slots.get(raw.slot as usize)?;
        slot.object
            .as_ref()
            .filter(|_| slot.generation == raw.generation)
    }

    /// The slot of `handle` if it holds (or last held) the handle's generation.
    fn slot_mut(&mut self, handle: H) -> Option<&mut Slot<T>> {
        let raw = handle.raw();
        let slot = self.slots.get_mut(raw.slot as usize)?;
        (slot.generation == raw.generation).then_some(slot)
    }

    /// Checks that `handle`, if any, names a live object (a record's optional reference).
    pub fn check(&self, record: &'static str, handle: Option<H>) -> Result<(), SessionError> {
        match handle {
            Some(h) => self.get(record, h).map(drop),
            None => Ok(()),
        }
    }

    /// Checks that `handle` may be created: its slot holds no live object and its
    /// generation is newer than the slot's; `BadCreate` otherwise.
    pub fn check_create(&self, record: &'static str, handle: H) -> Result<(), SessionError> {
        let raw = handle.raw();
        let slot = raw.slot as usize;
        // The shared mapping refuses generation 0, generations past the retirement limit and
        // slots no slotmap index can name.
        let fits = key_of::<H::Key>(raw).is_some()
            && match self.slots.get(slot) {
                Some(s) => s.object.is_none() && raw.generation > s.generation,
                None => slot <= self.slots.len() + MAX_SLOT_SKIP,
            };
        if fits {
            Ok(())
        } else {
            Err(SessionError::BadCreate {
                record,
                kind: H::KIND,
                handle: raw,
            })
        }
    }

    /// Stores a new object under `handle` (checked as [`SlotTable::check_create`] does).
    pub fn insert(
        &mut self,
        record: &'static str,
        handle: H,
        object: T,
    ) -> Result<(), SessionError> {
        self.check_create(record, handle)?;
        let raw = handle.raw();
        let slot = raw.slot as usize;
        if slot >= self.slots.len() {
            self.slots.resize_with(slot + 1, || Slot {
                generation: 0,
                object: None,
            });
        }
        self.slots[slot] = Slot {
            generation: raw.generation,
            object: Some(object),
        };
        self.live += 1;
        Ok(())
    }

    /// Takes the live object of `handle` out of the table; the slot keeps its generation, so
    /// the handle stays stale.
    pub fn remove(&mut self, record: &'static str, handle: H) -> Result<T, SessionError> {
        let taken = self.slot_mut(handle).and_then(|s| s.object.take());
        let object = taken.ok_or_else(|| Self::stale(record, handle))?;
        self.live -= 1;
        Ok(object)
    }
}

// Range checks of objects records address bytes of: the same in every backend.
impl<H: Keyed, T: ByteSized> SlotTable<H, T> {
    /// The live object of `handle` if `offset..offset + len` lies inside it; `StaleHandle`
    /// or `BadValue` otherwise.
    pub fn get_range(
        &self,
        record: &'static str,
        handle: H,
        offset: u64,
        len: u64,
    ) -> Result<&T, SessionError> {
        let object = self.get(record, handle)?;
        buffer_range(record, offset, len, object.byte_size())?;
        Ok(object)
    }

    /// The source and destination of a `CopyBuffer`: both ranges inside their objects, and
    /// not overlapping within one object (`BadValue`).
    pub fn copy_ranges(
        &self,
        record: &'static str,
        src: H,
        dst: H,
        region: BufferCopy,
    ) -> Result<(&T, &T), SessionError> {
        let BufferCopy {
            src_offset,
            dst_offset,
            size,
        } = region;
        let from = self.get_range(record, src, src_offset, size)?;
        let to = self.get_range(record, dst, dst_offset, size)?;
        if src == dst && src_offset.max(dst_offset) < src_offset.min(dst_offset) + size {
            return Err(bad_value(record, "overlapping copy within one buffer"));
        }
        Ok((from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handle::{BufferHandle, ObjectKind, RawHandle};

    fn h(slot: u32, generation: u32) -> BufferHandle {
        BufferHandle { slot, generation }
    }

    fn stale(slot: u32, generation: u32) -> SessionError {
        SessionError::StaleHandle {
            record: "R",
            kind: ObjectKind::Buffer,
            handle: RawHandle { slot, generation },
        }
    }

    fn bad_create(slot: u32, generation: u32) -> SessionError {
        SessionError::BadCreate {
            record: "R",
            kind: ObjectKind::Buffer,
            handle: RawHandle { slot, generation },
        }
    }

    #[test]
    fn generations_guard_every_use() {
        let mut t = SlotTable::<BufferHandle, &str>::new();
        t.insert("R", h(0, 1), "a").unwrap();
        assert_eq!(t.get("R", h(0, 1)), Ok(&"a"));
        assert_eq!(t.get("R", h(0, 2)), Err(stale(0, 2)));
        assert_eq!(t.get("R", h(1, 1)), Err(stale(1, 1)));
        assert_eq!(t.check("R", Some(h(0, 1))), Ok(()));
        assert_eq!(t.check("R", None), Ok(()));
        assert_eq!(t.remove("R", h(0, 1)), Ok("a"));
        // Destroyed: stale for every use, including a second destroy.
        assert_eq!(t.live(h(0, 1)), None);
        assert_eq!(t.remove("R", h(0, 1)), Err(stale(0, 1)));
        assert_eq!(t.check("R", Some(h(0, 1))), Err(stale(0, 1)));
        assert!(t.is_empty());
    }

    #[test]
    fn creates_take_free_slots_with_newer_generations() {
        let mut t = SlotTable::<BufferHandle, u8>::new();
        assert_eq!(t.insert("R", h(0, 0), 0), Err(bad_create(0, 0)));
        t.insert("R", h(0, 1), 1).unwrap();
        assert_eq!(
            t.insert("R", h(0, 2), 2),
            Err(bad_create(0, 2)),
            "slot is live"
        );
        t.remove("R", h(0, 1)).unwrap();
        assert_eq!(
            t.insert("R", h(0, 1), 3),
            Err(bad_create(0, 1)),
            "old generation"
        );
        t.insert("R", h(0, 2), 4).unwrap();
        // Slots may skip ahead, within reason.
        t.insert("R", h(5, 1), 5).unwrap();
        let far = (6 + MAX_SLOT_SKIP + 1) as u32;
        assert_eq!(t.insert("R", h(far, 1), 6), Err(bad_create(far, 1)));
        assert_eq!(t.len(), 2);
        let mut all: Vec<u8> = t.drain().collect();
        all.sort();
        assert_eq!(all, [4, 5]);
        assert_eq!((t.len(), t.live(h(5, 1))), (0, None));
    }

    #[test]
    fn a_slot_at_the_generation_limit_is_retired() {
        let mut t = SlotTable::<BufferHandle, u8>::new();
        // A create may jump to any newer generation, up to the limit...
        t.insert("R", h(0, MAX_GENERATION - 1), 1).unwrap();
        t.remove("R", h(0, MAX_GENERATION - 1)).unwrap();
        t.insert("R", h(0, MAX_GENERATION), 2).unwrap();
        assert_eq!(t.get("R", h(0, MAX_GENERATION)), Ok(&2));
        t.remove("R", h(0, MAX_GENERATION)).unwrap();
        // ...and no further: the slot is retired, refused cleanly, never wrapped.
        for generation in [MAX_GENERATION + 1, u32::MAX, 1] {
            assert_eq!(
                t.insert("R", h(0, generation), 3),
                Err(bad_create(0, generation))
            );
        }
        // A fresh slot past the limit is refused too; other slots go on.
        assert_eq!(
            t.insert("R", h(1, MAX_GENERATION + 1), 4),
            Err(bad_create(1, MAX_GENERATION + 1))
        );
        assert_eq!(
            t.get("R", h(1, MAX_GENERATION + 1)),
            Err(stale(1, MAX_GENERATION + 1))
        );
        t.insert("R", h(1, 1), 5).unwrap();
        assert_eq!((t.len(), t.live(h(1, 1))), (1, Some(&5)));
    }

    #[test]
    fn slots_no_key_can_name_are_refused() {
        let mut t = SlotTable::<BufferHandle, u8>::new();
        for slot in [MAX_SLOT + 1, u32::MAX] {
            assert_eq!(t.insert("R", h(slot, 1), 0), Err(bad_create(slot, 1)));
            assert_eq!(t.get("R", h(slot, 1)), Err(stale(slot, 1)));
        }
        assert!(t.is_empty());
    }
}

//! # Slot tables: a backend's objects of one kind, by handle
//!
//! The client mints handles densely (a freed slot comes back with `generation + 1`), so a
//! backend keeps each kind in a [`SlotTable`]: a vector indexed by `slot` whose entries
//! remember the generation they hold or last held. One table type serves every backend (the
//! null one included), so the rules below are the same everywhere:
//!
//! - a create takes a slot that holds no live object, with a generation newer than any the
//!   slot held ([`SlotTable::check_create`]); generation 0 is never live;
//! - every other use names the live generation ([`SlotTable::get`]);
//! - a violation is a [`SessionError`] for the session (`BadCreate`, `StaleHandle`), never a
//!   panic and never undefined behaviour;
//! - a create may not skip more than [`MAX_SLOT_SKIP`] slots past the end, so a hostile peer
//!   cannot make the server allocate for slots no client would use.
//!
//! A table is typed by its handle: a texture handle cannot reach the buffer table.

use std::marker::PhantomData;

use crate::SessionError;
use crate::handle::Handle;

/// How far past the end of a table a create may reach. Clients mint slots densely; this
/// bound only refuses absurd indices.
pub const MAX_SLOT_SKIP: usize = 1 << 20;

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

impl<H: Handle, T> SlotTable<H, T> {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

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
        let raw = handle.raw();
        match self.slots.get_mut(raw.slot as usize) {
            Some(Slot {
                generation,
                object: Some(object),
            }) if *generation == raw.generation => Ok(object),
            _ => Err(Self::stale(record, handle)),
        }
    }

    /// The live object of `handle`, if any (for references that may dangle, such as
    /// bindings of objects destroyed since).
    pub fn live(&self, handle: H) -> Option<&T> {
        let raw = handle.raw();
        match self.slots.get(raw.slot as usize) {
            Some(Slot {
                generation,
                object: Some(object),
            }) if *generation == raw.generation => Some(object),
            _ => None,
        }
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
        let fits = match self.slots.get(slot) {
            Some(s) => s.object.is_none() && raw.generation > s.generation,
            None => slot <= self.slots.len() + MAX_SLOT_SKIP && raw.generation > 0,
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
        let raw = handle.raw();
        let taken = match self.slots.get_mut(raw.slot as usize) {
            Some(s) if s.generation == raw.generation => s.object.take(),
            _ => None,
        };
        let object = taken.ok_or_else(|| Self::stale(record, handle))?;
        self.live -= 1;
        Ok(object)
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
}

//! Client-side minting of wire handles.
//!
//! Slots are dense per kind; a freed slot is reused (most recently freed first) with its
//! generation plus one, so the backend's tables stay dense and a stale handle always has an
//! older generation than the slot's current one.

use tessera_wire::handle::{Handle, ObjectKind, RawHandle};

/// Slots of one kind.
#[derive(Clone, Debug, Default)]
pub struct SlotAllocator {
    /// Current generation of every slot ever handed out.
    generations: Vec<u32>,
    /// Freed slots, reused last-in first-out.
    free: Vec<u32>,
}

impl SlotAllocator {
    /// Hands out a handle: a freed slot with the next generation, else a new slot.
    pub fn alloc(&mut self) -> RawHandle {
        if let Some(slot) = self.free.pop() {
            debug_assert!((slot as usize) < self.generations.len());
            let generation = &mut self.generations[slot as usize];
            *generation += 1;
            return RawHandle {
                slot,
                generation: *generation,
            };
        }
        let slot = self.generations.len() as u32;
        self.generations.push(1);
        RawHandle {
            slot,
            generation: 1,
        }
    }

    /// Returns a handle's slot for reuse.
    pub fn free(&mut self, handle: RawHandle) {
        debug_assert_eq!(
            self.generations.get(handle.slot as usize),
            Some(&handle.generation)
        );
        self.free.push(handle.slot);
    }

    /// Slots in use.
    pub fn live(&self) -> usize {
        self.generations.len() - self.free.len()
    }
}

/// One slot allocator per object kind.
#[derive(Clone, Debug, Default)]
pub struct HandleAllocators {
    kinds: [SlotAllocator; ObjectKind::COUNT],
}

impl HandleAllocators {
    /// Mints a handle of a kind.
    pub fn mint<H: Handle>(&mut self) -> H {
        H::from_raw(self.kinds[H::KIND.index()].alloc())
    }

    /// Frees a handle of a kind.
    pub fn free<H: Handle>(&mut self, handle: H) {
        self.kinds[H::KIND.index()].free(handle.raw());
    }

    /// Live handles of a kind.
    pub fn live(&self, kind: ObjectKind) -> usize {
        self.kinds[kind.index()].live()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_wire::handle::BufferHandle;

    #[test]
    fn freed_slot_comes_back_with_a_higher_generation() {
        let mut a = HandleAllocators::default();
        let b1: BufferHandle = a.mint();
        let b2: BufferHandle = a.mint();
        assert_eq!((b1.slot, b1.generation, b2.slot), (0, 1, 1));
        a.free(b1);
        let b3: BufferHandle = a.mint();
        assert_eq!((b3.slot, b3.generation), (0, 2));
    }
}

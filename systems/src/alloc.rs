//! Client-side minting of wire handles.
//!
//! Each object kind mints from its own `slotmap::SlotMap`, keyed by the kind's slotmap key
//! ([`tessera_wire::table::Keyed`]); a key becomes a wire handle through
//! [`tessera_wire::table::handle_of`], the same mapping every backend's table admits
//! creates through, so the two sides agree on which handles exist.
//!
//! ## Invariants
//!
//! - Slots are dense per kind: the first handles are slots 0, 1, 2, … at generation 1.
//! - A freed slot is reused (most recently freed first) with its generation plus one, so the
//!   backend's tables stay dense and a stale handle always has an older generation than the
//!   slot's current one.
//! - No slot goes past its allocator's generation limit ([`MAX_GENERATION`] unless made
//!   with [`SlotAllocator::with_generation_limit`]): freeing a handle of the last
//!   generation retires its slot, which then stays occupied by a tombstone forever and is
//!   never handed out again; minting goes on with other slots. Slotmap's own reuse would
//!   wrap the slot's version after about 2^31 reuses and hand out a key of the slot's first
//!   life again; retiring first means that reuse is never reached.

use slotmap::{Key, SlotMap};
use tessera_wire::handle::{
    BlendHandle, BufferHandle, DepthStencilHandle, FenceHandle, FramebufferHandle, Handle,
    ObjectKind, ProgramHandle, QueryHandle, RasterHandle, RawHandle, RenderbufferHandle,
    SamplerHandle, SurfaceHandle, TextureHandle, TransformFeedbackHandle, VertexLayoutHandle,
};
use tessera_wire::table::{Keyed, MAX_GENERATION, handle_of, key_of};

/// What occupies a minted slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Occupant {
    /// A handle the client holds.
    Live,
    /// A slot whose generations are used up: occupied forever so it is never minted again.
    Retired,
}

/// Slots of the kind whose slotmap key is `K`.
///
/// A plain `SlotMap` rather than a `HopSlotMap` or `DenseSlotMap`: the allocator never
/// iterates its slots (where those two win) and stores only a one-byte marker (where
/// `DenseSlotMap`'s extra indirection buys nothing), and `SlotMap`'s insert takes the most
/// recently freed slot, which is the reuse order the wire's handles promise (a
/// `HopSlotMap` reuses slots in a different order).
#[derive(Clone, Debug)]
pub struct SlotAllocator<K: Key> {
    slots: SlotMap<K, Occupant>,
    /// Slots held by tombstones (counted in `slots.len()`, never live).
    retired: usize,
    /// The last generation a slot may be minted with; at most [`MAX_GENERATION`].
    generation_limit: u32,
}

impl<K: Key> Default for SlotAllocator<K> {
    /// An allocator whose slots retire at [`MAX_GENERATION`], the most the wire mapping
    /// allows.
    fn default() -> Self {
        Self::with_generation_limit(MAX_GENERATION)
    }
}

impl<K: Key> SlotAllocator<K> {
    /// An allocator whose slots retire after generation `limit`, clamped to
    /// `1..=MAX_GENERATION` (a slot cannot hold less than one generation, nor more than
    /// the wire mapping can name).
    pub fn with_generation_limit(limit: u32) -> Self {
        Self {
            slots: SlotMap::with_key(),
            retired: 0,
            generation_limit: limit.clamp(1, MAX_GENERATION),
        }
    }

    /// Hands out a handle: the most recently freed slot with its next generation, else a
    /// new slot.
    pub fn alloc(&mut self) -> RawHandle {
        // Retired slots stay occupied, so slotmap never reuses them; every other slot was
        // freed below its limit, so its next version is at most the limit's.
        handle_of(self.slots.insert(Occupant::Live))
    }

    /// Returns a handle's slot for reuse, or retires the slot if `handle` was its last
    /// generation. Freeing a handle that is not live is a bug of the caller: it is ignored
    /// (asserted in debug builds), never a corruption of the free list.
    pub fn free(&mut self, handle: RawHandle) {
        let Some(key) = key_of::<K>(handle) else {
            debug_assert!(false, "freeing {handle}, which no allocator mints");
            return;
        };
        let Some(occupant) = self.slots.get_mut(key) else {
            debug_assert!(false, "freeing {handle}, which is not live");
            return;
        };
        match *occupant {
            Occupant::Live if handle.generation >= self.generation_limit => {
                *occupant = Occupant::Retired;
                self.retired += 1;
            }
            Occupant::Live => {
                self.slots.remove(key);
            }
            Occupant::Retired => debug_assert!(false, "freeing {handle} twice"),
        }
    }

    /// Slots in use.
    pub fn live(&self) -> usize {
        self.slots.len() - self.retired
    }
}

macro_rules! allocators {
    ($($field:ident: $handle:ident => $kind:ident,)*) => {
        /// One slot allocator per object kind, each minting its kind's slotmap keys.
        #[derive(Clone, Debug, Default)]
        pub struct HandleAllocators {
            $($field: SlotAllocator<<$handle as Keyed>::Key>,)*
        }

        // Each field's handle type is the kind its arm serves.
        $(const _: () = assert!(matches!(<$handle as Handle>::KIND, ObjectKind::$kind));)*

        impl HandleAllocators {
            fn alloc(&mut self, kind: ObjectKind) -> RawHandle {
                match kind {
                    $(ObjectKind::$kind => self.$field.alloc(),)*
                }
            }

            fn free_raw(&mut self, kind: ObjectKind, handle: RawHandle) {
                match kind {
                    $(ObjectKind::$kind => self.$field.free(handle),)*
                }
            }

            /// Live handles of a kind.
            pub fn live(&self, kind: ObjectKind) -> usize {
                match kind {
                    $(ObjectKind::$kind => self.$field.live(),)*
                }
            }
        }
    };
}

allocators! {
    buffers: BufferHandle => Buffer,
    textures: TextureHandle => Texture,
    renderbuffers: RenderbufferHandle => Renderbuffer,
    framebuffers: FramebufferHandle => Framebuffer,
    programs: ProgramHandle => Program,
    queries: QueryHandle => Query,
    fences: FenceHandle => Fence,
    surfaces: SurfaceHandle => Surface,
    blends: BlendHandle => BlendState,
    depth_stencils: DepthStencilHandle => DepthStencilState,
    rasters: RasterHandle => RasterState,
    samplers: SamplerHandle => SamplerState,
    layouts: VertexLayoutHandle => VertexLayout,
    transform_feedbacks: TransformFeedbackHandle => TransformFeedback,
}

impl HandleAllocators {
    /// Mints a handle of a kind.
    pub fn mint<H: Handle>(&mut self) -> H {
        H::from_raw(self.alloc(H::KIND))
    }

    /// Frees a handle of a kind.
    pub fn free<H: Handle>(&mut self, handle: H) {
        self.free_raw(H::KIND, handle.raw());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_wire::table::BufferKey;

    fn raw(slot: u32, generation: u32) -> RawHandle {
        RawHandle { slot, generation }
    }

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

    #[test]
    fn slots_are_reused_most_recently_freed_first() {
        let mut a = SlotAllocator::<BufferKey>::default();
        let h: Vec<RawHandle> = (0..4).map(|_| a.alloc()).collect();
        assert_eq!(h, [raw(0, 1), raw(1, 1), raw(2, 1), raw(3, 1)]);
        a.free(h[1]);
        a.free(h[3]);
        a.free(h[0]);
        assert_eq!(a.live(), 1);
        let again: Vec<RawHandle> = (0..4).map(|_| a.alloc()).collect();
        assert_eq!(again, [raw(0, 2), raw(3, 2), raw(1, 2), raw(4, 1)]);
        assert_eq!(a.live(), 5);
    }

    #[test]
    fn a_slot_whose_generations_are_used_up_is_retired() {
        let mut a = SlotAllocator::<BufferKey>::with_generation_limit(3);
        let mut last = a.alloc();
        for generation in 2..=3 {
            a.free(last);
            last = a.alloc();
            assert_eq!(last, raw(0, generation));
        }
        // Generation 3 was slot 0's last: freeing it retires the slot.
        a.free(last);
        assert_eq!(a.live(), 0);
        let next = a.alloc();
        assert_eq!(next, raw(1, 1), "minting goes on with another slot");
        // Slot 0 is never minted again, however the other slots churn.
        let mut held = vec![next];
        for _ in 0..20 {
            let h = a.alloc();
            assert_ne!(h.slot, 0, "{h}");
            assert!(h.generation <= 3, "{h}");
            held.push(h);
            if held.len() > 2 {
                a.free(held.remove(0));
            }
        }
        assert_eq!(a.live(), held.len());
    }

    #[test]
    fn generation_limits_stay_within_the_wire_mapping() {
        assert_eq!(
            SlotAllocator::<BufferKey>::default().generation_limit,
            MAX_GENERATION
        );
        let clamp = |limit| SlotAllocator::<BufferKey>::with_generation_limit(limit);
        assert_eq!(clamp(u32::MAX).generation_limit, MAX_GENERATION);
        // A limit of 1 retires every slot on its first free.
        let mut a = clamp(0);
        let h = a.alloc();
        a.free(h);
        assert_eq!((a.alloc(), a.live()), (raw(1, 1), 1));
    }
}

//! Content-addressed constant state objects.
//!
//! A CSO key is a canonical, fixed-size state struct (`BlendState`, `SamplerState`, …). The
//! cache maps key -> handle: a miss mints a handle and emits `Create*` once; a hit costs one
//! hash of the key. Binding is emitted by the caller only when the handle differs from what
//! the backend has bound.
//!
//! Eviction is least-recently-used, in batches of a quarter of the capacity, and never evicts
//! a CSO that some context has bound (each entry counts its binders), so a `Destroy*` never
//! pulls state out from under a backend.

use std::collections::HashMap;
use std::hash::Hash;

use rustc_hash::FxBuildHasher;
use tessera_wire::Encoder;
use tessera_wire::handle::Handle;
use tessera_wire::record::Record;

use crate::alloc::HandleAllocators;

/// CSOs kept per kind before the least recently used are destroyed. Mesa's cso_cache keeps
/// 4096; real programs use tens to hundreds.
pub const DEFAULT_CSO_CAPACITY: usize = 4096;

#[derive(Clone, Copy, Debug)]
struct Entry<H> {
    handle: H,
    last_used: u64,
}

/// Hits and misses of one cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CsoStats {
    /// Lookups that found a CSO.
    pub hits: u64,
    /// Lookups that created one.
    pub misses: u64,
    /// CSOs destroyed by eviction.
    pub evicted: u64,
}

/// One kind of CSO.
#[derive(Debug)]
pub struct CsoCache<K, H> {
    map: HashMap<K, Entry<H>, FxBuildHasher>,
    /// Contexts that have each slot bound, indexed by handle slot.
    binders: Vec<u32>,
    /// The live handle of each slot, indexed by handle slot.
    live: Vec<Option<H>>,
    tick: u64,
    capacity: usize,
    stats: CsoStats,
}

impl<K: Hash + Eq + Clone, H: Handle> CsoCache<K, H> {
    /// An empty cache that keeps up to `capacity` CSOs.
    pub fn new(capacity: usize) -> Self {
        Self {
            map: HashMap::default(),
            binders: Vec::new(),
            live: Vec::new(),
            tick: 0,
            capacity: capacity.max(4),
            stats: CsoStats::default(),
        }
    }

    /// The CSO of `key`, creating it (and emitting `create(handle, key)`) on a miss.
    #[inline]
    pub fn get_or_create(
        &mut self,
        key: &K,
        alloc: &mut HandleAllocators,
        enc: &mut Encoder,
        create: impl FnOnce(H, &K) -> Record,
        destroy: impl Fn(H) -> Record,
    ) -> H {
        self.tick += 1;
        if let Some(entry) = self.map.get_mut(key) {
            entry.last_used = self.tick;
            self.stats.hits += 1;
            return entry.handle;
        }
        self.stats.misses += 1;
        if self.map.len() >= self.capacity {
            self.evict(alloc, enc, destroy);
        }
        let handle: H = alloc.mint();
        enc.push(create(handle, key));
        let slot = handle.raw().slot as usize;
        if self.live.len() <= slot {
            self.live.resize(slot + 1, None);
        }
        self.live[slot] = Some(handle);
        self.map.insert(
            key.clone(),
            Entry {
                handle,
                last_used: self.tick,
            },
        );
        handle
    }

    /// Records that a context now binds `new` instead of `old`.
    #[inline]
    pub fn rebind(&mut self, old: Option<H>, new: Option<H>) {
        if let Some(old) = old
            && let Some(n) = self.binders.get_mut(old.raw().slot as usize)
        {
            *n = n.saturating_sub(1);
        }
        if let Some(new) = new {
            let slot = new.raw().slot as usize;
            if self.binders.len() <= slot {
                self.binders.resize(slot + 1, 0);
            }
            self.binders[slot] += 1;
        }
    }

    fn evict(
        &mut self,
        alloc: &mut HandleAllocators,
        enc: &mut Encoder,
        destroy: impl Fn(H) -> Record,
    ) {
        let mut ages: Vec<(u64, K)> = self
            .map
            .iter()
            .filter(|(_, e)| {
                self.binders
                    .get(e.handle.raw().slot as usize)
                    .copied()
                    .unwrap_or(0)
                    == 0
            })
            .map(|(k, e)| (e.last_used, k.clone()))
            .collect();
        ages.sort_unstable_by_key(|(age, _)| *age);
        for (_, key) in ages.into_iter().take(self.capacity / 4) {
            if let Some(entry) = self.map.remove(&key) {
                enc.push(destroy(entry.handle));
                self.live[entry.handle.raw().slot as usize] = None;
                alloc.free(entry.handle);
                self.stats.evicted += 1;
            }
        }
    }

    /// Whether `handle` still names a cached CSO (callers that keep a handle of their own
    /// check this before reusing it: eviction may have destroyed it).
    #[inline]
    pub fn is_live(&self, handle: H) -> bool {
        self.live.get(handle.raw().slot as usize).copied().flatten() == Some(handle)
    }

    /// Counts a hit for a caller that reused a handle it kept (and checked with
    /// [`CsoCache::is_live`]).
    #[inline]
    pub fn count_hit(&mut self) {
        self.stats.hits += 1;
    }

    /// CSOs currently cached.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no CSO is cached.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Hits, misses and evictions so far.
    pub fn stats(&self) -> CsoStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_wire::handle::BlendHandle;

    #[test]
    fn evicts_least_recently_used_but_never_a_bound_cso() {
        let mut alloc = HandleAllocators::default();
        let mut enc = Encoder::new();
        let mut cache: CsoCache<u32, BlendHandle> = CsoCache::new(4);
        let create = |cso, _: &u32| Record::CreateBlendState {
            cso,
            state: Box::default(),
        };
        let destroy = |cso| Record::DestroyBlendState { cso };
        let first = cache.get_or_create(&0, &mut alloc, &mut enc, create, destroy);
        cache.rebind(None, Some(first));
        for key in 1..4 {
            cache.get_or_create(&key, &mut alloc, &mut enc, create, destroy);
        }
        // Full: the next miss evicts one (a quarter of 4), the oldest unbound: key 1.
        cache.get_or_create(&4, &mut alloc, &mut enc, create, destroy);
        let destroyed: Vec<_> = enc
            .records()
            .iter()
            .filter_map(|r| match r {
                Record::DestroyBlendState { cso } => Some(*cso),
                _ => None,
            })
            .collect();
        assert_eq!(destroyed.len(), 1);
        assert_ne!(destroyed[0], first);
        assert_eq!(
            cache.stats(),
            CsoStats {
                hits: 0,
                misses: 5,
                evicted: 1
            }
        );
        assert_eq!(
            cache.get_or_create(&0, &mut alloc, &mut enc, create, destroy),
            first
        );
    }
}

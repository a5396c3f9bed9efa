//! GL name tables: name -> entity, per object kind.
//!
//! Names are what the application sees. `gen_*` reserves names (the object itself is created
//! on first bind, as GL specifies); `delete_*` frees them.
//!
//! # Which name comes next
//!
//! The order is Mesa's (`_mesa_HashFindFreeKeyBlock`), checked against the native driver:
//! a new name is one above the highest name handed out since the table was created, starting
//! at 1 (0 is never a name). A deleted name is therefore not handed out again soon, even the
//! highest one, which keeps application bugs that use stale names visible instead of
//! silently aliasing. Once `u32::MAX` has been handed out, new names are the lowest free ones
//! instead, so a name is never handed out twice while it is live. When all `u32::MAX` names
//! are live, [`NameTable::generate`] fails with [`NamesExhausted`] and reserves nothing (the
//! engine raises `GL_OUT_OF_MEMORY`); that takes 4 billion live objects, so it is a guard,
//! not a case programs meet.
//!
//! # Memory
//!
//! A table holds only live names (generated and not deleted): a hash map from name to entry
//! for lookups, which bindings do on every draw, and the live names as ordered runs of
//! consecutive names, which only generating and freeing touch, to find the lowest free name
//! at the top of the name space. Both shrink as names are freed, so a million
//! generate/delete cycles with one live name keep a table of one name.

use std::collections::BTreeMap;

use bevy_ecs::entity::Entity;
use rustc_hash::FxHashMap;

/// State of one name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NameEntry {
    /// Not in use.
    #[default]
    Free,
    /// Returned by `gen_*` but no object exists yet.
    Reserved,
    /// Names an object.
    Object(Entity),
}

/// Every name of the kind is live: `generate` reserved nothing (`GL_OUT_OF_MEMORY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamesExhausted;

impl std::fmt::Display for NamesExhausted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("every GL name of this kind is in use")
    }
}

impl std::error::Error for NamesExhausted {}

/// Size of a name table (what tests and statistics read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct NameTableStats {
    /// Live names: generated (reserved or naming an object) and not freed.
    pub live: usize,
    /// Heap bytes the table holds, approximately: the hash map's slots (capacity) plus the
    /// ordered runs, without allocator and tree-node overheads.
    pub footprint: usize,
}

/// Hash map slots kept however few names are live (no shrinking below this).
const MIN_SHRINK_CAPACITY: usize = 64;

/// Names of one kind of object.
#[derive(Clone, Debug, Default)]
pub struct NameTable {
    /// Live names: `None` while reserved, the object once it exists.
    live: FxHashMap<u32, Option<Entity>>,
    /// The live names as maximal runs of consecutive names, first -> last (inclusive).
    runs: BTreeMap<u32, u32>,
    /// The highest name handed out since the table was created or drained (Mesa's
    /// `MaxKey`); 0 before the first. Every live name is at most this.
    high: u32,
    /// Debug labels (`glObjectLabel`) of names still reserved, which the object gets when
    /// it exists; freed with the name.
    reserved_labels: FxHashMap<u32, Box<str>>,
}

impl NameTable {
    /// An empty table whose first generated name is `next` (at least 1): tests reach the top
    /// of the name space with it. Equal to `NameTable::default()` for `next <= 1`.
    pub fn starting_at(next: u32) -> Self {
        let mut t = Self::default();
        t.advance_to(next);
        t
    }

    /// Moves the next generated name up to `next`, never down: names below it that are free
    /// are not handed out until the top of the name space is reached. Harmless at any time,
    /// since every live name stays below the next one; tests use it to reach the top of the
    /// name space without generating 4 billion names.
    pub fn advance_to(&mut self, next: u32) {
        self.high = self.high.max(next.saturating_sub(1));
    }

    /// Reserves `out.len()` new names and writes them to `out`, in Mesa's order (see the
    /// module documentation). Fails when fewer than `out.len()` names are free: then it
    /// reserves none and fills `out` with 0 (no name).
    pub fn generate(&mut self, out: &mut [u32]) -> Result<(), NamesExhausted> {
        let high = self.high;
        for i in 0..out.len() {
            let Some(name) = self.next_name() else {
                // Undo this call: free what it reserved and put the counter back.
                for &name in &out[..i] {
                    self.free(name);
                }
                out.fill(0);
                self.high = high;
                return Err(NamesExhausted);
            };
            self.insert(name, None);
            out[i] = name;
        }
        Ok(())
    }

    /// Reserves one new name and gives it an object at once (`create_shader` and friends).
    pub fn create(&mut self, entity: Entity) -> Result<u32, NamesExhausted> {
        let mut name = [0];
        self.generate(&mut name)?;
        self.bind_object(name[0], entity);
        Ok(name[0])
    }

    /// The state of a name.
    #[inline]
    pub fn entry(&self, name: u32) -> NameEntry {
        match self.live.get(&name) {
            None => NameEntry::Free,
            Some(None) => NameEntry::Reserved,
            Some(Some(e)) => NameEntry::Object(*e),
        }
    }

    /// The object a name refers to.
    #[inline]
    pub fn get(&self, name: u32) -> Option<Entity> {
        self.live.get(&name).copied().flatten()
    }

    /// Whether a name was generated (reserved or naming an object).
    pub fn is_generated(&self, name: u32) -> bool {
        self.live.contains_key(&name)
    }

    /// Gives a reserved name its object.
    pub fn bind_object(&mut self, name: u32, entity: Entity) {
        let slot = self.live.get_mut(&name);
        debug_assert!(slot.is_some(), "name {name} was not generated");
        if let Some(slot) = slot {
            *slot = Some(entity);
        }
    }

    /// Frees every name and returns the objects they named, in name order (a context going
    /// away). Names start at 1 again afterwards, as in Mesa.
    pub fn drain_objects(&mut self) -> Vec<Entity> {
        let mut objects: Vec<(u32, Entity)> = self
            .live
            .iter()
            .filter_map(|(&name, e)| e.map(|e| (name, e)))
            .collect();
        objects.sort_unstable_by_key(|&(name, _)| name);
        *self = Self::default();
        objects.into_iter().map(|(_, e)| e).collect()
    }

    /// Sets (or with `None` removes) the debug label of a reserved name.
    pub fn set_reserved_label(&mut self, name: u32, label: Option<Box<str>>) {
        match label {
            Some(label) => {
                self.reserved_labels.insert(name, label);
            }
            None => {
                self.reserved_labels.remove(&name);
            }
        }
    }

    /// The debug label given to a name while it was reserved, if any.
    pub fn reserved_label(&self, name: u32) -> Option<&str> {
        self.reserved_labels.get(&name).map(|l| &**l)
    }

    /// Takes the debug label given to a name while it was reserved (its object now exists
    /// and keeps the label itself).
    pub fn take_reserved_label(&mut self, name: u32) -> Option<Box<str>> {
        if self.reserved_labels.is_empty() {
            return None;
        }
        self.reserved_labels.remove(&name)
    }

    /// Frees a name; returns the object it named, if any.
    pub fn free(&mut self, name: u32) -> Option<Entity> {
        let old = self.live.remove(&name)?;
        if !self.reserved_labels.is_empty() {
            self.reserved_labels.remove(&name);
        }
        self.remove_from_runs(name);
        let capacity = self.live.capacity();
        if capacity > MIN_SHRINK_CAPACITY && self.live.len() * 4 < capacity {
            self.live.shrink_to(self.live.len() * 2);
        }
        old
    }

    /// The number of live names.
    pub fn len(&self) -> usize {
        self.live.len()
    }

    /// Whether no name is live.
    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    /// Heap bytes the table holds, approximately (see [`NameTableStats::footprint`]).
    pub fn footprint(&self) -> usize {
        self.live.capacity() * size_of::<(u32, Option<Entity>)>()
            + self.runs.len() * size_of::<(u32, u32)>()
    }

    /// Live names and footprint.
    pub fn stats(&self) -> NameTableStats {
        NameTableStats {
            live: self.len(),
            footprint: self.footprint(),
        }
    }

    /// The name the next `generate` hands out, or `None` when every name is live.
    fn next_name(&mut self) -> Option<u32> {
        if self.high < u32::MAX {
            self.high += 1;
            return Some(self.high);
        }
        // The top was reached: the lowest free name, from the first run of live names.
        match self.runs.first_key_value() {
            None => Some(1),
            Some((&first, _)) if first > 1 => Some(1),
            Some((_, &last)) => last.checked_add(1),
        }
    }

    /// Makes a free name live.
    fn insert(&mut self, name: u32, entry: Option<Entity>) {
        let previous = self.live.insert(name, entry);
        debug_assert!(previous.is_none(), "name {name} handed out twice");
        // Join the run that ends just below and the one that starts just above, if any.
        let above = name
            .checked_add(1)
            .and_then(|next| self.runs.remove(&next).map(|last| (next, last)));
        let last = above.map_or(name, |(_, last)| last);
        match self.runs.range_mut(..name).next_back() {
            Some((_, below_last)) if *below_last == name - 1 => *below_last = last,
            _ => {
                self.runs.insert(name, last);
            }
        }
    }

    /// Takes a live name out of its run.
    fn remove_from_runs(&mut self, name: u32) {
        let Some((&first, last)) = self.runs.range_mut(..=name).next_back() else {
            debug_assert!(false, "live name {name} is in no run");
            return;
        };
        let last_of_run = *last;
        debug_assert!(name <= last_of_run, "live name {name} is in no run");
        if first == name {
            self.runs.remove(&first);
        } else {
            *last = name - 1;
        }
        if name < last_of_run {
            self.runs.insert(name + 1, last_of_run);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gen_n(t: &mut NameTable, n: usize) -> Vec<u32> {
        let mut names = vec![0; n];
        t.generate(&mut names).expect("free names");
        names
    }

    fn gen1(t: &mut NameTable) -> u32 {
        gen_n(t, 1)[0]
    }

    fn runs(t: &NameTable) -> Vec<(u32, u32)> {
        t.runs.iter().map(|(&a, &b)| (a, b)).collect()
    }

    fn entity(i: u32) -> Entity {
        Entity::from_raw_u32(i).expect("a valid entity index")
    }

    #[test]
    fn names_count_up_and_are_not_reused_at_once() {
        let mut t = NameTable::default();
        assert_eq!(gen_n(&mut t, 3), [1, 2, 3]);
        assert_eq!(t.entry(2), NameEntry::Reserved);
        t.free(2);
        assert_eq!(t.entry(2), NameEntry::Free);
        assert_eq!(gen1(&mut t), 4);
    }

    #[test]
    fn zero_is_never_a_name() {
        let mut t = NameTable::default();
        assert_eq!(t.entry(0), NameEntry::Free);
        assert_eq!(gen1(&mut t), 1);
        assert_eq!(t.free(0), None);
        assert_eq!(t.len(), 1);
    }

    /// The sequence Mesa 22.3 llvmpipe gives for glGenTextures / glDeleteTextures.
    #[test]
    fn the_order_matches_the_native_driver() {
        let mut t = NameTable::default();
        assert_eq!(gen_n(&mut t, 3), [1, 2, 3]);
        t.free(3);
        assert_eq!(
            gen1(&mut t),
            4,
            "deleting the highest does not hand it out again"
        );
        t.free(1);
        assert_eq!(gen1(&mut t), 5, "a hole below is not reused");
        t.free(4);
        t.free(5);
        t.free(2);
        assert!(t.is_empty());
        assert_eq!(gen1(&mut t), 6, "not even when no name is live");
    }

    #[test]
    fn entries_follow_reserve_bind_and_free() {
        let mut t = NameTable::default();
        let n = gen1(&mut t);
        assert!(t.is_generated(n));
        assert_eq!(t.get(n), None);
        t.bind_object(n, entity(7));
        assert_eq!(t.entry(n), NameEntry::Object(entity(7)));
        assert_eq!(t.get(n), Some(entity(7)));
        assert_eq!(t.free(n), Some(entity(7)));
        assert_eq!(t.free(n), None, "freeing twice is a no-op");
        assert!(!t.is_generated(n));
        let c = t.create(entity(9)).expect("free names");
        assert_eq!(c, 2);
        assert_eq!(t.get(c), Some(entity(9)));
    }

    #[test]
    fn draining_returns_objects_in_name_order_and_restarts_at_one() {
        let mut t = NameTable::default();
        let names = gen_n(&mut t, 5);
        for (i, &n) in names.iter().enumerate().rev() {
            if i != 2 {
                t.bind_object(n, entity(100 + i as u32));
            }
        }
        assert_eq!(
            t.drain_objects(),
            [entity(100), entity(101), entity(103), entity(104)]
        );
        assert!(t.is_empty());
        assert_eq!(t.footprint(), 0);
        assert_eq!(gen1(&mut t), 1);
    }

    #[test]
    fn runs_merge_and_split_with_the_live_names() {
        let mut t = NameTable::default();
        gen_n(&mut t, 6);
        assert_eq!(runs(&t), [(1, 6)]);
        t.free(3);
        assert_eq!(runs(&t), [(1, 2), (4, 6)]);
        t.free(1);
        t.free(6);
        assert_eq!(runs(&t), [(2, 2), (4, 5)]);
        t.free(5);
        t.free(4);
        assert_eq!(runs(&t), [(2, 2)]);
        t.advance_to(u32::MAX);
        assert_eq!(gen_n(&mut t, 3), [u32::MAX, 1, 3]);
        assert_eq!(runs(&t), [(1, 3), (u32::MAX, u32::MAX)]);
    }

    #[test]
    fn a_table_can_start_at_a_given_name_and_never_moves_back() {
        let mut t = NameTable::starting_at(1000);
        assert_eq!(gen1(&mut t), 1000);
        t.advance_to(10);
        assert_eq!(
            gen1(&mut t),
            1001,
            "advancing below the next name does nothing"
        );
        assert_eq!(gen1(&mut NameTable::starting_at(0)), 1);
        assert_eq!(gen1(&mut NameTable::starting_at(1)), 1);
    }

    #[test]
    fn at_the_top_the_lowest_free_names_are_handed_out() {
        let mut t = NameTable::default();
        assert_eq!(gen_n(&mut t, 4), [1, 2, 3, 4]);
        t.free(2);
        t.advance_to(u32::MAX - 1);
        assert_eq!(
            gen_n(&mut t, 5),
            [u32::MAX - 1, u32::MAX, 2, 5, 6],
            "the top, then the lowest free names, skipping live 1, 3 and 4"
        );
        t.free(u32::MAX);
        t.free(1);
        assert_eq!(
            gen_n(&mut t, 2),
            [1, 7],
            "still the lowest free names: u32::MAX is not next although it is free"
        );
        t.free(5);
        assert_eq!(gen1(&mut t), 5, "at the top, a freed name comes back first");
        assert_eq!(t.len(), 8);
        assert_eq!(runs(&t), [(1, 7), (u32::MAX - 1, u32::MAX - 1)]);
        // No name is handed out twice while live.
        let mut seen: Vec<u32> = t.live.keys().copied().collect();
        seen.sort_unstable();
        assert_eq!(seen, [1, 2, 3, 4, 5, 6, 7, u32::MAX - 1]);
    }

    /// All `u32::MAX` names live cannot be built in a test (4 billion entries): the runs,
    /// which alone decide the next name at the top, are set up to say so.
    #[test]
    fn when_every_name_is_live_generate_fails_and_reserves_nothing() {
        let mut t = NameTable::starting_at(u32::MAX);
        t.runs.insert(1, u32::MAX - 3);
        assert_eq!(gen_n(&mut t, 2), [u32::MAX, u32::MAX - 2]);
        let before = runs(&t);
        assert_eq!(before, [(1, u32::MAX - 2), (u32::MAX, u32::MAX)]);

        // One name is free, three are asked for: none is reserved.
        let mut out = [7; 3];
        assert_eq!(t.generate(&mut out), Err(NamesExhausted));
        assert_eq!(out, [0; 3], "no name comes back");
        assert_eq!(runs(&t), before);
        assert_eq!(t.entry(u32::MAX - 1), NameEntry::Free);
        assert_eq!(t.len(), 2);

        // The last free name can still be had; then nothing can.
        assert_eq!(gen1(&mut t), u32::MAX - 1);
        assert_eq!(runs(&t), [(1, u32::MAX)]);
        assert_eq!(t.generate(&mut [0]), Err(NamesExhausted));
        assert_eq!(t.create(entity(1)), Err(NamesExhausted));
        assert_eq!(runs(&t), [(1, u32::MAX)]);
    }

    #[test]
    fn the_table_shrinks_to_the_live_names() {
        let mut t = NameTable::default();
        let names = gen_n(&mut t, 100_000);
        let peak = t.footprint();
        assert_eq!(t.len(), 100_000);
        assert_eq!(runs(&t).len(), 1);
        for &n in &names[1..] {
            t.free(n);
        }
        assert_eq!(t.len(), 1);
        assert!(
            t.footprint() <= MIN_SHRINK_CAPACITY * 2 * size_of::<(u32, Option<Entity>)>(),
            "{} bytes for one live name (peak {peak})",
            t.footprint()
        );
        for _ in 0..100_000 {
            let n = gen1(&mut t);
            t.free(n);
        }
        assert_eq!(t.len(), 1);
        assert_eq!(runs(&t), [(1, 1)]);
        assert!(t.footprint() <= MIN_SHRINK_CAPACITY * 2 * size_of::<(u32, Option<Entity>)>());
    }
}

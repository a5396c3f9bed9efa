//! GL name tables: name -> entity, per object kind.
//!
//! Names are what the application sees. `gen_*` reserves names (the object itself is created
//! on first bind, as GL specifies); `delete_*` frees them. Like Mesa, new names count up from
//! the highest name ever handed out, so a deleted name is not handed out again soon — which
//! keeps application bugs that use stale names visible instead of silently aliasing.

use bevy_ecs::entity::Entity;

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

/// Names of one kind of object.
#[derive(Clone, Debug, Default)]
pub struct NameTable {
    entries: Vec<NameEntry>,
}

impl NameTable {
    /// Reserves `out.len()` new names and writes them to `out`.
    pub fn generate(&mut self, out: &mut [u32]) {
        for slot in out {
            if self.entries.is_empty() {
                // Name 0 is never handed out.
                self.entries.push(NameEntry::Free);
            }
            *slot = self.entries.len() as u32;
            self.entries.push(NameEntry::Reserved);
        }
    }

    /// Reserves one new name and gives it an object at once (`create_shader` and friends).
    pub fn create(&mut self, entity: Entity) -> u32 {
        let mut name = [0];
        self.generate(&mut name);
        self.entries[name[0] as usize] = NameEntry::Object(entity);
        name[0]
    }

    /// The state of a name.
    #[inline]
    pub fn entry(&self, name: u32) -> NameEntry {
        self.entries
            .get(name as usize)
            .copied()
            .unwrap_or(NameEntry::Free)
    }

    /// The object a name refers to.
    #[inline]
    pub fn get(&self, name: u32) -> Option<Entity> {
        match self.entry(name) {
            NameEntry::Object(e) => Some(e),
            _ => None,
        }
    }

    /// Whether a name was generated (reserved or naming an object).
    pub fn is_generated(&self, name: u32) -> bool {
        self.entry(name) != NameEntry::Free
    }

    /// Gives a reserved name its object.
    pub fn bind_object(&mut self, name: u32, entity: Entity) {
        debug_assert!((name as usize) < self.entries.len());
        if let Some(e) = self.entries.get_mut(name as usize) {
            *e = NameEntry::Object(entity);
        }
    }

    /// Frees every name and returns the objects they named (a context going away).
    pub fn drain_objects(&mut self) -> Vec<Entity> {
        let objects = self
            .entries
            .iter()
            .filter_map(|e| match e {
                NameEntry::Object(e) => Some(*e),
                _ => None,
            })
            .collect();
        self.entries.clear();
        objects
    }

    /// Frees a name; returns the object it named, if any.
    pub fn free(&mut self, name: u32) -> Option<Entity> {
        let entry = self.entries.get_mut(name as usize)?;
        let old = std::mem::take(entry);
        match old {
            NameEntry::Object(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_count_up_and_are_not_reused_at_once() {
        let mut t = NameTable::default();
        let mut a = [0; 3];
        t.generate(&mut a);
        assert_eq!(a, [1, 2, 3]);
        assert_eq!(t.entry(2), NameEntry::Reserved);
        t.free(2);
        assert_eq!(t.entry(2), NameEntry::Free);
        let mut b = [0; 1];
        t.generate(&mut b);
        assert_eq!(b, [4]);
    }
}

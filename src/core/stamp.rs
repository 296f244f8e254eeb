//! A set of indices below a fixed bound that clears in O(1): each slot keeps the generation that
//! last marked it, so clearing is one increment (and one real fill every 2^32 - 1 clears).

/// Marks on the indices `0..len`, e.g. the cells a breadth-first search has reached.
#[derive(Clone, Debug)]
pub struct StampSet {
    stamps: Vec<u32>,
    /// The mark of the current generation; never 0, the mark of "never inserted".
    generation: u32,
}

impl StampSet {
    pub fn new(len: usize) -> StampSet {
        StampSet {
            stamps: vec![0; len],
            generation: 1,
        }
    }

    /// Forgets every index.
    #[inline]
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamps.fill(0);
            self.generation = 1;
        }
    }

    #[inline]
    pub fn contains(&self, index: usize) -> bool {
        self.stamps[index] == self.generation
    }

    /// Marks `index`; true when it was not marked yet.
    #[inline]
    pub fn insert(&mut self, index: usize) -> bool {
        let fresh = self.stamps[index] != self.generation;
        self.stamps[index] = self.generation;
        fresh
    }

    pub fn len(&self) -> usize {
        self.stamps.len()
    }

    /// Bytes the set holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.stamps.len() * std::mem::size_of::<u32>()
    }

    pub fn is_empty(&self) -> bool {
        self.stamps.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_contains_and_clear() {
        let mut set = StampSet::new(5);
        assert!(set.insert(3));
        assert!(!set.insert(3));
        assert!(set.contains(3) && !set.contains(2));
        set.clear();
        assert!(!set.contains(3));
        assert!(set.insert(3));
    }

    #[test]
    fn the_generation_wraps_without_old_marks_coming_back() {
        let mut set = StampSet::new(3);
        set.insert(0);
        set.generation = u32::MAX;
        set.insert(1);
        set.clear();
        assert_eq!(set.generation, 1);
        assert!(!set.contains(0) && !set.contains(1) && !set.contains(2));
    }
}

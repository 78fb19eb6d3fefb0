//! The open list of A* and jump point search: the monotone [`RadixHeap`] for exact searches,
//! a binary heap for searches whose keys are not monotone (weighted A*, and jump point search
//! with the inconsistent Manhattan heuristic).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::search::radix_heap::RadixHeap;

/// Binary-heap entry: lowest `f`, then highest `g`, then lowest slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    f: u64,
    g: u64,
    slot: u32,
}

impl Ord for Entry {
    #[inline]
    fn cmp(&self, o: &Self) -> Ordering {
        o.f.cmp(&self.f).then(self.g.cmp(&o.g)).then(o.slot.cmp(&self.slot))
    }
}
impl PartialOrd for Entry {
    #[inline]
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Slots of a search's nodes by key `f`, smallest first.
///
/// Monotone (a search whose popped keys never decrease): a [`RadixHeap`], newest first among
/// equal `f` (keys below the last popped one are raised to it). Otherwise a binary heap on
/// `(f, g)`, deepest first among equal `f`.
///
/// In monotone mode the entries pushed at the `f` given to [`begin_level`](Self::begin_level)
/// wait until [`end_level`](Self::end_level) and then enter the radix heap shallowest first, so
/// that the deepest comes out first. Jump point search brackets each expansion so: its sweeps
/// push their far voxels first, and plain newest-first order would resume the shallowest, where
/// on a plateau of equal `f` it should dive toward the goal as A* does. A* pushes its
/// neighbours in move order and never opens a level.
#[derive(Debug, Default, Clone)]
pub(crate) struct OpenList {
    heap: BinaryHeap<Entry>,
    radix: RadixHeap,
    /// `(g, slot)` of the entries at `level_f` pushed since `begin_level`.
    level: Vec<(u64, u32)>,
    level_f: u64,
    monotone: bool,
}

impl OpenList {
    /// Empties the list, keeping its memory, for a search whose keys are `monotone` or not.
    pub(crate) fn clear(&mut self, monotone: bool) {
        self.heap.clear();
        self.radix.clear();
        self.level.clear();
        self.level_f = u64::MAX;
        self.monotone = monotone;
    }

    /// Adds `slot` with key `f` and cost `g`.
    #[inline]
    pub(crate) fn push(&mut self, f: u64, g: u64, slot: u32) {
        if !self.monotone {
            self.heap.push(Entry { f, g, slot });
        } else if f == self.level_f {
            self.level.push((g, slot));
        } else {
            self.radix.push(f, slot);
        }
    }

    /// Starts a level at `f` (monotone mode).
    #[inline]
    pub(crate) fn begin_level(&mut self, f: u64) {
        self.level_f = f;
    }

    /// Ends the level: its entries enter the heap, the deepest last.
    #[inline]
    pub(crate) fn end_level(&mut self) {
        if self.level.len() > 1 {
            self.level.sort_unstable_by_key(|e| e.0);
        }
        for &(_, slot) in &self.level {
            self.radix.push(self.level_f, slot);
        }
        self.level.clear();
        self.level_f = u64::MAX;
    }

    /// The next entry's key and slot, without removing it.
    #[inline]
    pub(crate) fn peek(&mut self) -> Option<(u64, u32)> {
        if self.monotone { self.radix.peek() } else { self.heap.peek().map(|e| (e.f, e.slot)) }
    }

    /// Removes the next entry.
    #[inline]
    pub(crate) fn pop(&mut self) {
        if self.monotone {
            self.radix.pop();
        } else {
            self.heap.pop();
        }
    }

    /// Entries held (a node pushed again when improved counts once per push).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        if self.monotone { self.radix.len() + self.level.len() } else { self.heap.len() }
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.heap.capacity() * std::mem::size_of::<Entry>()
            + self.level.capacity() * std::mem::size_of::<(u64, u32)>()
            + self.radix.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_mode_pops_lowest_f_then_deepest() {
        let mut open = OpenList::default();
        open.clear(false);
        for (f, g, slot) in [(9, 1, 0), (5, 2, 1), (5, 4, 2), (7, 0, 3), (5, 4, 0)] {
            open.push(f, g, slot);
        }
        let mut order = Vec::new();
        while let Some((f, slot)) = open.peek() {
            order.push((f, slot));
            open.pop();
        }
        assert_eq!(order, [(5, 0), (5, 2), (5, 1), (7, 3), (9, 0)]);
    }

    #[test]
    fn a_level_enters_deepest_last() {
        let mut open = OpenList::default();
        open.clear(true);
        open.push(3, 0, 9);
        open.pop();
        open.begin_level(3);
        open.push(3, 5, 1);
        open.push(4, 1, 7);
        open.push(3, 9, 2);
        open.push(3, 7, 3);
        assert_eq!(open.len(), 4);
        open.end_level();
        let mut order = Vec::new();
        while let Some((f, slot)) = open.peek() {
            order.push((f, slot));
            open.pop();
        }
        assert_eq!(order, [(3, 2), (3, 3), (3, 1), (4, 7)]);
    }
}

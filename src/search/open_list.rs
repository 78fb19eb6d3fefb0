//! The open list of A* and jump point search: the monotone [`RadixHeap`] for exact searches,
//! a 4-ary heap for searches whose keys are not monotone (weighted A*, and jump point search
//! with the inconsistent Manhattan heuristic).

use crate::search::radix_heap::{BlockBuckets, Buckets, RadixHeap};

/// Heap entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    f: u64,
    g: u64,
    slot: u32,
}

impl Entry {
    /// The order: lowest `f`, then highest `g` (deepest), then lowest slot.
    #[inline]
    fn rank(&self) -> (u64, u64, u32) {
        (self.f, !self.g, self.slot)
    }
}

/// A 4-ary min-heap of entries by [`Entry::rank`]: half the levels of a binary heap, and
/// the four children of a node side by side in memory.
#[derive(Debug, Clone)]
struct QuadHeap {
    v: Vec<Entry>,
    /// The most entries it may have room for.
    most_room: usize,
    /// It grew since the open list's [`set_most_bytes`](OpenList::set_most_bytes).
    grew: bool,
}

impl Default for QuadHeap {
    fn default() -> Self {
        Self { v: Vec::new(), most_room: usize::MAX, grew: false }
    }
}

impl QuadHeap {
    /// Adds `e`, its room growing within [`most_room`](Self::most_room).
    #[inline]
    fn push(&mut self, e: Entry) {
        if self.v.len() == self.v.capacity() {
            self.grow();
        }
        self.v.push(e);
        self.sift_up(self.v.len() - 1, e);
    }

    /// Room for one more entry: twice the room, within the most allowed (one entry at least).
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let cap = self.v.capacity();
        let new = (2 * cap).max(16).min(self.most_room).max(cap + 1);
        self.v.reserve_exact(new - self.v.len());
        self.grew = true;
    }

    /// Puts `e` at hole `i` or above it.
    #[inline]
    fn sift_up(&mut self, mut i: usize, e: Entry) {
        let rank = e.rank();
        while i > 0 {
            let parent = (i - 1) / 4;
            if self.v[parent].rank() <= rank {
                break;
            }
            self.v[i] = self.v[parent];
            i = parent;
        }
        self.v[i] = e;
    }

    #[inline]
    fn peek(&self) -> Option<&Entry> {
        self.v.first()
    }

    /// Removes the first entry: the hole it leaves sinks to the bottom along the smallest
    /// children, then the last entry fills it from there (fewer comparisons than sinking the
    /// last entry from the top, which usually belongs near the bottom).
    fn pop(&mut self) -> Option<Entry> {
        let last = self.v.pop()?;
        let Some(&top) = self.v.first() else { return Some(last) };
        let n = self.v.len();
        let mut i = 0;
        loop {
            let first = 4 * i + 1;
            if first >= n {
                break;
            }
            let mut best = first;
            for c in first + 1..(first + 4).min(n) {
                if self.v[c].rank() < self.v[best].rank() {
                    best = c;
                }
            }
            self.v[i] = self.v[best];
            i = best;
        }
        self.sift_up(i, last);
        Some(top)
    }

    #[inline]
    fn len(&self) -> usize {
        self.v.len()
    }

    fn clear(&mut self) {
        self.v.clear();
    }

    fn heap_bytes(&self) -> usize {
        self.v.capacity() * std::mem::size_of::<Entry>()
    }
}

/// Slots of a search's nodes by key `f`, smallest first.
///
/// Monotone (a search whose popped keys never decrease): a [`RadixHeap`], newest first among
/// equal `f` (keys below the last popped one are raised to it). Otherwise a 4-ary heap on
/// `(f, g)`: lowest `f`, then deepest (highest `g`), then lowest slot.
///
/// In monotone mode the entries pushed at the `f` given to [`begin_level`](Self::begin_level)
/// wait until [`end_level`](Self::end_level) and then enter the radix heap shallowest first, so
/// that the deepest comes out first. Jump point search brackets each expansion so: its sweeps
/// push their far voxels first, and plain newest-first order would resume the shallowest, where
/// on a plateau of equal `f` it should dive toward the goal as A* does. A* pushes its
/// neighbours in move order and never opens a level.
///
/// The radix heap keeps its entries in `B` (blocks, or vectors for small searches).
#[derive(Debug, Default, Clone)]
pub(crate) struct OpenList<B: Buckets = BlockBuckets> {
    heap: QuadHeap,
    radix: RadixHeap<B>,
    /// `(g, slot)` of the entries at `level_f` pushed since `begin_level`.
    level: Vec<(u64, u32)>,
    level_f: u64,
    monotone: bool,
}

impl<B: Buckets> OpenList<B> {
    /// Empties the list, keeping its memory, for a search whose keys are `monotone` or not.
    pub(crate) fn clear(&mut self, monotone: bool) {
        self.heap.clear();
        self.radix.clear();
        self.level.clear();
        self.level_f = u64::MAX;
        self.monotone = monotone;
    }

    /// Adds `slot` with key `f` and cost `g`.
    #[inline(always)]
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

    /// Bounds the entries the radix heap's refills read and move from now on (`None`: no
    /// bound; see [`RadixHeap`]): the work of a time slice stays in proportion to its budget.
    pub(crate) fn set_refill_quota(&mut self, entries: Option<usize>) {
        self.radix.set_quota(entries);
    }

    /// Whether [`peek`](Self::peek) answered `None` because a refill paused at its quota, not
    /// because the list is empty.
    #[inline]
    pub(crate) fn paused(&self) -> bool {
        self.monotone && self.radix.paused()
    }

    /// Monotone mode: the key of the entries coming out now ([`RadixHeap::last`]); an entry
    /// pushed at it comes out next.
    #[inline]
    pub(crate) fn taken_key(&self) -> u64 {
        self.radix.last()
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

    /// The slots of the entries of a list that is not monotone, in no order (stale ones too).
    pub(crate) fn heap_slots(&self) -> impl Iterator<Item = u32> + '_ {
        self.heap.v.iter().map(|e| e.slot)
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.heap.heap_bytes() + self.level.capacity() * std::mem::size_of::<(u64, u32)>() + self.radix.heap_bytes()
    }

    /// Bytes its entries take: what a search counts against its limit.
    #[inline]
    pub(crate) fn bytes_in_use(&self) -> usize {
        if self.monotone {
            (self.radix.len() + self.level.len()) * RADIX_ENTRY_BYTES
        } else {
            self.heap.len() * std::mem::size_of::<Entry>()
        }
    }

    /// Bytes one entry takes in the heap in use.
    #[inline]
    pub(crate) fn entry_bytes(&self) -> usize {
        if self.monotone { RADIX_ENTRY_BYTES } else { std::mem::size_of::<Entry>() }
    }

    /// Keeps the room of the 4-ary heap within about `bytes` less what the rest holds from now
    /// on (one more entry always fits): a search sets it to what its limit leaves, so that its
    /// growth stays within the limit too. The radix heap's blocks follow its entries (a block
    /// for every 512 pushed), and past the same room it says so
    /// ([`radix_grew`](Self::radix_grew)), so that the search can give back room it holds
    /// elsewhere.
    pub(crate) fn set_most_bytes(&mut self, bytes: usize) {
        let room = bytes.saturating_sub(self.heap_bytes() - self.heap.heap_bytes());
        self.heap.most_room = room / std::mem::size_of::<Entry>();
        self.heap.grew = false;
        let room = bytes.saturating_sub(self.heap_bytes() - self.radix.heap_bytes());
        self.radix.set_most_bytes(room);
    }

    /// Gives back all room beyond the entries held.
    #[cold]
    pub(crate) fn give_back(&mut self) {
        self.radix.give_back();
        self.heap.v.shrink_to_fit();
        self.level.shrink_to_fit();
    }

    /// Whether the 4-ary heap grew since [`set_most_bytes`](Self::set_most_bytes): the search
    /// checks what it holds again.
    #[inline]
    pub(crate) fn grew(&self) -> bool {
        self.heap.grew
    }

    /// Whether the radix heap made room past its most since
    /// [`set_most_bytes`](Self::set_most_bytes). (Asked only where the room a search holds
    /// beside its use could pass its limit, see [`unused_bytes`](Self::unused_bytes): the
    /// question in every expansion cost A\* 1.2 % more instructions.)
    #[inline]
    pub(crate) fn radix_grew(&self) -> bool {
        self.radix.grew()
    }

    /// Bytes held beyond what its entries take.
    pub(crate) fn unused_bytes(&self) -> usize {
        self.heap_bytes().saturating_sub(self.bytes_in_use())
    }
}

/// Bytes of one entry of the radix heap (or of a level waiting to enter it).
const RADIX_ENTRY_BYTES: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_mode_pops_lowest_f_then_deepest() {
        let mut open = OpenList::<BlockBuckets>::default();
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

    /// Against the standard binary heap on random keys that rise and fall around the last
    /// popped one, as a weighted search's do: the same entries in the same order.
    #[test]
    fn heap_mode_pops_in_rank_order() {
        use std::cmp::Reverse;
        let mut seed = 0x0BE4_u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let (mut open, mut reference) = (OpenList::<BlockBuckets>::default(), std::collections::BinaryHeap::new());
        for round in 0..50 {
            open.clear(false);
            reference.clear();
            let mut last = 100;
            for i in 0..2000 {
                if next(3) != 0 || reference.is_empty() {
                    let f = (last + next(40)).saturating_sub(25 + round % 10);
                    let (g, slot) = (next(8), next(64) as u32);
                    open.push(f, g, slot);
                    reference.push(Reverse(Entry { f, g, slot }.rank()));
                } else {
                    let Reverse((f, _, slot)) = reference.pop().unwrap();
                    assert_eq!(open.peek(), Some((f, slot)), "round {round}, step {i}");
                    open.pop();
                    last = f;
                }
                assert_eq!(open.len(), reference.len());
            }
            while let Some(Reverse((f, _, slot))) = reference.pop() {
                assert_eq!(open.peek(), Some((f, slot)));
                open.pop();
            }
            assert_eq!(open.peek(), None);
        }
    }

    #[test]
    fn a_level_enters_deepest_last() {
        let mut open = OpenList::<BlockBuckets>::default();
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

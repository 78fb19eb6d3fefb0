//! A monotone radix heap: the open list of the searches.
//!
//! With a consistent heuristic A* pops keys (`f`) in non-decreasing order, so a radix heap
//! applies: bucket `i` holds the keys whose highest bit differing from the last popped key is
//! bit `i - 1`; a push is one `Vec::push`, a pop re-buckets one bucket at most, `O(log C)`
//! amortised. Bucket 0 holds keys equal to the last popped one and is a stack, so among equal
//! `f` the newest (deepest) node comes first: the usual tie-break toward the goal.
//!
//! Keys below the last popped one (an inconsistent heuristic such as Manhattan) are raised to
//! it: the order stays a valid best-first order, which such heuristics never made optimal
//! anyway.
//!
//! Memory: each bucket keeps the room of the most it held, and entries pass down through the
//! buckets, so left alone the buckets hold several times the entries the heap ever held (A* on
//! FB1 problem #4300: 649 MB of room for 141 MB of entries). A `CAPPED` heap keeps its room
//! (the entries its buckets have room for) within the most its owner allows
//! ([`set_most_room`](RadixHeap::set_most_room)): a bucket that grows past it takes the room
//! of the empty buckets back (and if need be the room of the others past their entries), and
//! keeps no more than what is left, one entry at least. So the room passes the most only where
//! the entries do not fit: while a refill moves a bucket's entries, they are held twice. (An
//! uncapped heap serves searches whose expansions are bounded, and saves the count on each
//! push.)

/// Key and payload of one entry.
pub(crate) type Entry = (u64, u32);

#[derive(Debug, Clone)]
pub(crate) struct RadixHeap<const CAPPED: bool = true> {
    last: u64,
    len: usize,
    /// Bit `i` set when bucket `i` is not empty.
    nonempty: u64,
    buckets: Box<[Vec<Entry>; 64]>,
    spare: Vec<Entry>,
    /// `CAPPED`: at least the room of the buckets and the spare (exact once counted; a refill
    /// adds the most it may grow by, so that its own pushes need not count).
    room: usize,
    /// The room of the entries a refill moves out of the heap while it puts them back.
    moving_cap: usize,
    /// The most room allowed.
    most_room: usize,
    /// A bucket grew since [`set_most_room`](Self::set_most_room).
    grew: bool,
}

impl<const CAPPED: bool> Default for RadixHeap<CAPPED> {
    fn default() -> Self {
        Self {
            last: 0,
            len: 0,
            nonempty: 0,
            buckets: Box::new(std::array::from_fn(|_| Vec::new())),
            spare: Vec::new(),
            room: 0,
            moving_cap: 0,
            most_room: usize::MAX,
            grew: false,
        }
    }
}

/// Keys differing from the last popped one in bit 63 (never: a query's costs stay below
/// 2^63) share the last bucket with those differing in bit 62, which keeps them in order.
#[inline]
fn bucket(key: u64, last: u64) -> usize {
    ((u64::BITS - (key ^ last).leading_zeros()) as usize).min(63)
}

impl<const CAPPED: bool> RadixHeap<CAPPED> {
    /// Empties the heap, keeping its memory.
    pub(crate) fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            b.clear();
        }
        self.last = 0;
        self.len = 0;
        self.nonempty = 0;
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(crate) fn push(&mut self, key: u64, value: u32) {
        let key = key.max(self.last);
        let b = bucket(key, self.last);
        self.put(b, (key, value));
        self.len += 1;
    }

    /// Puts `e` in bucket `b`, growing it within the room allowed.
    #[inline]
    fn put(&mut self, b: usize, e: Entry) {
        if CAPPED && self.buckets[b].len() == self.buckets[b].capacity() {
            self.grow(b);
        }
        self.buckets[b].push(e);
        self.nonempty |= 1 << b;
    }

    /// Makes room for one more entry in the full bucket `b`: twice its room, or what is left
    /// of the room allowed once the empty buckets gave theirs back, and if need be the others
    /// the room past their entries (one entry at least).
    #[cold]
    #[inline(never)]
    fn grow(&mut self, b: usize) {
        self.count_room();
        let cap = self.buckets[b].capacity();
        let want = (2 * cap).max(16);
        if self.room - cap + want > self.most_room {
            self.give_back_empty();
            if self.room - cap + want > self.most_room {
                // Buckets that took few entries into the room of many.
                for (i, bucket) in self.buckets.iter_mut().enumerate() {
                    if i != b {
                        bucket.shrink_to_fit();
                    }
                }
                self.count_room();
            }
        }
        let left = self.most_room.saturating_sub(self.room - cap);
        let len = self.buckets[b].len();
        self.buckets[b].reserve_exact(want.min(left).max(cap + 1) - len);
        self.room = self.room - cap + self.buckets[b].capacity();
        self.grew = true;
    }

    /// Entries the buckets, the spare and a refill's moving entries have room for, counted
    /// from them.
    fn held_room(&self) -> usize {
        self.buckets.iter().map(Vec::capacity).sum::<usize>() + self.spare.capacity() + self.moving_cap
    }

    /// Counts the room again, exactly.
    fn count_room(&mut self) {
        self.room = self.held_room();
    }

    /// Gives back the room of the empty buckets and of the spare.
    #[cold]
    fn give_back_empty(&mut self) {
        for bucket in self.buckets.iter_mut() {
            if bucket.is_empty() {
                *bucket = Vec::new();
            }
        }
        self.spare = Vec::new();
        self.count_room();
    }

    /// Gives back all room beyond the entries held.
    #[cold]
    pub(crate) fn give_back(&mut self) {
        self.give_back_empty();
        for bucket in self.buckets.iter_mut() {
            bucket.shrink_to_fit();
        }
        self.count_room();
    }

    /// Keeps the heap's room (in entries) within `most` from now on: a full bucket grows into
    /// what is left, after taking back the room of the empty ones; at least one more entry
    /// always fits.
    pub(crate) fn set_most_room(&mut self, most: usize) {
        self.most_room = most;
        self.grew = false;
    }

    /// Whether a bucket grew since [`set_most_room`](Self::set_most_room).
    #[inline]
    pub(crate) fn grew(&self) -> bool {
        self.grew
    }

    /// The smallest entry (the next [`pop`](Self::pop)), without removing it.
    #[inline]
    pub(crate) fn peek(&mut self) -> Option<Entry> {
        if self.nonempty & 1 == 0 {
            self.refill()?;
        }
        self.buckets[0].last().copied()
    }

    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Entry> {
        if self.nonempty & 1 == 0 {
            self.refill()?;
        }
        let e = self.buckets[0].pop();
        if self.buckets[0].is_empty() {
            self.nonempty &= !1;
        }
        self.len -= 1;
        e
    }

    /// Moves the smallest keys into bucket 0; `None` if the heap is empty.
    fn refill(&mut self) -> Option<()> {
        if self.nonempty == 0 {
            return None;
        }
        let i = self.nonempty.trailing_zeros() as usize;
        self.nonempty &= !(1 << i);
        // The bucket's entries move to lower buckets (all empty); its vector becomes the spare,
        // and the spare's empty one takes its place.
        std::mem::swap(&mut self.spare, &mut self.buckets[i]);
        self.last = self.spare.iter().map(|e| e.0).min().expect("bucket marked non-empty");
        // The lower buckets are empty, and each at most doubles (or takes 4 entries' room) as
        // vectors grow: with room for that, they may grow as vectors do, and the room's bound
        // takes the most they may add.
        let n = self.spare.len();
        let most_added = 2 * n + 4 * 64;
        if CAPPED && self.room.saturating_add(most_added) > self.most_room {
            self.count_room();
        }
        if !CAPPED || self.room.saturating_add(most_added) <= self.most_room {
            let mut nonempty = self.nonempty;
            for &(key, value) in &self.spare {
                let b = bucket(key, self.last);
                self.buckets[b].push((key, value));
                nonempty |= 1 << b;
            }
            self.nonempty = nonempty;
            if CAPPED {
                self.room = self.room.saturating_add(most_added);
            }
        } else {
            // Pushes that count their room borrow the heap: the entries move out meanwhile,
            // their room counted apart.
            let moving = std::mem::take(&mut self.spare);
            self.moving_cap = moving.capacity();
            for &(key, value) in &moving {
                self.put(bucket(key, self.last), (key, value));
            }
            self.spare = moving;
            self.moving_cap = 0;
            self.count_room();
        }
        self.spare.clear();
        Some(())
    }

    /// Moves every entry, in no particular order, to `out`, leaving the heap empty (as
    /// [`clear`](Self::clear)).
    pub(crate) fn drain_into(&mut self, out: &mut Vec<Entry>) {
        for b in self.buckets.iter_mut() {
            out.append(b);
        }
        self.clear();
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        debug_assert!(!CAPPED || self.room >= self.held_room(), "the heap's room is bounded as it changes");
        self.held_room() * std::mem::size_of::<Entry>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_key_order_with_monotone_pushes() {
        let mut h = RadixHeap::<true>::default();
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            seed >> 33
        };
        let mut reference = std::collections::BinaryHeap::new();
        for i in 0..100 {
            let k = next() % 1000;
            h.push(k, i);
            reference.push(std::cmp::Reverse(k));
        }
        let mut last = 0;
        while let Some((k, _)) = h.pop() {
            assert!(k >= last);
            assert_eq!(std::cmp::Reverse(k), reference.pop().unwrap());
            last = k;
            if next() % 3 == 0 {
                let k = last + next() % 50;
                h.push(k, 0);
                reference.push(std::cmp::Reverse(k));
            }
        }
        assert!(reference.is_empty());
        assert_eq!(h.len(), 0);
    }

    /// Keys apart in bit 63 share the last bucket and still come out in order.
    #[test]
    fn keys_past_bit_62_pop_in_order() {
        let mut h = RadixHeap::<true>::default();
        let keys = [u64::MAX, 1 << 63, 5, (1 << 62) + 3, 1 << 62, (1 << 63) + 7, 6];
        for (i, &k) in keys.iter().enumerate() {
            h.push(k, i as u32);
        }
        let mut sorted = keys.to_vec();
        sorted.sort_unstable();
        let popped: Vec<u64> = std::iter::from_fn(|| h.pop().map(|e| e.0)).collect();
        assert_eq!(popped, sorted);
    }

    /// A capped heap pops what an uncapped one pops and keeps its room within the most allowed
    /// (its entries at most 3,500, so that a refill's entries fit twice), where the uncapped
    /// one's buckets keep several times its entries.
    #[test]
    fn a_capped_heap_keeps_its_room_within_the_most_allowed() {
        let (mut capped, mut free) = (RadixHeap::<true>::default(), RadixHeap::<false>::default());
        let most = 9000;
        capped.set_most_room(most);
        let mut seed = 11u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let (mut last, mut most_free) = (0, 0);
        for round in 0..200 {
            // Waves of pushes over a wide range of keys, then pops: entries pass down through
            // many buckets.
            for i in 0..next(1500) {
                let k = last + next(1 << (4 + round % 30));
                capped.push(k, i as u32);
                free.push(k, i as u32);
                assert!(capped.heap_bytes() <= most * 16, "round {round}: {} bytes", capped.heap_bytes());
            }
            let mut pops = next(1800);
            while capped.len() > 2000 || pops > 0 {
                pops = pops.saturating_sub(1);
                let popped = capped.pop();
                assert_eq!(popped.map(|e| e.0), free.pop().map(|e| e.0), "round {round}");
                assert!(capped.heap_bytes() <= most * 16, "round {round}: {} bytes", capped.heap_bytes());
                last = popped.map_or(last, |e| e.0);
                if popped.is_none() {
                    break;
                }
            }
            assert_eq!(capped.len(), free.len());
            most_free = most_free.max(free.heap_bytes());
        }
        assert!(most_free > 2 * most * 16, "the uncapped heap held {most_free} bytes");
    }

    #[test]
    fn equal_keys_pop_newest_first() {
        let mut h = RadixHeap::<true>::default();
        h.push(5, 1);
        assert_eq!(h.pop(), Some((5, 1)));
        h.push(5, 2);
        h.push(5, 3);
        assert_eq!(h.peek(), Some((5, 3)));
        assert_eq!(h.pop(), Some((5, 3)));
        assert_eq!(h.pop(), Some((5, 2)));
        assert_eq!(h.pop(), None);
    }
}

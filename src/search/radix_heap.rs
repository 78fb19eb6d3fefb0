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

/// Key and payload of one entry.
pub(crate) type Entry = (u64, u32);

#[derive(Debug, Clone)]
pub(crate) struct RadixHeap {
    last: u64,
    len: usize,
    /// Bit `i` set when bucket `i` is not empty.
    nonempty: u64,
    buckets: Vec<Vec<Entry>>,
    /// Entries the buckets and the spare have room for: the sum of their capacities.
    room: usize,
    /// The most entries held since the last [`clear`](Self::clear).
    peak: usize,
    /// The emptied bucket's vector, handed to the next bucket a refill empties.
    spare: Vec<Entry>,
}

impl Default for RadixHeap {
    fn default() -> Self {
        Self { last: 0, len: 0, nonempty: 0, buckets: vec![Vec::new(); 64], room: 0, peak: 0, spare: Vec::new() }
    }
}

/// A bucket emptied by a refill keeps up to this many entries' room whatever the others hold
/// (see [`RadixHeap::refill`]).
const BUCKET_KEPT: usize = 4096;

/// Keys differing from the last popped one in bit 63 (never: a query's costs stay below
/// 2^63) share the last bucket with those differing in bit 62, which keeps them in order.
#[inline]
fn bucket(key: u64, last: u64) -> usize {
    ((u64::BITS - (key ^ last).leading_zeros()) as usize).min(63)
}

/// Pushes `e` onto `bucket`, counting the room it grows by.
#[inline]
fn put(bucket: &mut Vec<Entry>, e: Entry, room: &mut usize) {
    if bucket.len() == bucket.capacity() {
        grow(bucket, room);
    }
    bucket.push(e);
}

#[cold]
#[inline(never)]
fn grow(bucket: &mut Vec<Entry>, room: &mut usize) {
    let before = bucket.capacity();
    bucket.reserve(1);
    *room += bucket.capacity() - before;
}

impl RadixHeap {
    /// Empties the heap, keeping its memory.
    pub(crate) fn clear(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.last = 0;
        self.len = 0;
        self.peak = 0;
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
        put(&mut self.buckets[b], (key, value), &mut self.room);
        self.nonempty |= 1 << b;
        self.len += 1;
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
        self.peak = self.peak.max(self.len);
        // Its keys land in lower buckets once `last` is their least (in bucket 63 again
        // those apart from it in bit 63); the bucket takes the spare's room meanwhile.
        std::mem::swap(&mut self.spare, &mut self.buckets[i]);
        self.last = self.spare.iter().map(|e| e.0).min().expect("bucket marked non-empty");
        for &(key, value) in &self.spare {
            let b = bucket(key, self.last);
            put(&mut self.buckets[b], (key, value), &mut self.room);
            self.nonempty |= 1 << b;
        }
        self.spare.clear();
        // Each bucket keeps the room of the most it held, and the room passes from bucket to
        // bucket through the spare: kept, it came to 4.6 times the most entries held on a
        // long A* (docs/robustness.md). The spare gives its room back when the buckets and it
        // hold room for more than twice the most entries the heap held.
        if self.spare.capacity() > BUCKET_KEPT && self.room > 2 * self.peak + BUCKET_KEPT {
            self.room -= std::mem::take(&mut self.spare).capacity();
        }
        Some(())
    }

    /// Moves every entry, in no particular order, to `out`, leaving the heap empty (as
    /// [`clear`](Self::clear)).
    pub(crate) fn drain_into(&mut self, out: &mut Vec<Entry>) {
        for b in &mut self.buckets {
            out.append(b);
        }
        self.clear();
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.room * std::mem::size_of::<Entry>() + self.buckets.capacity() * std::mem::size_of::<Vec<Entry>>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_key_order_with_monotone_pushes() {
        let mut h = RadixHeap::default();
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

    /// A search's flow of keys: entries pass down through the buckets. The room counted is the
    /// buckets' capacities, and it stays near the entries held at the peak (each bucket kept
    /// the room of the most it held: 4.6 times the peak on a long A*).
    #[test]
    fn room_follows_the_entries_held() {
        let mut h = RadixHeap::default();
        let mut seed = 11u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let (mut peak, mut last) = (0, 0);
        for step in 0..600_000u32 {
            // Two pushes a pop while growing, then one, as a search's frontier.
            for _ in 0..if step < 300_000 { 2 } else { 1 } {
                h.push(last + next(1 << 20), step);
            }
            last = h.pop().map_or(last, |e| e.0);
            peak = peak.max(h.len());
            if step % 1000 == 0 {
                assert_eq!(h.room, h.buckets.iter().map(Vec::capacity).sum::<usize>() + h.spare.capacity());
            }
        }
        assert!(h.room <= 3 * peak + 64 * BUCKET_KEPT, "room for {} entries, {peak} held at the peak", h.room);
    }

    /// Keys apart in bit 63 share the last bucket and still come out in order.
    #[test]
    fn keys_past_bit_62_pop_in_order() {
        let mut h = RadixHeap::default();
        let keys = [u64::MAX, 1 << 63, 5, (1 << 62) + 3, 1 << 62, (1 << 63) + 7, 6];
        for (i, &k) in keys.iter().enumerate() {
            h.push(k, i as u32);
        }
        let mut sorted = keys.to_vec();
        sorted.sort_unstable();
        let popped: Vec<u64> = std::iter::from_fn(|| h.pop().map(|e| e.0)).collect();
        assert_eq!(popped, sorted);
    }

    #[test]
    fn equal_keys_pop_newest_first() {
        let mut h = RadixHeap::default();
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

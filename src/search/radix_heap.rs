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
    spare: Vec<Entry>,
}

impl Default for RadixHeap {
    fn default() -> Self {
        Self { last: 0, len: 0, nonempty: 0, buckets: vec![Vec::new(); 64], spare: Vec::new() }
    }
}

/// Keys differing from the last popped one in bit 63 (never: a query's costs stay below
/// 2^63) share the last bucket with those differing in bit 62, which keeps them in order.
#[inline]
fn bucket(key: u64, last: u64) -> usize {
    ((u64::BITS - (key ^ last).leading_zeros()) as usize).min(63)
}

impl RadixHeap {
    /// Empties the heap, keeping its memory.
    pub(crate) fn clear(&mut self) {
        for b in &mut self.buckets {
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
        self.buckets[b].push((key, value));
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
        std::mem::swap(&mut self.spare, &mut self.buckets[i]);
        self.nonempty &= !(1 << i);
        self.last = self.spare.iter().map(|e| e.0).min().expect("bucket marked non-empty");
        for &(key, value) in &self.spare {
            let b = bucket(key, self.last);
            self.buckets[b].push((key, value));
            self.nonempty |= 1 << b;
        }
        self.spare.clear();
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
        let entries: usize = self.buckets.iter().map(Vec::capacity).sum::<usize>() + self.spare.capacity();
        entries * std::mem::size_of::<Entry>()
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

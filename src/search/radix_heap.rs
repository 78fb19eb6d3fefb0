//! A monotone radix heap: the open list of the searches.
//!
//! With a consistent heuristic A* pops keys (`f`) in non-decreasing order, so a radix heap
//! applies: bucket `i` holds the keys whose highest bit differing from the last popped key is
//! bit `i - 1`; a push appends to one bucket, a pop re-buckets one bucket at most, `O(log C)`
//! amortised. Bucket 0 holds keys equal to the last popped one and is a stack, so among equal
//! `f` the newest (deepest) node comes first: the usual tie-break toward the goal.
//!
//! Keys below the last popped one (an inconsistent heuristic such as Manhattan) are raised to
//! it: the order stays a valid best-first order, which such heuristics never made optimal
//! anyway.
//!
//! Memory: entries pass down through the buckets as the last popped key rises. Buckets that
//! are vectors of their own ([`VecBuckets`]) each keep the room of the most they ever held: on
//! the hardest Warframe problem (FB1 #4300, 8.8 M entries at once) A*'s buckets held 649 MB
//! of room for 141 MB of entries. [`BlockBuckets`] keep their entries in blocks of 512 from
//! one pool and give a block back as it empties, so the heap holds about its most entries at
//! once and a partly filled block per bucket (docs/robustness.md). The searches use blocks; the small
//! searches whose expansions are bounded (jump point search's prelude, the shared-goal field)
//! keep vectors, cheaper for a few hundred entries.

/// Key and payload of one entry.
pub(crate) type Entry = (u64, u32);

/// Keys differing from the last popped one in bit 63 (never: a query's costs stay below
/// 2^63) share the last bucket with those differing in bit 62, which keeps them in order.
#[inline]
fn bucket(key: u64, last: u64) -> usize {
    ((u64::BITS - (key ^ last).leading_zeros()) as usize).min(63)
}

/// Where a radix heap keeps its 64 buckets' entries.
pub(crate) trait Buckets: Default + Clone + std::fmt::Debug {
    /// Whether a search with these buckets keeps what it holds within its limit
    /// ([`fit_room`](crate::search::memory::fit_room)); searches whose expansions are few skip
    /// the checks.
    const HELD_WITHIN_LIMIT: bool;
    /// Appends `e` to bucket `b`.
    fn push(&mut self, b: usize, e: Entry);
    /// The last entry of bucket 0.
    fn last0(&self) -> Option<Entry>;
    /// Removes the last entry of bucket 0 (not empty), and says whether it is empty now.
    fn pop0(&mut self) -> (Entry, bool);
    /// The least key of bucket `i` (not empty).
    fn least(&self, i: usize) -> u64;
    /// Moves the entries of bucket `i` to the buckets their keys fall in from `last`, all
    /// below `i`; returns the buckets that took entries (bit per bucket).
    fn move_down(&mut self, i: usize, last: u64) -> u64;
    /// Entries in bucket `i`.
    fn count(&self, i: usize) -> usize;
    /// The least key of the entries `range` of bucket `i` (not empty), in the order
    /// [`move_down_part`](Self::move_down_part) reads them.
    fn least_in(&self, i: usize, range: std::ops::Range<usize>) -> u64;
    /// [`move_down`](Self::move_down) in parts: moves the entries `range` of bucket `i`,
    /// whose `n` entries the first part (from 0) sets aside, the later ones reading them
    /// there; the part that ends at `n` ends the move. No other call but
    /// [`drop_aside`](Self::drop_aside) comes between the parts. (`least` and `move_down`,
    /// the whole bucket at once, stay apart from these for the one-shot searches: A\* ran 3 %
    /// more instructions on the parts, docs/living-worlds.md.)
    fn move_down_part(&mut self, i: usize, last: u64, range: std::ops::Range<usize>, n: usize) -> u64;
    /// Drops the entries set aside by a move cut short after its first `done` (more than 0).
    fn drop_aside(&mut self, done: usize);
    /// Empties every bucket, keeping room for the next search.
    fn clear(&mut self);
    /// Moves every entry to `out`.
    fn drain_into(&mut self, out: &mut Vec<Entry>);
    /// Bytes of heap held.
    fn heap_bytes(&self) -> usize;
    /// Gives back the room its entries do not use.
    fn give_back(&mut self);
    /// Whether it made room past the most set by [`set_most_bytes`](Self::set_most_bytes).
    fn grew(&self) -> bool {
        false
    }
    /// Sets the most room it may make without saying it [`grew`](Self::grew) (it still makes
    /// room for every entry pushed): `bytes` of heap in all.
    fn set_most_bytes(&mut self, _bytes: usize) {}
}

/// Each bucket a vector of its own.
#[derive(Debug)]
pub(crate) struct VecBuckets {
    buckets: Box<[Vec<Entry>; 64]>,
    /// The vector of the bucket being moved down, kept for the next refill.
    spare: Vec<Entry>,
    /// The room of the buckets and `spare` together, in entries, counted as they grow: what
    /// they hold is known without reading every bucket.
    room: usize,
}

impl Default for VecBuckets {
    fn default() -> Self {
        Self { buckets: Box::new(std::array::from_fn(|_| Vec::new())), spare: Vec::new(), room: 0 }
    }
}

/// A copy's vectors have room for their entries alone: its room is counted again.
impl Clone for VecBuckets {
    fn clone(&self) -> Self {
        let mut copy = Self { buckets: self.buckets.clone(), spare: self.spare.clone(), room: 0 };
        copy.room = copy.room_of_all();
        copy
    }
}

impl VecBuckets {
    /// Makes room for one more entry in the full bucket `v`, counted in `room`.
    #[cold]
    #[inline(never)]
    fn grow(v: &mut Vec<Entry>, room: &mut usize) {
        let before = v.capacity();
        v.reserve(1);
        *room += v.capacity() - before;
    }

    /// Appends `e` to bucket `b`, counting the room it makes.
    #[inline]
    fn push_counted(buckets: &mut [Vec<Entry>; 64], room: &mut usize, b: usize, e: Entry) {
        let v = &mut buckets[b];
        if v.len() == v.capacity() {
            Self::grow(v, room);
        }
        v.push(e);
    }

    /// The room of every vector, read one by one.
    fn room_of_all(&self) -> usize {
        self.buckets.iter().map(Vec::capacity).sum::<usize>() + self.spare.capacity()
    }
}

impl Buckets for VecBuckets {
    const HELD_WITHIN_LIMIT: bool = false;

    #[inline]
    fn push(&mut self, b: usize, e: Entry) {
        Self::push_counted(&mut self.buckets, &mut self.room, b, e);
    }

    #[inline]
    fn last0(&self) -> Option<Entry> {
        self.buckets[0].last().copied()
    }

    #[inline]
    fn pop0(&mut self) -> (Entry, bool) {
        let e = self.buckets[0].pop().expect("bucket 0 is not empty");
        (e, self.buckets[0].is_empty())
    }

    fn least(&self, i: usize) -> u64 {
        self.buckets[i].iter().map(|e| e.0).min().expect("bucket marked non-empty")
    }

    fn move_down(&mut self, i: usize, last: u64) -> u64 {
        std::mem::swap(&mut self.spare, &mut self.buckets[i]);
        let mut touched = 0;
        for &(key, value) in &self.spare {
            let b = bucket(key, last);
            Self::push_counted(&mut self.buckets, &mut self.room, b, (key, value));
            touched |= 1 << b;
        }
        self.spare.clear();
        touched
    }

    fn count(&self, i: usize) -> usize {
        self.buckets[i].len()
    }

    fn least_in(&self, i: usize, range: std::ops::Range<usize>) -> u64 {
        self.buckets[i][range].iter().map(|e| e.0).min().expect("a part is not empty")
    }

    fn move_down_part(&mut self, i: usize, last: u64, range: std::ops::Range<usize>, n: usize) -> u64 {
        if range.start == 0 {
            std::mem::swap(&mut self.spare, &mut self.buckets[i]);
        }
        let mut touched = 0;
        for k in range.clone() {
            let (key, value) = self.spare[k];
            let b = bucket(key, last);
            Self::push_counted(&mut self.buckets, &mut self.room, b, (key, value));
            touched |= 1 << b;
        }
        if range.end == n {
            self.spare.clear();
        }
        touched
    }

    fn drop_aside(&mut self, _done: usize) {
        self.spare.clear();
    }

    fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            b.clear();
        }
    }

    fn drain_into(&mut self, out: &mut Vec<Entry>) {
        for b in self.buckets.iter_mut() {
            out.append(b);
        }
    }

    fn heap_bytes(&self) -> usize {
        debug_assert_eq!(self.room, self.room_of_all());
        self.room * std::mem::size_of::<Entry>()
    }

    fn give_back(&mut self) {
        for b in self.buckets.iter_mut() {
            b.shrink_to_fit();
        }
        self.spare = Vec::new();
        self.room = self.room_of_all();
    }
}

/// Appends `block` to `list`, counting the room it makes in `room`.
#[inline]
fn push_index(list: &mut Vec<u32>, block: u32, room: &mut usize) {
    let before = list.capacity();
    list.push(block);
    *room += list.capacity() - before;
}

/// Entries per block of [`BlockBuckets`].
const BLOCK: usize = 512;

/// Bytes of one block.
const BLOCK_BYTES: usize = BLOCK * std::mem::size_of::<Entry>();

/// A bucket of [`BlockBuckets`]: its blocks (indices into the pool), the last one (`cur`)
/// filled up to `top`. An empty bucket keeps its last block, so that the next pushes find room.
#[derive(Debug, Clone)]
struct Bucket {
    blocks: Vec<u32>,
    /// The last block, if any.
    cur: u32,
    /// Entries in the last block: 0 when the bucket is empty, [`BLOCK`] when the block is full
    /// or there is none.
    top: usize,
}

impl Default for Bucket {
    fn default() -> Self {
        Self { blocks: Vec::new(), cur: 0, top: BLOCK }
    }
}

/// The buckets' entries in blocks of [`BLOCK`] from one pool, each block back in the pool as
/// soon as it empties: the room follows the entries held, however they pass down the buckets.
#[derive(Debug)]
pub(crate) struct BlockBuckets {
    buckets: Box<[Bucket; 64]>,
    /// Every block made, in use or free.
    pool: Vec<Box<[Entry; BLOCK]>>,
    /// The free blocks of the pool.
    free: Vec<u32>,
    /// The blocks of the bucket being moved down.
    spare: Vec<u32>,
    /// Entries in the last block of `spare` (a move in parts).
    spare_top: usize,
    /// The room of the buckets' block lists, `free` and `spare` together, in entries, counted
    /// as they grow: what they hold is known without reading every bucket.
    index_room: usize,
    /// The blocks the pool may hold before a new one says it [`grew`](Buckets::grew).
    most_blocks: usize,
    /// A block was made past `most_blocks` since the last
    /// [`set_most_bytes`](Buckets::set_most_bytes).
    grew: bool,
}

impl Default for BlockBuckets {
    fn default() -> Self {
        Self {
            buckets: Box::new(std::array::from_fn(|_| Bucket::default())),
            pool: Vec::new(),
            free: Vec::new(),
            spare: Vec::new(),
            spare_top: 0,
            index_room: 0,
            most_blocks: usize::MAX,
            grew: false,
        }
    }
}

/// A copy's lists have room for their entries alone: its room is counted again.
impl Clone for BlockBuckets {
    fn clone(&self) -> Self {
        let mut copy = Self {
            buckets: self.buckets.clone(),
            pool: self.pool.clone(),
            free: self.free.clone(),
            spare: self.spare.clone(),
            spare_top: self.spare_top,
            index_room: 0,
            most_blocks: self.most_blocks,
            grew: self.grew,
        };
        copy.index_room = copy.index_room_of_all();
        copy
    }
}

impl BlockBuckets {
    /// Appends `e` to bucket `b` in a new block (its last one is full, or it has none).
    #[cold]
    #[inline(never)]
    fn push_in_new_block(&mut self, b: usize, e: Entry) {
        let block = match self.free.pop() {
            Some(block) => block,
            None => {
                self.grew |= self.pool.len() >= self.most_blocks;
                self.pool.push(Box::new([(0, 0); BLOCK]));
                (self.pool.len() - 1) as u32
            }
        };
        self.pool[block as usize][0] = e;
        let bucket = &mut self.buckets[b];
        push_index(&mut bucket.blocks, block, &mut self.index_room);
        bucket.cur = block;
        bucket.top = 1;
    }

    /// Bucket 0's last block is empty (and not its only one): back to the pool, the one before
    /// it full.
    #[cold]
    #[inline(never)]
    fn next_block0(&mut self) {
        let first = &mut self.buckets[0];
        push_index(&mut self.free, first.cur, &mut self.index_room);
        first.blocks.pop();
        first.cur = *first.blocks.last().expect("more than one block");
        first.top = BLOCK;
    }

    /// The room of every block list, read one by one.
    fn index_room_of_all(&self) -> usize {
        self.buckets.iter().map(|b| b.blocks.capacity()).sum::<usize>() + self.free.capacity() + self.spare.capacity()
    }

    /// Entries in block `k` of `blocks`, the last one filled to `top`.
    #[inline]
    fn filled(k: usize, blocks: &[u32], top: usize) -> usize {
        if k + 1 == blocks.len() { top } else { BLOCK }
    }
}

impl Buckets for BlockBuckets {
    const HELD_WITHIN_LIMIT: bool = true;

    #[inline]
    fn push(&mut self, b: usize, e: Entry) {
        let bucket = &mut self.buckets[b];
        if bucket.top < BLOCK {
            self.pool[bucket.cur as usize][bucket.top] = e;
            bucket.top += 1;
        } else {
            self.push_in_new_block(b, e);
        }
    }

    #[inline]
    fn last0(&self) -> Option<Entry> {
        let first = &self.buckets[0];
        (first.top > 0 && !first.blocks.is_empty()).then(|| self.pool[first.cur as usize][first.top - 1])
    }

    #[inline]
    fn pop0(&mut self) -> (Entry, bool) {
        let first = &mut self.buckets[0];
        first.top -= 1;
        let e = self.pool[first.cur as usize][first.top];
        if first.top > 0 {
            return (e, false);
        }
        if first.blocks.len() == 1 {
            return (e, true);
        }
        self.next_block0();
        (e, false)
    }

    fn least(&self, i: usize) -> u64 {
        let b = &self.buckets[i];
        let mut least = u64::MAX;
        for (k, &block) in b.blocks.iter().enumerate() {
            for e in &self.pool[block as usize][..Self::filled(k, &b.blocks, b.top)] {
                least = least.min(e.0);
            }
        }
        least
    }

    fn move_down(&mut self, i: usize, last: u64) -> u64 {
        std::mem::swap(&mut self.spare, &mut self.buckets[i].blocks);
        let top = std::mem::replace(&mut self.buckets[i].top, BLOCK);
        // Each block read goes back to the pool at once, for the entries moving down.
        let blocks = std::mem::take(&mut self.spare);
        let mut touched = 0;
        for (k, &block) in blocks.iter().enumerate() {
            for j in 0..Self::filled(k, &blocks, top) {
                let e = self.pool[block as usize][j];
                let b = bucket(e.0, last);
                self.push(b, e);
                touched |= 1 << b;
            }
            push_index(&mut self.free, block, &mut self.index_room);
        }
        self.spare = blocks;
        self.spare.clear();
        touched
    }

    fn count(&self, i: usize) -> usize {
        let b = &self.buckets[i];
        if b.blocks.is_empty() { 0 } else { (b.blocks.len() - 1) * BLOCK + b.top }
    }

    fn least_in(&self, i: usize, range: std::ops::Range<usize>) -> u64 {
        let blocks = &self.buckets[i].blocks;
        let mut least = u64::MAX;
        let mut k = range.start;
        while k < range.end {
            let (block, j) = (blocks[k / BLOCK] as usize, k % BLOCK);
            let end = (j + range.end - k).min(BLOCK);
            for e in &self.pool[block][j..end] {
                least = least.min(e.0);
            }
            k += end - j;
        }
        least
    }

    fn move_down_part(&mut self, i: usize, last: u64, range: std::ops::Range<usize>, n: usize) -> u64 {
        if range.start == 0 {
            std::mem::swap(&mut self.spare, &mut self.buckets[i].blocks);
            self.spare_top = std::mem::replace(&mut self.buckets[i].top, BLOCK);
        }
        let mut touched = 0;
        let mut k = range.start;
        while k < range.end {
            let (block, j) = (self.spare[k / BLOCK], k % BLOCK);
            let filled = if k / BLOCK + 1 == self.spare.len() { self.spare_top } else { BLOCK };
            let end = (j + range.end - k).min(filled);
            for jj in j..end {
                let e = self.pool[block as usize][jj];
                let b = bucket(e.0, last);
                self.push(b, e);
                touched |= 1 << b;
            }
            if end == filled {
                // The block is read: back to the pool, for the entries moving down.
                push_index(&mut self.free, block, &mut self.index_room);
            }
            k += end - j;
        }
        if range.end == n {
            self.spare.clear();
        }
        touched
    }

    fn drop_aside(&mut self, done: usize) {
        // The blocks read to the end went back to the pool as they were read.
        let from = done / BLOCK;
        for k in from..self.spare.len() {
            let block = self.spare[k];
            push_index(&mut self.free, block, &mut self.index_room);
        }
        self.spare.clear();
    }

    fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            // All but the first block back to the pool.
            if b.blocks.len() > 1 {
                let before = self.free.capacity();
                self.free.extend_from_slice(&b.blocks[1..]);
                self.index_room += self.free.capacity() - before;
                b.blocks.truncate(1);
            }
            match b.blocks.first() {
                Some(&block) => (b.cur, b.top) = (block, 0),
                None => b.top = BLOCK,
            }
        }
    }

    fn drain_into(&mut self, out: &mut Vec<Entry>) {
        for b in self.buckets.iter() {
            for (k, &block) in b.blocks.iter().enumerate() {
                out.extend_from_slice(&self.pool[block as usize][..Self::filled(k, &b.blocks, b.top)]);
            }
        }
        self.clear();
    }

    fn heap_bytes(&self) -> usize {
        debug_assert_eq!(self.index_room, self.index_room_of_all());
        self.pool.len() * BLOCK_BYTES + self.pool.capacity() * 8 + self.index_room * 4
    }

    /// Gives back the free blocks (renumbering the ones in use).
    fn give_back(&mut self) {
        let mut old: Vec<Option<Box<[Entry; BLOCK]>>> = std::mem::take(&mut self.pool).into_iter().map(Some).collect();
        for b in self.buckets.iter_mut() {
            for block in &mut b.blocks {
                let content = old[*block as usize].take().expect("a block is in one bucket");
                *block = self.pool.len() as u32;
                self.pool.push(content);
            }
            b.cur = b.blocks.last().copied().unwrap_or(0);
        }
        self.pool.shrink_to_fit();
        self.free = Vec::new();
        self.index_room = self.index_room_of_all();
    }

    fn grew(&self) -> bool {
        self.grew
    }

    fn set_most_bytes(&mut self, bytes: usize) {
        // The bytes beside the blocks (their indices, a few per block) are left to the spare.
        self.most_blocks = bytes / BLOCK_BYTES;
        self.grew = false;
    }
}

/// A monotone radix heap whose buckets keep their entries in `B`.
///
/// A refill reads and moves a whole bucket, which near the end of a search of millions of
/// nodes holds millions of entries: tens of milliseconds at once. With a
/// [`quota`](Self::set_quota) it reads and moves at most that many entries and then pauses
/// ([`paused`](Self::paused): [`peek`](Self::peek) and [`pop`](Self::pop) answer `None`),
/// and the next call goes on where it stopped. The same entries come out in the same order
/// whatever the quotas.
#[derive(Debug, Clone, Default)]
pub(crate) struct RadixHeap<B: Buckets = BlockBuckets> {
    last: u64,
    len: usize,
    /// Bit `i` set when bucket `i` is not empty.
    nonempty: u64,
    buckets: B,
    /// Entries a refill may still read or move before it pauses (`None`: no bound).
    quota: Option<usize>,
    /// A refill that paused.
    pending: Option<Refill>,
}

/// A refill of bucket `i` (`n` entries) under way: its least key found so far while it reads
/// them (`least`), then its entries moved down (`moving`); `done` of them read or moved, and
/// the buckets that took entries (`touched`), marked when it ends.
#[derive(Debug, Clone, Copy)]
struct Refill {
    i: usize,
    n: usize,
    done: usize,
    least: u64,
    moving: bool,
    touched: u64,
}

impl<B: Buckets> RadixHeap<B> {
    /// Empties the heap, keeping its memory.
    pub(crate) fn clear(&mut self) {
        if let Some(r) = self.pending.take()
            && r.moving
            && r.done > 0
        {
            self.buckets.drop_aside(r.done);
        }
        self.buckets.clear();
        self.last = 0;
        self.len = 0;
        self.nonempty = 0;
    }

    /// Bounds the entries the refills read and move from now on, until set again (`None`: no
    /// bound).
    pub(crate) fn set_quota(&mut self, entries: Option<usize>) {
        self.quota = entries;
    }

    /// Whether a refill paused at its quota ([`peek`](Self::peek) and [`pop`](Self::pop)
    /// then answer `None` until it ends).
    #[inline]
    pub(crate) fn paused(&self) -> bool {
        self.pending.is_some()
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(crate) fn push(&mut self, key: u64, value: u32) {
        debug_assert!(self.pending.is_none(), "no push while a refill is under way");
        let key = key.max(self.last);
        let b = bucket(key, self.last);
        self.buckets.push(b, (key, value));
        self.nonempty |= 1 << b;
        self.len += 1;
    }

    /// The key of the entries coming out now (the least key of the last refill; 0 before the
    /// first): an entry pushed at it comes out next, the newest first.
    #[inline]
    pub(crate) fn last(&self) -> u64 {
        self.last
    }

    /// The smallest entry (the next [`pop`](Self::pop)), without removing it.
    #[inline]
    pub(crate) fn peek(&mut self) -> Option<Entry> {
        if self.nonempty & 1 == 0 {
            self.refill()?;
        }
        self.buckets.last0()
    }

    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Entry> {
        if self.nonempty & 1 == 0 {
            self.refill()?;
        }
        let (e, empty) = self.buckets.pop0();
        if empty {
            self.nonempty &= !1;
        }
        self.len -= 1;
        Some(e)
    }

    /// Moves the smallest keys into bucket 0; `None` if the heap is empty or the refill
    /// paused at its quota.
    fn refill(&mut self) -> Option<()> {
        if self.pending.is_none() {
            if self.nonempty == 0 {
                return None;
            }
            let i = self.nonempty.trailing_zeros() as usize;
            match self.quota {
                Some(quota) if 2 * self.buckets.count(i) > quota => {
                    let n = self.buckets.count(i);
                    self.pending = Some(Refill { i, n, done: 0, least: u64::MAX, moving: false, touched: 0 });
                }
                quota => {
                    self.quota = quota.map(|q| q - 2 * self.buckets.count(i));
                    self.nonempty &= !(1 << i);
                    self.last = self.buckets.least(i);
                    self.nonempty |= self.buckets.move_down(i, self.last);
                    return Some(());
                }
            }
        }
        self.refill_in_parts()
    }

    /// Goes on with the paused refill: reads its bucket for the least key, then moves its
    /// entries down, within the quota; `None` if it paused again. The buckets that take
    /// entries are marked only at the end, so that nothing is popped before it.
    #[cold]
    #[inline(never)]
    fn refill_in_parts(&mut self) -> Option<()> {
        let mut r = self.pending.take().expect("a refill under way");
        let mut quota = self.quota.unwrap_or(usize::MAX);
        loop {
            if quota == 0 {
                self.quota = Some(0);
                self.pending = Some(r);
                return None;
            }
            let end = r.n.min(r.done.saturating_add(quota));
            if r.moving {
                r.touched |= self.buckets.move_down_part(r.i, self.last, r.done..end, r.n);
            } else {
                r.least = r.least.min(self.buckets.least_in(r.i, r.done..end));
            }
            quota -= end - r.done;
            r.done = end;
            if r.done < r.n {
                continue;
            }
            if r.moving {
                self.nonempty |= r.touched;
                self.quota = self.quota.map(|_| quota);
                return Some(());
            }
            // Read: the least key is the new last one, and the entries move down from it.
            self.nonempty &= !(1 << r.i);
            self.last = r.least;
            (r.moving, r.done) = (true, 0);
        }
    }

    /// Ends a paused refill at once.
    fn finish_refill(&mut self) {
        if self.pending.is_some() {
            let quota = self.quota.take();
            self.refill_in_parts();
            self.quota = quota;
        }
    }

    /// Moves every entry, in no particular order, to `out`, leaving the heap empty (as
    /// [`clear`](Self::clear)).
    pub(crate) fn drain_into(&mut self, out: &mut Vec<Entry>) {
        self.finish_refill();
        self.buckets.drain_into(out);
        self.clear();
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.buckets.heap_bytes()
    }

    /// Gives back the room its entries do not use.
    pub(crate) fn give_back(&mut self) {
        self.finish_refill();
        self.buckets.give_back();
    }

    /// Whether its buckets made room past the most set by
    /// [`set_most_bytes`](Self::set_most_bytes).
    #[inline]
    pub(crate) fn grew(&self) -> bool {
        self.buckets.grew()
    }

    /// Sets the most room (`bytes` of heap in all) it may make before it says it
    /// [`grew`](Self::grew).
    pub(crate) fn set_most_bytes(&mut self, bytes: usize) {
        self.buckets.set_most_bytes(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_key_order_with_monotone_pushes() {
        let mut h = RadixHeap::<BlockBuckets>::default();
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
        let mut h = RadixHeap::<BlockBuckets>::default();
        let keys = [u64::MAX, 1 << 63, 5, (1 << 62) + 3, 1 << 62, (1 << 63) + 7, 6];
        for (i, &k) in keys.iter().enumerate() {
            h.push(k, i as u32);
        }
        let mut sorted = keys.to_vec();
        sorted.sort_unstable();
        let popped: Vec<u64> = std::iter::from_fn(|| h.pop().map(|e| e.0)).collect();
        assert_eq!(popped, sorted);
    }

    /// Many entries passing down the buckets, popped and pushed in turn: blocks and vectors pop
    /// the same keys in order, and the blocks hold no more than the entries need plus one
    /// partly filled (or kept empty) block per bucket, where the vectors keep several times the
    /// entries (each bucket the room of the most it ever held).
    #[test]
    fn blocks_hold_what_the_entries_need() {
        let (mut blocks, mut vecs) = (RadixHeap::<BlockBuckets>::default(), RadixHeap::<VecBuckets>::default());
        let mut seed = 11u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let (mut last, mut most, mut vec_bytes) = (0, 0, 0);
        for round in 0..400_000 {
            // Pushes outnumber pops for the first half, then pops win.
            let push = next(100) < if round < 200_000 { 60 } else { 35 } || vecs.len() == 0;
            if push {
                let bits = next(20) + 1;
                let k = last + next(1 << bits);
                blocks.push(k, round as u32);
                vecs.push(k, round as u32);
            } else {
                let popped = blocks.pop().map(|e| e.0);
                assert_eq!(popped, vecs.pop().map(|e| e.0), "round {round}");
                last = popped.expect("not empty");
            }
            most = most.max(blocks.len());
            vec_bytes = vec_bytes.max(vecs.heap_bytes());
            let used = blocks.buckets.pool.len() - blocks.buckets.free.len();
            assert!(used <= blocks.len() / BLOCK + 64, "round {round}: {used} blocks for {}", blocks.len());
        }
        assert!(most > 20_000, "{most}");
        assert!(
            blocks.buckets.pool.len() <= most.div_ceil(BLOCK) + 65,
            "{} blocks for {most}",
            blocks.buckets.pool.len()
        );
        assert!(vec_bytes > 2 * blocks.heap_bytes(), "vectors {vec_bytes}, blocks {}", blocks.heap_bytes());
        // Given back, the free blocks leave; the heap still pops in order.
        for _ in 0..1000 {
            assert_eq!(blocks.pop().map(|e| e.0), vecs.pop().map(|e| e.0));
        }
        blocks.give_back();
        assert_eq!(blocks.buckets.free.len(), 0);
        assert!(blocks.buckets.pool.len() <= blocks.len() / BLOCK + 64);
        while let Some((k, _)) = vecs.pop() {
            assert_eq!(blocks.pop().map(|e| e.0), Some(k));
        }
        assert_eq!(blocks.pop(), None);
    }

    #[test]
    fn equal_keys_pop_newest_first() {
        let mut h = RadixHeap::<BlockBuckets>::default();
        h.push(5, 1);
        assert_eq!(h.pop(), Some((5, 1)));
        h.push(5, 2);
        h.push(5, 3);
        assert_eq!(h.peek(), Some((5, 3)));
        assert_eq!(h.pop(), Some((5, 3)));
        assert_eq!(h.pop(), Some((5, 2)));
        assert_eq!(h.pop(), None);
    }

    /// A clear with entries left in some buckets (a search that ended early) empties them, and
    /// the next search pushes and pops as on a new heap.
    #[test]
    fn a_cleared_heap_serves_the_next_search_as_a_new_one() {
        fn run<B: Buckets>(seed: u64) {
            let mut rng = crate::grid::seeded::Rng(seed);
            let mut used = RadixHeap::<B>::default();
            for _ in 0..20 {
                // The last search's entries (some buckets holding some) go.
                used.clear();
                assert_eq!((used.len(), used.peek()), (0, None));
                let mut new = RadixHeap::<B>::default();
                let mut last = 0u64;
                for _ in 0..rng.below(3000) {
                    let k = last + u64::from(rng.below(1 << 16)) * u64::from(rng.below(1 << 8));
                    let v = rng.below(1 << 30);
                    used.push(k, v);
                    new.push(k, v);
                    if rng.below(2) == 0 {
                        let e = used.pop();
                        assert_eq!(e, new.pop());
                        last = e.map_or(last, |e| e.0);
                    }
                    assert_eq!(used.len(), new.len());
                }
            }
        }
        for seed in 1..4 {
            run::<BlockBuckets>(seed);
            run::<VecBuckets>(seed);
        }
    }

    /// A heap whose refills pause at small quotas pops the same entries in the same order as
    /// one without them, for both kinds of buckets, with refills paused mid-read and
    /// mid-move, a room given back and a drain while paused, and a clear that drops a paused
    /// refill's entries. Each call that pauses leaves the heap as the quota found it.
    #[test]
    fn refills_in_parts_pop_as_refills_at_once() {
        fn run<B: Buckets>(seed: u64) {
            let mut rng = crate::grid::seeded::Rng(seed);
            let (mut parts, mut whole) = (RadixHeap::<B>::default(), RadixHeap::<B>::default());
            let mut paused = 0;
            for round in 0..6 {
                // Keys in a range as wide as a large search's (millions of entries share a few
                // high buckets), pushed as a best-first search pushes them: at least the last.
                let mut last = 0u64;
                for _ in 0..3000 + rng.below(3000) as usize {
                    let k = last + u64::from(rng.below(1 << 20)) * u64::from(rng.below(1 << 10));
                    let v = rng.below(1 << 30);
                    parts.push(k, v);
                    whole.push(k, v);
                }
                loop {
                    parts.set_quota(Some(1 + rng.below(300) as usize));
                    let got = loop {
                        match parts.peek() {
                            Some(e) => break Some(e),
                            None if parts.paused() => {
                                paused += 1;
                                // What it holds is counted as it grows (checked in debug builds).
                                let _ = parts.heap_bytes();
                                if rng.below(50) == 0 {
                                    parts.set_quota(None);
                                    parts.give_back();
                                }
                                parts.set_quota(Some(1 + rng.below(300) as usize));
                            }
                            None => break None,
                        }
                    };
                    parts.set_quota(None);
                    assert_eq!(got, whole.peek(), "round {round}");
                    let Some(e) = got else { break };
                    last = e.0;
                    assert_eq!(parts.pop(), whole.pop());
                    assert_eq!(parts.len(), whole.len());
                    // Now and then pushes between pops, as expansions do.
                    if rng.below(4) == 0 {
                        let k = last + u64::from(rng.below(1 << 24));
                        parts.push(k, 7);
                        whole.push(k, 7);
                    }
                    if round % 2 == 1 && parts.len() == 1000 {
                        // Drained mid-search (the budget mode's re-keying): the same entries.
                        let (mut a, mut b) = (vec![], vec![]);
                        parts.set_quota(Some(3));
                        let _ = parts.peek();
                        parts.set_quota(None);
                        parts.drain_into(&mut a);
                        whole.drain_into(&mut b);
                        a.sort_unstable();
                        b.sort_unstable();
                        assert_eq!(a, b);
                        break;
                    }
                }
                if round == 4 {
                    // A clear while a refill is paused mid-move: nothing of it comes back.
                    // One bucket of 5,000 entries: read, then 1,000 of them moved.
                    parts.push(last, 1);
                    for k in 0..5000u64 {
                        parts.push(last + (1 << 40) + k, 1);
                    }
                    assert_eq!(parts.pop(), Some((last, 1)));
                    parts.set_quota(Some(6000));
                    assert_eq!(parts.peek(), None);
                    assert!(parts.paused());
                    parts.clear();
                    whole.clear();
                    parts.set_quota(None);
                    assert_eq!(parts.peek(), None);
                    assert!(!parts.paused());
                }
            }
            assert!(paused > 100, "paused {paused} times");
        }
        for seed in 1..4 {
            run::<BlockBuckets>(seed);
            run::<VecBuckets>(seed);
        }
    }
}

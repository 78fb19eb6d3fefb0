//! One bit per voxel, stored sparsely in chunks of 16 x 16 x 16 voxels.
//!
//! A chunk is 256 rows of 16 bits (one `u16` per `(y, z)` row, bit `x`): 512 bytes. A dense
//! table maps each chunk of the world to a slot; slot 0 is a shared all-zero chunk, so a chunk
//! with no set bit costs 4 bytes and a read never hashes: table index, then one load.
//!
//! Chunks with the same rows may share a slot (a loaded world shares one slot among all its
//! wholly set chunks of each shape, and among chunks a baked file says are equal): a shared slot
//! is copied on the first write that changes it, so sharing is invisible but for memory. Its
//! sharers are not counted, so the last one copies it too: at most one slot left unused per
//! slot ever shared. Worlds built or edited share nothing, and pay nothing for it.

/// log2 of the chunk edge.
pub(crate) const CHUNK_SHIFT: i32 = 4;
/// Chunk edge in voxels.
pub(crate) const CHUNK: i32 = 1 << CHUNK_SHIFT;
/// `v & CHUNK_MASK` is a coordinate inside its chunk.
pub(crate) const CHUNK_MASK: i32 = CHUNK - 1;
/// Voxels in one chunk.
pub(crate) const CHUNK_VOXELS: usize = (CHUNK * CHUNK * CHUNK) as usize;
const ROWS: usize = (CHUNK * CHUNK) as usize;

/// A sparse bit set over the voxels of a world; the world owns the chunk geometry.
#[derive(Debug, Clone, Default)]
pub(crate) struct BitLayer {
    /// Slot of each chunk (0: the shared empty chunk).
    slots: Vec<u32>,
    /// `ROWS` rows per slot, slot 0 all zero.
    rows: Vec<u16>,
    /// Number of set bits.
    ones: u64,
    /// One bit per slot: the slot may be shared by several chunks (copied before a change).
    shared: Vec<u64>,
    /// Per edge class (see [`BitLayer::share_full`]), the shared slot of its wholly set chunk
    /// (0: none yet).
    full: [u32; 8],
}

impl BitLayer {
    pub(crate) fn new(chunks: usize) -> Self {
        Self { slots: vec![0; chunks], rows: vec![0; ROWS], ones: 0, shared: Vec::new(), full: [0; 8] }
    }

    /// Whether no bit is set.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.ones == 0
    }

    /// Set bits in all chunks.
    pub(crate) fn ones(&self) -> u64 {
        self.ones
    }

    /// Heap bytes of a layer over `chunks` chunks with no bit set.
    pub(crate) fn empty_bytes(chunks: usize) -> usize {
        chunks * 4 + ROWS * 2
    }

    /// Bytes a chunk's rows take once allocated.
    pub(crate) const CHUNK_BYTES: usize = ROWS * 2;

    /// Heap bytes after `new_chunks` more chunks are allocated, with an exact reservation or
    /// with the usual amortized growth of the row table.
    pub(crate) fn bytes_after(&self, new_chunks: usize, exact: bool) -> usize {
        let need = self.rows.len().saturating_add(new_chunks.saturating_mul(ROWS));
        let cap = self.rows.capacity();
        let base = self.slots.capacity() * 4 + self.shared.capacity() * 8;
        let rows = if need <= cap || new_chunks == 0 {
            cap
        } else if exact {
            need
        } else {
            need.max(cap * 2)
        };
        base.saturating_add(rows.saturating_mul(2))
    }

    /// Reserves room for `new_chunks` more chunks, exactly or with the usual growth.
    pub(crate) fn reserve_chunks(&mut self, new_chunks: usize, exact: bool) {
        if exact {
            self.rows.reserve_exact(new_chunks * ROWS);
        } else {
            self.rows.reserve(new_chunks * ROWS);
        }
    }

    /// Words of the shared slots' bit set covering `new_chunks` more slots.
    fn shared_words(&self, new_chunks: usize) -> usize {
        (self.rows.len() / ROWS).saturating_add(new_chunks).div_ceil(64)
    }

    /// Heap bytes the shared slots' bit set grows by to cover `new_chunks` more slots.
    pub(crate) fn shared_bytes_after(&self, new_chunks: usize) -> usize {
        self.shared_words(new_chunks).saturating_sub(self.shared.capacity()) * 8
    }

    /// Reserves the shared slots' bit set for `new_chunks` more slots, exactly.
    pub(crate) fn reserve_shared(&mut self, new_chunks: usize) {
        let words = self.shared_words(new_chunks);
        self.shared.reserve_exact(words.saturating_sub(self.shared.len()));
    }

    /// Whether writing to chunk `chunk` may take a new slot: setting bits in a chunk with none
    /// allocated or in a shared slot other than a wholly set one (setting bits inside the
    /// world there changes nothing), clearing bits in a shared slot.
    pub(crate) fn write_needs_slot(&self, chunk: usize, set: bool) -> bool {
        let slot = self.slots[chunk];
        if slot == 0 {
            return set;
        }
        self.is_shared(slot) && !(set && self.full.contains(&slot))
    }

    /// Whether any slot is shared.
    #[inline]
    pub(crate) fn shares_slots(&self) -> bool {
        !self.shared.is_empty()
    }

    /// Whether slot `slot` may be shared by several chunks.
    #[inline]
    fn is_shared(&self, slot: u32) -> bool {
        self.shared.get(slot as usize / 64).is_some_and(|w| w >> (slot % 64) & 1 != 0)
    }

    fn mark_shared(&mut self, slot: u32) {
        let word = slot as usize / 64;
        if self.shared.len() <= word {
            self.shared.resize(word + 1, 0);
        }
        self.shared[word] |= 1 << (slot % 64);
    }

    /// Whether chunk `chunk` has no set bit allocated (the shared empty chunk).
    #[inline]
    pub(crate) fn chunk_is_empty(&self, chunk: usize) -> bool {
        self.slots[chunk] == 0
    }

    /// Row index of local `(ly, lz)` in chunk `chunk`.
    #[inline]
    fn row_index(&self, chunk: usize, ly: i32, lz: i32) -> usize {
        self.slots[chunk] as usize * ROWS + ((lz << CHUNK_SHIFT) | ly) as usize
    }

    /// The 256 rows of chunk `chunk` (row `(lz << 4) | ly`), all zero if none is allocated.
    #[inline]
    pub(crate) fn rows_of(&self, chunk: usize) -> &[u16] {
        let start = self.slots[chunk] as usize * ROWS;
        &self.rows[start..start + ROWS]
    }

    /// The slot of each chunk and the rows of each slot (`table[slot][(lz << 4) | ly]`), for
    /// reads of several chunks' rows at a time: one bounds check per chunk and none per row.
    #[inline]
    pub(crate) fn slot_table(&self) -> (&[u32], &[[u16; ROWS]]) {
        (&self.slots, self.rows.as_chunks().0)
    }

    /// The 16-bit row `(ly, lz)` of chunk `chunk`.
    #[inline]
    pub(crate) fn row(&self, chunk: usize, ly: i32, lz: i32) -> u32 {
        u32::from(self.rows[self.row_index(chunk, ly, lz)])
    }

    #[inline]
    pub(crate) fn get(&self, chunk: usize, l: [i32; 3]) -> bool {
        self.row(chunk, l[1], l[2]) >> l[0] & 1 != 0
    }

    /// Bytes of heap this layer holds.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.slots.capacity() * 4 + self.rows.capacity() * 2 + self.shared.capacity() * 8
    }
}

impl BitLayer {
    /// The allocated chunks, in chunk index order, with their 256 rows (row `(lz << 4) | ly`).
    pub(crate) fn chunks(&self) -> impl Iterator<Item = (usize, &[u16])> {
        self.slots.iter().enumerate().filter(|&(_, &slot)| slot != 0).map(|(chunk, &slot)| {
            let start = slot as usize * ROWS;
            (chunk, &self.rows[start..start + ROWS])
        })
    }

    /// The 256 rows of chunk `chunk`, or `None` if it has no set bit allocated.
    pub(crate) fn chunk_rows(&self, chunk: usize) -> Option<&[u16]> {
        let slot = self.slots[chunk];
        (slot != 0).then(|| self.slot_rows(slot))
    }

    /// The 256 rows of slot `slot`.
    pub(crate) fn slot_rows(&self, slot: u32) -> &[u16] {
        let start = slot as usize * ROWS;
        &self.rows[start..start + ROWS]
    }

    /// Gives chunk `chunk`, which has no slot, a new slot holding `rows`, of which `ones` bits
    /// are set; returns the slot.
    pub(crate) fn push_chunk(&mut self, chunk: usize, rows: &[u16; ROWS], ones: u64) -> u32 {
        debug_assert_eq!(self.slots[chunk], 0);
        let slot = (self.rows.len() / ROWS) as u32;
        self.rows.extend_from_slice(rows);
        self.slots[chunk] = slot;
        self.ones += ones;
        slot
    }

    /// Points chunk `chunk`, which has no slot, at the allocated slot `slot` (of `ones` set
    /// bits), which becomes shared.
    pub(crate) fn share_slot(&mut self, chunk: usize, slot: u32, ones: u64) {
        debug_assert!(self.slots[chunk] == 0 && slot != 0);
        self.mark_shared(slot);
        self.slots[chunk] = slot;
        self.ones += ones;
    }

    /// Points chunk `chunk`, which has no slot, at the shared slot of the wholly set chunks of
    /// edge class `class` (`0..8`; the world numbers the shapes a chunk's part inside the world
    /// can have), made from `rows` (of `ones` set bits) the first time.
    #[inline]
    pub(crate) fn share_full(&mut self, chunk: usize, class: usize, rows: &[u16; ROWS], ones: u64) {
        if self.full[class] == 0 {
            let slot = self.push_chunk(chunk, rows, 0);
            self.mark_shared(slot);
            self.full[class] = slot;
        }
        self.slots[chunk] = self.full[class];
        self.ones += ones;
    }

    /// Gives chunk `chunk` a slot of its own if its slot is shared (a copy of its rows).
    fn own(&mut self, chunk: usize) {
        let slot = self.slots[chunk];
        if self.is_shared(slot) {
            let start = slot as usize * ROWS;
            self.slots[chunk] = (self.rows.len() / ROWS) as u32;
            self.rows.extend_from_within(start..start + ROWS);
        }
    }

    /// Sets (or clears) the bits `bits` of row `(ly, lz)` of chunk `chunk`.
    pub(crate) fn fill_row(&mut self, chunk: usize, ly: i32, lz: i32, bits: u16, value: bool) {
        if self.slots[chunk] == 0 {
            if !value {
                return;
            }
            self.slots[chunk] = (self.rows.len() / ROWS) as u32;
            self.rows.resize(self.rows.len() + ROWS, 0);
        }
        let i = self.row_index(chunk, ly, lz);
        let old = self.rows[i];
        let new = if value { old | bits } else { old & !bits };
        if new == old {
            return;
        }
        self.own(chunk);
        let i = self.row_index(chunk, ly, lz);
        self.rows[i] = new;
        self.ones = self.ones + u64::from(new.count_ones()) - u64::from(old.count_ones());
    }

    /// Whether chunk `chunk` has a slot (rows of its own or shared).
    #[inline]
    pub(crate) fn allocated(&self, chunk: usize) -> bool {
        self.slots[chunk] != 0
    }

    /// ORs the 256 rows of chunk `chunk` (row `(lz << 4) | ly`) with `rows`, allocating the
    /// chunk if needed.
    pub(crate) fn or_chunk(&mut self, chunk: usize, rows: &[u16; ROWS]) {
        if self.slots[chunk] == 0 {
            self.push_chunk(chunk, rows, count_ones(rows));
            return;
        }
        let start = self.slots[chunk] as usize * ROWS;
        if self.shares_slots() && self.rows[start..start + ROWS].iter().zip(rows).all(|(r, b)| b & !r == 0) {
            return;
        }
        self.own(chunk);
        let start = self.slots[chunk] as usize * ROWS;
        for (r, &b) in self.rows[start..start + ROWS].iter_mut().zip(rows) {
            self.ones += u64::from((b & !*r).count_ones());
            *r |= b;
        }
    }
}

/// Set bits of `rows`, four rows to a word (a popcount without the instruction is a few
/// operations per word, whatever its width).
pub(crate) fn count_ones(rows: &[u16; ROWS]) -> u64 {
    rows.chunks_exact(4)
        .map(|r| {
            let w = u64::from(r[0]) | u64::from(r[1]) << 16 | u64::from(r[2]) << 32 | u64::from(r[3]) << 48;
            u64::from(w.count_ones())
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(f: impl Fn(usize) -> u16) -> [u16; ROWS] {
        std::array::from_fn(f)
    }

    /// Slots of rows allocated (the empty chunk's aside).
    fn slots(layer: &BitLayer) -> usize {
        layer.rows.len() / ROWS - 1
    }

    #[test]
    fn shared_slots_are_copied_on_the_first_change() {
        let mut layer = BitLayer::new(4);
        let a = rows(|i| (i as u16).wrapping_mul(7919));
        let slot = layer.push_chunk(0, &a, count_ones(&a));
        layer.share_slot(1, slot, count_ones(&a));
        layer.share_slot(2, slot, count_ones(&a));
        assert_eq!((slots(&layer), layer.ones), (1, 3 * count_ones(&a)));
        // Setting set bits, clearing clear ones, ORing a subset: no change, no copy.
        layer.fill_row(1, 1, 0, a[1], true);
        layer.fill_row(1, 1, 0, !a[1], false);
        layer.or_chunk(2, &rows(|i| a[i] & 0x00FF));
        assert_eq!(slots(&layer), 1);
        // A change copies the chunk's rows first: the others keep theirs.
        layer.fill_row(1, 2, 3, 0xFFFF, false);
        layer.or_chunk(2, &rows(|_| 0x8000));
        layer.fill_row(0, 0, 0, 0x0001, true);
        // Sharers are not counted: the last chunk on the shared slot copies it too, leaving
        // one slot unused (at most one per shared slot, ever).
        assert_eq!(slots(&layer), 4);
        let mut want = [a, a, a];
        want[1][(3 << CHUNK_SHIFT) | 2] = 0;
        want[2] = rows(|i| a[i] | 0x8000);
        want[0][0] |= 1;
        for (chunk, w) in want.iter().enumerate() {
            assert_eq!(layer.chunk_rows(chunk).unwrap(), w, "chunk {chunk}");
        }
        assert_eq!(layer.ones, want.iter().map(count_ones).sum::<u64>());
        assert!(layer.chunk_is_empty(3));
    }

    #[test]
    fn full_chunks_share_one_slot_per_class() {
        let mut layer = BitLayer::new(6);
        let (inner, edge) = (rows(|_| u16::MAX), rows(|i| if i < 16 { 0x000F } else { 0 }));
        for (chunk, class, r) in [(0, 0, &inner), (1, 1, &edge), (2, 0, &inner), (3, 1, &edge)] {
            layer.share_full(chunk, class, r, count_ones(r));
        }
        assert_eq!(slots(&layer), 2);
        assert_eq!(layer.ones, 2 * count_ones(&inner) + 2 * count_ones(&edge));
        // Setting bits of a wholly set chunk changes nothing; clearing one copies it, as does
        // any change to another shared slot; an empty chunk needs a slot to be set.
        assert!(!layer.write_needs_slot(0, true));
        assert!(layer.write_needs_slot(0, false));
        assert!(layer.write_needs_slot(4, true) && !layer.write_needs_slot(4, false));
        layer.fill_row(2, 5, 5, 0x0100, false);
        assert_eq!(layer.chunk_rows(0).unwrap(), inner);
        assert_eq!(layer.row(2, 5, 5), 0xFEFF);
        assert!(!layer.write_needs_slot(2, false), "its own slot now");
    }
}

//! One bit per voxel, stored sparsely in chunks of 16 x 16 x 16 voxels.
//!
//! A chunk is 256 rows of 16 bits (one `u16` per `(y, z)` row, bit `x`): 512 bytes. A dense
//! table maps each chunk of the world to a slot; slot 0 is a shared all-zero chunk, so a chunk
//! with no set bit costs 4 bytes and a read never hashes: table index, then one load.

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
}

impl BitLayer {
    pub(crate) fn new(chunks: usize) -> Self {
        Self { slots: vec![0; chunks], rows: vec![0; ROWS], ones: 0 }
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

    /// Heap bytes after `new_chunks` more chunks are allocated, and whether that needs an
    /// exact reservation (the amortized growth of the row table would pass `limit`), or `None`
    /// if even an exact one would.
    pub(crate) fn bytes_after(&self, new_chunks: usize, limit: usize, others: usize) -> Option<(usize, bool)> {
        let need = self.rows.len() + new_chunks * ROWS;
        let cap = self.rows.capacity();
        let base = self.slots.capacity() * 4 + others;
        if need <= cap {
            return Some((base + cap * 2, false));
        }
        let amortized = base + need.max(cap * 2) * 2;
        if amortized <= limit {
            return Some((amortized, false));
        }
        let exact = base + need * 2;
        (exact <= limit).then_some((exact, true))
    }

    /// Reserves room for `new_chunks` more chunks, exactly or with the usual growth.
    pub(crate) fn reserve_chunks(&mut self, new_chunks: usize, exact: bool) {
        if exact {
            self.rows.reserve_exact(new_chunks * ROWS);
        } else {
            self.rows.reserve(new_chunks * ROWS);
        }
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
        self.slots.capacity() * 4 + self.rows.capacity() * 2
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
        let slot = self.slots[chunk] as usize;
        (slot != 0).then(|| &self.rows[slot * ROWS..(slot + 1) * ROWS])
    }

    /// Number of allocated chunks.
    pub(crate) fn allocated_chunks(&self) -> usize {
        (self.rows.len() / ROWS).saturating_sub(1)
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
        self.rows[i] = new;
        self.ones = self.ones + u64::from(new.count_ones()) - u64::from(old.count_ones());
    }

    /// ORs the 256 rows of chunk `chunk` (row `(lz << 4) | ly`) with `rows`, allocating the
    /// chunk if needed.
    pub(crate) fn or_chunk(&mut self, chunk: usize, rows: &[u16; ROWS]) {
        if self.slots[chunk] == 0 {
            self.slots[chunk] = (self.rows.len() / ROWS) as u32;
            self.rows.extend_from_slice(rows);
            self.ones += count_ones(rows);
            return;
        }
        let start = self.slots[chunk] as usize * ROWS;
        for (r, &b) in self.rows[start..start + ROWS].iter_mut().zip(rows) {
            self.ones += u64::from((b & !*r).count_ones());
            *r |= b;
        }
    }
}

/// Set bits of `rows`, four rows to a word (a popcount without the instruction is a few
/// operations per word, whatever its width).
fn count_ones(rows: &[u16; ROWS]) -> u64 {
    rows.chunks_exact(4)
        .map(|r| {
            let w = u64::from(r[0]) | u64::from(r[1]) << 16 | u64::from(r[2]) << 32 | u64::from(r[3]) << 48;
            u64::from(w.count_ones())
        })
        .sum()
}

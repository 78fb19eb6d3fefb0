//! Support for [`Fallback::Closest`](crate::Fallback::Closest): a sparse visited set for
//! floods.

use glam::{IVec3, UVec3};

use crate::search::nodes::{PageTable, local};

const WORDS: usize = crate::grid::layer::CHUNK_VOXELS / 64;

/// A set of voxels, one bit each in pages of 16^3 chunks, so clearing it is free and its memory
/// follows the voxels inserted.
#[derive(Debug, Default, Clone)]
pub(crate) struct SeenSet {
    pages: PageTable,
    bits: Vec<u64>,
}

impl SeenSet {
    /// Empties the set, sized for a world of `dims` voxels.
    pub(crate) fn reset(&mut self, dims: UVec3) {
        self.pages.reset(dims);
    }

    /// Inserts `v` (inside the world); whether it was new.
    #[inline]
    pub(crate) fn insert(&mut self, v: IVec3) -> bool {
        let (page, fresh) = self.pages.page(v);
        let start = page * WORDS;
        if fresh {
            if self.bits.len() < start + WORDS {
                self.bits.resize(start + WORDS, 0);
            } else {
                self.bits[start..start + WORDS].fill(0);
            }
        }
        let i = local(v);
        let word = &mut self.bits[start + i / 64];
        let new = *word >> (i % 64) & 1 == 0;
        *word |= 1 << (i % 64);
        new
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.pages.heap_bytes() + self.bits.capacity() * 8
    }

    /// Bytes the current set uses: its page table and the pages handed out since the reset.
    pub(crate) fn bytes_in_use(&self) -> usize {
        self.pages.bytes_in_use() + self.pages.pages_used() * WORDS * 8
    }
}

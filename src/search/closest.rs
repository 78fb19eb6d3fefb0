//! Support for [`Fallback::Closest`](crate::Fallback::Closest): a sparse visited set for
//! floods.

use glam::{IVec3, UVec3};

const SHIFT: i32 = 4;
const MASK: i32 = (1 << SHIFT) - 1;
const WORDS: usize = (1 << (3 * SHIFT)) / 64;

/// A set of voxels, paged by 16^3 chunks with stamps, so clearing it is free and its memory
/// follows the voxels inserted.
#[derive(Debug, Default, Clone)]
pub(crate) struct SeenSet {
    stamp: u32,
    dims: IVec3,
    table: Vec<[u32; 2]>,
    used: usize,
    bits: Vec<u64>,
}

impl SeenSet {
    /// Empties the set, sized for a world of `dims` voxels.
    pub(crate) fn reset(&mut self, dims: UVec3) {
        let dims = (dims.as_ivec3() + MASK) >> SHIFT;
        if dims != self.dims || self.stamp == u32::MAX {
            self.table.clear();
            self.table.resize(dims.x as usize * dims.y as usize * dims.z as usize, [0, 0]);
            self.dims = dims;
            self.stamp = 0;
        }
        self.stamp += 1;
        self.used = 0;
    }

    /// Inserts `v` (inside the world); whether it was new.
    #[inline]
    pub(crate) fn insert(&mut self, v: IVec3) -> bool {
        let c = v >> SHIFT;
        let chunk = ((c.z * self.dims.y + c.y) * self.dims.x + c.x) as usize;
        let entry = self.table[chunk];
        let page = if entry[0] == self.stamp {
            entry[1] as usize
        } else {
            let page = self.used;
            self.used += 1;
            self.table[chunk] = [self.stamp, page as u32];
            let start = page * WORDS;
            if self.bits.len() < start + WORDS {
                self.bits.resize(start + WORDS, 0);
            } else {
                self.bits[start..start + WORDS].fill(0);
            }
            page
        };
        let l = v & MASK;
        let i = ((l.z << (2 * SHIFT)) | (l.y << SHIFT) | l.x) as usize;
        let word = &mut self.bits[page * WORDS + i / 64];
        let new = *word >> (i % 64) & 1 == 0;
        *word |= 1 << (i % 64);
        new
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.table.capacity() * 8 + self.bits.capacity() * 8
    }
}

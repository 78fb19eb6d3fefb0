//! Where the rasteriser's runs go: a region's x-rows and y-columns ([`Target`]), how a run of
//! an order is written into them ([`Writer`]), and the 64 x 64 bit transpose that merges the
//! y-columns into the rows.

use crate::build::bits::set_run;

/// A region's part of the output: its x-rows (the result) and its y-columns (runs along y,
/// merged into the rows at the end). Column `(x, z)` is the words
/// `(z * dims.x + x) * wpc .. + wpc`, bit `y % 64` of word `y / 64`.
pub(super) struct Target<'a> {
    pub(super) rows: &'a mut [u64],
    pub(super) columns: &'a mut [u64],
    /// A bit per 64 x 64 block of the columns (64 columns of a layer, 64 voxels of each)
    /// that a run was set in: only those are merged (see `Region::merge`).
    pub(super) dirty: Vec<u64>,
}

/// Where a run of an order goes in a region of the output.
pub(super) struct Writer {
    /// The world axis of the order's runs (y: into the y-columns).
    pub(super) run_axis: usize,
    /// Words per step along the order's run, row and layer axes (0 for x: bits in a word).
    pub(super) strides: [usize; 3],
    /// Index of the region's first word in the whole grid.
    pub(super) base: usize,
    /// Whether runs along y go to the y-columns (see `Region::new`).
    pub(super) columns: bool,
    /// Strides and base in the x-rows (runs along z, and along y without columns).
    pub(super) row_strides: [usize; 3],
    pub(super) row_base: usize,
    /// The region's first layer, words per x-row and per y-column (to mark dirty blocks).
    pub(super) z0: i32,
    pub(super) wpr: usize,
    pub(super) wpc: usize,
}

impl Writer {
    /// Sets voxels `i0..=i1` of row `j` of layer `k` (the order's coordinates, in the region).
    #[inline(always)]
    pub(super) fn set(&self, words: &mut Target, (i0, i1): (i32, i32), j: i32, k: i32) {
        let [_, s1, s2] = self.strides;
        let at = j as usize * s1 + k as usize * s2;
        if self.run_axis == 0 {
            set_run(&mut words.rows[at - self.base..], i0 as usize, i1 as usize);
        } else if self.run_axis == 1 && self.columns {
            set_run(&mut words.columns[at - self.base..], i0 as usize, i1 as usize);
            // The world x is the row's or the layer's coordinate, z the other.
            let (x, z) = if s1 < s2 { (j, k) } else { (k, j) };
            let first = ((z - self.z0) as usize * self.wpr + x as usize / 64) * self.wpc;
            for b in first + i0 as usize / 64..first + i1 as usize / 64 + 1 {
                words.dirty[b / 64] |= 1 << (b % 64);
            }
        } else {
            let words = &mut *words.rows;
            let [s0, s1, s2] = self.row_strides;
            let at = j as usize * s1 + k as usize * s2;
            // The world x is the row's or the layer's coordinate: one bit of successive rows.
            let x = if s1 == 0 { j } else { k } as usize;
            let bit = 1u64 << (x % 64);
            let mut i = at + i0 as usize * s0 + x / 64 - self.row_base;
            for _ in i0..i1 + 1 {
                words[i] |= bit;
                i += s0;
            }
        }
    }
}

/// Transposes a 64 x 64 bit matrix in place: bit `c` of word `r` goes to bit `r` of word `c`
/// (swapping ever smaller off-diagonal blocks, as in Hacker's Delight).
pub(super) fn transpose(a: &mut [u64; 64]) {
    let (mut j, mut m) = (32, 0x0000_0000_FFFF_FFFFu64);
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k] ^= t << j;
            a[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block transpose against the bit-by-bit definition, on seeded matrices.
    #[test]
    fn transpose_moves_every_bit_across_the_diagonal() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..50 {
            let mut m = [0u64; 64];
            for w in &mut m {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *w = seed;
            }
            let mut t = m;
            transpose(&mut t);
            for (r, row) in m.iter().enumerate() {
                for (c, column) in t.iter().enumerate() {
                    assert_eq!(column >> r & 1, row >> c & 1, "{r} {c}");
                }
            }
        }
    }
}

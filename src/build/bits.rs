//! [`Bits`]: a dense bit grid over a level's voxels, x-rows of 64-bit words: the plain data the
//! build stages pass each other (surface, water, reached), cheap to split into z-slabs for
//! threads.

use glam::{DVec3, IVec3};

/// The grid every stage works in: voxel `(i, j, k)` is the closed box
/// `origin + [i, i+1] x [j, j+1] x [k, k+1] * size`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Grid {
    /// World position of voxel `(0, 0, 0)`'s min corner.
    pub(crate) origin: DVec3,
    /// Voxel edge, world units.
    pub(crate) size: f64,
    /// Voxels per axis (all > 0).
    pub(crate) dims: IVec3,
}

impl Grid {
    /// A world point in voxel units (voxel `i` spans `[i, i + 1]`).
    #[inline]
    pub(crate) fn voxel_coords(&self, p: glam::Vec3) -> DVec3 {
        (p.as_dvec3() - self.origin) / self.size
    }

    /// 64-bit words per x-row.
    #[inline]
    pub(crate) fn words_per_row(&self) -> usize {
        (self.dims.x as usize).div_ceil(64)
    }

    /// Words of a grid of y-columns over this grid (64 voxels of a column per word).
    pub(crate) fn column_words(&self) -> u64 {
        (self.dims.y as u64).div_ceil(64) * self.dims.x as u64 * self.dims.z as u64
    }

    /// Words of a whole [`Bits`] over this grid.
    pub(crate) fn words(&self) -> u64 {
        self.words_per_row() as u64 * self.dims.y as u64 * self.dims.z as u64
    }
}

/// One bit per voxel of a [`Grid`]: row `(y, z)` is the words
/// `(z * dims.y + y) * wpr .. + wpr`, bit `x % 64` of word `x / 64`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bits {
    pub(crate) wpr: usize,
    pub(crate) dims: IVec3,
    pub(crate) words: Vec<u64>,
}

impl Bits {
    /// All clear. The caller checked the size against its memory limit.
    pub(crate) fn new(grid: &Grid) -> Self {
        Self { wpr: grid.words_per_row(), dims: grid.dims, words: vec![0; grid.words() as usize] }
    }

    /// Index of the first word of row `(y, z)`.
    #[inline]
    pub(crate) fn row_start(&self, y: i32, z: i32) -> usize {
        (z as usize * self.dims.y as usize + y as usize) * self.wpr
    }

    /// The words of row `(y, z)`.
    #[inline]
    pub(crate) fn row(&self, y: i32, z: i32) -> &[u64] {
        let s = self.row_start(y, z);
        &self.words[s..s + self.wpr]
    }

    #[inline]
    pub(crate) fn get(&self, v: IVec3) -> bool {
        self.row(v.y, v.z)[v.x as usize / 64] >> (v.x % 64) & 1 != 0
    }

    /// Set bits in all.
    pub(crate) fn count(&self) -> u64 {
        // Most words of a level's grids are empty: skip them before the (software) popcount.
        self.words.iter().filter(|&&w| w != 0).map(|w| u64::from(w.count_ones())).sum()
    }
}

/// Sets bits `x0..=x1` of a row (`x0 <= x1`, both inside it).
#[inline]
pub(crate) fn set_run(row: &mut [u64], x0: usize, x1: usize) {
    let (w0, w1) = (x0 / 64, x1 / 64);
    let lo = !0u64 << (x0 % 64);
    let hi = !0u64 >> (63 - x1 % 64);
    if w0 == w1 {
        row[w0] |= lo & hi;
    } else {
        row[w0] |= lo;
        for w in &mut row[w0 + 1..w1] {
            *w = !0;
        }
        row[w1] |= hi;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_set_exactly_their_bits() {
        for (x0, x1) in [(0, 0), (3, 70), (63, 64), (0, 191), (64, 127), (100, 100)] {
            let mut row = [0u64; 3];
            set_run(&mut row, x0, x1);
            for x in 0..192 {
                assert_eq!(row[x / 64] >> (x % 64) & 1 == 1, (x0..=x1).contains(&x), "{x0} {x1} {x}");
            }
        }
    }
}

//! Clearance: one world serves agents of every size.
//!
//! An agent of clearance radius `r` (in voxels) may occupy voxel `v` when `v` is of a medium it
//! may enter and every voxel within Chebyshev distance `r` of `v` is inside the world and not
//! solid (air and water both count as free: a drone's wing may hang over water it may not
//! enter). Its moves follow the query's diagonal rule on that inflated grid, so its paths are
//! exactly the paths a radius-0 search finds on the world whose solid voxels (and its outside)
//! are dilated by `r`.
//!
//! Nothing is stored for it: the inflated rows are derived from the solid layer when a search
//! reads them, by a separable dilation (x within each row, then y, then z) over the rows around
//! them, and chunks whose neighbourhood holds no solid voxel are answered from the chunk table
//! alone. The world's memory is the same for every radius, and a world edit needs no update.
//! A query's reads (`pass`) add these rows when its radius is not 0.

use glam::IVec3;

use super::layer::{CHUNK, CHUNK_MASK, CHUNK_SHIFT};
use super::moves::bit;
use super::world::VoxelWorld;

/// Largest clearance radius a query may ask for (voxels); dilations then reach at most into
/// the neighbouring chunks.
pub(crate) const MAX_CLEARANCE: u8 = 15;

/// Largest box edge (voxels) [`VoxelWorld::near_solid_rows`] dilates at once: a chunk and its
/// one-voxel halo.
const MAX_EDGE: usize = CHUNK as usize + 2;
/// Largest input edge (along y): a box and its dilation on both sides.
const MAX_INPUT: usize = MAX_EDGE + 2 * MAX_CLEARANCE as usize;

/// Bits `0..width` set.
#[inline]
fn low_bits(width: u32) -> u64 {
    if width >= 64 { u64::MAX } else { (1 << width) - 1 }
}

impl VoxelWorld {
    /// Solid bits of the voxels `x0 .. x0 + width` of the x-row at `(y, z)` (bit `i` for
    /// `x0 + i`; `width <= 63`); voxels outside the world read as solid.
    #[inline]
    fn solid_window(&self, x0: i32, y: i32, z: i32, width: u32) -> u64 {
        let all = low_bits(width);
        let dims = self.dims().as_ivec3();
        if y < 0 || z < 0 || y >= dims.y || z >= dims.z {
            return all;
        }
        let (ly, lz, cy, cz) = (y & CHUNK_MASK, z & CHUNK_MASK, y >> CHUNK_SHIFT, z >> CHUNK_SHIFT);
        let chunks_x = (dims.x + CHUNK_MASK) >> CHUNK_SHIFT;
        let mut acc = 0u64;
        for cx in (x0 >> CHUNK_SHIFT)..=((x0 + width as i32 - 1) >> CHUNK_SHIFT) {
            let bits16 = if cx < 0 || cx >= chunks_x {
                0xFFFF
            } else {
                let mut row = u64::from(self.solid_row(self.chunk_index(IVec3::new(cx, cy, cz)), ly, lz));
                let past = dims.x - (cx << CHUNK_SHIFT);
                if past < CHUNK {
                    row |= 0xFFFF << past & 0xFFFF;
                }
                row
            };
            let shift = (cx << CHUNK_SHIFT) - x0;
            acc |= if shift >= 0 { bits16 << shift } else { bits16 >> -shift };
        }
        acc & all
    }

    /// Whether every chunk that the voxel box `min..=max` touches lies wholly inside the world
    /// and holds no solid voxel (a test on the chunk table alone).
    #[inline]
    pub(crate) fn box_chunks_solid_free(&self, min: IVec3, max: IVec3) -> bool {
        let dims = self.dims().as_ivec3();
        let (lo, hi) = (min >> CHUNK_SHIFT, max >> CHUNK_SHIFT);
        if lo.cmplt(IVec3::ZERO).any() || ((hi + 1) << CHUNK_SHIFT).cmpgt(dims).any() {
            return false;
        }
        (lo.z..=hi.z).all(|z| {
            (lo.y..=hi.y).all(|y| (lo.x..=hi.x).all(|x| self.solid_chunk_empty(self.chunk_index(IVec3::new(x, y, z)))))
        })
    }

    /// For the voxel box `min .. min + size` (`size` at most 18 a side), the x-rows (index
    /// `z * size.y + y` in `out`, bit `x`) of the voxels that have a solid voxel, or the
    /// outside, within Chebyshev distance `r` (`r <= MAX_CLEARANCE`): the solid voxels dilated
    /// by `r`. Dilates x within each input row, then y, then z.
    pub(crate) fn near_solid_rows(&self, min: IVec3, size: IVec3, r: i32, out: &mut [u32]) {
        debug_assert!(size.cmpge(IVec3::ONE).all() && size.cmple(IVec3::splat(MAX_EDGE as i32)).all());
        debug_assert!((0..=i32::from(MAX_CLEARANCE)).contains(&r));
        let out = &mut out[..(size.y * size.z) as usize];
        if self.box_chunks_solid_free(min - r, min + size - 1 + r) {
            out.fill(0);
            return;
        }
        let (sy, sz) = (size.y as usize, size.z as usize);
        let span = 2 * r as usize;
        let (iy, iz) = (sy + span, sz + span);
        let in_width = (size.x + 2 * r) as u32;
        let keep = low_bits(size.x as u32);
        // One input z-layer at a time (no buffer of the whole input: a query that asks for a
        // 3x3 mask must not clear kilobytes): its rows dilated along x, then along y, then ORed
        // into every output layer within reach along z.
        out.fill(0);
        let mut layer = [0u64; MAX_INPUT];
        for zi in 0..iz {
            for (yi, d) in layer[..iy].iter_mut().enumerate() {
                let w = self.solid_window(min.x - r, min.y - r + yi as i32, min.z - r + zi as i32, in_width);
                let mut x = 0;
                for k in 0..=span {
                    x |= w >> k;
                }
                *d = x & keep;
            }
            let (z_lo, z_hi) = (zi.saturating_sub(span), zi.min(sz - 1));
            for y in 0..sy {
                let m = layer[y..=y + span].iter().fold(0, |m, &b| m | b) as u32;
                if m != 0 {
                    for z in z_lo..=z_hi {
                        out[z * sy + y] |= m;
                    }
                }
            }
        }
    }

    /// Whether the voxel box `min..=max` holds a solid voxel or reaches outside the world.
    pub(crate) fn solid_in_box(&self, min: IVec3, max: IVec3) -> bool {
        if self.box_chunks_solid_free(min, max) {
            return false;
        }
        for z in min.z..=max.z {
            for y in min.y..=max.y {
                let mut x = min.x;
                while x <= max.x {
                    let width = (max.x - x + 1).min(63);
                    if self.solid_window(x, y, z, width as u32) != 0 {
                        return true;
                    }
                    x += width;
                }
            }
        }
        false
    }

    /// Whether a solid voxel, or the outside, lies within Chebyshev distance `r` of `v`.
    pub(crate) fn near_solid(&self, v: IVec3, r: i32) -> bool {
        let mut row = [0u32; 1];
        self.near_solid_rows(v, IVec3::ONE, r, &mut row);
        row[0] != 0
    }

    /// The 3x3x3 mask (see `moves`) of the voxels around `v` near a solid voxel (see
    /// [`near_solid`](Self::near_solid)).
    pub(crate) fn near_solid_mask(&self, v: IVec3, r: i32) -> u32 {
        let mut rows = [0u32; 9];
        self.near_solid_rows(v - 1, IVec3::splat(3), r, &mut rows);
        let mut mask = 0;
        for dz in -1..=1 {
            for dy in -1..=1 {
                let row = rows[((dz + 1) * 3 + dy + 1) as usize];
                mask |= (row & 7) << bit(-1, dy, dz);
            }
        }
        mask
    }

    /// The Chebyshev distance (voxels) from `v` to the nearest solid voxel or the outside of
    /// the world, counted up to `MAX_CLEARANCE + 1` (16): `0` for a solid voxel or one
    /// outside. An agent of clearance radius `r` fits at `v` when this is more than `r`.
    ///
    /// # Examples
    /// ```
    /// use glam::{IVec3, UVec3, Vec3};
    /// use voxnav::{Voxel, VoxelWorld};
    /// let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(40)).unwrap();
    /// world.set(IVec3::new(20, 20, 20), Voxel::Solid).unwrap();
    /// assert_eq!(world.clearance(IVec3::new(20, 20, 20)), 0);
    /// assert_eq!(world.clearance(IVec3::new(23, 21, 18)), 3); // the world's edge is farther
    /// assert_eq!(world.clearance(IVec3::new(0, 20, 10)), 1); // next to the outside
    /// ```
    #[must_use]
    pub fn clearance(&self, v: IVec3) -> u8 {
        if self.is_blocked(v) {
            return 0;
        }
        (1..=MAX_CLEARANCE).find(|&r| self.near_solid(v, i32::from(r))).unwrap_or(MAX_CLEARANCE + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::moves::OFFSETS;
    use crate::medium::Voxel;
    use glam::{UVec3, Vec3};

    fn naive_near_solid(w: &VoxelWorld, v: IVec3, r: i32) -> bool {
        (-r..=r).any(|dz| (-r..=r).any(|dy| (-r..=r).any(|dx| w.is_blocked(v + IVec3::new(dx, dy, dz)))))
    }

    #[test]
    fn dilated_rows_match_voxel_reads_across_chunk_borders() {
        let dims = UVec3::new(45, 37, 34);
        let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
        let mut seed = 99u64;
        for _ in 0..40 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let v = IVec3::new(((seed >> 20) % 45) as i32, ((seed >> 30) % 37) as i32, ((seed >> 40) % 34) as i32);
            w.set(v, if seed >> 63 == 0 { Voxel::Solid } else { Voxel::Water }).unwrap();
        }
        for r in [1, 2, 5, 7, 15] {
            for z in (-1..35).step_by(3) {
                for y in -1..38 {
                    for x in (-1..46).step_by(2) {
                        let v = IVec3::new(x, y, z);
                        assert_eq!(w.near_solid(v, r), naive_near_solid(&w, v, r), "{v} r={r}");
                        if x % 6 == 1 && y % 3 == 1 {
                            let mut naive = 0;
                            for d in OFFSETS {
                                if naive_near_solid(&w, v + d, r) {
                                    naive |= 1 << bit(d.x, d.y, d.z);
                                }
                            }
                            let centre = 1 << bit(0, 0, 0);
                            assert_eq!(w.near_solid_mask(v, r) & !centre, naive, "{v} r={r}");
                        }
                    }
                }
            }
        }
    }
}

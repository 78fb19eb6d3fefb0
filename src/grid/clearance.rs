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

/// Largest edge of the input box of a 3x3x3 mask: three voxels and the radius on both sides.
const MAX_BOX: usize = 3 + 2 * MAX_CLEARANCE as usize;

/// The ORs of the three windows `0..=n-3`, `1..=n-2`, `2..=n-1` of `w` (`n = w.len() >= 3`).
#[inline]
fn windows3(w: &[u64]) -> [u64; 3] {
    let n = w.len();
    let common = w[2..n - 2].iter().fold(0, |a, &b| a | b);
    [w[0] | w[1] | common, w[1] | common | w[n - 2], common | w[n - 2] | w[n - 1]]
}

/// ORs chunk rows of x-chunk `cx` into `out`, bit `i` of an output row for voxel `x0 + i`.
#[inline(always)]
fn or_rows(rows: &[u16], cx: i32, x0: i32, out: &mut [u64]) {
    let shift = (cx << CHUNK_SHIFT) - x0;
    let (left, right) = (shift.max(0) as u32, (-shift).max(0) as u32);
    for (o, &row) in out.iter_mut().zip(rows) {
        *o |= u64::from(row) << left >> right;
    }
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

    /// The solid rows of chunk `cc` (row `(lz << 4) | ly`).
    #[inline]
    fn solid_rows_of(&self, cc: IVec3) -> &[u16; 256] {
        let (slots, table) = self.solid_layer().slot_table();
        &table[slots[self.chunk_index(cc)] as usize]
    }

    /// [`solid_window`](Self::solid_window) of the rows `y0 .. y0 + out.len()` of plane `z`
    /// into `out`: where they all lie inside the world, read chunk by chunk (each chunk
    /// looked up once, its rows in a run), else row by row.
    fn solid_windows(&self, x0: i32, y0: i32, z: i32, width: u32, out: &mut [u64]) {
        let dims = self.dims().as_ivec3();
        let (x1, y1) = (x0 + width as i32 - 1, y0 + out.len() as i32 - 1);
        if x0 < 0 || y0 < 0 || z < 0 || x1 >= dims.x || y1 >= dims.y || z >= dims.z {
            for (y, o) in (y0..).zip(out.iter_mut()) {
                *o = self.solid_window(x0, y, z, width);
            }
            return;
        }
        out.fill(0);
        let (cz, lz) = (z >> CHUNK_SHIFT, z & CHUNK_MASK);
        for cy in (y0 >> CHUNK_SHIFT)..=(y1 >> CHUNK_SHIFT) {
            let (ya, yb) = (y0.max(cy << CHUNK_SHIFT), y1.min((cy << CHUNK_SHIFT) | CHUNK_MASK) + 1);
            let at = ((lz << CHUNK_SHIFT) | (ya & CHUNK_MASK)) as usize;
            let out = &mut out[(ya - y0) as usize..(yb - y0) as usize];
            for cx in (x0 >> CHUNK_SHIFT)..=(x1 >> CHUNK_SHIFT) {
                or_rows(&self.solid_rows_of(IVec3::new(cx, cy, cz))[at..at + out.len()], cx, x0, out);
            }
        }
        let all = low_bits(width);
        for o in out {
            *o &= all;
        }
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
            self.solid_windows(min.x - r, min.y - r, min.z - r + zi as i32, in_width, &mut layer[..iy]);
            for d in &mut layer[..iy] {
                let w = *d;
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
        let (lo, hi) = (v - (r + 1), v + (r + 1));
        if lo.cmpge(IVec3::ZERO).all() && hi.cmplt(self.dims().as_ivec3()).all() {
            return self.near_solid_mask_inside(lo, hi, r);
        }
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

    /// [`near_solid_mask`](Self::near_solid_mask) of the voxel `lo + r + 1`, whose box of
    /// input voxels `lo..=hi` lies inside the world: the box's rows are read straight from
    /// its chunks' rows (each chunk looked up once, not each row through the general window
    /// read), ORed along y and z into the nine output rows' windows, and only those nine are
    /// dilated along x. About half the instructions of dilating the box row by row.
    fn near_solid_mask_inside(&self, lo: IVec3, hi: IVec3, r: i32) -> u32 {
        if self.box_chunks_solid_free(lo, hi) {
            return 0;
        }
        // A buffer no larger than the box needs (an array is cleared whole).
        match 2 * r as usize + 3 {
            n @ ..=7 => self.near_solid_mask_gathered::<49>(lo, hi, n),
            n @ ..=11 => self.near_solid_mask_gathered::<121>(lo, hi, n),
            n => self.near_solid_mask_gathered::<{ MAX_BOX * MAX_BOX }>(lo, hi, n),
        }
    }

    /// [`near_solid_mask_inside`](Self::near_solid_mask_inside) for a box of edge `n`
    /// (`n * n <= CAP`).
    #[inline]
    fn near_solid_mask_gathered<const CAP: usize>(&self, lo: IVec3, hi: IVec3, n: usize) -> u32 {
        // The box's x-rows (bit `i` for `lo.x + i`), `rows[zi * n + yi]`, gathered chunk by
        // chunk: a chunk looked up once, its rows inside the box read plane by plane.
        let mut rows = [0u64; CAP];
        let rows = &mut rows[..n * n];
        let (c_lo, c_hi) = (lo >> CHUNK_SHIFT, hi >> CHUNK_SHIFT);
        for cz in c_lo.z..c_hi.z + 1 {
            let (z0, z1) = (lo.z.max(cz << CHUNK_SHIFT), hi.z.min((cz << CHUNK_SHIFT) | CHUNK_MASK) + 1);
            for cy in c_lo.y..c_hi.y + 1 {
                let (y0, y1) = (lo.y.max(cy << CHUNK_SHIFT), hi.y.min((cy << CHUNK_SHIFT) | CHUNK_MASK) + 1);
                let (out_y, in_y, len) = ((y0 - lo.y) as usize, (y0 & CHUNK_MASK) as usize, (y1 - y0) as usize);
                for cx in c_lo.x..c_hi.x + 1 {
                    let chunk_rows = self.solid_rows_of(IVec3::new(cx, cy, cz));
                    for z in z0..z1 {
                        let at = (z - lo.z) as usize * n + out_y;
                        let from = ((z & CHUNK_MASK) << CHUNK_SHIFT) as usize + in_y;
                        or_rows(&chunk_rows[from..from + len], cx, lo.x, &mut rows[at..at + len]);
                    }
                }
            }
        }
        // Along y, then z: the ORs of the windows of output rows and planes (`2 r + 1` wide):
        // per output row, its planes' rows ORed by the part of the windows they fall in (the
        // first two planes, those common to all three, the last two).
        let span = n - 3;
        let mut by_plane = [[0u64; 3]; 5];
        for (zi, plane) in rows.chunks_exact(n).enumerate() {
            let part = if zi < 2 {
                zi
            } else if zi <= span {
                2
            } else {
                zi - span + 2
            };
            for (acc, row) in by_plane[part].iter_mut().zip(windows3(plane)) {
                *acc |= row;
            }
        }
        let mut mask = 0;
        for dy in 0..3 {
            let [a, b, common, c, d] = by_plane.map(|p| p[dy]);
            for (dz, row) in [a | b | common, b | common | c, common | c | d].into_iter().enumerate() {
                // Output voxel `dx` is near a solid when bits `dx ..= dx + span` hold one: bit
                // `dx` of the row ORed with itself shifted by up to `span` (bits past the box,
                // from the last chunk's row, never reach bits 0..3).
                let (mut near, mut covered) = (row, 1);
                while covered <= span {
                    let step = covered.min(span + 1 - covered);
                    near |= near >> step;
                    covered += step;
                }
                mask |= (near as u32 & 7) << bit(-1, dy as i32 - 1, dz as i32 - 1);
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

    /// The 26 neighbours' bits of a mask.
    const ALL_MOVES: u32 = ((1 << 27) - 1) & !(1 << 13);

    fn naive_near_solid(w: &VoxelWorld, v: IVec3, r: i32) -> bool {
        (-r..=r).any(|dz| (-r..=r).any(|dy| (-r..=r).any(|dx| w.is_blocked(v + IVec3::new(dx, dy, dz)))))
    }

    /// Every voxel's mask (the box inside the world, and near its faces) against a summed-volume
    /// count of the solid voxels in each neighbour's box, on worlds dense enough that masks
    /// are mixed, across chunk borders on all three axes, for radii whose boxes span one to
    /// three chunks.
    #[test]
    fn masks_match_box_counts_in_dense_worlds() {
        let dims = IVec3::new(37, 35, 34);
        for (seed, density) in [(7u64, 2u64), (8, 6), (9, 20)] {
            let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, dims.as_uvec3()).unwrap();
            let mut rng = crate::grid::seeded::Rng(seed);
            let n = (dims.x * dims.y * dims.z) as usize;
            let idx = |v: IVec3| ((v.z * dims.y + v.y) * dims.x + v.x) as usize;
            // Summed volume of solid voxels over `0..=v` (index `v + 1`), one voxel of zeros
            // in front on each axis.
            let p = dims + 1;
            let pidx = |v: IVec3| ((v.z * p.y + v.y) * p.x + v.x) as usize;
            let mut sum = vec![0i32; (p.x * p.y * p.z) as usize];
            let mut solid = vec![false; n];
            for z in 0..dims.z {
                for y in 0..dims.y {
                    for x in 0..dims.x {
                        let v = IVec3::new(x, y, z);
                        if u64::from(rng.below(100)) < density {
                            w.set(v, if rng.below(4) == 0 { Voxel::Water } else { Voxel::Solid }).unwrap();
                        }
                        solid[idx(v)] = w.is_blocked(v);
                    }
                }
            }
            for z in 1..p.z {
                for y in 1..p.y {
                    for x in 1..p.x {
                        let v = IVec3::new(x, y, z);
                        let own = i32::from(solid[idx(v - 1)]);
                        let s = |d: IVec3| sum[pidx(v - d)];
                        sum[pidx(v)] = own + s(IVec3::X) + s(IVec3::Y) + s(IVec3::Z)
                            - s(IVec3::new(1, 1, 0))
                            - s(IVec3::new(1, 0, 1))
                            - s(IVec3::new(0, 1, 1))
                            + s(IVec3::ONE);
                    }
                }
            }
            let near = |v: IVec3, r: i32| -> bool {
                let (a, b) = (v - r, v + r);
                if a.cmplt(IVec3::ZERO).any() || b.cmpge(dims).any() {
                    return true;
                }
                let (a, b) = (a, b + 1);
                let s = |x: i32, y: i32, z: i32| sum[pidx(IVec3::new(x, y, z))];
                s(b.x, b.y, b.z) - s(a.x, b.y, b.z) - s(b.x, a.y, b.z) - s(b.x, b.y, a.z)
                    + s(a.x, a.y, b.z)
                    + s(a.x, b.y, a.z)
                    + s(b.x, a.y, a.z)
                    - s(a.x, a.y, a.z)
                    > 0
            };
            let mut checked = [0usize; 2];
            for r in [1, 2, 3, 7, 15] {
                for z in 0..dims.z {
                    for y in 0..dims.y {
                        for x in 0..dims.x {
                            let v = IVec3::new(x, y, z);
                            // The widest boxes' masks cost hundreds of row reads: a third of them.
                            if r >= 7 && (x + y + z) % 3 != 0 {
                                continue;
                            }
                            let mut naive = 0;
                            for d in OFFSETS {
                                if near(v + d, r) {
                                    naive |= 1 << bit(d.x, d.y, d.z);
                                }
                            }
                            let centre = 1 << bit(0, 0, 0);
                            let got = w.near_solid_mask(v, r);
                            assert_eq!(got & !centre, naive, "{v} r={r} seed {seed}");
                            assert_eq!(got & centre != 0, near(v, r), "{v} r={r} seed {seed}");
                            checked[usize::from(naive != 0 && naive != ALL_MOVES)] += 1;
                        }
                    }
                }
            }
            assert!(checked[1] > 1000, "mixed masks: {checked:?}");
        }
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

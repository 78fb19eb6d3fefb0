//! Scene-building shapes on top of the box and sphere fills: column spans (heightfields,
//! terrain, slabs), capsules (tunnels, pillars, arches) and flooding (lakes, caves).
//!
//! Every fill here is conservative in the same sense as
//! [`fill_box`](VoxelWorld::fill_box) and [`fill_sphere`](VoxelWorld::fill_sphere): a voxel is
//! set when its cell overlaps the shape, so an agent filling a free voxel never clips a solid
//! shape. They write whole runs of a row at once through
//! [`fill_voxels`](VoxelWorld::fill_voxels).

use glam::{IVec3, Vec3};

use crate::error::WorldError;
use crate::medium::Voxel;

use super::world::VoxelWorld;

impl VoxelWorld {
    /// Sets, in every column of voxels, the voxels whose cells overlap a vertical span.
    ///
    /// `span(x, z)` is called with the world coordinates of the column's centre and returns
    /// `Some((bottom, top))` in world units (along +Y), or `None` to leave the column alone. A
    /// voxel is set when its cell overlaps `bottom..top`; a span with `bottom > top` sets
    /// nothing, a flat span (`bottom == top`) sets the voxel it lies in. Infinite ends reach
    /// the world's bottom or top. Returns how many voxels it set.
    ///
    /// This is the 2.5D primitive: terrain ([`fill_heightfield`](Self::fill_heightfield) is the
    /// span `-inf..height`), floating slabs, overhang-free islands, flat water.
    ///
    /// `span` is called twice per column, once to check every span and once to fill, so it
    /// must give the same answer both times (a pure function of `x` and `z`).
    ///
    /// # Errors
    /// [`WorldError::NonFinite`] if a span has a NaN end; nothing changes.
    ///
    /// # Examples
    /// ```
    /// use glam::{IVec3, UVec3, Vec3};
    /// use voxnav::{Voxel, VoxelWorld};
    /// let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(8, 8, 8)).unwrap();
    /// // A floating slab 2 voxels thick over the columns with x < 4.
    /// let n = world.fill_columns(|x, _z| (x < 4.0).then_some((5.0, 7.0)), Voxel::Solid).unwrap();
    /// assert_eq!(n, 4 * 2 * 8);
    /// assert!(world.is_blocked(IVec3::new(0, 5, 0)) && world.is_blocked(IVec3::new(3, 6, 7)));
    /// assert!(!world.is_blocked(IVec3::new(0, 4, 0)) && !world.is_blocked(IVec3::new(4, 5, 0)));
    /// assert!(world.fill_columns(|_, _| Some((f32::NAN, 1.0)), Voxel::Solid).is_err());
    /// ```
    pub fn fill_columns(
        &mut self,
        span: impl Fn(f32, f32) -> Option<(f32, f32)>,
        voxel: Voxel,
    ) -> Result<usize, WorldError> {
        let dims = self.dims().as_ivec3();
        let (origin, size) = (self.origin(), self.voxel_size());
        let column = |x: i32, z: i32| span(origin.x + (x as f32 + 0.5) * size, origin.z + (z as f32 + 0.5) * size);
        let oy = origin.y;
        // Cell j is [oy + j size, oy + (j + 1) size]; it overlaps lo..hi when
        // floor((lo - oy) / size) <= j <= ceil((hi - oy) / size) - 1.
        let index = |y: f32| y.clamp(-1.0, dims.y as f32) as i32;
        let (mut ylo, mut yhi) = (i32::MAX, i32::MIN);
        for z in 0..dims.z {
            for x in 0..dims.x {
                match column(x, z) {
                    Some((lo, hi)) if lo.is_nan() || hi.is_nan() => return Err(WorldError::NonFinite),
                    Some((lo, hi)) if lo <= hi => {
                        ylo = ylo.min(index(((lo - oy) / size).floor()));
                        yhi = yhi.max(index(((hi - oy) / size).ceil() - 1.0));
                    }
                    _ => {}
                }
            }
        }
        self.reserve_for(IVec3::new(0, ylo, 0), IVec3::new(dims.x - 1, yhi, dims.z - 1), voxel)?;
        let mut count = 0;
        for z in 0..dims.z {
            for x in 0..dims.x {
                let Some((lo, hi)) = column(x, z) else { continue };
                if lo > hi {
                    continue;
                }
                let a = ((lo - oy) / size).floor();
                let b = (((hi - oy) / size).ceil() - 1.0).max(a);
                count += self.fill_reserved(IVec3::new(x, index(a), z), IVec3::new(x, index(b), z), voxel);
            }
        }
        Ok(count)
    }

    /// Sets every voxel whose cell reaches below the surface `y = height(x, z)`: terrain.
    ///
    /// The height is sampled once per column, at the column centre's world `x` and `z`; a
    /// voxel is set when its bottom lies below that height. `+inf` fills the whole column,
    /// `-inf` none of it. Returns how many voxels it set. The same as
    /// [`fill_columns`](Self::fill_columns) with the span `-inf..height`; see it for the
    /// calling contract.
    ///
    /// # Errors
    /// [`WorldError::NonFinite`] if a height is NaN; nothing changes.
    ///
    /// # Examples
    /// ```
    /// use glam::{IVec3, UVec3, Vec3};
    /// use voxnav::{Voxel, VoxelWorld};
    /// let mut world = VoxelWorld::new(Vec3::ZERO, 0.5, UVec3::new(16, 16, 16)).unwrap();
    /// // A ramp rising along x: ground at y = x / 2.
    /// world.fill_heightfield(|x, _z| x / 2.0, Voxel::Solid).unwrap();
    /// let top = |x: i32| (0..16).take_while(|&y| world.is_blocked(IVec3::new(x, y, 3))).count();
    /// assert_eq!(top(0), 1); // column centre x = 0.25: ground at 0.125 reaches into voxel 0
    /// assert_eq!(top(15), 8); // x = 7.75: ground at 3.875, inside voxel 7
    /// ```
    pub fn fill_heightfield(&mut self, height: impl Fn(f32, f32) -> f32, voxel: Voxel) -> Result<usize, WorldError> {
        self.fill_columns(|x, z| Some((f32::NEG_INFINITY, height(x, z))), voxel)
    }

    /// Fills the capsule of `radius` around the segment `a..b`. Returns how many voxels it set.
    ///
    /// Solids round outward, carving rounds inward, so that a carved gap is never wider than
    /// asked and an agent never passes a gap narrower than itself: [`Voxel::Solid`] sets every
    /// voxel whose cell the capsule overlaps (distance from the segment to the cell below
    /// `radius`); [`Voxel::Air`] and [`Voxel::Water`] set only the voxels whose cell lies wholly
    /// inside the capsule.
    ///
    /// With `a == b` this is [`fill_sphere`](Self::fill_sphere). Carve tunnels and caves with
    /// [`Voxel::Air`], build pillars, beams and arches (a chain of capsules) with
    /// [`Voxel::Solid`].
    ///
    /// # Errors
    /// [`WorldError::NonFinite`] if an end or the radius is not finite, or the radius is
    /// negative; nothing changes.
    ///
    /// # Examples
    /// ```
    /// use glam::{IVec3, UVec3, Vec3};
    /// use voxnav::{Voxel, VoxelWorld};
    /// let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(20, 10, 10)).unwrap();
    /// world.fill_box(Vec3::ZERO, Vec3::new(20.0, 10.0, 10.0), Voxel::Solid).unwrap();
    /// // Bore a tunnel of radius 1.2 along x, through the middle.
    /// let a = Vec3::new(-5.0, 5.0, 5.0);
    /// let b = Vec3::new(25.0, 5.0, 5.0);
    /// let n = world.fill_capsule(a, b, 1.5, Voxel::Air).unwrap();
    /// assert_eq!(n, 20 * 4); // per slice: the 2 x 2 cells around the axis, wholly inside
    /// assert_eq!(world.get(IVec3::new(7, 4, 5)), Voxel::Air);
    /// assert!(world.is_blocked(IVec3::new(7, 2, 5)));
    /// ```
    pub fn fill_capsule(&mut self, a: Vec3, b: Vec3, radius: f32, voxel: Voxel) -> Result<usize, WorldError> {
        if !(a.is_finite() && b.is_finite() && radius.is_finite() && radius >= 0.0) {
            return Err(WorldError::NonFinite);
        }
        let size = self.voxel_size();
        let (a, b) = ((a - self.origin()) / size, (b - self.origin()) / size);
        let r = radius / size;
        let dims = self.dims().as_ivec3();
        let clamp = |v: Vec3| v.clamp(Vec3::splat(-1.0), dims.as_vec3()).as_ivec3();
        let lo = clamp((a.min(b) - r).floor()).max(IVec3::ZERO);
        let hi = clamp((a.max(b) + r).ceil() - 1.0).min(dims - 1);
        self.reserve_for(lo, hi, voxel)?;
        let mut count = 0;
        for z in lo.z..=hi.z {
            for y in lo.y..=hi.y {
                let mut run: Option<i32> = None;
                for x in lo.x..=hi.x + 1 {
                    let inside = x <= hi.x && {
                        let cell = IVec3::new(x, y, z).as_vec3();
                        if voxel == Voxel::Solid {
                            segment_cell_distance_squared(a, b, cell) < r * r
                        } else {
                            // Carving rounds inward: every corner within the radius (the
                            // capsule is convex, so then the whole cell is).
                            CORNERS.iter().all(|&c| segment_point_distance_squared(a, b, cell + c) <= r * r)
                        }
                    };
                    match (inside, run) {
                        (true, None) => run = Some(x),
                        (false, Some(start)) => {
                            count += self.fill_reserved(IVec3::new(start, y, z), IVec3::new(x - 1, y, z), voxel);
                            run = None;
                        }
                        _ => {}
                    }
                }
            }
        }
        Ok(count)
    }

    /// Pours water at `seed` up to `level`: turns into [`Voxel::Water`] every air voxel that
    /// is connected to the seed's voxel through faces of air voxels and whose centre lies
    /// below `level` (world y). Returns how many voxels it set.
    ///
    /// Water fills what it can reach, as real water would: a basin up to its rim, a cave under
    /// it, not a separate basin behind a wall. Air pockets above `level` stay air (a grotto
    /// under a rock keeps its air), solid and existing water are left alone. A `level` of
    /// `+inf` floods the whole connected air region. A seed voxel that is not air, or whose
    /// centre is not below `level`, floods nothing.
    ///
    /// # Errors
    /// [`WorldError::NonFinite`] if `seed` is not finite or `level` is NaN,
    /// [`WorldError::OutOfBounds`] if `seed` lies outside the world; nothing changes.
    ///
    /// # Examples
    /// ```
    /// use glam::{IVec3, UVec3, Vec3};
    /// use voxnav::{Voxel, VoxelWorld};
    /// let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(10, 6, 3)).unwrap();
    /// world.fill_voxels(IVec3::new(5, 0, 0), IVec3::new(5, 5, 2), Voxel::Solid).unwrap(); // a wall at x = 5
    /// let n = world.flood(Vec3::new(1.5, 0.5, 1.5), 3.0).unwrap();
    /// assert_eq!(n, 5 * 3 * 3); // x 0..5, the three layers with centres below 3, all of z
    /// assert_eq!(world.get(IVec3::new(4, 2, 1)), Voxel::Water);
    /// assert_eq!(world.get(IVec3::new(4, 3, 1)), Voxel::Air); // above the level
    /// assert_eq!(world.get(IVec3::new(6, 0, 1)), Voxel::Air); // behind the wall
    /// ```
    pub fn flood(&mut self, seed: Vec3, level: f32) -> Result<usize, WorldError> {
        if !seed.is_finite() || level.is_nan() {
            return Err(WorldError::NonFinite);
        }
        let start = self.voxel_at(seed);
        if !self.contains(start) {
            return Err(WorldError::OutOfBounds(start));
        }
        let dims = self.dims().as_ivec3();
        let wet = |w: &Self, v: IVec3| w.get(v) == Voxel::Air && w.voxel_center(v).y < level;
        // Water can only rise to the level: reserve the chunks below it.
        let top = (((level - self.origin().y) / self.voxel_size()).ceil() as i32).min(dims.y - 1);
        self.reserve_for(IVec3::ZERO, IVec3::new(dims.x - 1, top, dims.z - 1), Voxel::Water)?;
        let mut stack = vec![start];
        let mut count = 0;
        while let Some(v) = stack.pop() {
            if !wet(self, v) {
                continue;
            }
            let (mut x0, mut x1) = (v.x, v.x);
            while x0 > 0 && wet(self, IVec3::new(x0 - 1, v.y, v.z)) {
                x0 -= 1;
            }
            while x1 + 1 < dims.x && wet(self, IVec3::new(x1 + 1, v.y, v.z)) {
                x1 += 1;
            }
            count += self.fill_reserved(IVec3::new(x0, v.y, v.z), IVec3::new(x1, v.y, v.z), Voxel::Water);
            for (dy, dz) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (y, z) = (v.y + dy, v.z + dz);
                if y < 0 || z < 0 || y >= dims.y || z >= dims.z {
                    continue;
                }
                // One seed per run of wet voxels next to the row just filled.
                let mut in_run = false;
                for x in x0..=x1 {
                    let n = IVec3::new(x, y, z);
                    let w = wet(self, n);
                    if w && !in_run {
                        stack.push(n);
                    }
                    in_run = w;
                }
            }
        }
        Ok(count)
    }
}

/// Squared distance from the segment `a..b` to the unit cell with min corner `cell` (all in
/// voxel units): exact, by minimising the piecewise quadratic over the pieces where the
/// segment's point stays on one side of each slab.
/// The eight corners of a unit cell, as offsets from its min corner.
pub(crate) const CORNERS: [Vec3; 8] = [
    Vec3::new(0.0, 0.0, 0.0),
    Vec3::new(1.0, 0.0, 0.0),
    Vec3::new(0.0, 1.0, 0.0),
    Vec3::new(1.0, 1.0, 0.0),
    Vec3::new(0.0, 0.0, 1.0),
    Vec3::new(1.0, 0.0, 1.0),
    Vec3::new(0.0, 1.0, 1.0),
    Vec3::new(1.0, 1.0, 1.0),
];

/// Squared distance from point `p` to the segment `a..b`.
fn segment_point_distance_squared(a: Vec3, b: Vec3, p: Vec3) -> f32 {
    let d = b - a;
    let len2 = d.length_squared();
    let t = if len2 > 0.0 { ((p - a).dot(d) / len2).clamp(0.0, 1.0) } else { 0.0 };
    (a + d * t).distance_squared(p)
}

fn segment_cell_distance_squared(a: Vec3, b: Vec3, cell: Vec3) -> f32 {
    let (lo, hi) = (cell, cell + 1.0);
    let d = b - a;
    let at = |t: f32| {
        let p = a + d * t;
        p.distance_squared(p.clamp(lo, hi))
    };
    let mut ts = [0.0f32; 8];
    ts[1] = 1.0;
    let mut n = 2;
    for i in 0..3 {
        if d[i] != 0.0 {
            for bound in [lo[i], hi[i]] {
                let t = (bound - a[i]) / d[i];
                if t > 0.0 && t < 1.0 {
                    ts[n] = t;
                    n += 1;
                }
            }
        }
    }
    let ts = &mut ts[..n];
    ts.sort_by(f32::total_cmp);
    let mut best = at(0.0).min(at(1.0));
    for w in ts.windows(2) {
        let (t0, t1) = (w[0], w[1]);
        // On this piece each coordinate is below, inside or above its slab throughout; the
        // outside ones add (a_i + d_i t - bound)^2, a quadratic with its minimum at t*.
        let p = a + d * (0.5 * (t0 + t1));
        let (mut num, mut den) = (0.0, 0.0);
        for i in 0..3 {
            let bound = if p[i] < lo[i] {
                lo[i]
            } else if p[i] > hi[i] {
                hi[i]
            } else {
                continue;
            };
            num -= (a[i] - bound) * d[i];
            den += d[i] * d[i];
        }
        if den > 0.0 {
            best = best.min(at((num / den).clamp(t0, t1)));
        } else {
            best = best.min(at(t0));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::UVec3;

    fn voxels_of(w: &VoxelWorld, kind: Voxel) -> Vec<IVec3> {
        let d = w.dims().as_ivec3();
        let mut out = Vec::new();
        for z in 0..d.z {
            for y in 0..d.y {
                for x in 0..d.x {
                    let v = IVec3::new(x, y, z);
                    if w.get(v) == kind {
                        out.push(v);
                    }
                }
            }
        }
        out
    }

    /// Brute force: the distance from the segment to the cell, minimised over dense samples.
    fn sampled_distance_squared(a: Vec3, b: Vec3, cell: Vec3) -> f32 {
        (0..=4000)
            .map(|i| {
                let p = a.lerp(b, i as f32 / 4000.0);
                p.distance_squared(p.clamp(cell, cell + 1.0))
            })
            .fold(f32::INFINITY, f32::min)
    }

    #[test]
    fn segment_cell_distance_matches_dense_sampling() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 40) as f32 / (1u64 << 24) as f32) * 8.0 - 4.0
        };
        for _ in 0..2000 {
            let a = Vec3::new(next(), next(), next());
            let b = Vec3::new(next(), next(), next());
            let exact = segment_cell_distance_squared(a, b, Vec3::ZERO);
            let sampled = sampled_distance_squared(a, b, Vec3::ZERO);
            assert!(exact <= sampled + 1e-4, "{a} {b}: {exact} > {sampled}");
            assert!(sampled - exact < 0.02, "{a} {b}: {exact} << {sampled}");
        }
    }

    #[test]
    fn capsule_of_zero_length_is_the_sphere() {
        let mut a = VoxelWorld::new(Vec3::splat(-3.0), 0.5, UVec3::splat(20)).unwrap();
        let mut b = a.clone();
        for (c, r) in [(Vec3::new(1.1, 0.3, -0.7), 2.2), (Vec3::splat(0.25), 1.0), (Vec3::splat(6.0), 3.0)] {
            let n = a.fill_sphere(c, r, Voxel::Solid).unwrap();
            assert_eq!(b.fill_capsule(c, c, r, Voxel::Solid).unwrap(), n);
        }
        assert_eq!(voxels_of(&a, Voxel::Solid), voxels_of(&b, Voxel::Solid));
    }

    #[test]
    fn capsule_sets_exactly_the_cells_it_overlaps() {
        let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(16, 12, 14)).unwrap();
        let (a, b, r) = (Vec3::new(2.3, 1.7, 3.1), Vec3::new(13.2, 9.4, 10.6), 1.7);
        let n = w.fill_capsule(a, b, r, Voxel::Solid).unwrap();
        let set = voxels_of(&w, Voxel::Solid);
        assert_eq!(n, set.len());
        for z in 0..14 {
            for y in 0..12 {
                for x in 0..16 {
                    let v = IVec3::new(x, y, z);
                    let d = sampled_distance_squared(a, b, v.as_vec3());
                    if d < r * r - 0.01 {
                        assert!(set.contains(&v), "{v} is {d} from the axis but not set");
                    }
                    if d > r * r + 0.01 {
                        assert!(!set.contains(&v), "{v} is {d} from the axis but set");
                    }
                }
            }
        }
    }

    #[test]
    fn capsule_clips_to_the_world_and_rejects_bad_input() {
        let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(8)).unwrap();
        assert_eq!(w.fill_capsule(Vec3::splat(50.0), Vec3::splat(60.0), 2.0, Voxel::Solid).unwrap(), 0);
        // Axis along the world's x = 0 face: half of a radius-1 tube (2 x 2 cells minus none).
        assert_eq!(w.fill_capsule(Vec3::new(0.0, 4.0, 4.0), Vec3::new(0.0, 4.0, 4.0), 1.0, Voxel::Solid).unwrap(), 4);
        let before = w.revision();
        assert_eq!(w.fill_capsule(Vec3::ZERO, Vec3::NAN, 1.0, Voxel::Solid), Err(WorldError::NonFinite));
        assert_eq!(w.fill_capsule(Vec3::ZERO, Vec3::ONE, -1.0, Voxel::Solid), Err(WorldError::NonFinite));
        assert_eq!(w.fill_capsule(Vec3::ZERO, Vec3::ONE, f32::INFINITY, Voxel::Solid), Err(WorldError::NonFinite));
        assert_eq!(w.revision(), before);
    }

    #[test]
    fn heightfield_is_conservative_per_column_and_atomic_on_nan() {
        let mut w = VoxelWorld::new(Vec3::new(0.0, -2.0, 0.0), 1.0, UVec3::new(6, 8, 5)).unwrap();
        // Column (x, z) gets height x + 0.5 - 2 (between voxel boundaries) or z - 2 (on one).
        let n = w.fill_heightfield(|x, z| if z < 2.0 { x - 2.0 } else { z.floor() - 2.0 }, Voxel::Solid).unwrap();
        let mut expected = 0;
        for z in 0..5 {
            for x in 0..6 {
                let h = if z < 2 { x as f32 + 0.5 - 2.0 } else { z as f32 - 2.0 };
                let column = (0..8).filter(|&y| w.is_blocked(IVec3::new(x, y, z))).count();
                // Voxel y (world bottom y - 2) is set when y - 2 < h.
                let want = (0..8).filter(|&y| (y as f32 - 2.0) < h).count();
                assert_eq!(column, want, "column {x} {z}, height {h}");
                expected += want;
            }
        }
        assert_eq!(n, expected);
        let before = (w.revision(), voxels_of(&w, Voxel::Solid));
        let bad = |x: f32, _z: f32| if x > 4.0 { f32::NAN } else { 100.0 };
        assert_eq!(w.fill_heightfield(bad, Voxel::Water), Err(WorldError::NonFinite));
        assert_eq!((w.revision(), voxels_of(&w, Voxel::Solid)), before);
        assert!(voxels_of(&w, Voxel::Water).is_empty());
        // Infinite heights: full and empty columns.
        let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(2, 4, 1)).unwrap();
        let n = w.fill_heightfield(|x, _| if x < 1.0 { f32::INFINITY } else { f32::NEG_INFINITY }, Voxel::Solid);
        assert_eq!(n, Ok(4));
    }

    #[test]
    fn columns_skip_empty_and_reversed_spans() {
        let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(3, 6, 1)).unwrap();
        let n = w
            .fill_columns(
                |x, _| match x as i32 {
                    0 => None,
                    1 => Some((4.0, 2.0)),
                    _ => Some((2.5, 2.5)),
                },
                Voxel::Solid,
            )
            .unwrap();
        assert_eq!(n, 1);
        assert_eq!(voxels_of(&w, Voxel::Solid), vec![IVec3::new(2, 2, 0)]);
    }

    #[test]
    fn flood_fills_the_basin_and_its_cave_but_keeps_air_pockets() {
        // A U-shaped basin: walls at x = 0 and x = 11, floor at y = 0; a rock block hangs in
        // the middle (y = 3..=8), with a grotto (air) inside it reaching above the water level.
        let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(14, 10, 2)).unwrap();
        w.fill_voxels(IVec3::new(0, 0, 0), IVec3::new(11, 0, 1), Voxel::Solid).unwrap();
        w.fill_voxels(IVec3::new(0, 0, 0), IVec3::new(0, 9, 1), Voxel::Solid).unwrap();
        w.fill_voxels(IVec3::new(11, 0, 0), IVec3::new(11, 7, 1), Voxel::Solid).unwrap();
        w.fill_voxels(IVec3::new(4, 3, 0), IVec3::new(7, 8, 1), Voxel::Solid).unwrap();
        w.fill_voxels(IVec3::new(5, 3, 0), IVec3::new(6, 6, 1), Voxel::Air).unwrap(); // grotto, open below
        let n = w.flood(Vec3::new(2.5, 1.5, 0.5), 5.0).unwrap();
        // Water: x 1..=10, y 1..=4 (centres below 5), both z, less the rock (x 4..=7, y 3..=4)
        // but plus the grotto's part below the level (x 5..=6, y 3..=4).
        assert_eq!(n, 10 * 4 * 2 - 4 * 2 * 2 + 2 * 2 * 2);
        assert_eq!(w.get(IVec3::new(5, 4, 1)), Voxel::Water);
        assert_eq!(w.get(IVec3::new(5, 5, 1)), Voxel::Air); // the grotto's air pocket
        assert_eq!(w.get(IVec3::new(12, 1, 0)), Voxel::Air); // outside the basin
        assert_eq!(voxels_of(&w, Voxel::Water).len(), n);
        // Pouring again changes nothing; pouring into rock or above the level floods nothing.
        assert_eq!(w.flood(Vec3::new(2.5, 1.5, 0.5), 5.0), Ok(0));
        assert_eq!(w.flood(Vec3::new(0.5, 1.5, 0.5), 5.0), Ok(0));
        assert_eq!(w.flood(Vec3::new(12.5, 6.5, 0.5), 5.0), Ok(0));
        // Unbounded: the rest of the open air outside the basin and above it.
        let rest = voxels_of(&w, Voxel::Air).len() - 2 * 2 * 2; // less the sealed grotto top
        assert_eq!(w.flood(Vec3::new(12.5, 6.5, 0.5), f32::INFINITY), Ok(rest));
    }

    #[test]
    fn flood_rejects_bad_input() {
        let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(4)).unwrap();
        assert_eq!(w.flood(Vec3::NAN, 1.0), Err(WorldError::NonFinite));
        assert_eq!(w.flood(Vec3::ONE, f32::NAN), Err(WorldError::NonFinite));
        assert_eq!(w.flood(Vec3::splat(9.0), 1.0), Err(WorldError::OutOfBounds(IVec3::splat(9))));
        assert!(!w.has_water());
    }
}

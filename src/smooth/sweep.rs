//! The swept box: which voxels the agent's voxel-sized box overlaps as it moves along a
//! segment ([`segment_clear`], exact) or a polyline, the clearance test of every smoothing step.

use glam::{DVec3, IVec3};

use crate::grid::pass::Pass;
use crate::grid::world::VoxelWorld;
use crate::medium::Media;

/// Whether the agent's box, swept from the centre of voxel `a` to the centre of voxel `b`,
/// stays clear: every voxel it overlaps with positive volume is inside the world and of a
/// medium `media` allows.
///
/// Exact (integer arithmetic), symmetric, and for neighbours `a`, `b` the same answer as the
/// strict diagonal rule. This is the line-of-sight test of string pulling; use it for your own
/// shortcuts or any-angle searches.
///
/// # Examples
/// ```
/// use glam::{IVec3, UVec3, Vec3};
/// use voxnav::{segment_clear, Media, Voxel, VoxelWorld};
/// let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(8)).unwrap();
/// world.set(IVec3::new(2, 1, 1), Voxel::Solid).unwrap();
/// // A thin ray from (1,1,1) to (3,2,1) passes the blocked voxel's corner, the box does not.
/// assert!(!segment_clear(&world, IVec3::new(1, 1, 1), IVec3::new(3, 2, 1), Media::ANY));
/// assert!(segment_clear(&world, IVec3::new(1, 2, 1), IVec3::new(3, 2, 1), Media::ANY));
/// ```
#[must_use]
pub fn segment_clear(world: &VoxelWorld, a: IVec3, b: IVec3, media: Media) -> bool {
    clear_for(world, a, b, Pass::new(&media))
}

/// [`segment_clear`] for a query's view of voxels (its media and clearance).
pub(crate) fn clear_for(world: &VoxelWorld, a: IVec3, b: IVec3, pass: Pass) -> bool {
    sweep(a, b, |v| world.passable(v, pass))
}

/// A fraction `n / d` with `d > 0`.
#[derive(Debug, Clone, Copy)]
struct Frac {
    n: i64,
    d: i64,
}

impl Frac {
    #[inline]
    fn lt(self, o: Frac) -> bool {
        self.n * o.d < o.n * self.d
    }
    #[inline]
    fn f64(self) -> f64 {
        self.n as f64 / self.d as f64
    }
}

/// The open interval of segment parameters `t` (a subset of `lo..hi`) at which the box is within
/// one voxel of offset `e` along an axis where the segment moves by `d`: `|t d - e| < 1`.
#[inline]
fn clip(lo: Frac, hi: Frac, e: i64, d: i64) -> Option<(Frac, Frac)> {
    if d == 0 {
        return (e == 0).then_some((lo, hi));
    }
    let (s, q) = (d.signum(), d.abs());
    let (a, b) = (Frac { n: s * e - 1, d: q }, Frac { n: s * e + 1, d: q });
    let lo = if lo.lt(a) { a } else { lo };
    let hi = if b.lt(hi) { b } else { hi };
    lo.lt(hi).then_some((lo, hi))
}

/// Offsets `e` that may satisfy `|t d - e| < 1` for some `t` in `t0..=t1` (a superset).
#[inline]
fn candidates(d: i64, t0: f64, t1: f64) -> std::ops::RangeInclusive<i64> {
    let (x, y) = (t0 * d as f64, t1 * d as f64);
    (x.min(y).floor() as i64 - 1)..=(x.max(y).ceil() as i64 + 1)
}

/// Calls `visit` on every voxel the agent's box overlaps (positive volume) while its centre
/// moves from the centre of `a` to the centre of `b`: voxel `a + e` is overlapped when some
/// `t` in `[0, 1]` has `|t (b - a) - e| < 1` on every axis. Stops and returns `false` as soon
/// as `visit` does.
pub(crate) fn sweep(a: IVec3, b: IVec3, mut visit: impl FnMut(IVec3) -> bool) -> bool {
    let d = (b - a).as_i64vec3();
    let dd = d.to_array();
    let ad = d.abs();
    let k0 = if ad.x >= ad.y && ad.x >= ad.z {
        0
    } else if ad.y >= ad.z {
        1
    } else {
        2
    };
    let (k1, k2) = ((k0 + 1) % 3, (k0 + 2) % 3);
    let step = if dd[k0] >= 0 { 1 } else { -1 };
    let (zero, one) = (Frac { n: 0, d: 1 }, Frac { n: 1, d: 1 });
    let mut e0 = -step;
    loop {
        if let Some((l0, h0)) = clip(zero, one, e0, dd[k0]) {
            for e1 in candidates(dd[k1], l0.f64(), h0.f64()) {
                let Some((l1, h1)) = clip(l0, h0, e1, dd[k1]) else { continue };
                for e2 in candidates(dd[k2], l1.f64(), h1.f64()) {
                    if clip(l1, h1, e2, dd[k2]).is_some() {
                        let mut e = [0i64; 3];
                        (e[k0], e[k1], e[k2]) = (e0, e1, e2);
                        if !visit(a + IVec3::new(e[0] as i32, e[1] as i32, e[2] as i32)) {
                            return false;
                        }
                    }
                }
            }
        }
        if e0 == dd[k0] + step {
            return true;
        }
        e0 += step;
    }
}

/// Whether the box stays clear while its centre stays in the box `lo..=hi` (voxel units):
/// every voxel overlapping `[lo - 0.5, hi + 0.5]` with positive volume is free.
/// With a clearance radius `r`, the voxels within `r` of them hold no solid voxel either.
pub(crate) fn region_clear(world: &VoxelWorld, pass: Pass, lo: DVec3, hi: DVec3) -> bool {
    let vmin = ((lo - 1.5).floor() + 1.0).as_ivec3();
    let vmax = ((hi + 0.5).ceil() - 1.0).as_ivec3();
    let media = pass.media_only();
    for z in vmin.z..=vmax.z {
        for y in vmin.y..=vmax.y {
            for x in vmin.x..=vmax.x {
                if !world.passable(IVec3::new(x, y, z), media) {
                    return false;
                }
            }
        }
    }
    let r = i32::from(pass.radius());
    r == 0 || !world.solid_in_box(vmin - r, vmax + r)
}

/// Whether the box stays clear along the polyline through `points` (straight between points).
pub(crate) fn polyline_clear(world: &VoxelWorld, pass: Pass, points: &[DVec3]) -> bool {
    const GROUP: usize = 8;
    let mut i = 0;
    while i + 1 < points.len() {
        let end = (i + GROUP).min(points.len() - 1);
        let group = &points[i..=end];
        let lo = group.iter().fold(DVec3::INFINITY, |m, p| m.min(*p));
        let hi = group.iter().fold(DVec3::NEG_INFINITY, |m, p| m.max(*p));
        if !region_clear(world, pass, lo, hi) {
            for w in group.windows(2) {
                if !region_clear(world, pass, w[0].min(w[1]), w[0].max(w[1])) {
                    return false;
                }
            }
        }
        i = end;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Voxels the swept box overlaps, by brute force over a box around the segment (exact).
    fn brute(a: IVec3, b: IVec3) -> Vec<IVec3> {
        let d = (b - a).as_i64vec3();
        let (lo, hi) = (a.min(b) - 2, a.max(b) + 2);
        let mut out = Vec::new();
        for z in lo.z..=hi.z {
            for y in lo.y..=hi.y {
                for x in lo.x..=hi.x {
                    let e = (IVec3::new(x, y, z) - a).as_i64vec3();
                    let (mut l, mut h) = (Frac { n: 0, d: 1 }, Frac { n: 1, d: 1 });
                    let mut ok = true;
                    for k in 0..3 {
                        match clip(l, h, e[k], d[k]) {
                            Some((a, b)) => (l, h) = (a, b),
                            None => ok = false,
                        }
                    }
                    if ok {
                        out.push(IVec3::new(x, y, z));
                    }
                }
            }
        }
        out.sort_by_key(|v| (v.x, v.y, v.z));
        out
    }

    fn swept(a: IVec3, b: IVec3) -> Vec<IVec3> {
        let mut out = Vec::new();
        sweep(a, b, |v| {
            out.push(v);
            true
        });
        out.sort_by_key(|v| (v.x, v.y, v.z));
        out
    }

    #[test]
    fn single_moves_sweep_their_bounding_box() {
        for z in -1..=1 {
            for y in -1..=1 {
                for x in -1..=1 {
                    let d = IVec3::new(x, y, z);
                    let mut want = Vec::new();
                    let (lo, hi) = (d.min(IVec3::ZERO), d.max(IVec3::ZERO));
                    for vz in lo.z..=hi.z {
                        for vy in lo.y..=hi.y {
                            for vx in lo.x..=hi.x {
                                want.push(IVec3::new(vx, vy, vz));
                            }
                        }
                    }
                    want.sort_by_key(|v| (v.x, v.y, v.z));
                    assert_eq!(swept(IVec3::ZERO, d), want, "move {d}");
                }
            }
        }
    }

    #[test]
    fn sweep_matches_brute_force_and_is_symmetric() {
        let mut seed = 7u64;
        let mut next = |m: i32| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % (2 * m as u64 + 1)) as i32 - m
        };
        for _ in 0..3000 {
            let a = IVec3::new(next(3), next(3), next(3));
            let b = a + IVec3::new(next(7), next(7), next(7));
            let got = swept(a, b);
            assert_eq!(got, brute(a, b), "{a} -> {b}");
            assert_eq!(got, swept(b, a), "{a} <-> {b}");
        }
    }

    #[test]
    fn sweep_covers_dense_samples_of_the_box() {
        // Independent check: every voxel a densely sampled box overlaps by more than 1e-6 is
        // reported.
        let mut seed = 99u64;
        let mut next = |m: i32| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % (2 * m as u64 + 1)) as i32 - m
        };
        for _ in 0..300 {
            let a = IVec3::new(next(2), next(2), next(2));
            let b = a + IVec3::new(next(6), next(6), next(6));
            let got = swept(a, b);
            let (pa, pb) = (a.as_dvec3() + 0.5, b.as_dvec3() + 0.5);
            for i in 0..=2000 {
                let p = pa.lerp(pb, f64::from(i) / 2000.0);
                let lo = (p - 0.5).floor().as_ivec3();
                for v in [lo, lo + IVec3::X, lo + IVec3::Y, lo + IVec3::Z, lo + 1, lo + IVec3::new(1, 1, 0)]
                    .into_iter()
                    .chain([lo + IVec3::new(1, 0, 1), lo + IVec3::new(0, 1, 1)])
                {
                    let c = v.as_dvec3() + 0.5;
                    let pen = 1.0 - (p - c).abs().max_element();
                    if pen > 1e-6 {
                        assert!(got.contains(&v), "{a} -> {b}: missed {v}");
                    }
                }
            }
        }
    }
}

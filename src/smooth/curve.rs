//! The curve's pieces: [`Knot`]s (samples of a curve) and cubic [`Bezier`] curves sampled into
//! them.

use glam::DVec3;

/// Largest distance (voxels) between two consecutive knots of a bend.
pub(crate) const BEND_SPACING: f64 = 1.0 / 16.0;

/// One sample of a smoothed curve, in voxel units (voxel `v` spans `v..v + 1`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Knot {
    /// Position of the agent's centre.
    pub(crate) pos: DVec3,
    /// Unit direction of travel.
    pub(crate) tangent: DVec3,
    /// Curvature vector `dT/ds` (1 / voxel), zero on straight parts.
    pub(crate) curvature: DVec3,
    /// Arc length from the start.
    pub(crate) s: f64,
}

/// A cubic Bezier curve.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bezier(pub(crate) [DVec3; 4]);

impl Bezier {
    fn point(&self, t: f64) -> DVec3 {
        let [p0, p1, p2, p3] = self.0;
        let u = 1.0 - t;
        p0 * (u * u * u) + p1 * (3.0 * u * u * t) + p2 * (3.0 * u * t * t) + p3 * (t * t * t)
    }
    fn d1(&self, t: f64) -> DVec3 {
        let [p0, p1, p2, p3] = self.0;
        let u = 1.0 - t;
        (p1 - p0) * (3.0 * u * u) + (p2 - p1) * (6.0 * u * t) + (p3 - p2) * (3.0 * t * t)
    }
    fn d2(&self, t: f64) -> DVec3 {
        let [p0, p1, p2, p3] = self.0;
        (p2 - p1 * 2.0 + p0) * (6.0 * (1.0 - t)) + (p3 - p2 * 2.0 + p1) * (6.0 * t)
    }

    /// Knots at most [`BEND_SPACING`] apart, both ends included; `s` counts from 0. The end
    /// tangents are set to `t0` and `t1` exactly.
    pub(crate) fn knots(&self, t0: DVec3, t1: DVec3) -> Vec<Knot> {
        let [p0, p1, p2, p3] = self.0;
        let hull = p0.distance(p1) + p1.distance(p2) + p2.distance(p3);
        let mut n = ((hull / BEND_SPACING).ceil() as usize).max(1);
        // The curve lies in the box of its control points, and so do its knots: rounding can
        // put a weighted sum of equal coordinates a hair past them (13.5 as
        // 13.500000000000002), and a box that touches a wall there into it. (Controls that are
        // not finite are left as they are, to fail the callers' checks, and not subdivided.)
        let (lo, hi) = (p0.min(p1).min(p2.min(p3)), p0.max(p1).max(p2.max(p3)));
        let finite = self.0.iter().all(|c| c.is_finite());
        let in_box = |p: DVec3| if finite { p.clamp(lo, hi) } else { p };
        let points = loop {
            let points: Vec<DVec3> = (0..=n).map(|i| in_box(self.point(i as f64 / n as f64))).collect();
            if !finite || n >= 1 << 16 || points.windows(2).all(|w| w[0].distance(w[1]) <= BEND_SPACING) {
                break points;
            }
            n *= 2;
        };
        let mut s = 0.0;
        let mut out = Vec::with_capacity(n + 1);
        for (i, &pos) in points.iter().enumerate() {
            if i > 0 {
                s += pos.distance(points[i - 1]);
            }
            let t = i as f64 / n as f64;
            let (v, a) = (self.d1(t), self.d2(t));
            let speed2 = v.length_squared();
            let tangent = if i == 0 {
                t0
            } else if i == n {
                t1
            } else {
                v / speed2.sqrt()
            };
            let curvature = (a - tangent * a.dot(tangent)) / speed2;
            out.push(Knot { pos, tangent, curvature, s });
        }
        out
    }
}

/// Whether consecutive knot tangents turn by at most `max_curvature` per unit of distance.
pub(crate) fn turns_within(knots: &[Knot], max_curvature: f64) -> bool {
    knots.windows(2).all(|w| {
        let angle = w[0].tangent.angle_between(w[1].tangent);
        angle <= max_curvature * w[0].pos.distance(w[1].pos) * (1.0 + 1e-9) + 1e-12
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Controls that are not finite give the two end knots (which the callers' checks
    /// refuse), not 65,537 knots of halving a spacing that never falls below the limit.
    #[test]
    fn controls_not_finite_are_not_subdivided() {
        let nan = DVec3::new(f64::NAN, 0.0, 0.0);
        let knots = Bezier([DVec3::ZERO, nan, DVec3::X, DVec3::new(2.0, 0.0, 0.0)]).knots(DVec3::X, DVec3::X);
        assert_eq!(knots.len(), 2);
        assert!(knots.iter().any(|k| !k.pos.is_finite() || !k.curvature.is_finite()));
        let finite = Bezier([DVec3::ZERO, DVec3::X, DVec3::new(2.0, 0.0, 0.0), DVec3::new(3.0, 0.0, 0.0)]);
        let knots = finite.knots(DVec3::X, DVec3::X);
        assert!(knots.len() >= 49 && knots.windows(2).all(|w| w[0].pos.distance(w[1].pos) <= BEND_SPACING));
    }
}

//! The start of a curve for an agent already under way: the first waypoint it can head for,
//! and the turn from its heading onto the curve.

use glam::DVec3;

use crate::grid::pass::Pass;
use crate::grid::world::VoxelWorld;
use crate::smooth::curve::{Bezier, Knot, turns_within};
use crate::smooth::sweep::polyline_clear;

/// Where a moving agent is (voxel units) and its unit direction of travel, for
/// [`smooth_from`](crate::smooth_from).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Underway {
    pub(crate) position: DVec3,
    pub(crate) heading: DVec3,
}

/// How many of the first string-pulled waypoints an agent under way may head straight for.
pub(crate) const START_REACH: usize = 8;
/// Spacing (voxels) of the points at which a straight line from an agent under way is checked.
const LINE_STEP: f64 = 0.25;

/// Whether the agent's box stays clear on the straight line from `a` to `b` (any points):
/// checked over the boxes of points at most [`LINE_STEP`] apart and the hulls between them, a
/// slight over-approximation of the swept box.
///
/// The points lie in the box spanned by `a` and `b`: a coordinate the two share is exactly
/// theirs. (Interpolated as `a (1 - t) + b t`, 13.5 came out as 13.500000000000002, and an
/// agent whose box touched walls on both sides of its plane saw them as blocking its way.)
pub(crate) fn line_clear(world: &VoxelWorld, pass: Pass, a: DVec3, b: DVec3) -> bool {
    let n = ((a.distance(b) / LINE_STEP).ceil() as usize).max(1);
    let (lo, hi) = (a.min(b), a.max(b));
    let points: Vec<DVec3> = (0..=n).map(|i| (a + (b - a) * (i as f64 / n as f64)).clamp(lo, hi)).collect();
    polyline_clear(world, pass, &points)
}

/// `p` rounded to 1/8192 voxel, for the clearance checks of an agent under way: a pose's
/// position is an `f32` in world units, so an agent that touches a wall exactly (its box face on
/// a voxel face) may sit a few millionths of a voxel inside it after rounding.
pub(crate) fn snap(p: DVec3) -> DVec3 {
    (p * 8192.0).round() / 8192.0
}

/// Arc lengths (voxels) along the curve at which the turn from an agent's heading onto it may
/// join it, in the order tried: the nearest join whose curve is clear and gentle enough wins.
const JOINS: [f64; 8] = [0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0];

/// The curve from an agent under way at `knots[0]`, heading `d`, onto `knots` (which start
/// there and turn in place onto their first leg): a cubic tangent to `d` at the agent and to
/// the curve where it joins it, at the first of [`JOINS`] where it is clear and turns no tighter
/// than `max_curvature`. Returns the new knots, or `None`.
pub(crate) fn join_from(
    world: &VoxelWorld,
    pass: Pass,
    max_curvature: f64,
    d: DVec3,
    knots: &[Knot],
) -> Option<Vec<Knot>> {
    let p = knots[0].pos;
    let total = knots.last().map_or(0.0, |k| k.s);
    for s_join in JOINS {
        if s_join > total {
            break;
        }
        let (q, tq, rest) = split_at(knots, s_join);
        // A join where the agent already is (the knots turn back through it) is no turn: a
        // cubic of no length has no direction or curvature.
        if p.distance(q) < 1e-9 {
            continue;
        }
        let h = p.distance(q) / 3.0;
        let lead = Bezier([p, p + d * h, q - tq * h, q]).knots(d, tq);
        if !turns_within(&lead, max_curvature) {
            continue;
        }
        // Checked from the snapped start (the same curve within 1/16384 voxel).
        let check = Bezier([snap(p), p + d * h, q - tq * h, q]).knots(d, tq);
        let points: Vec<DVec3> = check.iter().map(|k| k.pos).collect();
        if !polyline_clear(world, pass, &points) {
            continue;
        }
        let lead_len = lead.last().map_or(0.0, |k| k.s);
        let mut out = lead;
        out.extend(rest.iter().map(|k| Knot { s: k.s - s_join + lead_len, ..*k }));
        return Some(out);
    }
    None
}

/// The point of the curve at arc length `s` (`0 < s <= its length`), its tangent, and the
/// knots after it.
fn split_at(knots: &[Knot], s: f64) -> (DVec3, DVec3, &[Knot]) {
    let i = knots.partition_point(|k| k.s < s);
    let b = knots[i.min(knots.len() - 1)];
    if i == 0 || b.s == s {
        // At a sharp corner, the tangent before it: the knots after turn in place.
        return (b.pos, b.tangent, &knots[i.min(knots.len() - 1) + 1..]);
    }
    let a = knots[i - 1];
    let f = (s - a.s) / (b.s - a.s);
    (a.pos.lerp(b.pos, f), a.tangent.lerp(b.tangent, f).normalize_or(a.tangent), &knots[i..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{UVec3, Vec3};

    /// An agent heading +x whose knots first turn back to a waypoint half a voxel behind it
    /// and then run forward through it: the join 1 voxel along lies where the agent is. It was
    /// taken, a cubic of no length with a NaN curvature, and the flight's orientation was NaN
    /// (found by the query harness's rejoins).
    #[test]
    fn no_join_where_the_agent_already_is() {
        let world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(8, 2, 12)).unwrap();
        let pass = crate::smooth::SmoothConfig::default().pass();
        let (x, p, back) = (DVec3::X, DVec3::new(4.0, 0.5, 1.5), DVec3::new(3.5, 0.5, 1.5));
        let k = |pos: DVec3, tangent: DVec3, s: f64| Knot { pos, tangent, curvature: DVec3::ZERO, s };
        let knots = [k(p, x, 0.0), k(p, -x, 0.0), k(back, -x, 0.5), k(back, x, 0.5), k(back + 3.0 * x, x, 3.5)];
        let joined = join_from(&world, pass, 1.0, x, &knots).expect("a join ahead fits");
        assert_eq!(joined[0].pos, p);
        for k in &joined {
            assert!(k.pos.is_finite() && k.tangent.is_finite() && k.curvature.is_finite(), "{k:?}");
        }
        assert!(joined.windows(2).all(|w| w[0].s <= w[1].s));
    }
}

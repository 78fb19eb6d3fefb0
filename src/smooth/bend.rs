//! Corner bends: the curve that replaces a corner of the string-pulled polyline, where one fits.

use glam::DVec3;

use crate::grid::world::VoxelWorld;
use crate::smooth::config::SmoothConfig;
use crate::smooth::curve::{Bezier, Knot, turns_within};
use crate::smooth::sweep::polyline_clear;

/// Lengths of the rounded corners tried, as multiples of [`SmoothConfig::bend_length`], in order.
const ROUNDED_SCALES: [f64; 4] = [1.0, 0.5, 0.25, 2.0];
/// Lengths of the bends through a corner tried, as multiples of [`SmoothConfig::bend_length`].
const THROUGH_SCALES: [f64; 4] = [1.0, 2.0, 4.0, 0.5];

/// The bend at one corner: the curve replacing `l_in` of the incoming leg and `l_out` of the
/// outgoing one.
#[derive(Debug, Clone)]
pub(crate) struct Bend {
    pub(crate) l_in: f64,
    pub(crate) l_out: f64,
    /// Knots from the incoming leg's bend start to the bend end on the outgoing leg.
    pub(crate) knots: Vec<Knot>,
}

impl Bend {
    /// Length (voxels) of the bend's curve.
    pub(crate) fn length(&self) -> f64 {
        self.knots.last().map_or(0.0, |k| k.s)
    }
}

/// Tries to bend the corner `w` between legs of directions `d_in`, `d_out` and lengths `c_in`,
/// `c_out`. Returns the first candidate that is clear and gentle enough:
/// 1. *rounded* corners (one arc-like cubic inside the corner, from `l` before `w` to `l`
///    after it), for `l` of 1, 1/2, 1/4 and 2 bend lengths: shorter than the corner, but
///    they fit only where the inside of the corner has room;
/// 2. *through* bends (two cubics meeting at `w` with the tangent along the bisector of the
///    legs), for `l` of 1, 2, 4 and 1/2 bend lengths: they swing slightly outward, which is
///    where the room is when the corner hugs an obstacle (the usual case after string
///    pulling, where the agent's box touches the obstacle's edge at `w`).
pub(crate) fn bend_corner(
    world: &VoxelWorld,
    config: &SmoothConfig,
    w: DVec3,
    (d_in, c_in): (DVec3, f64),
    (d_out, c_out): (DVec3, f64),
) -> Option<Bend> {
    let sum = d_in + d_out;
    if sum.length() < 1e-6 {
        return None;
    }
    let m = sum.normalize();
    let turn = d_in.angle_between(d_out);
    let max_curvature = 1.0 / f64::from(config.min_turn_radius);
    let base = f64::from(config.bend_length);
    let rounded = ROUNDED_SCALES.iter().map(|&scale| (true, scale));
    let through = THROUGH_SCALES.iter().map(|&scale| (false, scale));
    for (inside, scale) in rounded.chain(through) {
        let l = base * scale;
        let (l_in, l_out) = (l.min(c_in / 2.0), l.min(c_out / 2.0));
        let a = w - d_in * l_in;
        let b = w + d_out * l_out;
        let knots = if inside {
            // Handles of the cubic closest to a circular arc tangent to both legs; for a corner
            // that hardly turns, their limit 2/3 (the formula is 0 / 0 at no turn).
            let k = if turn > 1e-4 { 4.0 / 3.0 * (turn / 4.0).tan() / (turn / 2.0).tan() } else { 2.0 / 3.0 };
            Bezier([a, a + d_in * (k * l_in), b - d_out * (k * l_out), b]).knots(d_in, d_out)
        } else {
            // Handle lengths that keep the peak curvature of the S low (0.33 and 0.47 of the
            // bend length: found by minimising it over 10..85 degree half-turns).
            let (h0, h1) = (0.33, 0.47);
            let first = Bezier([a, a + d_in * (h0 * l_in), w - m * (h1 * l_in), w]).knots(d_in, m);
            let second = Bezier([w, w + m * (h1 * l_out), b - d_out * (h0 * l_out), b]).knots(m, d_out);
            let s0 = first.last().map_or(0.0, |k| k.s);
            let mut knots = first;
            knots.extend(second.into_iter().skip(1).map(|k| Knot { s: k.s + s0, ..k }));
            knots
        };
        if !turns_within(&knots, max_curvature) {
            continue;
        }
        let points: Vec<DVec3> = knots.iter().map(|k| k.pos).collect();
        if polyline_clear(world, config.pass(), &points) {
            return Some(Bend { l_in, l_out, knots });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{UVec3, Vec3};

    /// A corner whose legs run on in the same direction (as where an agent under way is put
    /// before a path's first waypoint on the line of its first leg): the turn is 0, and the
    /// rounded bend's handle formula `tan(turn / 4) / tan(turn / 2)` is 0 / 0. Its bends must
    /// be finite. (The NaN handles gave 65,537 NaN knots before the checks refused them; a first
    /// version of keeping knots in their control points' box, which NaN controls do not have,
    /// let such a bend through, and a trajectory through it was NaN.)
    #[test]
    fn a_straight_corner_bends_to_finite_knots() {
        let world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(16)).unwrap();
        let config = SmoothConfig::default();
        // The legs of a case found in `tests/rejoin.rs`: one apart in the last digit.
        let d_in = DVec3::new(-0.577_350_269_189_625_7, 0.577_350_269_189_625_7, 0.577_350_269_189_625_7);
        let d_out = DVec3::new(-0.577_350_269_189_625_8, 0.577_350_269_189_625_8, 0.577_350_269_189_625_8);
        let w = DVec3::new(9.5, 3.5, 10.5);
        let mut bent = 0;
        for (d_in, d_out) in [(d_in, d_out), (d_in, d_in), (d_out, d_in)] {
            assert!(d_in.angle_between(d_out) < 1e-7);
            for (c_in, c_out) in [(0.168_286_644_244_305_8, 3.464_101_615_137_754_4), (2.0, 2.0), (1e-6, 5.0)] {
                let Some(bend) = bend_corner(&world, &config, w, (d_in, c_in), (d_out, c_out)) else { continue };
                bent += 1;
                for k in &bend.knots {
                    assert!(k.pos.is_finite() && k.tangent.is_finite() && k.curvature.is_finite(), "{c_in}: {k:?}");
                }
            }
        }
        // A straight corner in open space has room for a bend.
        assert_eq!(bent, 9);
    }
}

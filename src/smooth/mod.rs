//! Smoothing: turns a voxel path into a curve the whole agent can fly.
//!
//! See [`smooth_path`]. A pipeline, one file per stage, each importing only those below it:
//! [`error`], [`config`], [`curve`] (knots and cubic curves) and [`path`] (the result); the
//! swept-box clearance test ([`sweep`]); string pulling ([`pull`]); corner bends ([`bend`]); the
//! start of an agent under way ([`underway`]). This file runs the stages in order.

pub(crate) mod bend;
pub(crate) mod config;
pub(crate) mod curve;
pub(crate) mod error;
pub(crate) mod path;
pub(crate) mod pull;
pub(crate) mod sweep;
pub(crate) mod underway;

use glam::{DVec3, IVec3};

use crate::grid::world::VoxelWorld;
use crate::search::path::Path;
use crate::smooth::bend::{Bend, bend_corner};
use crate::smooth::curve::Knot;
use crate::smooth::pull::{string_pull, validate};
use crate::smooth::underway::{START_REACH, Underway, join_from, line_clear, snap};

pub use crate::smooth::config::SmoothConfig;
pub use crate::smooth::error::SmoothError;
pub use crate::smooth::path::SmoothPath;
pub use crate::smooth::sweep::segment_clear;

/// Smooths a path found in `world` into a curve the whole agent can fly.
///
/// Two passes, both checked against the world:
/// 1. **String pulling.** Waypoints are dropped while the straight segment between the kept ones
///    stays clear for the whole agent, tested with [`segment_clear`]: the agent's voxel-sized box
///    is swept along the segment and every voxel it overlaps must be free (an exact voxel
///    traversal, not a thin ray).
/// 2. **Corner bends.** Each kept corner is replaced by a tangent-continuous curve joining the
///    two legs, which stay straight in between: first a *rounded* corner (an arc-like cubic
///    inside the corner, shorter than the corner), else a bend *through* the corner point (two
///    cubics meeting there with the tangent along the bisector of the legs; it swings slightly
///    outward, where the room is when the corner hugs an obstacle, as string-pulled corners
///    usually do). Each candidate, at several lengths, is kept only if the agent's box stays
///    clear along all of it (its polyline of knots at most 1/16 voxel apart, checked with the
///    same positive-volume rule) and it turns no tighter than
///    [`SmoothConfig::min_turn_radius`]. A corner with no such bend stays sharp (a *sharp
///    corner*, where a [`Trajectory`](crate::Trajectory) turns the agent in place). Bends that
///    would make the curve longer than the raw path are dropped, longest excess first.
///
/// # Geometry and units
/// The agent is an axis-aligned box of one voxel (the voxel edge is the agent's
/// [step](crate::Agent::step)) centred on the path point. It *enters* a voxel when the two
/// overlap with positive volume; touching a face, an edge or a corner is allowed. For a single
/// move between neighbours this is exactly [`DiagonalRule::Strict`](crate::DiagonalRule::Strict):
/// the box sweeps the 2x2(x2) block of the move's bounding box.
///
/// The result starts at the centre of the path's first voxel, ends at the centre of its last,
/// is never longer than the path, and the agent's voxel-sized box never enters a voxel that is
/// blocked for `config.media` anywhere along it. Deterministic.
///
/// # Errors
/// As [`smooth_voxels`].
///
/// # Examples
/// See [`SmoothPath`].
pub fn smooth_path(world: &VoxelWorld, path: &Path, config: &SmoothConfig) -> Result<SmoothPath, SmoothError> {
    smooth_voxels(world, &path.voxels, config)
}

/// Smooths a voxel path: string pulling with the swept-box test of [`segment_clear`], then
/// corner bends each checked against the world, the corners without a fitting bend left sharp.
///
/// `voxels` must be a path in `world`: each voxel free for `config.media`, each step a move to
/// one of the 26 neighbours that is legal under the strict diagonal rule. The guarantees are
/// those of [`smooth_path`].
///
/// # Errors
/// [`SmoothError::InvalidConfig`], [`SmoothError::EmptyPath`], [`SmoothError::Blocked`],
/// [`SmoothError::NotAMove`], [`SmoothError::StepClips`].
///
/// # Examples
/// ```
/// use glam::{IVec3, UVec3, Vec3};
/// use voxnav::{smooth_voxels, SmoothConfig, SmoothError, VoxelWorld};
/// let world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(8)).unwrap();
/// let voxels = [IVec3::ZERO, IVec3::new(1, 0, 0), IVec3::new(2, 1, 0), IVec3::new(3, 1, 0)];
/// let smooth = smooth_voxels(&world, &voxels, &SmoothConfig::default()).unwrap();
/// assert_eq!(smooth.waypoints(), &[IVec3::ZERO, IVec3::new(3, 1, 0)]);
/// assert!(matches!(smooth_voxels(&world, &[], &SmoothConfig::default()), Err(SmoothError::EmptyPath)));
/// ```
pub fn smooth_voxels(world: &VoxelWorld, voxels: &[IVec3], config: &SmoothConfig) -> Result<SmoothPath, SmoothError> {
    smooth(world, voxels, config, None)
}

/// [`smooth_voxels`], or with `start` the curve from an agent under way (see
/// [`smooth_from`](crate::smooth_from)).
pub(crate) fn smooth(
    world: &VoxelWorld,
    voxels: &[IVec3],
    config: &SmoothConfig,
    start: Option<Underway>,
) -> Result<SmoothPath, SmoothError> {
    config.validate()?;
    let pass = config.pass();
    let mut raw_length = validate(world, voxels, pass)?;
    let waypoints = string_pull(world, voxels, pass);
    let mut w: Vec<DVec3> = waypoints.iter().map(|v| v.as_dvec3() + 0.5).collect();
    if let Some(Underway { position: p, .. }) = start {
        // The agent heads straight for the farthest of the first waypoints it sees.
        let reach = w.len().min(START_REACH);
        let Some(j) = (0..reach).rev().find(|&i| line_clear(world, pass, snap(p), w[i])) else {
            let position = (world.origin().as_dvec3() + p * f64::from(world.voxel_size())).as_vec3();
            return Err(SmoothError::CannotRejoin { position });
        };
        raw_length += p.distance(w[0]);
        w.drain(..j);
        if p.distance(w[0]) < 1e-9 {
            w[0] = p;
        } else {
            w.insert(0, p);
        }
    }
    let legs: Vec<(DVec3, f64)> = w
        .windows(2)
        .map(|p| {
            let d = p[1] - p[0];
            (d.normalize(), d.length())
        })
        .collect();
    let polyline_length: f64 = legs.iter().map(|l| l.1).sum();

    // One bend (or none: a sharp corner) per interior waypoint.
    let mut bends: Vec<Option<Bend>> = (1..w.len().saturating_sub(1))
        .map(|i| if config.curves { bend_corner(world, config, w[i], legs[i - 1], legs[i]) } else { None })
        .collect();
    // Never longer than the raw path: drop the bends that lengthen the curve most.
    let excess = |b: &Bend| b.length() - b.l_in - b.l_out;
    let mut length = polyline_length + bends.iter().flatten().map(excess).sum::<f64>();
    if length > raw_length {
        let mut order: Vec<usize> = (0..bends.len()).filter(|&i| bends[i].is_some()).collect();
        order.sort_by(|&a, &b| {
            let (ea, eb) = (bends[a].as_ref().map_or(0.0, excess), bends[b].as_ref().map_or(0.0, excess));
            eb.total_cmp(&ea).then(a.cmp(&b))
        });
        for i in order {
            if length <= raw_length {
                break;
            }
            length -= bends[i].take().map_or(0.0, |b| excess(&b));
        }
    }
    // An agent under way starts along its heading (then turns in place onto the first leg).
    let first_tangent = legs.first().map_or(DVec3::ZERO, |l| l.0);
    let start_tangent = start.map_or(first_tangent, |u| u.heading);

    let mut knots: Vec<Knot> = Vec::new();
    let mut s = 0.0;
    let mut push = |knots: &mut Vec<Knot>, k: Knot| {
        if let Some(last) = knots.last() {
            s += last.pos.distance(k.pos);
            if last.pos == k.pos && last.tangent == k.tangent {
                return;
            }
        }
        knots.push(Knot { s, ..k });
    };
    push(&mut knots, Knot { pos: w[0], tangent: start_tangent, curvature: DVec3::ZERO, s: 0.0 });
    if first_tangent != DVec3::ZERO {
        push(&mut knots, Knot { pos: w[0], tangent: first_tangent, curvature: DVec3::ZERO, s: 0.0 });
    }
    for (i, &(dir, _)) in legs.iter().enumerate() {
        // Leg i runs from waypoint i to waypoint i + 1; bends[j] belongs to waypoint j + 1.
        let start_cut = if i > 0 { bends[i - 1].as_ref().map_or(0.0, |b| b.l_out) } else { 0.0 };
        if start_cut > 0.0 {
            push(&mut knots, Knot { pos: w[i] + dir * start_cut, tangent: dir, curvature: DVec3::ZERO, s: 0.0 });
        }
        let bend = bends.get(i).and_then(Option::as_ref);
        match bend {
            Some(b) => {
                for k in &b.knots {
                    push(&mut knots, *k);
                }
            }
            None => {
                push(&mut knots, Knot { pos: w[i + 1], tangent: dir, curvature: DVec3::ZERO, s: 0.0 });
                if let Some(&(next, _)) = legs.get(i + 1) {
                    push(&mut knots, Knot { pos: w[i + 1], tangent: next, curvature: DVec3::ZERO, s: 0.0 });
                }
            }
        }
    }
    let mut sharp_corners = bends.iter().filter(|b| b.is_none()).count();
    if start.is_some() {
        // The turn in place at the start, replaced by a curve where one fits.
        let max_curvature = 1.0 / f64::from(config.min_turn_radius);
        let joined = if config.curves && knots.len() > 1 && knots[0].tangent != knots[1].tangent {
            join_from(world, pass, max_curvature, start_tangent, &knots)
        } else {
            None
        };
        knots = joined.unwrap_or(knots);
        sharp_corners = knots.windows(2).filter(|k| k[0].pos == k[1].pos && k[0].tangent != k[1].tangent).count();
    }
    Ok(SmoothPath {
        origin: world.origin(),
        voxel_size: world.voxel_size(),
        waypoints,
        knots,
        raw_length,
        polyline_length,
        sharp_corners,
        max_curvature: 1.0 / f64::from(config.min_turn_radius),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::medium::Media;
    use glam::{UVec3, Vec3};

    #[test]
    fn rejects_bad_paths() {
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(6)).unwrap();
        world.set(IVec3::new(1, 0, 0), crate::Voxel::Solid).unwrap();
        let c = SmoothConfig::default();
        let e = smooth_voxels(&world, &[IVec3::ZERO, IVec3::new(1, 1, 0)], &c).unwrap_err();
        assert!(matches!(e, SmoothError::StepClips { index: 0, .. }));
        let e = smooth_voxels(&world, &[IVec3::ZERO, IVec3::new(0, 2, 0)], &c).unwrap_err();
        assert!(matches!(e, SmoothError::NotAMove { index: 0, .. }));
        let e = smooth_voxels(&world, &[IVec3::ZERO, IVec3::ZERO], &c).unwrap_err();
        assert!(matches!(e, SmoothError::NotAMove { .. }));
        let e = smooth_voxels(&world, &[IVec3::new(1, 0, 0)], &c).unwrap_err();
        assert!(matches!(e, SmoothError::Blocked { index: 0, .. }));
        let e = smooth_voxels(&world, &[IVec3::new(-1, 0, 0)], &c).unwrap_err();
        assert!(matches!(e, SmoothError::Blocked { .. }));
        let bad = SmoothConfig { bend_length: 0.0, ..c };
        assert!(matches!(smooth_voxels(&world, &[IVec3::ZERO], &bad), Err(SmoothError::InvalidConfig { .. })));
        let water = SmoothConfig { media: Media::WATER, ..c };
        assert!(matches!(smooth_voxels(&world, &[IVec3::ZERO], &water), Err(SmoothError::Blocked { .. })));
    }

    #[test]
    fn a_single_voxel_is_a_point() {
        let world = VoxelWorld::new(Vec3::ZERO, 2.0, UVec3::splat(4)).unwrap();
        let s = smooth_voxels(&world, &[IVec3::ONE], &SmoothConfig::default()).unwrap();
        assert_eq!(s.points(), vec![Vec3::splat(3.0)]);
        assert_eq!(s.length(), 0.0);
    }

    #[test]
    fn an_open_corner_is_bent_and_a_corridor_corner_stays_sharp() {
        // Around a pillar in open space: the corner hugging the pillar's edge is bent.
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(16, 3, 16)).unwrap();
        world.fill_voxels(IVec3::new(0, 0, 0), IVec3::new(7, 2, 7), crate::Voxel::Solid).unwrap();
        let request =
            crate::PathRequest::new(IVec3::new(0, 1, 14), IVec3::new(8, 1, 0), crate::SearchConfig::default());
        let path = crate::Pathfinder::new().find(&world, None, &request).unwrap();
        let s = smooth_path(&world, &path, &SmoothConfig::default()).unwrap();
        assert_eq!(s.waypoints(), &[IVec3::new(0, 1, 14), IVec3::new(8, 1, 8), IVec3::new(8, 1, 0)]);
        assert_eq!(s.sharp_corners(), 0);
        assert!(s.polyline_length() < s.length() && s.length() < s.raw_length());
        let voxels: Vec<IVec3> =
            (0..=8).map(|x| IVec3::new(x, 1, 8)).chain((0..8).rev().map(|z| IVec3::new(8, 1, z))).collect();
        // The same L as a one-voxel corridor: no room to bend.
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(16, 3, 16)).unwrap();
        world.fill_voxels(IVec3::ZERO, IVec3::new(15, 2, 15), crate::Voxel::Solid).unwrap();
        for &v in &voxels {
            world.set(v, crate::Voxel::Air).unwrap();
        }
        let s = smooth_voxels(&world, &voxels, &SmoothConfig::default()).unwrap();
        assert_eq!(s.sharp_corners(), 1);
        assert!((s.length() - 16.0).abs() < 1e-12);
    }
}

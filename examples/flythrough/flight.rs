//! From a trip to a flight: plan the voxel path, smooth it, and sample poses along it.
//!
//! INTEGRATION POINT (issue 3): smoothing and orientation come from the library once its
//! `Trajectory` API lands; until then `smooth` keeps the raw polyline and `orient` builds a
//! look-at frame from the path tangent (no bank).

use std::time::{Duration, Instant};

use voxnav::glam::{Mat3, Quat, Vec3};
use voxnav::{Path, PathError, Pathfinder, SearchConfig, VoxelWorld};

use crate::scene::Trip;

/// One sample of a flight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// Arc length from the start, world units.
    pub s: f32,
    /// Position, world units.
    pub position: Vec3,
    /// Model-local to world rotation; model axes: -Z forward, +Y up, +X right.
    pub rotation: Quat,
}

/// A planned, smoothed and oriented trip.
#[derive(Debug, Clone)]
pub struct Flight {
    /// The trip.
    pub trip: Trip,
    /// The voxel path the search found.
    pub path: Path,
    /// Time the search took.
    pub search_time: Duration,
    /// Time smoothing and orienting took.
    pub smooth_time: Duration,
    /// Poses at most `SPACING` apart along the smoothed path, from start to goal.
    pub poses: Vec<Pose>,
}

/// Largest gap between poses, world units.
pub const SPACING: f32 = 0.25;

impl Flight {
    /// Plans `trip` through `world` with `finder`, then smooths and orients the result.
    pub fn plan(world: &VoxelWorld, finder: &mut Pathfinder, trip: Trip) -> Result<Flight, PathError> {
        let t = Instant::now();
        let path = finder.find_path(world, trip.start, trip.goal, &SearchConfig::for_agent(&trip.agent))?;
        let search_time = t.elapsed();
        let t = Instant::now();
        let curve = smooth(&path);
        let poses = orient(&curve);
        let smooth_time = t.elapsed();
        Ok(Flight { trip, path, search_time, smooth_time, poses })
    }

    /// Length of the smoothed path, world units.
    pub fn length(&self) -> f32 {
        self.poses.last().map_or(0.0, |p| p.s)
    }

    /// The pose at arc length `s` (clamped to the flight), between the two nearest samples.
    pub fn pose_at(&self, s: f32) -> Pose {
        let s = s.clamp(0.0, self.length());
        let i = self.poses.partition_point(|p| p.s <= s).clamp(1, self.poses.len().max(2) - 1);
        let (a, b) = (self.poses[i - 1], self.poses[i.min(self.poses.len() - 1)]);
        let f = if b.s > a.s { (s - a.s) / (b.s - a.s) } else { 0.0 };
        Pose { s, position: a.position.lerp(b.position, f), rotation: a.rotation.slerp(b.rotation, f) }
    }

    /// The positions of the poses, for drawing.
    pub fn points(&self) -> Vec<Vec3> {
        self.poses.iter().map(|p| p.position).collect()
    }
}

/// INTEGRATION POINT (issue 3): the library's smoother. Until then, the raw polyline.
fn smooth(path: &Path) -> Vec<Vec3> {
    path.points.clone()
}

/// INTEGRATION POINT (issue 3): the library's orientation. Until then, resample the curve every
/// `SPACING` and look along the tangent (averaged over a couple of metres) with +Y up.
fn orient(curve: &[Vec3]) -> Vec<Pose> {
    let mut samples = Vec::new();
    let mut s = 0.0;
    for w in curve.windows(2) {
        let len = w[0].distance(w[1]);
        let n = (len / SPACING).ceil().max(1.0) as usize;
        for i in 0..n {
            samples.push((s + len * i as f32 / n as f32, w[0].lerp(w[1], i as f32 / n as f32)));
        }
        s += len;
    }
    if let Some(&last) = curve.last() {
        samples.push((s, last));
    }
    let at = |i: isize| samples[i.clamp(0, samples.len() as isize - 1) as usize].1;
    let mut forward_prev = Vec3::X;
    (0..samples.len() as isize)
        .map(|i| {
            let f = (at(i + 8) - at(i - 8)).try_normalize().unwrap_or(forward_prev);
            forward_prev = f;
            let right = f.cross(Vec3::Y).try_normalize().unwrap_or(Vec3::X);
            let up = right.cross(f);
            let rotation = Quat::from_mat3(&Mat3::from_cols(right, up, -f));
            Pose { s: samples[i as usize].0, position: samples[i as usize].1, rotation }
        })
        .collect()
}

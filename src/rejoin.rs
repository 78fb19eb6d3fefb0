//! [`smooth_from`]: a smoothed path that starts where a moving agent is, heading where it
//! heads, so that a repaired path can be flown on without a jump.

use glam::{IVec3, Vec3};

use crate::grid::world::VoxelWorld;
use crate::smooth::underway::Underway;
use crate::smooth::{SmoothConfig, SmoothError, SmoothPath, smooth};

/// Smooths `voxels` for an agent already under way at `position` (world units) with its
/// direction of travel `heading`, as after a repair: the curve starts exactly at `position`,
/// tangent to `heading`, and then follows what [`smooth_voxels`](crate::smooth_voxels) would
/// make of `voxels`.
///
/// `voxels` should start at or next to the agent (for a repaired path, the path voxel nearest
/// to it). String pulling starts from the agent itself: it heads straight for the farthest of
/// the first 8 string-pulled waypoints to which its box has a clear straight way (checked over
/// boxes at most 1/4 voxel apart and the hulls between them, slightly more strictly than
/// [`segment_clear`](crate::segment_clear)). It turns from `heading` onto that first leg on a
/// cubic curve tangent to both, kept only if the box stays clear along it and it turns no
/// tighter than [`SmoothConfig::min_turn_radius`]; where none fits (the new way turns back, or
/// geometry is in the way) it turns in place first: a sharp corner, where a
/// [`Trajectory`](crate::Trajectory) pivots without a jump. The rest is smoothed as usual.
///
/// The guarantees of [`smooth_path`](crate::smooth_path) hold, except that the curve starts at
/// `position`, and its length is bounded by the raw path's plus the way from `position` to the
/// first voxel's centre ([`SmoothPath::raw_length`] counts it) plus the turn onto the first leg.
/// Fly it with [`Trajectory::continue_from`](crate::Trajectory::continue_from) so that the
/// orientation continues too.
///
/// # Errors
/// Those of [`smooth_voxels`](crate::smooth_voxels); [`SmoothError::InvalidPose`] if
/// `position` or `heading` is not finite or `heading` is zero; [`SmoothError::CannotRejoin`] if
/// the agent's box has no clear straight way to any of those first waypoints (it overlaps a
/// blocked voxel where it is, say).
///
/// # Examples
/// ```
/// use glam::{IVec3, UVec3, Vec3};
/// use voxnav::{smooth_from, SmoothConfig, VoxelWorld};
/// let world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(16)).unwrap();
/// let voxels: Vec<IVec3> = (4..12).map(|x| IVec3::new(x, 4, 4)).collect();
/// // The agent is a little off the path's start, heading up and along +X.
/// let (position, heading) = (Vec3::new(4.2, 4.3, 4.5), Vec3::new(1.0, 0.3, 0.0));
/// let smooth = smooth_from(&world, position, heading, &voxels, &SmoothConfig::default()).unwrap();
/// assert_eq!(smooth.points()[0], position);
/// assert_eq!(smooth.points().last(), Some(&Vec3::new(11.5, 4.5, 4.5)));
/// ```
pub fn smooth_from(
    world: &VoxelWorld,
    position: Vec3,
    heading: Vec3,
    voxels: &[IVec3],
    config: &SmoothConfig,
) -> Result<SmoothPath, SmoothError> {
    let d = heading.as_dvec3();
    if !(position.is_finite() && heading.is_finite()) || d.length() < 1e-12 {
        return Err(SmoothError::InvalidPose { position, heading });
    }
    let p = (position.as_dvec3() - world.origin().as_dvec3()) / f64::from(world.voxel_size());
    smooth(world, voxels, config, Some(Underway { position: p, heading: d.normalize() }))
}

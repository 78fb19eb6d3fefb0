//! [`SmoothPath`]: a smoothed path, the curve the agent flies.

use glam::{DVec3, IVec3, Vec3};

use crate::smooth::curve::Knot;

/// A smoothed path: a curve from the start voxel's centre to the goal voxel's centre along
/// which the agent's box never enters a blocked voxel.
///
/// The curve is stored as *knots*: straight segments between consecutive knots (bends are
/// sampled at most 1/16 voxel apart), and that polyline is exactly what was checked against
/// the world. At a sharp corner two consecutive knots share a position and differ in tangent.
/// Build one with [`smooth_path`](crate::smooth_path); fly it with a [`Trajectory`](crate::Trajectory).
///
/// # Examples
/// ```
/// use glam::{IVec3, UVec3, Vec3};
/// use voxnav::{smooth_path, PathRequest, Pathfinder, SearchConfig, SmoothConfig, Voxel, VoxelWorld};
/// let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(24, 8, 24)).unwrap();
/// world.fill_voxels(IVec3::new(10, 0, 0), IVec3::new(12, 7, 15), Voxel::Solid).unwrap();
/// let path = Pathfinder::new()
///     .find(&world, None, &PathRequest::new(IVec3::new(2, 4, 2), IVec3::new(20, 4, 3), SearchConfig::default()))
///     .unwrap();
/// let smooth = smooth_path(&world, &path, &SmoothConfig::default()).unwrap();
/// assert!(smooth.length() <= smooth.raw_length());
/// assert_eq!(smooth.points().first(), Some(&Vec3::new(2.5, 4.5, 2.5)));
/// assert_eq!(smooth.points().last(), Some(&Vec3::new(20.5, 4.5, 3.5)));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SmoothPath {
    /// The world's origin and voxel edge: knots are in voxel units.
    pub(crate) origin: Vec3,
    pub(crate) voxel_size: f32,
    /// The voxels string pulling kept.
    pub(crate) waypoints: Vec<IVec3>,
    /// The curve (voxel units).
    pub(crate) knots: Vec<Knot>,
    /// Lengths of the input path and of the polyline through the waypoints (voxels).
    pub(crate) raw_length: f64,
    pub(crate) polyline_length: f64,
    /// Interior waypoints without a bend.
    pub(crate) sharp_corners: usize,
    /// Largest curvature (1 / voxel) between consecutive knots.
    pub(crate) max_curvature: f64,
}

impl SmoothPath {
    /// The voxels string pulling kept, start and goal included: the curve passes through each
    /// one's centre.
    #[must_use]
    pub fn waypoints(&self) -> &[IVec3] {
        &self.waypoints
    }

    /// Length of the smoothed curve, in world units. Never more than
    /// [`raw_length`](Self::raw_length).
    #[must_use]
    pub fn length(&self) -> f64 {
        self.knots.last().map_or(0.0, |k| k.s) * f64::from(self.voxel_size)
    }

    /// Length of the input voxel path through the voxel centres, in world units.
    #[must_use]
    pub fn raw_length(&self) -> f64 {
        self.raw_length * f64::from(self.voxel_size)
    }

    /// Length of the string-pulled polyline through the [`waypoints`](Self::waypoints), in
    /// world units (the curve is at most a little longer, or shorter).
    #[must_use]
    pub fn polyline_length(&self) -> f64 {
        self.polyline_length * f64::from(self.voxel_size)
    }

    /// How many interior waypoints have no bend (the curve turns sharply there).
    #[must_use]
    pub fn sharp_corners(&self) -> usize {
        self.sharp_corners
    }

    /// The curve as a polyline of world points (every knot, consecutive duplicates at sharp
    /// corners removed): exactly the geometry that was checked against the world.
    #[must_use]
    pub fn points(&self) -> Vec<Vec3> {
        let mut out: Vec<Vec3> = Vec::with_capacity(self.knots.len());
        for k in &self.knots {
            let p = self.to_world(k.pos);
            if out.last() != Some(&p) {
                out.push(p);
            }
        }
        out
    }

    /// World position of a point in voxel units.
    #[inline]
    pub(crate) fn to_world(&self, p: DVec3) -> Vec3 {
        (self.origin.as_dvec3() + p * f64::from(self.voxel_size)).as_vec3()
    }

    pub(crate) fn knots(&self) -> &[Knot] {
        &self.knots
    }

    pub(crate) fn voxel_size(&self) -> f32 {
        self.voxel_size
    }

    /// Largest curvature (1 / voxel) the curve may have between consecutive knots.
    pub(crate) fn max_curvature(&self) -> f64 {
        self.max_curvature
    }
}
